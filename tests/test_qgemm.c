/* The int8 GEMM and convolution kernels (qnn.dense, qnn.matmul, qnn.conv2d) on every path the dispatcher has
   (BYOC_INT8_ISA: avx512vnni, avxvnni, avx2, portable), each against a naive reference that sums exact
   int64 products and wraps to int32 at the end: bit-equal on odd shapes, both 8-bit dtypes of each operand,
   nonzero and per-channel zero points, extreme values, and convolution geometries (depthwise ones through the
   direct loop); qnn.add, qnn.mul, qnn.quantize and qnn.dequantize on every path against the portable one. */
#define _POSIX_C_SOURCE 200112L
#include "../byoc.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#endif

static const char *const paths[] = {"portable", "avx2", "avxvnni", "avx512vnni"};
enum {
    PATHS = 4
};

/* whether this CPU has what a path needs (the library refuses a forced path it lacks) */
static int cpu_runs(int path) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    unsigned a = 0, b = 0, c = 0, d = 0;
    __builtin_cpu_init();
    switch (path) {
    case 1: return __builtin_cpu_supports("avx2");
    case 2: return __builtin_cpu_supports("avx2") && __get_cpuid_count(7, 1, &a, &b, &c, &d) && (a >> 4 & 1);
    case 3: return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vnni");
    default: return 1;
    }
#else
    return path == 0;
#endif
}

static int available[PATHS]; /* the paths this CPU and this build of the library run (main probes them) */

static unsigned rng = 12345u;
static unsigned next_rand(void) {
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}
/* an 8-bit value of dt: mostly random, one in eight at an end of the range */
static int32_t rand_q8(byoc_dtype dt) {
    int32_t lo = dt == BYOC_INT8 ? -128 : 0, hi = dt == BYOC_INT8 ? 127 : 255;
    unsigned r = next_rand();
    if (r % 16 == 0) return lo;
    if (r % 16 == 1) return hi;
    return lo + (int32_t)(next_rand() % (unsigned)(hi - lo + 1));
}
static void put_q8(byoc_dtype dt, void *p, int64_t i, int32_t v) {
    if (dt == BYOC_INT8) ((int8_t *)p)[i] = (int8_t)v;
    else ((uint8_t *)p)[i] = (uint8_t)v;
}
static int32_t get_q8(byoc_dtype dt, const void *p, int64_t i) {
    return dt == BYOC_INT8 ? ((const int8_t *)p)[i] : ((const uint8_t *)p)[i];
}
/* an exact sum wrapped to int32 the way int32 accumulation wraps */
static int32_t wrap32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

/* one product call: its operands and result, run on path p */
typedef struct product {
    byoc_module *m;
    byoc_node *call;
    byoc_tensor in[6], out;
    int32_t xz, *wz;
    float scale;
} product;

