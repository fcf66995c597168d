/*
 * test_island.c - layer 3: islands of touching bodies and the sleep test.
 * References: the islands are the connected components of the contact
 * graph without the fixed bodies, checked against a breadth-first search
 * over an adjacency matrix (e.g. Cormen et al., Introduction to Algorithms,
 * 3rd ed., 22.2), numbered by smallest member; a body is in equilibrium
 * when the sum of the forces and of the torques on it vanish (statics), and
 * no point of a rigid box moves faster than |v| + |omega| times its half
 * diagonal, since |omega x r| <= |omega| |r|.
 */
#include <check.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

#define SENTINEL 0x5a5a5a5a
#define MAXN 200

static void fill(int *a, int n, int v)
{
    int i;
    for (i = 0; i < n; i++) a[i] = v;
}

/* One assertion per array: each passing check assertion costs a write to
 * the test's pipe, too slow for the large loops below. */
static void assert_ints(const int *got, const int *want, int n)
{
    int i = 0;
    while (i < n && got[i] == want[i]) i++;
    ck_assert_msg(i == n, "[%d]: %d, want %d", i, i < n ? got[i] : 0, i < n ? want[i] : 0);
}

START_TEST(chain_pair_and_lone_body)
{
    /* 0-1-2, 3-4, 5 */
    const int pairs[] = {0, 1, 1, 2, 3, 4};
    const int shuffled[] = {4, 3, 2, 1, 1, 0, 2, 1};
    const int want_island[] = {0, 0, 0, 1, 1, 2}, want_start[] = {0, 3, 5, 6},
              want_members[] = {0, 1, 2, 3, 4, 5};
    int island[6], start[7], members[6], nisl = -7;
    fill(start, 7, SENTINEL);
    ck_assert_int_eq(magdyn_islands(6, NULL, 3, pairs, island, start, members, &nisl), MAGDYN_OK);
    ck_assert_int_eq(nisl, 3);
    assert_ints(island, want_island, 6);
    assert_ints(start, want_start, 4);
    ck_assert_int_eq(start[4], SENTINEL); /* only start[0 .. nislands] is written */
    assert_ints(members, want_members, 6);
    /* the same contacts in another order, one repeated, reversed: same result */
    ck_assert_int_eq(magdyn_islands(6, NULL, 4, shuffled, island, start, members, &nisl), MAGDYN_OK);
    ck_assert_int_eq(nisl, 3);
    assert_ints(island, want_island, 6);
    assert_ints(start, want_start, 4);
    assert_ints(members, want_members, 6);
}
END_TEST

START_TEST(numbered_by_smallest_member)
{
    /* {0, 4}, {1, 3}, {2}: the islands interleave in index order */
    const int pairs[] = {3, 1, 4, 0};
    const int want_island[] = {0, 1, 2, 1, 0}, want_start[] = {0, 2, 4, 5},
              want_members[] = {0, 4, 1, 3, 2};
    int island[5], start[6], members[5], nisl;
    ck_assert_int_eq(magdyn_islands(5, NULL, 2, pairs, island, start, members, &nisl), MAGDYN_OK);
    ck_assert_int_eq(nisl, 3);
    assert_ints(island, want_island, 5);
    assert_ints(start, want_start, 4);
    assert_ints(members, want_members, 5);
}
END_TEST

START_TEST(fixed_plate_joins_nothing)
{
    /* body 0 a fixed plate, bodies 1 and 2 rest on it, body 3 on body 2 */
    const bool fixed[] = {1, 0, 0, 0};
    const int pairs[] = {0, 1, 2, 0, 0, 2, 2, 3, 0, 0};
    const int want_island[] = {-1, 0, 1, 1}, want_start[] = {0, 1, 3}, want_members[] = {1, 2, 3};
    int island[4], start[5], members[4], nisl;
    fill(members, 4, SENTINEL);
    ck_assert_int_eq(magdyn_islands(4, fixed, 5, pairs, island, start, members, &nisl), MAGDYN_OK);
    ck_assert_int_eq(nisl, 2);
    assert_ints(island, want_island, 4);
    assert_ints(start, want_start, 3);
    assert_ints(members, want_members, 3);
    ck_assert_int_eq(members[3], SENTINEL);
    /* without the flags the plate joins all four into one island */
    ck_assert_int_eq(magdyn_islands(4, NULL, 5, pairs, island, NULL, NULL, &nisl), MAGDYN_OK);
    ck_assert_int_eq(nisl, 1);
    ck_assert(island[0] == 0 && island[1] == 0 && island[2] == 0 && island[3] == 0);
}
END_TEST

