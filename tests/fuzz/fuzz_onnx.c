/* libFuzzer target: the ONNX importer (protobuf decoding, tensors, every op converter, folding at
   import) and the host kernels behind it. A refused file must come with a message naming it; an
   imported module must type-check, print, and parse back (with its weights) to an equal module. A
   small imported model is then evaluated on made-up inputs (small integers, negative ones included,
   so index operands go out of range too): kernels on hostile attributes are where crashes hide, and a
   failed run must say why. Constants are capped at 16 MB so a hostile shape is an error, not an
   out-of-memory kill; external data is refused. */
#include "../../byoc.h"
#include "../../tools/byoc_onnx.h"
#include "fuzz_evaluate.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    byoc_onnx_options o;
    memset(&o, 0, sizeof o);
    o.max_constant_bytes = 16u << 20;
    o.no_external_data = 1;
    o.free_dim_default = 2;
    byoc_diag d;
    byoc_onnx_model model;
    if (byoc_onnx_import(data, size, "fuzz.onnx", &o, &model, &d) != BYOC_OK) {
        if (d.code == BYOC_OK || strncmp(d.message, "fuzz.onnx", 9) != 0) abort();
        return 0;
    }
    byoc_module *m = model.module;
    if (byoc_infer_type(m, &d) != BYOC_OK) abort();
    size_t len, wsize;
    char *text = byoc_module_print(m, 0, &len);
    void *weights = byoc_module_weights_serialize(m, &wsize);
    if (!text || !weights) abort();
    byoc_parse_options po;
    memset(&po, 0, sizeof po);
    po.weights = weights;
    po.weights_size = wsize;
    po.require_weights = 1;
    byoc_module *again = byoc_module_parse(text, len, "fuzz.relay", &po, &d);
    if (!again || !byoc_module_structural_equal(m, again)) abort();
    byoc_module_destroy(again);
    byoc_free(m, text);
    byoc_free(m, weights);
    evaluate_small(m, "onnx:");
    byoc_onnx_model_free(&model);
    return 0;
}
