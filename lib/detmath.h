/*
 * detmath.h - private, layer 0: the elementary functions the library uses,
 * as md_sin, md_cos, md_atan, md_atan2, md_exp, md_log, md_log1p, md_pow,
 * md_asinh and md_hypot.
 *
 * By default each is the C library's function, so the library's results
 * are those of the host's libm.  Configured with --enable-bitstable
 * (MAGDYN_BITSTABLE in config.h) each is the library's own md_det_
 * function below, built from +, -, *, /, sqrt (correctly rounded in IEEE
 * 754) and exact operations (frexp, floor, fmod, fabs, copysign, bit
 * moves) only: the same bits on every machine whose doubles are IEEE 754
 * binary64 evaluated in double (FLT_EVAL_METHOD 0) and whose compiler does
 * not contract a * b + c (-ffp-contract=off).  magdyn(7), REPRODUCIBILITY.
 *
 * The md_det_ functions are always built, so the tests can measure them
 * against libm in either configuration.  Their accuracy (test_detmath):
 * within 2 ulps of the exact value over the whole domain (sin and cos for
 * |x| <= 2^29; beyond that they stay deterministic but lose accuracy, as
 * the argument reduction is Cody-Waite's, not Payne-Hanek's), special values
 * (+-0, +-inf, NaN, subnormals) as C11 Annex F says; sin is exactly odd and
 * cos exactly even for every x.
 */
#ifndef MAGDYN_DETMATH_H
#define MAGDYN_DETMATH_H

#include <math.h>
#include "bitstable.h"

double md_det_sin(double x);
double md_det_cos(double x);
double md_det_atan(double x);
double md_det_atan2(double y, double x);
double md_det_exp(double x);
double md_det_log(double x);
double md_det_log1p(double x);
double md_det_pow(double x, double y);
double md_det_asinh(double x);
double md_det_hypot(double x, double y);

#if MAGDYN_BITSTABLE
static inline double md_sin(double x) { return md_det_sin(x); }
static inline double md_cos(double x) { return md_det_cos(x); }
static inline double md_atan(double x) { return md_det_atan(x); }
static inline double md_atan2(double y, double x) { return md_det_atan2(y, x); }
static inline double md_exp(double x) { return md_det_exp(x); }
static inline double md_log(double x) { return md_det_log(x); }
static inline double md_log1p(double x) { return md_det_log1p(x); }
static inline double md_pow(double x, double y) { return md_det_pow(x, y); }
static inline double md_asinh(double x) { return md_det_asinh(x); }
static inline double md_hypot(double x, double y) { return md_det_hypot(x, y); }
#else
static inline double md_sin(double x) { return sin(x); }
static inline double md_cos(double x) { return cos(x); }
static inline double md_atan(double x) { return atan(x); }
static inline double md_atan2(double y, double x) { return atan2(y, x); }
static inline double md_exp(double x) { return exp(x); }
static inline double md_log(double x) { return log(x); }
static inline double md_log1p(double x) { return log1p(x); }
static inline double md_pow(double x, double y) { return pow(x, y); }
static inline double md_asinh(double x) { return asinh(x); }
static inline double md_hypot(double x, double y) { return hypot(x, y); }
#endif

#endif
