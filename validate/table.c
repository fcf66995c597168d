/* table.c - the one table of the validation run: rows kept in order, printed
 * at the end with a verdict each.  See validate.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "validate.h"

typedef struct {
    int section;              /* 1: a heading, only quantity is used */
    char quantity[96], source[64], tolerance[32];
    double ref, val, diff;
    vd_verdict verdict;
    int skipped;
} row;

static row *rows;
static size_t nrows, cap;

static row *push(void)
{
    if (nrows == cap) {
        size_t nc = cap ? 2 * cap : 64;
        row *r = realloc(rows, nc * sizeof *r);
        if (!r) { fprintf(stderr, "validate: out of memory\n"); exit(2); }
        rows = r;
        cap = nc;
    }
    memset(&rows[nrows], 0, sizeof rows[nrows]);
    return &rows[nrows++];
}

static double reldiff(double ref, double val)
{
    return ref != 0 ? (val - ref) / fabs(ref) : NAN;
}

void vd_section(const char *title)
{
    row *r = push();
    r->section = 1;
    snprintf(r->quantity, sizeof r->quantity, "%s", title);
}

void vd_custom(const char *quantity, const char *source, double ref, double val,
               double diff, const char *tolerance, vd_verdict verdict)
{
    row *r = push();
    snprintf(r->quantity, sizeof r->quantity, "%s", quantity);
    snprintf(r->source, sizeof r->source, "%s", source);
    snprintf(r->tolerance, sizeof r->tolerance, "%s", tolerance);
    r->ref = ref;
    r->val = val;
    r->diff = diff;
    r->verdict = verdict;
}

void vd_rel(const char *quantity, const char *source, double ref, double val, double tol)
{
    char t[32];
    double d = reldiff(ref, val);
    snprintf(t, sizeof t, "rel %.2g", tol);
    vd_custom(quantity, source, ref, val, d, t, fabs(d) <= tol ? VD_PASS : VD_FAIL);
}

void vd_abs(const char *quantity, const char *source, double ref, double val, double tol)
{
    char t[32];
    snprintf(t, sizeof t, "abs %.2g", tol);
    vd_custom(quantity, source, ref, val, reldiff(ref, val), t,
              fabs(val - ref) <= tol ? VD_PASS : VD_FAIL);
}

void vd_info(const char *quantity, const char *source, double ref, double val)
{
    vd_custom(quantity, source, ref, val, reldiff(ref, val), "none stated", VD_INFO);
}

void vd_skip(const char *quantity, const char *why)
{
    row *r = push();
    snprintf(r->quantity, sizeof r->quantity, "%s", quantity);
    snprintf(r->source, sizeof r->source, "%s", why);
    r->skipped = 1;
    r->verdict = VD_INFO;
}

static const char *word(vd_verdict v)
{
    return v == VD_PASS ? "PASS" : v == VD_FAIL ? "FAIL" : "INFO";
}

static void num(char *buf, size_t n, double x)
{
    if (isnan(x)) snprintf(buf, n, "-");
    else snprintf(buf, n, "%.6g", x);
}

int vd_print(void)
{
    size_t i;
    int fails = 0, pass = 0, info = 0;
    const char *rule = "-----------------------------------------------------------------------"
                       "-----------------------------------------------------------------------";
    printf("%-46s %-34s %12s %12s %9s %-13s %s\n", "quantity", "reference (source)",
           "reference", "libmagdyn", "rel.diff", "tolerance", "verdict");
    printf("%.*s\n", 46 + 34 + 12 + 12 + 9 + 13 + 13, rule);
    for (i = 0; i < nrows; i++) {
        const row *r = &rows[i];
        char a[32], b[32], d[32];
        if (r->section) { printf("%s\n", r->quantity); continue; }
        if (r->skipped) {
            printf("%-46s %-34s %12s %12s %9s %-13s %s\n", r->quantity, r->source, "-", "-", "-",
                   "-", "SKIP");
            continue;
        }
        num(a, sizeof a, r->ref);
        num(b, sizeof b, r->val);
        if (isnan(r->diff)) snprintf(d, sizeof d, "-");
        else snprintf(d, sizeof d, "%+.2e", r->diff);
        printf("%-46s %-34s %12s %12s %9s %-13s %s\n", r->quantity, r->source, a, b, d,
               r->tolerance, word(r->verdict));
        if (r->verdict == VD_FAIL) fails++;
        else if (r->verdict == VD_PASS) pass++;
        else info++;
    }
    printf("%.*s\n", 46 + 34 + 12 + 12 + 9 + 13 + 13, rule);
    printf("%d PASS, %d FAIL, %d INFO\n", pass, fails, info);
    return fails;
}

void vd_free(void)
{
    free(rows);
    rows = NULL;
    nrows = cap = 0;
}
