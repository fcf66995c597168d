/*
 * test_contact_set.c - the feature ids of contact manifolds and the contact
 * set of a pair (magdyn_obb_contacts), on hand-made configurations whose
 * touching features are known on paper.  The expected ids are built from
 * the encoding that contact.h documents (a feature is its sign vector in
 * the box's body axes), independently of the clipping that tags the
 * points; the expected points from the boxes' corners.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"
#include "same_manifold.h"

static magdyn_obb box(double cx, double cy, double cz, magdyn_quat q, double hx, double hy, double hz)
{
    magdyn_obb o;
    o.center = magdyn_v3(cx, cy, cz);
    o.orientation = q;
    o.half = magdyn_v3(hx, hy, hz);
    return o;
}

/* The feature with signs (sx, sy, sz) in {-1, 0, 1} and the id of a pair of them (contact.h). */
static unsigned feat(int sx, int sy, int sz) { return (unsigned)((sx + 1) + 3 * (sy + 1) + 9 * (sz + 1)); }
static unsigned fid(unsigned fa, unsigned fb) { return (fa + 1) | (fb + 1) << 8; }

/* The signs of feature f, and its number of zero signs (0 corner, 1 edge, 2 face). */
static int zeros_of(unsigned f, int *s)
{
    int q, z = 0;
    for (q = 0; q < 3; q++, f /= 3) {
        s[q] = (int)(f % 3) - 1;
        z += s[q] == 0;
    }
    return z;
}

/* The corner of o with the signs s, inertial. */
static magdyn_vec3 corner(const magdyn_obb *o, const int *s)
{
    return magdyn_vec3_add(o->center, magdyn_quat_rotate(o->orientation, magdyn_v3(s[0] * o->half.x, s[1] * o->half.y,
                                                                                s[2] * o->half.z)));
}

/* The index of id in m, or -1. */
static int find_id(const magdyn_manifold *m, unsigned id)
{
    int i;
    for (i = 0; i < m->count; i++)
        if (m->id[i] == id) return i;
    return -1;
}

/* Every id of the n manifolds nonzero and different from the others, the
 * unused ones 0, and every normal unit and from b towards a (along the
 * centres' difference). */
static void check_set(const magdyn_manifold *m, int n, const magdyn_obb *a, const magdyn_obb *b)
{
    int k, i, l, j;
    magdyn_vec3 t = magdyn_vec3_sub(a->center, b->center);
    for (k = 0; k < n; k++) {
        ck_assert_int_ge(m[k].count, 1);
        ck_assert_double_eq_tol(magdyn_vec3_norm(m[k].normal), 1.0, 1e-14);
        ck_assert(magdyn_vec3_dot(m[k].normal, t) > 0.0);
        for (i = 0; i < MAGDYN_MAX_CONTACTS; i++) {
            if (i >= m[k].count) {
                ck_assert_uint_eq(m[k].id[i], 0);
                continue;
            }
            ck_assert_uint_ne(m[k].id[i], 0);
            for (l = 0; l <= k; l++)
                for (j = 0; j < (l == k ? i : m[l].count); j++)
                    ck_assert_msg(m[k].id[i] != m[l].id[j], "id %04x twice", m[k].id[i]);
        }
    }
}

/* A rigid motion of box o: turned by angle about axis through its centre, moved by t. */
static magdyn_obb nudged(magdyn_obb o, magdyn_vec3 axis, double angle, magdyn_vec3 t)
{
    ck_assert(magdyn_quat_normalize(magdyn_quat_mul(magdyn_quat_from_axis_angle(axis, angle), o.orientation),
                                  &o.orientation) == MAGDYN_OK);
    o.center = magdyn_vec3_add(o.center, t);
    return o;
}

/*
 * Each point of a face manifold of a (on top) resting on b's top face z = top
 * whose id is (corner of a, face +z of b): halfway between a's corner and
 * the face, wherever the corner is.  Returns how many points were such.
 */
static int corners_on_top(const magdyn_manifold *m, const magdyn_obb *a, double top)
{
    int i, s[3], t[3], n = 0;
    for (i = 0; i < m->count; i++) {
        unsigned fa = (m->id[i] & 255) - 1, fb = (m->id[i] >> 8) - 1;
        magdyn_vec3 c;
        if (zeros_of(fa, s) != 0 || fb != feat(0, 0, 1)) continue;
        ck_assert(zeros_of(fb, t) == 2);
        c = corner(a, s);
        ck_assert_msg(magdyn_vec3_dist(m->point[i], magdyn_v3(c.x, c.y, 0.5 * (c.z + top))) < 1e-12,
                      "point %d of id %04x", i, m->id[i]);
        ck_assert_double_eq_tol(m->depth[i], top - c.z, 1e-12);
        n++;
    }
    return n;
}

/* A cube resting flat on a larger box: 4 points, the 4 bottom corners of
 * the cube on b's top face, 4 distinct ids; the same ids after small
 * motions (1e-4 of the size, 1e-4 rad about several axes), with the points
 * at the moved corners. */
