/* The simulated SoC: device presets and options, built-in backends with device constraints, lowering
   partitions to command streams through the target hooks, functional execution against the host-only
   run, the cycle model against the analytic estimator, blob validation, and the trace. */
#define BYOC_SIM_IMPLEMENTATION
#include "../byoc_sim.h"
#include "test.h"
#include <math.h>
#include <stdlib.h>

/* conv (bias, relu) -> max pool -> conv -> avg pool -> global pool -> dense (bias) -> softmax; a transposed branch with a
   reduction and a layer norm; an LRN that only the host runs */
static const char cnn_text[] =
    "def @main(%x: Tensor[(1, 8, 30, 30), float32]) {\n"
    "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(24, 8, 3, 3), float32] */, padding=[1, 1, 1, 1]);\n"
    "  %1 = add(%0, meta[relay.Constant][1] /* ty=Tensor[(24, 1, 1), float32] */);\n"
    "  %2 = nn.relu(%1);\n"
    "  %3 = nn.max_pool2d(%2, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1], ceil_mode=True);\n"
    "  %4 = nn.conv2d(%3, meta[relay.Constant][2] /* ty=Tensor[(40, 24, 3, 3), float32] */, strides=[2, 2], padding=[0, 1, 1, 0], dilation=[1, 1]);\n"
    "  %5 = nn.relu(%4);\n"
    "  %6 = nn.avg_pool2d(%5, pool_size=[2, 2], padding=[1, 1, 1, 1], count_include_pad=False);\n"
    "  %7 = nn.global_avg_pool2d(%6);\n"
    "  %8 = reshape(%7, newshape=[1, 40]);\n"
    "  %9 = nn.dense(%8, meta[relay.Constant][3] /* ty=Tensor[(30, 40), float32] */);\n"
    "  %10 = add(%9, meta[relay.Constant][4] /* ty=Tensor[(30), float32] */);\n"
    "  %11 = nn.softmax(%10);\n"
    "  %12 = transpose(%6, axes=[0, 2, 3, 1]);\n"
    "  %13 = mean(%12, axis=[3]);\n"
    "  %14 = nn.layer_norm(%12, meta[relay.Constant][5] /* ty=Tensor[(40), float32] */, meta[relay.Constant][6] /* ty=Tensor[(40), float32] */);\n"
    "  %15 = sigmoid(%14);\n"
    "  %16 = nn.lrn(%6, size=3);\n"
    "  (%11, %13, %15, %16)\n"
    "}\n";

static byoc_module *parse(const char *text) {
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, strlen(text), "cnn.relay", NULL, &d);
    if (!m) printf("# parse: %s\n", d.message);
    return m;
}

static void seeded(float *x, size_t n, unsigned s) {
    for (size_t i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        x[i] = (float)((double)(s >> 8) / 16777216.0 - 0.5);
    }
}

/* the module compiled for the backends given (none: host only), run on one seeded input */
typedef struct compiled {
    byoc_module *m;
    byoc_sim_program *p;
    byoc_tensor out[4];
    int nout;
} compiled;

static int compile_and_run(compiled *c, const char *text, byoc_sim_backend *const *b, int nb, const float *input, byoc_diag *d) {
    memset(c, 0, sizeof *c);
    c->m = parse(text);
    if (!c->m || byoc_infer_type(c->m, d) != BYOC_OK) return 0;
    if (nb) {
        const byoc_backend_spec *specs[4];
        const byoc_target *targets[4];
        for (int i = 0; i < nb; ++i) specs[i] = b[i]->spec, targets[i] = b[i]->target;
        byoc_partition_options o;
        memset(&o, 0, sizeof o);
        o.backends = specs;
        o.nbackends = nb;
        o.bind_constants = 1;
        if (byoc_partition_greedy(c->m, &o, NULL, d) != BYOC_OK || byoc_run_target_hooks(c->m, targets, nb, d) != BYOC_OK) return 0;
    }
    if (byoc_fuse_ops(c->m, 256, d) != BYOC_OK || !(c->p = byoc_sim_lower(c->m, NULL, d))) return 0;
    const byoc_sim_io *io = byoc_sim_input(c->p, 0);
    byoc_tensor in = {io->dtype, io->rank, {0}, (void *)input};
    memcpy(in.dims, io->dims, sizeof in.dims);
    c->nout = byoc_sim_output_count(c->p);
    return byoc_sim_run(c->p, &in, 1, c->out, c->nout, d) == BYOC_OK;
}
static void compiled_free(compiled *c) {
    byoc_sim_program_destroy(c->p);
    byoc_module_destroy(c->m);
}
static double max_diff(const compiled *a, const compiled *b) {
    double worst = a->nout == b->nout ? 0 : 1e30;
    for (int k = 0; k < a->nout && k < b->nout; ++k) {
        size_t n = 1;
        for (int i = 0; i < a->out[k].rank; ++i) n *= (size_t)a->out[k].dims[i];
        for (size_t i = 0; i < n; ++i) {
            double e = fabs((double)((const float *)a->out[k].data)[i] - (double)((const float *)b->out[k].data)[i]);
            if (!(e <= worst)) worst = e;
        }
    }
    return worst;
}

