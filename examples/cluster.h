/*
 * cluster.h - the contact graph of the magnets of a world, for the chains
 * example: which magnets touch which, the clusters of touching magnets
 * (union-find, magdyn_islands), and the shape of each cluster.  Not part
 * of the library.
 */
#ifndef EXAMPLES_CLUSTER_H
#define EXAMPLES_CLUSTER_H

#include <magdyn.h>

/* What the contact graph of the free (not fixed) magnets looks like. */
typedef struct {
    int magnets;        /* free magnets looked at */
    int contacts;       /* touching pairs among them */
    int clusters;       /* clusters of at least 3 magnets */
    int in_clusters;    /* magnets in those clusters */
    int chains;         /* open chains: clusters of >= 3 whose graph is a path */
    int in_chains;
    int rings;          /* closed rings: clusters of >= 3 in which every magnet
                           touches exactly two others (one cycle) */
    int in_rings;
    int cyclic;         /* clusters of >= 3 whose graph has a cycle (rings,
                           and clumps with loops) */
    int pairs;          /* clusters of exactly 2 */
    int largest;        /* magnets in the largest cluster */
} cluster_stats;

/*
 * Analyse w: two free magnets touch when their boxes come within gap [m]
 * of each other (separating-axis separation <= gap).  Returns MAGDYN_OK,
 * or the status of a failing library call, or MAGDYN_ENOMEM.
 */
magdyn_status cluster_analyse(const magdyn_world *w, double gap, cluster_stats *out);

#endif
