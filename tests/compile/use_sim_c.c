/* Compiles byoc_sim.h together with byoc.h (BYOC_SIM_IMPLEMENTATION emits both implementations in this one
   file) and runs a small fused program: built by every compiler in tests/build_checks.sh with -Werror. */
#define BYOC_SIM_IMPLEMENTATION
#include "byoc_sim.h"

int main(void) {
    byoc_module *m = byoc_module_create(NULL);
    int64_t dims[2] = {2, 3};
    byoc_node *x = byoc_var(m, "x", byoc_tensor_type(m, BYOC_FLOAT32, 2, dims));
    byoc_node *y = byoc_call(m, "nn.relu", &x, 1, NULL);
    byoc_node *z = byoc_call(m, "sigmoid", &y, 1, NULL);
    byoc_module_add_function(m, "main", byoc_function(m, &x, 1, z, NULL, NULL));
    byoc_diag d;
    int ok = byoc_fuse_ops(m, 256, &d) == BYOC_OK;
    byoc_sim_program *p = ok ? byoc_sim_lower(m, NULL, &d) : NULL;
    float data[6] = {-1, 0, 1, 2, -3, 4};
    byoc_tensor in, out;
    memset(&in, 0, sizeof in);
    in.dtype = BYOC_FLOAT32;
    in.rank = 2;
    in.dims[0] = 2;
    in.dims[1] = 3;
    in.data = data;
    ok = p && byoc_sim_run(p, &in, 1, &out, 1, &d) == BYOC_OK && ((const float *)out.data)[0] == 0.5f;
    char *table = p ? byoc_sim_profile_format(p, NULL) : NULL;
    ok = ok && table && strstr(table, "arena ") && byoc_sim_kernel(p, 0)->exec == BYOC_SIM_EXEC_TILED;
    if (p) byoc_sim_free(p, table);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
    return ok ? 0 : 1;
}
