/* bench_kernels -- byoc.h's host GEMM and conv2d against OpenBLAS, side by side in one run, one thread, and
   its int8 kernels (qnn.matmul, qnn.conv2d) against its own float32 ones on the same shapes.
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

/* ---- int8 against float32: the same shapes through byoc_kernel_run, runs alternating, medians ---- */

/* a call of op on arguments of the given types (dims[i] of rank ranks[i]), attributes already in a */
static byoc_node *bench_call(byoc_module *m, const char *op, int n, const byoc_dtype *dt, const int *ranks,
                             int64_t dims[][4], byoc_attrs *a) {
    byoc_node *args[6];
    static const char *const names[6] = {"x", "w", "xz", "wz", "xs", "ws"};
    for (int i = 0; i < n; ++i) args[i] = byoc_var(m, names[i], byoc_tensor_type(m, dt[i], ranks[i], dims[i]));
    byoc_node *call = byoc_call(m, op, args, n, a);
    byoc_diag d;
    if (!call || byoc_infer_node_type(m, call, &d) != BYOC_OK) {
        fprintf(stderr, "bench_kernels: %s: %s\n", op, d.message);
        exit(3);
    }
    return call;
}
static void *bytes_filled(size_t n, unsigned seed) {
    unsigned char *p = (unsigned char *)malloc(n);
    for (size_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        p[i] = (unsigned char)(seed >> 24);
    }
    return p;
}
/* times the float32 and the int8 call on their tensors alternately; GOP/s of each from the medians */
static void time_pair(const byoc_node *fcall, byoc_tensor *fin, int fn, byoc_tensor *fout, const byoc_node *qcall,
                      byoc_tensor *qin, int qn, byoc_tensor *qout, double ops, double *gf, double *gq) {
    void *wf = malloc(byoc_kernel_workspace_size(fcall) + 1), *wq = malloc(byoc_kernel_workspace_size(qcall) + 1);
    int reps = ops > 4e8 ? 9 : 25;
    double t1[25], t2[25];
    byoc_diag d;
    for (int r = 0; r <= reps; ++r) { /* round 0 warms both up */
        double t0 = now();
        if (byoc_kernel_run(fcall, fin, fn, fout, 1, wf, &d) != BYOC_OK) {
            fprintf(stderr, "bench_kernels: %s\n", d.message);
            exit(3);
        }
        double t = now();
        if (byoc_kernel_run(qcall, qin, qn, qout, 1, wq, &d) != BYOC_OK) {
            fprintf(stderr, "bench_kernels: %s\n", d.message);
            exit(3);
        }
        double u = now();
        if (r) {
            t1[r - 1] = t - t0;
            t2[r - 1] = u - t;
        }
    }
    *gf = ops / median(t1, reps) * 1e-9;
    *gq = ops / median(t2, reps) * 1e-9;
    free(wf);
    free(wq);
}
/* the zero points and scales of a qnn product: uint8 data (zero point 128), int8 weight (0), scalars */
static int32_t q_zp_data = 128, q_zp_weight = 0;
static float q_scale = 0.05f;
static void q_params(byoc_tensor *in) {
    byoc_tensor p[4] = {{BYOC_INT32, 0, {0}, &q_zp_data},
                        {BYOC_INT32, 0, {0}, &q_zp_weight},
                        {BYOC_FLOAT32, 0, {0}, &q_scale},
                        {BYOC_FLOAT32, 0, {0}, &q_scale}};
    memcpy(in + 2, p, sizeof p);
}
static const byoc_dtype q_dtypes[6] = {BYOC_UINT8, BYOC_INT8, BYOC_INT32, BYOC_INT32, BYOC_FLOAT32, BYOC_FLOAT32};

