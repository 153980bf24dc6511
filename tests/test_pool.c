/* Float pooling paths of byoc.h "pooling rows" against the general path they replace (byoc__window_plane over
   padded phases), byte for byte: max pools by rows (every instruction set this machine runs, strides 1 and 2,
   3-wide and other windows, dilation, padding, ceil_mode's partial windows, rows of fewer columns than a vector)
   on values that make the order of the taps visible (NaN, +0 and -0, infinities, -FLT_MAX, repeats); averages
   whose window is the whole plane; the vector division of averages by their counts. It compiles the
   implementation itself to reach those internals. */
#define BYOC_IMPLEMENTATION
#include "byoc.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t next_u32(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 32);
}
/* few distinct values, so that windows hold ties; a NaN, zeros of both signs, infinities and -FLT_MAX often */
static float tricky_value(void) {
    static const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, -FLT_MAX, FLT_MAX, 1.0f, -1.0f};
    uint32_t r = next_u32() % 64;
    if (r < 6) return NAN;
    if (r < 30) return specials[r % 8];
    return (float)((int)(next_u32() % 9) - 4) * 0.5f;
}

typedef struct geom_case {
    int64_t C, H, W, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr;
    int ceil_mode;
} geom_case;

/* the output extent of one axis as byoc__rel_pool2d gives it (ceil_mode: a last window must start inside the
   input or its leading padding) */
static int64_t out_extent(int64_t in, int64_t k, int64_t s, int64_t d, int64_t p0, int64_t p1, int ceil_mode) {
    int64_t span = in + p0 + p1 - d * (k - 1) - 1;
    if (span < 0) return 0;
    int64_t o = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
    if (ceil_mode && (o - 1) * s >= in + p0) --o;
    return o;
}
static byoc__pool_geom geom_of(const geom_case *c) {
    byoc__pool_geom g;
    g.N = 1; g.C = c->C; g.H = c->H; g.W = c->W; g.kh = c->kh; g.kw = c->kw; g.sh = c->sh; g.sw = c->sw;
    g.dh = c->dh; g.dw = c->dw; g.pt = c->pt; g.pl = c->pl; g.pb = c->pb; g.pr = c->pr;
    g.OH = out_extent(c->H, c->kh, c->sh, c->dh, c->pt, c->pb, c->ceil_mode);
    g.OW = out_extent(c->W, c->kw, c->sw, c->dw, c->pl, c->pr, c->ceil_mode);
    return g;
}
/* the general path: every plane through byoc__window_plane (op: BYOC__WIN_MAX or BYOC__WIN_SUM) */
static void general_path(int op, const byoc__pool_geom *g, const float *x, float *o) {
    byoc__window w;
    byoc__pool_window(g, &w);
    unsigned char *scratch = (unsigned char *)malloc(byoc__window_ws(&w));
    byoc__window_offsets(&w, scratch);
    for (int64_t p = 0; p < g->N * g->C; ++p)
        byoc__window_plane(op, &w, x + p * g->H * g->W, o + p * g->OH * g->OW, scratch);
    free(scratch);
}
/* the row path's scratch with its bytes set to a NaN pattern, so that nothing reads what it did not write */
static unsigned char *poisoned_scratch(const byoc__pool_geom *g) {
    size_t n = byoc__max_pool_rows_ws(g);
    unsigned char *s = (unsigned char *)malloc(n);
    memset(s, 0xff, n);
    return s;
}

static const geom_case max_cases[] = {
    {5, 111, 111, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0, 0},  /* SqueezeNet's first pool */
    {7, 27, 27, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0, 1},    /* its last: rows of 13 (8-lane vectors, overlapped) */
    {3, 56, 57, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0},    /* ShuffleNet's: padding on every side */
    {4, 14, 13, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0, 1},    /* ceil_mode: a partial last window on both axes */
    {3, 9, 40, 3, 3, 2, 2, 1, 1, 2, 2, 2, 2, 1},     /* padding as wide as the window's reach, ceil_mode */
    {2, 20, 70, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0},    /* stride 1 */
    {2, 33, 37, 5, 4, 1, 2, 2, 2, 3, 1, 0, 2, 1},    /* dilation, asymmetric padding, stride 2 of a 4-wide */
    {3, 17, 50, 2, 3, 2, 1, 1, 3, 0, 2, 1, 0, 1},    /* dilated taps at stride 1 */
    {2, 31, 29, 3, 2, 2, 2, 2, 1, 1, 0, 1, 1, 1},    /* 2-wide at stride 2, dilated rows */
    {2, 6, 5, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1},      /* rows shorter than any vector */
    {1, 40, 130, 7, 7, 1, 1, 1, 1, 3, 3, 3, 3, 0},   /* a 7x7 window */
    {2, 5, 300, 1, 3, 1, 2, 1, 1, 0, 0, 0, 0, 0},    /* one row per window */
};

