/*
 * test_gas.c - layer 2: the event-driven gas, small exact cases and input
 * checking.  Analytic references: free flight, specular reflection, and the
 * head-on elastic collision (velocities exchanged for equal masses).
 */
#include <check.h>
#include <math.h>
#include <string.h>
#include "test_gas.h"

static magdyn_disc mkdisc(double x, double y, double vx, double vy, double m, double r)
{
    magdyn_disc d;
    d.r = magdyn_v2(x, y); d.v = magdyn_v2(vx, vy); d.mass = m; d.radius = r;
    return d;
}

static magdyn_rotor mkrotor(double x, double y, double angle, double omega)
{
    magdyn_rotor q;
    memset(&q, 0, sizeof q);
    q.r = magdyn_v2(x, y); q.angle = angle; q.omega = omega;
    q.mass = 2; q.half_length = 1; q.end_radius = 0.25;
    q.inertia = magdyn_rotor_inertia(q.mass, 0.2, q.half_length, q.end_radius);
    return q;
}

START_TEST(bad_input)
{
    magdyn_gas_params p = {.width = 10, .height = 10, .periodic = 1}, bad = p;
    magdyn_gas *g;
    magdyn_disc d = mkdisc(5, 5, 1, 0, 1, 0.5), e;
    magdyn_rotor q = mkrotor(2, 2, 0, 0);
    magdyn_gas_observables o;
    long cnt[4];
    ck_assert_ptr_null(magdyn_gas_new(NULL));
    bad.width = 0; ck_assert_ptr_null(magdyn_gas_new(&bad));
    bad.width = NAN; ck_assert_ptr_null(magdyn_gas_new(&bad));
    bad.width = 10; bad.height = -1; ck_assert_ptr_null(magdyn_gas_new(&bad));
    g = magdyn_gas_new(&p);
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d), 0);
    e = mkdisc(5.9, 5, 0, 0, 1, 0.5);                      /* overlaps */
    ck_assert_int_eq(magdyn_gas_add_disc(g, &e), MAGDYN_EOVERLAP);
    e = mkdisc(15, 5, 0, 0, 1, 0.5);                       /* outside */
    ck_assert_int_eq(magdyn_gas_add_disc(g, &e), MAGDYN_ERANGE);
    e = mkdisc(-0.1, 5, 0, 0, 1, 0.5);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &e), MAGDYN_ERANGE);
    e = mkdisc(1, 1, 0, 0, 0, 0.5);                        /* massless */
    ck_assert_int_eq(magdyn_gas_add_disc(g, &e), MAGDYN_EINVAL);
    e = mkdisc(1, 1, 0, 0, 1, -0.5);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &e), MAGDYN_EINVAL);
    e = mkdisc(1, 1, NAN, 0, 1, 0.5);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &e), MAGDYN_ENONFINITE);
    e = mkdisc(1, 1, 0, 0, 1, 2.0);                        /* wider than a third of the box */
    ck_assert_int_eq(magdyn_gas_add_disc(g, &e), MAGDYN_ERANGE);
    ck_assert_int_eq(magdyn_gas_add_disc(NULL, &d), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_add_disc(g, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_add_disc_species(g, &d, -2), MAGDYN_EINVAL);
    q.r = magdyn_v2(4.5, 5);                               /* end 0 at 5.5: overlaps */
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &q), MAGDYN_EOVERLAP);
    q.r = magdyn_v2(2, 2); q.inertia = 0;
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &q), MAGDYN_EINVAL);
    q.inertia = 1; q.angle = INFINITY;
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &q), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_gas_discs(g), 1);
    ck_assert_int_eq(magdyn_gas_rotors(g), 0);
    /* a rotor whose body spans the middle of the disc but whose ends clear
     * it: the rod is not a collider, so this is allowed */
    q = mkrotor(5, 8, 0, 0);
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &q), 0);
    q = mkrotor(5, 5.5, MAGDYN_PI / 2, 0);  /* end 1 at (5, 4.5): 0.5 from the disc centre < 0.75 */
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &q), MAGDYN_EOVERLAP);
    q = mkrotor(5, 5.0, 0.0, 0);            /* ends at (4, 5), (6, 5): 1 from the centre > 0.75 */
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &q), 1);  /* its rod crosses the disc: allowed */
    ck_assert_int_eq(magdyn_gas_rotors(g), 2);

    ck_assert_int_eq(magdyn_gas_advance(g, NAN), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_gas_advance(NULL, 1), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_advance(g, 1), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_advance(g, 0.5), MAGDYN_ESTATE);
    ck_assert_int_eq(magdyn_gas_get_disc(g, 1, &e), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_get_disc(g, -1, &e), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_get_rotor(g, 2, &q), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_get_disc(g, 0, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_set_restitution(g, 1.1, 1), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_set_restitution(g, 1, -0.1), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_set_restitution(g, NAN, 1), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_gas_set_restitution(NULL, 1, 1), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_observe(g, -2, &o), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_observe(NULL, 0, &o), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_speed_histogram(g, 0, 0, 4, cnt), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_speed_histogram(g, 0, NAN, 4, cnt), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_gas_speed_histogram(g, 0, 1, 0, cnt), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_gas_speed_histogram(g, 0, 2, 4, cnt), 3);   /* 1 disc, 2 rotors */
    ck_assert(cnt[0] == 2 && cnt[1] + cnt[2] + cnt[3] == 1);
    ck_assert(magdyn_gas_collisions(NULL) == 0);
    ck_assert(isnan(magdyn_gas_time(NULL)));
    magdyn_gas_reset_observables(NULL);
    magdyn_gas_free(NULL);
    magdyn_gas_free(g);
    /* hard walls: any part outside the box is refused */
    p.periodic = 0;
    g = magdyn_gas_new(&p);
    e = mkdisc(0.4, 5, 0, 0, 1, 0.5);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &e), MAGDYN_ERANGE);
    q = mkrotor(5, 1.0, MAGDYN_PI / 2, 0);                 /* end at y = 0, radius 0.25 */
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &q), MAGDYN_ERANGE);
    q = mkrotor(5, 1.25, MAGDYN_PI / 2, 0);                /* just touches the wall */
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &q), 0);
    magdyn_gas_free(g);
}
END_TEST

