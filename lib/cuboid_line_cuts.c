/* cuboid_line_cuts.c - see cuboid_line_cuts.h. */
#include <stdlib.h>
#include "cuboid_line_cuts.h"
#include "cuboid_axes.h"

/* A segment (an edge of the other box) within this share of a line's
 * length cuts it at the nearest point: the integrands' kinks sit there. */
#define CUT_NEAR 0.2
/* A segment within this share of a line's length of its end makes the
 * end a kink. */
#define END_NEAR 0.25

/* the line p0 + l d, l in [0, 1], of length len */
typedef struct {
    magdyn_vec3 p0, d;
    double len;
} line;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The parameter of x's foot on e, as a cut, if inside e and x lies within
 * CUT_NEAR of e's length; an x within END_NEAR of an end marks that end a
 * kink (near[0], near[1]).  The distances are compared squared: these are
 * thresholds of a heuristic, and the square roots were a tenth of the
 * lines' cost. */
static void add_cut(const line *e, magdyn_vec3 x, double *cuts, int *nc, int near[2])
{
    magdyn_vec3 w = magdyn_vec3_sub(x, e->p0);
    double len2 = e->len * e->len, l = magdyn_vec3_dot(w, e->d) / len2;
    double dist2 = magdyn_vec3_norm2(magdyn_vec3_madd(w, -l, e->d));
    if (l > 1e-9 && l < 1.0 - 1e-9 && dist2 < CUT_NEAR * CUT_NEAR * len2) cuts[(*nc)++] = l;
    if (magdyn_vec3_norm2(w) < END_NEAR * END_NEAR * len2) near[0] = 1;
    if (magdyn_vec3_norm2(magdyn_vec3_sub(w, e->d)) < END_NEAR * END_NEAR * len2) near[1] = 1;
}

int mdc_line_cuts(magdyn_vec3 p0, magdyn_vec3 d, double len, const mdc_segment *sg, int ns,
                  double cuts[MDC_MAX_CUTS], int near[2])
{
    line ln = {p0, d, len}, *e = &ln;
    int nc = 0, i, m = 1;
    near[0] = near[1] = 0;
    cuts[nc++] = 0.0;
    for (i = 0; i < ns; i++) {
        magdyn_vec3 w0 = magdyn_vec3_sub(e->p0, sg[i].c);
        double a = magdyn_vec3_dot(e->d, e->d), b = magdyn_vec3_dot(e->d, sg[i].u);
        double dd = magdyn_vec3_dot(e->d, w0), ee = magdyn_vec3_dot(sg[i].u, w0), den = a - b * b;
        if (den > 1e-12 * a) {
            double s = (a * ee - b * dd) / den;
            if (s > -sg[i].h && s < sg[i].h) add_cut(e, magdyn_vec3_madd(sg[i].c, s, sg[i].u), cuts, &nc, near);
        }
        add_cut(e, magdyn_vec3_madd(sg[i].c, sg[i].h, sg[i].u), cuts, &nc, near);
        add_cut(e, magdyn_vec3_madd(sg[i].c, -sg[i].h, sg[i].u), cuts, &nc, near);
    }
    cuts[nc++] = 1.0;
    qsort(cuts, (size_t)nc, sizeof *cuts, cmp_double);
    for (i = 1; i < nc; i++)       /* drop duplicates */
        if (cuts[i] - cuts[m - 1] > 1e-9) cuts[m++] = cuts[i];
    cuts[m - 1] = 1.0;
    return m;
}

void mdc_box_segments(magdyn_vec3 half, mdc_segment sg[12])
{
    int e;
    for (e = 0; e < 12; e++) {
        sg[e].c = cf_edge_mid(half, e);
        sg[e].u = cf_axis(e / 4, 1.0);
        sg[e].h = cf_comp(half, e / 4);
    }
}

