/* plot.c - line and point plots with cairo for the validation run (PNG).
 * Without cairo every call returns -1 and the run says so. */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include <stdio.h>
#include <math.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "validate.h"
#ifdef HAVE_CAIRO
#include <cairo.h>
#endif

int vd_mkdir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST) return 0;
    return -1;
}

int vd_plot_available(void)
{
#ifdef HAVE_CAIRO
    return 1;
#else
    return 0;
#endif
}

#ifdef HAVE_CAIRO
#define W 900
#define H 560
#define ML 90.0
#define MR 20.0
#define MT 40.0
#define MB 60.0

typedef struct { double lo, hi; int log; double px0, px1; } axis;

static double map(const axis *a, double v)
{
    double t = a->log ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo))
                      : (v - a->lo) / (a->hi - a->lo);
    return a->px0 + t * (a->px1 - a->px0);
}

/* A step of 1, 2 or 5 times a power of ten giving about five ticks. */
static double nice_step(double span)
{
    double p = pow(10, floor(log10(span / 5))), f = span / 5 / p;
    return p * (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10);
}

static void range(const vd_series *s, int ns, int want_x, int logscale, double *lo, double *hi)
{
    int i, k;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (k = 0; k < ns; k++)
        for (i = 0; i < s[k].n; i++) {
            double v = want_x ? s[k].x[i] : s[k].y[i];
            if (!isfinite(v) || (logscale && v <= 0)) continue;
            *lo = fmin(*lo, v);
            *hi = fmax(*hi, v);
        }
    if (!(*lo < *hi)) { *lo = isfinite(*lo) ? *lo - 1 : 0; *hi = *lo + 2; }
    if (logscale) {
        *lo = pow(10, floor(log10(*lo)));
        *hi = pow(10, ceil(log10(*hi)));
    } else {
        double pad = 0.05 * (*hi - *lo), st;
        *lo -= pad; *hi += pad;
        st = nice_step(*hi - *lo);
        *lo = floor(*lo / st) * st;
        *hi = ceil(*hi / st) * st;
    }
}

/* A tick label right-aligned against the left edge of the frame. */
static void label_left(cairo_t *cr, double y, const char *lab)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, lab, &e);
    cairo_move_to(cr, ML - 6 - e.x_advance, y + 4);
    cairo_show_text(cr, lab);
}

static void ticks(cairo_t *cr, const axis *a, int vertical, const axis *other)
{
    char lab[32];
    double v, st = nice_step(a->hi - a->lo);
    cairo_set_font_size(cr, 13);
    if (a->log) {
        for (v = a->lo; v <= a->hi * 1.0001; v *= 10) {
            double p = map(a, v);
            snprintf(lab, sizeof lab, "%g", v);
            if (vertical) label_left(cr, p, lab);
            else { cairo_move_to(cr, p - 12, other->px0 + 20); cairo_show_text(cr, lab); }
            cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
            if (vertical) { cairo_move_to(cr, ML, p); cairo_line_to(cr, W - MR, p); }
            else { cairo_move_to(cr, p, MT); cairo_line_to(cr, p, H - MB); }
            cairo_stroke(cr);
            cairo_set_source_rgb(cr, 0, 0, 0);
        }
        return;
    }
    for (v = ceil(a->lo / st - 1e-9) * st; v <= a->hi + 1e-9 * st; v += st) {
        double p = map(a, v);
        snprintf(lab, sizeof lab, "%g", fabs(v) < 1e-12 * st ? 0.0 : v);
        if (vertical) label_left(cr, p, lab);
        else { cairo_move_to(cr, p - 12, other->px0 + 20); cairo_show_text(cr, lab); }
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        if (vertical) { cairo_move_to(cr, ML, p); cairo_line_to(cr, W - MR, p); }
        else { cairo_move_to(cr, p, MT); cairo_line_to(cr, p, H - MB); }
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
    }
}
#endif

