/*
 * bench/collide.c - ns per pair of box collision tests on one set of 10^6
 * random pairs: magdyn_obb_sat and the batched magdyn_obb_overlap_pairs
 * (all pairs in one call) against ODE's dBoxTouchesBox, and
 * magdyn_obb_manifold and the batched magdyn_obb_manifold_pairs (256 pairs
 * a call into a buffer that stays in cache) against ODE's dBoxBox (up to 8
 * contacts), with the agreement of their answers (the batches must match
 * the single calls to the last bit); and magdyn_obb_contacts one pair at a
 * time against the batched magdyn_obb_contacts_pairs (CCHUNK pairs a call,
 * MAGDYN_MAX_PAIR_MANIFOLDS slots a pair, as the stepper calls it).  Printed, not asserted.  Without ODE
 * only the libmagdyn figures are printed.
 *
 * Boxes: half extents uniform in [0.1, 1] m, uniformly random orientations,
 * centres uniform in [-1.3, 1.3]^3 m (about a third of the pairs overlap).
 * Two runs: "cached", 10^6 (or argv[1]) random pairs drawn from a pool of 2048 boxes
 * (the working set of a stepper, in cache: measures computation), and
 * "streaming", 10^6 pairs of 2 x 10^6 distinct boxes (160 MB for libmagdyn,
 * 320 MB for ODE: mostly measures memory).  ODE is given its rotation
 * matrices ready made (converted before timing), while libmagdyn converts
 * its quaternions and validates its input on every call; a second ODE
 * timing converts quaternions with dQtoR in the loop too.  Each of 7
 * repetitions times every loop back to back; times are medians, ratios
 * medians of the per-repetition ratios (the machine may be shared).  For
 * deterministic instruction counts run a smaller set under callgrind:
 *     valgrind --tool=callgrind bench/.libs/collide 20000
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <math.h>
#include <time.h>
#include <magdyn.h>
#include "../test/same_manifold.h"
#ifdef HAVE_ODE
#include <ode/ode.h>
#endif

#define REPEAT 7

/* pairs per run: 10^6, or the first argument (e.g. 20000 under
 * valgrind --tool=callgrind, for instruction counts) */
static long NPAIRS = 1000000;

static uint64_t rng_state = 0x0DE0DE0DE0ULL;
static double rnd(void)
{
    rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}
static double rrange(double lo, double hi) { return lo + (hi - lo) * rnd(); }
static magdyn_quat rquat(void)
{
    double u1 = rnd(), u2 = rnd(), u3 = rnd(), a = sqrt(1.0 - u1), b = sqrt(u1);
    return magdyn_q(a * sin(2.0 * MAGDYN_PI * u2), a * cos(2.0 * MAGDYN_PI * u2),
                    b * sin(2.0 * MAGDYN_PI * u3), b * cos(2.0 * MAGDYN_PI * u3));
}
static magdyn_obb rbox(void)
{
    magdyn_obb b;
    b.center = magdyn_v3(rrange(-1.3, 1.3), rrange(-1.3, 1.3), rrange(-1.3, 1.3));
    b.orientation = rquat();
    b.half = magdyn_v3(rrange(0.1, 1), rrange(0.1, 1), rrange(0.1, 1));
    return b;
}

/* processor time of this process [s]: time spent descheduled on a shared
 * machine does not count */
