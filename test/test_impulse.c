/*
 * test_impulse.c - layer 3: collision impulses at one or many points.
 * References: the single-point impulse lambda = -(1 + e) J u / (J M^-1 J^T)
 * (seed 000 with restitution; DESIGN.md note 4; Mirtich, PhD thesis,
 * Berkeley 1996, ch. 3); Poisson restitution never raises the energy of a
 * frictionless multi-point impact (Stronge, "Impact Mechanics", 2000,
 * ch. 4); equal and opposite impulses keep linear and angular momentum;
 * a head-on elastic collision of equal masses swaps their velocities;
 * a single point's frictional impulse obeys Coulomb's law exactly: it
 * sticks inside the cone, or slides with the friction impulse on the cone
 * and opposite to the slip after (M. Jean, "The non-smooth contact dynamics
 * method", CMAME 177, 1999, the one-contact problem).
 */
#include <check.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

static magdyn_body box(magdyn_vec3 half, double mass, magdyn_vec3 pos, magdyn_quat q, int fixed)
{
    magdyn_body b;
    ck_assert_int_eq(magdyn_body_init(&b, half, mass, pos, q, fixed), MAGDYN_OK);
    return b;
}

static magdyn_body random_body(test_rng *r, magdyn_vec3 pos)
{
    magdyn_body b = box(test_rng_vec3(r, 0.002, 0.02), test_rng_range(r, 0.001, 0.1), pos,
                        test_rng_quat(r), 0);
    b.velocity = test_rng_vec3(r, -1, 1);
    b.omega = test_rng_vec3(r, -100, 100);
    return b;
}

static magdyn_vec3 unit(magdyn_vec3 v)
{
    return magdyn_vec3_scale(v, 1.0 / magdyn_vec3_norm(v));
}

/* Field by field: struct padding is not compared. */
static int same_body(const magdyn_body *a, const magdyn_body *b)
{
    return memcmp(&a->half, &b->half, sizeof a->half) == 0 && a->mass == b->mass
        && memcmp(&a->inertia, &b->inertia, sizeof a->inertia) == 0
        && memcmp(&a->position, &b->position, sizeof a->position) == 0
        && memcmp(&a->orientation, &b->orientation, sizeof a->orientation) == 0
        && memcmp(&a->velocity, &b->velocity, sizeof a->velocity) == 0
        && memcmp(&a->omega, &b->omega, sizeof a->omega) == 0 && a->fixed == b->fixed;
}

static double energy2(const magdyn_body *a, const magdyn_body *b)
{
    return magdyn_body_kinetic_energy(a) + magdyn_body_kinetic_energy(b);
}

START_TEST(single_point_matches_closed_form)
{
    test_rng r = {4242};
    long n = test_count(5000), i;
    magdyn_impulse_params p = magdyn_impulse_params_default();
    p.friction = 0.0;
    p.bounce_speed = 0.0;
    for (i = 0; i < n; i++) {
        magdyn_body a = random_body(&r, magdyn_v3(0.01, 0, 0)), b = random_body(&r, magdyn_v3(-0.01, 0, 0));
        magdyn_body a1 = a, b1 = b;
        magdyn_manifold m;
        magdyn_vec3 ra, rb, na, nb, u, pt;
        double vn, k, lam, e = test_rng_uniform(&r);
        memset(&m, 0, sizeof m);
        m.normal = unit(test_rng_vec3(&r, -1, 1));
        m.count = 1;
        m.point[0] = pt = test_rng_vec3(&r, -0.005, 0.005);
        p.restitution = e;
        ra = magdyn_vec3_sub(pt, a.position);
        rb = magdyn_vec3_sub(pt, b.position);
        u = magdyn_vec3_sub(magdyn_body_point_velocity(&a, pt), magdyn_body_point_velocity(&b, pt));
        vn = magdyn_vec3_dot(u, m.normal);
        na = magdyn_vec3_cross(ra, m.normal);
        nb = magdyn_vec3_cross(rb, m.normal);
        k = 1 / a.mass + 1 / b.mass + magdyn_vec3_dot(na, magdyn_mat3_mulv(magdyn_body_inv_inertia(&a), na))
            + magdyn_vec3_dot(nb, magdyn_mat3_mulv(magdyn_body_inv_inertia(&b), nb));
        lam = vn < 0 ? -(1 + e) * vn / k : 0.0;
        magdyn_body_apply_impulse(&a1, pt, magdyn_vec3_scale(m.normal, lam));
        magdyn_body_apply_impulse(&b1, pt, magdyn_vec3_scale(m.normal, -lam));
        ck_assert_int_eq(magdyn_impulse_pair(&a, &b, &m, &p, NULL, NULL), MAGDYN_OK);
        ck_assert_double_le(magdyn_vec3_dist(a.velocity, a1.velocity), 1e-12 * (1 + magdyn_vec3_norm(a1.velocity)));
        ck_assert_double_le(magdyn_vec3_dist(b.velocity, b1.velocity), 1e-12 * (1 + magdyn_vec3_norm(b1.velocity)));
        ck_assert_double_le(magdyn_vec3_dist(a.omega, a1.omega), 1e-11 * (1 + magdyn_vec3_norm(a1.omega)));
        ck_assert_double_le(magdyn_vec3_dist(b.omega, b1.omega), 1e-11 * (1 + magdyn_vec3_norm(b1.omega)));
        /* the point no longer approaches; with e it separates at e times the speed */
        u = magdyn_vec3_sub(magdyn_body_point_velocity(&a, pt), magdyn_body_point_velocity(&b, pt));
        if (vn < 0) ck_assert_double_eq_tol(magdyn_vec3_dot(u, m.normal), -e * vn, 1e-10);
    }
}
END_TEST

