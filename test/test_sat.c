/*
 * test_sat.c - separating-axis tests of boxes and rectangles, box checks,
 * and the broad phase, against the independent oracles of test_sat_oracle.h
 * (edge-against-slab clipping for intersection, vertex projections for the
 * separation along an axis).  Theorem: Gottschalk, Lin & Manocha, OBBTree,
 * SIGGRAPH 1996 (15 axes suffice for two boxes, 4 for two rectangles).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"
#include "test_sat_oracle.h"

/* A random pair; every 4th pair has nearly parallel edges (both boxes near a
 * common frame), turned together by a random rotation. */
static void rng_pair(test_rng *r, long i, magdyn_obb *a, magdyn_obb *b)
{
    *a = oracle_rng_box(r, i);
    *b = oracle_rng_box(r, i);
    if (i % 4 == 3) {
        magdyn_quat q = test_rng_quat(r);
        a->orientation = magdyn_quat_mul(q, a->orientation);
        b->orientation = magdyn_quat_mul(q, b->orientation);
    }
}

/* 10^6 random pairs: overlap flag against the clipping oracle; separation
 * against the 15-axis vertex-projection maximum; the normal attains the
 * separation; translating a along the normal by the separation is exactly
 * the contact; swap symmetry; invariance under a common rigid motion. */
START_TEST(random_pairs_against_oracle)
{
    test_rng r = {0xC0111DE5ULL};
    long n = test_count(1000000), i, skipped = 0, overlaps = 0, heavy = 0;
    double worst_sep = 0, worst_norm = 0, worst_swap = 0, worst_rigid = 0;
    for (i = 0; i < n; i++) {
        magdyn_obb a, b, a2, b2;
        magdyn_sat_result s, sw, sr;
        int ov, flag, np;
        double sc, tol, mc;
        rng_pair(&r, i, &a, &b);
        sc = scale_of(&a, &b);
        mc = oracle_min_cross(&a, &b);
        np = mc < 1e-5;
        ov = magdyn_obb_sat(&a, &b, &s);
        flag = magdyn_obb_sat(&a, &b, NULL);
        REQUIRE((ov) == (flag));
        REQUIRE((ov) == (s.overlap));
        REQUIRE(s.axis >= 0 && s.axis < 15);
        REQUIRE(fabs(magdyn_vec3_norm(s.normal) - 1.0) < 1e-14);
        overlaps += ov;
        /* near-touching pairs are decided by rounding; near-parallel edges
         * may be off by the blend (about 1e-8 of the size) */
        tol = 1e-12 * sc + 1e-15 * sc / mc;
        if (fabs(s.separation) > 1e-7 * sc)
            REQUIRE_MSG(ov == oracle_intersect(&a, &b), "pair %ld: sat %d sep %g", i, ov, s.separation);
        else
            skipped++;

        /* heavier checks on every 4th pair (and all in quick mode) */
        if (i % 4 && n > 10000) continue;
        heavy++;
        {
            oracle_box A = oracle_make(&a), B = oracle_make(&b);
            double ref = oracle_sat15(&a, &b, 1e-6, NULL), along = oracle_gap_along(&A, &B, s.normal);
            double e;
            /* the library's value includes every axis the oracle has */
            REQUIRE_MSG(s.separation >= ref - tol, "pair %ld: %.17g < oracle %.17g", i, s.separation, ref);
            if (!np) {
                e = fabs(s.separation - ref);
                if (e / sc > worst_sep) worst_sep = e / sc;
                REQUIRE_MSG(e <= tol, "pair %ld: sep %.17g oracle %.17g", i, s.separation, ref);
            }
            /* the reported normal attains the separation (within the tie
             * window; a blended edge axis separates by more) */
            e = along - s.separation;
            REQUIRE_MSG(e >= -1e-11 * sc - tol && (np || e <= 1e-11 * sc + tol), "pair %ld: along n %.17g sep %.17g",
                          i, along, s.separation);
            if (!np && fabs(e) / sc > worst_norm) worst_norm = fabs(e) / sc;
            /* moving a along n by -separation (1 +- 1e-6) flips contact */
            if (fabs(s.separation) > 1e-6 * sc) {
                double d = s.separation;
                magdyn_obb in = a, out = a;
                in.center = magdyn_vec3_madd(a.center, -d - 1e-6 * fabs(d), s.normal);
                out.center = magdyn_vec3_madd(a.center, -d + 1e-6 * fabs(d), s.normal);
                REQUIRE_MSG(!oracle_intersect(&out, &b), "pair %ld: still meeting", i);
                /* less than the minimum penetration cannot separate */
                if (d < 0 && !np) REQUIRE_MSG(oracle_intersect(&in, &b), "pair %ld: separated early", i);
            }
        }
        /* swap: same separation, opposite normal (or a tied axis) */
        magdyn_obb_sat(&b, &a, &sw);
        {
            double e = fabs(sw.separation - s.separation);
            if (!np && e / sc > worst_swap) worst_swap = e / sc;
            REQUIRE_MSG(e <= (np ? 1e-7 * sc : tol), "pair %ld: swap %.17g vs %.17g", i,
                          sw.separation, s.separation);
            if (!np && magdyn_vec3_dist(sw.normal, magdyn_vec3_neg(s.normal)) > 1e-9) {
                oracle_box A = oracle_make(&a), B = oracle_make(&b);
                REQUIRE(fabs(oracle_gap_along(&A, &B, magdyn_vec3_neg(sw.normal)) - s.separation)
                          <= 1e-11 * sc + tol);
            }
        }
        /* a common rigid motion changes nothing but the frame */
        {
            magdyn_quat q = test_rng_quat(&r);
            magdyn_vec3 t = test_rng_vec3(&r, -10, 10);
            double e;
            a2 = moved(&a, q, t);
            b2 = moved(&b, q, t);
            magdyn_obb_sat(&a2, &b2, &sr);
            e = fabs(sr.separation - s.separation);
            if (!np && e / sc > worst_rigid) worst_rigid = e / sc;
            REQUIRE_MSG(e <= (np ? 1e-7 * sc : 1e-11 * sc + 10.0 * tol), "pair %ld: moved %.17g vs %.17g", i,
                          sr.separation, s.separation);
            if (fabs(s.separation) > 1e-7 * sc) REQUIRE((sr.overlap) == (s.overlap));
        }
    }
    /* a meaningful mix of both answers */
    REQUIRE(overlaps > n / 10 && overlaps < n - n / 10);
    REQUIRE_MSG(skipped < n / 1000 + 5, "%ld near-touching pairs skipped", skipped);
    REQUIRE(heavy > 0);
    printf("sat random: %ld pairs, %ld overlapping, %ld near-touching skipped; worst relative "
           "errors: separation %.2g, normal %.2g, swap %.2g, rigid motion %.2g\n",
           n, overlaps, skipped, worst_sep, worst_norm, worst_swap, worst_rigid);
}
END_TEST

