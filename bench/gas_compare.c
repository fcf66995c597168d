/*
 * bench/gas_compare.c - the event-driven gas (magdyn_gas) beside the
 * fastest published methods, reimplemented in two dimensions for this
 * comparison, on the same workload in one process: N unit discs, periodic
 * square box, packing eta, started from the same lattice and velocities,
 * 5 collisions per particle of warm-up, then collisions per CPU second.
 *
 *  - reference 1, Smallenburg's (Eur. Phys. J. E 45, 22, 2022; "Single":
 *    neighbour lists and one event per particle, with Paul's calendar),
 *    bench/edmd_ref.c;
 *  - reference 2, Isobe's (Int. J. Mod. Phys. C 10, 1281, 1999: exclusive
 *    particle grid, delayed states, complete binary tree, the grid renewed
 *    at a dynamical time cut-off instead of cell crossings),
 *    bench/edmd_isobe.c.
 *
 * The runs of a row alternate (magdyn, reference 1, reference 2, magdyn,
 * ...) and each figure is the median of its repeats; the ratios are
 * magdyn's rate over each reference's.
 *
 * The references are checked, not trusted: each one's collision rate per
 * particle must agree with the library's (the same physics) and its energy
 * stay put; both are printed.  Reference 1's calendar block is its best
 * over the sweep that --tune prints, and its shell (1 + alpha) the best of
 * four for each system (printed).  Reference 2's cell size is its best
 * over the sweep that --tune prints, and its skin (how far a disc may move
 * before the grid is renewed, in diameters) the best of four for each
 * system (printed).
 *
 * Usage: gas_compare [max N (default 1000000)] [--tune]
 */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <magdyn.h>
#include "edmd_ref.h"
#include "edmd_isobe.h"

/* the reference's best shell (1 + alpha) and block length times N over
 * the --tune sweep at N = 99856, eta = 0.5 */
#define REF_SHELL 1.7
#define REF_BLOCK 0.5
/* Isobe's best cell divisor (cells of side below 1 / (sqrt 2 ISO_CELL_DIV)
 * diameters) and skin over the --tune sweep at N = 99856, eta = 0.5 */
#define ISO_CELL_DIV 1.0
#define ISO_SKIN 0.2

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

typedef struct { int n; double box, *x, *y, *vx, *vy; } lattice;

/* side^2 unit-diameter, unit-mass discs on a square lattice, kT = 1 (as
 * bench/gas builds them) */
static int make_lattice(int side, double eta, lattice *L)
{
    double a = sqrt(MAGDYN_PI / (4 * eta));
    int i, n = side * side;
    L->n = n;
    L->box = side * a;
    L->x = malloc(4 * sizeof(double) * (size_t)n);
    if (!L->x) return -1;
    L->y = L->x + n; L->vx = L->y + n; L->vy = L->vx + n;
    for (i = 0; i < n; i++) {
        L->x[i] = (i % side + 0.5) * a;
        L->y[i] = (i / side + 0.5) * a;
        L->vx[i] = gauss();
        L->vy[i] = gauss();
    }
    return 0;
}

typedef struct { double rate, nu, drift; } figures;

/* collisions per CPU second of the library's gas; nu the collisions per
 * particle per unit time */
static double energy_of(const magdyn_gas *g)
{
    magdyn_gas_observables o;
    return magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o) == MAGDYN_OK ? o.energy : NAN;
}

static int run_magdyn(const lattice *L, long long coll, figures *f)
{
    magdyn_gas_params p = magdyn_gas_params_default();
    magdyn_gas *g;
    double t0, c0, s0, e0, dt;
    int i;
    p.width = p.height = L->box;
    p.periodic = 1;
    if (!(g = magdyn_gas_new(&p))) return -1;
    for (i = 0; i < L->n; i++) {
        magdyn_disc d;
        d.r = magdyn_v2(L->x[i], L->y[i]);
        d.v = magdyn_v2(L->vx[i], L->vy[i]);
        d.mass = 1;
        d.radius = 0.5;
        if (magdyn_gas_add_disc(g, &d) < 0) { magdyn_gas_free(g); return -1; }
    }
    dt = 50.0 / L->n;
    while (magdyn_gas_collisions(g) < 5LL * L->n / 2) magdyn_gas_advance(g, magdyn_gas_time(g) + dt);
    c0 = (double)magdyn_gas_collisions(g);
    s0 = magdyn_gas_time(g);
    e0 = energy_of(g);
    t0 = cpu_now();
    while (magdyn_gas_collisions(g) - c0 < coll) magdyn_gas_advance(g, magdyn_gas_time(g) + dt);
    f->rate = (magdyn_gas_collisions(g) - c0) / (cpu_now() - t0);
    f->nu = 2.0 * (magdyn_gas_collisions(g) - c0) / (L->n * (magdyn_gas_time(g) - s0));
    f->drift = energy_of(g) / e0 - 1.0;
    magdyn_gas_free(g);
    return 0;
}

