/*
 * test_bad_input.c - every public function that can fail, walked with bad
 * arguments: each double of its input in turn set to NaN, +-Inf, 0, -1, a
 * subnormal (1e-310), +-1e300, and NULL pointers, indices out of range,
 * times going backwards, bodies starting interpenetrating.
 *
 * The contract (DESIGN.md, "The API contract"; common.h): bad input gets a
 * clear status and leaves the caller's data untouched, and anything the API
 * accepts gives an answer.  So for every call here:
 *  - a NaN or infinite input is refused (a negative status);
 *  - a refused call leaves its outputs byte for byte as they were (they are
 *    filled with a sentinel pattern first) and an object's state, read
 *    back field by field, unchanged;
 *  - an accepted call gives finite outputs.
 * Zero, negative, subnormal and huge values may be accepted (a position of
 * -1 m is fine) but then must give finite results.
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <magdyn.h>
#include "testutil.h"

static const double BAD[] = {NAN, INFINITY, -INFINITY, 0.0, -1.0, 1e-310, 1e300, -1e300};
enum { NBAD = sizeof BAD / sizeof BAD[0], NNONFINITE = 3, MAXIN = 96, OUTSZ = 4096 };

/* a probe returns a status, or PROBE_NONFINITE for an accepted call with
 * non-finite outputs, or PROBE_CHANGED for a refused call that changed an
 * object */
enum { PROBE_NONFINITE = 1, PROBE_CHANGED = 2 };
typedef int (*probe)(const double *in, unsigned char *out);

static int finite_doubles(const void *p, size_t count)
{
    const unsigned char *b = p;
    size_t k;
    for (k = 0; k < count; k++) {
        double v;
        memcpy(&v, b + k * sizeof v, sizeof v);
        if (!isfinite(v)) return 0;
    }
    return 1;
}

static int untouched(const unsigned char *out)
{
    int k;
    for (k = 0; k < OUTSZ; k++)
        if (out[k] != 0xA5) return 0;
    return 1;
}

/*
 * Each of the nin doubles of valid in turn takes each bad value.  skip:
 * inputs not to vary (bit k); nonfinite_ok: inputs where Inf or NaN has a
 * documented meaning (bit k).
 */
/* Every bad case is printed to stderr before the walk fails, so that one
 * run lists them all. */
#define WALK_CHECK(cond, ...)                                                   \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
            fails++;                                                            \
        }                                                                       \
    } while (0)

/* bad cases of the walks in the test running; each test asserts 0 at its end */
static int walk_fails;

static void walk(const char *name, probe f, const double *valid, int nin,
                 unsigned long long skip, unsigned long long nonfinite_ok)
{
    static _Alignas(max_align_t) unsigned char out[OUTSZ];
    double in[MAXIN];
    int k, b, s, fails = 0;
    ck_assert_int_le(nin, MAXIN);
    memcpy(in, valid, (size_t)nin * sizeof *in);
    memset(out, 0xA5, sizeof out);
    s = f(in, out);
    ck_assert_msg(s == MAGDYN_OK, "%s: the valid call gives %d", name, s);
    for (k = 0; k < nin; k++) {
        if (k < 64 && (skip >> k & 1)) continue;
        for (b = 0; b < (int)NBAD; b++) {
            memcpy(in, valid, (size_t)nin * sizeof *in);
            in[k] = BAD[b];
            memset(out, 0xA5, sizeof out);
            s = f(in, out);
            WALK_CHECK(s != PROBE_NONFINITE, "%s: input %d = %g accepted with non-finite output",
                       name, k, BAD[b]);
            WALK_CHECK(s != PROBE_CHANGED, "%s: input %d = %g refused but the object changed",
                       name, k, BAD[b]);
            if (s < 0)
                WALK_CHECK(untouched(out), "%s: input %d = %g refused (%s) with outputs written",
                           name, k, BAD[b], magdyn_strerror((magdyn_status)s));
            if (b < NNONFINITE && !(k < 64 && (nonfinite_ok >> k & 1)))
                WALK_CHECK(s < 0, "%s: input %d = %g accepted", name, k, BAD[b]);
        }
    }
    walk_fails += fails;
}

/* ---- inputs laid out as doubles ------------------------------------------ */

static magdyn_obb obb_at(const double *d)
{
    magdyn_obb o;
    o.center = magdyn_v3(d[0], d[1], d[2]);
    o.orientation = magdyn_q(d[3], d[4], d[5], d[6]);
    o.half = magdyn_v3(d[7], d[8], d[9]);
    return o;
}

static void put_obb(double *d, magdyn_vec3 c, magdyn_quat q, magdyn_vec3 h)
{
    double v[10] = {c.x, c.y, c.z, q.w, q.x, q.y, q.z, h.x, h.y, h.z};
    memcpy(d, v, sizeof v);
}

static magdyn_cuboid cuboid_at(const double *d)
{
    magdyn_cuboid c;
    c.half = magdyn_v3(d[0], d[1], d[2]);
    c.polarization = magdyn_v3(d[3], d[4], d[5]);
    c.center = magdyn_v3(d[6], d[7], d[8]);
    c.orientation = magdyn_q(d[9], d[10], d[11], d[12]);
    return c;
}

static void put_cuboid(double *d, double h, double jz, double cz)
{
    double v[13] = {h, h, h, 0, 0, jz, 0, 0, cz, 1, 0, 0, 0};
    memcpy(d, v, sizeof v);
}

static magdyn_body body_at(const double *d)
{
    magdyn_body b;
    memset(&b, 0, sizeof b);
    b.half = magdyn_v3(d[0], d[1], d[2]);
    b.mass = d[3];
    b.inertia = magdyn_v3(d[4], d[5], d[6]);
    b.position = magdyn_v3(d[7], d[8], d[9]);
    b.orientation = magdyn_q(d[10], d[11], d[12], d[13]);
    b.velocity = magdyn_v3(d[14], d[15], d[16]);
    b.omega = magdyn_v3(d[17], d[18], d[19]);
    return b;
}
enum { BODY_DOUBLES = 20 };

static void put_body(double *d, magdyn_vec3 pos, magdyn_vec3 vel)
{
    magdyn_body b;
    ck_assert_int_eq(magdyn_body_init(&b, magdyn_v3(0.01, 0.005, 0.0025), 7.5e-3, pos,
                                      magdyn_quat_identity(), 0), MAGDYN_OK);
    b.velocity = vel;
    {
        double v[BODY_DOUBLES] = {b.half.x, b.half.y, b.half.z, b.mass, b.inertia.x, b.inertia.y,
                                  b.inertia.z, b.position.x, b.position.y, b.position.z,
                                  b.orientation.w, b.orientation.x, b.orientation.y,
                                  b.orientation.z, b.velocity.x, b.velocity.y, b.velocity.z,
                                  b.omega.x, b.omega.y, b.omega.z};
        memcpy(d, v, sizeof v);
    }
}

/* ---- layer 1 and 2 functions without objects ----------------------------- */

static int p_body_init(const double *in, unsigned char *out)
{
    magdyn_body *b = (magdyn_body *)out;
    int s = magdyn_body_init(b, magdyn_v3(in[0], in[1], in[2]), in[3], magdyn_v3(in[4], in[5], in[6]),
                             magdyn_q(in[7], in[8], in[9], in[10]), 0);
    if (s == MAGDYN_OK && !finite_doubles(b, BODY_DOUBLES)) return PROBE_NONFINITE;
    if (s == MAGDYN_OK && !(1.0 / b->inertia.x < INFINITY && 1.0 / b->mass < INFINITY))
        return PROBE_NONFINITE;
    return s;
}

static int p_body_check(const double *in, unsigned char *out)
{
    magdyn_body b = body_at(in);
    int s = magdyn_body_check(&b);
    (void)out;
    if (s == MAGDYN_OK && !(1.0 / b.inertia.x < INFINITY && 1.0 / b.inertia.y < INFINITY
                            && 1.0 / b.inertia.z < INFINITY && 1.0 / b.mass < INFINITY))
        return PROBE_NONFINITE;
    return s;
}

