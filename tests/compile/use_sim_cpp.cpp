/* use_sim_c.c compiled as C++: byoc_sim.h and byoc.h must be valid C++ together. */
#include "use_sim_c.c"
