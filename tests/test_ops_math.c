/* Unit tests for the math ops: trigonometric and hyperbolic unaries, round, mod / floor_mod, logical
   and / or / xor, shifts, trilu, cumsum, hardmax, eye_like, det, prod and nn.gelu's forms. Each op is
   parsed from Relay text, typed, evaluated with byoc_module_evaluate and compared with values worked
   out by hand or taken from the ONNX operator docs' examples; each has a type error and a print/parse
   round trip. */
#include "byoc.h"
#include "tools/byoc_onnx.h"
#include "test.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "ops_test.h"

/* ---- tests ---- */
static void test_trigonometric_and_hyperbolic(void) {
    static const char *const ops[] = {"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "atanh"};
    static double (*const ref[])(double) = {sin, cos, tan, asin, acos, atan, sinh, cosh, asinh, atanh};
    const double x[5] = {-0.75, -0.25, 0, 0.5, 0.9};
    const double *in[1] = {x};
    for (int o = 0; o < 10; ++o) {
        for (int wide = 0; wide < 2; ++wide) {
            char text[200];
            snprintf(text, sizeof text, "def @main(%%x: Tensor[(5), %s]) { %s(%%x) }", wide ? "float64" : "float32",
                     ops[o]);
            double want[5];
            for (int i = 0; i < 5; ++i) want[i] = ref[o](x[i]);
            run_result r = run(text, in);
            CHECK_RUN(r, want, 5, wide ? 1e-15 : 2e-7);
            byoc_module_destroy(r.m);
        }
    }
    /* by hand: sin(0) = 0, cos(0) = 1, acos(1) = 0, acosh(1) = 0; acosh below 1 is NaN */
    const double y[4] = {0, 1, 2, 0.5};
    const double *yin[1] = {y};
    run_result r = run("def @main(%x: Tensor[(4), float32]) { acosh(%x) }", yin);
    const double want_acosh[4] = {NAN, 0, 1.3169578969248166, NAN};
    CHECK_RUN(r, want_acosh, 4, 1e-6);
    byoc_module_destroy(r.m);
    r = run("def @main(%x: Tensor[(2, 2), float32]) { (sin(%x), cos(%x), acos(%x), atan(%x)) }", yin);
    CHECKF(r.out != NULL && r.out->kind == BYOC_NODE_TUPLE, "%s", r.why);
    CHECK(load_elem(BYOC_FLOAT32, r.out->args[0]->data, 0) == 0);
    CHECK(load_elem(BYOC_FLOAT32, r.out->args[1]->data, 0) == 1);
    CHECK(load_elem(BYOC_FLOAT32, r.out->args[2]->data, 1) == 0);
    CHECK(fabs(load_elem(BYOC_FLOAT32, r.out->args[3]->data, 1) - 0.7853981633974483) < 1e-7);
    CHECK_ROUND_TRIP(r);
    /* float16 computes in float32 and narrows once */
    r = run("def @main() { sinh(0.5f16) }", NULL);
    CHECKF(r.out != NULL && r.out->annotation->dtype == BYOC_FLOAT16, "%s", r.why);
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(3), int32]) { cos(%x) }", "must be a float tensor, got int32");
}

static void test_round_half_to_even(void) {
    /* the ONNX Round example */
    const double x[15] = {0.1, 0.5, 0.9, 1.2, 1.5, 1.8, 2.3, 2.5, 2.7, -1.1, -1.5, -1.9, -2.2, -2.5, -2.8};
    const double want[15] = {0, 0, 1, 1, 2, 2, 2, 2, 3, -1, -2, -2, -2, -2, -3};
    const double *in[1] = {x};
    run_result r = run("def @main(%x: Tensor[(15), float32]) { round(%x) }", in);
    CHECK_RUN(r, want, 15, 0);
    CHECK_ROUND_TRIP(r);
    r = run("def @main(%x: Tensor[(15), float64]) { round(%x) }", in);
    CHECK_RUN(r, want, 15, 0);
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(3), int64]) { round(%x) }", "must be a float tensor, got int64");
}

