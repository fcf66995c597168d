/*
 * test_ode.c - layer 0: the Dormand-Prince 5(4) integrator.
 * References: the exact solutions of y' = y, y' = -y, the harmonic
 * oscillator x'' = -x (x = cos t, v = -sin t, energy x^2 + v^2 conserved)
 * and y' = y^2, y(0) = 1 (y = 1/(1 - t), singular at t = 1); the orders of
 * DOPRI5 and of its continuous extension (5 and 4: Hairer, Norsett and
 * Wanner, "Solving ODEs I", 2nd ed., II.5 and II.6).
 */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

/* Pairs (x, v) of unit-frequency oscillators; an odd last component decays
 * as y' = -y. */
static magdyn_status osc(void *user, const double *y, double *dy)
{
    int n = *(const int *)user, i;
    for (i = 0; i + 1 < n; i += 2) {
        dy[i] = y[i + 1];
        dy[i + 1] = -y[i];
    }
    if (n % 2) dy[n - 1] = -y[n - 1];
    return MAGDYN_OK;
}

static magdyn_status grow(void *user, const double *y, double *dy)
{
    (void)user;
    dy[0] = y[0];
    return MAGDYN_OK;
}

static magdyn_status decay(void *user, const double *y, double *dy)
{
    (void)user;
    dy[0] = -y[0];
    return MAGDYN_OK;
}

static magdyn_status square(void *user, const double *y, double *dy)
{
    (void)user;
    dy[0] = y[0] * y[0];
    return MAGDYN_OK;
}

/* The oscillator pair, failing with MAGDYN_ERANGE on call number fail_at
 * (counted from 1; 0: never). */
typedef struct { int n, calls, fail_at; } failing;
static magdyn_status osc_failing(void *user, const double *y, double *dy)
{
    failing *fl = user;
    if (++fl->calls == fl->fail_at) return MAGDYN_ERANGE;
    return osc(&fl->n, y, dy);
}

static magdyn_ode *make(int n, double rtol, double atol)
{
    magdyn_ode_params p = magdyn_ode_params_default();
    magdyn_ode *o = NULL;
    p.rtol = rtol;
    p.atol = atol;
    ck_assert_int_eq(magdyn_ode_create(n, &p, &o), MAGDYN_OK);
    ck_assert_ptr_nonnull(o);
    return o;
}

/* Steps to t_end (the last step shortened to land on it, up to rounding). */
static magdyn_status run_to(magdyn_ode *o, magdyn_ode_rhs f, void *user, double t_end)
{
    long guard = 0;
    while (t_end - magdyn_ode_time(o) > 1e-13 * fmax(1.0, fabs(t_end))) {
        magdyn_status s = magdyn_ode_step(o, f, user, t_end - magdyn_ode_time(o), NULL);
        if (s != MAGDYN_OK) return s;
        ck_assert_int_lt(++guard, 10000000);
    }
    return MAGDYN_OK;
}

START_TEST(oscillator_ten_periods)
{
    /* x = cos t, v = -sin t over 10 periods; the error of an adaptive
       method grows about linearly with time, by at most the tolerance per
       unit time: allow 10 rtol per period */
    const double rtol = 1e-9, t_end = 20 * MAGDYN_PI;
    int n = 2;
    magdyn_ode *o = make(n, rtol, 1e-12);
    double y0[2] = {1.0, 0.0}, t, err, de;
    const double *y;
    ck_assert_int_eq(magdyn_ode_set_state(o, 2, 0.0, y0), MAGDYN_OK);
    ck_assert_int_eq(run_to(o, osc, &n, t_end), MAGDYN_OK);
    t = magdyn_ode_time(o);
    y = magdyn_ode_state(o);
    ck_assert_double_eq_tol(t, t_end, 1e-12);
    err = fmax(fabs(y[0] - cos(t)), fabs(y[1] + sin(t)));
    de = fabs(y[0] * y[0] + y[1] * y[1] - 1.0);
    fprintf(stderr, "oscillator: error %.3g, energy drift %.3g\n", err, de);
    ck_assert_double_le(err, 10 * rtol * 10);
    ck_assert_double_le(de, 10 * rtol * 10);
    magdyn_ode_free(o);
}
END_TEST

