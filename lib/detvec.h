/*
 * detvec.h - private, layer 0: the inline functions of <magdyn/vec.h> that
 * call the C library's elementary functions, as the library itself uses
 * them, on detmath.h's md_ functions instead: the same formulas, hence the
 * same bits by default, and the library's own bits with --enable-bitstable.
 * (The installed header's functions keep the host's libm: a host program
 * compiles them.)
 */
#ifndef MAGDYN_DETVEC_H
#define MAGDYN_DETVEC_H

#include <magdyn/vec.h>
#include "detmath.h"

/* magdyn_vec2_norm */
static inline double md_vec2_norm(magdyn_vec2 a)
{ return md_hypot(a.x, a.y); }

/* magdyn_quat_from_rotvec */
static inline magdyn_quat md_quat_from_rotvec(magdyn_vec3 phi)
{
    double th = magdyn_vec3_norm(phi), th2 = th * th, s;
    s = th < 1e-4 ? 0.5 - th2 / 48.0 + th2 * th2 / 3840.0 : md_sin(0.5 * th) / th;
    return magdyn_q(md_cos(0.5 * th), phi.x * s, phi.y * s, phi.z * s);
}

/* magdyn_quat_integrate */
static inline magdyn_quat md_quat_integrate(magdyn_quat q, magdyn_vec3 omega_body, double dt)
{
    magdyn_quat r = magdyn_quat_mul(q, md_quat_from_rotvec(magdyn_vec3_scale(omega_body, dt)));
    double s = 1.0 / magdyn_quat_norm(r);
    return magdyn_q(r.w * s, r.x * s, r.y * s, r.z * s);
}

#endif
