/*
 * field-map - |B| and field lines in the x-z plane through one magnet or a
 * pair, from the exact cuboid field (magdyn_cuboid_field_at).
 *
 *   examples/field-map [--scene single|pair|tilted] [--outdir DIR] [--help]
 *
 * Magnets: 10 mm NdFeB cubes, J = 1.2 T along z; the pair (the default
 * scene) stands 4 mm apart on the z axis; "tilted" turns the upper one by
 * 30 degrees about y.  Prints the field along the z axis and, when cairo
 * was found by configure, writes DIR/field-map-SCENE.png (DIR by default
 * "field-map-out", created when missing).
 */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <errno.h>
#include <getopt.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <magdyn.h>
#ifdef HAVE_CAIRO
#include <cairo.h>
#endif

#define W 640
#define H 480
#define SPAN_X 0.060     /* m across the picture */

typedef struct { magdyn_cuboid m[2]; int n; } scene;

static magdyn_vec3 field(const scene *s, double x, double z)
{
    magdyn_vec3 b = magdyn_v3(0, 0, 0);
    int i;
    for (i = 0; i < s->n; i++)
        b = magdyn_vec3_add(b, magdyn_cuboid_field_at(&s->m[i], magdyn_v3(x, 0, z)));
    return b;
}

static void make_scene(scene *s, const char *kind)
{
    magdyn_cuboid c = {{0.005, 0.005, 0.005}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}};
    s->n = 1;
    s->m[0] = c;
    if (strcmp(kind, "single") != 0) {
        s->n = 2;
        s->m[0].center = magdyn_v3(0, 0, -0.007);
        s->m[1] = c;
        s->m[1].center = magdyn_v3(0, 0, 0.007);
        if (strcmp(kind, "tilted") == 0) {
            s->m[1].orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), MAGDYN_PI / 6);
            s->m[1].center = magdyn_v3(0.002, 0, 0.009);
        }
    }
}

#ifdef HAVE_CAIRO
static double px_x(double x) { return (x / SPAN_X + 0.5) * W; }
static double px_z(double z) { return (0.5 - z / SPAN_X * W / H) * H; }

/* a colour map from dark blue through red to yellow, t in [0, 1] */
static void colour(double t, double *r, double *g, double *b)
{
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    *r = fmin(1.0, 2.0 * t);
    *g = t < 0.5 ? 0.15 * t : 1.6 * (t - 0.5);
    *b = t < 0.5 ? 0.45 * (1 - 2 * t) + 0.2 : 0.1;
}

/* trace a field line with RK4 on the unit direction field, both ways */
static void trace(cairo_t *cr, const scene *s, double x0, double z0)
{
    int dir;
    double h = 0.0002;
    for (dir = -1; dir <= 1; dir += 2) {
        double x = x0, z = z0;
        int k;
        cairo_move_to(cr, px_x(x), px_z(z));
        for (k = 0; k < 1500; k++) {
            double kx[4], kz[4], xs = x, zs = z;
            int st;
            for (st = 0; st < 4; st++) {
                magdyn_vec3 b = field(s, xs, zs);
                double n = hypot(b.x, b.z);
                if (!(n > 0)) return;
                kx[st] = dir * b.x / n;
                kz[st] = dir * b.z / n;
                if (st < 3) {
                    double f = st < 2 ? 0.5 : 1.0;
                    xs = x + f * h * kx[st];
                    zs = z + f * h * kz[st];
                }
            }
            x += h / 6 * (kx[0] + 2 * kx[1] + 2 * kx[2] + kx[3]);
            z += h / 6 * (kz[0] + 2 * kz[1] + 2 * kz[2] + kz[3]);
            cairo_line_to(cr, px_x(x), px_z(z));
            if (fabs(x) > SPAN_X || fabs(z) > SPAN_X) break;
        }
        cairo_stroke(cr);
    }
}

