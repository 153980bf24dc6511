/* bench_devices -- the simulated SoC on every shared model, partitioned greedily across the built-in
   npu and dsp backends:
   - the analytic estimator against the simulator: est/sim cycles of every device kernel, as a
     distribution per device;
   - functional speed: wall time of each device partition's command stream (tiles, DMA copies, kernels)
     against the host kernels running the same partition in a host-only build, medians of RUNS runs;
   - int8 layers beside their float32 versions (conv 3x3, 1x1, strided, depthwise, dense) on the npu and the
     dsp: simulated cycles, MAC utilisation, DRAM bytes, estimate against simulator;
   - every model quantized (byoc_quantize_onnx: per channel, calibrated on its input_K.npy) beside its float32
     version: simulated latency all on the host, greedy on npu + dsp, and Collage's plan.
   Usage: bench_devices MODELS_DIR RUNS OUT.json. Prints markdown tables; writes the rows to OUT.json. */
#define BYOC_SIM_IMPLEMENTATION
#include "../byoc_sim.h"
#define BYOC_ONNX_IMPLEMENTATION
#include "byoc_onnx.h"
#define BYOC_QUANTIZE_IMPLEMENTATION
#include "byoc_quantize.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench_util.h"

typedef struct partition_time {
    char name[96];
    char device[8];
    double device_seconds, host_seconds;
} partition_time;

static double *ratios[2]; /* est/sim per device kernel: [0] npu, [1] dsp */
static int nratios[2], cap_ratios[2];

static void add_ratio(int dev, double r) {
    if (nratios[dev] == cap_ratios[dev]) {
        cap_ratios[dev] = cap_ratios[dev] ? 2 * cap_ratios[dev] : 256;
        ratios[dev] = (double *)realloc(ratios[dev], sizeof(double) * (size_t)cap_ratios[dev]);
        if (!ratios[dev]) { fprintf(stderr, "bench_devices: out of memory\n"); exit(3); }
    }
    ratios[dev][nratios[dev]++] = r;
}



/* import, simplify, fold, place greedily on the backends; with hooks, lower device partitions to command
   streams (else their ops run on the host kernels); fuse and lower */
static byoc_sim_program *build(const char *path, byoc_sim_backend **b, int nb, int hooks, byoc_module **out, byoc_diag *d) {
    byoc_onnx_options o;
    memset(&o, 0, sizeof o);
    o.free_dim_default = 1;
    byoc_onnx_model model;
    *out = NULL;
    if (byoc_onnx_load(path, &o, &model, d) != BYOC_OK) return NULL;
    byoc_module *m = model.module;
    byoc_free(m, (void *)model.input_names);
    byoc_free(m, (void *)model.output_names);
    byoc_free(m, (void *)model.notes);
    byoc_free(m, (void *)model.node_spans);
    byoc_free(m, (void *)model.node_ops);
    byoc_free(m, (void *)model.node_folded);
    *out = m;
    const byoc_backend_spec *specs[2];
    const byoc_target *targets[2];
    for (int i = 0; i < nb; ++i) specs[i] = b[i]->spec, targets[i] = b[i]->target;
    byoc_partition_options po;
    memset(&po, 0, sizeof po);
    po.backends = specs;
    po.nbackends = nb;
    po.bind_constants = 1;
    if (byoc_prepare_for_partition(m, NULL, d) != BYOC_OK || byoc_partition_greedy(m, &po, NULL, d) != BYOC_OK) return NULL;
    if (hooks && byoc_run_target_hooks(m, targets, nb, d) != BYOC_OK) return NULL;
    if (byoc_fuse_ops(m, 256, d) != BYOC_OK) return NULL;
    return byoc_sim_lower(m, NULL, d);
}

