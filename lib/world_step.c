/*
 * world_step.c - magdyn_world_advance: forces, free flight with contact-time
 * location, impacts, and the resting-contact time stepper (see world.c for
 * the overview).
 */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <magdyn/world.h>
#include <magdyn/body.h>
#include <magdyn/impulse.h>
#include <magdyn/dipole.h>
#include <magdyn/sat.h>
#include <magdyn/contact.h>
#include "world_impl.h"

#define NS MAGDYN_WORLD_NS

/* Longest motion of any point of any magnet in one resting-contact step,
 * as a fraction of the smallest half extent. */
#define CONTACT_STEP_LENGTH 0.01
/* A contact step that ends with no point of any magnet faster than this
 * [m/s] is calm; after SLEEP_STEPS calm full-size steps in a row the world
 * is in equilibrium (an unbalanced force would show as h F / m) and sleeps. */
#define SLEEP_SPEED 1e-9
#define SLEEP_STEPS 5
/* Longest motion in one free-flight step, so no pair passes through another. */
#define FREE_STEP_LENGTH 0.25

/* ---- state <-> bodies ----------------------------------------------------- */

static magdyn_quat unit_q(const double *q)
{
    magdyn_quat r = magdyn_q(q[0], q[1], q[2], q[3]);
    double s = 1.0 / magdyn_quat_norm(r);
    return magdyn_q(r.w * s, r.x * s, r.y * s, r.z * s);
}

static void pack(magdyn_world *w)
{
    int i;
    for (i = 0; i < w->n; i++) {
        const magdyn_body *b = &w->b[i];
        double *y = w->y + NS * i;
        magdyn_vec3 wb = magdyn_quat_rotate_inv(b->orientation, b->omega);
        y[0] = b->position.x; y[1] = b->position.y; y[2] = b->position.z;
        y[3] = b->velocity.x; y[4] = b->velocity.y; y[5] = b->velocity.z;
        y[6] = b->orientation.w; y[7] = b->orientation.x;
        y[8] = b->orientation.y; y[9] = b->orientation.z;
        y[10] = wb.x; y[11] = wb.y; y[12] = wb.z;
    }
}

static void unpack(magdyn_world *w, double *y)
{
    int i;
    for (i = 0; i < w->n; i++) {
        magdyn_body *b = &w->b[i];
        double *yi = y + NS * i;
        magdyn_quat q = unit_q(yi + 6);
        yi[6] = q.w; yi[7] = q.x; yi[8] = q.y; yi[9] = q.z;
        b->position = magdyn_v3(yi[0], yi[1], yi[2]);
        b->velocity = magdyn_v3(yi[3], yi[4], yi[5]);
        b->orientation = q;
        b->omega = magdyn_quat_rotate(q, magdyn_v3(yi[10], yi[11], yi[12]));
    }
}

/* ---- forces ---------------------------------------------------------------- */

/* Forces [N] and torques about the centres [N m], inertial, at state y. */
static magdyn_status forces(magdyn_world *w, const double *y)
{
    magdyn_status s = MAGDYN_OK;
    double t0 = magdyn_wi_clock();
    int i, j, n = w->n;
    for (i = 0; i < n; i++) {
        const double *yi = y + NS * i;
        magdyn_quat q = unit_q(yi + 6);
        w->pos[i] = magdyn_v3(yi[0], yi[1], yi[2]);
        w->mi[i] = magdyn_quat_rotate(q, w->mom[i]);
        w->F[i] = magdyn_v3(0, 0, 0);
        w->T[i] = magdyn_v3(0, 0, 0);
    }
    if (w->p.model == MAGDYN_MODEL_DIPOLE) {
        s = magdyn_dipoles_interact(n, w->pos, w->mi, w->F, w->T, NULL);
    } else {
        for (i = 0; i < n && s == MAGDYN_OK; i++)
            for (j = i + 1; j < n; j++) {
                magdyn_cuboid ci, cj;
                magdyn_vec3 f, t;
                if (w->b[i].fixed && w->b[j].fixed) continue;
                ci = magdyn_wi_cuboid(w, i, w->pos[i], unit_q(y + NS * i + 6));
                cj = magdyn_wi_cuboid(w, j, w->pos[j], unit_q(y + NS * j + 6));
                s = magdyn_cuboid_force_torque(&ci, &cj, w->p.model_tol, &f, &t);
                if (s == MAGDYN_EOVERLAP) {
                    /* a Runge-Kutta stage or a resting contact within
                       contact_tol may overlap by a hair: take the force at
                       the touching configuration, j moved out along the
                       separating axis */
                    magdyn_obb oi = {ci.center, ci.orientation, ci.half};
                    magdyn_obb oj = {cj.center, cj.orientation, cj.half};
                    magdyn_sat_result r;
                    magdyn_obb_sat(&oj, &oi, &r);
                    cj.center = magdyn_vec3_madd(cj.center, -r.separation * (1.0 + 1e-6) + 1e-12,
                                                 r.normal);
                    s = magdyn_cuboid_force_torque(&ci, &cj, w->p.model_tol, &f, &t);
                }
                if (s != MAGDYN_OK) break;
                /* on j from i; i gets the reaction, and the torque that keeps
                   the total angular momentum */
                w->F[j] = magdyn_vec3_add(w->F[j], f);
                w->T[j] = magdyn_vec3_add(w->T[j], t);
                w->F[i] = magdyn_vec3_sub(w->F[i], f);
                w->T[i] = magdyn_vec3_sub(w->T[i], magdyn_vec3_add(t,
                                  magdyn_vec3_cross(magdyn_vec3_sub(w->pos[j], w->pos[i]), f)));
            }
    }
    for (i = 0; i < n; i++) {
        w->T[i] = magdyn_vec3_add(w->T[i], magdyn_vec3_cross(w->mi[i], w->p.field));
        w->F[i] = magdyn_vec3_madd(w->F[i], w->b[i].mass, w->p.gravity);
    }
    w->st.force_evals++;
    w->st.time_forces += magdyn_wi_clock() - t0;
    return s;
}

