/*
 * cuboid_parallel.c - Akoun & Yonnet's closed form for the force between two
 * boxes with parallel edges, both magnetised along the same edge direction
 * (G. Akoun, J.-P. Yonnet, IEEE Trans. Magn. 20 (1984) 1962).
 *
 * Each box is two charged faces (sigma = +-J/mu0).  The force between two
 * parallel charged rectangles is (mu0 sigma1 sigma2 / 4 pi) times the 4-fold
 * integral of (u, v, w)/r^3 over their points (u, v in-plane differences, w
 * the plane separation); with d^2/du^2 d^2/dv^2 phi = (u, v, w)/r^3 it is a
 * signed sum of phi over the 16 combinations of edges, and for the two boxes
 *
 *   F = J1 J2 / (4 pi mu0) sum_{ijklpq} (-1)^(i+j+k+l+p+q) phi(U_ij, V_kl, W_pq)
 *   U_ij = alpha + (-1)^j a2 - (-1)^i a1   (alpha the offset, a half sides),
 *   phi_x = (v^2 - w^2)/2 ln(r-u) + u v ln(r-v) + v w atan(uv/rw) + r u/2
 *   phi_y = (u^2 - w^2)/2 ln(r-v) + u v ln(r-u) + u w atan(uv/rw) + r v/2
 *   phi_z = -u w ln(r-u) - v w ln(r-v) + u v atan(uv/rw) - r w.
 * (phi checked symbolically: d^4 phi / du^2 dv^2 = (u, v, w)/r^3.)
 * Each term's limit is taken where a coefficient vanishes (x ln x -> 0), and
 * ln(r - u) is rationalised for u > 0; touching faces (w = 0) take the
 * limit from the side the boxes are on.
 */
#include <math.h>
#include "detmath.h"
#include <stddef.h>
#include <magdyn/dipole.h>
#include "cuboid_thin.h"
#include "cuboid_check.h"
#include "cuboid_axes.h"

/* ln(r - a) and ln(r + a) without cancellation, p2 = r^2 - a^2.  Where the
 * argument vanishes (on an edge line) every coefficient the logarithm is
 * multiplied by vanishes too, and the term's limit is 0: return 0 there. */
static double log_minus(double a, double p2, double r)
{
    double arg = (a > 0.0) ? p2 / (r + a) : r - a;
    return arg > 0.0 ? md_log(arg) : 0.0;
}
static double log_plus(double a, double p2, double r)
{
    double arg = (a < 0.0) ? p2 / (r - a) : r + a;
    return arg > 0.0 ? md_log(arg) : 0.0;
}

/*
 * One combination of edges: adds s phi (force) and s times the moment terms
 * (torque) at (u, v, w); xq, yq, zq are the offsets of this dst face corner
 * from dst's centre.  A = atan(uv/(rw)) takes the side of w = 0 from wsign.
 *
 *   phi_x = (v^2 - w^2)/2 ln(r-u) + u v ln(r-v) + v w A + r u/2
 *   phi_y = (u^2 - w^2)/2 ln(r-v) + u v ln(r-u) + u w A + r v/2
 *   phi_z = -u w ln(r-u) - v w ln(r-v) + u v A - r w
 * and psi_z = int phi_z du, psi_y = int phi_y du (derived by parts, checked
 * symbolically: d psi/du = phi), built from
 *   a = int u ln(r-u) du = u^2/2 ln(r-u) + u r/4 - (v^2+w^2)/4 ln(r+u)
 *   b = int ln(r-v) du  = u ln(r-v) - u + w atan(u/w) - v ln(r+u) + w A
 *   c = int u A du      = (u^2+w^2)/2 A - v w/2 ln(r+u)
 *   d = int r du        = (u r + (v^2+w^2) ln(r+u))/2
 *   e = int u^2 ln(r-v) du = u^3/3 ln(r-v) - [u^3/3 - w^2 u + w^3 atan(u/w)
 *         + v (u r - (v^2+w^2) ln(r+u))/2 - v w^2 ln(r+u) + w^3 A]/3
 *   psi_z = -w a - v w b + v c - w d,
 *   psi_y = e/2 - w^2/2 b + v a + w c + v/2 d,
 * and the same with u and v exchanged for psi(v, u, w).
 */
