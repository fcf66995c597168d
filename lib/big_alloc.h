/*
 * big_alloc.h - private to libmagdyn (layer 0): memory for arrays of
 * megabytes that are read at random (a gas's particles and events, a
 * tree's expansions).  Every block is 64-byte aligned (one record per
 * cache line where records are 64 bytes).  A block of at least a huge
 * page is aligned to one (2 MiB), rounded up to whole huge pages and
 * marked for huge pages where the system offers them (Linux
 * madvise(MADV_HUGEPAGE); advice only, refused quietly elsewhere): its
 * random reads then miss the TLB rarely, and it takes one page fault per
 * 2 MiB instead of one per 4 KiB.  Blocks are freed with free().
 */
#ifndef MAGDYN_BIG_ALLOC_H
#define MAGDYN_BIG_ALLOC_H

#include <stddef.h>

/* A block of at least bytes (1 for 0), not cleared; NULL when out of
 * memory. */
void *md_big_alloc(size_t bytes);

/*
 * *mem replaced by a new block of bytes whose first keep bytes are those
 * of the old one (keep <= bytes; *mem may be NULL when keep is 0), the old
 * one freed.  Returns 1, or 0 out of memory with *mem untouched.
 */
int md_big_grow(void **mem, size_t keep, size_t bytes);

#endif
