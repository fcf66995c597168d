/*
 * test_world_pile.c - many magnets at rest: piles settle and sleep, columns
 * and towers stand still, resting contacts hold their gap and add no
 * energy, the energy that leaves is what restitution and friction took,
 * and only islands in equilibrium sleep.
 * References: a body at rest in static equilibrium (net force and torque
 * zero) stays at rest (Newton's first law); the work of an impulse P at a
 * contact whose relative velocity goes from u0 to u1 is P.(u0 + u1)/2
 * (Stronge, "Impact Mechanics", 2000, ch. 2), so that the energy now equals
 * the start's minus the losses the stats report; a sliding box on a plate
 * stops after losing all its kinetic energy to friction; a chain of dipoles
 * along their axes is an equilibrium (by symmetry the torques vanish).
 */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"
#include "../examples/scene.h"

/* E(t) - (E0 - losses), relative to |E0| or to the losses, whichever is larger. */
static double unaccounted(const magdyn_world *w, double e0)
{
    magdyn_world_stats st;
    magdyn_world_get_stats(w, &st);
    return (magdyn_world_energy(w) - (e0 - st.energy_restitution - st.energy_friction))
         / fmax(fabs(e0), st.energy_restitution + st.energy_friction);
}

/* Advance in calls of chunk [s] until all sleep or t_max; returns the time
 * reached. */
static double until_rest_by(magdyn_world *w, double t_max, double chunk, double *worst)
{
    magdyn_world_stats st;
    double t = magdyn_world_time(w);
    while (t < t_max) {
        t += chunk;
        ck_assert_int_eq(magdyn_world_advance(w, t), MAGDYN_OK);
        if (worst) *worst = fmax(*worst, scene_worst_overlap(w));
        magdyn_world_get_stats(w, &st);
        if (st.asleep) break;
    }
    return t;
}

/* The same in calls of 10 ms. */
static double until_rest(magdyn_world *w, double t_max, double *worst)
{
    return until_rest_by(w, t_max, 0.01, worst);
}

/* Eight 10 mm N42 cubes dropped at random onto the plate for up to 3 s,
 * advanced in calls of chunk seconds (each call ends a step at its end, so
 * the trajectory depends on it): no call fails, no pair overlaps by more
 * than 10 um while they snap together (1e-3 of their size; measured 0.3
 * to 1.6 um), restitution and friction only take energy, and the energy
 * balance holds to 2 % (measured -1.2 % to -1.5 %: the resting-contact
 * step is first order; its error is the work F h (v0 - v1) / 2 that the
 * step's force does along the velocity change, which step-by-step
 * measurement matches), no energy appearing from nowhere beyond 0.1 %
 * (seed 1 in calls of 50 ms gained 4 % while magnets arriving at a contact
 * within a resting-contact step were stopped there, and 1.2 % while an
 * impact's knock-on approaches were too).  Whether and when the pile
 * sleeps is printed, not asserted: the trajectories are chaotic. */
static void pile_settles(unsigned long long seed, double chunk)
{
    magdyn_world_params p = scene_params();
    magdyn_world *w = magdyn_world_new(&p);
    magdyn_world_stats st;
    double e0, worst = 0.0, t, bal;
    ck_assert_int_ge(scene_plate(w), 0);
    ck_assert_int_eq(scene_pile(w, 8, seed), 8);
    e0 = magdyn_world_energy(w);
    t = until_rest_by(w, 3.0, chunk, &worst);
    magdyn_world_get_stats(w, &st);
    bal = unaccounted(w, e0);
    fprintf(stderr, "pile of 8 (seed %llu, calls of %g s): %s at %.2f s, overlap %.3g m, restitution %.4g J, "
            "friction %.4g J, unaccounted %.3g\n", seed, chunk, st.asleep ? "asleep" : "still moving", t, worst, st.energy_restitution,
            st.energy_friction, bal);
    ck_assert_msg(worst < 1e-5, "overlap %g m", worst);
    ck_assert_double_ge(st.energy_restitution, 0.0);
    ck_assert_double_ge(st.energy_friction, 0.0);
    ck_assert_msg(fabs(bal) < 0.02, "energy unaccounted: %g of the start's", bal);
    ck_assert_msg(bal < 1e-3, "energy from nowhere: %g of the start's", bal);
    magdyn_world_free(w);
}

