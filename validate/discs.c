/*
 * discs.c - the event-driven hard-disc gas against the theory of hard discs:
 * the equation of state from the collision virial (virial series, Henderson,
 * Santos-Lopez de Haro-Yuste, Li et al. 2022), the collision rate against
 * Enskog's, the relaxation to the Rayleigh speed distribution (KS test),
 * a two-mass mixture's temperatures, and rotors' equipartition.
 *
 * Units: disc diameter sigma = 1, mass m = 1, kT = 1 (the gas is
 * scale-free).  Statistical errors are standard errors of block averages;
 * a PASS needs the difference within 3 of them (plus the reference's own
 * error where it states one).  The total momentum is zero, so in the
 * equilibrium the gas samples a particle of mass m_i has <m_i v_i^2 / 2> =
 * kT (1 - m_i / M), M the total mass: kT is taken as E_kin / (N - 1) for
 * one species, and the equipartition references carry that factor.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "validate.h"

#define PI 3.14159265358979323846
#define NSIG 3.0                      /* tolerance: 3 standard errors */

/* ---- references ---------------------------------------------------------- */

static double henderson(double eta) { return (1 + eta * eta / 8) / ((1 - eta) * (1 - eta)); }

/* Santos, Lopez de Haro and Yuste, J. Chem. Phys. 103 (1995) 4622 */
static double shy(double eta)
{
    double e0 = PI / (2 * sqrt(3.0));
    return 1 / (1 - 2 * eta + (2 * e0 - 1) * eta * eta / (e0 * e0));
}

/* Virial series to B10: B_k / B_2^(k-1) of Clisby and McCoy, J. Stat. Phys.
 * 122 (2006) 15, table 1 (D = 2), with B_2 rho = 2 eta.  *tail: the last
 * term, taken as the truncation error. */
static double virial(double eta, double *tail)
{
    static const double c[9] = {1, 0.782004, 0.53223180, 0.33355604, 0.1988425, 0.1148728,
                                0.0649930, 0.0362193, 0.0199537};
    double z = 1, x = 2 * eta, p = 1;
    int k;
    for (k = 0; k < 9; k++) { p *= x; z += c[k] * p; }
    *tail = c[8] * p;
    return z;
}

/* ---- a gas on a square lattice -------------------------------------------- */

/* nx x ny discs (sigma 1) at packing fraction eta in a periodic box; mass
 * of disc i from mass[i % nmass] and its species i % nmass, alternating
 * on the lattice; speeds Maxwellian at kT (or all sqrt(2 kT / m) when
 * same_speed), then the total momentum removed. */
static magdyn_gas *lattice(int nx, int ny, double eta, const double *mass, const double *kt,
                           int nmass, int same_speed, unsigned long long seed)
{
    double a = sqrt(PI / (4 * eta)), px = 0, py = 0, mt = 0;
    magdyn_gas_params p = {.width = nx * a, .height = ny * a, .periodic = 1};
    magdyn_gas *g = magdyn_gas_new(&p);
    magdyn_disc *d = malloc(sizeof *d * (size_t)nx * (size_t)ny);
    int i, n = nx * ny;
    if (!g || !d) { free(d); magdyn_gas_free(g); return NULL; }
    for (i = 0; i < n; i++) {
        int s = (i % nx + i / nx) % nmass;
        double m = mass[s], v = sqrt(kt[s] / m), th = 2 * PI * vd_uniform(&seed);
        d[i].r = magdyn_v2((i % nx + 0.5) * a, (i / nx + 0.5) * a);
        d[i].mass = m;
        d[i].radius = 0.5;
        d[i].v = same_speed ? magdyn_v2(sqrt(2.0) * v * cos(th), sqrt(2.0) * v * sin(th))
                            : vd_gauss_pair(v, &seed);
        px += m * d[i].v.x; py += m * d[i].v.y; mt += m;
    }
    for (i = 0; i < n; i++) {
        int s = (i % nx + i / nx) % nmass;
        d[i].v = magdyn_v2(d[i].v.x - px / mt, d[i].v.y - py / mt);
        if (magdyn_gas_add_disc_species(g, &d[i], s) < 0) { free(d); magdyn_gas_free(g); return NULL; }
    }
    free(d);
    return g;
}

