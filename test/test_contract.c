/*
 * test_contract.c - the API contract of DESIGN.md, compiled and exercised as
 * an outside program would: every contract name, type, field and enum value
 * is used here with its documented meaning.  If this file stops compiling or
 * passing, the contract has changed (a major version bump).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <magdyn.h>
#include "testutil.h"

_Static_assert(MAGDYN_OK == 0 && MAGDYN_EINVAL == -1 && MAGDYN_ENONFINITE == -2 &&
               MAGDYN_ENOMEM == -3 && MAGDYN_ESTATE == -4, "status codes");
_Static_assert(MAGDYN_MAX_CONTACTS == 8, "manifold capacity");

START_TEST(common_and_vec)
{
    magdyn_vec2 a2 = {1.0, 2.0};
    magdyn_vec3 v = {1.0, 0.0, 0.0};
    magdyn_quat q = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 2), MAGDYN_PI / 2);
    magdyn_vec3 r = magdyn_quat_rotate(q, v);
    ck_assert_ptr_nonnull(magdyn_strerror(MAGDYN_EINVAL));
    ck_assert_ptr_nonnull(magdyn_version());
    ck_assert(a2.x == 1.0 && a2.y == 2.0);
    ck_assert(q.w > 0.7 && fabs(r.y - 1.0) < 1e-15);   /* q v q*: x -> y */
    ck_assert(fabs(MAGDYN_MU0 - 1.25663706212e-6) < 1e-20);
}
END_TEST

START_TEST(dipole)
{
    /* coaxial: B = mu0/(4 pi) 2 m / r^3 */
    magdyn_vec3 m = {0, 0, 1}, f, t;
    magdyn_vec3 b = magdyn_dipole_field(m, magdyn_v3(0, 0, 0.1));
    magdyn_cuboid src = {{0.005, 0.005, 0.005}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_cuboid dst = {{0.005, 0.005, 0.005}, {0, 0, 1.2}, {0, 0, 0.015}, {1, 0, 0, 0}};
    double u;
    ck_assert(fabs(b.z - MAGDYN_MU0 / (4 * MAGDYN_PI) * 2 / 1e-3) < 1e-18);
    magdyn_dipole_force_torque(m, magdyn_v3(0, 0, 0), m, magdyn_v3(0, 0, 0.1), &f, &t);
    ck_assert(f.z < 0);                                 /* attraction pulls m back */
    u = magdyn_dipole_energy(m, magdyn_v3(0, 0, 0), m, magdyn_v3(0, 0, 0.1));
    ck_assert(fabs(u + b.z) < 1e-15);                   /* -m.B */
    b = magdyn_cuboid_field(src.half, src.polarization, magdyn_v3(0, 0, 0));
    ck_assert(b.z > 0 && b.z < 1.2);                    /* inside, along J */
    ck_assert_int_eq(magdyn_cuboid_force_torque(&src, &dst, 1e-4, &f, &t), MAGDYN_OK);
    ck_assert(f.z < 0);                                 /* on dst, towards src */
    ck_assert_int_ne(magdyn_cuboid_force_torque(NULL, &dst, 1e-4, &f, &t), MAGDYN_OK);
}
END_TEST

START_TEST(sat_and_contact)
{
    magdyn_obb a = {{0, 0, 0.0195}, {1, 0, 0, 0}, {0.01, 0.01, 0.01}};
    magdyn_obb b = {{0, 0, 0}, {1, 0, 0, 0}, {0.01, 0.01, 0.01}};
    magdyn_sat_result s;
    magdyn_manifold mf;
    int n;
    ck_assert_int_eq(magdyn_obb_sat(&a, &b, &s), 1);
    ck_assert(s.overlap == 1 && fabs(s.separation + 0.0005) < 1e-12);
    ck_assert(fabs(s.normal.z - 1.0) < 1e-12);          /* from b towards a */
    ck_assert(s.axis >= 0 && s.axis <= 5);
    ck_assert_int_eq(magdyn_obb_sat(&a, &b, NULL), 1);
    n = magdyn_obb_manifold(&a, &b, 0.0, &mf);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(mf.count, 4);
    ck_assert(mf.kind == MAGDYN_CONTACT_FACE_FACE);
    ck_assert(fabs(mf.depth[0] - 0.0005) < 1e-12 && fabs(mf.normal.z - 1) < 1e-12);
    ck_assert(mf.point[0].z > 0.009 && mf.point[0].z < 0.0101);
    a.center.z = 0.03;
    ck_assert_int_eq(magdyn_obb_sat(&a, &b, &s), 0);
    ck_assert(s.separation > 0);
    ck_assert_int_eq(magdyn_obb_manifold(&a, &b, 0.0, &mf), 0);
    (void)MAGDYN_CONTACT_FACE_EDGE; (void)MAGDYN_CONTACT_EDGE_FACE; (void)MAGDYN_CONTACT_EDGE_EDGE;
}
END_TEST

START_TEST(kinetics_and_gas)
{
    magdyn_disc a = {{0, 0}, {1, 0}, 1.0, 0.5}, b = {{3, 0}, {0, 0}, 1.0, 0.5};
    magdyn_rotor r = {{0, 0}, {0, 0}, 0.0, 0.0, 2.0, 0.5, 1.0, 0.2};
    magdyn_disc d = {{3, 0}, {-1, 0}, 1.0, 0.3};
    magdyn_rotor r2 = {{0, 3}, {0, -1}, MAGDYN_PI / 2, 0.0, 2.0, 0.5, 1.0, 0.2};
    magdyn_gas_params gp = {.width = 10.0, .height = 10.0, .periodic = 1};
    magdyn_gas *g;
    magdyn_disc out;
    ck_assert(fabs(magdyn_disc_contact_time(&a, &b) - 2.0) < 1e-12);
    b.v.x = 2.0;
    ck_assert(isinf(magdyn_disc_contact_time(&a, &b)));
    b.v.x = 0.0;
    a.r.x = 2.0;                                        /* touching now */
    magdyn_disc_collide(&a, &b, 1.0);                   /* equal masses swap */
    ck_assert(fabs(a.v.x) < 1e-15 && fabs(b.v.x - 1.0) < 1e-15);
    /* rotor end at x = 1 (radius 0.2), disc radius 0.3 at x = 3 moving left: gap 1.5 */
    ck_assert(fabs(magdyn_rotor_disc_contact_time(&r, &d, 10.0) - 1.5) < 1e-9);
    ck_assert(magdyn_rotor_rotor_contact_time(&r, &r2, 10.0) > 0);
    g = magdyn_gas_new(&gp);
    ck_assert_ptr_nonnull(g);
    a.r = magdyn_v2(2, 5); a.v = magdyn_v2(1, 0);
    b.r = magdyn_v2(6, 5); b.v = magdyn_v2(-1, 0);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &a), 0);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &b), 1);
    ck_assert_int_lt(magdyn_gas_add_disc(g, &b), 0);    /* overlapping: refused */
    ck_assert_int_eq(magdyn_gas_advance(g, 2.0), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_collisions(g), 1);
    ck_assert_int_eq(magdyn_gas_get_disc(g, 0, &out), MAGDYN_OK);
    ck_assert(fabs(out.v.x + 1.0) < 1e-12);
    ck_assert_int_ne(magdyn_gas_get_rotor(g, 0, NULL), MAGDYN_OK);
    ck_assert_int_lt(magdyn_gas_add_rotor(g, NULL), 0);
    magdyn_gas_free(g);
    magdyn_rotor_disc_collide(&r, &d, 1.0);
    magdyn_rotor_rotor_collide(&r, &r2, 1.0);
}
END_TEST