START_TEST(ids_resting_face)
{
    const double pen = 1e-5, margin = 1e-3;
    const magdyn_vec3 axes[4] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.3, -0.8, 0.5}};
    magdyn_obb a = box(0.3, -0.2, 1.0 - pen, magdyn_quat_identity(), 0.5, 0.5, 0.5);
    magdyn_obb b = box(0, 0, 0, magdyn_quat_identity(), 1, 1, 0.5);
    magdyn_manifold m0, m;
    unsigned want[4];
    int i, k, sx, sy;
    ck_assert_int_eq(magdyn_obb_manifold(&a, &b, margin, &m0), 4);
    check_set(&m0, 1, &a, &b);
    for (i = 0, sx = -1; sx <= 1; sx += 2)
        for (sy = -1; sy <= 1; sy += 2) want[i++] = fid(feat(sx, sy, -1), feat(0, 0, 1));
    for (i = 0; i < 4; i++) ck_assert_msg(find_id(&m0, want[i]) >= 0, "id %04x missing", want[i]);
    ck_assert_int_eq(corners_on_top(&m0, &a, 0.5), 4);
    /* the swapped pair: the same features, the bytes swapped */
    ck_assert_int_eq(magdyn_obb_manifold(&b, &a, margin, &m), 4);
    for (i = 0; i < 4; i++) ck_assert(find_id(&m, (want[i] >> 8) | (want[i] & 255) << 8) >= 0);
    for (k = 0; k < 8; k++) {
        double ang = k < 4 ? 1e-4 : -1e-4;
        magdyn_obb a2 = nudged(a, axes[k % 4], ang, magdyn_v3(1e-4 * (k % 3), -1e-4 * (k % 2), 0));
        ck_assert_int_eq(magdyn_obb_manifold(&a2, &b, margin, &m), 4);
        check_set(&m, 1, &a2, &b);
        for (i = 0; i < 4; i++) ck_assert_msg(find_id(&m, want[i]) >= 0, "motion %d: id %04x missing", k, want[i]);
        ck_assert_int_eq(corners_on_top(&m, &a2, 0.5), 4);
    }
}
END_TEST

/* The cube slides off b's +x side: first its two +x corners leave (the
 * clip makes two points where a's edges cross b's edge), then, turned
 * about z, one corner only.  Surviving corners keep their ids; the new
 * points get new ids, of an edge of a on an edge of b. */
START_TEST(ids_sliding_off)
{
    const double pen = 1e-5, margin = 1e-3;
    magdyn_obb a = box(0.8, -0.2, 1.0 - pen, magdyn_quat_identity(), 0.5, 0.5, 0.5);
    magdyn_obb b = box(0, 0, 0, magdyn_quat_identity(), 1, 1, 0.5);
    magdyn_manifold m0, m;
    magdyn_quat qz = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.3);
    int i, j, s[3], t[3], kept = 0, fresh = 0;
    ck_assert_int_eq(magdyn_obb_manifold(&a, &b, margin, &m), 4);
    check_set(&m, 1, &a, &b);
    ck_assert(find_id(&m, fid(feat(-1, -1, -1), feat(0, 0, 1))) >= 0);
    ck_assert(find_id(&m, fid(feat(-1, 1, -1), feat(0, 0, 1))) >= 0);
    /* a's bottom edges along x (at y = -+0.5) on b's top edge along y at x = +1 */
    for (j = -1; j <= 1; j += 2) {
        i = find_id(&m, fid(feat(0, j, -1), feat(1, 0, 1)));
        ck_assert_msg(i >= 0, "crossing at y %d missing", j);
        ck_assert(magdyn_vec3_dist(m.point[i], magdyn_v3(1.0, -0.2 + 0.5 * j, 0.5 - 0.5 * pen)) < 1e-12);
    }
    /* turned: all four corners on the face, then one of them off it */
    a = box(0.2, -0.2, 1.0 - pen, qz, 0.5, 0.5, 0.5);
    ck_assert_int_eq(magdyn_obb_manifold(&a, &b, margin, &m0), 4);
    ck_assert_int_eq(corners_on_top(&m0, &a, 0.5), 4);
    a.center.x = 0.55;   /* corners at x = 0.55 + (-0.625, -0.33, 0.33, 0.625) */
    ck_assert_int_eq(magdyn_obb_manifold(&a, &b, margin, &m), 4);
    check_set(&m, 1, &a, &b);
    for (i = 0; i < m.count; i++) {
        unsigned fa = (m.id[i] & 255) - 1, fb = (m.id[i] >> 8) - 1;
        if (find_id(&m0, m.id[i]) >= 0) {
            kept++;
            continue;
        }
        fresh++;
        ck_assert_int_eq(zeros_of(fa, s), 1);
        ck_assert_int_eq(zeros_of(fb, t), 1);
        ck_assert(t[0] == 1 && t[1] == 0 && t[2] == 1);   /* b's edge along y at +x, +z */
        ck_assert_double_eq_tol(m.point[i].x, 1.0, 1e-12);
    }
    ck_assert_int_eq(corners_on_top(&m, &a, 0.5), kept);
    ck_assert(kept >= 2 && fresh >= 1);
    /* the corner that left is gone */
    ck_assert_int_lt(find_id(&m, fid(feat(1, -1, -1), feat(0, 0, 1))), 0);
}
END_TEST

