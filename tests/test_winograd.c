/* The Winograd F(4x4, 3x3) convolution (byoc.h "Winograd convolutions", byoc_sim.h "Winograd convolutions"):
   which convolutions byoc_sim.h runs that way, its error against a float64 direct convolution over many geometries
   (pads, odd sizes, channel counts across the GEMM's KC slices, batches) next to the im2col GEMM's, the fused bias
   and ReLU, and the same bytes at 1, 2, 3 and 7 threads. */
/* links the library compiled once (tests/lib/byoc_impl.c) */
#include "../byoc_sim.h"
#include "test.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* The error bound, in units of float32's epsilon times sum |x| |w| (the size of the rounding a float32 dot product of
   that length can make, before its length factor), the largest such sum within the output's 4x4 tile (error_units).
   Measured on the geometries below (AVX-512): the im2col GEMM reaches 2.0, F(4x4, 3x3) 17.0 (its transforms hold 4,
   5 and 8 and sum six terms twice in each direction, and each product is rounded before the sum over channels).
   The bound leaves room for other data and for the other ISAs' vectors and FMA contraction. */
#define WINO_ERROR_BOUND 32.0

static uint64_t rng_state;
static float rnd_float(void) { /* splitmix64, uniform in [-1, 1] */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (float)((double)((z ^ (z >> 31)) % 2000001) / 1000000.0 - 1.0);
}

typedef struct geometry {
    int64_t N, C, H, W, O, pad[4]; /* pad: top, left, bottom, right */
    int bias, relu;
} geometry;

typedef struct conv_model {
    byoc_module *m;
    float *w, *b; /* the weight and bias constants' data (owned by the test) */
} conv_model;

static const byoc_type *f32(byoc_module *m, int rank, const int64_t *dims) {
    return byoc_tensor_type(m, BYOC_FLOAT32, rank, dims);
}

/* @main(x) = [relu]([bias_add](conv2d(x, W, padding, kernel 3x3, stride s)), fused by FuseOps */
static int build(const geometry *g, int64_t stride, int weight_constant, conv_model *cm) {
    memset(cm, 0, sizeof *cm);
    byoc_module *m = byoc_module_create(NULL);
    int64_t xd[4] = {g->N, g->C, g->H, g->W}, wd[4] = {g->O, g->C, 3, 3}, bd[1] = {g->O};
    size_t nw = (size_t)(g->O * g->C * 9);
    cm->w = (float *)malloc(nw * sizeof(float));
    cm->b = (float *)malloc((size_t)g->O * sizeof(float));
    if (!m || !cm->w || !cm->b) return 0;
    for (size_t i = 0; i < nw; ++i) cm->w[i] = rnd_float();
    for (int64_t i = 0; i < g->O; ++i) cm->b[i] = rnd_float();
    byoc_node *params[2];
    int nparams = 0;
    byoc_node *x = params[nparams++] = byoc_var(m, "x", f32(m, 4, xd));
    byoc_node *w = weight_constant ? byoc_constant(m, f32(m, 4, wd), cm->w, nw * sizeof(float))
                                   : (params[nparams++] = byoc_var(m, "w", f32(m, 4, wd)));
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    int64_t strides[2] = {stride, stride};
    byoc_attrs_set_ints(m, &a, "padding", g->pad, 4);
    byoc_attrs_set_ints(m, &a, "strides", strides, 2);
    byoc_node *args[2] = {x, w};
    byoc_node *y = byoc_call(m, "nn.conv2d", args, 2, &a);
    if (g->bias) {
        byoc_node *badd[2] = {y, byoc_constant(m, f32(m, 1, bd), cm->b, (size_t)g->O * sizeof(float))};
        y = byoc_call(m, "nn.bias_add", badd, 2, NULL);
    }
    if (g->relu) y = byoc_call(m, "nn.relu", &y, 1, NULL);
    byoc_module_add_function(m, "main", byoc_function(m, params, nparams, y, NULL, NULL));
    byoc_diag d;
    cm->m = m;
    return !byoc_module_error(m) && byoc_infer_type(m, &d) == BYOC_OK && byoc_fuse_ops(m, 256, &d) == BYOC_OK;
}
static void release(conv_model *cm) {
    byoc_module_destroy(cm->m);
    free(cm->w);
    free(cm->b);
}

