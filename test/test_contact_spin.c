/*
 * test_contact_spin.c - lib/contact_spin.h: the second-order part of a
 * contact point's path under a drift, against magdyn_body_drift itself.
 *
 * Reference: the gap of a point of a on a face of b is g = n . (x_a - x_b)
 * with n turning with b; its Taylor series over a drift of h is
 * h n . du + h^2/2 (n . (a_a - a_b) + 2 n' . du) + O(h^3), the
 * accelerations the centripetal omega x (omega x r) of each spin and
 * n' = omega_b x n (for two edges, n along e_a x e_b turns with both).
 * The drift rotates exactly (Rodrigues), so the offset of a material point
 * beyond h omega x r is known in closed form and must match the drift to
 * rounding, and the predicted gap must miss the drift's by O(h^3): a
 * quarter of h, a 64th of the miss (a 16th would be second order).
 */
#include <check.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"
#include "../lib/contact_spin.h"

/* Feature numbers of contact.h: f = (s_x + 1) + 3 (s_y + 1) + 9 (s_z + 1). */
static unsigned int feature(int sx, int sy, int sz)
{
    return (unsigned int)((sx + 1) + 3 * (sy + 1) + 9 * (sz + 1));
}

static unsigned int pair_id(unsigned int fa, unsigned int fb)
{
    return (fa + 1) | (fb + 1) << 8;
}

static magdyn_body cube(magdyn_vec3 at, magdyn_vec3 v, magdyn_vec3 omega, magdyn_quat q)
{
    magdyn_body b;
    ck_assert_int_eq(magdyn_body_init(&b, magdyn_v3(0.005, 0.005, 0.005), 0.0075, at, q, false), MAGDYN_OK);
    b.velocity = v;
    b.omega = omega;
    return b;
}

/* The body-frame coordinates of the inertial point p of b. */
static magdyn_vec3 body_point(const magdyn_body *b, magdyn_vec3 p)
{
    return magdyn_quat_rotate_inv(b->orientation, magdyn_vec3_sub(p, b->position));
}

static magdyn_vec3 inertial_point(const magdyn_body *b, magdyn_vec3 pb)
{
    return magdyn_vec3_add(b->position, magdyn_quat_rotate(b->orientation, pb));
}

START_TEST(offset_is_the_drift)
{
    magdyn_body b = cube(magdyn_v3(0.1, 0.2, 0.3), magdyn_v3(0.1, 0, 0), magdyn_v3(30, -50, 20),
                         magdyn_quat_identity());
    magdyn_vec3 p = magdyn_v3(0.105, 0.195, 0.305), pb = body_point(&b, p);
    double h;
    for (h = 1e-2; h > 1e-7; h *= 0.1) {
        magdyn_body e = b;
        magdyn_vec3 r = magdyn_vec3_sub(p, b.position), moved, first, off;
        magdyn_body_drift(&e, h);
        moved = magdyn_vec3_sub(inertial_point(&e, pb), p);
        first = magdyn_vec3_scale(magdyn_vec3_add(b.velocity, magdyn_vec3_cross(b.omega, r)), h);
        off = contact_spin_offset(&b, p, h);
        /* the drift's rounding is that of positions of 0.3 m: 1e-16 of it */
        ck_assert_double_le(magdyn_vec3_dist(magdyn_vec3_sub(moved, first), off), 1e-16);
    }
    b.fixed = true;
    ck_assert_double_eq(magdyn_vec3_norm(contact_spin_offset(&b, p, 1e-3)), 0.0);
}
END_TEST

/* The miss of the predicted gap of point 0 of m after a drift of h, where
 * the gap is n(h) . (x_a - x_b) with the material points of a and b at
 * m's point and n(h) from normal_at. */
typedef magdyn_vec3 (*normal_fn)(const magdyn_body *a, const magdyn_body *b);

static double miss(const magdyn_body *a, const magdyn_body *b, const magdyn_manifold *m, normal_fn normal_at,
                   double h, double *first_order_miss)
{
    magdyn_body ae = *a, be = *b;
    magdyn_vec3 p = m->point[0], pa = body_point(a, p), pb = body_point(b, p), du;
    double gap, lin;
    magdyn_body_drift(&ae, h);
    magdyn_body_drift(&be, h);
    gap = magdyn_vec3_dot(normal_at(&ae, &be), magdyn_vec3_sub(inertial_point(&ae, pa), inertial_point(&be, pb)));
    du = magdyn_vec3_sub(magdyn_body_point_velocity(a, p), magdyn_body_point_velocity(b, p));
    lin = h * magdyn_vec3_dot(m->normal, du);
    *first_order_miss = gap - lin;
    return gap - (lin - contact_spin_sink(a, b, m, 0, h) - contact_turn_sink(a, b, m, 0, h));
}

/* b's face +z, turned with b */
static magdyn_vec3 face_of_b(const magdyn_body *a, const magdyn_body *b)
{
    (void)a;
    return magdyn_quat_rotate(b->orientation, magdyn_v3(0, 0, 1));
}

