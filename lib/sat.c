/*
 * sat.c - separating-axis tests for boxes (15 axes) and rectangles (4 axes),
 * and box validation.  The axis algebra follows Gottschalk, Lin & Manocha,
 * "OBBTree", SIGGRAPH 1996, with the edge axes normalised so that the
 * separation is a distance, and near-parallel edge axes handed over
 * continuously to the face axes instead of being padded with an epsilon.
 */
#include <math.h>
#include "detmath.h"
#include <float.h>
#include <magdyn/sat.h>
#include "obb_core.h"

magdyn_status magdyn_obb_check(const magdyn_obb *box)
{
    magdyn_quat q;
    double n2;
    if (!box) return MAGDYN_EINVAL;
    q = box->orientation;
    if (!magdyn_vec3_isfinite(box->center) || !magdyn_vec3_isfinite(box->half)
        || !magdyn_quat_isfinite(q))
        return MAGDYN_ENONFINITE;
    if (!(box->half.x > 0.0) || !(box->half.y > 0.0) || !(box->half.z > 0.0))
        return MAGDYN_EINVAL;
    n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    if (!(fabs(n2 - 1.0) <= 2e-9)) return MAGDYN_ENORM;
    if (!(fabs(box->center.x) + fabs(box->center.y) + fabs(box->center.z) + box->half.x
          + box->half.y + box->half.z <= MAGDYN_OBB_RANGE))
        return MAGDYN_ERANGE;
    return MAGDYN_OK;
}

static void sat_bad(magdyn_sat_result *out)
{
    if (!out) return;
    out->overlap = 0;
    out->separation = NAN;
    out->normal = magdyn_v3(0.0, 0.0, 0.0);
    out->axis = -1;
}

/* The overlap-only and the full test as separate functions, so that each
 * gets its own specialised copy of the inlined core and register set. */
#if defined(__GNUC__)
#define SAT_NOINLINE __attribute__((noinline))
#else
#define SAT_NOINLINE
#endif

static SAT_NOINLINE int sat_flag(const magdyn_obb *a, const magdyn_obb *b)
{
    obb_pair P;
    obb_sat r;
    int valid;
    /* (bad input far apart also gives 0, as it must) */
    if (obb_spheres_apart(a, b, 0.0)) return 0;
    /* bad input gives 0 whatever the axes say (NaN compares false, and the
     * core only adds, multiplies and compares), so validity is needed only
     * for the overlapping answer */
    valid = obb_pair_of(a, b, &P);
    if (!obb_sat_core(&P, 0.0, 0, &r)) return 0;
    return valid ? 1 : -1;
}

static SAT_NOINLINE int sat_full(const magdyn_obb *a, const magdyn_obb *b, magdyn_sat_result *out)
{
    obb_pair P;
    obb_sat r = {0.0, 0, {0.0, 0.0, 0.0}, 0, 0.0};
    double n[3];
    if (!obb_pair_of(a, b, &P)) return -1;
    obb_sat_core(&P, INFINITY, 1, &r);
    obb_pair_to_inertial(&P, r.nl, n);
    out->overlap = r.sep <= 0.0;
    out->separation = r.sep;
    out->normal = magdyn_v3(n[0], n[1], n[2]);
    out->axis = r.axis;
    return out->overlap;
}

int magdyn_obb_sat(const magdyn_obb *a, const magdyn_obb *b, magdyn_sat_result *out)
{
    int r;
    if (!a || !b) r = -1;
    else if (!out) r = sat_flag(a, b);
    else r = sat_full(a, b, out);
    if (r < 0) {
        sat_bad(out);
        return 0;
    }
    return r;
}

magdyn_status magdyn_obb_sat_checked(const magdyn_obb *a, const magdyn_obb *b,
                                     magdyn_sat_result *out)
{
    magdyn_status st;
    if (!out) return MAGDYN_EINVAL;
    if ((st = magdyn_obb_check(a)) != MAGDYN_OK) return st;
    if ((st = magdyn_obb_check(b)) != MAGDYN_OK) return st;
    magdyn_obb_sat(a, b, out);
    return MAGDYN_OK;
}

