/*
 * magdyn/gas.h - layer 2: event-driven ensembles of hard discs and rotors.
 *
 * Exact event-driven dynamics (Alder & Wainwright 1959; Rapaport, "The Art
 * of Molecular Dynamics Simulation", ch. 14; Isobe, Int. J. Mod. Phys. C 10
 * (1999) 1281): particles fly freely between events, which are predicted
 * exactly and kept in an event queue: a calendar of time buckets (Brown
 * 1988; Paul, J. Comput. Phys. 221 (2007) 615) with a small 4-ary heap for
 * the current bucket, holding each particle's next event; superseded
 * entries are dropped lazily, and an event whose partner has changed course
 * since it was predicted is recognised as stale by per-particle collision
 * counters and replaced when it comes up.  Cell lists limit each prediction
 * to the 3x3 neighbouring cells (a disc entering a cell scans only the
 * cells that came into reach), so an event costs O(1) on average; the
 * particles are kept in memory in the order of a space-filling curve over
 * their cells (renumbered with every event kept as it is, so that the
 * trajectories do not depend on it).  Events: pair collisions (disc-disc, rotor-disc,
 * rotor-rotor, see magdyn/kinetics.h for the contact model), wall
 * collisions and cell crossings.  Particles never overlap: contacts are
 * found from the safe side.
 *
 * The box spans [0, width] x [0, height], periodic (minimum image) or with
 * hard walls.  A particle's interaction diameter is 2 radius for a disc and
 * 2 (half_length + end_radius) for a rotor; cells are at least the largest
 * of these, and a periodic box must be at least three of them wide and high.
 *
 * Units are SI; "temperature" is reported as the energy kT [J] (Boltzmann's
 * constant is not applied), and the 2D pressure is a force per length [N/m].
 * Particles are numbered separately by kind: discs 0, 1, ... in the order
 * added, rotors likewise.
 *
 * Inelastic collisions (restitution < 1) of hard bodies can undergo
 * inelastic collapse (infinitely many collisions in finite time); the TC
 * model (Luding & McNamara, Granular Matter 1 (1998) 113) prevents it: a
 * collision of a particle that collided less than a contact duration ago is
 * elastic (magdyn_gas_set_contact_duration).
 */
#ifndef MAGDYN_GAS_H
#define MAGDYN_GAS_H

#include <magdyn/kinetics.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The box spans [0, width] x [0, height]; particles are added inside it. */
typedef struct {
    double width, height;          /* [m] */
    bool periodic;                 /* else hard walls */
    magdyn_reserved reserved[8];   /* zero (magdyn(7), ABI POLICY) */
} magdyn_gas_params;
typedef struct magdyn_gas magdyn_gas;

MAGDYN_API magdyn_gas *magdyn_gas_new(const magdyn_gas_params *params);
MAGDYN_API int magdyn_gas_add_disc(magdyn_gas *g, const magdyn_disc *d);    /* index, or a negative status */
MAGDYN_API int magdyn_gas_add_rotor(magdyn_gas *g, const magdyn_rotor *r);
MAGDYN_API magdyn_status magdyn_gas_advance(magdyn_gas *g, double t_end);   /* exact, event by event */
MAGDYN_API magdyn_status magdyn_gas_get_disc(const magdyn_gas *g, int i, magdyn_disc *out);
MAGDYN_API magdyn_status magdyn_gas_get_rotor(const magdyn_gas *g, int i, magdyn_rotor *out);
MAGDYN_API long long magdyn_gas_collisions(const magdyn_gas *g);
MAGDYN_API void magdyn_gas_free(magdyn_gas *g);

