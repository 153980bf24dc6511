/* Unit tests for the indexing ops: argmax, argmin, topk, gather, gather_nd, scatter_elements,
   scatter_nd, one_hot, reverse_sequence. Each is parsed from Relay text, typed, evaluated with
   byoc_module_evaluate against values worked out by hand (most are the ONNX operator docs' examples),
   refused with a clear message when its types are wrong, and printed and parsed back. The ONNX
   importer's side is checked on models of Debian's libonnx-testdata (make deps installs it). */
#include "byoc.h"
#include "test.h"
#include "tools/byoc_onnx.h"

#include <math.h>
#include <stdlib.h>

/* ---- helpers ---- */
static byoc_module *parse_main(const char *params, const char *body, byoc_diag *d) {
    char text[4096];
    snprintf(text, sizeof text, "#[version = \"0.0.5\"]\ndef @main(%s) {\n  %s\n}\n", params, body);
    return byoc_module_parse(text, strlen(text), "test.relay", NULL, d);
}

/* float16 bits of a value float16 holds exactly (a normal number or zero: what these tests use) */
static uint16_t half_bits(double v) {
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    uint32_t sign = (b >> 16) & 0x8000u;
    if ((b & 0x7fffffffu) == 0) return (uint16_t)sign;
    return (uint16_t)(sign | ((((b >> 23) & 0xffu) - 127u + 15u) << 10) | ((b >> 13) & 0x3ffu));
}

/* a constant of dtype dt holding values (given as doubles) */
static byoc_node *tensor(byoc_module *m, byoc_dtype dt, int rank, const int64_t *dims, const double *values) {
    const byoc_type *t = byoc_tensor_type(m, dt, rank, dims);
    int64_t n = byoc_type_num_elements(t);
    size_t es = byoc_dtype_size(dt);
    unsigned char *buf = (unsigned char *)calloc((size_t)(n > 0 ? n : 1), es);
    for (int64_t i = 0; i < n; ++i) {
        double v = values[i];
        switch (dt) {
        case BYOC_FLOAT32: {
            float f = (float)v;
            memcpy(buf + 4 * i, &f, 4);
            break;
        }
        case BYOC_FLOAT64: memcpy(buf + 8 * i, &v, 8); break;
        case BYOC_INT32: {
            int32_t x = (int32_t)v;
            memcpy(buf + 4 * i, &x, 4);
            break;
        }
        case BYOC_INT64: {
            int64_t x = (int64_t)v;
            memcpy(buf + 8 * i, &x, 8);
            break;
        }
        case BYOC_UINT8: buf[i] = (unsigned char)v; break;
        case BYOC_FLOAT16: {
            uint16_t h = half_bits(v);
            memcpy(buf + 2 * i, &h, 2);
            break;
        }
        default: break;
        }
    }
    byoc_node *c = byoc_constant(m, t, buf, (size_t)n * es);
    free(buf);
    return c;
}

/* evaluates @main on the inputs: the result, or NULL with d filled */
static byoc_node *evaluate(byoc_module *m, byoc_node *const *inputs, int n, byoc_diag *d) {
    byoc_node *out = NULL;
    return byoc_module_evaluate(m, inputs, n, &out, d) == BYOC_OK ? out : NULL;
}

/* a constant result's type and values equal the expected ones (exactly, or within 1e-6 for floats) */
static int result_is(const byoc_node *c, byoc_dtype dt, int rank, const int64_t *dims, const double *want, char *why,
                     size_t cap) {
    if (!c || c->kind != BYOC_NODE_CONSTANT) {
        snprintf(why, cap, "not a constant");
        return 0;
    }
    const byoc_type *t = c->annotation;
    int same = t->dtype == dt && t->rank == rank;
    for (int i = 0; same && i < rank; ++i) same = t->dims[i] == dims[i];
    char buf[128];
    byoc_type_to_string(t, buf, sizeof buf);
    if (!same) {
        snprintf(why, cap, "result type %s", buf);
        return 0;
    }
    for (int64_t i = 0, n = byoc_type_num_elements(t); i < n; ++i) {
        double got = byoc_constant_f32(c, i);
        if (fabs(got - want[i]) > 1e-6 * (1 + fabs(want[i]))) {
            snprintf(why, cap, "element %lld is %g, expected %g", (long long)i, got, want[i]);
            return 0;
        }
    }
    return 1;
}

/* the type error infer_type gives (its message), or NULL when the module types */
static const char *type_error(const char *params, const char *body, byoc_diag *d) {
    byoc_module *m = parse_main(params, body, d);
    if (!m) return d->message; /* attributes are checked as the call is built */
    byoc_result r = byoc_infer_type(m, d);
    byoc_module_destroy(m);
    return r == BYOC_ERR_TYPE || r == BYOC_ERR_ATTR ? d->message : NULL;
}