static int p_dipoles(const double *in, unsigned char *out)
{
    magdyn_vec3 pos[3], mom[3], *f = (magdyn_vec3 *)out, *t = f + 3;
    double *e = (double *)(t + 3);
    int i, s;
    for (i = 0; i < 3; i++) {
        pos[i] = magdyn_v3(in[3 * i], in[3 * i + 1], in[3 * i + 2]);
        mom[i] = magdyn_v3(in[9 + 3 * i], in[10 + 3 * i], in[11 + 3 * i]);
    }
    s = magdyn_dipoles_interact(3, pos, mom, f, t, e);
    if (s == MAGDYN_OK && !finite_doubles(out, 19)) return PROBE_NONFINITE;
    return s;
}

static int p_cuboid_force(const double *in, unsigned char *out)
{
    magdyn_cuboid a = cuboid_at(in), b = cuboid_at(in + 13);
    magdyn_vec3 *f = (magdyn_vec3 *)out;
    int s = magdyn_cuboid_force_torque(&a, &b, in[26], f, f + 1);
    if (s == MAGDYN_OK && !finite_doubles(out, 6)) return PROBE_NONFINITE;
    return s;
}

static int p_cuboid_parallel(const double *in, unsigned char *out)
{
    magdyn_cuboid a = cuboid_at(in), b = cuboid_at(in + 13);
    magdyn_vec3 *f = (magdyn_vec3 *)out;
    int s = magdyn_cuboid_force_parallel(&a, &b, f, f + 1);
    if (s == MAGDYN_OK && !finite_doubles(out, 6)) return PROBE_NONFINITE;
    return s;
}

static int magnets_probe(const double *in, unsigned char *out, magdyn_magnet_model model, int energy)
{
    magdyn_cuboid c[2];
    magdyn_vec3 *f = (magdyn_vec3 *)out;
    int s;
    c[0] = cuboid_at(in);
    c[1] = cuboid_at(in + 13);
    if (energy) s = magdyn_magnets_energy(2, c, model, in[26], NULL, (double *)out);
    else s = magdyn_magnets_interact(2, c, model, in[26], NULL, f, f + 2);
    if (s == MAGDYN_OK && !finite_doubles(out, energy ? 1 : 12)) return PROBE_NONFINITE;
    return s;
}
static int p_magnets_dipole(const double *in, unsigned char *out)
{ return magnets_probe(in, out, MAGDYN_MODEL_DIPOLE, 0); }
static int p_magnets_cuboid(const double *in, unsigned char *out)
{ return magnets_probe(in, out, MAGDYN_MODEL_CUBOID, 0); }
static int p_energy_dipole(const double *in, unsigned char *out)
{ return magnets_probe(in, out, MAGDYN_MODEL_DIPOLE, 1); }
static int p_energy_cuboid(const double *in, unsigned char *out)
{ return magnets_probe(in, out, MAGDYN_MODEL_CUBOID, 1); }

static int p_obb_sat(const double *in, unsigned char *out)
{
    magdyn_obb a = obb_at(in), b = obb_at(in + 10);
    magdyn_sat_result *r = (magdyn_sat_result *)out;
    int s = magdyn_obb_sat_checked(&a, &b, r);
    if (s == MAGDYN_OK && !(isfinite(r->separation) && magdyn_vec3_isfinite(r->normal)))
        return PROBE_NONFINITE;
    return s;
}

static int p_obb_aabb(const double *in, unsigned char *out)
{
    magdyn_obb a = obb_at(in);
    magdyn_vec3 *v = (magdyn_vec3 *)out;
    int s = magdyn_obb_aabb(&a, v, v + 1);
    if (s == MAGDYN_OK && !finite_doubles(out, 6)) return PROBE_NONFINITE;
    return s;
}

static int p_broadphase(const double *in, unsigned char *out)
{
    magdyn_obb o[3];
    int *pairs = (int *)out, i, s;
    for (i = 0; i < 3; i++) o[i] = obb_at(in + 10 * i);
    s = magdyn_broadphase_pairs(3, o, in[30], pairs, 3, pairs + 6);
    if (s == MAGDYN_OK && !(pairs[6] >= 0 && pairs[6] <= 3)) return PROBE_NONFINITE;
    return s;
}

static int p_manifold_pairs(const double *in, unsigned char *out)
{
    magdyn_obb o[2];
    magdyn_manifold *m = (magdyn_manifold *)out;
    int pair[2] = {0, 1}, s, k;
    o[0] = obb_at(in);
    o[1] = obb_at(in + 10);
    s = magdyn_obb_manifold_pairs(2, o, 1, pair, in[20], m);
    if (s == MAGDYN_OK) {
        if (m->count < 0 || m->count > MAGDYN_MAX_CONTACTS) return PROBE_NONFINITE;
        for (k = 0; k < m->count; k++)
            if (!magdyn_vec3_isfinite(m->point[k]) || !isfinite(m->depth[k])) return PROBE_NONFINITE;
    }
    return s;
}

static int p_quat_frames(const double *in, unsigned char *out)
{
    magdyn_quat *q = (magdyn_quat *)out;
    int s = magdyn_quat_from_frames(magdyn_v3(in[0], in[1], in[2]), magdyn_v3(in[3], in[4], in[5]),
                                    magdyn_v3(in[6], in[7], in[8]), magdyn_v3(in[9], in[10], in[11]), q);
    if (s == MAGDYN_OK && !magdyn_quat_isunit(*q, 1e-9)) return PROBE_NONFINITE;
    return s;
}

static int p_toi_screw(const double *in, unsigned char *out)
{
    magdyn_obb a = obb_at(in), b = obb_at(in + 16);
    magdyn_toi_result *r = (magdyn_toi_result *)out;
    int s = magdyn_toi_screw(&a, magdyn_v3(in[10], in[11], in[12]), magdyn_v3(in[13], in[14], in[15]),
                             &b, magdyn_v3(in[26], in[27], in[28]), magdyn_v3(in[29], in[30], in[31]),
                             in[32], in[33], r);
    if (s == MAGDYN_OK && !(r->hit ? isfinite(r->t) : !isnan(r->t))) return PROBE_NONFINITE;
    return s;
}

static int p_disc_check(const double *in, unsigned char *out)
{
    magdyn_disc d = {{in[0], in[1]}, {in[2], in[3]}, in[4], in[5]};
    (void)out;
    return magdyn_disc_check(&d);
}

static int p_rotor_check(const double *in, unsigned char *out)
{
    magdyn_rotor r = {{in[0], in[1]}, {in[2], in[3]}, in[4], in[5], in[6], in[7], in[8], in[9]};
    (void)out;
    return magdyn_rotor_check(&r);
}

