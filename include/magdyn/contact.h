/*
 * magdyn/contact.h - layer 2: contact manifold of two oriented boxes.
 */
#ifndef MAGDYN_CONTACT_H
#define MAGDYN_CONTACT_H

#include <magdyn/sat.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    MAGDYN_CONTACT_FACE_FACE,
    MAGDYN_CONTACT_FACE_EDGE,  /* face of a */
    MAGDYN_CONTACT_EDGE_FACE,  /* face of b */
    MAGDYN_CONTACT_EDGE_EDGE
} magdyn_contact_kind;

#define MAGDYN_MAX_CONTACTS 8

typedef struct {
    magdyn_contact_kind kind;
    magdyn_vec3 normal;                       /* unit, from b towards a */
    int count;
    magdyn_vec3 point[MAGDYN_MAX_CONTACTS];   /* inertial frame */
    double depth[MAGDYN_MAX_CONTACTS];        /* > 0 penetration, < 0 gap */
} magdyn_manifold;

/* Number of contact points; 0 when the boxes are apart by more than margin [m]. */
MAGDYN_API int magdyn_obb_manifold(const magdyn_obb *a, const magdyn_obb *b, double margin,
                                   magdyn_manifold *out);

#ifdef __cplusplus
}
#endif

#endif