static void test_mod_and_floor_mod(void) {
    /* the ONNX Mod examples: fmod=0 is floor_mod (the divisor's sign), fmod=1 mod (the dividend's) */
    const double x[6] = {-4, 7, 5, 4, -7, 8}, y[6] = {2, -3, 8, -2, 3, 5};
    const double *in[2] = {x, y};
    const double floored[6] = {0, -2, 5, 0, 2, 3}, truncated[6] = {0, 1, 5, 0, -1, 3};
    static const char *const int_types[] = {"int8", "int16", "int32", "int64"};
    for (int t = 0; t < 4; ++t) {
        char text[200];
        snprintf(text, sizeof text, "def @main(%%x: Tensor[(6), %s], %%y: Tensor[(6), %s]) { floor_mod(%%x, %%y) }",
                 int_types[t], int_types[t]);
        run_result r = run(text, in);
        CHECK_RUN(r, floored, 6, 0);
        byoc_module_destroy(r.m);
        snprintf(text, sizeof text, "def @main(%%x: Tensor[(6), %s], %%y: Tensor[(6), %s]) { mod(%%x, %%y) }",
                 int_types[t], int_types[t]);
        r = run(text, in);
        CHECK_RUN(r, truncated, 6, 0);
        byoc_module_destroy(r.m);
    }
    const double fx[6] = {-4.3, 7.2, 5.0, 4.3, -7.2, 8.0}, fy[6] = {2.1, -3.4, 8.0, -2.1, 3.4, 5.0};
    const double *fin[2] = {fx, fy};
    const double fwant[6] = {-0.1, 0.4, 5, 0.1, -0.4, 3};
    run_result r = run("def @main(%x: Tensor[(6), float64], %y: Tensor[(6), float64]) { mod(%x, %y) }", fin);
    CHECK_RUN(r, fwant, 6, 1e-12);
    byoc_module_destroy(r.m);
    const double ffloor[6] = {2.0, -3.0, 5, -2.0, 3.0, 3};
    r = run("def @main(%x: Tensor[(6), float32], %y: Tensor[(6), float32]) { floor_mod(%x, %y) }", fin);
    CHECK_RUN(r, ffloor, 6, 1e-5);
    CHECK_ROUND_TRIP(r);
    /* broadcasting, unsigned, and x mod 0 (0, as integer division by 0 is) */
    const double ux[6] = {4, 7, 5, 250, 9, 8}, uy[3] = {3, 0, 4};
    const double *uin[2] = {ux, uy};
    const double uwant[6] = {1, 0, 1, 1, 0, 0};
    r = run("def @main(%x: Tensor[(2, 3), uint8], %y: Tensor[(3), uint8]) { floor_mod(%x, %y) }", uin);
    CHECK_RUN(r, uwant, 6, 0);
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(3), bool], %y: Tensor[(3), bool]) { mod(%x, %y) }",
                     "must be numbers, got bool");
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(3), int32], %y: Tensor[(3), int64]) { floor_mod(%x, %y) }",
                     "argument dtypes differ (int32 vs int64)");
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(3), int32], %y: Tensor[(2), int32]) { mod(%x, %y) }", "do not broadcast");
}

static void test_logical_ops(void) {
    const double a[6] = {0, 0, 1, 1, 1, 0}, b[3] = {0, 1, 1};
    const double *in[2] = {a, b};
    const double want_and[6] = {0, 0, 1, 0, 1, 0}, want_or[6] = {0, 1, 1, 1, 1, 1}, want_xor[6] = {0, 1, 0, 1, 0, 1};
    run_result r = run("def @main(%a: Tensor[(2, 3), bool], %b: Tensor[(3), bool]) { logical_and(%a, %b) }", in);
    CHECK_RUN(r, want_and, 6, 0);
    CHECK(r.out->annotation->dtype == BYOC_BOOL);
    byoc_module_destroy(r.m);
    r = run("def @main(%a: Tensor[(2, 3), bool], %b: Tensor[(3), bool]) { logical_or(%a, %b) }", in);
    CHECK_RUN(r, want_or, 6, 0);
    byoc_module_destroy(r.m);
    r = run("def @main(%a: Tensor[(2, 3), bool], %b: Tensor[(3), bool]) { logical_xor(%a, %b) }", in);
    CHECK_RUN(r, want_xor, 6, 0);
    CHECK_ROUND_TRIP(r);
    CHECK_TYPE_ERROR("def @main(%a: Tensor[(3), bool], %b: Tensor[(3), float32]) { logical_or(%a, %b) }",
                     "the second argument must be bool, got float32");
}