/* Random multi-point collisions: momentum and angular momentum kept, the
 * energy never rises, friction within the cone, whatever e, mu, count. */
START_TEST(random_collisions_conserve_and_dissipate)
{
    test_rng r = {2024};
    long n = test_count(20000), i;
    int dropped = 0;
    for (i = 0; i < n; i++) {
        magdyn_body a = random_body(&r, test_rng_vec3(&r, -0.02, 0.02));
        magdyn_body b = random_body(&r, test_rng_vec3(&r, -0.02, 0.02));
        magdyn_impulse_params p = magdyn_impulse_params_default();
        magdyn_impulse_stats st;
        magdyn_manifold m;
        magdyn_vec3 imp[MAGDYN_MAX_CONTACTS], p0, p1, l0, l1;
        double e0, e1;
        int k;
        p.restitution = (i % 5 == 0) ? 1.0 : test_rng_uniform(&r);
        p.friction = (i % 7 == 0) ? 0.0 : test_rng_range(&r, 0, 1.5);
        p.bounce_speed = (i % 3 == 0) ? 0.0 : 1e-3;
        memset(&m, 0, sizeof m);
        m.normal = unit(test_rng_vec3(&r, -1, 1));
        m.count = 1 + (int)(test_rng_uniform(&r) * MAGDYN_MAX_CONTACTS);
        for (k = 0; k < m.count; k++) m.point[k] = test_rng_vec3(&r, -0.01, 0.01);
        p0 = magdyn_vec3_add(magdyn_body_momentum(&a), magdyn_body_momentum(&b));
        l0 = magdyn_vec3_add(magdyn_body_angular_momentum(&a), magdyn_body_angular_momentum(&b));
        e0 = energy2(&a, &b);
        ck_assert_int_eq(magdyn_impulse_pair(&a, &b, &m, &p, imp, &st), MAGDYN_OK);
        p1 = magdyn_vec3_add(magdyn_body_momentum(&a), magdyn_body_momentum(&b));
        l1 = magdyn_vec3_add(magdyn_body_angular_momentum(&a), magdyn_body_angular_momentum(&b));
        e1 = energy2(&a, &b);
        dropped += st.restitution_dropped;
        ck_assert_double_le(magdyn_vec3_dist(p0, p1), 1e-13 * (magdyn_vec3_norm(p0) + a.mass + b.mass));
        ck_assert_double_le(magdyn_vec3_dist(l0, l1), 1e-12 * (magdyn_vec3_norm(l0) + 1e-6));
        ck_assert_msg(e1 <= e0 * (1 + 1e-12), "energy rose %.17g -> %.17g (e %g mu %g n %d)",
                      e0, e1, p.restitution, p.friction, m.count);
        for (k = 0; k < m.count; k++) {
            double pn = magdyn_vec3_dot(imp[k], m.normal);
            double pt = magdyn_vec3_norm(magdyn_vec3_madd(imp[k], -pn, m.normal));
            ck_assert_double_ge(pn, 0.0);
            ck_assert_double_le(pt, p.friction * pn * (1 + 1e-9) + 1e-14 * magdyn_vec3_norm(imp[k]));
        }
    }
    (void)dropped;
}
END_TEST

