/* FakeQuantizationToInteger and the QDQ unit rule.
   The pass cases are TVM's tests/python/relay/test_pass_fake_quantization_to_integer.py (v0.8, 32 test
   functions; 30 ported here, smaller shapes; test_fake_quantize_split (a tuple projection between the ops)
   and test_fq_hard_fail (a Python-registered rewrite that raises) are not): each module is evaluated, the
   pass runs, the module is evaluated again and the integers must be equal (within 1 where TVM's test
   allows a rounding error). Where this pass keeps a group in float32 on purpose (ONNX Runtime does not
   fuse it, so its integers would differ from ORT's), the case checks the note that says why and that the
   module still computes the same. The qnn ops another part of the dialect adds (qnn.add, qnn.avg_pool2d,
   ...) are looked up at run time: before they exist, the case checks the "not registered" note. */
#include "byoc.h"
#include "test.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* one element of an int8, uint8, int32 or float32 tensor's bytes */
static void store_elem(byoc_dtype dt, void *data, int64_t i, double v) {
    unsigned char *p = (unsigned char *)data;
    if (dt == BYOC_FLOAT32) { float x = (float)v; memcpy(p + 4 * i, &x, 4); }
    else if (dt == BYOC_INT32) { int32_t x = (int32_t)v; memcpy(p + 4 * i, &x, 4); }
    else if (dt == BYOC_INT8) { int8_t x = (int8_t)v; memcpy(p + i, &x, 1); }
    else p[i] = (unsigned char)v;
}

/* ---- a weights file for the per-channel cases: float32 or integer constants by meta index ---- */
typedef struct wbuf { unsigned char b[8192]; size_t n; } wbuf;
static void w_put(wbuf *w, const void *p, size_t n) {
    if (w->n + n <= sizeof w->b) memcpy(w->b + w->n, p, n);
    w->n += n;
}
static void w_u32(wbuf *w, uint32_t v) { w_put(w, &v, 4); }
static void w_begin(wbuf *w, uint32_t count) {
    w->n = 0;
    w_put(w, "BYOCWTS1", 8);
    w_u32(w, count);
}
/* a 1-D constant of n values; code is the weights file's dtype code (1 float32, 4 int8, 7 int32) */
static void w_vector(wbuf *w, uint32_t index, uint32_t code, int64_t n, const double *v) {
    size_t size = code == 1 || code == 7 ? 4 : 1;
    uint64_t bytes = (uint64_t)n * size;
    w_u32(w, index);
    w_u32(w, code);
    w_u32(w, 1);
    w_put(w, &n, 8);
    w_put(w, &bytes, 8);
    for (int64_t i = 0; i < n; ++i) {
        unsigned char e[4];
        store_elem(code == 1 ? BYOC_FLOAT32 : code == 7 ? BYOC_INT32 : BYOC_INT8, e, 0, v[i]);
        w_put(w, e, size);
    }
}

/* ---- one case: evaluate, run the pass, evaluate again ---- */
typedef struct fq_case {
    const char *text;
    const wbuf *weights;
    const char *expect;  /* in the printed module after the pass (NULL: nothing asked) */
    const char *note;    /* in the pass's notes (NULL: there must be none) */
    int tolerance;       /* largest difference allowed between the integers before and after */
} fq_case;

/* seeded integers of each parameter's dtype over its whole range (int32 biases: a few thousand) */
static byoc_node *seeded_input(byoc_module *m, const byoc_type *t, unsigned *seed) {
    int64_t n = byoc_type_num_elements(t);
    size_t bytes = (size_t)n * byoc_dtype_size(t->dtype);
    unsigned char *buf = (unsigned char *)calloc(bytes ? bytes : 1, 1);
    double lo = t->dtype == BYOC_UINT8 ? 0 : t->dtype == BYOC_INT8 ? -128 : -3000;
    double span = t->dtype == BYOC_INT32 ? 6000 : 256;
    for (int64_t k = 0; k < n; ++k) {
        *seed = *seed * 1103515245u + 12345u;
        store_elem(t->dtype, buf, k, lo + (double)((*seed >> 8) % (unsigned)span));
    }
    byoc_node *c = byoc_constant(m, t, buf, bytes);
    free(buf);
    return c;
}

