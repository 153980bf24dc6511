/* Unit tests for the spatial sampling ops (image.resize, image.grid_sample, vision.roi_align,
   nn.max_unpool) through the public API: each parsed from Relay text, typed, evaluated with
   byoc_module_evaluate and compared with values worked out by hand from ONNX's definitions; their type
   errors; and print/parse round trips. */
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

/* @main(%x: xtype[, %y: ytype]) { body }, typed */
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

/* evaluates @main on the inputs; the result's float32 values compared with want */
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

/* ---- image.resize ---- */
static void test_resize_linear_half_pixel(void) { /* ONNX's resize_upsample_scales_linear */
    byoc_diag d;
    char why[2048];
    byoc_module *m = module_of("%x: Tensor[(1, 1, 2, 2), float32]",
                               "image.resize(%x, size=[1, 1, 4, 4], scales=[1f, 1f, 2f, 2f])", &d);
    CHECKF(m, "%s", d.message);
    int64_t dims[4] = {1, 1, 2, 2};
    float x[4] = {1, 2, 3, 4};
    byoc_node *in = input_of(m, BYOC_FLOAT32, 4, dims, x);
    static const float want[16] = {1,    1.25f, 1.75f, 2,    1.5f, 1.75f, 2.25f, 2.5f,
                                   2.5f, 2.75f, 3.25f, 3.5f, 3,    3.25f, 3.75f, 4};
    CHECKF(evaluates_to(m, &in, 1, want, 16, why, sizeof why), "%s", why);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
}

static void test_resize_nearest_modes(void) { /* ONNX's round_prefer_ceil + asymmetric example, on int32 */
    byoc_diag d;
    char why[2048];
    static const char *const modes[4] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
    /* sources of outputs 0..7 at x / 2 (asymmetric), clamped to 0..3 */
    static const int want[4][8] = {
        {0, 0, 1, 1, 2, 2, 3, 3}, {0, 1, 1, 2, 2, 3, 3, 3}, {0, 0, 1, 1, 2, 2, 3, 3}, {0, 1, 1, 2, 2, 3, 3, 3}};
    for (int mode = 0; mode < 4; ++mode) {
        char body[300];
        snprintf(body, sizeof body,
                 "image.resize(%%x, size=[8], method=\"nearest_neighbor\", coordinate_transformation_mode="
                 "\"asymmetric\", rounding_method=\"%s\")",
                 modes[mode]);
        byoc_module *m = module_of("%x: Tensor[(4), int32]", body, &d);
        CHECKF(m, "%s", d.message);
        int64_t dims[1] = {4};
        int32_t x[4] = {10, 20, 30, 40};
        byoc_node *in = input_of(m, BYOC_INT32, 1, dims, x), *out = NULL;
        CHECKF(byoc_module_evaluate(m, &in, 1, &out, &d) == BYOC_OK, "%s", d.message);
        for (int i = 0; i < 8; ++i)
            CHECKF(((const int32_t *)out->data)[i] == x[want[mode][i]], "%s: output %d is %d, want %d", modes[mode], i,
                   ((const int32_t *)out->data)[i], x[want[mode][i]]);
        CHECKF(round_trips(m, why, sizeof why), "%s", why);
        byoc_module_destroy(m);
    }
}

