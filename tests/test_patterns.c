/* Tests of the dataflow pattern language: building, parsing, printing, matching, rewrite and partition.
   Cases follow TVM's tests/python/relay/test_dataflow_pattern.py, written anew. */
#include "byoc.h"
#include "test.h"

#include <stdlib.h>

/* a module parsed from text and type-checked; main's body is the expression under test */
static byoc_module *typed(const char *text) {
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, strlen(text), "t.relay", NULL, &d);
    if (!m) { fprintf(stderr, "parse: %s\n", d.message); return NULL; }
    if (byoc_infer_type(m, &d) != BYOC_OK) { fprintf(stderr, "type: %s\n", d.message); byoc_module_destroy(m); return NULL; }
    return m;
}

static byoc_node *body(byoc_module *m) { return byoc_module_function(m, "main")->body; }

static byoc_pattern *pat(byoc_module *m, const char *text) {
    byoc_diag d;
    byoc_pattern *p = byoc_pattern_parse(m, text, strlen(text), "p.pat", &d);
    if (!p) fprintf(stderr, "pattern: %s\n", d.message);
    return p;
}

/* does the pattern (text) match main's body of the module (text)? -1 on setup failure */
static int matches(const char *module_text, const char *pattern_text) {
    byoc_module *m = typed(module_text);
    if (!m) return -1;
    byoc_pattern *p = pat(m, pattern_text);
    if (!p) { byoc_module_destroy(m); return -1; }
    byoc_graph g;
    byoc_graph_build(m, body(m), 0, &g);
    int r = byoc_pattern_match(p, body(m), &g, NULL);
    byoc_graph_free(&g);
    byoc_module_destroy(m);
    return r;
}

#define T22 "Tensor[(2, 2), float32]"

static void test_basic_kinds(void) {
    const char *relu = "def @main(%x: " T22 ") { nn.relu(%x) }";
    CHECK(matches(relu, "wildcard()") == 1);
    CHECK(matches(relu, "is_op(\"nn.relu\")(wildcard())") == 1);
    CHECK(matches(relu, "is_op(\"nn.relu\")(is_var(\"x\"))") == 1);
    CHECK(matches(relu, "is_op(\"nn.relu\")(is_var(\"y\"))") == 0);
    CHECK(matches(relu, "is_op(\"nn.relu\")(is_var())") == 1);
    CHECK(matches(relu, "is_op(\"nn.relu\")(is_constant())") == 0);
    CHECK(matches(relu, "is_op(\"tanh\")(wildcard())") == 0);
    CHECK(matches(relu, "is_op(\"nn.relu\")(*)") == 1); /* any arguments */
    CHECK(matches(relu, "is_op(\"nn.relu\")(wildcard(), wildcard())") == 0); /* arity must agree */
    CHECK(matches("def @main(%x: " T22 ") { add(%x, 1f) }", "is_op(\"add\")(wildcard(), is_expr(1f))") == 1);
    CHECK(matches("def @main(%x: " T22 ") { add(%x, 2f) }", "is_op(\"add\")(wildcard(), is_expr(1f))") == 0);
}

static void test_commutative_add_multiply(void) {
    const char *m = "def @main(%x: " T22 ") { add(%x, 1f) }";
    CHECK(matches(m, "is_op(\"add\")(is_constant(), wildcard())") == 1); /* tried with swapped arguments */
    CHECK(matches("def @main(%x: " T22 ") { multiply(%x, 1f) }", "is_op(\"multiply\")(is_constant(), is_var())") == 1);
    CHECK(matches("def @main(%x: " T22 ") { subtract(%x, 1f) }", "is_op(\"subtract\")(is_constant(), is_var())") == 0);
}

