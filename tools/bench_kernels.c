/* bench_kernels -- byoc.h's host GEMM and conv2d against OpenBLAS, side by side in one run, one thread.
   Build (make bench does): cc -std=c99 -O2 -I. tools/bench_kernels.c -o build/bench_kernels -lopenblas -lm
   OpenBLAS (Debian libopenblas-dev) is the baseline only; byoc.h never links it.
   Prints markdown tables; writes the rows as JSON to argv[1] when given. Runs alternate between the
   two implementations and the median of each is compared, so load from other processes hits both. */
#define _POSIX_C_SOURCE 199309L
#define BYOC_IMPLEMENTATION
#include "../byoc.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench_util.h"

void openblas_set_num_threads(int num_threads);

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}



static float *filled(size_t n, unsigned seed) {
    float *p = (float *)malloc(n * sizeof(float));
    for (size_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        p[i] = (float)(seed >> 8) / 16777216.0f - 0.5f;
    }
    return p;
}

static FILE *json;
static int json_rows;

static void json_row(const char *fmt, ...) {
    if (!json) return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(json, "%s\n  ", json_rows++ ? "," : "");
    vfprintf(json, fmt, ap);
    va_end(ap);
}

static void bench_sgemm(void) {
    static const int sizes[] = {256, 384, 512, 768, 1024};
    printf("## sgemm, one thread (GFLOP/s, medians)\n\n| n | byoc_sgemm | OpenBLAS | byoc / OpenBLAS | max abs diff |\n|---:|---:|---:|---:|---:|\n");
    void *ws = malloc(byoc_sgemm_workspace_size());
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        int n = sizes[s];
        size_t nn = (size_t)n * (size_t)n;
        float *a = filled(nn, 1), *b = filled(nn, 2), *c1 = (float *)malloc(nn * 4), *c2 = (float *)malloc(nn * 4);
        int reps = n <= 384 ? 41 : n <= 768 ? 15 : 7;
        double t1[41], t2[41];
        for (int r = 0; r <= reps; ++r) { /* round 0 warms both up */
            double t0 = now();
            byoc_sgemm(0, 0, n, n, n, 1.0f, a, n, b, n, 0.0f, c1, n, ws);
            double t = now();
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c2, n);
            double u = now();
            if (r) { t1[r - 1] = t - t0; t2[r - 1] = u - t; }
        }
        double diff = 0;
        for (size_t i = 0; i < nn; ++i) diff = fmax(diff, fabs((double)c1[i] - (double)c2[i]));
        double flops = 2.0 * n * n * n, g1 = flops / median(t1, reps) * 1e-9, g2 = flops / median(t2, reps) * 1e-9;
        printf("| %d | %.1f | %.1f | %.2f | %.2g |\n", n, g1, g2, g1 / g2, diff);
        json_row("{\"bench\": \"sgemm\", \"n\": %d, \"byoc_gflops\": %.2f, \"openblas_gflops\": %.2f, \"ratio\": %.3f}", n, g1, g2, g1 / g2);
        free(a); free(b); free(c1); free(c2);
    }
    free(ws);
    printf("\n");
}

typedef struct conv_shape { const char *name; int c, h, o, k, stride, pad; } conv_shape;

/* im2col for one image: col[(c * K + ky) * K + kx][oy * OW + ox] */
static void im2col(const float *x, int C, int H, int W, int K, int stride, int pad, int OH, int OW, float *col) {
    for (int c = 0; c < C; ++c)
        for (int ky = 0; ky < K; ++ky)
            for (int kx = 0; kx < K; ++kx) {
                float *row = col + ((size_t)(c * K + ky) * K + kx) * (size_t)(OH * OW);
                for (int oy = 0; oy < OH; ++oy) {
                    int iy = oy * stride - pad + ky;
                    for (int ox = 0; ox < OW; ++ox) {
                        int ix = ox * stride - pad + kx;
                        row[oy * OW + ox] = iy >= 0 && iy < H && ix >= 0 && ix < W ? x[((size_t)c * H + iy) * W + ix] : 0.0f;
                    }
                }
            }
}

