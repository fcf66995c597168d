/*
 * test_world.c - layer 4, free flight: the integrator against Euler's
 * equations, conservation laws, and bad input.
 * References: torque-free asymmetric top, Landau and Lifshitz, Mechanics,
 * 3rd ed., section 37, eqs. (37.10)-(37.12) (Jacobi elliptic functions);
 * Jacobi functions and K(m) by the arithmetic-geometric mean, Abramowitz
 * and Stegun 16.4 and 17.6; dipole-dipole forces conserve total momentum and
 * angular momentum (orbital + spin), and kinetic + interaction energy.
 */
#include <check.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

/* sn, cn, dn of u for parameter m = k^2 (A&S 16.4), and K(m) (A&S 17.6). */
static void jacobi(double u, double m, double *sn, double *cn, double *dn, double *kk)
{
    double a[16], c[16], b, phi;
    int n = 0, i;
    a[0] = 1.0;
    b = sqrt(1.0 - m);
    c[0] = sqrt(m);
    while (fabs(c[n]) > 1e-16 && n < 15) {
        a[n + 1] = 0.5 * (a[n] + b);
        c[n + 1] = 0.5 * (a[n] - b);
        b = sqrt(a[n] * b);
        n++;
    }
    phi = ldexp(a[n] * u, n);
    for (i = n; i > 0; i--) {
        double prev = phi;
        phi = 0.5 * (phi + asin(c[i] / a[i] * sin(phi)));
        if (i == 1) *dn = cos(phi) / cos(prev - phi);
    }
    if (n == 0) *dn = 1.0;
    *sn = sin(phi);
    *cn = cos(phi);
    *kk = MAGDYN_PI / (2.0 * a[n]);
}

static magdyn_magnet plain_box(void)
{
    /* a 30 x 20 x 10 mm block of 47 g (steel-like), no magnetic moment */
    magdyn_magnet m;
    memset(&m, 0, sizeof m);
    m.half = magdyn_v3(0.015, 0.010, 0.005);
    m.mass = 0.047;
    m.orientation = magdyn_quat_identity();
    return m;
}

START_TEST(jacobi_sanity)
{
    double sn, cn, dn, kk;
    jacobi(0.3, 0.0, &sn, &cn, &dn, &kk);
    ck_assert_double_eq_tol(sn, sin(0.3), 1e-15);
    ck_assert_double_eq_tol(kk, MAGDYN_PI / 2, 1e-15);
    /* K(1/2) = 1.8540746773013719 (A&S table 17.1) */
    jacobi(0.7, 0.5, &sn, &cn, &dn, &kk);
    ck_assert_double_eq_tol(kk, 1.8540746773013719, 1e-14);
    ck_assert_double_eq_tol(sn * sn + cn * cn, 1.0, 1e-14);
    ck_assert_double_eq_tol(dn * dn + 0.5 * sn * sn, 1.0, 1e-14);
    jacobi(kk, 0.5, &sn, &cn, &dn, &kk);
    ck_assert_double_eq_tol(sn, 1.0, 1e-14);
}
END_TEST

/*
 * Torque-free box, I1 < I2 < I3 along x, y, z, started with omega_b =
 * (w1, 0, w3) and L^2 > 2 E I2:  omega1 = A1 cn(tau), omega2 = A2 sn(tau),
 * omega3 = A3 dn(tau), tau = t sqrt((I3 - I2)(L^2 - 2 E I1)/(I1 I2 I3)).
 * The rotation about the intermediate axis flips sign every 2 K(k) in tau.
 */