/* ---- equation of state and collision rate ------------------------------- */

typedef struct { double bp, bp_err, z, z_err, nu, nu_ratio, nu_ratio_err; int ok; } eos;

/* Equilibrate eq collisions a disc, then blocks of cpb collisions a disc. */
static eos run_eos(int nx, int ny, double eta, double eq, int blocks, double cpb, unsigned long long seed)
{
    static const double m1 = 1, kt1 = 1;
    eos r;
    magdyn_gas *g = lattice(nx, ny, eta, &m1, &kt1, 1, 0, seed);
    int n = nx * ny, b;
    double area = n * PI / (4 * eta), rho = n / area, *bp = malloc(sizeof *bp * (size_t)blocks);
    double *rat = malloc(sizeof *rat * (size_t)blocks), *zz = malloc(sizeof *zz * (size_t)blocks);
    double nu_h = 2 * rho * (henderson(eta) - 1) / (2 * eta) * sqrt(PI), nu_sum = 0;
    memset(&r, 0, sizeof r);
    r.ok = g && bp && rat && zz;
    if (r.ok && magdyn_gas_advance(g, eq / nu_h) != MAGDYN_OK) r.ok = 0;
    for (b = 0; r.ok && b < blocks; b++) {
        magdyn_gas_observables o;
        double kt;
        magdyn_gas_reset_observables(g);
        if (magdyn_gas_advance(g, magdyn_gas_time(g) + cpb / nu_h) != MAGDYN_OK) { r.ok = 0; break; }
        magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
        /* Z = 1 + W / (N kT): the ideal part N kT, as in the canonical
         * references (the gas's ideal part E_kin is (N - 1) kT) */
        kt = o.kt_trans * n / (n - 1.0);
        zz[b] = 1 + (o.pressure * area - n * o.kt_trans) / (n * kt);
        bp[b] = zz[b] * rho;
        /* Enskog with the contact value the virial gives: g = (Z - 1) / (2 eta) */
        rat[b] = o.collision_rate / (2 * rho * (zz[b] - 1) / (2 * eta) * sqrt(PI * kt));
        nu_sum += o.collision_rate / sqrt(kt);
    }
    if (r.ok) {
        vd_mean_err(bp, blocks, &r.bp, &r.bp_err);
        vd_mean_err(zz, blocks, &r.z, &r.z_err);
        vd_mean_err(rat, blocks, &r.nu_ratio, &r.nu_ratio_err);
        r.nu = nu_sum / blocks;     /* at kT = 1 */
    }
    free(bp); free(rat); free(zz);
    magdyn_gas_free(g);
    return r;
}

static void stat_row(const char *q, const char *src, double ref, double ref_err, double val, double err)
{
    char t[32];
    double tol = NSIG * err + ref_err;
    snprintf(t, sizeof t, "abs %.2g (3se)", tol);
    vd_custom(q, src, ref, val, (val - ref) / fabs(ref), t, fabs(val - ref) <= tol ? VD_PASS : VD_FAIL);
}

