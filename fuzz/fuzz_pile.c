/*
 * fuzz/fuzz_pile.c - libFuzzer target for world.h: a pile of 2-8 N42
 * magnets (10 mm and 5 mm cubes, 10 x 10 x 2 mm plates; a few plain
 * boxes), built from bytes into a valid state (so the fuzzer explores
 * snapping, stacking and sliding rather than refusals), optionally over a
 * fixed steel plate with gravity, advanced in 1 ms chunks, with the
 * physical invariants checked after each:
 *  - every advance returns MAGDYN_OK and ends at its t_end, or stops
 *    before it at the step budget (MAGDYN_EBUDGET, 2e4 steps; 40 with the
 *    extended model, whose forces near contact cost ~1 ms each);
 *  - no two magnets overlap by more than 1 um plus 20 contact_tol (the
 *    world tests' bound at the default contact_tol, 1e-9 m; the resting-
 *    contact step pushes out what sinks deeper, and how deep magnets
 *    snapping together sink goes with contact_tol: 0.1, 0.3 and 1.0 um at
 *    1e-9, 1e-8 and 1e-7 m in one seven-magnet input);
 *  - the energy never rises above its start by more than 1e-3 of the
 *    energy scale (the larger of |E0| and the largest kinetic energy seen),
 *    plus, with the extended model, what its two evaluations may err by
 *    (model_tol of each pair's |energy|, at the start and at the end):
 *    energy leaves only through restitution and friction;
 *  - without the plate and gravity, the linear momentum is kept (internal
 *    forces and impulses only) to 1e-9 of the momentum scale.
 * Input bytes: count, flags (bit 0 plate and gravity, bit 1 the extended
 * cuboid model, for at most 3 magnets and 1 ms, bit 2 contact_tol 1e-7 m
 * and the theta-method contact step, start weight 0.45 or, with bit 3,
 * 0.3), restitution, friction,
 * then 8 bytes a magnet (shape, x, y, z, tilt axis, tilt angle, moment
 * axis, speed).
 */
#include <magdyn.h>
#include "fuzz_util.h"

#define J_N42 1.3           /* [T] */
#define DENSITY 7500.0      /* [kg/m^3], sintered NdFeB */

static double unit(fz_in *in) { return fz_byte(in) / 255.0; }

static int any_overlap_beyond(const magdyn_world *w, double tol)
{
    int n = magdyn_world_count(w);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            magdyn_magnet a, b;
            magdyn_world_get(w, i, &a);
            magdyn_world_get(w, j, &b);
            magdyn_obb oa = {a.position, a.orientation, a.half}, ob = {b.position, b.orientation, b.half};
            magdyn_sat_result r;
            if (magdyn_obb_sat(&oa, &ob, &r) && r.separation < -tol) {
                fprintf(stderr, "magnets %d and %d overlap by %g m\n", i, j, -r.separation);
                return 1;
            }
        }
    return 0;
}

/* The sum over pairs of |interaction energy| [J] with the extended model
 * at rel_tol: model_tol of it bounds what an energy evaluation may err by. */
static double pair_energy_sum(const magdyn_world *w, double rel_tol)
{
    int n = magdyn_world_count(w);
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            magdyn_cuboid c[2];
            int k[2] = {i, j};
            double e = 0.0;
            for (int b = 0; b < 2; b++) {
                magdyn_magnet m;
                magdyn_world_get(w, k[b], &m);
                c[b].half = m.half;
                c[b].polarization = magdyn_vec3_scale(m.moment, MAGDYN_MU0 / (8.0 * m.half.x * m.half.y * m.half.z));
                c[b].center = m.position;
                c[b].orientation = m.orientation;
            }
            if (magdyn_magnets_energy(2, c, MAGDYN_MODEL_CUBOID, rel_tol, NULL, &e) == MAGDYN_OK) sum += fabs(e);
        }
    return sum;
}

