/*
 * test_world_fields.c - layer 4: gravity and the external field changed
 * during a run (magdyn_world_set_fields).
 * References: uniformly accelerated motion in pieces, x = x0 + v0 t +
 * g t^2 / 2 with the velocity carried across each change; the energy of a
 * magnet in a uniform field, -m.B0, and of a mass in uniform gravity,
 * -mass g.x (so a change of the fields does work -m.dB0 - mass dg.x on
 * the magnets, the state unchanged at that instant).
 */
#include <check.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

/* a 30 x 20 x 10 mm block of 47 g, no magnetic moment */
static magdyn_magnet plain_box(void)
{
    magdyn_magnet m;
    memset(&m, 0, sizeof m);
    m.half = magdyn_v3(0.015, 0.010, 0.005);
    m.mass = 0.047;
    m.orientation = magdyn_quat_identity();
    return m;
}

/* A free box under gravity g1 for t1, then g2 until t2: the piecewise
 * parabola, to 1e-12 m. */
START_TEST(gravity_changed_midway_follows_the_pieces)
{
    magdyn_world *w = magdyn_world_new(NULL);
    magdyn_magnet m = plain_box(), out;
    magdyn_vec3 g1 = magdyn_v3(0, 0, -9.81), g2 = magdyn_v3(3.0, -1.0, 2.0), v1, x1, x2;
    const double t1 = 0.2, t2 = 0.5, dt = t2 - t1;
    m.velocity = magdyn_v3(0.1, 0.2, 0.3);
    ck_assert_int_eq(magdyn_world_add(w, &m), 0);
    ck_assert_int_eq(magdyn_world_set_fields(w, g1, magdyn_v3(0, 0, 0)), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_advance(w, t1), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_set_fields(w, g2, magdyn_v3(0, 0, 0)), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_advance(w, t2), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_get(w, 0, &out), MAGDYN_OK);
    v1 = magdyn_vec3_madd(m.velocity, t1, g1);
    x1 = magdyn_vec3_madd(magdyn_vec3_scale(m.velocity, t1), 0.5 * t1 * t1, g1);
    x2 = magdyn_vec3_madd(magdyn_vec3_madd(x1, dt, v1), 0.5 * dt * dt, g2);
    ck_assert_double_eq_tol(out.position.x, x2.x, 1e-12);
    ck_assert_double_eq_tol(out.position.y, x2.y, 1e-12);
    ck_assert_double_eq_tol(out.position.z, x2.z, 1e-12);
    ck_assert_double_eq_tol(out.velocity.z, v1.z + g2.z * dt, 1e-12);
    magdyn_world_free(w);
}
END_TEST

/*
 * A magnet swinging in a field that is turned and raised at intervals, under
 * gravity that changes too: the energy jumps at each change by exactly the
 * work -m.dB0 - mass dg.x (1e-12 relative: the same state, two sums), and
 * the energy at the end is the start's plus stats.energy_external (1e-9 of
 * the energy scale: the integrator's drift, rtol 3e-11).
 */
START_TEST(energy_external_accounts_for_the_changes)
{
    magdyn_world *w = magdyn_world_new(NULL);
    magdyn_magnet m = plain_box(), out;
    magdyn_world_stats st;
    double e0, ext = 0.0, scale;
    int k;
    m.moment = magdyn_v3(0.5, 0.2, 0.0);
    m.velocity = magdyn_v3(0.1, 0.0, 0.0);
    m.omega = magdyn_v3(0.0, 0.0, 3.0);
    ck_assert_int_eq(magdyn_world_add(w, &m), 0);
    e0 = magdyn_world_energy(w);
    for (k = 1; k <= 6; k++) {
        magdyn_vec3 b = magdyn_v3(0.01 * cos(k), 0.01 * sin(k), 0.005 * k);
        magdyn_vec3 g = magdyn_v3(0.0, 0.5 * k, -9.81);
        magdyn_vec3 b_old, g_old, mi, db, dg;
        double before = magdyn_world_energy(w), work;
        ck_assert_int_eq(magdyn_world_get(w, 0, &out), MAGDYN_OK);
        mi = magdyn_quat_rotate(out.orientation, out.moment);
        b_old = k == 1 ? magdyn_v3(0, 0, 0) : magdyn_v3(0.01 * cos(k - 1), 0.01 * sin(k - 1), 0.005 * (k - 1));
        g_old = k == 1 ? magdyn_v3(0, 0, 0) : magdyn_v3(0.0, 0.5 * (k - 1), -9.81);
        db = magdyn_vec3_sub(b, b_old);
        dg = magdyn_vec3_sub(g, g_old);
        work = -magdyn_vec3_dot(mi, db) - out.mass * magdyn_vec3_dot(dg, out.position);
        ck_assert_int_eq(magdyn_world_set_fields(w, g, b), MAGDYN_OK);
        ck_assert_double_eq_tol(magdyn_world_energy(w) - before, work, 1e-12 * (fabs(before) + fabs(work)));
        ext += work;
        ck_assert_int_eq(magdyn_world_advance(w, 0.05 * k), MAGDYN_OK);
    }
    ck_assert_int_eq(magdyn_world_get_stats(w, &st), MAGDYN_OK);
    ck_assert_double_eq_tol(st.energy_external, ext, 1e-12 * fabs(ext));
    scale = fabs(e0) + fabs(ext) + magdyn_world_kinetic_energy(w);
    ck_assert_double_le(fabs(magdyn_world_energy(w) - (e0 + st.energy_external)), 1e-9 * scale);
    magdyn_world_free(w);
}
END_TEST

