/*
 * snap.c - the snap example's scenario (examples/snap.c) checked three
 * ways: its first contact against an independent integration written here
 * (classical RK4 of Newton-Euler with its own point-dipole forces, or the
 * library's cuboid forces for the extended model), its energy at rest
 * against the exact interaction energy of the final pose, and its contact
 * time and final state beside the account of the "Magnet Model Project"
 * write-up, whose simulation of this scenario snaps in 70 ms (INFO).
 */
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "validate.h"

#define BR 1.3
#define DENSITY 7500.0
#define T_END 0.3
#define PI 3.14159265358979323846

static const double SIZE[3] = {0.020, 0.010, 0.005};

static magdyn_magnet held(void)
{
    magdyn_magnet a;
    double vol = SIZE[0] * SIZE[1] * SIZE[2];
    memset(&a, 0, sizeof a);
    a.half = magdyn_v3(SIZE[0] / 2, SIZE[1] / 2, SIZE[2] / 2);
    a.mass = DENSITY * vol;
    a.moment = magdyn_v3(0, 0, BR * vol / MAGDYN_MU0);
    a.orientation = magdyn_quat_identity();
    a.fixed = 1;
    return a;
}

static magdyn_magnet released(void)
{
    magdyn_magnet b = held();
    b.fixed = 0;
    b.position = magdyn_v3(0.010, 0, 0.050);
    b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 60.0 * PI / 180);
    return b;
}

static magdyn_cuboid as_cuboid(const magdyn_magnet *m)
{
    magdyn_cuboid c;
    double vol = 8 * m->half.x * m->half.y * m->half.z;
    c.half = m->half;
    c.polarization = magdyn_vec3_scale(m->moment, MAGDYN_MU0 / vol);
    c.center = m->position;
    c.orientation = m->orientation;
    return c;
}

/* Force and torque (about b's centre) on b due to a: point dipoles written
 * out here (F = grad(m_b . B_a), T = m_b x B_a), or the library's cuboids. */
static magdyn_status force_on(const magdyn_magnet *a, const magdyn_magnet *b, int extended, double tol,
                              magdyn_vec3 *f, magdyn_vec3 *t)
{
    if (extended) {
        /* the cubature's region budget may not reach tol with an edge close
         * to a face (MAGDYN_ENOCONV): then 10 times looser, to 1e-6 */
        magdyn_cuboid ca = as_cuboid(a), cb = as_cuboid(b);
        magdyn_status st;
        while ((st = magdyn_cuboid_force_torque(&ca, &cb, tol, f, t)) == MAGDYN_ENOCONV && tol < 1e-6)
            tol *= 10;
        return st;
    } else {
        magdyn_vec3 ma = magdyn_quat_rotate(a->orientation, a->moment);
        magdyn_vec3 mb = magdyn_quat_rotate(b->orientation, b->moment);
        magdyn_vec3 r = magdyn_vec3_sub(b->position, a->position), u, B;
        double d = magdyn_vec3_norm(r), c = 1e-7, au, bu;
        u = magdyn_vec3_scale(r, 1 / d);
        au = magdyn_vec3_dot(ma, u);
        bu = magdyn_vec3_dot(mb, u);
        *f = magdyn_vec3_scale(magdyn_vec3_add(magdyn_vec3_add(magdyn_vec3_scale(mb, au), magdyn_vec3_scale(ma, bu)),
                               magdyn_vec3_scale(u, magdyn_vec3_dot(ma, mb) - 5 * au * bu)),
                               3 * c / (d * d * d * d));
        B = magdyn_vec3_scale(magdyn_vec3_sub(magdyn_vec3_scale(u, 3 * au), ma), c / (d * d * d));
        *t = magdyn_vec3_cross(mb, B);
        return MAGDYN_OK;
    }
}

/* ---- the independent integration ---------------------------------------- */

typedef struct { magdyn_vec3 x, v, w; magdyn_quat q; } state;
typedef struct { magdyn_vec3 v, a, dw; magdyn_quat dq; } deriv;

static magdyn_quat unit(magdyn_quat q)
{
    double n = magdyn_quat_norm(q);
    return magdyn_q(q.w / n, q.x / n, q.y / n, q.z / n);
}

