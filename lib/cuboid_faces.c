/* cuboid_faces.c - see cuboid_faces.h. */
#include <math.h>
#include "detmath.h"
#include "cuboid_faces.h"
#include "gauss_kronrod.h"

/* y + sqrt(p2 + y^2) without cancellation for y < 0 (p2 > 0 there) */
static double cf_yr(double y, double p2, double r)
{
    return y >= 0.0 ? y + r : p2 / (r - y);
}

/*
 * B [T] at r (src body frame) of face g of a box with half extents h and
 * polarization j: face g lies on axis a = g/2 at sign sp (+ for even g) and
 * carries sigma = sp j_a / mu0.  With X, Y the in-plane offsets from the
 * face's edges and w the height above its plane,
 *   int_P (q - p)/|q - p|^3 dp = ( [ln(Y + R)] over Y, minus over X ...,
 *   solid angle ) as below.  Points on the face's edge lines drop the
 * divergent log (a measure-zero convention, as magdyn_cuboid_field).
 */
magdyn_vec3 cf_face_field(magdyn_vec3 h, magdyn_vec3 j, int g, magdyn_vec3 r)
{
    int a = g / 2, a1 = (a + 1) % 3, a2 = (a + 2) % 3;
    double sp = (g & 1) ? -1.0 : 1.0, js = sp * cf_comp(j, a);
    double A = cf_comp(h, a1), B = cf_comp(h, a2);
    double u = cf_comp(r, a1), v = cf_comp(r, a2), w = cf_comp(r, a) - sp * cf_comp(h, a);
    double X[2] = {u - A, u + A}, Y[2] = {v - B, v + B}, R[2][2], ww = w * w;
    double iu = 0.0, iv = 0.0, iw = 0.0, aw = fabs(w);
    int i, k;
    magdyn_vec3 b = magdyn_v3(0, 0, 0);
    if (js == 0.0) return b;
    for (i = 0; i < 2; i++)
        for (k = 0; k < 2; k++) R[i][k] = sqrt(X[i] * X[i] + Y[k] * Y[k] + ww);
    /* I_u = sum_i s_i [ln(Y + R_i.)]_{Y1}^{Y2}, s = (+1, -1) for X = (u-A, u+A) */
    for (i = 0; i < 2; i++) {
        double p2 = X[i] * X[i] + ww, si = i ? -1.0 : 1.0;
        double t = md_log(cf_yr(Y[1], p2, R[i][1]) / cf_yr(Y[0], p2, R[i][0]));
        if (isfinite(t)) iu += si * t;
    }
    for (k = 0; k < 2; k++) {
        double p2 = Y[k] * Y[k] + ww, sk = k ? -1.0 : 1.0;
        double t = md_log(cf_yr(X[1], p2, R[1][k]) / cf_yr(X[0], p2, R[0][k]));
        if (isfinite(t)) iv += sk * t;
    }
    /* solid angle, signed by the side: sum s_i s_k atan(X Y / (w R)) */
    for (i = 0; i < 2; i++)
        for (k = 0; k < 2; k++) {
            double s = (i == k) ? 1.0 : -1.0;
            iw += s * md_atan2(X[i] * Y[k], aw * R[i][k]);
        }
    if (w < 0.0) iw = -iw;
    js /= 4.0 * MAGDYN_PI;
    cf_set(&b, a1, js * iu);
    cf_set(&b, a2, js * iv);
    cf_set(&b, a, js * iw);
    return b;
}

/* Phi_P(x, y) = int_P dp / |q - p| in P's plane, P = [-A, A] x [-B, B]:
 * [[X ln(Y + R) + Y ln(X + R)]] over the corners. */
static double cf_phi(double A, double B, double x, double y)
{
    double X[2] = {x - A, x + A}, Y[2] = {y - B, y + B}, R[2][2], s = 0.0;
    int i, k;
    for (i = 0; i < 2; i++)
        for (k = 0; k < 2; k++) R[i][k] = sqrt(X[i] * X[i] + Y[k] * Y[k]);
    /* corner signs: + at (X2, Y2) and (X1, Y1) */
    for (i = 0; i < 2; i++) {
        double si = i ? 1.0 : -1.0, p2 = X[i] * X[i];
        if (X[i] != 0.0) s += si * X[i] * md_log(cf_yr(Y[1], p2, R[i][1]) / cf_yr(Y[0], p2, R[i][0]));
    }
    for (k = 0; k < 2; k++) {
        double sk = k ? 1.0 : -1.0, p2 = Y[k] * Y[k];
        if (Y[k] != 0.0) s += sk * Y[k] * md_log(cf_yr(X[1], p2, R[1][k]) / cf_yr(X[0], p2, R[0][k]));
    }
    return s;
}