/* Boxes touching face to face: separation exactly 0, overlap; a 1e-12 gap
 * is a gap, a 1e-12 overlap a penetration of 1e-12 (not a box width). */
START_TEST(touching_faces_exact)
{
    magdyn_quat id = magdyn_quat_identity();
    magdyn_obb a = box(0, 0, 1.0, id, 0.5, 0.5, 0.5), b = box(0.3, -0.2, 0, id, 1, 1, 0.5);
    magdyn_sat_result s;
    REQUIRE((magdyn_obb_sat(&a, &b, &s)) == (1));
    ck_assert_double_eq(s.separation, 0.0);
    REQUIRE((s.axis) == (2));
    ck_assert_double_eq(s.normal.z, 1.0);
    a.center.z = 1.0 + 1e-12;
    REQUIRE((magdyn_obb_sat(&a, &b, &s)) == (0));
    ck_assert_double_eq_tol(s.separation, 1e-12, 1e-16);
    a.center.z = 1.0 - 1e-12;
    REQUIRE((magdyn_obb_sat(&a, &b, &s)) == (1));
    ck_assert_double_eq_tol(s.separation, -1e-12, 1e-16);
    REQUIRE((s.axis) == (2));
    /* the same, turned and moved together */
    {
        magdyn_quat q = magdyn_quat_from_axis_angle(magdyn_v3(1, 2, 3), 0.7);
        magdyn_obb a2 = moved(&a, q, magdyn_v3(3, -1, 2)), b2 = moved(&b, q, magdyn_v3(3, -1, 2));
        magdyn_vec3 nz = magdyn_quat_rotate(q, magdyn_v3(0, 0, 1));
        REQUIRE((magdyn_obb_sat(&a2, &b2, &s)) == (1));
        ck_assert_double_eq_tol(s.separation, -1e-12, 2e-15);
        REQUIRE(magdyn_vec3_dist(s.normal, nz) < 1e-14);
    }
}
END_TEST

