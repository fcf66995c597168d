/*
 * contact_batch_impl.h - private to libmagdyn (layer 2): the manifold batch's
 * shared records.  contact_batch.c tests the pairs of a manifold batch in
 * blocks of four and sorts them by kind of contact, whose points
 * contact_batch_face.c and contact_batch_edge.c then work out, four pairs at
 * a time.
 */
#ifndef MAGDYN_CONTACT_BATCH_IMPL_H
#define MAGDYN_CONTACT_BATCH_IMPL_H

#include <magdyn/contact.h>
#include "sat_batch_impl.h"

#ifdef LANES4_AVAILABLE

/* how many blocks of four pairs the manifold batch tests before it finishes
 * the tests of the pairs within margin and clips them: their records
 * (704 B a block, 22 kB) and face_contacts's groups (20 kB) stay in L1.
 * 32 beats 16 by about 3.5% (fewer padded lanes in the passes); the lanes'
 * test states (800 B a block) live only in test_blocks's frame, which the
 * contact passes' frames reuse. */
#define SUB_BLOCKS 32

/*
 * What block4 (contact_batch.c) leaves for the contact passes, all four
 * lanes: the pair as obb_pair_of gives it and tb = t . b_j.
 */
typedef struct {
    v4 C[3][3], ta[3], tb[3], ha[3], hb[3], ka;
} blockrec;

/*
 * What block4 leaves for the end of the separating-axis test
 * (contact_batch.c alone): the edge numerators and squared lengths, and
 * the state of obb_sat_core (full = 1) after the face axes (sepmax, best,
 * axis, x); cand has bit k - 6 set for the edge axes k whose test
 * (obb_edge_step) passes with this x.  The edge steps only raise x, and
 * the test only gets stricter as x rises, so the other edge axes never
 * pass and the lane's remaining steps are those of cand alone.
 */
typedef struct {
    v4 num[9], len2[9];
    v4 sepmax, best, x, tol, scale;
    m4 axis, cand;
} blocktest;

/* A manifold batch's pairs k0 .. k0 + 4 nb - 1 and where they go: pair k
 * to man[k stride], its face contacts cut to cap points (4, as
 * magdyn_obb_manifold, or MAGDYN_MAX_CONTACTS, as obb_manifold_all); near
 * lists the positions (from k0) of the pairs whose bounding spheres are
 * within the margin, padded to whole blocks with copies of the last;
 * apart[k - k0] is set to 1 for a pair whose separating-axis test
 * (obb_sat_core, stop = margin) finds an axis beyond margin, else 0 (also
 * for bounding spheres apart, which the test skips).  From the blocks on, a
 * pair is named by its position s in near: block s >> 2, lane s & 3, pair
 * k0 + near[s]. */
typedef struct {
    const magdyn_obb *boxes;
    const int *pairs;
    int npairs, k0, cap, stride;
    double margin;
    magdyn_manifold *man;
    unsigned char *apart;
    int near[4 * SUB_BLOCKS + 3];
    const magdyn_obb *a[4 * SUB_BLOCKS + 3], *b[4 * SUB_BLOCKS + 3];   /* the boxes of the near pairs */
} man_batch;

#define MB_A(m, s) ((m)->a[s])
#define MB_B(m, s) ((m)->b[s])
#define MB_OUT(m, s) (&(m)->man[(size_t)((m)->k0 + (m)->near[s]) * (size_t)(m)->stride])

/*
 * The contact points of the n pairs at positions list[0 .. n - 1] of m,
 * their tests finished in R[position] (rec holds their blocks): the face
 * contacts (R's axis < 6) and the edge contacts, into their manifolds, the
 * same bits as magdyn_obb_manifold (m->cap 4) or obb_manifold_all.
 * Compiled for AVX2 and for AVX-512.
 */
void batch_face_contacts_avx2(const man_batch *m, const int *list, int n, const blockrec *rec, const obb_sat *R);
void batch_face_contacts_avx512(const man_batch *m, const int *list, int n, const blockrec *rec,
                                const obb_sat *R);
/* (R[position].nl is set on the way) */
void batch_edge_contacts_avx2(const man_batch *m, const int *list, int n, const blockrec *rec, obb_sat *R);
void batch_edge_contacts_avx512(const man_batch *m, const int *list, int n, const blockrec *rec, obb_sat *R);

#endif

#endif
