/*
 * test_kinetics.c - layer 1: hard-disc and rotor contact times and collisions.
 * References: seed 002 (thermosim's dvf and the centre-of-mass form of the
 * velocity update; https://github.com/pierrethibault/thermosim), seed 003
 * eq. 1.7 (disc-disc), rigid-body impulse response dv = P/m,
 * d(omega) = (r x P)/I (DESIGN.md physics note 6; e.g. Goldstein, Classical
 * Mechanics, ch. 5), and DynamO's rough-sphere collision rule (Bannerman,
 * Sargant & Lue, J. Comput. Chem. 32 (2011) 3329) in 2D.
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <string.h>
#include <magdyn.h>
#include "testutil.h"

static magdyn_disc mkdisc(double x, double y, double vx, double vy, double m, double r)
{
    magdyn_disc d;
    d.r = magdyn_v2(x, y); d.v = magdyn_v2(vx, vy); d.mass = m; d.radius = r;
    return d;
}

static magdyn_vec2 vsub(magdyn_vec2 a, magdyn_vec2 b) { return magdyn_vec2_sub(a, b); }

/* A random pair of discs exactly at contact, approaching. */
static void contact_pair(test_rng *r, magdyn_disc *a, magdyn_disc *b)
{
    double ang = test_rng_range(r, 0, 2 * MAGDYN_PI), s;
    do {
        *a = mkdisc(test_rng_range(r, -1, 1), test_rng_range(r, -1, 1), test_rng_normal(r),
                    test_rng_normal(r), test_rng_range(r, 0.1, 10), test_rng_range(r, 0.05, 0.5));
        *b = mkdisc(0, 0, test_rng_normal(r), test_rng_normal(r), test_rng_range(r, 0.1, 10),
                    test_rng_range(r, 0.05, 0.5));
        s = a->radius + b->radius;
        b->r = magdyn_v2(a->r.x - s * cos(ang), a->r.y - s * sin(ang));
    } while (magdyn_vec2_dot(vsub(a->r, b->r), vsub(a->v, b->v)) >= 0.0);
}

START_TEST(disc_contact_time_cases)
{
    magdyn_disc a = mkdisc(0, 0, 1, 0, 1, 0.5), b = mkdisc(3, 0, -1, 0, 2, 0.5);
    ck_assert_double_eq_tol(magdyn_disc_contact_time(&a, &b), 1.0, 1e-15);
    b.v = magdyn_v2(1, 0);                       /* same velocity: never */
    ck_assert(isinf(magdyn_disc_contact_time(&a, &b)));
    b.v = magdyn_v2(2, 0);                       /* separating */
    ck_assert(isinf(magdyn_disc_contact_time(&a, &b)));
    b.v = magdyn_v2(-1, 0); b.r = magdyn_v2(3, 1.01);   /* passes by: miss */
    ck_assert(isinf(magdyn_disc_contact_time(&a, &b)));
    b.r = magdyn_v2(3, 0.99);                    /* just hits */
    ck_assert(isfinite(magdyn_disc_contact_time(&a, &b)));
    b.r = magdyn_v2(0.9, 0);                     /* overlapping and approaching */
    ck_assert(magdyn_disc_contact_time(&a, &b) == 0.0);
    b.mass = -1;
    ck_assert(isnan(magdyn_disc_contact_time(&a, &b)));
    ck_assert(isnan(magdyn_disc_contact_time(NULL, &a)));
}
END_TEST

/* Scale invariance: the contact time of discs scaled by a length L and a
 * speed V is (L / V) times the unscaled one.  Squared distances of discs
 * 1e-170 m apart underflow to 0 (they looked overlapped, t = 0), and a
 * closing speed of 1e-160 m/s made the discriminant subnormal. */
START_TEST(disc_contact_time_extreme_scales)
{
    static const double scale[][2] = {{1e-170, 1.0}, {1e-170, 1e-170}, {1.0, 1e-160},
                                      {1e-300, 1e10}, {1e150, 1e-150}, {1e-80, 1e-80}};
    size_t k;
    for (k = 0; k < sizeof scale / sizeof scale[0]; k++) {
        double L = scale[k][0], V = scale[k][1], t;
        /* head on: gap L, closing speed 2V; and off centre: y offset 0.6 of
         * the contact distance, gap along x sqrt(1 - 0.36) shorter */
        magdyn_disc a = mkdisc(0, 0, V, 0, 1, 0.5 * L), b = mkdisc(2 * L, 0, -V, 0, 1, 0.5 * L);
        t = magdyn_disc_contact_time(&a, &b);
        ck_assert_msg(fabs(t / (0.5 * L / V) - 1.0) < 1e-12, "L %g V %g: t %g, not %g", L, V, t, 0.5 * L / V);
        b.r = magdyn_v2(2 * L, 0.6 * L);
        t = magdyn_disc_contact_time(&a, &b);
        ck_assert_msg(fabs(t / ((2.0 - 0.8) * L / (2 * V)) - 1.0) < 1e-12, "L %g V %g: off centre t %g", L, V, t);
        b.r = magdyn_v2(2 * L, 1.01 * L);       /* passes by */
        ck_assert(isinf(magdyn_disc_contact_time(&a, &b)));
        b.r = magdyn_v2(0.9 * L, 0);            /* overlapping and approaching */
        ck_assert(magdyn_disc_contact_time(&a, &b) == 0.0);
    }
}
END_TEST

/* Moving both discs by the contact time puts them at contact, and no
 * earlier sampled time has them overlapping. */
