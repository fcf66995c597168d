/* cuboid_potential.c - see cuboid_potential.h. */
#include <math.h>
#include <string.h>
#include "detmath_batch.h"
#include "detmath_lanes.h"
#include "kernel_clones.h"
#include "cuboid_potential.h"
#include "cuboid_axes.h"

/* The scalar path (line_ratio .. box_sums, box_points and the scalar
 * mdc_face_potentials_n) is built where the lanes are not: both give the
 * same bits. */
#ifndef DETMATH_LANES
/* The line-charge potential int dl / |q - p| of a segment from y = -h to
 * h along its line, for q at offset y along it and p2 squared off it, with
 * rm, rp the distances to the ends at -h and +h, is the log of
 * (Y+ + rm) / (Y- + rp), Y+- = y +- h, taken without cancellation and with
 * one division: Y + R = p2 / (R - Y) for Y < 0 (p2 > 0 there).  A line
 * through q has a divergent potential and a zero coefficient wherever it
 * is used: ratio 1, potential 0. */
static double line_ratio(double y, double h, double p2, double rm, double rp)
{
    double yp = y + h, ym = y - h, num, den;
    if (!(p2 > 0.0)) return 1.0;
    if (ym >= 0.0) {
        num = yp + rm;
        den = ym + rp;
    } else if (yp >= 0.0) {
        num = (yp + rm) * (rp - ym);
        den = p2;
    } else {
        num = rp - ym;
        den = rm - yp;
    }
    return num / den;
}

/*
 * The solid angle of the rectangle [-A, A] x [-B, B] from height w above
 * it is 2 atan2(*sy, *sx) of these, with u, v the foot's in-plane
 * coordinates and r[i][k] the distances to the corners (u - (+-A),
 * v - (+-B)), i, k = 0 for +: the triangles (c0, c1, c2) and (c0, c2, c3)
 * of the corners in turn have tan(Omega / 2) = N / D with N = 4 A B |w|
 * and D = r0 r1 r2 + (R0.R1) r2 + (R0.R2) r1 + (R1.R2) r0; the half angles
 * add as the arguments of D + i N, and their sum lies in [0, pi].  On the
 * plane (w = 0) the term's weight |w| is zero: atan2(0, 1).
 */
static void solid_angle_args(double A, double B, double u, double v, double aw, double r[2][2],
                             double *sy, double *sx)
{
    /* corners in turn: (+A, +B), (-A, +B), (-A, -B), (+A, -B) */
    double cx[4] = {u - A, u + A, u + A, u - A}, cy[4] = {v - B, v - B, v + B, v + B};
    double rr[4] = {r[0][0], r[1][0], r[1][1], r[0][1]}, ww = aw * aw, n = 4.0 * A * B * aw;
    double d01, d02, d12, d03, d23, da, db;
    if (!(aw > 0.0)) {
        *sy = 0.0;
        *sx = 1.0;
        return;
    }
    d01 = cx[0] * cx[1] + cy[0] * cy[1] + ww;
    d02 = cx[0] * cx[2] + cy[0] * cy[2] + ww;
    d12 = cx[1] * cx[2] + cy[1] * cy[2] + ww;
    d03 = cx[0] * cx[3] + cy[0] * cy[3] + ww;
    d23 = cx[2] * cx[3] + cy[2] * cy[3] + ww;
    da = rr[0] * rr[1] * rr[2] + d01 * rr[2] + d02 * rr[1] + d12 * rr[0];
    db = rr[0] * rr[2] * rr[3] + d02 * rr[3] + d03 * rr[2] + d23 * rr[0];
    *sy = fabs(da * n + db * n);
    *sx = da * db - n * n;
}

/* Phi of the face on axis a at side bit bs, from the four edge potentials
 * lam[i] along a2 at a1 side i, lam[2 + k] along a1 at a2 side k, and
 * half its solid angle, atan2 of solid_angle_args. */
static double face_sum(double A, double B, double u, double v, double w, const double lam[4],
                       double half_angle)
{
    double sum = 0.0, aw = fabs(w), dist[4] = {A - u, A + u, B - v, B + v};
    int e;
    for (e = 0; e < 4; e++)
        if (dist[e] != 0.0) sum += dist[e] * lam[e];
    if (aw > 0.0) sum -= aw * 2.0 * half_angle;
    return sum;
}
#endif

