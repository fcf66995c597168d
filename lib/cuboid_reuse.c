/*
 * cuboid_reuse.c - extended pair forces kept per pair in src's frame and
 * reused near the pose they were computed at (cuboid_reuse.h says how far).
 *
 * A record is reused only for the same half extents and polarizations and
 * a relative pose within its trust radius, and the force between two
 * uniformly magnetised boxes depends on nothing else; so a record is never
 * wrong for a pair that was renumbered, moved far or turned over: it is
 * just not used.  The records live in an open-addressing hash table keyed
 * by the two ids.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "cuboid_reuse.h"
#include "detmath.h"

/* The trust radius stays below this share of the pair's smallest half
 * extent, where the error's linear extrapolation has a chance to hold. */
#define RHO_MAX_SHARE 0.05
#define MIN_SLOTS 64
/* Poses closer than this share of the smallest half extent are the same
 * (rounding in carrying a pose into src's frame): reused from the start. */
#define SAME_POSE 1e-12

typedef struct {
    uint64_t key;             /* (id_src + 1) << 32 | (id_dst + 1); 0 marks a free slot */
    magdyn_vec3 half_s, pol_s, half_d, pol_d;
    magdyn_vec3 r;            /* dst's centre in src's frame [m] */
    magdyn_quat q;            /* dst's orientation in src's frame */
    magdyn_vec3 f, t;         /* exact force and torque, src's frame */
    magdyn_vec3 df, dt;       /* the point dipoles' force and torque at that pose */
    double rho;               /* trust radius [m] */
} record;

struct mdc_reuse {
    record *slot;
    size_t nslot, used;       /* nslot a power of two */
    long long reused, exact;
};

typedef struct {
    magdyn_vec3 r;
    magdyn_quat q;
} pose;

mdc_reuse *mdc_reuse_new(void)
{
    return calloc(1, sizeof(mdc_reuse));
}

void mdc_reuse_free(mdc_reuse *r)
{
    if (!r) return;
    free(r->slot);
    free(r);
}

void mdc_reuse_counts(const mdc_reuse *r, long long *reused, long long *exact)
{
    if (reused) *reused = r ? r->reused : 0;
    if (exact) *exact = r ? r->exact : 0;
}

/* ---- the table ------------------------------------------------------------- */

static size_t home(uint64_t key, size_t nslot)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 17) & (nslot - 1);
}

/* The record of key, or the free slot where it would go (NULL: no table). */
static record *probe(const mdc_reuse *r, uint64_t key)
{
    size_t i;
    if (!r->nslot) return NULL;
    for (i = home(key, r->nslot);; i = (i + 1) & (r->nslot - 1))
        if (r->slot[i].key == key || r->slot[i].key == 0) return &r->slot[i];
}

/* Room for one more record at most half full; 0 when out of memory. */
static int reserve(mdc_reuse *r)
{
    record *old = r->slot, *fresh;
    size_t n = r->nslot ? 2 * r->nslot : MIN_SLOTS, i;
    if (2 * (r->used + 1) <= r->nslot) return 1;
    if (n > SIZE_MAX / sizeof *fresh || !(fresh = calloc(n, sizeof *fresh))) return 0;
    r->slot = fresh;
    r->nslot = n;
    for (i = 0; old && i < n / 2; i++)
        if (old[i].key) *probe(r, old[i].key) = old[i];
    free(old);
    return 1;
}

/* ---- poses and the dipole part ------------------------------------------- */

static pose pose_of(const magdyn_cuboid *src, const magdyn_cuboid *dst)
{
    magdyn_quat inv = magdyn_quat_conj(src->orientation);
    pose p;
    p.r = magdyn_quat_rotate(inv, magdyn_vec3_sub(dst->center, src->center));
    p.q = magdyn_quat_mul(inv, dst->orientation);
    return p;
}

/* How far any point of dst (within lever of its centre) has moved relative
 * to src since the record's pose [m]. */
static double moved(const record *e, pose p, double lever)
{
    magdyn_quat dq = magdyn_quat_mul(magdyn_quat_conj(e->q), p.q);
    double v = sqrt(dq.x * dq.x + dq.y * dq.y + dq.z * dq.z);
    /* the turn's angle, of either sign of dq (the library's own atan2:
     * the same bits on every machine, magdyn(7) REPRODUCIBILITY) */
    return magdyn_vec3_dist(p.r, e->r) + lever * 2.0 * md_atan2(v, fabs(dq.w));
}

static magdyn_vec3 body_moment(const magdyn_cuboid *c)
{
    double vol = 8.0 * c->half.x * c->half.y * c->half.z;
    return magdyn_vec3_scale(c->polarization, vol / MAGDYN_MU0);
}

/* The point dipoles' force on dst and torque about its centre at pose p,
 * src's frame. */
static void dipole_part(const magdyn_cuboid *src, const magdyn_cuboid *dst, pose p,
                        magdyn_vec3 *f, magdyn_vec3 *t)
{
    magdyn_vec3 md = magdyn_quat_rotate(p.q, body_moment(dst));
    magdyn_dipole_force_torque(body_moment(src), magdyn_v3(0, 0, 0), md, p.r, f, t);
}

