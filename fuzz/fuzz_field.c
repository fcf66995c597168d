/*
 * fuzz/fuzz_field.c - libFuzzer target for dipole.h: the exact cuboid field,
 * point-dipole field/force/energy, magdyn_dipoles_interact and
 * magdyn_cuboid_force_torque (rel_tol kept >= 1e-3 so each call stays fast).
 * Input: cuboid src (half 3, J 3, centre 3, quat 4), cuboid dst likewise,
 * a point r (3), a tolerance selector (1 double), then 3 dipoles
 * (position 3, moment 3 each).
 */
#include <magdyn.h>
#include "fuzz_util.h"

static magdyn_vec3 read_vec(fz_in *in)
{
    magdyn_vec3 v;
    v.x = fz_double(in); v.y = fz_double(in); v.z = fz_double(in);
    return v;
}

static magdyn_cuboid read_cuboid(fz_in *in)
{
    magdyn_cuboid c;
    c.half = read_vec(in);
    c.polarization = read_vec(in);
    c.center = read_vec(in);
    c.orientation.w = fz_double(in); c.orientation.x = fz_double(in);
    c.orientation.y = fz_double(in); c.orientation.z = fz_double(in);
    return c;
}

static int finite3(magdyn_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    magdyn_cuboid src = read_cuboid(&in), dst = read_cuboid(&in);
    magdyn_vec3 r = read_vec(&in);
    double tsel = fz_double(&in);
    magdyn_vec3 pos[3], mom[3];
    for (int i = 0; i < 3; i++) { pos[i] = read_vec(&in); mom[i] = read_vec(&in); }

    /* Exact field: finite for good input, NaN (never a crash) otherwise. */
    magdyn_vec3 b = magdyn_cuboid_field(src.half, src.polarization, r);
    int good = finite3(src.half) && src.half.x > 0 && src.half.y > 0 && src.half.z > 0
               && finite3(src.polarization) && finite3(r);
    if (!good)
        FZ_ASSERT(isnan(b.x) && isnan(b.y) && isnan(b.z));
    (void)magdyn_cuboid_field_at(&src, r);
    (void)magdyn_cuboid_field_at(NULL, r);
    (void)magdyn_cuboid_moment(&src);

    /* Point dipoles. */
    magdyn_vec3 f, t;
    (void)magdyn_dipole_field(mom[0], r);
    magdyn_dipole_force_torque(mom[0], pos[0], mom[1], pos[1], &f, &t);
    magdyn_dipole_force_torque(mom[0], pos[0], mom[1], pos[1], NULL, NULL);
    (void)magdyn_dipole_energy(mom[0], pos[0], mom[1], pos[1]);
    (void)magdyn_moment_from_remanence(r.x, r.y);

    magdyn_vec3 fo[3], to[3], fk[3], tk[3];
    double e = 12345.0, ek;
    memset(fo, 0x3c, sizeof fo); memset(to, 0x3c, sizeof to);
    memcpy(fk, fo, sizeof fo); memcpy(tk, to, sizeof to); ek = e;
    magdyn_status s = magdyn_dipoles_interact(3, pos, mom, fo, to, &e);
    if (s != MAGDYN_OK) {
        FZ_ASSERT(s < 0);
        FZ_ASSERT(memcmp(fo, fk, sizeof fo) == 0 && memcmp(to, tk, sizeof to) == 0 && FZ_SAME(e, ek));
    } else {
        /* Newton's third law for the sum of forces, to rounding of the
         * forces' sizes (a component that cancels to zero, as x here for
         * m (0,1,0) and (1,0,0) at (0.01,-0.02,0), keeps ~1e-16 of |F|). */
        double sx = fo[0].x + fo[1].x + fo[2].x;
        double mx = 0;          /* sum of |components|: a norm's squares underflow at 1e-205 N */
        for (int i = 0; i < 3; i++) mx += fabs(fo[i].x) + fabs(fo[i].y) + fabs(fo[i].z);
        if (isfinite(mx)) FZ_ASSERT(fabs(sx) <= 1e-9 * mx + 1e-300);
    }
    (void)magdyn_dipoles_interact(0, pos, mom, NULL, NULL, NULL);
    FZ_ASSERT(magdyn_dipoles_interact(-1, pos, mom, fo, to, &e) < 0);

    /* Extended force and torque. */
    double tols[2] = {1e-3, 0.1};
    double rel_tol = tols[(isfinite(tsel) && tsel > 0) ? 1 : 0];
    magdyn_vec3 F, T, Fk, Tk;
    memset(&F, 0x11, sizeof F); memset(&T, 0x22, sizeof T);
    Fk = F; Tk = T;
    s = magdyn_cuboid_force_torque(&src, &dst, rel_tol, &F, &T);
    if (s != MAGDYN_OK) {
        FZ_ASSERT(s < 0);
        FZ_ASSERT(FZ_SAME(F, Fk) && FZ_SAME(T, Tk));
    } else {
        FZ_ASSERT(!isnan(F.x) && !isnan(F.y) && !isnan(F.z));
        FZ_ASSERT(!isnan(T.x) && !isnan(T.y) && !isnan(T.z));
    }
    /* Out-of-range tolerances must be refused, outputs untouched. */
    FZ_ASSERT(magdyn_cuboid_force_torque(&src, &dst, 1.0, &F, &T) < 0);
    FZ_ASSERT(magdyn_cuboid_force_torque(NULL, &dst, rel_tol, &F, &T) < 0);
    magdyn_vec3 Fp = Fk;
    s = magdyn_cuboid_force_parallel(&src, &dst, &Fp, NULL);
    if (s != MAGDYN_OK) FZ_ASSERT(s < 0 && FZ_SAME(Fp, Fk));
    else FZ_ASSERT(!isnan(Fp.x) && !isnan(Fp.y) && !isnan(Fp.z));
    return 0;
}
