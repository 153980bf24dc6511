/* The host kernels' threads (byoc_sim.h "sim: threads", byoc.h byoc_parallel): the pool runs every task once,
   nested and concurrent calls are safe, an embedding program's own parallel_for is used, pools shut down
   cleanly, and kernels split by output give the same bytes at 1, 2, 3 and 7 threads (GEMM, convolutions,
   Winograd convolutions, depthwise convolutions, pooling, dense, fused elementwise tiles, narrow convolutions split
   by output channels, short softmax rows, depth_to_space) on odd shapes; a program's runs keep the pool's workers watching. */
/* links the library compiled once (tests/lib/byoc_impl.c) */
#include "../byoc_sim.h"
#include "test.h"

#include <stdlib.h>

/* ---- the pool ---- */
typedef struct count_job {
    int *hits;
    byoc_parallel *par;
    int64_t inner;
} count_job;
static void count_task(void *ctx, int64_t i) { ((count_job *)ctx)->hits[i]++; }

static void test_pool_covers_every_index_once(void) {
    static const int threads[4] = {1, 2, 3, 7};
    static const int64_t sizes[6] = {0, 1, 2, 3, 17, 1000};
    int hits[1000];
    for (int t = 0; t < 4; ++t) {
        byoc_sim_pool *pool = byoc_sim_pool_create(threads[t], NULL, NULL);
        CHECK(pool && byoc_sim_pool_threads(pool) == threads[t]);
        byoc_parallel par = byoc_sim_pool_parallel(pool);
        CHECK(par.parallel_for && par.threads == threads[t]);
        for (int s = 0; s < 6; ++s)
            for (int rep = 0; rep < 20; ++rep) { /* repeated jobs: a worker must tell a new job from the last */
                count_job job = {hits, &par, 0};
                memset(hits, 0, sizeof hits);
                par.parallel_for(sizes[s], count_task, &job, par.user);
                for (int64_t i = 0; i < sizes[s]; ++i)
                    CHECKF(hits[i] == 1, "%d threads, %lld tasks: task %lld ran %d times", threads[t],
                           (long long)sizes[s], (long long)i, hits[i]);
            }
        byoc_sim_pool_destroy(pool);
    }
}

/* a task that calls parallel_for again on the same pool: it must run (inline) and cover its indices */
static void nested_task(void *ctx, int64_t i) {
    count_job *job = (count_job *)ctx;
    count_job inner = {job->hits + (size_t)(i * job->inner), NULL, 0};
    job->par->parallel_for(job->inner, count_task, &inner, job->par->user);
}
static void test_pool_nested_calls(void) {
    byoc_sim_pool *pool = byoc_sim_pool_create(3, NULL, NULL);
    CHECK(pool);
    byoc_parallel par = byoc_sim_pool_parallel(pool);
    int hits[8 * 13];
    memset(hits, 0, sizeof hits);
    count_job job = {hits, &par, 13};
    par.parallel_for(8, nested_task, &job, par.user);
    byoc_sim_pool_destroy(pool);
    for (int i = 0; i < 8 * 13; ++i) CHECKF(hits[i] == 1, "nested index %d ran %d times", i, hits[i]);
}

static void test_pool_create_destroy_and_bad_counts(void) {
    for (int i = 0; i < 50; ++i) { /* workers that never got a job stop and join */
        byoc_sim_pool *pool = byoc_sim_pool_create(1 + i % 4, NULL, NULL);
        CHECK(pool);
        byoc_sim_pool_destroy(pool);
    }
    byoc_diag d;
    memset(&d, 0, sizeof d);
    CHECK(byoc_sim_pool_create(0, NULL, &d) == NULL);
    CHECK(d.code == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "0 threads");
    CHECK(byoc_sim_pool_threads(NULL) == 0);
    byoc_parallel none = byoc_sim_pool_parallel(NULL);
    CHECK(none.parallel_for == NULL && none.threads == 0);
    byoc_sim_pool_destroy(NULL);
    CHECK(byoc_sim_online_cores() >= 1);
}

/* Jobs back to back (a worker still watching for the next one, "waiting: a bounded spin"), jobs after a pause
   longer than the spin (the workers asleep), jobs whose last task is slow (a worker that takes it is late, and
   the next jobs run on the caller alone: "waiting for late workers"), and pools destroyed right after a job,
   while their workers spin: every task runs once per job and every destroy returns. */
static void busy_work(int rounds) {
    volatile unsigned sink = 0;
    for (int i = 0; i < rounds; ++i) sink = sink * 1664525u + 1013904223u;
}
static void count_task_last_slow(void *ctx, int64_t i) {
    count_job *job = (count_job *)ctx;
    if (i == job->inner - 1) busy_work(300000);
    job->hits[i]++;
}
static void test_pool_back_to_back_jobs_and_destroy_while_spinning(void) {
    int hits[64];
    for (int threads = 2; threads <= 3; ++threads) {
        byoc_sim_pool *pool = byoc_sim_pool_create(threads, NULL, NULL);
        CHECK(pool);
        byoc_parallel par = byoc_sim_pool_parallel(pool);
        int bad = 0;
        for (int job_no = 0; job_no < 3000; ++job_no) {
            int64_t n = 2 + job_no % 7;
            count_job job = {hits, &par, n};
            memset(hits, 0, sizeof hits);
            par.parallel_for(n, job_no % 50 < 5 ? count_task_last_slow : count_task, &job, par.user);
            for (int64_t i = 0; i < n; ++i) bad += hits[i] != 1;
            if (job_no % 500 == 499) busy_work(2000000); /* some milliseconds: past any spin */
        }
        CHECKF(bad == 0, "%d threads: %d tasks did not run exactly once", threads, bad);
        byoc_sim_pool_destroy(pool);
    }
    for (int i = 0; i < 100; ++i) {
        byoc_sim_pool *pool = byoc_sim_pool_create(2 + i % 2, NULL, NULL);
        CHECK(pool);
        byoc_parallel par = byoc_sim_pool_parallel(pool);
        count_job job = {hits, &par, 0};
        memset(hits, 0, sizeof hits);
        par.parallel_for(5, count_task, &job, par.user);
        byoc_sim_pool_destroy(pool); /* its workers are most likely still watching for a job */
        CHECK(hits[0] == 1 && hits[4] == 1);
    }
}