static int run_profiled(byoc_sim_program *p, byoc_tensor *in, int nin, int runs, byoc_diag *d) {
    byoc_tensor out[64];
    int nout = byoc_sim_output_count(p);
    if (nout > 64) return 0;
    if (byoc_sim_run(p, in, nin, out, nout, d) != BYOC_OK) return 0; /* warm-up */
    byoc_sim_profile_reset(p);
    for (int r = 0; r < runs; ++r)
        if (byoc_sim_run(p, in, nin, out, nout, d) != BYOC_OK) return 0;
    return 1;
}

/* one model: estimator ratios of its device kernels, and device against host wall time per partition */
static int bench_model(const char *label, const char *path, byoc_sim_backend **b, int runs, FILE *json, int *first, double *sum_dev, double *sum_host) {
    byoc_diag d;
    byoc_module *m = NULL, *hm = NULL;
    byoc_sim_program *p = build(path, b, 2, 1, &m, &d), *hp = p ? build(path, b, 2, 0, &hm, &d) : NULL;
    byoc_tensor in[16];
    memset(in, 0, sizeof in);
    int nin = hp ? make_inputs(p, in, 16) : -1;
    int ok = nin >= 0 && run_profiled(p, in, nin, runs, &d) && run_profiled(hp, in, nin, runs, &d);
    if (!ok) {
        printf("| %s | error: %s | | | | |\n", label, d.message);
    } else {
        /* the estimator on every device kernel */
        int nk = byoc_sim_kernel_count(p), ndev = 0, within = 0;
        double worst = 1;
        partition_time parts[512];
        int nparts = 0;
        for (int i = 0; i < nk; ++i) {
            const byoc_sim_kernel_info *k = byoc_sim_kernel(p, i);
            int dev = !strcmp(k->device_kind, "npu") ? 0 : !strcmp(k->device_kind, "dsp") ? 1 : -1;
            if (dev < 0 || !k->partition) continue;
            byoc_sim_cost est;
            if (byoc_sim_estimate(m, k->partition, &b[dev]->device, &est, &d) != BYOC_OK || !k->cycles) continue;
            double r = (double)est.cycles / (double)k->cycles;
            add_ratio(dev, r);
            ndev++;
            within += r >= 0.9 && r <= 1.1;
            if (fabs(r - 1) > fabs(worst - 1)) worst = r;
            if (nparts < 512) {
                partition_time *pt = &parts[nparts++];
                snprintf(pt->name, sizeof pt->name, "%s", k->partition);
                snprintf(pt->device, sizeof pt->device, "%s", k->device_kind);
                pt->device_seconds = k->median_seconds;
                pt->host_seconds = 0;
            }
        }
        /* the same partitions' ops on the host kernels */
        for (int i = 0; i < byoc_sim_kernel_count(hp); ++i) {
            const byoc_sim_kernel_info *k = byoc_sim_kernel(hp, i);
            for (int j = 0; k->partition && j < nparts; ++j)
                if (!strcmp(parts[j].name, k->partition)) parts[j].host_seconds += k->median_seconds;
        }
        double dev_s[2] = {0, 0}, host_s[2] = {0, 0};
        for (int j = 0; j < nparts; ++j) {
            int dv = !strcmp(parts[j].device, "dsp");
            dev_s[dv] += parts[j].device_seconds;
            host_s[dv] += parts[j].host_seconds;
        }
        sum_dev[0] += dev_s[0], sum_dev[1] += dev_s[1], sum_host[0] += host_s[0], sum_host[1] += host_s[1];
        char npu_ratio[32] = "-", dsp_ratio[32] = "-";
        if (host_s[0] > 0) snprintf(npu_ratio, sizeof npu_ratio, "%.2f", dev_s[0] / host_s[0]);
        if (host_s[1] > 0) snprintf(dsp_ratio, sizeof dsp_ratio, "%.2f", dev_s[1] / host_s[1]);
        printf("| %s | %d | %d (%.0f%%) | %.3f | %.3f / %.3f | %s | %.3f / %.3f | %s |\n", label, ndev, within, ndev ? 100.0 * within / ndev : 0.0, worst,
               1e3 * dev_s[0], 1e3 * host_s[0], npu_ratio, 1e3 * dev_s[1], 1e3 * host_s[1], dsp_ratio);
        fprintf(json, "%s{\"model\": \"%s\", \"device_kernels\": %d, \"estimate_within_10pct\": %d, \"worst_est_over_sim\": %.4f, "
                      "\"npu_ms\": %.4f, \"npu_host_ms\": %.4f, \"dsp_ms\": %.4f, \"dsp_host_ms\": %.4f}",
                *first ? "" : ",\n", label, ndev, within, worst, 1e3 * dev_s[0], 1e3 * host_s[0], 1e3 * dev_s[1], 1e3 * host_s[1]);
        *first = 0;
    }
    for (int i = 0; i < 16; ++i) free(in[i].data);
    byoc_sim_program_destroy(p);
    byoc_sim_program_destroy(hp);
    if (m) byoc_module_destroy(m);
    if (hm) byoc_module_destroy(hm);
    return ok;
}



