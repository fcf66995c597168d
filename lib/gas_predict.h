/*
 * gas_predict.h - event prediction in the event-driven gas: what the event
 * loop asks (a particle's events after a collision, a crossing or a wall),
 * and the crossing of a cell edge, inline: the call of an out-of-line one,
 * with its register saves, cost as much as its few flops.
 */
#ifndef MAGDYN_GAS_PREDICT_H
#define MAGDYN_GAS_PREDICT_H

#include <math.h>
#include "gas_impl.h"

/* gas_predict.c: all events of k after g->time (the earliest time
 * returned); after k entered a new cell in direction dir, the same, its
 * pair event kept if still valid and only the cells that came into reach
 * scanned; the walls and crossings of a walled box (predict_other). */
double gas_predict(struct magdyn_gas *g, int k);
double gas_predict_after_crossing(struct magdyn_gas *g, int k, int dir);
void gas_predict_other_walls(struct magdyn_gas *g, int k);

/* gas_scan.c: k's pair event against the discs of the cells at offsets
 * [x0, x1] x [y0, y1] from its own, in a gas of discs only; and, with
 * GAS_JOINT_SCAN, both discs of a collision at once (0 where the joint scan
 * does not apply: predict them one by one). */
void gas_scan_pairs_discs(struct magdyn_gas *g, int k, int x0, int x1, int y0, int y1);
#if defined(__GNUC__) || defined(__clang__)
#define GAS_JOINT_SCAN 1
int gas_predict_pair(struct magdyn_gas *g, int k, int j, double *tk, double *tj);
#endif

/* Time from now to the cell edge at b of a coordinate x moving at v (the
 * edge ahead, so never negative; INFINITY for v = 0). */
static inline double edge_time(double b, double x, double v)
{
    double t = v != 0.0 ? (b - x) / v : INFINITY;
    return t > 0.0 ? t : 0.0;
}

/*
 * predict_other in a periodic box: only cell crossings, one along each
 * axis, the earlier taken (x on a tie).  Selects rather than branches,
 * which the signs of the velocity made a coin toss each.
 */
static inline void predict_crossing_periodic(magdyn_gas *g, int k)
{
    const gas_particle *p = &g->p[k];
    gas_event *ev = &g->ev[k];
    double now = g->time, vx = p->vx, vy = p->vy, x = p->x0 + vx * now, y = p->y0 + vy * now;
    int cx = ev->cx, cy = ev->cy;
    double tx = now + edge_time((cx + (vx > 0.0)) * g->cw, x, vx);
    double ty = now + edge_time((cy + (vy > 0.0)) * g->ch, y, vy);
    int ych = ty < tx, dx = 1 - (vx > 0.0), dy = 3 - (vy > 0.0);
    double best = ty < tx ? ty : tx;     /* the form of a min instruction */
    ev->to = best;
    ev->oarg = (signed char)(dx + (dy - dx) * ych);
    ev->otype = best < INFINITY ? EV_CELL : EV_NONE;
}

/* Next cell crossing or wall collision of k after g->time: writes the
 * "other" half of g->ev[k]; rotor walls are searched only up to the
 * particle's pair event.  The periodic case, the common one, inline. */
static inline void predict_other(magdyn_gas *g, int k)
{
    if (g->par.periodic) predict_crossing_periodic(g, k);
    else gas_predict_other_walls(g, k);
}

#endif
