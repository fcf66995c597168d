/*
 * dipole_tree_leaf.c - the hierarchical sum's particle ends, DT_LANES
 * dipoles of one leaf at a time, each in a lane of its own: the multipole
 * of a leaf from its dipoles (P2M) and the field and H m of the local
 * expansion at each dipole (L2P).
 *
 * Why lanes of dipoles: one dipole's P2M or L2P is a chain of scalar
 * reads through index tables; with DT_LANES dipoles the same index serves
 * a vector, so the work of a term (the power e^k/k!, its product with the
 * expansion) vectorises.  Built with -fno-math-errno and, with GCC on
 * x86-64 Linux, also for AVX2 + FMA and AVX-512.
 *
 * P2M: a dipole m at d from the centre adds Q_(k+e_i) -= m_i (-d)^k / k!
 * (lib/dipole_tree.h); L2P: grad psi = sum_n L_(n+e_a) e^n / n! and
 * H = sum_n L_(n+e_a+e_b) e^n / n!, the local expansion being the
 * derivatives of psi about z, e the offset from z.
 */
#include "dipole_tree.h"
#include "kernel_clones.h"

#define W DT_LANES

/* w_k = e^k / k! of every lane for |k| <= order */
KERNEL_CLONES static void powers(const dt_tables *t, const double (*e)[W], int order,
                                 double (*restrict w)[W])
{
    int i, l, n = dt_nterms(order);
    for (l = 0; l < W; l++) w[0][l] = 1.0;
    for (i = 1; i < n; i++) {
        int a = t->comp[i][0] ? 0 : t->comp[i][1] ? 1 : 2;
        const double *src = w[t->down[i][a]];
        double inv = 1.0 / t->comp[i][a];
        for (l = 0; l < W; l++) w[i][l] = src[l] * e[a][l] * inv;
    }
}

/* Ql_(k+e_i) -= m_i w_k, per lane */
KERNEL_CLONES static void p2m_terms(const dt_tables *t, const double (*m)[W],
                                    const double (*w)[W], double (*restrict Ql)[W])
{
    int i, a, l, n = dt_nterms(t->p - 1);
    for (i = 0; i < n; i++)
        for (a = 0; a < 3; a++) {
            double *q = Ql[t->up[i][a]];
            for (l = 0; l < W; l++) q[l] -= m[a][l] * w[i][l];
        }
}

void dt_p2m_leaf(const dt_tables *t, const double c[3], dt_soa s, int i0, int n, double *Q,
                 double *work)
{
    size_t nt = (size_t)t->nterms;
    double (*w)[W] = (double (*)[W])work, (*Ql)[W] = w + nt;
    double e[3][W], m[3][W];
    size_t k;
    int j0, l;
    for (k = 0; k < nt; k++)
        for (l = 0; l < W; l++) Ql[k][l] = 0.0;
    for (j0 = 0; j0 < n; j0 += W) {
        for (l = 0; l < W; l++) {
            int j = i0 + j0 + l, in = j0 + l < n;
            /* the offset from the dipole to the centre, -d */
            e[0][l] = in ? c[0] - s.x[j] : 0.0;
            e[1][l] = in ? c[1] - s.y[j] : 0.0;
            e[2][l] = in ? c[2] - s.z[j] : 0.0;
            m[0][l] = in ? s.mx[j] : 0.0;
            m[1][l] = in ? s.my[j] : 0.0;
            m[2][l] = in ? s.mz[j] : 0.0;
        }
        powers(t, (const double (*)[W])e, t->p - 1, w);
        p2m_terms(t, (const double (*)[W])m, (const double (*)[W])w, Ql);
    }
    for (k = 0; k < nt; k++) {
        double sum = 0;
        for (l = 0; l < W; l++) sum += Ql[k][l];
        Q[k] += sum;
    }
}

/* gradient (g) and Hessian (h: xx xy xz yy yz zz) of the expansion, per lane */
KERNEL_CLONES static void l2p_terms(const dt_tables *t, const double *L, const double (*w)[W],
                                    double (*restrict g)[W], double (*restrict h)[W])
{
    int i, a, b, l, n1 = dt_nterms(t->p - 1), n2 = dt_nterms(t->p - 2);
    for (i = 0; i < n1; i++)
        for (a = 0; a < 3; a++) {
            double c = L[t->up[i][a]];
            for (l = 0; l < W; l++) g[a][l] += c * w[i][l];
        }
    for (i = 0; i < n2; i++) {
        int o = 0;
        for (a = 0; a < 3; a++)
            for (b = a; b < 3; b++, o++) {
                double c = L[t->up[t->up[i][a]][b]];
                for (l = 0; l < W; l++) h[o][l] += c * w[i][l];
            }
    }
}

void dt_l2p_leaf(const dt_tables *t, const double z[3], const double *L, dt_soa s, int i0, int n,
                 double *g, double *hm, double *work)
{
    double (*w)[W] = (double (*)[W])work;
    int j0, l;
    for (j0 = 0; j0 < n; j0 += W) {
        double e[3][W], gl[3][W] = {{0}}, h[6][W] = {{0}};
        for (l = 0; l < W; l++) {
            int j = i0 + j0 + l, in = j0 + l < n;
            e[0][l] = in ? s.x[j] - z[0] : 0.0;
            e[1][l] = in ? s.y[j] - z[1] : 0.0;
            e[2][l] = in ? s.z[j] - z[2] : 0.0;
        }
        powers(t, (const double (*)[W])e, t->p - 1, w);
        l2p_terms(t, L, (const double (*)[W])w, gl, h);
        for (l = 0; l < W && j0 + l < n; l++) {
            int j = i0 + j0 + l;
            double mx = s.mx[j], my = s.my[j], mz = s.mz[j];
            g[3 * j] += gl[0][l];
            g[3 * j + 1] += gl[1][l];
            g[3 * j + 2] += gl[2][l];
            hm[3 * j] += h[0][l] * mx + h[1][l] * my + h[2][l] * mz;
            hm[3 * j + 1] += h[1][l] * mx + h[3][l] * my + h[4][l] * mz;
            hm[3 * j + 2] += h[2][l] * mx + h[4][l] * my + h[5][l] * mz;
        }
    }
}
