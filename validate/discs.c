#include "validate.h"
void vd_discs(const vd_run *run) { (void)run; }