/* y' for every magnet: x' = v, v' = F/m, q' = q (0, w_b)/2, and Euler's
 * equations I w_b' = tau_b - w_b x I w_b in the body frame. */
static magdyn_status rhs(void *ctx, const double *y, double *dy)
{
    magdyn_world *w = ctx;
    magdyn_status s = forces(w, y);
    int i;
    if (s != MAGDYN_OK) return s;
    for (i = 0; i < w->n; i++) {
        const double *yi = y + NS * i;
        double *d = dy + NS * i;
        const magdyn_body *b = &w->b[i];
        magdyn_quat q = magdyn_q(yi[6], yi[7], yi[8], yi[9]), dq;
        magdyn_vec3 wb = magdyn_v3(yi[10], yi[11], yi[12]), tb, iw, dw;
        if (b->fixed) {
            memset(d, 0, NS * sizeof *d);
            continue;
        }
        tb = magdyn_quat_rotate_inv(unit_q(yi + 6), w->T[i]);
        iw = magdyn_v3(b->inertia.x * wb.x, b->inertia.y * wb.y, b->inertia.z * wb.z);
        dw = magdyn_vec3_sub(tb, magdyn_vec3_cross(wb, iw));
        dq = magdyn_quat_derivative(q, wb);
        d[0] = yi[3]; d[1] = yi[4]; d[2] = yi[5];
        d[3] = w->F[i].x / b->mass; d[4] = w->F[i].y / b->mass; d[5] = w->F[i].z / b->mass;
        d[6] = dq.w; d[7] = dq.x; d[8] = dq.y; d[9] = dq.z;
        d[10] = dw.x / b->inertia.x; d[11] = dw.y / b->inertia.y; d[12] = dw.z / b->inertia.z;
    }
    return MAGDYN_OK;
}

/* ---- pairs ----------------------------------------------------------------- */

static double radius(const magdyn_body *b)
{
    return magdyn_vec3_norm(b->half);
}

/* Largest speed of any point of b [m/s]. */
static double point_speed(const magdyn_body *b)
{
    return b->fixed ? 0.0 : magdyn_vec3_norm(b->velocity) + magdyn_vec3_norm(b->omega) * radius(b);
}

/*
 * Broad phase (magdyn_broadphase_pairs, sweep and prune): the pairs of
 * bodies bb[0..n-1] whose boxes may be within margin [m], fixed pairs left
 * out, into w->bp[0 .. 2 *np - 1] sorted by (i, j).  The buffer grows to the
 * count the broad phase reports; on MAGDYN_ENOMEM nothing else changes.
 */
static magdyn_status broad(magdyn_world *w, const magdyn_body *bb, double margin, int *np)
{
    magdyn_status s;
    int i, k, m, total = 0;
    for (i = 0; i < w->n; i++) w->obb[i] = magdyn_body_obb(&bb[i]);
    for (;;) {
        s = magdyn_broadphase_pairs(w->n, w->obb, margin, w->bp, w->capbp, &total);
        if (s != MAGDYN_OK) return s;
        if (total <= w->capbp) break;
        {
            /* grown with room, so a slowly growing count does not realloc every step */
            int cap = total < (1 << 28) ? total + total / 2 + 16 : total;
            int *p = realloc(w->bp, 2 * (size_t)cap * sizeof *p);
            if (!p) return MAGDYN_ENOMEM;
            w->bp = p;
            w->capbp = cap;
        }
    }
    for (k = 0, m = 0; k < total; k++) {
        int i0 = w->bp[2 * k], j0 = w->bp[2 * k + 1];
        if (bb[i0].fixed && bb[j0].fixed) continue;
        w->bp[2 * m] = i0;
        w->bp[2 * m + 1] = j0;
        m++;
    }
    *np = m;
    return MAGDYN_OK;
}

static double separation(const magdyn_body *a, const magdyn_body *b)
{
    magdyn_obb oa = magdyn_body_obb(a), ob = magdyn_body_obb(b);
    magdyn_sat_result r;
    magdyn_obb_sat(&oa, &ob, &r);
    return r.separation;
}