/* Two boxes resting face on face, b below a. */
static int p_impulse_pair(const double *in, unsigned char *out)
{
    magdyn_body *ab = (magdyn_body *)out;   /* the bodies are in/out: copied in first */
    magdyn_impulse_params p = magdyn_impulse_params_default();
    magdyn_manifold m;
    magdyn_obb oa, ob;
    magdyn_vec3 *imp = (magdyn_vec3 *)(ab + 2);
    magdyn_body a = body_at(in), b = body_at(in + BODY_DOUBLES);
    unsigned char before[2 * sizeof(magdyn_body)];
    int s;
    p.restitution = in[40];
    p.friction = in[41];
    p.bounce_speed = in[42];
    p.tolerance = in[43];
    oa = magdyn_body_obb(&a);
    ob = magdyn_body_obb(&b);
    if (magdyn_body_check(&a) != MAGDYN_OK || magdyn_body_check(&b) != MAGDYN_OK
        || magdyn_obb_manifold(&oa, &ob, 1e-6, &m) < 1) {
        /* the manifold of the valid pair, for bodies that cannot give one */
        magdyn_body va, vb;
        double d[2 * BODY_DOUBLES];
        put_body(d, magdyn_v3(0, 0, 0.005), magdyn_v3(0, 0, -0.1));
        put_body(d + BODY_DOUBLES, magdyn_v3(0, 0, 0), magdyn_v3(0, 0, 0));
        va = body_at(d);
        vb = body_at(d + BODY_DOUBLES);
        oa = magdyn_body_obb(&va);
        ob = magdyn_body_obb(&vb);
        ck_assert_int_ge(magdyn_obb_manifold(&oa, &ob, 1e-6, &m), 1);
    }
    ab[0] = a;
    ab[1] = b;
    memcpy(before, ab, sizeof before);
    s = magdyn_impulse_pair(&ab[0], &ab[1], &m, &p, imp, NULL);
    if (s != MAGDYN_OK) {
        if (memcmp(before, ab, sizeof before) != 0) return PROBE_CHANGED;
        memset(out, 0xA5, OUTSZ);   /* the bodies were the caller's input */
        return s;
    }
    if (!finite_doubles(&ab[0], BODY_DOUBLES) || !finite_doubles(&ab[1], BODY_DOUBLES)
        || !finite_doubles(imp, 3))
        return PROBE_NONFINITE;
    return s;
}

static int p_sleep_update(const double *in, unsigned char *out)
{
    magdyn_sleep_params p = {.speed = in[0], .time = in[1], .balance = in[2]};
    magdyn_body b = body_at(in + 3);
    magdyn_body_load load = {{in[23], in[24], in[25]}, {in[26], in[27], in[28]}, in[29], in[30]};
    double *slow = (double *)out;   /* in/out: set first */
    int s;
    slow[0] = 0.01;
    s = magdyn_sleep_update(&p, 1, &b, &load, in[31], slow);
    if (s != MAGDYN_OK) {
        if (slow[0] != 0.01) return PROBE_CHANGED;
        memset(out, 0xA5, OUTSZ);
        return s;
    }
    if (!(slow[0] >= 0.0 && !isnan(slow[0]))) return PROBE_NONFINITE;
    return s;
}

/* magdyn_toi: box a moving down onto box b at 0.5 m/s */
static magdyn_status pose_falling(void *user, double t, magdyn_obb *a, magdyn_obb *b)
{
    (void)user;
    a->center = magdyn_v3(0, 0, 0.02 - 0.5 * t);
    a->orientation = magdyn_quat_identity();
    a->half = magdyn_v3(0.005, 0.005, 0.005);
    b->center = magdyn_v3(0, 0, 0);
    b->orientation = magdyn_quat_identity();
    b->half = magdyn_v3(0.005, 0.005, 0.005);
    return MAGDYN_OK;
}

static int p_toi(const double *in, unsigned char *out)
{
    magdyn_toi_result *r = (magdyn_toi_result *)out;
    int s = magdyn_toi(pose_falling, NULL, in[0], in[1], in[2], in[3], r);
    if (s == MAGDYN_OK && (isnan(r->t) || (r->hit && !isfinite(r->t)))) return PROBE_NONFINITE;
    return s;
}

/* The impulse solver on two bodies: a falling on b, with the contact of
 * the valid pair; the bodies are in/out (copied into out first). */
static int p_impulse_solve(const double *in, unsigned char *out)
{
    magdyn_body *bs = (magdyn_body *)out;
    magdyn_contact *c = (magdyn_contact *)(bs + 2);
    magdyn_impulse_params p = magdyn_impulse_params_default();
    magdyn_body va, vb;
    magdyn_obb oa, ob;
    unsigned char before[2 * sizeof(magdyn_body)];
    double d[2 * BODY_DOUBLES];
    int s, k;
    put_body(d, magdyn_v3(0, 0, 0.005), magdyn_v3(0, 0, -0.1));
    put_body(d + BODY_DOUBLES, magdyn_v3(0, 0, 0), magdyn_v3(0, 0, 0));
    va = body_at(d);
    vb = body_at(d + BODY_DOUBLES);
    oa = magdyn_body_obb(&va);
    ob = magdyn_body_obb(&vb);
    memset(c, 0, sizeof *c);
    c->a = 0;
    c->b = 1;
    ck_assert_int_ge(magdyn_obb_manifold(&oa, &ob, 1e-6, &c->manifold), 1);
    for (k = 0; k < c->manifold.count; k++) c->target[k] = in[44];
    p.restitution = in[40];
    p.friction = in[41];
    p.bounce_speed = in[42];
    p.tolerance = in[43];
    bs[0] = body_at(in);
    bs[1] = body_at(in + BODY_DOUBLES);
    memcpy(before, bs, sizeof before);
    s = magdyn_impulse_solve(bs, 2, c, 1, &p, NULL);
    if (s != MAGDYN_OK) {
        if (memcmp(before, bs, sizeof before) != 0) return PROBE_CHANGED;
        memset(out, 0xA5, OUTSZ);   /* the bodies and contact were the caller's input */
        return s;
    }
    if (!finite_doubles(&bs[0], BODY_DOUBLES) || !finite_doubles(&bs[1], BODY_DOUBLES))
        return PROBE_NONFINITE;
    for (k = 0; k < c->manifold.count; k++)
        if (!magdyn_vec3_isfinite(c->impulse[k])) return PROBE_NONFINITE;
    return s;
}

/* Contact times return a time, not a status: INFINITY (never) or NaN
 * (bad input) are answers; a negative time or a NaN for good-looking
 * finite discs is not.  Returns 0, or PROBE_NONFINITE. */
static int p_disc_time(const double *in, unsigned char *out)
{
    magdyn_disc a = {{in[0], in[1]}, {in[2], in[3]}, in[4], in[5]};
    magdyn_disc b = {{in[6], in[7]}, {in[8], in[9]}, in[10], in[11]};
    double t = magdyn_disc_contact_time(&a, &b);
    (void)out;
    if (magdyn_disc_check(&a) == MAGDYN_OK && magdyn_disc_check(&b) == MAGDYN_OK
        && magdyn_vec2_norm(magdyn_vec2_sub(a.r, b.r)) > a.radius + b.radius)
        return t >= 0.0 ? MAGDYN_OK : PROBE_NONFINITE;   /* >= 0 or INFINITY, never NaN */
    return isnan(t) || t >= 0.0 ? MAGDYN_EINVAL : PROBE_NONFINITE;
}

/* The field of a box returns no status: all NaN is its refusal
 * (dipole.h), anything else must be finite. */
static int p_cuboid_field(const double *in, unsigned char *out)
{
    magdyn_vec3 b = magdyn_cuboid_field(magdyn_v3(in[0], in[1], in[2]), magdyn_v3(in[3], in[4], in[5]),
                                        magdyn_v3(in[6], in[7], in[8]));
    (void)out;
    if (isnan(b.x) && isnan(b.y) && isnan(b.z)) return MAGDYN_EINVAL;
    return magdyn_vec3_isfinite(b) ? MAGDYN_OK : PROBE_NONFINITE;
}