static void corner_terms(double u, double v, double w, double wsign, double s,
                         double xq, double yq, double zq, magdyn_vec3 *f, magdyn_vec3 *t)
{
    double uu = u * u, vv = v * v, ww = w * w, r = sqrt(uu + vv + ww);
    double pu = vv + ww, pv = uu + ww;               /* r^2 - u^2, r^2 - v^2 */
    double lum = log_minus(u, pu, r), lup = log_plus(u, pu, r);
    double lvm = log_minus(v, pv, r), lvp = log_plus(v, pv, r);
    double A, atu, atv;
    magdyn_vec3 ph;
    if (u * v == 0.0) A = 0.0;
    else if (w == 0.0) A = copysign(0.5 * MAGDYN_PI, u * v * wsign);
    else A = md_atan(u * v / (r * w));
    atu = (w == 0.0) ? 0.0 : md_atan(u / w);          /* multiplied by w or w^3 */
    atv = (w == 0.0) ? 0.0 : md_atan(v / w);
    ph.x = 0.5 * (vv - ww) * lum + u * v * lvm + v * w * A + 0.5 * r * u;
    ph.y = 0.5 * (uu - ww) * lvm + u * v * lum + u * w * A + 0.5 * r * v;
    ph.z = -u * w * lum - v * w * lvm + u * v * A - r * w;
    *f = magdyn_vec3_madd(*f, s, ph);
    if (t) {
        double au = 0.5 * uu * lum + 0.25 * u * r - 0.25 * pu * lup;
        double bu = u * lvm - u + w * atu - v * lup + w * A;
        double cu = 0.5 * pv * A - 0.5 * v * w * lup;
        double du = 0.5 * (u * r + pu * lup);
        double eu = uu * u / 3.0 * lvm - (uu * u / 3.0 - ww * u + ww * w * atu + 0.5 * v * (u * r - pu * lup)
                                          - v * ww * lup + ww * w * A) / 3.0;
        double av = 0.5 * vv * lvm + 0.25 * v * r - 0.25 * pv * lvp;
        double bv = v * lum - v + w * atv - u * lvp + w * A;
        double cv = 0.5 * pu * A - 0.5 * u * w * lvp;
        double dv = 0.5 * (v * r + pv * lvp);
        double ev = vv * v / 3.0 * lum - (vv * v / 3.0 - ww * v + ww * w * atv + 0.5 * u * (v * r - pv * lvp)
                                          - u * ww * lvp + ww * w * A) / 3.0;
        double psiz_uv = -w * au - v * w * bu + v * cu - w * du;
        double psiz_vu = -w * av - u * w * bv + u * cv - w * dv;
        double psiy_uv = 0.5 * eu - 0.5 * ww * bu + v * au + w * cu + 0.5 * v * du;
        double psiy_vu = 0.5 * ev - 0.5 * ww * bv + u * av + w * cv + 0.5 * u * dv;
        /* (q - d) x (u, v, w)/r^3, integrated: moments about dst's centre */
        t->x += s * (yq * ph.z - psiz_vu - zq * ph.y);
        t->y += s * (zq * ph.x - xq * ph.z + psiz_uv);
        t->z += s * (xq * ph.y - psiy_uv - yq * ph.x + psiy_vu);
    }
}

/*
 * Both along z: src centred at 0 with half sides h1, dst centred at d with
 * half sides h2; force on dst and torque about d.  In the charge model the
 * torque is the moment of the face-pair forces alone: with M uniform,
 * int M x B dV + int (r-d) x (M.grad)B dV = sum (r-d) x sigma B dA, so an
 * added M x B volume term would count the intrinsic torque twice.  The
 * moment over dst's face coordinate x2 of a kernel g(x2 - x1) integrated
 * twice is, at each corner, (x2 - d_x) G2 - G3 with G2 = phi and G3 its
 * antiderivative in u (psi); likewise in y2 with u and v exchanged.
 */
