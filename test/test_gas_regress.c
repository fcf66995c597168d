/*
 * test_gas_regress.c - gases found by fuzzing (fuzz/fuzz_gas.c) to stall
 * or to break an invariant, each rebuilt from its fuzz input and run
 * through the public API as the harness does: eight chunks of advance,
 * each ending OK exactly at its t_end, kinetic energy never rising (1e-12,
 * rounding), no two bodies overlapping (1e-9 of their radii, or a held
 * pair's give, below), and in a
 * periodic box the momentum kept (Newton's third law, to 1e-12 of the
 * momentum scale).
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include "test_gas.h"
#include "testutil.h"

/* A 1 m box of the discs d[0..nd-1] and rotors r[0..nr-1] at the given
 * restitutions, each added at its index. */
static magdyn_gas *build(int periodic, const magdyn_disc *d, int nd, const magdyn_rotor *r, int nr,
                         double e_pair, double e_wall)
{
    magdyn_gas_params p = {.width = 1.0, .height = 1.0, .periodic = periodic};
    magdyn_gas *g = magdyn_gas_new(&p);
    int i;
    ck_assert_ptr_nonnull(g);
    for (i = 0; i < nd; i++) ck_assert_int_eq(magdyn_gas_add_disc(g, &d[i]), i);
    for (i = 0; i < nr; i++) ck_assert_int_eq(magdyn_gas_add_rotor(g, &r[i]), i);
    ck_assert_int_eq(magdyn_gas_set_restitution(g, e_pair, e_wall), MAGDYN_OK);
    return g;
}

/* Advances g to t_end in eight chunks, checking the invariants above;
 * pscale: the momentum scale sum m |v| [kg m/s]; overlap: the largest
 * overlap allowed, relative to the contact distance. */
static void fuzz_chunks(magdyn_gas *g, double t_end, int periodic, double pscale, double overlap)
{
    magdyn_gas_observables o0, o;
    double e_prev;
    int c;
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o0);
    e_prev = o0.energy;
    for (c = 1; c <= 8; c++) {
        double t = t_end * c / 8.0;
        ck_assert_int_eq(magdyn_gas_advance(g, t), MAGDYN_OK);
        ck_assert(magdyn_gas_time(g) == t);
        magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
        ck_assert(o.energy <= e_prev * (1.0 + 1e-12));
        ck_assert(smallest_gap(g, 1.0, 1.0, periodic) > -overlap);
        if (periodic)
            ck_assert(fabs(o.momentum.x - o0.momentum.x) + fabs(o.momentum.y - o0.momentum.y)
                      <= 1e-12 * pscale);
        e_prev = o.energy;
    }
}

/* Builds the gas of build() and runs fuzz_chunks on it; returns its
 * number of collisions. */
static long long replay(int periodic, const magdyn_disc *d, int nd, const magdyn_rotor *r, int nr,
                        double e_pair, double e_wall, double t_end, double pscale, double overlap)
{
    magdyn_gas *g = build(periodic, d, nd, r, nr, e_pair, e_wall);
    long long n;
    fuzz_chunks(g, t_end, periodic, pscale, overlap);
    n = magdyn_gas_collisions(g);
    magdyn_gas_free(g);
    return n;
}

/*
 * The fuzz input itself (fuzz/corpus/gas/regress-rotor-double-contact.bin,
 * fuzz_gas): 12 discs and 2 equal rotors, horizontal, both spinning at -50
 * rad/s, one moving onto the other at 0.996 m/s, in a periodic 1 m box
 * at pair restitution 0.502 (walls elastic).  The advance ended in
 * MAGDYN_ENOCONV after 5 collisions; now each of eight chunks up to
 * 0.226 s returns OK, ends at its time, the energy never rises (1e-12
 * relative), momentum is kept (1e-12 of the momentum scale, 0.05 kg m/s)
 * and nothing overlaps (1e-9 of the contact distance).
 */
