/* Fused float convolutions (byoc_sim.h "sim impl: fused convolutions"): a FuseOps group nn.conv2d [+ a
   per-channel bias] [+ nn.relu] runs as one kernel whose convolution applies the bias and ReLU block by block.
   The bytes must equal those of the ops run one by one (opt.no_fused_tiling), at one thread and at two, with
   weights passed at run time and with constant weights packed at lowering; the groups that qualify run as
   such kernels, the ones that do not (an add of a tensor of another rank) keep the tiled epilogue. */
/* links the library compiled once (tests/lib/byoc_impl.c) */
#include "../byoc_sim.h"
#include "test.h"

#include <stdlib.h>

static void fill(float *x, size_t n, unsigned seed) {
    unsigned s = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        x[i] = (float)((int)(s >> 9) % 2001 - 1000) / 997.0f;
    }
}

/* Every fusable form (bias_add, add of [1, O, 1, 1] and of [O, 1, 1] on its left, ReLU alone, ShuffleNet's
   conv + bias + residual add + ReLU; grouped, pointwise and depthwise stride-2 convolutions) and one group that
   is not: an add of a [O, H, W] tensor, which keeps its tiled epilogue. Odd sizes, so blocks and vectors have
   tails. */
static const char *const fusion_model =
    "def @main(%x: Tensor[(1, 12, 23, 29), float32], %w3: Tensor[(20, 12, 3, 3), float32],\n"
    "          %b20: Tensor[(20), float32], %wp: Tensor[(24, 20, 1, 1), float32],\n"
    "          %c24: Tensor[(1, 24, 1, 1), float32], %wg: Tensor[(24, 6, 1, 1), float32],\n"
    "          %c24b: Tensor[(24, 1, 1), float32], %wd: Tensor[(24, 1, 3, 3), float32],\n"
    "          %b24: Tensor[(24), float32], %wr: Tensor[(24, 24, 3, 3), float32],\n"
    "          %wd2: Tensor[(24, 1, 3, 3), float32], %big: Tensor[(24, 12, 15), float32],\n"
    "          %wq: Tensor[(24, 24, 1, 1), float32], %res: Tensor[(1, 24, 12, 15), float32]) {\n"
    "  %0 = nn.conv2d(%x, %w3, padding=[1, 1, 1, 1]);\n"
    "  %1 = nn.bias_add(%0, %b20);\n"
    "  %2 = nn.relu(%1);\n"
    "  %3 = nn.conv2d(%2, %wp);\n"
    "  %4 = add(%3, %c24);\n"
    "  %5 = nn.conv2d(%4, %wg, groups=4);\n"
    "  %6 = add(%c24b, %5);\n"
    "  %7 = nn.relu(%6);\n"
    "  %8 = nn.conv2d(%7, %wd, strides=[2, 2], padding=[1, 1, 1, 1], groups=24);\n"
    "  %9 = nn.bias_add(%8, %b24);\n"
    "  %10 = nn.conv2d(%9, %wr, padding=[1, 1, 1, 1]);\n"
    "  %11 = nn.relu(%10);\n"
    "  %12 = nn.conv2d(%11, %wd2, padding=[1, 1, 1, 1], groups=24);\n"
    "  %13 = add(%12, %big);\n"
    "  %14 = nn.conv2d(%13, %wq);\n"
    "  %15 = add(%14, %c24);\n"
    "  %16 = add(%15, %res);\n"
    "  nn.relu(%16)\n"
    "}\n";

/* The weights as constants: byoc_sim_lower packs them once (a pointwise convolution then takes the patch path
   too), and a convolution with one output channel keeps packing nothing. Seeded values (no weights file). */
