/*
 * fuzz/fuzz_gas.c - libFuzzer target for gas.h: a gas of up to 32 discs and
 * 8 rotors, built from bytes into a valid state (so the fuzzer explores
 * dynamics, not refusals), advanced in eight chunks, with the physical
 * invariants checked after each:
 *  - every advance returns MAGDYN_OK and ends at its t_end: at any
 *    restitution in [0, 1] the gas makes progress (no inelastic collapse
 *    reported as failure);
 *  - no two discs overlap (their distance, minimum image in a periodic
 *    box, is at least the sum of the radii less 1e-9 of it);
 *  - the kinetic energy never rises (by 1e-12 relative, rounding), and is
 *    kept to 1e-9 relative when pairs and walls are elastic;
 *  - in a periodic box the linear momentum is kept by collisions of any
 *    restitution (Newton's third law), to 1e-9 of the momentum scale.
 * Input bytes: discs, rotors, flags (bit 0 periodic), pair restitution,
 * wall restitution, then 6 bytes a particle (cell jitter x, y, size,
 * speed, direction, spin or angle).
 */
#include <magdyn.h>
#include "fuzz_util.h"

/* The box is 1 m square, split into 8 x 8 cells; particle k sits in cell
 * k (a fixed lattice of 64 > 32 + 8), its reach (at most 0.06 m) inside it. */
#define BOX 1.0
#define CELLS 8
#define CELL (BOX / CELLS)
#define REACH_MAX 0.06

static double unit(fz_in *in) { return fz_byte(in) / 255.0; }

/* The restitution of byte b: 0 and 1 exactly at the ends, else b / 255. */
static double restitution_of(unsigned b) { return b == 0 ? 0.0 : b >= 250 ? 1.0 : b / 255.0; }

/* Centre of cell k, moved by up to the slack that keeps reach inside it. */
static magdyn_vec2 place(int k, double reach, double jx, double jy)
{
    double slack = 0.5 * CELL - reach - 1e-6;   /* (clear of a wall by more than rounding) */
    magdyn_vec2 r;
    r.x = (k % CELLS + 0.5) * CELL + slack * (2.0 * jx - 1.0);
    r.y = (k / CELLS + 0.5) * CELL + slack * (2.0 * jy - 1.0);
    return r;
}

static double energy_of(const magdyn_gas *g, magdyn_vec2 *p)
{
    magdyn_gas_observables o;
    FZ_ASSERT(magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o) == MAGDYN_OK);
    *p = o.momentum;
    return o.energy;
}

/* The smallest gap of two discs, relative to their radii sum (< 0: overlap). */
static double worst_disc_gap(const magdyn_gas *g, int nd, int periodic)
{
    double worst = INFINITY;
    for (int i = 0; i < nd; i++)
        for (int j = i + 1; j < nd; j++) {
            magdyn_disc a, b;
            magdyn_gas_get_disc(g, i, &a);
            magdyn_gas_get_disc(g, j, &b);
            double dx = a.r.x - b.r.x, dy = a.r.y - b.r.y, s = a.radius + b.radius;
            if (periodic) {
                dx -= BOX * round(dx / BOX);
                dy -= BOX * round(dy / BOX);
            }
            worst = fmin(worst, (sqrt(dx * dx + dy * dy) - s) / s);
        }
    return worst;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    int nd = (int)(fz_byte(&in) % 33), nr = (int)(fz_byte(&in) % 9);
    unsigned flags = fz_byte(&in);
    double e_pair = restitution_of(fz_byte(&in)), e_wall = restitution_of(fz_byte(&in));
    magdyn_gas_params gp = {.width = BOX, .height = BOX, .periodic = flags & 1};
    magdyn_gas *g = magdyn_gas_new(&gp);
    double pscale = 0.0, t_end = 0.05 + 0.45 * unit(&in);
    FZ_ASSERT(g);
    FZ_ASSERT(magdyn_gas_set_restitution(g, e_pair, e_wall) == MAGDYN_OK);
    for (int k = 0; k < nd + nr; k++) {
        double jx = unit(&in), jy = unit(&in), sz = unit(&in), sp = 2.0 * unit(&in);
        double dir = 2.0 * MAGDYN_PI * unit(&in), turn = unit(&in);
        if (k < nd) {
            magdyn_disc d;
            d.radius = 0.01 + 0.04 * sz;
            d.mass = 1e-3 * (1.0 + 9.0 * sz);
            d.r = place(k, d.radius, jx, jy);
            d.v.x = sp * cos(dir);
            d.v.y = sp * sin(dir);
            FZ_ASSERT(magdyn_gas_add_disc(g, &d) == k);
            pscale += d.mass * sp;
        } else {
            magdyn_rotor r;
            r.end_radius = 0.01 + 0.01 * sz;
            r.half_length = 0.01 + 0.03 * turn;
            r.mass = 2e-3 * (1.0 + sz);
            r.inertia = r.mass * (r.half_length * r.half_length + 0.5 * r.end_radius * r.end_radius);
            r.r = place(k, r.half_length + r.end_radius, jx, jy);
            r.v.x = sp * cos(dir);
            r.v.y = sp * sin(dir);
            r.angle = 2.0 * MAGDYN_PI * turn;
            r.omega = 50.0 * (2.0 * sz - 1.0);
            int got = magdyn_gas_add_rotor(g, &r);
            if (got != k - nd) fprintf(stderr, "rotor %d: %s\n", k - nd, magdyn_strerror(got));
            FZ_ASSERT(got == k - nd);
            pscale += r.mass * (sp + fabs(r.omega) * (r.half_length + r.end_radius));
        }
    }
    magdyn_vec2 p0, p;
    double e0 = energy_of(g, &p0), e_prev = e0;
    for (int c = 1; c <= 8; c++) {
        double t = t_end * c / 8.0;
        magdyn_status s = magdyn_gas_advance(g, t);
        if (s != MAGDYN_OK)
            fprintf(stderr, "advance to %g: %s after %lld collisions (e %g, wall %g)\n", t, magdyn_strerror(s),
                    magdyn_gas_collisions(g), e_pair, e_wall);
        FZ_ASSERT(s == MAGDYN_OK);
        FZ_ASSERT(magdyn_gas_time(g) == t);
        FZ_ASSERT(worst_disc_gap(g, nd, gp.periodic) >= -1e-9);
        double e = energy_of(g, &p);
        FZ_ASSERT(e <= e_prev * (1.0 + 1e-12) + 1e-300);
        if (e_pair == 1.0 && (e_wall == 1.0 || gp.periodic)) FZ_ASSERT(fabs(e - e0) <= 1e-9 * e0);
        if (gp.periodic)
            FZ_ASSERT(fabs(p.x - p0.x) + fabs(p.y - p0.y) <= 1e-9 * pscale + 1e-300);
        e_prev = e;
    }
    magdyn_gas_free(g);
    return 0;
}
