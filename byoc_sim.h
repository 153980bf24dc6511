/* byoc_sim.h v0.1.0 -- run byoc.h modules: lowering to kernel programs, a static memory plan, the host
   runtime and per-kernel profiles. MIT license (end of file).

   The companion of byoc.h (include path: beside it). A typed module's @main becomes a linear schedule of
   kernels over one statically planned arena; byoc_sim_run executes it on byoc.h's host kernels (and on
   the runtime modules that target hooks attach to partitions) as often as you like, allocating nothing
   after the first run. Device simulators (NPU, DSP) will hang off each kernel's `device`.

   QUICK START
       #define BYOC_SIM_IMPLEMENTATION  // in exactly one C or C++ file; also emits byoc.h's implementation
       #include "byoc_sim.h"

       byoc_diag diag;
       byoc_module *m = byoc_module_load("mnist.relay", NULL, &diag);
       byoc_fuse_ops(m, 256, &diag);                                  // optional: fused groups become one kernel each
       byoc_sim_program *p = byoc_sim_lower(m, NULL, &diag);          // NULL: default options
       if (!p) { fprintf(stderr, "%s\n", diag.message); ... }
       float image[1 * 1 * 28 * 28] = {0};
       byoc_tensor in = {BYOC_FLOAT32, 4, {1, 1, 28, 28}, image}, out;
       if (byoc_sim_run(p, &in, 1, &out, 1, &diag) != BYOC_OK) ...    // out views program memory
       char *table = byoc_sim_profile_format(p, NULL);                 // per kernel: name, device, time, bytes
       puts(table);
       byoc_sim_free(p, table);
       byoc_sim_program_destroy(p);                                    // before the module: it borrows it
       byoc_module_destroy(m);

   WHAT RUNS HOW (byoc_sim_lower)
     - Every op call left in @main (or in a function it calls that is neither a FuseOps group nor a partition
       with a runtime module) is one kernel: BYOC_SIM_EXEC_OPS with one op.
     - A call of a FuseOps group (a function with Primitive=1, as a literal or through a global) is one kernel:
         TILED   every op is elementwise or broadcast (pattern kind <= BROADCAST) and every value inside has the
                 group output's shape: one pass over memory, tile by tile. A tile is a sub-tensor whose leading
                 dims are 1 (split at the outermost axis whose inner block fits the tile), so it is contiguous
                 in every input and output; inputs that broadcast along the split take index 0. Each op runs
                 with byoc_kernel_run on sub-tensor views; intermediates live in a per-kernel tile scratch
                 that stays in cache (BYOC_SIM_TILE_BYTES per operand by default).
         ANCHOR  one anchor op (conv2d, dense, pool, softmax: pattern kind OUT_ELEMWISE_FUSABLE) whose inputs all
                 come from outside the group, followed by such an elementwise epilogue: the anchor writes the
                 group's output buffer, then the epilogue runs over it in place, tile by tile, as above (a last
                 op that reads the storage it writes puts each tile in scratch first, then copies it out).
         OPS     anything else (injective chains, reductions, ...): op after op, intermediates in the arena.
       A group of reshape/squeeze/expand_dims/copy only is no kernel at all (see aliases).
     - A call of a partition (a function with Compiler=...) that has a runtime module attached
       (byoc_module_runtime) is one BYOC_SIM_EXEC_RUNTIME kernel that calls the module's run with argument
       constants made once, in the module, at lowering (each run copies the inputs into them). A partition
       without one is lowered inline onto the host kernels; its kernels name the partition.
     - Tuples and projections are resolved while lowering. reshape, squeeze, expand_dims and copy are views
       of their input's buffer (no kernel, no copy); annotation ops pass their input through.
     - An output of @main that is one of its inputs or a constant is copied out (BYOC_SIM_EXEC_COPY).

   MEMORY
     Every intermediate buffer has an offset in one arena, planned once: live intervals over the schedule's
     time slots (an op of an OPS kernel is one slot; any other kernel is one slot), an elementwise kernel
     writes its result over an input that dies there when both have the same shape and dtype (in place:
     byoc.h's elementwise kernels read each element before they write it; not copy, cast and where),
     views share their source's buffer, and offsets come from greedy best-fit placement (by size, and by
     start time; the smaller arena wins). The lower bound is the peak over slots of the live intermediate
     bytes. Inputs are read where the caller keeps them, constants where the module keeps them, and outputs
     are planned apart from the arena in program-owned storage that byoc_sim_run's outputs point into. All
     kernels share one workspace (the largest byoc_kernel_workspace_size) and one tile scratch.

   COMPILE-TIME OPTIONS
       BYOC_SIM_IMPLEMENTATION            emit the implementation in this translation unit; it also defines
                                          BYOC_IMPLEMENTATION (byoc.h's) unless BYOC_SIM_NO_BYOC_IMPLEMENTATION
       BYOC_SIM_NO_BYOC_IMPLEMENTATION    byoc.h's implementation is compiled in another file
       BYOC_SIM_API                       declaration prefix (default: BYOC_API, so BYOC_STATIC applies)
       BYOC_SIM_ALIGN                     alignment of arena and output offsets in bytes (default 64)
       BYOC_SIM_TILE_BYTES                default bytes per operand in a fused tile (default 16384)
       BYOC_SIM_SAMPLES                   runs kept per kernel for the median time (default 15)
       BYOC_SIM_CLOCK()                   seconds as a double for profiles (default: clock_gettime(CLOCK_MONOTONIC)
                                          where <time.h> declares it, else timespec_get in C11, else clock(),
                                          processor time in microseconds: strict -std=c99 on glibc declares
                                          clock_gettime only with _POSIX_C_SOURCE >= 199309L defined first)
   Everything a program owns goes through the byoc_allocator in byoc_sim_options (NULL: malloc/free);
   byoc.h's graph walks use their own scratch as documented there.

   ERRORS
   Fallible calls return byoc_result and fill a caller-owned byoc_diag (may be NULL) with one line, e.g.
   "byoc_sim_run: input 0 (%x): expected Tensor[(1, 1, 28, 28), float32], got Tensor[(1, 28, 28), float32]".

   TABLE OF CONTENTS (each section starts with a "// [SECTION] name" line)
     Public API
       [SECTION] sim: config
       [SECTION] sim: lowering (programs, kernels)
       [SECTION] sim: memory plan
       [SECTION] sim: runtime
       [SECTION] sim: profile
     Implementation
       [SECTION] sim impl: config & platform
       [SECTION] sim impl: program storage
       [SECTION] sim impl: lowering
       [SECTION] sim impl: fused groups (tiled elementwise, anchor + epilogue)
       [SECTION] sim impl: memory plan
       [SECTION] sim impl: runtime
       [SECTION] sim impl: profile
*/
/* Outside the guard, so that a file which included this header before defining BYOC_SIM_IMPLEMENTATION
   still gets byoc.h's implementation on the second include (byoc.h emits it once). */
#if defined(BYOC_SIM_IMPLEMENTATION) && !defined(BYOC_SIM_NO_BYOC_IMPLEMENTATION) && !defined(BYOC_IMPLEMENTATION)
#define BYOC_IMPLEMENTATION
#endif
#include "byoc.h"

#ifndef BYOC_SIM_H_INCLUDED
#define BYOC_SIM_H_INCLUDED

// [SECTION] sim: config

#define BYOC_SIM_VERSION_STRING "0.1.0"

#ifndef BYOC_SIM_API
#define BYOC_SIM_API BYOC_API
#endif
#ifndef BYOC_SIM_ALIGN
#define BYOC_SIM_ALIGN 64
#endif
#ifndef BYOC_SIM_TILE_BYTES
#define BYOC_SIM_TILE_BYTES 16384
#endif
#ifndef BYOC_SIM_SAMPLES
#define BYOC_SIM_SAMPLES 15
#endif

#ifdef __cplusplus
extern "C" {
#endif

// [SECTION] sim: lowering (programs, kernels)
/* A lowered @main: kernels in schedule order, its memory plan, and (after the first run) its memory.
   It borrows the module: keep the module alive and its functions unchanged while the program lives.
   One thread at a time per program. */
typedef struct byoc_sim_program byoc_sim_program;

/* All zero means the defaults. */
typedef struct byoc_sim_options {
    const byoc_allocator *allocator; /* everything the program owns; NULL: malloc/free */
    size_t tile_bytes;               /* bytes per operand in a fused tile (0: BYOC_SIM_TILE_BYTES) */
    int no_fused_tiling;             /* run every fused group op by op, intermediates in the arena */
    int no_inplace;                  /* never write a result over a dying input */
    int no_alias;                    /* run reshape, squeeze, expand_dims and copy as kernels instead of views */
} byoc_sim_options;

/* Types the module (byoc_infer_type) and lowers @main. Fails with a message naming the node when an op
   has no host kernel, a shape is not static, or a call cannot be lowered (a call of a function value). */
BYOC_SIM_API byoc_sim_program *byoc_sim_lower(byoc_module *m, const byoc_sim_options *options, byoc_diag *diag);
BYOC_SIM_API void byoc_sim_program_destroy(byoc_sim_program *p);
/* Frees what the program's calls return (byoc_sim_profile_format's text). */
BYOC_SIM_API void byoc_sim_free(byoc_sim_program *p, void *ptr);

/* An input or output of the program: the tensor leaves of @main's parameters (a tuple parameter gives one
   per field) and of its result (a tuple result gives one per field), in order. */
typedef struct byoc_sim_io {
    const char *name; /* "%x", "%t.1" for a field of a tuple parameter, "output 0" */
    byoc_dtype dtype;
    int rank;
    int64_t dims[BYOC_MAX_RANK];
    size_t nbytes;
} byoc_sim_io;

BYOC_SIM_API int byoc_sim_input_count(const byoc_sim_program *p);
BYOC_SIM_API const byoc_sim_io *byoc_sim_input(const byoc_sim_program *p, int i);
BYOC_SIM_API int byoc_sim_output_count(const byoc_sim_program *p);
BYOC_SIM_API const byoc_sim_io *byoc_sim_output(const byoc_sim_program *p, int i);

/* How a kernel executes (see WHAT RUNS HOW above). */
typedef enum byoc_sim_exec {
    BYOC_SIM_EXEC_OPS = 1,  /* one op, or a group's ops one after another */
    BYOC_SIM_EXEC_TILED,    /* an elementwise chain in one pass, tile by tile */
    BYOC_SIM_EXEC_ANCHOR,   /* an anchor op, then its elementwise epilogue in place, tile by tile */
    BYOC_SIM_EXEC_RUNTIME,  /* a partition run by its runtime module */
    BYOC_SIM_EXEC_COPY      /* an output that is an input or a constant, copied out */
} byoc_sim_exec;
BYOC_SIM_API const char *byoc_sim_exec_name(byoc_sim_exec e); /* "ops", "tiled", "anchor", "runtime", "copy" */

/* One kernel of the schedule, with what byoc_sim_run measured. Strings live as long as the program. */
typedef struct byoc_sim_kernel_info {
    const char *name;        /* frontend names of its ops ("onnx:conv1+onnx:relu1"), an op's name where it has none */
    const char *ops;         /* its ops ("nn.conv2d+add+nn.relu"); "" for a copy */
    int nops;
    const char *device;      /* where it runs: "host", or the Compiler of a partition run by its runtime module */
    const char *partition;   /* the partition function it comes from, NULL if none */
    byoc_sim_exec exec;
    int slot_first, slot_last; /* the memory plan's time slots it covers */
    uint64_t bytes_read, bytes_written; /* memory traffic outside the tile scratch, per run */
    int64_t tile_elements;   /* TILED, ANCHOR: elements of a full tile */
    int64_t tiles;           /* TILED, ANCHOR: tiles per run */
    int runs;                /* runs measured since lowering or byoc_sim_profile_reset */
    double median_seconds;   /* median over the last BYOC_SIM_SAMPLES runs */
    double total_seconds;
} byoc_sim_kernel_info;

BYOC_SIM_API int byoc_sim_kernel_count(const byoc_sim_program *p);
BYOC_SIM_API const byoc_sim_kernel_info *byoc_sim_kernel(const byoc_sim_program *p, int i);

// [SECTION] sim: memory plan
typedef struct byoc_sim_memory_plan {
    size_t arena_bytes;        /* the one block every intermediate lives in */
    size_t lower_bound_bytes;  /* peak over the schedule of the bytes of live intermediates: no placement does better */
    size_t workspace_bytes;    /* shared by all kernels: the largest byoc_kernel_workspace_size */
    size_t tile_scratch_bytes; /* shared by fused tiled kernels for their intermediates */
    size_t output_bytes;       /* the outputs, planned apart from the arena */
    int slots;                 /* time slots of the schedule */
    int buffers;               /* buffers in the arena */
    int in_place;              /* of them, written over a dying input */
    int views;                 /* reshape-like results that share their input's buffer */
} byoc_sim_memory_plan;
BYOC_SIM_API byoc_sim_memory_plan byoc_sim_memory(const byoc_sim_program *p);

typedef enum byoc_sim_buffer_kind {
    BYOC_SIM_BUFFER_INPUT = 1, /* an input of the program, where the caller keeps it */
    BYOC_SIM_BUFFER_CONSTANT,  /* a constant, where the module keeps it */
    BYOC_SIM_BUFFER_ARENA,     /* an intermediate, at offset in the arena */
    BYOC_SIM_BUFFER_OUTPUT     /* an output, at offset in the output storage */
} byoc_sim_buffer_kind;

/* A buffer of the plan, for tools and checkers. Views share their source's buffer. */
typedef struct byoc_sim_buffer_info {
    byoc_sim_buffer_kind kind;
    size_t offset, size;  /* ARENA, OUTPUT */
    int first, last;      /* ARENA: slots of its first write and last access */
    int inplace_of;       /* ARENA: the buffer whose storage it takes over at slot `first`, else -1 */
} byoc_sim_buffer_info;
BYOC_SIM_API int byoc_sim_buffer_count(const byoc_sim_program *p);
BYOC_SIM_API byoc_sim_buffer_info byoc_sim_buffer(const byoc_sim_program *p, int i);

/* Every buffer each slot reads and writes (a fused kernel's inputs and output; not its tile intermediates),
   in schedule order: what a checker needs to rebuild lifetimes without trusting the planner. */
typedef struct byoc_sim_access {
    int slot;
    int buffer;
    int write;
} byoc_sim_access;
BYOC_SIM_API const byoc_sim_access *byoc_sim_accesses(const byoc_sim_program *p, int *count);

// [SECTION] sim: runtime
/* Runs the program. inputs: one byoc_tensor per input (byoc_sim_input), checked against its dtype and shape;
   they are read in place and never written. outputs: NULL, or noutputs == byoc_sim_output_count tensors that
   receive views of program memory, valid until the next run or destroy (two outputs that are views of one
   value share storage). The first run allocates the arena, workspace, scratch and outputs; later runs
   allocate nothing, except what a runtime module's run allocates in the module: the result constants it
   returns stay in the module until the module is destroyed (byoc_runtime_module's interface). */
BYOC_SIM_API byoc_result byoc_sim_run(byoc_sim_program *p, const byoc_tensor *inputs, int ninputs, byoc_tensor *outputs, int noutputs,
                                      byoc_diag *diag);

// [SECTION] sim: profile
/* The profile as a text table: one row per kernel (name, device, partition, exec, ops, median and total
   time, bytes read and written), a total line, and
   "arena N bytes (lower bound M bytes, ratio x.xx)". Free with byoc_sim_free. */
BYOC_SIM_API char *byoc_sim_profile_format(const byoc_sim_program *p, size_t *len);
/* Forgets measured times (e.g. after warm-up runs). */
BYOC_SIM_API void byoc_sim_profile_reset(byoc_sim_program *p);

#ifdef __cplusplus
}
#endif
#endif /* BYOC_SIM_H_INCLUDED */

