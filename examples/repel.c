/*
 * repel.c - like poles facing: a magnet held above another with north facing
 * north is pushed away, turns over in the field, and (no gravity) comes back
 * to snap on with opposite poles touching.  It starts 40 mm above the held
 * magnet, 2 mm aside, upside down and tilted 60 degrees.  Same magnets as snap: N42 NdFeB
 * 20 x 10 x 5 mm, Br 1.3 T, 7.5 g, point dipoles; restitution 0.5,
 * friction 0.3.
 *
 *   examples/repel [--outdir DIR] [--no-frames] [--help]
 *
 * Writes repel.csv, repel_collisions.csv, repel_start.png, repel_end.png,
 * frames/ (not with --no-frames) and repel.mp4 (when ffmpeg is on PATH)
 * into DIR (default "repel-out", created when missing).
 */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <getopt.h>
#include <magdyn.h>
#include "render.h"

#define T_END 0.2
#define FRAME_DT 1e-3
#define CSV_DT 1e-3

/* render_schedule: a frame every FRAME_DT. */
static double next_frame(double t, void *user)
{
    (void)user;
    return t + FRAME_DT;
}

static void usage(FILE *f, const char *name)
{
    fprintf(f, "usage: %s [--outdir DIR] [--no-frames] [--help]\n"
               "  Like poles facing: the released magnet is pushed away, turns over, snaps on.\n"
               "  --outdir DIR  write the CSV files, pictures and video into DIR (default repel-out)\n"
               "  --no-frames   no animation frames or video\n"
               "  --help        this text\n", name);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"outdir", required_argument, 0, 'o'}, {"no-frames", no_argument, 0, 'n'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    const char *dir = "repel-out";
    int frames = 1, c;
    char path[1024], cap[256];
    FILE *csv, *log;
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_magnet a, b, ob;
    render_view view = {{0.0, 0, 0.024}, 0.045, 0, 0};
    double br = 1.3, vol = 0.02 * 0.01 * 0.005;
    magdyn_status s;

    while ((c = getopt_long(argc, argv, "o:nh", opts, NULL)) != -1) {
        switch (c) {
        case 'o': dir = optarg; break;
        case 'n': frames = 0; break;
        case 'h': usage(stdout, argv[0]); return 0;
        default: usage(stderr, argv[0]); return 2;
        }
    }
    if (optind < argc) { usage(stderr, argv[0]); return 2; }
    if (render_open_run(dir, "repel", frames, &csv, &log) != 0) return 1;
    p.on_collision = render_log_collision;
    p.user = log;
    if (!(w = magdyn_world_new(&p))) return 1;

    memset(&a, 0, sizeof a);
    a.half = magdyn_v3(0.01, 0.005, 0.0025);
    a.mass = 7500.0 * vol;
    a.moment = magdyn_v3(0, 0, br * vol / MAGDYN_MU0);   /* north up */
    a.orientation = magdyn_quat_identity();
    a.fixed = 1;
    b = a;
    b.fixed = 0;
    b.position = magdyn_v3(0.002, 0, 0.04);
    /* upside down (north down, facing the held magnet's north), tilted 5 degrees */
    b.orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 60 * MAGDYN_PI / 180),
                                    magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), MAGDYN_PI));
    if (magdyn_world_add(w, &a) < 0 || magdyn_world_add(w, &b) < 0) {
        fprintf(stderr, "cannot place the magnets\n");
        return 1;
    }
    printf("repel: like poles 3 mm apart, N42 blocks 20x10x5 mm; point dipoles\n");
    render_csv_header(csv, 2);
    render_csv_row(csv, w);
    snprintf(path, sizeof path, "%s/repel_start.png", dir);
    if (render_png(path, w, &view, 800, 600, "repel: start, north facing north") == 0)
        printf("picture: %s\n", path);
    else
        printf("no cairo: pictures skipped\n");
    s = render_record(w, T_END, csv, CSV_DT, dir, "repel", &view,
                      frames && render_available() ? FRAME_DT : INFINITY, next_frame, NULL, NULL);
    if (s != MAGDYN_OK) fprintf(stderr, "advance: %s\n", magdyn_strerror(s));
    magdyn_world_get(w, 1, &ob);
    {
        magdyn_vec3 m = magdyn_quat_rotate(ob.orientation, ob.moment);
        printf("end at %.0f ms: magnet 1 at z = %.2f mm, its moment now points %s\n",
               magdyn_world_time(w) * 1e3, ob.position.z * 1e3, m.z > 0 ? "up (turned over)" : "down");
    }
    snprintf(path, sizeof path, "%s/repel_end.png", dir);
    snprintf(cap, sizeof cap, "repel: end (t = %.0f ms)", magdyn_world_time(w) * 1e3);
    if (render_png(path, w, &view, 800, 600, cap) == 0) printf("picture: %s\n", path);
    fclose(csv);
    fclose(log);
    if (frames && render_available()) render_video(dir, "repel", 25);
    magdyn_world_free(w);
    return 0;
}
