/* body.c - mass properties and state of a rigid box (layer 2). */
#include <math.h>
#include <magdyn/body.h>

static magdyn_status check_fields(magdyn_vec3 half, double mass, magdyn_vec3 position,
                                  magdyn_quat q)
{
    if (!magdyn_vec3_isfinite(half) || !isfinite(mass) || !magdyn_vec3_isfinite(position)
        || !magdyn_quat_isfinite(q))
        return MAGDYN_ENONFINITE;
    if (!(mass > 0.0) || !(half.x > 0.0) || !(half.y > 0.0) || !(half.z > 0.0))
        return MAGDYN_EINVAL;
    if (!magdyn_quat_isunit(q, 1e-9)) return MAGDYN_ENORM;
    return MAGDYN_OK;
}

magdyn_status magdyn_body_init(magdyn_body *out, magdyn_vec3 half, double mass,
                               magdyn_vec3 position, magdyn_quat orientation, int fixed)
{
    magdyn_status s;
    magdyn_body b;
    magdyn_mat3 it;
    if (!out) return MAGDYN_EINVAL;
    s = check_fields(half, mass, position, orientation);
    if (s != MAGDYN_OK) return s;
    it = magdyn_mat3_box_inertia(mass, half);
    b.half = half;
    b.mass = mass;
    b.inertia = magdyn_v3(it.m[0][0], it.m[1][1], it.m[2][2]);
    b.position = position;
    (void)magdyn_quat_normalize(orientation, &b.orientation);
    b.velocity = magdyn_v3(0, 0, 0);
    b.omega = magdyn_v3(0, 0, 0);
    b.fixed = fixed != 0;
    *out = b;
    return MAGDYN_OK;
}

magdyn_status magdyn_body_check(const magdyn_body *b)
{
    magdyn_status s;
    if (!b) return MAGDYN_EINVAL;
    s = check_fields(b->half, b->mass, b->position, b->orientation);
    if (s != MAGDYN_OK) return s;
    if (!magdyn_vec3_isfinite(b->velocity) || !magdyn_vec3_isfinite(b->omega)
        || !magdyn_vec3_isfinite(b->inertia))
        return MAGDYN_ENONFINITE;
    if (!(b->inertia.x > 0.0) || !(b->inertia.y > 0.0) || !(b->inertia.z > 0.0))
        return MAGDYN_EINVAL;
    return MAGDYN_OK;
}

double magdyn_body_inv_mass(const magdyn_body *b)
{
    return b->fixed ? 0.0 : 1.0 / b->mass;
}

magdyn_mat3 magdyn_body_inv_inertia(const magdyn_body *b)
{
    magdyn_mat3 r;
    if (b->fixed) return magdyn_mat3_diag(magdyn_v3(0, 0, 0));
    r = magdyn_quat_to_mat3(b->orientation);
    return magdyn_mat3_rotate_tensor(r, magdyn_mat3_diag(magdyn_v3(1.0 / b->inertia.x,
                                                                   1.0 / b->inertia.y,
                                                                   1.0 / b->inertia.z)));
}

magdyn_vec3 magdyn_body_point_velocity(const magdyn_body *b, magdyn_vec3 p)
{
    return magdyn_vec3_add(b->velocity,
                           magdyn_vec3_cross(b->omega, magdyn_vec3_sub(p, b->position)));
}

void magdyn_body_apply_impulse(magdyn_body *b, magdyn_vec3 p, magdyn_vec3 j)
{
    magdyn_vec3 r, lb;
    if (b->fixed) return;
    b->velocity = magdyn_vec3_madd(b->velocity, 1.0 / b->mass, j);
    /* I^-1 in the body frame: rotate the angular impulse in, scale, rotate out */
    r = magdyn_vec3_sub(p, b->position);
    lb = magdyn_quat_rotate_inv(b->orientation, magdyn_vec3_cross(r, j));
    lb = magdyn_v3(lb.x / b->inertia.x, lb.y / b->inertia.y, lb.z / b->inertia.z);
    b->omega = magdyn_vec3_add(b->omega, magdyn_quat_rotate(b->orientation, lb));
}

double magdyn_body_kinetic_energy(const magdyn_body *b)
{
    magdyn_vec3 wb;
    if (b->fixed) return 0.0;
    wb = magdyn_quat_rotate_inv(b->orientation, b->omega);
    return 0.5 * b->mass * magdyn_vec3_norm2(b->velocity)
         + 0.5 * (b->inertia.x * wb.x * wb.x + b->inertia.y * wb.y * wb.y
                  + b->inertia.z * wb.z * wb.z);
}

magdyn_vec3 magdyn_body_momentum(const magdyn_body *b)
{
    if (b->fixed) return magdyn_v3(0, 0, 0);
    return magdyn_vec3_scale(b->velocity, b->mass);
}

magdyn_vec3 magdyn_body_angular_momentum(const magdyn_body *b)
{
    magdyn_vec3 wb, spin;
    if (b->fixed) return magdyn_v3(0, 0, 0);
    wb = magdyn_quat_rotate_inv(b->orientation, b->omega);
    spin = magdyn_quat_rotate(b->orientation, magdyn_v3(b->inertia.x * wb.x,
                                                        b->inertia.y * wb.y,
                                                        b->inertia.z * wb.z));
    return magdyn_vec3_add(magdyn_vec3_cross(b->position,
                                             magdyn_vec3_scale(b->velocity, b->mass)), spin);
}

magdyn_obb magdyn_body_obb(const magdyn_body *b)
{
    magdyn_obb o;
    o.center = b->position;
    o.orientation = b->orientation;
    o.half = b->half;
    return o;
}