/* A 1e-6 plate, boxes one inside another, identical boxes. */
START_TEST(thin_inside_coincident)
{
    magdyn_quat id = magdyn_quat_identity(), q = magdyn_quat_from_axis_angle(magdyn_v3(0.3, -1, 0.2), 1.1);
    magdyn_obb plate = box(0, 0, 0, id, 1, 1, 0.5e-6), top = box(0.2, 0.1, 0.5 + 0.5e-6 - 1e-9, id, 0.5, 0.5, 0.5);
    magdyn_obb big, small, c1, c2;
    magdyn_sat_result s;
    REQUIRE((magdyn_obb_sat(&top, &plate, &s)) == (1));
    ck_assert_double_eq_tol(s.separation, -1e-9, 1e-15);
    ck_assert_double_eq(s.normal.z, 1.0);
    /* a plate standing across the plate: the way out is sideways by a
     * plate width plus half the thickness, along y or z */
    top = box(0, 0, 0, magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.5 * MAGDYN_PI), 1, 0.9, 0.5e-6);
    REQUIRE((magdyn_obb_sat(&top, &plate, &s)) == (1));
    ck_assert_double_eq_tol(s.separation, -(0.9 + 0.5e-6), 1e-15);
    REQUIRE(fabs(fabs(s.normal.z) - 1.0) < 1e-15);
    /* and just above it, standing on it */
    top.center.z = 0.9 + 1e-6;
    REQUIRE((magdyn_obb_sat(&top, &plate, &s)) == (0));
    ck_assert_double_eq_tol(s.separation, 0.5e-6, 1e-15);
    /* one box inside another: the shortest way out, along x here */
    big = box(0, 0, 0, q, 2, 3, 4);
    small = box(0, 0, 0, q, 0.1, 0.2, 0.3);
    small.center = magdyn_quat_rotate(q, magdyn_v3(1.5, 0.2, -0.1));
    REQUIRE((magdyn_obb_sat(&small, &big, &s)) == (1));
    ck_assert_double_eq_tol(s.separation, -(2.0 + 0.1 - 1.5), 1e-14);
    REQUIRE(magdyn_vec3_dist(s.normal, magdyn_quat_rotate(q, magdyn_v3(1, 0, 0))) < 1e-14);
    REQUIRE((magdyn_obb_sat(&big, &small, &s)) == (1));
    ck_assert_double_eq_tol(s.separation, -0.6, 1e-14);
    REQUIRE(magdyn_vec3_dist(s.normal, magdyn_quat_rotate(q, magdyn_v3(-1, 0, 0))) < 1e-14);
    /* identical boxes: penetration 2 * the smallest half extent, along it */
    c1 = box(1, 2, 3, q, 0.7, 0.2, 0.5);
    c2 = c1;
    REQUIRE((magdyn_obb_sat(&c1, &c2, &s)) == (1));
    ck_assert_double_eq_tol(s.separation, -0.4, 1e-14);
    REQUIRE((s.axis) == (1));
    REQUIRE(magdyn_vec3_dist(s.normal, magdyn_quat_rotate(q, magdyn_v3(0, 1, 0))) < 1e-14);
}
END_TEST

/* Two long boxes crossed so their edges meet: the edge axis decides, and
 * the separation along it is the gap between the edges. */
START_TEST(crossed_edges)
{
    magdyn_quat qa = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.25 * MAGDYN_PI);
    magdyn_quat qb = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 0.25 * MAGDYN_PI);
    double r2 = sqrt(2.0), gap;
    int k;
    for (k = -2; k <= 2; k++) {
        gap = 5e-4 * k;
        if (k == 0) continue;
        /* ridge of a (along x) at height z = 0 + gap, ridge of b (along y) at 0 */
        magdyn_obb a = box(0, 0, 0.5 * r2 + gap, qa, 2, 0.5, 0.5), b = box(0, 0, -0.5 * r2, qb, 0.5, 2, 0.5);
        magdyn_sat_result s;
        int ov = magdyn_obb_sat(&a, &b, &s);
        REQUIRE((ov) == (gap <= 0));
        REQUIRE((ov) == (oracle_intersect(&a, &b)));
        ck_assert_double_eq_tol(s.separation, gap, 1e-14);
        REQUIRE((s.axis) == (6 + 3 * 0 + 1));
        REQUIRE(fabs(s.normal.z - 1.0) < 1e-14);
    }
}
END_TEST

/* Nearly parallel edges: the answer does not flip with the sign or size of
 * a tiny angle, and separation is continuous (Lipschitz in the angle near
 * contact) across the band where edge axes hand over to faces. */
/*
 * Found by fuzz/fuzz_collide.c: boxes of ~1e-307 m (denormal coordinates).
 * The full test compared the squares of an edge separation and its bound,
 * which underflow to 0 there, so it skipped the separating edge axis and
 * answered "overlap" while the overlap-only path (out = NULL) said apart.
 * Both paths must agree for every valid pair.
 */
