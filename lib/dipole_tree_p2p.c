/*
 * dipole_tree_p2p.c - the hierarchical sum's near field: every source of
 * one leaf on every target of another (or the same) leaf, directly.
 *
 * Laid out like the direct sum (lib/dipole_sum.c): each target sums in
 * LANES independent partial sums over a fixed-trip inner loop, so that
 * compilers vectorise it without reordering a reduction; the sources are
 * copied into a zero-padded block first.  Built with -fno-math-errno and,
 * with GCC on x86-64 Linux, also for AVX2 + FMA, picked at load time.
 */
#include <math.h>
#include "dipole_tree.h"

#define LANES 8
#define BLOCK 512

#include "kernel_clones.h"

typedef struct {
    double x[BLOCK], y[BLOCK], z[BLOCK], mx[BLOCK], my[BLOCK], mz[BLOCK];
} block;

/* the sources' own sums in the mutual kernel */
typedef struct {
    double gx[BLOCK], gy[BLOCK], gz[BLOCK], hx[BLOCK], hy[BLOCK], hz[BLOCK];
} sums;

/* g += grad psi, hm += H m at p from the nb (padded) sources of blk */
KERNEL_CLONES static void kernel(const block *blk, int nb, const double p[3], const double m[3],
                                 double g[3], double hm[3])
{
    double gx[LANES] = {0}, gy[LANES] = {0}, gz[LANES] = {0};
    double hx[LANES] = {0}, hy[LANES] = {0}, hz[LANES] = {0};
    int j, l;
    for (j = 0; j < nb; j += LANES) {
        for (l = 0; l < LANES; l++) {
            double rx = p[0] - blk->x[j + l], ry = p[1] - blk->y[j + l], rz = p[2] - blk->z[j + l];
            double sx = blk->mx[j + l], sy = blk->my[j + l], sz = blk->mz[j + l];
            double r2 = rx * rx + ry * ry + rz * rz;
            /* r2 == 0 only for the target itself: inv_r = 0, no branch */
            double nz = (double)(r2 > 0.0);
            double inv_r = nz / sqrt(r2 + (1.0 - nz));
            double inv_r2 = inv_r * inv_r, inv_r3 = inv_r2 * inv_r, inv_r5 = inv_r3 * inv_r2;
            double sr = sx * rx + sy * ry + sz * rz;
            double mr = m[0] * rx + m[1] * ry + m[2] * rz;
            double sm = sx * m[0] + sy * m[1] + sz * m[2];
            double c3 = 3.0 * sr * inv_r5, f5 = -3.0 * inv_r5;
            double cr = sm - 5.0 * sr * mr * inv_r2;
            gx[l] += sx * inv_r3 - c3 * rx;
            gy[l] += sy * inv_r3 - c3 * ry;
            gz[l] += sz * inv_r3 - c3 * rz;
            hx[l] += f5 * (sr * m[0] + mr * sx + cr * rx);
            hy[l] += f5 * (sr * m[1] + mr * sy + cr * ry);
            hz[l] += f5 * (sr * m[2] + mr * sz + cr * rz);
        }
    }
    for (l = 0; l < LANES; l++) {
        g[0] += gx[l]; g[1] += gy[l]; g[2] += gz[l];
        hm[0] += hx[l]; hm[1] += hy[l]; hm[2] += hz[l];
    }
}

/*
 * As kernel, and the reaction on each source: grad psi of the target at
 * the source is m/r^3 - 3 (m.r) r/r^5 (r from source to target: psi is
 * even in r), and H m of the source is minus that of the target.  The
 * sources' sums are distinct per lane, so the loop still vectorises.
 * No self pair: the two ranges are disjoint.
 */
