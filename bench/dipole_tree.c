/*
 * bench/dipole_tree.c - forces and torques of N point dipoles: the direct
 * sum (magdyn_dipoles_interact) against the fast multipole method
 * (magdyn_dipoles_interact_tree) for N = 1e2 ... 1e5, one table: wall
 * times (median of a few calls, one call above 1e4 for the direct sum),
 * the tree's error against the direct sum, and the crossover.
 *
 * Errors: rms = |F_tree - F_direct|_2 / |F_direct|_2 over all dipoles;
 * max = max_i |F_tree,i - F_direct,i| / rms_i |F_direct,i|; err/S = max_i
 * |F_tree,i - F_direct,i| / S_i with S_i = sum_j |F_ij|, the measure of
 * the documented per-dipole bound (at most tol), over every dipole up to
 * N = 1000 and a sample of 1000 (every N/1000th) above.  In uniform
 * random sets the rms and max errors are normalised by a force dominated
 * by the few closest pairs (F ~ 1/r^4), so they look many orders better
 * than err/S; err/S is the per-dipole relative error.  (test/test_dipole_tree
 * checks the bound on all dipoles of its sets.)
 *
 * Then the split of the tree's time by pass at the largest N, for each
 * tol (medians of 3 calls of the private entry point mdt_sum with the
 * parameters the public function picks): tree build, P2M and M2M (the
 * upward pass), the traversal that lists the cell pairs, M2L, the direct
 * near field (P2P) and L2L with L2P (the downward pass).
 *
 * Dipoles: uniform random in a cube at density 1 per (2 mm)^3, moments of
 * random direction and 0.1 A m^2, or with "chains": lines of touching
 * 1 mm magnets along x, moments along x.
 * Run: make bench && bench/dipole_tree [random|chains] [max N] [tol ...]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <magdyn.h>
#include "dipole_tree.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned long long rng = 88172645463325252ULL;
static double urand(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static void setup(int n, int chains, magdyn_vec3 *p, magdyn_vec3 *m)
{
    double side = 2e-3 * cbrt((double)n);
    int i, len = (int)ceil(cbrt((double)n)) * 2, rows = (int)ceil(sqrt((double)n / len));
    for (i = 0; i < n; i++) {
        if (chains) {
            int row = i / len;
            p[i] = magdyn_v3(1e-3 * (i % len), 2.5e-3 * (row % rows) + 1e-4 * urand(),
                             2.5e-3 * (row / rows) + 1e-4 * urand());
            m[i] = magdyn_v3(0.1, 0.005 * (urand() - 0.5), 0.005 * (urand() - 0.5));
        } else {
            double u = 2 * urand() - 1, a = 2 * MAGDYN_PI * urand(), s = sqrt(1 - u * u);
            p[i] = magdyn_v3(side * urand(), side * urand(), side * urand());
            m[i] = magdyn_v3(0.1 * s * cos(a), 0.1 * s * sin(a), 0.1 * u);
        }
    }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* median wall time of reps calls; the tree when tol > 0, else direct */
static double timed(int n, const magdyn_vec3 *p, const magdyn_vec3 *m, double tol, int reps,
                    magdyn_vec3 *f, magdyn_vec3 *t)
{
    double ts[9];
    int r;
    for (r = 0; r < reps; r++) {
        double t0 = now();
        magdyn_status s = tol > 0 ? magdyn_dipoles_interact_tree(n, p, m, tol, NULL, f, t, NULL)
                                  : magdyn_dipoles_interact(n, p, m, f, t, NULL);
        if (s != MAGDYN_OK) {
            fprintf(stderr, "failed: %s\n", magdyn_strerror(s));
            exit(1);
        }
        ts[r] = now() - t0;
    }
    qsort(ts, (size_t)reps, sizeof *ts, cmp);
    return ts[reps / 2];
}

/* S_i = sum_j |F_ij| for the sampled dipoles i = 0, stride, 2 stride, ... */
static void pair_force_sums(int n, const magdyn_vec3 *p, const magdyn_vec3 *m, int stride,
                            double *s)
{
    int i, j;
    for (i = 0; i < n; i += stride) {
        double si = 0;
        for (j = 0; j < n; j++) {
            magdyn_vec3 f, t;
            if (j == i) continue;
            magdyn_dipole_force_torque(m[j], p[j], m[i], p[i], &f, &t);
            si += magdyn_vec3_norm(f);
        }
        s[i / stride] = si;
    }
}

static double median3(double a, double b, double c)
{
    return fmax(fmin(a, b), fmin(fmax(a, b), c));
}

/* the split of the tree's time at n dipoles and tol: medians of 3 calls */
static void split(int n, const magdyn_vec3 *p, const magdyn_vec3 *m, double tol,
                  magdyn_vec3 *f, magdyn_vec3 *t)
{
    mdt_stats st[3];
    double theta, v[7][3], med[7];
    int ncrit, order, r, k;
    mdt_params(tol, &theta, &order, &ncrit);
    for (r = 0; r < 3; r++) {
        double t0 = now();
        if (mdt_sum(n, p, m, tol, theta, order, ncrit, NULL, f, t, NULL, &st[r]) != MAGDYN_OK) {
            fprintf(stderr, "mdt_sum failed\n");
            exit(1);
        }
        v[0][r] = st[r].build; v[1][r] = st[r].up; v[2][r] = st[r].traverse;
        v[3][r] = st[r].m2l; v[4][r] = st[r].p2p; v[5][r] = st[r].down;
        v[6][r] = now() - t0;
    }
    for (k = 0; k < 7; k++) med[k] = median3(v[k][0], v[k][1], v[k][2]);
    printf("%7.0e %5.2f %3d %5d %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f %8.4f %9.3g %9.3g %9.3g\n",
           tol, theta, order, ncrit, med[0], med[1], med[2], med[3], med[4], med[5], med[6],
           st[0].n_m2l, st[0].n_p2p, st[0].p2p_pairs);
}