/* Two equal cubes meet face to face, flush: four contact points. */
START_TEST(elastic_head_on_swaps_velocities)
{
    magdyn_vec3 h = {0.005, 0.005, 0.005};
    magdyn_body a = box(h, 0.01, magdyn_v3(0.005, 0, 0), magdyn_quat_identity(), 0);
    magdyn_body b = box(h, 0.01, magdyn_v3(-0.005, 0, 0), magdyn_quat_identity(), 0);
    magdyn_impulse_params p = magdyn_impulse_params_default();
    magdyn_manifold m;
    int k;
    a.velocity = magdyn_v3(-1.0, 0, 0);
    b.velocity = magdyn_v3(0.5, 0, 0);
    memset(&m, 0, sizeof m);
    m.kind = MAGDYN_CONTACT_FACE_FACE;
    m.normal = magdyn_v3(1, 0, 0);
    m.count = 4;
    for (k = 0; k < 4; k++)
        m.point[k] = magdyn_v3(0, (k & 1) ? h.y : -h.y, (k & 2) ? h.z : -h.z);
    p.restitution = 1.0;
    ck_assert_int_eq(magdyn_impulse_pair(&a, &b, &m, &p, NULL, NULL), MAGDYN_OK);
    ck_assert_double_eq_tol(a.velocity.x, 0.5, 1e-9);
    ck_assert_double_eq_tol(b.velocity.x, -1.0, 1e-9);
    ck_assert_double_le(magdyn_vec3_norm(a.omega) + magdyn_vec3_norm(b.omega), 1e-6);
    ck_assert_double_le(fabs(a.velocity.y) + fabs(a.velocity.z), 1e-12);
}
END_TEST

START_TEST(fixed_body_is_infinite_mass)
{
    magdyn_vec3 h = {0.01, 0.005, 0.0025};
    magdyn_body a = box(h, 0.0075, magdyn_v3(0, 0, 0.005), magdyn_quat_identity(), 0);
    magdyn_body b = box(h, 0.0075, magdyn_v3(0, 0, 0), magdyn_quat_identity(), 1);
    magdyn_body b0;
    magdyn_impulse_params p = magdyn_impulse_params_default();
    magdyn_manifold m;
    int k;
    a.velocity = magdyn_v3(0, 0, -0.8);
    b0 = b;
    memset(&m, 0, sizeof m);
    m.normal = magdyn_v3(0, 0, 1);
    m.count = 4;
    for (k = 0; k < 4; k++)
        m.point[k] = magdyn_v3((k & 1) ? h.x : -h.x, (k & 2) ? h.y : -h.y, 0.0025);
    p.restitution = 0.5;
    ck_assert_int_eq(magdyn_impulse_pair(&a, &b, &m, &p, NULL, NULL), MAGDYN_OK);
    ck_assert_double_eq_tol(a.velocity.z, 0.4, 1e-9);
    ck_assert(same_body(&b, &b0));
    /* below bounce_speed: no bounce, the box just stops */
    a.velocity = magdyn_v3(0, 0, -5e-4);
    ck_assert_int_eq(magdyn_impulse_pair(&a, &b, &m, &p, NULL, NULL), MAGDYN_OK);
    ck_assert_double_le(fabs(a.velocity.z), 1e-12);
}
END_TEST

/* The result does not depend on the order of the points: a face-face
 * manifold (the corners of a rectangular overlap) listed both ways. */
