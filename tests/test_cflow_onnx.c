/* Control flow from ONNX files and bad control flow in any form:
   - the models of tests/cflow (If, Loop, Scan, an If in a Loop; tests/cflow/make_models.py) imported and run by
     the reference evaluator (byoc_module_evaluate), every output equal to ONNX Runtime's (ort_output_K.npy);
   - ONNX models written here byte by byte whose subgraphs are wrong (branches of different types or ranks, a
     carried value changing shape, an outer name nobody defines, scan inputs of different lengths, nesting past
     the limit): each import fails with a message naming the node, and the enclosing ones for an inner node;
   - the same mistakes in the text format, and nesting deep enough to exhaust a recursive parser or type
     checker: refused with a message, never a crash. */
#include "byoc.h"
#include "tools/byoc_onnx.h"
#include "test.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ops_test.h"

/* ---- .npy files (numpy's format, version 1-3, C order, little-endian) as constants ---- */
static unsigned char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            cap = cap ? cap * 2 : 4096;
            buf = (unsigned char *)realloc(buf, cap);
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got);
    fclose(f);
    *len = n;
    return buf;
}

/* the dtype of a numpy descr ('<f4', '<i8', '|b1', ...), or -1 */
static int npy_dtype(const char *descr) {
    static const struct { const char *descr; byoc_dtype dtype; } kinds[] = {
        {"<f4", BYOC_FLOAT32}, {"<f8", BYOC_FLOAT64}, {"<i8", BYOC_INT64}, {"<i4", BYOC_INT32},
        {"|b1", BYOC_BOOL},    {"|i1", BYOC_INT8},    {"|u1", BYOC_UINT8},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k)
        if (!strncmp(descr, kinds[k].descr, 3)) return (int)kinds[k].dtype;
    return -1;
}

/* the tensor of a .npy file as a constant of m, NULL (why in msg) when it is not one this test reads */
static byoc_node *npy_constant(byoc_module *m, const char *path, char *msg, size_t cap) {
    size_t len = 0;
    unsigned char *b = slurp(path, &len);
    byoc_node *k = NULL;
    if (!b || len < 10 || memcmp(b, "\x93NUMPY", 6)) {
        snprintf(msg, cap, "%s: not a .npy file", path);
        free(b);
        return NULL;
    }
    size_t hlen = b[6] == 1 ? (size_t)(b[8] | b[9] << 8) : len >= 12 ? (size_t)(b[8] | b[9] << 8 | b[10] << 16) : len;
    size_t start = b[6] == 1 ? 10 : 12;
    char header[512];
    if (start + hlen > len || hlen >= sizeof header) {
        snprintf(msg, cap, "%s: bad header", path);
        free(b);
        return NULL;
    }
    memcpy(header, b + start, hlen);
    header[hlen] = 0;
    const char *descr = strstr(header, "'descr': '"), *shape = strstr(header, "'shape': (");
    int dtype = descr ? npy_dtype(descr + 10) : -1;
    if (dtype < 0 || !shape || strstr(header, "'fortran_order': True")) {
        snprintf(msg, cap, "%s: header %s not read by this test", path, header);
        free(b);
        return NULL;
    }
    int64_t dims[BYOC_MAX_RANK];
    int rank = 0;
    for (const char *p = shape + 10; *p && *p != ')' && rank < BYOC_MAX_RANK;) {
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p) { ++p; continue; }
        dims[rank++] = v;
        p = end;
    }
    const byoc_type *t = byoc_tensor_type(m, (byoc_dtype)dtype, rank, dims);
    size_t bytes = (size_t)byoc_type_num_elements(t) * byoc_dtype_size((byoc_dtype)dtype);
    if (start + hlen + bytes != len)
        snprintf(msg, cap, "%s: %zu data bytes, the shape needs %zu", path, len - start - hlen, bytes);
    else k = byoc_constant(m, t, b + start + hlen, bytes);
    free(b);
    return k;
}

