/*
 * detmath_batch.h - private, layer 0: the natural logarithm and atan2 of
 * many arguments at once, for the closed forms of the cuboid potentials
 * and fields, which need a dozen of each per field point.
 *
 * The algorithms are fdlibm's (Sun Microsystems, 1993: e_log.c, s_atan.c
 * and e_atan2.c, their reductions and Remez coefficients), evaluated four
 * arguments a vector with the branches turned into lane selects.  Built
 * from +, -, *, / and bit moves only, with no contraction of a * b + c:
 * every lane gives the bits of the scalar md_log_fd / md_atan2_fd below,
 * whatever the vector width, the clone the processor selects, the
 * compiler, or the build (--enable-bitstable included).
 *
 * Accuracy (test_detmath): within 2 ulps of the host's libm (itself within
 * 1 ulp of the exact value) over the whole domain; special values (+-0,
 * +-inf, NaN, subnormals) as C11 Annex F (F.10.3.7, F.10.1.4) says.
 */
#ifndef MAGDYN_DETMATH_BATCH_H
#define MAGDYN_DETMATH_BATCH_H

/* ln x, one argument (the reference every lane of md_log_batch matches) */
double md_log_fd(double x);

/* atan2(y, x), one pair of arguments (the same for md_atan2_batch) */
double md_atan2_fd(double y, double x);

/* out[i] = ln x[i] for 0 <= i < n; out may be x */
void md_log_batch(const double *x, double *out, int n);

/* out[i] = atan2(y[i], x[i]) for 0 <= i < n; out may be y or x */
void md_atan2_batch(const double *y, const double *x, double *out, int n);

#endif
