/* Tests of the pass infrastructure (registry, required passes, sequential passes, opt levels, typed
   configuration, phases, instrumentation) and of the IR verifier. */
#include "byoc.h"
#include "test.h"
#include <math.h>

static byoc_module *parse(const char *text) {
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, strlen(text), "t.relay", NULL, &d);
    if (!m) fprintf(stderr, "%s\n", d.message);
    return m;
}

static char trace[256];
static byoc_result record(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d) {
    (void)m; (void)ctx; (void)d;
    strncat(trace, (const char *)ud, sizeof trace - strlen(trace) - 1);
    return BYOC_OK;
}

/* a broken pass: replaces main's body with a var nothing binds */
static byoc_result dangling(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d) {
    (void)ctx; (void)ud; (void)d;
    byoc_node *fn = byoc_module_function(m, "main");
    byoc_node *stray = byoc_var(m, "stray", fn->params[0]->annotation);
    byoc_node *args[2] = {fn->body, stray};
    byoc_module_set_function(m, "main", byoc_function(m, fn->params, fn->nparams, byoc_call(m, "add", args, 2, NULL), NULL, NULL));
    return BYOC_OK;
}

static void register_once(void) {
    static int done;
    if (done) return;
    done = 1;
    static const byoc_pass passes[] = {
        {"test.a", 0, NULL, record, NULL, (void *)"a", "appends a"},
        {"test.b", 0, "test.a", record, NULL, (void *)"b", "appends b, needs a"},
        {"test.c", 3, NULL, record, NULL, (void *)"c", "appends c at opt level 3"},
        {"test.seq", 0, NULL, NULL, "test.c,test.a,test.a", NULL, "a sequential pass"},
        {"test.dangling", 0, NULL, dangling, NULL, NULL, "breaks the IR"},
    };
    byoc_diag d;
    for (size_t i = 0; i < sizeof passes / sizeof passes[0]; ++i) byoc_pass_register(&passes[i], &d);
}

static void test_registry(void) {
    register_once();
    byoc_diag d;
    CHECK(byoc_pass_get("infer_type") != NULL);
    CHECK(byoc_pass_get("test.b") != NULL && strcmp(byoc_pass_get("test.b")->required, "test.a") == 0);
    byoc_pass dup = *byoc_pass_get("test.a");
    CHECK(byoc_pass_register(&dup, &d) == BYOC_ERR_DUPLICATE);
    CHECK_CONTAINS(d.message, "'test.a' is already registered");
    byoc_pass bad = {"test.nothing", 0, NULL, NULL, NULL, NULL, NULL};
    CHECK(byoc_pass_register(&bad, &d) == BYOC_ERR_INVALID_ARGUMENT);
}

static void test_required_sequential_opt_level(void) {
    register_once();
    byoc_module *m = parse("def @main(%x: Tensor[(2,), float32]) { nn.relu(%x) }");
    byoc_pass_context *ctx = byoc_pass_context_create();
    byoc_diag d;
    const char *run1[] = {"test.b,test.b"};
    trace[0] = 0;
    CHECK(byoc_run_passes(m, run1, 1, ctx, &d) == BYOC_OK);
    CHECKF(strcmp(trace, "abb") == 0, "trace %s", trace); /* a runs once, on demand */
    const char *run2[] = {"test.seq"};
    trace[0] = 0;
    CHECK(byoc_run_passes(m, run2, 1, ctx, &d) == BYOC_OK);
    CHECKF(strcmp(trace, "aa") == 0, "trace %s", trace); /* c is above opt level 2 */
    byoc_pass_context_set_opt_level(ctx, 3);
    trace[0] = 0;
    CHECK(byoc_run_passes(m, run2, 1, ctx, &d) == BYOC_OK);
    CHECKF(strcmp(trace, "caa") == 0, "trace %s", trace);
    int n;
    const byoc_pass_timing *t = byoc_pass_context_timings(ctx, &n);
    CHECK(n == 8 && strcmp(t[0].pass, "test.a") == 0 && t[0].seconds >= 0);
    const char *bad[] = {"test.a,no_such_pass"};
    CHECK(byoc_run_passes(m, bad, 1, ctx, &d) == BYOC_ERR_NOT_FOUND);
    CHECK_CONTAINS(d.message, "unknown pass 'no_such_pass'");
    byoc_pass_context_destroy(ctx);
    byoc_module_destroy(m);
}

