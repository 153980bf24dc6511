/* Unit tests of the ONNX importer (tools/byoc_onnx.h): models are written here with a small protobuf
   writer, so every hostile case (truncation, bad varints, wrong wire types, huge lengths and dims,
   nested graphs) is exact. */
#define BYOC_IMPLEMENTATION
#define BYOC_ONNX_IMPLEMENTATION
#include "../byoc.h"
#include "../tools/byoc_onnx.h"
#include "test.h"

#include <stdlib.h>

/* ---- a protobuf writer ---- */
typedef struct pbuf { unsigned char *p; size_t n, cap; } pbuf;

static void put_byte(pbuf *b, unsigned char c) {
    if (b->n == b->cap) { b->cap = b->cap ? b->cap * 2 : 256; b->p = (unsigned char *)realloc(b->p, b->cap); }
    b->p[b->n++] = c;
}
static void put_varint(pbuf *b, uint64_t v) { do { put_byte(b, (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0))); v >>= 7; } while (v); }
static void put_key(pbuf *b, int field, int wire) { put_varint(b, (uint64_t)field << 3 | (uint64_t)wire); }
static void put_int(pbuf *b, int field, int64_t v) { put_key(b, field, 0); put_varint(b, (uint64_t)v); }
static void put_bytes(pbuf *b, int field, const void *data, size_t n) {
    put_key(b, field, 2);
    put_varint(b, n);
    for (size_t i = 0; i < n; ++i) put_byte(b, ((const unsigned char *)data)[i]);
}
static void put_str(pbuf *b, int field, const char *s) { put_bytes(b, field, s, strlen(s)); }
static void put_msg(pbuf *b, int field, pbuf *m) { put_bytes(b, field, m->p, m->n); free(m->p); memset(m, 0, sizeof *m); }

/* ValueInfoProto of a float tensor; dims < 0 are symbolic, named sym */
static void put_value_info(pbuf *g, int field, const char *name, int elem, int rank, const int64_t *dims, const char *sym) {
    pbuf vi = {0}, type = {0}, tensor = {0}, shape = {0};
    put_str(&vi, 1, name);
    put_int(&tensor, 1, elem);
    for (int d = 0; d < rank; ++d) {
        pbuf dim = {0};
        if (dims[d] >= 0) put_int(&dim, 1, dims[d]);
        else put_str(&dim, 2, sym);
        put_msg(&shape, 1, &dim);
    }
    put_msg(&tensor, 2, &shape);
    put_msg(&type, 1, &tensor);
    put_msg(&vi, 2, &type);
    put_msg(g, field, &vi);
}

typedef struct node_spec { const char *op, *name; const char *in[4]; const char *out[2]; } node_spec;

static void put_node(pbuf *g, const node_spec *n, pbuf *attrs) {
    pbuf node = {0};
    for (int i = 0; i < 4 && n->in[i]; ++i) put_str(&node, 1, n->in[i]);
    for (int i = 0; i < 2 && n->out[i]; ++i) put_str(&node, 2, n->out[i]);
    if (n->name) put_str(&node, 3, n->name);
    put_str(&node, 4, n->op);
    if (attrs && attrs->n) { for (size_t i = 0; i < attrs->n; ++i) put_byte(&node, attrs->p[i]); free(attrs->p); memset(attrs, 0, sizeof *attrs); }
    put_msg(g, 1, &node);
}

/* an int64 initializer */
static void put_int64_tensor(pbuf *g, const char *name, int rank, const int64_t *dims, const int64_t *values, int64_t count) {
    pbuf t = {0};
    for (int d = 0; d < rank; ++d) put_int(&t, 1, dims[d]);
    put_int(&t, 2, 7);
    put_str(&t, 8, name);
    put_bytes(&t, 9, values, (size_t)count * 8);
    put_msg(g, 5, &t);
}

static void finish_model(pbuf *model, pbuf *graph, int opset) {
    pbuf ops = {0};
    put_int(model, 1, 8);
    put_str(&ops, 1, "");
    put_int(&ops, 2, opset);
    put_msg(model, 8, &ops);
    put_msg(model, 7, graph);
}

/* x[1, 4] -> Relu (named "relu1") -> Neg (unnamed) -> y */
static pbuf small_model(void) {
    pbuf g = {0}, m = {0};
    int64_t dims[2] = {1, 4};
    node_spec relu = {"Relu", "relu1", {"x"}, {"r"}}, neg = {"Neg", NULL, {"r"}, {"y"}};
    put_node(&g, &relu, NULL);
    put_node(&g, &neg, NULL);
    put_str(&g, 2, "g");
    put_value_info(&g, 11, "x", 1, 2, dims, NULL);
    put_value_info(&g, 12, "y", 1, 2, dims, NULL);
    finish_model(&m, &g, 13);
    return m;
}

static byoc_result import(const pbuf *b, byoc_onnx_model *out, byoc_diag *d, const byoc_onnx_options *o) {
    return byoc_onnx_import(b->p, b->n, "t.onnx", o, out, d);
}

