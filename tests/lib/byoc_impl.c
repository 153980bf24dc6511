/* The library's implementation, compiled once: byoc.h (emitted by byoc_sim.h), byoc_sim.h,
   tools/byoc_onnx.h and tools/byoc_quantize.h. The test programs and fuzzers that use only the public API include the headers
   without an IMPLEMENTATION define and link this object (the Makefile builds it as build/lib/byoc_impl.o,
   build/san/lib/byoc_impl.o under SAN=1, and build/fuzz/lib/byoc_impl.o for the fuzzers). */
#define BYOC_SIM_IMPLEMENTATION
#define BYOC_ONNX_IMPLEMENTATION
#define BYOC_QUANTIZE_IMPLEMENTATION
#include "byoc_sim.h"
#include "tools/byoc_onnx.h"
#include "tools/byoc_quantize.h"