static void test_config_keys(void) {
    byoc_pass_context *ctx = byoc_pass_context_create();
    byoc_diag d;
    CHECK(byoc_pass_context_int(ctx, "fuse_ops.max_depth") == 256);
    CHECK(byoc_pass_context_set(ctx, "fuse_ops.max_depth", "8", &d) == BYOC_OK);
    CHECK(byoc_pass_context_int(ctx, "fuse_ops.max_depth") == 8);
    CHECK(byoc_pass_context_set(ctx, "fuse_ops.max_depth", "\"deep\"", &d) == BYOC_ERR_ATTR);
    CHECK_CONTAINS(d.message, "config key 'fuse_ops.max_depth' expects int, got string");
    CHECK(byoc_pass_context_set(ctx, "fuse_ops.depth", "8", &d) == BYOC_ERR_NOT_FOUND);
    CHECK(strcmp(byoc_pass_context_string(ctx, "partition_graph.mod_name"), "default") == 0);
    CHECK(byoc_pass_context_set(ctx, "partition_graph.mod_name", "edge", &d) == BYOC_OK); /* a plain word */
    CHECK(strcmp(byoc_pass_context_string(ctx, "partition_graph.mod_name"), "edge") == 0);
    CHECK(byoc_pass_context_set(ctx, "partition_graph.mod_name", "\"cloud\"", &d) == BYOC_OK); /* quoted */
    CHECK(strcmp(byoc_pass_context_string(ctx, "partition_graph.mod_name"), "cloud") == 0);
    CHECK(byoc_pass_context_set(ctx, "partition_graph.mod_name", "\"open", &d) == BYOC_ERR_ATTR);
    CHECK(byoc_pass_context_set(ctx, "partition_graph.mod_name", "default", &d) == BYOC_OK);
    CHECK(byoc_pass_context_set(ctx, "partition_graph.bind_constants", "False", &d) == BYOC_OK);
    CHECK(byoc_pass_context_int(ctx, "partition_graph.bind_constants") == 0);
    byoc_config_key k = {"test.scale", BYOC_ATTR_FLOAT, "1", "a float key"};
    CHECK(byoc_config_key_register(&k, &d) == BYOC_OK);
    CHECK(byoc_pass_context_float(ctx, "test.scale") == 1.0);
    CHECK(byoc_config_key_register(&k, &d) == BYOC_ERR_DUPLICATE);
    byoc_pass_context_destroy(ctx);
}

static int after_calls;
static void count_after(const char *pass, byoc_module *m, double s, void *ud) {
    (void)m; (void)s;
    if (!strcmp(pass, (const char *)ud)) after_calls++;
}

static void test_verifier_names_the_pass(void) {
    register_once();
    byoc_module *m = parse("def @main(%x: Tensor[(2,), float32]) { nn.relu(%x) }");
    byoc_pass_context *ctx = byoc_pass_context_create();
    byoc_pass_instrument ins = {count_after, (void *)"infer_type"};
    byoc_pass_context_set_instrument(ctx, &ins);
    byoc_diag d;
    const char *run[] = {"infer_type", "test.dangling"};
    CHECK(byoc_run_passes(m, run, 2, ctx, &d) == BYOC_ERR_INTERNAL);
    CHECK_CONTAINS(d.message, "pass 'test.dangling' broke the IR");
    CHECK_CONTAINS(d.message, "%stray is used but no enclosing function binds it");
    CHECK(after_calls == 1);
    byoc_pass_context_destroy(ctx);
    byoc_module_destroy(m);
    /* verification off: the broken module goes through */
    m = parse("def @main(%x: Tensor[(2,), float32]) { nn.relu(%x) }");
    ctx = byoc_pass_context_create();
    byoc_pass_context_set_verify(ctx, 0);
    CHECK(byoc_run_passes(m, run, 2, ctx, &d) == BYOC_OK);
    CHECK(byoc_verify(m, 0, &d) != BYOC_OK);
    byoc_pass_context_destroy(ctx);
    byoc_module_destroy(m);
}