/* the program lowered at `threads`, run on x (and the weight as the second input when it is not a constant); the
   output copied to *out (malloc'd); *wino: whether a kernel runs as Winograd */
static int run(const conv_model *cm, int threads, const float *x, float **out, int *wino, char *why, size_t cap) {
    byoc_sim_options o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    byoc_diag d;
    byoc_sim_program *p = byoc_sim_lower(cm->m, &o, &d);
    if (!p) { snprintf(why, cap, "lower: %s", d.message); return 0; }
    *wino = 0;
    for (int k = 0; k < byoc_sim_kernel_count(p); ++k) {
        const char *alg = byoc_sim_kernel(p, k)->algorithm;
        *wino |= alg && !strcmp(alg, "winograd");
    }
    byoc_tensor in[2], res;
    int nin = byoc_sim_input_count(p);
    for (int i = 0; i < nin; ++i) {
        const byoc_sim_io *io = byoc_sim_input(p, i);
        memset(&in[i], 0, sizeof in[i]);
        in[i].dtype = io->dtype;
        in[i].rank = io->rank;
        memcpy(in[i].dims, io->dims, sizeof io->dims);
        in[i].data = i == 0 ? (void *)x : (void *)cm->w;
    }
    int ok = byoc_sim_run(p, in, nin, &res, 1, &d) == BYOC_OK;
    if (!ok) snprintf(why, cap, "run: %s", d.message);
    size_t bytes = ok ? byoc_sim_output(p, 0)->nbytes : 0;
    *out = ok ? (float *)malloc(bytes) : NULL;
    if (*out) memcpy(*out, res.data, bytes);
    byoc_sim_program_destroy(p);
    return *out != NULL;
}

static int64_t out_size(int64_t in, int64_t lo, int64_t hi, int64_t stride) { return (in + lo + hi - 3) / stride + 1; }

/* the largest |y - exact| / (eps * M) over every output, exact in float64, M the largest sum |x| |w| (+ |bias|) of
   the outputs of its 4x4 tile: Winograd's rounding is that of the tile's whole 6x6 patch, so an output at a padded
   edge, whose own products are few, carries errors the size of its neighbours' (the im2col GEMM's are smaller) */
static double error_units(const geometry *g, const float *x, const conv_model *cm, const float *y) {
    int64_t OH = out_size(g->H, g->pad[0], g->pad[2], 1), OW = out_size(g->W, g->pad[1], g->pad[3], 1);
    double *exact = (double *)malloc(sizeof(double) * (size_t)(OH * OW) * 2), *mag = exact + OH * OW, worst = 0;
    for (int64_t n = 0; exact && n < g->N; ++n)
        for (int64_t o = 0; o < g->O; ++o) {
            for (int64_t p = 0; p < OH * OW; ++p) {
                int64_t oy = p / OW, ox = p % OW;
                exact[p] = g->bias ? cm->b[o] : 0;
                mag[p] = g->bias ? fabs(cm->b[o]) : 0;
                for (int64_t c = 0; c < g->C; ++c)
                    for (int ky = 0; ky < 3; ++ky)
                        for (int kx = 0; kx < 3; ++kx) {
                            int64_t iy = oy - g->pad[0] + ky, ix = ox - g->pad[1] + kx;
                            if (iy < 0 || iy >= g->H || ix < 0 || ix >= g->W) continue;
                            double v = (double)x[((n * g->C + c) * g->H + iy) * g->W + ix] *
                                       cm->w[((o * g->C + c) * 3 + ky) * 3 + kx];
                            exact[p] += v;
                            mag[p] += fabs(v);
                        }
                if (g->relu && exact[p] < 0) exact[p] = 0;
            }
            for (int64_t p = 0; p < OH * OW; ++p) {
                int64_t ty = p / OW / 4 * 4, tx = p % OW / 4 * 4;
                double m = 0;
                for (int64_t yy = ty; yy < ty + 4 && yy < OH; ++yy)
                    for (int64_t xx = tx; xx < tx + 4 && xx < OW; ++xx)
                        if (mag[yy * OW + xx] > m) m = mag[yy * OW + xx];
                double units = fabs(y[(n * g->O + o) * OH * OW + p] - exact[p]) / (FLT_EPSILON * (m > 0 ? m : 1));
                if (units > worst) worst = units;
            }
        }
    int computed = exact != NULL;
    free(exact);
    return computed ? worst : 1e30;
}