/* The pile of 8 (seed 1) for its first 50 ms, when the magnets snap
 * together at up to metres a second, with contact_tol 1e-7 m and the
 * contact step's theta-method weight w: the unaccounted energy relative to
 * what restitution and friction took. */
static double early_unaccounted(double weight)
{
    magdyn_world_params p = scene_params();
    magdyn_world *w;
    double e0, bal;
    p.contact_tol = 1e-7;
    p.contact_start_weight = weight;
    w = magdyn_world_new(&p);
    ck_assert_int_ge(scene_plate(w), 0);
    ck_assert_int_eq(scene_pile(w, 8, 1), 8);
    e0 = magdyn_world_energy(w);
    until_rest_by(w, 0.05, 0.01, NULL);
    bal = unaccounted(w, e0);
    magdyn_world_free(w);
    return bal;
}

/* The first-order contact step's energy error is the work F.(v0 - v1) h / 2
 * of its force along the velocity change; the theta-method with w of the
 * start velocities (Jean 1999) leaves (1 - 2w) of it: 0.2 at w = 0.4, 0.1
 * at 0.45.  Measured over the pile's violent first 50 ms: -9.9e-3 at
 * w = 0, -2.6e-3 at 0.4 (0.26), -1.4e-3 at 0.45 (0.14); asserted: 0.4
 * leaves under half, 0.45 under a quarter and less than 0.4 does. */
START_TEST(theta_step_keeps_the_energy)
{
    double first, w40, w45;
    if (test_count(100) < 100) return;
    first = early_unaccounted(0.0);
    w40 = early_unaccounted(0.4);
    w45 = early_unaccounted(0.45);
    fprintf(stderr, "pile's first 50 ms, unaccounted energy: w 0 %.3g, 0.4 %.3g, 0.45 %.3g\n", first, w40, w45);
    ck_assert_double_gt(fabs(first), 1e-3);
    ck_assert_double_lt(fabs(w40), 0.5 * fabs(first));
    ck_assert_double_lt(fabs(w45), 0.25 * fabs(first));
    ck_assert_double_lt(fabs(w45), fabs(w40));
}
END_TEST

/* Piles of 8 (seeds 1 and 2) with contact_tol 1e-7 m and weight 0.45, the
 * settings magdyn_world_new(3) suggests for piles: they come to rest
 * within 3 s (measured 0.63 and 0.26 s), no pair overlaps by more than
 * 10 um while they snap together (as pile_settles; measured 0.22 um) nor
 * by more than twice contact_tol at rest, restitution and friction only
 * take energy, and the balance holds to 0.5 % (measured -0.16 % and
 * -0.25 %). */
/* The theta-method's step needs friction.  Two magnets stuck together at
 * rest on a level frictionless plate stay at rest at w 0.45 (the blended
 * targets' chatter, with nothing to take its energy, grew to 0.01 J in
 * 0.3 s at contact_tol 1e-7).  With friction 0.05 on a plate tilted by a
 * sideways 1 m/s^2 the pair slides as x = a t^2 / 2, a = g_x - mu g
 * (Coulomb), closer than the first-order step (2.2e-3 of x at w 0). */
START_TEST(theta_step_needs_friction)
{
    int sliding;
    for (sliding = 0; sliding < 2; sliding++) {
        magdyn_world_params p = scene_params();
        magdyn_world *w;
        magdyn_magnet a = scene_cube(magdyn_v3(0, 0, 0.005), magdyn_quat_identity(), magdyn_v3(1, 0, 0));
        magdyn_magnet b = scene_cube(magdyn_v3(0.01, 0, 0.005), magdyn_quat_identity(), magdyn_v3(1, 0, 0));
        double acc = 1.0 - 0.05 * 9.81, x = 0.5 * acc * 0.3 * 0.3;
        p.friction = sliding ? 0.05 : 0.0;
        p.gravity = magdyn_v3(sliding ? 1.0 : 0.0, 0, -9.81);
        p.sleep_speed = 10.0;
        p.contact_tol = 1e-7;
        p.contact_start_weight = 0.45;
        w = magdyn_world_new(&p);
        scene_plate(w);
        ck_assert_int_eq(magdyn_world_add(w, &a), 1);
        ck_assert_int_eq(magdyn_world_add(w, &b), 2);
        ck_assert_int_eq(magdyn_world_advance(w, 0.3), MAGDYN_OK);
        magdyn_world_get(w, 1, &a);
        if (sliding) {
            ck_assert_double_le(fabs(a.position.x - x), 1e-3 * x);
            ck_assert_double_le(fabs(a.velocity.x - acc * 0.3), 1e-6 * acc * 0.3);
        } else {
            ck_assert_double_le(magdyn_world_kinetic_energy(w), 1e-4);
        }
        printf("theta step, %s: x %.7g m, kinetic %.3g J\n", sliding ? "sliding with friction" : "frictionless at rest",
               a.position.x, magdyn_world_kinetic_energy(w));
        magdyn_world_free(w);
    }
}
END_TEST

