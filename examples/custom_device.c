/* custom_device.c -- a third simulated device kind, added from outside the headers: a vector unit "vpu"
   with its own preset, the ops it runs (elementwise arithmetic and activations, and reductions), a cycle
   model, a constraint with its reason, and its own execution hook. A real model is placed on it beside the
   built-in npu and dsp, greedily and by the Collage search, compiled (relay_to_tir / tir_to_runtime: command
   streams), run by byoc_sim exactly as `byocc run` does, saved as a .byoc and loaded back, and every output
   is checked against the host-only run of the same model: max |diff| <= 1e-4 x max(1, max |reference|).

   Build and run (from the repository root):
       cc -std=c99 -O2 -I. examples/custom_device.c -o build/custom_device -lm && build/custom_device [MODEL.onnx|MODEL.relay]

   Without an argument it runs ../shared/models/ultraface_rfb320/model.onnx, or tests/inputs/mnist.relay when
   ../shared/models is absent (and says so). Prints "ok custom_device_greedy" and "ok custom_device_collage",
   or "FAIL ...: why", and exits 1 on a failure. */
#define BYOC_IMPLEMENTATION
#define BYOC_ONNX_IMPLEMENTATION
#define BYOC_SIM_IMPLEMENTATION
#include "byoc.h"
#include "byoc_sim.h"
#include "tools/byoc_onnx.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the vpu: a 64-lane float32 vector unit with 512 KB of local memory ---- */
static const byoc_sim_device vpu_presets[] = {
    /* kind (set at registration), preset, clock MHz, rows, cols, dataflow, lanes, SRAM bytes, DRAM bytes/cycle, DRAM latency,
       burst bytes, launch cycles, double buffering, dtypes */
    {0, "vpu-64", 1200.0, 0, 0, BYOC_SIM_OUTPUT_STATIONARY, 64, 512 * 1024, 32.0, 150, 64, 400, 1, 1u << BYOC_FLOAT32}};
static const char *const vpu_about[] = {"64 float32 lanes at 1.2 GHz, 512 KB local memory, 32 B/cycle DMA, 400-cycle launch"};
/* the elementwise ops it runs (every REDUCE op too: classes below) */
static const char *const vpu_ops[] = {"add", "subtract", "multiply", "divide", "maximum", "minimum", "nn.relu", "clip", "nn.bias_add",
                                      "exp", "sigmoid", "tanh", "sqrt", NULL};
static const char vpu_spec[] = "# the vpu's built-in backend: what greedy placement offers it\n"
                               "backend vpu\n"
                               "kind vpu\n"
                               "priority 15\n"
                               "supports add subtract multiply divide maximum minimum nn.relu clip nn.bias_add exp sigmoid tanh sqrt\n"
                               "supports mean sum max min\n";

/* what the cycle model needs to know about ops: looked up once, compared by pointer */
static const byoc_op *vpu_slow[5]; /* exp, sigmoid, tanh, divide, sqrt: iterative, 6 cycles per vector */
static long vpu_calls_executed;    /* what the execution hook saw */

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
static uint64_t elements(const byoc_type *t) { return (uint64_t)byoc_type_num_elements(t); }