START_TEST(order_independent)
{
    test_rng r = {31337};
    long n = test_count(500), i;
    for (i = 0; i < n; i++) {
        magdyn_body a = random_body(&r, magdyn_v3(0, 0, 0.01)), b = random_body(&r, magdyn_v3(0, 0, -0.01));
        magdyn_body a2 = a, b2 = b;
        magdyn_impulse_params p = magdyn_impulse_params_default();
        magdyn_manifold m, m2;
        int k;
        p.friction = 0.0;
        p.restitution = test_rng_uniform(&r);
        memset(&m, 0, sizeof m);
        m.normal = magdyn_v3(0, 0, 1);
        m.count = 4;
        {
            double x0 = test_rng_range(&r, -0.01, 0.0), x1 = test_rng_range(&r, 0.001, 0.01);
            double y0 = test_rng_range(&r, -0.01, 0.0), y1 = test_rng_range(&r, 0.001, 0.01);
            m.point[0] = magdyn_v3(x0, y0, 0);
            m.point[1] = magdyn_v3(x1, y0, 0);
            m.point[2] = magdyn_v3(x1, y1, 0);
            m.point[3] = magdyn_v3(x0, y1, 0);
        }
        m2 = m;
        for (k = 0; k < 4; k++) m2.point[k] = m.point[3 - k];
        {
            magdyn_impulse_stats s1, s2;
            ck_assert_int_eq(magdyn_impulse_pair(&a, &b, &m, &p, NULL, &s1), MAGDYN_OK);
            ck_assert_int_eq(magdyn_impulse_pair(&a2, &b2, &m2, &p, NULL, &s2), MAGDYN_OK);
            ck_assert_msg(s1.converged && s2.converged, "iterations %d %d", s1.iterations, s2.iterations);
            ck_assert_int_eq(s1.restitution_dropped, s2.restitution_dropped);
        }
        ck_assert_double_le(magdyn_vec3_dist(a.velocity, a2.velocity), 1e-8 * (1 + magdyn_vec3_norm(a.velocity)));
        ck_assert_double_le(magdyn_vec3_dist(a.omega, a2.omega), 1e-7 * (1 + magdyn_vec3_norm(a.omega)));
    }
}
END_TEST

/* A box sliding onto a fixed floor with friction: the tangential impulse
 * stops sliding when the cone allows, else it is mu times the normal one. */
START_TEST(coulomb_friction)
{
    magdyn_vec3 h = {0.01, 0.01, 0.01};
    magdyn_body b = box(h, 1.0, magdyn_v3(0, 0, 0), magdyn_quat_identity(), 1);
    magdyn_impulse_params p = magdyn_impulse_params_default();
    magdyn_manifold m;
    magdyn_vec3 imp[4], tot = {0, 0, 0};
    int k;
    memset(&m, 0, sizeof m);
    m.normal = magdyn_v3(0, 0, 1);
    m.count = 4;
    for (k = 0; k < 4; k++) m.point[k] = magdyn_v3((k & 1) ? h.x : -h.x, (k & 2) ? h.y : -h.y, 0.01);
    p.restitution = 0.0;
    p.friction = 0.5;
    {
        magdyn_body a = box(h, 1.0, magdyn_v3(0, 0, 0.02), magdyn_quat_identity(), 0);
        a.velocity = magdyn_v3(2.0, 0, -1.0);   /* slides: |vt| > mu |vn| (1 + ...) */
        ck_assert_int_eq(magdyn_impulse_pair(&a, &b, &m, &p, imp, NULL), MAGDYN_OK);
        for (k = 0; k < 4; k++) tot = magdyn_vec3_add(tot, imp[k]);
        /* every loaded point slides: its friction is mu times its load,
           against the sliding */
        for (k = 0; k < 4; k++) {
            double pn = imp[k].z, pt = hypot(imp[k].x, imp[k].y);
            if (pn > 1e-9) {
                ck_assert_double_eq_tol(pt, 0.5 * pn, 1e-6 * pn);
                ck_assert_double_lt(imp[k].x, 0.0);
            }
            tot = magdyn_vec3_add(tot, imp[k]);
        }
        ck_assert_double_gt(a.velocity.x, 0.0);
    }
    {
        magdyn_body a = box(h, 1.0, magdyn_v3(0, 0, 0.02), magdyn_quat_identity(), 0);
        a.velocity = magdyn_v3(0.1, 0, -1.0);   /* sticks */
        ck_assert_int_eq(magdyn_impulse_pair(&a, &b, &m, &p, imp, NULL), MAGDYN_OK);
        ck_assert_double_le(magdyn_vec3_norm(magdyn_body_point_velocity(&a, m.point[0])), 1e-6);
    }
}
END_TEST

/*
 * A stack of three boxes on a fixed plate, each kicked down by gravity for a
 * step (the velocity-level resting contact of a time stepper): solved from
 * zero, then again from the same kicked state warm started with the first
 * solve's impulses.  The warm start ends at the same velocities (rest, to
 * the tolerance) in far fewer sweeps, and from a NaN guess it is refused.
 */
/* Three 10 mm boxes stacked on a fixed plate b[0], each with the kick of
 * gravity down over 1 ms, box i sliding at v i / 3 along x; c[i] joins
 * box i + 1 to the one below, four points each. */
