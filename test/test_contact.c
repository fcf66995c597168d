/*
 * test_contact.c - contact manifolds of two boxes: hand-made cases with
 * answers worked out on paper, and random pairs checked against the
 * independent geometry of test_sat_oracle.h (signed point-box distances,
 * vertex projections).  Clipping: Sutherland & Hodgman, CACM 17 (1974) 32;
 * segment closest points: Ericson, Real-Time Collision Detection, 5.1.9.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"
#include "test_sat_oracle.h"
#include "same_manifold.h"

/* Is there a contact point within tol of p? */
static int has_point(const magdyn_manifold *m, magdyn_vec3 p, double tol)
{
    int k;
    for (k = 0; k < m->count; k++)
        if (magdyn_vec3_dist(m->point[k], p) <= tol) return 1;
    return 0;
}

static double max_depth(const magdyn_manifold *m)
{
    double d = -INFINITY;
    int k;
    for (k = 0; k < m->count; k++)
        if (m->depth[k] > d) d = m->depth[k];
    return d;
}

/* A magnet resting flat on a larger one: the 4 corners of the overlap
 * rectangle, halfway between the faces, each as deep as the overlap -
 * for penetrations down to 1e-12 and under a common rigid motion. */
START_TEST(stacked_aligned)
{
    const double pens[] = {1e-3, 1e-9, 1e-12, 0.0};
    unsigned t;
    for (t = 0; t < 2 * (sizeof pens / sizeof *pens); t++) {
        double pen = pens[t / 2], xs[2] = {-0.2, 0.8}, ys[2] = {-0.7, 0.3};
        int rot = t % 2, i, j;
        magdyn_quat q = rot ? magdyn_quat_from_axis_angle(magdyn_v3(-1, 2, 0.5), 2.1) : magdyn_quat_identity();
        magdyn_vec3 sh = rot ? magdyn_v3(0.1, -0.3, 0.2) : magdyn_v3(0, 0, 0);
        magdyn_obb a0 = box(0.3, -0.2, 1.0 - pen, magdyn_quat_identity(), 0.5, 0.5, 0.5);
        magdyn_obb b0 = box(0, 0, 0, magdyn_quat_identity(), 1, 1, 0.5);
        magdyn_obb a = moved(&a0, q, sh), b = moved(&b0, q, sh);
        magdyn_manifold m;
        double tol = rot ? 2e-15 : 1e-16;
        /* exact touching (pen 0) is exact only in the unturned frame */
        double margin = pen == 0.0 && rot ? 1e-14 : 0.0;
        ck_assert_int_eq(magdyn_obb_manifold(&a, &b, margin, &m), 4);
        ck_assert_int_eq(m.count, 4);
        ck_assert_int_eq(m.kind, MAGDYN_CONTACT_FACE_FACE);
        ck_assert(magdyn_vec3_dist(m.normal, magdyn_quat_rotate(q, magdyn_v3(0, 0, 1))) < 1e-15);
        for (i = 0; i < 4; i++) {
            ck_assert_msg(fabs(m.depth[i] - pen) <= tol, "pen %g: depth %.17g", pen, m.depth[i]);
        }
        for (i = 0; i < 2; i++)
            for (j = 0; j < 2; j++) {
                magdyn_vec3 c = magdyn_vec3_add(magdyn_quat_rotate(q, magdyn_v3(xs[i], ys[j], 0.5 - 0.5 * pen)), sh);
                ck_assert_msg(has_point(&m, c, 1e-14), "corner %g %g missing", xs[i], ys[j]);
            }
        /* the swapped pair: the same points, opposite normal */
        ck_assert_int_eq(magdyn_obb_manifold(&b, &a, margin, &m), 4);
        ck_assert(magdyn_vec3_dist(m.normal, magdyn_quat_rotate(q, magdyn_v3(0, 0, -1))) < 1e-15);
        for (i = 0; i < 2; i++)
            for (j = 0; j < 2; j++) {
                magdyn_vec3 c = magdyn_vec3_add(magdyn_quat_rotate(q, magdyn_v3(xs[i], ys[j], 0.5 - 0.5 * pen)), sh);
                ck_assert(has_point(&m, c, 1e-14));
            }
    }
    /* a long bar across a narrow one: the overlap is clipped by both */
    {
        magdyn_obb a = box(0.1, 0.05, 0.6 - 1e-6, magdyn_quat_identity(), 2, 0.25, 0.1);
        magdyn_obb b = box(0, 0, 0, magdyn_quat_identity(), 1, 1, 0.5);
        magdyn_manifold m;
        ck_assert_int_eq(magdyn_obb_manifold(&a, &b, 0.0, &m), 4);
        ck_assert(has_point(&m, magdyn_v3(-1, -0.2, 0.5 - 0.5e-6), 1e-14));
        ck_assert(has_point(&m, magdyn_v3(1, 0.3, 0.5 - 0.5e-6), 1e-14));
        ck_assert(has_point(&m, magdyn_v3(-1, 0.3, 0.5 - 0.5e-6), 1e-14));
        ck_assert(has_point(&m, magdyn_v3(1, -0.2, 0.5 - 0.5e-6), 1e-14));
        /* within a margin but not touching: the same corners, negative depth */
        a.center.z = 0.6 + 1e-4;
        ck_assert_int_eq(magdyn_obb_manifold(&a, &b, 0.0, &m), 0);
        ck_assert_int_eq(magdyn_obb_manifold(&a, &b, 2e-4, &m), 4);
        ck_assert_double_eq_tol(m.depth[0], -1e-4, 1e-15);
        ck_assert(has_point(&m, magdyn_v3(1, -0.2, 0.5 + 0.5e-4), 1e-14));
        ck_assert_int_eq(magdyn_obb_manifold(&a, &b, 0.5e-4, &m), 0);
        ck_assert_int_eq(m.count, 0);
    }
}
END_TEST