/* |y(1) - e| for y' = y, y(0) = 1, in nsteps equal steps. */
static double growth_error(int nsteps)
{
    magdyn_ode *o = make(1, 1e-2, 1e-2);   /* loose: h_max sets every step */
    magdyn_ode_stats st;
    double y0 = 1.0, h = 1.0 / nsteps, taken;
    int i;
    ck_assert_int_eq(magdyn_ode_set_state(o, 1, 0.0, &y0), MAGDYN_OK);
    for (i = 0; i < nsteps; i++) {
        double hm = i == nsteps - 1 ? 1.0 - magdyn_ode_time(o) : h;
        ck_assert_int_eq(magdyn_ode_step(o, grow, NULL, hm, &taken), MAGDYN_OK);
        ck_assert(taken == hm);
    }
    ck_assert_int_eq(magdyn_ode_get_stats(o, &st), MAGDYN_OK);
    ck_assert_int_eq(st.rejected, 0);
    ck_assert_int_eq(st.steps, nsteps);
    h = fabs(magdyn_ode_state(o)[0] - exp(magdyn_ode_time(o)));
    magdyn_ode_free(o);
    return h;
}

START_TEST(fifth_order)
{
    /* global error C h^5: halving h divides it by 2^5 = 32 */
    double e10 = growth_error(10), e20 = growth_error(20), e40 = growth_error(40);
    fprintf(stderr, "order: errors %.3g %.3g %.3g, ratios %.2f %.2f\n", e10, e20, e40,
            e10 / e20, e20 / e40);
    ck_assert_double_ge(e10 / e20, 20.0);
    ck_assert_double_le(e10 / e20, 50.0);
    ck_assert_double_ge(e20 / e40, 20.0);
    ck_assert_double_le(e20 / e40, 50.0);
}
END_TEST

/* |dense(1/2) - y(t0 + h/2)| after one step of h from y(t0) = e^-t0 of
 * y' = -y; checks the end points are the step's own. */
static double dense_error(double h)
{
    magdyn_ode *o = make(1, 0.5, 1e3);   /* loose: the first step is h */
    const double t0 = 0.25;
    double y0 = exp(-t0), d, taken;
    ck_assert_int_eq(magdyn_ode_set_state(o, 1, t0, &y0), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_step(o, decay, NULL, h, &taken), MAGDYN_OK);
    ck_assert(taken == h);
    ck_assert_int_eq(magdyn_ode_dense(o, 0.0, 0, 1, &d), MAGDYN_OK);
    ck_assert(memcmp(&d, &y0, sizeof d) == 0);
    ck_assert_int_eq(magdyn_ode_dense(o, 1.0, 0, 1, &d), MAGDYN_OK);
    ck_assert(memcmp(&d, magdyn_ode_state(o), sizeof d) == 0);
    ck_assert_int_eq(magdyn_ode_dense(o, 0.5, 0, 1, &d), MAGDYN_OK);
    d = fabs(d - exp(-(t0 + 0.5 * h)));
    magdyn_ode_free(o);
    return d;
}

