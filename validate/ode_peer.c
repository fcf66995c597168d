/* ode_peer.c - the torque-free box run by ODE (Open Dynamics Engine), the
 * peer users compare with: dWorldStep at a fixed step, no damping, the
 * gyroscopic term on (ODE's default) or off.  Without ODE it reports -1. */
#include "config.h"
#include <math.h>
#include "validate.h"
#ifdef HAVE_ODE
#include <ode/ode.h>
#endif

int vd_ode_spin(const double inertia[3], const double omega0[3], double t_end, double h,
                int gyroscopic, double *energy_err, int *flips, double *flip_t, int max_flips)
{
#ifdef HAVE_ODE
    dWorldID w;
    dBodyID b;
    dMass m;
    long k, steps = lround(t_end / h);
    double e0 = 0, e1 = 0, prev = omega0[1];
    int n = 0, i;
    dInitODE2(0);
    w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, 0);
    b = dBodyCreate(w);
    dMassSetZero(&m);
    dMassSetParameters(&m, 3.0, 0, 0, 0, inertia[0], inertia[1], inertia[2], 0, 0, 0);
    dBodySetMass(b, &m);
    dBodySetAngularVel(b, omega0[0], omega0[1], omega0[2]);
    dBodySetGyroscopicMode(b, gyroscopic);
    for (i = 0; i < 3; i++) e0 += 0.5 * inertia[i] * omega0[i] * omega0[i];
    for (k = 1; k <= steps; k++) {
        const dReal *av, *R;
        double wb[3];
        dWorldStep(w, h);
        av = dBodyGetAngularVel(b);
        R = dBodyGetRotation(b);   /* row-major 3 x 4: body to world */
        for (i = 0; i < 3; i++) wb[i] = R[i] * av[0] + R[4 + i] * av[1] + R[8 + i] * av[2];
        if ((wb[1] > 0) != (prev > 0)) {
            if (n < max_flips) flip_t[n] = (k - 1) * h + h * prev / (prev - wb[1]);
            n++;
        }
        prev = wb[1];
        if (k == steps)
            for (i = 0; i < 3; i++) e1 += 0.5 * inertia[i] * wb[i] * wb[i];
    }
    *energy_err = (e1 - e0) / e0;
    *flips = n;
    dWorldDestroy(w);
    dCloseODE();
    return 0;
#else
    (void)inertia; (void)omega0; (void)t_end; (void)h; (void)gyroscopic; (void)energy_err; (void)flips;
    (void)flip_t; (void)max_flips;
    return -1;
#endif
}
