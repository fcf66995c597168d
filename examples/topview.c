/* topview.c - see topview.h. */
#include "config.h"
#include <math.h>
#include "topview.h"
#include "render.h"
#ifdef HAVE_CAIRO
#include <cairo.h>

/* Pixels below the square view for the legend. */
#define BAND 60

/* Hue h in [0, 1) at full saturation, scaled by v. */
static void hue(double h, double v, double *r, double *g, double *b)
{
    double x = 6.0 * (h - floor(h)), f = x - floor(x);
    int k = (int)floor(x) % 6;
    double c[6][3] = {{1, f, 0}, {1 - f, 1, 0}, {0, 1, f}, {0, 1 - f, 1}, {f, 0, 1}, {1, 0, 1 - f}};
    *r = v * c[k][0];
    *g = v * c[k][1];
    *b = v * c[k][2];
}

/* The four corners of the face of m whose normal is closest to +z or -z. */
static void top_face(const magdyn_magnet *m, magdyn_vec3 corner[4])
{
    magdyn_vec3 ax[3] = {magdyn_v3(1, 0, 0), magdyn_v3(0, 1, 0), magdyn_v3(0, 0, 1)};
    double h[3] = {m->half.x, m->half.y, m->half.z};
    int k, up = 0, u, v;
    for (k = 0; k < 3; k++) ax[k] = magdyn_quat_rotate(m->orientation, ax[k]);
    for (k = 1; k < 3; k++)
        if (fabs(ax[k].z) > fabs(ax[up].z)) up = k;
    u = (up + 1) % 3;
    v = (up + 2) % 3;
    for (k = 0; k < 4; k++) {
        double su = (k == 0 || k == 3) ? -1 : 1, sv = k < 2 ? -1 : 1;
        magdyn_vec3 p = magdyn_vec3_madd(m->position, su * h[u], ax[u]);
        corner[k] = magdyn_vec3_madd(p, sv * h[v], ax[v]);
    }
}

/* The moment direction wheel in the corner, as a legend. */
static void legend(cairo_t *cr, int size)
{
    double x0 = size - 60, y0 = size + 28, r, g, b;
    int k;
    for (k = 0; k < 36; k++) {
        double a0 = 2 * MAGDYN_PI * k / 36, a1 = 2 * MAGDYN_PI * (k + 1) / 36;
        hue(k / 36.0, 1.0, &r, &g, &b);
        cairo_move_to(cr, x0, y0);
        /* screen y grows downwards: the angle from +x counter-clockwise */
        cairo_arc_negative(cr, x0, y0, 24, -a0, -a1);
        cairo_close_path(cr);
        cairo_set_source_rgb(cr, r, g, b);
        cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_set_font_size(cr, 12.0);
    cairo_move_to(cr, x0 + 27, y0 + 4);
    cairo_show_text(cr, "+x");
}
#endif

int topview_png(const char *path, const magdyn_world *w, double cx, double cy,
                double half_width, int size, const char *caption)
{
#ifdef HAVE_CAIRO
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, size, size + BAND);
    cairo_t *cr = cairo_create(s);
    double scale = 0.5 * (size - 60) / half_width;
    int n = magdyn_world_count(w), i, k, rc;
    cairo_set_source_rgb(cr, 0.98, 0.98, 0.96);
    cairo_paint(cr);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    for (i = 0; i < n; i++) {
        magdyn_magnet m;
        magdyn_vec3 c[4], mi;
        double r = 0.6, g = 0.6, b = 0.6, mn;
        magdyn_world_get(w, i, &m);
        top_face(&m, c);
        for (k = 0; k < 4; k++) {
            double x = 0.5 * size + scale * (c[k].x - cx), y = 0.5 * size - scale * (c[k].y - cy);
            if (k == 0) cairo_move_to(cr, x, y);
            else cairo_line_to(cr, x, y);
        }
        cairo_close_path(cr);
        if (m.fixed) {
            cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
            cairo_set_line_width(cr, 1.5);
            cairo_stroke(cr);
            continue;
        }
        mi = magdyn_quat_rotate(m.orientation, m.moment);
        mn = magdyn_vec3_norm(mi);
        if (mn > 0) hue(atan2(mi.y, mi.x) / (2 * MAGDYN_PI) + 1.0, 0.35 + 0.65 * sqrt(fmax(0.0, 1.0 - mi.z * mi.z / (mn * mn))), &r, &g, &b);
        cairo_set_source_rgb(cr, r, g, b);
        cairo_fill(cr);
    }
    legend(cr, size);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    render_text(cr, caption, 15.0, 12, 22);
    render_text(cr, "seen from above; colour: direction of the moment in the plane "
                    "(wheel), darker: tilted out of it", 12.0, 12, size + 32);
    cairo_destroy(cr);
    rc = cairo_surface_write_to_png(s, path) == CAIRO_STATUS_SUCCESS ? 0 : -1;
    cairo_surface_destroy(s);
    return rc;
#else
    (void)path; (void)w; (void)cx; (void)cy; (void)half_width; (void)size; (void)caption;
    return -1;
#endif
}
