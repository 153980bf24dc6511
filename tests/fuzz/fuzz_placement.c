/* libFuzzer target: the placement file parser (byocc --placement) and the replay that checks a parsed
   placement against a module. Parsing fails with a message naming the file and line, or succeeds; a
   replay either partitions the module into a verified module or is refused with a reason. */
#include "../../byoc.h"
#include <stdlib.h>
#include <string.h>

static const char graph_text[] =
    "def @main(%x: Tensor[(1, 3, 8, 8), float32]) {\n"
    "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(3, 3, 1, 1), float32] */);\n"
    "  %1 = add(%0, meta[relay.Constant][1] /* ty=Tensor[(3, 1, 1), float32] */);\n"
    "  %2 = nn.relu(%1);\n  %3 = (%2, %1);\n  %4 = %3.0;\n  multiply(%4, 2f)\n}\n";
static const char spec_text[] = "backend acc\nsupports nn.conv2d add nn.relu\npattern cbr = is_op(\"nn.relu\")(is_op(\"add\")(is_op(\"nn.conv2d\")(wildcard(), wildcard()), wildcard()))\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    byoc_diag diag;
    byoc_module *arena = byoc_module_create(NULL);
    if (!arena) abort();
    byoc_collage_assignment *list = NULL;
    int count = 0;
    if (byoc_collage_placement_parse((const char *)data, size, "fuzz.placement", arena, &list, &count, &diag) != BYOC_OK) {
        if (diag.code == BYOC_OK || strncmp(diag.message, "fuzz.placement", 14)) abort(); /* the message names the file */
        byoc_module_destroy(arena);
        return 0;
    }
    if (count < 0 || (count && !list)) abort();
    byoc_module *m = byoc_module_parse(graph_text, sizeof graph_text - 1, "g.relay", NULL, &diag);
    byoc_backend_spec *b = byoc_backend_parse(spec_text, sizeof spec_text - 1, "acc.backend", &diag);
    if (!m || !b) abort();
    const byoc_backend_spec *list_b[1] = {b};
    const char *names[2] = {"acc", "host"};
    double base[2] = {1.0, 2.0};
    byoc_collage_mock mock = {names, base, 2};
    byoc_collage_options o;
    memset(&o, 0, sizeof o);
    o.backends = list_b;
    o.nbackends = 1;
    o.cost = byoc_collage_mock_cost;
    o.cost_data = &mock;
    o.replay = list;
    o.nreplay = count;
    o.bind_constants = 1;
    byoc_collage_stats st;
    if (byoc_partition_collage(m, &o, &st, NULL, &diag) == BYOC_OK) {
        if (byoc_verify(m, BYOC_VERIFY_TYPED, &diag) != BYOC_OK) abort();
        byoc_collage_stats_free(&st);
    } else if (!diag.message[0])
        abort();
    byoc_backend_free(b);
    byoc_module_destroy(m);
    byoc_module_destroy(arena);
    return 0;
}
