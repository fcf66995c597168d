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
    mdc_cub_start st = {-1.0, 1.0, -1.0, 1.0, 0, rule};
    double sum[2] = {NAN, NAN};
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

int main(void)
{
    Suite *s = suite_create("cuboid_cubature");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, area_rule_exp);
    tcase_add_test(tc, strip_rules_runge);
    tcase_add_test(tc, strip_rule_degree);
    tcase_add_test(tc, coarse_regions_are_split);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