/* builds op(x, w, xz, wz, xs, ws) with x and w of the given types; wz has wz_count elements (1: a scalar) */
static byoc_node *make_call(product *p, const char *op, byoc_dtype xdt, int xr, const int64_t *xd, byoc_dtype wdt,
                            int wr, const int64_t *wd, int64_t wz_count, byoc_attrs *a, byoc_diag *d) {
    const byoc_type *t[6] = {
        byoc_tensor_type(p->m, xdt, xr, xd),           byoc_tensor_type(p->m, wdt, wr, wd),
        byoc_tensor_type(p->m, BYOC_INT32, 0, NULL),   byoc_tensor_type(p->m, BYOC_INT32, wz_count > 1, &wz_count),
        byoc_tensor_type(p->m, BYOC_FLOAT32, 0, NULL), byoc_tensor_type(p->m, BYOC_FLOAT32, 0, NULL)};
    static const char *const names[6] = {"x", "w", "xz", "wz", "xs", "ws"};
    byoc_node *args[6];
    for (int i = 0; i < 6; ++i) args[i] = byoc_var(p->m, names[i], t[i]);
    byoc_node *call = byoc_call(p->m, op, args, 6, a);
    if (!call || byoc_infer_node_type(p->m, call, d) != BYOC_OK) return NULL;
    return call;
}
/* fills the operands with random values of their dtypes, the zero points random in range */
static void fill_operands(product *p, byoc_dtype xdt, int xr, const int64_t *xd, byoc_dtype wdt, int wr,
                          const int64_t *wd, int64_t wz_count) {
    int64_t xn = 1, wn = 1;
    p->in[0] = (byoc_tensor){xdt, xr, {0}, NULL};
    p->in[1] = (byoc_tensor){wdt, wr, {0}, NULL};
    for (int i = 0; i < xr; ++i) xn *= p->in[0].dims[i] = xd[i];
    for (int i = 0; i < wr; ++i) wn *= p->in[1].dims[i] = wd[i];
    p->in[0].data = malloc((size_t)xn + 1);
    p->in[1].data = malloc((size_t)wn + 1);
    for (int64_t i = 0; i < xn; ++i) put_q8(xdt, p->in[0].data, i, rand_q8(xdt));
    for (int64_t i = 0; i < wn; ++i) put_q8(wdt, p->in[1].data, i, rand_q8(wdt));
    p->xz = rand_q8(xdt);
    p->wz = (int32_t *)malloc((size_t)wz_count * sizeof(int32_t));
    for (int64_t i = 0; i < wz_count; ++i) p->wz[i] = rand_q8(wdt);
    p->scale = 0.5f;
    p->in[2] = (byoc_tensor){BYOC_INT32, 0, {0}, &p->xz};
    p->in[3] = (byoc_tensor){BYOC_INT32, wz_count > 1, {wz_count}, p->wz};
    p->in[4] = (byoc_tensor){BYOC_FLOAT32, 0, {0}, &p->scale};
    p->in[5] = (byoc_tensor){BYOC_FLOAT32, 0, {0}, &p->scale};
}
static void free_product(product *p) {
    free(p->in[0].data);
    free(p->in[1].data);
    free(p->wz);
    free(p->out.data);
    byoc_module_destroy(p->m);
}
/* runs the call on a path into its result; the diagnostic on failure */
static byoc_result run_on(product *p, int path, byoc_diag *d) {
    setenv("BYOC_INT8_ISA", paths[path], 1);
    void *ws = malloc(byoc_kernel_workspace_size(p->call) + 1);
    memset(p->out.data, 0x5a, (size_t)byoc_type_num_elements(p->call->checked_type) * 4);
    byoc_result r = byoc_kernel_run(p->call, p->in, 6, &p->out, 1, ws, d);
    free(ws);
    unsetenv("BYOC_INT8_ISA");
    return r;
}
/* the index of the first element of got that differs from want, or -1 */
static int64_t first_difference(const int32_t *got, const int32_t *want, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
        if (got[i] != want[i]) return i;
    return -1;
}

/* qnn.dense / qnn.matmul on every runnable path against the reference for data [M, K] (or [K, M]) and weight
   [N, K] (dense, or matmul transposed) or [K, N]; per_column: one weight zero point per result column */
static int check_matmul(int dense, int ta, int tb, int64_t M, int64_t N, int64_t K, byoc_dtype xdt, byoc_dtype wdt,
                        int per_column, char *why, size_t why_size) {
    product p;
    memset(&p, 0, sizeof p);
    p.m = byoc_module_create(NULL);
    int64_t xd[2] = {ta ? K : M, ta ? M : K}, wd[2] = {tb ? N : K, tb ? K : N};
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    if (!dense) {
        byoc_attrs_set_bool(p.m, &a, "transpose_a", ta);
        byoc_attrs_set_bool(p.m, &a, "transpose_b", tb);
    }
    byoc_diag d;
    int64_t wz_count = per_column ? N : 1;
    p.call = make_call(&p, dense ? "qnn.dense" : "qnn.matmul", xdt, 2, xd, wdt, 2, wd, wz_count, dense ? NULL : &a, &d);
    if (!p.call) {
        snprintf(why, why_size, "type error: %s", d.message);
        byoc_module_destroy(p.m);
        return 0;
    }
    fill_operands(&p, xdt, 2, xd, wdt, 2, wd, wz_count);
    p.out = (byoc_tensor){BYOC_INT32, 2, {M, N}, malloc((size_t)(M * N) * 4 + 4)};
    int32_t *want = (int32_t *)malloc((size_t)(M * N) * 4 + 4);
    for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
            int64_t sum = 0;
            for (int64_t k = 0; k < K; ++k) {
                int64_t x = get_q8(xdt, p.in[0].data, ta ? k * M + m : m * K + k) - p.xz;
                int64_t w = get_q8(wdt, p.in[1].data, tb ? n * K + k : k * N + n) - p.wz[per_column ? n : 0];
                sum += x * w;
            }
            want[m * N + n] = wrap32(sum);
        }
    int ok = 1;
    for (int path = 0; path < PATHS && ok; ++path) {
        if (!available[path]) continue;
        if (run_on(&p, path, &d) != BYOC_OK) {
            snprintf(why, why_size, "%s: %s", paths[path], d.message);
            ok = 0;
            break;
        }
        int64_t at = first_difference((const int32_t *)p.out.data, want, M * N);
        if (at >= 0) {
            snprintf(why, why_size, "%s %s M=%lld N=%lld K=%lld %s x %s ta=%d tb=%d: element %lld is %d, want %d",
                     paths[path], dense ? "dense" : "matmul", (long long)M, (long long)N, (long long)K,
                     xdt == BYOC_INT8 ? "int8" : "uint8", wdt == BYOC_INT8 ? "int8" : "uint8", ta, tb, (long long)at,
                     ((const int32_t *)p.out.data)[at], want[at]);
            ok = 0;
        }
    }
    free(want);
    free_product(&p);
    return ok;
}

