/* Unit tests for the qnn dialect: qnn.quantize, qnn.dequantize, qnn.requantize, qnn.conv2d, qnn.dense,
   qnn.batch_matmul and qnn.matmul, and the ONNX converters on them. Each op is parsed from Relay text with
   its scales and zero points as parameters, typed, evaluated with byoc_module_evaluate and compared with
   the ONNX operator docs' examples or values worked out by hand (the convolution also against a direct
   loop); each has a type error and a print/parse round trip. */
#include "byoc.h"
#include "tools/byoc_onnx.h"
#include "test.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "ops_test.h"

/* ---- tests ---- */
static void test_quantize(void) {
    /* the ONNX QuantizeLinear example: saturation at both ends of uint8 */
    const double x[6] = {0, 2, 3, 1000, -254, -1000}, scale[1] = {2}, zp[1] = {128};
    const double *in[3] = {x, scale, zp};
    const double want[6] = {128, 129, 130, 255, 1, 0};
    run_result r = run("def @main(%x: Tensor[(6), float32], %s: Tensor[(), float32], %z: Tensor[(), uint8]) {\n"
                       "  qnn.quantize(%x, %s, %z, out_dtype=\"uint8\")\n}",
                       in);
    CHECK_RUN(r, want, 6, 0);
    CHECK(r.out->annotation->dtype == BYOC_UINT8);
    CHECK_ROUND_TRIP(r);
    /* ties go to even: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -0.5 -> 0, -1.5 -> -2; int8 */
    const double ties[5] = {1, 3, 5, -1, -3}, zero[1] = {0};
    const double *tin[3] = {ties, scale, zero};
    const double want_ties[5] = {0, 2, 2, 0, -2};
    r = run("def @main(%x: Tensor[(5), float32], %s: Tensor[(1), float32], %z: Tensor[(1), int8]) {\n"
            "  qnn.quantize(%x, %s, %z)\n}",
            tin);
    CHECK_RUN(r, want_ties, 5, 0);
    byoc_module_destroy(r.m);
    /* per axis (axis 1 of (1, 3, 2)): scales 1, 2, 4 and zero points 0, 1, -2 */
    const double px[6] = {3, -3, 3, -3, 10, -10}, ps[3] = {1, 2, 4}, pz[3] = {0, 1, -2};
    const double *pin[3] = {px, ps, pz};
    const double want_axis[6] = {3, -3, 3, -1, 0, -4}; /* 1.5 -> 2, -1.5 -> -2, 2.5 -> 2, -2.5 -> -2 */
    r = run("def @main(%x: Tensor[(1, 3, 2), float32], %s: Tensor[(3), float32], %z: Tensor[(3), int8]) {\n"
            "  qnn.quantize(%x, %s, %z, axis=1)\n}",
            pin);
    CHECK_RUN(r, want_axis, 6, 0);
    CHECK_ROUND_TRIP(r);
    /* blocks of 2 along axis 1 of (2, 4): scale (2, 2), int16 result */
    const double bx[8] = {1, 2, 3, 4, 5, 6, 7, 8}, bs[4] = {1, 2, 0.5, 4}, bz[4] = {0, 0, 0, 100};
    const double *bin[3] = {bx, bs, bz};
    const double want_blocks[8] = {1, 2, 2, 2, 10, 12, 102, 102};
    r = run("def @main(%x: Tensor[(2, 4), float32], %s: Tensor[(2, 2), float32], %z: Tensor[(2, 2), int16]) {\n"
            "  qnn.quantize(%x, %s, %z, axis=1, out_dtype=\"int16\", block_size=2)\n}",
            bin);
    CHECK_RUN(r, want_blocks, 8, 0);
    CHECK_ROUND_TRIP(r);
    /* int32 results saturate at both ends (float32 cannot hold 2^31 - 1: the bound is clamped again) */
    const double bigx[3] = {1e10, -1e10, 1000}, unit[1] = {1}, zero32[1] = {0};
    const double *big_in[3] = {bigx, unit, zero32};
    const double want_big[3] = {2147483647.0, -2147483648.0, 1000};
    r = run("def @main(%x: Tensor[(3), float32], %s: Tensor[(), float32], %z: Tensor[(), int32]) {\n"
            "  qnn.quantize(%x, %s, %z, out_dtype=\"int32\")\n}",
            big_in);
    CHECK_RUN(r, want_big, 3, 0);
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(4), float32], %s: Tensor[(), int32], %z: Tensor[(), int8]) {\n"
                     "  qnn.quantize(%x, %s, %z)\n}",
                     "output_scale must be a float tensor, got int32");
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2, 4), float32], %s: Tensor[(3), float32], %z: Tensor[(), int8]) {\n"
                     "  qnn.quantize(%x, %s, %z, axis=1)\n}",
                     "it must have one element or be 1-D with the 4 elements of axis 1");
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(4), float32], %s: Tensor[(), float32], %z: Tensor[(), int8]) {\n"
                     "  qnn.quantize(%x, %s, %z, out_dtype=\"float32\")\n}",
                     "out_dtype \"float32\" is not int8, uint8, int16, uint16 or int32");
}

