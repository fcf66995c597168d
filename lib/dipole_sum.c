/*
 * dipole_sum.c - direct O(n^2) sum of all point-dipole pair interactions:
 * force and torque on each dipole and the total energy, in one pass.
 *
 * Why it is laid out this way: the pair kernel is ~70 flops with one sqrt
 * and one division, so the loop is compute bound and must vectorise.  The
 * sources j are copied in blocks into structure-of-arrays buffers on the
 * stack, targets i are taken in tiles, and each target accumulates in LANES
 * independent partial sums (a fixed-trip inner loop that compilers turn into
 * SIMD without needing -ffast-math to reorder a reduction).  Each pair is
 * computed twice (once per member) rather than scattered, which keeps the
 * loop free of write conflicts; B is accumulated rather than torque, and
 * torque and energy follow from it per target.
 */
#include <math.h>
#include <string.h>
#include <magdyn/dipole.h>
#include "dipole_sum.h"

#define K_MU0_4PI (MAGDYN_MU0 / (4.0 * MAGDYN_PI))
#define LANES 8      /* partial sums per target: a multiple of every SIMD width */
#define BLOCK 256    /* sources per stack block (6 x 256 doubles = 12 kB) */
#define TILE 16      /* targets per tile */

typedef struct {
    double x[BLOCK], y[BLOCK], z[BLOCK], mx[BLOCK], my[BLOCK], mz[BLOCK];
} src_block;

/*
 * Accumulate, over the nb sources of blk (nb a multiple of LANES), the force
 * on the dipole (m at p) and the field B of the sources at p.  A source at p
 * itself (the target, or padding there) contributes nothing; padding has
 * zero moment and contributes nothing anywhere.
 */
/*
 * On x86-64 Linux with GCC the kernel is also compiled for AVX-512
 * (x86-64-v4) and AVX2 + FMA (x86-64-v3), and the loader picks the widest
 * clone the CPU supports (ifunc), so the library stays baseline x86-64
 * while using the wider units.  Multiply-adds are not fused (-std=c11
 * keeps GCC from contracting them): with the lanes' partial sums the same
 * in every clone, the results are the same bits on every CPU, which the
 * world's trajectories (chaotic near contact) inherit.  Fusing them would
 * be about twice as fast.  (kernel_clones.h
 * says where the clones are built.)
 */
#include "kernel_clones.h"

KERNEL_CLONES static void pair_kernel(const src_block *blk, int nb, magdyn_vec3 p, magdyn_vec3 m,
                        double out[6])
{
    double fx[LANES] = {0}, fy[LANES] = {0}, fz[LANES] = {0};
    double bx[LANES] = {0}, by[LANES] = {0}, bz[LANES] = {0};
    int j, l;
    for (j = 0; j < nb; j += LANES) {
        for (l = 0; l < LANES; l++) {
            double rx = p.x - blk->x[j + l], ry = p.y - blk->y[j + l], rz = p.z - blk->z[j + l];
            double sx = blk->mx[j + l], sy = blk->my[j + l], sz = blk->mz[j + l];
            double r2 = rx * rx + ry * ry + rz * rz;
            /* r2 == 0 only for the target itself (coincidences are rejected
             * up front) or padding at its position: then inv_r = 0, without
             * a branch */
            double nz = (double)(r2 > 0.0);
            double inv_r = nz / sqrt(r2 + (1.0 - nz));
            double inv_r2 = inv_r * inv_r;
            double b3 = K_MU0_4PI * inv_r2 * inv_r;          /* mu0/(4 pi r^3) */
            double sr = sx * rx + sy * ry + sz * rz;          /* m_src . r */
            double mr = m.x * rx + m.y * ry + m.z * rz;       /* m . r */
            double sm = sx * m.x + sy * m.y + sz * m.z;
            double cb = 3.0 * sr * inv_r2;
            double f5 = 3.0 * b3 * inv_r2;                     /* 3 mu0/(4 pi r^5) */
            double cr = sm - 5.0 * sr * mr * inv_r2;
            bx[l] += b3 * (cb * rx - sx);
            by[l] += b3 * (cb * ry - sy);
            bz[l] += b3 * (cb * rz - sz);
            fx[l] += f5 * (sr * m.x + mr * sx + cr * rx);
            fy[l] += f5 * (sr * m.y + mr * sy + cr * ry);
            fz[l] += f5 * (sr * m.z + mr * sz + cr * rz);
        }
    }
    for (l = 0; l < LANES; l++) {
        out[0] += fx[l]; out[1] += fy[l]; out[2] += fz[l];
        out[3] += bx[l]; out[4] += by[l]; out[5] += bz[l];
    }
}

