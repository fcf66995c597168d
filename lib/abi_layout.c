/*
 * abi_layout.c - compile-time checks of the ABI policy (magdyn(7), ABI
 * POLICY): every extensible public struct ends in its reserved slots, and
 * on LP64 targets (where the released layouts were recorded) keeps its
 * released size, so that a new field taking the place of slots cannot
 * change a size or move a field unnoticed.  A new field that needs more
 * room than the slots it replaces, or a layout change anywhere else, fails
 * to compile here.
 */
#include <stddef.h>
#include <stdint.h>
#include <magdyn.h>

/* The slots are the struct's last member, with no padding after them. */
#define TAIL_LAST(T) \
    _Static_assert(offsetof(T, reserved) + sizeof(((T *)0)->reserved) == sizeof(T), \
                   #T ": the reserved slots end the struct")

TAIL_LAST(magdyn_world_params);
TAIL_LAST(magdyn_magnet);
TAIL_LAST(magdyn_collision);
TAIL_LAST(magdyn_world_stats);
TAIL_LAST(magdyn_gas_params);
TAIL_LAST(magdyn_gas_observables);
TAIL_LAST(magdyn_impulse_params);
TAIL_LAST(magdyn_impulse_stats);
TAIL_LAST(magdyn_ode_params);
TAIL_LAST(magdyn_ode_stats);
TAIL_LAST(magdyn_sleep_params);
TAIL_LAST(magdyn_toi_result);

_Static_assert(sizeof(magdyn_reserved) == 8 || sizeof(void *) > 8,
               "a slot holds a double, a long long or a pointer");

#if UINTPTR_MAX == 0xffffffffffffffffu && defined(__LP64__)
/* The sizes of libmagdyn.so.1 on LP64 (x86-64, AArch64). */
#define SIZE(T, n) _Static_assert(sizeof(T) == (n), #T ": the released size")
SIZE(magdyn_world_params, 336);
SIZE(magdyn_magnet, 200);
SIZE(magdyn_collision, 512);
SIZE(magdyn_world_stats, 168);
SIZE(magdyn_gas_params, 88);
SIZE(magdyn_gas_observables, 200);
SIZE(magdyn_impulse_params, 112);
SIZE(magdyn_impulse_stats, 56);
SIZE(magdyn_ode_params, 88);
SIZE(magdyn_ode_stats, 56);
SIZE(magdyn_sleep_params, 56);
SIZE(magdyn_toi_result, 88);
/* The frozen value types (they never grow; a new need is a new type). */
SIZE(magdyn_vec2, 16);
SIZE(magdyn_vec3, 24);
SIZE(magdyn_quat, 32);
SIZE(magdyn_mat3, 72);
SIZE(magdyn_obb, 80);
SIZE(magdyn_rect, 40);
SIZE(magdyn_cuboid, 104);
SIZE(magdyn_disc, 48);
SIZE(magdyn_rotor, 80);
SIZE(magdyn_rough_disc, 64);
SIZE(magdyn_sat_result, 48);
SIZE(magdyn_rect_sat_result, 40);
SIZE(magdyn_manifold, 328);
SIZE(magdyn_body, 168);
SIZE(magdyn_body_load, 64);
SIZE(magdyn_contact, 592);
#endif