/* ---- int8 layers beside float32 ---- */
typedef struct layer_cost {
    int ok;
    uint64_t cycles, dram_bytes;
    double mac_util, est_over_sim;
} layer_cost;

/* one layer as a module: float32 (conv + bias + relu, dense + bias) or int8 (qnn anchor + int32 bias +
   per-channel requantize + clip), shapes NCHW */
static void layer_text(char *out, size_t cap, int int8, int c, int hw, int k, int kernel, int stride, int groups,
                       int dense) {
    int pad = kernel / 2, wc = groups > 1 ? 1 : c;
    if (dense && !int8)
        snprintf(out, cap,
                 "def @main(%%x: Tensor[(1, %d), float32]) {\n"
                 "  %%0 = nn.dense(%%x, meta[relay.Constant][0] /* ty=Tensor[(%d, %d), float32] */);\n"
                 "  add(%%0, meta[relay.Constant][1] /* ty=Tensor[(%d), float32] */)\n}\n",
                 c, k, c, k);
    else if (dense)
        snprintf(out, cap,
                 "def @main(%%x: Tensor[(1, %d), int8]) {\n"
                 "  %%0 = qnn.dense(%%x, meta[relay.Constant][0] /* ty=Tensor[(%d, %d), int8] */, 0, 0, 0.01f, "
                 "0.01f);\n"
                 "  %%1 = nn.bias_add(%%0, meta[relay.Constant][1] /* ty=Tensor[(%d), int32] */);\n"
                 "  qnn.requantize(%%1, 0.0001f, 0, 0.05f, 0, out_dtype=\"int8\")\n}\n",
                 c, k, c, k);
    else if (!int8)
        snprintf(out, cap,
                 "def @main(%%x: Tensor[(1, %d, %d, %d), float32]) {\n"
                 "  %%0 = nn.conv2d(%%x, meta[relay.Constant][0] /* ty=Tensor[(%d, %d, %d, %d), float32] */, "
                 "strides=[%d, %d], padding=[%d, %d, %d, %d], groups=%d);\n"
                 "  %%1 = add(%%0, meta[relay.Constant][1] /* ty=Tensor[(%d, 1, 1), float32] */);\n  nn.relu(%%1)\n}\n",
                 c, hw, hw, k, wc, kernel, kernel, stride, stride, pad, pad, pad, pad, groups, k);
    else
        snprintf(out, cap,
                 "def @main(%%x: Tensor[(1, %d, %d, %d), int8]) {\n"
                 "  %%s = add(abs(meta[relay.Constant][1] /* ty=Tensor[(%d), float32] */), 0.001f);\n"
                 "  %%0 = qnn.conv2d(%%x, meta[relay.Constant][0] /* ty=Tensor[(%d, %d, %d, %d), int8] */, 0, 0, "
                 "0.01f, %%s, strides=[%d, %d], padding=[%d, %d, %d, %d], groups=%d);\n"
                 "  %%1 = nn.bias_add(%%0, meta[relay.Constant][2] /* ty=Tensor[(%d), int32] */);\n"
                 "  %%2 = qnn.requantize(%%1, multiply(0.01f, %%s), 0, 0.05f, 0, axis=1, out_dtype=\"int8\");\n"
                 "  clip(%%2, a_min=0f, a_max=127f)\n}\n",
                 c, hw, hw, k, k, wc, kernel, kernel, stride, stride, pad, pad, pad, pad, groups, k);
}

