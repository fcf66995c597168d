/*
 * discs_more.c - the hard-disc gas's approach to equilibrium: the speed
 * distribution against Rayleigh's (Kolmogorov-Smirnov), the temperatures
 * of a two-mass mixture against the kinetic-theory relaxation, and the
 * equipartition of a gas of rotors and discs.  Conventions as discs.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "validate.h"

#define PI 3.14159265358979323846
#define NSIG 3.0

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* KS statistic of the discs' speeds against the Rayleigh law at kT = E/(N-1). */
static double ks(const magdyn_gas *g, double *u)
{
    int n = magdyn_gas_discs(g), i;
    double d = 0, e = 0;
    for (i = 0; i < n; i++) {
        magdyn_disc a;
        magdyn_gas_get_disc(g, i, &a);
        u[i] = 0.5 * a.mass * magdyn_vec2_norm2(a.v);
        e += u[i];
    }
    for (i = 0; i < n; i++) u[i] /= e / (n - 1);
    qsort(u, (size_t)n, sizeof *u, cmp);
    for (i = 0; i < n; i++) {
        double f = 1 - exp(-u[i]);
        d = fmax(d, fmax(fabs(f - (double)i / n), fabs(f - (double)(i + 1) / n)));
    }
    return d;
}

/* The gas on a square lattice, as discs.c (sigma 1, periodic); same_speed:
 * thermosim's start, every disc at sqrt(2 kT/m); momentum removed. */
static magdyn_gas *start(int side, double eta, const double *mass, int nmass, const double *kt,
                         int same_speed, unsigned long long seed)
{
    double a = sqrt(PI / (4 * eta)), px = 0, py = 0, mt = 0;
    magdyn_gas_params p = {.width = side * a, .height = side * a, .periodic = 1};
    magdyn_gas *g = magdyn_gas_new(&p);
    int i, n = side * side;
    magdyn_disc *d = malloc(sizeof *d * (size_t)n);
    if (!g || !d) { free(d); magdyn_gas_free(g); return NULL; }
    for (i = 0; i < n; i++) {
        int s = (i % side + i / side) % nmass;
        double v = sqrt(kt[s] / mass[s]), th = 2 * PI * vd_uniform(&seed);
        d[i].r = magdyn_v2((i % side + 0.5) * a, (i / side + 0.5) * a);
        d[i].mass = mass[s];
        d[i].radius = 0.5;
        d[i].v = same_speed ? magdyn_v2(sqrt(2.0) * v * cos(th), sqrt(2.0) * v * sin(th))
                            : vd_gauss_pair(v, &seed);
        px += mass[s] * d[i].v.x; py += mass[s] * d[i].v.y; mt += mass[s];
    }
    for (i = 0; i < n; i++) {
        d[i].v = magdyn_v2(d[i].v.x - px / mt, d[i].v.y - py / mt);
        if (magdyn_gas_add_disc_species(g, &d[i], (i % side + i / side) % nmass) < 0) {
            free(d); magdyn_gas_free(g); return NULL;
        }
    }
    free(d);
    return g;
}

static void speeds(const vd_run *run)
{
    int side = run->quick ? 50 : 100, n = side * side, i, k;
    static const double m = 1, kt = 1;
    double eta = 0.3, *u = malloc(sizeof *u * (size_t)n), d0, d1, crit = 1.63 / sqrt(n);
    double nu = 2 * (4 * eta / PI) * (1 - 7 * eta / 16) / ((1 - eta) * (1 - eta)) * sqrt(PI);
    double hx[40], hy[40], rx[200], ry[200], vmax = 4;
    long h[40], tot = 0, hh[40] = {0};
    magdyn_gas *g = start(side, eta, &m, 1, &kt, 1, 0x2545F4914F6CDD1DULL);
    char q[96], t[32];
    if (!g || !u) { free(u); magdyn_gas_free(g); vd_custom("speeds: run", "-", NAN, NAN, NAN, "-", VD_FAIL); return; }
    d0 = ks(g, u);
    /* 20 collisions a disc */
    magdyn_gas_advance(g, 20 / nu);
    d1 = ks(g, u);
    snprintf(t, sizeof t, "D < %.3g (1%%)", crit);
    snprintf(q, sizeof q, "discs N=%d, eta 0.3, start: KS D", n);
    vd_custom(q, "Rayleigh; 1% critical 1.63/sqrt(N)", 0, d0, NAN, t, VD_INFO);
    snprintf(q, sizeof q, "discs N=%d, after 20 coll./disc: KS D", n);
    vd_custom(q, "Rayleigh; 1% critical 1.63/sqrt(N)", 0, d1, NAN, t, d1 < crit ? VD_PASS : VD_FAIL);
    for (k = 0; k < 20; k++) {
        magdyn_gas_advance(g, magdyn_gas_time(g) + 1 / nu);
        tot += magdyn_gas_speed_histogram(g, MAGDYN_GAS_ALL_SPECIES, vmax, 40, h);
        for (i = 0; i < 40; i++) hh[i] += h[i];
    }
    for (i = 0; i < 40; i++) { hx[i] = (i + 0.5) * vmax / 40; hy[i] = hh[i] / (tot * vmax / 40); }
    for (i = 0; i < 200; i++) { rx[i] = vmax * i / 199; ry[i] = rx[i] * exp(-rx[i] * rx[i] / 2); }
    {
        vd_series s[2] = {{rx, ry, 200, VD_LINE, 0.8, 0.1, 0.1, "Rayleigh (2D Maxwell-Boltzmann), kT = 1"},
                          {hx, hy, 40, VD_DOTS, 0.1, 0.2, 0.8, "libmagdyn: speeds (20 snapshots)"}};
        vd_axes ax = {"hard discs, eta = 0.3: speed distribution", "speed [sqrt(kT/m)]",
                      "probability density", 0, 0, 0, 4, 0, 0.7, 2};
        vd_plot(run, "speeds.png", &ax, s, 2);
    }
    free(u);
    magdyn_gas_free(g);
}

