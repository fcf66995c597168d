/*
 * fuzz/fuzz_world.c - libFuzzer target for world.h: a world of 2-3 magnets
 * from raw doubles, advanced a short time (t_end <= 2 ms, ~1e3 rad of spin
 * or 30 for cuboids, and ~1e2 sizes of travel bound the work),
 * checking that refused magnets leave the world unchanged and that the
 * state stays finite after a successful advance.
 * Input: 3 magnets (half 3, mass, moment 3, position 3, velocity 3,
 * quat 4, omega 3), restitution, friction, t_end, then a flags byte
 * (bit 0 extended cuboid model, bit 1 a third magnet, bit 2 the first one
 * fixed, bit 3 gravity, bit 4 an external field).
 */
#include <magdyn.h>
#include "fuzz_util.h"

static magdyn_vec3 read_vec(fz_in *in)
{
    magdyn_vec3 v;
    v.x = fz_double(in); v.y = fz_double(in); v.z = fz_double(in);
    return v;
}

static magdyn_magnet read_magnet(fz_in *in)
{
    magdyn_magnet m;
    memset(&m, 0, sizeof m);
    m.half = read_vec(in);
    m.mass = fz_double(in);
    m.moment = read_vec(in);
    m.position = read_vec(in);
    m.velocity = read_vec(in);
    m.orientation.w = fz_double(in); m.orientation.x = fz_double(in);
    m.orientation.y = fz_double(in); m.orientation.z = fz_double(in);
    m.omega = read_vec(in);
    return m;
}

static int finite_magnet(const magdyn_magnet *m)
{
    return isfinite(m->position.x) && isfinite(m->position.y) && isfinite(m->position.z)
           && isfinite(m->velocity.x) && isfinite(m->velocity.y) && isfinite(m->velocity.z)
           && isfinite(m->omega.x) && isfinite(m->omega.y) && isfinite(m->omega.z)
           && isfinite(m->orientation.w) && isfinite(m->orientation.x)
           && isfinite(m->orientation.y) && isfinite(m->orientation.z);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    magdyn_magnet mg[3];
    for (int i = 0; i < 3; i++) mg[i] = read_magnet(&in);
    double e = fz_double(&in), mu = fz_double(&in), t_end = fz_double(&in);
    unsigned flags = fz_byte(&in);

    magdyn_world_params p = magdyn_world_params_default();
    p.restitution = e;
    p.friction = mu;
    p.rtol = 1e-6;
    p.atol = 1e-9;
    p.model = (flags & 1) ? MAGDYN_MODEL_CUBOID : MAGDYN_MODEL_DIPOLE;
    p.model_tol = 1e-3;
    if (flags & 8) p.gravity = magdyn_v3(0.0, 0.0, -9.81);
    if (flags & 16) p.field = magdyn_v3(0.0, 1e-3, 0.0);
    /* the host's bound on the work: a needle 1e-16 m thick steps 1e-18 m
       at a time, a rod 655 m long has a cubature to match
       (fuzz/corpus/world/regress-needle.bin, regress-long-rod.bin) */
    p.max_steps = (flags & 1) ? 200 : 5000;
    magdyn_world *w = magdyn_world_new(&p);
    if (!w) {
        /* only out-of-range parameters may refuse */
        FZ_ASSERT(!(e >= 0 && e <= 1 && mu >= 0 && isfinite(mu)));
        return 0;
    }
    int n = (flags & 2) ? 3 : 2, added = 0;
    if (flags & 4) mg[0].fixed = 1;
    for (int i = 0; i < n; i++) {
        double e0 = magdyn_world_energy(w);
        int k = magdyn_world_add(w, &mg[i]);
        if (k >= 0) {
            FZ_ASSERT(k == added++);
        } else {
            FZ_ASSERT(magdyn_world_count(w) == added);
            double e1 = magdyn_world_energy(w);
            FZ_ASSERT(FZ_SAME(e0, e1) || (isnan(e0) && isnan(e1)));
        }
    }
    FZ_ASSERT(magdyn_world_count(w) == added);

    double te = isfinite(t_end) ? fabs(t_end) : t_end;
    if (!(te <= 2e-3)) te = 2e-3;
    /* The integrator resolves every turn and every box length travelled: a
     * magnet spinning at 1e10 rad/s takes ~1e8 steps in 2 ms (work, not a
     * bug).  Allow ~1e3 rad and ~1e2 own sizes at the starting rates; with
     * extended cuboids, whose forces come from a cubature (~40 us a pair),
     * ~30 rad (5 turns): a cube at 1.3e5 rad/s took 1965 steps and 16412 force
     * evaluations, 0.64 s optimised, for 262 rad (regress-spinning-cube). */
    const double spin_max = (flags & 1) ? 3e1 : 1e3;
    for (int i = 0; i < added; i++) {
        magdyn_magnet m;
        magdyn_world_get(w, i, &m);
        double om = magdyn_vec3_norm(m.omega), v = magdyn_vec3_norm(m.velocity);
        double len = fmin(fmin(m.half.x, m.half.y), m.half.z);
        if (om > 0 && !(te * om <= spin_max)) te = spin_max / om;
        if (v > 0 && !(te * v <= 1e2 * len)) te = 1e2 * len / v;
    }
    magdyn_status s = magdyn_world_advance(w, te);
    FZ_ASSERT(s <= 0);
    double now = magdyn_world_time(w);
    FZ_ASSERT(!isnan(now) && now >= 0 && now <= te);
    if (s == MAGDYN_EBUDGET) FZ_ASSERT(now < te);
    if (s == MAGDYN_OK) FZ_ASSERT(now == te);
    for (int i = 0; i < added; i++) {
        magdyn_magnet o;
        FZ_ASSERT(magdyn_world_get(w, i, &o) == MAGDYN_OK);
        FZ_ASSERT(finite_magnet(&o));
    }
    FZ_ASSERT(magdyn_world_advance(w, -1.0) < 0);
    FZ_ASSERT(magdyn_world_advance(w, NAN) < 0);
    magdyn_magnet o;
    FZ_ASSERT(magdyn_world_get(w, added, &o) < 0);
    (void)magdyn_world_energy(w);
    magdyn_world_free(w);
    return 0;
}