static void test_resize_cubic_exclude_outside(void) {
    /* in [1, 2, 4, 8] at scale 0.5 (half_pixel): sources 0.5 and 2.5, Keys weights (A = -0.75) at
       distances 1.5, 0.5, 0.5, 1.5: -0.09375, 0.59375, 0.59375, -0.09375; exclude_outside drops the tap
       off the edge and renormalises by 1.09375 */
    byoc_diag d;
    char why[2048];
    static const float plain[2] = {1.3125f, 6.1875f}, excluded[2] = {1.40625f / 1.09375f, 6.9375f / 1.09375f};
    for (int exclude = 0; exclude < 2; ++exclude) {
        char body[200];
        snprintf(body, sizeof body, "image.resize(%%x, size=[2], scales=[0.5f], method=\"cubic\", cubic_exclude=%d)",
                 exclude);
        byoc_module *m = module_of("%x: Tensor[(4), float32]", body, &d);
        CHECKF(m, "%s", d.message);
        int64_t dims[1] = {4};
        float x[4] = {1, 2, 4, 8};
        byoc_node *in = input_of(m, BYOC_FLOAT32, 1, dims, x);
        CHECKF(evaluates_to(m, &in, 1, exclude ? excluded : plain, 2, why, sizeof why), "exclude %d: %s", exclude, why);
        CHECKF(round_trips(m, why, sizeof why), "%s", why);
        byoc_module_destroy(m);
    }
}

