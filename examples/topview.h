/*
 * topview.h - a picture of many small magnets seen from straight above,
 * for the chains example: each cube as the square of its face that looks
 * most nearly up, turned as the cube is, coloured by the direction of its
 * moment in the plane (hue) and darkened as the moment tilts out of the
 * plane; fixed boxes are drawn as outlines.  Not part of the library.
 */
#ifndef EXAMPLES_TOPVIEW_H
#define EXAMPLES_TOPVIEW_H

#include <magdyn.h>

/* Draw w into a PNG of size x (size + 60) pixels (a legend below) showing the square of half side
 * half_width [m] centred on (cx, cy), with a caption.  Returns 0, or -1
 * (built without cairo, or a write error). */
int topview_png(const char *path, const magdyn_world *w, double cx, double cy,
                double half_width, int size, const char *caption);

#endif
