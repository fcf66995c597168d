/*
 * bench/dipole_cuboid.c - cost of the cuboid field and of the force and
 * torque between two magnets: point dipoles, the Akoun-Yonnet closed form
 * (with its torque extension, the path of aligned magnets), and the general
 * extended-body path (exact face-on-face pair plus adaptive cubature) at
 * 1e-4 (and 1e-6), touching and 5 mm apart; and the interaction energy
 * (magdyn_magnets_energy, adaptive cubature) in the same poses.
 * Magnets: 10 mm NdFeB cubes, J = 1.2 T (issue 3's example).
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
 * 1 mm apart and 4 cm apart, twisted 0.5 rad about their common axis; a
 * turned (0.3 rad about x, 0.7 about z) and offset (2, -1 mm) smaller box
 * with oblique J, touching and 1 mm apart; and a cube resting on an edge. */
static void tolerance_table(void)
{
    static const double tol[4] = {1e-3, 1e-4, 1e-5, 1e-6};
    magdyn_cuboid a = {{0.005, 0.005, 0.005}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_cuboid rows[7];
    static const char *names[7] = {"touching, twisted 0.5", "1 mm gap, twisted 0.5", "4 cm apart, twisted 0.5",
                                   "turned+offset, touching", "turned+offset, 1 mm gap",
                                   "on an edge (tilted 0.3)", "T-shape touching (J_d x)"};
    int r, k, st, worst = 0;
    for (r = 0; r < 3; r++) {
        static const double z[3] = {0.01, 0.011, 0.05};
        rows[r] = a;
        rows[r].center = magdyn_v3(0, 0, z[r]);
        rows[r].orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.5);
    }
    for (r = 3; r < 5; r++) {
        magdyn_cuboid c = {{0.004, 0.003, 0.002}, {0.2, -0.3, 1.0}, {0.002, -0.001, 0}, {1, 0, 0, 0}};
        magdyn_quat q = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.7),
                                        magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.3));
        magdyn_vec3 up = magdyn_quat_rotate_inv(q, magdyn_v3(0, 0, 1));
        c.orientation = q;
        /* lowest point of the turned box on a's top face (+ the gap) */
        c.center.z = 0.005 + c.half.x * fabs(up.x) + c.half.y * fabs(up.y) + c.half.z * fabs(up.z)
                     + (r == 4 ? 0.001 : 0.0);
        rows[r] = c;
    }
    rows[5] = a;
    rows[5].orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.3);
    rows[5].center = magdyn_v3(0, 0, 0.005 + 0.005 * (cos(0.3) + sin(0.3)));
    rows[6] = a;
    rows[6].center = magdyn_v3(0, 0, 0.01);
    rows[6].polarization = magdyn_v3(1.2, 0, 0);
    printf("extended pair (magdyn_cuboid_force_torque), median us per call, by rel_tol:\n");
    printf("  %-28s %9s %9s %9s %9s\n", "pose", "1e-3", "1e-4", "1e-5", "1e-6");
    for (r = 0; r < 7; r++) {
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

int main(void)
{
    magdyn_cuboid a = {{0.005, 0.005, 0.005}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}}, b = a;
    const double gaps[2] = {0.0, 0.005};
    int g, st;
    magdyn_vec3 f;
    double t;

    printf("bench/dipole_cuboid: 10 mm cubes, J = 1.2 T\n\n");
    tolerance_table();
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
