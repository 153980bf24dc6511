/* embed_runtime.c -- a host program that runs a compiled model (a .byoc from `byocc compile`) with the
   runtime of byoc_sim.h alone: BYOC_SIM_RUNTIME_ONLY leaves the compiler out (patterns, passes,
   partitioning, the Collage search, device lowering), and every byte the runtime owns comes from this
   program's own pool.

   Build and run (from the repository root):
       cc -std=c99 -O2 -I. examples/embed_runtime.c -o build/embed_runtime -lm
       build/byocc compile tests/inputs/mnist.relay --backend npu --backend dsp -o build/mnist.byoc
       build/embed_runtime build/mnist.byoc

   It loads the artifact, fills each input with a fixed pattern, runs it twice (the second run allocates
   nothing), prints each output's shape and checksum and the kernels with their devices, and checks that
   the pool is empty again after destroy. Exit status: 0 ok, 1 usage, 2 the artifact was refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the host program's memory: one block from the OS, first-fit with a free list ---- */
#define POOL_BYTES ((size_t)256 << 20)
typedef struct block {
    size_t size;        /* payload bytes */
    struct block *next; /* in the free list */
    size_t used;        /* 1 while allocated */
    size_t pad;         /* keeps payloads 32-byte aligned */
} block;
static unsigned char *pool;
static size_t pool_top, pool_live, pool_peak;
static block *free_list;

static void *pool_alloc(size_t n, void *user) {
    (void)user;
    n = (n + 31) & ~(size_t)31;
    for (block **at = &free_list; *at; at = &(*at)->next)
        if ((*at)->size >= n) { /* reuse a freed block */
            block *b = *at;
            *at = b->next;
            b->used = 1;
            pool_live += b->size;
            if (pool_live > pool_peak) pool_peak = pool_live;
            return b + 1;
        }
    if (pool_top + sizeof(block) + n > POOL_BYTES) return NULL;
    block *b = (block *)(void *)(pool + pool_top);
    pool_top += sizeof(block) + n;
    b->size = n;
    b->used = 1;
    pool_live += n;
    if (pool_live > pool_peak) pool_peak = pool_live;
    return b + 1;
}
static void pool_free(void *p, void *user) {
    (void)user;
    if (!p) return;
    block *b = (block *)p - 1;
    b->used = 0;
    pool_live -= b->size;
    b->next = free_list;
    free_list = b;
}
static void *pool_calloc(size_t n, size_t size) {
    if (size && n > (size_t)-1 / size) return NULL;
    void *p = pool_alloc(n * size, NULL);
    if (p) memset(p, 0, n * size);
    return p;
}
static void *pool_realloc(void *p, size_t n) {
    if (p && ((block *)p - 1)->size >= n) return p;
    void *q = pool_alloc(n, NULL);
    if (q && p) memcpy(q, p, ((block *)p - 1)->size);
    pool_free(p, NULL);
    return q;
}

/* the library: its runtime only, and its own scratch (and stb_ds's) in the pool too */
#define BYOC_MALLOC(n) pool_alloc((n), NULL)
#define BYOC_CALLOC(n, size) pool_calloc((n), (size))
#define BYOC_REALLOC(p, n) pool_realloc((p), (n))
#define BYOC_FREE(p) pool_free((p), NULL)
#define STBDS_REALLOC(context, ptr, size) pool_realloc((ptr), (size))
#define STBDS_FREE(context, ptr) pool_free((ptr), NULL)
#define BYOC_SIM_RUNTIME_ONLY
#define BYOC_SIM_IMPLEMENTATION
#include "byoc_sim.h"

/* load, run twice (the second run allocates nothing), report, destroy: 0 ok, 2 refused or failed */
static int load_and_run(const char *path, int report) {
    byoc_allocator mine = {pool_alloc, pool_free, NULL};
    byoc_sim_load_options options;
    memset(&options, 0, sizeof options);
    options.allocator = &mine;
    byoc_diag diag;
    byoc_sim_executable *exe = byoc_sim_executable_read(path, &options, &diag);
    if (!exe) {
        fprintf(stderr, "embed_runtime: %s\n", diag.message);
        return 2;
    }
    byoc_sim_program *program = byoc_sim_executable_program(exe);
    int nin = byoc_sim_input_count(program), nout = byoc_sim_output_count(program), rc = 0;
    byoc_tensor inputs[16], outputs[16];
    if (nin > 16 || nout > 16) {
        fprintf(stderr, "embed_runtime: %d inputs and %d outputs (this example takes 16 of each)\n", nin, nout);
        byoc_sim_executable_destroy(exe);
        return 2;
    }
    for (int i = 0; i < nin; ++i) { /* the caller's buffers, read in place */
        const byoc_sim_io *io = byoc_sim_input(program, i);
        inputs[i].dtype = io->dtype;
        inputs[i].rank = io->rank;
        memcpy(inputs[i].dims, io->dims, sizeof inputs[i].dims);
        inputs[i].data = pool_calloc(1, io->nbytes);
        if (!inputs[i].data) rc = 2;
        for (size_t k = 0; !rc && io->dtype == BYOC_FLOAT32 && k < io->nbytes / 4; ++k) ((float *)inputs[i].data)[k] = (float)((double)(k % 17) / 17.0 - 0.5);
    }
    size_t live_after_first = 0;
    for (int run = 0; run < 2 && !rc; ++run) {
        if (byoc_sim_run(program, inputs, nin, outputs, nout, &diag) != BYOC_OK) {
            fprintf(stderr, "embed_runtime: %s\n", diag.message);
            rc = 2;
        }
        if (run == 0) live_after_first = pool_live;
    }
    if (!rc && pool_live != live_after_first) {
        fprintf(stderr, "embed_runtime: the second run allocated %zu bytes\n", pool_live - live_after_first);
        rc = 2;
    }
    for (int k = 0; report && !rc && k < nout; ++k) {
        size_t n = 1;
        for (int d = 0; d < outputs[k].rank; ++d) n *= (size_t)outputs[k].dims[d];
        double sum = 0;
        for (size_t e = 0; e < n && outputs[k].dtype == BYOC_FLOAT32; ++e) sum += ((const float *)outputs[k].data)[e];
        printf("output %d: %zu elements, sum %.9g\n", k, n, sum);
    }
    for (int k = 0; report && !rc && k < byoc_sim_kernel_count(program); ++k) {
        const byoc_sim_kernel_info *ki = byoc_sim_kernel(program, k);
        printf("kernel %d on %-5s %.60s\n", k, ki->device, ki->name);
    }
    if (report && !rc)
        printf("simulated latency %.3f ms; %zu bytes of the pool in use while loaded\n", byoc_sim_latency(program) * 1e3, pool_live);
    byoc_sim_executable_destroy(exe);
    for (int i = 0; i < nin; ++i) pool_free(inputs[i].data, NULL);
    return rc;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s MODEL.byoc\n", argv[0]);
        return 1;
    }
    pool = (unsigned char *)malloc(POOL_BYTES); /* the only block from the C library */
    if (!pool) return 1;
    int rc = load_and_run(argv[1], 1);
    size_t kept = pool_live; /* what the library keeps for the process: its op registry, made on first use */
    if (!rc) rc = load_and_run(argv[1], 0);
    if (!rc && pool_live != kept) {
        fprintf(stderr, "embed_runtime: a second load and destroy left %zu bytes more in the pool\n", pool_live - kept);
        rc = 3;
    }
    if (!rc) printf("pool: peak %zu bytes; after destroy only the library's registry (%zu bytes) is left\n", pool_peak, kept);
    free(pool);
    return rc;
}