static const char *const constant_model =
    "def @main(%x: Tensor[(1, 12, 23, 29), float32]) {\n"
    "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(20, 12, 3, 3), float32] */, padding=[1, 1, 1, 1]);\n"
    "  %1 = nn.bias_add(%0, meta[relay.Constant][1] /* ty=Tensor[(20), float32] */);\n"
    "  %2 = nn.relu(%1);\n"
    "  %3 = nn.conv2d(%2, meta[relay.Constant][2] /* ty=Tensor[(24, 20, 1, 1), float32] */);\n"
    "  %4 = add(%3, meta[relay.Constant][3] /* ty=Tensor[(1, 24, 1, 1), float32] */);\n"
    "  %5 = nn.conv2d(%4, meta[relay.Constant][4] /* ty=Tensor[(24, 6, 3, 3), float32] */, strides=[2, 2],\n"
    "                 groups=4);\n"
    "  %6 = nn.relu(%5);\n"
    "  %7 = nn.conv2d(%6, meta[relay.Constant][5] /* ty=Tensor[(1, 24, 1, 1), float32] */);\n"
    "  nn.relu(%7)\n"
    "}\n";

/* Pointwise convolutions with few outputs read their input rows in place (byoc__conv_reads_input_in_place): 400
   input channels (two k slices of the GEMM), 20 and 32 outputs (row tiles of 6 with a short last one), 23 x 29
   pixels (a last panel of fewer columns, packed). Their bytes must be the packed path's, as the ops run one by one
   (byoc_sgemm packs). */
static const char *const in_place_model =
    "def @main(%x: Tensor[(1, 400, 23, 29), float32]) {\n"
    "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(20, 400, 1, 1), float32] */);\n"
    "  %1 = nn.bias_add(%0, meta[relay.Constant][1] /* ty=Tensor[(20), float32] */);\n"
    "  %2 = nn.relu(%1);\n"
    "  %3 = nn.conv2d(%2, meta[relay.Constant][2] /* ty=Tensor[(32, 20, 1, 1), float32] */);\n"
    "  nn.relu(%3)\n"
    "}\n";

/* Depthwise convolutions on maps narrower than a vector, their epilogue applied in registers (byoc.h "depthwise
   rows"): 7 columns (each row one short vector, stored masked) with a residual, a depth multiplier of 2, and a
   5x5 window with strides 3 and 2 on a 3x3 map (a store past the plane would reach the next thread's). */
static const char *const depthwise_model =
    "def @main(%x: Tensor[(1, 6, 9, 7), float32], %wa: Tensor[(6, 1, 3, 3), float32], %ba: Tensor[(6), float32],\n"
    "          %ra: Tensor[(1, 6, 9, 7), float32], %wb: Tensor[(12, 1, 3, 3), float32], %bb: Tensor[(12), float32],\n"
    "          %wc: Tensor[(12, 1, 5, 5), float32]) {\n"
    "  %0 = nn.conv2d(%x, %wa, padding=[1, 1, 1, 1], groups=6);\n"
    "  %1 = nn.bias_add(%0, %ba);\n"
    "  %2 = add(%1, %ra);\n"
    "  %3 = nn.relu(%2);\n"
    "  %4 = nn.conv2d(%3, %wb, padding=[1, 1, 1, 1], groups=6);\n"
    "  %5 = nn.bias_add(%4, %bb);\n"
    "  %6 = nn.relu(%5);\n"
    "  %7 = nn.conv2d(%6, %wc, strides=[3, 2], padding=[1, 1, 1, 1], groups=12);\n"
    "  nn.relu(%7)\n"
    "}\n";

typedef struct fusion_run {
    unsigned char *bytes;
    size_t nbytes;
    int fused, anchors; /* kernels run as fused convolutions (ANCHOR, no tiles), all ANCHOR kernels */
} fusion_run;