/* Components by breadth-first search over the adjacency matrix, numbered
 * in the order of their smallest member; fixed bodies get -1. */
static int reference_islands(int n, const bool *fixed, int npairs, const int *pairs,
                             int *island)
{
    static unsigned char adj[MAXN][MAXN];
    int queue[MAXN], i, k, next = 0;
    memset(adj, 0, sizeof adj);
    for (k = 0; k < npairs; k++) {
        int a = pairs[2 * k], b = pairs[2 * k + 1];
        if ((fixed && (fixed[a] || fixed[b]))) continue;
        adj[a][b] = adj[b][a] = 1;
    }
    for (i = 0; i < n; i++) island[i] = -1;
    for (i = 0; i < n; i++) {
        int head = 0, tail = 0;
        if ((fixed && fixed[i]) || island[i] >= 0) continue;
        island[i] = next;
        queue[tail++] = i;
        while (head < tail) {
            int u = queue[head++], v;
            for (v = 0; v < n; v++)
                if (adj[u][v] && island[v] < 0) {
                    island[v] = next;
                    queue[tail++] = v;
                }
        }
        next++;
    }
    return next;
}

START_TEST(random_graphs_match_bfs)
{
    static int pairs[2 * 4 * MAXN];
    test_rng r = {20261202};
    long trials = test_count(1000), t;
    for (t = 0; t < trials; t++) {
        int n = 1 + (int)(test_rng_u64(&r) % MAXN), np, i, k, nisl, want_n, bad;
        int island[MAXN], want[MAXN], start[MAXN + 1], members[MAXN], plain[MAXN];
        bool fixed[MAXN];
        double pfix = test_rng_uniform(&r) < 0.3 ? 0.0 : test_rng_range(&r, 0.0, 0.4);
        /* sparse to dense: from mostly lone bodies to one giant island */
        np = (int)(test_rng_u64(&r) % (unsigned)(4 * n + 1));
        for (k = 0; k < np; k++) {
            if (k > 0 && test_rng_uniform(&r) < 0.1) { /* a repeated pair, maybe reversed */
                int j = (int)(test_rng_u64(&r) % (unsigned)k), flip = test_rng_uniform(&r) < 0.5;
                pairs[2 * k] = pairs[2 * j + flip];
                pairs[2 * k + 1] = pairs[2 * j + 1 - flip];
            } else {
                pairs[2 * k] = (int)(test_rng_u64(&r) % (unsigned)n);
                pairs[2 * k + 1] = (int)(test_rng_u64(&r) % (unsigned)n);
            }
        }
        for (i = 0; i < n; i++) fixed[i] = test_rng_uniform(&r) < pfix;
        want_n = reference_islands(n, pfix > 0 ? fixed : NULL, np, pairs, want);
        ck_assert_int_eq(magdyn_islands(n, pfix > 0 ? fixed : NULL, np, pairs, island, start, members,
                                        &nisl), MAGDYN_OK);
        ck_assert_int_eq(nisl, want_n);
        assert_ints(island, want, n);
        /* the CSR lists: island k's members ascending, each body listed once */
        bad = start[0] != 0;
        for (k = 0; k < nisl; k++) {
            bad |= start[k] >= start[k + 1];
            for (i = start[k]; i < start[k + 1]; i++)
                bad |= want[members[i]] != k || (i > start[k] && members[i - 1] >= members[i]);
        }
        for (i = 0, k = 0; i < n; i++) k += want[i] >= 0;
        ck_assert_msg(!bad && start[nisl] == k, "trial %ld: bad member lists", t);
        /* the same islands without the lists */
        ck_assert_int_eq(magdyn_islands(n, pfix > 0 ? fixed : NULL, np, pairs, plain, NULL, NULL,
                                        &nisl), MAGDYN_OK);
        assert_ints(plain, want, n);
    }
}
END_TEST

