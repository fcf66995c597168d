/*
 * impulse_point.c - one contact point's frictional impulse, solved exactly
 * (layer 3).  See impulse_impl.h.
 *
 * Projected Gauss-Seidel that updates a point's normal impulse and then its
 * friction separately cycles when the lever arm couples the two strongly
 * and mu is high: a spinning magnet hitting the plate on a corner at mu = 1
 * alternates between pushing and letting go and never settles.  Solving
 * the point's three unknowns together is the nonsmooth Gauss-Seidel of
 * Jean and Moreau (M. Jean, "The non-smooth contact dynamics method",
 * CMAME 177, 1999), with a local solver in the manner of the enumerative
 * one-contact solvers (V. Acary, M. Brémond, O. Huber, "On solving contact
 * problems with Coulomb friction", 2018): the point separates, sticks, or
 * slides, and each case is checked in turn.
 *
 * Sliding: the friction impulse lies on the cone's boundary along e(phi),
 * P = lambda (n + mu e), and the sliding velocity after is opposite to e.
 * The normal row fixes lambda = delta / a(phi), a the normal component of
 * K (n + mu e), and the tangential velocity times a is a trigonometric
 * polynomial of degree two in phi; its cross product with e, g(phi), has at
 * most four roots.  Newton's method from the sticking impulse's direction
 * finds the root at once in nearly every case; it turns the unit vector e
 * itself (e + d e_perp, normalised: phi + atan d, which keeps Newton's
 * quadratic convergence without a sine or cosine).  When it does not
 * converge, the roots are bracketed on a grid of angles and bisected.
 */
#include <math.h>
#include "detmath.h"
#include "impulse_impl.h"

/* Grid of the bracketing search (radians 2 pi / SLIDE_GRID apart), and the
 * Newton steps tried first. */
#define SLIDE_GRID 96
#define NEWTON_STEPS 12
#define TWO_PI 6.283185307179586

typedef struct {
    double (*k)[3];
    const double *u;     /* free velocity (n, t1, t2) */
    double delta;        /* target - free normal speed, > 0 */
    double mu;
} slide_problem;

/* a, g, h and dg/dphi at the direction e = (c, s): a the normal speed
 * change per unit lambda, g = e x (a u_t), h = e . (a u_t) (negative when
 * sliding opposes e). */
static void slide_eval(const slide_problem *sp, double c, double s, double *a, double *g, double *h, double *dg)
{
    double kd[3], dkd[3], w1, w2, dw1, dw2;
    int i;
    for (i = 0; i < 3; i++) {
        kd[i] = sp->k[i][0] + sp->mu * (sp->k[i][1] * c + sp->k[i][2] * s);
        dkd[i] = sp->mu * (sp->k[i][2] * c - sp->k[i][1] * s);
    }
    *a = kd[0];
    w1 = kd[0] * sp->u[1] + sp->delta * kd[1];
    w2 = kd[0] * sp->u[2] + sp->delta * kd[2];
    dw1 = dkd[0] * sp->u[1] + sp->delta * dkd[1];
    dw2 = dkd[0] * sp->u[2] + sp->delta * dkd[2];
    *g = c * w2 - s * w1;
    *h = c * w1 + s * w2;
    *dg = -s * w2 + c * dw2 - c * w1 - s * dw1;
}

/* The scale of g near a root: |a u_t| is at most this. */
static double slide_scale(const slide_problem *sp)
{
    double kmax = fabs(sp->k[0][0]) + fabs(sp->k[1][1]) + fabs(sp->k[2][2]);
    return kmax * (1.0 + sp->mu) * (fabs(sp->u[1]) + fabs(sp->u[2]) + sp->delta);
}

/* e is a sliding solution: the normal row pushes and the slip opposes e. */
static int slide_valid(const slide_problem *sp, const double e[2], double *lambda)
{
    double a, g, h, dg;
    slide_eval(sp, e[0], e[1], &a, &g, &h, &dg);
    if (!(a > 0.0) || h > 1e-9 * slide_scale(sp)) return 0;
    *lambda = sp->delta / a;
    return 1;
}

