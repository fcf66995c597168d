/*
 * test_gas_trace.c - the event-driven gas replays the same collisions in
 * the same order, bit for bit: for fixed seeds, the sequence of collisions
 * (time bits, the two bodies as the caller numbers them, walls apart) and
 * the state at checkpoints (every coordinate's bits) hash to pinned
 * values, so that a change of memory layout or of the order in which the
 * engine stores particles shows as a changed hash (a change of the physics
 * or its rounding pins them anew).  The runs are also repeated with the particle arrays renumbered
 * along the cells' space-filling curve every few events (gas_set_reorder),
 * and never, and in calls stopped by an event budget, which must not
 * change a bit either.
 *
 * The trace comes from the engine's private witness (gas_impl.h), so this
 * test links the gas sources themselves (lib/libmagdyngas.la).
 */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include "test_gas.h"
#include "../lib/gas_impl.h"
#include "../lib/bitstable.h"

typedef struct { uint64_t h; long long pairs, walls; } trace_rec;

/* FNV-1a, 64 bits, over bytes (testutil.h). */
static void fnv(uint64_t *h, const void *p, size_t n) { *h = test_fnv(*h, p, n); }

/* The collision as a pair in the caller's numbering, the lesser first (a
 * pair event predicted from both sides at one instant falls due at the same
 * time for both, and which of the two pops first carries no meaning). */
static void witness(void *user, double t, int kind, int a, int b)
{
    trace_rec *r = user;
    int lo = a, hi = b;
    if (kind == 0 && b < a) { lo = b; hi = a; }
    fnv(&r->h, &t, sizeof t);
    fnv(&r->h, &kind, sizeof kind);
    fnv(&r->h, &lo, sizeof lo);
    fnv(&r->h, &hi, sizeof hi);
    if (kind == 0) r->pairs++; else r->walls++;
}

/* The state of every particle, bit for bit, into the hash. */
static void hash_state(const magdyn_gas *g, uint64_t *h)
{
    int i;
    for (i = 0; i < magdyn_gas_discs(g); i++) {
        magdyn_disc d;
        double x[4];
        ck_assert_int_eq(magdyn_gas_get_disc(g, i, &d), MAGDYN_OK);
        x[0] = d.r.x; x[1] = d.r.y; x[2] = d.v.x; x[3] = d.v.y;
        fnv(h, x, sizeof x);
    }
    for (i = 0; i < magdyn_gas_rotors(g); i++) {
        magdyn_rotor q;
        double x[6];
        ck_assert_int_eq(magdyn_gas_get_rotor(g, i, &q), MAGDYN_OK);
        x[0] = q.r.x; x[1] = q.r.y; x[2] = q.v.x; x[3] = q.v.y; x[4] = q.angle; x[5] = q.omega;
        fnv(h, x, sizeof x);
    }
}

/* Discs of radius 0.5 and 0.35 (every third) and rotors (every rotor_every-th
 * site, 0 for none) on a jittered lattice of side x side sites of spacing a;
 * periodic or walled. */
static magdyn_gas *mixed_gas(int side, double a, int rotor_every, int periodic, test_rng *r)
{
    magdyn_gas_params p = {.width = side * a, .height = side * a, .periodic = periodic};
    magdyn_gas *g = magdyn_gas_new(&p);
    int i;
    ck_assert_ptr_nonnull(g);
    for (i = 0; i < side * side; i++) {
        double x = (i % side + 0.5) * a + test_rng_range(r, -0.1, 0.1) * a;
        double y = (i / side + 0.5) * a + test_rng_range(r, -0.1, 0.1) * a;
        magdyn_vec2 v = magdyn_v2(test_rng_normal(r), test_rng_normal(r));
        if (rotor_every > 0 && i % rotor_every == rotor_every - 1) {
            magdyn_rotor q;
            memset(&q, 0, sizeof q);
            q.r = magdyn_v2(x, y); q.v = v;
            q.angle = test_rng_range(r, 0, 2 * MAGDYN_PI);
            q.omega = test_rng_normal(r);
            q.mass = 1.5; q.half_length = 0.3; q.end_radius = 0.2;
            q.inertia = 0.5 * q.mass * q.half_length * q.half_length;
            ck_assert_int_ge(magdyn_gas_add_rotor_species(g, &q, 1), 0);
        } else {
            magdyn_disc d;
            d.r = magdyn_v2(x, y); d.v = v;
            d.radius = i % 3 == 2 ? 0.35 : 0.5;
            d.mass = d.radius * d.radius * 4.0;
            ck_assert_int_ge(magdyn_gas_add_disc(g, &d), 0);
        }
    }
    return g;
}

