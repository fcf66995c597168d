/*
 * test_sat_input.c - what the box tests refuse: NULL, NaN, infinity, a
 * half extent <= 0, a quaternion off unit length, and boxes beyond
 * MAGDYN_OBB_RANGE, for the single, checked, manifold, batched and
 * broad-phase calls alike.
 */
#include <check.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"
#include "test_sat_oracle.h"

START_TEST(bad_input)
{
    magdyn_quat id = magdyn_quat_identity();
    magdyn_obb good = box(0, 0, 0, id, 1, 1, 1), bad;
    magdyn_sat_result s;
    magdyn_vec3 lo = {7, 7, 7}, hi = {8, 8, 8};
    REQUIRE((magdyn_obb_check(&good)) == (MAGDYN_OK));
    REQUIRE((magdyn_obb_check(NULL)) == (MAGDYN_EINVAL));
    REQUIRE((magdyn_obb_sat(NULL, &good, &s)) == (0));
    REQUIRE(isnan(s.separation) && s.axis == -1 && !s.overlap);
    REQUIRE((magdyn_obb_sat(&good, NULL, NULL)) == (0));
    bad = good; bad.center.y = NAN;
    REQUIRE((magdyn_obb_check(&bad)) == (MAGDYN_ENONFINITE));
    REQUIRE((magdyn_obb_sat(&bad, &good, &s)) == (0));
    REQUIRE(isnan(s.separation) && s.axis == -1 && s.normal.x == 0.0);
    REQUIRE((magdyn_obb_sat(&good, &bad, NULL)) == (0));
    bad = good; bad.center.x = INFINITY;
    REQUIRE((magdyn_obb_check(&bad)) == (MAGDYN_ENONFINITE));
    REQUIRE((magdyn_obb_sat(&good, &bad, &s)) == (0));
    bad = good; bad.orientation = magdyn_q(1.1, 0, 0, 0);
    REQUIRE((magdyn_obb_check(&bad)) == (MAGDYN_ENORM));
    REQUIRE((magdyn_obb_sat(&good, &bad, &s)) == (0));
    REQUIRE(isnan(s.separation));
    bad.orientation = magdyn_q(0, 0, 0, 0);
    REQUIRE((magdyn_obb_check(&bad)) == (MAGDYN_ENORM));
    REQUIRE((magdyn_obb_sat(&good, &bad, &s)) == (0));
    bad.orientation = magdyn_q(NAN, 0, 0, 0);
    REQUIRE((magdyn_obb_check(&bad)) == (MAGDYN_ENONFINITE));
    REQUIRE((magdyn_obb_sat(&bad, &good, &s)) == (0));
    /* a quaternion 1e-10 off unit length is accepted */
    bad.orientation = magdyn_q(1.0 + 1e-10, 0, 0, 0);
    REQUIRE((magdyn_obb_check(&bad)) == (MAGDYN_OK));
    REQUIRE((magdyn_obb_sat(&good, &bad, &s)) == (1));
    bad = good; bad.half.z = -1;
    REQUIRE((magdyn_obb_check(&bad)) == (MAGDYN_EINVAL));
    REQUIRE((magdyn_obb_sat(&good, &bad, &s)) == (0));
    bad.half.z = 0;
    REQUIRE((magdyn_obb_check(&bad)) == (MAGDYN_EINVAL));
    REQUIRE((magdyn_obb_sat(&good, &bad, NULL)) == (0));
    bad.half.z = NAN;
    REQUIRE((magdyn_obb_check(&bad)) == (MAGDYN_ENONFINITE));
    REQUIRE((magdyn_obb_sat(&good, &bad, &s)) == (0));
    /* the overlap-only path (out = NULL) decides the axes before it looks
     * at validity: every bad box overlapping a good one still gives 0, in
     * either order, and so does the manifold */
    {
        magdyn_obb bads[10];
        int k, nb = 0;
        magdyn_manifold m;
        bads[nb] = good; bads[nb++].center.y = NAN;
        bads[nb] = good; bads[nb++].center.x = INFINITY;
        bads[nb] = good; bads[nb++].orientation = magdyn_q(1.1, 0, 0, 0);
        bads[nb] = good; bads[nb++].orientation = magdyn_q(0, 0, 0, 0);
        bads[nb] = good; bads[nb++].orientation = magdyn_q(NAN, 0, 0, 0);
        bads[nb] = good; bads[nb++].half.z = -1;
        bads[nb] = good; bads[nb++].half.z = 0;
        bads[nb] = good; bads[nb++].half.z = NAN;
        bads[nb] = good; bads[nb++].half.x = INFINITY;
        bads[nb] = good; bads[nb++].orientation = magdyn_q(0.6, 0.8, 0.1, 0);
        for (k = 0; k < nb; k++) {
            REQUIRE_MSG(magdyn_obb_check(&bads[k]) != MAGDYN_OK, "bad box %d", k);
            REQUIRE_MSG(magdyn_obb_sat(&good, &bads[k], NULL) == 0, "bad box %d, flag", k);
            REQUIRE_MSG(magdyn_obb_sat(&bads[k], &good, NULL) == 0, "bad box %d, flag swapped", k);
            REQUIRE_MSG(magdyn_obb_manifold(&good, &bads[k], 0.0, &m) == 0 && m.count == 0, "bad box %d, manifold", k);
            REQUIRE_MSG(magdyn_obb_manifold(&bads[k], &good, 0.1, &m) == 0 && m.count == 0,
                        "bad box %d, manifold swapped", k);
        }
    }
    /* checked variant and aabb leave outputs untouched on failure */
    s.separation = 42;
    REQUIRE((magdyn_obb_sat_checked(&good, &bad, &s)) == (MAGDYN_ENONFINITE));
    ck_assert_double_eq(s.separation, 42);
    REQUIRE((magdyn_obb_sat_checked(&good, &good, NULL)) == (MAGDYN_EINVAL));
    REQUIRE((magdyn_obb_sat_checked(&good, &good, &s)) == (MAGDYN_OK));
    ck_assert_double_eq_tol(s.separation, -2.0, 1e-15);
    REQUIRE((magdyn_obb_aabb(&bad, &lo, &hi)) == (MAGDYN_ENONFINITE));
    ck_assert_double_eq(lo.x, 7);
    REQUIRE((magdyn_obb_aabb(&good, NULL, &hi)) == (MAGDYN_EINVAL));
}
END_TEST