static void test_import_spans(void) {
    pbuf b = small_model();
    byoc_onnx_model model;
    byoc_diag d;
    CHECKF(import(&b, &model, &d, NULL) == BYOC_OK, "%s", d.message);
    char *text = byoc_module_print(model.module, 0, NULL);
    CHECK_CONTAINS(text, "nn.relu(%x) /* span=onnx:relu1 */");
    CHECK_CONTAINS(text, "negative(%0) /* span=onnx:y */"); /* unnamed: its first output's name */
    CHECK(model.ninputs == 1 && !strcmp(model.input_names[0], "x"));
    CHECK(model.noutputs == 1 && !strcmp(model.output_names[0], "y"));
    CHECK(model.opset == 13 && model.nnodes == 2);
    byoc_free(model.module, text);
    byoc_onnx_model_free(&model);
    free(b.p);
}

/* every prefix of a valid model is refused with the file named, or imports; never a crash */
static void test_truncated_prefixes(void) {
    pbuf b = small_model();
    for (size_t n = 0; n < b.n; ++n) {
        byoc_onnx_model model;
        byoc_diag d;
        byoc_result r = byoc_onnx_import(b.p, n, "t.onnx", NULL, &model, &d);
        if (r == BYOC_OK) { byoc_onnx_model_free(&model); continue; }
        CHECKF(!strncmp(d.message, "t.onnx", 6), "prefix %zu: %s", n, d.message);
        CHECK(model.module == NULL);
    }
    free(b.p);
}

static void expect_error(const pbuf *b, const char *needle, const byoc_onnx_options *o) {
    byoc_onnx_model model;
    byoc_diag d;
    byoc_result r = import(b, &model, &d, o);
    if (r == BYOC_OK) byoc_onnx_model_free(&model);
    snprintf(test_why, sizeof test_why, "expected an error with \"%s\", got %s: %s", needle, r == BYOC_OK ? "success" : "error", d.message);
    test_failed = r == BYOC_OK || !strstr(d.message, needle);
}

static void test_hostile_wire(void) {
    pbuf b = {0};
    put_key(&b, 7, 2);
    put_varint(&b, (uint64_t)1 << 40); /* a graph longer than the file */
    expect_error(&b, "malformed model", NULL);
    if (test_failed) return;
    free(b.p);
    memset(&b, 0, sizeof b);
    put_key(&b, 1, 0);
    for (int i = 0; i < 11; ++i) put_byte(&b, 0xff); /* a varint of 11 bytes */
    expect_error(&b, "bad varint", NULL);
    if (test_failed) return;
    free(b.p);
    memset(&b, 0, sizeof b);
    put_int(&b, 7, 5); /* the graph as a varint: wrong wire type */
    expect_error(&b, "wrong wire type", NULL);
    if (test_failed) return;
    free(b.p);
    memset(&b, 0, sizeof b);
    put_key(&b, 3, 3); /* a group (wire type 3): not in ONNX */
    expect_error(&b, "malformed", NULL);
    free(b.p);
}

static void test_huge_dims_and_limits(void) {
    pbuf g = {0}, m = {0};
    int64_t dims[2] = {(int64_t)1 << 40, 4}, xdims[2] = {1, 4}, v = 0;
    pbuf t = {0};
    put_int(&t, 1, dims[0]);
    put_int(&t, 1, dims[1]);
    put_int(&t, 2, 1);
    put_str(&t, 8, "w");
    put_bytes(&t, 9, &v, 8);
    put_msg(&g, 5, &t);
    node_spec add = {"Add", "add", {"x", "w"}, {"y"}};
    put_node(&g, &add, NULL);
    put_value_info(&g, 11, "x", 1, 2, xdims, NULL);
    put_value_info(&g, 12, "y", 1, 2, xdims, NULL);
    finish_model(&m, &g, 13);
    expect_error(&m, "initializer 'w' has dim 0 = 1099511627776 (out of range)", NULL);
    free(m.p);
    if (test_failed) return;
    /* ConstantOfShape asked for 2^40 floats: refused by the import limit, nothing allocated */
    memset(&g, 0, sizeof g);
    memset(&m, 0, sizeof m);
    int64_t shape_dims[1] = {2}, shape[2] = {1 << 20, 1 << 20};
    put_int64_tensor(&g, "s", 1, shape_dims, shape, 2);
    node_spec cos = {"ConstantOfShape", "big", {"s"}, {"y"}};
    put_node(&g, &cos, NULL);
    put_value_info(&g, 12, "y", 1, 2, xdims, NULL);
    finish_model(&m, &g, 13);
    byoc_onnx_options o;
    memset(&o, 0, sizeof o);
    o.max_constant_bytes = 1 << 20;
    expect_error(&m, "ConstantOfShape makes 1099511627776 elements, above the import limit of 1048576 bytes", &o);
    free(m.p);
}