static int draw(const scene *s, const char *path)
{
    cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    unsigned char *data = cairo_image_surface_get_data(sf);
    int stride = cairo_image_surface_get_stride(sf), i, j, k;
    cairo_t *cr;
    cairo_surface_flush(sf);
    /* |B| on a log scale from 1 mT to 1 T */
    for (j = 0; j < H; j++)
        for (i = 0; i < W; i++) {
            double x = ((i + 0.5) / W - 0.5) * SPAN_X, z = (0.5 - (j + 0.5) / H) * SPAN_X * H / W;
            double bm = magdyn_vec3_norm(field(s, x, z)), r, g, b;
            uint32_t *p = (uint32_t *)(void *)(data + j * stride) + i;
            colour((log10(bm + 1e-9) + 3.0) / 3.0, &r, &g, &b);
            *p = ((uint32_t)(r * 255) << 16) | ((uint32_t)(g * 255) << 8) | (uint32_t)(b * 255);
        }
    cairo_surface_mark_dirty(sf);
    cr = cairo_create(sf);
    cairo_set_line_width(cr, 1.0);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.75);
    /* field lines seeded across the magnets' mid-planes */
    for (k = 0; k < s->n; k++)
        for (i = -4; i <= 4; i++) {
            magdyn_vec3 off = magdyn_quat_rotate(s->m[k].orientation, magdyn_v3(i * 0.0011, 0, 0));
            trace(cr, s, s->m[k].center.x + off.x, s->m[k].center.z + off.z);
        }
    /* magnet outlines */
    cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
    cairo_set_line_width(cr, 2.0);
    for (k = 0; k < s->n; k++) {
        const magdyn_cuboid *m = &s->m[k];
        static const double cx[4] = {-1, 1, 1, -1}, cz[4] = {-1, -1, 1, 1};
        for (i = 0; i < 4; i++) {
            magdyn_vec3 c = magdyn_vec3_add(m->center, magdyn_quat_rotate(m->orientation,
                                            magdyn_v3(cx[i] * m->half.x, 0, cz[i] * m->half.z)));
            if (i == 0) cairo_move_to(cr, px_x(c.x), px_z(c.z));
            else cairo_line_to(cr, px_x(c.x), px_z(c.z));
        }
        cairo_close_path(cr);
        cairo_stroke(cr);
    }
    cairo_destroy(cr);
    i = cairo_surface_write_to_png(sf, path) == CAIRO_STATUS_SUCCESS;
    cairo_surface_destroy(sf);
    return i;
}
#endif

static void usage(FILE *f, const char *name)
{
    fprintf(f, "usage: %s [--scene single|pair|tilted] [--outdir DIR] [--help]\n"
               "  |B| and field lines in the x-z plane through 10 mm cubes, J = 1.2 T.\n"
               "  --scene S     single: one cube; pair: two on the z axis 4 mm apart (default);\n"
               "                tilted: the upper one of the pair turned 30 degrees\n"
               "  --outdir DIR  write field-map-S.png into DIR (default field-map-out)\n"
               "  --help        this text\n", name);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"scene", required_argument, 0, 's'}, {"outdir", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},        {0, 0, 0, 0}};
    const char *kind = "pair", *dir = "field-map-out";
    char out[1024];
    scene s;
    double z;
    int c;
    while ((c = getopt_long(argc, argv, "s:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 's': kind = optarg; break;
        case 'o': dir = optarg; break;
        case 'h': usage(stdout, argv[0]); return 0;
        default: usage(stderr, argv[0]); return 2;
        }
    }
    if (optind < argc || (strcmp(kind, "single") && strcmp(kind, "pair") && strcmp(kind, "tilted"))) {
        usage(stderr, argv[0]);
        return 2;
    }
    snprintf(out, sizeof out, "%s/field-map-%s.png", dir, kind);
    make_scene(&s, kind);
    printf("field-map: %s, %d magnet(s) of 10 mm, J = 1.2 T; plane y = 0, %.0f x %.0f mm\n",
           kind, s.n, SPAN_X * 1e3, SPAN_X * 1e3 * H / W);
    printf("  B_z on the z axis:");
    for (z = -0.02; z <= 0.0201; z += 0.01) printf(" %+.0f mm: %.4f T;", z * 1e3, field(&s, 0, z).z);
    printf("\n");
#ifdef HAVE_CAIRO
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        perror(dir);
        return 1;
    }
    if (!draw(&s, out)) {
        fprintf(stderr, "field-map: could not write %s\n", out);
        return 1;
    }
    printf("  wrote %s (%dx%d: |B| from 1 mT to 1 T on a log scale, field lines in white)\n", out, W, H);
#else
    (void)out;
    printf("  cairo not found by configure: picture skipped\n");
#endif
    return 0;
}
