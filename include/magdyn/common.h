/*
 * magdyn/common.h - status codes, export macro, constants and version,
 * shared by every libmagdyn module.  SI units throughout.
 */
#ifndef MAGDYN_COMMON_H
#define MAGDYN_COMMON_H

#include <stdbool.h>
#include <magdyn/version.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the library's public symbols; everything else is hidden. */
#if defined(_WIN32)
#  ifdef MAGDYN_BUILDING
#    define MAGDYN_API __declspec(dllexport)
#  else
#    define MAGDYN_API
#  endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#  define MAGDYN_API __attribute__((visibility("default")))
#else
#  define MAGDYN_API
#endif

/* Vacuum permeability mu0 [T m / A] (CODATA 2018). */
#define MAGDYN_MU0 1.25663706212e-6
/* pi, since strict C11 <math.h> does not define M_PI. */
#define MAGDYN_PI 3.14159265358979323846

/*
 * Result of every function that can fail.  MAGDYN_OK is zero; failures are
 * negative.  A function that fails leaves the caller's data untouched.
 */
typedef enum {
    MAGDYN_OK = 0,
    MAGDYN_EINVAL = -1,      /* invalid argument: NULL, non-positive size or mass, index out of range */
    MAGDYN_ENONFINITE = -2,  /* an argument holds NaN or infinity */
    MAGDYN_ENOMEM = -3,      /* allocation failed */
    MAGDYN_ESTATE = -4,      /* call not valid in the object's state (e.g. advancing backwards) */
    MAGDYN_EOVERLAP = -5,    /* bodies would start interpenetrating */
    MAGDYN_ENORM = -6,       /* quaternion not of unit length, or a zero vector where a direction is needed */
    MAGDYN_ENOCONV = -7,     /* an iteration did not reach its tolerance */
    MAGDYN_ERANGE = -8,      /* out of range: a particle outside its container, or finite input
                                so extreme that the result would leave double precision */
    MAGDYN_EBUDGET = -9,     /* a call stopped at the step or event budget it was given; it can be
                                called again to go on */
    MAGDYN_ECANCELED = -10   /* a call stopped because its cancel callback asked it to; it can be
                                called again to go on */
} magdyn_status;

/*
 * One slot of room for later fields at the end of an extensible public
 * struct (the ABI policy in magdyn(7)): a later version may give a slot a
 * meaning, a field of any scalar type that fits in it, whose zero value is
 * what the library does now.  Leave every slot zero (zero-fill the struct,
 * or start from its _default() function): a function that reads such a
 * struct refuses nonzero slots (MAGDYN_EINVAL), and a function that fills
 * one writes zeros there.
 */
typedef union {
    double d;
    long long i;
    void *p;
    void (*f)(void);
} magdyn_reserved;

/* A static English description of s ("unknown status" for other values). */
MAGDYN_API const char *magdyn_strerror(magdyn_status s);

/* The library's version as "MAJOR.MINOR.PATCH"; compare with MAGDYN_VERSION_STRING. */
MAGDYN_API const char *magdyn_version(void);

#ifdef __cplusplus
}
#endif

#endif
