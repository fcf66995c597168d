/*
 * main.c - make validate: libmagdyn against measurements, finite elements
 * and closed forms.  Prints one table (quantity, reference and its source,
 * reference value, libmagdyn's value, relative difference, tolerance,
 * verdict), writes the plots (PNG, with cairo) into a directory, and exits
 * 1 when a row fails.
 *
 *   validate/validate [--quick] [outdir]     (outdir defaults to ./validate-out)
 *
 * Verdicts: PASS and FAIL against a tolerance taken from the reference's own
 * accuracy (a figure's read-off accuracy, finite elements' few per cent, the
 * statistical error of a finite simulation computed from the run, the
 * sampling of a measurement); INFO for a comparison whose reference states
 * no accuracy, shown for discussion.
 */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <magdyn.h>
#include "validate.h"

int main(int argc, char **argv)
{
    vd_run run = {0, "validate-out"};
    int i, fails;
    struct timespec t0, t1;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) run.quick = 1;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: %s [--quick] [outdir]\n", argv[0]);
            return 2;
        } else run.outdir = argv[i];
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (vd_plot_available() && vd_mkdir(run.outdir) != 0) { perror(run.outdir); return 2; }
    printf("libmagdyn %s validation%s\n\n", magdyn_version(), run.quick ? " (--quick: the short subset)" : "");
    fflush(stdout);
    vd_magnets(&run);
    vd_motion(&run);
    vd_discs(&run);
    fails = vd_print();
    vd_free();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (vd_plot_available()) printf("plots written to %s/\n", run.outdir);
    else printf("built without cairo: no plots\n");
    printf("%.1f s\n", (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    return fails ? 1 : 0;
}
