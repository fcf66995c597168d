/* big_alloc.c - see big_alloc.h. */
#define _POSIX_C_SOURCE 200809L
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE   /* MADV_HUGEPAGE */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "big_alloc.h"

#define LINE ((size_t)64)
#define HUGE_PAGE ((size_t)2 << 20)

void *md_big_alloc(size_t bytes)
{
    void *p;
    if (bytes < HUGE_PAGE) return aligned_alloc(LINE, ((bytes ? bytes : 1) + LINE - 1) / LINE * LINE);
    if (bytes > SIZE_MAX - HUGE_PAGE) return NULL;
    /* whole huge pages: the last one is huge too */
    bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    if (posix_memalign(&p, HUGE_PAGE, bytes) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

int md_big_grow(void **mem, size_t keep, size_t bytes)
{
    void *q = md_big_alloc(bytes);
    if (!q) return 0;
    if (keep > 0) memcpy(q, *mem, keep);
    free(*mem);
    *mem = q;
    return 1;
}
