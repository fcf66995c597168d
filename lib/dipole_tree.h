/*
 * dipole_tree.h - private to the hierarchical dipole sum
 * (lib/dipole_tree*.c): Cartesian Taylor expansions of the potential of
 * point dipoles, and the leaf-to-leaf direct kernel.
 *
 * The potential is psi(x) = sum_j m_j . (x - y_j) / |x - y_j|^3 (4 pi times
 * the magnetic scalar potential; B = -mu0/(4 pi) grad psi, the force on m
 * is -mu0/(4 pi) H m with H the Hessian of psi).  Multi-indices k = (a,b,c)
 * of total degree |k| <= p are numbered by degree, then by b + c, then c:
 * dt_index(a,b,c).  With G(R) = 1/|R| and D_k = d^k G:
 *   multipole about c:  Q_k = sum_j sum_i m_ji (-1)^|k| d_j^(k-e_i)/(k-e_i)!,
 *                       d_j = y_j - c, so that psi(x) = sum_k Q_k D_k(x - c);
 *   local about z:      L_n = d^n psi(z) (the derivatives themselves).
 * A dipole source has Q_0 = 0 and the forces need no L_0, so index 0 is
 * carried but stays zero.  The expansions truncate at total degree p
 * (|n| + |k| <= p): the Taylor series of G in the difference of the two
 * cells' offsets, whose remainder falls as ((r_a + r_b)/|R|)^(p+1).
 */
#ifndef MAGDYN_DIPOLE_TREE_H
#define MAGDYN_DIPOLE_TREE_H

#include <stddef.h>
#include <magdyn/common.h>

static inline int dt_nterms(int p) { return (p + 1) * (p + 2) * (p + 3) / 6; }

static inline int dt_index(int a, int b, int c)
{
    int d = a + b + c, j = b + c;
    return d * (d + 1) * (d + 2) / 6 + j * (j + 1) / 2 + c;
}

/* one multiply-add of an expansion operator: out[o] += x[a] * y[b] */
typedef struct { int o, a, b; } dt_op;

typedef struct {
    int p, nterms;
    int *deg;          /* |k| */
    int (*comp)[3];    /* (a, b, c) */
    int (*up)[3];      /* index of k + e_i, -1 beyond degree p */
    int (*down)[3];    /* index of k - e_i, -1 where k_i = 0 */
    double *fact;      /* k! = a! b! c! */
    dt_op *m2m, *l2l;
    int n_m2m, n_l2l;
    /*
     * 1/r is harmonic, so sum_i D_(k + 2e_i) = 0: of the multi-indices of
     * one degree only those with k_z <= 1 are independent (2|k| + 1 of
     * them).  The M2L works on these alone ("reduced" indices, numbered
     * by degree): the multipole folded onto them (dt_fold), and the local
     * expansion computed on them and completed after (dt_complete); both
     * steps are exact within the truncation.  red[r] is the full index of
     * reduced index r >= 0 (degree >= 1); red_end[d] = the number of
     * reduced indices of degree <= d.  For a reduced n of degree <= p - 1,
     * k runs over reduced [0, red_end[p - |n|]) and
     * m2l_idx[m2l_start[n] + k] = the full index of n + k.
     */
    int nred, *red, *red_end, *m2l_start, *m2l_idx;
    int nfold, (*fold)[3];   /* (i, i - 2e_z + 2e_x, i - 2e_z + 2e_y), k_z >= 2, by falling k_z */
} dt_tables;

magdyn_status dt_tables_init(dt_tables *t, int p);
void dt_tables_free(dt_tables *t);

/* w_k = e^k / k! for |k| <= order (order <= p) */
void dt_powers(const dt_tables *t, const double e[3], int order, double *w);

/* add Qc (about c_child, folded: only its reduced entries are read) to Qp
 * (about c_parent), s = c_child - c_parent */
void dt_m2m(const dt_tables *t, const double s[3], const double *Qc, double *Qp, double *w);
/* the reduced multipole Qr (nred entries) of the full one Q (Q is changed) */
void dt_fold(const dt_tables *t, double *Q, double *Qr);
/* M2L both ways between cells A and B, R = z_A - z_B, from their reduced
 * multipoles: LA += Q_B D(R), LB += Q_A D(-R), on the reduced entries of
 * the full local expansions LA, LB only, truncated at |n| + |k| <= order
 * (order <= p: a closer pair needs the full p, a farther one less); for
 * nb <= DT_LANES pairs of one order at once (lib/dipole_tree_m2l.c),
 * R[l] the R of pair l.  A cell may appear in several lanes.  work:
 * dt_m2l_work(t) doubles */
#define DT_LANES 8
static inline size_t dt_m2l_work(const dt_tables *t)
{
    return (size_t)DT_LANES * (2 * (size_t)t->nterms + 4 * (size_t)t->nred);
}
void dt_m2l_batch(const dt_tables *t, int order, int nb, const double R[][3],
                  const double *const *QrA, const double *const *QrB, double *const *LA,
                  double *const *LB, double *work);
/* the entries with n_z >= 2 of a local expansion from the others */
void dt_complete(const dt_tables *t, double *L);
/* add Lp (about z_parent, complete) to the reduced entries of Lc (about
 * z_child), e = z_child - z_parent */
void dt_l2l(const dt_tables *t, const double e[3], const double *Lp, double *Lc, double *w);

/*
 * Direct sum from the sources (xs..mzs, ns entries) on the targets (xt..mzt,
 * nt entries): g += grad psi, hm += H m_target, both as above.  A source at
 * a target's own position is skipped (the self pair).
 */
typedef struct {
    const double *x, *y, *z, *mx, *my, *mz;
} dt_soa;
void dt_p2p(dt_soa src, int s0, int ns, dt_soa tgt, int t0, int nt, double *g, double *hm);
/* both ways between two disjoint ranges [a0, a0 + na) and [b0, b0 + nb) of
 * one set: each pair's geometry serves both dipoles (H m of the pair is
 * odd in the swap) */
void dt_p2p_mutual(dt_soa s, int a0, int na, int b0, int nb, double *g, double *hm);

/* for the n dipoles [i0, i0 + n) of s, DT_LANES at a time
 * (lib/dipole_tree_leaf.c): P2M adds their multipole about c to Q; L2P
 * adds the gradient g and the Hessian times m (hm) of the local expansion
 * L about z at each.  work: dt_leaf_work(t) doubles */
static inline size_t dt_leaf_work(const dt_tables *t)
{
    return (size_t)DT_LANES * 2 * (size_t)t->nterms;
}
void dt_p2m_leaf(const dt_tables *t, const double c[3], dt_soa s, int i0, int n, double *Q,
                 double *work);
void dt_l2p_leaf(const dt_tables *t, const double z[3], const double *L, dt_soa s, int i0, int n,
                 double *g, double *hm, double *work);



/* the whole sum with explicit parameters (lib/dipole_tree.c); the public
 * function picks them from its tolerance with mdt_params */
#include <magdyn/vec.h>
void mdt_params(double tol, double *theta, int *p, int *ncrit);
/* where the time goes [s], and the counts of cell pairs, for bench/ */
typedef struct {
    double build, up, traverse, m2l, p2p, down;
    double n_m2l, n_p2p, p2p_pairs;
    int ncells, p;
} mdt_stats;
magdyn_status mdt_sum(int n, const magdyn_vec3 *pos, const magdyn_vec3 *moment, double tol,
                      double theta, int p, int ncrit, magdyn_vec3 *field, magdyn_vec3 *force,
                      magdyn_vec3 *torque, double *energy, mdt_stats *stats);
#endif
