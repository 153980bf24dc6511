/* Tests of the fused quantized convolution: FuseOps puts qnn.conv2d [+ nn.bias_add] + qnn.requantize in one
   group, byoc_sim.h runs it as one kernel (the int32 blocks biased and requantized while in cache), and its
   8-bit result is byte for byte the one the same program gives op by op (fused tiling off: the qnn.conv2d,
   nn.bias_add and qnn.requantize kernels on their own). Shapes cover several pixel blocks with a short last
   one, channel counts that are not multiples of a tile, groups, strides, padding, the pointwise path, every
   rounding of qnn.requantize, per-tensor and per-channel parameters, int8 and uint8 results, and every int8
   GEMM path this CPU runs (BYOC_INT8_ISA). And the 8-bit max pools of the same models against the window
   maxima taken here. */
#define _POSIX_C_SOURCE 200112L /* setenv */
#include "byoc_sim.h"
#include "test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 12345;
static uint32_t rnd(uint32_t n) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) % n);
}

typedef struct case_inputs {
    byoc_tensor t[8];
    int n;
} case_inputs;

/* random inputs of @main's parameter types: 8-bit data over the whole range, int32 biases in [-3000, 3000],
   float scales in (0.0005, 0.0105] */
static int make_inputs(byoc_module *m, case_inputs *in) {
    const byoc_node *fn = byoc_module_function(m, "main");
    memset(in, 0, sizeof *in);
    in->n = fn->nparams;
    for (int i = 0; i < in->n; ++i) {
        const byoc_type *ty = fn->params[i]->checked_type;
        if (!ty || ty->kind != BYOC_TYPE_TENSOR) return 0;
        byoc_tensor *t = &in->t[i];
        memset(t, 0, sizeof *t);
        t->dtype = ty->dtype;
        t->rank = ty->rank;
        for (int d = 0; d < ty->rank; ++d) t->dims[d] = ty->dims[d];
        int64_t count = byoc_type_num_elements(ty);
        size_t es = byoc_dtype_size(ty->dtype);
        unsigned char *data = (unsigned char *)malloc((size_t)count * es + 1);
        if (!data) return 0;
        for (int64_t e = 0; e < count; ++e) {
            if (ty->dtype == BYOC_INT32) {
                int32_t v = (int32_t)rnd(6001) - 3000;
                memcpy(data + e * 4, &v, 4);
            } else if (ty->dtype == BYOC_FLOAT32) {
                float v = 0.0005f + (float)(rnd(1000) + 1) * 0.00001f;
                memcpy(data + e * 4, &v, 4);
            } else {
                data[e] = (unsigned char)rnd(256);
            }
        }
        t->data = data;
    }
    return 1;
}

/* the program lowered with or without fused groups, run once; its output copied into *out (malloc'd); the
   number of kernels whose op list is the fused group's in *fused */
static int run_once(byoc_module *m, int no_fused_tiling, const case_inputs *in, unsigned char **out, size_t *bytes,
                    int *fused) {
    byoc_diag d;
    byoc_sim_options opt;
    memset(&opt, 0, sizeof opt);
    opt.no_fused_tiling = no_fused_tiling;
    byoc_sim_program *p = byoc_sim_lower(m, &opt, &d);
    if (!p) { fprintf(stderr, "lower: %s\n", d.message); return 0; }
    *fused = 0;
    for (int i = 0; i < byoc_sim_kernel_count(p); ++i) {
        const byoc_sim_kernel_info *k = byoc_sim_kernel(p, i);
        *fused += strstr(k->ops, "qnn.conv2d") && strstr(k->ops, "qnn.requantize") &&
                  !strcmp(byoc_sim_exec_name(k->exec), "anchor");
    }
    byoc_tensor o;
    memset(&o, 0, sizeof o);
    byoc_result r = byoc_sim_run(p, in->t, in->n, &o, 1, &d);
    if (r != BYOC_OK) {
        fprintf(stderr, "run: %s\n", d.message);
        byoc_sim_program_destroy(p);
        return 0;
    }
    size_t count = 1;
    for (int i = 0; i < o.rank; ++i) count *= (size_t)o.dims[i];
    *bytes = count * byoc_dtype_size(o.dtype);
    *out = (unsigned char *)malloc(*bytes + 1);
    if (*out) memcpy(*out, o.data, *bytes);
    byoc_sim_program_destroy(p);
    return *out != NULL;
}

/* one module: fused and unfused runs on the same inputs give the same bytes; *saturated counts the results at
   either end of the output dtype's range (the cases are made so that the clamp is exercised) */