START_TEST(torque_free_matches_jacobi)
{
    magdyn_world *w = magdyn_world_new(NULL);
    magdyn_magnet m = plain_box(), out;
    magdyn_mat3 it = magdyn_mat3_box_inertia(m.mass, m.half);
    double i1 = it.m[0][0], i2 = it.m[1][1], i3 = it.m[2][2];
    double w1 = 3.0, w3 = 3.0, e2, l2, rate, k2, a1, a2, a3, worst = 0, kk, sn, cn, dn, t;
    double flips[8];
    int nflip = 0, n, prev_sign = 0;
    ck_assert_ptr_nonnull(w);
    m.omega = magdyn_v3(w1, 0, w3);   /* inertial = body at the start */
    ck_assert_int_eq(magdyn_world_add(w, &m), 0);
    e2 = i1 * w1 * w1 + i3 * w3 * w3;
    l2 = i1 * i1 * w1 * w1 + i3 * i3 * w3 * w3;
    ck_assert_double_gt(l2, e2 * i2);
    rate = sqrt((i3 - i2) * (l2 - e2 * i1) / (i1 * i2 * i3));
    k2 = (i2 - i1) * (e2 * i3 - l2) / ((i3 - i2) * (l2 - e2 * i1));
    a1 = sqrt((e2 * i3 - l2) / (i1 * (i3 - i1)));
    a2 = sqrt((e2 * i3 - l2) / (i2 * (i3 - i2)));
    a3 = sqrt((l2 - e2 * i1) / (i3 * (i3 - i1)));
    ck_assert_double_eq_tol(a1, w1, 1e-12);
    ck_assert_double_eq_tol(a3, w3, 1e-12);
    for (n = 1; n <= 4000; n++) {
        magdyn_vec3 wb;
        t = n * 1e-3;
        ck_assert_int_eq(magdyn_world_advance(w, t), MAGDYN_OK);
        ck_assert_int_eq(magdyn_world_get(w, 0, &out), MAGDYN_OK);
        wb = magdyn_quat_rotate_inv(out.orientation, out.omega);
        jacobi(rate * t, k2, &sn, &cn, &dn, &kk);
        worst = fmax(worst, fabs(wb.x - a1 * cn) + fabs(wb.y - a2 * sn) + fabs(wb.z - a3 * dn));
        if (wb.y != 0.0) {
            int sg = wb.y > 0 ? 1 : -1;
            if (prev_sign && sg != prev_sign && nflip < 8) flips[nflip++] = t;
            prev_sign = sg;
        }
    }
    ck_assert_msg(worst < 1e-7 * a2, "omega off the Jacobi solution by %g rad/s", worst);
    /* flips of the intermediate-axis rotation every 2 K / rate (to the 1 ms sampling) */
    ck_assert_int_ge(nflip, 2);
    ck_assert_double_eq_tol(flips[1] - flips[0], 2.0 * kk / rate, 2e-3);
    magdyn_world_free(w);
}
END_TEST

/* Energy and angular momentum over 100 turns at default tolerances. */
START_TEST(torque_free_conserves_over_100_turns)
{
    magdyn_world *w = magdyn_world_new(NULL);
    magdyn_magnet m = plain_box();
    magdyn_vec3 p, l0, l1;
    double e0, e1, turns = 100.0, spin = 10.0;
    m.omega = magdyn_v3(0.2, spin, 0.3);   /* near the intermediate axis: flips */
    ck_assert_int_eq(magdyn_world_add(w, &m), 0);
    e0 = magdyn_world_energy(w);
    ck_assert_int_eq(magdyn_world_momentum(w, &p, &l0), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_advance(w, turns * 2 * MAGDYN_PI / spin), MAGDYN_OK);
    e1 = magdyn_world_energy(w);
    ck_assert_int_eq(magdyn_world_momentum(w, &p, &l1), MAGDYN_OK);
    ck_assert_msg(fabs(e1 - e0) <= 1e-10 * e0, "energy drift %g", (e1 - e0) / e0);
    ck_assert_msg(magdyn_vec3_dist(l0, l1) <= 1e-10 * magdyn_vec3_norm(l0), "L drift %g",
                  magdyn_vec3_dist(l0, l1) / magdyn_vec3_norm(l0));
    {
        magdyn_magnet out;
        magdyn_world_get(w, 0, &out);
        ck_assert_double_le(fabs(magdyn_quat_norm(out.orientation) - 1.0), 1e-14);
    }
    magdyn_world_free(w);
}
END_TEST