START_TEST(dense_output)
{
    /* 4th-order interpolant: error O(h^5) inside the step, so halving h
       divides it by about 32 (at least 16 for order 4); at h = 0.2 the
       Taylor term h^5 / 5! max|y^(5)| < 2.7e-6 serves as the yardstick */
    double e4 = dense_error(0.4), e2 = dense_error(0.2);
    int n = 3, i;
    magdyn_ode *o = make(3, 1e-8, 1e-12);
    double y0[3] = {1.0, 0.0, 2.0}, all[3], part[2];
    fprintf(stderr, "dense: errors %.3g %.3g, ratio %.2f\n", e4, e2, e4 / e2);
    ck_assert_double_le(e2, 2.6e-6);
    ck_assert_double_ge(e4 / e2, 16.0);
    ck_assert_double_le(e4 / e2, 64.0);
    /* a component range gives the same numbers as the whole state */
    ck_assert_int_eq(magdyn_ode_set_state(o, 3, 0.0, y0), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_dense(o, 0.5, 0, 3, all), MAGDYN_ESTATE);
    ck_assert_int_eq(magdyn_ode_step(o, osc, &n, 1.0, NULL), MAGDYN_OK);
    for (i = 0; i <= 4; i++) {
        double th = 0.25 * i;
        ck_assert_int_eq(magdyn_ode_dense(o, th, 0, 3, all), MAGDYN_OK);
        ck_assert_int_eq(magdyn_ode_dense(o, th, 1, 2, part), MAGDYN_OK);
        ck_assert(all[1] == part[0] && all[2] == part[1]);
    }
    ck_assert_int_eq(magdyn_ode_dense(o, 0.5, 1, 0, part), MAGDYN_OK);
    magdyn_ode_free(o);
}
END_TEST

START_TEST(cut_and_continue)
{
    magdyn_ode *o = make(1, 1e-10, 1e-14);
    magdyn_ode_stats a, b;
    double y0 = 1.0, d, h, t0, yend, tend;
    ck_assert_int_eq(magdyn_ode_set_state(o, 1, 0.0, &y0), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_step(o, decay, NULL, 1.0, NULL), MAGDYN_OK);
    t0 = magdyn_ode_time(o);
    ck_assert_int_eq(magdyn_ode_step(o, decay, NULL, 1.0, &h), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_dense(o, 0.3, 0, 1, &d), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_cut(o, 0.3), MAGDYN_OK);
    ck_assert(magdyn_ode_time(o) == t0 + 0.3 * h);
    ck_assert(memcmp(magdyn_ode_state(o), &d, sizeof d) == 0);
    /* the step is gone */
    ck_assert_int_eq(magdyn_ode_dense(o, 0.3, 0, 1, &d), MAGDYN_ESTATE);
    ck_assert_int_eq(magdyn_ode_cut(o, 0.5), MAGDYN_ESTATE);
    /* stepping on reaches the exact solution: 10 rtol per unit time */
    ck_assert_int_eq(run_to(o, decay, NULL, 3.0), MAGDYN_OK);
    ck_assert_double_le(fabs(magdyn_ode_state(o)[0] - exp(-magdyn_ode_time(o))),
                        30 * 1e-10 * exp(-3.0));
    /* theta = 0 goes back to the step's start exactly */
    yend = magdyn_ode_state(o)[0];
    tend = magdyn_ode_time(o);
    ck_assert_int_eq(magdyn_ode_step(o, decay, NULL, 1.0, NULL), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_cut(o, 0.0), MAGDYN_OK);
    ck_assert(magdyn_ode_time(o) == tend && magdyn_ode_state(o)[0] == yend);
    /* theta = 1 keeps the end and the stored derivative: the next step
       costs 6 evaluations */
    ck_assert_int_eq(magdyn_ode_step(o, decay, NULL, 1.0, NULL), MAGDYN_OK);
    tend = magdyn_ode_time(o);
    yend = magdyn_ode_state(o)[0];
    ck_assert_int_eq(magdyn_ode_cut(o, 1.0), MAGDYN_OK);
    ck_assert(magdyn_ode_time(o) == tend && magdyn_ode_state(o)[0] == yend);
    ck_assert_int_eq(magdyn_ode_get_stats(o, &a), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_step(o, decay, NULL, 1.0, NULL), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_get_stats(o, &b), MAGDYN_OK);
    ck_assert_int_eq(b.rejected, a.rejected);
    ck_assert_int_eq(b.evals - a.evals, 6);
    magdyn_ode_free(o);
}
END_TEST

/* Steps once and returns the evaluations it cost; asserts no rejection. */
static long long step_evals(magdyn_ode *o, int *n)
{
    magdyn_ode_stats a, b;
    ck_assert_int_eq(magdyn_ode_get_stats(o, &a), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_step(o, osc, n, 1.0, NULL), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_get_stats(o, &b), MAGDYN_OK);
    ck_assert_int_eq(b.rejected, a.rejected);
    ck_assert_int_eq(b.steps, a.steps + 1);
    return b.evals - a.evals;
}