/* got equals want: the same type, integers exactly, floats within 1e-4 x max(1, max|want|) (tests/models.sh's
   tolerance: the evaluator's float sums run in another order than ONNX Runtime's) */
static int same_values(const byoc_node *got, const byoc_node *want, char *why, size_t cap) {
    char a[160], b[160];
    if (!byoc_type_equal(got->annotation, want->annotation)) {
        byoc_type_to_string(got->annotation, a, sizeof a);
        byoc_type_to_string(want->annotation, b, sizeof b);
        snprintf(why, cap, "%s, ONNX Runtime gives %s", a, b);
        return 0;
    }
    byoc_dtype dt = want->annotation->dtype;
    int64_t n = byoc_type_num_elements(want->annotation);
    double scale = 1;
    for (int64_t i = 0; i < n; ++i) scale = fmax(scale, fabs(load_elem(dt, want->data, i)));
    double tol = dt == BYOC_FLOAT32 || dt == BYOC_FLOAT64 ? 1e-4 * scale : 0;
    for (int64_t i = 0; i < n; ++i) {
        double x = load_elem(dt, got->data, i), y = load_elem(dt, want->data, i);
        if (!(fabs(x - y) <= tol)) {
            snprintf(why, cap, "element %lld is %.9g, ONNX Runtime gives %.9g", (long long)i, x, y);
            return 0;
        }
    }
    return 1;
}

/* printed with types and weights, parsed back with them: an equal module */
static int round_trips_with_weights(byoc_module *m, char *why, size_t cap) {
    size_t len, wsize;
    char *text = byoc_module_print(m, BYOC_PRINT_TYPES, &len);
    void *weights = byoc_module_weights_serialize(m, &wsize);
    byoc_parse_options po;
    memset(&po, 0, sizeof po);
    po.weights = weights;
    po.weights_size = wsize;
    po.require_weights = 1;
    byoc_diag d;
    byoc_module *again = text && weights ? byoc_module_parse(text, len, "printed.relay", &po, &d) : NULL;
    int ok = again && byoc_module_structural_equal(m, again);
    if (!again) snprintf(why, cap, "re-parse failed: %s", text && weights ? d.message : "no text or weights");
    else if (!ok) snprintf(why, cap, "re-parsed module differs:\n%.500s", text);
    byoc_module_destroy(again);
    byoc_free(m, text);
    byoc_free(m, weights);
    return ok;
}

/* one model directory: import, evaluate on input_K.npy, compare with ort_output_K.npy, print and re-parse;
   1 when all hold */
static int evaluates_as_ort(const char *dir, char *why, size_t cap) {
    char path[1200];
    byoc_onnx_model model;
    byoc_diag d;
    snprintf(path, sizeof path, "%s/model.onnx", dir);
    if (byoc_onnx_load(path, NULL, &model, &d) != BYOC_OK) { snprintf(why, cap, "import: %s", d.message); return 0; }
    byoc_node *in[8], *out = NULL;
    int nin = 0, ok = 1;
    for (; ok && nin < model.ninputs && nin < 8; ++nin) {
        snprintf(path, sizeof path, "%s/input_%d.npy", dir, nin);
        ok = (in[nin] = npy_constant(model.module, path, why, cap)) != NULL;
    }
    if (ok && byoc_module_evaluate(model.module, in, nin, &out, &d) != BYOC_OK) {
        snprintf(why, cap, "evaluate: %s", d.message);
        ok = 0;
    }
    int nout = ok ? (out->kind == BYOC_NODE_TUPLE ? out->nargs : 1) : 0;
    if (ok && nout != model.noutputs) {
        snprintf(why, cap, "%d outputs, the model has %d", nout, model.noutputs);
        ok = 0;
    }
    for (int k = 0; ok && k < nout; ++k) {
        snprintf(path, sizeof path, "%s/ort_output_%d.npy", dir, k);
        byoc_node *want = npy_constant(model.module, path, why, cap);
        char one[400];
        ok = want && same_values(out->kind == BYOC_NODE_TUPLE ? out->args[k] : out, want, one, sizeof one);
        if (want && !ok) snprintf(why, cap, "output %d (%s): %s", k, model.output_names[k], one);
    }
    /* the imported control flow prints and parses back to the same module (captures, spans, loop forms) */
    if (ok && !round_trips_with_weights(model.module, why, cap)) ok = 0;
    byoc_onnx_model_free(&model);
    return ok;
}

