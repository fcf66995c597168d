/* island.c - islands of touching bodies and the sleep test (layer 3). */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <magdyn/island.h>
#include "reserved.h"

/*
 * The union-find forest lives in the caller's island[] array: a slot >= 0
 * is the index of the parent, a negative slot marks a root and holds minus
 * the size of its set (union by size needs nothing else).
 */
static int find_root(int *parent, int x)
{
    while (parent[x] >= 0) {
        int q = parent[x];
        if (parent[q] < 0) return q;
        parent[x] = parent[q]; /* path halving: skip to the grandparent */
        x = parent[q];
    }
    return x;
}

static void unite(int *parent, int a, int b)
{
    int ra = find_root(parent, a), rb = find_root(parent, b), t;
    if (ra == rb) return;
    if (parent[ra] > parent[rb]) { /* keep ra the larger set; rb hangs below it */
        t = ra; ra = rb; rb = t;
    }
    parent[ra] += parent[rb];
    parent[rb] = ra;
}

static int is_fixed(const bool *fixed, int i)
{
    return fixed && fixed[i];
}

/*
 * Turns the forest into island numbers, in place: every body first points
 * straight at its root; each root's slot is then reset to -1 ("no label
 * yet") and, walking the bodies in ascending order, receives the encoded
 * label -(label + 2) when its first (smallest) member is met.  Non-roots
 * read their label from the still-encoded root, and the roots are decoded
 * last.  Fixed bodies stay singleton roots at -1.  Returns the count.
 */
static int label_islands(int n, const bool *fixed, int *p)
{
    int i, next = 0;
    for (i = 0; i < n; i++)
        if (p[i] >= 0) p[i] = find_root(p, i);
    for (i = 0; i < n; i++)
        if (p[i] < 0) p[i] = -1;
    for (i = 0; i < n; i++) {
        int r;
        if (is_fixed(fixed, i)) continue;
        r = p[i] >= 0 ? p[i] : i;
        if (p[r] == -1) p[r] = -next++ - 2;
    }
    for (i = 0; i < n; i++) /* non-roots, while their roots still hold codes */
        if (p[i] >= 0) p[i] = -(p[p[i]] + 2);
    for (i = 0; i < n; i++)
        if (p[i] <= -2) p[i] = -(p[i] + 2);
    return next;
}

/* The members of each island, ascending, by a counting sort on island[]. */
static void island_members(int n, const int *island, int nislands, int *start, int *members)
{
    int i, k;
    for (k = 0; k <= nislands; k++) start[k] = 0;
    for (i = 0; i < n; i++)
        if (island[i] >= 0) start[island[i] + 1]++;
    for (k = 0; k < nislands; k++) start[k + 1] += start[k];
    /* start[k] walks through island k and ends at the start of k + 1 */
    for (i = 0; i < n; i++)
        if (island[i] >= 0) members[start[island[i]]++] = i;
    for (k = nislands; k > 0; k--) start[k] = start[k - 1];
    start[0] = 0;
}

magdyn_status magdyn_islands(int n, const bool *fixed, int npairs, const int *pairs,
                             int *island, int *start, int *members, int *nislands)
{
    int i, k, count;
    ptrdiff_t j;
    if (n < 0 || npairs < 0 || !island || !nislands || (npairs > 0 && !pairs)
        || (!start) != (!members))
        return MAGDYN_EINVAL;
    for (j = 0; j < 2 * (ptrdiff_t)npairs; j++)
        if (pairs[j] < 0 || pairs[j] >= n) return MAGDYN_EINVAL;

    for (i = 0; i < n; i++) island[i] = -1;
    for (k = 0; k < npairs; k++) {
        int a = pairs[2 * (ptrdiff_t)k], b = pairs[2 * (ptrdiff_t)k + 1];
        if (is_fixed(fixed, a) || is_fixed(fixed, b)) continue;
        unite(island, a, b);
    }
    count = label_islands(n, fixed, island);
    if (start) island_members(n, island, count, start, members);
    *nislands = count;
    return MAGDYN_OK;
}

magdyn_sleep_params magdyn_sleep_params_default(void)
{
    magdyn_sleep_params p;
    memset(&p, 0, sizeof p);
    p.speed = 1e-4;
    p.time = 0.05;
    p.balance = 1e-3;
    return p;
}

