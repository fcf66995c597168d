/*
 * cuboid_pose.c - the relative pose of two boxes, for cuboid_force.c and
 * cuboid_energy.c: how far apart they are along the separating axes,
 * whether it is aligned closely enough for the closed form of
 * cuboid_parallel.c, and which face regions lie too near the other box
 * for a cubature rule.
 */
#include <math.h>
#include "detmath.h"
#include "cuboid_cubature.h"
#include "cuboid_pose.h"
#include "cuboid_axes.h"

/* Faces whose normals agree to within this cosine (a tilt of 1.4e-7 rad,
 * a few times the rounding of the pose) count as parallel. */
#define PARALLEL_COS (1.0 - 1e-14)


/* Largest signed separation of the boxes over the 15 axes of the SAT, with
 * the axis (unit, pointing from src towards dst) in src's body frame. */
double mdc_pose_separation(magdyn_mat3 rel, magdyn_vec3 t, magdyn_vec3 half_s, magdyn_vec3 half_d,
                           magdyn_vec3 *axis_out)
{
    magdyn_vec3 axes[15], best = magdyn_v3(0, 0, 1);
    double sep = -INFINITY;
    int n = 0, i, j;
    for (i = 0; i < 3; i++) {
        magdyn_vec3 e = magdyn_v3(i == 0, i == 1, i == 2);
        axes[n++] = e;
        axes[n++] = magdyn_v3(rel.m[0][i], rel.m[1][i], rel.m[2][i]);
    }
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            axes[n++] = magdyn_vec3_cross(magdyn_v3(i == 0, i == 1, i == 2),
                                          magdyn_v3(rel.m[0][j], rel.m[1][j], rel.m[2][j]));
    for (i = 0; i < n; i++) {
        magdyn_vec3 a = axes[i];
        double len = magdyn_vec3_norm(a), rs, rd, d, s;
        if (len < 1e-9) continue;     /* parallel edges: covered by the face axes */
        a = magdyn_vec3_scale(a, 1.0 / len);
        rs = half_s.x * fabs(a.x) + half_s.y * fabs(a.y) + half_s.z * fabs(a.z);
        rd = 0.0;
        for (j = 0; j < 3; j++) {
            magdyn_vec3 ej = magdyn_v3(rel.m[0][j], rel.m[1][j], rel.m[2][j]);
            rd += cf_comp(half_d, j) * fabs(magdyn_vec3_dot(a, ej));
        }
        d = magdyn_vec3_dot(a, t);
        s = fabs(d) - rs - rd;
        if (s > sep) { sep = s; best = d < 0 ? magdyn_vec3_neg(a) : a; }
    }
    *axis_out = best;
    return sep;
}

/*
 * The Akoun-Yonnet fast path (cuboid_parallel.c) when it applies: the
 * relative rotation is within snap = 0.01 rel_tol of a signed axis
 * permutation and both polarizations are within snap of one common axis.
 * The snapped boxes then differ from the real ones by edge displacements
 * of snap L, which changes F and T by about that fraction (times a log
 * at contact), and snapping never creates an overlap (a tilted box reaches
 * further along every axis than the aligned one).  The closed form loses
 * about 3e-14 (d/L)^5 to cancellation (measured), so it is used only up to
 * d/L = (1e12 rel_tol)^(1/5), L the smaller half diagonal.
 * Returns 1 with the outputs written, or 0 to leave it to the cubature.
 */
int mdc_pose_closed_form(const magdyn_cuboid *src, const magdyn_cuboid *dst, magdyn_mat3 rel, magdyn_vec3 t,
                         double rel_tol, double ls, double ld, magdyn_vec3 *force, magdyn_vec3 *torque)
{
    double snap = 0.01 * rel_tol, js = magdyn_vec3_norm(src->polarization);
    double jd = magdyn_vec3_norm(dst->polarization);
    magdyn_mat3 perm;
    magdyn_cuboid s2 = *src, d2 = *dst;
    magdyn_vec3 f, tq;
    int a, b, k;
    if (magdyn_vec3_norm(t) > fmin(ls, ld) * md_pow(1e12 * rel_tol, 0.2)) return 0;
    for (a = 0; a < 3; a++) {
        int ones = 0;
        for (b = 0; b < 3; b++) {
            double e = rel.m[a][b], r = e > 0.5 ? 1.0 : (e < -0.5 ? -1.0 : 0.0);
            if (fabs(e - r) > snap) return 0;
            perm.m[a][b] = r;
            ones += r != 0.0;
        }
        if (ones != 1) return 0;
    }
    /* polarizations: keep the dominant component if the rest is below snap */
    for (k = 0; k < 2; k++) {
        magdyn_vec3 *j = k ? &d2.polarization : &s2.polarization;
        double n = k ? jd : js, c[3] = {j->x, j->y, j->z};
        int big = 0, m;
        for (m = 1; m < 3; m++) if (fabs(c[m]) > fabs(c[big])) big = m;
        for (m = 0; m < 3; m++) {
            if (m == big) continue;
            if (fabs(c[m]) > snap * n) return 0;
            c[m] = 0.0;
        }
        *j = magdyn_v3(c[0], c[1], c[2]);
    }
    /* in src's frame: src at the origin, unrotated; dst snapped */
    s2.center = magdyn_v3(0, 0, 0);
    s2.orientation = magdyn_quat_identity();
    d2.center = t;
    d2.orientation = magdyn_quat_from_mat3(perm);
    if (magdyn_cuboid_force_parallel(&s2, &d2, &f, &tq) != MAGDYN_OK) return 0;
    if (force) *force = magdyn_quat_rotate(src->orientation, f);
    if (torque) *torque = magdyn_quat_rotate(src->orientation, tq);
    return 1;
}