typedef struct {
    const char *name;
    int kind;           /* 0: mono discs (lattice_gas), 1: mixed */
    int side;
    double eta_or_a;    /* packing (kind 0) or lattice spacing (kind 1) */
    int rotor_every, periodic;
    double dt;          /* between checkpoints */
    int checkpoints;
    uint64_t hash;      /* pinned: gcc */
    long long pairs, walls;
    uint64_t hash_clang;  /* and clang, which rounds some step of the run differently */
    long long pairs_clang, walls_clang;
} scenario;

/*
 * The pinned runs: the hot path (equal discs, joint prediction of a pair),
 * then mixed radii with rotors in a periodic box, then walls.  The hashes
 * were printed by this test, built by gcc 12 and by clang 14 (-O2,
 * -ffp-contract=off).  The two compilers' runs part ways at some rounding,
 * and each must stay as it was.
 */
static const scenario scen[] = {
    {"discs 4900", 0, 70, 0.5, 0, 1, 0.35, 12, 0x715b385c88ba64faULL, 70145, 0,
     0xaa3f377f464b83deULL, 70786, 0},
    {"discs 1600", 0, 40, 0.7, 0, 1, 0.5, 16, 0x2952e162ac681729ULL, 148233, 0,
     0x036679358b05fd1eULL, 146670, 0},
    {"mixed periodic", 1, 30, 1.25, 7, 1, 1.0, 16, 0x8965ae559288f77aULL, 33231, 0,
     0xa5db51f74b78ccafULL, 33520, 0},
    {"mixed walls", 1, 24, 1.3, 5, 0, 1.5, 20, 0xd4b0b998996e51f5ULL, 35450, 2302,
     0x30db17e8a995c417ULL, 35402, 2492},
};

/* Runs scenario s with particles renumbered every reorder events (0: by
 * the engine's own rule, < 0: never), each checkpoint reached by calls of
 * at most budget events (0: one call); the combined hash in *out. */
static void run_budget(const scenario *s, long long reorder, long long budget, trace_rec *out)
{
    test_rng r = {20240601};
    const double mass[2] = {1.0, 1.0};
    magdyn_gas *g = s->kind == 0 ? lattice_gas(s->side, s->eta_or_a, mass, 1.0, 0, &r)
                                 : mixed_gas(s->side, s->eta_or_a, s->rotor_every, s->periodic, &r);
    int c, stops = 0;
    memset(out, 0, sizeof *out);
    out->h = 14695981039346656037ULL;
    gas_set_trace(g, witness, out);
    gas_set_reorder(g, reorder);
    ck_assert_int_eq(magdyn_gas_set_event_budget(g, budget), MAGDYN_OK);
    for (c = 1; c <= s->checkpoints; c++) {
        magdyn_status st;
        long long events = g->events;
        double t = magdyn_gas_time(g);
        while ((st = magdyn_gas_advance(g, c * s->dt)) == MAGDYN_EBUDGET) {
            /* stopped after exactly the budget, at its last event's time */
            ck_assert_int_eq(g->events - events, budget);
            ck_assert(magdyn_gas_time(g) >= t && magdyn_gas_time(g) < c * s->dt);
            events = g->events;
            t = magdyn_gas_time(g);
            stops++;
        }
        ck_assert_int_eq(st, MAGDYN_OK);
        ck_assert(budget == 0 || g->events - events <= budget);
        hash_state(g, &out->h);
    }
    if (budget > 0) ck_assert_int_gt(stops, 10);
    magdyn_gas_free(g);
}

