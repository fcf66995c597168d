/*
 * test_big_alloc.c - layer 0, private: the allocator for big arrays
 * (lib/big_alloc.h).  What it promises: 64-byte alignment for every block,
 * 2 MiB alignment for blocks of a huge page and more, the kept bytes
 * carried over by md_big_grow, and a request that cannot be met answered
 * with NULL (0) and the caller's block untouched.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "../lib/big_alloc.h"

#define HUGE_PAGE ((size_t)2 << 20)

static int aligned(const void *p, size_t to) { return (uintptr_t)p % to == 0; }

START_TEST(alignment)
{
    static const size_t sizes[] = {0, 1, 63, 64, 65, 4096, HUGE_PAGE - 1, HUGE_PAGE, HUGE_PAGE + 1,
                                   3 * HUGE_PAGE + 17};
    size_t i;
    for (i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        unsigned char *p = md_big_alloc(sizes[i]);
        ck_assert_ptr_nonnull(p);
        ck_assert(aligned(p, 64));
        if (sizes[i] >= HUGE_PAGE) ck_assert(aligned(p, HUGE_PAGE));
        /* every byte asked for is there to write (ASan, valgrind watch) */
        memset(p, 0xA5, sizes[i]);
        if (sizes[i] > 0) ck_assert_int_eq(p[sizes[i] - 1], 0xA5);
        free(p);
    }
}
END_TEST

START_TEST(grow_keeps_the_bytes)
{
    void *mem = NULL;
    size_t n = 1000, i;
    double *d;
    ck_assert_int_eq(md_big_grow(&mem, 0, n * sizeof *d), 1);
    d = mem;
    for (i = 0; i < n; i++) d[i] = (double)i * 0.5;
    /* across the huge-page threshold */
    ck_assert_int_eq(md_big_grow(&mem, n * sizeof *d, HUGE_PAGE + n * sizeof *d), 1);
    d = mem;
    ck_assert(aligned(d, HUGE_PAGE));
    for (i = 0; i < n; i++) ck_assert(d[i] == (double)i * 0.5);
    free(mem);
}
END_TEST

START_TEST(impossible_request)
{
    void *mem = md_big_alloc(128), *before = mem;
    memset(mem, 7, 128);
    ck_assert_ptr_null(md_big_alloc(SIZE_MAX));
    ck_assert_ptr_null(md_big_alloc(SIZE_MAX - HUGE_PAGE / 2));
    ck_assert_int_eq(md_big_grow(&mem, 128, SIZE_MAX - 1), 0);
    ck_assert_ptr_eq(mem, before);
    ck_assert_int_eq(((unsigned char *)mem)[127], 7);
    free(mem);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("big_alloc");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, alignment);
    tcase_add_test(tc, grow_keeps_the_bytes);
    tcase_add_test(tc, impossible_request);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_NOFORK);
}
