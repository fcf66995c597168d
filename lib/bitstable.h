/*
 * bitstable.h - private, layer 0: MAGDYN_BITSTABLE is 1 when the library
 * is configured with --enable-bitstable (config.h), else 0.  Then every
 * result of the library is the same bits on any IEEE 754 binary64 machine:
 * its elementary functions are its own (detmath.h) and no kernel is chosen
 * by the processor's features (kernel_clones.h, sat_batch.c).  magdyn(7),
 * REPRODUCIBILITY.
 */
#ifndef MAGDYN_BITSTABLE_H
#define MAGDYN_BITSTABLE_H

#ifdef HAVE_CONFIG_H
#  include "config.h"
#endif

#if defined(MAGDYN_BITSTABLE) && MAGDYN_BITSTABLE
#  undef MAGDYN_BITSTABLE
#  define MAGDYN_BITSTABLE 1
#  include <float.h>
/* Wider intermediate precision (x87) would round each operation twice. */
#  if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#    error "--enable-bitstable needs double arithmetic evaluated in double (FLT_EVAL_METHOD 0; on 32-bit x86: -msse2 -mfpmath=sse)"
#  endif
#else
#  undef MAGDYN_BITSTABLE
#  define MAGDYN_BITSTABLE 0
#endif

#endif