static void stack_on_plate(magdyn_body b[4], magdyn_contact c[3], double v)
{
    magdyn_vec3 h = {0.005, 0.005, 0.005};
    int i;
    b[0] = box(magdyn_v3(0.1, 0.1, 0.005), 1.0, magdyn_v3(0, 0, -0.005), magdyn_quat_identity(), 1);
    for (i = 1; i < 4; i++) {
        b[i] = box(h, 7.5e-3, magdyn_v3(0.001 * i, 0, 0.005 + 0.01 * (i - 1)), magdyn_quat_identity(), 0);
        b[i].velocity = magdyn_v3(v * i / 3.0, 0, -9.81e-3);
    }
    for (i = 0; i < 3; i++) {
        magdyn_obb oa = magdyn_body_obb(&b[i + 1]), ob = magdyn_body_obb(&b[i]);
        memset(&c[i], 0, sizeof c[i]);
        c[i].a = i + 1;
        c[i].b = i;
        ck_assert_int_eq(magdyn_obb_manifold(&oa, &ob, 1e-6, &c[i].manifold), 4);
    }
}

START_TEST(warm_start_converges_at_once)
{
    magdyn_body b[4], k[4];
    magdyn_contact c[3], w[3];
    magdyn_impulse_params p = magdyn_impulse_params_default();
    magdyn_impulse_stats s0, s1;
    int i, q;
    p.restitution = 0.0;
    p.friction = 0.5;
    p.tolerance = 1e-12;
    stack_on_plate(b, c, 0.0);
    memcpy(k, b, sizeof k);
    memcpy(w, c, sizeof w);
    ck_assert_int_eq(magdyn_impulse_solve(b, 4, c, 3, &p, &s0), MAGDYN_OK);
    for (i = 0; i < 3; i++)
        for (q = 0; q < 4; q++) w[i].impulse[q] = c[i].impulse[q];
    p.warm_start = 1;
    ck_assert_int_eq(magdyn_impulse_solve(k, 4, w, 3, &p, &s1), MAGDYN_OK);
    ck_assert(s0.converged && s1.converged);
    ck_assert_int_le(s1.iterations, 2);
    ck_assert_int_gt(s0.iterations, 5 * s1.iterations);
    for (i = 1; i < 4; i++) {
        ck_assert_double_le(magdyn_vec3_norm(k[i].velocity), 1e-10);
        ck_assert_double_le(magdyn_vec3_norm(b[i].velocity), 1e-10);
    }
    memcpy(k, b, sizeof k);
    w[1].impulse[2].x = NAN;
    ck_assert_int_eq(magdyn_impulse_solve(k, 4, w, 3, &p, NULL), MAGDYN_ENONFINITE);
    ck_assert(same_body(&k[2], &b[2]));
}
END_TEST

/* A sliding stack on a plate (0.1 m/s along x, the kick of gravity down),
 * cold started: with speed_tolerance 1e-6 of that speed the solve stops
 * in fewer sweeps than at tolerance 1e-12 alone, converged, with every
 * velocity within 1e-4 of the speed of the tight solve's. */
START_TEST(speed_tolerance_stops_sooner)
{
    magdyn_body b[4], k[4];
    magdyn_contact c[3], w[3];
    magdyn_impulse_params p = magdyn_impulse_params_default();
    magdyn_impulse_stats s0, s1;
    double v = 0.1;
    int i;
    p.restitution = 0.0;
    p.friction = 0.5;
    p.tolerance = 1e-12;
    stack_on_plate(b, c, v);
    memcpy(k, b, sizeof k);
    memcpy(w, c, sizeof w);
    ck_assert_int_eq(magdyn_impulse_solve(b, 4, c, 3, &p, &s0), MAGDYN_OK);
    p.speed_tolerance = 1e-6 * v;
    ck_assert_int_eq(magdyn_impulse_solve(k, 4, w, 3, &p, &s1), MAGDYN_OK);
    ck_assert(s0.converged && s1.converged);
    ck_assert_int_lt(s1.iterations, s0.iterations);
    for (i = 1; i < 4; i++)
        ck_assert_msg(magdyn_vec3_dist(k[i].velocity, b[i].velocity) <= 1e-4 * v, "body %d: %g", i,
                      magdyn_vec3_dist(k[i].velocity, b[i].velocity));
}
END_TEST

