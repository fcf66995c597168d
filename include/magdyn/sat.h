/*
 * magdyn/sat.h - layer 1: separating-axis tests for oriented boxes (3D, 15
 * axes) and rectangles (2D, 4 axes).
 */
#ifndef MAGDYN_SAT_H
#define MAGDYN_SAT_H

#include <magdyn/vec.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An oriented box: centre [m] (inertial), orientation (body to inertial), half extents [m]. */
typedef struct { magdyn_vec3 center; magdyn_quat orientation; magdyn_vec3 half; } magdyn_obb;

typedef struct {
    int overlap;          /* 1 when the boxes intersect or touch */
    double separation;    /* the largest signed separation over the 15 axes: > 0 a gap,
                             < 0 minus the exact minimum penetration (no bias to faces) */
    magdyn_vec3 normal;   /* unit, from b towards a */
    int axis;             /* 0-2 faces of a, 3-5 faces of b, 6-14 edge x edge */
} magdyn_sat_result;

/* Returns out->overlap; out may be NULL. */
MAGDYN_API int magdyn_obb_sat(const magdyn_obb *a, const magdyn_obb *b, magdyn_sat_result *out);

#ifdef __cplusplus
}
#endif

#endif
