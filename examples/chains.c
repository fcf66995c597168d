/*
 * chains.c - hundreds to thousands of small magnet cubes, set moving in a shallow
 * box, pull each other into chains and rings.
 *
 *   examples/chains [--count N] [--seed S] [--time T] [--cpu S] [--speed V]
 *                   [--shake A] [--freq F] [--fill F] [--outdir DIR]
 *
 *   N 3 mm N42 NdFeB cubes (J = Br = 1.3 T, moment 0.0279 A m^2, density
 *   7500 kg/m^3, mass 0.20 g), magnetised through a face, lie flat at
 *   random places and headings on the floor of a square box under gravity,
 *   their moments in the plane; a lid 5 mm above the floor keeps them to
 *   one layer (a cube cannot stand on another) and the box's side is such
 *   that the cubes cover a fraction F of the floor.  Floor, lid and walls
 *   are fixed, non-magnetic boxes.  Restitution 0.3, friction 0.3, point
 *   dipoles (summed directly at these sizes: the world switches to its tree
 *   code only for far larger N).  Contact tolerance 1 um and resting margin
 *   10 um (3e-4 and 3e-3 of an edge) instead of the library's 1 nm and
 *   1 um, approaches below 5 cm/s do not bounce, and a resting-contact
 *   impulse solve stops after 100 sweeps or at 1e-6: together they make a
 *   run several times cheaper (2.7 times at N = 500 over the first 3 ms);
 *   the energy balance printed at the end shows what they cost.
 *
 *   Shaking: the box moves to and fro along x as A sin(2 pi F t) (default
 *   A = 0.1 mm at F = 200 Hz, a peak acceleration of 16 g).  The world is
 *   described in the box's frame, where the walls stand still and the
 *   shaking is a uniform inertial force: gravity minus the box's
 *   acceleration, changed every 1/32 of a period (at the middle of each
 *   piece) with magdyn_world_set_fields.  The cubes also get one kick at
 *   the start: random velocities in the plane (each component normal with
 *   standard deviation V / sqrt 2) and random spins about the vertical (up
 *   to V over half an edge).
 *
 *   The run ends at T simulated seconds, or when S CPU seconds are spent
 *   (the world's cancel callback), whichever comes first.  Prints N, the
 *   simulated time reached, the CPU seconds, the stepper's steps, the
 *   clusters of touching magnets (chains, rings, clumps; a union-find over
 *   the touching pairs) at the start and at the end, and the energy.  Writes
 *   DIR/chains_start.png and DIR/chains_end.png (top views) when built with
 *   cairo.
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
#include "cluster.h"
#include "render.h"
#include "topview.h"

#define CUBE_HALF 1.5e-3      /* [m]: 3 mm cubes */
#define CUBE_J 1.3            /* [T]: N42 */
#define CUBE_DENSITY 7500.0   /* [kg/m^3]: sintered NdFeB */
#define CELL_HEIGHT 5e-3      /* [m] floor to lid */
#define WALL 5e-3             /* [m] thickness of floor, lid and walls */
#define TOUCH_GAP 1e-4        /* [m] magnets this close count as touching */
#define SPACING 5.25e-3       /* [m] closest centres at the start: 1.75 edges (add_cubes) */

typedef struct {
    int n;
    unsigned long long seed;
    double t_max, cpu_max, speed, fill, shake, freq;
    const char *dir;
} options;

typedef struct {
    double c0, budget;
} cpu_budget;