START_TEST(functions_without_objects)
{
    double v[MAXIN];
    /* body_init: half, mass, position, orientation */
    {
        double d[11] = {0.01, 0.005, 0.0025, 7.5e-3, 0, 0, 0, 1, 0, 0, 0};
        walk("magdyn_body_init", p_body_init, d, 11, 0, 0);
    }
    put_body(v, magdyn_v3(0, 0, 0), magdyn_v3(0.1, 0, 0));
    walk("magdyn_body_check", p_body_check, v, BODY_DOUBLES, 0, 0);
    {
        double d[18] = {0, 0, 0, 0.02, 0, 0, 0, 0.03, 0.001, 0, 0, 1, 0, 0.5, 0, 1, 0, 0};
        walk("magdyn_dipoles_interact", p_dipoles, d, 18, 0, 0);
    }
    put_cuboid(v, 0.005, 1.2, 0.0);
    put_cuboid(v + 13, 0.005, 1.2, 0.012);
    v[26] = 1e-3;
    walk("magdyn_cuboid_force_torque", p_cuboid_force, v, 27, 0, 0);
    walk("magdyn_cuboid_force_parallel", p_cuboid_parallel, v, 26, 0, 0);
    /* rel_tol (input 26) is not used by the dipole model */
    walk("magdyn_magnets_interact (dipole)", p_magnets_dipole, v, 27, 0, 1ull << 26);
    walk("magdyn_magnets_interact (cuboid)", p_magnets_cuboid, v, 27, 0, 0);
    walk("magdyn_magnets_energy (dipole)", p_energy_dipole, v, 27, 0, 1ull << 26);
    walk("magdyn_magnets_energy (cuboid)", p_energy_cuboid, v, 27, 0, 0);

    put_obb(v, magdyn_v3(0, 0, 0), magdyn_quat_identity(), magdyn_v3(0.01, 0.005, 0.0025));
    put_obb(v + 10, magdyn_v3(0.005, 0, 0.0049), magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.3),
            magdyn_v3(0.01, 0.005, 0.0025));
    put_obb(v + 20, magdyn_v3(0.5, 0, 0), magdyn_quat_identity(), magdyn_v3(0.01, 0.01, 0.01));
    walk("magdyn_obb_sat_checked", p_obb_sat, v, 20, 0, 0);
    walk("magdyn_obb_aabb", p_obb_aabb, v, 10, 0, 0);
    v[30] = 1e-3;
    walk("magdyn_broadphase_pairs", p_broadphase, v, 31, 0, 0);
    v[20] = 1e-6;
    /* a bad box gives its pair count 0 (contact.h): only the margin is refused */
    walk("magdyn_obb_manifold_pairs", p_manifold_pairs, v, 21, 0, (1ull << 20) - 1);
    {
        double d[12] = {1, 0, 0, 0, 1, 0, 0, 1, 0, -1, 0, 0};
        walk("magdyn_quat_from_frames", p_quat_frames, d, 12, 0, 0);
    }
    put_obb(v, magdyn_v3(0, 0, 0), magdyn_quat_identity(), magdyn_v3(0.01, 0.005, 0.0025));
    v[10] = 0; v[11] = 0; v[12] = -0.5; v[13] = 0; v[14] = 0; v[15] = 1;
    put_obb(v + 16, magdyn_v3(0, 0, -0.02), magdyn_quat_identity(), magdyn_v3(0.01, 0.005, 0.0025));
    v[26] = 0; v[27] = 0; v[28] = 0; v[29] = 0; v[30] = 0; v[31] = 0;
    v[32] = 0.1;
    v[33] = 1e-9;
    walk("magdyn_toi_screw", p_toi_screw, v, 34, 0, 0);
    {
        double d[6] = {0.5, 0.5, 1, 0, 1, 0.01};
        double r[10] = {0.5, 0.5, 1, 0, 0.3, 2, 1, 1e-3, 0.02, 0.005};
        walk("magdyn_disc_check", p_disc_check, d, 6, 0, 0);
        walk("magdyn_rotor_check", p_rotor_check, r, 10, 0, 0);
    }
    put_body(v, magdyn_v3(0, 0, 0.005), magdyn_v3(0, 0, -0.1));
    put_body(v + BODY_DOUBLES, magdyn_v3(0, 0, 0), magdyn_v3(0, 0, 0));
    v[40] = 0.5; v[41] = 0.3; v[42] = 1e-3; v[43] = 1e-8;
    walk("magdyn_impulse_pair", p_impulse_pair, v, 44, 0, 0);
    v[0] = 1e-4; v[1] = 0.05; v[2] = 1e-3;
    put_body(v + 3, magdyn_v3(0, 0, 0), magdyn_v3(0, 0, 0));
    v[23] = 0; v[24] = 0; v[25] = 1e-6; v[26] = 0; v[27] = 0; v[28] = 0; v[29] = 0.1; v[30] = 1e-3;
    v[31] = 1e-3;
    walk("magdyn_sleep_update", p_sleep_update, v, 32, 0, 0);
    {
        double d[9] = {0.01, 0.005, 0.002, 0.3, -0.2, 1.1, 0.004, 0.001, 0.003};
        walk("magdyn_cuboid_field (inside)", p_cuboid_field, d, 9, 0, 0);
        d[6] = 0.3;
        walk("magdyn_cuboid_field (outside)", p_cuboid_field, d, 9, 0, 0);
    }
    {
        double d[4] = {0.0, 0.1, 1e-9, 1.0};
        /* t1 = +Inf is refused too; closing_speed +Inf (input 3) bounds nothing */
        walk("magdyn_toi", p_toi, d, 4, 0, 0);
    }
    put_body(v, magdyn_v3(0, 0, 0.005), magdyn_v3(0, 0, -0.1));
    put_body(v + BODY_DOUBLES, magdyn_v3(0, 0, 0), magdyn_v3(0, 0, 0));
    v[40] = 0.5; v[41] = 0.3; v[42] = 1e-3; v[43] = 1e-8; v[44] = 0.0;
    walk("magdyn_impulse_solve", p_impulse_solve, v, 45, 0, 0);
    {
        double d[12] = {0.2, 0.2, 1, 0, 1, 0.05, 0.6, 0.2, -1, 0, 2, 0.05};
        /* a NaN or infinite field gives NaN (kinetics.h): "refused" */
        walk("magdyn_disc_contact_time", p_disc_time, d, 12, 0, 0);
    }
    ck_assert_msg(walk_fails == 0, "%d bad cases (listed on stderr)", walk_fails);
}
END_TEST

/* ---- objects: state read back field by field ----------------------------- */

/* Everything a world tells about itself, as doubles (struct padding
 * would make a memcmp of the structs meaningless). */
enum { MAGNET_DOUBLES = 21, VIEW_DOUBLES = 2 + 4 * MAGNET_DOUBLES + 10 };
typedef struct { double d[VIEW_DOUBLES]; } world_view;

static void view_world(const magdyn_world *w, world_view *v)
{
    magdyn_world_stats st;
    int i, k = 0;
    memset(v, 0, sizeof *v);
    v->d[k++] = magdyn_world_count(w);
    v->d[k++] = magdyn_world_time(w);
    for (i = 0; i < magdyn_world_count(w) && i < 4; i++) {
        magdyn_magnet m;
        double f[MAGNET_DOUBLES];
        ck_assert_int_eq(magdyn_world_get(w, i, &m), MAGDYN_OK);
        memcpy(f, &m, 20 * sizeof(double));   /* the magnet's doubles, in order */
        f[20] = m.fixed;
        memcpy(v->d + k, f, sizeof f);
        k += MAGNET_DOUBLES;
    }
    k = 2 + 4 * MAGNET_DOUBLES;
    ck_assert_int_eq(magdyn_world_get_stats(w, &st), MAGDYN_OK);
    v->d[k++] = (double)st.steps;
    v->d[k++] = (double)st.rejected;
    v->d[k++] = (double)st.contact_steps;
    v->d[k++] = (double)st.force_evals;
    v->d[k++] = (double)st.collisions;
    v->d[k++] = st.energy_restitution;
    v->d[k++] = st.energy_friction;
    v->d[k++] = (double)st.projections;
    v->d[k++] = st.energy_external;
    v->d[k++] = magdyn_world_energy(w);
}

static int same_world(const magdyn_world *w, const world_view *before)
{
    world_view now;
    view_world(w, &now);
    return memcmp(&now, before, sizeof now) == 0;
}

static magdyn_magnet magnet_at(const double *d)
{
    magdyn_magnet m = magdyn_magnet_default();
    m.half = magdyn_v3(d[0], d[1], d[2]);
    m.mass = d[3];
    m.moment = magdyn_v3(d[4], d[5], d[6]);
    m.position = magdyn_v3(d[7], d[8], d[9]);
    m.velocity = magdyn_v3(d[10], d[11], d[12]);
    m.orientation = magdyn_q(d[13], d[14], d[15], d[16]);
    m.omega = magdyn_v3(d[17], d[18], d[19]);
    return m;
}