static double now(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

static volatile double sink;
static magdyn_obb *P;          /* the pool */
static long NPOOL;             /* its size */
static int *IA, *IB;           /* pair k is P[IA[k]], P[IB[k]] */
static int *PAIRS, *OUT;       /* the same pairs interleaved, for magdyn_obb_overlap_pairs */
#define CHUNK 256              /* manifolds per magdyn_obb_manifold_pairs call (an L1-sized buffer) */
static magdyn_manifold MOUT[CHUNK];
#define CCHUNK 64              /* pairs per magdyn_obb_contacts_pairs call */
static magdyn_manifold COUT[CCHUNK * MAGDYN_MAX_PAIR_MANIFOLDS];
static int CCOUNT[CCHUNK];

/* magdyn_obb_manifold_pairs over all pairs, CHUNK at a time [ns/pair] */
static double time_manifold_pairs(void)
{
    double t0 = now(), acc = 0.0;
    long k;
    int j;
    for (k = 0; k < NPAIRS; k += CHUNK) {
        int n = NPAIRS - k < CHUNK ? (int)(NPAIRS - k) : CHUNK;
        magdyn_obb_manifold_pairs((int)NPOOL, P, n, PAIRS + 2 * k, 0.0, MOUT);
        for (j = 0; j < n; j++) acc += MOUT[j].count;
    }
    sink = acc;
    return (now() - t0) / (double)NPAIRS * 1e9;
}

/* magdyn_obb_contacts_pairs over all pairs, CCHUNK at a time [ns/pair] */
static double time_contacts_pairs(void)
{
    double t0 = now(), acc = 0.0;
    long k;
    int j;
    for (k = 0; k < NPAIRS; k += CCHUNK) {
        int n = NPAIRS - k < CCHUNK ? (int)(NPAIRS - k) : CCHUNK;
        magdyn_obb_contacts_pairs((int)NPOOL, P, n, PAIRS + 2 * k, 0.0, COUT, MAGDYN_MAX_PAIR_MANIFOLDS, CCOUNT);
        for (j = 0; j < n; j++) acc += CCOUNT[j];
    }
    sink = acc;
    return (now() - t0) / (double)NPAIRS * 1e9;
}

/* how many pairs magdyn_obb_contacts_pairs answers as magdyn_obb_contacts,
 * byte for byte */
static long contacts_agree(void)
{
    long same = 0, k;
    for (k = 0; k < NPAIRS; k += CCHUNK) {
        int n = NPAIRS - k < CCHUNK ? (int)(NPAIRS - k) : CCHUNK, j, e;
        magdyn_obb_contacts_pairs((int)NPOOL, P, n, PAIRS + 2 * k, 0.0, COUT, MAGDYN_MAX_PAIR_MANIFOLDS, CCOUNT);
        for (j = 0; j < n; j++) {
            magdyn_manifold m1[MAGDYN_MAX_PAIR_MANIFOLDS];
            int c = magdyn_obb_contacts(&P[PAIRS[2 * (k + j)]], &P[PAIRS[2 * (k + j) + 1]], 0.0, m1,
                                        MAGDYN_MAX_PAIR_MANIFOLDS), ok = c == CCOUNT[j];
            for (e = 0; ok && e < c; e++)
                ok = memcmp(&m1[e], &COUT[j * MAGDYN_MAX_PAIR_MANIFOLDS + e], sizeof m1[e]) == 0;
            same += ok;
        }
    }
    return same;
}

/* the median of REPEAT runs (the machine may be shared) */
static double median(double *t, int n)
{
    int i, j;
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double x = t[j]; t[j] = t[j - 1]; t[j - 1] = x;
        }
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* One timed pass over the pairs [ns/pair] (processor time). */
#define TIME_PASS(result, ...)                                               \
    do {                                                                    \
        double t0_ = now(), acc_ = 0.0; long i;                             \
        for (i = 0; i < NPAIRS; i++) { __VA_ARGS__ }                        \
        sink = acc_;                                                        \
        (result) = (now() - t0_) / (double)NPAIRS * 1e9;                    \
    } while (0)

/* the median over the repetitions of x[r] / y[r]: each repetition times
 * every loop back to back, so a ratio compares loops run within a second of
 * each other, which load from other processes disturbs less */
static double median_ratio(const double *x, const double *y)
{
    double q[REPEAT];
    int r;
    for (r = 0; r < REPEAT; r++) q[r] = x[r] / y[r];
    return median(q, REPEAT);
}

#ifdef HAVE_ODE
typedef struct { dVector3 p, side; dMatrix3 R; dQuaternion q; } ode_box;
static ode_box *OP;
static void to_ode(const magdyn_obb *b, ode_box *o)
{
    magdyn_mat3 m = magdyn_quat_to_mat3(b->orientation);
    int i, j;
    o->q[0] = b->orientation.w; o->q[1] = b->orientation.x;
    o->q[2] = b->orientation.y; o->q[3] = b->orientation.z;
    o->p[0] = b->center.x; o->p[1] = b->center.y; o->p[2] = b->center.z; o->p[3] = 0;
    o->side[0] = 2 * b->half.x; o->side[1] = 2 * b->half.y; o->side[2] = 2 * b->half.z; o->side[3] = 0;
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++) o->R[4 * i + j] = m.m[i][j];
        o->R[4 * i + 3] = 0;
    }
}
#endif

