/*
 * ode.c - adaptive Dormand-Prince 5(4) with dense output on a plain state
 * vector (see magdyn/ode.h).
 * Coefficients: Dormand and Prince, J. Comput. Appl. Math. 6 (1980) 19;
 * starting step, step-size control and the 4th-order continuous extension:
 * Hairer, Norsett and Wanner, "Solving ODEs I", 2nd ed., II.4-II.6 (their
 * DOPRI5 code, hinit and contd5).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "detmath.h"
#include <magdyn/ode.h>
#include "reserved.h"

/* Butcher tableau (table II.5.2); the system is autonomous, so the nodes
 * c2..c5 are not needed. */
static const double a21 = 1.0 / 5;
static const double a31 = 3.0 / 40, a32 = 9.0 / 40;
static const double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
static const double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561,
                    a54 = -212.0 / 729;
static const double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247,
                    a64 = 49.0 / 176, a65 = -5103.0 / 18656;
static const double a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192,
                    a75 = -2187.0 / 6784, a76 = 11.0 / 84;
/* the 5th-order solution minus the embedded 4th-order one */
static const double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920,
                    e5 = -17253.0 / 339200, e6 = 22.0 / 525, e7 = -1.0 / 40;
/* continuous extension (contd5) */
static const double d1 = -12715105075.0 / 11282082432.0, d3 = 87487479700.0 / 32700410799.0,
                    d4 = -10690763975.0 / 1880347072.0, d5 = 701980252875.0 / 199316789632.0,
                    d6 = -1453857185.0 / 822651844.0, d7 = 69997945.0 / 29380423.0;

/* Step-size control: safety factor, bounds of the change per step, and the
 * exponent 1/(q+1) for the embedded order q = 4. */
#define SAFETY 0.9
#define FAC_MIN 0.2
#define FAC_MAX 5.0
#define EXPO 0.2
/* Work vectors of n doubles: y, yn, yt, k[0..6], rc[0..4]. */
#define NVEC 15

struct magdyn_ode {
    magdyn_ode_params p;
    int n;
    double t;
    double h;          /* proposed step, 0: none (estimate one) */
    int fsal;          /* k[0] holds f(y) */
    int dense;         /* rc holds the last accepted step, which ended at (t, y) */
    double t0, hs;     /* start and length of that step */
    magdyn_ode_stats st;
    double *mem;       /* one block holding every work vector */
    double *y, *yn, *yt, *k[7];
    double *rc;        /* dense output: y0, ydiff, bspl, 2 more, n each */
};

magdyn_ode_params magdyn_ode_params_default(void)
{
    magdyn_ode_params p;
    memset(&p, 0, sizeof p);
    p.rtol = 1e-9;
    p.atol = 1e-12;
    p.max_step = 1e300;
    return p;
}

static int params_ok(const magdyn_ode_params *p)
{
    return p->rtol > 0 && p->rtol < 1 && p->atol >= 0 && isfinite(p->atol)
           && p->max_step > 0 && isfinite(p->max_step) && MAGDYN_RESERVED_OK(p);
}

/* A zeroed block for n components, NULL on failure (also when the size
 * overflows). */
static double *alloc_block(int n)
{
    size_t m = n > 0 ? (size_t)n : 1;
    if (m > SIZE_MAX / sizeof(double) / NVEC) return NULL;
    return calloc(NVEC * m, sizeof(double));
}

/* Points the work vectors into mem. */
static void carve(magdyn_ode *o, double *mem, int n)
{
    size_t m = (size_t)n;
    int i;
    o->mem = mem;
    o->n = n;
    o->y = mem;
    o->yn = mem + m;
    o->yt = mem + 2 * m;
    for (i = 0; i < 7; i++) o->k[i] = mem + (3 + (size_t)i) * m;
    o->rc = mem + 10 * m;
}

magdyn_status magdyn_ode_create(int n, const magdyn_ode_params *params, magdyn_ode **out)
{
    magdyn_ode *o;
    double *mem;
    if (!out) return MAGDYN_EINVAL;
    *out = NULL;
    if (n < 0 || (params && !params_ok(params))) return MAGDYN_EINVAL;
    o = calloc(1, sizeof *o);
    if (!o) return MAGDYN_ENOMEM;
    mem = alloc_block(n);
    if (!mem) {
        free(o);
        return MAGDYN_ENOMEM;
    }
    o->p = params ? *params : magdyn_ode_params_default();
    carve(o, mem, n);
    *out = o;
    return MAGDYN_OK;
}