static int params_ok(const magdyn_sleep_params *p)
{
    return p && isfinite(p->speed) && p->speed >= 0.0 && isfinite(p->time) && p->time >= 0.0
           && isfinite(p->balance) && p->balance >= 0.0 && MAGDYN_RESERVED_OK(p);
}

static magdyn_status check_load(const magdyn_body_load *l)
{
    if (!magdyn_vec3_isfinite(l->net_force) || !magdyn_vec3_isfinite(l->net_torque)
        || !isfinite(l->force_scale) || !isfinite(l->torque_scale))
        return MAGDYN_ENONFINITE;
    if (l->force_scale < 0.0 || l->torque_scale < 0.0) return MAGDYN_EINVAL;
    return MAGDYN_OK;
}

/* No point of the box faster than p->speed: |v + omega x r| <= |v| + |omega| |r|,
 * and |r| is at most the half diagonal. */
static int is_slow(const magdyn_sleep_params *p, const magdyn_body *b)
{
    return magdyn_vec3_norm(b->velocity)
               + magdyn_vec3_norm(b->omega) * magdyn_vec3_norm(b->half)
           <= p->speed;
}

/* A zero scale (nothing acting) passes only a zero net, as 0 <= 0. */
static int is_balanced(const magdyn_sleep_params *p, const magdyn_body_load *l)
{
    return magdyn_vec3_norm(l->net_force) <= p->balance * l->force_scale
           && magdyn_vec3_norm(l->net_torque) <= p->balance * l->torque_scale;
}

magdyn_status magdyn_sleep_update(const magdyn_sleep_params *p, int n, const magdyn_body *bodies,
                                  const magdyn_body_load *load, double h, double *slow_time)
{
    int i;
    magdyn_status s;
    if (!params_ok(p) || n < 0 || (n > 0 && (!bodies || !load || !slow_time)))
        return MAGDYN_EINVAL;
    if (!isfinite(h)) return MAGDYN_ENONFINITE;
    if (h < 0.0) return MAGDYN_EINVAL;
    for (i = 0; i < n; i++) {
        if ((s = magdyn_body_check(&bodies[i])) != MAGDYN_OK) return s;
        if ((s = check_load(&load[i])) != MAGDYN_OK) return s;
    }
    for (i = 0; i < n; i++) {
        double t = slow_time[i];
        if (bodies[i].fixed) {
            slow_time[i] = INFINITY;
        } else if (is_slow(p, &bodies[i]) && is_balanced(p, &load[i])) {
            /* a body just released (INFINITY) or a garbage entry starts afresh */
            slow_time[i] = (isfinite(t) && t >= 0.0 ? t : 0.0) + h;
        } else {
            slow_time[i] = 0.0;
        }
    }
    return MAGDYN_OK;
}

bool magdyn_island_may_sleep(const magdyn_sleep_params *p, const int *members, int count,
                             const double *slow_time)
{
    int k;
    if (!params_ok(p) || !members || count < 1 || !slow_time) return false;
    for (k = 0; k < count; k++) {
        double t = slow_time[members[k]];
        /* t > 0: with p->time 0 a body must still have passed the last update */
        if (!(t >= p->time && t > 0.0)) return false;
    }
    return true;
}

bool magdyn_island_balanced(const magdyn_sleep_params *p, const int *members, int count,
                            const magdyn_body_load *load, const magdyn_vec3 *applied)
{
    magdyn_vec3 net = magdyn_v3(0, 0, 0), app = magdyn_v3(0, 0, 0);
    double scales = 0.0;
    int k;
    if (!params_ok(p) || !members || count < 1 || !load || !applied) return false;
    for (k = 0; k < count; k++) {
        int i = members[k];
        net = magdyn_vec3_add(net, load[i].net_force);
        app = magdyn_vec3_add(app, applied[i]);
        scales += load[i].force_scale;
    }
    /* what the island's contacts with the outside give: the net less the
       applied (contacts inside cancel) */
    return magdyn_vec3_norm(net) <= p->balance * (magdyn_vec3_norm(app) + magdyn_vec3_dist(net, app)
                                                  + 1e-3 * scales);
}
