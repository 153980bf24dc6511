/* The simulated devices' integer datapath: the fixed-point requantize (TFLite's QuantizeMultiplier and
   MultiplyByQuantizedMultiplier) against exact and float requantize, per channel, with ties and saturation;
   a small qnn network partitioned greedily onto the npu and the dsp against the host run (every integer within
   1 LSB, most equal); int8 layers' cycle model (the estimator against the simulator, int8 beside float32). */
#include "../byoc_sim.h"
#include "test.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static uint32_t rng_state = 12345u;
static uint32_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}
static double uniform(void) { return (double)(rng() >> 8) / 16777216.0; }

static void test_quantize_multiplier(void) {
    int32_t m = -1;
    int shift = -1;
    byoc_diag d;
    CHECK(byoc_sim_quantize_multiplier(0.5, &m, &shift, &d) == BYOC_OK && m == (1 << 30) && shift == 0);
    CHECK(byoc_sim_quantize_multiplier(1.0, &m, &shift, &d) == BYOC_OK && m == (1 << 30) && shift == 1);
    CHECK(byoc_sim_quantize_multiplier(0.75, &m, &shift, &d) == BYOC_OK && m == 1610612736 && shift == 0);
    CHECK(byoc_sim_quantize_multiplier(3e-3, &m, &shift, &d) == BYOC_OK && shift == -8);
    CHECK(fabs(ldexp((double)m, shift - 31) - 3e-3) < 3e-3 * 1e-9);
    /* a fraction that rounds up to 2^31 moves to the next exponent, as TFLite's */
    CHECK(byoc_sim_quantize_multiplier(1.0 - 1e-12, &m, &shift, &d) == BYOC_OK && m == (1 << 30) && shift == 1);
    CHECK(byoc_sim_quantize_multiplier(1e-12, &m, &shift, &d) == BYOC_OK && m == 0 && shift == 0);
    CHECK(byoc_sim_quantize_multiplier(0.0, &m, &shift, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "is not a positive finite number");
    CHECK(byoc_sim_quantize_multiplier(-0.25, &m, &shift, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK(byoc_sim_quantize_multiplier(NAN, &m, &shift, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK(byoc_sim_quantize_multiplier(INFINITY, &m, &shift, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK(byoc_sim_quantize_multiplier(0.5, NULL, &shift, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "multiplier is NULL");
    /* gemmlowp's roundings: the high multiply's ties go up, the shift's away from zero */
    CHECK(byoc_sim_quantize_multiplier(0.5, &m, &shift, &d) == BYOC_OK);
    CHECK(byoc_sim_multiply_by_quantized_multiplier(3, m, shift) == 2);
    CHECK(byoc_sim_multiply_by_quantized_multiplier(-3, m, shift) == -1);
    CHECK(byoc_sim_quantize_multiplier(0.25, &m, &shift, &d) == BYOC_OK && shift == -1);
    CHECK(byoc_sim_multiply_by_quantized_multiplier(6, m, shift) == 2);   /* 1.5: the high multiply is exact */
    CHECK(byoc_sim_multiply_by_quantized_multiplier(-6, m, shift) == -2); /* -1.5: the shift rounds away */
    /* saturation: a large multiplier and a large input */
    CHECK(byoc_sim_quantize_multiplier(1000.0, &m, &shift, &d) == BYOC_OK);
    CHECK(byoc_sim_multiply_by_quantized_multiplier(INT32_MAX, m, shift) == INT32_MAX);
    CHECK(byoc_sim_multiply_by_quantized_multiplier(INT32_MIN, m, shift) == INT32_MIN);
    CHECK(byoc_sim_multiply_by_quantized_multiplier(-5, m, shift) == -5000);
    CHECK(byoc_sim_quantize_multiplier(ldexp(1.0, 40), &m, &shift, &d) == BYOC_OK && shift == 41);
    CHECK(byoc_sim_multiply_by_quantized_multiplier(1, m, shift) == INT32_MAX);
    CHECK(byoc_sim_multiply_by_quantized_multiplier(-1, m, shift) == INT32_MIN);
    CHECK(byoc_sim_quantize_multiplier(1e20, &m, &shift, &d) == BYOC_OK && shift == 62);
    CHECK(byoc_sim_multiply_by_quantized_multiplier(1, m, shift) == INT32_MAX);
    CHECK(byoc_sim_multiply_by_quantized_multiplier(0, m, shift) == 0);
}

/* random inputs and multipliers (log-uniform over 2^-24 .. 2^40, and exact ties): within 1 of x * M rounded, and
   equal to it but where the exact product is near a half */
static void test_fixed_point_within_one_of_exact(void) {
    long equal = 0, total = 0, near_half = 0;
    byoc_diag d;
    for (int trial = 0; trial < 4000; ++trial) {
        double real = trial % 4 == 0 ? ldexp(1.0, -(int)(rng() % 12)) : exp2(-24.0 + 64.0 * uniform());
        int32_t m;
        int shift;
        CHECKF(byoc_sim_quantize_multiplier(real, &m, &shift, &d) == BYOC_OK, "%s", d.message);
        for (int i = 0; i < 64; ++i) {
            int64_t x = i < 4 ? (int64_t)(rng() % 7) - 3
                        : i < 8
                            ? (i & 1 ? INT32_MAX : INT32_MIN) + (int64_t)(i & 1 ? -(int)(rng() % 4) : (int)(rng() % 4))
                            : (int64_t)(int32_t)rng() >> (rng() % 31);
            double exact = (double)x * real;
            int32_t got = byoc_sim_multiply_by_quantized_multiplier((int32_t)x, m, shift);
            double want = exact > 2147483647.0 ? 2147483647.0 : exact < -2147483648.0 ? -2147483648.0 : exact;
            double diff = fabs((double)got - want);
            CHECKF(diff <= 1.0 + 1e-9 * fabs(want), "x=%lld M=%.17g: fixed point %d, exact %.17g", (long long)x, real,
                   (int)got, exact);
            /* the high multiply rounds at 2^-right of an LSB before the shift rounds again (TFLite's double
               rounding), and the 31-bit multiplier is off by up to |x * M| * 2^-31: within that of a half,
               either neighbour is right */
            double frac = fabs(want - floor(want) - 0.5);
            double band = (shift < 0 ? ldexp(1.0, shift - 1) : 0.0) + fabs(want) * ldexp(1.0, -30) + 1e-12;
            if (frac <= band) near_half++;
            else if (got == (int32_t)llround(want)) equal++;
            total++;
        }
    }
    CHECKF(equal == total - near_half, "only %ld of %ld away from a half are exact", equal, total - near_half);
}

/* the module's outputs on the host and with the backends given (greedy, constants bound) */
typedef struct run {
    byoc_module *m;
    byoc_sim_program *p;
    byoc_tensor out[4];
    int nout;
} run;
static int run_module(run *r, const char *text, byoc_sim_backend *const *b, int nb, const byoc_tensor *in, int nin,
                      byoc_diag *d) {
    memset(r, 0, sizeof *r);
    r->m = byoc_module_parse(text, strlen(text), "qnet.relay", NULL, d);
    if (!r->m || byoc_infer_type(r->m, d) != BYOC_OK || byoc_fold_constant(r->m, d) != BYOC_OK ||
        byoc_infer_type(r->m, d) != BYOC_OK)
        return 0;
    if (nb) {
        const byoc_backend_spec *specs[2];
        const byoc_target *targets[2];
        for (int i = 0; i < nb; ++i) specs[i] = b[i]->spec, targets[i] = b[i]->target;
        byoc_partition_options o;
        memset(&o, 0, sizeof o);
        o.backends = specs;
        o.nbackends = nb;
        o.bind_constants = 1;
        if (byoc_partition_greedy(r->m, &o, NULL, d) != BYOC_OK ||
            byoc_run_target_hooks(r->m, targets, nb, d) != BYOC_OK)
            return 0;
    }
    if (!(r->p = byoc_sim_lower(r->m, NULL, d))) return 0;
    r->nout = byoc_sim_output_count(r->p);
    return r->nout <= 4 && byoc_sim_run(r->p, in, nin, r->out, r->nout, d) == BYOC_OK;
}
static void run_free(run *r) {
    byoc_sim_program_destroy(r->p);
    byoc_module_destroy(r->m);
}
static int64_t int_at(const byoc_tensor *t, size_t i) {
    switch (t->dtype) {
    case BYOC_INT8: return ((const int8_t *)t->data)[i];
    case BYOC_UINT8: return ((const uint8_t *)t->data)[i];
    case BYOC_INT16: return ((const int16_t *)t->data)[i];
    default: return ((const int32_t *)t->data)[i];
    }
}
static size_t numel(const byoc_tensor *t) {
    size_t n = 1;
    for (int i = 0; i < t->rank; ++i) n *= (size_t)t->dims[i];
    return n;
}
/* integer output k of two runs: the largest difference, and how many elements are equal */
static int64_t compare_ints(const run *a, const run *b, int k, size_t *equal, size_t *count) {
    int64_t worst = 0;
    *equal = 0;
    *count = numel(&a->out[k]);
    for (size_t i = 0; i < *count; ++i) {
        int64_t e = llabs(int_at(&a->out[k], i) - int_at(&b->out[k], i));
        if (e > worst) worst = e;
        *equal += e == 0;
    }
    return worst;
}
/* kernels of a run on a device kind */
static int device_kernels(const run *r, const char *kind) {
    int n = 0;
    for (int i = 0; i < byoc_sim_kernel_count(r->p); ++i) n += !strcmp(byoc_sim_kernel(r->p, i)->device_kind, kind);
    return n;
}

/* per-channel requantize alone: accumulators of every size, ties (multipliers 1/2, 1/4, 3/8), saturation */
static const char requantize_text[] =
    "def @main(%acc: Tensor[(1, 8, 4, 40), int32], %s: Tensor[(8), float32]) {\n"
    "  qnn.requantize(%acc, %s, 3, 0.5f, -5, axis=1, rounding=\"TONEAREST_EVEN\", compute_dtype=\"float32\", "
    "out_dtype=\"int8\")\n"
    "}\n";
/* the same in the devices' fixed point on the host kernel (compute_dtype int64, rounding TFLITE) */
static const char requantize_fixed_text[] =
    "def @main(%acc: Tensor[(1, 8, 4, 40), int32], %s: Tensor[(8), float32]) {\n"
    "  qnn.requantize(%acc, %s, 3, 0.5f, -5, axis=1, rounding=\"TFLITE\", compute_dtype=\"int64\", "
    "out_dtype=\"int8\")\n"
    "}\n";

static void test_requantize_on_devices_within_one_lsb(void) {
    static int32_t acc[8 * 4 * 40];
    float scales[8] = {0.25f, 0.125f, 0.1875f, 0.0625f, 0.0f, 0.0f, 0.0f, 0.0f}; /* M = 1/2, 1/4, 3/8, 1/8 */
    for (int c = 4; c < 8; ++c) scales[c] = (float)(0.5 * exp2(-14.0 + 14.0 * uniform()));
    for (size_t i = 0; i < sizeof acc / sizeof acc[0]; ++i) {
        uint32_t kind = rng() % 4;
        acc[i] = kind == 0   ? (int32_t)(rng() % 41) - 20                     /* ties for the power-of-two scales */
                 : kind == 1 ? (int32_t)rng()                                 /* saturates */
                             : (int32_t)((int32_t)rng() >> (8 + rng() % 16)); /* in range for the small ones */
    }
    int64_t acc_dims[4] = {1, 8, 4, 40}, s_dims[1] = {8};
    byoc_tensor in[2];
    memset(in, 0, sizeof in);
    in[0].dtype = BYOC_INT32, in[0].rank = 4, in[0].data = acc;
    memcpy(in[0].dims, acc_dims, sizeof acc_dims);
    in[1].dtype = BYOC_FLOAT32, in[1].rank = 1, in[1].data = scales;
    memcpy(in[1].dims, s_dims, sizeof s_dims);
    const char *devices[] = {"npu", "npu -sram_kb=4", "dsp", "npu -preset=npu-128x128"};
    for (int k = 0; k < 4; ++k) {
        byoc_diag d;
        byoc_sim_backend *b = byoc_sim_backend_open(devices[k], &d);
        CHECKF(b, "%s", d.message);
        run host, dev, host_fixed;
        int ok = run_module(&host, requantize_text, NULL, 0, in, 2, &d) &&
                 run_module(&dev, requantize_text, &b, 1, in, 2, &d) &&
                 run_module(&host_fixed, requantize_fixed_text, NULL, 0, in, 2, &d);
        byoc_sim_backend_close(b);
        CHECKF(ok, "%s: %s", devices[k], d.message);
        int on_device = device_kernels(&dev, strncmp(devices[k], "dsp", 3) ? "npu" : "dsp");
        size_t equal, count, fixed_equal, fixed_count;
        int64_t worst = compare_ints(&host, &dev, 0, &equal, &count);
        compare_ints(&host_fixed, &dev, 0, &fixed_equal, &fixed_count);
        run_free(&host_fixed);
        CHECKF(fixed_equal == fixed_count, "%s: the host kernel's fixed point (int64, TFLITE) differs from the "
               "device's in %zu of %zu", devices[k], fixed_count - fixed_equal, fixed_count);
        run_free(&host);
        run_free(&dev);
        CHECKF(on_device == 1, "%s: the requantize did not run on the device", devices[k]);
        CHECKF(worst <= 1, "%s: the device's requantize is %lld LSB from the host's", devices[k], (long long)worst);
        /* ties differ (half to even against gemmlowp's), the rest agrees */
        CHECKF(equal < count && equal * 10 >= count * 8, "%s: %zu of %zu equal", devices[k], equal, count);
    }
}

/* quantize -> qnn.conv2d 3x3 + bias + requantize (per channel) + clip -> qnn.dense + bias -> requantize ->
   dequantize; the per-channel weight scales are folded from constants */
static const char qnet_text[] =
    "def @main(%x: Tensor[(1, 8, 10, 10), float32]) {\n"
    "  %k1 = add(multiply(abs(meta[relay.Constant][0] /* ty=Tensor[(16), float32] */), 0.02f), 0.005f);\n"
    "  %k2 = add(multiply(abs(meta[relay.Constant][1] /* ty=Tensor[(10), float32] */), 0.02f), 0.005f);\n"
    "  %q = qnn.quantize(%x, 0.004f, 0, out_dtype=\"int8\");\n"
    "  %c1 = qnn.conv2d(%q, meta[relay.Constant][2] /* ty=Tensor[(16, 8, 3, 3), int8] */, 0, 0, 0.004f, %k1, "
    "padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3]);\n"
    "  %b1 = nn.bias_add(%c1, meta[relay.Constant][3] /* ty=Tensor[(16), int32] */);\n"
    "  %r1 = qnn.requantize(%b1, multiply(0.004f, %k1), 0, 0.004f, 3, axis=1, rounding=\"TONEAREST_EVEN\", "
    "compute_dtype=\"float32\", out_dtype=\"int8\");\n"
    "  %a1 = clip(%r1, a_min=-100f, a_max=110f);\n"
    "  %f = reshape(%a1, newshape=[1, 1600]);\n"
    "  %d = qnn.dense(%f, meta[relay.Constant][4] /* ty=Tensor[(10, 1600), int8] */, 3, 0, 0.004f, %k2, units=10);\n"
    "  %bd = nn.bias_add(%d, meta[relay.Constant][5] /* ty=Tensor[(10), int32] */);\n"
    "  %rd = qnn.requantize(%bd, multiply(0.004f, %k2), 0, 0.002f, -4, axis=1, rounding=\"TONEAREST_EVEN\", "
    "compute_dtype=\"float32\", out_dtype=\"int8\");\n"
    "  (%a1, %rd, qnn.dequantize(%rd, 0.002f, -4))\n"
    "}\n";

/* layers on the same integer inputs on both sides: a 1x1 convolution to uint8 (zero point 128), a strided 3x3
   convolution of uint8 data with a broadcast int32 bias, a depthwise 3x3 convolution, and qnn.add alone (an
   elementwise layer: the clip it reads is an output too) */
static const char qlayers_text[] =
    "def @main(%a: Tensor[(1, 16, 10, 10), int8], %u: Tensor[(1, 16, 10, 10), uint8]) {\n"
    "  %k1 = add(multiply(abs(meta[relay.Constant][0] /* ty=Tensor[(16), float32] */), 0.02f), 0.005f);\n"
    "  %k2 = add(multiply(abs(meta[relay.Constant][1] /* ty=Tensor[(24), float32] */), 0.02f), 0.005f);\n"
    "  %k3 = add(multiply(abs(meta[relay.Constant][2] /* ty=Tensor[(16), float32] */), 0.02f), 0.005f);\n"
    "  %c1 = qnn.conv2d(%a, meta[relay.Constant][3] /* ty=Tensor[(16, 16, 1, 1), int8] */, 3, 0, 0.004f, %k1, "
    "channels=16, kernel_size=[1, 1]);\n"
    "  %r1 = qnn.requantize(%c1, multiply(0.004f, %k1), 0, 0.0015f, 128u8, axis=1, rounding=\"TONEAREST_EVEN\", "
    "compute_dtype=\"float32\", out_dtype=\"uint8\");\n"
    "  %c2 = qnn.conv2d(%u, meta[relay.Constant][4] /* ty=Tensor[(24, 16, 3, 3), int8] */, 128u8, 0, 0.0015f, %k2, "
    "strides=[2, 2], padding=[1, 1, 1, 1], channels=24, kernel_size=[3, 3]);\n"
    "  %b2 = add(%c2, meta[relay.Constant][5] /* ty=Tensor[(24, 1, 1), int32] */);\n"
    "  %r2 = qnn.requantize(%b2, multiply(0.0015f, %k2), 0, 0.003f, -2, axis=1, rounding=\"TONEAREST_EVEN\", "
    "compute_dtype=\"float32\", out_dtype=\"int8\");\n"
    "  %c3 = qnn.conv2d(%a, meta[relay.Constant][6] /* ty=Tensor[(16, 1, 3, 3), int8] */, 3, 0, 0.004f, %k3, "
    "padding=[1, 1, 1, 1], groups=16, channels=16, kernel_size=[3, 3]);\n"
    "  %r3 = qnn.requantize(%c3, multiply(0.004f, %k3), 0, 0.0005f, 0, axis=1, rounding=\"TONEAREST_EVEN\", "
    "compute_dtype=\"float32\", out_dtype=\"int8\");\n"
    "  %a3 = clip(%r3, a_min=-128f, a_max=127f);\n"
    "  %s = qnn.add(%a3, %a, 0.0005f, 0, 0.004f, 3, 0.003f, -1);\n"
    "  (%r1, %r2, %a3, %s)\n"
    "}\n";

/* the QOperator ops the devices run by byoc.h's kernels (no requantize of their own): average and global
   average pools on the npu, the table activations on either, softmax on the dsp */
static const char qpool_text[] =
    "def @main(%a: Tensor[(1, 16, 10, 10), int8], %u: Tensor[(1, 16, 10, 10), uint8]) {\n"
    "  %p = qnn.avg_pool2d(%a, 0.004f, 3, 0.003f, 1, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]);\n"
    "  %g = qnn.global_avg_pool2d(%u, 0.004f, 128, 0.001f, 0);\n"
    "  %s = qnn.sigmoid(%a, 0.03f, 3, 0.00390625f, -128);\n"
    "  %m = qnn.softmax(%a, 0.05f, 3, 0.00390625f, -128, axis=1);\n"
    "  (%p, %g, %s, %m)\n"
    "}\n";

typedef struct inputs {
    float image[8 * 10 * 10];
    int8_t a[16 * 10 * 10];
    uint8_t u[16 * 10 * 10];
    byoc_tensor net[1], layers[2];
} inputs;
static void make_inputs(inputs *in) {
    memset(in, 0, sizeof *in);
    for (size_t i = 0; i < sizeof in->image / sizeof in->image[0]; ++i) in->image[i] = (float)(uniform() - 0.5);
    for (size_t i = 0; i < sizeof in->a; ++i) in->a[i] = (int8_t)(int)(rng() % 256 - 128), in->u[i] = (uint8_t)rng();
    int64_t image_dims[4] = {1, 8, 10, 10}, dims[4] = {1, 16, 10, 10};
    in->net[0].dtype = BYOC_FLOAT32, in->net[0].rank = 4, in->net[0].data = in->image;
    memcpy(in->net[0].dims, image_dims, sizeof image_dims);
    in->layers[0].dtype = BYOC_INT8, in->layers[0].rank = 4, in->layers[0].data = in->a;
    in->layers[1].dtype = BYOC_UINT8, in->layers[1].rank = 4, in->layers[1].data = in->u;
    memcpy(in->layers[0].dims, dims, sizeof dims);
    memcpy(in->layers[1].dims, dims, sizeof dims);
}

/* the host's integers against the devices': every one within 1 LSB, at least `percent_equal` of them equal; every
   integer output spans a range (no wholesale saturation) */
static void check_on_devices(const char *text, const byoc_tensor *in, int nin, int nint, int percent_equal) {
    byoc_diag d;
    run host;
    CHECKF(run_module(&host, text, NULL, 0, in, nin, &d), "host: %s", d.message);
    for (int k = 0; k < nint; ++k) {
        int64_t lo = 1000, hi = -1000;
        for (size_t i = 0; i < numel(&host.out[k]); ++i) {
            int64_t v = int_at(&host.out[k], i);
            lo = v < lo ? v : lo, hi = v > hi ? v : hi;
        }
        if (hi - lo < 12) run_free(&host);
        CHECKF(hi - lo >= 12, "output %d spans [%lld, %lld] only", k, (long long)lo, (long long)hi);
    }
    const char *configs[][2] = {{"npu", NULL},
                                {"dsp", NULL},
                                {"npu -sram_kb=12 -double_buffer=0", "dsp"},
                                {"npu -preset=npu-128x128", NULL},
                                {"dsp -sram_kb=8", NULL},
                                {"npu -dtypes=int8,uint8", NULL}};
    for (int c = 0; c < 6; ++c) {
        byoc_sim_backend *b[2] = {byoc_sim_backend_open(configs[c][0], &d), NULL};
        if (b[0] && configs[c][1]) b[1] = byoc_sim_backend_open(configs[c][1], &d);
        int ok = b[0] && (!configs[c][1] || b[1]);
        run dev;
        memset(&dev, 0, sizeof dev);
        ok = ok && run_module(&dev, text, b, configs[c][1] ? 2 : 1, in, nin, &d);
        byoc_sim_backend_close(b[0]);
        byoc_sim_backend_close(b[1]);
        const char *kind = strncmp(configs[c][0], "dsp", 3) ? "npu" : "dsp";
        int layers = ok ? device_kernels(&dev, kind) : 0, worst_output = -1;
        size_t total_equal = 0, total = 0;
        int64_t worst = 0;
        for (int k = 0; ok && k < nint; ++k) {
            size_t equal, count;
            int64_t w = compare_ints(&host, &dev, k, &equal, &count);
            if (w > worst) worst = w, worst_output = k;
            total_equal += equal, total += count;
        }
        if (dev.m) run_free(&dev);
        if (!ok || layers < 1 || worst > 1 || total_equal * 100 < total * (size_t)percent_equal) run_free(&host);
        CHECKF(ok, "%s: %s", configs[c][0], d.message);
        CHECKF(layers >= 1, "%s: no partition on the %s", configs[c][0], kind);
        CHECKF(worst <= 1, "%s: output %d: an integer %lld LSB from the host's", configs[c][0], worst_output,
               (long long)worst);
        CHECKF(total_equal * 100 >= total * (size_t)percent_equal, "%s: %zu of %zu integers equal the host's",
               configs[c][0], total_equal, total);
    }
    run_free(&host);
}

/* each layer from the same integers: the device's fixed-point requantize against the host's float one */
static void test_qnn_layers_on_devices(void) {
    static inputs in;
    make_inputs(&in);
    check_on_devices(qlayers_text, in.layers, 2, 4, 95);
}
static void test_qnn_pools_and_tables_on_devices(void) {
    static inputs in;
    make_inputs(&in);
    check_on_devices(qpool_text, in.layers, 2, 4, 100);
}
/* the network: the dense layer sums the convolution's (rare) 1-LSB differences times its weights, which its
   requantize scales down below one LSB here */
static void test_qnn_network_on_devices(void) {
    static inputs in;
    make_inputs(&in);
    check_on_devices(qnet_text, in.net, 1, 2, 95);
}

/* the network compiled for npu + dsp saved as a .byoc and loaded back: format 3 blobs, the same integers */
static void test_executable_round_trip(void) {
    static inputs in;
    make_inputs(&in);
    byoc_diag d;
    byoc_sim_backend *b[2] = {byoc_sim_backend_open("npu", &d), byoc_sim_backend_open("dsp -preset=hvx-1024", &d)};
    CHECKF(b[0] && b[1], "%s", d.message);
    run r;
    int ok = run_module(&r, qnet_text, b, 2, in.net, 1, &d);
    byoc_sim_backend_close(b[0]);
    byoc_sim_backend_close(b[1]);
    if (!ok && r.m) run_free(&r);
    CHECKF(ok, "%s", d.message);
    void *bytes = NULL;
    size_t size = 0;
    byoc_sim_executable *e = NULL;
    if (byoc_sim_executable_save(r.p, NULL, &bytes, &size, &d) == BYOC_OK)
        e = byoc_sim_executable_load(bytes, size, "qnet.byoc", NULL, &d);
    free(bytes);
    byoc_tensor out[4];
    int nblobs = e ? byoc_sim_executable_blob_count(e) : 0, v3 = 0, same = 0;
    for (int i = 0; i < nblobs; ++i) v3 += !strcmp(byoc_sim_executable_blob(e, i)->format, "BYOCDEV 3");
    if (e && byoc_sim_run(byoc_sim_executable_program(e), in.net, 1, out, r.nout, &d) == BYOC_OK) {
        same = 1;
        for (int k = 0; k < r.nout; ++k)
            same &= !memcmp(out[k].data, r.out[k].data, numel(&out[k]) * byoc_dtype_size(out[k].dtype));
    }
    byoc_sim_executable_destroy(e);
    run_free(&r);
    CHECKF(e != NULL, "%s", d.message);
    CHECKF(nblobs == 2 && v3 == 2, "%d blobs, %d of format 3", nblobs, v3);
    CHECK(same);
}

/* Collage prices int8 candidates with the devices' int8 models: its plan is no dearer than greedy's and cheaper
   than the host's, places qnn layers on a device, and runs within 1 LSB of the host */
static void test_collage_sees_int8_costs(void) {
    static inputs in;
    make_inputs(&in);
    byoc_diag d;
    run host, dev;
    CHECKF(run_module(&host, qlayers_text, NULL, 0, in.layers, 2, &d), "%s", d.message);
    byoc_sim_backend *b[2] = {byoc_sim_backend_open("npu", &d), byoc_sim_backend_open("dsp", &d)};
    memset(&dev, 0, sizeof dev);
    dev.m = byoc_module_parse(qlayers_text, strlen(qlayers_text), "qlayers.relay", NULL, &d);
    int ok = b[0] && b[1] && dev.m && byoc_infer_type(dev.m, &d) == BYOC_OK &&
             byoc_fold_constant(dev.m, &d) == BYOC_OK && byoc_infer_type(dev.m, &d) == BYOC_OK;
    const byoc_backend_spec *specs[2] = {b[0] ? b[0]->spec : NULL, b[1] ? b[1]->spec : NULL};
    const byoc_target *targets[2] = {b[0] ? b[0]->target : NULL, b[1] ? b[1]->target : NULL};
    byoc_sim_collage_devices cd;
    memset(&cd, 0, sizeof cd);
    cd.backends = (const byoc_sim_backend *const *)b;
    cd.count = 2;
    byoc_collage_options o;
    memset(&o, 0, sizeof o);
    o.backends = specs, o.nbackends = 2, o.cost = byoc_sim_collage_cost, o.cost_data = &cd, o.bind_constants = 1;
    byoc_collage_stats st;
    memset(&st, 0, sizeof st);
    ok = ok && byoc_partition_collage(dev.m, &o, &st, NULL, &d) == BYOC_OK &&
         byoc_run_target_hooks(dev.m, targets, 2, &d) == BYOC_OK && (dev.p = byoc_sim_lower(dev.m, NULL, &d)) &&
         byoc_sim_run(dev.p, in.layers, 2, dev.out, 4, &d) == BYOC_OK;
    double greedy = INFINITY, all_host = INFINITY;
    for (int i = 0; ok && i < st.nplans; ++i) {
        if (!strcmp(st.plans[i].name, "greedy")) greedy = st.plans[i].cost;
        if (!strcmp(st.plans[i].name, "host")) all_host = st.plans[i].cost;
    }
    int on_devices = ok ? device_kernels(&dev, "npu") + device_kernels(&dev, "dsp") : 0;
    size_t equal = 0, count = 0, all_equal = 0, all = 0;
    int64_t worst = 0;
    for (int k = 0; ok && k < 4; ++k) {
        int64_t w = compare_ints(&host, &dev, k, &equal, &count);
        worst = w > worst ? w : worst, all_equal += equal, all += count;
    }
    double cost = st.cost;
    byoc_collage_stats_free(&st);
    byoc_sim_collage_devices_release(&cd);
    byoc_sim_backend_close(b[0]);
    byoc_sim_backend_close(b[1]);
    run_free(&host);
    if (dev.m) run_free(&dev);
    CHECKF(ok, "%s", d.message);
    CHECKF(cost <= greedy * (1 + 1e-9) && cost < all_host, "collage %g s, greedy %g s, host %g s", cost, greedy,
           all_host);
    CHECKF(on_devices >= 1, "no qnn layer on a device");
    CHECKF(worst <= 1 && all_equal * 100 >= all * 95, "worst %lld LSB, %zu of %zu equal", (long long)worst, all_equal,
           all);
}

/* every int8 layer's analytic estimate against its simulated cycles (conv 3x3, 1x1, strided, depthwise, dense, the
   requantize epilogues), across SRAM sizes, buffering and devices */
static void test_estimator_agrees_on_int8_layers(void) {
    static inputs in;
    make_inputs(&in);
    const char *configs[] = {"npu", "npu -sram_kb=12", "npu -sram_kb=12 -double_buffer=0", "npu -preset=npu-128x128",
                             "dsp", "dsp -sram_kb=8"};
    for (int t = 0; t < 2; ++t)
        for (int c = 0; c < 6; ++c) {
            byoc_diag d;
            byoc_sim_backend *b = byoc_sim_backend_open(configs[c], &d);
            CHECKF(b, "%s", d.message);
            run r;
            int ok = run_module(&r, t ? qlayers_text : qnet_text, &b, 1, t ? in.layers : in.net, t ? 2 : 1, &d);
            int checked = 0;
            for (int i = 0; ok && i < byoc_sim_kernel_count(r.p); ++i) {
                const byoc_sim_kernel_info *k = byoc_sim_kernel(r.p, i);
                if (!strcmp(k->device_kind, "host")) continue;
                byoc_sim_cost est;
                if (byoc_sim_estimate(r.m, k->partition, &b->device, &est, &d) != BYOC_OK) {
                    ok = 0;
                    break;
                }
                double ratio = (double)est.cycles / (double)k->cycles;
                if (!(ratio >= 0.9 && ratio <= 1.1) || est.macs != k->macs) {
                    snprintf(d.message, sizeof d.message,
                             "%s (%s): estimated %llu cycles %llu MACs, simulated %llu, %llu", k->partition, configs[c],
                             (unsigned long long)est.cycles, (unsigned long long)est.macs,
                             (unsigned long long)k->cycles, (unsigned long long)k->macs);
                    ok = 0;
                }
                checked++;
            }
            if (r.m) run_free(&r);
            byoc_sim_backend_close(b);
            CHECKF(ok, "%s", d.message);
            CHECKF(checked >= 2, "%s: %d device partitions", configs[c], checked);
        }
}

/* the same convolution in int8, float32 and int16 on one NPU: int8 at the float32 rate of the MAC array (the presets'
   float32 figure is the int8 one) plus the requantize drain, int16 at half; int8 moves a quarter of float32's DRAM
   bytes */
static void test_int8_cycle_model(void) {
    static const char *texts[3] = {
        "def @main(%x: Tensor[(1, 32, 16, 16), int8]) {\n"
        "  qnn.requantize(qnn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(32, 32, 3, 3), int8] */, 0, 0, 0.5f, "
        "0.5f, padding=[1, 1, 1, 1]), 0.25f, 0, 1f, 0, out_dtype=\"int8\")\n}\n",
        "def @main(%x: Tensor[(1, 32, 16, 16), float32]) {\n"
        "  nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(32, 32, 3, 3), float32] */, padding=[1, 1, 1, 1])\n}\n",
        "def @main(%x: Tensor[(1, 32, 16, 16), int16]) {\n"
        "  nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(32, 32, 3, 3), int16] */, padding=[1, 1, 1, 1])\n}\n"};
    byoc_sim_cost cost[3];
    byoc_diag d;
    const byoc_sim_device *u55 = byoc_sim_preset_find("ethos-u55-256");
    CHECK(u55);
    for (int i = 0; i < 3; ++i) {
        byoc_module *m = byoc_module_parse(texts[i], strlen(texts[i]), "layer.relay", NULL, &d);
        CHECKF(m && byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
        byoc_result r = byoc_sim_estimate(m, "main", u55, &cost[i], &d);
        byoc_module_destroy(m);
        CHECKF(r == BYOC_OK, "%d: %s", i, d.message);
    }
    CHECK(cost[0].macs == 32ull * 16 * 16 * 32 * 9 && cost[1].macs == cost[0].macs);
    CHECKF(cost[0].compute_cycles <= cost[1].compute_cycles + 64, "int8 %llu, float32 %llu compute cycles",
           (unsigned long long)cost[0].compute_cycles, (unsigned long long)cost[1].compute_cycles);
    CHECKF(cost[0].bytes_in * 3 < cost[1].bytes_in && cost[0].cycles < cost[1].cycles,
           "int8 moves %llu bytes in %llu cycles, float32 %llu in %llu", (unsigned long long)cost[0].bytes_in,
           (unsigned long long)cost[0].cycles, (unsigned long long)cost[1].bytes_in,
           (unsigned long long)cost[1].cycles);
    CHECK(cost[0].mac_utilization > cost[1].mac_utilization);
    /* int16 at half the int8 MAC rate (the int8 layer adds the requantize drain) */
    CHECKF(cost[2].compute_cycles >= 2 * cost[0].compute_cycles - 64 &&
               cost[2].compute_cycles <= 2 * cost[0].compute_cycles,
           "int16 %llu, int8 %llu compute cycles", (unsigned long long)cost[2].compute_cycles,
           (unsigned long long)cost[0].compute_cycles);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_quantize_multiplier),
        TEST_ENTRY(test_fixed_point_within_one_of_exact),
        TEST_ENTRY(test_requantize_on_devices_within_one_lsb),
        TEST_ENTRY(test_qnn_layers_on_devices),
        TEST_ENTRY(test_qnn_pools_and_tables_on_devices),
        TEST_ENTRY(test_qnn_network_on_devices),
        TEST_ENTRY(test_executable_round_trip),
        TEST_ENTRY(test_collage_sees_int8_costs),
        TEST_ENTRY(test_estimator_agrees_on_int8_layers),
        TEST_ENTRY(test_int8_cycle_model),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