/* Two equal discs head-on: contact at t = 1, velocities exchanged. */
START_TEST(head_on)
{
    magdyn_gas_params p = {.width = 10, .height = 10, .periodic = 1};
    magdyn_gas *g = magdyn_gas_new(&p);
    magdyn_disc a = mkdisc(2, 5, 1, 0, 1, 0.5), b = mkdisc(5, 5, -1, 0, 1, 0.5);
    magdyn_gas_observables o;
    ck_assert_int_eq(magdyn_gas_add_disc(g, &a), 0);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &b), 1);
    ck_assert_int_eq(magdyn_gas_advance(g, 0.5), MAGDYN_OK);
    ck_assert(magdyn_gas_collisions(g) == 0);
    ck_assert_int_eq(magdyn_gas_advance(g, 1.5), MAGDYN_OK);
    ck_assert(magdyn_gas_collisions(g) == 1);
    magdyn_gas_get_disc(g, 0, &a);
    magdyn_gas_get_disc(g, 1, &b);
    ck_assert_double_eq_tol(a.r.x, 2.5, 1e-14);
    ck_assert_double_eq_tol(b.r.x, 4.5, 1e-14);
    ck_assert_double_eq_tol(a.v.x, -1, 1e-15);
    ck_assert_double_eq_tol(b.v.x, 1, 1e-15);
    ck_assert_double_eq_tol(magdyn_gas_time(g), 1.5, 1e-15);
    /* they meet again through the periodic boundary: at t = 1 they are at
     * 3 and 4, the gap the other way round is 10 - 1 - 1 = 8 at relative
     * speed 2: at t = 5 */
    ck_assert_int_eq(magdyn_gas_advance(g, 4.9), MAGDYN_OK);
    ck_assert(magdyn_gas_collisions(g) == 1);
    ck_assert_int_eq(magdyn_gas_advance(g, 5.1), MAGDYN_OK);
    ck_assert(magdyn_gas_collisions(g) == 2);
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
    ck_assert_double_eq_tol(o.energy, 1.0, 1e-14);
    ck_assert_int_eq(o.discs, 2);
    magdyn_gas_free(g);
}
END_TEST

/* Free flight through the periodic boundary; specular walls. */
START_TEST(free_flight_and_walls)
{
    magdyn_gas_params p = {.width = 10, .height = 8, .periodic = 1};
    magdyn_gas *g = magdyn_gas_new(&p);
    magdyn_disc a = mkdisc(9, 7, 0.7, 0.3, 1, 0.5);
    double t = 37.3, x, y;
    magdyn_gas_add_disc(g, &a);
    magdyn_gas_advance(g, t);
    magdyn_gas_get_disc(g, 0, &a);
    ck_assert_double_eq_tol(a.r.x, fmod(9 + 0.7 * t, 10), 1e-12);
    ck_assert_double_eq_tol(a.r.y, fmod(7 + 0.3 * t, 8), 1e-12);
    magdyn_gas_free(g);
    /* walls: the centre moves in [r, W - r]; unfold the reflections */
    p.periodic = 0;
    g = magdyn_gas_new(&p);
    a = mkdisc(5, 4, 1.3, -0.9, 2, 0.5);
    magdyn_gas_add_disc(g, &a);
    magdyn_gas_advance(g, t);
    magdyn_gas_get_disc(g, 0, &a);
    x = fmod(4.5 + 1.3 * t, 18); x = x > 9 ? 18 - x : x;         /* [0, 9] span */
    y = fmod(3.5 - 0.9 * t + 14 * 100, 14); y = y > 7 ? 14 - y : y;
    ck_assert_double_eq_tol(a.r.x, 0.5 + x, 1e-12);
    ck_assert_double_eq_tol(a.r.y, 0.5 + y, 1e-12);
    ck_assert_double_eq_tol(magdyn_vec2_norm(a.v), hypot(1.3, 0.9), 1e-14);
    magdyn_gas_free(g);
}
END_TEST

/* A dense gas with two masses: no overlap ever, energy and momentum kept. */
START_TEST(dense_conservation_no_overlap)
{
    test_rng r = {11};
    const double mass[2] = {1.0, 3.0};
    magdyn_gas *g = lattice_gas(20, 0.6, mass, 1.0, 0, &r);
    magdyn_gas_observables o0, o;
    double w = 20 * sqrt(MAGDYN_PI / (4 * 0.6)), t = 0, gap;
    int k, steps = (int)test_count(200);
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o0);
    for (k = 0; k < steps; k++) {
        t += 0.05;
        ck_assert_int_eq(magdyn_gas_advance(g, t), MAGDYN_OK);
        if (k % 20 == 0 || k == steps - 1) {
            gap = smallest_gap(g, w, w, 1);
            ck_assert_msg(gap > -1e-12, "overlap %g", gap);
        }
    }
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
    ck_assert(magdyn_gas_collisions(g) > 1000 * test_count(200) / 200);
    ck_assert_msg(fabs(o.energy - o0.energy) < 1e-12 * o0.energy, "dE %g", o.energy - o0.energy);
    ck_assert(fabs(o.momentum.x) + fabs(o.momentum.y) < 1e-11);
    magdyn_gas_free(g);
}
END_TEST

/* Hard walls, discs and rotors: nothing leaves the box, energy is kept,
 * no overlap. */
START_TEST(walls_with_rotors)
{
    test_rng r = {3};
    magdyn_gas_params p = {.width = 30, .height = 30, .periodic = 0};
    magdyn_gas *g = magdyn_gas_new(&p);
    magdyn_gas_observables o0, o;
    int i, j, k, steps = 10 + (int)test_count(90);
    double t = 0;
    for (i = 0; i < 10; i++)
        for (j = 0; j < 10; j++) {
            magdyn_rotor q = mkrotor(3 * i + 1.5, 3 * j + 1.5, test_rng_range(&r, 0, 6.3), test_rng_normal(&r));
            magdyn_disc d = mkdisc(3 * i + 3, 3 * j + 3, test_rng_normal(&r), test_rng_normal(&r), 1, 0.25);
            q.v = magdyn_v2(test_rng_normal(&r), test_rng_normal(&r));
            ck_assert_int_ge(magdyn_gas_add_rotor(g, &q), 0);
            if (i < 9 && j < 9) ck_assert_int_ge(magdyn_gas_add_disc(g, &d), 0);
        }
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o0);
    for (k = 0; k < steps; k++) {
        t += 0.2;
        ck_assert_int_eq(magdyn_gas_advance(g, t), MAGDYN_OK);
        if (k % 10 == 0 || k == steps - 1) {
            double gap = smallest_gap(g, 30, 30, 0);
            ck_assert_msg(gap > -1e-10, "overlap %g", gap);
            for (i = 0; i < magdyn_gas_rotors(g); i++) {
                magdyn_rotor q;
                magdyn_vec2 e[2];
                magdyn_gas_get_rotor(g, i, &q);
                magdyn_rotor_ends(&q, &e[0], &e[1]);
                for (j = 0; j < 2; j++)
                    ck_assert(e[j].x >= 0.25 - 1e-9 && e[j].x <= 30 - 0.25 + 1e-9 &&
                              e[j].y >= 0.25 - 1e-9 && e[j].y <= 30 - 0.25 + 1e-9);
            }
            for (i = 0; i < magdyn_gas_discs(g); i++) {
                magdyn_disc d;
                magdyn_gas_get_disc(g, i, &d);
                ck_assert(d.r.x >= 0.25 - 1e-9 && d.r.x <= 30 - 0.25 + 1e-9);
            }
        }
    }
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
    ck_assert(o.wall_collisions > 0 && o.collisions > 0);
    ck_assert_msg(fabs(o.energy - o0.energy) < 1e-10 * o0.energy, "dE/E %g", (o.energy - o0.energy) / o0.energy);
    ck_assert(o.wall_pressure > 0);
    magdyn_gas_free(g);
}
END_TEST