static void test_alternatives_and_optional(void) {
    const char *conv = "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) { nn.conv2d(%x, %w) }";
    const char *conv_relu = "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) { %0 = nn.conv2d(%x, %w); nn.relu(%0) }";
    const char *opt = "is_op(\"nn.conv2d\")(wildcard(), wildcard()).optional(is_op(\"nn.relu\"))";
    CHECK(matches(conv, opt) == 1);
    CHECK(matches(conv_relu, opt) == 1);
    CHECK(matches(conv_relu, "(is_op(\"tanh\") | is_op(\"nn.relu\"))(wildcard())") == 1);
    CHECK(matches(conv_relu, "is_op(\"tanh\")(wildcard()) | is_op(\"sigmoid\")(wildcard())") == 0);
    /* chained optionals: conv, then optional bias_add, then optional relu */
    const char *chain = "is_op(\"nn.conv2d\")(wildcard(), wildcard()).optional(is_op(\"nn.relu\")).optional(is_op(\"nn.relu\"))";
    CHECK(matches("def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) { %0 = nn.conv2d(%x, %w); %1 = nn.relu(%0); nn.relu(%1) }", chain) == 1);
}

static void test_one_binding_per_pattern_node(void) {
    const char *same = "def @main(%x: " T22 ") { add(%x, %x) }";
    const char *diff = "def @main(%x: " T22 ", %y: " T22 ") { add(%x, %y) }";
    CHECK(matches(same, "x = wildcard()\nis_op(\"add\")(x, x)") == 1);
    CHECK(matches(diff, "x = wildcard()\nis_op(\"add\")(x, x)") == 0);
    /* rollback: the left alternative binds x to %x and then fails; the right one must start clean */
    CHECK(matches(diff, "x = wildcard()\n(is_op(\"add\")(x, is_var(\"z\")) | is_op(\"add\")(wildcard(), x))") == 1);
}

static void test_attr_type_constraints(void) {
    const char *conv = "def @main(%x: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(4, 2, 3, 3), float32]) { nn.conv2d(%x, %w, groups=2) }";
    CHECK(matches(conv, "is_op(\"nn.conv2d\")(wildcard(), wildcard()).has_attr({\"groups\": 2})") == 1);
    CHECK(matches(conv, "is_op(\"nn.conv2d\")(wildcard(), wildcard()).has_attr({\"groups\": 1})") == 0);
    CHECK(matches(conv, "is_op(\"nn.conv2d\")(wildcard(), wildcard()).has_attr({\"strides\": [1, 1], \"data_layout\": \"NCHW\"})") == 1);
    CHECK(matches(conv, "is_op(\"nn.conv2d\")(wildcard(), wildcard()).has_dtype(\"float32\")") == 1);
    CHECK(matches(conv, "wildcard().has_dtype(\"int8\")") == 0);
    CHECK(matches(conv, "wildcard().has_shape([1, 4, 6, 6])") == 1);
    CHECK(matches(conv, "wildcard().has_shape([1, 4, 8, 8])") == 0);
    CHECK(matches(conv, "wildcard().has_type(\"Tensor[(1, 4, 6, 6), float32]\")") == 1);
    /* op attributes: TOpPattern of the callee (0 = elemwise, 4 = out_elemwise_fusable) */
    CHECK(matches(conv, "wildcard().has_attr({\"TOpPattern\": 4})(wildcard(), wildcard())") == 1);
    CHECK(matches(conv, "wildcard().has_attr({\"TOpPattern\": 0})(wildcard(), wildcard())") == 0);
    CHECK(matches("def @main(%x: " T22 ") { nn.relu(%x) }", "is_op(\"nn.relu\").has_attr({\"TOpPattern\": 0})(wildcard())") == 1);
    /* function attributes */
    CHECK(matches("def @main(%x: " T22 ") { %0 = fn (%a: " T22 ", Composite=\"npu.relu\") { nn.relu(%a) }; %0(%x) }",
                  "wildcard().has_attr({\"Composite\": \"npu.relu\"})(wildcard())") == 1);
}

/* has_shape: '?' equals only an unknown dimension (TVM's Any under StructuralEqual), '*' any dimension;
   the rank must agree */