/* A cube turned 45 degrees about x stands on its edge on a slab: a line
 * contact, 2 points at the ends of the edge. */
START_TEST(edge_on_face)
{
    double r2 = sqrt(2.0), pen = 1e-7;
    magdyn_quat q45 = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.25 * MAGDYN_PI);
    magdyn_obb a = box(0.2, 0.1, 0.5 + 0.5 * r2 - pen, q45, 0.5, 0.5, 0.5);
    magdyn_obb b = box(0, 0, 0, magdyn_quat_identity(), 1, 1, 0.5);
    magdyn_manifold m;
    ck_assert_int_eq(magdyn_obb_manifold(&a, &b, 0.0, &m), 2);
    ck_assert_int_eq(m.kind, MAGDYN_CONTACT_EDGE_FACE);
    ck_assert(magdyn_vec3_dist(m.normal, magdyn_v3(0, 0, 1)) < 1e-15);
    ck_assert(has_point(&m, magdyn_v3(-0.3, 0.1, 0.5 - 0.5 * pen), 1e-14));
    ck_assert(has_point(&m, magdyn_v3(0.7, 0.1, 0.5 - 0.5 * pen), 1e-14));
    ck_assert_double_eq_tol(m.depth[0], pen, 1e-15);
    ck_assert_double_eq_tol(m.depth[1], pen, 1e-15);
    ck_assert_int_eq(magdyn_obb_manifold(&b, &a, 0.0, &m), 2);
    ck_assert_int_eq(m.kind, MAGDYN_CONTACT_FACE_EDGE);
    ck_assert(magdyn_vec3_dist(m.normal, magdyn_v3(0, 0, -1)) < 1e-15);
    ck_assert(has_point(&m, magdyn_v3(0.7, 0.1, 0.5 - 0.5 * pen), 1e-14));
    /* the edge sticking out over the slab's side is cut at the side */
    a.center.x = 0.8;
    ck_assert_int_eq(magdyn_obb_manifold(&a, &b, 0.0, &m), 2);
    ck_assert(has_point(&m, magdyn_v3(0.3, 0.1, 0.5 - 0.5 * pen), 1e-14));
    ck_assert(has_point(&m, magdyn_v3(1.0, 0.1, 0.5 - 0.5 * pen), 1e-14));
    /* a corner down (turned about two axes): one point */
    a.center.x = 0.0;
    a.orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 0.3), q45);
    {
        oracle_box A = oracle_make(&a);
        double zmin = INFINITY;
        int k;
        for (k = 0; k < 8; k++) zmin = fmin(zmin, A.v[k].z);
        a.center.z += 0.5 - pen - zmin;
    }
    ck_assert_int_eq(magdyn_obb_manifold(&a, &b, 0.0, &m), 1);
    ck_assert_int_eq(m.kind, MAGDYN_CONTACT_EDGE_FACE);
    ck_assert_double_eq_tol(m.depth[0], pen, 1e-15);
}
END_TEST

