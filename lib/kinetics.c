/*
 * kinetics.c - 2D hard discs and rotors: contact times and collisions.
 * See magdyn/kinetics.h for the model; DESIGN.md physics notes 5 and 6 for
 * where seeds 002 and 003 go wrong.
 */
#include <float.h>
#include <math.h>
#include "detmath.h"
#include "detvec.h"
#include <stddef.h>
#include "kinetics_impl.h"

magdyn_status magdyn_disc_check(const magdyn_disc *d)
{
    if (!d) return MAGDYN_EINVAL;
    if (!magdyn_vec2_isfinite(d->r) || !magdyn_vec2_isfinite(d->v) ||
        !isfinite(d->mass) || !isfinite(d->radius))
        return MAGDYN_ENONFINITE;
    /* a subnormal mass has no finite reciprocal: collisions would divide by it */
    if (!(d->mass >= DBL_MIN) || !(d->radius > 0.0)) return MAGDYN_EINVAL;
    return MAGDYN_OK;
}

magdyn_status magdyn_rotor_check(const magdyn_rotor *r)
{
    if (!r) return MAGDYN_EINVAL;
    if (!magdyn_vec2_isfinite(r->r) || !magdyn_vec2_isfinite(r->v) ||
        !isfinite(r->angle) || !isfinite(r->omega) || !isfinite(r->mass) ||
        !isfinite(r->inertia) || !isfinite(r->half_length) || !isfinite(r->end_radius))
        return MAGDYN_ENONFINITE;
    if (!(r->mass >= DBL_MIN) || !(r->inertia >= DBL_MIN) || !(r->half_length > 0.0) ||
        !(r->end_radius > 0.0))
        return MAGDYN_EINVAL;
    return MAGDYN_OK;
}

void magdyn_rotor_ends(const magdyn_rotor *r, magdyn_vec2 *end0, magdyn_vec2 *end1)
{
    magdyn_vec2 u;
    if (!r) return;
    u = magdyn_v2(r->half_length * md_cos(r->angle), r->half_length * md_sin(r->angle));
    if (end0) *end0 = magdyn_vec2_add(r->r, u);
    if (end1) *end1 = magdyn_vec2_sub(r->r, u);
}

double magdyn_rotor_inertia(double mass, double rod_mass, double half_length, double end_radius)
{
    double m_end;
    if (!isfinite(mass) || !isfinite(rod_mass) || !isfinite(half_length) ||
        !isfinite(end_radius) || !(mass > 0.0) || !(rod_mass >= 0.0) || !(rod_mass < mass) ||
        !(half_length > 0.0) || !(end_radius > 0.0))
        return NAN;
    m_end = 0.5 * (mass - rod_mass);
    return 2.0 * m_end * (half_length * half_length + 0.5 * end_radius * end_radius) +
           rod_mass * 4.0 * half_length * half_length / 12.0;
}

/* ---- discs ------------------------------------------------------------- */

double magdyn_disc_contact_time(const magdyn_disc *a, const magdyn_disc *b)
{
    if (magdyn_disc_check(a) != MAGDYN_OK || magdyn_disc_check(b) != MAGDYN_OK) return NAN;
    return mdk_disc_time(a->r.x - b->r.x, a->r.y - b->r.y, a->v.x - b->v.x, a->v.y - b->v.y,
                         a->radius + b->radius);
}

static int restitution_ok(double e) { return e >= 0.0 && e <= 1.0; }

void magdyn_disc_collide(magdyn_disc *a, magdyn_disc *b, double restitution)
{
    double dx, dy, n;
    if (a == b || magdyn_disc_check(a) != MAGDYN_OK || magdyn_disc_check(b) != MAGDYN_OK ||
        !restitution_ok(restitution))
        return;
    dx = a->r.x - b->r.x; dy = a->r.y - b->r.y;
    n = md_hypot(dx, dy);
    if (!(n > 0.0)) return;
    mdk_impulse_discs(dx / n, dy / n, restitution, 1.0 / a->mass, &a->v.x, &a->v.y,
                      1.0 / b->mass, &b->v.x, &b->v.y);
}