static void test_shape_unknown_and_wildcard_dims(void) {
    const char *dynamic = "def @main(%x: Tensor[(1, ?, 8), float32]) { nn.relu(%x) }";
    const char *fixed = "def @main(%x: Tensor[(1, 4, 8), float32]) { nn.relu(%x) }";
    CHECK(matches(dynamic, "wildcard().has_shape([1, ?, 8])") == 1);
    CHECK(matches(dynamic, "wildcard().has_shape([1, 4, 8])") == 0);
    CHECK(matches(dynamic, "wildcard().has_shape([1, *, 8])") == 1);
    CHECK(matches(fixed, "wildcard().has_shape([1, ?, 8])") == 0);
    CHECK(matches(fixed, "wildcard().has_shape([1, *, 8])") == 1);
    CHECK(matches(fixed, "wildcard().has_shape([*, *, *])") == 1);
    CHECK(matches(fixed, "wildcard().has_shape([1, *, 7])") == 0);
    CHECK(matches(fixed, "wildcard().has_shape([*, *])") == 0);
    /* from C: BYOC_DIM_WILDCARD is the text's '*' */
    byoc_module *m = typed(fixed);
    CHECK(m);
    const int64_t dims[3] = {1, BYOC_DIM_WILDCARD, 8};
    byoc_pattern *p = byoc_pat_has_shape(m, byoc_pat_wildcard(m), 3, dims);
    CHECK(p);
    char *text = byoc_pattern_print(m, p);
    CHECK_CONTAINS(text, "wildcard().has_shape([1, *, 8])");
    byoc_free(m, text);
    CHECK(byoc_pattern_match(p, body(m), NULL, NULL) == 1);
    byoc_module_destroy(m);
}

static void test_tuples(void) {
    const char *m = "def @main(%x: " T22 ", %y: " T22 ") { %0 = (%x, %y); %1 = %0.1; nn.relu(%1) }";
    CHECK(matches(m, "is_op(\"nn.relu\")(is_tuple_get_item(is_tuple([wildcard(), wildcard()]), 1))") == 1);
    CHECK(matches(m, "is_op(\"nn.relu\")(is_tuple_get_item(is_tuple([wildcard(), wildcard()]), 0))") == 0);
    CHECK(matches(m, "is_op(\"nn.relu\")(is_tuple_get_item(is_tuple(None)))") == 1);
    CHECK(matches(m, "is_op(\"nn.relu\")(is_tuple_get_item(is_tuple([wildcard()]), 1))") == 0);
    /* batch_norm's first output, as in TVM's tuple_get_item composite test */
    const char *bn = "def @main(%x: Tensor[(1, 2, 4, 4), float32], %g: Tensor[(2,), float32]) { %0 = nn.batch_norm(%x, %g, %g, %g, %g); %1 = %0.0; nn.relu(%1) }";
    CHECK(matches(bn, "is_op(\"nn.relu\")(is_tuple_get_item(is_op(\"nn.batch_norm\")(*), 0))") == 1);
}

#define DIAMOND_HEAD "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(3, 3, 1, 1), float32]) {\n  %0 = nn.conv2d(%x, %w);\n"
static const char *const diamond_pattern =
    "conv = is_op(\"nn.conv2d\")(wildcard(), wildcard())\n"
    "elemwise = wildcard().has_attr({\"TOpPattern\": 0})(wildcard())\n"
    "dominates(conv, elemwise, is_op(\"add\")(wildcard(), wildcard()))\n";