/* ============================================================================================== */
/*                                        IMPLEMENTATION                                          */
/* ============================================================================================== */
#if defined(__INTELLISENSE__) && !defined(BYOC_SIM_IMPLEMENTATION)
#define BYOC_SIM_IMPLEMENTATION
#endif
#if defined(BYOC_SIM_IMPLEMENTATION) && !defined(BYOC_SIM_IMPLEMENTATION_INCLUDED)
#define BYOC_SIM_IMPLEMENTATION_INCLUDED

// [SECTION] sim impl: config & platform
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <limits.h>
#include <time.h>

#if defined(__GNUC__) || defined(__clang__)
#define BYOC__SIM_PRIVATE static __attribute__((unused))
#define BYOC__SIM_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define BYOC__SIM_PRIVATE static
#define BYOC__SIM_PRINTF(a, b)
#endif

#ifdef __cplusplus
#define BYOC__SIM_CAST(T, v) static_cast<T>(v)
#define BYOC__SIM_AS(lhs, v) static_cast<decltype(lhs)>(v)
#else
#define BYOC__SIM_CAST(T, v) ((T)(v))
#define BYOC__SIM_AS(lhs, v) (v)
#endif

#define BYOC__SIM_MAX_DEPTH 64 /* nested function calls followed while lowering */

#ifndef BYOC_SIM_CLOCK
BYOC__SIM_PRIVATE double byoc__sim_clock(void) {
#if defined(CLOCK_MONOTONIC)
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#elif defined(TIME_UTC) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#else
    return (double)clock() / CLOCKS_PER_SEC;
#endif
}
#define BYOC_SIM_CLOCK() byoc__sim_clock()
#endif

BYOC__SIM_PRIVATE byoc_result byoc__sim_fail(byoc_diag *d, byoc_result code, const byoc_node *n, const char *fmt, ...) BYOC__SIM_PRINTF(4, 5);
BYOC__SIM_PRIVATE byoc_result byoc__sim_fail(byoc_diag *d, byoc_result code, const byoc_node *n, const char *fmt, ...) {
    if (!d) return code;
    memset(d, 0, sizeof *d);
    d->code = code;
    if (n) {
        d->node_id = n->id;
        d->line = byoc_node_span(n)->line;
        d->col = byoc_node_span(n)->col;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->message, sizeof d->message, fmt, ap);
    va_end(ap);
    return code;
}

BYOC__SIM_PRIVATE size_t byoc__sim_align(size_t n) { return (n + (BYOC_SIM_ALIGN - 1)) / BYOC_SIM_ALIGN * BYOC_SIM_ALIGN; }

/* "Tensor[(1, 8), float32]" (byoc.h's spelling) of a dtype and shape */
BYOC__SIM_PRIVATE void byoc__sim_shape_string(byoc_dtype dt, int rank, const int64_t *dims, char *out, size_t cap) {
    size_t at = 0;
    if (rank == 0) {
        snprintf(out, cap, "%s", byoc_dtype_name(dt) ? byoc_dtype_name(dt) : "invalid dtype");
        return;
    }
    at += (size_t)snprintf(out + at, cap - at, "Tensor[(");
    for (int i = 0; i < rank && at < cap; ++i) at += (size_t)snprintf(out + at, cap - at, "%s%lld", i ? ", " : "", (long long)dims[i]);
    if (at < cap) snprintf(out + at, cap - at, "%s), %s]", rank == 1 ? "," : "", byoc_dtype_name(dt) ? byoc_dtype_name(dt) : "invalid dtype");
}

// [SECTION] sim impl: program storage
typedef struct byoc__sim_value {
    int buffer;   /* -1: an intermediate of a fused tile, kept in the tile scratch */
    int producer; /* the step that computes it, -1 for inputs and constants */
    byoc_dtype dtype;
    int rank;
    int64_t dims[BYOC_MAX_RANK];
    size_t nbytes;
} byoc__sim_value;

typedef struct byoc__sim_buffer {
    byoc_sim_buffer_kind kind;
    size_t size;
    const byoc_node *constant; /* CONSTANT */
    int first, last;           /* ARENA, OUTPUT: slots of the first write and the last access */
    int inplace_of;
    int unit;                  /* ARENA: union-find parent while planning; buffers of one unit share storage */
    size_t offset;
    void *data;                /* where it is during a run */
} byoc__sim_buffer;

typedef struct byoc__sim_step {
    const byoc_node *call;
    int in_first, nin;   /* operand value ids in p->operands */
    int out_first, nout;
    int tensor_first;    /* nin + nout tensors when the step runs on whole tensors */
    int tiled;           /* runs per tile (TILED kernels, and the epilogue of ANCHOR kernels) */
    int tile_first;      /* nin + nout tile operands */
    int tile_tensor_first; /* per tile shape, nin + nout tensors */
    const byoc_node *shadow[2]; /* the call retyped for a full tile and for the shorter last one */
} byoc__sim_step;

enum { BYOC__SIM_FROM_VALUE = 0, BYOC__SIM_FROM_SCRATCH = 1 };
typedef struct byoc__sim_tile_operand {
    int source;  /* BYOC__SIM_FROM_VALUE: a tensor of the plan; BYOC__SIM_FROM_SCRATCH: a slot of the tile scratch */
    int value;
    int slot;
    int64_t stride[BYOC_MAX_RANK]; /* elements per index step along each axis of the output; 0 where it broadcasts */
    size_t elem;
} byoc__sim_tile_operand;

typedef struct byoc__sim_kernel {
    byoc_sim_kernel_info info;
    int step_first, nsteps;
    int in_first, nin;   /* values read (RUNTIME, COPY: in argument order; TILED, ANCHOR: distinct buffers from outside) */
    int out_first, nout; /* values written */
    /* TILED, ANCHOR: tiles are sub-tensors split at axis `split`, `chunk` indices long along it */
    int rank, split;
    int64_t dims[BYOC_MAX_RANK];
    int64_t chunk, chunks, outer;
    int scratch_slots;
    size_t slot_bytes;
    int final_via_scratch; /* the last op writes a scratch slot that is then copied out (its output aliases an input) */
    /* RUNTIME */
    const char *function;
    int rt_first, rt_nargs; /* argument nodes in p->rt_nodes */
    int rt_leaf_first;      /* one constant per input value in p->rt_nodes */
    /* profile */
    int sample_first, nsamples, next_sample;
} byoc__sim_kernel;

typedef struct byoc__sim_port {
    byoc_sim_io io;
    int value;
} byoc__sim_port;

struct byoc_sim_program {
    byoc_allocator alloc;
    byoc_sim_options opt;
    byoc_module *m;
    byoc_module *shadows; /* retyped op calls for tiles */
    byoc__sim_value *values;
    int nvalues, cap_values;
    byoc__sim_buffer *buffers;
    int nbuffers, cap_buffers;
    byoc__sim_step *steps;
    int nsteps, cap_steps;
    byoc__sim_kernel *kernels;
    int nkernels, cap_kernels;
    int *operands;
    int noperands, cap_operands;
    byoc_tensor *tensors;
    int ntensors, cap_tensors;
    byoc__sim_tile_operand *tile_ops;
    int ntile_ops, cap_tile_ops;
    byoc_sim_access *accesses;
    int naccesses, cap_accesses;
    byoc__sim_port *inputs;
    int ninputs, cap_inputs;
    byoc__sim_port *outputs;
    int noutputs, cap_outputs;
    byoc_node **rt_nodes;
    int nrt_nodes, cap_rt_nodes;
    char **strings;
    int nstrings, cap_strings;
    byoc_sim_memory_plan plan;
    /* memory, from the first run on */
    int ready;
    void *arena_block, *output_block, *workspace_block, *scratch_block;
    double *samples;
};

BYOC__SIM_PRIVATE void *byoc__sim_malloc(const byoc_sim_program *p, size_t n) {
    if (!n) n = 1;
    return p->alloc.alloc_fn ? p->alloc.alloc_fn(n, p->alloc.user_data) : malloc(n);
}
BYOC__SIM_PRIVATE void byoc__sim_mfree(const byoc_sim_program *p, void *ptr) {
    if (!ptr) return;
    if (p->alloc.free_fn) p->alloc.free_fn(ptr, p->alloc.user_data);
    else free(ptr);
}

/* The array data grown to hold `need` elements (the allocator has no realloc); data itself when memory runs out. */
BYOC__SIM_PRIVATE void *byoc__sim_grow(const byoc_sim_program *p, void *data, int *cap, int need, size_t elem) {
    int ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > INT_MAX / 2) return data;
        ncap *= 2;
    }
    void *n = byoc__sim_malloc(p, (size_t)ncap * elem);
    if (!n) return data;
    if (data) {
        memcpy(n, data, (size_t)*cap * elem);
        byoc__sim_mfree(p, data);
    }
    *cap = ncap;
    return n;
}
/* 1 when arr (with capacity cap) holds at least `need` elements afterwards */
#define BYOC__SIM_RESERVE(P, arr, cap, need) \
    ((need) <= (cap) || ((arr) = BYOC__SIM_AS(arr, byoc__sim_grow((P), (arr), &(cap), (need), sizeof *(arr))), (need) <= (cap)))

BYOC__SIM_PRIVATE const char *byoc__sim_strdup(byoc_sim_program *p, const char *s, size_t len) {
    if (!BYOC__SIM_RESERVE(p, p->strings, p->cap_strings, p->nstrings + 1)) return NULL;
    char *c = BYOC__SIM_CAST(char *, byoc__sim_malloc(p, len + 1));
    if (!c) return NULL;
    memcpy(c, s, len);
    c[len] = 0;
    p->strings[p->nstrings++] = c;
    return c;
}

/* A growing string from the program's allocator. */
typedef struct byoc__sim_text {
    const byoc_sim_program *p;
    char *data;
    size_t len, cap;
    int failed;
} byoc__sim_text;

BYOC__SIM_PRIVATE void byoc__sim_text_put(byoc__sim_text *t, const char *s, size_t n) {
    if (t->failed) return;
    if (t->len + n + 1 > t->cap) {
        size_t ncap = t->cap ? t->cap : 256;
        while (ncap < t->len + n + 1) ncap *= 2;
        char *nd = BYOC__SIM_CAST(char *, byoc__sim_malloc(t->p, ncap));
        if (!nd) { t->failed = 1; return; }
        if (t->data) {
            memcpy(nd, t->data, t->len);
            byoc__sim_mfree(t->p, t->data);
        }
        t->data = nd;
        t->cap = ncap;
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = 0;
}
BYOC__SIM_PRIVATE void byoc__sim_text_printf(byoc__sim_text *t, const char *fmt, ...) BYOC__SIM_PRINTF(2, 3);
BYOC__SIM_PRIVATE void byoc__sim_text_printf(byoc__sim_text *t, const char *fmt, ...) {
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) { byoc__sim_text_put(t, small, (size_t)n); return; }
    char *big = BYOC__SIM_CAST(char *, byoc__sim_malloc(t->p, (size_t)n + 1));
    if (!big) { t->failed = 1; return; }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    byoc__sim_text_put(t, big, (size_t)n);
    byoc__sim_mfree(t->p, big);
}

BYOC_SIM_API void byoc_sim_free(byoc_sim_program *p, void *ptr) {
    if (p) byoc__sim_mfree(p, ptr);
}

BYOC_SIM_API void byoc_sim_program_destroy(byoc_sim_program *p) {
    if (!p) return;
    for (int i = 0; i < p->nstrings; ++i) byoc__sim_mfree(p, p->strings[i]);
    byoc__sim_mfree(p, p->strings);
    byoc__sim_mfree(p, p->values);
    byoc__sim_mfree(p, p->buffers);
    byoc__sim_mfree(p, p->steps);
    byoc__sim_mfree(p, p->kernels);
    byoc__sim_mfree(p, p->operands);
    byoc__sim_mfree(p, p->tensors);
    byoc__sim_mfree(p, p->tile_ops);
    byoc__sim_mfree(p, p->accesses);
    byoc__sim_mfree(p, p->inputs);
    byoc__sim_mfree(p, p->outputs);
    byoc__sim_mfree(p, p->rt_nodes);
    byoc__sim_mfree(p, p->arena_block);
    byoc__sim_mfree(p, p->output_block);
    byoc__sim_mfree(p, p->workspace_block);
    byoc__sim_mfree(p, p->scratch_block);
    byoc__sim_mfree(p, p->samples);
    byoc_module_destroy(p->shadows);
    byoc_allocator a = p->alloc;
    if (a.free_fn) a.free_fn(p, a.user_data);
    else free(p);
}

BYOC_SIM_API int byoc_sim_input_count(const byoc_sim_program *p) { return p->ninputs; }
BYOC_SIM_API const byoc_sim_io *byoc_sim_input(const byoc_sim_program *p, int i) { return i >= 0 && i < p->ninputs ? &p->inputs[i].io : NULL; }
BYOC_SIM_API int byoc_sim_output_count(const byoc_sim_program *p) { return p->noutputs; }
BYOC_SIM_API const byoc_sim_io *byoc_sim_output(const byoc_sim_program *p, int i) { return i >= 0 && i < p->noutputs ? &p->outputs[i].io : NULL; }
BYOC_SIM_API int byoc_sim_kernel_count(const byoc_sim_program *p) { return p->nkernels; }
BYOC_SIM_API const byoc_sim_kernel_info *byoc_sim_kernel(const byoc_sim_program *p, int i) { return i >= 0 && i < p->nkernels ? &p->kernels[i].info : NULL; }
BYOC_SIM_API byoc_sim_memory_plan byoc_sim_memory(const byoc_sim_program *p) { return p->plan; }
BYOC_SIM_API int byoc_sim_buffer_count(const byoc_sim_program *p) { return p->nbuffers; }
BYOC_SIM_API byoc_sim_buffer_info byoc_sim_buffer(const byoc_sim_program *p, int i) {
    byoc_sim_buffer_info b;
    memset(&b, 0, sizeof b);
    b.inplace_of = -1;
    if (i < 0 || i >= p->nbuffers) return b;
    const byoc__sim_buffer *s = &p->buffers[i];
    b.kind = s->kind;
    b.size = s->size;
    b.offset = s->kind == BYOC_SIM_BUFFER_ARENA || s->kind == BYOC_SIM_BUFFER_OUTPUT ? s->offset : 0;
    b.first = s->first;
    b.last = s->last;
    b.inplace_of = s->inplace_of;
    return b;
}
BYOC_SIM_API const byoc_sim_access *byoc_sim_accesses(const byoc_sim_program *p, int *count) {
    *count = p->naccesses;
    return p->accesses;
}
BYOC_SIM_API const char *byoc_sim_exec_name(byoc_sim_exec e) {
    switch (e) {
    case BYOC_SIM_EXEC_OPS: return "ops";
    case BYOC_SIM_EXEC_TILED: return "tiled";
    case BYOC_SIM_EXEC_ANCHOR: return "anchor";
    case BYOC_SIM_EXEC_RUNTIME: return "runtime";
    case BYOC_SIM_EXEC_COPY: return "copy";
    }
    return "?";
}