static void test_presets_and_options(void) {
    CHECK(byoc_sim_preset_count() >= 5);
    const byoc_sim_device *u55 = byoc_sim_preset_find("ethos-u55-256");
    CHECK(u55 && u55->kind == byoc_sim_device_kind_find("npu") && u55->rows * u55->cols == 256 && u55->clock_mhz == 500 && u55->dram_bytes_per_cycle == 8);
    const byoc_sim_device *big = byoc_sim_preset_find("npu-128x128");
    CHECK(big && big->rows == 128 && big->cols == 128 && big->dataflow == BYOC_SIM_WEIGHT_STATIONARY);
    byoc_sim_device dev = *u55;
    byoc_diag d;
    byoc_attr_value v;
    memset(&v, 0, sizeof v);
    v.kind = BYOC_ATTR_INT;
    v.i = 512;
    CHECK(byoc_sim_device_set(&dev, "sram_kb", &v, &d) == BYOC_OK && dev.sram_bytes == 512 * 1024);
    CHECK(byoc_sim_device_set(&dev, "bogus", &v, &d) == BYOC_ERR_ATTR);
    CHECK_CONTAINS(d.message, "unknown device option 'bogus'");
    v.i = 0;
    CHECK(byoc_sim_device_set(&dev, "rows", &v, &d) == BYOC_ERR_ATTR);
    CHECK_CONTAINS(d.message, "rows must be a number in [1, 4096]");
    v.kind = BYOC_ATTR_STRING;
    v.s = "dsp-512";
    CHECK(byoc_sim_device_set(&dev, "preset", &v, &d) == BYOC_ERR_ATTR);
    CHECK_CONTAINS(d.message, "preset 'dsp-512' is a dsp, not a npu");
    v.s = "float32,int8";
    CHECK(byoc_sim_device_set(&dev, "dtypes", &v, &d) == BYOC_OK && dev.dtypes == ((1u << BYOC_FLOAT32) | (1u << BYOC_INT8)));
    /* target strings override the preset, the preset first */
    byoc_sim_backend *b = byoc_sim_backend_open("npu -sram_kb=200 -preset=npu-128x128", &d);
    CHECKF(b != NULL, "%s", d.message);
    CHECK(b->device.rows == 128 && b->device.sram_bytes == 200 * 1024 && b->target && !strcmp(b->target->kind, "npu"));
    byoc_sim_backend_close(b);
    CHECK(byoc_sim_backend_open("npu -sram_kbb=1", &d) == NULL);
    CHECK_CONTAINS(d.message, "no option -sram_kbb");
    CHECK(byoc_sim_backend_open("npu -rows=0", &d) == NULL);
    CHECK_CONTAINS(d.message, "rows must be");
    CHECK(byoc_sim_backend_open("no_such_backend", &d) == NULL);
    CHECK_CONTAINS(d.message, "not a built-in backend");
}

/* the device's own constraints come with reasons, in the placement report too */
static void test_constraint_reasons(void) {
    byoc_diag d;
    byoc_sim_backend *tiny = byoc_sim_backend_open("npu -sram_kb=4", &d);
    CHECKF(tiny != NULL, "%s", d.message);
    byoc_module *m = parse("def @main(%x: Tensor[(1, 64, 40, 40), float32]) {\n"
                           "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(8, 64, 3, 3), float32] */, padding=[1, 1, 1, 1]);\n"
                           "  nn.conv2d(%0, meta[relay.Constant][1] /* ty=Tensor[(8, 4, 3, 3), float32] */, groups=2)\n}\n");
    CHECK(m && byoc_infer_type(m, &d) == BYOC_OK);
    const byoc_node *body = byoc_module_function(m, "main")->body;
    char buf[256];
    const char *reason = buf;
    CHECK(!byoc_backend_accepts(tiny->spec, body->args[0], buf, sizeof buf));
    CHECK_CONTAINS(reason, "tile does not fit SRAM after splitting");
    CHECK(!byoc_backend_accepts(tiny->spec, body, buf, sizeof buf));
    CHECK_CONTAINS(reason, "groups=2 unsupported");
    const byoc_backend_spec *specs[1] = {tiny->spec};
    byoc_partition_options o;
    memset(&o, 0, sizeof o);
    o.backends = specs;
    o.nbackends = 1;
    byoc_placement_report *rep = NULL;
    CHECK(byoc_partition_greedy(m, &o, &rep, &d) == BYOC_OK);
    char *text = byoc_placement_report_format(rep, "report", NULL);
    CHECK_CONTAINS(text, "tile does not fit SRAM after splitting");
    CHECK_CONTAINS(text, "groups=2 unsupported");
    byoc_free(rep->arena, text);
    byoc_placement_report_free(rep);
    byoc_module_destroy(m);
    byoc_sim_backend_close(tiny);
}