static void test_dominator(void) {
    /* conv -> relu -> (sigmoid, tanh) -> add: everything between conv and add is elementwise */
    CHECK(matches(DIAMOND_HEAD "  %1 = nn.relu(%0);\n  %2 = sigmoid(%1);\n  %3 = tanh(%1);\n  add(%2, %3)\n}", diamond_pattern) == 1);
    /* a non-elementwise op on one path breaks it */
    CHECK(matches(DIAMOND_HEAD "  %1 = nn.relu(%0);\n  %2 = nn.softmax(%1);\n  %3 = tanh(%1);\n  add(%2, %3)\n}", diamond_pattern) == 0);
    /* fake diamond: the second input comes from a different conv, so there is no single parent */
    CHECK(matches(DIAMOND_HEAD "  %1 = nn.relu(%0);\n  %2 = nn.conv2d(%x, %w);\n  %3 = tanh(%2);\n  add(%1, %3)\n}", diamond_pattern) == 0);
    /* the parent also feeds the result directly: still dominated */
    CHECK(matches(DIAMOND_HEAD "  %1 = nn.relu(%0);\n  add(%1, %0)\n}", diamond_pattern) == 1);
    /* the parent escapes to another output: the add does not post-dominate it */
    byoc_module *m = typed(DIAMOND_HEAD "  %1 = nn.relu(%0);\n  %2 = tanh(%1);\n  %3 = add(%1, %2);\n  (%3, %0)\n}");
    CHECK(m != NULL);
    byoc_pattern *p = pat(m, diamond_pattern);
    byoc_graph g;
    byoc_graph_build(m, body(m), 0, &g);
    CHECK(byoc_pattern_match(p, body(m)->args[0], &g, NULL) == 0);
    byoc_graph_free(&g);
    byoc_module_destroy(m);
}

static void test_match_bindings(void) {
    byoc_module *m = typed("def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) { %0 = nn.conv2d(%x, %w); nn.relu(%0) }");
    CHECK(m != NULL);
    byoc_pattern *data = byoc_pat_wildcard(m), *weight = byoc_pat_var(m, "w");
    byoc_pattern *cargs[2] = {data, weight};
    byoc_pattern *conv = byoc_pat_call_op(m, "nn.conv2d", cargs, 2);
    byoc_pattern *relu = byoc_pat_call_op(m, "nn.relu", &conv, 1);
    byoc_match *mt;
    CHECK(byoc_pattern_match(relu, body(m), NULL, &mt));
    CHECK(byoc_match_get(mt, relu) == body(m));
    CHECK(byoc_match_get(mt, conv) == body(m)->args[0]);
    CHECK(byoc_match_get(mt, data) == byoc_module_function(m, "main")->params[0]);
    CHECK(byoc_match_get(mt, weight) == byoc_module_function(m, "main")->params[1]);
    byoc_match_free(mt);
    CHECK(byoc_pat_op(m, "nn.not_an_op") == NULL);
    CHECK_CONTAINS(byoc_module_error(m)->message, "is_op: unknown op 'nn.not_an_op'");
    byoc_module_destroy(m);
}

static void test_parse_print_round_trip(void) {
    static const char *const cases[] = {
        "wildcard()",
        "is_op(\"nn.conv2d\")(wildcard(), is_constant()).has_attr({\"groups\": 1, \"strides\": [1, 1]})",
        "(is_op(\"nn.relu\")(wildcard()) | is_op(\"tanh\")(wildcard()))",
        "is_tuple_get_item(is_tuple([is_var(\"a\"), is_var()]), 1).has_dtype(\"float16\").has_shape([1, ?, 3])",
        "wildcard().has_shape([*, ?, 3, *])",
        "is_op(\"nn.conv2d\")(wildcard(), wildcard()).optional(is_op(\"nn.relu\"))",
        "x = wildcard()\nis_op(\"add\")(x, x)",
        "dominates(is_op(\"nn.conv2d\")(*), wildcard().has_attr({\"TOpPattern\": 0})(wildcard()), is_op(\"add\")(wildcard(), wildcard()))",
        "is_expr(1f).has_type(\"float32\")",
        "is_tuple(None)",
    };
    byoc_module *m = byoc_module_create(NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        byoc_pattern *p = pat(m, cases[i]);
        CHECKF(p != NULL, "case %zu does not parse", i);
        char *text = byoc_pattern_print(m, p);
        byoc_pattern *q = pat(m, text);
        CHECKF(q != NULL, "case %zu: printed form does not parse: %s", i, text);
        char *again = byoc_pattern_print(m, q);
        CHECKF(strcmp(text, again) == 0, "case %zu: %s != %s", i, text, again);
        byoc_free(m, text);
        byoc_free(m, again);
    }
    /* a shared node is printed once, as a binding */
    byoc_pattern *shared = pat(m, "x = is_op(\"nn.relu\")(wildcard())\nis_op(\"add\")(x, x)");
    char *text = byoc_pattern_print(m, shared);
    CHECK_CONTAINS(text, "p1 = is_op(\"nn.relu\")(wildcard())");
    CHECK_CONTAINS(text, "is_op(\"add\")(p1, p1)");
    byoc_free(m, text);
    byoc_module_destroy(m);
}

