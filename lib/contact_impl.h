/*
 * contact_impl.h - private to libmagdyn: the parts of magdyn_obb_manifold
 * (contact.c) that the batched manifolds (contact_batch*.c) share.
 */
#ifndef MAGDYN_CONTACT_IMPL_H
#define MAGDYN_CONTACT_IMPL_H

#include <magdyn/contact.h>
#include "obb_core.h"

/*
 * Feature ids.  A feature of a box is named by its signs s_q in {-1, 0, 1}
 * along the body axes q (the points of the box at s_q h_q on each axis with
 * s_q != 0: a corner, an edge with one zero, a face with two) as the digits
 * d_q = s_q + 1 of f = d_0 + 3 d_1 + 9 d_2; a contact point's id is
 * (f_a + 1) | (f_b + 1) << 8, the features of a and b that meet there.
 */
#define FEATURE_ID(fa, fb) ((unsigned)((fa) + 1) | (unsigned)((fb) + 1) << 8)

/* 3^q, the weight of digit q */
static const unsigned char POW3[3] = {1, 3, 9};

/* The manifold of no contact, and of bad input; unused ids are 0. */
static inline void manifold_none(magdyn_manifold *out)
{
    int i;
    out->count = 0;
    out->kind = MAGDYN_CONTACT_FACE_FACE;
    out->normal = magdyn_v3(0.0, 0.0, 0.0);
    for (i = 0; i < MAGDYN_MAX_CONTACTS; i++) out->id[i] = 0;
}

/*
 * n points in out, or the bad-input answer when they are not finite: boxes
 * whose sizes or coordinates come near DBL_MAX (~1e308 m) pass validation
 * but overflow inside the clipping (Inf - Inf = NaN points, found by
 * fuzzing); rather than hand out NaN or Inf, such a result is the bad-input
 * result: 0, count 0, FACE_FACE, zero normal.
 */
static inline int manifold_finite(int n, magdyn_manifold *out)
{
    /* (x - x is 0 for finite x, NaN for Inf and NaN: one sum, one branch) */
    double z = (out->normal.x - out->normal.x) + (out->normal.y - out->normal.y) + (out->normal.z - out->normal.z);
    int i;
    for (i = 0; i < n; i++)
        z += (out->point[i].x - out->point[i].x) + (out->point[i].y - out->point[i].y)
             + (out->point[i].z - out->point[i].z) + (out->depth[i] - out->depth[i]);
    if (z == 0.0) return n;
    manifold_none(out);
    return 0;
}

/*
 * What magdyn_obb_manifold(a, b, margin, out) (cap 4) or
 * obb_manifold_all (cap MAGDYN_MAX_CONTACTS) gives, for a pair past its
 * separating-axis test: both boxes valid, margin finite and >= 0, bounding
 * spheres and every axis within margin, P = obb_pair_of(a, b) and
 * r = obb_sat_core(P, margin, full = 1) to the last bit.
 */
int obb_manifold_from_sat(const obb_pair *P, const obb_sat *r, const magdyn_obb *a,
                          const magdyn_obb *b, double margin, int cap, magdyn_manifold *out);

/*
 * magdyn_obb_manifold without its cut to four points: a face contact keeps
 * every clipped vertex within margin (up to MAGDYN_MAX_CONTACTS).
 */
int obb_manifold_all(const magdyn_obb *a, const magdyn_obb *b, double margin, magdyn_manifold *out);

/*
 * The face contact of valid boxes a and b with a given reference face:
 * face k (0-2 of a, 3-5 of b: axis k mod 3) on the + side of its axis
 * (pos) or the - side, clipped as obb_manifold_all clips it; the normal
 * is that face's, from b towards a.  Returns the point count (0 when no
 * point is within margin, or the points are not finite).
 */
int obb_face_manifold(const magdyn_obb *a, const magdyn_obb *b, int k, int pos, double margin,
                      magdyn_manifold *out);

/*
 * magdyn_obb_contacts(a, b, margin, out, max_out) for a, b not NULL,
 * margin finite and >= 0, max_out >= 1, from all, what obb_manifold_all
 * gives for the pair (its count all->count), or NULL to work it out:
 * the batched contact sets (contact_set_batch.c) hand in their batch's,
 * in out[0] (all is read before out is written).
 */
int obb_contacts_of(const magdyn_obb *a, const magdyn_obb *b, double margin, const magdyn_manifold *all,
                    magdyn_manifold *out, int max_out);

/*
 * The manifolds of magdyn_obb_manifold_pairs' pairs (arguments checked,
 * npairs > 0), pair k into man[k stride]: magdyn_obb_manifold's (cap 4)
 * or obb_manifold_all's (cap MAGDYN_MAX_CONTACTS) to the last bit, on
 * the vector paths simd allows (contact_batch.c).  apart, when not NULL,
 * receives apart[k] = 1 for a pair whose separating-axis test finds an
 * axis beyond margin: magdyn_obb_sat's separation exceeds margin (the same
 * axes as obb_sat_core with stop = margin, which stops at the first beyond
 * it); 0 where that is not known (bounding spheres apart, the pairs done
 * one at a time) or not so.
 */
void obb_manifold_batch(const magdyn_obb *boxes, int npairs, const int *pairs, double margin, int cap,
                        magdyn_manifold *man, int stride, unsigned char *apart, magdyn_simd simd);

#endif