magdyn_status magdyn_obb_aabb(const magdyn_obb *box, magdyn_vec3 *lo, magdyn_vec3 *hi)
{
    obb_frame f;
    double e[3];
    int k;
    magdyn_status st = magdyn_obb_check(box);
    if (st != MAGDYN_OK) return st;
    if (!lo || !hi) return MAGDYN_EINVAL;
    obb_frame_of(box, &f);
    for (k = 0; k < 3; k++)
        e[k] = fabs(f.ax[0][k]) * f.h[0] + fabs(f.ax[1][k]) * f.h[1] + fabs(f.ax[2][k]) * f.h[2];
    *lo = magdyn_v3(f.c[0] - e[0], f.c[1] - e[1], f.c[2] - e[2]);
    *hi = magdyn_v3(f.c[0] + e[0], f.c[1] + e[1], f.c[2] + e[2]);
    return MAGDYN_OK;
}

/* ---- rectangles ---------------------------------------------------------- */

static int rect_valid(const magdyn_rect *r)
{
    return isfinite(r->center.x) && isfinite(r->center.y) && isfinite(r->angle)
        && r->half.x > 0.0 && r->half.x <= DBL_MAX && r->half.y > 0.0 && r->half.y <= DBL_MAX;
}

int magdyn_rect_sat(const magdyn_rect *a, const magdyn_rect *b, magdyn_rect_sat_result *out)
{
    double ax[2][2], bx[2][2], t[2], ta[2], tb[2], D[2][2], best, sepmax, tol, s, n[2];
    int i, j, axis;
    if (!a || !b || !rect_valid(a) || !rect_valid(b)) {
        if (out) {
            out->overlap = 0;
            out->separation = NAN;
            out->normal = magdyn_v2(0.0, 0.0);
            out->axis = -1;
        }
        return 0;
    }
    ax[0][0] = md_cos(a->angle); ax[0][1] = md_sin(a->angle);
    ax[1][0] = -ax[0][1];     ax[1][1] = ax[0][0];
    bx[0][0] = md_cos(b->angle); bx[0][1] = md_sin(b->angle);
    bx[1][0] = -bx[0][1];     bx[1][1] = bx[0][0];
    t[0] = a->center.x - b->center.x;
    t[1] = a->center.y - b->center.y;
    for (i = 0; i < 2; i++) {
        ta[i] = ax[i][0] * t[0] + ax[i][1] * t[1];
        tb[i] = bx[i][0] * t[0] + bx[i][1] * t[1];
        for (j = 0; j < 2; j++)
            D[i][j] = fabs(ax[i][0] * bx[j][0] + ax[i][1] * bx[j][1]);
    }
    tol = OBB_TIE_REL * (a->half.x + a->half.y + b->half.x + b->half.y + fabs(ta[0]) + fabs(ta[1]));
    best = -INFINITY; axis = 0;
    for (i = 0; i < 2; i++) {
        s = fabs(ta[i]) - ((i ? a->half.y : a->half.x) + b->half.x * D[i][0] + b->half.y * D[i][1]);
        if (s > best + tol) { best = s; axis = i; }
    }
    sepmax = best;
    for (j = 0; j < 2; j++) {
        s = fabs(tb[j]) - ((j ? b->half.y : b->half.x) + a->half.x * D[0][j] + a->half.y * D[1][j]);
        if (s > sepmax) sepmax = s;
        if (s > best + tol) { best = s; axis = 2 + j; }
    }
    if (!out) return sepmax <= 0.0;
    if (axis < 2) {
        double sg = ta[axis] < 0.0 ? -1.0 : 1.0;
        n[0] = sg * ax[axis][0]; n[1] = sg * ax[axis][1];
    } else {
        double sg = tb[axis - 2] < 0.0 ? -1.0 : 1.0;
        n[0] = sg * bx[axis - 2][0]; n[1] = sg * bx[axis - 2][1];
    }
    out->overlap = sepmax <= 0.0;
    out->separation = sepmax;
    out->normal = magdyn_v2(n[0], n[1]);
    out->axis = axis;
    return out->overlap;
}
