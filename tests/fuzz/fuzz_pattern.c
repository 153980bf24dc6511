/* libFuzzer target: the pattern parser. What parses must print and re-parse to the same text, and
   matching it against a small fixed graph must not crash. */
#include "../../byoc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char graph_text[] =
    "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(3, 3, 1, 1), float32]) {\n"
    "  %0 = nn.conv2d(%x, %w);\n  %1 = nn.relu(%0);\n  %2 = sigmoid(%1);\n  %3 = add(%1, %2);\n"
    "  %4 = (%3, %0);\n  %5 = %4.0;\n  multiply(%5, 2f)\n}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    byoc_diag diag;
    byoc_module *m = byoc_module_parse(graph_text, sizeof graph_text - 1, "g.relay", NULL, &diag);
    if (!m || byoc_infer_type(m, &diag) != BYOC_OK) abort();
    byoc_pattern *p = byoc_pattern_parse(m, (const char *)data, size, "fuzz.pat", &diag);
    if (!p) {
        if (diag.code == BYOC_OK || !diag.message[0]) abort();
        byoc_module_destroy(m);
        return 0;
    }
    char *text = byoc_pattern_print(m, p);
    if (!text) abort();
    byoc_pattern *q = byoc_pattern_parse(m, text, strlen(text), "printed.pat", &diag);
    if (!q) { fprintf(stderr, "printed pattern does not parse: %s\n%s\n", diag.message, text); abort(); }
    char *again = byoc_pattern_print(m, q);
    if (!again || strcmp(text, again) != 0) { fprintf(stderr, "print/parse not stable:\n%s\n%s\n", text, again); abort(); }
    byoc_node *body = byoc_module_function(m, "main")->body;
    byoc_graph g;
    if (byoc_graph_build(m, body, 0, &g) == BYOC_OK) {
        for (int i = 0; i < g.count; ++i) byoc_pattern_match(p, g.nodes[i].node, &g, NULL);
        byoc_pattern_partition(m, p, body, NULL, NULL, NULL);
        byoc_graph_free(&g);
    }
    byoc_free(m, text);
    byoc_free(m, again);
    byoc_module_destroy(m);
    return 0;
}
