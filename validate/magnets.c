/*
 * magnets.c - forces between block magnets against a measurement-backed
 * closed form (Akoun & Yonnet 1984), finite elements (ANSYS, as used in
 * magpylib-force's tests), a vendor's holding force (method of images), and
 * the point dipole against the exact force for two cubes over the gap.
 */
#include <stdio.h>
#include <math.h>
#include <magdyn.h>
#include "validate.h"

#define TOL_EXT 1e-6          /* rel_tol asked of the extended model here */
#define TILT 5e-8             /* [rad] above the closed form's snap, 0.01 TOL_EXT */

static magdyn_cuboid box(double sx, double sy, double sz, double jz, magdyn_vec3 c)
{
    magdyn_cuboid b;
    b.half = magdyn_v3(sx / 2, sy / 2, sz / 2);
    b.polarization = magdyn_v3(0, 0, jz);
    b.center = c;
    b.orientation = magdyn_quat_identity();
    return b;
}

static double comp(magdyn_vec3 v, int k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }

/* Force on dst due to src, three ways: the closed form, the extended model
 * as the stepper uses it (it takes the closed form for aligned boxes), the
 * extended model's cubature (dst turned by TILT about z so that the
 * closed form is not taken: a geometric change below 10 TILT), and the
 * point dipoles at the centres. */
typedef struct { magdyn_vec3 closed, ext, cub, dip; int ok; } forces;

static forces all_forces(const magdyn_cuboid *src, const magdyn_cuboid *dst, int cubature)
{
    forces f;
    magdyn_cuboid tilted = *dst;
    f.ok = magdyn_cuboid_force_parallel(src, dst, &f.closed, NULL) == MAGDYN_OK;
    f.ok &= magdyn_cuboid_force_torque(src, dst, TOL_EXT, &f.ext, NULL) == MAGDYN_OK;
    f.cub = magdyn_v3(NAN, NAN, NAN);
    if (cubature) {
        tilted.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), TILT);
        f.ok &= magdyn_cuboid_force_torque(src, &tilted, TOL_EXT, &f.cub, NULL) == MAGDYN_OK;
    }
    magdyn_dipole_force_torque(magdyn_cuboid_moment(src), src->center, magdyn_cuboid_moment(dst),
                               dst->center, &f.dip, NULL);
    return f;
}

static void akoun_yonnet(const vd_run *run)
{
    /* read off the paper's figure (issue 17), accuracy about 0.05 N */
    static const double d_ref[4] = {0, 4, 14, 22};
    static const double f_ref[4][3] = {{0.60, 0.60, -1.76}, {0, 0.64, -1.85},
                                       {-1.10, 0.31, -0.64}, {-0.25, 0.02, 0.43}};
    static const char *cn[3] = {"x", "y", "z"};
    enum { ND = 57 };
    double d[ND], fc[3][ND], fd[3][ND], fx[3][ND], dr[4], fr[3][4], worst = 0;
    magdyn_cuboid a = box(0.020, 0.012, 0.006, 0.38, magdyn_v3(0, 0, 0));
    int i, k, bad = 0;
    char q[96];
    for (i = 0; i < ND; i++) {
        magdyn_cuboid b = box(0.012, 0.020, 0.006, 0.38, magdyn_v3(-0.004 + i * 5e-4, -0.004, 0.008));
        forces f = all_forces(&a, &b, !run->quick || i % 8 == 0);
        d[i] = i * 0.5;
        bad |= !f.ok;
        for (k = 0; k < 3; k++) {
            fc[k][i] = comp(f.closed, k);
            fx[k][i] = comp(f.ext, k);
            fd[k][i] = comp(f.dip, k);
        }
        if (!isnan(f.cub.x))
            worst = fmax(worst, magdyn_vec3_norm(magdyn_vec3_sub(f.cub, f.closed)) /
                                magdyn_vec3_norm(f.closed));
    }
    for (i = 0; i < 4; i++) {
        int j = (int)(d_ref[i] * 2 + 0.5);
        dr[i] = d_ref[i];
        for (k = 0; k < 3; k++) {
            fr[k][i] = f_ref[i][k];
            snprintf(q, sizeof q, "A&Y blocks, d = %2.0f mm: F_%s [N]", d_ref[i], cn[k]);
            vd_abs(q, "Akoun & Yonnet 1984, figure", f_ref[i][k], fc[k][j], 0.05);
        }
    }
    vd_info("A&Y blocks, d = 4 mm, point dipole: F_z [N]", "Akoun & Yonnet 1984, figure",
            f_ref[1][2], fd[2][8]);
    /* the cubature's promise, rel_tol |F|, plus 10 TILT for the tilt */
    vd_custom("A&Y blocks, cubature vs closed form, max |dF|/|F|", "closed form (exact)", 0, worst,
              worst, "rel 1.5e-06", worst <= TOL_EXT + 10 * TILT && !bad ? VD_PASS : VD_FAIL);
    {
        static const double col[3][3] = {{0.8, 0.1, 0.1}, {0.1, 0.5, 0.1}, {0.1, 0.2, 0.8}};
        vd_series s[12];
        vd_axes ax = {"Akoun & Yonnet (1984): force on the 12x20x6 mm magnet, J = 0.38 T, gap 2 mm",
                      "d [mm]", "force [N]", 0, 0, 0, 28, -2.5, 1.5, 2};
        static const char *lc[3] = {"F_x: closed form (line), extended (dashed)",
                                    "F_y: closed form, extended", "F_z: closed form, extended"};
        static const char *ld[3] = {"point dipoles (thin dashed, same colours)", NULL, NULL};
        for (k = 0; k < 3; k++) {
            s[4 * k] = (vd_series){d, fc[k], ND, VD_LINE, col[k][0], col[k][1], col[k][2], lc[k]};
            s[4 * k + 1] = (vd_series){d, fx[k], ND, VD_DASH, col[k][0], col[k][1], col[k][2], NULL};
            s[4 * k + 2] = (vd_series){d, fd[k], ND, VD_DASH, 0.5 + col[k][0] / 2, 0.5 + col[k][1] / 2,
                                       0.5 + col[k][2] / 2, ld[k]};
            s[4 * k + 3] = (vd_series){dr, fr[k], 4, VD_DOTS, col[k][0], col[k][1], col[k][2],
                                       k == 0 ? "dots: read off the paper's figure" : NULL};
        }
        vd_plot(run, "akoun_yonnet.png", &ax, s, 12);
    }
}