static void test_shifts(void) {
    /* the ONNX BitShift examples, then counts past the width (0, or -1 for a negative value) */
    const double x[3] = {16, 4, 1}, y[3] = {1, 2, 3};
    const double *in[2] = {x, y};
    const double left[3] = {32, 16, 8}, right[3] = {8, 1, 0};
    static const char *const types[] = {"uint8", "uint16", "uint32", "uint64"};
    for (int t = 0; t < 4; ++t) {
        char text[200];
        snprintf(text, sizeof text, "def @main(%%x: Tensor[(3), %s], %%y: Tensor[(3), %s]) { left_shift(%%x, %%y) }",
                 types[t], types[t]);
        run_result r = run(text, in);
        CHECK_RUN(r, left, 3, 0);
        byoc_module_destroy(r.m);
        snprintf(text, sizeof text, "def @main(%%x: Tensor[(3), %s], %%y: Tensor[(3), %s]) { right_shift(%%x, %%y) }",
                 types[t], types[t]);
        r = run(text, in);
        CHECK_RUN(r, right, 3, 0);
        byoc_module_destroy(r.m);
    }
    const double ux[4] = {255, 1, 248, 3}, sx[4] = {127, 1, -8, -8}, counts[4] = {8, 7, 1, 9};
    const double *uin[2] = {ux, counts}, *sin_[2] = {sx, counts};
    const double u8_left[4] = {0, 128, 240, 0};
    run_result r = run("def @main(%x: Tensor[(4), uint8], %y: Tensor[(4), uint8]) { left_shift(%x, %y) }", uin);
    CHECK_RUN(r, u8_left, 4, 0);
    CHECK_ROUND_TRIP(r);
    const double i8_right[4] = {0, 0, -4, -1};
    r = run("def @main(%x: Tensor[(4), int8], %y: Tensor[(4), int8]) { right_shift(%x, %y) }", sin_);
    CHECK_RUN(r, i8_right, 4, 0);
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(3), float32], %y: Tensor[(3), float32]) { left_shift(%x, %y) }",
                     "must be integers, got float32");
}

static void test_trilu(void) {
    const double x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}; /* 3 x 4 */
    const double *in[1] = {x};
    const double upper[12] = {1, 2, 3, 4, 0, 6, 7, 8, 0, 0, 11, 12};
    const double upper_k1[12] = {0, 2, 3, 4, 0, 0, 7, 8, 0, 0, 0, 12};
    const double lower_km1[12] = {0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0};
    const double lower_k5[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    run_result r = run("def @main(%x: Tensor[(3, 4), float32]) { trilu(%x) }", in);
    CHECK_RUN(r, upper, 12, 0);
    byoc_module_destroy(r.m);
    r = run("def @main(%x: Tensor[(3, 4), int32]) { trilu(%x, 1i64) }", in);
    CHECK_RUN(r, upper_k1, 12, 0);
    byoc_module_destroy(r.m);
    r = run("def @main(%x: Tensor[(3, 4), float32]) { trilu(%x, -1i64, upper=False) }", in);
    CHECK_RUN(r, lower_km1, 12, 0);
    CHECK_ROUND_TRIP(r);
    /* k past the matrix, given at run time; a batch of two 3 x 2 matrices */
    const double k[1] = {5};
    const double *kin[2] = {x, k};
    r = run("def @main(%x: Tensor[(2, 3, 2), int64], %k: Tensor[(), int64]) { trilu(%x, %k, upper=False) }", kin);
    CHECK_RUN(r, lower_k5, 12, 0);
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(4), float32]) { trilu(%x) }", "data must have rank >= 2");
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2, 2), float32]) { trilu(%x, 1f) }", "k must be one int64 value");
}