static void test_dequantize(void) {
    /* the ONNX DequantizeLinear example */
    const double x[4] = {0, 3, 128, 255}, scale[1] = {2}, zp[1] = {128};
    const double *in[3] = {x, scale, zp};
    const double want[4] = {-256, -250, 0, 254};
    const double *in_f16[2] = {x, zp};
    run_result r = run("def @main(%x: Tensor[(4), uint8], %s: Tensor[(), float32], %z: Tensor[(), uint8]) {\n"
                       "  qnn.dequantize(%x, %s, %z)\n}",
                       in);
    CHECK_RUN(r, want, 4, 0);
    CHECK_ROUND_TRIP(r);
    /* per axis on int32 data; then a float16 result from a float16 scale */
    const double ix[4] = {-7, 100000, 6, -1}, is[2] = {0.5, 0.25}, iz[2] = {1, -2};
    const double *iin[3] = {ix, is, iz};
    const double want_axis[4] = {-4, 49999.5, 2, 0.25};
    r = run("def @main(%x: Tensor[(2, 2), int32], %s: Tensor[(2), float32], %z: Tensor[(2), int32]) {\n"
            "  qnn.dequantize(%x, %s, %z, axis=0)\n}",
            iin);
    CHECK_RUN(r, want_axis, 4, 0);
    byoc_module_destroy(r.m);
    r = run("def @main(%x: Tensor[(4), uint8], %z: Tensor[(), uint8]) {\n"
            "  %0 = qnn.dequantize(%x, 2f16, %z, out_dtype=\"float16\");\n"
            "  cast(%0, dtype=\"float32\")\n}",
            in_f16);
    CHECK_RUN(r, want, 4, 0);
    CHECK_ROUND_TRIP(r);
    /* int8 data: the ends of the range */
    const double sx[2] = {-128, 127}, ss[1] = {0.5}, sz[1] = {-1};
    const double *sin_[3] = {sx, ss, sz};
    const double want_s8[2] = {-63.5, 64};
    r = run("def @main(%x: Tensor[(2), int8], %s: Tensor[(), float32], %z: Tensor[(), int8]) {\n"
            "  qnn.dequantize(%x, %s, %z)\n}",
            sin_);
    CHECK_RUN(r, want_s8, 2, 0);
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(4), float32], %s: Tensor[(), float32], %z: Tensor[(), uint8]) {\n"
                     "  qnn.dequantize(%x, %s, %z)\n}",
                     "data must be int8, uint8, int16, uint16 or int32, got float32");
}

static void test_requantize_roundings(void) {
    /* acc * 0.5 = -50, 3.5, 7.5, 500, 12.5, -2.5; + 10, int8 (500 saturates) */
    const double acc[6] = {-100, 7, 15, 1000, 25, -5}, is[1] = {0.5}, iz[1] = {0}, os[1] = {1}, oz[1] = {10};
    const double *in[5] = {acc, is, iz, os, oz};
    static const char *const modes[3] = {"TONEAREST_EVEN", "TONEAREST", "UPWARD"};
    const double want[3][6] = {{-40, 14, 18, 127, 22, 8}, {-40, 14, 18, 127, 23, 7}, {-40, 14, 18, 127, 23, 8}};
    for (int m = 0; m < 3; ++m)
        for (int f32 = 0; f32 < 2; ++f32) {
            char text[400];
            snprintf(text, sizeof text,
                     "def @main(%%a: Tensor[(6), int32], %%is: Tensor[(), float32], %%iz: Tensor[(), int32], "
                     "%%os: Tensor[(), float32], %%oz: Tensor[(), int8]) {\n"
                     "  qnn.requantize(%%a, %%is, %%iz, %%os, %%oz, rounding=\"%s\", compute_dtype=\"%s\")\n}",
                     modes[m], f32 ? "float32" : "float64");
            run_result r = run(text, in);
            CHECK_RUN(r, want[m], 6, 0);
            if (m == 0 && f32) CHECK_ROUND_TRIP(r);
            else byoc_module_destroy(r.m);
        }
    /* per channel (axis 1): input scales 1 and 0.25, input zero points 0 and 4, to uint8 */
    const double pa[4] = {3, 12, 5, 2}, ps[2] = {1, 0.25}, pz[2] = {0, 4}, pos[1] = {1}, poz[1] = {0};
    const double *pin[5] = {pa, ps, pz, pos, poz};
    const double want_axis[4] = {3, 2, 5, 0}; /* (12 - 4) / 4 = 2; (2 - 4) / 4 = -0.5 rounds up to 0 */
    run_result r = run("def @main(%a: Tensor[(2, 2), int32], %is: Tensor[(2), float32], %iz: Tensor[(2), int32], "
                       "%os: Tensor[(), float32], %oz: Tensor[(), uint8]) {\n"
                       "  qnn.requantize(%a, %is, %iz, %os, %oz, axis=1, out_dtype=\"uint8\")\n}",
                       pin);
    CHECK_RUN(r, want_axis, 4, 0);
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%a: Tensor[(2), int32], %s: Tensor[(), float32], %z: Tensor[(), int32]) {\n"
                     "  qnn.requantize(%a, %s, %z, %s, %z, rounding=\"DOWN\")\n}",
                     "rounding \"DOWN\" is not UPWARD, TONEAREST, TONEAREST_EVEN or TFLITE");
}

/* ONNX QLinearConv as the importer builds it: qnn.conv2d, an int32 bias, qnn.requantize by x_scale * w_scale /
   y_scale in float32 (per output channel), ties to even */
static void test_qlinear_conv_chain(void) {
    /* acc channel 0: (x - 10) * (3 - 1) + 4 = 4, 24, 44, 64; channel 1: (x - 10) * (5 - 3) - 4 = -4, 16, 36, 56;
       multipliers 0.05 / 0.25 = 0.2 and 0.1 / 0.25 = 0.4: 0.8, 4.8, 8.8, 12.8 and -1.6, 6.4, 14.4, 22.4 */
    const double x[4] = {10, 20, 30, 40}, w[2] = {3, 5}, xz[1] = {10}, wz[2] = {1, 3}, xs[1] = {0.5},
                 ws[2] = {0.1, 0.2}, b[2] = {4, -4};
    const double *in[7] = {x, w, xz, wz, xs, ws, b};
    const double want[8] = {101, 105, 109, 113, 98, 106, 114, 122};
    run_result r = run("def @main(%x: Tensor[(1, 1, 2, 2), uint8], %w: Tensor[(2, 1, 1, 1), uint8], "
                       "%xz: Tensor[(), uint8], %wz: Tensor[(2), uint8], %xs: Tensor[(), float32], "
                       "%ws: Tensor[(2), float32], %b: Tensor[(2), int32]) {\n"
                       "  %0 = qnn.conv2d(%x, %w, %xz, %wz, %xs, %ws, channels=2, kernel_size=[1, 1]);\n"
                       "  %1 = nn.bias_add(%0, %b);\n"
                       "  qnn.requantize(%1, multiply(%xs, %ws), 0, 0.25f, 100u8, axis=1, rounding=\"TONEAREST_EVEN\", "
                       "compute_dtype=\"float32\", out_dtype=\"uint8\")\n}",
                       in);
    CHECK_RUN(r, want, 8, 0);
    CHECK_ROUND_TRIP(r);
    CHECK_TYPE_ERROR("def @main(%a: Tensor[(1, 2, 2, 2), int32], %s: Tensor[(3), float32]) {\n"
                     "  qnn.requantize(%a, %s, 0, 1f, 0i8, axis=1)\n}",
                     "input_scale is Tensor[(3,), float32]: it must have one element or be 1-D with the 2 elements of "
                     "axis 1");
}