// [SECTION] sim impl: lowering
typedef struct byoc__sim_lowering {
    byoc_sim_program *p;
    byoc_diag *diag;
    byoc_result error; /* the first failure, reported in diag */
    int *leaves;       /* value ids: every lowered expression is a range of this pool (its tensor leaves) */
    int nleaves, cap_leaves;
} byoc__sim_lowering;

BYOC__SIM_PRIVATE int byoc__sim_lower_fail(byoc__sim_lowering *L, byoc_result code, const byoc_node *n, const char *fmt, ...) BYOC__SIM_PRINTF(4, 5);
BYOC__SIM_PRIVATE int byoc__sim_lower_fail(byoc__sim_lowering *L, byoc_result code, const byoc_node *n, const char *fmt, ...) {
    if (L->error) return 0;
    char msg[BYOC_DIAG_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    L->error = code;
    byoc__sim_fail(L->diag, code, n, "%s", msg);
    return 0;
}
#define BYOC__SIM_OOM(L) byoc__sim_lower_fail((L), BYOC_ERR_OUT_OF_MEMORY, NULL, "byoc_sim_lower: out of memory")

/* "nn.conv2d (onnx:conv1)", "%x", "a constant": what a message calls a node */
BYOC__SIM_PRIVATE void byoc__sim_describe(const byoc_node *n, char *out, size_t cap) {
    const char *src = byoc_node_span(n)->source;
    switch (n->kind) {
    case BYOC_NODE_VAR: snprintf(out, cap, "%%%s", n->name ? n->name : "?"); return;
    case BYOC_NODE_CONSTANT: snprintf(out, cap, "a constant"); return;
    case BYOC_NODE_CALL:
        if (n->op) {
            if (src) snprintf(out, cap, "%s (%s)", n->op->def.name, src);
            else snprintf(out, cap, "%s", n->op->def.name);
            return;
        }
        snprintf(out, cap, "a function call");
        return;
    default: snprintf(out, cap, "an expression"); return;
    }
}

BYOC__SIM_PRIVATE int byoc__sim_push_leaf(byoc__sim_lowering *L, int value) {
    if (!BYOC__SIM_RESERVE(L->p, L->leaves, L->cap_leaves, L->nleaves + 1)) return BYOC__SIM_OOM(L);
    L->leaves[L->nleaves++] = value;
    return 1;
}

/* tensor leaves of a type (a tuple's fields, depth first); -1 for anything but tensors and tuples of them */
BYOC__SIM_PRIVATE int byoc__sim_leaf_count(const byoc_type *t) {
    if (!t) return -1;
    if (t->kind == BYOC_TYPE_TENSOR) return 1;
    if (t->kind != BYOC_TYPE_TUPLE) return -1;
    int n = 0;
    for (int i = 0; i < t->nfields; ++i) {
        int k = byoc__sim_leaf_count(t->fields[i]);
        if (k < 0) return -1;
        n += k;
    }
    return n;
}
BYOC__SIM_PRIVATE const byoc_type *byoc__sim_leaf_at(const byoc_type *t, int k) {
    if (t->kind == BYOC_TYPE_TENSOR) return k == 0 ? t : NULL;
    for (int i = 0; i < t->nfields; ++i) {
        int c = byoc__sim_leaf_count(t->fields[i]);
        if (k < c) return byoc__sim_leaf_at(t->fields[i], k);
        k -= c;
    }
    return NULL;
}

BYOC__SIM_PRIVATE int byoc__sim_new_buffer(byoc__sim_lowering *L, byoc_sim_buffer_kind kind, size_t size) {
    byoc_sim_program *p = L->p;
    if (!BYOC__SIM_RESERVE(p, p->buffers, p->cap_buffers, p->nbuffers + 1)) return BYOC__SIM_OOM(L) - 1;
    byoc__sim_buffer *b = &p->buffers[p->nbuffers];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->size = size;
    b->first = INT_MAX;
    b->last = -1;
    b->inplace_of = -1;
    b->unit = p->nbuffers;
    return p->nbuffers++;
}

/* A tensor value of type t in buffer (-1: not decided yet); -1 on failure. */
BYOC__SIM_PRIVATE int byoc__sim_new_value(byoc__sim_lowering *L, const byoc_type *t, int buffer, const byoc_node *where) {
    byoc_sim_program *p = L->p;
    char what[160], ty[160];
    if (!t || t->kind != BYOC_TYPE_TENSOR) {
        byoc__sim_describe(where, what, sizeof what);
        return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, where, "byoc_sim_lower: %s: a value that is not a tensor or a tuple of tensors", what) - 1;
    }
    int64_t n = byoc_type_num_elements(t);
    if (!byoc_type_is_static(t) || n < 0 || (uint64_t)n > (uint64_t)(SIZE_MAX / 16)) {
        byoc__sim_describe(where, what, sizeof what);
        byoc_type_to_string(t, ty, sizeof ty);
        return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, where, "byoc_sim_lower: %s has type %s; programs need static shapes", what, ty) - 1;
    }
    if (!BYOC__SIM_RESERVE(p, p->values, p->cap_values, p->nvalues + 1)) return BYOC__SIM_OOM(L) - 1;
    byoc__sim_value *v = &p->values[p->nvalues];
    memset(v, 0, sizeof *v);
    v->buffer = buffer;
    v->producer = -1;
    v->dtype = t->dtype;
    v->rank = t->rank;
    for (int i = 0; i < t->rank; ++i) v->dims[i] = t->dims[i];
    v->nbytes = (size_t)n * byoc_dtype_size(t->dtype);
    return p->nvalues++;
}

BYOC__SIM_PRIVATE int byoc__sim_same_shape(const byoc__sim_value *a, const byoc__sim_value *b) {
    if (a->rank != b->rank || a->dtype != b->dtype) return 0;
    for (int i = 0; i < a->rank; ++i)
        if (a->dims[i] != b->dims[i]) return 0;
    return 1;
}

/* ops whose result is their input's bytes under another shape: lowered as views of the input's buffer */
BYOC__SIM_PRIVATE int byoc__sim_is_view_op(const byoc_op *op) {
    const char *n = op->def.name;
    return op->builtin && (!strcmp(n, "reshape") || !strcmp(n, "squeeze") || !strcmp(n, "expand_dims") || !strcmp(n, "copy"));
}
/* annotations that pass their argument through */
BYOC__SIM_PRIVATE int byoc__sim_is_identity_op(const byoc_op *op) {
    const char *n = op->def.name;
    return op->builtin && (!strcmp(n, "annotation.stop_fusion") || !strcmp(n, "annotation.compiler_begin") || !strcmp(n, "annotation.compiler_end"));
}

BYOC__SIM_PRIVATE int byoc__sim_check_kernel(byoc__sim_lowering *L, const byoc_node *call) {
    if (byoc_kernel_exists(call->op)) return 1;
    char what[160];
    byoc__sim_describe(call, what, sizeof what);
    return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, call, "byoc_sim_lower: %s has no host kernel", what);
}

/* A step running `call` on the values leaves[in_first, +nin); its results are new values (in new arena buffers
   unless pending, when the fused group decides where they live), appended to the leaves as [*rf, +*rc). */
BYOC__SIM_PRIVATE int byoc__sim_new_step(byoc__sim_lowering *L, const byoc_node *call, int in_first, int nin, int pending, int *rf, int *rc) {
    byoc_sim_program *p = L->p;
    int nout = byoc__sim_leaf_count(call->checked_type);
    if (nout < 1) {
        char what[160];
        byoc__sim_describe(call, what, sizeof what);
        return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, call, "byoc_sim_lower: %s: its result is not a tensor or a tuple of tensors", what);
    }
    if (!BYOC__SIM_RESERVE(p, p->steps, p->cap_steps, p->nsteps + 1) || !BYOC__SIM_RESERVE(p, p->operands, p->cap_operands, p->noperands + nin + nout))
        return BYOC__SIM_OOM(L);
    int s = p->nsteps;
    byoc__sim_step st;
    memset(&st, 0, sizeof st);
    st.call = call;
    st.in_first = p->noperands;
    st.nin = nin;
    for (int q = 0; q < nin; ++q) p->operands[p->noperands++] = L->leaves[in_first + q];
    st.out_first = p->noperands;
    st.nout = nout;
    st.tensor_first = st.tile_first = st.tile_tensor_first = -1;
    p->noperands += nout;
    *rf = L->nleaves;
    *rc = nout;
    for (int k = 0; k < nout; ++k) {
        int v = byoc__sim_new_value(L, byoc__sim_leaf_at(call->checked_type, k), -1, call);
        if (v < 0) return 0;
        if (!pending) {
            int b = byoc__sim_new_buffer(L, BYOC_SIM_BUFFER_ARENA, p->values[v].nbytes);
            if (b < 0) return 0;
            p->values[v].buffer = b;
        }
        p->values[v].producer = s;
        p->operands[st.out_first + k] = v;
        if (!byoc__sim_push_leaf(L, v)) return 0;
    }
    p->steps[p->nsteps++] = st;
    return 1;
}

/* the tensors a step runs on when it runs on whole tensors (data pointers are set at each run) */
BYOC__SIM_PRIVATE int byoc__sim_step_tensors(byoc__sim_lowering *L, int s) {
    byoc_sim_program *p = L->p;
    int n = p->steps[s].nin + p->steps[s].nout;
    if (!BYOC__SIM_RESERVE(p, p->tensors, p->cap_tensors, p->ntensors + n)) return BYOC__SIM_OOM(L);
    byoc__sim_step *st = &p->steps[s];
    st->tensor_first = p->ntensors;
    for (int q = 0; q < n; ++q) {
        const byoc__sim_value *v = &p->values[p->operands[(q < st->nin ? st->in_first : st->out_first - st->nin) + q]];
        byoc_tensor *t = &p->tensors[p->ntensors++];
        memset(t, 0, sizeof *t);
        t->dtype = v->dtype;
        t->rank = v->rank;
        for (int i = 0; i < v->rank; ++i) t->dims[i] = v->dims[i];
    }
    return 1;
}

BYOC__SIM_PRIVATE int byoc__sim_new_kernel(byoc__sim_lowering *L, byoc_sim_exec exec, const char *partition) {
    byoc_sim_program *p = L->p;
    if (!BYOC__SIM_RESERVE(p, p->kernels, p->cap_kernels, p->nkernels + 1)) return BYOC__SIM_OOM(L) - 1;
    byoc__sim_kernel *k = &p->kernels[p->nkernels];
    memset(k, 0, sizeof *k);
    k->info.exec = exec;
    k->info.device = "host";
    k->info.partition = partition;
    k->info.name = k->info.ops = "";
    k->split = -1;
    k->step_first = p->nsteps;
    return p->nkernels++;
}

/* Builds a kernel's name from the frontend names of its ops (a frontend node lowered to several ops once, an op's
   name where a node has no frontend name) and its op list. */
typedef struct byoc__sim_namer {
    byoc__sim_text name, ops;
    const char *prev;
    int count;
} byoc__sim_namer;

BYOC__SIM_PRIVATE void byoc__sim_namer_init(byoc__sim_namer *nm, const byoc_sim_program *p) {
    memset(nm, 0, sizeof *nm);
    nm->name.p = nm->ops.p = p;
}
BYOC__SIM_PRIVATE void byoc__sim_namer_add(byoc__sim_namer *nm, const byoc_node *call) {
    const char *src = byoc_node_span(call)->source, *op = call->op->def.name;
    const char *piece = src && *src ? src : op;
    if (!(src && *src && nm->prev && !strcmp(nm->prev, src))) {
        if (nm->name.len) byoc__sim_text_put(&nm->name, "+", 1);
        byoc__sim_text_put(&nm->name, piece, strlen(piece));
    }
    nm->prev = src && *src ? src : NULL;
    if (nm->ops.len) byoc__sim_text_put(&nm->ops, "+", 1);
    byoc__sim_text_put(&nm->ops, op, strlen(op));
    nm->count++;
}
BYOC__SIM_PRIVATE int byoc__sim_namer_finish(byoc__sim_lowering *L, byoc__sim_namer *nm, int kernel, const char *fallback) {
    byoc_sim_program *p = L->p;
    int ok = !nm->name.failed && !nm->ops.failed;
    const char *name = nm->name.len ? nm->name.data : fallback ? fallback : "";
    const char *ops = nm->ops.len ? nm->ops.data : "";
    const char *n = ok ? byoc__sim_strdup(p, name, strlen(name)) : NULL;
    const char *o = n ? byoc__sim_strdup(p, ops, strlen(ops)) : NULL;
    byoc__sim_mfree(p, nm->name.data);
    byoc__sim_mfree(p, nm->ops.data);
    if (!o) return BYOC__SIM_OOM(L);
    p->kernels[kernel].info.name = n;
    p->kernels[kernel].info.ops = o;
    p->kernels[kernel].info.nops = nm->count;
    return 1;
}

/* an op call in the schedule: a view, a pass-through, or a kernel of its own */
BYOC__SIM_PRIVATE int byoc__sim_schedule_op(byoc__sim_lowering *L, const byoc_node *call, int in_first, int nin, const char *partition, int *rf, int *rc) {
    byoc_sim_program *p = L->p;
    if (byoc__sim_is_identity_op(call->op)) {
        *rf = in_first;
        *rc = nin;
        return 1;
    }
    if (byoc__sim_is_view_op(call->op) && !p->opt.no_alias && nin == 1) {
        int in = L->leaves[in_first];
        int v = byoc__sim_new_value(L, call->checked_type, p->values[in].buffer, call);
        if (v < 0) return 0;
        if (p->values[v].nbytes != p->values[in].nbytes) return byoc__sim_lower_fail(L, BYOC_ERR_INTERNAL, call, "byoc_sim_lower: a view changes the size");
        p->plan.views++;
        *rf = L->nleaves;
        *rc = 1;
        return byoc__sim_push_leaf(L, v);
    }
    if (!byoc__sim_check_kernel(L, call)) return 0;
    int k = byoc__sim_new_kernel(L, BYOC_SIM_EXEC_OPS, partition);
    if (k < 0 || !byoc__sim_new_step(L, call, in_first, nin, 0, rf, rc) || !byoc__sim_step_tensors(L, p->nsteps - 1)) return 0;
    p->kernels[k].nsteps = 1;
    byoc__sim_namer nm;
    byoc__sim_namer_init(&nm, p);
    byoc__sim_namer_add(&nm, call);
    return byoc__sim_namer_finish(L, &nm, k, NULL);
}

/* an op call inside a fused group: a step whose results wait for the group's decision */
BYOC__SIM_PRIVATE int byoc__sim_group_op(byoc__sim_lowering *L, const byoc_node *call, int in_first, int nin, int *rf, int *rc) {
    if (byoc__sim_is_identity_op(call->op)) {
        *rf = in_first;
        *rc = nin;
        return 1;
    }
    if (!(byoc__sim_is_view_op(call->op) && !L->p->opt.no_alias) && !byoc__sim_check_kernel(L, call)) return 0;
    return byoc__sim_new_step(L, call, in_first, nin, 1, rf, rc);
}