START_TEST(disc_contact_time_random)
{
    test_rng r = {12345};
    long n = test_count(100000), i, found = 0;
    double worst = 0;
    for (i = 0; i < n; i++) {
        magdyn_disc a = mkdisc(test_rng_range(&r, -5, 5), test_rng_range(&r, -5, 5),
                               test_rng_normal(&r), test_rng_normal(&r), 1, test_rng_range(&r, 0.1, 1));
        magdyn_disc b = mkdisc(test_rng_range(&r, -5, 5), test_rng_range(&r, -5, 5),
                               test_rng_normal(&r), test_rng_normal(&r), 1, test_rng_range(&r, 0.1, 1));
        double s = a.radius + b.radius, t, d, k;
        magdyn_vec2 dr = vsub(a.r, b.r), dv = vsub(a.v, b.v);
        if (magdyn_vec2_norm(dr) <= s) continue;
        t = magdyn_disc_contact_time(&a, &b);
        if (isinf(t)) {
            /* closest approach is farther than s, or they separate */
            double tc = -magdyn_vec2_dot(dr, dv) / magdyn_vec2_norm2(dv);
            if (tc > 0) ck_assert(magdyn_vec2_norm(magdyn_vec2_madd(dr, tc, dv)) > s * (1 - 1e-12));
            continue;
        }
        found++;
        d = magdyn_vec2_norm(magdyn_vec2_madd(dr, t, dv));
        if (fabs(d - s) / s > worst) worst = fabs(d - s) / s;
        for (k = 0; k < 1; k += 0.125)
            ck_assert(magdyn_vec2_norm(magdyn_vec2_madd(dr, k * t, dv)) >= s * (1 - 1e-12));
    }
    ck_assert_msg(found > n / 50, "only %ld contacts", found);
    ck_assert_msg(worst < 1e-12, "contact distance off by %g", worst);
}
END_TEST

/* Seed 002: thermosim's dvf form (e = 1), its centre-of-mass form for a
 * head-on collision with restitution e, and seed 003's eq. 1.7. */
START_TEST(disc_collide_matches_seeds)
{
    test_rng r = {777};
    long n = test_count(100000), i;
    double worst = 0;
    for (i = 0; i < n; i++) {
        magdyn_disc a, b, a0, b0;
        double m1, m2, M, e = test_rng_uniform(&r);
        magdyn_vec2 dv, drc, vcm, dvf, v1f, v2f, c, u;
        contact_pair(&r, &a, &b);
        a0 = a; b0 = b;
        m1 = a.mass; m2 = b.mass; M = m1 + m2;
        /* thermosim, e = 1 */
        magdyn_disc_collide(&a, &b, 1.0);
        dv = vsub(a0.v, b0.v); drc = vsub(a0.r, b0.r);
        vcm = magdyn_vec2_scale(magdyn_vec2_madd(magdyn_vec2_scale(a0.v, m1), m2, b0.v), 1.0 / M);
        dvf = magdyn_vec2_madd(dv, -2.0 * magdyn_vec2_dot(dv, drc) / magdyn_vec2_dot(drc, drc), drc);
        v1f = magdyn_vec2_madd(vcm, m2 / M, dvf);   /* thermosim's v1f = vcm + dvf m2/M with dv = v1 - v2 */
        v2f = magdyn_vec2_madd(vcm, -m1 / M, dvf);
        worst = fmax(worst, magdyn_vec2_norm(vsub(a.v, v1f)) + magdyn_vec2_norm(vsub(b.v, v2f)));
        /* seed 003 eq. 1.7: c from 2 to 1 in our naming, M_r = 2 m1 m2 / M */
        c = magdyn_vec2_scale(drc, 1.0 / magdyn_vec2_norm(drc));
        u = magdyn_vec2_madd(b0.v, -(2 * m1 * m2 / M) / m2 * magdyn_vec2_dot(c, vsub(b0.v, a0.v)), c);
        worst = fmax(worst, magdyn_vec2_norm(vsub(b.v, u)));
        u = magdyn_vec2_madd(a0.v, (2 * m1 * m2 / M) / m1 * magdyn_vec2_dot(c, vsub(b0.v, a0.v)), c);
        worst = fmax(worst, magdyn_vec2_norm(vsub(a.v, u)));
        /* centre-of-mass form, head-on (velocities along the line of
         * centres): v_i' = V - e m_j/M v_ij */
        a = a0; b = b0;
        a.v = magdyn_vec2_scale(c, magdyn_vec2_dot(a0.v, c));
        b.v = magdyn_vec2_scale(c, magdyn_vec2_dot(b0.v, c));
        if (magdyn_vec2_dot(vsub(a.v, b.v), c) < 0) {
            magdyn_vec2 vij = vsub(a.v, b.v), V;
            V = magdyn_vec2_scale(magdyn_vec2_madd(magdyn_vec2_scale(a.v, m1), m2, b.v), 1.0 / M);
            magdyn_disc_collide(&a, &b, e);
            worst = fmax(worst, magdyn_vec2_norm(vsub(a.v, magdyn_vec2_madd(V, -e * m2 / M, vij))));
            worst = fmax(worst, magdyn_vec2_norm(vsub(b.v, magdyn_vec2_madd(V, e * m1 / M, vij))));
        }
    }
    ck_assert_msg(worst < 1e-12, "seed formulas differ by %g", worst);
}
END_TEST