void magdyn_rough_disc_collide(magdyn_rough_disc *a, magdyn_rough_disc *b,
                               double restitution, double beta)
{
    double dx, dy, n, nx, ny, tx, ty, gn, gt, ima, imb, ra, rb, jn, jt;
    if (!a || !b || a == b || magdyn_disc_check(&a->d) != MAGDYN_OK ||
        magdyn_disc_check(&b->d) != MAGDYN_OK || !isfinite(a->omega) || !isfinite(b->omega) ||
        !isfinite(a->inertia) || !isfinite(b->inertia) || !(a->inertia >= DBL_MIN) ||
        !(b->inertia >= DBL_MIN) || !restitution_ok(restitution) || !(beta >= -1.0 && beta <= 1.0))
        return;
    dx = a->d.r.x - b->d.r.x; dy = a->d.r.y - b->d.r.y;
    n = md_hypot(dx, dy);
    if (!(n > 0.0)) return;
    nx = dx / n; ny = dy / n; tx = -ny; ty = nx;     /* t = z x n */
    ra = a->d.radius; rb = b->d.radius;
    /* contact point of a at r_a - ra n moves with v_a - ra w_a t; of b at
     * r_b + rb n with v_b + rb w_b t */
    gn = nx * (a->d.v.x - b->d.v.x) + ny * (a->d.v.y - b->d.v.y);
    if (!(gn < 0.0)) return;
    gt = tx * (a->d.v.x - b->d.v.x) + ty * (a->d.v.y - b->d.v.y) - ra * a->omega - rb * b->omega;
    ima = 1.0 / a->d.mass; imb = 1.0 / b->d.mass;
    jn = -(1.0 + restitution) * gn / (ima + imb);
    jt = -(1.0 + beta) * gt / (ima + imb + ra * ra / a->inertia + rb * rb / b->inertia);
    {
        double avx = a->d.v.x + ima * (jn * nx + jt * tx), avy = a->d.v.y + ima * (jn * ny + jt * ty);
        double bvx = b->d.v.x - imb * (jn * nx + jt * tx), bvy = b->d.v.y - imb * (jn * ny + jt * ty);
        /* torque of jt t at -ra n on a, and of -jt t at rb n on b: both -r jt */
        double aw = a->omega - ra * jt / a->inertia, bw = b->omega - rb * jt / b->inertia;
        /* overflow from extreme bodies (found by fuzzing): change nothing */
        if (!(isfinite(avx) && isfinite(avy) && isfinite(bvx) && isfinite(bvy) && isfinite(aw)
              && isfinite(bw)))
            return;
        a->d.v.x = avx; a->d.v.y = avy; a->omega = aw;
        b->d.v.x = bvx; b->d.v.y = bvy; b->omega = bw;
    }
}

/* ---- rotors ------------------------------------------------------------ */

static mdk_arm rotor_arm(const magdyn_rotor *r, int end)
{
    mdk_arm a;
    a.l = end == 0 ? r->half_length : -r->half_length;
    a.th = r->angle;
    a.om = r->omega;
    return a;
}

static int horizon_ok(double h) { return h >= 0.0; }   /* INFINITY allowed, NaN not */

double magdyn_rotor_disc_contact_time(const magdyn_rotor *r, const magdyn_disc *d, double horizon)
{
    static const mdk_arm none = {0.0, 0.0, 0.0};
    double best = INFINITY, t;
    int e;
    if (magdyn_rotor_check(r) != MAGDYN_OK || magdyn_disc_check(d) != MAGDYN_OK || !horizon_ok(horizon))
        return NAN;
    for (e = 0; e < 2; e++) {
        t = mdk_pair_root(r->r.x - d->r.x, r->r.y - d->r.y, r->v.x - d->v.x, r->v.y - d->v.y,
                          rotor_arm(r, e), none, r->end_radius + d->radius,
                          best < horizon ? best : horizon);
        if (t < best) best = t;
    }
    return best;
}

