/*
 * dipole_tree_m2l.c - the hierarchical sum's multipole-to-local
 * translations, DT_LANES cell pairs of one order at a time, each pair in a
 * lane of its own.
 *
 * Why lanes of pairs: the Cartesian M2L of one pair reads the derivative
 * tensor through an index list (D_(n+k)), a gather that no compiler
 * vectorises; with the tensors of DT_LANES pairs interleaved, every read
 * of the list loads one full vector, and the recurrence for the tensor
 * vectorises the same way.
 *
 * The tensor: T_k = D_k / k! obeys (Duan & Krasny 2001, for 1/|R| as a
 * function of R)
 *   |k| R^2 T_k = -(2|k| - 1) sum_i R_i T_(k-e_i) - (|k| - 1) sum_i T_(k-2e_i);
 * the reduced n + k have k_z <= 2, and those need no others.  Both
 * directions share the gathered D_(n+k): with D_k(-R) = (-1)^|k| D_k(R),
 * L_B,n = (-1)^|n| sum_k ((-1)^|k| Q_A,k) D_(n+k)(R).
 * Built with -fno-math-errno and, with GCC on x86-64 Linux, also for
 * AVX2 + FMA and AVX-512, picked at load time.
 */
#include <math.h>
#include "dipole_tree.h"
#include "kernel_clones.h"

#define W DT_LANES

/* T_k of every lane by the recurrence, then D_k = T_k k! (|k| <= order, k_z <= 2) */
KERNEL_CLONES static void derivs(const dt_tables *t, int order, const double (*R)[W],
                                 double (*restrict D)[W], double (*restrict T)[W])
{
    double inv_r2[W];
    int i, e, l, nt = dt_nterms(order);
    for (l = 0; l < W; l++) {
        inv_r2[l] = 1.0 / (R[0][l] * R[0][l] + R[1][l] * R[1][l] + R[2][l] * R[2][l]);
        T[0][l] = sqrt(inv_r2[l]);
    }
    for (i = 1; i < nt; i++) {
        double d = t->deg[i], c1 = -(2 * d - 1) / d, c2 = -(d - 1) / d;
        double s1[W] = {0}, s2[W] = {0};
        if (t->comp[i][2] > 2) continue;
        for (e = 0; e < 3; e++) {
            int k1 = t->down[i][e], k2;
            if (k1 < 0) continue;
            k2 = t->down[k1][e];
            for (l = 0; l < W; l++) s1[l] += R[e][l] * T[k1][l];
            if (k2 >= 0)
                for (l = 0; l < W; l++) s2[l] += T[k2][l];
        }
        for (l = 0; l < W; l++) T[i][l] = (c1 * s1[l] + c2 * s2[l]) * inv_r2[l];
    }
    for (i = 0; i < nt; i++)
        for (l = 0; l < W; l++) D[i][l] = T[i][l] * t->fact[i];
}

/* for each reduced n: LA_n += sum_k QB_k D_(n+k), LB_n += sum_k QA'_k D_(n+k) */
KERNEL_CLONES static void contract(const dt_tables *t, int order, const double (*D)[W],
                                   const double (*QA)[W], const double (*QB)[W],
                                   double (*restrict LA)[W], double (*restrict LB)[W])
{
    int n, k, l;
    for (n = 0; n < t->nred && t->deg[t->red[n]] < order; n++) {
        const int *ix = t->m2l_idx + t->m2l_start[n];
        int kn = t->red_end[order - t->deg[t->red[n]]];
        double a0[W] = {0}, a1[W] = {0}, b0[W] = {0}, b1[W] = {0};
        for (k = 0; k + 1 < kn; k += 2) {
            const double *d0 = D[ix[k]], *d1 = D[ix[k + 1]];
            for (l = 0; l < W; l++) {
                a0[l] += QB[k][l] * d0[l];
                b0[l] += QA[k][l] * d0[l];
                a1[l] += QB[k + 1][l] * d1[l];
                b1[l] += QA[k + 1][l] * d1[l];
            }
        }
        if (k < kn) {
            const double *d0 = D[ix[k]];
            for (l = 0; l < W; l++) {
                a0[l] += QB[k][l] * d0[l];
                b0[l] += QA[k][l] * d0[l];
            }
        }
        for (l = 0; l < W; l++) {
            LA[n][l] = a0[l] + a1[l];
            LB[n][l] = b0[l] + b1[l];
        }
    }
}

void dt_m2l_batch(const dt_tables *t, int order, int nb, const double R[][3],
                  const double *const *QrA, const double *const *QrB, double *const *LA,
                  double *const *LB, double *work)
{
    size_t nt = (size_t)t->nterms, nr = (size_t)t->nred;
    double (*D)[W] = (double (*)[W])work, (*T)[W] = D + nt;
    double (*QA)[W] = T + nt, (*QB)[W] = QA + nr, (*OA)[W] = QB + nr, (*OB)[W] = OA + nr;
    double Rl[3][W];
    int nk = t->red_end[order], k, l, n;
    /* lanes past nb: a unit distance and no moments */
    for (l = 0; l < W; l++) {
        Rl[0][l] = l < nb ? R[l][0] : 1.0;
        Rl[1][l] = l < nb ? R[l][1] : 0.0;
        Rl[2][l] = l < nb ? R[l][2] : 0.0;
    }
    for (k = 0; k < nk; k++) {
        double s = (t->deg[t->red[k]] & 1) ? -1.0 : 1.0;
        for (l = 0; l < W; l++) {
            QA[k][l] = l < nb ? s * QrA[l][k] : 0.0;
            QB[k][l] = l < nb ? QrB[l][k] : 0.0;
        }
    }
    derivs(t, order, (const double (*)[W])Rl, D, T);
    contract(t, order, (const double (*)[W])D, (const double (*)[W])QA,
             (const double (*)[W])QB, OA, OB);
    for (n = 0; n < t->nred && t->deg[t->red[n]] < order; n++) {
        int o = t->red[n];
        double s = (t->deg[o] & 1) ? -1.0 : 1.0;
        for (l = 0; l < nb; l++) {
            LA[l][o] += OA[n][l];
            LB[l][o] += s * OB[n][l];
        }
    }
}
