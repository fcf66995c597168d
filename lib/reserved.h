/*
 * reserved.h - the reserved slots at the end of the extensible public
 * structs (magdyn_reserved, the ABI policy in magdyn(7)).  Private.
 */
#ifndef MAGDYN_RESERVED_H
#define MAGDYN_RESERVED_H

#include <stdbool.h>
#include <stddef.h>
#include <magdyn/common.h>

/* All n slots zero, byte by byte (a slot's double -0.0 is not zero). */
static inline bool magdyn_reserved_zero(const magdyn_reserved *r, size_t n)
{
    const unsigned char *b = (const unsigned char *)r;
    size_t k;
    for (k = 0; k < n * sizeof *r; k++)
        if (b[k]) return false;
    return true;
}

/* The slots of the struct *s are all zero. */
#define MAGDYN_RESERVED_OK(s) \
    magdyn_reserved_zero((s)->reserved, sizeof (s)->reserved / sizeof (s)->reserved[0])

#endif
