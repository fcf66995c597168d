/*
 * contact_set_batch.c - magdyn_obb_contacts_pairs: the contact sets of many
 * pairs, as magdyn_obb_contacts gives them one pair at a time, to the last
 * bit.  The primary manifold of every pair (obb_manifold_all's, every
 * clipped vertex kept) comes from the manifold batch (contact_batch.c),
 * four pairs across the vector lanes; each pair then takes the one tail of
 * magdyn_obb_contacts (obb_contacts_of, contact_set.c) from that primary
 * on: a face contact passes straight through, an edge-edge one or none
 * within margin gets its repairs there, one pair at a time, as they are
 * few and branchy.
 */
#include <math.h>
#include <string.h>
#include <magdyn/contact.h>
#include "contact_impl.h"
#include "sat_batch_impl.h"

/* pairs a pass of the batch takes: the flags of its separating-axis
 * tests fit on the stack */
#define PASS_PAIRS 256

magdyn_status magdyn_obb_contacts_pairs_simd(int nboxes, const magdyn_obb *boxes, int npairs, const int *pairs,
                                             double margin, magdyn_manifold *out, int max_out_per_pair,
                                             int *counts, magdyn_simd simd)
{
    unsigned char apart[PASS_PAIRS];
    magdyn_status st;
    int k0, k;
    if (!sat_batch_simd_ok(simd)) return MAGDYN_EINVAL;
    if (isnan(margin) || isinf(margin)) return MAGDYN_ENONFINITE;
    if (margin < 0.0 || max_out_per_pair < 1) return MAGDYN_EINVAL;
    st = sat_batch_check_pairs(nboxes, boxes, npairs, pairs, out);
    if (st != MAGDYN_OK || npairs == 0) return st;
    if (!counts) return MAGDYN_EINVAL;
    for (k0 = 0; k0 < npairs; k0 += PASS_PAIRS) {
        const int n = npairs - k0 < PASS_PAIRS ? npairs - k0 : PASS_PAIRS;
        magdyn_manifold *o0 = &out[(size_t)k0 * (size_t)max_out_per_pair];
        /* the primaries, each in its pair's first slot */
        obb_manifold_batch(boxes, n, pairs + 2 * k0, margin, MAGDYN_MAX_CONTACTS, o0, max_out_per_pair, apart,
                           simd);
        for (k = 0; k < n; k++) {
            magdyn_manifold *o = &o0[(size_t)k * (size_t)max_out_per_pair];
            int c = 0;
            /* (a pair apart by more than margin on an axis has none, as
             * magdyn_obb_contacts finds when its test stops at that axis) */
            if (!apart[k])
                c = obb_contacts_of(&boxes[pairs[2 * (k0 + k)]], &boxes[pairs[2 * (k0 + k) + 1]], margin, o, o,
                                    max_out_per_pair);
            /* (a pair with none: its first slot says so, every byte defined) */
            if (c == 0) memset(o, 0, sizeof *o);
            counts[k0 + k] = c;
        }
    }
    return MAGDYN_OK;
}

magdyn_status magdyn_obb_contacts_pairs(int nboxes, const magdyn_obb *boxes, int npairs, const int *pairs,
                                        double margin, magdyn_manifold *out, int max_out_per_pair, int *counts)
{
    return magdyn_obb_contacts_pairs_simd(nboxes, boxes, npairs, pairs, margin, out, max_out_per_pair, counts,
                                          MAGDYN_SIMD_AUTO);
}