/* Two ridges crossed at right angles: one point where they cross. */
START_TEST(crossed_edges)
{
    double r2 = sqrt(2.0), pen = 1e-6, ang;
    for (ang = 0.5; ang < 1.6; ang += 0.5) {
        magdyn_quat qa = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.25 * MAGDYN_PI);
        magdyn_quat qb = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), ang), qa);
        magdyn_obb a = box(0.1, 0.2, 0.5 * r2 - pen, qa, 2, 0.5, 0.5), b = box(0.1, 0.2, -0.5 * r2, qb, 2, 0.5, 0.5);
        magdyn_manifold m;
        ck_assert_int_eq(magdyn_obb_manifold(&a, &b, 0.0, &m), 1);
        ck_assert_int_eq(m.kind, MAGDYN_CONTACT_EDGE_EDGE);
        ck_assert(magdyn_vec3_dist(m.normal, magdyn_v3(0, 0, 1)) < 1e-14);
        ck_assert_double_eq_tol(m.depth[0], pen, 1e-15);
        ck_assert(magdyn_vec3_dist(m.point[0], magdyn_v3(0.1, 0.2, -0.5 * pen)) < 1e-14);
        /* apart by less than the margin: the same point, negative depth */
        a.center.z += 2 * pen;
        ck_assert_int_eq(magdyn_obb_manifold(&a, &b, 2 * pen, &m), 1);
        ck_assert_double_eq_tol(m.depth[0], -pen, 1e-15);
        ck_assert_int_eq(magdyn_obb_manifold(&a, &b, 0.5 * pen, &m), 0);
    }
}
END_TEST

/* Ridges lying along each other, turned by +-1e-9 rad: the same contact as
 * exactly parallel, no flip, no phantom depth. */
START_TEST(near_parallel_edges)
{
    double r2 = sqrt(2.0), pen = 1e-6, angs[] = {0.0, 1e-9, -1e-9, 1e-12, 3e-8, -3e-8};
    magdyn_quat qa = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.25 * MAGDYN_PI);
    magdyn_obb a = box(0, 0, 0.5 * r2 - pen, qa, 1, 0.5, 0.5), b = box(0.3, 0.3 * pen, -0.5 * r2, qa, 1, 0.5, 0.5);
    magdyn_manifold m0, m;
    unsigned k;
    int i;
    ck_assert_int_ge(magdyn_obb_manifold(&a, &b, 0.0, &m0), 1);
    ck_assert_double_eq_tol(max_depth(&m0), 0.35 * pen * r2, 1e-15);
    for (k = 0; k < sizeof angs / sizeof *angs; k++) {
        magdyn_obb b2 = b;
        b2.orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), angs[k]), qa);
        ck_assert_int_ge(magdyn_obb_manifold(&a, &b2, 0.0, &m), 1);
        /* below the hand-over band (1e-8) the edge pair is treated as
         * parallel, as it is at 0; at 3e-8 the edge axis is the exact
         * minimum-penetration axis and the answer is an edge contact */
        if (fabs(angs[k]) < 1e-8) {
            ck_assert_int_eq(m.count, m0.count);
            ck_assert_int_eq(m.kind, m0.kind);
            ck_assert(magdyn_vec3_dist(m.normal, m0.normal) < 1e-7);
        }
        /* turning b's ridge (length 2) moves its ends sideways by 2 angle */
        ck_assert_double_eq_tol(max_depth(&m), max_depth(&m0), 2.0 * fabs(angs[k]) + 1e-15);
        for (i = 0; i < m.count; i++) {
            /* on the ridge lines (y = 0, z = 0 and y = 0.3 pen, z = -pen),
             * within the overlap of the two ridges' lengths */
            ck_assert(fabs(m.point[i].y) < 2 * pen && fabs(m.point[i].z) < 2 * pen);
            ck_assert(m.point[i].x > -0.7 - 1e-9 && m.point[i].x < 1.0 + 1e-9);
            ck_assert(m.depth[i] <= 0.35 * pen * r2 + 2.0 * fabs(angs[k]) + 1e-15 && m.depth[i] >= 0.0);
        }
    }
}
END_TEST

