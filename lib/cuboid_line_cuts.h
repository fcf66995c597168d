/*
 * cuboid_line_cuts.h - private to libmagdyn (cuboid_boundary.c): where the
 * lines of the boundary integrals have kinks.  Integrands along a line
 * carry x ln x kinks at the line's points nearest the other box's edges;
 * the line is cut there (and its ends marked kinks when an edge comes
 * near them), so that each piece is smooth for Gauss-Kronrod.
 */
#ifndef MAGDYN_CUBOID_LINE_CUTS_H
#define MAGDYN_CUBOID_LINE_CUTS_H

#include <magdyn/vec.h>

/* Cuts per line: 12 segments, three candidate points each, and the ends. */
#define MDC_MAX_CUTS 38

/* A segment c + s u, |s| <= h (u a unit vector): an edge of the other box,
 * whose nearest points cut the lines. */
typedef struct {
    magdyn_vec3 c, u;
    double h;
} mdc_segment;

/* The kinks along the line p0 + l d (l in [0, 1], length len [m]): its
 * points nearest the segments sg[0 .. ns) (to the segment's nearest
 * point, and to its ends) within a fifth of its length; sorted, from 0 to
 * 1, duplicates dropped; near[0], near[1] whether its ends are kinks too.
 * Returns the number of cuts (at least 2: the ends). */
int mdc_line_cuts(magdyn_vec3 p0, magdyn_vec3 d, double len, const mdc_segment *sg, int ns,
                  double cuts[MDC_MAX_CUTS], int near[2]);

/* The 12 edges of a box of half extents half as segments, in its frame
 * (edges numbered as cuboid_axes.h). */
void mdc_box_segments(magdyn_vec3 half, mdc_segment sg[12]);

#endif