/* the argument node of one parameter of a runtime module's function, from the per-leaf constants */
BYOC__SIM_PRIVATE byoc_node *byoc__sim_runtime_arg(byoc__sim_lowering *L, const byoc_type *t, int leaf_first, int *at) {
    byoc_sim_program *p = L->p;
    if (t->kind == BYOC_TYPE_TENSOR) return p->rt_nodes[leaf_first + (*at)++];
    byoc_node **fields = BYOC__SIM_CAST(byoc_node **, byoc__sim_malloc(p, sizeof(byoc_node *) * (size_t)(t->nfields > 0 ? t->nfields : 1)));
    if (!fields) return NULL;
    int ok = 1;
    for (int i = 0; i < t->nfields && ok; ++i) ok = (fields[i] = byoc__sim_runtime_arg(L, t->fields[i], leaf_first, at)) != NULL;
    byoc_node *tuple = ok ? byoc_tuple(p->m, fields, t->nfields) : NULL;
    byoc__sim_mfree(p, fields);
    return tuple;
}

/* A call of a partition with a runtime module: one kernel that hands its inputs over as constants of the module. The
   constants are made once here; each run refills their data (see byoc__sim_dispatch_runtime). */
BYOC__SIM_PRIVATE int byoc__sim_runtime_kernel(byoc__sim_lowering *L, byoc_node *call, byoc_node *f, const char *gname, int in_first, int nin, int *rf,
                                               int *rc) {
    byoc_sim_program *p = L->p;
    const char *compiler = byoc_attrs_string(&f->attrs, "Compiler", NULL);
    int k = byoc__sim_new_kernel(L, BYOC_SIM_EXEC_RUNTIME, gname);
    if (k < 0) return 0;
    byoc__sim_kernel *kk = &p->kernels[k];
    kk->info.device = compiler && *compiler ? compiler : gname;
    kk->function = gname;
    kk->nsteps = 0;
    if (!BYOC__SIM_RESERVE(p, p->operands, p->cap_operands, p->noperands + nin) || !BYOC__SIM_RESERVE(p, p->rt_nodes, p->cap_rt_nodes, p->nrt_nodes + nin + f->nparams))
        return BYOC__SIM_OOM(L);
    kk->in_first = p->noperands;
    kk->nin = nin;
    kk->rt_leaf_first = p->nrt_nodes;
    for (int q = 0; q < nin; ++q) {
        int v = L->leaves[in_first + q];
        p->operands[p->noperands++] = v;
        const byoc__sim_value *val = &p->values[v];
        byoc_node *c = byoc_constant(p->m, byoc_tensor_type(p->m, val->dtype, val->rank, val->dims), NULL, 0);
        if (!c || byoc_constant_nbytes(c) != val->nbytes) {
            const byoc_diag *e = byoc_module_error(p->m);
            return byoc__sim_lower_fail(L, e ? e->code : BYOC_ERR_OUT_OF_MEMORY, call, "byoc_sim_lower: arguments for @%s's runtime module: %s", gname,
                                        e ? e->message : "out of memory");
        }
        p->rt_nodes[p->nrt_nodes++] = c;
    }
    kk->rt_first = p->nrt_nodes;
    kk->rt_nargs = f->nparams;
    int at = 0;
    for (int i = 0; i < f->nparams; ++i) {
        const byoc_type *t = f->params[i]->checked_type;
        int need = byoc__sim_leaf_count(t);
        byoc_node *arg = need >= 0 && at + need <= nin ? byoc__sim_runtime_arg(L, t, p->kernels[k].rt_leaf_first, &at) : NULL;
        if (!arg) return byoc__sim_lower_fail(L, BYOC_ERR_INTERNAL, call, "byoc_sim_lower: arguments for @%s's runtime module do not match its parameters", gname);
        p->rt_nodes[p->nrt_nodes++] = arg;
    }
    if (at != nin) return byoc__sim_lower_fail(L, BYOC_ERR_INTERNAL, call, "byoc_sim_lower: arguments for @%s's runtime module do not match its parameters", gname);
    int nout = byoc__sim_leaf_count(call->checked_type);
    if (nout < 1) return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, call, "byoc_sim_lower: @%s does not return tensors", gname);
    if (!BYOC__SIM_RESERVE(p, p->operands, p->cap_operands, p->noperands + nout)) return BYOC__SIM_OOM(L);
    p->kernels[k].out_first = p->noperands;
    p->kernels[k].nout = nout;
    p->noperands += nout;
    *rf = L->nleaves;
    *rc = nout;
    for (int i = 0; i < nout; ++i) {
        int v = byoc__sim_new_value(L, byoc__sim_leaf_at(call->checked_type, i), -1, call);
        int b = v >= 0 ? byoc__sim_new_buffer(L, BYOC_SIM_BUFFER_ARENA, p->values[v].nbytes) : -1;
        if (b < 0) return 0;
        p->values[v].buffer = b;
        p->operands[p->kernels[k].out_first + i] = v;
        if (!byoc__sim_push_leaf(L, v)) return 0;
    }
    /* named after the ops inside the partition */
    byoc__sim_namer nm;
    byoc__sim_namer_init(&nm, p);
    byoc_graph g;
    if (byoc_graph_build(p->m, f->body, BYOC_GRAPH_ENTER_FUNCTIONS, &g) == BYOC_OK) {
        for (int i = 0; i < g.count; ++i) {
            const byoc_node *n = g.nodes[i].node;
            if (n->kind == BYOC_NODE_CALL && n->op && !byoc__sim_is_identity_op(n->op)) byoc__sim_namer_add(&nm, n);
        }
        byoc_graph_free(&g);
    }
    char fallback[256];
    snprintf(fallback, sizeof fallback, "@%s", gname);
    return byoc__sim_namer_finish(L, &nm, k, fallback);
}

BYOC__SIM_PRIVATE int byoc__sim_finish_group(byoc__sim_lowering *L, int step0, int rf, int rc, const char *partition);
BYOC__SIM_PRIVATE int byoc__sim_lower_fn(byoc__sim_lowering *L, byoc_node *fn, int args_first, int nargs, const char *partition, int group, int depth,
                                         int *rf, int *rc);

/* a call of a function: a runtime module's partition, an inlined partition, a fused group, or an inlined function */
BYOC__SIM_PRIVATE int byoc__sim_lower_call(byoc__sim_lowering *L, byoc_node *call, int in_first, int nin, const char *partition, int group, int depth,
                                           int *rf, int *rc) {
    byoc_sim_program *p = L->p;
    byoc_node *callee = call->callee, *f = NULL;
    const char *gname = NULL;
    const byoc_runtime_module *rm = NULL;
    if (callee->kind == BYOC_NODE_GLOBAL_VAR) {
        gname = callee->name;
        f = byoc_module_function(p->m, gname);
        rm = byoc_module_runtime(p->m, gname);
        if (!f) return byoc__sim_lower_fail(L, BYOC_ERR_NOT_FOUND, call, "byoc_sim_lower: @%s is not defined", gname);
    } else if (callee->kind == BYOC_NODE_FUNCTION) {
        f = callee;
    } else {
        return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, call, "byoc_sim_lower: a call of a function value is not supported (only of functions and globals)");
    }
    if (group) {
        if (rm) return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, call, "byoc_sim_lower: @%s has a runtime module but is called inside a fused group", gname);
        return byoc__sim_lower_fn(L, f, in_first, nin, partition, 1, depth + 1, rf, rc);
    }
    if (rm) return byoc__sim_runtime_kernel(L, call, f, gname, in_first, nin, rf, rc);
    const char *compiler = byoc_attrs_string(&f->attrs, "Compiler", NULL);
    if (compiler && *compiler) {
        const char *tag = gname ? gname : byoc_attrs_string(&f->attrs, "global_symbol", compiler);
        return byoc__sim_lower_fn(L, f, in_first, nin, tag, 0, depth + 1, rf, rc);
    }
    if (byoc_attrs_int(&f->attrs, "Primitive", 0)) {
        int step0 = p->nsteps;
        return byoc__sim_lower_fn(L, f, in_first, nin, partition, 1, depth + 1, rf, rc) && byoc__sim_finish_group(L, step0, *rf, *rc, partition);
    }
    return byoc__sim_lower_fn(L, f, in_first, nin, partition, 0, depth + 1, rf, rc);
}

/* Lowers fn's body with its parameters bound to leaves[args_first, +nargs). In the schedule (group 0) each op becomes
   a kernel; inside a fused group (group 1) each op becomes a step of the group. The result is leaves[*rf, +*rc). */
BYOC__SIM_PRIVATE int byoc__sim_lower_fn(byoc__sim_lowering *L, byoc_node *fn, int args_first, int nargs, const char *partition, int group, int depth,
                                         int *rf, int *rc) {
    byoc_sim_program *p = L->p;
    if (depth > BYOC__SIM_MAX_DEPTH) return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, fn, "byoc_sim_lower: calls nested too deeply");
    int np = fn->nparams;
    int *poff = BYOC__SIM_CAST(int *, byoc__sim_malloc(p, sizeof(int) * (size_t)(np + 1)));
    if (!poff) return BYOC__SIM_OOM(L);
    poff[0] = 0;
    for (int i = 0; i < np; ++i) {
        int c = byoc__sim_leaf_count(fn->params[i]->checked_type);
        if (c < 0) {
            byoc__sim_mfree(p, poff);
            return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, fn->params[i], "byoc_sim_lower: parameter %%%s is not a tensor or a tuple of tensors",
                                        fn->params[i]->name ? fn->params[i]->name : "?");
        }
        poff[i + 1] = poff[i] + c;
    }
    if (poff[np] != nargs) {
        byoc__sim_mfree(p, poff);
        return byoc__sim_lower_fail(L, BYOC_ERR_INTERNAL, fn, "byoc_sim_lower: %d argument values for %d parameter values", nargs, poff[np]);
    }
    byoc_graph g;
    if (byoc_graph_build(p->m, fn->body, 0, &g) != BYOC_OK) {
        byoc__sim_mfree(p, poff);
        return BYOC__SIM_OOM(L);
    }
    int *nf = BYOC__SIM_CAST(int *, byoc__sim_malloc(p, sizeof(int) * 2 * (size_t)(g.count > 0 ? g.count : 1)));
    int ok = nf != NULL;
    if (!ok) BYOC__SIM_OOM(L);
    int *nc = ok ? nf + g.count : NULL;
    for (int i = 0; ok && i < g.count; ++i) {
        byoc_node *n = g.nodes[i].node;
        nf[i] = L->nleaves;
        nc[i] = 0;
        switch (n->kind) {
        case BYOC_NODE_VAR: {
            int k = -1;
            for (int j = 0; j < np && k < 0; ++j)
                if (fn->params[j] == n) k = j;
            if (k < 0) {
                ok = byoc__sim_lower_fail(L, BYOC_ERR_INVALID_ARGUMENT, n, "byoc_sim_lower: %%%s is not bound by the function that uses it", n->name ? n->name : "?");
                break;
            }
            nf[i] = args_first + poff[k];
            nc[i] = poff[k + 1] - poff[k];
            break;
        }
        case BYOC_NODE_CONSTANT: {
            const byoc_type *t = n->checked_type ? n->checked_type : n->annotation;
            int v = byoc__sim_new_value(L, t, -1, n);
            int b = v >= 0 ? byoc__sim_new_buffer(L, BYOC_SIM_BUFFER_CONSTANT, p->values[v].nbytes) : -1;
            ok = b >= 0;
            if (!ok) break;
            if (byoc_constant_nbytes(n) != p->values[v].nbytes) {
                ok = byoc__sim_lower_fail(L, BYOC_ERR_INTERNAL, n, "byoc_sim_lower: a constant holds %zu bytes, its type needs %zu", byoc_constant_nbytes(n),
                                          p->values[v].nbytes);
                break;
            }
            p->buffers[b].constant = n;
            p->values[v].buffer = b;
            nc[i] = 1;
            ok = byoc__sim_push_leaf(L, v);
            break;
        }
        case BYOC_NODE_TUPLE:
            for (int a = 0; ok && a < n->nargs; ++a) {
                int gi = byoc_graph_index(&g, n->args[a]);
                for (int j = 0; ok && j < nc[gi]; ++j) ok = byoc__sim_push_leaf(L, L->leaves[nf[gi] + j]);
                nc[i] += nc[gi];
            }
            break;
        case BYOC_NODE_TUPLE_GET_ITEM: {
            int gi = byoc_graph_index(&g, n->args[0]);
            const byoc_type *t = n->args[0]->checked_type;
            if (!t || t->kind != BYOC_TYPE_TUPLE || n->index < 0 || n->index >= t->nfields) {
                ok = byoc__sim_lower_fail(L, BYOC_ERR_TYPE, n, "byoc_sim_lower: a projection .%d of a value that is not a tuple with that field", n->index);
                break;
            }
            int off = 0;
            for (int j = 0; j < n->index; ++j) off += byoc__sim_leaf_count(t->fields[j]);
            nf[i] = nf[gi] + off;
            nc[i] = byoc__sim_leaf_count(t->fields[n->index]);
            break;
        }
        case BYOC_NODE_CALL: {
            int start = L->nleaves, cnt = 0;
            for (int a = 0; ok && a < n->nargs; ++a) {
                int gi = byoc_graph_index(&g, n->args[a]);
                for (int j = 0; ok && j < nc[gi]; ++j) ok = byoc__sim_push_leaf(L, L->leaves[nf[gi] + j]);
                cnt += nc[gi];
            }
            if (!ok) break;
            if (n->op) ok = group ? byoc__sim_group_op(L, n, start, cnt, &nf[i], &nc[i]) : byoc__sim_schedule_op(L, n, start, cnt, partition, &nf[i], &nc[i]);
            else ok = byoc__sim_lower_call(L, n, start, cnt, partition, group, depth, &nf[i], &nc[i]);
            break;
        }
        case BYOC_NODE_FUNCTION:
        case BYOC_NODE_GLOBAL_VAR: break; /* values only as callees, handled at their calls */
        }
    }
    if (ok && g.count) {
        *rf = nf[g.count - 1];
        *rc = nc[g.count - 1];
    }
    ok = ok && g.count > 0;
    byoc__sim_mfree(p, nf);
    byoc__sim_mfree(p, poff);
    byoc_graph_free(&g);
    return ok && !L->error;
}

// [SECTION] sim impl: fused groups (tiled elementwise, anchor + epilogue)
/* Ops that run on a tile: each result element comes from the elements at the same index of its (broadcast)
   inputs. expand_dims and broadcast_to are BROADCAST too but change the shape. */
BYOC__SIM_PRIVATE int byoc__sim_tileable_op(const byoc_op *op) {
    return op && op->builtin && op->def.pattern <= BYOC_PATTERN_BROADCAST && strcmp(op->def.name, "expand_dims") && strcmp(op->def.name, "broadcast_to");
}
/* Tileable ops whose kernel may write its result over an input of the same shape: byoc.h's elementwise kernels
   read element i before they write element i. Not copy, cast and where, whose kernels move bytes with memcpy
   (overlapping copies are undefined). */
BYOC__SIM_PRIVATE int byoc__sim_inplace_op(const byoc_op *op) {
    return byoc__sim_tileable_op(op) && strcmp(op->def.name, "copy") && strcmp(op->def.name, "cast") && strcmp(op->def.name, "where");
}

/* How input q (value v) of a tileable step lines up with the output shape D (rank n): A[j] is its extent along output
   axis j (1 where it broadcasts). numpy broadcasting aligns the right ends; nn.bias_add's and nn.prelu's second input
   is 1-D along `axis` (*axis_form). 0 when v does not line up. */