static double cpu_seconds(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

/* The world's cancel callback: true once the budget is spent. */
static bool over_budget(void *user)
{
    const cpu_budget *b = user;
    return cpu_seconds() - b->c0 > b->budget;
}

/* xorshift64: repeatable placements */
static double uniform(unsigned long long *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* A standard normal deviate (Box-Muller). */
static double normal(unsigned long long *s)
{
    double u = uniform(s), v = uniform(s);
    return sqrt(-2.0 * log(1.0 - u)) * cos(2.0 * MAGDYN_PI * v);
}

static void usage(FILE *f, const char *name)
{
    fprintf(f, "usage: %s [--count N] [--seed S] [--time T] [--cpu S] [--speed V] [--fill F]\n"
               "       %*s [--shake A] [--freq F] [--outdir DIR] [--help]\n"
               "  3 mm N42 magnet cubes (J 1.3 T, 0.0279 A m^2, 0.20 g each) in a shallow box\n"
               "  (5 mm floor to lid) shaken along x, kicked once at random, pull each other\n"
               "  into chains and rings.\n"
               "  --count N     number of cubes (default 500)\n"
               "  --seed S      seed of the random start (default 1)\n"
               "  --time T      simulated seconds to run (default 0.01)\n"
               "  --cpu S       stop earlier when S CPU seconds are spent (default 150)\n"
               "  --speed V     rms speed of the kick [m/s] (default 0.3)\n"
               "  --shake A     amplitude of the box's shaking [m] (default 1e-4; 0: none)\n"
               "  --freq F      its frequency [Hz] (default 200)\n"
               "  --fill F      fraction of the floor the cubes cover, up to 0.3 (default 0.15)\n"
               "  --outdir DIR  write the pictures into DIR (default chains-out)\n"
               "  --help        this text\n", name, (int)strlen(name), "");
}

/* Parse argv into o; returns -1 when the program is to exit with *rc. */
static int parse(int argc, char **argv, options *o, int *rc)
{
    static const struct option opts[] = {
        {"count", required_argument, 0, 'n'}, {"seed", required_argument, 0, 's'},
        {"time", required_argument, 0, 't'},  {"cpu", required_argument, 0, 'c'},
        {"speed", required_argument, 0, 'v'}, {"fill", required_argument, 0, 'f'},
        {"shake", required_argument, 0, 'a'}, {"freq", required_argument, 0, 'q'},
        {"outdir", required_argument, 0, 'o'}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "n:s:t:c:v:f:a:q:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n': o->n = atoi(optarg); break;
        case 's': o->seed = strtoull(optarg, NULL, 10); break;
        case 't': o->t_max = atof(optarg); break;
        case 'c': o->cpu_max = atof(optarg); break;
        case 'v': o->speed = atof(optarg); break;
        case 'f': o->fill = atof(optarg); break;
        case 'a': o->shake = atof(optarg); break;
        case 'q': o->freq = atof(optarg); break;
        case 'o': o->dir = optarg; break;
        case 'h': usage(stdout, argv[0]); *rc = 0; return -1;
        default: usage(stderr, argv[0]); *rc = 2; return -1;
        }
    }
    if (optind < argc || o->n < 2 || o->n > 100000 || !(o->t_max > 0) || !(o->cpu_max > 0) ||
        !(o->speed >= 0) || !(o->fill > 0 && o->fill <= 0.3) || !(o->shake >= 0 && o->shake <= 1e-2)
        || !(o->freq > 0 && o->freq <= 1e4)) {
        usage(stderr, argv[0]);
        *rc = 2;
        return -1;
    }
    return 0;
}

/* A fixed, non-magnetic box of half extents h at c. */
static int add_wall(magdyn_world *w, magdyn_vec3 c, magdyn_vec3 h)
{
    magdyn_magnet m = magdyn_magnet_default();
    m.half = h;
    m.mass = 1.0;
    m.position = c;
    m.fixed = true;
    return magdyn_world_add(w, &m);
}

/* Floor (top face z = 0), lid (bottom face z = CELL_HEIGHT) and four walls
 * around the square |x|, |y| <= side / 2.  Returns 0, or -1. */
static int add_box(magdyn_world *w, double side)
{
    double s = 0.5 * side + WALL, zc = 0.5 * CELL_HEIGHT, hz = 0.5 * CELL_HEIGHT;
    double t = 0.5 * WALL;
    if (add_wall(w, magdyn_v3(0, 0, -t), magdyn_v3(s, s, t)) < 0) return -1;
    if (add_wall(w, magdyn_v3(0, 0, CELL_HEIGHT + t), magdyn_v3(s, s, t)) < 0) return -1;
    if (add_wall(w, magdyn_v3(0.5 * side + t, 0, zc), magdyn_v3(t, s, hz)) < 0) return -1;
    if (add_wall(w, magdyn_v3(-0.5 * side - t, 0, zc), magdyn_v3(t, s, hz)) < 0) return -1;
    if (add_wall(w, magdyn_v3(0, 0.5 * side + t, zc), magdyn_v3(0.5 * side, t, hz)) < 0) return -1;
    if (add_wall(w, magdyn_v3(0, -0.5 * side - t, zc), magdyn_v3(0.5 * side, t, hz)) < 0) return -1;
    return 0;
}

/* 1 when p is at least d from each of the n points in q. */
static int room_at(magdyn_vec3 p, const magdyn_vec3 *q, int n, double d)
{
    int k;
    for (k = 0; k < n; k++)
        if (magdyn_vec3_dist(p, q[k]) < d) return 0;
    return 1;
}

/* n cubes flat on the floor at random places and headings, moment along
 * body x, kicked; their centres at least SPACING apart, or 3/4 of the mean
 * spacing when the floor is crowded (random placement jams beyond a disc
 * cover of about 0.55).  Returns the number placed. */
static int add_cubes(magdyn_world *w, const options *o, double side)
{
    double a = CUBE_HALF, vol = 8 * a * a * a, room = 0.5 * side - 1.5 * a;
    unsigned long long seed = o->seed ? o->seed : 88172645463325252ULL;
    double apart = fmin(SPACING, 0.75 * side / sqrt(o->n));
    magdyn_vec3 *at = malloc((size_t)o->n * sizeof *at);
    int added = 0, fails = 0;
    while (at && added < o->n && fails < 100000) {
        magdyn_magnet m = magdyn_magnet_default();
        double yaw = 2 * MAGDYN_PI * uniform(&seed), sd = o->speed / sqrt(2.0);
        m.half = magdyn_v3(a, a, a);
        m.mass = CUBE_DENSITY * vol;
        m.moment = magdyn_v3(CUBE_J * vol / MAGDYN_MU0, 0, 0);
        m.position = magdyn_v3(room * (2 * uniform(&seed) - 1), room * (2 * uniform(&seed) - 1), a);
        m.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), yaw);
        m.velocity = magdyn_v3(sd * normal(&seed), sd * normal(&seed), 0);
        m.omega = magdyn_v3(0, 0, o->speed / a * (2 * uniform(&seed) - 1));
        if (room_at(m.position, at, added, apart) && magdyn_world_add(w, &m) >= 0) {
            at[added++] = m.position;
            fails = 0;
        } else {
            fails++;
        }
    }
    free(at);
    return added;
}

