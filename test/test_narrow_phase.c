/*
 * test_narrow_phase.c - the stepper's narrow-phase cut (lib/narrow_phase.c,
 * compiled into this test: its function is private to the library).
 * Reference: magdyn_obb_sat's separation, pair by pair.  No pair within
 * reach may be cut (the world's contacts would change); a pair cut is
 * apart by more than reach; a pair kept is within sqrt(3) reach plus the
 * relative pads of its boxes (each box grows by half the reach plus its
 * pad and so reaches at most sqrt(3) times that further along a unit axis,
 * by the 1-norm bound |L|_1 <= sqrt(3) |L|).
 */
#include <check.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"
#include "../lib/narrow_phase.h"

#define N 60
#define NP (N * (N - 1) / 2)

static double separation(const magdyn_obb *a, const magdyn_obb *b)
{
    magdyn_sat_result r;
    magdyn_obb_sat(a, b, &r);
    return r.separation;
}

/* the pad narrow_phase.c gives a box beyond reach (relative, for rounding) */
static double rel_pad(const magdyn_obb *b)
{
    return 1e-9 * (fabs(b->center.x) + fabs(b->center.y) + fabs(b->center.z) + b->half.x + b->half.y + b->half.z);
}

/* all pairs i < j, in order */
static int all_pairs(int *pairs)
{
    int i, j, k = 0;
    for (i = 0; i < N; i++)
        for (j = i + 1; j < N; j++) {
            pairs[2 * k] = i;
            pairs[2 * k + 1] = j;
            k++;
        }
    return k;
}

/* Checks the cut of all pairs of boxes at reach against magdyn_obb_sat;
 * returns the number of pairs cut. */
static int check_cut(const magdyn_obb *boxes, double reach)
{
    static int pairs[2 * NP], all[2 * NP], flag[NP];
    magdyn_obb grown[N];
    int np = all_pairs(pairs), k, m = 0, bad_lost = 0, bad_kept = 0, bad_order = 0;
    memcpy(all, pairs, sizeof all);
    ck_assert_int_eq(narrow_within(N, boxes, reach, pairs, &np, grown, flag), MAGDYN_OK);
    ck_assert_int_le(np, NP);
    /* the kept pairs are a subsequence of all pairs */
    for (k = 0; k < NP; k++) {
        const magdyn_obb *a = &boxes[all[2 * k]], *b = &boxes[all[2 * k + 1]];
        double sep = separation(a, b);
        int kept = m < np && pairs[2 * m] == all[2 * k] && pairs[2 * m + 1] == all[2 * k + 1];
        if (kept) {
            m++;
            bad_kept += sep > sqrt(3.0) * (reach + rel_pad(a) + rel_pad(b)) + 1e-12;
        } else {
            bad_lost += sep <= reach;
        }
    }
    bad_order = m != np;
    ck_assert_msg(!bad_order, "kept pairs out of order or invented: matched %d of %d", m, np);
    ck_assert_msg(!bad_lost, "%d pairs within reach %g cut", bad_lost, reach);
    ck_assert_msg(!bad_kept, "%d pairs kept beyond sqrt(3) reach %g", bad_kept, reach);
    return NP - np;
}

START_TEST(random_boxes_keep_every_pair_within_reach)
{
    static const double reaches[] = {0.0, 1e-6, 1e-3, 0.05, 0.3};
    magdyn_obb boxes[N];
    test_rng r = {0x5eed1234ULL};
    int t, i, q, cut_total = 0;
    for (t = 0; t < 20; t++) {
        for (i = 0; i < N; i++) {
            boxes[i].center = test_rng_vec3(&r, -2.0, 2.0);
            boxes[i].orientation = test_rng_quat(&r);
            boxes[i].half = test_rng_vec3(&r, 0.1, 1.0);
        }
        for (q = 0; q < 5; q++) cut_total += check_cut(boxes, reaches[q]);
    }
    /* (a filter that cuts nothing would pass the rest) */
    ck_assert_int_gt(cut_total, 0);
}
END_TEST

START_TEST(boxes_at_exactly_reach_are_kept)
{
    /* pairs of boxes a gap of exactly reach apart along a face normal of
     * the first, face to face (the second box a copy turned by a multiple
     * of 90 degrees about that normal), rotated and moved together: the
     * separation is reach to rounding, and none may be cut */
    magdyn_obb boxes[N];
    test_rng r = {0xabcdefULL};
    int t, i;
    for (t = 0; t < 20; t++) {
        const double reach = t % 2 ? 1e-3 : 0.02;
        for (i = 0; i < N; i += 2) {
            magdyn_quat q = test_rng_quat(&r);
            magdyn_vec3 h = test_rng_vec3(&r, 0.05, 0.5), c = test_rng_vec3(&r, -100.0, 100.0);
            magdyn_vec3 n = magdyn_quat_rotate(q, magdyn_v3(1.0, 0.0, 0.0));
            boxes[i].center = c;
            boxes[i].orientation = q;
            boxes[i].half = h;
            boxes[i + 1] = boxes[i];
            boxes[i + 1].center = magdyn_vec3_add(c, magdyn_vec3_scale(n, 2.0 * h.x + reach));
        }
        for (i = 0; i < N; i += 2) ck_assert(separation(&boxes[i], &boxes[i + 1]) <= reach * (1.0 + 1e-6));
        check_cut(boxes, reach);
        check_cut(boxes, reach * (1.0 + 1e-6));
    }
}
END_TEST

START_TEST(bad_index_leaves_pairs_untouched)
{
    magdyn_obb boxes[2], grown[2];
    int pairs[4] = {0, 1, 1, 2}, np = 2, i, flag[2];
    for (i = 0; i < 2; i++) {
        boxes[i].center = magdyn_v3(i, 0.0, 0.0);
        boxes[i].orientation = magdyn_q(1.0, 0.0, 0.0, 0.0);
        boxes[i].half = magdyn_v3(0.5, 0.5, 0.5);
    }
    ck_assert_int_eq(narrow_within(2, boxes, 0.1, pairs, &np, grown, flag), MAGDYN_EINVAL);
    ck_assert_int_eq(np, 2);
    ck_assert(pairs[0] == 0 && pairs[1] == 1 && pairs[2] == 1 && pairs[3] == 2);
    /* no pairs: nothing to do */
    np = 0;
    ck_assert_int_eq(narrow_within(2, boxes, 0.1, pairs, &np, grown, flag), MAGDYN_OK);
    ck_assert_int_eq(np, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("narrow_phase");
    TCase *tc = tcase_create("cut");
    tcase_add_test(tc, random_boxes_keep_every_pair_within_reach);
    tcase_add_test(tc, boxes_at_exactly_reach_are_kept);
    tcase_add_test(tc, bad_index_leaves_pairs_untouched);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