static const char *check_case(const fq_case *c, char *why, size_t cap) {
    byoc_diag d;
    byoc_parse_options po;
    memset(&po, 0, sizeof po);
    if (c->weights) {
        po.weights = c->weights->b;
        po.weights_size = c->weights->n;
    }
    byoc_module *m = byoc_module_parse(c->text, strlen(c->text), "case.relay", &po, &d);
    if (!m || byoc_infer_type(m, &d) != BYOC_OK) { snprintf(why, cap, "parse: %s", d.message); return why; }
    byoc_node *main_fn = byoc_module_function(m, "main"), *in[8], *before = NULL, *after = NULL;
    unsigned seed = 20261126u;
    for (int i = 0; i < main_fn->nparams && i < 8; ++i) in[i] = seeded_input(m, main_fn->params[i]->annotation, &seed);
    char *notes = NULL, *text = NULL;
    const char *bad = NULL;
    if (byoc_module_evaluate(m, in, main_fn->nparams, &before, &d) != BYOC_OK)
        snprintf(why, cap, "before: %s", d.message);
    else if (byoc_fake_quantization_to_integer(m, &notes, &d) != BYOC_OK) snprintf(why, cap, "pass: %s", d.message);
    else if (byoc_module_evaluate(m, in, main_fn->nparams, &after, &d) != BYOC_OK)
        snprintf(why, cap, "after: %s", d.message);
    else {
        text = byoc_module_print(m, 0, NULL);
        why[0] = 0;
    }
    if (!why[0] && c->expect && (!text || !strstr(text, c->expect)))
        snprintf(why, cap, "expected \"%s\" in %.600s", c->expect, text ? text : "(null)");
    if (!why[0] && (c->note ? !notes || !strstr(notes, c->note) : notes != NULL))
        snprintf(why, cap, "notes: expected \"%s\", got \"%s\"", c->note ? c->note : "(none)",
                 notes ? notes : "(none)");
    if (!why[0]) {
        const byoc_type *t = before->annotation;
        int64_t n = byoc_type_num_elements(t), off = 0;
        double worst = 0;
        for (int64_t k = 0; k < n; ++k) {
            double e = fabs((double)byoc_constant_f32(before, k) - (double)byoc_constant_f32(after, k));
            if (e > worst) { worst = e; off = k; }
        }
        if (after->annotation->dtype != t->dtype || worst > c->tolerance)
            snprintf(why, cap, "element %lld differs by %g (allowed %d)", (long long)off, worst, c->tolerance);
    }
    bad = why[0] ? why : NULL;
    byoc_free(m, notes);
    byoc_free(m, text);
    byoc_module_destroy(m);
    return bad;
}
#define CHECK_CASE(...)                                                                          \
    do {                                                                                         \
        fq_case c_ = {__VA_ARGS__};                                                              \
        char w_[1200];                                                                           \
        const char *e_ = check_case(&c_, w_, sizeof w_);                                         \
        CHECKF(!e_, "%s", e_);                                                                   \
    } while (0)

/* the qnn op when it is registered, else the note that says it is not */
#define IF_REGISTERED(op, ...)                                                                   \
    do {                                                                                         \
        if (byoc_op_get(op)) CHECK_CASE(__VA_ARGS__);                                            \
        else {                                                                                   \
            fq_case c_ = {__VA_ARGS__};                                                          \
            c_.expect = NULL;                                                                    \
            c_.note = op " is not registered";                                                   \
            c_.tolerance = 0;                                                                    \
            char w_[1200];                                                                       \
            const char *e_ = check_case(&c_, w_, sizeof w_);                                     \
            CHECKF(!e_, "%s", e_);                                                               \
        }                                                                                        \
    } while (0)