/* Copy sources [j0, j0 + nb) into blk, padded to a multiple of LANES. */
static int load_block(src_block *blk, const magdyn_vec3 *pos, const magdyn_vec3 *moment,
                      int j0, int nb)
{
    int j, padded = (nb + LANES - 1) / LANES * LANES;
    for (j = 0; j < nb; j++) {
        blk->x[j] = pos[j0 + j].x; blk->y[j] = pos[j0 + j].y; blk->z[j] = pos[j0 + j].z;
        blk->mx[j] = moment[j0 + j].x; blk->my[j] = moment[j0 + j].y; blk->mz[j] = moment[j0 + j].z;
    }
    /* padding: zero moments at the last source's position, so that its
     * distances are those of a real pair (one at the origin could sit
     * closer to a target than any source and overflow the kernel) */
    for (; j < padded; j++) {
        blk->x[j] = blk->x[nb - 1]; blk->y[j] = blk->y[nb - 1]; blk->z[j] = blk->z[nb - 1];
        blk->mx[j] = blk->my[j] = blk->mz[j] = 0.0;
    }
    return padded;
}

/*
 * The range in which the pair kernel's every intermediate stays finite.
 * For one pair at distance r with moments of norm at most M the kernel
 * forms r^2, 3K/r^5, products up to M^2 r^2 and a force up to 24 K M^2/r^4
 * (K = mu0/4 pi); n such terms are summed.  Dipoles closer than
 * MIN_DIST (where 3K/r^5 overflows, or r^2 underflows to 0 and the kernel
 * would take the pair for the target itself) count as coincident; the
 * other bounds keep every product below BIG.
 */
#define MIN_DIST 1e-60
#define MAX_SPAN 1e150
#define BIG 1e300

static magdyn_status check_input(int n, const magdyn_vec3 *pos, const magdyn_vec3 *moment)
{
    double r2min = INFINITY, mmax = 0.0, lo[3], hi[3], span;
    int i, j;
    if (n < 0 || (n > 0 && (!pos || !moment))) return MAGDYN_EINVAL;
    for (i = 0; i < n; i++)
        if (!magdyn_vec3_isfinite(pos[i]) || !magdyn_vec3_isfinite(moment[i]))
            return MAGDYN_ENONFINITE;
    if (n < 2) return MAGDYN_OK;
    lo[0] = hi[0] = pos[0].x; lo[1] = hi[1] = pos[0].y; lo[2] = hi[2] = pos[0].z;
    for (i = 0; i < n; i++) {
        double m = magdyn_vec3_norm(moment[i]);
        mmax = m > mmax ? m : mmax;
        lo[0] = fmin(lo[0], pos[i].x); hi[0] = fmax(hi[0], pos[i].x);
        lo[1] = fmin(lo[1], pos[i].y); hi[1] = fmax(hi[1], pos[i].y);
        lo[2] = fmin(lo[2], pos[i].z); hi[2] = fmax(hi[2], pos[i].z);
    }
    /* coincidences, or pairs too close for the kernel to tell apart */
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            double rx = pos[i].x - pos[j].x, ry = pos[i].y - pos[j].y, rz = pos[i].z - pos[j].z;
            double r2 = rx * rx + ry * ry + rz * rz;
            r2min = r2 < r2min ? r2 : r2min;
        }
    if (!(r2min >= MIN_DIST * MIN_DIST)) return MAGDYN_EOVERLAP;
    /* every distance is at most the diagonal of the positions' bounding box */
    span = (hi[0] - lo[0]) + (hi[1] - lo[1]) + (hi[2] - lo[2]);
    if (!(span <= MAX_SPAN) || !(mmax * span <= sqrt(BIG))) return MAGDYN_ERANGE;
    if (!(mmax / r2min <= sqrt(BIG / (24.0 * K_MU0_4PI * n)))) return MAGDYN_ERANGE;
    return MAGDYN_OK;
}