static void test_parse_errors(void) {
    static const struct { const char *text, *expect; } cases[] = {
        {"is_op(\"nn.conv2d\")(wildcard(),", "p.pat:1:31: expected a pattern but found end of input"},
        {"is_op(\"nn.nope\")(wildcard())", "p.pat:1:7: unknown op 'nn.nope'"},
        {"wildcard().has_dtype(\"float99\")", "p.pat:1:22: unknown dtype 'float99'"},
        {"wildcard().frobnicate()", "p.pat:1:12: unknown pattern method 'frobnicate'"},
        {"conv(wildcard())", "p.pat:1:1: unknown pattern function 'conv'"},
        {"x = wildcard()\nis_op(\"add\")(x, y)", "p.pat:2:17: undefined pattern name 'y'"},
        {"wildcard().has_attr({groups: 1})", "p.pat:1:22: expected a string but found 'groups'"},
        {"", "no pattern in the text"},
        {"wildcard() wildcard()", "expected end of the pattern"},
        {"is_tuple_get_item(wildcard(), -3)", "tuple index -3 out of range"},
    };
    byoc_module *m = byoc_module_create(NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        byoc_diag d;
        byoc_pattern *p = byoc_pattern_parse(m, cases[i].text, strlen(cases[i].text), "p.pat", &d);
        CHECKF(p == NULL, "case %zu parsed", i);
        CHECKF(strstr(d.message, cases[i].expect) != NULL, "case %zu: got \"%s\"", i, d.message);
        byoc_module_clear_error(m);
    }
    byoc_module_destroy(m);
}

/* ---- partition and rewrite ---- */
static char *print_main(byoc_module *m, byoc_node *new_body) {
    byoc_node *fn = byoc_module_function(m, "main");
    byoc_module_set_function(m, "main", byoc_function(m, fn->params, fn->nparams, new_body, NULL, &fn->attrs));
    byoc_diag d;
    if (byoc_infer_type(m, &d) != BYOC_OK) fprintf(stderr, "%s\n", d.message);
    return byoc_module_print(m, BYOC_PRINT_NO_HEADER, NULL);
}

static void test_partition_add_relu(void) {
    byoc_module *m = typed("def @main(%x: " T22 ", %y: " T22 ") { %0 = add(%x, %y); nn.relu(%0) }");
    byoc_pattern *p = pat(m, "is_op(\"nn.relu\")(is_op(\"add\")(wildcard(), wildcard()))");
    byoc_attrs a = {0};
    byoc_attrs_set_string(m, &a, "Composite", "test.add_relu");
    byoc_node *r = byoc_pattern_partition(m, p, body(m), &a, NULL, NULL);
    CHECK(r && r != body(m));
    char *text = print_main(m, r);
    CHECK_CONTAINS(text, "fn (%FunctionVar_0_0: Tensor[(2, 2), float32], %FunctionVar_0_1: Tensor[(2, 2), float32], "
                         "Composite=\"test.add_relu\", PartitionedFromPattern=\"add_nn.relu_\")");
    CHECK_CONTAINS(text, "(%x, %y)");
    byoc_free(m, text);
    byoc_module_destroy(m);
}