START_TEST(double_contact_fuzz_gas)
{
    static const magdyn_disc d[12] = {
        {{0x1.5ec8a3ca8e082p-6, 0x1.8afb524e9b6f4p-5}, {-0x1.523427efd80cp-1, 0x1.70ed69cf7905dp-4}, 0x1.611f965f134cbp-9, 0x1.1f33ae8fd785ap-6},
        {{0x1.99991361dc93fp-3, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.4ccc89b0ee49fp-2, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.cccc89b0ee49fp-2, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.266644d87725p-1, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.666644d87725p-1, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.a66644d87725p-1, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.eb2353d2f6c35p-1, 0x1.7eb63d05c08e4p-5}, {0x1.b844736b128e1p+0, 0x1.3c6642307c361p-1}, 0x1.03720996e6c6p-7, 0x1.4dc8a9f19fb43p-5},
        {{0x1.a134b108ec7c8p-5, 0x1.918cbb3f0a2f8p-3}, {0x0p+0, 0x0p+0}, 0x1.2e3c9296af42bp-7, 0x1.7d545e9c0cb09p-5},
        {{0x1.18fac827c1851p-3, 0x1.18fac827c1851p-3}, {-0x1.bacd6b045c9d4p-3, 0x1.4559c752f8f49p-2}, 0x1.87ac89b8d3733p-10, 0x1.8fa41f0047f61p-7},
        {{0x1.4e8bea77cbdcdp-2, 0x1.147b677f6b1a3p-3}, {0x1.c1c1c1c1c1c1cp-4, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.90d3a5dac6608p-2, 0x1.21a74bb58cc0fp-3}, {0x1.3920e22aa861dp-1, 0x1.ede3ccbbb69f4p-7}, 0x1.40bdab3ca517dp-9, 0x1.0d362bee7ddap-6}};
    static const magdyn_rotor r[2] = {
        {{0x1.0a3d9231c64bbp-1, 0x1.28f648c7192eap-3}, {0x1.fdfdfdfdfdfep-1, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7},
        {{0x1.4a3d9231c64bbp-1, 0x1.28f648c7192eap-3}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7}};
    ck_assert_int_gt(replay(1, d, 12, r, 2, 128.0 / 255.0, 1.0, 0x1.cfcfcfcfcfcfep-3, 0.05, 1e-9),
                     5);
}
END_TEST

/*
 * A spin-pressed rotor contact at restitution 0 (fuzz/corpus/gas/
 * regress-rotor-chatter-e0.bin, through the public API): 12 discs and two
 * rotors in a walled box.  An end pair that an inelastic impulse leaves
 * touching while the spin presses the ends together (g'' < 0) came back
 * at the root finders' resolution, 3.28e6 collisions within 0.11 s; held
 * apart for the contact duration t_c (gas_collide.c, hold_pressed) it
 * bounces about once per t_c.  Energy never rises (every restitution used
 * is at most 1), and time reaches each t_end.
 */
START_TEST(pressed_rotor_contact_fuzz_gas)
{
    static const magdyn_disc d[12] = {
        {{0x1.645ab9a5784edp-4, 0x1.64d0f8ce6492cp-6}, {-0x1.087451f5f7039p-1, -0x1.70bee7cfc2d8fp-1}, 0x1.98a2e050f4cbep-9, 0x1.3e0ad7a4713e1p-6},
        {{0x1.2289501194eaep-3, 0x1.428edbb0d6986p-5}, {-0x1.00fc02ca370a7p-7, -0x1.95461178164a7p-14}, 0x1.18a5f5d51074dp-10, 0x1.51f5ccd714853p-7},
        {{0x1.3d3d4bb6b381ap-2, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.cccc89b0ee49fp-2, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.266644d87725p-1, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.666644d87725p-1, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.a66644d87725p-1, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.e66644d87725p-1, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.333226c3b927dp-4, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.99991361dc93fp-3, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.4ccc89b0ee49fp-2, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.cccc89b0ee49fp-2, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5}};
    static const magdyn_rotor r[2] = {
        {{0x1.21478c868b9fep-1, 0x1.851e321a2e7f7p-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6},
        {{0x1.61478c868b9fep-1, 0x1.851e321a2e7f7p-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6}};
    /* the rotors' ends are 0.08 m apart, an end 0.04 m across: one end
     * fits between the other rotor's two exactly, and is held there
     * (gas_collide.c, hold_pair), giving way by at most |g''| t_c^2 / 2:
     * g'' <= 2 omega^2 l = 200 m/s^2, t_c ~ 1e-4 s (the default), 1e-6 m
     * or 2.5e-5 of the contact distance */
    /* 1248 here; the chatter made 3.28e6 */
    ck_assert_int_lt(replay(0, d, 12, r, 2, 0.0, 0x1.cdcdcdcdcdcddp-1, 0x1.d2d2d2d2d2d2dp-2, 0.0, 3e-5),
                     10000);
}
END_TEST

/*
 * Two discs touching across a periodic edge at restitution 0
 * (fuzz/corpus/gas/regress-periodic-touch.bin): discs 5 and 6, 0.043 m
 * apart at coordinates near 1 m, separating at 1.7e-15 m/s after the
 * rounding floor of their velocities; the pair search, whose test rounds
 * the coordinates, found them approaching at once, again and again
 * (MAGDYN_ENOCONV at t = 0.15).  They now leave at the search's rounding
 * speed (gas_collide.h, unstick_discs).
 */
START_TEST(periodic_touch_fuzz_gas)
{
    static const magdyn_disc d[20] = {
        {{0x1.561e68f436fap-6, 0x1.ae83ab90b2098p-7}, {0x1.010101010101p-1, 0x0p+0}, 0x1.bf2fd3aab4f26p-10, 0x1.ae7b4814e1ae8p-7},
        {{0x1.bb517c988cc5dp-3, 0x1.394af5382e0dbp-4}, {-0x1.022949ef85448p+0, -0x1.2e5ad9a367548p-1}, 0x1.34679ace01346p-8, 0x1.b1b1b1b1b1b1cp-6},
        {{0x1.45078679177f3p-2, 0x1.141e19e45dfccp-4}, {-0x1.022949ef85448p+0, -0x1.2e5ad9a367548p-1}, 0x1.9a2da25ec9484p-8, 0x1.11634ed3f2abp-5},
        {{0x1.c5078679177f3p-2, 0x1.141e19e45dfccp-4}, {-0x1.022949ef85448p+0, -0x1.2e5ad9a367548p-1}, 0x1.9a2da25ec9484p-8, 0x1.11634ed3f2abp-5},
        {{0x1.2283c33c8bbf9p-1, 0x1.1ac0cd0b42198p-5}, {0x1.6161616161616p-3, 0x0p+0}, 0x1.9a2da25ec9484p-8, 0x1.11634ed3f2abp-5},
        {{0x1.451ed9dfdac69p-1, 0x1.47b677f6b1a2cp-7}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.a283c33c8bbf9p-1, 0x1.141e19e45dfccp-4}, {-0x1.022949ef85448p+0, -0x1.2e5ad9a367548p-1}, 0x1.9a2da25ec9484p-8, 0x1.11634ed3f2abp-5},
        {{0x1.e1ee0ce7060a2p-1, 0x1.0f7067383050dp-4}, {-0x1.022949ef85448p+0, -0x1.2e5ad9a367548p-1}, 0x1.9a2da25ec9484p-8, 0x1.11634ed3f2abp-5},
        {{0x1.141e19e45dfccp-4, 0x1.8a0f0cf22efe6p-3}, {-0x1.022949ef85448p+0, -0x1.2e5ad9a367548p-1}, 0x1.9a2da25ec9484p-8, 0x1.11634ed3f2abp-5},
        {{0x1.8a0f0cf22efe6p-3, 0x1.8a0f0cf22efe6p-3}, {-0x1.022949ef85448p+0, -0x1.2e5ad9a367548p-1}, 0x1.9a2da25ec9484p-8, 0x1.11634ed3f2abp-5},
        {{0x1.452a3214082cp-2, 0x1.87ed6aa1b931ap-3}, {-0x1.098fc5246b903p+0, -0x1.c958a712190f1p-2}, 0x1.8e9cf2f70fa31p-8, 0x1.0af67b9a52a49p-5},
        {{0x1.c3f6b550dc98dp-2, 0x1.87ed6aa1b931ap-3}, {-0x1.098fc5246b903p+0, -0x1.c958a712190f1p-2}, 0x1.8e9cf2f70fa31p-8, 0x1.0af67b9a52a49p-5},
        {{0x1.2283c33c8bbf9p-1, 0x1.8a0f0cf22efe6p-3}, {-0x1.022949ef85448p+0, -0x1.2e5ad9a367548p-1}, 0x1.9a2da25ec9484p-8, 0x1.11634ed3f2abp-5},
        {{0x1.6283c33c8bbf9p-1, 0x1.8a0f0cf22efe6p-3}, {-0x1.022949ef85448p+0, -0x1.2e5ad9a367548p-1}, 0x1.9a2da25ec9484p-8, 0x1.11634ed3f2abp-5},
        {{0x1.a283c33c8bbf9p-1, 0x1.8a0f0cf22efe6p-3}, {-0x1.022949ef85448p+0, -0x1.2e5ad9a367548p-1}, 0x1.9a2da25ec9484p-8, 0x1.11634ed3f2abp-5},
        {{0x1.e283c33c8bbf9p-1, 0x1.8a0f0cf22efe6p-3}, {-0x1.022949ef85448p+0, -0x1.2e5ad9a367548p-1}, 0x1.9a2da25ec9484p-8, 0x1.11634ed3f2abp-5},
        {{0x1.141e19e45dfccp-4, 0x1.45078679177f3p-2}, {-0x1.fcb7723ff099ep-1, 0x1.3afbe5ccf0ee9p-1}, 0x1.9a2da25ec9484p-8, 0x1.11634ed3f2abp-5},
        {{0x1.147b677f6b1a3p-3, 0x1.0a3db3bfb58d1p-2}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.0a3db3bfb58d1p-2, 0x1.0a3db3bfb58d1p-2}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.8a3db3bfb58d1p-2, 0x1.0a3db3bfb58d1p-2}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7}};
    static const magdyn_rotor r[2] = {
        {{0x1.0a3d9231c64bbp-1, 0x1.147b24638c975p-2}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7},
        {{0x1.4a3d9231c64bbp-1, 0x1.147b24638c975p-2}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7}};
    ck_assert_int_gt(replay(1, d, 20, r, 2, 0.0, 0.0, 0x1.d2d2d2d2d2d2dp-2, 0.05, 1e-9), 2);
}
END_TEST

/*
 * Two rotors jammed end in slot at restitution 0 (fuzz/corpus/gas/
 * regress-jam-rotors-b.bin): equal rotors whose ends, 0.02 m in radius,
 * sit 0.08 m apart, so that an end fills the gap between the other
 * rotor's two exactly; spinning together at 41 rad/s, the end is pressed
 * into that gap or the wedge it forms.  Struck again and again within the
 * contact duration, the TC model made each bounce elastic, in a clearance
 * of rounding: 1.2e9 collisions a second, 163 s for the run of 0.46 s.
 * The pair is now held (gas_collide.c, hold_pair): some 1000 collisions
 * in all, the energy never rising, the held ends giving way by at most
 * |g''| t_c^2 / 2 (below 3e-5 of the contact distance, as above).
 */
START_TEST(jammed_rotors_fuzz_gas)
{
    static const magdyn_disc d[12] = {
{{0x1.645ab9a5784edp-4, 0x1.64d0f8ce6492cp-6}, {-0x1.087451f5f7039p-1, -0x1.70bee7cfc2d8fp-1}, 0x1.98a2e050f4cbep-9, 0x1.3e0ad7a4713e1p-6},
        {{0x1.699d456323ff2p-3, 0x1.d2a05a2157e2cp-5}, {0x1.2121212121212p-4, 0x0p+0}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.0a3db3bfb58d1p-2, 0x1.47b677f6b1a2cp-7}, {0x0p+0, -0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.cccc89b0ee49fp-2, 0x1.333226c3b927dp-4}, {0x0p+0, 0x0p+0}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.1a00864028ed6p-1, 0x1.333226c3b927dp-4}, {0x0p+0, 0x0p+0}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.5999bb2788dbp-1, 0x1.333226c3b927dp-4}, {-0x1.1122ec97298ecp-3, 0x1.523ce225f3417p-4}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.9797b92586d9p-1, 0x1.361217ff97b98p-4}, {0x1.8b9c391372598p+0, 0x1.13ad8e5f347d6p-2}, 0x1.2ac45df7912acp-7, 0x1.7979797979798p-5},
        {{0x1.f58aa5a49f579p-1, 0x1.ac552d24fabc6p-4}, {0x1.c5c5c5c5c5c5cp-1, -0x1.f48a4164638b5p-53}, 0x1.98a2e050f4cbep-9, 0x1.3e0ad7a4713e1p-6},
        {{0x1.333226c3b927dp-4, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.eb84988094e5dp-3, 0x1.147b677f6b1a3p-3}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.4ccc89b0ee49fp-2, 0x1.99991361dc93fp-3}, {0x1p+1, 0x0p+0}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.b333764f11b61p-2, 0x1.68021900a3b5ap-3}, {0x1p+1, 0x0p+0}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5}};
    static const magdyn_rotor r[2] = {
        {{0x1.21478c868b9fep-1, 0x1.851e321a2e7f7p-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6},
        {{0x1.61478c868b9fep-1, 0x1.851e321a2e7f7p-3}, {0x1.9191919191919p-2, -0x1.baf4afaca9a65p-54}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6}};
    ck_assert_int_lt(replay(0, d, 12, r, 2, 0.0, 0x1.cdcdcdcdcdcddp-1, 0x1.d2d2d2d2d2d2dp-2, 0.0, 3e-5),
                     10000);
}
END_TEST

