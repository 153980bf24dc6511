/* libFuzzer target: the backend description file parser. A file that loads must name a backend, and
   its patterns must print and run MergeComposite on a small fixed module without crashing; its op
   constraints are checked on every op of the module, and greedy placement must leave a verified
   module whose report accounts for every op; the Collage search must leave a verified module whose plan
   costs no more than greedy's. */
#include "../../byoc.h"
#include <stdlib.h>
#include <string.h>

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
    /* constraints on every op, then greedy placement */
    m = byoc_module_parse(graph_text, sizeof graph_text - 1, "g.relay", NULL, &diag);
    if (!m || byoc_infer_type(m, &diag) != BYOC_OK) abort();
    byoc_graph g;
    if (byoc_graph_build(m, byoc_module_function(m, "main")->body, 0, &g) != BYOC_OK) abort();
    for (int i = 0; i < g.count; ++i) {
        char reason[256];
        const byoc_node *n = g.nodes[i].node;
        if (n->kind == BYOC_NODE_CALL && n->op && !byoc_backend_accepts(b, n, reason, sizeof reason) && !reason[0]) abort(); /* a refusal says why */
    }
    byoc_graph_free(&g);
    const byoc_backend_spec *list[1] = {b};
    byoc_partition_options o;
    memset(&o, 0, sizeof o);
    o.backends = list;
    o.nbackends = 1;
    o.min_partition_ops = (int)(size % 3);
    byoc_placement_report *rep = NULL;
    if (byoc_partition_greedy(m, &o, &rep, &diag) == BYOC_OK) {
        if (!rep || rep->count != 4 || byoc_verify(m, BYOC_VERIFY_TYPED, &diag) != BYOC_OK) abort(); /* conv, add, relu, multiply */
    } else if (strcmp(b->name, "host") && strcmp(b->name, "default"))
        abort(); /* only a reserved name may be refused */
    byoc_placement_report_free(rep);
    byoc_module_destroy(m);
    /* the Collage search with the mock estimator: its candidates come from the fuzzed patterns and
       support lines; the result must verify and cost no more than the greedy plan */
    m = byoc_module_parse(graph_text, sizeof graph_text - 1, "g.relay", NULL, &diag);
    if (!m) abort();
    const char *mock_names[2] = {b->name, "host"};
    double base[2] = {1.0 + (double)(size % 5), 3.0};
    byoc_collage_mock mock = {mock_names, base, 2};
    byoc_collage_options co;
    memset(&co, 0, sizeof co);
    co.backends = list;
    co.nbackends = 1;
    co.cost = byoc_collage_mock_cost;
    co.cost_data = &mock;
    co.bind_constants = 1;
    byoc_collage_stats st;
    if (byoc_partition_collage(m, &co, &st, NULL, &diag) == BYOC_OK) {
        if (byoc_verify(m, BYOC_VERIFY_TYPED, &diag) != BYOC_OK) abort();
        if (st.nplans && st.cost > st.plans[0].cost + 1e-9) abort();
        byoc_collage_stats_free(&st);
    } else if (strcmp(b->name, "host") && strcmp(b->name, "default"))
        abort();
    byoc_module_destroy(m);
    byoc_backend_free(b);
    return 0;
}
