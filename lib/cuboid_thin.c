/*
 * cuboid_thin.c - forces between boxes of which one is very thin.
 *
 * The closed forms (Yang's field, Akoun & Yonnet's face pairs, the face
 * integrals of cuboid_face_cubature.c) subtract terms at +a and -a of a half
 * extent a and lose ~1e-16 / a (in half diagonals) of relative accuracy:
 * all of it for a plate 1e-16 of its size thick, whose force then comes
 * out as noise (a world with one stepped at 1e-13 s; fuzz/README).  At
 * fixed polarization the force and torque are odd in a (the box is
 * symmetric about its centre), so both are extrapolated from a1 =
 * THIN_HALF and 2 a1, where the closed forms are sound
 * (magdyn_ci_odd_extrapolate).  Only when the boxes are apart by THIN_GAP half
 * diagonals of the thin one (thickening it must not make them touch).
 *
 * Closer, a plate lying on (or crossing) the other box, thinner than the
 * distance within which the cubature takes faces for touching (1e-3
 * rel_tol of a half diagonal), is not resolved: plates 1e-12 to 1e-15 m
 * thick on a 10 mm cube came back with F / a wrong by factors from 5 to
 * 1e9 and status OK, and sheets 1e-211 m thick crossing ran for seconds
 * into ENOCONV (fuzz_field); nor is one so thin that the closed forms'
 * cancellation (1e-16 / a) eats the tolerance.  Both, when both boxes are
 * polarised, are refused at once with MAGDYN_ENOCONV by the cubature's
 * caller (a tolerance > 0).
 */
#include <float.h>
#include <math.h>
#include "cuboid_thin.h"

#define THIN_HALF MAGDYN_CI_THIN_HALF
#define THIN_GAP MAGDYN_CI_THIN_GAP

static int polarised(const magdyn_cuboid *c)
{
    return c->polarization.x != 0.0 || c->polarization.y != 0.0 || c->polarization.z != 0.0;
}

static double *half_k(magdyn_cuboid *c, int k) { return k == 0 ? &c->half.x : k == 1 ? &c->half.y : &c->half.z; }

/* Radius of box c projected on unit axis u. */
static double reach(const magdyn_cuboid *c, magdyn_vec3 u)
{
    magdyn_vec3 l = magdyn_quat_rotate_inv(c->orientation, u);
    return c->half.x * fabs(l.x) + c->half.y * fabs(l.y) + c->half.z * fabs(l.z);
}

/* A lower bound of the distance between the boxes: the largest gap of
 * their projections on the six face normals (each projection shortens). */
static double box_gap(const magdyn_cuboid *a, const magdyn_cuboid *b)
{
    static const magdyn_vec3 e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    magdyn_vec3 d = magdyn_vec3_sub(b->center, a->center);
    double gap = -INFINITY;
    int i, k;
    for (i = 0; i < 2; i++)
        for (k = 0; k < 3; k++) {
            magdyn_vec3 u = magdyn_quat_rotate((i ? b : a)->orientation, e[k]);
            double g = fabs(magdyn_vec3_dot(d, u)) - reach(a, u) - reach(b, u);
            if (g > gap) gap = g;
        }
    return gap;
}

/* Boxes src (box 0) and dst (box 1); axes from slot (3 box + k) on are
 * still to be looked at. */
static magdyn_status thin_from(magdyn_ci_pair_fn fn, magdyn_cuboid *box, double rel_tol,
                               magdyn_vec3 *force, magdyn_vec3 *torque, int slot)
{
    for (; slot < 6; slot++) {
        magdyn_cuboid *c = &box[slot / 3];
        double diag = magdyn_vec3_norm(c->half), *h = half_k(c, slot % 3), a = *h, a1, gap;
        magdyn_vec3 f1, t1, f2, t2;
        magdyn_status s;
        if (!(a > 0.0 && a < THIN_HALF * diag)) continue;
        gap = box_gap(&box[0], &box[1]);
        if (!(gap > THIN_GAP * diag)) {
            double touch = 1e-3 * rel_tol * diag;
            /* (rel_tol 0: the exact closed form of cuboid_parallel.c, not refused) */
            if (rel_tol > 0.0 && ((2.0 * a < touch && !(gap > touch)) || a * rel_tol < 64.0 * DBL_EPSILON * diag)
                && polarised(&box[0]) && polarised(&box[1]))
                return MAGDYN_ENOCONV;
            continue;
        }
        a1 = THIN_HALF * diag;
        /* the extrapolation at most doubles the two errors: half the tolerance each */
        *h = a1;
        s = thin_from(fn, box, 0.5 * rel_tol, &f1, &t1, slot + 1);
        if (s == MAGDYN_OK) {
            *h = 2.0 * a1;
            s = thin_from(fn, box, 0.5 * rel_tol, &f2, &t2, slot + 1);
        }
        *h = a;
        if (s != MAGDYN_OK) return s;
        *force = magdyn_ci_odd_extrapolate(f1, f2, a / a1);
        *torque = magdyn_ci_odd_extrapolate(t1, t2, a / a1);
        return MAGDYN_OK;
    }
    return fn(&box[0], &box[1], rel_tol, force, torque);
}

magdyn_status magdyn_ci_thin(magdyn_ci_pair_fn fn, const magdyn_cuboid *src,
                             const magdyn_cuboid *dst, double rel_tol, magdyn_vec3 *force,
                             magdyn_vec3 *torque)
{
    magdyn_cuboid box[2];
    box[0] = *src;
    box[1] = *dst;
    return thin_from(fn, box, rel_tol, force, torque, 0);
}
