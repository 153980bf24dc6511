/* Long let chains (issue 24, point 1): Relay's A-normal form, every value a let. A let whose value is a
   computed node binds in graph form (doc block "CONTROL FLOW"), so chains of 100, 10k and 100k lets, as
   text and through byoc_let_bind, must parse, print back exactly, type-check, verify, evaluate as the
   same program written as dataflow, go through every registered pass, fuse (FuseOps groups the chain of
   elementwise ops as TVM's does after ToGraphNormalForm), partition onto the npu (greedy and Collage) and
   run on byoc_sim.h -- with no recursion growing with the chain. A let that must keep its scope (its
   body never reads it, it binds a value bound before, or it is annotated) stays a LET node.
   Public API only. */
#include "byoc_sim.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

enum { N_ELEMS = 4 };

/* ---- helpers ---- */
typedef struct text_buf { char *data; size_t len, cap; } text_buf;

static void put(text_buf *b, const char *s) {
    size_t n = strlen(s);
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->data = (char *)realloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, s, n + 1);
    b->len += n;
}

/* step i of the chain: adds 1 on even steps, halves on odd ones (values stay near 1 at any length) */
static const char *step_op(int i) { return i % 2 ? "multiply" : "add"; }
static const char *step_operand(int i) { return i % 2 ? "0.5f" : "1f"; }

/* the chain as its printer writes it: `let %vI = op(prev, c);` per step, %vN-1 last. as_dataflow writes
   the same program with `%I = ...;` bindings instead */
static char *chain_text(int n, int as_dataflow) {
    text_buf b = {NULL, 0, 0};
    char line[160], prev[32] = "%x";
    put(&b, "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(4,), float32]) {\n");
    for (int i = 0; i < n; ++i) {
        if (as_dataflow && i == n - 1) snprintf(line, sizeof line, "  %s(%s, %s)\n", step_op(i), prev, step_operand(i));
        else if (as_dataflow)
            snprintf(line, sizeof line, "  %%%d = %s(%s, %s);\n", i, step_op(i), prev, step_operand(i));
        else snprintf(line, sizeof line, "  let %%v%d = %s(%s, %s);\n", i, step_op(i), prev, step_operand(i));
        put(&b, line);
        snprintf(prev, sizeof prev, as_dataflow ? "%%%d" : "%%v%d", i);
    }
    if (!as_dataflow) {
        snprintf(line, sizeof line, "  %s\n", prev);
        put(&b, line);
    }
    put(&b, "}\n");
    return b.data;
}

static byoc_module *parse_typed(const char *text, byoc_diag *d) {
    byoc_module *m = byoc_module_parse(text, strlen(text), "chain.relay", NULL, d);
    if (m && byoc_infer_type(m, d) != BYOC_OK) {
        byoc_module_destroy(m);
        return NULL;
    }
    return m;
}

/* the same chain through the builder: each step named with byoc_let_bind */
static byoc_module *chain_built(int n) {
    byoc_module *m = byoc_module_create(NULL);
    int64_t four = N_ELEMS;
    byoc_node *x = byoc_var(m, "x", byoc_tensor_type(m, BYOC_FLOAT32, 1, &four)), *prev = x;
    for (int i = 0; i < n; ++i) {
        byoc_node *args[2] = {prev, byoc_constant_scalar(m, BYOC_FLOAT32, i % 2 ? 0.5 : 1.0)};
        char name[32];
        snprintf(name, sizeof name, "v%d", i);
        prev = byoc_let_bind(m, name, byoc_call(m, step_op(i), args, 2, NULL));
    }
    byoc_module_add_function(m, "main", byoc_function(m, &x, 1, prev, NULL, NULL));
    return m;
}

static const float inputs[N_ELEMS] = {-3, 0.25f, 1, 1000};

/* what the chain computes on inputs[k], in float32 as the kernels do */
static float chain_value(int n, int k) {
    float v = inputs[k];
    for (int i = 0; i < n; ++i) v = i % 2 ? v * 0.5f : v + 1.0f;
    return v;
}