void magdyn_ode_free(magdyn_ode *o)
{
    if (!o) return;
    free(o->mem);
    free(o);
}

magdyn_status magdyn_ode_set_params(magdyn_ode *o, const magdyn_ode_params *params)
{
    if (!o || !params || !params_ok(params)) return MAGDYN_EINVAL;
    o->p = *params;
    return MAGDYN_OK;
}

magdyn_status magdyn_ode_set_state(magdyn_ode *o, int n, double t, const double *y)
{
    int i;
    if (!o || n < 0 || (n > 0 && !y)) return MAGDYN_EINVAL;
    if (!isfinite(t)) return MAGDYN_ENONFINITE;
    for (i = 0; i < n; i++)
        if (!isfinite(y[i])) return MAGDYN_ENONFINITE;
    if (n != o->n) {
        double *mem = alloc_block(n);
        if (!mem) return MAGDYN_ENOMEM;
        free(o->mem);
        carve(o, mem, n);
    }
    if (n > 0) memcpy(o->y, y, (size_t)n * sizeof *y);
    o->t = t;
    o->fsal = 0;
    o->dense = 0;
    return MAGDYN_OK;
}

void magdyn_ode_reset_step(magdyn_ode *o)
{
    if (o) o->h = 0.0;
}

static magdyn_status eval(magdyn_ode *o, magdyn_ode_rhs f, void *user, const double *y,
                          double *dydt)
{
    o->st.evals++;
    return f(user, y, dydt);
}

/* sqrt(mean((v_i / (atol + rtol |y_i|))^2)), the norm of the starting-step
 * estimate; scaled by the largest term so that the squares do not overflow. */
static double rms_scaled(const magdyn_ode *o, const double *v)
{
    double s = 0.0, m = 0.0;
    int i;
    for (i = 0; i < o->n; i++) {
        double sc = o->p.atol + o->p.rtol * fabs(o->y[i]), r = sc > 0 ? fabs(v[i]) / sc : 0.0;
        if (isnan(r)) return r;
        if (r > m) m = r;
    }
    if (m == 0.0 || isinf(m)) return m;
    for (i = 0; i < o->n; i++) {
        double sc = o->p.atol + o->p.rtol * fabs(o->y[i]), r = sc > 0 ? fabs(v[i]) / sc / m : 0.0;
        s += r * r;
    }
    return m * sqrt(s / o->n);
}

/* Starting step (HNW II.4, "starting step size"), with k[0] = f(y): an
 * explicit Euler probe of length h0 <= hcap estimates the second derivative;
 * the result makes the local error of order 4 about 0.01 (scaled). */
static magdyn_status initial_step(magdyn_ode *o, magdyn_ode_rhs f, void *user, double hcap,
                                  double *h_out)
{
    double d0 = rms_scaled(o, o->y), dd1 = rms_scaled(o, o->k[0]), dd2, h0, h1;
    magdyn_status s;
    int i;
    h0 = (d0 < 1e-5 || dd1 < 1e-5) ? 1e-6 : 0.01 * d0 / dd1;
    if (!(h0 <= hcap)) h0 = hcap;
    for (i = 0; i < o->n; i++) o->yt[i] = o->y[i] + h0 * o->k[0][i];
    if ((s = eval(o, f, user, o->yt, o->k[1])) != MAGDYN_OK) return s;
    for (i = 0; i < o->n; i++) o->yn[i] = o->k[1][i] - o->k[0][i];
    dd2 = rms_scaled(o, o->yn) / h0;
    h1 = fmax(dd1, dd2) <= 1e-15 ? fmax(1e-6, h0 * 1e-3) : md_pow(0.01 / fmax(dd1, dd2), EXPO);
    *h_out = fmin(fmin(100 * h0, h1), o->p.max_step);
    return MAGDYN_OK;
}

/* One trial step of length h from y with k[0] = f(y): yn, k[1..6] (k[6] =
 * f(yn)) and *err, the largest |error_i| / (atol + rtol max(|y_i|, |yn_i|))
 * (infinite when the error is NaN, so the step is rejected). */
