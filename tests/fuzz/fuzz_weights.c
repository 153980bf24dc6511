/* libFuzzer target: the weights-file loader. The input is used as the weights of a fixed module whose
   constants carry no type comments, so every entry's dtype and shape come from the file. Whatever
   loads must serialize and load back to the same module. */
#include "../../byoc.h"
#include <stdlib.h>
#include <string.h>

static const char module_text[] =
    "def @main() { (meta[relay.Constant][0], meta[relay.Constant][1], meta[relay.Constant][2]) }";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    byoc_parse_options opts;
    memset(&opts, 0, sizeof opts);
    opts.weights = data;
    opts.weights_size = size;
    opts.weights_name = "fuzz.weights";
    byoc_diag diag;
    byoc_module *m = byoc_module_parse(module_text, sizeof module_text - 1, "fuzz.relay", &opts, &diag);
    if (!m) {
        if (diag.code == BYOC_OK || !diag.message[0]) abort();
        return 0;
    }
    if (byoc_infer_type(m, &diag) != BYOC_OK) abort(); /* constants always type-check */
    size_t wsize;
    void *again = byoc_module_weights_serialize(m, &wsize);
    if (!again) abort();
    opts.weights = again;
    opts.weights_size = wsize;
    byoc_module *m2 = byoc_module_parse(module_text, sizeof module_text - 1, "fuzz.relay", &opts, &diag);
    if (!m2 || !byoc_module_structural_equal(m, m2)) abort();
    byoc_free(m, again);
    byoc_module_destroy(m2);
    byoc_module_destroy(m);
    return 0;
}
