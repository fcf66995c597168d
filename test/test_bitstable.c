/*
 * test_bitstable.c - the --enable-bitstable promise (magdyn(7),
 * REPRODUCIBILITY): a short run of a world of magnets (point dipoles,
 * gravity, contacts with friction), of two extended magnets snapping
 * together (the exact cuboid model: atan, log, asinh) and of a gas of discs
 * and rotors (sin, cos) ends in the same bits on every machine.  The
 * reference is the hash of the final states committed below, from the first
 * bitstable build (x86-64, gcc 12 and clang 14, glibc); a change to the
 * library that changes its results must change it, in the same commit,
 * saying why.  The scenes use no libm: orientations are rational
 * quaternions normalised by sqrt, correctly rounded everywhere.  Skipped
 * (77) in the default build, whose bits follow the host's libm.
 */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"
#include "../lib/bitstable.h"

static uint64_t mix(uint64_t h, double v) { return test_fnv_double(h, v); }

static uint64_t mix3(uint64_t h, magdyn_vec3 v)
{
    return mix(mix(mix(h, v.x), v.y), v.z);
}

static magdyn_quat unit(double w, double x, double y, double z)
{
    double n = sqrt(w * w + x * x + y * y + z * z);
    return magdyn_q(w / n, x / n, y / n, z / n);
}

/* A 10 mm cube, J = 1.3 T along its body z (examples/scene.c). */
static magdyn_magnet cube(magdyn_vec3 p, magdyn_quat q)
{
    magdyn_magnet m;
    memset(&m, 0, sizeof m);
    m.half = magdyn_v3(0.005, 0.005, 0.005);
    m.mass = 7.5e-3;
    m.moment = magdyn_v3(0, 0, 1.3 * 1e-6 / MAGDYN_MU0);
    m.position = p;
    m.orientation = q;
    return m;
}

static uint64_t world_hash(magdyn_world *w, uint64_t h)
{
    int i;
    for (i = 0; i < magdyn_world_count(w); i++) {
        magdyn_magnet m;
        ck_assert_int_eq(magdyn_world_get(w, i, &m), MAGDYN_OK);
        h = mix3(mix3(mix3(h, m.position), m.velocity), m.omega);
        h = mix(mix(mix(mix(h, m.orientation.w), m.orientation.x), m.orientation.y), m.orientation.z);
        printf("  %d: %a %a %a  %a\n", i, m.position.x, m.position.y, m.position.z, m.orientation.w);
    }
    return h;
}

/* Five cubes dropped, turned, on a fixed plate: 0.05 s. */
static uint64_t pile(uint64_t h)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w = NULL;
    magdyn_magnet plate;
    int i;
    static const double at[5][7] = {
        {0.000, 0.000, 0.006, 1, 0, 0, 0},  {0.013, 0.002, 0.010, 3, 1, 0, 0},
        {-0.011, 0.004, 0.020, 2, 0, 1, 1}, {0.002, -0.012, 0.016, 4, 1, 2, 0},
        {0.004, 0.009, 0.032, 1, 1, 1, 1},
    };
    p.gravity = magdyn_v3(0, 0, -9.81);
    p.restitution = 0.3;
    p.friction = 0.5;
    ck_assert_int_eq(magdyn_world_create(&p, &w), MAGDYN_OK);
    memset(&plate, 0, sizeof plate);
    plate.half = magdyn_v3(0.5, 0.5, 0.005);
    plate.mass = 1.6;
    plate.position = magdyn_v3(0, 0, -0.005);
    plate.orientation = magdyn_quat_identity();
    plate.fixed = true;
    ck_assert_int_ge(magdyn_world_add(w, &plate), 0);
    for (i = 0; i < 5; i++) {
        magdyn_magnet m = cube(magdyn_v3(at[i][0], at[i][1], at[i][2]),
                               unit(at[i][3], at[i][4], at[i][5], at[i][6]));
        ck_assert_int_ge(magdyn_world_add(w, &m), 0);
    }
    ck_assert_int_eq(magdyn_world_advance(w, 0.05), MAGDYN_OK);
    printf("pile:\n");
    h = world_hash(w, h);
    magdyn_world_free(w);
    return h;
}