/* For face g (axis a = g/2, side bit g & 1; in-plane axes a1 = a + 1,
 * a2 = a + 2): its corners r[i][k] (i: side of a1, k: side of a2) as
 * indices bx | by << 1 | bz << 2 of the box's corners, and its edges'
 * potentials lf[] as indices 4 d + 2 b1 + b2 of the box's edges (along d
 * at the sides b1 of d + 1 and b2 of d + 2): along a2 at a1 = +A, -A,
 * then along a1 at a2 = +B, -B. */
static const unsigned char face_corner[6][2][2] = {
    {{0, 4}, {2, 6}}, {{1, 5}, {3, 7}},     /* x: a1 = y, a2 = z */
    {{0, 1}, {4, 5}}, {{2, 3}, {6, 7}},     /* y: a1 = z, a2 = x */
    {{0, 2}, {1, 3}}, {{4, 6}, {5, 7}}};    /* z: a1 = x, a2 = y */
static const unsigned char face_edge[6][4] = {
    {8, 9, 4, 6}, {10, 11, 5, 7},           /* x: along z (sides x, y), along y (sides z, x) */
    {0, 1, 8, 10}, {2, 3, 9, 11},           /* y: along x (sides y, z), along z (sides x, y) */
    {4, 5, 0, 2}, {6, 7, 1, 3}};            /* z: along y (sides z, x), along x (sides y, z) */

#ifndef DETMATH_LANES
/* The arguments of a point's logs (lam, 12 edges) and atan2s (sy, sx, six
 * faces' half solid angles). */
static void box_args(const double hh[3], magdyn_vec3 q, double lam[12], double sy[6], double sx[6])
{
    /* off[a][s]: q's offset along axis a from the box's side s (0: +, 1: -) */
    double qq[3] = {q.x, q.y, q.z}, off[3][2], sq[3][2], r[8];
    int a, c, d, b, g;
    for (a = 0; a < 3; a++) {
        off[a][0] = qq[a] - hh[a];
        off[a][1] = qq[a] + hh[a];
        sq[a][0] = off[a][0] * off[a][0];
        sq[a][1] = off[a][1] * off[a][1];
    }
    for (c = 0; c < 8; c++) r[c] = sqrt(sq[0][c & 1] + sq[1][(c >> 1) & 1] + sq[2][c >> 2]);
    /* edge 4 d + 2 b1 + b2: from its end at + (corner bit d clear) to - */
    for (d = 0; d < 3; d++) {
        int d1 = (d + 1) % 3, d2 = (d + 2) % 3;
        for (b = 0; b < 4; b++) {
            int b1 = b >> 1, b2 = b & 1, cp = (b1 << d1) | (b2 << d2), cm = cp | (1 << d);
            lam[4 * d + b] = line_ratio(qq[d], hh[d], sq[d1][b1] + sq[d2][b2], r[cm], r[cp]);
        }
    }
    for (g = 0; g < 6; g++) {
        int a0 = g / 2, a1 = (a0 + 1) % 3, a2 = (a0 + 2) % 3;
        double rf[2][2];
        rf[0][0] = r[face_corner[g][0][0]]; rf[0][1] = r[face_corner[g][0][1]];
        rf[1][0] = r[face_corner[g][1][0]]; rf[1][1] = r[face_corner[g][1][1]];
        solid_angle_args(hh[a1], hh[a2], qq[a1], qq[a2], fabs(off[a0][g & 1]), rf, &sy[g], &sx[g]);
    }
}

/* The six faces' potentials at q from the edges' potentials and the half
 * solid angles. */
static void box_sums(const double hh[3], magdyn_vec3 q, const double lam[12], const double half[6],
                     double phi[6])
{
    double qq[3] = {q.x, q.y, q.z};
    int g;
    for (g = 0; g < 6; g++) {
        int a0 = g / 2, a1 = (a0 + 1) % 3, a2 = (a0 + 2) % 3;
        double lf[4], w = qq[a0] - ((g & 1) ? -hh[a0] : hh[a0]);
        lf[0] = lam[face_edge[g][0]]; lf[1] = lam[face_edge[g][1]];
        lf[2] = lam[face_edge[g][2]]; lf[3] = lam[face_edge[g][3]];
        phi[g] = face_sum(hh[a1], hh[a2], qq[a1], qq[a2], w, lf, half[g]);
    }
}