START_TEST(theta_piles_settle)
{
    unsigned long long seed;
    if (test_count(100) < 100) return;
    for (seed = 1; seed <= 2; seed++) {
        magdyn_world_params p = scene_params();
        magdyn_world *w;
        magdyn_world_stats st;
        double e0, worst = 0.0, t, bal;
        p.contact_tol = 1e-7;
        p.contact_start_weight = 0.45;
        w = magdyn_world_new(&p);
        ck_assert_int_ge(scene_plate(w), 0);
        ck_assert_int_eq(scene_pile(w, 8, seed), 8);
        e0 = magdyn_world_energy(w);
        t = until_rest(w, 3.0, &worst);
        magdyn_world_get_stats(w, &st);
        bal = unaccounted(w, e0);
        fprintf(stderr, "pile of 8 (seed %llu, w 0.45, contact_tol 1e-7): %s at %.2f s, overlap %.3g m, unaccounted %.3g\n",
                seed, st.asleep ? "asleep" : "still moving", t, worst, bal);
        ck_assert(st.asleep);
        ck_assert_msg(worst < 1e-5, "overlap %g m", worst);
        ck_assert_msg(scene_worst_overlap(w) <= 2 * p.contact_tol, "overlap at rest %g m", scene_worst_overlap(w));
        ck_assert_double_ge(st.energy_restitution, 0.0);
        ck_assert_double_ge(st.energy_friction, 0.0);
        ck_assert_msg(fabs(bal) < 5e-3, "energy unaccounted: %g", bal);
        magdyn_world_free(w);
    }
}
END_TEST

typedef struct {
    int n;
    double speed;   /* fastest approach reported [m/s] */
} slap_log;

static void on_slap(const magdyn_collision *c, void *user)
{
    slap_log *l = user;
    l->speed = fmax(l->speed, c->speed);
    l->n++;
}

/* A plain 10 mm cube standing on one edge, tilted 10 degrees, tips back
 * about that edge (friction 0.5 holds it) and its face slaps onto the
 * plate.  The slap is an impact, reported, at the speed that energy
 * conservation gives the far edge: v = 2 a w, I w^2 / 2 = m g dh with
 * I = 8/3 m a^2 about the edge and dh = a (sin t0 + cos t0 - 1), within
 * 2 % (measured 0.6 %); the cube ends flat and asleep; and the energy
 * balance holds to 10 % of m g dh (measured 5.4 %: the resting-contact
 * step, which carries the tipping, is first order in its step). */
START_TEST(tipping_cube_slaps_flat)
{
    magdyn_world_params p = scene_params();
    magdyn_world *w;
    magdyn_magnet m;
    magdyn_world_stats st;
    slap_log l = {0, 0.0};
    double a = SCENE_CUBE_HALF, t0 = 10.0 * MAGDYN_PI / 180.0;
    double dh = a * (sin(t0) + cos(t0) - 1.0), g = -p.gravity.z;
    double v = 2.0 * a * sqrt(2.0 * g * dh / (8.0 / 3.0 * a * a)), e0, e1, tilt;
    p.on_collision = on_slap;
    p.user = &l;
    w = magdyn_world_new(&p);
    ck_assert_int_ge(scene_plate(w), 0);
    m = scene_cube(magdyn_v3(0, 0, a * (sin(t0) + cos(t0))),
                   magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), t0), magdyn_v3(0, 0, 1));
    m.moment = magdyn_v3(0, 0, 0);
    ck_assert_int_eq(magdyn_world_add(w, &m), 1);
    e0 = magdyn_world_energy(w);
    until_rest(w, 1.0, NULL);
    magdyn_world_get_stats(w, &st);
    magdyn_world_get(w, 1, &m);
    e1 = magdyn_world_energy(w) - (e0 - st.energy_restitution - st.energy_friction);
    tilt = acos(fmin(1.0, magdyn_quat_rotate(m.orientation, magdyn_v3(0, 0, 1)).z));
    fprintf(stderr, "tipping cube: %d impacts, fastest %.6g m/s (expected %.6g), tilt %.3g rad, "
            "unaccounted %.3g J\n", l.n, l.speed, v, tilt, e1);
    ck_assert_int_ge(l.n, 1);
    ck_assert_msg(fabs(l.speed - v) < 0.02 * v, "slap at %g m/s, expected %g", l.speed, v);
    ck_assert_msg(st.asleep, "tipped cube not asleep");
    ck_assert_double_lt(tilt, 1e-6);
    ck_assert_msg(fabs(e1) < 0.1 * m.mass * g * dh, "energy unaccounted %g J", e1);
    magdyn_world_free(w);
}
END_TEST

