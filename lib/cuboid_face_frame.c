/* cuboid_face_frame.c - see cuboid_face_frame.h. */
#include <math.h>
#include "cuboid_face_frame.h"
#include "cuboid_axes.h"

/* Below this sine of their angle, a face of dst and a face of src count
 * as parallel (their planes' common line would lie far away). */
#define PARALLEL_SIN 0.01
/* Parallel faces count as coplanar when src's face lies within this share
 * of rel_tol times dst's half diagonal of dst's face's plane. */
#define COPLANAR 1e-3
/* Parallel faces apart take the solid angle's term when src's face lies
 * at one height from dst's face to within this share of dst's half
 * diagonal (their normals agree to rounding). */
#define PARALLEL_TILT 1e-12

/* The corners of dst's face f in src's frame, anticlockwise about its
 * outward normal *n; *fc its centre. */
void mdc_face_corners(const mdc_bnd_problem *p, int f, magdyn_vec3 corner[4], magdyn_vec3 *n,
                      magdyn_vec3 *fc)
{
    static const double cs[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    int ax = f / 2, a1 = (ax + 1) % 3, a2 = (ax + 2) % 3, k;
    double sp = (f & 1) ? -1.0 : 1.0;
    magdyn_vec3 u1 = magdyn_mat3_mulv(p->rel, cf_axis(a1, cf_comp(p->half_d, a1)));
    magdyn_vec3 u2 = magdyn_mat3_mulv(p->rel, cf_axis(a2, cf_comp(p->half_d, a2)));
    *n = magdyn_mat3_mulv(p->rel, cf_axis(ax, sp));
    *fc = magdyn_vec3_madd(p->t, cf_comp(p->half_d, ax), *n);
    for (k = 0; k < 4; k++) {
        int kk = sp > 0.0 ? k : 3 - k;    /* the - face runs the other way round */
        corner[k] = magdyn_vec3_add(*fc, magdyn_vec3_add(magdyn_vec3_scale(u1, cs[kk][0]),
                                                         magdyn_vec3_scale(u2, cs[kk][1])));
    }
}

/* The corners of dst's face f as corner numbers (bit a set: the - side
 * of axis a), in mdc_face_corners' order. */
void mdc_face_corner_ids(int f, int id[4])
{
    static const int cs[4][2] = {{1, 1}, {0, 1}, {0, 0}, {1, 0}};    /* bit set: - side */
    int ax = f / 2, a1 = (ax + 1) % 3, a2 = (ax + 2) % 3, k;
    for (k = 0; k < 4; k++) {
        int kk = (f & 1) ? 3 - k : k;
        id[k] = (f & 1) << ax | cs[kk][0] << a1 | cs[kk][1] << a2;
    }
}

/*
 * The area term of the torque, sigma_f int_Q (A_t) dA = sigma_f sum_g
 * (jx_g)_t I_g with I_g = int_Q Phi_g dA = int_Q int_P_g dA dA' / |q - q'|,
 * goes to line integrals by homogeneity: scaling both faces about a point
 * O of Q's plane scales I_g by lambda^3; at lambda = 1 the derivative moves
 * their edges (Reynolds) and P_g's plane along its normal by its height z
 * above O, so
 *     3 I_g = oint_dQ (q - O).nu Phi_g ds + oint_dP (p - O).nu_P Phi_Q dl
 *             + z int_P d/dn Phi_Q dA',
 * with (q - O).nu constant along each edge.  O on both planes (their common
 * line, at its point nearest Q's centre fc) leaves the first two.  Planes
 * parallel and one (to within COPLANAR) take O = fc, z = 0; parallel and
 * apart, O = fc and the last term -|z| int_Q Omega_P dA (Omega_P the solid
 * angle of P_g), a line integral too (cf_boundary_gap): returns 2 and
 * *z = |z|.  Planes at an angle below PARALLEL_SIN apart would put O far
 * off and the normal derivative's integral is no solid angle: 0 (the
 * caller falls back to the face cubature).
 */
int mdc_pair_origin(const mdc_bnd_problem *p, magdyn_vec3 n, magdyn_vec3 fc, int g, magdyn_vec3 *o, double *z)
{
    int a = g / 2, a1 = (a + 1) % 3, a2 = (a + 2) % 3, k;
    double sg = (g & 1) ? -1.0 : 1.0, d1 = magdyn_vec3_dot(n, fc), d2 = cf_comp(p->half_s, a), u2, hmin = INFINITY,
           hmax = -INFINITY;
    magdyn_vec3 ng = cf_axis(a, sg), u = magdyn_vec3_cross(n, ng);
    u2 = magdyn_vec3_norm2(u);
    *z = 0.0;
    if (u2 >= PARALLEL_SIN * PARALLEL_SIN) {
        magdyn_vec3 o0 = magdyn_vec3_scale(magdyn_vec3_add(magdyn_vec3_scale(magdyn_vec3_cross(ng, u), d1),
                                                           magdyn_vec3_scale(magdyn_vec3_cross(u, n), d2)),
                                           1.0 / u2);
        *o = magdyn_vec3_madd(o0, magdyn_vec3_dot(magdyn_vec3_sub(fc, o0), u) / u2, u);
        return 1;
    }
    for (k = 0; k < 4; k++) {
        magdyn_vec3 x = magdyn_vec3_add(cf_axis(a, sg * cf_comp(p->half_s, a)),
                                        magdyn_vec3_add(cf_axis(a1, (k & 1 ? -1.0 : 1.0) * cf_comp(p->half_s, a1)),
                                                        cf_axis(a2, (k & 2 ? -1.0 : 1.0) * cf_comp(p->half_s, a2))));
        double h = magdyn_vec3_dot(n, x) - d1;
        hmin = fmin(hmin, h);
        hmax = fmax(hmax, h);
    }
    *o = fc;
    if (fmax(fabs(hmin), fabs(hmax)) <= COPLANAR * p->rel_tol * p->lever) return 1;
    if (hmax - hmin > PARALLEL_TILT * p->lever) return 0;
    *z = fabs(0.5 * (hmin + hmax));
    return 2;
}
