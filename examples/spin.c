/*
 * spin.c - a torque-free box spinning about an axis close to its
 * intermediate principal axis, integrated with the exact quaternion step
 * (magdyn_quat_integrate) and Euler's equations by RK4; prints the body's
 * y axis (the intermediate one) in the inertial frame over time.  Shows the
 * Dzhanibekov flip.
 *
 *   examples/spin [--time T] [--rate W] [--help]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <getopt.h>
#include <magdyn.h>

/* Euler's equations for a diagonal inertia I: I w' = -w x I w. */
static magdyn_vec3 wdot(magdyn_vec3 i, magdyn_vec3 w)
{
    return magdyn_v3((i.y - i.z) * w.y * w.z / i.x, (i.z - i.x) * w.z * w.x / i.y,
                     (i.x - i.y) * w.x * w.y / i.z);
}

static void usage(FILE *f, const char *name)
{
    fprintf(f, "usage: %s [--time T] [--rate W] [--help]\n"
               "  A 30 x 20 x 10 mm box spun about its intermediate axis flips over and over.\n"
               "  --time T  seconds to follow, 0 < T <= 1000 (default 4)\n"
               "  --rate W  spin rate about the intermediate axis [rad/s], 0 < W <= 1000 (default 10)\n"
               "  --help    this text\n", name);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"time", required_argument, 0, 't'}, {"rate", required_argument, 0, 'w'},
        {"help", no_argument, 0, 'h'},       {0, 0, 0, 0}};
    double t_end = 4.0, rate = 10.0;
    long steps;
    int c;
    /* a 30 x 20 x 10 mm steel-like block of 47 g */
    magdyn_mat3 it = magdyn_mat3_box_inertia(0.047, magdyn_v3(0.015, 0.010, 0.005));
    magdyn_vec3 i = {it.m[0][0], it.m[1][1], it.m[2][2]};
    magdyn_vec3 w = {0.01, 10.0, 0.01};      /* rad/s, mostly about the intermediate axis */
    magdyn_quat q = magdyn_quat_identity();
    double dt, t;
    long n, every;
    while ((c = getopt_long(argc, argv, "t:w:h", opts, NULL)) != -1) {
        switch (c) {
        case 't': t_end = atof(optarg); break;
        case 'w': rate = atof(optarg); break;
        case 'h': usage(stdout, argv[0]); return 0;
        default: usage(stderr, argv[0]); return 2;
        }
    }
    if (optind < argc || !(t_end > 0 && t_end <= 1000) || !(rate > 0 && rate <= 1000)) {
        usage(stderr, argv[0]);
        return 2;
    }
    w.y = rate;
    dt = 1e-3 / rate;                          /* 1 mrad of turn a step */
    every = (long)(0.1 / dt + 0.5);            /* a line every 0.1 s */
    steps = (long)(t_end / dt + 0.5);
    printf("# t[s]  body y axis in the inertial frame (x y z)  |q|-1\n");
    for (n = 0, t = 0; n <= steps; n++, t = n * dt) {
        if (n % every == 0) {
            magdyn_vec3 ey = magdyn_quat_rotate(q, magdyn_v3(0, 1, 0));
            printf("%6.2f  % .6f % .6f % .6f  % .1e\n", t, ey.x, ey.y, ey.z,
                   magdyn_quat_norm(q) - 1.0);
        }
        /* RK4 on w, exact exponential step on q with the midpoint rate */
        magdyn_vec3 k1 = wdot(i, w);
        magdyn_vec3 k2 = wdot(i, magdyn_vec3_madd(w, 0.5 * dt, k1));
        magdyn_vec3 k3 = wdot(i, magdyn_vec3_madd(w, 0.5 * dt, k2));
        magdyn_vec3 k4 = wdot(i, magdyn_vec3_madd(w, dt, k3));
        magdyn_vec3 wmid = magdyn_vec3_madd(w, 0.5 * dt, k2);
        q = magdyn_quat_integrate(q, wmid, dt);
        w = magdyn_vec3_add(w, magdyn_vec3_scale(magdyn_vec3_add(magdyn_vec3_add(k1, k4),
                            magdyn_vec3_scale(magdyn_vec3_add(k2, k3), 2.0)), dt / 6.0));
    }
    return 0;
}
