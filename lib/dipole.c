/*
 * dipole.c - point dipoles: field, force, torque, energy (seed 000's model,
 * with its prefactor corrected to mu0/(4 pi) and a unit rhat in the bracket).
 *
 *   B(r)  = mu0/(4 pi r^3) (3 rhat (m.rhat) - m)
 *   U     = -m . B_src(p)
 *   F     = -grad_p U = 3 mu0/(4 pi r^5) [ (ms.r) m + (m.r) ms + (ms.m) r
 *                                          - 5 (ms.r)(m.r) r / r^2 ],  r = p - p_src
 *   T     = m x B_src(p)
 */
#include <math.h>
#include <magdyn/dipole.h>

#define K_MU0_4PI (MAGDYN_MU0 / (4.0 * MAGDYN_PI))

magdyn_vec3 magdyn_dipole_field(magdyn_vec3 m, magdyn_vec3 r)
{
    double r2 = magdyn_vec3_norm2(r), inv_r2, inv_r3, mr;
    if (r2 == 0.0) return magdyn_v3(0.0, 0.0, 0.0);
    inv_r2 = 1.0 / r2;
    inv_r3 = inv_r2 / sqrt(r2);
    mr = magdyn_vec3_dot(m, r);
    return magdyn_vec3_scale(magdyn_vec3_madd(magdyn_vec3_neg(m), 3.0 * mr * inv_r2, r),
                             K_MU0_4PI * inv_r3);
}

void magdyn_dipole_force_torque(magdyn_vec3 m_src, magdyn_vec3 p_src,
                                magdyn_vec3 m, magdyn_vec3 p,
                                magdyn_vec3 *force, magdyn_vec3 *torque)
{
    magdyn_vec3 r = magdyn_vec3_sub(p, p_src);
    double r2 = magdyn_vec3_norm2(r);
    if (force) {
        if (r2 == 0.0) {
            *force = magdyn_v3(0.0, 0.0, 0.0);
        } else {
            double inv_r2 = 1.0 / r2, k = 3.0 * K_MU0_4PI * inv_r2 * inv_r2 / sqrt(r2);
            double sr = magdyn_vec3_dot(m_src, r), mr = magdyn_vec3_dot(m, r);
            double sm = magdyn_vec3_dot(m_src, m);
            magdyn_vec3 f = magdyn_vec3_scale(m, sr);
            f = magdyn_vec3_madd(f, mr, m_src);
            f = magdyn_vec3_madd(f, sm - 5.0 * sr * mr * inv_r2, r);
            *force = magdyn_vec3_scale(f, k);
        }
    }
    if (torque) *torque = magdyn_vec3_cross(m, magdyn_dipole_field(m_src, r));
}

double magdyn_dipole_energy(magdyn_vec3 m_src, magdyn_vec3 p_src,
                            magdyn_vec3 m, magdyn_vec3 p)
{
    return -magdyn_vec3_dot(m, magdyn_dipole_field(m_src, magdyn_vec3_sub(p, p_src)));
}

double magdyn_moment_from_remanence(double br, double volume)
{
    if (!isfinite(br) || !isfinite(volume) || volume < 0.0) return NAN;
    return br * volume / MAGDYN_MU0;
}