/* partitioned across npu, dsp and host: the same numbers as the host alone, tiled or not */
static void check_partitioned(const char *npu_opts, const char *dsp_opts, double *seconds) {
    byoc_diag d;
    char npu_text[128], dsp_text[128];
    snprintf(npu_text, sizeof npu_text, "npu %s", npu_opts);
    snprintf(dsp_text, sizeof dsp_text, "dsp %s", dsp_opts);
    byoc_sim_backend *b[2] = {byoc_sim_backend_open(npu_text, &d), NULL};
    CHECKF(b[0] != NULL, "%s", d.message);
    b[1] = byoc_sim_backend_open(dsp_text, &d);
    CHECKF(b[1] != NULL, "%s", d.message);
    static float input[8 * 30 * 30];
    seeded(input, sizeof input / sizeof input[0], 7);
    compiled host, dev;
    int ok_host = compile_and_run(&host, cnn_text, NULL, 0, input, &d);
    int ok_dev = ok_host && compile_and_run(&dev, cnn_text, b, 2, input, &d);
    if (ok_host && ok_dev) {
        double e = max_diff(&host, &dev);
        int npu = 0, dsp = 0;
        for (int i = 0; i < byoc_sim_kernel_count(dev.p); ++i) {
            const byoc_sim_kernel_info *k = byoc_sim_kernel(dev.p, i);
            npu += !strcmp(k->device_kind, "npu") && k->cycles > 0;
            dsp += !strcmp(k->device_kind, "dsp") && k->cycles > 0;
        }
        *seconds = byoc_sim_latency(dev.p);
        compiled_free(&host);
        compiled_free(&dev);
        byoc_sim_backend_close(b[0]);
        byoc_sim_backend_close(b[1]);
        CHECKF(e <= 1e-4, "max abs error %g against the host-only run", e);
        CHECKF(npu >= 2 && dsp >= 1, "%d npu and %d dsp kernels ran", npu, dsp);
        return;
    }
    compiled_free(&host);
    if (ok_host) compiled_free(&dev);
    byoc_sim_backend_close(b[0]);
    byoc_sim_backend_close(b[1]);
    CHECKF(0, "%s", d.message);
}

static void test_partitioned_matches_host(void) {
    double t_big = 0, t_small = 0, t_single = 0;
    check_partitioned("", "", &t_big);
    if (test_failed) return;
    /* small SRAM: many tiles, halos, channel blocks, reloaded weights */
    check_partitioned("-sram_kb=24", "-sram_kb=8", &t_small);
    if (test_failed) return;
    check_partitioned("-sram_kb=24 -double_buffer=0", "-sram_kb=8 -double_buffer=0", &t_single);
    if (test_failed) return;
    CHECKF(t_single > t_small, "single buffering %g s is not slower than double buffering %g s", t_single, t_small);
}

/* the analytic estimate against the simulated cycles of every partition, across SRAM sizes and buffering */
static void test_estimator_agrees(void) {
    const char *opts[] = {"", "-sram_kb=24", "-sram_kb=24 -double_buffer=0", "-preset=npu-128x128"};
    for (int o = 0; o < 4; ++o) {
        byoc_diag d;
        char text[128];
        snprintf(text, sizeof text, "npu %s", opts[o]);
        byoc_sim_backend *b[2] = {byoc_sim_backend_open(text, &d), byoc_sim_backend_open("dsp", &d)};
        CHECKF(b[0] && b[1], "%s", d.message);
        static float input[8 * 30 * 30];
        seeded(input, sizeof input / sizeof input[0], 3);
        compiled c;
        int ok = compile_and_run(&c, cnn_text, b, 2, input, &d);
        for (int i = 0; ok && i < byoc_sim_kernel_count(c.p); ++i) {
            const byoc_sim_kernel_info *k = byoc_sim_kernel(c.p, i);
            if (strcmp(k->device_kind, "host") == 0) continue;
            const byoc_sim_device *dev = !strcmp(k->device_kind, "npu") ? &b[0]->device : &b[1]->device;
            byoc_sim_cost est;
            if (byoc_sim_estimate(c.m, k->partition, dev, &est, &d) != BYOC_OK) { ok = 0; break; }
            double ratio = (double)est.cycles / (double)k->cycles;
            if (!(ratio >= 0.9 && ratio <= 1.1)) {
                snprintf(d.message, sizeof d.message, "%s (%s): estimated %llu cycles, simulated %llu", k->partition, opts[o], (unsigned long long)est.cycles,
                         (unsigned long long)k->cycles);
                ok = 0;
            }
        }
        if (ok || c.m) compiled_free(&c);
        byoc_sim_backend_close(b[0]);
        byoc_sim_backend_close(b[1]);
        CHECKF(ok, "%s", d.message);
    }
}