/* The box corner of b furthest along d. */
static magdyn_vec3 support(const magdyn_obb *b, magdyn_vec3 d)
{
    magdyn_vec3 l = magdyn_quat_rotate_inv(b->orientation, d);
    magdyn_vec3 c = magdyn_v3(l.x >= 0 ? b->half.x : -b->half.x, l.y >= 0 ? b->half.y : -b->half.y,
                              l.z >= 0 ? b->half.z : -b->half.z);
    return magdyn_vec3_add(b->center, magdyn_quat_rotate(b->orientation, c));
}

/*
 * The manifold of bodies i and j within margin; when the manifold routine
 * finds no point although the separating-axis test says the boxes are that
 * close (an edge-edge overlap beyond the edges' ends), one point halfway
 * between the two boxes' extreme corners along the separating axis, so no
 * overlap goes unresolved.  Returns the point count.
 */
static int pair_manifold(const magdyn_world *w, int i, int j, double margin, magdyn_manifold *m)
{
    magdyn_obb oi = magdyn_body_obb(&w->b[i]), oj = magdyn_body_obb(&w->b[j]);
    magdyn_sat_result r;
    int n = magdyn_obb_manifold(&oi, &oj, margin, m);
    if (n > 0) return n;
    magdyn_obb_sat(&oi, &oj, &r);
    if (r.separation > margin) return 0;
    m->kind = MAGDYN_CONTACT_EDGE_EDGE;
    m->normal = r.normal;
    m->count = 1;
    m->point[0] = magdyn_vec3_scale(magdyn_vec3_add(support(&oi, magdyn_vec3_neg(r.normal)),
                                                    support(&oj, r.normal)), 0.5);
    m->depth[0] = -r.separation;
    return 1;
}

static int is_active(const magdyn_world *w, int i, int j)
{
    int k;
    for (k = 0; k < w->nact; k++)
        if (w->act[k].i == i && w->act[k].j == j) return 1;
    return 0;
}

static magdyn_status add_active(magdyn_world *w, int i, int j)
{
    if (is_active(w, i, j)) return MAGDYN_OK;
    if (w->nact == w->capact) {
        int cap = w->capact ? 2 * w->capact : 8;
        magdyn_wi_pair *p = realloc(w->act, (size_t)cap * sizeof *p);
        if (!p) return MAGDYN_ENOMEM;
        w->act = p;
        /* the step's backup copy grows with it (a failure here leaves
           act larger than capact says, which is harmless) */
        p = realloc(w->act0, (size_t)cap * sizeof *p);
        if (!p) return MAGDYN_ENOMEM;
        w->act0 = p;
        w->capact = cap;
    }
    w->act[w->nact].i = i;
    w->act[w->nact].j = j;
    w->nact++;
    return MAGDYN_OK;
}

static magdyn_contact *new_contact(magdyn_world *w, int nc)
{
    if (nc == w->capcon) {
        int cap = w->capcon ? 2 * w->capcon : 8;
        magdyn_contact *c = realloc(w->con, (size_t)cap * sizeof *c);
        if (!c) return NULL;
        w->con = c;
        w->capcon = cap;
    }
    memset(&w->con[nc], 0, sizeof w->con[nc]);
    return &w->con[nc];
}

/* Normal velocity of a relative to b at manifold point k (< 0 approaching). */
static double normal_speed(const magdyn_world *w, const magdyn_contact *c, int k)
{
    magdyn_vec3 p = c->manifold.point[k];
    magdyn_vec3 v = magdyn_vec3_sub(magdyn_body_point_velocity(&w->b[c->a], p),
                                    magdyn_body_point_velocity(&w->b[c->b], p));
    return magdyn_vec3_dot(v, c->manifold.normal);
}

static void report(magdyn_world *w, const magdyn_contact *c, double speed, int resting)
{
    magdyn_collision col;
    int k;
    w->st.collisions++;
    if (!w->p.on_collision) return;
    memset(&col, 0, sizeof col);
    col.time = w->t;
    col.i = c->a;
    col.j = c->b;
    col.kind = c->manifold.kind;
    col.normal = c->manifold.normal;
    col.count = c->manifold.count;
    col.total_impulse = magdyn_v3(0, 0, 0);
    for (k = 0; k < c->manifold.count; k++) {
        col.point[k] = c->manifold.point[k];
        col.impulse[k] = c->impulse[k];
        col.total_impulse = magdyn_vec3_add(col.total_impulse, c->impulse[k]);
    }
    col.speed = speed;
    col.resting = resting;
    w->p.on_collision(&col, w->p.user);
}

/* Keep the manifold points with depth >= -limit. */
static void keep_touching(magdyn_manifold *m, double limit)
{
    int k, n = 0;
    for (k = 0; k < m->count; k++)
        if (m->depth[k] >= -limit) {
            m->point[n] = m->point[k];
            m->depth[n] = m->depth[k];
            n++;
        }
    m->count = n;
}

static magdyn_impulse_params solver_params(const magdyn_world *w, double e)
{
    magdyn_impulse_params ip = magdyn_impulse_params_default();
    ip.restitution = e;
    ip.friction = w->p.friction;
    ip.bounce_speed = w->p.bounce_speed;
    ip.max_iterations = 300;
    ip.tolerance = 1e-10;
    return ip;
}

