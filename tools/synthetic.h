/* synthetic.h -- the synthetic graphs of the benchmarks (tools/bench.c, tools/bench_collage.c): a seeded
   CNN-like graph of a given node count. Include after byoc.h. */
#ifndef BYOC_TOOLS_SYNTHETIC_H
#define BYOC_TOOLS_SYNTHETIC_H
#include <stdlib.h>

static uint64_t rng = 42;
static uint32_t rnd(uint32_t n) {
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) % n);
}

/* A CNN-like synthetic graph: conv -> bias add -> relu blocks, residual adds, pools, softmax and
   elementwise tails, with fan-out to recent values. Every value is (1, 16, 8, 8). A residual add reads
   one of the last 64 values (a block, as in ResNet-style networks), or with long_skips any earlier
   value (a stress case: skip edges spanning the whole graph). */
static byoc_module *synthetic(int target_nodes, int long_skips) {
    byoc_module *m = byoc_module_create(NULL);
    int64_t d[4] = {1, 16, 8, 8}, w[4] = {16, 16, 1, 1}, b[4] = {1, 16, 1, 1};
    const byoc_type *t = byoc_tensor_type(m, BYOC_FLOAT32, 4, d), *wt = byoc_tensor_type(m, BYOC_FLOAT32, 4, w),
                    *bt = byoc_tensor_type(m, BYOC_FLOAT32, 4, b);
    byoc_node *x = byoc_var(m, "x", t);
    byoc_node **vals = (byoc_node **)malloc(sizeof(byoc_node *) * (size_t)(target_nodes + 16));
    int n = 0;
    vals[n++] = x;
    static const char *const unary[] = {"nn.relu", "sigmoid", "tanh", "exp", "abs"};
    while ((int)byoc_module_node_count(m) < target_nodes) {
        byoc_node *in = vals[n - 1 - (int)rnd((uint32_t)(n < 4 ? n : 4))], *r;
        uint32_t kind = rnd(10);
        if (kind < 4) { /* conv block */
            byoc_node *cargs[2] = {in, byoc_constant(m, wt, NULL, 0)};
            byoc_node *conv = byoc_call(m, "nn.conv2d", cargs, 2, NULL);
            byoc_node *aargs[2] = {conv, byoc_constant(m, bt, NULL, 0)};
            byoc_node *add = byoc_call(m, "add", aargs, 2, NULL);
            r = byoc_call(m, "nn.relu", &add, 1, NULL);
        } else if (kind < 6) { /* residual */
            byoc_node *args[2] = {in, long_skips ? vals[(int)rnd((uint32_t)n)] : vals[n - 1 - (int)rnd((uint32_t)(n < 64 ? n : 64))]};
            r = byoc_call(m, "add", args, 2, NULL);
        } else if (kind < 9)
            r = byoc_call(m, unary[rnd(5)], &in, 1, NULL);
        else
            r = byoc_call(m, rnd(2) ? "nn.softmax" : "nn.max_pool2d", &in, 1, NULL);
        vals[n++] = r;
    }
    byoc_module_add_function(m, "main", byoc_function(m, &x, 1, vals[n - 1], NULL, NULL));
    free(vals);
    return m;
}

#endif
