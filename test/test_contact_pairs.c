/*
 * test_contact_pairs.c - the batched contact sets (magdyn_obb_contacts_pairs)
 * against magdyn_obb_contacts one pair at a time, byte for byte, on random
 * pairs and on the configurations whose primary manifold the contact set
 * repairs; the statuses of bad arguments.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"
#include "test_sat_oracle.h"

/* Pair i of the contact-set comparison (contacts_pairs_equals_single):
 * random boxes (oracle_rng_box), most slid into near contact, and in turn the
 * configurations that magdyn_obb_contacts repairs: faces tilted a little
 * (1e-4 .. 0.05 rad, the near-face window and beyond), bars stacked
 * crosswise with a tilt (face-like edge normals), ridges nearly parallel
 * (within 15 degrees: segment ends) and crossed, an edge lying across a
 * face; all in a random frame, a few bad boxes. */
static void contact_set_pair(test_rng *r, long i, magdyn_obb *a, magdyn_obb *b)
{
    magdyn_quat q = test_rng_quat(r), qx = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.25 * MAGDYN_PI);
    magdyn_vec3 c = test_rng_vec3(r, -1.0, 1.0), z = magdyn_quat_rotate(q, magdyn_v3(0, 0, 1));
    double gap = test_rng_range(r, -2e-3, 2e-3), tilt = pow(10.0, test_rng_range(r, -4.0, -1.3));
    magdyn_quat turn = magdyn_quat_from_axis_angle(magdyn_quat_rotate(q, test_rng_vec3(r, -1.0, 1.0)), tilt);
    magdyn_sat_result s;
    switch (i % 8) {
    case 1:   /* a face tilted a little on another */
        b->center = c;
        b->orientation = q;
        b->half = magdyn_v3(test_rng_range(r, 0.1, 1.0), test_rng_range(r, 0.1, 1.0), test_rng_range(r, 0.05, 0.5));
        a->half = magdyn_v3(test_rng_range(r, 0.1, 1.0), test_rng_range(r, 0.1, 1.0), test_rng_range(r, 0.05, 0.5));
        a->orientation = magdyn_quat_mul(turn, q);
        a->center = magdyn_vec3_add(magdyn_vec3_madd(c, b->half.z + a->half.z + gap, z),
                                    magdyn_quat_rotate(q, magdyn_v3(test_rng_range(r, -0.5, 0.5),
                                                                    test_rng_range(r, -0.5, 0.5), 0)));
        return;
    case 3:   /* bars stacked crosswise, each turned a little about its length */
        b->center = c;
        b->orientation = magdyn_quat_mul(q, magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 0.3 * tilt));
        b->half = magdyn_v3(0.1, 1.0, 0.1);
        a->orientation = magdyn_quat_mul(q, magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), tilt));
        a->half = magdyn_v3(1.0, 0.1, 0.1);
        a->center = magdyn_vec3_madd(c, 0.2 + gap, z);
        return;
    case 5:   /* ridges (boxes turned 45 degrees about x) nearly parallel, or crossed */
    {
        double ang = i % 16 == 5 ? test_rng_range(r, -0.3, 0.3) : test_rng_range(r, -1.5, 1.5);
        magdyn_quat qb = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), ang), qx);
        b->center = c;
        b->orientation = magdyn_quat_mul(q, qb);
        b->half = magdyn_v3(test_rng_range(r, 0.3, 2.0), 0.5, 0.5);
        a->orientation = magdyn_quat_mul(q, qx);
        a->half = magdyn_v3(test_rng_range(r, 0.3, 2.0), 0.5, 0.5);
        a->center = magdyn_vec3_add(magdyn_vec3_madd(c, sqrt(2.0) + gap, z),
                                    magdyn_quat_rotate(q, magdyn_v3(test_rng_range(r, -1.0, 1.0), 0, 0)));
        return;
    }
    case 7:   /* a's lowest edge lying across b's top face, tilted a little */
        b->center = c;
        b->orientation = q;
        b->half = magdyn_v3(1.0, 1.0, 0.5);
        a->orientation = magdyn_quat_mul(q, magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), tilt),
                                                            qx));
        a->half = magdyn_v3(test_rng_range(r, 0.3, 1.5), 0.3, 0.3);
        a->center = magdyn_vec3_madd(c, 0.5 + 0.3 * sqrt(2.0) + gap, z);
        return;
    default:
        *a = oracle_rng_box(r, i);
        *b = oracle_rng_box(r, i);
        if (i % 4 != 0) {
            magdyn_obb_sat(a, b, &s);
            a->center = magdyn_vec3_madd(a->center, -s.separation + test_rng_range(r, -0.01, 0.01), s.normal);
        }
        if (i % 89 == 6) {
            if ((i / 89) % 2) a->half.x = -1.0;
            else b->orientation.x += 0.1;
        }
    }
}