static void check_case(const char *text, int want_fused, int *saturated) {
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, strlen(text), "qfused.relay", NULL, &d);
    CHECKF(m != NULL, "%s", d.message);
    if (!m) return;
    CHECKF(byoc_fuse_ops(m, 256, &d) == BYOC_OK, "%s", d.message);
    case_inputs in;
    CHECK(make_inputs(m, &in));
    static const char *const isas[4] = {"", "portable", "avx2", "avxvnni"};
    for (int isa = 0; isa < 4; ++isa) {
        if (*isas[isa]) setenv("BYOC_INT8_ISA", isas[isa], 1);
        else unsetenv("BYOC_INT8_ISA");
        unsigned char *fused = NULL, *plain = NULL;
        size_t nf = 0, np = 0;
        int kf = 0, kp = 0;
        int ok_f = run_once(m, 0, &in, &fused, &nf, &kf);
        if (!ok_f && *isas[isa]) { free(fused); continue; } /* this CPU or build does not run that path */
        CHECKF(ok_f, "the fused program (BYOC_INT8_ISA=%s) did not run", isas[isa]);
        CHECK(run_once(m, 1, &in, &plain, &np, &kp));
        CHECKF(kf == want_fused, "%d fused qnn.conv2d kernels, want %d", kf, want_fused);
        CHECK(kp == 0);
        CHECK(nf == np && nf > 0);
        int same = nf == np && fused && plain && !memcmp(fused, plain, nf);
        for (size_t i = 0; !same && fused && plain && i < nf && i < np; ++i)
            if (fused[i] != plain[i]) {
                CHECKF(0, "BYOC_INT8_ISA=%s: byte %zu is %u fused, %u op by op", isas[isa], i, fused[i], plain[i]);
                break;
            }
        for (size_t i = 0; isa == 0 && fused && i < nf; ++i) *saturated += fused[i] == 0 || fused[i] == 255 ||
                                                                           fused[i] == 127 || fused[i] == 128;
        free(fused);
        free(plain);
    }
    unsetenv("BYOC_INT8_ISA");
    for (int i = 0; i < in.n; ++i) free(in.t[i].data);
    byoc_module_destroy(m);
}

static void test_fused_matches_op_by_op(void) {
    int saturated = 0;
    /* 3x3, padding 1: 2025 pixels, two blocks of the 40 channels; per-channel float32 requantize, uint8 */
    check_case("def @main(%x: Tensor[(1, 8, 45, 45), uint8], %w: Tensor[(40, 8, 3, 3), int8], "
               "%wz: Tensor[(40), int8], %ws: Tensor[(40), float32], %b: Tensor[(40), int32], "
               "%rs: Tensor[(40), float32]) {\n"
               "  %0 = qnn.conv2d(%x, %w, 3u8, %wz, 0.05f, %ws, padding=[1, 1, 1, 1], channels=40, "
               "kernel_size=[3, 3]);\n"
               "  %1 = nn.bias_add(%0, %b);\n"
               "  qnn.requantize(%1, %rs, 0, 0.25f, 7u8, axis=1, rounding=\"TONEAREST_EVEN\", "
               "compute_dtype=\"float32\", out_dtype=\"uint8\")\n}",
               1, &saturated);
    /* pointwise, 200 channels: blocks of 320 of the 2304 pixels; int8 data, int8 result, zero points inside */
    check_case("def @main(%x: Tensor[(1, 16, 48, 48), int8], %w: Tensor[(200, 16, 1, 1), int8], "
               "%ws: Tensor[(200), float32], %b: Tensor[(200), int32], %rs: Tensor[(200), float32]) {\n"
               "  %0 = qnn.conv2d(%x, %w, -5i8, 0i8, 0.05f, %ws, channels=200, kernel_size=[1, 1]);\n"
               "  %1 = nn.bias_add(%0, %b);\n"
               "  qnn.requantize(%1, %rs, 3, 0.1f, -9i8, axis=1, rounding=\"TONEAREST_EVEN\", "
               "compute_dtype=\"float32\", out_dtype=\"int8\")\n}",
               1, &saturated);
    /* groups, stride 2, asymmetric padding, no bias; TFLite's fixed point (what --fixed-point-requantize sets) */
    check_case("def @main(%x: Tensor[(2, 6, 23, 19), uint8], %w: Tensor[(10, 3, 3, 2), uint8]) {\n"
               "  %0 = qnn.conv2d(%x, %w, 128u8, 120u8, 0.02f, 0.01f, strides=[2, 2], padding=[1, 0, 2, 1], "
               "groups=2, channels=10, kernel_size=[3, 2]);\n"
               "  qnn.requantize(%0, 0.0002f, 0, 0.05f, 100u8, rounding=\"TFLITE\", compute_dtype=\"int64\", "
               "out_dtype=\"uint8\")\n}",
               1, &saturated);
    /* float64 with rounding UPWARD, and a nonzero requantize input zero point, per tensor */
    check_case("def @main(%x: Tensor[(1, 5, 17, 17), uint8], %w: Tensor[(33, 5, 5, 5), int8], "
               "%b: Tensor[(33), int32]) {\n"
               "  %0 = qnn.conv2d(%x, %w, 0u8, 0i8, 0.03f, 0.002f, padding=[2, 2, 2, 2], dilation=[1, 1], "
               "channels=33, kernel_size=[5, 5]);\n"
               "  %1 = nn.bias_add(%0, %b);\n"
               "  qnn.requantize(%1, 0.00006f, -40, 0.02f, -1i8, rounding=\"UPWARD\", compute_dtype=\"float64\", "
               "out_dtype=\"int8\")\n}",
               1, &saturated);
    CHECKF(saturated > 0, "no result saturated: the cases do not reach the clamp");
}