/* Newton from the unit vector e (a root on success, in e). */
static int slide_newton(const slide_problem *sp, double e[2])
{
    double tol = 1e-14 * slide_scale(sp);
    int i;
    for (i = 0; i < NEWTON_STEPS; i++) {
        double a, g, h, dg, d, c, s, norm;
        slide_eval(sp, e[0], e[1], &a, &g, &h, &dg);
        if (fabs(g) <= tol) return 1;
        if (!(fabs(dg) > 0.0)) return 0;
        d = -g / dg;
        if (fabs(d) > 0.5) d = d > 0.0 ? 0.5 : -0.5;
        c = e[0] - d * e[1];
        s = e[1] + d * e[0];
        norm = sqrt(c * c + s * s);
        e[0] = c / norm;
        e[1] = s / norm;
    }
    return 0;
}

/* g at the angle phi. */
static double slide_g(const slide_problem *sp, double phi)
{
    double a, g, h, dg;
    slide_eval(sp, md_cos(phi), md_sin(phi), &a, &g, &h, &dg);
    return g;
}

/* Every sign change of g on the grid, bisected; the valid root of least
 * lambda (least normal impulse) wins, into e.  Returns 0 when there is
 * none. */
static int slide_bracket(const slide_problem *sp, double e[2])
{
    double step = TWO_PI / SLIDE_GRID, lo = 0.0, g0, best_lambda = INFINITY;
    int i, found = 0;
    g0 = slide_g(sp, lo);
    for (i = 1; i <= SLIDE_GRID; i++) {
        double hi = i * step, g1 = slide_g(sp, hi), x0 = lo, x1 = hi, f0 = g0, lambda, root[2];
        int j;
        if ((f0 <= 0.0) != (g1 <= 0.0)) {
            for (j = 0; j < 60 && x1 - x0 > 1e-15; j++) {
                double xm = 0.5 * (x0 + x1), fm = slide_g(sp, xm);
                if ((fm <= 0.0) == (f0 <= 0.0)) {
                    x0 = xm;
                    f0 = fm;
                } else {
                    x1 = xm;
                }
            }
            root[0] = md_cos(0.5 * (x0 + x1));
            root[1] = md_sin(0.5 * (x0 + x1));
            if (slide_valid(sp, root, &lambda) && lambda < best_lambda) {
                best_lambda = lambda;
                e[0] = root[0];
                e[1] = root[1];
                found = 1;
            }
        }
        lo = hi;
        g0 = g1;
    }
    return found;
}

int impulse_point_exact(double k[3][3], double ik[3][3], int k_invertible, const double u[3],
                        double target, double mu, double p[3])
{
    slide_problem sp;
    double delta = target - u[0], e[2], norm, lambda = 0.0;
    int i, stick = 0;
    p[0] = p[1] = p[2] = 0.0;
    if (!(delta > 0.0)) return IMPULSE_POINT_SEPARATES;
    if (k_invertible) {
        double want[3] = {delta, -u[1], -u[2]};
        for (i = 0; i < 3; i++) p[i] = ik[i][0] * want[0] + ik[i][1] * want[1] + ik[i][2] * want[2];
        if (p[0] > 0.0 && md_hypot(p[1], p[2]) <= mu * p[0]) return IMPULSE_POINT_STICKS;
        stick = 1;
    }
    sp.k = k;
    sp.u = u;
    sp.delta = delta;
    sp.mu = mu;
    /* the sticking impulse points close to the sliding one */
    if (stick && (p[1] != 0.0 || p[2] != 0.0)) {
        e[0] = p[1];
        e[1] = p[2];
    } else {
        e[0] = -u[1];
        e[1] = -u[2];
    }
    norm = md_hypot(e[0], e[1]);
    if (norm > 0.0) {
        e[0] /= norm;
        e[1] /= norm;
    } else {
        e[0] = 1.0;
        e[1] = 0.0;
    }
    if (!(slide_newton(&sp, e) && slide_valid(&sp, e, &lambda)) && !slide_bracket(&sp, e))
        return IMPULSE_POINT_NONE;
    (void)slide_valid(&sp, e, &lambda);
    p[0] = lambda;
    p[1] = lambda * mu * e[0];
    p[2] = lambda * mu * e[1];
    return IMPULSE_POINT_SLIDES;
}
