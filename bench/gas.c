/*
 * bench/gas.c - collisions per CPU second and cycles per collision of the
 * event-driven gas (magdyn_gas) for N = 10^3 ... 10^6 hard discs at
 * packing fractions 0.3, 0.5 and 0.7, the cost at each N relative to
 * N = 10^3, the target point N = 10^5 at 0.5 (median of three runs), and,
 * in the same run on the same systems, a fixed-step O(N^2) loop in the
 * style of thermosim (seed 002: all-pairs distance matrix, overlapping
 * pairs backtracked to contact and resolved in index order).
 *
 * Times are CPU times of this process (the machine may be shared); the
 * cost per collision is what to compare across N.  Cycles are CPU time
 * times the rate of the time-stamp counter, measured at the start (the
 * nominal clock: where the performance counters are not available, as in
 * a virtual machine, this is the figure at hand).  For reference, Isobe's
 * 1999 code reached about 1.3e5 collisions/s.
 * Usage: gas [max N (default 1000000)]
 */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <time.h>
#include <magdyn.h>

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
/* Time-stamp counter ticks per second against the monotonic clock, over
 * 50 ms; 0 where there is no such counter. */
static double tsc_hz(void)
{
    struct timespec a, b;
    unsigned long long c0, c1;
    double dt;
    clock_gettime(CLOCK_MONOTONIC, &a);
    c0 = __rdtsc();
    do clock_gettime(CLOCK_MONOTONIC, &b); while ((b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec) < 0.05);
    c1 = __rdtsc();
    dt = (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec);
    return (double)(c1 - c0) / dt;
}
#else
static double tsc_hz(void) { return 0.0; }
#endif

static unsigned long long rng = 0x853c49e6748fea9bULL;
static double uni(void)
{
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}
static double gauss(void) { return sqrt(-2 * log(1 - uni())) * cos(2 * MAGDYN_PI * uni()); }

/* side^2 unit-diameter, unit-mass discs on a square lattice, kT = 1. */
static magdyn_gas *make(int side, double eta, double *box)
{
    double a = sqrt(MAGDYN_PI / (4 * eta));
    magdyn_gas_params p = magdyn_gas_params_default();
    magdyn_gas *g;
    int i;
    p.width = p.height = *box = side * a; p.periodic = 1;
    g = magdyn_gas_new(&p);
    for (i = 0; g && i < side * side; i++) {
        magdyn_disc d;
        d.r = magdyn_v2((i % side + 0.5) * a, (i / side + 0.5) * a);
        d.v = magdyn_v2(gauss(), gauss());
        d.mass = 1; d.radius = 0.5;
        if (magdyn_gas_add_disc(g, &d) < 0) { magdyn_gas_free(g); return NULL; }
    }
    return g;
}

typedef struct { double rate, ns, events_per_coll, stale, crossings; long long coll; } result;

/* Runs `coll` collisions after `warm` per particle of warm-up. */
static int run(int side, double eta, long long coll, double warm, result *out)
{
    double box, t0, t1, dt;
    magdyn_gas *g = make(side, eta, &box);
    magdyn_gas_observables o;
    long long c0;
    int n = side * side;
    if (!g) return -1;
    /* Enskog collision rate per particle: 2 n chi sqrt(pi) (sigma = m = kT = 1) */
    dt = 1.0 / (2 * (n / (box * box)) * (1 - 7 * eta / 16) / ((1 - eta) * (1 - eta)) * sqrt(MAGDYN_PI));
    while (magdyn_gas_collisions(g) < (long long)(warm * n / 2))
        magdyn_gas_advance(g, magdyn_gas_time(g) + 2 * dt);
    magdyn_gas_reset_observables(g);
    c0 = magdyn_gas_collisions(g);
    t0 = cpu_now();
    while (magdyn_gas_collisions(g) - c0 < coll)
        magdyn_gas_advance(g, magdyn_gas_time(g) + dt * 20.0 * fmax(1.0, coll / (10.0 * n)) / 20.0);
    t1 = cpu_now();
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
    out->coll = o.collisions;
    out->rate = o.collisions / (t1 - t0);
    out->ns = 1e9 * (t1 - t0) / o.collisions;
    out->events_per_coll = (double)o.events / o.collisions;
    out->stale = (double)o.stale_events / o.collisions;
    out->crossings = (double)o.cell_crossings / o.collisions;
    magdyn_gas_free(g);
    return 0;
}