/* depthwise convolutions run on the NPU, channels tiled: the result is the host's, exactly, in every
   schedule (SRAM from roomy to a few channels per tile, double and single buffering) */
static void test_depthwise_on_npu(void) {
    static const char text[] =
        "def @main(%x: Tensor[(1, 24, 17, 17), float32]) {\n"
        "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(24, 1, 3, 3), float32] */, strides=[2, 2], padding=[1, 1, 1, 1], groups=24);\n"
        "  %1 = nn.bias_add(%0, meta[relay.Constant][1] /* ty=Tensor[(24), float32] */);\n"
        "  %2 = nn.relu(%1);\n"
        "  nn.conv2d(%2, meta[relay.Constant][2] /* ty=Tensor[(24, 1, 5, 5), float32] */, padding=[2, 2, 2, 2], groups=24)\n"
        "}\n";
    static float input[24 * 17 * 17];
    seeded(input, sizeof input / sizeof input[0], 11);
    byoc_diag d;
    compiled host;
    CHECKF(compile_and_run(&host, text, NULL, 0, input, &d), "%s", d.message);
    const char *opts[] = {"npu", "npu -sram_kb=6", "npu -sram_kb=6 -double_buffer=0", "npu -preset=npu-128x128"};
    for (int o = 0; o < 4; ++o) {
        byoc_sim_backend *b = byoc_sim_backend_open(opts[o], &d);
        CHECKF(b != NULL, "%s", d.message);
        compiled c;
        int ok = compile_and_run(&c, text, &b, 1, input, &d);
        CHECKF(ok, "%s: %s", opts[o], d.message);
        int on_npu = 0, tiles = 0;
        uint64_t macs = 0;
        for (int i = 0; ok && i < byoc_sim_kernel_count(c.p); ++i) {
            const byoc_sim_kernel_info *k = byoc_sim_kernel(c.p, i);
            if (strcmp(k->device_kind, "npu")) continue;
            on_npu += strstr(k->ops, "nn.conv2d") != NULL;
            tiles += k->commands;
            macs += k->macs;
            CHECKF(k->mac_utilization > 0 && k->mac_utilization <= 1, "%s: utilization %g", opts[o], k->mac_utilization);
        }
        CHECKF(on_npu >= 1, "%s: the depthwise convolutions did not run on the npu", opts[o]);
        CHECKF(macs == (uint64_t)24 * 81 * (9 + 25), "%s: %llu MACs (one per channel, pixel and tap)", opts[o], (unsigned long long)macs);
        if (o == 1) CHECKF(tiles > 12, "%s: %d commands (channels should be tiled)", opts[o], tiles);
        CHECKF(max_diff(&c, &host) == 0, "%s: differs from the host by %g", opts[o], max_diff(&c, &host));
        compiled_free(&c);
        byoc_sim_backend_close(b);
    }
    compiled_free(&host);
}

/* The patch-matrix cache of conv tiles must never serve stale numbers, even for a stream no compiler
   would emit: here a conv's input tile spans two loads, and the second compute follows a reload of only
   its second half. The result must not depend on whether an earlier compute filled the cache. */