double mdc_pair_scale(const magdyn_cuboid *src, const magdyn_cuboid *dst, double dist, int size_power,
                      int fall_power)
{
    double ls = magdyn_vec3_norm(src->half), ld = magdyn_vec3_norm(dst->half);
    double e = magdyn_vec3_norm(src->polarization) * magdyn_vec3_norm(dst->polarization) / MAGDYN_MU0;
    int k;
    for (k = 0; k < size_power; k++) e *= ld;
    if (dist > ls + ld) e *= md_pow((ls + ld) / dist, fall_power);
    return e;
}

int mdc_pose_region_coarse(magdyn_mat3 rel, magdyn_vec3 t, magdyn_vec3 half_s, magdyn_vec3 half_d, int f,
                           double s0, double s1, double t0, double t1, double ratio, double floor)
{
    int ax = f / 2, a1 = (ax + 1) % 3, a2 = (ax + 2) % 3;
    double w1 = cf_comp(half_d, a1) * (s1 - s0), w2 = cf_comp(half_d, a2) * (t1 - t0), c[3];
    magdyn_vec3 r, out;
    c[ax] = ((f & 1) ? -1.0 : 1.0) * cf_comp(half_d, ax);
    c[a1] = cf_comp(half_d, a1) * 0.5 * (s0 + s1);
    c[a2] = cf_comp(half_d, a2) * 0.5 * (t0 + t1);
    r = magdyn_vec3_add(magdyn_mat3_mulv(rel, magdyn_v3(c[0], c[1], c[2])), t);
    out = magdyn_v3(fmax(fabs(r.x) - half_s.x, 0.0), fmax(fabs(r.y) - half_s.y, 0.0),
                    fmax(fabs(r.z) - half_s.z, 0.0));
    if (0.5 * md_hypot(w1, w2) <= ratio * fmax(magdyn_vec3_norm(out), floor * magdyn_vec3_norm(half_d)))
        return 0;
    return w1 >= w2 ? MDC_CUB_COARSE_S : MDC_CUB_COARSE_T;
}

/* Distance [m] from point q (dst's frame) to dst's face f. */
static double face_distance(magdyn_vec3 q, magdyn_vec3 half_d, int f)
{
    int ax = f / 2, a1 = (ax + 1) % 3, a2 = (ax + 2) % 3;
    double h = ((f & 1) ? -1.0 : 1.0) * cf_comp(half_d, ax);
    double d1 = fmax(fabs(cf_comp(q, a1)) - cf_comp(half_d, a1), 0.0);
    double d2 = fmax(fabs(cf_comp(q, a2)) - cf_comp(half_d, a2), 0.0);
    return md_hypot(cf_comp(q, ax) - h, md_hypot(d1, d2));
}

/* src's edge e (cf_edge_mid) in dst's frame, from end p[0] (- side of
 * its axis) to end p[1]. */
static void edge_in_dst(magdyn_mat3 inv, magdyn_vec3 t, magdyn_vec3 half_s, int e, magdyn_vec3 p[2])
{
    magdyn_vec3 mid = cf_edge_mid(half_s, e);
    int j;
    for (j = 0; j < 2; j++) {
        magdyn_vec3 c = mid;
        cf_set(&c, e / 4, (j ? 1.0 : -1.0) * cf_comp(half_s, e / 4));
        p[j] = magdyn_mat3_mulv(inv, magdyn_vec3_sub(c, t));
    }
}

static magdyn_vec3 lerp(const magdyn_vec3 p[2], double x)
{
    return magdyn_vec3_add(p[0], magdyn_vec3_scale(magdyn_vec3_sub(p[1], p[0]), x));
}

/* The nearest approach of segment p to face f: its parameter in [0, 1]
 * (the distance is convex along it: a ternary search) and distance. */
