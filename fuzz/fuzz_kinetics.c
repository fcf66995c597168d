/*
 * fuzz/fuzz_kinetics.c - libFuzzer target for kinetics.h and gas.h: contact
 * times and collisions of discs and rotors from raw doubles, then a small
 * gas (a few of those particles) advanced a little.
 * Input: 2 discs (r 2, v 2, mass, radius), 2 rotors (r 2, v 2, angle,
 * omega, mass, inertia, half_length, end_radius), restitution, horizon,
 * gas width, height, t_end, then one flags byte (periodic, which to add).
 */
#include <float.h>
#include <magdyn.h>
#include "fuzz_util.h"

static magdyn_disc read_disc(fz_in *in)
{
    magdyn_disc d;
    d.r.x = fz_double(in); d.r.y = fz_double(in);
    d.v.x = fz_double(in); d.v.y = fz_double(in);
    d.mass = fz_double(in); d.radius = fz_double(in);
    return d;
}

static magdyn_rotor read_rotor(fz_in *in)
{
    magdyn_rotor r;
    r.r.x = fz_double(in); r.r.y = fz_double(in);
    r.v.x = fz_double(in); r.v.y = fz_double(in);
    r.angle = fz_double(in); r.omega = fz_double(in);
    r.mass = fz_double(in); r.inertia = fz_double(in);
    r.half_length = fz_double(in); r.end_radius = fz_double(in);
    return r;
}

/* A contact time is NaN (bad input only), >= 0, or +INFINITY. */
static void check_time(double t, int good)
{
    if (!good) FZ_ASSERT(isnan(t));
    else FZ_ASSERT(!isnan(t) && t >= 0);
}

/* The gas's kinetic energy, translation and spin [J]. */
static double gas_energy(const magdyn_gas *g, int nd, int nr)
{
    double e = 0;
    for (int i = 0; i < nd; i++) {
        magdyn_disc o;
        magdyn_gas_get_disc(g, i, &o);
        e += 0.5 * o.mass * (o.v.x * o.v.x + o.v.y * o.v.y);
    }
    for (int i = 0; i < nr; i++) {
        magdyn_rotor o;
        magdyn_gas_get_rotor(g, i, &o);
        e += 0.5 * o.mass * (o.v.x * o.v.x + o.v.y * o.v.y) + 0.5 * o.inertia * o.omega * o.omega;
    }
    return e;
}

/* Largest speed, translation plus rotor tip, that any particle of g can
 * reach with all of the gas's kinetic energy e. */
static double gas_speed_bound(const magdyn_gas *g, int nd, int nr, double e)
{
    double mmin = INFINITY, tip = 0;
    for (int i = 0; i < nd; i++) {
        magdyn_disc o;
        magdyn_gas_get_disc(g, i, &o);
        mmin = fmin(mmin, o.mass);
    }
    for (int i = 0; i < nr; i++) {
        magdyn_rotor o;
        magdyn_gas_get_rotor(g, i, &o);
        mmin = fmin(mmin, o.mass);
        tip = fmax(tip, sqrt(2 * e / o.inertia) * o.half_length);
    }
    /* the particles' own speeds too: the energy may underflow to 0 */
    double vmax = 0;
    for (int i = 0; i < nd; i++) {
        magdyn_disc o;
        magdyn_gas_get_disc(g, i, &o);
        vmax = fmax(vmax, hypot(o.v.x, o.v.y));
    }
    for (int i = 0; i < nr; i++) {
        magdyn_rotor o;
        magdyn_gas_get_rotor(g, i, &o);
        vmax = fmax(vmax, hypot(o.v.x, o.v.y) + fabs(o.omega * o.half_length));
    }
    return fmax(isfinite(mmin) ? sqrt(2 * e / mmin) + tip : 0, vmax);
}

/* Largest spin rate [rad/s] that any rotor of g can reach with the
 * kinetic energy e, or its own spin if larger (e may underflow). */