/* Plates of thickness 1e-6 stacked on boxes and on each other. */
START_TEST(thin_plates)
{
    magdyn_quat id = magdyn_quat_identity(), q = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.3);
    magdyn_obb plate = box(0, 0, 0, id, 1, 1, 0.5e-6), on = box(0, 0, 0.5e-6 + 0.25 - 1e-9, q, 0.25, 0.25, 0.25);
    magdyn_obb plate2 = box(0.5, 0.5, 1e-6 - 1e-9, q, 0.3, 0.3, 0.5e-6);
    magdyn_manifold m;
    int i;
    ck_assert_int_eq(magdyn_obb_manifold(&on, &plate, 0.0, &m), 4);
    for (i = 0; i < 4; i++) ck_assert_double_eq_tol(m.depth[i], 1e-9, 1e-15);
    ck_assert_int_eq(magdyn_obb_manifold(&plate, &on, 0.0, &m), 4);
    for (i = 0; i < 4; i++) ck_assert_double_eq_tol(m.depth[i], 1e-9, 1e-15);
    /* a turned plate on a plate, hanging over its corner: the overlap
     * polygon has more than 4 vertices, cut to the 4 enclosing most area */
    ck_assert_int_eq(magdyn_obb_manifold(&plate2, &plate, 0.0, &m), 4);
    ck_assert_int_eq(m.kind, MAGDYN_CONTACT_FACE_FACE);
    for (i = 0; i < 4; i++) {
        ck_assert_double_eq_tol(m.depth[i], 1e-9, 1e-15);
        ck_assert(m.point[i].x <= 1.0 + 1e-12 && m.point[i].y <= 1.0 + 1e-12);
    }
}
END_TEST

/* Identical boxes, and one box inside another. */
START_TEST(coincident_and_inside)
{
    magdyn_quat q = magdyn_quat_from_axis_angle(magdyn_v3(0.3, -1, 0.2), 1.1);
    magdyn_obb c = box(1, 2, 3, q, 0.7, 0.2, 0.5), big = box(0, 0, 0, q, 2, 3, 4), small = box(0, 0, 0, q, 0.1, 0.2, 0.3);
    magdyn_manifold m;
    int i, sx, sz;
    ck_assert_int_eq(magdyn_obb_manifold(&c, &c, 0.0, &m), 4);
    ck_assert_int_eq(m.kind, MAGDYN_CONTACT_FACE_FACE);
    ck_assert(magdyn_vec3_dist(m.normal, magdyn_quat_rotate(q, magdyn_v3(0, 1, 0))) < 1e-14);
    for (i = 0; i < 4; i++) ck_assert_double_eq_tol(m.depth[i], 0.4, 1e-14);
    /* the corners of the x-z cross-section through the centre */
    for (sx = -1; sx <= 1; sx += 2)
        for (sz = -1; sz <= 1; sz += 2)
            ck_assert(has_point(&m, magdyn_vec3_add(c.center, magdyn_quat_rotate(q, magdyn_v3(0.7 * sx, 0, 0.5 * sz))),
                                1e-13));
    small.center = magdyn_quat_rotate(q, magdyn_v3(1.5, 0.2, -0.1));
    ck_assert_int_eq(magdyn_obb_manifold(&small, &big, 0.0, &m), 4);
    ck_assert(magdyn_vec3_dist(m.normal, magdyn_quat_rotate(q, magdyn_v3(1, 0, 0))) < 1e-14);
    for (i = 0; i < 4; i++) ck_assert_double_eq_tol(m.depth[i], 0.6, 1e-14);
    /* halfway between small's -x face (x = 1.4) and big's +x face (x = 2) */
    for (sx = -1; sx <= 1; sx += 2)
        for (sz = -1; sz <= 1; sz += 2)
            ck_assert(has_point(&m, magdyn_quat_rotate(q, magdyn_v3(1.7, 0.2 + 0.2 * sx, -0.1 + 0.3 * sz)), 1e-13));
}
END_TEST