/* unsupported ops are listed together with counts and the opset; a nested graph is not decoded */
static void test_unsupported_listing(void) {
    pbuf g = {0}, m = {0}, attrs = {0}, sub = {0}, attr = {0};
    int64_t dims[2] = {1, 4};
    /* an unknown op whose body holds an unparseable graph: it must not be decoded at all */
    put_str(&attr, 1, "body");
    put_int(&attr, 20, 5);
    for (int i = 0; i < 64; ++i) put_byte(&sub, 0xff);
    put_msg(&attr, 6, &sub);
    put_msg(&attrs, 5, &attr);
    node_spec a = {"Quux", "a1", {"x"}, {"a"}}, b = {"Quux", "a2", {"a"}, {"b"}};
    node_spec c = {"QuuxMap", "map1", {"b"}, {"y"}};
    put_node(&g, &a, NULL);
    put_node(&g, &b, NULL);
    put_node(&g, &c, &attrs);
    put_value_info(&g, 11, "x", 1, 2, dims, NULL);
    put_value_info(&g, 12, "y", 1, 2, dims, NULL);
    finish_model(&m, &g, 11);
    expect_error(&m, "t.onnx: 2 unsupported op types (3 nodes, opset 11): Quux x2, QuuxMap x1", NULL);
    free(m.p);
}

/* an If node (cond, out) whose branches are the graphs given (then_g, else_g are consumed) */
static void put_if(pbuf *g, const char *name, const char *cond, const char *out, pbuf *then_g, pbuf *else_g) {
    pbuf attrs = {0}, a1 = {0}, a2 = {0};
    put_str(&a1, 1, "then_branch");
    put_int(&a1, 20, 5);
    put_msg(&a1, 6, then_g);
    put_msg(&attrs, 5, &a1);
    put_str(&a2, 1, "else_branch");
    put_int(&a2, 20, 5);
    put_msg(&a2, 6, else_g);
    put_msg(&attrs, 5, &a2);
    node_spec n = {"If", name, {cond}, {out}};
    put_node(g, &n, &attrs);
}

/* a branch graph: one op on an outer value (ONNX scoping: the main graph's x), output `out` */
static void put_branch(pbuf *b, const char *op, const char *in, const char *out, const int64_t *dims) {
    node_spec n = {op, out, {in}, {out}};
    put_node(b, &n, NULL);
    put_value_info(b, 12, out, 1, 2, dims, NULL);
}

/* If with branches using the enclosing graph's values: both run, with spans on the branch nodes */
static void test_if_branches_capture_outer_values(void) {
    pbuf g = {0}, m = {0}, tg = {0}, eg = {0};
    int64_t dims[2] = {1, 4};
    put_branch(&tg, "Relu", "x", "then_out", dims);
    put_branch(&eg, "Neg", "x", "else_out", dims);
    put_if(&g, "choose", "c", "y", &tg, &eg);
    put_value_info(&g, 11, "x", 1, 2, dims, NULL);
    put_value_info(&g, 11, "c", 9, 0, NULL, NULL);
    put_value_info(&g, 12, "y", 1, 2, dims, NULL);
    finish_model(&m, &g, 13);
    byoc_onnx_model model;
    byoc_diag d;
    CHECKF(import(&m, &model, &d, NULL) == BYOC_OK, "%s", d.message);
    char *text = byoc_module_print(model.module, 0, NULL);
    CHECK_CONTAINS(text, "if (%c) {");
    CHECK_CONTAINS(text, "nn.relu(%x) /* span=onnx:then_out */");
    CHECK_CONTAINS(text, "negative(%x) /* span=onnx:else_out */");
    byoc_free(model.module, text);
    float xs[4] = {-1, 2, -3, 4};
    for (int c = 0; c < 2; ++c) {
        byoc_node *in[2] = {byoc_constant(model.module, byoc_tensor_type(model.module, BYOC_FLOAT32, 2, dims), xs, 16),
                            byoc_constant_scalar(model.module, BYOC_BOOL, c)}, *out = NULL;
        CHECKF(byoc_module_evaluate(model.module, in, 2, &out, &d) == BYOC_OK, "%s", d.message);
        for (int k = 0; k < 4; ++k)
            CHECK(byoc_constant_f32(out, k) == (c ? (xs[k] > 0 ? xs[k] : 0) : -xs[k]));
    }
    byoc_onnx_model_free(&model);
    free(m.p);
}

