/*
 * test_gas_queue.c - the event queue of the event-driven gas (lib/gas_queue.c,
 * gas_queue.h) on its own: a stand-in gas whose particles hold made-up event
 * times.  The queue must hand out every particle's current event in order of
 * time, earliest first, against an independent reference (a sort, or the
 * minimum over all particles found by brute force), drop superseded entries,
 * and stay right where the front turns into a heap (many events due at one
 * instant) and where the calendar jumps over a year of empty buckets.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "testutil.h"
#include "../lib/gas_impl.h"
#include "../lib/gas_queue.h"

/* n particles in one cell of a 1 x 1 grid, no events yet. */
static magdyn_gas *stand_in(int n)
{
    magdyn_gas *g = calloc(1, sizeof *g);
    int k;
    ck_assert_ptr_nonnull(g);
    g->n = g->cap = n;
    g->p = calloc((size_t)n, sizeof *g->p);
    g->ev = calloc((size_t)n, sizeof *g->ev);
    g->link = calloc((size_t)n, sizeof *g->link);
    g->ver = calloc((size_t)n, sizeof *g->ver);
    g->head = calloc(1, sizeof *g->head);
    ck_assert(g->p && g->ev && g->link && g->ver && g->head);
    g->ncx = g->ncy = 1;
    for (k = 0; k < n; k++) {
        g->ev[k].tp = g->ev[k].to = INFINITY;
        g->ev[k].partner = k;
        g->ev[k].otype = EV_NONE;
    }
    return g;
}

static void stand_in_free(magdyn_gas *g)
{
    free(g->p); free(g->ev); free(g->link); free(g->ver); free(g->head);
    free(g->heap_mem); free(g->cal_pool); free(g->cal_bucket);
    free(g);
}

/* Gives k a pair event at t (or none, INFINITY) and queues it; 0 out of
 * memory.  (Plain checks in the loops: check records the place of every
 * ck_assert, a write each.) */
static int set_event(magdyn_gas *g, int k, double t)
{
    g->ev[k].tp = t;
    return schedule(g, k, t) == MAGDYN_OK;
}

/* The earliest current entry, popped (superseded ones dropped on the way);
 * 0 for an empty queue, -1 on error. */
