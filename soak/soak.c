/*
 * soak.c - long runs with the invariants checked throughout and the memory
 * watched (make soak; not part of make check or CI's default run).
 *
 *  1. Gas: 10^4 discs at packing 0.3 in a periodic box, elastic, to
 *     COLLISIONS pair collisions (10^8 by default) in chunks; after each:
 *     advance OK, energy kept to 1e-9 relative, momentum to 1e-9 of its
 *     scale, no two discs overlapping (a sweep over x).  Then the same gas
 *     at restitution 0.8 (the TC model on) for a tenth of the collisions:
 *     energy never rising.
 *  2. Piles: random drops of 8 N42 cubes on a plate (examples/scene.h),
 *     seed after seed, each for up to 2 s simulated or until asleep, to
 *     STEPS world steps in all (10^6 by default); after each 10 ms: advance
 *     OK, no overlap beyond 1 um, energy never above its start by 1e-3 of
 *     the energy scale.
 *  The resident memory (/proc/self/statm) is printed after each part and
 *  must not grow by more than 10 % after the first tenth of the gas run or
 *  the first pile: nothing leaks per collision or per step.  Exit status 0 when every check held.
 * Usage: soak [COLLISIONS [STEPS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <magdyn.h>
#include "../examples/scene.h"

static int failures;

#define CHECK(c, ...) do { if (!(c)) { failures++; fprintf(stderr, "soak: " __VA_ARGS__); fputc('\n', stderr); } } while (0)

static double cpu(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* Resident memory [MiB] now. */
static double rss_mib(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return NAN;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    fclose(f);
    return resident * 4096.0 / 1048576.0;
}

static unsigned long long rng = 88172645463325252ULL;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

typedef struct { double x, y, r; } sweep_disc;
static int by_x(const void *a, const void *b)
{
    double d = ((const sweep_disc *)a)->x - ((const sweep_disc *)b)->x;
    return (d > 0) - (d < 0);
}

/* The deepest overlap of two discs relative to their radii sum (< 0 none),
 * minimum image in the periodic box of side L: a sweep over x. */
static double worst_overlap(const magdyn_gas *g, int n, double L, double rmax)
{
    sweep_disc *s = malloc((size_t)n * 2 * sizeof *s);
    double worst = -INFINITY;
    int m = 0, i, j;
    for (i = 0; i < n; i++) {
        magdyn_disc d;
        magdyn_gas_get_disc(g, i, &d);
        s[m++] = (sweep_disc){d.r.x, d.r.y, d.radius};
        /* an image across the x boundary for the pairs that wrap */
        if (d.r.x < 2 * rmax) s[m++] = (sweep_disc){d.r.x + L, d.r.y, d.radius};
    }
    qsort(s, (size_t)m, sizeof *s, by_x);
    for (i = 0; i < m; i++)
        for (j = i + 1; j < m && s[j].x - s[i].x < s[i].r + s[j].r; j++) {
            double dy = s[j].y - s[i].y, dx = s[j].x - s[i].x, sum = s[i].r + s[j].r;
            dy -= L * round(dy / L);
            worst = fmax(worst, (sum - sqrt(dx * dx + dy * dy)) / sum);
        }
    free(s);
    return worst;
}

