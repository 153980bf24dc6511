/* Unit tests of dynamic shapes: '?' dims (BYOC_DIM_ANY) in the text format and in type inference,
   evaluation with run-time shapes, the data-dependent ops (argwhere, unique, non-max suppression) and
   the dyn.* ops whose shape operand is a tensor, placement, byoc_sim.h's runtime allocating '?'
   results at run time (executables too), and ONNX models with a symbolic input dim imported as '?'
   (tests/data/dynamic, written by tests/data/make_dynamic_models.py). Public API only. */
#include "byoc_sim.h"
#include "test.h"
#include "tools/byoc_onnx.h"

#include <math.h>
#include <stdlib.h>

/* ---- helpers ---- */
static byoc_module *parse_text(const char *text, byoc_diag *d) {
    return byoc_module_parse(text, strlen(text), "dynamic.relay", NULL, d);
}

/* print (with types), re-parse (with the constants' weights), compare */
static int round_trips(byoc_module *m, char *why, size_t cap) {
    size_t len, wlen = 0;
    char *text = byoc_module_print(m, BYOC_PRINT_TYPES, &len);
    void *weights = byoc_module_weights_serialize(m, &wlen);
    byoc_parse_options po;
    memset(&po, 0, sizeof po);
    po.weights = weights;
    po.weights_size = wlen;
    byoc_diag d;
    byoc_module *again = byoc_module_parse(text, len, "printed.relay", &po, &d);
    byoc_free(m, weights);
    int ok = again && byoc_module_structural_equal(m, again);
    if (!again) snprintf(why, cap, "re-parse failed: %s", d.message);
    else if (!ok) snprintf(why, cap, "re-parsed module differs:\n%s", text);
    byoc_module_destroy(again);
    byoc_free(m, text);
    return ok;
}

/* the type of @main's result as text */
static const char *result_type(byoc_module *m, char *buf, size_t cap) {
    byoc_node *main_fn = byoc_module_function(m, "main");
    byoc_type_to_string(main_fn ? main_fn->body->checked_type : NULL, buf, cap);
    return buf;
}

static byoc_node *tensor(byoc_module *m, byoc_dtype dt, int rank, const int64_t *dims, const void *data) {
    const byoc_type *t = byoc_tensor_type(m, dt, rank, dims);
    int64_t n = byoc_type_num_elements(t);
    return byoc_constant(m, t, data, (size_t)n * byoc_dtype_size(dt));
}

/* element i of a constant as int64 / double */
static int64_t int_at(const byoc_node *c, int64_t i) {
    switch (c->annotation->dtype) {
    case BYOC_INT32: return ((const int32_t *)c->data)[i];
    case BYOC_INT64: return ((const int64_t *)c->data)[i];
    default: return (int64_t)byoc_constant_f32(c, i);
    }
}

/* the module's @main typed; its result type written into buf */
static byoc_module *typed(const char *text, char *buf, size_t cap, byoc_diag *d) {
    byoc_module *m = parse_text(text, d);
    if (m && byoc_infer_type(m, d) != BYOC_OK) { byoc_module_destroy(m); return NULL; }
    if (m) result_type(m, buf, cap);
    return m;
}

/* ---- '?' in the IR ---- */
static void test_any_dims_print_and_parse(void) {
    CHECK(BYOC_DIM_ANY == BYOC_DIM_UNKNOWN && BYOC_DIM_ANY == -1);
    byoc_diag d;
    char buf[256], why[1024];
    byoc_module *m = typed("fn (%x: Tensor[(?, 4), float32], %y: Tensor[(?,), int64]) { (nn.relu(%x), %y) }", buf,
                           sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "(Tensor[(?, 4), float32], Tensor[(?,), int64])"), "got %s", buf);
    char *text = byoc_module_print(m, BYOC_PRINT_TYPES, NULL);
    CHECK_CONTAINS(text, "%x: Tensor[(?, 4), float32]");
    byoc_free(m, text);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    /* structural equality tells '?' from a known extent */
    byoc_module *other = typed("fn (%x: Tensor[(3, 4), float32], %y: Tensor[(?,), int64]) { (nn.relu(%x), %y) }", buf,
                               sizeof buf, &d);
    CHECK(other != NULL);
    CHECK(!byoc_module_structural_equal(m, other));
    int64_t dims[2] = {BYOC_DIM_ANY, 4}, known[2] = {3, 4};
    CHECK(!byoc_type_is_static(byoc_tensor_type(m, BYOC_FLOAT32, 2, dims)));
    CHECK(!byoc_type_equal(byoc_tensor_type(m, BYOC_FLOAT32, 2, dims), byoc_tensor_type(m, BYOC_FLOAT32, 2, known)));
    CHECK(byoc_type_num_elements(byoc_tensor_type(m, BYOC_FLOAT32, 2, dims)) == -1);
    byoc_module_destroy(other);
    byoc_module_destroy(m);
}