#endif

#ifdef DETMATH_LANES
/* line_ratio, lane-wise */
LANE vd vline_ratio(vd y, double h, vd p2, vd rm, vd rp)
{
    vd yp = y + h, ym = y - h;
    vi a = ym >= 0.0, b = yp >= 0.0, none = ~(p2 > 0.0);
    vd num = sel(a, yp + rm, sel(b, (yp + rm) * (rp - ym), rp - ym));
    vd den = sel(a, ym + rp, sel(b, p2, rm - yp));
    return sel(none, splat(1.0), num / den);
}

/* solid_angle_args and the half angle's atan2, lane-wise */
LANE vd vhalf_angle(double A, double B, vd u, vd v, vd aw, vd r00, vd r10, vd r11, vd r01)
{
    vd cx0 = u - A, cx1 = u + A, cx2 = u + A, cx3 = u - A, cy0 = v - B, cy1 = v - B, cy2 = v + B, cy3 = v + B;
    vd ww = aw * aw, n = 4.0 * A * B * aw;
    vd d01 = cx0 * cx1 + cy0 * cy1 + ww, d02 = cx0 * cx2 + cy0 * cy2 + ww;
    vd d12 = cx1 * cx2 + cy1 * cy2 + ww, d03 = cx0 * cx3 + cy0 * cy3 + ww;
    vd d23 = cx2 * cx3 + cy2 * cy3 + ww;
    vd da = r00 * r10 * r11 + d01 * r11 + d02 * r10 + d12 * r00;
    vd db = r00 * r11 * r01 + d02 * r01 + d03 * r11 + d23 * r00;
    vi on = ~(aw > 0.0);
    return vatan2(sel(on, splat(0.0), vabs(da * n + db * n)), sel(on, splat(1.0), da * db - n * n));
}

/* mdc_box_potentials_n four points abreast: the operations of box_args,
 * md_log_fd, md_atan2_fd and box_sums in their order, so the bits of the
 * scalar path. */
KERNEL_CLONES static void box_lanes(const double hh[3], const magdyn_vec3 *q, int n, double (*phi)[6],
                                    double (*lam)[12])
{
    int k, i, a, c, d, b, g, e;
    for (k = 0; k < n; k += 4) {
        int m = n - k < 4 ? n - k : 4;
        double pt[3][4], out[12][4];
        vd qq[3], off[3][2], sq[3][2], r[8], l[12], half[6];
        for (i = 0; i < 4; i++) {
            const magdyn_vec3 *p = &q[k + (i < m ? i : 0)];   /* idle lanes repeat the first point */
            pt[0][i] = p->x; pt[1][i] = p->y; pt[2][i] = p->z;
        }
        for (a = 0; a < 3; a++) {
            memcpy(&qq[a], pt[a], sizeof qq[a]);
            off[a][0] = qq[a] - hh[a];
            off[a][1] = qq[a] + hh[a];
            sq[a][0] = off[a][0] * off[a][0];
            sq[a][1] = off[a][1] * off[a][1];
        }
        for (c = 0; c < 8; c++) r[c] = vsqrt(sq[0][c & 1] + sq[1][(c >> 1) & 1] + sq[2][c >> 2]);
        for (d = 0; d < 3; d++) {
            int d1 = (d + 1) % 3, d2 = (d + 2) % 3;
            for (b = 0; b < 4; b++) {
                int b1 = b >> 1, b2 = b & 1, cp = (b1 << d1) | (b2 << d2), cm = cp | (1 << d);
                l[4 * d + b] = vlog(vline_ratio(qq[d], hh[d], sq[d1][b1] + sq[d2][b2], r[cm], r[cp]));
            }
        }
        for (g = 0; g < 6; g++) {
            int a0 = g / 2, a1 = (a0 + 1) % 3, a2 = (a0 + 2) % 3;
            half[g] = vhalf_angle(hh[a1], hh[a2], qq[a1], qq[a2], vabs(off[a0][g & 1]), r[face_corner[g][0][0]],
                                  r[face_corner[g][1][0]], r[face_corner[g][1][1]], r[face_corner[g][0][1]]);
        }
        for (g = 0; g < 6; g++) {
            int a0 = g / 2, a1 = (a0 + 1) % 3, a2 = (a0 + 2) % 3;
            vd w = qq[a0] - ((g & 1) ? -hh[a0] : hh[a0]), aw = vabs(w), sum = splat(0.0);
            vd dist[4];
            dist[0] = hh[a1] - qq[a1]; dist[1] = hh[a1] + qq[a1];
            dist[2] = hh[a2] - qq[a2]; dist[3] = hh[a2] + qq[a2];
            for (e = 0; e < 4; e++) sum = sum + sel(dist[e] != 0.0, dist[e] * l[face_edge[g][e]], splat(0.0));
            sum = sum - sel(aw > 0.0, aw * 2.0 * half[g], splat(0.0));
            memcpy(out[g], &sum, sizeof sum);
        }
        for (i = 0; i < m; i++)
            for (g = 0; g < 6; g++) phi[k + i][g] = out[g][i];
        if (lam) {
            for (e = 0; e < 12; e++) memcpy(out[e], &l[e], sizeof l[e]);
            for (i = 0; i < m; i++)
                for (e = 0; e < 12; e++) lam[k + i][e] = out[e][i];
        }
    }
}