/* cycles of one compute command: calls[0] the layer's anchor, then its fused epilogue, on the tile's shapes */
static uint64_t vpu_cycles(const byoc_sim_device *dev, const byoc_node *const *calls, int ncalls, uint64_t *macs, void *user_data) {
    (void)user_data;
    uint64_t lanes = (uint64_t)dev->lanes, cycles = 0;
    for (int i = 0; i < ncalls; ++i) {
        const byoc_node *c = calls[i];
        if (c->op->def.device_class == BYOC_OP_CLASS_REDUCE) { /* a pass over the input, then a lane tree per result */
            cycles += ceil_div(elements(c->args[0]->checked_type), lanes) + 6 * elements(c->checked_type);
            continue;
        }
        uint64_t per_vector = 1;
        for (int k = 0; k < 5; ++k)
            if (vpu_slow[k] == c->op) per_vector = 6;
        cycles += ceil_div(elements(c->checked_type), lanes) * per_vector + 4; /* + pipeline fill */
    }
    *macs = 0;
    return cycles;
}
/* a constraint beyond the shared ones, with the reason users see */
static int vpu_accepts(const byoc_sim_device *dev, const byoc_node *call, char *reason, size_t cap, void *user_data) {
    (void)dev, (void)user_data;
    if (call->checked_type->rank > 4) return snprintf(reason, cap, "vpu: tensors of rank %d (at most 4)", call->checked_type->rank), 0;
    return 1;
}
/* executes one call on its SRAM tiles: here byoc.h's host kernel, counted (a driver call on real hardware) */
static byoc_result vpu_execute(const byoc_sim_device *dev, const byoc_node *call, const byoc_tensor *args, int nargs, byoc_tensor *result,
                               void *workspace, byoc_diag *diag, void *user_data) {
    (void)dev, (void)user_data;
    vpu_calls_executed++;
    return byoc_kernel_run(call, args, nargs, result, 1, workspace, diag);
}

static int register_vpu(byoc_diag *d) {
    const char *slow[5] = {"exp", "sigmoid", "tanh", "divide", "sqrt"};
    for (int k = 0; k < 5; ++k) vpu_slow[k] = byoc_op_get(slow[k]);
    byoc_sim_device_kind_def k;
    memset(&k, 0, sizeof k);
    k.name = "vpu";
    k.about = "vector unit: elementwise arithmetic and activations, reductions";
    k.presets = vpu_presets;
    k.preset_about = vpu_about;
    k.npresets = 1;
    k.spec_text = vpu_spec;
    k.classes = BYOC_SIM_CLASS(BYOC_OP_CLASS_REDUCE);
    k.ops = vpu_ops;
    k.fuse_epilogue = 1;
    k.accepts = vpu_accepts;
    k.compute_cycles = vpu_cycles;
    k.execute = vpu_execute;
    return byoc_sim_register_device_kind(&k, d) == BYOC_OK;
}

/* ---- the model ---- */
static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}
/* the model with inference simplified and constants folded, as byocc's pipeline starts */
static byoc_module *load(const char *path, byoc_diag *d) {
    byoc_module *m = NULL;
    if (ends_with(path, ".onnx")) {
        byoc_onnx_options o;
        memset(&o, 0, sizeof o);
        o.free_dim_default = 1;
        byoc_onnx_model model;
        if (byoc_onnx_load(path, &o, &model, d) != BYOC_OK) return NULL;
        m = model.module;
        const void *owned[] = {model.input_names, model.output_names, model.notes, model.node_spans, model.node_ops, model.node_folded};
        for (size_t i = 0; i < sizeof owned / sizeof owned[0]; ++i) byoc_free(m, (void *)owned[i]);
    } else {
        m = byoc_module_load(path, NULL, d);
    }
    if (m && (byoc_simplify_inference(m, d) != BYOC_OK || byoc_fold_constant(m, d) != BYOC_OK)) {
        byoc_module_destroy(m);
        return NULL;
    }
    return m;
}

/* seeded inputs, the same for every program of the model */
typedef struct inputs {
    byoc_tensor t[16];
    int n;
} inputs;
static int make_inputs(const byoc_sim_program *p, inputs *in) {
    in->n = byoc_sim_input_count(p);
    if (in->n > 16) return 0;
    for (int i = 0; i < in->n; ++i) {
        const byoc_sim_io *io = byoc_sim_input(p, i);
        byoc_tensor *t = &in->t[i];
        t->dtype = io->dtype;
        t->rank = io->rank;
        memcpy(t->dims, io->dims, sizeof t->dims);
        if (!(t->data = calloc(io->nbytes ? io->nbytes : 1, 1))) return 0;
        size_t n = io->nbytes / (size_t)byoc_dtype_size(io->dtype);
        for (size_t e = 0; e < n; ++e) {
            double v = sin(0.37 * (double)e + 1.3 * i);
            if (io->dtype == BYOC_FLOAT32) ((float *)t->data)[e] = (float)v;
            else if (io->dtype == BYOC_INT64) ((int64_t *)t->data)[e] = (int64_t)(e % 7);
            else if (io->dtype == BYOC_INT32) ((int32_t *)t->data)[e] = (int32_t)(e % 7);
        }
    }
    return 1;
}
static void free_inputs(inputs *in) {
    for (int i = 0; i < in->n; ++i) free(in->t[i].data);
}

