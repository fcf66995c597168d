/*
 * test_abi.c - the ABI policy of magdyn(7) (ABI POLICY): the extensible
 * public structs end in reserved slots whose zero value is today's
 * behaviour.
 *
 * A program built against libmagdyn.so.1 keeps the structs' layout of that
 * release; test/abi_v1.h writes those layouts out as such a program's
 * header had them, and checks at compile time that every field still sits
 * where it did.  The tests pass the old layouts to the library and check:
 *  - an old program's params and magnets, zero-filled and set field by
 *    field, give the same run, bit for bit, as today's _default() path;
 *  - a nonzero slot is refused with MAGDYN_EINVAL by every function that
 *    reads one (so that a later version may give it a meaning);
 *  - a function that fills a struct writes zeros into its slots and
 *    nothing past the old size (a guard after the struct stays intact).
 */
#include <check.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"
#include "abi_v1.h"

#define GUARD 0xA5
#define PAD 64

/* Every byte of p[0..n-1] is b. */
static int all_bytes(const void *p, size_t n, unsigned char b)
{
    const unsigned char *c = p;
    size_t k;
    for (k = 0; k < n; k++)
        if (c[k] != b) return 0;
    return 1;
}

/* ---- an old program's world ---------------------------------------------- */

/* The world params of magdyn_world_params_default, as an old program sets
 * them: zero-filled, then field by field. */
static v1_world_params old_params(void)
{
    v1_world_params p;
    memset(&p, 0, sizeof p);
    p.restitution = 0.5;
    p.friction = 0.3;
    p.rtol = 3e-11;
    p.atol = 1e-13;
    p.max_step = 1e-2;
    p.model = MAGDYN_MODEL_DIPOLE;
    p.model_tol = 1e-5;
    p.contact_tol = 1e-9;
    p.contact_margin = 1e-6;
    p.bounce_speed = 1e-3;
    p.contact_step = 1e-3;
    p.sleep_speed = 1e-4;
    p.sleep_time = 0.05;
    p.sleep_balance = 1e-3;
    p.solver_iterations = 3000;
    p.solver_tolerance = 1e-8;
    return p;
}

static v1_magnet old_magnet(double x, double z, bool fixed)
{
    v1_magnet m;
    double vol = 0.01 * 0.01 * 0.01;
    memset(&m, 0, sizeof m);
    m.half = magdyn_v3(0.005, 0.005, 0.005);
    m.mass = 7500.0 * vol;
    m.moment = magdyn_v3(0, 0, magdyn_moment_from_remanence(1.3, vol));
    m.position = magdyn_v3(x, 0, z);
    m.orientation = magdyn_quat_identity();
    m.fixed = fixed;
    return m;
}

typedef struct { int n; double t, speed; bool resting; int ok; } seen;

static void on_old_collision(const magdyn_collision *c, void *user)
{
    const v1_collision *o = (const v1_collision *)c;   /* as an old callback reads it */
    seen *s = user;
    if (s->n++ == 0) {
        s->t = o->time;
        s->speed = o->speed;
        s->resting = o->resting;
    }
    s->ok &= o->i + o->j == 1 && o->i * o->j == 0 && o->count >= 1 && o->count <= MAGDYN_MAX_CONTACTS;
}

/* Drop one magnet onto a held one; its state and the stats after 0.2 s. */
static void drop(const magdyn_world_params *p, magdyn_magnet *after, unsigned char *stats_buf)
{
    magdyn_world *w = magdyn_world_new(p);
    v1_magnet a = old_magnet(0, 0, true), b = old_magnet(0.002, 0.02, false);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(magdyn_world_add(w, (const magdyn_magnet *)&a), 0);
    ck_assert_int_eq(magdyn_world_add(w, (const magdyn_magnet *)&b), 1);
    ck_assert_int_eq(magdyn_world_advance(w, 0.2), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_get(w, 1, after), MAGDYN_OK);
    ck_assert_int_eq(magdyn_world_get_stats(w, (magdyn_world_stats *)stats_buf), MAGDYN_OK);
    magdyn_world_free(w);
}

