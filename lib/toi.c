/* toi.c - time of impact of two moving boxes (layer 2). */
#include <math.h>
#include "detvec.h"
#include <string.h>
#include <magdyn/toi.h>

/* conservative-advancement steps before MAGDYN_ENOCONV */
#define TOI_MAX_STEPS 1000000L
/* root-finder evaluations: the bracket halves at least every fourth one,
   so 1e-15 of the interval is reached well within this */
#define TOI_MAX_REFINE 400

/* The separation and its normal at one time. */
typedef struct {
    double t, s;
    magdyn_vec3 n;
} toi_sample;

typedef struct {
    magdyn_toi_pose pose;
    void *user;
    long evals;
} toi_probe;

/* Evaluates the poses at t and separates them. */
static magdyn_status probe_at(toi_probe *p, double t, toi_sample *out)
{
    magdyn_obb a, b;
    magdyn_sat_result r;
    magdyn_status s;
    p->evals++;
    if ((s = p->pose(p->user, t, &a, &b)) != MAGDYN_OK) return s;
    if ((s = magdyn_obb_check(&a)) != MAGDYN_OK) return s;
    if ((s = magdyn_obb_check(&b)) != MAGDYN_OK) return s;
    magdyn_obb_sat(&a, &b, &r);
    /* boxes whose coordinates and extents overflow give NaN */
    if (!isfinite(r.separation)) return MAGDYN_ENONFINITE;
    out->t = t;
    out->s = r.separation;
    out->n = r.normal;
    return MAGDYN_OK;
}

/*
 * A point of [lo, hi] with |separation| <= tol, given lo.s > tol and
 * hi.s < -tol: Illinois regula falsi (the retained end's value is halved
 * when the same end moves twice, which keeps the convergence superlinear),
 * with a bisection whenever three steps have not halved the bracket, so it
 * also ends for a separation that is not smooth.  Once the bracket is no
 * wider than res, or no double lies inside it, the left end: the last time
 * known to be apart.
 */
static magdyn_status refine(toi_probe *p, toi_sample lo, toi_sample hi, double tol, double res,
                            toi_sample *out)
{
    double fa = lo.s, fb = hi.s, mark = hi.t - lo.t;
    int side = 0, slow = 0, it;
    for (it = 0; it < TOI_MAX_REFINE && hi.t - lo.t > res; it++) {
        double m = slow >= 3 ? 0.5 * (lo.t + hi.t) : lo.t + (hi.t - lo.t) * (fa / (fa - fb));
        toi_sample sm;
        magdyn_status s;
        if (!(m > lo.t && m < hi.t)) m = 0.5 * (lo.t + hi.t);
        if (!(m > lo.t && m < hi.t)) break;
        if ((s = probe_at(p, m, &sm)) != MAGDYN_OK) return s;
        if (fabs(sm.s) <= tol) {
            *out = sm;
            return MAGDYN_OK;
        }
        if (sm.s > 0.0) {
            lo = sm;
            fa = sm.s;
            if (side == 1) fb *= 0.5;
            side = 1;
        } else {
            hi = sm;
            fb = sm.s;
            if (side == -1) fa *= 0.5;
            side = -1;
        }
        if (hi.t - lo.t <= 0.5 * mark) {
            mark = hi.t - lo.t;
            slow = 0;
        } else {
            slow++;
        }
    }
    *out = lo;
    return MAGDYN_OK;
}

static magdyn_status finish(magdyn_toi_result *out, const toi_probe *p, const toi_sample *at,
                            int hit)
{
    out->t = hit ? at->t : INFINITY;
    out->hit = hit;
    out->separation = at->s;
    out->normal = at->n;
    out->iterations = (int)p->evals;
    memset(out->reserved, 0, sizeof out->reserved);
    return MAGDYN_OK;
}

/* The contact at or before `at`, whose separation is at most tol, the
 * search having reached it from `prev` (separation above tol). */
static magdyn_status land(magdyn_toi_result *out, toi_probe *p, const toi_sample *prev,
                          const toi_sample *at, double tol, double res)
{
    toi_sample hit;
    magdyn_status s;
    if (at->s >= -tol) return finish(out, p, at, 1);
    if ((s = refine(p, *prev, *at, tol, res, &hit)) != MAGDYN_OK) return s;
    return finish(out, p, &hit, 1);
}