static double int8_log_sum;
static int int8_count;
static void bench_qgemm(void) {
    static const int sizes[] = {256, 384, 512, 768, 1024};
    printf("## int8 GEMM against float32, one thread (GOP/s, medians)\n\n"
           "qnn.matmul (uint8 x int8, int32 result) and nn.matmul (float32), both A[n, n] x B[n, n]\n\n"
           "| n | float32 | int8 | int8 / float32 |\n|---:|---:|---:|---:|\n");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
        int n = sizes[s];
        size_t nn = (size_t)n * (size_t)n;
        byoc_module *m = byoc_module_create(NULL);
        int64_t dims[6][4] = {{n, n}, {n, n}};
        int ranks[6] = {2, 2, 0, 0, 0, 0};
        byoc_dtype fdt[2] = {BYOC_FLOAT32, BYOC_FLOAT32};
        byoc_node *fcall = bench_call(m, "nn.matmul", 2, fdt, ranks, dims, NULL);
        byoc_node *qcall = bench_call(m, "qnn.matmul", 6, q_dtypes, ranks, dims, NULL);
        float *a = filled(nn, 1), *b = filled(nn, 2), *c = (float *)malloc(nn * 4);
        void *qa = bytes_filled(nn, 3), *qb = bytes_filled(nn, 4), *qc = malloc(nn * 4);
        byoc_tensor fin[2] = {{BYOC_FLOAT32, 2, {n, n}, a}, {BYOC_FLOAT32, 2, {n, n}, b}},
                    fout = {BYOC_FLOAT32, 2, {n, n}, c};
        byoc_tensor qin[6] = {{BYOC_UINT8, 2, {n, n}, qa}, {BYOC_INT8, 2, {n, n}, qb}},
                    qout = {BYOC_INT32, 2, {n, n}, qc};
        q_params(qin);
        double gf, gq;
        time_pair(fcall, fin, 2, &fout, qcall, qin, 6, &qout, 2.0 * n * n * n, &gf, &gq);
        printf("| %d | %.1f | %.1f | %.2f |\n", n, gf, gq, gq / gf);
        json_row("{\"bench\": \"int8_gemm\", \"n\": %d, \"float32_gops\": %.2f, \"int8_gops\": %.2f, \"ratio\": %.3f}",
                 n, gf, gq, gq / gf);
        int8_log_sum += log(gq / gf);
        int8_count++;
        free(a);
        free(b);
        free(c);
        free(qa);
        free(qb);
        free(qc);
        byoc_module_destroy(m);
    }
    printf("\n");
}
static void bench_qconv(void) {
    /* SqueezeNet 1.1 (squeezenet_rand of the shared models), MNIST (mnist8) and two ResNet-50 layers */
    static const conv_shape shapes[] = {
        {"squeezenet conv1 3x3/2 3->64 @224", 3, 224, 64, 3, 2, 0},
        {"squeezenet fire2 1x1 64->16 @55", 64, 55, 16, 1, 1, 0},
        {"squeezenet fire2 1x1 16->64 @55", 16, 55, 64, 1, 1, 0},
        {"squeezenet fire2 3x3 16->64 @55", 16, 55, 64, 3, 1, 1},
        {"squeezenet fire4 3x3 32->128 @27", 32, 27, 128, 3, 1, 1},
        {"squeezenet fire9 3x3 64->256 @13", 64, 13, 256, 3, 1, 1},
        {"squeezenet conv10 1x1 512->1000 @13", 512, 13, 1000, 1, 1, 0},
        {"mnist conv2 5x5 8->16 @14", 8, 14, 16, 5, 1, 2},
        {"res2 3x3 64->64 @56", 64, 56, 64, 3, 1, 1},
        {"res4 1x1 256->1024 @14", 256, 14, 1024, 1, 1, 0},
    };
    printf("## int8 conv2d against float32, one thread (GOP/s, medians)\n\n"
           "qnn.conv2d (uint8 data, int8 weight, int32 result) and nn.conv2d (float32), NCHW, batch 1\n\n"
           "| layer | float32 | int8 | int8 / float32 |\n|---|---:|---:|---:|\n");
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        const conv_shape *sh = &shapes[s];
        int OH = (sh->h + 2 * sh->pad - sh->k) / sh->stride + 1, OW = OH;
        byoc_module *m = byoc_module_create(NULL);
        int64_t dims[6][4] = {{1, sh->c, sh->h, sh->h}, {sh->o, sh->c, sh->k, sh->k}};
        int ranks[6] = {4, 4, 0, 0, 0, 0};
        byoc_attrs a;
        memset(&a, 0, sizeof a);
        int64_t st[2] = {sh->stride, sh->stride}, pd[4] = {sh->pad, sh->pad, sh->pad, sh->pad};
        byoc_attrs_set_ints(m, &a, "strides", st, 2);
        byoc_attrs_set_ints(m, &a, "padding", pd, 4);
        byoc_dtype fdt[2] = {BYOC_FLOAT32, BYOC_FLOAT32};
        byoc_node *fcall = bench_call(m, "nn.conv2d", 2, fdt, ranks, dims, &a);
        byoc_node *qcall = bench_call(m, "qnn.conv2d", 6, q_dtypes, ranks, dims, &a);
        size_t xn = (size_t)sh->c * sh->h * sh->h, wn = (size_t)sh->o * sh->c * sh->k * sh->k,
               yn = (size_t)sh->o * OH * OW;
        float *x = filled(xn, 3), *w = filled(wn, 4), *y = (float *)malloc(yn * 4);
        void *qx = bytes_filled(xn, 5), *qw = bytes_filled(wn, 6), *qy = malloc(yn * 4);
        byoc_tensor fin[2] = {{BYOC_FLOAT32, 4, {1, sh->c, sh->h, sh->h}, x},
                              {BYOC_FLOAT32, 4, {sh->o, sh->c, sh->k, sh->k}, w}};
        byoc_tensor fout = {BYOC_FLOAT32, 4, {1, sh->o, OH, OW}, y};
        byoc_tensor qin[6] = {{BYOC_UINT8, 4, {1, sh->c, sh->h, sh->h}, qx},
                              {BYOC_INT8, 4, {sh->o, sh->c, sh->k, sh->k}, qw}};
        byoc_tensor qout = {BYOC_INT32, 4, {1, sh->o, OH, OW}, qy};
        q_params(qin);
        double gf, gq, ops = 2.0 * (double)yn * (double)sh->c * sh->k * sh->k;
        time_pair(fcall, fin, 2, &fout, qcall, qin, 6, &qout, ops, &gf, &gq);
        printf("| %s | %.1f | %.1f | %.2f |\n", sh->name, gf, gq, gq / gf);
        json_row("{\"bench\": \"int8_conv2d\", \"layer\": \"%s\", \"float32_gops\": %.2f, \"int8_gops\": %.2f, "
                 "\"ratio\": %.3f}",
                 sh->name, gf, gq, gq / gf);
        int8_log_sum += log(gq / gf);
        int8_count++;
        free(x);
        free(w);
        free(y);
        free(qx);
        free(qw);
        free(qy);
        byoc_module_destroy(m);
    }
    printf("\nint8 / float32 geometric mean over the GEMM sizes and conv layers: %.2f\n\n",
           exp(int8_log_sum / int8_count));
    json_row("{\"bench\": \"int8_geomean\", \"ratio\": %.3f}", exp(int8_log_sum / int8_count));
}

int main(int argc, char **argv) {
    int args = tool_args(argc, argv, "bench_kernels [OUT.json]   (markdown tables; the rows as JSON to OUT.json)");
    if (args >= 0) return args;
    openblas_set_num_threads(1);
    if (argc > 1 && !(json = fopen(argv[1], "w"))) { fprintf(stderr, "bench_kernels: cannot write %s\n", argv[1]); return 2; }
    if (json) fprintf(json, "[");
    bench_sgemm();
    bench_conv();
    bench_qgemm();
    bench_qconv();
    if (json) { fprintf(json, "\n]\n"); fclose(json); }
    return 0;
}
