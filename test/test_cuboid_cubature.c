/*
 * test_cuboid_cubature.c - the adaptive face cubature (lib/cuboid_cubature.c,
 * compiled into this test: its function is private to the library).
 * References: closed-form integrals over [-1, 1]^2 of exp(s + t) and of
 * the Runge function 1 / (1 + 25 x^2) along either side (2/5 atan 5 a
 * unit of length), which the area rule and the strips' Gauss-Kronrod rule
 * must meet within the tolerance the check asks for; polynomials of degree
 * 11 along a strip are exact in one region (Kronrod's degree); a narrow
 * Gaussian bump, 1 + A exp(-|x - x0|^2 / sigma^2), integrates to
 * 4 + A pi sigma^2 (its tails beyond the square are below 1e-40).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <magdyn.h>
#include "testutil.h"
#include "../lib/cuboid_cubature.h"

typedef struct {
    int kind;      /* 0: exp(s + t); 1: Runge in s; 2: Runge in t; 3: s^10 t^0 + s^11;
                      4: a bump at (BUMP_S, BUMP_T) */
    long calls;
} ctx_t;

#define BUMP_S 0.5
#define BUMP_T 0.5
#define BUMP_SIGMA 0.05
#define BUMP_A 100.0

static void fn(const void *ctx, int face, double s, double t, double *out)
{
    ctx_t *c = (ctx_t *)ctx;
    double v;
    (void)face;
    c->calls++;
    switch (c->kind) {
    case 0: v = exp(s + t); break;
    case 1: v = 1.0 / (1.0 + 25.0 * s * s); break;
    case 2: v = 1.0 / (1.0 + 25.0 * t * t); break;
    case 3: v = pow(s, 10) + pow(s, 11); break;
    case 5: v = 1.0; break;
    default:
        v = 1.0 + BUMP_A * exp(-((s - BUMP_S) * (s - BUMP_S) + (t - BUMP_T) * (t - BUMP_T))
                               / (BUMP_SIGMA * BUMP_SIGMA));
        break;
    }
    out[0] = v;
    out[1] = 2.0 * v;
}

typedef struct {
    double rel_tol;
} check_t;

static int check(void *ctx, const double *sum, const double err[2], const double mass[2], double tol[2])
{
    const check_t *c = ctx;
    (void)mass;
    tol[0] = c->rel_tol * fabs(sum[0]);
    tol[1] = c->rel_tol * fabs(sum[1]);
    return err[0] <= tol[0] && err[1] <= tol[1] ? MDC_CUB_DONE : MDC_CUB_SPLIT;
}

/* The bump's admissibility: a rectangle is coarse while its half diagonal
 * exceeds half its centre's distance from the bump (at least 2 sigma),
 * and then halved across its longer side. */
static int bump_coarse(const void *ctx, int face, double s0, double s1, double t0, double t1)
{
    double ds = 0.5 * (s0 + s1) - BUMP_S, dt = 0.5 * (t0 + t1) - BUMP_T;
    double hd = 0.5 * hypot(s1 - s0, t1 - t0);
    (void)ctx;
    (void)face;
    if (hd <= 0.5 * fmax(hypot(ds, dt), 2.0 * BUMP_SIGMA)) return 0;
    return s1 - s0 >= t1 - t0 ? MDC_CUB_COARSE_S : MDC_CUB_COARSE_T;
}

static double integrate_with(int kind, int rule, double rel_tol, int coarse, long *calls)
{
    ctx_t c = {kind, 0};
    check_t ck = {rel_tol};
    mdc_cub_problem p;
    mdc_cub_start st = {-1.0, 1.0, -1.0, 1.0, 0, rule, 0, {{0, 0}}};
    double sum[2] = {NAN, NAN};
    memset(&p, 0, sizeof p);
    p.f = fn;
    p.ctx = &c;
    p.nval = 2;
    p.split = 1;
    p.safety = 1.0;
    p.max_regions = 4096;
    p.check = check;
    p.check_ctx = &ck;
    p.coarse = coarse ? bump_coarse : NULL;
    ck_assert_int_eq(mdc_cubature(&p, &st, 1, sum), MAGDYN_OK);
    ck_assert(sum[1] == 2.0 * sum[0]);
    *calls = c.calls;
    return sum[0];
}

static double integrate(int kind, int rule, double rel_tol, long *calls)
{
    return integrate_with(kind, rule, rel_tol, 0, calls);
}

START_TEST(area_rule_exp)
{
    double exact = pow(exp(1.0) - exp(-1.0), 2), tol;
    long calls;
    for (tol = 1e-3; tol >= 1e-11; tol *= 1e-4) {
        double v = integrate(0, MDC_CUB_AREA, tol, &calls);
        ck_assert_msg(fabs(v - exact) <= tol * exact, "tol %g: %.17g vs %.17g", tol, v, exact);
    }
}
END_TEST