static void test_resize_crop_and_antialias(void) {
    byoc_diag d;
    char why[2048];
    /* tf_crop_and_resize, roi [0.5, 1.5] of [1, 2, 3, 4]: sources 1.5x + 1.5 = 1.5, 3, 4.5 (outside) */
    byoc_module *m = module_of("%x: Tensor[(4), float32]",
                               "image.resize(%x, size=[3], roi=[0.5f, 1.5f], coordinate_transformation_mode="
                               "\"tf_crop_and_resize\", extrapolation_value=10f)",
                               &d);
    CHECKF(m, "%s", d.message);
    int64_t dims[1] = {4};
    float x[4] = {1, 2, 3, 4};
    byoc_node *in = input_of(m, BYOC_FLOAT32, 1, dims, x);
    static const float crop[3] = {2.5f, 4, 10};
    CHECKF(evaluates_to(m, &in, 1, crop, 3, why, sizeof why), "crop: %s", why);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
    /* antialiased linear downsampling by 2 of 0..7: a 4-tap triangle (0.125, 0.375, 0.375, 0.125) */
    m = module_of("%x: Tensor[(8), float32]", "image.resize(%x, size=[4], antialias=True)", &d);
    CHECKF(m, "%s", d.message);
    int64_t dims8[1] = {8};
    float ramp[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    in = input_of(m, BYOC_FLOAT32, 1, dims8, ramp);
    static const float smooth[4] = {0.625f, 2.5f, 4.5f, 6.375f};
    CHECKF(evaluates_to(m, &in, 1, smooth, 4, why, sizeof why), "antialias: %s", why);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
    /* half_pixel_symmetric at scale 0.6 (ONNX's example): 1.6667, 3.3333 */
    m = module_of("%x: Tensor[(4), float32]",
                  "image.resize(%x, size=[2], scales=[0.6f], coordinate_transformation_mode=\"half_pixel_symmetric\")",
                  &d);
    CHECKF(m, "%s", d.message);
    in = input_of(m, BYOC_FLOAT32, 1, dims, x);
    static const float symmetric[2] = {5.0f / 3, 10.0f / 3};
    CHECKF(evaluates_to(m, &in, 1, symmetric, 2, why, sizeof why), "half_pixel_symmetric: %s", why);
    byoc_module_destroy(m);
}

static void test_resize_nd_float64_and_uint8(void) {
    byoc_diag d;
    char why[2048];
    /* axes 0 and 2 of a (2, 1, 2) float64 tensor, asymmetric at 1.5: sources 0, 2/3, 4/3 (clamped to 1) */
    byoc_module *m = module_of("%x: Tensor[(2, 1, 2), float64]",
                               "image.resize(%x, size=[3, 1, 3], scales=[1.5f, 1f, 1.5f], "
                               "coordinate_transformation_mode=\"asymmetric\")",
                               &d);
    CHECKF(m, "%s", d.message);
    int64_t dims[3] = {2, 1, 2};
    double x[4] = {0, 1, 2, 3};
    byoc_node *in = input_of(m, BYOC_FLOAT64, 3, dims, x), *out = NULL;
    CHECKF(byoc_module_evaluate(m, &in, 1, &out, &d) == BYOC_OK, "%s", d.message);
    static const double want[9] = {0, 2.0 / 3, 1, 4.0 / 3, 2, 7.0 / 3, 2, 8.0 / 3, 3};
    for (int i = 0; i < 9; ++i)
        CHECKF(fabs(((const double *)out->data)[i] - want[i]) < 1e-12, "element %d is %.17g, want %.17g", i,
               ((const double *)out->data)[i], want[i]);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
    /* uint8 linear, align_corners: the midpoint 127.5 rounds to 128 */
    m = module_of("%x: Tensor[(2), uint8]",
                  "image.resize(%x, size=[3], coordinate_transformation_mode=\"align_corners\")", &d);
    CHECKF(m, "%s", d.message);
    int64_t d2[1] = {2};
    uint8_t u[2] = {0, 255};
    in = input_of(m, BYOC_UINT8, 1, d2, u);
    CHECKF(byoc_module_evaluate(m, &in, 1, &out, &d) == BYOC_OK, "%s", d.message);
    const uint8_t *got = (const uint8_t *)out->data;
    CHECKF(got[0] == 0 && got[1] == 128 && got[2] == 255, "got %d %d %d", got[0], got[1], got[2]);
    byoc_module_destroy(m);
}

static void test_resize_type_errors(void) {
    byoc_diag d;
    const char *x4 = "%x: Tensor[(1, 1, 2, 2), float32]";
    CHECK_CONTAINS(type_error(x4, "image.resize(%x, size=[4, 4])", &d), "attribute 'size' must have 4 values, got 2");
    CHECK_CONTAINS(type_error(x4, "image.resize(%x, size=[1, 1, 4, 4], method=\"bilinear\")", &d),
                   "method \"bilinear\" is not one of nearest_neighbor, linear, cubic");
    CHECK_CONTAINS(type_error(x4, "image.resize(%x, size=[1, 1, 4, 4], scales=[1f, 2f])", &d),
                   "scales has 2 values for an input of rank 4");
    CHECK_CONTAINS(type_error(x4, "image.resize(%x, size=[1, 1, 4, 4], scales=[1f, 1f, 0f, 2f])", &d),
                   "scale 0 of axis 2 is not positive");
    CHECK_CONTAINS(type_error(x4,
                              "image.resize(%x, size=[1, 1, 4, 4], coordinate_transformation_mode="
                              "\"tf_crop_and_resize\")",
                              &d),
                   "needs a roi");
    CHECK_CONTAINS(type_error("%x: Tensor[(2), bool]", "image.resize(%x, size=[4])", &d),
                   "method \"linear\" needs a numeric input");
    CHECK_CONTAINS(d.message, "image.resize");
}

/* ---- image.grid_sample ---- */
static void test_grid_sample(void) {
    /* data [[1, 2], [3, 4]], not align_corners: grid (0, 0) is the centre, (-1, -1) the outer corner
       (source -0.5, -0.5), x = 0.5 is source column 1 */
    static const struct {
        const char *attrs;
        float gx, gy, want;
    } cases[] = {
        {"", 0, 0, 2.5f},                                            /* bilinear: the mean */
        {"", -1, -1, 0.25f},                                         /* zeros: a quarter of the corner */
        {"padding_mode=\"border\"", -1, -1, 1},                      /* border: the corner */
        {"method=\"nearest\"", 0.5f, 0.5f, 4},                       /* nearest: (1, 1) */
        {"method=\"bicubic\"", 0, 0, 0.59375f * 0.59375f * 10},      /* the outer taps read zeros */
        {"method=\"bicubic\", padding_mode=\"border\"", 0, 0, 2.5f}, /* the outer taps repeat the edge */
        {"padding_mode=\"reflection\"", 1.5f, -1, 2},                /* x 2.0 reflects to 1.0; y -0.5 */
    };
    char why[2048];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char body[300];
        byoc_diag d;
        snprintf(body, sizeof body, "image.grid_sample(%%x, %%g, align_corners=False%s%s)", *cases[i].attrs ? ", " : "",
                 cases[i].attrs);
        byoc_module *m = module_of("%x: Tensor[(1, 1, 2, 2), float32], %g: Tensor[(1, 2, 1, 1), float32]", body, &d);
        CHECKF(m, "%s", d.message);
        int64_t xd[4] = {1, 1, 2, 2}, gd[4] = {1, 2, 1, 1};
        float x[4] = {1, 2, 3, 4}, g[2] = {cases[i].gx, cases[i].gy};
        byoc_node *in[2] = {input_of(m, BYOC_FLOAT32, 4, xd, x), input_of(m, BYOC_FLOAT32, 4, gd, g)};
        CHECKF(evaluates_to(m, in, 2, &cases[i].want, 1, why, sizeof why), "case %d (%s): %s", (int)i, body, why);
        CHECKF(round_trips(m, why, sizeof why), "%s", why);
        byoc_module_destroy(m);
    }
    byoc_diag d;
    CHECK_CONTAINS(type_error("%x: Tensor[(1, 1, 2, 2), float32], %g: Tensor[(1, 1, 1, 2), float32]",
                              "image.grid_sample(%x, %g)", &d),
                   "the grid must be [N, 2, OH, OW]");
    CHECK_CONTAINS(type_error("%x: Tensor[(1, 1, 2, 2), float32], %g: Tensor[(1, 2, 1, 1), float32]",
                              "image.grid_sample(%x, %g, padding_mode=\"wrap\")", &d),
                   "padding_mode \"wrap\" is not one of zeros, border, reflection");
}