START_TEST(disc_collide_conservation)
{
    test_rng r = {4242};
    long n = test_count(100000), i;
    double worst_p = 0, worst_e = 0, worst_rest = 0;
    for (i = 0; i < n; i++) {
        magdyn_disc a, b, a0, b0;
        double e = i % 2 ? 1.0 : test_rng_uniform(&r), vn0, vn1, mu, e0, e1, p0, p1;
        magdyn_vec2 c;
        contact_pair(&r, &a, &b);
        a0 = a; b0 = b;
        magdyn_disc_collide(&a, &b, e);
        c = magdyn_vec2_scale(vsub(a0.r, b0.r), 1.0 / magdyn_vec2_norm(vsub(a0.r, b0.r)));
        vn0 = magdyn_vec2_dot(vsub(a0.v, b0.v), c);
        vn1 = magdyn_vec2_dot(vsub(a.v, b.v), c);
        /* relative to the speeds, as the velocities carry the rounding */
        worst_rest = fmax(worst_rest, fabs(vn1 + e * vn0) / (magdyn_vec2_norm(a0.v) + magdyn_vec2_norm(b0.v)));
        p0 = a0.mass * magdyn_vec2_norm(a0.v) + b0.mass * magdyn_vec2_norm(b0.v);
        worst_p = fmax(worst_p, magdyn_vec2_norm(magdyn_vec2_sub(
            magdyn_vec2_madd(magdyn_vec2_scale(a.v, a.mass), b.mass, b.v),
            magdyn_vec2_madd(magdyn_vec2_scale(a0.v, a0.mass), b0.mass, b0.v))) / p0);
        e0 = 0.5 * (a0.mass * magdyn_vec2_norm2(a0.v) + b0.mass * magdyn_vec2_norm2(b0.v));
        e1 = 0.5 * (a.mass * magdyn_vec2_norm2(a.v) + b.mass * magdyn_vec2_norm2(b.v));
        mu = a.mass * b.mass / (a.mass + b.mass);
        /* energy lost: (1 - e^2) mu vn^2 / 2 */
        worst_e = fmax(worst_e, fabs(e0 - e1 - 0.5 * (1 - e * e) * mu * vn0 * vn0) / e0);
        /* a second call on the now separating pair changes nothing */
        a0 = a; b0 = b;
        magdyn_disc_collide(&a, &b, e);
        ck_assert(memcmp(&a, &a0, sizeof a) == 0 && memcmp(&b, &b0, sizeof b) == 0);
        (void)p1;
    }
    ck_assert_msg(worst_p < 1e-13, "momentum %g", worst_p);
    ck_assert_msg(worst_e < 1e-13, "energy %g", worst_e);
    ck_assert_msg(worst_rest < 1e-12, "restitution %g", worst_rest);
}
END_TEST

START_TEST(bad_input_untouched)
{
    magdyn_disc a = mkdisc(0, 0, 1, 0, 1, 0.5), b = mkdisc(1, 0, -1, 0, 1, 0.5), a0 = a, b0 = b;
    magdyn_rotor r;
    magdyn_disc bad = b;
    memset(&r, 0, sizeof r);
    magdyn_disc_collide(&a, &b, 1.5);
    magdyn_disc_collide(&a, &b, NAN);
    magdyn_disc_collide(&a, &b, -0.1);
    magdyn_disc_collide(&a, NULL, 1);
    magdyn_disc_collide(NULL, &b, 1);
    magdyn_disc_collide(&a, &a, 1);
    bad.mass = 0;
    magdyn_disc_collide(&a, &bad, 1);
    bad = b; bad.v.x = NAN;
    magdyn_disc_collide(&a, &bad, 1);
    bad = b; bad.r = a.r;                    /* coincident centres */
    magdyn_disc_collide(&a, &bad, 1);
    ck_assert(memcmp(&a, &a0, sizeof a) == 0 && memcmp(&b, &b0, sizeof b) == 0);
    ck_assert_int_eq(magdyn_disc_check(&a), MAGDYN_OK);
    ck_assert_int_eq(magdyn_disc_check(NULL), MAGDYN_EINVAL);
    bad = b; bad.radius = -1;
    ck_assert_int_eq(magdyn_disc_check(&bad), MAGDYN_EINVAL);
    bad = b; bad.r.y = INFINITY;
    ck_assert_int_eq(magdyn_disc_check(&bad), MAGDYN_ENONFINITE);
    /* an all-zero rotor is invalid: nothing happens */
    ck_assert_int_eq(magdyn_rotor_check(&r), MAGDYN_EINVAL);
    magdyn_rotor_disc_collide(&r, &a, 1);
    magdyn_rotor_rotor_collide(&r, &r, 1);
    ck_assert(memcmp(&a, &a0, sizeof a) == 0);
    ck_assert(isnan(magdyn_rotor_disc_contact_time(&r, &a, 1)));
    ck_assert(isnan(magdyn_rotor_rotor_contact_time(&r, &r, 1)));
    r.mass = 1; r.inertia = 1; r.half_length = 1; r.end_radius = 0.1;
    ck_assert_int_eq(magdyn_rotor_check(&r), MAGDYN_OK);
    ck_assert(isnan(magdyn_rotor_disc_contact_time(&r, &a, NAN)));
    ck_assert(isnan(magdyn_rotor_disc_contact_time(&r, &a, -1)));
    r.omega = NAN;
    ck_assert_int_eq(magdyn_rotor_check(&r), MAGDYN_ENONFINITE);
    ck_assert(isnan(magdyn_rotor_inertia(1, 2, 1, 1)));
    ck_assert_double_eq_tol(magdyn_rotor_inertia(2, 0, 1, 0.1), 2 * (1 + 0.005), 1e-15);
}
END_TEST

/* ---- rotors -------------------------------------------------------------- */

static magdyn_rotor random_rotor(test_rng *r)
{
    magdyn_rotor q;
    q.r = magdyn_v2(test_rng_range(r, -2, 2), test_rng_range(r, -2, 2));
    q.v = magdyn_v2(test_rng_normal(r), test_rng_normal(r));
    q.angle = test_rng_range(r, -MAGDYN_PI, MAGDYN_PI);
    q.omega = 3 * test_rng_normal(r);
    q.mass = test_rng_range(r, 0.2, 5);
    q.half_length = test_rng_range(r, 0.2, 1);
    q.end_radius = test_rng_range(r, 0.05, 0.3);
    q.inertia = magdyn_rotor_inertia(q.mass, test_rng_range(r, 0, 0.5) * q.mass, q.half_length, q.end_radius);
    return q;
}

static magdyn_vec2 rotor_momentum(const magdyn_rotor *q) { return magdyn_vec2_scale(q->v, q->mass); }
/* angular momentum about the origin: orbital + spin */
static double rotor_L(const magdyn_rotor *q)
{ return q->mass * magdyn_vec2_cross(q->r, q->v) + q->inertia * q->omega; }
static double rotor_E(const magdyn_rotor *q)
{ return 0.5 * q->mass * magdyn_vec2_norm2(q->v) + 0.5 * q->inertia * q->omega * q->omega; }
static double disc_L(const magdyn_disc *d) { return d->mass * magdyn_vec2_cross(d->r, d->v); }
static double disc_E(const magdyn_disc *d) { return 0.5 * d->mass * magdyn_vec2_norm2(d->v); }