/* Ridges crossed at right angles: an edge-edge point with id (a's lowest
 * edge, b's highest edge), kept under small motions. */
START_TEST(ids_edge_edge)
{
    const double r2 = sqrt(2.0), pen = 1e-6;
    const magdyn_vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0.6, 0.0, 0.8}};
    magdyn_quat qa = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.25 * MAGDYN_PI);
    magdyn_quat qb = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 1.2), qa);
    magdyn_obb a = box(0.1, 0.2, 0.5 * r2 - pen, qa, 2, 0.5, 0.5), b = box(0.1, 0.2, -0.5 * r2, qb, 2, 0.5, 0.5);
    /* turned 45 degrees about x, a's lowest edge runs along x at y, z < 0,
     * b's highest at y, z > 0 */
    const unsigned want = fid(feat(0, -1, -1), feat(0, 1, 1));
    magdyn_manifold m;
    int k;
    ck_assert_int_eq(magdyn_obb_manifold(&a, &b, 0.0, &m), 1);
    ck_assert_int_eq(m.kind, MAGDYN_CONTACT_EDGE_EDGE);
    ck_assert_uint_eq(m.id[0], want);
    check_set(&m, 1, &a, &b);
    for (k = 0; k < 6; k++) {
        magdyn_obb a2 = nudged(a, axes[k % 3], k < 3 ? 1e-4 : -1e-4, magdyn_v3(2e-4 * (k % 2), 1e-4, -1e-4 * (k % 3)));
        ck_assert_int_eq(magdyn_obb_manifold(&a2, &b, 1e-3, &m), 1);
        ck_assert_int_eq(m.kind, MAGDYN_CONTACT_EDGE_EDGE);
        ck_assert_uint_eq(m.id[0], want);
    }
}
END_TEST

/* The configurations of this file and their small motions through
 * magdyn_obb_manifold_pairs: the same manifolds as one at a time, ids
 * included (in the vector lanes and in the tail). */
START_TEST(ids_batch_equals_single)
{
    const double r2 = sqrt(2.0);
    magdyn_quat qx = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.25 * MAGDYN_PI);
    magdyn_quat qy = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 0.25 * MAGDYN_PI);
    magdyn_quat qz = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.3);
    magdyn_obb base[14], boxes[2 * 70];
    magdyn_manifold out[70], one;
    int pairs[2 * 70], n = 0, k, i, mi;
    const double margins[2] = {0.0, 1e-3};
    base[0] = box(0.3, -0.2, 1.0 - 1e-5, magdyn_quat_identity(), 0.5, 0.5, 0.5);
    base[1] = box(0, 0, 0, magdyn_quat_identity(), 1, 1, 0.5);
    base[2] = box(0.8, -0.2, 1.0 - 1e-5, magdyn_quat_identity(), 0.5, 0.5, 0.5);
    base[3] = base[1];
    base[4] = box(0.55, -0.2, 1.0 - 1e-5, qz, 0.5, 0.5, 0.5);
    base[5] = base[1];
    base[6] = box(0.1, 0.2, 0.5 * r2 - 1e-6, qx, 2, 0.5, 0.5);
    base[7] = box(0.1, 0.2, -0.5 * r2, magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 1.2), qx), 2,
                  0.5, 0.5);
    base[8] = box(0.49, 0, r2 - 1e-6, qy, 0.5, 0.5, 0.5);
    base[9] = box(0, 0, 0, qx, 0.5, 0.5, 0.5);
    base[10] = box(0, 0, 0.2 - 1e-6, magdyn_quat_identity(), 1, 0.1, 0.1);
    base[11] = box(0, 0, 0, magdyn_quat_identity(), 0.1, 1, 0.1);
    base[12] = box(0.2, 0.1, 0.6, qz, 0.5, 0.5, 0.5);
    base[13] = box(0, 0, 0, magdyn_quat_identity(), 1, 1, 0.5);
    for (k = 0; k < 5; k++)
        for (i = 0; i < 7; i++) {
            magdyn_vec3 ax = magdyn_v3(1, k, 0.5 * i);
            boxes[2 * n] = k ? nudged(base[2 * i], ax, 1e-4 * k, magdyn_v3(1e-4, -1e-4 * k, 0)) : base[2 * i];
            boxes[2 * n + 1] = base[2 * i + 1];
            pairs[2 * n] = 2 * n;
            pairs[2 * n + 1] = 2 * n + 1;
            n++;
            /* and swapped */
            boxes[2 * n] = boxes[2 * n - 1];
            boxes[2 * n + 1] = boxes[2 * n - 2];
            pairs[2 * n] = 2 * n;
            pairs[2 * n + 1] = 2 * n + 1;
            n++;
        }
    for (mi = 0; mi < 2; mi++) {
        int touching = 0;
        memset(out, 0x5a, sizeof out);
        ck_assert_int_eq(magdyn_obb_manifold_pairs(2 * n, boxes, n, pairs, margins[mi], out), MAGDYN_OK);
        for (k = 0; k < n; k++) {
            memset(&one, 0xa5, sizeof one);
            magdyn_obb_manifold(&boxes[2 * k], &boxes[2 * k + 1], margins[mi], &one);
            ck_assert_msg(same_manifold(&one, &out[k]), "margin %g pair %d", margins[mi], k);
            touching += one.count > 0;
        }
        ck_assert_int_ge(touching, n / 2);
    }
}
END_TEST

