/*
 * pile.c - magnets dropped on a plate click into chains and clumps and lie
 * still.
 *
 *   examples/pile [--count N] [--seed S] [--time T] [--column | --tower]
 *                 [--extended] [--tight] [--frames] [--outdir DIR]
 *
 *   N 10 mm N42 cubes (Br 1.3 T, 7.5 g; examples/scene.h) fall at random
 *   from up to 6 cm onto a fixed 1 m x 1 m x 10 mm plate under gravity,
 *   restitution 0.3, friction 0.5, point dipoles (--extended: the exact
 *   field of uniformly magnetised boxes).  Contacts hold to 1e-7 m (a
 *   tenth of a micrometre, below the roughness of plated magnets) and the
 *   contact step is the theta-method with a start weight of 0.45, the
 *   settings magdyn_world_new(3) suggests for piles; --tight keeps the
 *   library's defaults instead (1e-9 m, first order: three times the CPU
 *   time).  --column stands N magnets in a
 *   column on the plate instead, all north up; --tower stacks N plain
 *   (unmagnetised) boxes.  The run stops when every magnet sleeps, or at
 *   T simulated seconds (default 10).  Writes into DIR (default
 *   "pile-out"): pile_start.png, and pile_end_side.png and pile_end_top.png
 *   (the final state seen from the side and from above); with --frames,
 *   frames/ with 25 pictures a simulated second, and pile.mp4 when ffmpeg
 *   is on PATH.  Prints when the pile came to rest, the CPU time, and the
 *   energy balance: the energy now against the start's minus what
 *   restitution and friction took.
 */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <getopt.h>
#include <magdyn.h>
#include "render.h"
#include "scene.h"