magdyn_status magdyn_toi(magdyn_toi_pose pose, void *user, double t0, double t1, double tol,
                         double closing_speed, magdyn_toi_result *out)
{
    toi_probe p;
    toi_sample cur, next;
    double res;
    long steps;
    magdyn_status s;
    if (!pose || !out) return MAGDYN_EINVAL;
    if (!isfinite(t0) || !isfinite(t1) || !isfinite(tol) || !isfinite(closing_speed))
        return MAGDYN_ENONFINITE;
    if (t1 < t0 || !(tol > 0.0) || closing_speed < 0.0) return MAGDYN_EINVAL;
    if (!isfinite(t1 - t0)) return MAGDYN_ENONFINITE;
    res = 1e-15 * (t1 - t0);
    p.pose = pose;
    p.user = user;
    p.evals = 0;
    if ((s = probe_at(&p, t0, &cur)) != MAGDYN_OK) return s;
    if (cur.s <= tol) return finish(out, &p, &cur, 1);

    if (closing_speed == 0.0) {
        if (t1 == t0) return finish(out, &p, &cur, 0);
        if ((s = probe_at(&p, t1, &next)) != MAGDYN_OK) return s;
        if (next.s > tol) return finish(out, &p, &next, 0);
        return land(out, &p, &cur, &next, tol, res);
    }

    /* Conservative advancement: the separation is a lower bound on the
       distance, which falls no faster than closing_speed, so over a step of
       (s - tol/2) / closing_speed the boxes stay at least tol/2 apart. */
    for (steps = 0; cur.t < t1; steps++) {
        double t;
        if (steps >= TOI_MAX_STEPS) return MAGDYN_ENOCONV;
        t = cur.t + fmax((cur.s - 0.5 * tol) / closing_speed, res);
        if (!(t > cur.t)) t = nextafter(cur.t, INFINITY);
        if (t > t1) t = t1;
        if ((s = probe_at(&p, t, &next)) != MAGDYN_OK) return s;
        if (next.s <= tol) return land(out, &p, &cur, &next, tol, res);
        cur = next;
    }
    return finish(out, &p, &cur, 0);
}

/* ---- screw motion at constant velocities ------------------------------------ */

typedef struct {
    magdyn_obb a, b;
    magdyn_vec3 va, wa, vb, wb;
} toi_screw;

/* box o after t of velocity v and inertial angular velocity w about its centre */
static magdyn_obb screw_moved(const magdyn_obb *o, magdyn_vec3 v, magdyn_vec3 w, double t)
{
    magdyn_obb r = *o;
    r.center = magdyn_vec3_madd(o->center, t, v);
    r.orientation = magdyn_quat_mul(md_quat_from_rotvec(magdyn_vec3_scale(w, t)), o->orientation);
    return r;
}

static magdyn_status screw_pose(void *user, double t, magdyn_obb *a, magdyn_obb *b)
{
    const toi_screw *m = user;
    *a = screw_moved(&m->a, m->va, m->wa, t);
    *b = screw_moved(&m->b, m->vb, m->wb, t);
    return MAGDYN_OK;
}

magdyn_status magdyn_toi_screw(const magdyn_obb *a, magdyn_vec3 va, magdyn_vec3 wa,
                               const magdyn_obb *b, magdyn_vec3 vb, magdyn_vec3 wb, double t1,
                               double tol, magdyn_toi_result *out)
{
    toi_screw m;
    double u;
    magdyn_status s;
    if ((s = magdyn_obb_check(a)) != MAGDYN_OK) return s;
    if ((s = magdyn_obb_check(b)) != MAGDYN_OK) return s;
    if (!magdyn_vec3_isfinite(va) || !magdyn_vec3_isfinite(wa) || !magdyn_vec3_isfinite(vb)
        || !magdyn_vec3_isfinite(wb))
        return MAGDYN_ENONFINITE;
    m.a = *a;
    m.b = *b;
    /* the check admits |q| within 1e-9 of 1: rotate the unit quaternion, so
       the turned orientations stay as close to unit length as the input */
    (void)magdyn_quat_normalize(a->orientation, &m.a.orientation);
    (void)magdyn_quat_normalize(b->orientation, &m.b.orientation);
    m.va = va;
    m.wa = wa;
    m.vb = vb;
    m.wb = wb;
    /* a point of a box moves at most |v| + |w| |half| (half diagonal) */
    u = magdyn_vec3_norm(magdyn_vec3_sub(va, vb)) + magdyn_vec3_norm(wa) * magdyn_vec3_norm(a->half)
        + magdyn_vec3_norm(wb) * magdyn_vec3_norm(b->half);
    return magdyn_toi(screw_pose, &m, 0.0, t1, tol, u, out);
}