/* t is the run pinned for the compiler at hand.  The pins are those of
 * the host's libm (sin, cos): with --enable-bitstable (the library's own)
 * the runs differ, and there each must equal the run never renumbered, in
 * the same process; test_bitstable pins that build's bits. */
static int same_as_pinned(const scenario *s, const trace_rec *t)
{
#if MAGDYN_BITSTABLE
    static trace_rec ref[sizeof scen / sizeof scen[0]];
    static int have[sizeof scen / sizeof scen[0]];
    int i = (int)(s - scen);
    if (!have[i]) {
        run_budget(s, -1, 0, &ref[i]);
        have[i] = 1;
    }
    return t->h == ref[i].h && t->pairs == ref[i].pairs && t->walls == ref[i].walls;
#elif defined(__clang__)
    return t->h == s->hash_clang && t->pairs == s->pairs_clang && t->walls == s->walls_clang;
#else
    return t->h == s->hash && t->pairs == s->pairs && t->walls == s->walls;
#endif
}

static void check_budget(int i, long long reorder, long long budget)
{
    const scenario *s = &scen[i];
    trace_rec t;
    run_budget(s, reorder, budget, &t);
    printf("%-16s reorder %6lld: %lld pair, %lld wall collisions, hash 0x%016llxULL\n", s->name,
           reorder, t.pairs, t.walls, (unsigned long long)t.h);
    ck_assert_msg(t.pairs > 10000, "a run long enough to mean something");
    ck_assert_msg(same_as_pinned(s, &t),
                  "%s: the collisions changed (hash 0x%016llx, %lld pair, %lld wall)", s->name,
                  (unsigned long long)t.h, t.pairs, t.walls);
}

static void check(int i, long long reorder) { check_budget(i, reorder, 0); }

START_TEST(same_trace) { check(_i, 0); }
END_TEST

START_TEST(same_trace_never_renumbered) { check(_i, -1); }
END_TEST

/* Renumbered every 101 and every 4999 events: many times in each run, at
 * all sorts of moments (between the two events of a pair predicted at one
 * instant, in the middle of an epoch, with the front full or empty). */
START_TEST(same_trace_renumbered_often) { check(_i, 101); }
END_TEST

START_TEST(same_trace_renumbered_now_and_then) { check(_i, 4999); }
END_TEST

/* Advanced in calls of at most 997 events (magdyn_gas_set_event_budget):
 * a call stopped at the budget leaves every prediction standing, so the
 * collisions are those of one call per checkpoint. */
START_TEST(same_trace_in_budgeted_calls) { check_budget(_i, 0, 997); }
END_TEST

/* A budget below 0, or no gas: MAGDYN_EINVAL, the budget as it was. */
START_TEST(event_budget_bad_input)
{
    test_rng r = {7};
    magdyn_gas *g = mixed_gas(4, 1.3, 3, 1, &r);
    ck_assert_int_eq(magdyn_gas_set_event_budget(NULL, 10), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_set_event_budget(g, 10), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_set_event_budget(g, -1), MAGDYN_EINVAL);
    ck_assert_int_eq(g->event_budget, 10);
    ck_assert_int_eq(magdyn_gas_advance(g, 1e3), MAGDYN_EBUDGET);
    ck_assert_int_eq(magdyn_gas_set_event_budget(g, 0), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_advance(g, 1e3), MAGDYN_OK);
    ck_assert(magdyn_gas_time(g) == 1e3);
    magdyn_gas_free(g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gas_trace");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, same_trace, 0, (int)(sizeof scen / sizeof scen[0]));
    tcase_add_loop_test(tc, same_trace_never_renumbered, 0, (int)(sizeof scen / sizeof scen[0]));
    tcase_add_loop_test(tc, same_trace_renumbered_often, 0, (int)(sizeof scen / sizeof scen[0]));
    tcase_add_loop_test(tc, same_trace_renumbered_now_and_then, 0, (int)(sizeof scen / sizeof scen[0]));
    tcase_add_loop_test(tc, same_trace_in_budgeted_calls, 0, (int)(sizeof scen / sizeof scen[0]));
    tcase_add_test(tc, event_budget_bad_input);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_NOFORK);
}