/* ---- vision.roi_align ---- */
static void test_roi_align(void) {
    /* data 4y + x on a 4x4 map; roi (0, 0, 4, 4) in 2x2 bins of 2x2 samples. Bilinear samples of a
       linear map average to the map at their mean; samples past the last row or column clamp to it. */
    static const struct {
        const char *attrs;
        float want[4];
    } cases[] = {
        {"", {5, 6.75f, 12, 13.75f}},                 /* samples at 0.5, 1.5 | 2.5, 3 (clamped) */
        {"aligned=True", {2.5f, 4.5f, 10.5f, 12.5f}}, /* shifted by half a pixel: 0, 1 | 2, 3 */
        {"mode=\"max\"", {2.5f, 5.5f, 7, 15}},        /* the largest weighted corner of any sample */
    };
    char why[2048];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char body[300];
        byoc_diag d;
        snprintf(body, sizeof body, "vision.roi_align(%%x, %%r, pooled_size=[2, 2], sample_ratio=2%s%s)",
                 *cases[i].attrs ? ", " : "", cases[i].attrs);
        byoc_module *m = module_of("%x: Tensor[(1, 1, 4, 4), float32], %r: Tensor[(1, 5), float32]", body, &d);
        CHECKF(m, "%s", d.message);
        int64_t xd[4] = {1, 1, 4, 4}, rd[2] = {1, 5};
        float x[16], r[5] = {0, 0, 0, 4, 4};
        for (int k = 0; k < 16; ++k) x[k] = (float)k;
        byoc_node *in[2] = {input_of(m, BYOC_FLOAT32, 4, xd, x), input_of(m, BYOC_FLOAT32, 2, rd, r)};
        CHECKF(evaluates_to(m, in, 2, cases[i].want, 4, why, sizeof why), "case %d (%s): %s", (int)i, body, why);
        CHECKF(round_trips(m, why, sizeof why), "%s", why);
        if (i == 0) { /* a batch index the data lacks is an error naming the op */
            float bad[5] = {3, 0, 0, 4, 4};
            byoc_node *out = NULL;
            in[1] = input_of(m, BYOC_FLOAT32, 2, rd, bad);
            CHECK(byoc_module_evaluate(m, in, 2, &out, &d) != BYOC_OK);
            CHECK_CONTAINS(d.message, "vision.roi_align: roi 0 has batch index 3, not one of 0..0");
        }
        byoc_module_destroy(m);
    }
    byoc_diag d;
    CHECK_CONTAINS(type_error("%x: Tensor[(1, 1, 4, 4), float32], %r: Tensor[(1, 4), float32]",
                              "vision.roi_align(%x, %r, pooled_size=[2, 2])", &d),
                   "the rois must be [R, 5]");
}