/* Velocity of the material point at p of a rotor. */
static magdyn_vec2 rotor_point_velocity(const magdyn_rotor *q, magdyn_vec2 p)
{ return magdyn_vec2_madd(q->v, q->omega, magdyn_vec2_perp(vsub(p, q->r))); }

/* 10^5 random rotor-disc and rotor-rotor collisions at contact: p, L, E
 * (e = 1) exact; the normal contact velocity reversed by e; and the change
 * of the rotor is the rigid-body response to the impulse P on it:
 * m dv = P, I d(omega) = r x P (seed 003's "first solution"). */
START_TEST(rotor_collisions_conserve)
{
    test_rng r = {99};
    long n = test_count(100000), i, hits = 0;
    double wp = 0, wl = 0, we = 0, wr = 0, wrigid = 0;
    for (i = 0; i < n; i++) {
        double e = i % 2 ? 1.0 : test_rng_uniform(&r);
        magdyn_rotor a = random_rotor(&r), b = random_rotor(&r), a0, b0;
        magdyn_vec2 ea0, c, pa, pb, p0, p1, P, cp;
        double ang = test_rng_range(&r, 0, 2 * MAGDYN_PI), vn0, vn1, L0, L1, E0, E1, scale;
        if (i % 3 == 0) {
            /* rotor-disc: the disc at contact with end 0 */
            magdyn_disc d = mkdisc(0, 0, test_rng_normal(&r), test_rng_normal(&r),
                                   test_rng_range(&r, 0.2, 5), test_rng_range(&r, 0.05, 0.5)), d0;
            magdyn_rotor_ends(&a, &ea0, NULL);
            c = magdyn_v2(cos(ang), sin(ang));              /* from disc to end */
            d.r = magdyn_vec2_madd(ea0, -(a.end_radius + d.radius), c);
            cp = magdyn_vec2_madd(ea0, -a.end_radius, c);
            vn0 = magdyn_vec2_dot(vsub(rotor_point_velocity(&a, cp), d.v), c);
            if (vn0 >= 0) continue;
            /* the other end must not be nearer the disc */
            {
                magdyn_vec2 e1;
                magdyn_rotor_ends(&a, NULL, &e1);
                if (magdyn_vec2_norm(vsub(e1, d.r)) < a.end_radius + d.radius) continue;
            }
            a0 = a; d0 = d;
            magdyn_rotor_disc_collide(&a, &d, e);
            vn1 = magdyn_vec2_dot(vsub(rotor_point_velocity(&a, cp), d.v), c);
            p0 = magdyn_vec2_add(rotor_momentum(&a0), magdyn_vec2_scale(d0.v, d0.mass));
            p1 = magdyn_vec2_add(rotor_momentum(&a), magdyn_vec2_scale(d.v, d.mass));
            L0 = rotor_L(&a0) + disc_L(&d0); L1 = rotor_L(&a) + disc_L(&d);
            E0 = rotor_E(&a0) + disc_E(&d0); E1 = rotor_E(&a) + disc_E(&d);
            P = magdyn_vec2_scale(vsub(a.v, a0.v), a.mass);
            /* scales: the momenta and angular momenta present (rounding of v) */
            scale = a0.mass * magdyn_vec2_norm(a0.v) + d0.mass * magdyn_vec2_norm(d0.v);
            wrigid = fmax(wrigid, fabs(a.inertia * (a.omega - a0.omega) - magdyn_vec2_cross(vsub(cp, a0.r), P)) /
                                      (scale * (a.half_length + a.end_radius) + a.inertia * fabs(a0.omega)));
            wrigid = fmax(wrigid, magdyn_vec2_norm(magdyn_vec2_add(P, magdyn_vec2_scale(vsub(d.v, d0.v), d.mass))) / scale);
            wrigid = fmax(wrigid, fabs(magdyn_vec2_cross(P, c)) / scale);
        } else {
            magdyn_rotor_ends(&a, &ea0, NULL);
            c = magdyn_v2(cos(ang), sin(ang));              /* from b's end to a's end */
            /* place b so that its end 1 touches a's end 0 */
            {
                magdyn_vec2 u = magdyn_v2(b.half_length * cos(b.angle), b.half_length * sin(b.angle)), e0b, e1b, e1a;
                pb = magdyn_vec2_madd(ea0, -(a.end_radius + b.end_radius), c);
                b.r = magdyn_vec2_add(pb, u);               /* end 1 = r - u */
                magdyn_rotor_ends(&b, &e0b, &e1b);
                magdyn_rotor_ends(&a, NULL, &e1a);
                /* that pair must be the nearest */
                if (magdyn_vec2_norm(vsub(e0b, ea0)) < a.end_radius + b.end_radius ||
                    magdyn_vec2_norm(vsub(e0b, e1a)) < a.end_radius + b.end_radius ||
                    magdyn_vec2_norm(vsub(e1b, e1a)) < a.end_radius + b.end_radius)
                    continue;
            }
            cp = magdyn_vec2_madd(ea0, -a.end_radius, c);
            vn0 = magdyn_vec2_dot(vsub(rotor_point_velocity(&a, cp), rotor_point_velocity(&b, cp)), c);
            if (vn0 >= 0) continue;
            a0 = a; b0 = b;
            magdyn_rotor_rotor_collide(&a, &b, e);
            vn1 = magdyn_vec2_dot(vsub(rotor_point_velocity(&a, cp), rotor_point_velocity(&b, cp)), c);
            p0 = magdyn_vec2_add(rotor_momentum(&a0), rotor_momentum(&b0));
            p1 = magdyn_vec2_add(rotor_momentum(&a), rotor_momentum(&b));
            L0 = rotor_L(&a0) + rotor_L(&b0); L1 = rotor_L(&a) + rotor_L(&b);
            E0 = rotor_E(&a0) + rotor_E(&b0); E1 = rotor_E(&a) + rotor_E(&b);
            P = magdyn_vec2_scale(vsub(a.v, a0.v), a.mass);
            scale = a0.mass * magdyn_vec2_norm(a0.v) + b0.mass * magdyn_vec2_norm(b0.v);
            wrigid = fmax(wrigid, fabs(a.inertia * (a.omega - a0.omega) - magdyn_vec2_cross(vsub(cp, a0.r), P)) /
                                      (scale * (a.half_length + a.end_radius) + a.inertia * fabs(a0.omega)));
            wrigid = fmax(wrigid, fabs(b.inertia * (b.omega - b0.omega) + magdyn_vec2_cross(vsub(cp, b0.r), P)) /
                                      (scale * (b.half_length + b.end_radius) + b.inertia * fabs(b0.omega)));
        }
        hits++;
        pa = p0;
        scale = magdyn_vec2_norm(pa) + 1e-300;
        wp = fmax(wp, magdyn_vec2_norm(vsub(p1, p0)) / scale);
        wl = fmax(wl, fabs(L1 - L0) / (fabs(L0) + E0));
        if (e == 1.0) we = fmax(we, fabs(E1 - E0) / E0);
        wr = fmax(wr, fabs(vn1 + e * vn0) / (fabs(vn0) + magdyn_vec2_norm(a0.v) + fabs(a0.omega) * a0.half_length));
    }
    ck_assert(hits > n / 5);
    ck_assert_msg(wp < 1e-12, "momentum %g", wp);
    ck_assert_msg(wl < 1e-12, "angular momentum %g", wl);
    ck_assert_msg(we < 1e-12, "energy %g", we);
    ck_assert_msg(wr < 1e-9, "restitution law %g", wr);
    ck_assert_msg(wrigid < 1e-12, "rigid-body response %g", wrigid);
}
END_TEST

