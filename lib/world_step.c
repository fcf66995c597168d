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
/* A world in contact mode in which no point of any magnet has strayed
 * further than SLEEP_DRIFT times the smallest half extent from where it was
 * SLEEP_WINDOW seconds (and at least SLEEP_WINDOW_STEPS contact steps) ago
 * is jammed in place: its magnets only jitter by the stepper's per-step
 * motion under forces the contacts hold (a time stepper's velocities never
 * drop below h F / m there), and it sleeps. */
#define SLEEP_DRIFT 2e-3
#define SLEEP_WINDOW 2e-3
#define SLEEP_WINDOW_STEPS 50
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

/* Body axis k of box o, inertial. */
static magdyn_vec3 box_axis(const magdyn_obb *o, int k)
{
    return magdyn_quat_rotate(o->orientation, magdyn_v3(k == 0, k == 1, k == 2));
}

static double half_of(const magdyn_obb *o, int k)
{
    return k == 0 ? o->half.x : k == 1 ? o->half.y : o->half.z;
}

/* The centre of the edge of o along axis k that lies furthest along d. */
static magdyn_vec3 edge_center(const magdyn_obb *o, int k, magdyn_vec3 d)
{
    magdyn_vec3 c = o->center;
    int q;
    for (q = 0; q < 3; q++) {
        magdyn_vec3 e = box_axis(o, q);
        if (q == k) continue;
        c = magdyn_vec3_madd(c, magdyn_vec3_dot(e, d) >= 0 ? half_of(o, q) : -half_of(o, q), e);
    }
    return c;
}

/* Edges within this angle of parallel touch along a segment, not at a point. */
#define PARALLEL_EDGE_COS 0.966   /* cos 15 degrees */

/*
 * Two nearly parallel edges (a separating axis a_i x b_j) touch along a
 * segment.  The manifold's one point at the edges' closest approach lets
 * the boxes turn about it, and in a time step the segment's ends then sink
 * by (edge length) x (angle turned): add the two ends of the part where the
 * edges face each other, with their depths along the normal, so that the
 * contact holds along the whole segment.
 */
static void parallel_edges(const magdyn_obb *oa, const magdyn_obb *ob, const magdyn_sat_result *r,
                           double margin, magdyn_manifold *m)
{
    int ia = (r->axis - 6) / 3, jb = (r->axis - 6) % 3, e;
    magdyn_vec3 da = box_axis(oa, ia), db = box_axis(ob, jb), ca, cb;
    double c = magdyn_vec3_dot(da, db), ha = half_of(oa, ia), hb = half_of(ob, jb), off, lo, hi;
    if (fabs(c) < PARALLEL_EDGE_COS) return;
    if (c < 0) {
        db = magdyn_vec3_neg(db);
        c = -c;
    }
    ca = edge_center(oa, ia, magdyn_vec3_neg(r->normal));   /* normal points from b to a */
    cb = edge_center(ob, jb, r->normal);
    off = magdyn_vec3_dot(magdyn_vec3_sub(cb, ca), da);
    lo = fmax(-ha, off - hb * c);
    hi = fmin(ha, off + hb * c);
    if (!(lo < hi)) return;
    for (e = 0; e < 2 && m->count < MAGDYN_MAX_CONTACTS; e++) {
        double s = e ? hi : lo, t = (s - off) / c, d;
        magdyn_vec3 pa, pb;
        t = t < -hb ? -hb : t > hb ? hb : t;
        pa = magdyn_vec3_madd(ca, s, da);
        pb = magdyn_vec3_madd(cb, t, db);
        d = magdyn_vec3_dot(magdyn_vec3_sub(pb, pa), r->normal);
        if (d < -margin) continue;
        m->point[m->count] = magdyn_vec3_scale(magdyn_vec3_add(pa, pb), 0.5);
        m->depth[m->count] = d;
        m->count++;
    }
}

/* An edge-edge normal within this of a face normal is that face's (cos 0.26 deg). */
#define FACE_LIKE_COS (1.0 - 1e-5)