static void bench_conv(void) {
    /* ResNet-50 v1 (the zoo's) layer shapes, batch 1 */
    static const conv_shape shapes[] = {
        {"conv1 7x7/2 3->64 @224", 3, 224, 64, 7, 2, 3},   {"res2 1x1 64->64 @56", 64, 56, 64, 1, 1, 0},
        {"res2 3x3 64->64 @56", 64, 56, 64, 3, 1, 1},      {"res2 1x1 64->256 @56", 64, 56, 256, 1, 1, 0},
        {"res3 1x1 256->128 @56", 256, 56, 128, 1, 1, 0},  {"res3 3x3/2 128->128 @56", 128, 56, 128, 3, 2, 1},
        {"res3 1x1 128->512 @28", 128, 28, 512, 1, 1, 0},  {"res4 3x3 256->256 @14", 256, 14, 256, 3, 1, 1},
        {"res4 1x1 256->1024 @14", 256, 14, 1024, 1, 1, 0}, {"res5 1x1 1024->512 @14/2", 1024, 14, 512, 1, 2, 0},
        {"res5 3x3 512->512 @7", 512, 7, 512, 3, 1, 1},    {"res5 1x1 2048->512 @7", 2048, 7, 512, 1, 1, 0},
    };
    printf("## conv2d on ResNet-50 layers, one thread (GFLOP/s, medians)\n\n| layer | byoc conv2d | im2col + OpenBLAS | byoc / OpenBLAS |\n|---|---:|---:|---:|\n");
    double log_sum = 0;
    int count = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        const conv_shape *sh = &shapes[s];
        int OH = (sh->h + 2 * sh->pad - sh->k) / sh->stride + 1, OW = OH;
        byoc_module *m = byoc_module_create(NULL);
        int64_t xd[4] = {1, sh->c, sh->h, sh->h}, wd[4] = {sh->o, sh->c, sh->k, sh->k};
        byoc_node *args[2] = {byoc_var(m, "x", byoc_tensor_type(m, BYOC_FLOAT32, 4, xd)), byoc_var(m, "w", byoc_tensor_type(m, BYOC_FLOAT32, 4, wd))};
        byoc_attrs a;
        memset(&a, 0, sizeof a);
        int64_t st[2] = {sh->stride, sh->stride}, pd[4] = {sh->pad, sh->pad, sh->pad, sh->pad};
        byoc_attrs_set_ints(m, &a, "strides", st, 2);
        byoc_attrs_set_ints(m, &a, "padding", pd, 4);
        byoc_node *call = byoc_call(m, "nn.conv2d", args, 2, &a);
        byoc_diag d;
        if (!call || byoc_infer_node_type(m, call, &d) != BYOC_OK) { fprintf(stderr, "bench_kernels: %s\n", d.message); exit(3); }
        size_t xn = (size_t)sh->c * sh->h * sh->h, wn = (size_t)sh->o * sh->c * sh->k * sh->k, yn = (size_t)sh->o * OH * OW;
        size_t kdim = (size_t)sh->c * sh->k * sh->k;
        float *x = filled(xn, 3), *w = filled(wn, 4), *y1 = (float *)malloc(yn * 4), *y2 = (float *)malloc(yn * 4);
        float *col = (float *)malloc(kdim * (size_t)(OH * OW) * 4);
        void *ws = malloc(byoc_kernel_workspace_size(call) + 1);
        byoc_tensor in[2] = {{BYOC_FLOAT32, 4, {1, sh->c, sh->h, sh->h}, x}, {BYOC_FLOAT32, 4, {sh->o, sh->c, sh->k, sh->k}, w}};
        byoc_tensor out = {BYOC_FLOAT32, 4, {1, sh->o, OH, OW}, y1};
        double flops = 2.0 * (double)yn * (double)kdim, t1[25], t2[25];
        int reps = flops > 4e8 ? 9 : 25;
        int direct = sh->k == 1 && sh->stride == 1; /* a 1x1 stride-1 conv needs no im2col in either */
        for (int r = 0; r <= reps; ++r) {
            double t0 = now();
            if (byoc_kernel_run(call, in, 2, &out, 1, ws, &d) != BYOC_OK) { fprintf(stderr, "bench_kernels: %s\n", d.message); exit(3); }
            double t = now();
            if (!direct) im2col(x, sh->c, sh->h, sh->h, sh->k, sh->stride, sh->pad, OH, OW, col);
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, sh->o, OH * OW, (int)kdim, 1.0f, w, (int)kdim, direct ? x : col, OH * OW, 0.0f, y2, OH * OW);
            double u = now();
            if (r) { t1[r - 1] = t - t0; t2[r - 1] = u - t; }
        }
        double diff = 0;
        for (size_t i = 0; i < yn; ++i) diff = fmax(diff, fabs((double)y1[i] - (double)y2[i]));
        if (diff > 1e-3) { fprintf(stderr, "bench_kernels: %s differs from OpenBLAS by %g\n", sh->name, diff); exit(3); }
        double g1 = flops / median(t1, reps) * 1e-9, g2 = flops / median(t2, reps) * 1e-9;
        printf("| %s | %.1f | %.1f | %.2f |\n", sh->name, g1, g2, g1 / g2);
        json_row("{\"bench\": \"conv2d\", \"layer\": \"%s\", \"byoc_gflops\": %.2f, \"openblas_gflops\": %.2f, \"ratio\": %.3f}", sh->name, g1, g2, g1 / g2);
        log_sum += log(g1 / g2);
        count++;
        free(x); free(w); free(y1); free(y2); free(col); free(ws);
        byoc_module_destroy(m);
    }
    printf("\nconv2d geometric mean byoc / (im2col + OpenBLAS): %.2f\n\n", exp(log_sum / count));
    json_row("{\"bench\": \"conv2d_geomean\", \"ratio\": %.3f}", exp(log_sum / count));
}

int main(int argc, char **argv) {
    openblas_set_num_threads(1);
    if (argc > 1 && !(json = fopen(argv[1], "w"))) { fprintf(stderr, "bench_kernels: cannot write %s\n", argv[1]); return 2; }
    if (json) fprintf(json, "[");
    bench_sgemm();
    bench_conv();
    if (json) { fprintf(json, "\n]\n"); fclose(json); }
    return 0;
}
