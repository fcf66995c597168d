/*
 * gas_collide.h - collision processing in the event-driven gas, its hot
 * inline part: the collision of two discs and the bookkeeping every pair
 * collision shares (trajectories, energy, virial, the counts that make old
 * predictions stale).  Rotor pairs, walls and cell moves in gas_collide.c.
 */
#ifndef MAGDYN_GAS_COLLIDE_H
#define MAGDYN_GAS_COLLIDE_H

#include <float.h>
#include <math.h>
#include "kinetics_impl.h"
#include "gas_impl.h"

/* After k's velocity changed at g->time, where it was at pose a: its new
 * trajectory through a. */
static inline void reanchor(magdyn_gas *g, int k, gas_pose a)
{
    gas_particle *p = &g->p[k];
    int r = g->ev[k].rot;
    p->x0 = a.x - p->vx * g->time; p->y0 = a.y - p->vy * g->time;
    if (r >= 0) {
        gas_rotor *q = &g->rot[r];
        q->angle0 = a.th - q->omega * g->time;
        if (fabs(q->angle0) > 64.0 * MAGDYN_PI) q->angle0 = remainder(q->angle0, 2.0 * MAGDYN_PI);
    }
}

/* The integral of the kinetic energy over the observation window, brought up to now. */
static inline void ke_accumulate(magdyn_gas *g)
{
    g->obs_ke_int += g->ke_trans * (g->time - g->obs_t_acc);
    g->obs_t_acc = g->time;
}

static inline double ke_of(const magdyn_gas *g, int k)
{
    const gas_particle *p = &g->p[k];
    return 0.5 * g->ev[k].mass * (p->vx * p->vx + p->vy * p->vy);
}

/*
 * The TC model (Luding & McNamara, Granular Matter 1 (1998) 113): a
 * collision of a particle whose previous one was less than the contact
 * duration t_c ago is elastic.  A hard-sphere collision stands for a
 * contact that lasts t_c; one that begins before the last has ended is a
 * multi-particle contact, in which real grains dissipate little; and the
 * sequence of ever shorter intervals of an inelastic collapse (McNamara &
 * Young 1994) is broken off at t_c.  The restitution e of a collision of k
 * with j (-1: a wall) now: e, or 1 within t_c.  Called only for e < 1, so
 * that elastic runs do exactly what they did.
 */
static inline double tc_restitution(const magdyn_gas *g, int k, int j, double e)
{
    double last = g->t_last[k];
    if (j >= 0 && g->t_last[j] > last) last = g->t_last[j];
    return g->time - last < g->t_contact ? 1.0 : e;
}

/* The bookkeeping after an impulse jimp changed the velocities of k and j,
 * which were at ak0, aj0 with kinetic energy ke0: their trajectories, the
 * energy, the virial (the impulse times the separation along the normal), the
 * counts that make events predicted against the old trajectories stale. */
static inline void pair_applied(magdyn_gas *g, int k, int j, gas_pose ak0, gas_pose aj0,
                                double ke0, double virial)
{
    reanchor(g, k, ak0); reanchor(g, j, aj0);
    ke_accumulate(g);
    g->ke_trans += ke_of(g, k) + ke_of(g, j) - ke0;
    g->obs_virial += virial;
    g->link[k].count++; g->link[j].count++;
    if (g->tc_track) g->t_last[k] = g->t_last[j] = g->time;
    g->collisions++; g->obs_coll++;
}