static const geometry geometries[] = {
    /* N, C, H, W, O, pads (top, left, bottom, right), bias, relu */
    {1, 8, 16, 16, 3, {1, 1, 1, 1}, 0, 0},      {1, 16, 22, 18, 16, {0, 0, 0, 0}, 1, 0},
    {2, 17, 21, 23, 19, {1, 1, 1, 1}, 1, 1},    {1, 33, 29, 31, 21, {2, 0, 1, 2}, 0, 1},
    {3, 24, 9, 70, 16, {1, 2, 0, 1}, 1, 1},     {1, 64, 57, 57, 64, {1, 1, 1, 1}, 1, 1},
    {1, 32, 67, 8, 40, {1, 1, 1, 1}, 1, 0},     {1, 400, 20, 24, 23, {1, 1, 1, 1}, 1, 1},
    {2, 20, 18, 18, 17, {2, 2, 2, 2}, 0, 0},    {1, 8, 18, 22, 3, {0, 0, 0, 0}, 1, 1},
    {1, 18, 260, 14, 16, {0, 1, 0, 1}, 0, 0},   {1, 16, 7, 300, 16, {1, 0, 1, 0}, 1, 1},
};

static void test_winograd_matches_direct_within_bound(void) {
    char why[600] = "";
    for (size_t i = 0; i < sizeof geometries / sizeof geometries[0]; ++i) {
        const geometry *g = &geometries[i];
        rng_state = 1000 + i;
        conv_model wino, ref;
        CHECKF(build(g, 1, 1, &wino), "geometry %d: build", (int)i);
        rng_state = 1000 + i; /* the same weights, as an input: the im2col GEMM runs it */
        CHECKF(build(g, 1, 0, &ref), "geometry %d: build", (int)i);
        size_t nx = (size_t)(g->N * g->C * g->H * g->W);
        float *x = (float *)malloc(nx * sizeof(float)), *y = NULL, *yr = NULL;
        CHECK(x != NULL);
        for (size_t k = 0; k < nx; ++k) x[k] = rnd_float();
        int used = 0, used_ref = 1;
        int ok = run(&wino, 1, x, &y, &used, why, sizeof why) && run(&ref, 1, x, &yr, &used_ref, why, sizeof why);
        double e = ok ? error_units(g, x, &wino, y) : 0, e_ref = ok ? error_units(g, x, &ref, yr) : 0;
        free(x);
        free(y);
        free(yr);
        release(&wino);
        release(&ref);
        CHECKF(ok, "geometry %d: %s", (int)i, why);
        CHECKF(used && !used_ref, "geometry %d: Winograd %s with a constant weight, %s with an input weight", (int)i,
               used ? "ran" : "did not run", used_ref ? "ran" : "did not run");
        CHECKF(e <= WINO_ERROR_BOUND, "geometry %d: error %.2f eps-units (the im2col GEMM's: %.2f), bound %.0f",
               (int)i, e, e_ref, WINO_ERROR_BOUND);
        CHECKF(e_ref <= 4, "geometry %d: the im2col GEMM's error %.2f eps-units", (int)i, e_ref);
    }
}

/* 1 when byoc_sim.h runs conv2d(x [1, C, H, H], a constant weight [O, C / groups, k, k], padding 1) as Winograd */
static int runs_as_winograd(const int64_t *c, int *lowered) {
    int64_t C = c[0], O = c[1], k = c[2], groups = c[5], H = c[6];
    byoc_module *m = byoc_module_create(NULL);
    int64_t xd[4] = {1, C, H, H}, wd[4] = {O, C / groups, k, k}, st[2] = {c[3], c[3]};
    int64_t dil[2] = {c[4], c[4]}, pad[4] = {1, 1, 1, 1};
    size_t nw = (size_t)(wd[0] * wd[1] * k * k);
    float *w = (float *)calloc(nw, sizeof(float));
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(m, &a, "strides", st, 2);
    byoc_attrs_set_ints(m, &a, "dilation", dil, 2);
    byoc_attrs_set_ints(m, &a, "padding", pad, 4);
    byoc_attrs_set_int(m, &a, "groups", groups);
    byoc_node *x = byoc_var(m, "x", f32(m, 4, xd));
    byoc_node *args[2] = {x, byoc_constant(m, f32(m, 4, wd), w, nw * sizeof(float))};
    byoc_module_add_function(m, "main", byoc_function(m, &x, 1, byoc_call(m, "nn.conv2d", args, 2, &a), NULL, NULL));
    byoc_diag d;
    byoc_sim_program *p = w && !byoc_module_error(m) ? byoc_sim_lower(m, NULL, &d) : NULL;
    int wino = 0;
    for (int i = 0; p && i < byoc_sim_kernel_count(p); ++i)
        wino |= byoc_sim_kernel(p, i)->algorithm && !strcmp(byoc_sim_kernel(p, i)->algorithm, "winograd");
    *lowered = p != NULL;
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
    free(w);
    return wino;
}