/*
 * Two boxes whose faces are (nearly) parallel touch over the overlap of the
 * faces, even when their edges cross so that an edge-edge axis ties with the
 * face axes in the separating-axis test (two bars stacked crosswise): the
 * manifold routine then gives the one point where the edges cross, the
 * boxes rock about it under the magnetic torque, and every step sinks one of
 * them into the other.  When the normal n is within FACE_LIKE_COS of a face
 * normal, replace the manifold by face clipping: the face of the other box
 * that faces it, clipped to the reference face's sides (Sutherland-Hodgman),
 * points within margin.  Returns 1 when it did.
 */
static int face_like(const magdyn_obb *oa, const magdyn_obb *ob, double margin, magdyn_manifold *m)
{
    const magdyn_obb *ref = NULL, *inc;
    magdyn_vec3 n = m->normal, rn, rc, poly[2][16], ic, iu, iv;
    double best = FACE_LIKE_COS, ih[2], lo;
    int k, kr = -1, ki = 0, np, q, cur = 0, side;
    for (k = 0; k < 6; k++) {
        const magdyn_obb *o = k < 3 ? oa : ob;
        double d = fabs(magdyn_vec3_dot(box_axis(o, k % 3), n));
        if (d > best) { best = d; ref = o; kr = k % 3; }
    }
    if (!ref) return 0;
    inc = ref == oa ? ob : oa;
    /* reference face: its outward normal rn faces the other box */
    rn = box_axis(ref, kr);
    if (magdyn_vec3_dot(rn, ref == ob ? n : magdyn_vec3_neg(n)) < 0) rn = magdyn_vec3_neg(rn);
    rc = magdyn_vec3_madd(ref->center, half_of(ref, kr), rn);
    /* incident face: the other box's face most against rn */
    for (k = 0, lo = 2.0; k < 3; k++) {
        double d = -fabs(magdyn_vec3_dot(box_axis(inc, k), rn));
        if (d < lo) { lo = d; ki = k; }
    }
    {
        magdyn_vec3 e = box_axis(inc, ki);
        if (magdyn_vec3_dot(e, rn) > 0) e = magdyn_vec3_neg(e);
        ic = magdyn_vec3_madd(inc->center, half_of(inc, ki), e);
        iu = box_axis(inc, (ki + 1) % 3);
        iv = box_axis(inc, (ki + 2) % 3);
        ih[0] = half_of(inc, (ki + 1) % 3);
        ih[1] = half_of(inc, (ki + 2) % 3);
    }
    for (k = 0; k < 4; k++)
        poly[0][k] = magdyn_vec3_madd(magdyn_vec3_madd(ic, (k == 0 || k == 3) ? ih[0] : -ih[0], iu),
                                      k < 2 ? ih[1] : -ih[1], iv);
    np = 4;
    /* clip by the four side planes of the reference face */
    for (side = 0; side < 4 && np > 0; side++) {
        int ax = (kr + 1 + side / 2) % 3, nn = 0;
        magdyn_vec3 sn = box_axis(ref, ax);
        double h = half_of(ref, ax);
        if (side & 1) sn = magdyn_vec3_neg(sn);
        for (q = 0; q < np; q++) {
            magdyn_vec3 p = poly[cur][q], r = poly[cur][(q + 1) % np];
            double dp = magdyn_vec3_dot(magdyn_vec3_sub(p, ref->center), sn) - h;
            double dr = magdyn_vec3_dot(magdyn_vec3_sub(r, ref->center), sn) - h;
            if (dp <= 0) poly[1 - cur][nn++] = p;
            if ((dp < 0) != (dr < 0) && dp != dr && nn < 16)
                poly[1 - cur][nn++] = magdyn_vec3_add(p, magdyn_vec3_scale(magdyn_vec3_sub(r, p), dp / (dp - dr)));
        }
        np = nn;
        cur = 1 - cur;
    }
    if (np == 0) return 0;
    m->count = 0;
    for (q = 0; q < np && m->count < MAGDYN_MAX_CONTACTS; q++) {
        magdyn_vec3 p = poly[cur][q];
        double d = -magdyn_vec3_dot(magdyn_vec3_sub(p, rc), rn);   /* > 0: below the reference face */
        if (d < -margin) continue;
        m->point[m->count] = magdyn_vec3_madd(p, 0.5 * d, rn);
        m->depth[m->count] = d;
        m->count++;
    }
    if (m->count == 0) return 0;
    m->normal = ref == ob ? rn : magdyn_vec3_neg(rn);   /* from b towards a */
    m->kind = MAGDYN_CONTACT_FACE_FACE;
    return 1;
}