static const int64_t sizes[] = {1, 3, 5, 17, 63, 64, 65, 257};
enum {
    SIZES = sizeof sizes / sizeof sizes[0]
};

/* every combination of M, N and K from the list, the four dtype pairs in turn, per-tensor and per-column */
static void test_dense_every_shape(void) {
    char why[512];
    int combo = 0;
    for (int i = 0; i < SIZES; ++i)
        for (int j = 0; j < SIZES; ++j)
            for (int l = 0; l < SIZES; ++l, ++combo) {
                byoc_dtype xdt = combo & 1 ? BYOC_UINT8 : BYOC_INT8, wdt = combo & 2 ? BYOC_UINT8 : BYOC_INT8;
                CHECKF(check_matmul(1, 0, 1, sizes[i], sizes[j], sizes[l], xdt, wdt, combo % 3 == 0, why, sizeof why),
                       "%s", why);
            }
}
/* qnn.matmul with each transpose, odd K, both dtypes of each operand */
static void test_matmul_transposes(void) {
    char why[512];
    static const int64_t dims[][3] = {{5, 17, 63}, {64, 65, 7}, {17, 33, 257}, {1, 63, 5}, {65, 1, 130}};
    for (int s = 0; s < 5; ++s)
        for (int t = 0; t < 4; ++t)
            for (int dt = 0; dt < 4; ++dt)
                CHECKF(check_matmul(0, t & 1, t >> 1, dims[s][0], dims[s][1], dims[s][2],
                                    dt & 1 ? BYOC_UINT8 : BYOC_INT8, dt & 2 ? BYOC_UINT8 : BYOC_INT8, (s + dt) % 2, why,
                                    sizeof why),
                       "%s", why);
}

/* the extremes: every element at an end of its range, zero points at the other end, and a K long enough
   (255 * 255 * 40000 > 2^31) that the int32 sums wrap */