/* (skipped under MAGDYN_TEST_QUICK: tens of seconds, too slow in valgrind) */
START_TEST(pile_of_eight_settles)
{
    if (test_count(100) < 100) return;
    pile_settles(1, 0.01);
    pile_settles(2, 0.01);
    pile_settles(1, 0.05);
}
END_TEST

/* A column of 10 magnets standing on the plate, and a tower of 10 plain
 * boxes, start in equilibrium: the tower stands still to 50 nm (measured
 * 5 nm); the column stays within 1 um (it creeps by 61 nm within 1 s:
 * open),
 * no contact sinks by more than twice contact_tol (the push-out acts on
 * what sinks beyond contact_tol; measured 1.1 contact_tol), and they keep
 * their energy.  The tower falls asleep; the magnetic column, pressed
 * together by forces 600 times its weight, does not yet within 1 s (the
 * impulse solver's residual keeps it just outside the equilibrium
 * tolerance: an open shortfall, not asserted). */
static void stands_still(int column)
{
    magdyn_world_params p = scene_params();
    magdyn_world *w = magdyn_world_new(&p);
    magdyn_magnet before[11], after;
    magdyn_world_stats st;
    double e0, worst = 0.0;
    int i, n;
    ck_assert_int_ge(scene_plate(w), 0);
    ck_assert_int_eq(column ? scene_column(w, 10) : scene_tower(w, 10), 10);
    n = magdyn_world_count(w);
    for (i = 0; i < n; i++) magdyn_world_get(w, i, &before[i]);
    e0 = magdyn_world_energy(w);
    until_rest(w, 1.0, &worst);
    magdyn_world_get_stats(w, &st);
    if (!column) ck_assert_msg(st.asleep, "tower not asleep");
    ck_assert_msg(worst <= 2 * p.contact_tol, "sank %g m", worst);
    for (i = 1; i < n; i++) {
        magdyn_world_get(w, i, &after);
        ck_assert_double_le(magdyn_vec3_dist(after.position, before[i].position), column ? 1e-6 : 5e-8);
    }
    ck_assert_double_le(fabs(magdyn_world_energy(w) - e0), 1e-6 * fabs(e0));
    magdyn_world_free(w);
}

/* (skipped under MAGDYN_TEST_QUICK: slow in valgrind) */
START_TEST(column_stands)
{
    if (test_count(100) < 100) return;
    stands_still(1);
}
END_TEST

START_TEST(tower_stands)
{
    stands_still(0);
}
END_TEST

/* A straight chain of 10 touching 5 mm cubes, no gravity, in equilibrium:
 * the energy never rises by more than the work of its contact forces over
 * contact_tol (2e-8 J of 0.28 J), nothing drifts off the axis or sinks by
 * more than contact_tol per contact, and the chain sleeps. */
START_TEST(chain_holds_without_energy_gain)
{
    magdyn_world *w = magdyn_world_new(NULL);
    double a = 0.0025, vol = 8 * a * a * a, e0, e;
    magdyn_world_stats st;
    int i, k;
    for (i = 0; i < 10; i++) {
        magdyn_magnet m;
        memset(&m, 0, sizeof m);
        m.half = magdyn_v3(a, a, a);
        m.mass = 7500 * vol;
        m.moment = magdyn_v3(1.3 * vol / MAGDYN_MU0, 0, 0);
        m.position = magdyn_v3(2 * a * i, 0, 0);
        m.orientation = magdyn_quat_identity();
        ck_assert_int_eq(magdyn_world_add(w, &m), i);
    }
    e0 = magdyn_world_energy(w);
    for (k = 1; k <= 50; k++) {
        ck_assert_int_eq(magdyn_world_advance(w, 0.01 * k), MAGDYN_OK);
        e = magdyn_world_energy(w);
        ck_assert_msg(e <= e0 + 1e-7 * fabs(e0), "energy rose %.15g -> %.15g", e0, e);
    }
    magdyn_world_get_stats(w, &st);
    ck_assert(st.asleep);
    for (i = 0; i < 10; i++) {
        magdyn_magnet m;
        magdyn_world_get(w, i, &m);
        ck_assert_double_le(hypot(m.position.y, m.position.z), 10 * 1e-9);
        ck_assert_double_le(fabs(m.position.x - 2 * a * i), 10 * 1e-9);
    }
    ck_assert_double_le(scene_worst_overlap(w), 1e-9);
    magdyn_world_free(w);
}
END_TEST