/* print with types, parse back, compare */
static int round_trips(byoc_module *m, char *why, size_t cap) {
    size_t len;
    char *text = byoc_module_print(m, BYOC_PRINT_TYPES, &len);
    byoc_diag d;
    byoc_module *again = byoc_module_parse(text, len, "printed.relay", NULL, &d);
    int ok = again && byoc_module_structural_equal(m, again);
    if (!again) snprintf(why, cap, "re-parse failed: %s", d.message);
    else if (!ok) snprintf(why, cap, "re-parsed module differs:\n%s", text);
    byoc_module_destroy(again);
    byoc_free(m, text);
    return ok;
}

static char why[2048];

/* runs body on one input x and compares with want */
#define EXPECT_UNARY(params, body, xdt, xrank, xdims, xvals, odt, orank, odims, ovals) \
    do {                                                                               \
        byoc_diag d_;                                                                  \
        byoc_module *m_ = parse_main(params, body, &d_);                               \
        CHECKF(m_, "%s", d_.message);                                                  \
        byoc_node *x_ = tensor(m_, xdt, xrank, xdims, xvals);                          \
        byoc_node *r_ = evaluate(m_, &x_, 1, &d_);                                     \
        int ok_ = r_ && result_is(r_, odt, orank, odims, ovals, why, sizeof why);      \
        byoc_module_destroy(m_);                                                       \
        CHECKF(ok_, "%s: %s", body, r_ ? why : d_.message);                            \
    } while (0)

/* ---- argmax / argmin ---- */
static void test_argmax_argmin(void) {
    static const int64_t x_dims[2] = {2, 3}, two[1] = {2}, two_one[2] = {2, 1};
    static const double x[6] = {1, 5, 5, 7, 2, 7};
    static const double first_max[2] = {1, 0}, last_max[2] = {2, 2}, first_min[2] = {0, 1}, flat[1] = {3};
    const char *p = "%x: Tensor[(2, 3), float32]";
    EXPECT_UNARY(p, "argmax(%x, axis=[1])", BYOC_FLOAT32, 2, x_dims, x, BYOC_INT32, 1, two, first_max);
    EXPECT_UNARY(p, "argmax(%x, axis=[-1], select_last_index=True)", BYOC_FLOAT32, 2, x_dims, x, BYOC_INT32, 1, two,
                 last_max);
    EXPECT_UNARY(p, "argmin(%x, axis=[1], keepdims=True)", BYOC_FLOAT32, 2, x_dims, x, BYOC_INT32, 2, two_one,
                 first_min);
    /* axis None: the row-major index over every axis (the first 7) */
    EXPECT_UNARY(p, "argmax(%x)", BYOC_FLOAT32, 2, x_dims, x, BYOC_INT32, 0, two, flat);
    EXPECT_UNARY("%x: Tensor[(2, 3), float16]", "argmax(%x, axis=[1], select_last_index=True)", BYOC_FLOAT16, 2, x_dims,
                 x, BYOC_INT32, 1, two, last_max);
    /* the general path: integers, float64, and several axes */
    EXPECT_UNARY("%x: Tensor[(2, 3), int32]", "argmax(%x, axis=[1], select_last_index=True)", BYOC_INT32, 2, x_dims, x,
                 BYOC_INT32, 1, two, last_max);
    EXPECT_UNARY("%x: Tensor[(2, 3), float64]", "argmin(%x, axis=[1])", BYOC_FLOAT64, 2, x_dims, x, BYOC_INT32, 1, two,
                 first_min);
    static const int64_t y_dims[3] = {2, 2, 2}, one[1] = {2};
    static const double y[8] = {0, 9, 3, 1, /* second entry of axis 1: */ 8, 2, 8, 4};
    static const double over_0_2[2] = {1, 2}; /* per axis-1 slice: 9 at (0, 1) -> 1; 8 first at (1, 0) -> 2 */
    EXPECT_UNARY("%x: Tensor[(2, 2, 2), float32]", "argmax(%x, axis=[0, 2])", BYOC_FLOAT32, 3, y_dims, y, BYOC_INT32, 1,
                 one, over_0_2);
}

/* the vector paths: a row of 10 reduced innermost, and 5 columns reduced along axis 0; ties and NaN
   (a NaN wins, as in numpy: the first one, or the last with select_last_index) */
