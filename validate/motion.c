/*
 * motion.c - the stepper against exact and independent answers: the
 * intermediate-axis flip of a torque-free box (complete elliptic integral),
 * the same run by ODE, and the snap example's first contact, final state
 * and energy by magnet model.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "validate.h"

#define MAXFLIPS 64

/* ---- the torque-free box ------------------------------------------------ */

/*
 * Exact flip times of Euler's torque-free motion for I1 < I2 < I3 and
 * L^2 > 2 E I2 (Landau & Lifshitz, Mechanics, sec. 37): omega_2 =
 * B sn(tau), omega_1 = A cn(tau), omega_3 = C dn(tau), tau = tau0 + lambda t,
 * so omega_2 changes sign at tau = 2 K j.  The combinations that cancel are
 * expanded by hand (2 E I3 - L^2 = sum I_i (I3 - I_i) w_i^2 and so on).
 */
typedef struct { double period, t_first, half; int ok; } flip_exact;

static flip_exact exact_flips(const double I[3], const double w[3])
{
    flip_exact f = {NAN, NAN, NAN, 0};
    double a2 = 0, c2 = 0, kc2, k2, lam, A, B, C, sn, cn, dn, tau0, K;
    int i;
    for (i = 0; i < 3; i++) {
        a2 += I[i] * (I[2] - I[i]) * w[i] * w[i];    /* 2 E I3 - L^2 */
        c2 += I[i] * (I[i] - I[0]) * w[i] * w[i];    /* L^2 - 2 E I1 */
    }
    /* k'^2 = 1 - k^2, its numerator with the omega_2 terms cancelled */
    kc2 = (I[2] - I[0]) * (I[2] * (I[2] - I[1]) * w[2] * w[2] - I[0] * (I[1] - I[0]) * w[0] * w[0]) /
          ((I[2] - I[1]) * c2);
    if (!(kc2 > 0 && kc2 < 1)) return f;        /* the other case: not needed here */
    k2 = 1 - kc2;
    lam = sqrt((I[2] - I[1]) * c2 / (I[0] * I[1] * I[2]));
    A = sqrt(a2 / (I[0] * (I[2] - I[0])));
    B = sqrt(a2 / (I[1] * (I[2] - I[1])));
    C = sqrt(c2 / (I[2] * (I[2] - I[0])));
    sn = w[1] / B; cn = w[0] / A; dn = w[2] / C;
    (void)k2;
    /* tau0 = F(phi, k) with sin phi = sn, cos phi = cn (Carlson's form) */
    tau0 = sn * vd_carlson_rf(cn * cn, dn * dn, 1);
    K = vd_ellip_k(kc2);
    f.period = 4 * K / lam;
    f.t_first = (2 * K - tau0) / lam;
    f.half = 2 * K / lam;
    f.ok = cn > 0 && dn > 0 && w[1] > 0;
    return f;
}

static int exact_count(const flip_exact *f, double t_end)
{
    return t_end < f->t_first ? 0 : 1 + (int)floor((t_end - f->t_first) / f->half);
}

/* libmagdyn's run: one magnet without a moment; omega_y in the body frame
 * sampled every dt, flips located by linear interpolation. */
static int world_spin(magdyn_vec3 half, const double w0[3], double t_end, double dt,
                      double *energy_err, double *flip_t, int *nflips, double *ts, double *wy, int nsamp)
{
    magdyn_world_params p = magdyn_world_params_default();
    magdyn_world *w;
    magdyn_magnet m;
    double prev = 0, e0, t_prev = 0;
    int n = 0, k, steps = (int)(t_end / dt + 0.5);
    memset(&m, 0, sizeof m);
    m.mass = 3;
    m.half = half;
    m.orientation = magdyn_quat_identity();
    m.omega = magdyn_v3(w0[0], w0[1], w0[2]);
    if (!(w = magdyn_world_new(&p)) || magdyn_world_add(w, &m) < 0) { magdyn_world_free(w); return -1; }
    e0 = magdyn_world_energy(w);
    for (k = 0; k <= steps; k++) {
        double t = k * dt, y;
        if (k && magdyn_world_advance(w, t) != MAGDYN_OK) { magdyn_world_free(w); return -1; }
        magdyn_world_get(w, 0, &m);
        y = magdyn_quat_rotate_inv(m.orientation, m.omega).y;
        if (k && (y > 0) != (prev > 0)) {
            if (n < MAXFLIPS) flip_t[n] = t_prev + dt * prev / (prev - y);
            n++;
        }
        if (k % ((steps + nsamp - 2) / (nsamp - 1)) == 0) {
            int j = k / ((steps + nsamp - 2) / (nsamp - 1));
            ts[j] = t;
            wy[j] = y;
        }
        prev = y;
        t_prev = t;
    }
    *energy_err = (magdyn_world_energy(w) - e0) / e0;
    *nflips = n;
    magdyn_world_free(w);
    return 0;
}

