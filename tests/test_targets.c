/* Tests of target kinds and targets, backend registration (UMA's workflow), target hooks and the
   reference evaluator. Cases follow TVM's UMA and target-hook tests, written anew. */
#include "byoc.h"
#include "test.h"

#include <math.h>

static byoc_module *parse_typed(const char *text) {
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, strlen(text), "t.relay", NULL, &d);
    if (!m) { fprintf(stderr, "%s\n", d.message); return NULL; }
    if (byoc_infer_type(m, &d) != BYOC_OK) { fprintf(stderr, "%s\n", d.message); byoc_module_destroy(m); return NULL; }
    return m;
}

static void test_target_kinds_and_parsing(void) {
    static const byoc_target_option npu_options[] = {
        {"sram_kb", BYOC_ATTR_INT, "256", "on-chip memory"},
        {"macs", BYOC_ATTR_INT, "512", "multiply-accumulates per cycle"},
        {"clock_ghz", BYOC_ATTR_FLOAT, "1", NULL},
        {"name", BYOC_ATTR_STRING, "\"edge\"", NULL},
        {"double_buffer", BYOC_ATTR_BOOL, "True", NULL},
    };
    byoc_diag d;
    CHECK(byoc_target_kind_register("tnpu", npu_options, 5, &d) == BYOC_OK);
    CHECK(byoc_target_kind_exists("tnpu"));
    CHECK(byoc_target_kind_register("tnpu", npu_options, 1, &d) == BYOC_ERR_DUPLICATE);
    CHECK_CONTAINS(d.message, "target kind 'tnpu' is already registered");

    byoc_target *t = byoc_target_parse("tnpu -sram_kb=128 -clock_ghz=1.5 -name=\"big\" -double_buffer=false", &d);
    CHECK(t != NULL);
    CHECK(!strcmp(t->kind, "tnpu"));
    CHECK(byoc_attrs_int(&t->attrs, "sram_kb", 0) == 128);
    CHECK(byoc_attrs_int(&t->attrs, "macs", 0) == 512); /* default */
    CHECK(byoc_attrs_float(&t->attrs, "clock_ghz", 0) == 1.5);
    CHECK(!strcmp(byoc_attrs_string(&t->attrs, "name", ""), "big"));
    CHECK(byoc_attrs_int(&t->attrs, "double_buffer", 1) == 0);
    byoc_target_free(t);
    t = byoc_target_parse("tnpu -double_buffer", &d);
    CHECK(t && byoc_attrs_int(&t->attrs, "double_buffer", 0) == 1);
    byoc_target_free(t);

    /* errors in the manner of UMA's */
    CHECK(byoc_target_parse("gpu -x=1", &d) == NULL);
    CHECK_CONTAINS(d.message, "unknown target kind 'gpu'");
    CHECK(byoc_target_parse("tnpu -sram=1", &d) == NULL);
    CHECK_CONTAINS(d.message, "kind tnpu has no option -sram (options: -sram_kb, -macs, -clock_ghz, -name, -double_buffer)");
    CHECK(byoc_target_parse("tnpu -sram_kb=lots", &d) == NULL);
    CHECK_CONTAINS(d.message, "option -sram_kb expects int, got 'lots'");
    CHECK(byoc_target_parse("tnpu -macs=1 -macs=2", &d) == NULL);
    CHECK_CONTAINS(d.message, "option -macs is given twice");
    CHECK(byoc_target_parse("tnpu macs=1", &d) == NULL);
    CHECK_CONTAINS(d.message, "expected -option=value");
    static const byoc_target_option reserved[] = {{"device", BYOC_ATTR_STRING, "\"x\"", NULL}};
    CHECK(byoc_target_kind_register("tnpu2", reserved, 1, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "option name 'device' is reserved");
    static const byoc_target_option no_default[] = {{"x", BYOC_ATTR_INT, NULL, NULL}};
    CHECK(byoc_target_kind_register("tnpu3", no_default, 1, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "option 'x' has no default (None)");
    static const byoc_target_option bad_kind[] = {{"x", BYOC_ATTR_INT_LIST, "[1]", NULL}};
    CHECK(byoc_target_kind_register("tnpu4", bad_kind, 1, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "must be int, float, string or bool");
    static const byoc_target_option wrong_default[] = {{"x", BYOC_ATTR_INT, "\"seven\"", NULL}};
    CHECK(byoc_target_kind_register("tnpu5", wrong_default, 1, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "default of option 'x' is a string, not a int");
    CHECK(!byoc_target_kind_exists("tnpu2") && !byoc_target_kind_exists("tnpu5"));
    CHECK(byoc_target_current() == NULL);
}

/* ---- UMA: the "vanilla accelerator" patterns, registered from C ---- */
static byoc_module *pattern_arena;
static byoc_pattern_entry vanilla_patterns[2];
static const byoc_op_support vanilla_ops[] = {{"nn.relu", NULL, 0, NULL, NULL}};
static const byoc_target_option vanilla_options[] = {{"tiles", BYOC_ATTR_INT, "4", "compute tiles"}};
static byoc_backend vanilla;

static int pre_partitioning_runs;
static byoc_result count_pre(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d) {
    (void)m; (void)ctx; (void)ud; (void)d;
    pre_partitioning_runs++;
    return BYOC_OK;
}

static void register_vanilla(void) {
    static int done;
    if (done) return;
    done = 1;
    byoc_diag d;
    static const byoc_pass count = {"test.count_pre", 0, NULL, count_pre, NULL, NULL, "counts runs"};
    byoc_pass_register(&count, &d);
    static const byoc_phase_pass phases[] = {{BYOC_PHASE_PRE_PARTITIONING, "test.count_pre"}};
    pattern_arena = byoc_module_create(NULL);
    const char *conv = "is_op(\"nn.conv2d\")(wildcard(), wildcard()).has_attr({\"strides\": [1, 1], \"groups\": 1})";
    const char *dense = "is_op(\"nn.dense\")(wildcard(), wildcard())";
    vanilla_patterns[0].name = "vanilla.conv2d";
    vanilla_patterns[0].pattern = byoc_pattern_parse(pattern_arena, conv, strlen(conv), NULL, &d);
    vanilla_patterns[1].name = "vanilla.dense";
    vanilla_patterns[1].pattern = byoc_pattern_parse(pattern_arena, dense, strlen(dense), NULL, &d);
    memset(&vanilla, 0, sizeof vanilla);
    vanilla.spec.name = "vanilla";
    vanilla.spec.kind = "vanilla";
    vanilla.spec.patterns = vanilla_patterns;
    vanilla.spec.npatterns = 2;
    vanilla.spec.support = (byoc_op_support *)vanilla_ops;
    vanilla.spec.nsupport = 1;
    vanilla.options = vanilla_options;
    vanilla.noptions = 1;
    vanilla.passes = phases;
    vanilla.npasses = 1;
}

static const char *const uma_models[] = {
    "tests/inputs/mnist.relay",
    "tests/inputs/tuples_and_functions.relay",
    "tests/lit/partition_graph/function_lifting.relay",
};

static void test_uma_register_and_partition(void) {
    register_vanilla();
    byoc_diag d;
    int n;
    CHECK(byoc_pattern_table("vanilla", &n) == NULL && n == 0); /* absent before registration */
    CHECK(byoc_backend_register(&vanilla, &d) == BYOC_OK);
    CHECK(byoc_pattern_table("vanilla", &n) != NULL && n == 2);
    CHECK(byoc_target_kind_exists("vanilla"));
    CHECK(byoc_backend_register(&vanilla, &d) == BYOC_ERR_DUPLICATE);
    CHECK_CONTAINS(d.message, "backend 'vanilla' is already registered");
    byoc_target *t = byoc_target_parse("vanilla", &d);
    CHECK(t && byoc_attrs_int(&t->attrs, "tiles", 0) == 4);
    byoc_target_free(t);
    t = byoc_target_parse("vanilla -tiles=8", &d);
    CHECK(t && byoc_attrs_int(&t->attrs, "tiles", 0) == 8);
    byoc_target_free(t);

    /* the same functions as the manual MergeComposite -> AnnotateTarget -> MergeCompilerRegions ->
       PartitionGraph sequence, on each model */
    for (size_t k = 0; k < sizeof uma_models / sizeof uma_models[0]; ++k) {
        byoc_module *a = byoc_module_load(uma_models[k], NULL, &d);
        CHECKF(a != NULL, "%s: %s", uma_models[k], d.message);
        if (!a) continue;
        byoc_module *b = byoc_module_clone(a, NULL);
        int before = pre_partitioning_runs;
        CHECKF(byoc_backend_partition(a, "vanilla", NULL, 0, &d) == BYOC_OK, "%s: %s", uma_models[k], d.message);
        CHECK(pre_partitioning_runs == before + 1);
        const byoc_backend_spec *spec[1] = {&vanilla.spec};
        CHECK(byoc_infer_type(b, &d) == BYOC_OK);
        CHECK(byoc_merge_composite(b, vanilla.spec.patterns, vanilla.spec.npatterns, &d) == BYOC_OK);
        CHECK(byoc_annotate_target(b, spec, 1, 1, &d) == BYOC_OK);
        CHECK(byoc_merge_compiler_regions(b, &d) == BYOC_OK);
        CHECK(byoc_partition_graph(b, "default", 1, &d) == BYOC_OK);
        CHECKF(byoc_module_function_count(a) == byoc_module_function_count(b), "%s: %d vs %d functions", uma_models[k],
               byoc_module_function_count(a), byoc_module_function_count(b));
        CHECKF(byoc_module_structural_equal(a, b), "%s: UMA and manual partitioning differ", uma_models[k]);
        byoc_module_destroy(a);
        byoc_module_destroy(b);
    }
    /* the MNIST module really is partitioned */
    byoc_module *m = byoc_module_load("tests/inputs/mnist.relay", NULL, &d);
    CHECK(m && byoc_backend_partition(m, "vanilla", NULL, 0, &d) == BYOC_OK);
    int partitions = 0;
    for (int f = 0; m && f < byoc_module_function_count(m); ++f)
        partitions += !strcmp(byoc_attrs_string(&byoc_module_function_at(m, f).function->attrs, "Compiler", ""), "vanilla");
    CHECK(partitions == 5); /* each conv2d and the dense as composites, each relu on its own (the bias adds stay on the host) */
    CHECK(byoc_backend_partition(m, "nothing", NULL, 0, &d) == BYOC_ERR_NOT_FOUND);
    CHECK_CONTAINS(d.message, "no backend 'nothing' is registered");
    byoc_module_destroy(m);
}

static void test_uma_bind_params(void) {
    register_vanilla();
    byoc_diag d;
    if (!byoc_backend_get("vanilla")) byoc_backend_register(&vanilla, &d);
    byoc_module *m = parse_typed("def @main(%x: Tensor[(1, 16), float32], %w: Tensor[(8, 16), float32]) { nn.dense(%x, %w) }");
    CHECK(m != NULL);
    int64_t ws[2] = {8, 16};
    byoc_node *w = byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, 2, ws), NULL, 0);
    byoc_param p = {"w", w};
    CHECK(byoc_backend_partition(m, "vanilla", &p, 1, &d) == BYOC_OK);
    CHECK(byoc_module_function(m, "main")->nparams == 1); /* %w is bound */
    char *text = byoc_module_print(m, 0, NULL);
    CHECK_CONTAINS(text, "Composite=\"vanilla.dense\"");
    CHECK_CONTAINS(text, "meta[relay.Constant][0]"); /* the weight moved into the partition */
    byoc_free(m, text);
    byoc_param bad = {"nope", w};
    CHECK(byoc_backend_partition(m, "vanilla", &bad, 1, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "param 'nope' is not a parameter of @main");
    byoc_module_destroy(m);
}

/* a backend named `name` that supports one op, with at most one target option; hooks are set after */
static void one_op_backend(byoc_backend *b, const char *name, const byoc_op_support *op, const byoc_target_option *option) {
    memset(b, 0, sizeof *b);
    b->spec.name = name;
    b->spec.support = (byoc_op_support *)op;
    b->spec.nsupport = 1;
    b->options = option;
    b->noptions = option ? 1 : 0;
}

/* ---- TVM's target-hook example: the hook reads the current target's attribute ---- */
static int hook_calls;
static byoc_result example_relay_to_tir(byoc_module *m, const char *name, void *ud, byoc_diag *d) {
    (void)ud; (void)d;
    const byoc_target *t = byoc_target_current();
    if (!t) return BYOC_ERR_INTERNAL;
    hook_calls++;
    byoc_node *fn = byoc_module_function(m, name);
    /* body - example_attribute, with the attribute of the target in force */
    byoc_node *args[2] = {fn->body, byoc_constant_scalar(m, BYOC_FLOAT32, (double)byoc_attrs_int(&t->attrs, "example_attribute", 0))};
    byoc_node *body = byoc_call(m, "subtract", args, 2, NULL);
    return byoc_module_set_function(m, name, byoc_function(m, fn->params, fn->nparams, body, NULL, &fn->attrs));
}

static void test_target_hook_example(void) {
    static const byoc_op_support ops[] = {{"subtract", NULL, 0, NULL, NULL}};
    static const byoc_target_option options[] = {{"example_attribute", BYOC_ATTR_INT, "0", NULL}};
    static byoc_backend hook_backend;
    one_op_backend(&hook_backend, "example_target_hook", ops, options);
    hook_backend.relay_to_tir = example_relay_to_tir;
    byoc_diag d;
    CHECK(byoc_backend_register(&hook_backend, &d) == BYOC_OK);
    byoc_module *m = parse_typed("def @main(%x: Tensor[(4), float32], %y: Tensor[(4), float32]) {\n"
                                 "  %0 = subtract(%x, %y);\n  multiply(%0, 2f)\n}");
    CHECK(m && byoc_backend_partition(m, "example_target_hook", NULL, 0, &d) == BYOC_OK);
    byoc_target *t = byoc_target_parse("example_target_hook -example_attribute=42", &d);
    const byoc_target *targets[1] = {t};
    CHECK(byoc_run_target_hooks(m, targets, 1, &d) == BYOC_OK);
    CHECK(hook_calls == 1);
    CHECK(byoc_target_current() == NULL);
    int64_t four = 4;
    const byoc_type *ty = byoc_tensor_type(m, BYOC_FLOAT32, 1, &four);
    float xs[4] = {100, 50, 0, -1}, ys[4] = {1, 2, 3, 4};
    byoc_node *in[2] = {byoc_constant(m, ty, xs, sizeof xs), byoc_constant(m, ty, ys, sizeof ys)};
    byoc_node *out = NULL;
    CHECKF(byoc_module_evaluate(m, in, 2, &out, &d) == BYOC_OK, "%s", d.message);
    for (int i = 0; out && i < 4; ++i) CHECKF(byoc_constant_f32(out, i) == (xs[i] - ys[i] - 42) * 2, "element %d: %g", i, byoc_constant_f32(out, i));
    byoc_target_free(t);
    byoc_module_destroy(m);
}

static void test_evaluate_refuses_what_it_cannot_run(void) {
    /* the integer conv2d runs; leaky_relu has no integer kernel */
    byoc_module *m = parse_typed("def @main(%x: Tensor[(1, 1, 4, 4), int32], %w: Tensor[(1, 1, 3, 3), int32]) {\n"
                                 "  %0 = nn.conv2d(%x, %w);\n  nn.leaky_relu(%0)\n}");
    CHECK(m != NULL);
    int64_t xs[4] = {1, 1, 4, 4}, ws[4] = {1, 1, 3, 3};
    byoc_node *in[2] = {byoc_constant(m, byoc_tensor_type(m, BYOC_INT32, 4, xs), NULL, 0), byoc_constant(m, byoc_tensor_type(m, BYOC_INT32, 4, ws), NULL, 0)};
    byoc_node *out;
    byoc_diag d;
    CHECK(byoc_module_evaluate(m, in, 2, &out, &d) == BYOC_ERR_UNSUPPORTED);
    CHECK_CONTAINS(d.message, "nn.leaky_relu: no host kernel for int32");
    byoc_node *wrong[2] = {in[1], in[0]};
    CHECK(byoc_module_evaluate(m, wrong, 2, &out, &d) == BYOC_ERR_TYPE);
    byoc_module_destroy(m);
}

/* conv2d and dense reference kernels against values worked out by hand */
static void test_evaluate_conv2d_dense(void) {
    byoc_module *m = parse_typed("def @main(%x: Tensor[(1, 2, 3, 3), float32], %w: Tensor[(2, 1, 2, 2), float32], %d: Tensor[(3, 8), float32]) {\n"
                                 "  %0 = nn.conv2d(%x, %w, padding=[0, 0, 1, 1], groups=2);\n"
                                 "  %1 = reshape(%0, newshape=[1, 18]);\n"
                                 "  %2 = strided_slice(%1, begin=[0, 0], end=[1, 8]);\n"
                                 "  (%0, nn.dense(%2, %d))\n}");
    CHECK(m != NULL);
    int64_t xs[4] = {1, 2, 3, 3}, ws[4] = {2, 1, 2, 2}, ds[2] = {3, 8};
    float x[18], w[8] = {1, 1, 1, 1, 1, 0, 0, -1}, dw[24];
    for (int i = 0; i < 18; ++i) x[i] = (float)(i + 1);
    for (int i = 0; i < 24; ++i) dw[i] = i < 8 ? 1.0f : i < 16 ? (i == 8 ? 1.0f : 0.0f) : -0.5f;
    byoc_node *in[3] = {byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, 4, xs), x, sizeof x), byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, 4, ws), w, sizeof w),
                        byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, 2, ds), dw, sizeof dw)};
    byoc_node *out;
    byoc_diag d;
    CHECKF(byoc_module_evaluate(m, in, 3, &out, &d) == BYOC_OK, "%s", d.message);
    if (!out) { byoc_module_destroy(m); return; }
    /* group 0: 2x2 box sums of channel 0 (1..9), padded by one at the bottom and right */
    const float conv0[9] = {12, 16, 9, 24, 28, 15, 15, 17, 9};
    /* group 1: x[c1][y][x] - x[c1][y+1][x+1] on channel 1 (10..18) */
    const float conv1[9] = {-4, -4, 12, -4, -4, 15, 16, 17, 18};
    for (int i = 0; i < 9; ++i) {
        CHECKF(byoc_constant_f32(out->args[0], i) == conv0[i], "conv group 0 [%d] = %g", i, byoc_constant_f32(out->args[0], i));
        CHECKF(byoc_constant_f32(out->args[0], 9 + i) == conv1[i], "conv group 1 [%d] = %g", i, byoc_constant_f32(out->args[0], 9 + i));
    }
    /* dense rows: sum of the 8 values, the first value, -0.5 * sum */
    float sum = 0;
    for (int i = 0; i < 8; ++i) sum += conv0[i];
    CHECK(byoc_constant_f32(out->args[1], 0) == sum);
    CHECK(byoc_constant_f32(out->args[1], 1) == conv0[0]);
    CHECK(byoc_constant_f32(out->args[1], 2) == -0.5f * sum);
    byoc_module_destroy(m);
}

