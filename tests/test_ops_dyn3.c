/* Unit tests of the ops whose ONNX operand (moved by later opsets from an attribute to an input) is a
   tensor computed by the graph: dyn.topk, dyn.one_hot, dyn.prod, dyn.image.resize, dyn.nn.max_unpool, the
   dyn windows, dyn.dft, dyn.stft, dyn.mel_weight_matrix, and the importer building them (and dyn.max,
   dyn.sum, dyn.strided_slice, dyn.nn.pad ...) for TopK's k, OneHot's depth, Resize's and Upsample's
   scales / sizes / roi, the Reduce* axes of opset 18, MaxUnpool's output_shape, CenterCropPad's shape,
   Pad's axes and the spectral ops' sizes when those come from another input. Each op: Relay
   text typed with '?' extents, evaluated with byoc_module_evaluate against values worked out by hand,
   a type error, a bad run-time value, and a print/parse round trip. Public API only. */
#include "byoc_sim.h"
#include "tools/byoc_onnx.h"
#include "test.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* ---- Relay text helpers ---- */
static byoc_module *typed(const char *text, char *type_buf, size_t cap, byoc_diag *d) {
    byoc_module *m = byoc_module_parse(text, strlen(text), "dyn3.relay", NULL, d);
    if (m && byoc_infer_type(m, d) != BYOC_OK) {
        byoc_module_destroy(m);
        return NULL;
    }
    if (m) byoc_type_to_string(byoc_module_function(m, "main")->body->checked_type, type_buf, cap);
    return m;
}
static int round_trips(byoc_module *m) {
    size_t len;
    char *text = byoc_module_print(m, BYOC_PRINT_TYPES, &len);
    byoc_diag d;
    byoc_module *again = byoc_module_parse(text, len, "printed.relay", NULL, &d);
    int ok = again && byoc_module_structural_equal(m, again);
    if (!ok) fprintf(stderr, "round trip failed:\n%s\n", text);
    byoc_module_destroy(again);
    byoc_free(m, text);
    return ok;
}
static void store(byoc_dtype dt, void *data, int64_t i, double v) {
    unsigned char *p = (unsigned char *)data;
    if (dt == BYOC_FLOAT32) { float x = (float)v; memcpy(p + 4 * i, &x, 4); }
    else if (dt == BYOC_INT64) { int64_t x = (int64_t)v; memcpy(p + 8 * i, &x, 8); }
    else if (dt == BYOC_INT32) { int32_t x = (int32_t)v; memcpy(p + 4 * i, &x, 4); }
}
static double load(const byoc_node *c, int64_t i) {
    const unsigned char *p = (const unsigned char *)c->data;
    switch (c->annotation->dtype) {
    case BYOC_INT64: { int64_t x; memcpy(&x, p + 8 * i, 8); return (double)x; }
    case BYOC_INT32: { int32_t x; memcpy(&x, p + 4 * i, 4); return x; }
    default: return byoc_constant_f32(c, i);
    }
}
/* evaluates @main on inputs (values as doubles in each parameter's dtype; a parameter's '?' dims are
   taken from dims[i]); *out the result, or NULL with the error in d */
static byoc_result eval(byoc_module *m, const double *const *values, const int64_t *const *dims, byoc_node **out,
                        byoc_diag *d) {
    byoc_node *fn = byoc_module_function(m, "main"), *in[6];
    for (int i = 0; i < fn->nparams && i < 6; ++i) {
        const byoc_type *t = fn->params[i]->annotation;
        const byoc_type *concrete = dims && dims[i] ? byoc_tensor_type(m, t->dtype, t->rank, dims[i]) : t;
        int64_t n = byoc_type_num_elements(concrete);
        size_t bytes = (size_t)n * byoc_dtype_size(t->dtype);
        unsigned char *buf = (unsigned char *)calloc(bytes ? bytes : 1, 1);
        for (int64_t k = 0; k < n; ++k) store(t->dtype, buf, k, values[i][k]);
        in[i] = byoc_constant(m, concrete, buf, bytes);
        free(buf);
    }
    *out = NULL;
    return byoc_module_evaluate(m, in, fn->nparams, out, d);
}
/* the result's shape is `shape` and its values are want (within tol) */
static int result_is(const byoc_node *out, const char *shape, const double *want, int n, double tol, char *why,
                     size_t cap) {
    char buf[128];
    byoc_type_to_string(out->checked_type, buf, sizeof buf);
    if (strcmp(buf, shape)) return snprintf(why, cap, "type %s, want %s", buf, shape), 0;
    for (int i = 0; i < n; ++i)
        if (fabs(load(out, i) - want[i]) > tol)
            return snprintf(why, cap, "element %d is %g, want %g", i, load(out, i), want[i]), 0;
    return 1;
}
#define CHECK_RESULT(m, values, dims, shape, want, n, tol)                                   \
    do {                                                                                     \
        byoc_node *out_;                                                                     \
        byoc_diag d_;                                                                        \
        char why_[256] = "";                                                                 \
        byoc_result r_ = eval((m), (values), (dims), &out_, &d_);                           \
        CHECKF(r_ == BYOC_OK, "evaluate: %s", d_.message);                                   \
        if (r_ == BYOC_OK) CHECKF(result_is(out_, (shape), (want), (n), (tol), why_, sizeof why_), "%s", why_); \
    } while (0)
#define CHECK_RUN_ERROR(m, values, dims, needle)                                             \
    do {                                                                                     \
        byoc_node *out_;                                                                     \
        byoc_diag d_;                                                                        \
        CHECK(eval((m), (values), (dims), &out_, &d_) != BYOC_OK);                          \
        CHECK_CONTAINS(d_.message, (needle));                                                \
    } while (0)

