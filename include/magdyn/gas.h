/*
 * magdyn/gas.h - layer 2: event-driven ensembles of hard discs and rotors.
 */
#ifndef MAGDYN_GAS_H
#define MAGDYN_GAS_H

#include <magdyn/kinetics.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The box spans [0, width] x [0, height]; particles are added inside it. */
typedef struct { double width, height; int periodic; /* else hard walls */ } magdyn_gas_params;
typedef struct magdyn_gas magdyn_gas;

MAGDYN_API magdyn_gas *magdyn_gas_new(const magdyn_gas_params *params);
MAGDYN_API int magdyn_gas_add_disc(magdyn_gas *g, const magdyn_disc *d);    /* index, or a negative status */
MAGDYN_API int magdyn_gas_add_rotor(magdyn_gas *g, const magdyn_rotor *r);
MAGDYN_API magdyn_status magdyn_gas_advance(magdyn_gas *g, double t_end);   /* exact, event by event */
MAGDYN_API magdyn_status magdyn_gas_get_disc(const magdyn_gas *g, int i, magdyn_disc *out);
MAGDYN_API magdyn_status magdyn_gas_get_rotor(const magdyn_gas *g, int i, magdyn_rotor *out);
MAGDYN_API long long magdyn_gas_collisions(const magdyn_gas *g);
MAGDYN_API void magdyn_gas_free(magdyn_gas *g);

#ifdef __cplusplus
}
#endif

#endif
