/*
 * fuzz/fuzz_collide.c - libFuzzer target for sat.h and contact.h: two boxes
 * (and two rectangles) from raw doubles through magdyn_obb_sat,
 * magdyn_obb_sat_checked, magdyn_obb_manifold (several margins),
 * magdyn_rect_sat and magdyn_broadphase_pairs, checking the documented
 * results for bad input and the invariants of good results; and the batched
 * magdyn_obb_overlap_pairs, magdyn_obb_manifold_pairs and
 * magdyn_obb_contacts_pairs against the single tests, which they must match
 * to the last bit.
 * Input: 20 doubles (box a: centre 3, quat 4, half 3; box b likewise), then
 * 10 doubles for two rectangles, then a margin.
 */
#include <string.h>
#include <magdyn.h>
#include "fuzz_util.h"

static magdyn_obb read_obb(fz_in *in)
{
    magdyn_obb b;
    b.center.x = fz_double(in); b.center.y = fz_double(in); b.center.z = fz_double(in);
    b.orientation.w = fz_double(in); b.orientation.x = fz_double(in);
    b.orientation.y = fz_double(in); b.orientation.z = fz_double(in);
    b.half.x = fz_double(in); b.half.y = fz_double(in); b.half.z = fz_double(in);
    return b;
}

/* A box the library accepts (sat.h: magdyn_obb_check, MAGDYN_OBB_RANGE). */
static int box_ok(const magdyn_obb *b)
{
    return magdyn_obb_check(b) == MAGDYN_OK;
}

static void check_sat(const magdyn_obb *a, const magdyn_obb *b)
{
    magdyn_sat_result r, rc;
    int ok = box_ok(a) && box_ok(b);
    int checked = magdyn_obb_check(a) == MAGDYN_OK && magdyn_obb_check(b) == MAGDYN_OK;
    int ov = magdyn_obb_sat(a, b, &r);
    FZ_ASSERT(ov == 0 || ov == 1);
    FZ_ASSERT(ov == r.overlap);
    FZ_ASSERT(magdyn_obb_sat(a, b, NULL) == ov);
    if (!ok) {
        FZ_ASSERT(ov == 0 && isnan(r.separation) && r.axis == -1);
        FZ_ASSERT(r.normal.x == 0 && r.normal.y == 0 && r.normal.z == 0);
    } else {
        FZ_ASSERT(r.axis >= 0 && r.axis <= 14);
        FZ_ASSERT(!isnan(r.separation));
        FZ_ASSERT(fz_unit_or_bad(r.normal.x, r.normal.y, r.normal.z));
        FZ_ASSERT(ov == (r.separation <= 0));
    }
    memset(&rc, 0xa5, sizeof rc);
    magdyn_sat_result keep = rc;
    magdyn_status s = magdyn_obb_sat_checked(a, b, &rc);
    if (ok) {
        FZ_ASSERT(s == MAGDYN_OK);
        FZ_ASSERT(rc.overlap == r.overlap && rc.axis == r.axis);
    } else if (checked) {
        FZ_ASSERT(s == MAGDYN_OK || s < 0);
    } else {
        FZ_ASSERT(s < 0);
        FZ_ASSERT(FZ_SAME(rc, keep));
    }
    FZ_ASSERT(magdyn_obb_sat_checked(a, b, NULL) < 0);
}

static void check_ids(const magdyn_manifold *m, int n);

static void check_manifold(const magdyn_obb *a, const magdyn_obb *b, double margin)
{
    magdyn_manifold m;
    int ok = box_ok(a) && box_ok(b) && isfinite(margin) && margin >= 0;
    memset(&m, 0x5a, sizeof m);
    int n = magdyn_obb_manifold(a, b, margin, &m);
    FZ_ASSERT(n >= 0 && n <= MAGDYN_MAX_CONTACTS);
    FZ_ASSERT(n == m.count);
    FZ_ASSERT(magdyn_obb_manifold(a, b, margin, NULL) == n);
    if (!ok) {
        FZ_ASSERT(n == 0 && m.kind == MAGDYN_CONTACT_FACE_FACE);
        FZ_ASSERT(m.normal.x == 0 && m.normal.y == 0 && m.normal.z == 0);
        return;
    }
    FZ_ASSERT(m.kind >= MAGDYN_CONTACT_FACE_FACE && m.kind <= MAGDYN_CONTACT_EDGE_EDGE);
    if (n > 0) {
        FZ_ASSERT(fz_unit_or_bad(m.normal.x, m.normal.y, m.normal.z));
        for (int i = 0; i < n; i++) {
            FZ_ASSERT(!isnan(m.point[i].x) && !isnan(m.point[i].y) && !isnan(m.point[i].z));
            FZ_ASSERT(!isnan(m.depth[i]));
        }
    }
    check_ids(&m, 1);
}

