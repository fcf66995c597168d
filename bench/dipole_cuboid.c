/*
 * bench/dipole_cuboid.c - cost of the cuboid field and of the force and
 * torque between two magnets: point dipoles, the Akoun-Yonnet closed form
 * (with its torque extension, the path of aligned magnets), and the general
 * extended-body path (line integrals near contact, exact face-on-face pair
 * plus adaptive cubature for stacks and apart) at
 * 1e-4 (and 1e-6), touching and 5 mm apart; and the interaction energy
 * (magdyn_magnets_energy, adaptive cubature) in the same poses.
 * Magnets: 10 mm NdFeB cubes, J = 1.2 T (issue 3's example).
 * First a table of the extended-pair time against rel_tol, and the mean
 * time and worst error over random turned pairs touching (0-10 um apart)
 * and 0-5 mm apart; with
 * BENCH_SNAP set, the snap of examples/snap by model (seconds of CPU);
 * with BENCH_TABLE_ONLY set, nothing more.
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <math.h>
#include <magdyn.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static volatile double sink;

static double per_call_field(magdyn_vec3 j, double dist)
{
    magdyn_vec3 h = {0.005, 0.005, 0.005}, acc = {0, 0, 0};
    double t0 = now(), dt;
    long n = 0;
    do {
        int k;
        for (k = 0; k < 1000; k++, n++) {
            magdyn_vec3 r = {0.001 * (k % 13) - 0.006, 0.0007 * (k % 17) - 0.005, dist + 1e-4 * (k % 7)};
            acc = magdyn_vec3_add(acc, magdyn_cuboid_field(h, j, r));
        }
    } while ((dt = now() - t0) < 0.3);
    sink = acc.x + acc.z;
    return dt / (double)n;
}

typedef enum { DIPOLE, PARALLEL, FT_FULL } method;

static double per_call_force(method m, const magdyn_cuboid *a, const magdyn_cuboid *b, double tol,
                             magdyn_vec3 *f, int *status)
{
    double t0 = now(), dt;
    long n = 0;
    magdyn_vec3 ma = magdyn_cuboid_moment(a), mb = magdyn_cuboid_moment(b), t;
    do {
        switch (m) {
        case DIPOLE: magdyn_dipole_force_torque(ma, a->center, mb, b->center, f, &t); *status = 0; break;
        case PARALLEL: *status = magdyn_cuboid_force_parallel(a, b, f, NULL); break;
        case FT_FULL: *status = magdyn_cuboid_force_torque(a, b, tol, f, &t); break;
        }
        n++;
    } while ((dt = now() - t0) < 0.3);
    return dt / (double)n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* median over 5 batches of at least 20 ms each: the machine is shared */
static double median_force(const magdyn_cuboid *a, const magdyn_cuboid *b, double tol, int *status)
{
    double t[5];
    int k;
    for (k = 0; k < 5; k++) {
        double t0 = now(), dt;
        long n = 0;
        magdyn_vec3 f, tq;
        do {
            *status = magdyn_cuboid_force_torque(a, b, tol, &f, &tq);
            n++;
        } while ((dt = now() - t0) < 0.02);
        t[k] = dt / (double)n;
    }
    qsort(t, 5, sizeof t[0], cmp_double);
    return t[2];
}

/* Extended-pair time against tolerance (issue 16): 10 mm cubes touching,
 * 1 mm apart, 4 cm and 10 cm apart, twisted 0.5 rad about their common axis; a
 * turned (0.3 rad about x, 0.7 about z) and offset (2, -1 mm) smaller box
 * with oblique J, touching and 1 mm apart; a cube resting on an edge; a
 * cube turned to J across the stacking axis (T-shape); 10 cm apart (the
 * multipole expansion's range); a plate 0.4 mm thick polarised across it
 * (10 x 8 mm), turned and offset 1 mm above, and turned 0.4 rad 5 mm
 * beside (its surface currents are integrated). */
