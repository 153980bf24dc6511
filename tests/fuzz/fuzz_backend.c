/* libFuzzer target: the backend description file parser. A file that loads must name a backend, and
   its patterns must print and run MergeComposite on a small fixed module without crashing. */
#define BYOC_IMPLEMENTATION
#include "../../byoc.h"
#include <stdlib.h>

static const char graph_text[] =
    "def @main(%x: Tensor[(1, 3, 8, 8), float32]) {\n"
    "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(3, 3, 1, 1), float32] */);\n"
    "  %1 = add(%0, meta[relay.Constant][1] /* ty=Tensor[(3, 1, 1), float32] */);\n"
    "  %2 = nn.relu(%1);\n  %3 = (%2, %1);\n  %4 = %3.0;\n  multiply(%4, 2f)\n}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    byoc_diag diag;
    byoc_backend_spec *b = byoc_backend_parse((const char *)data, size, "fuzz.backend", &diag);
    if (!b) {
        if (diag.code == BYOC_OK || !diag.message[0]) abort();
        return 0;
    }
    if (!b->name || !b->name[0]) abort();
    byoc_module *m = byoc_module_parse(graph_text, sizeof graph_text - 1, "g.relay", NULL, &diag);
    if (!m) abort();
    for (int i = 0; i < b->npatterns; ++i) {
        char *text = byoc_pattern_print(b->arena, b->patterns[i].pattern);
        if (!text) abort();
        byoc_free(b->arena, text);
    }
    if (byoc_merge_composite(m, b->patterns, b->npatterns, &diag) == BYOC_OK && byoc_verify(m, BYOC_VERIFY_TYPED, &diag) != BYOC_OK)
        abort(); /* MergeComposite must leave a well-formed, typed module */
    byoc_module_destroy(m);
    byoc_backend_free(b);
    return 0;
}