/* the int32 convolution by its definition, for the GEMM path's check */
static void direct_qconv(const int8_t *x, const uint8_t *w, int xz, const int *wz, int32_t *y) {
    /* x (1, 4, 8, 5), w (6, 2, 3, 2), groups 2, stride (2, 1), padding (1, 0, 1, 1), dilation (1, 2) */
    for (int oc = 0; oc < 6; ++oc)
        for (int oy = 0; oy < 4; ++oy)
            for (int ox = 0; ox < 4; ++ox) {
                int32_t acc = 0;
                for (int c = 0; c < 2; ++c)
                    for (int ky = 0; ky < 3; ++ky)
                        for (int kx = 0; kx < 2; ++kx) {
                            int iy = oy * 2 - 1 + ky, ix = ox - 0 + kx * 2, ic = (oc / 3) * 2 + c;
                            int xv = iy >= 0 && iy < 8 && ix >= 0 && ix < 5 ? x[(ic * 8 + iy) * 5 + ix] : xz;
                            acc += (xv - xz) * (w[((oc * 2 + c) * 3 + ky) * 2 + kx] - wz[oc]);
                        }
                y[(oc * 4 + oy) * 4 + ox] = acc;
            }
}

static void test_conv2d(void) {
    /* the ONNX ConvInteger examples: x 2..10 less zero point 1, a 2x2 kernel of ones; then padded by 1 */
    const double x[9] = {2, 3, 4, 5, 6, 7, 8, 9, 10}, w[4] = {1, 1, 1, 1}, xz[1] = {1}, wz[1] = {0}, one[1] = {1};
    const double *in[6] = {x, w, xz, wz, one, one};
    const double want[4] = {12, 16, 24, 28};
    const double want_padded[16] = {1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9};
    run_result r = run("def @main(%x: Tensor[(1, 1, 3, 3), uint8], %w: Tensor[(1, 1, 2, 2), uint8], "
                       "%xz: Tensor[(), uint8], %wz: Tensor[(), uint8], %xs: Tensor[(), float32], "
                       "%ws: Tensor[(), float32]) {\n"
                       "  qnn.conv2d(%x, %w, %xz, %wz, %xs, %ws, kernel_size=[2, 2])\n}",
                       in);
    CHECK_RUN(r, want, 4, 0);
    CHECK(r.out->annotation->dtype == BYOC_INT32);
    CHECK_ROUND_TRIP(r);
    r = run("def @main(%x: Tensor[(1, 1, 3, 3), uint8], %w: Tensor[(1, 1, 2, 2), uint8], "
            "%xz: Tensor[(), uint8], %wz: Tensor[(), uint8], %xs: Tensor[(), float32], %ws: Tensor[(), float32]) {\n"
            "  qnn.conv2d(%x, %w, %xz, %wz, %xs, %ws, padding=[1, 1, 1, 1])\n}",
            in);
    CHECK_RUN(r, want_padded, 16, 0);
    byoc_module_destroy(r.m);
    /* int8 data, uint8 kernel with a zero point per output channel, groups, strides, dilation, padding;
       against the definition */
    int8_t gx[160];
    uint8_t gw[72];
    int gwz[6] = {0, 1, 128, 255, 7, 200};
    double dx[160], dw[72], dxz[1] = {-3}, dwz[6], want_g[96];
    for (int i = 0; i < 160; ++i) dx[i] = gx[i] = (int8_t)((i * 37 + 11) % 256 - 128);
    for (int i = 0; i < 72; ++i) dw[i] = gw[i] = (uint8_t)((i * 53 + 5) % 256);
    for (int i = 0; i < 6; ++i) dwz[i] = gwz[i];
    int32_t gy[96];
    direct_qconv(gx, gw, -3, gwz, gy);
    for (int i = 0; i < 96; ++i) want_g[i] = gy[i];
    const double *gin[6] = {dx, dw, dxz, dwz, one, one};
    r = run("def @main(%x: Tensor[(1, 4, 8, 5), int8], %w: Tensor[(6, 2, 3, 2), uint8], %xz: Tensor[(), int8], "
            "%wz: Tensor[(6), uint8], %xs: Tensor[(), float32], %ws: Tensor[(), float32]) {\n"
            "  qnn.conv2d(%x, %w, %xz, %wz, %xs, %ws, strides=[2, 1], padding=[1, 0, 1, 1], dilation=[1, 2], "
            "groups=2)\n}",
            gin);
    CHECK_RUN(r, want_g, 96, 0);
    CHECK_ROUND_TRIP(r);
    /* an int32 bias on the accumulator (QLinearConv's B) */
    const double bias[1] = {-12};
    const double *bin[7] = {x, w, xz, wz, one, one, bias};
    const double want_biased[4] = {0, 4, 12, 16};
    r = run("def @main(%x: Tensor[(1, 1, 3, 3), uint8], %w: Tensor[(1, 1, 2, 2), uint8], "
            "%xz: Tensor[(), uint8], %wz: Tensor[(), uint8], %xs: Tensor[(), float32], %ws: Tensor[(), float32], "
            "%b: Tensor[(1), int32]) {\n"
            "  nn.bias_add(qnn.conv2d(%x, %w, %xz, %wz, %xs, %ws), %b)\n}",
            bin);
    CHECK_RUN(r, want_biased, 4, 0);
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(1, 1, 3, 3), float32], %w: Tensor[(1, 1, 2, 2), uint8], "
                     "%z: Tensor[(), uint8], %s: Tensor[(), float32]) {\n"
                     "  qnn.conv2d(%x, %w, %z, %z, %s, %s)\n}",
                     "data and weight must be int8 or uint8, got float32 and uint8");
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(1, 1, 3, 3), uint8], %w: Tensor[(2, 1, 2, 2), uint8], "
                     "%z: Tensor[(), uint8], %wz: Tensor[(3), uint8], %s: Tensor[(), float32]) {\n"
                     "  qnn.conv2d(%x, %w, %z, %wz, %s, %s)\n}",
                     "kernel_zero_point must have one element or the 2 of the output channels");
}