/* Two cubes of the extended model snapping together: 0.01 s. */
static uint64_t snap(uint64_t h)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w = NULL;
    magdyn_magnet a = cube(magdyn_v3(0, 0, 0), magdyn_quat_identity());
    magdyn_magnet b = cube(magdyn_v3(0.003, 0.001, 0.016), unit(7, 1, 1, 0));
    p.model = MAGDYN_MODEL_CUBOID;
    p.restitution = 0.3;
    p.friction = 0.5;
    a.fixed = true;
    ck_assert_int_eq(magdyn_world_create(&p, &w), MAGDYN_OK);
    ck_assert_int_ge(magdyn_world_add(w, &a), 0);
    ck_assert_int_ge(magdyn_world_add(w, &b), 0);
    ck_assert_int_eq(magdyn_world_advance(w, 0.01), MAGDYN_OK);
    printf("snap:\n");
    h = world_hash(w, h);
    magdyn_world_free(w);
    return h;
}

/* 16 discs and 4 rotors in a periodic box, inelastic: 20 time units. */
static uint64_t gas(uint64_t h)
{
    magdyn_gas_params p = magdyn_gas_params_default();
    magdyn_gas *g = NULL;
    int i;
    p.width = 20;
    p.height = 20;
    p.periodic = true;
    ck_assert_int_eq(magdyn_gas_create(&p, &g), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_set_restitution(g, 0.9, 1.0), MAGDYN_OK);
    for (i = 0; i < 16; i++) {
        magdyn_disc d;
        memset(&d, 0, sizeof d);
        d.r = magdyn_v2(2.5 + 5 * (i % 4), 1.25 + 5 * (i / 4));
        d.v = magdyn_v2((i * 7 % 5) - 2.0, (i * 3 % 7) - 3.0);
        d.mass = 1;
        d.radius = 0.5;
        ck_assert_int_ge(magdyn_gas_add_disc(g, &d), 0);
    }
    for (i = 0; i < 4; i++) {
        magdyn_rotor r;
        memset(&r, 0, sizeof r);
        r.r = magdyn_v2(2.5 + 5 * i, 3.75 + 5 * (i % 3));
        r.v = magdyn_v2(1.0 - i, 0.5 * i);
        r.angle = 0.3 * i;
        r.omega = 1.5 - i;
        r.mass = 2;
        r.half_length = 1.0;
        r.end_radius = 0.3;
        r.inertia = r.mass * r.half_length * r.half_length;
        ck_assert_int_ge(magdyn_gas_add_rotor(g, &r), 0);
    }
    ck_assert_int_eq(magdyn_gas_advance(g, 20.0), MAGDYN_OK);
    printf("gas: %lld collisions\n", magdyn_gas_collisions(g));
    for (i = 0; i < 16; i++) {
        magdyn_disc d;
        ck_assert_int_eq(magdyn_gas_get_disc(g, i, &d), MAGDYN_OK);
        h = mix(mix(mix(mix(h, d.r.x), d.r.y), d.v.x), d.v.y);
    }
    for (i = 0; i < 4; i++) {
        magdyn_rotor r;
        ck_assert_int_eq(magdyn_gas_get_rotor(g, i, &r), MAGDYN_OK);
        h = mix(mix(mix(mix(mix(h, r.r.x), r.r.y), r.angle), r.omega), r.v.x);
        printf("  rotor %d: %a %a %a\n", i, r.r.x, r.angle, r.omega);
    }
    magdyn_gas_free(g);
    return h;
}

/* The hash of the final states of pile, snap and gas, in that order.  Any
 * change to the arithmetic of a step changes it; the commit that changes
 * it re-pins it and says why. */
#define GOLDEN 0x202225670739607CULL

START_TEST(golden_bits)
{
    uint64_t h = 0xCBF29CE484222325ULL;
    h = pile(h);
    h = snap(h);
    h = gas(h);
    printf("hash %#llx\n", (unsigned long long)h);
    ck_assert_msg(h == GOLDEN, "the final states hash to %#llx, not %#llx: the bits changed",
                  (unsigned long long)h, (unsigned long long)GOLDEN);
}
END_TEST

int main(void)
{
    Suite *s;
    TCase *tc;
    if (!MAGDYN_BITSTABLE) {
        printf("test_bitstable: the default build follows the host's libm; skipped\n");
        return 77;
    }
    s = suite_create("bitstable");
    tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, golden_bits);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_NOFORK);
}