/* The world's energy less the constant gravitational energy of the fixed
 * walls: kinetic + magnetic + gravitational of the cubes [J]. */
static double cubes_energy(const magdyn_world *w, magdyn_vec3 g)
{
    double e = magdyn_world_energy(w);
    int i, n = magdyn_world_count(w);
    for (i = 0; i < n; i++) {
        magdyn_magnet m;
        magdyn_world_get(w, i, &m);
        if (m.fixed) e += m.mass * magdyn_vec3_dot(g, m.position);
    }
    return e;
}

/* Gravity in the box's frame at time t [s]: g less the box's acceleration
 * -A w^2 sin(w t) along x. */
static magdyn_vec3 frame_gravity(const options *o, magdyn_vec3 g, double t)
{
    double om = 2.0 * MAGDYN_PI * o->freq;
    return magdyn_v3(g.x + o->shake * om * om * sin(om * t), g.y, g.z);
}

static void print_clusters(const char *when, const magdyn_world *w)
{
    cluster_stats c;
    magdyn_status s = cluster_analyse(w, TOUCH_GAP, &c);
    if (s != MAGDYN_OK) {
        printf("%s: cannot find the clusters: %s\n", when, magdyn_strerror(s));
        return;
    }
    printf("%s: %d touching pairs; %d magnets in %d clusters of 3 or more (largest %d), "
           "%d pairs, %d alone\n", when, c.contacts, c.in_clusters, c.clusters, c.largest, c.pairs,
           c.magnets - c.in_clusters - 2 * c.pairs);
    printf("%*s  chains (open): %d holding %d magnets; rings (closed): %d holding %d; "
           "clusters with a loop: %d\n", (int)strlen(when), "", c.chains, c.in_chains, c.rings,
           c.in_rings, c.cyclic);
}