/* A strip along s (t is its width, not sampled off the centre line) and
 * one along t give the same Runge integral, 2 (2/5 atan 5) over the square,
 * within tolerance, and with fewer calls than the area rule takes. */
START_TEST(strip_rules_runge)
{
    double exact = 2.0 * 0.4 * atan(5.0), tol;
    long c_area, c_s, c_t;
    for (tol = 1e-3; tol >= 1e-11; tol *= 1e-4) {
        double va = integrate(1, MDC_CUB_AREA, tol, &c_area);
        double vs = integrate(1, MDC_CUB_LINE_S, tol, &c_s);
        double vt = integrate(2, MDC_CUB_LINE_T, tol, &c_t);
        ck_assert_msg(fabs(va - exact) <= tol * exact, "area, tol %g: %.17g", tol, va);
        ck_assert_msg(fabs(vs - exact) <= tol * exact, "strip s, tol %g: %.17g", tol, vs);
        ck_assert_msg(fabs(vt - exact) <= tol * exact, "strip t, tol %g: %.17g", tol, vt);
        ck_assert_msg(c_s < c_area && c_t == c_s, "calls: area %ld, s %ld, t %ld", c_area, c_s, c_t);
    }
}
END_TEST

/* s^10 + s^11 along a strip: 2 (2 / 11) over the square, to rounding,
 * from the first region's 7 points when the check accepts its estimate. */
START_TEST(strip_rule_degree)
{
    long calls;
    double v = integrate(3, MDC_CUB_LINE_S, 1.0, &calls);
    ck_assert_msg(fabs(v - 4.0 / 11.0) < 1e-15, "%.17g", v);
    ck_assert_int_eq(calls, 7);
}
END_TEST

/* No point of the 17-point rule comes within 5 sigma of the bump, so both
 * embedded rules see 1 and agree: the first region is accepted 16 % off.
 * Called coarse near the bump, the regions are split until the rules see
 * it, and the tolerance is met. */
START_TEST(coarse_regions_are_split)
{
    double exact = 4.0 + BUMP_A * MAGDYN_PI * BUMP_SIGMA * BUMP_SIGMA, tol = 1e-6;
    long c_blind, c_seen;
    double blind = integrate_with(4, MDC_CUB_AREA, tol, 0, &c_blind);
    double seen = integrate_with(4, MDC_CUB_AREA, tol, 1, &c_seen);
    ck_assert_msg(fabs(blind - exact) > 0.1 * exact && c_blind == 17, "blind %.17g, %ld calls", blind, c_blind);
    ck_assert_msg(fabs(seen - exact) <= tol * exact, "coarse %.17g vs %.17g", seen, exact);
}
END_TEST

/* ---- a line across the square ----------------------------------------- */

/* log(d^2 + eps^2), d = a s + b t + c the distance from the line (a, b a
 * unit normal), and its value twice */
typedef struct {
    double a, b, c, eps;
    long calls;
} line_t;

static void line_fn(const void *ctx, int face, double s, double t, double *out)
{
    line_t *l = (line_t *)ctx;
    double d = l->a * s + l->b * t + l->c;
    (void)face;
    l->calls++;
    out[0] = log(d * d + l->eps * l->eps);
    out[1] = 2.0 * out[0];
}

/* Antiderivatives in d of log(d^2 + e^2) and of d log(d^2 + e^2). */
static double prim0(double d, double e) { return d * log(d * d + e * e) - 2.0 * d + 2.0 * e * atan(d / e); }
static double prim1(double d, double e) { return 0.5 * ((d * d + e * e) * log(d * d + e * e) - d * d); }

/* Length of the chord {a s + b t = p} of the square [-1, 1]^2. */
static double chord(double a, double b, double p)
{
    double lo = -INFINITY, hi = INFINITY;
    /* along the direction (-b, a) from the foot point p (a, b) */
    double x0 = p * a, y0 = p * b, dx = -b, dy = a, bx[2] = {x0, y0}, dv[2] = {dx, dy};
    int k;
    for (k = 0; k < 2; k++) {
        if (fabs(dv[k]) < 1e-300) {
            if (fabs(bx[k]) > 1.0) return 0.0;
            continue;
        }
        lo = fmax(lo, fmin((-1.0 - bx[k]) / dv[k], (1.0 - bx[k]) / dv[k]));
        hi = fmin(hi, fmax((-1.0 - bx[k]) / dv[k], (1.0 - bx[k]) / dv[k]));
    }
    return hi > lo ? hi - lo : 0.0;
}

/* The exact integral over the square: the chord length is linear in p
 * between the corners' projections, and each piece integrates in closed
 * form against log((p + c)^2 + eps^2). */