static void soak_gas(long long collisions)
{
    const int n = 10000;
    const double r = 0.5, L = sqrt(n * MAGDYN_PI * r * r / 0.3);
    magdyn_gas_params p = magdyn_gas_params_default();
    magdyn_gas *g;
    magdyn_gas_observables o0, o;
    int side = (int)ceil(sqrt((double)n)), i, chunk = 0;
    double t = 0.0, c0 = cpu(), mem1 = NAN, pscale = 0.0;
    p.width = p.height = L;
    p.periodic = true;
    g = magdyn_gas_new(&p);
    for (i = 0; i < n; i++) {
        magdyn_disc d = {.r = {(i % side + 0.5) * L / side, (i / side + 0.5) * L / side},
                         .v = {uniform() - 0.5, uniform() - 0.5}, .mass = 1.0, .radius = r};
        CHECK(magdyn_gas_add_disc(g, &d) == i, "disc %d refused", i);
        pscale += fabs(d.v.x) + fabs(d.v.y);
    }
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o0);
    while (magdyn_gas_collisions(g) < collisions) {
        magdyn_status s = magdyn_gas_advance(g, t += 20.0);
        magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
        CHECK(s == MAGDYN_OK, "gas advance: %s", magdyn_strerror(s));
        CHECK(fabs(o.energy - o0.energy) <= 1e-9 * o0.energy, "gas energy %.15g -> %.15g", o0.energy, o.energy);
        CHECK(fabs(o.momentum.x - o0.momentum.x) + fabs(o.momentum.y - o0.momentum.y) <= 1e-9 * pscale,
              "gas momentum drifted");
        if (++chunk % 10 == 0) CHECK(worst_overlap(g, n, L, r) <= 1e-9, "discs overlap");
        /* the baseline after a tenth of the run: the queue and the cells
           settle to their working size first */
        if (isnan(mem1) && magdyn_gas_collisions(g) >= collisions / 10) mem1 = rss_mib();
        if (s != MAGDYN_OK) break;
    }
    printf("gas, elastic: %lld collisions in %.1f s CPU (%.3g per s), energy drift %.2e, RSS %.1f -> %.1f MiB\n",
           magdyn_gas_collisions(g), cpu() - c0, magdyn_gas_collisions(g) / (cpu() - c0),
           (o.energy - o0.energy) / o0.energy, mem1, rss_mib());
    CHECK(rss_mib() <= 1.1 * mem1, "gas memory grew");
    /* the same gas, inelastic, cooling */
    {
        long long start = magdyn_gas_collisions(g);
        double e_prev = o.energy;
        c0 = cpu();
        magdyn_gas_set_restitution(g, 0.8, 1.0);
        while (magdyn_gas_collisions(g) - start < collisions / 10) {
            magdyn_status s = magdyn_gas_advance(g, t += 20.0);
            magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
            CHECK(s == MAGDYN_OK, "inelastic gas advance: %s", magdyn_strerror(s));
            CHECK(o.energy <= e_prev * (1 + 1e-12), "inelastic gas energy rose %.15g -> %.15g", e_prev, o.energy);
            e_prev = o.energy;
            if (s != MAGDYN_OK) break;
        }
        CHECK(worst_overlap(g, n, L, r) <= 1e-9, "inelastic discs overlap");
        printf("gas, e = 0.8: %lld collisions in %.1f s CPU, energy down to %.3g of its start, RSS %.1f MiB\n",
               magdyn_gas_collisions(g) - start, cpu() - c0, o.energy / o0.energy, rss_mib());
    }
    magdyn_gas_free(g);
}

static void soak_piles(long long steps)
{
    long long total = 0;
    unsigned long long seed;
    double c0 = cpu(), mem1 = NAN, worst = 0.0;
    int asleep = 0, piles = 0;
    for (seed = 1; total < steps; seed++) {
        magdyn_world_params p = scene_params();
        magdyn_world *w = magdyn_world_new(&p);
        magdyn_world_stats st;
        double e0, escale, t;
        scene_plate(w);
        scene_pile(w, 8, seed);
        e0 = magdyn_world_energy(w);
        escale = fabs(e0);
        for (t = 0.01; t < 2.0 + 1e-9; t += 0.01) {
            magdyn_status s = magdyn_world_advance(w, t);
            double e = magdyn_world_energy(w), ov = scene_worst_overlap(w);
            CHECK(s == MAGDYN_OK, "pile %llu at %g s: %s", seed, t, magdyn_strerror(s));
            escale = fmax(escale, magdyn_world_kinetic_energy(w));
            CHECK(e <= e0 + 1e-3 * escale, "pile %llu at %g s: energy %.12g -> %.12g", seed, t, e0, e);
            CHECK(ov < 1e-6, "pile %llu at %g s: overlap %g m", seed, t, ov);
            worst = fmax(worst, ov);
            magdyn_world_get_stats(w, &st);
            if (s != MAGDYN_OK || st.asleep) break;
        }
        magdyn_world_get_stats(w, &st);
        total += st.steps + st.contact_steps;
        asleep += st.asleep;
        piles++;
        magdyn_world_free(w);
        if (piles == 1) mem1 = rss_mib();
    }
    printf("piles: %d piles of 8, %lld steps in %.1f s CPU, %d asleep within 2 s, worst overlap %.2e m, "
           "RSS %.1f -> %.1f MiB\n", piles, total, cpu() - c0, asleep, worst, mem1, rss_mib());
    CHECK(rss_mib() <= 1.1 * mem1 + 1.0, "pile memory grew");
}

int main(int argc, char **argv)
{
    long long collisions = argc > 1 ? atoll(argv[1]) : 100000000LL;
    long long steps = argc > 2 ? atoll(argv[2]) : 1000000LL;
    if (collisions < 0 || steps < 0) {
        fprintf(stderr, "usage: soak [COLLISIONS [STEPS]]\n");
        return 2;
    }
    if (collisions > 0) soak_gas(collisions);
    if (steps > 0) soak_piles(steps);
    printf("soak: %s (%d failed checks)\n", failures ? "FAILED" : "every check held", failures);
    return failures != 0;
}
