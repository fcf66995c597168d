/*
 * bench/dipole_sum.c - pair interactions per second of magdyn_dipoles_interact
 * for N = 10 ... 10^4, against the floating-point peak of this CPU.
 *
 * The nominal peak is derived from /proc/cpuinfo: vector width in doubles
 * from the flags (avx512f 8, avx2 4, else 2), times 2 flops a fused
 * multiply-add, times 2 FMA units (every x86-64 core since Haswell and Zen
 * has two; cpuinfo does not say, so this is assumed; Zen 4 splits a
 * 512-bit FMA over its two 256-bit units and then peaks at half this),
 * times the clock ("cpu MHz": the nominal clock in a VM, boost ignored).
 * The peak is also measured (independent multiply-add chains on SSE2 and
 * AVX2 vectors, separate mul and add, and fused on AVX-512), so the pair
 * kernel's rate can be read against both.  Flops per pair are counted from the kernel
 * (lib/dipole_sum.c) as 70, with the sqrt and the division counted as one
 * each (they cost far more: that is most of the gap to the peak).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <magdyn.h>

#define FLOPS_PER_PAIR 70.0

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/*
 * Multiply-add throughput with CHAINS independent vector chains (enough to
 * cover the latency of the multiply and add pipes; separate mul and add, so
 * no FMA contraction is needed to reach the pipes' peak): once for the
 * baseline x86-64 vectors (SSE2, 2 doubles) and once for AVX2 (4 doubles,
 * the width the kernel's x86-64-v3 clone uses).
 */
#define CHAINS 14
#if defined(__GNUC__)
typedef double v2d __attribute__((vector_size(16)));
static double run_sse2(long n)
{
    v2d a[CHAINS], m = {0.999999, 0.999999}, c = {1e-7, 1e-7};
    long i;
    int l;
    double s = 0;
    for (l = 0; l < CHAINS; l++) { v2d z = {l, l}; a[l] = z; }
    for (i = 0; i < n; i++)
        for (l = 0; l < CHAINS; l++) a[l] = a[l] * m + c;
    for (l = 0; l < CHAINS; l++) s += a[l][0] + a[l][1];
    return s;
}
#if defined(__x86_64__)
typedef double v4d __attribute__((vector_size(32)));
__attribute__((target("avx2"))) static double run_avx2(long n)
{
    v4d a[CHAINS], m = {0.999999, 0.999999, 0.999999, 0.999999}, c = {1e-7, 1e-7, 1e-7, 1e-7};
    long i;
    int l;
    double s = 0;
    for (l = 0; l < CHAINS; l++) { v4d z = {l, l, l, l}; a[l] = z; }
    for (i = 0; i < n; i++)
        for (l = 0; l < CHAINS; l++) a[l] = a[l] * m + c;
    for (l = 0; l < CHAINS; l++) s += a[l][0] + a[l][3];
    return s;
}
typedef double v8d __attribute__((vector_size(64)));
/* fused: GCC contracts a * m + c to an FMA where the target has one */
__attribute__((target("avx512f,fma"))) static double run_avx512(long n)
{
    v8d a[CHAINS], m, c;
    long i;
    int l, k;
    double s = 0;
    for (k = 0; k < 8; k++) { m[k] = 0.999999; c[k] = 1e-7; }
    for (l = 0; l < CHAINS; l++) for (k = 0; k < 8; k++) a[l][k] = l;
    for (i = 0; i < n; i++)
        for (l = 0; l < CHAINS; l++) a[l] = a[l] * m + c;
    for (l = 0; l < CHAINS; l++) s += a[l][0] + a[l][7];
    return s;
}
#endif
#endif