/* a cost estimator: MACs of the partition's conv2d ops over the target's MAC rate */
static double mac_cost(byoc_module *m, const byoc_node *fn, const byoc_target *t, void *ud) {
    (void)ud;
    byoc_graph g;
    double macs = 0;
    if (byoc_graph_build(m, fn->body, BYOC_GRAPH_ENTER_FUNCTIONS, &g) != BYOC_OK) return -1;
    for (int i = 0; i < g.count; ++i) {
        const byoc_node *n = g.nodes[i].node;
        if (n->kind != BYOC_NODE_CALL || !n->op || strcmp(n->op->def.name, "nn.conv2d")) continue;
        const byoc_type *o = n->checked_type, *w = n->args[1]->checked_type;
        macs += (double)byoc_type_num_elements(o) * (double)(w->dims[1] * w->dims[2] * w->dims[3]);
    }
    byoc_graph_free(&g);
    return macs / ((double)byoc_attrs_int(&t->attrs, "macs_per_cycle", 1) * 1e9);
}

static void test_cost_estimator_in_reports(void) {
    static const byoc_op_support ops[] = {{"nn.conv2d", NULL, 0, NULL, NULL}};
    static const byoc_target_option options[] = {{"macs_per_cycle", BYOC_ATTR_INT, "64", NULL}};
    static byoc_backend costly;
    one_op_backend(&costly, "costly", ops, options);
    costly.estimate_cost = mac_cost;
    byoc_diag d;
    CHECK(byoc_backend_register(&costly, &d) == BYOC_OK);
    byoc_module *m = parse_typed("def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(8, 4, 3, 3), float32]) { nn.conv2d(%x, %w, padding=[1, 1]) }");
    const byoc_backend_spec *list[1] = {&costly.spec};
    byoc_partition_options o;
    memset(&o, 0, sizeof o);
    o.backends = list;
    o.nbackends = 1;
    byoc_placement_report *rep = NULL;
    CHECK(m && byoc_partition_greedy(m, &o, &rep, &d) == BYOC_OK);
    CHECK(rep && rep->npartitions == 1);
    /* 1*8*8*8 outputs, 4*3*3 MACs each, 64 MACs per cycle at 1 GHz */
    double want = 512.0 * 36.0 / (64.0 * 1e9);
    CHECKF(rep && fabs(rep->partitions[0].estimated_cost - want) < 1e-15, "cost %g, want %g", rep ? rep->partitions[0].estimated_cost : -1, want);
    char *json = rep ? byoc_placement_report_format(rep, "json", NULL) : NULL;
    CHECK_CONTAINS(json, "\"estimated_cost_s\": 2.88e-07");
    if (rep) byoc_free(rep->arena, json);
    char *text = rep ? byoc_placement_report_format(rep, "report", NULL) : NULL;
    CHECK_CONTAINS(text, "0.288 us");
    if (rep) byoc_free(rep->arena, text);
    byoc_placement_report_free(rep);
    byoc_module_destroy(m);
}

