/*
 * cuboid_octant.c - see cuboid_octant.h.
 *
 * With X, Y, Z the displacement of the field point from a corner
 * (x -+ a, ...) and eps = sx sy sz the corner's sign (s = +1 for the x + a
 * corner), summed over the 8 corners:
 *
 *   4 pi B_x = -J_x S[atan(YZ/XR)] + J_y S[ln(Z+R)] + J_z S[ln(Y+R)]
 *   4 pi B_y =  J_x S[ln(Z+R)] - J_y S[atan(ZX/YR)] + J_z S[ln(X+R)]
 *   4 pi B_z =  J_x S[ln(Y+R)] + J_y S[ln(X+R)] - J_z S[atan(XY/ZR)]
 *
 * where S[f] = sum eps f.  Each S[ln] is one log of a ratio of products,
 * each pair of atans of a face is the solid angle of that face, the
 * argument of a product of complex numbers; X = x + a > 0 in the first
 * octant, so ln(X + R) only needs the rationalised form
 * ln((Y^2 + Z^2)/(R - X)) for X < 0, which never cancels.
 */
#include <math.h>
#include <string.h>
#include "detmath_batch.h"
#include "detmath_lanes.h"
#include "kernel_clones.h"
#include "cuboid_octant.h"

/* Points' logs and atan2s go in batches of this many. */
#define OCTANT_BATCH 16

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

/* ln(X + R) for one corner as a factor g = *num / *den (S[ln] = ln(prod
 * g^eps)), without cancellation; the divergent part on an edge or corner
 * is dropped.  Kept as a fraction, so that the products of the factors
 * take one division in all. */
static void log_factor(double x, double p2, double r, double *num, double *den)
{
    if (x >= 0.0) {
        *num = (x + r > 0.0) ? x + r : 1.0;
        *den = 1.0;
    } else {
        *num = (p2 > 0.0) ? p2 : 1.0;
        *den = r - x;
    }
}

/* f[e] (e: 0 for eps > 0, 1 for eps < 0) as numerator f[e][0] and
 * denominator f[e][1], times the factor of one corner */
static void times_factor(double f[2][2], int e, double x, double p2, double r)
{
    double num, den;
    log_factor(x, p2, r, &num, &den);
    f[e][0] *= num;
    f[e][1] *= den;
}

/* prod g^eps from the factors' products */
static double factor_ratio(const double f[2][2]) { return (f[0][0] * f[1][1]) / (f[0][1] * f[1][0]); }

/* The closed form's arguments in the first octant (x, y, z >= 0), box of
 * size ~1. */
static void octant_args_of(double a, double b, double c, magdyn_vec3 j, double x, double y, double z,
                           octant_args *o)
{
    double X[2] = {x + a, x - a}, Y[2] = {y + b, y - b}, Z[2] = {z + c, z - c};
    /* [eps>0], [eps<0] x [numerator, denominator] */
    double lx[2][2] = {{1.0, 1.0}, {1.0, 1.0}}, ly[2][2] = {{1.0, 1.0}, {1.0, 1.0}}, lz[2][2] = {{1.0, 1.0}, {1.0, 1.0}};
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
                    if (need_lx) times_factor(lx, e, X[ix], yy + zz, r);
                    if (need_ly) times_factor(ly, e, Y[iy], xx + zz, r);
                    if (need_lz) times_factor(lz, e, Z[iz], xx + yy, r);
                }
    }
    o->ratio[0] = need_lx ? factor_ratio((const double (*)[2])lx) : 1.0;
    o->ratio[1] = need_ly ? factor_ratio((const double (*)[2])ly) : 1.0;
    o->ratio[2] = need_lz ? factor_ratio((const double (*)[2])lz) : 1.0;
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

#ifdef DETMATH_LANES
/* times_factor, lane-wise */
LANE void vtimes_factor(vd f[2][2], int e, vd x, vd p2, vd r)
{
    vi pos = x >= 0.0;
    vd t = x + r;
    f[e][0] = f[e][0] * sel(pos, sel(t > 0.0, t, splat(1.0)), sel(p2 > 0.0, p2, splat(1.0)));
    f[e][1] = f[e][1] * sel(pos, splat(1.0), r - x);
}