BYOC__SIM_PRIVATE int byoc__sim_line_up(const byoc_node *call, int q, const byoc__sim_value *v, const int64_t *D, int n, int64_t *A, int *axis_form) {
    const char *op = call->op->def.name;
    *axis_form = -1;
    if (q == 1 && (!strcmp(op, "nn.bias_add") || !strcmp(op, "nn.prelu"))) {
        int64_t axis = byoc_attrs_int(&call->attrs, "axis", 1);
        if (axis < 0) axis += n;
        if (axis < 0 || axis >= n || v->rank != 1) return 0;
        for (int j = 0; j < n; ++j) A[j] = 1;
        A[axis] = v->dims[0];
        if (A[axis] != 1 && A[axis] != D[axis]) return 0;
        *axis_form = (int)axis;
        return 1;
    }
    if (v->rank > n) return 0;
    for (int j = 0; j < n; ++j) {
        int jj = j - (n - v->rank);
        A[j] = jj < 0 ? 1 : v->dims[jj];
        if (A[j] != 1 && A[j] != D[j]) return 0;
    }
    return 1;
}

BYOC__SIM_PRIVATE int64_t byoc__sim_elements(const byoc__sim_value *v) {
    int64_t n = 1;
    for (int i = 0; i < v->rank; ++i) n *= v->dims[i];
    return n;
}

/* A kernel that runs a group's remaining steps one after another, intermediates in the arena; views become views. */
BYOC__SIM_PRIVATE int byoc__sim_group_ops(byoc__sim_lowering *L, int step0, const char *partition) {
    byoc_sim_program *p = L->p;
    int k = byoc__sim_new_kernel(L, BYOC_SIM_EXEC_OPS, partition);
    if (k < 0) return 0;
    p->kernels[k].step_first = step0;
    byoc__sim_namer nm;
    byoc__sim_namer_init(&nm, p);
    int w = step0, end = p->nsteps, ok = 1;
    for (int s = step0; ok && s < end; ++s) {
        byoc__sim_step st = p->steps[s];
        if (byoc__sim_is_view_op(st.call->op) && !p->opt.no_alias && st.nin == 1 && st.nout == 1) {
            byoc__sim_value *out = &p->values[p->operands[st.out_first]];
            out->buffer = p->values[p->operands[st.in_first]].buffer;
            out->producer = -1;
            p->plan.views++;
            continue;
        }
        for (int q = 0; ok && q < st.nout; ++q) {
            int v = p->operands[st.out_first + q];
            int b = byoc__sim_new_buffer(L, BYOC_SIM_BUFFER_ARENA, p->values[v].nbytes);
            ok = b >= 0;
            if (ok) {
                p->values[v].buffer = b;
                p->values[v].producer = w;
            }
        }
        p->steps[w] = st;
        ok = ok && byoc__sim_step_tensors(L, w);
        byoc__sim_namer_add(&nm, st.call);
        w++;
    }
    p->nsteps = w;
    p->kernels[k].nsteps = w - step0;
    if (!ok) {
        byoc__sim_mfree(p, nm.name.data);
        byoc__sim_mfree(p, nm.ops.data);
        return 0;
    }
    return byoc__sim_namer_finish(L, &nm, k, NULL);
}

enum { BYOC__SIM_GROUP_OPS, BYOC__SIM_GROUP_TILED, BYOC__SIM_GROUP_ANCHOR };

/* TILED, ANCHOR or OPS for the group of steps [step0, p->nsteps) whose result is value R */
BYOC__SIM_PRIVATE int byoc__sim_group_mode(const byoc_sim_program *p, int step0, int R) {
    int end = p->nsteps;
    if (p->opt.no_fused_tiling || end - step0 < 2) return BYOC__SIM_GROUP_OPS;
    const byoc__sim_step *last = &p->steps[end - 1];
    if (last->nout != 1 || p->operands[last->out_first] != R) return BYOC__SIM_GROUP_OPS;
    const byoc__sim_value *rv = &p->values[R];
    if (rv->rank < 1 || rv->nbytes == 0) return BYOC__SIM_GROUP_OPS;
    int anchors = 0;
    for (int s = step0; s < end; ++s) anchors += p->steps[s].call->op->def.pattern == BYOC_PATTERN_OUT_ELEMWISE_FUSABLE;
    if (anchors > 1) return BYOC__SIM_GROUP_OPS;
    int anchor_value = -1;
    if (anchors) { /* the first step, fed from outside, with the output's type */
        const byoc__sim_step *a = &p->steps[step0];
        if (a->call->op->def.pattern != BYOC_PATTERN_OUT_ELEMWISE_FUSABLE || a->nout != 1) return BYOC__SIM_GROUP_OPS;
        anchor_value = p->operands[a->out_first];
        if (!byoc__sim_same_shape(&p->values[anchor_value], rv)) return BYOC__SIM_GROUP_OPS;
        for (int q = 0; q < a->nin; ++q)
            if (p->values[p->operands[a->in_first + q]].producer >= step0) return BYOC__SIM_GROUP_OPS;
    }
    for (int s = step0 + anchors; s < end; ++s) {
        const byoc__sim_step *st = &p->steps[s];
        if (!byoc__sim_tileable_op(st->call->op) || !byoc_kernel_exists(st->call->op) || st->nout != 1 || st->nin != st->call->nargs) return BYOC__SIM_GROUP_OPS;
        const byoc__sim_value *o = &p->values[p->operands[st->out_first]];
        if (o->rank != rv->rank) return BYOC__SIM_GROUP_OPS;
        for (int j = 0; j < o->rank; ++j)
            if (o->dims[j] != rv->dims[j]) return BYOC__SIM_GROUP_OPS;
        for (int q = 0; q < st->nin; ++q) {
            int v = p->operands[st->in_first + q];
            int64_t A[BYOC_MAX_RANK];
            int axis_form;
            if (!byoc__sim_line_up(st->call, q, &p->values[v], rv->dims, rv->rank, A, &axis_form)) return BYOC__SIM_GROUP_OPS;
            /* an intermediate lives in tile form: it cannot stand for a 1-D operand along an axis */
            if (p->values[v].producer >= step0 && v != anchor_value && axis_form >= 0 && rv->rank != 1) return BYOC__SIM_GROUP_OPS;
        }
    }
    return anchors ? BYOC__SIM_GROUP_ANCHOR : BYOC__SIM_GROUP_TILED;
}

/* Row-major strides (in elements) of a shape A over the output's axes, 0 where A broadcasts. */
BYOC__SIM_PRIVATE void byoc__sim_strides(const int64_t *A, int n, int64_t *stride) {
    int64_t s = 1;
    for (int j = n - 1; j >= 0; --j) {
        stride[j] = A[j] == 1 ? 0 : s;
        s *= A[j];
    }
}

/* The tile operands, retyped calls and tensors of one tiled step s of kernel k. slot_of[i] is the scratch slot of the
   result of step step0 + i; values computed by the group before `first_tiled` (the anchor) and the result R are read
   and written in place, in tile form. */
BYOC__SIM_PRIVATE int byoc__sim_tile_step(byoc__sim_lowering *L, int k, int s, int step0, const int *slot_of, int R) {
    byoc_sim_program *p = L->p;
    const byoc__sim_kernel *kk = &p->kernels[k];
    int n = kk->rank, split = kk->split;
    const int64_t *D = kk->dims;
    int64_t rem = D[split] - (kk->chunks - 1) * kk->chunk;
    int variants = rem == kk->chunk ? 1 : 2;
    int nin = p->steps[s].nin, nops = nin + 1;
    const byoc_node *call = p->steps[s].call;
    if (!BYOC__SIM_RESERVE(p, p->tile_ops, p->cap_tile_ops, p->ntile_ops + nops) || !BYOC__SIM_RESERVE(p, p->tensors, p->cap_tensors, p->ntensors + 2 * nops))
        return BYOC__SIM_OOM(L);
    byoc__sim_step *st = &p->steps[s];
    st->tiled = 1;
    st->tile_first = p->ntile_ops;
    st->tile_tensor_first = p->ntensors;
    p->ntile_ops += nops;
    p->ntensors += 2 * nops;
    int axis_of[BYOC_MAX_RANK + 1]; /* per input, its axis when 1-D along an axis; a step has at most 3 inputs */
    int64_t aligned[4][BYOC_MAX_RANK];
    if (nin > 3) return byoc__sim_lower_fail(L, BYOC_ERR_INTERNAL, call, "byoc_sim_lower: a tiled op with %d inputs", nin);
    for (int q = 0; q < nops; ++q) {
        int v = p->operands[q < nin ? st->in_first + q : st->out_first];
        const byoc__sim_value *val = &p->values[v];
        byoc__sim_tile_operand *to = &p->tile_ops[st->tile_first + q];
        memset(to, 0, sizeof *to);
        to->value = v;
        to->elem = byoc_dtype_size(val->dtype);
        axis_of[q] = -1;
        int internal = val->producer >= step0 && val->buffer < 0;
        if (internal) {
            to->source = BYOC__SIM_FROM_SCRATCH;
            to->slot = slot_of[val->producer - step0];
            for (int j = 0; j < n; ++j) aligned[q][j] = D[j];
            continue;
        }
        to->source = BYOC__SIM_FROM_VALUE;
        if (q == nin || v == R || val->producer >= step0) { /* the result, or the anchor's value in the result's buffer */
            for (int j = 0; j < n; ++j) aligned[q][j] = D[j];
        } else if (!byoc__sim_line_up(call, q, val, D, n, aligned[q], &axis_of[q])) {
            return byoc__sim_lower_fail(L, BYOC_ERR_INTERNAL, call, "byoc_sim_lower: a tiled input does not line up with the output");
        }
        if (byoc__sim_elements(val) == 1) {
            for (int j = 0; j < n; ++j) to->stride[j] = 0;
        } else {
            byoc__sim_strides(aligned[q], n, to->stride);
        }
    }
    /* one retyped call per tile shape: a full tile, and the shorter last one */
    for (int var = 0; var < variants; ++var) {
        int64_t e = var == 0 ? kk->chunk : rem;
        byoc_node *vars[3];
        for (int q = 0; q < nops; ++q) {
            const byoc__sim_tile_operand *to = &p->tile_ops[st->tile_first + q];
            const byoc__sim_value *val = &p->values[to->value];
            byoc_tensor *t = &p->tensors[st->tile_tensor_first + var * nops + q];
            memset(t, 0, sizeof *t);
            t->dtype = val->dtype;
            if (to->source == BYOC__SIM_FROM_VALUE && byoc__sim_elements(val) == 1 && q < nin) {
                t->rank = val->rank;
                for (int j = 0; j < val->rank; ++j) t->dims[j] = val->dims[j];
            } else if (axis_of[q] >= 0) {
                int ax = axis_of[q];
                t->rank = 1;
                t->dims[0] = ax < split ? 1 : ax == split ? (aligned[q][split] == 1 ? 1 : e) : aligned[q][ax];
            } else {
                t->rank = n;
                for (int j = 0; j < n; ++j) t->dims[j] = j < split ? 1 : j == split ? (aligned[q][split] == 1 ? 1 : e) : aligned[q][j];
            }
            if (q < nin) {
                const byoc_type *ty = byoc_tensor_type(p->shadows, t->dtype, t->rank, t->dims);
                vars[q] = ty ? byoc_var(p->shadows, "tile", ty) : NULL;
                if (vars[q]) vars[q]->checked_type = ty;
            }
        }
        const byoc_tensor *out = &p->tensors[st->tile_tensor_first + var * nops + nin];
        byoc_node *shadow = byoc_call_op(p->shadows, call->op, vars, nin, &call->attrs);
        if (shadow) shadow->checked_type = byoc_tensor_type(p->shadows, out->dtype, out->rank, out->dims);
        if (!shadow || !shadow->checked_type) {
            const byoc_diag *e2 = byoc_module_error(p->shadows);
            return byoc__sim_lower_fail(L, e2 ? e2->code : BYOC_ERR_OUT_OF_MEMORY, call, "byoc_sim_lower: retyping an op for tiles: %s", e2 ? e2->message : "out of memory");
        }
        p->steps[s].shadow[var] = shadow;
    }
    return 1;
}

/* A fused elementwise chain (anchor 0) or anchor + epilogue (anchor 1) as one tiled kernel. */
BYOC__SIM_PRIVATE int byoc__sim_group_tiled(byoc__sim_lowering *L, int step0, int R, int anchor, const char *partition) {
    byoc_sim_program *p = L->p;
    int end = p->nsteps, first = step0 + anchor;
    int k = byoc__sim_new_kernel(L, anchor ? BYOC_SIM_EXEC_ANCHOR : BYOC_SIM_EXEC_TILED, partition);
    int b = k >= 0 ? byoc__sim_new_buffer(L, BYOC_SIM_BUFFER_ARENA, p->values[R].nbytes) : -1;
    if (b < 0) return 0;
    p->values[R].buffer = b;
    byoc__sim_kernel *kk = &p->kernels[k];
    kk->step_first = step0;
    kk->nsteps = end - step0;
    int anchor_value = -1;
    if (anchor) { /* the anchor writes the group's output buffer; the epilogue reads it back in place */
        anchor_value = p->operands[p->steps[step0].out_first];
        p->values[anchor_value].buffer = b;
        if (!byoc__sim_step_tensors(L, step0)) return 0;
        kk = &p->kernels[k];
    }
    /* tile geometry: split at the outermost axis whose inner block fits a tile */
    const byoc__sim_value *rv = &p->values[R];
    int n = rv->rank;
    kk->rank = n;
    for (int j = 0; j < n; ++j) kk->dims[j] = rv->dims[j];
    size_t max_elem = 1;
    for (int s = first; s < end; ++s) {
        const byoc__sim_step *st = &p->steps[s];
        for (int q = 0; q < st->nin + st->nout; ++q) {
            size_t e = byoc_dtype_size(p->values[p->operands[q < st->nin ? st->in_first + q : st->out_first]].dtype);
            if (e > max_elem) max_elem = e;
        }
    }
    int64_t T = (int64_t)(p->opt.tile_bytes / max_elem);
    if (T < 1) T = 1;
    int64_t inner[BYOC_MAX_RANK];
    inner[n - 1] = 1;
    for (int j = n - 2; j >= 0; --j) inner[j] = inner[j + 1] * kk->dims[j + 1];
    int split = 0;
    while (inner[split] > T) split++;
    int64_t chunk = T / inner[split];
    if (chunk < 1) chunk = 1;
    if (chunk > kk->dims[split]) chunk = kk->dims[split];
    kk->split = split;
    kk->chunk = chunk;
    kk->chunks = (kk->dims[split] + chunk - 1) / chunk;
    kk->outer = 1;
    for (int j = 0; j < split; ++j) kk->outer *= kk->dims[j];
    kk->info.tile_elements = chunk * inner[split];
    kk->info.tiles = kk->outer * kk->chunks;
    kk->slot_bytes = byoc__sim_align((size_t)kk->info.tile_elements * max_elem);
    /* scratch slots for the intermediates: a slot is taken for a result and given back after its last reader, so an
       op never writes a slot it reads */
    int count = end - step0;
    int *slot_of = BYOC__SIM_CAST(int *, byoc__sim_malloc(p, sizeof(int) * 3 * (size_t)count));
    if (!slot_of) return BYOC__SIM_OOM(L);
    int *last_use = slot_of + count, *free_slots = slot_of + 2 * count, nfree = 0, nslots = 0;
    for (int i = 0; i < count; ++i) slot_of[i] = last_use[i] = -1;
    for (int s = first; s < end; ++s)
        for (int q = 0; q < p->steps[s].nin; ++q) {
            const byoc__sim_value *v = &p->values[p->operands[p->steps[s].in_first + q]];
            if (v->producer >= first && v->buffer < 0) last_use[v->producer - step0] = s;
        }
    for (int s = first; s < end; ++s) {
        const byoc__sim_step *st = &p->steps[s];
        int o = p->operands[st->out_first];
        if (o != R) {
            slot_of[s - step0] = nfree ? free_slots[--nfree] : nslots++;
            if (last_use[s - step0] < 0) last_use[s - step0] = s;
        }
        for (int q = 0; q < st->nin; ++q) {
            const byoc__sim_value *v = &p->values[p->operands[st->in_first + q]];
            if (v->producer >= first && v->buffer < 0 && last_use[v->producer - step0] == s) {
                free_slots[nfree++] = slot_of[v->producer - step0];
                last_use[v->producer - step0] = INT_MAX; /* given back once */
            }
        }
        if (o != R && last_use[s - step0] == s) {
            free_slots[nfree++] = slot_of[s - step0];
            last_use[s - step0] = INT_MAX;
        }
    }
    p->kernels[k].scratch_slots = nslots;
    int ok = 1;
    for (int s = first; ok && s < end; ++s) ok = byoc__sim_tile_step(L, k, s, step0, slot_of, R);
    byoc__sim_mfree(p, slot_of);
    if (!ok) return 0;
    /* the last op reads the output's own storage (the anchor's value): it writes a slot that is then copied out, so
       no kernel ever sees an output that overlaps an input */
    const byoc__sim_step *last = &p->steps[end - 1];
    for (int q = 0; q < last->nin; ++q)
        if (p->operands[last->in_first + q] == anchor_value) p->kernels[k].final_via_scratch = 1;
    /* what it reads from outside, one value per buffer: the anchor's inputs and the epilogue's */
    int in_first = p->noperands;
    for (int s = step0; s < end; ++s) {
        const byoc__sim_step *st = &p->steps[s];
        for (int q = 0; q < st->nin; ++q) {
            int v = p->operands[st->in_first + q];
            int vb = p->values[v].buffer;
            if (vb < 0 || vb == b) continue;
            int seen = 0;
            for (int i = in_first; i < p->noperands && !seen; ++i) seen = p->values[p->operands[i]].buffer == vb;
            if (seen) continue;
            if (!BYOC__SIM_RESERVE(p, p->operands, p->cap_operands, p->noperands + 1)) return BYOC__SIM_OOM(L);
            p->operands[p->noperands++] = v;
        }
    }
    if (!BYOC__SIM_RESERVE(p, p->operands, p->cap_operands, p->noperands + 1)) return BYOC__SIM_OOM(L);
    kk = &p->kernels[k];
    kk->in_first = in_first;
    kk->nin = p->noperands - in_first;
    kk->out_first = p->noperands;
    kk->nout = 1;
    p->operands[p->noperands++] = R;
    byoc__sim_namer nm;
    byoc__sim_namer_init(&nm, p);
    for (int s = step0; s < end; ++s) byoc__sim_namer_add(&nm, p->steps[s].call);
    return byoc__sim_namer_finish(L, &nm, k, NULL);
}