/* the host-only run: every output copied out */
typedef struct outputs {
    float *data[16];
    size_t n[16];
    int count;
} outputs;
static int run_copy(byoc_sim_program *p, const inputs *in, outputs *out, byoc_diag *d) {
    byoc_tensor t[16];
    out->count = byoc_sim_output_count(p);
    if (out->count > 16 || byoc_sim_run(p, in->t, in->n, t, out->count, d) != BYOC_OK) return 0;
    for (int i = 0; i < out->count; ++i) {
        out->n[i] = 0;
        out->data[i] = NULL;
        if (t[i].dtype != BYOC_FLOAT32) continue; /* compared as floats only */
        out->n[i] = (size_t)byoc_sim_output(p, i)->nbytes / sizeof(float);
        out->data[i] = (float *)malloc(out->n[i] * sizeof(float) + 1);
        if (!out->data[i]) return 0;
        memcpy(out->data[i], t[i].data, out->n[i] * sizeof(float));
    }
    return 1;
}
static void free_outputs(outputs *o) {
    for (int i = 0; i < o->count; ++i) free(o->data[i]);
}
/* max |a - ref| over every output, and whether each is within 1e-4 x max(1, max |ref|) */
static int compare(const outputs *a, const outputs *ref, double *worst) {
    int ok = a->count == ref->count;
    *worst = 0;
    for (int i = 0; ok && i < ref->count; ++i) {
        double diff = 0, scale = 1;
        if (a->n[i] != ref->n[i]) return 0;
        for (size_t e = 0; e < ref->n[i]; ++e) {
            double x = fabs((double)a->data[i][e] - (double)ref->data[i][e]);
            if (!(x <= diff)) diff = x; /* NaN counts as the worst */
            if (fabs((double)ref->data[i][e]) > scale) scale = fabs((double)ref->data[i][e]);
        }
        if (diff > *worst || diff != diff) *worst = diff;
        ok = diff <= 1e-4 * scale;
    }
    return ok;
}

/* what ran where: kernels, ops and simulated time per device kind */
static void print_placement(const byoc_sim_program *p, const char *label) {
    int nk = byoc_sim_device_kind_count();
    printf("%s: simulated %.3f ms;", label, byoc_sim_latency(p) * 1e3);
    for (int k = 0; k < nk; ++k) {
        const char *name = byoc_sim_device_kind_at(k)->name;
        int kernels = 0, ops = 0;
        double sec = 0;
        for (int i = 0; i < byoc_sim_kernel_count(p); ++i) {
            const byoc_sim_kernel_info *ki = byoc_sim_kernel(p, i);
            if (strcmp(ki->device_kind, name)) continue;
            kernels++;
            ops += ki->nops ? ki->nops : 1;
            sec += ki->sim_seconds;
        }
        printf(" %s %d kernels (%d ops, %.3f ms)%s", name, kernels, ops, sec * 1e3, k + 1 < nk ? "," : "\n");
    }
}

/* places, compiles and runs the model on npu + vpu + dsp (+ host), as byocc run does; 1 when the outputs
   match the host-only run's */