/* hostile subgraphs: an undefined outer name, a malformed branch, and Ifs nested past the depth limit */
static void test_if_bad_subgraphs(void) {
    int64_t dims[2] = {1, 4};
    pbuf g = {0}, m = {0}, tg = {0}, eg = {0};
    put_branch(&tg, "Relu", "nowhere", "then_out", dims);
    put_branch(&eg, "Neg", "x", "else_out", dims);
    put_if(&g, "choose", "c", "y", &tg, &eg);
    put_value_info(&g, 11, "x", 1, 2, dims, NULL);
    put_value_info(&g, 11, "c", 9, 0, NULL, NULL);
    put_value_info(&g, 12, "y", 1, 2, dims, NULL);
    finish_model(&m, &g, 13);
    expect_error(&m, "'then_out' (Relu): input 'nowhere' is not defined", NULL);
    free(m.p);
    memset(&g, 0, sizeof g);
    memset(&m, 0, sizeof m);
    for (int i = 0; i < 16; ++i) put_byte(&tg, 0xff);
    put_branch(&eg, "Neg", "x", "else_out", dims);
    put_if(&g, "choose", "c", "y", &tg, &eg);
    put_value_info(&g, 11, "x", 1, 2, dims, NULL);
    put_value_info(&g, 11, "c", 9, 0, NULL, NULL);
    put_value_info(&g, 12, "y", 1, 2, dims, NULL);
    finish_model(&m, &g, 13);
    expect_error(&m, "'choose' (If)", NULL);
    free(m.p);
    /* If inside If, 20 deep: each then_branch holds the next If, every else_branch is Neg(x) */
    pbuf inner = {0};
    put_branch(&inner, "Relu", "x", "leaf", dims);
    for (int depth = 0; depth < 20; ++depth) {
        pbuf outer = {0}, e = {0};
        char out[32];
        snprintf(out, sizeof out, "level%d", depth);
        put_branch(&e, "Neg", "x", "neg", dims);
        put_if(&outer, out, "c", out, &inner, &e);
        put_value_info(&outer, 12, out, 1, 2, dims, NULL);
        inner = outer;
    }
    memset(&g, 0, sizeof g);
    memset(&m, 0, sizeof m);
    put_branch(&eg, "Neg", "x", "else_out", dims);
    put_if(&g, "top", "c", "y", &inner, &eg);
    put_value_info(&g, 11, "x", 1, 2, dims, NULL);
    put_value_info(&g, 11, "c", 9, 0, NULL, NULL);
    put_value_info(&g, 12, "y", 1, 2, dims, NULL);
    finish_model(&m, &g, 13);
    expect_error(&m, "subgraphs nest more than 16 deep", NULL);
    free(m.p);
}

/* Shape -> Gather -> Unsqueeze -> Concat -> Reshape, the exporters' flatten: folds to one reshape */
static void test_shape_subgraph_folds(void) {
    pbuf g = {0}, m = {0};
    int64_t xdims[4] = {2, 3, 4, 5}, ydims[2] = {2, 60}, one = 1, zero = 0, minus = -1, axes = 0;
    put_int64_tensor(&g, "zero", 0, NULL, &zero, 1);
    put_int64_tensor(&g, "axes", 1, &one, &axes, 1);
    put_int64_tensor(&g, "minus_one", 1, &one, &minus, 1);
    node_spec shape = {"Shape", "shape", {"x"}, {"s"}}, gather = {"Gather", "gather", {"s", "zero"}, {"n"}},
              unsq = {"Unsqueeze", "unsq", {"n", "axes"}, {"n1"}}, cat = {"Concat", "cat", {"n1", "minus_one"}, {"shape2"}},
              reshape = {"Reshape", "flatten", {"x", "shape2"}, {"y"}};
    pbuf attrs = {0}, attr = {0};
    put_str(&attr, 1, "axis");
    put_int(&attr, 20, 2);
    put_int(&attr, 3, 0);
    put_msg(&attrs, 5, &attr);
    put_node(&g, &shape, NULL);
    put_node(&g, &gather, NULL);
    put_node(&g, &unsq, NULL);
    put_node(&g, &cat, &attrs);
    put_node(&g, &reshape, NULL);
    put_value_info(&g, 11, "x", 1, 4, xdims, NULL);
    put_value_info(&g, 12, "y", 1, 2, ydims, NULL);
    finish_model(&m, &g, 13);
    byoc_onnx_model model;
    byoc_diag d;
    CHECKF(import(&m, &model, &d, NULL) == BYOC_OK, "%s", d.message);
    char *text = byoc_module_print(model.module, BYOC_PRINT_TYPES, NULL);
    CHECK_CONTAINS(text, "reshape(%x, newshape=[2, 60]) /* ty=Tensor[(2, 60), float32] */ /* span=onnx:flatten */");
    CHECKF(!strstr(text, "take") && !strstr(text, "concatenate") && !strstr(text, "shape_of"), "%s", text);
    CHECK(model.nfolded == 4);
    byoc_free(model.module, text);
    byoc_onnx_model_free(&model);
    free(m.p);
}

/* x[1:] as PyTorch exports it: Slice (opset 13) whose end is INT64_MAX, read exactly (not through a
   double, where it overflows and the slice comes out empty); a negative step from a start below -dim */