START_TEST(fsal_counts)
{
    int n = 2;
    magdyn_ode *o = make(2, 1e-9, 1e-12);
    double y0[2] = {1.0, 0.0};
    ck_assert_int_eq(magdyn_ode_set_state(o, 2, 0.0, y0), MAGDYN_OK);
    /* f(y), the starting-step probe, 6 stages */
    ck_assert_int_eq(step_evals(o, &n), 8);
    ck_assert_int_eq(step_evals(o, &n), 6);
    ck_assert_int_eq(step_evals(o, &n), 6);
    /* a new state: f(y) again, the proposed step is kept */
    ck_assert_int_eq(magdyn_ode_set_state(o, 2, magdyn_ode_time(o), magdyn_ode_state(o)),
                     MAGDYN_OK);
    ck_assert_int_eq(step_evals(o, &n), 7);
    ck_assert_int_eq(step_evals(o, &n), 6);
    magdyn_ode_reset_step(o);
    ck_assert_int_eq(step_evals(o, &n), 7);
    magdyn_ode_free(o);
}
END_TEST

START_TEST(rhs_error_is_returned)
{
    /* a failure at each evaluation of a first step (f(y), the probe, the
       six stages) and of a later one: status returned, nothing moved, and
       the step then taken equals the one of an integrator that never failed */
    int call;
    for (call = 1; call <= 14; call++) {
        failing fl = {2, 0, 0}, ok = {2, 0, 0};
        magdyn_ode *o = make(2, 1e-9, 1e-12), *r = make(2, 1e-9, 1e-12);
        double y0[2] = {0.3, -0.7}, ys[2], ts, d[2];
        int later = call > 8;
        ck_assert_int_eq(magdyn_ode_set_state(o, 2, 1.0, y0), MAGDYN_OK);
        ck_assert_int_eq(magdyn_ode_set_state(r, 2, 1.0, y0), MAGDYN_OK);
        if (later) {
            ck_assert_int_eq(magdyn_ode_step(o, osc_failing, &fl, 0.5, NULL), MAGDYN_OK);
            ck_assert_int_eq(magdyn_ode_step(r, osc_failing, &ok, 0.5, NULL), MAGDYN_OK);
        }
        memcpy(ys, magdyn_ode_state(o), sizeof ys);
        ts = magdyn_ode_time(o);
        fl.fail_at = fl.calls + (later ? call - 8 : call);
        ck_assert_int_eq(magdyn_ode_step(o, osc_failing, &fl, 0.5, NULL), MAGDYN_ERANGE);
        ck_assert(magdyn_ode_time(o) == ts);
        ck_assert(memcmp(magdyn_ode_state(o), ys, sizeof ys) == 0);
        ck_assert_int_eq(magdyn_ode_size(o), 2);
        /* the previous step's dense output stays */
        ck_assert_int_eq(magdyn_ode_dense(o, 1.0, 0, 2, d), later ? MAGDYN_OK : MAGDYN_ESTATE);
        ck_assert_int_eq(magdyn_ode_step(o, osc_failing, &fl, 0.5, NULL), MAGDYN_OK);
        ck_assert_int_eq(magdyn_ode_step(r, osc_failing, &ok, 0.5, NULL), MAGDYN_OK);
        ck_assert(magdyn_ode_time(o) == magdyn_ode_time(r));
        ck_assert(memcmp(magdyn_ode_state(o), magdyn_ode_state(r), sizeof ys) == 0);
        magdyn_ode_free(o);
        magdyn_ode_free(r);
    }
}
END_TEST