/* ---- anchors ---- */
static void test_fake_quantize_conv(void) {
    for (int u = 0; u < 2; ++u) {
        char text[800];
        snprintf(text, sizeof text,
                 "def @main(%%x: Tensor[(1, 3, 8, 8), int8], %%w: Tensor[(4, 3, 3, 3), int8]) {\n"
                 "  %%0 = qnn.dequantize(%%x, 2f, 0);\n  %%1 = qnn.dequantize(%%w, 0.5f, 0);\n"
                 "  %%2 = nn.conv2d(%%0, %%1, kernel_size=[3, 3]);\n"
                 "  qnn.quantize(%%2, 1f, 0, out_dtype=\"%s\")\n}\n", u ? "uint8" : "int8");
        /* uint8 output of int8 data: ConvNodeGroupSelector wants the output type of the input */
        CHECK_CASE(text, NULL, u ? NULL : "qnn.conv2d", u ? "the output's integer type is not the data's" : NULL, 0);
    }
}

static void test_fake_quantize_conv_per_channel(void) {
    double scale[4] = {0.25, 0.5, 0.75, 0.125}, zero[4] = {0, 0, 0, 0};
    wbuf w;
    w_begin(&w, 2);
    w_vector(&w, 0, 1, 4, scale);
    w_vector(&w, 1, 4, 4, zero);
    CHECK_CASE("def @main(%x: Tensor[(1, 3, 8, 8), int8], %w: Tensor[(4, 3, 3, 3), int8]) {\n"
               "  %0 = qnn.dequantize(%x, 2f, 0);\n"
               "  %1 = qnn.dequantize(%w, meta[relay.Constant][0] /* ty=Tensor[(4,), float32] */,"
               " meta[relay.Constant][1] /* ty=Tensor[(4,), int8] */, axis=0);\n"
               "  %2 = nn.conv2d(%0, %1, channels=4, kernel_size=[3, 3]);\n"
               "  qnn.quantize(%2, 1f, 0)\n}\n",
               &w, "qnn.requantize", NULL, 1);
}

static void test_fake_quantize_transposeconv(void) { /* no qnn.conv2d_transpose: ONNX Runtime has none either */
    CHECK_CASE("def @main(%x: Tensor[(1, 3, 6, 6), int8], %w: Tensor[(3, 4, 3, 3), int8]) {\n"
               "  %0 = qnn.dequantize(%x, 2f, 0);\n  %1 = qnn.dequantize(%w, 0.5f, 0);\n"
               "  %2 = nn.conv2d_transpose(%0, %1, kernel_size=[3, 3], kernel_layout=\"IOHW\");\n"
               "  qnn.quantize(%2, 1f, 0)\n}\n",
               NULL, "nn.conv2d_transpose", "nn.conv2d_transpose #", 0);
}

static void test_fake_quantize_dense(void) {
    CHECK_CASE("def @main(%x: Tensor[(8, 16), int8], %w: Tensor[(12, 16), int8]) {\n"
               "  %0 = qnn.dequantize(%x, 2f, 0);\n  %1 = qnn.dequantize(%w, 0.5f, 0);\n"
               "  %2 = nn.dense(%0, %1);\n  qnn.quantize(%2, 1f, 0)\n}\n",
               NULL, "qnn.dense", NULL, 0);
}

static void test_fake_quantize_dense_per_channel(void) {
    double scale[12], zero[12];
    for (int i = 0; i < 12; ++i) { scale[i] = 0.05 + 0.07 * i; zero[i] = 0; }
    wbuf w;
    w_begin(&w, 2);
    w_vector(&w, 0, 1, 12, scale);
    w_vector(&w, 1, 4, 12, zero);
    CHECK_CASE("def @main(%x: Tensor[(8, 16), int8], %w: Tensor[(12, 16), int8]) {\n"
               "  %0 = qnn.dequantize(%x, 2f, 0);\n"
               "  %1 = qnn.dequantize(%w, meta[relay.Constant][0] /* ty=Tensor[(12,), float32] */,"
               " meta[relay.Constant][1] /* ty=Tensor[(12,), int8] */, axis=0);\n"
               "  %2 = nn.dense(%0, %1, units=12);\n  qnn.quantize(%2, 1f, 0)\n}\n",
               &w, "qnn.dense", NULL, 1);
}

