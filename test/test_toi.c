/*
 * test_toi.c - layer 2: time of impact of two moving boxes.
 * Each case has a closed-form contact time from elementary geometry: a
 * face, edge or corner of a box at constant velocity reaching a plane face
 * (t = gap / speed), and a spinning bar whose corner (at radius R and angle
 * phi = atan(w/L) from the bar's axis) reaches a face at x = d when
 * R cos(theta - phi) = d.  A separation tolerance tol maps to a time
 * tolerance tol / (rate at which the separation falls), to first order.
 * Conservative advancement after Mirtich, "Timewarp rigid body simulation",
 * SIGGRAPH 2000; Illinois regula falsi after Dowell and Jarratt, BIT 11
 * (1971).
 */
#include <check.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

static const magdyn_vec3 zero3 = {0, 0, 0};

static magdyn_obb box(magdyn_vec3 c, magdyn_quat q, magdyn_vec3 half)
{
    magdyn_obb o;
    o.center = c;
    o.orientation = q;
    o.half = half;
    return o;
}

static magdyn_obb unit_cube(double x, double y, double z)
{ return box(magdyn_v3(x, y, z), magdyn_quat_identity(), magdyn_v3(0.5, 0.5, 0.5)); }

/* A pose callback for translation at constant velocity (no rotation). */
typedef struct {
    magdyn_obb a, b;
    magdyn_vec3 va;
    int calls, fail_at;  /* fail_at > 0: the fail_at-th call returns MAGDYN_ESTATE */
    int nan_at;          /* nan_at > 0: the nan_at-th call gives a NaN centre */
} slide;

static magdyn_status slide_pose(void *user, double t, magdyn_obb *a, magdyn_obb *b)
{
    slide *s = user;
    s->calls++;
    if (s->fail_at > 0 && s->calls == s->fail_at) return MAGDYN_ESTATE;
    *a = s->a;
    a->center = magdyn_vec3_madd(s->a.center, t, s->va);
    *b = s->b;
    if (s->nan_at > 0 && s->calls == s->nan_at) a->center.x = NAN;
    return MAGDYN_OK;
}

static magdyn_toi_result sentinel(void)
{
    magdyn_toi_result r;
    memset(&r, 0x5a, sizeof r);
    return r;
}

static int untouched(const magdyn_toi_result *r)
{
    magdyn_toi_result s = sentinel();
    return memcmp(r, &s, sizeof s) == 0;
}

START_TEST(face_to_face)
{
    /* unit cubes, gap g, a closing at v along -x: contact at g / v */
    double g = 0.1, v = 2.0, tol = 1e-6;
    magdyn_obb a = unit_cube(1.0 + g, 0, 0), b = unit_cube(0, 0, 0);
    magdyn_toi_result r;
    ck_assert_int_eq(magdyn_toi_screw(&a, magdyn_v3(-v, 0, 0), zero3, &b, zero3, zero3, 1.0, tol, &r),
                     MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_double_le(fabs(r.t - g / v), tol / v);
    ck_assert_double_le(fabs(r.separation), tol);
    ck_assert_double_eq_tol(r.normal.x, 1.0, 1e-12);
    /* the bound is the exact closing speed: one step lands at tol / 2 */
    ck_assert_int_eq(r.iterations, 2);
    ck_assert_double_eq_tol(r.separation, 0.5 * tol, 1e-12);
}
END_TEST

START_TEST(face_to_face_end_bracket)
{
    /* without a bound: the end of [0, 0.06] is 0.02 deep; the separation is
       linear in t, so the first secant lands on the root */
    double g = 0.1, v = 2.0, tol = 1e-6;
    slide s;
    magdyn_toi_result r;
    memset(&s, 0, sizeof s);
    s.a = unit_cube(1.0 + g, 0, 0);
    s.b = unit_cube(0, 0, 0);
    s.va = magdyn_v3(-v, 0, 0);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0.0, 0.06, tol, 0.0, &r), MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_double_le(fabs(r.t - g / v), tol / v);
    ck_assert_double_le(fabs(r.separation), tol);
    ck_assert_int_eq(r.iterations, 3);
    ck_assert_int_eq(r.iterations, s.calls);
    /* an end within tol of touching is the hit itself */
    s.calls = 0;
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0.0, g / v, tol, 0.0, &r), MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_double_eq(r.t, g / v);
    ck_assert_int_eq(r.iterations, 2);
    /* and an end still apart is no hit */
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0.0, 0.04, tol, 0.0, &r), MAGDYN_OK);
    ck_assert_int_eq(r.hit, 0);
    ck_assert(isinf(r.t));
    ck_assert_double_eq_tol(r.separation, g - v * 0.04, 1e-12);
}
END_TEST