START_TEST(long_chain_in_worst_order)
{
    /* pairs (i, i+1) from the far end inwards: deep trees without balancing */
    enum { N = 100000 };
    static int pairs[2 * (N - 1)], island[N], start[N + 1], members[N];
    int k, nisl;
    for (k = 0; k < N - 1; k++) {
        pairs[2 * k] = N - 1 - k;
        pairs[2 * k + 1] = N - 2 - k;
    }
    ck_assert_int_eq(magdyn_islands(N, NULL, N - 1, pairs, island, start, members, &nisl), MAGDYN_OK);
    ck_assert_int_eq(nisl, 1);
    ck_assert_int_eq(start[1], N);
    for (k = 0; k < N && island[k] == 0 && members[k] == k; k++) continue;
    ck_assert_int_eq(k, N);
}
END_TEST

START_TEST(bad_island_input_leaves_outputs_untouched)
{
    const int pairs[] = {0, 1, 1, 2};
    const int low[] = {0, 1, -1, 2}, high[] = {0, 1, 2, 3};
    int island[3], start[4], members[3], nisl, i;
    struct { int n, np; const int *pairs; int *island, *start, *members, *nisl; } bad[] = {
        {-1, 2, pairs, island, start, members, &nisl},
        {3, -1, pairs, island, start, members, &nisl},
        {3, 2, NULL, island, start, members, &nisl},
        {3, 2, pairs, NULL, start, members, &nisl},
        {3, 2, pairs, island, start, members, NULL},
        {3, 2, pairs, island, start, NULL, &nisl},
        {3, 2, pairs, island, NULL, members, &nisl},
        {3, 2, low, island, start, members, &nisl},
        {3, 2, high, island, start, members, &nisl},
        {0, 1, pairs, island, start, members, &nisl},
    };
    for (i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
        fill(island, 3, SENTINEL);
        fill(start, 4, SENTINEL);
        fill(members, 3, SENTINEL);
        nisl = SENTINEL;
        ck_assert_msg(magdyn_islands(bad[i].n, NULL, bad[i].np, bad[i].pairs, bad[i].island,
                                     bad[i].start, bad[i].members, bad[i].nisl) == MAGDYN_EINVAL,
                      "case %d", i);
        ck_assert_int_eq(nisl, SENTINEL);
        ck_assert(island[0] == SENTINEL && island[1] == SENTINEL && island[2] == SENTINEL);
        ck_assert(start[0] == SENTINEL && start[3] == SENTINEL && members[0] == SENTINEL);
    }
    /* no bodies, no pairs: no islands, and pairs may be NULL */
    ck_assert_int_eq(magdyn_islands(0, NULL, 0, NULL, island, start, members, &nisl), MAGDYN_OK);
    ck_assert_int_eq(nisl, 0);
    ck_assert_int_eq(start[0], 0);
}
END_TEST

/* --- sleep ---------------------------------------------------------------- */

/* A 20 x 40 x 40 mm box (half diagonal 0.03 m exactly), 10 g, at rest. */
static magdyn_body box(int fixed)
{
    magdyn_body b;
    ck_assert_int_eq(magdyn_body_init(&b, magdyn_v3(0.01, 0.02, 0.02), 0.01, magdyn_v3(0, 0, 0),
                                      magdyn_quat_identity(), fixed), MAGDYN_OK);
    return b;
}

/* Resting on a plate: weight m g down, the contact m g up; torque-free. */
static magdyn_body_load resting(void)
{
    magdyn_body_load l;
    double w = 0.01 * 9.81;
    l.net_force = magdyn_v3(0, 0, 0);
    l.net_torque = magdyn_v3(0, 0, 0);
    l.force_scale = 2 * w;
    l.torque_scale = 2 * w * 0.01;
    return l;
}

/*
 * A clump of two 10 mm N42 cubes (7.5 g each) pulling on each other with
 * 20 N, on a plate: each body's net force is within 1e-3 of the 20 N on it
 * whether or not the pair accelerates, so only the island's sum tells.
 * Sliding down a frictionless slope at 0.1 m/s^2 the island's net force,
 * 1.5e-3 N, is 5e-3 of the external forces (weight 0.147 N and the plate's
 * push, equal): not balanced; at rest, with the internal forces cancelling
 * to 1e-8, it is.  (Newton's second law for the island's centre of mass:
 * the internal forces cancel in the sum.)
 */