static void test_matmul_dense_batch_matmul(void) {
    /* the ONNX MatMulInteger example */
    const double a[12] = {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0}, b[6] = {1, 4, 2, 5, 3, 6}, bt[6] = {1, 2, 3, 4, 5, 6};
    const double az[1] = {12}, bz[1] = {0}, one[1] = {1};
    const double want[8] = {-38, -83, -44, -98, -50, -113, -56, -128};
    const double *in[6] = {a, b, az, bz, one, one};
    run_result r = run("def @main(%a: Tensor[(4, 3), uint8], %b: Tensor[(3, 2), uint8], %az: Tensor[(), uint8], "
                       "%bz: Tensor[(), uint8], %as: Tensor[(), float32], %bs: Tensor[(), float32]) {\n"
                       "  qnn.matmul(%a, %b, %az, %bz, %as, %bs)\n}",
                       in);
    CHECK_RUN(r, want, 8, 0);
    CHECK_ROUND_TRIP(r);
    const double *tin[6] = {a, bt, az, bz, one, one};
    r = run("def @main(%a: Tensor[(4, 3), uint8], %w: Tensor[(2, 3), uint8], %az: Tensor[(), uint8], "
            "%bz: Tensor[(), uint8], %as: Tensor[(), float32], %bs: Tensor[(), float32]) {\n"
            "  qnn.dense(%a, %w, %az, %bz, %as, %bs, units=2)\n}",
            tin);
    CHECK_RUN(r, want, 8, 0);
    CHECK_ROUND_TRIP(r);
    r = run("def @main(%a: Tensor[(1, 4, 3), uint8], %w: Tensor[(1, 2, 3), uint8], %az: Tensor[(), uint8], "
            "%bz: Tensor[(), uint8], %as: Tensor[(), float32], %bs: Tensor[(), float32]) {\n"
            "  qnn.batch_matmul(%a, %w, %az, %bz, %as, %bs)\n}",
            tin);
    CHECK_RUN(r, want, 8, 0);
    CHECK_ROUND_TRIP(r);
    /* a zero point per column of b (1 and 2), and a batch of 2 broadcast against one b */
    const double a2[24] = {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0, 11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0};
    const double bz2[2] = {1, 2};
    const double *pin[6] = {a2, b, az, bz2, one, one};
    /* column 0 loses sum(a - 12) * 1, column 1 sum(a - 12) * 2: rows sum to -15, -18, -21, -24 */
    const double want_pc[16] = {-23, -53, -26, -62, -29, -71, -32, -80, -23, -53, -26, -62, -29, -71, -32, -80};
    r = run("def @main(%a: Tensor[(2, 4, 3), uint8], %b: Tensor[(3, 2), uint8], %az: Tensor[(), uint8], "
            "%bz: Tensor[(2), uint8], %as: Tensor[(), float32], %bs: Tensor[(), float32]) {\n"
            "  qnn.matmul(%a, %b, %az, %bz, %as, %bs)\n}",
            pin);
    CHECK_RUN(r, want_pc, 16, 0);
    byoc_module_destroy(r.m);
    /* a zero point outside the data's dtype is bad input, named */
    const double big_zp[1] = {300};
    const double *zin[6] = {a, b, big_zp, bz, one, one};
    r = run("def @main(%a: Tensor[(4, 3), uint8], %b: Tensor[(3, 2), uint8], %az: Tensor[(), int32], "
            "%bz: Tensor[(), uint8], %as: Tensor[(), float32], %bs: Tensor[(), float32]) {\n"
            "  qnn.matmul(%a, %b, %az, %bz, %as, %bs)\n}",
            zin);
    CHECK(r.out == NULL);
    CHECK_CONTAINS(r.why, "input_zero_point 300 (element 0) is outside the uint8 range of the data");
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%a: Tensor[(4, 3), uint8], %b: Tensor[(3, 2), uint8], %z: Tensor[(), uint8], "
                     "%bz: Tensor[(3), uint8], %s: Tensor[(), float32]) {\n"
                     "  qnn.matmul(%a, %b, %z, %bz, %s, %s)\n}",
                     "kernel_zero_point must have one element or the 2 of the result columns");
    CHECK_TYPE_ERROR("def @main(%a: Tensor[(4, 3), uint8], %b: Tensor[(3, 2), uint8], %z: Tensor[(), uint8], "
                     "%s: Tensor[(), float32]) {\n"
                     "  qnn.matmul(%a, %b, %z, %z, %s, %s, out_dtype=\"int16\")\n}",
                     "out_dtype must be int32, got int16");
}

/* QuantizeLinear through the importer: no zero point (uint8, or opset 21's output_dtype), float8 refused */
static void test_onnx_quantize_linear(void) {
    const int64_t dims[1] = {6}, one_dim[1] = {1};
    const double x[6] = {0, 2, 3, 1000, -254, -1000}, scale[1] = {2};
    const double *in[2] = {x, scale};
    const double want_u8[6] = {0, 1, 2, 255, 0, 0}, want_i8[6] = {0, 1, 2, 127, -127, -128};
    for (int as_int8 = 0; as_int8 < 2; ++as_int8) {
        onnx_case mc;
        byoc_onnx_model model;
        byoc_diag d;
        model_begin(&mc, "QuantizeLinear", as_int8 ? 21 : 13, ONNX_FLOAT, 1, dims, ONNX_FLOAT, 1, one_dim);
        if (as_int8) attr_int(&mc.node, "output_dtype", ONNX_INT8);
        value_info(&mc.graph, 12, "y", as_int8 ? ONNX_INT8 : ONNX_UINT8, 1, dims);
        CHECKF(model_import(&mc, &model, &d) == BYOC_OK, "%s", d.message);
        run_result r = model_run(&model, in);
        char why[700];
        int ok = result_is(&r, as_int8 ? want_i8 : want_u8, 6, 0, why, sizeof why);
        byoc_onnx_model_free(&model);
        CHECKF(ok, "%s", why);
    }
    onnx_case mc;
    model_begin(&mc, "QuantizeLinear", 21, ONNX_FLOAT, 1, dims, ONNX_FLOAT, 1, one_dim);
    attr_int(&mc.node, "output_dtype", ONNX_FLOAT8E4M3FN);
    value_info(&mc.graph, 12, "y", ONNX_UINT8, 1, dims);
    CHECK_IMPORT_ERROR(mc, "quantizing to float8e4m3fn is not supported");
    model_begin(&mc, "QuantizeLinear", 10, ONNX_FLOAT, 1, dims, ONNX_FLOAT, 1, dims);
    value_info(&mc.graph, 12, "y", ONNX_UINT8, 1, dims);
    CHECK_IMPORT_ERROR(mc, "opset 10 quantizes per tensor: the scale must have one element");
}

