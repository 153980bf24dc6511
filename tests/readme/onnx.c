/* Harness of a README snippet (see tests/readme_snippets.sh): the ONNX import, with a diag. */
@TOP@
#define BYOC_IMPLEMENTATION
#define BYOC_ONNX_IMPLEMENTATION
#include "byoc.h"
#include "tools/byoc_onnx.h"

int main(void) {
    byoc_diag diag;
@BODY@
    return 0;
}
