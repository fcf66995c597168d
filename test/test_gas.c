#include <check.h>
#include <magdyn.h>
int main(void) { return 0; }