/* Ids: two feature numbers 0-26 (not 13) in the low bytes for the points
 * of the n manifolds, all different; 0 for the unused points. */
static void check_ids(const magdyn_manifold *m, int n)
{
    for (int k = 0; k < n; k++)
        for (int i = 0; i < MAGDYN_MAX_CONTACTS; i++) {
            unsigned id = m[k].id[i], fa = (id & 255) - 1, fb = (id >> 8) - 1;
            if (i >= m[k].count) {
                FZ_ASSERT(id == 0);
                continue;
            }
            FZ_ASSERT(id >> 16 == 0 && fa <= 26 && fb <= 26 && fa != 13 && fb != 13);
            for (int l = 0; l <= k; l++)
                for (int j = 0; j < (l == k ? i : m[l].count); j++) FZ_ASSERT(m[l].id[j] != id);
        }
}

/* The contact set: at most max_out manifolds, each with its points, unit
 * normals, distinct ids; nothing written for bad input or apart boxes. */
static void check_contacts(const magdyn_obb *a, const magdyn_obb *b, double margin)
{
    magdyn_manifold m[MAGDYN_MAX_PAIR_MANIFOLDS + 1], keep;
    int ok = box_ok(a) && box_ok(b) && isfinite(margin) && margin >= 0;
    memset(m, 0x5a, sizeof m);
    memcpy(&keep, &m[0], sizeof keep);
    int n = magdyn_obb_contacts(a, b, margin, m, MAGDYN_MAX_PAIR_MANIFOLDS);
    FZ_ASSERT(n >= 0 && n <= MAGDYN_MAX_PAIR_MANIFOLDS);
    FZ_ASSERT(memcmp(&m[MAGDYN_MAX_PAIR_MANIFOLDS], &keep, sizeof keep) == 0);
    if (!ok || n == 0) {
        FZ_ASSERT(n == 0 && memcmp(&m[0], &keep, sizeof keep) == 0);
        return;
    }
    for (int k = 0; k < n; k++) {
        FZ_ASSERT(m[k].count >= 1 && m[k].count <= MAGDYN_MAX_CONTACTS);
        FZ_ASSERT(fz_unit_or_bad(m[k].normal.x, m[k].normal.y, m[k].normal.z));
        for (int i = 0; i < m[k].count; i++)
            FZ_ASSERT(magdyn_vec3_isfinite(m[k].point[i]) && isfinite(m[k].depth[i]));
    }
    check_ids(m, n);
    /* max_out 1: the same first manifold */
    magdyn_manifold one;
    FZ_ASSERT(magdyn_obb_contacts(a, b, margin, &one, 1) == 1 && memcmp(&one, &m[0], sizeof one) == 0);
}

static void check_rect(const magdyn_rect *a, const magdyn_rect *b)
{
    magdyn_rect_sat_result r;
    int ok = 1;
    const magdyn_rect *rs[2] = {a, b};
    for (int k = 0; k < 2; k++)
        ok = ok && isfinite(rs[k]->center.x) && isfinite(rs[k]->center.y)
             && isfinite(rs[k]->angle) && isfinite(rs[k]->half.x) && isfinite(rs[k]->half.y)
             && rs[k]->half.x > 0 && rs[k]->half.y > 0;
    int ov = magdyn_rect_sat(a, b, &r);
    FZ_ASSERT(ov == 0 || ov == 1);
    FZ_ASSERT(ov == r.overlap);
    FZ_ASSERT(magdyn_rect_sat(a, b, NULL) == ov);
    if (!ok) {
        FZ_ASSERT(ov == 0 && isnan(r.separation) && r.axis == -1);
    } else {
        FZ_ASSERT(r.axis >= 0 && r.axis <= 3);
        FZ_ASSERT(!isnan(r.separation));
    }
}

static int same_manifold(const magdyn_manifold *x, const magdyn_manifold *y)
{
    if (x->count != y->count || x->kind != y->kind || !FZ_SAME(x->normal, y->normal)) return 0;
    for (int i = 0; i < x->count; i++)
        if (!FZ_SAME(x->point[i], y->point[i]) || !FZ_SAME(x->depth[i], y->depth[i])) return 0;
    /* the ids of unused points too: 0 in both */
    return FZ_SAME(x->id, y->id);
}

/* The batched tests on 9 pairs of the four boxes (two blocks of four and a
 * tail) against the single tests. */