/* Two bars stacked crosswise, faces parallel: the crossing square, 4 points,
 * normal along the stacking axis.  Each bar turned by 1e-3 rad about its
 * own long axis makes the crossing an edge-edge contact to the SAT (the
 * manifold gives its one point); the contact set gives the square all
 * the same, with the ids of the untilted bars. */
START_TEST(set_crossed_bars)
{
    const double pen = 1e-6;
    magdyn_obb a = box(0, 0, 0.2 - pen, magdyn_quat_identity(), 1, 0.1, 0.1);
    magdyn_obb b = box(0, 0, 0, magdyn_quat_identity(), 0.1, 1, 0.1);
    magdyn_manifold m[MAGDYN_MAX_PAIR_MANIFOLDS], one;
    unsigned want[4];
    int t, i, sx, sy;
    for (i = 0, sx = -1; sx <= 1; sx += 2)
        for (sy = -1; sy <= 1; sy += 2) want[i++] = fid(feat(0, sy, -1), feat(sx, 0, 1));
    for (t = 0; t < 2; t++) {
        double margin = t ? 1e-3 : 0.0;
        if (t) {
            a.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 1e-3);
            b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 2e-3);
            ck_assert_int_eq(magdyn_obb_manifold(&a, &b, margin, &one), 1);
            ck_assert_int_eq(one.kind, MAGDYN_CONTACT_EDGE_EDGE);
        }
        ck_assert_int_eq(magdyn_obb_contacts(&a, &b, margin, m, MAGDYN_MAX_PAIR_MANIFOLDS), 1);
        ck_assert_int_eq(m[0].kind, MAGDYN_CONTACT_FACE_FACE);
        ck_assert_int_eq(m[0].count, 4);
        ck_assert(magdyn_vec3_dist(m[0].normal, magdyn_v3(0, 0, 1)) < 2.1e-3);
        check_set(m, 1, &a, &b);
        for (i = 0; i < 4; i++) {
            int j = find_id(&m[0], want[i]);
            ck_assert_msg(j >= 0, "id %04x missing", want[i]);
            ck_assert(fabs(fabs(m[0].point[j].x) - 0.1) < 1e-3 && fabs(fabs(m[0].point[j].y) - 0.1) < 1e-3);
            ck_assert(fabs(m[0].point[j].z - 0.1) < 1e-3);
        }
    }
}
END_TEST

/* Cubes standing on edges (turned 45 degrees about x), the upper one turned
 * 5 degrees about z: the edges touch along a segment, whose two ends (at
 * b's edge's ends) join the edge-edge point. */
START_TEST(set_parallel_edges)
{
    const double r2 = sqrt(2.0), pen = 1e-6, top = 0.5 * r2, c5 = cos(5.0 * MAGDYN_PI / 180.0);
    const double s5 = sin(5.0 * MAGDYN_PI / 180.0);
    magdyn_quat qx = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.25 * MAGDYN_PI);
    magdyn_quat qa = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 5.0 * MAGDYN_PI / 180.0), qx);
    magdyn_obb a = box(0, 0, r2 - pen, qa, 0.5, 0.5, 0.5), b = box(0, 0, 0, qx, 0.5, 0.5, 0.5);
    magdyn_manifold m[MAGDYN_MAX_PAIR_MANIFOLDS];
    int e, i;
    ck_assert_int_eq(magdyn_obb_contacts(&a, &b, 0.0, m, MAGDYN_MAX_PAIR_MANIFOLDS), 1);
    ck_assert_int_eq(m[0].kind, MAGDYN_CONTACT_EDGE_EDGE);
    ck_assert_int_eq(m[0].count, 3);
    ck_assert(magdyn_vec3_dist(m[0].normal, magdyn_v3(0, 0, 1)) < 1e-12);
    check_set(m, 1, &a, &b);
    ck_assert_uint_eq(m[0].id[0], fid(feat(0, -1, -1), feat(0, 1, 1)));
    /* the ends of the segment: where b's edge ends (its projection on a's
     * edge is the shorter), with b's corners' ids */
    for (e = -1; e <= 1; e += 2) {
        i = find_id(&m[0], fid(feat(0, -1, -1), feat(e, 1, 1)));
        ck_assert_msg(i >= 0, "end %d missing", e);
        ck_assert_double_eq_tol(m[0].depth[i], pen, 1e-12);
        ck_assert_double_eq_tol(m[0].point[i].z, top - 0.5 * pen, 1e-12);
        /* halfway between b's corner (0.5 e, 0, top) and the point of a's
         * edge (direction (c, s, 0)) as far along it, 0.5 e c (c, s, 0) */
        ck_assert_double_eq_tol(m[0].point[i].x, 0.25 * e * (1.0 + c5 * c5), 1e-12);
        ck_assert_double_eq_tol(m[0].point[i].y, 0.25 * e * c5 * s5, 1e-12);
    }
}
END_TEST

/* An edge-edge contact 0.01 from the end of b's edge: b's corner there is
 * within the margin of a's face, which gives a second manifold; max_out 1
 * gives only the primary. */