/* Restitution < 1 cools the gas (Haff's law sets the rate; here only its
 * monotonic decrease is checked). */
START_TEST(inelastic_cools)
{
    test_rng r = {5};
    const double mass[2] = {1.0, 1.0};
    magdyn_gas *g = lattice_gas(16, 0.3, mass, 1.0, 0, &r);
    magdyn_gas_observables o;
    double e_prev = INFINITY;
    int k;
    ck_assert_int_eq(magdyn_gas_set_restitution(g, 0.9, 1.0), MAGDYN_OK);
    for (k = 1; k <= 10; k++) {
        ck_assert_int_eq(magdyn_gas_advance(g, 0.2 * k), MAGDYN_OK);
        magdyn_gas_observe(g, 0, &o);
        ck_assert(o.energy < e_prev);
        e_prev = o.energy;
    }
    ck_assert(e_prev < 0.8 * 256);
    magdyn_gas_free(g);
}
END_TEST

/* Three discs in a line with restitution 0.01 < 7 - 4 sqrt(3) collapse
 * inelastically (McNamara & Young, Phys. Fluids A 4 (1992) 496): their
 * relative velocities shrink geometrically, collision after collision.  In
 * floating point the sequence ends when they are equal; advance must come
 * back (MAGDYN_OK, or MAGDYN_ENOCONV if events pile up at one instant) with
 * the three moving together and no overlap. */
START_TEST(inelastic_collapse_stops)
{
    magdyn_gas_params p = {.width = 20, .height = 20, .periodic = 1};
    magdyn_gas *g = magdyn_gas_new(&p);
    magdyn_disc a = mkdisc(4, 5, 1, 0, 1, 0.5), b = mkdisc(5.5, 5, 0.2, 0, 1, 0.5), c = mkdisc(7.3, 5, -1, 0, 1, 0.5);
    magdyn_status st;
    magdyn_gas_add_disc(g, &a);
    magdyn_gas_add_disc(g, &b);
    magdyn_gas_add_disc(g, &c);
    ck_assert_int_eq(magdyn_gas_set_restitution(g, 0.01, 1.0), MAGDYN_OK);
    /* the collapse itself: the TC model off (test_gas_inelastic has it on) */
    ck_assert_int_eq(magdyn_gas_set_contact_duration(g, 0.0), MAGDYN_OK);
    st = magdyn_gas_advance(g, 3.0);
    ck_assert(st == MAGDYN_OK || st == MAGDYN_ENOCONV);
    ck_assert(magdyn_gas_collisions(g) > 10);
    magdyn_gas_get_disc(g, 0, &a);
    magdyn_gas_get_disc(g, 1, &b);
    magdyn_gas_get_disc(g, 2, &c);
    /* momentum 0.2 shared by three: 0.0667 each */
    ck_assert_double_eq_tol(a.v.x, 0.2 / 3, 1e-9);
    ck_assert_double_eq_tol(b.v.x, 0.2 / 3, 1e-9);
    ck_assert_double_eq_tol(c.v.x, 0.2 / 3, 1e-9);
    ck_assert(smallest_gap(g, 20, 20, 1) > -1e-12);
    magdyn_gas_free(g);
}
END_TEST

/*
 * Brute-force oracle: every pair (and, with walls, every wall) is tested
 * for the earliest contact at every event, O(N^2) per event, with the same
 * contact root as the gas (Rapaport, "The Art of Molecular Dynamics
 * Simulation", ch. 14) and elastic impulses along the line of centres.
 * Periodic pairs are taken in their nearest image at each event (the box
 * is 21 diameters wide, a span moves a disc a few at most).
 */
typedef struct { double x, y, vx, vy, m, r; } bf_disc;

static double bf_pair_time(const bf_disc *a, const bf_disc *b, double sx, double sy)
{
    double dx = a->x - b->x + sx, dy = a->y - b->y + sy, dvx = a->vx - b->vx, dvy = a->vy - b->vy;
    double bb = dx * dvx + dy * dvy, s = a->r + b->r, cc = dx * dx + dy * dy - s * s, disc;
    if (bb >= 0.0) return INFINITY;
    if (cc <= 0.0) return 0.0;
    disc = bb * bb - (dvx * dvx + dvy * dvy) * cc;
    return disc > 0.0 ? cc / (-bb + sqrt(disc)) : INFINITY;
}

static double bf_wall_time(const bf_disc *a, double w, double h, int *wall)
{
    double t, best = INFINITY;
    if (a->vx < 0.0) { t = (a->x - a->r) / -a->vx; if (t < best) { best = t; *wall = 0; } }
    if (a->vx > 0.0) { t = (w - a->r - a->x) / a->vx; if (t < best) { best = t; *wall = 0; } }
    if (a->vy < 0.0) { t = (a->y - a->r) / -a->vy; if (t < best) { best = t; *wall = 1; } }
    if (a->vy > 0.0) { t = (h - a->r - a->y) / a->vy; if (t < best) { best = t; *wall = 1; } }
    return best > 0.0 ? best : 0.0;
}