/*
 * Notes on the contract functions above:
 * magdyn_gas_new: NULL for NULL params, a width or height outside
 *   1e-60 .. 1e60 m (or NaN), a nonzero reserved slot, or no memory
 *   (magdyn_gas_create tells which).  The pair and wall restitution
 *   start at 1.
 * magdyn_gas_add_disc/rotor: the index of the new particle (species 0), or
 *   MAGDYN_EINVAL (NULL, non-positive mass, radius, inertia or length),
 *   MAGDYN_ENONFINITE (NaN or infinity), MAGDYN_ERANGE (centre outside the
 *   box, with hard walls any part outside it; in a periodic box, a particle
 *   wider than a third of the box; a radius or length below 1e-60 m or a
 *   reach above 1e60 m; a speed, centre plus spin of the ends, above
 *   1e60 m/s: the pair tests' squares would underflow or overflow; with
 *   another particle in the gas, a radius or end radius, its own or the
 *   other's, below 1e-9 of the larger side of the box, where the
 *   coordinates' rounding hides their separation),
 *   MAGDYN_EOVERLAP (it would overlap a
 *   particle already there by more than 1e-12 of the contact distance),
 *   MAGDYN_ENOMEM.  Nothing is added on failure.  Positions are taken at the
 *   gas's current time.
 * magdyn_gas_advance: runs all events up to the absolute time t_end [s] and
 *   moves every particle to t_end.  MAGDYN_EINVAL for NULL, MAGDYN_ENONFINITE
 *   for NaN/Inf, MAGDYN_ESTATE for t_end earlier than magdyn_gas_time,
 *   MAGDYN_ENOMEM, MAGDYN_EBUDGET when it stopped at the event budget
 *   (magdyn_gas_set_event_budget; call again to go on), MAGDYN_ENOCONV
 *   when more than 100 N + 10^4 events fall
 *   at one instant (inelastic collapse with the contact duration set to 0,
 *   rotors that their spin presses on a neighbour at restitution 0, a body
 *   wedged between walls that it touches on both sides, or bodies so fast or small that their contacts
 *   cannot be resolved in double precision; the gas is then stopped at that
 *   instant, still free of overlaps).
 * magdyn_gas_get_disc/rotor: the particle's state now (positions wrapped
 *   into a periodic box).  MAGDYN_EINVAL for NULL or an index out of range;
 *   *out untouched then.
 * magdyn_gas_collisions: the number of pair collisions so far (walls not
 *   counted), 0 for NULL.
 */

/* Selects every species in magdyn_gas_observe and the histogram. */
#define MAGDYN_GAS_ALL_SPECIES (-1)

/* A periodic 1 m x 1 m box. */
MAGDYN_API magdyn_gas_params magdyn_gas_params_default(void);

/* magdyn_gas_new with a status: *out receives the gas, or NULL on failure:
 * MAGDYN_EINVAL for NULL out or params, a width or height outside
 * 1e-60 .. 1e60 m (or NaN), or a nonzero reserved slot; MAGDYN_ENOMEM. */
MAGDYN_API magdyn_status magdyn_gas_create(const magdyn_gas_params *params, magdyn_gas **out);

/* As magdyn_gas_add_disc/rotor, tagging the particle with species >= 0
 * (MAGDYN_EINVAL for a negative species). */
MAGDYN_API int magdyn_gas_add_disc_species(magdyn_gas *g, const magdyn_disc *d, int species);
MAGDYN_API int magdyn_gas_add_rotor_species(magdyn_gas *g, const magdyn_rotor *r, int species);

/*
 * Normal restitution of pair collisions and of wall collisions, each in
 * [0, 1] (1: elastic, the default).  Two discs (or a body and a wall) that
 * a collision leaves separating slower than the rounding of the velocities
 * (restitution 0, or ~1e-17) leave at that rounding speed, 4 eps (|v1| +
 * |v2|, with the spin speed of a rotor's ends at a wall), so that the
 * contact is not found again at once.  A collision within the contact
 * duration of a particle's last one is elastic whatever these are
 * (magdyn_gas_set_contact_duration).  MAGDYN_EINVAL for NULL or out of
 * range, MAGDYN_ENONFINITE for NaN.
 */
MAGDYN_API magdyn_status magdyn_gas_set_restitution(magdyn_gas *g, double pair, double wall);

/*
 * The contact duration t_c [s] of the TC model: a collision (pair or wall)
 * of a particle whose previous collision was less than t_c ago has
 * restitution 1, which breaks off inelastic collapse and the stall of a
 * contact that a rotor's spin keeps renewing.  0 turns the model off
 * (collapse then gives MAGDYN_ENOCONV).  The default, fixed at the first
 * advance that finds the particles moving, is 1e-3 of the time a particle
 * at the rms speed sqrt(sum(m v^2 + I omega^2) / sum(m)) takes to cross
 * the largest interaction diameter: far below the mean free time of a
 * dilute or moderately dense gas, and as the gas cools it only shrinks
 * against it.  No effect while both restitutions are 1.  MAGDYN_EINVAL for NULL or t_c < 0, MAGDYN_ENONFINITE for NaN or
 * infinity; the gas is untouched then.
 */