START_TEST(singular_rhs_stops)
{
    /* y' = y^2, y(0) = 1: y = 1/(1 - t) leaves every bound before t = 1.
       The integrator's blow-up time t* is 1 up to the global error in 1/y,
       which is linear in t (d(1/y)/dt = -1) and collects about rtol per
       unit time; the steps shrink like t* - t until below 1e-15 */
    magdyn_ode *o = make(1, 1e-9, 1e-12);
    double y0 = 1.0, tb = 0.0, yb = 0.0;
    long k;
    magdyn_status s = MAGDYN_OK;
    ck_assert_int_eq(magdyn_ode_set_state(o, 1, 0.0, &y0), MAGDYN_OK);
    for (k = 0; k < 1000000 && s == MAGDYN_OK; k++) {
        tb = magdyn_ode_time(o);
        yb = magdyn_ode_state(o)[0];
        s = magdyn_ode_step(o, square, NULL, 10.0, NULL);
    }
    fprintf(stderr, "singular: %ld steps, t = 1 - %.3g, y = %.3g\n", k,
            1.0 - magdyn_ode_time(o), magdyn_ode_state(o)[0]);
    ck_assert_int_eq(s, MAGDYN_ENOCONV);
    ck_assert(magdyn_ode_time(o) == tb && magdyn_ode_state(o)[0] == yb);
    ck_assert_double_lt(tb, 1.0);
    ck_assert_double_gt(tb, 1.0 - 100 * 1e-9);
    ck_assert(isfinite(yb) && yb > 1e3);
    magdyn_ode_free(o);
}
END_TEST