static void check_batches(const magdyn_obb *box, double margin)
{
    static const int pairs[18] = {0, 1, 1, 0, 0, 0, 2, 1, 1, 3, 0, 2, 3, 2, 2, 0, 1, 1};
    int ov[9];
    magdyn_manifold m[9], one;
    FZ_ASSERT(magdyn_obb_overlap_pairs(4, box, 9, pairs, ov) == MAGDYN_OK);
    for (int k = 0; k < 9; k++) {
        const magdyn_obb *a = &box[pairs[2 * k]], *b = &box[pairs[2 * k + 1]];
        int want = !box_ok(a) || !box_ok(b) ? -1 : magdyn_obb_sat(a, b, NULL);
        FZ_ASSERT(ov[k] == want);
    }
    magdyn_status s = magdyn_obb_manifold_pairs(4, box, 9, pairs, margin, m);
    if (!isfinite(margin) || margin < 0) {
        FZ_ASSERT(s < 0);
        return;
    }
    FZ_ASSERT(s == MAGDYN_OK);
    for (int k = 0; k < 9; k++) {
        magdyn_obb_manifold(&box[pairs[2 * k]], &box[pairs[2 * k + 1]], margin, &one);
        FZ_ASSERT(same_manifold(&one, &m[k]));
    }
    /* the contact sets, byte for byte as one pair at a time */
    {
        enum { M = MAGDYN_MAX_PAIR_MANIFOLDS };
        static magdyn_manifold sets[9 * M], own[M];
        int counts[9];
        FZ_ASSERT(magdyn_obb_contacts_pairs(4, box, 9, pairs, margin, sets, M, counts) == MAGDYN_OK);
        for (int k = 0; k < 9; k++) {
            int n = magdyn_obb_contacts(&box[pairs[2 * k]], &box[pairs[2 * k + 1]], margin, own, M);
            FZ_ASSERT(counts[k] == n);
            FZ_ASSERT(memcmp(own, &sets[k * M], (size_t)n * sizeof *own) == 0);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    magdyn_obb box[4];
    box[0] = read_obb(&in);
    box[1] = read_obb(&in);
    magdyn_rect ra, rb;
    ra.center.x = fz_double(&in); ra.center.y = fz_double(&in); ra.angle = fz_double(&in);
    ra.half.x = fz_double(&in); ra.half.y = fz_double(&in);
    rb.center.x = fz_double(&in); rb.center.y = fz_double(&in); rb.angle = fz_double(&in);
    rb.half.x = fz_double(&in); rb.half.y = fz_double(&in);
    double margin = fz_double(&in);

    check_sat(&box[0], &box[1]);
    check_sat(&box[1], &box[0]);
    check_sat(&box[0], &box[0]);
    const double margins[] = {0.0, 1e-9, 1e-3, 1.0, margin, -1.0};
    for (size_t k = 0; k < sizeof margins / sizeof margins[0]; k++) {
        check_manifold(&box[0], &box[1], margins[k]);
        check_manifold(&box[1], &box[0], margins[k]);
        check_contacts(&box[0], &box[1], margins[k]);
    }
    check_rect(&ra, &rb);
    check_rect(&rb, &ra);
    FZ_ASSERT(magdyn_obb_sat(NULL, &box[1], NULL) == 0);
    FZ_ASSERT(magdyn_obb_manifold(&box[0], NULL, 0.0, NULL) == 0);

    /* Broad phase on four boxes: the two, a shifted copy of a, and b again. */
    box[2] = box[0];
    box[2].center.x += 0.5 * box[0].half.x;
    box[3] = box[1];
    int ok = 1;
    for (int i = 0; i < 4; i++) ok = ok && magdyn_obb_check(&box[i]) == MAGDYN_OK;
    int pairs[12], np = -7;
    int keep_pairs[12];
    memset(pairs, 0x77, sizeof pairs);
    memcpy(keep_pairs, pairs, sizeof pairs);
    double bm = isfinite(margin) ? fabs(margin) : margin;
    magdyn_status s = magdyn_broadphase_pairs(4, box, bm, pairs, 6, &np);
    if (s == MAGDYN_OK) {
        FZ_ASSERT(ok && isfinite(bm));
        FZ_ASSERT(np >= 0 && np <= 6);
        for (int k = 0; k < np; k++) {
            FZ_ASSERT(pairs[2 * k] >= 0 && pairs[2 * k] < pairs[2 * k + 1] && pairs[2 * k + 1] < 4);
        }
        /* Boxes b and its copy coincide, so they must be listed. */
        int found = 0;
        for (int k = 0; k < np; k++) found |= pairs[2 * k] == 1 && pairs[2 * k + 1] == 3;
        FZ_ASSERT(found);
    } else {
        FZ_ASSERT(s < 0);
        FZ_ASSERT(np == -7 && memcmp(pairs, keep_pairs, sizeof pairs) == 0);
    }
    np = -7;
    s = magdyn_broadphase_pairs(4, box, bm, NULL, 0, &np);
    FZ_ASSERT(s < 0 ? np == -7 : np >= 0);
    for (size_t k = 0; k < sizeof margins / sizeof margins[0]; k++) check_batches(box, margins[k]);
    return 0;
}