enum { T_FLAG, T_BATCH, T_FULL, T_MAN, T_MANB, T_CON, T_CONB, T_TOUCH, T_BOXBOX, T_TOUCH_Q, T_BOXBOX_Q, T_N };

static void run(const char *label)
{
    long i, overlaps = 0;
    double ts[T_N][REPEAT] = {{0.0}}, med[T_N], t_sat_flag, t_sat_full, t_man;
    int r, k;
#define A_ P[IA[i]]
#define B_ P[IB[i]]
#define OA_ OP[IA[i]]
#define OB_ OP[IB[i]]
    for (i = 0; i < NPAIRS; i++) overlaps += magdyn_obb_sat(&A_, &B_, NULL);
    printf("%s: %ld random box pairs, %ld overlapping (%.1f%%), median of %d runs\n",
           label, NPAIRS, overlaps, 100.0 * overlaps / NPAIRS, REPEAT);

    for (r = 0; r < REPEAT; r++) {
        TIME_PASS(ts[T_FLAG][r], acc_ += magdyn_obb_sat(&A_, &B_, NULL););
        {
            double t0 = now();
            magdyn_obb_overlap_pairs((int)NPOOL, P, (int)NPAIRS, PAIRS, OUT);
            ts[T_BATCH][r] = (now() - t0) / (double)NPAIRS * 1e9;
        }
        TIME_PASS(ts[T_FULL][r], { magdyn_sat_result s_; magdyn_obb_sat(&A_, &B_, &s_); acc_ += s_.separation; });
        TIME_PASS(ts[T_MAN][r], { magdyn_manifold m_; acc_ += magdyn_obb_manifold(&A_, &B_, 0.0, &m_); });
        ts[T_MANB][r] = time_manifold_pairs();
        TIME_PASS(ts[T_CON][r], {
            magdyn_manifold m_[MAGDYN_MAX_PAIR_MANIFOLDS];
            acc_ += magdyn_obb_contacts(&A_, &B_, 0.0, m_, MAGDYN_MAX_PAIR_MANIFOLDS);
        });
        ts[T_CONB][r] = time_contacts_pairs();
#ifdef HAVE_ODE
        TIME_PASS(ts[T_TOUCH][r], acc_ += dBoxTouchesBox(OA_.p, OA_.R, OA_.side, OB_.p, OB_.R, OB_.side););
        TIME_PASS(ts[T_BOXBOX][r], {
            dContactGeom c[8]; dVector3 n; dReal depth; int code;
            acc_ += dBoxBox(OA_.p, OA_.R, OA_.side, OB_.p, OB_.R, OB_.side, n, &depth, &code,
                            8, c, (int)sizeof(dContactGeom));
        });
        /* the same with ODE converting the quaternions too, as libmagdyn does */
        TIME_PASS(ts[T_TOUCH_Q][r], {
            dMatrix3 Ra, Rb;
            dQtoR(OA_.q, Ra); dQtoR(OB_.q, Rb);
            acc_ += dBoxTouchesBox(OA_.p, Ra, OA_.side, OB_.p, Rb, OB_.side);
        });
        TIME_PASS(ts[T_BOXBOX_Q][r], {
            dContactGeom c[8]; dVector3 n; dReal depth; int code;
            dMatrix3 Ra, Rb;
            dQtoR(OA_.q, Ra); dQtoR(OB_.q, Rb);
            acc_ += dBoxBox(OA_.p, Ra, OA_.side, OB_.p, Rb, OB_.side, n, &depth, &code,
                            8, c, (int)sizeof(dContactGeom));
        });
#endif
    }
    for (k = 0; k < T_N; k++) {
        double tmp[REPEAT];
        for (r = 0; r < REPEAT; r++) tmp[r] = ts[k][r];
        med[k] = median(tmp, REPEAT);
    }
    t_sat_flag = med[T_FLAG]; t_sat_full = med[T_FULL]; t_man = med[T_MAN];
    printf("  magdyn_obb_sat, overlap flag only (out = NULL): %6.1f ns/pair\n", t_sat_flag);
    {
        long same = 0;
        for (i = 0; i < NPAIRS; i++) same += OUT[i] == magdyn_obb_sat(&A_, &B_, NULL);
        printf("  magdyn_obb_overlap_pairs (4-8 pairs a vector):  %6.1f ns/pair   (answers as magdyn_obb_sat: %ld of %ld)\n",
               med[T_BATCH], same, NPAIRS);
    }
    printf("  magdyn_obb_sat, separation and normal:          %6.1f ns/pair\n", t_sat_full);
#ifdef HAVE_ODE
    {
        long agree_flag = 0, agree_count = 0, both = 0, agree_normal = 0, agree_depth = 0;
        long pts_ours = 0, pts_ode = 0, ode_deeper = 0;
        /* the answers */
        for (i = 0; i < NPAIRS; i++) {
            dContactGeom c[8]; dVector3 n; dReal depth; int code;
            magdyn_manifold m;
            magdyn_sat_result s;
            int ours = magdyn_obb_sat(&A_, &B_, &s);
            int theirs = dBoxTouchesBox(OA_.p, OA_.R, OA_.side, OB_.p, OB_.R, OB_.side);
            int cm = magdyn_obb_manifold(&A_, &B_, 0.0, &m);
            int co = dBoxBox(OA_.p, OA_.R, OA_.side, OB_.p, OB_.R, OB_.side, n, &depth, &code,
                             8, c, (int)sizeof(dContactGeom));
            agree_flag += ours == theirs;
            agree_count += (cm > 0) == (co > 0);
            if (cm > 0 && co > 0) {
                both++;
                pts_ours += cm;
                pts_ode += co;
                /* dBoxBox's normal points from box 1 (a) to box 2 (b) */
                if (-(n[0] * m.normal.x + n[1] * m.normal.y + n[2] * m.normal.z) > 1.0 - 1e-9) agree_normal++;
                if (fabs(depth + s.separation) <= 1e-9) agree_depth++;
                /* ODE prefers face axes by a factor 1.05: where it differs
                 * its penetration should be the larger (not the minimum) */
                else if (depth > -s.separation) ode_deeper++;
            }
        }
        printf("  ODE dBoxTouchesBox:                             %6.1f ns/pair   (ratio flag %.2f, batch %.2f, full %.2f)\n",
               med[T_TOUCH], median_ratio(ts[T_FLAG], ts[T_TOUCH]), median_ratio(ts[T_BATCH], ts[T_TOUCH]),
               median_ratio(ts[T_FULL], ts[T_TOUCH]));
        printf("  magdyn_obb_manifold (margin 0):                 %6.1f ns/pair\n", t_man);
        {
            long same = 0, kk;
            for (kk = 0; kk < NPAIRS; kk += CHUNK) {
                int n = NPAIRS - kk < CHUNK ? (int)(NPAIRS - kk) : CHUNK, j;
                magdyn_obb_manifold_pairs((int)NPOOL, P, n, PAIRS + 2 * kk, 0.0, MOUT);
                for (j = 0; j < n; j++) {
                    magdyn_manifold m1;
                    magdyn_obb_manifold(&P[PAIRS[2 * (kk + j)]], &P[PAIRS[2 * (kk + j) + 1]], 0.0, &m1);
                    same += same_manifold(&m1, &MOUT[j]);
                }
            }
            printf("  magdyn_obb_manifold_pairs (%d per call):       %6.1f ns/pair   (answers as magdyn_obb_manifold: %ld of %ld)\n",
                   CHUNK, med[T_MANB], same, NPAIRS);
        }
        printf("  ODE dBoxBox (8 contacts):                       %6.1f ns/pair   (ratio %.2f, batch %.2f)\n", med[T_BOXBOX],
               median_ratio(ts[T_MAN], ts[T_BOXBOX]), median_ratio(ts[T_MANB], ts[T_BOXBOX]));
        printf("  ODE with dQtoR for both boxes in the loop:      %6.1f ns/pair dBoxTouchesBox (ratio flag %.2f),\n"
               "                                                 %6.1f ns/pair dBoxBox (ratio %.2f)\n",
               med[T_TOUCH_Q], median_ratio(ts[T_FLAG], ts[T_TOUCH_Q]), med[T_BOXBOX_Q],
               median_ratio(ts[T_MAN], ts[T_BOXBOX_Q]));
        printf("  (ratios: medians over the runs of libmagdyn / ODE within each run)\n");
        printf("  answers: overlap flag agrees on %ld of %ld pairs; contact yes/no agrees on %ld;\n"
               "    of %ld pairs both touch: same normal (1e-9) %ld, same penetration (1e-9 m) %ld,\n"
               "    ODE's penetration larger than libmagdyn's minimum %ld (its face bias);\n"
               "    points per contact: libmagdyn %.2f (at most 4), ODE %.2f\n",
               agree_flag, NPAIRS, agree_count, both, agree_normal, agree_depth, ode_deeper,
               (double)pts_ours / (double)(both ? both : 1), (double)pts_ode / (double)(both ? both : 1));
    }
#else
    printf("  magdyn_obb_manifold (margin 0):                 %6.1f ns/pair\n", t_man);
    printf("  (ODE not found: no comparison)\n");
#endif
    printf("  magdyn_obb_contacts (margin 0, one at a time):  %6.1f ns/pair\n", med[T_CON]);
    printf("  magdyn_obb_contacts_pairs (%d per call):         %6.1f ns/pair   (ratio %.2f; answers as magdyn_obb_contacts: %ld of %ld)\n",
           CCHUNK, med[T_CONB], median_ratio(ts[T_CONB], ts[T_CON]), contacts_agree(), NPAIRS);
}