static magdyn_status trial(magdyn_ode *o, magdyn_ode_rhs f, void *user, double h, double *err)
{
    double *const *k = o->k, *yt = o->yt, *yn = o->yn;
    const double *y = o->y;
    double e = 0.0;
    int n = o->n, i;
    magdyn_status s;
    for (i = 0; i < n; i++) yt[i] = y[i] + h * a21 * k[0][i];
    if ((s = eval(o, f, user, yt, k[1])) != MAGDYN_OK) return s;
    for (i = 0; i < n; i++) yt[i] = y[i] + h * (a31 * k[0][i] + a32 * k[1][i]);
    if ((s = eval(o, f, user, yt, k[2])) != MAGDYN_OK) return s;
    for (i = 0; i < n; i++) yt[i] = y[i] + h * (a41 * k[0][i] + a42 * k[1][i] + a43 * k[2][i]);
    if ((s = eval(o, f, user, yt, k[3])) != MAGDYN_OK) return s;
    for (i = 0; i < n; i++)
        yt[i] = y[i] + h * (a51 * k[0][i] + a52 * k[1][i] + a53 * k[2][i] + a54 * k[3][i]);
    if ((s = eval(o, f, user, yt, k[4])) != MAGDYN_OK) return s;
    for (i = 0; i < n; i++)
        yt[i] = y[i] + h * (a61 * k[0][i] + a62 * k[1][i] + a63 * k[2][i] + a64 * k[3][i]
                            + a65 * k[4][i]);
    if ((s = eval(o, f, user, yt, k[5])) != MAGDYN_OK) return s;
    for (i = 0; i < n; i++)
        yn[i] = y[i] + h * (a71 * k[0][i] + a73 * k[2][i] + a74 * k[3][i] + a75 * k[4][i]
                            + a76 * k[5][i]);
    if ((s = eval(o, f, user, yn, k[6])) != MAGDYN_OK) return s;
    for (i = 0; i < n; i++) {
        double d = h * (e1 * k[0][i] + e3 * k[2][i] + e4 * k[3][i] + e5 * k[4][i]
                        + e6 * k[5][i] + e7 * k[6][i]);
        double sc = o->p.atol + o->p.rtol * fmax(fabs(y[i]), fabs(yn[i]));
        double r = sc > 0 ? fabs(d) / sc : (d != 0 ? INFINITY : 0.0);
        if (!(r <= e)) e = isnan(r) ? INFINITY : r;
    }
    *err = e;
    return MAGDYN_OK;
}

/* Coefficients of the dense output of the step of length h just accepted
 * (from y to yn), into rc. */
static void dense_prepare(magdyn_ode *o, double h)
{
    double *const *k = o->k, *rc = o->rc;
    const double *y = o->y, *yn = o->yn;
    size_t n = (size_t)o->n, i;
    for (i = 0; i < n; i++) {
        double ydiff = yn[i] - y[i], bspl = h * k[0][i] - ydiff;
        rc[i] = y[i];
        rc[n + i] = ydiff;
        rc[2 * n + i] = bspl;
        rc[3 * n + i] = ydiff - h * k[6][i] - bspl;
        rc[4 * n + i] = h * (d1 * k[0][i] + d3 * k[2][i] + d4 * k[3][i] + d5 * k[4][i]
                             + d6 * k[5][i] + d7 * k[6][i]);
    }
}

/* The accepted step becomes the current state: y <-> yn, and f(yn), the
 * last stage, is the next step's first (FSAL). */
static void accept(magdyn_ode *o, double h)
{
    double *tmp = o->y;
    dense_prepare(o, h);
    o->y = o->yn;
    o->yn = tmp;
    tmp = o->k[0];
    o->k[0] = o->k[6];
    o->k[6] = tmp;
    o->t0 = o->t;
    o->hs = h;
    o->t += h;
    o->dense = 1;
    o->st.steps++;
}