/* MatMulInteger without zero points, A 1-D (numpy's matmul: a row whose axis leaves the result) */
static void test_onnx_matmul_integer_vector(void) {
    const int64_t a_dims[1] = {3}, b_dims[2] = {3, 2}, y_dims[1] = {2};
    const double a[3] = {1, 2, 3}, b[6] = {1, 4, 2, 5, 3, 6};
    const double *in[2] = {a, b};
    const double want[2] = {14, 32};
    onnx_case mc;
    byoc_onnx_model model;
    byoc_diag d;
    model_begin(&mc, "MatMulInteger", 10, ONNX_UINT8, 1, a_dims, ONNX_UINT8, 2, b_dims);
    value_info(&mc.graph, 12, "y", ONNX_INT32, 1, y_dims);
    CHECKF(model_import(&mc, &model, &d) == BYOC_OK, "%s", d.message);
    run_result r = model_run(&model, in);
    char why[700];
    int ok = result_is(&r, want, 2, 0, why, sizeof why) && r.out->annotation->rank == 1 &&
             r.out->annotation->dtype == BYOC_INT32;
    byoc_onnx_model_free(&model);
    CHECKF(ok, "%s", why);
}

/* ---- qnn.add, qnn.mul, qnn.concatenate ---- */
#define QBIN_PARAMS(dt, zdt)                                                                                      \
    "def @main(%a: Tensor[(4), " dt "], %b: Tensor[(4), " dt "], %sa: Tensor[(), float32], %za: Tensor[(), " zdt \
    "], %sb: Tensor[(), float32], %zb: Tensor[(), " zdt "], %sc: Tensor[(), float32], %zc: Tensor[(), " zdt "]) {\n"
static void test_qnn_add(void) {
    /* Ra = 0.5, Rb = 0.25, K = 1 - (0.5 * 0 + 0.25 * 2) = 0.5: a * 0.5 + b * 0.25 + 0.5 = 6.75, -8, 63 and the
       tie 2.5, which goes to 2 */
    const double a[4] = {10, -20, 100, 3}, b[4] = {5, 6, 50, 2}, sa[1] = {0.5}, za[1] = {0}, sb[1] = {0.25},
                 zb[1] = {2}, sc[1] = {1}, zc[1] = {1};
    const double *in[8] = {a, b, sa, za, sb, zb, sc, zc};
    const double want[4] = {7, -8, 63, 2};
    run_result r = run(QBIN_PARAMS("int8", "int8") "  qnn.add(%a, %b, %sa, %za, %sb, %zb, %sc, %zc)\n}", in);
    CHECK_RUN(r, want, 4, 0);
    CHECK(r.out->annotation->dtype == BYOC_INT8);
    CHECK_ROUND_TRIP(r);
    /* uint8 broadcasting (2, 1) + (3): sums past 255 saturate; int32 zero points (TVM's usual) */
    const double ua[2] = {200, 10}, ub[3] = {0, 100, 255}, one[1] = {1}, zero[1] = {0};
    const double *uin[8] = {ua, ub, one, zero, one, zero, one, zero};
    const double uwant[6] = {200, 255, 255, 10, 110, 255};
    r = run("def @main(%a: Tensor[(2, 1), uint8], %b: Tensor[(3), uint8], %sa: Tensor[(), float32], "
            "%za: Tensor[(), int32], %sb: Tensor[(), float32], %zb: Tensor[(), int32], %sc: Tensor[(), float32], "
            "%zc: Tensor[(), int32]) {\n  qnn.add(%a, %b, %sa, %za, %sb, %zb, %sc, %zc)\n}",
            uin);
    CHECK_RUN(r, uwant, 6, 0);
    CHECK(r.out->annotation->rank == 2 && r.out->annotation->dims[1] == 3);
    CHECK_ROUND_TRIP(r);
    /* run-time checks: a zero scale, a zero point outside int8 */
    const double bad_scale[1] = {0}, far_zp[1] = {300};
    const double *bin[8] = {a, b, bad_scale, za, sb, zb, sc, zc};
    r = run(QBIN_PARAMS("int8", "int8") "  qnn.add(%a, %b, %sa, %za, %sb, %zb, %sc, %zc)\n}", bin);
    CHECK(!r.out && strstr(r.why, "lhs_scale 0 (element 0) is not a positive finite number"));
    byoc_module_destroy(r.m);
    const double *zin[8] = {a, b, sa, za, sb, zb, sc, far_zp};
    r = run(QBIN_PARAMS("int8", "int32") "  qnn.add(%a, %b, %sa, %za, %sb, %zb, %sc, %zc)\n}", zin);
    CHECK(!r.out && strstr(r.why, "output_zero_point 300 (element 0) is outside the int8 range"));
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR(QBIN_PARAMS("float32", "int8") "  qnn.add(%a, %b, %sa, %za, %sb, %zb, %sc, %zc)\n}",
                     "lhs must be int8 or uint8, got float32");
    CHECK_TYPE_ERROR("def @main(%a: Tensor[(4), int8], %b: Tensor[(4), uint8], %s: Tensor[(), float32], "
                     "%z: Tensor[(), int32]) {\n  qnn.add(%a, %b, %s, %z, %s, %z, %s, %z)\n}",
                     "int8");
    CHECK_TYPE_ERROR("def @main(%a: Tensor[(4), int8], %s: Tensor[(2), float32], %z: Tensor[(), int32]) {\n"
                     "  qnn.add(%a, %a, %s, %z, %s, %z, %s, %z)\n}",
                     "lhs_scale must have one element (per-tensor quantization), got Tensor[(2,), float32]");
    CHECK_TYPE_ERROR("def @main(%a: Tensor[(4), int8], %s: Tensor[(), float32], %z: Tensor[(), float32]) {\n"
                     "  qnn.mul(%a, %a, %s, %z, %s, %z, %s, %z)\n}",
                     "lhs_zero_point must be an integer tensor, got float32");
}
static void test_qnn_mul(void) {
    /* (a - 1) * (b + 1) * 0.5 * 0.5 / 1: 3, -7, 4032 (saturates to 127), and 10 * 0.25 = 2.5, a tie: 2 */
    const double a[4] = {4, -6, 127, 6}, b[4] = {3, 3, 127, 1}, s[1] = {0.5}, za[1] = {1}, zb[1] = {-1}, sc[1] = {1},
                 zc[1] = {0};
    const double *in[8] = {a, b, s, za, s, zb, sc, zc};
    const double want[4] = {3, -7, 127, 2};
    run_result r = run(QBIN_PARAMS("int8", "int8") "  qnn.mul(%a, %b, %sa, %za, %sb, %zb, %sc, %zc)\n}", in);
    CHECK_RUN(r, want, 4, 0);
    CHECK_ROUND_TRIP(r);
    /* the output zero point joins before rounding: 2.5 + 1 = 3.5 goes to 4 (adding it after would give 3) */
    const double zc1[1] = {1};
    const double *in1[8] = {a, b, s, za, s, zb, sc, zc1};
    const double want1[4] = {4, -6, 127, 4};
    r = run(QBIN_PARAMS("int8", "int8") "  qnn.mul(%a, %b, %sa, %za, %sb, %zb, %sc, %zc)\n}", in1);
    CHECK_RUN(r, want1, 4, 0);
    byoc_module_destroy(r.m);
}
/* every pair of int8 values: (256, 256) results come from the kernel's result table, (255, 256) ones are
   computed one by one; the rows they share must agree, for both ops and a broadcast (rhs one value per row) */