START_TEST(denormal_edge_axis_agrees)
{
    const magdyn_obb a = {{0x0.0p+0, 0x0.0p+0, 0x0.009p-1022},
                          {0x1.e921dd42fba00p-1, 0x1.2e9cd95baba33p-2, 0x1.8000200000000p-959,
                           -0x1.0p-95},
                          {0x1.fee921dd42f09p-204, 0x1.fd2e9cd95babap-1020, 0x0.4000000000080p-1022}};
    const magdyn_obb b = {{0x0.0p+0, -0x1.ff00000000000p-1020, 0x1.fe00020000000p-1020},
                          {0x1.0p-235, 0x1.ff33636363636p-204, 0x1.e921dd42f0933p-1,
                           0x1.2e9cd95baba33p-2},
                          {0x0.0000000080000p-1022, 0x1.8000200000000p-957, 0x0.03fd2e9330000p-1022}};
    magdyn_sat_result r;
    ck_assert_int_eq(magdyn_obb_check(&a), MAGDYN_OK);
    ck_assert_int_eq(magdyn_obb_check(&b), MAGDYN_OK);
    ck_assert_int_eq(magdyn_obb_sat(&a, &b, &r), magdyn_obb_sat(&a, &b, NULL));
    ck_assert_int_eq(magdyn_obb_sat(&b, &a, &r), magdyn_obb_sat(&b, &a, NULL));
    ck_assert_int_eq(r.overlap, r.separation <= 0.0);
}
END_TEST

START_TEST(near_parallel_edges)
{
    magdyn_quat qa = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.25 * MAGDYN_PI);
    double r2 = sqrt(2.0), pen = 1e-6, angs[] = {0.0, 1e-9, -1e-9, 1e-12, -1e-12, 1e-8, 1.5e-8, 3e-8};
    magdyn_sat_result s0, s;
    unsigned k;
    /* two ridges along x, one on the other, overlapping by pen vertically */
    magdyn_obb a = box(0, 0, 0.5 * r2 - pen, qa, 1, 0.5, 0.5), b = box(0.3, 0.3 * pen, -0.5 * r2, qa, 1, 0.5, 0.5);
    REQUIRE((magdyn_obb_sat(&a, &b, &s0)) == (1));
    /* the ridges' cross-sections overlap in a pen/sqrt2 x 0.4 pen/sqrt2
     * rectangle (b's ridge 0.3 pen to the side): the way out is along the
     * short side, the face normal of b at -45 degrees */
    ck_assert_double_eq_tol(s0.separation, -0.35 * pen * r2, 1e-15);
    for (k = 0; k < sizeof angs / sizeof *angs; k++) {
        magdyn_obb b2 = b;
        b2.orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), angs[k]), qa);
        REQUIRE((magdyn_obb_sat(&a, &b2, &s)) == (1));
        REQUIRE_MSG(fabs(s.separation - s0.separation) < 2e-8 * fabs(angs[k]) / 1e-8 + 1e-15,
                      "angle %g: %.17g vs %.17g", angs[k], s.separation, s0.separation);
        REQUIRE(magdyn_vec3_dist(s.normal, s0.normal) < 1e-7);
    }
    /* Random pairs with three pairs of nearly parallel edges, b turned
     * through angles 1e-10 .. 1e-5 about a random axis.  (1) Boxes first
     * slid into contact: every step is bounded by a Lipschitz constant plus
     * the rounding floor of the blend band (edge axes there are only good
     * to eps * size / 1e-8 ~ 1e-8 size).  (2) Pairs as drawn (mostly
     * separated, where an edge axis may beat the faces by a box size):
     * stepping finely through the band, steps stay bounded by the blend's
     * slope; dropping the edge axes abruptly would jump by the whole gap. */
    {
        test_rng r = {77};
        long trial, ntrial = test_count(1000), touching = 0;
        double worst_touch = 0.0, worst_apart = 0.0;
        for (trial = 0; trial < 2 * ntrial; trial++) {
            static const double c = 0.70710678118654752440;
            static const magdyn_quat perm[4] = {{1, 0, 0, 0}, {c, c, 0, 0}, {c, 0, 0, c}, {0.5, 0.5, 0.5, 0.5}};
            magdyn_obb p, q;
            magdyn_quat base = test_rng_quat(&r), rel = perm[trial % 4];
            magdyn_vec3 axis = test_rng_vec3(&r, -1, 1);
            double ang, prev = NAN, prev_ang = 0.0, sc, lo, hi, ratio_in, ratio_out, slope, floor_;
            int it, apart = trial >= ntrial;
            p = oracle_rng_box(&r, 0);
            q = oracle_rng_box(&r, 1);
            p.orientation = base;
            q.orientation = magdyn_quat_mul(base, magdyn_quat_mul(rel, magdyn_quat_from_axis_angle(axis, 1e-6)));
            sc = scale_of(&p, &q);
            if (!apart) {
                /* slide a along the normal until the boxes touch */
                for (it = 0; it < 100; it++) {
                    magdyn_obb_sat(&p, &q, &s);
                    if (fabs(s.separation) < 1e-14 * sc) break;
                    p.center = magdyn_vec3_madd(p.center, -s.separation, s.normal);
                }
                if (it == 100) continue;
                touching++;
                lo = 1e-10; hi = 1e-5; ratio_in = 1.002; ratio_out = 1.05;
                slope = 20.0 * sc; floor_ = 1e-8 * sc;
            } else {
                lo = 5e-9; hi = 4e-8; ratio_in = 1.0002; ratio_out = 1.0002;
                slope = (20.0 + 2.0 / 1e-8) * sc; floor_ = 1e-8 * sc;
            }
            for (ang = lo; ang < hi; ang *= (ang > 5e-9 && ang < 5e-8) ? ratio_in : ratio_out) {
                double step;
                q.orientation = magdyn_quat_mul(base, magdyn_quat_mul(rel, magdyn_quat_from_axis_angle(axis, ang)));
                magdyn_quat_normalize(q.orientation, &q.orientation);
                magdyn_obb_sat(&p, &q, &s);
                if (!isnan(prev)) {
                    step = fabs(s.separation - prev);
                    REQUIRE_MSG(step <= slope * (ang - prev_ang) + floor_,
                                "trial %ld angle %g: step %g", trial, ang, s.separation - prev);
                    if (apart && step / sc > worst_apart) worst_apart = step / sc;
                    if (!apart && step / sc > worst_touch) worst_touch = step / sc;
                }
                prev = s.separation;
                prev_ang = ang;
            }
        }
        REQUIRE(touching > ntrial / 2);
        printf("near-parallel sweeps: largest step / size %.2g near contact, %.2g apart\n",
               worst_touch, worst_apart);
    }
}
END_TEST