START_TEST(island_balance_sees_through_internal_forces)
{
    magdyn_sleep_params p = magdyn_sleep_params_default();
    magdyn_body_load ld[2];
    magdyn_vec3 applied[2];
    const int members[2] = {0, 1};
    const double m = 7.5e-3, g = 9.81, pull = 20.0;
    int sliding, k;
    for (sliding = 0; sliding <= 1; sliding++) {
        for (k = 0; k < 2; k++) {
            double side = k ? -1.0 : 1.0, ax = sliding ? 0.1 : 0.0;
            /* applied: weight (with the slope's component) and the pull */
            applied[k] = magdyn_v3(m * ax + side * pull, 0, -m * g);
            /* net: m a, with the rounding of a solve at 1e-8 of the pull */
            ld[k].net_force = magdyn_v3(m * ax + side * 1e-8 * pull, 0, 0);
            ld[k].net_torque = magdyn_v3(0, 0, 0);
            ld[k].force_scale = magdyn_vec3_norm(applied[k]) + magdyn_vec3_dist(ld[k].net_force, applied[k]);
            ld[k].torque_scale = 0.0;
            /* each body alone passes */
            ck_assert_double_le(magdyn_vec3_norm(ld[k].net_force), p.balance * ld[k].force_scale);
        }
        ck_assert_int_eq(magdyn_island_balanced(&p, members, 2, ld, applied), !sliding);
    }
    /* a floating pair, no weight: balanced to the solve's rounding */
    for (k = 0; k < 2; k++) {
        applied[k] = magdyn_v3(k ? -pull : pull, 0, 0);
        ld[k].net_force = magdyn_v3((k ? -1e-8 : 2e-8) * pull, 0, 0);
        ld[k].force_scale = 2.0 * pull;
    }
    ck_assert_int_eq(magdyn_island_balanced(&p, members, 2, ld, applied), 1);
    ck_assert_int_eq(magdyn_island_balanced(NULL, members, 2, ld, applied), 0);
    ck_assert_int_eq(magdyn_island_balanced(&p, members, 0, ld, applied), 0);
    ck_assert_int_eq(magdyn_island_balanced(&p, members, 2, NULL, applied), 0);
    ck_assert_int_eq(magdyn_island_balanced(&p, members, 2, ld, NULL), 0);
}
END_TEST

/* 1/64 s is exact in binary: 3 steps 0.046875 s < 0.05 s <= 4 steps. */
#define H (1.0 / 64)

START_TEST(defaults)
{
    magdyn_sleep_params p = magdyn_sleep_params_default();
    ck_assert(p.speed == 1e-4 && p.time == 0.05 && p.balance == 1e-3);
}
END_TEST

START_TEST(slow_balanced_body_falls_asleep)
{
    magdyn_sleep_params p = magdyn_sleep_params_default();
    magdyn_body b = box(0);
    magdyn_body_load l = resting();
    double t = 0;
    int one = 0, k;
    /* 5e-5 m/s plus 1e-3 rad/s over a 0.03 m half diagonal: 8e-5 <= 1e-4 */
    b.velocity = magdyn_v3(3e-5, 0, 4e-5);
    b.omega = magdyn_v3(0, 6e-4, 8e-4);
    for (k = 1; k <= 3; k++) {
        ck_assert_int_eq(magdyn_sleep_update(&p, 1, &b, &l, H, &t), MAGDYN_OK);
        ck_assert(t == k * H);
        ck_assert_int_eq(magdyn_island_may_sleep(&p, &one, 1, &t), 0);
    }
    ck_assert_int_eq(magdyn_sleep_update(&p, 1, &b, &l, H, &t), MAGDYN_OK);
    ck_assert(t == 4 * H);
    ck_assert_int_eq(magdyn_island_may_sleep(&p, &one, 1, &t), 1);
}
END_TEST