/* the verdict of one geometry: its last variant's output (got) against the general path's (want), naming the
   first output that differs; frees both */
static void check_same_bytes(size_t c, int variant, float *got, float *want, size_t nout) {
    size_t first = 0;
    while (first < nout && !memcmp(got + first, want + first, sizeof(float))) ++first;
    float gv = first < nout ? got[first] : 0, wv = first < nout ? want[first] : 0;
    CHECKF(first == nout, "case %d (variant %d): output %zu is %g, the general path's %g", (int)c, variant, first,
           (double)gv, (double)wv);
    free(want);
    free(got);
}

/* every geometry through the dispatching entry and through each instruction set's plane loop */
static void test_max_pool_rows_same_bytes_as_general_path(void) {
    for (size_t c = 0; c < sizeof max_cases / sizeof max_cases[0]; ++c) {
        byoc__pool_geom g = geom_of(&max_cases[c]);
        CHECKF(byoc__max_pool_by_rows(&g), "case %d does not take the row path", (int)c);
        size_t nin = (size_t)(g.C * g.H * g.W), nout = (size_t)(g.C * g.OH * g.OW);
        float *x = (float *)malloc(nin * sizeof(float)), *want = (float *)malloc(nout * sizeof(float));
        float *got = (float *)malloc(nout * sizeof(float));
        for (size_t i = 0; i < nin; ++i) x[i] = tricky_value();
        general_path(BYOC__WIN_MAX, &g, x, want);
        int variants = 1, same = 1, variant = 0;
#if BYOC__X86_DISPATCH
        variants = 4;
#endif
        for (; same && variant < variants; ++variant) {
#if BYOC__X86_DISPATCH
            /* an instruction set this machine lacks is skipped before got is poisoned: got keeps the last output */
            __builtin_cpu_init();
            if ((variant == 2 && !__builtin_cpu_supports("avx2")) ||
                (variant == 3 && !__builtin_cpu_supports("avx512f")))
                continue;
#endif
            unsigned char *scratch = poisoned_scratch(&g);
            memset(got, 0xA5, nout * sizeof(float));
            if (variant == 0) { /* as two bands of output rows, the split over threads */
                byoc__max_pool_rows_planes(&g, x, got, 0, g.C, 0, g.OH / 2, scratch);
                byoc__max_pool_rows_planes(&g, x, got, 0, g.C, g.OH / 2, g.OH, scratch);
            }
#if BYOC__X86_DISPATCH
            if (variant == 1) byoc__maxrows_planes_portable(&g, x, got, 0, g.C, 0, g.OH, scratch);
            if (variant == 2) byoc__maxrows_planes_avx2(&g, x, got, 0, g.C, 0, g.OH, scratch);
            if (variant == 3) byoc__maxrows_planes_avx512(&g, x, got, 0, g.C, 0, g.OH, scratch);
#endif
            same = !memcmp(got, want, nout * sizeof(float));
            free(scratch);
        }
        free(x);
        check_same_bytes(c, variant - 1, got, want, nout);
    }
}

/* a NaN never wins, -FLT_MAX where a window holds nothing else, and of +0 and -0 the first in row-major order */
static void test_max_pool_rows_nan_and_signed_zeros(void) {
    geom_case c = {1, 3, 20, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0};
    byoc__pool_geom g = geom_of(&c);
    float x[60], o[38];
    for (int i = 0; i < 60; ++i) x[i] = -1.0f;
    x[0] = NAN; x[1] = NAN; x[20] = NAN; x[21] = NAN;       /* window (0, 0): all NaN */
    x[3] = -0.0f; x[24] = 0.0f;                             /* window (0, 3): -0 (row 0) before +0 (row 1) */
    x[26] = -0.0f; x[7] = 0.0f;                             /* window (0, 6): row 0's +0 first, then row 1's -0 */
    x[10] = -INFINITY; x[11] = -INFINITY; x[30] = NAN; x[31] = -INFINITY; /* window (0, 10) */
    unsigned char *scratch = poisoned_scratch(&g);
    byoc__max_pool_rows_planes(&g, x, o, 0, 1, 0, g.OH, scratch);
    free(scratch);
    CHECK(g.OH == 2 && g.OW == 19);
    CHECK(o[0] == -FLT_MAX);
    CHECK(o[3] == 0.0f && signbit(o[3]) && o[2] == 0.0f && signbit(o[2])); /* windows 2 and 3 see -0 first */
    CHECK(o[6] == 0.0f && !signbit(o[6]) && o[7] == 0.0f && !signbit(o[7]));
    CHECK(o[10] == -FLT_MAX && o[9] == -1.0f);
}