static int pop(magdyn_gas *g, gas_hent *out)
{
    for (;;) {
        int any = gas_queue_front(g);
        if (any <= 0) return any;
        *out = front_top(g);
        front_pop(g);
        if (out->ver == g->ver[out->k]) return 1;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Built from made-up events (some particles with none), the queue hands
 * them out in the order of a sort of the same times. */
START_TEST(build_then_drain_in_order)
{
    test_rng r = {11};
    int n = 3000, k, m = 0, i;
    magdyn_gas *g = stand_in(n);
    double *ref = malloc(sizeof(double) * (size_t)n);
    gas_hent e;
    for (k = 0; k < n; k++) {
        double t = k % 10 == 0 ? INFINITY : test_rng_range(&r, 0.0, 5.0);
        g->ev[k].tp = t;
        if (t < INFINITY) ref[m++] = t;
    }
    ck_assert_int_eq(gas_queue_build(g), MAGDYN_OK);
    qsort(ref, (size_t)m, sizeof *ref, cmp_double);
    for (i = 0; i < m; i++)
        if (pop(g, &e) != 1 || e.t != ref[i] || e.t != g->ev[e.k].tp) break;
    ck_assert_msg(i == m, "entry %d: %.17g, expected %.17g", i, e.t, ref[i < m ? i : 0]);
    ck_assert_int_eq(pop(g, &e), 0);
    free(ref);
    stand_in_free(g);
}
END_TEST

/*
 * The event loop's use: the earliest event is taken and its particle
 * rescheduled later, and meanwhile other particles are rescheduled (their
 * old entries superseded) or left without events.  Every pop must be the
 * minimum over all particles' current times, found by brute force.
 */
START_TEST(hold_model_matches_brute_force)
{
    test_rng r = {12};
    int n = 400, k, step, steps = (int)test_count(200000);
    magdyn_gas *g = stand_in(n);
    gas_hent e;
    double now = 0.0;
    for (k = 0; k < n; k++) g->ev[k].tp = test_rng_range(&r, 0.0, 1.0);
    ck_assert_int_eq(gas_queue_build(g), MAGDYN_OK);
    for (step = 0; step < steps; step++) {
        double tmin = INFINITY;
        int kmin = -1, ok;
        for (k = 0; k < n; k++)
            if (g->ev[k].tp < tmin) { tmin = g->ev[k].tp; kmin = k; }
        if (kmin < 0) break;
        ok = pop(g, &e) == 1 && e.t == tmin && g->ev[e.k].tp == tmin && e.t >= now;
        if (!ok) break;
        now = e.t;
        g->time = now;
        /* the particle's next event, at exponential waiting times of mean 1 */
        ok = set_event(g, e.k, now - log(1.0 - test_rng_uniform(&r)));
        /* a neighbour's event changes (new partner) or goes away */
        k = (int)(test_rng_uniform(&r) * n);
        if (ok && k != e.k) {
            double u = test_rng_uniform(&r);
            ok = set_event(g, k, u < 0.05 ? INFINITY : now + 2.0 * u);
        }
        if (!ok) break;
    }
    ck_assert_msg(step == steps, "step %d: popped %.17g, the earliest is at %.17g", step, e.t, now);
    stand_in_free(g);
}
END_TEST

/* Far more events at one instant than the sorted front holds
 * (FRONT_SORTED_MAX): the front turns into a heap and back, and every
 * entry still comes out, in order, the tied ones together. */
START_TEST(many_at_one_instant)
{
    test_rng r = {13};
    int n = 10 * FRONT_SORTED_MAX + 7, k, i, seen = 0;
    magdyn_gas *g = stand_in(n);
    gas_hent e;
    double last = -INFINITY;
    for (k = 0; k < n; k++) g->ev[k].tp = k % 3 ? 1.0 : 1.0 + test_rng_range(&r, 0.0, 1e-3);
    ck_assert_int_eq(gas_queue_build(g), MAGDYN_OK);
    for (i = 0; i < n; i++) {
        if (pop(g, &e) != 1 || !(e.t >= last)) break;
        last = e.t;
        seen += e.t == 1.0;
        g->time = e.t;
    }
    ck_assert_int_eq(i, n);
    ck_assert_int_eq(seen, n - (n + 2) / 3);
    ck_assert_int_eq(pop(g, &e), 0);
    /* empty again: a sorted array */
    ck_assert_int_eq(g->front_heap, 0);
    stand_in_free(g);
}
END_TEST

/* Events spread over many years of the calendar (the bucket width is set
 * by the dense early ones): the queue jumps over the empty years and still
 * hands out every event in order. */
START_TEST(sparse_far_future)
{
    int n = 256, k, i;
    magdyn_gas *g = stand_in(n);
    gas_hent e;
    double last = -INFINITY;
    for (k = 0; k < n; k++) g->ev[k].tp = k < n / 2 ? 1e-3 * k : pow(10.0, 1 + k % 12) + k;
    ck_assert_int_eq(gas_queue_build(g), MAGDYN_OK);
    for (i = 0; i < n; i++) {
        if (pop(g, &e) != 1 || !(e.t > last)) break;
        last = e.t;
        g->time = e.t;
    }
    ck_assert_msg(i == n, "entry %d: %.17g after %.17g", i, e.t, last);
    ck_assert_int_eq(pop(g, &e), 0);
    stand_in_free(g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gas_queue");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, build_then_drain_in_order);
    tcase_add_test(tc, hold_model_matches_brute_force);
    tcase_add_test(tc, many_at_one_instant);
    tcase_add_test(tc, sparse_far_future);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_NOFORK);
}
