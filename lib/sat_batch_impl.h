/*
 * sat_batch_impl.h - private to libmagdyn (layer 1): what the batched box
 * tests share.  sat_batch.c tests many pairs for overlap, checks the
 * arguments of both batches and picks their vector path; the manifold batch
 * (layer 2) builds on it through contact_batch_impl.h.
 */
#ifndef MAGDYN_SAT_BATCH_IMPL_H
#define MAGDYN_SAT_BATCH_IMPL_H

#include <magdyn/sat.h>
#include "obb_core.h"
#include "lanes4.h"

/* the vector paths, narrowest first */
enum { BATCH_ISA_NONE, BATCH_ISA_AVX2, BATCH_ISA_AVX512 };

/* The path for a call's setting: the widest the processor has, lowered to
 * at most the one asked for (so every path can be tested and compared on
 * one machine; every path gives the same bits). */
int sat_batch_isa(magdyn_simd simd);

/* 1 when the batches take the setting simd */
int sat_batch_simd_ok(magdyn_simd simd);

/* MAGDYN_EINVAL unless the arrays and every index are good (out is only
 * checked for NULL); nothing is written. */
magdyn_status sat_batch_check_pairs(int nboxes, const magdyn_obb *boxes, int npairs, const int *pairs,
                                    const void *out);

#endif