/* Two N42 magnets passing each other without touching. */
START_TEST(two_magnets_free_flight_conserve)
{
    magdyn_world *w = magdyn_world_new(NULL);
    magdyn_magnet a = plain_box(), b;
    magdyn_world_stats st;
    magdyn_vec3 p0, l0, p1, l1;
    double e0, e1, mom = 1.3 * 1e-6 / MAGDYN_MU0;
    a.half = magdyn_v3(0.01, 0.005, 0.0025);
    a.mass = 7.5e-3;
    a.moment = magdyn_v3(0, 0, mom);
    b = a;
    a.position = magdyn_v3(-0.02, 0, 0);
    a.velocity = magdyn_v3(0, 0.5, 0.1);
    a.omega = magdyn_v3(3, -2, 8);
    b.position = magdyn_v3(0.02, 0.01, 0);
    b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 1, 0), 0.7);
    b.velocity = magdyn_v3(0, -0.5, 0);
    b.omega = magdyn_v3(-1, 4, 0);
    ck_assert_int_eq(magdyn_world_add(w, &a), 0);
    ck_assert_int_eq(magdyn_world_add(w, &b), 1);
    e0 = magdyn_world_energy(w);
    magdyn_world_momentum(w, &p0, &l0);
    ck_assert_int_eq(magdyn_world_advance(w, 0.04), MAGDYN_OK);
    e1 = magdyn_world_energy(w);
    magdyn_world_momentum(w, &p1, &l1);
    magdyn_world_get_stats(w, &st);
    ck_assert_int_eq((int)st.collisions, 0);
    /* scale for energy: the kinetic energy (the interaction energy changes sign) */
    ck_assert_msg(fabs(e1 - e0) <= 1e-8 * magdyn_world_kinetic_energy(w), "dE %g", e1 - e0);
    ck_assert_double_le(magdyn_vec3_dist(p0, p1), 1e-8 * (magdyn_vec3_norm(p0) + a.mass * 0.5));
    ck_assert_double_le(magdyn_vec3_dist(l0, l1), 1e-8 * magdyn_vec3_norm(l0));
    magdyn_world_free(w);
}
END_TEST

/* The extended-cuboid model: forces and torques applied as action and
 * reaction keep momentum and angular momentum to rounding; the energy (a
 * quadrature of the exact field) to the model's accuracy. */
START_TEST(cuboid_model_free_flight)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_magnet a = plain_box(), b;
    magdyn_vec3 p0, l0, p1, l1;
    double e0, e1, mom = 1.3 * 1e-6 / MAGDYN_MU0;
    p.model = MAGDYN_MODEL_CUBOID;
    p.model_tol = 1e-6;
    p.rtol = 1e-7;
    p.atol = 1e-10;
    w = magdyn_world_new(&p);
    a.half = magdyn_v3(0.01, 0.005, 0.0025);
    a.mass = 7.5e-3;
    a.moment = magdyn_v3(0, 0, mom);
    b = a;
    a.position = magdyn_v3(-0.012, 0, 0);
    a.velocity = magdyn_v3(0, 0.2, 0);
    b.position = magdyn_v3(0.012, 0.004, 0.003);
    b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 1, 0), 0.7);
    b.omega = magdyn_v3(0, 0, 5);
    ck_assert_int_eq(magdyn_world_add(w, &a), 0);
    ck_assert_int_eq(magdyn_world_add(w, &b), 1);
    e0 = magdyn_world_energy(w);
    magdyn_world_momentum(w, &p0, &l0);
    ck_assert_int_eq(magdyn_world_advance(w, 0.004), MAGDYN_OK);
    e1 = magdyn_world_energy(w);
    magdyn_world_momentum(w, &p1, &l1);
    ck_assert_double_le(magdyn_vec3_dist(p0, p1), 1e-12 * a.mass);
    ck_assert_double_le(magdyn_vec3_dist(l0, l1), 1e-7 * magdyn_vec3_norm(l0));   /* rtol */
    ck_assert_msg(fabs(e1 - e0) <= 1e-4 * fabs(e0), "dE %g of %g", e1 - e0, e0);
    ck_assert_double_gt(magdyn_world_kinetic_energy(w), 1.5 * 0.5 * a.mass * 0.04);  /* they attract */
    {
        /* the one pair is evaluated or reused at every force evaluation */
        magdyn_world_stats st;
        ck_assert_int_eq(magdyn_world_get_stats(w, &st), MAGDYN_OK);
        ck_assert_int_gt(st.pairs_exact, 0);
        ck_assert_int_eq(st.pairs_exact + st.pairs_reused, st.force_evals);
    }
    magdyn_world_free(w);
}
END_TEST