/* the rotation taking unit vector from onto unit vector to */
static magdyn_quat turn_onto(magdyn_vec3 from, magdyn_vec3 to)
{
    return magdyn_quat_from_axis_angle(magdyn_vec3_cross(from, to), acos(magdyn_vec3_dot(from, to)));
}

/* a cube of half side h in orientation q falls at v onto a slab whose top
   is z = 0; its lowest point starts at height g: contact at g / v */
static void check_fall(magdyn_quat q, double depth)
{
    double h = 0.05, g = 0.3, v = 4.0, tol = 1e-7;
    magdyn_obb cube = box(magdyn_v3(0.01, -0.02, depth + g), q, magdyn_v3(h, h, h));
    magdyn_obb slab = box(magdyn_v3(0, 0, -0.5), magdyn_quat_identity(), magdyn_v3(5, 5, 0.5));
    magdyn_toi_result r;
    ck_assert_int_eq(magdyn_toi_screw(&cube, magdyn_v3(0, 0, -v), zero3, &slab, zero3, zero3, 1.0,
                                      tol, &r),
                     MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_double_le(fabs(r.t - g / v), tol / v);
    ck_assert_double_le(fabs(r.separation), tol);
    ck_assert_double_eq_tol(r.normal.z, 1.0, 1e-9);
}

START_TEST(corner_and_edge_first)
{
    double h = 0.05, s3 = 1.0 / sqrt(3.0), s2 = 1.0 / sqrt(2.0);
    /* corner first: body diagonal (-1,-1,-1) pointing down, lowest corner h sqrt 3 below */
    check_fall(turn_onto(magdyn_v3(-s3, -s3, -s3), magdyn_v3(0, 0, -1)), h * sqrt(3.0));
    /* edge first: 45 degrees about x, lowest edge h sqrt 2 below */
    check_fall(turn_onto(magdyn_v3(0, -s2, -s2), magdyn_v3(0, 0, -1)), h * sqrt(2.0));
    /* face first */
    check_fall(magdyn_quat_identity(), h);
}
END_TEST

START_TEST(tipping_cube)
{
    /* a cube turning about x at w, centre fixed at height z0 above a slab
       (top z = 0): its lowest point is h (cos th + sin th) = sqrt2 h
       sin(th + pi/4) below the centre, th the angle turned, so it touches at
       th* = asin(z0 / (sqrt2 h)) - pi/4; the separation falls at
       sqrt2 h cos(th* + pi/4) w there */
    double h = 0.5, z0 = 0.6, w = 2.0, tol = 1e-8;
    double th = asin(z0 / (sqrt(2.0) * h)) - 0.25 * MAGDYN_PI;
    double rate = sqrt(2.0) * h * cos(th + 0.25 * MAGDYN_PI) * w;
    magdyn_obb cube = box(magdyn_v3(0, 0, z0), magdyn_quat_identity(), magdyn_v3(h, h, h));
    magdyn_obb slab = box(magdyn_v3(0, 0, -1), magdyn_quat_identity(), magdyn_v3(5, 5, 1));
    magdyn_toi_result r;
    ck_assert_int_eq(magdyn_toi_screw(&cube, zero3, magdyn_v3(w, 0, 0), &slab, zero3, zero3, 1.0,
                                      tol, &r),
                     MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_double_le(fabs(r.t - th / w), 1.01 * tol / rate);
    ck_assert_double_le(fabs(r.separation), tol);
}
END_TEST

/* The spinning bar: half extents (L, wb, wb), centred at the origin, turning
   about z at -omega from along +y; the fixed box fills x >= d. */
typedef struct { double L, wb, d, omega; } bar_case;

static magdyn_obb bar_box(const bar_case *c)
{
    return box(zero3, magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.5 * MAGDYN_PI),
               magdyn_v3(c->L, c->wb, c->wb));
}

static magdyn_obb wall_box(const bar_case *c)
{ return box(magdyn_v3(c->d + 1.0, 0, 0), magdyn_quat_identity(), magdyn_v3(1, 5, 5)); }

/* the bar's corner reaches x = d: R cos(theta - phi) = d, theta from pi/2 down */
static double bar_time(const bar_case *c, double *rate)
{
    double R = hypot(c->L, c->wb), phi = atan2(c->wb, c->L), th = phi + acos(c->d / R);
    *rate = c->omega * sqrt(R * R - c->d * c->d);
    return (0.5 * MAGDYN_PI - th) / c->omega;
}

static magdyn_status bar_pose(void *user, double t, magdyn_obb *a, magdyn_obb *b)
{
    const bar_case *c = user;
    *a = bar_box(c);
    a->orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), -c->omega * t),
                                     a->orientation);
    *b = wall_box(c);
    return MAGDYN_OK;
}