/* ---- kernels: the same bytes at every thread count ---- */
static void fill(float *x, size_t n, unsigned seed) {
    unsigned s = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        x[i] = (float)((int)(s >> 9) % 2001 - 1000) / 997.0f;
    }
}

/* An embedding program's own pool: runs the tasks in reverse order, on this thread, and counts its calls. */
typedef struct user_pool {
    int calls;
    int64_t tasks;
} user_pool;
static void user_parallel_for(int64_t n, byoc_parallel_task task, void *ctx, void *user) {
    user_pool *u = (user_pool *)user;
    u->calls++;
    u->tasks += n;
    for (int64_t i = n - 1; i >= 0; --i) task(ctx, i);
}

/* Odd shapes on purpose: channels, pixels and units that no tile size divides. */
static const char *const kernels_model =
    "def @main(%x: Tensor[(2, 13, 37, 41), float32], %w: Tensor[(29, 13, 3, 3), float32], %b: Tensor[(29), float32],\n"
    "          %dw: Tensor[(29, 1, 5, 5), float32], %pw: Tensor[(19, 29, 1, 1), float32],\n"
    "          %fc: Tensor[(23, 3190), float32], %y: Tensor[(2, 29, 37, 41), float32]) {\n"
    "  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]);\n"
    "  %1 = nn.bias_add(%0, %b);\n"
    "  %2 = nn.relu(%1);\n"
    "  %3 = multiply(%2, %y);\n"
    "  %4 = add(%3, %y);\n"
    "  %5 = nn.conv2d(%4, %dw, strides=[2, 2], padding=[2, 2, 2, 2], groups=29);\n"
    "  %6 = nn.max_pool2d(%5, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]);\n"
    "  %7 = nn.avg_pool2d(%4, pool_size=[3, 3], strides=[1, 1], padding=[1, 1, 1, 1], count_include_pad=True);\n"
    "  %8 = nn.conv2d(%7, %pw);\n"
    "  %9 = reshape(%6, newshape=[2, -1]);\n"
    "  %10 = nn.dense(%9, %fc);\n"
    "  (%10, %8, %6)\n"
    "}\n";

/* data movement split over threads (byoc.h "small models"): a concatenation along channels, a channel shuffle,
   an NCHW -> NHWC transpose */
static const char *const copies_model =
    "def @main(%x: Tensor[(1, 64, 55, 57), float32], %y: Tensor[(1, 48, 55, 57), float32]) {\n"
    "  %0 = concatenate((%x, %y), axis=1);\n"
    "  %1 = reshape(%0, newshape=[1, 4, 28, 55, 57]);\n"
    "  %2 = transpose(%1, axes=[0, 2, 1, 3, 4]);\n"
    "  %3 = transpose(%x, axes=[0, 2, 3, 1]);\n"
    "  (%2, %3)\n"
    "}\n";

/* every input filled, the program lowered with options o and run once; its outputs' bytes appended to out */
static int run_model(const char *text, const byoc_sim_options *o, unsigned char **out, size_t *nout, char *why,
                     size_t cap) {
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, strlen(text), "threads.relay", NULL, &d);
    if (!m || byoc_fold_constant(m, &d) != BYOC_OK || byoc_fuse_ops(m, 256, &d) != BYOC_OK) {
        snprintf(why, cap, "parse/fuse: %s", d.message);
        byoc_module_destroy(m);
        return 0;
    }
    byoc_sim_program *p = byoc_sim_lower(m, o, &d);
    int ok = p != NULL;
    byoc_tensor in[8], res[3];
    float *data[8] = {0};
    int nin = p ? byoc_sim_input_count(p) : 0;
    for (int i = 0; ok && i < nin; ++i) {
        const byoc_sim_io *io = byoc_sim_input(p, i);
        memset(&in[i], 0, sizeof in[i]);
        in[i].dtype = io->dtype;
        in[i].rank = io->rank;
        memcpy(in[i].dims, io->dims, sizeof io->dims);
        ok = (data[i] = (float *)malloc(io->nbytes + sizeof(float))) != NULL;
        if (ok) fill(data[i], io->nbytes / sizeof(float) + 1, (unsigned)i + 1); /* 8-bit data: any bytes */
        in[i].data = data[i];
    }
    int nres = p ? byoc_sim_output_count(p) : 0;
    ok = ok && nres <= 3 && byoc_sim_run(p, in, nin, res, nres, &d) == BYOC_OK;
    if (!ok) snprintf(why, cap, "lower/run: %s", d.message);
    *nout = 0;
    for (int r = 0; ok && r < nres; ++r) *nout += byoc_sim_output(p, r)->nbytes;
    *out = ok ? (unsigned char *)malloc(*nout) : NULL;
    size_t at = 0;
    for (int r = 0; ok && *out && r < nres; ++r) {
        memcpy(*out + at, res[r].data, byoc_sim_output(p, r)->nbytes);
        at += byoc_sim_output(p, r)->nbytes;
    }
    for (int i = 0; i < 8; ++i) free(data[i]);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
    return ok && *out;
}

/* a fused qnn.conv2d + bias + requantize group (byoc_sim.h runs it as one int8 kernel with its epilogue) */
static const char *const quantized_model =
    "def @main(%x: Tensor[(1, 21, 45, 43), uint8], %w: Tensor[(35, 21, 3, 3), int8], %b: Tensor[(35), int32]) {\n"
    "  %0 = qnn.conv2d(%x, %w, 3, 0, 0.05f, 0.02f, padding=[1, 1, 1, 1], channels=35, kernel_size=[3, 3]);\n"
    "  %1 = nn.bias_add(%0, %b);\n"
    "  qnn.requantize(%1, 0.001f, 0, 0.07f, 5, out_dtype=\"uint8\")\n"
    "}\n";

/* an int8 network's kernels (byoc.h "int8 convolutions over threads"): a per-tensor quantize, a fused 3x3 layer,
   a fused depthwise layer, the concatenation of both at different scales (looked up by ranges of 64-byte lines),
   8-bit max pools, a fused 1000-channel layer on 182 pixels (ranges of output channels) and a global average */
