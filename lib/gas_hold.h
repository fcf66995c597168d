/*
 * gas_hold.h - held contacts of the gas (not installed): a rotor jammed
 * against another body is held in contact with it for the contact
 * duration, and the pair search leaves the two alone until then
 * (gas_collide.c strikes and holds, gas_predict.c skips held pairs).
 * The slots live in gas_rotor (gas_impl.h).
 */
#ifndef MAGDYN_GAS_HOLD_H
#define MAGDYN_GAS_HOLD_H

#include "gas_impl.h"

/* The epoch time until which rotor slot set r holds the body of id x,
 * -INFINITY when it does not. */
static inline double gas_rotor_holds(const gas_rotor *r, int x)
{
    int i;
    for (i = 0; i < GAS_HOLDS; i++)
        if (r->hold_with[i] == x) return r->hold_until[i];
    return -INFINITY;
}

/* The epoch time until which k and j are held in a jammed contact
 * (gas_collide.c, strike_together), -INFINITY when they are not. */
static inline double gas_held_until(const struct magdyn_gas *g, int k, int j)
{
    int rk = g->ev[k].rot, rj = g->ev[j].rot;
    double until = rk >= 0 ? gas_rotor_holds(&g->rot[rk], gas_ext_id(g, j)) : -INFINITY;
    if (until == -INFINITY && rj >= 0) until = gas_rotor_holds(&g->rot[rj], gas_ext_id(g, k));
    return until;
}

/* Holds k and j for t_c from now; t_c = -INFINITY releases them. */
void gas_hold_pair(magdyn_gas *g, int k, int j, double t_c);

/* No holds: every slot free (a new rotor). */
void gas_hold_clear(gas_rotor *r);

#endif