/* A free magnet in a uniform field B0 turns like a pendulum: energy
 * (kinetic - m.B0) kept; and gravity accelerates a free box by g. */
START_TEST(field_and_gravity)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_magnet m = plain_box(), out;
    double e0;
    p.field = magdyn_v3(0.01, 0, 0.02);
    p.gravity = magdyn_v3(0, 0, -9.81);
    w = magdyn_world_new(&p);
    m.moment = magdyn_v3(0.5, 0.2, 0);
    m.velocity = magdyn_v3(0.1, 0, 0);
    ck_assert_int_eq(magdyn_world_add(w, &m), 0);
    e0 = magdyn_world_energy(w);
    ck_assert_int_eq(magdyn_world_advance(w, 0.5), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_get(w, 0, &out), MAGDYN_OK);
    ck_assert_double_eq_tol(out.position.z, -0.5 * 9.81 * 0.25, 1e-12);
    ck_assert_double_eq_tol(out.velocity.z, -9.81 * 0.5, 1e-12);
    ck_assert_double_eq_tol(out.position.x, 0.05, 1e-13);
    ck_assert_double_le(fabs(magdyn_world_energy(w) - e0), 1e-10 * magdyn_world_kinetic_energy(w));
    ck_assert_double_gt(magdyn_vec3_norm(out.omega), 0.1);   /* it swings */
    magdyn_world_free(w);
}
END_TEST