/* The mixture at one temperature run for 20 collisions a disc, so that the
 * lattice is forgotten; then the same positions with new Maxwellian speeds,
 * species s at kt[s], momentum removed: an equilibrium structure, and the
 * species Maxwellian, as the kinetic theory below assumes.  NULL on failure. */
static magdyn_gas *equilibrated_mixture(int side, double eta, const double *mass, const double *kt,
                                        unsigned long long seed)
{
    static const double one[2] = {1, 1};
    magdyn_gas *g0 = start(side, eta, mass, 2, one, 0, seed), *g = NULL;
    magdyn_gas_params p = magdyn_gas_params_default();
    magdyn_disc *d;
    int i, n = side * side;
    double px = 0, py = 0, mt = 0;
    if (!g0) return NULL;
    d = malloc(sizeof *d * (size_t)n);
    p.width = p.height = side * sqrt(PI / (4 * eta));
    p.periodic = 1;
    if (!d || magdyn_gas_advance(g0, 20 / (2 * (4 * eta / PI) * sqrt(PI))) != MAGDYN_OK ||
        !(g = magdyn_gas_new(&p)))
        goto out;
    for (i = 0; i < n; i++) {
        int s;
        double v;
        magdyn_gas_get_disc(g0, i, &d[i]);
        s = d[i].mass == mass[0] ? 0 : 1;
        v = sqrt(kt[s] / mass[s]);
        d[i].v = vd_gauss_pair(v, &seed);
        px += d[i].mass * d[i].v.x; py += d[i].mass * d[i].v.y; mt += d[i].mass;
    }
    for (i = 0; i < n; i++) {
        d[i].v = magdyn_v2(d[i].v.x - px / mt, d[i].v.y - py / mt);
        if (magdyn_gas_add_disc_species(g, &d[i], d[i].mass == mass[0] ? 0 : 1) < 0) {
            magdyn_gas_free(g);
            g = NULL;
            break;
        }
    }
out:
    free(d);
    magdyn_gas_free(g0);
    return g;
}

/*
 * Two masses, one diameter, Maxwellian species at different temperatures.
 * Kinetic theory (Boltzmann-Enskog collision integral with Maxwellian
 * species, 2D hard discs, as examples/mixture.c):
 *   dT1/dt = -8 sqrt(pi/2) (mu/M) chi n2 sqrt(T1/m1 + T2/m2) (T1 - T2),
 * chi Henderson's contact value.  Shown: the time for T1 - T2 to fall by e.
 */