/* A reference simulation behind one interface, so that both are timed by
 * the same loop (run_sim). */
typedef struct {
    int (*run)(void *s, long long collisions);
    long long (*collisions)(const void *s);
    double (*time)(const void *s);
    double (*energy)(const void *s);
    void (*release)(void *s);
} sim_ops;

static int ref_run(void *s, long long c) { return edmd_ref_run(s, c); }
static long long ref_collisions(const void *s) { return edmd_ref_collisions(s); }
static double ref_time(const void *s) { return edmd_ref_time(s); }
static double ref_energy(const void *s) { return edmd_ref_energy(s); }
static void ref_release(void *s) { edmd_ref_free(s); }
static const sim_ops REF_OPS = {ref_run, ref_collisions, ref_time, ref_energy, ref_release};

static int iso_run(void *s, long long c) { return edmd_isobe_run(s, c); }
static long long iso_collisions(const void *s) { return edmd_isobe_collisions(s); }
static double iso_time(const void *s) { return edmd_isobe_time(s); }
static double iso_energy(const void *s) { return edmd_isobe_energy(s); }
static void iso_release(void *s) { edmd_isobe_free(s); }
static const sim_ops ISO_OPS = {iso_run, iso_collisions, iso_time, iso_energy, iso_release};

/* The figures of simulation s (freed here; NULL: -1) over coll collisions
 * after the warm-up, as run_magdyn measures the library. */
static int run_sim(void *s, const sim_ops *op, const lattice *L, long long coll, figures *f)
{
    double t0, s0, e0;
    long long c0;
    if (!s) return -1;
    if (op->run(s, 5LL * L->n / 2) != 0) { op->release(s); return -1; }
    c0 = op->collisions(s);
    s0 = op->time(s);
    e0 = op->energy(s);
    t0 = cpu_now();
    if (op->run(s, coll) != 0) { op->release(s); return -1; }
    f->rate = (op->collisions(s) - c0) / (cpu_now() - t0);
    f->nu = 2.0 * (op->collisions(s) - c0) / (L->n * (op->time(s) - s0));
    f->drift = op->energy(s) / e0 - 1.0;
    op->release(s);
    return 0;
}

static int run_ref(const lattice *L, long long coll, double shell, double block, figures *f)
{
    return run_sim(edmd_ref_new(L->n, 0.5, L->box, L->x, L->y, L->vx, L->vy, shell, block), &REF_OPS, L, coll, f);
}