static int setup(long npool, int stream)
{
    long i;
    free(P);
    P = malloc((size_t)npool * sizeof *P);
    if (!P) return 0;
    for (i = 0; i < npool; i++) P[i] = rbox();
    NPOOL = npool;
    for (i = 0; i < NPAIRS; i++) {
        if (stream) {
            IA[i] = (int)(2 * i);
            IB[i] = (int)(2 * i + 1);
        } else {
            IA[i] = (int)(rnd() * (double)npool);
            do IB[i] = (int)(rnd() * (double)npool); while (IB[i] == IA[i]);
        }
        PAIRS[2 * i] = IA[i];
        PAIRS[2 * i + 1] = IB[i];
    }
#ifdef HAVE_ODE
    free(OP);
    OP = malloc((size_t)npool * sizeof *OP);
    if (!OP) return 0;
    for (i = 0; i < npool; i++) to_ode(&P[i], &OP[i]);
#endif
    return 1;
}

int main(int argc, char **argv)
{
    if (argc > 1) NPAIRS = strtol(argv[1], NULL, 10);
    if (NPAIRS < 1 || NPAIRS > 100000000) { fprintf(stderr, "usage: %s [pairs]\n", argv[0]); return 2; }
    IA = malloc((size_t)NPAIRS * sizeof *IA);
    IB = malloc((size_t)NPAIRS * sizeof *IB);
    PAIRS = malloc(2 * (size_t)NPAIRS * sizeof *PAIRS);
    OUT = malloc((size_t)NPAIRS * sizeof *OUT);
#ifdef HAVE_ODE
    dInitODE2(0);
#endif
    if (!IA || !IB || !PAIRS || !OUT || !setup(2048, 0)) { fprintf(stderr, "out of memory\n"); return 1; }
    run("bench/collide, cached (pool of 2048 boxes)");
    if (!setup(2L * NPAIRS, 1)) { fprintf(stderr, "out of memory\n"); return 1; }
    run("bench/collide, streaming (2e6 distinct boxes)");
#ifdef HAVE_ODE
    free(OP);
    dCloseODE();
#endif
    free(P);
    free(IA);
    free(IB);
    free(PAIRS);
    free(OUT);
    return 0;
}