static void test_models_evaluate_as_onnx_runtime(void) {
    DIR *root = opendir("tests/cflow");
    CHECKF(root != NULL, "%s", "tests/cflow is missing (run from the repository's root)");
    if (!root) return;
    struct dirent *e;
    int models = 0;
    while ((e = readdir(root)) != NULL) {
        char dir[600], probe[700], why[1000] = "";
        snprintf(dir, sizeof dir, "tests/cflow/%s", e->d_name);
        snprintf(probe, sizeof probe, "%s/ort_output_0.npy", dir);
        FILE *f = e->d_name[0] != '.' ? fopen(probe, "rb") : NULL;
        if (!f) continue;
        fclose(f);
        models++;
        CHECKF(evaluates_as_ort(dir, why, sizeof why), "%s: %s", e->d_name, why);
    }
    closedir(root);
    CHECKF(models >= 7, "%d models with ONNX Runtime outputs in tests/cflow, expected 7", models);
}

/* ---- ONNX models with subgraphs, written byte by byte (tests/ops_test.h's protobuf writer) ---- */
static const int64_t dims23[2] = {2, 3}, dims2[1] = {2}, dims32[2] = {3, 2}, dims42[2] = {4, 2};

/* a NodeProto: inputs and outputs NULL-terminated ("" an omitted input) */
static pb make_node(const char *op, const char *name, const char *const *ins, const char *const *outs) {
    pb n = {NULL, 0, 0};
    for (int i = 0; ins && ins[i]; ++i) pb_str(&n, 1, ins[i]);
    for (int i = 0; outs && outs[i]; ++i) pb_str(&n, 2, outs[i]);
    pb_str(&n, 3, name);
    pb_str(&n, 4, op);
    return n;
}
/* an AttributeProto of type GRAPH (5) holding g, which it frees */
static void attr_graph(pb *node, const char *name, pb *g) {
    pb a = {NULL, 0, 0};
    pb_str(&a, 1, name);
    pb_msg(&a, 6, g);
    pb_int(&a, 20, 5);
    pb_msg(node, 5, &a);
}
/* a graph of one node (which it frees), named name */
static pb graph_of(pb *node, const char *name) {
    pb g = {NULL, 0, 0};
    pb_msg(&g, 1, node);
    pb_str(&g, 2, name);
    return g;
}
/* imports a model whose graph is g (freed): BYOC_OK, or the error in d */
static byoc_result import_graph(pb *g, byoc_onnx_model *model, byoc_diag *d) {
    pb m = {NULL, 0, 0}, ops = {NULL, 0, 0};
    pb_int(&m, 1, 8);
    pb_str(&ops, 1, "");
    pb_int(&ops, 2, 17);
    pb_msg(&m, 8, &ops);
    pb_msg(&m, 7, g);
    byoc_result r = byoc_onnx_import(m.p, m.n, "cflow.onnx", NULL, model, d);
    free(m.p);
    return r;
}
#define CHECK_GRAPH_REFUSED(g, needle1, needle2)                                                        \
    do {                                                                                                \
        byoc_onnx_model model_;                                                                         \
        byoc_diag d_;                                                                                   \
        byoc_result r_ = import_graph(&(g), &model_, &d_);                                              \
        if (r_ == BYOC_OK) byoc_onnx_model_free(&model_);                                               \
        CHECKF(r_ != BYOC_OK && strstr(d_.message, (needle1)) && strstr(d_.message, (needle2)),         \
               "expected \"%s\" and \"%s\", got \"%s\"", (needle1), (needle2),                        \
               r_ == BYOC_OK ? "success" : d_.message);                                                 \
    } while (0)