/* A box dropped on the plate bounces (e = 0.5, no friction) and a box
 * slides on it (friction 0.5) until it stops: the energy lost equals what
 * the stats say restitution and friction took; the slide's loss is its
 * kinetic energy.  The slide stops 5 % beyond v^2 / (2 mu g) (measured
 * 4.28 mm against 4.08, tending to 4.34 mm as the step shrinks: the four
 * corner contacts deliver an effective friction of 0.47 mu; open). */
START_TEST(losses_are_accounted)
{
    magdyn_world_params p = scene_params();
    magdyn_world *w;
    magdyn_magnet m;
    magdyn_world_stats st;
    double e0, ke;
    p.restitution = 0.5;
    p.friction = 0.0;
    w = magdyn_world_new(&p);
    scene_plate(w);
    m = scene_cube(magdyn_v3(0, 0, 0.03), magdyn_quat_from_axis_angle(magdyn_v3(1, 2, 0), 0.3),
                   magdyn_v3(0, 0, 0));
    ck_assert_int_eq(magdyn_world_add(w, &m), 1);
    e0 = magdyn_world_energy(w);
    until_rest(w, 2.0, NULL);
    magdyn_world_get_stats(w, &st);
    ck_assert(st.asleep);
    ck_assert_double_gt(st.energy_restitution, 0.0);
    ck_assert_double_le(fabs(st.energy_friction), 1e-12);
    ck_assert_msg(fabs(unaccounted(w, e0)) < 1e-3, "drop: unaccounted %g", unaccounted(w, e0));
    magdyn_world_free(w);

    p.friction = 0.5;
    w = magdyn_world_new(&p);
    scene_plate(w);
    m = scene_cube(magdyn_v3(0, 0, 0.005), magdyn_quat_identity(), magdyn_v3(0, 0, 0));
    m.velocity = magdyn_v3(0.2, 0, 0);
    ck_assert_int_eq(magdyn_world_add(w, &m), 1);
    e0 = magdyn_world_energy(w);
    ke = 0.5 * m.mass * 0.04;
    until_rest(w, 1.0, NULL);
    magdyn_world_get_stats(w, &st);
    magdyn_world_get(w, 1, &m);
    ck_assert(st.asleep);
    /* the slide's length: v^2 / (2 mu g) */
    ck_assert_double_eq_tol(m.position.x, 0.04 / (2 * 0.5 * 9.81), 0.07 * 0.04 / (2 * 0.5 * 9.81));
    ck_assert_double_eq_tol(st.energy_friction, ke, 1e-9 * ke);
    ck_assert_msg(fabs(unaccounted(w, e0)) < 1e-3, "slide: unaccounted %g", unaccounted(w, e0));
    magdyn_world_free(w);
}
END_TEST

/* Two magnets stuck together on a frictionless plate tilted by a sideways
 * gravity component: slow (the speed limit is set out of reach) but not in
 * equilibrium, so they never sleep; on a level plate with friction they
 * do.  (Level and frictionless, the pair keeps a small rocking chatter and
 * does not sleep either: an open shortfall of the resting-contact step.) */