/* One piece of an edge, x(l) = p0 + l d for l in [l0, l1], ends clustered:
 * adds int Phi ds (out[0]) and int Phi wgt ds (out[1]), wgt = c0 + c1 l,
 * and the Kronrod - Gauss differences to err[0], err[1]. */
static void cf_piece(double A, double B, const double p0[2], const double d[2], double len,
                     double c0, double c1, double l0, double l1, double out[2], double err[2])
{
    double k0 = 0.0, k1 = 0.0, g0 = 0.0, g1 = 0.0, hl = 0.5 * (l1 - l0), ml = 0.5 * (l0 + l1);
    int i, sgn;
    for (i = 0; i < 8; i++)
        for (sgn = 0; sgn < (i < 7 ? 2 : 1); sgn++) {
            double t = sgn ? -md_gk15_x[i] : md_gk15_x[i];
            double psi = 0.5 * t * (3.0 - t * t), dpsi = 1.5 * (1.0 - t * t);
            double l = ml + hl * psi, f = cf_phi(A, B, p0[0] + l * d[0], p0[1] + l * d[1]) * dpsi;
            k0 += md_gk15_w[i] * f;
            k1 += md_gk15_w[i] * f * (c0 + c1 * l);
            if (i & 1) {
                g0 += md_g7_w[i / 2] * f;
                g1 += md_g7_w[i / 2] * f * (c0 + c1 * l);
            }
        }
    hl *= len;
    out[0] += hl * k0;
    out[1] += hl * k1;
    err[0] += fabs(hl * (k0 - g0));
    err[1] += fabs(hl * (k1 - g1));
}

#define CF_MAX_PIECES 64

/* The parameters l in [0, 1] of the edge p0 + l d, sorted, at which it
 * crosses P's edge lines x = +-A, y = +-B (the kinks of the integrands),
 * with 0 and 1; returns their number (2 to 6). */
static int edge_cuts(double A, double B, const double p0[2], const double d[2], double cuts[6])
{
    int nc = 0, i, j;
    cuts[nc++] = 0.0;
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            double lim = (j ? -1.0 : 1.0) * (i ? B : A), dd = d[i];
            if (dd != 0.0) {
                double l = (lim - p0[i]) / dd;
                if (l > 1e-14 && l < 1.0 - 1e-14) cuts[nc++] = l;
            }
        }
    cuts[nc++] = 1.0;
    for (i = 1; i < nc; i++)       /* insertion sort */
        for (j = i; j > 0 && cuts[j] < cuts[j - 1]; j--) {
            double t = cuts[j]; cuts[j] = cuts[j - 1]; cuts[j - 1] = t;
        }
    return nc;
}

/* The set-up of one edge p0 + l d (l in [0, 1], length len > 0) of Q for
 * the boundary integrals: its outward unit normal nu, the lever weight
 * (n x a).nu = -(y - c_y) nu_x + (x - c_x) nu_y = c0 + c1 l (linear in l),
 * and its pieces between kinks pushed on stack, the first on top; returns
 * the number pushed. */
static int edge_frame(double A, double B, const double p0[2], const double d[2], double len,
                      const double c[2], double nu[2], double *c0, double *c1, double stack[][2])
{
    double cuts[6];
    int nc, i, top = 0;
    nu[0] = d[1] / len; nu[1] = -d[0] / len;
    *c0 = -(p0[1] - c[1]) * nu[0] + (p0[0] - c[0]) * nu[1];
    *c1 = -d[1] * nu[0] + d[0] * nu[1];
    nc = edge_cuts(A, B, p0, d, cuts);
    for (i = nc - 2; i >= 0; i--) {
        if (cuts[i + 1] - cuts[i] <= 0.0) continue;
        stack[top][0] = cuts[i]; stack[top][1] = cuts[i + 1]; top++;
    }
    return top;
}

