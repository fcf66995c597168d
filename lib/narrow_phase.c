/*
 * narrow_phase.c - the pairs of a step that may be within reach, in one
 * batch (narrow_phase.h).
 *
 * The batched overlap test has no margin, so it runs on the boxes grown by
 * half the reach on every half extent.  Along any axis L a grown box
 * reaches further by the growth times the 1-norm of L in its frame, at
 * least the growth times |L|, so two grown boxes that an axis keeps apart
 * are apart by more than twice the growth, the reach, along it before
 * growing: the exact test would drop the pair too.  A relative 1e-9 of
 * each box's size and distance from the origin covers the rounding of
 * both tests, so no pair within reach is lost.  Growing each box by
 * sqrt(3) times less would miss pairs whose separating axis is diagonal
 * to both boxes; growing by half the reach keeps pairs up to sqrt(3)
 * reach apart, for the exact test to drop.
 */
#include <math.h>
#include "narrow_phase.h"

magdyn_status narrow_within(int nboxes, const magdyn_obb *boxes, double reach, int *pairs, int *npairs,
                            magdyn_obb *grown, int *flag)
{
    int i, k, m, np = *npairs;
    magdyn_status s;
    if (np <= 0 || !(reach >= 0.0 && reach < INFINITY)) return MAGDYN_OK;   /* nothing to cut */
    for (i = 0; i < nboxes; i++) {
        const magdyn_obb *b = &boxes[i];
        double pad = 0.5 * reach
                   + 1e-9 * (fabs(b->center.x) + fabs(b->center.y) + fabs(b->center.z) + b->half.x + b->half.y
                             + b->half.z);
        grown[i] = *b;
        grown[i].half = magdyn_v3(b->half.x + pad, b->half.y + pad, b->half.z + pad);
    }
    s = magdyn_obb_overlap_pairs(nboxes, grown, np, pairs, flag);
    if (s != MAGDYN_OK) return s;
    /* (flag -1, a box the batch rejects: kept) */
    for (k = 0, m = 0; k < np; k++) {
        int a = pairs[2 * k], b = pairs[2 * k + 1];
        pairs[2 * m] = a;
        pairs[2 * m + 1] = b;
        m += flag[k] != 0;
    }
    *npairs = m;
    return MAGDYN_OK;
}