START_TEST(bad_input)
{
    magdyn_quat id = magdyn_quat_identity();
    magdyn_obb good = box(0, 0, 0, id, 1, 1, 1), other = box(0, 0, 1.9, id, 1, 1, 1), bad;
    magdyn_manifold m;
    ck_assert_int_eq(magdyn_obb_manifold(&good, &other, 0.0, &m), 4);
    ck_assert_int_eq(magdyn_obb_manifold(&good, &other, 0.0, NULL), 4);
    m.count = 9;
    ck_assert_int_eq(magdyn_obb_manifold(NULL, &other, 0.0, &m), 0);
    ck_assert_int_eq(m.count, 0);
    ck_assert_int_eq(magdyn_obb_manifold(&good, NULL, 0.0, &m), 0);
    bad = good; bad.center.z = NAN;
    m.count = 9;
    ck_assert_int_eq(magdyn_obb_manifold(&bad, &other, 0.0, &m), 0);
    ck_assert_int_eq(m.count, 0);
    bad = good; bad.orientation = magdyn_q(0, 0, 0, 0);
    ck_assert_int_eq(magdyn_obb_manifold(&bad, &other, 0.0, &m), 0);
    bad.orientation = magdyn_q(0.5, 0.5, 0.5, 0.6);
    ck_assert_int_eq(magdyn_obb_manifold(&other, &bad, 0.0, &m), 0);
    bad = good; bad.half.x = -1;
    ck_assert_int_eq(magdyn_obb_manifold(&bad, &other, 0.0, &m), 0);
    ck_assert_int_eq(m.count, 0);
    ck_assert_int_eq(magdyn_obb_manifold(&good, &other, -1e-3, &m), 0);
    ck_assert_int_eq(magdyn_obb_manifold(&good, &other, NAN, &m), 0);
    ck_assert_int_eq(magdyn_obb_manifold(&good, &other, INFINITY, &m), 0);
    ck_assert_int_eq(m.count, 0);
}
END_TEST

/* Random pairs (touching, overlapping, or within a margin): the manifold
 * agrees with the SAT (count > 0 exactly when within the margin, same
 * normal); every point lies on both surfaces to within its depth; no depth
 * exceeds the penetration; the answer moves with a rigid motion of both
 * boxes and flips its normal when a and b swap. */
