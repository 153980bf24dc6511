/* Unit tests of the host rewrites (SimplifyExpr, FoldScaleAxis through nn.bias_add, LayerNormFusion,
   GeluFusion, the host_rewrites pipeline): every rewritten module verifies, computes what the original
   computes on seeded data (within the rounding of the merged constants), has the ops the rewrite
   promises, and leaves a partition's function (Compiler=) exactly as it was. Public API only. */
#include "byoc.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

/* ---- helpers ---- */
static uint32_t seed_state = 12345u;
static float seeded(void) { /* a fixed LCG: the same values on every machine, in [-1, 1) */
    seed_state = seed_state * 1664525u + 1013904223u;
    return (float)((seed_state >> 8) & 0xffff) / 32768.0f - 1.0f;
}

static byoc_node *seeded_constant(byoc_module *m, int rank, const int64_t *dims) {
    int64_t n = 1;
    for (int i = 0; i < rank; ++i) n *= dims[i];
    float *data = (float *)malloc((size_t)n * sizeof(float));
    if (!data) return NULL;
    for (int64_t i = 0; i < n; ++i) data[i] = seeded();
    byoc_node *c = byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, rank, dims), data, (size_t)n * sizeof(float));
    free(data);
    return c;
}

static byoc_node *binary(byoc_module *m, const char *op, byoc_node *a, byoc_node *b) {
    byoc_node *args[2] = {a, b};
    return byoc_call(m, op, args, 2, NULL);
}

static byoc_node *transpose(byoc_module *m, byoc_node *x, const int64_t *axes, int rank) {
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(m, &a, "axes", axes, rank);
    return byoc_call(m, "transpose", &x, 1, &a);
}

/* how many calls of op `name` the function of m named fn holds (bodies included) */
static int count_op(byoc_module *m, const char *fn, const char *name) {
    byoc_graph g;
    if (byoc_graph_build(m, byoc_module_function(m, fn), BYOC_GRAPH_ENTER_FUNCTIONS, &g) != BYOC_OK) return -1;
    int n = 0;
    for (int i = 0; i < g.count; ++i)
        n += g.nodes[i].node->kind == BYOC_NODE_CALL && g.nodes[i].node->op &&
             !strcmp(g.nodes[i].node->op->def.name, name);
    byoc_graph_free(&g);
    return n;
}

/* @main of ref and of m on the same seeded input (and condition): the same values within tol x max(1, |ref|) */
static int same_values(byoc_module *ref, byoc_module *m, int rank, const int64_t *dims, int cond, float tol,
                       char *why, size_t cap) {
    byoc_diag d;
    byoc_node *outs[2] = {NULL, NULL};
    byoc_module *mods[2] = {ref, m};
    for (int k = 0; k < 2; ++k) {
        seed_state = 777u;
        byoc_node *in[2] = {seeded_constant(mods[k], rank, dims), byoc_constant_scalar(mods[k], BYOC_BOOL, cond)};
        if (byoc_module_evaluate(mods[k], in, cond < 0 ? 1 : 2, &outs[k], &d) != BYOC_OK) {
            snprintf(why, cap, "%s", d.message);
            return 0;
        }
    }
    size_t n = byoc_constant_nbytes(outs[0]) / sizeof(float);
    if (n != byoc_constant_nbytes(outs[1]) / sizeof(float) || !n) { snprintf(why, cap, "sizes differ"); return 0; }
    float scale = 1;
    for (size_t i = 0; i < n; ++i) scale = fmaxf(scale, fabsf(byoc_constant_f32(outs[0], (int64_t)i)));
    for (size_t i = 0; i < n; ++i) {
        float a = byoc_constant_f32(outs[0], (int64_t)i), b = byoc_constant_f32(outs[1], (int64_t)i);
        if (!(fabsf(a - b) <= tol * scale)) {
            snprintf(why, cap, "element %zu: %g, rewritten %g", i, (double)a, (double)b);
            return 0;
        }
    }
    return 1;
}

/* conv2d -> bias_add -> (batch norm as SimplifyInference leaves it) multiply -> add -> relu, a transpose
   pair that cancels, two multiplies and two adds of constants, then two transposes that compose */
