/*
 * bench/gas_hot.c - a short, focused measurement of the event loop of
 * magdyn_gas: hard discs (unit diameter and mass, kT = 1) at packing
 * fraction eta in a periodic box, warmed up for 5 collisions per particle,
 * then timed over a fixed number of collisions; prints the median of
 * several runs with events, stale events and cell crossings per collision.
 * Meant for profiling (valgrind --tool=callgrind) as well as timing, and
 * for counting cache misses (bench/gas_cache.sh).  reorder: how many
 * events apart the particles are renumbered along the cells' curve (0:
 * the library's choice, -1: never), through the library's private
 * gas_set_reorder, so that the misses can be counted with and without it;
 * shuffle 1 adds the discs in a random order (from 4096 discs the gas sorts
 * them along its cells' z-order when it starts).
 * Usage: gas_hot [N (1e5)] [eta (0.5)] [collisions (3e6)] [runs (5)] [reorder (0)]
 *                [shuffle (0)]
 */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>
#include <magdyn.h>
#include "gas_impl.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static unsigned long long rng = 0x853c49e6748fea9bULL;
static double uni(void)
{
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}
static double gauss(void) { return sqrt(-2 * log(1 - uni())) * cos(2 * MAGDYN_PI * uni()); }

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? (int)atof(argv[1]) : 100000;
    double eta = argc > 2 ? atof(argv[2]) : 0.5;
    long long coll = argc > 3 ? (long long)atof(argv[3]) : 3000000LL;
    int runs = argc > 4 ? atoi(argv[4]) : 5, r;
    long long reorder = argc > 5 ? (long long)atof(argv[5]) : 0;
    int shuffle = argc > 6 ? atoi(argv[6]) : 0;
    int side = (int)ceil(sqrt((double)n));
    int *order = malloc((size_t)side * side * sizeof *order);
    double rate[32];
    magdyn_gas_observables o = {0};
    if (!order) return 1;
    if (runs < 1) runs = 1;
    if (runs > 32) runs = 32;
    for (r = 0; r < runs; r++) {
        double a = sqrt(MAGDYN_PI / (4 * eta)), box = side * a, dt, t0, t1;
        magdyn_gas_params p = magdyn_gas_params_default();
        magdyn_gas *g;
        long long c0;
        int i;
        p.width = p.height = box; p.periodic = 1;
        g = magdyn_gas_new(&p);
        for (i = 0; i < side * side; i++) order[i] = i;
        for (i = side * side - 1; shuffle && i > 0; i--) {
            int j = (int)(uni() * (i + 1)), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (i = 0; g && i < side * side; i++) {
            magdyn_disc d;
            int k = order[i];
            d.r = magdyn_v2((k % side + 0.5) * a, (k / side + 0.5) * a);
            d.v = magdyn_v2(gauss(), gauss());
            d.mass = 1; d.radius = 0.5;
            if (magdyn_gas_add_disc(g, &d) < 0) { magdyn_gas_free(g); g = NULL; }
        }
        if (!g) { fprintf(stderr, "setup failed\n"); return 1; }
        gas_set_reorder(g, reorder);
        /* time per call: about 10 collisions per particle */
        dt = 10.0 / (2 * (side * side / (box * box)) * (1 - 7 * eta / 16) /
                     ((1 - eta) * (1 - eta)) * sqrt(MAGDYN_PI));
        while (magdyn_gas_collisions(g) < 5LL * side * side / 2)
            magdyn_gas_advance(g, magdyn_gas_time(g) + dt / 10);
        magdyn_gas_reset_observables(g);
        c0 = magdyn_gas_collisions(g);
        t0 = cpu_now();
        while (magdyn_gas_collisions(g) - c0 < coll)
            magdyn_gas_advance(g, magdyn_gas_time(g) + fmin(dt, dt * coll / (10.0 * side * side)));
        t1 = cpu_now();
        magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
        rate[r] = o.collisions / (t1 - t0);
        magdyn_gas_free(g);
    }
    free(order);
    qsort(rate, (size_t)runs, sizeof rate[0], cmp);
    printf("N=%d eta=%.2f coll=%lld runs=%d median %.3g coll/s (min %.3g max %.3g)"
           " events/coll %.3f stale/coll %.3f crossings/coll %.3f\n",
           side * side, eta, (long long)o.collisions, runs, rate[runs / 2], rate[0], rate[runs - 1],
           (double)o.events / o.collisions, (double)o.stale_events / o.collisions,
           (double)o.cell_crossings / o.collisions);
    return 0;
}
