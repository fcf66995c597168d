/*
 * world_params.c - a world's parameters: the defaults, and the check that
 * magdyn_world_create applies to what it is given.
 */
#include <string.h>
#include <math.h>
#include <magdyn/world.h>
#include "world_impl.h"
#include "reserved.h"

magdyn_world_params magdyn_world_params_default(void)
{
    magdyn_world_params p;
    memset(&p, 0, sizeof p);
    p.restitution = 0.5;
    p.friction = 0.3;
    p.rtol = 3e-11;
    p.atol = 1e-13;
    p.max_step = 1e-2;
    p.model = MAGDYN_MODEL_DIPOLE;
    p.model_tol = 1e-5;
    p.gravity = magdyn_v3(0, 0, 0);
    p.field = magdyn_v3(0, 0, 0);
    p.contact_tol = 1e-9;
    p.contact_margin = 1e-6;
    p.bounce_speed = 1e-3;
    p.contact_step = 1e-3;
    p.on_collision = NULL;
    p.user = NULL;
    p.sleep_speed = 1e-4;
    p.sleep_time = 0.05;
    p.sleep_balance = 1e-3;
    p.solver_iterations = 3000;
    p.solver_tolerance = 1e-8;
    return p;
}

/* Whether p is a world's parameters: finite, in range, reserved fields zero. */
int magdyn_wi_params_ok(const magdyn_world_params *p)
{
    if (!isfinite(p->restitution) || p->restitution < 0 || p->restitution > 1) return 0;
    if (!isfinite(p->friction) || p->friction < 0) return 0;
    if (!(p->rtol > 0) || !(p->rtol < 1) || !(p->atol >= 0) || !isfinite(p->atol)) return 0;
    if (!(p->max_step > 0) || !isfinite(p->max_step)) return 0;
    if (p->model != MAGDYN_MODEL_DIPOLE && p->model != MAGDYN_MODEL_CUBOID) return 0;
    if (!(p->model_tol >= 1e-12) || !(p->model_tol <= 0.1)) return 0;
    if (!magdyn_vec3_isfinite(p->gravity) || !magdyn_vec3_isfinite(p->field)) return 0;
    if (!(p->contact_tol > 0) || !isfinite(p->contact_tol)) return 0;
    if (!(p->contact_margin >= p->contact_tol) || !isfinite(p->contact_margin)) return 0;
    if (!(p->bounce_speed >= 0) || !isfinite(p->bounce_speed)) return 0;
    if (!(p->contact_step > 0) || !isfinite(p->contact_step)) return 0;
    if (!(p->sleep_speed >= 0) || !isfinite(p->sleep_speed) || !isfinite(p->sleep_time)) return 0;
    if (!(p->sleep_balance >= 0) || !isfinite(p->sleep_balance)) return 0;
    if (p->solver_iterations < 1 || !(p->solver_tolerance >= 0) || !isfinite(p->solver_tolerance))
        return 0;
    if (!(p->contact_start_weight >= 0.0 && p->contact_start_weight <= 0.45)) return 0;
    if (p->max_steps < 0 || !MAGDYN_RESERVED_OK(p)) return 0;
    return 1;
}