/* ---- impacts ----------------------------------------------------------------- */

/*
 * All pairs touching now (within contact_margin at points, SAT within
 * 2 contact_tol) get their impulses together; each is reported, and those
 * that do not separate faster than bounce_speed (or that collide again
 * without time passing) become resting contacts.
 */
static magdyn_status impact(magdyn_world *w, int again)
{
    magdyn_impulse_params ip = solver_params(w, w->p.restitution);
    double speed[64], t0 = magdyn_wi_clock();
    magdyn_status s = MAGDYN_OK;
    int i, j, k, q, np, nc = 0;
    if ((s = broad(w, w->b, w->p.contact_margin, &np)) != MAGDYN_OK) return s;
    for (q = 0; q < np; q++) {
        magdyn_contact *c;
        i = w->bp[2 * q];
        j = w->bp[2 * q + 1];
        if (separation(&w->b[i], &w->b[j]) > 2.0 * w->p.contact_tol) continue;
        if (!(c = new_contact(w, nc))) return MAGDYN_ENOMEM;
        if (pair_manifold(w, i, j, w->p.contact_margin, &c->manifold) <= 0) continue;
        keep_touching(&c->manifold, w->p.contact_margin);
        if (c->manifold.count == 0) continue;
        c->a = i;
        c->b = j;
        nc++;
    }
    w->st.time_collide += magdyn_wi_clock() - t0;
    t0 = magdyn_wi_clock();
    for (i = 0; i < nc && i < 64; i++) {
        speed[i] = 0.0;
        for (k = 0; k < w->con[i].manifold.count; k++) {
            double v = -normal_speed(w, &w->con[i], k);
            if (v > speed[i]) speed[i] = v;
        }
    }
    if (nc > 0) s = magdyn_impulse_solve(w->b, w->n, w->con, nc, &ip, NULL);
    w->st.time_impulse += magdyn_wi_clock() - t0;
    if (s != MAGDYN_OK) return s;
    for (i = 0; i < nc; i++) {
        const magdyn_contact *c = &w->con[i];
        double sep = -INFINITY, sp = i < 64 ? speed[i] : 0.0;
        int rest;
        for (k = 0; k < c->manifold.count; k++) {
            double v = normal_speed(w, c, k);
            if (v > sep) sep = v;
        }
        rest = again || sep < w->p.bounce_speed;
        if (rest && (s = add_active(w, c->a, c->b)) != MAGDYN_OK) return s;
        if (sp > 0.0) report(w, c, sp, rest);
    }
    w->fsal = 0;
    return MAGDYN_OK;
}

/* ---- free flight -------------------------------------------------------------- */

static double sep_dense(magdyn_world *w, int i, int j, double theta)
{
    magdyn_body a = w->b[i], b = w->b[j];
    double s[NS];
    magdyn_wi_rk_dense(w->rc, NS * w->n, theta, NS * i, NS, s);
    a.position = magdyn_v3(s[0], s[1], s[2]);
    a.orientation = unit_q(s + 6);
    magdyn_wi_rk_dense(w->rc, NS * w->n, theta, NS * j, NS, s);
    b.position = magdyn_v3(s[0], s[1], s[2]);
    b.orientation = unit_q(s + 6);
    return separation(&a, &b);
}

/* First theta in [0, 1] where pair (i, j) touches, given sep(1) < -tol:
 * Illinois regula falsi on the dense output, to |sep| <= contact_tol. */
static double contact_theta(magdyn_world *w, int i, int j, double fb, double h)
{
    double a = 0.0, b = 1.0, fa = sep_dense(w, i, j, 0.0), tol = w->p.contact_tol;
    int side = 0, it;
    if (fa <= tol) return 0.0;
    for (it = 0; it < 100; it++) {
        double m = (a * fb - b * fa) / (fb - fa), fm;
        if (!(m > a && m < b)) m = 0.5 * (a + b);
        fm = sep_dense(w, i, j, m);
        if (fabs(fm) <= tol) return m;
        if (fm > 0) {
            a = m; fa = fm;
            if (side == 1) fb *= 0.5;
            side = 1;
        } else {
            b = m; fb = fm;
            if (side == -1) fa *= 0.5;
            side = -1;
        }
        if ((b - a) * h < 1e-15) break;
    }
    return a;
}

static double rms_scaled(const double *v, const double *y, int n, double rtol, double atol)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++) {
        double sc = atol + rtol * fabs(y[i]), r = sc > 0 ? v[i] / sc : 0.0;
        s += r * r;
    }
    return sqrt(s / (n > 0 ? n : 1));
}