/* relay_to_runtime: a backend with its own compiler goes straight to a runtime module; here it
   doubles its input, so @main's result shows it ran instead of the Relay body (a negation) */
static byoc_result doubling_run(void *state, byoc_module *m, byoc_node *const *args, int nargs, byoc_node **result, byoc_diag *d) {
    (void)state; (void)d;
    if (nargs != 1) return BYOC_ERR_INVALID_ARGUMENT;
    byoc_node *out = byoc_constant(m, args[0]->annotation, NULL, 0);
    if (!out) return BYOC_ERR_OUT_OF_MEMORY;
    for (int64_t i = 0; i < byoc_type_num_elements(args[0]->annotation); ++i) ((float *)out->data)[i] = 2.0f * ((const float *)args[0]->data)[i];
    *result = out;
    return BYOC_OK;
}
static int released;
static void count_release(void *state) { (void)state; released++; }
static int compiled_under_doubler;
static byoc_result doubling_compiler(byoc_module *m, const char *name, void *ud, byoc_runtime_module *out, byoc_diag *d) {
    (void)m; (void)ud; (void)d;
    compiled_under_doubler += byoc_target_current() && !strcmp(byoc_target_current()->kind, "doubler");
    out->name = name;
    out->run = doubling_run;
    out->release = count_release;
    return BYOC_OK;
}