double magdyn_rotor_rotor_contact_time(const magdyn_rotor *a, const magdyn_rotor *b, double horizon)
{
    double best = INFINITY, t;
    int ea, eb;
    if (magdyn_rotor_check(a) != MAGDYN_OK || magdyn_rotor_check(b) != MAGDYN_OK || !horizon_ok(horizon))
        return NAN;
    for (ea = 0; ea < 2; ea++)
        for (eb = 0; eb < 2; eb++) {
            t = mdk_pair_root(a->r.x - b->r.x, a->r.y - b->r.y, a->v.x - b->v.x, a->v.y - b->v.y,
                              rotor_arm(a, ea), rotor_arm(b, eb), a->end_radius + b->end_radius,
                              best < horizon ? best : horizon);
            if (t < best) best = t;
        }
    return best;
}

/* 0 or 1: the end of r whose disc is nearer to the point p (gap-wise). */
static int nearer_end(const magdyn_rotor *r, magdyn_vec2 p, double *dist)
{
    magdyn_vec2 e0 = {0.0, 0.0}, e1 = {0.0, 0.0};   /* (set below; gcc -O2 cannot see it through the call) */
    double d0, d1;
    magdyn_rotor_ends(r, &e0, &e1);
    d0 = md_vec2_norm(magdyn_vec2_sub(e0, p));
    d1 = md_vec2_norm(magdyn_vec2_sub(e1, p));
    if (dist) *dist = d0 <= d1 ? d0 : d1;
    return d0 <= d1 ? 0 : 1;
}

void magdyn_rotor_disc_collide(magdyn_rotor *r, magdyn_disc *d, double restitution)
{
    magdyn_vec2 arm, p, dd;
    double n, nx, ny, zero = 0.0;
    int e;
    if (magdyn_rotor_check(r) != MAGDYN_OK || magdyn_disc_check(d) != MAGDYN_OK ||
        !restitution_ok(restitution))
        return;
    e = nearer_end(r, d->r, NULL);
    arm = magdyn_v2((e == 0 ? 1.0 : -1.0) * r->half_length * md_cos(r->angle),
                    (e == 0 ? 1.0 : -1.0) * r->half_length * md_sin(r->angle));
    p = magdyn_vec2_add(r->r, arm);
    dd = magdyn_vec2_sub(p, d->r);
    n = md_vec2_norm(dd);
    if (!(n > 0.0)) return;
    nx = dd.x / n; ny = dd.y / n;
    mdk_impulse(nx, ny, restitution, 1.0 / r->mass, 1.0 / r->inertia, arm.x * ny - arm.y * nx,
                &r->v.x, &r->v.y, &r->omega,
                1.0 / d->mass, 0.0, 0.0, &d->v.x, &d->v.y, &zero);
}

void magdyn_rotor_rotor_collide(magdyn_rotor *a, magdyn_rotor *b, double restitution)
{
    magdyn_vec2 ea[2], eb[2], arma, armb, dd;
    double best = INFINITY, n, nx, ny;
    int i, j, bi = 0, bj = 0;
    if (a == b || magdyn_rotor_check(a) != MAGDYN_OK || magdyn_rotor_check(b) != MAGDYN_OK ||
        !restitution_ok(restitution))
        return;
    magdyn_rotor_ends(a, &ea[0], &ea[1]);
    magdyn_rotor_ends(b, &eb[0], &eb[1]);
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            double dist = md_vec2_norm(magdyn_vec2_sub(ea[i], eb[j]));
            if (dist < best) { best = dist; bi = i; bj = j; }
        }
    dd = magdyn_vec2_sub(ea[bi], eb[bj]);
    n = md_vec2_norm(dd);
    if (!(n > 0.0)) return;
    nx = dd.x / n; ny = dd.y / n;
    arma = magdyn_vec2_sub(ea[bi], a->r);
    armb = magdyn_vec2_sub(eb[bj], b->r);
    mdk_impulse(nx, ny, restitution, 1.0 / a->mass, 1.0 / a->inertia, arma.x * ny - arma.y * nx,
                &a->v.x, &a->v.y, &a->omega,
                1.0 / b->mass, 1.0 / b->inertia, armb.x * ny - armb.y * nx,
                &b->v.x, &b->v.y, &b->omega);
}
