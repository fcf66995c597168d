/*
 * gas.c - a 2D "argon" gas of hard discs, event-driven, starts with every
 * atom at the same speed and relaxes to the 2D Maxwell-Boltzmann
 * (Rayleigh) speed distribution
 *     f(v) = (m v / kT) exp(-m v^2 / (2 kT)).
 * Prints the Kolmogorov-Smirnov statistic against it over time, the
 * pressure from the collision virial against Henderson's equation of state
 * (Mol. Phys. 30 (1975) 971), and with cairo draws the final speed
 * histogram over the Rayleigh curve into DIR/gas_speeds.png.
 *
 * Numbers (chosen, realistic): argon atoms, m = 6.63e-26 kg, diameter
 * 3.4e-10 m, at 300 K; 10^4 atoms at packing fraction 0.3 in a periodic box.
 *
 *   examples/gas [--atoms N] [--packing ETA] [--outdir DIR] [--help]
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
#define NBINS 60

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* KS statistic of the speeds against the Rayleigh law at the gas's kT. */
static double ks(const magdyn_gas *g, double *u)
{
    int n = magdyn_gas_discs(g), i;
    magdyn_gas_observables o;
    double d = 0;
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
    for (i = 0; i < n; i++) {
        magdyn_disc a;
        magdyn_gas_get_disc(g, i, &a);
        u[i] = 0.5 * a.mass * magdyn_vec2_norm2(a.v) / o.kt_trans;
    }
    qsort(u, (size_t)n, sizeof *u, cmp);
    for (i = 0; i < n; i++) {
        double f = 1 - exp(-u[i]);
        d = fmax(d, fmax(fabs(f - (double)i / n), fabs(f - (double)(i + 1) / n)));
    }
    return d;
}

#ifdef HAVE_CAIRO
static void draw(const long *h, long total, double vmax, double kt, double m, const char *file)
{
    int wpx = 800, hpx = 500, i;
    double ml = 60, mb = 50, pw = wpx - ml - 20, ph = hpx - mb - 20, fmax_ = 0, bw = vmax / NBINS;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, wpx, hpx);
    cairo_t *cr = cairo_create(s);
    for (i = 0; i < NBINS; i++) fmax_ = fmax(fmax_, h[i] / (total * bw));
    fmax_ *= 1.15;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 0.55, 0.7, 0.9);
    for (i = 0; i < NBINS; i++) {
        double f = h[i] / (total * bw);
        cairo_rectangle(cr, ml + pw * i / NBINS, 20 + ph * (1 - f / fmax_), pw / NBINS - 1, ph * f / fmax_);
    }
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.8, 0.1, 0.1);
    cairo_set_line_width(cr, 2);
    for (i = 0; i <= 400; i++) {
        double v = vmax * i / 400, f = m * v / kt * exp(-m * v * v / (2 * kt));
        double x = ml + pw * v / vmax, y = 20 + ph * (1 - f / fmax_);
        if (i) cairo_line_to(cr, x, y); else cairo_move_to(cr, x, y);
    }
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, ml, 20); cairo_line_to(cr, ml, 20 + ph); cairo_line_to(cr, ml + pw, 20 + ph);
    cairo_stroke(cr);
    cairo_set_font_size(cr, 14);
    for (i = 0; i <= 5; i++) {
        char lab[32];
        snprintf(lab, sizeof lab, "%.0f", vmax * i / 5);
        cairo_move_to(cr, ml + pw * i / 5 - 10, 20 + ph + 20);
        cairo_show_text(cr, lab);
    }
    cairo_move_to(cr, ml + pw / 2 - 60, hpx - 8);
    cairo_show_text(cr, "speed [m/s]");
    cairo_move_to(cr, ml + pw - 330, 45);
    cairo_show_text(cr, "bars: simulation; line: 2D Maxwell-Boltzmann");
    cairo_surface_write_to_png(s, file);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
}
#endif

