/*
 * validate.h - the validation program (make validate): libmagdyn's answers
 * against measurements, finite elements and closed forms, printed as one
 * table, with plots.  Not part of the library; it uses <magdyn.h> only.
 */
#ifndef VALIDATE_VALIDATE_H
#define VALIDATE_VALIDATE_H

#include <stddef.h>
#include <magdyn.h>

/* What a run does and where it writes. */
typedef struct {
    int quick;            /* 1: the short subset for CI */
    const char *outdir;   /* plots go here */
} vd_run;

/* ---- the table (table.c) ------------------------------------------------ */

typedef enum { VD_PASS, VD_FAIL, VD_INFO } vd_verdict;

/* Start a section heading in the table. */
void vd_section(const char *title);

/* A row whose tolerance is relative: |val - ref| <= tol |ref|. */
void vd_rel(const char *quantity, const char *source, double ref, double val, double tol);
/* A row whose tolerance is absolute: |val - ref| <= tol, in the row's unit. */
void vd_abs(const char *quantity, const char *source, double ref, double val, double tol);
/* A row shown for discussion: the reference states no accuracy. */
void vd_info(const char *quantity, const char *source, double ref, double val);
/* A row with its own measure: diff (shown as the relative difference),
 * pass decided by the caller, tolerance as text. */
void vd_custom(const char *quantity, const char *source, double ref, double val,
               double diff, const char *tolerance, vd_verdict verdict);
/* A row saying what was skipped and why. */
void vd_skip(const char *quantity, const char *why);

/* Print the table to stdout; returns the number of FAIL rows. */
int vd_print(void);
void vd_free(void);

/* ---- plots (plot.c) ----------------------------------------------------- */

typedef enum { VD_LINE, VD_DASH, VD_DOTS } vd_style;
typedef struct {
    const double *x, *y;
    int n;
    vd_style style;
    double r, g, b;
    const char *label;
} vd_series;
typedef struct {
    const char *title, *xlabel, *ylabel;
    int logx, logy;          /* logarithmic axes (positive data only) */
    double x0, x1, y0, y1;   /* ranges; x0 == x1 (or y0 == y1): from the data */
    int legend;              /* 0 top left, 1 bottom left, 2 top right */
} vd_axes;

/* 1 when built with cairo. */
int vd_plot_available(void);
/* Write outdir/name (PNG, 900 x 560).  Returns 0, or -1 (no cairo, I/O). */
int vd_plot(const vd_run *run, const char *name, const vd_axes *ax,
            const vd_series *s, int ns);
/* Make outdir; 0 on success or when it exists. */
int vd_mkdir(const char *path);

/* ---- the comparisons ---------------------------------------------------- */

void vd_magnets(const vd_run *run);   /* magnets.c */
void vd_motion(const vd_run *run);    /* motion.c */
void vd_discs(const vd_run *run);     /* discs.c */

/* ODE's run of the torque-free box (ode_peer.c); returns 0, or -1 when
 * the program was built without ODE.  Fills the energy's relative change
 * over t_end and the flip count (sign changes of the body-frame omega_y),
 * the first max_flips flip times in flip_t. */
int vd_ode_spin(const double inertia[3], const double omega0[3], double t_end,
                double h, int gyroscopic, double *energy_err, int *flips, double *flip_t,
                int max_flips);

/* ---- small numerics (numeric.c) ----------------------------------------- */

double vd_carlson_rf(double x, double y, double z);   /* Carlson's R_F */
double vd_ellip_k(double kc2);        /* K(k) from the complementary k'^2 */
unsigned long long vd_rng_next(unsigned long long *s);
double vd_uniform(unsigned long long *s);    /* [0, 1) */
double vd_gauss(unsigned long long *s);      /* standard normal */
/* (scale g_x, scale g_y), g standard normals drawn y first, in a fixed order */
magdyn_vec2 vd_gauss_pair(double scale, unsigned long long *s);
/* Mean and standard error of the mean of n block values. */
void vd_mean_err(const double *x, int n, double *mean, double *err);

#endif