static void test_fake_quantize_batch_matmul(void) {
    CHECK_CASE("def @main(%x: Tensor[(1, 8, 16), int8], %w: Tensor[(1, 12, 16), int8]) {\n"
               "  %0 = qnn.dequantize(%x, 2f, 0);\n  %1 = qnn.dequantize(%w, 0.5f, 0);\n"
               "  %2 = nn.batch_matmul(%0, %1);\n  qnn.quantize(%2, 1f, 0)\n}\n",
               NULL, "qnn.batch_matmul", NULL, 0);
}

static const char *transpose_conv_head =
    "def @main(%x: Tensor[(1, 8, 8, 3), int8], %w: Tensor[(4, 3, 3, 3), int8], %bias: Tensor[(4,), int32]) {\n"
    "  %0 = qnn.dequantize(%x, 2f, 0);\n  %1 = transpose(%0, axes=[0, 3, 1, 2]);\n";

static void test_fake_transpose_quantize_conv(void) {
    CHECK_CASE("def @main(%x: Tensor[(1, 8, 8, 3), int8], %w: Tensor[(4, 3, 3, 3), int8]) {\n"
               "  %0 = qnn.dequantize(%x, 2f, 0);\n  %1 = transpose(%0, axes=[0, 3, 1, 2]);\n"
               "  %2 = qnn.dequantize(%w, 0.5f, 0);\n  %3 = nn.conv2d(%1, %2, kernel_size=[3, 3]);\n"
               "  qnn.quantize(%3, 1f, 0)\n}\n",
               NULL, "qnn.conv2d(%0", NULL, 0);
}

static void test_fake_transpose_quantize_conv_bias_add(void) {
    char text[1200];
    snprintf(text, sizeof text,
             "%s  %%2 = qnn.dequantize(%%w, 0.5f, 0);\n  %%3 = nn.conv2d(%%1, %%2, kernel_size=[3, 3]);\n"
             "  %%4 = qnn.dequantize(%%bias, 1f, 0);\n  %%5 = nn.bias_add(%%3, %%4);\n  qnn.quantize(%%5, 1f, 0)\n}\n",
             transpose_conv_head);
    CHECK_CASE(text, NULL, "nn.bias_add(%1, %bias)", NULL, 0);
}

static void test_fake_transpose_quantize_conv_bias_add_per_channel(void) {
    double ws[4] = {0.45, 0.5, 0.52, 0.48}, bs[4], zero[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; ++i) bs[i] = (float)(2.0f * (float)ws[i]);
    wbuf w;
    w_begin(&w, 3);
    w_vector(&w, 0, 1, 4, ws);
    w_vector(&w, 1, 4, 4, zero);
    w_vector(&w, 2, 1, 4, bs);
    char text[1400];
    snprintf(text, sizeof text,
             "%s  %%2 = qnn.dequantize(%%w, meta[relay.Constant][0] /* ty=Tensor[(4,), float32] */,"
             " meta[relay.Constant][1] /* ty=Tensor[(4,), int8] */, axis=0);\n"
             "  %%3 = nn.conv2d(%%1, %%2, kernel_size=[3, 3]);\n"
             "  %%4 = qnn.dequantize(%%bias, meta[relay.Constant][2] /* ty=Tensor[(4,), float32] */, 0, axis=0);\n"
             "  %%5 = nn.bias_add(%%3, %%4);\n  qnn.quantize(%%5, 1f, 0)\n}\n",
             transpose_conv_head);
    CHECK_CASE(text, &w, "qnn.conv2d", NULL, 1);
}