magdyn_status magdyn_dipoles_interact(int n, const magdyn_vec3 *pos,
                                      const magdyn_vec3 *moment,
                                      magdyn_vec3 *force, magdyn_vec3 *torque,
                                      double *energy)
{
    src_block blk;
    double acc[TILE][6];
    double u = 0.0;
    int i0, j0, i, t;
    magdyn_status s = check_input(n, pos, moment);
    if (s != MAGDYN_OK) return s;

    for (i0 = 0; i0 < n; i0 += TILE) {
        int ni = n - i0 < TILE ? n - i0 : TILE;
        memset(acc, 0, sizeof acc);
        for (j0 = 0; j0 < n; j0 += BLOCK) {
            int nb = load_block(&blk, pos, moment, j0, n - j0 < BLOCK ? n - j0 : BLOCK);
            for (t = 0; t < ni; t++)
                pair_kernel(&blk, nb, pos[i0 + t], moment[i0 + t], acc[t]);
        }
        for (t = 0; t < ni; t++) {
            magdyn_vec3 b = magdyn_v3(acc[t][3], acc[t][4], acc[t][5]);
            i = i0 + t;
            if (force) force[i] = magdyn_v3(acc[t][0], acc[t][1], acc[t][2]);
            if (torque) torque[i] = magdyn_vec3_cross(moment[i], b);
            u -= magdyn_vec3_dot(moment[i], b);
        }
    }
    /* every pair was counted from both ends */
    if (energy) *energy = 0.5 * u;
    return MAGDYN_OK;
}

/* Adds to f[], t[] the force and torque on each of the nt targets due to
 * all ns sources. */
static void one_side(int nt, const magdyn_vec3 *pt, const magdyn_vec3 *mt, int ns, const magdyn_vec3 *ps,
                     const magdyn_vec3 *ms, magdyn_vec3 *f, magdyn_vec3 *t)
{
    src_block blk;
    double acc[TILE][6];
    int i0, j0, k;
    for (i0 = 0; i0 < nt; i0 += TILE) {
        int ni = nt - i0 < TILE ? nt - i0 : TILE;
        memset(acc, 0, sizeof acc);
        for (j0 = 0; j0 < ns; j0 += BLOCK) {
            int nb = load_block(&blk, ps, ms, j0, ns - j0 < BLOCK ? ns - j0 : BLOCK);
            for (k = 0; k < ni; k++) pair_kernel(&blk, nb, pt[i0 + k], mt[i0 + k], acc[k]);
        }
        for (k = 0; k < ni; k++) {
            magdyn_vec3 b = magdyn_v3(acc[k][3], acc[k][4], acc[k][5]);
            f[i0 + k] = magdyn_vec3_add(f[i0 + k], magdyn_v3(acc[k][0], acc[k][1], acc[k][2]));
            t[i0 + k] = magdyn_vec3_add(t[i0 + k], magdyn_vec3_cross(mt[i0 + k], b));
        }
    }
}

/* Up to this many pairs between the sets go one at a time: below it the
 * tiled kernel's set-up (a tile's accumulators, a padded source block per
 * side) costs more than the pairs (a snap of two magnets over a plate
 * spent a quarter of its instructions there). */
#define CROSS_SCALAR_PAIRS 64

/* md_dipoles_cross pair by pair: the force and torque on the a-dipole,
 * the reaction (Newton's third law, torque about the b-dipole) on the
 * other. */
static void cross_pairs(int na, const magdyn_vec3 *pa, const magdyn_vec3 *ma, int nb, const magdyn_vec3 *pb,
                        const magdyn_vec3 *mb, magdyn_vec3 *fa, magdyn_vec3 *ta, magdyn_vec3 *fb, magdyn_vec3 *tb)
{
    int q, k;
    for (q = 0; q < nb; q++)
        for (k = 0; k < na; k++) {
            magdyn_vec3 f, t;
            magdyn_dipole_force_torque(mb[q], pb[q], ma[k], pa[k], &f, &t);
            fa[k] = magdyn_vec3_add(fa[k], f);
            ta[k] = magdyn_vec3_add(ta[k], t);
            fb[q] = magdyn_vec3_sub(fb[q], f);
            tb[q] = magdyn_vec3_sub(tb[q], magdyn_vec3_add(t, magdyn_vec3_cross(magdyn_vec3_sub(pa[k], pb[q]), f)));
        }
}

void md_dipoles_cross(int na, const magdyn_vec3 *pa, const magdyn_vec3 *ma, int nb, const magdyn_vec3 *pb,
                      const magdyn_vec3 *mb, magdyn_vec3 *fa, magdyn_vec3 *ta, magdyn_vec3 *fb, magdyn_vec3 *tb)
{
    if (na <= 0 || nb <= 0) return;
    if ((long long)na * nb <= CROSS_SCALAR_PAIRS) {
        cross_pairs(na, pa, ma, nb, pb, mb, fa, ta, fb, tb);
        return;
    }
    one_side(na, pa, ma, nb, pb, mb, fa, ta);
    one_side(nb, pb, mb, na, pa, ma, fb, tb);
}
