/*
 * test_threads.c - worlds and gases advanced in parallel threads give the
 * same results, bit for bit, as the same runs one after the other (the
 * library keeps no global mutable state: DESIGN.md, Conventions), and one
 * world read by several threads at once (the const queries) reads the same
 * as from one.  pthreads are used here only; make check-tsan runs this
 * test under ThreadSanitizer, which reports any data race.
 */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <magdyn.h>
#include "testutil.h"

enum { NTHREADS = 4, NMAG = 4, NDISC = 30, NROT = 2 };

typedef struct {
    int seed;
    double world[2 + NMAG * 20];   /* time, energy, each magnet's doubles */
    double gas[2 + NDISC * 6 + NROT * 10];
    long long collisions;
    int ok;
} job;

/* A small pile: NMAG cubes dropped at random above a fixed one. */
static void run_world(job *j)
{
    test_rng r = {0x9e3779b97f4a7c15ull + (unsigned)j->seed};
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_magnet m = magdyn_magnet_default();
    int i, k = 0;
    p.gravity = magdyn_v3(0, 0, -9.81);
    w = magdyn_world_new(&p);
    if (!w) return;
    m.half = magdyn_v3(0.005, 0.005, 0.005);
    m.mass = 7.5e-3;
    m.fixed = 1;
    m.moment = magdyn_v3(0, 0, 0.5);
    if (magdyn_world_add(w, &m) != 0) goto out;
    m.fixed = 0;
    for (i = 1; i < NMAG; i++) {
        m.position = magdyn_v3(test_rng_range(&r, -0.004, 0.004), test_rng_range(&r, -0.004, 0.004),
                               0.03 * i);
        m.orientation = test_rng_quat(&r);
        m.moment = test_rng_vec3(&r, -0.5, 0.5);
        if (magdyn_world_add(w, &m) != i) goto out;
    }
    if (magdyn_world_advance(w, 0.05) != MAGDYN_OK) goto out;
    j->world[k++] = magdyn_world_time(w);
    j->world[k++] = magdyn_world_energy(w);
    for (i = 0; i < NMAG; i++) {
        magdyn_magnet g;
        if (magdyn_world_get(w, i, &g) != MAGDYN_OK) goto out;
        memcpy(j->world + k, &g, 20 * sizeof(double));   /* its doubles, in order */
        k += 20;
    }
    j->ok |= 1;
out:
    magdyn_world_free(w);
}

/* Discs and two rotors in a periodic box, partly inelastic. */
static void run_gas(job *j)
{
    test_rng r = {0x2545f4914f6cdd1dull + (unsigned)j->seed};
    magdyn_gas_params p = magdyn_gas_params_default();
    magdyn_gas *g = magdyn_gas_new(&p);
    int i, k = 0, placed = 0;
    if (!g) return;
    if (magdyn_gas_set_restitution(g, 0.9, 1.0) != MAGDYN_OK) goto out;
    for (i = 0; i < NROT; i++) {
        magdyn_rotor ro = {{0.25 + 0.5 * i, 0.5}, {test_rng_normal(&r), test_rng_normal(&r)},
                           0.0, test_rng_normal(&r), 1, 0, 0.05, 0.02};
        ro.inertia = magdyn_rotor_inertia(ro.mass, 0.0, ro.half_length, ro.end_radius);
        if (magdyn_gas_add_rotor(g, &ro) != i) goto out;
    }
    while (placed < NDISC) {
        magdyn_disc d = {{test_rng_uniform(&r), test_rng_uniform(&r)},
                         {test_rng_normal(&r), test_rng_normal(&r)}, 1, 0.02};
        if (magdyn_gas_add_disc(g, &d) == placed) placed++;
    }
    if (magdyn_gas_advance(g, 2.0) != MAGDYN_OK) goto out;
    j->gas[k++] = magdyn_gas_time(g);
    j->collisions = magdyn_gas_collisions(g);
    for (i = 0; i < NDISC; i++) {
        magdyn_disc d;
        if (magdyn_gas_get_disc(g, i, &d) != MAGDYN_OK) goto out;
        memcpy(j->gas + k, &d, sizeof d);
        k += 6;
    }
    for (i = 0; i < NROT; i++) {
        magdyn_rotor ro;
        if (magdyn_gas_get_rotor(g, i, &ro) != MAGDYN_OK) goto out;
        memcpy(j->gas + k, &ro, sizeof ro);
        k += 10;
    }
    j->ok |= 2;
out:
    magdyn_gas_free(g);
}