/* A box asleep on a fixed plate wakes when gravity turns upwards and then
 * rises as x = g t^2 / 2 (5e-3 relative: the contact lets go within a
 * step). */
START_TEST(sleeping_box_wakes)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_magnet plate = plain_box(), box = plain_box(), out;
    magdyn_world_stats st;
    double z0;
    p.gravity = magdyn_v3(0, 0, -9.81);
    p.restitution = 0.0;
    w = magdyn_world_new(&p);
    plate.half = magdyn_v3(0.1, 0.1, 0.005);
    plate.fixed = true;
    box.position = magdyn_v3(0, 0, 0.010);
    ck_assert_int_eq(magdyn_world_add(w, &plate), 0);
    ck_assert_int_eq(magdyn_world_add(w, &box), 1);
    ck_assert_int_eq(magdyn_world_advance(w, 0.3), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_get_stats(w, &st), MAGDYN_OK);
    ck_assert(st.asleep);
    ck_assert_int_eq(magdyn_world_get(w, 1, &out), MAGDYN_OK);
    z0 = out.position.z;
    ck_assert_int_eq(magdyn_world_set_fields(w, magdyn_v3(0, 0, 2.0), magdyn_v3(0, 0, 0)), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_get_stats(w, &st), MAGDYN_OK);
    ck_assert(!st.asleep);
    ck_assert_int_eq(magdyn_world_advance(w, 0.4), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_get(w, 1, &out), MAGDYN_OK);
    ck_assert_double_eq_tol(out.position.z - z0, 0.5 * 2.0 * 0.1 * 0.1, 5e-3 * 0.01);
    magdyn_world_free(w);
}
END_TEST

static magdyn_status from_callback = MAGDYN_OK;
static magdyn_world *callback_world;

static void on_collision(const magdyn_collision *c, void *user)
{
    (void)c;
    (void)user;
    from_callback = magdyn_world_set_fields(callback_world, magdyn_v3(0, 0, 1), magdyn_v3(0, 0, 0));
}

/* Bad input: refused with its status, the world unchanged (its stats and
 * its trajectory, compared with a twin that got no bad call). */
START_TEST(bad_input_leaves_the_world_unchanged)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w, *twin;
    magdyn_magnet m = plain_box(), a, b;
    magdyn_world_stats st;
    magdyn_vec3 g = magdyn_v3(0, 0, -9.81), zero = magdyn_v3(0, 0, 0);
    p.gravity = g;
    w = magdyn_world_new(&p);
    twin = magdyn_world_new(&p);
    m.moment = magdyn_v3(0.5, 0, 0);
    ck_assert_int_eq(magdyn_world_add(w, &m), 0);
    ck_assert_int_eq(magdyn_world_add(twin, &m), 0);
    ck_assert_int_eq(magdyn_world_set_fields(NULL, g, zero), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_set_fields(w, magdyn_v3(NAN, 0, 0), zero), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_world_set_fields(w, g, magdyn_v3(0, INFINITY, 0)), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_world_set_fields(w, magdyn_v3(0, 0, -1e300), zero), MAGDYN_ERANGE);
    ck_assert_int_eq(magdyn_world_set_fields(w, g, magdyn_v3(1e300, 0, 0)), MAGDYN_ERANGE);
    ck_assert_int_eq(magdyn_world_get_stats(w, &st), MAGDYN_OK);
    ck_assert(st.energy_external == 0.0);
    ck_assert_int_eq(magdyn_world_advance(w, 0.1), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_advance(twin, 0.1), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_get(w, 0, &a), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_get(twin, 0, &b), MAGDYN_OK);
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
    magdyn_world_free(w);
    magdyn_world_free(twin);
}
END_TEST

/* From the collision callback the call is refused (MAGDYN_ESTATE): the
 * step in progress keeps the forces it started with. */
START_TEST(refused_from_the_callback)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_magnet plate = plain_box(), box = plain_box();
    p.gravity = magdyn_v3(0, 0, -9.81);
    p.on_collision = on_collision;
    w = magdyn_world_new(&p);
    ck_assert_ptr_nonnull(w);
    callback_world = w;
    plate.fixed = true;
    box.position = magdyn_v3(0, 0, 0.02);
    ck_assert_int_eq(magdyn_world_add(w, &plate), 0);
    ck_assert_int_eq(magdyn_world_add(w, &box), 1);
    from_callback = MAGDYN_OK;
    ck_assert_int_eq(magdyn_world_advance(w, 0.1), MAGDYN_OK);
    ck_assert_int_eq(from_callback, MAGDYN_ESTATE);
    magdyn_world_free(w);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("world_fields");
    TCase *tc = tcase_create("fields");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gravity_changed_midway_follows_the_pieces);
    tcase_add_test(tc, energy_external_accounts_for_the_changes);
    tcase_add_test(tc, sleeping_box_wakes);
    tcase_add_test(tc, bad_input_leaves_the_world_unchanged);
    tcase_add_test(tc, refused_from_the_callback);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
