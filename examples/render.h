/*
 * render.h - pictures and trajectories for the magnet examples (snap,
 * repel, pile): CSV trajectory and collision log, PNG frames drawn with cairo,
 * and an mp4 assembled by ffmpeg when it is on PATH.  Not part of the
 * library.
 */
#ifndef EXAMPLES_RENDER_H
#define EXAMPLES_RENDER_H

#include <stdio.h>
#include <magdyn.h>

/* A fixed orthographic camera: the scene centre [m], the half width of
 * the view [m], and the direction it looks from: azimuth and elevation
 * [deg] (both 0: the default oblique view, 35 and 25). */
typedef struct {
    magdyn_vec3 center;
    double half_width;
    double azimuth, elevation;
} render_view;

/* 1 when the examples were built with cairo. */
int render_available(void);

#ifdef HAVE_CAIRO
#include <cairo.h>
/* One line of text in the examples' sans-serif face, size [px], its
 * baseline starting at (x, y) [px], in the current source colour. */
void render_text(cairo_t *cr, const char *text, double size, double x, double y);
#endif

/* Draw the magnets of w at its current time into a PNG of w x h pixels,
 * with a caption.  Returns 0, or -1 (no cairo, or a write error). */
int render_png(const char *path, const magdyn_world *w, const render_view *v,
               int width, int height, const char *caption);

/* Trajectory CSV: header, then one row per call (time, per magnet x y z,
 * qw qx qy qz, vx vy vz, wx wy wz; then energy). */
void render_csv_header(FILE *f, int n);
void render_csv_row(FILE *f, const magdyn_world *w);

/* A collision callback writing CSV rows to the FILE * given as user. */
void render_log_collision(const magdyn_collision *c, void *user);
void render_log_header(FILE *f);

/* Assemble dir/frames/frame_%05d.png into dir/name.mp4 at fps with ffmpeg,
 * run from PATH with an argument vector (no shell); prints what it did, or
 * the command that would do it when ffmpeg is missing or fails.  Returns 0
 * when the video was made. */
int render_video(const char *dir, const char *name, int fps);

/* The next frame time after a frame at t (INFINITY: no more frames). */
typedef double (*render_schedule)(double t, void *user);

/* Advance w to t_end, appending a CSV row to csv every csv_dt and at the end,
 * and writing dir/frames/frame_%05d.png (480 x 360, captioned "name: t = ..")
 * at first_frame and then at the times next gives (first_frame INFINITY: no
 * frames); *nframes (may be NULL) gets the number of frames.  Returns the status of the advance that failed, or MAGDYN_OK. */
magdyn_status render_record(magdyn_world *w, double t_end, FILE *csv, double csv_dt,
                            const char *dir, const char *name, const render_view *view,
                            double first_frame, render_schedule next, void *user,
                            int *nframes);

/* mkdir -p for one level; 0 on success or when it exists. */
int render_mkdir(const char *path);

/* The outputs of a recorded run into dir: the directory itself, dir/frames
 * when frames and cairo are on, *csv = dir/name.csv and *log =
 * dir/name_collisions.csv with its header.  Returns 0, or -1 after saying
 * what failed (perror), with nothing left open. */
int render_open_run(const char *dir, const char *name, int frames, FILE **csv, FILE **log);

#endif
