/*
 * gas_predict.c - event prediction in the event-driven gas: a particle's
 * next cell crossing or wall collision, and its earliest pair collision in
 * the cells around it (the general scan, for gases with rotors or near the
 * edges; gas_scan.c holds the disc-only hot path).  Each particle keeps its
 * pair event apart from the crossing or wall event (gas_event), so that a
 * crossing rescans only the cells it brings into reach.
 */
#include <math.h>
#include "kinetics_impl.h"
#include "gas_impl.h"
#include "gas_hold.h"
#include "gas_predict.h"

/* Earliest contact (relative time, below horizon) of k and j involving a rotor. */
static double rotor_pair_time(const magdyn_gas *g, int k, int j, double dx, double dy,
                              double dvx, double dvy, double horizon)
{
    mdk_arm ak[2], aj[2];
    int nk = arms_of(g, k, g->time, ak), nj = arms_of(g, j, g->time, aj), a, b;
    double s = g->rad[k] + g->rad[j], best = INFINITY;
    for (a = 0; a < nk; a++)
        for (b = 0; b < nj; b++) {
            double t = mdk_pair_root(dx, dy, dvx, dvy, ak[a], aj[b], s,
                                     best < horizon ? best : horizon);
            if (t < best) best = t;
        }
    return best;
}

/* predict_other in a box with walls. */
void gas_predict_other_walls(magdyn_gas *g, int k)
{
    const gas_particle *p = &g->p[k];
    gas_event *ev = &g->ev[k];
    double now = g->time, best = INFINITY, w = g->par.width, h = g->par.height;
    double vx = p->vx, vy = p->vy, x = p->x0 + vx * now, y = p->y0 + vy * now;
    int cx = ev->cx, cy = ev->cy;
    ev->otype = EV_NONE;
    /* cell crossings (towards the outer walls the wall comes first) */
    if (vx > 0.0 && cx + 1 < g->ncx) {
        double t = ((cx + 1) * g->cw - x) / vx;
        if (t < 0.0) t = 0.0;
        best = now + t; ev->otype = EV_CELL; ev->oarg = 0;
    } else if (vx < 0.0 && cx > 0) {
        double t = (cx * g->cw - x) / vx;
        if (t < 0.0) t = 0.0;
        best = now + t; ev->otype = EV_CELL; ev->oarg = 1;
    }
    if (vy > 0.0 && cy + 1 < g->ncy) {
        double t = ((cy + 1) * g->ch - y) / vy;
        if (t < 0.0) t = 0.0;
        if (now + t < best) { best = now + t; ev->otype = EV_CELL; ev->oarg = 2; }
    } else if (vy < 0.0 && cy > 0) {
        double t = (cy * g->ch - y) / vy;
        if (t < 0.0) t = 0.0;
        if (now + t < best) { best = now + t; ev->otype = EV_CELL; ev->oarg = 3; }
    }
    /* walls */ {
        if (ev->rot < 0) {
            double r = g->rad[k], t;
            if (vx < 0.0) { t = (x - r) / -vx; if (t < 0.0) t = 0.0;
                if (now + t < best) { best = now + t; ev->otype = EV_WALL; ev->oarg = 0; } }
            else if (vx > 0.0) { t = (w - r - x) / vx; if (t < 0.0) t = 0.0;
                if (now + t < best) { best = now + t; ev->otype = EV_WALL; ev->oarg = 1; } }
            if (vy < 0.0) { t = (y - r) / -vy; if (t < 0.0) t = 0.0;
                if (now + t < best) { best = now + t; ev->otype = EV_WALL; ev->oarg = 2; } }
            else if (vy > 0.0) { t = (h - r - y) / vy; if (t < 0.0) t = 0.0;
                if (now + t < best) { best = now + t; ev->otype = EV_WALL; ev->oarg = 3; } }
        } else {
            mdk_arm a[2];
            int e, wall;
            double lim;
            arms_of(g, k, now, a);
            for (e = 0; e < 2; e++)
                for (wall = 0; wall < 4; wall++) {
                    mdk_arm aw = a[e];
                    double t;
                    lim = (best < ev->tp ? best : ev->tp) - now;
                    if (wall >= 2) aw.th -= 0.5 * MAGDYN_PI;
                    t = wall < 2 ? mdk_wall_root(x, vx, aw, wall ? w : 0.0, wall ? 1 : -1, g->rad[k], lim)
                                 : mdk_wall_root(y, vy, aw, wall == 3 ? h : 0.0, wall == 3 ? 1 : -1, g->rad[k], lim);
                    if (now + t < best) {
                        best = now + t; ev->otype = EV_WALL; ev->oarg = wall; ev->oend = e;
                    }
                }
        }
    }
    ev->to = best;
}

/* What a scan of k's neighbours needs at hand. */
typedef struct {
    double x, y, vx, vy, rad, now;
    double best;      /* earliest pair time found, relative to now */
    int k, rot;
} scan_ctx;