/* a branch: one node op(x) -> out, out declared elem of the given rank */
static pb branch(const char *op, const char *out, int elem, int rank, const int64_t *dims, int64_t cast_to) {
    const char *ins[] = {"x", NULL}, *outs[] = {out, NULL};
    pb n = make_node(op, out, ins, outs);
    if (!strcmp(op, "ReduceSum")) attr_int(&n, "keepdims", 0);
    if (!strcmp(op, "Cast")) attr_int(&n, "to", cast_to);
    pb g = graph_of(&n, out);
    value_info(&g, 12, out, elem, rank, dims);
    return g;
}
/* If 'pick' over x: Tensor[(2, 3), float32] and c: bool choosing then_g or else_g (both freed) */
static pb if_model(pb *then_g, pb *else_g) {
    const char *ins[] = {"c", NULL}, *outs[] = {"y", NULL};
    pb n = make_node("If", "pick", ins, outs);
    attr_graph(&n, "then_branch", then_g);
    attr_graph(&n, "else_branch", else_g);
    pb g = graph_of(&n, "g");
    value_info(&g, 11, "x", ONNX_FLOAT, 2, dims23);
    value_info(&g, 11, "c", 9, 0, NULL); /* 9: BOOL */
    value_info(&g, 12, "y", ONNX_FLOAT, 2, dims23);
    return g;
}

static void test_if_branches_of_different_types(void) {
    pb then_g = branch("Identity", "a", ONNX_FLOAT, 2, dims23, 0);
    pb else_g = branch("ReduceSum", "b", ONNX_FLOAT, 0, NULL, 0);
    pb g = if_model(&then_g, &else_g);
    CHECK_GRAPH_REFUSED(g, "node 0 'pick' (If)",
                        "the branches disagree: then gives Tensor[(2, 3), float32], else gives float32");
    then_g = branch("Identity", "a", ONNX_FLOAT, 2, dims23, 0);
    else_g = branch("Cast", "b", ONNX_INT64, 2, dims23, ONNX_INT64);
    g = if_model(&then_g, &else_g);
    CHECK_GRAPH_REFUSED(g, "node 0 'pick' (If)", "else gives Tensor[(2, 3), int64]");
}

static void test_undefined_outer_name(void) {
    /* the then branch adds a name no graph defines: the error names the Add and the If holding it */
    const char *ins[] = {"x", "nowhere", NULL}, *outs[] = {"a", NULL};
    pb add = make_node("Add", "inner_add", ins, outs);
    pb then_g = graph_of(&add, "then");
    value_info(&then_g, 12, "a", ONNX_FLOAT, 2, dims23);
    pb else_g = branch("Identity", "b", ONNX_FLOAT, 2, dims23, 0);
    pb g = if_model(&then_g, &else_g);
    CHECK_GRAPH_REFUSED(g,
                        "node 0 'inner_add' (Add): input 'nowhere' is not defined before this node nor in an "
                        "enclosing graph",
                        "(in the then_branch of node 0 'pick' (If))");
    /* a branch output nobody defines */
    const char *ins2[] = {"x", NULL}, *outs2[] = {"a", NULL};
    pb id = make_node("Identity", "id", ins2, outs2);
    then_g = graph_of(&id, "then");
    value_info(&then_g, 12, "zz", ONNX_FLOAT, 2, dims23);
    else_g = branch("Identity", "b", ONNX_FLOAT, 2, dims23, 0);
    g = if_model(&then_g, &else_g);
    CHECK_GRAPH_REFUSED(g, "node 0 'pick' (If)", "then_branch: output 'zz' is not defined in it or around it");
}

