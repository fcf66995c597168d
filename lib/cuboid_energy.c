/*
 * cuboid_energy.c - interaction energy of two uniformly magnetised boxes
 * as extended bodies, to a requested relative accuracy.
 *
 * With M_dst uniform and dst outside src (touching allowed), B_src = -mu0
 * grad phi_src over dst, and the divergence theorem turns the volume
 * integral into one over dst's charged faces:
 *     E = -int_dst M_dst . B_src dV = mu0 oint_dst sigma_dst phi_src dA
 *       = 1 / (4 pi mu0) sum_f sum_g (J_dst . n_f) (J_src . n_g)
 *             int_f int_g dA' dA / |r - r'|,
 * where the inner integral (the potential of src's face g) is closed form.
 * Why the faces rather than the volume: B_src jumps across the planes of
 * src's charged faces and has logarithms along its edges, so near contact
 * a volume integrand of J.B has near-discontinuities just inside dst,
 * which the embedded error estimate of a cubature rule misjudges (measured
 * 8e-4 relative off at a requested 1e-4, two touching cubes).  The
 * potential is continuous everywhere; at worst its gradient has logarithms
 * along src's edges, kinks that the estimate sees and bisection grades.
 *
 * Far from src's edges (FAR_RATIO half diagonals of dst) J.B_src is
 * analytic over dst and a 6^3-point Gauss product rule over its volume is
 * accurate to ~1e-11 relative (measured ~1e-7 at 2 half diagonals, falling
 * as (distance)^-12), with no adaptivity.
 *
 * The faces are integrated by the adaptive Genz-Malik cubature of
 * cuboid_cubature.c: a degree-7 rule of 17 points per rectangle with an
 * embedded degree-5 rule for the error, the worst rectangle halved until
 * the summed estimate meets the tolerance.  Where
 * src's edges pass close beside a region (a corner of src a fraction of
 * the region's size away) both rules are still far from their asymptotic
 * regime, and |degree 7 - degree 5| can understate the error of the
 * degree-7 value 10-40 times (measured against a reference at 1e-9, random
 * pairs touching or up to 1 mm apart); the estimate is therefore taken 10
 * times over (E_SAFE), which met the tolerance in all of 300 random pairs
 * at 1e-4, 1e-5 and 1e-6 (worst true error 0.8 of the tolerance).
 *
 * A region wider than its distance from src is not trusted at all,
 * whatever its estimate: src's charged faces, whose potential varies on the
 * scale of that distance, can then lie between the rule's points, and
 * both rules miss them alike (a 10 mm cube's face 4 mm from a tilted 5 mm
 * cube, one region: 1.8e-3 off, estimated 1e-4; found by fuzz_pile).  So
 * a region whose half diagonal exceeds ADMIT_RATIO times the distance of
 * its centre from src (or ADMIT_FLOOR times dst's half diagonal, which
 * keeps contact from forcing regions without end) counts its whole value
 * as its error, and is halved across its longer side.  Measured on 1000
 * random pairs of N42 boxes 2-10 mm across, both orders, against 1e-9,
 * at 1e-2, 1e-3 and 1e-4: 0-5 mm apart, the worst error fell from 11.8,
 * 15.7 and 2.6 times the tolerance to 0.21, 0.59 and 0.29 times, for 2.1,
 * 1.2 and 1.0 times the time; touching, from 50, 7.4 and 7.5 times to
 * 0.18, 0.68 and 1.03 times, for 2.4, 1.3 and 1.0 times the time.
 */
#include <math.h>
#include "detmath.h"
#include "cuboid_cubature.h"
#include "cuboid_energy.h"
#include "cuboid_potential.h"
#include "cuboid_pose.h"
#include "cuboid_axes.h"

#define E_REGIONS 32768          /* region budget */
#define E_FLOOR 1e-12            /* rounding floor, relative to sum |region| */
#define E_ABS 1e-9               /* absolute floor, relative to rel_tol x the energy scale */
#define E_SAFE 10.0              /* see the note above */
#define FAR_RATIO 4.0
#define FAR_MIN_TOL 1e-10
#define ADMIT_RATIO 0.6
#define ADMIT_FLOOR 0.3

