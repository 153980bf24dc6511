/* Compiles byoc.h (declarations and implementation) and uses a little of it: built by every
   compiler in tests/build_checks.sh with -Werror. */
#define BYOC_IMPLEMENTATION
#include "byoc.h"

int main(void) {
    byoc_module *m = byoc_module_create(NULL);
    int64_t dims[2] = {2, 3};
    byoc_node *x = byoc_var(m, "x", byoc_tensor_type(m, BYOC_FLOAT32, 2, dims));
    byoc_node *y = byoc_call(m, "nn.relu", &x, 1, NULL);
    byoc_module_add_function(m, "main", byoc_function(m, &x, 1, y, NULL, NULL));
    byoc_diag d;
    int ok = byoc_infer_type(m, &d) == BYOC_OK;
    byoc_module_destroy(m);
    return ok ? 0 : 1;
}