static void mixture(const vd_run *run)
{
    enum { NT = 60 };
    static const double mass[2] = {1, 10}, kt[2] = {1.5, 0.5};
    int side = run->quick ? 60 : 140, n = side * side, k, j, nb = 0;
    double eta = 0.1, area = n * PI / (4 * eta), n2 = 0.5 * n / area;
    double chi = (1 - 7 * eta / 16) / ((1 - eta) * (1 - eta)), mu = mass[0] * mass[1] / (mass[0] + mass[1]);
    double c = 8 * sqrt(PI / 2) * mu / (mass[0] + mass[1]) * chi, t1 = kt[0], t2 = kt[1];
    double tmax = 8 / (c * n2 * sqrt(t1 / mass[0] + t2 / mass[1])), dt = tmax / NT;
    double ts[NT + 1], s1[NT + 1], s2[NT + 1], th1[NT + 1], th2[NT + 1], te_sim = NAN, te_th = NAN;
    double ratio[64], r_mean, r_err, mt = 0.5 * n * (mass[0] + mass[1]);
    magdyn_gas *g = equilibrated_mixture(side, eta, mass, kt, 0x853C49E6748FEA9BULL);
    magdyn_gas_observables o1, o2;
    char q[96];
    if (!g) { vd_custom("mixture: run", "-", NAN, NAN, NAN, "-", VD_FAIL); return; }
    for (k = 0; k <= NT; k++) {
        if (k) {
            magdyn_gas_advance(g, k * dt);
            for (j = 0; j < 200; j++) {        /* RK2 on the kinetic equations */
                double h = dt / 200, s = sqrt(t1 / mass[0] + t2 / mass[1]), u1, u2, su;
                u1 = t1 - 0.5 * h * c * n2 * s * (t1 - t2);
                u2 = t2 - 0.5 * h * c * n2 * s * (t2 - t1);
                su = sqrt(u1 / mass[0] + u2 / mass[1]);
                t1 -= h * c * n2 * su * (u1 - u2);
                t2 -= h * c * n2 * su * (u2 - u1);
            }
        }
        magdyn_gas_observe(g, 0, &o1);
        magdyn_gas_observe(g, 1, &o2);
        ts[k] = k * dt;
        s1[k] = o1.kt_trans; s2[k] = o2.kt_trans; th1[k] = t1; th2[k] = t2;
        /* the crossing of 1/e, interpolated */
        if (k && isnan(te_sim) && s1[k] - s2[k] < (s1[0] - s2[0]) / exp(1))
            te_sim = ts[k - 1] + dt * (s1[k - 1] - s2[k - 1] - (s1[0] - s2[0]) / exp(1)) /
                     ((s1[k - 1] - s2[k - 1]) - (s1[k] - s2[k]));
        if (k && isnan(te_th) && th1[k] - th2[k] < (th1[0] - th2[0]) / exp(1))
            te_th = ts[k - 1] + dt * (th1[k - 1] - th2[k - 1] - (th1[0] - th2[0]) / exp(1)) /
                    ((th1[k - 1] - th2[k - 1]) - (th1[k] - th2[k]));
    }
    vd_info("mixture m2/m1 = 10, eta 0.1: 1/e time of T1-T2", "kinetic theory (Maxwellian species)", te_th, te_sim);
    /* equilibrium: blocks of tmax/4 after the run above */
    for (j = 0; j < (run->quick ? 10 : 30); j++) {
        double a1 = 0, a2 = 0;
        for (k = 0; k < 10; k++) {
            magdyn_gas_advance(g, magdyn_gas_time(g) + tmax / 40);
            magdyn_gas_observe(g, 0, &o1);
            magdyn_gas_observe(g, 1, &o2);
            a1 += o1.kt_trans; a2 += o2.kt_trans;
        }
        ratio[nb++] = a1 / a2;
    }
    vd_mean_err(ratio, nb, &r_mean, &r_err);
    snprintf(q, sizeof q, "mixture N=%d: T_light / T_heavy at the end", n);
    /* momentum conservation: <m_i v_i^2/2> = kT (1 - m_i/M) */
    {
        double ref = (1 - mass[0] / mt) / (1 - mass[1] / mt), tol = NSIG * r_err;
        char t[32];
        snprintf(t, sizeof t, "abs %.2g (3se)", tol);
        vd_custom(q, "equipartition: 1", ref, r_mean, (r_mean - ref) / ref, t,
                  fabs(r_mean - ref) <= tol ? VD_PASS : VD_FAIL);
    }
    {
        vd_series s[4] = {{ts, s1, NT + 1, VD_LINE, 0.1, 0.3, 0.8, "light discs (m = 1): libmagdyn"},
                          {ts, th1, NT + 1, VD_DASH, 0.1, 0.3, 0.8, "light discs: kinetic theory"},
                          {ts, s2, NT + 1, VD_LINE, 0.8, 0.1, 0.1, "heavy discs (m = 10): libmagdyn"},
                          {ts, th2, NT + 1, VD_DASH, 0.8, 0.1, 0.1, "heavy discs: kinetic theory"}};
        vd_axes ax = {"two-mass mixture, eta = 0.1: temperatures relax", "time [sigma sqrt(m1/kT)]",
                      "kT per species", 0, 0, 0, 0, 0.4, 1.6, 2};
        ax.x1 = ts[NT];
        vd_plot(run, "mixture.png", &ax, s, 4);
    }
    magdyn_gas_free(g);
}