static void force_torque_zz(magdyn_vec3 h1, magdyn_vec3 h2, magdyn_vec3 d, double j1j2,
                            magdyn_vec3 *force, magdyn_vec3 *torque)
{
    magdyn_vec3 f = magdyn_v3(0.0, 0.0, 0.0), t = magdyn_v3(0.0, 0.0, 0.0);
    double wsign = d.z < 0.0 ? -1.0 : 1.0, kf = j1j2 / (4.0 * MAGDYN_PI * MAGDYN_MU0);
    double wtol = 1e-12 * (h1.z + h2.z);
    int i, j, k, l, p, q;
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            double xq = j ? -h2.x : h2.x, u = d.x + xq - (i ? -h1.x : h1.x);
            for (k = 0; k < 2; k++)
                for (l = 0; l < 2; l++) {
                    double yq = l ? -h2.y : h2.y, v = d.y + yq - (k ? -h1.y : h1.y);
                    for (p = 0; p < 2; p++)
                        for (q = 0; q < 2; q++) {
                            double zq = q ? -h2.z : h2.z, w = d.z + zq - (p ? -h1.z : h1.z);
                            /* touching faces: a rounding residue of either
                             * sign must not pick the inside branch of A */
                            if (fabs(w) < wtol) w = 0.0;
                            double s = ((i + j + k + l + p + q) & 1) ? -1.0 : 1.0;
                            corner_terms(u, v, w, wsign, s, xq, yq, zq, &f, torque ? &t : NULL);
                        }
                }
        }
    if (force) *force = magdyn_vec3_scale(f, kf);
    if (torque) *torque = magdyn_vec3_scale(t, kf);
}


/* v with its axes cycled so that axis k comes last (k = 2: unchanged). */
static magdyn_vec3 cycle_to_z(magdyn_vec3 v, int k)
{
    if (k == 0) return magdyn_v3(v.y, v.z, v.x);
    if (k == 1) return magdyn_v3(v.z, v.x, v.y);
    return v;
}
static magdyn_vec3 cycle_from_z(magdyn_vec3 v, int k)
{
    if (k == 0) return magdyn_v3(v.z, v.x, v.y);
    if (k == 1) return magdyn_v3(v.y, v.z, v.x);
    return v;
}

static int valid_box(const magdyn_cuboid *c)
{
    return c->half.x > 0.0 && c->half.y > 0.0 && c->half.z > 0.0;
}

static magdyn_status check_box(const magdyn_cuboid *c)
{
    if (!magdyn_vec3_isfinite(c->half) || !magdyn_vec3_isfinite(c->polarization)
        || !magdyn_vec3_isfinite(c->center) || !magdyn_quat_isfinite(c->orientation))
        return MAGDYN_ENONFINITE;
    if (!valid_box(c)) return MAGDYN_EINVAL;
    if (!magdyn_quat_isunit(c->orientation, 1e-9)) return MAGDYN_ENORM;
    return MAGDYN_OK;
}

static magdyn_status parallel(const magdyn_cuboid *src, const magdyn_cuboid *dst,
                             magdyn_vec3 *force, magdyn_vec3 *torque);

/* parallel() in the shape magdyn_ci_thin calls (no tolerance: exact) */
static magdyn_status parallel_tol(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                                  magdyn_vec3 *force, magdyn_vec3 *torque)
{
    (void)rel_tol;
    return parallel(src, dst, force, torque);
}

