/*
 * impulse_patch.c - patch friction (layer 3): one frictional wrench per
 * manifold under an elliptic limit surface.  See impulse_impl.h.
 */
#include <math.h>
#include "detmath.h"
#include "impulse_impl.h"

/* The point's offset from the centre, in the tangent plane (t1, t2). */
static void planar(magdyn_vec3 p, magdyn_vec3 centre, magdyn_vec3 t1, magdyn_vec3 t2, double *x,
                   double *y)
{
    magdyn_vec3 d = magdyn_vec3_sub(p, centre);
    *x = magdyn_vec3_dot(d, t1);
    *y = magdyn_vec3_dot(d, t2);
}

/* The integral of |r| over the triangle (origin, foot + s0 d, foot + s1 d),
 * foot the origin's projection onto a line at distance h along the line's
 * unit direction d: in polar coordinates it is h^3/3 times the integral of
 * sec^3, h^3/3 [G(s1/h) - G(s0/h)] with G(u) = (u sqrt(1 + u^2) + asinh u)/2. */
static double fan_moment(double h, double s0, double s1)
{
    double u0 = s0 / h, u1 = s1 / h;
    double g0 = 0.5 * (u0 * sqrt(1.0 + u0 * u0) + md_asinh(u0));
    double g1 = 0.5 * (u1 * sqrt(1.0 + u1 * u1) + md_asinh(u1));
    return h * h * h / 3.0 * (g1 - g0);
}

/*
 * r_e of the points x[], y[] (about their mean, which is the origin):
 * int |r| dA / A over their convex polygon, or L/4 for a segment (uniform
 * pressure along it), 0 for a point.
 */
static double twist_reach(double *x, double *y, int n)
{
    double ang[MAGDYN_MAX_CONTACTS], area = 0.0, moment = 0.0, span = 0.0;
    int i, j;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) span = fmax(span, md_hypot(x[i] - x[j], y[i] - y[j]));
    if (n < 3 || span <= 0.0) return 0.25 * span;
    /* order the vertices around the centre */
    for (i = 0; i < n; i++) ang[i] = md_atan2(y[i], x[i]);
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && ang[j - 1] > ang[j]; j--) {
            double t;
            t = ang[j]; ang[j] = ang[j - 1]; ang[j - 1] = t;
            t = x[j]; x[j] = x[j - 1]; x[j - 1] = t;
            t = y[j]; y[j] = y[j - 1]; y[j - 1] = t;
        }
    for (i = 0; i < n; i++) {
        double px = x[i], py = y[i], qx = x[(i + 1) % n], qy = y[(i + 1) % n];
        double len = md_hypot(qx - px, qy - py), dx, dy, s0, h;
        if (len <= 0.0) continue;
        dx = (qx - px) / len;
        dy = (qy - py) / len;
        s0 = px * dx + py * dy;          /* p's position along the edge from the foot */
        h = fabs(px * dy - py * dx);     /* the centre's distance from the edge's line */
        area += 0.5 * h * len;
        if (h > 0.0) moment += fan_moment(h, s0, s0 + len);
    }
    /* a sliver (collinear points) is a segment */
    if (area <= 1e-9 * span * span) return 0.25 * span;
    return moment / area;
}

/* Generalised direction j of the wrench on a body with lever arm r:
 * linear part and angular part. */
static void direction(const impulse_patch *pt, magdyn_vec3 r, int j, magdyn_vec3 *lin, magdyn_vec3 *ang)
{
    magdyn_vec3 t = j == 0 ? pt->t1 : pt->t2;
    if (j == 2) {
        *lin = magdyn_v3(0, 0, 0);
        *ang = pt->n;
        return;
    }
    *lin = t;
    *ang = magdyn_vec3_cross(r, t);
}

/* The effective-mass matrix K of the wrench's m = 2 or 3 directions. */
static void effective_mass(const impulse_patch *pt, const impulse_body *sc, int m, double k[3][3])
{
    int i, j, s;
    for (i = 0; i < m; i++)
        for (j = 0; j < m; j++) {
            double sum = 0.0;
            for (s = 0; s < 2; s++) {
                const impulse_body *b = &sc[s ? pt->b : pt->a];
                magdyn_vec3 r = s ? pt->rb : pt->ra, li, ai, lj, aj;
                if (!(b->im > 0.0)) continue;
                direction(pt, r, i, &li, &ai);
                direction(pt, r, j, &lj, &aj);
                sum += b->im * magdyn_vec3_dot(li, lj) + magdyn_vec3_dot(ai, magdyn_mat3_mulv(b->ii, aj));
            }
            k[i][j] = sum;
        }
}