static void test_qnn_binary_table_path(void) {
    static double a[65536], b[65536], b_col[256];
    for (int i = 0; i < 65536; ++i) {
        a[i] = (i >> 8) - 128;
        b[i] = (i & 255) - 128;
    }
    for (int i = 0; i < 256; ++i) b_col[i] = 127 - i;
    const double sa[1] = {0.0173}, za[1] = {5}, sb[1] = {0.0291}, zb[1] = {-9}, sc[1] = {0.0417}, zc[1] = {-3};
    static const char *const ops[2] = {"qnn.add", "qnn.mul"};
    for (int op = 0; op < 2; ++op)
        for (int column = 0; column < 2; ++column) {
            run_result r[2];
            for (int rows = 255; rows <= 256; ++rows) {
                char text[700];
                snprintf(text, sizeof text,
                         "def @main(%%a: Tensor[(%d, 256), int8], %%b: Tensor[(%d, %d), int8], %%sa: Tensor[(), "
                         "float32], %%za: Tensor[(), int8], %%sb: Tensor[(), float32], %%zb: Tensor[(), int8], "
                         "%%sc: Tensor[(), float32], %%zc: Tensor[(), int8]) {\n"
                         "  %s(%%a, %%b, %%sa, %%za, %%sb, %%zb, %%sc, %%zc)\n}",
                         rows, rows, column ? 1 : 256, ops[op]);
                const double *in[8] = {a, column ? b_col : b, sa, za, sb, zb, sc, zc};
                r[rows - 255] = run(text, in);
            }
            int same = r[0].out && r[1].out;
            for (int64_t i = 0; same && i < 255 * 256; ++i)
                same = ((const int8_t *)r[0].out->data)[i] == ((const int8_t *)r[1].out->data)[i];
            CHECKF(same, "%s%s: the table and the element-wise results differ (%s%s)", ops[op],
                   column ? " (column rhs)" : "", r[0].why, r[1].why);
            byoc_module_destroy(r[0].m);
            byoc_module_destroy(r[1].m);
        }
}
static void test_qnn_concatenate(void) {
    /* x0 has the output's scale and zero point (copied); x1 = 7 at scale 1, zero point 1 is 6.0 = 12 at 0.5 */
    const double x0[2] = {10, -10}, x1[1] = {7}, half[1] = {0.5}, one[1] = {1}, z0[1] = {0}, z1[1] = {1};
    const double *in[7] = {x0, x1, half, one, z0, z1, half};
    const double want[3] = {10, -10, 12};
    const char *text = "def @main(%x0: Tensor[(2), int8], %x1: Tensor[(1), int8], %s0: Tensor[(), float32], "
                       "%s1: Tensor[(), float32], %z0: Tensor[(), int32], %z1: Tensor[(), int32], "
                       "%os: Tensor[(), float32]) {\n"
                       "  qnn.concatenate((%x0, %x1), (%s0, %s1), (%z0, %z1), %os, 0, axis=0)\n}";
    run_result r = run(text, in);
    CHECK_RUN(r, want, 3, 0);
    CHECK_ROUND_TRIP(r);
    CHECK_TYPE_ERROR("def @main(%x0: Tensor[(2), int8], %s: Tensor[(), float32], %z: Tensor[(), int32]) {\n"
                     "  qnn.concatenate((%x0, %x0), (%s,), (%z, %z), %s, %z)\n}",
                     "input_scales has 1 fields, data has 2");
    CHECK_TYPE_ERROR("def @main(%x0: Tensor[(2), int8], %x1: Tensor[(2), uint8], %s: Tensor[(), float32], "
                     "%z: Tensor[(), int32]) {\n  qnn.concatenate((%x0, %x1), (%s, %s), (%z, %z), %s, %z)\n}",
                     "int8");
}