START_TEST(broadphase_bad_input)
{
    magdyn_obb b[3];
    int p[6], np = 99;
    b[0] = box(0, 0, 0, magdyn_quat_identity(), 1, 1, 1);
    b[1] = box(0.5, 0, 0, magdyn_quat_identity(), 1, 1, 1);
    b[2] = box(9, 0, 0, magdyn_quat_identity(), 1, 1, 1);
    REQUIRE((magdyn_broadphase_pairs(3, b, 0.0, p, 3, NULL)) == (MAGDYN_EINVAL));
    REQUIRE((magdyn_broadphase_pairs(-1, b, 0.0, p, 3, &np)) == (MAGDYN_EINVAL));
    REQUIRE((magdyn_broadphase_pairs(3, NULL, 0.0, p, 3, &np)) == (MAGDYN_EINVAL));
    REQUIRE((magdyn_broadphase_pairs(3, b, -1.0, p, 3, &np)) == (MAGDYN_EINVAL));
    REQUIRE((magdyn_broadphase_pairs(3, b, NAN, p, 3, &np)) == (MAGDYN_ENONFINITE));
    REQUIRE((magdyn_broadphase_pairs(3, b, 0.0, NULL, 3, &np)) == (MAGDYN_EINVAL));
    REQUIRE((magdyn_broadphase_pairs(3, b, 0.0, p, -1, &np)) == (MAGDYN_EINVAL));
    b[2].half.y = -1;
    REQUIRE((magdyn_broadphase_pairs(3, b, 0.0, p, 3, &np)) == (MAGDYN_EINVAL));
    b[2].half.y = 1;
    b[2].orientation.w = 2;
    REQUIRE((magdyn_broadphase_pairs(3, b, 0.0, p, 3, &np)) == (MAGDYN_ENORM));
    REQUIRE((np) == (99));
    b[2].orientation.w = 1;
    REQUIRE((magdyn_broadphase_pairs(3, b, 0.0, p, 3, &np)) == (MAGDYN_OK));
    REQUIRE((np) == (1));
    REQUIRE(p[0] == 0 && p[1] == 1);
    REQUIRE((magdyn_broadphase_pairs(3, b, 7.0, p, 3, &np)) == (MAGDYN_OK));
    REQUIRE((np) == (3));
    REQUIRE((magdyn_broadphase_pairs(0, NULL, 0.0, NULL, 0, &np)) == (MAGDYN_OK));
    REQUIRE((np) == (0));
}
END_TEST

