/*
 * contact_spin.h - private to libmagdyn (layer 2): how far the spin of two
 * touching bodies carries a contact point off the straight line that a
 * velocity-level step assumes.  A body drifting for h at v and omega moves
 * its material point at r from the centre by h (v + omega x r) plus the
 * rotation's curvature, (sin t - t) k x r + (1 - cos t) k x (k x r) with
 * t = |omega| h and k the spin axis (Rodrigues' formula less its first
 * order; about r t^2 / 2 towards the axis).  magdyn_body_drift rotates by
 * exactly this.  A contact step that holds the curvature in its targets
 * keeps its points to contact_tol over steps of r t^3 / 6 ~ contact_tol
 * instead of r t^2 / 2 ~ contact_tol.
 */
#ifndef MAGDYN_CONTACT_SPIN_H
#define MAGDYN_CONTACT_SPIN_H

#include <magdyn/body.h>
#include <magdyn/contact.h>
#include "detmath.h"

/* Displacement [m] of the material point at p (inertial) of b over a drift
 * of h [s] at b's angular velocity, less its first-order part
 * h omega x (p - x); zero for a fixed or still body. */
static inline magdyn_vec3 contact_spin_offset(const magdyn_body *b, magdyn_vec3 p, double h)
{
    magdyn_vec3 r = magdyn_vec3_sub(p, b->position), k, kr, kkr;
    double om = magdyn_vec3_norm(b->omega), t = om * h, sin_less, one_less_cos, half;
    if (b->fixed || !(om > 0.0)) return magdyn_v3(0, 0, 0);
    k = magdyn_vec3_scale(b->omega, 1.0 / om);
    kr = magdyn_vec3_cross(k, r);
    kkr = magdyn_vec3_cross(k, kr);
    /* sin t - t cancels for small t: its series to t^5 there (error t^7/5040
       < 1e-17 t^3 below 1e-2) */
    sin_less = t < 1e-2 ? -t * t * t / 6.0 * (1.0 - t * t / 20.0) : md_sin(t) - t;
    half = md_sin(0.5 * t);
    one_less_cos = 2.0 * half * half;
    return magdyn_vec3_add(magdyn_vec3_scale(kr, sin_less), magdyn_vec3_scale(kkr, one_less_cos));
}

/* Depth [m] (> 0 deeper) that the curvature of the spin paths of bodies a
 * and b adds to point k of their manifold m over a drift of h: m's normal
 * runs from b towards a, so a's offset along it opens the gap. */
static inline double contact_spin_sink(const magdyn_body *a, const magdyn_body *b, const magdyn_manifold *m,
                                       int k, double h)
{
    magdyn_vec3 p = m->point[k];
    magdyn_vec3 rel = magdyn_vec3_sub(contact_spin_offset(a, p, h), contact_spin_offset(b, p, h));
    return -magdyn_vec3_dot(rel, m->normal);
}

/* Body axis q (0-2) of b, inertial. */
static inline magdyn_vec3 contact_spin_axis(const magdyn_body *b, int q)
{
    return magdyn_quat_rotate(b->orientation, magdyn_v3(q == 0, q == 1, q == 2));
}

/* The number of zero signs of feature f (contact.h's numbering): 0 a
 * corner, 1 an edge, 2 a face. */
static inline int contact_spin_zeros(int f)
{
    return (f % 3 == 1) + (f / 3 % 3 == 1) + (f / 9 == 1);
}

/* The body axis along an edge feature f, or -1 when f is not an edge. */
static inline int contact_spin_edge_axis(int f)
{
    if (contact_spin_zeros(f) != 1) return -1;
    return f % 3 == 1 ? 0 : f / 3 % 3 == 1 ? 1 : 2;
}

/* How well some body axis of b lines up with n (1: parallel). */
static inline double contact_spin_alignment(const magdyn_body *b, magdyn_vec3 n)
{
    double best = 0.0;
    int q;
    for (q = 0; q < 3; q++) best = fmax(best, fabs(magdyn_vec3_dot(contact_spin_axis(b, q), n)));
    return best;
}

/* Depth [m] (> 0 deeper) that the turning of m's normal adds to its point
 * k over a drift of h at the bodies' velocities: the gap n . (x_a - x_b)
 * has the term 2 n' . (v_a - v_b) in its second derivative, the normal
 * turning with the box whose face makes it (n' = omega x n) or, for an
 * edge pair, with both edges (n along e_a x e_b).  The feature ids say
 * whose face a point lies on; where they do not (an edge crossing an edge
 * of a face-face manifold) the box whose axis lies closer to n, and with
 * both as close (flush faces) the mean of the two. */
static inline double contact_turn_sink(const magdyn_body *a, const magdyn_body *b, const magdyn_manifold *m,
                                       int k, double h)
{
    magdyn_vec3 n = m->normal, p = m->point[k], du, ndot;
    du = magdyn_vec3_sub(magdyn_body_point_velocity(a, p), magdyn_body_point_velocity(b, p));
    if (m->kind == MAGDYN_CONTACT_EDGE_EDGE) {
        int qa = contact_spin_edge_axis((int)(m->id[k] & 0xffu) - 1);
        int qb = contact_spin_edge_axis((int)(m->id[k] >> 8) - 1);
        if (qa >= 0 && qb >= 0) {
            magdyn_vec3 ea = contact_spin_axis(a, qa), eb = contact_spin_axis(b, qb), c, cdot;
            magdyn_vec3 wa = a->fixed ? magdyn_v3(0, 0, 0) : a->omega, wb = b->fixed ? magdyn_v3(0, 0, 0) : b->omega;
            double len, sign;
            c = magdyn_vec3_cross(ea, eb);
            len = magdyn_vec3_norm(c);
            if (len > 1e-6) {
                sign = magdyn_vec3_dot(n, c) < 0.0 ? -1.0 : 1.0;
                cdot = magdyn_vec3_add(magdyn_vec3_cross(magdyn_vec3_cross(wa, ea), eb),
                                       magdyn_vec3_cross(ea, magdyn_vec3_cross(wb, eb)));
                ndot = magdyn_vec3_scale(magdyn_vec3_madd(cdot, -magdyn_vec3_dot(n, cdot), n), sign / len);
                return -h * h * magdyn_vec3_dot(ndot, du);
            }
        }
    }
    {
        int fa = (int)(m->id[k] & 0xffu) - 1, fb = (int)(m->id[k] >> 8) - 1, owner;
        double da = a->fixed ? 0.0 : -h * h * magdyn_vec3_dot(magdyn_vec3_cross(a->omega, n), du);
        double db = b->fixed ? 0.0 : -h * h * magdyn_vec3_dot(magdyn_vec3_cross(b->omega, n), du);
        /* the face a point lies on: its feature ids (a corner or edge on a
           face), else the manifold's kind, else the box whose axis lies
           closer to n */
        if (fa >= 0 && fb >= 0 && contact_spin_zeros(fb) == 2 && contact_spin_zeros(fa) < 2) owner = 1;
        else if (fa >= 0 && fb >= 0 && contact_spin_zeros(fa) == 2 && contact_spin_zeros(fb) < 2) owner = 0;
        else if (m->kind == MAGDYN_CONTACT_FACE_EDGE) owner = 0;
        else if (m->kind == MAGDYN_CONTACT_EDGE_FACE) owner = 1;
        else {
            double al_a = contact_spin_alignment(a, n), al_b = contact_spin_alignment(b, n);
            if (fabs(al_a - al_b) < 1e-12) return 0.5 * (da + db);
            owner = al_b > al_a;
        }
        return owner ? db : da;
    }
}

#endif