/* Runs the n discs for time span; returns pair collisions, *walls the wall ones. */
static long bf_run(bf_disc *d, int n, double w, double h, int periodic, double span, long *walls)
{
    long coll = 0;
    *walls = 0;
    for (;;) {
        double best = INFINITY, bsx = 0, bsy = 0;
        int bi = -1, bj = -1, bw = 0, i, j;
        for (i = 0; i < n; i++) {
            if (!periodic) {
                int wall = 0;
                double t = bf_wall_time(&d[i], w, h, &wall);
                if (t < best) { best = t; bi = i; bj = -1; bw = wall; }
            }
            for (j = i + 1; j < n; j++) {
                double sx = 0.0, sy = 0.0, t;
                if (periodic) {   /* the nearest image: the box is wide, the spans short */
                    sx = -w * round((d[i].x - d[j].x) / w);
                    sy = -h * round((d[i].y - d[j].y) / h);
                }
                t = bf_pair_time(&d[i], &d[j], sx, sy);
                if (t < best) { best = t; bi = i; bj = j; bsx = sx; bsy = sy; }
            }
        }
        if (best > span) best = span;
        for (i = 0; i < n; i++) { d[i].x += d[i].vx * best; d[i].y += d[i].vy * best; }
        span -= best;
        if (span <= 0.0 || bi < 0) return coll;
        if (bj < 0) {
            if (bw == 0) d[bi].vx = -d[bi].vx; else d[bi].vy = -d[bi].vy;
            ++*walls;
        } else {
            double dx = d[bi].x - d[bj].x + bsx, dy = d[bi].y - d[bj].y + bsy, l = sqrt(dx * dx + dy * dy);
            double nx = dx / l, ny = dy / l;
            double vn = (d[bi].vx - d[bj].vx) * nx + (d[bi].vy - d[bj].vy) * ny;
            double jm = -2.0 * vn / (1.0 / d[bi].m + 1.0 / d[bj].m);
            d[bi].vx += jm / d[bi].m * nx; d[bi].vy += jm / d[bi].m * ny;
            d[bj].vx -= jm / d[bj].m * nx; d[bj].vy -= jm / d[bj].m * ny;
            coll++;
        }
    }
}

/*
 * The gas against the brute-force oracle, from the gas's own state at each
 * of many checkpoints over a span of about one collision per disc: the
 * same number of pair and wall collisions and the same final state (up to
 * the rounding that chaos amplifies within one span), and no overlap.  A
 * missed or spurious event anywhere (queue, cells, prefetch cursors, the
 * re-sorting) changes the count or moves discs by O(1).
 */
static void check_brute_force(int periodic)
{
    test_rng r = {periodic ? 21u : 22u};
    const int side = 15, n = side * side;
    double a = sqrt(MAGDYN_PI / (4 * 0.4)), box = side * a, t = 0, span = 0.25;
    magdyn_gas_params p = {.width = box, .height = box, .periodic = periodic};
    magdyn_gas *g = magdyn_gas_new(&p);
    bf_disc *d = malloc(sizeof *d * (size_t)n);
    long checked = 0;
    int i, k, rounds = (int)test_count(40);
    for (i = 0; i < n; i++) {
        magdyn_disc q;
        q.r = magdyn_v2((i % side + 0.5) * a + test_rng_range(&r, -0.15, 0.15),
                        (i / side + 0.5) * a + test_rng_range(&r, -0.15, 0.15));
        q.v = magdyn_v2(test_rng_normal(&r), test_rng_normal(&r));
        q.mass = i % 3 ? 1.0 : 3.0;
        q.radius = 0.5;
        ck_assert_int_eq(magdyn_gas_add_disc(g, &q), i);
    }
    for (k = 0; k < rounds; k++) {
        magdyn_gas_observables o;
        long c0 = (long)magdyn_gas_collisions(g), bf_coll, bf_walls;
        for (i = 0; i < n; i++) {
            magdyn_disc q;
            magdyn_gas_get_disc(g, i, &q);
            d[i].x = q.r.x; d[i].y = q.r.y; d[i].vx = q.v.x; d[i].vy = q.v.y;
            d[i].m = q.mass; d[i].r = q.radius;
        }
        magdyn_gas_reset_observables(g);
        t += span;
        ck_assert_int_eq(magdyn_gas_advance(g, t), MAGDYN_OK);
        magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
        bf_coll = bf_run(d, n, box, box, periodic, span, &bf_walls);
        ck_assert_int_eq((long)magdyn_gas_collisions(g) - c0, bf_coll);
        ck_assert_int_eq(o.wall_collisions, bf_walls);
        checked += bf_coll;
        for (i = 0; i < n; i++) {
            magdyn_disc q;
            double dx, dy;
            magdyn_gas_get_disc(g, i, &q);
            dx = q.r.x - d[i].x; dy = q.r.y - d[i].y;
            if (periodic) { dx -= box * round(dx / box); dy -= box * round(dy / box); }
            ck_assert_msg(fabs(dx) + fabs(dy) < 1e-8, "round %d disc %d moved %g", k, i, fabs(dx) + fabs(dy));
            ck_assert_msg(fabs(q.v.x - d[i].vx) + fabs(q.v.y - d[i].vy) < 1e-8, "round %d disc %d", k, i);
        }
        ck_assert_msg(smallest_gap(g, box, box, periodic) > -1e-12, "overlap in round %d", k);
    }
    ck_assert(checked > 50L * rounds);
    free(d);
    magdyn_gas_free(g);
}

/*
 * Found by fuzz/fuzz_kinetics.c (fuzz/corpus/kinetics/regress-spinning-rotor.bin):
 * a rotor spinning at 3.6e6 rad/s.  Its wall search stepped by the
 * curvature bound, ~1e-7 s, ran out of steps after 1e5 and returned an
 * early time, at which the wall event applied an impulse with the end
 * nowhere near the wall.  Now the search jumps to where the circle the end
 * sweeps meets the wall, and a wall event checks the contact.  Here the
 * circle (reach 0.1 + 0.02 m) starts 0.38 m from the wall at 1 m/s: no
 * wall collision before 0.38 s, one within the next turn (1.7e-6 s), and
 * the energy kept (e = 1).
 */
START_TEST(fast_spinning_rotor_meets_wall_in_time)
{
    magdyn_gas_params par = {.width = 1.0, .height = 1.0, .periodic = 0};
    magdyn_gas *g = magdyn_gas_new(&par);
    magdyn_rotor r = {{0.5, 0.5}, {1.0, 0.0}, 0.0, 3.6e6, 2.0, 0.01, 0.1, 0.02};
    magdyn_gas_observables o;
    double e0;
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &r), 0);
    ck_assert_int_eq(magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o), MAGDYN_OK);
    e0 = o.energy;
    ck_assert_int_eq(magdyn_gas_advance(g, 0.38 - 1e-9), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o), MAGDYN_OK);
    ck_assert_int_eq(o.wall_collisions, 0);
    ck_assert_int_eq(magdyn_gas_advance(g, 0.38 + 2e-6), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o), MAGDYN_OK);
    ck_assert_int_ge(o.wall_collisions, 1);
    ck_assert_double_eq_tol(o.energy, e0, 1e-10 * e0);
    magdyn_gas_free(g);
}
END_TEST

