/*
 * test_sat_flag.c - the overlap-only answer (magdyn_obb_sat with out =
 * NULL) where rounding decides it: pairs slid into contact along the full
 * test's normal and nudged by a few rounding units of the size either way,
 * b turned from a by angles 0 .. 1e-3 (through the edge-axis hand-over
 * band, and the |c_ij| near 1 where the vector path of sat.c hands over to
 * the scalar one), sizes 1e-150 .. 1e150 m.  The flag must equal the full
 * test's (separation <= 0) and the batch's, whose vector lanes evaluate
 * the scalar core's expressions independently of the single test.
 * flag_validity: overlapping pairs at the edges of validity (half extents
 * 0, -0, subnormal, NaN, infinite; |q|^2 - 1 a few rounding units either
 * side of 2e-9; |centre| + half extents rounding units either side of
 * MAGDYN_OBB_RANGE), where the flag must be the full test's answer and 0
 * for what magdyn_obb_check rejects.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <float.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"
#include "test_sat_oracle.h"

START_TEST(flag_at_contact)
{
    test_rng r = {0xF1A6ULL};
    long ntrial = test_count(20000), trial, n = 0, i, touching = 0, overlaps = 0;
    const int nudges = 9;
    magdyn_obb *boxes = malloc(2 * (size_t)ntrial * nudges * sizeof *boxes);
    int *pairs = malloc(2 * (size_t)ntrial * nudges * sizeof *pairs);
    int *flag = malloc((size_t)ntrial * nudges * sizeof *flag), *ov = malloc((size_t)ntrial * nudges * sizeof *ov);
    int simd;
    REQUIRE(boxes && pairs && flag && ov);
    for (trial = 0; trial < ntrial; trial++) {
        magdyn_obb a = oracle_rng_box(&r, trial), b = oracle_rng_box(&r, trial);
        magdyn_sat_result s;
        double sc, size = pow(10.0, test_rng_range(&r, -150.0, 150.0)), ang;
        int it, k;
        switch (trial % 4) {
        case 0: break;                                         /* as drawn */
        case 1: case 2:                                        /* turned slightly from a */
            ang = trial % 8 == 1 ? 0.0 : pow(10.0, test_rng_range(&r, -12.0, -3.0));
            b.orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(test_rng_vec3(&r, -1, 1), ang),
                                            a.orientation);
            if (trial % 4 == 2)                                /* and a quarter turn about a's z */
                b.orientation = magdyn_quat_mul(b.orientation, magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1),
                                                                                           0.5 * MAGDYN_PI));
            magdyn_quat_normalize(b.orientation, &b.orientation);
            break;
        default:                                               /* the same orientation */
            b.orientation = a.orientation;
            break;
        }
        a.center = magdyn_vec3_scale(a.center, size); a.half = magdyn_vec3_scale(a.half, size);
        b.center = magdyn_vec3_scale(b.center, size); b.half = magdyn_vec3_scale(b.half, size);
        sc = a.half.x + a.half.y + a.half.z + b.half.x + b.half.y + b.half.z;
        for (it = 0; it < 60; it++) {
            magdyn_obb_sat(&a, &b, &s);
            if (fabs(s.separation) < 1e-15 * sc) break;
            a.center = magdyn_vec3_madd(a.center, -s.separation, s.normal);
        }
        touching += it < 60;
        for (k = 0; k < nudges; k++) {
            magdyn_obb a2 = a;
            int f;
            a2.center = magdyn_vec3_madd(a.center, (k - nudges / 2) * 2e-16 * sc, s.normal);
            f = magdyn_obb_sat(&a2, &b, NULL);
            REQUIRE_MSG(f == magdyn_obb_sat(&a2, &b, &s), "trial %ld nudge %d: flag %d, separation %g", trial, k,
                        f, s.separation);
            REQUIRE(magdyn_obb_sat(&b, &a2, NULL) == magdyn_obb_sat(&b, &a2, &s));
            boxes[2 * n] = a2;
            boxes[2 * n + 1] = b;
            pairs[2 * n] = (int)(2 * n);
            pairs[2 * n + 1] = (int)(2 * n + 1);
            flag[n++] = f;
            overlaps += f;
        }
    }
    REQUIRE(touching > ntrial * 9 / 10);
    REQUIRE(overlaps > n / 4 && overlaps < n * 3 / 4);
    for (simd = MAGDYN_SIMD_AUTO; simd <= MAGDYN_SIMD_AVX2; simd++) {
        REQUIRE(magdyn_obb_overlap_pairs_simd((int)(2 * n), boxes, (int)n, pairs, ov, (magdyn_simd)simd)
                == MAGDYN_OK);
        for (i = 0; i < n; i++)
            REQUIRE_MSG(ov[i] == flag[i], "simd %d pair %ld: batch %d, single %d", simd, i, ov[i], flag[i]);
    }
    printf("flag at contact: %ld pairs, %ld overlapping\n", n, overlaps);
    free(boxes);
    free(pairs);
    free(flag);
    free(ov);
}
END_TEST

