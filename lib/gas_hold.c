/*
 * gas_hold.c - held contacts: the slots of gas_rotor (gas_hold.h).
 */
#include <limits.h>
#include <math.h>
#include "gas_hold.h"

/*
 * Holds the pair k, j in contact for the contact duration t_c: the pair
 * search leaves the two alone until then, and looks at them afresh at its
 * end.  For a multiple contact struck again within t_c (strike_together):
 * an end pressed into the gap between two ends of another rotor, or
 * into the wedge they form, by the spin.  The TC model's elastic repeat
 * makes it bounce back and forth in a clearance of rounding, 1e9 times a
 * second (two fuzz_gas inputs took minutes a millisecond; fuzz/corpus/
 * gas/regress-jam-*.bin), and hold_pressed cannot lift it: whatever lifts
 * one contact closes the other.  A hard pair in such a contact has its
 * collisions pile up at no time at all (its restitution is below 1), and
 * the pair moves on together: it is struck with e = 0, which stops every
 * contact's approach, and held, the enduring contact of the TC model.  A
 * soft contact of duration t_c under the load that presses it (g'' of
 * hold_pressed) gives way by |g''| t_c^2 / 2, and so may the held pair.
 * With t_c = 0 nothing is held.
 */
static void hold_slot(gas_rotor *r, int x, double until)
{
    int i, slot = -1;
    for (i = 0; i < GAS_HOLDS && slot < 0; i++)
        if (r->hold_with[i] == x) slot = i;
    if (until == -INFINITY) {
        /* released */
        if (slot >= 0) { r->hold_with[slot] = INT_MIN; r->hold_until[slot] = -INFINITY; }
        return;
    }
    /* a new hold takes a free slot (released at -INFINITY), or the one
       released soonest */
    if (slot < 0) {
        slot = 0;
        for (i = 1; i < GAS_HOLDS; i++)
            if (r->hold_until[i] < r->hold_until[slot]) slot = i;
    }
    r->hold_with[slot] = x;
    r->hold_until[slot] = until;
}

void gas_hold_pair(magdyn_gas *g, int k, int j, double t_c)
{
    int rk = g->ev[k].rot, rj = g->ev[j].rot;
    double until = g->time + t_c;
    if (rk >= 0) hold_slot(&g->rot[rk], gas_ext_id(g, j), until);
    if (rj >= 0) hold_slot(&g->rot[rj], gas_ext_id(g, k), until);
}

void gas_hold_clear(gas_rotor *r)
{
    int i;
    for (i = 0; i < GAS_HOLDS; i++) {
        r->hold_until[i] = -INFINITY;
        r->hold_with[i] = INT_MIN;   /* no body: ids are -1 - i or i */
    }
}