START_TEST(fast_body_resets)
{
    magdyn_sleep_params p = magdyn_sleep_params_default();
    magdyn_body b = box(0);
    magdyn_body_load l = resting();
    double t = 0;
    int k;
    for (k = 0; k < 3; k++) ck_assert_int_eq(magdyn_sleep_update(&p, 1, &b, &l, H, &t), MAGDYN_OK);
    ck_assert(t == 3 * H);
    /* 5e-5 m/s plus 2e-3 rad/s x 0.03 m = 1.1e-4 > 1e-4: the corners are too fast */
    b.velocity = magdyn_v3(5e-5, 0, 0);
    b.omega = magdyn_v3(0, 0, 2e-3);
    ck_assert_int_eq(magdyn_sleep_update(&p, 1, &b, &l, H, &t), MAGDYN_OK);
    ck_assert(t == 0.0);
    /* translation alone above the limit */
    b.velocity = magdyn_v3(0, 1.01e-4, 0);
    b.omega = magdyn_v3(0, 0, 0);
    t = 1.0;
    ck_assert_int_eq(magdyn_sleep_update(&p, 1, &b, &l, H, &t), MAGDYN_OK);
    ck_assert(t == 0.0);
    b.velocity = magdyn_v3(0, 0, 0);
    ck_assert_int_eq(magdyn_sleep_update(&p, 1, &b, &l, H, &t), MAGDYN_OK);
    ck_assert(t == H);
}
END_TEST

START_TEST(speed_bound_covers_every_point)
{
    /* for random states, every corner's speed is within |v| + |omega| |half| */
    test_rng r = {4242};
    long n = test_count(2000), i;
    for (i = 0; i < n; i++) {
        magdyn_body b = box(0);
        double bound;
        int c;
        b.orientation = test_rng_quat(&r);
        b.velocity = test_rng_vec3(&r, -1e-4, 1e-4);
        b.omega = test_rng_vec3(&r, -3e-3, 3e-3);
        bound = magdyn_vec3_norm(b.velocity) + magdyn_vec3_norm(b.omega) * 0.03;
        for (c = 0; c < 8; c++) {
            magdyn_vec3 corner = magdyn_v3(c & 1 ? 0.01 : -0.01, c & 2 ? 0.02 : -0.02,
                                           c & 4 ? 0.02 : -0.02);
            magdyn_vec3 pt = magdyn_vec3_add(b.position, magdyn_quat_rotate(b.orientation, corner));
            ck_assert(magdyn_vec3_norm(magdyn_body_point_velocity(&b, pt)) <= bound * (1 + 1e-12));
        }
    }
}
END_TEST

START_TEST(unbalanced_body_never_sleeps)
{
    magdyn_sleep_params p = magdyn_sleep_params_default();
    magdyn_body b = box(0);
    magdyn_body_load f = resting(), tq = resting(), ok = resting();
    double t[3] = {0, 0, 0};
    magdyn_body bs[3];
    magdyn_body_load ls[3];
    int k, all[] = {0, 1, 2}, first = 0, last = 2;
    /* at rest, but a net force of 1% of the forces acting (balance 0.1%) */
    f.net_force = magdyn_v3(0, 0, 0.01 * f.force_scale);
    /* likewise a net torque of 1% */
    tq.net_torque = magdyn_v3(0.01 * tq.torque_scale, 0, 0);
    /* within the tolerance: half of 0.1% */
    ok.net_force = magdyn_v3(0.5e-3 * ok.force_scale, 0, 0);
    ok.net_torque = magdyn_v3(0, 0.5e-3 * ok.torque_scale, 0);
    bs[0] = bs[1] = bs[2] = b;
    ls[0] = f;
    ls[1] = tq;
    ls[2] = ok;
    for (k = 0; k < 100; k++) {
        ck_assert_int_eq(magdyn_sleep_update(&p, 3, bs, ls, H, t), MAGDYN_OK);
        ck_assert(t[0] == 0.0 && t[1] == 0.0);
    }
    ck_assert(t[2] == 100 * H);
    ck_assert_int_eq(magdyn_island_may_sleep(&p, &first, 1, t), 0);
    ck_assert_int_eq(magdyn_island_may_sleep(&p, &last, 1, t), 1);
    /* one unbalanced member keeps its whole island awake */
    ck_assert_int_eq(magdyn_island_may_sleep(&p, all, 3, t), 0);
    ck_assert_int_eq(magdyn_island_may_sleep(&p, all + 1, 2, t), 0);
}
END_TEST