/* A disc hitting a non-spinning rotor end on the rod's axis: no torque, so
 * the rotor responds as a disc of the rotor's mass (eq. 1.7 special case). */
START_TEST(rotor_axial_hit_is_disc_collision)
{
    magdyn_rotor q;
    magdyn_disc d = mkdisc(2.3, 0, -1, 0, 0.7, 0.2), dd, rd;
    memset(&q, 0, sizeof q);
    q.mass = 2; q.inertia = 0.5; q.half_length = 1; q.end_radius = 0.1;
    q.v = magdyn_v2(0.3, 0);
    rd = mkdisc(1.0, 0, 0.3, 0, 2, 0.1);          /* the rotor as a disc at its end */
    dd = d;
    magdyn_disc_collide(&rd, &dd, 0.8);
    magdyn_rotor_disc_collide(&q, &d, 0.8);
    ck_assert_double_eq_tol(q.v.x, rd.v.x, 1e-15);
    ck_assert_double_eq_tol(d.v.x, dd.v.x, 1e-15);
    ck_assert(q.omega == 0.0 && q.v.y == 0.0);
}
END_TEST

/* Seed 003 section 2: an impulse P along -x at one end of a rotor at rest,
 * rod at angle a.  The rigid-body answer is dv = P/(2m), d(omega) =
 * -P l sin(a)... ; the seed's "second solution" breaks momentum. */
START_TEST(seed003_impulse_response)
{
    magdyn_rotor q;
    magdyn_disc d;
    double a = 0.6, m = 1.0, l = 1.0, seed_dv, our_dv, P;
    memset(&q, 0, sizeof q);
    q.mass = 2 * m; q.inertia = 2 * m * l * l; q.half_length = l; q.end_radius = 0.1;
    q.angle = a;
    /* a disc moving in -x hits end 0 from the +x side along the x axis */
    d = mkdisc(l * cos(a) + 0.1 + 0.2, l * sin(a), -1, 0, 0.5, 0.2);
    magdyn_rotor_disc_collide(&q, &d, 1.0);
    P = 0.5 * (d.v.x - -1.0);                         /* impulse on the rotor is -P_disc */
    our_dv = q.v.x;
    ck_assert_double_eq_tol(our_dv * q.mass, -P, 1e-15);          /* m dv = impulse */
    /* I d(omega) = (r x P)_z with r = l (cos a, sin a), P = (-P, 0): l sin(a) P */
    ck_assert_double_eq_tol(q.inertia * q.omega, l * sin(a) * P, 1e-15);
    /* the seed's eq. 1.14 second root: dv = Px (1 - cos^2 a) / (2 m (1 + cos^2 a)) */
    seed_dv = -P * (1 - cos(a) * cos(a)) / (2 * m * (1 + cos(a) * cos(a)));
    ck_assert(fabs(seed_dv - our_dv) > 0.1 * fabs(our_dv));
}
END_TEST

/* Brute-force check of the rotor contact times: sample the gap finely; the
 * root finder's time is at contact (to 1e-12 of the contact distance) and
 * no sample before it overlaps. */
static double min_gap_rd(const magdyn_rotor *q, const magdyn_disc *d, double t)
{
    magdyn_rotor a = *q;
    magdyn_disc b = *d;
    magdyn_vec2 e0, e1;
    a.r = magdyn_vec2_madd(a.r, t, a.v); a.angle += a.omega * t;
    b.r = magdyn_vec2_madd(b.r, t, b.v);
    magdyn_rotor_ends(&a, &e0, &e1);
    return fmin(magdyn_vec2_norm(vsub(e0, b.r)), magdyn_vec2_norm(vsub(e1, b.r))) - a.end_radius - b.radius;
}