START_TEST(aabb_contains_vertices)
{
    test_rng r = {31};
    int k, i;
    for (i = 0; i < 1000; i++) {
        magdyn_obb b = oracle_rng_box(&r, i);
        oracle_box o = oracle_make(&b);
        magdyn_vec3 lo, hi, mx = {-INFINITY, -INFINITY, -INFINITY}, mn = {INFINITY, INFINITY, INFINITY};
        REQUIRE((magdyn_obb_aabb(&b, &lo, &hi)) == (MAGDYN_OK));
        for (k = 0; k < 8; k++) {
            mn.x = fmin(mn.x, o.v[k].x); mn.y = fmin(mn.y, o.v[k].y); mn.z = fmin(mn.z, o.v[k].z);
            mx.x = fmax(mx.x, o.v[k].x); mx.y = fmax(mx.y, o.v[k].y); mx.z = fmax(mx.z, o.v[k].z);
        }
        /* the box's bounding box is spanned by its extreme vertices */
        REQUIRE(magdyn_vec3_dist(lo, mn) < 1e-14 && magdyn_vec3_dist(hi, mx) < 1e-14);
    }
}
END_TEST

/* ---- broad phase ---------------------------------------------------------- */

START_TEST(broadphase_against_brute_force)
{
    test_rng r = {4242};
    enum { N = 300 };
    static magdyn_obb boxes[N];
    static int pairs[2 * N * N];
    int i, j, np = -1, k, expect = 0, t;
    for (t = 0; t < 4; t++) {
        double margin = t == 0 ? 0.0 : t == 1 ? 0.05 : t == 2 ? 0.5 : 1e-3;
        for (i = 0; i < N; i++) {
            boxes[i] = oracle_rng_box(&r, i);
            boxes[i].center = test_rng_vec3(&r, -6, 6);
            boxes[i].half = magdyn_vec3_scale(boxes[i].half, 0.5);
            if (t == 3) {
                /* a vertical stack of turned magnets, 0.5 mm apart */
                boxes[i].half = magdyn_v3(0.01, 0.01, 0.005);
                boxes[i].orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.1 * i);
                boxes[i].center = magdyn_v3(1e-3 * (i % 3), 0.0, 0.0105 * i);
            }
        }
        REQUIRE((magdyn_broadphase_pairs(N, boxes, margin, pairs, N * N, &np)) == (MAGDYN_OK));
        /* sorted, i < j, no duplicates */
        for (k = 0; k < np; k++) {
            REQUIRE(pairs[2 * k] < pairs[2 * k + 1]);
            if (k) REQUIRE(pairs[2 * k - 2] < pairs[2 * k] ||
                             (pairs[2 * k - 2] == pairs[2 * k] && pairs[2 * k - 1] < pairs[2 * k + 1]));
        }
        /* exactly the pairs whose vertex-built bounding boxes come within
         * margin on all axes: as a bounding-box gap is a lower bound on the
         * distance, every pair within margin is among them */
        expect = 0;
        k = 0;
        for (i = 0; i < N; i++)
            for (j = i + 1; j < N; j++) {
                oracle_box A = oracle_make(&boxes[i]), B = oracle_make(&boxes[j]);
                double gap = -INFINITY;
                int d, v;
                magdyn_sat_result s;
                for (d = 0; d < 3; d++) {
                    double alo = INFINITY, ahi = -INFINITY, blo = INFINITY, bhi = -INFINITY, g;
                    for (v = 0; v < 8; v++) {
                        double pa = d == 0 ? A.v[v].x : d == 1 ? A.v[v].y : A.v[v].z;
                        double pb = d == 0 ? B.v[v].x : d == 1 ? B.v[v].y : B.v[v].z;
                        alo = fmin(alo, pa); ahi = fmax(ahi, pa); blo = fmin(blo, pb); bhi = fmax(bhi, pb);
                    }
                    g = fmax(blo - ahi, alo - bhi);
                    gap = fmax(gap, g);
                }
                magdyn_obb_sat(&boxes[i], &boxes[j], &s);
                if (gap <= margin - 1e-12) {
                    expect++;
                    while (k < np && (pairs[2 * k] < i || (pairs[2 * k] == i && pairs[2 * k + 1] < j))) k++;
                    REQUIRE_MSG(k < np && pairs[2 * k] == i && pairs[2 * k + 1] == j, "missing %d %d", i, j);
                } else if (gap > margin + 1e-12) {
                    /* a gap along an inertial axis is a lower bound on the
                     * distance, so these pairs are farther than margin (and
                     * certainly apart) */
                    REQUIRE(!s.overlap && !oracle_intersect(&boxes[i], &boxes[j]));
                }
            }
        REQUIRE((np) == (expect));
        REQUIRE(np > 0 && np < N * (N - 1) / 4);
        if (t == 3) REQUIRE(np == N - 1);   /* neighbours only */
    }
    /* a short buffer: the count is still right; a count-only call */
    {
        int small[6] = {-1, -1, -1, -1, -1, -1}, cnt = -1, cnt2 = -1;
        REQUIRE((magdyn_broadphase_pairs(N, boxes, 1e-3, small, 2, &cnt)) == (MAGDYN_OK));
        REQUIRE((cnt) == (np));
        REQUIRE(small[0] >= 0 && small[3] >= 0 && small[4] == -1);
        REQUIRE((magdyn_broadphase_pairs(N, boxes, 1e-3, NULL, 0, &cnt2)) == (MAGDYN_OK));
        REQUIRE((cnt2) == (np));
    }
}
END_TEST