/*
 * Two discs that their impulse leaves closing, or separating no faster than
 * the rounding of the pair search's test, along n (from j to k): with
 * restitution 0 (or 1e-17) the impulse cancels the approach only to
 * rounding, or rounds away.  The pair search, which rounds differently,
 * would find the two in contact again at once, forever (147 of 2000
 * glancing collisions at restitution 0 did).  They leave instead at the
 * rounding speed floor = 4 eps (|v_k| + |v_j|) (1 + pos / d), within
 * rounding of the exact result, by an impulse along n that keeps momentum
 * as any other.  The search tests the sign of (r_k - r_j).(v_k - v_j)
 * from positions of size pos (coordinates, and a periodic box's size) at
 * separation d, whose rounding reads as a normal speed of eps |v| pos / d:
 * two discs touching across a periodic edge, 0.043 m apart at coordinates
 * near 1 m and separating at 1.7e-15 m/s, above the speed floor alone,
 * were found approaching again at once, forever (MAGDYN_ENOCONV;
 * fuzz/corpus/gas/regress-periodic-touch.bin).  im1, im2: inverse masses;
 * pos, d: as above [m].
 * Returns the impulse given to k [N s], 0 when the pair separates faster.
 * Rotor pairs go without (do_pair): a spinning rotor grazing a neighbour
 * renews the contact by its rotation, and pushed apart at the floor it
 * chattered far longer (a fuzz input: 3 s became 20 s).
 */
static inline double unstick_discs(double nx, double ny, double im1, gas_particle *p,
                                   double im2, gas_particle *q, double pos, double d)
{
    double vn = nx * (p->vx - q->vx) + ny * (p->vy - q->vy);
    double floor = 4.0 * DBL_EPSILON * (fabs(p->vx) + fabs(p->vy) + fabs(q->vx) + fabs(q->vy)), jimp;
    /* vn < floor (1 + pos / d), without a division on the collision's path */
    if (!(vn * d < floor * (d + pos))) return 0.0;
    floor *= 1.0 + pos / d;
    jimp = ((floor > 0.0 ? floor : DBL_MIN) - vn) / (im1 + im2);
    p->vx += jimp * im1 * nx; p->vy += jimp * im1 * ny;
    q->vx -= jimp * im2 * nx; q->vy -= jimp * im2 * ny;
    return jimp;
}

/* The size of the coordinates that the pair search rounds for a pair at
 * ak0, aj0 (with the box's, where a periodic image shifts them) [m]. */
static inline double pos_scale(const magdyn_gas *g, gas_pose ak0, gas_pose aj0)
{
    double s = fabs(ak0.x) + fabs(ak0.y) + fabs(aj0.x) + fabs(aj0.y);
    return g->par.periodic ? s + g->par.width + g->par.height : s;
}

/* The collision of discs k and j now, the common case (mdk_impulse_discs):
 * 1 when an impulse was applied.  Inline: the event loop's one call a
 * collision, whose prologue and register saves cost ~25 instructions. */
static GAS_HOT_INLINE int do_pair_discs(magdyn_gas *g, int k, int j)
{
    gas_particle *p = &g->p[k], *q = &g->p[j];
    gas_pose ak0 = pose_at(g, k, g->time), aj0 = pose_at(g, j, g->time);
    double dx = ak0.x - aj0.x, dy = ak0.y - aj0.y, d, nx, ny, jimp, ke0, e = g->e_pair;
    if (g->par.periodic) { dx = min_image(dx, g->par.width); dy = min_image(dy, g->par.height); }
    d = sqrt(dx * dx + dy * dy);
    if (!(d > 0.0)) return 0;
    nx = dx / d; ny = dy / d;
    ke0 = ke_of(g, k) + ke_of(g, j);
    if (e < 1.0) e = tc_restitution(g, k, j, e);
    jimp = mdk_impulse_discs(nx, ny, e, g->ev[k].inv_mass, &p->vx, &p->vy,
                             g->ev[j].inv_mass, &q->vx, &q->vy);
    jimp += unstick_discs(nx, ny, g->ev[k].inv_mass, p, g->ev[j].inv_mass, q,
                          pos_scale(g, ak0, aj0), d);
    if (!(jimp > 0.0)) return 0;
    pair_applied(g, k, j, ak0, aj0, ke0, jimp * (dx * nx + dy * ny));
    return 1;
}

#endif