static double min_gap_rr(const magdyn_rotor *p, const magdyn_rotor *q, double t)
{
    magdyn_rotor a = *p, b = *q;
    magdyn_vec2 ea[2], eb[2];
    double g = INFINITY;
    int i, j;
    a.r = magdyn_vec2_madd(a.r, t, a.v); a.angle += a.omega * t;
    b.r = magdyn_vec2_madd(b.r, t, b.v); b.angle += b.omega * t;
    magdyn_rotor_ends(&a, &ea[0], &ea[1]);
    magdyn_rotor_ends(&b, &eb[0], &eb[1]);
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++)
            g = fmin(g, magdyn_vec2_norm(vsub(ea[i], eb[j])) - a.end_radius - b.end_radius);
    return g;
}

START_TEST(rotor_contact_times_brute_force)
{
    test_rng r = {31337};
    long n = test_count(2000), i, found = 0;
    int samples = 1500, k;
    double horizon = 3.0, worst = 0;
    for (i = 0; i < n; i++) {
        magdyn_rotor a = random_rotor(&r), b = random_rotor(&r);
        magdyn_disc d = mkdisc(test_rng_range(&r, -2, 2), test_rng_range(&r, -2, 2),
                               test_rng_normal(&r), test_rng_normal(&r), 1, test_rng_range(&r, 0.05, 0.4));
        int rr = i % 2;
        double t, g, s;
        if (rr ? min_gap_rr(&a, &b, 0) <= 0 : min_gap_rd(&a, &d, 0) <= 0) continue;
        t = rr ? magdyn_rotor_rotor_contact_time(&a, &b, horizon)
               : magdyn_rotor_disc_contact_time(&a, &d, horizon);
        s = rr ? a.end_radius + b.end_radius : a.end_radius + d.radius;
        ck_assert(!isnan(t));
        for (k = 0; k <= samples; k++) {
            double ts = horizon * k / samples;
            if (ts >= t) break;
            g = rr ? min_gap_rr(&a, &b, ts) : min_gap_rd(&a, &d, ts);
            ck_assert_msg(g > -1e-12 * s, "missed a contact at %g (found %g)", ts, t);
        }
        if (isinf(t)) continue;
        found++;
        ck_assert(t <= horizon);
        g = rr ? min_gap_rr(&a, &b, t) : min_gap_rd(&a, &d, t);
        worst = fmax(worst, fabs(g) / s);
    }
    ck_assert(found > n / 20);
    ck_assert_msg(worst < 1.01e-12, "contact gap %g", worst);
}
END_TEST

/*
 * Rotors spinning alike, side by side (fuzz/corpus/gas/regress-wedge-*:
 * the gas's rotors came out of held contacts turning at rates 1e-13
 * apart): the offset of their ends changes only by the difference of the
 * rates.  Exactly alike, the ends' distance is constant, so a pair 1e-10
 * of the contact distance apart never touches: INFINITY (rods 0.1 m, ends
 * 0.02 m: the crossed ends stay 0.16 m apart).  (Bounded by each
 * end at full speed, the search stepped 1e-9 s at a time and returned an
 * early time at its cap.)  At rates apart by 1e-13 .. 1e-2 relative, with
 * the centres drifting together slowly, the time agrees with fine sampling
 * of the ends' gap: no sample before it overlaps, and the gap there is
 * within 1e-12 of the contact distance (as rotor_contact_times_brute_force).
 */
START_TEST(corotating_rotor_contact_times)
{
    static const double apart[] = {0.0, 1e-13, 1e-9, 1e-4, 1e-2};
    test_rng r = {4242};
    magdyn_rotor a = {{0, 0}, {0, 0}, 0.3, 50.0, 1.0, 1e-3, 0.1, 0.02}, b = a;
    double s = a.end_radius + b.end_radius, t;
    int i, k, samples = 20000;
    b.r = magdyn_v2(0.0, s * (1 + 1e-10));
    t = magdyn_rotor_rotor_contact_time(&a, &b, 3.0);
    ck_assert_msg(isinf(t), "alike rotors at a constant gap touch at %g", t);
    for (i = 0; i < 200; i++) {
        double horizon = 0.5, g, worst;
        a = random_rotor(&r);
        b = a;
        b.omega = a.omega * (1.0 + apart[i % 5]);
        /* beside a, clear of it, and drifting back towards it */
        b.r = magdyn_vec2_add(a.r, magdyn_v2(0.0, 2.0 * a.end_radius * (1.0 + test_rng_range(&r, 1e-9, 0.05))));
        b.v = magdyn_vec2_add(a.v, magdyn_v2(0.0, -test_rng_range(&r, 0.0, 0.02)));
        if (min_gap_rr(&a, &b, 0) <= 0) continue;
        t = magdyn_rotor_rotor_contact_time(&a, &b, horizon);
        ck_assert(!isnan(t));
        for (k = 0; k <= samples; k++) {
            double ts = horizon * k / samples;
            if (ts >= t) break;
            g = min_gap_rr(&a, &b, ts);
            ck_assert_msg(g > -1e-12 * 2.0 * a.end_radius, "case %d: missed a contact at %g (found %g)", i, ts, t);
        }
        if (isinf(t)) continue;
        worst = fabs(min_gap_rr(&a, &b, t)) / (2.0 * a.end_radius);
        ck_assert_msg(worst < 1.01e-12, "case %d: contact gap %g", i, worst);
    }
}
END_TEST

/* A non-spinning rotor's contact time equals the disc formula for its end. */
START_TEST(rotor_contact_without_spin_is_analytic)
{
    test_rng r = {5};
    long n = test_count(20000), i, cmp = 0;
    for (i = 0; i < n; i++) {
        magdyn_rotor a = random_rotor(&r);
        magdyn_disc d = mkdisc(test_rng_range(&r, -3, 3), test_rng_range(&r, -3, 3),
                               test_rng_normal(&r), test_rng_normal(&r), 1, 0.2), e;
        magdyn_vec2 e0, e1;
        double t, t0, t1;
        a.omega = 0;
        if (min_gap_rd(&a, &d, 0) <= 0) continue;
        magdyn_rotor_ends(&a, &e0, &e1);
        e = mkdisc(e0.x, e0.y, a.v.x, a.v.y, 1, a.end_radius);
        t0 = magdyn_disc_contact_time(&e, &d);
        e.r = e1;
        t1 = magdyn_disc_contact_time(&e, &d);
        t = magdyn_rotor_disc_contact_time(&a, &d, INFINITY);
        if (isinf(fmin(t0, t1))) { ck_assert(isinf(t)); continue; }
        cmp++;
        ck_assert_msg(fabs(t - fmin(t0, t1)) <= 1e-9 * (1 + fmin(t0, t1)), "%g vs %g", t, fmin(t0, t1));
    }
    ck_assert(cmp > (n >= 20000 ? 100 : 0));
}
END_TEST