static void test_extremes_and_wrapping(void) {
    static const struct {
        byoc_dtype xdt, wdt;
        int32_t x, w, xz, wz;
    } cases[] = {
        {BYOC_INT8, BYOC_INT8, -128, -128, 127, 127}, {BYOC_INT8, BYOC_INT8, 127, -128, -128, 127},
        {BYOC_UINT8, BYOC_UINT8, 255, 255, 0, 0},     {BYOC_UINT8, BYOC_INT8, 0, 127, 255, -128},
        {BYOC_INT8, BYOC_UINT8, -128, 0, 127, 255},   {BYOC_UINT8, BYOC_UINT8, 0, 255, 255, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c)
        for (int big = 0; big < 2; ++big) {
            int64_t M = 3, N = 5, K = big ? 40000 : 257;
            product p;
            memset(&p, 0, sizeof p);
            p.m = byoc_module_create(NULL);
            int64_t xd[2] = {M, K}, wd[2] = {N, K};
            byoc_diag d;
            p.call = make_call(&p, "qnn.dense", cases[c].xdt, 2, xd, cases[c].wdt, 2, wd, 1, NULL, &d);
            CHECKF(p.call != NULL, "%s", d.message);
            fill_operands(&p, cases[c].xdt, 2, xd, cases[c].wdt, 2, wd, 1);
            for (int64_t i = 0; i < M * K; ++i) put_q8(cases[c].xdt, p.in[0].data, i, cases[c].x);
            for (int64_t i = 0; i < N * K; ++i) put_q8(cases[c].wdt, p.in[1].data, i, cases[c].w);
            p.xz = cases[c].xz;
            p.wz[0] = cases[c].wz;
            p.out = (byoc_tensor){BYOC_INT32, 2, {M, N}, malloc((size_t)(M * N) * 4)};
            int32_t want = wrap32((int64_t)(cases[c].x - cases[c].xz) * (cases[c].w - cases[c].wz) * K);
            for (int path = 0; path < PATHS; ++path) {
                if (!available[path]) continue;
                byoc_result r = run_on(&p, path, &d);
                const int32_t *got = (const int32_t *)p.out.data;
                int same = r == BYOC_OK;
                for (int64_t i = 0; same && i < M * N; ++i) same = got[i] == want;
                if (!same) free_product(&p);
                CHECKF(same, "case %zu K=%lld on %s: %d, want %d", c, (long long)K, paths[path], got[0], want);
            }
            free_product(&p);
        }
}

typedef struct conv_case {
    int64_t C, H, W, O, KH, KW, sh, sw, pt, pl, pb, pr, dh, dw, G;
} conv_case;
/* qnn.conv2d (NCHW, OIHW, batch 2) on every runnable path against a direct loop */
static int check_conv(const conv_case *cc, byoc_dtype xdt, byoc_dtype wdt, int per_channel, char *why,
                      size_t why_size) {
    product p;
    memset(&p, 0, sizeof p);
    p.m = byoc_module_create(NULL);
    int64_t N = 2, Cg = cc->C / cc->G, Og = cc->O / cc->G;
    int64_t xd[4] = {N, cc->C, cc->H, cc->W}, wd[4] = {cc->O, Cg, cc->KH, cc->KW};
    int64_t st[2] = {cc->sh, cc->sw}, pd[4] = {cc->pt, cc->pl, cc->pb, cc->pr}, dl[2] = {cc->dh, cc->dw};
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(p.m, &a, "strides", st, 2);
    byoc_attrs_set_ints(p.m, &a, "padding", pd, 4);
    byoc_attrs_set_ints(p.m, &a, "dilation", dl, 2);
    byoc_attrs_set_int(p.m, &a, "groups", cc->G);
    byoc_diag d;
    int64_t wz_count = per_channel ? cc->O : 1;
    p.call = make_call(&p, "qnn.conv2d", xdt, 4, xd, wdt, 4, wd, wz_count, &a, &d);
    if (!p.call) {
        snprintf(why, why_size, "type error: %s", d.message);
        byoc_module_destroy(p.m);
        return 0;
    }
    const byoc_type *ot = p.call->checked_type;
    int64_t OH = ot->dims[2], OW = ot->dims[3], on = N * cc->O * OH * OW;
    fill_operands(&p, xdt, 4, xd, wdt, 4, wd, wz_count);
    p.out = (byoc_tensor){BYOC_INT32, 4, {N, cc->O, OH, OW}, malloc((size_t)on * 4)};
    int32_t *want = (int32_t *)malloc((size_t)on * 4);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t o = 0; o < cc->O; ++o)
            for (int64_t oy = 0; oy < OH; ++oy)
                for (int64_t ox = 0; ox < OW; ++ox) {
                    int64_t sum = 0, g = o / Og;
                    for (int64_t c = 0; c < Cg; ++c)
                        for (int64_t ky = 0; ky < cc->KH; ++ky)
                            for (int64_t kx = 0; kx < cc->KW; ++kx) {
                                int64_t iy = oy * cc->sh - cc->pt + ky * cc->dh,
                                        ix = ox * cc->sw - cc->pl + kx * cc->dw;
                                int64_t x = iy < 0 || iy >= cc->H || ix < 0 || ix >= cc->W
                                                ? 0 /* padding holds the zero point */
                                                : get_q8(xdt, p.in[0].data,
                                                         ((n * cc->C + g * Cg + c) * cc->H + iy) * cc->W + ix) -
                                                      p.xz;
                                int64_t w = get_q8(wdt, p.in[1].data, ((o * Cg + c) * cc->KH + ky) * cc->KW + kx) -
                                            p.wz[per_channel ? o : 0];
                                sum += x * w;
                            }
                    want[((n * cc->O + o) * OH + oy) * OW + ox] = wrap32(sum);
                }
    int ok = 1;
    for (int path = 0; path < PATHS && ok; ++path) {
        if (!available[path]) continue;
        if (run_on(&p, path, &d) != BYOC_OK) {
            snprintf(why, why_size, "%s: %s", paths[path], d.message);
            ok = 0;
            break;
        }
        int64_t at = first_difference((const int32_t *)p.out.data, want, on);
        if (at >= 0) {
            snprintf(why, why_size, "%s: element %lld is %d, want %d", paths[path], (long long)at,
                     ((const int32_t *)p.out.data)[at], want[at]);
            ok = 0;
        }
    }
    free(want);
    free_product(&p);
    return ok;
}
static void test_conv_geometries(void) {
    static const conv_case cases[] = {
        /* C  H  W  O KH KW sh sw pt pl pb pr dh dw G */
        {16, 9, 11, 24, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1}, /* 1x1 stride 1: the image is the GEMM's operand */
        {3, 17, 15, 8, 3, 3, 2, 2, 0, 0, 0, 0, 1, 1, 1},  /* stride 2, K = 27 (not a multiple of 4) */
        {5, 12, 13, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},  /* padded */
        {4, 14, 14, 16, 5, 5, 1, 1, 2, 2, 2, 2, 1, 1, 1}, /* mnist's second layer */
        {6, 13, 12, 9, 3, 2, 2, 1, 2, 0, 1, 3, 2, 3, 1},  /* asymmetric everything, dilation */
        {8, 10, 10, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 8},  /* depthwise */
        {12, 9, 9, 18, 3, 3, 2, 1, 1, 0, 1, 2, 1, 2, 3},  /* groups */
        {33, 7, 7, 65, 1, 1, 2, 2, 0, 0, 0, 0, 1, 1, 1},  /* 1x1 with stride: through im2col */
        {3, 9, 75, 8, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1},   /* stride 2 on wide rows: im2col's vector gather */
        {2, 40, 45, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},  /* many output pixels, few channels */
        {64, 6, 6, 40, 3, 3, 1, 1, 0, 0, 0, 0, 1, 1, 1},  /* K = 576 */
        /* one input channel per group: the direct depthwise loop (rows of 16, 8 and 4 lanes and their tails) */
        {16, 33, 47, 16, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 16}, /* ultraface's stride-2 layers, odd sizes */
        {6, 20, 37, 12, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 6},   /* two outputs per channel */
        {5, 19, 40, 5, 5, 5, 3, 2, 2, 1, 0, 3, 2, 1, 5},    /* strides 3 and 2, dilation, asymmetric padding */
        {4, 9, 70, 4, 1, 7, 1, 1, 0, 3, 0, 3, 1, 1, 4},     /* a 1x7 row kernel */
        {3, 6, 5, 3, 3, 3, 1, 3, 2, 4, 2, 4, 1, 1, 3},      /* padding wider than the row, stride 3 */
        {1, 30, 33, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},    /* one channel, groups 1 */
        {3, 8, 8, 24, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 3},     /* eight outputs per channel: the GEMM */
        {1, 182, 182, 1, 182, 182, 1, 1, 0, 0, 0, 0, 1, 1, 1}, /* 33124 taps could wrap: the GEMM */
    };
    char why[512];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (int dt = 0; dt < 4; ++dt)
            CHECKF(check_conv(&cases[i], dt & 1 ? BYOC_UINT8 : BYOC_INT8, dt & 2 ? BYOC_UINT8 : BYOC_INT8,
                              (int)(i + (size_t)dt) % 2, why, sizeof why),
                   "case %zu, dtypes %d: %s", i, dt, why);
}