static void picture(const magdyn_world *w, const options *o, double side, const char *file,
                    const char *caption)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", o->dir, file);
    if (topview_png(path, w, 0, 0, 0.5 * side + WALL, 900, caption) != 0 && render_available())
        fprintf(stderr, "cannot write %s\n", path);
}

int main(int argc, char **argv)
{
    options o = {500, 1, 0.01, 150.0, 0.3, 0.15, 1e-4, 200.0, "chains-out"};
    magdyn_world_params p = magdyn_world_params_default();
    cpu_budget budget;
    magdyn_world_stats st;
    magdyn_world *w;
    magdyn_status s = MAGDYN_OK;
    magdyn_vec3 g_now;
    double side, e0, e1, ext0, cpu, t, dt, piece;
    long long k_piece = 0;
    char cap[256];
    int rc;

    if (parse(argc, argv, &o, &rc) != 0) return rc;
    side = sqrt(o.n * 4 * CUBE_HALF * CUBE_HALF / o.fill);
    p.gravity = magdyn_v3(0, 0, -9.81);
    p.restitution = 0.3;
    p.friction = 0.3;
    /* Tolerances for 3 mm cubes: contact times and resting gaps to 1 um
     * (3e-4 of an edge) rather than 1 nm, whose steps are several times
     * shorter; a resting-contact impulse solve of at most 100 sweeps to
     * 1e-6; approaches slower than 5 cm/s do not bounce. */
    p.contact_tol = 1e-6;
    p.contact_margin = 1e-5;
    p.bounce_speed = 0.05;
    p.solver_iterations = 100;
    p.solver_tolerance = 1e-6;
    p.cancel = over_budget;
    p.user = &budget;
    if (!(w = magdyn_world_new(&p)) || add_box(w, side) != 0) {
        fprintf(stderr, "cannot make the world\n");
        return 1;
    }
    if (add_cubes(w, &o, side) != o.n) {
        fprintf(stderr, "cannot place %d cubes in the box\n", o.n);
        magdyn_world_free(w);
        return 1;
    }
    if (render_mkdir(o.dir) != 0) {
        perror(o.dir);
        magdyn_world_free(w);
        return 1;
    }
    printf("chains: %d cubes of 3 mm, N42 (J %.1f T, %.4f A m^2, %.3f g) in a box %.0f x %.0f x %.0f mm"
           " (%.0f %% of the floor covered); kicked at %.2f m/s rms; shaken along x by %.3g mm at %.0f Hz"
           " (peak %.1f g); point dipoles\n",
           o.n, CUBE_J, CUBE_J * 8 * pow(CUBE_HALF, 3) / MAGDYN_MU0,
           CUBE_DENSITY * 8 * pow(CUBE_HALF, 3) * 1e3, side * 1e3, side * 1e3, CELL_HEIGHT * 1e3,
           100 * o.fill, o.speed, o.shake * 1e3, o.freq,
           o.shake * pow(2 * MAGDYN_PI * o.freq, 2) / 9.81);
    picture(w, &o, side, "chains_start.png", "start: t = 0");
    print_clusters("start", w);
    /* the shaking's pieces: gravity minus the box's acceleration at the
     * middle of each */
    piece = o.shake > 0 ? 1.0 / (32.0 * o.freq) : 2.0 * o.t_max;
    g_now = frame_gravity(&o, p.gravity, 0.5 * piece);
    if ((s = magdyn_world_set_fields(w, g_now, p.field)) != MAGDYN_OK) {
        fprintf(stderr, "cannot shake the box: %s\n", magdyn_strerror(s));
        magdyn_world_free(w);
        return 1;
    }
    magdyn_world_get_stats(w, &st);
    ext0 = st.energy_external;
    e0 = magdyn_world_energy(w);
    printf("start: energy of the cubes (kinetic + magnetic + gravitational) %.6e J\n", cubes_energy(w, g_now));
    budget.c0 = cpu_seconds();
    budget.budget = o.cpu_max;
    dt = o.t_max / 10;
    for (t = 0; t < o.t_max && s == MAGDYN_OK;) {
        double t_report = fmin(o.t_max, t + dt);
        while (t < t_report && s == MAGDYN_OK) {
            double piece_end = (double)(k_piece + 1) * piece;
            if (t >= piece_end) {   /* the next piece */
                k_piece++;
                g_now = frame_gravity(&o, p.gravity, ((double)k_piece + 0.5) * piece);
                s = magdyn_world_set_fields(w, g_now, p.field);
                continue;
            }
            t = fmin(t_report, piece_end);
            s = magdyn_world_advance(w, t);
        }
        magdyn_world_get_stats(w, &st);
        printf("  t = %8.3f ms  CPU %7.1f s  steps %lld, contact steps %lld, collisions %lld, "
               "resting pairs %d\n", magdyn_world_time(w) * 1e3, cpu_seconds() - budget.c0,
               st.steps, st.contact_steps, st.collisions, st.resting_pairs);
        fflush(stdout);
    }
    cpu = cpu_seconds() - budget.c0;
    magdyn_world_get_stats(w, &st);
    if (s == MAGDYN_ECANCELED)
        printf("stopped by the CPU budget (%.0f s) at t = %.4f ms\n", o.cpu_max, magdyn_world_time(w) * 1e3);
    else if (s != MAGDYN_OK)
        printf("advance stopped at t = %.4f ms: %s\n", magdyn_world_time(w) * 1e3, magdyn_strerror(s));
    printf("N %d, simulated %.4f ms, CPU %.2f s (%.2f CPU s per simulated ms); %lld Runge-Kutta steps "
           "(%lld rejected), %lld contact steps, %lld collisions, %lld force evaluations\n",
           o.n, magdyn_world_time(w) * 1e3, cpu, cpu / (magdyn_world_time(w) * 1e3), st.steps,
           st.rejected, st.contact_steps, st.collisions, st.force_evals);
    print_clusters("end", w);
    e1 = magdyn_world_energy(w);
    printf("end: energy of the cubes %.6e J; the shaking did %.6e J of work, restitution took "
           "%.6e J, friction %.6e J; unaccounted %.2e J\n", cubes_energy(w, g_now),
           st.energy_external - ext0, st.energy_restitution, st.energy_friction,
           e1 - (e0 + st.energy_external - ext0 - st.energy_restitution - st.energy_friction));
    snprintf(cap, sizeof cap, "%d cubes of 3 mm at t = %.2f ms", o.n, magdyn_world_time(w) * 1e3);
    picture(w, &o, side, "chains_end.png", cap);
    if (render_available()) printf("pictures: %s/chains_start.png, %s/chains_end.png\n", o.dir, o.dir);
    else printf("built without cairo: pictures are off\n");
    magdyn_world_free(w);
    return s == MAGDYN_OK || s == MAGDYN_ECANCELED ? 0 : 1;
}
