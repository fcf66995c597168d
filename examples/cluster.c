/* cluster.c - the contact graph of a world's magnets (see cluster.h). */
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include "cluster.h"

/* The free magnets as boxes; fixed ones (walls) are flagged. */
static magdyn_status boxes_of(const magdyn_world *w, magdyn_obb *box, bool *fixed)
{
    int i, n = magdyn_world_count(w);
    for (i = 0; i < n; i++) {
        magdyn_magnet m;
        magdyn_status s = magdyn_world_get(w, i, &m);
        if (s != MAGDYN_OK) return s;
        box[i].center = m.position;
        box[i].orientation = m.orientation;
        box[i].half = m.half;
        fixed[i] = m.fixed;
    }
    return MAGDYN_OK;
}

/* The broad-phase pairs within gap, as a malloc'd array; *np their count. */
static magdyn_status candidates(int n, const magdyn_obb *box, double gap, int **pairs, int *np)
{
    int cap = 4 * n + 16, got = 0;
    magdyn_status s;
    *pairs = NULL;
    for (;;) {
        int *p = realloc(*pairs, 2 * (size_t)cap * sizeof *p);
        if (!p) return MAGDYN_ENOMEM;
        *pairs = p;
        if ((s = magdyn_broadphase_pairs(n, box, gap, p, cap, &got)) != MAGDYN_OK) return s;
        if (got <= cap) break;
        cap = got;
    }
    *np = got;
    return MAGDYN_OK;
}

/* Keep the candidate pairs of free magnets whose boxes are within gap;
 * returns how many were kept (compacted to the front of pairs). */
static int touching(const magdyn_obb *box, const bool *fixed, int *pairs, int np, double gap)
{
    int k, kept = 0;
    for (k = 0; k < np; k++) {
        int i = pairs[2 * k], j = pairs[2 * k + 1];
        magdyn_sat_result r;
        if (fixed[i] || fixed[j]) continue;
        magdyn_obb_sat(&box[i], &box[j], &r);
        if (!(r.separation <= gap)) continue;
        pairs[2 * kept] = i;
        pairs[2 * kept + 1] = j;
        kept++;
    }
    return kept;
}

/* Sort each island into its kind from its size, edges and degrees. */
static void classify(int n, const bool *fixed, const int *island, int nisl, const int *pairs,
                     int np, int *size, int *edges, int *deg, int *maxdeg, cluster_stats *out)
{
    int i, k;
    memset(size, 0, (size_t)nisl * sizeof *size);
    memset(edges, 0, (size_t)nisl * sizeof *edges);
    memset(maxdeg, 0, (size_t)nisl * sizeof *maxdeg);
    memset(deg, 0, (size_t)n * sizeof *deg);
    for (k = 0; k < np; k++) {
        edges[island[pairs[2 * k]]]++;
        deg[pairs[2 * k]]++;
        deg[pairs[2 * k + 1]]++;
    }
    for (i = 0; i < n; i++) {
        if (fixed[i]) continue;
        out->magnets++;
        size[island[i]]++;
        if (deg[i] > maxdeg[island[i]]) maxdeg[island[i]] = deg[i];
    }
    out->contacts = np;
    for (k = 0; k < nisl; k++) {
        if (size[k] > out->largest) out->largest = size[k];
        if (size[k] == 2) out->pairs++;
        if (size[k] < 3) continue;
        out->clusters++;
        out->in_clusters += size[k];
        /* a connected graph has a cycle exactly when it has as many edges
         * as vertices or more; a path has n - 1 edges and degrees <= 2 */
        if (edges[k] >= size[k]) out->cyclic++;
        if (edges[k] == size[k] - 1 && maxdeg[k] <= 2) {
            out->chains++;
            out->in_chains += size[k];
        } else if (edges[k] == size[k] && maxdeg[k] == 2) {
            out->rings++;
            out->in_rings += size[k];
        }
    }
}

magdyn_status cluster_analyse(const magdyn_world *w, double gap, cluster_stats *out)
{
    int n = magdyn_world_count(w), np = 0, nisl = 0;
    magdyn_obb *box = malloc((size_t)(n > 0 ? n : 1) * sizeof *box);
    bool *fixed = malloc((size_t)(n > 0 ? n : 1) * sizeof *fixed);
    int *island = malloc(5 * (size_t)(n > 0 ? n : 1) * sizeof *island), *pairs = NULL;
    magdyn_status s = MAGDYN_ENOMEM;
    memset(out, 0, sizeof *out);
    if (!box || !fixed || !island) goto done;
    if ((s = boxes_of(w, box, fixed)) != MAGDYN_OK) goto done;
    if ((s = candidates(n, box, gap, &pairs, &np)) != MAGDYN_OK) goto done;
    np = touching(box, fixed, pairs, np, gap);
    if ((s = magdyn_islands(n, fixed, np, pairs, island, NULL, NULL, &nisl)) != MAGDYN_OK) goto done;
    /* island[0..n) then four scratch arrays of n: size, edges, degree, max degree */
    classify(n, fixed, island, nisl, pairs, np, island + n, island + 2 * n, island + 3 * n,
             island + 4 * n, out);
done:
    free(box);
    free(fixed);
    free(island);
    free(pairs);
    return s;
}
