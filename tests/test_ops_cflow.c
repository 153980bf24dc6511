/* Unit tests of control flow: `if`, `let` and the structured `loop` in the text format (print/parse
   round trip), type inference and its errors, structural equality and copies, evaluation with
   byoc_module_evaluate, partitioning around and inside control nodes, and byoc_sim.h lowering them.
   Public API only. */
#include "byoc_sim.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

/* ---- helpers ---- */
static byoc_module *parse_text(const char *text, byoc_diag *d) {
    return byoc_module_parse(text, strlen(text), "cflow.relay", NULL, d);
}

/* print (with types), re-parse, compare structurally, and the second print equals the first */
static int round_trips(byoc_module *m, char *why, size_t cap) {
    size_t len, len2 = 0;
    char *text = byoc_module_print(m, BYOC_PRINT_TYPES, &len);
    byoc_diag d;
    byoc_module *again = byoc_module_parse(text, len, "printed.relay", NULL, &d);
    char *text2 = again && byoc_infer_type(again, &d) == BYOC_OK ? byoc_module_print(again, BYOC_PRINT_TYPES, &len2)
                                                                  : NULL;
    int ok = again && byoc_module_structural_equal(m, again) && text2 && !strcmp(text, text2);
    if (!again) snprintf(why, cap, "re-parse failed: %s\n%s", d.message, text);
    else if (!ok) snprintf(why, cap, "re-parsed module differs:\n%s\n----\n%s", text, text2 ? text2 : "");
    if (again) byoc_free(again, text2);
    byoc_module_destroy(again);
    byoc_free(m, text);
    return ok;
}

static byoc_node *tensor(byoc_module *m, byoc_dtype dt, int rank, const int64_t *dims, const void *data) {
    const byoc_type *t = byoc_tensor_type(m, dt, rank, dims);
    int64_t n = byoc_type_num_elements(t);
    return byoc_constant(m, t, data, (size_t)n * byoc_dtype_size(dt));
}