static byoc_node *evaluate(byoc_module *m, byoc_diag *d) {
    int64_t four = N_ELEMS;
    byoc_node *in = byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, 1, &four), inputs, sizeof inputs), *out = NULL;
    return byoc_module_evaluate(m, &in, 1, &out, d) == BYOC_OK ? out : NULL;
}

static int evaluates_to_chain(byoc_module *m, int n, char *why, size_t cap) {
    byoc_diag d;
    byoc_node *out = evaluate(m, &d);
    if (!out) { snprintf(why, cap, "evaluate: %s", d.message); return 0; }
    for (int k = 0; k < N_ELEMS; ++k)
        if (byoc_constant_f32(out, k) != chain_value(n, k)) {
            snprintf(why, cap, "element %d: %g, expected %g", k, byoc_constant_f32(out, k), chain_value(n, k));
            return 0;
        }
    return 1;
}

/* how many nodes of a kind @main's graph holds (bodies and functions entered) */
static int count_kind(byoc_module *m, byoc_node_kind kind) {
    byoc_graph g;
    byoc_node *body = byoc_module_function(m, "main")->body;
    if (byoc_graph_build(m, body, BYOC_GRAPH_ENTER_FUNCTIONS, &g) != BYOC_OK) return -1;
    int c = 0;
    for (int i = 0; i < g.count; ++i) c += g.nodes[i].node->kind == kind;
    byoc_graph_free(&g);
    return c;
}

static const int sizes[] = {100, 10000, 100000};

/* ---- text, builder, types ---- */
static void test_chain_round_trips_and_is_graph_form(void) {
    for (int s = 0; s < 3; ++s) {
        int n = sizes[s];
        char *text = chain_text(n, 0), *flow = chain_text(n, 1), why[256];
        byoc_diag d;
        byoc_module *m = parse_typed(text, &d);
        CHECKF(m != NULL, "%d lets: %s", n, d.message);
        CHECKF(byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "%d lets: %s", n, d.message);
        CHECKF(count_kind(m, BYOC_NODE_LET) == 0 && count_kind(m, BYOC_NODE_CALL) == n, "%d lets", n);
        char *printed = byoc_module_print(m, 0, NULL);
        CHECKF(printed && !strcmp(printed, text), "%d lets do not print back as written", n);
        byoc_free(m, printed);
        /* the same graph as the program written as dataflow, and as the builder's chain */
        byoc_module *df = parse_typed(flow, &d), *built = chain_built(n);
        CHECKF(df != NULL, "%s", d.message);
        CHECKF(!byoc_module_error(built) && byoc_infer_type(built, &d) == BYOC_OK, "builder, %d lets", n);
        CHECKF(byoc_module_structural_equal(m, df) && byoc_module_structural_equal(m, built), "%d lets", n);
        printed = byoc_module_print(built, 0, NULL);
        CHECKF(printed && !strcmp(printed, text), "the built chain of %d lets prints differently", n);
        byoc_free(built, printed);
        /* a copy keeps the lets' names */
        byoc_module *copy = byoc_module_clone(m, NULL);
        printed = copy ? byoc_module_print(copy, 0, NULL) : NULL;
        CHECKF(printed && !strcmp(printed, text), "a clone of %d lets prints differently", n);
        byoc_free(copy, printed);
        CHECKF(evaluates_to_chain(m, n, why, sizeof why), "%d lets: %s", n, why);
        CHECKF(evaluates_to_chain(built, n, why, sizeof why), "built, %d lets: %s", n, why);
        byoc_module_destroy(copy);
        byoc_module_destroy(built);
        byoc_module_destroy(df);
        byoc_module_destroy(m);
        free(text);
        free(flow);
    }
}