/* a group the fused kernel does not take (the requantize runs along another axis) stays op by op, correct */
static void test_unfusable_group_stays_op_by_op(void) {
    int saturated = 0;
    check_case("def @main(%x: Tensor[(1, 4, 6, 6), uint8], %w: Tensor[(6, 4, 1, 1), int8], "
               "%rs: Tensor[(6), float32]) {\n"
               "  %0 = qnn.conv2d(%x, %w, 0u8, 0i8, 0.05f, 0.01f, channels=6, kernel_size=[1, 1]);\n"
               "  qnn.requantize(%0, %rs, 0, 0.02f, 0u8, axis=3, rounding=\"TONEAREST_EVEN\", "
               "compute_dtype=\"float32\", out_dtype=\"uint8\")\n}",
               0, &saturated);
}

/* nn.max_pool2d on 8-bit data (the quantized models' pools: rows of vectors, their last 16 lanes again, the first
   two rows and taps at once) against the window's maximum taken here, padding never winning */
static void check_max_pool(byoc_dtype dt, int H, int W, int k, int s, int d, const int pad[4]) {
    char text[512];
    const char *name = dt == BYOC_UINT8 ? "uint8" : "int8";
    snprintf(text, sizeof text,
             "def @main(%%x: Tensor[(2, 3, %d, %d), %s]) {\n  nn.max_pool2d(%%x, pool_size=[%d, %d], "
             "strides=[%d, %d], dilation=[%d, %d], padding=[%d, %d, %d, %d])\n}",
             H, W, name, k, k, s, s, d, d, pad[0], pad[1], pad[2], pad[3]);
    byoc_diag diag;
    byoc_module *m = byoc_module_parse(text, strlen(text), "pool.relay", NULL, &diag);
    CHECKF(m != NULL, "%s", diag.message);
    if (!m) return;
    CHECKF(byoc_infer_type(m, &diag) == BYOC_OK, "%s", diag.message);
    case_inputs in;
    CHECK(make_inputs(m, &in));
    unsigned char *out = NULL;
    size_t bytes = 0;
    int fused = 0;
    CHECK(run_once(m, 0, &in, &out, &bytes, &fused));
    int OH = (H + pad[0] + pad[2] - d * (k - 1) - 1) / s + 1, OW = (W + pad[1] + pad[3] - d * (k - 1) - 1) / s + 1;
    CHECK(bytes == (size_t)(6 * OH * OW));
    const unsigned char *x = (const unsigned char *)in.t[0].data;
    int bad = 0;
    for (int p = 0; out && bytes == (size_t)(6 * OH * OW) && p < 6; ++p)
        for (int oy = 0; oy < OH; ++oy)
            for (int ox = 0; ox < OW; ++ox) {
                int best = dt == BYOC_UINT8 ? 0 : -128;
                for (int ky = 0; ky < k; ++ky)
                    for (int kx = 0; kx < k; ++kx) {
                        int iy = oy * s - pad[0] + ky * d, ix = ox * s - pad[1] + kx * d;
                        if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                        unsigned char raw = x[(p * H + iy) * W + ix];
                        int v = dt == BYOC_UINT8 ? raw : (int)(signed char)raw;
                        best = v > best ? v : best;
                    }
                unsigned char got = out[(p * OH + oy) * OW + ox];
                bad += (dt == BYOC_UINT8 ? got : (int)(signed char)got) != best;
            }
    CHECKF(bad == 0, "%s: %d of %d maxima wrong (%dx%d, k %d, s %d, d %d)", name, bad, 6 * OH * OW, H, W, k, s, d);
    free(out);
    for (int i = 0; i < in.n; ++i) free(in.t[i].data);
    byoc_module_destroy(m);
}

static void test_8bit_max_pools(void) {
    static const int none[4] = {0, 0, 0, 0}, one[4] = {1, 1, 1, 1}, uneven[4] = {0, 2, 1, 0};
    for (int t = 0; t < 2; ++t) {
        byoc_dtype dt = t ? BYOC_INT8 : BYOC_UINT8;
        check_max_pool(dt, 111, 111, 3, 2, 1, none); /* SqueezeNet's first pool: rows of 111 */
        check_max_pool(dt, 13, 13, 3, 2, 1, none);   /* rows shorter than a vector */
        check_max_pool(dt, 20, 37, 2, 1, 1, one);    /* padding on every side */
        check_max_pool(dt, 19, 40, 3, 3, 2, uneven); /* dilation, stride 3, uneven padding */
        check_max_pool(dt, 9, 33, 1, 1, 1, none);    /* a 1x1 window */
    }
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_fused_matches_op_by_op),
        TEST_ENTRY(test_unfusable_group_stays_op_by_op),
        TEST_ENTRY(test_8bit_max_pools),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