/*
 * thermosim's loop (seed 002, section 3) on the same system, started from
 * the equilibrated state of the event-driven gas g: move all by dt, test
 * all N(N-1)/2 pairs for overlap, and for each overlapping pair i < j in
 * index order backtrack to contact, apply dvf, and move forward again.
 * Returns pair resolutions per CPU second; *nu the resolutions per
 * particle per unit time (each counting for two particles), to compare
 * with the true collision rate.
 */
static double thermosim(const magdyn_gas *g, double box, double dt, int steps, double *nu)
{
    int n = magdyn_gas_discs(g), i, j, s;
    double *x = malloc(sizeof(double) * 4 * (size_t)n), t0, t1;
    long long coll = 0;
    for (i = 0; i < n; i++) {
        magdyn_disc d;
        magdyn_gas_get_disc(g, i, &d);
        x[4 * i] = d.r.x; x[4 * i + 1] = d.r.y; x[4 * i + 2] = d.v.x; x[4 * i + 3] = d.v.y;
    }
    t0 = cpu_now();
    for (s = 0; s < steps; s++) {
        for (i = 0; i < n; i++) {
            x[4 * i] = fmod(x[4 * i] + x[4 * i + 2] * dt + box, box);
            x[4 * i + 1] = fmod(x[4 * i + 1] + x[4 * i + 3] * dt + box, box);
        }
        for (i = 0; i < n; i++)
            for (j = i + 1; j < n; j++) {
                double dx = x[4 * i] - x[4 * j], dy = x[4 * i + 1] - x[4 * j + 1];
                double dvx, dvy, ndv, ru, ds, dtc, rcx, rcy, dd;
                dx -= box * round(dx / box); dy -= box * round(dy / box);
                if (dx * dx + dy * dy >= 1.0) continue;
                dvx = x[4 * i + 2] - x[4 * j + 2]; dvy = x[4 * i + 3] - x[4 * j + 3];
                ndv = sqrt(dvx * dvx + dvy * dvy);
                if (ndv == 0) continue;
                /* thermosim: ru = dv.dr/|dv|, ds = ru + sqrt(ru^2 + d^2 - dr^2), dtc = ds/|dv| */
                ru = (dvx * dx + dvy * dy) / ndv;
                ds = ru + sqrt(fmax(0.0, ru * ru + 1.0 - (dx * dx + dy * dy)));
                dtc = ds / ndv;
                rcx = dx - dvx * dtc; rcy = dy - dvy * dtc;
                dd = (dvx * rcx + dvy * rcy) / (rcx * rcx + rcy * rcy);
                /* dvf for equal masses: v1f = v1 - dd rc, v2f = v2 + dd rc */
                x[4 * i + 2] -= dd * rcx; x[4 * i + 3] -= dd * rcy;
                x[4 * j + 2] += dd * rcx; x[4 * j + 3] += dd * rcy;
                /* r1f = r1 + (v1f - v1) dtc */
                x[4 * i] -= dd * rcx * dtc; x[4 * i + 1] -= dd * rcy * dtc;
                x[4 * j] += dd * rcx * dtc; x[4 * j + 1] += dd * rcy * dtc;
                coll++;
            }
    }
    t1 = cpu_now();
    *nu = 2.0 * coll / (steps * dt) / n;
    free(x);
    return coll / (t1 - t0);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    static const int sides[] = {32, 100, 316, 1000};
    static const double etas[] = {0.3, 0.5, 0.7};
    long nmax = argc > 1 ? atol(argv[1]) : 1000000;
    double hz = tsc_hz();
    int e, k;
    printf("event-driven gas, periodic, unit discs, kT = 1 (CPU time of this process;\n"
           "cycles at the time-stamp counter's %.3f GHz)\n", 1e-9 * hz);
    printf("%8s %5s %10s %12s %8s %11s %9s %12s %7s %10s\n", "N", "eta", "collisions", "coll/CPU s",
           "ns/coll", "cycles/coll", "vs N=1e3", "events/coll", "stale", "crossings");
    for (e = 0; e < 3; e++) {
        double ns0 = 0.0;
        for (k = 0; k < 4; k++) {
            int side = sides[k], n = side * side;
            /* 2e6 collisions (N = 1e6: 3 per particle), after 5 per particle of warm-up */
            long long coll = n < 1000000 ? 2000000 : 3LL * n;
            result r;
            if (n > nmax) continue;
            if (run(side, etas[e], coll, 5.0, &r) != 0) {
                printf("N = %d: setup failed\n", n);
                continue;
            }
            if (k == 0) ns0 = r.ns;
            printf("%8d %5.2f %10lld %12.3g %8.0f %11.0f %9.2f %12.2f %7.2f %10.2f\n", n, etas[e], r.coll,
                   r.rate, r.ns, r.ns * 1e-9 * hz, r.ns / ns0, r.events_per_coll, r.stale, r.crossings);
            fflush(stdout);
        }
    }
    if (nmax >= 99856) {
        double rates[3];
        result r;
        int i;
        for (i = 0; i < 3; i++) {
            run(316, 0.5, 3000000, 5.0, &r);
            rates[i] = r.rate;
        }
        qsort(rates, 3, sizeof *rates, cmp);
        printf("target N = 99856, eta = 0.5: %.3g collisions/s (median of 3: %.3g %.3g %.3g)\n",
               rates[1], rates[0], rates[1], rates[2]);
    }
    printf("\nthermosim-style fixed step (dt = 0.1 mean free time), O(N^2) per step, same systems\n"
           "(started from the event-driven gas's equilibrated state)\n");
    printf("%8s %5s %16s %16s %14s %26s\n", "N", "eta", "EDMD coll/s", "thermosim res/s", "EDMD speed-up",
           "collision rate: thermosim / exact");
    for (e = 0; e < 2; e++)
        for (k = 0; k < 2; k++) {
            int side = sides[k], n = side * side, steps = k == 0 ? 400 : 10;
            double box, nu_ts, rate, tau;
            magdyn_gas *g = make(side, etas[e], &box);
            magdyn_gas_observables o;
            result r;
            if (!g) continue;
            /* equilibrate, then measure the event-driven rate on this state */
            while (magdyn_gas_collisions(g) < 10LL * n)
                magdyn_gas_advance(g, magdyn_gas_time(g) + 1.0);
            magdyn_gas_reset_observables(g);
            {
                double t0 = cpu_now(), c0 = (double)magdyn_gas_collisions(g);
                while (magdyn_gas_collisions(g) - c0 < 1e6) magdyn_gas_advance(g, magdyn_gas_time(g) + 1.0);
                r.rate = (magdyn_gas_collisions(g) - c0) / (cpu_now() - t0);
            }
            magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
            tau = 1.0 / o.collision_rate;
            rate = thermosim(g, box, 0.1 * tau, steps, &nu_ts);
            printf("%8d %5.2f %16.3g %16.3g %14.0f %14.2f / %.2f\n", n, etas[e], r.rate, rate, r.rate / rate,
                   nu_ts, o.collision_rate);
            fflush(stdout);
            magdyn_gas_free(g);
        }
    printf("(N >= 10^5: one thermosim step costs N^2/2 >= 5e9 pair tests; not run)\n");
    return 0;
}
