/*
 * test_cuboid_field_batch.c - layer 1, private: the field of a box at many
 * points at once (lib/cuboid_field.h, mdc_cuboid_field_n), which the face
 * cubature integrates.  Reference: magdyn_cuboid_field point by point
 * (itself checked against 60-digit arithmetic in test_cuboid_field): the
 * batch must give every point its bits, whatever the batch's length and
 * the point's place in it, on every path (closed form near, series far,
 * thin boxes, boxes scaled into range, bad points among good ones).
 */
#include <check.h>
#include <math.h>
#include <string.h>
#include <magdyn.h>
#include "testutil.h"
#include "../lib/cuboid_field.h"

#define MAXN 37

static int same_vec(magdyn_vec3 a, magdyn_vec3 b)
{
    if (isnan(a.x) && isnan(b.x) && isnan(a.y) && isnan(b.y) && isnan(a.z) && isnan(b.z)) return 1;
    return memcmp(&a, &b, sizeof a) == 0;
}

/* n points around a box of half extents h: near, on its faces and edges,
 * inside, and far (the series) */
static void points(test_rng *r, magdyn_vec3 h, int n, magdyn_vec3 *p)
{
    double L = magdyn_vec3_norm(h);
    int i, k;
    for (i = 0; i < n; i++) {
        double u = test_rng_uniform(r);
        p[i] = test_rng_vec3(r, -2.0 * L, 2.0 * L);
        if (u < 0.1) p[i] = magdyn_vec3_scale(p[i], 200.0);             /* far: the series */
        else if (u < 0.3)
            for (k = 0; k < 3; k++) {                                   /* on a face plane or edge line */
                double hk = k == 0 ? h.x : (k == 1 ? h.y : h.z);
                if (test_rng_uniform(r) < 0.5) {
                    if (k == 0) p[i].x = hk;
                    else if (k == 1) p[i].y = -hk;
                    else p[i].z = hk;
                }
            }
        else if (u < 0.4) p[i] = magdyn_v3(0.3 * p[i].x * h.x / L, 0.3 * p[i].y * h.y / L, 0.3 * p[i].z * h.z / L);
    }
}

START_TEST(batch_gives_the_one_point_bits)
{
    static const magdyn_vec3 boxes[5] = {{0.005, 0.003, 0.0025}, {0.005, 0.005, 0.005}, {0.01, 0.002, 1e-9},
                                         {3e200, 1e200, 2e200}, {2e-160, 1e-160, 3e-160}};
    static const magdyn_vec3 pols[4] = {{0.3, -0.2, 1.1}, {0, 0, 1.2}, {1.2, 0, 0}, {0, 0.7, -0.4}};
    test_rng r = {0x5eed00f1u};
    magdyn_vec3 p[MAXN], b[MAXN];
    int bx, pl, n, i;
    for (bx = 0; bx < 5; bx++)
        for (pl = 0; pl < 4; pl++)
            for (n = 1; n <= MAXN; n += 1 + (n > 12) * 3) {
                points(&r, boxes[bx], n, p);
                if (n > 5) p[n / 2].y = NAN;                     /* a bad point among good ones */
                mdc_cuboid_field_n(boxes[bx], pols[pl], p, n, b);
                for (i = 0; i < n; i++) {
                    magdyn_vec3 one = magdyn_cuboid_field(boxes[bx], pols[pl], p[i]);
                    ck_assert_msg(same_vec(one, b[i]), "box %d, J %d, n %d, point %d: (%a %a %a) vs (%a %a %a)", bx,
                                  pl, n, i, b[i].x, b[i].y, b[i].z, one.x, one.y, one.z);
                }
            }
}
END_TEST

START_TEST(bad_boxes_give_nan_everywhere)
{
    magdyn_vec3 p[3] = {{0.01, 0, 0}, {0, 0.02, 0}, {0, 0, 0.03}}, b[3];
    static const magdyn_vec3 half[3] = {{0.005, -0.005, 0.005}, {0.005, NAN, 0.005}, {1.0, 1.0, 1e-90}};
    int k, i;
    for (k = 0; k < 3; k++) {
        mdc_cuboid_field_n(half[k], magdyn_v3(0, 0, 1.2), p, 3, b);
        for (i = 0; i < 3; i++) ck_assert(isnan(b[i].x) && isnan(b[i].y) && isnan(b[i].z));
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cuboid_field_batch");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 60);
    tcase_add_test(c, batch_gives_the_one_point_bits);
    tcase_add_test(c, bad_boxes_give_nan_everywhere);
    suite_add_tcase(s, c);
    return test_run_suite(s, CK_NOFORK);
}