/* factor_ratio, lane-wise */
LANE vd vfactor_ratio(vd f[2][2]) { return (f[0][0] * f[1][1]) / (f[0][1] * f[1][0]); }

/* -copysign(1, x) lane-wise */
LANE vd vminus_sign(vd x)
{
    return (vd)((vu)splat(1.0) | (~(vu)x & 0x8000000000000000ULL));
}

/* solid_angle_args, atan2 and solid_angle_finish, lane-wise */
LANE vd vsolid_angle(vd xl, vd xh, vd yl, vd yh, vd h, const vd rc[2][2])
{
    vd re = splat(1.0), im = splat(0.0), xs[2] = {xh, xl}, ys[2] = {yh, yl}, arg, wx, wy;
    vi inside = (xl < 0.0) & (xh > 0.0) & (yl < 0.0) & (yh > 0.0), wrap, neg;
    int i, j;
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            vd v = h * rc[i][j], u = xs[i] * ys[j], t;
            if (i != j) u = -u;
            t = re * v - im * u;
            im = re * u + im * v;
            re = t;
        }
    wrap = inside & (h < vmin(xh - xl, yh - yl) * 0.5);
    arg = vatan2(im, re);
    neg = arg < 0.0;
    arg = sel(neg, sel((arg < -0.5 * MAGDYN_PI) | wrap, arg + 2.0 * MAGDYN_PI, splat(0.0)), arg);
    /* on the plane: the limit from the outer side */
    wx = sel((xl < 0.0) & (xh > 0.0), splat(1.0), sel((xl == 0.0) | (xh == 0.0), splat(0.5), splat(0.0)));
    wy = sel((yl < 0.0) & (yh > 0.0), splat(1.0), sel((yl == 0.0) | (yh == 0.0), splat(0.5), splat(0.0)));
    return sel(h == 0.0, 2.0 * MAGDYN_PI * wx * wy, arg);
}

/* mdc_octant_fields four points abreast: the operations of octant_args_of,
 * md_log_fd, md_atan2_fd and octant_finish in their order, so the bits of
 * the scalar path. */