/*
 * Two rotors touching at restitution 0 in a periodic box (fuzz/corpus/gas/
 * regress-rotor-touch.bin): one disc and 8 rotors.  After an elastic TC
 * repeat two ends separated at 1.2e-15 m/s, which the pair search, whose
 * coordinates round at 1 m, read as approaching, at once and forever
 * (MAGDYN_ENOCONV).  unstick_pair's floor now takes the coordinates'
 * rounding (gas_collide.c).
 */
START_TEST(rotor_touch_fuzz_gas)
{
    static const magdyn_disc d[1] = {
        {{0x1.53421aaafa686p-6, 0x1.47b677f6b1a2cp-7}, {-0x1.9be4bf16e2252p-5, 0x1.1f2a3120a9dd1p-4}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7}};
    static const magdyn_rotor r[8] = {
        {{0x1.469e61332ce1cp-3, 0x1.d6e6643ab45d6p-6}, {0x1.d9d9d9d9d9d9ep-2, 0x0p+0}, 0x0p+0, 0x1.a787878787877p+4, 0x1.ce9b683501ceap-9, 0x1.e4872522da687p-21, 0x1.47ae147ae147bp-7, 0x1.2121212121212p-6},
        {{0x1.147b24638c975p-2, 0x1.47b24638c9754p-6}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7},
        {{0x1.947b24638c975p-2, 0x1.47b24638c9754p-6}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7},
        {{0x1.0a3d9231c64bbp-1, 0x1.47b24638c9754p-6}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7},
        {{0x1.4a3d9231c64bbp-1, 0x1.47b24638c9754p-6}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7},
        {{0x1.8a3d9231c64bbp-1, 0x1.47b24638c9754p-6}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7},
        {{0x1.ca3d9231c64bbp-1, 0x1.47b24638c9754p-6}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7},
        {{0x1.47b24638c9754p-6, 0x1.28f648c7192eap-3}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7}};
    ck_assert_int_gt(replay(1, d, 1, r, 8, 0x0p+0, 0x1.010101010101p-8, 0x1p-1, 0.0183024, 3e-5),
                     0);
}
END_TEST