static void test_cumsum(void) {
    const double x[6] = {1, 2, 3, 4, 5, 6};
    const double *in[1] = {x};
    const double incl[6] = {1, 3, 6, 10, 15, 21}, excl[6] = {0, 1, 3, 6, 10, 15};
    const double rev[6] = {21, 20, 18, 15, 11, 6}, rev_excl[6] = {20, 18, 15, 11, 6, 0};
    run_result r = run("def @main(%x: Tensor[(6), float32]) { cumsum(%x, axis=0) }", in);
    CHECK_RUN(r, incl, 6, 0);
    byoc_module_destroy(r.m);
    r = run("def @main(%x: Tensor[(6), float64]) { cumsum(%x, axis=0, exclusive=True) }", in);
    CHECK_RUN(r, excl, 6, 0);
    byoc_module_destroy(r.m);
    r = run("def @main(%x: Tensor[(6), int32]) { cumsum(%x, axis=-1, reverse=True) }", in);
    CHECK_RUN(r, rev, 6, 0);
    byoc_module_destroy(r.m);
    r = run("def @main(%x: Tensor[(6), float32]) { cumsum(%x, axis=0, exclusive=True, reverse=True) }", in);
    CHECK_RUN(r, rev_excl, 6, 0);
    CHECK_ROUND_TRIP(r);
    /* 2 x 3 along each axis; axis None scans the flattened input; dtype widens */
    const double axis0[6] = {1, 2, 3, 5, 7, 9}, axis1[6] = {1, 3, 6, 4, 9, 15};
    r = run("def @main(%x: Tensor[(2, 3), float32]) { cumsum(%x, axis=0) }", in);
    CHECK_RUN(r, axis0, 6, 0);
    byoc_module_destroy(r.m);
    r = run("def @main(%x: Tensor[(2, 3), int8]) { cumsum(%x, axis=1, dtype=\"int64\") }", in);
    CHECK_RUN(r, axis1, 6, 0);
    CHECK(r.out->annotation->dtype == BYOC_INT64);
    byoc_module_destroy(r.m);
    r = run("def @main(%x: Tensor[(2, 3), float32]) { cumsum(%x) }", in);
    CHECK_RUN(r, incl, 6, 0);
    CHECK(r.out->annotation->rank == 1);
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2, 3), float32]) { cumsum(%x, axis=2) }",
                     "axis 2 is out of range for rank 2");
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2, 3), float32]) { cumsum(%x, axis=0, dtype=\"int4\") }",
                     "unknown dtype \"int4\"");
}

static void test_hardmax(void) {
    const double x[6] = {3, 0, 1, 1, 3, 3};
    const double *in[1] = {x};
    const double last[6] = {1, 0, 0, 0, 1, 0}, first[6] = {1, 0, 0, 0, 1, 1};
    run_result r = run("def @main(%x: Tensor[(2, 3), float32]) { hardmax(%x) }", in);
    CHECK_RUN(r, last, 6, 0);
    byoc_module_destroy(r.m);
    r = run("def @main(%x: Tensor[(2, 3), float64]) { hardmax(%x, axis=0) }", in);
    CHECK_RUN(r, first, 6, 0);
    CHECK_ROUND_TRIP(r);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2, 3), int32]) { hardmax(%x) }", "must be a float tensor, got int32");
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2, 3), float32]) { hardmax(%x, axis=-3) }", "axis -3 is out of range");
}

static void test_eye_like(void) {
    const double x[12] = {0};
    const double *in[1] = {x};
    const double k1[12] = {0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    const double km2[12] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
    run_result r = run("def @main(%x: Tensor[(3, 4), float32]) { eye_like(%x, k=1, dtype=\"int32\") }", in);
    CHECK_RUN(r, k1, 12, 0);
    CHECK(r.out->annotation->dtype == BYOC_INT32);
    CHECK_ROUND_TRIP(r);
    r = run("def @main(%x: Tensor[(3, 4), int64]) { eye_like(%x, k=-2) }", in);
    CHECK_RUN(r, km2, 12, 0);
    CHECK(r.out->annotation->dtype == BYOC_INT64);
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2, 3, 4), float32]) { eye_like(%x) }", "must have rank 2, got rank 3");
}