/* ---- rectangles ----------------------------------------------------------- */

static magdyn_obb rect_as_box(const magdyn_rect *r)
{
    return oracle_obb(magdyn_v3(r->center.x, r->center.y, 0.0),
                      magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), r->angle),
                      magdyn_v3(r->half.x, r->half.y, 10.0));
}

/* 2D rectangles against the 3D test of the same rectangles extruded into
 * tall boxes (the z axis and the cross axes reduce to the 2D ones), and
 * against the clipping oracle. */
START_TEST(rect_random_against_boxes)
{
    test_rng r = {99};
    long n = test_count(200000), i;
    for (i = 0; i < n; i++) {
        magdyn_rect a, b;
        magdyn_rect_sat_result s;
        magdyn_sat_result s3;
        magdyn_obb A, B;
        double sc;
        int ov;
        a.center = magdyn_v2(test_rng_range(&r, -1, 1), test_rng_range(&r, -1, 1));
        b.center = magdyn_v2(test_rng_range(&r, -1, 1), test_rng_range(&r, -1, 1));
        a.angle = test_rng_range(&r, -4, 4);
        b.angle = (i % 5 == 0) ? a.angle + 0.5 * MAGDYN_PI * (double)(i % 3) : test_rng_range(&r, -4, 4);
        a.half = magdyn_v2(test_rng_range(&r, 0.05, 1), test_rng_range(&r, 0.05, 1));
        b.half = magdyn_v2(test_rng_range(&r, 0.05, 1), test_rng_range(&r, 0.05, 1));
        sc = a.half.x + a.half.y + b.half.x + b.half.y;
        ov = magdyn_rect_sat(&a, &b, &s);
        REQUIRE((ov) == (magdyn_rect_sat(&a, &b, NULL)));
        REQUIRE((ov) == (s.overlap));
        A = rect_as_box(&a);
        B = rect_as_box(&b);
        magdyn_obb_sat(&A, &B, &s3);
        REQUIRE_MSG(fabs(s3.separation - s.separation) < 1e-12 * sc, "%ld: %.17g vs %.17g", i,
                      s.separation, s3.separation);
        if (fabs(s.separation) > 1e-12 * sc) REQUIRE((ov) == (oracle_intersect(&A, &B)));
        /* the normal attains the separation */
        {
            oracle_box OA = oracle_make(&A), OB = oracle_make(&B);
            REQUIRE(fabs(oracle_gap_along(&OA, &OB, magdyn_v3(s.normal.x, s.normal.y, 0)) - s.separation)
                      < 1e-12 * sc);
        }
        /* swap symmetry */
        {
            magdyn_rect_sat_result w;
            magdyn_rect_sat(&b, &a, &w);
            REQUIRE(fabs(w.separation - s.separation) < 1e-12 * sc);
        }
    }
}
END_TEST