static void test_fake_transpose_quantize_conv_bias_add_mismatch(void) {
    /* TVM requantizes a bias of another scale; ONNX Runtime adds its integers as they are: neither is the
       float graph's arithmetic, so the group stays float32 with the reason */
    char text[1200];
    snprintf(text, sizeof text,
             "%s  %%2 = qnn.dequantize(%%w, 0.5f, 0);\n  %%3 = nn.conv2d(%%1, %%2, kernel_size=[3, 3]);\n"
             "  %%4 = qnn.dequantize(%%bias, 2f, 0);\n  %%5 = nn.bias_add(%%3, %%4);\n  qnn.quantize(%%5, 1f, 0)\n}\n",
             transpose_conv_head);
    CHECK_CASE(text, NULL, "nn.conv2d(", "its bias's scale is not x_scale * w_scale", 0);
}

/* ---- pools, unary ops ---- */
static const char *unary_text(char *buf, size_t cap, const char *op, const char *dt, const char *zp) {
    snprintf(buf, cap,
             "def @main(%%x: Tensor[(1, 3, 8, 8), %s]) {\n  %%0 = qnn.dequantize(%%x, 2f, %s);\n  %%1 = %s;\n"
             "  qnn.quantize(%%1, 2f, %s, out_dtype=\"%s\")\n}\n",
             dt, zp, op, zp, dt);
    return buf;
}

static void test_fake_quantize_maxpool(void) {
    char t[600];
    CHECK_CASE(unary_text(t, sizeof t, "nn.max_pool2d(%0, pool_size=[3, 3])", "int8", "0"), NULL,
               "nn.max_pool2d(%x", NULL, 0);
}
static void test_fake_quantize_avgpool(void) {
    char t[600];
    IF_REGISTERED("qnn.avg_pool2d", unary_text(t, sizeof t, "nn.avg_pool2d(%0, pool_size=[3, 3])", "int8", "-12"),
                  NULL, "qnn.avg_pool2d", NULL, 1);
}
static void test_fake_quantize_global_avg_pool(void) {
    char t[600];
    IF_REGISTERED("qnn.global_avg_pool2d", unary_text(t, sizeof t, "nn.global_avg_pool2d(%0)", "int8", "-12"), NULL,
                  "qnn.global_avg_pool2d", NULL, 1);
}
static void test_fake_quantize_rsqrt(void) { /* TVM's lookup table; ONNX Runtime has no QLinear Rsqrt */
    char t[600];
    CHECK_CASE(unary_text(t, sizeof t, "rsqrt(%0)", "int8", "0"), NULL, "rsqrt(", "rsqrt #", 0);
}

