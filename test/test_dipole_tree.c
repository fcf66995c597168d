/*
 * test_dipole_tree.c - the fast multipole sum (magdyn_dipoles_interact_tree)
 * against the direct sum and the pair formulas it approximates: the
 * documented per-dipole bound (error <= tol times the sum of the pair
 * terms' magnitudes) for fields, forces, torques and energy, on random
 * sets, chains of touching magnets and two clusters in sparse halos; Newton's third law
 * in sum (sum F = 0 for an isolated set, within the bound); F = -grad U of
 * the tree's own energy by central differences (within the bound); bad
 * input.  References: Jackson, Classical Electrodynamics, 3rd ed., eqs.
 * (5.56), (5.69), (5.71), (5.72) through magdyn_dipole_force_torque and
 * magdyn_dipole_energy, whose own tests check them.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

enum { RANDOM, CHAINS, CLUSTERED, HALO };

/* n, or n/5 under MAGDYN_TEST_QUICK (still several leaves of 128) */
static int set_size(int n)
{
    return test_count(100) < 100 ? n / 5 : n;
}

static void make_set(int kind, int n, magdyn_vec3 *p, magdyn_vec3 *m, uint64_t seed)
{
    test_rng r = {seed};
    int i, len = 24;
    for (i = 0; i < n; i++) {
        if (kind == RANDOM) {
            p[i] = test_rng_vec3(&r, 0, 0.02);
            m[i] = test_rng_vec3(&r, -0.1, 0.1);
        } else if (kind == CHAINS) {
            /* lines of touching 1 mm cubes along x, moments along the line */
            int row = i / len;
            p[i] = magdyn_v3(1e-3 * (i % len), 2e-3 * (row % 7) + 1e-5 * test_rng_uniform(&r),
                             2e-3 * (row / 7) + 1e-5 * test_rng_uniform(&r));
            m[i] = magdyn_v3(0.08, 0.004 * test_rng_uniform(&r), -0.004 * test_rng_uniform(&r));
        } else if (kind == HALO) {
            /* two thirds in a cluster 100 times narrower than the halo:
             * the worst case the parameters were measured on */
            double w = i % 3 ? 1e-3 : 0.1;
            p[i] = test_rng_vec3(&r, -w, w);
            m[i] = test_rng_vec3(&r, -1e-3, 1e-3);
        } else {
            /* a dense cluster, a sparse halo 1000 times wider */
            double w = i % 3 ? 1e-4 : 0.1;
            p[i] = test_rng_vec3(&r, -w, w);
            m[i] = test_rng_vec3(&r, -1e-3, 1e-3);
        }
    }
}

/* the exact sums and the sums of the magnitudes of their terms */
typedef struct {
    magdyn_vec3 *b, *f, *t;
    double *sb, *sf, *st;
    double u, su;
} exact;

static void exact_sums(int n, const magdyn_vec3 *p, const magdyn_vec3 *m, exact *e)
{
    int i, j;
    e->b = calloc((size_t)n, sizeof *e->b); e->f = calloc((size_t)n, sizeof *e->f);
    e->t = calloc((size_t)n, sizeof *e->t);
    e->sb = calloc((size_t)n, sizeof *e->sb); e->sf = calloc((size_t)n, sizeof *e->sf);
    e->st = calloc((size_t)n, sizeof *e->st);
    ck_assert(e->b && e->f && e->t && e->sb && e->sf && e->st);
    e->u = e->su = 0;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            magdyn_vec3 b, f, t;
            if (i == j) continue;
            b = magdyn_dipole_field(m[j], magdyn_vec3_sub(p[i], p[j]));
            magdyn_dipole_force_torque(m[j], p[j], m[i], p[i], &f, &t);
            e->b[i] = magdyn_vec3_add(e->b[i], b);
            e->f[i] = magdyn_vec3_add(e->f[i], f);
            e->t[i] = magdyn_vec3_add(e->t[i], t);
            e->sb[i] += magdyn_vec3_norm(b);
            e->sf[i] += magdyn_vec3_norm(f);
            e->st[i] += magdyn_vec3_norm(t);
            if (j > i) {
                double u = magdyn_dipole_energy(m[j], p[j], m[i], p[i]);
                e->u += u;
                e->su += fabs(u);
            }
        }
}

static void exact_free(exact *e)
{
    free(e->b); free(e->f); free(e->t); free(e->sb); free(e->sf); free(e->st);
}