/* the general path's average: the window sums, then each divided by the counts as byoc__k_pool2d counts them */
static void general_average(const byoc__pool_geom *g, int include_pad, const float *x, float *o, float *count_x) {
    general_path(BYOC__WIN_SUM, g, x, o);
    for (int64_t ox = 0; ox < g->OW; ++ox) {
        int64_t x0 = ox * g->sw - g->pl;
        count_x[ox] = (float)(include_pad ? byoc__taps_in(x0, g->kw, g->dw, -g->pl, g->W + g->pr)
                                          : byoc__taps_in(x0, g->kw, g->dw, 0, g->W));
    }
    for (int64_t p = 0; p < g->C; ++p)
        for (int64_t oy = 0; oy < g->OH; ++oy) {
            int64_t y0 = oy * g->sh - g->pt;
            float ny = (float)(include_pad ? byoc__taps_in(y0, g->kh, g->dh, -g->pt, g->H + g->pb)
                                           : byoc__taps_in(y0, g->kh, g->dh, 0, g->H));
            float *row = o + (p * g->OH + oy) * g->OW;
            for (int64_t ox = 0; ox < g->OW; ++ox)
                row[ox] = ny > 0 && count_x[ox] > 0 ? row[ox] / (ny * count_x[ox]) : 0.0f;
        }
}

/* averages by rows (strides 1 and 2, with and without count_include_pad) on every instruction set */
static void test_avg_pool_rows_same_bytes_as_general_path(void) {
    static const geom_case extra[] = {
        {6, 28, 28, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0}, /* ShuffleNet's averages */
        {9, 14, 14, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0},
        {3, 12, 45, 2, 5, 3, 2, 2, 1, 2, 4, 0, 1, 1}, /* padding wider than the reach: columns with no tap */
    };
    size_t nmax = sizeof max_cases / sizeof max_cases[0], nall = nmax + sizeof extra / sizeof extra[0];
    for (size_t c = 0; c < 2 * nall; ++c) {
        int include_pad = (int)(c % 2);
        byoc__pool_geom g = geom_of(c / 2 < nmax ? &max_cases[c / 2] : &extra[c / 2 - nmax]);
        CHECKF(byoc__avg_pool_by_rows(&g), "case %d does not take the row path", (int)c);
        size_t nin = (size_t)(g.C * g.H * g.W), nout = (size_t)(g.C * g.OH * g.OW);
        float *x = (float *)malloc(nin * sizeof(float)), *want = (float *)malloc(nout * sizeof(float));
        float *got = (float *)malloc(nout * sizeof(float)), *count_x = (float *)malloc((size_t)g.OW * sizeof(float));
        for (size_t i = 0; i < nin; ++i) /* -0 now and then: a sum that starts at +0 never turns -0 */
            x[i] = next_u32() % 16 ? (float)((int)(next_u32() % 2001) - 1000) / 7.0f : -0.0f;
        general_average(&g, include_pad, x, want, count_x);
        int variants = 1, same = 1, variant = 0;
#if BYOC__X86_DISPATCH
        variants = 4;
        __builtin_cpu_init();
#endif
        for (; same && variant < variants; ++variant) {
#if BYOC__X86_DISPATCH
            /* an instruction set this machine lacks is skipped before got is poisoned: got keeps the last output */
            if ((variant == 2 && !__builtin_cpu_supports("avx2")) ||
                (variant == 3 && !__builtin_cpu_supports("avx512f")))
                continue;
#endif
            memset(got, 0xA5, nout * sizeof(float));
            if (variant == 0) byoc__avg_pool_rows_planes(&g, include_pad, count_x, x, got, 0, g.C);
#if BYOC__X86_DISPATCH
            if (variant == 1) byoc__avgrows_planes_portable(&g, include_pad, count_x, x, got, 0, g.C);
            if (variant == 2) byoc__avgrows_planes_avx2(&g, include_pad, count_x, x, got, 0, g.C);
            if (variant == 3) byoc__avgrows_planes_avx512(&g, include_pad, count_x, x, got, 0, g.C);
#endif
            same = !memcmp(got, want, nout * sizeof(float));
        }
        free(x);
        free(count_x);
        check_same_bytes(c, variant - 1, got, want, nout);
    }
}

