/* magdyn/impulse.h - placeholder until the module lands (see DESIGN.md). */
#ifndef MAGDYN_IMPULSE_H
#define MAGDYN_IMPULSE_H
#include <magdyn/contact.h>
#endif