/* the flag of (a, b) and (b, a) against the full test and magdyn_obb_check */
static void check_valid_pair(const magdyn_obb *a, const magdyn_obb *b, long *nvalid, long *ninvalid)
{
    magdyn_sat_result s;
    int valid = magdyn_obb_check(a) == MAGDYN_OK && magdyn_obb_check(b) == MAGDYN_OK;
    int full = magdyn_obb_sat(a, b, &s), f = magdyn_obb_sat(a, b, NULL);
    REQUIRE_MSG(f == full, "flag %d, full %d (valid %d)", f, full, valid);
    REQUIRE(magdyn_obb_sat(b, a, NULL) == magdyn_obb_sat(b, a, &s));
    REQUIRE(valid || f == 0);
    REQUIRE(!valid || f == 1);              /* the pairs overlap */
    *nvalid += valid;
    *ninvalid += !valid;
}

START_TEST(flag_validity)
{
    test_rng r = {0x7A11DULL};
    const double halves[] = {0.0, -0.0, DBL_TRUE_MIN, -DBL_TRUE_MIN, DBL_MIN, 1e-300, NAN, INFINITY, -1.0};
    long ntrial = test_count(2000), trial, nvalid = 0, ninvalid = 0;
    for (trial = 0; trial < ntrial; trial++) {
        magdyn_obb a, b;
        double f, sx, sy, sz, h, hs;
        int k, c;
        a.center = test_rng_vec3(&r, -1.0, 1.0);
        a.orientation = test_rng_quat(&r);
        a.half = test_rng_vec3(&r, 0.1, 1.0);
        b = a;
        b.orientation = test_rng_quat(&r);
        b.center = magdyn_vec3_madd(a.center, 0.05, test_rng_vec3(&r, -1.0, 1.0));
        /* a half extent of a or b at the edge */
        for (k = 0; k < (int)(sizeof halves / sizeof halves[0]); k++)
            for (c = 0; c < 6; c++) {
                magdyn_obb a2 = a, b2 = b;
                double *hp = c < 3 ? &a2.half.x : &b2.half.x;
                hp[c % 3] = halves[k];
                check_valid_pair(&a2, &b2, &nvalid, &ninvalid);
            }
        /* |q|^2 - 1 near +-2e-9: q scaled, then w nudged by rounding units */
        f = sqrt(1.0 + (trial & 1 ? 2e-9 : -2e-9));
        for (k = -24; k <= 24; k++) {
            magdyn_obb a2 = a, b2 = b;
            magdyn_quat *q = trial & 2 ? &a2.orientation : &b2.orientation;
            q->w *= f; q->x *= f; q->y *= f; q->z *= f;
            q->w += k * DBL_EPSILON * fabs(q->w);
            check_valid_pair(&a2, &b2, &nvalid, &ninvalid);
        }
        /* |c_x| + |c_y| + |c_z| + h_x + h_y + h_z near MAGDYN_OBB_RANGE, signs
         * and shares random, b at the same place */
        sx = test_rng_range(&r, 0.0, 1.0); sy = test_rng_range(&r, 0.0, 1.0 - sx); sz = 1.0 - sx - sy;
        hs = trial % 3 == 0 ? 1.0 : trial % 3 == 1 ? MAGDYN_OBB_RANGE * 1e-6 : MAGDYN_OBB_RANGE * 0.3;
        for (k = -12; k <= 12; k++) {
            magdyn_obb a2 = a, b2;
            double g = 1.0 + k * DBL_EPSILON;
            a2.half = magdyn_vec3_scale(a.half, hs);
            a2.center = magdyn_v3(MAGDYN_OBB_RANGE * sx * g, MAGDYN_OBB_RANGE * sy, MAGDYN_OBB_RANGE * sz);
            h = a2.half.x + a2.half.y + a2.half.z;
            a2.center.x -= h * sx; a2.center.y -= h * sy; a2.center.z -= h * sz;
            if (test_rng_uniform(&r) < 0.5) a2.center.x = -a2.center.x;
            if (test_rng_uniform(&r) < 0.5) a2.center.y = -a2.center.y;
            if (test_rng_uniform(&r) < 0.5) a2.center.z = -a2.center.z;
            b2 = a2;
            b2.orientation = b.orientation;
            b2.half = magdyn_vec3_scale(a2.half, 0.5);
            check_valid_pair(&a2, &b2, &nvalid, &ninvalid);
            check_valid_pair(&b2, &a2, &nvalid, &ninvalid);
        }
    }
    REQUIRE(nvalid > ntrial * 20 && ninvalid > ntrial * 20);
    printf("flag validity: %ld valid, %ld invalid pairs\n", nvalid, ninvalid);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sat_flag");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, flag_at_contact);
    tcase_add_test(tc, flag_validity);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