START_TEST(random_manifolds)
{
    test_rng r = {0xFACEFACEULL};
    long n = test_count(1000000), i, counts[5] = {0, 0, 0, 0, 0}, kinds[4] = {0, 0, 0, 0}, empty = 0, rigid_diff = 0;
    double worst_surface = 0.0;
    for (i = 0; i < n; i++) {
        magdyn_obb a = oracle_rng_box(&r, i), b = oracle_rng_box(&r, i), a2, b2;
        magdyn_manifold m, mm, ms;
        magdyn_sat_result s;
        double margin = (i % 3 == 0) ? 0.0 : (i % 3 == 1) ? 1e-3 : 0.1, sc = scale_of(&a, &b), tol = 1e-12 * sc;
        int cnt, k, np;
        double mc;
        if (i % 4 == 3) {
            magdyn_quat q = test_rng_quat(&r);
            a.orientation = magdyn_quat_mul(q, a.orientation);
            b.orientation = magdyn_quat_mul(q, b.orientation);
        }
        /* slide a towards b so that about half the pairs are near contact */
        magdyn_obb_sat(&a, &b, &s);
        if (i % 2) a.center = magdyn_vec3_madd(a.center, -s.separation + test_rng_range(&r, -0.01, 0.01), s.normal);
        magdyn_obb_sat(&a, &b, &s);
        cnt = magdyn_obb_manifold(&a, &b, margin, &m);
        /* edge contacts of nearly parallel edges are ill-conditioned along the
         * edges (rounding / |a_i x b_j|^2) */
        mc = oracle_min_cross(&a, &b);
        np = mc < 1e-6;
        REQUIRE(cnt == m.count && cnt >= 0 && cnt <= 4);
        if (s.separation > margin) {
            REQUIRE_MSG(cnt == 0, "pair %ld: %d points at separation %g", i, cnt, s.separation);
            continue;
        }
        if (cnt == 0) {
            /* a separated pair whose best axis is a face that the other
             * box does not face: allowed only when apart */
            REQUIRE_MSG(s.separation > 0.0, "pair %ld: overlapping but no contact (sep %g axis %d)", i,
                        s.separation, s.axis);
            empty++;
            continue;
        }
        counts[cnt]++;
        kinds[m.kind]++;
        REQUIRE(m.normal.x == s.normal.x && m.normal.y == s.normal.y && m.normal.z == s.normal.z);
        REQUIRE(s.axis < 6 ? (cnt >= 3) == (m.kind == MAGDYN_CONTACT_FACE_FACE) : m.kind == MAGDYN_CONTACT_EDGE_EDGE);
        if (s.axis < 6 && cnt < 3)
            REQUIRE(m.kind == (s.axis < 3 ? MAGDYN_CONTACT_FACE_EDGE : MAGDYN_CONTACT_EDGE_FACE));
        {
            oracle_box A = oracle_make(&a), B = oracle_make(&b);
            /* an edge axis is normalised by |a_i x b_j|, which scales rounding */
            if (s.axis >= 6)
                tol += 1e-15 * sc / magdyn_vec3_norm(magdyn_vec3_cross(A.ax[(s.axis - 6) / 3], B.ax[(s.axis - 6) % 3]));
            for (k = 0; k < cnt; k++) {
                double da = fabs(oracle_point_box(&A, m.point[k])), db = fabs(oracle_point_box(&B, m.point[k]));
                double lim = fabs(m.depth[k]);
                REQUIRE_MSG(m.depth[k] <= -s.separation + tol && m.depth[k] >= -margin - tol,
                            "pair %ld: depth %g sep %g", i, m.depth[k], s.separation);
                if (s.separation <= 0.0) {
                    REQUIRE_MSG(da <= lim + tol && db <= lim + tol, "pair %ld kind %d: point %d off the surfaces "
                                "by %g, %g, depth %g", i, m.kind, k, da, db, lim);
                    if (fmax(da, db) - 0.5 * lim > worst_surface * sc) worst_surface = (fmax(da, db) - 0.5 * lim) / sc;
                }
            }
        }
        /* the edge contact's depth is the axis' separation (except in the
         * hand-over band of nearly parallel edges, where sep is blended) */
        if (m.kind == MAGDYN_CONTACT_EDGE_EDGE && !np) {
            REQUIRE_MSG(fabs(m.depth[0] + s.separation) <= tol, "pair %ld: edge depth %.17g sep %.17g axis %d", i,
                        m.depth[0], s.separation, s.axis);
        }
        /* swap: opposite normal unless the best axis was a tie */
        magdyn_obb_manifold(&b, &a, margin, &ms);
        if (ms.count && magdyn_vec3_dist(ms.normal, magdyn_vec3_neg(m.normal)) < 1e-9) {
            REQUIRE(fabs(max_depth(&ms) - max_depth(&m)) <= 1e-9 * sc);
        }
        /* rigid motion: same count and points, moved */
        {
            magdyn_quat q = test_rng_quat(&r);
            magdyn_vec3 t = test_rng_vec3(&r, -5, 5);
            a2 = moved(&a, q, t);
            b2 = moved(&b, q, t);
            magdyn_obb_manifold(&a2, &b2, margin, &mm);
            if (mm.count == cnt && magdyn_vec3_dist(mm.normal, magdyn_quat_rotate(q, m.normal)) < 1e-9) {
                for (k = 0; k < cnt; k++)
                    REQUIRE_MSG(has_point(&mm, magdyn_vec3_add(magdyn_quat_rotate(q, m.point[k]), t),
                                          1e-9 * sc + (m.kind == MAGDYN_CONTACT_EDGE_EDGE ? 1e-15 * sc / (mc * mc) : 0.0)),
                                "pair %ld: point %d not moved along", i, k);
            } else {
                /* a tie between axes (or a point on a clipping boundary)
                 * decided differently by rounding: the penetration agrees */
                rigid_diff++;
                /* (apart, the moved pair may find no facing feature) */
                REQUIRE_MSG((mm.count > 0 && fabs(max_depth(&mm) - max_depth(&m)) < 1e-9 * sc)
                            || (mm.count == 0 && s.separation > 0.0),
                            "pair %ld: moved pair gives %d points, depth %g vs %g", i, mm.count,
                            max_depth(&mm), max_depth(&m));
            }
        }
    }
    printf("random manifolds: %ld pairs; 1/2/3/4 points: %ld %ld %ld %ld; face-face %ld, face-edge %ld, "
           "edge-face %ld, edge-edge %ld; %ld apart with no facing feature; worst (surface distance - "
           "depth/2)/size %.2g; %ld answers changed by a rigid motion\n", n, counts[1], counts[2], counts[3],
           counts[4], kinds[0], kinds[1], kinds[2], kinds[3], empty, worst_surface, rigid_diff);
    REQUIRE(counts[1] > 0 && counts[2] > 0 && counts[4] > 0 && kinds[3] > 0);
}
END_TEST