static const double MAGNET[20] = {0.005, 0.005, 0.005, 7.5e-3, 0, 0, 0.1, 0, 0, 0.05,
                                  0, 0, -0.1, 1, 0, 0, 0, 0, 0, 1};

/* A world of two magnets 2 cm apart, advanced a little. */
static magdyn_world *two_magnets(magdyn_magnet_model model)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_magnet m = magnet_at(MAGNET);
    p.model = model;
    w = magdyn_world_new(&p);
    ck_assert_ptr_nonnull(w);
    m.position = magdyn_v3(0, 0, 0);
    m.velocity = magdyn_v3(0, 0, 0);
    ck_assert_int_eq(magdyn_world_add(w, &m), 0);
    m.position = magdyn_v3(0, 0, 0.02);
    ck_assert_int_eq(magdyn_world_add(w, &m), 1);
    ck_assert_int_eq(magdyn_world_advance(w, 1e-3), MAGDYN_OK);
    return w;
}

/* The verdict on a call that returned s on w (freed here): refused with
 * the world as it was before, or accepted with a world that then advances
 * (ENOCONV: a step too short for double precision, the world valid) to a
 * finite energy. */
static int world_verdict(magdyn_world *w, const world_view *before, int s)
{
    if (s < 0 && !same_world(w, before)) s = PROBE_CHANGED;
    else if (s >= 0) {
        magdyn_status a = magdyn_world_advance(w, 2e-3);
        s = (a == MAGDYN_OK || a == MAGDYN_ENOCONV) && isfinite(magdyn_world_energy(w))
                ? MAGDYN_OK : PROBE_NONFINITE;
    }
    magdyn_world_free(w);
    return s;
}

static int world_add_probe(const double *in, magdyn_magnet_model model)
{
    magdyn_world *w = two_magnets(model);
    magdyn_magnet m = magnet_at(in);
    world_view before;
    view_world(w, &before);
    return world_verdict(w, &before, magdyn_world_add(w, &m));
}
static int p_world_add_dipole(const double *in, unsigned char *out)
{ (void)out; return world_add_probe(in, MAGDYN_MODEL_DIPOLE); }
static int p_world_add_cuboid(const double *in, unsigned char *out)
{ (void)out; return world_add_probe(in, MAGDYN_MODEL_CUBOID); }

/* The fields changed on a world of two magnets. */
static int world_fields_probe(const double *in, magdyn_magnet_model model)
{
    magdyn_world *w = two_magnets(model);
    world_view before;
    view_world(w, &before);
    return world_verdict(w, &before, magdyn_world_set_fields(w, magdyn_v3(in[0], in[1], in[2]),
                                                             magdyn_v3(in[3], in[4], in[5])));
}
static int p_world_fields_dipole(const double *in, unsigned char *out)
{ (void)out; return world_fields_probe(in, MAGDYN_MODEL_DIPOLE); }
static int p_world_fields_cuboid(const double *in, unsigned char *out)
{ (void)out; return world_fields_probe(in, MAGDYN_MODEL_CUBOID); }

static const double FIELDS[6] = {0.0, 0.0, -9.81, 0.01, 0.0, 0.002};

START_TEST(world_walk)
{
    magdyn_world *w;
    world_view before;
    magdyn_magnet m;
    double t_end;
    int b;
    /* every field of a magnet, in both models: the magnet comes to rest
     * 5 cm above the pair (or where the bad value puts it) */
    walk("magdyn_world_add (dipole)", p_world_add_dipole, MAGNET, 20, 0, 0);
    walk("magdyn_world_add (cuboid)", p_world_add_cuboid, MAGNET, 20, 0, 0);
    walk("magdyn_world_set_fields (dipole)", p_world_fields_dipole, FIELDS, 6, 0, 0);
    walk("magdyn_world_set_fields (cuboid)", p_world_fields_cuboid, FIELDS, 6, 0, 0);
    ck_assert_msg(walk_fails == 0, "%d bad cases (listed on stderr)", walk_fails);

    /* advance: bad times, times going backwards; huge ones on an empty world */
    w = two_magnets(MAGDYN_MODEL_DIPOLE);
    for (b = 0; b < (int)NBAD; b++) {
        t_end = BAD[b];
        if (t_end > 1.0) continue;   /* 1e300 s of flight: below, empty */
        view_world(w, &before);
        ck_assert_int_lt(magdyn_world_advance(w, t_end), 0);
        ck_assert(same_world(w, &before));
    }
    view_world(w, &before);
    ck_assert_int_eq(magdyn_world_advance(w, 0.5e-3), MAGDYN_ESTATE);
    ck_assert(same_world(w, &before));
    ck_assert_int_eq(magdyn_world_advance(w, magdyn_world_time(w)), MAGDYN_OK);
    ck_assert(same_world(w, &before));
    /* indices out of range, NULL */
    m = magnet_at(MAGNET);
    {
        magdyn_magnet keep = m;
        int idx[] = {-1, 2, 1 << 30, -(1 << 30)};
        unsigned k;
        for (k = 0; k < sizeof idx / sizeof idx[0]; k++) {
            ck_assert_int_eq(magdyn_world_get(w, idx[k], &m), MAGDYN_EINVAL);
            ck_assert(memcmp(&m, &keep, sizeof m) == 0);
        }
    }
    ck_assert_int_eq(magdyn_world_get(w, 0, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_get(NULL, 0, &m), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_add(w, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_add(NULL, &m), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_advance(NULL, 1.0), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_get_stats(w, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_set_fields(NULL, m.position, m.position), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_momentum(w, NULL, &m.position), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_world_momentum(w, &m.position, NULL), MAGDYN_EINVAL);
    ck_assert(isnan(magdyn_world_time(NULL)) && isnan(magdyn_world_energy(NULL))
              && isnan(magdyn_world_kinetic_energy(NULL)));
    ck_assert_int_eq(magdyn_world_count(NULL), 0);
    /* bodies starting interpenetrating: a third magnet inside the first */
    view_world(w, &before);
    m = magnet_at(MAGNET);
    m.position = magdyn_v3(0.001, 0, 0.001);
    ck_assert_int_eq(magdyn_world_add(w, &m), MAGDYN_EOVERLAP);
    ck_assert(same_world(w, &before));
    magdyn_world_free(w);
    magdyn_world_free(NULL);

    /* an empty world takes any finite time, however large */
    w = magdyn_world_new(NULL);
    ck_assert_int_eq(magdyn_world_advance(w, 1e300), MAGDYN_OK);
    ck_assert_double_eq(magdyn_world_time(w), 1e300);
    ck_assert_int_eq(magdyn_world_advance(w, 1e299), MAGDYN_ESTATE);
    magdyn_world_free(w);
}
END_TEST

/* Every parameter of a world: out of range gives NULL, never a world that
 * cannot advance. */
START_TEST(world_params_walk)
{
    magdyn_world_params p0 = magdyn_world_params_default();
    double *fields[] = {&p0.restitution, &p0.friction, &p0.rtol, &p0.atol, &p0.max_step,
                        &p0.model_tol, &p0.gravity.x, &p0.field.z, &p0.contact_tol,
                        &p0.contact_margin, &p0.bounce_speed, &p0.contact_step,
                        &p0.sleep_speed, &p0.sleep_time, &p0.sleep_balance,
                        &p0.solver_tolerance};
    unsigned k;
    int b;
    for (k = 0; k < sizeof fields / sizeof fields[0]; k++)
        for (b = 0; b < (int)NBAD; b++) {
            magdyn_world_params p = magdyn_world_params_default();
            magdyn_world *w;
            double *f = (double *)((char *)&p + ((char *)fields[k] - (char *)&p0));
            *f = BAD[b];
            w = magdyn_world_new(&p);
            if (b < NNONFINITE && f != &p.sleep_time) ck_assert_ptr_null(w);
            if (w) {
                /* accepted: two magnets must advance or stop with a status */
                magdyn_magnet m = magnet_at(MAGNET);
                magdyn_status s;
                if (magdyn_world_add(w, &m) >= 0) {
                    m.position.z = 0.02;
                    (void)magdyn_world_add(w, &m);
                }
                s = magdyn_world_advance(w, 2e-3);
                ck_assert_msg(s == MAGDYN_OK || s == MAGDYN_ENOCONV || s == MAGDYN_ERANGE,
                              "param %u = %g: advance gives %s", k, BAD[b], magdyn_strerror(s));
                ck_assert_msg(isfinite(magdyn_world_energy(w)), "param %u = %g: energy not finite",
                              k, BAD[b]);
                magdyn_world_free(w);
            }
        }
    {
        magdyn_world_params p = magdyn_world_params_default();
        p.model = (magdyn_magnet_model)7;
        ck_assert_ptr_null(magdyn_world_new(&p));
        p = magdyn_world_params_default();
        p.solver_iterations = 0;
        ck_assert_ptr_null(magdyn_world_new(&p));
    }
}
END_TEST

/* A gas's state, field by field. */
typedef struct {
    int nd, nr;
    double t;
    long long coll;
    magdyn_disc d[4];
    magdyn_rotor r[2];
} gas_view;

static void view_gas(const magdyn_gas *g, gas_view *v)
{
    int i;
    memset(v, 0, sizeof *v);
    v->nd = magdyn_gas_discs(g);
    v->nr = magdyn_gas_rotors(g);
    v->t = magdyn_gas_time(g);
    v->coll = magdyn_gas_collisions(g);
    for (i = 0; i < v->nd && i < 4; i++) ck_assert_int_eq(magdyn_gas_get_disc(g, i, &v->d[i]), MAGDYN_OK);
    for (i = 0; i < v->nr && i < 2; i++) ck_assert_int_eq(magdyn_gas_get_rotor(g, i, &v->r[i]), MAGDYN_OK);
}

static magdyn_gas *small_gas(void)
{
    magdyn_gas_params p = magdyn_gas_params_default();
    magdyn_gas *g = magdyn_gas_new(&p);
    magdyn_disc d = {{0.2, 0.2}, {1, 0.5}, 1, 0.05};
    magdyn_rotor r = {{0.7, 0.7}, {-0.5, 0.2}, 0.3, 2, 1, 1e-3, 0.05, 0.02};
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d), 0);
    d.r = magdyn_v2(0.5, 0.2);
    d.v = magdyn_v2(-1, 0.3);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d), 1);
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &r), 0);
    ck_assert_int_eq(magdyn_gas_advance(g, 0.1), MAGDYN_OK);
    return g;
}