KERNEL_CLONES static void kernel_mutual(const block *restrict blk, sums *restrict sb, int nb,
                                        const double p[3], const double m[3],
                                        double *restrict g, double *restrict hm)
{
    double gx[LANES] = {0}, gy[LANES] = {0}, gz[LANES] = {0};
    double hx[LANES] = {0}, hy[LANES] = {0}, hz[LANES] = {0};
    int j, l;
    for (j = 0; j < nb; j += LANES) {
        for (l = 0; l < LANES; l++) {
            double rx = p[0] - blk->x[j + l], ry = p[1] - blk->y[j + l], rz = p[2] - blk->z[j + l];
            double sx = blk->mx[j + l], sy = blk->my[j + l], sz = blk->mz[j + l];
            double r2 = rx * rx + ry * ry + rz * rz;
            double inv_r = 1.0 / sqrt(r2);
            double inv_r2 = inv_r * inv_r, inv_r3 = inv_r2 * inv_r, inv_r5 = inv_r3 * inv_r2;
            double sr = sx * rx + sy * ry + sz * rz;
            double mr = m[0] * rx + m[1] * ry + m[2] * rz;
            double sm = sx * m[0] + sy * m[1] + sz * m[2];
            double c3 = 3.0 * sr * inv_r5, d3 = 3.0 * mr * inv_r5, f5 = -3.0 * inv_r5;
            double cr = sm - 5.0 * sr * mr * inv_r2;
            double ux = f5 * (sr * m[0] + mr * sx + cr * rx);
            double uy = f5 * (sr * m[1] + mr * sy + cr * ry);
            double uz = f5 * (sr * m[2] + mr * sz + cr * rz);
            gx[l] += sx * inv_r3 - c3 * rx;
            gy[l] += sy * inv_r3 - c3 * ry;
            gz[l] += sz * inv_r3 - c3 * rz;
            hx[l] += ux; hy[l] += uy; hz[l] += uz;
            sb->gx[j + l] += m[0] * inv_r3 - d3 * rx;
            sb->gy[j + l] += m[1] * inv_r3 - d3 * ry;
            sb->gz[j + l] += m[2] * inv_r3 - d3 * rz;
            sb->hx[j + l] -= ux; sb->hy[j + l] -= uy; sb->hz[j + l] -= uz;
        }
    }
    for (l = 0; l < LANES; l++) {
        g[0] += gx[l]; g[1] += gy[l]; g[2] += gz[l];
        hm[0] += hx[l]; hm[1] += hy[l]; hm[2] += hz[l];
    }
}

/* sources [s0, s0 + ns) into blk, padded with zero moments far away */
static int load(block *blk, dt_soa s, int s0, int ns)
{
    int j, padded = (ns + LANES - 1) / LANES * LANES;
    for (j = 0; j < ns; j++) {
        blk->x[j] = s.x[s0 + j]; blk->y[j] = s.y[s0 + j]; blk->z[j] = s.z[s0 + j];
        blk->mx[j] = s.mx[s0 + j]; blk->my[j] = s.my[s0 + j]; blk->mz[j] = s.mz[s0 + j];
    }
    for (; j < padded; j++) {
        blk->x[j] = blk->y[j] = blk->z[j] = 1e3;
        blk->mx[j] = blk->my[j] = blk->mz[j] = 0.0;
    }
    return padded;
}

void dt_p2p(dt_soa src, int s0, int ns, dt_soa tgt, int t0, int nt, double *g, double *hm)
{
    block blk;
    int j0, i;
    for (j0 = 0; j0 < ns; j0 += BLOCK) {
        int nb = load(&blk, src, s0 + j0, ns - j0 < BLOCK ? ns - j0 : BLOCK);
        for (i = t0; i < t0 + nt; i++) {
            double p[3] = {tgt.x[i], tgt.y[i], tgt.z[i]}, m[3] = {tgt.mx[i], tgt.my[i], tgt.mz[i]};
            kernel(&blk, nb, p, m, g + 3 * i, hm + 3 * i);
        }
    }
}

void dt_p2p_mutual(dt_soa s, int a0, int na, int b0, int nb, double *g, double *hm)
{
    block blk;
    sums sb;
    int j0, i, j;
    for (j0 = 0; j0 < nb; j0 += BLOCK) {
        int ns = nb - j0 < BLOCK ? nb - j0 : BLOCK, padded = load(&blk, s, b0 + j0, ns);
        for (j = 0; j < padded; j++)
            sb.gx[j] = sb.gy[j] = sb.gz[j] = sb.hx[j] = sb.hy[j] = sb.hz[j] = 0.0;
        for (i = a0; i < a0 + na; i++) {
            double p[3] = {s.x[i], s.y[i], s.z[i]}, m[3] = {s.mx[i], s.my[i], s.mz[i]};
            kernel_mutual(&blk, &sb, padded, p, m, g + 3 * i, hm + 3 * i);
        }
        for (j = 0; j < ns; j++) {
            int k = 3 * (b0 + j0 + j);
            g[k] += sb.gx[j]; g[k + 1] += sb.gy[j]; g[k + 2] += sb.gz[j];
            hm[k] += sb.hx[j]; hm[k + 1] += sb.hy[j]; hm[k + 2] += sb.hz[j];
        }
    }
}