/*
 * Found by fuzz/fuzz_kinetics.c (fuzz/corpus/kinetics/regress-subnormal-rotor.bin):
 * a rotor of half-length 1.3e-314 m and end radius 5.3e-315 m at
 * 2.6e5 m/s between walls 1 m apart.  Tolerances relative to its size
 * underflowed to 0: the wall search could not reach a gap of 0 in the
 * rounding of y0 + vy t, returned early, and the wall event saw no contact,
 * over and over.  Contacts now count within the rounding of the
 * coordinates.  Sizes below 1e-60 m are now refused (MAGDYN_ERANGE), so the
 * test takes a rotor of 1.3e-59 m, as far below the rounding of its
 * coordinates (~1e-16 m) as ever.  The centre bounces off the y walls like
 * a point: 2.6e5 m/s x 2.7 ms / 1 m = 707.8 bounces, with about one event
 * per bounce or cell crossing.
 */
START_TEST(subnormal_rotor_bounces)
{
    magdyn_gas_params par = {.width = 1.0, .height = 1.0, .periodic = 0};
    magdyn_gas *g = magdyn_gas_new(&par);
    magdyn_rotor r = {{0.5, 0.2}, {1.0, -262144.0}, 1.0, 1.0, 2.0, 0.01, 1.273197475e-314,
                      5.299808824e-315};
    magdyn_gas_observables o;
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &r), MAGDYN_ERANGE);
    r.half_length = 1.273197475e-59;
    r.end_radius = 5.299808824e-60;
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &r), 0);
    ck_assert_int_eq(magdyn_gas_advance(g, 2.7e-3), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o), MAGDYN_OK);
    ck_assert_int_ge(o.wall_collisions, 707);
    ck_assert_int_le(o.wall_collisions, 709);
    ck_assert_int_le(o.events, 2 * (o.wall_collisions + o.cell_crossings) + 100);
    ck_assert_double_eq_tol(o.energy, 0.5 * 2.0 * (1.0 + 262144.0 * 262144.0) + 0.5 * 0.01,
                            1e-10 * o.energy);
    magdyn_gas_free(g);
}
END_TEST

/*
 * Found by fuzz/fuzz_kinetics.c (fuzz/corpus/kinetics/regress-rotor-settles.bin):
 * a rotor thrown at a wall with restitution 6e-5 ends up lying on it, both
 * ends touching, approaching at 5e-324 m/s.  Each bounce's impulse rounded
 * away, the contact was found again at once, and the advance stopped with
 * MAGDYN_ENOCONV after 1e6 events at one instant.  Now such a body leaves
 * at a normal speed at the rounding level of its velocity.  It must end
 * lying on the wall (centre at the end radius, rod along it), sliding on
 * at its tangential 1 m/s, with the energy not grown.
 */
START_TEST(inelastic_rotor_settles_on_wall)
{
    magdyn_gas_params par = {.width = 1.0, .height = 1.0, .periodic = 0};
    magdyn_gas *g = magdyn_gas_new(&par);
    magdyn_rotor r = {{0.5, 0.2}, {1.0, -262144.0}, 1.0, 1.0, 2.0, 0.01, 0.1, 0.02};
    magdyn_gas_observables o;
    double e0;
    ck_assert_int_eq(magdyn_gas_set_restitution(g, 1.0, 6.103515625e-05), MAGDYN_OK);
    /* the unstick floor alone: the TC model off (with it, the second end's
     * bounce a moment after the first is elastic, and the rotor leaves) */
    ck_assert_int_eq(magdyn_gas_set_contact_duration(g, 0.0), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &r), 0);
    ck_assert_int_eq(magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o), MAGDYN_OK);
    e0 = o.energy;
    ck_assert_int_eq(magdyn_gas_advance(g, 2.7e-3), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_get_rotor(g, 0, &r), MAGDYN_OK);
    ck_assert_double_eq_tol(r.r.y, 0.02, 1e-9);
    ck_assert_double_eq_tol(sin(r.angle), 0.0, 1e-9);
    ck_assert_double_eq_tol(r.v.x, 1.0, 1e-9);
    ck_assert(fabs(r.v.y) < 1e-12 && fabs(r.omega) < 1e-9);
    ck_assert_int_eq(magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o), MAGDYN_OK);
    ck_assert(o.energy <= e0);
    magdyn_gas_free(g);
}
END_TEST

/*
 * Found by fuzz/fuzz_kinetics.c (fuzz/corpus/kinetics/regress-rotor-pivot.bin):
 * a 61 um rotor hitting a wall with restitution 2e-323 end first.  The
 * perfectly inelastic impulse cancelled the end's approach to rounding, the
 * wall search (which rounds differently) found it approaching again at the
 * same instant, and the advance stopped with MAGDYN_ENOCONV.  A body left
 * separating no faster than rounding now leaves at the rounding speed.  The
 * impulses are inelastic: the energy must not grow.
 */
START_TEST(inelastic_rotor_pivots_off_wall)
{
    magdyn_gas_params par = {.width = 1.0, .height = 1.0, .periodic = 0};
    magdyn_gas *g = magdyn_gas_new(&par);
    magdyn_rotor r = {{0.5, 0.2}, {1.5e-5, -262144.0}, 1.0, 0.0, 2.0, 0.01, 3.05e-5, 1e-9};
    magdyn_gas_observables o;
    double e1;
    ck_assert_int_eq(magdyn_gas_set_restitution(g, 1.0, 2e-323), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &r), 0);
    ck_assert_int_eq(magdyn_gas_advance(g, 1e-6), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o), MAGDYN_OK);
    ck_assert_int_ge(o.wall_collisions, 1);
    e1 = o.energy;
    ck_assert_int_eq(magdyn_gas_advance(g, 2.7e-3), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o), MAGDYN_OK);
    ck_assert(o.energy <= e1 * (1 + 1e-12));
    ck_assert_int_eq(magdyn_gas_get_rotor(g, 0, &r), MAGDYN_OK);
    ck_assert(r.r.y >= 0 && isfinite(r.v.y) && isfinite(r.omega));
    magdyn_gas_free(g);
}
END_TEST

/*
 * Found by fuzz/fuzz_kinetics.c (fuzz/corpus/kinetics/regress-tiny-box.bin):
 * a periodic box of 1.8e-307 x 4.5e-305 m.  Its area underflowed to 0, so
 * every cell took the smallest size, 2.7e-312 m: 6.5e10 cells, 261 GB.
 * And the pair tests square lengths and speeds and multiply the squares:
 * discs of 1e-170 m (or 1e-100 m at 1e-100 m/s, or 1e100 m at 1e100 m/s)
 * passed through one another without a collision.  Lengths outside
 * 1e-60 .. 1e60 m and speeds above 1e60 m/s are now refused, and nothing
 * is added.
 */