static void test_argmax_vector_paths(void) {
    static const int64_t row_dims[2] = {1, 10}, one[1] = {1}, col_dims[2] = {3, 5}, five[1] = {5};
    static const double row[10] = {1, 9, 3, 9, 2, 0, 9, -5, 4, 1};
    static const double row_nan[10] = {1, 9, 3, 9, 2, NAN, 9, -5, NAN, 1};
    static const double max_first[1] = {1}, max_last[1] = {6}, min_first[1] = {7}, nan_first[1] = {5},
                        nan_last[1] = {8};
    const char *p = "%x: Tensor[(1, 10), float32]";
    EXPECT_UNARY(p, "argmax(%x, axis=[1])", BYOC_FLOAT32, 2, row_dims, row, BYOC_INT32, 1, one, max_first);
    EXPECT_UNARY(p, "argmax(%x, axis=[1], select_last_index=True)", BYOC_FLOAT32, 2, row_dims, row, BYOC_INT32, 1, one,
                 max_last);
    EXPECT_UNARY(p, "argmin(%x, axis=[1])", BYOC_FLOAT32, 2, row_dims, row, BYOC_INT32, 1, one, min_first);
    EXPECT_UNARY(p, "argmin(%x, axis=[1])", BYOC_FLOAT32, 2, row_dims, row_nan, BYOC_INT32, 1, one, nan_first);
    EXPECT_UNARY(p, "argmax(%x, axis=[1], select_last_index=True)", BYOC_FLOAT32, 2, row_dims, row_nan, BYOC_INT32, 1,
                 one, nan_last);
    static const double cols[15] = {1, 5, 2, NAN, 7, 4, 5, 2, 1, NAN, 4, 0, 9, NAN, 7};
    static const double cmax[5] = {1, 0, 2, 0, 1}, cmax_last[5] = {2, 1, 2, 2, 1};
    static const double cmin[5] = {0, 2, 0, 0, 1}, cmin_last[5] = {0, 2, 1, 2, 1};
    p = "%x: Tensor[(3, 5), float32]";
    EXPECT_UNARY(p, "argmax(%x, axis=[0])", BYOC_FLOAT32, 2, col_dims, cols, BYOC_INT32, 1, five, cmax);
    EXPECT_UNARY(p, "argmax(%x, axis=[0], select_last_index=True)", BYOC_FLOAT32, 2, col_dims, cols, BYOC_INT32, 1,
                 five, cmax_last);
    EXPECT_UNARY(p, "argmin(%x, axis=[0])", BYOC_FLOAT32, 2, col_dims, cols, BYOC_INT32, 1, five, cmin);
    EXPECT_UNARY(p, "argmin(%x, axis=[0], select_last_index=True)", BYOC_FLOAT32, 2, col_dims, cols, BYOC_INT32, 1,
                 five, cmin_last);
    /* the general path gives the same (float64) */
    EXPECT_UNARY("%x: Tensor[(3, 5), float64]", "argmin(%x, axis=[0], select_last_index=True)", BYOC_FLOAT64, 2,
                 col_dims, cols, BYOC_INT32, 1, five, cmin_last);
}

