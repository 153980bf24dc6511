/* Unit tests of the passes inside control-flow bodies: each branch and loop body is a dataflow region of
   its own, which AnnotateTarget, MergeCompilerRegions, PartitionGraph, MergeComposite, the pattern
   rewrite, FuseOps and DCE work in (bodies nested in bodies too), never across a body's boundary; greedy
   placement places the ops of the bodies and reports why the control node stays on the host. Every
   transformed module must verify and compute what the original computes. Public API only. */
#include "byoc.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

/* ---- helpers ---- */
static byoc_module *parse_text(const char *text, byoc_diag *d) {
    byoc_module *m = byoc_module_parse(text, strlen(text), "cflow_passes.relay", NULL, d);
    if (m && byoc_infer_type(m, d) != BYOC_OK) {
        byoc_module_destroy(m);
        return NULL;
    }
    return m;
}

static byoc_backend_spec *backend(const char *text, byoc_diag *d) {
    return byoc_backend_parse(text, strlen(text), "test.backend", d);
}

/* how many nodes of fn (bodies and nested functions included) satisfy what */
typedef int (*node_pred)(const byoc_node *n, const void *arg);
static int count_in(byoc_module *m, byoc_node *fn, node_pred what, const void *arg) {
    byoc_graph g;
    if (byoc_graph_build(m, fn, BYOC_GRAPH_ENTER_FUNCTIONS, &g) != BYOC_OK) return -1;
    int n = 0;
    for (int i = 0; i < g.count; ++i) n += what(g.nodes[i].node, arg);
    byoc_graph_free(&g);
    return n;
}
static int is_control(const byoc_node *n, const void *arg) {
    (void)arg;
    return n->kind == BYOC_NODE_IF || n->kind == BYOC_NODE_LET || n->kind == BYOC_NODE_LOOP;
}
static int is_op(const byoc_node *n, const void *name) {
    return n->kind == BYOC_NODE_CALL && n->op && !strcmp(n->op->def.name, (const char *)name);
}
static int calls_global(const byoc_node *n, const void *arg) {
    (void)arg;
    return n->kind == BYOC_NODE_CALL && n->callee && n->callee->kind == BYOC_NODE_GLOBAL_VAR;
}
static int has_attr(const byoc_node *n, const void *key) {
    return n->kind == BYOC_NODE_FUNCTION && byoc_attrs_get(&n->attrs, (const char *)key) != NULL;
}

/* no partition (a module function with Compiler) holds an if, a let or a loop, and no temporary
   function of the passes (a name with '/') is left behind */
static int partitions_clean(byoc_module *m) {
    for (int f = 0; f < byoc_module_function_count(m); ++f) {
        byoc_global_function g = byoc_module_function_at(m, f);
        if (strchr(g.name, '/')) return 0;
        if (byoc_attrs_get(&g.function->attrs, "Compiler") && count_in(m, g.function, is_control, NULL)) return 0;
    }
    return 1;
}

static byoc_node *scalar_f32(byoc_module *m, float v) { return byoc_constant_scalar(m, BYOC_FLOAT32, v); }

/* @main of m evaluated on inputs made by make(m, k, in) (k selects a case), as floats in out[] */
typedef int (*make_inputs)(byoc_module *m, int k, byoc_node **in);
static int evaluate(byoc_module *m, make_inputs make, int k, float *out, int n, byoc_diag *d) {
    byoc_node *in[8], *result = NULL;
    int nin = make(m, k, in);
    if (byoc_module_evaluate(m, in, nin, &result, d) != BYOC_OK) return 0;
    for (int i = 0; i < n; ++i) out[i] = byoc_constant_f32(result, i);
    return 1;
}

/* the two cases of make, on ref (the module before a pass) and m (after it): the same four values */
static void check_same_values(byoc_module *ref, byoc_module *m, make_inputs make) {
    byoc_diag d;
    for (int k = 0; k < 2; ++k) {
        float want[4], got[4];
        CHECKF(evaluate(ref, make, k, want, 4, &d), "%s", d.message);
        CHECKF(evaluate(m, make, k, got, 4, &d), "%s", d.message);
        for (int i = 0; i < 4; ++i) CHECKF(fabsf(want[i] - got[i]) < 1e-6f, "case %d element %d", k, i);
    }
}