static const char *const int8_network_model =
    "def @main(%x: Tensor[(1, 8, 57, 55), float32], %w1: Tensor[(48, 8, 3, 3), int8], %b1: Tensor[(48), int32],\n"
    "          %wd: Tensor[(48, 1, 3, 3), int8], %w2: Tensor[(1000, 96, 1, 1), int8]) {\n"
    "  %0 = qnn.quantize(%x, 0.05f, 3, out_dtype=\"uint8\");\n"
    "  %1 = qnn.conv2d(%0, %w1, 3, 0, 0.05f, 0.02f, padding=[1, 1, 1, 1], channels=48, kernel_size=[3, 3]);\n"
    "  %2 = qnn.requantize(nn.bias_add(%1, %b1), 0.001f, 0, 0.07f, 5, out_dtype=\"uint8\");\n"
    "  %3 = qnn.conv2d(%2, %wd, 5, 0, 0.07f, 0.03f, padding=[1, 1, 1, 1], groups=48, channels=48,\n"
    "                  kernel_size=[3, 3]);\n"
    "  %4 = qnn.requantize(%3, 0.0021f, 0, 0.09f, 2, out_dtype=\"uint8\");\n"
    "  %5 = qnn.concatenate((%2, %4), (0.07f, 0.09f), (5, 2), 0.08f, 4, axis=1);\n"
    "  %6 = nn.max_pool2d(%5, pool_size=[3, 3], strides=[2, 2]);\n"
    "  %7 = nn.max_pool2d(%6, pool_size=[2, 2], strides=[2, 2]);\n"
    "  %8 = qnn.conv2d(%7, %w2, 4, 0, 0.08f, 0.01f, channels=1000, kernel_size=[1, 1]);\n"
    "  %9 = qnn.requantize(%8, 0.0008f, 0, 0.1f, 0, out_dtype=\"uint8\");\n"
    "  %10 = qnn.global_avg_pool2d(%9, 0.1f, 0, 0.05f, 0);\n"
    "  (%10, %5)\n"
    "}\n";

/* Winograd F(4x4, 3x3) convolutions (constant weights, folded from sin(arange) at load): one with the bias and ReLU
   its output transform applies, one alone; blocks of tiles over the threads */
static const char *const winograd_model =
    "def @main(%x: Tensor[(2, 19, 37, 41), float32]) {\n"
    "  %0 = reshape(sin(arange(0f, 6498f, 1f)), newshape=[38, 19, 3, 3]);\n"
    "  %1 = nn.conv2d(%x, %0, padding=[1, 1, 1, 1]);\n"
    "  %2 = nn.relu(nn.bias_add(%1, cos(arange(0f, 38f, 1f))));\n"
    "  %3 = reshape(cos(arange(0f, 5814f, 1f)), newshape=[17, 38, 3, 3]);\n"
    "  %4 = nn.conv2d(%2, %3, padding=[0, 2, 1, 0]);\n"
    "  (%4, %2)\n"
    "}\n";

/* ultraface's RFB branches: Winograd on a 30x40 map of few channels (80 tiles), blocks of tiles sized so that the
   threads' shares are even ("ultraface's small convolutions over threads"), then 12 -> 16 channels */
static const char *const winograd_few_channels_model =
    "def @main(%x: Tensor[(1, 8, 30, 40), float32]) {\n"
    "  %0 = reshape(sin(arange(0f, 864f, 1f)), newshape=[12, 8, 3, 3]);\n"
    "  %1 = nn.relu(nn.bias_add(nn.conv2d(%x, %0, padding=[1, 1, 1, 1]), cos(arange(0f, 12f, 1f))));\n"
    "  %2 = reshape(cos(arange(0f, 1728f, 1f)), newshape=[16, 12, 3, 3]);\n"
    "  %3 = nn.bias_add(nn.conv2d(%1, %2, padding=[1, 1, 1, 1]), sin(arange(0f, 16f, 1f)));\n"
    "  (%3, %1)\n"
    "}\n";

/* fused convolutions with packed constant weights on a map of 80 pixels: 256 and 67 output channels split by
   ranges of the micro-kernel's rows (byoc.h "narrow convolutions over threads"), one 1x1 with a bias and ReLU, one
   3x3 dilated (not Winograd) with a bias, a residual and ReLU; then a softmax over rows of 2 */
static const char *const narrow_model =
    "def @main(%x: Tensor[(1, 64, 8, 10), float32], %y: Tensor[(1, 67, 8, 10), float32]) {\n"
    "  %0 = reshape(sin(arange(0f, 16384f, 1f)), newshape=[256, 64, 1, 1]);\n"
    "  %1 = nn.conv2d(%x, %0);\n"
    "  %2 = nn.relu(nn.bias_add(%1, cos(arange(0f, 256f, 1f))));\n"
    "  %3 = reshape(cos(arange(0f, 154368f, 1f)), newshape=[67, 256, 3, 3]);\n"
    "  %4 = nn.conv2d(%2, %3, padding=[2, 2, 2, 2], dilation=[2, 2]);\n"
    "  %5 = nn.relu(add(nn.bias_add(%4, sin(arange(0f, 67f, 1f))), %y));\n"
    "  (%5, nn.softmax(reshape(%5, newshape=[2680, 2])))\n"
    "}\n";

/* squeezenet's fire modules: pointwise expansions (32 -> 128 channels at 27x27, 48 -> 192 at 13x13) split by ranges
   of output channels (byoc.h "pointwise expansions over threads"), each beside a 3x3 convolution, both written
   straight into their slice of the concatenation */