KERNEL_CLONES static void octant_lanes(double a, double b, double c, const magdyn_vec3 *j, const magdyn_vec3 *p,
                                       int n, magdyn_vec3 *out)
{
    int need_lx = j[0].y != 0.0 || j[0].z != 0.0, need_ly = j[0].x != 0.0 || j[0].z != 0.0;
    int need_lz = j[0].x != 0.0 || j[0].y != 0.0, cx = j[0].x != 0.0, cy = j[0].y != 0.0, cz = j[0].z != 0.0;
    int k, i, ix, iy, iz;
    for (k = 0; k < n; k += 4) {
        int m = n - k < 4 ? n - k : 4;
        double in[6][4], res[3][4];
        vd x, y, z, jx, jy, jz, X[2], Y[2], Z[2], R[2][2][2], lx[2][2], ly[2][2], lz[2][2], sl[3], sax, say, saz;
        vd bx, by, bz;
        vi inside;
        for (i = 0; i < 4; i++) {
            int q = k + (i < m ? i : 0);   /* idle lanes repeat the first point */
            in[0][i] = p[q].x; in[1][i] = p[q].y; in[2][i] = p[q].z;
            in[3][i] = j[q].x; in[4][i] = j[q].y; in[5][i] = j[q].z;
        }
        memcpy(&x, in[0], sizeof x); memcpy(&y, in[1], sizeof y); memcpy(&z, in[2], sizeof z);
        memcpy(&jx, in[3], sizeof jx); memcpy(&jy, in[4], sizeof jy); memcpy(&jz, in[5], sizeof jz);
        X[0] = x + a; X[1] = x - a; Y[0] = y + b; Y[1] = y - b; Z[0] = z + c; Z[1] = z - c;
        inside = (x < a) & (y < b) & (z < c);
        for (ix = 0; ix < 2; ix++)
            for (iy = 0; iy < 2; iy++)
                for (iz = 0; iz < 2; iz++)
                    R[ix][iy][iz] = vsqrt(X[ix] * X[ix] + Y[iy] * Y[iy] + Z[iz] * Z[iz]);
        for (ix = 0; ix < 4; ix++) lx[ix / 2][ix % 2] = ly[ix / 2][ix % 2] = lz[ix / 2][ix % 2] = splat(1.0);
        if (need_lx || need_ly || need_lz)
            for (ix = 0; ix < 2; ix++)
                for (iy = 0; iy < 2; iy++)
                    for (iz = 0; iz < 2; iz++) {
                        vd xx = X[ix] * X[ix], yy = Y[iy] * Y[iy], zz = Z[iz] * Z[iz], r = R[ix][iy][iz];
                        int e = (ix + iy + iz) & 1;
                        if (need_lx) vtimes_factor(lx, e, X[ix], yy + zz, r);
                        if (need_ly) vtimes_factor(ly, e, Y[iy], xx + zz, r);
                        if (need_lz) vtimes_factor(lz, e, Z[iz], xx + yy, r);
                    }
        sl[0] = vlog(need_lx ? vfactor_ratio(lx) : splat(1.0));
        sl[1] = vlog(need_ly ? vfactor_ratio(ly) : splat(1.0));
        sl[2] = vlog(need_lz ? vfactor_ratio(lz) : splat(1.0));
        sax = say = saz = splat(0.0);
        for (iz = 0; iz < 2; iz++) {
            vd rz[2][2], rx[2][2], ry[2][2];
            int u, v;
            for (u = 0; u < 2; u++)
                for (v = 0; v < 2; v++) {
                    rz[u][v] = R[1 - u][1 - v][iz];
                    rx[u][v] = R[iz][1 - u][1 - v];
                    ry[u][v] = R[1 - v][iz][1 - u];
                }
            if (cz)
                saz = saz + (iz ? vminus_sign(Z[1]) : splat(1.0))
                            * vsolid_angle(-X[0], -X[1], -Y[0], -Y[1], vabs(Z[iz]), (const vd (*)[2])rz);
            if (cx)
                sax = sax + (iz ? vminus_sign(X[1]) : splat(1.0))
                            * vsolid_angle(-Y[0], -Y[1], -Z[0], -Z[1], vabs(X[iz]), (const vd (*)[2])rx);
            if (cy)
                say = say + (iz ? vminus_sign(Y[1]) : splat(1.0))
                            * vsolid_angle(-Z[0], -Z[1], -X[0], -X[1], vabs(Y[iz]), (const vd (*)[2])ry);
        }
        bx = -jx * sax + jy * sl[2] + jz * sl[1];
        by = jx * sl[2] - jy * say + jz * sl[0];
        bz = jx * sl[1] + jy * sl[0] - jz * saz;
        bx = bx * (1.0 / (4.0 * MAGDYN_PI));
        by = by * (1.0 / (4.0 * MAGDYN_PI));
        bz = bz * (1.0 / (4.0 * MAGDYN_PI));
        bx = sel(inside, bx + jx, bx);
        by = sel(inside, by + jy, by);
        bz = sel(inside, bz + jz, bz);
        memcpy(res[0], &bx, sizeof bx); memcpy(res[1], &by, sizeof by); memcpy(res[2], &bz, sizeof bz);
        for (i = 0; i < m; i++) out[k + i] = magdyn_v3(res[0][i], res[1][i], res[2][i]);
    }
}
#endif

void mdc_octant_fields(double a, double b, double c, const magdyn_vec3 *j, const magdyn_vec3 *p, int n,
                       magdyn_vec3 *out)
{
    octant_args o[OCTANT_BATCH];
    double ratio[OCTANT_BATCH][3], sl[OCTANT_BATCH][3], im[OCTANT_BATCH][6], re[OCTANT_BATCH][6],
           arg[OCTANT_BATCH][6];
    int k = 0, i, m;
#ifdef DETMATH_LANES
    /* four points abreast; a remainder of one or two costs less alone */
    k = n % 4 >= 3 ? n : n - n % 4;
    if (k > 0) octant_lanes(a, b, c, j, p, k, out);
#endif
    for (; k < n; k += m) {
        m = n - k < OCTANT_BATCH ? n - k : OCTANT_BATCH;
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