static void tolerance_table(void)
{
    static const double tol[4] = {1e-3, 1e-4, 1e-5, 1e-6};
    magdyn_cuboid a = {{0.005, 0.005, 0.005}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_cuboid rows[10];
    static const char *names[10] = {"touching, twisted 0.5", "1 mm gap, twisted 0.5", "4 cm apart, twisted 0.5",
                                    "turned+offset, touching", "turned+offset, 1 mm gap",
                                    "on an edge (tilted 0.3)", "T-shape touching (J_d x)",
                                    "10 cm apart, twisted 0.5", "plate, turned, 1 mm above",
                                    "plate, turned, 5 mm beside"};
    int r, k, st, worst = 0;
    for (r = 0; r < 3; r++) {
        static const double z[3] = {0.01, 0.011, 0.05};
        rows[r] = a;
        rows[r].center = magdyn_v3(0, 0, z[r]);
        rows[r].orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.5);
    }
    for (r = 3; r < 5; r++) {
        magdyn_cuboid c = {{0.004, 0.003, 0.002}, {0.2, -0.3, 1.0}, {0.002, -0.001, 0}, {1, 0, 0, 0}};
        if (r == 4) {
            /* (the plate of row 8, turned the same way) */
            rows[8] = c;
            rows[8].half = magdyn_v3(0.005, 0.004, 0.0002);
            rows[8].polarization = magdyn_v3(0, 0, 1.2);
        }
        magdyn_quat q = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.7),
                                        magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.3));
        magdyn_vec3 up = magdyn_quat_rotate_inv(q, magdyn_v3(0, 0, 1));
        c.orientation = q;
        /* lowest point of the turned box on a's top face (+ the gap) */
        c.center.z = 0.005 + c.half.x * fabs(up.x) + c.half.y * fabs(up.y) + c.half.z * fabs(up.z)
                     + (r == 4 ? 0.001 : 0.0);
        rows[r] = c;
        if (r == 4) {
            rows[8].orientation = q;
            rows[8].center.z = 0.006 + 0.005 * fabs(up.x) + 0.004 * fabs(up.y) + 0.0002 * fabs(up.z);
        }
    }
    rows[5] = a;
    rows[5].orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.3);
    rows[5].center = magdyn_v3(0, 0, 0.005 + 0.005 * (cos(0.3) + sin(0.3)));
    rows[6] = a;
    rows[6].center = magdyn_v3(0, 0, 0.01);
    rows[6].polarization = magdyn_v3(1.2, 0, 0);
    rows[7] = rows[2];
    rows[7].center = magdyn_v3(0, 0, 0.1);
    rows[9] = rows[8];
    rows[9].orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 0.4);
    rows[9].center = magdyn_v3(0.010 + 0.005 * cos(0.4) + 0.0002 * sin(0.4), 0.001, 0.002);
    printf("extended pair (magdyn_cuboid_force_torque), median us per call, by rel_tol:\n");
    printf("  %-28s %9s %9s %9s %9s\n", "pose", "1e-3", "1e-4", "1e-5", "1e-6");
    for (r = 0; r < 10; r++) {
        printf("  %-28s", names[r]);
        for (k = 0; k < 4; k++) {
            double t = median_force(&a, &rows[r], tol[k], &st);
            printf(" %9.1f", t * 1e6);
            if (st != MAGDYN_OK) worst = st;
        }
        printf("\n");
    }
    if (worst) printf("  (a call failed: status %d)\n", worst);
    printf("\n");
}

/* The snap of examples/snap (two N42 blocks 20 x 10 x 5 mm, one held, the
 * other released 50 mm above, turned 60 degrees) through the public world
 * API: CPU time to 0.3 s by model, and how it ends. */