magdyn_status magdyn_cuboid_force_parallel(const magdyn_cuboid *src, const magdyn_cuboid *dst,
                                           magdyn_vec3 *force, magdyn_vec3 *torque)
{
    magdyn_vec3 f, t;
    magdyn_status s;
    if (!src || !dst) return MAGDYN_EINVAL;
    if ((s = check_box(src)) != MAGDYN_OK || (s = check_box(dst)) != MAGDYN_OK
        || (s = mdc_pair_range(src, dst)) != MAGDYN_OK)
        return s;
    if ((s = magdyn_ci_thin(parallel_tol, src, dst, 0.0, &f, &t)) != MAGDYN_OK) return s;
    if (force) *force = f;
    if (torque) *torque = t;
    return MAGDYN_OK;
}

/* Akoun & Yonnet's closed form (see magdyn_cuboid_force_parallel(3)). */
static magdyn_status parallel(const magdyn_cuboid *src, const magdyn_cuboid *dst,
                             magdyn_vec3 *force, magdyn_vec3 *torque)
{
    magdyn_mat3 rs, rd, rel;
    magdyn_vec3 d, h2, j2, j1, f, t;
    double tol = 1e-12, n1, n2;
    int k, a, b, ks = -1;
    magdyn_status s;
    if (!src || !dst) return MAGDYN_EINVAL;
    if ((s = check_box(src)) != MAGDYN_OK || (s = check_box(dst)) != MAGDYN_OK) return s;
    rs = magdyn_quat_to_mat3(src->orientation);
    rd = magdyn_quat_to_mat3(dst->orientation);
    rel = magdyn_mat3_mul(magdyn_mat3_transpose(rs), rd);   /* dst body -> src body */
    /* rel must be a signed permutation */
    for (a = 0; a < 3; a++)
        for (b = 0; b < 3; b++) {
            double e = fabs(rel.m[a][b]);
            if (e > tol && fabs(e - 1.0) > tol) return MAGDYN_EINVAL;
        }
    /* dst half extents and polarization in src's frame */
    h2 = magdyn_v3(0, 0, 0);
    for (a = 0; a < 3; a++) {
        double h = 0.0;
        for (b = 0; b < 3; b++) h += fabs(rel.m[a][b]) > 0.5 ? cf_comp(dst->half, b) : 0.0;
        if (a == 0) h2.x = h; else if (a == 1) h2.y = h; else h2.z = h;
    }
    j2 = magdyn_mat3_mulv(rel, dst->polarization);
    j1 = src->polarization;
    n1 = magdyn_vec3_norm(j1);
    n2 = magdyn_vec3_norm(j2);
    if (n1 == 0.0 || n2 == 0.0) {
        if (force) *force = magdyn_v3(0, 0, 0);
        if (torque) *torque = magdyn_v3(0, 0, 0);
        return MAGDYN_OK;
    }
    /* both along axis ks: the other components vanish (within tol) */
    for (k = 0; k < 3; k++)
        if (fabs(cf_comp(j1, k)) > tol * n1) {
            if (ks >= 0) return MAGDYN_EINVAL;
            ks = k;
        }
    for (k = 0; k < 3; k++)
        if (k != ks && fabs(cf_comp(j2, k)) > tol * n2) return MAGDYN_EINVAL;
    d = magdyn_mat3_mulv(magdyn_mat3_transpose(rs), magdyn_vec3_sub(dst->center, src->center));
    t = magdyn_v3(0, 0, 0);
    force_torque_zz(cycle_to_z(src->half, ks), cycle_to_z(h2, ks), cycle_to_z(d, ks),
                    cf_comp(j1, ks) * cf_comp(j2, ks), &f, torque ? &t : NULL);
    /* extreme input (boxes ~1e270 m apart, polarizations ~1e300 T) makes
     * the corner terms overflow to Inf - Inf = NaN (found by fuzzing):
     * a status, outputs untouched */
    if (!(isfinite(f.x) && isfinite(f.y) && isfinite(f.z) && isfinite(t.x) && isfinite(t.y)
          && isfinite(t.z)))
        return MAGDYN_ENOCONV;
    if (force) *force = magdyn_mat3_mulv(rs, cycle_from_z(f, ks));
    if (torque) *torque = magdyn_mat3_mulv(rs, cycle_from_z(t, ks));
    return MAGDYN_OK;
}