/* ---- dyn.topk ---- */
static void test_dyn_topk(void) {
    char buf[160];
    byoc_diag d;
    const double x[6] = {1, 3, 2, 4, 6, 5}, k2[1] = {2}, k0[1] = {0}, k4[1] = {4};
    const double *in[2] = {x, k2};
    byoc_module *m = typed("def @main(%x: Tensor[(2, 3), float32], %k: Tensor[(), int64]) { "
                           "dyn.topk(%x, %k, axis=1, ret_type=\"values\") }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "Tensor[(2, ?), float32]"), "got %s", buf);
    CHECK(round_trips(m));
    const double top2[4] = {3, 2, 6, 5};
    CHECK_RESULT(m, in, NULL, "Tensor[(2, 2), float32]", top2, 4, 0);
    in[1] = k0;
    CHECK_RESULT(m, in, NULL, "Tensor[(2, 0), float32]", top2, 0, 0);
    in[1] = k4;
    CHECK_RUN_ERROR(m, in, NULL, "dyn.topk: k=4 is outside 0..3 (the extent of axis 1)");
    byoc_module_destroy(m);
    /* smallest first, the indices (ties to the lower index) */
    m = typed("def @main(%x: Tensor[(2, 3), float32], %k: Tensor[(1), int32]) { "
              "dyn.topk(%x, %k, ret_type=\"indices\", is_ascend=True, dtype=\"int64\") }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "Tensor[(2, ?), int64]"), "got %s", buf);
    const double x_ties[6] = {2, 1, 1, 0, 9, 0}, idx[4] = {1, 2, 0, 2};
    in[0] = x_ties;
    in[1] = k2;
    CHECK_RESULT(m, in, NULL, "Tensor[(2, 2), int64]", idx, 4, 0);
    byoc_module_destroy(m);
    CHECK(typed("def @main(%x: Tensor[(3), float32], %k: Tensor[(), float32]) { dyn.topk(%x, %k) }", buf,
                sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "dyn.topk");
    CHECK_CONTAINS(d.message, "k must be an integer");
}

/* ---- dyn.one_hot ---- */
static void test_dyn_one_hot(void) {
    char buf[160];
    byoc_diag d;
    byoc_module *m = typed("def @main(%i: Tensor[(3), int64], %on: Tensor[(), float32], %off: Tensor[(), float32], "
                           "%depth: Tensor[(), int64]) { dyn.one_hot(%i, %on, %off, %depth, axis=0) }",
                           buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "Tensor[(?, 3), float32]"), "got %s", buf);
    CHECK(round_trips(m));
    const double idx[3] = {0, 2, 7}, on[1] = {5}, off[1] = {-1}, depth3[1] = {3}, depth0[1] = {0};
    const double *in[4] = {idx, on, off, depth3};
    /* axis 0: rows are the classes; index 7 is outside the depth, a column of off_value */
    const double want[9] = {5, -1, -1, -1, -1, -1, -1, 5, -1};
    CHECK_RESULT(m, in, NULL, "Tensor[(3, 3), float32]", want, 9, 0);
    in[3] = depth0;
    CHECK_RUN_ERROR(m, in, NULL, "dyn.one_hot: depth 0 is not in 1..");
    byoc_module_destroy(m);
    CHECK(typed("def @main(%i: Tensor[(3), int64], %v: Tensor[(), float32], %depth: Tensor[(2), int64]) { "
                "dyn.one_hot(%i, %v, %v, %depth) }", buf, sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "depth must hold one value");
}

/* ---- dyn.prod ---- */
static void test_dyn_prod(void) {
    char buf[160];
    byoc_diag d;
    byoc_module *m = typed("def @main(%x: Tensor[(2, 3), float32], %axes: Tensor[(1), int64]) { "
                           "dyn.prod(%x, %axes, keepdims=True) }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "Tensor[(?, ?), float32]"), "got %s", buf);
    CHECK(round_trips(m));
    const double x[6] = {1, 2, 3, 4, 5, 6}, last[1] = {-1}, first[1] = {0}, bad[1] = {2};
    const double *in[2] = {x, last};
    const double rows[2] = {6, 120}, cols[3] = {4, 10, 18};
    CHECK_RESULT(m, in, NULL, "Tensor[(2, 1), float32]", rows, 2, 0);
    in[1] = first;
    CHECK_RESULT(m, in, NULL, "Tensor[(1, 3), float32]", cols, 3, 0);
    in[1] = bad;
    CHECK_RUN_ERROR(m, in, NULL, "axes[0]=2 is out of range for rank 2");
    byoc_module_destroy(m);
    CHECK(typed("def @main(%x: Tensor[(2, 3), float32], %axes: Tensor[(1), float32]) { dyn.prod(%x, %axes) }", buf,
                sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "axes must be an integer tensor");
}

/* ---- dyn.image.resize ---- */
static void test_dyn_image_resize(void) {
    char buf[200];
    byoc_diag d;
    /* nearest, asymmetric, floor (Upsample's indexing): scales 2 on H and W */
    byoc_module *m = typed("def @main(%x: Tensor[(1, 1, 2, 2), float32], %s: Tensor[(4), float32]) { "
                           "dyn.image.resize(%x, %s, method=\"nearest_neighbor\", "
                           "coordinate_transformation_mode=\"asymmetric\", rounding_method=\"floor\") }",
                           buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "Tensor[(?, ?, ?, ?), float32]"), "got %s", buf);
    CHECK(round_trips(m));
    const double x[4] = {1, 2, 3, 4}, s2[4] = {1, 1, 2, 2}, s_bad[4] = {1, 1, -2, 2};
    const double *in[3] = {x, s2, NULL};
    const double up[16] = {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4};
    CHECK_RESULT(m, in, NULL, "Tensor[(1, 1, 4, 4), float32]", up, 16, 0);
    in[1] = s_bad;
    CHECK_RUN_ERROR(m, in, NULL, "dyn.image.resize: scale -2 of axis 2 is not positive");
    byoc_module_destroy(m);
    /* sizes on the listed axes only, linear half_pixel: the same numbers as image.resize to that size */
    m = typed("def @main(%x: Tensor[(1, 1, 2, 2), float32], %sz: Tensor[(2), int64]) { "
              "dyn.image.resize(%x, %sz, axes=[2, 3]) }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "Tensor[(1, 1, ?, ?), float32]"), "got %s", buf);
    CHECK(round_trips(m));
    const double sizes[2] = {3, 4};
    in[1] = sizes;
    /* half_pixel, 2 -> 3 rows: sources -0.1667, 0.5, 1.1667 clamp to rows 0, 0.5, 1; 2 -> 4 columns:
       sources -0.25, 0.25, 0.75, 1.25 -> 1, 1.25, 1.75, 2 on row 0 */
    const double lin[12] = {1, 1.25, 1.75, 2, 2, 2.25, 2.75, 3, 3, 3.25, 3.75, 4};
    CHECK_RESULT(m, in, NULL, "Tensor[(1, 1, 3, 4), float32]", lin, 12, 1e-6);
    byoc_module_destroy(m);
    /* not_larger: one scale for both axes, the smaller (3/2 against 4/2) */
    m = typed("def @main(%x: Tensor[(1, 1, 2, 2), float32], %sz: Tensor[(2), int64]) { "
              "dyn.image.resize(%x, %sz, axes=[2, 3], keep_aspect_ratio_policy=\"not_larger\", "
              "method=\"nearest_neighbor\") }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    byoc_node *out;
    CHECKF(eval(m, in, NULL, &out, &d) == BYOC_OK, "%s", d.message);
    byoc_type_to_string(out ? out->checked_type : NULL, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(1, 1, 3, 3), float32]"), "got %s", buf);
    byoc_module_destroy(m);
    /* tf_crop_and_resize with a roi tensor: the centre of a 1-D ramp */
    m = typed("def @main(%x: Tensor[(5), float32], %sz: Tensor[(1), int64], %roi: Tensor[(2), float32]) { "
              "dyn.image.resize(%x, %sz, %roi, coordinate_transformation_mode=\"tf_crop_and_resize\") }",
              buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    const double ramp[5] = {0, 10, 20, 30, 40}, three[1] = {3}, roi[2] = {0.25, 0.75};
    const double *in3[3] = {ramp, three, roi};
    const double crop[3] = {10, 20, 30};
    CHECK_RESULT(m, in3, NULL, "Tensor[(3,), float32]", crop, 3, 1e-5);
    CHECK(round_trips(m));
    byoc_module_destroy(m);
    CHECK(typed("def @main(%x: Tensor[(1, 1, 2, 2), float32], %s: Tensor[(3), float32]) { "
                "dyn.image.resize(%x, %s) }", buf, sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "dyn.image.resize");
    CHECK_CONTAINS(d.message, "must be 4 scales (float) or sizes (integer)");
    CHECK(typed("def @main(%x: Tensor[(4), float32], %s: Tensor[(1), float32]) { "
                "dyn.image.resize(%x, %s, coordinate_transformation_mode=\"tf_crop_and_resize\") }", buf, sizeof buf,
                &d) == NULL);
    CHECK_CONTAINS(d.message, "needs a roi");
}

/* ---- ONNX models whose operand is another graph input (so computed at run time, not a constant) ---- */
typedef struct pb { unsigned char *p; size_t n, cap; } pb;
static void pb_byte(pb *b, unsigned char c) {
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 256;
        b->p = (unsigned char *)realloc(b->p, b->cap);
    }
    b->p[b->n++] = c;
}
static void pb_varint(pb *b, uint64_t v) {
    do {
        pb_byte(b, (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
        v >>= 7;
    } while (v);
}
static void pb_int(pb *b, int field, int64_t v) {
    pb_varint(b, (uint64_t)field << 3);
    pb_varint(b, (uint64_t)v);
}
static void pb_bytes(pb *b, int field, const void *data, size_t n) {
    pb_varint(b, (uint64_t)field << 3 | 2);
    pb_varint(b, n);
    for (size_t i = 0; i < n; ++i) pb_byte(b, ((const unsigned char *)data)[i]);
}
static void pb_str(pb *b, int field, const char *s) { pb_bytes(b, field, s, strlen(s)); }
static void pb_msg(pb *b, int field, pb *m) {
    pb_bytes(b, field, m->p, m->n);
    free(m->p);
    memset(m, 0, sizeof *m);
}
static void attr_int(pb *node, const char *name, int64_t v) {
    pb a = {NULL, 0, 0};
    pb_str(&a, 1, name);
    pb_int(&a, 3, v);
    pb_int(&a, 20, 2);
    pb_msg(node, 5, &a);
}
static void attr_str(pb *node, const char *name, const char *v) {
    pb a = {NULL, 0, 0};
    pb_str(&a, 1, name);
    pb_str(&a, 4, v);
    pb_int(&a, 20, 3);
    pb_msg(node, 5, &a);
}
enum { ONNX_FLOAT = 1, ONNX_INT32 = 6, ONNX_INT64 = 7 };
typedef struct onnx_input { const char *name; int elem, rank; int64_t dims[4]; } onnx_input;
/* A model of one node: graph inputs `ins`, the node's input names (""; an omitted optional input) and
   output names, the graph's output `result` (declared without a shape: it has '?' extents). */
typedef struct onnx_model { pb graph, node; int opset; } onnx_model;
static void model_begin(onnx_model *mc, const char *op, int opset, const onnx_input *ins, int nins,
                        const char *const *node_in, int nnode_in, const char *const *node_out, int nnode_out,
                        const char *result) {
    memset(mc, 0, sizeof *mc);
    mc->opset = opset;
    for (int i = 0; i < nnode_in; ++i) pb_str(&mc->node, 1, node_in[i]);
    for (int i = 0; i < nnode_out; ++i) pb_str(&mc->node, 2, node_out[i]);
    pb_str(&mc->node, 3, "n1");
    pb_str(&mc->node, 4, op);
    for (int i = 0; i < nins; ++i) {
        pb vi = {NULL, 0, 0}, type = {NULL, 0, 0}, tensor = {NULL, 0, 0}, shape = {NULL, 0, 0};
        pb_str(&vi, 1, ins[i].name);
        pb_int(&tensor, 1, ins[i].elem);
        for (int d = 0; d < ins[i].rank; ++d) {
            pb dim = {NULL, 0, 0};
            pb_int(&dim, 1, ins[i].dims[d]);
            pb_msg(&shape, 1, &dim);
        }
        pb_msg(&tensor, 2, &shape);
        pb_msg(&type, 1, &tensor);
        pb_msg(&vi, 2, &type);
        pb_msg(&mc->graph, 11, &vi);
    }
    pb out = {NULL, 0, 0};
    pb_str(&out, 1, result);
    pb_msg(&mc->graph, 12, &out);
}
static byoc_result model_import(onnx_model *mc, byoc_onnx_model *model, byoc_diag *d) {
    pb m = {NULL, 0, 0}, ops = {NULL, 0, 0};
    pb_msg(&mc->graph, 1, &mc->node);
    pb_str(&mc->graph, 2, "g");
    pb_int(&m, 1, 8);
    pb_str(&ops, 1, "");
    pb_int(&ops, 2, mc->opset);
    pb_msg(&m, 8, &ops);
    pb_msg(&m, 7, &mc->graph);
    byoc_result r = byoc_onnx_import(m.p, m.n, "dyn3.onnx", NULL, model, d);
    free(m.p);
    return r;
}
/* imports, checks @main calls `op`, runs it on inputs and compares with want */
static void check_model(onnx_model *mc, const char *op, const double *const *in, const char *shape,
                        const double *want, int n, double tol) {
    byoc_onnx_model model;
    byoc_diag d;
    byoc_result r = model_import(mc, &model, &d);
    CHECKF(r == BYOC_OK, "import: %s", d.message);
    if (r != BYOC_OK) return;
    size_t len;
    char *text = byoc_module_print(model.module, 0, &len);
    CHECKF(strstr(text, op) != NULL, "no %s in:\n%s", op, text);
    byoc_free(model.module, text);
    CHECK_RESULT(model.module, in, NULL, shape, want, n, tol);
    byoc_onnx_model_free(&model);
}

static void test_onnx_topk_one_hot_computed(void) {
    onnx_model mc;
    const double x[6] = {1, 3, 2, 4, 6, 5}, k[1] = {2};
    const double *in[2] = {x, k};
    const onnx_input topk_in[2] = {{"x", ONNX_FLOAT, 2, {2, 3}}, {"k", ONNX_INT64, 1, {1}}};
    const char *node_in[2] = {"x", "k"}, *node_out[2] = {"values", "indices"};
    const double bottom2[4] = {1, 2, 4, 5}, indices[4] = {1, 2, 1, 2};
    model_begin(&mc, "TopK", 11, topk_in, 2, node_in, 2, node_out, 2, "values");
    attr_int(&mc.node, "largest", 1);
    const double top2[4] = {3, 2, 6, 5};
    check_model(&mc, "dyn.topk", in, "Tensor[(2, 2), float32]", top2, 4, 0);
    model_begin(&mc, "TopK", 11, topk_in, 2, node_in, 2, node_out, 2, "values");
    attr_int(&mc.node, "largest", 0);
    check_model(&mc, "dyn.topk", in, "Tensor[(2, 2), float32]", bottom2, 4, 0);
    model_begin(&mc, "TopK", 11, topk_in, 2, node_in, 2, node_out, 2, "indices");
    attr_int(&mc.node, "axis", -1);
    check_model(&mc, "dyn.topk", in, "Tensor[(2, 2), int64]", indices, 4, 0);
    /* OneHot (opset 11) with depth from an input: a negative index counts back from the depth */
    const onnx_input oh_in[3] = {{"i", ONNX_INT64, 1, {3}}, {"depth", ONNX_FLOAT, 0, {0}},
                                 {"values", ONNX_FLOAT, 1, {2}}};
    const char *oh_node_in[3] = {"i", "depth", "values"}, *oh_out[1] = {"y"};
    model_begin(&mc, "OneHot", 11, oh_in, 3, oh_node_in, 3, oh_out, 1, "y");
    const double i3[3] = {0, -1, 1}, depth[1] = {3.7}, vals[2] = {0, 9};
    const double *oh_values[3] = {i3, depth, vals};
    const double hot[9] = {9, 0, 0, 0, 0, 9, 0, 9, 0};
    check_model(&mc, "dyn.one_hot", oh_values, "Tensor[(3, 3), float32]", hot, 9, 0);
}

static void test_onnx_resize_upsample_computed(void) {
    onnx_model mc;
    const double x[4] = {1, 2, 3, 4}, scales[4] = {1, 1, 2, 2}, sizes[2] = {3, 4};
    const double up[16] = {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4};
    /* Resize-13, nearest, scales from an input (roi omitted) */
    const onnx_input rs_in[2] = {{"x", ONNX_FLOAT, 4, {1, 1, 2, 2}}, {"s", ONNX_FLOAT, 1, {4}}};
    const char *rs_node_in[3] = {"x", "", "s"}, *out[1] = {"y"};
    model_begin(&mc, "Resize", 13, rs_in, 2, rs_node_in, 3, out, 1, "y");
    attr_str(&mc.node, "mode", "nearest");
    attr_str(&mc.node, "coordinate_transformation_mode", "asymmetric");
    attr_str(&mc.node, "nearest_mode", "floor");
    const double *in[2] = {x, scales};
    check_model(&mc, "dyn.image.resize", in, "Tensor[(1, 1, 4, 4), float32]", up, 16, 0);
    /* Resize-18, linear, sizes of the axes [2, 3] from an input */
    const onnx_input sz_in[2] = {{"x", ONNX_FLOAT, 4, {1, 1, 2, 2}}, {"sz", ONNX_INT64, 1, {2}}};
    const char *sz_node_in[4] = {"x", "", "", "sz"};
    model_begin(&mc, "Resize", 18, sz_in, 2, sz_node_in, 4, out, 1, "y");
    attr_str(&mc.node, "mode", "linear");
    pb axes = {NULL, 0, 0};
    pb_str(&axes, 1, "axes");
    pb_int(&axes, 8, 2);
    pb_int(&axes, 8, 3);
    pb_int(&axes, 20, 7);
    pb_msg(&mc.node, 5, &axes);
    const double lin[12] = {1, 1.25, 1.75, 2, 2, 2.25, 2.75, 3, 3, 3.25, 3.75, 4};
    in[1] = sizes;
    check_model(&mc, "dyn.image.resize", in, "Tensor[(1, 1, 3, 4), float32]", lin, 12, 1e-6);
    /* Upsample-9 with scales from an input: nearest, out[x] = in[floor(x / scale)] */
    const char *up_node_in[2] = {"x", "s"};
    model_begin(&mc, "Upsample", 9, rs_in, 2, up_node_in, 2, out, 1, "y");
    attr_str(&mc.node, "mode", "nearest");
    in[1] = scales;
    check_model(&mc, "dyn.image.resize", in, "Tensor[(1, 1, 4, 4), float32]", up, 16, 0);
}

static void test_onnx_reduce_axes_computed(void) {
    onnx_model mc;
    const onnx_input in_desc[2] = {{"x", ONNX_FLOAT, 2, {2, 3}}, {"axes", ONNX_INT64, 1, {1}}};
    const char *node_in[2] = {"x", "axes"}, *out[1] = {"y"};
    const double x[6] = {1, -2, 3, 4, 5, -6}, last[1] = {1};
    const double *in[2] = {x, last};
    static const struct {
        const char *op, *dyn_op;
        double want[2];
    } cases[] = {
        {"ReduceMax", "dyn.max", {3, 5}},
        {"ReduceMin", "dyn.min", {-2, -6}},
        {"ReduceMean", "dyn.mean", {2.0 / 3, 1}},
        {"ReduceProd", "dyn.prod", {-6, -120}},
        {"ReduceL1", "dyn.sum", {6, 15}},
        {"ReduceL2", "dyn.sum", {3.7416574, 8.7749644}},
        {"ReduceSumSquare", "dyn.sum", {14, 77}},
        {"ReduceLogSum", "dyn.sum", {0.6931472, 1.0986123}},
        {"ReduceLogSumExp", "dyn.max", {3.1328452, 5.3132739}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        for (int keep = 0; keep < 2; ++keep) {
            model_begin(&mc, cases[i].op, 18, in_desc, 2, node_in, 2, out, 1, "y");
            attr_int(&mc.node, "keepdims", keep);
            check_model(&mc, cases[i].dyn_op, in, keep ? "Tensor[(2, 1), float32]" : "Tensor[(2,), float32]",
                        cases[i].want, 2, 1e-5);
        }
    }
}

static void test_onnx_pad_axes_and_max_unpool_computed(void) {
    onnx_model mc;
    const char *out[1] = {"y"};
    /* Pad-18: pads and axes from inputs; axis -1 padded 1 before and 2 after, with zeros */
    const onnx_input pad_in[3] = {{"x", ONNX_FLOAT, 2, {2, 3}}, {"pads", ONNX_INT64, 1, {2}},
                                  {"axes", ONNX_INT64, 1, {1}}};
    const char *pad_node_in[4] = {"x", "pads", "", "axes"};
    const double x[6] = {1, 2, 3, 4, 5, 6}, pads[2] = {1, 2}, last[1] = {-1}, first[1] = {0}, wrong[1] = {2};
    const double *in[3] = {x, pads, last};
    const double cols[12] = {0, 1, 2, 3, 0, 0, 0, 4, 5, 6, 0, 0};
    model_begin(&mc, "Pad", 18, pad_in, 3, pad_node_in, 4, out, 1, "y");
    check_model(&mc, "dyn.nn.pad", in, "Tensor[(2, 6), float32]", cols, 12, 0);
    in[2] = first;
    const double rows[15] = {0, 0, 0, 1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0};
    model_begin(&mc, "Pad", 18, pad_in, 3, pad_node_in, 4, out, 1, "y");
    check_model(&mc, "dyn.nn.pad", in, "Tensor[(5, 3), float32]", rows, 15, 0);
    /* an axis out of range is a run-time error naming the scatter */
    byoc_onnx_model model;
    byoc_diag d;
    byoc_node *res;
    in[2] = wrong;
    model_begin(&mc, "Pad", 18, pad_in, 3, pad_node_in, 4, out, 1, "y");
    CHECKF(model_import(&mc, &model, &d) == BYOC_OK, "%s", d.message);
    CHECK(eval(model.module, in, NULL, &res, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "scatter_elements");
    byoc_onnx_model_free(&model);
    /* MaxUnpool with output_shape from an input (ONNX's example: 2x2 values unpooled into 5x5) */
    const onnx_input mu_in[3] = {{"x", ONNX_FLOAT, 4, {1, 1, 2, 2}}, {"i", ONNX_INT64, 4, {1, 1, 2, 2}},
                                 {"shape", ONNX_INT64, 1, {4}}};
    const char *mu_node_in[3] = {"x", "i", "shape"};
    model_begin(&mc, "MaxUnpool", 11, mu_in, 3, mu_node_in, 3, out, 1, "y");
    const int64_t two2[2] = {2, 2};
    pb ks = {NULL, 0, 0}, ss = {NULL, 0, 0};
    pb_str(&ks, 1, "kernel_shape");
    pb_str(&ss, 1, "strides");
    for (int i = 0; i < 2; ++i) { pb_int(&ks, 8, two2[i]); pb_int(&ss, 8, two2[i]); }
    pb_int(&ks, 20, 7);
    pb_int(&ss, 20, 7);
    pb_msg(&mc.node, 5, &ks);
    pb_msg(&mc.node, 5, &ss);
    const double xv[4] = {5, 6, 7, 8}, iv[4] = {5, 7, 13, 15}, shape[4] = {1, 1, 5, 5}, small[4] = {1, 1, 3, 5};
    const double *mu_values[3] = {xv, iv, shape};
    const double unpooled[25] = {0, 0, 0, 0, 0, 0, 5, 0, 6, 0, 0, 0, 0, 0, 0, 0, 7, 0, 8, 0, 0, 0, 0, 0, 0};
    check_model(&mc, "dyn.nn.max_unpool", mu_values, "Tensor[(1, 1, 5, 5), float32]", unpooled, 25, 0);
    /* Relay: a print/parse round trip, a type error, a too small output_shape */
    char buf[160];
    byoc_module *m = typed("def @main(%x: Tensor[(1, 1, 2, 2), float32], %i: Tensor[(1, 1, 2, 2), int64], "
                           "%s: Tensor[(4), int64]) { dyn.nn.max_unpool(%x, %i, %s, pool_size=[2, 2], "
                           "strides=[2, 2]) }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "Tensor[(1, 1, ?, ?), float32]"), "got %s", buf);
    CHECK(round_trips(m));
    mu_values[2] = small;
    CHECK_RUN_ERROR(m, mu_values, NULL, "dyn.nn.max_unpool: output_shape[2] = 3 is smaller than the unpooled extent 4");
    byoc_module_destroy(m);
    CHECK(typed("def @main(%x: Tensor[(1, 1, 2, 2), float32], %i: Tensor[(1, 1, 2, 2), int64], "
                "%s: Tensor[(2), int64]) { dyn.nn.max_unpool(%x, %i, %s, pool_size=[2, 2]) }", buf, sizeof buf,
                &d) == NULL);
    CHECK_CONTAINS(d.message, "output_shape has 2 values for rank 4");
}

static void test_onnx_center_crop_pad_computed(void) {
    onnx_model mc;
    const char *out[1] = {"y"}, *node_in[2] = {"x", "shape"};
    const onnx_input ins[2] = {{"x", ONNX_FLOAT, 2, {3, 4}}, {"shape", ONNX_INT64, 1, {2}}};
    const double x[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, shape[2] = {2, 6}, same[2] = {3, 4};
    const double *in[2] = {x, shape};
    /* 3 rows cropped to 2 (from (3 - 2) / 2 = 0), 4 columns padded to 6 (1 before, 1 after) */
    const double want[12] = {0, 0, 1, 2, 3, 0, 0, 4, 5, 6, 7, 0};
    model_begin(&mc, "CenterCropPad", 18, ins, 2, node_in, 2, out, 1, "y");
    check_model(&mc, "dyn.nn.pad", in, "Tensor[(2, 6), float32]", want, 12, 0);
    in[1] = same;
    model_begin(&mc, "CenterCropPad", 18, ins, 2, node_in, 2, out, 1, "y");
    check_model(&mc, "dyn.strided_slice", in, "Tensor[(3, 4), float32]", x, 12, 0);
    /* one axis listed: its shape alone */
    const onnx_input one[2] = {{"x", ONNX_FLOAT, 2, {3, 4}}, {"shape", ONNX_INT64, 1, {1}}};
    const double two[1] = {2};
    in[1] = two;
    model_begin(&mc, "CenterCropPad", 18, one, 2, node_in, 2, out, 1, "y");
    pb axes = {NULL, 0, 0};
    pb_str(&axes, 1, "axes");
    pb_int(&axes, 8, -1);
    pb_int(&axes, 20, 7);
    pb_msg(&mc.node, 5, &axes);
    const double mid[6] = {1, 2, 5, 6, 9, 10};
    check_model(&mc, "dyn.strided_slice", in, "Tensor[(3, 2), float32]", mid, 6, 0);
    /* a shape of the wrong length is an import error naming the node */
    const onnx_input bad[2] = {{"x", ONNX_FLOAT, 2, {3, 4}}, {"shape", ONNX_INT64, 1, {3}}};
    model_begin(&mc, "CenterCropPad", 18, bad, 2, node_in, 2, out, 1, "y");
    byoc_onnx_model model;
    byoc_diag d;
    CHECK(model_import(&mc, &model, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "'n1' (CenterCropPad): shape must hold 2 integers, one per axis");
}

/* byoc_sim.h runs the dyn3 ops on the host, their results allocated per run */
static void test_sim_runs_run_time_operands(void) {
    char buf[200];
    byoc_diag d;
    byoc_module *m = typed("def @main(%x: Tensor[(1, 1, 2, 2), float32], %s: Tensor[(2), float32], "
                           "%k: Tensor[(), int64]) {\n"
                           "  %0 = dyn.image.resize(%x, %s, axes=[2, 3], method=\"nearest_neighbor\", "
                           "coordinate_transformation_mode=\"asymmetric\", rounding_method=\"floor\");\n"
                           "  dyn.topk(%0, %k, axis=3, ret_type=\"values\")\n}", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "Tensor[(1, 1, ?, ?), float32]"), "got %s", buf);
    byoc_sim_program *p = byoc_sim_lower(m, NULL, &d);
    CHECKF(p != NULL, "%s", d.message);
    for (int run = 0; p && run < 2; ++run) { /* scales 2 then 3, the top 1 then 2 of each row */
        float xs[4] = {1, 2, 3, 4}, scales[2] = {(float)(2 + run), (float)(2 + run)};
        int64_t k = 1 + run;
        byoc_tensor in[3] = {{BYOC_FLOAT32, 4, {1, 1, 2, 2}, xs}, {BYOC_FLOAT32, 1, {2}, scales},
                             {BYOC_INT64, 0, {0}, &k}},
                    out;
        CHECKF(byoc_sim_run(p, in, 3, &out, 1, &d) == BYOC_OK, "run %d: %s", run, d.message);
        int64_t rows = run ? 6 : 4;
        CHECKF(out.rank == 4 && out.dims[2] == rows && out.dims[3] == k, "run %d: %lld x %lld", run,
               (long long)out.dims[2], (long long)out.dims[3]);
        const float *v = (const float *)out.data;
        CHECKF(v[0] == 2 && v[(rows - 1) * k] == 4, "run %d: %g %g", run, v[0], v[(rows - 1) * k]);
    }
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
}

/* ---- dyn.hann_window / hamming / blackman and dyn.dft ---- */
static void test_dyn_windows_and_dft(void) {
    char buf[160];
    byoc_diag d;
    byoc_module *m = typed("def @main(%n: Tensor[(), int64]) { dyn.hann_window(%n, periodic=False) }", buf, sizeof buf,
                           &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "Tensor[(?,), float32]"), "got %s", buf);
    CHECK(round_trips(m));
    const double four[1] = {4}, minus[1] = {-1};
    const double *in[2] = {four, NULL};
    const double symmetric[4] = {0, 0.75, 0.75, 0}; /* 0.5 - 0.5 cos(2 pi i / 3) */
    CHECK_RESULT(m, in, NULL, "Tensor[(4,), float32]", symmetric, 4, 1e-6);
    in[0] = minus;
    CHECK_RUN_ERROR(m, in, NULL, "dyn.hann_window: size -1 is not in 0..");
    byoc_module_destroy(m);
    m = typed("def @main(%n: Tensor[(1), int32]) { dyn.blackman_window(%n, dtype=\"float64\") }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    in[0] = four; /* periodic: 0.42 - 0.5 cos(2 pi i / 4) + 0.08 cos(4 pi i / 4) */
    const double blackman[4] = {0, 0.34, 1, 0.34};
    CHECK_RESULT(m, in, NULL, "Tensor[(4,), float64]", blackman, 4, 1e-6);
    byoc_module_destroy(m);
    CHECK(typed("def @main(%n: Tensor[(), float32]) { dyn.hamming_window(%n) }", buf, sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "size must be an integer");
    /* dft of a real signal, the length from a tensor: cut to 2 points, or all 4, one-sided */
    m = typed("def @main(%x: Tensor[(1, 4, 1), float32], %len: Tensor[(), int64]) { dyn.dft(%x, %len) }", buf,
              sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "Tensor[(1, ?, 2), float32]"), "got %s", buf);
    CHECK(round_trips(m));
    const double x[4] = {1, 2, 3, 4}, two[1] = {2}, zero[1] = {0};
    const double *dft_in[2] = {x, two};
    const double cut[4] = {3, 0, -1, 0};
    CHECK_RESULT(m, dft_in, NULL, "Tensor[(1, 2, 2), float32]", cut, 4, 1e-5);
    dft_in[1] = four;
    const double full[8] = {10, 0, -2, 2, -2, 0, -2, -2};
    CHECK_RESULT(m, dft_in, NULL, "Tensor[(1, 4, 2), float32]", full, 8, 1e-5);
    dft_in[1] = zero;
    CHECK_RUN_ERROR(m, dft_in, NULL, "dyn.dft: dft_length 0 is not in 1..");
    byoc_module_destroy(m);
    m = typed("def @main(%x: Tensor[(1, 4, 1), float32], %len: Tensor[(), int64]) { dyn.dft(%x, %len, onesided=True) }",
              buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    dft_in[1] = four;
    CHECK_RESULT(m, dft_in, NULL, "Tensor[(1, 3, 2), float32]", full, 6, 1e-5);
    byoc_module_destroy(m);
    CHECK(typed("def @main(%x: Tensor[(4), float32], %len: Tensor[(), int64]) { dyn.dft(%x, %len) }", buf, sizeof buf,
                &d) == NULL);
    CHECK_CONTAINS(d.message, "dyn.dft");
    /* the ONNX ops with the size / dft_length from another input */
    onnx_model mc;
    const char *out[1] = {"y"}, *win_in[1] = {"n"}, *dft_node_in[2] = {"x", "len"};
    const onnx_input n_in[1] = {{"n", ONNX_INT64, 0, {0}}};
    model_begin(&mc, "HammingWindow", 17, n_in, 1, win_in, 1, out, 1, "y");
    const double hamming[4] = {0.0869565, 0.5434783, 1, 0.5434783}; /* 25/46 - 21/46 cos(2 pi i / 4) */
    in[0] = four;
    check_model(&mc, "dyn.hamming_window", in, "Tensor[(4,), float32]", hamming, 4, 1e-6);
    const onnx_input dft_desc[2] = {{"x", ONNX_FLOAT, 3, {1, 4, 1}}, {"len", ONNX_INT64, 0, {0}}};
    model_begin(&mc, "DFT", 17, dft_desc, 2, dft_node_in, 2, out, 1, "y");
    dft_in[1] = two;
    check_model(&mc, "dyn.dft", dft_in, "Tensor[(1, 2, 2), float32]", cut, 4, 1e-5);
}

/* ---- dyn.stft ---- */
static void test_dyn_stft(void) {
    char buf[160];
    byoc_diag d;
    byoc_module *m = typed("def @main(%x: Tensor[(1, 8, 1), float32], %step: Tensor[(), int64], "
                           "%len: Tensor[(), int64]) { dyn.stft(%x, %step, %len) }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "Tensor[(1, ?, ?, 2), float32]"), "got %s", buf);
    CHECK(round_trips(m));
    /* frames of 2 points: X0 = a + b, X1 = a - b */
    const double x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, two[1] = {2}, three[1] = {3}, nine[1] = {9};
    const double *in[3] = {x, two, two};
    const double by2[16] = {3, 0, -1, 0, 7, 0, -1, 0, 11, 0, -1, 0, 15, 0, -1, 0};
    CHECK_RESULT(m, in, NULL, "Tensor[(1, 4, 2, 2), float32]", by2, 16, 1e-5);
    in[1] = three;
    const double by3[12] = {3, 0, -1, 0, 9, 0, -1, 0, 15, 0, -1, 0};
    CHECK_RESULT(m, in, NULL, "Tensor[(1, 3, 2, 2), float32]", by3, 12, 1e-5);
    in[2] = nine;
    CHECK_RUN_ERROR(m, in, NULL, "dyn.stft: frame_length 9 is not in 1..8 (the signal's length)");
    byoc_module_destroy(m);
    CHECK(typed("def @main(%x: Tensor[(8), float32], %s: Tensor[(), int64]) { dyn.stft(%x, %s, %s) }", buf,
                sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "dyn.stft");
    /* ONNX STFT with frame_step and frame_length from inputs (window omitted) */
    onnx_model mc;
    const char *out[1] = {"y"}, *node_in[4] = {"x", "step", "", "len"};
    const onnx_input ins[3] = {{"x", ONNX_FLOAT, 3, {1, 8, 1}}, {"step", ONNX_INT64, 0, {0}},
                               {"len", ONNX_INT64, 0, {0}}};
    model_begin(&mc, "STFT", 17, ins, 3, node_in, 4, out, 1, "y");
    in[1] = two;
    in[2] = two;
    check_model(&mc, "dyn.stft", in, "Tensor[(1, 4, 2, 2), float32]", by2, 16, 1e-5);
}

/* ---- dyn.mel_weight_matrix: the same numbers as mel_weight_matrix with the parameters as attributes ---- */
static void test_dyn_mel_weight_matrix(void) {
    char buf[200];
    byoc_diag d;
    byoc_module *m = typed("def @main(%bins: Tensor[(), int64], %len: Tensor[(), int64], %rate: Tensor[(), int64], "
                           "%lo: Tensor[(), float32], %hi: Tensor[(), float32]) { "
                           "dyn.mel_weight_matrix(%bins, %len, %rate, %lo, %hi) }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "Tensor[(?, ?), float32]"), "got %s", buf);
    CHECK(round_trips(m));
    byoc_module *ref = typed("def @main() { mel_weight_matrix(num_mel_bins=8, dft_length=16, sample_rate=8192, "
                             "lower_edge_hertz=0f, upper_edge_hertz=4096f) }", buf, sizeof buf, &d);
    CHECKF(ref != NULL, "%s", d.message);
    byoc_node *want = NULL, *got = NULL;
    CHECKF(ref && byoc_module_evaluate(ref, NULL, 0, &want, &d) == BYOC_OK, "%s", d.message);
    const double bins[1] = {8}, len[1] = {16}, rate[1] = {8192}, lo[1] = {0}, hi[1] = {4096}, bad[1] = {8192};
    const double *in[5] = {bins, len, rate, lo, hi};
    CHECKF(eval(m, in, NULL, &got, &d) == BYOC_OK, "%s", d.message);
    if (want && got) {
        byoc_type_to_string(got->checked_type, buf, sizeof buf);
        CHECKF(!strcmp(buf, "Tensor[(9, 8), float32]"), "got %s", buf);
        for (int i = 0; i < 72; ++i) CHECKF(load(got, i) == load(want, i), "element %d: %g, want %g", i, load(got, i),
                                             load(want, i));
    }
    in[3] = bad; /* lower edge above the upper */
    CHECK_RUN_ERROR(m, in, NULL, "dyn.mel_weight_matrix: needs 0 <= lower_edge_hertz < upper_edge_hertz");
    byoc_module_destroy(ref);
    byoc_module_destroy(m);
    CHECK(typed("def @main(%i: Tensor[(), int64], %f: Tensor[(), float32]) { "
                "dyn.mel_weight_matrix(%i, %i, %i, %i, %f) }", buf, sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "lower_edge_hertz must be a float");
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_dyn_topk),
        TEST_ENTRY(test_dyn_one_hot),
        TEST_ENTRY(test_dyn_prod),
        TEST_ENTRY(test_dyn_image_resize),
        TEST_ENTRY(test_onnx_topk_one_hot_computed),
        TEST_ENTRY(test_onnx_resize_upsample_computed),
        TEST_ENTRY(test_onnx_reduce_axes_computed),
        TEST_ENTRY(test_onnx_pad_axes_and_max_unpool_computed),
        TEST_ENTRY(test_onnx_center_crop_pad_computed),
        TEST_ENTRY(test_sim_runs_run_time_operands),
        TEST_ENTRY(test_dyn_windows_and_dft),
        TEST_ENTRY(test_dyn_stft),
        TEST_ENTRY(test_dyn_mel_weight_matrix),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