/* Pairs of k with the particles of cell c, seen shifted by (sx, sy). */
static inline void scan_cell(magdyn_gas *g, scan_ctx *sc, int c, double sx, double sy)
{
    int j;
    for (j = g->head[c]; j >= 0; j = g->link[j].next) {
        const gas_particle *q = &g->p[j];
        double dx, dy, dvx, dvy, t;
        if (j == sc->k) continue;
        dx = sc->x - (q->x0 + q->vx * sc->now + sx);
        dy = sc->y - (q->y0 + q->vy * sc->now + sy);
        dvx = sc->vx - q->vx; dvy = sc->vy - q->vy;
        if ((sc->rot & g->ev[j].rot) < 0) {     /* both discs (rot == -1) */
            double b = dx * dvx + dy * dvy, s, cc, v2, disc;
            if (b >= 0.0) continue;
            s = sc->rad + g->rad[j];
            cc = dx * dx + dy * dy - s * s;
            if (cc <= 0.0) {
                t = 0.0;
            } else {
                /* t >= c / (-2 b): skip the square root when that already
                 * loses to the best event */
                if (cc > -2.0 * b * sc->best) continue;
                v2 = dvx * dvx + dvy * dvy;
                disc = b * b - v2 * cc;
                if (disc <= 0.0) continue;
                t = cc / (-b + sqrt(disc));
            }
        } else {
            double to = g->ev[sc->k].to - sc->now, held = gas_held_until(g, sc->k, j);
            /* a jammed pair is not searched while held: its event is the
             * hold's end, when the pair is looked at afresh */
            t = held > sc->now ? held - sc->now
                               : rotor_pair_time(g, sc->k, j, dx, dy, dvx, dvy, sc->best < to ? sc->best : to);
        }
        if (t < sc->best) {
            gas_event *ev = &g->ev[sc->k];
            sc->best = t;
            ev->partner = j; ev->pcount = g->link[j].count;
        }
    }
}

/*
 * Pair collisions of k with the particles in the cells at
 * offsets ddx in [x0, x1], ddy in [y0, y1] from its own; keeps the earliest
 * in ev->tp.  Periodic images come from the cell shift.  Disc pairs are kept
 * even when later than the next crossing, which rescans only the new cells;
 * with rotors in the gas every crossing rescans all cells, so rotor pairs
 * need not be searched past it.
 */
static void scan_pairs(magdyn_gas *g, int k, int x0, int x1, int y0, int y1)
{
    const gas_particle *p = &g->p[k];
    if (g->n_rot == 0) { gas_scan_pairs_discs(g, k, x0, x1, y0, y1); return; }
    gas_event *ev = &g->ev[k];
    int ncx = g->ncx, ncy = g->ncy, cx = ev->cx, cy = ev->cy, ddx, ddy;
    scan_ctx sc;
    sc.now = g->time;
    sc.x = p->x0 + p->vx * sc.now; sc.y = p->y0 + p->vy * sc.now;
    sc.vx = p->vx; sc.vy = p->vy; sc.rad = g->rad[k];
    sc.best = ev->tp - g->time; sc.k = k;
    sc.rot = ev->rot < 0 ? -1 : 0;
    if (cx + x0 >= 0 && cx + x1 < ncx && cy + y0 >= 0 && cy + y1 < ncy) {
        /* away from the edges: no wrapping, no shifts */
        for (ddy = y0; ddy <= y1; ddy++) {
            int row = (cy + ddy) * ncx + cx;
            for (ddx = x0; ddx <= x1; ddx++) scan_cell(g, &sc, row + ddx, 0.0, 0.0);
        }
    } else {
        double w = g->par.width, h = g->par.height;
        int periodic = g->par.periodic;
        for (ddy = y0; ddy <= y1; ddy++) {
            int yy = cy + ddy;
            double sy = 0.0;
            if (yy < 0) { if (!periodic) continue; yy += ncy; sy = -h; }
            else if (yy >= ncy) { if (!periodic) continue; yy -= ncy; sy = h; }
            for (ddx = x0; ddx <= x1; ddx++) {
                int xx = cx + ddx;
                double sx = 0.0;
                if (xx < 0) { if (!periodic) continue; xx += ncx; sx = -w; }
                else if (xx >= ncx) { if (!periodic) continue; xx -= ncx; sx = w; }
                scan_cell(g, &sc, yy * ncx + xx, sx, sy);
            }
        }
    }
    if (sc.best < ev->tp - g->time) ev->tp = g->time + sc.best;
}

/* All events of k after g->time; returns the earliest time. */
double gas_predict(magdyn_gas *g, int k)
{
    gas_event *ev = &g->ev[k];
    ev->tp = INFINITY;
    predict_other(g, k);
    scan_pairs(g, k, -1, 1, -1, 1);
    return earliest(ev);
}

/* After k entered a new cell in direction dir: keep its pair event if still
 * valid and scan only the cells that came into reach. */
double gas_predict_after_crossing(magdyn_gas *g, int k, int dir)
{
    gas_event *ev = &g->ev[k];
    /* rotor pairs are searched only up to the crossing: rescan everything */
    if (g->n_rot > 0 || (ev->tp < INFINITY && g->link[ev->partner].count != ev->pcount))
        return gas_predict(g, k);
    predict_other(g, k);
    switch (dir) {
    case 0: scan_pairs(g, k, 1, 1, -1, 1); break;
    case 1: scan_pairs(g, k, -1, -1, -1, 1); break;
    case 2: scan_pairs(g, k, -1, 1, 1, 1); break;
    default: scan_pairs(g, k, -1, 1, -1, -1); break;
    }
    return earliest(ev);
}
