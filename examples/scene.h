/*
 * scene.h - the magnet scenes that the pile example, its benchmark and the
 * world tests share: a plate, a random drop of cubes, a column of magnets
 * and a tower of plain boxes.  Not part of the library.
 *
 * The magnets are 10 mm N42 NdFeB cubes: remanence Br = 1.3 T (J = 1.3 T),
 * moment Br V / mu0 = 1.03 A m^2, density 7500 kg/m^3, mass 7.5 g.  The plate
 * is a fixed, non-magnetic box 1 m x 1 m x 10 mm whose top face is z = 0: a
 * tabletop (a steel plate would also pull on the magnets through its
 * magnetisation; the library does not model soft iron).  It is that wide
 * because the snap of two cubes (~0.2 J) can throw a spinning pair tens of
 * centimetres: off a 200 mm plate, some drops never came to rest.
 */
#ifndef EXAMPLES_SCENE_H
#define EXAMPLES_SCENE_H

#include <magdyn.h>

#define SCENE_CUBE_HALF 0.005       /* [m] */
#define SCENE_CUBE_MASS 7.5e-3      /* [kg] */
#define SCENE_CUBE_J 1.3            /* [T] */

/* The parameters of the pile: gravity, restitution 0.3, friction 0.5. */
magdyn_world_params scene_params(void);

/* A 10 mm N42 cube at p, magnetised along body axis, turned by q. */
magdyn_magnet scene_cube(magdyn_vec3 p, magdyn_quat q, magdyn_vec3 axis);

/* Add the plate; returns its index or a negative status. */
int scene_plate(magdyn_world *w);

/*
 * Drop n cubes at random, at rest, turned at random, centres between 1 and
 * 6 cm above the plate over a square of side 40 mm sqrt(n / 8), none
 * overlapping another.  seed makes it repeatable.  Returns the number
 * added (n, unless placement failed 1000 times in a row).
 */
int scene_pile(magdyn_world *w, int n, unsigned long long seed);

/* n cubes stacked on the plate at x = y = 0, touching, all magnetised up:
 * an equilibrium (each pulls the next onto itself). */
int scene_column(magdyn_world *w, int n);

/* n plain 10 mm boxes (no moment) stacked on the plate. */
int scene_tower(magdyn_world *w, int n);

/* The deepest overlap [m] of two magnets of w, not both fixed (0 when none
 * overlaps): the separating-axis depth of each pair. */
double scene_worst_overlap(const magdyn_world *w);

#endif