/* A FuseOps group's steps [step0, p->nsteps) are collected, its result is leaves[rf, +rc): decide how it runs. */
BYOC__SIM_PRIVATE int byoc__sim_finish_group(byoc__sim_lowering *L, int step0, int rf, int rc, const char *partition) {
    byoc_sim_program *p = L->p;
    int end = p->nsteps;
    if (end == step0) return 1; /* the group passes values through */
    int views_only = !p->opt.no_alias;
    for (int s = step0; s < end && views_only; ++s)
        views_only = byoc__sim_is_view_op(p->steps[s].call->op) && p->steps[s].nin == 1 && p->steps[s].nout == 1;
    if (views_only) {
        for (int s = step0; s < end; ++s) {
            byoc__sim_value *out = &p->values[p->operands[p->steps[s].out_first]];
            out->buffer = p->values[p->operands[p->steps[s].in_first]].buffer;
            out->producer = -1;
            p->plan.views++;
        }
        p->nsteps = step0;
        return 1;
    }
    int mode = rc == 1 ? byoc__sim_group_mode(p, step0, L->leaves[rf]) : BYOC__SIM_GROUP_OPS;
    if (mode == BYOC__SIM_GROUP_OPS) return byoc__sim_group_ops(L, step0, partition);
    return byoc__sim_group_tiled(L, step0, L->leaves[rf], mode == BYOC__SIM_GROUP_ANCHOR, partition);
}

// [SECTION] sim impl: memory plan
BYOC__SIM_PRIVATE int byoc__sim_access(byoc__sim_lowering *L, int slot, int buffer, int write) {
    byoc_sim_program *p = L->p;
    for (int i = p->naccesses - 1; i >= 0 && p->accesses[i].slot == slot; --i)
        if (p->accesses[i].buffer == buffer && p->accesses[i].write == write) return 1;
    if (!BYOC__SIM_RESERVE(p, p->accesses, p->cap_accesses, p->naccesses + 1)) return BYOC__SIM_OOM(L);
    byoc_sim_access *a = &p->accesses[p->naccesses++];
    a->slot = slot;
    a->buffer = buffer;
    a->write = write;
    return 1;
}

/* bytes of the values vals[0..n) counted once per buffer */
BYOC__SIM_PRIVATE uint64_t byoc__sim_distinct_bytes(const byoc_sim_program *p, const int *vals, int n) {
    uint64_t total = 0;
    for (int i = 0; i < n; ++i) {
        int seen = 0;
        for (int j = 0; j < i && !seen; ++j) seen = p->values[vals[j]].buffer == p->values[vals[i]].buffer;
        if (!seen) total += p->values[vals[i]].nbytes;
    }
    return total;
}

/* Time slots (an op of an OPS kernel, or a whole other kernel), the accesses of each, the traffic of each kernel,
   and every buffer's lifetime. */
BYOC__SIM_PRIVATE int byoc__sim_schedule(byoc__sim_lowering *L) {
    byoc_sim_program *p = L->p;
    int slot = 0;
    for (int k = 0; k < p->nkernels; ++k) {
        byoc__sim_kernel *kk = &p->kernels[k];
        kk->info.slot_first = slot;
        kk->info.bytes_read = kk->info.bytes_written = 0;
        if (kk->info.exec == BYOC_SIM_EXEC_OPS) {
            for (int s = kk->step_first; s < kk->step_first + kk->nsteps; ++s, ++slot) {
                const byoc__sim_step *st = &p->steps[s];
                for (int q = 0; q < st->nin; ++q)
                    if (!byoc__sim_access(L, slot, p->values[p->operands[st->in_first + q]].buffer, 0)) return 0;
                for (int q = 0; q < st->nout; ++q)
                    if (!byoc__sim_access(L, slot, p->values[p->operands[st->out_first + q]].buffer, 1)) return 0;
                p->kernels[k].info.bytes_read += byoc__sim_distinct_bytes(p, &p->operands[st->in_first], st->nin);
                p->kernels[k].info.bytes_written += byoc__sim_distinct_bytes(p, &p->operands[st->out_first], st->nout);
            }
        } else {
            for (int q = 0; q < kk->nin; ++q)
                if (!byoc__sim_access(L, slot, p->values[p->operands[kk->in_first + q]].buffer, 0)) return 0;
            for (int q = 0; q < kk->nout; ++q)
                if (!byoc__sim_access(L, slot, p->values[p->operands[kk->out_first + q]].buffer, 1)) return 0;
            kk = &p->kernels[k];
            kk->info.bytes_read = byoc__sim_distinct_bytes(p, &p->operands[kk->in_first], kk->nin);
            kk->info.bytes_written = byoc__sim_distinct_bytes(p, &p->operands[kk->out_first], kk->nout);
            if (kk->info.exec == BYOC_SIM_EXEC_ANCHOR) { /* the epilogue reads the anchor's result back and writes it again */
                kk->info.bytes_read += kk->info.bytes_written;
                kk->info.bytes_written *= 2;
            }
            slot++;
        }
        p->kernels[k].info.slot_last = slot - 1;
    }
    p->plan.slots = slot;
    for (int i = 0; i < p->naccesses; ++i) {
        byoc__sim_buffer *b = &p->buffers[p->accesses[i].buffer];
        if (p->accesses[i].write && p->accesses[i].slot < b->first) b->first = p->accesses[i].slot;
        if (p->accesses[i].slot > b->last) b->last = p->accesses[i].slot;
    }
    return 1;
}

BYOC__SIM_PRIVATE int byoc__sim_unit(byoc_sim_program *p, int b) {
    while (p->buffers[b].unit != b) {
        p->buffers[b].unit = p->buffers[p->buffers[b].unit].unit;
        b = p->buffers[b].unit;
    }
    return b;
}

/* Can result value O be written over input value I at `slot`? Both arena buffers of one size and shape, I's last access
   is here and O's first, and every operand of the writer that reads I's buffer sees it with O's shape (so each output
   element overwrites exactly the input element it is computed from). */
BYOC__SIM_PRIVATE int byoc__sim_can_overwrite(byoc_sim_program *p, int O, int I, int slot, const int *reads, int nreads) {
    const byoc__sim_value *o = &p->values[O], *in = &p->values[I];
    if (o->buffer < 0 || in->buffer < 0 || o->buffer == in->buffer) return 0;
    const byoc__sim_buffer *ob = &p->buffers[o->buffer], *ib = &p->buffers[in->buffer];
    if (ob->kind != BYOC_SIM_BUFFER_ARENA || ib->kind != BYOC_SIM_BUFFER_ARENA || ob->inplace_of >= 0) return 0;
    if (ib->last != slot || ob->first != slot || ib->size != ob->size || !byoc__sim_same_shape(o, in)) return 0;
    for (int i = 0; i < nreads; ++i) {
        const byoc__sim_value *r = &p->values[reads[i]];
        if (r->buffer == in->buffer && !byoc__sim_same_shape(r, o)) return 0;
    }
    return 1;
}

BYOC__SIM_PRIVATE void byoc__sim_merge(byoc_sim_program *p, int O, int I) {
    int ob = p->values[O].buffer, ib = p->values[I].buffer;
    p->buffers[ob].inplace_of = ib;
    p->buffers[byoc__sim_unit(p, ob)].unit = byoc__sim_unit(p, ib);
    p->plan.in_place++;
}

/* In place: an elementwise step (or a tiled kernel) writes its result over an input that dies there. */
BYOC__SIM_PRIVATE void byoc__sim_in_place(byoc__sim_lowering *L) {
    byoc_sim_program *p = L->p;
    for (int k = 0; k < p->nkernels; ++k) {
        byoc__sim_kernel *kk = &p->kernels[k];
        int slot = kk->info.slot_first;
        if (kk->info.exec == BYOC_SIM_EXEC_OPS) {
            for (int s = kk->step_first; s < kk->step_first + kk->nsteps; ++s, ++slot) {
                const byoc__sim_step *st = &p->steps[s];
                if (st->nout != 1 || !byoc__sim_inplace_op(st->call->op)) continue;
                int O = p->operands[st->out_first];
                for (int q = 0; q < st->nin; ++q) {
                    int I = p->operands[st->in_first + q];
                    if (byoc__sim_can_overwrite(p, O, I, slot, &p->operands[st->in_first], st->nin)) {
                        byoc__sim_merge(p, O, I);
                        break;
                    }
                }
            }
        } else if (kk->info.exec == BYOC_SIM_EXEC_TILED) {
            int O = p->operands[kk->out_first];
            /* every external operand of the chain, so each view of the candidate's buffer is checked */
            for (int q = 0; q < kk->nin; ++q) {
                int I = p->operands[kk->in_first + q], ok = 1;
                for (int s = kk->step_first; s < kk->step_first + kk->nsteps && ok; ++s) {
                    const byoc__sim_step *st = &p->steps[s];
                    ok = byoc__sim_can_overwrite(p, O, I, slot, &p->operands[st->in_first], st->nin);
                }
                if (!ok) continue;
                byoc__sim_merge(p, O, I);
                /* the last op reading the storage it writes goes through a scratch slot */
                const byoc__sim_step *last = &p->steps[kk->step_first + kk->nsteps - 1];
                for (int r = 0; r < last->nin; ++r)
                    if (p->values[p->operands[last->in_first + r]].buffer == p->values[I].buffer) kk->final_via_scratch = 1;
                break;
            }
        }
    }
}