START_TEST(old_world_params_run_as_the_defaults)
{
    v1_world_params old = old_params();
    magdyn_world_params now = magdyn_world_params_default();
    magdyn_magnet m_old, m_now;
    unsigned char st_old[sizeof(v1_world_stats) + PAD], st_now[sizeof(v1_world_stats) + PAD];
    seen s_old = {0, 0, 0, 0, 1}, s_now = {0, 0, 0, 0, 1};
    const v1_world_stats *so = (const v1_world_stats *)st_old, *sn = (const v1_world_stats *)st_now;
    memset(st_old, GUARD, sizeof st_old);
    memset(st_now, GUARD, sizeof st_now);
    old.on_collision = on_old_collision;
    old.user = &s_old;
    now.on_collision = on_old_collision;
    now.user = &s_now;
    drop((const magdyn_world_params *)&old, &m_old, st_old);
    drop(&now, &m_now, st_now);
    /* the same run to the last bit */
    ck_assert(memcmp(&m_old.position, &m_now.position, sizeof m_old.position) == 0);
    ck_assert(memcmp(&m_old.velocity, &m_now.velocity, sizeof m_old.velocity) == 0);
    ck_assert(memcmp(&m_old.orientation, &m_now.orientation, sizeof m_old.orientation) == 0);
    ck_assert_int_eq(so->steps, sn->steps);
    ck_assert_int_eq(so->collisions, sn->collisions);
    ck_assert_int_ge(s_old.n, 1);   /* the magnet fell and hit */
    ck_assert_int_eq(s_old.n, s_now.n);
    ck_assert(s_old.ok && s_now.ok);
    ck_assert(s_old.t == s_now.t && s_old.speed == s_now.speed);
    /* the magnet came to rest on the held one: 1 cm above, within contact_margin */
    ck_assert_double_eq_tol(m_old.position.z, 0.01, 1e-6);
    /* stats: nothing past the old size; the slots later versions gave a
       meaning (energy_external, solver_sweeps, solver_unconverged,
       pairs_exact, pairs_reused) hold those fields, the others zero */
    ck_assert(all_bytes(st_old + sizeof(v1_world_stats), PAD, GUARD));
    {
        const magdyn_world_stats *cur = (const magdyn_world_stats *)st_now;
        ck_assert(so->reserved[0].d == cur->energy_external);
        ck_assert_int_eq(so->reserved[1].i, cur->solver_sweeps);
        ck_assert_int_eq(so->reserved[2].i, cur->solver_unconverged);
        ck_assert_int_gt(cur->solver_sweeps, 0);   /* the landing was solved */
        ck_assert_int_eq(so->reserved[3].i, cur->pairs_exact);
        ck_assert_int_eq(so->reserved[4].i, cur->pairs_reused);
        ck_assert(all_bytes(&so->reserved[5], 3 * sizeof so->reserved[0], 0));
    }
    /* the magnet read back has zero slots */
    ck_assert(all_bytes(m_old.reserved, sizeof m_old.reserved, 0));
}
END_TEST

START_TEST(old_gas_params_run)
{
    v1_gas_params p;
    magdyn_disc d = {{0.5, 0.5}, {1.0, 0.0}, 1.0, 0.1}, e = {{2.5, 0.5}, {-1.0, 0.0}, 1.0, 0.1};
    unsigned char obs[sizeof(v1_gas_observables) + PAD];
    const v1_gas_observables *o = (const v1_gas_observables *)obs;
    magdyn_gas *g;
    memset(&p, 0, sizeof p);
    p.width = 3.0;
    p.height = 1.0;
    p.periodic = false;
    g = magdyn_gas_new((const magdyn_gas_params *)&p);
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &d), 0);
    ck_assert_int_eq(magdyn_gas_add_disc(g, &e), 1);
    /* head on at 2 m/s closing over a gap of 1.8 m: one collision at 0.9 s */
    ck_assert_int_eq(magdyn_gas_advance(g, 1.0), MAGDYN_OK);
    ck_assert_int_eq(magdyn_gas_collisions(g), 1);
    memset(obs, GUARD, sizeof obs);
    ck_assert_int_eq(magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, (magdyn_gas_observables *)obs),
                     MAGDYN_OK);
    ck_assert_double_eq_tol(o->energy, 1.0, 1e-12);   /* elastic: 2 x m v^2 / 2 */
    ck_assert(all_bytes(obs + sizeof(v1_gas_observables), PAD, GUARD));
    ck_assert(all_bytes(o->reserved, sizeof o->reserved, 0));
    magdyn_gas_free(g);
}
END_TEST

/* ---- a nonzero slot is refused -------------------------------------------- */

/* Set byte k of the reserved slots of *s to 1. */
#define POKE(s, k) (((unsigned char *)(s)->reserved)[(k)] = 1)
#define NSLOT_BYTES(s) sizeof (s)->reserved