static void test_partition_constant_embedding(void) {
    const char *src = "def @main(%x: Tensor[(1, 3, 8, 8), float32]) { nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(4, 3, 3, 3), float32] */) }";
    /* is_constant(): the weight stays inside the function */
    byoc_module *m = typed(src);
    byoc_node *r = byoc_pattern_partition(m, pat(m, "is_op(\"nn.conv2d\")(wildcard(), is_constant())"), body(m), NULL, NULL, NULL);
    CHECK(r && r->kind == BYOC_NODE_CALL && r->callee->kind == BYOC_NODE_FUNCTION);
    CHECK(r->nargs == 1 && r->callee->nparams == 1);
    CHECK(r->callee->body->args[1]->kind == BYOC_NODE_CONSTANT);
    byoc_module_destroy(m);
    /* wildcard(): the weight becomes a parameter */
    m = typed(src);
    r = byoc_pattern_partition(m, pat(m, "is_op(\"nn.conv2d\")(wildcard(), wildcard())"), body(m), NULL, NULL, NULL);
    CHECK(r && r->nargs == 2 && r->args[1]->kind == BYOC_NODE_CONSTANT && r->callee->nparams == 2);
    byoc_module_destroy(m);
}

static void test_partition_overused_and_dominated(void) {
    /* the add's result is also used outside and that user does not lead into the relu: refused */
    byoc_module *m = typed("def @main(%x: " T22 ", %y: " T22 ") { %0 = add(%x, %y); %1 = nn.relu(%0); (%1, %0) }");
    byoc_pattern *p = pat(m, "is_op(\"nn.relu\")(is_op(\"add\")(wildcard(), wildcard()))");
    byoc_node *r = byoc_pattern_partition(m, p, body(m), NULL, NULL, NULL);
    CHECK(r == body(m)); /* unchanged */
    byoc_module_destroy(m);
    /* the outside user (tanh) flows back into the root: accepted, and the add is computed twice */
    m = typed("def @main(%x: " T22 ", %y: " T22 ") { %0 = add(%x, %y); %1 = tanh(%0); %2 = multiply(%0, %1); nn.relu(%2) }");
    p = pat(m, "is_op(\"nn.relu\")(is_op(\"multiply\")(is_op(\"add\")(wildcard(), wildcard()), wildcard()))");
    r = byoc_pattern_partition(m, p, body(m), NULL, NULL, NULL);
    CHECK(r && r != body(m));
    char *text = print_main(m, r);
    CHECK_CONTAINS(text, "PartitionedFromPattern=\"add_multiply_nn.relu_\"");
    /* the outer add survives for tanh: two adds in the printed module */
    const char *first = strstr(text, "add(");
    CHECK(first && strstr(first + 1, "add("));
    byoc_free(m, text);
    byoc_module_destroy(m);
}

static void test_partition_two_matches_in_a_chain(void) {
    /* the second rewrite must see the first: both matches end up outlined */
    byoc_module *m = typed("def @main(%x: " T22 ") { %0 = add(%x, %x); %1 = nn.relu(%0); %2 = tanh(%1); %3 = add(%2, %2); nn.relu(%3) }");
    byoc_pattern *p = pat(m, "is_op(\"nn.relu\")(is_op(\"add\")(wildcard(), wildcard()))");
    byoc_node *r = byoc_pattern_partition(m, p, body(m), NULL, NULL, NULL);
    char *text = print_main(m, r);
    const char *first = strstr(text, "PartitionedFromPattern");
    CHECK(first && strstr(first + 1, "PartitionedFromPattern"));
    CHECK(strstr(text, "tanh(") != NULL);
    byoc_free(m, text);
    byoc_module_destroy(m);
}