static magdyn_status rate(const magdyn_magnet *a, magdyn_magnet b, const state *s, int ext, deriv *d)
{
    magdyn_vec3 f, t, wb, ib, tb;
    magdyn_quat q = unit(s->q);
    magdyn_status st;
    b.position = s->x;
    b.orientation = q;
    if ((st = force_on(a, &b, ext, 1e-8, &f, &t)) != MAGDYN_OK) return st;
    ib = magdyn_v3(b.mass / 3 * (b.half.y * b.half.y + b.half.z * b.half.z),
                   b.mass / 3 * (b.half.x * b.half.x + b.half.z * b.half.z),
                   b.mass / 3 * (b.half.x * b.half.x + b.half.y * b.half.y));
    wb = magdyn_quat_rotate_inv(q, s->w);
    tb = magdyn_quat_rotate_inv(q, t);
    /* Euler: I w_b' = T_b - w_b x I w_b; w' = R w_b' */
    tb = magdyn_vec3_sub(tb, magdyn_vec3_cross(wb, magdyn_v3(ib.x * wb.x, ib.y * wb.y, ib.z * wb.z)));
    d->dw = magdyn_quat_rotate(q, magdyn_v3(tb.x / ib.x, tb.y / ib.y, tb.z / ib.z));
    d->v = s->v;
    d->a = magdyn_vec3_scale(f, 1 / b.mass);
    d->dq = magdyn_quat_mul(magdyn_q(0, s->w.x / 2, s->w.y / 2, s->w.z / 2), s->q);
    return MAGDYN_OK;
}

static state add(const state *s, double h, const deriv *d)
{
    state r;
    r.x = magdyn_vec3_madd(s->x, h, d->v);
    r.v = magdyn_vec3_madd(s->v, h, d->a);
    r.w = magdyn_vec3_madd(s->w, h, d->dw);
    r.q = magdyn_q(s->q.w + h * d->dq.w, s->q.x + h * d->dq.x, s->q.y + h * d->dq.y, s->q.z + h * d->dq.z);
    return r;
}

static magdyn_status rk4(const magdyn_magnet *a, const magdyn_magnet *b, const state *s, double h,
                         int ext, state *out)
{
    deriv k1, k2, k3, k4;
    state t;
    magdyn_status st;
    if ((st = rate(a, *b, s, ext, &k1)) != MAGDYN_OK) return st;
    t = add(s, h / 2, &k1);
    if ((st = rate(a, *b, &t, ext, &k2)) != MAGDYN_OK) return st;
    t = add(s, h / 2, &k2);
    if ((st = rate(a, *b, &t, ext, &k3)) != MAGDYN_OK) return st;
    t = add(s, h, &k3);
    if ((st = rate(a, *b, &t, ext, &k4)) != MAGDYN_OK) return st;
    *out = *s;
    out->x = magdyn_vec3_add(s->x, magdyn_vec3_scale(magdyn_vec3_add(magdyn_vec3_add(k1.v, k4.v),
                             magdyn_vec3_scale(magdyn_vec3_add(k2.v, k3.v), 2)), h / 6));
    out->v = magdyn_vec3_add(s->v, magdyn_vec3_scale(magdyn_vec3_add(magdyn_vec3_add(k1.a, k4.a),
                             magdyn_vec3_scale(magdyn_vec3_add(k2.a, k3.a), 2)), h / 6));
    out->w = magdyn_vec3_add(s->w, magdyn_vec3_scale(magdyn_vec3_add(magdyn_vec3_add(k1.dw, k4.dw),
                             magdyn_vec3_scale(magdyn_vec3_add(k2.dw, k3.dw), 2)), h / 6));
    out->q = magdyn_q(s->q.w + h / 6 * (k1.dq.w + 2 * k2.dq.w + 2 * k3.dq.w + k4.dq.w),
                      s->q.x + h / 6 * (k1.dq.x + 2 * k2.dq.x + 2 * k3.dq.x + k4.dq.x),
                      s->q.y + h / 6 * (k1.dq.y + 2 * k2.dq.y + 2 * k3.dq.y + k4.dq.y),
                      s->q.z + h / 6 * (k1.dq.z + 2 * k2.dq.z + 2 * k3.dq.z + k4.dq.z));
    out->q = unit(out->q);
    return MAGDYN_OK;
}

static double gap_of(const magdyn_magnet *a, const magdyn_magnet *b, const state *s)
{
    magdyn_obb oa = {a->position, a->orientation, a->half}, ob = {s->x, s->q, b->half};
    magdyn_sat_result r;
    magdyn_obb_sat(&ob, &oa, &r);
    return r.separation;
}

