/*
 * contact_impl.h - private to libmagdyn: the parts of magdyn_obb_manifold
 * (contact.c) that the batched tests of sat_batch.c share.
 */
#ifndef MAGDYN_CONTACT_IMPL_H
#define MAGDYN_CONTACT_IMPL_H

#include <magdyn/contact.h>
#include "obb_core.h"

/* The manifold of no contact, and of bad input. */
static inline void manifold_none(magdyn_manifold *out)
{
    out->count = 0;
    out->kind = MAGDYN_CONTACT_FACE_FACE;
    out->normal = magdyn_v3(0.0, 0.0, 0.0);
}

/*
 * What magdyn_obb_manifold(a, b, margin, out) gives, for a pair past its
 * separating-axis test: both boxes valid, margin finite and >= 0, bounding
 * spheres and every axis within margin, P = obb_pair_of(a, b) and
 * r = obb_sat_core(P, margin, full = 1) to the last bit.
 */
int obb_manifold_from_sat(const obb_pair *P, const obb_sat *r, const magdyn_obb *a,
                          const magdyn_obb *b, double margin, magdyn_manifold *out);

#endif