START_TEST(set_edge_end_corners)
{
    const double r2 = sqrt(2.0), pen = 1e-6, margin = 0.02;
    magdyn_quat qx = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.25 * MAGDYN_PI);
    magdyn_quat qy = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 0.25 * MAGDYN_PI);
    magdyn_obb a = box(0.49, 0, r2 - pen, qy, 0.5, 0.5, 0.5), b = box(0, 0, 0, qx, 0.5, 0.5, 0.5);
    magdyn_manifold m[MAGDYN_MAX_PAIR_MANIFOLDS], keep;
    magdyn_vec3 bc = magdyn_v3(0.5, 0, 0.5 * r2), nf = magdyn_v3(sqrt(0.5), 0, -sqrt(0.5));
    double gap;
    ck_assert_int_eq(magdyn_obb_contacts(&a, &b, margin, m, MAGDYN_MAX_PAIR_MANIFOLDS), 2);
    check_set(m, 2, &a, &b);
    ck_assert_int_eq(m[0].kind, MAGDYN_CONTACT_EDGE_EDGE);
    ck_assert_int_eq(m[0].count, 1);
    ck_assert_uint_eq(m[0].id[0], fid(feat(1, 0, -1), feat(0, 1, 1)));
    /* b's corner (+x, +y, +z) against a's +x face, whose outward normal nf
     * points down towards +x; from b towards a is -nf */
    ck_assert_int_eq(m[1].kind, MAGDYN_CONTACT_FACE_EDGE);
    ck_assert_int_eq(m[1].count, 1);
    ck_assert_uint_eq(m[1].id[0], fid(feat(1, 0, 0), feat(1, 1, 1)));
    ck_assert(magdyn_vec3_dist(m[1].normal, magdyn_vec3_neg(nf)) < 1e-12);
    /* the corner's height above a's face plane (through a's bottom edge) */
    gap = magdyn_vec3_dot(magdyn_vec3_sub(bc, magdyn_v3(0.49, 0, 0.5 * r2 - pen)), nf);
    ck_assert_double_eq_tol(m[1].depth[0], -gap, 1e-12);
    ck_assert(magdyn_vec3_dist(m[1].point[0], magdyn_vec3_madd(bc, -0.5 * gap, nf)) < 1e-12);
    /* max_out 1: the primary alone, and nothing past it written */
    memset(&keep, 0x3c, sizeof keep);
    m[1] = keep;
    ck_assert_int_eq(magdyn_obb_contacts(&a, &b, margin, m, 1), 1);
    ck_assert_int_eq(m[0].kind, MAGDYN_CONTACT_EDGE_EDGE);
    ck_assert(memcmp(&m[1], &keep, sizeof keep) == 0);
    /* a margin that does not reach the corner: no second manifold */
    ck_assert_int_eq(magdyn_obb_contacts(&a, &b, 1e-3, m, MAGDYN_MAX_PAIR_MANIFOLDS), 1);
}
END_TEST

/* A ridge (b, a cube on an edge, the edge turned 45 degrees about z) lying
 * across a corner of a's bottom face, which is tilted 0.5 degrees (beyond
 * the face-like window of 0.26) so that the ridge touches a's x+ edge and
 * clears its y- edge by about 5e-3: the edge-edge point holds the first
 * crossing, and the face contact of a's bottom face gives the second, at
 * its depth below the face: on paper, the ridge point where it crosses
 * a's side plane y = -0.5 (a's frame), its height above the face plane
 * (the fuzz finding: a turn of one step sank that end 3.8 um). */