/* ---- data movement ---- */
static void test_fake_quantize_reshape(void) {
    char t[600];
    CHECK_CASE(unary_text(t, sizeof t, "reshape(%0, newshape=[1, 3, -1])", "int8", "0"), NULL, "reshape(%x", NULL, 0);
}
static void test_fake_quantize_expand_dims(void) {
    char t[600];
    CHECK_CASE(unary_text(t, sizeof t, "expand_dims(%0, axis=1)", "int8", "0"), NULL, "expand_dims(%x", NULL, 0);
}
static void test_fake_quantize_squeeze(void) {
    char t[600];
    CHECK_CASE(unary_text(t, sizeof t, "squeeze(%0, axis=[0])", "int8", "0"), NULL, "squeeze(%x", NULL, 0);
}
static void test_fake_quantize_strided_slice(void) {
    char t[600];
    CHECK_CASE(unary_text(t, sizeof t, "strided_slice(%0, begin=[0, 0, 0, 0], end=[1, 1, 4, 4])", "int8", "0"),
               NULL, "strided_slice(%x", NULL, 0);
}
static void test_fake_quantize_batch_flatten(void) { /* TVM's nn.batch_flatten is reshape here (ONNX Flatten) */
    char t[600];
    CHECK_CASE(unary_text(t, sizeof t, "reshape(%0, newshape=[1, -1])", "int8", "0"), NULL, "reshape(%x", NULL, 0);
}
static void test_fake_quantize_transpose_reshape(void) {
    CHECK_CASE("def @main(%x: Tensor[(1, 3, 8, 8), int8]) {\n  %0 = qnn.dequantize(%x, 2f, 0);\n"
               "  %1 = transpose(%0, axes=[1, 0, 2, 3]);\n  %2 = reshape(%1, newshape=[3, -1]);\n"
               "  qnn.quantize(%2, 2f, 0)\n}\n",
               NULL, "reshape(%0", NULL, 0);
}
static void test_fake_quantize_depth_to_space(void) { /* ORT: no integer DepthToSpace (issue 21287) */
    CHECK_CASE("def @main(%x: Tensor[(1, 4, 8, 8), int8]) {\n  %0 = qnn.dequantize(%x, 2f, 0);\n"
               "  %1 = nn.depth_to_space(%0, block_size=2);\n  qnn.quantize(%1, 2f, 0)\n}\n",
               NULL, "depth_to_space", "it has no integer form", 0);
}
static void test_fake_quantize_max_min(void) { /* ORT's ReduceMax / ReduceMin drop rule */
    char t[600];
    CHECK_CASE(unary_text(t, sizeof t, "max(%0, axis=[1])", "int8", "0"), NULL, "max(%x", NULL, 0);
    CHECK_CASE(unary_text(t, sizeof t, "min(%0)", "int8", "0"), NULL, "min(%x", NULL, 0);
}
static void test_fake_quantize_pad(void) { /* not one of ORT's drop-QDQ ops: float32 */
    char t[600];
    CHECK_CASE(unary_text(t, sizeof t, "nn.pad(%0, 0f, pad_width=[[0, 0], [0, 1], [0, 0], [0, 0]])", "int8", "10"),
               NULL, "nn.pad", "nn.pad #", 0);
}

/* ---- clip and relu ---- */
static void test_fake_quantize_clip(void) {
    char t[600];
    CHECK_CASE(unary_text(t, sizeof t, "clip(%0, a_min=0f, a_max=6f)", "uint8", "114"), NULL, "clip(%x", NULL, 0);
}
static void test_fake_quantize_relu(void) {
    char t[600];
    CHECK_CASE(unary_text(t, sizeof t, "nn.relu(%0)", "uint8", "114"), NULL, "clip(%x, a_min=114f", NULL, 0);
}
static const char *per_channel_text =
    "def @main(%%x: Tensor[(1, 3, 8, 8), uint8]) {\n"
    "  %%0 = qnn.dequantize(%%x, meta[relay.Constant][0] /* ty=Tensor[(3,), float32] */,"
    " meta[relay.Constant][1] /* ty=Tensor[(3,), int32] */, axis=1);\n  %%1 = %s;\n"
    "  qnn.quantize(%%1, meta[relay.Constant][0] /* ty=Tensor[(3,), float32] */,"
    " meta[relay.Constant][1] /* ty=Tensor[(3,), int32] */, out_dtype=\"uint8\", axis=1)\n}\n";
static void per_channel_weights(wbuf *w) {
    double s[3] = {1, 2, 3}, z[3] = {96, 114, 128};
    w_begin(w, 2);
    w_vector(w, 0, 1, 3, s);
    w_vector(w, 1, 7, 3, z);
}
static void test_fake_quantize_clip_per_channel(void) { /* ORT's drop rules want scalar parameters */
    wbuf w;
    per_channel_weights(&w);
    char t[900];
    snprintf(t, sizeof t, per_channel_text, "clip(%0, a_min=0f, a_max=6f)");
    CHECK_CASE(t, &w, "clip(%0", "parameters differ (or are not constant scalars)", 0);
}
static void test_fake_quantize_relu_per_channel(void) {
    wbuf w;
    per_channel_weights(&w);
    char t[900];
    snprintf(t, sizeof t, per_channel_text, "nn.relu(%0)");
    CHECK_CASE(t, &w, "nn.relu(%0", "parameters differ (or are not constant scalars)", 0);
}