static byoc__dv_cmd stale_dma(int op, int tensor, int c0, int c1, int64_t sram) {
    byoc__dv_cmd c;
    memset(&c, 0, sizeof c);
    c.op = op, c.kernel = -1, c.sram = sram;
    c.box.tensor = tensor, c.box.rank = 4;
    int64_t weights[4] = {4, 4, 3, 3}, rows[4] = {1, c1 - c0, 8, 8};
    memcpy(c.box.extent, tensor == 1 ? weights : rows, sizeof weights);
    c.box.begin[1] = tensor == 1 ? 0 : c0;
    return c;
}
static int run_split_stream(int first_compute, float *out, byoc_diag *d) {
    static const char text[] = "def @f(%x: Tensor[(1, 4, 8, 8), float32]) -> Tensor[(1, 4, 8, 8), float32] {\n"
                               "  nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(4, 4, 3, 3), float32] */, padding=[1, 1, 1, 1])\n}\n"
                               "def @main(%x: Tensor[(1, 4, 8, 8), float32]) { @f(%x) }\n";
    byoc_module *m = parse(text);
    byoc_sim_device dev = *byoc_sim_preset_find("ethos-u55-256");
    byoc__dv_stream s;
    if (!m || byoc_infer_type(m, d) != BYOC_OK || byoc__dv_lower(m, byoc_module_function(m, "f"), &dev, 0, &s, d) != BYOC_OK) return 0;
    byoc__dv_cmd compute;
    memset(&compute, 0, sizeof compute);
    compute.op = BYOC__DV_COMPUTE, compute.kernel = 0, compute.sram = 3200, compute.noperands = 2, compute.operand_sram[1] = 2048;
    byoc__dv_cmd cmds[8];
    int n = 0;
    cmds[n++] = stale_dma(BYOC__DV_LOAD, 0, 0, 2, 0); /* channels 0-1 at 0, 2-3 at 512: one 1 KB input tile */
    cmds[n++] = stale_dma(BYOC__DV_LOAD, 0, 2, 4, 512);
    cmds[n++] = stale_dma(BYOC__DV_LOAD, 1, 0, 0, 2048);
    if (first_compute) cmds[n++] = compute, cmds[n++] = stale_dma(BYOC__DV_STORE, 2, 0, 4, 3200);
    cmds[n++] = stale_dma(BYOC__DV_LOAD, 0, 0, 2, 512); /* rewrites the tile's second half */
    cmds[n++] = compute;
    cmds[n++] = stale_dma(BYOC__DV_STORE, 2, 0, 4, 3200);
    void *grown = realloc(s.cmds, sizeof(byoc__dv_cmd) * (size_t)n);
    int ok = grown != NULL;
    if (ok) s.cmds = (byoc__dv_cmd *)grown, s.cap_cmds = n, s.ncmds = n, memcpy(s.cmds, cmds, sizeof(byoc__dv_cmd) * (size_t)n);
    void *blob = NULL;
    size_t size = 0;
    byoc_sim_device_program *dp = NULL;
    ok = ok && byoc__dv_serialise(&s, &blob, &size, d) == BYOC_OK && (dp = byoc_sim_device_load(blob, size, d)) != NULL;
    static float x[256];
    for (int i = 0; i < 256; ++i) x[i] = (float)((i * 37) % 17) - 8;
    byoc_tensor in = {BYOC_FLOAT32, 4, {1, 4, 8, 8}, x}, o = in;
    o.data = out;
    ok = ok && byoc_sim_device_run(dp, &in, 1, &o, 1, NULL, d) == BYOC_OK;
    byoc_sim_device_program_destroy(dp);
    free(blob);
    byoc__dv_stream_free(&s);
    byoc_module_destroy(m);
    return ok;
}
static void test_patch_cache_never_stale(void) {
    static float with_cache[256], without[256];
    byoc_diag d;
    CHECKF(run_split_stream(1, with_cache, &d) && run_split_stream(0, without, &d), "%s", d.message);
    CHECK(memcmp(with_cache, without, sizeof without) == 0);
}