/* a type error deep in a chain names the let's line */
static void test_chain_type_error_names_the_line(void) {
    char *text = chain_text(10000, 0);
    char *at = strstr(text, "let %v5000 = add(%v4999, 1f);");
    CHECK(at != NULL);
    memcpy(strstr(at, "1f"), "1 ", 2); /* an int32 operand: add's types no longer agree */
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, strlen(text), "chain.relay", NULL, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECK(byoc_infer_type(m, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "chain.relay:5003");
    byoc_module_destroy(m);
    free(text);
}

/* ---- passes ---- */
/* every registered pass on a 10k chain: it verifies and computes the same, or refuses with a message */
static void test_chain_every_pass(void) {
    char *text = chain_text(10000, 0), why[256];
    for (int i = 0; i < byoc_pass_count(); ++i) {
        const byoc_pass *pass = byoc_pass_at(i);
        byoc_diag d;
        byoc_module *m = parse_typed(text, &d);
        CHECKF(m != NULL, "%s", d.message);
        byoc_pass_context *ctx = byoc_pass_context_create();
        byoc_result r = byoc_run_passes(m, &pass->name, 1, ctx, &d);
        if (r == BYOC_OK) {
            CHECKF(byoc_verify(m, 0, &d) == BYOC_OK, "%s: %s", pass->name, d.message);
            CHECKF(evaluates_to_chain(m, 10000, why, sizeof why), "%s: %s", pass->name, why);
        } else CHECKF(d.message[0] != 0, "%s failed without a message", pass->name);
        byoc_pass_context_destroy(ctx);
        byoc_module_destroy(m);
    }
    free(text);
}

/* FuseOps groups the elementwise chain: 100 lets are one primitive function, 100k lets a few hundred,
   each cut at the fusion depth limit (fuse_ops.max_depth) */
static void test_chain_fuses(void) {
    static const int lets[] = {100, 100000}, groups[] = {1, 100000 / 100};
    for (int s = 0; s < 2; ++s) {
        char *text = chain_text(lets[s], 0), why[256];
        byoc_diag d;
        byoc_module *m = parse_typed(text, &d);
        CHECKF(m != NULL, "%s", d.message);
        CHECKF(byoc_fuse_ops(m, 256, &d) == BYOC_OK, "%s", d.message);
        int fused = 0;
        byoc_graph g;
        CHECK(byoc_graph_build(m, byoc_module_function(m, "main")->body, 0, &g) == BYOC_OK);
        for (int i = 0; i < g.count; ++i) {
            const byoc_node *n = g.nodes[i].node;
            fused += n->kind == BYOC_NODE_CALL && !n->op;
            CHECKF(!(n->kind == BYOC_NODE_CALL && n->op), "an op call stayed outside the fused functions");
        }
        byoc_graph_free(&g);
        CHECKF(fused >= 1 && fused <= groups[s], "%d lets: %d fused calls, expected at most %d", lets[s], fused,
               groups[s]);
        CHECKF(evaluates_to_chain(m, lets[s], why, sizeof why), "%s", why);
        byoc_module_destroy(m);
        free(text);
    }
}

/* ---- placement and runtime ---- */
/* greedy onto the npu, then Collage with the npu and the dsp: every add and multiply leaves the host and
   the result still computes the chain; the host runtime and the partitioned program run it too */
static void test_chain_partitions_and_runs(void) {
    for (int s = 0; s < 3; ++s) {
        int n = sizes[s];
        char *text = chain_text(n, 0), why[256];
        byoc_diag d;
        byoc_sim_backend *npu = byoc_sim_backend_open("npu", &d), *dsp = byoc_sim_backend_open("dsp", &d);
        CHECKF(npu && dsp, "%s", d.message);
        byoc_module *m = parse_typed(text, &d);
        CHECKF(m != NULL, "%s", d.message);
        /* the host runtime first */
        byoc_sim_program *p = byoc_sim_lower(m, NULL, &d);
        CHECKF(p != NULL, "lower, %d lets: %s", n, d.message);
        int64_t four = N_ELEMS;
        byoc_tensor in, out;
        memset(&in, 0, sizeof in);
        in.dtype = BYOC_FLOAT32, in.rank = 1, in.dims[0] = four, in.data = (void *)(uintptr_t)inputs;
        CHECKF(byoc_sim_run(p, &in, 1, &out, 1, &d) == BYOC_OK, "run, %d lets: %s", n, d.message);
        for (int k = 0; k < N_ELEMS; ++k)
            CHECKF(((const float *)out.data)[k] == chain_value(n, k), "host run, %d lets, element %d", n, k);
        byoc_sim_program_destroy(p);
        /* greedy on the npu */
        const byoc_backend_spec *specs[2] = {npu->spec, dsp->spec};
        byoc_partition_options o;
        memset(&o, 0, sizeof o);
        o.backends = specs;
        o.nbackends = 1;
        o.bind_constants = 1;
        byoc_placement_report *rep = NULL;
        CHECKF(byoc_partition_greedy(m, &o, &rep, &d) == BYOC_OK, "greedy, %d lets: %s", n, d.message);
        int on_npu = 0;
        for (int i = 0; i < rep->count; ++i) on_npu += !strcmp(rep->nodes[i].backend, "npu");
        CHECKF(on_npu == n, "%d lets: %d ops on the npu", n, on_npu);
        byoc_placement_report_free(rep);
        CHECKF(evaluates_to_chain(m, n, why, sizeof why), "greedy, %d lets: %s", n, why);
        const byoc_target *targets[1] = {npu->target};
        CHECKF(byoc_run_target_hooks(m, targets, 1, &d) == BYOC_OK, "%s", d.message);
        p = byoc_sim_lower(m, NULL, &d);
        CHECKF(p != NULL, "lower on the npu, %d lets: %s", n, d.message);
        CHECKF(byoc_sim_run(p, &in, 1, &out, 1, &d) == BYOC_OK, "npu run, %d lets: %s", n, d.message);
        for (int k = 0; k < N_ELEMS; ++k) /* the npu computes in its own arithmetic: close, not exact */
            CHECKF(fabsf(((const float *)out.data)[k] - chain_value(n, k)) < 0.05f, "npu run, %d lets, element %d: %g",
                   n, k, ((const float *)out.data)[k]);
        byoc_sim_program_destroy(p);
        byoc_module_destroy(m);
        if (n <= 10000) { /* Collage over the chain, as over the dataflow it is: linear in the ops (10k lets
                             about 0.3 s, Combine stopping at its 50000 candidates a backend); 100k is left out */
            m = parse_typed(text, &d);
            CHECKF(m != NULL, "%s", d.message);
            byoc_sim_collage_devices cd;
            memset(&cd, 0, sizeof cd);
            byoc_sim_backend *both[2] = {npu, dsp};
            cd.backends = (const byoc_sim_backend *const *)both;
            cd.count = 2;
            byoc_collage_options co;
            memset(&co, 0, sizeof co);
            co.backends = specs;
            co.nbackends = 2;
            co.cost = byoc_sim_collage_cost;
            co.cost_data = &cd;
            byoc_collage_stats st;
            CHECKF(byoc_partition_collage(m, &co, &st, NULL, &d) == BYOC_OK, "collage, %d lets: %s", n, d.message);
            CHECKF(st.ops == n && st.nplacement == n && st.candidates >= n && st.cost <= st.plans[0].cost,
                   "collage, %d lets: %d ops, %d placed, %d candidates", n, st.ops, st.nplacement, st.candidates);
            CHECKF(evaluates_to_chain(m, n, why, sizeof why), "collage, %d lets: %s", n, why);
            byoc_collage_stats_free(&st);
            byoc_sim_collage_devices_release(&cd);
            byoc_module_destroy(m);
        }
        byoc_sim_backend_close(npu);
        byoc_sim_backend_close(dsp);
        free(text);
    }
}

/* ---- lets that keep their scope ---- */
static void test_scoped_lets(void) {
    byoc_diag d;
    char why[256];
    /* never read: a LET node (DCE drops it); a value bound before and an annotated let: LET nodes too. The
       printer writes the value of a LET node as a binding of its own (`%0 = exp(%a); let %dead = %0;`), the
       same program, which prints back exactly */
    static const char *const text = "def @main(%x: Tensor[(4), float32]) {\n"
                                    "  let %a = add(%x, 1f);\n"
                                    "  let %dead = exp(%a);\n"
                                    "  %0 = multiply(%a, 0.5f);\n"
                                    "  let %b = %0;\n"
                                    "  let %c: Tensor[(4,), float32] = add(%b, 1f);\n"
                                    "  let %d = multiply(%c, 0.5f);\n"
                                    "  %d\n"
                                    "}\n";
    static const char *const canonical = "#[version = \"0.0.5\"]\n"
                                         "def @main(%x: Tensor[(4,), float32]) {\n"
                                         "  let %a = add(%x, 1f);\n"
                                         "  %0 = exp(%a);\n"
                                         "  let %dead = %0;\n"
                                         "  %1 = multiply(%a, 0.5f);\n"
                                         "  let %b = %1;\n"
                                         "  %2 = add(%b, 1f);\n"
                                         "  let %c: Tensor[(4,), float32] = %2;\n"
                                         "  let %d = multiply(%c, 0.5f);\n"
                                         "  %d\n"
                                         "}\n";
    byoc_module *m = parse_typed(text, &d), *again = parse_typed(canonical, &d);
    CHECKF(m && again, "%s", d.message);
    CHECKF(count_kind(m, BYOC_NODE_LET) == 3, "%d LET nodes", count_kind(m, BYOC_NODE_LET));
    CHECK(byoc_module_structural_equal(m, again));
    char *printed = byoc_module_print(m, 0, NULL);
    CHECKF(printed && !strcmp(printed, canonical), "printed:\n%s", printed ? printed : "");
    byoc_free(m, printed);
    printed = byoc_module_print(again, 0, NULL);
    CHECKF(printed && !strcmp(printed, canonical), "printed:\n%s", printed ? printed : "");
    byoc_free(again, printed);
    byoc_module_destroy(again);
    CHECKF(evaluates_to_chain(m, 4, why, sizeof why), "%s", why);
    CHECKF(byoc_dead_code_elimination(m, &d) == BYOC_OK, "%s", d.message);
    printed = byoc_module_print(m, 0, NULL);
    CHECKF(printed && !strstr(printed, "%dead") && strstr(printed, "let %a = add(%x, 1f);"), "after DCE:\n%s",
           printed ? printed : "");
    byoc_free(m, printed);
    CHECKF(evaluates_to_chain(m, 4, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
    /* shadowing: a let may rebind its name; a chain inside a branch is graph form in that body */
    m = parse_typed("def @main(%x: Tensor[(4), float32], %c: bool) {\n"
                    "  let %v = add(%x, 1f);\n  let %v = multiply(%v, 0.5f);\n"
                    "  if (%c) { let %w = add(%v, 1f); let %w = multiply(%w, 0.5f); %w } else { %x }\n}\n", &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECK(count_kind(m, BYOC_NODE_LET) == 0 && count_kind(m, BYOC_NODE_IF) == 1);
    byoc_module_destroy(m);
}

static void test_let_bind_errors(void) {
    byoc_module *m = byoc_module_create(NULL);
    int64_t four = N_ELEMS;
    byoc_node *x = byoc_var(m, "x", byoc_tensor_type(m, BYOC_FLOAT32, 1, &four));
    CHECK(byoc_let_bind(m, "y", x) == NULL);
    CHECK_CONTAINS(byoc_module_error(m)->message, "is not a call, tuple, tuple item, if or loop");
    byoc_module_clear_error(m);
    byoc_node *e = byoc_call(m, "exp", &x, 1, NULL);
    CHECK(byoc_let_bind(m, "y", e) == e);
    CHECK(byoc_let_bind(m, "z", e) == NULL);
    CHECK_CONTAINS(byoc_module_error(m)->message, "is already named %y by a let");
    byoc_module_clear_error(m);
    CHECK(byoc_let_bind(m, "", byoc_call(m, "exp", &x, 1, NULL)) == NULL);
    CHECK_CONTAINS(byoc_module_error(m)->message, "the let needs a name");
    byoc_module_clear_error(m);
    CHECK(byoc_let_bind(m, "y", NULL) == NULL && byoc_module_error(m) == NULL); /* a NULL input: no new error */
    byoc_module_destroy(m);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_chain_round_trips_and_is_graph_form), TEST_ENTRY(test_chain_type_error_names_the_line),
        TEST_ENTRY(test_chain_every_pass), TEST_ENTRY(test_chain_fuses), TEST_ENTRY(test_chain_partitions_and_runs),
        TEST_ENTRY(test_scoped_lets), TEST_ENTRY(test_let_bind_errors),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