/* Loop 'grow' over x: Tensor[(2), float32] whose body is body (freed); trip count n: int64 */
static pb loop_model(pb *body) {
    const char *ins[] = {"n", "", "x", NULL}, *outs[] = {"y", NULL};
    pb n = make_node("Loop", "grow", ins, outs);
    attr_graph(&n, "body", body);
    pb g = graph_of(&n, "g");
    value_info(&g, 11, "x", ONNX_FLOAT, 1, dims2);
    value_info(&g, 11, "n", ONNX_INT64, 0, NULL);
    value_info(&g, 12, "y", ONNX_FLOAT, 1, dims2);
    return g;
}
/* a loop body (i, cond_in, v) -> (cond_out, vo) whose vo is first(v, v) */
static pb loop_body(pb *first) {
    const char *cin[] = {"ci", NULL}, *cout[] = {"co", NULL};
    pb id = make_node("Identity", "keep_going", cin, cout);
    pb body = graph_of(first, "body");
    pb_msg(&body, 1, &id);
    value_info(&body, 11, "i", ONNX_INT64, 0, NULL);
    value_info(&body, 11, "ci", 9, 0, NULL);
    value_info(&body, 11, "v", ONNX_FLOAT, 1, dims2);
    value_info(&body, 12, "co", 9, 0, NULL);
    value_info(&body, 12, "vo", ONNX_FLOAT, 1, dims2);
    return body;
}

static void test_loop_carried_value_changes_shape(void) {
    const char *ins[] = {"v", "v", NULL}, *outs[] = {"vo", NULL};
    pb cat = make_node("Concat", "twice", ins, outs);
    attr_int(&cat, "axis", 0);
    pb body = loop_body(&cat);
    pb g = loop_model(&body);
    CHECK_GRAPH_REFUSED(g, "node 0 'grow' (Loop)",
                        "carried value 0 enters as Tensor[(2,), float32] but the body returns Tensor[(4,), float32]");
}

static void test_if_in_loop_names_both_enclosing_nodes(void) {
    /* an If inside the Loop body whose then branch reads an undefined name: both holders are named */
    const char *ins[] = {"v", "missing", NULL}, *outs[] = {"a", NULL};
    pb add = make_node("Add", "deep_add", ins, outs);
    pb then_g = graph_of(&add, "then");
    value_info(&then_g, 12, "a", ONNX_FLOAT, 1, dims2);
    const char *ein[] = {"v", NULL}, *eout[] = {"b", NULL};
    pb id = make_node("Identity", "e", ein, eout);
    pb else_g = graph_of(&id, "else");
    value_info(&else_g, 12, "b", ONNX_FLOAT, 1, dims2);
    const char *iin[] = {"ci", NULL}, *iout[] = {"vo", NULL};
    pb inner_if = make_node("If", "inner_if", iin, iout);
    attr_graph(&inner_if, "then_branch", &then_g);
    attr_graph(&inner_if, "else_branch", &else_g);
    pb body = loop_body(&inner_if);
    pb g = loop_model(&body);
    CHECK_GRAPH_REFUSED(g, "node 0 'deep_add' (Add): input 'missing'",
                        "(in the then_branch of node 0 'inner_if' (If), the body of node 0 'grow' (Loop))");
}

