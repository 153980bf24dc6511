/* The few-channel convolution of byoc.h "few-channel convolutions" (first layers: 1-4 input channels, 3x3..7x7
   windows, strides 1 and 2) against the GEMM path it replaces, byte for byte (bias and ReLU included), and, on
   every instruction set this machine runs, against a scalar sum in the same order (the channels, then the taps,
   one rounding per multiply-add where the instruction set fuses them); odd widths, padding on every side, rows
   of fewer columns than a vector, blocks of fewer than 8 channels; the threads' splits (channel blocks or chunks
   of rows, tasks run out of order) give the same bytes for 1, 2, 3 and 7 tasks. It compiles the implementation
   itself to reach those internals. */
#define BYOC_IMPLEMENTATION
#include "byoc.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static float next_value(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((int64_t)(rng >> 40) - (1 << 23)) / (float)(1 << 22); /* [-2, 2): sums round often */
}

typedef struct fewc_case {
    int64_t N, C, H, W, O, KH, KW, sh, sw, pt, pl, pb, pr;
} fewc_case;

static const fewc_case cases[] = {
    {1, 3, 47, 45, 64, 3, 3, 2, 2, 0, 0, 0, 0},  /* squeezenet's first layer, smaller: no padding, odd sizes */
    {1, 3, 40, 66, 16, 3, 3, 2, 2, 1, 1, 1, 1},  /* ultraface's: padded all round, 33 columns */
    {2, 1, 37, 70, 9, 5, 5, 1, 1, 2, 2, 2, 2},   /* one channel, 5x5, stride 1, two images, 9 = 8 + 1 channels */
    {1, 2, 29, 81, 12, 7, 7, 2, 2, 3, 1, 2, 3},  /* two channels, 7x7, asymmetric padding on every side */
    {1, 4, 23, 83, 8, 3, 5, 1, 2, 1, 2, 0, 1},   /* four channels, 3x5, strides 1 and 2 */
    {1, 3, 20, 64, 16, 3, 3, 1, 1, 1, 1, 1, 1},  /* rows of whole vectors (64 columns) */
    {1, 3, 19, 35, 20, 5, 3, 2, 1, 0, 1, 2, 0},  /* strides 2 and 1, rows of 35: two vectors and a tail */
    {1, 2, 11, 97, 5, 3, 3, 1, 1, 1, 1, 1, 1},   /* 5 channels: one short block; 11 rows: a short last chunk */
};

static byoc__conv_geom geom_of(const fewc_case *c) {
    byoc__conv_geom g;
    memset(&g, 0, sizeof g);
    g.N = c->N; g.C = c->C; g.H = c->H; g.W = c->W; g.O = c->O; g.KH = c->KH; g.KW = c->KW;
    g.G = 1; g.Cg = c->C; g.Og = c->O; g.sh = c->sh; g.sw = c->sw; g.dh = 1; g.dw = 1; g.pt = c->pt; g.pl = c->pl;
    g.OH = (c->H + c->pt + c->pb - c->KH) / c->sh + 1;
    g.OW = (c->W + c->pl + c->pr - c->KW) / c->sw + 1;
    return g;
}

/* the sum of every (channel, tap) from 0 in that order, then + bias and ReLU as byoc__conv_epilogue_rows */
static void reference(const byoc__conv_geom *g, const float *x, const float *w, const float *bias, int relu,
                      int fused, float *o) {
    for (int64_t n = 0; n < g->N; ++n)
        for (int64_t oc = 0; oc < g->O; ++oc)
            for (int64_t oy = 0; oy < g->OH; ++oy)
                for (int64_t ox = 0; ox < g->OW; ++ox) {
                    float acc = 0.0f;
                    for (int64_t c = 0; c < g->C; ++c)
                        for (int64_t ky = 0; ky < g->KH; ++ky)
                            for (int64_t kx = 0; kx < g->KW; ++kx) {
                                int64_t iy = oy * g->sh - g->pt + ky, ix = ox * g->sw - g->pl + kx;
                                float v = iy < 0 || iy >= g->H || ix < 0 || ix >= g->W
                                              ? 0.0f
                                              : x[((n * g->C + c) * g->H + iy) * g->W + ix];
                                float wv = w[((oc * g->C + c) * g->KH + ky) * g->KW + kx];
                                if (fused) {
                                    acc = fmaf(wv, v, acc);
                                } else {
                                    float p = wv * v;
                                    acc = acc + p;
                                }
                            }
                    if (bias) acc = acc + bias[oc];
                    if (relu) acc = acc > 0 ? acc : 0.0f;
                    o[((n * g->O + oc) * g->OH + oy) * g->OW + ox] = acc;
                }
}

