/*
 * spin.c - a torque-free box spinning about an axis close to its
 * intermediate principal axis, integrated with the exact quaternion step
 * (magdyn_quat_integrate) and Euler's equations by RK4; prints the body's
 * x axis in the inertial frame over time.  Shows the Dzhanibekov flip.
 */
#include <stdio.h>
#include <magdyn.h>

/* Euler's equations for a diagonal inertia I: I w' = -w x I w. */
static magdyn_vec3 wdot(magdyn_vec3 i, magdyn_vec3 w)
{
    return magdyn_v3((i.y - i.z) * w.y * w.z / i.x, (i.z - i.x) * w.z * w.x / i.y,
                     (i.x - i.y) * w.x * w.y / i.z);
}

int main(void)
{
    /* a 30 x 20 x 10 mm steel-like block of 47 g */
    magdyn_mat3 it = magdyn_mat3_box_inertia(0.047, magdyn_v3(0.015, 0.010, 0.005));
    magdyn_vec3 i = {it.m[0][0], it.m[1][1], it.m[2][2]};
    magdyn_vec3 w = {0.01, 10.0, 0.01};      /* rad/s, mostly about the intermediate axis */
    magdyn_quat q = magdyn_quat_identity();
    double dt = 1e-4, t;
    int n;
    printf("# t[s]  body y axis in the inertial frame (x y z)  |q|-1\n");
    for (n = 0, t = 0; n <= 40000; n++, t += dt) {
        if (n % 1000 == 0) {
            magdyn_vec3 ey = magdyn_quat_rotate(q, magdyn_v3(0, 1, 0));
            printf("%6.2f  % .6f % .6f % .6f  % .1e\n", t, ey.x, ey.y, ey.z,
                   magdyn_quat_norm(q) - 1.0);
        }
        /* RK4 on w, exact exponential step on q with the midpoint rate */
        magdyn_vec3 k1 = wdot(i, w);
        magdyn_vec3 k2 = wdot(i, magdyn_vec3_madd(w, 0.5 * dt, k1));
        magdyn_vec3 k3 = wdot(i, magdyn_vec3_madd(w, 0.5 * dt, k2));
        magdyn_vec3 k4 = wdot(i, magdyn_vec3_madd(w, dt, k3));
        magdyn_vec3 wmid = magdyn_vec3_madd(w, 0.5 * dt, k2);
        q = magdyn_quat_integrate(q, wmid, dt);
        w = magdyn_vec3_add(w, magdyn_vec3_scale(magdyn_vec3_add(magdyn_vec3_add(k1, k4),
                            magdyn_vec3_scale(magdyn_vec3_add(k2, k3), 2.0)), dt / 6.0));
    }
    return 0;
}
