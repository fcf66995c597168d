/*
 * test_gas_physics.c - statistical mechanics of the event-driven gas.
 * References:
 *  - 2D Maxwell-Boltzmann: speeds Rayleigh distributed, m v^2 / (2 kT) ~ Exp(1).
 *  - Henderson, Mol. Phys. 30 (1975) 971: Z = (1 + eta^2/8) / (1 - eta)^2
 *    for hard discs (2.064 at eta = 0.3, 4.125 at 0.5).
 *  - Collision virial: Z - 1 = (nu sigma / 4) sqrt(pi m / kT) exactly for
 *    elastic hard discs in equilibrium (the mean momentum transfer per
 *    collision is sqrt(pi m kT); e.g. Alder & Wainwright, J. Chem. Phys. 33
 *    (1960) 1439, in 2D).
 *  - Enskog collision frequency in 2D: nu = 2 n sigma chi sqrt(pi kT / m),
 *    chi = (1 - 7 eta / 16) / (1 - eta)^2 (Henderson's contact value).
 *  - Temperature relaxation of a binary mixture of hard discs, derived here
 *    from the Boltzmann-Enskog collision integral with Maxwellian species
 *    (checked against a Monte Carlo evaluation of the integral to 0.2 %):
 *    dT1/dt = -8 sqrt(pi/2) (mu/M) chi sigma n2 sqrt(T1/m1 + T2/m2) (T1 - T2),
 *    mu the reduced mass, M = m1 + m2 (energies as kT).
 *  - Equipartition: kT per quadratic degree of freedom, for a rotor's
 *    translation (2) and spin (1) alike.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "test_gas.h"

static int quick(void) { return test_count(100) < 100; }

/* Advances until at least `coll` more pair collisions have happened. */
static void run_collisions(magdyn_gas *g, long long coll, double dt)
{
    long long c0 = magdyn_gas_collisions(g);
    while (magdyn_gas_collisions(g) - c0 < coll)
        ck_assert_int_eq(magdyn_gas_advance(g, magdyn_gas_time(g) + dt), MAGDYN_OK);
}

START_TEST(maxwell_boltzmann)
{
    test_rng r = {2718};
    const double mass[2] = {1.0, 1.0};
    magdyn_gas *g = lattice_gas(32, 0.3, mass, 1.0, 1.0, &r);   /* all speeds 1 (thermosim's start) */
    double d0 = ks_rayleigh(g), d1, dcrit = 1.63 / sqrt(1024.0);  /* 1 % level */
    run_collisions(g, test_count(100000) < 1000 ? 20000 : 30000, 0.5);
    d1 = ks_rayleigh(g);
    printf("Maxwell-Boltzmann: KS statistic %.4f at the start, %.4f after %lld collisions (1%% critical %.4f)\n",
           d0, d1, magdyn_gas_collisions(g), dcrit);
    ck_assert(d0 > 0.3);
    ck_assert_msg(d1 < dcrit, "KS %g", d1);
    magdyn_gas_free(g);
}
END_TEST

static void eos_check(double eta, unsigned long long seed)
{
    test_rng r = {seed};
    const double mass[2] = {1.0, 1.0};
    int side = 32, n = side * side;
    magdyn_gas *g = lattice_gas(side, eta, mass, 1.0, 0, &r);
    double a = sqrt(MAGDYN_PI / (4.0 * eta)), area = side * a * side * a;
    double z, z_h = (1 + eta * eta / 8) / ((1 - eta) * (1 - eta)), z_nu, tol = quick() ? 0.05 : 0.01;
    double chi = (1 - 7 * eta / 16) / ((1 - eta) * (1 - eta)), nu_e;
    magdyn_gas_observables o;
    run_collisions(g, 50LL * n, 0.2);                /* melt the lattice */
    magdyn_gas_reset_observables(g);
    run_collisions(g, test_count(1500000), 0.2);
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
    z = o.pressure * area / (n * o.kt_trans);
    z_nu = 1 + o.collision_rate * 1.0 / 4 * sqrt(MAGDYN_PI * 1.0 / o.kt_trans);
    nu_e = 2 * (n / area) * chi * sqrt(MAGDYN_PI * o.kt_trans);
    printf("EOS eta = %.1f, N = %d, %lld collisions: Z = %.4f (Henderson %.4f, %+.2f %%), "
           "from the collision rate %.4f (%+.3f %%); nu = %.4f, Enskog %.4f\n",
           eta, n, o.collisions, z, z_h, 100 * (z / z_h - 1), z_nu, 100 * (z_nu / z - 1),
           o.collision_rate, nu_e);
    ck_assert_msg(fabs(z / z_h - 1) < tol, "Z %g vs Henderson %g", z, z_h);
    ck_assert_msg(fabs(z_nu / z - 1) < tol, "virial identity %g vs %g", z_nu, z);
    magdyn_gas_free(g);
}