/* magdyn_obb_contacts_pairs gives what magdyn_obb_contacts gives, byte for
 * byte, on every vector path: random pairs and those that take the
 * repairs (contact_set_pair), margins 0, 1e-3 and 0.1, 1, 2 and
 * MAGDYN_MAX_PAIR_MANIFOLDS manifolds a pair, counts not divisible by 4;
 * the slots a pair leaves are untouched; then the statuses of bad
 * arguments, with out and counts untouched. */
START_TEST(contacts_pairs_equals_single)
{
    test_rng r = {0xC0117AC7ULL};
    long n = test_count(40000) + 3, i;
    const double margins[3] = {0.0, 1e-3, 0.1};
    const int maxes[3] = {MAGDYN_MAX_PAIR_MANIFOLDS, 1, 2};
    const int M = MAGDYN_MAX_PAIR_MANIFOLDS;
    magdyn_obb *boxes = malloc(2 * (size_t)n * sizeof *boxes);
    int *pairs = malloc(2 * (size_t)n * sizeof *pairs), *counts = malloc((size_t)n * sizeof *counts), mi;
    magdyn_manifold *out = malloc((size_t)n * M * sizeof *out), one[MAGDYN_MAX_PAIR_MANIFOLDS], keep;
    long kinds[4] = {0, 0, 0, 0}, extra = 0;
    REQUIRE(boxes && pairs && counts && out);
    for (i = 0; i < n; i++) {
        contact_set_pair(&r, i, &boxes[2 * i], &boxes[2 * i + 1]);
        /* pairs in a scrambled order, some swapped */
        pairs[2 * i] = (int)(2 * ((i * 7919) % n) + (i % 3 == 0));
        pairs[2 * i + 1] = (int)(2 * ((i * 7919) % n) + (i % 3 != 0));
    }
    memset(&keep, 0x5a, sizeof keep);
    for (mi = 0; mi < 9; mi++) {
        magdyn_simd simd = (magdyn_simd)(MAGDYN_SIMD_AUTO + mi / 3);
        double margin = margins[mi % 3];
        int mx = maxes[(mi + mi / 3) % 3], e;
        for (i = 0; i < n * mx; i++) out[i] = keep;
        REQUIRE(magdyn_obb_contacts_pairs_simd((int)(2 * n), boxes, (int)n, pairs, margin, out, mx, counts, simd)
                == MAGDYN_OK);
        for (i = 0; i < n; i++) {
            const magdyn_manifold *o = &out[i * mx];
            int c = magdyn_obb_contacts(&boxes[pairs[2 * i]], &boxes[pairs[2 * i + 1]], margin, one, mx);
            REQUIRE_MSG(counts[i] == c, "simd %d, margin %g, max %d, pair %ld: batch %d manifolds, single %d",
                        (int)simd, margin, mx, i, counts[i], c);
            for (e = 0; e < c; e++)
                REQUIRE_MSG(memcmp(&o[e], &one[e], sizeof one[e]) == 0,
                            "simd %d, margin %g, max %d, pair %ld, manifold %d: kind %d/%d count %d/%d", (int)simd,
                            margin, mx, i, e, o[e].kind, one[e].kind, o[e].count, one[e].count);
            if (c == 0) {
                magdyn_manifold none;
                memset(&none, 0, sizeof none);
                REQUIRE(memcmp(&o[0], &none, sizeof none) == 0);
            }
            for (e = c > 1 ? c : 1; e < mx; e++) REQUIRE(memcmp(&o[e], &keep, sizeof keep) == 0);
            if (c > 0 && mx == M) {
                kinds[one[0].kind]++;
                extra += c - 1;
            }
        }
    }
    /* every kind of primary, and the repairs' extra manifolds, were tested */
    for (i = 0; i < 4; i++) REQUIRE_MSG(kinds[i] > n / 50, "kind %ld: %ld", i, kinds[i]);
    REQUIRE(extra > n / 20);
    /* bad arguments: a status, out and counts untouched */
    out[0] = keep;
    counts[0] = 77;
#define BAD(st, ...)                                                                       \
    do {                                                                                   \
        REQUIRE(__VA_ARGS__ == (st));                                                      \
        REQUIRE(memcmp(&out[0], &keep, sizeof keep) == 0 && counts[0] == 77);              \
    } while (0)
    BAD(MAGDYN_EINVAL, magdyn_obb_contacts_pairs((int)(2 * n), boxes, 1, pairs, -1e-3, out, M, counts));
    BAD(MAGDYN_EINVAL, magdyn_obb_contacts_pairs_simd((int)(2 * n), boxes, 1, pairs, 0.0, out, M, counts,
                                                      (magdyn_simd)-1));
    BAD(MAGDYN_ENONFINITE, magdyn_obb_contacts_pairs((int)(2 * n), boxes, 1, pairs, NAN, out, M, counts));
    BAD(MAGDYN_ENONFINITE, magdyn_obb_contacts_pairs((int)(2 * n), boxes, 1, pairs, -INFINITY, out, M, counts));
    BAD(MAGDYN_EINVAL, magdyn_obb_contacts_pairs((int)(2 * n), boxes, 1, pairs, 0.0, out, 0, counts));
    BAD(MAGDYN_EINVAL, magdyn_obb_contacts_pairs(-1, boxes, 1, pairs, 0.0, out, M, counts));
    BAD(MAGDYN_EINVAL, magdyn_obb_contacts_pairs((int)(2 * n), boxes, -2, pairs, 0.0, out, M, counts));
    BAD(MAGDYN_EINVAL, magdyn_obb_contacts_pairs((int)(2 * n), NULL, 1, pairs, 0.0, out, M, counts));
    BAD(MAGDYN_EINVAL, magdyn_obb_contacts_pairs((int)(2 * n), boxes, 1, NULL, 0.0, out, M, counts));
    BAD(MAGDYN_EINVAL, magdyn_obb_contacts_pairs((int)(2 * n), boxes, 1, pairs, 0.0, NULL, M, counts));
    BAD(MAGDYN_EINVAL, magdyn_obb_contacts_pairs((int)(2 * n), boxes, 1, pairs, 0.0, out, M, NULL));
    pairs[1] = (int)(2 * n);
    BAD(MAGDYN_EINVAL, magdyn_obb_contacts_pairs((int)(2 * n), boxes, 1, pairs, 0.0, out, M, counts));
    pairs[1] = -1;
    BAD(MAGDYN_EINVAL, magdyn_obb_contacts_pairs((int)(2 * n), boxes, 1, pairs, 0.0, out, M, counts));
#undef BAD
    REQUIRE(magdyn_obb_contacts_pairs(0, NULL, 0, NULL, 0.0, NULL, M, NULL) == MAGDYN_OK);
    free(boxes);
    free(pairs);
    free(counts);
    free(out);
}
END_TEST


int main(void)
{
    Suite *s = suite_create("contact_pairs");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, contacts_pairs_equals_single);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