static double gas_spin_bound(const magdyn_gas *g, int nr, double e)
{
    double w = 0;
    for (int i = 0; i < nr; i++) {
        magdyn_rotor o;
        magdyn_gas_get_rotor(g, i, &o);
        w = fmax(w, fmax(sqrt(2 * e / o.inertia), fabs(o.omega)));
    }
    return w;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    magdyn_disc d[2] = {read_disc(&in), read_disc(&in)};
    magdyn_rotor ro[2] = {read_rotor(&in), read_rotor(&in)};
    double e = fz_double(&in), horizon = fz_double(&in);
    double width = fz_double(&in), height = fz_double(&in), t_end = fz_double(&in);
    unsigned flags = fz_byte(&in);

    int dg[2], rg[2];
    for (int i = 0; i < 2; i++) {
        dg[i] = magdyn_disc_check(&d[i]) == MAGDYN_OK;
        rg[i] = magdyn_rotor_check(&ro[i]) == MAGDYN_OK;
    }
    int hg = !isnan(horizon) && horizon >= 0;
    int eg = e >= 0 && e <= 1;
    /* Spinning rotors need a finite horizon (bounded work). */
    double hz = isfinite(horizon) || !(horizon > 0) ? horizon : 1.0;
    if (hz > 10.0) hz = 10.0;

    check_time(magdyn_disc_contact_time(&d[0], &d[1]), dg[0] && dg[1]);
    check_time(magdyn_rotor_disc_contact_time(&ro[0], &d[0], hz), rg[0] && dg[0] && hg);
    check_time(magdyn_rotor_rotor_contact_time(&ro[0], &ro[1], hz), rg[0] && rg[1] && hg);
    (void)magdyn_disc_contact_time(NULL, &d[1]);
    (void)magdyn_rotor_disc_contact_time(&ro[0], NULL, hz);

    /* Collisions: bad input leaves both bodies untouched; good input keeps
     * linear momentum (to rounding). */
    magdyn_disc dc[2] = {d[0], d[1]};
    magdyn_disc_collide(&dc[0], &dc[1], e);
    if (!(dg[0] && dg[1] && eg))
        FZ_ASSERT(FZ_SAME(dc[0], d[0]) && FZ_SAME(dc[1], d[1]));
    else {
        double p0 = d[0].mass * d[0].v.x + d[1].mass * d[1].v.x;
        double p1 = dc[0].mass * dc[0].v.x + dc[1].mass * dc[1].v.x;
        double sc = fabs(d[0].mass * d[0].v.x) + fabs(d[1].mass * d[1].v.x)
                    + fabs(d[0].mass * d[0].v.y) + fabs(d[1].mass * d[1].v.y);
        if (isfinite(sc) && isfinite(p1) && sc < 1e300)
            FZ_ASSERT(fabs(p1 - p0) <= 1e-9 * sc + 1e-300);
        FZ_ASSERT(!isnan(dc[0].v.x) && !isnan(dc[1].v.y));
    }
    magdyn_disc_collide(&dc[0], &dc[0], e);

    magdyn_rotor rc = ro[0];
    magdyn_disc dd = d[0];
    magdyn_rotor_disc_collide(&rc, &dd, e);
    if (!(rg[0] && dg[0] && eg))
        FZ_ASSERT(FZ_SAME(rc, ro[0]) && FZ_SAME(dd, d[0]));
    else
        FZ_ASSERT(!isnan(rc.v.x) && !isnan(rc.omega) && !isnan(dd.v.x));
    magdyn_rotor rr[2] = {ro[0], ro[1]};
    magdyn_rotor_rotor_collide(&rr[0], &rr[1], e);
    if (!(rg[0] && rg[1] && eg))
        FZ_ASSERT(FZ_SAME(rr[0], ro[0]) && FZ_SAME(rr[1], ro[1]));
    else
        FZ_ASSERT(!isnan(rr[0].omega) && !isnan(rr[1].omega) && !isnan(rr[0].v.y));

    magdyn_rough_disc ra = {d[0], ro[0].omega, ro[0].inertia};
    magdyn_rough_disc rb = {d[1], ro[1].omega, ro[1].inertia};
    magdyn_rough_disc_collide(&ra, &rb, e, horizon);

    /* A small gas. */
    magdyn_gas_params gp = {.width = width, .height = height, .periodic = (int)(flags & 1)};
    magdyn_gas *g = magdyn_gas_new(&gp);
    if (!g) return 0;
    if (flags & 2) (void)magdyn_gas_set_restitution(g, e, e);
    int nd = 0, nr = 0;
    for (int i = 0; i < 2; i++) {
        if (flags & (4u << i)) {
            magdyn_disc keep = d[i];
            int k = magdyn_gas_add_disc(g, &d[i]);
            FZ_ASSERT(FZ_SAME(keep, d[i]));
            if (k >= 0) FZ_ASSERT(k == nd++);
        }
        if (flags & (16u << i)) {
            int k = magdyn_gas_add_rotor(g, &ro[i]);
            if (k >= 0) FZ_ASSERT(k == nr++);
        }
    }
    FZ_ASSERT(magdyn_gas_discs(g) == nd && magdyn_gas_rotors(g) == nr);
    double te = isfinite(t_end) ? fabs(t_end) : t_end;
    if (!(te <= 1e-2)) te = 1e-2;
    /* The gas's work is its number of events, about the distance travelled
     * over the box size: a disc at 1e111 m/s bounces 1e109 times in 10 ms.
     * Allow at most ~1000 box lengths at the fastest speed the energy
     * permits (rotors trade spin for translation). */
    double ke = gas_energy(g, nd, nr);
    double u = gas_speed_bound(g, nd, nr, ke), len = fmin(width, height);
    if (u > 0 && !(te * u <= 1e3 * len)) te = 1e3 * len / u;
    /* A rotor pressed on a neighbour strikes it about twice a turn, however
     * small it is beside the box: allow at most ~100 turns too. */
    double w = gas_spin_bound(g, nr, ke);
    if (w > 0 && !(te * w <= 2e2 * MAGDYN_PI)) te = 2e2 * MAGDYN_PI / w;
    /* A rotor's end skipping along a neighbour makes millions of elastic
     * collisions in a moment, far below the box's crossing time: the
     * event budget bounds the work (a call stopped by it stands at its
     * last event, and a second call goes on from there). */
    FZ_ASSERT(magdyn_gas_set_event_budget(g, -1) == MAGDYN_EINVAL);
    FZ_ASSERT(magdyn_gas_set_event_budget(g, 100000) == MAGDYN_OK);
    magdyn_status s = magdyn_gas_advance(g, te);
    if (s == MAGDYN_EBUDGET) {
        double tb = magdyn_gas_time(g);
        FZ_ASSERT(tb >= 0 && tb <= te);
        s = magdyn_gas_advance(g, te);
        FZ_ASSERT(magdyn_gas_time(g) >= tb);
    }
    if (s == MAGDYN_OK) FZ_ASSERT(magdyn_gas_time(g) == te);
    FZ_ASSERT(s <= 0);
    for (int i = 0; i < nd; i++) {
        magdyn_disc o;
        FZ_ASSERT(magdyn_gas_get_disc(g, i, &o) == MAGDYN_OK);
        FZ_ASSERT(!isnan(o.r.x) && !isnan(o.r.y) && !isnan(o.v.x) && !isnan(o.v.y));
    }
    for (int i = 0; i < nr; i++) {
        magdyn_rotor o;
        FZ_ASSERT(magdyn_gas_get_rotor(g, i, &o) == MAGDYN_OK);
        FZ_ASSERT(!isnan(o.r.x) && !isnan(o.angle) && !isnan(o.omega));
    }
    if (nd == 2 && (s == MAGDYN_OK || s == MAGDYN_EBUDGET)) {
        /* never an overlap (minimum image in a periodic box), to the
         * contact tolerance and the rounding of the coordinates */
        magdyn_disc a, b;
        magdyn_gas_get_disc(g, 0, &a);
        magdyn_gas_get_disc(g, 1, &b);
        double dx = fabs(a.r.x - b.r.x), dy = fabs(a.r.y - b.r.y), sum = a.radius + b.radius;
        if (gp.periodic) {
            dx = fmin(dx, width - dx);
            dy = fmin(dy, height - dy);
        }
        FZ_ASSERT(hypot(dx, dy) >= sum * (1.0 - 1e-9) - 8.0 * DBL_EPSILON * fmax(width, height));
    }
    magdyn_gas_observables ob;
    (void)magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &ob);
    FZ_ASSERT(magdyn_gas_advance(g, -1.0) < 0 || s != MAGDYN_OK);
    magdyn_gas_free(g);
    return 0;
}
