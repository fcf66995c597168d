/*
 * cuboid_field.c - exact B of a uniformly magnetised box, at one point
 * (magdyn_cuboid_field) or many (mdc_cuboid_field_n).
 *
 * The closed form of the surface-charge model is cuboid_octant.c's; how
 * it is kept exact and cheap here:
 *  - the point is reflected into the first octant (B(r; J) = P B(Pr; PJ)
 *    for a reflection P), where the closed form never cancels;
 *  - coordinates are divided by a power of two near the half diagonal
 *    (exact), so B is computed for a box of size ~1;
 *  - the points of a batch take their logarithms and arctangents together
 *    (cuboid_octant.c, detmath_batch.h);
 *  - far away (r > FAR_RATIO half diagonals) the closed form cancels, and the
 *    multipole series with the box's second moments takes over;
 *  - so it does across a very thin box, whose field is then extrapolated
 *    from two thicker ones (field_close).
 */
#include <math.h>
#include <magdyn/dipole.h>
#include "cuboid_thin.h"
#include "cuboid_field.h"
#include "cuboid_octant.h"

/* Beyond this many half diagonals the expansion is used; there its error
 * (~ 0.3 (L/r)^4) and the closed form's cancellation (~ 5e-17 (r/L)^3)
 * are both below 1e-9 relative. */
#define FAR_RATIO 150.0

static magdyn_vec3 field_octant(double a, double b, double c, magdyn_vec3 j, double x, double y, double z)
{
    magdyn_vec3 p = magdyn_v3(x, y, z), out;
    mdc_octant_fields(a, b, c, &j, &p, 1, &out);
    return out;
}

/*
 * Far field: B = (V/4pi) grad (J.grad) [1/r + (1/6) sum a_i^2 d_i^2 (1/r)],
 * the expansion of the box's Newtonian potential to second moments
 * (<x_i^2> = a_i^2/3); the next term is O((L/r)^4) relative.
 */
static magdyn_vec3 field_far(double a, double b, double c, magdyn_vec3 j, magdyn_vec3 r)
{
    double x[3] = {r.x, r.y, r.z}, h2[3] = {a * a, b * b, c * c}, jj[3] = {j.x, j.y, j.z};
    double r2 = r.x * r.x + r.y * r.y + r.z * r.z, rr = sqrt(r2);
    double inv5 = 1.0 / (r2 * r2 * rr), inv9 = inv5 / (r2 * r2);
    double A = h2[0] + h2[1] + h2[2];
    double S = h2[0] * x[0] * x[0] + h2[1] * x[1] * x[1] + h2[2] * x[2] * x[2];
    double v = 8.0 * a * b * c, out[3];
    int l, k;
    for (l = 0; l < 3; l++) {
        double s = 0.0;
        for (k = 0; k < 3; k++) {
            double d = (l == k) ? 1.0 : 0.0, xx = x[l] * x[k];
            double t2 = (3.0 * xx - r2 * d) * inv5;
            double t4 = (105.0 * xx * S - 15.0 * r2 * (d * S + (2.0 * h2[l] + 2.0 * h2[k] + A) * xx)
                         + 3.0 * r2 * r2 * d * (A + 2.0 * h2[l])) * inv9;
            s += jj[k] * (t2 + t4 / 6.0);
        }
        out[l] = s * v / (4.0 * MAGDYN_PI);
    }
    return magdyn_v3(out[0], out[1], out[2]);
}

/* The closed form anywhere, by reflection into the first octant:
 * B(r; J) = P B(P r; P J). */
static magdyn_vec3 field_near(const double h[3], magdyn_vec3 polarization, magdyn_vec3 r)
{
    double sx = r.x < 0.0 ? -1.0 : 1.0, sy = r.y < 0.0 ? -1.0 : 1.0, sz = r.z < 0.0 ? -1.0 : 1.0;
    magdyn_vec3 j = magdyn_v3(sx * polarization.x, sy * polarization.y, sz * polarization.z);
    magdyn_vec3 b = field_octant(h[0], h[1], h[2], j, fabs(r.x), fabs(r.y), fabs(r.z));
    return magdyn_v3(sx * b.x, sy * b.y, sz * b.z);
}