/* qnn.add and qnn.mul of every pair of 8-bit values (a = i / 256, b = i % 256), and with an operand broadcast
   along the innermost run (which ONNX Runtime folds into the constant), give the same bytes on every path as
   on the portable one (its scalar loop, or its table of every pair) */
typedef struct qbinary_case {
    const char *op;
    int64_t ad[2], bd[2]; /* the operands' shapes (rank 2) */
} qbinary_case;
static int check_qbinary(const qbinary_case *qc, byoc_dtype dt, char *why, size_t why_size) {
    byoc_module *m = byoc_module_create(NULL);
    const byoc_type *ta = byoc_tensor_type(m, dt, 2, qc->ad), *tb = byoc_tensor_type(m, dt, 2, qc->bd);
    const byoc_type *scalar_f = byoc_tensor_type(m, BYOC_FLOAT32, 0, NULL);
    const byoc_type *scalar_i = byoc_tensor_type(m, BYOC_INT32, 0, NULL);
    static const char *const names[8] = {"a", "b", "sa", "za", "sb", "zb", "sc", "zc"};
    byoc_node *args[8];
    for (int i = 0; i < 8; ++i)
        args[i] = byoc_var(m, names[i], i == 0 ? ta : i == 1 ? tb : i % 2 ? scalar_i : scalar_f);
    byoc_node *call = byoc_call(m, qc->op, args, 8, NULL);
    byoc_diag d;
    if (!call || byoc_infer_node_type(m, call, &d) != BYOC_OK) {
        snprintf(why, why_size, "type error: %s", call ? d.message : "no call");
        byoc_module_destroy(m);
        return 0;
    }
    int64_t an = qc->ad[0] * qc->ad[1], bn = qc->bd[0] * qc->bd[1];
    int64_t on = byoc_type_num_elements(call->checked_type);
    unsigned char *a = (unsigned char *)malloc((size_t)an), *b = (unsigned char *)malloc((size_t)bn);
    for (int64_t i = 0; i < an; ++i) a[i] = (unsigned char)(an == 65536 ? i >> 8 : i);
    for (int64_t i = 0; i < bn; ++i) b[i] = (unsigned char)i;
    /* scales whose ratios are not powers of two, so products round; zero points inside the range */
    float sa = 0.0173f, sb = 0.0291f, sc = 0.0237f;
    int32_t za = dt == BYOC_INT8 ? -7 : 121, zb = dt == BYOC_INT8 ? 13 : 133, zc = dt == BYOC_INT8 ? 3 : 118;
    byoc_tensor in[8] = {{dt, 2, {qc->ad[0], qc->ad[1]}, a}, {dt, 2, {qc->bd[0], qc->bd[1]}, b},
                         {BYOC_FLOAT32, 0, {0}, &sa}, {BYOC_INT32, 0, {0}, &za},
                         {BYOC_FLOAT32, 0, {0}, &sb}, {BYOC_INT32, 0, {0}, &zb},
                         {BYOC_FLOAT32, 0, {0}, &sc}, {BYOC_INT32, 0, {0}, &zc}};
    const byoc_type *ot = call->checked_type;
    unsigned char *want = (unsigned char *)malloc((size_t)on), *got = (unsigned char *)malloc((size_t)on);
    void *ws = malloc(byoc_kernel_workspace_size(call) + 1);
    int ok = 1;
    for (int path = 0; path < PATHS && ok; ++path) {
        if (!available[path]) continue;
        byoc_tensor out = {dt, 2, {ot->dims[0], ot->dims[1]}, path == 0 ? want : got};
        memset(out.data, 0x5a, (size_t)on);
        setenv("BYOC_INT8_ISA", paths[path], 1);
        byoc_result r = byoc_kernel_run(call, in, 8, &out, 1, ws, &d);
        unsetenv("BYOC_INT8_ISA");
        if (r != BYOC_OK) {
            snprintf(why, why_size, "%s: %s", paths[path], d.message);
            ok = 0;
        }
        for (int64_t i = 0; ok && path > 0 && i < on; ++i)
            if (got[i] != want[i]) {
                snprintf(why, why_size, "%s: element %lld is %d, the portable path's %d", paths[path], (long long)i,
                         got[i], want[i]);
                ok = 0;
            }
    }
    free(ws);
    free(got);
    free(want);
    free(a);
    free(b);
    byoc_module_destroy(m);
    return ok;
}
static void test_qbinary_paths(void) {
    static const qbinary_case cases[] = {
        {"qnn.add", {256, 256}, {256, 256}}, /* every pair, both operands runs */
        {"qnn.add", {256, 256}, {256, 1}},   /* the right operand one value per row: folded */
        {"qnn.add", {256, 1}, {256, 256}},   /* the left one */
        {"qnn.add", {1, 1}, {7, 37}},        /* a scalar, odd lengths (vector tails) */
        {"qnn.mul", {256, 256}, {256, 256}},
        {"qnn.mul", {256, 256}, {256, 1}},
        {"qnn.mul", {3, 1}, {1, 45}},
    };
    char why[512];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
        for (int dt = 0; dt < 2; ++dt)
            CHECKF(check_qbinary(&cases[i], dt ? BYOC_UINT8 : BYOC_INT8, why, sizeof why), "case %zu (%s), %s: %s", i,
                   cases[i].op, dt ? "uint8" : "int8", why);
}