static const char *const expansion_model =
    "def @main(%x: Tensor[(1, 32, 27, 27), float32], %y: Tensor[(1, 48, 13, 13), float32]) {\n"
    "  %0 = nn.conv2d(%x, reshape(sin(arange(0f, 4096f, 1f)), newshape=[128, 32, 1, 1]));\n"
    "  %1 = nn.relu(nn.bias_add(%0, cos(arange(0f, 128f, 1f))));\n"
    "  %2 = nn.conv2d(%x, reshape(cos(arange(0f, 36864f, 1f)), newshape=[128, 32, 3, 3]), padding=[1, 1, 1, 1]);\n"
    "  %3 = nn.relu(nn.bias_add(%2, sin(arange(0f, 128f, 1f))));\n"
    "  %4 = nn.conv2d(%y, reshape(sin(arange(0f, 9216f, 1f)), newshape=[192, 48, 1, 1]));\n"
    "  %5 = nn.relu(nn.bias_add(%4, cos(arange(0f, 192f, 1f))));\n"
    "  %6 = nn.conv2d(%y, reshape(cos(arange(0f, 82944f, 1f)), newshape=[192, 48, 3, 3]), padding=[1, 1, 1, 1]);\n"
    "  %7 = nn.relu(nn.bias_add(%6, sin(arange(0f, 192f, 1f))));\n"
    "  (concatenate((%1, %3), axis=1), concatenate((%5, %7), axis=1))\n"
    "}\n";

/* first layers of 3 channels (byoc.h "few-channel convolutions"): 3x3 stride 2 to 24 channels (3 blocks of 8, 8
   chunks of rows: split by rows) with its bias and ReLU in registers; 5x5 to 16 channels (2 blocks) with a
   residual added after the bias; 3x3 stride 2 to 32 channels on 4 output rows (one chunk: split by its 4 blocks) */
static const char *const few_channels_model =
    "def @main(%x: Tensor[(1, 3, 61, 75), float32], %y: Tensor[(1, 16, 57, 71), float32],\n"
    "          %z: Tensor[(1, 3, 8, 103), float32]) {\n"
    "  %0 = reshape(sin(arange(0f, 648f, 1f)), newshape=[24, 3, 3, 3]);\n"
    "  %1 = nn.conv2d(%x, %0, strides=[2, 2], padding=[1, 1, 1, 1]);\n"
    "  %2 = nn.relu(nn.bias_add(%1, cos(arange(0f, 24f, 1f))));\n"
    "  %3 = reshape(cos(arange(0f, 1200f, 1f)), newshape=[16, 3, 5, 5]);\n"
    "  %4 = nn.relu(add(nn.bias_add(nn.conv2d(%x, %3), sin(arange(0f, 16f, 1f))), %y));\n"
    "  %5 = reshape(sin(arange(0f, 432f, 0.5f)), newshape=[32, 3, 3, 3]);\n"
    "  %6 = nn.relu(nn.bias_add(nn.conv2d(%z, %5, strides=[2, 2], padding=[1, 1, 1, 1]), cos(arange(0f, 32f, 1f))));\n"
    "  (%2, %4, %6)\n"
    "}\n";

/* ultraface's box decoding, one OPS kernel of injective ops: NCHW -> NHWC transposes reshaped to rows of 4 and
   concatenated along the rows, slices of the last axis, elementwise ops (scalars, same-shape operands, exp) written
   in place, concatenations along the last axis; run in phases of row ranges over the threads ("sim impl: ops
   kernels over threads") */
static const char *const box_decoding_model =
    "def @main(%a: Tensor[(1, 12, 30, 41), float32], %b: Tensor[(1, 8, 15, 21), float32],\n"
    "          %p: Tensor[(1, 4320, 2), float32]) {\n"
    "  %0 = reshape(transpose(%a, axes=[0, 2, 3, 1]), newshape=[1, 3690, 4]);\n"
    "  %1 = reshape(transpose(%b, axes=[0, 2, 3, 1]), newshape=[1, 630, 4]);\n"
    "  %2 = concatenate((%0, %1), axis=1);\n"
    "  %3 = strided_slice(%2, begin=[0, 0, 0], end=[1, 4320, 2], strides=[1, 1, 1]);\n"
    "  %4 = add(multiply(multiply(%3, 0.1f), %p), %p);\n"
    "  %5 = strided_slice(%2, begin=[0, 0, 2], end=[1, 4320, 4], strides=[1, 1, 1]);\n"
    "  %6 = multiply(exp(multiply(%5, 0.2f)), %p);\n"
    "  %7 = concatenate((%4, %6), axis=2);\n"
    "  %8 = strided_slice(%7, begin=[0, 0, 0], end=[1, 4320, 2], strides=[1, 1, 1]);\n"
    "  %9 = strided_slice(%7, begin=[0, 0, 2], end=[1, 4320, 4], strides=[1, 1, 1]);\n"
    "  %10 = subtract(%8, divide(%9, 2f));\n"
    "  %11 = add(%8, divide(%9, 2f));\n"
    "  (concatenate((%10, %11), axis=2), sigmoid(%3))\n"
    "}\n";

/* side_by_side: lowered with byoc_sim_options.side_by_side at every count */
static void check_program_threads(const char *text, int side_by_side, char *why, size_t cap, int *ok) {
    unsigned char *serial = NULL, *other = NULL;
    size_t n1 = 0, n2 = 0;
    byoc_sim_options o;
    memset(&o, 0, sizeof o);
    o.side_by_side = side_by_side;
    *ok = 0;
    if (!run_model(text, &o, &serial, &n1, why, cap)) return;
    static const int threads[3] = {2, 3, 7};
    int same = 1;
    for (int t = 0; same && t < 3; ++t) {
        o.threads = threads[t];
        char sub[500];
        if (!run_model(text, &o, &other, &n2, sub, sizeof sub)) {
            snprintf(why, cap, "%d threads: %s", threads[t], sub);
            free(serial);
            return;
        }
        same = n1 == n2 && !memcmp(serial, other, n1);
        free(other);
        if (!same) {
            snprintf(why, cap, "%d threads: the outputs differ from one thread's", threads[t]);
            free(serial);
            return;
        }
    }
    /* the embedding program's own pool, running tasks backwards */
    user_pool u = {0, 0};
    byoc_parallel mine = {user_parallel_for, &u, 4};
    o.threads = 0;
    o.parallel = &mine;
    int ran = run_model(text, &o, &other, &n2, why, cap);
    same = ran && n1 == n2 && !memcmp(serial, other, n1);
    free(other);
    free(serial);
    if (!ran) return;
    if (!same) snprintf(why, cap, "the user's pool: the outputs differ from one thread's");
    else if (u.calls < 1 || u.tasks < 2 * u.calls)
        snprintf(why, cap, "the user's parallel_for ran %d times, %lld tasks", u.calls, (long long)u.tasks);
    *ok = same && u.calls >= 1 && u.tasks >= 2 * u.calls;
}