static void test_slice_int64_max_end(void) {
    for (int variant = 0; variant < 2; ++variant) {
        pbuf g = {0}, m = {0};
        int64_t xdims[1] = {5}, one = 1, start = variant ? -10 : 1, end = variant ? -20 : INT64_MAX, step = variant ? -1 : 1, ydims[1] = {variant ? 1 : 4};
        put_int64_tensor(&g, "starts", 1, &one, &start, 1);
        put_int64_tensor(&g, "ends", 1, &one, &end, 1);
        put_int64_tensor(&g, "axes", 1, &one, &(int64_t){0}, 1);
        put_int64_tensor(&g, "steps", 1, &one, &step, 1);
        node_spec slice = {"Slice", "tail", {"x", "starts", "ends", "axes"}, {"y"}};
        pbuf node = {0};
        const char *ins[5] = {"x", "starts", "ends", "axes", "steps"};
        for (int i = 0; i < 5; ++i) put_str(&node, 1, ins[i]);
        put_str(&node, 2, "y");
        put_str(&node, 3, slice.name);
        put_str(&node, 4, slice.op);
        put_msg(&g, 1, &node);
        put_value_info(&g, 11, "x", 1, 1, xdims, NULL);
        put_value_info(&g, 12, "y", 1, 1, ydims, NULL);
        finish_model(&m, &g, 13);
        byoc_onnx_model model;
        byoc_diag d;
        CHECKF(import(&m, &model, &d, NULL) == BYOC_OK, "%s", d.message);
        char *text = byoc_module_print(model.module, BYOC_PRINT_TYPES, NULL);
        CHECK_CONTAINS(text, variant ? "begin=[0], end=[-6], strides=[-1]) /* ty=Tensor[(1,), float32] */" : "begin=[1], end=[5], strides=[1]) /* ty=Tensor[(4,), float32] */");
        byoc_free(model.module, text);
        byoc_onnx_model_free(&model);
        free(m.p);
    }
}

/* AttributeProto: an INTS or an INT attribute */
static void put_attr_ints(pbuf *attrs, const char *name, const int64_t *v, int n) {
    pbuf a = {0};
    put_str(&a, 1, name);
    for (int i = 0; i < n; ++i) put_int(&a, 8, v[i]);
    put_int(&a, 20, 7);
    put_msg(attrs, 5, &a);
}
static void put_attr_int(pbuf *attrs, const char *name, int64_t v) {
    pbuf a = {0};
    put_str(&a, 1, name);
    put_int(&a, 3, v);
    put_int(&a, 20, 2);
    put_msg(attrs, 5, &a);
}

/* 3-D pools (imported as two 2-D pools) against a direct evaluation of ONNX's definition: padding, strides,
   dilations, ceil_mode and count_include_pad */
static double pool3d_ref(const float *x, const int64_t *in, const int64_t *o, const int64_t *k, const int64_t *s, const int64_t *dl, const int64_t *p,
                         int is_max, int include_pad) {
    const int64_t *pos = o; /* (d, h, w) of the output */
    double acc = is_max ? -HUGE_VAL : 0;
    int64_t count = 0, padded = 1;
    for (int a = 0; a < 3; ++a) { /* taps inside the padded input, per axis */
        int64_t c = 0;
        for (int64_t t = 0; t < k[a]; ++t) {
            int64_t i = pos[a] * s[a] - p[a] + t * dl[a];
            c += i < in[a] + p[a + 3];
        }
        padded *= c;
    }
    for (int64_t a = 0; a < k[0]; ++a)
        for (int64_t b = 0; b < k[1]; ++b)
            for (int64_t c = 0; c < k[2]; ++c) {
                int64_t i = pos[0] * s[0] - p[0] + a * dl[0], j = pos[1] * s[1] - p[1] + b * dl[1], l = pos[2] * s[2] - p[2] + c * dl[2];
                if (i < 0 || j < 0 || l < 0 || i >= in[0] || j >= in[1] || l >= in[2]) continue;
                double v = x[(i * in[1] + j) * in[2] + l];
                acc = is_max ? (v > acc ? v : acc) : acc + v;
                count++;
            }
    return is_max ? acc : acc / (double)(include_pad ? padded : count);
}
static void test_pool3d(void) {
    const int64_t in[3] = {5, 6, 7}, k[3] = {2, 3, 2}, st[3] = {2, 1, 3}, dl[3] = {1, 2, 1}, pads[6] = {1, 0, 1, 0, 1, 1};
    for (int variant = 0; variant < 6; ++variant) {
        int is_max = variant < 2, ceil_mode = variant & 1, include_pad = variant >= 4;
        int64_t out[3], xdims[5] = {1, 2, in[0], in[1], in[2]};
        const int64_t dil[3] = {is_max ? dl[0] : 1, is_max ? dl[1] : 1, is_max ? dl[2] : 1};
        for (int a = 0; a < 3; ++a) {
            int64_t span = in[a] + pads[a] + pads[a + 3] - (k[a] - 1) * dil[a] - 1;
            out[a] = (ceil_mode ? (span + st[a] - 1) / st[a] : span / st[a]) + 1;
            if (ceil_mode && (out[a] - 1) * st[a] >= in[a] + pads[a]) out[a]--; /* the last window starts inside the input or its begin padding */
        }
        int64_t ydims[5] = {1, 2, out[0], out[1], out[2]};
        pbuf g = {0}, m = {0}, attrs = {0};
        put_attr_ints(&attrs, "kernel_shape", k, 3);
        put_attr_ints(&attrs, "strides", st, 3);
        put_attr_ints(&attrs, "pads", pads, 6);
        if (is_max) put_attr_ints(&attrs, "dilations", dl, 3);
        put_attr_int(&attrs, "ceil_mode", ceil_mode);
        if (!is_max) put_attr_int(&attrs, "count_include_pad", include_pad);
        node_spec pool = {is_max ? "MaxPool" : "AveragePool", "pool", {"x"}, {"y"}};
        put_node(&g, &pool, &attrs);
        put_value_info(&g, 11, "x", 1, 5, xdims, NULL);
        put_value_info(&g, 12, "y", 1, 5, ydims, NULL);
        finish_model(&m, &g, is_max ? 12 : 11); /* AveragePool's dilations came in opset 19 */
        byoc_onnx_model model;
        byoc_diag d;
        CHECKF(import(&m, &model, &d, NULL) == BYOC_OK, "variant %d: %s", variant, d.message);
        free(m.p);
        static float x[2 * 5 * 6 * 7];
        for (int i = 0; i < 2 * 5 * 6 * 7; ++i) x[i] = (float)((i * 7919) % 101) / 17.0f - 3.0f;
        byoc_node *xin = byoc_constant(model.module, byoc_tensor_type(model.module, BYOC_FLOAT32, 5, xdims), x, sizeof x);
        xin->checked_type = xin->annotation;
        byoc_node *y = NULL;
        CHECKF(byoc_module_evaluate(model.module, &xin, 1, &y, &d) == BYOC_OK, "variant %d: %s", variant, d.message);
        const byoc_type *yt = y->annotation ? y->annotation : y->checked_type;
        CHECKF(yt->rank == 5 && yt->dims[2] == out[0] && yt->dims[3] == out[1] && yt->dims[4] == out[2], "variant %d: output %lldx%lldx%lld, want %lldx%lldx%lld",
               variant, (long long)yt->dims[2], (long long)yt->dims[3], (long long)yt->dims[4], (long long)out[0], (long long)out[1], (long long)out[2]);
        double worst = 0;
        for (int c = 0; c < 2; ++c)
            for (int64_t a = 0; a < out[0]; ++a)
                for (int64_t b = 0; b < out[1]; ++b)
                    for (int64_t e = 0; e < out[2]; ++e) {
                        int64_t o[3] = {a, b, e};
                        double want = pool3d_ref(x + c * 5 * 6 * 7, in, o, k, st, dil, pads, is_max, include_pad);
                        double got = ((const float *)y->data)[((c * out[0] + a) * out[1] + b) * out[2] + e];
                        if (fabs(got - want) > worst) worst = fabs(got - want);
                    }
        CHECKF(worst < 1e-5, "variant %d (%s, ceil_mode %d, count_include_pad %d): off by %g", variant, pool.op, ceil_mode, include_pad, worst);
        byoc_onnx_model_free(&model);
    }
}

