/*
 * repro.c - prints, in hexadecimal floating point, the end states of a
 * pile of magnets, a snap with the extended magnet model and an inelastic
 * gas of discs and rotors.  repro/check.sh builds it and the library with
 * gcc and with clang and requires the same bits from both (magdyn(7),
 * REPRODUCIBILITY).  Uses <magdyn.h> only, and examples/scene.c.
 */
#include <stdio.h>
#include <magdyn.h>
#include "scene.h"

static int pile(void)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w = NULL;
    magdyn_status s;
    int i;
    p.gravity = magdyn_v3(0, 0, -9.81);
    p.restitution = 0.3;
    p.friction = 0.5;
    if (magdyn_world_create(&p, &w) != MAGDYN_OK) return 1;
    scene_pile(w, 8, 1);
    s = magdyn_world_advance(w, 0.1);
    printf("pile: status %d\n", (int)s);
    for (i = 0; i < magdyn_world_count(w); i++) {
        magdyn_magnet m;
        magdyn_world_get(w, i, &m);
        printf("%a %a %a %a %a %a %a\n", m.position.x, m.position.y, m.position.z, m.orientation.w,
               m.orientation.x, m.velocity.z, m.omega.x);
    }
    magdyn_world_free(w);
    return s != MAGDYN_OK;
}

static int snap_extended(void)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w = NULL;
    magdyn_magnet a = scene_cube(magdyn_v3(0, 0, 0), magdyn_quat_identity(), magdyn_v3(0, 0, 1));
    magdyn_magnet b = scene_cube(magdyn_v3(0.003, 0.001, 0.016), magdyn_quat_from_axis_angle(magdyn_v3(1, 1, 0), 0.3),
                                 magdyn_v3(0, 0, 1));
    magdyn_status s;
    p.model = MAGDYN_MODEL_CUBOID;
    p.restitution = 0.3;
    p.friction = 0.5;
    a.fixed = true;
    if (magdyn_world_create(&p, &w) != MAGDYN_OK) return 1;
    if (magdyn_world_add(w, &a) < 0 || magdyn_world_add(w, &b) < 0) {
        magdyn_world_free(w);
        return 1;
    }
    s = magdyn_world_advance(w, 0.02);
    magdyn_world_get(w, 1, &b);
    printf("snap: status %d\n%a %a %a %a %a\n", (int)s, b.position.x, b.position.y, b.position.z,
           b.orientation.w, b.velocity.z);
    magdyn_world_free(w);
    return s != MAGDYN_OK;
}

static int gas(void)
{
    magdyn_gas_params p = magdyn_gas_params_default();
    magdyn_gas *g = NULL;
    magdyn_status s;
    unsigned long long seed = 12345;
    int i, j;
    p.width = 40;
    p.height = 40;
    p.periodic = true;
    if (magdyn_gas_create(&p, &g) != MAGDYN_OK) return 1;
    magdyn_gas_set_restitution(g, 0.8, 1.0);
    for (i = 0; i < 10; i++)
        for (j = 0; j < 10; j++) {
            magdyn_disc d = {0};
            double vx, vy;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            vx = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            vy = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
            d.r = magdyn_v2(4 * i + 2, 4 * j + 2);
            d.v = magdyn_v2(vx, vy);
            d.mass = 1;
            d.radius = 0.5 + 0.1 * ((i + j) % 3);
            if (magdyn_gas_add_disc(g, &d) < 0) {
                magdyn_gas_free(g);
                return 1;
            }
        }
    s = magdyn_gas_advance(g, 200.0);
    printf("gas: status %d collisions %lld\n", (int)s, magdyn_gas_collisions(g));
    for (i = 0; i < 100; i += 9) {
        magdyn_disc d;
        magdyn_gas_get_disc(g, i, &d);
        printf("%a %a %a %a\n", d.r.x, d.r.y, d.v.x, d.v.y);
    }
    magdyn_gas_free(g);
    return s != MAGDYN_OK;
}

int main(void)
{
    int bad = pile();
    bad |= snap_extended();
    bad |= gas();
    return bad;
}