/*
 * Line integrals over the boundary of the convex quadrilateral q[4] (CCW in
 * P's plane coordinates): lin[0..1] = oint Phi nu ds (in-plane vector) and
 * lin[2] = oint Phi (n x a).nu ds with a = q - c (c in-plane), for the
 * rectangle P = [-A, A] x [-B, B].  Pieces are bisected until their
 * error estimates fall below tol0 (for lin[0..1]) and tol1 (lin[2]),
 * within CF_MAX_PIECES per edge.  err[0], err[1]: the summed estimates.
 */
void cf_boundary(double A, double B, const double q[4][2], const double c[2], double tol0,
                        double tol1, double lin[3], double err[2])
{
    int e;
    lin[0] = lin[1] = lin[2] = 0.0;
    err[0] = err[1] = 0.0;
    for (e = 0; e < 4; e++) {
        const double *p0 = q[e], *p1 = q[(e + 1) & 3];
        double d[2] = {p1[0] - p0[0], p1[1] - p0[1]}, len = md_hypot(d[0], d[1]);
        double nu[2], stack[CF_MAX_PIECES][2], acc[2] = {0, 0}, ae[2] = {0, 0};
        double c0, c1, etol0 = tol0 / 4.0, etol1 = tol1 / 4.0;   /* per edge */
        int top, used = 0;
        if (len == 0.0) continue;
        top = edge_frame(A, B, p0, d, len, c, nu, &c0, &c1, stack);
        while (top > 0) {
            double o[2] = {0, 0}, er[2] = {0, 0}, l0, l1, frac;
            top--;
            l0 = stack[top][0]; l1 = stack[top][1];
            cf_piece(A, B, p0, d, len, c0, c1, l0, l1, o, er);
            used++;
            frac = l1 - l0;
            if ((er[0] > etol0 * frac || er[1] > etol1 * frac) && top + 2 <= CF_MAX_PIECES
                && used < 4 * CF_MAX_PIECES && frac > 1e-12) {
                double m = 0.5 * (l0 + l1);
                stack[top][0] = m; stack[top][1] = l1; top++;
                stack[top][0] = l0; stack[top][1] = m; top++;
                continue;
            }
            acc[0] += o[0]; acc[1] += o[1];
            ae[0] += er[0]; ae[1] += er[1];
        }
        lin[0] += acc[0] * nu[0];
        lin[1] += acc[0] * nu[1];
        lin[2] += acc[1];
        err[0] += ae[0];
        err[1] += ae[1];
    }
}

/* Area and first moment (about the origin) of the quadrilateral q (CCW)
 * clipped to [-A, A] x [-B, B] (Sutherland-Hodgman against four lines). */
void cf_overlap(double A, double B, const double q[4][2], double *area, double mom[2])
{
    double poly[2][12][2];
    int n = 4, k, i, cur = 0;
    for (i = 0; i < 4; i++) { poly[0][i][0] = q[i][0]; poly[0][i][1] = q[i][1]; }
    for (k = 0; k < 4 && n > 0; k++) {
        int ax = k / 2, m = 0;
        double sg = (k & 1) ? -1.0 : 1.0, lim = ax ? B : A;   /* keep sg * x_ax <= lim */
        double (*src)[2] = poly[cur], (*dst)[2] = poly[1 - cur];
        for (i = 0; i < n; i++) {
            const double *p = src[i], *pn = src[(i + 1) % n];
            double fp = sg * p[ax] - lim, fn = sg * pn[ax] - lim;
            if (fp <= 0.0) { dst[m][0] = p[0]; dst[m][1] = p[1]; m++; }
            if ((fp < 0.0 && fn > 0.0) || (fp > 0.0 && fn < 0.0)) {
                double t = fp / (fp - fn);
                dst[m][0] = p[0] + t * (pn[0] - p[0]);
                dst[m][1] = p[1] + t * (pn[1] - p[1]);
                m++;
            }
        }
        n = m;
        cur = 1 - cur;
    }
    *area = 0.0; mom[0] = mom[1] = 0.0;
    for (i = 0; i < n; i++) {
        const double *p = poly[cur][i], *pn = poly[cur][(i + 1) % n];
        double cr = p[0] * pn[1] - pn[0] * p[1];
        *area += 0.5 * cr;
        mom[0] += cr * (p[0] + pn[0]) / 6.0;
        mom[1] += cr * (p[1] + pn[1]) / 6.0;
    }
}