static void test_symbolic_dims(void) {
    pbuf g = {0}, m = {0};
    int64_t dims[2] = {-1, 4};
    node_spec relu = {"Relu", "relu", {"x"}, {"y"}};
    put_node(&g, &relu, NULL);
    put_value_info(&g, 11, "x", 1, 2, dims, "batch");
    put_value_info(&g, 12, "y", 1, 2, dims, "batch");
    finish_model(&m, &g, 13);
    expect_error(&m, "input 'x' dim 0 is symbolic (batch): give its value", NULL);
    if (test_failed) return;
    byoc_onnx_dim batch = {"batch", 3};
    byoc_onnx_options o;
    memset(&o, 0, sizeof o);
    o.dims = &batch;
    o.ndims = 1;
    byoc_onnx_model model;
    byoc_diag d;
    CHECKF(import(&m, &model, &d, &o) == BYOC_OK, "%s", d.message);
    char *text = byoc_module_print(model.module, 0, NULL);
    CHECK_CONTAINS(text, "%x: Tensor[(3, 4), float32]");
    byoc_free(model.module, text);
    byoc_onnx_model_free(&model);
    /* dynamic_dims: the dim stays '?' and each run gives it */
    memset(&o, 0, sizeof o);
    o.dynamic_dims = 1;
    CHECKF(import(&m, &model, &d, &o) == BYOC_OK, "%s", d.message);
    text = byoc_module_print(model.module, BYOC_PRINT_TYPES, NULL);
    CHECK_CONTAINS(text, "%x: Tensor[(?, 4), float32]");
    byoc_free(model.module, text);
    float xs[8] = {-1, 2, -3, 4, 5, -6, 7, -8};
    int64_t two_by_four[2] = {2, 4};
    byoc_node *x = byoc_constant(model.module, byoc_tensor_type(model.module, BYOC_FLOAT32, 2, two_by_four), xs,
                                 sizeof xs),
              *y = NULL;
    CHECKF(byoc_module_evaluate(model.module, &x, 1, &y, &d) == BYOC_OK, "%s", d.message);
    CHECK(y->checked_type->dims[0] == 2 && byoc_constant_f32(y, 1) == 2.0f && byoc_constant_f32(y, 7) == 0.0f);
    byoc_onnx_model_free(&model);
    free(m.p);
}