static int place_and_run(const char *path, const char *strategy, byoc_sim_backend *const *b, int nb, const outputs *ref, int need_vpu, byoc_diag *d) {
    char why[BYOC_DIAG_MESSAGE_MAX + 64] = "";
    int ok = 0;
    byoc_module *m = load(path, d);
    byoc_placement_report *rep = NULL;
    byoc_sim_program *p = NULL;
    byoc_sim_executable *e = NULL;
    void *bytes = NULL;
    size_t size = 0;
    inputs in;
    outputs out, again;
    memset(&in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    memset(&again, 0, sizeof again);
    const byoc_backend_spec *specs[8];
    const byoc_target *targets[8];
    for (int i = 0; i < nb; ++i) specs[i] = b[i]->spec, targets[i] = b[i]->target;
    byoc_result r = m ? BYOC_OK : BYOC_ERR_INVALID_ARGUMENT;
    if (r == BYOC_OK && !strcmp(strategy, "greedy")) {
        byoc_partition_options po;
        memset(&po, 0, sizeof po);
        po.backends = specs;
        po.nbackends = nb;
        po.bind_constants = 1;
        r = byoc_partition_greedy(m, &po, &rep, d);
    } else if (r == BYOC_OK) {
        byoc_sim_collage_devices devices; /* the analytic estimator over the same device models */
        memset(&devices, 0, sizeof devices);
        devices.backends = (const byoc_sim_backend *const *)b;
        devices.count = nb;
        byoc_collage_options o;
        memset(&o, 0, sizeof o);
        o.backends = specs;
        o.nbackends = nb;
        o.bind_constants = 1;
        o.cost = byoc_sim_collage_cost;
        o.cost_data = &devices;
        o.plain_candidates = 1;
        byoc_collage_stats st;
        memset(&st, 0, sizeof st);
        r = byoc_partition_collage(m, &o, &st, &rep, d);
        byoc_collage_stats_free(&st);
        byoc_sim_collage_devices_release(&devices);
    }
    /* relay_to_tir: each partition to a command stream; tir_to_runtime: its blob, loaded */
    if (r == BYOC_OK) r = byoc_run_target_hooks(m, targets, nb, d);
    if (r == BYOC_OK) r = byoc_fuse_ops(m, 256, d);
    if (r == BYOC_OK && !(p = byoc_sim_lower(m, NULL, d))) r = d->code;
    if (r != BYOC_OK) snprintf(why, sizeof why, "%s", d->message);
    else if (!make_inputs(p, &in) || !run_copy(p, &in, &out, d)) snprintf(why, sizeof why, "run: %s", d->message);
    else {
        double worst = 0;
        char label[64];
        snprintf(label, sizeof label, "%s", strategy);
        print_placement(p, label);
        ok = compare(&out, ref, &worst);
        printf("%s: max |diff| against the host-only run %.3g (tolerance 1e-4 x max(1, max|reference|))\n", strategy, worst);
        if (!ok) snprintf(why, sizeof why, "outputs differ from the host-only run by up to %g", worst);
        /* the executable: saved, loaded back (its blobs name their kinds), run again: the same bytes */
        byoc_sim_save_options so;
        memset(&so, 0, sizeof so);
        so.strategy = strategy;
        if (ok && byoc_sim_executable_save(p, &so, &bytes, &size, d) != BYOC_OK) ok = 0, snprintf(why, sizeof why, "save: %s", d->message);
        if (ok && !(e = byoc_sim_executable_load(bytes, size, "custom_device.byoc", NULL, d))) ok = 0, snprintf(why, sizeof why, "load: %s", d->message);
        if (ok && !run_copy(byoc_sim_executable_program(e), &in, &again, d)) ok = 0, snprintf(why, sizeof why, "run loaded: %s", d->message);
        for (int i = 0; ok && i < out.count; ++i)
            if (out.n[i] && memcmp(out.data[i], again.data[i], out.n[i] * sizeof(float))) ok = 0, snprintf(why, sizeof why, "the loaded .byoc gives other outputs");
        int vpu_blobs = 0;
        for (int i = 0; ok && i < byoc_sim_executable_blob_count(e); ++i) vpu_blobs += !strcmp(byoc_sim_executable_blob(e, i)->kind, "vpu");
        if (ok) printf("%s: saved and loaded back as a %zu-byte .byoc with %d vpu blobs of %d: same outputs\n", strategy, size, vpu_blobs, byoc_sim_executable_blob_count(e));
        int on_vpu = 0;
        for (int i = 0; i < byoc_sim_kernel_count(p); ++i) on_vpu += !strcmp(byoc_sim_kernel(p, i)->device_kind, "vpu");
        if (ok && !on_vpu && need_vpu) ok = 0, snprintf(why, sizeof why, "nothing ran on the vpu");
        if (ok && !on_vpu && !need_vpu) printf("%s: note: the npu took every op the vpu could run\n", strategy);
    }
    if (ok) printf("ok custom_device_%s\n", strategy);
    else printf("FAIL custom_device_%s: %s\n", strategy, why[0] ? why : d->message);
    free(bytes);
    byoc_sim_executable_destroy(e);
    free_outputs(&out);
    free_outputs(&again);
    free_inputs(&in);
    byoc_sim_program_destroy(p);
    byoc_placement_report_free(rep);
    byoc_module_destroy(m);
    return ok;
}

int main(int argc, char **argv) {
    byoc_diag d;
    memset(&d, 0, sizeof d);
    const char *path = argc > 1 ? argv[1] : "../shared/models/ultraface_rfb320/model.onnx";
    FILE *f = fopen(path, "rb");
    int need_vpu = argc == 1 && f; /* the default model gives the vpu work in both placements */
    if (f) fclose(f);
    else if (argc == 1) {
        printf("note: %s is absent: running tests/inputs/mnist.relay instead\n", path);
        path = "tests/inputs/mnist.relay";
    }
    if (!register_vpu(&d)) {
        printf("FAIL custom_device_greedy: registering the vpu: %s\nFAIL custom_device_collage: (the same)\n", d.message);
        return 1;
    }
    char line[400];
    byoc_sim_device_describe(byoc_sim_preset_find("vpu-64"), line, sizeof line);
    printf("registered %s; device kinds:", line);
    for (int k = 0; k < byoc_sim_device_kind_count(); ++k) printf(" %s", byoc_sim_device_kind_at(k)->name);
    printf("\nmodel %s\n", path);

    /* the reference: the same model on the host alone */
    outputs ref;
    inputs in;
    memset(&ref, 0, sizeof ref);
    memset(&in, 0, sizeof in);
    byoc_module *hm = load(path, &d);
    byoc_sim_program *hp = hm && byoc_fuse_ops(hm, 256, &d) == BYOC_OK ? byoc_sim_lower(hm, NULL, &d) : NULL;
    int ok = hp && make_inputs(hp, &in) && run_copy(hp, &in, &ref, &d);
    if (ok) printf("host only: simulated %.3f ms\n", byoc_sim_latency(hp) * 1e3);
    free_inputs(&in);
    byoc_sim_program_destroy(hp);
    byoc_module_destroy(hm);
    if (!ok) {
        printf("FAIL custom_device_greedy: the host-only run: %s\nFAIL custom_device_collage: (the same)\n", d.message);
        free_outputs(&ref);
        return 1;
    }

    /* the backends, by priority: npu (20), vpu (15), dsp (10) */
    byoc_sim_backend *b[3] = {byoc_sim_backend_open("npu", &d), NULL, NULL};
    if (b[0]) b[1] = byoc_sim_backend_open("vpu", &d);
    if (b[1]) b[2] = byoc_sim_backend_open("dsp", &d);
    ok = b[2] != NULL;
    if (!ok) printf("FAIL custom_device_greedy: opening the backends: %s\nFAIL custom_device_collage: (the same)\n", d.message);
    if (ok) ok &= place_and_run(path, "greedy", b, 3, &ref, need_vpu, &d);
    if (b[2]) ok &= place_and_run(path, "collage", b, 3, &ref, need_vpu, &d);
    printf("the vpu's execution hook ran %ld calls\n", vpu_calls_executed);
    for (int i = 0; i < 3; ++i) byoc_sim_backend_close(b[i]);
    free_outputs(&ref);
    return ok ? 0 : 1;
}
