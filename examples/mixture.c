/*
 * mixture.c - discs of different masses, all started at the same speed,
 * share their energy until both species have the same mean kinetic energy
 * (equipartition).  Prints both species' temperatures over time beside the
 * kinetic-theory prediction and with cairo plots them into
 * DIR/mixture.png.
 *
 * Kinetic theory (Boltzmann-Enskog collision integral with Maxwellian
 * species, derived for 2D hard discs of one diameter sigma):
 *     dT1/dt = -8 sqrt(pi/2) (mu/M) chi sigma n2 sqrt(k T1/m1 + k T2/m2) (T1 - T2)
 * with mu = m1 m2 / M, M = m1 + m2, n2 the number density of species 2 and
 * chi = (1 - 7 eta/16) / (1 - eta)^2 (Henderson's contact value).
 *
 * Numbers (chosen): "helium" (m = 6.646e-27 kg) and "argon" (6.63e-26 kg)
 * atoms, both given the diameter 3.4e-10 m so the theory above applies
 * unchanged; 2 x 20000 atoms at packing fraction 0.1, ending at 300 K.
 *
 *   examples/mixture [--atoms N] [--outdir DIR] [--help]
 */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <errno.h>
#include <getopt.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <magdyn.h>
#ifdef HAVE_CAIRO
#include <cairo.h>
#endif

#define KB 1.380649e-23
#define NT 90

#ifdef HAVE_CAIRO
static void plot(const double *t, double (*sim)[2], double (*th)[2], int n, double tmax, const char *file)
{
    int wpx = 800, hpx = 500, i, s;
    double ml = 60, mb = 50, pw = wpx - ml - 20, ph = hpx - mb - 20, ymax = 0;
    cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, wpx, hpx);
    cairo_t *cr = cairo_create(sf);
    for (i = 0; i < n; i++) ymax = fmax(ymax, fmax(sim[i][0], sim[i][1]));
    ymax *= 1.1;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    for (s = 0; s < 2; s++) {
        double (*c)[2] = s ? th : sim;
        int sp;
        for (sp = 0; sp < 2; sp++) {
            if (sp) cairo_set_source_rgb(cr, 0.8, 0.1, 0.1); else cairo_set_source_rgb(cr, 0.1, 0.3, 0.8);
            cairo_set_line_width(cr, s ? 1.5 : 2.5);
            if (s) { double dash = 6; cairo_set_dash(cr, &dash, 1, 0); } else cairo_set_dash(cr, NULL, 0, 0);
            for (i = 0; i < n; i++) {
                double x = ml + pw * t[i] / tmax, y = 20 + ph * (1 - c[i][sp] / ymax);
                if (i) cairo_line_to(cr, x, y); else cairo_move_to(cr, x, y);
            }
            cairo_stroke(cr);
        }
    }
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, ml, 20); cairo_line_to(cr, ml, 20 + ph); cairo_line_to(cr, ml + pw, 20 + ph);
    cairo_stroke(cr);
    cairo_set_font_size(cr, 14);
    for (i = 0; i <= 4; i++) {
        char lab[32];
        snprintf(lab, sizeof lab, "%.0f K", ymax * i / 4);
        cairo_move_to(cr, 5, 20 + ph * (1 - i / 4.0) + 5);
        cairo_show_text(cr, lab);
        snprintf(lab, sizeof lab, "%.0f ps", tmax * i / 4 * 1e12);
        cairo_move_to(cr, ml + pw * i / 4 - 15, 20 + ph + 20);
        cairo_show_text(cr, lab);
    }
    cairo_move_to(cr, ml + 200, 45);
    cairo_show_text(cr, "blue: light (He), red: heavy (Ar); solid simulation, dashed theory");
    cairo_surface_write_to_png(sf, file);
    cairo_destroy(cr);
    cairo_surface_destroy(sf);
}
#endif

