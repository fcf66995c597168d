/*
 * narrow_phase.h - private to libmagdyn: the first cut of a stepper's
 * narrow phase.  Of the candidate pairs of a step (a broad phase's, boxes
 * whose bounding boxes are near), it keeps those whose boxes may be within
 * reach, testing all of them in one batch of separating-axis tests
 * (magdyn_obb_overlap_pairs), so that the exact per-pair tests and
 * contacts run only on the pairs that can touch.
 */
#ifndef MAGDYN_NARROW_PHASE_H
#define MAGDYN_NARROW_PHASE_H

#include <magdyn/sat.h>

/*
 * Removes from pairs[0 .. 2 *npairs - 1] (pairs of indices into boxes[0 ..
 * nboxes - 1]) the pairs whose boxes are apart by more than reach >= 0 [m]
 * (the separation magdyn_obb_sat gives, with a spare reach for rounding),
 * keeping the order of the others, and sets *npairs to their number.  A
 * pair it keeps may still be apart by up to twice reach; a pair with a box
 * the batch rejects is kept, for the exact test to judge.  MAGDYN_ENOMEM,
 * and MAGDYN_EINVAL for a bad index, with pairs untouched.
 */
magdyn_status narrow_within(int nboxes, const magdyn_obb *boxes, double reach, int *pairs, int *npairs);

#endif