static void test_qnn_table_ops(void) {
    /* leaky_relu, alpha 0.5: -5, -1.5, 0, 2.5 become -2.5, -0.75, 0, 2.5, quantized at 0.5: -5, -2 (the tie
       -1.5 goes to even), 0, 5 */
    const double x[4] = {-10, -3, 0, 5}, half[1] = {0.5}, zero[1] = {0};
    const double *in[5] = {x, half, zero, half, zero};
    const double want[4] = {-5, -2, 0, 5};
    run_result r = run("def @main(%x: Tensor[(4), int8], %s: Tensor[(), float32], %z: Tensor[(), int8], "
                       "%os: Tensor[(), float32], %oz: Tensor[(), int8]) {\n"
                       "  qnn.leaky_relu(%x, %s, %z, %os, %oz, alpha=0.5f)\n}",
                       in);
    CHECK_RUN(r, want, 4, 0);
    CHECK_ROUND_TRIP(r);
    /* sigmoid of -12.8, 0 and 12.7 at scale 1/256: 0, 128 (0.5 exactly) and 256, saturated to 255 */
    const double ux[3] = {0, 128, 255}, s_in[1] = {0.1}, z_in[1] = {128}, s_out[1] = {1.0 / 256}, z_out[1] = {0};
    const double *uin[5] = {ux, s_in, z_in, s_out, z_out};
    const double uwant[3] = {0, 128, 255};
    r = run("def @main(%x: Tensor[(3), uint8], %s: Tensor[(), float32], %z: Tensor[(), uint8], "
            "%os: Tensor[(), float32], %oz: Tensor[(), uint8]) {\n  qnn.sigmoid(%x, %s, %z, %os, %oz)\n}",
            uin);
    CHECK_RUN(r, uwant, 3, 0);
    CHECK_ROUND_TRIP(r);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(3), float32], %s: Tensor[(), float32], %z: Tensor[(), int8]) {\n"
                     "  qnn.sigmoid(%x, %s, %z, %s, %z)\n}",
                     "data must be int8 or uint8, got float32");
}
static void test_qnn_pools(void) {
    /* 2x2 windows of a 2x2 plane padded by 1, stride 2: each window holds one value; without the padding
       counted the mean is the value, with it a quarter */
    const double x[4] = {4, 8, 12, 16}, one[1] = {1}, zero[1] = {0};
    const double *in[5] = {x, one, zero, one, zero};
    const double want_exclude[4] = {4, 8, 12, 16}, want_include[4] = {1, 2, 3, 4};
    for (int include = 0; include < 2; ++include) {
        char text[600];
        snprintf(text, sizeof text,
                 "def @main(%%x: Tensor[(1, 1, 2, 2), uint8], %%s: Tensor[(), float32], %%z: Tensor[(), uint8], "
                 "%%os: Tensor[(), float32], %%oz: Tensor[(), uint8]) {\n"
                 "  qnn.avg_pool2d(%%x, %%s, %%z, %%os, %%oz, pool_size=[2, 2], strides=[2, 2], "
                 "padding=[1, 1, 1, 1], count_include_pad=%s)\n}",
                 include ? "True" : "False");
        run_result r = run(text, in);
        CHECK_RUN(r, include ? want_include : want_exclude, 4, 0);
        CHECK_ROUND_TRIP(r);
    }
    /* global: sums 10 and -11 at 0.5 / (0.5 * 4): 2.5 (a tie: 2) and -2.75 (-3), then + 1 */
    const double gx[8] = {1, 2, 3, 4, -1, -2, -3, -5}, half[1] = {0.5}, z1[1] = {1};
    const double *gin[5] = {gx, half, zero, half, z1};
    const double gwant[2] = {3, -2};
    const char *global = "def @main(%x: Tensor[(1, 2, 2, 2), int8], %s: Tensor[(), float32], %z: Tensor[(), int8], "
                         "%os: Tensor[(), float32], %oz: Tensor[(), int8]) {\n"
                         "  qnn.global_avg_pool2d(%x, %s, %z, %os, %oz)\n}";
    run_result r = run(global, gin);
    CHECK_RUN(r, gwant, 2, 0);
    CHECK(r.out->annotation->rank == 4 && r.out->annotation->dims[2] == 1);
    CHECK_ROUND_TRIP(r);
    /* a window covering the whole unpadded plane takes the same integer path */
    r = run("def @main(%x: Tensor[(1, 2, 2, 2), int8], %s: Tensor[(), float32], %z: Tensor[(), int8], "
            "%os: Tensor[(), float32], %oz: Tensor[(), int8]) {\n"
            "  qnn.avg_pool2d(%x, %s, %z, %os, %oz, pool_size=[2, 2])\n}",
            gin);
    CHECK_RUN(r, gwant, 2, 0);
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(1, 1, 4, 4), int8], %s: Tensor[(), float32], %z: Tensor[(), int8]) {\n"
                     "  qnn.avg_pool2d(%x, %s, %z, %s, %z, pool_size=[2, 2], dilation=[2, 2])\n}",
                     "dilation must be 1");
}
static void test_qnn_softmax(void) {
    /* equal inputs share 256 evenly; a pair with one value 255 above the other gives it everything (256,
       capped at 255); along axis 0 of a transposed tensor (strided rows) */
    const double x[6] = {10, 10, 10, 10, 255, 0}, in_scale[1] = {1}, zero[1] = {0}, out_scale[1] = {1.0 / 256};
    const double *in[5] = {x, in_scale, zero, out_scale, zero};
    run_result r = run("def @main(%x: Tensor[(6), uint8], %s: Tensor[(), float32], %z: Tensor[(), uint8], "
                       "%os: Tensor[(), float32], %oz: Tensor[(), uint8]) {\n"
                       "  %0 = reshape(%x, newshape=[3, 2]);\n"
                       "  %1 = transpose(%0, axes=[1, 0]);\n"
                       "  qnn.softmax(%1, %s, %z, %os, %oz, axis=0)\n}",
                       in);
    /* the transposed (2, 3) has columns (10, 10), (10, 10), (255, 0) along axis 0 */
    const double want_t[6] = {128, 128, 255, 128, 128, 0};
    CHECK_RUN(r, want_t, 6, 0);
    CHECK_ROUND_TRIP(r);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2, 3), int8], %s: Tensor[(), float32], %z: Tensor[(), int8]) {\n"
                     "  qnn.softmax(%x, %s, %z, %s, %z, axis=2)\n}",
                     "axis");
}

