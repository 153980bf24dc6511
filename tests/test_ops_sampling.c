/* Unit tests for the spatial sampling ops (image.resize, image.grid_sample, vision.roi_align,
   nn.max_unpool) through the public API: each parsed from Relay text, typed, evaluated with
   byoc_module_evaluate and compared with values worked out by hand from ONNX's definitions; their type
   errors; and print/parse round trips. Then the ONNX converters on small models written here (opsets
   and variants the ONNX node test data lacks). */
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

static void test_grid_sample_dtypes(void) {
    /* float64 computes in double; nearest takes any dtype (zeros off the map); linear needs floats */
    byoc_diag d;
    int64_t xd[4] = {1, 1, 2, 2}, gd[4] = {1, 2, 1, 2};
    double g[4] = {0, 2, 0, 0}; /* x of the two points, then y: the centre, and far right (off the map) */
    byoc_module *m = module_of("%x: Tensor[(1, 1, 2, 2), float64], %g: Tensor[(1, 2, 1, 2), float64]",
                               "image.grid_sample(%x, %g, align_corners=False)", &d);
    CHECKF(m, "%s", d.message);
    double x[4] = {1, 2, 3, 4.5};
    byoc_node *in[2] = {input_of(m, BYOC_FLOAT64, 4, xd, x), input_of(m, BYOC_FLOAT64, 4, gd, g)}, *out = NULL;
    CHECKF(byoc_module_evaluate(m, in, 2, &out, &d) == BYOC_OK, "%s", d.message);
    CHECKF(((const double *)out->data)[0] == 2.625 && ((const double *)out->data)[1] == 0, "got %.17g %.17g",
           ((const double *)out->data)[0], ((const double *)out->data)[1]);
    byoc_module_destroy(m);
    m = module_of("%x: Tensor[(1, 1, 2, 2), int32], %g: Tensor[(1, 2, 1, 2), float64]",
                  "image.grid_sample(%x, %g, method=\"nearest\", align_corners=False)", &d);
    CHECKF(m, "%s", d.message);
    int32_t xi[4] = {10, 20, 30, 40};
    double gn[4] = {0.5, 2, 0.5, 0}; /* (0.5, 0.5) is source (1, 1) */
    in[0] = input_of(m, BYOC_INT32, 4, xd, xi);
    in[1] = input_of(m, BYOC_FLOAT64, 4, gd, gn);
    CHECKF(byoc_module_evaluate(m, in, 2, &out, &d) == BYOC_OK, "%s", d.message);
    CHECKF(((const int32_t *)out->data)[0] == 40 && ((const int32_t *)out->data)[1] == 0, "got %d %d",
           ((const int32_t *)out->data)[0], ((const int32_t *)out->data)[1]);
    byoc_module_destroy(m);
    /* an empty image has nothing to sample: an error, not a read out of bounds */
    m = module_of("%x: Tensor[(1, 1, 0, 2), float32], %g: Tensor[(1, 2, 1, 2), float64]", "image.grid_sample(%x, %g)",
                  &d);
    CHECKF(m, "%s", d.message);
    int64_t empty[4] = {1, 1, 0, 2};
    in[0] = input_of(m, BYOC_FLOAT32, 4, empty, NULL);
    in[1] = input_of(m, BYOC_FLOAT64, 4, gd, gn);
    CHECK(byoc_module_evaluate(m, in, 2, &out, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "image.grid_sample: cannot sample an empty 0x2 image");
    byoc_module_destroy(m);
    CHECK_CONTAINS(type_error("%x: Tensor[(1, 1, 2, 2), int32], %g: Tensor[(1, 2, 1, 2), float32]",
                              "image.grid_sample(%x, %g)", &d),
                   "method \"bilinear\" needs float data, got int32 (nearest takes any)");
}

static void test_roi_align_float64(void) {
    byoc_diag d;
    byoc_module *m = module_of("%x: Tensor[(1, 1, 4, 4), float64], %r: Tensor[(1, 5), float64]",
                               "vision.roi_align(%x, %r, pooled_size=[2, 2], sample_ratio=2)", &d);
    CHECKF(m, "%s", d.message);
    int64_t xd[4] = {1, 1, 4, 4}, rd[2] = {1, 5};
    double x[16], r[5] = {0, 0, 0, 4, 4};
    for (int k = 0; k < 16; ++k) x[k] = k;
    byoc_node *in[2] = {input_of(m, BYOC_FLOAT64, 4, xd, x), input_of(m, BYOC_FLOAT64, 2, rd, r)}, *out = NULL;
    CHECKF(byoc_module_evaluate(m, in, 2, &out, &d) == BYOC_OK, "%s", d.message);
    static const double want[4] = {5, 6.75, 12, 13.75};
    for (int i = 0; i < 4; ++i)
        CHECKF(fabs(((const double *)out->data)[i] - want[i]) < 1e-12, "bin %d is %.17g, want %g", i,
               ((const double *)out->data)[i], want[i]);
    byoc_module_destroy(m);
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

/* ---- the ONNX converters, on models written with a small protobuf writer ---- */
typedef struct pbuf {
    unsigned char *p;
    size_t n, cap;
} pbuf;
static void put_byte(pbuf *b, unsigned char c) {
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 256;
        b->p = (unsigned char *)realloc(b->p, b->cap);
    }
    b->p[b->n++] = c;
}
static void put_varint(pbuf *b, uint64_t v) {
    do put_byte(b, (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
    while (v >>= 7);
}
static void put_key(pbuf *b, int field, int wire) { put_varint(b, (uint64_t)field << 3 | (uint64_t)wire); }
static void put_int(pbuf *b, int field, int64_t v) {
    put_key(b, field, 0);
    put_varint(b, (uint64_t)v);
}
static void put_bytes(pbuf *b, int field, const void *data, size_t n) {
    put_key(b, field, 2);
    put_varint(b, n);
    for (size_t i = 0; i < n; ++i) put_byte(b, ((const unsigned char *)data)[i]);
}
static void put_str(pbuf *b, int field, const char *s) { put_bytes(b, field, s, strlen(s)); }
static void put_msg(pbuf *b, int field, pbuf *m) {
    put_bytes(b, field, m->p, m->n);
    free(m->p);
    memset(m, 0, sizeof *m);
}
/* AttributeProto: ints (type 7), floats (6, little-endian float32 bits), int (2), string (3) */
static void attr_ints(pbuf *node, const char *name, const int64_t *v, int n) {
    pbuf a = {NULL, 0, 0};
    put_str(&a, 1, name);
    for (int i = 0; i < n; ++i) put_int(&a, 8, v[i]);
    put_int(&a, 20, 7);
    put_msg(node, 5, &a);
}
static void attr_floats(pbuf *node, const char *name, const float *v, int n) {
    pbuf a = {NULL, 0, 0};
    put_str(&a, 1, name);
    put_bytes(&a, 7, v, sizeof(float) * (size_t)n); /* packed, as writers store them (little-endian hosts) */
    put_int(&a, 20, 6);
    put_msg(node, 5, &a);
}
static void attr_int(pbuf *node, const char *name, int64_t v) {
    pbuf a = {NULL, 0, 0};
    put_str(&a, 1, name);
    put_int(&a, 3, v);
    put_int(&a, 20, 2);
    put_msg(node, 5, &a);
}
static void attr_str(pbuf *node, const char *name, const char *v) {
    pbuf a = {NULL, 0, 0};
    put_str(&a, 1, name);
    put_str(&a, 4, v);
    put_int(&a, 20, 3);
    put_msg(node, 5, &a);
}
/* a float (elem 1) or int64 (7) tensor: an initializer (field 5) of a graph */
static void put_init(pbuf *g, const char *name, int elem, int rank, const int64_t *dims, const void *raw,
                     size_t bytes) {
    pbuf t = {NULL, 0, 0};
    for (int d = 0; d < rank; ++d) put_int(&t, 1, dims[d]);
    put_int(&t, 2, elem);
    put_str(&t, 8, name);
    put_bytes(&t, 9, raw, bytes);
    put_msg(g, 5, &t);
}
static void put_io(pbuf *g, int field, const char *name, int elem, int rank, const int64_t *dims) {
    pbuf vi = {NULL, 0, 0}, type = {NULL, 0, 0}, tensor = {NULL, 0, 0}, shape = {NULL, 0, 0};
    put_str(&vi, 1, name);
    put_int(&tensor, 1, elem);
    for (int d = 0; d < rank; ++d) {
        pbuf dim = {NULL, 0, 0};
        put_int(&dim, 1, dims[d]);
        put_msg(&shape, 1, &dim);
    }
    put_msg(&tensor, 2, &shape);
    put_msg(&type, 1, &tensor);
    put_msg(&vi, 2, &type);
    put_msg(g, field, &vi);
}
/* one node (its inputs, "" for an omitted one; output y; attributes already in attrs) of op at opset:
   graph input x [xdims], the initializers in g */
static byoc_result import_node(pbuf *g, const char *op, int opset, const char *const *inputs, int nin, pbuf *attrs,
                               int xrank, const int64_t *xdims, byoc_onnx_model *model, byoc_diag *d) {
    pbuf node = {NULL, 0, 0}, m = {NULL, 0, 0}, ops = {NULL, 0, 0};
    for (int i = 0; i < nin; ++i) put_str(&node, 1, inputs[i]);
    put_str(&node, 2, "y");
    put_str(&node, 3, "n0");
    put_str(&node, 4, op);
    for (size_t i = 0; i < attrs->n; ++i) put_byte(&node, attrs->p[i]);
    free(attrs->p);
    memset(attrs, 0, sizeof *attrs);
    put_msg(g, 1, &node);
    put_io(g, 11, "x", 1, xrank, xdims);
    put_io(g, 12, "y", 1, 0, NULL);
    put_int(&m, 1, 8);
    put_str(&ops, 1, "");
    put_int(&ops, 2, opset);
    put_msg(&m, 8, &ops);
    put_msg(&m, 7, g);
    byoc_result r = byoc_onnx_import(m.p, m.n, "t.onnx", NULL, model, d);
    free(m.p);
    return r;
}

static void test_onnx_upsample_and_resize10(void) {
    byoc_diag d;
    char why[2048];
    int64_t xdims[4] = {1, 1, 2, 2};
    float x[4] = {1, 2, 3, 4};
    /* Upsample-7, linear, scales [1, 1, 2, 2] as an attribute: asymmetric, sources 0, 0.5, 1, 1.5 (edge) */
    static const float linear[16] = {1, 1.5f, 2, 2, 2, 2.5f, 3, 3, 3, 3.5f, 4, 4, 3, 3.5f, 4, 4};
    /* Resize-10, nearest, scales [1, 1, 1, 2] as an input: columns x / 2 rounded down */
    static const float nearest[8] = {1, 1, 2, 2, 3, 3, 4, 4};
    for (int which = 0; which < 2; ++which) {
        pbuf g = {NULL, 0, 0}, attrs = {NULL, 0, 0};
        byoc_onnx_model model;
        static const float up[4] = {1, 1, 2, 2}, wide[4] = {1, 1, 1, 2};
        static const char *const with_scales[2] = {"x", "scales"};
        int64_t four = 4;
        if (which == 0) {
            attr_floats(&attrs, "scales", up, 4);
            attr_str(&attrs, "mode", "linear");
        } else put_init(&g, "scales", 1, 1, &four, wide, sizeof wide);
        CHECKF(import_node(&g, which ? "Resize" : "Upsample", which ? 10 : 7, with_scales, which ? 2 : 1, &attrs, 4,
                           xdims, &model, &d) == BYOC_OK,
               "%s", d.message);
        byoc_node *in = input_of(model.module, BYOC_FLOAT32, 4, xdims, x);
        CHECKF(evaluates_to(model.module, &in, 1, which ? nearest : linear, which ? 8 : 16, why, sizeof why), "%s: %s",
               which ? "Resize-10" : "Upsample-7", why);
        char *text = byoc_module_print(model.module, 0, NULL);
        CHECK_CONTAINS(text, "coordinate_transformation_mode=\"asymmetric\"");
        CHECK_CONTAINS(text, "/* span=onnx:n0 */");
        byoc_free(model.module, text);
        byoc_onnx_model_free(&model);
    }
}

static void test_onnx_resize_inputs(void) {
    byoc_diag d;
    int64_t xdims[4] = {1, 1, 2, 2}, four = 4;
    /* Resize-13 with both scales and sizes is refused, naming the node */
    pbuf g = {NULL, 0, 0}, attrs = {NULL, 0, 0};
    byoc_onnx_model model;
    static const float scales[4] = {1, 1, 2, 2};
    static const int64_t sizes[4] = {1, 1, 4, 4};
    static const char *const all[4] = {"x", "", "scales", "sizes"};
    put_init(&g, "scales", 1, 1, &four, scales, sizeof scales);
    put_init(&g, "sizes", 7, 1, &four, sizes, sizeof sizes);
    CHECK(import_node(&g, "Resize", 13, all, 4, &attrs, 4, xdims, &model, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "give scales or sizes, not both");
    CHECK_CONTAINS(d.message, "n0");
    /* sizes alone, cubic: the scale is sizes / input; the print names no scales */
    static const char *const sized[4] = {"x", "", "", "sizes"};
    memset(&g, 0, sizeof g);
    put_init(&g, "sizes", 7, 1, &four, sizes, sizeof sizes);
    attr_str(&attrs, "mode", "cubic");
    attr_int(&attrs, "exclude_outside", 1);
    CHECKF(import_node(&g, "Resize", 13, sized, 4, &attrs, 4, xdims, &model, &d) == BYOC_OK, "%s", d.message);
    char *text = byoc_module_print(model.module, 0, NULL);
    CHECK_CONTAINS(text, "image.resize(%x, size=[1, 1, 4, 4], method=\"cubic\", cubic_exclude=1)");
    byoc_free(model.module, text);
    byoc_onnx_model_free(&model);
    /* GridSample on a volume is refused with its reason */
    int64_t vol[5] = {1, 1, 2, 2, 2}, gdims[5] = {1, 1, 1, 1, 3};
    float grid[3] = {0, 0, 0};
    static const char *const xg[2] = {"x", "grid"};
    memset(&g, 0, sizeof g);
    put_init(&g, "grid", 1, 5, gdims, grid, sizeof grid);
    CHECK(import_node(&g, "GridSample", 16, xg, 2, &attrs, 5, vol, &model, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "only 2-D sampling (X of rank 4) is supported, X has rank 5");
}

static void test_onnx_roi_align_opsets(void) {
    /* RoiAlign-10 has no coordinate_transformation_mode (output_half_pixel); 16 defaults to half_pixel */
    byoc_diag d;
    char why[2048];
    int64_t xdims[4] = {1, 1, 4, 4}, rdims[2] = {1, 4}, one = 1, batch[1] = {0};
    float x[16], rois[4] = {0, 0, 4, 4};
    for (int k = 0; k < 16; ++k) x[k] = (float)k;
    static const float v10[4] = {5, 6.75f, 12, 13.75f}, v16[4] = {2.5f, 4.5f, 10.5f, 12.5f};
    static const char *const ins[3] = {"x", "rois", "batch"};
    for (int opset16 = 0; opset16 < 2; ++opset16) {
        pbuf g = {NULL, 0, 0}, attrs = {NULL, 0, 0};
        byoc_onnx_model model;
        put_init(&g, "rois", 1, 2, rdims, rois, sizeof rois);
        put_init(&g, "batch", 7, 1, &one, batch, sizeof batch);
        attr_int(&attrs, "output_height", 2);
        attr_int(&attrs, "output_width", 2);
        attr_int(&attrs, "sampling_ratio", 2);
        CHECKF(import_node(&g, "RoiAlign", opset16 ? 16 : 10, ins, 3, &attrs, 4, xdims, &model, &d) == BYOC_OK, "%s",
               d.message);
        byoc_node *in = input_of(model.module, BYOC_FLOAT32, 4, xdims, x);
        CHECKF(evaluates_to(model.module, &in, 1, opset16 ? v16 : v10, 4, why, sizeof why), "opset %d: %s",
               opset16 ? 16 : 10, why);
        byoc_onnx_model_free(&model);
    }
}

static void test_onnx_max_unpool_pads(void) {
    /* kernel 2, stride 2, pads 1 on every side: a 2x2 input unpools to (2 - 1) * 2 + 2 - 2 = 2 per axis */
    byoc_diag d;
    char why[2048];
    int64_t xdims[4] = {1, 1, 2, 2}, two[2] = {2, 2}, pads[4] = {1, 1, 1, 1}, at[4] = {3, 2, 1, 0};
    float x[4] = {5, 6, 7, 8};
    static const float want[4] = {8, 7, 6, 5};
    static const char *const ins[2] = {"x", "at"};
    pbuf g = {NULL, 0, 0}, attrs = {NULL, 0, 0};
    byoc_onnx_model model;
    put_init(&g, "at", 7, 4, xdims, at, sizeof at);
    attr_ints(&attrs, "kernel_shape", two, 2);
    attr_ints(&attrs, "strides", two, 2);
    attr_ints(&attrs, "pads", pads, 4);
    CHECKF(import_node(&g, "MaxUnpool", 11, ins, 2, &attrs, 4, xdims, &model, &d) == BYOC_OK, "%s", d.message);
    byoc_node *in = input_of(model.module, BYOC_FLOAT32, 4, xdims, x);
    CHECKF(evaluates_to(model.module, &in, 1, want, 4, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&model);
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
        TEST_ENTRY(test_grid_sample_dtypes),
        TEST_ENTRY(test_roi_align),
        TEST_ENTRY(test_roi_align_float64),
        TEST_ENTRY(test_max_unpool),
        TEST_ENTRY(test_onnx_upsample_and_resize10),
        TEST_ENTRY(test_onnx_resize_inputs),
        TEST_ENTRY(test_onnx_roi_align_opsets),
        TEST_ENTRY(test_onnx_max_unpool_pads),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