static void test_relay_to_runtime_and_registration_errors(void) {
    static const byoc_op_support ops[] = {{"negative", NULL, 0, NULL, NULL}};
    static byoc_backend doubler;
    one_op_backend(&doubler, "doubler", ops, NULL);
    doubler.relay_to_runtime = doubling_compiler;
    byoc_diag d;
    CHECK(byoc_backend_register(&doubler, &d) == BYOC_OK);
    byoc_module *m = parse_typed("def @main(%x: Tensor[(3), float32]) { %0 = negative(%x); add(%0, 1f) }");
    CHECK(m && byoc_backend_partition(m, "doubler", NULL, 0, &d) == BYOC_OK);
    byoc_target *t = byoc_target_parse("doubler", &d);
    const byoc_target *ts[1] = {t};
    CHECK(byoc_run_target_hooks(m, ts, 1, &d) == BYOC_OK);
    CHECK(compiled_under_doubler == 1); /* with its target current */
    int64_t three = 3;
    float xs[3] = {1, 2, 3};
    byoc_node *x = byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, 1, &three), xs, sizeof xs), *out = NULL;
    CHECK(byoc_module_evaluate(m, &x, 1, &out, &d) == BYOC_OK);
    for (int i = 0; out && i < 3; ++i) CHECK(byoc_constant_f32(out, i) == 2 * xs[i] + 1);
    byoc_target_free(t);
    byoc_module_destroy(m);
    CHECK(released == 1); /* the module released its runtime module */

    /* registration refuses a pattern not named "<backend>.<name>" and an unregistered phase pass */
    static byoc_pattern_entry bad_pattern[1] = {{"other.conv", NULL, NULL, NULL}};
    static byoc_backend b1;
    memset(&b1, 0, sizeof b1);
    b1.spec.name = "badpattern";
    b1.spec.patterns = bad_pattern;
    b1.spec.npatterns = 1;
    CHECK(byoc_backend_register(&b1, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "pattern 0 must be named 'badpattern.<name>'");
    static const byoc_phase_pass missing[] = {{BYOC_PHASE_PRE_PARTITIONING, "no.such_pass"}};
    static byoc_backend b2;
    memset(&b2, 0, sizeof b2);
    b2.spec.name = "badpass";
    b2.passes = missing;
    b2.npasses = 1;
    CHECK(byoc_backend_register(&b2, &d) == BYOC_ERR_NOT_FOUND);
    CHECK_CONTAINS(d.message, "pass 'no.such_pass' is not registered");
    CHECK(!byoc_backend_get("badpattern") && !byoc_backend_get("badpass") && !byoc_target_kind_exists("badpass"));
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_target_kinds_and_parsing),
        TEST_ENTRY(test_uma_register_and_partition),
        TEST_ENTRY(test_uma_bind_params),
        TEST_ENTRY(test_target_hook_example),
        TEST_ENTRY(test_evaluate_refuses_what_it_cannot_run),
        TEST_ENTRY(test_evaluate_conv2d_dense),
        TEST_ENTRY(test_cost_estimator_in_reports),
        TEST_ENTRY(test_relay_to_runtime_and_registration_errors),
    };
    int r = run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
    byoc_module_destroy(pattern_arena);
    return r;
}
