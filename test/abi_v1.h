/*
 * abi_v1.h - the extensible structs of libmagdyn.so.1 as a program built
 * against that release laid them out (test_abi.c passes them to the
 * library).  A later release that gives a slot a meaning keeps this file
 * as it is: the assertions below check that every field of the old layout
 * still sits at its old offset and that the sizes have not changed.
 */
#ifndef MAGDYN_ABI_V1_H
#define MAGDYN_ABI_V1_H

#include <stddef.h>
#include <stdbool.h>
#include <magdyn.h>

typedef struct {
    double restitution, friction, rtol, atol, max_step;
    magdyn_magnet_model model;
    double model_tol;
    magdyn_vec3 gravity, field;
    double contact_tol, contact_margin, bounce_speed, contact_step;
    void (*on_collision)(const magdyn_collision *c, void *user);
    void *user;
    double sleep_speed, sleep_time, sleep_balance;
    int solver_iterations;
    double solver_tolerance;
    long long max_steps;
    bool (*cancel)(void *user);
    magdyn_reserved reserved[16];
} v1_world_params;

typedef struct {
    magdyn_vec3 half;
    double mass;
    magdyn_vec3 moment, position, velocity;
    magdyn_quat orientation;
    magdyn_vec3 omega;
    bool fixed;
    magdyn_reserved reserved[4];
} v1_magnet;

typedef struct {
    double time;
    int i, j;
    magdyn_contact_kind kind;
    magdyn_vec3 normal;
    int count;
    magdyn_vec3 point[8];
    magdyn_vec3 impulse[8];
    magdyn_vec3 total_impulse;
    double speed;
    bool resting;
    magdyn_reserved reserved[4];
} v1_collision;

typedef struct {
    long long steps, rejected, contact_steps, force_evals, collisions;
    int resting_pairs;
    bool asleep;
    double time_forces, time_collide, time_impulse, energy_restitution, energy_friction;
    long long projections;
    int islands, sleeping;
    magdyn_reserved reserved[8];
} v1_world_stats;

typedef struct {
    double width, height;
    bool periodic;
    magdyn_reserved reserved[8];
} v1_gas_params;

typedef struct {
    double time;
    int discs, rotors;
    double kt_trans, kt_rot, energy;
    magdyn_vec2 momentum;
    double spin, window;
    long long collisions, wall_collisions, events, cell_crossings, stale_events;
    double collision_rate, pressure, wall_pressure;
    magdyn_reserved reserved[8];
} v1_gas_observables;

typedef struct {
    double t;
    bool hit;
    double separation;
    magdyn_vec3 normal;
    int iterations;
    magdyn_reserved reserved[4];
} v1_toi_result;

/* The old layout is the present one, field by field. */
#define SAME(T, f) _Static_assert(offsetof(v1_##T, f) == offsetof(magdyn_##T, f), #T "." #f " moved")
#define SAME_SIZE(T) _Static_assert(sizeof(v1_##T) == sizeof(magdyn_##T), #T ": size changed")

SAME_SIZE(world_params);
SAME(world_params, restitution); SAME(world_params, friction); SAME(world_params, rtol);
SAME(world_params, atol); SAME(world_params, max_step); SAME(world_params, model);
SAME(world_params, model_tol); SAME(world_params, gravity); SAME(world_params, field);
SAME(world_params, contact_tol); SAME(world_params, contact_margin);
SAME(world_params, bounce_speed); SAME(world_params, contact_step);
SAME(world_params, on_collision); SAME(world_params, user); SAME(world_params, sleep_speed);
SAME(world_params, sleep_time); SAME(world_params, sleep_balance);
SAME(world_params, solver_iterations); SAME(world_params, solver_tolerance);
SAME(world_params, max_steps); SAME(world_params, cancel);

SAME_SIZE(magnet);
SAME(magnet, half); SAME(magnet, mass); SAME(magnet, moment); SAME(magnet, position);
SAME(magnet, velocity); SAME(magnet, orientation); SAME(magnet, omega); SAME(magnet, fixed);

SAME_SIZE(collision);
SAME(collision, time); SAME(collision, i); SAME(collision, j); SAME(collision, kind);
SAME(collision, normal); SAME(collision, count); SAME(collision, point);
SAME(collision, impulse); SAME(collision, total_impulse); SAME(collision, speed);
SAME(collision, resting);

SAME_SIZE(world_stats);
SAME(world_stats, steps); SAME(world_stats, rejected); SAME(world_stats, contact_steps);
SAME(world_stats, force_evals); SAME(world_stats, collisions);
SAME(world_stats, resting_pairs); SAME(world_stats, asleep); SAME(world_stats, time_forces);
SAME(world_stats, time_collide); SAME(world_stats, time_impulse);
SAME(world_stats, energy_restitution); SAME(world_stats, energy_friction);
SAME(world_stats, projections); SAME(world_stats, islands); SAME(world_stats, sleeping);

SAME_SIZE(gas_params);
SAME(gas_params, width); SAME(gas_params, height); SAME(gas_params, periodic);

SAME_SIZE(gas_observables);
SAME(gas_observables, time); SAME(gas_observables, discs); SAME(gas_observables, rotors);
SAME(gas_observables, kt_trans); SAME(gas_observables, kt_rot); SAME(gas_observables, energy);
SAME(gas_observables, momentum); SAME(gas_observables, spin); SAME(gas_observables, window);
SAME(gas_observables, collisions); SAME(gas_observables, wall_collisions);
SAME(gas_observables, events); SAME(gas_observables, cell_crossings);
SAME(gas_observables, stale_events); SAME(gas_observables, collision_rate);
SAME(gas_observables, pressure); SAME(gas_observables, wall_pressure);

SAME_SIZE(toi_result);
SAME(toi_result, t); SAME(toi_result, hit); SAME(toi_result, separation);
SAME(toi_result, normal); SAME(toi_result, iterations);

#endif