static const char *const if_text =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(2), float32], %c: bool) {\n"
    "  %0 = add(%x, 1f);\n"
    "  if (%c) {\n"
    "    multiply(%0, %x)\n"
    "  } else {\n"
    "    negative(%0)\n"
    "  }\n"
    "}\n";

static const char *const loop_text =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(2), float32], %n: int64) {\n"
    "  %0 = loop (%n, True, %x) fn (%i: int64, %go: bool, %acc: Tensor[(2), float32]) {\n"
    "    %1 = add(%acc, %x);\n"
    "    %2 = cast(%i, dtype=\"float32\");\n"
    "    %3 = less(%i, 9i64);\n"
    "    (%3, %1, %2)\n"
    "  };\n"
    "  let %y = %0.0;\n"
    "  (%y, %0.1)\n"
    "}\n";

/* ---- if ---- */
static void test_if_print_parse_infer_evaluate(void) {
    byoc_diag d;
    char why[4096];
    byoc_module *m = parse_text(if_text, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    char *text = byoc_module_print(m, 0, NULL);
    CHECK_CONTAINS(text, "if (%c) {");
    CHECK_CONTAINS(text, "} else {");
    CHECK_CONTAINS(text, "multiply(%0, %x)");
    byoc_free(m, text);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    float xs[2] = {1, 2};
    int64_t two = 2;
    for (int c = 0; c < 2; ++c) {
        byoc_node *in[2] = {tensor(m, BYOC_FLOAT32, 1, &two, xs), byoc_constant_scalar(m, BYOC_BOOL, c)}, *out = NULL;
        CHECKF(byoc_module_evaluate(m, in, 2, &out, &d) == BYOC_OK, "%s", d.message);
        /* then: (x + 1) * x = {2, 6}; else: -(x + 1) = {-2, -3} */
        float want0 = c ? 2.0f : -2.0f, want1 = c ? 6.0f : -3.0f;
        CHECKF(byoc_constant_f32(out, 0) == want0 && byoc_constant_f32(out, 1) == want1, "cond %d: %g %g", c,
               byoc_constant_f32(out, 0), byoc_constant_f32(out, 1));
    }
    byoc_module_destroy(m);
}

static void test_if_type_errors(void) {
    byoc_diag d;
    byoc_module *m = parse_text("def @main(%x: Tensor[(2), float32], %c: bool) {\n"
                                "  if (%c) { %x } else { sum(%x) }\n}\n", &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECK(byoc_infer_type(m, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "branches disagree");
    byoc_module_destroy(m);
    m = parse_text("def @main(%x: Tensor[(2), float32]) {\n  if (%x) { %x } else { %x }\n}\n", &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECK(byoc_infer_type(m, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "expected a bool scalar");
    byoc_module_destroy(m);
    /* a name bound inside a branch is not visible after the if */
    m = parse_text("def @main(%x: Tensor[(2), float32], %c: bool) {\n"
                   "  %0 = if (%c) { %1 = negative(%x); %1 } else { %x };\n  %1\n}\n", &d);
    CHECK(m == NULL);
    CHECK_CONTAINS(d.message, "undefined variable %1");
}

/* ---- let ---- */
static void test_let_print_parse_evaluate(void) {
    byoc_diag d;
    char why[4096];
    byoc_module *m = parse_text("def @main(%x: Tensor[(2), float32]) {\n"
                                "  let %y = add(%x, %x);\n  let %z = multiply(%y, %x);\n  subtract(%z, %y)\n}\n", &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    char *text = byoc_module_print(m, 0, NULL);
    CHECK_CONTAINS(text, "let %y = add(%x, %x);"); /* graph form: the lets name their values */
    CHECK_CONTAINS(text, "let %z = multiply(%y, %x);");
    byoc_free(m, text);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    float xs[2] = {1, 3};
    int64_t two = 2;
    byoc_node *in = tensor(m, BYOC_FLOAT32, 1, &two, xs), *out = NULL;
    CHECKF(byoc_module_evaluate(m, &in, 1, &out, &d) == BYOC_OK, "%s", d.message);
    /* y = 2x, z = 2x^2, z - y = {0, 12} */
    CHECK(byoc_constant_f32(out, 0) == 0.0f && byoc_constant_f32(out, 1) == 12.0f);
    byoc_module_destroy(m);
    m = parse_text("def @main(%x: Tensor[(2), float32]) {\n  let %y: Tensor[(3), float32] = %x;\n  %y\n}\n", &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECK(byoc_infer_type(m, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "declared Tensor[(3,), float32] but is given Tensor[(2,), float32]");
    byoc_module_destroy(m);
}

/* ---- loop ---- */
static void test_loop_print_parse_infer_evaluate(void) {
    byoc_diag d;
    char why[4096], buf[256];
    byoc_module *m = parse_text(loop_text, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    byoc_type_to_string(byoc_module_function(m, "main")->body->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "(Tensor[(2,), float32], Tensor[(?,), float32])"), "got %s", buf);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    float xs[2] = {1, 2};
    int64_t two = 2;
    /* trip count 3 stops first: acc = 4x, scans = {0, 1, 2}; trip count 100: the condition stops it after
       i = 9 (10 iterations) */
    int64_t trips[2] = {3, 100}, iters[2] = {3, 10};
    for (int k = 0; k < 2; ++k) {
        byoc_node *in[2] = {tensor(m, BYOC_FLOAT32, 1, &two, xs), tensor(m, BYOC_INT64, 0, NULL, &trips[k])};
        byoc_node *out = NULL;
        CHECKF(byoc_module_evaluate(m, in, 2, &out, &d) == BYOC_OK, "%s", d.message);
        CHECK(out->kind == BYOC_NODE_TUPLE && out->nargs == 2);
        CHECK(byoc_constant_f32(out->args[0], 1) == 2.0f * (float)(iters[k] + 1));
        CHECK(out->args[1]->annotation->dims[0] == iters[k]);
        CHECK(byoc_constant_f32(out->args[1], iters[k] - 1) == (float)(iters[k] - 1));
    }
    byoc_module_destroy(m);
}

static void test_loop_type_errors(void) {
    byoc_diag d;
    byoc_module *m = parse_text("def @main(%x: Tensor[(2), float32]) {\n"
                                "  loop (5i64, True, %x) fn (%i: int64, %c: bool, %a: Tensor[(2), float32]) {\n"
                                "    (%c, sum(%a))\n  }\n}\n", &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECK(byoc_infer_type(m, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "carried value 0 enters as Tensor[(2,), float32] but the body returns");
    byoc_module_destroy(m);
    m = parse_text("def @main(%x: Tensor[(2), float32]) {\n"
                   "  loop (5, True, %x) fn (%i: int64, %c: bool, %a: Tensor[(2), float32]) { (%c, %a) }\n}\n", &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECK(byoc_infer_type(m, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "trip count has type int32");
    byoc_module_destroy(m);
    m = parse_text("def @main(%x: Tensor[(2), float32]) {\n"
                   "  loop (5i64, True, %x) fn (%i: int64, %c: bool) { (%c, %x) }\n}\n", &d);
    CHECK(m == NULL);
    CHECK_CONTAINS(d.message, "the loop body takes 2 parameters, expected 3");
}


/* a module mixing dataflow with if, let and loop, whose bodies hold foldable and fusable ops */
static const char *const mixed_text =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(1, 4), float32], %c: bool) {\n"
    "  %0 = add(%x, 1f);\n"
    "  %1 = nn.relu(%0);\n"
    "  %2 = if (%c) {\n"
    "    %3 = add(1f, 2f);\n"
    "    %4 = multiply(%1, %3);\n"
    "    nn.relu(%4)\n"
    "  } else {\n"
    "    %5 = negative(%1);\n"
    "    exp(%5)\n"
    "  };\n"
    "  %6 = loop (2i64, True, %2) fn (%i: int64, %go: bool, %a: Tensor[(1, 4), float32]) {\n"
    "    %7 = add(%a, %x);\n"
    "    %8 = nn.relu(%7);\n"
    "    (%go, %8, %7)\n"
    "  };\n"
    "  let %y = %6.0;\n"
    "  %9 = sigmoid(%y);\n"
    "  add(%9, %x)\n"
    "}\n";

static byoc_node *mixed_output(byoc_module *m, int cond, byoc_diag *d) {
    float xs[4] = {-1, 0.5f, 2, -3};
    int64_t dims[2] = {1, 4};
    byoc_node *in[2] = {tensor(m, BYOC_FLOAT32, 2, dims, xs), byoc_constant_scalar(m, BYOC_BOOL, cond)}, *out = NULL;
    return byoc_module_evaluate(m, in, 2, &out, d) == BYOC_OK ? out : NULL;
}

/* every registered pass either transforms the module into one that verifies and computes the same
   values, or refuses with a message: none crashes, none silently changes the result */
static void test_every_pass_is_safe(void) {
    byoc_diag d;
    byoc_module *ref = parse_text(mixed_text, &d);
    CHECKF(ref != NULL, "%s", d.message);
    byoc_node *want[2] = {mixed_output(ref, 0, &d), mixed_output(ref, 1, &d)};
    CHECKF(want[0] && want[1], "%s", d.message);
    for (int i = 0; i < byoc_pass_count(); ++i) {
        const byoc_pass *pass = byoc_pass_at(i);
        byoc_module *m = parse_text(mixed_text, &d);
        byoc_pass_context *ctx = byoc_pass_context_create();
        byoc_pass_context_set_verify(ctx, 1);
        byoc_result r = byoc_run_passes(m, &pass->name, 1, ctx, &d);
        if (r == BYOC_OK) {
            CHECKF(byoc_verify(m, 0, &d) == BYOC_OK, "%s: %s", pass->name, d.message);
            for (int c = 0; c < 2; ++c) {
                byoc_node *got = mixed_output(m, c, &d);
                CHECKF(got != NULL, "%s: evaluate: %s", pass->name, d.message);
                for (int k = 0; k < 4; ++k)
                    CHECKF(fabsf(byoc_constant_f32(got, k) - byoc_constant_f32(want[c], k)) < 1e-5f,
                           "%s changed element %d (cond %d): %g vs %g", pass->name, k, c, byoc_constant_f32(got, k),
                           byoc_constant_f32(want[c], k));
            }
        } else CHECKF(d.message[0] != 0, "%s failed without a message", pass->name);
        byoc_pass_context_destroy(ctx);
        byoc_module_destroy(m);
    }
    byoc_module_destroy(ref);
}


/* no control node inside a function of the module other than @main and the bodies' own (partitions
   are module functions: none may hold an if, a let or a loop) */
static int partitions_hold_control(byoc_module *m) {
    for (int i = 0; i < byoc_module_function_count(m); ++i) {
        byoc_global_function g = byoc_module_function_at(m, i);
        if (!strcmp(g.name, "main")) continue;
        byoc_graph gr;
        if (byoc_graph_build(m, g.function->body, BYOC_GRAPH_ENTER_FUNCTIONS, &gr) != BYOC_OK) return 1;
        int found = 0;
        for (int k = 0; k < gr.count; ++k) {
            byoc_node_kind kind = gr.nodes[k].node->kind;
            found |= kind == BYOC_NODE_IF || kind == BYOC_NODE_LET || kind == BYOC_NODE_LOOP;
        }
        byoc_graph_free(&gr);
        if (found) return 1;
    }
    return 0;
}

/* greedy placement with a backend taking every op used: the dataflow around the control nodes and inside
   their bodies is partitioned, the control nodes stay on the host, and the module still computes the
   same values */
static void test_partitioning_keeps_control_on_host(void) {
    static const char *const spec = "backend acc\nsupports add multiply negative exp nn.relu sigmoid\n";
    byoc_diag d;
    byoc_module *ref = parse_text(mixed_text, &d), *m = parse_text(mixed_text, &d);
    CHECKF(ref && m, "%s", d.message);
    byoc_node *want = mixed_output(ref, 1, &d);
    CHECKF(want != NULL, "%s", d.message);
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    byoc_backend_spec *b = byoc_backend_parse(spec, strlen(spec), "acc.backend", &d);
    CHECKF(b != NULL, "%s", d.message);
    const byoc_backend_spec *bs[1] = {b};
    byoc_partition_options o;
    memset(&o, 0, sizeof o);
    o.backends = bs;
    o.nbackends = 1;
    byoc_placement_report *r = NULL;
    CHECKF(byoc_partition_greedy(m, &o, &r, &d) == BYOC_OK, "%s", d.message);
    CHECK(byoc_module_function_count(m) > 1); /* something was partitioned */
    CHECK(!partitions_hold_control(m));
    CHECKF(byoc_verify(m, 0, &d) == BYOC_OK, "%s", d.message);
    byoc_node *got = mixed_output(m, 1, &d);
    CHECKF(got != NULL, "%s", d.message);
    for (int k = 0; k < 4; ++k) CHECK(fabsf(byoc_constant_f32(got, k) - byoc_constant_f32(want, k)) < 1e-5f);
    char *text = byoc_placement_report_format(r, "report", NULL);
    CHECK_CONTAINS(text, "acc: control flow (if) stays on the host");
    byoc_free(r->arena, text);
    byoc_placement_report_free(r);
    byoc_backend_free(b);
    byoc_module_destroy(m);
    byoc_module_destroy(ref);
}


/* the Collage search over a module with control nodes: it prices and places the dataflow around them,
   keeps the control nodes (and their bodies) on the host, and the result computes the same values */
static void test_collage_keeps_control_on_host(void) {
    static const char *const spec = "backend acc\nsupports add multiply negative exp nn.relu sigmoid\n";
    byoc_diag d;
    byoc_module *ref = parse_text(mixed_text, &d), *m = parse_text(mixed_text, &d);
    CHECKF(ref && m, "%s", d.message);
    byoc_node *want = mixed_output(ref, 0, &d);
    CHECKF(want != NULL, "%s", d.message);
    byoc_backend_spec *b = byoc_backend_parse(spec, strlen(spec), "acc.backend", &d);
    CHECKF(b != NULL, "%s", d.message);
    const byoc_backend_spec *bs[1] = {b};
    byoc_collage_options o;
    memset(&o, 0, sizeof o);
    o.backends = bs;
    o.nbackends = 1;
    static const char *const names[2] = {"acc", "host"};
    static const double base[2] = {1, 3}; /* the backend is cheaper: it takes what it can */
    byoc_collage_mock mock = {names, base, 2};
    o.cost = byoc_collage_mock_cost;
    o.cost_data = &mock;
    byoc_collage_stats st;
    memset(&st, 0, sizeof st);
    byoc_result r = byoc_partition_collage(m, &o, &st, NULL, &d);
    CHECKF(r == BYOC_OK, "%s", d.message);
    CHECK(!partitions_hold_control(m));
    CHECKF(byoc_verify(m, 0, &d) == BYOC_OK, "%s", d.message);
    byoc_node *got = mixed_output(m, 0, &d);
    CHECKF(got != NULL, "%s", d.message);
    for (int k = 0; k < 4; ++k) CHECK(fabsf(byoc_constant_f32(got, k) - byoc_constant_f32(want, k)) < 1e-5f);
    byoc_collage_stats_free(&st);
    byoc_backend_free(b);
    byoc_module_destroy(m);
    byoc_module_destroy(ref);
}


/* FoldConstant: an if whose condition is a constant becomes the branch it takes */
static void test_fold_constant_selects_branch(void) {
    byoc_diag d;
    byoc_module *m = parse_text("def @main(%x: Tensor[(2), float32]) {\n"
                                "  %0 = add(%x, 1f);\n"
                                "  %1 = if (True) { multiply(%0, 2f) } else { negative(%0) };\n"
                                "  %2 = if (False) { multiply(%0, 2f) } else { negative(%0) };\n"
                                "  (%1, %2)\n}\n", &d);
    CHECKF(m != NULL, "%s", d.message);
    const char *fold = "fold_constant";
    byoc_pass_context *ctx = byoc_pass_context_create();
    CHECKF(byoc_run_passes(m, &fold, 1, ctx, &d) == BYOC_OK, "%s", d.message);
    byoc_pass_context_destroy(ctx);
    char *text = byoc_module_print(m, 0, NULL);
    CHECKF(!strstr(text, "if ("), "an if is left:\n%s", text);
    CHECK_CONTAINS(text, "multiply(%0, 2f)");
    CHECK_CONTAINS(text, "negative(%0)");
    byoc_free(m, text);
    CHECKF(byoc_verify(m, 0, &d) == BYOC_OK, "%s", d.message);
    byoc_module_destroy(m);
}


/* byoc_sim.h lowers an if to a control kernel with a program per branch (tests/test_sim_cflow.c runs them) */
static void test_sim_lowers_control_flow(void) {
    byoc_diag d;
    byoc_module *m = parse_text(if_text, &d);
    CHECKF(m != NULL && byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    byoc_sim_program *p = byoc_sim_lower(m, NULL, &d);
    CHECKF(p != NULL, "%s", d.message);
    int k = byoc_sim_kernel_count(p) - 1;
    CHECK(k >= 0 && byoc_sim_kernel(p, k)->exec == BYOC_SIM_EXEC_CONTROL && byoc_sim_kernel_body_count(p, k) == 2);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
}

/* ---- building in C, copies, passes ---- */
static void test_builder_and_copy(void) {
    byoc_module *m = byoc_module_create(NULL);
    int64_t two = 2;
    const byoc_type *t = byoc_tensor_type(m, BYOC_FLOAT32, 1, &two);
    byoc_node *x = byoc_var(m, "x", t), *c = byoc_var(m, "c", byoc_tensor_type(m, BYOC_BOOL, 0, NULL));
    byoc_node *a = byoc_var(m, "a", t), *b = byoc_var(m, "b", t);
    byoc_node *then_fn = byoc_function(m, &a, 1, byoc_call(m, "exp", &a, 1, NULL), NULL, NULL);
    byoc_node *else_fn = byoc_function(m, &b, 1, b, NULL, NULL);
    byoc_node *iff = byoc_if(m, c, then_fn, else_fn, &x, 1);
    byoc_node *params[2] = {x, c};
    byoc_module_add_function(m, "main", byoc_function(m, params, 2, iff, NULL, NULL));
    byoc_diag d;
    CHECKF(!byoc_module_error(m), "%s", byoc_module_error(m)->message);
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    CHECK(byoc_if(m, c, then_fn, else_fn, NULL, 0) == NULL); /* bodies take one capture */
    CHECK_CONTAINS(byoc_module_error(m)->message, "if: body 0 takes 1 parameters, expected 0");
    byoc_module_clear_error(m);
    byoc_module *copy = byoc_module_clone(m, NULL);
    CHECK(copy && byoc_module_structural_equal(m, copy));
    CHECK(byoc_structural_hash(byoc_module_function(m, "main")) ==
          byoc_structural_hash(byoc_module_function(copy, "main")));
    byoc_module_destroy(copy);
    byoc_module_destroy(m);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_if_print_parse_infer_evaluate), TEST_ENTRY(test_if_type_errors),
        TEST_ENTRY(test_let_print_parse_evaluate),      TEST_ENTRY(test_loop_print_parse_infer_evaluate),
        TEST_ENTRY(test_loop_type_errors),              TEST_ENTRY(test_builder_and_copy),
        TEST_ENTRY(test_every_pass_is_safe),            TEST_ENTRY(test_partitioning_keeps_control_on_host),
        TEST_ENTRY(test_collage_keeps_control_on_host), TEST_ENTRY(test_fold_constant_selects_branch),
        TEST_ENTRY(test_sim_lowers_control_flow),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