static void test_scan_inputs_of_different_lengths(void) {
    const char *ins[] = {"s", "a", NULL}, *outs[] = {"s1", NULL};
    const char *ins2[] = {"s1", "b", NULL}, *outs2[] = {"so", NULL};
    const char *ins3[] = {"so", NULL}, *outs3[] = {"yo", NULL};
    pb n1 = make_node("Add", "add_a", ins, outs), n2 = make_node("Add", "add_b", ins2, outs2),
       n3 = make_node("Identity", "out", ins3, outs3);
    pb body = graph_of(&n1, "cell_body");
    pb_msg(&body, 1, &n2);
    pb_msg(&body, 1, &n3);
    value_info(&body, 11, "s", ONNX_FLOAT, 1, dims2);
    value_info(&body, 11, "a", ONNX_FLOAT, 1, dims2);
    value_info(&body, 11, "b", ONNX_FLOAT, 1, dims2);
    value_info(&body, 12, "so", ONNX_FLOAT, 1, dims2);
    value_info(&body, 12, "yo", ONNX_FLOAT, 1, dims2);
    const char *sin[] = {"s0", "xa", "xb", NULL}, *sout[] = {"s", "ys", NULL};
    pb scan = make_node("Scan", "cell", sin, sout);
    attr_int(&scan, "num_scan_inputs", 2);
    attr_graph(&scan, "body", &body);
    pb g = graph_of(&scan, "g");
    value_info(&g, 11, "s0", ONNX_FLOAT, 1, dims2);
    value_info(&g, 11, "xa", ONNX_FLOAT, 2, dims32);
    value_info(&g, 11, "xb", ONNX_FLOAT, 2, dims42);
    value_info(&g, 12, "s", ONNX_FLOAT, 1, dims2);
    value_info(&g, 12, "ys", ONNX_FLOAT, 2, dims32);
    CHECK_GRAPH_REFUSED(g, "node 0 'cell' (Scan)", "scan input 1 has 4 steps, scan input 0 has 3");
}

/* Ifs nested `depth` deep in their then branches, each else branch x + 1, the innermost then x:
   with c true the model is x, with c false x + 1 */
static pb nested_ifs(int depth) {
    pb inner = branch("Identity", "o0", ONNX_FLOAT, 2, dims23, 0);
    for (int k = 1; k <= depth; ++k) {
        char out[32], name[32], eout[32];
        snprintf(out, sizeof out, "o%d", k);
        snprintf(name, sizeof name, "if%d", k);
        snprintf(eout, sizeof eout, "e%d", k);
        const char *ins[] = {"c", NULL}, *outs[] = {out, NULL}, *eins[] = {"x", "one", NULL}, *eouts[] = {eout, NULL};
        pb e = make_node("Add", eout, eins, eouts);
        pb else_g = graph_of(&e, "else");
        value_info(&else_g, 12, eout, ONNX_FLOAT, 2, dims23);
        pb n = make_node("If", name, ins, outs);
        attr_graph(&n, "then_branch", &inner);
        attr_graph(&n, "else_branch", &else_g);
        inner = graph_of(&n, k == depth ? "g" : "then");
        value_info(&inner, 12, out, ONNX_FLOAT, 2, dims23);
    }
    pb one = {NULL, 0, 0}; /* the initializer one: float 1 */
    float v = 1;
    pb_int(&one, 2, ONNX_FLOAT);
    pb_str(&one, 8, "one");
    pb_bytes(&one, 9, &v, 4);
    pb_msg(&inner, 5, &one);
    value_info(&inner, 11, "x", ONNX_FLOAT, 2, dims23);
    value_info(&inner, 11, "c", 9, 0, NULL);
    return inner;
}

static void test_nesting_limit(void) {
    pb g = nested_ifs(17);
    CHECK_GRAPH_REFUSED(g, "node 0 'if1' (If): subgraphs nest more than 16 deep",
                        "(in the then_branch of node 0 'if2' (If), the then_branch of node 0 'if3' (If), 14 more");
    g = nested_ifs(16); /* at the limit: imports and runs */
    byoc_onnx_model model;
    byoc_diag d;
    CHECKF(import_graph(&g, &model, &d) == BYOC_OK, "%s", d.message);
    if (model.module == NULL) return;
    CHECKF(model.nnodes == 33, "%d nodes counted, the graph and its subgraphs hold 33", model.nnodes);
    char text_why[700];
    CHECKF(round_trips(model.module, text_why, sizeof text_why), "%s", text_why); /* 16 bodies deep, in text */
    for (int c = 0; c < 2; ++c) {
        double xs[6] = {1, 2, 3, 4, 5, 6}, cs[1] = {(double)c};
        const double *in[2] = {xs, cs};
        run_result r = model_run(&model, in);
        double want[6];
        for (int i = 0; i < 6; ++i) want[i] = xs[i] + (c ? 0 : 1);
        char why[700];
        CHECKF(result_is(&r, want, 6, 0, why, sizeof why), "c = %d: %s", c, why);
    }
    byoc_onnx_model_free(&model);
}