START_TEST(equation_of_state)
{
    eos_check(0.3, 101);
    eos_check(0.5, 202);
}
END_TEST

/*
 * Species 0 (m = 1) and 1 (m = 4), started at kT 0.4 and 1.6 (the same rms
 * speed, as in seed 002's question) at eta = 0.1, from positions
 * equilibrated at equal temperatures.  Over the first relaxation time the
 * difference T1 - T2 follows the Maxwellian kinetic theory above; later it
 * decays up to ~20 % slower, because the species' speed distributions stop
 * being Maxwellian (the Maxwellian estimate is a variational upper bound on
 * the slowest relaxation rate), so only t <= 3 is compared.  Then both
 * species settle at the same kT (equipartition).
 */
START_TEST(mixture_equipartition)
{
    enum { NT = 6, REPS = 2, SIDE = 128 };
    const double mass[2] = {1.0, 4.0}, eta = 0.1, dt = 0.5;
    double meas[NT + 1] = {0}, theo[NT + 1], t1 = 0.4, t2 = 1.6, worst = 0;
    double a = sqrt(MAGDYN_PI / (4.0 * eta)), n = 1.0 / (a * a);
    double chi = (1 - 7 * eta / 16) / ((1 - eta) * (1 - eta)), mu = 0.8, M = 5.0;
    double c = 8 * sqrt(MAGDYN_PI / 2) * (mu / M) * chi * 1.0, tail0 = 0, tail1 = 0;
    int rep, i, tail_n = 0;
    for (rep = 0; rep < REPS; rep++) {
        test_rng r = {777 + 13 * (unsigned)rep};
        magdyn_gas *g = lattice_gas(SIDE, eta, mass, 1.0, 0, &r);
        magdyn_gas_params p = {.width = SIDE * a, .height = SIDE * a, .periodic = 1};
        magdyn_gas *h = magdyn_gas_new(&p);
        magdyn_gas_observables o0, o1;
        int k;
        /* equilibrate positions at equal temperatures first, so the lattice
         * leaves no trace; lattice_gas gives kT = 1 to both species */
        ck_assert_int_eq(magdyn_gas_advance(g, quick() ? 1.0 : 30.0), MAGDYN_OK);
        for (k = 0; k < magdyn_gas_discs(g); k++) {
            magdyn_disc d;
            int sp;
            magdyn_gas_get_disc(g, k, &d);
            sp = d.mass > 2;
            d.v = magdyn_vec2_scale(d.v, sqrt(sp ? 1.6 : 0.4));
            ck_assert_int_ge(magdyn_gas_add_disc_species(h, &d, sp), 0);
        }
        magdyn_gas_free(g);
        for (i = 0; i <= NT; i++) {
            if (i) ck_assert_int_eq(magdyn_gas_advance(h, i * dt), MAGDYN_OK);
            magdyn_gas_observe(h, 0, &o0);
            magdyn_gas_observe(h, 1, &o1);
            meas[i] += (o0.kt_trans - o1.kt_trans) / REPS;
            if (i == 0) { t1 += (o0.kt_trans - 0.4) / REPS; t2 += (o1.kt_trans - 1.6) / REPS; }
        }
        /* equipartition: long-time average of the two temperatures */
        if (!quick()) {
            for (k = 1; k <= 40; k++) {
                ck_assert_int_eq(magdyn_gas_advance(h, 40.0 + 2.0 * k), MAGDYN_OK);
                magdyn_gas_observe(h, 0, &o0);
                magdyn_gas_observe(h, 1, &o1);
                tail0 += o0.kt_trans; tail1 += o1.kt_trans; tail_n++;
            }
        }
        magdyn_gas_free(h);
    }
    /* kinetic theory from the measured start, integrated with small RK2 steps */
    theo[0] = t1 - t2;
    for (i = 1; i <= NT; i++) {
        int k;
        for (k = 0; k < 1000; k++) {
            double h = dt / 1000, s = sqrt(t1 / mass[0] + t2 / mass[1]);
            double d1 = -c * (n / 2) * s * (t1 - t2), d2 = -c * (n / 2) * s * (t2 - t1);
            double u1 = t1 + 0.5 * h * d1, u2 = t2 + 0.5 * h * d2, su = sqrt(u1 / mass[0] + u2 / mass[1]);
            t1 += h * -c * (n / 2) * su * (u1 - u2);
            t2 += h * -c * (n / 2) * su * (u2 - u1);
        }
        theo[i] = t1 - t2;
    }
    for (i = 0; i <= NT; i++) {
        double dev = fabs(meas[i] - theo[i]) / fabs(theo[0]);
        if (dev > worst) worst = dev;
    }
    printf("mixture m = 1, 4 at eta = 0.1: T1 - T2 measured / kinetic theory:");
    for (i = 0; i <= NT; i += 2) printf("  t=%.0f %.3f/%.3f", i * dt, meas[i], theo[i]);
    printf("\n  relaxation rate over t <= 3: measured %.4f, theory %.4f; worst deviation %.3f of the initial difference",
           log(meas[0] / meas[NT]) / (NT * dt), log(theo[0] / theo[NT]) / (NT * dt), worst);
    if (tail_n) printf("\n  equilibrium kT %.4f (m = 1) and %.4f (m = 4), ratio %.4f", tail0 / tail_n, tail1 / tail_n, tail0 / tail1);
    printf("\n");
    ck_assert_msg(worst < (quick() ? 0.3 : 0.05), "relaxation off theory by %g", worst);
    if (tail_n) ck_assert_msg(fabs(tail0 / tail1 - 1) < 0.02, "equipartition %g", tail0 / tail1);
}
END_TEST

