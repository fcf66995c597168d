/*
 * sweep.c - a parameter sweep of seed 000's snap scenario: the released
 * magnet's tilt (0..90 degrees about y) against its sideways offset
 * (0..20 mm), each case run to 0.3 s with point dipoles.  For every case it
 * records the time of first contact, the number of collisions, and where
 * the magnet ends: flush on top (tilt < 0.1 deg), on its side, or still
 * moving.  The cases are independent, so with Open MPI (when configure
 * found it) each rank takes every size-th case and rank 0 gathers the table;
 * without it the same loop runs serially.
 *
 *   examples/sweep [out.csv]            (default sweep.csv)
 *   mpirun -n 2 examples/sweep [out.csv]
 *
 * Magnets as in examples/snap: N42 NdFeB 20 x 10 x 5 mm, Br 1.3 T, 7.5 g,
 * restitution 0.5, friction 0.3; magnet 0 held at the origin, north up;
 * magnet 1 released at rest with its centre 50 mm up.
 */
#include "config.h"
#include <stdio.h>
#include <math.h>
#include <magdyn.h>
#ifdef HAVE_MPI
#include <mpi.h>
#endif

#define N_TILT 10        /* 0, 10, ... 90 degrees */
#define N_OFFSET 5       /* 0, 5, ... 20 mm */
#define N_CASES (N_TILT * N_OFFSET)
#define T_END 0.3

/* One case's result, sent between ranks as 5 doubles. */
typedef struct { double tilt_deg, offset, t_hit, collisions, end_tilt_deg; } outcome;

static void first_hit(const magdyn_collision *c, void *user)
{
    double *t = user;
    if (*t < 0) *t = c->time;
}

/* Angle [deg] between the two magnets' moment axes at the end. */
static double end_tilt(const magdyn_world *w)
{
    magdyn_magnet a, b;
    magdyn_world_get(w, 0, &a);
    magdyn_world_get(w, 1, &b);
    magdyn_vec3 za = magdyn_quat_rotate(a.orientation, magdyn_v3(0, 0, 1));
    magdyn_vec3 zb = magdyn_quat_rotate(b.orientation, magdyn_v3(0, 0, 1));
    return atan2(magdyn_vec3_norm(magdyn_vec3_cross(za, zb)), magdyn_vec3_dot(za, zb)) * 180 / MAGDYN_PI;
}

/* Run case k; returns 0, or -1 when the world could not be set up or advanced. */
static int run_case(int k, outcome *out)
{
    double vol = 0.020 * 0.010 * 0.005, t_hit = -1.0;
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_magnet a = {.half = {0.010, 0.005, 0.0025}, .mass = 7500.0 * vol,
                       .moment = {0, 0, magdyn_moment_from_remanence(1.3, vol)},
                       .orientation = {1, 0, 0, 0}, .fixed = true};
    magdyn_magnet b = a;
    magdyn_world_stats st;
    magdyn_world *w;
    int ok;
    p.restitution = 0.5;
    p.friction = 0.3;
    p.on_collision = first_hit;
    p.user = &t_hit;
    out->tilt_deg = 10.0 * (k / N_OFFSET);
    out->offset = 0.005 * (k % N_OFFSET);
    b.fixed = 0;
    b.position = magdyn_v3(out->offset, 0, 0.050);
    b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), out->tilt_deg * MAGDYN_PI / 180);
    if (!(w = magdyn_world_new(&p))) return -1;
    ok = magdyn_world_add(w, &a) >= 0 && magdyn_world_add(w, &b) >= 0 &&
         magdyn_world_advance(w, T_END) == MAGDYN_OK &&
         magdyn_world_get_stats(w, &st) == MAGDYN_OK;
    if (ok) {
        out->t_hit = t_hit;
        out->collisions = (double)st.collisions;
        out->end_tilt_deg = st.asleep ? end_tilt(w) : NAN;   /* NaN: still moving */
    }
    magdyn_world_free(w);
    return ok ? 0 : -1;
}

static const char *verdict(const outcome *o)
{
    if (isnan(o->end_tilt_deg)) return "moving";
    if (o->end_tilt_deg < 0.1) return "flush";
    if (fabs(o->end_tilt_deg - 90) < 0.1) return "on its side";
    if (o->end_tilt_deg > 179.9) return "upside down";
    return "tilted";
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "sweep.csv";
    outcome res[N_CASES];
    int rank = 0, size = 1, k, failed = 0;
    FILE *f;
#ifdef HAVE_MPI
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#endif
    for (k = 0; k < N_CASES; k++) res[k] = (outcome){0, 0, NAN, NAN, NAN};
    for (k = rank; k < N_CASES; k += size)
        if (run_case(k, &res[k]) != 0) failed++;
#ifdef HAVE_MPI
    /* every case was run by exactly one rank: gather by taking, per case,
     * the owner's row (a max over ranks of zero-filled copies would lose NaN) */
    for (k = 0; k < N_CASES; k++) {
        int owner = k % size;
        MPI_Bcast(&res[k], 5, MPI_DOUBLE, owner, MPI_COMM_WORLD);
    }
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
#endif
    if (rank == 0) {
        printf("snap sweep: %d cases on %d %s%s\n", N_CASES, size, size == 1 ? "process" : "processes",
#ifdef HAVE_MPI
               " (Open MPI)"
#else
               " (built without MPI: serial)"
#endif
               );
        printf("tilt[deg] offset[mm]  first contact[ms]  collisions  end tilt[deg]  end\n");
        for (k = 0; k < N_CASES; k++)
            printf("%9.0f %10.0f %18.2f %11.0f %14.3f  %s\n", res[k].tilt_deg, res[k].offset * 1e3,
                   res[k].t_hit * 1e3, res[k].collisions, res[k].end_tilt_deg, verdict(&res[k]));
        if ((f = fopen(path, "w"))) {
            fprintf(f, "tilt_deg,offset_m,first_contact_s,collisions,end_tilt_deg,end\n");
            for (k = 0; k < N_CASES; k++)
                fprintf(f, "%g,%g,%.9g,%.0f,%.6g,%s\n", res[k].tilt_deg, res[k].offset, res[k].t_hit,
                        res[k].collisions, res[k].end_tilt_deg, verdict(&res[k]));
            fclose(f);
            printf("table: %s\n", path);
        } else {
            fprintf(stderr, "cannot write %s\n", path);
        }
        if (failed) fprintf(stderr, "%d cases failed to run\n", failed);
    }
#ifdef HAVE_MPI
    MPI_Finalize();
#endif
    return failed ? 1 : 0;
}