/* the layer placed greedily on backend b, run once: its device kernel's cycles, against the estimate */
static layer_cost layer_on(const char *text, byoc_sim_backend *b) {
    layer_cost lc;
    memset(&lc, 0, sizeof lc);
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, strlen(text), "layer.relay", NULL, &d);
    const byoc_backend_spec *spec = b->spec;
    const byoc_target *target = b->target;
    byoc_partition_options po;
    memset(&po, 0, sizeof po);
    po.backends = &spec;
    po.nbackends = 1;
    po.bind_constants = 1;
    byoc_sim_program *p = NULL;
    byoc_tensor in[4], out[4];
    memset(in, 0, sizeof in);
    if (m && byoc_infer_type(m, &d) == BYOC_OK && byoc_fold_constant(m, &d) == BYOC_OK &&
        byoc_infer_type(m, &d) == BYOC_OK && byoc_partition_greedy(m, &po, NULL, &d) == BYOC_OK &&
        byoc_run_target_hooks(m, &target, 1, &d) == BYOC_OK && (p = byoc_sim_lower(m, NULL, &d)) &&
        make_inputs(p, in, 4) == 1 && byoc_sim_output_count(p) == 1 && byoc_sim_run(p, in, 1, out, 1, &d) == BYOC_OK) {
        for (int i = 0; i < byoc_sim_kernel_count(p); ++i) {
            const byoc_sim_kernel_info *k = byoc_sim_kernel(p, i);
            byoc_sim_cost est;
            if (!k->partition || !strcmp(k->device_kind, "host") || !k->cycles || !k->macs ||
                byoc_sim_estimate(m, k->partition, &b->device, &est, &d) != BYOC_OK)
                continue;
            lc.ok = 1, lc.cycles += k->cycles, lc.dram_bytes += k->dram_bytes, lc.mac_util = k->mac_utilization;
            lc.est_over_sim = (double)est.cycles / (double)k->cycles;
        }
    }
    free(in[0].data);
    byoc_sim_program_destroy(p);
    if (m) byoc_module_destroy(m);
    return lc;
}

