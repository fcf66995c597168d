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
#include "detmath.h"
#include <magdyn/dipole.h>
#include "cuboid_thin.h"

/* Beyond this many half diagonals the expansion is used; there its error
 * (~ 0.3 (L/r)^4) and the closed form's cancellation (~ 5e-17 (r/L)^3)
 * are both below 1e-9 relative. */
#define FAR_RATIO 150.0

/*
 * Solid angle [sr] of the rectangle [xl, xh] x [yl, yh] (in coordinates
 * relative to the field point) in a plane at distance h >= 0: the sum of
 * +-atan(XY/(hR)) over its corners, from the argument of a complex product.
 * Omega lies in [0, 2 pi); it exceeds pi only above the inside of the
 * rectangle, closer than its smaller half side, where Omega >= pi/6 leaves
 * no doubt about the branch.  rc[i][j] is the distance to the corner
 * ({xh, xl}[i], {yh, yl}[j], h), known to the caller.
 */
static double solid_angle(double xl, double xh, double yl, double yh, double h,
                          const double rc[2][2])
{
    double re = 1.0, im = 0.0, arg;
    double xs[2] = {xh, xl}, ys[2] = {yh, yl};
    int i, j, inside;
    if (h == 0.0) {
        /* the limit from the outer side of the face plane */
        double wx = (xl < 0.0 && xh > 0.0) ? 1.0 : ((xl == 0.0 || xh == 0.0) ? 0.5 : 0.0);
        double wy = (yl < 0.0 && yh > 0.0) ? 1.0 : ((yl == 0.0 || yh == 0.0) ? 0.5 : 0.0);
        return 2.0 * MAGDYN_PI * wx * wy;
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
    arg = md_atan2(im, re);
    inside = xl < 0.0 && xh > 0.0 && yl < 0.0 && yh > 0.0;
    if (arg < 0.0) {
        double half_min = fmin(xh - xl, yh - yl) * 0.5;
        if (arg < -0.5 * MAGDYN_PI || (inside && h < half_min)) arg += 2.0 * MAGDYN_PI;
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

/* The closed form in the first octant (x, y, z >= 0), box of size ~1. */
static magdyn_vec3 field_octant(double a, double b, double c, magdyn_vec3 j,
                                double x, double y, double z)
{
    double X[2] = {x + a, x - a}, Y[2] = {y + b, y - b}, Z[2] = {z + c, z - c};
    double lx[2] = {1.0, 1.0}, ly[2] = {1.0, 1.0}, lz[2] = {1.0, 1.0};  /* [eps>0], [eps<0] */
    double slx = 0.0, sly = 0.0, slz = 0.0, sax = 0.0, say = 0.0, saz = 0.0;
    int need_lx = j.y != 0.0 || j.z != 0.0;
    int need_ly = j.x != 0.0 || j.z != 0.0;
    int need_lz = j.x != 0.0 || j.y != 0.0;
    int ix, iy, iz;
    magdyn_vec3 bf;

    double R[2][2][2];
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
        if (need_lx) slx = md_log(lx[0] / lx[1]);
        if (need_ly) sly = md_log(ly[0] / ly[1]);
        if (need_lz) slz = md_log(lz[0] / lz[1]);
    }
    /* S[atan(XY/ZR)] = Omega(z + c) - Omega(z - c): the two charged z faces
     * seen from the point (solid angles signed by the side).  The face's
     * corners in its own order (high, low) are the box corners (1-i, 1-j). */
    for (iz = 0; iz < 2; iz++) {
        double rz[2][2], rx[2][2], ry[2][2];
        int a, b;
        for (a = 0; a < 2; a++)
            for (b = 0; b < 2; b++) {
                rz[a][b] = R[1 - a][1 - b][iz];   /* z face iz: (x, y) corners */
                rx[a][b] = R[iz][1 - a][1 - b];   /* x face iz: (y, z) corners */
                ry[a][b] = R[1 - b][iz][1 - a];   /* y face iz: (z, x) corners */
            }
        if (j.z != 0.0)
            saz += (iz ? -copysign(1.0, Z[1]) : 1.0)
                 * solid_angle(-X[0], -X[1], -Y[0], -Y[1], fabs(Z[iz]), (const double (*)[2])rz);
        if (j.x != 0.0)
            sax += (iz ? -copysign(1.0, X[1]) : 1.0)
                 * solid_angle(-Y[0], -Y[1], -Z[0], -Z[1], fabs(X[iz]), (const double (*)[2])rx);
        if (j.y != 0.0)
            say += (iz ? -copysign(1.0, Y[1]) : 1.0)
                 * solid_angle(-Z[0], -Z[1], -X[0], -X[1], fabs(Y[iz]), (const double (*)[2])ry);
    }

    bf.x = -j.x * sax + j.y * slz + j.z * sly;
    bf.y = j.x * slz - j.y * say + j.z * slx;
    bf.z = j.x * sly + j.y * slx - j.z * saz;
    bf = magdyn_vec3_scale(bf, 1.0 / (4.0 * MAGDYN_PI));
    if (x < a && y < b && z < c) bf = magdyn_vec3_add(bf, j);
    return bf;
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

magdyn_vec3 magdyn_cuboid_field(magdyn_vec3 half, magdyn_vec3 polarization, magdyn_vec3 r)
{
    double d2, scale, h[3], hmax, rmax;
    int e;
    if (!magdyn_vec3_isfinite(half) || !(half.x > 0.0 && half.y > 0.0 && half.z > 0.0)
        || !magdyn_vec3_isfinite(polarization) || !magdyn_vec3_isfinite(r))
        return magdyn_v3(NAN, NAN, NAN);
    /* the range the closed form and the series carry: no box more than
     * 1e80 times longer than thick, no polarization beyond 1e300 T */
    hmax = max3(half);
    if (!(fmin(fmin(half.x, half.y), half.z) * MAX_ASPECT >= hmax)
        || !(max3(polarization) <= MAX_POLARIZATION))
        return magdyn_v3(NAN, NAN, NAN);
    rmax = max3(r);
    if (rmax > DIPOLE_RATIO * hmax) return field_dipole(half, polarization, r, rmax);
    /* boxes so large or small that |half|^2 leaves the range: first an
     * exact power-of-two scaling by the largest half extent */
    if (!(hmax > 1e-150 && hmax < 1e150)) {
        frexp(hmax, &e);
        half = magdyn_v3(ldexp(half.x, -e), ldexp(half.y, -e), ldexp(half.z, -e));
        r = magdyn_v3(ldexp(r.x, -e), ldexp(r.y, -e), ldexp(r.z, -e));
    }
    /* exact rescaling by a power of two: B depends on shape only */
    d2 = magdyn_vec3_norm2(half);
    frexp(sqrt(d2), &e);
    scale = ldexp(1.0, -e);
    half = magdyn_vec3_scale(half, scale);
    r = magdyn_vec3_scale(r, scale);
    d2 *= scale * scale;
    if (magdyn_vec3_norm2(r) > FAR_RATIO * FAR_RATIO * d2)
        return field_far(half.x, half.y, half.z, polarization, r);
    h[0] = half.x; h[1] = half.y; h[2] = half.z;
    return field_close(h, polarization, r, 0);
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