START_TEST(set_ridge_across_tilted_face)
{
    const double r2 = sqrt(2.0), pen = 1e-6, phi = 0.5 * MAGDYN_PI / 180.0;
    magdyn_quat qb = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.25 * MAGDYN_PI),
                                     magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.25 * MAGDYN_PI));
    magdyn_quat qa = magdyn_quat_from_axis_angle(magdyn_v3(1, -1, 0), -phi);
    magdyn_obb b = box(0.3, -0.3, 0, qb, 0.5, 0.5, 0.5), a = box(0, 0, 0.5 + 0.5 * r2, qa, 0.5, 0.5, 0.5);
    magdyn_manifold m[MAGDYN_MAX_PAIR_MANIFOLDS];
    magdyn_sat_result r;
    magdyn_vec3 top = magdyn_v3(0.3, -0.3, 0.5 * r2), dir = magdyn_v3(sqrt(0.5), sqrt(0.5), 0), lt, ld, p, nf;
    double s, gap;
    int it, n, k, i = -1;
    /* a lowered until the pair overlaps by pen */
    for (it = 0; it < 3; it++) {
        magdyn_obb_sat(&a, &b, &r);
        a.center.z -= (r.separation + pen) / r.normal.z;
    }
    magdyn_obb_sat(&a, &b, &r);
    ck_assert_double_eq_tol(r.separation, -pen, 1e-12);
    n = magdyn_obb_contacts(&a, &b, 0.0, m, MAGDYN_MAX_PAIR_MANIFOLDS);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(m[0].kind, MAGDYN_CONTACT_EDGE_EDGE);
    ck_assert_int_eq(m[0].count, 1);
    ck_assert_uint_eq(m[0].id[0], fid(feat(1, 0, -1), feat(0, 1, 1)));
    /* the ridge in a's frame, where it crosses y = -0.5 */
    lt = magdyn_quat_rotate_inv(a.orientation, magdyn_vec3_sub(top, a.center));
    ld = magdyn_quat_rotate_inv(a.orientation, dir);
    s = (-0.5 - lt.y) / ld.y;
    p = magdyn_vec3_madd(lt, s, ld);
    gap = -0.5 - p.z;
    ck_assert(gap > 4e-3 && gap < 6e-3 && fabs(p.x) < 0.5);
    n = magdyn_obb_contacts(&a, &b, 1e-2, m, MAGDYN_MAX_PAIR_MANIFOLDS);
    check_set(m, n, &a, &b);
    nf = magdyn_quat_rotate(a.orientation, magdyn_v3(0, 0, -1));   /* a's bottom face, outward */
    for (k = 0; k < n && i < 0; k++) {
        i = find_id(&m[k], fid(feat(0, -1, -1), feat(0, 1, 1)));
        if (i >= 0) {
            magdyn_vec3 want = magdyn_vec3_add(a.center, magdyn_quat_rotate(a.orientation,
                                                                            magdyn_v3(p.x, p.y, -0.5 - 0.5 * gap)));
            ck_assert_int_eq(m[k].kind, MAGDYN_CONTACT_FACE_EDGE);   /* a's face, b's edge */
            ck_assert(magdyn_vec3_dist(m[k].normal, magdyn_vec3_neg(nf)) < 1e-12);
            ck_assert_double_eq_tol(m[k].depth[i], -gap, 1e-12);
            ck_assert(magdyn_vec3_dist(m[k].point[i], want) < 1e-12);
        }
    }
    ck_assert_msg(i >= 0, "the far crossing is missing");
    /* a margin short of the gap: the edge-edge point alone */
    n = magdyn_obb_contacts(&a, &b, 0.5 * gap, m, MAGDYN_MAX_PAIR_MANIFOLDS);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(m[0].count, 1);
}
END_TEST

/* Every byte of what the set returns is defined, the slots past each
 * manifold's count and the padding included: two calls into buffers filled
 * with different bytes return the same bytes (a fuzz finding: the corner
 * contacts left the rest of their slots as the stack had them). */
/* Fill the stack below the caller with byte v, so that what a callee
 * leaves undefined differs between two calls. */
static __attribute__((noinline)) void scribble_stack(unsigned char v)
{
    volatile unsigned char junk[1 << 15];
    size_t i;
    for (i = 0; i < sizeof junk; i++) junk[i] = v;
}

START_TEST(set_bytes_defined)
{
    const double r2 = sqrt(2.0), pen = 1e-6;
    magdyn_quat qx = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.25 * MAGDYN_PI);
    magdyn_quat qy = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 0.25 * MAGDYN_PI);
    magdyn_obb pairs[3][2] = {
        {box(0.49, 0, r2 - pen, qy, 0.5, 0.5, 0.5), box(0, 0, 0, qx, 0.5, 0.5, 0.5)},   /* edge, corners */
        {box(0, 0, 1 - pen, magdyn_quat_identity(), 0.5, 0.5, 0.5),
         box(0.2, 0.1, 0, magdyn_quat_identity(), 0.5, 0.5, 0.5)},                      /* faces */
        {box(0.3, 0.2, 0.7, qx, 0.2, 0.5, 0.3), box(0, 0, 0, qy, 0.5, 0.4, 0.3)}};     /* random-ish */
    magdyn_manifold x[MAGDYN_MAX_PAIR_MANIFOLDS], y[MAGDYN_MAX_PAIR_MANIFOLDS];
    int p;
    for (p = 0; p < 3; p++) {
        int nx, ny;
        memset(x, 0x00, sizeof x);
        memset(y, 0xa5, sizeof y);
        scribble_stack(0x00);
        nx = magdyn_obb_contacts(&pairs[p][0], &pairs[p][1], 0.02, x, MAGDYN_MAX_PAIR_MANIFOLDS);
        scribble_stack(0x5a);
        ny = magdyn_obb_contacts(&pairs[p][0], &pairs[p][1], 0.02, y, MAGDYN_MAX_PAIR_MANIFOLDS);
        ck_assert_int_eq(nx, ny);
        ck_assert_int_ge(nx, p == 2 ? 0 : 1);
        ck_assert(memcmp(x, y, (size_t)nx * sizeof *x) == 0);
    }
}
END_TEST

/* Cubes near each other corner to corner, gaps g1 along x, g2 < g1 along
 * y: the SAT's best axis is x but the faces do not face each other, so
 * the manifold has no point; the set has its point between the two
 * corners furthest along the normal, and the corners within the margin of
 * each other's faces. */