/* a blob survives its round trip; truncated, flipped or inconsistent ones are refused with a message */
static void test_blob_validation(void) {
    byoc_diag d;
    byoc_module *m = parse("def @f(%x: Tensor[(1, 4, 10, 10), float32]) -> Tensor[(1, 6, 10, 10), float32] {\n"
                           "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(6, 4, 3, 3), float32] */, padding=[1, 1, 1, 1]);\n"
                           "  nn.relu(%0)\n}\n"
                           "def @main(%x: Tensor[(1, 4, 10, 10), float32]) { @f(%x) }\n");
    CHECK(m && byoc_infer_type(m, &d) == BYOC_OK);
    byoc_sim_device dev = *byoc_sim_preset_find("ethos-u55-256");
    dev.sram_bytes = 3 * 1024; /* several tiles */
    void *blob = NULL;
    size_t size = 0;
    CHECKF(byoc_sim_device_compile(m, "f", &dev, &blob, &size, &d) == BYOC_OK, "%s", d.message);
    byoc_sim_device_program *dp = byoc_sim_device_load(blob, size, &d);
    CHECKF(dp != NULL, "%s", d.message);
    CHECKF(byoc_sim_device_layer_count(dp) == 1 && byoc_sim_device_command_count(dp) >= 6, "%d layers, %d commands", byoc_sim_device_layer_count(dp), byoc_sim_device_command_count(dp));
    const char *ops = NULL;
    byoc_sim_device_layer(dp, 0, &ops);
    CHECK(!strcmp(ops, "nn.conv2d+nn.relu"));
    byoc_sim_device_program_destroy(dp);
    unsigned char *copy = (unsigned char *)malloc(size);
    CHECK(copy != NULL);
    int refused = 0, tried = 0;
    for (size_t cut = 0; cut < size; cut += 1 + size / 97, tried++) {
        dp = byoc_sim_device_load(blob, cut, &d);
        refused += dp == NULL && d.message[0];
        byoc_sim_device_program_destroy(dp);
    }
    CHECKF(refused == tried, "%d of %d truncations refused", refused, tried);
    refused = tried = 0;
    for (size_t at = 0; at < size; at += 1 + size / 301, tried++) {
        memcpy(copy, blob, size);
        copy[at] ^= 0x5a;
        dp = byoc_sim_device_load(copy, size, &d);
        refused += dp == NULL && strstr(d.message, "device blob") != NULL;
        byoc_sim_device_program_destroy(dp);
    }
    CHECKF(refused == tried, "%d of %d flipped bytes refused", refused, tried);
    /* the blob names its device kind ("npu" after the version): a kind this runtime has not registered is
       refused by name, and the format before it (version 1: the built-in kind's index) still loads */
    CHECK(size > 32 && !memcmp(blob, "BYOCDEV", 7) && !memcmp((unsigned char *)blob + 16, "npu", 3));
    memcpy(copy, blob, size);
    memcpy(copy + 16, "zzz", 3);
    uint64_t h = byoc__dv_fnv(copy, size - 8);
    for (int i = 0; i < 8; ++i) copy[size - 8 + (size_t)i] = (unsigned char)(h >> (8 * i));
    dp = byoc_sim_device_load(copy, size, &d);
    CHECKF(dp == NULL && strstr(d.message, "device kind 'zzz' is not registered"), "%s", dp ? "loaded" : d.message);
    byoc_sim_device_program_destroy(dp);
    size_t v1 = size - 3; /* version 1, kind 1 (npu), then the same bytes */
    memcpy(copy, blob, 8);
    copy[8] = 1, copy[9] = copy[10] = copy[11] = 0;
    copy[12] = 1, copy[13] = copy[14] = copy[15] = 0;
    memcpy(copy + 16, (unsigned char *)blob + 19, size - 19 - 8);
    h = byoc__dv_fnv(copy, v1 - 8);
    for (int i = 0; i < 8; ++i) copy[v1 - 8 + (size_t)i] = (unsigned char)(h >> (8 * i));
    dp = byoc_sim_device_load(copy, v1, &d);
    CHECKF(dp != NULL && byoc_sim_device_of(dp)->kind == byoc_sim_device_kind_find("npu") && byoc_sim_device_command_count(dp) >= 6, "%s", dp ? "wrong kind" : d.message);
    byoc_sim_device_program_destroy(dp);
    free(copy);
    free(blob);
    byoc_module_destroy(m);
}

