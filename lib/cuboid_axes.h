/*
 * cuboid_axes.h - private to libmagdyn: a box's axes, faces and edges in
 * its body frame, by index, for the modules of the cuboid model.
 */
#ifndef MAGDYN_CUBOID_AXES_H
#define MAGDYN_CUBOID_AXES_H

#include <magdyn/vec.h>

/* Component k (0 x, 1 y, 2 z) of v. */
static inline double cf_comp(magdyn_vec3 v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }
static inline void cf_set(magdyn_vec3 *v, int k, double x)
{ if (k == 0) v->x = x; else if (k == 1) v->y = x; else v->z = x; }

/* s times the unit vector of axis k. */
static inline magdyn_vec3 cf_axis(int k, double s)
{
    magdyn_vec3 v = {0.0, 0.0, 0.0};
    cf_set(&v, k, s);
    return v;
}

/* The midpoint of edge e = 4 d + 2 b1 + b2 (0-11) of a box of half extents
 * h: the edge runs along axis d, on the side b1 of axis d + 1 and the side
 * b2 of axis d + 2 (mod 3; a set bit is the - side), from -h_d to h_d. */
static inline magdyn_vec3 cf_edge_mid(magdyn_vec3 h, int e)
{
    int d = e / 4, d1 = (d + 1) % 3, d2 = (d + 2) % 3;
    magdyn_vec3 c = {0.0, 0.0, 0.0};
    cf_set(&c, d1, ((e & 2) ? -1.0 : 1.0) * cf_comp(h, d1));
    cf_set(&c, d2, ((e & 1) ? -1.0 : 1.0) * cf_comp(h, d2));
    return c;
}

#endif