static byoc_module *conv_chain(void) {
    byoc_module *m = byoc_module_create(NULL);
    int64_t xd[4] = {1, 3, 6, 6}, wd[4] = {4, 3, 3, 3}, bd[1] = {4}, cd[3] = {4, 1, 1}, c4[4] = {1, 4, 1, 1};
    static const int64_t nhwc[4] = {0, 2, 3, 1}, nchw[4] = {0, 3, 1, 2}, swap01[4] = {1, 0, 2, 3};
    static const int64_t pad[4] = {1, 1, 1, 1};
    seed_state = 99u;
    byoc_node *x = byoc_var(m, "x", byoc_tensor_type(m, BYOC_FLOAT32, 4, xd));
    byoc_attrs ca;
    memset(&ca, 0, sizeof ca);
    byoc_attrs_set_ints(m, &ca, "padding", pad, 4);
    byoc_node *cargs[2] = {x, seeded_constant(m, 4, wd)};
    byoc_node *y = byoc_call(m, "nn.conv2d", cargs, 2, &ca);
    y = binary(m, "nn.bias_add", y, seeded_constant(m, 1, bd));
    y = binary(m, "multiply", y, seeded_constant(m, 3, cd));
    y = binary(m, "add", y, seeded_constant(m, 3, cd));
    y = byoc_call(m, "nn.relu", &y, 1, NULL);
    y = transpose(m, transpose(m, y, nhwc, 4), nchw, 4);
    y = binary(m, "multiply", byoc_constant_scalar(m, BYOC_FLOAT32, 0.5), y);
    y = binary(m, "multiply", y, seeded_constant(m, 4, c4));
    y = binary(m, "add", y, seeded_constant(m, 3, cd));
    y = binary(m, "add", seeded_constant(m, 4, c4), y);
    y = transpose(m, transpose(m, y, nhwc, 4), swap01, 4);
    byoc_module_add_function(m, "main", byoc_function(m, &x, 1, y, NULL, NULL));
    return m;
}