/* Starting step, after Hairer, Norsett and Wanner (II.4, "starting step size"). */
static magdyn_status initial_step(magdyn_world *w, double *h_out)
{
    int n = NS * w->n, i;
    double d0 = rms_scaled(w->y, w->y, n, w->p.rtol, w->p.atol);
    double d1 = rms_scaled(w->k[0], w->y, n, w->p.rtol, w->p.atol), d2, h0, h1;
    magdyn_status s;
    h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
    if (h0 > w->p.max_step) h0 = w->p.max_step;
    for (i = 0; i < n; i++) w->yt[i] = w->y[i] + h0 * w->k[0][i];
    if ((s = rhs(w, w->yt, w->k[1])) != MAGDYN_OK) return s;
    for (i = 0; i < n; i++) w->yn[i] = w->k[1][i] - w->k[0][i];
    d2 = rms_scaled(w->yn, w->y, n, w->p.rtol, w->p.atol) / h0;
    h1 = fmax(d1, d2) <= 1e-15 ? fmax(1e-6, h0 * 1e-3) : pow(0.01 / fmax(d1, d2), 0.2);
    *h_out = fmin(100 * h0, h1);
    return MAGDYN_OK;
}

static magdyn_status free_step(magdyn_world *w, double t_end)
{
    int n = NS * w->n, i, j, last, ci = -1, cj = -1, again;
    double h, err = 0.0, vmax = 0.0, umax = 0.0, theta = 2.0, t0;
    magdyn_status s;
    if (!w->fsal) {
        pack(w);
        if ((s = rhs(w, w->y, w->k[0])) != MAGDYN_OK) return s;
        w->fsal = 1;
    }
    if (!(w->h > 0)) {
        if ((s = initial_step(w, &w->h)) != MAGDYN_OK) return s;
    }
    h = fmin(w->h, w->p.max_step);
    /* no pair may close its bounding-sphere gap and a quarter of its
       smaller box within one step, so no contact is stepped over.  No pair
       closes faster than umax; pairs farther apart than umax h cannot close
       their gap in a step of h, so only those the broad phase lists within
       that margin can shorten it. */
    for (i = 0; i < w->n; i++) umax = fmax(umax, point_speed(&w->b[i]));
    umax *= 2.0;
    if (umax > 0.0 && isfinite(umax * h)) {
        int q, np;
        t0 = magdyn_wi_clock();
        if ((s = broad(w, w->b, umax * h, &np)) != MAGDYN_OK) return s;
        for (q = 0; q < np; q++) {
            const magdyn_body *a = &w->b[w->bp[2 * q]], *b = &w->b[w->bp[2 * q + 1]];
            double u, gap, lm;
            u = magdyn_vec3_dist(a->velocity, b->velocity) + magdyn_vec3_norm(a->omega) * radius(a)
                + magdyn_vec3_norm(b->omega) * radius(b);
            if (!(u > 0)) continue;
            gap = magdyn_vec3_dist(a->position, b->position) - radius(a) - radius(b);
            lm = fmin(fmin(fmin(a->half.x, a->half.y), a->half.z), fmin(fmin(b->half.x, b->half.y), b->half.z));
            vmax = (fmax(gap, 0.0) + FREE_STEP_LENGTH * lm) / u;
            if (h > vmax) h = vmax;
        }
        w->st.time_collide += magdyn_wi_clock() - t0;
    }
    for (;;) {
        double fac;
        last = h >= t_end - w->t;
        if (last) h = t_end - w->t;
        if ((s = magdyn_wi_rk_try(w->k, w->yt, w->yn, w->y, n, h, w->p.rtol, w->p.atol, rhs, w,
                                  &err)) != MAGDYN_OK)
            return s;
        if (err <= 1.0) break;
        w->st.rejected++;
        fac = 0.9 * pow(err, -0.2);
        h *= fac < 0.2 ? 0.2 : fac;
        if (!(h > 1e-15 * fmax(1.0, fabs(w->t)))) return MAGDYN_ENOCONV;
    }
    w->st.steps++;
    {
        double fac = err > 0 ? 0.9 * pow(err, -0.2) : 5.0, hn;
        fac = fac > 5.0 ? 5.0 : fac < 0.2 ? 0.2 : fac;
        hn = h * fac;
        w->h = last ? fmax(w->h, hn) : hn;
    }
    magdyn_wi_rk_dense_prepare(w->k, w->y, w->yn, n, h, w->rc);

    /* collisions: the earliest first contact of any pair along the step */
    t0 = magdyn_wi_clock();
    {
        magdyn_body *be = w->bt;
        int q, np;
        memcpy(be, w->b, (size_t)w->n * sizeof *be);
        for (i = 0; i < w->n; i++) {
            const double *yi = w->yn + NS * i;
            be[i].position = magdyn_v3(yi[0], yi[1], yi[2]);
            be[i].orientation = unit_q(yi + 6);
        }
        if ((s = broad(w, be, w->p.contact_tol, &np)) != MAGDYN_OK) return s;
        for (q = 0; q < np; q++) {
            double s1, th;
            i = w->bp[2 * q];
            j = w->bp[2 * q + 1];
            s1 = separation(&be[i], &be[j]);
            if (s1 > 0.0) continue;
            th = s1 >= -w->p.contact_tol ? 1.0 : contact_theta(w, i, j, s1, h);
            if (th < theta) { theta = th; ci = i; cj = j; }
        }
    }
    w->st.time_collide += magdyn_wi_clock() - t0;

    if (theta > 1.0) {
        double *tmp = w->y;
        w->y = w->yn;
        w->yn = tmp;
        tmp = w->k[0];
        w->k[0] = w->k[6];
        w->k[6] = tmp;
        w->t = last ? t_end : w->t + h;
        unpack(w, w->y);
        return MAGDYN_OK;
    }
    magdyn_wi_rk_dense(w->rc, n, theta, 0, n, w->y);
    w->t = (last && theta == 1.0) ? t_end : w->t + theta * h;
    unpack(w, w->y);
    /* a pair that collides again before time moves on rests in contact,
       even when the manifold had no point to push: the contact stepper
       always makes progress */
    again = theta == 0.0 && w->t == w->last_impact;
    w->last_impact = w->t;
    if ((s = impact(w, again)) != MAGDYN_OK) return s;
    if (again) return add_active(w, ci, cj);
    return MAGDYN_OK;
}