/* a float32 initializer (graph field 5) of n values, rank 0 when n is 0 (one value) */
static void initializer_f32(pb *graph, const char *name, const float *values, int n) {
    pb t = {NULL, 0, 0};
    if (n) pb_int(&t, 1, n);
    pb_int(&t, 2, ONNX_FLOAT);
    pb_str(&t, 8, name);
    pb_bytes(&t, 9, values, sizeof(float) * (size_t)(n ? n : 1));
    pb_msg(graph, 5, &t);
}
/* the importer's refusals of bad quantization parameters, each naming the node */
static void test_onnx_bad_quant_params(void) {
    const int64_t dims[1] = {4}, dims2[2] = {3, 2};
    const float zero = 0, negative = -0.5f, two[2] = {0.5f, 0.25f};
    onnx_case mc;
    model_begin(&mc, "DequantizeLinear", 13, ONNX_INT8, 1, dims, 0, 0, NULL);
    pb_str(&mc.node, 1, "s");
    initializer_f32(&mc.graph, "s", &zero, 0);
    value_info(&mc.graph, 12, "y", ONNX_FLOAT, 1, dims);
    CHECK_IMPORT_ERROR(mc, "node 0 'n1' (DequantizeLinear): x_scale is 0 (element 0): a scale must be positive");
    model_begin(&mc, "DequantizeLinear", 13, ONNX_INT8, 1, dims, 0, 0, NULL);
    pb_str(&mc.node, 1, "s");
    pb_str(&mc.node, 1, "z");
    initializer_f32(&mc.graph, "s", two, 0);
    value_info(&mc.graph, 11, "z", ONNX_UINT8, 0, NULL);
    value_info(&mc.graph, 12, "y", ONNX_FLOAT, 1, dims);
    CHECK_IMPORT_ERROR(mc, "x_zero_point is uint8 but its data is int8: they must have the same type");
    model_begin(&mc, "DequantizeLinear", 13, ONNX_INT8, 2, dims2, 0, 0, NULL);
    pb_str(&mc.node, 1, "s");
    attr_int(&mc.node, "axis", 0);
    initializer_f32(&mc.graph, "s", two, 2);
    value_info(&mc.graph, 12, "y", ONNX_FLOAT, 2, dims2);
    CHECK_IMPORT_ERROR(mc, "input_scale is Tensor[(2,), float32]: it must have one element or be 1-D with the 3 "
                           "elements of axis 0");
    model_begin(&mc, "QLinearAdd", 13, ONNX_INT8, 1, dims, 0, 0, NULL);
    mc.microsoft = 1;
    static const char *const rest[7] = {"neg", "", "a", "neg", "", "neg", ""};
    for (int i = 0; i < 7; ++i) pb_str(&mc.node, 1, rest[i]);
    initializer_f32(&mc.graph, "neg", &negative, 0);
    value_info(&mc.graph, 12, "y", ONNX_INT8, 1, dims);
    CHECK_IMPORT_ERROR(mc, "node 0 'n1' (QLinearAdd): A_scale is -0.5: a scale must be positive and finite");
}

/* com.microsoft QLinearMul with absent zero points, scales given at run time; and the importer's refusals */
static void test_onnx_microsoft_ops(void) {
    const int64_t dims[1] = {4};
    const double a[4] = {2, 4, -6, 3}, b[4] = {3, 3, 3, 1}, s[1] = {0.5};
    const double *in[3] = {a, s, b};
    const double want[4] = {3, 6, -9, 2}; /* a * b * 0.25 / 0.5: 1.5 is a tie, to 2 */
    onnx_case mc;
    byoc_onnx_model model;
    byoc_diag d;
    model_begin(&mc, "QLinearMul", 13, ONNX_INT8, 1, dims, 0, 0, NULL);
    mc.microsoft = 1;
    static const char *const rest[7] = {"s", "", "b", "s", "", "s", ""};
    for (int i = 0; i < 7; ++i) pb_str(&mc.node, 1, rest[i]);
    value_info(&mc.graph, 11, "s", ONNX_FLOAT, 0, NULL);
    value_info(&mc.graph, 11, "b", ONNX_INT8, 1, dims);
    value_info(&mc.graph, 12, "y", ONNX_INT8, 1, dims);
    CHECKF(model_import(&mc, &model, &d) == BYOC_OK, "%s", d.message);
    run_result r = model_run(&model, in);
    char why[700];
    int ok = result_is(&r, want, 4, 0, why, sizeof why);
    byoc_onnx_model_free(&model);
    CHECKF(ok, "%s", why);
    /* a zero point of another type than its data */
    model_begin(&mc, "QLinearSigmoid", 13, ONNX_INT8, 1, dims, 0, 0, NULL);
    mc.microsoft = 1;
    static const char *const sig[4] = {"s", "z", "s", ""};
    for (int i = 0; i < 4; ++i) pb_str(&mc.node, 1, sig[i]);
    value_info(&mc.graph, 11, "s", ONNX_FLOAT, 0, NULL);
    value_info(&mc.graph, 11, "z", ONNX_UINT8, 0, NULL);
    value_info(&mc.graph, 12, "y", ONNX_INT8, 1, dims);
    CHECK_IMPORT_ERROR(mc, "node 0 'n1' (QLinearSigmoid): X_zero_point is uint8 but its data is int8");
    /* an op of that domain the importer does not know, named with its node */
    model_begin(&mc, "QLinearFoo", 13, ONNX_INT8, 1, dims, 0, 0, NULL);
    mc.microsoft = 1;
    value_info(&mc.graph, 12, "y", ONNX_INT8, 1, dims);
    CHECK_IMPORT_ERROR(mc, "com.microsoft:QLinearFoo x1 (node 'n1')");
    /* the same type in the default domain is another op */
    model_begin(&mc, "QLinearAdd", 13, ONNX_INT8, 1, dims, 0, 0, NULL);
    value_info(&mc.graph, 12, "y", ONNX_INT8, 1, dims);
    CHECK_IMPORT_ERROR(mc, "unsupported op type (1 node, opset 13): QLinearAdd x1");
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_quantize),
        TEST_ENTRY(test_dequantize),
        TEST_ENTRY(test_requantize_roundings),
        TEST_ENTRY(test_conv2d),
        TEST_ENTRY(test_qlinear_conv_chain),
        TEST_ENTRY(test_matmul_dense_batch_matmul),
        TEST_ENTRY(test_onnx_quantize_linear),
        TEST_ENTRY(test_onnx_matmul_integer_vector),
        TEST_ENTRY(test_qnn_add),
        TEST_ENTRY(test_qnn_mul),
        TEST_ENTRY(test_qnn_binary_table_path),
        TEST_ENTRY(test_qnn_concatenate),
        TEST_ENTRY(test_qnn_table_ops),
        TEST_ENTRY(test_qnn_pools),
        TEST_ENTRY(test_qnn_softmax),
        TEST_ENTRY(test_onnx_microsoft_ops),
        TEST_ENTRY(test_onnx_bad_quant_params),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
