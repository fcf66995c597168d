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
 *
 * Feature ids: id[i] names the feature of a and the feature of b that meet
 * at point i.  A feature of a box is given by its signs s_x, s_y, s_z in
 * {-1, 0, +1} along the box's body axes (the points of the box at body
 * coordinate s_q h_q on every axis q with s_q != 0): a corner has no zero,
 * an edge one, a face two; it is numbered f = (s_x + 1) + 3 (s_y + 1) +
 * 9 (s_z + 1) (0-26, 13 unused), and id = (f_a + 1) | (f_b + 1) << 8.  A
 * vertex of the incident face on the reference face is (corner, face), an
 * incident edge crossing a side of the reference face (edge, edge), a
 * corner of the reference face inside the incident face (face, corner) or
 * (corner, face), an edge-edge contact (edge, edge).  The ids of one
 * manifold differ; a small motion that keeps the same features in touch
 * keeps their ids (whichever box's face the SAT takes as reference), so
 * equal ids in two steps mean the same contact.  id[i] = 0 for i >= count.
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
    unsigned int id[MAGDYN_MAX_CONTACTS];  /* feature id of each point: which face, edge or vertex of each box made it; equal ids in two steps mean the same contact */
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
 * out->normal = (0,0,0).
 */
MAGDYN_API int magdyn_obb_manifold(const magdyn_obb *a, const magdyn_obb *b, double margin,
                                   magdyn_manifold *out);

/*
 * Contact manifolds of many pairs at once: for k < npairs, out[k] receives
 * what magdyn_obb_manifold(&boxes[pairs[2k]], &boxes[pairs[2k+1]], margin,
 * &out[k]) gives, to the last bit (count 0 for pairs apart or with a bad
 * box).  pairs is laid out as magdyn_broadphase_pairs fills it.  Four pairs
 * at a time are tested across vector lanes (AVX2 where the processor has
 * it) and only those within margin go on to clipping; up to about 70 kB
 * of stack.  Returns MAGDYN_OK
 * (also for npairs = 0, when the pointers are not used); MAGDYN_ENONFINITE
 * for a NaN or infinite margin; MAGDYN_EINVAL for a negative margin,
 * nboxes < 0, npairs < 0, a NULL array, or an index outside [0, nboxes).  On
 * failure out is untouched.
 */
MAGDYN_API magdyn_status magdyn_obb_manifold_pairs(int nboxes, const magdyn_obb *boxes, int npairs,
                                                   const int *pairs, double margin,
                                                   magdyn_manifold *out);

/* magdyn_obb_manifold_pairs on the paths simd allows (magdyn_simd in
 * sat.h; MAGDYN_EINVAL for a value not in magdyn_simd; otherwise the same
 * statuses). */
MAGDYN_API magdyn_status magdyn_obb_manifold_pairs_simd(int nboxes, const magdyn_obb *boxes,
                                                        int npairs, const int *pairs,
                                                        double margin, magdyn_manifold *out,
                                                        magdyn_simd simd);

/* At most this many manifolds of one pair (magdyn_obb_contacts): the
 * primary one and one for each face of either box. */
#define MAGDYN_MAX_PAIR_MANIFOLDS 13

/*
 * All contacts of boxes a and b within margin >= 0 [m], as a stepper
 * holding them in resting contact needs.  out[0] is the manifold of
 * magdyn_obb_manifold with these repairs:
 *  - no point although the SAT separation is within margin (an edge-edge
 *    approach beyond the edges' ends, a face that the other box does not
 *    face laterally): one point halfway between the two boxes' corners
 *    furthest along the SAT normal, each towards the other box, depth minus
 *    the separation, EDGE_EDGE, id (corner of a, corner of b);
 *  - an edge-edge manifold whose normal is within 1e-5 (cosine) of a face
 *    normal (faces parallel, edges crossing, as two bars stacked
 *    crosswise, where the SAT may pick an edge axis): replaced by the face
 *    contact of that face as reference (the best such face, a's first on
 *    ties), clipped as magdyn_obb_manifold clips, normal the face's,
 *    when it has points within margin;
 *  - otherwise an edge-edge manifold of edges within 15 degrees of parallel
 *    (touching along a segment): the ends of the part where the edges face
 *    each other, within margin, appended, each halfway between the edges,
 *    id (corner, edge) or (edge, corner) by whose edge ends there.
 * When out[0] is then EDGE_EDGE (one point where the edges pass, which a
 * corner at an edge's end can slide past), every face of b with corners of
 * a within margin of it (the corner outside each of b's slabs by at most
 * margin; its face the one it is least inside) gives one more manifold,
 * then every face of a with corners of b: normal the face's, from b
 * towards a; kind EDGE_FACE (face of b) or FACE_EDGE (face of a); points
 * halfway between the corner and the face's plane, depth the corner's
 * depth below the face; ids (corner, face).  Then the face of a and the
 * face of b whose normals lie nearest the edge-edge normal, each when
 * within 5 degrees of it, give one more manifold each: the face contact
 * with that face as reference, clipped as the primary is, its points whose
 * ids the manifolds before it lack (an edge lying across a face at a small
 * tilt touches it along a segment; the edge-edge point holds one end,
 * these the other).  Manifolds beyond max_out are left out.  Every point
 * of every manifold has its feature id, and the ids of all the manifolds
 * of the pair differ.
 * A manifold here may hold more than 4 points (up to MAGDYN_MAX_CONTACTS):
 * a face contact keeps every vertex of the clipped incident face (up to 8,
 * where magdyn_obb_manifold keeps 4), and the corners of a very thin box
 * may all lie near one face.  A stepper holding the boxes together needs
 * each vertex: one left out is held by no constraint and sinks.
 * Returns the number of manifolds written to out[0 .. n - 1], n <= max_out
 * (the primary first, the corners' in the order above): 0, with nothing
 * written, when the boxes are apart by more than margin, and for bad input
 * (NULL a, b or out, a box magdyn_obb_check rejects, margin negative or not
 * finite, max_out < 1) and boxes so large that points overflow.
 */
MAGDYN_API int magdyn_obb_contacts(const magdyn_obb *a, const magdyn_obb *b, double margin,
                                   magdyn_manifold *out, int max_out);

/*
 * The contacts of many pairs at once: for k < npairs, pair k's manifolds go
 * to out[k max_out_per_pair .. k max_out_per_pair + counts[k] - 1], and
 * counts[k] is their number: what magdyn_obb_contacts(&boxes[pairs[2k]],
 * &boxes[pairs[2k+1]], margin, that part of out, max_out_per_pair)
 * returns and writes, to the last bit.  A pair with none (apart by more
 * than margin, or a bad box) has out[k max_out_per_pair] set to an empty
 * manifold (count 0, FACE_FACE, zero normal, every byte 0); the slots of a
 * pair beyond its count and the first are untouched.  pairs is laid out as
 * magdyn_broadphase_pairs fills it; out holds npairs max_out_per_pair
 * manifolds (MAGDYN_MAX_PAIR_MANIFOLDS a pair leaves none out).  The
 * primary manifolds are worked four pairs at a time across vector lanes as
 * in magdyn_obb_manifold_pairs (and with its stack); only the pairs whose primary is an
 * edge-edge contact, or empty, go on one at a time to magdyn_obb_contacts'
 * repairs.  Returns MAGDYN_OK (also for npairs = 0, when the pointers are
 * not used); MAGDYN_ENONFINITE for a NaN or infinite margin; MAGDYN_EINVAL
 * for a negative margin, max_out_per_pair < 1, nboxes < 0, npairs < 0, a
 * NULL array, or an index outside [0, nboxes).  On failure out and counts
 * are untouched.
 */
MAGDYN_API magdyn_status magdyn_obb_contacts_pairs(int nboxes, const magdyn_obb *boxes, int npairs,
                                                   const int *pairs, double margin, magdyn_manifold *out,
                                                   int max_out_per_pair, int *counts);

/* magdyn_obb_contacts_pairs on the paths simd allows (magdyn_simd in
 * sat.h; MAGDYN_EINVAL for a value not in magdyn_simd; otherwise the same
 * statuses). */
MAGDYN_API magdyn_status magdyn_obb_contacts_pairs_simd(int nboxes, const magdyn_obb *boxes, int npairs,
                                                        const int *pairs, double margin,
                                                        magdyn_manifold *out, int max_out_per_pair,
                                                        int *counts, magdyn_simd simd);

#ifdef __cplusplus
}
#endif

#endif