/* A grazing encounter (closest approach = contact distance) and a spinning
 * rotor whose end sweeps past a disc at rest. */
START_TEST(rotor_grazing_and_sweep)
{
    magdyn_rotor q;
    magdyn_disc d = mkdisc(0, 0, 0, 0, 1, 0.1);
    double t;
    memset(&q, 0, sizeof q);
    q.mass = 1; q.inertia = 0.3; q.half_length = 0.5; q.end_radius = 0.1;
    /* spinning in place, the end circle of radius 0.5 about (0.7, 0):
     * end 1 starts at (0.2 + ..) - the disc at the origin is reached when
     * end 1 comes within 0.2 of it */
    q.r = magdyn_v2(0.65, 0); q.angle = MAGDYN_PI / 2; q.omega = 1;
    t = magdyn_rotor_disc_contact_time(&q, &d, 10);
    /* end 1 = r - l (cos, sin)(pi/2 + t): reaches x = 0.15 + .. when
     * |(0.65 - 0.5 cos(pi/2 + t), -0.5 sin(pi/2 + t))| = 0.2 */
    ck_assert(isfinite(t));
    ck_assert_double_eq_tol(min_gap_rd(&q, &d, t), 0.0, 1e-12);
    /* exact grazing of a translating, non-spinning rotor: touching, not
     * overlapping: reported as contact or miss, but never overlap */
    q.r = magdyn_v2(-3, 0.2); q.angle = 0; q.omega = 0; q.v = magdyn_v2(1, 0);
    t = magdyn_rotor_disc_contact_time(&q, &d, 10);
    ck_assert(isinf(t) || fabs(min_gap_rd(&q, &d, t)) < 1e-12);
}
END_TEST

/* ---- rough discs --------------------------------------------------------- */

START_TEST(rough_discs)
{
    test_rng r = {2024};
    long n = test_count(50000), i;
    double wsmooth = 0, we = 0, wl = 0, wt = 0;
    for (i = 0; i < n; i++) {
        magdyn_rough_disc a, b, a0, b0;
        magdyn_disc sa, sb;
        double beta = i % 3 == 0 ? -1.0 : i % 3 == 1 ? 1.0 : test_rng_range(&r, -1, 1);
        double e = i % 2 ? 1.0 : test_rng_uniform(&r), L0, L1, E0, E1, gt0, gt1;
        magdyn_vec2 nn, tt;
        contact_pair(&r, &a.d, &b.d);
        a.omega = 5 * test_rng_normal(&r); b.omega = 5 * test_rng_normal(&r);
        a.inertia = 0.5 * a.d.mass * a.d.radius * a.d.radius;
        b.inertia = 0.5 * b.d.mass * b.d.radius * b.d.radius;
        a0 = a; b0 = b; sa = a.d; sb = b.d;
        magdyn_rough_disc_collide(&a, &b, e, beta);
        nn = magdyn_vec2_scale(vsub(a0.d.r, b0.d.r), 1.0 / magdyn_vec2_norm(vsub(a0.d.r, b0.d.r)));
        tt = magdyn_vec2_perp(nn);
        gt0 = magdyn_vec2_dot(vsub(a0.d.v, b0.d.v), tt) - a0.d.radius * a0.omega - b0.d.radius * b0.omega;
        gt1 = magdyn_vec2_dot(vsub(a.d.v, b.d.v), tt) - a.d.radius * a.omega - b.d.radius * b.omega;
        wt = fmax(wt, fabs(gt1 + beta * gt0) / (fabs(gt0) + 1e-300));
        if (beta == -1.0) {
            magdyn_disc_collide(&sa, &sb, e);
            wsmooth = fmax(wsmooth, magdyn_vec2_norm(vsub(sa.v, a.d.v)) + magdyn_vec2_norm(vsub(sb.v, b.d.v)));
            ck_assert(a.omega == a0.omega && b.omega == b0.omega);
        }
        L0 = disc_L(&a0.d) + disc_L(&b0.d) + a0.inertia * a0.omega + b0.inertia * b0.omega;
        L1 = disc_L(&a.d) + disc_L(&b.d) + a.inertia * a.omega + b.inertia * b.omega;
        E0 = disc_E(&a0.d) + disc_E(&b0.d) + 0.5 * (a0.inertia * a0.omega * a0.omega + b0.inertia * b0.omega * b0.omega);
        E1 = disc_E(&a.d) + disc_E(&b.d) + 0.5 * (a.inertia * a.omega * a.omega + b.inertia * b.omega * b.omega);
        wl = fmax(wl, fabs(L1 - L0) / (fabs(L0) + E0));
        if (e == 1.0 && fabs(beta) == 1.0) we = fmax(we, fabs(E1 - E0) / E0);
        if (e < 1.0 || fabs(beta) < 1.0) ck_assert(E1 <= E0 * (1 + 1e-13));
    }
    ck_assert_msg(wsmooth < 1e-13, "smooth limit %g", wsmooth);
    ck_assert_msg(we < 1e-12, "energy %g", we);
    ck_assert_msg(wl < 1e-12, "angular momentum %g", wl);
    ck_assert_msg(wt < 1e-9, "tangential restitution %g", wt);
}
END_TEST