static double min_half(magdyn_vec3 h) { return fmin(fmin(h.x, h.y), h.z); }

static int same(magdyn_vec3 a, magdyn_vec3 b)
{
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

static int matches(const record *e, uint64_t key, const magdyn_cuboid *src, const magdyn_cuboid *dst)
{
    return e && e->key == key && same(e->half_s, src->half) && same(e->pol_s, src->polarization)
        && same(e->half_d, dst->half) && same(e->pol_d, dst->polarization);
}

/* The record's force and torque carried to pose p (dipole parts df, dt
 * there), src's frame. */
static void carried(const record *e, magdyn_vec3 df, magdyn_vec3 dt, magdyn_vec3 *f, magdyn_vec3 *t)
{
    *f = magdyn_vec3_add(e->f, magdyn_vec3_sub(df, e->df));
    *t = magdyn_vec3_add(e->t, magdyn_vec3_sub(dt, e->dt));
}

/* The error of (fp, tp) against (f, t) in the measure of rel_tol:
 * |F| for the force, max(|T|, |F| lever) for the torque. */
static double error_of(magdyn_vec3 f, magdyn_vec3 t, magdyn_vec3 fp, magdyn_vec3 tp, double lever)
{
    double nf = magdyn_vec3_norm(f), scale_t = fmax(magdyn_vec3_norm(t), nf * lever);
    if (!(nf > 0.0) || !(scale_t > 0.0)) return INFINITY;
    return fmax(magdyn_vec3_dist(fp, f) / nf, magdyn_vec3_dist(tp, t) / scale_t);
}

/* The trust radius after an exact evaluation at distance d from the
 * record, where the carried values erred by err. */
static double next_radius(double d, double err, double budget, const magdyn_cuboid *src,
                          const magdyn_cuboid *dst)
{
    double rho = err > 0.0 ? fmin(2.0 * d, d * 0.5 * budget / err) : 2.0 * d;
    rho = fmin(rho, RHO_MAX_SHARE * fmin(min_half(src->half), min_half(dst->half)));
    return rho >= 0.0 ? rho : 0.0;   /* (NaN gives 0) */
}

magdyn_status mdc_reuse_force(mdc_reuse *r, int id_src, int id_dst, const magdyn_cuboid *src,
                              const magdyn_cuboid *dst, double rel_tol, mdc_pair_exact exact,
                              magdyn_vec3 *force, magdyn_vec3 *torque)
{
    uint64_t key = ((uint64_t)(uint32_t)id_src + 1) << 32 | ((uint64_t)(uint32_t)id_dst + 1);
    double lever = magdyn_vec3_norm(dst->half), budget = MDC_REUSE_SHARE * rel_tol, d = INFINITY;
    magdyn_quat qs = src->orientation;
    magdyn_vec3 f, t, fs, ts, df, dt;
    magdyn_status s;
    record *e;
    pose p;
    int known;
    if (!r || id_src < 0 || id_dst < 0 || magdyn_vec3_norm2(src->polarization) == 0.0
        || magdyn_vec3_norm2(dst->polarization) == 0.0)
        return exact(src, dst, rel_tol, force, torque);
    p = pose_of(src, dst);
    dipole_part(src, dst, p, &df, &dt);
    e = probe(r, key);
    known = matches(e, key, src, dst);
    if (known) {
        d = moved(e, p, lever);
        if (d <= fmax(e->rho, SAME_POSE * fmin(min_half(src->half), min_half(dst->half)))) {
            carried(e, df, dt, &fs, &ts);
            *force = magdyn_quat_rotate(qs, fs);
            *torque = magdyn_quat_rotate(qs, ts);
            r->reused++;
            return MAGDYN_OK;
        }
    }
    if ((s = exact(src, dst, (1.0 - MDC_REUSE_SHARE) * rel_tol, &f, &t)) != MAGDYN_OK) return s;
    r->exact++;
    *force = f;
    *torque = t;
    fs = magdyn_quat_rotate(magdyn_quat_conj(qs), f);
    ts = magdyn_quat_rotate(magdyn_quat_conj(qs), t);
    if (!e || e->key != key) {
        if (!reserve(r)) return MAGDYN_OK;
        e = probe(r, key);
        r->used++;
    }
    if (known) {
        magdyn_vec3 fp, tp;
        carried(e, df, dt, &fp, &tp);
        e->rho = next_radius(d, error_of(fs, ts, fp, tp, lever), budget, src, dst);
    } else {
        e->rho = 0.0;
    }
    e->key = key;
    e->half_s = src->half;
    e->pol_s = src->polarization;
    e->half_d = dst->half;
    e->pol_d = dst->polarization;
    e->r = p.r;
    e->q = p.q;
    e->f = fs;
    e->t = ts;
    e->df = df;
    e->dt = dt;
    return MAGDYN_OK;
}
