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
#include <magdyn/dipole.h>

/* c ln(r - u), with the limit 0 when c = 0 and no cancellation for u > 0 */
static double c_log_r_minus(double c, double u, double p2, double r)
{
    double arg;
    if (c == 0.0) return 0.0;
    arg = (u > 0.0) ? p2 / (r + u) : r - u;
    return arg > 0.0 ? c * log(arg) : 0.0;   /* arg = 0 only with c = 0 in exact arithmetic */
}

/* phi at one combination of edges; wsign gives the side of w = 0 */
static magdyn_vec3 phi(double u, double v, double w, double wsign)
{
    double uu = u * u, vv = v * v, ww = w * w, r = sqrt(uu + vv + ww);
    double lu_coef_x = 0.5 * (vv - ww), uv = u * v, at;
    magdyn_vec3 f;
    if (uv == 0.0) at = 0.0;
    else if (w == 0.0) at = copysign(0.5 * MAGDYN_PI, uv * wsign);
    else at = atan(uv / (r * w));
    f.x = c_log_r_minus(lu_coef_x, u, vv + ww, r) + c_log_r_minus(uv, v, uu + ww, r)
        + v * w * at + 0.5 * r * u;
    f.y = c_log_r_minus(0.5 * (uu - ww), v, uu + ww, r) + c_log_r_minus(uv, u, vv + ww, r)
        + u * w * at + 0.5 * r * v;
    f.z = -c_log_r_minus(u * w, u, vv + ww, r) - c_log_r_minus(v * w, v, uu + ww, r)
        + uv * at - r * w;
    return f;
}

/* Both along z: src centred at 0 with half sides h1, dst at d with h2. */
static magdyn_vec3 force_zz(magdyn_vec3 h1, magdyn_vec3 h2, magdyn_vec3 d, double j1j2)
{
    magdyn_vec3 f = magdyn_v3(0.0, 0.0, 0.0);
    double wsign = d.z < 0.0 ? -1.0 : 1.0;
    int i, j, k, l, p, q;
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            double u = d.x + (j ? -h2.x : h2.x) - (i ? -h1.x : h1.x);
            for (k = 0; k < 2; k++)
                for (l = 0; l < 2; l++) {
                    double v = d.y + (l ? -h2.y : h2.y) - (k ? -h1.y : h1.y);
                    for (p = 0; p < 2; p++)
                        for (q = 0; q < 2; q++) {
                            double w = d.z + (q ? -h2.z : h2.z) - (p ? -h1.z : h1.z);
                            double s = ((i + j + k + l + p + q) & 1) ? -1.0 : 1.0;
                            f = magdyn_vec3_madd(f, s, phi(u, v, w, wsign));
                        }
                }
        }
    return magdyn_vec3_scale(f, j1j2 / (4.0 * MAGDYN_PI * MAGDYN_MU0));
}

static double comp(magdyn_vec3 v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

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

magdyn_status magdyn_cuboid_force_parallel(const magdyn_cuboid *src, const magdyn_cuboid *dst,
                                           magdyn_vec3 *force)
{
    magdyn_mat3 rs, rd, rel;
    magdyn_vec3 d, h2, j2, j1;
    double tol = 1e-12, n1, n2;
    int k, a, b, ks = -1;
    magdyn_status s;
    if (!src || !dst || !force) return MAGDYN_EINVAL;
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
        for (b = 0; b < 3; b++) h += fabs(rel.m[a][b]) * comp(dst->half, b);
        if (a == 0) h2.x = h; else if (a == 1) h2.y = h; else h2.z = h;
    }
    j2 = magdyn_mat3_mulv(rel, dst->polarization);
    j1 = src->polarization;
    n1 = magdyn_vec3_norm(j1);
    n2 = magdyn_vec3_norm(j2);
    if (n1 == 0.0 || n2 == 0.0) { *force = magdyn_v3(0, 0, 0); return MAGDYN_OK; }
    /* both along axis ks: the other components vanish (within tol) */
    for (k = 0; k < 3; k++)
        if (fabs(comp(j1, k)) > tol * n1) {
            if (ks >= 0) return MAGDYN_EINVAL;
            ks = k;
        }
    for (k = 0; k < 3; k++)
        if (k != ks && fabs(comp(j2, k)) > tol * n2) return MAGDYN_EINVAL;
    d = magdyn_mat3_mulv(magdyn_mat3_transpose(rs), magdyn_vec3_sub(dst->center, src->center));
    {
        magdyn_vec3 f = force_zz(cycle_to_z(src->half, ks), cycle_to_z(h2, ks), cycle_to_z(d, ks),
                                 comp(j1, ks) * comp(j2, ks));
        *force = magdyn_mat3_mulv(rs, cycle_from_z(f, ks));
    }
    return MAGDYN_OK;
}