magdyn_status magdyn_ode_step(magdyn_ode *o, magdyn_ode_rhs f, void *user, double h_max,
                              double *h_taken)
{
    double h, err = 0.0, hmin, fac, hn;
    int limited;
    magdyn_status s;
    if (!o || !f || !(h_max > 0)) return MAGDYN_EINVAL;
    if (!o->fsal) {
        if ((s = eval(o, f, user, o->y, o->k[0])) != MAGDYN_OK) return s;
        o->fsal = 1;
    }
    if (!(o->h > 0)) {
        if ((s = initial_step(o, f, user, fmin(h_max, o->p.max_step), &h)) != MAGDYN_OK)
            return s;
        /* no estimate: the derivative is not finite or blows up at once */
        if (!(h > 0)) return MAGDYN_ENOCONV;
        o->h = h;
    }
    /* below hmin a step hardly moves time on: error control that gets there
       faces a singular or very stiff right-hand side and would not return.
       A short step the caller asks for with h_max is taken as it is. */
    hmin = 1e-15 * fmax(1.0, fabs(o->t));
    h = fmin(o->h, o->p.max_step);
    limited = h_max < h;
    if (limited) h = h_max;
    else if (!(h > hmin)) return MAGDYN_ENOCONV;
    for (;;) {
        if ((s = trial(o, f, user, h, &err)) != MAGDYN_OK) return s;
        if (err <= 1.0) break;
        o->st.rejected++;
        fac = SAFETY * md_pow(err, -EXPO);
        h *= fac < FAC_MIN ? FAC_MIN : fac;
        limited = 0;
        if (!(h > hmin)) return MAGDYN_ENOCONV;
    }
    fac = err > 0 ? SAFETY * md_pow(err, -EXPO) : FAC_MAX;
    fac = fac > FAC_MAX ? FAC_MAX : fac < FAC_MIN ? FAC_MIN : fac;
    hn = fmin(h * fac, o->p.max_step);
    /* a step cut short by h_max says little about the step the error allows */
    o->h = limited ? fmax(o->h, hn) : hn;
    accept(o, h);
    if (h_taken) *h_taken = h;
    return MAGDYN_OK;
}

/* y(t0 + theta hs), components from..from+count-1: the end points are
 * copied, so they are exact. */
static void dense_eval(const magdyn_ode *o, double theta, int from, int count, double *out)
{
    const double *rc = o->rc;
    size_t n = (size_t)o->n;
    double t1 = 1.0 - theta;
    int i;
    if (theta == 1.0) {
        memmove(out, o->y + from, (size_t)count * sizeof *out);
        return;
    }
    if (theta == 0.0) {
        memmove(out, rc + from, (size_t)count * sizeof *out);
        return;
    }
    for (i = from; i < from + count; i++)
        out[i - from] = rc[i] + theta * (rc[n + i] + t1 * (rc[2 * n + i]
                        + theta * (rc[3 * n + i] + t1 * rc[4 * n + i])));
}

magdyn_status magdyn_ode_dense(const magdyn_ode *o, double theta, int from, int count,
                               double *out)
{
    if (!o || !out || !(theta >= 0.0 && theta <= 1.0)) return MAGDYN_EINVAL;
    if (from < 0 || count < 0 || from > o->n - count) return MAGDYN_EINVAL;
    if (!o->dense) return MAGDYN_ESTATE;
    dense_eval(o, theta, from, count, out);
    return MAGDYN_OK;
}

magdyn_status magdyn_ode_cut(magdyn_ode *o, double theta)
{
    if (!o || !(theta >= 0.0 && theta <= 1.0)) return MAGDYN_EINVAL;
    if (!o->dense) return MAGDYN_ESTATE;
    o->dense = 0;
    if (theta == 1.0) return MAGDYN_OK;   /* already at the end; f(y) still holds */
    dense_eval(o, theta, 0, o->n, o->y);
    o->t = o->t0 + theta * o->hs;
    o->fsal = 0;
    return MAGDYN_OK;
}

const double *magdyn_ode_state(const magdyn_ode *o)
{
    return o ? o->y : NULL;
}

double magdyn_ode_time(const magdyn_ode *o)
{
    return o ? o->t : NAN;
}

int magdyn_ode_size(const magdyn_ode *o)
{
    return o ? o->n : 0;
}

magdyn_status magdyn_ode_get_stats(const magdyn_ode *o, magdyn_ode_stats *out)
{
    if (!o || !out) return MAGDYN_EINVAL;
    *out = o->st;
    return MAGDYN_OK;
}
