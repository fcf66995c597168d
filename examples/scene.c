/* scene.c - the shared magnet scenes (see scene.h). */
#include <string.h>
#include <math.h>
#include "scene.h"

magdyn_world_params scene_params(void)
{
    magdyn_world_params p = magdyn_world_params_default();
    p.gravity = magdyn_v3(0, 0, -9.81);
    p.restitution = 0.3;
    p.friction = 0.5;
    return p;
}

magdyn_magnet scene_cube(magdyn_vec3 p, magdyn_quat q, magdyn_vec3 axis)
{
    magdyn_magnet m;
    double a = SCENE_CUBE_HALF, vol = 8 * a * a * a;
    memset(&m, 0, sizeof m);
    m.half = magdyn_v3(a, a, a);
    m.mass = SCENE_CUBE_MASS;
    m.moment = magdyn_vec3_scale(axis, SCENE_CUBE_J * vol / MAGDYN_MU0);
    m.position = p;
    m.orientation = q;
    return m;
}

int scene_plate(magdyn_world *w)
{
    magdyn_magnet m;
    memset(&m, 0, sizeof m);
    m.half = magdyn_v3(0.5, 0.5, 0.005);
    m.mass = 1.6;
    m.position = magdyn_v3(0, 0, -0.005);
    m.orientation = magdyn_quat_identity();
    m.fixed = 1;
    return magdyn_world_add(w, &m);
}

/* xorshift64: repeatable placements */
static double uniform(unsigned long long *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0;
}

int scene_pile(magdyn_world *w, int n, unsigned long long seed)
{
    double side = 0.04 * sqrt(n / 8.0);
    int added = 0, fails = 0;
    if (seed == 0) seed = 88172645463325252ULL;
    while (added < n && fails < 1000) {
        magdyn_vec3 p, ax;
        double ang;
        p.x = side * (uniform(&seed) - 0.5);
        p.y = side * (uniform(&seed) - 0.5);
        p.z = 0.01 + 0.05 * uniform(&seed);
        /* one draw a statement: C leaves the order of a call's arguments
           open, and gcc and clang take them in opposite orders */
        ax.z = uniform(&seed) - 0.5;
        ax.y = uniform(&seed) - 0.5;
        ax.x = uniform(&seed) - 0.5;
        ang = 2 * MAGDYN_PI * uniform(&seed);
        {
            magdyn_magnet m = scene_cube(p, magdyn_quat_from_axis_angle(ax, ang), magdyn_v3(0, 0, 1));
            if (magdyn_world_add(w, &m) >= 0) {
                added++;
                fails = 0;
            } else {
                fails++;
            }
        }
    }
    return added;
}

/* n cubes magnetised along axis stacked on the plate at x = y = 0. */
static int stack(magdyn_world *w, int n, magdyn_vec3 axis)
{
    double a = SCENE_CUBE_HALF;
    int k;
    for (k = 0; k < n; k++) {
        magdyn_magnet m = scene_cube(magdyn_v3(0, 0, a + 2 * a * k), magdyn_quat_identity(), axis);
        if (magdyn_world_add(w, &m) < 0) return k;
    }
    return n;
}

int scene_column(magdyn_world *w, int n)
{
    return stack(w, n, magdyn_v3(0, 0, 1));
}

int scene_tower(magdyn_world *w, int n)
{
    return stack(w, n, magdyn_v3(0, 0, 0));
}

double scene_worst_overlap(const magdyn_world *w)
{
    int n = magdyn_world_count(w), i, j;
    double worst = 0.0;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            magdyn_magnet a, b;
            magdyn_sat_result r;
            magdyn_world_get(w, i, &a);
            magdyn_world_get(w, j, &b);
            if (a.fixed && b.fixed) continue;
            magdyn_obb oa = {a.position, a.orientation, a.half}, ob = {b.position, b.orientation, b.half};
            if (magdyn_obb_sat(&oa, &ob, &r)) worst = fmax(worst, -r.separation);
        }
    return worst;
}