START_TEST(fixed_bodies_never_block)
{
    magdyn_sleep_params p = magdyn_sleep_params_default();
    magdyn_body bs[2];
    magdyn_body_load ls[2];
    double t[2] = {0, 0};
    int both[] = {1, 0}, plate = 0, k;
    /* a fixed plate, moving and loaded, under a resting magnet */
    bs[0] = box(1);
    bs[0].velocity = magdyn_v3(1, 0, 0);
    bs[1] = box(0);
    ls[0] = resting();
    ls[0].net_force = magdyn_v3(0, 0, -1);
    ls[1] = resting();
    for (k = 0; k < 4; k++) ck_assert_int_eq(magdyn_sleep_update(&p, 2, bs, ls, H, t), MAGDYN_OK);
    ck_assert(isinf(t[0]) && t[0] > 0);
    ck_assert(t[1] == 4 * H);
    ck_assert_int_eq(magdyn_island_may_sleep(&p, both, 2, t), 1);
    ck_assert_int_eq(magdyn_island_may_sleep(&p, &plate, 1, t), 1);
    /* released, the plate counts from zero, not from INFINITY */
    bs[0].fixed = 0;
    bs[0].velocity = magdyn_v3(0, 0, 0);
    ls[0] = resting();
    ck_assert_int_eq(magdyn_sleep_update(&p, 2, bs, ls, H, t), MAGDYN_OK);
    ck_assert(t[0] == H);
    ck_assert_int_eq(magdyn_island_may_sleep(&p, both, 2, t), 0);
}
END_TEST

START_TEST(isolated_body_without_forces_is_balanced)
{
    magdyn_sleep_params p = magdyn_sleep_params_default();
    magdyn_body b = box(0);
    magdyn_body_load none;
    double t = 0;
    memset(&none, 0, sizeof none);
    ck_assert_int_eq(magdyn_sleep_update(&p, 1, &b, &none, H, &t), MAGDYN_OK);
    ck_assert(t == H);
    /* nothing said to act, yet a net force: not balanced */
    none.net_force = magdyn_v3(1e-30, 0, 0);
    ck_assert_int_eq(magdyn_sleep_update(&p, 1, &b, &none, H, &t), MAGDYN_OK);
    ck_assert(t == 0.0);
}
END_TEST

START_TEST(may_sleep_edge_cases)
{
    magdyn_sleep_params p = magdyn_sleep_params_default();
    double t[2] = {1, 0};
    int m[] = {0, 1};
    ck_assert_int_eq(magdyn_island_may_sleep(NULL, m, 1, t), 0);
    ck_assert_int_eq(magdyn_island_may_sleep(&p, NULL, 1, t), 0);
    ck_assert_int_eq(magdyn_island_may_sleep(&p, m, 1, NULL), 0);
    ck_assert_int_eq(magdyn_island_may_sleep(&p, m, 0, t), 0);
    ck_assert_int_eq(magdyn_island_may_sleep(&p, m, 1, t), 1);
    /* with no time window a body must still have been slow on the last update */
    p.time = 0;
    ck_assert_int_eq(magdyn_island_may_sleep(&p, m + 1, 1, t), 0);
    ck_assert_int_eq(magdyn_island_may_sleep(&p, m, 1, t), 1);
}
END_TEST

