/*
 * kernel_clones.h - private: KERNEL_CLONES marks a vectorised kernel to be
 * compiled also for AVX-512 (x86-64-v4) and AVX2 + FMA (x86-64-v3); the
 * loader picks the widest clone the CPU supports (ifunc), so the library
 * stays baseline x86-64 while using the wider units.  GCC on x86-64 Linux
 * only: clang 14 exports the clone's resolver symbol, and under
 * ThreadSanitizer the instrumented resolver would run before the
 * sanitizer's runtime is up.  Not with --enable-bitstable (bitstable.h):
 * then one portable kernel, whatever the processor.
 */
#ifndef MAGDYN_KERNEL_CLONES_H
#define MAGDYN_KERNEL_CLONES_H

#include "bitstable.h"

#if !MAGDYN_BITSTABLE && defined(__x86_64__) && defined(__linux__) && defined(__has_attribute) && !defined(__clang__) \
    && !defined(__SANITIZE_THREAD__)
#  if __has_attribute(target_clones)
#    define KERNEL_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#  endif
#endif
#ifndef KERNEL_CLONES
#  define KERNEL_CLONES
#endif

#endif