static void test_external_data(void) {
    const char *dir = "build/test_onnx_external";
    char path[256];
    int rc = system("mkdir -p build/test_onnx_external");
    CHECK(rc == 0);
    float w[4] = {1, 2, 3, 4};
    snprintf(path, sizeof path, "%s/weights.bin", dir);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    fwrite("pad!", 1, 4, f);
    fwrite(w, sizeof w, 1, f);
    fclose(f);
    for (int variant = 0; variant < 3; ++variant) {
        pbuf g = {0}, m = {0}, t = {0}, kv = {0};
        int64_t dims[2] = {1, 4};
        put_int(&t, 1, 1);
        put_int(&t, 1, 4);
        put_int(&t, 2, 1);
        put_str(&t, 8, "w");
        put_str(&kv, 1, "location");
        put_str(&kv, 2, variant == 2 ? "../weights.bin" : "weights.bin");
        put_msg(&t, 13, &kv);
        put_str(&kv, 1, "offset");
        put_str(&kv, 2, "4");
        put_msg(&t, 13, &kv);
        put_int(&t, 14, 1);
        put_msg(&g, 5, &t);
        node_spec add = {"Add", "add", {"x", "w"}, {"y"}};
        put_node(&g, &add, NULL);
        put_value_info(&g, 11, "x", 1, 2, dims, NULL);
        put_value_info(&g, 12, "y", 1, 2, dims, NULL);
        finish_model(&m, &g, 13);
        byoc_onnx_options o;
        memset(&o, 0, sizeof o);
        o.external_data_dir = dir;
        o.no_external_data = variant == 1;
        byoc_onnx_model model;
        byoc_diag d;
        byoc_result r = import(&m, &model, &d, &o);
        free(m.p);
        if (variant == 0) {
            CHECKF(r == BYOC_OK, "%s", d.message);
            byoc_node *main_fn = byoc_module_function(model.module, "main");
            const byoc_node *c = main_fn->body->args[1];
            CHECK(c->kind == BYOC_NODE_CONSTANT && !memcmp(c->data, w, sizeof w));
            byoc_onnx_model_free(&model);
        } else {
            CHECK(r != BYOC_OK);
            CHECK_CONTAINS(d.message, variant == 1 ? "keeps its data in an external file (refused by the options)" : "leaves the model's directory");
        }
    }
}

/* a TensorProto .pb file as ONNX test data sets hold them */
static void test_tensor_load(void) {
    pbuf t = {0};
    int64_t v[3] = {7, -8, 9};
    put_int(&t, 1, 3);
    put_int(&t, 2, 7);
    put_str(&t, 8, "ids");
    pbuf packed = {0};
    for (int i = 0; i < 3; ++i) put_varint(&packed, (uint64_t)v[i]);
    put_msg(&t, 7, &packed);
    byoc_module *m = byoc_module_create(NULL);
    byoc_diag d;
    const char *name = NULL;
    byoc_node *c = byoc_onnx_tensor_load(m, t.p, t.n, "ids.pb", &name, &d);
    CHECKF(c != NULL, "%s", d.message);
    CHECK(!strcmp(name, "ids") && c->annotation->dtype == BYOC_INT64 && !memcmp(c->data, v, sizeof v));
    /* a value count that does not match the shape */
    t.p[1] = 4;
    CHECK(byoc_onnx_tensor_load(m, t.p, t.n, "ids.pb", NULL, &d) == NULL);
    CHECK_CONTAINS(d.message, "ids.pb: the tensor has 3 values, its shape needs 4");
    byoc_module_destroy(m);
    free(t.p);
}

/* UMA equivalence on real graphs: for every model of zoo_light (ResNet-50, DenseNet-121, Inception,
   VGG-19...), registering a backend and calling byoc_backend_partition gives the very module the manual
   MergeComposite -> AnnotateTarget -> MergeCompilerRegions -> PartitionGraph sequence gives */
static byoc_module *uma_arena;
static byoc_pattern_entry uma_patterns[2];
static const byoc_op_support uma_ops[] = {{"nn.relu", NULL, 0, NULL, NULL}, {"nn.max_pool2d", NULL, 0, NULL, NULL}};
static byoc_backend uma_backend;