START_TEST(world)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_magnet m = {.half = {0.005, 0.005, 0.005}, .mass = 0.0075, .moment = {0, 0, 0.955},
                       .orientation = {1, 0, 0, 0}, .fixed = true};
    magdyn_magnet out;
    double e0;
    ck_assert(p.restitution >= 0 && p.restitution <= 1 && p.friction >= 0);
    w = magdyn_world_new(NULL);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(magdyn_world_add(w, &m), 0);
    m.fixed = 0;
    m.position = magdyn_v3(0, 0, 0.03);
    ck_assert_int_eq(magdyn_world_add(w, &m), 1);
    m.position = magdyn_v3(0, 0, 0.031);                /* would interpenetrate */
    ck_assert_int_lt(magdyn_world_add(w, &m), 0);
    e0 = magdyn_world_energy(w);
    ck_assert(e0 < 0);                                  /* attracting, at rest */
    ck_assert_int_eq(magdyn_world_advance(w, 1e-3), MAGDYN_OK);
    ck_assert(fabs(magdyn_world_time(w) - 1e-3) < 1e-15);
    ck_assert_int_eq(magdyn_world_get(w, 1, &out), MAGDYN_OK);
    ck_assert(out.position.z < 0.03 && out.velocity.z < 0);   /* pulled towards the fixed one */
    ck_assert_int_eq(magdyn_world_get(w, 0, &out), MAGDYN_OK);
    ck_assert(out.position.z == 0 && out.fixed);
    ck_assert_int_ne(magdyn_world_advance(w, 0.0), MAGDYN_OK); /* backwards */
    ck_assert_int_ne(magdyn_world_get(w, 5, &out), MAGDYN_OK);
    magdyn_world_free(w);
    p.restitution = 0.5;
    p.friction = 0.3;
    w = magdyn_world_new(&p);
    ck_assert_ptr_nonnull(w);
    magdyn_world_free(w);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("contract");
    TCase *tc = tcase_create("contract");
    tcase_add_test(tc, common_and_vec);
    tcase_add_test(tc, dipole);
    tcase_add_test(tc, sat_and_contact);
    tcase_add_test(tc, kinetics_and_gas);
    tcase_add_test(tc, world);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
