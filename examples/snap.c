/*
 * snap.c - two block magnets, one held still, the other released at an
 * angle; it is pulled in, hits edge first, bounces, rolls and snaps flush
 * onto the held one.
 *
 *   examples/snap [--outdir DIR] [--extended] [--no-frames] [--help]
 *
 *   Two N42 NdFeB blocks, 20 x 10 x 5 mm, magnetised through the 5 mm
 *   thickness: remanence Br = 1.3 T, moment Br V / mu0 = 1.03 A m^2,
 *   density 7500 kg/m^3, mass 7.5 g each; nickel plating: restitution 0.5,
 *   Coulomb friction 0.3.  Magnet 0 is held at the origin, north up (+z).
 *   Magnet 1 starts 50 mm above it and 10 mm aside, turned 60 degrees about
 *   the y axis, at rest.  By default each magnet is a point dipole at its
 *   centre (it overestimates the force at contact); --extended uses the
 *   exact field of uniformly magnetised boxes (slower).
 *   Writes into DIR (default "snap-out", created when missing): snap.csv
 *   (time, position, quaternion, velocity and angular velocity of each
 *   magnet, total energy), snap_collisions.csv, snap_start.png and
 *   snap_end.png, frames/ (PNG frames, slowed down about 1000 times around
 *   the impact; not with --no-frames), and snap.mp4 when ffmpeg is on PATH.
 *   It prints each collision (time and kind) and the final tilt, gap and
 *   speed: the magnets end flush (tilt < 0.1 deg), touching (gap < 1 um)
 *   and at rest.
 */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <getopt.h>
#include <magdyn.h>
#include "render.h"

#define T_END 0.3        /* [s] simulated */
#define CSV_DT 1e-3      /* [s] between CSV rows */

/* Frame times: 2 ms apart while the magnet flies in, 20 us apart from
 * 0.4 ms before the first collision to 1.6 ms after it (about 1/1000 of
 * real speed at 25 frames/s), then 4 ms apart to 40 ms after it. */
static double next_frame(double t, double t_hit)
{
    if (t < t_hit - 4e-4 - 2e-3) return t + 2e-3;
    if (t < t_hit - 4e-4) return t_hit - 4e-4;
    if (t < t_hit + 1.6e-3) return t + 2e-5;
    return t + 4e-3;
}

/* render_schedule for render_record: frames until 40 ms after the hit. */
static double frame_after(double t, void *user)
{
    double t_hit = *(const double *)user, next = next_frame(t, t_hit);
    return next > t_hit + 0.04 ? INFINITY : next;
}

static void first_hit(const magdyn_collision *c, void *user)
{
    double *t = user;
    if (*t < 0) *t = c->time;
}

/* The scenario: magnet 0 held, magnet 1 released.  NULL on failure. */
static magdyn_world *make_world(magdyn_world_params *p, magdyn_magnet *a)
{
    double br = 1.3, size[3] = {0.020, 0.010, 0.005}, vol = size[0] * size[1] * size[2];
    magdyn_world *w = magdyn_world_new(p);
    magdyn_magnet b;
    if (!w) return NULL;
    memset(a, 0, sizeof *a);
    a->half = magdyn_v3(size[0] / 2, size[1] / 2, size[2] / 2);
    a->mass = 7500.0 * vol;                                 /* 7.5 g */
    a->moment = magdyn_v3(0, 0, br * vol / MAGDYN_MU0);    /* 1.03 A m^2, north up */
    a->orientation = magdyn_quat_identity();
    a->fixed = 1;
    b = *a;
    b.fixed = 0;
    b.position = magdyn_v3(0.010, 0, 0.050);
    b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 60.0 * MAGDYN_PI / 180);
    if (magdyn_world_add(w, a) < 0 || magdyn_world_add(w, &b) < 0) {
        magdyn_world_free(w);
        return NULL;
    }
    return w;
}