static void test_uma_equivalence_zoo_light(void) {
    const char *root = getenv("BYOC_MODELS") ? getenv("BYOC_MODELS") : "../shared/models";
    char dir[1024], path[1200];
    snprintf(dir, sizeof dir, "%s/zoo_light", root);
    static const char *const models[] = {"bvlc_alexnet", "densenet121", "inception_v1", "inception_v2", "resnet50",
                                         "shufflenet", "squeezenet", "vgg19", "zfnet512"};
    snprintf(path, sizeof path, "%s/%s.onnx", dir, models[0]);
    FILE *probe = fopen(path, "rb");
    if (!probe) { printf("skipped test_uma_equivalence_zoo_light: %s is not there (BYOC_MODELS=DIR points elsewhere)\n", dir); return; }
    fclose(probe);
    byoc_diag d;
    uma_arena = byoc_module_create(NULL);
    const char *conv = "is_op(\"nn.conv2d\")(wildcard(), wildcard()).has_attr({\"groups\": 1})";
    const char *dense = "is_op(\"nn.dense\")(wildcard(), wildcard())";
    uma_patterns[0].name = "zoo_npu.conv2d";
    uma_patterns[0].pattern = byoc_pattern_parse(uma_arena, conv, strlen(conv), NULL, &d);
    uma_patterns[1].name = "zoo_npu.dense";
    uma_patterns[1].pattern = byoc_pattern_parse(uma_arena, dense, strlen(dense), NULL, &d);
    memset(&uma_backend, 0, sizeof uma_backend);
    uma_backend.spec.name = "zoo_npu";
    uma_backend.spec.kind = "zoo_npu";
    uma_backend.spec.patterns = uma_patterns;
    uma_backend.spec.npatterns = 2;
    uma_backend.spec.support = (byoc_op_support *)uma_ops;
    uma_backend.spec.nsupport = 2;
    CHECKF(byoc_backend_register(&uma_backend, &d) == BYOC_OK, "%s", d.message);
    const byoc_backend_spec *spec[1] = {&uma_backend.spec};
    for (size_t k = 0; k < sizeof models / sizeof models[0]; ++k) {
        snprintf(path, sizeof path, "%s/%s.onnx", dir, models[k]);
        byoc_onnx_model model;
        CHECKF(byoc_onnx_load(path, NULL, &model, &d) == BYOC_OK, "%s", d.message);
        byoc_module *a = model.module, *b = byoc_module_clone(a, NULL);
        CHECKF(byoc_backend_partition(a, "zoo_npu", NULL, 0, &d) == BYOC_OK, "%s: %s", models[k], d.message);
        CHECK(byoc_infer_type(b, &d) == BYOC_OK);
        CHECK(byoc_merge_composite(b, uma_patterns, 2, &d) == BYOC_OK);
        CHECK(byoc_annotate_target(b, spec, 1, 1, &d) == BYOC_OK);
        CHECK(byoc_merge_compiler_regions(b, &d) == BYOC_OK);
        CHECK(byoc_partition_graph(b, "default", 1, &d) == BYOC_OK);
        int partitions = 0;
        for (int f = 0; f < byoc_module_function_count(a); ++f)
            partitions += !strcmp(byoc_attrs_string(&byoc_module_function_at(a, f).function->attrs, "Compiler", ""), "zoo_npu");
        CHECKF(partitions > 0, "%s: nothing was partitioned", models[k]);
        CHECKF(byoc_module_function_count(a) == byoc_module_function_count(b), "%s: %d vs %d functions", models[k], byoc_module_function_count(a),
               byoc_module_function_count(b));
        CHECKF(byoc_module_structural_equal(a, b), "%s: UMA and manual partitioning differ", models[k]);
        byoc_module_destroy(b);
        byoc_onnx_model_free(&model);
    }
    byoc_module_destroy(uma_arena);
}

/* the importer's table maps ONNX op types to op records: every IR op it names is registered, with a
   host kernel (so whatever imports also runs on the host) */
static void test_table_names_registered_ops(void) {
    int named = 0;
    for (size_t i = 0; i < sizeof byoc_onnx__ops / sizeof byoc_onnx__ops[0]; ++i) {
        const char *op = byoc_onnx__ops[i].op;
        CHECKF(byoc_onnx__ops[i].onnx && byoc_onnx__ops[i].convert, "entry %d is incomplete", (int)i);
        for (size_t j = 0; j < i; ++j) CHECKF(strcmp(byoc_onnx__ops[j].onnx, byoc_onnx__ops[i].onnx), "%s is listed twice", byoc_onnx__ops[i].onnx);
        if (!op || (op[0] >= 'A' && op[0] <= 'Z')) continue;
        const byoc_op *rec = byoc_op_get(op);
        CHECKF(rec && rec->builtin && (byoc_kernel_exists(rec) || (rec->def.flags & BYOC_OP_SEQUENCE)), "ONNX %s names %s, which is not a built-in op with a kernel", byoc_onnx__ops[i].onnx, op);
        named++;
    }
    CHECKF(named >= 30, "only %d entries name an IR op", named);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_import_spans),        TEST_ENTRY(test_truncated_prefixes), TEST_ENTRY(test_hostile_wire),
        TEST_ENTRY(test_huge_dims_and_limits), TEST_ENTRY(test_unsupported_listing),
        TEST_ENTRY(test_if_branches_capture_outer_values),
        TEST_ENTRY(test_if_bad_subgraphs), TEST_ENTRY(test_shape_subgraph_folds),
        TEST_ENTRY(test_slice_int64_max_end), TEST_ENTRY(test_symbolic_dims),       TEST_ENTRY(test_external_data),      TEST_ENTRY(test_tensor_load),
        TEST_ENTRY(test_pool3d),              TEST_ENTRY(test_table_names_registered_ops),
        TEST_ENTRY(test_uma_equivalence_zoo_light),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