static double line_exact(const line_t *l)
{
    double p[4], tot = 0.0;
    int i, j;
    for (i = 0; i < 4; i++) p[i] = l->a * (i & 1 ? 1.0 : -1.0) + l->b * (i & 2 ? 1.0 : -1.0);
    for (i = 0; i < 4; i++)
        for (j = i + 1; j < 4; j++)
            if (p[j] < p[i]) { double x = p[i]; p[i] = p[j]; p[j] = x; }
    for (i = 0; i < 3; i++) {
        double p0 = p[i], p1 = p[i + 1], L0, L1, k, m, d0, d1;
        if (!(p1 > p0)) continue;
        /* chord lengths just inside the piece (corners are its ends) */
        L0 = chord(l->a, l->b, p0 + 1e-9 * (p1 - p0)) ;
        L1 = chord(l->a, l->b, p1 - 1e-9 * (p1 - p0));
        k = (L1 - L0) / ((1.0 - 2e-9) * (p1 - p0));
        m = L0 - k * (p0 + 1e-9 * (p1 - p0));
        /* L(p) = m + k p, p = d - c */
        d0 = p0 + l->c;
        d1 = p1 + l->c;
        tot += (m - k * l->c) * (prim0(d1, l->eps) - prim0(d0, l->eps)) + k * (prim1(d1, l->eps) - prim1(d0, l->eps));
    }
    return tot;
}

/* The integral of f over the n starts to rel_tol (values 0 and 1 must be
 * v and 2 v); its calls are counted by f's context. */
static double integrate_starts(mdc_cub_fn f, void *ctx, const mdc_cub_start *st, int n, double rel_tol)
{
    check_t ck = {rel_tol};
    mdc_cub_problem p;
    double sum[2] = {NAN, NAN};
    memset(&p, 0, sizeof p);
    p.f = f;
    p.ctx = ctx;
    p.nval = 2;
    p.split = 1;
    p.safety = 1.0;
    p.max_regions = 1 << 20;
    p.check = check;
    p.check_ctx = &ck;
    ck_assert_int_eq(mdc_cubature(&p, st, n, sum), MAGDYN_OK);
    ck_assert(sum[1] == 2.0 * sum[0]);
    return sum[0];
}

static double line_integral(line_t *l, const mdc_cub_start *st, int n, double rel_tol)
{
    l->calls = 0;
    return integrate_starts(line_fn, l, st, n, rel_tol);
}

/* log(d^2 + eps^2) with eps = 1e-6 on a line across the square at 0.1 to
 * 0.8 rad from its sides: on the square halved along its axes the
 * bisection needs thousands of regions to follow the line; cut along it
 * into quads (mdc_cub_split_chord), whose sides the bisection grades
 * towards, it meets the tolerance with at least 20 times fewer calls.
 * Reference: the closed form above. */
START_TEST(quads_along_a_line)
{
    double angles[3] = {0.1, 0.45, 0.8};
    int i;
    for (i = 0; i < 3; i++) {
        line_t l = {sin(angles[i]), cos(angles[i]), 0.1 + 0.2 * i, 1e-3, 0};
        mdc_cub_start sq = {-1.0, 1.0, -1.0, 1.0, 0, MDC_CUB_AREA, 0, {{0, 0}}}, q[4];
        double exact = line_exact(&l), tol = 1e-5, plain, cut;
        long c_plain, c_cut;
        int n = mdc_cub_split_chord(&sq, l.a, l.b, l.c, q);
        ck_assert_int_ge(n, 2);
        plain = line_integral(&l, &sq, 1, tol);
        c_plain = l.calls;
        cut = line_integral(&l, q, n, tol);
        c_cut = l.calls;
        ck_assert_msg(fabs(plain - exact) <= tol * fabs(exact), "plain %.12g vs %.12g", plain, exact);
        ck_assert_msg(fabs(cut - exact) <= tol * fabs(exact), "quads %.12g vs %.12g", cut, exact);
        ck_assert_msg(20 * c_cut <= c_plain, "angle %g: %ld calls in quads, %ld plain", angles[i], c_cut, c_plain);
    }
}
END_TEST

/* The quads of a cut cover the rectangle: the integral of 1 over them is
 * its area for lines through edges, corners and none. */