static void test_programs_same_bytes_at_every_thread_count(void) {
    const struct { const char *text, *name; } programs[] = {
        {kernels_model, "float model"},
        {quantized_model, "quantized model"},
        {int8_network_model, "int8 network model"},
        {copies_model, "copies model"},
        {winograd_model, "Winograd model"},
        {winograd_few_channels_model, "Winograd model of few channels"},
        {narrow_model, "narrow convolutions model"},
        {expansion_model, "pointwise expansions model"},
        {few_channels_model, "few-channel convolutions model"},
        {box_decoding_model, "box decoding model"},
    };
    for (size_t k = 0; k < sizeof programs / sizeof programs[0]; ++k) {
        char why[600] = "";
        int ok = 0;
        check_program_threads(programs[k].text, 0, why, sizeof why, &ok);
        CHECKF(ok, "%s: %s", programs[k].name, why);
    }
}

/* the pool's parallel_for, counting the tasks it was given (so a test knows the kernel did split) */
typedef struct counting_pool {
    byoc_parallel inner;
    int64_t split_tasks;
} counting_pool;
static void counting_parallel_for(int64_t n, byoc_parallel_task task, void *ctx, void *user) {
    counting_pool *c = (counting_pool *)user;
    if (n > 1) c->split_tasks += n;
    c->inner.parallel_for(n, task, ctx, c->inner.user);
}

/* one op through byoc_kernel_run_parallel at 1, 2, 3, 7 threads: the same bytes, and split at 2 and more (or, with
   !expect_split, never split: a kernel under its grain) */
static void check_kernel_threads(const char *text, int expect_split, char *why, size_t cap, int *ok) {
    byoc_diag d;
    *ok = 0;
    byoc_module *m = byoc_module_parse(text, strlen(text), "kernel.relay", NULL, &d);
    if (!m || byoc_infer_type(m, &d) != BYOC_OK) {
        snprintf(why, cap, "%s", d.message);
        byoc_module_destroy(m);
        return;
    }
    byoc_node *fn = byoc_module_function(m, "main"), *call = fn->body;
    byoc_tensor in[8], out, ref;
    memset(in, 0, sizeof in);
    float *bufs[8] = {0};
    for (int i = 0; i < call->nargs && i < 8; ++i) { /* parameters get values, constants (qnn's) keep theirs */
        const byoc_node *arg = call->args[i];
        const byoc_type *t = arg->checked_type;
        size_t n = 1;
        in[i].dtype = t->dtype;
        in[i].rank = t->rank;
        for (int j = 0; j < t->rank; ++j) n *= (size_t)(in[i].dims[j] = t->dims[j]);
        if (arg->kind == BYOC_NODE_CONSTANT) {
            in[i].data = arg->data;
            continue;
        }
        bufs[i] = (float *)malloc(n * sizeof(float));
        fill(bufs[i], n, (unsigned)(i + 7));
        in[i].data = bufs[i];
    }
    const byoc_type *ot = call->checked_type;
    size_t on = 1;
    memset(&out, 0, sizeof out);
    out.dtype = ot->dtype;
    out.rank = ot->rank;
    for (int j = 0; j < ot->rank; ++j) on *= (size_t)(out.dims[j] = ot->dims[j]);
    ref = out;
    ref.data = malloc(on * sizeof(float));
    out.data = malloc(on * sizeof(float));
    int good = byoc_kernel_run(call, in, call->nargs, &ref, 1, NULL, &d) == BYOC_OK;
    static const int threads[4] = {1, 2, 3, 7};
    for (int t = 0; good && t < 4; ++t) {
        byoc_sim_pool *pool = byoc_sim_pool_create(threads[t], NULL, NULL);
        counting_pool counted = {byoc_sim_pool_parallel(pool), 0};
        byoc_parallel par = {counting_parallel_for, &counted, threads[t]};
        size_t ws_bytes = byoc_kernel_workspace_size_parallel(call, threads[t]);
        void *ws = malloc(ws_bytes ? ws_bytes : 1);
        memset(out.data, 0xA5, on * sizeof(float)); /* every output element must be written */
        good = byoc_kernel_run_parallel(call, in, call->nargs, &out, 1, ws, &par, &d) == BYOC_OK;
        if (good && memcmp(out.data, ref.data, on * byoc_dtype_size(out.dtype))) {
            snprintf(why, cap, "%s: %d threads differ from one", call->op->def.name, threads[t]);
            good = 0;
            d.message[0] = 0;
        } else if (good && threads[t] > 1 && expect_split && counted.split_tasks < 2) {
            snprintf(why, cap, "%s: %d threads, but the kernel did not split", call->op->def.name, threads[t]);
            good = 0;
            d.message[0] = 0;
        } else if (good && !expect_split && counted.split_tasks) {
            snprintf(why, cap, "%s: %d threads, split into %lld tasks under its grain", call->op->def.name,
                     threads[t], (long long)counted.split_tasks);
            good = 0;
            d.message[0] = 0;
        }
        free(ws);
        byoc_sim_pool_destroy(pool);
    }
    if (!good && d.message[0]) snprintf(why, cap, "%s", d.message);
    *ok = good;
    for (int i = 0; i < 8; ++i) free(bufs[i]);
    free(ref.data);
    free(out.data);
    byoc_module_destroy(m);
}