/* ---- resting contact ------------------------------------------------------------ */

/* 1 when some magnet was moved by the projection. */
static int mt_any(const magdyn_world *w)
{
    int i;
    for (i = 0; i < w->n; i++)
        if (w->moved[i] == 2) return 1;
    return 0;
}

/* Push apart pairs that sink deeper than contact_tol: translate each pair
 * along its separating axis, by the exact penetration of the separating-axis
 * test, shared by inverse mass (Gauss-Seidel over the pairs until none overlaps,
 * at most 50 sweeps).
 * Translation, not rotation: turning a box changes its edge directions and
 * with them the edge-edge axis, so rotation does not remove such overlap. */
static magdyn_status project(magdyn_world *w, int nc)
{
    int i, sweep, any = 0;
    double u0 = 0.0, du;
    /* moved: 1 for the free magnets of all contact pairs (the energy is
       taken over them), 2 for those actually moved */
    memset(w->moved, 0, (size_t)w->n);
    for (i = 0; i < nc; i++) {
        const magdyn_contact *c = &w->con[i];
        w->moved[c->a] = !w->b[c->a].fixed;
        w->moved[c->b] = !w->b[c->b].fixed;
        if (separation(&w->b[c->a], &w->b[c->b]) < -w->p.contact_tol) any = 1;
    }
    if (!any) return MAGDYN_OK;
    u0 = magdyn_wi_potential(w, w->moved);
    for (sweep = 0, any = 1; sweep < 50 && any; sweep++)
        for (i = 0, any = 0; i < nc; i++) {
            const magdyn_contact *c = &w->con[i];
            magdyn_body *a = &w->b[c->a], *b = &w->b[c->b];
            magdyn_obb oa = magdyn_body_obb(a), ob = magdyn_body_obb(b);
            magdyn_sat_result r;
            double ia = magdyn_body_inv_mass(a), ib = magdyn_body_inv_mass(b), d;
            magdyn_obb_sat(&oa, &ob, &r);
            if (r.separation >= -w->p.contact_tol || ia + ib <= 0.0) continue;
            d = -r.separation - 0.5 * w->p.contact_tol;
            any = 1;
            a->position = magdyn_vec3_madd(a->position, d * ia / (ia + ib), r.normal);
            b->position = magdyn_vec3_madd(b->position, -d * ib / (ia + ib), r.normal);
            if (!a->fixed) w->moved[c->a] = 2;
            if (!b->fixed) w->moved[c->b] = 2;
        }
    /* Pushing magnets apart against their attraction raises the potential
       energy: take it from the moved magnets' motion (velocities relative
       to their mean, so their momentum is kept when none is fixed), so that
       the correction creates no energy. */
    du = magdyn_wi_potential(w, w->moved) - u0;
    if (du > 0.0 && mt_any(w)) {
        magdyn_vec3 pm = {0, 0, 0};
        double mt = 0.0, kr = 0.0, f;
        for (i = 0; i < w->n; i++)
            if (w->moved[i] == 2) {
                pm = magdyn_vec3_madd(pm, w->b[i].mass, w->b[i].velocity);
                mt += w->b[i].mass;
            }
        pm = magdyn_vec3_scale(pm, 1.0 / mt);
        for (i = 0; i < w->n; i++)
            if (w->moved[i] == 2) {
                magdyn_body rel = w->b[i];
                rel.velocity = magdyn_vec3_sub(rel.velocity, pm);
                kr += magdyn_body_kinetic_energy(&rel);
            }
        f = kr > du ? sqrt((kr - du) / kr) : 0.0;
        for (i = 0; i < w->n; i++)
            if (w->moved[i] == 2) {
                magdyn_body *b = &w->b[i];
                b->velocity = magdyn_vec3_add(pm, magdyn_vec3_scale(magdyn_vec3_sub(b->velocity, pm), f));
                b->omega = magdyn_vec3_scale(b->omega, f);
            }
    }
    return MAGDYN_OK;
}