static void usage(FILE *f, const char *name)
{
    fprintf(f, "usage: %s [--atoms N] [--packing ETA] [--outdir DIR] [--help]\n"
               "  A hard-disc gas started at one speed relaxes to the Maxwell-Boltzmann law.\n"
               "  --atoms N      number of atoms, >= 4, rounded up to a square (default 10000)\n"
               "  --packing ETA  area fraction, 0 < ETA < 0.7 (default 0.3)\n"
               "  --outdir DIR   write gas_speeds.png into DIR (default gas-out)\n"
               "  --help         this text\n", name);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"atoms", required_argument, 0, 'n'}, {"packing", required_argument, 0, 'e'},
        {"outdir", required_argument, 0, 'o'}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int n = 10000, side, i, k, c;
    double eta = 0.3;
    const char *dir = "gas-out";
    char out[1024];
    const double m = 6.63e-26, sigma = 3.4e-10, temp = 300.0, kt = KB * temp;
    double v0 = sqrt(2 * kt / m), a, area, vmax, tau, z, z_h, *u;
    long hist[NBINS] = {0}, total = 0;
    magdyn_gas_params p = magdyn_gas_params_default();
    magdyn_gas *g;
    unsigned long long rng = 88172645463325252ULL;
    magdyn_gas_observables o;
    while ((c = getopt_long(argc, argv, "n:e:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n': n = atoi(optarg); break;
        case 'e': eta = atof(optarg); break;
        case 'o': dir = optarg; break;
        case 'h': usage(stdout, argv[0]); return 0;
        default: usage(stderr, argv[0]); return 2;
        }
    }
    if (optind < argc || n < 4 || n > 100000000 || !(eta > 0 && eta < 0.7)) {
        usage(stderr, argv[0]);
        return 2;
    }
    side = (int)ceil(sqrt((double)n));
    n = side * side;
    a = sigma * sqrt(MAGDYN_PI / (4 * eta));
    p.width = p.height = side * a; p.periodic = 1;
    area = p.width * p.height;
    g = magdyn_gas_new(&p);
    u = malloc(sizeof *u * (size_t)n);
    if (!g || !u) return 1;
    /* every atom at speed v0 = sqrt(2 kT / m) (so that E = N kT), random directions */
    for (i = 0; i < n; i++) {
        magdyn_disc d;
        double th;
        rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
        th = 2 * MAGDYN_PI * (double)((rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
        d.r = magdyn_v2((i % side + 0.5) * a, (i / side + 0.5) * a);
        d.v = magdyn_v2(v0 * cos(th), v0 * sin(th));
        d.mass = m; d.radius = 0.5 * sigma;
        if (magdyn_gas_add_disc(g, &d) < 0) return 1;
    }
    /* mean free time ~ 1 / (2 n sigma chi sqrt(pi kT / m)) (Enskog, 2D) */
    tau = 1.0 / (2 * (n / area) * sigma * (1 - 7 * eta / 16) / ((1 - eta) * (1 - eta)) * sqrt(MAGDYN_PI * kt / m));
    printf("# %d argon discs, eta = %.2f, T = %.0f K, mean free time %.3g s\n", n, eta, temp, tau);
    printf("# collisions/atom   time [s]      KS statistic vs Rayleigh (1%% critical %.4f)\n", 1.63 / sqrt(n));
    printf("%10.2f %14.4g %12.4f\n", 0.0, 0.0, ks(g, u));
    for (k = 1; k <= 40; k++) {
        magdyn_gas_advance(g, k * 0.25 * tau);
        if (k % 4 == 0 || k < 8)
            printf("%10.2f %14.4g %12.4f\n", 2.0 * magdyn_gas_collisions(g) / n, magdyn_gas_time(g), ks(g, u));
    }
    /* averages: pressure from the collision virial, speed histogram */
    magdyn_gas_reset_observables(g);
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
    vmax = 4 * sqrt(o.kt_trans / m);
    for (k = 1; k <= 50; k++) {
        long h[NBINS];
        magdyn_gas_advance(g, magdyn_gas_time(g) + 2 * tau);
        total += magdyn_gas_speed_histogram(g, MAGDYN_GAS_ALL_SPECIES, vmax, NBINS, h);
        for (i = 0; i < NBINS; i++) hist[i] += h[i];
    }
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
    z = o.pressure * area / (n * o.kt_trans);
    z_h = (1 + eta * eta / 8) / ((1 - eta) * (1 - eta));
    printf("# kinetic temperature %.2f K; %lld collisions in the window, %.3g per atom per s\n",
           o.kt_trans / KB, o.collisions, o.collision_rate);
    printf("# Z = PA/NkT = %.4f from the virial, Henderson %.4f (%+.2f %%); from the collision rate %.4f\n",
           z, z_h, 100 * (z / z_h - 1), 1 + o.collision_rate * sigma / 4 * sqrt(MAGDYN_PI * m / o.kt_trans));
#ifdef HAVE_CAIRO
    snprintf(out, sizeof out, "%s/gas_speeds.png", dir);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) perror(dir);
    else {
        draw(hist, total, vmax, o.kt_trans, m, out);
        printf("# wrote %s (%ld speeds in %d bins)\n", out, total, NBINS);
    }
#else
    (void)hist; (void)total; (void)out;
    printf("# built without cairo: no picture\n");
#endif
    free(u);
    magdyn_gas_free(g);
    return 0;
}