int impulse_invert_sym(double k[3][3], int m, double ik[3][3])
{
    double det;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) ik[i][j] = 0.0;
    if (m == 2) {
        det = k[0][0] * k[1][1] - k[0][1] * k[1][0];
        if (!(det > 1e-12 * (k[0][0] * k[1][1]))) return 0;
        ik[0][0] = k[1][1] / det;
        ik[1][1] = k[0][0] / det;
        ik[0][1] = ik[1][0] = -k[0][1] / det;
        return 1;
    }
    ik[0][0] = k[1][1] * k[2][2] - k[1][2] * k[2][1];
    ik[0][1] = k[0][2] * k[2][1] - k[0][1] * k[2][2];
    ik[0][2] = k[0][1] * k[1][2] - k[0][2] * k[1][1];
    ik[1][1] = k[0][0] * k[2][2] - k[0][2] * k[2][0];
    ik[1][2] = k[0][2] * k[1][0] - k[0][0] * k[1][2];
    ik[2][2] = k[0][0] * k[1][1] - k[0][1] * k[1][0];
    det = k[0][0] * ik[0][0] + k[0][1] * ik[0][1] + k[0][2] * ik[0][2];
    if (!(det > 1e-12 * k[0][0] * k[1][1] * k[2][2])) return 0;
    for (i = 0; i < 3; i++)
        for (j = i; j < 3; j++) ik[j][i] = ik[i][j] = ik[i][j] / det;
    return 1;
}

void impulse_patch_init(impulse_patch *pt, const magdyn_body *bs, const impulse_body *sc,
                        const magdyn_contact *ci, const impulse_row *rows, int first, int count)
{
    magdyn_vec3 centre = magdyn_v3(0, 0, 0);
    double x[MAGDYN_MAX_CONTACTS], y[MAGDYN_MAX_CONTACTS], k[3][3];
    int i;
    pt->a = ci->a;
    pt->b = ci->b;
    pt->first = first;
    pt->count = count;
    pt->n = rows[first].n;
    pt->t1 = rows[first].t1;
    pt->t2 = rows[first].t2;
    for (i = 0; i < count; i++) centre = magdyn_vec3_add(centre, ci->manifold.point[i]);
    centre = magdyn_vec3_scale(centre, 1.0 / count);
    pt->ra = magdyn_vec3_sub(centre, bs[pt->a].position);
    pt->rb = magdyn_vec3_sub(centre, bs[pt->b].position);
    for (i = 0; i < count; i++) planar(ci->manifold.point[i], centre, pt->t1, pt->t2, &x[i], &y[i]);
    pt->reach = twist_reach(x, y, count);
    pt->twist = pt->reach > 0.0;
    pt->inv_reach2 = pt->twist ? 1.0 / (pt->reach * pt->reach) : 0.0;
    pt->l[0] = pt->l[1] = pt->l[2] = 0.0;
    pt->ima = sc[pt->a].im;
    pt->imb = sc[pt->b].im;
    for (i = 0; i < 3; i++) {
        magdyn_vec3 lin;
        direction(pt, pt->ra, i, &lin, &pt->anga[i]);
        direction(pt, pt->rb, i, &lin, &pt->angb[i]);
        pt->wa[i] = magdyn_mat3_mulv(sc[pt->a].ii, pt->anga[i]);
        pt->wb[i] = magdyn_mat3_mulv(sc[pt->b].ii, pt->angb[i]);
    }
    effective_mass(pt, sc, pt->twist ? 3 : 2, k);
    if (!impulse_invert_sym(k, pt->twist ? 3 : 2, pt->ik) && pt->twist) {
        pt->twist = 0;
        pt->inv_reach2 = 0.0;
        impulse_invert_sym(k, 2, pt->ik);
    }
}

/* Apply the wrench increment d (t1, t2, twist) on a, and its opposite on b. */
static void apply_wrench(const impulse_patch *pt, magdyn_body *bs, const double d[3])
{
    magdyn_vec3 p = magdyn_vec3_add(magdyn_vec3_scale(pt->t1, d[0]), magdyn_vec3_scale(pt->t2, d[1]));
    magdyn_body *a = &bs[pt->a], *b = &bs[pt->b];
    int j;
    if (pt->ima > 0.0) {
        a->velocity = magdyn_vec3_madd(a->velocity, pt->ima, p);
        for (j = 0; j < 3; j++) a->omega = magdyn_vec3_madd(a->omega, d[j], pt->wa[j]);
    }
    if (pt->imb > 0.0) {
        b->velocity = magdyn_vec3_madd(b->velocity, -pt->imb, p);
        for (j = 0; j < 3; j++) b->omega = magdyn_vec3_madd(b->omega, -d[j], pt->wb[j]);
    }
}

void impulse_patch_push(impulse_patch *pt, magdyn_body *bs, const double d[3])
{
    int j;
    apply_wrench(pt, bs, d);
    for (j = 0; j < 3; j++) pt->l[j] += d[j];
}

void impulse_patch_apply(const impulse_patch *pt, magdyn_body *bs)
{
    apply_wrench(pt, bs, pt->l);
}

double impulse_patch_limit(const impulse_patch *pt, const impulse_row *rows, double mu)
{
    double load = 0.0;
    int i;
    for (i = 0; i < pt->count; i++) load += rows[pt->first + i].ln;
    return mu * load;
}