/* qnn.quantize (float32 to 8 bits: ties, NaN, infinities, values far outside the range) and qnn.dequantize (every
   8-bit value) with one scale and zero point give the same bytes on every path as on the portable one */
static int check_quantize_pair(byoc_dtype dt, int dequantize, char *why, size_t why_size) {
    byoc_module *m = byoc_module_create(NULL);
    enum { N = 4099 }; /* not a multiple of 16: the vector loops' tails */
    int64_t dims[1] = {N};
    byoc_dtype from = dequantize ? dt : BYOC_FLOAT32, to = dequantize ? BYOC_FLOAT32 : dt;
    byoc_node *args[3] = {byoc_var(m, "x", byoc_tensor_type(m, from, 1, dims)),
                          byoc_var(m, "s", byoc_tensor_type(m, BYOC_FLOAT32, 0, NULL)),
                          byoc_var(m, "z", byoc_tensor_type(m, BYOC_INT32, 0, NULL))};
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    if (!dequantize) byoc_attrs_set_string(m, &a, "out_dtype", byoc_dtype_name(dt));
    byoc_node *call = byoc_call(m, dequantize ? "qnn.dequantize" : "qnn.quantize", args, 3, &a);
    byoc_diag d;
    if (!call || byoc_infer_node_type(m, call, &d) != BYOC_OK) {
        snprintf(why, why_size, "type error: %s", call ? d.message : "no call");
        byoc_module_destroy(m);
        return 0;
    }
    static float xf[N];
    static unsigned char xq[N];
    float scale = 0.0371f;
    int32_t zp = dt == BYOC_INT8 ? -5 : 131;
    for (int i = 0; i < N; ++i) {
        xq[i] = (unsigned char)(i * 7);
        float tie = ((float)(i % 600) - 300.0f + 0.5f) * scale; /* near a tie of the quotient */
        xf[i] = i % 97 == 0 ? NAN : i % 89 == 0 ? (i % 2 ? INFINITY : -INFINITY) : i % 83 == 0 ? 1e30f : tie;
    }
    byoc_tensor in[3] = {{from, 1, {N}, dequantize ? (void *)xq : (void *)xf},
                         {BYOC_FLOAT32, 0, {0}, &scale},
                         {BYOC_INT32, 0, {0}, &zp}};
    size_t out_bytes = (size_t)N * byoc_dtype_size(to);
    unsigned char *want = (unsigned char *)malloc(out_bytes), *got = (unsigned char *)malloc(out_bytes);
    void *ws = malloc(byoc_kernel_workspace_size(call) + 1);
    int ok = 1;
    for (int path = 0; path < PATHS && ok; ++path) {
        if (!available[path]) continue;
        byoc_tensor out = {to, 1, {N}, path == 0 ? want : got};
        memset(out.data, 0x5a, out_bytes);
        setenv("BYOC_INT8_ISA", paths[path], 1);
        byoc_result r = byoc_kernel_run(call, in, 3, &out, 1, ws, &d);
        unsetenv("BYOC_INT8_ISA");
        if (r != BYOC_OK) {
            snprintf(why, why_size, "%s: %s", paths[path], d.message);
            ok = 0;
        } else if (path > 0 && memcmp(got, want, out_bytes) != 0) {
            snprintf(why, why_size, "%s: differs from the portable path", paths[path]);
            ok = 0;
        }
    }
    free(ws);
    free(got);
    free(want);
    byoc_module_destroy(m);
    return ok;
}
static void test_quantize_paths(void) {
    char why[512];
    for (int dt = 0; dt < 2; ++dt)
        for (int dequantize = 0; dequantize < 2; ++dequantize)
            CHECKF(check_quantize_pair(dt ? BYOC_UINT8 : BYOC_INT8, dequantize, why, sizeof why), "%s %s: %s",
                   dequantize ? "dequantize" : "quantize", dt ? "uint8" : "int8", why);
}