/* mdc_face_potentials_n four points abreast: the operations of its scalar
 * path (the distances, line_ratio, solid_angle_args, md_log_fd,
 * md_atan2_fd and face_sum) in their order, so its bits.  (u, v, w): the
 * points' in-plane coordinates along a1, a2 and height over face g. */
KERNEL_CLONES static void face_lanes(double A, double B, double ha, int g, const magdyn_vec3 *q, int n,
                                     double *phi)
{
    int a = g / 2, a1 = (a + 1) % 3, a2 = (a + 2) % 3, k, i;
    double side = ((g & 1) ? -1.0 : 1.0) * ha;
    for (k = 0; k < n; k += 4) {
        int m = n - k < 4 ? n - k : 4;
        double pu[4], pv[4], pw[4], out[4];
        vd u, v, w, ww, x0, x1, y0, y1, r00, r01, r10, r11, l0, l1, l2, l3, half, aw, sum, dist[4], l[4];
        int e;
        for (i = 0; i < 4; i++) {
            magdyn_vec3 p = q[k + (i < m ? i : 0)];   /* idle lanes repeat the first point */
            pu[i] = cf_comp(p, a1);
            pv[i] = cf_comp(p, a2);
            pw[i] = cf_comp(p, a) - side;
        }
        memcpy(&u, pu, sizeof u);
        memcpy(&v, pv, sizeof v);
        memcpy(&w, pw, sizeof w);
        ww = w * w;
        x0 = u - A; x1 = u - (-A);
        y0 = v - B; y1 = v - (-B);
        r00 = vsqrt(x0 * x0 + y0 * y0 + ww);
        r01 = vsqrt(x0 * x0 + y1 * y1 + ww);
        r10 = vsqrt(x1 * x1 + y0 * y0 + ww);
        r11 = vsqrt(x1 * x1 + y1 * y1 + ww);
        l0 = vlog(vline_ratio(v, B, x0 * x0 + ww, r01, r00));
        l1 = vlog(vline_ratio(v, B, x1 * x1 + ww, r11, r10));
        l2 = vlog(vline_ratio(u, A, y0 * y0 + ww, r10, r00));
        l3 = vlog(vline_ratio(u, A, y1 * y1 + ww, r11, r01));
        aw = vabs(w);
        half = vhalf_angle(A, B, u, v, aw, r00, r10, r11, r01);
        dist[0] = A - u; dist[1] = A + u; dist[2] = B - v; dist[3] = B + v;
        l[0] = l0; l[1] = l1; l[2] = l2; l[3] = l3;
        sum = splat(0.0);
        for (e = 0; e < 4; e++) sum = sum + sel(dist[e] != 0.0, dist[e] * l[e], splat(0.0));
        sum = sum - sel(aw > 0.0, aw * 2.0 * half, splat(0.0));
        memcpy(out, &sum, sizeof sum);
        for (i = 0; i < m; i++) phi[k + i] = out[i];
    }
}