/* Scale l into the limit surface of the normal load N: the ellipsoid
 * l0^2 + l1^2 + (l2 / r_e)^2 <= (mu N)^2, compared squared, so that only
 * a wrench beyond it costs a division. */
static void project(const impulse_patch *pt, const impulse_row *rows, double mu, double l[3])
{
    double lim = impulse_patch_limit(pt, rows, mu), q;
    if (!(lim > 0.0)) {
        l[0] = l[1] = l[2] = 0.0;
        return;
    }
    if (!pt->twist) l[2] = 0.0;
    q = l[0] * l[0] + l[1] * l[1];
    /* (skipped at l2 = 0: 1 / r_e^2 overflows for r_e below 1e-154 m) */
    if (l[2] != 0.0) q += l[2] * l[2] * pt->inv_reach2;
    if (q > lim * lim) {
        double f = lim / sqrt(q);
        l[0] *= f;
        l[1] *= f;
        l[2] *= f;
    }
}

/* Move the accumulated wrench to l, applying the difference. */
static void move_to(impulse_patch *pt, magdyn_body *bs, const double l[3])
{
    double d[3];
    int j;
    for (j = 0; j < 3; j++) d[j] = l[j] - pt->l[j];
    if (d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0) return;
    apply_wrench(pt, bs, d);
    for (j = 0; j < 3; j++) pt->l[j] = l[j];
}

void impulse_patch_warm(impulse_patch *pt, magdyn_body *bs, const magdyn_contact *ci,
                        const impulse_row *rows, double mu)
{
    magdyn_vec3 sum = magdyn_v3(0, 0, 0), centre = magdyn_vec3_add(bs[pt->a].position, pt->ra);
    double l[3] = {0.0, 0.0, 0.0};
    int i;
    for (i = 0; i < pt->count; i++) {
        magdyn_vec3 p = ci->impulse[i], r = magdyn_vec3_sub(ci->manifold.point[i], centre);
        r = magdyn_vec3_madd(r, -magdyn_vec3_dot(r, pt->n), pt->n);
        sum = magdyn_vec3_add(sum, p);
        l[2] += magdyn_vec3_dot(pt->n, magdyn_vec3_cross(r, p));
    }
    l[0] = magdyn_vec3_dot(sum, pt->t1);
    l[1] = magdyn_vec3_dot(sum, pt->t2);
    if (!pt->twist) l[2] = 0.0;
    project(pt, rows, mu, l);
    move_to(pt, bs, l);
}

void impulse_patch_relax(impulse_patch *pt, magdyn_body *bs, const impulse_row *rows, double mu)
{
    const magdyn_body *a = &bs[pt->a], *b = &bs[pt->b];
    magdyn_vec3 dv = magdyn_vec3_sub(a->velocity, b->velocity);
    double g[3], l[3];
    int i, m = pt->twist ? 3 : 2;
    g[2] = 0.0;
    for (i = 0; i < m; i++)
        g[i] = (i < 2 ? magdyn_vec3_dot(i ? pt->t2 : pt->t1, dv) : 0.0)
             + magdyn_vec3_dot(pt->anga[i], a->omega) - magdyn_vec3_dot(pt->angb[i], b->omega);
    for (i = 0; i < 3; i++)
        l[i] = pt->l[i] - (pt->ik[i][0] * g[0] + pt->ik[i][1] * g[1] + pt->ik[i][2] * g[2]);
    project(pt, rows, mu, l);
    move_to(pt, bs, l);
}

void impulse_patch_write(const impulse_patch *pt, const magdyn_contact *ci, magdyn_vec3 *out)
{
    magdyn_vec3 share = magdyn_vec3_scale(
        magdyn_vec3_add(magdyn_vec3_scale(pt->t1, pt->l[0]), magdyn_vec3_scale(pt->t2, pt->l[1])),
        1.0 / pt->count);
    magdyn_vec3 centre = magdyn_v3(0, 0, 0), r[MAGDYN_MAX_CONTACTS];
    double s = 0.0;
    int i;
    for (i = 0; i < pt->count; i++) centre = magdyn_vec3_add(centre, ci->manifold.point[i]);
    centre = magdyn_vec3_scale(centre, 1.0 / pt->count);
    for (i = 0; i < pt->count; i++) {
        r[i] = magdyn_vec3_sub(ci->manifold.point[i], centre);
        r[i] = magdyn_vec3_madd(r[i], -magdyn_vec3_dot(r[i], pt->n), pt->n);
        s += magdyn_vec3_dot(r[i], r[i]);
    }
    /* the twist as forces along n x r_k: they sum to zero and their moment
       about the centre is l[2] n */
    for (i = 0; i < pt->count; i++) {
        out[i] = magdyn_vec3_add(out[i], share);
        if (pt->twist && s > 0.0)
            out[i] = magdyn_vec3_madd(out[i], pt->l[2] / s, magdyn_vec3_cross(pt->n, r[i]));
    }
}