static void equation_of_state(const vd_run *run)
{
    static const double etas[7] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7};
    static const double li_eta[2] = {0.670, 0.700}, li_bp[2] = {7.9867, 9.1296};
    double ze[7], zs[7], cx[61], ch[61], cs[61], cv[61], lz[2];
    int i, ne = 0, side = run->quick ? 30 : 64;
    char q[96];
    for (i = 0; i < 7; i++) {
        eos r;
        double tail, zv;
        if (run->quick && i != 2 && i != 6) continue;
        r = run_eos(side, side, etas[i], etas[i] > 0.6 ? 1000 : 100, 20,
                    run->quick ? 10 : 100, 0x9E3779B97F4A7C15ULL + (unsigned)i);
        if (!r.ok) {
            snprintf(q, sizeof q, "hard discs, eta = %.1f: run", etas[i]);
            vd_custom(q, "-", NAN, NAN, NAN, "-", VD_FAIL);
            continue;
        }
        ze[ne] = etas[i];
        zs[ne++] = r.z;
        zv = virial(etas[i], &tail);
        if (etas[i] <= 0.3) {
            snprintf(q, sizeof q, "discs N=%d, eta = %.1f: Z = PA/NkT", side * side, etas[i]);
            stat_row(q, "virial series to B10 (Clisby&McCoy)", zv, tail, r.z, r.z_err);
        }
        snprintf(q, sizeof q, "discs N=%d, eta = %.1f: Z = PA/NkT", side * side, etas[i]);
        vd_info(q, "Henderson 1975", henderson(etas[i]), r.z);
        vd_info(q, "Santos, Lopez de Haro, Yuste 1995", shy(etas[i]), r.z);
        snprintf(q, sizeof q, "discs N=%d, eta = %.1f: collision rate", side * side, etas[i]);
        stat_row(q, "Enskog, g(sigma) = (Z-1)/(2 eta)", 1, 0, r.nu_ratio, r.nu_ratio_err);
        vd_info(q, "Enskog, Henderson's g(sigma)",
                2 * (4 * etas[i] / PI) * (1 - 7 * etas[i] / 16) / ((1 - etas[i]) * (1 - etas[i])) * sqrt(PI),
                r.nu);
    }
    for (i = 0; i < 2; i++) {
        /* Li et al.'s N = 870: 30 x 29 discs */
        eos r;
        if (run->quick && i == 1) {
            /* next to the liquid-hexatic transition the pressure fluctuates
             * slowly: short blocks underestimate the error */
            vd_skip("discs N=870, eta = 0.700: beta P sigma^2", "--quick: the full run only");
            continue;
        }
        r = run_eos(30, 29, li_eta[i], run->quick ? 500 : 2000, 20, run->quick ? 50 : 1000,
                        0xD1B54A32D192ED03ULL + (unsigned)i);
        snprintf(q, sizeof q, "discs N=870, eta = %.3f: beta P sigma^2", li_eta[i]);
        lz[i] = li_bp[i] * PI / (4 * li_eta[i]);
        if (!r.ok) { vd_custom(q, "Li et al. 2022, N = 870", li_bp[i], NAN, NAN, "-", VD_FAIL); continue; }
        /* Li et al. quote 5 digits: their last digit as their error */
        stat_row(q, "Li et al. 2022, N = 870", li_bp[i], 1e-4, r.bp, r.bp_err);
    }
    for (i = 0; i <= 60; i++) {
        double t;
        cx[i] = 0.75 * i / 60;
        ch[i] = henderson(cx[i]);
        cs[i] = shy(cx[i]);
        cv[i] = cx[i] <= 0.5 ? virial(cx[i], &t) : NAN;
    }
    {
        vd_series s[5] = {{cx, ch, 61, VD_LINE, 0.1, 0.2, 0.8, "Henderson (1975)"},
                          {cx, cs, 61, VD_DASH, 0.1, 0.6, 0.2, "Santos, Lopez de Haro, Yuste (1995)"},
                          {cx, cv, 61, VD_DASH, 0.5, 0.5, 0.5, "virial series to B10 (Clisby & McCoy 2006)"},
                          {ze, zs, ne, VD_DOTS, 0.8, 0.1, 0.1, "libmagdyn: collision virial"},
                          {li_eta, lz, 2, VD_DOTS, 0.9, 0.6, 0.0, "Li et al. (2022), N = 870"}};
        vd_axes ax = {"hard discs: compressibility factor Z = PA/NkT", "packing fraction eta",
                      "Z", 0, 0, 0, 0.75, 0, 14, 0};
        vd_plot(run, "eos.png", &ax, s, 5);
    }
}

void vd_discs_more(const vd_run *run);   /* discs_more.c */

void vd_discs(const vd_run *run)
{
    vd_section("Hard discs: the event-driven gas");
    equation_of_state(run);
    vd_discs_more(run);
}