START_TEST(nonzero_slots_are_refused)
{
    size_t k;
    magdyn_world_params wp = magdyn_world_params_default();
    ck_assert(all_bytes(wp.reserved, sizeof wp.reserved, 0));
    for (k = 0; k < NSLOT_BYTES(&wp); k++) {
        magdyn_world_params p = wp;
        magdyn_world *w = (magdyn_world *)&p;   /* any non-NULL value, overwritten */
        POKE(&p, k);
        ck_assert_ptr_null(magdyn_world_new(&p));
        ck_assert_int_eq(magdyn_world_create(&p, &w), MAGDYN_EINVAL);
        ck_assert_ptr_null(w);
    }
    {
        /* a -0.0 in a slot is not zero */
        magdyn_world_params p = wp;
        p.reserved[3].d = -0.0;
        ck_assert_ptr_null(magdyn_world_new(&p));
    }
    {
        magdyn_world *w = magdyn_world_new(NULL);
        magdyn_magnet m0 = magdyn_magnet_default();
        ck_assert(all_bytes(m0.reserved, sizeof m0.reserved, 0));
        m0.half = magdyn_v3(0.005, 0.005, 0.005);
        m0.mass = 0.0075;
        for (k = 0; k < NSLOT_BYTES(&m0); k++) {
            magdyn_magnet m = m0;
            POKE(&m, k);
            ck_assert_int_eq(magdyn_world_add(w, &m), MAGDYN_EINVAL);
        }
        ck_assert_int_eq(magdyn_world_count(w), 0);
        ck_assert_int_eq(magdyn_world_add(w, &m0), 0);
        magdyn_world_free(w);
    }
    {
        magdyn_gas_params gp = magdyn_gas_params_default();
        ck_assert(all_bytes(gp.reserved, sizeof gp.reserved, 0));
        for (k = 0; k < NSLOT_BYTES(&gp); k++) {
            magdyn_gas_params p = gp;
            magdyn_gas *g = (magdyn_gas *)&p;
            POKE(&p, k);
            ck_assert_ptr_null(magdyn_gas_new(&p));
            ck_assert_int_eq(magdyn_gas_create(&p, &g), MAGDYN_EINVAL);
            ck_assert_ptr_null(g);
        }
    }
    {
        magdyn_ode_params op = magdyn_ode_params_default();
        magdyn_ode *o = NULL;
        ck_assert(all_bytes(op.reserved, sizeof op.reserved, 0));
        ck_assert_int_eq(magdyn_ode_create(3, &op, &o), MAGDYN_OK);
        for (k = 0; k < NSLOT_BYTES(&op); k++) {
            magdyn_ode_params p = op;
            magdyn_ode *o2 = NULL;
            POKE(&p, k);
            ck_assert_int_eq(magdyn_ode_create(3, &p, &o2), MAGDYN_EINVAL);
            ck_assert_int_eq(magdyn_ode_set_params(o, &p), MAGDYN_EINVAL);
        }
        magdyn_ode_free(o);
    }
    {
        magdyn_impulse_params ip = magdyn_impulse_params_default();
        magdyn_body b[2];
        magdyn_contact c;
        ck_assert(all_bytes(ip.reserved, sizeof ip.reserved, 0));
        ck_assert_int_eq(magdyn_body_init(&b[0], magdyn_v3(1, 1, 1), 1, magdyn_v3(0, 0, 0),
                                          magdyn_quat_identity(), false), MAGDYN_OK);
        ck_assert_int_eq(magdyn_body_init(&b[1], magdyn_v3(1, 1, 1), 1, magdyn_v3(0, 0, 2),
                                          magdyn_quat_identity(), true), MAGDYN_OK);
        memset(&c, 0, sizeof c);
        c.a = 0;
        c.b = 1;
        for (k = 0; k < NSLOT_BYTES(&ip); k++) {
            magdyn_impulse_params p = ip;
            POKE(&p, k);
            ck_assert_int_eq(magdyn_impulse_solve(b, 2, &c, 1, &p, NULL), MAGDYN_EINVAL);
            ck_assert_int_eq(magdyn_impulse_solve_patch(b, 2, &c, 1, &p, NULL), MAGDYN_EINVAL);
        }
        ck_assert_int_eq(magdyn_impulse_solve(b, 2, &c, 1, &ip, NULL), MAGDYN_OK);
    }
    {
        magdyn_sleep_params sp = magdyn_sleep_params_default();
        magdyn_body b;
        magdyn_body_load l;
        double slow = 1.0;
        int member = 0;
        memset(&l, 0, sizeof l);
        ck_assert(all_bytes(sp.reserved, sizeof sp.reserved, 0));
        ck_assert_int_eq(magdyn_body_init(&b, magdyn_v3(1, 1, 1), 1, magdyn_v3(0, 0, 0),
                                          magdyn_quat_identity(), false), MAGDYN_OK);
        ck_assert(magdyn_island_may_sleep(&sp, &member, 1, &slow));
        for (k = 0; k < NSLOT_BYTES(&sp); k++) {
            magdyn_sleep_params p = sp;
            POKE(&p, k);
            ck_assert_int_eq(magdyn_sleep_update(&p, 1, &b, &l, 0.01, &slow), MAGDYN_EINVAL);
            ck_assert(!magdyn_island_may_sleep(&p, &member, 1, &slow));
        }
        ck_assert_double_eq(slow, 1.0);
    }
}
END_TEST

