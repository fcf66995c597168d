/*
 * cuboid_cubature.h - private to libmagdyn (used by cuboid_face_cubature.c and
 * cuboid_energy.c): globally adaptive cubature over the faces of a box.
 *
 * The integrand is a callback of up to MDC_CUB_MAXVAL values at a point
 * (s, t) in [-1, 1]^2 of one face; the values form one or two error groups
 * (a force and a torque, say), each judged by the Euclidean norm of its
 * error.  Regions live in a heap keyed by their weighted error, in memory
 * that grows as needed up to a budget.
 */
#ifndef MAGDYN_CUBOID_CUBATURE_H
#define MAGDYN_CUBOID_CUBATURE_H

#include <stddef.h>
#include <magdyn/common.h>

#define MDC_CUB_MAXVAL 6

/* out[0 .. nval) at (s, t) of face `face`, the area element included */
typedef void (*mdc_cub_fn)(const void *ctx, int face, double s, double t, double *out);

/* The same at the n points (s[i], t[i]) into out[i], for integrands
 * cheaper by the batch (the same values as mdc_cub_fn point by point) */
typedef void (*mdc_cub_fn_n)(const void *ctx, int face, const double *s, const double *t, int n,
                             double (*out)[MDC_CUB_MAXVAL]);

/* What the caller's check makes of the current totals. */
enum { MDC_CUB_SPLIT = 0, MDC_CUB_DONE = 1, MDC_CUB_AGAIN = 2 };

/*
 * The caller's check: given the summed values, the summed error estimates
 * and the summed magnitudes (sum of |region value| per group) of the
 * regions, it writes the tolerance of each group to tol[] and returns
 * MDC_CUB_DONE when the errors meet them, MDC_CUB_SPLIT to refine, or
 * MDC_CUB_AGAIN when it has changed terms of its own and wants to be asked
 * again before anything is split.
 */
typedef int (*mdc_cub_check)(void *ctx, const double *sum, const double err[2], const double mass[2],
                             double tol[2]);

typedef struct {
    mdc_cub_fn f;
    mdc_cub_fn_n f_n;        /* optional (NULL: f point by point): f at a rule's points at once */
    const void *ctx;
    int nval;                /* values per point, 1 .. MDC_CUB_MAXVAL */
    int split;               /* group 0 is values [0, split), group 1 [split, nval) */
    double safety;           /* factor on the embedded error estimate (>= 1) */
    size_t max_regions;      /* budget */
    mdc_cub_check check;
    void *check_ctx;
    /* Optional (NULL: none): MDC_CUB_COARSE_S or _T when the rules cannot
     * be trusted on the rectangle [s0, s1] x [t0, t1] of face `face` (a
     * singularity of the integrand too near for its size), naming the side
     * to halve (the longer); such a rectangle's error is taken as at least
     * its whole value, so it is split.  0 when the rules can be trusted. */
    int (*coarse)(const void *ctx, int face, double s0, double s1, double t0, double t1);
} mdc_cub_problem;

enum { MDC_CUB_COARSE_S = 1, MDC_CUB_COARSE_T = 2 };

/* The rule of a region: Genz-Malik over the rectangle, or, for a strip
 * whose width the integrand does not vary across (a thin plate's rim far
 * from the other box), 7-point Gauss-Kronrod along it on its centre line. */
enum { MDC_CUB_AREA = 0, MDC_CUB_LINE_S = 1, MDC_CUB_LINE_T = 2 };

/* A starting rectangle [s0, s1] x [t0, t1] of face `face`, and its rule.
 * With quad set, the rectangle lies in the coordinates (u, v) of [-1, 1]^2
 * that the bilinear map through corner[] takes to the face: corner[k] is
 * (s, t) at (u, v) = (-1, -1), (1, -1), (1, 1), (-1, 1); a triangle is a
 * quad with two equal corners.  The bisection then grades towards the
 * quad's sides, wherever they lie on the face: an integrand singular along
 * a line across the face, which axis-parallel halving resolves only with
 * thousands of regions, takes tens in quads with a side along it.  Quads
 * take MDC_CUB_AREA only. */
typedef struct {
    double s0, s1, t0, t1;
    int face;
    int rule;     /* MDC_CUB_AREA, or MDC_CUB_LINE_S along s, MDC_CUB_LINE_T along t */
    int quad;
    double corner[4][2];
} mdc_cub_start;

/*
 * The rectangle r (not a quad) cut along the line a s + b t + c = 0 into
 * quads with a side on the chord, at most 3, into out[]; returns their
 * number, or 1 with r copied when the line does not cross it.
 */
int mdc_cub_split_chord(const mdc_cub_start *r, double a, double b, double c, mdc_cub_start *out);

/*
 * The rectangle r (not a quad) as a fan of triangles (quads with a
 * collapsed side) about the point P on or inside it, cut along the
 * directions dir[0 .. ndir) from P and towards r's corners: a point
 * singularity sits at every triangle's apex, where the bisection grades
 * towards it, and lines of near singularity from it along the cuts.  At
 * most ndir + 4 triangles into out[]; returns their number, or 1 with r
 * copied when P lies outside r.
 */
int mdc_cub_fan(const mdc_cub_start *r, const double P[2], const double (*dir)[2], int ndir,
                mdc_cub_start *out);

/*
 * Integrates over the n starting rectangles, halving the region of largest
 * weighted error (along the axis of the larger fourth difference, or along
 * a strip's length) until the
 * check is satisfied; sum[0 .. nval) receives the totals.  A region whose
 * side has shrunk to 1e-13 of the face is not split further: the
 * integrand is then resolved as far as double precision allows, and the
 * totals are returned as converged.  MAGDYN_ENOCONV when the budget is
 * spent or an estimate is not finite, MAGDYN_ENOMEM; sum is written only
 * on success.
 */
magdyn_status mdc_cubature(const mdc_cub_problem *p, const mdc_cub_start *start, int n, double *sum);

#endif