/*
 * Rotors (seed 003: two end discs on a rod) and discs, as examples/rotors.c:
 * the rotors start without spin; in equilibrium every quadratic degree of
 * freedom holds kT, less the share of the frozen total momentum.
 */
static void rotors(const vd_run *run)
{
    magdyn_gas_params p = {.width = 60, .height = 60, .periodic = 1};
    magdyn_gas *g = magdyn_gas_new(&p);
    unsigned long long seed = 0x9E3779B97F4A7C15ULL;
    magdyn_rotor *rs = malloc(100 * sizeof *rs);
    magdyn_disc *ds = malloc(100 * sizeof *ds);
    double px = 0, py = 0, mt = 0, spin[64], other[64], ms, es, mo, eo, t;
    int i, j, nb = run->quick ? 8 : 40;
    char tt[32];
    if (!g || !rs || !ds) goto out;
    for (i = 0; i < 100; i++) {
        magdyn_rotor *q = &rs[i];
        magdyn_disc *d = &ds[i];
        memset(q, 0, sizeof *q);
        q->r = magdyn_v2(6 * (i % 10) + 3, 6 * (i / 10) + 3);
        q->angle = 2 * PI * vd_uniform(&seed);
        q->mass = 2; q->half_length = 2; q->end_radius = 0.5;
        q->inertia = magdyn_rotor_inertia(q->mass, 0.4, q->half_length, q->end_radius);
        {   /* one draw a statement: argument order is unspecified in C */
            double gy = vd_gauss(&seed), gx = vd_gauss(&seed);
            q->v = magdyn_v2(gx / sqrt(2.0), gy / sqrt(2.0));
        }
        d->r = magdyn_v2(6 * (i % 10) + 6, 6 * (i / 10) + 6);
        d->v = vd_gauss_pair(1.0, &seed);
        d->mass = 1; d->radius = 0.5;
        px += q->mass * q->v.x + d->v.x; py += q->mass * q->v.y + d->v.y; mt += q->mass + d->mass;
    }
    for (i = 0; i < 100; i++) {
        rs[i].v = magdyn_v2(rs[i].v.x - px / mt, rs[i].v.y - py / mt);
        ds[i].v = magdyn_v2(ds[i].v.x - px / mt, ds[i].v.y - py / mt);
        if (magdyn_gas_add_rotor_species(g, &rs[i], 0) < 0 || magdyn_gas_add_disc_species(g, &ds[i], 1) < 0)
            goto out;
    }
    t = 400;                                     /* spin-up: ~100 collisions a body */
    if (magdyn_gas_advance(g, t) != MAGDYN_OK) goto out;
    for (j = 0; j < nb; j++) {
        double sr = 0, st = 0, sd = 0;
        for (i = 0; i < 20; i++) {
            magdyn_gas_observables o, od;
            if (magdyn_gas_advance(g, t += 2) != MAGDYN_OK) goto out;
            magdyn_gas_observe(g, 0, &o);
            magdyn_gas_observe(g, 1, &od);
            sr += o.kt_rot; st += o.kt_trans; sd += od.kt_trans;
        }
        spin[j] = sr / st;
        other[j] = sd / st;
    }
    vd_mean_err(spin, nb, &ms, &es);
    vd_mean_err(other, nb, &mo, &eo);
    {
        double r1 = 1 / (1 - 2 / mt), r2 = (1 - 1 / mt) / (1 - 2 / mt);
        snprintf(tt, sizeof tt, "abs %.2g (3se)", NSIG * es);
        vd_custom("rotors+discs: rotor kT_spin / kT_trans", "equipartition: 1", r1, ms, (ms - r1) / r1, tt,
                  fabs(ms - r1) <= NSIG * es ? VD_PASS : VD_FAIL);
        snprintf(tt, sizeof tt, "abs %.2g (3se)", NSIG * eo);
        vd_custom("rotors+discs: disc kT / rotor kT_trans", "equipartition: 1", r2, mo, (mo - r2) / r2, tt,
                  fabs(mo - r2) <= NSIG * eo ? VD_PASS : VD_FAIL);
    }
    free(rs); free(ds);
    magdyn_gas_free(g);
    return;
out:
    vd_custom("rotors+discs: run", "-", NAN, NAN, NAN, "-", VD_FAIL);
    free(rs); free(ds);
    magdyn_gas_free(g);
}

void vd_discs_more(const vd_run *run)
{
    speeds(run);
    mixture(run);
    rotors(run);
}