/* best of three runs, GFLOP/s; width 2, 4 or 8 doubles; 0 when not measurable */
static double peak_gflops(int width)
{
    long n = 10000000;
    double best = 0, t0, s = 0;
    int rep;
    for (rep = 0; rep < 3; rep++) {
        t0 = now();
#if defined(__GNUC__)
        if (width == 2) s += run_sse2(n);
#if defined(__x86_64__)
        else if (width == 4 && __builtin_cpu_supports("avx2")) s += run_avx2(n);
        else if (width == 8 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma"))
            s += run_avx512(n);
#endif
        else return 0;
#else
        return 0;
#endif
        t0 = now() - t0;
        if (2.0 * width * CHAINS * n / t0 * 1e-9 > best) best = 2.0 * width * CHAINS * n / t0 * 1e-9;
    }
    if (s == 42.0) printf("!");   /* keep the loops */
    return best;
}

/* vector width in doubles from the flags of /proc/cpuinfo: 8, 4 or 2 */
static int cpu_width(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    int w = 2;
    if (!f) return 2;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "flags", 5)) {
            if (strstr(line, " avx512f")) w = 8;
            else if (strstr(line, " avx2") && strstr(line, " fma")) w = 4;
            break;
        }
    fclose(f);
    return w;
}

/* nominal clock [GHz] from /proc/cpuinfo (Linux), 0 when unknown */
static double clock_ghz(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    double mhz = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "cpu MHz : %lf", &mhz) == 1) break;
    fclose(f);
    return mhz * 1e-3;
}

int main(void)
{
    static const int sizes[] = {10, 30, 100, 300, 1000, 3000, 10000};
    double peak2 = peak_gflops(2), peak4 = peak_gflops(4), peak8 = peak_gflops(8);
    double ghz = clock_ghz(), nominal, peak;
    int width = cpu_width();
    unsigned k;
    nominal = width * 2.0 * 2.0 * ghz;
    printf("bench/dipole_sum: magdyn_dipoles_interact, all pairs (each counted from both ends)\n");
    printf("measured peak, one core: SSE2 mul+add %.2f, AVX2 mul+add %.2f, AVX-512 FMA %.2f GFLOP/s\n",
           peak2, peak4, peak8);
    if (ghz > 0)
        printf("nominal peak: %d doubles a vector (cpuinfo flags) x 2 flop an FMA x 2 FMA units "
               "x %.2f GHz (cpu MHz) = %.1f GFLOP/s per core\n", width, ghz, nominal);
    peak = nominal > 0 ? nominal : fmax(peak8, fmax(peak4, peak2));
    printf("%8s %14s %12s %10s %12s\n", "N", "pairs/s", "us/call", "GFLOP/s", "peak/x");
    for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k], i, reps = 0;
        magdyn_vec3 *p = malloc(sizeof *p * (size_t)n), *m = malloc(sizeof *m * (size_t)n);
        magdyn_vec3 *f = malloc(sizeof *f * (size_t)n), *t = malloc(sizeof *t * (size_t)n);
        double u, t0, dt, pairs;
        unsigned long long s = 88172645463325252ULL;
        if (!p || !m || !f || !t) return 1;
        for (i = 0; i < n; i++) {
            double v[6];
            int j;
            for (j = 0; j < 6; j++) {
                s ^= s << 13; s ^= s >> 7; s ^= s << 17;
                v[j] = (double)(s >> 11) / 9007199254740992.0 - 0.5;
            }
            p[i] = magdyn_v3(v[0], v[1], v[2]);
            m[i] = magdyn_v3(v[3], v[4], v[5]);
        }
        t0 = now();
        do {
            if (magdyn_dipoles_interact(n, p, m, f, t, &u) != MAGDYN_OK) return 1;
            reps++;
        } while ((dt = now() - t0) < 0.3);
        pairs = (double)n * (n - 1) * reps / dt;     /* ordered pairs evaluated */
        printf("%8d %14.4g %12.4g %10.3f %12.2f\n", n, pairs, dt / reps * 1e6,
               pairs * FLOPS_PER_PAIR * 1e-9, peak / (pairs * FLOPS_PER_PAIR * 1e-9));
        free(p); free(m); free(f); free(t);
    }
    return 0;
}
