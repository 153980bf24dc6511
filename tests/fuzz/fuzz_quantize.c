/* libFuzzer target: tools/byoc_quantize.h. The first byte chooses what the rest is (and, for a model, its
   bit 1 per-channel weights, bits 2.. the calibration method): even, a .npy file for
   byoc_quantize_npy_parse (a refusal must name the file; a parsed tensor's bytes must be its shape's);
   odd, an ONNX model quantized with one made-up calibration sample per input (every input must be a small
   float32 tensor; values from a fixed pattern, negative ones included), which exercises the wire-level
   rewriter, the calibration run, the plan and the opset upgrade on hostile graphs. A failure must come
   with a message; a success must give a non-empty model (the library imports it back before returning).
   The importer's limits bound what a hostile model makes: constants of 16 MB, no external data. */
#include "../../byoc_sim.h"
#include "../../tools/byoc_onnx.h"
#include "../../tools/byoc_quantize.h"
#include <stdlib.h>
#include <string.h>

static void fuzz_npy(const uint8_t *data, size_t size) {
    byoc_tensor t;
    byoc_diag d;
    if (byoc_quantize_npy_parse(data, size, "fuzz.npy", &t, &d) != BYOC_OK) {
        if (strncmp(d.message, "fuzz.npy", 8) != 0) abort();
        return;
    }
    size_t bytes = byoc_dtype_size(t.dtype);
    for (int k = 0; k < t.rank; ++k) bytes *= (size_t)t.dims[k];
    if (t.rank < 0 || t.rank > BYOC_MAX_RANK || !t.data) abort();
    if (bytes) ((volatile uint8_t *)t.data)[bytes - 1]; /* the buffer holds every element */
    free(t.data);
}

static void fuzz_model(uint8_t selector, const uint8_t *data, size_t size) {
    byoc_onnx_options io;
    memset(&io, 0, sizeof io);
    io.max_constant_bytes = 16u << 20;
    io.no_external_data = 1;
    io.free_dim_default = 2;
    byoc_diag d;
    byoc_onnx_model m;
    if (byoc_onnx_import(data, size, "fuzz.onnx", &io, &m, &d) != BYOC_OK) return;
    int nin = m.ninputs, ok = nin > 0 && nin <= 8 && byoc_module_node_count(m.module) < 200;
    byoc_tensor inputs[8];
    float *values[8] = {0};
    const byoc_node *fn = byoc_module_function(m.module, "main");
    ok = ok && fn && fn->nparams == nin;
    for (int k = 0; ok && k < nin; ++k) {
        const byoc_type *t = fn ? fn->params[k]->checked_type : NULL;
        int64_t count = 1;
        ok = t && t->kind == BYOC_TYPE_TENSOR && t->dtype == BYOC_FLOAT32;
        for (int r = 0; ok && r < t->rank; ++r) {
            ok = t->dims[r] >= 0;
            count *= t->dims[r];
            ok = ok && count <= 4096;
        }
        if (!ok) break;
        values[k] = (float *)malloc((size_t)(count ? count : 1) * sizeof(float));
        if (!values[k]) { ok = 0; break; }
        for (int64_t i = 0; i < count; ++i) values[k][i] = (float)((i * 7 + k * 3) % 11) - 5.0f;
        inputs[k].dtype = BYOC_FLOAT32;
        inputs[k].rank = t->rank;
        for (int r = 0; r < t->rank; ++r) inputs[k].dims[r] = t->dims[r];
        inputs[k].data = values[k];
    }
    byoc_onnx_model_free(&m);
    if (ok) {
        byoc_quantize_options o;
        memset(&o, 0, sizeof o);
        o.samples = inputs;
        o.nsamples = 1;
        o.ninputs = nin;
        o.import = &io;
        o.method = (byoc_quantize_method)((selector >> 2) % 3);
        o.per_channel = (selector >> 1) & 1;
        byoc_quantize_result r;
        if (byoc_quantize_onnx(data, size, "fuzz.onnx", &o, &r, &d) != BYOC_OK) {
            if (!d.message[0]) abort();
        } else if (!r.bytes || !r.size || !r.summary) abort();
        byoc_quantize_result_free(&r);
    }
    for (int k = 0; k < 8; ++k) free(values[k]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    if (data[0] & 1) fuzz_model(data[0], data + 1, size - 1);
    else fuzz_npy(data + 1, size - 1);
    return 0;
}
