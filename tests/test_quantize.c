/* tools/byoc_quantize.h through its public API: NULL arguments, .npy parsing, and the quantization of a
   small ONNX model built here byte by byte (x[1,4] -> Gemm(W[4,3], B[3]) -> Relu -> y): the weight is int8,
   the bias int32, the Relu fused into the Gemm's output range, and the quantized model (imported by
   byoc_onnx.h and run by byoc_sim.h) gives the float model's outputs within one step of y's scale; the
   calibration range of x is exact (minmax), samples split along the leading dim, and mismatched samples
   are refused naming the file and the input. Links the library compiled once. */
#include "../byoc_sim.h"
#include "../tools/byoc_onnx.h"
#include "../tools/byoc_quantize.h"
#include "test.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* ---- a protobuf writer just big enough for the test model ---- */
typedef struct pb {
    uint8_t b[4096];
    size_t n;
} pb;

static void pb_raw(pb *p, const void *d, size_t n) {
    if (p->n + n <= sizeof p->b) memcpy(p->b + p->n, d, n);
    p->n += n;
}
static void pb_varint(pb *p, uint64_t v) {
    do {
        uint8_t c = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        pb_raw(p, &c, 1);
        v >>= 7;
    } while (v);
}
static void pb_int(pb *p, unsigned field, int64_t v) {
    pb_varint(p, (uint64_t)field << 3);
    pb_varint(p, (uint64_t)v);
}
static void pb_bytes(pb *p, unsigned field, const void *d, size_t n) {
    pb_varint(p, (uint64_t)field << 3 | 2);
    pb_varint(p, n);
    pb_raw(p, d, n);
}
static void pb_str(pb *p, unsigned field, const char *s) { pb_bytes(p, field, s, strlen(s)); }
static void pb_msg(pb *p, unsigned field, const pb *inner) { pb_bytes(p, field, inner->b, inner->n); }

static void pb_float_tensor(pb *g, const char *name, int rank, const int64_t *dims, const float *v, int count) {
    pb t = {{0}, 0};
    for (int d = 0; d < rank; ++d) pb_int(&t, 1, dims[d]);
    pb_int(&t, 2, 1);
    pb_str(&t, 8, name);
    pb_bytes(&t, 9, v, (size_t)count * 4); /* little-endian hosts: the raw bytes are the floats */
    pb_msg(g, 5, &t);
}

static void pb_value_info(pb *g, unsigned field, const char *name, int rank, const int64_t *dims) {
    pb shape = {{0}, 0}, tensor = {{0}, 0}, type = {{0}, 0}, vi = {{0}, 0};
    for (int d = 0; d < rank; ++d) {
        pb dim = {{0}, 0};
        pb_int(&dim, 1, dims[d]);
        pb_msg(&shape, 1, &dim);
    }
    pb_int(&tensor, 1, 1);
    pb_msg(&tensor, 2, &shape);
    pb_msg(&type, 1, &tensor);
    pb_str(&vi, 1, name);
    pb_msg(&vi, 2, &type);
    pb_msg(g, field, &vi);
}

static void pb_node(pb *g, const char *op, const char *a, const char *b, const char *c, const char *out) {
    pb n = {{0}, 0};
    const char *in[3] = {a, b, c};
    for (int k = 0; k < 3; ++k)
        if (in[k]) pb_str(&n, 1, in[k]);
    pb_str(&n, 2, out);
    pb_str(&n, 3, out);
    pb_str(&n, 4, op);
    pb_msg(g, 1, &n);
}

static const float W[12] = {0.5f, -1.0f, 0.25f, 1.0f, 0.5f, -0.5f, -0.25f, 1.5f, 0.75f, 2.0f, -2.0f, 0.125f};
static const float B[3] = {0.1f, -0.2f, 0.3f};

/* x[1,4] -> Gemm(W, B) -> g -> Relu -> y, opset 13, with a doc string and a metadata entry to keep */
static size_t test_model(uint8_t *out, size_t cap) {
    pb g = {{0}, 0}, m = {{0}, 0}, opset = {{0}, 0}, meta = {{0}, 0};
    int64_t xd[2] = {1, 4}, wd[2] = {4, 3}, bd[1] = {3}, yd[2] = {1, 3};
    pb_node(&g, "Gemm", "x", "W", "B", "g");
    pb_node(&g, "Relu", "g", NULL, NULL, "y");
    pb_str(&g, 2, "tiny");
    pb_float_tensor(&g, "W", 2, wd, W, 12);
    pb_float_tensor(&g, "B", 1, bd, B, 3);
    pb_value_info(&g, 11, "x", 2, xd);
    pb_value_info(&g, 12, "y", 2, yd);
    pb_int(&m, 1, 8);
    pb_str(&m, 2, "test_quantize");
    pb_str(&m, 6, "a doc string kept as it is");
    pb_msg(&m, 7, &g);
    pb_str(&opset, 1, "");
    pb_int(&opset, 2, 13);
    pb_msg(&m, 8, &opset);
    pb_str(&meta, 1, "origin");
    pb_str(&meta, 2, "test_quantize.c");
    pb_msg(&m, 14, &meta);
    if (m.n <= cap) memcpy(out, m.b, m.n);
    return m.n;
}

