/* test_status.c - status names, version. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <magdyn.h>
#include "testutil.h"

START_TEST(every_status_has_a_distinct_name)
{
    magdyn_status all[] = {MAGDYN_OK, MAGDYN_EINVAL, MAGDYN_ENONFINITE, MAGDYN_ENOMEM,
                           MAGDYN_ESTATE, MAGDYN_EOVERLAP, MAGDYN_ENORM, MAGDYN_ENOCONV,
                           MAGDYN_ERANGE, MAGDYN_EBUDGET, MAGDYN_ECANCELED};
    size_t n = sizeof all / sizeof all[0], i, j;
    for (i = 0; i < n; i++) {
        const char *s = magdyn_strerror(all[i]);
        ck_assert_ptr_nonnull(s);
        ck_assert_str_ne(s, "unknown status");
        for (j = 0; j < i; j++) ck_assert_str_ne(s, magdyn_strerror(all[j]));
    }
    ck_assert_int_eq(MAGDYN_OK, 0);
    ck_assert_str_eq(magdyn_strerror((magdyn_status)-999), "unknown status");
}
END_TEST

START_TEST(version_matches_macros)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%d.%d.%d", MAGDYN_VERSION_MAJOR, MAGDYN_VERSION_MINOR,
             MAGDYN_VERSION_PATCH);
    ck_assert_str_eq(magdyn_version(), buf);
    ck_assert_str_eq(magdyn_version(), MAGDYN_VERSION_STRING);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("status");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, every_status_has_a_distinct_name);
    tcase_add_test(tc, version_matches_macros);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
