/* render.c - see render.h. */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <errno.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include "render.h"
#ifdef HAVE_CAIRO
#include <cairo.h>
#endif

extern char **environ;

static const char *kind_name(magdyn_contact_kind k)
{
    switch (k) {
    case MAGDYN_CONTACT_FACE_FACE: return "face-face";
    case MAGDYN_CONTACT_FACE_EDGE: return "face-edge";
    case MAGDYN_CONTACT_EDGE_FACE: return "edge-face";
    case MAGDYN_CONTACT_EDGE_EDGE: return "edge-edge";
    }
    return "?";
}

int render_available(void)
{
#ifdef HAVE_CAIRO
    return 1;
#else
    return 0;
#endif
}

int render_mkdir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST) return 0;
    return -1;
}

int render_open_run(const char *dir, const char *name, int frames, FILE **csv, FILE **log)
{
    char path[4096];
    if (render_mkdir(dir) != 0) { perror(dir); return -1; }
    snprintf(path, sizeof path, "%s/frames", dir);
    if (frames && render_available() && render_mkdir(path) != 0) { perror(path); return -1; }
    snprintf(path, sizeof path, "%s/%s.csv", dir, name);
    if (!(*csv = fopen(path, "w"))) { perror(path); return -1; }
    snprintf(path, sizeof path, "%s/%s_collisions.csv", dir, name);
    if (!(*log = fopen(path, "w"))) { perror(path); fclose(*csv); return -1; }
    render_log_header(*log);
    return 0;
}

void render_csv_header(FILE *f, int n)
{
    int i;
    fprintf(f, "t");
    for (i = 0; i < n; i++)
        fprintf(f, ",x%d,y%d,z%d,qw%d,qx%d,qy%d,qz%d,vx%d,vy%d,vz%d,wx%d,wy%d,wz%d",
                i, i, i, i, i, i, i, i, i, i, i, i, i);
    fprintf(f, ",energy\n");
}

void render_csv_row(FILE *f, const magdyn_world *w)
{
    int i, n = magdyn_world_count(w);
    fprintf(f, "%.9g", magdyn_world_time(w));
    for (i = 0; i < n; i++) {
        magdyn_magnet m;
        magdyn_world_get(w, i, &m);
        fprintf(f, ",%.9g,%.9g,%.9g,%.12g,%.12g,%.12g,%.12g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g",
                m.position.x, m.position.y, m.position.z, m.orientation.w, m.orientation.x,
                m.orientation.y, m.orientation.z, m.velocity.x, m.velocity.y, m.velocity.z,
                m.omega.x, m.omega.y, m.omega.z);
    }
    fprintf(f, ",%.12g\n", magdyn_world_energy(w));
}

void render_log_header(FILE *f)
{
    fprintf(f, "time,i,j,kind,nx,ny,nz,points,speed,Jx,Jy,Jz,resting\n");
}

void render_log_collision(const magdyn_collision *c, void *user)
{
    FILE *f = user;
    fprintf(f, "%.9f,%d,%d,%s,%.6f,%.6f,%.6f,%d,%.6g,%.6g,%.6g,%.6g,%d\n", c->time, c->i, c->j,
            kind_name(c->kind), c->normal.x, c->normal.y, c->normal.z, c->count, c->speed,
            c->total_impulse.x, c->total_impulse.y, c->total_impulse.z, c->resting);
    printf("  collision at %8.3f ms: magnets %d-%d, %-9s, %d point%s, %.3g m/s\n", c->time * 1e3,
           c->i, c->j, kind_name(c->kind), c->count, c->count == 1 ? "" : "s", c->speed);
}

/* Runs ffmpeg from PATH with an argument vector (no shell sees the
 * directory name).  Returns its exit status, or -1 when it cannot run. */
static int run_ffmpeg(char *const argv[])
{
    pid_t pid;
    int status;
    if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ) != 0) return -1;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