typedef struct {
    magdyn_mat3 rel;             /* dst body -> src body */
    magdyn_vec3 t;               /* dst centre in src's body frame */
    magdyn_vec3 half_s, half_d;
    double js[6], jd[6];         /* J . n on each face [T], src and dst */
} problem;


/* J_d.n_f sum_g J_s.n_g int_g dA'/|r - r'| times the area element, at the
 * scaled point (s, t) of dst face f */
static void integrand(const void *ctx, int f, double s, double t, double *out)
{
    const problem *pb = ctx;
    int ax = f / 2, a1 = (ax + 1) % 3, a2 = (ax + 2) % 3, g;
    double h1 = cf_comp(pb->half_d, a1), h2 = cf_comp(pb->half_d, a2), c[3], phi = 0.0;
    magdyn_vec3 rs;
    c[ax] = ((f & 1) ? -1.0 : 1.0) * cf_comp(pb->half_d, ax);
    c[a1] = h1 * s;
    c[a2] = h2 * t;
    rs = magdyn_vec3_add(magdyn_mat3_mulv(pb->rel, magdyn_v3(c[0], c[1], c[2])), pb->t);
    for (g = 0; g < 6; g++)
        if (pb->js[g] != 0.0) phi += pb->js[g] * mdc_face_potential(pb->half_s, g, rs);
    out[0] = pb->jd[f] * h1 * h2 * phi;
}

/* The tolerance of the face integrals: rel_tol of their sum, a rounding
 * floor, and an absolute floor of E_ABS rel_tol of the pair's energy scale
 * (floor, in the integrals' units), without which a pair whose energy
 * vanishes by symmetry (perpendicular polarizations side by side; found
 * by fuzz_pile) refines to the region budget and fails. */
typedef struct {
    double rel_tol, floor;
} tolerance;

static int check_totals(void *ctx, const double *sum, const double err[2], const double mass[2],
                        double tol[2])
{
    const tolerance *tl = ctx;
    tol[0] = tl->rel_tol * fabs(sum[0]) + E_FLOOR * mass[0] + tl->floor;
    tol[1] = 1.0;
    return err[0] <= tol[0] ? MDC_CUB_DONE : MDC_CUB_SPLIT;
}

/* Whether the rules can be trusted on the rectangle [s0, s1] x [t0, t1]
 * of dst face f (see the note at the top): 0, or the side to halve. */
static int coarse(const void *ctx, int f, double s0, double s1, double t0, double t1)
{
    const problem *pb = ctx;
    return mdc_pose_region_coarse(pb->rel, pb->t, pb->half_s, pb->half_d, f, s0, s1, t0, t1, ADMIT_RATIO,
                                  ADMIT_FLOOR);
}

/* Globally adaptive cubature over dst's charged faces: sum_f int_f
 * integrand dA [T^2 m^3], or MAGDYN_ENOCONV / MAGDYN_ENOMEM. */
static magdyn_status faces_adaptive(const problem *pb, double rel_tol, double scale, double *out)
{
    mdc_cub_start start[6];
    mdc_cub_problem cp;
    tolerance tl;
    int n = 0, f;
    for (f = 0; f < 6; f++) {
        if (pb->jd[f] == 0.0) continue;
        start[n].s0 = start[n].t0 = -1.0;
        start[n].s1 = start[n].t1 = 1.0;
        start[n].face = f;
        start[n].rule = MDC_CUB_AREA;
        start[n].quad = 0;
        n++;
    }
    cp.f = integrand;
    cp.f_n = NULL;
    cp.ctx = pb;
    cp.nval = 1;
    cp.split = 1;
    cp.safety = E_SAFE;
    cp.max_regions = E_REGIONS;
    cp.check = check_totals;
    cp.coarse = coarse;
    tl.rel_tol = rel_tol;
    tl.floor = E_ABS * rel_tol * scale * 4.0 * MAGDYN_PI * MAGDYN_MU0;   /* E = sum / (4 pi mu0) */
    cp.check_ctx = &tl;
    return mdc_cubature(&cp, start, n, out);
}

