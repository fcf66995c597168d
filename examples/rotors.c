/*
 * rotors.c - rotors (two end discs on a rigid rod) colliding by rigid-body
 * impulses along the contact normal.
 *  1. Random rotor-disc and rotor-rotor collisions (10^5 by default): the
 *     worst relative changes of linear momentum, angular momentum (orbital
 *     + spin, about the origin) and energy (e = 1).
 *  2. A gas of rotors and discs whose rotors start without spin: the spin
 *     temperature I w^2 (1 degree of freedom) rises to meet the
 *     translational m v^2 / 2 (2 degrees of freedom): equipartition.
 * Numbers (chosen, dimensionless: lengths in end-disc diameters, masses in
 * disc masses, kT = 1): rods of half-length 2, end radius 0.5, rotor mass 2
 * (0.2 of it in the rod), discs of radius 0.5 and mass 1.
 *
 *   examples/rotors [--collisions N] [--time T] [--help]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <math.h>
#include <getopt.h>
#include <magdyn.h>

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
static double uni(void)
{
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return (double)((rng * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}
/* Box-Muller.  One draw a statement here and below: C leaves the order of
 * the operands and arguments open, and gcc and clang differ in it. */
static double gauss(void)
{
    double u = uni(), v = uni();
    return sqrt(-2 * log(1 - u)) * cos(2 * MAGDYN_PI * v);
}

static magdyn_vec2 gauss2(double scale)
{
    double gx = gauss(), gy = gauss();
    return magdyn_v2(scale * gx, scale * gy);
}

static magdyn_rotor rotor(double x, double y)
{
    magdyn_rotor q;
    memset(&q, 0, sizeof q);
    q.r = magdyn_v2(x, y);
    q.angle = 2 * MAGDYN_PI * uni();
    q.mass = 2; q.half_length = 2; q.end_radius = 0.5;
    q.inertia = magdyn_rotor_inertia(q.mass, 0.4, q.half_length, q.end_radius);
    return q;
}

static double L_of(const magdyn_rotor *q) { return q->mass * magdyn_vec2_cross(q->r, q->v) + q->inertia * q->omega; }
static double E_of(const magdyn_rotor *q) { return 0.5 * q->mass * magdyn_vec2_norm2(q->v) + 0.5 * q->inertia * q->omega * q->omega; }

static void random_collisions(long n)
{
    double wp = 0, wl = 0, we = 0;
    long i, done = 0;
    for (i = 0; i < n; i++) {
        magdyn_rotor a = rotor(0, 0), b = rotor(0, 0), a0, b0;
        magdyn_vec2 ea, eb, c, p0, p1;
        double ang = 2 * MAGDYN_PI * uni(), L0, L1, E0, E1;
        a.v = gauss2(1.0); a.omega = gauss();
        b.v = gauss2(1.0); b.omega = gauss();
        magdyn_rotor_ends(&a, &ea, NULL);
        c = magdyn_v2(cos(ang), sin(ang));
        if (i % 2) {                     /* rotor-disc */
            magdyn_disc d, d0;
            d.mass = 1; d.radius = 0.5; d.v = gauss2(1.0);
            d.r = magdyn_vec2_madd(ea, -1.0, c);
            a0 = a; d0 = d;
            magdyn_rotor_disc_collide(&a, &d, 1.0);
            p0 = magdyn_vec2_madd(magdyn_vec2_scale(a0.v, a0.mass), d0.mass, d0.v);
            p1 = magdyn_vec2_madd(magdyn_vec2_scale(a.v, a.mass), d.mass, d.v);
            L0 = L_of(&a0) + d0.mass * magdyn_vec2_cross(d0.r, d0.v);
            L1 = L_of(&a) + d.mass * magdyn_vec2_cross(d.r, d.v);
            E0 = E_of(&a0) + 0.5 * d0.mass * magdyn_vec2_norm2(d0.v);
            E1 = E_of(&a) + 0.5 * d.mass * magdyn_vec2_norm2(d.v);
        } else {                         /* rotor-rotor, end 0 of a on end 1 of b */
            magdyn_vec2 u = magdyn_v2(b.half_length * cos(b.angle), b.half_length * sin(b.angle));
            eb = magdyn_vec2_madd(ea, -1.0, c);
            b.r = magdyn_vec2_add(eb, u);
            a0 = a; b0 = b;
            magdyn_rotor_rotor_collide(&a, &b, 1.0);
            p0 = magdyn_vec2_madd(magdyn_vec2_scale(a0.v, a0.mass), b0.mass, b0.v);
            p1 = magdyn_vec2_madd(magdyn_vec2_scale(a.v, a.mass), b.mass, b.v);
            L0 = L_of(&a0) + L_of(&b0); L1 = L_of(&a) + L_of(&b);
            E0 = E_of(&a0) + E_of(&b0); E1 = E_of(&a) + E_of(&b);
        }
        if (E0 == E1 && L0 == L1) continue;      /* separating: no collision */
        done++;
        wp = fmax(wp, magdyn_vec2_norm(magdyn_vec2_sub(p1, p0)) / sqrt(E0 * 4));
        wl = fmax(wl, fabs(L1 - L0) / (fabs(L0) + sqrt(E0 * 4) * 5));
        we = fmax(we, fabs(E1 - E0) / E0);
    }
    printf("%ld random rotor collisions (%ld with an impulse): worst relative change of\n"
           "  momentum %.2e, angular momentum %.2e, energy %.2e\n", n, done, wp, wl, we);
}

