/* bench -- times the BYOC partition pipeline on synthetic graphs of 1k, 10k and 50k nodes.
   Pipeline: InferType, MergeComposite (3 patterns), AnnotateTarget (2 backends), MergeCompilerRegions,
   PartitionGraph, FuseOps, verification. Prints a markdown table and writes build/bench.json.
   Build: cc -std=c99 -O2 -I. tools/bench.c -o build/bench -lm */
#define _POSIX_C_SOURCE 200809L
#define BYOC_IMPLEMENTATION
#include "../byoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng = 42;
static uint32_t rnd(uint32_t n) {
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) % n);
}

/* A CNN-like synthetic graph: conv -> bias add -> relu blocks, residual adds, pools, softmax and
   elementwise tails, with fan-out to recent values. Every value is (1, 16, 8, 8). */
static byoc_module *synthetic(int target_nodes) {
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
            byoc_node *args[2] = {in, vals[(int)rnd((uint32_t)n)]};
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

static const char npu_text[] =
    "backend npu\n"
    "pattern conv_bias_relu = is_op(\"nn.relu\")(is_op(\"add\")(is_op(\"nn.conv2d\")(wildcard(), is_constant()), is_constant()))\n"
    "pattern conv = is_op(\"nn.conv2d\")(wildcard(), is_constant())\n"
    "supports nn.conv2d add nn.relu nn.max_pool2d\n";
static const char dsp_text[] = "backend dsp\nsupports sigmoid tanh exp abs nn.softmax add\n";

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    const char *json_path = argc > 1 ? argv[1] : "build/bench.json";
    static const int sizes[] = {1000, 10000, 50000};
    enum { RUNS = 5 };
    byoc_diag d;
    byoc_backend_spec *npu = byoc_backend_parse(npu_text, sizeof npu_text - 1, "npu", &d);
    byoc_backend_spec *dsp = byoc_backend_parse(dsp_text, sizeof dsp_text - 1, "dsp", &d);
    if (!npu || !dsp) { fprintf(stderr, "bench: %s\n", d.message); return 1; }
    const byoc_backend_spec *backends[2] = {npu, dsp};
    double medians[3];
    int functions[3], nodes[3];
    printf("| nodes | pipeline median (s) | min (s) | max (s) | partitions |\n|---:|---:|---:|---:|---:|\n");
    for (int s = 0; s < 3; ++s) {
        double times[RUNS];
        for (int r = 0; r < RUNS; ++r) {
            rng = 42;
            byoc_module *m = synthetic(sizes[s]);
            nodes[s] = (int)byoc_module_node_count(m);
            double t0 = now_seconds();
            byoc_pass_context *ctx = byoc_pass_context_create();
            byoc_pass_context_add_backend(ctx, npu, &d);
            byoc_pass_context_add_backend(ctx, dsp, &d);
            byoc_pass_context_set_verify(ctx, 0); /* one verification at the end, timed with the rest */
            const char *passes[] = {"infer_type,merge_composite,annotate_target,merge_compiler_regions,partition_graph,fuse_ops"};
            if (byoc_run_passes(m, passes, 1, ctx, &d) != BYOC_OK || byoc_verify(m, BYOC_VERIFY_TYPED, &d) != BYOC_OK) {
                fprintf(stderr, "bench: %d nodes: %s\n", sizes[s], d.message);
                return 1;
            }
            times[r] = now_seconds() - t0;
            functions[s] = byoc_module_function_count(m) - 1;
            byoc_pass_context_destroy(ctx);
            byoc_module_destroy(m);
        }
        (void)backends;
        qsort(times, RUNS, sizeof times[0], cmp_double);
        medians[s] = times[RUNS / 2];
        printf("| %d | %.4f | %.4f | %.4f | %d |\n", nodes[s], medians[s], times[0], times[RUNS - 1], functions[s]);
    }
    double growth = medians[2] / medians[1];
    printf("\n10k -> 50k growth: %.2fx (linear would be 5x; target <= 6x). 10k median %.3f s (target < 1 s).\n", growth, medians[1]);
    FILE *f = fopen(json_path, "w");
    if (f) {
        fprintf(f, "{\"pipeline\": \"infer_type,merge_composite,annotate_target,merge_compiler_regions,partition_graph,fuse_ops,verify\",\n \"runs\": %d,\n \"results\": [", RUNS);
        for (int s = 0; s < 3; ++s)
            fprintf(f, "%s{\"nodes\": %d, \"median_s\": %.6f, \"partitions\": %d}", s ? ", " : "", nodes[s], medians[s], functions[s]);
        fprintf(f, "],\n \"growth_10k_to_50k\": %.3f}\n", growth);
        fclose(f);
    }
    byoc_backend_free(npu);
    byoc_backend_free(dsp);
    return 0;
}