START_TEST(rect_cases_and_bad_input)
{
    magdyn_rect a = {{0, 0}, 0, {1, 0.5}}, b = {{2, 0}, 0, {1, 1}};
    magdyn_rect_sat_result s;
    REQUIRE((magdyn_rect_sat(&a, &b, &s)) == (1));
    ck_assert_double_eq(s.separation, 0.0);
    ck_assert_double_eq(s.normal.x, -1.0);
    REQUIRE((s.axis) == (0));
    b.center.x = 2.5;
    b.angle = 0.25 * MAGDYN_PI;
    REQUIRE((magdyn_rect_sat(&a, &b, &s)) == (0));
    /* the diamond's corner sits at x = 2.5 - sqrt2 */
    ck_assert_double_eq_tol(s.separation, 2.5 - sqrt(2.0) - 1.0, 1e-15);
    REQUIRE((magdyn_rect_sat(NULL, &b, &s)) == (0));
    REQUIRE(isnan(s.separation) && s.axis == -1);
    a.half.y = 0;
    REQUIRE((magdyn_rect_sat(&a, &b, &s)) == (0));
    a.half.y = 1; a.angle = NAN;
    REQUIRE((magdyn_rect_sat(&a, &b, &s)) == (0));
    REQUIRE(isnan(s.separation));
}
END_TEST

/* a box magdyn_obb_sat takes: checked, coordinates and extents summing below DBL_MAX */
static int box_good(const magdyn_obb *b)
{
    double sum = b->center.x + b->center.y + b->center.z + b->half.x + b->half.y + b->half.z;
    return magdyn_obb_check(b) == MAGDYN_OK && isfinite(sum);
}

/* magdyn_obb_overlap_pairs answers exactly as magdyn_obb_sat(out = NULL),
 * on every vector path (magdyn_obb_overlap_pairs_simd):
 * random pairs (a quarter with nearly parallel edges), pairs turned into
 * the blend band of nearly parallel edges (1e-8 .. 2e-8 rad, where the
 * batch hands over to the single test), faces touching exactly, bad boxes
 * (-1 for every pair that uses one), and a count not divisible by 4. */
