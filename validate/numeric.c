/* numeric.c - small numerics of the validation: Carlson's elliptic
 * integral R_F, the complete integral K, a random generator, block means. */
#include <math.h>
#include "validate.h"

/* Carlson (1995), Numer. Algorithms 10, 13: duplication until the
 * arguments agree to 1e-4 (error ~ 1e-24), then the series to fifth order. */
double vd_carlson_rf(double x, double y, double z)
{
    int i;
    for (i = 0; i < 100; i++) {
        double sx = sqrt(x), sy = sqrt(y), sz = sqrt(z);
        double lam = sx * sy + sy * sz + sz * sx, mu = (x + y + z) / 3;
        double dx = 1 - x / mu, dy = 1 - y / mu, dz = 1 - z / mu;
        if (fmax(fabs(dx), fmax(fabs(dy), fabs(dz))) < 1e-4) {
            double e2 = dx * dy - dz * dz, e3 = dx * dy * dz;
            return (1 - e2 / 10 + e3 / 14 + e2 * e2 / 24 - 3 * e2 * e3 / 44) / sqrt(mu);
        }
        x = (x + lam) / 4;
        y = (y + lam) / 4;
        z = (z + lam) / 4;
    }
    return NAN;
}

double vd_ellip_k(double kc2)
{
    return vd_carlson_rf(0, kc2, 1);
}

unsigned long long vd_rng_next(unsigned long long *s)
{
    unsigned long long x = *s;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    *s = x;
    return x * 2685821657736338717ULL;
}

double vd_uniform(unsigned long long *s)
{
    return (double)(vd_rng_next(s) >> 11) / 9007199254740992.0;
}

double vd_gauss(unsigned long long *s)
{
    double u = 1 - vd_uniform(s), v = vd_uniform(s);
    return sqrt(-2 * log(u)) * cos(2 * 3.14159265358979323846 * v);
}

/* The draws are separate statements: the order of a call's arguments is
 * unspecified in C, and gcc and clang differ in it. */
magdyn_vec2 vd_gauss_pair(double scale, unsigned long long *s)
{
    double gy = vd_gauss(s), gx = vd_gauss(s);
    return magdyn_v2(scale * gx, scale * gy);
}

void vd_mean_err(const double *x, int n, double *mean, double *err)
{
    double s = 0, s2 = 0;
    int i;
    for (i = 0; i < n; i++) s += x[i];
    s /= n;
    for (i = 0; i < n; i++) s2 += (x[i] - s) * (x[i] - s);
    *mean = s;
    *err = n > 1 ? sqrt(s2 / ((double)n * (n - 1))) : INFINITY;
}