START_TEST(unbalanced_never_sleeps)
{
    int tilted;
    for (tilted = 1; tilted >= 0; tilted--) {
        magdyn_world_params p = scene_params();
        magdyn_world *w;
        magdyn_magnet a = scene_cube(magdyn_v3(0, 0, 0.005), magdyn_quat_identity(), magdyn_v3(1, 0, 0));
        magdyn_magnet b = scene_cube(magdyn_v3(0.01, 0, 0.005), magdyn_quat_identity(), magdyn_v3(1, 0, 0));
        magdyn_world_stats st;
        p.friction = tilted ? 0.0 : 0.5;
        p.sleep_speed = 10.0;
        p.gravity = magdyn_v3(tilted ? 0.1 : 0.0, 0, -9.81);
        w = magdyn_world_new(&p);
        scene_plate(w);
        ck_assert_int_eq(magdyn_world_add(w, &a), 1);
        ck_assert_int_eq(magdyn_world_add(w, &b), 2);
        ck_assert_int_eq(magdyn_world_advance(w, 0.3), MAGDYN_OK);
        magdyn_world_get_stats(w, &st);
        if (tilted) {
            ck_assert_int_eq(st.sleeping, 0);
            magdyn_world_get(w, 1, &a);
            ck_assert_double_eq_tol(a.position.x, 0.5 * 0.1 * 0.09, 1e-5);   /* x = g t^2 / 2 */
        } else {
            ck_assert_int_eq(st.sleeping, 2);
        }
        magdyn_world_free(w);
    }
}
END_TEST

/* Two columns of two magnets 10 cm apart, the one at rest from the start,
 * the other's top magnet released 2 mm above its partner: the first falls
 * asleep while the second snaps and settles, and stays asleep (the second
 * moves too little, that far, to change the forces on it by the balance
 * tolerance) until the whole world sleeps.  The forces of a newly
 * sleeping island, the references its wake test compares with, leave out
 * the pairs within it as every later evaluation does; when they were taken
 * with them, the island's own forces counted as a change and woke it at
 * the next step, and two islands that did not reach the sleep window in
 * the same step woke each other for ever. */
START_TEST(island_asleep_stays_asleep_beside_a_moving_one)
{
    magdyn_world_params p = scene_params();
    magdyn_world *w = magdyn_world_new(&p);
    magdyn_world_stats st;
    double t, first = -1.0;
    int i, k;
    scene_plate(w);
    for (k = 0; k < 4; k++) {
        magdyn_magnet m = scene_cube(magdyn_v3(k < 2 ? 0.0 : 0.1, 0, 0.005 + 0.01 * (k % 2) + (k == 3 ? 0.002 : 0.0)),
                                     magdyn_quat_identity(), magdyn_v3(0, 0, 1));
        ck_assert_int_eq(magdyn_world_add(w, &m), k + 1);
    }
    for (i = 1; i <= 1000; i++) {
        t = 0.002 * i;
        ck_assert_int_eq(magdyn_world_advance(w, t), MAGDYN_OK);
        magdyn_world_get_stats(w, &st);
        if (first < 0.0 && st.sleeping >= 2) first = t;
        if (first >= 0.0) ck_assert_msg(st.sleeping >= 2, "the first column woke at %g s (asleep at %g s)", t, first);
        if (st.asleep) break;
    }
    ck_assert_msg(first >= 0.0 && first < 0.1, "the first column fell asleep at %g s", first);
    ck_assert_msg(st.asleep, "the world is not asleep at %g s", t);
    magdyn_world_free(w);
}
END_TEST

/* A magnet asleep on the plate wakes when a falling box lands on it; the
 * two then rest and sleep together. */
START_TEST(touch_wakes_a_sleeping_island)
{
    magdyn_world_params p = scene_params();
    magdyn_world *w = magdyn_world_new(&p);
    magdyn_magnet a = scene_cube(magdyn_v3(0, 0, 0.005), magdyn_quat_identity(), magdyn_v3(0, 0, 1));
    magdyn_magnet b = scene_cube(magdyn_v3(0, 0, 0.05), magdyn_quat_identity(), magdyn_v3(0, 0, 0));
    magdyn_world_stats st;
    scene_plate(w);
    ck_assert_int_eq(magdyn_world_add(w, &a), 1);
    ck_assert_int_eq(magdyn_world_add(w, &b), 2);
    ck_assert_int_eq(magdyn_world_advance(w, 0.08), MAGDYN_OK);
    magdyn_world_get_stats(w, &st);
    ck_assert_int_eq(st.sleeping, 1);          /* a sleeps; b is falling */
    until_rest(w, 2.0, NULL);
    magdyn_world_get_stats(w, &st);
    ck_assert(st.asleep);
    magdyn_world_get(w, 2, &b);
    ck_assert_double_eq_tol(b.position.z, 0.015, 1e-6);   /* on top of a */
    magdyn_world_free(w);
}
END_TEST