static void test_partition_leaf_root_groups_nothing(void) {
    /* wildcard() matches every node, but a match whose root is a leaf has nothing to outline */
    byoc_module *m = typed("def @main(%x: " T22 ") { nn.relu(%x) }");
    byoc_node *r = byoc_pattern_partition(m, pat(m, "wildcard()"), body(m), NULL, NULL, NULL);
    CHECK(r == body(m));
    byoc_module_destroy(m);
}

static int veto_all(const byoc_match *mt, byoc_node *root, void *ud) {
    (void)mt; (void)root;
    ++*(int *)ud;
    return 0;
}

static void test_partition_check_and_no_overlap(void) {
    /* two relus in a chain: the outer match wins (outputs first), the inner one overlaps it */
    byoc_module *m = typed("def @main(%x: " T22 ") { %0 = nn.relu(%x); %1 = nn.relu(%0); nn.relu(%1) }");
    byoc_pattern *p = pat(m, "is_op(\"nn.relu\")(is_op(\"nn.relu\")(wildcard()))");
    byoc_node *r = byoc_pattern_partition(m, p, body(m), NULL, NULL, NULL);
    CHECK(r && r->kind == BYOC_NODE_CALL && r->callee && r->callee->kind == BYOC_NODE_FUNCTION);
    CHECK(r->args[0]->op == byoc_op_get("nn.relu")); /* the first relu stays outside */
    int calls = 0;
    r = byoc_pattern_partition(m, p, body(m), NULL, veto_all, &calls);
    CHECK(r == body(m) && calls == 1); /* vetoed; its nodes stay claimed, so the inner match is not tried */
    byoc_module_destroy(m);
}

static byoc_node *double_to_multiply(byoc_module *m, byoc_node *root, const byoc_match *mt, void *ud) {
    byoc_node *x = byoc_match_get(mt, (const byoc_pattern *)ud);
    byoc_node *args[2] = {x, byoc_constant_scalar(m, BYOC_FLOAT32, 2.0)};
    (void)root;
    return byoc_call(m, "multiply", args, 2, NULL);
}

static void test_rewrite(void) {
    byoc_module *m = typed("def @main(%x: " T22 ") { %0 = add(%x, %x); %1 = add(%0, %0); tanh(%1) }");
    byoc_pattern *x = byoc_pat_wildcard(m);
    byoc_pattern *xx[2] = {x, x};
    byoc_pattern *p = byoc_pat_call_op(m, "add", xx, 2);
    byoc_node *r = byoc_pattern_rewrite(m, p, body(m), double_to_multiply, x, 0);
    CHECK(r != NULL);
    char *text = print_main(m, r);
    CHECK_CONTAINS(text, "%0 = multiply(%x, 2f);");
    CHECK_CONTAINS(text, "%1 = multiply(%0, 2f);");
    CHECK(strstr(text, "add(") == NULL);
    byoc_free(m, text);
    byoc_module_destroy(m);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_basic_kinds),
        TEST_ENTRY(test_commutative_add_multiply),
        TEST_ENTRY(test_alternatives_and_optional),
        TEST_ENTRY(test_one_binding_per_pattern_node),
        TEST_ENTRY(test_attr_type_constraints),
        TEST_ENTRY(test_shape_unknown_and_wildcard_dims),
        TEST_ENTRY(test_tuples),
        TEST_ENTRY(test_dominator),
        TEST_ENTRY(test_match_bindings),
        TEST_ENTRY(test_parse_print_round_trip),
        TEST_ENTRY(test_parse_errors),
        TEST_ENTRY(test_partition_add_relu),
        TEST_ENTRY(test_partition_constant_embedding),
        TEST_ENTRY(test_partition_overused_and_dominated),
        TEST_ENTRY(test_partition_check_and_no_overlap),
        TEST_ENTRY(test_partition_two_matches_in_a_chain),
        TEST_ENTRY(test_partition_leaf_root_groups_nothing),
        TEST_ENTRY(test_rewrite),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