/* ---- TVM's test_if_else (AnnotateTarget), partitioned: a region per branch, the if on the host ---- */
static const char *const if_else_text =
    "#[version = \"0.0.5\"]\n"
    "def @main(%data: Tensor[(1, 4), float32], %e1: float32, %e2: float32) {\n"
    "  %0 = equal(%e1, %e2);\n"
    "  %1 = if (%0) {\n"
    "    tanh(%data)\n"
    "  } else {\n"
    "    sigmoid(%data)\n"
    "  };\n"
    "  erf(%1)\n"
    "}\n";

static int if_else_inputs(byoc_module *m, int k, byoc_node **in) {
    static const float data[4] = {-1.5f, -0.25f, 0.5f, 2};
    int64_t dims[2] = {1, 4};
    in[0] = byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, 2, dims), data, sizeof data);
    in[1] = scalar_f32(m, 1);
    in[2] = scalar_f32(m, k ? 1.0f : 2.0f); /* k = 1: the then branch */
    return 3;
}

static void test_partition_if_else(void) {
    byoc_diag d;
    byoc_module *ref = parse_text(if_else_text, &d), *m = parse_text(if_else_text, &d);
    CHECKF(ref && m, "%s", d.message);
    byoc_backend_spec *b = backend("backend test_if_else\nsupports equal tanh sigmoid erf\n", &d);
    CHECKF(b != NULL, "%s", d.message);
    const byoc_backend_spec *bs[1] = {b};
    CHECKF(byoc_annotate_target(m, bs, 1, 1, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_merge_compiler_regions(m, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_partition_graph(m, "default", 1, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "%s", d.message);
    CHECK(byoc_module_function_count(m) == 5); /* @main, equal, erf, then branch's tanh, else branch's sigmoid */
    CHECK(partitions_clean(m));
    byoc_node *main_fn = byoc_module_function(m, "main");
    CHECK(byoc_module_function(m, "tvmgen_default_test_if_else_main_3") != NULL);
    CHECK(byoc_module_function(m, "tvmgen_default_test_if_else_main_4") != NULL);
    /* the if stays in @main; each branch is now one call of its partition */
    CHECK(count_in(m, main_fn, is_control, NULL) == 1);
    CHECK(count_in(m, main_fn, calls_global, NULL) == 4);
    CHECK(count_in(m, main_fn, is_op, "tanh") == 0 && count_in(m, main_fn, is_op, "sigmoid") == 0);
    check_same_values(ref, m, if_else_inputs);
    byoc_backend_free(b);
    byoc_module_destroy(m);
    byoc_module_destroy(ref);
}

/* ---- bodies nested in bodies: an if inside a loop body ---- */
static const char *const nested_text =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(4), float32], %n: int64) {\n"
    "  %0 = nn.relu(%x);\n"
    "  %1 = loop (%n, True, %0) fn (%i: int64, %go: bool, %acc: Tensor[(4), float32]) {\n"
    "    %2 = add(%acc, %x);\n"
    "    %3 = less(%i, 2i64);\n"
    "    %4 = if (%3) {\n"
    "      %5 = add(%2, %2);\n"
    "      nn.relu(%5)\n"
    "    } else {\n"
    "      negative(%2)\n"
    "    };\n"
    "    (%go, %4)\n"
    "  };\n"
    "  %1.0\n"
    "}\n";

static int nested_inputs(byoc_module *m, int k, byoc_node **in) {
    static const float x[4] = {-1, 0.5f, 2, -3};
    int64_t dims[1] = {4};
    in[0] = byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, 1, dims), x, sizeof x);
    in[1] = byoc_constant_scalar(m, BYOC_INT64, k ? 4 : 1); /* 4 trips take both branches */
    return 2;
}