/*
 * A near-singular double contact (fuzz/corpus/gas/regress-wedge-energy.bin):
 * 12 discs and 6 rotors in a walled box at pair restitution 0; a disc
 * wedged between two ends whose normals are nearly opposite (Delassus
 * matrix condition ~3e5) gained 1.5e-9 of its energy in an elastic
 * strike, against the harness's 1e-12.  The impulses are refined and
 * capped at no energy gain (gas_collide.c, refine, energy_cap): the energy
 * never rises here by more than 1e-12 of itself.
 */
START_TEST(wedge_energy_fuzz_gas)
{
    static const magdyn_disc d[12] = {
{{0x1.b6e910e109ab8p-4, 0x1.2a18c2086e342p-6}, {0x1.eaada5953404fp-3, 0x1.9bcbb570e61e3p-1}, 0x1.6a6022b20e373p-9, 0x1.24578abdf1246p-6},
        {{0x1.ba87380befa2ep-3, 0x1.7c88368143a06p-6}, {0x1.9fb29bcb4290bp-1, 0x1.a4658b783e88ep-2}, 0x1.a683b2cd6d2bbp-9, 0x1.45c0a1e997ac2p-6},
        {{0x1.517f7e370f327p-2, 0x1.47b677f6b1a2cp-7}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.8a3db3bfb58d1p-2, 0x1.47b677f6b1a2cp-7}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.051ed9dfdac69p-1, 0x1.47b677f6b1a2cp-7}, {-0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.687b308599237p-1, 0x1.92d660d21d269p-5}, {0x1.4141414141414p-4, 0x0p+0}, 0x1.196b56dbfab3p-7, 0x1.6632ffcc99664p-5},
        {{0x1.b45fc375cccc9p-1, 0x1.61cbaa3570a2bp-4}, {-0x1.2684661ca4bedp-2, -0x1.02c7b6bf77b06p+0}, 0x1.f9c8a1b83f6a6p-9, 0x1.74035f887e40dp-6},
        {{0x1.ccfa53c9c1d0ap-1, 0x1.732f14333d246p-4}, {0x0p+0, 0x0p+0}, 0x1.0f656982158a5p-10, 0x1.4cd1f0a8fae67p-7},
        {{0x1.7b1d11c3b1d6p-7, 0x1.17b1d11c3b1d6p-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.62aa586ce7c92p-10, 0x1.7b14ae47e17b1p-7},
        {{0x1.4363c34e838a8p-3, 0x1.b9d7bbace37cfp-3}, {0x1.5959595959596p-2, 0x0p+0}, 0x1.4b88f99d747ecp-8, 0x1.cb64fe9831cb6p-6},
        {{0x1.2f6289ebf59bp-2, 0x1.76fa2c619ece4p-3}, {0x1.9ec0eda3e9465p+0, 0x1.a142470cad52dp-2}, 0x1.b39f2442fb4d3p-8, 0x1.1f85ec52b91f8p-5},
        {{0x1.b9867512ead79p-2, 0x1.99991361dc93fp-3}, {0x1.3131313131313p+0, 0x0p+0}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5}};
    static const magdyn_rotor r[6] = {
        {{0x1.1f716b7d269c5p-1, 0x1.851e321a2e7f7p-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6},
        {{0x1.61478c868b9fep-1, 0x1.851e321a2e7f7p-3}, {0x1.bfbfbfbfbfbfcp+0, -0x1.ede54e1df57acp-52}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6},
        {{0x1.a1478c868b9fep-1, 0x1.851e321a2e7f7p-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6},
        {{0x1.e1478c868b9fep-1, 0x1.851e321a2e7f7p-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6},
        {{0x1.12446c3c6506ep-4, 0x1.44911b0f1941cp-2}, {0x1.119984e9b5677p-1, -0x1.8435b2ff12fe8p+0}, 0x1.921fb54442d18p+2, 0x1.e646464646465p+4, 0x1.d8e32091350c2p-9, 0x1.aac890ab715bbp-18, 0x1.47ae147ae147bp-5, 0x1.278df45ac1279p-6},
        {{0x1.88025df41ce8cp-3, 0x1.4246f28e30605p-2}, {-0x1.05150fda7b7b4p-3, 0x1.f5bfb6cdbadfp-1}, 0x1.921fb54442d18p+2, 0x1.1f0f0f0f0f0fp+5, 0x1.e747891249956p-9, 0x1.ba47f04e772e6p-18, 0x1.47ae147ae147bp-5, 0x1.308cb5ab6dfd6p-6}};
    ck_assert_int_gt(replay(0, d, 12, r, 6, 0x0p+0, 0x1p+0, 0x1p-1, 0.140071, 3e-5), 0);
}
END_TEST

/*
 * A fast rotor on a wall of restitution 0 (fuzz/corpus/gas/
 * regress-wall-spin.bin): 20 discs and 7 rotors, pair restitution 0.85.
 * Rotor 2, spinning at 142 rad/s with its rod angle near 60 rad, left the
 * top wall at 2e-15 m/s, the floor of unstick, while the wall search, whose
 * angle turned by a rounded pi / 2 is off by eps |th|, found it approaching
 * at once, forever (MAGDYN_ENOCONV after 76 collisions).  The floor now
 * takes the angle's rounding (gas_collide.c, unstick).
 */
START_TEST(wall_spin_fuzz_gas)
{
    static const magdyn_disc d[20] = {
{{0x1.a6283a950667dp-4, 0x1.758699d38de58p-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.7e6bfd65d888ap-10, 0x1.8a8042d22e575p-7},
        {{0x1.99991361dc93fp-3, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.55a22c202a52dp-2, 0x1.4591065d64f62p-4}, {0x1.a1a1a1a1a1a1ap-4, -0x1.ccac8dbdcf27ep-56}, 0x1.08124fc0643b4p-7, 0x1.52ec861fb952fp-5},
        {{0x1.cccc89b0ee49fp-2, 0x1.333226c3b927dp-4}, {0x1.8989898989899p-2, -0x1.b218c0a416e5ap-54}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.232fec137691fp-1, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.666644d87725p-1, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.a66644d87725p-1, 0x1.3196fa6138de4p-4}, {0x1.b6228c5f3c1ddp-2, -0x1.f4257673dc363p+0}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.e66644d87725p-1, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.333226c3b927dp-4, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.99991361dc93fp-3, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.4ccc89b0ee49fp-2, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.cccc89b0ee49fp-2, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.08cc7d707f92ep-1, 0x1.2331f5c1fe4bap-3}, {0x1.7d248fa35553ep-2, 0x1.f9c459c14566ap-4}, 0x1.7e6bfd65d888ap-10, 0x1.8a8042d22e575p-7},
        {{0x1.48cc7d707f92ep-1, 0x1.2331f5c1fe4bap-3}, {-0x1.1f49a7e238eccp-5, 0x1.8826a7cb90c16p-4}, 0x1.7e6bfd65d888ap-10, 0x1.8a8042d22e575p-7},
        {{0x1.87dc755a994cep-1, 0x1.147b677f6b1a3p-3}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.c51ed9dfdac69p-1, 0x1.147b677f6b1a3p-3}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.47b677f6b1a2cp-7, 0x1.0a3db3bfb58d1p-2}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.147b677f6b1a3p-3, 0x1.0a3db3bfb58d1p-2}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.0a3db3bfb58d1p-2, 0x1.0a3db3bfb58d1p-2}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.8a3db3bfb58d1p-2, 0x1.0a3db3bfb58d1p-2}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7}};
    static const magdyn_rotor r[7] = {
        {{0x1.0a3d9231c64bbp-1, 0x1.147b24638c975p-2}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7},
        {{0x1.4a3d9231c64bbp-1, 0x1.147b24638c975p-2}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7},
        {{0x1.8a3d9231c64bbp-1, 0x1.147b24638c975p-2}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7},
        {{0x1.ca3d9231c64bbp-1, 0x1.147b24638c975p-2}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7},
        {{0x1.47b24638c9754p-6, 0x1.947b24638c975p-2}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7},
        {{0x1.28f648c7192eap-3, 0x1.947b24638c975p-2}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7},
        {{0x1.147b24638c975p-2, 0x1.947b24638c975p-2}, {0x0p+0, 0x0p+0}, 0x0p+0, -0x1.9p+5, 0x1.0624dd2f1a9fcp-9, 0x1.421f5f40d8377p-22, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-7}};
    ck_assert_int_gt(replay(0, d, 20, r, 7, 0x1.b5b5b5b5b5b5bp-1, 0x0p+0, 0x1p-1, 0.0, 3e-5), 76);
}
END_TEST

