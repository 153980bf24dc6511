/* Regression tests for what fuzzing and reading the new ops' kernels found: hostile attributes and
   data must give a clear error naming the node, never a crash, a hang or a silently wrong result. Each
   case is parsed from Relay text, typed, evaluated with byoc_module_evaluate and compared with values
   worked out by hand; type errors are checked for their message; attributes print and parse back. */
#include "byoc.h"
#include "tools/byoc_onnx.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

static byoc_module *parse_text(const char *text, byoc_diag *d) {
    return byoc_module_parse(text, strlen(text), "test.relay", NULL, d);
}

/* print, re-parse, compare */
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

/* def @main(params) { body }, typed; NULL with d filled when it does not parse or type */
static byoc_module *module_of(const char *params, const char *body, byoc_diag *d) {
    char text[2048];
    snprintf(text, sizeof text, "def @main(%s) { %s }", params, body);
    byoc_module *m = parse_text(text, d);
    if (m && byoc_infer_type(m, d) != BYOC_OK) {
        byoc_module_destroy(m);
        return NULL;
    }
    return m;
}

/* the type error of a body, "" when it types */
static const char *type_error(const char *params, const char *body, byoc_diag *d) {
    byoc_module *m = module_of(params, body, d);
    if (!m) return d->message;
    byoc_module_destroy(m);
    return "";
}

static byoc_node *input_of(byoc_module *m, byoc_dtype dt, int rank, const int64_t *dims, const void *data) {
    const byoc_type *t = byoc_tensor_type(m, dt, rank, dims);
    int64_t n = 1;
    for (int i = 0; i < rank; ++i) n *= dims[i];
    byoc_node *c = byoc_constant(m, t, data, (size_t)n * byoc_dtype_size(dt));
    if (c) c->checked_type = t;
    return c;
}

/* evaluates @main on the inputs and compares its float32 result with want */
static int evaluates_to(byoc_module *m, byoc_node *const *in, int nin, const float *want, int n, char *why,
                        size_t cap) {
    byoc_node *out = NULL;
    byoc_diag d;
    if (byoc_module_evaluate(m, in, nin, &out, &d) != BYOC_OK) {
        snprintf(why, cap, "evaluate: %s", d.message);
        return 0;
    }
    if (byoc_type_num_elements(out->checked_type) != n) {
        snprintf(why, cap, "%lld elements, want %d", (long long)byoc_type_num_elements(out->checked_type), n);
        return 0;
    }
    for (int i = 0; i < n; ++i) {
        float got = ((const float *)out->data)[i];
        if (!(fabsf(got - want[i]) <= 1e-5f + 1e-5f * fabsf(want[i]))) {
            snprintf(why, cap, "element %d is %.9g, want %.9g", i, got, want[i]);
            return 0;
        }
    }
    return 1;
}

/* image.resize with antialias: a scale far below out / in made a filter of ~1 / scale taps for every
   output (billions of taps, gigabytes of workspace); it is a type error now, and a scale that fits its
   extents still runs */