/*
 * The manifold of bodies i and j within margin; when the manifold routine
 * finds no point although the separating-axis test says the boxes are that
 * close (an edge-edge overlap beyond the edges' ends), one point halfway
 * between the two boxes' extreme corners along the separating axis, so no
 * overlap goes unresolved.  Nearly parallel edges get the ends of their
 * common segment too (parallel_edges).  Returns the point count.
 */
static int pair_manifold(const magdyn_world *w, int i, int j, double margin, magdyn_manifold *m)
{
    magdyn_obb oi = magdyn_body_obb(&w->b[i]), oj = magdyn_body_obb(&w->b[j]);
    magdyn_sat_result r;
    int n = magdyn_obb_manifold(&oi, &oj, margin, m);
    (void)w;
    if (n > 0 && m->kind != MAGDYN_CONTACT_EDGE_EDGE) return n;
    magdyn_obb_sat(&oi, &oj, &r);
    if (n <= 0) {
        if (r.separation > margin) return 0;
        m->kind = MAGDYN_CONTACT_EDGE_EDGE;
        m->normal = r.normal;
        m->count = 1;
        m->point[0] = magdyn_vec3_scale(magdyn_vec3_add(support(&oi, magdyn_vec3_neg(r.normal)),
                                                        support(&oj, r.normal)), 0.5);
        m->depth[0] = -r.separation;
    }
    if (r.axis >= 6 && magdyn_vec3_dot(r.normal, m->normal) > 1.0 - 1e-9) {
        magdyn_manifold f = *m;
        if (face_like(&oi, &oj, margin, &f)) {
            *m = f;
            return m->count;
        }
        parallel_edges(&oi, &oj, &r, margin, m);
    }
    return m->count;
}

static magdyn_contact *new_contact(magdyn_world *w, int nc);

/*
 * Corners of box a within margin of a face of box b: each face of b that
 * has some becomes one more contact of the pair (normal the face's, from b
 * towards a; points the corners; depths their penetration), appended at
 * w->con[*nc].  An edge-edge manifold's one point stands for the edges'
 * closest approach, and where that lies at the end of an edge the corner
 * there can slide along the edge-edge normal straight into the other box's
 * face; these contacts hold it.  swap: a is body j of contact (i, j).
 */
