/* Places a model from C as `byocc partition MODEL --backend B... --emit relay` does, and prints the
   partitioned module: the library's preparation (byoc_prepare_for_partition), then greedy placement
   with the built-in or file backends given. tests/cli.sh compares the two outputs byte for byte.
   cc -std=c99 -I. tests/compile/place_like_byocc.c -o place_like_byocc -lm */
#define BYOC_SIM_IMPLEMENTATION
#include "byoc_sim.h"
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: place_like_byocc MODEL.relay BACKEND...\n"); return 1; }
    byoc_diag d;
    byoc_sim_backend *backends[8];
    const byoc_backend_spec *specs[8];
    int n = 0, rc = 1;
    for (int i = 2; i < argc && n < 8; ++i, ++n)
        if (!(backends[n] = byoc_sim_backend_open(argv[i], &d))) { fprintf(stderr, "%s\n", d.message); goto done; }
        else specs[n] = backends[n]->spec;
    byoc_module *m = byoc_module_load(argv[1], NULL, &d);
    if (!m) { fprintf(stderr, "%s\n", d.message); goto done; }
    byoc_partition_options o;
    memset(&o, 0, sizeof o);
    o.backends = specs;
    o.nbackends = n;
    o.bind_constants = 1; /* byocc's default (partition_graph.bind_constants) */
    if (byoc_prepare_for_partition(m, NULL, &d) != BYOC_OK || byoc_partition_greedy(m, &o, NULL, &d) != BYOC_OK) {
        fprintf(stderr, "%s\n", d.message);
    } else {
        char *text = byoc_module_print(m, 0, NULL);
        if (text) fputs(text, stdout), rc = 0;
        byoc_free(m, text);
    }
    byoc_module_destroy(m);
done:
    for (int i = 0; i < n; ++i) byoc_sim_backend_close(backends[i]);
    return rc;
}