static void test_det(void) {
    /* the ONNX Det examples, then a batch needing row swaps */
    const double x[4] = {1, 2, 3, 4};
    const double *in[1] = {x};
    const double want2[1] = {-2};
    run_result r = run("def @main(%x: Tensor[(2, 2), float32]) { det(%x) }", in);
    CHECK_RUN(r, want2, 1, 1e-6);
    CHECK(r.out->annotation->rank == 0);
    CHECK_ROUND_TRIP(r);
    const double batch[27] = {0, 1, 0, 1, 0, 0, 0, 0, 1,  /* a swap: -1 */
                              2, 0, 0, 0, 3, 0, 0, 0, 4,  /* diagonal: 24 */
                              1, 2, 3, 4, 5, 6, 7, 8, 9}; /* singular: 0 */
    const double *bin[1] = {batch};
    const double wantb[3] = {-1, 24, 0};
    r = run("def @main(%x: Tensor[(3, 3, 3), float64]) { det(%x) }", bin);
    CHECK_RUN(r, wantb, 3, 1e-12);
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2, 3), float32]) { det(%x) }", "must be square, got 2 x 3");
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2, 2), int32]) { det(%x) }", "must be a float tensor, got int32");
}

static void test_prod(void) {
    const double x[6] = {1, 2, 3, 4, 5, 6};
    const double *in[1] = {x};
    const double rows[2] = {6, 120}, cols[3] = {4, 10, 18}, all[1] = {720};
    run_result r = run("def @main(%x: Tensor[(2, 3), float32]) { prod(%x, axis=[1]) }", in);
    CHECK_RUN(r, rows, 2, 0);
    byoc_module_destroy(r.m);
    r = run("def @main(%x: Tensor[(2, 3), int64]) { prod(%x, axis=[0], keepdims=True) }", in);
    CHECK_RUN(r, cols, 3, 0);
    CHECK(r.out->annotation->rank == 2 && r.out->annotation->dims[0] == 1);
    CHECK_ROUND_TRIP(r);
    r = run("def @main(%x: Tensor[(2, 3), float64]) { prod(%x) }", in);
    CHECK_RUN(r, all, 1, 0);
    byoc_module_destroy(r.m);
    r = run("def @main(%x: Tensor[(2, 3), uint8]) { prod(%x, axis=[-1]) }", in);
    CHECK_RUN(r, rows, 2, 0);
    byoc_module_destroy(r.m);
    CHECK_TYPE_ERROR("def @main(%x: Tensor[(2, 3), float32]) { prod(%x, axis=[2]) }", "axis 2 is out of range");
}

static void test_gelu_forms(void) {
    const double x[3] = {-1, 0, 1};
    const double *in[1] = {x};
    /* x * Phi(x), and the tanh approximation */
    const double erf_form[3] = {-0.15865525393145707, 0, 0.8413447460685429};
    const double tanh_form[3] = {-0.15880800939172324, 0, 0.8411919906082768};
    run_result r = run("def @main(%x: Tensor[(3), float32]) { nn.gelu(%x) }", in);
    CHECK_RUN(r, erf_form, 3, 1e-6);
    byoc_module_destroy(r.m);
    r = run("def @main(%x: Tensor[(3), float64]) { nn.gelu(%x, approximate=\"tanh\") }", in);
    CHECK_RUN(r, tanh_form, 3, 1e-12);
    CHECK_ROUND_TRIP(r);
}

/* ---- ONNX converters, on one-node models ---- */