/*
 * Found by fuzz/fuzz_kinetics.c: a rotor with denormal mass and inertia and
 * a velocity of 1e285 m/s against a disc; the impulse overflowed and the
 * collision left NaN velocities.  Subnormal masses and inertias are now bad
 * input: 1/m overflows (in fuzz/corpus/kinetics/regress-rotor-subnormal-
 * inertia.bin a gas rotor of inertia 2.6e-320 never bounced off a wall and
 * spun the event loop).  At the smallest normal ones results stay finite.
 */
START_TEST(collide_overflow_stays_finite)
{
    magdyn_disc d = {{0x0.000000000009ap-1022, -0x1.851eb851eb84p-532},
                     {-0x1.333333333333fp-284, 0x1.fff3f847ae147p+624},
                     0x1.fe66666666666p-92, 0x1.ff00000333333p-1020};
    magdyn_rotor r = {{0x1.fep-1020, 0x1.ffp-1020}, {0x1.ffp+948, -0x1.99999999aae14p-614},
                      0x1.147ae147b3fb9p+943, 0x0.0000000003f94p-1022,
                      0x0.0000000003ff0p-1022, 0x0.0000000003fe0p-1022,
                      0x0.0000000003ff0p-1022, 0x1.f847ae1473ffp-28};
    magdyn_rotor r0 = r, r2;
    magdyn_disc d0 = d;
    magdyn_rough_disc ra = {d, 0.0, 0x0.0000000003fe0p-1022}, rb = {d, 0.0, 1.0}, ra0;
    ck_assert_int_eq(magdyn_disc_check(&d), MAGDYN_OK);
    ck_assert_int_eq(magdyn_rotor_check(&r), MAGDYN_EINVAL);      /* subnormal mass */
    magdyn_rotor_disc_collide(&r, &d, 0.0);
    ck_assert(memcmp(&r, &r0, sizeof r) == 0 && memcmp(&d, &d0, sizeof d) == 0);
    r.mass = DBL_MIN;
    ck_assert_int_eq(magdyn_rotor_check(&r), MAGDYN_EINVAL);      /* subnormal inertia */
    rb.d.r.x += 1.0;
    ra0 = ra;
    magdyn_rough_disc_collide(&ra, &rb, 1.0, 0.0);
    ck_assert(memcmp(&ra, &ra0, sizeof ra) == 0);
    d.mass = 0x1p-1030;
    ck_assert_int_eq(magdyn_disc_check(&d), MAGDYN_EINVAL);
    d = d0;
    r.inertia = DBL_MIN;
    ck_assert_int_eq(magdyn_rotor_check(&r), MAGDYN_OK);
    r2 = r;
    magdyn_rotor_disc_collide(&r, &d, 0.0);
    ck_assert(isfinite(r.v.x) && isfinite(r.v.y) && isfinite(r.omega));
    ck_assert(isfinite(d.v.x) && isfinite(d.v.y));
    r2.r.x += 1.0;
    magdyn_rotor_rotor_collide(&r, &r2, 1.0);
    ck_assert(isfinite(r.v.x) && isfinite(r.omega) && isfinite(r2.v.x) && isfinite(r2.omega));
}
END_TEST

/*
 * Found by fuzz/fuzz_kinetics.c: a rotor at 2e183 m/s.  The root finder's
 * curvature bound 2 (v^2 + l w^2 |d|) overflowed, every step came out 0 and
 * each search ran to its 1e5-step budget, returning t = 0 (early, but no
 * answer; the gas then spun on it).  Steps are now at least gap / v, the
 * classic conservative advancement.  At this speed the rod turns by 5e-183
 * rad before contact, so the time is the straight-line one:
 * end disc at x = 0.05 + v t meets the disc at 1 - 0.02.
 */
START_TEST(fast_rotor_contact_time)
{
    magdyn_rotor r = {{0, 0}, {1e183, 0}, 0.0, -5.0, 1.0, 1e-3, 0.05, 0.01};
    magdyn_disc d = {{1, 0}, {0, 0}, 1.0, 0.01};
    double t = magdyn_rotor_disc_contact_time(&r, &d, 1.0);
    ck_assert_double_eq_tol(t, 0.93 / 1e183, 1e-9 * 0.93 / 1e183);
}
END_TEST

/*
 * Found by fuzz/fuzz_kinetics.c: valid discs 4e160 m apart approaching at
 * 2e37 m/s; the squared distance overflowed and the contact time came out
 * NaN, which is reserved for bad input.  Exact time: (d - s)/v = 2e123 s.
 */
START_TEST(contact_time_overflow_not_nan)
{
    magdyn_disc a = {{0.0, 0.0}, {0.0, 0.0}, 1.0, 1.0};
    magdyn_disc b = {{-4e160, 0.0}, {2e37, 0.0}, 1.0, 1.0};
    double t = magdyn_disc_contact_time(&a, &b);
    ck_assert(!isnan(t));
    ck_assert_double_eq_tol(t, (4e160 - 2.0) / 2e37, 1e-9 * 2e123);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("kinetics");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);   /* wall clock, on a shared machine */
    tcase_add_test(tc, disc_contact_time_cases);
    tcase_add_test(tc, disc_contact_time_random);
    tcase_add_test(tc, disc_contact_time_extreme_scales);
    tcase_add_test(tc, disc_collide_matches_seeds);
    tcase_add_test(tc, disc_collide_conservation);
    tcase_add_test(tc, bad_input_untouched);
    tcase_add_test(tc, rotor_collisions_conserve);
    tcase_add_test(tc, rotor_axial_hit_is_disc_collision);
    tcase_add_test(tc, seed003_impulse_response);
    tcase_add_test(tc, rotor_contact_times_brute_force);
    tcase_add_test(tc, corotating_rotor_contact_times);
    tcase_add_test(tc, rotor_contact_without_spin_is_analytic);
    tcase_add_test(tc, rotor_grazing_and_sweep);
    tcase_add_test(tc, rough_discs);
    tcase_add_test(tc, collide_overflow_stays_finite);
    tcase_add_test(tc, fast_rotor_contact_time);
    tcase_add_test(tc, contact_time_overflow_not_nan);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