/* worst error over the bound of each output of the tree at tol; sum F too */
static void check_bound(int kind, int n0, double tol)
{
    int n = set_size(n0);
    magdyn_vec3 *p = malloc(sizeof *p * (size_t)n), *m = malloc(sizeof *m * (size_t)n);
    magdyn_vec3 *b = malloc(sizeof *b * (size_t)n), *f = malloc(sizeof *f * (size_t)n);
    magdyn_vec3 *t = malloc(sizeof *t * (size_t)n), fsum = {0, 0, 0};
    double u, wb = 0, wf = 0, wt = 0, fscale = 0;
    exact e;
    int i;
    ck_assert(p && m && b && f && t);
    make_set(kind, n, p, m, 1000 + (uint64_t)kind);
    exact_sums(n, p, m, &e);
    ck_assert_int_eq(magdyn_dipoles_interact_tree(n, p, m, tol, b, f, t, &u), MAGDYN_OK);
    for (i = 0; i < n; i++) {
        wb = fmax(wb, magdyn_vec3_dist(b[i], e.b[i]) / e.sb[i]);
        wf = fmax(wf, magdyn_vec3_dist(f[i], e.f[i]) / e.sf[i]);
        wt = fmax(wt, magdyn_vec3_dist(t[i], e.t[i]) / e.st[i]);
        fsum = magdyn_vec3_add(fsum, f[i]);
        fscale += e.sf[i];
    }
    ck_assert_msg(wb <= tol && wf <= tol && wt <= tol,
                  "set %d, n %d, tol %g: worst error/bound B %g F %g T %g", kind, n, tol,
                  wb / tol, wf / tol, wt / tol);
    ck_assert_msg(fabs(u - e.u) <= tol * e.su, "set %d tol %g: energy error %g of the bound",
                  kind, tol, fabs(u - e.u) / (tol * e.su));
    /* Newton's third law in sum: the exact forces of an isolated set sum to 0 */
    ck_assert_msg(magdyn_vec3_norm(fsum) <= tol * fscale, "set %d tol %g: |sum F| %g of the bound",
                  kind, tol, magdyn_vec3_norm(fsum) / (tol * fscale));
    exact_free(&e);
    free(p); free(m); free(b); free(f); free(t);
}

START_TEST(bound_random)
{
    check_bound(RANDOM, 1500, 1e-3);
    check_bound(RANDOM, 1500, 1e-5);
    check_bound(RANDOM, 1500, 1e-7);
}
END_TEST

START_TEST(bound_chains)
{
    check_bound(CHAINS, 1500, 1e-3);
    check_bound(CHAINS, 1500, 1e-6);
    check_bound(CHAINS, 1500, 1e-7);
}
END_TEST

START_TEST(bound_clustered)
{
    check_bound(CLUSTERED, 1200, 1e-2);
    check_bound(CLUSTERED, 1200, 1e-4);
    check_bound(CLUSTERED, 1200, 1e-6);
}
END_TEST

START_TEST(bound_halo)
{
    check_bound(HALO, 3000, 1e-3);
    check_bound(HALO, 3000, 1e-6);
}
END_TEST

/* Below one leaf (64 dipoles) the tree sums directly: the direct sum's
 * results to rounding, whatever tol. */
START_TEST(small_sets_are_direct)
{
    enum { N = 50 };
    magdyn_vec3 p[N], m[N], f[N], t[N], f2[N], t2[N];
    double u, u2;
    int i;
    make_set(RANDOM, N, p, m, 7);
    ck_assert_int_eq(magdyn_dipoles_interact(N, p, m, f, t, &u), MAGDYN_OK);
    ck_assert_int_eq(magdyn_dipoles_interact_tree(N, p, m, 1e-2, NULL, f2, t2, &u2), MAGDYN_OK);
    for (i = 0; i < N; i++) {
        ck_assert(magdyn_vec3_dist(f[i], f2[i]) <= 1e-13 * magdyn_vec3_norm(f[i]));
        ck_assert(magdyn_vec3_dist(t[i], t2[i]) <= 1e-13 * magdyn_vec3_norm(t[i]));
    }
    ck_assert(fabs(u - u2) <= 1e-13 * fabs(u));
    /* one dipole feels nothing */
    ck_assert_int_eq(magdyn_dipoles_interact_tree(1, p, m, 1e-6, NULL, f2, t2, &u2), MAGDYN_OK);
    ck_assert(magdyn_vec3_norm(f2[0]) == 0 && magdyn_vec3_norm(t2[0]) == 0 && u2 == 0);
}
END_TEST

/*
 * F = -grad U of the tree's own energy: moving dipole k by h along y, the
 * tree's energies differ by -F_k.y 2h.  The tree's energy and force are
 * each within the bound of the exact ones, whose derivatives agree, so
 * the difference is within 2 tol S_k (S_k the sum of the pair-force
 * magnitudes) plus the difference quotient's rounding and truncation.
 */
