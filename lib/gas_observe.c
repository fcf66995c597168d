/*
 * gas_observe.c - observables of the event-driven gas: kinetic temperatures
 * per species, energy and momentum, window averages of the collision rate
 * and of the pressure from the collision virial, speed histograms.
 */
#include <math.h>
#include <string.h>
#include "gas_impl.h"

void magdyn_gas_reset_observables(magdyn_gas *g)
{
    if (!g) return;
    g->obs_ke_int = 0.0;
    g->obs_t_acc = g->time;
    g->obs_t0 = g->t_now;
    g->obs_coll = g->obs_wall = g->obs_events = g->obs_crossings = g->obs_stale = 0;
    g->obs_virial = g->obs_wall_dp = 0.0;
}

magdyn_status magdyn_gas_observe(const magdyn_gas *g, int species, magdyn_gas_observables *out)
{
    magdyn_gas_observables o;
    double e_trans = 0.0, e_rot = 0.0, window, area;
    int k, n_all;
    if (!g || !out || species < MAGDYN_GAS_ALL_SPECIES) return MAGDYN_EINVAL;
    memset(&o, 0, sizeof o);
    o.time = g->t_now;
    for (k = 0; k < g->n; k++) {
        const gas_particle *p = &g->p[k];
        double m = g->ev[k].mass;
        if (species != MAGDYN_GAS_ALL_SPECIES && g->ev[k].species != species) continue;
        e_trans += 0.5 * m * (p->vx * p->vx + p->vy * p->vy);
        o.momentum.x += m * p->vx;
        o.momentum.y += m * p->vy;
        if (g->ev[k].rot >= 0) {
            const gas_rotor *q = &g->rot[g->ev[k].rot];
            e_rot += 0.5 * q->inertia * q->omega * q->omega;
            o.spin += q->inertia * q->omega;
            o.rotors++;
        } else {
            o.discs++;
        }
    }
    if (o.discs + o.rotors > 0) o.kt_trans = e_trans / (o.discs + o.rotors);
    if (o.rotors > 0) o.kt_rot = 2.0 * e_rot / o.rotors;
    o.energy = e_trans + e_rot;

    window = o.time - g->obs_t0;
    o.window = window;
    o.collisions = g->obs_coll;
    o.wall_collisions = g->obs_wall;
    o.events = g->obs_events;
    o.cell_crossings = g->obs_crossings;
    o.stale_events = g->obs_stale;
    n_all = g->n;
    area = g->par.width * g->par.height;
    if (window > 0.0 && n_all > 0) {
        /* <E_trans> over the window, including the stretch since the last
         * kinetic-energy change */
        double ke_int = g->obs_ke_int + g->ke_trans * (g->time - g->obs_t_acc);
        o.collision_rate = 2.0 * (double)g->obs_coll / ((double)n_all * window);
        /* virial theorem in 2D: P A = N kT + (1/2) <sum r_ij . F_ij>, with
         * N kT = <E_trans> (two degrees of freedom) */
        o.pressure = (ke_int / window + g->obs_virial / (2.0 * window)) / area;
        if (!g->par.periodic)
            o.wall_pressure = g->obs_wall_dp / (2.0 * (g->par.width + g->par.height) * window);
    }
    *out = o;
    return MAGDYN_OK;
}

long magdyn_gas_speed_histogram(const magdyn_gas *g, int species, double vmax,
                                int nbins, long *counts)
{
    long counted = 0;
    int k;
    if (!g || !counts || nbins < 1 || species < MAGDYN_GAS_ALL_SPECIES) return MAGDYN_EINVAL;
    if (!isfinite(vmax)) return MAGDYN_ENONFINITE;
    if (!(vmax > 0.0)) return MAGDYN_EINVAL;
    for (k = 0; k < nbins; k++) counts[k] = 0;
    for (k = 0; k < g->n; k++) {
        const gas_particle *p = &g->p[k];
        double v;
        long b;
        if (species != MAGDYN_GAS_ALL_SPECIES && g->ev[k].species != species) continue;
        v = sqrt(p->vx * p->vx + p->vy * p->vy);
        if (!(v < vmax)) continue;
        b = (long)(v / vmax * nbins);
        if (b >= nbins) b = nbins - 1;
        counts[b]++;
        counted++;
    }
    return counted;
}