/* ---- parallel faces a gap apart ------------------------------------------
 *
 * Q parallel to P at height Z > 0 outside it: with phi_Z = int_P dp/|q - p|
 * (now with the term -Z atan) the in-plane field is again -sigma_P/(4 pi)
 * grad phi_Z, so its integrals over Q are the boundary integrals above;
 * the normal field is sigma_P/(4 pi) Omega, Omega = S[atan(XY/(ZR))] (S
 * the corner sum), and with W1, W2 the antiderivatives along x of atan and
 * X atan (checked by differentiation to 30 digits),
 *   W1 = X atan + Z ln(Y + R) - (Z/2) ln(X^2 + Z^2),
 *   W2 = (X^2 + Z^2)/2 atan - (Y Z/2) ln(X + R),
 * Green's theorem turns int_Q Omega, int_Q x Omega and int_Q y Omega into
 * oint S[W1] nu_x ds, oint S[W2 + x_c W1] nu_x ds and oint y S[W1] nu_x ds
 * (x_c the corner's x).  So the pair of parallel faces costs a few line
 * integrals at any gap, whose integrands change over a width Z across P's
 * edge lines (split there); the cubature of P's field on Q would have to
 * resolve those near-jumps along lines crossing Q anywhere.
 */

/* At (x, y) of P's plane, height Z > 0: out[0] = phi_Z, out[1] = S[W1],
 * out[2] = S[W2 + x_c W1] - cx S[W1] (x measured from cx).  The corner
 * sums share their logarithms and arctangents: X ln(Y + R) and Z ln(Y + R)
 * need the ratio over Y at each X, Y ln(X + R) the ratio over X at each
 * Y, the atans pair up at each X as the argument of a complex product
 * (each lies in (-pi/2, pi/2), so their difference is its argument), and
 * ln(X^2 + Z^2) drops out of both sums (its weights sum to 0 over Y). */
static void cf_gap_terms(double A, double B, double x, double y, double Z, double cx, double out[3])
{
    double X[2] = {x - A, x + A}, Y[2] = {y - B, y + B}, xc[2] = {A, -A}, zz = Z * Z, R[2][2];
    double lyi[2], atni[2], lxk[2], phi = 0.0, g1 = 0.0, g2 = 0.0;
    int i, k;
    for (i = 0; i < 2; i++)
        for (k = 0; k < 2; k++) R[i][k] = sqrt(X[i] * X[i] + Y[k] * Y[k] + zz);
    for (i = 0; i < 2; i++) {
        double p2 = X[i] * X[i] + zz;
        /* corner weights at this X: + at Y[i], - at Y[1 - i] */
        double re0 = Z * R[i][i], im0 = X[i] * Y[i], re1 = Z * R[i][1 - i], im1 = X[i] * Y[1 - i];
        lyi[i] = md_log(cf_yr(Y[i], p2, R[i][i]) / cf_yr(Y[1 - i], p2, R[i][1 - i]));
        atni[i] = md_atan2(im0 * re1 - re0 * im1, re0 * re1 + im0 * im1);
    }
    for (k = 0; k < 2; k++) {
        double p2 = Y[k] * Y[k] + zz;
        lxk[k] = md_log(cf_yr(X[k], p2, R[k][k]) / cf_yr(X[1 - k], p2, R[1 - k][k]));
    }
    for (i = 0; i < 2; i++) {
        double w1 = X[i] * atni[i] + Z * lyi[i];
        phi += X[i] * lyi[i] - Z * atni[i];
        g1 += w1;
        g2 += 0.5 * (X[i] * X[i] + zz) * atni[i] + (xc[i] - cx) * w1;
    }
    for (k = 0; k < 2; k++) {
        phi += Y[k] * lxk[k];
        g2 -= 0.5 * Y[k] * Z * lxk[k];
    }
    out[0] = phi;
    out[1] = g1;
    out[2] = g2;
}

/* One piece of an edge at height Z, as cf_piece: adds int phi ds,
 * int phi wgt ds, int G1 ds, int G2 ds, int (y - cy) G1 ds to out[0..4] and
 * their Kronrod - Gauss differences to d[0..4]. */