START_TEST(extreme_scales_refused)
{
    magdyn_gas_params par = {.width = 1.7685165161647548e-307, .height = 4.5480509667887196e-305, .periodic = 1};
    magdyn_gas *g = magdyn_gas_new(&par);
    magdyn_disc d = mkdisc(0.5, 0.5, 1.0, 0.0, 1.0, 1e-170);
    magdyn_rotor r = {{0.5, 0.5}, {1.0, 0.0}, 0.0, 1.0, 1.0, 1.0, 1.3e-314, 0.01};
    ck_assert_ptr_null(g);
    par.width = par.height = 1e61;
    ck_assert_ptr_null(magdyn_gas_new(&par));
    par.width = par.height = 1.0;
    g = magdyn_gas_new(&par);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d), MAGDYN_ERANGE);
    d.radius = 0.01;
    d.v.x = 2e60;
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d), MAGDYN_ERANGE);
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &r), MAGDYN_ERANGE);     /* too short */
    r.half_length = 0.01;
    r.omega = 1e63;                                                    /* ends at 2e61 m/s */
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &r), MAGDYN_ERANGE);
    ck_assert_int_eq(magdyn_gas_discs(g) + magdyn_gas_rotors(g), 0);
    d.v.x = 1e59;                                                      /* the edges are fine */
    d.radius = 1e-60;
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d), 0);
    magdyn_gas_free(g);
}
END_TEST

/*
 * Found by fuzz/fuzz_kinetics.c (fuzz/corpus/kinetics/regress-unresolved-strip.bin,
 * formerly fuzz/open/kinetics-timeout-chatter.bin): a periodic strip 1 m
 * wide and 2.2e43 m tall holding discs of 0.02 and 0.03 m and a rotor with
 * 0.01 m end discs, all near y = 0.  A coordinate there rounds by up to
 * 2.5e27 m: a disc at y = -1e-19 m wrapped to y = 2.2e43 m exactly, the gas
 * saw the rotor end 16 mm inside it, and the spinning end chattered
 * against the disc 7e6 times in 1e-18 s.  A second particle whose radius,
 * or the first's, is below 1e-9 of the larger side of the box (where the
 * rounding, ~1e-16 of the side, nears the gaps to resolve) is now refused
 * with MAGDYN_ERANGE and nothing is added; a particle alone is still taken
 * (it meets only the walls).  The same bodies in a strip 1e6 m tall,
 * resolved (radii of 1e-8 and more of it), advance for 1000 widths at the fast disc's 1.8e19 m/s: OK, energy
 * kept (1e-12 relative: elastic) and no overlap (1e-9 of the contact distance).
 */
START_TEST(unresolved_pair_refused)
{
    magdyn_gas_params par = {.width = 1.0078125, .height = 2.2300745198530623e43, .periodic = 1};
    magdyn_gas *g = magdyn_gas_new(&par);
    magdyn_disc d0 = mkdisc(0.0, 0.2, 1.0, 0.0, 1.0, 0.02);
    magdyn_disc d1 = mkdisc(0.5, 0.21, 1.8446744073709552e19, 0.0, 2.0, 0.03);
    magdyn_rotor r = {{0.3, 0.0}, {0.0, 0.0}, 0.0, 10.0, 1.0, 1e-3, 0.05, 0.01};
    magdyn_gas_observables o0, o;
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d0), 0);
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &r), MAGDYN_ERANGE);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d1), MAGDYN_ERANGE);
    ck_assert_int_eq(magdyn_gas_discs(g) + magdyn_gas_rotors(g), 1);
    magdyn_gas_free(g);
    /* the bound, with hard walls too: 1e-9 of the larger side */
    par.width = 1.0; par.height = 1e7; par.periodic = 0;
    g = magdyn_gas_new(&par);
    d0.r.x = 0.5; d0.r.y = 0.5;
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d0), 0);
    d0.r.x = 0.0; d0.r.y = 0.2;
    d1.v.x = 1.0;
    d1.radius = 0.99e-9 * 1e7;
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d1), MAGDYN_ERANGE);
    d1.radius = 1e-9 * 1e7;
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d1), 1);
    magdyn_gas_free(g);
    /* resolved: the same bodies in a strip 1e6 m tall */
    par.width = 1.0078125; par.height = 1e6; par.periodic = 1;
    g = magdyn_gas_new(&par);
    d1.v.x = 1.8446744073709552e19; d1.radius = 0.03;
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d0), 0);
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &r), 0);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d1), 1);
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o0);
    ck_assert_int_eq(magdyn_gas_advance(g, 1e3 * par.width / 1.8446744073709552e19), MAGDYN_OK);
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
    ck_assert(fabs(o.energy - o0.energy) <= 1e-12 * o0.energy);
    ck_assert(smallest_gap(g, par.width, par.height, 1) > -1e-9);
    magdyn_gas_free(g);
}
END_TEST

/* At the edges of the range (discs of 1e-59 m, slow ones of 1e-59 m at
 * 1e-95 m/s, and of 1e58 m at 1e58 m/s) a gas of 100 discs collides as
 * one of 1 m at 1 m/s (a mean free time of ~1/45 of L / V per disc) and
 * never overlaps. */
START_TEST(edge_scales_never_overlap)
{
    static const double scale[][2] = {{1.0, 1.0}, {1e-59, 1.0}, {1e-59, 1e-95}, {1e58, 1e58}};
    size_t k;
    for (k = 0; k < sizeof scale / sizeof scale[0]; k++) {
        double L = scale[k][0], V = scale[k][1], gap;
        magdyn_gas_params par = {.width = 20.0 * L, .height = 20.0 * L, .periodic = 1};
        magdyn_gas *g = magdyn_gas_new(&par);
        test_rng rng = {12345};
        int i, j, n = 0;
        for (i = 0; i < 10; i++)
            for (j = 0; j < 10; j++) {
                double a = test_rng_range(&rng, 0.0, 2.0 * MAGDYN_PI);
                magdyn_disc d = mkdisc((2 * i + 1) * L, (2 * j + 1) * L, V * cos(a), V * sin(a), 1.0, 0.5 * L);
                n += magdyn_gas_add_disc(g, &d) >= 0;
            }
        ck_assert_int_eq(n, 100);
        ck_assert_int_eq(magdyn_gas_advance(g, 50.0 * L / V), MAGDYN_OK);
        ck_assert_msg(magdyn_gas_collisions(g) > 1500, "L %g V %g: %lld collisions", L, V,
                      magdyn_gas_collisions(g));
        gap = smallest_gap(g, par.width, par.height, 1);
        ck_assert_msg(gap >= -1e-9, "L %g V %g: discs at %.12g diameters", L, V, 1.0 + gap);
        magdyn_gas_free(g);
    }
}
END_TEST