/* a model fused and lowered with options o, every input filled, run once */
static int run_fusion_model(const char *text, const byoc_sim_options *o, fusion_run *r, char *why, size_t cap) {
    byoc_diag d;
    memset(r, 0, sizeof *r);
    byoc_module *m = byoc_module_parse(text, strlen(text), "fusion.relay", NULL, &d);
    if (!m || byoc_fuse_ops(m, 256, &d) != BYOC_OK) {
        snprintf(why, cap, "parse/fuse: %s", d.message);
        byoc_module_destroy(m);
        return 0;
    }
    byoc_sim_program *p = byoc_sim_lower(m, o, &d);
    int ok = p != NULL, nin = p ? byoc_sim_input_count(p) : 0;
    byoc_tensor in[16], res;
    float *data[16] = {0};
    ok = ok && nin <= 16 && byoc_sim_output_count(p) == 1;
    for (int i = 0; ok && i < nin; ++i) {
        const byoc_sim_io *io = byoc_sim_input(p, i);
        memset(&in[i], 0, sizeof in[i]);
        in[i].dtype = io->dtype;
        in[i].rank = io->rank;
        memcpy(in[i].dims, io->dims, sizeof io->dims);
        ok = (data[i] = (float *)malloc(io->nbytes)) != NULL;
        if (ok) fill(data[i], io->nbytes / sizeof(float), (unsigned)i + 3);
        in[i].data = data[i];
    }
    ok = ok && byoc_sim_run(p, in, nin, &res, 1, &d) == BYOC_OK;
    if (!ok) snprintf(why, cap, "lower/run: %s", p ? d.message : "no program");
    if (ok) {
        r->nbytes = byoc_sim_output(p, 0)->nbytes;
        r->bytes = (unsigned char *)malloc(r->nbytes);
        ok = r->bytes != NULL;
        if (ok) memcpy(r->bytes, res.data, r->nbytes);
        for (int k = 0; ok && k < byoc_sim_kernel_count(p); ++k) {
            const byoc_sim_kernel_info *ki = byoc_sim_kernel(p, k);
            if (ki->exec != BYOC_SIM_EXEC_ANCHOR) continue;
            r->anchors++;
            r->fused += ki->tiles == 0 && strstr(ki->ops, "nn.conv2d") == ki->ops;
        }
    }
    for (int i = 0; i < 16; ++i) free(data[i]);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
    return ok;
}

/* every block the programs allocate starts as all-ones bytes (NaN floats): an output a kernel fails to write
   keeps no value an earlier program left in reused memory */
static void *poisoned_alloc(size_t size, void *user_data) {
    (void)user_data;
    void *p = malloc(size ? size : 1);
    if (p) memset(p, 0xff, size);
    return p;
}
static void poisoned_free(void *ptr, void *user_data) {
    (void)user_data;
    free(ptr);
}

/* the model op by op, then fused at one, two and three threads: the same bytes each time; *fused and *anchors
   from the one-thread fused run */
static void check_same_bytes(const char *text, int *fused, int *anchors, char *why, size_t cap) {
    static const char *const counts[] = {"one thread", "two threads", "three threads"};
    byoc_sim_options o;
    byoc_allocator poisoned = {poisoned_alloc, poisoned_free, NULL};
    memset(&o, 0, sizeof o);
    o.allocator = &poisoned;
    o.no_fused_tiling = 1;
    fusion_run ops, runs[3];
    int ran = 0, same;
    *fused = *anchors = -1;
    if (!run_fusion_model(text, &o, &ops, why, cap)) return;
    same = !ops.fused && !ops.anchors;
    if (!same) snprintf(why, cap, "op by op: %d anchor kernels", ops.anchors);
    o.no_fused_tiling = 0;
    while (same && ran < 3) {
        o.threads = ran + 1;
        if (!run_fusion_model(text, &o, &runs[ran], why, cap)) break;
        const fusion_run *r = &runs[ran++];
        same = r->nbytes == ops.nbytes && !memcmp(r->bytes, ops.bytes, ops.nbytes);
        if (!same) snprintf(why, cap, "%s: the fused groups' bytes differ from the ops'", counts[ran - 1]);
    }
    if (same && ran == 3) {
        *fused = runs[0].fused;
        *anchors = runs[0].anchors;
    }
    free(ops.bytes);
    for (int i = 0; i < ran; ++i) free(runs[i].bytes);
}

static void test_fused_conv_groups_give_the_ops_bytes(void) {
    char why[600] = "";
    int fused, anchors;
    check_same_bytes(fusion_model, &fused, &anchors, why, sizeof why);
    CHECKF(fused >= 0, "%s", why);
    /* conv+bias_add+relu, conv+add, grouped conv+add+relu, depthwise conv+bias_add, conv+relu and conv + bias +
       residual + relu fuse; the depthwise conv + an add of a [24, 12, 15] tensor keeps its tiled epilogue */
    CHECKF(fused == 6, "%d fused convolution kernels, want 6", fused);
    CHECKF(anchors == 7, "%d anchor kernels, want 7", anchors);
}