static void cf_gap_piece(double A, double B, double Z, const double p0[2], const double d[2], double len,
                         const double c[2], double c0, double c1, double l0, double l1, double out[5],
                         double dif[5])
{
    double k[5] = {0, 0, 0, 0, 0}, g[5] = {0, 0, 0, 0, 0}, hl = 0.5 * (l1 - l0), ml = 0.5 * (l0 + l1);
    int i, sgn, m;
    for (i = 0; i < 8; i++)
        for (sgn = 0; sgn < (i < 7 ? 2 : 1); sgn++) {
            double t = sgn ? -md_gk15_x[i] : md_gk15_x[i];
            double psi = 0.5 * t * (3.0 - t * t), dpsi = 1.5 * (1.0 - t * t);
            double l = ml + hl * psi, x = p0[0] + l * d[0], y = p0[1] + l * d[1], v[3], f[5];
            cf_gap_terms(A, B, x, y, Z, c[0], v);
            f[0] = v[0] * dpsi;
            f[1] = f[0] * (c0 + c1 * l);
            f[2] = v[1] * dpsi;
            f[3] = v[2] * dpsi;
            f[4] = f[2] * (y - c[1]);
            for (m = 0; m < 5; m++) k[m] += md_gk15_w[i] * f[m];
            if (i & 1)
                for (m = 0; m < 5; m++) g[m] += md_g7_w[i / 2] * f[m];
        }
    hl *= len;
    for (m = 0; m < 5; m++) {
        out[m] += hl * k[m];
        dif[m] += fabs(hl * (k[m] - g[m]));
    }
}

/*
 * The boundary integrals of the quadrilateral q[4] (CCW, P's plane
 * coordinates) at height Z > 0 above P = [-A, A] x [-B, B], lever
 * origin c: lin[0..2] as cf_boundary (with phi_Z), lin[3] = int_Q Omega,
 * lin[4..5] = int_Q (q - c) Omega (in-plane).  err[0] bounds the force's
 * terms (lin[0..1], lin[3]), err[1] the torque's (lin[2], lin[4..5]);
 * pieces are bisected to tol0, tol1 as in cf_boundary.
 */
void cf_boundary_gap(double A, double B, double Z, const double q[4][2], const double c[2],
                            double tol0, double tol1, double lin[6], double err[2])
{
    int e, m;
    for (m = 0; m < 6; m++) lin[m] = 0.0;
    err[0] = err[1] = 0.0;
    for (e = 0; e < 4; e++) {
        const double *p0 = q[e], *p1 = q[(e + 1) & 3];
        double d[2] = {p1[0] - p0[0], p1[1] - p0[1]}, len = md_hypot(d[0], d[1]);
        double nu[2], stack[CF_MAX_PIECES][2], acc[5] = {0, 0, 0, 0, 0}, ae[5] = {0, 0, 0, 0, 0};
        double c0, c1, etol0 = tol0 / 4.0, etol1 = tol1 / 4.0;   /* per edge */
        int top, used = 0;
        if (len == 0.0) continue;
        top = edge_frame(A, B, p0, d, len, c, nu, &c0, &c1, stack);
        while (top > 0) {
            double o[5] = {0, 0, 0, 0, 0}, df[5] = {0, 0, 0, 0, 0}, l0, l1, frac, e0, e1;
            top--;
            l0 = stack[top][0]; l1 = stack[top][1];
            cf_gap_piece(A, B, Z, p0, d, len, c, c0, c1, l0, l1, o, df);
            used++;
            frac = l1 - l0;
            e0 = df[0] + fabs(nu[0]) * df[2];
            e1 = df[1] + fabs(nu[0]) * (df[3] + df[4]);
            if ((e0 > etol0 * frac || e1 > etol1 * frac) && top + 2 <= CF_MAX_PIECES
                && used < 4 * CF_MAX_PIECES && frac > 1e-12) {
                double mid = 0.5 * (l0 + l1);
                stack[top][0] = mid; stack[top][1] = l1; top++;
                stack[top][0] = l0; stack[top][1] = mid; top++;
                continue;
            }
            for (m = 0; m < 5; m++) { acc[m] += o[m]; ae[m] += df[m]; }
        }
        lin[0] += acc[0] * nu[0];
        lin[1] += acc[0] * nu[1];
        lin[2] += acc[1];
        lin[3] += acc[2] * nu[0];
        lin[4] += acc[3] * nu[0];
        lin[5] += acc[4] * nu[0];
        err[0] += ae[0] + fabs(nu[0]) * ae[2];
        err[1] += ae[1] + fabs(nu[0]) * (ae[3] + ae[4]);
    }
}