/*
 * Found by fuzz/fuzz_kinetics.c (fuzz/corpus/kinetics/regress-unresolvable.bin):
 * two rotors 4e-270 m apart, one at 1.3e300 m/s.  The time to close the gap
 * underflowed, so their contact was found "now" again and again; the
 * advance gave up only after 10^6 such events (now after 100 N + 10^4,
 * with MAGDYN_ENOCONV).  Such rotors (4.7e-62 m long, one at 1.3e300 m/s,
 * the other 3.3e184 m long) are now refused, and the gas stays empty.
 */
START_TEST(unresolvable_contact_refused)
{
    magdyn_gas_params par = {.width = 1.0, .height = 1.0, .periodic = 1};
    magdyn_gas *g = magdyn_gas_new(&par);
    magdyn_rotor a = {{2.78149152596304e-310, 3.785766995733679e-270}, {1.334153783361817e+300, 0.0},
                      0.0, 0.0, 1.1002547276809069e-160, 4.67905495353609e-62,
                      4.679249612674878e-62, 3.4705665560395e-310};
    magdyn_rotor b = {{0.0, 1.042663851848696e-309}, {0.0, 0.0}, 0.0, 0.0, 0.02488555905179055,
                      3.3480283377205475e+184, 1.8054760163410757e-71, 1.7738036229595213e-307};
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &a), MAGDYN_ERANGE);
    ck_assert_int_eq(magdyn_gas_add_rotor(g, &b), MAGDYN_ERANGE);
    ck_assert_int_eq(magdyn_gas_rotors(g), 0);
    ck_assert_int_eq(magdyn_gas_advance(g, 1.0), MAGDYN_OK);
    magdyn_gas_free(g);
}
END_TEST

/*
 * Rows of discs on a lattice that matches the cell grid, each row moving
 * along itself (no collisions): all 144 cross their cell edges within
 * rounding of one instant, so the queue's front holds far more than
 * FRONT_SORTED_MAX entries (gas_queue.h), turns into a heap and back
 * again at every crossing.  Every disc still arrives where free flight
 * takes it, after every crossing.
 */
START_TEST(many_events_at_once)
{
    const int side = 12;
    const double a = 1.05, t = 3.3;          /* cells of a = 1.05: 12 x 12 */
    magdyn_gas_params p = {.width = side * a, .height = side * a, .periodic = 1};
    magdyn_gas *g = magdyn_gas_new(&p);
    magdyn_gas_observables o;
    int i;
    for (i = 0; i < side * side; i++) {
        double v = (i / side) % 2 ? -1.0 : 1.0;
        magdyn_disc d = mkdisc((i % side + 0.5) * a, (i / side + 0.5) * a, v, 0, 1, 0.5);
        ck_assert_int_eq(magdyn_gas_add_disc(g, &d), i);
    }
    ck_assert_int_eq(magdyn_gas_advance(g, t), MAGDYN_OK);
    for (i = 0; i < side * side; i++) {
        magdyn_disc d;
        double v = (i / side) % 2 ? -1.0 : 1.0;
        double x = fmod((i % side + 0.5) * a + v * t + 2 * p.width, p.width);
        magdyn_gas_get_disc(g, i, &d);
        ck_assert_double_eq_tol(d.r.x, x, 1e-12);
        ck_assert_double_eq_tol(d.r.y, (i / side + 0.5) * a, 1e-12);
    }
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
    ck_assert_int_eq(magdyn_gas_collisions(g), 0);
    /* edges at 0.525, 1.575, 2.625 from the start */
    ck_assert_int_eq(o.cell_crossings, 3LL * side * side);
    magdyn_gas_free(g);
}
END_TEST

/*
 * A disc exactly as wide as a box with hard walls, moving across it, is
 * wedged: it touches both walls, so each elastic wall collision sends it
 * into the other wall, which it touches already.  Even in exact arithmetic
 * that is an endless sequence of collisions at one instant (t = 0 here, all
 * exact: x = 0.5, vx = +-1), so the advance must give up with
 * MAGDYN_ENOCONV after more than 100 N + 10^4 events, the gas stopped at
 * that instant with the disc where it was, free of overlaps, its energy
 * kept, and readable; advancing again stalls again.
 */
START_TEST(wedged_disc_stalls)
{
    magdyn_gas_params p = {.width = 1, .height = 4, .periodic = 0};
    magdyn_gas *g = magdyn_gas_new(&p);
    magdyn_disc d = mkdisc(0.5, 1, 1, 0.5, 1, 0.5);
    magdyn_gas_observables o;
    int k;
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d), 0);
    for (k = 0; k < 2; k++) {
        magdyn_gas_reset_observables(g);
        ck_assert_int_eq(magdyn_gas_advance(g, 1.0), MAGDYN_ENOCONV);
        ck_assert(magdyn_gas_time(g) == 0.0);
        ck_assert_int_eq(magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o), MAGDYN_OK);
        /* N = 1: more than 100 + 10^4 wall collisions, and no runaway */
        ck_assert_int_eq(o.events, o.wall_collisions);
        ck_assert_int_gt(o.events, 100 * 1 + 10000);
        ck_assert_int_le(o.events, 2 * (100 * 1 + 10000));
        ck_assert(o.energy == 0.5 * (1.0 + 0.25));
        ck_assert_int_eq(magdyn_gas_get_disc(g, 0, &d), MAGDYN_OK);
        ck_assert(d.r.x == 0.5 && d.r.y == 1.0);
        ck_assert(fabs(d.v.x) == 1.0 && d.v.y == 0.5);
    }
    magdyn_gas_free(g);
}
END_TEST

/*
 * Restitution 0 (perfectly inelastic): the impulse cancels the approach only
 * to rounding, and the pair search, rounding differently, found the two in
 * contact again at once; advance stalled with MAGDYN_ENOCONV at the first
 * contact in 147 of 2000 glancing disc collisions.  Along the line of
 * centres n the relative velocity must now end ~0 (exactly, it is 0; the
 * pair leaves at the pair search's rounding speed, 4 eps |v| (1 + pos / d)
 * = 1.8e-14 m/s here, gas_collide.h unstick_discs), the
 * momentum kept, and the kinetic energy lose (1/2) mu (n . v_rel)^2, mu the
 * reduced mass (e.g. Goldstein, Classical Mechanics, inelastic collisions).
 */