int render_video(const char *dir, const char *name, int fps)
{
    char rate[32], in[1024], out[1024];
    char *argv[] = {"ffmpeg", "-loglevel", "error", "-y", "-framerate", rate, "-i", in,
                    "-pix_fmt", "yuv420p", "-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2", out, NULL};
    int rc;
    snprintf(rate, sizeof rate, "%d", fps);
    snprintf(in, sizeof in, "%s/frames/frame_%%05d.png", dir);
    snprintf(out, sizeof out, "%s/%s.mp4", dir, name);
    rc = run_ffmpeg(argv);
    if (rc == 0) {
        printf("video: %s\n", out);
        return 0;
    }
    printf("%s: frames left in %s/frames; to make the video:\n"
           "  ffmpeg -framerate %d -i '%s' -pix_fmt yuv420p -vf 'scale=trunc(iw/2)*2:trunc(ih/2)*2' '%s'\n",
           rc < 0 ? "ffmpeg not found on PATH" : "ffmpeg failed", dir, fps, in, out);
    return -1;
}

#ifdef HAVE_CAIRO
void render_text(cairo_t *cr, const char *text, double size, double x, double y)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, text);
}

/* Camera: looking from the view's azimuth and elevation, z up. */
static void basis(const render_view *v, magdyn_vec3 *right, magdyn_vec3 *up, magdyn_vec3 *toward)
{
    int dflt = v->azimuth == 0.0 && v->elevation == 0.0;
    double az = (dflt ? 35.0 : v->azimuth) * MAGDYN_PI / 180;
    double el = (dflt ? 25.0 : v->elevation) * MAGDYN_PI / 180;
    *toward = magdyn_v3(cos(el) * sin(az), -cos(el) * cos(az), sin(el));
    *right = magdyn_v3(cos(az), sin(az), 0);
    *up = magdyn_vec3_cross(*toward, *right);
    *up = magdyn_vec3_scale(*up, -1.0);
    if (up->z < 0) *up = magdyn_vec3_scale(*up, -1.0);
}

typedef struct { double depth; int i; } order;

static int by_depth(const void *a, const void *b)
{
    double da = ((const order *)a)->depth, db = ((const order *)b)->depth;
    return (da > db) - (da < db);
}
#endif