/* the errors of BYOC_INT8_ISA */
static void test_isa_errors(void) {
    product p;
    memset(&p, 0, sizeof p);
    p.m = byoc_module_create(NULL);
    int64_t xd[2] = {4, 8}, wd[2] = {3, 8};
    byoc_diag d;
    p.call = make_call(&p, "qnn.dense", BYOC_INT8, 2, xd, BYOC_INT8, 2, wd, 1, NULL, &d);
    CHECKF(p.call != NULL, "%s", d.message);
    fill_operands(&p, BYOC_INT8, 2, xd, BYOC_INT8, 2, wd, 1);
    p.out = (byoc_tensor){BYOC_INT32, 2, {4, 3}, malloc(48)};
    setenv("BYOC_INT8_ISA", "sse9", 1);
    byoc_result r = byoc_kernel_run(p.call, p.in, 6, &p.out, 1, NULL, &d);
    unsetenv("BYOC_INT8_ISA");
    int refused = r != BYOC_OK && strstr(d.message, "BYOC_INT8_ISA=sse9 is not") != NULL;
    char message[sizeof d.message];
    memcpy(message, d.message, sizeof message);
    int lacking = -1;
    for (int path = 0; path < PATHS; ++path)
        if (!available[path]) lacking = path;
    byoc_result lacking_result = lacking >= 0 ? run_on(&p, lacking, &d) : BYOC_OK;
    free_product(&p);
    CHECKF(refused, "an unknown path: %s", message);
    if (lacking >= 0) {
        CHECK(lacking_result != BYOC_OK);
        CHECK_CONTAINS(d.message, "does not run it");
    }
}