START_TEST(force_is_minus_grad_tree_energy)
{
    enum { NMAX = 1000 };
    static magdyn_vec3 p[NMAX], m[NMAX], f[NMAX];
    static const double tols[] = {1e-4, 1e-6};
    const int N = set_size(NMAX);
    exact e;
    unsigned it;
    make_set(CHAINS, N, p, m, 99);
    exact_sums(N, p, m, &e);
    for (it = 0; it < 2; it++) {
        double tol = tols[it], h = 1e-8;
        int k;
        ck_assert_int_eq(magdyn_dipoles_interact_tree(N, p, m, tol, NULL, f, NULL, NULL), MAGDYN_OK);
        for (k = 0; k < N; k += N / 9) {
            magdyn_vec3 keep = p[k];
            double up, um, fd, slack;
            p[k].y = keep.y + h;
            ck_assert_int_eq(magdyn_dipoles_interact_tree(N, p, m, tol, NULL, NULL, NULL, &up),
                             MAGDYN_OK);
            p[k].y = keep.y - h;
            ck_assert_int_eq(magdyn_dipoles_interact_tree(N, p, m, tol, NULL, NULL, NULL, &um),
                             MAGDYN_OK);
            p[k] = keep;
            fd = -(up - um) / (2 * h);
            /* rounding of the summed energy over 2h, and the O(h^2) term */
            slack = 1e-15 * e.su / h + 1e-6 * e.sf[k];
            ck_assert_msg(fabs(fd - f[k].y) <= 2 * tol * e.sf[k] + slack,
                          "tol %g dipole %d: -dU/dy %g vs F.y %g (bound %g)", tol, k, fd, f[k].y,
                          2 * tol * e.sf[k] + slack);
        }
    }
    exact_free(&e);
}
END_TEST

START_TEST(bad_input)
{
    enum { N = 200 };
    static magdyn_vec3 p[N], m[N], f[N], b[N], t[N];
    double u = 7;
    int i;
    make_set(RANDOM, N, p, m, 5);
    for (i = 0; i < N; i++) f[i] = b[i] = t[i] = magdyn_v3(7, 7, 7);
    ck_assert_int_eq(magdyn_dipoles_interact_tree(-1, p, m, 1e-6, b, f, t, &u), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_dipoles_interact_tree(N, NULL, m, 1e-6, b, f, t, &u), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_dipoles_interact_tree(N, p, NULL, 1e-6, b, f, t, &u), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_dipoles_interact_tree(N, p, m, 0.0, b, f, t, &u), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_dipoles_interact_tree(N, p, m, 0.5, b, f, t, &u), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_dipoles_interact_tree(N, p, m, NAN, b, f, t, &u), MAGDYN_ENONFINITE);
    p[17].z = NAN;
    ck_assert_int_eq(magdyn_dipoles_interact_tree(N, p, m, 1e-6, b, f, t, &u), MAGDYN_ENONFINITE);
    p[17].z = 0.01;
    m[33].x = INFINITY;
    ck_assert_int_eq(magdyn_dipoles_interact_tree(N, p, m, 1e-6, b, f, t, &u), MAGDYN_ENONFINITE);
    m[33].x = 0.01;
    /* coincident dipoles, in a big set (the tree finds them in one leaf) */
    p[150] = p[3];
    ck_assert_int_eq(magdyn_dipoles_interact_tree(N, p, m, 1e-6, b, f, t, &u), MAGDYN_EOVERLAP);
    /* every dipole at one point: the tree stops splitting at its depth limit */
    for (i = 0; i < N; i++) p[i] = magdyn_v3(0.1, 0.2, 0.3);
    ck_assert_int_eq(magdyn_dipoles_interact_tree(N, p, m, 1e-6, b, f, t, &u), MAGDYN_EOVERLAP);
    for (i = 0; i < N; i++)
        ck_assert(f[i].x == 7 && f[i].z == 7 && b[i].y == 7 && t[i].z == 7);
    ck_assert(u == 7);
    /* zero dipoles: nothing to do, no energy */
    ck_assert_int_eq(magdyn_dipoles_interact_tree(0, NULL, NULL, 1e-6, NULL, NULL, NULL, &u),
                     MAGDYN_OK);
    ck_assert(u == 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("dipole_tree");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, bound_random);
    tcase_add_test(tc, bound_chains);
    tcase_add_test(tc, bound_clustered);
    tcase_add_test(tc, bound_halo);
    tcase_add_test(tc, small_sets_are_direct);
    tcase_add_test(tc, force_is_minus_grad_tree_energy);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite(), CK_FORK);
}
