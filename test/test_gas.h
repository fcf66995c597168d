/*
 * test_gas.h - helpers shared by the gas tests: lattice starts, the
 * smallest gap between particles, Kolmogorov-Smirnov against the 2D
 * Maxwell-Boltzmann (Rayleigh) speed distribution.
 */
#ifndef MAGDYN_TEST_GAS_H
#define MAGDYN_TEST_GAS_H

#include <stdlib.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

/*
 * side x side discs of diameter 1 on a square lattice at packing fraction
 * eta, periodic.  mass(i) gives the mass and species (i % 2 when two
 * masses); velocities Gaussian with kT = 1 / mass scaled by kt, or all of
 * speed `speed` in random directions when speed > 0.  Total momentum is
 * removed.
 */
static inline magdyn_gas *lattice_gas(int side, double eta, const double mass[2], double kt,
                                      double speed, test_rng *r)
{
    double a = sqrt(MAGDYN_PI / (4.0 * eta)), px = 0, py = 0, mt = 0;
    magdyn_gas_params p = {.width = side * a, .height = side * a, .periodic = 1};
    magdyn_gas *g = magdyn_gas_new(&p);
    magdyn_disc *d = malloc(sizeof *d * (size_t)side * (size_t)side);
    int i, n = side * side;
    for (i = 0; i < n; i++) {
        int sp = ((i % side) + (i / side)) % 2;
        d[i].r = magdyn_v2((i % side + 0.5) * a, (i / side + 0.5) * a);
        d[i].mass = mass[sp];
        d[i].radius = 0.5;
        if (speed > 0) {
            double th = test_rng_range(r, 0, 2 * MAGDYN_PI);
            d[i].v = magdyn_v2(speed * cos(th), speed * sin(th));
        } else {
            double s = sqrt(kt / mass[sp]);
            d[i].v = magdyn_v2(s * test_rng_normal(r), s * test_rng_normal(r));
        }
        px += d[i].mass * d[i].v.x; py += d[i].mass * d[i].v.y; mt += d[i].mass;
    }
    for (i = 0; i < n; i++) {
        int sp = ((i % side) + (i / side)) % 2;
        if (speed <= 0) { d[i].v.x -= px / mt; d[i].v.y -= py / mt; }
        magdyn_gas_add_disc_species(g, &d[i], mass[0] == mass[1] ? 0 : sp);
    }
    free(d);
    return g;
}

/* Smallest gap between end discs / discs, relative to the contact
 * distance (negative: overlap), brute force; periodic by minimum image. */
static inline double smallest_gap(const magdyn_gas *g, double w, double h, int periodic)
{
    int nd = magdyn_gas_discs(g), nr = magdyn_gas_rotors(g), n = nd + 2 * nr, i, j;
    double worst = INFINITY;
    double *x = malloc(sizeof(double) * 3 * (size_t)n);
    int *owner = malloc(sizeof(int) * (size_t)n);
    for (i = 0; i < nd; i++) {
        magdyn_disc d;
        magdyn_gas_get_disc(g, i, &d);
        x[3 * i] = d.r.x; x[3 * i + 1] = d.r.y; x[3 * i + 2] = d.radius; owner[i] = i;
    }
    for (i = 0; i < nr; i++) {
        magdyn_rotor q;
        magdyn_vec2 e[2];
        int k;
        magdyn_gas_get_rotor(g, i, &q);
        magdyn_rotor_ends(&q, &e[0], &e[1]);
        for (k = 0; k < 2; k++) {
            int m = nd + 2 * i + k;
            x[3 * m] = e[k].x; x[3 * m + 1] = e[k].y; x[3 * m + 2] = q.end_radius; owner[m] = nd + i;
        }
    }
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1], s = x[3 * i + 2] + x[3 * j + 2];
            if (owner[i] == owner[j]) continue;
            if (periodic) { dx -= w * round(dx / w); dy -= h * round(dy / h); }
            if ((sqrt(dx * dx + dy * dy) - s) / s < worst) worst = (sqrt(dx * dx + dy * dy) - s) / s;
        }
    free(x); free(owner);
    return worst;
}

/* the distribution function of Exp(1) */
static inline double exp1_cdf(double u) { return 1.0 - exp(-u); }

/* KS statistic of all the discs' speeds against the Rayleigh law
 * F(v) = 1 - exp(-m v^2 / (2 kT)), kT their kinetic temperature. */
static inline double ks_rayleigh(const magdyn_gas *g)
{
    int nd = magdyn_gas_discs(g), i, n = 0;
    double *u = malloc(sizeof(double) * (size_t)nd), kt = 0, dmax;
    magdyn_gas_observables o;
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
    kt = o.kt_trans;
    for (i = 0; i < nd; i++) {
        magdyn_disc d;
        magdyn_gas_get_disc(g, i, &d);
        /* m v^2 / (2 kT) is Exp(1) distributed for every mass */
        u[n++] = 0.5 * d.mass * magdyn_vec2_norm2(d.v) / kt;
    }
    dmax = test_ks_statistic(u, (size_t)n, exp1_cdf);
    free(u);
    return dmax;
}

#endif