/* ---- the text format ---- */
static void test_text_errors_name_the_node(void) {
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2, 3), float32], %c: bool) {\n"
                     "  if (%c) { %x } else { sum(%x) }\n"
                     "}\n",
                     "branches disagree");
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2, 3), float32], %c: bool) {\n"
                     "  if (%c) { %x } else { (%x, %x) }\n"
                     "}\n",
                     "branches disagree");
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2), float32], %n: int64) {\n"
                     "  %0 = loop (%n, True, %x) fn (%i: int64, %go: bool, %acc: Tensor[(2), float32]) {\n"
                     "    (%go, expand_dims(%acc, axis=0))\n"
                     "  };\n"
                     "  %0.0\n"
                     "}\n",
                     "carried value 0 enters as Tensor[(2,), float32] but the body returns Tensor[(1, 2), float32]");
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2), float32], %c: bool) {\n"
                     "  if (%c) { add(%x, %nowhere) } else { %x }\n"
                     "}\n",
                     "%nowhere");
}

/* A body whose dead code (a binding nothing reads) uses an outer value does not capture it: the printer leaves
   dead code out, so a capture kept for it would not come back from the text (found by fuzz_text) */
static void test_dead_code_captures_nothing(void) {
    byoc_diag d;
    byoc_module *m = parse_text("def @main(%x: Tensor[(2), float32], %c: bool) {\n"
                                "  let %y = negative(%x);\n"
                                "  %0 = if (%c) { %y } else { %x };\n"
                                "  (%x, %y)\n"
                                "}\n",
                                &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    char why[700];
    int ok = round_trips(m, why, sizeof why);
    byoc_node *let = byoc_module_function(m, "main")->body;
    int inputs = let->nargs;
    byoc_module_destroy(m);
    CHECKF(ok, "%s", why);
    CHECKF(inputs == 2, "the let takes %d inputs, expected its value and the capture of %%x", inputs);
    /* the same in ONNX: the then branch's dead Neg reads the outer z, which the If must not capture */
    const char *neg_in[] = {"z", NULL}, *neg_out[] = {"dead", NULL}, *id_in[] = {"x", NULL}, *id_out[] = {"a", NULL};
    pb neg = make_node("Neg", "unused", neg_in, neg_out), id = make_node("Identity", "keep", id_in, id_out);
    pb then_g = graph_of(&neg, "then");
    pb_msg(&then_g, 1, &id);
    value_info(&then_g, 12, "a", ONNX_FLOAT, 2, dims23);
    pb else_g = branch("Abs", "b", ONNX_FLOAT, 2, dims23, 0);
    const char *ins[] = {"c", NULL}, *outs[] = {"y", NULL};
    pb n = make_node("If", "pick", ins, outs);
    attr_graph(&n, "then_branch", &then_g);
    attr_graph(&n, "else_branch", &else_g);
    pb g = graph_of(&n, "g");
    value_info(&g, 11, "x", ONNX_FLOAT, 2, dims23);
    value_info(&g, 11, "z", ONNX_FLOAT, 2, dims23);
    value_info(&g, 11, "c", 9, 0, NULL);
    value_info(&g, 12, "y", ONNX_FLOAT, 2, dims23);
    byoc_onnx_model model;
    CHECKF(import_graph(&g, &model, &d) == BYOC_OK, "%s", d.message);
    byoc_node *if_node = byoc_module_function(model.module, "main")->body;
    inputs = if_node->kind == BYOC_NODE_IF ? if_node->nargs : -1;
    ok = round_trips(model.module, why, sizeof why);
    byoc_onnx_model_free(&model);
    CHECKF(ok, "%s", why);
    CHECKF(inputs == 2, "the If takes %d inputs, expected its condition and the capture of x", inputs);
}

/* n nested ifs (or loops) in the text: past the parser's depth limit it refuses, below it the body-depth
   limit of type inference; neither recursion overflows the stack */
static char *nested_text(int n, int loops) {
    size_t cap = (size_t)n * 160 + 256, len = 0;
    char *s = (char *)malloc(cap);
    len += (size_t)snprintf(s + len, cap - len, "def @main(%%x: Tensor[(2), float32], %%c: bool, %%n: int64) {\n");
    for (int k = 0; k < n; ++k)
        len += (size_t)(loops ? snprintf(s + len, cap - len,
                                         "loop (%%n, True, %%x) "
                                         "fn (%%i%d: int64, %%g%d: bool, %%a%d: Tensor[(2), float32]) {\n(True, ",
                                         k, k, k)
                              : snprintf(s + len, cap - len, "if (%%c) {\n"));
    len += (size_t)snprintf(s + len, cap - len, "%%x\n");
    for (int k = 0; k < n; ++k)
        len += (size_t)snprintf(s + len, cap - len, loops ? ")\n}.0\n" : "} else { add(%%x, 1f) }\n");
    snprintf(s + len, cap - len, "}\n");
    return s;
}

static void test_text_nesting_limits(void) {
    static const struct { int n, loops; const char *needle; } cases[] = {
        {8, 0, ""}, {8, 1, ""},
        {70, 0, "control flow nested too deeply (limit 64)"}, {70, 1, "control flow nested too deeply (limit 64)"},
        {5000, 0, "nested too deeply (limit 256)"},           {5000, 1, "nested too deeply (limit 256)"},
        {200000, 0, "nested too deeply (limit 256)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        char *text = nested_text(cases[k].n, cases[k].loops), msg[700];
        type_error_of(text, msg, sizeof msg);
        if (!cases[k].needle[0]) { /* it runs: with c false the outermost else adds 1; loops pass x through */
            double xs[2] = {1, 2}, cs[1] = {0}, ns[1] = {2};
            double want[2] = {cases[k].loops ? 1.0 : 2.0, cases[k].loops ? 2.0 : 3.0};
            const double *in[3] = {xs, cs, ns};
            run_result r = run(text, in);
            CHECK_RUN(r, want, 2, 0);
            byoc_module_destroy(r.m);
        }
        free(text);
        if (cases[k].needle[0]) CHECKF(strstr(msg, cases[k].needle) != NULL, "%d %s: expected \"%s\", got \"%s\"",
                                       cases[k].n, cases[k].loops ? "loops" : "ifs", cases[k].needle, msg);
        else CHECKF(msg[0] == 0, "%d %s: %s", cases[k].n, cases[k].loops ? "loops" : "ifs", msg);
    }
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_models_evaluate_as_onnx_runtime),
        TEST_ENTRY(test_if_branches_of_different_types),
        TEST_ENTRY(test_undefined_outer_name),
        TEST_ENTRY(test_loop_carried_value_changes_shape),
        TEST_ENTRY(test_if_in_loop_names_both_enclosing_nodes),
        TEST_ENTRY(test_scan_inputs_of_different_lengths),
        TEST_ENTRY(test_nesting_limit),
        TEST_ENTRY(test_text_errors_name_the_node),
        TEST_ENTRY(test_text_nesting_limits),
        TEST_ENTRY(test_dead_code_captures_nothing),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