START_TEST(quads_cover_the_rectangle)
{
    mdc_cub_start r = {-0.5, 1.0, -1.0, 0.25, 0, MDC_CUB_AREA, 0, {{0, 0}}}, q[4];
    double lines[5][3] = {{0.6, 0.8, 0.1}, {1, 0, 0.2}, {0.7071067811865476, 0.7071067811865476, -0.5303300858899106},
                          {0.3, -0.9539392014169456, 0.0}, {1, 0, 5}};
    int i, k;
    for (i = 0; i < 5; i++) {
        int n = mdc_cub_split_chord(&r, lines[i][0], lines[i][1], lines[i][2], q);
        double area = 0.0;
        for (k = 0; k < n; k++) {
            ctx_t c = {5, 0};
            area += integrate_starts(fn, &c, &q[k], 1, 1e-12);
        }
        ck_assert_msg(fabs(area - 1.5 * 1.25) < 1e-12, "line %d: %d pieces, area %.17g", i, n, area);
        ck_assert_msg((n > 1) == (i != 4), "line %d: %d pieces", i, n);
    }
}
END_TEST

/* log(|x - P|^2 + eps^2), a point singularity at P, and its value twice */
typedef struct {
    double ps, pt, eps;
    long calls;
} point_t;

static void point_fn(const void *ctx, int face, double s, double t, double *out)
{
    point_t *q = (point_t *)ctx;
    double r2 = (s - q->ps) * (s - q->ps) + (t - q->pt) * (t - q->pt);
    (void)face;
    q->calls++;
    out[0] = log(r2 + q->eps * q->eps);
    out[1] = 2.0 * out[0];
}

static double point_integral(point_t *q, const mdc_cub_start *st, int n, double rel_tol)
{
    q->calls = 0;
    return integrate_starts(point_fn, q, st, n, rel_tol);
}

/* A fan about a point (mdc_cub_fan) covers the rectangle, the point
 * inside, on a side or on a corner, with or without cuts of its own; a
 * point outside leaves the rectangle whole.  A point singularity at its
 * apex integrates to the plain cubature's value, and to the exact one
 * where the fan is the rectangle's own (the point at a corner): the
 * integral of log(s^2 + t^2) over [0, 2]^2 is a^2 (ln 2a^2 - 3 + pi/2), a = 2. */
START_TEST(fans_about_a_point)
{
    mdc_cub_start r = {-0.5, 1.0, -1.0, 0.25, 0, MDC_CUB_AREA, 0, {{0, 0}}}, q[20];
    double P[4][2] = {{0.1, -0.3}, {1.0, -0.5}, {-0.5, 0.25}, {2.0, 0.0}};
    double dir[3][2] = {{1.0, 0.3}, {-0.2, 1.0}, {-1.0, -1.0}};
    int i, k, nd;
    for (i = 0; i < 4; i++)
        for (nd = 0; nd <= 3; nd++) {
            int n = mdc_cub_fan(&r, P[i], (const double (*)[2])dir, nd, q);
            double area = 0.0;
            ck_assert_int_le(n, nd + 4);
            for (k = 0; k < n; k++) {
                ctx_t c = {5, 0};
                area += integrate_starts(fn, &c, &q[k], 1, 1e-12);
            }
            ck_assert_msg(fabs(area - 1.5 * 1.25) < 1e-12, "point %d, %d cuts: %d pieces, area %.17g", i, nd, n,
                          area);
            ck_assert_msg((n > 1) == (i != 3), "point %d: %d pieces", i, n);
        }
    {
        point_t pt = {0.2, -0.4, 1e-9, 0};
        mdc_cub_start sq = {-1.0, 1.0, -1.0, 1.0, 0, MDC_CUB_AREA, 0, {{0, 0}}};
        double at[2] = {0.2, -0.4}, plain, fan, tol = 1e-8;
        int n = mdc_cub_fan(&sq, at, (const double (*)[2])dir, 3, q);
        plain = point_integral(&pt, &sq, 1, tol);
        fan = point_integral(&pt, q, n, tol);
        ck_assert_msg(fabs(plain - fan) <= 2 * tol * fabs(plain), "plain %.15g, fan %.15g", plain, fan);
    }
    {
        point_t pt = {0.0, 0.0, 0.0, 0};
        mdc_cub_start sq = {0.0, 2.0, 0.0, 2.0, 0, MDC_CUB_AREA, 0, {{0, 0}}};
        double at[2] = {0.0, 0.0}, exact = 4.0 * log(8.0) - 12.0 + 2.0 * MAGDYN_PI, v, tol = 1e-9;
        int n = mdc_cub_fan(&sq, at, NULL, 0, q);
        ck_assert_int_eq(n, 2);
        v = point_integral(&pt, q, n, tol);
        ck_assert_msg(fabs(v - exact) <= tol * fabs(exact), "%.15g vs %.15g", v, exact);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cuboid_cubature");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, area_rule_exp);
    tcase_add_test(tc, strip_rules_runge);
    tcase_add_test(tc, strip_rule_degree);
    tcase_add_test(tc, coarse_regions_are_split);
    tcase_add_test(tc, quads_along_a_line);
    tcase_add_test(tc, quads_cover_the_rectangle);
    tcase_add_test(tc, fans_about_a_point);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
