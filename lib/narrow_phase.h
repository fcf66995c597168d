/*
 * narrow_phase.h - private to libmagdyn (layer 2): the first cut of a
 * stepper's narrow phase.  Of the candidate pairs of a step (a broad
 * phase's: boxes whose bounding boxes come near), it keeps those whose
 * boxes may be within reach, testing all of them in one batch of
 * separating-axis tests (magdyn_obb_overlap_pairs, several pairs at a time
 * across vector lanes), so that the exact per-pair tests and contacts run
 * only on the pairs that can touch.
 */
#ifndef MAGDYN_NARROW_PHASE_H
#define MAGDYN_NARROW_PHASE_H

#include <magdyn/sat.h>

/*
 * Removes from pairs[0 .. 2 *npairs - 1] (pairs of indices into boxes[0 ..
 * nboxes - 1]) the pairs whose boxes are apart by more than reach >= 0 [m]
 * (the separation magdyn_obb_sat gives, with a spare for rounding), keeping
 * the order of the others, and sets *npairs to their number.  A pair it
 * keeps may still be apart by up to sqrt(3) reach; a pair with a box the
 * batch rejects is kept, for the exact test to judge.  grown (nboxes boxes)
 * and flag (*npairs ints) are the caller's scratch.  MAGDYN_EINVAL for a bad
 * index, with pairs untouched; a reach that is not finite cuts nothing.
 */
magdyn_status narrow_within(int nboxes, const magdyn_obb *boxes, double reach, int *pairs, int *npairs,
                            magdyn_obb *grown, int *flag);

#endif
