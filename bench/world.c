/*
 * world.c (bench) - wall time of the snap scenario, and time per integrator
 * step for N magnets with all pairs, with the shares spent in forces,
 * collision detection and impulses (from magdyn_world_get_stats).
 * Run: make bench && bench/world [snap|cuboid|lattice|cluster|all]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <magdyn.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* seed 000's snap, as examples/snap.c: returns the wall time [s] */
static double snap(magdyn_magnet_model model, magdyn_world_stats *st, double *t_hit)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_magnet a, b;
    double vol = 0.02 * 0.01 * 0.005, t0, t1;
    p.model = model;
    if (model == MAGDYN_MODEL_CUBOID) {
        p.model_tol = 1e-5;
        p.rtol = 1e-6;
        p.atol = 1e-9;
    }
    w = magdyn_world_new(&p);
    memset(&a, 0, sizeof a);
    a.half = magdyn_v3(0.01, 0.005, 0.0025);
    a.mass = 7500.0 * vol;
    a.moment = magdyn_v3(0, 0, 1.3 * vol / MAGDYN_MU0);
    a.orientation = magdyn_quat_identity();
    a.fixed = 1;
    b = a;
    b.fixed = 0;
    b.position = magdyn_v3(0.010, 0, 0.050);
    b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 60.0 * MAGDYN_PI / 180);
    magdyn_world_add(w, &a);
    magdyn_world_add(w, &b);
    t0 = now();
    magdyn_world_advance(w, 0.3);
    t1 = now();
    magdyn_world_get_stats(w, st);
    (void)t_hit;
    magdyn_world_free(w);
    return t1 - t0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Microseconds per Runge-Kutta step (accepted or rejected) for n magnets on
 * a lattice 25 mm apart, free flight; shares of the stats' timers into fr[3]. */
static double per_step(int n, double fr[3])
{
    int side = (int)ceil(cbrt((double)n)), steps, i;
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w = magdyn_world_new(&p);
    magdyn_world_stats st;
    unsigned long long r = 88172645463325252ULL;
    double t0, t1, tot, vol = 0.01 * 0.005 * 0.0025;
    for (i = 0; i < n; i++) {
        magdyn_magnet m;
        double u[4];
        int j;
        for (j = 0; j < 4; j++) {
            r ^= r << 13; r ^= r >> 7; r ^= r << 17;
            u[j] = (double)(r >> 11) / 9007199254740992.0 - 0.5;
        }
        memset(&m, 0, sizeof m);
        m.half = magdyn_v3(0.005, 0.0025, 0.00125);
        m.mass = 7500.0 * vol;
        m.moment = magdyn_v3(0, 0, 1.3 * vol / MAGDYN_MU0);
        m.orientation = magdyn_quat_from_axis_angle(magdyn_v3(u[0], u[1], u[2]), 6.0 * u[3]);
        m.position = magdyn_v3(0.025 * (i % side), 0.025 * ((i / side) % side), 0.025 * (i / (side * side)));
        magdyn_world_add(w, &m);
    }
    /* a few steps: enough to time, short enough for N = 1000 */
    steps = n >= 300 ? 3 : n >= 100 ? 10 : 200;
    t0 = now();
    while (magdyn_world_get_stats(w, &st), st.steps + st.rejected < steps)
        if (magdyn_world_advance(w, magdyn_world_time(w) + 1e-4) != MAGDYN_OK) break;
    t1 = now();
    magdyn_world_get_stats(w, &st);
    tot = st.time_forces + st.time_collide + st.time_impulse;
    fr[0] = st.time_forces / tot;
    fr[1] = st.time_collide / tot;
    fr[2] = st.time_impulse / tot;
    magdyn_world_free(w);
    return 1e6 * (t1 - t0) / (double)(st.steps + st.rejected);
}

static void snaps(void)
{
    double times[21];
    magdyn_world_stats st;
    double tf = 0, tc = 0, ti = 0;
    int i;
    for (i = 0; i < 21; i++) {
        times[i] = snap(MAGDYN_MODEL_DIPOLE, &st, NULL);
        tf += st.time_forces;
        tc += st.time_collide;
        ti += st.time_impulse;
    }
    qsort(times, 21, sizeof *times, cmp);
    printf("snap scenario (point dipoles, 0.3 s simulated, ends at rest):\n");
    printf("  wall time median %.3f ms (min %.3f ms) over 21 runs\n", times[10] * 1e3, times[0] * 1e3);
    printf("  %lld RK steps, %lld contact steps, %lld force evaluations, %lld collisions\n",
           st.steps, st.contact_steps, st.force_evals, st.collisions);
    printf("  shares over the 21 runs: forces %.0f%%, collision detection %.0f%%, impulses %.0f%%\n\n",
           100 * tf / (tf + tc + ti), 100 * tc / (tf + tc + ti), 100 * ti / (tf + tc + ti));
}