/* Three free 10 mm N42 cubes, no plate, restitution and friction 0.047
 * (found by fuzz_pile): at 3.0 ms magnet 0 rests against magnet 1 and
 * magnet 2 has just bounced off magnet 0, when an impact of 1 on 0 knocks
 * 0 back into 2.  The step must end where 0, on the path its contact step
 * gives it, meets 2: no pair overlaps by more than 0.1 um (measured
 * 4.0e-8 m, the resting pair 0-1 sunk under the snap's force before the
 * contact step pushes it out; 0 and 2 overlapped by 1.4 um when the step
 * ran on past their meeting), and with internal forces and impulses only
 * the momentum is kept to 1e-15 N s (Newton's third law; measured
 * 2.1e-16 N s). */
START_TEST(touching_magnet_knocked_into_a_flying_one)
{
    static const double pos[3][3] = {
        {-0x1.bd4261196b56dp-6, -0x1.e997ac27085p-7, -0x1.dc198a2e050f4p-6},
        {-0x1.005c857b3dcd2p-6, -0x1.2121212121211p-7, -0x1.dc198a2e050f4p-6},
        {-0x1.eb851eb851eb8p-6, -0x1.e3cf54732b7d7p-6, -0x1.add6cc8f1e7aap-6}};
    static const double quat[3][4] = {
        {0x1.c77a2d5a23353p-1, -0x1.ad2f86c069f61p-4, -0x1.41e3a5104f789p-2, -0x1.41e3a5104f789p-2},
        {0x1.91176d9eeccedp-3, -0x1.2ec4c623e72a8p-2, 0x1.2ec4c623e72a8p-2, -0x1.c6272935dabfcp-1},
        {1.0, 0.0, 0.0, 0.0}};
    static const double vel[3][3] = {
        {-0x1.8181818181818p-9, -0x1.2121212121212p-7, -0x1.2121212121212p-7},
        {-0x1.7f7f7f7f7f7f8p-3, 0x1.7f7f7f7f7f7f8p-3, -0x1.1f9f9f9f9f9fap-1},
        {-0x1.a5a5a5a5a5a5bp-4, -0x1.a5a5a5a5a5a5bp-4, -0x1.a5a5a5a5a5a5bp-4}};
    static const double mom[3][3] = {{0, 1, 0}, {-1, 0, 0}, {1, 0, 0}};
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_vec3 p0, l0, p1, l1;
    double worst = 0.0;
    int i;
    p.restitution = 12.0 / 255.0;
    p.friction = 12.0 / 255.0;
    w = magdyn_world_new(&p);
    for (i = 0; i < 3; i++) {
        magdyn_magnet m = magdyn_magnet_default();
        m.half = magdyn_v3(0.005, 0.005, 0.005);
        m.mass = 7500.0 * 1e-6;
        m.position = magdyn_v3(pos[i][0], pos[i][1], pos[i][2]);
        m.orientation = magdyn_q(quat[i][0], quat[i][1], quat[i][2], quat[i][3]);
        m.velocity = magdyn_v3(vel[i][0], vel[i][1], vel[i][2]);
        m.moment = magdyn_vec3_scale(magdyn_v3(mom[i][0], mom[i][1], mom[i][2]), 1.3 * 1e-6 / MAGDYN_MU0);
        ck_assert_int_eq(magdyn_world_add(w, &m), i);
    }
    magdyn_world_momentum(w, &p0, &l0);
    for (i = 1; i <= 3; i++) {
        ck_assert_int_eq(magdyn_world_advance(w, 1e-3 * i), MAGDYN_OK);
        worst = fmax(worst, scene_worst_overlap(w));
    }
    magdyn_world_momentum(w, &p1, &l1);
    fprintf(stderr, "knocked into a flying magnet: overlap %.3g m, momentum change %.3g N s\n", worst,
            magdyn_vec3_dist(p0, p1));
    ck_assert_msg(worst <= 1e-7, "overlap %g m", worst);
    ck_assert_msg(magdyn_vec3_dist(p0, p1) <= 1e-15, "momentum moved by %g N s", magdyn_vec3_dist(p0, p1));
    magdyn_world_free(w);
}
END_TEST