/* ---- far from src: the volume integral by a fixed rule ------------------- */

/* Distance [m] of the point r (src's body frame) from src's nearest edge. */
static double edge_distance(magdyn_vec3 h, magdyn_vec3 r)
{
    double ax = fabs(r.x) - h.x, ay = fabs(r.y) - h.y, az = fabs(r.z) - h.z;
    double px = fmax(ax, 0.0), py = fmax(ay, 0.0), pz = fmax(az, 0.0);
    return fmin(fmin(sqrt(px * px + ay * ay + az * az), sqrt(ax * ax + py * py + az * az)),
                sqrt(ax * ax + ay * ay + pz * pz));
}

/* 6^3-point Gauss-Legendre product rule over dst's volume: the integral of
 * J_dst . B_src [T^2 m^3]; jd is J_dst in src's frame */
static double volume_gauss(const problem *pb, const magdyn_cuboid *src, magdyn_vec3 jd)
{
    static const double x[6] = {-0.9324695142031521, -0.6612093864662645, -0.2386191860831969,
                                0.2386191860831969, 0.6612093864662645, 0.9324695142031521};
    static const double w[6] = {0.1713244923791704, 0.3607615730481386, 0.4679139345726910,
                                0.4679139345726910, 0.3607615730481386, 0.1713244923791704};
    double sum = 0.0;
    int a, b, k;
    for (a = 0; a < 6; a++)
        for (b = 0; b < 6; b++)
            for (k = 0; k < 6; k++) {
                magdyn_vec3 u = magdyn_v3(x[a] * pb->half_d.x, x[b] * pb->half_d.y, x[k] * pb->half_d.z);
                magdyn_vec3 r = magdyn_vec3_add(pb->t, magdyn_mat3_mulv(pb->rel, u));
                sum += w[a] * w[b] * w[k]
                       * magdyn_vec3_dot(jd, magdyn_cuboid_field(src->half, src->polarization, r));
            }
    return sum * pb->half_d.x * pb->half_d.y * pb->half_d.z;
}

magdyn_status mdc_cuboid_energy(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                                double *energy)
{
    problem pb;
    magdyn_mat3 rs = magdyn_quat_to_mat3(src->orientation), rd = magdyn_quat_to_mat3(dst->orientation);
    magdyn_mat3 rst = magdyn_mat3_transpose(rs);
    double e, tot;
    int f;
    magdyn_status s;
    pb.rel = magdyn_mat3_mul(rst, rd);
    pb.t = magdyn_mat3_mulv(rst, magdyn_vec3_sub(dst->center, src->center));
    pb.half_s = src->half;
    pb.half_d = dst->half;
    for (f = 0; f < 6; f++) {
        double sg = (f & 1) ? -1.0 : 1.0;
        pb.js[f] = sg * cf_comp(src->polarization, f / 2);
        pb.jd[f] = sg * cf_comp(dst->polarization, f / 2);
    }
    if (rel_tol >= FAR_MIN_TOL && edge_distance(src->half, pb.t) >= FAR_RATIO * magdyn_vec3_norm(dst->half)) {
        /* -int M.B dV = -(1/mu0) int J.B dV */
        e = -volume_gauss(&pb, src, magdyn_mat3_mulv(pb.rel, dst->polarization)) / MAGDYN_MU0;
    } else {
        /* the energy scale falls as ((L_s + L_d) / distance)^3, as the
         * dipole energy does */
        double scale = mdc_pair_scale(src, dst, magdyn_vec3_norm(pb.t), 3, 3);
        if ((s = faces_adaptive(&pb, rel_tol, scale, &tot)) != MAGDYN_OK) return s;
        e = tot / (4.0 * MAGDYN_PI * MAGDYN_MU0);
    }
    if (!isfinite(e)) return MAGDYN_ENOCONV;
    *energy = e;
    return MAGDYN_OK;
}