static void snap_cuboid(void)
{
    magdyn_world_stats st;
    double t = snap(MAGDYN_MODEL_CUBOID, &st, NULL);
    printf("snap scenario (extended cuboids, rtol 1e-6, model_tol 1e-5): wall %.1f ms, %lld steps, "
           "%lld force evaluations (%.1f us each); pair forces %lld computed, %lld reused\n\n",
           t * 1e3, st.steps + st.contact_steps, st.force_evals,
           1e6 * st.time_forces / (double)st.force_evals, st.pairs_exact, st.pairs_reused);
}

static void lattice(void)
{
    static const int sizes[] = {2, 10, 30, 100, 300, 1000};
    int k, rep;
    printf("N magnets (10 x 5 x 2.5 mm N42, random orientations, 3D lattice 25 mm apart,\n"
           "point dipoles, all pairs), free flight, median and least of 5 runs:\n");
    printf("%6s %12s %12s %10s %10s %10s\n", "N", "us/step med", "min", "forces", "collide", "impulse");
    for (k = 0; k < (int)(sizeof sizes / sizeof *sizes); k++) {
        double t[5], fr[3];
        for (rep = 0; rep < 5; rep++) t[rep] = per_step(sizes[k], fr);
        qsort(t, 5, sizeof *t, cmp);
        printf("%6d %12.1f %12.1f %9.1f%% %9.1f%% %9.1f%%\n", sizes[k], t[2], t[0], 100 * fr[0],
               100 * fr[1], 100 * fr[2]);
    }
    printf("\n");
}

/*
 * n free N42 magnets 10 x 5 x 2.5 mm at random in a cube of 12 mm cbrt(n),
 * at rest (as test_world_contact's cluster tests): wall time until the
 * world sleeps (or 0.1 s simulated), with the steps taken.
 */
static void cluster(void)
{
    static const int sizes[] = {4, 5, 6, 8};
    int k;
    printf("clusters (n free 10 x 5 x 2.5 mm N42 at random, point dipoles): wall time per 0.1 s\n"
           "simulated, median of 3 runs (n <= 5; for larger n one run of 10 ms, times 10;\n"
           "steps as counted in that run):\n");
    printf("%3s %10s %10s %10s %12s %8s %s\n", "n", "ms/0.1 s", "RK steps", "contact", "us/c.step", "asleep",
           "at t [s]");
    for (k = 0; k < (int)(sizeof sizes / sizeof *sizes); k++) {
        double wall[3], t_sleep = NAN;
        magdyn_world_stats st;
        /* the unsettled ones take minutes per 0.1 s: 10 ms of them, scaled */
        int rep, reps = sizes[k] <= 5 ? 3 : 1, ms = sizes[k] <= 5 ? 100 : 10;
        memset(&st, 0, sizeof st);
        for (rep = 0; rep < reps; rep++) {
            magdyn_world *w = magdyn_world_new(NULL);
            unsigned long long r = 88172645463325252ULL;
            double vol = 0.01 * 0.005 * 0.0025, side = 0.012 * cbrt((double)sizes[k]), t0;
            int added = 0, j;
            while (added < sizes[k]) {
                magdyn_magnet m;
                double u[7];
                for (j = 0; j < 7; j++) {
                    r ^= r << 13; r ^= r >> 7; r ^= r << 17;
                    u[j] = (double)(r >> 11) / 9007199254740992.0;
                }
                memset(&m, 0, sizeof m);
                m.half = magdyn_v3(0.005, 0.0025, 0.00125);
                m.mass = 7500 * vol;
                m.moment = magdyn_v3(0, 0, 1.3 * vol / MAGDYN_MU0);
                m.orientation = magdyn_quat_from_axis_angle(magdyn_v3(u[0] - .5, u[1] - .5, u[2] - .5),
                                                            6 * (u[3] - .5));
                m.position = magdyn_v3(side * (u[4] - .5), side * (u[5] - .5), side * (u[6] - .5));
                if (magdyn_world_add(w, &m) >= 0) added++;
            }
            t0 = now();
            for (j = 1; j <= ms; j++) {
                if (magdyn_world_advance(w, 1e-3 * j) != MAGDYN_OK) break;
                magdyn_world_get_stats(w, &st);
                if (st.asleep && isnan(t_sleep)) t_sleep = 1e-3 * j;
            }
            wall[rep] = now() - t0;
            magdyn_world_get_stats(w, &st);
            magdyn_world_free(w);
        }
        qsort(wall, (size_t)reps, sizeof *wall, cmp);
        printf("%3d %10.1f %10lld %10lld %12.1f %8s %g\n", sizes[k], 1e3 * wall[reps / 2] * 100 / ms,
               st.steps, st.contact_steps,
               st.contact_steps ? 1e6 * wall[reps / 2] / (double)st.contact_steps : 0.0, st.asleep ? "yes" : "no",
               t_sleep);
    }
    printf("\n");
}

/* bench/world [snap|cuboid|lattice|cluster|all]; all (the default) runs each */
int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    int all = !strcmp(what, "all");
    if (all || !strcmp(what, "snap")) snaps();
    if (all || !strcmp(what, "cuboid")) snap_cuboid();
    if (all || !strcmp(what, "lattice")) lattice();
    if (all || !strcmp(what, "cluster")) cluster();
    return 0;
}