START_TEST(overlap_pairs_equals_single)
{
    test_rng r = {0xBA7C4ULL};
    long n = test_count(200000) + 3, i, bad = 0, band = 0, overlaps = 0;
    magdyn_obb *boxes = malloc(2 * (size_t)n * sizeof *boxes);
    int *pairs = malloc(2 * (size_t)n * sizeof *pairs), *ov = malloc((size_t)n * sizeof *ov), simd;
    REQUIRE(boxes && pairs && ov);
    for (i = 0; i < n; i++) {
        magdyn_obb *a = &boxes[2 * i], *b = &boxes[2 * i + 1];
        rng_pair(&r, i, a, b);
        if (i % 10 == 1) {
            /* b: a copy of a turned by 1.5e-8 rad and shifted to overlap
             * slightly or miss slightly along a's z axis */
            double ang = (1.0 + test_rng_uniform(&r)) * 1e-8, off = (test_rng_uniform(&r) - 0.5) * 1e-9;
            magdyn_vec3 ax = magdyn_quat_rotate(a->orientation, magdyn_v3(0, 0, 1));
            *b = *a;
            b->orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_quat_rotate(test_rng_quat(&r), magdyn_v3(0, 0, 1)), ang), a->orientation);
            b->center = magdyn_vec3_add(a->center, magdyn_vec3_scale(ax, 2.0 * a->half.z + off));
            band++;
        } else if (i % 10 == 2) {
            /* aligned faces touching exactly */
            *b = *a;
            b->center = magdyn_vec3_add(a->center, magdyn_quat_rotate(a->orientation, magdyn_v3(2.0 * a->half.x, 0.25, 0)));
        }
        if (i % 97 == 5) {
            switch ((i / 97) % 5) {
            case 0: a->center.y = NAN; break;
            case 1: b->half.z = 0.0; break;
            case 2: a->orientation.w *= 1.01; break;
            case 3: a->half.x = a->half.y = 1e308; break;   /* checked, but the sum overflows */
            default: b->center.x = INFINITY; break;
            }
        }
        /* pairs in a scrambled order, so the four lanes see unrelated pairs */
        pairs[2 * i] = (int)(2 * i);
        pairs[2 * i + 1] = (int)(2 * i + 1);
    }
    for (i = n - 1; i > 0; i--) {
        long j = (long)(test_rng_uniform(&r) * (double)(i + 1));
        int t0 = pairs[2 * i], t1 = pairs[2 * i + 1];
        pairs[2 * i] = pairs[2 * j]; pairs[2 * i + 1] = pairs[2 * j + 1];
        pairs[2 * j] = t0; pairs[2 * j + 1] = t1;
    }
    /* every path the processor has: AVX-512 (auto), at most AVX2, none */
    for (simd = MAGDYN_SIMD_AUTO; simd <= MAGDYN_SIMD_AVX2; simd++) {
        REQUIRE(magdyn_obb_overlap_pairs_simd((int)(2 * n), boxes, (int)n, pairs, ov,
                                              (magdyn_simd)simd) == MAGDYN_OK);
        bad = overlaps = 0;
        for (i = 0; i < n; i++) {
            const magdyn_obb *a = &boxes[pairs[2 * i]], *b = &boxes[pairs[2 * i + 1]];
            int want = !box_good(a) || !box_good(b) ? -1 : magdyn_obb_sat(a, b, NULL);
            REQUIRE_MSG(ov[i] == want, "simd %d, pair %ld (boxes %d, %d): batch %d, single %d",
                        simd, i, pairs[2 * i], pairs[2 * i + 1], ov[i], want);
            bad += want < 0;
            overlaps += want > 0;
        }
        REQUIRE(bad > n / 200 && overlaps > n / 5 && band > n / 20);
    }
    REQUIRE(magdyn_obb_overlap_pairs_simd((int)(2 * n), boxes, 4, pairs, ov, (magdyn_simd)3)
            == MAGDYN_EINVAL);
    /* bad arguments: EINVAL and the output untouched */
    for (i = 0; i < 4; i++) ov[i] = 7;
    REQUIRE(magdyn_obb_overlap_pairs(-1, boxes, 4, pairs, ov) == MAGDYN_EINVAL);
    REQUIRE(magdyn_obb_overlap_pairs((int)(2 * n), boxes, -1, pairs, ov) == MAGDYN_EINVAL);
    REQUIRE(magdyn_obb_overlap_pairs((int)(2 * n), NULL, 4, pairs, ov) == MAGDYN_EINVAL);
    REQUIRE(magdyn_obb_overlap_pairs((int)(2 * n), boxes, 4, NULL, ov) == MAGDYN_EINVAL);
    REQUIRE(magdyn_obb_overlap_pairs((int)(2 * n), boxes, 4, pairs, NULL) == MAGDYN_EINVAL);
    pairs[5] = (int)(2 * n);
    REQUIRE(magdyn_obb_overlap_pairs((int)(2 * n), boxes, 4, pairs, ov) == MAGDYN_EINVAL);
    pairs[5] = -1;
    REQUIRE(magdyn_obb_overlap_pairs((int)(2 * n), boxes, 4, pairs, ov) == MAGDYN_EINVAL);
    REQUIRE(ov[0] == 7 && ov[1] == 7 && ov[2] == 7 && ov[3] == 7);
    REQUIRE(magdyn_obb_overlap_pairs(0, NULL, 0, NULL, NULL) == MAGDYN_OK);
    free(boxes);
    free(pairs);
    free(ov);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sat");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, random_pairs_against_oracle);
    tcase_add_test(tc, touching_faces_exact);
    tcase_add_test(tc, thin_inside_coincident);
    tcase_add_test(tc, crossed_edges);
    tcase_add_test(tc, near_parallel_edges);
    tcase_add_test(tc, aabb_contains_vertices);
    tcase_add_test(tc, broadphase_against_brute_force);
    tcase_add_test(tc, rect_random_against_boxes);
    tcase_add_test(tc, rect_cases_and_bad_input);
    tcase_add_test(tc, denormal_edge_axis_agrees);
    tcase_add_test(tc, overlap_pairs_equals_single);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