START_TEST(perfectly_inelastic_pairs_go_on)
{
    magdyn_gas_params p = {.width = 10, .height = 10, .periodic = 0};
    magdyn_gas *g = magdyn_gas_new(&p);
    magdyn_disc a = mkdisc(3, 5, 1, 0, 1, 0.5), b = mkdisc(6, 5.06, 0, 0, 1, 0.5);
    magdyn_gas_observables o;
    double nx = -sqrt(1.0 - 0.06 * 0.06), ny = -0.06;
    unsigned long long s = 88172645463325252ULL;
    int i;
    ck_assert_int_eq(magdyn_gas_add_disc(g, &a), 0);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &b), 1);
    ck_assert_int_eq(magdyn_gas_set_restitution(g, 0.0, 0.0), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_advance(g, 3.0), MAGDYN_OK);   /* ENOCONV at t = 2.0018 before */
    ck_assert(magdyn_gas_collisions(g) == 1);
    magdyn_gas_get_disc(g, 0, &a);
    magdyn_gas_get_disc(g, 1, &b);
    ck_assert(fabs(nx * (a.v.x - b.v.x) + ny * (a.v.y - b.v.y)) < 3e-14);
    ck_assert_double_eq_tol(a.v.x + b.v.x, 1.0, 1e-15);
    ck_assert_double_eq_tol(a.v.y + b.v.y, 0.0, 1e-15);
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
    ck_assert_double_eq_tol(o.energy, 0.5 - 0.5 * 0.5 * nx * nx, 1e-14);
    magdyn_gas_free(g);

    /* glancing collisions from every direction, at any offset */
    for (i = 0; i < 300; i++) {
        double ang, off;
        s ^= s << 13; s ^= s >> 7; s ^= s << 17; ang = 2 * MAGDYN_PI * (double)(s >> 11) * 0x1.0p-53;
        s ^= s << 13; s ^= s >> 7; s ^= s << 17; off = 0.99 * (2 * (double)(s >> 11) * 0x1.0p-53 - 1);
        g = magdyn_gas_new(&p);
        a = mkdisc(5 - 2 * cos(ang), 5 - 2 * sin(ang), cos(ang), sin(ang), 1.5, 0.5);
        b = mkdisc(5 - off * sin(ang), 5 + off * cos(ang), 0, 0, 1.0, 0.5);
        magdyn_gas_add_disc(g, &a);
        magdyn_gas_add_disc(g, &b);
        magdyn_gas_set_restitution(g, 0.0, 1.0);
        ck_assert_int_eq(magdyn_gas_advance(g, 2.5), MAGDYN_OK);
        ck_assert(magdyn_gas_collisions(g) == 1);
        magdyn_gas_free(g);
    }
}
END_TEST

/*
 * The time an advance reaches is the time asked for, to the last bit
 * (fuzz/corpus/gas/regress-time-last-bit.bin: fuzz_gas found
 * magdyn_gas_time one ulp below t_end after an advance that returned OK).
 * The gas keeps its time as an epoch origin t_base plus the time within
 * the epoch, and t_base + (t_end - t_base) need not round to t_end once
 * t_end > 2 t_base (below that the difference is exact, Sterbenz).  An
 * empty gas starts an epoch at every advance: advanced to times growing
 * 2.7-fold from 1 ms it was off by an ulp at 15 of 200 calls.  Here that
 * gas for 60 calls, and twenty discs (packing 0.4, periodic) for 300
 * calls to times growing 3 % from 1 ms: after each call magdyn_gas_time
 * and the observables' time equal t_end exactly, and a time one ulp
 * before it is refused (MAGDYN_ESTATE) with nothing changed.
 */
static int time_checks(magdyn_gas *g, double t0, double growth, int calls)
{
    magdyn_gas_observables o;
    double t = t0;
    int c, off = 0;
    for (c = 0; c < calls; c++, t *= growth) {
        long long n;
        ck_assert_int_eq(magdyn_gas_advance(g, t), MAGDYN_OK);
        off += magdyn_gas_time(g) != t;
        magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
        off += o.time != t;
        n = magdyn_gas_collisions(g);
        ck_assert_int_eq(magdyn_gas_advance(g, nextafter(t, 0.0)), MAGDYN_ESTATE);
        ck_assert(magdyn_gas_time(g) == t && magdyn_gas_collisions(g) == n);
    }
    return off;
}

START_TEST(advance_reaches_its_time_exactly)
{
    magdyn_gas_params p = {.width = 5, .height = 5, .periodic = 1};
    magdyn_gas *g = magdyn_gas_new(&p);
    int i;
    ck_assert_int_eq(time_checks(g, 1e-3, 2.7, 60), 0);
    magdyn_gas_free(g);
    g = magdyn_gas_new(&p);
    for (i = 0; i < 20; i++) {
        magdyn_disc d = mkdisc(0.5 + 1.0 * (i % 5), 0.6 + 1.25 * (i / 5), 3.0 * cos(1.7 * i), 3.0 * sin(2.3 * i), 1,
                               0.4);
        ck_assert_int_eq(magdyn_gas_add_disc(g, &d), i);
    }
    ck_assert_int_eq(time_checks(g, 1e-3, 1.03, 300), 0);
    ck_assert_int_gt(magdyn_gas_collisions(g), 500);
    magdyn_gas_free(g);
}
END_TEST

START_TEST(matches_brute_force_periodic) { check_brute_force(1); }
END_TEST

START_TEST(matches_brute_force_walls) { check_brute_force(0); }
END_TEST

int main(void)
{
    Suite *s = suite_create("gas");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);   /* wall clock, on a shared machine */
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, head_on);
    tcase_add_test(tc, free_flight_and_walls);
    tcase_add_test(tc, dense_conservation_no_overlap);
    tcase_add_test(tc, walls_with_rotors);
    tcase_add_test(tc, inelastic_cools);
    tcase_add_test(tc, inelastic_collapse_stops);
    tcase_add_test(tc, many_events_at_once);
    tcase_add_test(tc, matches_brute_force_periodic);
    tcase_add_test(tc, matches_brute_force_walls);
    tcase_add_test(tc, fast_spinning_rotor_meets_wall_in_time);
    tcase_add_test(tc, subnormal_rotor_bounces);
    tcase_add_test(tc, inelastic_rotor_settles_on_wall);
    tcase_add_test(tc, inelastic_rotor_pivots_off_wall);
    tcase_add_test(tc, extreme_scales_refused);
    tcase_add_test(tc, unresolved_pair_refused);
    tcase_add_test(tc, edge_scales_never_overlap);
    tcase_add_test(tc, unresolvable_contact_refused);
    tcase_add_test(tc, wedged_disc_stalls);
    tcase_add_test(tc, perfectly_inelastic_pairs_go_on);
    tcase_add_test(tc, advance_reaches_its_time_exactly);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
