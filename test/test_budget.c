/*
 * test_budget.c - bounded advance: the step budget (max_steps, status
 * MAGDYN_EBUDGET) and the cancel callback (MAGDYN_ECANCELED) of
 * magdyn_world_params (magdyn_world_new(3)).
 *
 * A bounded advance stops between two steps, so the world is as a shorter
 * advance would have left it: its time lies in [start, t_end], and calling
 * advance again goes on.  Reference: an advance cut into pieces by the
 * budget and resumed to the same t_end takes exactly the steps of one
 * unbounded advance (the loop resumes where it stopped), so the final
 * states agree to the last bit.
 */
#include <check.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

/* One magnet held, one 2 cm above it, falling onto it under their
 * attraction: flight, impact, then resting contact. */
static magdyn_world *pair_world(const magdyn_world_params *p)
{
    magdyn_world *w = NULL;
    magdyn_magnet a = magdyn_magnet_default(), b;
    double vol = 1e-6;
    ck_assert_int_eq(magdyn_world_create(p, &w), MAGDYN_OK);
    a.half = magdyn_v3(0.005, 0.005, 0.005);
    a.mass = 7500.0 * vol;
    a.moment = magdyn_v3(0, 0, magdyn_moment_from_remanence(1.3, vol));
    a.fixed = true;
    b = a;
    b.fixed = false;
    b.position = magdyn_v3(0.001, 0, 0.02);
    ck_assert_int_eq(magdyn_world_add(w, &a), 0);
    ck_assert_int_eq(magdyn_world_add(w, &b), 1);
    return w;
}

/* A far t_end with moving magnets: the budget ends the call, and the world
 * goes on from where it stopped. */
START_TEST(far_advance_stops_at_the_budget)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_world_stats st;
    magdyn_magnet m;
    double t1, t2;
    p.max_steps = 50;
    w = pair_world(&p);
    ck_assert_int_eq(magdyn_world_advance(w, 1e300), MAGDYN_EBUDGET);
    t1 = magdyn_world_time(w);
    ck_assert(t1 > 0.0 && t1 < 1e300);
    ck_assert_int_eq(magdyn_world_get_stats(w, &st), MAGDYN_OK);
    ck_assert_int_le(st.steps + st.contact_steps, 50);
    ck_assert(isfinite(magdyn_world_energy(w)));
    ck_assert_int_eq(magdyn_world_get(w, 1, &m), MAGDYN_OK);
    ck_assert(m.position.z > 0.01 - 1e-6);   /* not sunk into the held magnet */
    /* the next call takes another 50 steps */
    ck_assert_int_eq(magdyn_world_advance(w, 1e300), MAGDYN_EBUDGET);
    t2 = magdyn_world_time(w);
    ck_assert(t2 > t1);
    /* and a near t_end is reached */
    ck_assert_int_eq(magdyn_world_advance(w, t2 + 1e-4), MAGDYN_OK);
    ck_assert(magdyn_world_time(w) == t2 + 1e-4);
    magdyn_world_free(w);
}
END_TEST

/* Cut by the budget and resumed, the run is the unbounded one. */
START_TEST(resumed_advance_matches_one_advance)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *whole, *cut;
    magdyn_magnet a, b;
    magdyn_world_stats sa, sb;
    magdyn_status s;
    int calls = 0;
    const double t_end = 0.15;   /* past the impact (about 0.03 s) into resting contact */
    whole = pair_world(&p);
    p.max_steps = 7;
    cut = pair_world(&p);
    ck_assert_int_eq(magdyn_world_advance(whole, t_end), MAGDYN_OK);
    while ((s = magdyn_world_advance(cut, t_end)) == MAGDYN_EBUDGET) {
        ck_assert(magdyn_world_time(cut) <= t_end);
        calls++;
    }
    ck_assert_int_eq(s, MAGDYN_OK);
    ck_assert_int_gt(calls, 2);
    ck_assert_int_eq(magdyn_world_get(whole, 1, &a), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_get(cut, 1, &b), MAGDYN_OK);
    ck_assert(memcmp(&a.position, &b.position, sizeof a.position) == 0);
    ck_assert(memcmp(&a.velocity, &b.velocity, sizeof a.velocity) == 0);
    ck_assert(memcmp(&a.orientation, &b.orientation, sizeof a.orientation) == 0);
    ck_assert_int_eq(magdyn_world_get_stats(whole, &sa), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_get_stats(cut, &sb), MAGDYN_OK);
    ck_assert_int_eq(sa.steps, sb.steps);
    ck_assert_int_eq(sa.contact_steps, sb.contact_steps);
    ck_assert_int_eq(sa.collisions, sb.collisions);
    ck_assert_int_ge(sa.collisions, 1);
    magdyn_world_free(whole);
    magdyn_world_free(cut);
}
END_TEST

typedef struct { int asked, stop_at; magdyn_world *w; double t_seen; } canceler;

static bool cancel_at(void *user)
{
    canceler *c = user;
    c->t_seen = magdyn_world_time(c->w);   /* the callback may read its world */
    return ++c->asked >= c->stop_at;
}

START_TEST(cancel_callback_stops_and_resumes)
{
    magdyn_world_params p = magdyn_world_params_default();
    canceler c = {0, 5, NULL, -1.0};
    magdyn_world *w;
    double t;
    p.cancel = cancel_at;
    p.user = &c;
    w = pair_world(&p);
    c.w = w;
    ck_assert_int_eq(magdyn_world_advance(w, 1e300), MAGDYN_ECANCELED);
    ck_assert_int_eq(c.asked, 5);   /* asked before each step: four steps taken */
    t = magdyn_world_time(w);
    ck_assert(t > 0.0 && t == c.t_seen);
    /* going on: asked again, and again it stops at once */
    ck_assert_int_eq(magdyn_world_advance(w, 1e300), MAGDYN_ECANCELED);
    ck_assert_int_eq(c.asked, 6);
    ck_assert(magdyn_world_time(w) == t);
    /* told to go on, it reaches t_end */
    c.stop_at = 1000000;
    ck_assert_int_eq(magdyn_world_advance(w, t + 0.01), MAGDYN_OK);
    ck_assert(magdyn_world_time(w) == t + 0.01);
    magdyn_world_free(w);
}
END_TEST

START_TEST(bad_budget_is_refused)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w = (magdyn_world *)&p;
    ck_assert_int_eq(p.max_steps, 0);
    ck_assert(p.cancel == NULL);
    p.max_steps = -1;
    ck_assert_int_eq(magdyn_world_create(&p, &w), MAGDYN_EINVAL);
    ck_assert_ptr_null(w);
    ck_assert_ptr_null(magdyn_world_new(&p));
    ck_assert_int_eq(magdyn_world_create(NULL, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_create(NULL, &w), MAGDYN_OK);   /* defaults */
    ck_assert_ptr_nonnull(w);
    magdyn_world_free(w);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("budget");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, far_advance_stops_at_the_budget);
    tcase_add_test(tc, resumed_advance_matches_one_advance);
    tcase_add_test(tc, cancel_callback_stops_and_resumes);
    tcase_add_test(tc, bad_budget_is_refused);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
