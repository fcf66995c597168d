/* body.c - mass properties and state of a rigid box (layer 2). */
#include <float.h>
#include <math.h>
#include "detvec.h"
#include <magdyn/body.h>

/* Subnormal masses, sizes or inertias lose their precision, and their
 * reciprocals (the impulse response) overflow: such a body is refused
 * with MAGDYN_ERANGE, which a normal double (>= DBL_MIN) avoids. */
static int normal3(magdyn_vec3 v) { return v.x >= DBL_MIN && v.y >= DBL_MIN && v.z >= DBL_MIN; }

static magdyn_status check_fields(magdyn_vec3 half, double mass, magdyn_vec3 position,
                                  magdyn_quat q)
{
    if (!magdyn_vec3_isfinite(half) || !isfinite(mass) || !magdyn_vec3_isfinite(position)
        || !magdyn_quat_isfinite(q))
        return MAGDYN_ENONFINITE;
    if (!(mass > 0.0) || !(half.x > 0.0) || !(half.y > 0.0) || !(half.z > 0.0))
        return MAGDYN_EINVAL;
    if (!(mass >= DBL_MIN) || !normal3(half)) return MAGDYN_ERANGE;
    if (!magdyn_quat_isunit(q, 1e-9)) return MAGDYN_ENORM;
    return MAGDYN_OK;
}

magdyn_status magdyn_body_init(magdyn_body *out, magdyn_vec3 half, double mass,
                               magdyn_vec3 position, magdyn_quat orientation, bool fixed)
{
    magdyn_status s;
    magdyn_body b;
    magdyn_mat3 it;
    if (!out) return MAGDYN_EINVAL;
    s = check_fields(half, mass, position, orientation);
    if (s != MAGDYN_OK) return s;
    it = magdyn_mat3_box_inertia(mass, half);
    /* finite, normal mass and sizes can still give an inertia that
     * overflows or underflows */
    if (!isfinite(it.m[0][0]) || !isfinite(it.m[1][1]) || !isfinite(it.m[2][2])
        || !normal3(magdyn_v3(it.m[0][0], it.m[1][1], it.m[2][2])))
        return MAGDYN_ERANGE;
    b.half = half;
    b.mass = mass;
    b.inertia = magdyn_v3(it.m[0][0], it.m[1][1], it.m[2][2]);
    b.position = position;
    (void)magdyn_quat_normalize(orientation, &b.orientation);
    b.velocity = magdyn_v3(0, 0, 0);
    b.omega = magdyn_v3(0, 0, 0);
    b.fixed = fixed;
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
    if (!normal3(b->inertia)) return MAGDYN_ERANGE;
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

void magdyn_body_to_state(const magdyn_body *b, double *y)
{
    magdyn_vec3 wb;
    if (!b || !y) return;
    wb = magdyn_quat_rotate_inv(b->orientation, b->omega);
    y[0] = b->position.x; y[1] = b->position.y; y[2] = b->position.z;
    y[3] = b->velocity.x; y[4] = b->velocity.y; y[5] = b->velocity.z;
    y[6] = b->orientation.w; y[7] = b->orientation.x;
    y[8] = b->orientation.y; y[9] = b->orientation.z;
    y[10] = wb.x; y[11] = wb.y; y[12] = wb.z;
}

/* The unit quaternion of y[6..9]: integrators drift off the unit sphere. */
static magdyn_quat state_quat(const double *y)
{
    magdyn_quat r = magdyn_q(y[6], y[7], y[8], y[9]);
    double s = 1.0 / magdyn_quat_norm(r);
    return magdyn_q(r.w * s, r.x * s, r.y * s, r.z * s);
}

void magdyn_body_from_state(magdyn_body *b, double *y)
{
    magdyn_quat q;
    if (!b || !y) return;
    q = state_quat(y);
    y[6] = q.w; y[7] = q.x; y[8] = q.y; y[9] = q.z;
    b->position = magdyn_v3(y[0], y[1], y[2]);
    b->velocity = magdyn_v3(y[3], y[4], y[5]);
    b->orientation = q;
    b->omega = magdyn_quat_rotate(q, magdyn_v3(y[10], y[11], y[12]));
}

void magdyn_body_state_derivative(const magdyn_body *b, const double *y, magdyn_vec3 force,
                                  magdyn_vec3 torque, double *d)
{
    magdyn_quat q, dq;
    magdyn_vec3 wb, tb, iw, dw;
    int k;
    if (!b || !y || !d) return;
    if (b->fixed) {
        for (k = 0; k < MAGDYN_BODY_STATE; k++) d[k] = 0.0;
        return;
    }
    q = magdyn_q(y[6], y[7], y[8], y[9]);
    wb = magdyn_v3(y[10], y[11], y[12]);
    tb = magdyn_quat_rotate_inv(state_quat(y), torque);
    iw = magdyn_v3(b->inertia.x * wb.x, b->inertia.y * wb.y, b->inertia.z * wb.z);
    dw = magdyn_vec3_sub(tb, magdyn_vec3_cross(wb, iw));
    dq = magdyn_quat_derivative(q, wb);
    d[0] = y[3]; d[1] = y[4]; d[2] = y[5];
    d[3] = force.x / b->mass; d[4] = force.y / b->mass; d[5] = force.z / b->mass;
    d[6] = dq.w; d[7] = dq.x; d[8] = dq.y; d[9] = dq.z;
    d[10] = dw.x / b->inertia.x; d[11] = dw.y / b->inertia.y; d[12] = dw.z / b->inertia.z;
}

/* Angular momentum about the centre [kg m^2/s], inertial: R I R^T omega. */
static magdyn_vec3 spin_momentum(const magdyn_body *b)
{
    magdyn_vec3 wb = magdyn_quat_rotate_inv(b->orientation, b->omega);
    return magdyn_quat_rotate(b->orientation, magdyn_v3(b->inertia.x * wb.x, b->inertia.y * wb.y,
                                                        b->inertia.z * wb.z));
}

/* The angular velocity of spin momentum l at the body's orientation. */
static magdyn_vec3 omega_of(const magdyn_body *b, magdyn_vec3 l)
{
    magdyn_vec3 lb = magdyn_quat_rotate_inv(b->orientation, l);
    return magdyn_quat_rotate(b->orientation, magdyn_v3(lb.x / b->inertia.x, lb.y / b->inertia.y,
                                                        lb.z / b->inertia.z));
}

void magdyn_body_kick(magdyn_body *b, magdyn_vec3 force, magdyn_vec3 torque, double h)
{
    if (!b || b->fixed) return;
    b->velocity = magdyn_vec3_madd(b->velocity, h / b->mass, force);
    b->omega = omega_of(b, magdyn_vec3_madd(spin_momentum(b), h, torque));
}

void magdyn_body_drift_with(magdyn_body *b, magdyn_vec3 velocity, magdyn_vec3 omega, double h)
{
    magdyn_vec3 l;
    if (!b || b->fixed) return;
    l = spin_momentum(b);
    b->position = magdyn_vec3_madd(b->position, h, velocity);
    b->orientation = md_quat_integrate(b->orientation, magdyn_quat_rotate_inv(b->orientation, omega), h);
    b->omega = omega_of(b, l);
}

void magdyn_body_drift(magdyn_body *b, double h)
{
    if (!b) return;
    magdyn_body_drift_with(b, b->velocity, b->omega, h);
}

double magdyn_body_point_speed(const magdyn_body *b)
{
    if (!b || b->fixed) return 0.0;
    return magdyn_vec3_norm(b->velocity) + magdyn_vec3_norm(b->omega) * magdyn_vec3_norm(b->half);
}