/* the kernel with `lanes` lanes, `tasks` tasks (by channel blocks or by chunks of rows), run last task first */
static void run_fewc(const byoc__conv_geom *g, const float *x, const float *w, const float *bias, int relu,
                     int64_t lanes, int64_t tasks, int by_blocks, float *o) {
    size_t stride = byoc__fewc_ws(g);
    unsigned char *ws = (unsigned char *)malloc(stride * (size_t)tasks);
    byoc__fewc_split s;
    memset(&s, 0, sizeof s);
    s.g = g;
    s.x = x;
    s.w = w;
    s.bias = bias;
    s.o = o;
    s.relu = relu;
    s.lanes = lanes;
    s.chunks = (g->OH + BYOC__FEWC_ROWS - 1) / BYOC__FEWC_ROWS;
    s.blocks = (g->O + BYOC__FEWC_OB - 1) / BYOC__FEWC_OB;
    s.by_blocks = by_blocks;
    s.ntasks = tasks;
    s.ws = ws;
    s.ws_stride = stride;
    for (int64_t t = tasks - 1; t >= 0; --t) byoc__fewc_task(&s, t);
    free(ws);
}

/* the GEMM path (patches packed straight from the image, the epilogue per block), as byoc__conv2d_run ran it */
static void run_gemm(const byoc__conv_geom *g, const float *x, const float *w, const float *bias, int relu, float *o) {
    int64_t KK = g->C * g->KH * g->KW, P = g->OH * g->OW, block = byoc__im2col_block(g);
    size_t bytes = byoc__gemm_ws() +
                   (size_t)(byoc__im2col_floats(g) + byoc__sgemm_packed_a_floats(g->Og, KK)) * sizeof(float) + 256;
    unsigned char *ws = (unsigned char *)malloc(bytes);
    byoc__conv_epilogue ep = {bias, NULL, relu, NULL};
    byoc__conv_gemm_units(g, 0, x, w, o, block, 0, g->N * ((P + block - 1) / block), ws, &ep);
    free(ws);
}

static int64_t machine_lanes[3], nlanes;
static void find_lanes(void) {
    nlanes = 0;
    machine_lanes[nlanes++] = BYOC__SIMD ? 4 : 1;
#if BYOC__X86_DISPATCH
    __builtin_cpu_init();
    if (byoc__has_avx2_fma()) machine_lanes[nlanes++] = 8;
    if (__builtin_cpu_supports("avx512f")) machine_lanes[nlanes++] = 16;
#endif
}

static void test_fewc_geometries_taken(void) {
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        byoc__conv_geom g = geom_of(&cases[k]);
        CHECKF(byoc__conv_is_fewc(&g), "case %d is not a few-channel convolution", (int)k);
    }
    fewc_case wide = {1, 8, 30, 60, 16, 3, 3, 1, 1, 1, 1, 1, 1}, one = {1, 3, 30, 60, 16, 1, 1, 1, 1, 0, 0, 0, 0};
    fewc_case narrow = {1, 3, 28, 28, 8, 5, 5, 1, 1, 0, 0, 0, 0}, dw = {1, 1, 30, 60, 4, 3, 3, 1, 1, 1, 1, 1, 1};
    byoc__conv_geom gw = geom_of(&wide), go = geom_of(&one), gn = geom_of(&narrow), gd = geom_of(&dw);
    CHECK(!byoc__conv_is_fewc(&gw)); /* 8 channels: the GEMM's depth is no longer the cost */
    CHECK(!byoc__conv_is_fewc(&go)); /* 1x1 */
    CHECK(!byoc__conv_is_fewc(&gn)); /* 24 columns: "small convolutions" keep it */
    CHECK(!byoc__conv_is_fewc(&gd)); /* one channel, 4 outputs: the depthwise loop keeps it */
    byoc__conv_geom gs = geom_of(&cases[0]);
    gs.dh = 2;
    CHECK(!byoc__conv_is_fewc(&gs));
}