START_TEST(bad_input)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w = magdyn_world_new(NULL);
    magdyn_magnet m = plain_box(), bad, out;
    magdyn_world_stats st;
    ck_assert_int_eq(magdyn_world_add(w, &m), 0);
    bad = m;
    bad.position.x = 0.01;    /* interpenetrating */
    ck_assert_int_eq(magdyn_world_add(w, &bad), MAGDYN_EOVERLAP);
    bad = m;
    bad.position = magdyn_v3(1, 0, 0);
    bad.mass = 0.0;
    ck_assert_int_eq(magdyn_world_add(w, &bad), MAGDYN_EINVAL);
    bad.mass = 1.0;
    bad.half.z = 0.0;
    ck_assert_int_eq(magdyn_world_add(w, &bad), MAGDYN_EINVAL);
    bad.half.z = 0.01;
    bad.velocity.y = NAN;
    ck_assert_int_eq(magdyn_world_add(w, &bad), MAGDYN_ENONFINITE);
    bad.velocity.y = 0;
    bad.orientation = magdyn_q(1, 1, 0, 0);
    ck_assert_int_eq(magdyn_world_add(w, &bad), MAGDYN_ENORM);
    ck_assert_int_eq(magdyn_world_add(w, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_add(NULL, &m), MAGDYN_EINVAL);
    /* a zero-filled magnet has a zero quaternion; magdyn_magnet_default's
       is the identity, and with a size and a mass it is a valid magnet */
    memset(&bad, 0, sizeof bad);
    bad.half = magdyn_v3(0.01, 0.01, 0.01);
    bad.mass = 1.0;
    bad.position = magdyn_v3(1, 0, 0);
    ck_assert_int_eq(magdyn_world_add(w, &bad), MAGDYN_ENORM);
    ck_assert_int_eq(magdyn_world_count(w), 1);
    bad = magdyn_magnet_default();
    ck_assert(bad.orientation.w == 1.0 && bad.orientation.x == 0.0 && bad.orientation.y == 0.0
              && bad.orientation.z == 0.0);
    ck_assert(bad.mass == 0.0 && bad.half.x == 0.0 && bad.moment.x == 0.0 && bad.fixed == 0);
    ck_assert_int_eq(magdyn_world_add(w, &bad), MAGDYN_EINVAL);   /* no size, no mass yet */
    bad.half = magdyn_v3(0.01, 0.01, 0.01);
    bad.mass = 1.0;
    bad.position = magdyn_v3(1, 0, 0);
    ck_assert_int_eq(magdyn_world_add(w, &bad), 1);
    ck_assert_int_eq(magdyn_world_count(w), 2);

    ck_assert_int_eq(magdyn_world_advance(w, 0.1), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_get(w, 0, &out), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_advance(w, 0.05), MAGDYN_ESTATE);
    {
        magdyn_magnet again;
        ck_assert_int_eq(magdyn_world_get(w, 0, &again), MAGDYN_OK);
        ck_assert(memcmp(&again.position, &out.position, sizeof out.position) == 0);
        ck_assert(memcmp(&again.orientation, &out.orientation, sizeof out.orientation) == 0);
    }
    ck_assert_int_eq(magdyn_world_advance(w, NAN), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_world_advance(NULL, 1.0), MAGDYN_EINVAL);
    ck_assert_double_eq(magdyn_world_time(w), 0.1);
    ck_assert_int_eq(magdyn_world_get(w, 2, &out), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_get(w, -1, &out), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_get(w, 0, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_get_stats(w, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_get_stats(w, &st), MAGDYN_OK);
    ck_assert(isnan(magdyn_world_energy(NULL)));
    ck_assert(isnan(magdyn_world_time(NULL)));
    magdyn_world_free(w);
    magdyn_world_free(NULL);

    p.restitution = 1.5;
    ck_assert_ptr_null(magdyn_world_new(&p));
    p = magdyn_world_params_default();
    p.rtol = 0.0;
    ck_assert_ptr_null(magdyn_world_new(&p));
    p = magdyn_world_params_default();
    p.gravity.y = INFINITY;
    ck_assert_ptr_null(magdyn_world_new(&p));
    p = magdyn_world_params_default();
    p.model = (magdyn_magnet_model)7;
    ck_assert_ptr_null(magdyn_world_new(&p));
    {
        /* the theta-method's weight: 0 .. 0.45, finite */
        static const double weights[] = {-0.1, 0.46, 0.5, 1.0, NAN, INFINITY};
        size_t k;
        for (k = 0; k < sizeof weights / sizeof *weights; k++) {
            p = magdyn_world_params_default();
            p.contact_start_weight = weights[k];
            ck_assert_ptr_null(magdyn_world_new(&p));
        }
        p.contact_start_weight = 0.45;
        w = magdyn_world_new(&p);
        ck_assert_ptr_nonnull(w);
        magdyn_world_free(w);
    }
}
END_TEST

/*
 * Found by fuzz/fuzz_world.c: advancing a world with no magnets passed NULL
 * arrays to memcpy (undefined even for 0 bytes; caught by
 * -fsanitize=undefined).  An empty world just lets time pass.
 */
START_TEST(empty_world_advances)
{
    magdyn_world *w = magdyn_world_new(NULL);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(magdyn_world_advance(w, 1e-3), MAGDYN_OK);
    ck_assert(magdyn_world_time(w) == 1e-3);
    magdyn_world_free(w);
}
END_TEST

/*
 * An advance by one ulp of the time is a step of one ulp (the examples'
 * frame clock asked for 0.01 and then 0.010000000000000002, and the world
 * answered MAGDYN_ENOCONV): two N42 cubes 5 cm apart (dipole force 2e-2 N,
 * speeds of 1e-5 m/s after 10 ms) end at the asked time, moved by no more
 * than their speed times the ulp, and advance on as before.
 */
START_TEST(advance_by_one_ulp)
{
    magdyn_world *w = magdyn_world_new(NULL);
    magdyn_magnet a = magdyn_magnet_default(), b, a0, a1;
    double t1 = nextafter(0.01, 1.0);
    a.half = magdyn_v3(0.005, 0.005, 0.005);
    a.mass = 7.5e-3;
    a.moment = magdyn_v3(0, 0, 1.3 * 1e-6 / MAGDYN_MU0);
    b = a;
    b.position.x = 0.05;
    ck_assert_int_eq(magdyn_world_add(w, &a), 0);
    ck_assert_int_eq(magdyn_world_add(w, &b), 1);
    ck_assert_int_eq(magdyn_world_advance(w, 0.01), MAGDYN_OK);
    magdyn_world_get(w, 0, &a0);
    ck_assert_int_eq(magdyn_world_advance(w, t1), MAGDYN_OK);
    ck_assert(magdyn_world_time(w) == t1);
    magdyn_world_get(w, 0, &a1);
    ck_assert_double_le(magdyn_vec3_dist(a0.position, a1.position),
                        2.0 * (t1 - 0.01) * magdyn_vec3_norm(a0.velocity) + 1e-18);
    ck_assert_int_eq(magdyn_world_advance(w, 0.02), MAGDYN_OK);
    ck_assert(magdyn_world_time(w) == 0.02);
    magdyn_world_free(w);
}
END_TEST

/*
 * Found by fuzz/fuzz_world.c as timeouts (fuzz/corpus/world/regress-needle.bin,
 * regress-long-rod.bin), extended-cuboid model: a needle 8.5e-17 m thick
 * (moment 0.1 A m^2) 1.5 cm above a 10 mm cube, and a rod 655 m long and
 * 10 mm thick of 0.1 kg beside a light cube.  Their forces carry the
 * closed forms' rounding (~1e-7 of F), which an error control asked for
 * atol 1e-9 resolved with steps of 1e-9 s (1.5e5 steps per 0.1 ms for the
 * needle, 17736 and 10261 rejected in 2 ms for the rod).  With the
 * extended model the integrator's tolerances are at least model_tol / 100
 * (magdyn_world_new(3)): both now take 2 ms in under 1000 steps (measured:
 * 195 and 1).  The host can still bound an advance with max_steps: it
 * stops with MAGDYN_EBUDGET before t_end, the state finite, and a further
 * advance goes on from there.
 */
static magdyn_world *thin_or_long(int which, long long max_steps)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_magnet a = magdyn_magnet_default(), b = magdyn_magnet_default();
    p.model = MAGDYN_MODEL_CUBOID;
    p.model_tol = 1e-3;
    p.rtol = 1e-6;
    p.atol = 1e-9;
    p.max_steps = max_steps;
    a.half = magdyn_v3(0.005, 0.005, 0.005);
    a.mass = which ? 1.57e-4 : 6e-3;
    a.moment = magdyn_v3(0, 0, which ? 0.1 : 0.0960938);
    b.half = which ? magdyn_v3(0.005, 327.68, 0.005) : magdyn_v3(4.2466e-17, 3.52478e-05, 0.005);
    b.mass = which ? 0.1 : 6e-3;
    b.moment = magdyn_v3(0, 0, which ? 0.015 : 0.1);
    b.position = magdyn_v3(0, 0, which ? -0.1 : 0.015);
    b.velocity = magdyn_v3(which ? 1.0 : 0.0, 0, which ? 0.0 : -0.1);
    b.omega = magdyn_v3(0.005, 0.005, 0.005);
    w = magdyn_world_new(&p);
    ck_assert_int_eq(magdyn_world_add(w, &a), 0);
    ck_assert_int_eq(magdyn_world_add(w, &b), 1);
    return w;
}

START_TEST(thin_and_long_bodies_stop_at_the_budget)
{
    magdyn_world *w;
    magdyn_magnet o;
    double t1;
    int which;
    for (which = 0; which < 2; which++) {
        w = thin_or_long(which, 1000);
        ck_assert_int_eq(magdyn_world_advance(w, 2e-3), MAGDYN_OK);
        magdyn_world_free(w);
    }
    w = thin_or_long(0, 20);
    ck_assert_int_eq(magdyn_world_advance(w, 2e-3), MAGDYN_EBUDGET);
    t1 = magdyn_world_time(w);
    ck_assert(t1 >= 0.0 && t1 < 2e-3);
    ck_assert_int_eq(magdyn_world_get(w, 1, &o), MAGDYN_OK);
    ck_assert(magdyn_vec3_isfinite(o.position) && magdyn_vec3_isfinite(o.velocity));
    ck_assert_int_eq(magdyn_world_advance(w, 2e-3), MAGDYN_EBUDGET);
    ck_assert(magdyn_world_time(w) > t1 && magdyn_world_time(w) < 2e-3);
    magdyn_world_free(w);
}
END_TEST

/*
 * Found by fuzz/fuzz_world.c (fuzz/corpus/world/regress-extreme-moment.bin):
 * a magnet of moment 7e274 A m^2 (extended-cuboid model) 3 cm from another.
 * The first step estimate underflowed to h = 0, which the error control
 * accepted again and again without time moving on.  Such a moment is now
 * refused on adding (MAGDYN_ERANGE: forces beyond 1e150 N); one within the
 * range but still far too strong stops the advance with MAGDYN_ENOCONV at
 * once, the world valid at the time reached.
 */
START_TEST(extreme_moment_stops)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_magnet a = plain_box(), b = plain_box(), out;
    magdyn_world *w;
    p.model = MAGDYN_MODEL_CUBOID;
    w = magdyn_world_new(&p);
    ck_assert_ptr_nonnull(w);
    a.half = b.half = magdyn_v3(0.005, 0.005, 0.005);    /* 1 cm cubes of 6 g */
    a.mass = b.mass = 0.006;
    a.moment = magdyn_v3(6.924462078501392e+274, 0, 0.1);
    b.moment = magdyn_v3(0.1, 0, 0);
    b.position = magdyn_v3(0.03, 0, 0);
    ck_assert_int_eq(magdyn_world_add(w, &a), MAGDYN_ERANGE);
    ck_assert_int_eq(magdyn_world_count(w), 0);
    a.moment = magdyn_v3(1e71, 0, 0.1);
    ck_assert_int_eq(magdyn_world_add(w, &a), 0);
    ck_assert_int_eq(magdyn_world_add(w, &b), 1);
    ck_assert_int_eq(magdyn_world_advance(w, 2e-3), MAGDYN_ENOCONV);
    ck_assert(magdyn_world_time(w) < 2e-3);
    ck_assert_int_eq(magdyn_world_get(w, 1, &out), MAGDYN_OK);
    ck_assert(isfinite(out.position.x) && isfinite(out.velocity.x));
    magdyn_world_free(w);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("world");
    TCase *tc = tcase_create("free");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, jacobi_sanity);
    tcase_add_test(tc, torque_free_matches_jacobi);
    tcase_add_test(tc, torque_free_conserves_over_100_turns);
    tcase_add_test(tc, two_magnets_free_flight_conserve);
    tcase_add_test(tc, field_and_gravity);
    tcase_add_test(tc, cuboid_model_free_flight);
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, empty_world_advances);
    tcase_add_test(tc, advance_by_one_ulp);
    tcase_add_test(tc, thin_and_long_bodies_stop_at_the_budget);
    tcase_add_test(tc, extreme_moment_stops);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
