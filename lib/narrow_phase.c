/*
 * narrow_phase.c - the pairs of a step that may be within reach, in one
 * batch (narrow_phase.h).
 *
 * The batched overlap test has no margin, so it runs on the boxes grown by
 * reach on every half extent.  On any axis L the grown box reaches further
 * by reach times the 1-norm of L in its frame, at least reach |L|, so two
 * grown boxes that a separating axis keeps apart are apart by more than 2
 * reach on it before growing: such a pair is beyond reach, and the exact
 * test would drop it too.  The spare reach, and a relative 1e-9 of each
 * box's size and distance from the origin, cover the rounding of both
 * tests, so no pair within reach is lost.
 */
#include <math.h>
#include <stdlib.h>
#include "narrow_phase.h"

magdyn_status narrow_within(int nboxes, const magdyn_obb *boxes, double reach, int *pairs, int *npairs)
{
    magdyn_obb *grown;
    int *flag, i, k, m, np = *npairs;
    magdyn_status s;
    if (np <= 0 || !(reach >= 0.0 && reach < INFINITY)) return MAGDYN_OK;   /* nothing to cut */
    grown = malloc((size_t)nboxes * sizeof *grown);
    flag = malloc((size_t)np * sizeof *flag);
    if (!grown || !flag) {
        free(grown);
        free(flag);
        return MAGDYN_ENOMEM;
    }
    for (i = 0; i < nboxes; i++) {
        const magdyn_obb *b = &boxes[i];
        double pad = reach + 1e-9 * (fabs(b->center.x) + fabs(b->center.y) + fabs(b->center.z) + b->half.x
                                     + b->half.y + b->half.z);
        grown[i] = *b;
        grown[i].half = magdyn_v3(b->half.x + pad, b->half.y + pad, b->half.z + pad);
    }
    s = magdyn_obb_overlap_pairs(nboxes, grown, np, pairs, flag);
    if (s == MAGDYN_OK) {
        /* (flag -1, a box the batch rejects: kept) */
        for (k = 0, m = 0; k < np; k++) {
            int a = pairs[2 * k], b = pairs[2 * k + 1];
            pairs[2 * m] = a;
            pairs[2 * m + 1] = b;
            m += flag[k] != 0;
        }
        *npairs = m;
    }
    free(grown);
    free(flag);
    return s;
}