static int gas_probe_disc(const double *in, unsigned char *out)
{
    magdyn_gas *g = small_gas();
    magdyn_disc d = {{in[0], in[1]}, {in[2], in[3]}, in[4], in[5]};
    gas_view before, now;
    int s;
    (void)out;
    view_gas(g, &before);
    s = magdyn_gas_add_disc(g, &d);
    view_gas(g, &now);
    if (s < 0 && memcmp(&before, &now, sizeof now) != 0) s = PROBE_CHANGED;
    else if (s >= 0) {
        magdyn_status a = magdyn_gas_advance(g, 0.2);
        s = a == MAGDYN_OK || a == MAGDYN_ENOCONV ? MAGDYN_OK : PROBE_NONFINITE;
    }
    magdyn_gas_free(g);
    return s;
}

static int gas_probe_rotor(const double *in, unsigned char *out)
{
    magdyn_gas *g = small_gas();
    magdyn_rotor r = {{in[0], in[1]}, {in[2], in[3]}, in[4], in[5], in[6], in[7], in[8], in[9]};
    gas_view before, now;
    int s;
    (void)out;
    view_gas(g, &before);
    s = magdyn_gas_add_rotor(g, &r);
    view_gas(g, &now);
    if (s < 0 && memcmp(&before, &now, sizeof now) != 0) s = PROBE_CHANGED;
    else if (s >= 0) {
        magdyn_status a = magdyn_gas_advance(g, 0.2);
        s = a == MAGDYN_OK || a == MAGDYN_ENOCONV ? MAGDYN_OK : PROBE_NONFINITE;
    }
    magdyn_gas_free(g);
    return s;
}