/* With the extended model, a 5 mm N42 cube lying beside a 10 mm one on the
 * plate, their moments head to tail (found by fuzz_pile; restitution 0.25,
 * friction 0.36, gravity, a third 10 mm cube above): they snap, bounce off each other and fly apart
 * a hair, and the next flight step, bounded by their speeds, is long
 * enough for the attraction to carry a trial stage 1.35 mm into the other
 * cube, which the extended model refuses.  The step is then tried shorter:
 * the advance returns OK (it returned MAGDYN_EOVERLAP) and no pair
 * overlaps by more than 1 um (the fuzz bound). */
START_TEST(extended_snap_beside_a_cube_on_the_plate)
{
    magdyn_world_params p = scene_params();
    magdyn_world *w;
    magdyn_magnet m = magdyn_magnet_default();
    double worst = 0.0;
    p.restitution = 64.0 / 255.0;
    p.friction = 91.0 / 255.0;
    p.model = MAGDYN_MODEL_CUBOID;
    p.model_tol = 1e-3;
    w = magdyn_world_new(&p);
    m.half = magdyn_v3(0.1, 0.1, 0.005);   /* fuzz_pile's plate */
    m.mass = 1.6;
    m.position = magdyn_v3(0, 0, -0.005);
    m.fixed = 1;
    ck_assert_int_eq(magdyn_world_add(w, &m), 0);
    m.fixed = 0;
    m.half = magdyn_v3(0.0025, 0.0025, 0.0025);
    m.mass = 7500.0 * 1.25e-7;
    m.position = magdyn_v3(-0x1.70287a65eb09cp-6, -0x1.eb851eb851eb8p-6, 0x1.89374bc6a7efap-8);
    m.orientation = magdyn_q(0x1.fffd83622aa18p-1, -0x1.15d81d790f673p-8, -0x1.15d81d790f673p-8,
                             -0x1.72757ca169defp-10);
    m.moment = magdyn_v3(1.3 * 1.25e-7 / MAGDYN_MU0, 0, 0);
    ck_assert_int_eq(magdyn_world_add(w, &m), 1);
    m.half = magdyn_v3(0.005, 0.005, 0.005);
    m.mass = 7500.0 * 1e-6;
    m.orientation = magdyn_quat_identity();
    m.position = magdyn_v3(-0x1.eb851eb851eb8p-6, 0x1.eb851eb851eb8p-6, 0x1.58b4ddd396258p-5);
    m.moment = magdyn_v3(0, 1.3 * 1e-6 / MAGDYN_MU0, 0);   /* 42 mm up, 60 mm away */
    ck_assert_int_eq(magdyn_world_add(w, &m), 2);
    m.position = magdyn_v3(-0x1.eb851eb851eb8p-6, -0x1.eb851eb851eb8p-6, 0x1.89374bc6a7efap-8);
    m.moment = magdyn_v3(1.3 * 1e-6 / MAGDYN_MU0, 0, 0);
    ck_assert_int_eq(magdyn_world_add(w, &m), 3);
    ck_assert_int_eq(magdyn_world_advance(w, 1e-3), MAGDYN_OK);
    worst = scene_worst_overlap(w);
    fprintf(stderr, "extended snap beside a cube: overlap %.3g m\n", worst);
    ck_assert_msg(worst <= 1e-6, "overlap %g m", worst);
    magdyn_world_free(w);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("world_pile");
    TCase *tc = tcase_create("pile");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, column_stands);
    tcase_add_test(tc, tower_stands);
    tcase_add_test(tc, chain_holds_without_energy_gain);
    tcase_add_test(tc, losses_are_accounted);
    tcase_add_test(tc, unbalanced_never_sleeps);
    tcase_add_test(tc, touch_wakes_a_sleeping_island);
    tcase_add_test(tc, island_asleep_stays_asleep_beside_a_moving_one);
    tcase_add_test(tc, tipping_cube_slaps_flat);
    tcase_add_test(tc, pile_of_eight_settles);
    tcase_add_test(tc, theta_step_keeps_the_energy);
    tcase_add_test(tc, theta_piles_settle);
    tcase_add_test(tc, theta_step_needs_friction);
    tcase_add_test(tc, touching_magnet_knocked_into_a_flying_one);
    tcase_add_test(tc, extended_snap_beside_a_cube_on_the_plate);
    suite_add_tcase(s, tc);
    {
        SRunner *r = srunner_create(s);
        int failed;
        srunner_run_all(r, CK_NORMAL);
        failed = srunner_ntests_failed(r);
        srunner_free(r);
        return failed ? 1 : 0;
    }
}