static void test_verifier_checks(void) {
    byoc_diag d;
    byoc_module *m = parse("def @main(%x: Tensor[(2,), float32]) { %0 = nn.relu(%x); %f = fn (%y: Tensor[(2,), float32]) { add(%y, %0) }; %f(%x) }");
    CHECK(byoc_verify(m, 0, &d) == BYOC_OK); /* a capture of an enclosing value is fine */
    CHECK(byoc_verify(m, BYOC_VERIFY_TYPED, &d) != BYOC_OK); /* not typed yet */
    CHECK_CONTAINS(d.message, "has no type");
    CHECK(byoc_infer_type(m, &d) == BYOC_OK && byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK);
    /* a nested function's parameter used outside it */
    byoc_node *main_fn = byoc_module_function(m, "main");
    byoc_node *inner = main_fn->body->callee;
    byoc_node *args[2] = {main_fn->body, inner->params[0]};
    byoc_module_set_function(m, "main", byoc_function(m, main_fn->params, 1, byoc_call(m, "add", args, 2, NULL), NULL, NULL));
    CHECK(byoc_verify(m, 0, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "%y is used but no enclosing function binds it");
    byoc_module_destroy(m);
    /* a cycle, made by editing a node in place (the API forbids it; the verifier still notices) */
    m = parse("def @main(%x: Tensor[(2,), float32]) { %0 = nn.relu(%x); nn.relu(%0) }");
    byoc_node *top = byoc_module_function(m, "main")->body;
    top->args[0]->args[0] = top;
    CHECK(byoc_verify(m, 0, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "depends on itself");
    byoc_module_destroy(m);
    /* a global that is not there */
    m = parse("def @f(%a: Tensor[(2,), float32]) { %a }\ndef @main(%x: Tensor[(2,), float32]) { @f(%x) }");
    byoc_node *call = byoc_module_function(m, "main")->body;
    call->callee->name = byoc_intern(m, "gone");
    CHECK(byoc_verify(m, 0, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "refers to a function the module does not have");
    byoc_module_destroy(m);
}

static void test_phases(void) {
    register_once();
    byoc_module *m = parse("def @main(%x: Tensor[(2,), float32]) { nn.relu(%x) }");
    byoc_pass_context *ctx = byoc_pass_context_create();
    byoc_diag d;
    CHECK(strcmp(byoc_phase_name(BYOC_PHASE_POST_PARTITIONING_1), "POST_PARTITIONING_1") == 0);
    CHECK(strcmp(byoc_phase_name(BYOC_PHASE_TIR_3), "TIR_PHASE_3") == 0);
    CHECK(byoc_pass_context_add_phase_pass(ctx, BYOC_PHASE_PRE_PARTITIONING, "test.a", &d) == BYOC_OK);
    CHECK(byoc_pass_context_add_phase_pass(ctx, BYOC_PHASE_PRE_PARTITIONING, "test.b", &d) == BYOC_OK);
    CHECK(byoc_pass_context_add_phase_pass(ctx, BYOC_PHASE_POST_PARTITIONING_0, "nope", &d) == BYOC_ERR_NOT_FOUND);
    trace[0] = 0;
    CHECK(byoc_run_phase(m, BYOC_PHASE_PRE_PARTITIONING, ctx, &d) == BYOC_OK);
    CHECKF(strcmp(trace, "ab") == 0, "trace %s", trace);
    trace[0] = 0;
    CHECK(byoc_run_phase(m, BYOC_PHASE_POST_PARTITIONING_0, ctx, &d) == BYOC_OK && trace[0] == 0);
    byoc_pass_context_destroy(ctx);
    byoc_module_destroy(m);
}

/* TVM's test_check: a predicate sees each match and can refuse it */
static int refuse_all(const byoc_match *mt, byoc_node *root, void *ud) { (void)mt; (void)root; (void)ud; return 0; }
static int accept_all(const byoc_match *mt, byoc_node *root, void *ud) { (void)mt; (void)root; (void)ud; return 1; }
/* accepts a conv2d_relu match only when the conv2d has groups=1 */
static int conv_groups_one(const byoc_match *mt, byoc_node *root, void *ud) {
    byoc_node *conv = byoc_match_get(mt, (const byoc_pattern *)ud);
    (void)root;
    return conv && byoc_attrs_int(&conv->attrs, "groups", 1) == 1;
}

static int composite_count(byoc_module *m) {
    char *text = byoc_module_print(m, 0, NULL);
    int n = 0;
    for (const char *s = text; (s = strstr(s, "Composite=")) != NULL; ++s) ++n;
    byoc_free(m, text);
    return n;
}

static void test_merge_composite_predicates(void) {
    const char *src = "def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 4, 3, 3), float32], %dw: Tensor[(4, 2, 3, 3), float32]) {\n"
                      "  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]);\n  %1 = nn.relu(%0);\n"
                      "  %2 = nn.conv2d(%1, %dw, padding=[1, 1, 1, 1], groups=2);\n  nn.relu(%2)\n}";
    byoc_match_check_fn checks[3] = {refuse_all, accept_all, conv_groups_one};
    int expected[3] = {0, 2, 1};
    for (int k = 0; k < 3; ++k) {
        byoc_module *m = parse(src);
        byoc_diag d;
        CHECK(m && byoc_infer_type(m, &d) == BYOC_OK);
        const char *conv_text = "is_op(\"nn.conv2d\")(wildcard(), wildcard())";
        byoc_pattern *conv = byoc_pattern_parse(m, conv_text, strlen(conv_text), NULL, &d);
        byoc_pattern *relu = byoc_pat_call_op(m, "nn.relu", &conv, 1);
        byoc_pattern_entry table[1] = {{"test.conv2d_relu", relu, checks[k], conv}};
        CHECK(byoc_merge_composite(m, table, 1, &d) == BYOC_OK);
        CHECK(composite_count(m) == expected[k]);
        byoc_module_destroy(m);
    }
}

/* FoldScaleAxis: the scale of a batch norm after conv2d (with and without a bias add) and after dense folds
   into the weights: no multiply is left and the outputs are those of the unfolded module. A conv that
   another op also reads, or a scale that varies along a spatial axis, is left alone. */
static double max_diff(const byoc_node *a, const byoc_node *b) {
    double worst = 0;
    if (a->kind == BYOC_NODE_TUPLE) {
        for (int i = 0; i < a->nargs; ++i) {
            double d = max_diff(a->args[i], b->args[i]);
            if (d > worst) worst = d;
        }
        return worst;
    }
    int64_t n = byoc_type_num_elements(a->annotation);
    for (int64_t i = 0; i < n; ++i) {
        double d = fabs((double)byoc_constant_f32(a, i) - (double)byoc_constant_f32(b, i));
        if (d > worst) worst = d;
    }
    return worst;
}
static int count_op(byoc_module *m, const byoc_node *body, const char *op) {
    byoc_graph g;
    if (byoc_graph_build(m, (byoc_node *)body, 0, &g) != BYOC_OK) return -1;
    int n = 0;
    for (int i = 0; i < g.count; ++i) n += g.nodes[i].node->kind == BYOC_NODE_CALL && g.nodes[i].node->op && !strcmp(g.nodes[i].node->op->def.name, op);
    byoc_graph_free(&g);
    return n;
}
static void test_fold_scale_axis(void) {
    const char *text =
        "def @main(%x: Tensor[(1, 3, 8, 8), float32], %y: Tensor[(2, 16), float32]) {\n"
        "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(4, 3, 3, 3), float32] */, padding=[1, 1, 1, 1]);\n"
        "  %1 = add(%0, meta[relay.Constant][1] /* ty=Tensor[(4, 1, 1), float32] */);\n"
        "  %2 = multiply(%1, meta[relay.Constant][2] /* ty=Tensor[(4, 1, 1), float32] */);\n"
        "  %3 = add(%2, meta[relay.Constant][3] /* ty=Tensor[(4, 1, 1), float32] */);\n"
        "  %4 = nn.conv2d(%x, meta[relay.Constant][4] /* ty=Tensor[(2, 3, 1, 1), float32] */);\n"
        "  %5 = multiply(meta[relay.Constant][5] /* ty=Tensor[(1, 2, 1, 1), float32] */, %4);\n"
        "  %6 = nn.dense(%y, meta[relay.Constant][6] /* ty=Tensor[(5, 16), float32] */);\n"
        "  %7 = multiply(%6, meta[relay.Constant][7] /* ty=Tensor[(5), float32] */);\n"
        "  %8 = nn.conv2d(%x, meta[relay.Constant][8] /* ty=Tensor[(2, 3, 1, 1), float32] */);\n"
        "  %9 = multiply(%8, meta[relay.Constant][9] /* ty=Tensor[(2, 1, 1), float32] */);\n"
        "  %10 = nn.relu(%8);\n"
        "  %11 = nn.conv2d(%x, meta[relay.Constant][10] /* ty=Tensor[(2, 3, 1, 1), float32] */);\n"
        "  %12 = multiply(%11, meta[relay.Constant][11] /* ty=Tensor[(8, 1), float32] */);\n"
        "  (%3, %5, %7, %9, %10, %12)\n}\n";
    byoc_module *m = parse(text);
    CHECK(m);
    byoc_diag d;
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    byoc_node *fn = byoc_module_function(m, "main");
    byoc_node *in[2];
    for (int k = 0; k < 2; ++k) {
        const byoc_type *t = fn->params[k]->checked_type;
        in[k] = byoc_constant(m, t, NULL, 0);
        CHECK(in[k]);
        float *v = (float *)in[k]->data;
        for (int64_t i = 0; i < byoc_type_num_elements(t); ++i) v[i] = (float)((i * 37 + k * 11) % 23) / 23.0f - 0.5f;
    }
    byoc_node *before = NULL, *after = NULL;
    CHECKF(byoc_module_evaluate(m, in, 2, &before, &d) == BYOC_OK, "%s", d.message);
    CHECK(count_op(m, fn->body, "multiply") == 5);
    CHECKF(byoc_fold_scale_axis(m, &d) == BYOC_OK, "%s", d.message);
    fn = byoc_module_function(m, "main");
    /* folded: the biased conv, the (1, C, 1, 1) scale in front, dense; kept: the shared conv, the 2-D scale */
    CHECKF(count_op(m, fn->body, "multiply") == 2, "%d multiplies left", count_op(m, fn->body, "multiply"));
    CHECK(count_op(m, fn->body, "nn.conv2d") == 4 && count_op(m, fn->body, "add") == 2);
    CHECKF(byoc_module_evaluate(m, in, 2, &after, &d) == BYOC_OK, "%s", d.message);
    double diff = max_diff(before, after);
    CHECKF(diff < 1e-5, "outputs differ by %g", diff);
    /* a registered pass too */
    CHECK(byoc_pass_get("fold_scale_axis") != NULL);
    byoc_module_destroy(m);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_registry),
        TEST_ENTRY(test_required_sequential_opt_level),
        TEST_ENTRY(test_config_keys),
        TEST_ENTRY(test_verifier_names_the_pass),
        TEST_ENTRY(test_verifier_checks),
        TEST_ENTRY(test_phases),
        TEST_ENTRY(test_merge_composite_predicates),
        TEST_ENTRY(test_fold_scale_axis),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