int main(int argc, char **argv)
{
    static const int sizes[] = {100, 300, 1000, 3000, 10000, 30000, 100000};
    double tols[4] = {1e-6, 1e-9};
    int ntol = 2, chains = argc > 1 && !strcmp(argv[1], "chains");
    int nmax = argc > 2 ? atoi(argv[2]) : 100000, k, j;
    double cross[4] = {0}, prev_ratio[4] = {0};
    int prev_n = 0;
    if (argc > 3) {
        for (ntol = 0; ntol < 4 && 3 + ntol < argc; ntol++) tols[ntol] = atof(argv[3 + ntol]);
    }
    printf("bench/dipole_tree: forces and torques of N dipoles (%s), one core\n",
           chains ? "chains of touching 1 mm magnets" : "uniform random");
    printf("%7s %11s", "N", "direct [s]");
    for (j = 0; j < ntol; j++)
        printf(" | tol %-7.0e %9s %9s %9s %9s", tols[j], "tree [s]", "rms err", "max err", "err/S");
    printf("\n");
    for (k = 0; k < (int)(sizeof sizes / sizeof sizes[0]) && sizes[k] <= nmax; k++) {
        int n = sizes[k], i, reps = n <= 10000 ? 5 : 1;
        magdyn_vec3 *p = malloc(sizeof *p * (size_t)n), *m = malloc(sizeof *m * (size_t)n);
        magdyn_vec3 *fd = malloc(sizeof *fd * (size_t)n), *td = malloc(sizeof *td * (size_t)n);
        magdyn_vec3 *ft = malloc(sizeof *ft * (size_t)n), *tt = malloc(sizeof *tt * (size_t)n);
        int stride = n > 1000 ? n / 1000 : 1;
        double tdir, *sf = malloc(sizeof *sf * (size_t)(n / stride + 1));
        if (!p || !m || !fd || !td || !ft || !tt || !sf) return 1;
        setup(n, chains, p, m);
        tdir = timed(n, p, m, 0, reps, fd, td);
        pair_force_sums(n, p, m, stride, sf);
        printf("%7d %11.4g", n, tdir);
        for (j = 0; j < ntol; j++) {
            double ttree = timed(n, p, m, tols[j], n <= 30000 ? 5 : 3, ft, tt), num = 0, den = 0,
                   emax = 0, ebound = 0, ratio;
            for (i = 0; i < n; i++) {
                double e = magdyn_vec3_norm(magdyn_vec3_sub(ft[i], fd[i]));
                num += e * e;
                den += magdyn_vec3_dot(fd[i], fd[i]);
                emax = fmax(emax, e);
                if (i % stride == 0) ebound = fmax(ebound, e / sf[i / stride]);
            }
            printf(" | %11s %9.4g %9.2e %9.2e %9.2e", "", ttree, sqrt(num / den),
                   emax / sqrt(den / n), ebound);
            /* the crossover: the last N where direct/tree passes 1 upwards,
             * interpolated in log N (below one leaf, 128 dipoles, both
             * sum the same pairs directly and the ratio is noise) */
            ratio = tdir / ttree;
            if (ratio < 1 || n <= 128) {
                cross[j] = 0;
            } else if (cross[j] == 0 && prev_n && prev_ratio[j] < 1) {
                double a = log(prev_ratio[j]), b = log(ratio);
                cross[j] = prev_n * pow((double)n / prev_n, (0 - a) / (b - a));
            } else if (cross[j] == 0) {
                cross[j] = n;
            }
            prev_ratio[j] = ratio;
        }
        printf("\n");
        fflush(stdout);
        prev_n = n;
        free(p); free(m); free(fd); free(td); free(ft); free(tt); free(sf);
    }
    for (j = 0; j < ntol; j++) {
        if (cross[j] > 0)
            printf("crossover at tol %.0e: the tree is faster from N = %.0f\n", tols[j], cross[j]);
        else
            printf("crossover at tol %.0e: not reached up to N = %d\n", tols[j], nmax);
    }
    {
        int n = sizes[k - 1];
        magdyn_vec3 *p = malloc(sizeof *p * (size_t)n), *m = malloc(sizeof *m * (size_t)n);
        magdyn_vec3 *f = malloc(sizeof *f * (size_t)n), *t = malloc(sizeof *t * (size_t)n);
        if (!p || !m || !f || !t) return 1;
        rng = 88172645463325252ULL;
        setup(n, chains, p, m);
        printf("\nsplit of the tree's time [s] at N = %d (medians of 3 calls)\n", n);
        printf("%7s %5s %3s %5s %8s %8s %8s %8s %8s %8s %8s %9s %9s %9s\n", "tol", "theta", "p",
               "leaf", "build", "P2M+M2M", "lists", "M2L", "P2P", "L2L+L2P", "total", "M2L cells",
               "P2P cells", "P2P pairs");
        for (j = 0; j < ntol; j++) split(n, p, m, tols[j], f, t);
        free(p); free(m); free(f); free(t);
    }
    return 0;
}