START_TEST(gas_walk)
{
    double d[6] = {0.8, 0.3, 0.2, -0.4, 2, 0.03};
    double r[10] = {0.3, 0.7, 0.1, 0.1, 0.5, -1, 1, 2e-3, 0.06, 0.02};
    magdyn_gas *g;
    gas_view before, now;
    magdyn_disc disc, keep;
    int b;
    walk("magdyn_gas_add_disc", gas_probe_disc, d, 6, 0, 0);
    walk("magdyn_gas_add_rotor", gas_probe_rotor, r, 10, 0, 0);
    ck_assert_msg(walk_fails == 0, "%d bad cases (listed on stderr)", walk_fails);

    g = small_gas();
    view_gas(g, &before);
    for (b = 0; b < (int)NBAD; b++) {
        if (BAD[b] > 1.0) continue;
        ck_assert_int_lt(magdyn_gas_advance(g, BAD[b]), 0);
        view_gas(g, &now);
        ck_assert(memcmp(&before, &now, sizeof now) == 0);
    }
    ck_assert_int_eq(magdyn_gas_advance(g, 0.05), MAGDYN_ESTATE);   /* backwards */
    for (b = 0; b < (int)NBAD; b++) {
        magdyn_status s = magdyn_gas_set_restitution(g, BAD[b], 1.0);
        if (!(BAD[b] >= 0.0 && BAD[b] <= 1.0)) ck_assert_int_lt(s, 0);
        s = magdyn_gas_set_restitution(g, 1.0, BAD[b]);
        if (!(BAD[b] >= 0.0 && BAD[b] <= 1.0)) ck_assert_int_lt(s, 0);
    }
    ck_assert_int_eq(magdyn_gas_set_restitution(g, 1.0, 1.0), MAGDYN_OK);
    view_gas(g, &now);
    ck_assert(memcmp(&before, &now, sizeof now) == 0);
    memset(&disc, 0x5A, sizeof disc);
    keep = disc;
    ck_assert_int_eq(magdyn_gas_get_disc(g, 2, &disc), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_get_disc(g, -1, &disc), MAGDYN_EINVAL);
    ck_assert(memcmp(&disc, &keep, sizeof disc) == 0);
    ck_assert_int_eq(magdyn_gas_get_disc(g, 0, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_get_rotor(g, 1, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_add_disc(g, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_add_disc(NULL, &keep), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_add_disc_species(g, &before.d[0], -1), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_advance(NULL, 1.0), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_observe(g, 5, NULL), MAGDYN_EINVAL);
    {
        magdyn_gas_observables ob, okeep;
        long counts[4] = {-1, -1, -1, -1};
        memset(&ob, 0x5A, sizeof ob);
        okeep = ob;
        ck_assert_int_eq(magdyn_gas_observe(g, -2, &ob), MAGDYN_EINVAL);
        ck_assert(memcmp(&ob, &okeep, sizeof ob) == 0);
        ck_assert_int_eq(magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &ob), MAGDYN_OK);
        ck_assert(isfinite(ob.energy) && isfinite(ob.pressure) && isfinite(ob.kt_trans));
        for (b = 0; b < (int)NBAD; b++) {
            long r;
            counts[0] = counts[3] = -1;
            r = magdyn_gas_speed_histogram(g, MAGDYN_GAS_ALL_SPECIES, BAD[b], 4, counts);
            if (isnan(BAD[b]) || BAD[b] <= 0.0) {
                ck_assert_int_lt(r, 0);
                ck_assert(counts[0] == -1 && counts[3] == -1);
            }
        }
        counts[0] = counts[3] = -1;
        ck_assert_int_lt(magdyn_gas_speed_histogram(g, MAGDYN_GAS_ALL_SPECIES, 1.0, 0, counts), 0);
        ck_assert_int_lt(magdyn_gas_speed_histogram(g, -2, 1.0, 4, counts), 0);
        ck_assert_int_lt(magdyn_gas_speed_histogram(g, 0, 1.0, 4, NULL), 0);
        ck_assert(counts[0] == -1 && counts[3] == -1);
    }
    /* interpenetrating: a disc on top of disc 0 */
    disc = before.d[0];
    ck_assert_int_eq(magdyn_gas_add_disc(g, &disc), MAGDYN_EOVERLAP);
    view_gas(g, &now);
    ck_assert(memcmp(&before, &now, sizeof now) == 0);
    magdyn_gas_free(g);
    magdyn_gas_free(NULL);
    {
        magdyn_gas_params p = magdyn_gas_params_default();
        for (b = 0; b < (int)NBAD; b++) {
            magdyn_gas_params q = p;
            q.width = BAD[b];
            g = magdyn_gas_new(&q);
            if (b < NNONFINITE || BAD[b] <= 0.0) ck_assert_ptr_null(g);
            magdyn_gas_free(g);
        }
        ck_assert_ptr_null(magdyn_gas_new(NULL));
        /* an empty gas takes any finite time */
        g = magdyn_gas_new(&p);
        ck_assert_int_eq(magdyn_gas_advance(g, 1e300), MAGDYN_OK);
        magdyn_gas_free(g);
    }
}
END_TEST

static magdyn_status rhs_decay(void *user, const double *y, double *dydt)
{
    (void)user;
    dydt[0] = -y[0];
    dydt[1] = y[0];
    return MAGDYN_OK;
}

START_TEST(ode_walk)
{
    magdyn_ode_params p = magdyn_ode_params_default();
    magdyn_ode *o = NULL, *keep;
    double y[2] = {1, 0}, h, out[2] = {7, 7}, snap[2];
    magdyn_ode_stats st0, st1;
    int b, k;
    for (k = 0; k < 3; k++)
        for (b = 0; b < (int)NBAD; b++) {
            magdyn_ode_params q = p;
            double *f = k == 0 ? &q.rtol : k == 1 ? &q.atol : &q.max_step;
            *f = BAD[b];
            /* *out is NULL on failure (documented, ode.h) */
            keep = o = (magdyn_ode *)&snap;
            if (magdyn_ode_create(2, &q, &o) != MAGDYN_OK) ck_assert_ptr_null(o);
            else magdyn_ode_free(o);
            if (b < NNONFINITE) ck_assert_ptr_null(o);
            (void)keep;
        }
    ck_assert_int_eq(magdyn_ode_create(-1, &p, &o), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_create(2, &p, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_create(2, &p, &o), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_set_state(o, 2, 0.0, y), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_step(o, rhs_decay, NULL, 0.1, &h), MAGDYN_OK);
    memcpy(snap, magdyn_ode_state(o), sizeof snap);
    ck_assert_int_eq(magdyn_ode_get_stats(o, &st0), MAGDYN_OK);
    for (b = 0; b < (int)NBAD; b++) {
        double yb[2] = {BAD[b], 0}, hk = 42;
        magdyn_status s = magdyn_ode_set_state(o, 2, BAD[b], y);
        if (b < NNONFINITE) ck_assert_int_lt(s, 0);
        if (s == MAGDYN_OK) ck_assert_int_eq(magdyn_ode_set_state(o, 2, magdyn_ode_time(o), snap), MAGDYN_OK);
        s = magdyn_ode_set_state(o, 2, 0.0, yb);
        if (b < NNONFINITE) ck_assert_int_lt(s, 0);
        if (s == MAGDYN_OK) ck_assert_int_eq(magdyn_ode_set_state(o, 2, 0.0, snap), MAGDYN_OK);
        s = magdyn_ode_step(o, rhs_decay, NULL, BAD[b], &hk);
        if (s != MAGDYN_OK) ck_assert_double_eq(hk, 42);
        /* h_max = +Inf is no bound (at most h_max, > 0: ode.h) */
        if (isnan(BAD[b]) || BAD[b] <= 0.0) ck_assert_int_lt(s, 0);
        s = magdyn_ode_dense(o, BAD[b], 0, 2, out);
        if (s != MAGDYN_OK) ck_assert(out[0] == 7 && out[1] == 7);
        else ck_assert(isfinite(out[0]) && isfinite(out[1]));
        out[0] = out[1] = 7;
        if (!(BAD[b] >= 0 && BAD[b] <= 1)) ck_assert_int_lt(s, 0);
    }
    ck_assert_int_eq(magdyn_ode_dense(o, 0.5, 1, 2, out), MAGDYN_EINVAL);    /* range out */
    ck_assert_int_eq(magdyn_ode_dense(o, 0.5, -1, 1, out), MAGDYN_EINVAL);
    ck_assert(out[0] == 7 && out[1] == 7);
    ck_assert_int_eq(magdyn_ode_cut(o, NAN), MAGDYN_EINVAL);   /* outside [0, 1] (ode.h) */
    ck_assert_int_lt(magdyn_ode_cut(o, 1.5), 0);
    ck_assert_int_eq(magdyn_ode_step(o, NULL, NULL, 0.1, &h), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_set_state(o, 2, 0.0, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_get_stats(o, &st1), MAGDYN_OK);
    (void)st0; (void)st1;
    magdyn_ode_free(o);
    magdyn_ode_free(NULL);
}
END_TEST

/* NULL for every pointer of the functions without objects. */
START_TEST(null_pointers)
{
    magdyn_obb a = {{0, 0, 0}, {1, 0, 0, 0}, {1, 1, 1}};
    magdyn_cuboid c = {{1, 1, 1}, {0, 0, 1}, {0, 0, 0}, {1, 0, 0, 0}}, c2 = c;
    magdyn_vec3 v, pos[2] = {{0, 0, 0}, {1, 0, 0}};
    magdyn_body bd;
    int np = 0, pair[2] = {0, 1}, isl[2], start[3], mem[2], ni;
    c2.center.z = 3;
    ck_assert_int_eq(magdyn_body_init(NULL, a.half, 1, a.center, a.orientation, 0), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_body_check(NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_dipoles_interact(2, NULL, pos, NULL, NULL, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_dipoles_interact(2, pos, NULL, NULL, NULL, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_dipoles_interact(-1, pos, pos, NULL, NULL, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_cuboid_force_torque(NULL, &c2, 1e-3, &v, &v), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&c, NULL, 1e-3, &v, &v), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_cuboid_force_parallel(NULL, &c2, &v, &v), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_magnets_interact(2, NULL, MAGDYN_MODEL_DIPOLE, 1e-3, NULL, &v, &v),
                     MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_magnets_energy(1, &c, MAGDYN_MODEL_DIPOLE, 1e-3, NULL, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_obb_check(NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_obb_aabb(NULL, &v, &v), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_obb_aabb(&a, NULL, &v), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_obb_sat_checked(NULL, &a, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_broadphase_pairs(1, NULL, 0, NULL, 0, &np), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_broadphase_pairs(1, &a, 0, NULL, 0, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_broadphase_pairs(1, &a, 0, NULL, 4, &np), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_obb_overlap_pairs(1, &a, 1, pair, &np), MAGDYN_EINVAL);   /* index 1 */
    ck_assert_int_eq(magdyn_obb_manifold_pairs(1, &a, 1, pair, 0, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_islands(2, NULL, 1, pair, isl, start, mem, NULL), MAGDYN_EINVAL);
    pair[1] = 2;   /* out of range */
    ni = -7;
    ck_assert_int_eq(magdyn_islands(2, NULL, 1, pair, isl, start, mem, &ni), MAGDYN_EINVAL);
    ck_assert_int_eq(ni, -7);
    ck_assert_int_eq(magdyn_quat_from_frames(pos[1], pos[0], pos[1], pos[0], NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_toi_screw(NULL, v, v, &a, v, v, 1, 1e-9, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_disc_check(NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_rotor_check(NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_impulse_pair(NULL, &bd, NULL, NULL, NULL, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_impulse_solve(NULL, 2, NULL, 1, NULL, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_sleep_update(NULL, 1, &bd, NULL, 1e-3, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_ode_get_stats(NULL, NULL), MAGDYN_EINVAL);
    ck_assert_str_eq(magdyn_strerror((magdyn_status)-99), "unknown status");
}
END_TEST

/* The cases of issue 19, one by one: finite input that used to give
 * infinities, NaN or a silent drop. */
START_TEST(extreme_but_finite)
{
    magdyn_vec3 p[2] = {{0, 0, 0}, {1e-100, 0, 0}}, m[2] = {{0, 0, 1}, {0, 0, 1}};
    magdyn_vec3 f[2] = {{7, 7, 7}, {7, 7, 7}}, keep[2];
    double e = 7;
    memcpy(keep, f, sizeof f);
    ck_assert_int_eq(magdyn_dipoles_interact(2, p, m, f, NULL, &e), MAGDYN_EOVERLAP);
    p[1].x = 1e-320;
    ck_assert_int_eq(magdyn_dipoles_interact(2, p, m, f, NULL, &e), MAGDYN_EOVERLAP);
    p[1].x = 1;
    m[0].z = m[1].z = 1e300;
    ck_assert_int_eq(magdyn_dipoles_interact(2, p, m, f, NULL, &e), MAGDYN_ERANGE);
    ck_assert(memcmp(f, keep, sizeof f) == 0 && e == 7);
    /* a target 1e-100 m from the origin, where the kernel's padding sat */
    p[0] = magdyn_v3(1e-100, 0, 0);
    m[0].z = m[1].z = 1;
    ck_assert_int_eq(magdyn_dipoles_interact(2, p, m, f, NULL, &e), MAGDYN_OK);
    ck_assert(isfinite(f[0].x) && isfinite(f[0].z) && isfinite(e));
    {
        magdyn_cuboid a = {{0.005, 0.005, 0.005}, {0, 0, 1e155}, {0, 0, 0}, {1, 0, 0, 0}}, b = a;
        magdyn_vec3 F = {7, 7, 7}, T = {7, 7, 7};
        b.center.z = 0.02;
        ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-4, &F, &T), MAGDYN_ERANGE);
        ck_assert(F.x == 7 && T.z == 7);
    }
    {
        /* the field of a box: B depends on shape and r/size only, so a box
         * of 1e-200 or 1e200 m gives the field of one of 1 m to rounding (the
         * squares of such sizes leave the range); 1e80 sizes away the field is the
         * dipole's, J V / (4 pi r^3) (3 (j.u) u - j), not NaN */
        magdyn_vec3 J = {0.3, -0.2, 1.1}, b1, bs, bl, bf;
        double d = 1e80, k;
        b1 = magdyn_cuboid_field(magdyn_v3(1, 1, 1), J, magdyn_v3(0, 0, 2));
        bs = magdyn_cuboid_field(magdyn_v3(1e-200, 1e-200, 1e-200), J, magdyn_v3(0, 0, 2e-200));
        bl = magdyn_cuboid_field(magdyn_v3(1e200, 1e200, 1e200), J, magdyn_v3(0, 0, 2e200));
        ck_assert_double_le(magdyn_vec3_dist(b1, bs), 1e-13 * magdyn_vec3_norm(b1));
        ck_assert_double_le(magdyn_vec3_dist(b1, bl), 1e-13 * magdyn_vec3_norm(b1));
        bf = magdyn_cuboid_field(magdyn_v3(1, 1, 1), J, magdyn_v3(0, 0, d));
        k = 8.0 / (4.0 * MAGDYN_PI) / (d * d * d);   /* V / (4 pi r^3), u = z */
        ck_assert_double_eq_tol(bf.z, k * 2.0 * J.z, 1e-12 * k);
        ck_assert_double_eq_tol(bf.x, -k * J.x, 1e-12 * k);
        bf = magdyn_cuboid_field(magdyn_v3(1, 1, 1), J, magdyn_v3(1e300, 0, 0));
        ck_assert(bf.x == 0.0 && bf.y == 0.0 && bf.z == 0.0);   /* 1e-900 T: underflow */
        bf = magdyn_cuboid_field(magdyn_v3(1, 1, 1), magdyn_v3(0, 0, 1e301), magdyn_v3(0, 0, 2));
        ck_assert(isnan(bf.x) && isnan(bf.y) && isnan(bf.z));   /* refused */
    }
    {
        magdyn_world_params wp = magdyn_world_params_default();
        magdyn_magnet mg = magnet_at(MAGNET);
        magdyn_world *w;
        int model;
        for (model = 0; model < 2; model++) {
            wp.model = (magdyn_magnet_model)model;
            w = magdyn_world_new(&wp);
            mg.moment = magdyn_v3(0, 0, 1e200);
            ck_assert_int_eq(magdyn_world_add(w, &mg), MAGDYN_ERANGE);
            mg.moment = magdyn_v3(0, 0, 0.1);
            mg.mass = 1e-310;
            ck_assert_int_eq(magdyn_world_add(w, &mg), MAGDYN_ERANGE);
            mg.mass = 7.5e-3;
            mg.half.x = 1e-310;
            ck_assert_int_eq(magdyn_world_add(w, &mg), MAGDYN_ERANGE);
            mg.half.x = 0.005;
            ck_assert_int_eq(magdyn_world_count(w), 0);
            magdyn_world_free(w);
        }
    }
}
END_TEST

/* More than INT_MAX candidate pairs: 65537 boxes in one place have
 * 65537 * 65536 / 2 = 2147516416 > 2^31 - 1. */
START_TEST(broadphase_count_overflow)
{
    int n = 65537, i, np = -7, pairs[4] = {-1, -1, -1, -1};
    magdyn_obb *o = malloc((size_t)n * sizeof *o);
    ck_assert_ptr_nonnull(o);
    for (i = 0; i < n; i++) {
        o[i].center = magdyn_v3(1e-9 * i, 0, 0);
        o[i].orientation = magdyn_quat_identity();
        o[i].half = magdyn_v3(1, 1, 1);
    }
    ck_assert_int_eq(magdyn_broadphase_pairs(n, o, 0.0, pairs, 2, &np), MAGDYN_ERANGE);
    ck_assert_int_eq(np, -7);
    ck_assert_int_eq(pairs[0], -1);
    ck_assert_int_eq(pairs[3], -1);
    /* one fewer box: 2147450880 pairs, counted */
    ck_assert_int_eq(magdyn_broadphase_pairs(n - 1, o, 0.0, pairs, 2, &np), MAGDYN_OK);
    ck_assert_int_eq(np, 2147450880);
    free(o);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bad_input");
    TCase *tc = tcase_create("walk");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, functions_without_objects);
    tcase_add_test(tc, world_walk);
    tcase_add_test(tc, world_params_walk);
    tcase_add_test(tc, gas_walk);
    tcase_add_test(tc, ode_walk);
    tcase_add_test(tc, null_pointers);
    tcase_add_test(tc, extreme_but_finite);
    suite_add_tcase(s, tc);
    /* 4e9 pair tests: seconds natively, far too long under valgrind */
    if (!getenv("MAGDYN_TEST_QUICK")) {
        TCase *big = tcase_create("big");
        tcase_set_timeout(big, 600);
        tcase_add_test(big, broadphase_count_overflow);
        suite_add_tcase(s, big);
    }
    return test_run_suite(s, CK_FORK);
}
