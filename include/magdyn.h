/*
 * magdyn.h - libmagdyn: dynamics of permanent magnets as rigid bodies, and
 * hard-body collision kinetics.  Includes every module; see magdyn(7).
 */
#ifndef MAGDYN_H
#define MAGDYN_H

#include <magdyn/common.h>
#include <magdyn/vec.h>
#include <magdyn/ode.h>
#include <magdyn/dipole.h>
#include <magdyn/dipole_tree.h>
#include <magdyn/sat.h>
#include <magdyn/contact.h>
#include <magdyn/toi.h>
#include <magdyn/kinetics.h>
#include <magdyn/gas.h>
#include <magdyn/body.h>
#include <magdyn/impulse.h>
#include <magdyn/world.h>
#include <magdyn/island.h>

#endif