/*
 * A box thinner than MAGDYN_CI_THIN_HALF (in units of the rescaled box,
 * half diagonal ~1) along an axis: the closed form is a difference of
 * terms at x + a and x - a and loses ~1e-16 / a of relative accuracy (all
 * of it at a ~ 1e-16).  At fixed J the field is odd in a, so it is
 * extrapolated from a1 = MAGDYN_CI_THIN_HALF and 2 a1
 * (magdyn_ci_odd_extrapolate), for points farther than MAGDYN_CI_THIN_GAP
 * from the box.  Both errors stay below ~1e-11 (checked against 60-digit
 * arithmetic in test_cuboid_field).
 */
static magdyn_vec3 field_close(double h[3], magdyn_vec3 polarization, magdyn_vec3 r, int axis)
{
    double p[3] = {fabs(r.x), fabs(r.y), fabs(r.z)}, g2 = 0.0, a, a1 = MAGDYN_CI_THIN_HALF;
    magdyn_vec3 b1, b2;
    int i;
    while (axis < 3 && !(h[axis] < a1)) axis++;
    if (axis == 3) return field_near(h, polarization, r);     /* the usual box: no more work */
    for (i = 0; i < 3; i++) {
        double g = p[i] - h[i];
        if (g > 0.0) g2 += g * g;
    }
    if (g2 < MAGDYN_CI_THIN_GAP * MAGDYN_CI_THIN_GAP) return field_near(h, polarization, r);
    a = h[axis];
    h[axis] = a1;
    b1 = field_close(h, polarization, r, axis + 1);
    h[axis] = 2.0 * a1;
    b2 = field_close(h, polarization, r, axis + 1);
    h[axis] = a;
    return magdyn_ci_odd_extrapolate(b1, b2, a / a1);
}

/*
 * Beyond DIPOLE_RATIO half extents the box's field is its dipole's to
 * relative 1e-100: (V / 4 pi |r|^3) (3 (J.u) u - J), u = r/|r|, formed
 * from ratios, so that it underflows gracefully where the multipole
 * series' powers of r would overflow (from ~1e80 half diagonals on).
 */
#define DIPOLE_RATIO 1e50
#define MAX_ASPECT 1e80
#define MAX_POLARIZATION 1e300

static magdyn_vec3 field_dipole(magdyn_vec3 half, magdyn_vec3 j, magdyn_vec3 r, double rmax)
{
    magdyn_vec3 u = magdyn_vec3_scale(r, 1.0 / rmax);   /* components <= 1 */
    double n = magdyn_vec3_norm(u), k;
    u = magdyn_vec3_scale(u, 1.0 / n);
    /* V / (4 pi |r|^3) = 2 / pi (hx/|r|) (hy/|r|) (hz/|r|) */
    k = (2.0 / MAGDYN_PI) * (half.x / rmax / n) * (half.y / rmax / n) * (half.z / rmax / n);
    return magdyn_vec3_scale(magdyn_vec3_sub(magdyn_vec3_scale(u, 3.0 * magdyn_vec3_dot(j, u)), j), k);
}

static double max3(magdyn_vec3 v) { return fmax(fmax(fabs(v.x), fabs(v.y)), fabs(v.z)); }

/* Points bound for the closed form go in batches of this many. */
#define FIELD_BATCH 16

/* The points of a batch bound for the closed form: reflected into the
 * first octant, with their polarizations, signs and places in the output. */
typedef struct {
    magdyn_vec3 j[FIELD_BATCH], p[FIELD_BATCH], sign[FIELD_BATCH];
    int index[FIELD_BATCH], n;
} octant_batch;

static void batch_flush(const magdyn_vec3 *h, octant_batch *q, magdyn_vec3 *b)
{
    magdyn_vec3 out[FIELD_BATCH];
    int k;
    mdc_octant_fields(h->x, h->y, h->z, q->j, q->p, q->n, out);
    for (k = 0; k < q->n; k++) {
        magdyn_vec3 sg = q->sign[k];
        b[q->index[k]] = magdyn_v3(sg.x * out[k].x, sg.y * out[k].y, sg.z * out[k].z);
    }
    q->n = 0;
}

/* The closed form anywhere, by reflection into the first octant,
 * B(r; J) = P B(P r; P J), as point k of the batch. */
static void batch_add(const magdyn_vec3 *h, octant_batch *q, magdyn_vec3 polarization, magdyn_vec3 r, int index,
                      magdyn_vec3 *b)
{
    magdyn_vec3 sg = magdyn_v3(r.x < 0.0 ? -1.0 : 1.0, r.y < 0.0 ? -1.0 : 1.0, r.z < 0.0 ? -1.0 : 1.0);
    q->j[q->n] = magdyn_v3(sg.x * polarization.x, sg.y * polarization.y, sg.z * polarization.z);
    q->p[q->n] = magdyn_v3(fabs(r.x), fabs(r.y), fabs(r.z));
    q->sign[q->n] = sg;
    q->index[q->n++] = index;
    if (q->n == FIELD_BATCH) batch_flush(h, q, b);
}