static void snap_run(int model, double model_tol, double rtol, double atol)
{
    double size[3] = {0.020, 0.010, 0.005}, vol = size[0] * size[1] * size[2], c0, cpu, tilt, gap;
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_magnet a, b, oa, ob;
    magdyn_world_stats st;
    magdyn_status s;
    magdyn_obb xa, xb;
    magdyn_sat_result r;
    magdyn_vec3 za, zb;
    p.restitution = 0.5;
    p.friction = 0.3;
    p.model = model;
    p.model_tol = model_tol;
    if (rtol > 0) { p.rtol = rtol; p.atol = atol; }
    if (!(w = magdyn_world_new(&p))) return;
    a = magdyn_magnet_default();
    a.half = magdyn_v3(size[0] / 2, size[1] / 2, size[2] / 2);
    a.mass = 7500.0 * vol;
    a.moment = magdyn_v3(0, 0, 1.3 * vol / MAGDYN_MU0);
    a.fixed = 1;
    b = a;
    b.fixed = 0;
    b.position = magdyn_v3(0.010, 0, 0.050);
    b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 60.0 * MAGDYN_PI / 180);
    if (magdyn_world_add(w, &a) < 0 || magdyn_world_add(w, &b) < 0) { magdyn_world_free(w); return; }
    c0 = (double)clock();
    s = magdyn_world_advance(w, 0.3);
    cpu = ((double)clock() - c0) / CLOCKS_PER_SEC;
    magdyn_world_get(w, 0, &oa);
    magdyn_world_get(w, 1, &ob);
    magdyn_world_get_stats(w, &st);
    za = magdyn_quat_rotate(oa.orientation, magdyn_v3(0, 0, 1));
    zb = magdyn_quat_rotate(ob.orientation, magdyn_v3(0, 0, 1));
    xa.center = oa.position; xa.orientation = oa.orientation; xa.half = oa.half;
    xb.center = ob.position; xb.orientation = ob.orientation; xb.half = ob.half;
    magdyn_obb_sat(&xb, &xa, &r);
    tilt = atan2(magdyn_vec3_norm(magdyn_vec3_cross(za, zb)), fabs(magdyn_vec3_dot(za, zb))) * 180 / MAGDYN_PI;
    gap = r.separation;
    printf("  %-8s tol %-6.0e rtol %-6.0e %9.3f s CPU  t = %3.0f ms  tilt %.4f deg  gap %9.2e m  %s  "
           "(%lld force evaluations, status %d)\n",
           model == MAGDYN_MODEL_CUBOID ? "cuboid" : "dipole", model_tol, p.rtol, cpu,
           magdyn_world_time(w) * 1e3, tilt, gap, st.asleep ? "at rest" : "moving", st.force_evals, (int)s);
    magdyn_world_free(w);
}

static void snap_by_model(void)
{
    printf("snap (examples/snap) to 0.3 s, CPU time by model:\n");
    snap_run(MAGDYN_MODEL_DIPOLE, 1e-5, 0, 0);
    snap_run(MAGDYN_MODEL_DIPOLE, 1e-5, 1e-6, 1e-9);
    snap_run(MAGDYN_MODEL_CUBOID, 1e-4, 1e-6, 1e-9);
    snap_run(MAGDYN_MODEL_CUBOID, 1e-5, 1e-6, 1e-9);
    printf("\n");
}

static double per_call_energy(const magdyn_cuboid *a, const magdyn_cuboid *b, double tol, double *e,
                              int *status)
{
    magdyn_cuboid c[2];
    double t0 = now(), dt;
    long n = 0;
    c[0] = *a;
    c[1] = *b;
    do {
        *status = magdyn_magnets_energy(2, c, MAGDYN_MODEL_CUBOID, tol, NULL, e);
        n++;
    } while ((dt = now() - t0) < 0.3);
    return dt / (double)n;
}

static void energies(const magdyn_cuboid *a, const magdyn_cuboid *b, const char *pose)
{
    static const double tol[3] = {1e-4, 1e-5, 1e-6};
    int k, st;
    double e, t;
    for (k = 0; k < 3; k++) {
        t = per_call_energy(a, b, tol[k], &e, &st);
        printf("  energy %.0e, %-29s %10.1f us  E = %.9g J (status %d)\n", tol[k], pose, t * 1e6, e, st);
    }
}