/* whether the library runs a path: a BYOC_NO_SIMD build has only the portable one */
static int probe_path(int path) {
    product p;
    memset(&p, 0, sizeof p);
    p.m = byoc_module_create(NULL);
    int64_t xd[2] = {2, 4}, wd[2] = {3, 4};
    byoc_diag d;
    p.call = make_call(&p, "qnn.dense", BYOC_INT8, 2, xd, BYOC_INT8, 2, wd, 1, NULL, &d);
    if (!p.call) {
        byoc_module_destroy(p.m);
        return 0;
    }
    fill_operands(&p, BYOC_INT8, 2, xd, BYOC_INT8, 2, wd, 1);
    p.out = (byoc_tensor){BYOC_INT32, 2, {2, 3}, malloc(24)};
    int ok = run_on(&p, path, &d) == BYOC_OK;
    free_product(&p);
    return ok;
}

/* BYOC_INT8_ISA: an unknown path or one this CPU lacks is a clear error, not a silent fallback; the portable
   path always runs, and no path runs on a CPU without its instructions */
static void test_isa_switch(void) {
    CHECK(available[0]);
    for (int path = 1; path < PATHS; ++path) CHECKF(cpu_runs(path) || !available[path], "%s ran", paths[path]);
    test_isa_errors();
}
int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_dense_every_shape), TEST_ENTRY(test_matmul_transposes), TEST_ENTRY(test_extremes_and_wrapping),
        TEST_ENTRY(test_conv_geometries),   TEST_ENTRY(test_qbinary_paths),
        TEST_ENTRY(test_quantize_paths),    TEST_ENTRY(test_isa_switch),
    };
    for (int path = 0; path < PATHS; ++path) {
        available[path] = probe_path(path);
        printf("# %s: %s\n", paths[path], available[path] ? "runs" : "not on this CPU or in this build");
    }
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