int render_png(const char *path, const magdyn_world *w, const render_view *v, int width,
               int height, const char *caption)
{
#ifdef HAVE_CAIRO
    static const int faces[6][4] = {{1, 3, 7, 5}, {0, 4, 6, 2}, {2, 6, 7, 3},
                                    {0, 1, 5, 4}, {4, 5, 7, 6}, {0, 2, 3, 1}};
    static const double fn[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    magdyn_vec3 right, up, toward, light;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    cairo_t *cr = cairo_create(s);
    int n = magdyn_world_count(w), i, f, k, rc;
    double scale = 0.5 * width / v->half_width;
    order *ord = malloc((size_t)(n > 0 ? n : 1) * sizeof *ord);
    basis(v, &right, &up, &toward);
    light = magdyn_v3(0.3, -0.5, 0.8);
    light = magdyn_vec3_scale(light, 1.0 / magdyn_vec3_norm(light));
    cairo_set_source_rgb(cr, 0.97, 0.97, 0.95);
    cairo_paint(cr);
    for (i = 0; i < n; i++) {
        magdyn_magnet m;
        magdyn_world_get(w, i, &m);
        ord[i].i = i;
        ord[i].depth = magdyn_vec3_dot(m.position, toward);
    }
    qsort(ord, (size_t)n, sizeof *ord, by_depth);
    for (k = 0; k < n; k++) {
        magdyn_magnet m;
        magdyn_vec3 c[8], mb;
        double px[8], py[8], mn;
        int j;
        i = ord[k].i;
        magdyn_world_get(w, i, &m);
        for (j = 0; j < 8; j++) {
            magdyn_vec3 lb = magdyn_v3((j & 1) ? m.half.x : -m.half.x, (j & 2) ? m.half.y : -m.half.y,
                                       (j & 4) ? m.half.z : -m.half.z);
            c[j] = magdyn_vec3_add(m.position, magdyn_quat_rotate(m.orientation, lb));
            px[j] = 0.5 * width + scale * magdyn_vec3_dot(magdyn_vec3_sub(c[j], v->center), right);
            py[j] = 0.5 * height - scale * magdyn_vec3_dot(magdyn_vec3_sub(c[j], v->center), up);
        }
        mn = magdyn_vec3_norm(m.moment);
        mb = mn > 0 ? magdyn_vec3_scale(m.moment, 1.0 / mn) : magdyn_v3(0, 0, 0);
        for (f = 0; f < 6; f++) {
            magdyn_vec3 nb = magdyn_v3(fn[f][0], fn[f][1], fn[f][2]);
            magdyn_vec3 ni = magdyn_quat_rotate(m.orientation, nb);
            double shade = 0.45 + 0.55 * fmax(0.0, magdyn_vec3_dot(ni, light)), pole = magdyn_vec3_dot(nb, mb);
            double r = 0.62, g = 0.64, b = 0.68;   /* nickel plating */
            if (magdyn_vec3_dot(ni, toward) <= 0) continue;
            if (pole > 0.9) { r = 0.85; g = 0.2; b = 0.2; }        /* north face */
            else if (pole < -0.9) { r = 0.2; g = 0.35; b = 0.85; } /* south face */
            cairo_move_to(cr, px[faces[f][0]], py[faces[f][0]]);
            for (j = 1; j < 4; j++) cairo_line_to(cr, px[faces[f][j]], py[faces[f][j]]);
            cairo_close_path(cr);
            cairo_set_source_rgb(cr, r * shade, g * shade, b * shade);
            cairo_fill_preserve(cr);
            cairo_set_source_rgb(cr, m.fixed ? 0.0 : 0.25, 0.1, 0.1);
            cairo_set_line_width(cr, m.fixed ? 2.0 : 1.0);
            cairo_stroke(cr);
        }
    }
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    render_text(cr, caption, 16.0, 12, 24);
    render_text(cr, "red: north face, blue: south face, thick outline: held fixed", 12.0, 12, height - 12);
    free(ord);
    cairo_destroy(cr);
    rc = cairo_surface_write_to_png(s, path) == CAIRO_STATUS_SUCCESS ? 0 : -1;
    cairo_surface_destroy(s);
    return rc;
#else
    (void)path; (void)w; (void)v; (void)width; (void)height; (void)caption;
    return -1;
#endif
}

magdyn_status render_record(magdyn_world *w, double t_end, FILE *csv, double csv_dt,
                            const char *dir, const char *name, const render_view *view,
                            double first_frame, render_schedule next, void *user,
                            int *nframes)
{
    /* a frame and a CSV row due within EPS of each other are taken at one
     * time, so that no advance covers a sliver of rounding error */
    const double eps = 1e-12;
    double t_frame = first_frame, t_csv = csv_dt;
    char path[1024], cap[256];
    magdyn_status s = MAGDYN_OK;
    int nframe = 0;
    long ncsv = 1;
    while (magdyn_world_time(w) < t_end) {
        double t = fmin(fmin(t_frame, t_csv), t_end);
        int row = t_csv - t <= eps || t == t_end, frame = t_frame - t <= eps;
        if ((s = magdyn_world_advance(w, t)) != MAGDYN_OK) break;
        if (row) {
            render_csv_row(csv, w);
            t_csv = ++ncsv * csv_dt;
        }
        if (frame) {
            snprintf(path, sizeof path, "%s/frames/frame_%05d.png", dir, nframe++);
            snprintf(cap, sizeof cap, "%s: t = %7.3f ms", name, t * 1e3);
            render_png(path, w, view, 480, 360, cap);
            t_frame = next(t_frame, user);
        }
    }
    if (nframes) *nframes = nframe;
    return magdyn_world_time(w) < t_end ? s : MAGDYN_OK;
}