/*
 * A held pair left overlapping (fuzz/corpus/gas/regress-overlap-pressed.bin):
 * 14 discs and 5 rotors, pair restitution 0.  Two rotors that gave way by
 * 5.7e-9 m while held, pressed together by their spins, were released
 * still overlapping; each bounce was elastic by the TC model and too slow
 * to leave the overlap, every 2.7e-9 s: 5.46e6 collisions for the run.
 * A pair found overlapping beyond the contact tolerance is now held again
 * and brought apart (gas_collide.c, gas_do_pair): 1.5e4 collisions.
 */
START_TEST(overlap_pressed_fuzz_gas)
{
    static const magdyn_disc d[14] = {
{{0x1.9c01a60fe71b5p-4, 0x1.7a467b3ce591fp-4}, {0x1.a1e48fcb55119p+0, -0x1.27d1f8bcc4201p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.2331f5c1fe4bap-3, 0x1.198fae0ff25dp-6}, {0x1.8c6376a9dddc6p-4, 0x1.06ffb3cae6a6p-5}, 0x1.7e6bfd65d888ap-10, 0x1.8a8042d22e575p-7},
        {{0x1.36b57a657d4f9p-2, 0x1.8f46b389ce6bbp-5}, {0x1.8c6376a9dddc6p-4, 0x1.06ffb3cae6a6p-5}, 0x1.32dcd8c02cb8p-7, 0x1.82783aca264f5p-5},
        {{0x1.9198fae0ff25dp-2, 0x1.198fae0ff25dp-6}, {0x1.856dfe00cc48ap-4, -0x1.2dbb51114da4fp-5}, 0x1.7e6bfd65d888ap-10, 0x1.8a8042d22e575p-7},
        {{0x1.0547f8c14b938p-1, 0x1.51fe3052e4e04p-7}, {0x1.8989898989899p-2, 0x0p+0}, 0x1.18a5f5d51074dp-10, 0x1.51f5ccd714853p-7},
        {{0x1.451ed9dfdac69p-1, 0x1.47b677f6b1a2cp-7}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.851ed9dfdac69p-1, 0x1.47b677f6b1a2cp-7}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.c51ed9dfdac69p-1, 0x1.47b677f6b1a2cp-7}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.47b677f6b1a2cp-7, 0x1.147b677f6b1a3p-3}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.147b677f6b1a3p-3, 0x1.147b677f6b1a3p-3}, {0x0p+0, -0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.4ccc89b0ee49fp-2, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.cccc89b0ee49fp-2, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.266644d87725p-1, 0x1.78ac057e96b08p-3}, {0x1.ffd8369e5829bp+0, 0x1.93a8f3a344071p-5}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.498c377ebfc7p-1, 0x1.147b677f6b1a3p-3}, {0x0p+0, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7}};
    static const magdyn_rotor r[5] = {
        {{0x1.a9a6f62da35b7p-1, 0x1.a69bd8b68d6dcp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.6dda96dcb9472p+1, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.97955ee9a8799p-19, 0x1.836ef412cb1dp-6, 0x1.47ae147ae147bp-6},
        {{0x1.e1478c868b9fep-1, 0x1.851e321a2e7f7p-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6},
        {{0x1.0a3c64345cfeep-4, 0x1.428f190d173fcp-2}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6},
        {{0x1.c28ed5f138bcep-3, 0x1.61476af89c5e7p-2}, {0x1.694d53bb110e6p+0, 0x1.1cefbb09d5aaap-5}, 0x0p+0, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.421f5f40d8377p-20, 0x1.47ae147ae147bp-7, 0x1.47ae147ae147bp-6},
        {{0x1.3d70e6f2e8c04p-2, 0x1.3e48b2f738b12p-2}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6}};
    ck_assert_int_lt(replay(0, d, 14, r, 5, 0x0p+0, 0x1.cdcdcdcdcdcddp-1, 0x1.d2d2d2d2d2d2dp-2, 0.0, 3e-5),
                     100000);
}
END_TEST

/*
 * A slow pressed repeat (fuzz/corpus/gas/regress-pressed-repeat.bin): 14
 * discs and 3 rotors, pair restitution 0.  Two rotors' ends, pressed
 * together by the spins and struck again within t_c, bounced elastically
 * (the TC model) at the same small speed every 3.6e-9 s: 1.28e6
 * collisions for the run, 16.6 s.  Such a contact is now held
 * (gas_collide.c, pressed_repeat).
 */
START_TEST(pressed_repeat_fuzz_gas)
{
    static const magdyn_disc d[14] = {
{{0x1.95f25a5488e71p-4, 0x1.758699d38de58p-4}, {0x1.cdcdcdcdcdcddp+0, -0x1.fd66306cf64c1p-52}, 0x1.7e6bfd65d888ap-10, 0x1.8a8042d22e575p-7},
        {{0x1.bac34ce9c6f2cp-3, 0x1.198fae0ff25dp-6}, {0x1.8c6376a9dddc6p-4, 0x1.06ffb3cae6a6p-5}, 0x1.7e6bfd65d888ap-10, 0x1.8a8042d22e575p-7},
        {{0x1.36b57a657d4f9p-2, 0x1.8f46b389ce6bbp-5}, {0x1.ebb3c1b3a0eb4p-2, -0x1.2b8da085a3b66p-3}, 0x1.32dcd8c02cb8p-7, 0x1.82783aca264f5p-5},
        {{0x1.c9f55ab417a3ap-2, 0x1.7d3f8fcd33261p-5}, {0x1.3131313131313p-2, -0x1.50a57b45c89d2p-54}, 0x1.184345519b55bp-7, 0x1.64ea08c112fe9p-5},
        {{0x1.266644d87725p-1, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.666644d87725p-1, 0x1.333226c3b927dp-4}, {0x1p+1, 0x0p+0}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.9991ebd62d4eap-1, 0x1.00d7e112133dp-4}, {0x1.2e6626a82175fp-6, -0x1.5932f4640b70bp-4}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.fa96c7b3119e2p-1, 0x1.f6bad34c6ff84p-6}, {0x1.010101010101p-7, 0x0p+0}, 0x1.0f656982158a5p-10, 0x1.4cd1f0a8fae67p-7},
        {{0x1.55348917e5734p-7, 0x1.147b677f6b1a3p-3}, {0x0p+0, -0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.99991361dc93fp-3, 0x1.99991361dc93fp-3}, {0x1.d1d1d1d1d1d1dp-1, -0x1.00ea13f89fd64p-52}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.4ccc89b0ee49fp-2, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.cccc89b0ee49fp-2, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.3acc96af6cd3p-1, 0x1.ac23cb02d15b8p-3}, {0x0p+0, -0x0p+0}, 0x1.0f656982158a5p-10, 0x1.4cd1f0a8fae67p-7},
        {{0x1.6ca9f930a65e7p-1, 0x1.b2a7e4c29979cp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.daf178a3a5b2p-8, 0x1.355e5416a6023p-5}};
    static const magdyn_rotor r[3] = {
        {{0x1.a1478c868b9fep-1, 0x1.851e321a2e7f7p-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6},
        {{0x1.e1478c868b9fep-1, 0x1.851e321a2e7f7p-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6},
        {{0x1.0a3c64345cfeep-4, 0x1.428f190d173fcp-2}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6}};
    ck_assert_int_lt(replay(0, d, 14, r, 3, 0x0p+0, 0x1.cdcdcdcdcdcddp-1, 0x1.d2d2d2d2d2d2dp-2, 0.0, 3e-5),
                     100000);
}
END_TEST

/*
 * A rotor end wedged between two discs at restitution 0 (fuzz/corpus/gas/
 * regress-wedge-rotor-discs.bin): 14 discs and three rotors spinning at
 * 50 rad/s in a walled box.  One rotor's end is pressed into the gap of
 * two discs, overlapping both within the contact give.  Each strike held
 * the rotor against one disc and released its hold on the other (a rotor
 * held one partner at a time), whose search found the pair overlapping
 * and approaching at once, and so back and forth: 2.8e6 collisions for
 * the run of 0.46 s.  A rotor now holds up to GAS_HOLDS partners
 * (gas_impl.h): some 1100 collisions, the energy never rising, the held
 * ends giving way by at most 3e-5 of the contact distance, as above.
 */
START_TEST(wedged_rotor_fuzz_gas)
{
    static const magdyn_disc d[14] = {
{{0x1.9c01a60fe71b5p-4, 0x1.7a467b3ce591fp-4}, {0x1.99b2e753e4f84p+0, 0x1.220511fa51d9p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.9abd0b9965347p-3, 0x1.357a1732ca68fp-4}, {0x1.d4ce4008e664bp+0, 0x1.370bf4a3a966dp-1}, 0x1.38a53074098a9p-7, 0x1.88e50e03c655bp-5},
        {{0x1.36d4fb517f0abp-2, 0x1.8f46b389ce6bbp-5}, {0x1.c27a6a657ee7ap+0, -0x1.76d09ddf31052p-1}, 0x1.32dcd8c02cb8p-7, 0x1.82783aca264f5p-5},
        {{0x1.b1d2aba8b131bp-2, 0x1.2da1606d8c875p-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.2ac45df7912acp-7, 0x1.7979797979798p-5},
        {{0x1.266644d87725p-1, 0x1.333226c3b927dp-4}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.666644d87725p-1, 0x1.333226c3b927dp-4}, {0x0p+0, -0x0p+0}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.a6c116a74860cp-1, 0x1.3608b53a4305fp-4}, {-0x0p+0, 0x0p+0}, 0x1.2f64a4210eap-7, 0x1.7e9d55a793184p-5},
        {{0x1.d52ee9efead6ap-1, 0x1.61dd0bc18d62ap-5}, {0x1.fdd65c8da9228p-1, -0x1.9213b5716ef12p-6}, 0x1.08124fc0643b4p-7, 0x1.52ec861fb952fp-5},
        {{0x1.55348917e5734p-7, 0x1.147b677f6b1a3p-3}, {0x1.010101010101p-7, 0x0p+0}, 0x1.0624dd2f1a9fcp-10, 0x1.47ae147ae147bp-7},
        {{0x1.6666ec9e236c1p-3, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.3ed8781933cb2p-2, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.cccc89b0ee49fp-2, 0x1.99991361dc93fp-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.266644d87725p-1, 0x1.99991361dc93fp-3}, {-0x1.183b1c61f0d05p-1, -0x1.ec746923c349fp+0}, 0x1.47ae147ae147bp-7, 0x1.999999999999ap-5},
        {{0x1.487e625e1b96bp-1, 0x1.de06768791a52p-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.455df166228d1p-9, 0x1.0fc81a058aa96p-6}};
    static const magdyn_rotor r[3] = {
        {{0x1.a1478c868b9fep-1, 0x1.851e321a2e7f7p-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6},
        {{0x1.e1478c868b9fep-1, 0x1.851e321a2e7f7p-3}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.921fb54442d18p+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.e32f0ee144532p-18, 0x1.47ae147ae147bp-5, 0x1.47ae147ae147bp-6},
        {{0x1.df3918f3ba44dp-5, 0x1.44ba39f08a0ebp-2}, {0x1p+1, -0x1.1a62633145c07p-51}, 0x1.75bd17e819f5fp+2, 0x1.9p+5, 0x1.0624dd2f1a9fcp-8, 0x1.b6e95681ef4c5p-18, 0x1.36550d5f4acffp-5, 0x1.47ae147ae147bp-6}};
    ck_assert_int_lt(replay(0, d, 14, r, 3, 0x0p+0, 0x1.cdcdcdcdcdcddp-1, 0x1.d2d2d2d2d2d2dp-2, 0.0, 3e-5),
                     100000);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gas_regress");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, double_contact_fuzz_gas);
    tcase_add_test(tc, pressed_rotor_contact_fuzz_gas);
    tcase_add_test(tc, periodic_touch_fuzz_gas);
    tcase_add_test(tc, jammed_rotors_fuzz_gas);
    tcase_add_test(tc, rotor_touch_fuzz_gas);
    tcase_add_test(tc, wedge_energy_fuzz_gas);
    tcase_add_test(tc, wall_spin_fuzz_gas);
    tcase_add_test(tc, overlap_pressed_fuzz_gas);
    tcase_add_test(tc, pressed_repeat_fuzz_gas);
    tcase_add_test(tc, wedged_rotor_fuzz_gas);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_NOFORK);
}