/* ---- binary, concatenate ---- */
static void test_fake_quantize_binary(void) {
    static const char *const ops[5] = {"add", "multiply", "subtract", "minimum", "maximum"};
    for (int k = 0; k < 5; ++k) {
        char t[700];
        snprintf(t, sizeof t,
                 "def @main(%%x: Tensor[(1, 3, 8, 8), int8], %%y: Tensor[(1, 3, 8, 8), int8]) {\n"
                 "  %%0 = qnn.dequantize(%%x, 0.1f, 0);\n  %%1 = qnn.dequantize(%%y, 0.2f, 0);\n"
                 "  %%2 = %s(%%0, %%1);\n  qnn.quantize(%%2, %s, 0)\n}\n",
                 ops[k], k == 1 ? "20f" : "0.1f");
        if (k == 0) IF_REGISTERED("qnn.add", t, NULL, "qnn.add", NULL, 1);
        else if (k == 1) IF_REGISTERED("qnn.mul", t, NULL, "qnn.mul", NULL, 1);
        else CHECK_CASE(t, NULL, ops[k], "it has no integer form", 0);
    }
}
static void test_fake_quantize_binary_const(void) { /* a float constant operand: ORT wants both dequantized */
    CHECK_CASE("def @main(%x: Tensor[(1, 3, 8, 8), int8]) {\n  %0 = qnn.dequantize(%x, 0.1f, 10);\n"
               "  %1 = add(%0, 1f);\n  qnn.quantize(%1, 0.1f, 10)\n}\n",
               NULL, "add(", "not every input is a dequantize", 0);
}
static void test_fake_quantize_concat(void) {
    IF_REGISTERED("qnn.concatenate",
                  "def @main(%x0: Tensor[(1, 4), int8], %x1: Tensor[(1, 4), int8], %x2: Tensor[(1, 4), int8]) {\n"
                  "  %0 = qnn.dequantize(%x0, 0.5f, 0);\n  %1 = qnn.dequantize(%x1, 1.5f, 0);\n"
                  "  %2 = qnn.dequantize(%x2, 2.5f, 0);\n  %3 = (%0, %1, %2);\n  %4 = concatenate(%3, axis=1);\n"
                  "  qnn.quantize(%4, 3.5f, 0)\n}\n",
                  NULL, "qnn.concatenate", NULL, 1);
}

/* ---- ONNX Runtime's group shapes ---- */
/* a Relu between the op and the quantize: gone when the zero point is the type's minimum (redundant) */
static void test_redundant_relu_dropped(void) {
    CHECK_CASE("def @main(%x: Tensor[(8, 16), int8], %w: Tensor[(12, 16), int8]) {\n"
               "  %0 = qnn.dequantize(%x, 2f, 0) /* span=onnx:x_dq */;\n"
               "  %1 = qnn.dequantize(%w, 0.5f, 0) /* span=onnx:w_dq */;\n"
               "  %2 = nn.dense(%0, %1) /* span=onnx:fc */;\n  %3 = nn.relu(%2) /* span=onnx:relu */;\n"
               "  qnn.quantize(%3, 4f, -128) /* span=onnx:q */\n}\n",
               NULL, "qnn.dense", NULL, 0);
    /* a zero point above the minimum: ONNX Runtime keeps the Relu, and the op in float32 */
    CHECK_CASE("def @main(%x: Tensor[(8, 16), int8], %w: Tensor[(12, 16), int8]) {\n"
               "  %0 = qnn.dequantize(%x, 2f, 0) /* span=onnx:x_dq */;\n"
               "  %1 = qnn.dequantize(%w, 0.5f, 0) /* span=onnx:w_dq */;\n"
               "  %2 = nn.dense(%0, %1) /* span=onnx:fc */;\n  %3 = nn.relu(%2) /* span=onnx:relu */;\n"
               "  qnn.quantize(%3, 4f, 0) /* span=onnx:q */\n}\n",
               NULL, "nn.dense(", "nn.dense at 'fc' stays float32: the nn.relu after it is not made redundant", 0);
}

