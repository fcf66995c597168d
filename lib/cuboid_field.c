/*
 * cuboid_field.c - exact B of a uniformly magnetised box.
 *
 * Surface-charge model (Yang, Supercond. Sci. Technol. 3 (1990) 591;
 * Engel-Herbert & Hesjedal, J. Appl. Phys. 97 (2005) 074504): M = J/mu0
 * puts charges sigma = M.n on the faces, H is the field of six charged
 * rectangles, and B = mu0 H + J inside.  With X, Y, Z the displacement of
 * the field point from a corner (x -+ a, ...) and eps = sx sy sz the
 * corner's sign (s = +1 for the x + a corner), summed over the 8 corners:
 *
 *   4 pi B_x = -J_x S[atan(YZ/XR)] + J_y S[ln(Z+R)] + J_z S[ln(Y+R)]
 *   4 pi B_y =  J_x S[ln(Z+R)] - J_y S[atan(ZX/YR)] + J_z S[ln(X+R)]
 *   4 pi B_z =  J_x S[ln(Y+R)] + J_y S[ln(X+R)] - J_z S[atan(XY/ZR)]
 *
 * where S[f] = sum eps f.  How it is kept exact and cheap:
 *  - the point is reflected into the first octant (B(r; J) = P B(Pr; PJ)
 *    for a reflection P), so X = x + a > 0 always and ln(X+R) only needs the
 *    rationalised form ln((Y^2+Z^2)/(R-X)) for X < 0, which never cancels;
 *  - coordinates are divided by a power of two near the half diagonal
 *    (exact), so B is computed for a box of size ~1;
 *  - each S[ln] is one log of a ratio of products, and each pair of atans
 *    of a face is the solid angle Omega of that face, the argument of a
 *    product of complex numbers (two atan2 instead of eight atan);
 *  - far away (r > FAR_RATIO half diagonals) the closed form cancels, and the
 *    multipole series with the box's second moments takes over;
 *  - so it does across a very thin box, whose field is then extrapolated
 *    from two thicker ones (field_close).
 */
#include <math.h>
#include <string.h>
#include "detmath.h"
#include "detmath_batch.h"
#include <magdyn/dipole.h>
#include "cuboid_thin.h"
#include "cuboid_field.h"

/* Beyond this many half diagonals the expansion is used; there its error
 * (~ 0.3 (L/r)^4) and the closed form's cancellation (~ 5e-17 (r/L)^3)
 * are both below 1e-9 relative. */
#define FAR_RATIO 150.0

/* The elementary-function arguments of the closed form at one point (in
 * the first octant), and what is needed to finish it: each charged face
 * pair's S[ln] as ln of a ratio, and the solid angle of each charged face
 * (index 2 axis + side) as the argument of a complex product. */
typedef struct {
    magdyn_vec3 j;                  /* polarization, reflected into the octant */
    double ratio[3];                /* S[ln(X+R)], S[ln(Y+R)], S[ln(Z+R)] = ln ratio[] (1: unused) */
    double im[6], re[6];            /* solid angle 2 a + side: arg(re + i im), fixed up (wrap) */
    double on_plane[6];             /* the solid angle itself, on the face's plane (h = 0) */
    double sign[6];                 /* its sign in its axis's sum */
    unsigned char kind[6];          /* 0: not charged, 1: on_plane, 2: arg(re + i im) */
    unsigned char wrap[6];          /* arg < 0 means arg + 2 pi (inside, nearer than a half side) */
    unsigned char inside;           /* within the box: B = mu0 H + J */
} octant_args;

/*
 * Solid angle [sr] of the rectangle [xl, xh] x [yl, yh] (in coordinates
 * relative to the field point) in a plane at distance h >= 0: the sum of
 * +-atan(XY/(hR)) over its corners, the argument of a complex product
 * (set up here, taken in a batch, finished by solid_angle_finish).  Omega
 * lies in [0, 2 pi); it exceeds pi only above the inside of the
 * rectangle, closer than its smaller half side, where Omega >= pi/6
 * leaves no doubt about the branch.  rc[i][j] is the distance to the
 * corner ({xh, xl}[i], {yh, yl}[j], h), known to the caller.
 */