/* ---- nn.max_unpool ---- */
static void test_max_unpool(void) { /* ONNX's MaxUnpool examples */
    byoc_diag d;
    char why[2048];
    static const float plain[16] = {0, 0, 0, 0, 0, 5, 0, 6, 0, 0, 0, 0, 0, 7, 0, 8};
    static const float padded[25] = {0, 0, 0, 0, 0, 0, 5, 0, 6, 0, 0, 0, 0, 0, 0, 0, 7, 0, 8, 0, 0, 0, 0, 0, 0};
    for (int with_shape = 0; with_shape < 2; ++with_shape) {
        byoc_module *m =
            module_of("%x: Tensor[(1, 1, 2, 2), float32], %i: Tensor[(1, 1, 2, 2), int64]",
                      with_shape ? "nn.max_unpool(%x, %i, pool_size=[2, 2], strides=[2, 2], output_shape=[1, 1, 5, 5])"
                                 : "nn.max_unpool(%x, %i, pool_size=[2, 2], strides=[2, 2])",
                      &d);
        CHECKF(m, "%s", d.message);
        int64_t dims[4] = {1, 1, 2, 2};
        float x[4] = {5, 6, 7, 8};
        int64_t at[4] = {5, 7, 13, 15}, bad[4] = {5, 7, 13, 16};
        byoc_node *in[2] = {input_of(m, BYOC_FLOAT32, 4, dims, x), input_of(m, BYOC_INT64, 4, dims, at)};
        CHECKF(evaluates_to(m, in, 2, with_shape ? padded : plain, with_shape ? 25 : 16, why, sizeof why), "%s", why);
        CHECKF(round_trips(m, why, sizeof why), "%s", why);
        byoc_node *out = NULL;
        in[1] = input_of(m, BYOC_INT64, 4, dims, bad);
        CHECK(byoc_module_evaluate(m, in, 2, &out, &d) != BYOC_OK);
        CHECK_CONTAINS(d.message, "nn.max_unpool: index 16 (element 3) is outside the unpooled tensor of 16 elements");
        byoc_module_destroy(m);
    }
    CHECK_CONTAINS(type_error("%x: Tensor[(1, 1, 2, 2), float32], %i: Tensor[(1, 1, 2, 2), float32]",
                              "nn.max_unpool(%x, %i, pool_size=[2, 2])", &d),
                   "the indices must be integers, got float32");
    CHECK_CONTAINS(type_error("%x: Tensor[(1, 1, 2, 2), float32], %i: Tensor[(1, 1, 2, 2), int64]",
                              "nn.max_unpool(%x, %i, pool_size=[2, 2], strides=[2, 2], output_shape=[1, 1, 3, 5])", &d),
                   "output_shape[2] = 3 is smaller than the unpooled extent 4");
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_resize_linear_half_pixel),
        TEST_ENTRY(test_resize_nearest_modes),
        TEST_ENTRY(test_resize_cubic_exclude_outside),
        TEST_ENTRY(test_resize_crop_and_antialias),
        TEST_ENTRY(test_resize_nd_float64_and_uint8),
        TEST_ENTRY(test_resize_type_errors),
        TEST_ENTRY(test_grid_sample),
        TEST_ENTRY(test_roi_align),
        TEST_ENTRY(test_max_unpool),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