static void test_resize_antialias_scale_fits_extents(void) {
    byoc_diag d;
    const char *err = type_error("%x: Tensor[(1), float32]",
                                 "image.resize(%x, size=[60000], scales=[0.0001f], antialias=True)", &d);
    CHECK_CONTAINS(err, "scale 0.0001 of axis 0 does not fit its extents 1 -> 60000");
    byoc_module *m = module_of("%x: Tensor[(8), float32]", "image.resize(%x, size=[2], scales=[0.25f], antialias=True)",
                               &d);
    CHECKF(m, "%s", d.message);
    /* half_pixel: outputs sample at 1.5 and 5.5; the linear filter stretched 4x spans 8 inputs (edges
       repeated), weights 1 - |distance| / 4 normalised by their sum 4 */
    static const float x[8] = {0, 1, 2, 3, 4, 5, 6, 7}, want[2] = {1.65625f, 5.34375f};
    int64_t dims[1] = {8};
    byoc_node *in = input_of(m, BYOC_FLOAT32, 1, dims, x);
    char why[600];
    int ok = evaluates_to(m, &in, 1, want, 2, why, sizeof why) && round_trips(m, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", why);
}

/* tfidf_vectorizer: a skip count past the row length (here INT32_MAX) counts what the row's own length
   allows, without looping over every skip */
static void test_tfidf_huge_skip_count(void) {
    byoc_diag d;
    byoc_module *m = module_of("%x: Tensor[(5), int64]",
                               "tfidf_vectorizer(%x, mode=\"TF\", min_gram_length=2, max_gram_length=2, "
                               "max_skip_count=2147483647, ngram_counts=[0, 0], ngram_indexes=[0, 1], "
                               "pool_int64s=[2, 3, 3, 5])",
                               &d);
    CHECKF(m, "%s", d.message);
    /* bigrams of 2 3 5 2 3 at every skip: (2,3) at steps 1 (twice) and 4, (3,5) at step 1 */
    static const int64_t x[5] = {2, 3, 5, 2, 3};
    static const float want[2] = {3, 1};
    int64_t dims[1] = {5};
    byoc_node *in = input_of(m, BYOC_INT64, 1, dims, x);
    char why[600];
    int ok = evaluates_to(m, &in, 1, want, 2, why, sizeof why) && round_trips(m, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", why);
}

/* a kernel's refusal of its data names the node it ran for (its frontend name), not only the op */
static void test_evaluate_error_names_the_node(void) {
    byoc_diag d;
    byoc_module *m = parse_text("def @main(%x: Tensor[(1, 1, 2, 2), float32], %r: Tensor[(1, 5), float32]) {\n"
                                "  vision.roi_align(%x, %r, pooled_size=[1, 1]) /* span=onnx:the_roi_align */\n"
                                "}\n",
                                &d);
    CHECKF(m, "%s", d.message);
    static const float x[4] = {1, 2, 3, 4}, roi[5] = {3, 0, 0, 1, 1}; /* batch index 3 of 1 */
    int64_t xd[4] = {1, 1, 2, 2}, rd[2] = {1, 5};
    byoc_node *in[2] = {input_of(m, BYOC_FLOAT32, 4, xd, x), input_of(m, BYOC_FLOAT32, 2, rd, roi)};
    byoc_node *out = NULL;
    byoc_result r = byoc_module_evaluate(m, in, 2, &out, &d);
    static char copy[BYOC_DIAG_MESSAGE_MAX];
    snprintf(copy, sizeof copy, "%s", d.message);
    const char *msg = copy;
    byoc_module_destroy(m);
    CHECK(r != BYOC_OK);
    CHECK_CONTAINS(msg, "onnx:the_roi_align");
    CHECK_CONTAINS(msg, "roi 0 has batch index 3, not one of 0..0");
}

/* nn.pad's edge, reflect and wrap modes copy values of the axis they extend: an empty axis has none, which
   used to give zeros as if the mode were constant; it is an error now (constant still pads it) */
static void test_pad_empty_axis(void) {
    byoc_diag d;
    static const char *const modes[3] = {"edge", "reflect", "wrap"};
    int64_t dims[2] = {0, 3};
    char body[200], why[600];
    for (int i = 0; i < 3; ++i) {
        snprintf(body, sizeof body, "nn.pad(%%x, pad_width=[[1, 1], [0, 0]], pad_mode=\"%s\")", modes[i]);
        byoc_module *m = module_of("%x: Tensor[(0, 3), float32]", body, &d);
        CHECKF(m, "%s", d.message);
        byoc_node *in = input_of(m, BYOC_FLOAT32, 2, dims, NULL), *out = NULL;
        byoc_result r = byoc_module_evaluate(m, &in, 1, &out, &d);
        snprintf(why, sizeof why, "%s", d.message);
        int round = round_trips(m, why + strlen(why), sizeof why - strlen(why));
        byoc_module_destroy(m);
        CHECKF(r != BYOC_OK && strstr(why, "cannot extend axis 0, which is empty") && round, "%s: %s", modes[i], why);
    }
    byoc_module *m = module_of("%x: Tensor[(0, 3), float32]", "nn.pad(%x, 7f, pad_width=[[1, 0], [0, 0]])", &d);
    CHECKF(m, "%s", d.message);
    static const float sevens[3] = {7, 7, 7};
    byoc_node *in = input_of(m, BYOC_FLOAT32, 2, dims, NULL);
    int ok = evaluates_to(m, &in, 1, sevens, 3, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", why);
}

/* strided_slice and dyn.strided_slice with a step so large that it keeps one element: the source stride
   (input stride times step) overflowed int64 although it is never taken (found by fuzz_onnx: ONNX Slice
   with steps near 2^62) */
static void test_slice_huge_step(void) {
    byoc_diag d;
    static const float x[20] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
    static const float want[2] = {4, 16}; /* rows 1 and 4 (step 3) of column 0 (the huge step keeps one) */
    int64_t xd[2] = {5, 4};
    char why[600];
    byoc_module *m = module_of("%x: Tensor[(5, 4), float32]",
                               "strided_slice(%x, begin=[1, 0], end=[5, 4], strides=[3, 6616841182504812544])", &d);
    CHECKF(m, "%s", d.message);
    byoc_node *in = input_of(m, BYOC_FLOAT32, 2, xd, x);
    int ok = evaluates_to(m, &in, 1, want, 2, why, sizeof why) && round_trips(m, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", why);
    m = module_of("%x: Tensor[(5, 4), float32], %b: Tensor[(2), int64], %e: Tensor[(2), int64], "
                  "%s: Tensor[(2), int64]",
                  "dyn.strided_slice(%x, %b, %e, %s)", &d);
    CHECKF(m, "%s", d.message);
    static const int64_t begin[2] = {1, 0}, end[2] = {5, 4}, step[2] = {3, INT64_MAX};
    int64_t two = 2;
    byoc_node *ins[4] = {input_of(m, BYOC_FLOAT32, 2, xd, x), input_of(m, BYOC_INT64, 1, &two, begin),
                         input_of(m, BYOC_INT64, 1, &two, end), input_of(m, BYOC_INT64, 1, &two, step)};
    ok = evaluates_to(m, ins, 4, want, 2, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", why);
}

/* a NaN in a float list attribute (ONNX TfIdfVectorizer weights from a hostile file) printed as nanf and
   parsed back, but the lists compared unequal (NaN != NaN) while single floats compared equal: lists now
   compare and hash as single floats do (found by fuzz_onnx) */
static void test_nan_in_float_list_round_trips(void) {
    byoc_diag d;
    byoc_attrs a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    byoc_module *holder = byoc_module_create(NULL);
    static const double with_nan[3] = {1, NAN, -0.0}, again[3] = {1, NAN, 0.0}, other[3] = {1, 2, 0.0};
    byoc_attrs_set_floats(holder, &a, "weights", with_nan, 3);
    byoc_attrs_set_floats(holder, &b, "weights", again, 3);
    int same = byoc_attr_value_equal(byoc_attrs_get(&a, "weights"), byoc_attrs_get(&b, "weights"));
    byoc_attrs_set_floats(holder, &b, "weights", other, 3);
    int differs = !byoc_attr_value_equal(byoc_attrs_get(&a, "weights"), byoc_attrs_get(&b, "weights"));
    byoc_module_destroy(holder);
    CHECK(same && differs);
    byoc_module *m = module_of("%x: Tensor[(5), int64]",
                               "tfidf_vectorizer(%x, mode=\"TFIDF\", max_gram_length=1, ngram_counts=[0], "
                               "ngram_indexes=[0, 1], pool_int64s=[2, 3], weights=[nanf, 2f])",
                               &d);
    CHECKF(m, "%s", d.message);
    char why[600];
    int ok = round_trips(m, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", why);
}

/* cumsum along an empty axis of a tensor that is not empty elsewhere ((0, 12) along axis 0): the float32
   path seeded a first row of 12 that does not exist, reading and writing past both buffers (found by
   fuzz_text, float16 widened to float32) */
static void test_cumsum_empty_axis(void) {
    static const char *const dtypes[3] = {"float32", "float16", "int32"};
    for (int i = 0; i < 3; ++i) {
        byoc_diag d;
        char params[64], why[600];
        snprintf(params, sizeof params, "%%x: Tensor[(0, 12), %s]", dtypes[i]);
        byoc_module *m = module_of(params, "cumsum(%x, axis=0, exclusive=True)", &d);
        CHECKF(m, "%s", d.message);
        int64_t dims[2] = {0, 12};
        byoc_node *in = input_of(m, byoc_dtype_from_name(dtypes[i]), 2, dims, NULL), *out = NULL;
        int ok = byoc_module_evaluate(m, &in, 1, &out, &d) == BYOC_OK;
        if (!ok) snprintf(why, sizeof why, "evaluate: %s", d.message);
        ok = ok && byoc_type_num_elements(out->checked_type) == 0 && round_trips(m, why, sizeof why);
        byoc_module_destroy(m);
        CHECKF(ok, "%s: %s", dtypes[i], why);
    }
}

/* int64 arange: the element count and the elements are exact over the whole int64 range, where doubles
   (and int64 differences) lost or overflowed them: ONNX Range folded at import, and Relay's arange */
static int int64s_are(const byoc_node *c, const int64_t *want, int n, char *why, size_t cap) {
    if (!c || c->kind != BYOC_NODE_CONSTANT || byoc_type_num_elements(c->checked_type) != n) {
        snprintf(why, cap, "not a constant of %d elements", n);
        return 0;
    }
    for (int i = 0; i < n; ++i)
        if (((const int64_t *)c->data)[i] != want[i]) {
            snprintf(why, cap, "element %d is %lld, want %lld", i, (long long)((const int64_t *)c->data)[i],
                     (long long)want[i]);
            return 0;
        }
    return 1;
}

/* ONNX models of one Range node on int64 initializers (start, limit, delta), output y: INT64_MIN,
   INT64_MAX, 2^62; and 2^53 + 1, 2^53 + 4, 1 */
static const char range_wide_onnx[] =
    "\x08\x08\x42\x04\x0a\x00\x10\x0b\x3a\x66\x0a\x1c\x0a\x01\x61\x0a\x01\x62\x0a\x01\x63\x12\x01\x79\x1a"
    "\x07\x6e\x5f\x52\x61\x6e\x67\x65\x22\x05\x52\x61\x6e\x67\x65\x12\x01\x67\x2a\x0f\x10\x07\x42\x01\x61"
    "\x4a\x08\x00\x00\x00\x00\x00\x00\x00\x80\x2a\x0f\x10\x07\x42\x01\x62\x4a\x08\xff\xff\xff\xff\xff\xff"
    "\xff\x7f\x2a\x0f\x10\x07\x42\x01\x63\x4a\x08\x00\x00\x00\x00\x00\x00\x00\x40\x62\x10\x0a\x01\x79\x12"
    "\x0b\x0a\x09\x08\x07\x12\x05\x0a\x03\x12\x01\x6e";
static const char range_exact_onnx[] =
    "\x08\x08\x42\x04\x0a\x00\x10\x0b\x3a\x66\x0a\x1c\x0a\x01\x61\x0a\x01\x62\x0a\x01\x63\x12\x01\x79\x1a"
    "\x07\x6e\x5f\x52\x61\x6e\x67\x65\x22\x05\x52\x61\x6e\x67\x65\x12\x01\x67\x2a\x0f\x10\x07\x42\x01\x61"
    "\x4a\x08\x01\x00\x00\x00\x00\x00\x20\x00\x2a\x0f\x10\x07\x42\x01\x62\x4a\x08\x04\x00\x00\x00\x00\x00"
    "\x20\x00\x2a\x0f\x10\x07\x42\x01\x63\x4a\x08\x01\x00\x00\x00\x00\x00\x00\x00\x62\x10\x0a\x01\x79\x12"
    "\x0b\x0a\x09\x08\x07\x12\x05\x0a\x03\x12\x01\x6e";

static int range_evaluates_to(const char *model_bytes, size_t size, const int64_t *want, int n, char *why,
                              size_t cap) {
    byoc_onnx_model model;
    byoc_diag d;
    if (byoc_onnx_import(model_bytes, size, "range.onnx", NULL, &model, &d) != BYOC_OK) {
        snprintf(why, cap, "import: %s", d.message);
        return 0;
    }
    byoc_node *out = NULL;
    int ok = byoc_module_evaluate(model.module, NULL, 0, &out, &d) == BYOC_OK;
    if (!ok) snprintf(why, cap, "evaluate: %s", d.message);
    ok = ok && int64s_are(out, want, n, why, cap);
    byoc_onnx_model_free(&model);
    return ok;
}

static void test_arange_int64_exact(void) {
    static const int64_t wide[4] = {INT64_MIN, INT64_MIN + (INT64_C(1) << 62), 0, INT64_C(1) << 62};
    static const int64_t exact[3] = {(INT64_C(1) << 53) + 1, (INT64_C(1) << 53) + 2, (INT64_C(1) << 53) + 3};
    char why[600];
    CHECKF(range_evaluates_to(range_wide_onnx, sizeof range_wide_onnx - 1, wide, 4, why, sizeof why), "%s", why);
    CHECKF(range_evaluates_to(range_exact_onnx, sizeof range_exact_onnx - 1, exact, 3, why, sizeof why), "%s", why);
    byoc_diag d;
    byoc_module *m =
        module_of("", "arange(-9223372036854775808i64, 9223372036854775807i64, 4611686018427387904i64)", &d);
    CHECKF(m, "%s", d.message);
    byoc_node *out = NULL;
    int ok = byoc_module_evaluate(m, NULL, 0, &out, &d) == BYOC_OK;
    if (!ok) snprintf(why, sizeof why, "evaluate: %s", d.message);
    ok = ok && int64s_are(out, wide, 4, why, sizeof why) && round_trips(m, why, sizeof why);
    byoc_module_destroy(m);
    CHECKF(ok, "%s", why);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_resize_antialias_scale_fits_extents),
        TEST_ENTRY(test_tfidf_huge_skip_count),
        TEST_ENTRY(test_evaluate_error_names_the_node),
        TEST_ENTRY(test_arange_int64_exact),
        TEST_ENTRY(test_pad_empty_axis),
        TEST_ENTRY(test_slice_huge_step),
        TEST_ENTRY(test_nan_in_float_list_round_trips),
        TEST_ENTRY(test_cumsum_empty_axis),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