static magdyn_status contact_step(magdyn_world *w, double t_end)
{
    int i, j, k, nc = 0, nimp = 0;
    double h = fmin(fmin(w->hc > 0 ? w->hc : w->p.contact_step, w->p.contact_step), t_end - w->t);
    double amax = 0.0, t0;
    int last = h >= t_end - w->t;
    magdyn_status s;
    magdyn_impulse_params ip;

    pack(w);
    if ((s = forces(w, w->y)) != MAGDYN_OK) return s;
    for (i = 0; i < w->n; i++)
        if (!w->b[i].fixed) amax = fmax(amax, magdyn_vec3_norm(w->F[i]) / w->b[i].mass);

    /* contacts that may act within the step (speculative beyond touching) */
    t0 = magdyn_wi_clock();
    {
        double vps = 0.0;
        int q, np;
        for (i = 0; i < w->n; i++) vps = fmax(vps, point_speed(&w->b[i]));
        if ((s = broad(w, w->b, w->p.contact_margin + 2.0 * (2.0 * h * vps + h * h * amax), &np))
            != MAGDYN_OK)
            return s;
        for (q = 0; q < np; q++) {
            magdyn_contact *c;
            double reach;
            i = w->bp[2 * q];
            j = w->bp[2 * q + 1];
            reach = w->p.contact_margin
                + 2.0 * (h * (point_speed(&w->b[i]) + point_speed(&w->b[j])) + h * h * amax);
            if (separation(&w->b[i], &w->b[j]) > reach) continue;
            if (!(c = new_contact(w, nc))) return MAGDYN_ENOMEM;
            if (pair_manifold(w, i, j, reach, &c->manifold) <= 0) continue;
            c->a = i;
            c->b = j;
            nc++;
        }
    }
    w->st.time_collide += magdyn_wi_clock() - t0;

    /* impacts at the start of the step: touching points approaching faster
       than bounce_speed bounce, with restitution, before the forces act */
    t0 = magdyn_wi_clock();
    for (i = 0; i < nc; i++) {
        magdyn_contact *c = &w->con[i];
        double sp = 0.0;
        /* a pair already resting does not bounce: its manifold changes
           from step to step as the boxes roll, and bouncing on every such
           change would keep it chattering */
        if (is_active(w, c->a, c->b)) continue;
        for (k = 0; k < c->manifold.count; k++)
            if (c->manifold.depth[k] >= -w->p.contact_tol)
                sp = fmax(sp, -normal_speed(w, c, k));
        if (sp > w->p.bounce_speed) nimp++;
    }
    if (nimp > 0) {
        int m = 0;
        double speed[64];
        /* solve the touching points of all pairs, then report the fast ones */
        for (i = 0; i < nc; i++) {
            magdyn_contact c = w->con[i];
            if (is_active(w, c.a, c.b)) continue;
            keep_touching(&c.manifold, w->p.contact_tol);
            if (c.manifold.count == 0) continue;
            if (!new_contact(w, nc + m)) return MAGDYN_ENOMEM;
            w->con[nc + m] = c;
            if (m < 64) {
                speed[m] = 0.0;
                for (k = 0; k < c.manifold.count; k++)
                    speed[m] = fmax(speed[m], -normal_speed(w, &c, k));
            }
            m++;
        }
        ip = solver_params(w, w->p.restitution);
        if ((s = magdyn_impulse_solve(w->b, w->n, w->con + nc, m, &ip, NULL)) != MAGDYN_OK)
            return s;
        for (i = 0; i < m && i < 64; i++)
            if (speed[i] > w->p.bounce_speed) report(w, &w->con[nc + i], speed[i], 1);
    }

    /* semi-implicit Euler: velocities under the forces, then the contact
       impulses (e = 0: resting), then positions with the new velocities.
       Shrink the step while any point would move too far. */
    memcpy(w->bt, w->b, (size_t)w->n * sizeof *w->bt);
    ip = solver_params(w, 0.0);
    for (;;) {
        double disp = 0.0;
        for (i = 0; i < w->n; i++) {
            magdyn_body *b = &w->b[i];
            magdyn_vec3 wb, tb, iw;
            if (b->fixed) continue;
            *b = w->bt[i];
            b->velocity = magdyn_vec3_madd(b->velocity, h / b->mass, w->F[i]);
            wb = magdyn_quat_rotate_inv(b->orientation, b->omega);
            /* the gyroscopic term - w x I w does no work: an explicit
               Euler step of it, rescaled to the same rotational energy
               (explicit Euler alone would feed energy into a spinning box) */
            {
                double e0 = b->inertia.x * wb.x * wb.x + b->inertia.y * wb.y * wb.y
                          + b->inertia.z * wb.z * wb.z, e1;
                magdyn_vec3 g;
                iw = magdyn_v3(b->inertia.x * wb.x, b->inertia.y * wb.y, b->inertia.z * wb.z);
                g = magdyn_vec3_cross(wb, iw);
                wb = magdyn_v3(wb.x - h * g.x / b->inertia.x, wb.y - h * g.y / b->inertia.y,
                               wb.z - h * g.z / b->inertia.z);
                e1 = b->inertia.x * wb.x * wb.x + b->inertia.y * wb.y * wb.y
                   + b->inertia.z * wb.z * wb.z;
                if (e1 > 0.0) wb = magdyn_vec3_scale(wb, sqrt(e0 / e1));
            }
            tb = magdyn_quat_rotate_inv(b->orientation, w->T[i]);
            wb = magdyn_v3(wb.x + h * tb.x / b->inertia.x, wb.y + h * tb.y / b->inertia.y,
                           wb.z + h * tb.z / b->inertia.z);
            b->omega = magdyn_quat_rotate(b->orientation, wb);
        }
        for (i = 0; i < nc; i++)
            for (k = 0; k < w->con[i].manifold.count; k++) {
                double d = w->con[i].manifold.depth[k];
                w->con[i].target[k] = d < 0 ? d / h : 0.0;
            }
        if (nc > 0 && (s = magdyn_impulse_solve(w->b, w->n, w->con, nc, &ip, NULL)) != MAGDYN_OK)
            return s;
        for (i = 0; i < w->n; i++) disp = fmax(disp, h * point_speed(&w->b[i]));
        if (disp <= CONTACT_STEP_LENGTH * w->lmin || h < 1e-12) break;
        h *= 0.7 * CONTACT_STEP_LENGTH * w->lmin / disp;
        last = 0;
    }
    for (i = 0; i < w->n; i++) {
        magdyn_body *b = &w->b[i];
        if (b->fixed) continue;
        b->position = magdyn_vec3_madd(b->position, h, b->velocity);
        b->orientation = magdyn_quat_integrate(b->orientation,
                                               magdyn_quat_rotate_inv(b->orientation, b->omega), h);
    }
    w->st.time_impulse += magdyn_wi_clock() - t0;

    /* the pairs within contact_margin after the move rest in contact; any
       of them that overlaps (a feature the step start's manifold did not
       see) is pushed apart */
    t0 = magdyn_wi_clock();
    {
        int q, np;
        if ((s = broad(w, w->b, w->p.contact_margin, &np)) != MAGDYN_OK) return s;
        w->nact = 0;
        nc = 0;
        for (q = 0; q < np; q++) {
            magdyn_contact *c;
            i = w->bp[2 * q];
            j = w->bp[2 * q + 1];
            if (separation(&w->b[i], &w->b[j]) > w->p.contact_margin) continue;
            if ((s = add_active(w, i, j)) != MAGDYN_OK) return s;
            if (!(c = new_contact(w, nc))) return MAGDYN_ENOMEM;
            c->a = i;
            c->b = j;
            nc++;
        }
    }
    w->st.time_collide += magdyn_wi_clock() - t0;
    t0 = magdyn_wi_clock();
    if ((s = project(w, nc)) != MAGDYN_OK) return s;
    w->st.time_impulse += magdyn_wi_clock() - t0;
    {
        double vmax = 0.0;
        for (i = 0; i < w->n; i++) vmax = fmax(vmax, point_speed(&w->b[i]));
        w->calm = (vmax < SLEEP_SPEED && h >= 0.999 * w->p.contact_step) ? w->calm + 1 : 0;
        if (w->calm >= SLEEP_STEPS) {
            for (i = 0; i < w->n; i++) {
                w->b[i].velocity = magdyn_v3(0, 0, 0);
                w->b[i].omega = magdyn_v3(0, 0, 0);
            }
            w->asleep = 1;
        }
    }
    w->t = last ? t_end : w->t + h;
    w->hc = 2.0 * h;
    w->st.contact_steps++;
    w->fsal = 0;
    return MAGDYN_OK;
}

