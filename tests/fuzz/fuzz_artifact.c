/* libFuzzer target: the .byoc loader (container, meta, module and weights, blobs, kernel list, memory plan,
   source map). The harness re-signs the section and header checksums so mutations reach the checks behind
   them (a wrong checksum alone is covered by test_artifact). A refused file must come with a message; a
   loaded one is run once on zero inputs, to completion or to an error with a message (programs whose
   inputs or arena pass 64 MB are loaded and checked but not run: libFuzzer's memory limit). */
#define BYOC_SIM_IMPLEMENTATION
#include "../../byoc_sim.h"
#include <stdlib.h>

#define FUZZ_RUN_LIMIT (64u << 20)

/* the container's own readers and writers (byoc_sim.h's) */
#define get64(p) byoc__exe_u64(p)
#define put64(p, v) byoc__exe_put_u64_at((p), (v))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    unsigned char *f = (unsigned char *)malloc(size ? size : 1);
    if (!f) return 0;
    if (size) memcpy(f, data, size);
    if (size >= 64) {
        uint32_t n = (uint32_t)(get64(f + 12) & 0xffffffffu);
        if (64 + 32 * (uint64_t)n <= size) {
            for (uint32_t i = 0; i < n; ++i) {
                unsigned char *e = f + 64 + 32 * i;
                uint64_t off = get64(e + 8), len = get64(e + 16);
                if (off <= size && len <= size - off) put64(e + 24, byoc__dv_fnv(f + off, (size_t)len));
            }
            put64(f + 56, byoc__dv_fnv(f, 56) ^ byoc__dv_fnv(f + 64, 32 * (size_t)n));
        }
        put64(f + 48, (uint64_t)size);
    }
    byoc_diag d;
    memset(&d, 0, sizeof d);
    byoc_sim_executable *e = byoc_sim_executable_load(f, size, "fuzz.byoc", NULL, &d);
    free(f);
    if (!e) {
        if (!d.message[0]) abort();
        return 0;
    }
    byoc_sim_program *p = byoc_sim_executable_program(e);
    int nin = byoc_sim_input_count(p), runnable = nin <= 16 && byoc_sim_memory(p).arena_bytes <= FUZZ_RUN_LIMIT;
    byoc_tensor in[16];
    size_t total = 0;
    memset(in, 0, sizeof in);
    for (int i = 0; i < nin && runnable; ++i) {
        const byoc_sim_io *io = byoc_sim_input(p, i);
        total += io->nbytes;
        if (total > FUZZ_RUN_LIMIT || !(in[i].data = calloc(1, io->nbytes ? io->nbytes : 1))) { runnable = 0; break; }
        in[i].dtype = io->dtype;
        in[i].rank = io->rank;
        memcpy(in[i].dims, io->dims, sizeof in[i].dims);
    }
    if (runnable && byoc_sim_run(p, in, nin, NULL, 0, &d) != BYOC_OK && !d.message[0]) abort();
    size_t len = 0;
    char *json = byoc_sim_executable_source_map_json(e, &len);
    if (json && strlen(json) != len) abort();
    byoc_sim_executable_free(e, json);
    for (int i = 0; i < 16; ++i) free(in[i].data);
    byoc_sim_executable_destroy(e);
    return 0;
}
