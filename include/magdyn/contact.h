/*
 * magdyn/contact.h - layer 2: contact manifold of two oriented boxes.
 *
 * The manifold is what an impulse solver consumes: up to 4 points in the
 * inertial frame, each with its depth along one normal.  It is built from
 * the separating-axis test (magdyn_obb_sat):
 *  - best axis a face of a (b): that face is the reference face, the face of
 *    the other box most anti-parallel to it the incident face; the incident
 *    quadrilateral is clipped against the reference face's four side planes
 *    (Sutherland-Hodgman); its vertices at most margin above the reference
 *    plane are kept with depth = distance below that plane; more than 4 are
 *    cut to the 4 that include the deepest and span the largest area.  3-4
 *    points: MAGDYN_CONTACT_FACE_FACE (a magnet lying flat on another gets
 *    the 4 corners of the overlap rectangle); 1-2 points: FACE_EDGE (face of
 *    a) or EDGE_FACE (face of b), an edge or corner on a face.
 *  - best axis an edge pair: the closest points of the two supporting edges
 *    (the 2x2 normal equations, clamped to the edges), one point,
 *    MAGDYN_CONTACT_EDGE_EDGE, depth = minus the separation along the axis.
 * Each point lies halfway between the two surfaces along the normal, so it
 * is within depth/2 of both (face contacts, and edge contacts of
 * overlapping boxes).  The normal is the SAT normal, unit, from b towards a;
 * except when the SAT picks an edge pair of overlapping boxes whose closest
 * points fall outside the edges (a degenerate sliver axis of nearly parallel
 * edges), where the best face axis is used instead.
 */
#ifndef MAGDYN_CONTACT_H
#define MAGDYN_CONTACT_H

#include <magdyn/sat.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    MAGDYN_CONTACT_FACE_FACE,
    MAGDYN_CONTACT_FACE_EDGE,  /* face of a */
    MAGDYN_CONTACT_EDGE_FACE,  /* face of b */
    MAGDYN_CONTACT_EDGE_EDGE
} magdyn_contact_kind;

#define MAGDYN_MAX_CONTACTS 8

typedef struct {
    magdyn_contact_kind kind;
    magdyn_vec3 normal;                       /* unit, from b towards a */
    int count;
    magdyn_vec3 point[MAGDYN_MAX_CONTACTS];   /* inertial frame */
    double depth[MAGDYN_MAX_CONTACTS];        /* > 0 penetration, < 0 gap */
} magdyn_manifold;

/*
 * Contact manifold of boxes a and b for a margin >= 0 [m]: returns the
 * number of points (0-4, out->count).  0 when the SAT separation exceeds
 * margin; also 0 (out->count = 0) for boxes apart by less than margin whose
 * best axis is a face that the other box does not face laterally (corner
 * against corner: no point within margin along that axis).  Depths are
 * > 0 penetration, < 0 gap (>= -margin).  out may be NULL (count only).
 * Bad input (NULL a or b, a box magdyn_obb_check rejects, margin negative or
 * not finite) returns 0 with out->count = 0, out->kind = FACE_FACE,
 * out->normal = (0,0,0); so do boxes so large (sizes or coordinates near
 * 1e308 m) that the contact points would overflow to Inf or NaN.
 */
MAGDYN_API int magdyn_obb_manifold(const magdyn_obb *a, const magdyn_obb *b, double margin,
                                   magdyn_manifold *out);

/*
 * Contact manifolds of many pairs at once: for k < npairs, out[k] receives
 * what magdyn_obb_manifold(&boxes[pairs[2k]], &boxes[pairs[2k+1]], margin,
 * &out[k]) gives, to the last bit (count 0 for pairs apart or with a bad
 * box).  pairs is laid out as magdyn_broadphase_pairs fills it.  Four pairs
 * at a time are tested across vector lanes (AVX2 where the processor has
 * it) and only those within margin go on to clipping.  Returns MAGDYN_OK
 * (also for npairs = 0, when the pointers are not used); MAGDYN_ENONFINITE
 * for a NaN or infinite margin; MAGDYN_EINVAL for a negative margin,
 * nboxes < 0, npairs < 0, a NULL array, or an index outside [0, nboxes).  On
 * failure out is untouched.
 */
MAGDYN_API magdyn_status magdyn_obb_manifold_pairs(int nboxes, const magdyn_obb *boxes, int npairs,
                                                   const int *pairs, double margin,
                                                   magdyn_manifold *out);

#ifdef __cplusplus
}
#endif

#endif