/* a MatMul and an Add of two ONNX nodes: ORT fuses neither (the MatMul has no QuantizeLinear) */
static void test_separate_bias_node_stays_float(void) {
    CHECK_CASE("def @main(%x: Tensor[(8, 16), int8], %w: Tensor[(12, 16), int8], %b: Tensor[(12,), int32]) {\n"
               "  %0 = qnn.dequantize(%x, 2f, 0) /* span=onnx:x_dq */;\n"
               "  %1 = qnn.dequantize(%w, 0.5f, 0) /* span=onnx:w_dq */;\n"
               "  %2 = nn.dense(%0, %1) /* span=onnx:matmul */;\n"
               "  %3 = qnn.dequantize(%b, 1f, 0) /* span=onnx:b_dq */;\n  %4 = add(%2, %3) /* span=onnx:add */;\n"
               "  qnn.quantize(%4, 4f, 0) /* span=onnx:q */\n}\n",
               NULL, "nn.dense(", "nn.dense at 'matmul' stays float32: no qnn.quantize takes its result", 0);
}

/* quantize(dequantize(q)) with equal parameters is q */
static void test_dequantize_quantize_pair(void) {
    CHECK_CASE("def @main(%x: Tensor[(1, 8), uint8]) {\n  %0 = qnn.dequantize(%x, 0.3f, 7);\n"
               "  qnn.quantize(%0, 0.3f, 7, out_dtype=\"uint8\")\n}\n",
               NULL, "def @main(%x: Tensor[(1, 8), uint8]) {\n  %x\n}", NULL, 0);
}

static void test_null_module(void) {
    byoc_diag d;
    char *notes = (char *)&d;
    CHECK(byoc_fake_quantization_to_integer(NULL, &notes, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK(notes == NULL);
    CHECK_CONTAINS(d.message, "byoc_fake_quantization_to_integer: module is NULL");
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_fake_quantize_conv),
        TEST_ENTRY(test_fake_quantize_conv_per_channel),
        TEST_ENTRY(test_fake_quantize_transposeconv),
        TEST_ENTRY(test_fake_quantize_dense),
        TEST_ENTRY(test_fake_quantize_dense_per_channel),
        TEST_ENTRY(test_fake_quantize_batch_matmul),
        TEST_ENTRY(test_fake_transpose_quantize_conv),
        TEST_ENTRY(test_fake_transpose_quantize_conv_bias_add),
        TEST_ENTRY(test_fake_transpose_quantize_conv_bias_add_per_channel),
        TEST_ENTRY(test_fake_transpose_quantize_conv_bias_add_mismatch),
        TEST_ENTRY(test_fake_quantize_maxpool),
        TEST_ENTRY(test_fake_quantize_avgpool),
        TEST_ENTRY(test_fake_quantize_global_avg_pool),
        TEST_ENTRY(test_fake_quantize_rsqrt),
        TEST_ENTRY(test_fake_quantize_reshape),
        TEST_ENTRY(test_fake_quantize_expand_dims),
        TEST_ENTRY(test_fake_quantize_squeeze),
        TEST_ENTRY(test_fake_quantize_strided_slice),
        TEST_ENTRY(test_fake_quantize_batch_flatten),
        TEST_ENTRY(test_fake_quantize_transpose_reshape),
        TEST_ENTRY(test_fake_quantize_depth_to_space),
        TEST_ENTRY(test_fake_quantize_max_min),
        TEST_ENTRY(test_fake_quantize_pad),
        TEST_ENTRY(test_fake_quantize_clip),
        TEST_ENTRY(test_fake_quantize_relu),
        TEST_ENTRY(test_fake_quantize_clip_per_channel),
        TEST_ENTRY(test_fake_quantize_relu_per_channel),
        TEST_ENTRY(test_fake_quantize_binary),
        TEST_ENTRY(test_fake_quantize_binary_const),
        TEST_ENTRY(test_fake_quantize_concat),
        TEST_ENTRY(test_redundant_relu_dropped),
        TEST_ENTRY(test_separate_bias_node_stays_float),
        TEST_ENTRY(test_dequantize_quantize_pair),
        TEST_ENTRY(test_null_module),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