static void usage(FILE *f, const char *name)
{
    fprintf(f, "usage: %s [--atoms N] [--outdir DIR] [--help]\n"
               "  Light and heavy discs started at one speed reach one temperature.\n"
               "  --atoms N     atoms per species, >= 2 (default 20000)\n"
               "  --outdir DIR  write mixture.png into DIR (default mixture-out)\n"
               "  --help        this text\n", name);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"atoms", required_argument, 0, 'n'}, {"outdir", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    int per = 20000, n, side, i, k, opt;
    const char *dir = "mixture-out";
    char out[1024];
    const double m1 = 6.646e-27, m2 = 6.63e-26, sigma = 3.4e-10, eta = 0.1, temp = 300;
    double a, area, v0, tmax, dt, n2, chi, c, t1, t2, ts[NT + 1], sim[NT + 1][2], th[NT + 1][2];
    double mu = m1 * m2 / (m1 + m2), M = m1 + m2, t_e_sim = NAN, t_e_th = NAN, tail1 = 0, tail2 = 0;
    int ntail = 0;
    unsigned long long rng = 0x2545F4914F6CDD1DULL;
    magdyn_gas_params p = magdyn_gas_params_default();
    magdyn_gas *g;
    magdyn_gas_observables o1, o2;
    while ((opt = getopt_long(argc, argv, "n:o:h", opts, NULL)) != -1) {
        switch (opt) {
        case 'n': per = atoi(optarg); break;
        case 'o': dir = optarg; break;
        case 'h': usage(stdout, argv[0]); return 0;
        default: usage(stderr, argv[0]); return 2;
        }
    }
    if (optind < argc || per < 2 || per > 50000000) { usage(stderr, argv[0]); return 2; }
    side = (int)ceil(sqrt(2.0 * per));
    if (side % 2) side++;
    n = side * side;
    a = sigma * sqrt(MAGDYN_PI / (4 * eta));
    p.width = p.height = side * a; p.periodic = 1;
    area = p.width * p.height;
    g = magdyn_gas_new(&p);
    if (!g) return 1;
    /* the same speed for all, total energy N k 300 K: v0^2 = 4 kT / (m1 + m2) */
    v0 = sqrt(4 * KB * temp / (m1 + m2));
    for (i = 0; i < n; i++) {
        magdyn_disc d;
        int sp = (i % side + i / side) % 2;
        double ang;
        rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
        ang = 2 * MAGDYN_PI * (double)((rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
        d.r = magdyn_v2((i % side + 0.5) * a, (i / side + 0.5) * a);
        d.v = magdyn_v2(v0 * cos(ang), v0 * sin(ang));
        d.mass = sp ? m2 : m1;
        d.radius = 0.5 * sigma;
        if (magdyn_gas_add_disc_species(g, &d, sp) < 0) return 1;
    }
    n2 = 0.5 * n / area;
    chi = (1 - 7 * eta / 16) / ((1 - eta) * (1 - eta));
    c = 8 * sqrt(MAGDYN_PI / 2) * (mu / M) * chi * sigma;
    /* a time scale: the light atoms' Enskog collision time, times 60 */
    tmax = 60.0 / (2 * (n / area) * sigma * chi * sqrt(MAGDYN_PI * KB * temp / m1));
    dt = tmax / NT;
    magdyn_gas_observe(g, 0, &o1);
    magdyn_gas_observe(g, 1, &o2);
    t1 = o1.kt_trans; t2 = o2.kt_trans;
    printf("# %d light (m = %.3g kg) + %d heavy (m = %.3g kg) discs, eta = %.2f, all at %.0f m/s\n",
           n / 2, m1, n / 2, m2, eta, v0);
    printf("#  time [ps]   T_light [K]  T_heavy [K]   theory: T_light    T_heavy\n");
    for (k = 0; k <= NT; k++) {
        if (k) {
            int j;
            magdyn_gas_advance(g, k * dt);
            magdyn_gas_observe(g, 0, &o1);
            magdyn_gas_observe(g, 1, &o2);
            for (j = 0; j < 200; j++) {         /* RK2 on the kinetic equations */
                double h = dt / 200, s = sqrt(t1 / m1 + t2 / m2), u1, u2, su;
                u1 = t1 - 0.5 * h * c * n2 * s * (t1 - t2);
                u2 = t2 - 0.5 * h * c * n2 * s * (t2 - t1);
                su = sqrt(u1 / m1 + u2 / m2);
                t1 -= h * c * n2 * su * (u1 - u2);
                t2 -= h * c * n2 * su * (u2 - u1);
            }
        }
        ts[k] = k * dt;
        sim[k][0] = o1.kt_trans / KB; sim[k][1] = o2.kt_trans / KB;
        th[k][0] = t1 / KB; th[k][1] = t2 / KB;
        if (isnan(t_e_sim) && fabs(sim[k][1] - sim[k][0]) < fabs(sim[0][1] - sim[0][0]) / 2.718281828459045)
            t_e_sim = ts[k];
        if (isnan(t_e_th) && fabs(th[k][1] - th[k][0]) < fabs(th[0][1] - th[0][0]) / 2.718281828459045)
            t_e_th = ts[k];
        if (k > NT / 2) { tail1 += sim[k][0]; tail2 += sim[k][1]; ntail++; }
        if (k % 5 == 0)
            printf("%10.3f %13.2f %13.2f %16.2f %10.2f\n", ts[k] * 1e12, sim[k][0], sim[k][1], th[k][0], th[k][1]);
    }
    printf("# the temperature difference falls by 1/e in %.3g ps (kinetic theory: %.3g ps)\n",
           t_e_sim * 1e12, t_e_th * 1e12);
    printf("# %lld collisions; mean temperatures over the second half %.2f K (light) and %.2f K (heavy), ratio %.4f\n",
           magdyn_gas_collisions(g), tail1 / ntail, tail2 / ntail, tail1 / tail2);
#ifdef HAVE_CAIRO
    snprintf(out, sizeof out, "%s/mixture.png", dir);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) perror(dir);
    else {
        plot(ts, sim, th, NT + 1, tmax, out);
        printf("# wrote %s\n", out);
    }
#else
    (void)out;
    printf("# built without cairo: no picture\n");
#endif
    magdyn_gas_free(g);
    return 0;
}
