/*
 * impulse_restitution.c - phase 2 of the impulse solver (layer 3): Poisson
 * restitution on the contacts hit fast enough, guarded so that the kinetic
 * energy never rises.  See impulse.h and impulse_impl.h.
 */
#include <math.h>
#include <stdlib.h>
#include "impulse_impl.h"

/* The restitution kept when its full value would raise the kinetic energy
 * by rounding alone: the root of the energy balance, then shades of it,
 * then none (the last entry, 0). */
#define RESTITUTION_SHADES 5
static const double restitution_shade[RESTITUTION_SHADES] = {1.0, 1.0 - 1e-12, 1.0 - 1e-9, 1.0 - 1e-6, 0.0};

/* The kinetic-energy inner product of velocity pairs (dv, dw), (v, w) of a
 * body: m dv.v + dw . I w, the inertia taken in the inertial frame. */
static double kinetic_dot(const magdyn_body *b, magdyn_vec3 dv, magdyn_vec3 dw, magdyn_vec3 v,
                          magdyn_vec3 w)
{
    magdyn_vec3 db = magdyn_quat_rotate_inv(b->orientation, dw), wb = magdyn_quat_rotate_inv(b->orientation, w);
    if (b->fixed) return 0.0;
    return b->mass * magdyn_vec3_dot(dv, v)
         + b->inertia.x * db.x * wb.x + b->inertia.y * db.y * wb.y + b->inertia.z * db.z * wb.z;
}

magdyn_status impulse_restitution(magdyn_body *bs, int nb, const impulse_body *sc, const int *ub, int nu,
                                  impulse_row *rows, int nr, magdyn_contact *c, int nc,
                                  const magdyn_impulse_params *p, double e0, int *dropped)
{
    int i, k, any = 0;
    magdyn_vec3 *sv;
    if (!(p->restitution > 0.0)) return MAGDYN_OK;
    sv = malloc((size_t)(nb > 0 ? nb : 1) * 4 * sizeof *sv);
    if (!sv) return MAGDYN_ENOMEM;
    for (i = 0; i < nb; i++)
        if (sc[i].used) { sv[2 * i] = bs[i].velocity; sv[2 * i + 1] = bs[i].omega; }
    /* a contact bounces as a whole when any of its touching points
       approached faster than bounce_speed: then the velocity change,
       e times that of compression, does not depend on how the
       compression impulse is shared among redundant points */
    for (i = 0; i < nc; i++) c[i].impulse[0].x = 0.0;   /* flag: bounces */
    for (i = 0; i < nr; i++)
        if (rows[i].target >= 0.0 && -rows[i].vn0 > p->bounce_speed)
            c[rows[i].c].impulse[0].x = 1.0;
    for (i = 0; i < nr; i++) {
        impulse_row *r = &rows[i];
        r->bounce = r->target >= 0.0 && c[r->c].impulse[0].x == 1.0;
    }
    for (i = 0; i < nr; i++) {
        impulse_row *r = &rows[i];
        if (r->bounce && r->ln > 0.0) {
            impulse_row_apply(bs, sc, r, magdyn_vec3_scale(r->n, p->restitution * r->ln));
            r->ln *= 1.0 + p->restitution;
            any = 1;
        }
    }
    if (any && impulse_kinetic(bs, sc, nb) > e0) {
        /* The energy would rise: by friction coupling several points,
           or by the last digits of an unconverged compression.  Along
           the restitution direction du (per unit e) the kinetic energy
           is e1 + s b + s^2 a / 2: take the largest s <= e that keeps it
           at most e0 (s = 0 in the worst case). */
        double a = 0.0, b = 0.0, e1p = 0.0, sc2, disc;
        for (i = 0; i < nu; i++) {
            const magdyn_body *bd = &bs[ub[i]];
            magdyn_vec3 dv = magdyn_vec3_scale(magdyn_vec3_sub(bd->velocity, sv[2 * ub[i]]), 1.0 / p->restitution);
            magdyn_vec3 dw = magdyn_vec3_scale(magdyn_vec3_sub(bd->omega, sv[2 * ub[i] + 1]), 1.0 / p->restitution);
            a += kinetic_dot(bd, dv, dw, dv, dw);
            b += kinetic_dot(bd, dv, dw, sv[2 * ub[i]], sv[2 * ub[i] + 1]);
        }
        for (i = 0; i < nu; i++) {
            magdyn_body tmp = bs[ub[i]];
            tmp.velocity = sv[2 * ub[i]];
            tmp.omega = sv[2 * ub[i] + 1];
            e1p += magdyn_body_kinetic_energy(&tmp);
        }
        disc = b * b - 2.0 * a * (e1p - e0);
        sc2 = (a > 0.0 && disc >= 0.0) ? (-b + sqrt(disc)) / a : 0.0;
        if (!(sc2 > 0.0)) sc2 = 0.0;
        if (sc2 > p->restitution) sc2 = p->restitution;
        /* the full restitution's velocities, then the largest of sc2
           and a few shades below it whose rounded energy stays at most
           e0 (e = 0 only when none does) */
        for (i = 0; i < nu; i++) {
            sv[2 * nb + 2 * ub[i]] = bs[ub[i]].velocity;
            sv[2 * nb + 2 * ub[i] + 1] = bs[ub[i]].omega;
        }
        for (k = 0; k < RESTITUTION_SHADES; k++) {
            double f = k + 1 < RESTITUTION_SHADES ? sc2 * restitution_shade[k] / p->restitution : 0.0;
            for (i = 0; i < nu; i++) {
                const magdyn_vec3 *v0 = &sv[2 * ub[i]], *v1 = &sv[2 * nb + 2 * ub[i]];
                bs[ub[i]].velocity = magdyn_vec3_madd(v0[0], f, magdyn_vec3_sub(v1[0], v0[0]));
                bs[ub[i]].omega = magdyn_vec3_madd(v0[1], f, magdyn_vec3_sub(v1[1], v0[1]));
            }
            if (impulse_kinetic(bs, sc, nb) <= e0) break;
        }
        sc2 = k + 1 < RESTITUTION_SHADES ? sc2 * restitution_shade[k] : 0.0;
        for (i = 0; i < nr; i++)
            if (rows[i].bounce && rows[i].ln > 0.0)
                rows[i].ln *= (1.0 + sc2) / (1.0 + p->restitution);
        *dropped = 1;
    }
    free(sv);
    return MAGDYN_OK;
}