/* 1 when a 13x13 to 16x16 map runs as Winograd: its 16 tiles on the small-map path's GEMM rows need a micro-kernel
   NR of 16 or more (AVX2, AVX-512); the portable one's 8 columns take the im2col GEMM */
static int small_maps_run_winograd(void) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(BYOC_NO_SIMD)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") || (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
#else
    return 0;
#endif
}

/* what does not run as Winograd: strides, dilation, groups, other kernel sizes, too few input or output channels,
   too few tiles, too much of the last tiles cropped (a 13x13 map is the small-map path's, 21x21 crops 31%) */
static void test_winograd_only_where_it_fits(void) {
    static const int64_t cases[][8] = {/* C, O, kernel, stride, dilation, groups, H (= W), Winograd */
                                       {32, 32, 3, 1, 1, 1, 20, 1}, {8, 3, 3, 1, 1, 1, 16, 1},
                                       {32, 32, 3, 2, 1, 1, 20, 0}, {32, 32, 3, 1, 2, 1, 20, 0},
                                       {32, 32, 3, 1, 1, 2, 20, 0}, {32, 32, 5, 1, 1, 1, 20, 0},
                                       {4, 32, 3, 1, 1, 1, 20, 0},  {32, 2, 3, 1, 1, 1, 20, 0},
                                       {64, 64, 3, 1, 1, 1, 7, 0},  {64, 64, 3, 1, 1, 1, 13, 2},
                                       {64, 64, 3, 1, 1, 1, 21, 0}, {64, 64, 3, 1, 1, 1, 24, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        int lowered = 0;
        int wino = runs_as_winograd(cases[i], &lowered);
        int expected = cases[i][7] == 2 ? small_maps_run_winograd() : (int)cases[i][7];
        CHECKF(lowered, "case %d: did not lower", (int)i);
        CHECKF(wino == expected, "case %d: Winograd %s", (int)i, wino ? "ran" : "did not run");
    }
}

/* blocks of tiles over threads: the same bytes at every thread count, with and without the fused epilogue */
static void test_winograd_same_bytes_at_1_2_3_7_threads(void) {
    static const geometry cases[] = {
        {2, 19, 37, 41, 29, {1, 1, 1, 1}, 1, 1},
        {1, 64, 45, 230, 17, {1, 0, 2, 1}, 0, 0},
        {3, 16, 20, 21, 16, {1, 1, 1, 1}, 1, 0},
        {1, 32, 27, 27, 128, {1, 1, 1, 1}, 1, 1}, /* one block: two of 32 + 17 tiles at 2 threads, else channels */
        {1, 16, 55, 55, 64, {1, 1, 1, 1}, 1, 1},  /* four blocks, the last of 4 tiles: shares of 98 tiles at 2 threads */
        {1, 16, 12, 172, 64, {1, 1, 1, 1}, 1, 1}, /* 129 tiles: shares of 64 (one block empty) and 65 at 2 threads */
        {1, 24, 27, 27, 100, {1, 1, 1, 1}, 0, 1}, /* channel chunks not a multiple of the micro-kernel's rows */
    };
    static const int threads[4] = {1, 2, 3, 7};
    char why[600] = "";
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const geometry *g = &cases[i];
        rng_state = 77 + i;
        conv_model cm;
        CHECKF(build(g, 1, 1, &cm), "case %d: build", (int)i);
        size_t nx = (size_t)(g->N * g->C * g->H * g->W);
        size_t ny = (size_t)(g->N * g->O * out_size(g->H, g->pad[0], g->pad[2], 1) *
                             out_size(g->W, g->pad[1], g->pad[3], 1));
        float *x = (float *)malloc(nx * sizeof(float)), *first = NULL;
        for (size_t k = 0; x && k < nx; ++k) x[k] = rnd_float();
        int ok = x != NULL, same = 1, used = 0;
        for (int t = 0; ok && same && t < 4; ++t) {
            float *y = NULL;
            ok = run(&cm, threads[t], x, &y, &used, why, sizeof why) && used;
            if (ok && first) same = memcmp(first, y, ny * sizeof(float)) == 0;
            if (!first) first = y;
            else free(y);
        }
        free(first);
        free(x);
        release(&cm);
        CHECKF(ok, "case %d: %s%s", (int)i, why, used ? "" : " (not run as Winograd)");
        CHECKF(same, "case %d: the bytes differ between thread counts", (int)i);
    }
}

