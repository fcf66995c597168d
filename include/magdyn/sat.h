/*
 * magdyn/sat.h - layer 1: separating-axis tests for oriented boxes (3D, 15
 * axes) and rectangles (2D, 4 axes), box validation, and a broad phase that
 * lists the pairs of many boxes that may be within a margin of each other.
 *
 * Two convex boxes are disjoint exactly when their projections on one of 15
 * axes are (the 3 face normals of each box and the 9 cross products of an
 * edge of one with an edge of the other); 4 face normals suffice for two
 * rectangles.  The signed separation along an axis L is
 *     s(L) = |t . L| - r_a(L) - r_b(L),   t = center_a - center_b,
 * r the half-width of a box's projection on the unit axis L.
 */
#ifndef MAGDYN_SAT_H
#define MAGDYN_SAT_H

#include <float.h>
#include <magdyn/vec.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An oriented box: centre [m] (inertial), orientation (body to inertial), half extents [m]. */
typedef struct { magdyn_vec3 center; magdyn_quat orientation; magdyn_vec3 half; } magdyn_obb;

/*
 * The result of magdyn_obb_sat.
 *
 * separation is the largest s(L) over the 15 axes.  Overlapping boxes: it is
 * minus the exact minimum penetration depth (the shortest translation that
 * separates them), with no bias towards face axes.  Separated boxes: it is a
 * lower bound on their Euclidean distance, equal to it when the closest
 * features are a face and anything, or two edges whose closest points lie
 * inside both edges; otherwise (e.g. corner against corner) the distance may
 * be larger.  Touching boxes give 0.
 *
 * Edge axes of nearly parallel edges (|a_i x b_j| < 2e-8) are numerically
 * meaningless; instead of being dropped abruptly they are blended
 * continuously into the best face separation over 1e-8 < |a_i x b_j| < 2e-8,
 * so separation is a continuous function of both poses (a root finder may
 * use it).  Where the blend is active the value lies between the best face
 * separation and the edge axis's own; near contact or in overlap these
 * differ by at most about 2 angle x size, so it is within ~4e-8 of the size
 * of the exact 15-axis maximum; for boxes apart it stays a lower bound on
 * the distance.  Exactly parallel edges are covered by the face axes.
 *
 * axis and normal describe the axis attaining separation; among axes within
 * 1e-12 (relative to the box sizes and distance) of the best, a face of a
 * is preferred to a face of b, and a face to an edge pair, so touching faces
 * are not reported as an edge contact because of rounding; an edge axis must
 * moreover beat the others by its own rounding error, 1e-15 size /
 * |a_i x b_j|.  So the separation along normal equals separation to those
 * tolerances.  Edge axis k = 6 + 3 i + j is a_i x b_j (i, j the body axes
 * 0 = x, 1 = y, 2 = z).  For t = 0 (equal centres) a face normal points
 * along +a_i or +b_j.
 */
typedef struct {
    bool overlap;         /* the boxes intersect or touch */
    double separation;    /* the largest signed separation over the 15 axes: > 0 a gap,
                             < 0 minus the exact minimum penetration (no bias to faces) */
    magdyn_vec3 normal;   /* unit, from b towards a */
    int axis;             /* 0-2 faces of a, 3-5 faces of b, 6-14 edge x edge */
} magdyn_sat_result;

/* The largest reach |c_x| + |c_y| + |c_z| + h_x + h_y + h_z of a valid box
 * [m], about 1.1e307 m: within it the algebra of any pair of boxes stays
 * finite. */
#define MAGDYN_OBB_RANGE (DBL_MAX / 16.0)

/*
 * Valid boxes: centre finite, orientation a unit quaternion (||q|^2 - 1| <=
 * 2e-9, i.e. |q| within 1e-9 of 1; such a q is used as q/|q|), half extents
 * finite and > 0, and the reach |c_x| + |c_y| + |c_z| + h_x + h_y + h_z at
 * most MAGDYN_OBB_RANGE.  MAGDYN_EINVAL for NULL or a half extent <= 0,
 * MAGDYN_ENONFINITE for NaN/Inf, MAGDYN_ENORM for a quaternion that is not
 * of unit length, MAGDYN_ERANGE for a box beyond MAGDYN_OBB_RANGE.
 */
MAGDYN_API magdyn_status magdyn_obb_check(const magdyn_obb *box);

/*
 * Separating-axis test of boxes a and b.  Returns out->overlap; out may be
 * NULL, and then the test stops at the first separating axis (faster).
 * Bad input (NULL a or b, or a box magdyn_obb_check rejects) returns 0 and,
 * when out is non-NULL, sets overlap = 0, separation = NaN, normal = (0,0,0)
 * and axis = -1.
 */
MAGDYN_API int magdyn_obb_sat(const magdyn_obb *a, const magdyn_obb *b, magdyn_sat_result *out);

/*
 * The overlap-only test for many pairs at once: for k < npairs,
 * overlap[k] = magdyn_obb_sat(&boxes[pairs[2k]], &boxes[pairs[2k+1]], NULL)
 * (1 when the boxes intersect or touch, 0 when apart; the same answer to
 * the last bit), or -1 when either box is bad (fails magdyn_obb_check).  pairs is
 * laid out as magdyn_broadphase_pairs fills it.  The pairs are tested four at
 * a time across vector lanes (AVX2 where the processor has it; eight with
 * AVX-512), several times faster per pair than separate calls.  Returns MAGDYN_OK (also for
 * npairs = 0, when the pointers are not used); MAGDYN_EINVAL for nboxes < 0,
 * npairs < 0, a NULL array, or an index outside [0, nboxes), and then
 * overlap is untouched.
 */