/*
 * Boxes at the edge of the range (sat.h: a reach |c| + h of at most
 * MAGDYN_OBB_RANGE): two boxes at opposite ends of it give a finite,
 * exact separation; one just beyond is refused by every path alike.  The
 * pair's algebra adds the centres' difference, both radii and a tie
 * tolerance, so a rule on each box's own sum alone let it overflow to
 * inf - inf = NaN (fuzz_collide found such a pair: centre 1.7e308 m).
 */
START_TEST(range_edge)
{
    const double R = MAGDYN_OBB_RANGE, h = 1e300;
    magdyn_quat id = magdyn_quat_identity();
    magdyn_quat turned = magdyn_quat_from_axis_angle(magdyn_v3(0.6, 0.0, 0.8), 0.7);
    magdyn_obb edge[2], beyond, both[4];
    magdyn_sat_result s;
    magdyn_manifold m;
    int pairs[8] = {0, 1, 1, 0, 2, 3, 3, 2}, ov[4], k;
    edge[0] = box(R - h, 0, 0, id, h / 2, h / 4, h / 4);
    edge[1] = box(-(R - h), 0, 0, turned, h / 4, h / 4, h / 4);
    REQUIRE(magdyn_obb_check(&edge[0]) == MAGDYN_OK && magdyn_obb_check(&edge[1]) == MAGDYN_OK);
    REQUIRE(magdyn_obb_sat(&edge[0], &edge[1], &s) == 0);
    REQUIRE_MSG(isfinite(s.separation) && s.separation > 1.9 * (R - h) - 2 * h, "separation %g", s.separation);
    REQUIRE(isfinite(s.normal.x) && s.axis >= 0);
    REQUIRE(magdyn_obb_sat(&edge[0], &edge[1], NULL) == 0);
    REQUIRE(magdyn_obb_manifold(&edge[0], &edge[1], 0.0, &m) == 0 && m.count == 0);
    /* one box just beyond: its reach is R (1 + 2^-40) */
    beyond = edge[0];
    beyond.center.x = R * (1.0 + ldexp(1.0, -40)) - 1.75 * h / 2;
    beyond.center.y = h / 8;
    REQUIRE(magdyn_obb_check(&beyond) == MAGDYN_ERANGE);
    s.separation = 42;
    REQUIRE(magdyn_obb_sat_checked(&beyond, &edge[1], &s) == MAGDYN_ERANGE && s.separation == 42);
    REQUIRE(magdyn_obb_sat(&beyond, &edge[1], &s) == 0 && isnan(s.separation) && s.axis == -1);
    REQUIRE(magdyn_obb_sat(&edge[1], &beyond, &s) == 0 && isnan(s.separation));
    REQUIRE(magdyn_obb_manifold(&beyond, &edge[1], 0.0, &m) == 0 && m.count == 0);
    /* the batch marks the bad box -1 in every lane it appears in */
    both[0] = edge[0]; both[1] = edge[1]; both[2] = beyond; both[3] = edge[1];
    REQUIRE(magdyn_obb_overlap_pairs(4, both, 4, pairs, ov) == MAGDYN_OK);
    REQUIRE(ov[0] == 0 && ov[1] == 0);
    for (k = 2; k < 4; k++) REQUIRE_MSG(ov[k] == -1, "pair %d: %d", k, ov[k]);
    /* the sign does not matter: a centre at -R beyond is refused too */
    beyond.center.x = -beyond.center.x;
    REQUIRE(magdyn_obb_check(&beyond) == MAGDYN_ERANGE);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sat_input");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, broadphase_bad_input);
    tcase_add_test(tc, range_edge);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}