/* the trace: valid structure, one track per device, every kernel and command an event */
static void test_trace(void) {
    byoc_diag d;
    byoc_sim_backend *b[2] = {byoc_sim_backend_open("npu", &d), byoc_sim_backend_open("dsp", &d)};
    CHECKF(b[0] && b[1], "%s", d.message);
    static float input[8 * 30 * 30];
    seeded(input, sizeof input / sizeof input[0], 5);
    compiled c;
    int ok = compile_and_run(&c, cnn_text, b, 2, input, &d);
    byoc_sim_backend_close(b[0]);
    byoc_sim_backend_close(b[1]);
    CHECKF(ok, "%s", d.message);
    size_t len = 0;
    char *json = byoc_sim_trace_format(c.p, &len);
    CHECK(json && len == strlen(json));
    int depth = 0, min_depth = 0, in_string = 0, events = 0;
    for (const char *s = json; *s; ++s) {
        if (in_string) {
            if (*s == '\\' && s[1]) s++;
            else if (*s == '"') in_string = 0;
            continue;
        }
        if (*s == '"') in_string = 1;
        else if (*s == '{' || *s == '[') depth++;
        else if (*s == '}' || *s == ']') depth--;
        if (depth < min_depth) min_depth = depth;
    }
    for (const char *s = json; (s = strstr(s, "\"ph\":\"X\"")) != NULL; ++s) events++;
    int expected = byoc_sim_kernel_count(c.p);
    for (int i = 0; i < byoc_sim_kernel_count(c.p); ++i) {
        const byoc_sim_kernel_info *k = byoc_sim_kernel(c.p, i);
        if (strcmp(k->device_kind, "host")) expected += k->commands;
    }
    CHECK(depth == 0 && min_depth == 0 && !in_string);
    CHECK(!strncmp(json, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", 38));
    CHECK_CONTAINS(json, "\"args\":{\"name\":\"npu\"}");
    CHECK_CONTAINS(json, "\"args\":{\"name\":\"npu dma\"}");
    CHECK_CONTAINS(json, "\"args\":{\"name\":\"dsp compute\"}");
    CHECK_CONTAINS(json, "\"args\":{\"name\":\"host\"}");
    CHECKF(events == expected, "%d events, expected %d", events, expected);
    byoc_sim_free(c.p, json);
    char *profile = byoc_sim_profile_format(c.p, NULL);
    CHECK_CONTAINS(profile, "simulated latency");
    CHECK_CONTAINS(profile, "bytes moved between devices");
    byoc_sim_free(c.p, profile);
    compiled_free(&c);
}

/* A backend file is validated whole (issue 27): each fault is an error at file:line:col; a kind names a registered
   device kind or says `library`; one dtypes list serves placement and the device; a backend is described by its own
   parameters */
static const char *write_backend(const char *name, const char *text) {
    static char path[4][128];
    static int at;
    char *p = path[at++ % 4];
    snprintf(p, sizeof path[0], "build/test_devices_%s.backend", name);
    FILE *f = fopen(p, "wb");
    if (f) fputs(text, f), fclose(f);
    return p;
}
static void test_backend_files_validated(void) {
    static const struct { const char *text, *message; } parse_errors[] = {
        {"backend t\nkind npu\nsupports nn.conv2d\n    require dtype in [float32, int9] \"x\"\n", "t.backend:4:32: unknown dtype 'int9' (did you mean 'int8'?)"},
        {"backend t\nkind npu\nsupports nn.conv2d\n    require out.dtype == int9 \"x\"\n", "t.backend:4:26: unknown dtype 'int9' (did you mean 'int8'?)"},
        {"backend t\nkind npu\nsupports nn.conv2d nn.dense\n    require attr.group == 1 \"x\"\n",
         "t.backend:4:13: nn.conv2d has no attribute 'group' (did you mean 'groups'?)"},
        {"backend t\nkind npu\nsupports nn.conv2d\n    require attr.frobnicate == 1 \"x\"\n",
         "t.backend:4:13: nn.conv2d has no attribute 'frobnicate' (its attributes: strides, padding, dilation, groups, channels, kernel_size, data_layout, "
         "kernel_layout, out_layout, out_dtype)"},
        {"backend t\nkind npu\nsupports nn.relu\n    require attr.alpha == 1 \"x\"\n", "t.backend:4:13: nn.relu has no attributes (attr.alpha)"},
        {"backend t\nkind npu\npattern p = is_op(\"nn.relu\")(is_op(\"nn.conv2d\")(wildcard(), wildcard()))\n    require nn.conv2d attr.stride == 1 \"x\"\n",
         "t.backend:4:23: nn.conv2d has no attribute 'stride' (did you mean 'strides'?)"},
        {"kind npu\nbackend t\n", "t.backend:1:1: 'backend NAME' must come first, before 'kind'"},
        {"# c\ndefine c = wildcard()\nbackend t\n", "t.backend:2:1: 'backend NAME' must come first, before 'define'"},
        {"backend t\noption rows 8\nkind npu\n", "t.backend:3:1: 'kind' must come before the option lines (line 2 sets a parameter of the kind)"},
        {"backend t\nkind npu\nkind dsp\n", "t.backend:3:1: the kind is given twice"},
        {"backend t\nkind npu\noption dtypes \"float32,int8\"\n",
         "t.backend:3:8: the dtypes are the backend's one list, for placement and the device: write 'dtypes float32 int8' (a directive) instead of an option"},
        {"backend t\nkind library\noption rows 8\n", "t.backend:3:8: a library backend has no device parameters (option 'rows')"},
        {"backend t\nkind npu\ndtypes float32 int9\n", "t.backend:3:16: unknown dtype 'int9' (did you mean 'int8'?)"},
        {"backend t\nkind npu\ndtypes float32\ndtypes int8\n", "t.backend:4:1: the dtypes are given twice"},
    };
    for (size_t i = 0; i < sizeof parse_errors / sizeof parse_errors[0]; ++i) {
        byoc_diag d;
        byoc_backend_spec *b = byoc_backend_parse(parse_errors[i].text, strlen(parse_errors[i].text), "t.backend", &d);
        CHECKF(!b && !strcmp(d.message, parse_errors[i].message), "case %d: got \"%s\", want \"%s\"", (int)i, b ? "(accepted)" : d.message, parse_errors[i].message);
        byoc_backend_free(b);
    }
    /* the kind: a registered device kind, or `library`; its position is kept for the simulator's check */
    byoc_diag d;
    char want[512], about[640];
    const char *bad_kind = write_backend("bad_kind", "backend tiny64\nkind npuu\nsupports nn.conv2d\n");
    CHECK(byoc_sim_backend_open(bad_kind, &d) == NULL);
    snprintf(want, sizeof want, "%s:2:6: kind 'npuu' is not a registered device kind (kinds: npu, dsp; did you mean 'npu'?)", bad_kind);
    CHECKF(!strcmp(d.message, want), "got \"%s\"", d.message);
    const char *no_kind = write_backend("no_kind", "# an 8x8 accelerator\nbackend tiny64\noption rows 8\nsupports nn.conv2d\n");
    CHECK(byoc_sim_backend_open(no_kind, &d) == NULL);
    snprintf(want, sizeof want, "%s:2:9: backend 'tiny64' has no way to run its ops: no 'kind' line, and 'tiny64' is not a registered device kind (kinds: npu, dsp)", no_kind);
    CHECKF(!strncmp(d.message, want, strlen(want)) && strstr(d.message, "'kind library'"), "got \"%s\"", d.message);
    const char *lib = write_backend("library", "backend tiny64lib\nkind library\ndtypes float32\nsupports nn.conv2d\n");
    byoc_sim_backend *l = byoc_sim_backend_open(lib, &d);
    CHECKF(l && l->spec->library && !l->target, "%s", d.message);
    byoc_sim_backend_describe(l, about, sizeof about);
    CHECKF(!strcmp(about, "tiny64lib (a library backend: host kernels)"), "got \"%s\"", about);
    /* a device backend with its own parameters and one dtypes list: int8 in, int32 out */
    const char *tiny = write_backend("tiny64", "backend tiny64\nkind npu\noption rows 8\noption cols 8\ndtypes float32 int8 int32\nsupports nn.conv2d\n"
                                               "    require dtype in [float32, int8] \"computes in float32 or int8\"\n");
    byoc_sim_backend *t = byoc_sim_backend_open(tiny, &d);
    CHECKF(t != NULL, "%s", d.message);
    if (t) {
        byoc_sim_backend_describe(t, about, sizeof about);
        const char *text = about;
        CHECK_CONTAINS(text, "tiny64 (npu kind: 8x8 MACs output-stationary at 500 MHz");
        CHECK_CONTAINS(text, "float32,int8,int32; from preset ethos-u55-256 with rows, cols, dtypes overridden)");
        CHECK(t->spec->ndtypes == 3 && t->device.dtypes == ((1u << BYOC_FLOAT32) | (1u << BYOC_INT8) | (1u << BYOC_INT32)));
        static const char qconv[] = "def @main(%x: Tensor[(1, 4, 8, 8), int8], %w: Tensor[(8, 4, 3, 3), int8]) {\n"
                                    "  nn.conv2d(%x, %w, padding=[1, 1, 1, 1], out_dtype=\"int32\")\n}\n";
        byoc_module *m = byoc_module_parse(qconv, sizeof qconv - 1, "q.relay", NULL, &d);
        CHECKF(m && byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
        char why[256] = "";
        const byoc_node *conv = m ? byoc_module_function(m, "main")->body : NULL;
        CHECKF(conv && byoc_backend_accepts(t->spec, conv, why, sizeof why), "declined: %s", why);
        CHECKF(conv && l && !byoc_backend_accepts(l->spec, conv, why, sizeof why) && !strcmp(why, "out.dtype=int32 (not one of its dtypes: float32)"), "got \"%s\"", why);
        byoc_module_destroy(m);
    }
    byoc_sim_backend_close(t);
    byoc_sim_backend_close(l);
    remove(bad_kind), remove(no_kind), remove(lib), remove(tiny);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {TEST_ENTRY(test_presets_and_options), TEST_ENTRY(test_constraint_reasons), TEST_ENTRY(test_partitioned_matches_host),
                                      TEST_ENTRY(test_estimator_agrees),    TEST_ENTRY(test_blob_validation),    TEST_ENTRY(test_depthwise_on_npu),    TEST_ENTRY(test_patch_cache_never_stale),    TEST_ENTRY(test_trace),
                                      TEST_ENTRY(test_backend_files_validated)};
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
