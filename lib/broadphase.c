/*
 * broadphase.c - candidate pairs of many boxes by sweep and prune: sort the
 * boxes' inertial bounding intervals along the axis on which the centres
 * spread most (a stack of magnets shares its x and y intervals, so a fixed
 * x sweep would test every pair), sweep, and test the two other axes for
 * the pairs whose intervals meet.  O(n log n + pairs) for spread-out boxes,
 * so the stepper does not run the narrow phase on every pair.
 */
#include <limits.h>
#include <stdlib.h>
#include <math.h>
#include <magdyn/sat.h>
#include "obb_core.h"

typedef struct {
    double lo[3], hi[3];
    int index;
} bp_box;

/* sweep axis first: the boxes' coordinates are permuted before sorting */
static int bp_cmp_lo(const void *p, const void *q)
{
    const bp_box *a = p, *b = q;
    if (a->lo[0] < b->lo[0]) return -1;
    if (a->lo[0] > b->lo[0]) return 1;
    return (a->index > b->index) - (a->index < b->index);
}

static int bp_cmp_pair(const void *p, const void *q)
{
    const int *a = p, *b = q;
    if (a[0] != b[0]) return (a[0] > b[0]) - (a[0] < b[0]);
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/*
 * Sweep the sorted boxes: store up to max_pairs pairs (as indices i < j),
 * count them all, and stop once more than limit are found.
 */
static long long sweep(const bp_box *s, int n, int *pairs, int max_pairs, long long limit)
{
    long long found = 0;
    int i, j;
    for (i = 0; i < n; i++) {
        for (j = i + 1; j < n && s[j].lo[0] <= s[i].hi[0]; j++) {
            if (s[j].lo[1] > s[i].hi[1] || s[i].lo[1] > s[j].hi[1]) continue;
            if (s[j].lo[2] > s[i].hi[2] || s[i].lo[2] > s[j].hi[2]) continue;
            if (found < max_pairs) {
                int p = s[i].index, q = s[j].index;
                pairs[2 * found] = p < q ? p : q;
                pairs[2 * found + 1] = p < q ? q : p;
            }
            if (++found > limit) return found;
        }
    }
    return found;
}

magdyn_status magdyn_broadphase_pairs(int n, const magdyn_obb *boxes, double margin,
                                      int *pairs, int max_pairs, int *npairs)
{
    bp_box *s;
    long long found;
    int i, k, stored;
    double pad;
    magdyn_status st;

    if (!npairs || n < 0 || max_pairs < 0 || (!pairs && max_pairs > 0) || (!boxes && n > 0))
        return MAGDYN_EINVAL;
    if (isnan(margin) || isinf(margin)) return MAGDYN_ENONFINITE;
    if (margin < 0.0) return MAGDYN_EINVAL;
    for (i = 0; i < n; i++)
        if ((st = magdyn_obb_check(&boxes[i])) != MAGDYN_OK) return st;
    if (n < 2) {
        *npairs = 0;
        return MAGDYN_OK;
    }
    s = malloc((size_t)n * sizeof *s);
    if (!s) return MAGDYN_ENOMEM;

    /* each interval grows by margin/2 on both sides: intervals meet exactly
     * when the gap between the boxes' intervals is at most margin */
    pad = 0.5 * margin;
    {
        /* the axis of largest spread of the centres goes first */
        double mean[3] = {0.0, 0.0, 0.0}, var[3] = {0.0, 0.0, 0.0};
        int ax0 = 0, perm[3];
        for (i = 0; i < n; i++) {
            mean[0] += boxes[i].center.x; mean[1] += boxes[i].center.y; mean[2] += boxes[i].center.z;
        }
        for (k = 0; k < 3; k++) mean[k] /= n;
        for (i = 0; i < n; i++) {
            double d0 = boxes[i].center.x - mean[0], d1 = boxes[i].center.y - mean[1],
                   d2 = boxes[i].center.z - mean[2];
            var[0] += d0 * d0; var[1] += d1 * d1; var[2] += d2 * d2;
        }
        if (var[1] > var[ax0]) ax0 = 1;
        if (var[2] > var[ax0]) ax0 = 2;
        perm[0] = ax0; perm[1] = ax0 == 0 ? 1 : 0; perm[2] = ax0 == 2 ? 1 : 2;
        for (i = 0; i < n; i++) {
            obb_frame f;
            obb_frame_of(&boxes[i], &f);
            for (k = 0; k < 3; k++) {
                int m = perm[k];
                double e = fabs(f.ax[0][m]) * f.h[0] + fabs(f.ax[1][m]) * f.h[1]
                         + fabs(f.ax[2][m]) * f.h[2] + pad;
                s[i].lo[k] = f.c[m] - e;
                s[i].hi[k] = f.c[m] + e;
            }
            s[i].index = i;
        }
    }
    qsort(s, (size_t)n, sizeof *s, bp_cmp_lo);

    /* more pairs than an int counts are possible from 65537 boxes on: then
     * they are counted first, so that pairs stays untouched when refused */
    if (n > 65536 && sweep(s, n, NULL, 0, INT_MAX) > INT_MAX) {
        free(s);
        return MAGDYN_ERANGE;
    }
    found = sweep(s, n, pairs, max_pairs, INT_MAX);
    free(s);
    stored = found < max_pairs ? (int)found : max_pairs;
    if (found == stored && stored > 1) qsort(pairs, (size_t)stored, 2 * sizeof *pairs, bp_cmp_pair);
    *npairs = (int)found;
    return MAGDYN_OK;
}
