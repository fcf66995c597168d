/*
 * rk.c - Dormand-Prince 5(4) with dense output (see world_impl.h).
 * Coefficients: Dormand and Prince, J. Comput. Appl. Math. 6 (1980) 19;
 * dense output: Hairer, Norsett, Wanner, DOPRI5 (contd5), 4th order.
 */
#include <math.h>
#include "world_impl.h"

static const double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
static const double a21 = 1.0 / 5;
static const double a31 = 3.0 / 40, a32 = 9.0 / 40;
static const double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
static const double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561,
                    a54 = -212.0 / 729;
static const double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247,
                    a64 = 49.0 / 176, a65 = -5103.0 / 18656;
static const double a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192,
                    a75 = -2187.0 / 6784, a76 = 11.0 / 84;
static const double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920,
                    e5 = -17253.0 / 339200, e6 = 22.0 / 525, e7 = -1.0 / 40;
static const double d1 = -12715105075.0 / 11282082432.0, d3 = 87487479700.0 / 32700410799.0,
                    d4 = -10690763975.0 / 1880347072.0, d5 = 701980252875.0 / 199316789632.0,
                    d6 = -1453857185.0 / 822651844.0, d7 = 69997945.0 / 29380423.0;

magdyn_status magdyn_wi_rk_try(double *const k[7], double *yt, double *yn, const double *y,
                               int n, double h, double rtol, double atol, magdyn_wi_rhs f,
                               void *ctx, double *err)
{
    magdyn_status s;
    double e = 0.0;
    int i;
    (void)c2; (void)c3; (void)c4; (void)c5;   /* autonomous: the nodes only document */
    for (i = 0; i < n; i++) yt[i] = y[i] + h * a21 * k[0][i];
    if ((s = f(ctx, yt, k[1])) != MAGDYN_OK) return s;
    for (i = 0; i < n; i++) yt[i] = y[i] + h * (a31 * k[0][i] + a32 * k[1][i]);
    if ((s = f(ctx, yt, k[2])) != MAGDYN_OK) return s;
    for (i = 0; i < n; i++) yt[i] = y[i] + h * (a41 * k[0][i] + a42 * k[1][i] + a43 * k[2][i]);
    if ((s = f(ctx, yt, k[3])) != MAGDYN_OK) return s;
    for (i = 0; i < n; i++)
        yt[i] = y[i] + h * (a51 * k[0][i] + a52 * k[1][i] + a53 * k[2][i] + a54 * k[3][i]);
    if ((s = f(ctx, yt, k[4])) != MAGDYN_OK) return s;
    for (i = 0; i < n; i++)
        yt[i] = y[i] + h * (a61 * k[0][i] + a62 * k[1][i] + a63 * k[2][i] + a64 * k[3][i]
                            + a65 * k[4][i]);
    if ((s = f(ctx, yt, k[5])) != MAGDYN_OK) return s;
    for (i = 0; i < n; i++)
        yn[i] = y[i] + h * (a71 * k[0][i] + a73 * k[2][i] + a74 * k[3][i] + a75 * k[4][i]
                            + a76 * k[5][i]);
    if ((s = f(ctx, yn, k[6])) != MAGDYN_OK) return s;
    for (i = 0; i < n; i++) {
        double d = h * (e1 * k[0][i] + e3 * k[2][i] + e4 * k[3][i] + e5 * k[4][i]
                        + e6 * k[5][i] + e7 * k[6][i]);
        double sc = atol + rtol * fmax(fabs(y[i]), fabs(yn[i]));
        double r = sc > 0 ? fabs(d) / sc : (d != 0 ? INFINITY : 0.0);
        if (!(r <= e)) e = isnan(r) ? INFINITY : r;   /* NaN: reject the step */
    }
    *err = e;
    return MAGDYN_OK;
}

void magdyn_wi_rk_dense_prepare(double *const k[7], const double *y, const double *yn,
                                int n, double h, double *rc)
{
    int i;
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

void magdyn_wi_rk_dense(const double *rc, int n, double theta, int from, int count, double *out)
{
    double t1 = 1.0 - theta;
    int i;
    for (i = from; i < from + count; i++)
        out[i - from] = rc[i] + theta * (rc[n + i] + t1 * (rc[2 * n + i]
                        + theta * (rc[3 * n + i] + t1 * rc[4 * n + i])));
}