START_TEST(set_fallback_point)
{
    const double g1 = 2e-4, g2 = 1e-4, margin = 1e-3;
    magdyn_obb a = box(1 + g1, 1 + g2, 0, magdyn_quat_identity(), 0.5, 0.5, 0.5);
    magdyn_obb b = box(0, 0, 0, magdyn_quat_identity(), 0.5, 0.5, 0.5);
    magdyn_manifold m[MAGDYN_MAX_PAIR_MANIFOLDS], one;
    int n, z;
    ck_assert_int_eq(magdyn_obb_manifold(&a, &b, margin, &one), 0);
    n = magdyn_obb_contacts(&a, &b, margin, m, MAGDYN_MAX_PAIR_MANIFOLDS);
    ck_assert_int_eq(n, 3);
    check_set(m, n, &a, &b);
    ck_assert_int_eq(m[0].kind, MAGDYN_CONTACT_EDGE_EDGE);
    ck_assert_int_eq(m[0].count, 1);
    ck_assert(magdyn_vec3_dist(m[0].normal, magdyn_v3(1, 0, 0)) < 1e-15);
    ck_assert_double_eq_tol(m[0].depth[0], -g1, 1e-15);
    /* corners chosen with + on the axes the normal does not decide */
    ck_assert_uint_eq(m[0].id[0], fid(feat(-1, 1, 1), feat(1, 1, 1)));
    /* a's corners (-x, -y, +-z) on b's +x face; b's (+x, +y, +-z) on a's -x face */
    ck_assert_int_eq(m[1].kind, MAGDYN_CONTACT_EDGE_FACE);
    ck_assert_int_eq(m[1].count, 2);
    ck_assert(magdyn_vec3_dist(m[1].normal, magdyn_v3(1, 0, 0)) < 1e-15);
    ck_assert_int_eq(m[2].kind, MAGDYN_CONTACT_FACE_EDGE);
    ck_assert_int_eq(m[2].count, 2);
    ck_assert(magdyn_vec3_dist(m[2].normal, magdyn_v3(1, 0, 0)) < 1e-15);
    for (z = -1; z <= 1; z += 2) {
        int i = find_id(&m[1], fid(feat(-1, -1, z), feat(1, 0, 0)));
        ck_assert(i >= 0 && find_id(&m[2], fid(feat(-1, 0, 0), feat(1, 1, z))) >= 0);
        ck_assert_double_eq_tol(m[1].depth[i], -g1, 1e-15);
        ck_assert(magdyn_vec3_dist(m[1].point[i], magdyn_v3(0.5 + 0.5 * g1, 0.5 + g2, 0.5 * z)) < 1e-15);
    }
    /* farther than the margin: nothing */
    ck_assert_int_eq(magdyn_obb_contacts(&a, &b, 1.5e-4, m, MAGDYN_MAX_PAIR_MANIFOLDS), 0);
}
END_TEST

/* A plain face contact: the set is the manifold itself. */
START_TEST(set_face_is_manifold)
{
    magdyn_obb a = box(0.2, 0.1, 1.0 - 1e-6, magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.3), 0.5, 0.5, 0.5);
    magdyn_obb b = box(0, 0, 0, magdyn_quat_identity(), 1, 1, 0.5);
    magdyn_manifold m[MAGDYN_MAX_PAIR_MANIFOLDS], one;
    ck_assert_int_eq(magdyn_obb_manifold(&a, &b, 1e-3, &one), 4);
    ck_assert_int_eq(magdyn_obb_contacts(&a, &b, 1e-3, m, MAGDYN_MAX_PAIR_MANIFOLDS), 1);
    ck_assert(same_manifold(&one, &m[0]));
    a.center.z += 1.0;
    ck_assert_int_eq(magdyn_obb_contacts(&a, &b, 1e-3, m, MAGDYN_MAX_PAIR_MANIFOLDS), 0);
}
END_TEST

/* The area [m^2] of the polygon of the n points of m, projected on the
 * plane z = const, taken in order of angle about their mean (shoelace). */