static void test_kernels_same_bytes_at_1_2_3_7_threads(void) {
    static const char *const cases[] = {
        /* the packed GEMM split by columns (conv through im2col, patch rows split too) */
        "def @main(%x: Tensor[(1, 7, 61, 53), float32], %w: Tensor[(37, 7, 3, 3), float32]) {\n"
        "  nn.conv2d(%x, %w, strides=[2, 1], padding=[1, 2, 1, 0], dilation=[1, 2]) }\n",
        /* grouped, pointwise (no im2col) */
        "def @main(%x: Tensor[(2, 128, 41, 43), float32], %w: Tensor[(62, 64, 1, 1), float32]) {\n"
        "  nn.conv2d(%x, %w, groups=2) }\n",
        /* small convolutions: blocks of 4 output channels over the threads (byoc.h "small convolutions") */
        "def @main(%x: Tensor[(2, 16, 30, 30), float32], %w: Tensor[(14, 16, 3, 3), float32]) {\n"
        "  nn.conv2d(%x, %w, padding=[1, 1, 1, 1]) }\n",
        "def @main(%x: Tensor[(1, 32, 31, 31), float32], %w: Tensor[(12, 16, 5, 5), float32]) {\n"
        "  nn.conv2d(%x, %w, strides=[2, 2], padding=[2, 2, 2, 2], groups=2) }\n",
        /* ultraface's heads: 0.28 M multiply-adds on a 4x5 map, split by their own grain */
        "def @main(%x: Tensor[(1, 256, 4, 5), float32], %w: Tensor[(6, 256, 3, 3), float32]) {\n"
        "  nn.conv2d(%x, %w, padding=[1, 1, 1, 1]) }\n",
        /* ultraface's 12-channel box head: 3 blocks of 4 channels that 2 threads would share 2 to 1, so each block
           is cut into ranges of output rows ("ultraface's small heads over threads") */
        "def @main(%x: Tensor[(1, 256, 4, 5), float32], %w: Tensor[(12, 256, 3, 3), float32]) {\n"
        "  nn.conv2d(%x, %w, padding=[1, 1, 1, 1]) }\n",
        /* rows of whole vectors (stored straight into the output), strided, 2 blocks: rows at 3 and 7 threads */
        "def @main(%x: Tensor[(1, 96, 15, 33), float32], %w: Tensor[(7, 96, 3, 3), float32]) {\n"
        "  nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 0, 1, 0]) }\n",
        /* a 1x1 layer of 0.6 M multiply-adds (64 channels to 8 on 30x40): over the GEMM's grain of 2^18 */
        "def @main(%x: Tensor[(1, 64, 30, 40), float32], %w: Tensor[(8, 64, 1, 1), float32]) {\n"
        "  nn.conv2d(%x, %w) }\n",
        /* a first layer of 4 channels, 7x7 stride 2, padded unevenly: 3 blocks of 8 channels, chunks of rows */
        "def @main(%x: Tensor[(2, 4, 45, 67), float32], %w: Tensor[(20, 4, 7, 7), float32]) {\n"
        "  nn.conv2d(%x, %w, strides=[2, 2], padding=[3, 3, 2, 1]) }\n",
        /* depthwise planes */
        "def @main(%x: Tensor[(1, 33, 47, 45), float32], %w: Tensor[(33, 1, 3, 3), float32]) {\n"
        "  nn.conv2d(%x, %w, padding=[1, 1, 1, 1], groups=33) }\n",
        /* the GEMM split by rows (many rows, few columns), and by columns */
        "def @main(%x: Tensor[(3001, 67), float32], %w: Tensor[(9, 67), float32]) { nn.dense(%x, %w) }\n",
        "def @main(%x: Tensor[(5, 301), float32], %w: Tensor[(1003, 301), float32]) { nn.dense(%x, %w) }\n",
        "def @main(%a: Tensor[(3, 77, 257), float32], %b: Tensor[(3, 257, 95), float32]) {\n"
        "  nn.batch_matmul(%a, %b, transpose_b=False) }\n",
        /* the int8 convolution: blocks of pixels over the threads */
        "def @main(%x: Tensor[(1, 23, 47, 45), uint8], %w: Tensor[(41, 23, 3, 3), int8]) {\n"
        "  qnn.conv2d(%x, %w, 7, 0, 0.05f, 0.02f, padding=[1, 1, 1, 1], channels=41, kernel_size=[3, 3]) }\n",
        /* byoc.h "int8 convolutions over threads": a 1000-channel classifier on 182 pixels (ranges of output
           channels), a map of 3136 pixels in blocks as many for each thread, and depthwise layers by planes */
        "def @main(%x: Tensor[(1, 96, 14, 13), uint8], %w: Tensor[(1000, 96, 1, 1), int8]) {\n"
        "  qnn.conv2d(%x, %w, 4, 0, 0.08f, 0.01f, channels=1000, kernel_size=[1, 1]) }\n",
        "def @main(%x: Tensor[(1, 16, 56, 56), uint8], %w: Tensor[(64, 16, 3, 3), int8]) {\n"
        "  qnn.conv2d(%x, %w, 3, 1, 0.05f, 0.02f, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]) }\n",
        "def @main(%x: Tensor[(1, 48, 57, 55), uint8], %w: Tensor[(48, 1, 3, 3), int8]) {\n"
        "  qnn.conv2d(%x, %w, 5, 0, 0.07f, 0.03f, padding=[1, 1, 1, 1], groups=48, channels=48,\n"
        "             kernel_size=[3, 3]) }\n",
        "def @main(%x: Tensor[(2, 7, 33, 41), int8], %w: Tensor[(14, 1, 3, 3), int8]) {\n"
        "  qnn.conv2d(%x, %w, -3, 0, 0.07f, 0.03f, strides=[2, 2], groups=7, channels=14, kernel_size=[3, 3]) }\n",
        /* 8-bit pools and the per-tensor quantize ("small kernels over threads"): planes, planes, ranges of 64 */
        "def @main(%x: Tensor[(1, 96, 55, 57), uint8]) { nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2]) }\n",
        "def @main(%x: Tensor[(2, 19, 57, 43), int8]) {\n"
        "  nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]) }\n",
        "def @main(%x: Tensor[(1, 1000, 14, 13), uint8]) { qnn.global_avg_pool2d(%x, 0.1f, 3, 0.05f, 1) }\n",
        "def @main(%x: Tensor[(1, 8, 57, 55), float32]) { qnn.quantize(%x, 0.05f, 3, out_dtype=\"uint8\") }\n",
        /* the int8 GEMM: blocks of columns, a per-column zero point sliced with them */
        "def @main(%x: Tensor[(37, 301), int8], %w: Tensor[(301, 203), uint8], %wz: Tensor[(203), uint8]) {\n"
        "  qnn.matmul(%x, %w, 1, %wz, 0.5f, 0.25f) }\n",
        /* softmax rows over the threads: short rows (blocks of rows per exponential call) and long ones */
        "def @main(%x: Tensor[(10001, 7), float32]) { nn.softmax(%x) }\n",
        "def @main(%x: Tensor[(1, 4421, 2), float32]) { nn.softmax(%x) }\n", /* ultraface's scores */
        "def @main(%x: Tensor[(3, 233, 101), float32]) { nn.log_softmax(%x) }\n",
        /* depth_to_space (super_resolution's last op): rows of 3 planes interleaved, ranges of rows per thread */
        "def @main(%x: Tensor[(1, 9, 101, 90), float32]) { nn.depth_to_space(%x, block_size=3) }\n",
        "def @main(%x: Tensor[(2, 8, 67, 71), float32]) { nn.depth_to_space(%x, block_size=2, mode=\"CRD\") }\n",
        /* a channel shuffle's transpose: ranges of its first axis longer than 1 */
        "def @main(%x: Tensor[(1, 4, 29, 23, 31), float32]) { transpose(%x, axes=[0, 2, 1, 3, 4]) }\n",
        /* byoc.h "small kernels over threads": shufflenet's 14x14 channel shuffle (53 K floats, under 2^15), a GEMV
           by ranges of 16 columns (its classifier; a width no range divides), maps by ranges of 16 floats (a
           sigmoid whose last floats go through the padded vector), and the 7x7 average of 544 planes */
        "def @main(%x: Tensor[(1, 4, 68, 14, 14), float32]) { transpose(%x, axes=[0, 2, 1, 3, 4]) }\n",
        "def @main(%x: Tensor[(1, 544), float32], %w: Tensor[(1000, 544), float32]) { nn.dense(%x, %w) }\n",
        "def @main(%x: Tensor[(1, 97), float32], %w: Tensor[(1403, 97), float32]) { nn.dense(%x, %w) }\n",
        "def @main(%x: Tensor[(1, 136, 28, 28), float32]) { nn.relu(%x) }\n",
        "def @main(%x: Tensor[(3, 5, 1237), float32]) { sigmoid(%x) }\n",
        "def @main(%x: Tensor[(1, 544, 7, 7), float32]) { nn.avg_pool2d(%x, pool_size=[7, 7]) }\n",

        /* pooling planes, wide and narrow outputs */
        "def @main(%x: Tensor[(2, 19, 57, 43), float32]) {\n"
        "  nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1]) }\n",
        "def @main(%x: Tensor[(3, 41, 31, 29), float32]) {\n"
        "  nn.avg_pool2d(%x, pool_size=[2, 3], strides=[1, 2], padding=[0, 1, 1, 1], count_include_pad=False) }\n",
        "def @main(%x: Tensor[(2, 24, 64, 62), float32]) {\n"
        "  nn.max_pool2d(%x, pool_size=[2, 2], strides=[2, 2]) }\n",
        "def @main(%x: Tensor[(2, 24, 65, 62), float32]) {\n"
        "  nn.avg_pool2d(%x, pool_size=[2, 2], strides=[2, 2]) }\n",
        "def @main(%x: Tensor[(1, 200, 13, 13), float32]) {\n"
        "  nn.avg_pool2d(%x, pool_size=[7, 7], strides=[3, 3]) }\n",
        /* max pools by rows ("pooling rows"): 3-wide stride 2 (SqueezeNet's), stride 1 dilated and padded; one image
           with large output planes in bands of output rows ("max pools in bands of rows"), each band from its own
           plane on: SqueezeNet's first pool, and one whose bands' first and last input rows lie in the padding and
           whose dilated windows reach across the bands (the 27x27 outputs stay split by planes) */
        "def @main(%x: Tensor[(1, 20, 55, 55), float32]) {\n"
        "  nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], ceil_mode=True) }\n",
        "def @main(%x: Tensor[(1, 64, 111, 111), float32]) {\n"
        "  nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2]) }\n",
        "def @main(%x: Tensor[(1, 16, 81, 67), float32]) {\n"
        "  nn.max_pool2d(%x, pool_size=[3, 2], strides=[2, 1], dilation=[2, 1], padding=[1, 0, 2, 1]) }\n",
        "def @main(%x: Tensor[(2, 9, 40, 37), float32]) {\n"
        "  nn.max_pool2d(%x, pool_size=[3, 2], dilation=[2, 2], padding=[1, 2, 0, 1]) }\n",
        /* averages over the whole plane (ShuffleNet's last pool), global averages (SqueezeNet's) */
        "def @main(%x: Tensor[(2, 700, 7, 7), float32]) { nn.avg_pool2d(%x, pool_size=[7, 7]) }\n",
        "def @main(%x: Tensor[(1, 1000, 13, 13), float32]) { nn.global_avg_pool2d(%x) }\n",
    };
    char why[600];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        int ok = 0;
        why[0] = 0;
        check_kernel_threads(cases[i], 1, why, sizeof why, &ok);
        CHECKF(ok, "case %d: %s", (int)i, why);
    }
}

