/*
 * fuzz/fuzz_util.h - byte reader shared by the libFuzzer targets.
 * Doubles come straight from the input bytes (any bit pattern: NaN, Inf,
 * denormals, huge), so valid seeds are plain little arrays of doubles.
 * Past the end of the input every read gives 0.
 */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

typedef struct { const uint8_t *p; size_t n; } fz_in;

static inline double fz_double(fz_in *in)
{
    double d = 0.0;
    if (in->n >= sizeof d) {
        memcpy(&d, in->p, sizeof d);
        in->p += sizeof d;
        in->n -= sizeof d;
    } else {
        in->n = 0;
    }
    return d;
}

static inline unsigned fz_byte(fz_in *in)
{
    if (in->n == 0) return 0;
    in->n--;
    return *in->p++;
}

/* A broken invariant: report and abort so libFuzzer keeps the input. */
#define FZ_ASSERT(c) do { if (!(c)) { \
    fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #c); \
    abort(); } } while (0)

/* Bitwise equality, so NaN payloads compare too ("untouched"). */
#define FZ_SAME(a, b) (memcmp(&(a), &(b), sizeof(a)) == 0)

static inline int fz_unit_or_bad(double x, double y, double z)
{
    double n = sqrt(x * x + y * y + z * z);
    return fabs(n - 1.0) < 1e-9;
}
#endif