static magdyn_status corner_contacts(magdyn_world *w, int i, int j, int swap, double margin, int *nc)
{
    magdyn_obb oa = magdyn_body_obb(&w->b[swap ? j : i]), ob = magdyn_body_obb(&w->b[swap ? i : j]);
    magdyn_manifold face[6];
    int c, f;
    for (f = 0; f < 6; f++) face[f].count = 0;
    for (c = 0; c < 8; c++) {
        magdyn_vec3 lc = magdyn_v3(c & 1 ? oa.half.x : -oa.half.x, c & 2 ? oa.half.y : -oa.half.y,
                                   c & 4 ? oa.half.z : -oa.half.z);
        magdyn_vec3 p = magdyn_vec3_add(oa.center, magdyn_quat_rotate(oa.orientation, lc));
        magdyn_vec3 l = magdyn_quat_rotate_inv(ob.orientation, magdyn_vec3_sub(p, ob.center));
        double g[3], best;
        int k, kb = 0;
        g[0] = fabs(l.x) - ob.half.x;
        g[1] = fabs(l.y) - ob.half.y;
        g[2] = fabs(l.z) - ob.half.z;
        if (g[0] > margin || g[1] > margin || g[2] > margin) continue;
        for (k = 1, best = g[0]; k < 3; k++)
            if (g[k] > best) { best = g[k]; kb = k; }
        f = 2 * kb + ((kb == 0 ? l.x : kb == 1 ? l.y : l.z) < 0);
        face[f].point[face[f].count] = p;
        face[f].depth[face[f].count] = -best;
        face[f].count++;
    }
    for (f = 0; f < 6; f++) {
        magdyn_contact *ct;
        magdyn_vec3 nl = magdyn_v3(f / 2 == 0, f / 2 == 1, f / 2 == 2);
        if (face[f].count == 0) continue;
        if (f & 1) nl = magdyn_vec3_neg(nl);
        if (!(ct = new_contact(w, *nc))) return MAGDYN_ENOMEM;
        ct->manifold = face[f];
        ct->manifold.kind = swap ? MAGDYN_CONTACT_FACE_EDGE : MAGDYN_CONTACT_EDGE_FACE;
        ct->manifold.normal = magdyn_quat_rotate(ob.orientation, nl);   /* from b towards a */
        ct->a = swap ? j : i;
        ct->b = swap ? i : j;
        (*nc)++;
    }
    return MAGDYN_OK;
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
    /* a step too short to move time on (forces so large that the first
       estimate or the contact bound underflows) would be accepted with no
       error and repeated forever */
    if (!(h > 1e-15 * fmax(1.0, fabs(w->t))) && h < t_end - w->t) return MAGDYN_ENOCONV;
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
        if (w->n > 0) memcpy(be, w->b, (size_t)w->n * sizeof *be);
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

/*
 * The first-order contact stepper does not keep energy: the position
 * projection lifts magnets against their attraction, and semi-implicit
 * Euler under steep dipole forces can gain a little.  Contact handling must
 * not add energy, so any rise of the total energy over a contact step is
 * taken back from the kinetic energy of the free magnets (their velocities
 * relative to their mean when none is fixed, so that the momentum is kept,
 * scaled down); what the kinetic energy cannot pay is owed and taken in the
 * following steps.  This is the stepper's only dissipation besides friction
 * and inelastic impacts, and it acts only where the stepper would have
 * created energy.
 */
static magdyn_status energy_guard(magdyn_world *w, double e0)
{
    double e1 = magdyn_world_energy(w), rise = e1 - e0 + w->debt, kr = 0.0, mt = 0.0, f;
    magdyn_vec3 pm = {0, 0, 0};
    int i, anyfixed = 0;
    if (!isfinite(e1)) return MAGDYN_ENONFINITE;
    if (!(rise > 0.0)) {
        w->debt = 0.0;
        w->e_start = e1;
        return MAGDYN_OK;
    }
    for (i = 0; i < w->n; i++) {
        if (w->b[i].fixed) { anyfixed = 1; continue; }
        pm = magdyn_vec3_madd(pm, w->b[i].mass, w->b[i].velocity);
        mt += w->b[i].mass;
    }
    pm = (anyfixed || mt <= 0.0) ? magdyn_v3(0, 0, 0) : magdyn_vec3_scale(pm, 1.0 / mt);
    for (i = 0; i < w->n; i++) {
        magdyn_body rel = w->b[i];
        rel.velocity = magdyn_vec3_sub(rel.velocity, pm);
        kr += magdyn_body_kinetic_energy(&rel);
    }
    f = kr > rise ? sqrt((kr - rise) / kr) : 0.0;
    for (i = 0; i < w->n; i++) {
        magdyn_body *b = &w->b[i];
        if (b->fixed) continue;
        b->velocity = magdyn_vec3_add(pm, magdyn_vec3_scale(magdyn_vec3_sub(b->velocity, pm), f));
        b->omega = magdyn_vec3_scale(b->omega, f);
    }
    w->debt = kr > rise ? 0.0 : rise - kr;
    w->e_start = e1 - (kr > rise ? rise : kr);
    return MAGDYN_OK;
}

/* Largest distance [m] any point of a free magnet has moved from pose o. */
static double drift(const magdyn_body *b, const magdyn_body *o)
{
    magdyn_quat p = b->orientation, q = o->orientation;
    double d = fabs(p.w * q.w + p.x * q.x + p.y * q.y + p.z * q.z);
    return magdyn_vec3_dist(b->position, o->position) + 2.0 * acos(d < 1.0 ? d : 1.0) * radius(b);
}

/* After a contact step: 1 when the world has been jammed in place for a
 * window (SLEEP_DRIFT above); else the window restarts when a magnet strays. */
static int jammed(magdyn_world *w)
{
    int i, strayed = isnan(w->anc_t);
    for (i = 0; i < w->n && !strayed; i++)
        if (!w->b[i].fixed && drift(&w->b[i], &w->anc[i]) > SLEEP_DRIFT * w->lmin) strayed = 1;
    if (strayed) {
        if (w->n > 0) memcpy(w->anc, w->b, (size_t)w->n * sizeof *w->anc);
        w->anc_t = w->t;
        w->anc_steps = 0;
        return 0;
    }
    w->anc_steps++;
    return w->t - w->anc_t >= SLEEP_WINDOW && w->anc_steps >= SLEEP_WINDOW_STEPS;
}

static magdyn_status contact_step(magdyn_world *w, double t_end)
{
    int i, j, k, nc = 0, nimp = 0;
    double h = fmin(fmin(w->hc > 0 ? w->hc : w->p.contact_step, w->p.contact_step), t_end - w->t);
    double amax = 0.0, t0, e0;
    int last = h >= t_end - w->t;
    magdyn_status s;
    magdyn_impulse_params ip;

    e0 = isnan(w->e_start) ? magdyn_world_energy(w) : w->e_start;
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
            if (c->manifold.kind == MAGDYN_CONTACT_EDGE_EDGE
                && ((s = corner_contacts(w, i, j, 0, reach, &nc)) != MAGDYN_OK
                    || (s = corner_contacts(w, i, j, 1, reach, &nc)) != MAGDYN_OK))
                return s;
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
    if (w->n > 0) memcpy(w->bt, w->b, (size_t)w->n * sizeof *w->bt);
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
    if ((s = energy_guard(w, e0)) != MAGDYN_OK) return s;
    w->st.time_impulse += magdyn_wi_clock() - t0;
    w->t = last ? t_end : w->t + h;
    {
        double vmax = 0.0;
        for (i = 0; i < w->n; i++) vmax = fmax(vmax, point_speed(&w->b[i]));
        w->calm = (vmax < SLEEP_SPEED && h >= 0.999 * w->p.contact_step) ? w->calm + 1 : 0;
        if (w->calm >= SLEEP_STEPS || jammed(w)) {
            /* a step that ends owing energy (its projection lifted magnets
               with no motion left to pay) is undone: the world sleeps as it
               was before it, at rest too and lower in energy */
            if (w->debt > 0.0) {
                if (w->n > 0) memcpy(w->b, w->b0, (size_t)w->n * sizeof *w->b);
                w->debt = 0.0;
            }
            for (i = 0; i < w->n; i++) {
                w->b[i].velocity = magdyn_v3(0, 0, 0);
                w->b[i].omega = magdyn_v3(0, 0, 0);
            }
            w->asleep = 1;
        }
    }
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
        /* (an empty world has NULL arrays: memcpy(NULL, NULL, 0) is
           undefined, found by fuzzing) */
        if (w->n > 0) memcpy(w->b0, w->b, (size_t)w->n * sizeof *w->b0);
        if (nact > 0) memcpy(w->act0, w->act, (size_t)nact * sizeof *w->act0);
        if (w->nact > 0) {
            s = contact_step(w, t_end);
        } else {
            /* stillness is tracked over unbroken runs of contact steps; an
               energy debt is carried over free flight (which keeps energy)
               to the next run */
            w->e_start = NAN;
            w->anc_t = NAN;
            s = free_step(w, t_end);
        }
        if (s != MAGDYN_OK) {
            w->e_start = NAN;
            w->anc_t = NAN;
            if (w->n > 0) memcpy(w->b, w->b0, (size_t)w->n * sizeof *w->b);
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