static void float_reference(const float *x, float *y) {
    for (int j = 0; j < 3; ++j) {
        float s = B[j];
        for (int k = 0; k < 4; ++k) s += x[k] * W[k * 3 + j];
        y[j] = s > 0 ? s : 0;
    }
}

static int contains(const uint8_t *hay, size_t n, const char *needle) {
    size_t len = strlen(needle);
    for (size_t i = 0; i + len <= n; ++i)
        if (!memcmp(hay + i, needle, len)) return 1;
    return 0;
}

static void test_null_arguments(void) {
    byoc_diag d;
    byoc_quantize_result r;
    byoc_quantize_options o;
    memset(&o, 0, sizeof o);
    CHECK(byoc_quantize_onnx(NULL, 0, "m", &o, &r, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "byoc_quantize_onnx: model is NULL");
    CHECK(byoc_quantize_onnx("x", 1, "m", NULL, &r, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "options is NULL");
    CHECK(byoc_quantize_onnx("x", 1, "m", &o, NULL, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "out is NULL");
    byoc_tensor t;
    CHECK(byoc_quantize_npy_parse(NULL, 0, "a.npy", NULL, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK(byoc_quantize_npy_parse(NULL, 5, "a.npy", &t, &d) == BYOC_ERR_INVALID_ARGUMENT);
    byoc_quantize_calibration c;
    CHECK(byoc_quantize_calibration_read(NULL, &c, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "dir is NULL");
    CHECK(byoc_quantize_calibration_read("/nonexistent-dir", NULL, &d) == BYOC_ERR_INVALID_ARGUMENT);
    byoc_quantize_result_free(NULL);
    byoc_quantize_calibration_free(NULL);
    byoc_quantize_method m = BYOC_QUANTIZE_MINMAX;
    CHECK(byoc_quantize_method_parse("entropy", &m) && m == BYOC_QUANTIZE_ENTROPY);
    CHECK(!byoc_quantize_method_parse("median", &m) && !byoc_quantize_method_parse(NULL, &m));
    CHECK(!strcmp(byoc_quantize_method_name(BYOC_QUANTIZE_PERCENTILE), "percentile"));
}

static void test_npy_parse(void) {
    const char header[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    uint8_t file[256];
    size_t hlen = 118 - 10; /* the header padded so data starts at 128 bytes, as numpy writes it */
    memcpy(file, "\x93NUMPY\x01\x00", 8);
    file[8] = (uint8_t)hlen;
    file[9] = 0;
    memset(file + 10, ' ', hlen);
    memcpy(file + 10, header, strlen(header));
    file[10 + hlen - 1] = '\n';
    float v[6] = {1, 2, 3, 4, 5, 6.5f};
    memcpy(file + 10 + hlen, v, sizeof v);
    byoc_tensor t;
    byoc_diag d;
    CHECKF(byoc_quantize_npy_parse(file, 10 + hlen + sizeof v, "a.npy", &t, &d) == BYOC_OK, "%s", d.message);
    CHECK(t.dtype == BYOC_FLOAT32 && t.rank == 2 && t.dims[0] == 2 && t.dims[1] == 3);
    CHECK(((float *)t.data)[5] == 6.5f);
    free(t.data);
    CHECK(byoc_quantize_npy_parse(file, 10 + hlen + sizeof v - 4, "short.npy", &t, &d) == BYOC_ERR_CORRUPT);
    CHECK_CONTAINS(d.message, "short.npy: .npy holds 20 data bytes, its shape needs 24");
    CHECK(byoc_quantize_npy_parse("PK\x03\x04 not npy", 14, "b.npy", &t, &d) == BYOC_ERR_CORRUPT);
    CHECK_CONTAINS(d.message, "b.npy: not a .npy file");
    memcpy(file + 10 + 11, "<c8", 3); /* complex64 */
    CHECK(byoc_quantize_npy_parse(file, 10 + hlen + sizeof v, "c.npy", &t, &d) == BYOC_ERR_UNSUPPORTED);
    CHECK_CONTAINS(d.message, "c.npy: .npy dtype");
}

/* runs a model's bytes on x through byoc_onnx.h and byoc_sim.h */
static int run_model(const uint8_t *bytes, size_t n, const float *x, float *y, byoc_diag *d) {
    byoc_onnx_model m;
    if (byoc_onnx_import(bytes, n, "q.onnx", NULL, &m, d) != BYOC_OK) return 0;
    byoc_sim_program *p = byoc_sim_lower(m.module, NULL, d);
    byoc_tensor in = {BYOC_FLOAT32, 2, {1, 4}, (void *)x}, out;
    int ok = p && byoc_sim_run(p, &in, 1, &out, 1, d) == BYOC_OK && out.dtype == BYOC_FLOAT32;
    if (ok) memcpy(y, out.data, 3 * sizeof(float));
    if (p) byoc_sim_program_destroy(p);
    byoc_onnx_model_free(&m);
    return ok;
}

static void test_quantize_gemm_relu(void) {
    uint8_t model[4096];
    size_t n = test_model(model, sizeof model);
    /* x spans [0, 2.55] over the two samples: uint8 scale 0.01, zero point 0 */
    float x0[4] = {0.0f, 0.5f, 1.0f, 2.55f}, x1[4] = {0.25f, 2.0f, 0.75f, 1.5f};
    byoc_tensor samples[2] = {{BYOC_FLOAT32, 2, {1, 4}, x0}, {BYOC_FLOAT32, 2, {1, 4}, x1}};
    for (int per_channel = 0; per_channel < 2; ++per_channel)
        for (int method = 0; method < 3; ++method) {
            byoc_quantize_options o;
            memset(&o, 0, sizeof o);
            o.samples = samples;
            o.nsamples = 2;
            o.ninputs = 1;
            o.per_channel = per_channel;
            o.method = (byoc_quantize_method)method;
            byoc_quantize_result r;
            byoc_diag d;
            CHECKF(byoc_quantize_onnx(model, n, "tiny.onnx", &o, &r, &d) == BYOC_OK, "%s", d.message);
            CHECKF(r.weights == 1 && r.biases == 1 && r.nodes_removed == 1 && r.qdq_pairs == 2 && r.samples == 2,
                   "%s", r.summary);
            CHECK(r.opset_in == 13 && r.opset_out == 13);
            CHECK_CONTAINS(r.summary, "fused into their producer: Relu x1");
            /* kept as they were: the doc string, the metadata, the producer */
            CHECK(contains(r.bytes, r.size, "a doc string kept as it is") && contains(r.bytes, r.size, "origin"));
            CHECK(contains(r.bytes, r.size, "W_quantized") && contains(r.bytes, r.size, "B_quantized"));
            CHECK(contains(r.bytes, r.size, "x_QuantizeLinear_Output"));
            float yq[3], yf[3];
            for (int s = 0; s < 2; ++s) {
                const float *x = s ? x1 : x0;
                CHECKF(run_model(r.bytes, r.size, x, yq, &d), "%s", d.message);
                float_reference(x, yf);
                float ymax = 0; /* y's scale is at most max(y) / 255 over the samples: allow two steps */
                for (int j = 0; j < 3; ++j) ymax = yf[j] > ymax ? yf[j] : ymax;
                for (int j = 0; j < 3; ++j)
                    CHECKF(fabsf(yq[j] - yf[j]) <= 2 * 7.0f / 255 + 0.02f * ymax,
                           "method %d per-channel %d sample %d y[%d] %g, float %g", method, per_channel, s, j,
                           (double)yq[j], (double)yf[j]);
                for (int j = 0; j < 3; ++j) CHECK(yq[j] >= 0); /* the fused Relu: the range starts at 0 */
            }
            byoc_quantize_result_free(&r);
        }
}

/* the result's per-node and per-tensor lists (byocc quantize --json prints them): x's calibrated range [0, 2.55]
   gives uint8 scale 0.01 and zero point 0; the Gemm is quantized and the Relu after it fused away */
static void test_result_lists(void) {
    uint8_t model[4096];
    size_t n = test_model(model, sizeof model);
    float x0[4] = {0.0f, 0.5f, 1.0f, 2.55f}, x1[4] = {0.25f, 2.0f, 0.75f, 1.5f};
    byoc_tensor samples[2] = {{BYOC_FLOAT32, 2, {1, 4}, x0}, {BYOC_FLOAT32, 2, {1, 4}, x1}};
    byoc_quantize_options o;
    memset(&o, 0, sizeof o);
    o.samples = samples;
    o.nsamples = 2;
    o.ninputs = 1;
    byoc_quantize_result r;
    byoc_diag d;
    CHECKF(byoc_quantize_onnx(model, n, "tiny.onnx", &o, &r, &d) == BYOC_OK, "%s", d.message);
    CHECK(r.nodes != NULL && r.nranges == r.qdq_pairs);
    int quantized = 0, fused = 0;
    for (int i = 0; i < r.nodes_in; ++i) {
        const byoc_quantize_node_info *node = &r.nodes[i];
        CHECK(node->name && node->op);
        if (node->quantized) CHECKF(!strcmp(node->op, "Gemm") && !node->fused, "%s", node->op);
        if (node->fused) CHECK(!strcmp(node->op, "Relu"));
        CHECK((node->float_reason != NULL) == (!node->quantized && !node->fused));
        quantized += node->quantized;
        fused += node->fused;
    }
    CHECK(quantized == r.nodes_quantized && fused == r.nodes_removed && fused == 1);
    const byoc_quantize_range *x = NULL;
    for (int i = 0; i < r.nranges; ++i) {
        CHECK(r.ranges[i].rmin <= r.ranges[i].rmax && r.ranges[i].scale > 0 && !r.ranges[i].shares);
        if (!strcmp(r.ranges[i].tensor, "x")) x = &r.ranges[i];
    }
    CHECK(x != NULL);
    if (x) {
        CHECKF(x->seen_min == 0 && fabs(x->seen_max - 2.55) < 1e-6 && x->rmin == x->seen_min && x->rmax == x->seen_max,
               "x seen [%g, %g], range [%g, %g]", x->seen_min, x->seen_max, x->rmin, x->rmax);
        CHECKF(fabsf(x->scale - 0.01f) < 1e-6f && x->zero_point == 0 && !x->fixed, "x scale %g zero point %d",
               (double)x->scale, x->zero_point);
    }
    byoc_quantize_result_free(&r);
    CHECK(r.nodes == NULL && r.ranges == NULL && r.nranges == 0);
}

static void test_samples_checked_and_split(void) {
    uint8_t model[4096];
    size_t n = test_model(model, sizeof model);
    float x[12] = {0, 1, 2, 3, 1, 1, 1, 1, 2, 0, 2, 0};
    int64_t xi[4] = {0, 1, 2, 3};
    byoc_tensor stacked = {BYOC_FLOAT32, 2, {3, 4}, x}, ints = {BYOC_INT64, 2, {1, 4}, xi};
    byoc_tensor wide = {BYOC_FLOAT32, 2, {1, 12}, x};
    const char *labels[1] = {"cal/input_0.npy"};
    byoc_quantize_options o;
    memset(&o, 0, sizeof o);
    o.samples = &stacked;
    o.nsamples = 1;
    o.ninputs = 1;
    o.sample_labels = labels;
    byoc_quantize_result r;
    byoc_diag d;
    CHECKF(byoc_quantize_onnx(model, n, "tiny.onnx", &o, &r, &d) == BYOC_OK, "%s", d.message);
    CHECK(r.samples == 3); /* (3, 4) for an input (1, 4): three samples */
    byoc_quantize_result_free(&r);
    o.samples = &ints;
    CHECK(byoc_quantize_onnx(model, n, "tiny.onnx", &o, &r, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "cal/input_0.npy: int64 (1, 4), but input 'x' of tiny.onnx is float32 (1, 4)");
    CHECK(r.bytes == NULL && r.summary == NULL);
    o.samples = &wide;
    CHECK(byoc_quantize_onnx(model, n, "tiny.onnx", &o, &r, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "shape (1, 12) does not fit input 'x' of tiny.onnx (1, 4)");
    o.samples = &stacked;
    o.ninputs = 2;
    o.nsamples = 0;
    CHECK(byoc_quantize_onnx(model, n, "tiny.onnx", &o, &r, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "the calibration samples give 2 inputs, the model has 1 ('x')");
    o.ninputs = 1;
    o.activation_type = BYOC_INT16;
    o.nsamples = 1;
    CHECK(byoc_quantize_onnx(model, n, "tiny.onnx", &o, &r, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "activation type int16 is not uint8 or int8");
    o.activation_type = BYOC_INT8;
    CHECKF(byoc_quantize_onnx(model, n, "tiny.onnx", &o, &r, &d) == BYOC_OK, "%s", d.message);
    byoc_quantize_result_free(&r);
    CHECK(byoc_quantize_onnx("\x08\x07garbage", 9, "junk.onnx", &o, &r, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "junk.onnx");
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_null_arguments),
        TEST_ENTRY(test_npy_parse),
        TEST_ENTRY(test_quantize_gemm_relu),
        TEST_ENTRY(test_samples_checked_and_split),
        TEST_ENTRY(test_result_lists),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