/* a's face -z, outward towards b: the normal from b towards a is +z */
static magdyn_vec3 face_of_a(const magdyn_body *a, const magdyn_body *b)
{
    (void)b;
    return magdyn_quat_rotate(a->orientation, magdyn_v3(0, 0, 1));
}

/* a's edge along y crossing b's edge along x, n = -(e_a x e_b) */
static magdyn_vec3 edges(const magdyn_body *a, const magdyn_body *b)
{
    magdyn_vec3 c = magdyn_vec3_cross(magdyn_quat_rotate(a->orientation, magdyn_v3(0, 1, 0)),
                                      magdyn_quat_rotate(b->orientation, magdyn_v3(1, 0, 0)));
    return magdyn_vec3_scale(c, -1.0 / magdyn_vec3_norm(c));
}

/* The predicted gap misses by O(h^3) while the first-order one misses by
 * O(h^2): a at a_at and b at b_at (turning and sliding the same way in
 * every case) touch at point, of the given kind and feature id, the
 * normal +z at the start and normal_at after. */
static void third_order(magdyn_vec3 a_at, magdyn_vec3 b_at, magdyn_contact_kind kind, magdyn_vec3 point,
                        unsigned int id, normal_fn normal_at)
{
    magdyn_body a = cube(a_at, magdyn_v3(0.3, -0.2, 0), magdyn_v3(20, -35, 50), magdyn_quat_identity());
    magdyn_body b = cube(b_at, magdyn_v3(-0.1, 0.1, 0), magdyn_v3(-40, 25, 30), magdyn_quat_identity());
    magdyn_manifold m = {0};
    double h = 2.5e-4, m1, m2, f1, f2;
    m.kind = kind;
    m.normal = magdyn_v3(0, 0, 1);
    m.count = 1;
    m.point[0] = point;
    m.id[0] = id;
    m1 = miss(&a, &b, &m, normal_at, h, &f1);
    m2 = miss(&a, &b, &m, normal_at, 0.25 * h, &f2);
    /* the first-order gap misses by h^2 terms: a 16th, and much more than
       the prediction */
    ck_assert_double_gt(fabs(f2), fabs(f1) / 20.0);
    ck_assert_double_lt(fabs(m1), 0.05 * fabs(f1));
    /* the prediction: a quarter of h, about a 64th of the miss */
    ck_assert_double_lt(fabs(m2), fabs(m1) / 40.0);
}

START_TEST(corner_on_a_face_of_b)
{
    third_order(magdyn_v3(0, 0, 0.005), magdyn_v3(0, 0, -0.005), MAGDYN_CONTACT_EDGE_FACE,
                magdyn_v3(0.005, 0.005, 0), pair_id(feature(1, 1, -1), feature(0, 0, 1)), face_of_b);
}
END_TEST

START_TEST(corner_on_a_face_of_a)
{
    /* flush faces: the feature ids, not the boxes' axes, say whose face */
    third_order(magdyn_v3(0, 0, 0.005), magdyn_v3(0.002, 0.001, -0.005), MAGDYN_CONTACT_FACE_FACE,
                magdyn_v3(0.007, 0.006, 0), pair_id(feature(0, 0, -1), feature(1, 1, 1)), face_of_a);
}
END_TEST

START_TEST(edge_on_an_edge)
{
    third_order(magdyn_v3(-0.005, 0, 0.005), magdyn_v3(0, -0.005, -0.005), MAGDYN_CONTACT_EDGE_EDGE,
                magdyn_v3(0, 0, 0), pair_id(feature(1, 0, -1), feature(0, 1, 1)), edges);
}
END_TEST

/* A body spinning about the contact normal (a top on a plate) moves its
 * contact points in the plane: nothing to hold. */
START_TEST(spin_about_the_normal_sinks_nothing)
{
    magdyn_body a = cube(magdyn_v3(0, 0, 0.005), magdyn_v3(0, 0, 0), magdyn_v3(0, 0, 300), magdyn_quat_identity());
    magdyn_body b = cube(magdyn_v3(0, 0, -0.005), magdyn_v3(0, 0, 0), magdyn_v3(0, 0, 0), magdyn_quat_identity());
    magdyn_manifold m = {0};
    b.fixed = true;
    m.kind = MAGDYN_CONTACT_FACE_FACE;
    m.normal = magdyn_v3(0, 0, 1);
    m.count = 1;
    m.point[0] = magdyn_v3(0.005, -0.005, 0);
    m.id[0] = pair_id(feature(1, -1, -1), feature(0, 0, 1));
    ck_assert_double_le(fabs(contact_spin_sink(&a, &b, &m, 0, 1e-3)), 1e-18);
    ck_assert_double_le(fabs(contact_turn_sink(&a, &b, &m, 0, 1e-3)), 1e-18);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("contact_spin");
    TCase *tc = tcase_create("spin");
    tcase_add_test(tc, offset_is_the_drift);
    tcase_add_test(tc, corner_on_a_face_of_b);
    tcase_add_test(tc, corner_on_a_face_of_a);
    tcase_add_test(tc, edge_on_an_edge);
    tcase_add_test(tc, spin_about_the_normal_sinks_nothing);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