static void test_argmax_errors_and_text(void) {
    byoc_diag d;
    CHECK_CONTAINS(type_error("%x: Tensor[(2, 0), float32]", "argmax(%x, axis=[1])", &d), "empty axis");
    CHECK_CONTAINS(type_error("%x: Tensor[(2, 3), float32]", "argmin(%x, axis=[2])", &d), "out of range for rank 2");
    byoc_module *m = parse_main("%x: Tensor[(2, 3, 4), float32]",
                                "%0 = argmax(%x, axis=[1, 2], keepdims=True, select_last_index=True);\n"
                                "  %1 = argmin(%x, axis=[1], exclude=True);\n  (%0, %1)",
                                &d);
    CHECKF(m, "%s", d.message);
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    char *text = byoc_module_print(m, BYOC_PRINT_TYPES, NULL);
    int ok = strstr(text, "Tensor[(2, 1, 1), int32]") && strstr(text, "Tensor[(3,), int32]");
    if (!ok) snprintf(why, sizeof why, "result types are not (2, 1, 1) and (3,) int32:\n%s", text);
    byoc_free(m, text);
    ok = ok && round_trips(m, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", why);
}

/* ---- topk ---- */
static void test_topk(void) {
    static const int64_t dims[2] = {2, 4}, kept[2] = {2, 2};
    static const double x[8] = {1, 3, 3, 2, 4, 0, 4, -1};
    /* ties go to the lower index, largest or smallest */
    static const double top_v[4] = {3, 3, 4, 4}, top_i[4] = {1, 2, 0, 2};
    static const double low_v[4] = {1, 2, -1, 0}, low_i[4] = {0, 3, 3, 1};
    const char *p = "%x: Tensor[(2, 4), float32]";
    EXPECT_UNARY(p, "%0 = topk(%x, k=2, dtype=\"int64\");\n  %0.0", BYOC_FLOAT32, 2, dims, x, BYOC_FLOAT32, 2, kept,
                 top_v);
    EXPECT_UNARY(p, "%0 = topk(%x, k=2, dtype=\"int64\");\n  %0.1", BYOC_FLOAT32, 2, dims, x, BYOC_INT64, 2, kept,
                 top_i);
    EXPECT_UNARY(p, "topk(%x, k=2, ret_type=\"values\", is_ascend=True)", BYOC_FLOAT32, 2, dims, x, BYOC_FLOAT32, 2,
                 kept, low_v);
    EXPECT_UNARY(p, "topk(%x, k=2, ret_type=\"indices\", is_ascend=True)", BYOC_FLOAT32, 2, dims, x, BYOC_INT32, 2,
                 kept, low_i);
    /* float16 computes in float32 and comes back exactly */
    EXPECT_UNARY("%x: Tensor[(2, 4), float16]", "topk(%x, k=2, ret_type=\"values\", is_ascend=True)", BYOC_FLOAT16, 2,
                 dims, x, BYOC_FLOAT16, 2, kept, low_v);
    EXPECT_UNARY("%x: Tensor[(2, 4), float16]", "topk(%x, k=2, ret_type=\"indices\")", BYOC_FLOAT16, 2, dims, x,
                 BYOC_INT32, 2, kept, top_i);
    /* along axis 0 of integers, every element (k None) */
    static const int64_t cols[2] = {4, 2};
    static const double all_v[8] = {4, 4, 3, 3, 2, 1, 1, -1}, all_i[8] = {2, 1, 1, 0, 3, 2, 0, 3};
    static const double xt[8] = {1, 3, 3, 4, 4, 1, 2, -1}; /* x transposed to (4, 2) with two entries changed */
    EXPECT_UNARY("%x: Tensor[(4, 2), int32]", "topk(%x, axis=0, ret_type=\"values\")", BYOC_INT32, 2, cols, xt,
                 BYOC_INT32, 2, cols, all_v);
    EXPECT_UNARY("%x: Tensor[(4, 2), int32]", "topk(%x, axis=0, ret_type=\"indices\")", BYOC_INT32, 2, cols, xt,
                 BYOC_INT32, 2, cols, all_i);
}

static void test_topk_errors_and_text(void) {
    byoc_diag d;
    CHECK_CONTAINS(type_error("%x: Tensor[(2, 4), float32]", "topk(%x, k=5)", &d), "k=5 is larger than axis 1");
    CHECK_CONTAINS(type_error("%x: Tensor[(2, 4), float32]", "topk(%x, k=1, ret_type=\"all\")", &d),
                   "not one of both, values, indices");
    CHECK_CONTAINS(type_error("%x: Tensor[(2, 4), float32]", "topk(%x, k=1, dtype=\"float32\")", &d),
                   "not an integer type");
    byoc_module *m = parse_main("%x: Tensor[(2, 4), float32]",
                                "%0 = topk(%x, k=3, axis=-1, is_ascend=True, dtype=\"int64\");\n  %0.1", &d);
    CHECKF(m, "%s", d.message);
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    /* the FLOP model: 8 elements, each a comparison and a heap step of log2(3) */
    double flops = byoc_op_flops(byoc_module_function(m, "main")->body->args[0]);
    int ok = fabs(flops - 8 * (1 + log2(3.0))) < 1e-9;
    if (!ok) snprintf(why, sizeof why, "topk's FLOP model gives %g", flops);
    ok = ok && round_trips(m, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", why);
}

/* ---- gather and gather_nd ---- */
/* runs a two-input body; *r the result (module kept for the caller to destroy) */
static byoc_module *eval2(const char *params, const char *body, byoc_node *(*make)(byoc_module *, int), byoc_node **r,
                          byoc_diag *d) {
    byoc_module *m = parse_main(params, body, d);
    if (!m) return NULL;
    byoc_node *in[3] = {make(m, 0), make(m, 1), make(m, 2)};
    *r = evaluate(m, in, byoc_module_function(m, "main")->nparams, d);
    return m;
}

static const double gather_data[4] = {1, 2, 3, 4};
static double gather_indices[4] = {0, 0, 1, 0};
static byoc_node *gather_inputs(byoc_module *m, int i) {
    static const int64_t dims[2] = {2, 2};
    return i == 0 ? tensor(m, BYOC_FLOAT32, 2, dims, gather_data) : tensor(m, BYOC_INT64, 2, dims, gather_indices);
}

static void test_gather(void) {
    static const int64_t dims[2] = {2, 2};
    static const double want[4] = {1, 1, 4, 3}, want_negative[4] = {2, 1, 4, 3};
    const char *p = "%data: Tensor[(2, 2), float32], %indices: Tensor[(2, 2), int64]";
    byoc_diag d;
    byoc_node *r = NULL;
    byoc_module *m = eval2(p, "gather(%data, %indices, axis=1)", gather_inputs, &r, &d);
    int ok = r && result_is(r, BYOC_FLOAT32, 2, dims, want, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", r ? why : d.message);
    /* negative indices count from the end */
    gather_indices[0] = -1;
    gather_indices[3] = -2;
    m = eval2(p, "gather(%data, %indices, axis=1)", gather_inputs, &r, &d);
    ok = r && result_is(r, BYOC_FLOAT32, 2, dims, want_negative, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", r ? why : d.message);
    /* an index out of range is an error naming the op, not a read out of bounds */
    gather_indices[1] = 2;
    m = eval2(p, "gather(%data, %indices, axis=1)", gather_inputs, &r, &d);
    byoc_module_destroy(m);
    gather_indices[0] = 0;
    gather_indices[1] = 0;
    gather_indices[3] = 0;
    CHECK(!r && d.code == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "gather");
    CHECK_CONTAINS(d.message, "index 2 (element 1 of indices) is out of range for axis 1 of extent 2");
    CHECK_CONTAINS(type_error("%d: Tensor[(2, 2), float32], %i: Tensor[(2), int64]", "gather(%d, %i)", &d),
                   "indices have rank 1, data has rank 2");
    CHECK_CONTAINS(type_error("%d: Tensor[(2, 2), float32], %i: Tensor[(2, 3), int64]", "gather(%d, %i)", &d),
                   "indices extent 3 on axis 1 exceeds data's 2");
    CHECK_CONTAINS(type_error("%d: Tensor[(2, 2), float32], %i: Tensor[(2, 2), float32]", "gather(%d, %i)", &d),
                   "indices must be an integer tensor");
}

static const double nd_data[8] = {0, 1, 2, 3, 4, 5, 6, 7};
static double nd_indices[4] = {0, 1, 0, 1}; /* Relay's layout: ONNX's [[0, 0], [1, 1]] transposed */
static byoc_node *gather_nd_inputs(byoc_module *m, int i) {
    static const int64_t data_dims[2] = {2, 2}, idx_dims[2] = {2, 2};
    return i == 0 ? tensor(m, BYOC_INT32, 2, data_dims, nd_data) : tensor(m, BYOC_INT64, 2, idx_dims, nd_indices);
}
static byoc_node *gather_nd_batch_inputs(byoc_module *m, int i) {
    static const int64_t data_dims[3] = {2, 2, 2}, idx_dims[2] = {1, 2};
    static const double idx[2] = {1, 0}; /* ONNX's [[1], [0]] with batch_dims 1 */
    return i == 0 ? tensor(m, BYOC_FLOAT32, 3, data_dims, nd_data) : tensor(m, BYOC_INT64, 2, idx_dims, idx);
}

static void test_gather_nd(void) {
    static const int64_t two[1] = {2}, two_two[2] = {2, 2};
    static const double want[2] = {0, 3}, want_batch[4] = {2, 3, 4, 5};
    byoc_diag d;
    byoc_node *r = NULL;
    byoc_module *m = eval2("%data: Tensor[(2, 2), int32], %indices: Tensor[(2, 2), int64]",
                           "gather_nd(%data, %indices)", gather_nd_inputs, &r, &d);
    int ok = r && result_is(r, BYOC_INT32, 1, two, want, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", r ? why : d.message);
    m = eval2("%data: Tensor[(2, 2, 2), float32], %indices: Tensor[(1, 2), int64]",
              "gather_nd(%data, %indices, batch_dims=1)", gather_nd_batch_inputs, &r, &d);
    ok = r && result_is(r, BYOC_FLOAT32, 2, two_two, want_batch, why, sizeof why);
    if (ok) ok = round_trips(m, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", r ? why : d.message);
    nd_indices[2] = -3; /* out of range for an axis of 2 */
    m = eval2("%data: Tensor[(2, 2), int32], %indices: Tensor[(2, 2), int64]", "gather_nd(%data, %indices)",
              gather_nd_inputs, &r, &d);
    byoc_module_destroy(m);
    nd_indices[2] = 0;
    CHECK(!r && d.code == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "gather_nd: index -3 (tuple 0, entry 1) is out of range for axis 1 of extent 2");
    CHECK_CONTAINS(type_error("%d: Tensor[(2, 2), float32], %i: Tensor[(3, 4), int64]", "gather_nd(%d, %i)", &d),
                   "index tuples of 3 values with 0 batch axes address more axes than data's 2");
    CHECK_CONTAINS(
        type_error("%d: Tensor[(2, 2), float32], %i: Tensor[(1, 3), int64]", "gather_nd(%d, %i, batch_dims=1)", &d),
        "batch axis 0: data has 2, indices have 3");
}

/* ---- scatter_elements and scatter_nd ---- */
static byoc_node *scatter_inputs(byoc_module *m, int i) { /* the ONNX docs' ScatterElements example */
    static const int64_t dims[2] = {3, 3}, upd_dims[2] = {2, 3};
    static const double zeros[9] = {0}, idx[6] = {1, 0, 2, 0, 2, 1}, upd[6] = {1, 1.1, 1.2, 2, 2.1, 2.2};
    return i == 0   ? tensor(m, BYOC_FLOAT32, 2, dims, zeros)
           : i == 1 ? tensor(m, BYOC_INT64, 2, upd_dims, idx)
                    : tensor(m, BYOC_FLOAT32, 2, upd_dims, upd);
}
static byoc_dtype dup_dtype = BYOC_FLOAT32;
static byoc_node *scatter_dup_inputs(byoc_module *m, int i) { /* two updates on one element */
    static const int64_t dims[2] = {1, 5}, upd_dims[2] = {1, 2};
    static const double data[5] = {1, 2, 3, 4, 5}, idx[2] = {1, -4}, upd[2] = {1.5, 3};
    return i == 0   ? tensor(m, dup_dtype, 2, dims, data)
           : i == 1 ? tensor(m, BYOC_INT32, 2, upd_dims, idx)
                    : tensor(m, dup_dtype, 2, upd_dims, upd);
}

static void test_scatter_elements(void) {
    static const int64_t dims[2] = {3, 3}, row[2] = {1, 5};
    static const double want[9] = {2, 1.1, 0, 1, 0, 2.2, 0, 2.1, 1.2};
    byoc_diag d;
    byoc_node *r = NULL;
    byoc_module *m = eval2("%d: Tensor[(3, 3), float32], %i: Tensor[(2, 3), int64], %u: Tensor[(2, 3), float32]",
                           "scatter_elements(%d, %i, %u)", scatter_inputs, &r, &d);
    int ok = r && result_is(r, BYOC_FLOAT32, 2, dims, want, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", r ? why : d.message);
    static const struct {
        const char *reduction;
        byoc_dtype dt;
        double at1;
    } cases[] = {
        {"update", BYOC_FLOAT32, 3}, {"add", BYOC_FLOAT32, 6.5}, {"mul", BYOC_FLOAT32, 9},
        {"min", BYOC_FLOAT32, 1.5},  {"max", BYOC_FLOAT32, 3},   {"add", BYOC_INT32, 6}, /* 2 + 1 + 3 */
        {"mul", BYOC_FLOAT64, 9},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        char params[160], body[160];
        dup_dtype = cases[c].dt;
        snprintf(params, sizeof params, "%%d: Tensor[(1, 5), %s], %%i: Tensor[(1, 2), int32], %%u: Tensor[(1, 2), %s]",
                 byoc_dtype_name(dup_dtype), byoc_dtype_name(dup_dtype));
        snprintf(body, sizeof body, "scatter_elements(%%d, %%i, %%u, axis=1, reduction=\"%s\")", cases[c].reduction);
        double expect[5] = {1, cases[c].at1, 3, 4, 5};
        m = eval2(params, body, scatter_dup_inputs, &r, &d);
        ok = r && result_is(r, dup_dtype, 2, row, expect, why, sizeof why);
        byoc_module_destroy(m);
        CHECKF(ok, "%s: %s", body, r ? why : d.message);
    }
    dup_dtype = BYOC_FLOAT32;
    const char *p = "%d: Tensor[(3, 3), float32], %i: Tensor[(2, 3), int64], %u: Tensor[(2, 3), float32]";
    CHECK_CONTAINS(type_error(p, "scatter_elements(%d, %i, %u, reduction=\"mean\")", &d),
                   "reduction \"mean\" is not one of update, add, mul, min, max");
    CHECK_CONTAINS(type_error("%d: Tensor[(3, 3), float32], %i: Tensor[(2, 3), int64], %u: Tensor[(3, 2), float32]",
                              "scatter_elements(%d, %i, %u)", &d),
                   "must have the shape of indices");
    CHECK_CONTAINS(type_error("%d: Tensor[(3, 3), float32], %i: Tensor[(2, 3), int64], %u: Tensor[(2, 3), int32]",
                              "scatter_elements(%d, %i, %u)", &d),
                   "updates are int32, data is float32");
}

static double snd_indices[4] = {4, 3, 1, 7};                 /* Relay's (1, 4): ONNX's [[4], [3], [1], [7]] */
static byoc_node *scatter_nd_inputs(byoc_module *m, int i) { /* the ONNX docs' first ScatterND example */
    static const int64_t eight[1] = {8}, idx_dims[2] = {1, 4}, four[1] = {4};
    static const double data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, upd[4] = {9, 10, 11, 12};
    return i == 0   ? tensor(m, BYOC_FLOAT32, 1, eight, data)
           : i == 1 ? tensor(m, BYOC_INT64, 2, idx_dims, snd_indices)
                    : tensor(m, BYOC_FLOAT32, 1, four, upd);
}
static byoc_node *scatter_nd_slices(byoc_module *m, int i) { /* whole rows: updates (2, 3) into (3, 3) */
    static const int64_t dims[2] = {3, 3}, idx_dims[2] = {1, 2}, upd_dims[2] = {2, 3};
    static const double data[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, idx[2] = {2, 0}, upd[6] = {1, 2, 3, 4, 5, 6};
    return i == 0   ? tensor(m, BYOC_INT64, 2, dims, data)
           : i == 1 ? tensor(m, BYOC_INT64, 2, idx_dims, idx)
                    : tensor(m, BYOC_INT64, 2, upd_dims, upd);
}

static void test_scatter_nd(void) {
    static const int64_t eight[1] = {8}, dims[2] = {3, 3};
    static const double want[8] = {1, 11, 3, 10, 9, 6, 7, 12}, want_add[8] = {1, 13, 3, 14, 14, 6, 7, 20};
    static const double want_mul[9] = {4, 5, 6, 1, 1, 1, 1, 2, 3};
    const char *p = "%d: Tensor[(8), float32], %i: Tensor[(1, 4), int64], %u: Tensor[(4), float32]";
    byoc_diag d;
    byoc_node *r = NULL;
    byoc_module *m = eval2(p, "scatter_nd(%d, %i, %u)", scatter_nd_inputs, &r, &d);
    int ok = r && result_is(r, BYOC_FLOAT32, 1, eight, want, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", r ? why : d.message);
    m = eval2(p, "scatter_nd(%d, %i, %u, mode=\"add\")", scatter_nd_inputs, &r, &d);
    ok = r && result_is(r, BYOC_FLOAT32, 1, eight, want_add, why, sizeof why);
    if (ok) ok = round_trips(m, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", r ? why : d.message);
    m = eval2("%d: Tensor[(3, 3), int64], %i: Tensor[(1, 2), int64], %u: Tensor[(2, 3), int64]",
              "scatter_nd(%d, %i, %u, mode=\"mul\")", scatter_nd_slices, &r, &d);
    ok = r && result_is(r, BYOC_INT64, 2, dims, want_mul, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", r ? why : d.message);
    snd_indices[3] = 8;
    m = eval2(p, "scatter_nd(%d, %i, %u)", scatter_nd_inputs, &r, &d);
    byoc_module_destroy(m);
    snd_indices[3] = 7;
    CHECK(!r && d.code == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "scatter_nd: index 8 (tuple 3, entry 0) is out of range for axis 0 of extent 8");
    CHECK_CONTAINS(type_error("%d: Tensor[(8), float32], %i: Tensor[(1, 4), int64], %u: Tensor[(3), float32]",
                              "scatter_nd(%d, %i, %u)", &d),
                   "updates are Tensor[(3,), float32], indices and data need Tensor[(4,), float32]");
}

/* ---- one_hot ---- */
static byoc_node *one_hot_inputs(byoc_module *m, int i) {
    static const int64_t three[1] = {3};
    static const double idx[3] = {0, 2, 5}, on[1] = {7}, off[1] = {-1};
    return i == 0 ? tensor(m, BYOC_INT64, 1, three, idx) : tensor(m, BYOC_FLOAT32, 0, three, i == 1 ? on : off);
}

static void test_one_hot(void) {
    static const int64_t dims[2] = {3, 3};
    /* an index outside [0, depth) is a row of off_value */
    static const double want[9] = {7, -1, -1, -1, -1, 7, -1, -1, -1};
    static const double want_axis0[9] = {7, -1, -1, -1, -1, -1, -1, 7, -1};
    const char *p = "%i: Tensor[(3), int64], %on: float32, %off: float32";
    byoc_diag d;
    byoc_node *r = NULL;
    byoc_module *m = eval2(p, "one_hot(%i, %on, %off, depth=3)", one_hot_inputs, &r, &d);
    int ok = r && result_is(r, BYOC_FLOAT32, 2, dims, want, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", r ? why : d.message);
    m = eval2(p, "one_hot(%i, %on, %off, depth=3, axis=0, dtype=\"float32\")", one_hot_inputs, &r, &d);
    ok = r && result_is(r, BYOC_FLOAT32, 2, dims, want_axis0, why, sizeof why);
    if (ok) ok = round_trips(m, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", r ? why : d.message);
    CHECK_CONTAINS(type_error(p, "one_hot(%i, %on, %off, depth=3, dtype=\"int32\")", &d),
                   "on_value (float32) and off_value (float32) must have the result's dtype int32");
    CHECK_CONTAINS(type_error(p, "one_hot(%i, %on, %off, depth=3, axis=2)", &d), "axis 2 is out of range for rank 2");
    CHECK_CONTAINS(
        type_error("%i: Tensor[(3), float32], %on: float32, %off: float32", "one_hot(%i, %on, %off, depth=3)", &d),
        "indices must be an integer tensor");
}

/* ---- reverse_sequence ---- */
static double rs_lengths[4] = {4, 3, 2, 1};
static byoc_node *reverse_sequence_inputs(byoc_module *m, int i) { /* the ONNX docs' example, time on axis 0 */
    static const int64_t dims[2] = {4, 4}, four[1] = {4};
    static const double x[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
    return i == 0 ? tensor(m, BYOC_FLOAT32, 2, dims, x) : tensor(m, BYOC_INT64, 1, four, rs_lengths);
}

static void test_reverse_sequence(void) {
    static const int64_t dims[2] = {4, 4};
    static const double want[16] = {3, 6, 9, 12, 2, 5, 8, 13, 1, 4, 10, 14, 0, 7, 11, 15};
    const char *p = "%x: Tensor[(4, 4), float32], %len: Tensor[(4), int64]";
    byoc_diag d;
    byoc_node *r = NULL;
    byoc_module *m = eval2(p, "reverse_sequence(%x, %len, seq_axis=0, batch_axis=1)", reverse_sequence_inputs, &r, &d);
    int ok = r && result_is(r, BYOC_FLOAT32, 2, dims, want, why, sizeof why);
    if (ok) ok = round_trips(m, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", r ? why : d.message);
    rs_lengths[1] = 5;
    m = eval2(p, "reverse_sequence(%x, %len, seq_axis=0, batch_axis=1)", reverse_sequence_inputs, &r, &d);
    byoc_module_destroy(m);
    rs_lengths[1] = 3;
    CHECK(!r && d.code == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "reverse_sequence: seq_lengths[1] = 5 is outside 0..4");
    CHECK_CONTAINS(type_error(p, "reverse_sequence(%x, %len, seq_axis=1, batch_axis=1)", &d),
                   "seq_axis and batch_axis are both axis 1");
    CHECK_CONTAINS(
        type_error("%x: Tensor[(4, 4), float32], %len: Tensor[(3), int64]", "reverse_sequence(%x, %len)", &d),
        "one length per batch entry");
}

/* ---- the ONNX importer ---- */
#define NODE_TESTS "/usr/share/libonnx-testdata/data/node/"

/* TopK's k: a constant within the axis (refused naming the node otherwise), or computed at run time
   (dyn.topk, the extent on the axis '?') */
static void test_onnx_topk_k(void) {
    byoc_onnx_model model;
    byoc_diag d;
    byoc_result r = byoc_onnx_load(NODE_TESTS "test_top_k/model.onnx", NULL, &model, &d);
    CHECKF(r == BYOC_OK, "%s (install libonnx-testdata: make deps)", d.message);
    if (r == BYOC_OK) {
        char any[160];
        byoc_type_to_string(byoc_module_function(model.module, "main")->body->checked_type, any, sizeof any);
        byoc_onnx_model_free(&model);
        CHECKF(!strcmp(any, "(Tensor[(3, ?), float32], Tensor[(3, ?), int64])"), "TopK imports as %s", any);
    }
    int64_t big = 10, one = 1;
    byoc_onnx_bound_input k;
    memset(&k, 0, sizeof k);
    k.input = "k";
    k.value.dtype = BYOC_INT64;
    k.value.rank = 1;
    k.value.dims[0] = 1;
    k.value.data = &big;
    byoc_onnx_options o;
    memset(&o, 0, sizeof o);
    o.bound = &k;
    o.nbound = 1;
    CHECK(byoc_onnx_load(NODE_TESTS "test_top_k/model.onnx", &o, &model, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "(TopK): k=10 must be in 1..4 (the extent of axis 1)");
    k.value.data = &one;
    CHECKF(byoc_onnx_load(NODE_TESTS "test_top_k/model.onnx", &o, &model, &d) == BYOC_OK, "%s", d.message);
    const byoc_type *rt = byoc_module_function(model.module, "main")->body->checked_type;
    char buf[160];
    byoc_type_to_string(rt, buf, sizeof buf);
    byoc_onnx_model_free(&model);
    CHECKF(!strcmp(buf, "(Tensor[(3, 1), float32], Tensor[(3, 1), int64])"), "TopK imports as %s", buf);
}

/* ArgMax with select_last_index: Relay's int32 indices cast to ONNX's int64, the test data's values */
static void test_onnx_argmax_runs(void) {
    const char *dir = NODE_TESTS "test_argmax_keepdims_example_select_last_index/";
    char path[512];
    byoc_onnx_model model;
    byoc_diag d;
    snprintf(path, sizeof path, "%smodel.onnx", dir);
    CHECKF(byoc_onnx_load(path, NULL, &model, &d) == BYOC_OK, "%s (install libonnx-testdata: make deps)", d.message);
    snprintf(path, sizeof path, "%stest_data_set_0/input_0.pb", dir);
    byoc_node *x = byoc_onnx_tensor_read(model.module, path, NULL, &d);
    snprintf(path, sizeof path, "%stest_data_set_0/output_0.pb", dir);
    byoc_node *want = x ? byoc_onnx_tensor_read(model.module, path, NULL, &d) : NULL;
    byoc_node *got = want ? evaluate(model.module, &x, 1, &d) : NULL;
    int same = got && got->annotation->dtype == BYOC_INT64 && byoc_constant_nbytes(got) == byoc_constant_nbytes(want) &&
               !memcmp(got->data, want->data, byoc_constant_nbytes(want));
    byoc_onnx_model_free(&model);
    CHECKF(same, "%s", got ? "the indices differ from the test data's" : d.message);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_argmax_argmin),
        TEST_ENTRY(test_argmax_vector_paths),
        TEST_ENTRY(test_argmax_errors_and_text),
        TEST_ENTRY(test_topk),
        TEST_ENTRY(test_topk_errors_and_text),
        TEST_ENTRY(test_gather),
        TEST_ENTRY(test_gather_nd),
        TEST_ENTRY(test_scatter_elements),
        TEST_ENTRY(test_scatter_nd),
        TEST_ENTRY(test_one_hot),
        TEST_ENTRY(test_reverse_sequence),
        TEST_ENTRY(test_onnx_topk_k),
        TEST_ENTRY(test_onnx_argmax_runs),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