/*
 * Found by fuzz/fuzz_collide.c: a box 1.7e308 m long passes validation but
 * its clipped contact points overflowed to NaN.  Every point and depth the
 * manifold reports must be finite (huge boxes give the bad-input result).
 */
START_TEST(huge_box_no_nan_points)
{
    const magdyn_obb a = {{0.0, 0x1p-1007, 0.0},
                          {0x1.e921dd42f09bap-1, 0x1.2e9cd95baba33p-2, 0x1p-1007, 0.0},
                          {0x1.e921dd42f09bap+1023, 0x1.2e9cd95baba32p-2, 0x1p-959}};
    const magdyn_obb b = {{-0x1.0ff0000004000p-95, 0.0, 0x0.007p-1022},
                          {0.0, 0x1.e921dd42f09bap-1, 0x1.2e9cd95baba33p-2, 0.0},
                          {0x0.2p-1022, 0x0.0000000020000p-1022, 0x0.00000003ff000p-1022}};
    const double margins[] = {0.0, 1e-9, 1e-3, 1.0};
    for (int k = 0; k < 4; k++) {
        for (int swap = 0; swap < 2; swap++) {
            magdyn_manifold m;
            int n = swap ? magdyn_obb_manifold(&b, &a, margins[k], &m)
                         : magdyn_obb_manifold(&a, &b, margins[k], &m);
            ck_assert_int_eq(n, m.count);
            ck_assert(isfinite(m.normal.x) && isfinite(m.normal.y) && isfinite(m.normal.z));
            for (int i = 0; i < n; i++) {
                ck_assert(isfinite(m.point[i].x) && isfinite(m.point[i].y) && isfinite(m.point[i].z));
                ck_assert(isfinite(m.depth[i]));
            }
        }
    }
}
END_TEST

/* magdyn_obb_manifold_pairs gives magdyn_obb_manifold's answers to the last
 * bit, on every vector path (magdyn_obb_manifold_pairs_simd): random pairs (a quarter with nearly parallel edges), half of them
 * slid into near contact, nearly parallel ridges in the blend band, bad
 * boxes, margins 0, 1e-3 and 0.1, counts not divisible by 4. */
