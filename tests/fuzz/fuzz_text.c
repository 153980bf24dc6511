/* libFuzzer target: the Relay text parser. Whatever parses must print, re-parse and compare equal; a
   module that type-checks and is small is then evaluated (the host kernels on any attribute values). */
#include "../../byoc.h"
#include "fuzz_evaluate.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    byoc_diag diag;
    byoc_module *m = byoc_module_parse((const char *)data, size, "fuzz.relay", NULL, &diag);
    if (!m) {
        if (diag.code == BYOC_OK || !diag.message[0]) abort(); /* a failure must say why */
        return 0;
    }
    int typed = byoc_infer_type(m, &diag) == BYOC_OK;
    size_t len, wsize;
    char *text = byoc_module_print(m, BYOC_PRINT_TYPES, &len);
    void *weights = byoc_module_weights_serialize(m, &wsize);
    if (!text || !weights) abort();
    byoc_parse_options opts;
    memset(&opts, 0, sizeof opts);
    opts.weights = weights;
    opts.weights_size = wsize;
    opts.require_weights = 1;
    byoc_module *again = byoc_module_parse(text, len, "printed.relay", &opts, &diag);
    if (!again) {
        fprintf(stderr, "printed text does not parse: %s\n%s\n", diag.message, text);
        abort();
    }
    if (!byoc_module_structural_equal(m, again)) {
        fprintf(stderr, "round trip changed the module:\n%s\n", text);
        abort();
    }
    byoc_free(m, text);
    byoc_free(m, weights);
    byoc_module_destroy(again);
    if (typed) evaluate_small(m, NULL);
    byoc_module_destroy(m);
    return 0;
}