/* a case's input, weights and bias drawn in that order, and two output buffers of its size */
typedef struct fewc_data {
    float *x, *w, *bias, *want, *got;
    size_t no;
} fewc_data;
static fewc_data fewc_data_make(const byoc__conv_geom *g) {
    size_t nx = (size_t)(g->N * g->C * g->H * g->W), nw = (size_t)(g->O * g->C * g->KH * g->KW);
    fewc_data d;
    d.no = (size_t)(g->N * g->O * g->OH * g->OW);
    d.x = (float *)malloc(nx * sizeof(float));
    d.w = (float *)malloc(nw * sizeof(float));
    d.bias = (float *)malloc((size_t)g->O * sizeof(float));
    d.want = (float *)malloc(d.no * sizeof(float));
    d.got = (float *)malloc(d.no * sizeof(float));
    for (size_t i = 0; i < nx; ++i) d.x[i] = next_value();
    for (size_t i = 0; i < nw; ++i) d.w[i] = next_value();
    for (int64_t i = 0; i < g->O; ++i) d.bias[i] = next_value();
    return d;
}
static void fewc_data_free(fewc_data *d) {
    free(d->x);
    free(d->w);
    free(d->bias);
    free(d->want);
    free(d->got);
}

static void test_fewc_same_bytes_as_gemm_and_in_order_sum(void) {
    find_lanes();
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        byoc__conv_geom g = geom_of(&cases[k]);
        fewc_data d = fewc_data_make(&g);
        const float *x = d.x, *w = d.w, *bias = d.bias;
        float *want = d.want, *got = d.got;
        size_t no = d.no;
        int bad = 0;
        char why[200] = "";
        for (int form = 0; form < 3 && !bad; ++form) { /* plain; bias; bias and ReLU */
            const float *b = form ? bias : NULL;
            int relu = form == 2;
            run_gemm(&g, x, w, b, relu, want);
            memset(got, 0xff, no * sizeof(float));
            run_fewc(&g, x, w, b, relu, byoc__smallconv_lanes(), 1, 0, got);
            if (memcmp(got, want, no * sizeof(float)))
                bad = 1, snprintf(why, sizeof why, "form %d: not the GEMM path's bytes", form);
            for (int64_t l = 0; l < nlanes && !bad; ++l) {
#if defined(__FMA__)
                int fused = 1;
#else
                int fused = machine_lanes[l] >= 8; /* the 4-lane build fuses only where the compiler targets FMA */
#endif
                reference(&g, x, w, b, relu, fused, want);
                memset(got, 0xff, no * sizeof(float));
                run_fewc(&g, x, w, b, relu, machine_lanes[l], 1, 0, got);
                if (memcmp(got, want, no * sizeof(float)))
                    bad = 1, snprintf(why, sizeof why, "form %d, %d lanes: not the in-order sum", form,
                                      (int)machine_lanes[l]);
            }
        }
        fewc_data_free(&d);
        CHECKF(!bad, "case %d: %s", (int)k, why);
    }
}

static void test_fewc_same_bytes_for_every_split(void) {
    static const int64_t task_counts[] = {2, 3, 7};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        byoc__conv_geom g = geom_of(&cases[k]);
        fewc_data d = fewc_data_make(&g);
        const float *x = d.x, *w = d.w, *bias = d.bias;
        float *one = d.want, *got = d.got;
        size_t no = d.no;
        int64_t lanes = byoc__smallconv_lanes(), blocks = (g.O + BYOC__FEWC_OB - 1) / BYOC__FEWC_OB;
        int64_t chunks = g.N * ((g.OH + BYOC__FEWC_ROWS - 1) / BYOC__FEWC_ROWS);
        run_fewc(&g, x, w, bias, 1, lanes, 1, 0, one);
        int bad = 0;
        char why[100] = "";
        for (size_t t = 0; t < 3 && !bad; ++t)
            for (int by_blocks = 0; by_blocks < 2 && !bad; ++by_blocks) {
                int64_t tasks = BYOC__MIN(task_counts[t], by_blocks ? blocks : chunks);
                memset(got, 0xff, no * sizeof(float));
                run_fewc(&g, x, w, bias, 1, lanes, tasks, by_blocks, got);
                if (memcmp(got, one, no * sizeof(float)))
                    bad = 1, snprintf(why, sizeof why, "%d tasks by %s", (int)tasks, by_blocks ? "blocks" : "rows");
            }
        fewc_data_free(&d);
        CHECKF(!bad, "case %d, %s: not one task's bytes", (int)k, why);
    }
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_fewc_geometries_taken),
        TEST_ENTRY(test_fewc_same_bytes_as_gemm_and_in_order_sum),
        TEST_ENTRY(test_fewc_same_bytes_for_every_split),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