void mdc_cuboid_field_n(magdyn_vec3 half, magdyn_vec3 polarization, const magdyn_vec3 *r, int n,
                        magdyn_vec3 *b)
{
    double d2, scale, hmax, h[3];
    int e, e0 = 0, i, thin;
    octant_batch q;
    magdyn_vec3 hs;
    /* the range the closed form and the series carry: no box more than
     * 1e80 times longer than thick, no polarization beyond 1e300 T */
    hmax = max3(half);
    if (!magdyn_vec3_isfinite(half) || !(half.x > 0.0 && half.y > 0.0 && half.z > 0.0)
        || !magdyn_vec3_isfinite(polarization) || !(fmin(fmin(half.x, half.y), half.z) * MAX_ASPECT >= hmax)
        || !(max3(polarization) <= MAX_POLARIZATION)) {
        for (i = 0; i < n; i++) b[i] = magdyn_v3(NAN, NAN, NAN);
        return;
    }
    /* boxes so large or small that |half|^2 leaves the range: first an
     * exact power-of-two scaling by the largest half extent */
    hs = half;
    if (!(hmax > 1e-150 && hmax < 1e150)) {
        frexp(hmax, &e0);
        hs = magdyn_v3(ldexp(half.x, -e0), ldexp(half.y, -e0), ldexp(half.z, -e0));
    }
    /* exact rescaling by a power of two: B depends on shape only */
    d2 = magdyn_vec3_norm2(hs);
    frexp(sqrt(d2), &e);
    scale = ldexp(1.0, -e);
    hs = magdyn_vec3_scale(hs, scale);
    d2 *= scale * scale;
    thin = hs.x < MAGDYN_CI_THIN_HALF || hs.y < MAGDYN_CI_THIN_HALF || hs.z < MAGDYN_CI_THIN_HALF;
    q.n = 0;
    for (i = 0; i < n; i++) {
        magdyn_vec3 ri = r[i];
        double rmax;
        if (!magdyn_vec3_isfinite(ri)) {
            b[i] = magdyn_v3(NAN, NAN, NAN);
            continue;
        }
        rmax = max3(ri);
        if (rmax > DIPOLE_RATIO * hmax) {
            b[i] = field_dipole(half, polarization, ri, rmax);
            continue;
        }
        if (e0) ri = magdyn_v3(ldexp(ri.x, -e0), ldexp(ri.y, -e0), ldexp(ri.z, -e0));
        ri = magdyn_vec3_scale(ri, scale);
        if (magdyn_vec3_norm2(ri) > FAR_RATIO * FAR_RATIO * d2) {
            b[i] = field_far(hs.x, hs.y, hs.z, polarization, ri);
        } else if (thin) {
            h[0] = hs.x; h[1] = hs.y; h[2] = hs.z;
            b[i] = field_close(h, polarization, ri, 0);
        } else {
            batch_add(&hs, &q, polarization, ri, i, b);
        }
    }
    if (q.n) batch_flush(&hs, &q, b);
}

magdyn_vec3 magdyn_cuboid_field(magdyn_vec3 half, magdyn_vec3 polarization, magdyn_vec3 r)
{
    magdyn_vec3 b;
    mdc_cuboid_field_n(half, polarization, &r, 1, &b);
    return b;
}

magdyn_vec3 magdyn_cuboid_field_at(const magdyn_cuboid *c, magdyn_vec3 p)
{
    magdyn_vec3 b;
    if (!c || !magdyn_quat_isfinite(c->orientation) || !magdyn_vec3_isfinite(c->center))
        return magdyn_v3(NAN, NAN, NAN);
    b = magdyn_cuboid_field(c->half, c->polarization,
                            magdyn_quat_rotate_inv(c->orientation, magdyn_vec3_sub(p, c->center)));
    return magdyn_quat_rotate(c->orientation, b);
}

magdyn_vec3 magdyn_cuboid_moment(const magdyn_cuboid *c)
{
    double v;
    if (!c) return magdyn_v3(NAN, NAN, NAN);
    v = 8.0 * c->half.x * c->half.y * c->half.z;
    return magdyn_quat_rotate(c->orientation, magdyn_vec3_scale(c->polarization, v / MAGDYN_MU0));
}