static void test_nested_bodies_partitioned(void) {
    byoc_diag d;
    byoc_module *ref = parse_text(nested_text, &d), *m = parse_text(nested_text, &d);
    CHECKF(ref && m, "%s", d.message);
    byoc_backend_spec *b = backend("backend acc\nsupports add nn.relu\n", &d);
    CHECKF(b != NULL, "%s", d.message);
    const byoc_backend_spec *bs[1] = {b};
    CHECKF(byoc_annotate_target(m, bs, 1, 1, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_merge_compiler_regions(m, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_partition_graph(m, "default", 1, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "%s", d.message);
    CHECK(partitions_clean(m));
    /* @main's relu, the loop body's add, and the then branch's add + relu (merged into one region) */
    CHECKF(byoc_module_function_count(m) == 4, "%d functions", byoc_module_function_count(m));
    byoc_node *main_fn = byoc_module_function(m, "main");
    CHECK(count_in(m, main_fn, is_control, NULL) == 2);
    CHECK(count_in(m, main_fn, is_op, "add") == 0 && count_in(m, main_fn, is_op, "nn.relu") == 0);
    CHECK(count_in(m, main_fn, is_op, "negative") == 1 && count_in(m, main_fn, is_op, "less") == 1);
    check_same_values(ref, m, nested_inputs);
    byoc_backend_free(b);
    byoc_module_destroy(m);
    byoc_module_destroy(ref);
}

/* ---- the pattern language: within a body, never across its boundary ---- */
static const char *const straddle_text =
    "#[version = \"0.0.5\"]\n"
    "def @main(%a: Tensor[(4), float32], %b: Tensor[(4), float32], %c: bool) {\n"
    "  %0 = add(%a, %b);\n"
    "  if (%c) {\n"
    "    nn.relu(%0)\n"
    "  } else {\n"
    "    %1 = add(%a, %0);\n"
    "    nn.relu(%1)\n"
    "  }\n"
    "}\n";

static void test_pattern_partition_stays_inside_branch(void) {
    byoc_diag d;
    byoc_module *m = parse_text(straddle_text, &d);
    CHECKF(m != NULL, "%s", d.message);
    const char *text = "is_op(\"nn.relu\")(is_op(\"add\")(wildcard(), wildcard()))";
    byoc_pattern *p = byoc_pattern_parse(m, text, strlen(text), "<pattern>", &d);
    CHECKF(p != NULL, "%s", d.message);
    byoc_attrs attrs = {NULL, 0};
    byoc_attrs_set_string(m, &attrs, "Composite", "add_relu");
    byoc_node *main_fn = byoc_module_function(m, "main");
    byoc_node *body = byoc_pattern_partition(m, p, main_fn->body, &attrs, NULL, NULL);
    CHECK(body != NULL);
    byoc_node *fn = byoc_function(m, main_fn->params, main_fn->nparams, body, NULL, NULL);
    CHECK(byoc_module_set_function(m, "main", fn) == BYOC_OK);
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    /* one composite: the else branch's; the then branch's relu reads the add before the if */
    CHECK(count_in(m, fn, has_attr, "Composite") == 1);
    CHECK(count_in(m, fn, is_op, "add") == 2); /* the outer one, and the one inside the composite */
    byoc_module_destroy(m);
}

/* rewrite: every negative, in any body, becomes multiply(x, -1) */
static byoc_node *negate_by_multiply(byoc_module *m, byoc_node *root, const byoc_match *match, void *user_data) {
    (void)match;
    (void)user_data;
    byoc_node *args[2] = {root->args[0], scalar_f32(m, -1)};
    return byoc_call(m, "multiply", args, 2, NULL);
}

static void test_pattern_rewrite_in_nested_bodies(void) {
    byoc_diag d;
    byoc_module *ref = parse_text(nested_text, &d), *m = parse_text(nested_text, &d);
    CHECKF(ref && m, "%s", d.message);
    const char *text = "is_op(\"negative\")(wildcard())";
    byoc_pattern *p = byoc_pattern_parse(m, text, strlen(text), "<pattern>", &d);
    CHECKF(p != NULL, "%s", d.message);
    byoc_node *main_fn = byoc_module_function(m, "main");
    byoc_node *body = byoc_pattern_rewrite(m, p, main_fn->body, negate_by_multiply, NULL, 0);
    CHECK(body != NULL && body != main_fn->body);
    byoc_node *fn = byoc_function(m, main_fn->params, main_fn->nparams, body, NULL, NULL);
    CHECK(byoc_module_set_function(m, "main", fn) == BYOC_OK);
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    CHECK(count_in(m, fn, is_op, "negative") == 0 && count_in(m, fn, is_op, "multiply") == 1);
    float want[4], got[4];
    CHECKF(evaluate(ref, nested_inputs, 1, want, 4, &d), "%s", d.message);
    CHECKF(evaluate(m, nested_inputs, 1, got, 4, &d), "%s", d.message);
    for (int i = 0; i < 4; ++i) CHECKF(fabsf(want[i] - got[i]) < 1e-6f, "element %d", i);
    byoc_module_destroy(m);
    byoc_module_destroy(ref);
}

/* ifs nested `depth` deep (each branch the next level), negative(%x) at the bottom */
static byoc_node *nested_ifs(byoc_module *m, int depth) {
    int64_t dims[1] = {4};
    const byoc_type *t = byoc_tensor_type(m, BYOC_FLOAT32, 1, dims), *b = byoc_tensor_type(m, BYOC_BOOL, 0, NULL);
    byoc_node *params[2] = {byoc_var(m, "a", t), byoc_var(m, "b", b)};
    byoc_node *fn = byoc_function(m, params, 2, byoc_call(m, "negative", params, 1, NULL), NULL, NULL);
    for (int k = 0; k <= depth; ++k) {
        byoc_node *outer[2] = {byoc_var(m, "a", t), byoc_var(m, "b", b)};
        byoc_node *body = byoc_if(m, outer[1], fn, fn, outer, 2);
        fn = byoc_function(m, outer, 2, body, NULL, NULL);
    }
    return fn;
}

/* the pattern rewrite descends as deep as type inference allows, and refuses deeper nesting by name */
static void test_pattern_rewrite_nesting_limit(void) {
    const char *text = "is_op(\"negative\")(wildcard())";
    for (int deep = 0; deep < 2; ++deep) {
        byoc_module *m = byoc_module_create(NULL);
        byoc_node *fn = nested_ifs(m, deep ? 70 : 10);
        CHECK(fn != NULL && byoc_module_add_function(m, "main", fn) == BYOC_OK);
        byoc_diag d;
        byoc_pattern *p = byoc_pattern_parse(m, text, strlen(text), "<pattern>", &d);
        CHECKF(p != NULL, "%s", d.message);
        byoc_node *body = byoc_pattern_rewrite(m, p, fn->body, negate_by_multiply, NULL, 0);
        if (deep) {
            CHECK(body == NULL && byoc_module_error(m) != NULL);
            CHECK_CONTAINS(byoc_module_error(m)->message, "control flow nested too deeply (limit 64)");
        } else {
            CHECK(body != NULL);
            byoc_node *again = byoc_function(m, fn->params, fn->nparams, body, NULL, NULL);
            CHECK(byoc_module_set_function(m, "main", again) == BYOC_OK);
            CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
            CHECK(count_in(m, again, is_op, "negative") == 0 && count_in(m, again, is_op, "multiply") == 1);
        }
        byoc_module_destroy(m);
    }
}

/* ---- MergeComposite and FuseOps in nested bodies ---- */
static void test_composite_and_fusion_in_nested_bodies(void) {
    byoc_diag d;
    byoc_module *ref = parse_text(nested_text, &d), *m = parse_text(nested_text, &d);
    CHECKF(ref && m, "%s", d.message);
    const char *spec = "backend acc\npattern add_relu = is_op(\"nn.relu\")(is_op(\"add\")(wildcard(), wildcard()))\n";
    byoc_backend_spec *b = backend(spec, &d);
    CHECKF(b != NULL, "%s", d.message);
    CHECKF(byoc_merge_composite(m, b->patterns, b->npatterns, &d) == BYOC_OK, "%s", d.message);
    byoc_node *main_fn = byoc_module_function(m, "main");
    CHECK(count_in(m, main_fn, has_attr, "Composite") == 1); /* the then branch's add -> relu */
    CHECKF(byoc_fuse_ops(m, 256, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "%s", d.message);
    main_fn = byoc_module_function(m, "main");
    /* fused groups: @main's relu, the loop body's add + less, and the else branch's negative */
    CHECKF(count_in(m, main_fn, has_attr, "Primitive") >= 3, "%d", count_in(m, main_fn, has_attr, "Primitive"));
    CHECK(byoc_module_function_count(m) == 1);
    check_same_values(ref, m, nested_inputs);
    byoc_backend_free(b);
    byoc_module_destroy(m);
    byoc_module_destroy(ref);
}

/* ---- greedy placement: body ops placed, the control nodes' reason, --no-fallback unaffected ---- */
static void test_greedy_places_body_ops(void) {
    byoc_diag d;
    byoc_module *ref = parse_text(nested_text, &d), *m = parse_text(nested_text, &d);
    CHECKF(ref && m, "%s", d.message);
    byoc_backend_spec *b = backend("backend acc\nsupports add nn.relu less negative\n", &d);
    CHECKF(b != NULL, "%s", d.message);
    const byoc_backend_spec *bs[1] = {b};
    byoc_partition_options o;
    memset(&o, 0, sizeof o);
    o.backends = bs;
    o.nbackends = 1;
    o.no_fallback = 1; /* every op has a backend: the if and the loop are no ops */
    byoc_placement_report *r = NULL;
    CHECKF(byoc_partition_greedy(m, &o, &r, &d) == BYOC_OK, "%s", d.message);
    CHECK(partitions_clean(m));
    int ifs = 0, loops = 0, ops_on_acc = 0;
    for (int q = 0; q < r->count; ++q) {
        const byoc_placement *pl = &r->nodes[q];
        if (!strcmp(pl->op, "if") || !strcmp(pl->op, "loop")) {
            ifs += pl->op[0] == 'i';
            loops += pl->op[0] == 'l';
            CHECK(!strcmp(pl->backend, "host") && pl->ndeclined == 1);
            CHECK_CONTAINS(pl->declined[0].reason, "stays on the host");
        } else {
            CHECKF(!strcmp(pl->backend, "acc"), "%s %s on %s", pl->op, pl->label, pl->backend);
            ops_on_acc++;
        }
    }
    CHECK(ifs == 1 && loops == 1 && ops_on_acc == 6);
    char *text = byoc_placement_report_format(r, "report", NULL);
    CHECK_CONTAINS(text, "acc: control flow (if) stays on the host");
    CHECK_CONTAINS(text, "6 of 6 ops on acc");
    byoc_free(r->arena, text);
    check_same_values(ref, m, nested_inputs);
    byoc_placement_report_free(r);
    byoc_backend_free(b);
    byoc_module_destroy(m);
    byoc_module_destroy(ref);
}

/* ---- DCE: an unused let binding goes, inside a branch too ---- */
static void test_dce_drops_unused_lets(void) {
    static const char *const text =
        "#[version = \"0.0.5\"]\n"
        "def @main(%x: Tensor[(4), float32], %c: bool) {\n"
        "  let %unused = exp(%x);\n"
        "  if (%c) {\n"
        "    let %dead = tanh(%x);\n"
        "    let %live = negative(%x);\n"
        "    add(%live, %x)\n"
        "  } else {\n"
        "    %x\n"
        "  }\n"
        "}\n";
    byoc_diag d;
    byoc_module *m = parse_text(text, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(byoc_dead_code_elimination(m, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "%s", d.message);
    byoc_node *main_fn = byoc_module_function(m, "main");
    CHECK(count_in(m, main_fn, is_op, "exp") == 0 && count_in(m, main_fn, is_op, "tanh") == 0);
    CHECK(count_in(m, main_fn, is_op, "negative") == 1);
    CHECK(count_in(m, main_fn, is_control, NULL) == 1); /* the if: the let it reads binds in graph form */
    byoc_module_destroy(m);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_partition_if_else),
        TEST_ENTRY(test_nested_bodies_partitioned),
        TEST_ENTRY(test_pattern_partition_stays_inside_branch),
        TEST_ENTRY(test_pattern_rewrite_in_nested_bodies),
        TEST_ENTRY(test_pattern_rewrite_nesting_limit),
        TEST_ENTRY(test_composite_and_fusion_in_nested_bodies),
        TEST_ENTRY(test_greedy_places_body_ops),
        TEST_ENTRY(test_dce_drops_unused_lets),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
