/*
 * test_callback.c - what a collision callback may call on its own world
 * (magdyn_world_new(3), CALLBACKS AND THREADS): reads are allowed; add and
 * advance are refused with MAGDYN_ESTATE and change nothing; free is
 * deferred until the advance returns.  Whatever the callback does, time
 * never runs backwards, advance ends exactly at t_end, and each impact is
 * reported once: the reports are those of a run whose callback does
 * nothing, in the same order, bit for bit.  Run under valgrind and ASan in
 * CI, which also find a use after free of a deferred free.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <magdyn.h>
#include "testutil.h"

enum { MAXREP = 4096 };

enum action { NOTHING, ADVANCE, ADD, FREE, READ, ADVANCE_OTHER };

typedef struct {
    magdyn_world *w, *other;
    enum action act;
    int n;
    magdyn_collision rep[MAXREP];
    int refused, wrong;          /* calls refused as they should be; anything else */
    double last_time;
} log_t;

static void on_collision(const magdyn_collision *c, void *user)
{
    log_t *l = user;
    magdyn_magnet m;
    if (l->n < MAXREP) l->rep[l->n] = *c;
    l->n++;
    if (c->time < l->last_time) l->wrong++;   /* time ran backwards */
    l->last_time = c->time;
    switch (l->act) {
    case NOTHING:
        break;
    case ADVANCE:
        /* a nested advance, forward and backward: both refused */
        if (magdyn_world_advance(l->w, c->time + 1.0) == MAGDYN_ESTATE
            && magdyn_world_advance(l->w, 0.0) == MAGDYN_ESTATE)
            l->refused++;
        else
            l->wrong++;
        break;
    case ADD:
        m = magdyn_magnet_default();
        m.half = magdyn_v3(0.005, 0.005, 0.005);
        m.mass = 7.5e-3;
        m.position = magdyn_v3(1, 1, 1);
        if (magdyn_world_add(l->w, &m) == MAGDYN_ESTATE) l->refused++;
        else l->wrong++;
        break;
    case FREE:
        magdyn_world_free(l->w);   /* deferred; told no more after it */
        l->refused++;
        break;
    case READ: {
        magdyn_world_stats st;
        magdyn_vec3 p, L;
        if (magdyn_world_time(l->w) != c->time || magdyn_world_count(l->w) != 2
            || magdyn_world_get(l->w, c->i, &m) != MAGDYN_OK || !isfinite(magdyn_world_energy(l->w))
            || !isfinite(magdyn_world_kinetic_energy(l->w))
            || magdyn_world_momentum(l->w, &p, &L) != MAGDYN_OK
            || magdyn_world_get_stats(l->w, &st) != MAGDYN_OK)
            l->wrong++;
        break;
    }
    case ADVANCE_OTHER:
        /* another world may be used freely */
        if (magdyn_world_advance(l->other, magdyn_world_time(l->other) + 1e-3) != MAGDYN_OK) l->wrong++;
        break;
    }
}

/* Two 1 cm N42 cubes 3 cm apart, attracting: they snap together and
 * bounce (restitution 0.5) until they rest. */
static magdyn_world *snap_world(log_t *l)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_magnet a = magdyn_magnet_default(), b;
    magdyn_world *w;
    p.on_collision = on_collision;
    p.user = l;
    w = magdyn_world_new(&p);
    ck_assert_ptr_nonnull(w);
    a.half = magdyn_v3(0.005, 0.005, 0.005);
    a.mass = 7.5e-3;
    a.moment = magdyn_v3(0, 0, 1.03);
    b = a;
    b.position = magdyn_v3(0, 0, 0.03);
    ck_assert_int_eq(magdyn_world_add(w, &a), 0);
    ck_assert_int_eq(magdyn_world_add(w, &b), 1);
    return w;
}

static log_t *run(enum action act, double t_end, magdyn_status *s, double *t_after)
{
    log_t *l = calloc(1, sizeof *l);
    ck_assert_ptr_nonnull(l);
    l->act = act;
    l->last_time = -INFINITY;
    l->w = snap_world(l);
    if (act == ADVANCE_OTHER) {
        l->other = magdyn_world_new(NULL);
        ck_assert_ptr_nonnull(l->other);
    }
    *s = magdyn_world_advance(l->w, t_end);
    if (act != FREE) {
        *t_after = magdyn_world_time(l->w);
        magdyn_world_free(l->w);
    }
    magdyn_world_free(l->other);
    return l;
}

static int same_report(const magdyn_collision *a, const magdyn_collision *b)
{
    return a->time == b->time && a->i == b->i && a->j == b->j && a->kind == b->kind
        && a->count == b->count && a->total_impulse.x == b->total_impulse.x
        && a->total_impulse.y == b->total_impulse.y && a->total_impulse.z == b->total_impulse.z
        && a->resting == b->resting;
}

START_TEST(calls_from_the_callback)
{
    const double t_end = 0.1;
    magdyn_status s0, s;
    double t0 = 0, t = 0;
    log_t *ref = run(NOTHING, t_end, &s0, &t0), *l;
    int k, act;
    ck_assert_int_eq(s0, MAGDYN_OK);
    ck_assert_double_eq(t0, t_end);
    ck_assert_int_ge(ref->n, 2);   /* the snap and at least one bounce */
    ck_assert_int_le(ref->n, MAXREP);
    ck_assert_int_eq(ref->wrong, 0);
    for (act = ADVANCE; act <= ADVANCE_OTHER; act++) {
        if (act == FREE) continue;
        l = run((enum action)act, t_end, &s, &t);
        ck_assert_int_eq(s, MAGDYN_OK);
        ck_assert_msg(t == t_end, "action %d: advance ends at %.17g, not t_end", act, t);
        ck_assert_int_eq(l->wrong, 0);
        ck_assert_int_eq(l->n, ref->n);
        if (act == ADVANCE || act == ADD) ck_assert_int_eq(l->refused, l->n);
        for (k = 0; k < l->n; k++)
            ck_assert_msg(same_report(&l->rep[k], &ref->rep[k]), "action %d: report %d differs", act, k);
        free(l);
    }
    free(ref);
}
END_TEST

/* Free from the callback: the first report frees, none follows, and the
 * advance returns with the world released (valgrind and ASan find a use
 * after free or a leak here). */
START_TEST(free_from_the_callback)
{
    magdyn_status s;
    double t;
    log_t *l = run(FREE, 0.1, &s, &t);
    ck_assert_int_eq(s, MAGDYN_OK);
    ck_assert_int_eq(l->n, 1);
    ck_assert_int_eq(l->wrong, 0);
    free(l);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("callback");
    TCase *tc = tcase_create("own world");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, calls_from_the_callback);
    tcase_add_test(tc, free_from_the_callback);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