static magdyn_magnet magnet_of(fz_in *in, int on_plate)
{
    static const double halves[4][3] = {
        {0.005, 0.005, 0.005}, {0.0025, 0.0025, 0.0025}, {0.005, 0.005, 0.001}, {0.005, 0.005, 0.005}};
    magdyn_magnet m = magdyn_magnet_default();
    unsigned shape = fz_byte(in) % 4, axis;
    double vol, u[3], ax[3], ang, sp;
    m.half = magdyn_v3(halves[shape][0], halves[shape][1], halves[shape][2]);
    vol = 8.0 * m.half.x * m.half.y * m.half.z;
    m.mass = DENSITY * vol;
    for (int k = 0; k < 3; k++) u[k] = unit(in);
    m.position = magdyn_v3(0.03 * (2 * u[0] - 1), 0.03 * (2 * u[1] - 1),
                           on_plate ? 0.006 + 0.04 * u[2] : 0.03 * (2 * u[2] - 1));
    axis = fz_byte(in);
    ax[0] = (axis & 3) - 1.5;
    ax[1] = (axis >> 2 & 3) - 1.5;
    ax[2] = (axis >> 4 & 3) - 1.5;
    ang = MAGDYN_PI * unit(in);
    m.orientation = magdyn_quat_from_axis_angle(magdyn_v3(ax[0], ax[1], ax[2]), ang);
    /* the moment along one of the body axes, either way; shape 3 a plain box */
    axis = fz_byte(in) % 6;
    if (shape != 3)
        m.moment = magdyn_vec3_scale(magdyn_v3(axis / 2 == 0, axis / 2 == 1, axis / 2 == 2),
                                     (axis & 1 ? -1.0 : 1.0) * J_N42 * vol / MAGDYN_MU0);
    sp = 0.5 * unit(in);
    m.velocity = magdyn_v3(sp * ax[0], sp * ax[1], sp * ax[2]);
    return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    int n = 2 + (int)(fz_byte(&in) % 7);
    unsigned flags = fz_byte(&in);
    int plate = flags & 1, cuboid = (flags & 2) && n <= 3;
    magdyn_world_params p = magdyn_world_params_default();
    p.restitution = unit(&in);
    p.friction = unit(&in);
    if (plate) p.gravity = magdyn_v3(0, 0, -9.81);
    if (flags & 4) {
        p.contact_tol = 1e-7;
        p.contact_start_weight = flags & 8 ? 0.3 : 0.45;
    }
    if (cuboid) {
        p.model = MAGDYN_MODEL_CUBOID;
        p.model_tol = 1e-3;
    }
    /* the host's bound on the work of one advance: a snap with the extended
       model costs ~1 ms of CPU a step near contact (issue: the exact model at
       the speed of point dipoles), a tumbling pair of point dipoles ~1e3
       steps a millisecond */
    p.max_steps = cuboid ? 40 : 20000;
    magdyn_world *w = magdyn_world_new(&p);
    FZ_ASSERT(w);
    if (plate) {
        magdyn_magnet s = magdyn_magnet_default();
        s.half = magdyn_v3(0.1, 0.1, 0.005);
        s.mass = 1.6;
        s.position = magdyn_v3(0, 0, -0.005);
        s.fixed = 1;
        FZ_ASSERT(magdyn_world_add(w, &s) == 0);
    }
    for (int i = 0; i < n; i++) {
        magdyn_magnet m = magnet_of(&in, plate);
        int k = magdyn_world_add(w, &m);
        /* a magnet placed into another is refused, and the world kept */
        FZ_ASSERT(k >= 0 || k == MAGDYN_EOVERLAP);
    }
    double pscale = 0.0, escale, e0 = magdyn_world_energy(w), eval0 = cuboid ? pair_energy_sum(w, p.model_tol) : 0.0;
    magdyn_vec3 p0, l0, pn, ln;
    for (int i = 0; i < magdyn_world_count(w); i++) {
        magdyn_magnet m;
        magdyn_world_get(w, i, &m);
        if (!m.fixed) pscale += m.mass * (magdyn_vec3_norm(m.velocity) + 1.0);
    }
    FZ_ASSERT(isfinite(e0));
    escale = fmax(fabs(e0), magdyn_world_kinetic_energy(w));
    magdyn_world_momentum(w, &p0, &l0);
    for (int c = 1; c <= (cuboid ? 1 : 3); c++) {
        double t = 1e-3 * c;
        magdyn_status s = magdyn_world_advance(w, t);
        if (s != MAGDYN_OK && s != MAGDYN_EBUDGET) fprintf(stderr, "advance to %g: %s\n", t, magdyn_strerror(s));
        FZ_ASSERT(s == MAGDYN_OK || s == MAGDYN_EBUDGET);
        FZ_ASSERT(s == MAGDYN_OK ? magdyn_world_time(w) == t : magdyn_world_time(w) < t);
        FZ_ASSERT(!any_overlap_beyond(w, 1e-6 + 20.0 * p.contact_tol));
        escale = fmax(escale, magdyn_world_kinetic_energy(w));
        double e = magdyn_world_energy(w);
        double allow = 1e-3 * escale + (cuboid ? p.model_tol * (eval0 + pair_energy_sum(w, p.model_tol)) : 0.0);
        if (!(e <= e0 + allow)) fprintf(stderr, "energy %.12g -> %.12g at %g s\n", e0, e, t);
        FZ_ASSERT(e <= e0 + allow);
        if (!plate) {
            magdyn_world_momentum(w, &pn, &ln);
            FZ_ASSERT(magdyn_vec3_dist(pn, p0) <= 1e-9 * pscale);
        }
        if (s == MAGDYN_EBUDGET) break;
    }
    magdyn_world_free(w);
    return 0;
}