START_TEST(spinning_bar)
{
    bar_case c = {1.0, 0.05, 0.6, 3.0};
    double tol = 1e-7, rate, t = bar_time(&c, &rate);
    magdyn_obb a = bar_box(&c), b = wall_box(&c);
    magdyn_toi_result r;
    ck_assert_int_eq(magdyn_toi_screw(&a, zero3, magdyn_v3(0, 0, -c.omega), &b, zero3, zero3, 1.0, tol,
                                      &r),
                     MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_double_le(fabs(r.t - t), 1.01 * tol / rate);
    ck_assert_double_le(fabs(r.separation), tol);
    ck_assert_double_eq_tol(r.normal.x, -1.0, 1e-9);
    /* the same through a callback without a bound, bracketed by the end
       of [0, 0.35], where the bar is deep in the wall */
    ck_assert_int_eq(magdyn_toi(bar_pose, &c, 0.0, 0.35, tol, 0.0, &r), MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_double_le(fabs(r.t - t), 1.01 * tol / rate);
    ck_assert_double_le(fabs(r.separation), tol);
    /* bisection alone needs about log2(0.35 rate / tol) = 23 halvings to
       reach tol; the regula falsi converges superlinearly */
    ck_assert_int_le(r.iterations, 15);
}
END_TEST

START_TEST(thin_plate_passes_through)
{
    /* plates 2 mm thick, a at z = 1 falling at 100 m/s through b at z = 0:
       they overlap only for t in [0.998, 1.002] / 100, both ends of
       [0, 0.03] are far apart */
    double v = 100.0, tol = 1e-7, th = 0.001;
    slide s;
    magdyn_toi_result r;
    memset(&s, 0, sizeof s);
    s.a = box(magdyn_v3(0, 0, 1), magdyn_quat_identity(), magdyn_v3(1, 1, th));
    s.b = box(zero3, magdyn_quat_identity(), magdyn_v3(1, 1, th));
    s.va = magdyn_v3(0, 0, -v);
    ck_assert_int_eq(magdyn_toi_screw(&s.a, s.va, zero3, &s.b, zero3, zero3, 0.03, tol, &r), MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_double_le(fabs(r.t - (1.0 - 2 * th) / v), tol / v);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0.0, 0.03, tol, v, &r), MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_double_le(fabs(r.t - (1.0 - 2 * th) / v), tol / v);
    /* no bound: only the ends are seen, and the touch is missed */
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0.0, 0.03, tol, 0.0, &r), MAGDYN_OK);
    ck_assert_int_eq(r.hit, 0);
    ck_assert(isinf(r.t));
    ck_assert_double_eq_tol(r.separation, 2.0 - 2 * th, 1e-12);
}
END_TEST