START_TEST(manifold_pairs_equals_single)
{
    test_rng r = {0xBA7CF00DULL};
    long n = test_count(100000) + 1, i;
    const double margins[3] = {0.0, 1e-3, 0.1};
    magdyn_obb *boxes = malloc(2 * (size_t)n * sizeof *boxes);
    int *pairs = malloc(2 * (size_t)n * sizeof *pairs), mi;
    magdyn_manifold *out = malloc((size_t)n * sizeof *out), one;
    REQUIRE(boxes && pairs && out);
    for (i = 0; i < n; i++) {
        magdyn_obb *a = &boxes[2 * i], *b = &boxes[2 * i + 1];
        magdyn_sat_result s;
        *a = oracle_rng_box(&r, i);
        *b = oracle_rng_box(&r, i);
        if (i % 4 == 3) {
            magdyn_quat q = test_rng_quat(&r);
            a->orientation = magdyn_quat_mul(q, a->orientation);
            b->orientation = magdyn_quat_mul(q, b->orientation);
        }
        if (i % 10 == 1) {
            /* b: a copy of a turned by 1e-8 .. 2e-8 rad, stacked on it */
            double ang = (1.0 + test_rng_uniform(&r)) * 1e-8;
            magdyn_vec3 ax = magdyn_quat_rotate(a->orientation, magdyn_v3(0, 0, 1));
            *b = *a;
            b->orientation = magdyn_quat_mul(
                magdyn_quat_from_axis_angle(magdyn_quat_rotate(test_rng_quat(&r), magdyn_v3(0, 0, 1)), ang),
                a->orientation);
            b->center = magdyn_vec3_madd(a->center, 2.0 * a->half.z + test_rng_range(&r, -1e-9, 1e-9), ax);
        } else if (i % 2) {
            magdyn_obb_sat(a, b, &s);
            a->center = magdyn_vec3_madd(a->center, -s.separation + test_rng_range(&r, -0.01, 0.01), s.normal);
        }
        if (i % 89 == 7) {
            if ((i / 89) % 2) a->half.x = -1.0;
            else b->orientation.x += 0.1;
        }
        pairs[2 * i] = (int)(2 * i);
        pairs[2 * i + 1] = (int)(2 * i + 1);
    }
    /* every path the processor has: AVX-512 (auto), at most AVX2, none */
    for (mi = 0; mi < 9; mi++) {
        long contacts = 0;
        magdyn_simd simd = (magdyn_simd)(MAGDYN_SIMD_AUTO + mi / 3);
        REQUIRE(magdyn_obb_manifold_pairs_simd((int)(2 * n), boxes, (int)n, pairs, margins[mi % 3], out,
                                               simd) == MAGDYN_OK);
        for (i = 0; i < n; i++) {
            magdyn_obb_manifold(&boxes[2 * i], &boxes[2 * i + 1], margins[mi % 3], &one);
            REQUIRE_MSG(same_manifold(&one, &out[i]), "simd %d, margin %g, pair %ld: batch %d points, single %d",
                        (int)simd, margins[mi % 3], i, out[i].count, one.count);
            contacts += one.count > 0;
        }
        REQUIRE(contacts > n / 4);
    }
    /* bad arguments: a status and the output untouched */
    out[0].count = 77;
    REQUIRE(magdyn_obb_manifold_pairs((int)(2 * n), boxes, 1, pairs, -1e-3, out) == MAGDYN_EINVAL);
    REQUIRE(magdyn_obb_manifold_pairs_simd((int)(2 * n), boxes, 1, pairs, 0.0, out, (magdyn_simd)-1)
            == MAGDYN_EINVAL);
    REQUIRE(magdyn_obb_manifold_pairs((int)(2 * n), boxes, 1, pairs, NAN, out) == MAGDYN_ENONFINITE);
    REQUIRE(magdyn_obb_manifold_pairs((int)(2 * n), boxes, 1, pairs, INFINITY, out) == MAGDYN_ENONFINITE);
    REQUIRE(magdyn_obb_manifold_pairs(-1, boxes, 1, pairs, 0.0, out) == MAGDYN_EINVAL);
    REQUIRE(magdyn_obb_manifold_pairs((int)(2 * n), boxes, -2, pairs, 0.0, out) == MAGDYN_EINVAL);
    REQUIRE(magdyn_obb_manifold_pairs((int)(2 * n), NULL, 1, pairs, 0.0, out) == MAGDYN_EINVAL);
    REQUIRE(magdyn_obb_manifold_pairs((int)(2 * n), boxes, 1, NULL, 0.0, out) == MAGDYN_EINVAL);
    REQUIRE(magdyn_obb_manifold_pairs((int)(2 * n), boxes, 1, pairs, 0.0, NULL) == MAGDYN_EINVAL);
    pairs[1] = (int)(2 * n);
    REQUIRE(magdyn_obb_manifold_pairs((int)(2 * n), boxes, 1, pairs, 0.0, out) == MAGDYN_EINVAL);
    REQUIRE(out[0].count == 77);
    REQUIRE(magdyn_obb_manifold_pairs(0, NULL, 0, NULL, 0.0, NULL) == MAGDYN_OK);
    free(boxes);
    free(pairs);
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("contact");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, stacked_aligned);
    tcase_add_test(tc, edge_on_face);
    tcase_add_test(tc, crossed_edges);
    tcase_add_test(tc, near_parallel_edges);
    tcase_add_test(tc, thin_plates);
    tcase_add_test(tc, coincident_and_inside);
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, random_manifolds);
    tcase_add_test(tc, huge_box_no_nan_points);
    tcase_add_test(tc, manifold_pairs_equals_single);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