static void bench_int8_layers(byoc_sim_backend **b, FILE *json) {
    static const struct {
        const char *name;
        int c, hw, k, kernel, stride, groups, dense;
    } layers[] = {{"conv 3x3 64->64 28x28", 64, 28, 64, 3, 1, 1, 0},
                  {"conv 1x1 64->128 28x28", 64, 28, 128, 1, 1, 1, 0},
                  {"conv 3x3/2 64->128 28x28", 64, 28, 128, 3, 2, 1, 0},
                  {"depthwise 3x3 128 28x28", 128, 28, 128, 3, 1, 128, 0},
                  {"dense 1024->1000", 1024, 1, 1000, 1, 1, 1, 1}};
    printf("## int8 layers beside float32 on the simulated devices (greedy on one backend; est/sim of the device "
           "kernel; '- (host)': the layer's anchor stays on the host)\n\n");
    printf("| layer | device | f32 cycles | int8 cycles | f32 / int8 | MAC util f32 / int8 | DRAM KB f32 / int8 "
           "| est/sim f32 / int8 |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
    fprintf(json, ",\n\"int8_layers\": [");
    int first = 1;
    char text[2][1024];
    for (size_t i = 0; i < sizeof layers / sizeof layers[0]; ++i)
        for (int dv = 0; dv < 2; ++dv) {
            layer_cost lc[2];
            for (int q = 0; q < 2; ++q) {
                layer_text(text[q], sizeof text[q], q, layers[i].c, layers[i].hw, layers[i].k, layers[i].kernel,
                           layers[i].stride, layers[i].groups, layers[i].dense);
                lc[q] = layer_on(text[q], b[dv]);
            }
            char f32[32] = "- (host)", ratio[32] = "-", util[48], dram[48], est[48];
            if (lc[0].ok) snprintf(f32, sizeof f32, "%llu", (unsigned long long)lc[0].cycles);
            if (lc[0].ok && lc[1].ok)
                snprintf(ratio, sizeof ratio, "%.2fx", (double)lc[0].cycles / (double)lc[1].cycles);
            snprintf(util, sizeof util, "%.0f%% / %.0f%%", 100 * lc[0].mac_util, 100 * lc[1].mac_util);
            snprintf(dram, sizeof dram, "%.1f / %.1f", lc[0].dram_bytes / 1024.0, lc[1].dram_bytes / 1024.0);
            snprintf(est, sizeof est, "%.3f / %.3f", lc[0].est_over_sim, lc[1].est_over_sim);
            printf("| %s | %s | %s | %llu | %s | %s | %s | %s |\n", layers[i].name, dv ? "dsp" : "npu", f32,
                   (unsigned long long)lc[1].cycles, ratio, dv ? "-" : util, dram, est);
            fprintf(json, "%s{\"layer\": \"%s\", \"device\": \"%s\", \"f32_cycles\": %llu, \"int8_cycles\": %llu, "
                          "\"f32_est_over_sim\": %.4f, \"int8_est_over_sim\": %.4f}",
                    first ? "\n" : ",\n", layers[i].name, dv ? "dsp" : "npu", (unsigned long long)lc[0].cycles,
                    (unsigned long long)lc[1].cycles, lc[0].est_over_sim, lc[1].est_over_sim);
            first = 0;
        }
    fprintf(json, "\n]");
    printf("\n");
}

/* ---- quantized models beside float32 ---- */
/* the model (ONNX bytes) placed by strategy (0 host, 1 greedy, 2 Collage) on npu + dsp, run once on seeded
   inputs: its simulated latency in seconds, or a negative number with the error in d */
static double simulated_latency(const void *onnx, size_t size, const char *name, byoc_sim_backend **b, int strategy,
                                byoc_diag *d) {
    byoc_onnx_options oo;
    memset(&oo, 0, sizeof oo);
    oo.free_dim_default = 1;
    byoc_onnx_model model;
    if (byoc_onnx_import(onnx, size, name, &oo, &model, d) != BYOC_OK) return -1;
    byoc_module *m = model.module;
    const byoc_backend_spec *specs[2] = {b[0]->spec, b[1]->spec};
    const byoc_target *targets[2] = {b[0]->target, b[1]->target};
    byoc_sim_collage_devices cd;
    memset(&cd, 0, sizeof cd);
    cd.backends = (const byoc_sim_backend *const *)b;
    cd.count = 2;
    int ok = byoc_prepare_for_partition(m, NULL, d) == BYOC_OK;
    if (ok && strategy == 1) {
        byoc_partition_options po;
        memset(&po, 0, sizeof po);
        po.backends = specs, po.nbackends = 2, po.bind_constants = 1;
        ok = byoc_partition_greedy(m, &po, NULL, d) == BYOC_OK;
    } else if (ok && strategy == 2) {
        byoc_collage_options co;
        memset(&co, 0, sizeof co);
        co.backends = specs, co.nbackends = 2, co.cost = byoc_sim_collage_cost, co.cost_data = &cd;
        co.bind_constants = 1;
        ok = byoc_partition_collage(m, &co, NULL, NULL, d) == BYOC_OK;
    }
    if (ok && strategy) ok = byoc_run_target_hooks(m, targets, 2, d) == BYOC_OK;
    ok = ok && byoc_fuse_ops(m, 256, d) == BYOC_OK;
    byoc_sim_program *p = ok ? byoc_sim_lower(m, NULL, d) : NULL;
    byoc_tensor in[16], out[64];
    memset(in, 0, sizeof in);
    int nin = p ? make_inputs(p, in, 16) : -1;
    ok = nin >= 0 && byoc_sim_output_count(p) <= 64 && byoc_sim_run(p, in, nin, out, byoc_sim_output_count(p), d) == BYOC_OK;
    double latency = ok ? byoc_sim_latency(p) : -1;
    for (int i = 0; i < 16; ++i) free(in[i].data);
    byoc_sim_program_destroy(p);
    byoc_sim_collage_devices_release(&cd);
    byoc_module_destroy(m);
    return latency;
}

static int read_file(const char *path, void **data, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    int ok = fseek(f, 0, SEEK_END) == 0;
    long n = ok ? ftell(f) : -1;
    ok = n > 0 && fseek(f, 0, SEEK_SET) == 0 && (*data = malloc((size_t)n)) != NULL;
    ok = ok && fread(*data, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    *size = ok ? (size_t)n : 0;
    return ok;
}

typedef struct quantized_run {
    byoc_sim_backend **b;
    FILE *json;
    int first;
} quantized_run;
static void bench_quantized(const char *label, const char *path, void *user) {
    quantized_run *r = (quantized_run *)user;
    byoc_diag d;
    memset(&d, 0, sizeof d);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    void *onnx = NULL;
    size_t size = 0;
    byoc_quantize_calibration cal;
    memset(&cal, 0, sizeof cal);
    byoc_quantize_result q;
    memset(&q, 0, sizeof q);
    int ok = read_file(path, &onnx, &size) && byoc_quantize_calibration_read(dir, &cal, &d) == BYOC_OK;
    if (ok) {
        byoc_quantize_options qo;
        memset(&qo, 0, sizeof qo);
        qo.per_channel = 1;
        qo.samples = cal.tensors, qo.nsamples = cal.nsamples, qo.ninputs = cal.ninputs;
        ok = byoc_quantize_onnx(onnx, size, path, &qo, &q, &d) == BYOC_OK;
    }
    double ms[2][3];
    for (int v = 0; ok && v < 2; ++v)
        for (int st = 0; st < 3; ++st) {
            double t = v ? simulated_latency(q.bytes, q.size, label, r->b, st, &d) : simulated_latency(onnx, size, label, r->b, st, &d);
            ms[v][st] = 1e3 * t;
            if (t < 0) ok = 0;
        }
    if (!ok) {
        printf("| %s | error: %.200s | | | | | |\n", label, d.message[0] ? d.message : "no model or calibration");
    } else {
        printf("| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", label, ms[0][0], ms[1][0], ms[0][1], ms[1][1],
               ms[0][2], ms[1][2]);
        fprintf(r->json, "%s{\"model\": \"%s\", \"f32_host_ms\": %.4f, \"int8_host_ms\": %.4f, \"f32_greedy_ms\": %.4f, "
                         "\"int8_greedy_ms\": %.4f, \"f32_collage_ms\": %.4f, \"int8_collage_ms\": %.4f}",
                r->first ? "\n" : ",\n", label, ms[0][0], ms[1][0], ms[0][1], ms[1][1], ms[0][2], ms[1][2]);
        r->first = 0;
    }
    byoc_quantize_result_free(&q);
    byoc_quantize_calibration_free(&cal);
    free(onnx);
}

typedef struct model_run {
    byoc_sim_backend **b;
    int runs;
    FILE *json;
    int *first;
    double *sum_dev, *sum_host;
    int failed;
} model_run;
static void bench_one(const char *label, const char *path, void *user) {
    model_run *r = (model_run *)user;
    r->failed += !bench_model(label, path, r->b, r->runs, r->json, r->first, r->sum_dev, r->sum_host);
}

int main(int argc, char **argv) {
    int args = tool_args(argc, argv,
                         "bench_devices [MODELS_DIR [RUNS [OUT.json]]]   "
                         "(default ../shared/models 5 build/bench_devices.json)");
    if (args >= 0) return args;
    const char *models = argc > 1 ? argv[1] : "../shared/models";
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    const char *out_path = argc > 3 ? argv[3] : "build/bench_devices.json";
    if (runs < 1) runs = 1;
    byoc_diag d;
    byoc_sim_backend *b[2] = {byoc_sim_backend_open("npu", &d), byoc_sim_backend_open("dsp", &d)};
    if (!b[0] || !b[1]) { fprintf(stderr, "bench_devices: %s\n", d.message); return 3; }
    FILE *json = fopen(out_path, "w");
    if (!json) { fprintf(stderr, "bench_devices: cannot write %s\n", out_path); return 3; }
    printf("## Simulated SoC: every shared model on npu + dsp + host (greedy placement; wall ms are medians of %d runs)\n\n", runs);
    printf("Estimator: est/sim cycles of each device kernel. Functional speed: the device partitions' command streams\n");
    printf("against the host kernels on the same partitions (host-only build), wall ms on this machine.\n\n");
    printf("| model | device kernels | estimate within 10%% | worst est/sim | npu ms / host ms | npu / host | dsp ms / host ms | dsp / host |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    fprintf(json, "{\"models\": [\n");
    int first = 1, failed = 0;
    double sum_dev[2] = {0, 0}, sum_host[2] = {0, 0};
    model_run run = {b, runs, json, &first, sum_dev, sum_host, 0};
    if (!for_each_model(models, bench_one, &run)) printf("| (no models in %s: BYOC_MODELS=DIR points elsewhere) | | | | | | | |\n", models);
    failed = run.failed;
    printf("\nAll models: npu command streams %.1f ms against %.1f ms of host kernels (%.2fx), dsp %.1f ms against %.1f ms (%.2fx)\n\n", 1e3 * sum_dev[0],
           1e3 * sum_host[0], sum_host[0] > 0 ? sum_dev[0] / sum_host[0] : 0.0, 1e3 * sum_dev[1], 1e3 * sum_host[1], sum_host[1] > 0 ? sum_dev[1] / sum_host[1] : 0.0);
    printf("| device | kernels | min | p10 | median | p90 | max | within 10%% |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
    fprintf(json, "],\n\"estimator\": [");
    for (int dv = 0; dv < 2; ++dv) {
        int n = nratios[dv], within = 0;
        if (!n) continue;
        qsort(ratios[dv], (size_t)n, sizeof(double), by_value);
        for (int i = 0; i < n; ++i) within += ratios[dv][i] >= 0.9 && ratios[dv][i] <= 1.1;
        double *r = ratios[dv];
        printf("| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %d (%.1f%%) |\n", dv ? "dsp" : "npu", n, r[0], r[n / 10], r[n / 2], r[(n * 9) / 10], r[n - 1], within,
               100.0 * within / n);
        fprintf(json, "%s{\"device\": \"%s\", \"kernels\": %d, \"min\": %.4f, \"p10\": %.4f, \"median\": %.4f, \"p90\": %.4f, \"max\": %.4f, \"within_10pct\": %d}",
                dv ? ",\n" : "\n", dv ? "dsp" : "npu", n, r[0], r[n / 10], r[n / 2], r[(n * 9) / 10], r[n - 1], within);
        free(ratios[dv]);
    }
    fprintf(json, "\n]");
    printf("\n");
    bench_int8_layers(b, json);
    printf("## Quantized models beside float32: simulated latency in ms (byoc_quantize_onnx per channel, calibrated on "
           "the model's inputs; host alone, greedy on npu + dsp, Collage)\n\n");
    printf("| model | f32 host | int8 host | f32 greedy | int8 greedy | f32 collage | int8 collage |\n"
           "|---|---:|---:|---:|---:|---:|---:|\n");
    fprintf(json, ",\n\"quantized_models\": [");
    quantized_run qr = {b, json, 1};
    for_each_model(models, bench_quantized, &qr);
    fprintf(json, "\n]");
    printf("\n");
    fprintf(json, "}\n");
    fclose(json);
    byoc_sim_backend_close(b[0]);
    byoc_sim_backend_close(b[1]);
    return failed ? 1 : 0;
}