/* the small-map path (13x13 to 16x16 outputs, 16 tiles as GEMM rows): within the error bound against float64, next
   to the im2col GEMM's, with edges cropped, odd channel counts (output channels past the last whole vector, a tile
   row panel of 4), bias and ReLU, two images; and the same bytes at 1, 2, 3 and 7 threads */
static void test_winograd_small_maps(void) {
    static const geometry cases[] = {
        {1, 64, 13, 13, 256, {1, 1, 1, 1}, 1, 1}, {1, 48, 13, 13, 192, {1, 1, 1, 1}, 1, 1},
        {2, 9, 15, 14, 37, {1, 1, 1, 1}, 1, 0},   {1, 16, 16, 16, 16, {1, 1, 1, 1}, 0, 0},
        {1, 20, 15, 17, 70, {0, 1, 0, 0}, 0, 1},  {1, 300, 14, 14, 33, {1, 1, 1, 1}, 1, 1},
    };
    static const int threads[4] = {1, 2, 3, 7};
    char why[600] = "";
    int expect = small_maps_run_winograd();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const geometry *g = &cases[i];
        rng_state = 500 + i;
        conv_model cm, ref;
        CHECKF(build(g, 1, 1, &cm), "case %d: build", (int)i);
        rng_state = 500 + i;
        CHECKF(build(g, 1, 0, &ref), "case %d: build", (int)i);
        size_t nx = (size_t)(g->N * g->C * g->H * g->W);
        size_t ny = (size_t)(g->N * g->O * out_size(g->H, g->pad[0], g->pad[2], 1) *
                             out_size(g->W, g->pad[1], g->pad[3], 1));
        float *x = (float *)malloc(nx * sizeof(float)), *first = NULL, *yr = NULL;
        for (size_t k = 0; x && k < nx; ++k) x[k] = rnd_float();
        int ok = x != NULL, same = 1, used = 0, used_ref = 1;
        for (int t = 0; ok && same && t < 4; ++t) {
            float *y = NULL;
            ok = run(&cm, threads[t], x, &y, &used, why, sizeof why) && used == expect;
            if (ok && first) same = memcmp(first, y, ny * sizeof(float)) == 0;
            if (!first) first = y;
            else free(y);
        }
        ok = ok && run(&ref, 1, x, &yr, &used_ref, why, sizeof why);
        double e = ok ? error_units(g, x, &cm, first) : 0, e_ref = ok ? error_units(g, x, &ref, yr) : 0;
        free(first);
        free(yr);
        free(x);
        release(&cm);
        release(&ref);
        CHECKF(ok, "case %d: %s (Winograd %s, expected %d)", (int)i, why, used ? "ran" : "did not run", expect);
        CHECKF(same, "case %d: the bytes differ between thread counts", (int)i);
        CHECKF(!used_ref, "case %d: Winograd ran with an input weight", (int)i);
        CHECKF(e <= WINO_ERROR_BOUND, "case %d: error %.2f eps-units (the im2col GEMM's: %.2f), bound %.0f", (int)i,
               e, e_ref, WINO_ERROR_BOUND);
    }
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_winograd_matches_direct_within_bound),
        TEST_ENTRY(test_winograd_only_where_it_fits),
        TEST_ENTRY(test_winograd_same_bytes_at_1_2_3_7_threads),
        TEST_ENTRY(test_winograd_small_maps),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