/* 1 when an RK4 step of h from s ends in contact (or a stage of it
 * overlaps), 0 when apart, -1 on another failure. */
static int touches(const magdyn_magnet *a, const magdyn_magnet *b, const state *s, double h, int ext,
                   state *n)
{
    magdyn_status st = rk4(a, b, s, h, ext, n);
    if (st == MAGDYN_EOVERLAP) return 1;
    if (st != MAGDYN_OK) return -1;
    return gap_of(a, b, n) <= 0;
}

/* First contact time by RK4 at step h, the last step bisected to 1e-12 s. */
static double ref_contact(int ext, double h)
{
    magdyn_magnet a = held(), b = released();
    state s = {b.position, b.velocity, b.omega, b.orientation}, n;
    double t = 0;
    int c;
    while (t < T_END) {
        if ((c = touches(&a, &b, &s, h, ext, &n)) < 0) return NAN;
        if (c) {
            double lo = 0, hi = h;
            while (hi - lo > 1e-12) {
                double mid = 0.5 * (lo + hi);
                if ((c = touches(&a, &b, &s, mid, ext, &n)) < 0) return NAN;
                if (c) hi = mid; else lo = mid;
            }
            return t + hi;
        }
        s = n;
        t += h;
    }
    return NAN;
}

/* ---- the library's run -------------------------------------------------- */

typedef struct { double t, speed; } hit;

static void on_hit(const magdyn_collision *c, void *user)
{
    hit *h = user;
    if (h->t < 0) { h->t = c->time; h->speed = c->speed; }
}

/* Interaction energy of b's final pose: the point dipoles' closed form, or
 * minus the work of the cuboid force taking b straight up to infinity
 * (s = c u / (1 - u), Gauss-Legendre on panels graded towards contact),
 * starting lift above it (the stepper's resting contacts may overlap by
 * ~1e-10 m, which the cuboid forces refuse; the energy moves by F lift);
 * *err from 8 against 16 nodes a panel. */
static double pose_energy(const magdyn_magnet *a, const magdyn_magnet *b, int ext, double lift,
                          double *err)
{
    static const double edges[8] = {0, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.4, 1};
    double sum[2] = {0, 0}, c = 2 * b->half.z;
    int p, k, i, np[2] = {8, 16};
    if (!ext) {
        magdyn_vec3 ma = magdyn_quat_rotate(a->orientation, a->moment);
        magdyn_vec3 mb = magdyn_quat_rotate(b->orientation, b->moment);
        magdyn_vec3 r = magdyn_vec3_sub(b->position, a->position);
        double d = magdyn_vec3_norm(r);
        magdyn_vec3 u = magdyn_vec3_scale(r, 1 / d);
        *err = 0;
        return -1e-7 * (3 * magdyn_vec3_dot(ma, u) * magdyn_vec3_dot(mb, u) - magdyn_vec3_dot(ma, mb)) / (d * d * d);
    }
    for (k = 0; k < 2; k++)
        for (p = 0; p < 7; p++)
            for (i = 0; i < np[k]; i++) {
                /* Gauss-Legendre node by Newton on P_n */
                int n = np[k], j, it;
                double x = cos(PI * (i + 0.75) / (n + 0.5)), dp = 1, w, u, s, lo = edges[p], hi = edges[p + 1];
                magdyn_magnet m = *b;
                magdyn_vec3 f, t;
                for (it = 0; it < 100; it++) {
                    double p0 = 1, p1 = x, dx;
                    for (j = 2; j <= n; j++) { double p2 = ((2 * j - 1) * x * p1 - (j - 1) * p0) / j; p0 = p1; p1 = p2; }
                    dp = n * (x * p1 - p0) / (x * x - 1);
                    dx = p1 / dp;
                    x -= dx;
                    if (fabs(dx) < 1e-15) break;
                }
                w = 2 / ((1 - x * x) * dp * dp);
                u = lo + (hi - lo) * (x + 1) / 2;
                s = c * u / (1 - u);
                m.position = magdyn_vec3_add(b->position, magdyn_v3(0, 0, lift + s));
                if (force_on(a, &m, 1, 1e-10, &f, &t) != MAGDYN_OK) return NAN;
                sum[k] += f.z * c / ((1 - u) * (1 - u)) * w * (hi - lo) / 2;
            }
    *err = fabs(sum[1] - sum[0]);
    return sum[1];
}