/* Rotors (translation 2 + spin 1 degrees of freedom) and discs, rotors
 * started without spin: every degree of freedom ends with the same kT. */
START_TEST(rotor_equipartition)
{
    test_rng r = {4};
    magdyn_gas_params p = {.width = 36, .height = 36, .periodic = 1};
    magdyn_gas *g = magdyn_gas_new(&p);
    magdyn_gas_observables o, od, e0, e1;
    double st = 0, sr = 0, sd = 0, t = 0;
    int i, j, k, samples = 0, nrun = quick() ? 4 : 200;
    for (i = 0; i < 12; i++)
        for (j = 0; j < 12; j++) {
            magdyn_rotor q;
            magdyn_disc d;
            memset(&q, 0, sizeof q);
            q.r = magdyn_v2(3 * i + 1.5, 3 * j + 1.5);
            q.angle = test_rng_range(&r, 0, 2 * MAGDYN_PI);
            q.mass = 2; q.half_length = 1; q.end_radius = 0.3;
            q.inertia = magdyn_rotor_inertia(q.mass, 0.4, q.half_length, q.end_radius);
            q.v = magdyn_v2(test_rng_normal(&r) / sqrt(2.0), test_rng_normal(&r) / sqrt(2.0));
            d.r = magdyn_v2(3 * i + 3, 3 * j + 3); d.mass = 1; d.radius = 0.3;
            d.v = magdyn_v2(test_rng_normal(&r), test_rng_normal(&r));
            ck_assert_int_ge(magdyn_gas_add_rotor_species(g, &q, 0), 0);
            ck_assert_int_ge(magdyn_gas_add_disc_species(g, &d, 1), 0);
        }
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &e0);
    ck_assert(e0.rotors == 144 && e0.discs == 144);
    for (k = 0; k < 20 + nrun; k++) {
        t += 2.0;
        ck_assert_int_eq(magdyn_gas_advance(g, t), MAGDYN_OK);
        if (k < 20) continue;
        magdyn_gas_observe(g, 0, &o);
        magdyn_gas_observe(g, 1, &od);
        st += o.kt_trans; sr += o.kt_rot; sd += od.kt_trans; samples++;
    }
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &e1);
    printf("rotors: kT translation %.4f, spin %.4f; discs %.4f (%d samples, %lld collisions); "
           "energy drift %.2g\n", st / samples, sr / samples, sd / samples, samples,
           magdyn_gas_collisions(g), (e1.energy - e0.energy) / e0.energy);
    ck_assert_msg(fabs(e1.energy - e0.energy) < 1e-10 * e0.energy, "energy %g", (e1.energy - e0.energy) / e0.energy);
    ck_assert(magdyn_vec2_norm(magdyn_vec2_sub(e1.momentum, e0.momentum)) < 1e-10 * sqrt(e0.energy * 432));
    if (!quick()) {
        ck_assert_msg(fabs(sr / st - 1) < 0.05, "spin/translation %g", sr / st);
        ck_assert_msg(fabs(sd / st - 1) < 0.05, "disc/rotor %g", sd / st);
    }
    ck_assert(smallest_gap(g, 36, 36, 1) > -1e-10);
    magdyn_gas_free(g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gas_physics");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, maxwell_boltzmann);
    tcase_add_test(tc, equation_of_state);
    tcase_add_test(tc, mixture_equipartition);
    tcase_add_test(tc, rotor_equipartition);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_NOFORK);
}