static void usage(FILE *f, const char *name)
{
    fprintf(f, "usage: %s [--collisions N] [--time T] [--help]\n"
               "  Rotor collisions keep momentum, angular momentum and energy; a gas of\n"
               "  rotors and discs reaches equipartition of translation and spin.\n"
               "  --collisions N  random collisions to check (default 100000)\n"
               "  --time T        length of the gas run in the reduced unit of time\n"
               "                  (disc diameter, disc mass, kT = 1), >= 200 (default 2000)\n"
               "  --help          this text\n", name);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"collisions", required_argument, 0, 'n'}, {"time", required_argument, 0, 't'},
        {"help", no_argument, 0, 'h'},             {0, 0, 0, 0}};
    magdyn_gas_params p = magdyn_gas_params_default();
    magdyn_gas *g;
    magdyn_gas_observables o, od, e0;
    double t = 0, sum_t = 0, sum_r = 0, sum_d = 0, t_end = 2000;
    long ncoll = 100000;
    int i, j, k, ns = 0, c, nslices;
    while ((c = getopt_long(argc, argv, "n:t:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n': ncoll = atol(optarg); break;
        case 't': t_end = atof(optarg); break;
        case 'h': usage(stdout, argv[0]); return 0;
        default: usage(stderr, argv[0]); return 2;
        }
    }
    if (optind < argc || ncoll < 0 || !(t_end >= 200 && t_end <= 1e9)) { usage(stderr, argv[0]); return 2; }
    nslices = (int)(t_end / 2.0);
    random_collisions(ncoll);
    p.width = p.height = 60;
    p.periodic = 1;
    if (!(g = magdyn_gas_new(&p))) return 1;
    /* 10 x 10 rotors on a 6-spaced lattice, discs in between */
    for (i = 0; i < 10; i++)
        for (j = 0; j < 10; j++) {
            magdyn_rotor q = rotor(6 * i + 3, 6 * j + 3);
            magdyn_disc d;
            q.v = gauss2(sqrt(0.5));   /* kT = 1 */
            d.r = magdyn_v2(6 * i + 6, 6 * j + 6); d.v = gauss2(1.0);
            d.mass = 1; d.radius = 0.5;
            if (magdyn_gas_add_rotor_species(g, &q, 0) < 0 || magdyn_gas_add_disc_species(g, &d, 1) < 0) {
                magdyn_gas_free(g);
                return 1;
            }
        }
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &e0);
    printf("\n%d rotors without spin and %d discs, periodic 60 x 60 box\n", magdyn_gas_rotors(g), magdyn_gas_discs(g));
    printf("#  time   collisions   rotor kT_trans  rotor kT_spin   disc kT\n");
    for (k = 0; k <= nslices; k++) {
        if (k) magdyn_gas_advance(g, t += 2.0);
        magdyn_gas_observe(g, 0, &o);
        magdyn_gas_observe(g, 1, &od);
        if (k >= 100) { sum_t += o.kt_trans; sum_r += o.kt_rot; sum_d += od.kt_trans; ns++; }
        if (k % (nslices / 20) == 0)
            printf("%7.1f %12lld %14.4f %14.4f %10.4f\n", t, magdyn_gas_collisions(g), o.kt_trans, o.kt_rot, od.kt_trans);
    }
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
    printf("# averages over t = 200..%g: rotor translation %.4f, spin %.4f, discs %.4f (kT per degree of freedom)\n",
           t, sum_t / ns, sum_r / ns, sum_d / ns);
    printf("# energy drift %.2e, momentum %.2e\n", (o.energy - e0.energy) / e0.energy,
           magdyn_vec2_norm(magdyn_vec2_sub(o.momentum, e0.momentum)));
    magdyn_gas_free(g);
    return 0;
}
