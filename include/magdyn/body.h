/* magdyn/body.h - placeholder until the module lands (see DESIGN.md). */
#ifndef MAGDYN_BODY_H
#define MAGDYN_BODY_H
#include <magdyn/contact.h>
#endif