static void ansys(void)
{
    /* ANSYS, as in magpylib-force tests/test_FEM.py (test_ANSYS_cube_cube) */
    static const double pos[3][3] = {{2, 1, 7}, {4, 1, 7}, {2, 1, 10}};
    static const double fem[3][3] = {{-188.54, -92.90, -314.00}, {-196.94, -45.73, -94.02},
                                     {-40.73, -19.93, -99.55}};
    int i;
    for (i = 0; i < 3; i++) {
        magdyn_cuboid src = box(5, 5, 5, 1, magdyn_v3(0, 0, 0));
        magdyn_cuboid dst = box(0.3, 0.3, 0.3, 1, magdyn_v3(pos[i][0], pos[i][1], pos[i][2]));
        magdyn_vec3 f, fr = magdyn_v3(fem[i][0], fem[i][1], fem[i][2]);
        char q[96];
        double e;
        int ok = magdyn_cuboid_force_torque(&src, &dst, TOL_EXT, &f, NULL) == MAGDYN_OK;
        e = magdyn_vec3_norm(magdyn_vec3_sub(f, fr)) / magdyn_vec3_norm(fr);
        snprintf(q, sizeof q, "FEM cubes, target at (%g,%g,%g) m: |F| [N]", pos[i][0], pos[i][1],
                 pos[i][2]);
        /* "a few per cent": magpylib-force's test accepts |dF|/|F| < 0.04 */
        vd_custom(q, "ANSYS (magpylib-force tests)", magdyn_vec3_norm(fr), magdyn_vec3_norm(f), e,
                  "|dF|/|F| 0.04", ok && e < 0.04 ? VD_PASS : VD_FAIL);
    }
}

/* A magnet magnetised through its thickness on a thick plate of infinite
 * permeability is held by its mirror image, touching it face to face. */
static void holding(void)
{
    magdyn_cuboid m = box(0.005, 0.0025, 0.001, 1.33, magdyn_v3(0, 0, 0.0005));
    magdyn_cuboid img = box(0.005, 0.0025, 0.001, 1.33, magdyn_v3(0, 0, -0.0005));
    magdyn_vec3 f;
    if (magdyn_cuboid_force_torque(&img, &m, TOL_EXT, &f, NULL) != MAGDYN_OK) f.z = NAN;
    vd_info("5x2.5x1 mm, J 1.33 T, on steel: hold [N]", "vendor, about 350 g", 0.350 * 9.80665, -f.z);
}

/* Two 10 mm cubes, J = 1.2 T, coaxial along z: attraction against the gap. */
static void cubes(const vd_run *run)
{
    enum { NG = 60 };
    double g[NG], fc[NG], fx[NG], fd[NG], ratio0 = NAN;
    static const double show[4] = {0, 2e-3, 10e-3, 30e-3};
    magdyn_cuboid a = box(0.01, 0.01, 0.01, 1.2, magdyn_v3(0, 0, 0));
    int i;
    for (i = 0; i < NG; i++) {
        /* gaps 0.01 mm .. 100 mm, logarithmic; and 0 for the table */
        double gap = 1e-5 * pow(1e4, i / (NG - 1.0));
        magdyn_cuboid b = box(0.01, 0.01, 0.01, 1.2, magdyn_v3(0, 0, 0.01 + gap));
        forces f = all_forces(&a, &b, 0);
        g[i] = gap * 1e3;
        fc[i] = -f.closed.z;
        fx[i] = -f.ext.z;
        fd[i] = -f.dip.z;
    }
    for (i = 0; i < 4; i++) {
        magdyn_cuboid b = box(0.01, 0.01, 0.01, 1.2, magdyn_v3(0, 0, 0.01 + show[i]));
        forces f = all_forces(&a, &b, 0);
        char q[96];
        snprintf(q, sizeof q, "10 mm cubes, gap %2.0f mm: point dipole F [N]", show[i] * 1e3);
        vd_info(q, "closed form (Akoun & Yonnet)", -f.closed.z, -f.dip.z);
        if (i == 0) ratio0 = f.dip.z / f.closed.z;
    }
    (void)ratio0;
    {
        vd_series s[3] = {
            {g, fc, NG, VD_LINE, 0.1, 0.2, 0.8, "closed form (Akoun & Yonnet)"},
            {g, fx, NG, VD_DASH, 0.9, 0.6, 0.1, "extended model (magdyn_cuboid_force_torque)"},
            {g, fd, NG, VD_LINE, 0.8, 0.1, 0.1, "point dipoles at the centres"}};
        vd_axes ax = {"two 10 mm cubes, J = 1.2 T, coaxial: attraction against the gap",
                      "gap [mm]", "force [N]", 1, 1, 0, 0, 0, 0, 1};
        vd_plot(run, "cubes_gap.png", &ax, s, 3);
    }
}

void vd_magnets(const vd_run *run)
{
    vd_section("Magnets: forces between uniformly magnetised blocks");
    akoun_yonnet(run);
    ansys();
    holding();
    cubes(run);
}