/* ---- tests ---- */
static void test_conv_chain_rewritten_exactly(void) {
    byoc_diag d;
    byoc_module *ref = conv_chain(), *m = conv_chain();
    CHECK(!byoc_module_error(ref) && !byoc_module_error(m));
    CHECKF(byoc_infer_type(ref, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_host_rewrites(m, NULL, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "%s", d.message);
    /* the scale went into the weights, the shift into the bias add; the chains became one op each */
    CHECK(count_op(m, "main", "nn.bias_add") == 1);
    CHECK(count_op(m, "main", "multiply") == 1);
    CHECK(count_op(m, "main", "add") == 1);
    CHECK(count_op(m, "main", "transpose") == 1);
    char why[200];
    int64_t xd[4] = {1, 3, 6, 6};
    CHECKF(same_values(ref, m, 4, xd, -1, 1e-5f, why, sizeof why), "%s", why);
    byoc_module_destroy(ref);
    byoc_module_destroy(m);
}

/* the same rewrites inside an if's branch, whose values come from the enclosing scope */
static const char *const branch_text =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(2, 3, 4), float32], %c: bool) {\n"
    "  if (%c) {\n"
    "    %0 = multiply(%x, 0.5f);\n"
    "    %1 = multiply(3f, %0);\n"
    "    %2 = add(%1, 0.25f);\n"
    "    %3 = add(%2, -2f);\n"
    "    %4 = transpose(%3, axes=[2, 0, 1]);\n"
    "    transpose(%4, axes=[1, 2, 0])\n"
    "  } else {\n"
    "    %5 = transpose(%x);\n"
    "    %6 = transpose(%5);\n"
    "    negative(%6)\n"
    "  }\n"
    "}\n";

static void test_rewrites_inside_branches(void) {
    byoc_diag d;
    byoc_module *ref = byoc_module_parse(branch_text, strlen(branch_text), "branch.relay", NULL, &d);
    byoc_module *m = byoc_module_parse(branch_text, strlen(branch_text), "branch.relay", NULL, &d);
    CHECKF(ref && m, "%s", d.message);
    CHECKF(byoc_infer_type(ref, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_simplify_expr(m, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "%s", d.message);
    CHECK(count_op(m, "main", "transpose") == 0);
    CHECK(count_op(m, "main", "multiply") == 1);
    CHECK(count_op(m, "main", "add") == 1);
    char why[200];
    int64_t xd[3] = {2, 3, 4};
    for (int c = 0; c < 2; ++c) CHECKF(same_values(ref, m, 3, xd, c, 1e-6f, why, sizeof why), "cond %d: %s", c, why);
    byoc_module_destroy(ref);
    byoc_module_destroy(m);
}

/* a partition keeps its body (and so its interface); the host's chain around its call is rewritten */
static void test_partition_left_alone(void) {
    static const char *const text =
        "#[version = \"0.0.5\"]\n"
        "def @main(%x: Tensor[(1, 8), float32]) {\n"
        "  %0 = add(%x, 1f);\n"
        "  %1 = add(%0, 2f);\n"
        "  %2 = multiply(%1, 2f);\n"
        "  %3 = multiply(%2, 4f);\n"
        "  tanh(%3)\n"
        "}\n";
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, strlen(text), "partition.relay", NULL, &d);
    CHECKF(m != NULL, "%s", d.message);
    byoc_backend_spec *b = byoc_backend_parse("backend dev\nsupports add\n", strlen("backend dev\nsupports add\n"),
                                              "dev.backend", &d);
    CHECKF(b != NULL, "%s", d.message);
    const byoc_backend_spec *bs[1] = {b};
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_annotate_target(m, bs, 1, 1, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_merge_compiler_regions(m, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_partition_graph(m, "default", 1, &d) == BYOC_OK, "%s", d.message);
    byoc_node *before = byoc_module_function(m, "tvmgen_default_dev_main_0");
    CHECK(before != NULL);
    CHECKF(byoc_host_rewrites(m, NULL, &d) == BYOC_OK, "%s", d.message);
    CHECK(byoc_module_function(m, "tvmgen_default_dev_main_0") == before); /* the very same function */
    CHECK(count_op(m, "tvmgen_default_dev_main_0", "add") == 2);
    CHECK(count_op(m, "main", "multiply") == 1);
    byoc_backend_free(b);
    byoc_module_destroy(m);
}

/* a PyTorch export's layer norm and erf GELU (as tiny_distilbert has them) become nn.layer_norm and nn.gelu
   and compute the same values; gamma and beta vary along the normalised axis (FoldConstant makes them
   constants, as the importer's initializers are) */
static const char *const norm_gelu_text =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(2, 3, 16), float32]) {\n"
    "  %0 = mean(%x, axis=[-1], keepdims=True);\n"
    "  %1 = subtract(%x, %0);\n"
    "  %2 = power(%1, 2f);\n"
    "  %3 = mean(%2, axis=[-1], keepdims=True);\n"
    "  %4 = add(%3, 1e-05f);\n"
    "  %5 = sqrt(%4);\n"
    "  %6 = divide(%1, %5);\n"
    "  %7 = arange(1f, 17f, 1f);\n"
    "  %8 = multiply(%7, 0.125f);\n"
    "  %9 = multiply(%6, %8);\n"
    "  %10 = subtract(%7, 8f);\n"
    "  %11 = multiply(%10, 0.0625f);\n"
    "  %12 = add(%9, %11);\n"
    "  %13 = divide(%12, 1.4142135f);\n"
    "  %14 = erf(%13);\n"
    "  %15 = add(%14, 1f);\n"
    "  %16 = multiply(%12, %15);\n"
    "  multiply(%16, 0.5f)\n"
    "}\n";

static void test_layer_norm_and_gelu_fused_exactly(void) {
    byoc_diag d;
    size_t n = strlen(norm_gelu_text);
    byoc_module *ref = byoc_module_parse(norm_gelu_text, n, "norm.relay", NULL, &d);
    byoc_module *m = byoc_module_parse(norm_gelu_text, n, "norm.relay", NULL, &d);
    CHECKF(ref && m, "%s", d.message);
    CHECKF(byoc_infer_type(ref, &d) == BYOC_OK, "%s", d.message);
    /* before FoldConstant gamma and beta are computed values, which the fusion never takes */
    CHECKF(byoc_layer_norm_fusion(m, &d) == BYOC_OK, "%s", d.message);
    CHECK(count_op(m, "main", "nn.layer_norm") == 0);
    CHECKF(byoc_fold_constant(m, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_host_rewrites(m, NULL, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "%s", d.message);
    CHECK(count_op(m, "main", "nn.layer_norm") == 1);
    CHECK(count_op(m, "main", "nn.gelu") == 1);
    CHECK(count_op(m, "main", "mean") == 0 && count_op(m, "main", "erf") == 0);
    char why[200];
    int64_t xd[3] = {2, 3, 16};
    CHECKF(same_values(ref, m, 3, xd, -1, 1e-5f, why, sizeof why), "%s", why);
    byoc_module_destroy(ref);
    byoc_module_destroy(m);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_conv_chain_rewritten_exactly),
        TEST_ENTRY(test_rewrites_inside_branches),
        TEST_ENTRY(test_partition_left_alone),
        TEST_ENTRY(test_layer_norm_and_gelu_fused_exactly),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