START_TEST(bad_input_changes_nothing)
{
    magdyn_vec3 h = {0.01, 0.01, 0.01};
    magdyn_body bs[2], keep[2];
    magdyn_contact c;
    magdyn_impulse_params p = magdyn_impulse_params_default();
    bs[0] = box(h, 1, magdyn_v3(0, 0, 0.02), magdyn_quat_identity(), 0);
    bs[1] = box(h, 1, magdyn_v3(0, 0, 0), magdyn_quat_identity(), 0);
    bs[0].velocity = magdyn_v3(0, 0, -1);
    memcpy(keep, bs, sizeof bs);
    memset(&c, 0, sizeof c);
    c.a = 0; c.b = 1;
    c.manifold.normal = magdyn_v3(0, 0, 1);
    c.manifold.count = 1;
    c.manifold.point[0] = magdyn_v3(0, 0, 0.01);
    ck_assert_int_eq(magdyn_impulse_solve(NULL, 2, &c, 1, &p, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_impulse_solve(bs, 2, &c, 1, NULL, NULL), MAGDYN_EINVAL);
    c.b = 2;
    ck_assert_int_eq(magdyn_impulse_solve(bs, 2, &c, 1, &p, NULL), MAGDYN_EINVAL);
    c.b = 0;
    ck_assert_int_eq(magdyn_impulse_solve(bs, 2, &c, 1, &p, NULL), MAGDYN_EINVAL);
    c.b = 1;
    c.manifold.count = MAGDYN_MAX_CONTACTS + 1;
    ck_assert_int_eq(magdyn_impulse_solve(bs, 2, &c, 1, &p, NULL), MAGDYN_EINVAL);
    c.manifold.count = 1;
    p.restitution = 1.5;
    ck_assert_int_eq(magdyn_impulse_solve(bs, 2, &c, 1, &p, NULL), MAGDYN_EINVAL);
    p.restitution = 0.5;
    p.speed_tolerance = -1e-3;
    ck_assert_int_eq(magdyn_impulse_solve(bs, 2, &c, 1, &p, NULL), MAGDYN_EINVAL);
    p.speed_tolerance = NAN;
    ck_assert_int_eq(magdyn_impulse_solve(bs, 2, &c, 1, &p, NULL), MAGDYN_ENONFINITE);
    p.speed_tolerance = 0.0;
    c.manifold.point[0].x = NAN;
    ck_assert_int_eq(magdyn_impulse_solve(bs, 2, &c, 1, &p, NULL), MAGDYN_ENONFINITE);
    c.manifold.point[0].x = 0;
    bs[1].omega.z = INFINITY;
    keep[1].omega.z = INFINITY;
    ck_assert_int_eq(magdyn_impulse_solve(bs, 2, &c, 1, &p, NULL), MAGDYN_ENONFINITE);
    ck_assert(same_body(&bs[0], &keep[0]) && same_body(&bs[1], &keep[1]));
}
END_TEST

/* Solve one point between a and b (restitution 0, target 0) with the
 * given model, and check Coulomb's law on the result against the point's
 * relative velocity after: the normal impulse pushes and leaves the point
 * at rest along the normal, the friction stays in its cone and is either
 * sticking (no slip after) or opposite to the slip.  Returns the sweeps. */
static int check_one_point(magdyn_body *a, magdyn_body *b, magdyn_vec3 point, magdyn_vec3 normal, double mu,
                           int patch)
{
    magdyn_body bs[2] = {*a, *b};
    magdyn_contact c;
    magdyn_impulse_params p = magdyn_impulse_params_default();
    magdyn_impulse_stats st;
    magdyn_vec3 u0, u1, pt, ut;
    double scale, pn, un;
    memset(&c, 0, sizeof c);
    c.a = 0;
    c.b = 1;
    c.manifold.count = 1;
    c.manifold.normal = normal;
    c.manifold.point[0] = point;
    p.restitution = 0.0;
    p.friction = mu;
    u0 = magdyn_vec3_sub(magdyn_body_point_velocity(&bs[0], point), magdyn_body_point_velocity(&bs[1], point));
    scale = magdyn_vec3_norm(u0);
    ck_assert_int_eq(patch ? magdyn_impulse_solve_patch(bs, 2, &c, 1, &p, &st)
                           : magdyn_impulse_solve(bs, 2, &c, 1, &p, &st), MAGDYN_OK);
    ck_assert(st.converged);
    ck_assert_double_le(st.energy_after, st.energy_before * (1 + 1e-12));
    u1 = magdyn_vec3_sub(magdyn_body_point_velocity(&bs[0], point), magdyn_body_point_velocity(&bs[1], point));
    pn = magdyn_vec3_dot(c.impulse[0], normal);
    pt = magdyn_vec3_madd(c.impulse[0], -pn, normal);
    un = magdyn_vec3_dot(u1, normal);
    ut = magdyn_vec3_madd(u1, -un, normal);
    ck_assert_double_ge(pn, 0.0);
    ck_assert_double_ge(un, -1e-10 * scale);
    if (pn > 0.0) ck_assert_double_le(fabs(un), 1e-10 * scale);
    ck_assert_double_le(magdyn_vec3_norm(pt), mu * pn * (1 + 1e-9) + 1e-14 * pn);
    if (magdyn_vec3_norm(pt) < mu * pn * (1 - 1e-6)) {
        ck_assert_double_le(magdyn_vec3_norm(ut), 1e-9 * scale);
    } else if (pn > 0.0 && mu > 0.0) {
        ck_assert_double_le(magdyn_vec3_dot(ut, pt), 0.0);
        ck_assert_double_le(magdyn_vec3_norm(magdyn_vec3_cross(ut, pt)),
                            1e-8 * magdyn_vec3_norm(ut) * magdyn_vec3_norm(pt) + 1e-12 * scale * mu * pn);
    }
    *a = bs[0];
    *b = bs[1];
    return st.iterations;
}

/* One point at a time: the exact one-point solution in two sweeps (one to
 * solve, one to see nothing move), whatever mu, for both friction models.
 * The first case is a fuzz finding: a 10 x 10 x 2 mm magnet spinning at
 * 575 rad/s lands on a corner on the fixed plate at mu = 1, where normal and
 * friction updated apart cycled without end and left the approach as it
 * was. */
START_TEST(one_point_obeys_coulomb_exactly)
{
    test_rng r = {77};
    long n = test_count(4000), i;
    int model;
    for (model = 0; model < 2; model++) {
        magdyn_body plate = box(magdyn_v3(0.1, 0.1, 0.005), 1.6, magdyn_v3(0, 0, -0.005), magdyn_quat_identity(), 1);
        magdyn_body m = box(magdyn_v3(0.005, 0.005, 0.001), 0.0015, magdyn_v3(-0.01642, -0.02337, 0.00618),
                            magdyn_quat_identity(), 0);
        m.velocity = magdyn_v3(-0.654, -0.452, 1.251);
        m.omega = magdyn_v3(-349.1, 457.6, -37.3);
        ck_assert_int_le(check_one_point(&plate, &m, magdyn_v3(-0.01405, -0.02069, 0), magdyn_v3(0, 0, -1), 1.0,
                                         model), 2);
    }
    for (i = 0; i < n; i++) {
        magdyn_body a = random_body(&r, test_rng_vec3(&r, -0.02, 0.02));
        magdyn_body b = random_body(&r, test_rng_vec3(&r, -0.02, 0.02));
        magdyn_vec3 normal = unit(test_rng_vec3(&r, -1, 1)), point = test_rng_vec3(&r, -0.03, 0.03);
        double mu = (i % 9 == 0) ? 0.0 : test_rng_range(&r, 0.0, 2.0);
        if (i % 3 == 0) {
            a.fixed = 1;
            a.velocity = a.omega = magdyn_v3(0, 0, 0);
        }
        ck_assert_int_le(check_one_point(&a, &b, point, normal, mu, (int)(i & 1)), 2);
    }
}
END_TEST

/* A column of n equal boxes falling at v onto a fixed floor, each contact
 * one point on the axis (e = 0): all stop, and contact k from the bottom
 * carries the momentum of the n - k boxes above it, (n - k) m v, a chain
 * that plain Gauss-Seidel settles only slowly (its error contracts by
 * about 1 - (pi / 2n)^2 a sweep: 3487 sweeps for 20 boxes at 1e-12,
 * measured); the conjugate-gradient acceleration reaches the same impulses
 * in 305. */
START_TEST(column_settles_to_the_chain_impulses)
{
    enum { N = 20 };
    magdyn_body bs[N + 1];
    magdyn_contact c[N];
    magdyn_impulse_params p = magdyn_impulse_params_default();
    magdyn_impulse_stats st;
    double m = 0.0075, v = 0.3;
    int k;
    bs[0] = box(magdyn_v3(0.1, 0.1, 0.005), 1.6, magdyn_v3(0, 0, -0.005), magdyn_quat_identity(), 1);
    memset(c, 0, sizeof c);
    for (k = 1; k <= N; k++) {
        bs[k] = box(magdyn_v3(0.005, 0.005, 0.005), m, magdyn_v3(0, 0, 0.01 * k - 0.005), magdyn_quat_identity(), 0);
        bs[k].velocity = magdyn_v3(0, 0, -v);
        c[k - 1].a = k;
        c[k - 1].b = k - 1;
        c[k - 1].manifold.count = 1;
        c[k - 1].manifold.normal = magdyn_v3(0, 0, 1);
        c[k - 1].manifold.point[0] = magdyn_v3(0, 0, 0.01 * (k - 1));
    }
    p.restitution = 0.0;
    p.friction = 0.5;
    ck_assert_int_eq(magdyn_impulse_solve(bs, N + 1, c, N, &p, &st), MAGDYN_OK);
    ck_assert(st.converged);
    ck_assert_int_le(st.iterations, 400);
    for (k = 1; k <= N; k++) {
        ck_assert_double_le(magdyn_vec3_norm(bs[k].velocity), 1e-9 * v);
        ck_assert_double_le(fabs(c[k - 1].impulse[0].z - (N - k + 1) * m * v), 1e-9 * N * m * v);
    }
}
END_TEST

/* Frictionless face-to-face impacts at e = 1 keep the kinetic energy
 * (Stronge, ch. 4: Poisson's restitution at e = 1 reverses the approach of
 * every point that compressed); where the rounded energy comes out a digit
 * above, the restitution is shaded by at most a millionth, not dropped. */
START_TEST(elastic_impacts_keep_the_energy)
{
    test_rng r = {5};
    long n = test_count(2000), i;
    for (i = 0; i < n; i++) {
        magdyn_vec3 h = test_rng_vec3(&r, 0.002, 0.01);
        magdyn_body a = box(h, test_rng_range(&r, 0.001, 0.1), magdyn_v3(h.x, 0, 0), magdyn_quat_identity(), 0);
        magdyn_body b = box(h, test_rng_range(&r, 0.001, 0.1), magdyn_v3(-h.x, 0, 0), magdyn_quat_identity(), 0);
        magdyn_impulse_params p = magdyn_impulse_params_default();
        magdyn_manifold m;
        double e0, e1;
        int k;
        a.velocity = test_rng_vec3(&r, -1, 1);
        a.velocity.x = -test_rng_range(&r, 0.1, 1);
        b.velocity = test_rng_vec3(&r, -1, 1);
        a.omega = test_rng_vec3(&r, -10, 10);
        b.omega = test_rng_vec3(&r, -10, 10);
        memset(&m, 0, sizeof m);
        m.normal = magdyn_v3(1, 0, 0);
        m.count = 4;
        for (k = 0; k < 4; k++) m.point[k] = magdyn_v3(0, (k & 1) ? h.y : -h.y, (k & 2) ? h.z : -h.z);
        p.restitution = 1.0;
        p.friction = 0.0;
        e0 = energy2(&a, &b);
        ck_assert_int_eq(magdyn_impulse_pair(&a, &b, &m, &p, NULL, NULL), MAGDYN_OK);
        e1 = energy2(&a, &b);
        ck_assert_double_le(e1, e0 * (1 + 1e-12));
        ck_assert_double_ge(e1, e0 * (1 - 1e-6));
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("impulse");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, single_point_matches_closed_form);
    tcase_add_test(tc, random_collisions_conserve_and_dissipate);
    tcase_add_test(tc, elastic_head_on_swaps_velocities);
    tcase_add_test(tc, elastic_impacts_keep_the_energy);
    tcase_add_test(tc, fixed_body_is_infinite_mass);
    tcase_add_test(tc, order_independent);
    tcase_add_test(tc, coulomb_friction);
    tcase_add_test(tc, one_point_obeys_coulomb_exactly);
    tcase_add_test(tc, column_settles_to_the_chain_impulses);
    tcase_add_test(tc, bad_input_changes_nothing);
    tcase_add_test(tc, warm_start_converges_at_once);
    tcase_add_test(tc, speed_tolerance_stops_sooner);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