/* averages whose window is the whole plane: the general path's sum order, so its bytes */
static void test_avg_pool_whole_planes(void) {
    static const geom_case cases[] = {
        {544, 7, 7, 7, 7, 1, 1, 1, 1, 0, 0, 0, 0, 0}, /* ShuffleNet's last pool */
        {13, 3, 5, 3, 5, 2, 3, 1, 1, 0, 0, 0, 0, 0},  /* planes not a multiple of 8 */
        {9, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        byoc__pool_geom g = geom_of(&cases[c]);
        CHECK(g.OH == 1 && g.OW == 1 && byoc__pool_is_whole_plane(&g));
        size_t nin = (size_t)(g.C * g.H * g.W);
        float *x = (float *)malloc(nin * sizeof(float)), *want = (float *)malloc((size_t)g.C * sizeof(float));
        float *got = (float *)malloc((size_t)g.C * sizeof(float));
        for (size_t i = 0; i < nin; ++i) x[i] = (float)((int)(next_u32() % 2001) - 1000) / 7.0f;
        general_path(BYOC__WIN_SUM, &g, x, want);
        for (int64_t p = 0; p < g.C; ++p) want[p] /= (float)g.H * (float)g.W;
        byoc__avg_pool_whole_planes(&g, x, got, 0, g.C);
        int same = !memcmp(got, want, (size_t)g.C * sizeof(float));
        free(x);
        free(want);
        free(got);
        CHECKF(same, "case %d differs from the general path", (int)c);
    }
    geom_case padded = {1, 7, 7, 7, 7, 1, 1, 1, 1, 1, 0, 0, 0, 0};
    byoc__pool_geom g = geom_of(&padded);
    CHECK(!byoc__pool_is_whole_plane(&g)); /* a padded window is not the plane */
}

/* the vector division: each element as the scalar division gives it, 0 where a count is 0 */
static void test_avg_pool_divide(void) {
    float row[23], want[23], count_x[23];
    for (int ny = 0; ny < 4; ++ny) {
        for (int i = 0; i < 23; ++i) {
            row[i] = (float)((int)(next_u32() % 2001) - 1000) / 3.0f;
            count_x[i] = (float)(next_u32() % 4);
            want[i] = ny > 0 && count_x[i] > 0 ? row[i] / ((float)ny * count_x[i]) : 0.0f;
        }
        byoc__avg_pool_divide(row, 23, (float)ny, count_x);
        CHECKF(!memcmp(row, want, sizeof row), "ny %d", ny);
    }
}

/* the kernel's choice: float max pools whose windows cover the plane take the rows path, sparse strides and
   stride 3 keep the general path */
static void test_max_pool_rows_choice(void) {
    geom_case dense = {1, 10, 10, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0, 0};
    geom_case sparse = {1, 10, 10, 1, 1, 2, 2, 1, 1, 0, 0, 0, 0, 0};
    geom_case three = {1, 14, 14, 3, 3, 3, 3, 1, 1, 0, 0, 0, 0, 0};
    byoc__pool_geom gd = geom_of(&dense), gs = geom_of(&sparse), gt = geom_of(&three);
    CHECK(byoc__max_pool_by_rows(&gd) == (BYOC__SIMD && BYOC__WINO_SHUFFLE));
    CHECK(!byoc__max_pool_by_rows(&gs));
    CHECK(!byoc__max_pool_by_rows(&gt));
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_max_pool_rows_same_bytes_as_general_path),
        TEST_ENTRY(test_max_pool_rows_nan_and_signed_zeros),
        TEST_ENTRY(test_avg_pool_rows_same_bytes_as_general_path),
        TEST_ENTRY(test_avg_pool_whole_planes),
        TEST_ENTRY(test_avg_pool_divide),
        TEST_ENTRY(test_max_pool_rows_choice),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