START_TEST(bad_sleep_input_leaves_slow_time_untouched)
{
    magdyn_sleep_params p = magdyn_sleep_params_default(), bp;
    magdyn_body bs[2] = {box(0), box(0)}, bad_body;
    magdyn_body_load ls[2] = {resting(), resting()}, bl[2];
    double t[2];
    int i;
    struct { magdyn_status want; const magdyn_sleep_params *p; int n; const magdyn_body *b;
             const magdyn_body_load *l; double h; } c[14];
    int nc = 0;
    c[nc].want = MAGDYN_EINVAL; c[nc].p = NULL; c[nc].n = 2; c[nc].b = bs; c[nc].l = ls; c[nc++].h = H;
    c[nc].want = MAGDYN_EINVAL; c[nc].p = &p; c[nc].n = -1; c[nc].b = bs; c[nc].l = ls; c[nc++].h = H;
    c[nc].want = MAGDYN_EINVAL; c[nc].p = &p; c[nc].n = 2; c[nc].b = NULL; c[nc].l = ls; c[nc++].h = H;
    c[nc].want = MAGDYN_EINVAL; c[nc].p = &p; c[nc].n = 2; c[nc].b = bs; c[nc].l = NULL; c[nc++].h = H;
    c[nc].want = MAGDYN_EINVAL; c[nc].p = &p; c[nc].n = 2; c[nc].b = bs; c[nc].l = ls; c[nc++].h = -H;
    c[nc].want = MAGDYN_ENONFINITE; c[nc].p = &p; c[nc].n = 2; c[nc].b = bs; c[nc].l = ls;
    c[nc++].h = NAN;
    c[nc].want = MAGDYN_ENONFINITE; c[nc].p = &p; c[nc].n = 2; c[nc].b = bs; c[nc].l = ls;
    c[nc++].h = INFINITY;
    for (i = 0; i < nc; i++) {
        t[0] = t[1] = 0.125;
        ck_assert_msg(magdyn_sleep_update(c[i].p, c[i].n, c[i].b, c[i].l, c[i].h, t) == c[i].want,
                      "case %d", i);
        ck_assert(t[0] == 0.125 && t[1] == 0.125);
    }
    t[0] = t[1] = 0.125;
    ck_assert_int_eq(magdyn_sleep_update(&p, 2, bs, ls, H, NULL), MAGDYN_EINVAL);
    /* bad params */
    bp = p; bp.speed = -1;
    ck_assert_int_eq(magdyn_sleep_update(&bp, 2, bs, ls, H, t), MAGDYN_EINVAL);
    bp = p; bp.time = NAN;
    ck_assert_int_eq(magdyn_sleep_update(&bp, 2, bs, ls, H, t), MAGDYN_EINVAL);
    bp = p; bp.balance = INFINITY;
    ck_assert_int_eq(magdyn_sleep_update(&bp, 2, bs, ls, H, t), MAGDYN_EINVAL);
    /* a bad load in the second body: nothing written to the first either */
    bl[0] = ls[0]; bl[1] = ls[1];
    bl[1].net_torque.y = NAN;
    ck_assert_int_eq(magdyn_sleep_update(&p, 2, bs, bl, H, t), MAGDYN_ENONFINITE);
    bl[1] = ls[1];
    bl[1].torque_scale = -1;
    ck_assert_int_eq(magdyn_sleep_update(&p, 2, bs, bl, H, t), MAGDYN_EINVAL);
    /* a bad body: as magdyn_body_check says */
    bad_body = bs[1];
    bad_body.velocity.x = INFINITY;
    {
        magdyn_body b2[2] = {bs[0], bad_body};
        ck_assert_int_eq(magdyn_sleep_update(&p, 2, b2, ls, H, t), MAGDYN_ENONFINITE);
        b2[1] = bs[1];
        b2[1].orientation.w = 2;
        ck_assert_int_eq(magdyn_sleep_update(&p, 2, b2, ls, H, t), MAGDYN_ENORM);
    }
    ck_assert(t[0] == 0.125 && t[1] == 0.125);
    /* no bodies: nothing to do, the arrays unused */
    ck_assert_int_eq(magdyn_sleep_update(&p, 0, NULL, NULL, H, NULL), MAGDYN_OK);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("island");
    TCase *tc = tcase_create("islands"), *ts = tcase_create("sleep");
    tcase_add_test(tc, chain_pair_and_lone_body);
    tcase_add_test(tc, numbered_by_smallest_member);
    tcase_add_test(tc, fixed_plate_joins_nothing);
    tcase_add_test(tc, random_graphs_match_bfs);
    tcase_add_test(tc, long_chain_in_worst_order);
    tcase_add_test(tc, bad_island_input_leaves_outputs_untouched);
    suite_add_tcase(s, tc);
    tcase_add_test(ts, defaults);
    tcase_add_test(ts, slow_balanced_body_falls_asleep);
    tcase_add_test(ts, fast_body_resets);
    tcase_add_test(ts, speed_bound_covers_every_point);
    tcase_add_test(ts, unbalanced_body_never_sleeps);
    tcase_add_test(ts, fixed_bodies_never_block);
    tcase_add_test(ts, isolated_body_without_forces_is_balanced);
    tcase_add_test(ts, may_sleep_edge_cases);
    tcase_add_test(ts, island_balance_sees_through_internal_forces);
    tcase_add_test(ts, bad_sleep_input_leaves_slow_time_untouched);
    suite_add_tcase(s, ts);
    return test_run_suite(s, CK_FORK);
}