/* byoc.h "small kernels over threads": kernels too small to gain from a split stay on one thread */
static void test_small_kernels_stay_on_one_thread(void) {
    static const char *const cases[] = {
        /* an FPN's 3x3 layers of whole vectors: 0.15 M multiply-adds (under the grain with 8 lanes and with 16), each
           task would pad all 8 input planes */
        "def @main(%x: Tensor[(1, 8, 32, 32), float32], %w: Tensor[(2, 8, 3, 3), float32]) {\n"
        "  nn.conv2d(%x, %w, padding=[1, 1, 1, 1]) }\n",
        "def @main(%x: Tensor[(1, 8, 32, 32), float32], %w: Tensor[(8, 8, 3, 3), float32]) {\n"
        "  nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1]) }\n",
        /* under 2^14 floats, 2^14 taps, 2^17 multiply-adds of a GEMV */
        "def @main(%x: Tensor[(1, 16, 31, 33), float32]) { nn.relu(%x) }\n",
        "def @main(%x: Tensor[(1, 4, 32, 8, 15), float32]) { transpose(%x, axes=[0, 2, 1, 3, 4]) }\n",
        "def @main(%x: Tensor[(1, 300, 7, 7), float32]) { nn.avg_pool2d(%x, pool_size=[7, 7]) }\n",
        "def @main(%x: Tensor[(1, 256), float32], %w: Tensor[(500, 256), float32]) { nn.dense(%x, %w) }\n",
    };
    char why[600];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        int ok = 0;
        why[0] = 0;
        check_kernel_threads(cases[i], 0, why, sizeof why, &ok);
        CHECKF(ok, "case %d: %s", (int)i, why);
    }
}

