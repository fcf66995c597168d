/* status.c - status names and the library version. */
#include <magdyn/common.h>

const char *magdyn_strerror(magdyn_status s)
{
    switch (s) {
    case MAGDYN_OK:         return "success";
    case MAGDYN_EINVAL:     return "invalid argument";
    case MAGDYN_ENONFINITE: return "non-finite argument (NaN or infinity)";
    case MAGDYN_ENOMEM:     return "out of memory";
    case MAGDYN_ESTATE:     return "invalid state for this call";
    case MAGDYN_EOVERLAP:   return "bodies interpenetrate";
    case MAGDYN_ENORM:      return "not a unit quaternion or a non-zero direction";
    case MAGDYN_ENOCONV:    return "iteration did not converge";
    case MAGDYN_ERANGE:     return "out of range (outside the container, or beyond double precision)";
    case MAGDYN_EBUDGET:    return "stopped at the step budget (call again to go on)";
    case MAGDYN_ECANCELED:  return "canceled by the caller's callback (call again to go on)";
    }
    return "unknown status";
}

const char *magdyn_version(void)
{
    return MAGDYN_VERSION_STRING;
}