static double polygon_area_xy(const magdyn_manifold *m)
{
    double cx = 0.0, cy = 0.0, ang[MAGDYN_MAX_CONTACTS], area = 0.0;
    int order[MAGDYN_MAX_CONTACTS], i, j, n = m->count;
    for (i = 0; i < n; i++) {
        cx += m->point[i].x / n;
        cy += m->point[i].y / n;
    }
    for (i = 0; i < n; i++) {
        ang[i] = atan2(m->point[i].y - cy, m->point[i].x - cx);
        order[i] = i;
    }
    for (i = 1; i < n; i++)   /* insertion sort by angle */
        for (j = i; j > 0 && ang[order[j]] < ang[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (i = 0; i < n; i++) {
        const magdyn_vec3 p = m->point[order[i]], q = m->point[order[(i + 1) % n]];
        area += 0.5 * (p.x * q.y - q.x * p.y);
    }
    return fabs(area);
}

/*
 * A square plate (10 x 10 mm face) resting on a square plate of 9 x 9 mm
 * turned by 45 degrees: the faces overlap in an octagon, the 9 mm square
 * less four corner triangles of legs h = 4.5 sqrt 2 - 5 mm, area
 * 81 - 4 h^2 mm^2 (plane geometry).  The contact set keeps all 8 vertices
 * (a stepper that holds the plates needs each of them: whichever is left
 * out sinks), with 8 distinct ids that stay the same when the top plate
 * rocks by 1e-4 rad; the manifold routine cuts them to 4.
 */
START_TEST(set_keeps_every_clipped_vertex)
{
    const double h = 4.5e-3 * sqrt(2.0) - 5e-3, octagon = 81e-6 - 4.0 * h * h;
    magdyn_obb a = box(0, 0, 1e-3 - 1e-9, magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), MAGDYN_PI / 4), 4.5e-3, 4.5e-3,
                       0.5e-3);
    magdyn_obb b = box(0, 0, 0, magdyn_quat_identity(), 5e-3, 5e-3, 0.5e-3), r;
    magdyn_manifold m[MAGDYN_MAX_PAIR_MANIFOLDS], one, rocked[MAGDYN_MAX_PAIR_MANIFOLDS];
    int i, k;
    ck_assert_int_eq(magdyn_obb_manifold(&a, &b, 1e-6, &one), 4);
    ck_assert_int_eq(magdyn_obb_contacts(&a, &b, 1e-6, m, MAGDYN_MAX_PAIR_MANIFOLDS), 1);
    ck_assert_int_eq(m[0].kind, MAGDYN_CONTACT_FACE_FACE);
    ck_assert_int_eq(m[0].count, 8);
    check_set(m, 1, &a, &b);
    ck_assert_double_eq_tol(polygon_area_xy(&m[0]), octagon, 1e-9 * octagon);
    for (i = 0; i < 8; i++) ck_assert_double_eq_tol(m[0].depth[i], 1e-9, 1e-15);
    /* every point of the four-point manifold is one of the eight */
    for (i = 0; i < 4; i++) ck_assert_int_ge(find_id(&m[0], one.id[i]), 0);
    for (k = 0; k < 4; k++) {
        magdyn_vec3 axis = magdyn_v3(cos(k * MAGDYN_PI / 4), sin(k * MAGDYN_PI / 4), 0);
        r = nudged(a, axis, 1e-4, magdyn_v3(0, 0, 0));
        ck_assert_int_eq(magdyn_obb_contacts(&r, &b, 1e-6, rocked, MAGDYN_MAX_PAIR_MANIFOLDS), 1);
        ck_assert_int_eq(rocked[0].count, 8);
        for (i = 0; i < 8; i++) ck_assert_int_ge(find_id(&m[0], rocked[0].id[i]), 0);
    }
}
END_TEST

/* Bad input: 0 and nothing written. */
START_TEST(set_bad_input)
{
    magdyn_quat id = magdyn_quat_identity();
    magdyn_obb good = box(0, 0, 0, id, 1, 1, 1), other = box(0, 0, 1.9, id, 1, 1, 1), bad;
    magdyn_manifold m[2], keep[2];
    memset(keep, 0x77, sizeof keep);
    memcpy(m, keep, sizeof m);
    ck_assert_int_eq(magdyn_obb_contacts(NULL, &other, 0.0, m, 2), 0);
    ck_assert_int_eq(magdyn_obb_contacts(&good, NULL, 0.0, m, 2), 0);
    ck_assert_int_eq(magdyn_obb_contacts(&good, &other, 0.0, NULL, 2), 0);
    ck_assert_int_eq(magdyn_obb_contacts(&good, &other, 0.0, m, 0), 0);
    ck_assert_int_eq(magdyn_obb_contacts(&good, &other, 0.0, m, -3), 0);
    ck_assert_int_eq(magdyn_obb_contacts(&good, &other, -1e-3, m, 2), 0);
    ck_assert_int_eq(magdyn_obb_contacts(&good, &other, NAN, m, 2), 0);
    ck_assert_int_eq(magdyn_obb_contacts(&good, &other, INFINITY, m, 2), 0);
    bad = good; bad.center.z = NAN;
    ck_assert_int_eq(magdyn_obb_contacts(&bad, &other, 0.0, m, 2), 0);
    bad = good; bad.orientation = magdyn_q(0.5, 0.5, 0.5, 0.6);
    ck_assert_int_eq(magdyn_obb_contacts(&other, &bad, 0.0, m, 2), 0);
    bad = good; bad.half.y = -1;
    ck_assert_int_eq(magdyn_obb_contacts(&bad, &other, 0.0, m, 2), 0);
    bad = good; bad.half.z = INFINITY;
    ck_assert_int_eq(magdyn_obb_contacts(&bad, &other, 0.0, m, 2), 0);
    ck_assert(memcmp(m, keep, sizeof m) == 0);
    ck_assert_int_eq(magdyn_obb_contacts(&good, &other, 0.0, m, 2), 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("contact_set");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, ids_resting_face);
    tcase_add_test(tc, ids_sliding_off);
    tcase_add_test(tc, ids_edge_edge);
    tcase_add_test(tc, ids_batch_equals_single);
    tcase_add_test(tc, set_crossed_bars);
    tcase_add_test(tc, set_parallel_edges);
    tcase_add_test(tc, set_edge_end_corners);
    tcase_add_test(tc, set_ridge_across_tilted_face);
    tcase_add_test(tc, set_fallback_point);
    tcase_add_test(tc, set_face_is_manifold);
    tcase_add_test(tc, set_keeps_every_clipped_vertex);
    tcase_add_test(tc, set_bad_input);
    tcase_add_test(tc, set_bytes_defined);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
