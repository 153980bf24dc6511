/* use_c.c compiled as C++: the header must be valid C++ (casts of void *, extern "C"). */
#include "use_c.c"
