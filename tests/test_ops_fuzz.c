/* Regression tests for what fuzzing and reading the new ops' kernels found: hostile attributes and
   data must give a clear error naming the node, never a crash, a hang or a silently wrong result. Each
   case is parsed from Relay text, typed, evaluated with byoc_module_evaluate and compared with values
   worked out by hand; type errors are checked for their message; attributes print and parse back. */
#include "byoc.h"
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
    char msg[BYOC_DIAG_MESSAGE_MAX];
    snprintf(msg, sizeof msg, "%s", d.message);
    byoc_module_destroy(m);
    CHECK(r != BYOC_OK);
    CHECK_CONTAINS(msg, "onnx:the_roi_align");
    CHECK_CONTAINS(msg, "roi 0 has batch index 3, not one of 0..0");
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_resize_antialias_scale_fits_extents),
        TEST_ENTRY(test_tfidf_huge_skip_count),
        TEST_ENTRY(test_evaluate_error_names_the_node),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