static int run_isobe(const lattice *L, long long coll, double cell_div, double skin, figures *f)
{
    return run_sim(edmd_isobe_new(L->n, 0.5, L->box, L->x, L->y, L->vx, L->vy, cell_div, skin), &ISO_OPS, L, coll,
                   f);
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

/* the reference's best shell for this system (one run each; N = 10^6
 * keeps the shell of 10^5 at the same packing) */
static double pick_shell(const lattice *L, long long coll)
{
    static const double shells[] = {1.3, 1.5, 1.7, 2.0};
    double best = REF_SHELL, rate = 0.0;
    int i;
    for (i = 0; i < 4; i++) {
        figures f;
        if (run_ref(L, coll / 2, shells[i], REF_BLOCK, &f) == 0 && f.rate > rate) {
            rate = f.rate;
            best = shells[i];
        }
    }
    return best;
}

/* Isobe's best skin for this system (one run each; N = 10^6 keeps the
 * skin of 10^5 at the same packing) */
static double pick_skin(const lattice *L, long long coll)
{
    static const double skins[] = {0.2, 0.35, 0.5, 0.8};
    double best = ISO_SKIN, rate = 0.0;
    int i;
    for (i = 0; i < 4; i++) {
        figures f;
        if (run_isobe(L, coll / 2, ISO_CELL_DIV, skins[i], &f) == 0 && f.rate > rate) {
            rate = f.rate;
            best = skins[i];
        }
    }
    return best;
}

/* reference 1's rate over shells and blocks at N = 99856, eta = 0.5 */
static void tune_ref(const lattice *L)
{
    static const double shells[] = {1.3, 1.5, 1.7, 2.0, 2.5};
    static const double blocks[] = {0.25, 0.5, 1.0, 2.0, 8.0};
    int i, j;
    printf("reference 1, N = 99856, eta = 0.5: collisions per CPU second by shell and block x N\n%8s", "shell");
    for (j = 0; j < 5; j++) printf(" %10.2g", blocks[j]);
    printf("\n");
    for (i = 0; i < 5; i++) {
        printf("%8.2f", shells[i]);
        for (j = 0; j < 5; j++) {
            figures f;
            if (run_ref(L, 2000000, shells[i], blocks[j], &f) != 0) printf(" %10s", "failed");
            else printf(" %10.3g", f.rate);
            fflush(stdout);
        }
        printf("\n");
    }
}

/* reference 2's rate over cell sizes and skins at N = 99856, eta = 0.5 */
static void tune_isobe(const lattice *L)
{
    static const double divs[] = {1.0, 1.5, 2.0};
    static const double skins[] = {0.2, 0.35, 0.5, 0.8, 1.2};
    int i, j;
    printf("reference 2, N = 99856, eta = 0.5: collisions per CPU second by cell divisor (cells below\n"
           "1/(sqrt 2 divisor) diameters) and skin (diameters)\n%8s", "divisor");
    for (j = 0; j < 5; j++) printf(" %10.2g", skins[j]);
    printf("\n");
    for (i = 0; i < 3; i++) {
        printf("%8.2f", divs[i]);
        for (j = 0; j < 5; j++) {
            figures f;
            if (run_isobe(L, 2000000, divs[i], skins[j], &f) != 0) printf(" %10s", "failed");
            else printf(" %10.3g", f.rate);
            fflush(stdout);
        }
        printf("\n");
    }
}

static void tune(void)
{
    lattice L;
    if (make_lattice(316, 0.5, &L) != 0) return;
    tune_ref(&L);
    tune_isobe(&L);
    free(L.x);
}

/* One row: the three codes' runs alternating, repeated; the ratios are
 * the medians of the repeats' ratios. */
static int row(const lattice *L, double eta, long long coll, int reps, double shell, double skin)
{
    double rm[3], rr[3], ri[3], qr[3], qi[3];
    figures fm, fr, fi;
    int r;
    for (r = 0; r < reps; r++) {
        if (run_magdyn(L, coll, &fm) != 0 || run_ref(L, coll, shell, REF_BLOCK, &fr) != 0 ||
            run_isobe(L, coll, ISO_CELL_DIV, skin, &fi) != 0)
            return -1;
        rm[r] = fm.rate;
        rr[r] = fr.rate;
        ri[r] = fi.rate;
        qr[r] = fm.rate / fr.rate;
        qi[r] = fm.rate / fi.rate;
    }
    printf("%8d %5.2f %4d %10.3g | %10.3g %6.2f %5.2f %8.3f %8.1e | %10.3g %6.2f %5.2f %8.3f %8.1e | %8.3f %8.1e\n",
           L->n, eta, reps, median(rm, reps), median(rr, reps), median(qr, reps), shell, fr.nu, fr.drift,
           median(ri, reps), median(qi, reps), skin, fi.nu, fi.drift, fm.nu, fm.drift);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    static const int sides[] = {32, 100, 316, 1000};
    static const double etas[] = {0.3, 0.5, 0.7};
    long nmax = 1000000;
    double best_shell = REF_SHELL, best_skin = ISO_SKIN;
    int e, k, a;
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--tune")) {
            tune();
            return 0;
        }
        nmax = atol(argv[a]);
    }
    printf("hard discs, periodic, kT = 1: magdyn_gas beside 2D reimplementations of Smallenburg's EDMD\n"
           "(reference 1: 2022, \"Single\"; its best shell of four per system, block %.1f/N) and of Isobe's\n"
           "(reference 2: 1999, exclusive particle grid, delayed states, complete binary tree, grid renewed\n"
           "at a dynamical time cut-off; cells below 1/(sqrt 2 x %.1f) diameters, its best skin of four per\n"
           "system), collisions per CPU second, median of the repeats; ratio is magdyn/reference, the median\n"
           "of the repeats' ratios; nu is collisions per particle per unit time (the same physics gives\n"
           "the same nu); dE the relative energy change over the timed run\n",
           REF_BLOCK, ISO_CELL_DIV);
    printf("%8s %5s %4s %10s | %10s %6s %5s %8s %8s | %10s %6s %5s %8s %8s | %8s %8s\n", "N", "eta", "reps",
           "magdyn/s", "ref1/s", "ratio", "shell", "nu", "dE", "ref2/s", "ratio", "skin", "nu", "dE", "nu mag",
           "dE mag");
    for (e = 0; e < 3; e++)
        for (k = 0; k < 4; k++) {
            int side = sides[k], n = side * side, reps = n >= 1000000 ? 1 : 3;
            long long coll = n < 1000000 ? 2000000 : 3LL * n;
            lattice L;
            if (n > nmax) continue;
            rng = 0x853c49e6748fea9bULL;
            if (make_lattice(side, etas[e], &L) != 0) return 1;
            if (n < 1000000) {
                best_shell = pick_shell(&L, coll);
                best_skin = pick_skin(&L, coll);
            }
            if (row(&L, etas[e], coll, reps, best_shell, best_skin) != 0) {
                printf("N = %d: set-up failed\n", n);
                free(L.x);
                return 1;
            }
            free(L.x);
        }
    return 0;
}