#else
/* mdc_box_potentials_n point by point, the logs and atan2s of up to
 * MDC_BOX_BATCH points at once (the same bits as box_lanes) */
static void box_points(const double hh[3], const magdyn_vec3 *q, int n, double (*phi)[6],
                       double (*lam)[12])
{
    double own[MDC_BOX_BATCH][12], sy[MDC_BOX_BATCH][6], sx[MDC_BOX_BATCH][6], half[MDC_BOX_BATCH][6];
    int i, k;
    for (k = 0; k < n; k += MDC_BOX_BATCH) {
        int m = n - k < MDC_BOX_BATCH ? n - k : MDC_BOX_BATCH;
        double (*l)[12] = lam ? lam + k : own;
        for (i = 0; i < m; i++) box_args(hh, q[k + i], l[i], sy[i], sx[i]);
        md_log_batch(&l[0][0], &l[0][0], 12 * m);
        md_atan2_batch(&sy[0][0], &sx[0][0], &half[0][0], 6 * m);
        for (i = 0; i < m; i++) box_sums(hh, q[k + i], l[i], half[i], phi[k + i]);
    }
}
#endif

void mdc_box_potentials_n(magdyn_vec3 h, const magdyn_vec3 *q, int n, double (*phi)[6],
                          double (*lam)[12])
{
    double hh[3] = {h.x, h.y, h.z};
#ifdef DETMATH_LANES
    box_lanes(hh, q, n, phi, lam);
#else
    box_points(hh, q, n, phi, lam);
#endif
}

void mdc_box_potentials(magdyn_vec3 h, magdyn_vec3 q, double phi[6], double lam[12])
{
    mdc_box_potentials_n(h, &q, 1, (double (*)[6])phi, (double (*)[12])lam);
}

void mdc_face_potentials_n(magdyn_vec3 h, int g, const magdyn_vec3 *q, int n, double *phi)
{
#ifdef DETMATH_LANES
    int a = g / 2;
    face_lanes(cf_comp(h, (a + 1) % 3), cf_comp(h, (a + 2) % 3), cf_comp(h, a), g, q, n, phi);
#else
    int a = g / 2, a1 = (a + 1) % 3, a2 = (a + 2) % 3, i, k, p, m, j;
    double A = cf_comp(h, a1), B = cf_comp(h, a2), lf[MDC_BOX_BATCH][4], sy[MDC_BOX_BATCH],
           sx[MDC_BOX_BATCH], half[MDC_BOX_BATCH], height[MDC_BOX_BATCH];
    for (j = 0; j < n; j += MDC_BOX_BATCH) {
        m = n - j < MDC_BOX_BATCH ? n - j : MDC_BOX_BATCH;
        for (p = 0; p < m; p++) {
            double u = cf_comp(q[j + p], a1), v = cf_comp(q[j + p], a2), r[2][2];
            double w = cf_comp(q[j + p], a) - ((g & 1) ? -1.0 : 1.0) * cf_comp(h, a), ww = w * w;
            height[p] = w;
            for (i = 0; i < 2; i++)
                for (k = 0; k < 2; k++) {
                    double x = u - (i ? -A : A), y = v - (k ? -B : B);
                    r[i][k] = sqrt(x * x + y * y + ww);
                }
            for (i = 0; i < 2; i++) {
                double x = u - (i ? -A : A);
                lf[p][i] = line_ratio(v, B, x * x + ww, r[i][1], r[i][0]);
            }
            for (k = 0; k < 2; k++) {
                double y = v - (k ? -B : B);
                lf[p][2 + k] = line_ratio(u, A, y * y + ww, r[1][k], r[0][k]);
            }
            solid_angle_args(A, B, u, v, fabs(w), r, &sy[p], &sx[p]);
        }
        md_log_batch(&lf[0][0], &lf[0][0], 4 * m);
        md_atan2_batch(sy, sx, half, m);
        for (p = 0; p < m; p++)
            phi[j + p] = face_sum(A, B, cf_comp(q[j + p], a1), cf_comp(q[j + p], a2), height[p], lf[p], half[p]);
    }
#endif
}

double mdc_face_potential(magdyn_vec3 h, int g, magdyn_vec3 q)
{
    double phi;
    mdc_face_potentials_n(h, g, &q, 1, &phi);
    return phi;
}