static void usage(FILE *f, const char *name)
{
    fprintf(f, "usage: %s [--outdir DIR] [--extended] [--no-frames] [--help]\n"
               "  Two block magnets: one held, one released above it at an angle, snaps on.\n"
               "  --outdir DIR  write the CSV files, pictures and video into DIR (default snap-out)\n"
               "  --extended    exact field of uniformly magnetised boxes (default: point dipoles)\n"
               "  --no-frames   no animation frames or video\n"
               "  --help        this text\n", name);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"outdir", required_argument, 0, 'o'}, {"extended", no_argument, 0, 'x'},
        {"no-frames", no_argument, 0, 'n'},    {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    const char *dir = "snap-out";
    int extended = 0, frames = 1, c, nframe = 0;
    double t_hit = -1.0;
    char path[1024], cap[256];
    FILE *csv, *log;
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_magnet a, oa, ob;
    render_view view = {{0.006, 0, 0.024}, 0.05, 0, 0};
    double e0, tilt, gap;
    magdyn_world_stats st;
    magdyn_status s;

    while ((c = getopt_long(argc, argv, "o:xnh", opts, NULL)) != -1) {
        switch (c) {
        case 'o': dir = optarg; break;
        case 'x': extended = 1; break;
        case 'n': frames = 0; break;
        case 'h': usage(stdout, argv[0]); return 0;
        default: usage(stderr, argv[0]); return 2;
        }
    }
    if (optind < argc) { usage(stderr, argv[0]); return 2; }
    if (render_open_run(dir, "snap", frames, &csv, &log) != 0) return 1;

    p.restitution = 0.5;
    p.friction = 0.3;
    if (extended) {
        /* the cubature's noise (model_tol) bounds the useful rtol */
        p.model = MAGDYN_MODEL_CUBOID;
        p.model_tol = 1e-5;
        p.rtol = 1e-6;
        p.atol = 1e-9;
    }
    /* a first, silent run finds when the magnets meet, to place the frames */
    p.on_collision = first_hit;
    p.user = &t_hit;
    if (!(w = make_world(&p, &a))) { fprintf(stderr, "cannot place the magnets\n"); return 1; }
    magdyn_world_advance(w, T_END);
    magdyn_world_free(w);
    if (t_hit < 0) t_hit = T_END;

    p.on_collision = render_log_collision;
    p.user = log;
    if (!(w = make_world(&p, &a))) { fprintf(stderr, "cannot place the magnets\n"); return 1; }
    printf("snap: two N42 blocks 20x10x5 mm, Br 1.30 T, moment %.3f A m^2, mass %.2f g; %s model\n",
           magdyn_vec3_norm(a.moment), a.mass * 1e3, extended ? "extended cuboid" : "point dipole");
    render_csv_header(csv, 2);
    render_csv_row(csv, w);
    e0 = magdyn_world_energy(w);
    snprintf(path, sizeof path, "%s/snap_start.png", dir);
    if (render_png(path, w, &view, 800, 600, "snap: start (t = 0)") == 0) printf("picture: %s\n", path);
    else printf("no cairo: pictures skipped\n");

    s = render_record(w, T_END, csv, CSV_DT, dir, "snap", &view,
                      frames && render_available() ? 0.0 : INFINITY, frame_after, &t_hit, &nframe);
    if (s != MAGDYN_OK) fprintf(stderr, "advance: %s\n", magdyn_strerror(s));
    magdyn_world_get(w, 0, &oa);
    magdyn_world_get(w, 1, &ob);
    magdyn_world_get_stats(w, &st);
    {
        magdyn_vec3 za = magdyn_quat_rotate(oa.orientation, magdyn_v3(0, 0, 1));
        magdyn_vec3 zb = magdyn_quat_rotate(ob.orientation, magdyn_v3(0, 0, 1));
        magdyn_obb xa = {oa.position, oa.orientation, oa.half}, xb = {ob.position, ob.orientation, ob.half};
        magdyn_sat_result r;
        magdyn_obb_sat(&xb, &xa, &r);
        tilt = atan2(magdyn_vec3_norm(magdyn_vec3_cross(za, zb)), fabs(magdyn_vec3_dot(za, zb))) * 180 / MAGDYN_PI;
        gap = r.separation;
    }
    printf("end at %.0f ms: tilt %.4f deg, gap %.3g m, speed %.3g m/s, %s; energy %.4f J -> %.4f J\n",
           magdyn_world_time(w) * 1e3, tilt, gap, magdyn_vec3_norm(ob.velocity),
           st.asleep ? "at rest" : "moving", e0, magdyn_world_energy(w));
    printf("work: %lld RK steps (%lld rejected), %lld contact steps, %lld force evaluations, %lld collisions\n",
           st.steps, st.rejected, st.contact_steps, st.force_evals, st.collisions);
    snprintf(path, sizeof path, "%s/snap_end.png", dir);
    snprintf(cap, sizeof cap, "snap: end (t = %.0f ms), tilt %.3f deg", magdyn_world_time(w) * 1e3, tilt);
    if (render_png(path, w, &view, 800, 600, cap) == 0) printf("picture: %s\n", path);
    fclose(csv);
    fclose(log);
    printf("trajectory: %s/snap.csv, collisions: %s/snap_collisions.csv\n", dir, dir);
    if (frames && render_available()) {
        printf("%d frames in %s/frames\n", nframe, dir);
        render_video(dir, "snap", 25);
    }
    magdyn_world_free(w);
    return 0;
}