START_TEST(bad_input)
{
    magdyn_ode_params p = magdyn_ode_params_default(), q;
    magdyn_ode *o = (magdyn_ode *)&p, *a;
    magdyn_ode_stats st;
    double y0[2] = {1.0, 2.0}, bad[2] = {1.0, NAN}, d = 7.0, ys[2], t;
    int n = 2, i;
    ck_assert_int_eq(magdyn_ode_create(2, NULL, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_create(-1, NULL, &o), MAGDYN_EINVAL);
    ck_assert_ptr_null(o);
    for (i = 0; i < 9; i++) {
        q = p;
        switch (i) {
        case 0: q.rtol = 0.0; break;
        case 1: q.rtol = 1.0; break;
        case 2: q.rtol = NAN; break;
        case 3: q.atol = -1e-12; break;
        case 4: q.atol = INFINITY; break;
        case 5: q.max_step = 0.0; break;
        case 6: q.max_step = -1.0; break;
        case 7: q.max_step = INFINITY; break;
        default: q.max_step = NAN; break;
        }
        o = (magdyn_ode *)&p;
        ck_assert_int_eq(magdyn_ode_create(2, &q, &o), MAGDYN_EINVAL);
        ck_assert_ptr_null(o);
        ck_assert_int_eq(magdyn_ode_create(2, &p, &o), MAGDYN_OK);
        ck_assert_int_eq(magdyn_ode_set_params(o, &q), MAGDYN_EINVAL);
        magdyn_ode_free(o);
    }
    ck_assert_int_eq(magdyn_ode_create(2, NULL, &o), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_size(o), 2);
    ck_assert(magdyn_ode_time(o) == 0.0);
    ck_assert(magdyn_ode_state(o)[0] == 0.0 && magdyn_ode_state(o)[1] == 0.0);
    ck_assert_int_eq(magdyn_ode_set_params(o, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_set_params(NULL, &p), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_set_state(NULL, 2, 0.0, y0), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_set_state(o, -1, 0.0, y0), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_set_state(o, 2, 0.0, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_set_state(o, 2, NAN, y0), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_ode_set_state(o, 2, INFINITY, y0), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_ode_set_state(o, 2, 0.0, bad), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_ode_set_state(o, 1, 0.5, bad), MAGDYN_OK);   /* only y[0] read */
    ck_assert_int_eq(magdyn_ode_set_state(o, 2, 0.5, y0), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_step(o, osc, &n, 0.1, NULL), MAGDYN_OK);
    memcpy(ys, magdyn_ode_state(o), sizeof ys);
    t = magdyn_ode_time(o);
    ck_assert_int_eq(magdyn_ode_step(NULL, osc, &n, 0.1, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_step(o, NULL, &n, 0.1, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_step(o, osc, &n, 0.0, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_step(o, osc, &n, -0.1, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_step(o, osc, &n, NAN, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_dense(NULL, 0.5, 0, 1, &d), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_dense(o, 0.5, 0, 1, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_dense(o, -0.1, 0, 1, &d), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_dense(o, 1.1, 0, 1, &d), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_dense(o, NAN, 0, 1, &d), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_dense(o, 0.5, -1, 1, &d), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_dense(o, 0.5, 0, -1, &d), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_dense(o, 0.5, 1, 2, &d), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_dense(o, 0.5, 2, 1, &d), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_dense(o, 0.5, 1, INT_MAX, &d), MAGDYN_EINVAL);
    ck_assert(d == 7.0);
    ck_assert_int_eq(magdyn_ode_cut(NULL, 0.5), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_cut(o, -0.5), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_cut(o, 2.0), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_cut(o, NAN), MAGDYN_EINVAL);
    ck_assert(magdyn_ode_time(o) == t);
    ck_assert(memcmp(magdyn_ode_state(o), ys, sizeof ys) == 0);
    /* the step is still there after all that */
    ck_assert_int_eq(magdyn_ode_dense(o, 1.0, 1, 1, &d), MAGDYN_OK);
    ck_assert(d == ys[1]);
    ck_assert_int_eq(magdyn_ode_get_stats(NULL, &st), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_get_stats(o, NULL), MAGDYN_EINVAL);
    ck_assert_ptr_null(magdyn_ode_state(NULL));
    ck_assert(isnan(magdyn_ode_time(NULL)));
    ck_assert_int_eq(magdyn_ode_size(NULL), 0);
    magdyn_ode_reset_step(NULL);
    magdyn_ode_free(NULL);
    /* a state of n = 0 is valid: time just passes */
    ck_assert_int_eq(magdyn_ode_create(0, NULL, &a), MAGDYN_OK);
    ck_assert_int_eq(run_to(a, osc, &(int){0}, 0.25), MAGDYN_OK);
    ck_assert_double_eq_tol(magdyn_ode_time(a), 0.25, 1e-13);
    magdyn_ode_free(a);
    magdyn_ode_free(o);
}
END_TEST

START_TEST(state_size_changes)
{
    /* 2 -> 7 -> 1 -> 4 components: each run matches its exact solution */
    static const int sizes[4] = {2, 7, 1, 4};
    magdyn_ode *o = make(2, 1e-10, 1e-13);
    int k, i;
    for (k = 0; k < 4; k++) {
        int n = sizes[k];
        double y0[7], t0 = 0.5 * k, t;
        const double *y;
        for (i = 0; i < n; i++) y0[i] = 0.5 + 0.25 * i;
        ck_assert_int_eq(magdyn_ode_set_state(o, n, t0, y0), MAGDYN_OK);
        ck_assert_int_eq(magdyn_ode_size(o), n);
        ck_assert_int_eq(run_to(o, osc, &n, t0 + 2.0), MAGDYN_OK);
        t = magdyn_ode_time(o) - t0;
        y = magdyn_ode_state(o);
        for (i = 0; i + 1 < n; i += 2) {
            ck_assert_double_eq_tol(y[i], y0[i] * cos(t) + y0[i + 1] * sin(t), 1e-8);
            ck_assert_double_eq_tol(y[i + 1], y0[i + 1] * cos(t) - y0[i] * sin(t), 1e-8);
        }
        if (n % 2) ck_assert_double_eq_tol(y[n - 1], y0[n - 1] * exp(-t), 1e-8);
    }
    magdyn_ode_free(o);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ode");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, oscillator_ten_periods);
    tcase_add_test(tc, fifth_order);
    tcase_add_test(tc, dense_output);
    tcase_add_test(tc, cut_and_continue);
    tcase_add_test(tc, fsal_counts);
    tcase_add_test(tc, rhs_error_is_returned);
    tcase_add_test(tc, singular_rhs_stops);
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, state_size_changes);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