static void solid_angle_args(octant_args *o, int k, double sign, double xl, double xh, double yl,
                             double yh, double h, const double rc[2][2])
{
    double re = 1.0, im = 0.0;
    double xs[2] = {xh, xl}, ys[2] = {yh, yl};
    int i, j, inside = xl < 0.0 && xh > 0.0 && yl < 0.0 && yh > 0.0;
    o->sign[k] = sign;
    o->re[k] = 1.0;
    o->im[k] = 0.0;
    if (h == 0.0) {
        /* the limit from the outer side of the face plane */
        double wx = (xl < 0.0 && xh > 0.0) ? 1.0 : ((xl == 0.0 || xh == 0.0) ? 0.5 : 0.0);
        double wy = (yl < 0.0 && yh > 0.0) ? 1.0 : ((yl == 0.0 || yh == 0.0) ? 0.5 : 0.0);
        o->kind[k] = 1;
        o->on_plane[k] = 2.0 * MAGDYN_PI * wx * wy;
        return;
    }
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            double x = xs[i], y = ys[j];
            double v = h * rc[i][j], u = x * y, t;   /* rc: distance to (x, y, h) */
            if (i != j) u = -u;              /* conjugate: the term's sign is - */
            t = re * v - im * u;
            im = re * u + im * v;
            re = t;
        }
    o->kind[k] = 2;
    o->re[k] = re;
    o->im[k] = im;
    o->wrap[k] = (unsigned char)(inside && h < fmin(xh - xl, yh - yl) * 0.5);
}

/* The solid angle k from the argument arg of its complex product. */
static double solid_angle_finish(const octant_args *o, int k, double arg)
{
    if (o->kind[k] == 1) return o->on_plane[k];
    if (arg < 0.0) {
        if (arg < -0.5 * MAGDYN_PI || o->wrap[k]) arg += 2.0 * MAGDYN_PI;
        else arg = 0.0;                      /* roundoff below a tiny angle */
    }
    return arg;
}

/* ln(X + R) for one corner as a factor g (S[ln] = ln(prod g^eps)), without
 * cancellation; the divergent part on an edge or corner is dropped. */
static double log_factor(double x, double p2, double r)
{
    if (x >= 0.0) return (x + r > 0.0) ? x + r : 1.0;
    return (p2 > 0.0) ? p2 / (r - x) : 1.0 / (r - x);
}

/* The closed form's arguments in the first octant (x, y, z >= 0), box of
 * size ~1. */
static void octant_args_of(double a, double b, double c, magdyn_vec3 j, double x, double y, double z,
                           octant_args *o)
{
    double X[2] = {x + a, x - a}, Y[2] = {y + b, y - b}, Z[2] = {z + c, z - c};
    double lx[2] = {1.0, 1.0}, ly[2] = {1.0, 1.0}, lz[2] = {1.0, 1.0};  /* [eps>0], [eps<0] */
    int need_lx = j.y != 0.0 || j.z != 0.0;
    int need_ly = j.x != 0.0 || j.z != 0.0;
    int need_lz = j.x != 0.0 || j.y != 0.0;
    int ix, iy, iz;
    double R[2][2][2];
    o->j = j;
    o->inside = x < a && y < b && z < c;
    for (ix = 0; ix < 6; ix++) {
        o->im[ix] = 0.0;
        o->re[ix] = 1.0;
    }
    for (ix = 0; ix < 2; ix++)
        for (iy = 0; iy < 2; iy++)
            for (iz = 0; iz < 2; iz++)
                R[ix][iy][iz] = sqrt(X[ix] * X[ix] + Y[iy] * Y[iy] + Z[iz] * Z[iz]);
    if (need_lx || need_ly || need_lz) {
        for (ix = 0; ix < 2; ix++)
            for (iy = 0; iy < 2; iy++)
                for (iz = 0; iz < 2; iz++) {
                    double xx = X[ix] * X[ix], yy = Y[iy] * Y[iy], zz = Z[iz] * Z[iz];
                    double r = R[ix][iy][iz];
                    int e = (ix + iy + iz) & 1;   /* 0: eps = +1, 1: eps = -1 */
                    if (need_lx) lx[e] *= log_factor(X[ix], yy + zz, r);
                    if (need_ly) ly[e] *= log_factor(Y[iy], xx + zz, r);
                    if (need_lz) lz[e] *= log_factor(Z[iz], xx + yy, r);
                }
    }
    o->ratio[0] = need_lx ? lx[0] / lx[1] : 1.0;
    o->ratio[1] = need_ly ? ly[0] / ly[1] : 1.0;
    o->ratio[2] = need_lz ? lz[0] / lz[1] : 1.0;
    /* S[atan(XY/ZR)] = Omega(z + c) - Omega(z - c): the two charged z faces
     * seen from the point (solid angles signed by the side).  The face's
     * corners in its own order (high, low) are the box corners (1-i, 1-j). */
    for (iz = 0; iz < 2; iz++) {
        double rz[2][2], rx[2][2], ry[2][2];
        int p, q;
        for (p = 0; p < 2; p++)
            for (q = 0; q < 2; q++) {
                rz[p][q] = R[1 - p][1 - q][iz];   /* z face iz: (x, y) corners */
                rx[p][q] = R[iz][1 - p][1 - q];   /* x face iz: (y, z) corners */
                ry[p][q] = R[1 - q][iz][1 - p];   /* y face iz: (z, x) corners */
            }
        o->kind[iz] = o->kind[2 + iz] = o->kind[4 + iz] = 0;
        if (j.x != 0.0)
            solid_angle_args(o, iz, iz ? -copysign(1.0, X[1]) : 1.0, -Y[0], -Y[1], -Z[0], -Z[1],
                             fabs(X[iz]), (const double (*)[2])rx);
        if (j.y != 0.0)
            solid_angle_args(o, 2 + iz, iz ? -copysign(1.0, Y[1]) : 1.0, -Z[0], -Z[1], -X[0], -X[1],
                             fabs(Y[iz]), (const double (*)[2])ry);
        if (j.z != 0.0)
            solid_angle_args(o, 4 + iz, iz ? -copysign(1.0, Z[1]) : 1.0, -X[0], -X[1], -Y[0], -Y[1],
                             fabs(Z[iz]), (const double (*)[2])rz);
    }
}