typedef struct byoc__sim_span {
    size_t lo, hi;
} byoc__sim_span;
BYOC__SIM_PRIVATE int byoc__sim_span_cmp(const void *a, const void *b) {
    const byoc__sim_span *x = BYOC__SIM_CAST(const byoc__sim_span *, a), *y = BYOC__SIM_CAST(const byoc__sim_span *, b);
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Storage units to place: buffers sharing storage (in place) are one unit. */
typedef struct byoc__sim_unit_info {
    int first, last;
    size_t size;  /* aligned */
    size_t bytes; /* as needed */
    size_t offset;
    int id;
} byoc__sim_unit_info;

BYOC__SIM_PRIVATE int byoc__sim_by_size(const void *a, const void *b) {
    const byoc__sim_unit_info *x = BYOC__SIM_CAST(const byoc__sim_unit_info *, a), *y = BYOC__SIM_CAST(const byoc__sim_unit_info *, b);
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    if (x->last - x->first != y->last - y->first) return x->last - x->first > y->last - y->first ? -1 : 1;
    return x->id - y->id;
}
BYOC__SIM_PRIVATE int byoc__sim_by_start(const void *a, const void *b) {
    const byoc__sim_unit_info *x = BYOC__SIM_CAST(const byoc__sim_unit_info *, a), *y = BYOC__SIM_CAST(const byoc__sim_unit_info *, b);
    if (x->first != y->first) return x->first - y->first;
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    return x->id - y->id;
}

/* Greedy best fit in the given order: each unit goes into the smallest gap left between the units already placed
   that live at the same time, or above them all. Returns the arena size. */
BYOC__SIM_PRIVATE size_t byoc__sim_place(byoc__sim_unit_info *u, int n, byoc__sim_span *spans) {
    size_t arena = 0;
    for (int i = 0; i < n; ++i) {
        int c = 0;
        for (int j = 0; j < i; ++j)
            if (u[j].first <= u[i].last && u[i].first <= u[j].last) {
                spans[c].lo = u[j].offset;
                spans[c].hi = u[j].offset + u[j].size;
                c++;
            }
        qsort(spans, (size_t)c, sizeof *spans, byoc__sim_span_cmp);
        size_t at = 0, best = 0, best_gap = SIZE_MAX;
        int found = 0;
        for (int j = 0; j < c; ++j) {
            if (spans[j].lo > at && spans[j].lo - at >= u[i].size && spans[j].lo - at < best_gap) {
                best = at;
                best_gap = spans[j].lo - at;
                found = 1;
            }
            if (spans[j].hi > at) at = spans[j].hi;
        }
        u[i].offset = found ? best : at;
        if (u[i].offset + u[i].size > arena) arena = u[i].offset + u[i].size;
    }
    return arena;
}

BYOC__SIM_PRIVATE int byoc__sim_plan(byoc__sim_lowering *L) {
    byoc_sim_program *p = L->p;
    int nb = p->nbuffers, n = 0;
    int *unit_index = BYOC__SIM_CAST(int *, byoc__sim_malloc(p, sizeof(int) * (size_t)(nb ? nb : 1)));
    byoc__sim_unit_info *u = BYOC__SIM_CAST(byoc__sim_unit_info *, byoc__sim_malloc(p, sizeof(byoc__sim_unit_info) * (size_t)(nb ? nb : 1)));
    byoc__sim_unit_info *alt = BYOC__SIM_CAST(byoc__sim_unit_info *, byoc__sim_malloc(p, sizeof(byoc__sim_unit_info) * (size_t)(nb ? nb : 1)));
    byoc__sim_span *spans = BYOC__SIM_CAST(byoc__sim_span *, byoc__sim_malloc(p, sizeof(byoc__sim_span) * (size_t)(nb ? nb : 1)));
    int64_t *live = BYOC__SIM_CAST(int64_t *, byoc__sim_malloc(p, sizeof(int64_t) * (size_t)(p->plan.slots + 2)));
    size_t *offset_of = BYOC__SIM_CAST(size_t *, byoc__sim_malloc(p, sizeof(size_t) * (size_t)(nb ? nb : 1)));
    int ok = unit_index && u && alt && spans && live && offset_of;
    if (ok) {
        for (int b = 0; b < nb; ++b) unit_index[b] = -1;
        for (int b = 0; b < nb; ++b) {
            const byoc__sim_buffer *buf = &p->buffers[b];
            if (buf->kind != BYOC_SIM_BUFFER_ARENA) continue;
            int r = byoc__sim_unit(p, b);
            if (unit_index[r] < 0) {
                unit_index[r] = n;
                memset(&u[n], 0, sizeof u[n]);
                u[n].first = INT_MAX;
                u[n].last = -1;
                u[n].id = n;
                n++;
            }
            byoc__sim_unit_info *ui = &u[unit_index[r]];
            int first = buf->first <= buf->last ? buf->first : buf->last; /* never accessed: planned where it is made */
            if (first < ui->first) ui->first = first;
            if (buf->last > ui->last) ui->last = buf->last;
            if (buf->size > ui->bytes) ui->bytes = buf->size;
        }
        /* lower bound: the peak of live bytes over the slots */
        for (int s = 0; s <= p->plan.slots + 1; ++s) live[s] = 0;
        for (int i = 0; i < n; ++i) {
            if (u[i].last < 0) u[i].first = u[i].last = 0;
            u[i].size = byoc__sim_align(u[i].bytes);
            live[u[i].first] += (int64_t)u[i].bytes;
            live[u[i].last + 1] -= (int64_t)u[i].bytes;
        }
        int64_t run = 0, peak = 0;
        for (int s = 0; s < p->plan.slots; ++s) {
            run += live[s];
            if (run > peak) peak = run;
        }
        p->plan.lower_bound_bytes = (size_t)peak;
        /* two orders, keep the smaller arena */
        memcpy(alt, u, sizeof *u * (size_t)n);
        qsort(u, (size_t)n, sizeof *u, byoc__sim_by_size);
        size_t a1 = byoc__sim_place(u, n, spans);
        qsort(alt, (size_t)n, sizeof *alt, byoc__sim_by_start);
        size_t a2 = byoc__sim_place(alt, n, spans);
        byoc__sim_unit_info *best = a2 < a1 ? alt : u;
        p->plan.arena_bytes = a2 < a1 ? a2 : a1;
        /* best[] is sorted: offsets by unit id */
        for (int i = 0; i < n; ++i) offset_of[best[i].id] = best[i].offset;
        p->plan.buffers = 0;
        size_t out_at = 0;
        for (int b = 0; b < nb; ++b) {
            byoc__sim_buffer *buf = &p->buffers[b];
            if (buf->kind == BYOC_SIM_BUFFER_ARENA) {
                buf->offset = offset_of[unit_index[byoc__sim_unit(p, b)]];
                p->plan.buffers++;
            } else if (buf->kind == BYOC_SIM_BUFFER_OUTPUT) {
                buf->offset = out_at;
                out_at += byoc__sim_align(buf->size);
            }
        }
        p->plan.output_bytes = out_at;
    }
    byoc__sim_mfree(p, unit_index);
    byoc__sim_mfree(p, u);
    byoc__sim_mfree(p, alt);
    byoc__sim_mfree(p, spans);
    byoc__sim_mfree(p, live);
    byoc__sim_mfree(p, offset_of);
    if (!ok) return BYOC__SIM_OOM(L);
    /* the shared workspace and tile scratch */
    size_t ws = 0, scratch = 0;
    for (int k = 0; k < p->nkernels; ++k) {
        const byoc__sim_kernel *kk = &p->kernels[k];
        for (int s = kk->step_first; s < kk->step_first + kk->nsteps; ++s) {
            const byoc__sim_step *st = &p->steps[s];
            for (int v = 0; v < 2; ++v) {
                const byoc_node *c = st->tiled ? st->shadow[v] : v == 0 ? st->call : NULL;
                size_t w = c ? byoc_kernel_workspace_size(c) : 0;
                if (w > ws) ws = w;
            }
        }
        if (kk->split >= 0) {
            size_t need = (size_t)(kk->scratch_slots + kk->final_via_scratch) * kk->slot_bytes;
            if (need > scratch) scratch = need;
        }
    }
    p->plan.workspace_bytes = ws;
    p->plan.tile_scratch_bytes = scratch;
    return 1;
}

// [SECTION] sim impl: runtime
/* one input per tensor leaf of a parameter: "%x", or "%t.0" for a field of a tuple parameter */
BYOC__SIM_PRIVATE int byoc__sim_add_input(byoc__sim_lowering *L, const byoc_node *param, const byoc_type *t, char *name, size_t cap) {
    byoc_sim_program *p = L->p;
    if (t && t->kind == BYOC_TYPE_TUPLE) {
        size_t len = strlen(name);
        for (int i = 0; i < t->nfields; ++i) {
            snprintf(name + len, cap - len, ".%d", i);
            if (!byoc__sim_add_input(L, param, t->fields[i], name, cap)) return 0;
        }
        name[len] = 0;
        return 1;
    }
    int v = byoc__sim_new_value(L, t, -1, param);
    int b = v >= 0 ? byoc__sim_new_buffer(L, BYOC_SIM_BUFFER_INPUT, p->values[v].nbytes) : -1;
    if (b < 0) return 0;
    p->values[v].buffer = b;
    if (!BYOC__SIM_RESERVE(p, p->inputs, p->cap_inputs, p->ninputs + 1)) return BYOC__SIM_OOM(L);
    byoc__sim_port *port = &p->inputs[p->ninputs];
    memset(port, 0, sizeof *port);
    port->value = v;
    port->io.name = byoc__sim_strdup(p, name, strlen(name));
    if (!port->io.name) return BYOC__SIM_OOM(L);
    port->io.dtype = p->values[v].dtype;
    port->io.rank = p->values[v].rank;
    for (int i = 0; i < port->io.rank; ++i) port->io.dims[i] = p->values[v].dims[i];
    port->io.nbytes = p->values[v].nbytes;
    p->ninputs++;
    return byoc__sim_push_leaf(L, v);
}

/* An output of @main: a value the program computes lives in the output storage; an input or a constant is copied there. */
BYOC__SIM_PRIVATE int byoc__sim_add_output(byoc__sim_lowering *L, int v) {
    byoc_sim_program *p = L->p;
    int b = p->values[v].buffer;
    if (p->buffers[b].kind == BYOC_SIM_BUFFER_INPUT || p->buffers[b].kind == BYOC_SIM_BUFFER_CONSTANT) {
        int k = byoc__sim_new_kernel(L, BYOC_SIM_EXEC_COPY, NULL);
        if (k < 0 || !BYOC__SIM_RESERVE(p, p->values, p->cap_values, p->nvalues + 1) || !BYOC__SIM_RESERVE(p, p->operands, p->cap_operands, p->noperands + 2))
            return BYOC__SIM_OOM(L);
        int w = p->nvalues++;
        p->values[w] = p->values[v];
        p->values[w].producer = -1;
        int nb = byoc__sim_new_buffer(L, BYOC_SIM_BUFFER_OUTPUT, p->values[w].nbytes);
        if (nb < 0) return 0;
        p->values[w].buffer = nb;
        byoc__sim_kernel *kk = &p->kernels[k];
        kk->nsteps = 0;
        kk->in_first = p->noperands;
        kk->nin = 1;
        p->operands[p->noperands++] = v;
        kk->out_first = p->noperands;
        kk->nout = 1;
        p->operands[p->noperands++] = w;
        char name[64];
        snprintf(name, sizeof name, "output %d", p->noutputs);
        kk->info.name = byoc__sim_strdup(p, name, strlen(name));
        if (!kk->info.name) return BYOC__SIM_OOM(L);
        v = w;
    } else {
        p->buffers[b].kind = BYOC_SIM_BUFFER_OUTPUT;
    }
    if (!BYOC__SIM_RESERVE(p, p->outputs, p->cap_outputs, p->noutputs + 1)) return BYOC__SIM_OOM(L);
    byoc__sim_port *port = &p->outputs[p->noutputs];
    memset(port, 0, sizeof *port);
    port->value = v;
    char name[64];
    snprintf(name, sizeof name, "output %d", p->noutputs);
    port->io.name = byoc__sim_strdup(p, name, strlen(name));
    if (!port->io.name) return BYOC__SIM_OOM(L);
    port->io.dtype = p->values[v].dtype;
    port->io.rank = p->values[v].rank;
    for (int i = 0; i < port->io.rank; ++i) port->io.dims[i] = p->values[v].dims[i];
    port->io.nbytes = p->values[v].nbytes;
    p->noutputs++;
    return 1;
}

BYOC_SIM_API byoc_sim_program *byoc_sim_lower(byoc_module *m, const byoc_sim_options *options, byoc_diag *diag) {
    byoc_diag local;
    byoc_diag *d = diag ? diag : &local;
    memset(d, 0, sizeof *d);
    if (!m) {
        byoc__sim_fail(d, BYOC_ERR_INVALID_ARGUMENT, NULL, "byoc_sim_lower: no module");
        return NULL;
    }
    if (byoc_infer_type(m, d) != BYOC_OK) return NULL;
    byoc_node *main_fn = byoc_module_function(m, "main");
    if (!main_fn) {
        byoc__sim_fail(d, BYOC_ERR_NOT_FOUND, NULL, "byoc_sim_lower: the module has no @main");
        return NULL;
    }
    byoc_allocator a;
    memset(&a, 0, sizeof a);
    if (options && options->allocator) a = *options->allocator;
    byoc_sim_program *p = BYOC__SIM_CAST(byoc_sim_program *, a.alloc_fn ? a.alloc_fn(sizeof *p, a.user_data) : malloc(sizeof *p));
    if (!p) {
        byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, NULL, "byoc_sim_lower: out of memory");
        return NULL;
    }
    memset(p, 0, sizeof *p);
    p->alloc = a;
    if (options) p->opt = *options;
    p->opt.allocator = NULL; /* p->alloc holds it: the caller's struct need not outlive the call */
    if (!p->opt.tile_bytes) p->opt.tile_bytes = BYOC_SIM_TILE_BYTES;
    p->m = m;
    byoc__sim_lowering L;
    memset(&L, 0, sizeof L);
    L.p = p;
    L.diag = d;
    p->shadows = byoc_module_create(a.alloc_fn ? &p->alloc : NULL);
    int ok = p->shadows != NULL;
    if (!ok) BYOC__SIM_OOM(&L);
    int args_first = L.nleaves, rf = 0, rc = 0;
    for (int i = 0; ok && i < main_fn->nparams; ++i) {
        char name[256];
        snprintf(name, sizeof name, "%%%s", main_fn->params[i]->name ? main_fn->params[i]->name : "?");
        ok = byoc__sim_add_input(&L, main_fn->params[i], main_fn->params[i]->checked_type, name, sizeof name);
    }
    ok = ok && byoc__sim_lower_fn(&L, main_fn, args_first, L.nleaves - args_first, NULL, 0, 0, &rf, &rc);
    for (int i = 0; ok && i < rc; ++i) ok = byoc__sim_add_output(&L, L.leaves[rf + i]);
    ok = ok && byoc__sim_schedule(&L);
    if (ok && !p->opt.no_inplace) byoc__sim_in_place(&L);
    ok = ok && byoc__sim_plan(&L);
    byoc__sim_mfree(p, L.leaves);
    if (!ok || L.error) {
        if (!L.error) byoc__sim_fail(d, BYOC_ERR_INTERNAL, NULL, "byoc_sim_lower: failed");
        byoc_sim_program_destroy(p);
        return NULL;
    }
    return p;
}

BYOC__SIM_PRIVATE char *byoc__sim_aligned(void *block) {
    return BYOC__SIM_CAST(char *, block) + ((BYOC_SIM_ALIGN - (uintptr_t)block % BYOC_SIM_ALIGN) % BYOC_SIM_ALIGN);
}

/* the first run: memory for the plan */
BYOC__SIM_PRIVATE int byoc__sim_prepare(byoc_sim_program *p) {
    p->arena_block = byoc__sim_malloc(p, p->plan.arena_bytes + BYOC_SIM_ALIGN);
    p->output_block = byoc__sim_malloc(p, p->plan.output_bytes + BYOC_SIM_ALIGN);
    p->workspace_block = byoc__sim_malloc(p, p->plan.workspace_bytes + BYOC_SIM_ALIGN);
    p->scratch_block = byoc__sim_malloc(p, p->plan.tile_scratch_bytes + BYOC_SIM_ALIGN);
    p->samples = BYOC__SIM_CAST(double *, byoc__sim_malloc(p, sizeof(double) * BYOC_SIM_SAMPLES * (size_t)(p->nkernels ? p->nkernels : 1)));
    if (!p->arena_block || !p->output_block || !p->workspace_block || !p->scratch_block || !p->samples) return 0;
    char *arena = byoc__sim_aligned(p->arena_block), *outputs = byoc__sim_aligned(p->output_block);
    for (int b = 0; b < p->nbuffers; ++b) {
        byoc__sim_buffer *buf = &p->buffers[b];
        if (buf->kind == BYOC_SIM_BUFFER_ARENA) buf->data = arena + buf->offset;
        else if (buf->kind == BYOC_SIM_BUFFER_OUTPUT) buf->data = outputs + buf->offset;
        else if (buf->kind == BYOC_SIM_BUFFER_CONSTANT) buf->data = buf->constant->data;
    }
    for (int k = 0; k < p->nkernels; ++k) p->kernels[k].sample_first = k * BYOC_SIM_SAMPLES;
    p->ready = 1;
    return 1;
}

BYOC__SIM_PRIVATE char *byoc__sim_data(const byoc_sim_program *p, int value) { return BYOC__SIM_CAST(char *, p->buffers[p->values[value].buffer].data); }

BYOC__SIM_PRIVATE byoc_result byoc__sim_run_step(byoc_sim_program *p, const byoc__sim_step *st, void *ws, byoc_diag *d) {
    byoc_tensor *t = &p->tensors[st->tensor_first];
    for (int q = 0; q < st->nin; ++q) t[q].data = byoc__sim_data(p, p->operands[st->in_first + q]);
    for (int q = 0; q < st->nout; ++q) t[st->nin + q].data = byoc__sim_data(p, p->operands[st->out_first + q]);
    return byoc_kernel_run(st->call, t, st->nin, t + st->nin, st->nout, ws, d);
}

/* A TILED kernel, or an ANCHOR kernel's anchor and then its epilogue: every tile runs the chain's ops on sub-tensor
   views, intermediates in scratch slots. */