static double nearest_on_edge(const magdyn_vec3 p[2], magdyn_vec3 half_d, int f, double *x_out)
{
    double lo = 0.0, hi = 1.0;
    int it;
    for (it = 0; it < 60; it++) {
        double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
        if (face_distance(lerp(p, m1), half_d, f) <= face_distance(lerp(p, m2), half_d, f)) hi = m2;
        else lo = m1;
    }
    *x_out = 0.5 * (lo + hi);
    return face_distance(lerp(p, *x_out), half_d, f);
}

int mdc_pose_singular_point(magdyn_mat3 rel, magdyn_vec3 t, magdyn_vec3 half_s, magdyn_vec3 half_d, int f,
                            double near, double P[2], double dir[3][2], int *ndir)
{
    magdyn_mat3 inv = magdyn_mat3_transpose(rel);
    int ax = f / 2, a1 = (ax + 1) % 3, a2 = (ax + 2) % 3, k, best = -1, n = 0;
    double h1 = cf_comp(half_d, a1), h2 = cf_comp(half_d, a2), dbest = near, xbest = 0.0;
    double side = (f & 1) ? -1.0 : 1.0, hz = cf_comp(half_d, ax);
    magdyn_vec3 edge[12][2], q;
    for (k = 0; k < 12; k++) {
        const magdyn_vec3 *p = edge[k];
        double x, d, z0, z1;
        edge_in_dst(inv, t, half_s, k, edge[k]);
        /* an edge wholly beyond `near` of the face's plane, or of its
         * rectangle's sides, cannot come nearer */
        z0 = side * cf_comp(p[0], ax) - hz;
        z1 = side * cf_comp(p[1], ax) - hz;
        if ((z0 > dbest && z1 > dbest) || (z0 < -dbest && z1 < -dbest)
            || fmin(fabs(cf_comp(p[0], a1)), fabs(cf_comp(p[1], a1))) - h1 > dbest
            || fmin(fabs(cf_comp(p[0], a2)), fabs(cf_comp(p[1], a2))) - h2 > dbest)
            continue;
        d = nearest_on_edge(p, half_d, f, &x);
        if (d < dbest) {
            dbest = d;
            best = k;
            xbest = x;
        }
    }
    if (best < 0) return 0;
    q = lerp(edge[best], xbest);
    P[0] = fmin(fmax(cf_comp(q, a1) / h1, -1.0), 1.0);
    P[1] = fmin(fmax(cf_comp(q, a2) / h2, -1.0), 1.0);
    if (xbest > 1e-9 && xbest < 1.0 - 1e-9) {
        /* along the edge, both ways */
        const magdyn_vec3 *p = edge[best];
        double ds = (cf_comp(p[1], a1) - cf_comp(p[0], a1)) / h1, dt = (cf_comp(p[1], a2) - cf_comp(p[0], a2)) / h2;
        dir[0][0] = ds; dir[0][1] = dt;
        dir[1][0] = -ds; dir[1][1] = -dt;
        n = 2;
    } else {
        /* a corner of src: its three edges, away from it */
        magdyn_vec3 corner = edge[best][xbest < 0.5 ? 0 : 1];
        double tol = 1e-9 * magdyn_vec3_norm(half_s);
        for (k = 0; k < 12 && n < 3; k++) {
            magdyn_vec3 far;
            if (magdyn_vec3_dist(edge[k][0], corner) <= tol) far = edge[k][1];
            else if (magdyn_vec3_dist(edge[k][1], corner) <= tol) far = edge[k][0];
            else continue;
            dir[n][0] = (cf_comp(far, a1) - cf_comp(corner, a1)) / h1;
            dir[n][1] = (cf_comp(far, a2) - cf_comp(corner, a2)) / h2;
            n++;
        }
    }
    *ndir = n;
    return 1;
}

/* 1 when a charged face of dst is parallel to a charged face of src (to
 * within PARALLEL_COS) */
static int charged_faces_parallel(const magdyn_cuboid *src, const magdyn_cuboid *dst, magdyn_mat3 rel)
{
    int a, b;
    for (a = 0; a < 3; a++) {
        magdyn_vec3 n = magdyn_v3(rel.m[0][a], rel.m[1][a], rel.m[2][a]);   /* dst axis a, src frame */
        if (cf_comp(dst->polarization, a) == 0.0) continue;
        for (b = 0; b < 3; b++)
            if (cf_comp(src->polarization, b) != 0.0 && fabs(cf_comp(n, b)) >= PARALLEL_COS) return 1;
    }
    return 0;
}

int mdc_pose_lines_first(const magdyn_cuboid *src, const magdyn_cuboid *dst, magdyn_mat3 rel, double sep,
                         double near)
{
    return sep < near * fmin(magdyn_vec3_norm(src->half), magdyn_vec3_norm(dst->half))
           && !charged_faces_parallel(src, dst, rel);
}