/* ---- advance ------------------------------------------------------------------ */

magdyn_status magdyn_world_advance(magdyn_world *w, double t_end)
{
    magdyn_status s;
    int i, j;
    if (!w) return MAGDYN_EINVAL;
    if (!isfinite(t_end)) return MAGDYN_ENONFINITE;
    if (t_end < w->t) return MAGDYN_ESTATE;
    for (i = 0; i < w->n; i++)
        if ((s = magdyn_body_check(&w->b[i])) != MAGDYN_OK) return s;
    if (!w->touch_checked) {
        /* magnets placed touching start in resting contact */
        int q, np;
        if ((s = broad(w, w->b, w->p.contact_margin, &np)) != MAGDYN_OK) return s;
        for (q = 0; q < np; q++) {
            i = w->bp[2 * q];
            j = w->bp[2 * q + 1];
            if (separation(&w->b[i], &w->b[j]) <= w->p.contact_margin
                && (s = add_active(w, i, j)) != MAGDYN_OK)
                return s;
        }
        w->touch_checked = 1;
    }
    if (w->asleep) {
        w->t = t_end;
        return MAGDYN_OK;
    }
    while (w->t < t_end && !w->asleep) {
        double t = w->t;
        int nact = w->nact;
        /* each step is all or nothing: a failing one (out of memory, a
           failing force evaluation) is undone, leaving the state at the
           time reached */
        memcpy(w->b0, w->b, (size_t)w->n * sizeof *w->b0);
        if (nact > 0) memcpy(w->act0, w->act, (size_t)nact * sizeof *w->act0);
        s = w->nact > 0 ? contact_step(w, t_end) : free_step(w, t_end);
        if (s != MAGDYN_OK) {
            memcpy(w->b, w->b0, (size_t)w->n * sizeof *w->b);
            if (nact > 0) memcpy(w->act, w->act0, (size_t)nact * sizeof *w->act);
            w->nact = nact;
            w->t = t;
            w->fsal = 0;
            w->calm = 0;
            return s;
        }
    }
    if (w->asleep) w->t = t_end;
    return MAGDYN_OK;
}