MAGDYN_API magdyn_status magdyn_gas_set_contact_duration(magdyn_gas *g, double t_c);

/*
 * The most events (collisions, wall hits and cell crossings) that one call
 * of magdyn_gas_advance handles; 0, the default, sets no limit.  An
 * advance that reaches it stops with MAGDYN_EBUDGET at the time of its
 * last event (magdyn_gas_time), free of overlaps, and a further call goes
 * on from there: the work of a call stays bounded even where the physics
 * asks for millions of collisions in a moment (a spinning rotor's end
 * skipping along a neighbour).  The count of events at one instant that
 * ends in MAGDYN_ENOCONV starts afresh with each call.  MAGDYN_EINVAL for
 * NULL or max_events < 0 (the gas untouched then).
 */
MAGDYN_API magdyn_status magdyn_gas_set_event_budget(magdyn_gas *g, long long max_events);

/* Current time [s] (0 at creation); NAN for NULL. */
MAGDYN_API double magdyn_gas_time(const magdyn_gas *g);
/* Number of discs and of rotors; 0 for NULL. */
MAGDYN_API int magdyn_gas_discs(const magdyn_gas *g);
MAGDYN_API int magdyn_gas_rotors(const magdyn_gas *g);

/*
 * Observables.  The first group describes one species (or all, with
 * MAGDYN_GAS_ALL_SPECIES) at the current time; the second the whole gas,
 * averaged over the observation window that magdyn_gas_reset_observables
 * starts (creation starts the first).
 */
typedef struct {
    double time;                /* now [s] */
    int discs, rotors;          /* particles of the species */
    double kt_trans;            /* kinetic temperature of the centre-of-mass motion,
                                   sum(m v^2) / (2 n) [J] (2 degrees of freedom) */
    double kt_rot;              /* of the rotors' spin, sum(I omega^2) / n_rotors [J]
                                   (1 degree of freedom); 0 without rotors */
    double energy;              /* kinetic energy, translation + rotation [J] */
    magdyn_vec2 momentum;       /* total linear momentum [kg m/s] */
    double spin;                /* total spin angular momentum sum(I omega) [kg m^2/s] */

    double window;              /* length of the observation window [s] */
    long long collisions;       /* pair collisions in the window (all species) */
    long long wall_collisions;  /* wall collisions in the window */
    long long events;           /* events of all kinds processed in the window, stale included */
    long long cell_crossings;   /* of them, cell crossings */
    long long stale_events;     /* of them, pair events found stale (partner changed course) */
    double collision_rate;      /* pair collisions per particle per time, 2 C / (N window) [1/s] */
    double pressure;            /* from the collision virial: (<E_trans> + sum (r_ij . dp_i) / (2 window)) / A
                                   [N/m], with centre-of-mass positions (molecular virial);
                                   the bulk pressure of a periodic gas */
    double wall_pressure;       /* momentum given to the walls per length of wall per time [N/m];
                                   0 in a periodic box */
    magdyn_reserved reserved[8];  /* written as zero (magdyn(7), ABI POLICY) */
} magdyn_gas_observables;

/*
 * Fills *out for species (>= 0, or MAGDYN_GAS_ALL_SPECIES); a species with
 * no particles gives zeros in the first group.  Window averages are 0 for an
 * empty window.  MAGDYN_EINVAL for NULL or a species < -1.
 */
MAGDYN_API magdyn_status magdyn_gas_observe(const magdyn_gas *g, int species, magdyn_gas_observables *out);
/* Starts a new observation window now.  Does nothing for NULL. */
MAGDYN_API void magdyn_gas_reset_observables(magdyn_gas *g);

/*
 * Histogram of the centre-of-mass speeds of a species now: counts[b] for
 * b = 0 .. nbins-1 counts the particles with b <= speed nbins / vmax < b + 1;
 * faster ones are not counted.  Returns the number counted, or a negative
 * status: MAGDYN_EINVAL for NULL, nbins < 1, vmax <= 0 or species < -1,
 * MAGDYN_ENONFINITE for a non-finite vmax.
 */
MAGDYN_API long magdyn_gas_speed_histogram(const magdyn_gas *g, int species, double vmax,
                                           int nbins, long *counts);

#ifdef __cplusplus
}
#endif

#endif