/* ---- filled structs: zero slots, nothing past the old size ---------------- */

START_TEST(filled_structs_have_zero_slots)
{
    unsigned char buf[1024];
    magdyn_obb a = {{0, 0, 2.5}, {1, 0, 0, 0}, {1, 1, 1}}, b = {{0, 0, 0}, {1, 0, 0, 0}, {1, 1, 1}};
    magdyn_vec3 zero = {0, 0, 0};
    magdyn_ode *o = NULL;
    double y[1] = {1.0};

    memset(buf, GUARD, sizeof buf);
    ck_assert_int_eq(magdyn_toi_screw(&a, magdyn_v3(0, 0, -1), zero, &b, zero, zero, 1.0, 1e-9,
                                      (magdyn_toi_result *)buf), MAGDYN_OK);
    ck_assert(((const v1_toi_result *)buf)->hit);
    ck_assert(all_bytes(((const v1_toi_result *)buf)->reserved, sizeof(magdyn_reserved) * 4, 0));
    ck_assert(all_bytes(buf + sizeof(v1_toi_result), PAD, GUARD));

    ck_assert_int_eq(magdyn_ode_create(1, NULL, &o), MAGDYN_OK);
    memset(buf, GUARD, sizeof buf);
    ck_assert_int_eq(magdyn_ode_set_state(o, 1, 0.0, y), MAGDYN_OK);
    ck_assert_int_eq(magdyn_ode_get_stats(o, (magdyn_ode_stats *)buf), MAGDYN_OK);
    ck_assert(all_bytes(((const magdyn_ode_stats *)buf)->reserved, sizeof(magdyn_reserved) * 4, 0));
    ck_assert(all_bytes(buf + sizeof(magdyn_ode_stats), PAD, GUARD));
    magdyn_ode_free(o);

    {
        magdyn_body bs[2];
        magdyn_contact c;
        magdyn_impulse_params ip = magdyn_impulse_params_default();
        const magdyn_impulse_stats *st = (const magdyn_impulse_stats *)buf;
        ck_assert_int_eq(magdyn_body_init(&bs[0], magdyn_v3(1, 1, 1), 1, magdyn_v3(0, 0, 2),
                                          magdyn_quat_identity(), false), MAGDYN_OK);
        ck_assert_int_eq(magdyn_body_init(&bs[1], magdyn_v3(1, 1, 1), 1, magdyn_v3(0, 0, 0),
                                          magdyn_quat_identity(), true), MAGDYN_OK);
        bs[0].velocity = magdyn_v3(0, 0, -1);
        memset(&c, 0, sizeof c);
        c.a = 0;
        c.b = 1;
        {
            magdyn_obb oa = magdyn_body_obb(&bs[0]), ob = magdyn_body_obb(&bs[1]);
            ck_assert_int_eq(magdyn_obb_manifold(&oa, &ob, 1e-6, &c.manifold), 4);
        }
        memset(buf, GUARD, sizeof buf);
        ck_assert_int_eq(magdyn_impulse_solve(bs, 2, &c, 1, &ip, (magdyn_impulse_stats *)buf),
                         MAGDYN_OK);
        ck_assert(st->converged);
        ck_assert(all_bytes(st->reserved, sizeof st->reserved, 0));
        ck_assert(all_bytes(buf + sizeof *st, PAD, GUARD));
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("abi");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, old_world_params_run_as_the_defaults);
    tcase_add_test(tc, old_gas_params_run);
    tcase_add_test(tc, nonzero_slots_are_refused);
    tcase_add_test(tc, filled_structs_have_zero_slots);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