static void one_model(const vd_run *run, int ext)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_magnet a = held(), b = released(), oa, ob;
    magdyn_world *w;
    hit h = {-1, 0};
    double tref, tref2, tol, e_ref, e_err = NAN, tilt, gap, e_end, e_lib;
    const char *mn = ext ? "extended" : "dipole";
    char q[96], tt[32];
    magdyn_status s;
    p.restitution = 0.5;
    p.friction = 0.3;
    if (ext) { p.model = MAGDYN_MODEL_CUBOID; p.model_tol = 1e-5; p.rtol = 1e-6; p.atol = 1e-9; }
    p.on_collision = on_hit;
    p.user = &h;
    if (!(w = magdyn_world_new(&p)) || magdyn_world_add(w, &a) < 0 || magdyn_world_add(w, &b) < 0) {
        magdyn_world_free(w);
        vd_custom("snap: world", "-", NAN, NAN, NAN, "-", VD_FAIL);
        return;
    }
    s = magdyn_world_advance(w, T_END);
    magdyn_world_get(w, 0, &oa);
    magdyn_world_get(w, 1, &ob);
    e_lib = magdyn_world_energy(w);
    /* the reference, at two steps: their difference bounds its error */
    tref = ref_contact(ext, ext ? 2e-5 : 1e-5);
    tref2 = ref_contact(ext, ext ? 1e-5 : 5e-6);
    /* reference error + the world's contact_tol at the approach speed (+ model_tol) */
    tol = 2 * fabs(tref2 - tref) + p.contact_tol / fmax(h.speed, 1e-3) + (ext ? p.model_tol * tref2 : 0);
    snprintf(q, sizeof q, "snap, %s: first contact [ms]", mn);
    snprintf(tt, sizeof tt, "abs %.2g", tol * 1e3);
    vd_custom(q, "RK4 here (own forces, h & h/2)", tref2 * 1e3, h.t * 1e3, (h.t - tref2) / tref2, tt,
              h.t > 0 && fabs(h.t - tref2) <= tol ? VD_PASS : VD_FAIL);
    snprintf(q, sizeof q, "snap, %s: first contact [ms]", mn);
    vd_info(q, "Magnet Model Project: 70 ms", 70, h.t * 1e3);
    {
        magdyn_vec3 za = magdyn_quat_rotate(oa.orientation, magdyn_v3(0, 0, 1));
        magdyn_vec3 zb = magdyn_quat_rotate(ob.orientation, magdyn_v3(0, 0, 1));
        state st = {ob.position, ob.velocity, ob.omega, ob.orientation};
        tilt = atan2(magdyn_vec3_norm(magdyn_vec3_cross(za, zb)), fabs(magdyn_vec3_dot(za, zb))) * 180 / PI;
        gap = gap_of(&oa, &ob, &st);
    }
    e_ref = pose_energy(&oa, &ob, ext, fmax(0, -gap) + 1e-12, &e_err);
    e_end = magdyn_world_kinetic_energy(w);
    snprintf(q, sizeof q, "snap, %s: tilt at 300 ms [deg]", mn);
    vd_info(q, "Magnet Model Project: flush", 0, tilt);
    snprintf(q, sizeof q, "snap, %s: gap at 300 ms [m]", mn);
    vd_info(q, "Magnet Model Project: touching", 0, gap);
    snprintf(q, sizeof q, "snap, %s: kinetic energy at 300 ms [J]", mn);
    vd_info(q, "Magnet Model Project: at rest", 0, e_end);
    snprintf(q, sizeof q, "snap, %s: magnetic energy at 300 ms [J]", mn);
    tol = ext ? e_err / fabs(e_ref) + p.model_tol : 1e-9;
    snprintf(tt, sizeof tt, "rel %.2g", tol);
    vd_custom(q, ext ? "-work to infinity (quadrature)" : "dipole energy of the final pose",
              e_ref, e_lib - e_end, (e_lib - e_end - e_ref) / fabs(e_ref), tt,
              s == MAGDYN_OK && fabs(e_lib - e_end - e_ref) <= tol * fabs(e_ref) ? VD_PASS : VD_FAIL);
    (void)run;
    magdyn_world_free(w);
}

void vd_snap(const vd_run *run)
{
    one_model(run, 0);
    if (run->quick) vd_skip("snap, extended model", "--quick: the full run only");
    else one_model(run, 1);
}