START_TEST(glancing_miss)
{
    /* a unit cube slides along x past another, its face 10 tol above the
       other's top face: the separation never falls below 10 tol */
    double tol = 1e-5;
    magdyn_obb a = unit_cube(-3, 1.0 + 10 * tol, 0), b = unit_cube(0, 0, 0);
    magdyn_toi_result r;
    ck_assert_int_eq(magdyn_toi_screw(&a, magdyn_v3(6, 0, 0), zero3, &b, zero3, zero3, 1.0, tol, &r),
                     MAGDYN_OK);
    ck_assert_int_eq(r.hit, 0);
    ck_assert(isinf(r.t));
    ck_assert_double_eq_tol(r.separation, 2.0, 1e-12);
    /* with a clearance of tol / 2 it is a hit, where the faces start to overlap */
    a.center.y = 1.0 + 0.5 * tol;
    ck_assert_int_eq(magdyn_toi_screw(&a, magdyn_v3(6, 0, 0), zero3, &b, zero3, zero3, 1.0, tol, &r),
                     MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_double_le(r.separation, tol);
    ck_assert_double_ge(r.separation, 0.5 * tol - 1e-15);
    /* the x gap 2 - 6t is the separation until it falls to tol / 2 (below
       that the y gap is); the step with the exact speed bound lands within
       [tol / 2, tol] */
    ck_assert_double_ge(r.t, (2.0 - tol) / 6.0 - 1e-12);
    ck_assert_double_le(r.t, (2.0 - 0.5 * tol) / 6.0 + 1e-12);
}
END_TEST

START_TEST(contact_at_start)
{
    slide s;
    magdyn_toi_result r;
    memset(&s, 0, sizeof s);
    s.a = unit_cube(-1.0, 0, 0);
    s.b = unit_cube(0, 0, 0);
    s.va = magdyn_v3(1, 0, 0);   /* at t = 2 touching at x = 1, and moving apart */
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 2.0, 3.0, 1e-9, 5.0, &r), MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_double_eq(r.t, 2.0);
    ck_assert_int_eq(r.iterations, 1);
    s.a = unit_cube(0.9, 0, 0);  /* 0.1 deep */
    s.va = zero3;
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0.0, 1.0, 1e-9, 0.0, &r), MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_double_eq(r.t, 0.0);
    ck_assert_double_eq_tol(r.separation, -0.1, 1e-12);
    /* an empty interval: its one time decides */
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 1.0, 1.0, 1e-9, 1.0, &r), MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    s.a = unit_cube(1.5, 0, 0);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 1.0, 1.0, 1e-9, 1.0, &r), MAGDYN_OK);
    ck_assert_int_eq(r.hit, 0);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 1.0, 1.0, 1e-9, 0.0, &r), MAGDYN_OK);
    ck_assert_int_eq(r.hit, 0);
}
END_TEST

/* a at x = 2 (1 m apart) before t = 0.5, at x = 0.5 (0.5 deep) from then on */
static magdyn_status jump_pose(void *user, double t, magdyn_obb *a, magdyn_obb *b)
{
    (void)user;
    *a = unit_cube(t < 0.5 ? 2.0 : 0.5, 0, 0);
    *b = unit_cube(0, 0, 0);
    return MAGDYN_OK;
}

START_TEST(jump_ends_at_last_time_apart)
{
    /* a separation that jumps has no root: the bracket shrinks to 1e-15 of
       the interval around the jump and its left end, still apart, is the hit */
    magdyn_toi_result r;
    ck_assert_int_eq(magdyn_toi(jump_pose, NULL, 0.0, 1.0, 1e-9, 0.0, &r), MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_double_lt(r.t, 0.5);
    ck_assert_double_ge(r.t, 0.5 - 1e-15);
    ck_assert_double_eq_tol(r.separation, 1.0, 1e-12);
    ck_assert_int_le(r.iterations, 2 + 4 * 50);
}
END_TEST

START_TEST(callback_status)
{
    slide s;
    magdyn_toi_result r = sentinel();
    memset(&s, 0, sizeof s);
    s.a = unit_cube(2.0, 0, 0);
    s.b = unit_cube(0, 0, 0);
    s.va = magdyn_v3(-1, 0, 0);
    s.fail_at = 3;
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0.0, 2.0, 1e-9, 10.0, &r), MAGDYN_ESTATE);
    ck_assert(untouched(&r));
    s.calls = 0;
    s.fail_at = 0;
    s.nan_at = 2;
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0.0, 2.0, 1e-9, 0.0, &r), MAGDYN_ENONFINITE);
    ck_assert(untouched(&r));
    s.calls = 0;
    s.nan_at = 0;
    s.b.half.z = 0.0;
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0.0, 2.0, 1e-9, 0.0, &r), MAGDYN_EINVAL);
    ck_assert(untouched(&r));
}
END_TEST