BYOC__SIM_PRIVATE byoc_result byoc__sim_run_tiled(byoc_sim_program *p, const byoc__sim_kernel *k, void *ws, byoc_diag *d) {
    int first = k->step_first, end = k->step_first + k->nsteps;
    if (k->info.exec == BYOC_SIM_EXEC_ANCHOR) {
        byoc_result r = byoc__sim_run_step(p, &p->steps[first], ws, d);
        if (r != BYOC_OK) return r;
        first++;
    }
    char *scratch = byoc__sim_aligned(p->scratch_block);
    char *final_slot = scratch + (size_t)k->scratch_slots * k->slot_bytes;
    int split = k->split;
    int64_t inner = 1, idx[BYOC_MAX_RANK] = {0};
    for (int j = split + 1; j < k->rank; ++j) inner *= k->dims[j];
    for (int64_t o = 0; o < k->outer; ++o) {
        int64_t rest = o;
        for (int j = split - 1; j >= 0; --j) {
            idx[j] = rest % k->dims[j];
            rest /= k->dims[j];
        }
        for (int64_t c = 0; c < k->chunks; ++c) {
            int64_t at = c * k->chunk, e = k->dims[split] - at < k->chunk ? k->dims[split] - at : k->chunk;
            int var = e == k->chunk ? 0 : 1;
            for (int s = first; s < end; ++s) {
                const byoc__sim_step *st = &p->steps[s];
                int nops = st->nin + 1;
                byoc_tensor *t = &p->tensors[st->tile_tensor_first + var * nops];
                for (int q = 0; q < nops; ++q) {
                    const byoc__sim_tile_operand *to = &p->tile_ops[st->tile_first + q];
                    if (to->source == BYOC__SIM_FROM_SCRATCH) {
                        t[q].data = scratch + (size_t)to->slot * k->slot_bytes;
                        continue;
                    }
                    int64_t off = at * to->stride[split];
                    for (int j = 0; j < split; ++j) off += idx[j] * to->stride[j];
                    t[q].data = byoc__sim_data(p, to->value) + (size_t)off * to->elem;
                }
                int via_scratch = s == end - 1 && k->final_via_scratch;
                char *dst = BYOC__SIM_CAST(char *, t[st->nin].data);
                if (via_scratch) t[st->nin].data = final_slot;
                byoc_result r = byoc_kernel_run(st->shadow[var], t, st->nin, t + st->nin, 1, ws, d);
                if (r != BYOC_OK) return r;
                if (via_scratch) memcpy(dst, final_slot, (size_t)(e * inner) * p->tile_ops[st->tile_first + st->nin].elem);
            }
        }
    }
    return BYOC_OK;
}

BYOC__SIM_PRIVATE byoc_result byoc__sim_take_result(byoc_sim_program *p, const byoc__sim_kernel *k, const byoc_node *res, int *at, byoc_diag *d) {
    if (res->kind == BYOC_NODE_TUPLE) {
        for (int i = 0; i < res->nargs; ++i) {
            byoc_result r = byoc__sim_take_result(p, k, res->args[i], at, d);
            if (r != BYOC_OK) return r;
        }
        return BYOC_OK;
    }
    if (*at >= k->nout) return byoc__sim_fail(d, BYOC_ERR_TYPE, NULL, "byoc_sim_run: the runtime module for @%s returned more than %d tensors", k->function, k->nout);
    int v = p->operands[k->out_first + *at];
    const byoc__sim_value *val = &p->values[v];
    char want[160], got[160];
    byoc__sim_shape_string(val->dtype, val->rank, val->dims, want, sizeof want);
    const byoc_type *t = res->kind == BYOC_NODE_CONSTANT ? (res->annotation ? res->annotation : res->checked_type) : NULL;
    int same = t && t->kind == BYOC_TYPE_TENSOR && t->dtype == val->dtype && t->rank == val->rank && byoc_constant_nbytes(res) == val->nbytes;
    for (int i = 0; same && i < val->rank; ++i) same = t->dims[i] == val->dims[i];
    if (!same) {
        if (t) byoc_type_to_string(t, got, sizeof got);
        else snprintf(got, sizeof got, "a node that is not a constant");
        return byoc__sim_fail(d, BYOC_ERR_TYPE, NULL, "byoc_sim_run: the runtime module for @%s returned %s for result %d, expected %s", k->function, got, *at, want);
    }
    memcpy(byoc__sim_data(p, v), res->data, val->nbytes);
    (*at)++;
    return BYOC_OK;
}

/* A partition's runtime module. Buffers and constant nodes convert here and only here: the kernel's input buffers are
   copied into the argument constants made at lowering, and the result constants the module returns into the kernel's
   output buffers. */
BYOC__SIM_PRIVATE byoc_result byoc__sim_dispatch_runtime(byoc_sim_program *p, const byoc__sim_kernel *k, byoc_diag *d) {
    const byoc_runtime_module *rm = byoc_module_runtime(p->m, k->function);
    if (!rm || !rm->run) return byoc__sim_fail(d, BYOC_ERR_NOT_FOUND, NULL, "byoc_sim_run: @%s no longer has a runtime module", k->function);
    for (int q = 0; q < k->nin; ++q) {
        int v = p->operands[k->in_first + q];
        memcpy(p->rt_nodes[k->rt_leaf_first + q]->data, byoc__sim_data(p, v), p->values[v].nbytes);
    }
    byoc_node *res = NULL;
    byoc_diag rd;
    memset(&rd, 0, sizeof rd);
    byoc_result r = rm->run(rm->state, p->m, &p->rt_nodes[k->rt_first], k->rt_nargs, &res, &rd);
    if (r != BYOC_OK) return byoc__sim_fail(d, r, NULL, "byoc_sim_run: the runtime module for @%s: %s", k->function, rd.message[0] ? rd.message : byoc_result_str(r));
    if (!res) return byoc__sim_fail(d, BYOC_ERR_INTERNAL, NULL, "byoc_sim_run: the runtime module for @%s returned no result", k->function);
    int at = 0;
    r = byoc__sim_take_result(p, k, res, &at, d);
    if (r == BYOC_OK && at != k->nout)
        r = byoc__sim_fail(d, BYOC_ERR_TYPE, NULL, "byoc_sim_run: the runtime module for @%s returned %d tensors, expected %d", k->function, at, k->nout);
    return r;
}

BYOC__SIM_PRIVATE void byoc__sim_update_median(byoc_sim_program *p, byoc__sim_kernel *k) {
    double s[BYOC_SIM_SAMPLES];
    int n = k->nsamples;
    for (int i = 0; i < n; ++i) {
        double x = p->samples[k->sample_first + i];
        int j = i;
        for (; j > 0 && s[j - 1] > x; --j) s[j] = s[j - 1];
        s[j] = x;
    }
    k->info.median_seconds = n == 0 ? 0 : n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

BYOC_SIM_API byoc_result byoc_sim_run(byoc_sim_program *p, const byoc_tensor *inputs, int ninputs, byoc_tensor *outputs, int noutputs, byoc_diag *diag) {
    byoc_diag local;
    byoc_diag *d = diag ? diag : &local;
    memset(d, 0, sizeof *d);
    if (ninputs != p->ninputs || (ninputs && !inputs))
        return byoc__sim_fail(d, BYOC_ERR_INVALID_ARGUMENT, NULL, "byoc_sim_run: the program takes %d input%s, %d given", p->ninputs, p->ninputs == 1 ? "" : "s",
                              inputs ? ninputs : 0);
    for (int i = 0; i < ninputs; ++i) {
        const byoc_sim_io *io = &p->inputs[i].io;
        const byoc_tensor *t = &inputs[i];
        int same = t->dtype == io->dtype && t->rank == io->rank;
        for (int j = 0; same && j < io->rank; ++j) same = t->dims[j] == io->dims[j];
        if (!same) {
            char want[160], got[160];
            byoc__sim_shape_string(io->dtype, io->rank, io->dims, want, sizeof want);
            if (t->rank < 0 || t->rank > BYOC_MAX_RANK) snprintf(got, sizeof got, "a tensor of rank %d", t->rank);
            else byoc__sim_shape_string(t->dtype, t->rank, t->dims, got, sizeof got);
            return byoc__sim_fail(d, BYOC_ERR_TYPE, NULL, "byoc_sim_run: input %d (%s): expected %s, got %s", i, io->name, want, got);
        }
        if (!t->data && io->nbytes) return byoc__sim_fail(d, BYOC_ERR_INVALID_ARGUMENT, NULL, "byoc_sim_run: input %d (%s): no data", i, io->name);
    }
    if (outputs && noutputs != p->noutputs)
        return byoc__sim_fail(d, BYOC_ERR_INVALID_ARGUMENT, NULL, "byoc_sim_run: the program has %d output%s, %d given", p->noutputs, p->noutputs == 1 ? "" : "s",
                              noutputs);
    if (!p->ready && !byoc__sim_prepare(p)) return byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, NULL, "byoc_sim_run: out of memory");
    for (int i = 0; i < ninputs; ++i) p->buffers[p->values[p->inputs[i].value].buffer].data = inputs[i].data;
    void *ws = byoc__sim_aligned(p->workspace_block);
    for (int i = 0; i < p->nkernels; ++i) {
        byoc__sim_kernel *k = &p->kernels[i];
        byoc_diag kd;
        memset(&kd, 0, sizeof kd);
        byoc_result r = BYOC_OK;
        double t0 = BYOC_SIM_CLOCK();
        switch (k->info.exec) {
        case BYOC_SIM_EXEC_OPS:
            for (int s = k->step_first; r == BYOC_OK && s < k->step_first + k->nsteps; ++s) r = byoc__sim_run_step(p, &p->steps[s], ws, &kd);
            break;
        case BYOC_SIM_EXEC_TILED:
        case BYOC_SIM_EXEC_ANCHOR: r = byoc__sim_run_tiled(p, k, ws, &kd); break;
        case BYOC_SIM_EXEC_RUNTIME: r = byoc__sim_dispatch_runtime(p, k, &kd); break;
        case BYOC_SIM_EXEC_COPY: {
            int v = p->operands[k->in_first];
            memcpy(byoc__sim_data(p, p->operands[k->out_first]), byoc__sim_data(p, v), p->values[v].nbytes);
            break;
        }
        }
        double dt = BYOC_SIM_CLOCK() - t0;
        if (r != BYOC_OK) {
            if (k->info.exec == BYOC_SIM_EXEC_RUNTIME) { /* its message already says where */
                *d = kd;
                return r;
            }
            return byoc__sim_fail(d, r, NULL, "byoc_sim_run: kernel %d (%s): %s", i, k->info.name, kd.message[0] ? kd.message : byoc_result_str(r));
        }
        p->samples[k->sample_first + k->next_sample] = dt;
        k->next_sample = (k->next_sample + 1) % BYOC_SIM_SAMPLES;
        if (k->nsamples < BYOC_SIM_SAMPLES) k->nsamples++;
        k->info.runs++;
        k->info.total_seconds += dt;
    }
    for (int i = 0; i < p->nkernels; ++i) byoc__sim_update_median(p, &p->kernels[i]);
    for (int i = 0; outputs && i < noutputs; ++i) {
        const byoc_sim_io *io = &p->outputs[i].io;
        byoc_tensor *t = &outputs[i];
        memset(t, 0, sizeof *t);
        t->dtype = io->dtype;
        t->rank = io->rank;
        for (int j = 0; j < io->rank; ++j) t->dims[j] = io->dims[j];
        t->data = byoc__sim_data(p, p->outputs[i].value);
    }
    return BYOC_OK;
}

// [SECTION] sim impl: profile
BYOC_SIM_API void byoc_sim_profile_reset(byoc_sim_program *p) {
    for (int i = 0; i < p->nkernels; ++i) {
        byoc__sim_kernel *k = &p->kernels[i];
        k->nsamples = k->next_sample = 0;
        k->info.runs = 0;
        k->info.median_seconds = k->info.total_seconds = 0;
    }
}

BYOC_SIM_API char *byoc_sim_profile_format(const byoc_sim_program *p, size_t *len) {
    byoc__sim_text t;
    memset(&t, 0, sizeof t);
    t.p = p;
    int w = 6, pw = 9, runs = 0;
    for (int i = 0; i < p->nkernels; ++i) {
        const byoc_sim_kernel_info *k = &p->kernels[i].info;
        int n = (int)strlen(k->name), pn = k->partition ? (int)strlen(k->partition) : 1;
        if (n > w) w = n;
        if (pn > pw) pw = pn;
        if (k->runs > runs) runs = k->runs;
    }
    if (w > 48) w = 48;
    if (pw > 32) pw = 32;
    byoc__sim_text_printf(&t, "%4s  %-*s  %-8s  %-*s  %-7s  %10s  %10s  %12s  %12s  %s\n", "#", w, "kernel", "device", pw, "partition", "exec", "median us",
                          "total ms", "read B", "written B", "ops");
    double sum = 0;
    uint64_t rd = 0, wr = 0;
    for (int i = 0; i < p->nkernels; ++i) {
        const byoc_sim_kernel_info *k = &p->kernels[i].info;
        const char *part = k->partition ? k->partition : "-";
        int n = (int)strlen(k->name), pn = (int)strlen(part);
        byoc__sim_text_printf(&t, "%4d  %-*.*s%s  %-8s  %-*.*s%s  %-7s  %10.2f  %10.3f  %12llu  %12llu  %s\n", i, n > w ? w - 3 : w, n > w ? w - 3 : w, k->name,
                              n > w ? "..." : "", k->device, pn > pw ? pw - 3 : pw, pn > pw ? pw - 3 : pw, part, pn > pw ? "..." : "", byoc_sim_exec_name(k->exec),
                              k->median_seconds * 1e6, k->total_seconds * 1e3, (unsigned long long)k->bytes_read, (unsigned long long)k->bytes_written,
                              k->nops ? k->ops : "-");
        sum += k->median_seconds;
        rd += k->bytes_read;
        wr += k->bytes_written;
    }
    const byoc_sim_memory_plan *mp = &p->plan;
    byoc__sim_text_printf(&t, "%d kernels, %d run%s: %.3f ms per run (sum of kernel medians), %llu bytes read, %llu bytes written per run\n", p->nkernels, runs,
                          runs == 1 ? "" : "s", sum * 1e3, (unsigned long long)rd, (unsigned long long)wr);
    double ratio = mp->lower_bound_bytes ? (double)mp->arena_bytes / (double)mp->lower_bound_bytes : 1.0;
    byoc__sim_text_printf(&t, "arena %zu bytes (lower bound %zu bytes, ratio %.2f)\n", mp->arena_bytes, mp->lower_bound_bytes, ratio);
    byoc__sim_text_printf(&t, "%d buffers in the arena (%d written in place), %d views; workspace %zu bytes, tile scratch %zu bytes, outputs %zu bytes\n", mp->buffers,
                          mp->in_place, mp->views, mp->workspace_bytes, mp->tile_scratch_bytes, mp->output_bytes);
    if (t.failed) {
        byoc__sim_mfree(p, t.data);
        return NULL;
    }
    if (len) *len = t.len;
    return t.data;
}

#endif /* BYOC_SIM_IMPLEMENTATION */

/*
MIT License

Copyright (c) 2026 the byoc.h authors

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
documentation files (the "Software"), to deal in the Software without restriction, including without limitation the
rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit
persons to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial portions of the
Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE
WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR
COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
*/