static void *worker(void *arg)
{
    job *j = arg;
    run_world(j);
    run_gas(j);
    return NULL;
}

START_TEST(parallel_equals_sequential)
{
    job seq[NTHREADS], par[NTHREADS];
    pthread_t th[NTHREADS];
    int i;
    memset(seq, 0, sizeof seq);
    memset(par, 0, sizeof par);
    for (i = 0; i < NTHREADS; i++) {
        seq[i].seed = par[i].seed = i + 1;
        worker(&seq[i]);
        ck_assert_int_eq(seq[i].ok, 3);
    }
    for (i = 0; i < NTHREADS; i++) ck_assert_int_eq(pthread_create(&th[i], NULL, worker, &par[i]), 0);
    for (i = 0; i < NTHREADS; i++) ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    for (i = 0; i < NTHREADS; i++) {
        ck_assert_int_eq(par[i].ok, 3);
        ck_assert_msg(memcmp(seq[i].world, par[i].world, sizeof seq[i].world) == 0,
                      "world %d differs between threads and sequence", i);
        ck_assert_msg(memcmp(seq[i].gas, par[i].gas, sizeof seq[i].gas) == 0,
                      "gas %d differs between threads and sequence", i);
        ck_assert(seq[i].collisions == par[i].collisions && seq[i].collisions > 0);
    }
    /* different seeds made different runs (the comparison means something) */
    ck_assert(memcmp(seq[0].world, seq[1].world, sizeof seq[0].world) != 0);
}
END_TEST

typedef struct {
    const magdyn_world *w;
    double energy, kinetic;
    magdyn_vec3 p, L;
    magdyn_magnet m;
} reader;

static void *read_world(void *arg)
{
    reader *r = arg;
    int k;
    for (k = 0; k < 50; k++) {
        r->energy = magdyn_world_energy(r->w);
        r->kinetic = magdyn_world_kinetic_energy(r->w);
        (void)magdyn_world_momentum(r->w, &r->p, &r->L);
        (void)magdyn_world_get(r->w, 1, &r->m);
    }
    return NULL;
}

/* Both models: the cuboid model's energy allocates its own scratch. */
START_TEST(concurrent_reads)
{
    int model;
    for (model = 0; model < 2; model++) {
        magdyn_world_params p = magdyn_world_params_default();
        magdyn_magnet a = magdyn_magnet_default(), b;
        magdyn_world *w;
        reader rd[NTHREADS], one;
        pthread_t th[NTHREADS];
        int i;
        p.model = (magdyn_magnet_model)model;
        w = magdyn_world_new(&p);
        ck_assert_ptr_nonnull(w);
        a.half = magdyn_v3(0.005, 0.005, 0.005);
        a.mass = 7.5e-3;
        a.moment = magdyn_v3(0, 0, 1.03);
        b = a;
        b.position = magdyn_v3(0.002, 0, 0.02);
        b.velocity = magdyn_v3(0, 0.1, 0);
        ck_assert_int_eq(magdyn_world_add(w, &a), 0);
        ck_assert_int_eq(magdyn_world_add(w, &b), 1);
        ck_assert_int_eq(magdyn_world_advance(w, 1e-3), MAGDYN_OK);
        memset(&one, 0, sizeof one);
        one.w = w;
        read_world(&one);
        for (i = 0; i < NTHREADS; i++) {
            memset(&rd[i], 0, sizeof rd[i]);
            rd[i].w = w;
            ck_assert_int_eq(pthread_create(&th[i], NULL, read_world, &rd[i]), 0);
        }
        for (i = 0; i < NTHREADS; i++) ck_assert_int_eq(pthread_join(th[i], NULL), 0);
        for (i = 0; i < NTHREADS; i++) {
            ck_assert(rd[i].energy == one.energy && rd[i].kinetic == one.kinetic);
            ck_assert(rd[i].p.z == one.p.z && rd[i].L.x == one.L.x);
            ck_assert(rd[i].m.position.z == one.m.position.z);
        }
        ck_assert(isfinite(one.energy));
        magdyn_world_free(w);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("threads");
    TCase *tc = tcase_create("parallel");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, parallel_equals_sequential);
    tcase_add_test(tc, concurrent_reads);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