START_TEST(bad_input)
{
    slide s;
    magdyn_toi_result r = sentinel();
    magdyn_obb a = unit_cube(2, 0, 0), b = unit_cube(0, 0, 0), bad = b;
    magdyn_vec3 v = magdyn_v3(-1, 0, 0), nanv = magdyn_v3(0, NAN, 0);
    memset(&s, 0, sizeof s);
    s.a = a;
    s.b = b;
    s.va = v;
    ck_assert_int_eq(magdyn_toi(NULL, &s, 0, 1, 1e-9, 1, &r), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0, 1, 1e-9, 1, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 1, 0, 1e-9, 1, &r), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0, 1, 0.0, 1, &r), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0, 1, -1e-9, 1, &r), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0, 1, 1e-9, -1, &r), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, NAN, 1, 1e-9, 1, &r), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0, INFINITY, 1e-9, 1, &r), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0, 1, NAN, 1, &r), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0, 1, 1e-9, NAN, &r), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0, 1, 1e-9, INFINITY, &r), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, -1e308, 1e308, 1e-9, 1, &r), MAGDYN_ENONFINITE);
    ck_assert_int_eq(s.calls, 0);

    ck_assert_int_eq(magdyn_toi_screw(NULL, v, zero3, &b, zero3, zero3, 1, 1e-9, &r), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_toi_screw(&a, v, zero3, NULL, zero3, zero3, 1, 1e-9, &r), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_toi_screw(&a, v, zero3, &b, zero3, zero3, 1, 1e-9, NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_toi_screw(&a, v, zero3, &b, zero3, zero3, -1, 1e-9, &r), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_toi_screw(&a, v, zero3, &b, zero3, zero3, 1, 0, &r), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_toi_screw(&a, nanv, zero3, &b, zero3, zero3, 1, 1e-9, &r), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_toi_screw(&a, v, nanv, &b, zero3, zero3, 1, 1e-9, &r), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_toi_screw(&a, v, zero3, &b, nanv, zero3, 1, 1e-9, &r), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_toi_screw(&a, v, zero3, &b, zero3, nanv, 1, 1e-9, &r), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_toi_screw(&a, magdyn_v3(1e308, 0, 0), zero3, &b, magdyn_v3(-1e308, 0, 0),
                                      zero3, 1, 1e-9, &r),
                     MAGDYN_ENONFINITE);
    bad.half.y = -1;
    ck_assert_int_eq(magdyn_toi_screw(&a, v, zero3, &bad, zero3, zero3, 1, 1e-9, &r), MAGDYN_EINVAL);
    bad = b;
    bad.orientation = magdyn_q(1.1, 0, 0, 0);
    ck_assert_int_eq(magdyn_toi_screw(&bad, v, zero3, &b, zero3, zero3, 1, 1e-9, &r), MAGDYN_ENORM);
    bad.orientation = magdyn_q(INFINITY, 0, 0, 0);
    ck_assert_int_eq(magdyn_toi_screw(&a, v, zero3, &bad, zero3, zero3, 1, 1e-9, &r), MAGDYN_ENONFINITE);
    ck_assert(untouched(&r));
}
END_TEST

START_TEST(absurd_bound_does_not_converge)
{
    /* a 1 m gap closing at 1 m/s in [0, 1] s, with a bound of 1e30 m/s:
       each step is the floor of 1e-15 s, and the step limit ends it */
    slide s;
    magdyn_toi_result r = sentinel();
    memset(&s, 0, sizeof s);
    s.a = unit_cube(2.0, 0, 0);
    s.b = unit_cube(0, 0, 0);
    s.va = magdyn_v3(-1, 0, 0);
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0.0, 1.0, 1e-9, 1e30, &r), MAGDYN_ENOCONV);
    ck_assert(untouched(&r));
    ck_assert_int_eq(s.calls, 1000001);
    /* a generous but sane bound (1e4 times the true speed) still finds it */
    s.calls = 0;
    ck_assert_int_eq(magdyn_toi(slide_pose, &s, 0.0, 1.0, 1e-9, 1e4, &r), MAGDYN_OK);
    ck_assert_int_eq(r.hit, 1);
    ck_assert_double_le(fabs(r.t - 1.0), 1e-9);
}
END_TEST

static Suite *toi_suite(void)
{
    Suite *s = suite_create("toi");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, face_to_face);
    tcase_add_test(tc, face_to_face_end_bracket);
    tcase_add_test(tc, corner_and_edge_first);
    tcase_add_test(tc, tipping_cube);
    tcase_add_test(tc, spinning_bar);
    tcase_add_test(tc, thin_plate_passes_through);
    tcase_add_test(tc, glancing_miss);
    tcase_add_test(tc, contact_at_start);
    tcase_add_test(tc, jump_ends_at_last_time_apart);
    tcase_add_test(tc, callback_status);
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, absurd_bound_does_not_converge);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(toi_suite(), CK_FORK);
}