/* B from the arguments' logs sl[3] and arguments arg[6]. */
static magdyn_vec3 octant_finish(const octant_args *o, const double sl[3], const double arg[6])
{
    double sax = 0.0, say = 0.0, saz = 0.0;
    magdyn_vec3 j = o->j, bf;
    int iz;
    for (iz = 0; iz < 2; iz++) {
        if (o->kind[4 + iz]) saz += o->sign[4 + iz] * solid_angle_finish(o, 4 + iz, arg[4 + iz]);
        if (o->kind[iz]) sax += o->sign[iz] * solid_angle_finish(o, iz, arg[iz]);
        if (o->kind[2 + iz]) say += o->sign[2 + iz] * solid_angle_finish(o, 2 + iz, arg[2 + iz]);
    }
    bf.x = -j.x * sax + j.y * sl[2] + j.z * sl[1];
    bf.y = j.x * sl[2] - j.y * say + j.z * sl[0];
    bf.z = j.x * sl[1] + j.y * sl[0] - j.z * saz;
    bf = magdyn_vec3_scale(bf, 1.0 / (4.0 * MAGDYN_PI));
    if (o->inside) bf = magdyn_vec3_add(bf, j);
    return bf;
}

/* The closed form at n points (first octant, box of size ~1, polarization
 * j[i] each), the logs and atan2s of up to FIELD_BATCH points at once. */
#define FIELD_BATCH 16
static void octant_fields(double a, double b, double c, const magdyn_vec3 *j, const magdyn_vec3 *p, int n,
                          magdyn_vec3 *out)
{
    octant_args o[FIELD_BATCH];
    double ratio[FIELD_BATCH][3], sl[FIELD_BATCH][3], im[FIELD_BATCH][6], re[FIELD_BATCH][6],
           arg[FIELD_BATCH][6];
    int k, i, m;
    for (k = 0; k < n; k += FIELD_BATCH) {
        m = n - k < FIELD_BATCH ? n - k : FIELD_BATCH;
        for (i = 0; i < m; i++) {
            octant_args_of(a, b, c, j[k + i], p[k + i].x, p[k + i].y, p[k + i].z, &o[i]);
            memcpy(ratio[i], o[i].ratio, sizeof ratio[i]);
            memcpy(im[i], o[i].im, sizeof im[i]);
            memcpy(re[i], o[i].re, sizeof re[i]);
        }
        md_log_batch(&ratio[0][0], &sl[0][0], 3 * m);
        md_atan2_batch(&im[0][0], &re[0][0], &arg[0][0], 6 * m);
        for (i = 0; i < m; i++) out[k + i] = octant_finish(&o[i], sl[i], arg[i]);
    }
}

static magdyn_vec3 field_octant(double a, double b, double c, magdyn_vec3 j, double x, double y, double z)
{
    magdyn_vec3 p = magdyn_v3(x, y, z), out;
    octant_fields(a, b, c, &j, &p, 1, &out);
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
    octant_fields(h->x, h->y, h->z, q->j, q->p, q->n, out);
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