static void spin(const vd_run *run)
{
    /* a box of 3 kg with I = m/3 (hy^2 + hz^2, hx^2 + hz^2, hx^2 + hy^2) =
     * (1, 2, 3 - 2e-12) kg m^2: a box has I3 < I1 + I2 */
    const magdyn_vec3 half = {sqrt(2 - 1e-12), sqrt(1 - 1e-12), 1e-6};
    const double w0[3] = {1e-3, 2 * 3.14159265358979323846, 1e-3}, t_end = 100;
    double dt = run->quick ? 1e-2 : 1e-3, eerr, ft[MAXFLIPS], ts[2001], wy[2001];
    int nf, nx, i;
    double Ib[3];
    flip_exact fx;
    Ib[0] = half.y * half.y + half.z * half.z;
    Ib[1] = half.x * half.x + half.z * half.z;
    Ib[2] = half.x * half.x + half.y * half.y;
    fx = exact_flips(Ib, w0);
    nx = exact_count(&fx, t_end);
    memset(ft, 0, sizeof ft);
    if (world_spin(half, w0, t_end, dt, &eerr, ft, &nf, ts, wy, 2001) != 0 || !fx.ok || nf < 2) {
        vd_custom("torque-free box: run", "Landau & Lifshitz sec. 37", NAN, NAN, NAN, "-", VD_FAIL);
        return;
    }
    {
        char tol[32];
        int nl = nf < MAXFLIPS ? nf : MAXFLIPS;   /* flip times kept */
        double per = 2 * (ft[nl - 1] - ft[0]) / (nl - 1);
        /* flips located to within the sampling step dt (linear interpolation) */
        double rt = 2 * dt / (ft[nl - 1] - ft[0]);
        vd_custom("torque-free box I=(1,2,3): flips in 100 s", "exact: 4K(k)/lambda period", nx, nf,
                  (double)(nf - nx) / nx, "0 flips", nf == nx ? VD_PASS : VD_FAIL);
        vd_rel("torque-free box: flip period [s]", "exact: 4K(k)/lambda", fx.period, per, rt);
        snprintf(tol, sizeof tol, "abs %.2g", dt);
        vd_custom("torque-free box: time of the last flip [s]", "exact: t1 + (n-1) T/2",
                  fx.t_first + (nx - 1) * fx.half, ft[nl - 1],
                  (ft[nl - 1] - (fx.t_first + (nx - 1) * fx.half)) / (fx.t_first + (nx - 1) * fx.half),
                  tol, nf == nx && fabs(ft[nl - 1] - (fx.t_first + (nx - 1) * fx.half)) <= dt
                  ? VD_PASS : VD_FAIL);
        vd_info("torque-free box: energy change in 100 s", "exact: 0", 0, eerr);
    }
    {
        /* ODE, the peer: dWorldStep at a game frame and a fine step, with
         * its default (implicit) gyroscopic term, and without it */
        static const double hs[3] = {1.0 / 60, 1e-4, 1e-4};
        static const int gyro[3] = {1, 1, 0};
        static const char *nm[3] = {"ODE dWorldStep h = 1/60 s", "ODE dWorldStep h = 1e-4 s",
                                    "ODE h = 1e-4 s, gyroscopic off"};
        for (i = 0; i < 3; i++) {
            double oe, oft[MAXFLIPS];
            int on;
            char q[96];
            if (vd_ode_spin(Ib, w0, t_end, hs[i], gyro[i], &oe, &on, oft, MAXFLIPS) != 0) {
                snprintf(q, sizeof q, "%s: flips, energy", nm[i]);
                vd_skip(q, "built without ODE (libode-dev)");
                continue;
            }
            snprintf(q, sizeof q, "%s: flips in 100 s", nm[i]);
            vd_custom(q, "exact (peer shown, not judged)", nx, on, (double)(on - nx) / nx, "-", VD_INFO);
            snprintf(q, sizeof q, "%s: energy change in 100 s", nm[i]);
            vd_custom(q, "exact: 0 (peer shown, not judged)", 0, oe, NAN, "-", VD_INFO);
        }
    }
    {
        double fxs[MAXFLIPS], zero[MAXFLIPS];
        int n = 0;
        for (i = 0; i < MAXFLIPS && fx.t_first + i * fx.half <= t_end; i++, n++) {
            fxs[i] = fx.t_first + i * fx.half;
            zero[i] = 0;
        }
        {
            vd_series s[2] = {{ts, wy, 2001, VD_LINE, 0.1, 0.2, 0.8, "libmagdyn: omega_y in the body frame"},
                              {fxs, zero, n, VD_DOTS, 0.8, 0.1, 0.1, "exact flip times (elliptic K)"}};
            vd_axes ax = {"torque-free box, I = (1, 2, 3), omega0 = (1e-3, 2 pi, 1e-3) rad/s",
                          "t [s]", "omega_y [rad/s]", 0, 0, 0, 100, -8, 10, 0};
            vd_plot(run, "flip.png", &ax, s, 2);
        }
    }
}

void vd_snap(const vd_run *run);   /* snap.c */

void vd_motion(const vd_run *run)
{
    vd_section("Motion: the stepper");
    spin(run);
    vd_snap(run);
}