/* the common relations carry '?' through */
static void test_any_dims_propagate(void) {
    static const struct { const char *body, *want; } cases[] = {
        {"add(%x, %b)", "Tensor[(?, 4), float32]"},
        {"where(greater(%x, %b), %x, %b)", "Tensor[(?, 4), float32]"},
        {"sigmoid(%x)", "Tensor[(?, 4), float32]"},
        {"sum(%x, axis=[1])", "Tensor[(?,), float32]"},
        {"max(%x, axis=[0], keepdims=True)", "Tensor[(1, 4), float32]"},
        {"concatenate((%x, %x), axis=0)", "Tensor[(?, 4), float32]"},
        {"concatenate((%x, %x), axis=1)", "Tensor[(?, 8), float32]"},
        {"reshape(%x, newshape=[-1])", "Tensor[(?,), float32]"},
        {"reshape(%x, newshape=[0, 2, 2])", "Tensor[(?, 2, 2), float32]"},
        {"transpose(%x, axes=[1, 0])", "Tensor[(4, ?), float32]"},
        {"take(%x, %i, axis=0)", "Tensor[(3, 4), float32]"},
        {"take(%b, %x2, axis=1)", "Tensor[(1, ?), float32]"},
        {"strided_slice(%x, begin=[0, 1], end=[2, 3])", "Tensor[(?, 2), float32]"},
        {"nn.matmul(%x, %w)", "Tensor[(?, 5), float32]"},
        {"nn.dense(%x, %w2)", "Tensor[(?, 5), float32]"},
        {"cast(%x, dtype=\"int32\")", "Tensor[(?, 4), int32]"},
        {"shape_of(%x)", "Tensor[(2,), int32]"},
        {"expand_dims(%x, axis=0)", "Tensor[(1, ?, 4), float32]"},
        {"nn.softmax(%x)", "Tensor[(?, 4), float32]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char text[512], buf[256];
        snprintf(text, sizeof text,
                 "fn (%%x: Tensor[(?, 4), float32], %%b: Tensor[(1, 4), float32], %%i: Tensor[(3,), int32], "
                 "%%x2: Tensor[(?,), int64], %%w: Tensor[(4, 5), float32], %%w2: Tensor[(5, 4), float32]) { %s }",
                 cases[i].body);
        byoc_diag d;
        byoc_module *m = typed(text, buf, sizeof buf, &d);
        CHECKF(m != NULL, "%s: %s", cases[i].body, d.message);
        CHECKF(!strcmp(buf, cases[i].want), "%s: got %s, want %s", cases[i].body, buf, cases[i].want);
        byoc_module_destroy(m);
    }
}

/* relations that need a known extent say so, naming the op */
static void test_any_dims_clear_errors(void) {
    byoc_diag d;
    char buf[64];
    CHECK(typed("fn (%x: Tensor[(?, 4), float32]) { split(%x, indices_or_sections=2) }", buf, sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "split");
    CHECK_CONTAINS(d.message, "needs a static extent on axis 0");
    CHECK(typed("fn (%x: Tensor[(?, 4), float32]) { squeeze(%x) }", buf, sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "squeeze");
    CHECK(typed("fn (%x: Tensor[(1, ?, 8, 8), float32], %w: Tensor[(2, 3, 3, 3), float32]) { nn.conv2d(%x, %w) }",
                buf, sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "nn.conv2d");
    CHECK_CONTAINS(d.message, "static channel count");
}

/* ---- evaluation with run-time shapes ---- */
static void test_evaluate_fills_in_any_dims(void) {
    byoc_diag d;
    char buf[128];
    byoc_module *m = typed("fn (%x: Tensor[(?, 3), float32]) { sum(nn.relu(%x), axis=[1]) }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECK(!strcmp(buf, "Tensor[(?,), float32]"));
    float xs[6] = {1, -2, 3, -4, 5, 6};
    int64_t dims[2] = {2, 3};
    byoc_node *x = tensor(m, BYOC_FLOAT32, 2, dims, xs), *out = NULL;
    CHECKF(byoc_module_evaluate(m, &x, 1, &out, &d) == BYOC_OK, "%s", d.message);
    byoc_type_to_string(out->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(2,), float32]"), "got %s", buf);
    CHECK(byoc_constant_f32(out, 0) == 4.0f && byoc_constant_f32(out, 1) == 11.0f);
    /* an input must still fit: the known extent and the rank */
    int64_t wrong[2] = {2, 4};
    float zeros[8] = {0};
    x = tensor(m, BYOC_FLOAT32, 2, wrong, zeros);
    CHECK(byoc_module_evaluate(m, &x, 1, &out, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "input 0");
    byoc_module_destroy(m);
}

/* ---- argwhere ---- */
static void test_argwhere(void) {
    byoc_diag d;
    char buf[128], why[1024];
    byoc_module *m = typed("fn (%c: Tensor[(2, 3), float32]) { argwhere(%c) }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECK(!strcmp(buf, "Tensor[(?, 2), int32]"));
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    float cs[6] = {0, 1.5f, 0, -2, 0, -0.0f}; /* -0.0 is zero */
    int64_t dims[2] = {2, 3};
    byoc_node *c = tensor(m, BYOC_FLOAT32, 2, dims, cs), *out = NULL;
    CHECKF(byoc_module_evaluate(m, &c, 1, &out, &d) == BYOC_OK, "%s", d.message);
    byoc_type_to_string(out->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(2, 2), int32]"), "got %s", buf);
    CHECK(int_at(out, 0) == 0 && int_at(out, 1) == 1 && int_at(out, 2) == 1 && int_at(out, 3) == 0);
    /* nothing non-zero: an empty result */
    float none[6] = {0};
    c = tensor(m, BYOC_FLOAT32, 2, dims, none);
    CHECKF(byoc_module_evaluate(m, &c, 1, &out, &d) == BYOC_OK, "%s", d.message);
    byoc_type_to_string(out->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(0, 2), int32]"), "got %s", buf);
    byoc_module_destroy(m);
    CHECK(typed("fn (%c: Tensor[(2,), float32]) { argwhere((%c, %c)) }", buf, sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "argwhere");
    CHECK_CONTAINS(d.message, "the condition must be a tensor");
}

/* ---- unique: ONNX's examples ---- */
static void check_ints(const byoc_node *c, const int64_t *want, int n, char *why, size_t cap, int *ok) {
    if (!*ok) return;
    if (byoc_type_num_elements(c->checked_type) != n) {
        snprintf(why, cap, "%lld values, want %d", (long long)byoc_type_num_elements(c->checked_type), n);
        *ok = 0;
        return;
    }
    for (int i = 0; i < n; ++i)
        if (int_at(c, i) != want[i]) {
            snprintf(why, cap, "value %d is %lld, want %lld", i, (long long)int_at(c, i), (long long)want[i]);
            *ok = 0;
            return;
        }
}

static void test_unique(void) {
    byoc_diag d;
    char buf[256], why[1024];
    byoc_module *m = typed("fn (%x: Tensor[(6,), float32]) { unique(%x) }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "(Tensor[(?,), float32], Tensor[(?,), int64], Tensor[(6,), int64], Tensor[(?,), int64])"),
           "got %s", buf);
    float xs[6] = {2, 1, 1, 3, 4, 3};
    int64_t six = 6;
    byoc_node *x = tensor(m, BYOC_FLOAT32, 1, &six, xs), *out = NULL;
    CHECKF(byoc_module_evaluate(m, &x, 1, &out, &d) == BYOC_OK, "%s", d.message);
    CHECK(out->kind == BYOC_NODE_TUPLE && out->nargs == 4);
    static const int64_t values[] = {1, 2, 3, 4}, indices[] = {1, 0, 3, 4}, inverse[] = {1, 0, 0, 2, 3, 2},
                         counts[] = {2, 1, 2, 1};
    int ok = 1;
    check_ints(out->args[0], values, 4, why, sizeof why, &ok);
    check_ints(out->args[1], indices, 4, why, sizeof why, &ok);
    check_ints(out->args[2], inverse, 6, why, sizeof why, &ok);
    check_ints(out->args[3], counts, 4, why, sizeof why, &ok);
    CHECKF(ok, "sorted: %s", why);
    byoc_module_destroy(m);

    m = typed("fn (%x: Tensor[(6,), float32]) { unique(%x, sorted=False) }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    x = tensor(m, BYOC_FLOAT32, 1, &six, xs);
    CHECKF(byoc_module_evaluate(m, &x, 1, &out, &d) == BYOC_OK, "%s", d.message);
    static const int64_t values2[] = {2, 1, 3, 4}, indices2[] = {0, 1, 3, 4}, inverse2[] = {0, 1, 1, 2, 3, 2},
                         counts2[] = {1, 2, 2, 1};
    check_ints(out->args[0], values2, 4, why, sizeof why, &ok);
    check_ints(out->args[1], indices2, 4, why, sizeof why, &ok);
    check_ints(out->args[2], inverse2, 6, why, sizeof why, &ok);
    check_ints(out->args[3], counts2, 4, why, sizeof why, &ok);
    CHECKF(ok, "not sorted: %s", why);
    byoc_module_destroy(m);

    /* rows of [[1, 0, 0], [1, 0, 0], [2, 3, 4]] */
    m = typed("fn (%x: Tensor[(3, 3), int32]) { unique(%x, axis=0) }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    int32_t rows[9] = {1, 0, 0, 1, 0, 0, 2, 3, 4};
    int64_t dims[2] = {3, 3};
    x = tensor(m, BYOC_INT32, 2, dims, rows);
    CHECKF(byoc_module_evaluate(m, &x, 1, &out, &d) == BYOC_OK, "%s", d.message);
    byoc_type_to_string(out->args[0]->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(2, 3), int32]"), "got %s", buf);
    static const int64_t values3[] = {1, 0, 0, 2, 3, 4}, indices3[] = {0, 2}, inverse3[] = {0, 0, 1},
                         counts3[] = {2, 1};
    check_ints(out->args[0], values3, 6, why, sizeof why, &ok);
    check_ints(out->args[1], indices3, 2, why, sizeof why, &ok);
    check_ints(out->args[2], inverse3, 3, why, sizeof why, &ok);
    check_ints(out->args[3], counts3, 2, why, sizeof why, &ok);
    CHECKF(ok, "axis 0: %s", why);
    byoc_module_destroy(m);

    CHECK(typed("fn (%x: Tensor[(3, 3), int32]) { unique(%x, axis=2) }", buf, sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "unique");
    CHECK_CONTAINS(d.message, "axis 2 is out of range for rank 2");
}

/* ---- non-max suppression: ONNX's suppress_by_IOU example ---- */
static void test_non_max_suppression(void) {
    byoc_diag d;
    char buf[256], why[1024];
    const char *text = "fn (%boxes: Tensor[(1, 6, 4), float32], %scores: Tensor[(1, 1, 6), float32], "
                       "%k: Tensor[(1,), int64], %iou: Tensor[(1,), float32], %score: Tensor[(1,), float32]) { "
                       "vision.all_class_non_max_suppression(%boxes, %scores, %k, %iou, %score) }";
    byoc_module *m = typed(text, buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECK(!strcmp(buf, "Tensor[(?, 3), int64]"));
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    float boxes[24] = {0, 0,  1, 1,  0, 0.1f,  1, 1.1f,  0, -0.1f, 1, 0.9f,
                       0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100,   1, 101};
    float scores[6] = {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f}, iou = 0.5f, score = 0.0f;
    int64_t k = 3, bd[3] = {1, 6, 4}, sd[3] = {1, 1, 6}, one = 1;
    byoc_node *in[5] = {tensor(m, BYOC_FLOAT32, 3, bd, boxes), tensor(m, BYOC_FLOAT32, 3, sd, scores),
                        tensor(m, BYOC_INT64, 1, &one, &k), tensor(m, BYOC_FLOAT32, 1, &one, &iou),
                        tensor(m, BYOC_FLOAT32, 1, &one, &score)};
    byoc_node *out = NULL;
    CHECKF(byoc_module_evaluate(m, in, 5, &out, &d) == BYOC_OK, "%s", d.message);
    static const int64_t want[] = {0, 0, 3, 0, 0, 0, 0, 0, 5};
    int ok = 1;
    check_ints(out, want, 9, why, sizeof why, &ok);
    CHECKF(ok, "%s", why);
    /* at most 2 per class */
    k = 2;
    in[2] = tensor(m, BYOC_INT64, 1, &one, &k);
    CHECKF(byoc_module_evaluate(m, in, 5, &out, &d) == BYOC_OK, "%s", d.message);
    check_ints(out, want, 6, why, sizeof why, &ok);
    CHECKF(ok, "limited: %s", why);
    byoc_module_destroy(m);

    CHECK(typed("fn (%b: Tensor[(1, 6, 5), float32], %s: Tensor[(1, 1, 6), float32]) { "
                "vision.all_class_non_max_suppression(%b, %s) }",
                buf, sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "vision.all_class_non_max_suppression");
    CHECK_CONTAINS(d.message, "got 5 coordinates");
    CHECK(typed("fn (%b: Tensor[(1, 6, 4), float32], %s: Tensor[(1, 1, 6), float32], %k: Tensor[(2,), int64]) { "
                "vision.all_class_non_max_suppression(%b, %s, %k) }",
                buf, sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "max_output_boxes_per_class must hold one value");
}

/* ---- dyn.*: the shape operand is a tensor ---- */
static byoc_node *run2(byoc_module *m, byoc_node *a, byoc_node *b, byoc_diag *d) {
    byoc_node *in[2] = {a, b}, *out = NULL;
    return byoc_module_evaluate(m, in, 2, &out, d) == BYOC_OK ? out : NULL;
}

static void test_dyn_reshape(void) {
    byoc_diag d;
    char buf[128], why[1024];
    byoc_module *m = typed("fn (%x: Tensor[(2, 3), float32], %s: Tensor[(2,), int64]) { dyn.reshape(%x, %s) }", buf,
                           sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECK(!strcmp(buf, "Tensor[(?, ?), float32]"));
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    float xs[6] = {0, 1, 2, 3, 4, 5};
    int64_t dims[2] = {2, 3}, two = 2, shape[2] = {3, -1}, bad[2] = {4, 2};
    byoc_node *out = run2(m, tensor(m, BYOC_FLOAT32, 2, dims, xs), tensor(m, BYOC_INT64, 1, &two, shape), &d);
    CHECKF(out != NULL, "%s", d.message);
    byoc_type_to_string(out->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(3, 2), float32]"), "got %s", buf);
    CHECK(byoc_constant_f32(out, 5) == 5.0f);
    /* bad data names the op and the reason */
    CHECK(run2(m, tensor(m, BYOC_FLOAT32, 2, dims, xs), tensor(m, BYOC_INT64, 1, &two, bad), &d) == NULL);
    CHECK_CONTAINS(d.message, "dyn.reshape: newshape has 8 elements, the input has 6");
    byoc_module_destroy(m);
    CHECK(typed("fn (%x: Tensor[(2, 3), float32], %s: Tensor[(2,), float32]) { dyn.reshape(%x, %s) }", buf, sizeof buf,
                &d) == NULL);
    CHECK_CONTAINS(d.message, "newshape must be an integer tensor");
}

static void test_dyn_broadcast_to_and_tile(void) {
    byoc_diag d;
    char buf[128], why[1024];
    byoc_module *m = typed("fn (%x: Tensor[(3, 1), float32], %s: Tensor[(3,), int64]) { dyn.broadcast_to(%x, %s) }",
                           buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECK(!strcmp(buf, "Tensor[(?, ?, ?), float32]"));
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    float xs[3] = {1, 2, 3};
    int64_t dims[2] = {3, 1}, three = 3, shape[3] = {2, 1, 4};
    byoc_node *out = run2(m, tensor(m, BYOC_FLOAT32, 2, dims, xs), tensor(m, BYOC_INT64, 1, &three, shape), &d);
    CHECKF(out != NULL, "%s", d.message);
    byoc_type_to_string(out->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(2, 3, 4), float32]"), "got %s", buf);
    CHECK(byoc_constant_f32(out, 4) == 2.0f && byoc_constant_f32(out, 23) == 3.0f);
    int64_t bad[3] = {1, 2, 4};
    CHECK(run2(m, tensor(m, BYOC_FLOAT32, 2, dims, xs), tensor(m, BYOC_INT64, 1, &three, bad), &d) == NULL);
    CHECK_CONTAINS(d.message, "dyn.broadcast_to: an input of extent 3 on axis 1 does not broadcast to 2");
    byoc_module_destroy(m);

    m = typed("fn (%x: Tensor[(2, 2), int32], %r: Tensor[(2,), int64]) { dyn.tile(%x, %r) }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    int32_t vs[4] = {1, 2, 3, 4};
    int64_t d2[2] = {2, 2}, two = 2, reps[2] = {2, 3};
    out = run2(m, tensor(m, BYOC_INT32, 2, d2, vs), tensor(m, BYOC_INT64, 1, &two, reps), &d);
    CHECKF(out != NULL, "%s", d.message);
    byoc_type_to_string(out->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(4, 6), int32]"), "got %s", buf);
    static const int64_t want[] = {1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4};
    int ok = 1;
    check_ints(out, want, 24, why, sizeof why, &ok);
    CHECKF(ok, "%s", why);
    byoc_module_destroy(m);
}

static void test_dyn_strided_slice_and_pad(void) {
    byoc_diag d;
    char buf[128], why[1024];
    byoc_module *m = typed("fn (%x: Tensor[(3, 4), float32], %b: Tensor[(1,), int64], %e: Tensor[(1,), int64], "
                           "%s: Tensor[(1,), int64], %a: Tensor[(1,), int64]) {\n"
                           "  dyn.strided_slice(%x, %b, %e, %s, %a)\n}",
                           buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECK(!strcmp(buf, "Tensor[(?, ?), float32]"));
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    float xs[12];
    for (int i = 0; i < 12; ++i) xs[i] = (float)i;
    int64_t dims[2] = {3, 4}, one = 1, b = -1, e = -1000, s = -2, a = 1; /* columns 3, 1 */
    byoc_node *in[5] = {tensor(m, BYOC_FLOAT32, 2, dims, xs), tensor(m, BYOC_INT64, 1, &one, &b),
                        tensor(m, BYOC_INT64, 1, &one, &e), tensor(m, BYOC_INT64, 1, &one, &s),
                        tensor(m, BYOC_INT64, 1, &one, &a)};
    byoc_node *out = NULL;
    CHECKF(byoc_module_evaluate(m, in, 5, &out, &d) == BYOC_OK, "%s", d.message);
    byoc_type_to_string(out->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(3, 2), float32]"), "got %s", buf);
    static const int64_t want[] = {3, 1, 7, 5, 11, 9};
    int ok = 1;
    check_ints(out, want, 6, why, sizeof why, &ok);
    CHECKF(ok, "%s", why);
    s = 0;
    in[3] = tensor(m, BYOC_INT64, 1, &one, &s);
    CHECK(byoc_module_evaluate(m, in, 5, &out, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "dyn.strided_slice: step 0 on axis 1");
    byoc_module_destroy(m);

    m = typed("fn (%x: Tensor[(2, 2), float32], %p: Tensor[(2, 2), int64], %v: float32) { "
              "dyn.nn.pad(%x, %p, %v, pad_mode=\"constant\") }",
              buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    float x4[4] = {1, 2, 3, 4}, nine = 9;
    int64_t d2[2] = {2, 2}, pads[4] = {1, 0, 0, 1};
    byoc_node *pin[3] = {tensor(m, BYOC_FLOAT32, 2, d2, x4), tensor(m, BYOC_INT64, 2, d2, pads),
                         tensor(m, BYOC_FLOAT32, 0, NULL, &nine)};
    CHECKF(byoc_module_evaluate(m, pin, 3, &out, &d) == BYOC_OK, "%s", d.message);
    byoc_type_to_string(out->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(3, 3), float32]"), "got %s", buf);
    static const int64_t padded[] = {9, 9, 9, 1, 2, 9, 3, 4, 9};
    check_ints(out, padded, 9, why, sizeof why, &ok);
    CHECKF(ok, "%s", why);
    int64_t negative[4] = {-1, 0, 0, 1};
    pin[1] = tensor(m, BYOC_INT64, 2, d2, negative);
    CHECK(byoc_module_evaluate(m, pin, 3, &out, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "dyn.nn.pad: pads (-1, 0) on axis 0");
    byoc_module_destroy(m);
    CHECK(typed("fn (%x: Tensor[(2, 2), float32], %p: Tensor[(4,), int64]) { dyn.nn.pad(%x, %p) }", buf, sizeof buf,
                &d) == NULL);
    CHECK_CONTAINS(d.message, "pad_width must be (2, 2)");
}

static void test_dyn_squeeze_and_expand_dims(void) {
    byoc_diag d;
    char buf[128], why[1024];
    byoc_module *m = typed("fn (%x: Tensor[(1, 3, 1), float32], %a: Tensor[(2,), int64]) {\n"
                           "  (dyn.squeeze(%x, %a), dyn.expand_dims(%x, %a))\n}",
                           buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "(Tensor[(?,), float32], Tensor[(?, ?, ?, ?, ?), float32])"), "got %s", buf);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    float xs[3] = {1, 2, 3};
    int64_t dims[3] = {1, 3, 1}, two = 2, axes[2] = {0, -1};
    byoc_node *out = run2(m, tensor(m, BYOC_FLOAT32, 3, dims, xs), tensor(m, BYOC_INT64, 1, &two, axes), &d);
    CHECKF(out != NULL, "%s", d.message);
    byoc_type_to_string(out->args[0]->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(3,), float32]"), "got %s", buf);
    byoc_type_to_string(out->args[1]->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(1, 1, 3, 1, 1), float32]"), "got %s", buf);
    CHECK(byoc_constant_f32(out->args[1], 2) == 3.0f);
    int64_t middle[2] = {0, 1}; /* axis 1 has extent 3 */
    CHECK(run2(m, tensor(m, BYOC_FLOAT32, 3, dims, xs), tensor(m, BYOC_INT64, 1, &two, middle), &d) == NULL);
    CHECK_CONTAINS(d.message, "dyn.squeeze: axis 1 has extent 3, not 1");
    byoc_module_destroy(m);
}

static void test_dyn_reductions(void) {
    byoc_diag d;
    char buf[128], why[1024];
    byoc_module *m = typed("fn (%x: Tensor[(2, 3), int32], %a: Tensor[(1,), int64]) {\n"
                           "  (dyn.sum(%x, %a), dyn.max(%x, %a, keepdims=True))\n}",
                           buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "(Tensor[(?,), int32], Tensor[(?, ?), int32])"), "got %s", buf);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    int32_t xs[6] = {1, 2, 3, 4, 5, 6};
    int64_t dims[2] = {2, 3}, one = 1, axis = -1;
    byoc_node *out = run2(m, tensor(m, BYOC_INT32, 2, dims, xs), tensor(m, BYOC_INT64, 1, &one, &axis), &d);
    CHECKF(out != NULL, "%s", d.message);
    static const int64_t sums[] = {6, 15}, maxes[] = {3, 6};
    int ok = 1;
    check_ints(out->args[0], sums, 2, why, sizeof why, &ok);
    check_ints(out->args[1], maxes, 2, why, sizeof why, &ok);
    CHECKF(ok, "%s", why);
    byoc_type_to_string(out->args[1]->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(2, 1), int32]"), "got %s", buf);
    axis = 2;
    CHECK(run2(m, tensor(m, BYOC_INT32, 2, dims, xs), tensor(m, BYOC_INT64, 1, &one, &axis), &d) == NULL);
    CHECK_CONTAINS(d.message, "dyn.sum: axes[0]=2 is out of range for rank 2");
    byoc_module_destroy(m);
    /* no axes: every axis, a static result */
    m = typed("fn (%x: Tensor[(2, 3), int32], %a: Tensor[(0,), int64]) { dyn.sum(%x, %a) }", buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "int32"), "got %s", buf);
    byoc_module_destroy(m);
}

static void test_dyn_full_and_arange(void) {
    byoc_diag d;
    char buf[128], why[1024];
    byoc_module *m = typed("fn (%s: Tensor[(2,), int64], %a: int64, %b: int64, %c: int64) {\n"
                           "  (dyn.full(7i64, %s, dtype=\"float32\"), arange(%a, %b, %c))\n}",
                           buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "(Tensor[(?, ?), float32], Tensor[(?,), int64])"), "got %s", buf);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    int64_t two = 2, shape[2] = {2, 3}, start = 10, stop = 3, step = -3;
    byoc_node *in[4] = {tensor(m, BYOC_INT64, 1, &two, shape), tensor(m, BYOC_INT64, 0, NULL, &start),
                        tensor(m, BYOC_INT64, 0, NULL, &stop), tensor(m, BYOC_INT64, 0, NULL, &step)};
    byoc_node *out = NULL;
    CHECKF(byoc_module_evaluate(m, in, 4, &out, &d) == BYOC_OK, "%s", d.message);
    byoc_type_to_string(out->args[0]->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(2, 3), float32]"), "got %s", buf);
    CHECK(byoc_constant_f32(out->args[0], 5) == 7.0f);
    static const int64_t range[] = {10, 7, 4};
    int ok = 1;
    check_ints(out->args[1], range, 3, why, sizeof why, &ok);
    CHECKF(ok, "%s", why);
    step = 0;
    in[3] = tensor(m, BYOC_INT64, 0, NULL, &step);
    CHECK(byoc_module_evaluate(m, in, 4, &out, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "arange: step is 0");
    byoc_module_destroy(m);
    CHECK(typed("fn (%a: int64, %b: int32) { arange(%a, %b, %a) }", buf, sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "must share a numeric dtype");
}

/* ---- placement: ops with '?' stay on the host unless the backend declares dynamic_shapes ---- */
static const byoc_placement *placement_of(const byoc_placement_report *r, const char *op, int nth) {
    for (int i = 0; i < r->count; ++i)
        if (!strcmp(r->nodes[i].op, op) && nth-- == 0) return &r->nodes[i];
    return NULL;
}

static void test_placement_keeps_dynamic_ops_on_host(void) {
    static const char *const specs[2] = {"backend acc\nsupports nn.relu\n",
                                         "backend acc\ndynamic_shapes\nsupports nn.relu\n"};
    for (int declared = 0; declared < 2; ++declared) {
        byoc_diag d;
        char buf[128];
        byoc_module *m = typed("fn (%x: Tensor[(?, 4), float32], %y: Tensor[(2, 4), float32]) {\n"
                               "  (nn.relu(%x), nn.relu(%y))\n}",
                               buf, sizeof buf, &d);
        CHECKF(m != NULL, "%s", d.message);
        byoc_backend_spec *b = byoc_backend_parse(specs[declared], strlen(specs[declared]), "acc.backend", &d);
        CHECKF(b != NULL, "%s", d.message);
        CHECK(b->dynamic_shapes == declared);
        const byoc_backend_spec *bs[1] = {b};
        byoc_partition_options o;
        memset(&o, 0, sizeof o);
        o.backends = bs;
        o.nbackends = 1;
        byoc_placement_report *r = NULL;
        CHECKF(byoc_partition_greedy(m, &o, &r, &d) == BYOC_OK, "%s", d.message);
        const byoc_placement *dyn = placement_of(r, "nn.relu", 0), *fixed = placement_of(r, "nn.relu", 1);
        CHECK(dyn && fixed);
        CHECKF(!strcmp(fixed->backend, "acc"), "the static relu went to %s", fixed->backend);
        if (declared) CHECKF(!strcmp(dyn->backend, "acc"), "the dynamic relu went to %s", dyn->backend);
        else {
            CHECKF(!strcmp(dyn->backend, "host"), "the dynamic relu went to %s", dyn->backend);
            CHECK(dyn->ndeclined == 1);
            CHECK_CONTAINS(dyn->declined[0].reason, "dynamic shape: out is Tensor[(?, 4), float32]");
            char *text = byoc_placement_report_format(r, "report", NULL);
            CHECK_CONTAINS(text, "the backend does not declare dynamic_shapes");
            byoc_free(r->arena, text);
        }
        byoc_placement_report_free(r);
        byoc_backend_free(b);
        byoc_module_destroy(m);
    }
}

/* ---- byoc_sim.h: '?' results allocated at run time, static ones in the arena ---- */
static void test_sim_runtime_allocates_dynamic_results(void) {
    byoc_diag d;
    char buf[128];
    byoc_module *m = typed("fn (%x: Tensor[(?, 3), float32]) {\n"
                           "  %0 = nn.relu(%x);\n"
                           "  %1 = argwhere(%0);\n"
                           "  %2 = sum(cast(%1, dtype=\"float32\"), axis=[0]);\n"
                           "  (%2, %1, nn.relu(%2))\n}",
                           buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    byoc_sim_program *p = byoc_sim_lower(m, NULL, &d);
    CHECKF(p != NULL, "%s", d.message);
    const byoc_sim_io *in = byoc_sim_input(p, 0);
    CHECK(in && in->rank == 2 && in->dims[0] == BYOC_DIM_ANY && in->dims[1] == 3);
    int dynamic = 0, arena = 0;
    for (int b = 0; b < byoc_sim_buffer_count(p); ++b) {
        byoc_sim_buffer_kind kind = byoc_sim_buffer(p, b).kind;
        dynamic += kind == BYOC_SIM_BUFFER_DYNAMIC;
        arena += kind == BYOC_SIM_BUFFER_ARENA || kind == BYOC_SIM_BUFFER_OUTPUT;
    }
    CHECKF(dynamic == 3 && arena >= 2, "%d dynamic buffers, %d in the arena or outputs", dynamic, arena);
    for (int run = 0; run < 2; ++run) { /* two runs of different shapes */
        float xs[9] = {1, -1, 2, -2, 3, -3, 0, 0, 4};
        byoc_tensor x = {BYOC_FLOAT32, 2, {run ? 3 : 2, 3}, xs}, out[3];
        CHECKF(byoc_sim_run(p, &x, 1, out, 3, &d) == BYOC_OK, "run %d: %s", run, d.message);
        /* positives at (0,0) (0,2) (1,1), and (2,2) in the second run */
        int64_t rows = run ? 4 : 3;
        CHECKF(out[1].rank == 2 && out[1].dims[0] == rows && out[1].dims[1] == 2, "run %d: %lld rows", run,
               (long long)out[1].dims[0]);
        const float *sum = (const float *)out[0].data;
        CHECKF(out[0].dims[0] == 2 && sum[0] == (run ? 3.0f : 1.0f) && sum[1] == (run ? 5.0f : 3.0f),
               "run %d: sums %g %g", run, sum[0], sum[1]);
        const int32_t *coords = (const int32_t *)out[1].data;
        CHECK(coords[2] == 0 && coords[3] == 2);
    }
    float wrong[4] = {0};
    byoc_tensor x = {BYOC_FLOAT32, 2, {2, 2}, wrong};
    CHECK(byoc_sim_run(p, &x, 1, NULL, 0, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "expected Tensor[(?, 3), float32], got Tensor[(2, 2), float32]");
    /* an executable holds the dynamic buffers too: loaded, it allocates them per run as the program does */
    void *bytes = NULL;
    size_t size = 0;
    CHECKF(byoc_sim_executable_save(p, NULL, &bytes, &size, &d) == BYOC_OK, "%s", d.message);
    byoc_sim_executable *e = bytes ? byoc_sim_executable_load(bytes, size, "dynamic.byoc", NULL, &d) : NULL;
    CHECKF(e != NULL, "%s", d.message);
    byoc_sim_program *loaded = e ? byoc_sim_executable_program(e) : NULL;
    int loaded_dynamic = 0;
    for (int b = 0; loaded && b < byoc_sim_buffer_count(loaded); ++b)
        loaded_dynamic += byoc_sim_buffer(loaded, b).kind == BYOC_SIM_BUFFER_DYNAMIC;
    CHECK(loaded_dynamic == 3);
    for (int run = 0; loaded && run < 2; ++run) {
        float xs[9] = {1, -1, 2, -2, 3, -3, 0, 0, 4};
        byoc_tensor x = {BYOC_FLOAT32, 2, {run ? 3 : 2, 3}, xs}, out[3];
        CHECKF(byoc_sim_run(loaded, &x, 1, out, 3, &d) == BYOC_OK, "loaded, run %d: %s", run, d.message);
        CHECK(out[1].dims[0] == (run ? 4 : 3) && ((const float *)out[0].data)[1] == (run ? 5.0f : 3.0f));
    }
    byoc_sim_executable_destroy(e);
    free(bytes);
    byoc_sim_program_destroy(p);
    /* FuseOps leaves the '?' calls outside its functions (the static ones fuse): the program still lowers */
    CHECK(byoc_fuse_ops(m, 256, &d) == BYOC_OK);
    char *text = byoc_module_print(m, 0, NULL);
    CHECK_CONTAINS(text, "argwhere(");
    CHECK_CONTAINS(text, "Primitive=1");
    byoc_free(m, text);
    p = byoc_sim_lower(m, NULL, &d);
    CHECKF(p != NULL, "%s", d.message);
    float ys[6] = {1, -1, 2, -2, 3, -3};
    byoc_tensor y = {BYOC_FLOAT32, 2, {2, 3}, ys}, outs[3];
    CHECKF(byoc_sim_run(p, &y, 1, outs, 3, &d) == BYOC_OK, "%s", d.message);
    CHECK(outs[1].dims[0] == 3 && ((const float *)outs[2].data)[1] == 3.0f);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
}

/* FoldConstant folds a '?'-typed call on constants to a constant of concrete type, and the ops it feeds
   are typed again (Relay's DynamicToStatic); a '?' parameter takes a known extent */
static void test_fold_constant_settles_any_dims(void) {
    byoc_diag d;
    char buf[160];
    byoc_module *m = typed("fn (%x: Tensor[(1, 3, 4), float32]) {\n"
                           "  %0 = argwhere(greater(shape_of(%x, dtype=\"int64\"), 2i64));\n"
                           "  %1 = cast(%0, dtype=\"float32\");\n"
                           "  (%1, add(%1, 1f))\n}",
                           buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "(Tensor[(?, 1), float32], Tensor[(?, 1), float32])"), "got %s", buf);
    CHECKF(byoc_fold_constant(m, &d) == BYOC_OK, "%s", d.message);
    byoc_node *body = byoc_module_function(m, "main")->body;
    CHECK(body->kind == BYOC_NODE_TUPLE && body->args[0]->kind == BYOC_NODE_CONSTANT &&
          body->args[1]->kind == BYOC_NODE_CONSTANT);
    byoc_type_to_string(body->args[1]->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(2, 1), float32]"), "got %s", buf); /* 3 > 2 and 4 > 2: rows 1 and 2 */
    CHECK(byoc_constant_f32(body->args[0], 0) == 1.0f && byoc_constant_f32(body->args[0], 1) == 2.0f);
    CHECK(byoc_constant_f32(body->args[1], 1) == 3.0f);
    byoc_module_destroy(m);
    m = typed("fn (%x: Tensor[(2, 3), float32]) {\n"
              "  %f = fn (%y: Tensor[(?, 3), float32]) { nn.relu(%y) };\n"
              "  %f(%x)\n}",
              buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "Tensor[(?, 3), float32]"), "got %s", buf);
    byoc_module_destroy(m);
    CHECK(typed("fn (%x: Tensor[(2, 4), float32]) {\n"
                "  %f = fn (%y: Tensor[(?, 3), float32]) { nn.relu(%y) };\n"
                "  %f(%x)\n}",
                buf, sizeof buf, &d) == NULL);
    CHECK_CONTAINS(d.message, "argument 0 has type Tensor[(2, 4), float32], the function expects Tensor[(?, 3), float32]");
}

/* a chain: the shape computed by the graph, data-dependent extents flowing into static-shape ops */
static void test_dynamic_chain(void) {
    byoc_diag d;
    char buf[128];
    byoc_module *m = typed("fn (%x: Tensor[(2, 3), float32]) {\n"
                           "  %0 = argwhere(greater(%x, 0f));\n"
                           "  %1 = sum(cast(%0, dtype=\"float32\"), axis=[0]);\n"
                           "  %2 = dyn.reshape(%x, shape_of(%0, dtype=\"int64\"));\n"
                           "  (%1, %2)\n"
                           "}",
                           buf, sizeof buf, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(!strcmp(buf, "(Tensor[(2,), float32], Tensor[(?, ?), float32])"), "got %s", buf);
    float xs[6] = {1, -1, 2, -2, 3, 4}; /* positive at (0,0) (0,2) (1,1) (1,2) */
    int64_t dims[2] = {2, 3};
    byoc_node *x = tensor(m, BYOC_FLOAT32, 2, dims, xs), *out = NULL;
    CHECKF(byoc_module_evaluate(m, &x, 1, &out, &d) != BYOC_OK, "4 rows of 2 cannot reshape 6 elements");
    CHECK_CONTAINS(d.message, "dyn.reshape");
    float ys[6] = {1, -1, 2, -2, -3, 4}; /* positive at (0,0) (0,2) (1,2): shape (3, 2) */
    x = tensor(m, BYOC_FLOAT32, 2, dims, ys);
    CHECKF(byoc_module_evaluate(m, &x, 1, &out, &d) == BYOC_OK, "%s", d.message);
    CHECK(byoc_constant_f32(out->args[0], 0) == 1.0f && byoc_constant_f32(out->args[0], 1) == 4.0f);
    byoc_type_to_string(out->args[1]->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(3, 2), float32]"), "got %s", buf);
    byoc_module_destroy(m);
}

/* ---- ONNX: ops that need only the rank take '?' extents (tests/data/dynamic/shape_ops.onnx) ---- */
/* output k of a run: its shape is dims, and its values want (float32) or wants (int64) */
static int output_matches(const byoc_node *out, int k, int rank, const int64_t *dims, const float *want,
                          const int64_t *wants, char *why, size_t cap) {
    const byoc_node *o = out->args[k];
    const byoc_type *t = o->checked_type;
    if (t->rank != rank || memcmp(t->dims, dims, sizeof(int64_t) * (size_t)rank)) {
        char have[128];
        byoc_type_to_string(t, have, sizeof have);
        snprintf(why, cap, "output %d is %s", k, have);
        return 0;
    }
    for (int64_t i = 0; i < byoc_type_num_elements(t); ++i) {
        double got = wants ? (double)int_at(o, i) : (double)byoc_constant_f32(o, i);
        double w = wants ? (double)wants[i] : want[i];
        if (got != w) {
            snprintf(why, cap, "output %d element %lld is %g, expected %g", k, (long long)i, got, w);
            return 0;
        }
    }
    return 1;
}

static void test_onnx_rank_only_ops_take_any_dims(void) {
    byoc_onnx_options o;
    memset(&o, 0, sizeof o);
    o.dynamic_dims = 1;
    byoc_onnx_model model;
    byoc_diag d;
    CHECKF(byoc_onnx_load("tests/data/dynamic/shape_ops.onnx", &o, &model, &d) == BYOC_OK, "%s", d.message);
    if (d.code) return;
    byoc_module *m = model.module;
    char buf[1024], why[1200];
    byoc_node *main_fn = byoc_module_function(m, "main");
    byoc_type_to_string(main_fn->params[0]->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(?, 3), float32]"), "got %s", buf);
    const char *types = result_type(m, buf, sizeof buf);
    CHECK_CONTAINS(types, "(Tensor[(2,), int64], Tensor[(1,), int64], Tensor[(3, ?), float32], "
                          "Tensor[(1, ?), float32], Tensor[(?, ?, 1), float32], Tensor[(?, 3), float32], "
                          "Tensor[(1, 3), float32]");
    char *text = byoc_module_print(m, 0, NULL);
    CHECK_CONTAINS(text, "shape_of(%x, dtype=\"int64\")");
    CHECK_CONTAINS(text, "dyn.tile(%x");
    byoc_free(m, text);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    /* n = 2: every value worked out by hand from x = [[1, 2, 3], [4, 5, 6]] */
    float xs[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    int64_t dims[2] = {2, 3};
    byoc_node *x = tensor(m, BYOC_FLOAT32, 2, dims, xs), *out = NULL;
    CHECKF(byoc_module_evaluate(m, &x, 1, &out, &d) == BYOC_OK, "%s", d.message);
    if (!out) { byoc_onnx_model_free(&model); return; }
    static const int64_t shape[2] = {2, 3}, rows[1] = {2};
    static const float transposed[6] = {1, 4, 2, 5, 3, 6}, cat[12] = {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6},
                       last[3] = {4, 5, 6}, cs[6] = {1, 2, 3, 5, 7, 9}, rs[3] = {5, 7, 9},
                       tiled[12] = {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6};
    static const int64_t d2[1] = {2}, d1[1] = {1}, d32[2] = {3, 2}, d16[2] = {1, 6}, d231[3] = {2, 3, 1},
                         d43[2] = {4, 3}, d13[2] = {1, 3}, d23[2] = {2, 3}, d3[1] = {3}, d26[2] = {2, 6},
                         d223[3] = {2, 2, 3};
    CHECKF(output_matches(out, 0, 1, d2, NULL, shape, why, sizeof why), "%s", why);
    CHECKF(output_matches(out, 1, 1, d1, NULL, rows, why, sizeof why), "%s", why);
    CHECKF(output_matches(out, 2, 2, d32, transposed, NULL, why, sizeof why), "%s", why);
    CHECKF(output_matches(out, 3, 2, d16, transposed, NULL, why, sizeof why), "%s", why);
    CHECKF(output_matches(out, 4, 3, d231, xs, NULL, why, sizeof why), "%s", why);
    CHECKF(output_matches(out, 5, 2, d43, cat, NULL, why, sizeof why), "%s", why);
    CHECKF(output_matches(out, 6, 2, d13, last, NULL, why, sizeof why), "%s", why);
    CHECKF(output_matches(out, 7, 2, d23, cs, NULL, why, sizeof why), "%s", why);
    CHECKF(output_matches(out, 8, 1, d3, rs, NULL, why, sizeof why), "%s", why);
    CHECKF(output_matches(out, 9, 2, d26, tiled, NULL, why, sizeof why), "%s", why);
    CHECKF(output_matches(out, 10, 3, d223, cat, NULL, why, sizeof why), "%s", why);
    /* n = 4, the same program: the last row, the column sums and the extents follow */
    dims[0] = 4;
    x = tensor(m, BYOC_FLOAT32, 2, dims, xs);
    CHECKF(byoc_module_evaluate(m, &x, 1, &out, &d) == BYOC_OK, "%s", d.message);
    static const int64_t shape4[2] = {4, 3};
    static const float last4[3] = {10, 11, 12}, rs4[3] = {22, 26, 30};
    CHECKF(output_matches(out, 0, 1, d2, NULL, shape4, why, sizeof why), "%s", why);
    CHECKF(output_matches(out, 6, 2, d13, last4, NULL, why, sizeof why), "%s", why);
    CHECKF(output_matches(out, 8, 1, d3, rs4, NULL, why, sizeof why), "%s", why);
    byoc_type_to_string(out->args[5]->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(8, 3), float32]"), "got %s", buf);
    byoc_type_to_string(out->args[9]->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Tensor[(4, 6), float32]"), "got %s", buf);
    /* the host runtime and an executable run it as the evaluator does, allocating the '?' values per run */
    byoc_sim_program *p = byoc_sim_lower(m, NULL, &d);
    CHECKF(p != NULL, "%s", d.message);
    void *bytes = NULL;
    size_t size = 0;
    CHECKF(p && byoc_sim_executable_save(p, NULL, &bytes, &size, &d) == BYOC_OK, "%s", d.message);
    byoc_sim_executable *e = bytes ? byoc_sim_executable_load(bytes, size, "shape_ops.byoc", NULL, &d) : NULL;
    CHECKF(e != NULL, "%s", d.message);
    byoc_tensor in = {BYOC_FLOAT32, 2, {4, 3}, xs}, outs[11];
    CHECKF(e && byoc_sim_run(byoc_sim_executable_program(e), &in, 1, outs, 11, &d) == BYOC_OK, "%s", d.message);
    CHECK(!e || (outs[8].dims[0] == 3 && ((const float *)outs[8].data)[2] == 30.0f && outs[5].dims[0] == 8));
    byoc_sim_executable_destroy(e);
    free(bytes);
    byoc_sim_program_destroy(p);
    byoc_onnx_model_free(&model);
    /* without dynamic_dims the symbolic dim needs a value */
    memset(&o, 0, sizeof o);
    CHECK(byoc_onnx_load("tests/data/dynamic/shape_ops.onnx", &o, &model, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "input 'x' dim 0 is symbolic (n)");
}

/* the ops that need an extent the import cannot know refuse by name */
static void test_onnx_any_dims_clear_errors(void) {
    byoc_onnx_options o;
    memset(&o, 0, sizeof o);
    o.dynamic_dims = 1;
    byoc_onnx_model model;
    byoc_diag d;
    CHECK(byoc_onnx_load("tests/data/dynamic/squeeze_unknown.onnx", &o, &model, &d) == BYOC_ERR_UNSUPPORTED);
    CHECK_CONTAINS(d.message, "(Squeeze): Squeeze without axes of an input with '?' extents");
}

/* imports tests/data/dynamic/NAME.onnx with '?' for its symbolic dims; NULL with the error in d */
static byoc_module *import_dynamic(const char *name, byoc_onnx_model *model, byoc_diag *d) {
    char path[128];
    snprintf(path, sizeof path, "tests/data/dynamic/%s.onnx", name);
    byoc_onnx_options o;
    memset(&o, 0, sizeof o);
    o.dynamic_dims = 1;
    if (byoc_onnx_load(path, &o, model, d) != BYOC_OK) return NULL;
    if (byoc_infer_type(model->module, d) == BYOC_OK) return model->module;
    byoc_onnx_model_free(model);
    return NULL;
}

/* MatMul, Softmax and Gemm with '?' batch and sequence (tests/data/dynamic/projection.onnx) */
static void test_onnx_matmul_softmax_gemm_take_any_dims(void) {
    byoc_onnx_model model;
    byoc_diag d;
    byoc_module *m = import_dynamic("projection", &model, &d);
    CHECKF(m != NULL, "%s", d.message);
    if (!m) return;
    char buf[512], why[1200];
    const char *types = result_type(m, buf, sizeof buf);
    CHECKF(!strcmp(types, "(Tensor[(?, ?, 3), float32], Tensor[(?, ?, ?), float32], Tensor[(?, ?, 3), float32], "
                          "Tensor[(?, 1), float32])"),
           "got %s", types);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    /* b = 1, s = 2, x = [[1, 2], [3, 4]]: y = [x0, x1, x0 + x1], scores = x x^T, sums = x0 + x1 + 0.5 */
    float xs[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    int64_t dims[3] = {1, 2, 2};
    byoc_node *x = tensor(m, BYOC_FLOAT32, 3, dims, xs), *out = NULL;
    CHECKF(byoc_module_evaluate(m, &x, 1, &out, &d) == BYOC_OK, "%s", d.message);
    if (out) {
        static const int64_t d123[3] = {1, 2, 3}, d122[3] = {1, 2, 2}, d21[2] = {2, 1};
        static const float y[6] = {1, 2, 3, 3, 4, 7}, scores[4] = {5, 11, 11, 25}, sums[2] = {3.5f, 7.5f};
        CHECKF(output_matches(out, 0, 3, d123, y, NULL, why, sizeof why), "%s", why);
        CHECKF(output_matches(out, 1, 3, d122, scores, NULL, why, sizeof why), "%s", why);
        CHECKF(output_matches(out, 3, 2, d21, sums, NULL, why, sizeof why), "%s", why);
        /* softmax of [1, 2, 3]: e^(i - 3) / (e^-2 + e^-1 + 1) */
        double z = exp(-2.0) + exp(-1.0) + 1.0;
        CHECKF(fabs(byoc_constant_f32(out->args[2], 2) - 1.0 / z) < 1e-6, "p[0][2] = %g",
               byoc_constant_f32(out->args[2], 2));
    }
    /* b = 2, s = 3: the extents follow the input */
    int64_t other[3] = {2, 3, 2};
    x = tensor(m, BYOC_FLOAT32, 3, other, xs);
    CHECKF(byoc_module_evaluate(m, &x, 1, &out, &d) == BYOC_OK, "%s", d.message);
    if (out) {
        static const char *const want[4] = {"Tensor[(2, 3, 3), float32]", "Tensor[(2, 3, 3), float32]",
                                            "Tensor[(2, 3, 3), float32]", "Tensor[(6, 1), float32]"};
        for (int k = 0; k < 4; ++k) {
            byoc_type_to_string(out->args[k]->checked_type, buf, sizeof buf);
            CHECKF(!strcmp(buf, want[k]), "output %d: got %s", k, buf);
        }
        CHECK(byoc_constant_f32(out->args[3], 5) == 23.5f); /* 11 + 12 + 0.5 */
    }
    byoc_onnx_model_free(&model);
}

/* Conv and MaxPool with a '?' batch (tests/data/dynamic/conv_batch.onnx); a '?' channel is refused */
static void test_onnx_conv_pool_take_any_batch(void) {
    byoc_onnx_model model;
    byoc_diag d;
    byoc_module *m = import_dynamic("conv_batch", &model, &d);
    CHECKF(m != NULL, "%s", d.message);
    if (!m) return;
    char buf[256], why[1200];
    const char *types = result_type(m, buf, sizeof buf);
    CHECKF(!strcmp(types, "(Tensor[(?, 1, 2, 2), float32], Tensor[(?, 1, 1, 1), float32])"), "got %s", types);
    /* two images 1..9 and 10..18: the 2x2 window sums, then their maximum */
    float xs[18];
    for (int i = 0; i < 18; ++i) xs[i] = (float)(i + 1);
    int64_t dims[4] = {2, 1, 3, 3};
    byoc_node *x = tensor(m, BYOC_FLOAT32, 4, dims, xs), *out = NULL;
    CHECKF(byoc_module_evaluate(m, &x, 1, &out, &d) == BYOC_OK, "%s", d.message);
    if (out) {
        static const int64_t d2122[4] = {2, 1, 2, 2}, d2111[4] = {2, 1, 1, 1};
        static const float sums[8] = {12, 16, 24, 28, 48, 52, 60, 64}, peaks[2] = {28, 64};
        CHECKF(output_matches(out, 0, 4, d2122, sums, NULL, why, sizeof why), "%s", why);
        CHECKF(output_matches(out, 1, 4, d2111, peaks, NULL, why, sizeof why), "%s", why);
    }
    byoc_onnx_model_free(&model);
    CHECK(import_dynamic("conv_channels", &model, &d) == NULL);
    CHECK_CONTAINS(d.message, "(Conv): Conv's X has a '?' extent on axis 1 (only the batch may be '?')");
}

/* LayerNormalization over the last axis, batch and sequence '?' (tests/data/dynamic/layer_norm.onnx) */
static void test_onnx_layer_norm_takes_any_dims(void) {
    byoc_onnx_model model;
    byoc_diag d;
    byoc_module *m = import_dynamic("layer_norm", &model, &d);
    CHECKF(m != NULL, "%s", d.message);
    if (!m) return;
    char buf[256];
    const char *types = result_type(m, buf, sizeof buf);
    CHECKF(!strcmp(types, "(Tensor[(?, ?, 2), float32], Tensor[(?, ?, 1), float32], Tensor[(?, ?, 1), float32])"),
           "got %s", types);
    /* rows [1, 3] and [4, 8], b = 1, s = 2: means 2 and 6, variances 1 and 4; y = 2 (x - mean) / sd + 1 */
    float xs[4] = {1, 3, 4, 8};
    int64_t dims[3] = {1, 2, 2};
    byoc_node *x = tensor(m, BYOC_FLOAT32, 3, dims, xs), *out = NULL;
    CHECKF(byoc_module_evaluate(m, &x, 1, &out, &d) == BYOC_OK, "%s", d.message);
    if (out) {
        double sd0 = sqrt(1 + 1e-5), sd1 = sqrt(4 + 1e-5);
        double want_y[4] = {1 - 2 / sd0, 1 + 2 / sd0, 1 - 4 / sd1, 1 + 4 / sd1};
        for (int i = 0; i < 4; ++i)
            CHECKF(fabs(byoc_constant_f32(out->args[0], i) - want_y[i]) < 1e-5, "y[%d] = %g, want %g", i,
                   byoc_constant_f32(out->args[0], i), want_y[i]);
        CHECK(byoc_constant_f32(out->args[1], 0) == 2.0f && byoc_constant_f32(out->args[1], 1) == 6.0f);
        CHECK(fabs(byoc_constant_f32(out->args[2], 1) - 1 / sd1) < 1e-6);
        byoc_type_to_string(out->args[2]->checked_type, buf, sizeof buf);
        CHECKF(!strcmp(buf, "Tensor[(1, 2, 1), float32]"), "got %s", buf);
    }
    byoc_onnx_model_free(&model);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_any_dims_print_and_parse),  TEST_ENTRY(test_any_dims_propagate),
        TEST_ENTRY(test_any_dims_clear_errors),     TEST_ENTRY(test_evaluate_fills_in_any_dims),
        TEST_ENTRY(test_argwhere),                  TEST_ENTRY(test_unique),
        TEST_ENTRY(test_non_max_suppression),       TEST_ENTRY(test_dyn_reshape),
        TEST_ENTRY(test_dyn_broadcast_to_and_tile), TEST_ENTRY(test_dyn_strided_slice_and_pad),
        TEST_ENTRY(test_dyn_squeeze_and_expand_dims), TEST_ENTRY(test_dyn_reductions),
        TEST_ENTRY(test_dyn_full_and_arange),         TEST_ENTRY(test_dynamic_chain),
        TEST_ENTRY(test_placement_keeps_dynamic_ops_on_host), TEST_ENTRY(test_sim_runtime_allocates_dynamic_results),
        TEST_ENTRY(test_fold_constant_settles_any_dims), TEST_ENTRY(test_onnx_rank_only_ops_take_any_dims),
        TEST_ENTRY(test_onnx_any_dims_clear_errors), TEST_ENTRY(test_onnx_matmul_softmax_gemm_take_any_dims),
        TEST_ENTRY(test_onnx_conv_pool_take_any_batch), TEST_ENTRY(test_onnx_layer_norm_takes_any_dims),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