int vd_plot(const vd_run *run, const char *name, const vd_axes *ax, const vd_series *s, int ns)
{
#ifdef HAVE_CAIRO
    char path[1024];
    axis xa, ya;
    int k, i, rc, nl, il;
    cairo_surface_t *sf;
    cairo_t *cr;
    snprintf(path, sizeof path, "%s/%s", run->outdir, name);
    xa.log = ax->logx; ya.log = ax->logy;
    if (ax->x0 < ax->x1) { xa.lo = ax->x0; xa.hi = ax->x1; } else range(s, ns, 1, xa.log, &xa.lo, &xa.hi);
    if (ax->y0 < ax->y1) { ya.lo = ax->y0; ya.hi = ax->y1; } else range(s, ns, 0, ya.log, &ya.lo, &ya.hi);
    xa.px0 = ML; xa.px1 = W - MR;
    ya.px0 = H - MB; ya.px1 = MT;
    sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cr = cairo_create(sf);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_line_width(cr, 1);
    ticks(cr, &xa, 0, &ya);
    ticks(cr, &ya, 1, &xa);
    cairo_rectangle(cr, ML, MT, W - ML - MR, H - MT - MB);
    cairo_stroke(cr);
    cairo_save(cr);
    cairo_rectangle(cr, ML, MT, W - ML - MR, H - MT - MB);
    cairo_clip(cr);
    for (k = 0; k < ns; k++) {
        int started = 0;
        double dash = 7;
        cairo_set_source_rgb(cr, s[k].r, s[k].g, s[k].b);
        cairo_set_line_width(cr, 2);
        if (s[k].style == VD_DASH) cairo_set_dash(cr, &dash, 1, 0);
        else cairo_set_dash(cr, NULL, 0, 0);
        for (i = 0; i < s[k].n; i++) {
            double x = s[k].x[i], y = s[k].y[i], px, py;
            if (!isfinite(x) || !isfinite(y) || (xa.log && x <= 0) || (ya.log && y <= 0)) {
                started = 0;
                continue;
            }
            px = map(&xa, x); py = map(&ya, y);
            if (s[k].style == VD_DOTS) {
                cairo_new_sub_path(cr);
                cairo_arc(cr, px, py, 4.5, 0, 2 * 3.14159265358979);
                cairo_fill(cr);
            } else if (started) cairo_line_to(cr, px, py);
            else { cairo_move_to(cr, px, py); started = 1; }
        }
        if (s[k].style != VD_DOTS) cairo_stroke(cr);
    }
    cairo_restore(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    /* legend */
    cairo_set_font_size(cr, 13);
    for (k = 0, nl = 0; k < ns; k++) if (s[k].label) nl++;
    for (k = 0, il = 0; k < ns; k++) {
        double y, x = ax->legend == 2 ? W - MR - 400 : ML + 14;
        if (!s[k].label) continue;
        y = ax->legend == 1 ? H - MB - 12 - 18 * (nl - 1 - il) : MT + 18 + 18 * il;
        il++;
        cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
        cairo_rectangle(cr, x - 4, y - 12, 380, 18);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, s[k].r, s[k].g, s[k].b);
        if (s[k].style == VD_DOTS) { cairo_arc(cr, x + 12, y - 4, 4.5, 0, 6.2832); cairo_fill(cr); }
        else {
            double dash = 7;
            if (s[k].style == VD_DASH) cairo_set_dash(cr, &dash, 1, 0);
            cairo_set_line_width(cr, 2);
            cairo_move_to(cr, x, y - 4); cairo_line_to(cr, x + 26, y - 4); cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
        }
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_move_to(cr, x + 34, y);
        cairo_show_text(cr, s[k].label);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 16);
    cairo_move_to(cr, ML, 26);
    cairo_show_text(cr, ax->title);
    cairo_set_font_size(cr, 14);
    cairo_move_to(cr, ML + (W - ML - MR) / 2 - 60, H - 14);
    cairo_show_text(cr, ax->xlabel);
    cairo_save(cr);
    cairo_move_to(cr, 22, MT + (H - MT - MB) / 2 + 60);
    cairo_rotate(cr, -3.14159265358979 / 2);
    cairo_show_text(cr, ax->ylabel);
    cairo_restore(cr);
    cairo_destroy(cr);
    rc = cairo_surface_write_to_png(sf, path) == CAIRO_STATUS_SUCCESS ? 0 : -1;
    cairo_surface_destroy(sf);
    return rc;
#else
    (void)run; (void)name; (void)ax; (void)s; (void)ns;
    return -1;
#endif
}