static double cpu_seconds(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

static void usage(FILE *f, const char *name)
{
    fprintf(f, "usage: %s [--count N] [--seed S] [--time T] [--column | --tower] [--extended]\n"
               "       %*s [--frames] [--outdir DIR] [--help]\n"
               "  10 mm N42 cubes dropped on a plate click into clumps and lie still.\n"
               "  --count N     number of cubes (default 8)\n"
               "  --seed S      seed of the random drop positions (default 1)\n"
               "  --time T      stop at T simulated seconds if not at rest before (default 10)\n"
               "  --column      stand the cubes in a column, north up, instead\n"
               "  --tower       stack unmagnetised boxes instead\n"
               "  --extended    exact field of uniformly magnetised boxes (default: point dipoles)\n"
               "  --tight       the library's contact defaults (contact_tol 1e-9 m, first-order\n"
               "                contact step) instead of 1e-7 m and the theta-method's 0.45\n"
               "  --frames      also write frames/ (25 a simulated second) and pile.mp4\n"
               "  --outdir DIR  write the pictures into DIR (default pile-out)\n"
               "  --help        this text\n", name, (int)strlen(name), "");
}

static int picture(const magdyn_world *w, const char *dir, const char *file, double az, double el,
                   magdyn_vec3 centre, double hw, const char *caption)
{
    char path[1024];
    render_view v = {centre, hw, az, el};
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return render_png(path, w, &v, 640, 480, caption);
}

/* A view of every magnet that is not held fixed: the centre of their
 * bounding box and a half width that takes it in (at least hw), so the
 * end pictures show where the pile went. */
static void fit_view(const magdyn_world *w, double hw, magdyn_vec3 *centre, double *half_width)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, ext = 0.0;
    magdyn_magnet m;
    int i, k;
    for (i = 0; magdyn_world_get(w, i, &m) == MAGDYN_OK; i++) {
        double p[3] = {m.position.x, m.position.y, m.position.z};
        if (m.fixed) continue;
        for (k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], p[k] - SCENE_CUBE_HALF);
            hi[k] = fmax(hi[k], p[k] + SCENE_CUBE_HALF);
        }
    }
    if (!(lo[0] <= hi[0])) {
        *centre = magdyn_v3(0, 0, 0.02);
        *half_width = hw;
        return;
    }
    for (k = 0; k < 3; k++) ext = fmax(ext, 0.5 * (hi[k] - lo[k]));
    *centre = magdyn_v3(0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2]));
    *half_width = fmax(hw, 1.2 * ext + 0.005);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"count", required_argument, 0, 'n'}, {"seed", required_argument, 0, 's'},
        {"time", required_argument, 0, 't'},  {"column", no_argument, 0, 'c'},
        {"tower", no_argument, 0, 'w'},       {"extended", no_argument, 0, 'x'},
        {"frames", no_argument, 0, 'f'},      {"outdir", required_argument, 0, 'o'},
        {"tight", no_argument, 0, 'g'},       {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int n = 8, column = 0, tower = 0, extended = 0, frames = 0, tight = 0, c, frame = 0;
    unsigned long long seed = 1;
    double t_max = 10.0, e0, c0, cpu, t_rest = -1, hw, hw_end, t;
    magdyn_vec3 centre;
    const char *dir = "pile-out", *what;
    char path[1024], cap[256];
    magdyn_world_params p = scene_params();
    magdyn_world_stats st;
    magdyn_world *w;
    magdyn_status s = MAGDYN_OK;

    while ((c = getopt_long(argc, argv, "n:s:t:cwxgfo:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n': n = atoi(optarg); break;
        case 's': seed = strtoull(optarg, NULL, 10); break;
        case 't': t_max = atof(optarg); break;
        case 'c': column = 1; break;
        case 'w': tower = 1; break;
        case 'x': extended = 1; break;
        case 'g': tight = 1; break;
        case 'f': frames = 1; break;
        case 'o': dir = optarg; break;
        case 'h': usage(stdout, argv[0]); return 0;
        default: usage(stderr, argv[0]); return 2;
        }
    }
    if (n < 1 || n > 100000 || !(t_max > 0)) { usage(stderr, argv[0]); return 2; }
    if (extended) p.model = MAGDYN_MODEL_CUBOID;
    if (!tight) {
        p.contact_tol = 1e-7;
        p.contact_start_weight = 0.45;
    }
    if (!(w = magdyn_world_new(&p)) || scene_plate(w) < 0) { fprintf(stderr, "cannot make the world\n"); return 1; }
    what = column ? "column" : tower ? "tower" : "pile";
    if ((column ? scene_column(w, n) : tower ? scene_tower(w, n) : scene_pile(w, n, seed)) != n) {
        fprintf(stderr, "cannot place %d cubes\n", n);
        return 1;
    }
    if (render_mkdir(dir) != 0) { perror(dir); return 1; }
    snprintf(path, sizeof path, "%s/frames", dir);
    if (frames && render_mkdir(path) != 0) { perror(path); return 1; }
    hw = 0.03 * sqrt(n / 8.0) + (column || tower ? 0.01 * n : 0.0);
    printf("%s: %d cubes of 10 mm, N42 (J %.2f T), %.1f g; %s model; restitution %.1f, friction %.1f;\n"
           "  contact_tol %g m, contact step %s %g\n",
           what, n, SCENE_CUBE_J, SCENE_CUBE_MASS * 1e3, extended ? "extended cuboid" : "point dipole",
           p.restitution, p.friction, p.contact_tol,
           p.contact_start_weight > 0 ? "theta-method, start weight" : "first order, start weight",
           p.contact_start_weight);
    picture(w, dir, "pile_start.png", 0, 0, magdyn_v3(0, 0, 0.02), hw, "start");
    e0 = magdyn_world_energy(w);
    c0 = cpu_seconds();
    for (t = 0.0; t < t_max;) {
        t = fmin(t_max, t + 0.04);
        if ((s = magdyn_world_advance(w, t)) != MAGDYN_OK) break;
        magdyn_world_get_stats(w, &st);
        if (frames) {
            snprintf(path, sizeof path, "%s/frames/frame_%05d.png", dir, frame++);
            snprintf(cap, sizeof cap, "%s of %d: t = %.2f s", what, n, t);
            picture(w, dir, path + strlen(dir) + 1, 0, 0, magdyn_v3(0, 0, 0.02), hw, cap);
        }
        if (st.asleep) { t_rest = t; break; }
    }
    cpu = cpu_seconds() - c0;
    magdyn_world_get_stats(w, &st);
    if (s != MAGDYN_OK) printf("advance stopped at t = %.4f s: %s\n", magdyn_world_time(w), magdyn_strerror(s));
    if (t_rest >= 0) printf("at rest (all asleep) by t = %.2f s\n", t_rest);
    else printf("not at rest at t = %.2f s: %d of %d magnets asleep\n", magdyn_world_time(w), st.sleeping, n);
    printf("CPU %.3f s for %.3f s simulated (%.3f CPU s per simulated s); %lld Runge-Kutta steps, "
           "%lld contact steps, %lld collisions\n", cpu, magdyn_world_time(w), cpu / magdyn_world_time(w),
           st.steps, st.contact_steps, st.collisions);
    printf("energy: start %.6e J, now %.6e J; restitution took %.6e J, friction %.6e J; "
           "unaccounted %.3e J (%.2e of the start's magnitude)\n", e0, magdyn_world_energy(w),
           st.energy_restitution, st.energy_friction,
           magdyn_world_energy(w) - (e0 - st.energy_restitution - st.energy_friction),
           (magdyn_world_energy(w) - (e0 - st.energy_restitution - st.energy_friction)) / fabs(e0));
    fit_view(w, hw, &centre, &hw_end);
    snprintf(cap, sizeof cap, "%s of %d at t = %.2f s, side", what, n, magdyn_world_time(w));
    picture(w, dir, "pile_end_side.png", 0.0001, 0.0001, centre, hw_end, cap);
    snprintf(cap, sizeof cap, "%s of %d at t = %.2f s, from above", what, n, magdyn_world_time(w));
    picture(w, dir, "pile_end_top.png", 0.0, 89.9, centre, hw_end, cap);
    if (render_available()) printf("pictures: %s/pile_start.png, pile_end_side.png, pile_end_top.png\n", dir);
    else printf("built without cairo: no pictures\n");
    if (frames) render_video(dir, "pile", 25);
    magdyn_world_free(w);
    return s == MAGDYN_OK ? 0 : 1;
}
