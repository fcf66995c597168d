/*
 * dipole_tree_walk.h - private to the hierarchical dipole sum: its octree
 * (lib/dipole_tree.c) and the traversal over it (lib/dipole_tree_walk.c).
 * Coordinates are scaled to the root cube [-1, 1]^3.
 */
#ifndef MAGDYN_DIPOLE_TREE_WALK_H
#define MAGDYN_DIPOLE_TREE_WALK_H

#include <stddef.h>
#include "dipole_tree.h"

typedef struct {
    double z[3];      /* expansion centre (scaled) */
    double r;         /* radius about z of the cell's dipoles */
    double mmax, msum;/* the largest |m| of the cell's dipoles, and the sum of all */
    double smin;      /* a lower bound of S_i over the cell's dipoles (see near_scale) */
    double box[3];    /* octree box centre */
    double half;      /* octree box half size */
    int begin, count; /* dipoles, in tree order */
    int child, nchild;/* children, contiguous; nchild 0 for a leaf */
} cell;

/* a pair of cells from the traversal: through expansions of the given
 * order, or directly (order 0; a == b for a leaf with itself) */
typedef struct { int a, b, order; } pair;

typedef struct {
    pair *v;
    size_t n, cap;
} pair_list;

typedef struct {
    dt_tables t;
    double theta;
    double tol;                  /* 0: the opening angle alone */
    double err_model;            /* theta^(p+1) (p+3)^3: the far pairs' error */
    pair_list far, near;
    int oom;
    int ncrit;
    double p2p_pairs;            /* cell pairs up to this many pairs go direct */
    cell *cells;
    int ncells, cap;
    int *perm;                   /* tree order -> input index */
    double *x, *y, *z, *mx, *my, *mz;
    double *Q, *L;               /* nterms per cell */
    double *Qr;                  /* nred per cell: Q folded (dt_fold) */
    double *g, *hm;              /* 3 per dipole */
    double *w1, *w2;             /* nterms scratch */
    double *wm;                  /* dt_m2l_work and dt_leaf_work scratch */
} tree;

/* the lower bounds smin of every cell (before mdt_walk when tol > 0) */
void mdt_near_scale(tree *T);
/* list the pairs of cells into T->far and T->near (T->oom on failure) */
void mdt_walk(tree *T);
void mdt_push(tree *T, pair_list *l, int a, int b, int order);
/* sum the far list (M2L into T->L), the near list (into T->g, T->hm) */
magdyn_status mdt_far_pass(tree *T);
void mdt_near_pass(tree *T);
/* the dipole pairs of the near list */
double mdt_near_pairs(const tree *T);

#endif