MAGDYN_API magdyn_status magdyn_obb_overlap_pairs(int nboxes, const magdyn_obb *boxes, int npairs,
                                                  const int *pairs, int *overlap);

/*
 * The widest vector instructions a batched call may use.  Every choice
 * gives the same answers to the last bit; a narrower one is there to test
 * and time the paths on one machine.  A call never uses instructions the
 * processor lacks: it takes the widest path the processor has, up to the
 * one asked for.
 */
typedef enum {
    MAGDYN_SIMD_AUTO = 0,  /* the widest the processor has (AVX-512, AVX2, or none) */
    MAGDYN_SIMD_NONE = 1,  /* one pair at a time */
    MAGDYN_SIMD_AVX2 = 2   /* at most AVX2 */
} magdyn_simd;

/* magdyn_obb_overlap_pairs on the paths simd allows (MAGDYN_EINVAL for a
 * value not in magdyn_simd; otherwise the same statuses). */
MAGDYN_API magdyn_status magdyn_obb_overlap_pairs_simd(int nboxes, const magdyn_obb *boxes,
                                                       int npairs, const int *pairs, int *overlap,
                                                       magdyn_simd simd);

/*
 * The same test with a status: MAGDYN_OK and *out filled, or the status of
 * magdyn_obb_check for the first bad box (MAGDYN_EINVAL for NULL out) and
 * *out untouched.
 */
MAGDYN_API magdyn_status magdyn_obb_sat_checked(const magdyn_obb *a, const magdyn_obb *b,
                                                magdyn_sat_result *out);

/*
 * Axis-aligned bounding box of a box in the inertial frame: lo and hi
 * corners [m].  Bad input (as for magdyn_obb_check) gives MAGDYN_* status and
 * leaves lo, hi untouched.
 */
MAGDYN_API magdyn_status magdyn_obb_aabb(const magdyn_obb *box, magdyn_vec3 *lo, magdyn_vec3 *hi);

/*
 * Broad phase: the pairs (i, j), i < j, of boxes[0..n-1] whose axis-aligned
 * bounding boxes come within margin [m] of each other along every inertial
 * axis (found by sweep and prune along the inertial axis on which the
 * centres spread most, so a vertical stack costs O(n log n) too).  Every
 * pair whose distance is at most margin is listed (the listing is
 * conservative: some listed pairs are farther apart).  pairs[2k], pairs[2k+1] hold pair k, i < j, sorted by
 * (i, j) when all pairs fit.  *npairs receives the number of pairs found,
 * which may exceed max_pairs: then only max_pairs of them are stored (which
 * ones is unspecified) and the caller should call again with a larger
 * buffer, as with snprintf.  pairs may be NULL when max_pairs is 0.
 * Returns MAGDYN_OK; MAGDYN_EINVAL for NULL boxes or npairs, n < 0,
 * max_pairs < 0, NULL pairs with max_pairs > 0, or a negative margin;
 * MAGDYN_ENONFINITE for a non-finite margin; the status of magdyn_obb_check
 * for a bad box; MAGDYN_ENOMEM when scratch memory (O(n)) cannot be had;
 * MAGDYN_ERANGE when more than INT_MAX pairs are found (possible from
 * n = 65537 on; they are then counted before any is stored).  On failure
 * pairs and *npairs are untouched.
 */
MAGDYN_API magdyn_status magdyn_broadphase_pairs(int n, const magdyn_obb *boxes, double margin,
                                                 int *pairs, int max_pairs, int *npairs);

/* ---- 2D rectangles ---------------------------------------------------- */

/* A rectangle in the plane: centre [m], angle [rad] of its x axis from +x (ccw), half extents [m]. */
typedef struct { magdyn_vec2 center; double angle; magdyn_vec2 half; } magdyn_rect;

/*
 * The result of magdyn_rect_sat, as for boxes: separation is the largest
 * signed separation over the 4 face axes (minus the exact minimum
 * penetration when overlapping, a lower bound on the distance when apart),
 * normal is unit from b towards a, axis 0-1 the x, y axes of a, 2-3 those of
 * b (a preferred on ties within 1e-12 of the sizes).
 */
typedef struct {
    bool overlap;         /* the rectangles intersect or touch */
    double separation;
    magdyn_vec2 normal;   /* unit, from b towards a */
    int axis;
} magdyn_rect_sat_result;

/*
 * Separating-axis test of rectangles a and b.  Returns out->overlap; out may
 * be NULL.  Bad input (NULL a or b, non-finite centre or angle, a half
 * extent that is not finite and > 0) returns 0 and, when out is non-NULL,
 * sets overlap = 0, separation = NaN, normal = (0,0), axis = -1.
 */
MAGDYN_API int magdyn_rect_sat(const magdyn_rect *a, const magdyn_rect *b, magdyn_rect_sat_result *out);

#ifdef __cplusplus
}
#endif

#endif