static void test_fused_convs_with_weights_packed_at_lowering(void) {
    char why[600] = "";
    int fused, anchors;
    check_same_bytes(constant_model, &fused, &anchors, why, sizeof why);
    CHECKF(fused >= 0, "%s", why);
    CHECKF(fused == 4 && anchors == 4, "%d fused convolution kernels of %d anchors, want 4 of 4", fused, anchors);
}

static void test_pointwise_convs_reading_their_input_in_place(void) {
    char why[600] = "";
    int fused, anchors;
    check_same_bytes(in_place_model, &fused, &anchors, why, sizeof why);
    CHECKF(fused >= 0, "%s", why);
    CHECKF(fused == 2 && anchors == 2, "%d fused convolution kernels of %d anchors, want 2 of 2", fused, anchors);
}

static void test_depthwise_rows_give_the_ops_bytes(void) {
    char why[600] = "";
    int fused, anchors;
    check_same_bytes(depthwise_model, &fused, &anchors, why, sizeof why);
    CHECKF(fused >= 0, "%s", why);
    CHECKF(fused == 3 && anchors == 3, "%d fused convolution kernels of %d anchors, want 3 of 3", fused, anchors);
}

/* Depthwise convolutions large enough to split over threads by bands of output rows (byoc.h "depthwise
   convolutions over threads": output planes of 2048 floats or more): 128 rows of 70 columns (eight vectors and a
   masked one per row) with a bias, a residual and a ReLU; a 5x5 window dilated by 2 at stride 2 with a depth
   multiplier of 2 (64 x 35: each band pads the phase rows below its own); and the 22 x 18 map after it, split by
   planes. Each must give the ops' bytes at one, two and three threads. */
static const char *const depthwise_bands_model =
    "def @main(%x: Tensor[(1, 8, 128, 70), float32], %wa: Tensor[(8, 1, 3, 3), float32],\n"
    "          %ba: Tensor[(8), float32], %ra: Tensor[(1, 8, 128, 70), float32],\n"
    "          %wb: Tensor[(16, 1, 5, 5), float32], %bb: Tensor[(16), float32],\n"
    "          %wc: Tensor[(16, 1, 3, 3), float32]) {\n"
    "  %0 = nn.conv2d(%x, %wa, padding=[1, 1, 1, 1], groups=8);\n"
    "  %1 = nn.bias_add(%0, %ba);\n"
    "  %2 = add(%1, %ra);\n"
    "  %3 = nn.relu(%2);\n"
    "  %4 = nn.conv2d(%3, %wb, strides=[2, 2], padding=[4, 4, 4, 4], dilation=[2, 2], groups=8);\n"
    "  %5 = nn.bias_add(%4, %bb);\n"
    "  %6 = nn.relu(%5);\n"
    "  %7 = nn.conv2d(%6, %wc, strides=[3, 2], padding=[1, 1, 1, 1], groups=16);\n"
    "  nn.relu(%7)\n"
    "}\n";

static void test_depthwise_bands_over_threads_give_the_ops_bytes(void) {
    char why[600] = "";
    int fused, anchors;
    check_same_bytes(depthwise_bands_model, &fused, &anchors, why, sizeof why);
    CHECKF(fused >= 0, "%s", why);
    CHECKF(fused == 3 && anchors == 3, "%d fused convolution kernels of %d anchors, want 3 of 3", fused, anchors);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_fused_conv_groups_give_the_ops_bytes),
        TEST_ENTRY(test_fused_convs_with_weights_packed_at_lowering),
        TEST_ENTRY(test_pointwise_convs_reading_their_input_in_place),
        TEST_ENTRY(test_depthwise_rows_give_the_ops_bytes),
        TEST_ENTRY(test_depthwise_bands_over_threads_give_the_ops_bytes),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