static void test_onnx_hardmax_coerces_before_opset_13(void) {
    /* [2, 3, 2]: before opset 13 (axis 1) each batch's 6 values are one row; from 13 (axis -1) pairs */
    const int64_t dims[3] = {2, 3, 2};
    const double x[12] = {1, 5, 2, 3, 4, 0, 9, 1, 1, 1, 1, 2};
    const double *in[1] = {x};
    const double coerced[12] = {0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
    const double per_pair[12] = {0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 0, 1};
    for (int opset = 11; opset <= 13; opset += 2) {
        onnx_case mc;
        byoc_onnx_model model;
        byoc_diag d;
        model_begin(&mc, "Hardmax", opset, ONNX_FLOAT, 3, dims, 0, 0, NULL);
        value_info(&mc.graph, 12, "y", ONNX_FLOAT, 3, dims);
        CHECKF(model_import(&mc, &model, &d) == BYOC_OK, "%s", d.message);
        run_result r = model_run(&model, in);
        char why[700];
        int ok = result_is(&r, opset < 13 ? coerced : per_pair, 12, 0, why, sizeof why);
        byoc_onnx_model_free(&model);
        CHECKF(ok, "opset %d: %s", opset, why);
    }
}

static void test_onnx_mod_bitshift_variants(void) {
    const int64_t dims[1] = {4};
    onnx_case mc;
    model_begin(&mc, "Mod", 13, ONNX_FLOAT, 1, dims, ONNX_FLOAT, 1, dims);
    value_info(&mc.graph, 12, "y", ONNX_FLOAT, 1, dims);
    CHECK_IMPORT_ERROR(mc, "node 0 'n1' (Mod): Mod of float32 needs fmod=1");
    model_begin(&mc, "Mod", 13, ONNX_INT32, 1, dims, ONNX_INT32, 1, dims);
    attr_int(&mc.node, "fmod", 2);
    value_info(&mc.graph, 12, "y", ONNX_INT32, 1, dims);
    CHECK_IMPORT_ERROR(mc, "fmod must be 0 or 1, got 2");
    model_begin(&mc, "BitShift", 13, ONNX_UINT8, 1, dims, ONNX_UINT8, 1, dims);
    attr_str(&mc.node, "direction", "UP");
    value_info(&mc.graph, 12, "y", ONNX_UINT8, 1, dims);
    CHECK_IMPORT_ERROR(mc, "direction must be \"LEFT\" or \"RIGHT\", got \"UP\"");
    /* fmod=0 on integers floors, fmod=1 truncates */
    const double x[4] = {-7, 7, -7, 7}, y[4] = {3, 3, -3, -3};
    const double *in[2] = {x, y};
    const double floored[4] = {2, 1, -1, -2}, truncated[4] = {-1, 1, -1, 1};
    for (int fmod = 0; fmod < 2; ++fmod) {
        byoc_onnx_model model;
        byoc_diag d;
        model_begin(&mc, "Mod", 13, ONNX_INT32, 1, dims, ONNX_INT32, 1, dims);
        attr_int(&mc.node, "fmod", fmod);
        value_info(&mc.graph, 12, "y", ONNX_INT32, 1, dims);
        CHECKF(model_import(&mc, &model, &d) == BYOC_OK, "%s", d.message);
        run_result r = model_run(&model, in);
        char why[700];
        int ok = result_is(&r, fmod ? truncated : floored, 4, 0, why, sizeof why);
        byoc_onnx_model_free(&model);
        CHECKF(ok, "fmod=%d: %s", fmod, why);
    }
}

static void test_onnx_trilu_cumsum_eyelike_reduceprod(void) {
    const int64_t mat[2] = {2, 3}, scalar_dims[1] = {0}, one[1] = {1};
    const double x[6] = {1, 2, 3, 4, 5, 6}, k[1] = {1};
    const double *in[2] = {x, k};
    onnx_case mc;
    byoc_onnx_model model;
    byoc_diag d;
    /* Trilu's k from a graph input: it stays an argument, read at run time */
    model_begin(&mc, "Trilu", 14, ONNX_FLOAT, 2, mat, ONNX_INT64, 0, scalar_dims);
    attr_int(&mc.node, "upper", 0);
    value_info(&mc.graph, 12, "y", ONNX_FLOAT, 2, mat);
    CHECKF(model_import(&mc, &model, &d) == BYOC_OK, "%s", d.message);
    const double lower_k1[6] = {1, 2, 0, 4, 5, 6};
    run_result r = model_run(&model, in);
    char why[700];
    int ok = result_is(&r, lower_k1, 6, 0, why, sizeof why);
    byoc_onnx_model_free(&model);
    CHECKF(ok, "%s", why);
    /* CumSum's axis must be known at import */
    model_begin(&mc, "CumSum", 14, ONNX_FLOAT, 2, mat, ONNX_INT64, 1, one);
    value_info(&mc.graph, 12, "y", ONNX_FLOAT, 2, mat);
    CHECK_IMPORT_ERROR(mc, "CumSum's axis must be a constant");
    /* EyeLike with dtype int32 (6) and k 1 */
    model_begin(&mc, "EyeLike", 13, ONNX_FLOAT, 2, mat, 0, 0, NULL);
    attr_int(&mc.node, "dtype", 6);
    attr_int(&mc.node, "k", 1);
    value_info(&mc.graph, 12, "y", ONNX_INT32, 2, mat);
    CHECKF(model_import(&mc, &model, &d) == BYOC_OK, "%s", d.message);
    const double eye_k1[6] = {0, 1, 0, 0, 0, 1};
    r = model_run(&model, in);
    ok = result_is(&r, eye_k1, 6, 0, why, sizeof why) && r.out->annotation->dtype == BYOC_INT32;
    byoc_onnx_model_free(&model);
    CHECKF(ok, "%s", why);
    /* ReduceProd over axis -1 without keepdims (opset 13: axes an attribute) */
    model_begin(&mc, "ReduceProd", 13, ONNX_FLOAT, 2, mat, 0, 0, NULL);
    const int64_t last[1] = {-1};
    attr_ints(&mc.node, "axes", last, 1);
    attr_int(&mc.node, "keepdims", 0);
    const int64_t two[1] = {2};
    value_info(&mc.graph, 12, "y", ONNX_FLOAT, 1, two);
    CHECKF(model_import(&mc, &model, &d) == BYOC_OK, "%s", d.message);
    const double prods[2] = {6, 120};
    r = model_run(&model, in);
    ok = result_is(&r, prods, 2, 0, why, sizeof why);
    byoc_onnx_model_free(&model);
    CHECKF(ok, "%s", why);
}

/* Gelu is opset 20's; the importer reads opsets up to 17, so the converter is checked at 17 */
static void test_onnx_gelu_approximate(void) {
    const int64_t dims[1] = {3};
    const double x[3] = {-1, 0, 1};
    const double *in[1] = {x};
    const double tanh_form[3] = {-0.15880800939172324, 0, 0.8411919906082768};
    onnx_case mc;
    byoc_onnx_model model;
    byoc_diag d;
    model_begin(&mc, "Gelu", 17, ONNX_FLOAT, 1, dims, 0, 0, NULL);
    attr_str(&mc.node, "approximate", "tanh");
    value_info(&mc.graph, 12, "y", ONNX_FLOAT, 1, dims);
    CHECKF(model_import(&mc, &model, &d) == BYOC_OK, "%s", d.message);
    run_result r = model_run(&model, in);
    char why[700];
    int ok = result_is(&r, tanh_form, 3, 1e-6, why, sizeof why);
    byoc_onnx_model_free(&model);
    CHECKF(ok, "%s", why);
    model_begin(&mc, "Gelu", 17, ONNX_FLOAT, 1, dims, 0, 0, NULL);
    attr_str(&mc.node, "approximate", "fast");
    value_info(&mc.graph, 12, "y", ONNX_FLOAT, 1, dims);
    CHECK_IMPORT_ERROR(mc, "approximate must be \"none\" or \"tanh\", got \"fast\"");
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_trigonometric_and_hyperbolic),
        TEST_ENTRY(test_round_half_to_even),
        TEST_ENTRY(test_mod_and_floor_mod),
        TEST_ENTRY(test_logical_ops),
        TEST_ENTRY(test_shifts),
        TEST_ENTRY(test_trilu),
        TEST_ENTRY(test_cumsum),
        TEST_ENTRY(test_hardmax),
        TEST_ENTRY(test_eye_like),
        TEST_ENTRY(test_det),
        TEST_ENTRY(test_prod),
        TEST_ENTRY(test_gelu_forms),
        TEST_ENTRY(test_onnx_hardmax_coerces_before_opset_13),
        TEST_ENTRY(test_onnx_mod_bitshift_variants),
        TEST_ENTRY(test_onnx_trilu_cumsum_eyelike_reduceprod),
        TEST_ENTRY(test_onnx_gelu_approximate),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
