/*
 * same_manifold.h - same_manifold, shared by test/test_contact.c and
 * bench/collide.c (which includes it as "../test/same_manifold.h"): the
 * batched manifolds must match the single calls to the last bit.  Needs no
 * check, so the benchmark can use it.
 */
#ifndef MAGDYN_SAME_MANIFOLD_H
#define MAGDYN_SAME_MANIFOLD_H

#include <magdyn.h>

/* 1 when two manifolds are the same to the last bit, feature ids
 * included (all of them: the unused ones are 0 in both) */
static inline int same_manifold(const magdyn_manifold *x, const magdyn_manifold *y)
{
    int i;
    if (x->count != y->count || x->kind != y->kind || x->normal.x != y->normal.x
        || x->normal.y != y->normal.y || x->normal.z != y->normal.z)
        return 0;
    for (i = 0; i < x->count; i++)
        if (x->point[i].x != y->point[i].x || x->point[i].y != y->point[i].y
            || x->point[i].z != y->point[i].z || x->depth[i] != y->depth[i])
            return 0;
    for (i = 0; i < MAGDYN_MAX_CONTACTS; i++)
        if (x->id[i] != y->id[i]) return 0;
    return 1;
}

#endif