/* ---- kernels side by side (byoc_sim_options.side_by_side) ---- */
/* an RFB block's shape: three branches from one input (a 1x1 convolution; a 3x3 then a dilated 3x3; a 1x1 of the
   same size as the first), their concatenation, and an elementwise kernel on the input beside them */
static const char *const branches_model =
    "def @main(%x: Tensor[(1, 16, 21, 23), float32], %w1: Tensor[(8, 16, 1, 1), float32],\n"
    "          %w2: Tensor[(8, 16, 3, 3), float32], %w3: Tensor[(8, 8, 3, 3), float32],\n"
    "          %w4: Tensor[(8, 16, 1, 1), float32], %b: Tensor[(8), float32]) {\n"
    "  %0 = nn.relu(nn.bias_add(nn.conv2d(%x, %w1), %b));\n"
    "  %1 = nn.relu(nn.bias_add(nn.conv2d(%x, %w2, padding=[1, 1, 1, 1]), %b));\n"
    "  %2 = nn.conv2d(%1, %w3, padding=[2, 2, 2, 2], dilation=[2, 2]);\n"
    "  %3 = nn.relu(nn.bias_add(nn.conv2d(%x, %w4), %b));\n"
    "  %4 = sigmoid(multiply(%x, 0.5f));\n"
    "  (concatenate((%0, %2, %3), axis=1), %4)\n"
    "}\n";

/* No two arena buffers that live at a common slot share a byte, unless one is written over the other (in place) or
   both are parts of one concatenation's storage. */
static int plan_is_sound(const byoc_sim_program *p, char *why, size_t cap) {
    int n = byoc_sim_buffer_count(p);
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
            byoc_sim_buffer_info a = byoc_sim_buffer(p, i), b = byoc_sim_buffer(p, j);
            if (a.kind != BYOC_SIM_BUFFER_ARENA || b.kind != BYOC_SIM_BUFFER_ARENA) continue;
            if (a.last < b.first || b.last < a.first) continue; /* never alive together */
            if (a.offset + a.size <= b.offset || b.offset + b.size <= a.offset) continue;
            if (a.inplace_of == j || b.inplace_of == i || a.slice_of == j || b.slice_of == i ||
                (a.slice_of >= 0 && a.slice_of == b.slice_of))
                continue;
            snprintf(why, cap, "buffers %d (slots %d-%d, bytes %zu+%zu) and %d (slots %d-%d, bytes %zu+%zu) overlap", i,
                     a.first, a.last, a.offset, a.size, j, b.first, b.last, b.offset, b.size);
            return 0;
        }
    return 1;
}

static void test_side_by_side_groups_same_bytes_sound_plan(void) {
    char why[600] = "";
    int ok = 0;
    /* the bytes: side by side as kernels alone, then side by side at 1, 2, 3 and 7 threads and on the user's pool */
    unsigned char *alone = NULL, *together = NULL;
    size_t n1 = 0, n2 = 0;
    byoc_sim_options o;
    memset(&o, 0, sizeof o);
    CHECKF(run_model(branches_model, &o, &alone, &n1, why, sizeof why), "alone: %s", why);
    o.side_by_side = 1;
    CHECKF(run_model(branches_model, &o, &together, &n2, why, sizeof why), "side by side: %s", why);
    CHECK(alone && together && n1 == n2 && !memcmp(alone, together, n1));
    free(alone);
    free(together);
    check_program_threads(branches_model, 1, why, sizeof why, &ok);
    CHECKF(ok, "side by side: %s", why);
    /* the groups, the shared slot of their members, and the plan */
    byoc_diag d;
    byoc_module *m = byoc_module_parse(branches_model, strlen(branches_model), "threads.relay", NULL, &d);
    CHECK(m && byoc_fold_constant(m, &d) == BYOC_OK && byoc_fuse_ops(m, 256, &d) == BYOC_OK);
    for (int side = 0; side < 2; ++side) {
        o.side_by_side = side;
        o.threads = 2;
        byoc_sim_program *p = m ? byoc_sim_lower(m, &o, &d) : NULL;
        CHECKF(p != NULL, "lower: %s", d.message);
        if (!p) continue;
        int shared = 0, nk = byoc_sim_kernel_count(p);
        for (int i = 0; i < nk; ++i)
            for (int j = i + 1; j < nk; ++j)
                shared += byoc_sim_kernel(p, i)->slot_first == byoc_sim_kernel(p, j)->slot_first;
        CHECKF(side ? shared >= 1 : shared == 0, "side_by_side %d: %d pairs of kernels share a slot", side, shared);
        CHECKF(plan_is_sound(p, why, sizeof why), "side_by_side %d: %s", side, why);
        char *profile = byoc_sim_profile_format(p, NULL);
        int listed = profile && strstr(profile, "independent kernels run side by side, one thread each") != NULL;
        CHECKF(listed == side, "side_by_side %d: the profile %s the groups", side, listed ? "lists" : "does not list");
        byoc_sim_free(p, profile);
        byoc_sim_program_destroy(p);
    }
    byoc_module_destroy(m);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_pool_covers_every_index_once),
        TEST_ENTRY(test_pool_nested_calls),
        TEST_ENTRY(test_pool_create_destroy_and_bad_counts),
        TEST_ENTRY(test_pool_back_to_back_jobs_and_destroy_while_spinning),
        TEST_ENTRY(test_kernels_same_bytes_at_1_2_3_7_threads),
        TEST_ENTRY(test_small_kernels_stay_on_one_thread),
        TEST_ENTRY(test_programs_same_bytes_at_every_thread_count),
        TEST_ENTRY(test_side_by_side_groups_same_bytes_sound_plan),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