static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;
static double uniform(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* A rotation uniform over SO(3) (Shoemake's three uniforms). */
static magdyn_quat random_turn(void)
{
    double u1 = uniform(), u2 = 2.0 * MAGDYN_PI * uniform(), u3 = 2.0 * MAGDYN_PI * uniform();
    return magdyn_q(sqrt(1 - u1) * sin(u2), sqrt(1 - u1) * cos(u2), sqrt(u1) * sin(u3), sqrt(u1) * cos(u3));
}

/* Two 10 mm cubes, J = 1.2 T along each one's own z, both turned at random,
 * the second along a random direction at a separation [m] (by bisection on
 * the separating-axis gap). */
static void random_pair(double sep, magdyn_cuboid *a, magdyn_cuboid *b)
{
    double lo = 0.0, hi = 0.05, z = 2.0 * uniform() - 1.0, ph = 2.0 * MAGDYN_PI * uniform();
    magdyn_vec3 dir = magdyn_v3(sqrt(1 - z * z) * cos(ph), sqrt(1 - z * z) * sin(ph), z);
    magdyn_obb oa, ob;
    int k;
    a->center = magdyn_v3(0, 0, 0);
    a->half = magdyn_v3(0.005, 0.005, 0.005);
    a->orientation = random_turn();
    a->polarization = magdyn_v3(0, 0, 1.2);   /* body frame */
    *b = *a;
    b->orientation = random_turn();

    oa.center = a->center;
    oa.half = a->half;
    oa.orientation = a->orientation;
    ob = oa;
    ob.orientation = b->orientation;
    for (k = 0; k < 200; k++) {
        magdyn_sat_result r;
        ob.center = magdyn_vec3_scale(dir, 0.5 * (lo + hi));
        magdyn_obb_sat(&oa, &ob, &r);
        if (r.separation < sep) lo = 0.5 * (lo + hi);
        else hi = 0.5 * (lo + hi);
    }
    b->center = magdyn_vec3_scale(dir, hi);
}

/* Mean and largest time per pair and worst error (of force and torque,
 * in units of the tolerance, against rel_tol 1e-9) over n random turned
 * pairs whose separations are uniform in [0, sep_max] [m]. */
static void random_pairs(int n, double sep_max)
{
    static const double tol[4] = {1e-3, 1e-4, 1e-5, 1e-6};
    double mean[4] = {0, 0, 0, 0}, worst[4] = {0, 0, 0, 0}, slowest[4] = {0, 0, 0, 0};
    int i, k, done = 0;
    for (i = 0; i < n; i++) {
        magdyn_cuboid a, b;
        magdyn_vec3 fr, tr, f, t;
        random_pair(sep_max * uniform(), &a, &b);
        if (magdyn_cuboid_force_torque(&a, &b, 1e-9, &fr, &tr) != MAGDYN_OK) continue;
        done++;
        for (k = 0; k < 4; k++) {
            double t0 = now(), ef, et;
            int reps = 0;
            do {
                magdyn_cuboid_force_torque(&a, &b, tol[k], &f, &t);
                reps++;
            } while (now() - t0 < 2e-3);
            mean[k] += (now() - t0) / reps;
            slowest[k] = fmax(slowest[k], (now() - t0) / reps);
            ef = magdyn_vec3_dist(f, fr) / magdyn_vec3_norm(fr);
            et = magdyn_vec3_dist(t, tr) / fmax(magdyn_vec3_norm(tr), magdyn_vec3_norm(fr) * 0.00866);
            worst[k] = fmax(worst[k], fmax(ef, et) / tol[k]);
        }
    }
    printf("  %d random turned pairs 0-%g mm apart: mean us", done, 1e3 * sep_max);
    for (k = 0; k < 4; k++) printf(" %.1f", done ? 1e6 * mean[k] / done : 0.0);
    printf("; slowest");
    for (k = 0; k < 4; k++) printf(" %.1f", 1e6 * slowest[k]);
    printf("; worst error / tol");
    for (k = 0; k < 4; k++) printf(" %.3f", worst[k]);
    printf("\n");
}

int main(void)
{
    magdyn_cuboid a = {{0.005, 0.005, 0.005}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}}, b = a;
    const double gaps[2] = {0.0, 0.005};
    int g, st;
    magdyn_vec3 f;
    double t;

    printf("bench/dipole_cuboid: 10 mm cubes, J = 1.2 T\n\n");
    tolerance_table();
    printf("extended pair, random poses (J = 1.2 T along each cube's z), at rel_tol 1e-3 .. 1e-6:\n");
    random_pairs(100, 1e-5);
    random_pairs(100, 5e-3);
    printf("\n");
    if (getenv("BENCH_SNAP")) snap_by_model();
    if (getenv("BENCH_TABLE_ONLY")) return 0;
    t = per_call_field(magdyn_v3(0, 0, 1.2), 0.008);
    printf("magdyn_cuboid_field, J along an axis, near:   %7.1f ns/call  (%.3g calls/s)\n", t * 1e9, 1 / t);
    t = per_call_field(magdyn_v3(0.3, 0.5, 1.1), 0.008);
    printf("magdyn_cuboid_field, J oblique, near:         %7.1f ns/call  (%.3g calls/s)\n", t * 1e9, 1 / t);
    t = per_call_field(magdyn_v3(0.3, 0.5, 1.1), 2.0);
    printf("magdyn_cuboid_field, far (expansion):         %7.1f ns/call  (%.3g calls/s)\n\n", t * 1e9, 1 / t);

    for (g = 0; g < 2; g++) {
        b = a;
        b.center = magdyn_v3(0, 0, 0.01 + gaps[g]);
        printf("coaxial, gap %g mm:\n", gaps[g] * 1e3);
        t = per_call_force(DIPOLE, &a, &b, 0, &f, &st);
        printf("  point dipoles                            %10.3f us  F = %.5g N\n", t * 1e6, -f.z);
        t = per_call_force(PARALLEL, &a, &b, 0, &f, &st);
        printf("  closed form, force only                  %10.3f us  F = %.5g N\n", t * 1e6, -f.z);
        t = per_call_force(FT_FULL, &a, &b, 1e-4, &f, &st);
        printf("  force_torque 1e-4, aligned (closed form) %10.3f us  F = %.5g N (status %d)\n",
               t * 1e6, -f.z, st);
        /* twisted by 1e-5 rad (above the snapping angle): all by cubature */
        b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 1e-5);
        t = per_call_force(FT_FULL, &a, &b, 1e-4, &f, &st);
        printf("  force_torque 1e-4, twisted 1e-5             %8.1f us  F = %.5g N (status %d)\n",
               t * 1e6, -f.z, st);
        b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.5);
        t = per_call_force(FT_FULL, &a, &b, 1e-4, &f, &st);
        printf("  force_torque 1e-4, twisted 0.5              %8.1f us  F = %.5g N (status %d)\n",
               t * 1e6, -f.z, st);
        t = per_call_force(FT_FULL, &a, &b, 1e-2, &f, &st);
        printf("  force_torque 1e-2, twisted 0.5              %8.1f us  F = %.5g N (status %d)\n",
               t * 1e6, -f.z, st);
        b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.3);
        b.center.z += 0.005 * (cos(0.3) + sin(0.3) - 1.0);   /* resting on an edge */
        t = per_call_force(FT_FULL, &a, &b, 1e-4, &f, &st);
        printf("  force_torque 1e-4, tilted 0.3 about x    %10.1f us  F = %.5g N (status %d)\n",
               t * 1e6, -f.z, st);
        /* T-shape: aligned, dst magnetised across the stacking axis (no
         * closed form: perpendicular charged faces) */
        b = a;
        b.center = magdyn_v3(0, 0, 0.01 + gaps[g]);
        b.polarization = magdyn_v3(1.2, 0, 0);
        t = per_call_force(FT_FULL, &a, &b, 1e-4, &f, &st);
        printf("  force_torque 1e-4, T-shape (J_dst along x) %8.1f us  F_x = %.5g N (status %d)\n",
               t * 1e6, f.x, st);
        /* a smaller box, J oblique, twisted 0.7 rad and offset on top */
        {
            magdyn_cuboid c = {{0.004, 0.003, 0.002}, {0.2, -0.3, 1.0}, {0.002, -0.001, 0.007}, {1, 0, 0, 0}};
            c.center.z += gaps[g];
            c.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.7);
            t = per_call_force(FT_FULL, &a, &c, 1e-4, &f, &st);
            printf("  force_torque 1e-4, oblique J, twisted 0.7  %8.1f us  F = %.5g N (status %d)\n",
                   t * 1e6, -f.z, st);
            t = per_call_force(FT_FULL, &a, &c, 1e-6, &f, &st);
            printf("  force_torque 1e-6, oblique J, twisted 0.7  %8.1f us  F = %.5g N (status %d)\n",
                   t * 1e6, -f.z, st);
        }
        b = a;
        b.center = magdyn_v3(0, 0, 0.01 + gaps[g]);
        b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.5);
        t = per_call_force(FT_FULL, &a, &b, 1e-6, &f, &st);
        printf("  force_torque 1e-6, twisted 0.5             %8.1f us  F = %.5g N (status %d)\n",
               t * 1e6, -f.z, st);
        energies(&a, &b, "twisted 0.5");
        b.orientation = magdyn_quat_identity();
        energies(&a, &b, "aligned");
        b.center.x = 0.003;
        energies(&a, &b, "aligned, offset 3 mm");
        printf("\n");
    }
    return 0;
}
