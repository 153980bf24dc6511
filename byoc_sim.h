/* byoc_sim.h v0.1.0 -- run byoc.h modules: lowering to kernel programs, a static memory plan, the host
   runtime and per-kernel profiles. MIT license (end of file).

   The companion of byoc.h (include path: beside it). A typed module's @main becomes a linear schedule of
   kernels over one statically planned arena; byoc_sim_run executes it on byoc.h's host kernels (and on
   the runtime modules that target hooks attach to partitions) as often as you like, allocating nothing
   after the first run. Partitions for the simulated NPU and DSP run as command streams (see "sim: devices"),
   whose analytic and measured estimators also price the Collage search's candidates.

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

   EXECUTABLES
   byoc_sim_executable_save writes a lowered program as one .byoc file (the module text, its weights, the
   memory plan, the kernel list, a blob per device partition with its compatibility strings, and the
   source map back to frontend nodes); byoc_sim_executable_load checks every byte of it and gives back
   the program, refusing a blob whose backend the host does not offer. With BYOC_SIM_RUNTIME_ONLY the
   compiler is left out (examples/embed_runtime.c).

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
                 A qnn.conv2d [+ nn.bias_add] + qnn.requantize group is an ANCHOR kernel too, run by byoc.h's
                 int8 convolution with the bias and requantize as its epilogue: blocks of pixels, their int32
                 results in the workspace, the 8-bit result written once (the same bytes as op by op).
         OPS     anything else (injective chains, reductions, ...): op after op, intermediates in the arena.
       A group of reshape/squeeze/expand_dims/copy only is no kernel at all (see aliases).
     - A call of a partition (a function with Compiler=...) that has a runtime module attached
       (byoc_module_runtime) is one BYOC_SIM_EXEC_RUNTIME kernel that calls the module's run with argument
       constants made once, in the module, at lowering (each run copies the inputs into them). A partition
       without one is lowered inline onto the host kernels; its kernels name the partition.
     - Tuples and projections are resolved while lowering. reshape, squeeze, expand_dims and copy are views
       of their input's buffer (no kernel, no copy); annotation ops pass their input through.
     - An output of @main that is one of its inputs or a constant is copied out (BYOC_SIM_EXEC_COPY).
     - An if or a loop is one BYOC_SIM_EXEC_CONTROL kernel; each of its bodies is lowered as a program of its
       own (byoc_sim_kernel_body) that the kernel runs: the branch the condition picks, or the loop body once
       per iteration (ONNX Loop's semantics); a let is lowered inline. See "sim impl: control flow".

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
     A control-flow body's program has its own static plan (plan.bodies, plan.body_bytes), allocated on its
     first run and reused by every iteration; a loop's scan outputs whose stacked extent is '?' (a
     data-dependent trip count) live in a run-time buffer that grows by doubling and is kept across runs.

   COMPILE-TIME OPTIONS
       BYOC_SIM_IMPLEMENTATION            emit the implementation in this translation unit; it also emits
                                          byoc.h's (BYOC_IMPLEMENTATION), which it builds on: its internals are
                                          static, so both implementations live in the same file
       BYOC_SIM_API                       declaration prefix (default: BYOC_API, so BYOC_STATIC applies)
       BYOC_SIM_ALIGN                     alignment of arena and output offsets in bytes (default 64)
       BYOC_SIM_TILE_BYTES                default bytes per operand in a fused tile (default 16384)
       BYOC_SIM_SAMPLES                   runs kept per kernel for the median time (default 15)
       BYOC_SIM_CLOCK()                   seconds as a double for profiles (default: clock_gettime(CLOCK_MONOTONIC)
                                          where <time.h> declares it, else timespec_get in C11, else clock(),
                                          processor time in microseconds: strict -std=c99 on glibc declares
                                          clock_gettime only with _POSIX_C_SOURCE >= 199309L defined first)
       BYOC_NO_THREADS                    no pthreads: every pool has one thread, kernels run serially (the same
                                          bytes; see "sim: threads")
       BYOC_SIM_SPIN_US                   microseconds a pool's waiting thread watches for work before it sleeps
                                          (default 50; 0: sleep at once; see "sim impl: threads (waiting...)"),
                                          after a run's end: during a run the workers keep watching
       BYOC_SIM_RUNTIME_ONLY              the runtime alone, to embed: loading and running .byoc executables
                                          (and lowering modules), without the compiler (it defines byoc.h's
                                          BYOC_NO_COMPILER and leaves out device lowering, backends, the Collage
                                          estimators and saving executables); see examples/embed_runtime.c
   Versions: BYOC_SIM_VERSION_MAJOR, _MINOR, _PATCH, _NUM (major * 10000 + minor * 100 + patch, as byoc.h's
   BYOC_VERSION_NUM) and _STRING; BYOC_VERSION_* is the core's it was built with.
   Everything a program owns goes through the byoc_allocator in byoc_sim_options (NULL: malloc/free), and
   everything a loaded executable owns through byoc_sim_load_options' (its module, program and device
   programs); byoc.h's graph walks use their own scratch (BYOC_MALLOC and kin) as documented there.

   ERRORS
   Fallible calls return byoc_result and fill a caller-owned byoc_diag (may be NULL) with one line, e.g.
   "byoc_sim_run: input 0 (%x): expected Tensor[(1, 1, 28, 28), float32], got Tensor[(1, 28, 28), float32]".
   A NULL program, executable, device program, backend or module is byoc.h's NULL-handle error (its ERRORS):
   BYOC_ERR_INVALID_ARGUMENT and "byoc_sim_run: program is NULL", NULL, 0, or nothing from a destroy call.

   EXTENSION POINTS (what to touch, by symbol)
     an op              byoc.h's record (README "Adding an op"); lowering, the host model (byoc_op_flops) and
                        the device kinds read it; a device kind that should run it lists it or its class
     a device kind      a byoc_sim_device_kind_def (name, presets, op classes and ops it runs, accepts,
                        compute_cycles, execute, describe) given to byoc_sim_register_device_kind;
                        examples/custom_device.c adds one from outside the headers
     a backend          a .backend file whose `kind` names a registered device kind, opened with
                        byoc_sim_backend_open (or a kind's spec_text: a built-in backend of its name)
     an estimator       byoc_sim_collage_cost / byoc_sim_collage_measured_cost as byoc_collage_options.cost,
                        or your own byoc_collage_cost_fn calling byoc_sim_estimate
     a pass             byoc.h's byoc_pass_register; a backend's phase passes run through byoc_run_phase

   TABLE OF CONTENTS (each section starts with a "// [SECTION] name" line)
     Public API
       [SECTION] sim: config
       [SECTION] sim: threads (the host kernels' pool)
       [SECTION] sim: lowering (programs, kernels)
       [SECTION] sim: memory plan
       [SECTION] sim: runtime
       [SECTION] sim: profile
       [SECTION] sim: devices (NPU, DSP and host models, backends, command streams)
       [SECTION] sim: executable (.byoc artifacts, source maps)
       [SECTION] sim: report (one self-contained HTML page of a placement and its run)
       [SECTION] sim: compile pipeline (a model to a program, as byocc run and compile do)
     Implementation (the runtime, then the compiler: BYOC_SIM_RUNTIME_ONLY leaves out the "(compiler)" sections)
       [SECTION] sim impl: config & platform
       [SECTION] sim impl: program storage
       [SECTION] sim impl: lowering
       [SECTION] sim impl: fused groups (tiled elementwise, anchor + epilogue)
       [SECTION] sim impl: fused convolutions (float nn.conv2d + bias + ReLU in one pass)
       [SECTION] sim impl: kernels side by side (independent kernels grouped at lowering)
       [SECTION] sim impl: concatenations written in place
       [SECTION] sim impl: memory plan
       [SECTION] sim impl: Winograd convolutions (filters transformed at lowering)
       [SECTION] sim impl: threads (waiting: a bounded spin)
       [SECTION] sim impl: threads (the pool)
       [SECTION] sim impl: threads (awake through a run)
       [SECTION] sim impl: ops kernels over threads (row ranges)
       [SECTION] sim impl: runtime
       [SECTION] sim impl: sequences and optionals (boxed values)
       [SECTION] sim impl: control flow (bodies as programs)
       [SECTION] sim impl: profile
       [SECTION] sim impl: device kinds, layer classes, command streams
       [SECTION] sim impl: the cycle model and the npu, dsp and host kinds
       [SECTION] sim impl: device programs: lowering to command streams, tiles, timing
       [SECTION] sim impl: device programs: blobs, loading, running, runtime modules
       [SECTION] sim impl: the host model, latency and traces
       [SECTION] sim impl: executable (the container, loading)
       [SECTION] sim impl (compiler): compiling device programs (estimate, serialise)
       [SECTION] sim impl (compiler): backends and their hooks
       [SECTION] sim impl (compiler): Collage estimators
       [SECTION] sim impl (compiler): source maps and saving executables
       [SECTION] sim impl (compiler): report (the HTML page)
       [SECTION] sim impl (compiler): report: the collapsed view and large graphs
       [SECTION] sim impl (compiler): the compile pipeline
*/
/* Outside the guard, so that a file which included this header before defining BYOC_SIM_IMPLEMENTATION
   still gets byoc.h's implementation on the second include (byoc.h emits it once). */
#if defined(BYOC_SIM_IMPLEMENTATION) && !defined(BYOC_IMPLEMENTATION)
#define BYOC_IMPLEMENTATION
#endif
#if defined(BYOC_SIM_RUNTIME_ONLY) && !defined(BYOC_NO_COMPILER)
#define BYOC_NO_COMPILER
#endif
#include "byoc.h"

#ifndef BYOC_SIM_H_INCLUDED
#define BYOC_SIM_H_INCLUDED

// [SECTION] sim: config

#define BYOC_SIM_VERSION_MAJOR 0
#define BYOC_SIM_VERSION_MINOR 1
#define BYOC_SIM_VERSION_PATCH 0
#define BYOC_SIM_VERSION_NUM (BYOC_SIM_VERSION_MAJOR * 10000 + BYOC_SIM_VERSION_MINOR * 100 + BYOC_SIM_VERSION_PATCH)
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

// [SECTION] sim: threads (the host kernels' pool)
/* Host kernels split their output over threads (byoc.h's byoc_parallel: GEMM column or row blocks, convolution
   patch rows, depthwise and pooling planes) and a fused elementwise kernel its tiles; every split is of outputs
   only, so a program's results are the same bytes at any thread count. A program gets its threads from
   byoc_sim_options: `threads` makes a pool of threads - 1 workers with the program (created once, at lowering,
   and joined by byoc_sim_program_destroy; the calling thread is the last worker), or `parallel` hands it the
   embedding program's own pool. Work too small to be worth a wake-up runs on the calling thread.
   BYOC_NO_THREADS builds without pthreads: every pool has one thread and everything runs serially. */
typedef struct byoc_sim_pool byoc_sim_pool;
/* A pool for `threads` threads at once (>= 1; the caller of parallel_for is one of them, so threads - 1 workers
   start here). With BYOC_NO_THREADS, or when a thread cannot be started, fewer: byoc_sim_pool_threads says. */
BYOC_SIM_API byoc_sim_pool *byoc_sim_pool_create(int threads, const byoc_allocator *allocator, byoc_diag *diag);
/* Stops and joins the workers (no parallel_for may be running on the pool). */
BYOC_SIM_API void byoc_sim_pool_destroy(byoc_sim_pool *pool);
BYOC_SIM_API int byoc_sim_pool_threads(const byoc_sim_pool *pool);
/* The pool as byoc.h's kernels take it (valid while the pool lives). Its parallel_for runs every task once and
   returns when all are done; called from inside a task, or while another thread's call is running on the same
   pool, it runs the tasks on the calling thread. */
BYOC_SIM_API byoc_parallel byoc_sim_pool_parallel(byoc_sim_pool *pool);
/* The processors online (sysconf), at least 1; 1 with BYOC_NO_THREADS. */
BYOC_SIM_API int byoc_sim_online_cores(void);

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
    int no_alias;                    /* run reshape, squeeze, expand_dims and copy as kernels instead of views, and
                                        never write a concatenation's inputs into its result */
    const struct byoc_sim_device *host; /* the host's model for the simulated timeline (NULL: preset host-a55) */
    int threads;                     /* threads for host kernels: 0 or 1 the caller's alone, N a pool of N - 1
                                        workers made with the program ("sim: threads") */
    const byoc_parallel *parallel;   /* the embedding program's own pool instead (copied; its user data must
                                        outlive the program); threads is then ignored */
    int side_by_side;                /* run independent kernels side by side, one thread each, instead of each alone
                                        over every thread ("sim impl: kernels side by side": the schedule and the
                                        memory plan change, the results do not) */
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
    int boxed; /* a sequence or an optional: an input passes a byoc_sim_sequence, an output is read with
                  byoc_sim_output_element */
} byoc_sim_io;

/* A sequence or optional input of byoc_sim_run: its byoc_tensor has rank 0 and data pointing to one of these
   (the elements are copied at the start of the run). count -1 is an empty optional; a present optional of a
   tensor has count 1. */
typedef struct byoc_sim_sequence {
    int count;
    const byoc_tensor *elements;
} byoc_sim_sequence;

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
    BYOC_SIM_EXEC_COPY,     /* an output that is an input or a constant, copied out */
    BYOC_SIM_EXEC_CONTROL   /* an if or a loop: runs its bodies' programs (byoc_sim_kernel_body) */
} byoc_sim_exec;
/* "ops", "tiled", "anchor", "runtime", "copy", "control" */
BYOC_SIM_API const char *byoc_sim_exec_name(byoc_sim_exec e);

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
    /* the simulated SoC's account (see "sim: devices"): for a partition on a simulated device, what its
       command stream took in the last run; for a host kernel, the host model's estimate */
    const char *device_kind; /* the device kind's name: "host", "npu", "dsp", ... */
    uint64_t cycles;         /* at the device's clock */
    double sim_seconds;
    double sim_start;        /* on the simulated timeline: kernels run one after another, in schedule order */
    uint64_t dram_bytes;     /* DRAM traffic: the device's DMA, or the host kernel's reads and writes */
    uint64_t macs;
    double mac_utilization;  /* NPU: macs / (cycles * rows * cols) */
    uint64_t transfer_bytes; /* bytes of its inputs that another device produced */
    int commands;            /* NPU, DSP: commands in its stream */
    const char *algorithm;   /* "winograd": its convolution runs as Winograd F(4x4, 3x3); "written in place": a
                                concatenation whose inputs' producers all wrote into its result (it copies nothing),
                                "partly written in place": some did (it copies the others); else NULL */
} byoc_sim_kernel_info;

BYOC_SIM_API int byoc_sim_kernel_count(const byoc_sim_program *p);
BYOC_SIM_API const byoc_sim_kernel_info *byoc_sim_kernel(const byoc_sim_program *p, int i);
/* A CONTROL kernel's bodies (an if: 0 then, 1 else; a loop: 0), each a program of its own that the kernel
   runs (its kernels, plan and profile: runs counts every iteration); 0 and NULL for other kernels. The body's
   inputs are its parameters (a loop's: iteration, cond, carried values, captures), its outputs its results.
   Body programs belong to p: never run or destroy them yourself. */
BYOC_SIM_API int byoc_sim_kernel_body_count(const byoc_sim_program *p, int i);
BYOC_SIM_API const byoc_sim_program *byoc_sim_kernel_body(const byoc_sim_program *p, int i, int b);
/* The last run of CONTROL kernel i: a loop's iterations, the branch an if took (0 then, 1 else). */
BYOC_SIM_API int64_t byoc_sim_kernel_iterations(const byoc_sim_program *p, int i);

// [SECTION] sim: memory plan
typedef struct byoc_sim_memory_plan {
    size_t arena_bytes;        /* the one block every intermediate lives in */
    size_t lower_bound_bytes;  /* peak over the schedule of the bytes of live intermediates: no placement does better */
    size_t workspace_bytes;    /* shared by all kernels: the largest byoc_kernel_workspace_size */
    size_t tile_scratch_bytes; /* shared by fused tiled kernels for their intermediates (with threads, each task
                                  gets its own workspace and scratch beside these, not counted here) */
    size_t output_bytes;       /* the outputs, planned apart from the arena */
    int slots;                 /* time slots of the schedule */
    int buffers;               /* buffers in the arena */
    int in_place;              /* of them, written over a dying input */
    int views;                 /* reshape-like results that share their input's buffer */
    int slices;                /* buffers that are a slice of a concatenation's result: their producers write there
                                  ("sim impl: concatenations written in place") */
    int concats_in_place;      /* concatenations whose every input is such a slice: they copy nothing */
    int bodies;                /* programs of if and loop bodies, nested ones included (a let lowers inline) */
    size_t body_bytes;         /* their arenas, outputs, workspaces and tile scratches: static, each allocated once
                                  and reused by every iteration and every run (not counted in arena_bytes) */
} byoc_sim_memory_plan;
BYOC_SIM_API byoc_sim_memory_plan byoc_sim_memory(const byoc_sim_program *p);

typedef enum byoc_sim_buffer_kind {
    BYOC_SIM_BUFFER_INPUT = 1, /* an input of the program, where the caller keeps it */
    BYOC_SIM_BUFFER_CONSTANT,  /* a constant, where the module keeps it */
    BYOC_SIM_BUFFER_ARENA,     /* an intermediate, at offset in the arena */
    BYOC_SIM_BUFFER_OUTPUT,    /* an output, at offset in the output storage */
    BYOC_SIM_BUFFER_DYNAMIC    /* a result of '?' shape: allocated when a run knows its shape, not in the arena */
} byoc_sim_buffer_kind;

/* A buffer of the plan, for tools and checkers. Views share their source's buffer. DYNAMIC buffers (results whose
   types have '?') are allocated by each run for the shape it computes (size: the last run's bytes). */
typedef struct byoc_sim_buffer_info {
    byoc_sim_buffer_kind kind;
    size_t offset, size;  /* ARENA, OUTPUT */
    int first, last;      /* ARENA: slots of its first write and last access */
    int inplace_of;       /* ARENA: the buffer whose storage it takes over at slot `first`, else -1 */
    int slice_of;         /* ARENA, OUTPUT: the concatenation result it is a slice of (its producer writes there; in
                             the output storage when that result is an output), else -1 */
    size_t slice_offset;  /* slice_of: bytes from the start of that buffer (offset is already the absolute one) */
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
   returns stay in the module until the module is destroyed (byoc_runtime_module's interface), and, for a
   loop, a scan output's run-time buffer or the trace records of its body's kernels when a run iterates more
   often than every run before it (both are kept for the next runs). A control-flow body's program allocates
   its memory on its first iteration. */
BYOC_SIM_API byoc_result byoc_sim_run(byoc_sim_program *p, const byoc_tensor *inputs, int ninputs, byoc_tensor *outputs,
                                      int noutputs, byoc_diag *diag);
/* How many threads the program's host kernels use (its pool's, or its byoc_sim_options.parallel's threads). */
BYOC_SIM_API int byoc_sim_threads(const byoc_sim_program *p);
/* Outputs that are ONNX sequences or optionals (byoc_sim_io.boxed; such inputs pass a byoc_sim_sequence).
   byoc_sim_run gives such an output as a tensor of rank 0 with no data; the last run's value is read here:
   byoc_sim_output_elements is a sequence's length, -1 for an empty optional, a present optional's content's count
   (1 for a tensor), 1 for a tensor output; byoc_sim_output_element gives element k as a view valid until the
   next run or destroy (a run's sequences are held on the heap until then). */
BYOC_SIM_API int byoc_sim_output_elements(const byoc_sim_program *p, int i);
BYOC_SIM_API byoc_result byoc_sim_output_element(const byoc_sim_program *p, int i, int k, byoc_tensor *element,
                                                 byoc_diag *diag);

// [SECTION] sim: profile
/* The profile as a text table: one row per kernel (name, device, partition, exec, ops, median and total
   time, bytes read and written), a total line, and
   "arena N bytes (lower bound M bytes, ratio x.xx)". Free with byoc_sim_free. */
BYOC_SIM_API char *byoc_sim_profile_format(const byoc_sim_program *p, size_t *len);
/* Forgets measured times (e.g. after warm-up runs). */
BYOC_SIM_API void byoc_sim_profile_reset(byoc_sim_program *p);
/* The simulated latency of the last run: the sum of the kernels' sim_seconds (they run one after another). */
BYOC_SIM_API double byoc_sim_latency(const byoc_sim_program *p);
/* The simulated device kernel i runs on, for per-device summaries: its parameters (SRAM size, clock, MAC array),
   NULL for a kernel on the host. *sram_peak_bytes (when given) receives the highest SRAM byte any command of
   its stream reaches (tiles, operands, results): its peak SRAM use; 0 on the host. */
BYOC_SIM_API const struct byoc_sim_device *byoc_sim_kernel_device(const byoc_sim_program *p, int i,
                                                                  int64_t *sram_peak_bytes);
/* The command stream a device kernel (i) runs, for its layers and commands (byoc_sim_device_layer,
   byoc_sim_device_command); NULL for a host kernel or an index out of range. */
BYOC_SIM_API const struct byoc_sim_device_program *byoc_sim_kernel_program(const byoc_sim_program *p, int i);
/* Where the wall time went by kernel class: a kernel's class comes from the op it is built around (its
   anchor, else its first op): "conv", "depthwise conv" (one input channel per group), "grouped conv",
   "dense/matmul", "pool", "normalisation" (softmax, layer/batch norm), "reduction", "elementwise", "data movement"
   (transposes, concatenations, slices, copies, resizes), "device" (a partition's runtime module), "control flow",
   "other". byoc_sim_profile_by_class fills rows (up to cap) with each class's kernels and summed median wall
   seconds, largest first, and returns how many classes ran (up to cap: classes past it are left out). */
typedef struct byoc_sim_class_time {
    const char *kernel_class;
    int kernels;
    double seconds;
} byoc_sim_class_time;
BYOC_SIM_API const char *byoc_sim_kernel_class(const byoc_sim_program *p, int i);
BYOC_SIM_API int byoc_sim_profile_by_class(const byoc_sim_program *p, byoc_sim_class_time *rows, int cap);
/* The last run as Chrome trace-event JSON (opens in Perfetto and chrome://tracing): one track per device with
   its kernels, and for each simulated device a DMA and a compute track with every command of its streams,
   on the simulated timeline in microseconds. Events carry the ids of profiles and source maps: "kernel"
   (the schedule index), and on commands "layer_index" and "command" (in the partition's blob). Free with
   byoc_sim_free. */
BYOC_SIM_API char *byoc_sim_trace_format(const byoc_sim_program *p, size_t *len);

// [SECTION] sim: devices (NPU, DSP and host models, backends, command streams)
/* The simulated SoC. Devices share DRAM; a partition compiled for the NPU or the DSP is a command stream
   (DMA loads into on-chip SRAM, compute on SRAM tiles, DMA stores) that byoc_sim_device_run executes for
   real numbers (every compute command runs byoc.h's host kernel on its SRAM tiles) while it counts cycles:
   two in-order engines (DMA, compute) and each command's dependencies, so double-buffered DMA overlaps
   compute. Per-command cycles: DMA latency + whole bursts per contiguous run / DRAM bytes per cycle; NPU
   convolutions and dense layers by SCALE-Sim's folds (ceil(Sr/rows) * ceil(Sc/cols) folds of rows+cols+T-2
   cycles output-stationary, 2*rows+cols+T-2 weight-stationary), pools and standalone elementwise ops at
   `cols` results per cycle, fused bias and activation epilogues free (in the output stage); DSP vector ops
   at `lanes` elements per cycle times a per-op cost (see README "Device models").
   The host is modelled analytically: max(float ops / (lanes * clock), bytes / DRAM bandwidth) plus a
   per-kernel launch.

   Device kinds are data: npu and dsp are registered through byoc_sim_device_kind_def like any kind a
   program adds (byoc_sim_register_device_kind); tiling, DMA, SRAM and double buffering are shared, a kind
   brings its presets, the ops it runs, its compute-cycle model and optionally its own execution. */
typedef enum byoc_sim_dataflow { BYOC_SIM_OUTPUT_STATIONARY = 0, BYOC_SIM_WEIGHT_STATIONARY } byoc_sim_dataflow;
/* The host's device kind: always index 0 of the registry (npu is 1 and dsp 2, registered next). */
#define BYOC_SIM_HOST 0

typedef struct byoc_sim_device { /* (also named in byoc_sim_options) */
    int kind;                   /* the registered device kind (byoc_sim_device_kind_at); BYOC_SIM_HOST for the host */
    char preset[32];
    double clock_mhz;
    int rows, cols;             /* NPU: the MAC array, rows x cols MACs per cycle */
    byoc_sim_dataflow dataflow; /* NPU: SCALE-Sim's mapping of convolutions onto the array */
    int lanes;                  /* DSP: float32 lanes per vector op; HOST: sustained float ops per cycle */
    int64_t sram_bytes;         /* NPU, DSP: on-chip memory every tile's working set must fit in */
    double dram_bytes_per_cycle;
    int dram_latency;           /* cycles before the first byte of a DMA */
    int burst_bytes;            /* a DMA moves whole bursts for every contiguous run of a tile */
    int launch_cycles;          /* NPU, DSP: per partition run; HOST: per kernel */
    int double_buffer;          /* NPU, DSP: 1 gives every tile operand two SRAM buffers, so DMA overlaps compute */
    unsigned dtypes;            /* bit (1u << dtype) for each dtype the device computes */
} byoc_sim_device;

/* Presets: the device kinds' defaults and the figures they come from (README "Device models"). */
BYOC_SIM_API int byoc_sim_preset_count(void);
BYOC_SIM_API const byoc_sim_device *byoc_sim_preset(int i, const char **about);
BYOC_SIM_API const byoc_sim_device *byoc_sim_preset_find(const char *name); /* NULL if unknown */
/* Sets one parameter by its option name: preset (resets every parameter to that preset's), clock_mhz,
   rows, cols, dataflow ("os" or "ws"), lanes, sram_kb, dram_bytes_per_cycle, dram_latency, burst_bytes,
   launch_cycles, double_buffer, dtypes ("float32,int8"). An unknown name or a value out of range is an
   error naming it. */
BYOC_SIM_API byoc_result byoc_sim_device_set(byoc_sim_device *dev, const char *name, const byoc_attr_value *value,
                                             byoc_diag *diag);
/* "npu (ethos-u55-256): 16x16 MACs output-stationary at 500 MHz, SRAM 384 KB, ..." */
BYOC_SIM_API void byoc_sim_device_describe(const byoc_sim_device *dev, char *out, size_t cap);

/* A device kind (README "Device models"). Registration copies the struct, its presets and the ops it
   names (the strings and callbacks must outlive the process's use of the kind). Partitions of a backend
   whose `kind` line names it are lowered to command streams by the shared machinery (layers, tiles that
   fit SRAM, DMA loads and stores, double buffering); the kind decides which ops run, what a compute
   command costs and, optionally, how it executes.

       static uint64_t vpu_cycles(const byoc_sim_device *dev, const byoc_node *const *calls, int n,
                                  uint64_t *macs, void *ud) {
           uint64_t cycles = 0; // calls[0] the layer's anchor, then its epilogue, typed on the tile
           for (int i = 0; i < n; ++i)
               cycles += (uint64_t)byoc_type_num_elements(calls[i]->checked_type) / (uint64_t)dev->lanes + 4;
           *macs = 0;
           return cycles;
       }
       static const byoc_sim_device vpu_presets[] = {{0, "vpu-32", 1000, 0, 0, BYOC_SIM_OUTPUT_STATIONARY, 32,
                                                      128 * 1024, 16, 100, 64, 300, 1, 1u << BYOC_FLOAT32}};
       static const char *const vpu_ops[] = {"add", "multiply", "nn.relu", NULL};
       byoc_sim_device_kind_def k = {0};
       k.name = "vpu";  k.presets = vpu_presets;  k.npresets = 1;
       k.classes = BYOC_SIM_CLASS(BYOC_OP_CLASS_REDUCE);  k.ops = vpu_ops;  k.fuse_epilogue = 1;
       k.compute_cycles = vpu_cycles;
       byoc_sim_register_device_kind(&k, &diag);    // now `kind vpu` in a .backend file opens a vpu device

   Cycle counts must depend only on the device and the calls' types and attributes (estimates are cached by
   them). With spec_text the kind also has a built-in backend of its name (byoc_sim_backend_open("vpu")). */
#define BYOC_SIM_CLASS(c) (1u << (unsigned)(c)) /* a byoc_op_class in byoc_sim_device_kind_def.classes */
typedef struct byoc_sim_device_kind_def {
    const char *name;              /* an identifier: the `kind` word of .backend files, blobs' and profiles' kind */
    const char *about;             /* one line for listings (may be NULL) */
    const byoc_sim_device *presets; /* its parameter sets, presets[0] the default; their kind is set at registration */
    const char *const *preset_about; /* npresets lines: where each preset's figures come from (may be NULL) */
    int npresets;                  /* 1..8; preset names are unique across kinds */
    const char *spec_text;         /* .backend text of a built-in backend (may be NULL) */
    unsigned classes;              /* BYOC_SIM_CLASS(c) for every byoc_op_class all of whose ops it runs */
    const char *const *ops;        /* NULL-terminated: further ops it runs, each of a class other than NONE (its
                                      layer class), e.g. the elementwise ops of an NPU's output stage */
    int fuse_epilogue; /* 1: elementwise ops only a layer's anchor feeds join its layer (one compute per tile) */
    int mac_array;                 /* 1: a rows x cols MAC array (both must be >= 1; costs report MAC utilisation) */
    /* further constraints on one op call, after the shared ones (dtypes, static shapes, layouts, SRAM):
       1 accepts, else 0 with the reason (NULL: none) */
    int (*accepts)(const byoc_sim_device *dev, const byoc_node *call, char *reason, size_t cap, void *user_data);
    /* compute cycles of one compute command (required): calls[0] the layer's anchor, calls[1..ncalls) its
       fused epilogue, each typed on the tile's shapes; *macs receives its multiply-accumulates */
    uint64_t (*compute_cycles)(const byoc_sim_device *dev, const byoc_node *const *calls, int ncalls, uint64_t *macs,
                               void *user_data);
    /* computes one call of a compute command on its SRAM tiles, writing result->data (NULL: byoc.h's host
       kernel, byoc_kernel_run); workspace holds byoc_kernel_workspace_size(call) bytes */
    byoc_result (*execute)(const byoc_sim_device *dev, const byoc_node *call, const byoc_tensor *args, int nargs,
                           byoc_tensor *result, void *workspace, byoc_diag *diag, void *user_data);
    /* one line about a device of this kind (NULL: "NAME (preset): lanes, MACs, clock, SRAM, DRAM, launch, dtypes") */
    void (*describe)(const byoc_sim_device *dev, char *out, size_t cap, void *user_data);
    void *user_data;
} byoc_sim_device_kind_def;
/* Registers a kind (a name taken, bad presets, an unknown op or a full registry is an error naming it). */
BYOC_SIM_API byoc_result byoc_sim_register_device_kind(const byoc_sim_device_kind_def *def, byoc_diag *diag);
/* The registry, for listings: 0 is the host (no compute_cycles: it runs kernels, not command streams). */
BYOC_SIM_API int byoc_sim_device_kind_count(void);
BYOC_SIM_API const byoc_sim_device_kind_def *byoc_sim_device_kind_at(int i); /* NULL out of range */
BYOC_SIM_API int byoc_sim_device_kind_find(const char *name);                 /* its index, -1 if none */

/* A backend on a simulated device: what partitioning needs (spec) and what compiling needs (target). */
typedef struct byoc_sim_backend {
    byoc_backend_spec *spec; /* patterns and op support; every op also passes the device's own checks */
    byoc_target *target;     /* the device parameters as target options, for byoc_run_target_hooks */
    byoc_sim_device device;
} byoc_sim_backend;

/* Opens a backend from a built-in name ("npu", "dsp"), a .backend file whose kind (its `kind` line, else its name)
   is a registered device kind (its `option` lines set device parameters, its `dtypes` line the device's dtypes) or
   `library` (no device: its partitions run on the host kernels), or either followed by target options in TVM's spelling
   ("npu -preset=npu-128x128 -sram_kb=512"). Registers its target kind and hooks on first use:
   relay_to_tir lowers each partition to a command stream (tiling to fit SRAM, DMA insertion, weight
   streaming, fused epilogues, double buffering), tir_to_runtime serialises it into a blob and loads it
   into a runtime module that byoc_sim_run (and byoc_module_evaluate) call. A backend of any other kind is an
   error at FILE:LINE:COL ("kind 'npuu' is not a registered device kind (kinds: npu, dsp; did you mean 'npu'?)"). */
BYOC_SIM_API byoc_sim_backend *byoc_sim_backend_open(const char *text, byoc_diag *diag);
BYOC_SIM_API void byoc_sim_backend_close(byoc_sim_backend *b);
/* One line naming the backend and what runs its ops, with the device's own parameters:
   "tiny64 (npu kind: 8x8 MACs output-stationary at 500 MHz, ...; from preset ethos-u55-256 with rows, cols
   overridden)",
   "npu (npu kind, preset ethos-u55-256: 16x16 MACs ...)" or "tiny64 (a library backend: host kernels)". */
BYOC_SIM_API void byoc_sim_backend_describe(const byoc_sim_backend *b, char *out, size_t cap);
/* Built-in backends, for listings: name and the .backend text of its patterns and op support. */
BYOC_SIM_API int byoc_sim_builtin_backend_count(void);
BYOC_SIM_API const char *byoc_sim_builtin_backend(int i, const char **spec_text);

/* What one run of a command stream costs, counted by the simulator or estimated without running. */
typedef struct byoc_sim_cost {
    uint64_t cycles;         /* launch to the last command's end */
    double seconds;          /* cycles at the device clock */
    uint64_t compute_cycles; /* busy cycles of the compute engine */
    uint64_t dma_cycles;     /* busy cycles of the DMA engine */
    uint64_t bytes_in, bytes_out; /* DRAM bytes loaded and stored */
    uint64_t macs;           /* multiply-accumulates of convolutions and dense layers */
    double mac_utilization;  /* macs / (cycles * rows * cols); 0 off the NPU */
    int commands, layers;
} byoc_sim_cost;

/* Lowers the global function (a partition) to a command stream for dev and serialises it: the blob
   holds the device parameters, the tensors, the per-layer kernels as text IR, the commands and the
   constants. Fails naming the op when the function holds something the device cannot run. */
BYOC_SIM_API byoc_result byoc_sim_device_compile(byoc_module *m, const char *function, const byoc_sim_device *dev,
                                                 void **blob, size_t *size, byoc_diag *diag);
/* The analytic estimator: the cost of running the function on dev, from the same lowering, without
   running it (launch + per layer: first load + sum of max(compute_i, dma_i+1) + last store). */
BYOC_SIM_API byoc_result byoc_sim_estimate(byoc_module *m, const char *function, const byoc_sim_device *dev,
                                           byoc_sim_cost *cost, byoc_diag *diag);

/* Estimators for byoc_partition_collage (byoc.h's cost-driven search). The backends' devices and the host: */
typedef struct byoc_sim_collage_devices {
    const byoc_sim_device *host;                /* NULL: preset host-a55 */
    const byoc_sim_backend *const *backends;    /* candidates of other specs run on the host kernels */
    int count;
    /* measured only: */
    int runs;                                   /* runs per measurement, the median counts (0: 5) */
    const char *cache_file;                     /* NULL: no cache kept between processes */
    int measured, cache_hits;                   /* counters: candidates run, found in the cache file */
    void *memo;                                 /* internal: layers' cycles the analytic estimator knows */
} byoc_sim_collage_devices;
/* Frees what the estimators kept in cd (its memo); cd stays usable. */
BYOC_SIM_API void byoc_sim_collage_devices_release(byoc_sim_collage_devices *cd);
/* Analytic: a candidate on a simulated device costs what byoc_sim_estimate says of its command stream (the
   launch, the DMA of its inputs and outputs -- the transfer across the device boundary -- and compute);
   on the host, or on a backend without a device model, what the host model gives it as one kernel
   (reshape-like ops alone are views and cost nothing). user_data: a byoc_sim_collage_devices. */
BYOC_SIM_API double byoc_sim_collage_cost(byoc_module *m, const byoc_collage_candidate *c, void *user_data);
/* Measured: runs the candidate (device candidates as command streams on their simulator, counting cycles;
   host candidates on the host kernels, timing them) `runs` times on zero inputs and takes the median.
   Results persist in cache_file as lines "KEY TARGET SECONDS", keyed by the candidate's structural key and
   the target it ran on (the device's parameters, or the host). */
BYOC_SIM_API double byoc_sim_collage_measured_cost(byoc_module *m, const byoc_collage_candidate *c, void *user_data);

/* A decoded blob. Loading checks every count, size, offset and box against the blob and the SRAM, and
   the checksum: a truncated or corrupt blob is an error, never a crash. */
typedef struct byoc_sim_device_program byoc_sim_device_program;
BYOC_SIM_API byoc_sim_device_program *byoc_sim_device_load(const void *blob, size_t size, byoc_diag *diag);
/* The same, with everything the program owns from allocator (NULL: malloc and free). */
BYOC_SIM_API byoc_sim_device_program *byoc_sim_device_load_with(const void *blob, size_t size,
                                                                const byoc_allocator *allocator, byoc_diag *diag);
BYOC_SIM_API void byoc_sim_device_program_destroy(byoc_sim_device_program *dp);
BYOC_SIM_API const byoc_sim_device *byoc_sim_device_of(const byoc_sim_device_program *dp);
/* Runs the stream on tensors (inputs and outputs in the function's order). cost (may be NULL) receives
   what this run took. */
BYOC_SIM_API byoc_result byoc_sim_device_run(byoc_sim_device_program *dp, const byoc_tensor *in, int nin,
                                             byoc_tensor *out, int nout, byoc_sim_cost *cost, byoc_diag *diag);
/* One command of the stream and its cycles in the last run, for traces and source maps. */
typedef struct byoc_sim_command_info {
    const char *kind;      /* "load", "store", "compute" */
    int layer;             /* index into the layers */
    uint64_t start, cycles;/* in the last run, from the launch */
    uint64_t bytes;        /* DMA bytes moved, 0 for compute */
    uint64_t macs;
    uint64_t offset;       /* byte offset of its record in the blob */
} byoc_sim_command_info;
BYOC_SIM_API int byoc_sim_device_command_count(const byoc_sim_device_program *dp);
BYOC_SIM_API byoc_sim_command_info byoc_sim_device_command(const byoc_sim_device_program *dp, int i);
/* Layers: an anchor op and its fused epilogue, named by the frontend names of their ops. */
BYOC_SIM_API int byoc_sim_device_layer_count(const byoc_sim_device_program *dp);
BYOC_SIM_API const char *byoc_sim_device_layer(const byoc_sim_device_program *dp, int i, const char **ops);

/* The devices' integer datapath (README "Device models"): a command stream runs qnn.requantize in fixed point, as
   TFLite Micro's kernels and the Ethos-U output stage do, while the host keeps ONNX Runtime's float requantize.
   byoc_sim_quantize_multiplier is TFLite's QuantizeMultiplier: real = multiplier * 2^(shift - 31), multiplier a
   Q31 value in [2^30, 2^31) (0 with shift 0 below 2^-32, shift at most 62); a real that is not positive and
   finite is an error.
   byoc_sim_multiply_by_quantized_multiplier is its MultiplyByQuantizedMultiplier: x * real rounded twice (the
   high multiply's ties up, the shift's away from zero), saturated to int32: within 1 of round(x * real). */
BYOC_SIM_API byoc_result byoc_sim_quantize_multiplier(double real, int32_t *multiplier, int *shift, byoc_diag *diag);
BYOC_SIM_API int32_t byoc_sim_multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int shift);

// [SECTION] sim: executable (.byoc artifacts, source maps)
/* A compiled program in one file (README "Artifact"): the module text (the host program, with its
   partitions and fused groups), its weights, the memory plan, the kernel list, one blob per partition
   that runs as a command stream (with its compatibility strings: backend, kind, blob format, producer,
   target), and the source map. Little-endian: a 64-byte header (magic "BYOCEXE\0", format version,
   section count, library version, file size, checksum of the header and the section table), the
   section table, then the sections, each with its own checksum.

   Loading checks the header, every section's bounds and checksum, every count against the bytes
   present, the blobs (byoc_sim_device_load's checks), then lowers the module again and checks that it
   gives the saved kernel list and memory plan: a truncated, corrupted or mismatched file is an error
   naming the section and what is wrong, never a crash. */

/* A node of the frontend graph, for the source map. */
typedef struct byoc_sim_source_node {
    const char *name;    /* the span its IR nodes carry ("onnx:conv1") */
    const char *op;      /* the frontend op ("Conv"), may be NULL */
    const char
        *removed; /* why no IR node carries it any more ("every input is a constant: evaluated at import"), or NULL */
} byoc_sim_source_node;

/* All zero is valid. */
typedef struct byoc_sim_save_options {
    const char *model;                        /* recorded as the model's name */
    const char *strategy;                     /* recorded: how ops were placed ("greedy", "collage") */
    const byoc_sim_source_node
        *source_nodes; /* every frontend node, in graph order (NULL: the spans found in the module) */
    int nsource_nodes;
    const byoc_placement_report *placement;   /* why each op runs where it does (NULL: reasons are not recorded) */
    const char *const *input_names;           /* frontend names of the program's inputs and outputs, recorded */
    int ninputs;
    const char *const *output_names;
    int noutputs;
} byoc_sim_save_options;

/* Serialises a lowered program (and the module it borrows) as a .byoc file in memory, from BYOC_MALLOC
   (free it with free, or BYOC_FREE where you define it). Fails when a partition's runtime module is not a
   simulated device's. */
BYOC_SIM_API byoc_result byoc_sim_executable_save(byoc_sim_program *p, const byoc_sim_save_options *options,
                                                  void **bytes, size_t *size, byoc_diag *diag);

/* A device this runtime offers under a backend name: a blob compiled for a backend not listed, or for
   other device parameters, is refused with its name and the reason. */
typedef struct byoc_sim_runtime_backend {
    const char *name;
    const byoc_sim_device *device;
} byoc_sim_runtime_backend;

typedef struct byoc_sim_load_options {
    const byoc_allocator *allocator;          /* the module, the program and the executable (NULL: malloc) */
    const byoc_sim_runtime_backend *backends; /* NULL: every blob runs on the simulated device it was compiled for */
    int nbackends;
    int threads;                    /* as byoc_sim_options' threads and parallel, for the loaded program */
    const byoc_parallel *parallel;
} byoc_sim_load_options;

typedef struct byoc_sim_executable byoc_sim_executable;
/* name is used in messages. The executable owns its module and program. */
BYOC_SIM_API byoc_sim_executable *byoc_sim_executable_load(const void *bytes, size_t size, const char *name,
                                                           const byoc_sim_load_options *options, byoc_diag *diag);
BYOC_SIM_API byoc_sim_executable *byoc_sim_executable_read(const char *path, const byoc_sim_load_options *options,
                                                           byoc_diag *diag);
BYOC_SIM_API void byoc_sim_executable_destroy(byoc_sim_executable *e);
BYOC_SIM_API byoc_sim_program *byoc_sim_executable_program(const byoc_sim_executable *e);
BYOC_SIM_API byoc_module *byoc_sim_executable_module(const byoc_sim_executable *e);
/* What the file records: "format", "library", "model", "strategy", "host", and "inputs" and "outputs" (the
   frontend names, one per line); NULL if absent. */
BYOC_SIM_API const char *byoc_sim_executable_info(const byoc_sim_executable *e, const char *key);

/* A partition's blob and its compatibility strings. */
typedef struct byoc_sim_blob_info {
    const char *function; /* the partition ("tvmgen_default_npu_main_0") */
    const char *backend;  /* its Compiler */
    const char *kind;     /* its device kind: "npu", "dsp", ... */
    const char *format;   /* "BYOCDEV 2", or "BYOCDEV 3" for a blob of more than 8 operands per command (qnn
                             layers); files that record "BYOCDEV 1" load too */
    const char *producer; /* "byoc_sim 0.1.0" */
    const char *target;   /* the device parameters in target syntax ("npu -preset=ethos-u55-256 -rows=16 ...") */
    size_t size;
    const byoc_sim_device_program *program;
} byoc_sim_blob_info;
BYOC_SIM_API int byoc_sim_executable_blob_count(const byoc_sim_executable *e);
BYOC_SIM_API const byoc_sim_blob_info *byoc_sim_executable_blob(const byoc_sim_executable *e, int i);

/* The source map: one entry per (frontend node, IR op) pair, and one per frontend node that no IR node
   carries (removed says why). Kernel indices are byoc_sim_kernel's, as in profiles and traces. */
typedef struct byoc_sim_source_entry {
    const char *frontend;    /* "onnx:conv1" */
    const char *frontend_op; /* "Conv", "" if unknown */
    const char *removed;     /* NULL, or why no IR node carries it (the fields below are then empty) */
    const char *function;    /* the global function holding the op ("main", a partition) */
    const char *node;        /* its label there ("%12") */
    const char *op;          /* "nn.conv2d" */
    const char *composite;   /* the Composite it belongs to ("npu.conv2d_bias_relu"), "" if none */
    const char *partition;   /* "" on the host */
    const char *backend;     /* "npu", "host" */
    int kernel;              /* in the schedule, -1 when it needs none (a view of its input) */
    int layer;               /* in the partition's blob, -1 off a device */
    int command_first, command_last; /* its layer's commands in the blob, -1 off a device */
    uint64_t command_offset; /* byte offset of the first one's record in the blob */
    const char *reason;      /* why it runs there */
} byoc_sim_source_entry;
BYOC_SIM_API int byoc_sim_executable_source_count(const byoc_sim_executable *e);
BYOC_SIM_API const byoc_sim_source_entry *byoc_sim_executable_source(const byoc_sim_executable *e, int i);
/* The source map as JSON (README "Source map"): frontend nodes with their IR ops down to the commands, and
   kernels back to frontend nodes. Free with byoc_sim_executable_free. */
BYOC_SIM_API char *byoc_sim_executable_source_map_json(const byoc_sim_executable *e, size_t *len);
BYOC_SIM_API void byoc_sim_executable_free(const byoc_sim_executable *e, void *ptr);

// [SECTION] sim: report (one self-contained HTML page of a placement and its run)
/* byoc_sim_report_html writes one HTML file that needs nothing else (inline SVG, CSS and a little plain
   JavaScript; no network, no fonts, no third-party script): what ran where, why, and how fast.
     #graph     every op of the placement report as a box (one `g.node` each, data-node-id = its origin, the
                #ID pins and placement files use; data-device = its backend), laid out top to bottom by
                byoc_graph_layout and coloured by device, partitions boxed (shapes that never overlap); a click
                (or the URL hash #node=ID) shows its ONNX name, op, composite, partition, kernel and the
                placement reason with each declining backend's reason; wheel zoom, drag to pan, the first
                view fitting the graph's width. A second view (#collapsed, or a click on a partition's name)
                lays the graph out again with each partition one g.partition-node box
     #timeline  the program's last run on the simulated timeline: one lane per device with its kernels, a DMA
                lane per simulated device with its command streams' loads and stores, and the transfers
                (kernels reading what another device wrote)
     #plans     the plan beside the other strategy's (other), and the ops that moved between them
     #memory    the static memory plan: each arena buffer as offset x lifetime (time slots)
     #kernels   the kernels with device, class, simulated and measured (median wall) time
   Every string from the model (names, ops, reasons) is escaped. The page sets document.body.dataset.ready to
   "1" when its script has run. */
typedef struct byoc_sim_report_input {
    const char *title;                      /* the heading, e.g. the model's file name (NULL: "byoc report") */
    const char *note;                       /* a line under the heading (how the page was made), or NULL */
    const byoc_placement_report *placement; /* required: the plan that was compiled; its ops are the nodes */
    const char *strategy;                   /* its strategy: "greedy" or "collage" (NULL: "greedy") */
    const byoc_placement_report *other;     /* the other strategy's plan of the same prepared module, or NULL */
    const char *other_strategy;             /* (NULL: the one strategy is not) */
    const byoc_sim_program *program;        /* the compiled program after a run, or NULL (no timeline, memory plan
                                               or kernels then; the sections say so) */
    const byoc_layout_options *layout;      /* the graph's spacing (NULL: the defaults) */
} byoc_sim_report_input;

/* The page as a NUL-terminated string (its length in *len when given); free it with byoc_sim_report_free. NULL
   with BYOC_ERR_INVALID_ARGUMENT for a NULL input or placement, or a graph byoc_graph_layout refuses;
   BYOC_ERR_OUT_OF_MEMORY. */
BYOC_SIM_API char *byoc_sim_report_html(const byoc_sim_report_input *input, size_t *len, byoc_diag *diag);
BYOC_SIM_API void byoc_sim_report_free(char *html);


// [SECTION] sim: compile pipeline (a model to a program, as byocc run and compile do)
/* The one sequence byocc's run and compile, the Python package and the HTML report share: the library's
   preparation (byoc_prepare_for_partition: SimplifyInference, FoldConstant, FoldScaleAxis, ...), placement on
   the given backends (greedy, or the Collage search with the analytic or measured estimator, or a saved plan
   replayed), the device partitions lowered by their target hooks (relay_to_tir, tir_to_runtime), the host
   rewrites, FuseOps, and byoc_sim_lower. The order is TVM's relay.build for BYOC: partition_for_<target> first,
   then the target hooks on each partition, then FuseOps and lowering of what stays on the host. */
typedef enum byoc_sim_compile_stage {
    BYOC_SIM_STAGE_PREPARE,       /* a pass of the preparation (the callback's pass names it) */
    BYOC_SIM_STAGE_PLACE,         /* ops placed on the backends (only with backends, or place_only) */
    BYOC_SIM_STAGE_TARGET_HOOKS,  /* device partitions lowered to their runtime modules (without backends too) */
    BYOC_SIM_STAGE_HOST_REWRITES, /* SimplifyExpr, FoldScaleAxis, LayerNormFusion, GeluFusion on the host */
    BYOC_SIM_STAGE_FUSE,          /* FuseOps (skipped with no_fuse; the callback still runs) */
    BYOC_SIM_STAGE_LOWER          /* byoc_sim_lower: the program */
} byoc_sim_compile_stage;

/* What a compile gives. It borrows the module (as a program does): keep the module alive while it lives. */
typedef struct byoc_sim_compiled {
    byoc_sim_program *program;        /* the lowered @main; NULL with place_only or after a failure */
    byoc_placement_report *placement; /* why each op runs where it does; NULL without backends (and place_only) */
    byoc_collage_stats *collage;      /* the Collage search's statistics and chosen plan; NULL under greedy */
    int measured, cache_hits;         /* the measured estimator: candidates it ran, and found in cost_cache */
    byoc_sim_compile_stage failed;    /* after a failure: the stage that did not complete */
} byoc_sim_compiled;

/* Called after each stage completes, with the module as that stage left it and the result so far (after
   BYOC_SIM_STAGE_PLACE its placement and collage are set). A nonzero return stops the compile, which then
   fails with BYOC_ERR_INTERNAL ("stopped after ..."): a caller that records something per stage (byocc's
   source map tracks which ONNX nodes each stage removes) stops there when its own work fails. */
typedef int (*byoc_sim_compile_stage_fn)(byoc_sim_compile_stage stage, const char *pass, byoc_module *m,
                                         const byoc_sim_compiled *so_far, void *user_data);

/* All zero is valid: every op on the host, greedy, the defaults of the passes and of lowering. */
typedef struct byoc_sim_compile_options {
    byoc_sim_backend *const *backends; /* tried by descending priority, then in this order */
    int nbackends;
    const char *strategy;              /* "greedy" (NULL) or "collage" */
    const char *estimator;             /* collage: "analytic" (NULL) or "measured" */
    const char *cost_cache;            /* measured: the cache file kept between processes (NULL: none) */
    const byoc_collage_assignment *replay; /* collage: place as this saved plan says instead of searching */
    int nreplay;
    int max_depth, state_budget;       /* collage: its limits (0: byoc_collage_options' defaults) */
    const byoc_partition_options *partition; /* pins, mod_name, bind_constants, and greedy's no_fallback,
                                        min_partition_ops, max_partitions, no_merge_regions (its backends are
                                        ignored: those above count); NULL: none of them, constants bound */
    int no_fq2i;                       /* QDQ groups stay dequantize -> float op -> quantize */
    int fixed_point_requantize;        /* every qnn.requantize in the devices' fixed point */
    int no_fuse;                       /* no FuseOps: one host kernel per op */
    int place_only;                    /* stop after placement (which then runs without backends too: the
                                          report puts every op on the host): no target hooks, rewrites or program */
    int always_place;                  /* place without backends too (every op on the host, with its report) */
    int threads;                       /* the program's host threads (byoc_sim_options' threads) */
    byoc_sim_compile_stage_fn on_stage; /* NULL: none */
    void *stage_data;
    int side_by_side;                  /* the program runs independent kernels side by side (byoc_sim_options') */
} byoc_sim_compile_options;

/* Compiles m in place (its functions become the partitioned, fused module the program runs). After a stage
   fails, *out is still set (its failed names the stage, its placement may be set): free it with
   byoc_sim_compiled_free either way; *out is NULL only when the arguments are refused (NULL handles, an unknown
   strategy or estimator) or it cannot be allocated. NULL options: all zero. Part of the compiler: left out
   under BYOC_SIM_RUNTIME_ONLY. */
BYOC_SIM_API byoc_result byoc_sim_compile(byoc_module *m, const byoc_sim_compile_options *options,
                                          byoc_sim_compiled **out, byoc_diag *diag);
/* Frees the program, the placement report and the Collage statistics (not the module). */
BYOC_SIM_API void byoc_sim_compiled_free(byoc_sim_compiled *c);
/* "prepare", "place", "target hooks", "host rewrites", "fuse", "lower" */
BYOC_SIM_API const char *byoc_sim_compile_stage_name(byoc_sim_compile_stage stage);


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

#ifndef BYOC_MALLOC /* as in byoc.h, for a file that compiles byoc.h's implementation elsewhere */
#define BYOC_MALLOC(n) malloc(n)
#define BYOC_CALLOC(n, size) calloc((n), (size))
#define BYOC_REALLOC(p, n) realloc((p), (n))
#define BYOC_FREE(p) free(p)
#endif

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

BYOC__SIM_PRIVATE byoc_result byoc__sim_fail(byoc_diag *d, byoc_result code, const byoc_node *n, const char *fmt, ...)
    BYOC__SIM_PRINTF(4, 5);
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

BYOC__SIM_PRIVATE size_t byoc__sim_align(size_t n) {
    return (n + (BYOC_SIM_ALIGN - 1)) / BYOC_SIM_ALIGN * BYOC_SIM_ALIGN;
}

/* "Tensor[(1, 8), float32]" (byoc.h's spelling) of a dtype and shape */
BYOC__SIM_PRIVATE void byoc__sim_shape_string(byoc_dtype dt, int rank, const int64_t *dims, char *out, size_t cap) {
    size_t at = 0;
    if (rank == 0) {
        snprintf(out, cap, "%s", byoc_dtype_name(dt) ? byoc_dtype_name(dt) : "invalid dtype");
        return;
    }
    at += (size_t)snprintf(out + at, cap - at, "Tensor[(");
    for (int i = 0; i < rank && at < cap; ++i)
        at += dims[i] < 0 ? (size_t)snprintf(out + at, cap - at, "%s?", i ? ", " : "")
                          : (size_t)snprintf(out + at, cap - at, "%s%lld", i ? ", " : "", (long long)dims[i]);
    if (at < cap)
        snprintf(out + at, cap - at, "%s), %s]", rank == 1 ? "," : "",
                 byoc_dtype_name(dt) ? byoc_dtype_name(dt) : "invalid dtype");
}

/* the device models (defined with them, below) */
BYOC__SIM_PRIVATE byoc_sim_device_program *byoc__dv_program_of(const byoc_runtime_module *rm);
BYOC__SIM_PRIVATE void byoc__sim_account(byoc_sim_program *p);
BYOC__SIM_PRIVATE const char *byoc__sim_kind_name(int k);
#define BYOC__DK_MAX 16 /* device kinds in the registry */

// [SECTION] sim impl: program storage
typedef struct byoc__sim_value {
    int buffer;   /* -1: an intermediate of a fused tile, kept in the tile scratch */
    int producer; /* the step that computes it, -1 for inputs and constants */
    byoc_dtype dtype;
    int rank;
    int64_t dims[BYOC_MAX_RANK];
    size_t nbytes;
    int dynamic;                    /* its type has '?': rt_dims and rt_nbytes are this run's */
    int64_t rt_dims[BYOC_MAX_RANK];
    size_t rt_nbytes;
    int boxed;       /* a sequence or optional: no bytes of the plan, its run-time value is `box` */
    const byoc_type *box_type;
    byoc_node *box;  /* this run's sequence value, empty optional or tensor constant, in p->boxes */
} byoc__sim_value;

typedef struct byoc__sim_buffer {
    byoc_sim_buffer_kind kind;
    size_t size;
    const byoc_node *constant; /* CONSTANT */
    int first, last;           /* ARENA, OUTPUT: slots of the first write and the last access */
    int inplace_of;
    int unit;                  /* ARENA: union-find parent while planning; buffers of one unit share storage */
    int slice_of;              /* a slice of this buffer's storage (a concatenation's input), else -1 */
    size_t slice_offset;       /* slice_of: bytes from its start */
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
    int dynamic;                /* an operand has '?' dims: typed at each run (byoc__sim_run_dynamic_step) */
    float *winograd;            /* nn.conv2d run as Winograd F(4x4, 3x3): its transformed filter, else NULL */
    const float *winograd_bias; /* the bias and activation the Winograd kernel applies (a fused epilogue) */
    int winograd_act;
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
    int in_first,
        nin; /* values read (RUNTIME, COPY: in argument order; TILED, ANCHOR: distinct buffers from outside) */
    int out_first, nout; /* values written */
    /* TILED, ANCHOR: tiles are sub-tensors split at axis `split`, `chunk` indices long along it */
    int rank, split;
    int64_t dims[BYOC_MAX_RANK];
    int64_t chunk, chunks, outer;
    int scratch_slots;
    size_t slot_bytes;
    int final_via_scratch; /* the last op writes a scratch slot that is then copied out (its output aliases an input) */
    int qconv; /* ANCHOR: qnn.conv2d [+ nn.bias_add] + qnn.requantize in one pass (byoc__sim_group_qconv) */
    int fconv; /* ANCHOR: float nn.conv2d [+ a per-channel bias] [+ nn.relu] in one pass (byoc__sim_group_fconv) */
    int fconv_bias, fconv_relu; /* fconv: the bias's operand in the second step (-1: none); 1: ends in nn.relu */
    int fconv_res_step, fconv_res; /* fconv: the step adding a residual (-1: none) and the residual's operand */
    float *fconv_wpacked;       /* fconv: a constant weight packed at lowering (byoc__conv2d_pack_weights), or NULL */
    int winograd_epilogue; /* ANCHOR: a Winograd convolution whose output transform applies the whole epilogue */
    int concat_slices; /* OPS led by a concatenation: inputs that are slices of its result (0: it runs its kernel) */
    struct byoc__sim_rows *rows; /* OPS: its ops as row ranges over threads ("sim impl: ops kernels over threads") */
    int rows_state;              /* OPS: 0 not yet planned, 1 planned (rows), -1 no row-range form */
    /* RUNTIME */
    const char *function;
    int rt_first, rt_nargs; /* argument nodes in p->rt_nodes */
    int rt_leaf_first;      /* one constant per input value in p->rt_nodes */
    int rt_device;          /* lowered for a simulated device: no argument constants were made */
    /* profile */
    int sample_first, nsamples, next_sample;
    /* CONTROL (see "sim impl: control flow") */
    const byoc_node *control;
    int body_first, nbodies; /* its bodies' programs in p->bodies */
    int ncarried;            /* loop: leaves of the loop-carried values (the first results) */
    int io_first;            /* tensors in p->tensors for a body's inputs and outputs */
    int64_t iterations;      /* the last run: a loop's iterations; an if's branch (0 then, 1 else) */
    int64_t loop_iteration;  /* a loop body's first two inputs during a run */
    unsigned char loop_cond;
    /* side by side (see "sim impl: kernels side by side") */
    int side_by_side; /* runs in a group of independent kernels, one thread each */
} byoc__sim_kernel;

/* where a kernel runs: the threads it may split over (the program's, or none for a member of a group run side by
   side), and the workspace and tile scratch it starts at (each task of a split kernel uses its own part after it) */
typedef struct byoc__sim_lane {
    const byoc_parallel *par;
    char *ws, *scratch;
} byoc__sim_lane;

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
    byoc_sim_device host; /* the host's model */
    /* memory, from the first run on */
    int ready;
    void *arena_block, *output_block, *workspace_block, *scratch_block;
    double *samples;
    /* control flow: the programs of if and loop bodies, and the last run's kernels inside them */
    byoc_sim_program **bodies;
    int nbodies, cap_bodies;
    int depth; /* 0 for @main's program, one more per enclosing body */
    struct byoc__sim_event *events;
    int nevents, cap_events, events_dropped;
    /* threads ("sim: threads"): the pool @main's program owns (bodies use their owner's par), and per-task copies
       of the workspace and tile scratch beside the plan's (the plan itself does not depend on the threads) */
    byoc_sim_pool *pool;
    byoc_parallel par;      /* par.threads <= 1: serial */
    size_t task_ws_bytes;   /* one task's workspace in workspace_block (byoc_kernel_workspace_size_parallel) */
    size_t task_scratch_bytes;
    /* the schedule: order[i] is the i-th kernel to run; together[i] kernels from position i on run side by side
       (1: order[i] alone; 0: a later member of the group that starts before i) */
    int *order, *together;
    int groups; /* groups of kernels run side by side */
    byoc_module *boxes; /* this run's sequence and optional values (see "sim impl: sequences and optionals") */
};

/* n bytes from the allocator a (its alloc_fn, else BYOC_MALLOC), and their release */
BYOC__SIM_PRIVATE void *byoc__sim_alloc_in(const byoc_allocator *a, size_t n) {
    if (!n) n = 1;
    return a->alloc_fn ? a->alloc_fn(n, a->user_data) : BYOC_MALLOC(n);
}
BYOC__SIM_PRIVATE void byoc__sim_free_in(const byoc_allocator *a, void *ptr) {
    if (!ptr) return;
    if (a->free_fn) a->free_fn(ptr, a->user_data);
    else BYOC_FREE(ptr);
}
BYOC__SIM_PRIVATE void *byoc__sim_malloc(const byoc_sim_program *p, size_t n) {
    return byoc__sim_alloc_in(&p->alloc, n);
}
BYOC__SIM_PRIVATE void byoc__sim_mfree(const byoc_sim_program *p, void *ptr) { byoc__sim_free_in(&p->alloc, ptr); }

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
    ((need) <= (cap) ||                      \
     ((arr) = BYOC__SIM_AS(arr, byoc__sim_grow((P), (arr), &(cap), (need), sizeof *(arr))), (need) <= (cap)))

BYOC__SIM_PRIVATE const char *byoc__sim_strdup(byoc_sim_program *p, const char *s, size_t len) {
    if (!BYOC__SIM_RESERVE(p, p->strings, p->cap_strings, p->nstrings + 1)) return NULL;
    char *c = BYOC__SIM_CAST(char *, byoc__sim_malloc(p, len + 1));
    if (!c) return NULL;
    memcpy(c, s, len);
    c[len] = 0;
    p->strings[p->nstrings++] = c;
    return c;
}

BYOC_SIM_API void byoc_sim_free(byoc_sim_program *p, void *ptr) {
    if (p) byoc__sim_mfree(p, ptr);
}

BYOC_SIM_API void byoc_sim_program_destroy(byoc_sim_program *p) {
    if (!p) return;
    byoc_sim_pool_destroy(p->pool);
    for (int b = 0; b < p->nbuffers; ++b)
        if (p->buffers[b].kind == BYOC_SIM_BUFFER_DYNAMIC) byoc__sim_mfree(p, p->buffers[b].data);
    for (int k = 0; k < p->nkernels; ++k) {
        byoc__sim_mfree(p, p->kernels[k].fconv_wpacked);
        byoc__sim_mfree(p, p->kernels[k].rows);
    }
    for (int i = 0; i < p->nstrings; ++i) byoc__sim_mfree(p, p->strings[i]);
    byoc__sim_mfree(p, p->strings);
    byoc__sim_mfree(p, p->values);
    byoc__sim_mfree(p, p->buffers);
    for (int s = 0; s < p->nsteps; ++s) byoc__sim_mfree(p, p->steps[s].winograd);
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
    byoc__sim_mfree(p, p->order);
    byoc__sim_mfree(p, p->together);
    for (int i = 0; i < p->nbodies; ++i) byoc_sim_program_destroy(p->bodies[i]);
    byoc__sim_mfree(p, p->bodies);
    byoc__sim_mfree(p, p->events);
    if (!p->depth) byoc_module_destroy(p->boxes); /* a body borrows @main's program's */
    byoc_module_destroy(p->shadows);
    byoc_allocator a = p->alloc; /* p's own copy goes with p */
    byoc__sim_free_in(&a, p);
}

BYOC_SIM_API int byoc_sim_input_count(const byoc_sim_program *p) { if (!p) return 0; return p->ninputs; }
BYOC_SIM_API const byoc_sim_io *byoc_sim_input(const byoc_sim_program *p, int i) {
    if (!p) return NULL;
    return i >= 0 && i < p->ninputs ? &p->inputs[i].io : NULL;
}
BYOC_SIM_API int byoc_sim_output_count(const byoc_sim_program *p) { if (!p) return 0; return p->noutputs; }
BYOC_SIM_API const byoc_sim_io *byoc_sim_output(const byoc_sim_program *p, int i) {
    if (!p) return NULL;
    return i >= 0 && i < p->noutputs ? &p->outputs[i].io : NULL;
}
BYOC_SIM_API int byoc_sim_kernel_count(const byoc_sim_program *p) { if (!p) return 0; return p->nkernels; }
BYOC_SIM_API const byoc_sim_kernel_info *byoc_sim_kernel(const byoc_sim_program *p, int i) {
    if (!p) return NULL;
    return i >= 0 && i < p->nkernels ? &p->kernels[i].info : NULL;
}
BYOC_SIM_API byoc_sim_memory_plan byoc_sim_memory(const byoc_sim_program *p) {
    if (!p) {
        byoc_sim_memory_plan none;
        memset(&none, 0, sizeof none);
        return none;
    }
    return p->plan;
}
BYOC_SIM_API int byoc_sim_buffer_count(const byoc_sim_program *p) { if (!p) return 0; return p->nbuffers; }
BYOC_SIM_API byoc_sim_buffer_info byoc_sim_buffer(const byoc_sim_program *p, int i) {
    byoc_sim_buffer_info b;
    memset(&b, 0, sizeof b);
    b.inplace_of = b.slice_of = -1;
    if (!p) return b;
    if (i < 0 || i >= p->nbuffers) return b;
    const byoc__sim_buffer *s = &p->buffers[i];
    b.kind = s->kind;
    b.size = s->size;
    b.offset = s->kind == BYOC_SIM_BUFFER_ARENA || s->kind == BYOC_SIM_BUFFER_OUTPUT ? s->offset : 0;
    b.first = s->first;
    b.last = s->last;
    b.inplace_of = s->inplace_of;
    b.slice_of = s->slice_of;
    b.slice_offset = s->slice_offset;
    return b;
}
BYOC_SIM_API const byoc_sim_access *byoc_sim_accesses(const byoc_sim_program *p, int *count) {
    if (!p) { if (count) *count = 0; return NULL; }
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
    case BYOC_SIM_EXEC_CONTROL: return "control";
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
    int allow_dynamic; /* values of '?' shape may be made: inputs and unfused host op calls */
    int *scalars;      /* the values of the rank-0 constants lowered so far, one per distinct dtype and bytes */
    int nscalars, cap_scalars;
} byoc__sim_lowering;

BYOC__SIM_PRIVATE int byoc__sim_lower_fail(byoc__sim_lowering *L, byoc_result code, const byoc_node *n, const char *fmt,
                                           ...) BYOC__SIM_PRINTF(4, 5);
BYOC__SIM_PRIVATE int byoc__sim_lower_fail(byoc__sim_lowering *L, byoc_result code, const byoc_node *n, const char *fmt,
                                           ...) {
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

/* a sequence or an optional: one leaf, a boxed value (see "sim impl: sequences and optionals") */
BYOC__SIM_PRIVATE int byoc__sim_is_boxed_type(const byoc_type *t) {
    return t && (t->kind == BYOC_TYPE_SEQUENCE || t->kind == BYOC_TYPE_OPTIONAL);
}
/* tensor (or boxed) leaves of a type (a tuple's fields, depth first); -1 for anything but those and tuples of them */
BYOC__SIM_PRIVATE int byoc__sim_leaf_count(const byoc_type *t) {
    if (!t) return -1;
    if (t->kind == BYOC_TYPE_TENSOR || byoc__sim_is_boxed_type(t)) return 1;
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
    if (t->kind == BYOC_TYPE_TENSOR || byoc__sim_is_boxed_type(t)) return k == 0 ? t : NULL;
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
    b->slice_of = -1;
    b->unit = p->nbuffers;
    return p->nbuffers++;
}

BYOC__SIM_PRIVATE int byoc__sim_new_boxed_value(byoc__sim_lowering *L, const byoc_type *t);
/* A tensor value of type t in buffer (-1: not decided yet), or a boxed one; -1 on failure. */
BYOC__SIM_PRIVATE int byoc__sim_new_value(byoc__sim_lowering *L, const byoc_type *t, int buffer,
                                          const byoc_node *where) {
    byoc_sim_program *p = L->p;
    char what[160], ty[160];
    if (byoc__sim_is_boxed_type(t)) return byoc__sim_new_boxed_value(L, t);
    if (!t || t->kind != BYOC_TYPE_TENSOR) {
        byoc__sim_describe(where, what, sizeof what);
        return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, where,
                                    "byoc_sim_lower: %s: a value that is not a tensor or a tuple of tensors", what) -
               1;
    }
    int64_t n = byoc_type_num_elements(t);
    int dynamic = !byoc_type_is_static(t) && L->allow_dynamic;
    if (dynamic) n = 0; /* its bytes are known at run time */
    if (!dynamic && (!byoc_type_is_static(t) || n < 0 || (uint64_t)n > (uint64_t)(SIZE_MAX / 16))) {
        byoc__sim_describe(where, what, sizeof what);
        byoc_type_to_string(t, ty, sizeof ty);
        return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, where,
                                    "byoc_sim_lower: %s has type %s; only inputs and host op calls outside fused "
                                    "groups and partitions may have '?' dims",
                                    what, ty) -
               1;
    }
    if (!BYOC__SIM_RESERVE(p, p->values, p->cap_values, p->nvalues + 1)) return BYOC__SIM_OOM(L) - 1;
    byoc__sim_value *v = &p->values[p->nvalues];
    memset(v, 0, sizeof *v);
    v->buffer = buffer;
    v->producer = -1;
    v->dtype = t->dtype;
    v->rank = t->rank;
    for (int i = 0; i < t->rank; ++i) v->dims[i] = v->rt_dims[i] = t->dims[i];
    v->nbytes = v->rt_nbytes = (size_t)n * byoc_dtype_size(t->dtype);
    v->dynamic = dynamic;
    return p->nvalues++;
}

BYOC__SIM_PRIVATE int byoc__sim_same_shape(const byoc__sim_value *a, const byoc__sim_value *b) {
    if (a->rank != b->rank || a->dtype != b->dtype) return 0;
    for (int i = 0; i < a->rank; ++i)
        if (a->dims[i] != b->dims[i]) return 0;
    return 1;
}

/* ops whose result is their input's bytes under another shape: lowered as views of the input's buffer */
BYOC__SIM_PRIVATE int byoc__sim_is_view_op(const byoc_op *op) { return op->builtin && (op->def.flags & BYOC_OP_VIEW); }
/* annotations that pass their argument through */
BYOC__SIM_PRIVATE int byoc__sim_is_identity_op(const byoc_op *op) {
    return op->builtin && (op->def.flags & BYOC_OP_ANNOTATION);
}

BYOC__SIM_PRIVATE int byoc__sim_check_kernel(byoc__sim_lowering *L, const byoc_node *call) {
    if (byoc_kernel_exists(call->op)) return 1;
    char what[160];
    byoc__sim_describe(call, what, sizeof what);
    return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, call, "byoc_sim_lower: %s has no host kernel", what);
}

/* A step running `call` on the values leaves[in_first, +nin); its results are new values (in new arena buffers
   unless pending, when the fused group decides where they live), appended to the leaves as [*rf, +*rc). */
BYOC__SIM_PRIVATE int byoc__sim_new_step(byoc__sim_lowering *L, const byoc_node *call, int in_first, int nin,
                                         int pending, int *rf, int *rc) {
    byoc_sim_program *p = L->p;
    int nout = byoc__sim_leaf_count(call->checked_type);
    if (nout < 1) {
        char what[160];
        byoc__sim_describe(call, what, sizeof what);
        return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, call,
                                    "byoc_sim_lower: %s: its result is not a tensor or a tuple of tensors", what);
    }
    if (!BYOC__SIM_RESERVE(p, p->steps, p->cap_steps, p->nsteps + 1) ||
        !BYOC__SIM_RESERVE(p, p->operands, p->cap_operands, p->noperands + nin + nout))
        return BYOC__SIM_OOM(L);
    int s = p->nsteps;
    byoc__sim_step st;
    memset(&st, 0, sizeof st);
    st.call = call;
    st.in_first = p->noperands;
    st.nin = nin;
    for (int q = 0; q < nin; ++q) {
        p->operands[p->noperands++] = L->leaves[in_first + q];
        st.dynamic |= p->values[L->leaves[in_first + q]].dynamic;
    }
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
            int b = byoc__sim_new_buffer(L, p->values[v].dynamic ? BYOC_SIM_BUFFER_DYNAMIC : BYOC_SIM_BUFFER_ARENA,
                                         p->values[v].nbytes);
            if (b < 0) return 0;
            p->values[v].buffer = b;
        }
        p->values[v].producer = s;
        p->operands[st.out_first + k] = v;
        st.dynamic |= p->values[v].dynamic;
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
    byoc__buf name, ops;
    const char *prev;
    int count;
} byoc__sim_namer;

BYOC__SIM_PRIVATE void byoc__sim_namer_init(byoc__sim_namer *nm, const byoc_sim_program *p) {
    memset(nm, 0, sizeof *nm);
    nm->name.alloc = nm->ops.alloc = &p->alloc;
}
BYOC__SIM_PRIVATE void byoc__sim_namer_add(byoc__sim_namer *nm, const byoc_node *call) {
    const char *src = byoc_node_span(call)->source, *op = call->op->def.name;
    const char *piece = src && *src ? src : op;
    if (!(src && *src && nm->prev && !strcmp(nm->prev, src))) {
        if (nm->name.len) byoc__buf_put(&nm->name, "+", 1);
        byoc__buf_put(&nm->name, piece, strlen(piece));
    }
    nm->prev = src && *src ? src : NULL;
    if (nm->ops.len) byoc__buf_put(&nm->ops, "+", 1);
    byoc__buf_put(&nm->ops, op, strlen(op));
    nm->count++;
}
BYOC__SIM_PRIVATE int byoc__sim_namer_finish(byoc__sim_lowering *L, byoc__sim_namer *nm, int kernel,
                                             const char *fallback) {
    byoc_sim_program *p = L->p;
    int ok = !nm->name.oom && !nm->ops.oom;
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
BYOC__SIM_PRIVATE int byoc__sim_schedule_op(byoc__sim_lowering *L, const byoc_node *call, int in_first, int nin,
                                            const char *partition, int *rf, int *rc) {
    byoc_sim_program *p = L->p;
    if (byoc__sim_is_identity_op(call->op)) {
        *rf = in_first;
        *rc = nin;
        return 1;
    }
    int dynamic = !byoc_type_is_static(call->checked_type);
    for (int q = 0; q < nin; ++q) dynamic |= p->values[L->leaves[in_first + q]].dynamic;
    if (byoc__sim_is_view_op(call->op) && !p->opt.no_alias && nin == 1 && !dynamic) {
        int in = L->leaves[in_first];
        int v = byoc__sim_new_value(L, call->checked_type, p->values[in].buffer, call);
        if (v < 0) return 0;
        if (p->values[v].nbytes != p->values[in].nbytes)
            return byoc__sim_lower_fail(L, BYOC_ERR_INTERNAL, call, "byoc_sim_lower: a view changes the size");
        p->plan.views++;
        *rf = L->nleaves;
        *rc = 1;
        return byoc__sim_push_leaf(L, v);
    }
    if (!(call->op->def.flags & BYOC_OP_SEQUENCE) && !byoc__sim_check_kernel(L, call)) return 0;
    int k = byoc__sim_new_kernel(L, BYOC_SIM_EXEC_OPS, partition);
    L->allow_dynamic = 1; /* a kernel of its own: its results can be allocated when a run gives their shape */
    int made = k >= 0 && byoc__sim_new_step(L, call, in_first, nin, 0, rf, rc);
    L->allow_dynamic = 0;
    if (!made || !byoc__sim_step_tensors(L, p->nsteps - 1)) return 0;
    p->kernels[k].nsteps = 1;
    byoc__sim_namer nm;
    byoc__sim_namer_init(&nm, p);
    byoc__sim_namer_add(&nm, call);
    return byoc__sim_namer_finish(L, &nm, k, NULL);
}

/* an op call inside a fused group: a step whose results wait for the group's decision */
BYOC__SIM_PRIVATE int byoc__sim_group_op(byoc__sim_lowering *L, const byoc_node *call, int in_first, int nin, int *rf,
                                         int *rc) {
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
    byoc_node **fields = BYOC__SIM_CAST(
        byoc_node **, byoc__sim_malloc(p, sizeof(byoc_node *) * (size_t)(t->nfields > 0 ? t->nfields : 1)));
    if (!fields) return NULL;
    int ok = 1;
    for (int i = 0; i < t->nfields && ok; ++i)
        ok = (fields[i] = byoc__sim_runtime_arg(L, t->fields[i], leaf_first, at)) != NULL;
    byoc_node *tuple = ok ? byoc_tuple(p->m, fields, t->nfields) : NULL;
    byoc__sim_mfree(p, fields);
    return tuple;
}

/* A call of a partition with a runtime module: one kernel that hands its inputs over as constants of the module. The
   constants are made once here; each run refills their data (see byoc__sim_dispatch_runtime). */
BYOC__SIM_PRIVATE int byoc__sim_runtime_kernel(byoc__sim_lowering *L, byoc_node *call, byoc_node *f, const char *gname,
                                               int in_first, int nin, int *rf, int *rc) {
    byoc_sim_program *p = L->p;
    const char *compiler = byoc_attrs_string(&f->attrs, "Compiler", NULL);
    int k = byoc__sim_new_kernel(L, BYOC_SIM_EXEC_RUNTIME, gname);
    if (k < 0) return 0;
    byoc__sim_kernel *kk = &p->kernels[k];
    kk->info.device = compiler && *compiler ? compiler : gname;
    /* a simulated device reads its operands from the plan's buffers: the argument constants other
       runtime modules take (made once, here) are not needed, nor their memory */
    const byoc_sim_device_program *dp = byoc__dv_program_of(byoc_module_runtime(p->m, gname));
    kk->info.device_kind = dp ? byoc__sim_kind_name(byoc_sim_device_of(dp)->kind) : "host";
    kk->function = gname;
    kk->nsteps = 0;
    if (!BYOC__SIM_RESERVE(p, p->operands, p->cap_operands, p->noperands + nin) ||
        !BYOC__SIM_RESERVE(p, p->rt_nodes, p->cap_rt_nodes, p->nrt_nodes + nin + f->nparams))
        return BYOC__SIM_OOM(L);
    kk->in_first = p->noperands;
    kk->nin = nin;
    kk->rt_leaf_first = p->nrt_nodes;
    for (int q = 0; q < nin; ++q) {
        int v = L->leaves[in_first + q];
        p->operands[p->noperands++] = v;
        if (dp) continue;
        const byoc__sim_value *val = &p->values[v];
        byoc_node *c = byoc_constant(p->m, byoc_tensor_type(p->m, val->dtype, val->rank, val->dims), NULL, 0);
        if (!c || byoc_constant_nbytes(c) != val->nbytes) {
            const byoc_diag *e = byoc_module_error(p->m);
            return byoc__sim_lower_fail(L, e ? e->code : BYOC_ERR_OUT_OF_MEMORY, call,
                                        "byoc_sim_lower: arguments for @%s's runtime module: %s", gname,
                                        e ? e->message : "out of memory");
        }
        p->rt_nodes[p->nrt_nodes++] = c;
    }
    kk->rt_first = p->nrt_nodes;
    kk->rt_nargs = dp ? 0 : f->nparams;
    kk->rt_device = dp != NULL;
    int at = 0;
    for (int i = 0; i < f->nparams; ++i) {
        const byoc_type *t = f->params[i]->checked_type;
        int need = byoc__sim_leaf_count(t);
        if (dp) { /* only the count of leaves is checked */
            if (need < 0 || at + need > nin) break;
            at += need;
            continue;
        }
        byoc_node *arg =
            need >= 0 && at + need <= nin ? byoc__sim_runtime_arg(L, t, p->kernels[k].rt_leaf_first, &at) : NULL;
        if (!arg)
            return byoc__sim_lower_fail(
                L, BYOC_ERR_INTERNAL, call,
                "byoc_sim_lower: arguments for @%s's runtime module do not match its parameters", gname);
        p->rt_nodes[p->nrt_nodes++] = arg;
    }
    if (at != nin)
        return byoc__sim_lower_fail(L, BYOC_ERR_INTERNAL, call,
                                    "byoc_sim_lower: arguments for @%s's runtime module do not match its parameters",
                                    gname);
    int nout = byoc__sim_leaf_count(call->checked_type);
    if (nout < 1)
        return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, call, "byoc_sim_lower: @%s does not return tensors",
                                    gname);
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
BYOC__SIM_PRIVATE int byoc__sim_lower_control(byoc__sim_lowering *L, const byoc_node *n, int in_first, int nin,
                                              const char *partition, int depth, int *rf, int *rc);
BYOC__SIM_PRIVATE int byoc__sim_lower_fn(byoc__sim_lowering *L, byoc_node *fn, int args_first, int nargs,
                                         const char *partition, int group, int depth, int *rf, int *rc);

/* a call of a function: a runtime module's partition, an inlined partition, a fused group, or an inlined function */
BYOC__SIM_PRIVATE int byoc__sim_lower_call(byoc__sim_lowering *L, byoc_node *call, int in_first, int nin,
                                           const char *partition, int group, int depth, int *rf, int *rc) {
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
        return byoc__sim_lower_fail(
            L, BYOC_ERR_UNSUPPORTED, call,
            "byoc_sim_lower: a call of a function value is not supported (only of functions and globals)");
    }
    if (group) {
        if (rm)
            return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, call,
                                        "byoc_sim_lower: @%s has a runtime module but is called inside a fused group",
                                        gname);
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
        return byoc__sim_lower_fn(L, f, in_first, nin, partition, 1, depth + 1, rf, rc) &&
               byoc__sim_finish_group(L, step0, *rf, *rc, partition);
    }
    return byoc__sim_lower_fn(L, f, in_first, nin, partition, 0, depth + 1, rf, rc);
}

/* The value of a rank-0 constant with c's dtype and bytes lowered before, or -1. Equal scalars are one value, whether
   or not they are one node: the text format prints a scalar as a literal at each use, so a node shared by several
   uses reads back as one node per use, and the plan of an executable's module must not depend on which it holds. */
BYOC__SIM_PRIVATE int byoc__sim_same_scalar(const byoc__sim_lowering *L, const byoc_node *c, const byoc_type *t) {
    if (!t || t->kind != BYOC_TYPE_TENSOR || t->rank != 0 || !c->data) return -1;
    const byoc_sim_program *p = L->p;
    size_t nbytes = byoc_constant_nbytes(c);
    for (int i = 0; i < L->nscalars; ++i) {
        const byoc__sim_value *v = &p->values[L->scalars[i]];
        const byoc_node *k = v->buffer >= 0 ? p->buffers[v->buffer].constant : NULL;
        if (k && v->dtype == t->dtype && v->nbytes == nbytes && byoc_constant_nbytes(k) == nbytes && k->data &&
            !memcmp(k->data, c->data, nbytes))
            return L->scalars[i];
    }
    return -1;
}

/* Lowers fn's body with its parameters bound to leaves[args_first, +nargs). In the schedule (group 0) each op becomes
   a kernel; inside a fused group (group 1) each op becomes a step of the group. The result is leaves[*rf, +*rc). */
BYOC__SIM_PRIVATE int byoc__sim_lower_fn(byoc__sim_lowering *L, byoc_node *fn, int args_first, int nargs,
                                         const char *partition, int group, int depth, int *rf, int *rc) {
    byoc_sim_program *p = L->p;
    if (depth > BYOC__SIM_MAX_DEPTH)
        return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, fn, "byoc_sim_lower: calls nested too deeply");
    int np = fn->nparams;
    int *poff = BYOC__SIM_CAST(int *, byoc__sim_malloc(p, sizeof(int) * (size_t)(np + 1)));
    if (!poff) return BYOC__SIM_OOM(L);
    poff[0] = 0;
    for (int i = 0; i < np; ++i) {
        int c = byoc__sim_leaf_count(fn->params[i]->checked_type);
        if (c < 0) {
            byoc__sim_mfree(p, poff);
            return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, fn->params[i],
                                        "byoc_sim_lower: parameter %%%s is not a tensor or a tuple of tensors",
                                        fn->params[i]->name ? fn->params[i]->name : "?");
        }
        poff[i + 1] = poff[i] + c;
    }
    if (poff[np] != nargs) {
        byoc__sim_mfree(p, poff);
        return byoc__sim_lower_fail(L, BYOC_ERR_INTERNAL, fn,
                                    "byoc_sim_lower: %d argument values for %d parameter values", nargs, poff[np]);
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
                ok = byoc__sim_lower_fail(L, BYOC_ERR_INVALID_ARGUMENT, n,
                                          "byoc_sim_lower: %%%s is not bound by the function that uses it",
                                          n->name ? n->name : "?");
                break;
            }
            nf[i] = args_first + poff[k];
            nc[i] = poff[k + 1] - poff[k];
            break;
        }
        case BYOC_NODE_CONSTANT: {
            const byoc_type *t = n->checked_type ? n->checked_type : n->annotation;
            int same = byoc__sim_same_scalar(L, n, t);
            if (same >= 0) {
                nc[i] = 1;
                ok = byoc__sim_push_leaf(L, same);
                break;
            }
            int v = byoc__sim_new_value(L, t, -1, n);
            int b = v >= 0 ? byoc__sim_new_buffer(L, BYOC_SIM_BUFFER_CONSTANT, p->values[v].nbytes) : -1;
            ok = b >= 0;
            if (!ok) break;
            if (byoc_constant_nbytes(n) != p->values[v].nbytes) {
                ok = byoc__sim_lower_fail(L, BYOC_ERR_INTERNAL, n,
                                          "byoc_sim_lower: a constant holds %zu bytes, its type needs %zu",
                                          byoc_constant_nbytes(n), p->values[v].nbytes);
                break;
            }
            p->buffers[b].constant = n;
            p->values[v].buffer = b;
            nc[i] = 1;
            ok = byoc__sim_push_leaf(L, v);
            if (ok && t && t->kind == BYOC_TYPE_TENSOR && t->rank == 0) {
                ok = BYOC__SIM_RESERVE(p, L->scalars, L->cap_scalars, L->nscalars + 1) || BYOC__SIM_OOM(L);
                if (ok) L->scalars[L->nscalars++] = v;
            }
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
                ok = byoc__sim_lower_fail(
                    L, BYOC_ERR_TYPE, n,
                    "byoc_sim_lower: a projection .%d of a value that is not a tuple with that field", n->index);
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
            if (n->op)
                ok = group ? byoc__sim_group_op(L, n, start, cnt, &nf[i], &nc[i])
                           : byoc__sim_schedule_op(L, n, start, cnt, partition, &nf[i], &nc[i]);
            else ok = byoc__sim_lower_call(L, n, start, cnt, partition, group, depth, &nf[i], &nc[i]);
            break;
        }
        case BYOC_NODE_FUNCTION:
        case BYOC_NODE_GLOBAL_VAR: break; /* values only as callees, handled at their calls */
        case BYOC_NODE_IF: case BYOC_NODE_LET: case BYOC_NODE_LOOP: {
            if (group) {
                ok = byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, n,
                                          "byoc_sim_lower: an if, let or loop inside a fused group");
                break;
            }
            int start = L->nleaves, cnt = 0;
            for (int a = 0; ok && a < n->nargs; ++a) {
                int gi = byoc_graph_index(&g, n->args[a]);
                for (int j = 0; ok && j < nc[gi]; ++j) ok = byoc__sim_push_leaf(L, L->leaves[nf[gi] + j]);
                cnt += nc[gi];
            }
            /* a let binds its value (and captures) to its body's parameters: the body lowers inline, no kernel */
            if (n->kind == BYOC_NODE_LET)
                ok = ok && byoc__sim_lower_fn(L, n->params[0], start, cnt, partition, 0, depth + 1, &nf[i], &nc[i]);
            else ok = ok && byoc__sim_lower_control(L, n, start, cnt, partition, depth, &nf[i], &nc[i]);
            break;
        }
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
   inputs. expand_dims and broadcast_to are BROADCAST too but change the shape (BYOC_OP_RESHAPES). */
BYOC__SIM_PRIVATE int byoc__sim_tileable_op(const byoc_op *op) {
    return op && op->builtin && op->def.pattern <= BYOC_PATTERN_BROADCAST && !(op->def.flags & BYOC_OP_RESHAPES);
}
/* Tileable ops whose kernel may write its result over an input of the same shape: byoc.h's elementwise kernels
   read element i before they write element i. Not copy, cast and where, whose kernels move bytes with memcpy
   (overlapping copies are undefined: BYOC__KF_NO_INPLACE). */
BYOC__SIM_PRIVATE int byoc__sim_inplace_op(const byoc_op *op) {
    const byoc__kernel_def *k = byoc__kernel_of(op);
    return byoc__sim_tileable_op(op) && k && !(k->flags & BYOC__KF_NO_INPLACE);
}

/* How input q (value v) of a tileable step lines up with the output shape D (rank n): A[j] is its extent along output
   axis j (1 where it broadcasts). numpy broadcasting aligns the right ends; nn.bias_add's and nn.prelu's second input
   is 1-D along `axis` (*axis_form). 0 when v does not line up. */
BYOC__SIM_PRIVATE int byoc__sim_line_up(const byoc_node *call, int q, const byoc__sim_value *v, const int64_t *D, int n,
                                        int64_t *A, int *axis_form) {
    *axis_form = -1;
    if (q == 1 && (call->op->def.flags & BYOC_OP_AXIS_OPERAND)) {
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
        /* a tile step has at most three inputs (byoc__sim_tile_step): qnn.add's eight run as ops */
        if (!byoc__sim_tileable_op(st->call->op) || !byoc_kernel_exists(st->call->op) || st->nout != 1 ||
            st->nin != st->call->nargs || st->nin > 3)
            return BYOC__SIM_GROUP_OPS;
        const byoc__sim_value *o = &p->values[p->operands[st->out_first]];
        if (o->rank != rv->rank) return BYOC__SIM_GROUP_OPS;
        for (int j = 0; j < o->rank; ++j)
            if (o->dims[j] != rv->dims[j]) return BYOC__SIM_GROUP_OPS;
        for (int q = 0; q < st->nin; ++q) {
            int v = p->operands[st->in_first + q];
            int64_t A[BYOC_MAX_RANK];
            int axis_form;
            if (!byoc__sim_line_up(st->call, q, &p->values[v], rv->dims, rv->rank, A, &axis_form))
                return BYOC__SIM_GROUP_OPS;
            /* an intermediate lives in tile form: it cannot stand for a 1-D operand along an axis */
            if (p->values[v].producer >= step0 && v != anchor_value && axis_form >= 0 && rv->rank != 1)
                return BYOC__SIM_GROUP_OPS;
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
    if (!BYOC__SIM_RESERVE(p, p->tile_ops, p->cap_tile_ops, p->ntile_ops + nops) ||
        !BYOC__SIM_RESERVE(p, p->tensors, p->cap_tensors, p->ntensors + 2 * nops))
        return BYOC__SIM_OOM(L);
    byoc__sim_step *st = &p->steps[s];
    st->tiled = 1;
    st->tile_first = p->ntile_ops;
    st->tile_tensor_first = p->ntensors;
    p->ntile_ops += nops;
    p->ntensors += 2 * nops;
    int axis_of[BYOC_MAX_RANK + 1]; /* per input, its axis when 1-D along an axis; a step has at most 3 inputs */
    int64_t aligned[4][BYOC_MAX_RANK];
    if (nin > 3)
        return byoc__sim_lower_fail(L, BYOC_ERR_INTERNAL, call, "byoc_sim_lower: a tiled op with %d inputs", nin);
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
        if (q == nin || v == R ||
            val->producer >= step0) { /* the result, or the anchor's value in the result's buffer */
            for (int j = 0; j < n; ++j) aligned[q][j] = D[j];
        } else if (!byoc__sim_line_up(call, q, val, D, n, aligned[q], &axis_of[q])) {
            return byoc__sim_lower_fail(L, BYOC_ERR_INTERNAL, call,
                                        "byoc_sim_lower: a tiled input does not line up with the output");
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
                for (int j = 0; j < n; ++j)
                    t->dims[j] = j < split ? 1 : j == split ? (aligned[q][split] == 1 ? 1 : e) : aligned[q][j];
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
            return byoc__sim_lower_fail(L, e2 ? e2->code : BYOC_ERR_OUT_OF_MEMORY, call,
                                        "byoc_sim_lower: retyping an op for tiles: %s",
                                        e2 ? e2->message : "out of memory");
        }
        p->steps[s].shadow[var] = shadow;
    }
    return 1;
}

/* A group kernel's operands, then its name: what steps [step0, end) read from outside, one value per buffer (not
   values without one, nor the group's own buffer `own`: the anchor's inputs and the epilogue's), and the result R */
BYOC__SIM_PRIVATE int byoc__sim_group_finish(byoc__sim_lowering *L, int k, int step0, int end, int R, int own) {
    byoc_sim_program *p = L->p;
    int in_first = p->noperands;
    for (int s = step0; s < end; ++s) {
        const byoc__sim_step *st = &p->steps[s];
        for (int q = 0; q < st->nin; ++q) {
            int v = p->operands[st->in_first + q], vb = p->values[v].buffer;
            if (vb < 0 || vb == own) continue;
            int seen = 0;
            for (int i = in_first; i < p->noperands && !seen; ++i) seen = p->values[p->operands[i]].buffer == vb;
            if (seen) continue;
            if (!BYOC__SIM_RESERVE(p, p->operands, p->cap_operands, p->noperands + 1)) return BYOC__SIM_OOM(L);
            p->operands[p->noperands++] = v;
        }
    }
    if (!BYOC__SIM_RESERVE(p, p->operands, p->cap_operands, p->noperands + 1)) return BYOC__SIM_OOM(L);
    byoc__sim_kernel *kk = &p->kernels[k];
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

/* A fused elementwise chain (anchor 0) or anchor + epilogue (anchor 1) as one tiled kernel. */
BYOC__SIM_PRIVATE int byoc__sim_group_tiled(byoc__sim_lowering *L, int step0, int R, int anchor,
                                            const char *partition) {
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
    return byoc__sim_group_finish(L, k, step0, end, R, b);
}

/* A group that is qnn.conv2d [+ nn.bias_add] + qnn.requantize (FuseOps puts a requantize in its convolution's
   group, as TVM does once qnn ops are canonicalized), each step reading the one before: 1 when byoc.h can run
   it as one pass, the int32 result requantized block by block while it is in cache (byoc__q8_conv_fused_run). */
BYOC__SIM_PRIVATE int byoc__sim_qconv_group(const byoc_sim_program *p, int step0, int R) {
    int end = p->nsteps, n = end - step0;
    if (p->opt.no_fused_tiling || (n != 2 && n != 3)) return 0;
    const byoc__sim_step *last = &p->steps[end - 1];
    if (last->nout != 1 || p->operands[last->out_first] != R) return 0;
    for (int s = step0; s < end; ++s) {
        const byoc__sim_step *st = &p->steps[s];
        if (st->dynamic || st->nout != 1 || st->nin != st->call->nargs) return 0;
        for (int q = 0; q < st->nin; ++q) { /* only the chain's values come from inside */
            int v = p->operands[st->in_first + q];
            int inside = p->values[v].producer >= step0;
            int chained = s > step0 && q == 0 && v == p->operands[p->steps[s - 1].out_first];
            if (inside != chained) return 0;
        }
    }
    return byoc__q8_conv_fusable(p->steps[step0].call, n == 3 ? p->steps[step0 + 1].call : NULL, last->call);
}

/* The qnn.conv2d group as one ANCHOR kernel: the convolution's int32 result and the bias add's live only in its
   workspace, block by block; the kernel reads the group's inputs and writes its 8-bit result. */
BYOC__SIM_PRIVATE int byoc__sim_group_qconv(byoc__sim_lowering *L, int step0, int R, const char *partition) {
    byoc_sim_program *p = L->p;
    int end = p->nsteps;
    int k = byoc__sim_new_kernel(L, BYOC_SIM_EXEC_ANCHOR, partition);
    int b = k >= 0 ? byoc__sim_new_buffer(L, BYOC_SIM_BUFFER_ARENA, p->values[R].nbytes) : -1;
    if (b < 0) return 0;
    p->values[R].buffer = b;
    p->kernels[k].step_first = step0;
    p->kernels[k].nsteps = end - step0;
    p->kernels[k].qconv = 1;
    for (int s = step0; s < end; ++s)
        if (!byoc__sim_step_tensors(L, s)) return 0;
    return byoc__sim_group_finish(L, k, step0, end, R, b);
}

typedef struct byoc__sim_fconv_form {
    int bias;            /* the bias's operand index in the second step, -1: none */
    int res_step, res;   /* the step adding a residual and its operand index, -1: none */
    int relu;            /* 1: the group ends in nn.relu */
} byoc__sim_fconv_form;
BYOC__SIM_PRIVATE int byoc__sim_fconv_group(const byoc_sim_program *p, int step0, int R, byoc__sim_fconv_form *f);
BYOC__SIM_PRIVATE int byoc__sim_group_fconv(byoc__sim_lowering *L, int step0, int R, const byoc__sim_fconv_form *f,
                                            const char *partition);
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
    if (rc == 1 && byoc__sim_qconv_group(p, step0, L->leaves[rf]))
        return byoc__sim_group_qconv(L, step0, L->leaves[rf], partition);
    byoc__sim_fconv_form form;
    if (rc == 1 && byoc__sim_fconv_group(p, step0, L->leaves[rf], &form))
        return byoc__sim_group_fconv(L, step0, L->leaves[rf], &form, partition);
    int mode = rc == 1 ? byoc__sim_group_mode(p, step0, L->leaves[rf]) : BYOC__SIM_GROUP_OPS;
    if (mode == BYOC__SIM_GROUP_OPS) return byoc__sim_group_ops(L, step0, partition);
    return byoc__sim_group_tiled(L, step0, L->leaves[rf], mode == BYOC__SIM_GROUP_ANCHOR, partition);
}

// [SECTION] sim impl: fused convolutions (float nn.conv2d + bias + ReLU in one pass)
/* A FuseOps group nn.conv2d [+ nn.bias_add | add of a per-channel constant] [+ nn.relu] over float32 runs as one
   ANCHOR kernel whose convolution applies the bias and ReLU to each block of its output while the block is in
   cache (byoc.h's byoc__conv2d_fused_run), instead of the anchor writing the whole output and the epilogue's
   tiles reading it back and writing it again. The float operations and their order are the ops' own, so the
   result is the same bytes as the tiled epilogue's; opt.no_fused_tiling turns it off with the other fusions. */

BYOC__SIM_PRIVATE char *byoc__sim_data(const byoc_sim_program *p, int value);

/* step s reads value `from` (the step before it) as exactly one of its operands, the others from outside the
   group (step0 on): that operand's index, else -1 */
BYOC__SIM_PRIVATE int byoc__sim_chained_operand(const byoc_sim_program *p, int s, int step0, int from) {
    const byoc__sim_step *st = &p->steps[s];
    int at = -1;
    if (st->dynamic || st->nout != 1 || st->nin != st->call->nargs) return -1;
    for (int q = 0; q < st->nin; ++q) {
        int v = p->operands[st->in_first + q];
        if (v == from && at < 0) at = q;
        else if (v == from || p->values[v].producer >= step0) return -1;
    }
    return at;
}

/* 1 when the group of steps [step0, p->nsteps) with result R is a fusable float convolution, in this order: the
   convolution, a per-channel bias, an add of a tensor of R's shape from outside (a residual), nn.relu; each but
   the convolution optional. *f: which are there. */
BYOC__SIM_PRIVATE int byoc__sim_fconv_group(const byoc_sim_program *p, int step0, int R, byoc__sim_fconv_form *f) {
    int end = p->nsteps, n = end - step0;
    f->bias = f->res_step = f->res = -1;
    f->relu = 0;
    if (p->opt.no_fused_tiling || n < 2 || n > 4) return 0;
    const byoc__sim_step *conv = &p->steps[step0], *last = &p->steps[end - 1];
    if (last->nout != 1 || p->operands[last->out_first] != R) return 0;
    if (conv->call->op != byoc_op_get("nn.conv2d") || conv->dynamic || conv->nin != 2 || conv->nout != 1 ||
        conv->call->nargs != 2)
        return 0;
    for (int q = 0; q < 3; ++q) {
        const byoc__sim_value *v = &p->values[p->operands[q < 2 ? conv->in_first + q : conv->out_first]];
        if (v->dtype != BYOC_FLOAT32 || (q < 2 && v->producer >= step0)) return 0;
    }
    /* the convolution writes the result's buffer: no later step may broadcast to another shape */
    if (!byoc__sim_same_shape(&p->values[p->operands[conv->out_first]], &p->values[R])) return 0;
    const byoc_op *relu_op = byoc_op_get("nn.relu"), *add_op = byoc_op_get("add");
    const byoc__sim_value *rv = &p->values[R];
    for (int s = step0 + 1; s < end; ++s) {
        int from = p->operands[p->steps[s - 1].out_first], q = byoc__sim_chained_operand(p, s, step0, from);
        const byoc_node *call = p->steps[s].call;
        if (q < 0 || p->values[p->operands[p->steps[s].out_first]].dtype != BYOC_FLOAT32) return 0;
        const byoc__sim_value *other = call->nargs == 2 ? &p->values[p->operands[p->steps[s].in_first + 1 - q]] : NULL;
        if (call->op == relu_op && s == end - 1) {
            f->relu = 1;
        } else if (s == step0 + 1 && byoc__conv_bias_fusable(call, q) && other->buffer >= 0) {
            f->bias = 1 - q;
        } else if (f->res_step < 0 && call->op == add_op && other && other->dtype == BYOC_FLOAT32 &&
                   byoc__sim_same_shape(other, rv) && other->buffer >= 0) {
            f->res_step = s;
            f->res = 1 - q;
        } else {
            return 0;
        }
    }
    return 1;
}

/* The group as one ANCHOR kernel: the convolution writes the result's buffer; the intermediate values get none */
BYOC__SIM_PRIVATE int byoc__sim_group_fconv(byoc__sim_lowering *L, int step0, int R, const byoc__sim_fconv_form *f,
                                            const char *partition) {
    byoc_sim_program *p = L->p;
    int end = p->nsteps;
    int k = byoc__sim_new_kernel(L, BYOC_SIM_EXEC_ANCHOR, partition);
    int b = k >= 0 ? byoc__sim_new_buffer(L, BYOC_SIM_BUFFER_ARENA, p->values[R].nbytes) : -1;
    if (b < 0) return 0;
    p->values[R].buffer = b;
    byoc__sim_kernel *kk = &p->kernels[k];
    kk->step_first = step0;
    kk->nsteps = end - step0;
    kk->fconv = 1;
    kk->fconv_bias = f->bias;
    kk->fconv_relu = f->relu;
    kk->fconv_res_step = f->res_step;
    kk->fconv_res = f->res;
    for (int s = step0; s < end; ++s)
        if (!byoc__sim_step_tensors(L, s)) return 0;
    /* a constant weight is packed now, once, not by every run (the program owns the copy: a constant changed
       after lowering is not seen, as with ONNX Runtime's prepacked initializers) */
    const byoc__sim_step *conv = &p->steps[step0];
    int wb = p->values[p->operands[conv->in_first + 1]].buffer;
    const byoc_node *wc = wb >= 0 && p->buffers[wb].kind == BYOC_SIM_BUFFER_CONSTANT ? p->buffers[wb].constant : NULL;
    const byoc_tensor *t = &p->tensors[conv->tensor_first];
    size_t nw = wc && wc->data ? byoc__conv2d_packed_weights_floats(conv->call, t, t + 2) : 0;
    if (nw) {
        float *packed = BYOC__SIM_CAST(float *, byoc__sim_malloc(p, nw * sizeof(float)));
        if (!packed) return BYOC__SIM_OOM(L);
        byoc__conv2d_pack_weights(conv->call, t, t + 2, (const float *)wc->data, packed);
        p->kernels[k].fconv_wpacked = packed;
    }
    return byoc__sim_group_finish(L, k, step0, end, R, b);
}

/* Runs a byoc__sim_group_fconv kernel over the program's threads */
BYOC__SIM_PRIVATE byoc_result byoc__sim_run_fconv(byoc_sim_program *p, const byoc__sim_kernel *k,
                                                  const byoc__sim_lane *lane, byoc_diag *d) {
    const byoc__sim_step *conv = &p->steps[k->step_first], *last = &p->steps[k->step_first + k->nsteps - 1];
    byoc_tensor *ct = &p->tensors[conv->tensor_first];
    for (int q = 0; q < 2; ++q) ct[q].data = byoc__sim_data(p, p->operands[conv->in_first + q]);
    ct[2].data = byoc__sim_data(p, p->operands[last->out_first]); /* the result's shape is the convolution's */
    if (conv->winograd) /* byoc__sim_winograd_filters took it: the output transform applies the bias [+ ReLU] */
        return byoc__conv2d_winograd_run(conv->call, ct, &ct[2], conv->winograd, conv->winograd_bias,
                                         conv->winograd_act, lane->ws, lane->par, p->task_ws_bytes, d);
    const float *bias = NULL;
    if (k->fconv_bias >= 0)
        bias = (const float *)(const void *)byoc__sim_data(p, p->operands[conv[1].in_first + k->fconv_bias]);
    const float *res = NULL;
    if (k->fconv_res_step >= 0)
        res = (const float *)(const void *)byoc__sim_data(p, p->operands[p->steps[k->fconv_res_step].in_first +
                                                                           k->fconv_res]);
    return byoc__conv2d_fused_run(conv->call, ct, &ct[2], bias, res, k->fconv_relu, k->fconv_wpacked, lane->ws,
                                  lane->par, p->task_ws_bytes, d);
}

// [SECTION] sim impl: kernels side by side (independent kernels grouped at lowering)
/* A detector's heads and an RFB or Inception block's branches are chains of kernels of 5-150 us that do not read
   each other's results. Split over two threads such a kernel ran 1.1-1.6x faster than on one on an AVX-512 machine
   (a job's wake-up and claims, and reading what the other core just wrote, cost a few us). ONNX Runtime can run
   independent nodes side by side (its parallel execution mode, off by default); TVM's graph executor runs one
   node at a time. With byoc_sim_options.side_by_side the schedule is made at lowering, the same for every thread
   count: walking the kernels in their order, the first kernel not yet scheduled starts a group when it is a host
   kernel that computes (TILED or ANCHOR, in @main), and independent ones among the next BYOC__SIM_GROUP_WINDOW
   kernels join it (kernels whose every input is ready: those they skip run after the group) while the group's
   estimated time on two threads - the longer of two lanes when each member goes to the lane free first, longest
   first - stays under that of splitting each member over the two threads on its own (half its time plus
   BYOC__SIM_SPLIT_S). A group's members share one time slot of the memory plan, so every buffer one of them reads
   or writes lives through the whole group and no two members' storage overlaps; none of them writes over an
   input (in place). At run time each thread takes the next member not yet taken and runs it alone, with a
   workspace and tile scratch of its own; with one thread the members run one after another. Each member computes
   what it computed alone, so the bytes are the same at every thread count. It is off by default: on a 2-core Zen 3
   machine ultraface's 8 groups ran slower than its kernels split (4.6-4.9 against 4.4-4.8 ms at two threads), each
   member taking longer beside another than alone, while there the split kernels reached 1.45-2x. */
#define BYOC__SIM_GROUP_WINDOW 16 /* kernels after a group's first that may join it */
#define BYOC__SIM_GROUP_MAX 8     /* members of a group at most */
#define BYOC__SIM_SPLIT_S 3e-6    /* what splitting a kernel over two threads adds to half its time */
#define BYOC__SIM_GROUP_S 1.5e-6  /* what running a group over two threads adds to its longer lane */

/* calls f(p, buffer, write, ctx) for every buffer kernel k reads or writes */
BYOC__SIM_PRIVATE void byoc__sim_kernel_buffers(const byoc_sim_program *p, const byoc__sim_kernel *k,
                                                void (*f)(const byoc_sim_program *, int, int, void *), void *ctx) {
    if (k->info.exec == BYOC_SIM_EXEC_OPS) {
        for (int s = k->step_first; s < k->step_first + k->nsteps; ++s) {
            const byoc__sim_step *st = &p->steps[s];
            for (int q = 0; q < st->nin + st->nout; ++q) {
                int b = p->values[p->operands[(q < st->nin ? st->in_first : st->out_first - st->nin) + q]].buffer;
                if (b >= 0) f(p, b, q >= st->nin, ctx);
            }
        }
        return;
    }
    for (int q = 0; q < k->nin + k->nout; ++q) {
        int b = p->values[p->operands[(q < k->nin ? k->in_first : k->out_first - k->nin) + q]].buffer;
        if (b >= 0) f(p, b, q >= k->nin, ctx);
    }
}

/* the kernels a kernel must run after: the earlier kernels that write a buffer it reads or writes, or read one it
   writes (a flat list, deps[first[k] .. first[k + 1]) for kernel k) */
typedef struct byoc__sim_deps {
    int *deps, *first;
    int n, cap, oom;
    int *last_writer, *last_reader; /* per buffer: the latest kernel that wrote it, and that read it since */
    int kernel;
} byoc__sim_deps;
BYOC__SIM_PRIVATE void byoc__sim_dep_add(byoc__sim_deps *g, const byoc_sim_program *p, int k) {
    if (k < 0 || k == g->kernel) return;
    for (int i = g->first[g->kernel]; i < g->n; ++i)
        if (g->deps[i] == k) return;
    if (g->n == g->cap) {
        int cap = g->cap ? 2 * g->cap : 64;
        int *grown = BYOC__SIM_CAST(int *, byoc__sim_malloc(p, sizeof(int) * (size_t)cap));
        if (!grown) {
            g->oom = 1;
            return;
        }
        if (g->n) memcpy(grown, g->deps, sizeof(int) * (size_t)g->n);
        byoc__sim_mfree(p, g->deps);
        g->deps = grown;
        g->cap = cap;
    }
    g->deps[g->n++] = k;
}
static void byoc__sim_dep_access(const byoc_sim_program *p, int b, int write, void *ctx) {
    byoc__sim_deps *g = BYOC__SIM_CAST(byoc__sim_deps *, ctx);
    byoc__sim_dep_add(g, p, g->last_writer[b]);
    if (write) byoc__sim_dep_add(g, p, g->last_reader[b]);
}
static void byoc__sim_dep_record(const byoc_sim_program *p, int b, int write, void *ctx) {
    byoc__sim_deps *g = BYOC__SIM_CAST(byoc__sim_deps *, ctx);
    (void)p;
    if (write) g->last_writer[b] = g->kernel, g->last_reader[b] = -1;
    else g->last_reader[b] = g->kernel;
}

/* a kernel's time on one thread, estimated from its arithmetic and its traffic: convolutions reach about 60 GFLOP/s
   on one core of a desktop or server x86 and memory about 20 GB/s, plus a microsecond to start */
BYOC__SIM_PRIVATE double byoc__sim_estimate(const byoc_sim_program *p, const byoc__sim_kernel *k) {
    double flops = 0, bytes = 0;
    for (int s = k->step_first; s < k->step_first + k->nsteps; ++s) flops += byoc_op_flops(p->steps[s].call);
    for (int q = 0; q < k->nin + k->nout; ++q)
        bytes += (double)p->values[p->operands[(q < k->nin ? k->in_first : k->out_first - k->nin) + q]].nbytes;
    double compute = flops / 60e9, memory = bytes / 20e9;
    return (compute > memory ? compute : memory) + 1e-6;
}

/* the longer lane of two when the members (longest first) each go to the lane free first */
BYOC__SIM_PRIVATE double byoc__sim_two_lanes(const double *est, int n) {
    double lane[2] = {0, 0};
    for (int i = 0; i < n; ++i) lane[lane[1] < lane[0]] += est[i];
    return lane[0] > lane[1] ? lane[0] : lane[1];
}

BYOC__SIM_PRIVATE int byoc__sim_groupable(const byoc_sim_program *p, const byoc__sim_kernel *k) {
    if (k->info.exec != BYOC_SIM_EXEC_TILED && k->info.exec != BYOC_SIM_EXEC_ANCHOR) return 0;
    for (int s = k->step_first; s < k->step_first + k->nsteps; ++s)
        if (p->steps[s].dynamic) return 0;
    return 1;
}

/* p->order and p->together (see above); 0 when memory runs out */
BYOC__SIM_PRIVATE int byoc__sim_side_by_side(byoc__sim_lowering *L) {
    byoc_sim_program *p = L->p;
    int nk = p->nkernels, nb = p->nbuffers;
    p->order = BYOC__SIM_CAST(int *, byoc__sim_malloc(p, sizeof(int) * (size_t)(nk ? nk : 1)));
    p->together = BYOC__SIM_CAST(int *, byoc__sim_malloc(p, sizeof(int) * (size_t)(nk ? nk : 1)));
    if (!p->order || !p->together) return BYOC__SIM_OOM(L);
    if (p->depth || !p->opt.side_by_side) { /* every kernel alone, in the order lowering made them */
        for (int k = 0; k < nk; ++k) p->order[k] = k, p->together[k] = 1;
        return 1;
    }
    byoc__sim_deps g;
    memset(&g, 0, sizeof g);
    g.first = BYOC__SIM_CAST(int *, byoc__sim_malloc(p, sizeof(int) * (size_t)(nk + 1)));
    g.last_writer = BYOC__SIM_CAST(int *, byoc__sim_malloc(p, sizeof(int) * (size_t)(nb ? nb : 1)));
    g.last_reader = BYOC__SIM_CAST(int *, byoc__sim_malloc(p, sizeof(int) * (size_t)(nb ? nb : 1)));
    unsigned char *done = BYOC__SIM_CAST(unsigned char *, byoc__sim_malloc(p, (size_t)(nk ? nk : 1)));
    int ok = g.first && g.last_writer && g.last_reader && done;
    for (int b = 0; ok && b < nb; ++b) g.last_writer[b] = g.last_reader[b] = -1;
    for (int k = 0; ok && k < nk; ++k) {
        g.kernel = k;
        g.first[k] = g.n;
        byoc__sim_kernel_buffers(p, &p->kernels[k], byoc__sim_dep_access, &g);
        byoc__sim_kernel_buffers(p, &p->kernels[k], byoc__sim_dep_record, &g);
        ok = !g.oom;
        done[k] = 0;
        p->kernels[k].side_by_side = 0;
    }
    if (ok) g.first[nk] = g.n;
    int at = 0, next = 0; /* next: the first kernel not yet scheduled */
    while (ok && next < nk) {
        int members[BYOC__SIM_GROUP_MAX], n = 1;
        double est[BYOC__SIM_GROUP_MAX];
        members[0] = next;
        est[0] = byoc__sim_estimate(p, &p->kernels[next]);
        done[next] = 1; /* a member: kernels depending on it cannot join */
        double cost = est[0] / 2 + BYOC__SIM_SPLIT_S;
        for (int j = next + 1; byoc__sim_groupable(p, &p->kernels[next]) && j < nk &&
                               j <= next + BYOC__SIM_GROUP_WINDOW && n < BYOC__SIM_GROUP_MAX;
             ++j) {
            if (done[j] || !byoc__sim_groupable(p, &p->kernels[j])) continue;
            int ready = 1; /* every kernel it depends on scheduled before this group */
            for (int i = g.first[j]; i < g.first[j + 1] && ready; ++i) {
                ready = done[g.deps[i]];
                for (int m = 0; m < n && ready; ++m) ready = g.deps[i] != members[m];
            }
            if (!ready) continue;
            /* members sorted longest first */
            double e = byoc__sim_estimate(p, &p->kernels[j]), trial[BYOC__SIM_GROUP_MAX];
            int place = n;
            while (place > 0 && est[place - 1] < e) place--;
            for (int m = 0, t = 0; m <= n; ++m) trial[m] = m == place ? e : est[t++];
            double with = byoc__sim_two_lanes(trial, n + 1) + BYOC__SIM_GROUP_S;
            if (with > cost + e / 2 + BYOC__SIM_SPLIT_S) continue;
            for (int m = n; m > place; --m) members[m] = members[m - 1], est[m] = est[m - 1];
            members[place] = j;
            est[place] = e;
            n++;
            done[j] = 1;
            cost = with;
        }
        for (int m = 0; m < n; ++m) {
            p->order[at + m] = members[m];
            p->together[at + m] = m == 0 ? n : 0;
            p->kernels[members[m]].side_by_side = n > 1;
        }
        p->groups += n > 1;
        at += n;
        while (next < nk && done[next]) next++;
    }
    byoc__sim_mfree(p, g.deps);
    byoc__sim_mfree(p, g.first);
    byoc__sim_mfree(p, g.last_writer);
    byoc__sim_mfree(p, g.last_reader);
    byoc__sim_mfree(p, done);
    return ok ? 1 : BYOC__SIM_OOM(L);
}

// [SECTION] sim impl: concatenations written in place
/* A concatenation along an axis with only 1s before it (NCHW channels at batch 1, a [1, N, 4] box list) is its
   inputs' bytes one after another: input q is one contiguous run at the sum of the bytes of inputs 0..q-1. The
   copy then costs nothing when each producer writes its result there in the first place: nGraph's memory pass
   gives a concat's arguments its buffer and an offset in it (buffer_id, buffer_offset), Futhark's memory block
   merging makes `concat a b` use the memory its arguments were computed in, OpenVINO's VPU compiler eliminates
   concats with static offsets. Here the input's buffer becomes a slice of the result's buffer (slice_of,
   slice_offset): the planner places both as one unit (the result's storage is reserved from the first slice's
   write on), every value in the slice's buffer (the input and its views) reads and writes there, and the
   concatenation copies only the inputs that could not be slices. A slice of a result that is itself a slice of a
   later concatenation sits at the sum of the offsets (byoc__sim_slice_base); a result that is an output has its
   slices in the output storage. An input becomes a slice only when it is safe to: its buffer is an intermediate
   of the arena (not an input, a constant, an output or a run-time allocation), every write to it is a host
   kernel's (they write through byoc__sim_data; a partition's results are left where its runtime module or its
   device's DMA puts them, and copied), it is written before the concatenation and nothing reads it after (its
   storage is the result's from then on), it is not a slice already (the same tensor twice in one concatenation,
   or in two, is a slice once: the other occurrences are copied), and nothing is written in place over it nor it
   over anything (in place runs after and leaves slices alone). */
#define BYOC__SIM_WRITTEN_IN_PLACE "written in place"
#define BYOC__SIM_PARTLY_IN_PLACE "partly written in place"

/* where buffer b's bytes start within its unit's storage: the offsets of the slices it is nested in */
BYOC__SIM_PRIVATE size_t byoc__sim_slice_base(const byoc_sim_program *p, int b) {
    size_t at = 0;
    for (; p->buffers[b].slice_of >= 0; b = p->buffers[b].slice_of) at += p->buffers[b].slice_offset;
    return at;
}

/* the buffer that buffer b is a slice of, through slices of slices; b itself when it is none */
BYOC__SIM_PRIVATE int byoc__sim_slice_root(const byoc_sim_program *p, int b) {
    while (p->buffers[b].slice_of >= 0) b = p->buffers[b].slice_of;
    return b;
}
/* Slices of an output live in the output storage: they become OUTPUT buffers (before the arena is planned), and
   get their place there once the outputs have theirs (byoc__sim_place_output_slices). */
BYOC__SIM_PRIVATE void byoc__sim_slices_of_outputs(byoc_sim_program *p) {
    for (int b = 0; b < p->nbuffers; ++b)
        if (p->buffers[b].slice_of >= 0 && p->buffers[byoc__sim_slice_root(p, b)].kind == BYOC_SIM_BUFFER_OUTPUT)
            p->buffers[b].kind = BYOC_SIM_BUFFER_OUTPUT;
}
BYOC__SIM_PRIVATE void byoc__sim_place_output_slices(byoc_sim_program *p) {
    for (int b = 0; b < p->nbuffers; ++b)
        if (p->buffers[b].slice_of >= 0 && p->buffers[b].kind == BYOC_SIM_BUFFER_OUTPUT)
            p->buffers[b].offset = p->buffers[byoc__sim_slice_root(p, b)].offset + byoc__sim_slice_base(p, b);
}

/* The axis of kernel k when it begins with a concatenation of static values whose inputs are contiguous runs of its
   result (every dimension before the axis is 1) and whose result is an arena intermediate or an output; -1
   otherwise. The concatenation may lead a group: shufflenet's concatenate + nn.relu copied both inputs, then
   ran the ReLU over the copy (4 passes over the channels, 29 us of 1 thread on 136 x 28 x 28); with slices only the
   ReLU's 2 passes are left, and they split over threads ("small kernels over threads" in byoc.h). */
BYOC__SIM_PRIVATE int byoc__sim_contiguous_concat(const byoc_sim_program *p, const byoc__sim_kernel *k) {
    if (k->info.exec != BYOC_SIM_EXEC_OPS || k->nsteps < 1) return -1;
    const byoc__sim_step *st = &p->steps[k->step_first];
    const byoc_op *op = st->call->op;
    if (!op->builtin || strcmp(op->def.name, "concatenate") || st->nout != 1 || st->nin < 1 || st->dynamic) return -1;
    const byoc__sim_value *o = &p->values[p->operands[st->out_first]];
    byoc_sim_buffer_kind kind = o->buffer >= 0 ? p->buffers[o->buffer].kind : BYOC_SIM_BUFFER_DYNAMIC;
    if ((kind != BYOC_SIM_BUFFER_ARENA && kind != BYOC_SIM_BUFFER_OUTPUT) || o->boxed || o->rank < 1) return -1;
    int64_t axis = byoc_attrs_int(&st->call->attrs, "axis", 0);
    if (axis < 0) axis += o->rank;
    if (axis < 0 || axis >= o->rank) return -1;
    for (int i = 0; i < axis; ++i)
        if (o->dims[i] != 1) return -1;
    size_t total = 0;
    for (int q = 0; q < st->nin; ++q) total += p->values[p->operands[st->in_first + q]].nbytes;
    return total == o->nbytes ? (int)axis : -1;
}

/* Can value v (an input of the concatenation at `slot` whose result is in buffer out) become a slice of out?
   host_written[b]: every write to buffer b is a host kernel's. */
BYOC__SIM_PRIVATE int byoc__sim_can_slice(const byoc_sim_program *p, int v, int out, int slot,
                                          const unsigned char *host_written) {
    const byoc__sim_value *val = &p->values[v];
    if (val->dynamic || val->boxed || !val->nbytes || val->buffer < 0 || val->buffer == out) return 0;
    const byoc__sim_buffer *b = &p->buffers[val->buffer];
    if (b->kind != BYOC_SIM_BUFFER_ARENA || b->size != val->nbytes || b->slice_of >= 0 || b->inplace_of >= 0) return 0;
    return host_written[val->buffer] && b->first < slot && b->last == slot;
}

BYOC__SIM_PRIVATE uint64_t byoc__sim_distinct_bytes(const byoc_sim_program *p, const int *vals,
                                                    int n); /* "sim impl: memory plan" */
/* kernel kk's traffic once its concatenation (its first step) copies only `copied` bytes */
BYOC__SIM_PRIVATE void byoc__sim_concat_traffic(byoc_sim_program *p, byoc__sim_kernel *kk, uint64_t copied) {
    if (kk->nsteps == 1) {
        kk->info.bytes_read = kk->info.bytes_written = copied;
        return;
    }
    const byoc__sim_step *st = &p->steps[kk->step_first]; /* the concatenation's share, as byoc__sim_schedule counted */
    uint64_t read = byoc__sim_distinct_bytes(p, &p->operands[st->in_first], st->nin),
             written = byoc__sim_distinct_bytes(p, &p->operands[st->out_first], st->nout);
    kk->info.bytes_read = kk->info.bytes_read - read + copied;
    kk->info.bytes_written = kk->info.bytes_written - written + copied;
}

/* Makes the inputs of each contiguous concatenation that can be slices of its result slices (see above), in schedule
   order (so a result that is itself an input of a later concatenation is placed inside that one's result), and
   takes their bytes out of the concatenation's traffic. */
BYOC__SIM_PRIVATE int byoc__sim_concat_in_place(byoc__sim_lowering *L) {
    byoc_sim_program *p = L->p;
    int slots = p->plan.slots, nb = p->nbuffers;
    int *kernel_of = BYOC__SIM_CAST(int *, byoc__sim_malloc(p, sizeof(int) * (size_t)(slots ? slots : 1)));
    unsigned char *host_written = BYOC__SIM_CAST(unsigned char *, byoc__sim_malloc(p, (size_t)(nb ? nb : 1)));
    if (!kernel_of || !host_written) {
        byoc__sim_mfree(p, kernel_of);
        byoc__sim_mfree(p, host_written);
        return BYOC__SIM_OOM(L);
    }
    for (int k = 0; k < p->nkernels; ++k)
        for (int s = p->kernels[k].info.slot_first; s <= p->kernels[k].info.slot_last; ++s) kernel_of[s] = k;
    memset(host_written, 1, (size_t)(nb ? nb : 1));
    for (int i = 0; i < p->naccesses; ++i) {
        const byoc_sim_access *a = &p->accesses[i];
        byoc_sim_exec e = p->kernels[kernel_of[a->slot]].info.exec;
        if (a->write && e != BYOC_SIM_EXEC_OPS && e != BYOC_SIM_EXEC_TILED && e != BYOC_SIM_EXEC_ANCHOR)
            host_written[a->buffer] = 0;
    }
    for (int k = 0; k < p->nkernels; ++k) {
        byoc__sim_kernel *kk = &p->kernels[k];
        if (byoc__sim_contiguous_concat(p, kk) < 0) continue;
        const byoc__sim_step *st = &p->steps[kk->step_first];
        int out = p->values[p->operands[st->out_first]].buffer, slot = kk->info.slot_first;
        size_t at = 0;
        uint64_t copied = 0;
        for (int q = 0; q < st->nin; ++q) {
            int v = p->operands[st->in_first + q];
            if (byoc__sim_can_slice(p, v, out, slot, host_written)) {
                byoc__sim_buffer *b = &p->buffers[p->values[v].buffer];
                b->slice_of = out;
                b->slice_offset = at;
                b->unit = out; /* planned with the result: byoc__sim_plan's units */
                kk->concat_slices++;
            } else {
                copied += p->values[v].nbytes;
            }
            at += p->values[v].nbytes;
        }
        if (!kk->concat_slices) continue;
        p->plan.slices += kk->concat_slices;
        int all = kk->concat_slices == st->nin;
        p->plan.concats_in_place += all;
        kk->info.algorithm = all ? BYOC__SIM_WRITTEN_IN_PLACE : BYOC__SIM_PARTLY_IN_PLACE;
        byoc__sim_concat_traffic(p, kk, copied);
    }
    byoc__sim_mfree(p, kernel_of);
    byoc__sim_mfree(p, host_written);
    return 1;
}

/* A concatenation with slices: copies the inputs that are not slices of its result into their places (a copy of
   bytes, as byoc.h's kernel makes of a contiguous run: the same result). The same buffer twice is a slice at the
   first place only, so a slice is recognised by its offset too. */
BYOC__SIM_PRIVATE byoc_result byoc__sim_run_concat_slices(byoc_sim_program *p, const byoc__sim_kernel *k) {
    const byoc__sim_step *st = &p->steps[k->step_first];
    int o = p->operands[st->out_first];
    char *dst = byoc__sim_data(p, o);
    size_t at = 0;
    for (int q = 0; q < st->nin; ++q) {
        int v = p->operands[st->in_first + q];
        const byoc__sim_buffer *b = &p->buffers[p->values[v].buffer];
        if (!(b->slice_of == p->values[o].buffer && b->slice_offset == at))
            memcpy(dst + at, byoc__sim_data(p, v), p->values[v].nbytes);
        at += p->values[v].nbytes;
    }
    return BYOC_OK;
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
    int slot = 0, left = 0; /* left: members of the current group not scheduled yet, this one included */
    for (int i = 0; i < p->nkernels; ++i) {
        int k = p->order[i];
        if (p->together[i] > 1) left = p->together[i];
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
            if (kk->info.exec == BYOC_SIM_EXEC_ANCHOR &&
                !kk->qconv) { /* the epilogue reads the anchor's result back and writes it again */
                kk->info.bytes_read += kk->info.bytes_written;
                kk->info.bytes_written *= 2;
            }
            if (left > 1) { /* a group's members share its slot */
                left--;
                kk->info.slot_last = slot;
                continue;
            }
            left = 0;
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
BYOC__SIM_PRIVATE int byoc__sim_can_overwrite(byoc_sim_program *p, int O, int I, int slot, const int *reads,
                                              int nreads) {
    const byoc__sim_value *o = &p->values[O], *in = &p->values[I];
    if (o->buffer < 0 || in->buffer < 0 || o->buffer == in->buffer) return 0;
    const byoc__sim_buffer *ob = &p->buffers[o->buffer], *ib = &p->buffers[in->buffer];
    if (ob->kind != BYOC_SIM_BUFFER_ARENA || ib->kind != BYOC_SIM_BUFFER_ARENA || ob->inplace_of >= 0) return 0;
    if (ob->slice_of >= 0 || ib->slice_of >= 0) return 0; /* a slice's storage is where its concatenation puts it */
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
        } else if (kk->info.exec == BYOC_SIM_EXEC_TILED && !kk->side_by_side) { /* a member's input: others read */
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
                    if (p->values[p->operands[last->in_first + r]].buffer == p->values[I].buffer)
                        kk->final_via_scratch = 1;
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
    const byoc__sim_unit_info *x = BYOC__SIM_CAST(const byoc__sim_unit_info *, a),
                              *y = BYOC__SIM_CAST(const byoc__sim_unit_info *, b);
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    if (x->last - x->first != y->last - y->first) return x->last - x->first > y->last - y->first ? -1 : 1;
    return x->id - y->id;
}
BYOC__SIM_PRIVATE int byoc__sim_by_start(const void *a, const void *b) {
    const byoc__sim_unit_info *x = BYOC__SIM_CAST(const byoc__sim_unit_info *, a),
                              *y = BYOC__SIM_CAST(const byoc__sim_unit_info *, b);
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
    byoc__sim_unit_info *u =
        BYOC__SIM_CAST(byoc__sim_unit_info *, byoc__sim_malloc(p, sizeof(byoc__sim_unit_info) * (size_t)(nb ? nb : 1)));
    byoc__sim_unit_info *alt =
        BYOC__SIM_CAST(byoc__sim_unit_info *, byoc__sim_malloc(p, sizeof(byoc__sim_unit_info) * (size_t)(nb ? nb : 1)));
    byoc__sim_span *spans =
        BYOC__SIM_CAST(byoc__sim_span *, byoc__sim_malloc(p, sizeof(byoc__sim_span) * (size_t)(nb ? nb : 1)));
    int64_t *live = BYOC__SIM_CAST(int64_t *, byoc__sim_malloc(p, sizeof(int64_t) * (size_t)(p->plan.slots + 2)));
    size_t *offset_of = BYOC__SIM_CAST(size_t *, byoc__sim_malloc(p, sizeof(size_t) * (size_t)(nb ? nb : 1)));
    int ok = unit_index && u && alt && spans && live && offset_of;
    if (ok) {
        byoc__sim_slices_of_outputs(p);
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
            size_t end = byoc__sim_slice_base(p, b) + buf->size; /* a slice lies inside its root's bytes */
            if (end > ui->bytes) ui->bytes = end;
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
                buf->offset = offset_of[unit_index[byoc__sim_unit(p, b)]] + byoc__sim_slice_base(p, b);
                p->plan.buffers++;
            } else if (buf->kind == BYOC_SIM_BUFFER_OUTPUT && buf->slice_of < 0) {
                buf->offset = out_at;
                out_at += byoc__sim_align(buf->size);
            }
        }
        p->plan.output_bytes = out_at;
        byoc__sim_place_output_slices(p);
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
        if (kk->qconv) {
            const byoc_tensor *t = &p->tensors[p->steps[kk->step_first].tensor_first];
            size_t w = byoc__q8_conv_fused_ws(p->steps[kk->step_first].call, t, t + 6);
            if (w > ws) ws = w;
        }
        if (kk->fconv) {
            const byoc_tensor *t = &p->tensors[p->steps[kk->step_first].tensor_first];
            size_t w = byoc__conv2d_fused_ws(p->steps[kk->step_first].call, t, t + 2);
            if (w > ws) ws = w;
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

// [SECTION] sim impl: Winograd convolutions (filters transformed at lowering)
/* A float nn.conv2d with a constant weight that byoc.h's Winograd kernel takes (byoc__winograd_fits: 3x3, stride
   1, dilation 1, one group, enough channels) gets its transformed filter here, once per program, as TVM's
   AlterOpLayout and FoldConstant make contrib_conv2d_winograd_weight_transform a constant at compile time; at run
   time byoc__sim_run_step runs the step through byoc__conv2d_winograd_run instead of the op's kernel. When the
   convolution anchors a group whose epilogue is a per-channel constant bias (nn.bias_add along axis 1, or add of a
   [O, 1, 1] or [1, O, 1, 1] constant), then optionally nn.relu, each reading the step before, the output transform
   applies them while the tile is in registers and the epilogue's tiles do not run (ONNX Runtime's FusedConv: Conv
   with its bias and activation in one kernel). */

/* the per-channel float bias that epilogue step st adds to value `from` (O channels), or NULL when it is not one */
BYOC__SIM_PRIVATE const float *byoc__sim_winograd_bias(const byoc_sim_program *p, const byoc__sim_step *st, int from,
                                                       int64_t O) {
    const byoc_node *call = st->call;
    int bias_add = call->op == byoc__ops()->bias_add;
    if ((!bias_add && call->op != byoc__ops()->add) || st->nin != 2 || st->nout != 1 ||
        p->operands[st->in_first] != from)
        return NULL;
    const byoc__sim_value *b = &p->values[p->operands[st->in_first + 1]];
    if (b->buffer < 0 || p->buffers[b->buffer].kind != BYOC_SIM_BUFFER_CONSTANT || b->dtype != BYOC_FLOAT32 ||
        byoc__sim_elements(b) != O)
        return NULL;
    int64_t axis = byoc_attrs_int(&call->attrs, "axis", 1); /* of the 4-d result */
    int along_channels = bias_add ? (axis == 1 || axis == -3) && b->rank == 1
                                  : (b->rank == 3 && b->dims[0] == O) || (b->rank == 4 && b->dims[1] == O);
    return along_channels ? (const float *)p->buffers[b->buffer].constant->data : NULL;
}

/* ANCHOR kernel kk's epilogue into its Winograd convolution (its first step), when it is a bias, a bias + relu or
   a relu */
BYOC__SIM_PRIVATE void byoc__sim_winograd_epilogue(byoc_sim_program *p, byoc__sim_kernel *kk) {
    byoc__sim_step *conv = &p->steps[kk->step_first];
    int s = kk->step_first + 1, end = kk->step_first + kk->nsteps, v = p->operands[conv->out_first];
    int64_t O = p->tensors[conv->tensor_first + 2].dims[1];
    const float *bias = s < end ? byoc__sim_winograd_bias(p, &p->steps[s], v, O) : NULL;
    if (bias) v = p->operands[p->steps[s++].out_first];
    int act = BYOC__WINO_NO_ACT;
    if (s < end && p->steps[s].call->op == byoc_op_get("nn.relu") && p->steps[s].nin == 1 &&
        p->operands[p->steps[s].in_first] == v) {
        act = BYOC__WINO_RELU;
        s++;
    }
    if (s != end || (!bias && act == BYOC__WINO_NO_ACT)) return; /* a ReLU alone: the transform adds 0, then max */
    conv->winograd_bias = bias;
    conv->winograd_act = act;
    kk->winograd_epilogue = 1;
    kk->info.bytes_written /= 2; /* the result is written once, not read back by the epilogue */
    kk->info.bytes_read -= kk->info.bytes_written;
}

/* every Winograd convolution's filter, transformed and packed; the shared workspace grown for its blocks */
BYOC__SIM_PRIVATE int byoc__sim_winograd_filters(byoc__sim_lowering *L) {
    byoc_sim_program *p = L->p;
    for (int k = 0; k < p->nkernels; ++k) {
        byoc__sim_kernel *kk = &p->kernels[k];
        if ((kk->info.exec != BYOC_SIM_EXEC_OPS && kk->info.exec != BYOC_SIM_EXEC_ANCHOR) || kk->qconv) continue;
        for (int s = kk->step_first; s < kk->step_first + kk->nsteps; ++s) {
            byoc__sim_step *st = &p->steps[s];
            if (st->tiled || st->dynamic || st->nin != 2 || st->nout != 1 || st->call->op != byoc__ops()->conv2d)
                continue;
            const byoc__sim_value *w = &p->values[p->operands[st->in_first + 1]];
            const byoc_tensor *t = &p->tensors[st->tensor_first];
            if (w->buffer < 0 || p->buffers[w->buffer].kind != BYOC_SIM_BUFFER_CONSTANT ||
                !p->buffers[w->buffer].constant->data || !byoc__winograd_fits(st->call, t, t + 2))
                continue;
            /* a fused convolution (byoc__sim_group_fconv) runs as Winograd when the output transform can apply its
               whole epilogue (a bias [+ ReLU]; one adding a residual stays with the fused GEMM convolution) */
            int was_fconv = kk->fconv;
            if (was_fconv) {
                if (kk->fconv_res_step >= 0 || s != kk->step_first) continue;
                byoc__sim_winograd_epilogue(p, kk);
                if (!kk->winograd_epilogue) continue;
            }
            int64_t O = t[1].dims[0], C = t[1].dims[1];
            int small = byoc__winograd_small(st->call, t, t + 2); /* the small-map path's filter layout */
            size_t bytes = byoc__winograd_filter_floats(O, C, small) * sizeof(float);
            st->winograd = BYOC__SIM_CAST(float *, byoc__sim_malloc(p, bytes));
            if (!st->winograd || !byoc__winograd_pack_filter((const float *)p->buffers[w->buffer].constant->data, O, C,
                                                              small, st->winograd))
                return BYOC__SIM_OOM(L);
            size_t ws = byoc__winograd_ws(O, C, small);
            if (ws > p->plan.workspace_bytes) p->plan.workspace_bytes = ws;
            kk->info.algorithm = "winograd";
            if (was_fconv) { /* byoc__sim_run_fconv runs it through the transformed filter */
                byoc__sim_mfree(p, kk->fconv_wpacked);
                kk->fconv_wpacked = NULL;
            } else if (kk->info.exec == BYOC_SIM_EXEC_ANCHOR && s == kk->step_first) {
                byoc__sim_winograd_epilogue(p, kk);
            }
        }
    }
    return 1;
}

// [SECTION] sim impl: threads (waiting: a bounded spin)
/* A pool's thread that waits (a worker between jobs, the caller for its workers' last tasks) first watches the
   word it waits on for up to BYOC_SIM_SPIN_US microseconds of wall time, with a pause per look, and only then
   sleeps on the pool's condition variable. A job of a small model's kernel lasts 10-100 microseconds: a futex
   wake-up (tens of microseconds from a sleeping worker's call to its first task) cost as much as the task, so
   a split kernel ran no faster than a serial one. ONNX Runtime's EigenNonBlockingThreadPool spins the same way
   before it blocks. The bound is time, not a count of pause instructions: a pause lasts about 10 cycles on
   older x86 cores and 140 on Skylake-SP and later, and 20000 of them (this pool's earlier spin) held a core
   for up to a millisecond after every job, which on a shared machine made two threads 1.6-2.2x slower than one. A
   spin that sees nothing gives the core back (sched_yield) every 16 looks after the first microsecond, so a
   waiting thread never keeps a runnable one (the caller, or another program) off a busy core for a whole
   time slice. -DBYOC_SIM_SPIN_US=0 sleeps at once. */
#ifndef BYOC_SIM_SPIN_US
#define BYOC_SIM_SPIN_US 50
#endif
#if !defined(BYOC_NO_THREADS)
#include <sched.h>
#endif
#if (defined(__GNUC__) || defined(__clang__)) && BYOC_SIM_SPIN_US > 0 && !defined(BYOC_NO_THREADS)
#define BYOC__POOL_SPIN 1
#define BYOC__POOL_LOAD(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define BYOC__POOL_STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
#else
#define BYOC__POOL_SPIN 0
#define BYOC__POOL_LOAD(x) (x)
#define BYOC__POOL_STORE(x, v) ((x) = (v))
#endif

#if BYOC__POOL_SPIN
/* watches *word (written by other threads under the pool's mutex) until it equals `value` (until_equal) or
   differs from it, for at most BYOC_SIM_SPIN_US; 1 when that happened, 0 when the time ran out */
BYOC__SIM_PRIVATE int byoc__pool_spin(const unsigned long *word, unsigned long value, int until_equal) {
    double start = -1, limit = BYOC_SIM_SPIN_US * 1e-6;
    for (unsigned looks = 1;; ++looks) {
        if ((BYOC__POOL_LOAD(*word) == value) == (until_equal != 0)) return 1;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if (looks % 16) continue;
        double now = BYOC_SIM_CLOCK();
        if (start < 0) start = now;
        if (now - start > limit) return 0;
        if (now - start > 1e-6) sched_yield();
    }
}
#endif

// [SECTION] sim impl: threads (the pool)
/* One job at a time: parallel_for publishes (task, ctx, n), wakes the workers, and claims task indices with them
   under the pool's mutex until all n have run. Tasks are few and coarse (a kernel makes at most `threads` of
   them, or one per tile), so a mutex per claim costs nothing measurable, and the result never depends on which
   thread ran which task (claims are dynamic: a worker that is late, or not scheduled at all on a loaded
   machine, leaves its tasks to the caller). A call made while a job runs (a task's kernel splitting again, or
   another thread) runs inline: nesting can neither deadlock nor oversubscribe. Waiting is described in
   "sim impl: threads (waiting: a bounded spin)". */
#if !defined(BYOC_NO_THREADS)
#include <pthread.h>
#include <unistd.h>
#endif
struct byoc_sim_pool {
    byoc_allocator alloc;
    int threads;
#if !defined(BYOC_NO_THREADS)
    pthread_t *workers;
    int nworkers;
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    byoc_parallel_task task; /* the job */
    void *ctx;
    int64_t n, next;
    unsigned long finished;   /* tasks done (written under the mutex, read atomically by the spinning caller) */
    unsigned long generation; /* bumped per job and at stop, so a worker tells a new job from the one it finished */
    int sleepers;             /* workers waiting on `wake`: a job with none asleep makes no futex call */
    int caller_sleeps;        /* the caller waits on `done` */
    int busy, stop;
    int late_jobs, inline_left; /* "waiting for late workers": jobs to run on the caller alone, and the next count */
    int active;                 /* a run is in progress ("sim impl: threads (awake through a run)") */
    unsigned long runs;         /* runs begun: a worker woken for one watches for its jobs */
    unsigned long run_jobs;     /* jobs the current run asked for (split kernels, on the workers or inline) */
#endif
};

BYOC_SIM_API int byoc_sim_online_cores(void) {
#if !defined(BYOC_NO_THREADS) && defined(_SC_NPROCESSORS_ONLN)
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
#else
    return 1;
#endif
}

#if !defined(BYOC_NO_THREADS)
/* Waiting for late workers. On a loaded machine (the 2 cores shared with a dozen compilers) a worker is often
   preempted in the middle of its task, and the caller, done with its own share, waits a scheduler time slice
   (milliseconds) for a task of tens of microseconds: two threads then ran 1.1-2x slower than one. When the
   caller waited longer for the workers than its own share took, plus BYOC__POOL_LATE_S (a wake-up from sleep
   in a VM takes up to about 100 microseconds), the next jobs run on the caller alone: 1, then 2, 4, ... up to
   BYOC__POOL_INLINE_MAX jobs while the workers keep being late, and none once a job's workers keep up again.
   A job run alone runs every task, with its own index and scratch, so the bytes are the same. */
#define BYOC__POOL_LATE_S 100e-6
#define BYOC__POOL_INLINE_MAX 64
BYOC__SIM_PRIVATE void byoc__pool_judge(byoc_sim_pool *pool, double own_seconds, double wait_seconds) {
    if (wait_seconds > own_seconds + BYOC__POOL_LATE_S) {
        pool->late_jobs = !pool->late_jobs                                ? 1
                          : 2 * pool->late_jobs > BYOC__POOL_INLINE_MAX ? BYOC__POOL_INLINE_MAX
                                                                        : 2 * pool->late_jobs;
        pool->inline_left = pool->late_jobs;
    } else {
        pool->late_jobs = 0;
    }
}
/* runs the job's unclaimed tasks; called and returns with the mutex held */
BYOC__SIM_PRIVATE void byoc__pool_drain(byoc_sim_pool *pool) {
    while (pool->next < pool->n) {
        int64_t i = pool->next++;
        byoc_parallel_task task = pool->task;
        void *ctx = pool->ctx;
        pthread_mutex_unlock(&pool->mu);
        task(ctx, i);
        pthread_mutex_lock(&pool->mu);
        BYOC__POOL_STORE(pool->finished, pool->finished + 1);
        if (pool->finished == (unsigned long)pool->n && pool->caller_sleeps) pthread_cond_signal(&pool->done);
    }
}
#if BYOC__POOL_SPIN
BYOC__SIM_PRIVATE void byoc__pool_spin_job(byoc_sim_pool *pool, unsigned long seen); /* "awake through a run" */
#endif
static void *byoc__pool_worker(void *arg) {
    byoc_sim_pool *pool = BYOC__SIM_CAST(byoc_sim_pool *, arg);
    unsigned long seen = 0, seen_run = 0;
    for (;;) {
#if BYOC__POOL_SPIN
        byoc__pool_spin_job(pool, seen); /* the next job (or the stop) often comes within it */
#endif
        pthread_mutex_lock(&pool->mu);
        /* a job this worker has not seen yet, or a run begun since it last watched for one */
        while (!pool->stop && pool->generation == seen && (pool->runs == seen_run || !pool->active)) {
            pool->sleepers++;
            pthread_cond_wait(&pool->wake, &pool->mu);
            pool->sleepers--;
        }
        if (pool->stop) {
            pthread_mutex_unlock(&pool->mu);
            return NULL;
        }
        seen_run = pool->runs;
        if (pool->generation == seen) { /* woken for a run: watch for its jobs */
            pthread_mutex_unlock(&pool->mu);
            continue;
        }
        seen = pool->generation;
        byoc__pool_drain(pool); /* nothing when the others claimed every task already */
        pthread_mutex_unlock(&pool->mu);
    }
}
#endif

static void byoc__pool_parallel_for(int64_t n, byoc_parallel_task task, void *ctx, void *user) {
    byoc_sim_pool *pool = BYOC__SIM_CAST(byoc_sim_pool *, user);
#if !defined(BYOC_NO_THREADS)
    if (pool && pool->nworkers > 0 && n > 1) {
        pthread_mutex_lock(&pool->mu);
        pool->run_jobs++;
        if (!pool->busy && pool->inline_left > 0) { /* the workers were late: this job on the caller alone */
            pool->inline_left--;
            pthread_mutex_unlock(&pool->mu);
            for (int64_t i = 0; i < n; ++i) task(ctx, i);
            return;
        }
        if (!pool->busy) {
            pool->busy = 1;
            pool->task = task;
            pool->ctx = ctx;
            pool->n = n;
            pool->next = 0;
            BYOC__POOL_STORE(pool->finished, 0UL);
            BYOC__POOL_STORE(pool->generation, pool->generation + 1);
            if (pool->sleepers > 0) pthread_cond_broadcast(&pool->wake); /* spinning workers see the generation */
            double started = BYOC_SIM_CLOCK();
            byoc__pool_drain(pool);
            double drained = BYOC_SIM_CLOCK();
#if BYOC__POOL_SPIN
            if (pool->finished != (unsigned long)n) { /* the workers' last tasks */
                pthread_mutex_unlock(&pool->mu);
                byoc__pool_spin(&pool->finished, (unsigned long)n, 1);
                pthread_mutex_lock(&pool->mu);
            }
#endif
            while (pool->finished != (unsigned long)pool->n) {
                pool->caller_sleeps = 1;
                pthread_cond_wait(&pool->done, &pool->mu);
                pool->caller_sleeps = 0;
            }
            byoc__pool_judge(pool, drained - started, BYOC_SIM_CLOCK() - drained);
            pool->busy = 0;
            pool->n = 0;
            pthread_mutex_unlock(&pool->mu);
            return;
        }
        pthread_mutex_unlock(&pool->mu); /* nested, or another thread's job: here, in order */
    }
#else
    (void)pool;
#endif
    for (int64_t i = 0; i < n; ++i) task(ctx, i);
}

BYOC_SIM_API byoc_sim_pool *byoc_sim_pool_create(int threads, const byoc_allocator *allocator, byoc_diag *diag) {
    byoc_allocator a;
    memset(&a, 0, sizeof a);
    if (allocator) a = *allocator;
    if (threads < 1 || threads > 1024) {
        byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL, "byoc_sim_pool_create: %d threads (1 to 1024)", threads);
        return NULL;
    }
    byoc_sim_pool *pool =
        BYOC__SIM_CAST(byoc_sim_pool *, byoc__sim_alloc_in(&a, sizeof *pool));
    if (!pool) {
        byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "byoc_sim_pool_create: out of memory");
        return NULL;
    }
    memset(pool, 0, sizeof *pool);
    pool->alloc = a;
    pool->threads = 1;
#if !defined(BYOC_NO_THREADS)
    if (threads > 1) {
        size_t bytes = sizeof(pthread_t) * (size_t)(threads - 1);
        pool->workers = BYOC__SIM_CAST(pthread_t *, byoc__sim_alloc_in(&a, bytes));
        if (!pool->workers) {
            byoc_sim_pool_destroy(pool);
            byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "byoc_sim_pool_create: out of memory");
            return NULL;
        }
        pthread_mutex_init(&pool->mu, NULL);
        pthread_cond_init(&pool->wake, NULL);
        pthread_cond_init(&pool->done, NULL);
        for (int i = 0; i < threads - 1; ++i) {
            if (pthread_create(&pool->workers[i], NULL, byoc__pool_worker, pool) != 0) break;
            pool->nworkers++;
        }
        pool->threads = pool->nworkers + 1;
    }
#endif
    return pool;
}

BYOC_SIM_API void byoc_sim_pool_destroy(byoc_sim_pool *pool) {
    if (!pool) return;
#if !defined(BYOC_NO_THREADS)
    if (pool->workers) {
        pthread_mutex_lock(&pool->mu);
        pool->stop = 1;
        BYOC__POOL_STORE(pool->generation, pool->generation + 1); /* ends a worker's spin */
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->mu);
        for (int i = 0; i < pool->nworkers; ++i) pthread_join(pool->workers[i], NULL);
        pthread_mutex_destroy(&pool->mu);
        pthread_cond_destroy(&pool->wake);
        pthread_cond_destroy(&pool->done);
        byoc__sim_free_in(&pool->alloc, pool->workers);
    }
#endif
    byoc__sim_free_in(&pool->alloc, pool);
}

BYOC_SIM_API int byoc_sim_pool_threads(const byoc_sim_pool *pool) { return pool ? pool->threads : 0; }

BYOC_SIM_API byoc_parallel byoc_sim_pool_parallel(byoc_sim_pool *pool) {
    byoc_parallel par;
    memset(&par, 0, sizeof par);
    if (!pool) return par;
    par.parallel_for = byoc__pool_parallel_for;
    par.user = pool;
    par.threads = pool->threads;
    return par;
}

// [SECTION] sim impl: threads (awake through a run)
/* A worker that slept through a serial stretch of a run (one unsplit kernel of more than BYOC_SIM_SPIN_US, as
   ultraface's 100-300 us layers) needed a futex wake-up to reach the next split kernel (a job of two empty tasks
   took 13 us after an 80 us gap against 1 us after shorter ones, on a quiet machine; up to 100 us on a loaded VM):
   by then the caller, its own share done, had often claimed the worker's share too (claims are dynamic), so kernels
   of 20-120 us split in two ran little faster than serial ones (ultraface's dilated 3x3 layers 1.08-1.30x from 1 to
   2 threads, now 1.67-1.75x; the whole model 1.32-1.35x, now 1.46-1.49x). Now byoc_sim_run marks the pool active for
   the run: its workers keep watching for jobs until the run ends (BYOC_SIM_SPIN_US more after it, and never more
   than BYOC__POOL_RUN_SPIN_S since the spin began, in case one kernel is a device's long command stream), giving
   their core back (sched_yield) every 16 looks, so a runnable thread is not kept off a busy core. ONNX Runtime's
   intra-op threads likewise spin for work before they block (its session.intra_op.allow_spinning option, on by
   default). A run wakes sleeping workers as it begins only when the run before it split a kernel: a small model
   whose kernels all run on the caller (tiny_distilbert, mnist) pays no wake-up per run. */
#define BYOC__POOL_RUN_SPIN_S 0.1
#if BYOC__POOL_SPIN
/* watches for a job after `seen` (or the stop) while a run is active, then BYOC_SIM_SPIN_US more */
BYOC__SIM_PRIVATE void byoc__pool_spin_job(byoc_sim_pool *pool, unsigned long seen) {
    double begin = -1, idle_since = -1, limit = BYOC_SIM_SPIN_US * 1e-6;
    for (unsigned looks = 1;; ++looks) {
        if (BYOC__POOL_LOAD(pool->generation) != seen) return;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if (looks % 16) continue;
        double now = BYOC_SIM_CLOCK();
        if (begin < 0) begin = idle_since = now;
        if (BYOC__POOL_LOAD(pool->active) && now - begin < BYOC__POOL_RUN_SPIN_S) idle_since = now;
        if (now - idle_since > limit) return;
        if (now - begin > 1e-6) sched_yield();
    }
}
#endif

/* byoc_sim_run's first and last steps on the program's own pool */
BYOC__SIM_PRIVATE void byoc__pool_run_begin(byoc_sim_pool *pool) {
#if BYOC__POOL_SPIN
    if (!pool || pool->nworkers < 1) return;
    pthread_mutex_lock(&pool->mu);
    pool->runs++;
    BYOC__POOL_STORE(pool->active, 1);
    if (pool->run_jobs > 0 && pool->sleepers > 0) pthread_cond_broadcast(&pool->wake);
    pool->run_jobs = 0;
    pthread_mutex_unlock(&pool->mu);
#else
    (void)pool;
#endif
}
BYOC__SIM_PRIVATE void byoc__pool_run_end(byoc_sim_pool *pool) {
#if BYOC__POOL_SPIN
    if (pool && pool->nworkers > 0) BYOC__POOL_STORE(pool->active, 0);
#else
    (void)pool;
#endif
}

// [SECTION] sim impl: ops kernels over threads (row ranges)
/* An OPS kernel runs its ops one after another, each a byoc.h kernel on whole tensors, on one thread when every op
   is below byoc.h's split grains: ultraface's box decoding (4 transposes, a concatenation and 17 slices,
   elementwise ops and concatenations on (1, 4420, 2..4) tensors) took about 65 us that way. TVM's FuseOps makes such
   a chain of injective ops one kernel whose outer loop the schedule parallelizes; here the ops stay separate and run
   in PHASES: within a phase, task t of n computes rows [R t / n, R (t + 1) / n) of every op's result (R: the
   result's elements over its last extent), and an op that reads a result of the same phase reads only the rows of
   its own range (elementwise ops on operands of its shape, slices and concatenations along the last axis), which
   the same task wrote. An op gathering across rows (a transpose, a concatenation along another axis) starts a new
   phase, its inputs then complete. The memory plan reuses dead buffers and writes results in place, so a phase also
   ends before an op whose storage overlaps storage another op of the phase touches in any other way than row for
   row. Each element comes from the functions byoc.h's kernels use (byoc__binary_f32, byoc__unary_f32: their padded
   vector tails make an element's result independent of where it sits) or is a copied word, so the bytes are the
   serial run's for every thread count. */
/* defined with the runtime below */
BYOC__SIM_PRIVATE char *byoc__sim_data(const byoc_sim_program *p, int value);

enum { BYOC__SIM_ROWS_BINARY = 1, BYOC__SIM_ROWS_UNARY, BYOC__SIM_ROWS_GATHER };
#define BYOC__SIM_ROWS_GRAIN 8192  /* result elements of a phase per task at least (a few us of these loops) */
#define BYOC__SIM_ROWS_OPERANDS 16 /* operands of an op at most (a concatenation of more runs as it did) */
#define BYOC__SIM_ROWS_MIN_OPS 3   /* a chain: one or two ops run as byoc.h's kernels, which split big results */

/* an operand of a row-range op. BINARY, UNARY: element e of the result reads element e * stride[0] (stride 0: one
   value). GATHER: result element (i_0, ..., i_n-1), with lo <= i_axis < hi, is element base + sum_j i_j stride[j] */
typedef struct byoc__sim_rows_src {
    int value;
    int64_t base, lo, hi;
    int64_t stride[BYOC_MAX_RANK];
} byoc__sim_rows_src;

typedef struct byoc__sim_rows_op {
    int kind, code, phase, rank, axis; /* axis: GATHER, the axis its operands are concatenated along */
    int src_first, nsrc, out;
    int64_t dims[BYOC_MAX_RANK], rows, cols;
} byoc__sim_rows_op;

struct byoc__sim_rows {
    int nops, nphases;
    byoc__sim_rows_op *ops;
    byoc__sim_rows_src *srcs;
};

/* One storage access of an op while a phase is formed: row-aligned when task t touches exactly rows
   [R t / n, R (t + 1) / n) of [lo, hi) (R rows of equal size), else any part of it. */
typedef struct byoc__sim_rows_access {
    const char *lo, *hi;
    int64_t rows;
    int write, aligned, op;
} byoc__sim_rows_access;

/* Can accesses a and b of different ops share a phase? Yes when they do not overlap, both only read, or both are
   row-aligned over the same bytes and rows (each task then touches its own rows in both). */
BYOC__SIM_PRIVATE int byoc__sim_rows_compatible(const byoc__sim_rows_access *a, const byoc__sim_rows_access *b) {
    if (a->hi <= b->lo || b->hi <= a->lo || (!a->write && !b->write)) return 1;
    return a->aligned && b->aligned && a->lo == b->lo && a->hi == b->hi && a->rows == b->rows;
}

/* the kind of op a step is, and its operands as rows_src (row-local or not in *aligned[q]); 0 when it has none */
BYOC__SIM_PRIVATE int byoc__sim_rows_describe(byoc_sim_program *p, const byoc__sim_step *st, byoc__sim_rows_op *op,
                                              byoc__sim_rows_src *src, int *aligned) {
    const byoc__kernel_def *def = byoc__kernel_of(st->call->op);
    const byoc_tensor *t = &p->tensors[st->tensor_first], *o = &t[st->nin];
    if (!def || st->nout != 1 || st->dynamic || st->winograd || st->nin < 1 || o->rank < 2 ||
        st->nin > BYOC__SIM_ROWS_OPERANDS || byoc__numel(o) >= BYOC__PAR_ELEM_GRAIN)
        return 0; /* results byoc.h's kernels split on their own run there */
    for (int q = 0; q <= st->nin; ++q) {
        const byoc__sim_value *v = &p->values[p->operands[q < st->nin ? st->in_first + q : st->out_first]];
        if (t[q].dtype != BYOC_FLOAT32 || v->boxed || byoc__numel(&t[q]) <= 0 ||
            p->buffers[v->buffer].kind == BYOC_SIM_BUFFER_DYNAMIC)
            return 0;
    }
    memset(op, 0, sizeof *op);
    op->code = def->code;
    op->rank = o->rank;
    op->nsrc = st->nin;
    op->out = p->operands[st->out_first];
    memcpy(op->dims, o->dims, sizeof op->dims);
    op->cols = o->dims[o->rank - 1];
    op->rows = byoc__numel(o) / op->cols;
    int c = def->code;
    if (def->run == byoc__k_binary && c >= BYOC__K_ADD && c <= BYOC__K_MINIMUM) op->kind = BYOC__SIM_ROWS_BINARY;
    else if (def->run == byoc__k_unary && (c == BYOC__K_EXP || c == BYOC__K_SIGMOID || c == BYOC__K_TANH ||
                                           c == BYOC__K_RELU || c == BYOC__K_NEGATIVE || c == BYOC__K_ABS ||
                                           c == BYOC__K_SQRT || c == BYOC__K_RSQRT || c == BYOC__K_LOG ||
                                           c == BYOC__K_ERF || c == BYOC__K_FLOOR || c == BYOC__K_CEIL))
        op->kind = BYOC__SIM_ROWS_UNARY;
    else if (def->run == byoc__k_transpose || def->run == byoc__k_strided_slice || def->run == byoc__k_concatenate)
        op->kind = BYOC__SIM_ROWS_GATHER;
    else return 0;
    byoc__kctx k;
    memset(&k, 0, sizeof k);
    k.call = st->call;
    k.name = st->call->op->def.name;
    k.code = c;
    k.in = t;
    k.nin = st->nin;
    k.out = &p->tensors[st->tensor_first + st->nin];
    k.nout = 1;
    op->axis = def->run == byoc__k_concatenate ? byoc__kaxis(&k, "axis", 0, o->rank) : 0;
    int64_t at = 0;
    for (int q = 0; q < st->nin; ++q) {
        byoc__sim_rows_src *s = &src[q];
        const byoc_tensor *x = &t[q];
        int64_t m = byoc__numel(x), istr[BYOC_MAX_RANK];
        memset(s, 0, sizeof *s);
        s->value = p->operands[st->in_first + q];
        s->hi = o->dims[op->axis];
        if (op->kind != BYOC__SIM_ROWS_GATHER) { /* elementwise: the same shape, or one value */
            int same = x->rank == o->rank;
            for (int j = 0; same && j < o->rank; ++j) same = x->dims[j] == o->dims[j];
            if (!same && m != 1) return 0;
            s->stride[0] = same ? 1 : 0;
            aligned[q] = same;
            continue;
        }
        if (x->rank != o->rank) return 0;
        byoc__strides_of(x->rank, x->dims, istr);
        if (def->run == byoc__k_transpose) byoc__transpose_source(&k, s->stride);
        else if (def->run == byoc__k_strided_slice) s->base = byoc__strided_slice_source(&k, s->stride);
        else {
            memcpy(s->stride, istr, sizeof istr);
            s->lo = at;
            s->hi = at += x->dims[op->axis];
            s->base = -s->lo * istr[op->axis];
        }
        /* row-local: output row r reads only elements of input row r (same rows, in order) */
        int64_t cin = x->dims[x->rank - 1], last = s->stride[o->rank - 1];
        int64_t c0 = op->axis == o->rank - 1 ? s->lo : 0, c1 = op->axis == o->rank - 1 ? s->hi : op->cols;
        int local = m / cin == op->rows && last >= 0 && s->base + c0 * last >= 0 && s->base + (c1 - 1) * last < cin;
        for (int j = 0; local && j < o->rank - 1; ++j)
            local = x->dims[j] == o->dims[j] && (o->dims[j] == 1 || s->stride[j] == istr[j]);
        aligned[q] = local && (op->axis == o->rank - 1 || st->nin == 1);
    }
    return 1;
}

/* The phases of an OPS kernel (at its first run on several threads: the accesses are checked on the storage the plan
   gave); NULL when an op has no row-range form or an op's result overlaps its own operands other than row for row */
BYOC__SIM_PRIVATE struct byoc__sim_rows *byoc__sim_rows_plan(byoc_sim_program *p, const byoc__sim_kernel *k) {
    int nsrc = 0;
    for (int s = k->step_first; s < k->step_first + k->nsteps; ++s) nsrc += p->steps[s].nin;
    size_t bytes = sizeof(struct byoc__sim_rows) + sizeof(byoc__sim_rows_op) * (size_t)k->nsteps +
                   sizeof(byoc__sim_rows_src) * (size_t)nsrc +
                   sizeof(byoc__sim_rows_access) * (size_t)(nsrc + k->nsteps);
    struct byoc__sim_rows *rows = BYOC__SIM_CAST(struct byoc__sim_rows *, byoc__sim_malloc(p, bytes));
    if (!rows) return NULL;
    rows->ops = BYOC__SIM_CAST(byoc__sim_rows_op *, (void *)(rows + 1));
    rows->srcs = BYOC__SIM_CAST(byoc__sim_rows_src *, (void *)(rows->ops + k->nsteps));
    byoc__sim_rows_access *acc = BYOC__SIM_CAST(byoc__sim_rows_access *, (void *)(rows->srcs + nsrc));
    rows->nops = k->nsteps;
    rows->nphases = 0;
    int nacc = 0, phase_acc = 0, at = 0, ok = 1;
    for (int i = 0; ok && i < k->nsteps; ++i) {
        const byoc__sim_step *st = &p->steps[k->step_first + i];
        byoc__sim_rows_op *op = &rows->ops[i];
        int aligned[BYOC__SIM_ROWS_OPERANDS];
        ok = byoc__sim_rows_describe(p, st, op, &rows->srcs[at], aligned);
        if (!ok) break;
        op->src_first = at;
        at += st->nin;
        int mine = nacc;
        for (int q = 0; q <= st->nin; ++q) { /* the operands, then the result */
            int v = q < st->nin ? rows->srcs[op->src_first + q].value : op->out;
            byoc__sim_rows_access *a = &acc[nacc++];
            a->lo = byoc__sim_data(p, v);
            a->hi = a->lo + p->values[v].nbytes;
            a->rows = op->rows;
            a->write = q == st->nin;
            a->aligned = q == st->nin || aligned[q];
            a->op = i;
        }
        int fits = rows->nphases > 0;
        for (int x = phase_acc; fits && x < mine; ++x)
            for (int y = mine; fits && y < nacc; ++y) fits = byoc__sim_rows_compatible(&acc[x], &acc[y]);
        for (int y = mine; ok && y < nacc - 1; ++y) ok = byoc__sim_rows_compatible(&acc[y], &acc[nacc - 1]);
        if (!fits) {
            rows->nphases++;
            phase_acc = mine;
        }
        op->phase = rows->nphases - 1;
    }
    if (!ok) {
        byoc__sim_mfree(p, rows);
        return NULL;
    }
    return rows;
}

BYOC__SIM_PRIVATE float *byoc__sim_floats(const byoc_sim_program *p, int value) {
    return BYOC__SIM_CAST(float *, (void *)byoc__sim_data(p, value));
}

/* rows [r0, r1) of op's result */
BYOC__SIM_PRIVATE void byoc__sim_rows_run_op(const byoc_sim_program *p, const struct byoc__sim_rows *rows,
                                             const byoc__sim_rows_op *op, int64_t r0, int64_t r1) {
    const byoc__sim_rows_src *src = &rows->srcs[op->src_first];
    int64_t e0 = r0 * op->cols, n = (r1 - r0) * op->cols;
    if (op->kind == BYOC__SIM_ROWS_BINARY) {
        const float *a = byoc__sim_floats(p, src[0].value), *b = byoc__sim_floats(p, src[1].value);
        float *o = byoc__sim_floats(p, op->out);
        byoc__binary_f32(op->code, a + e0 * src[0].stride[0], src[0].stride[0], b + e0 * src[1].stride[0],
                         src[1].stride[0], o + e0, n);
        return;
    }
    if (op->kind == BYOC__SIM_ROWS_UNARY) {
        byoc__unary_params pr;
        memset(&pr, 0, sizeof pr); /* the ops taken here have no parameters */
        byoc__unary_f32(op->code, &pr, byoc__sim_floats(p, src[0].value) + e0, byoc__sim_floats(p, op->out) + e0, n);
        return;
    }
    /* a gather, row by row: each operand's element offset for the row's index along every axis but the last (kept
       up to date as the row advances), then its part of the row; 4-byte words moved with memcpy (bytes, never
       floats, and no aliasing of the floats the other ops write) */
    int last = op->rank - 1;
    int64_t idx[BYOC_MAX_RANK] = {0};
    const char *in[BYOC__SIM_ROWS_OPERANDS];
    for (int q = 0; q < op->nsrc; ++q) in[q] = byoc__sim_data(p, src[q].value);
    char *orow = byoc__sim_data(p, op->out) + e0 * 4;
    int64_t r = r0, inner = op->dims[last - 1];
    for (int64_t rest = r0, j = last - 1; j >= 0; --j) {
        idx[j] = rest % op->dims[j];
        rest /= op->dims[j];
    }
    while (r < r1) {
        /* a block of rows along the second last axis (only that index moves), operand by operand */
        int64_t m = BYOC__MIN(r1 - r, inner - idx[last - 1]), row_bytes = op->cols * 4;
        for (int q = 0; q < op->nsrc; ++q) {
            const byoc__sim_rows_src *s = &src[q];
            int64_t i0 = 0, i1 = m, c0 = 0, c1 = op->cols, step = s->stride[last], next = s->stride[last - 1];
            if (op->axis == last) c0 = s->lo, c1 = s->hi;
            else if (op->axis == last - 1) {
                i0 = BYOC__MAX(0, s->lo - idx[last - 1]);
                i1 = BYOC__MIN(m, s->hi - idx[last - 1]);
            }
            else if (idx[op->axis] < s->lo || idx[op->axis] >= s->hi) continue;
            int64_t at = s->base + i0 * next + c0 * step;
            for (int j = 0; j < last; ++j) at += idx[j] * s->stride[j];
            char *o = orow + i0 * row_bytes + c0 * 4;
            const char *x = in[q] + at * 4;
            int64_t w = c1 - c0;
            if (step == 1 && w == 2) /* box coordinates: pairs (a fixed size becomes one move) */
                for (int64_t i = i0; i < i1; ++i, o += row_bytes, x += next * 4) memcpy(o, x, 8);
            else if (step == 1 && w == 4)
                for (int64_t i = i0; i < i1; ++i, o += row_bytes, x += next * 4) memcpy(o, x, 16);
            else if (step == 1)
                for (int64_t i = i0; i < i1; ++i, o += row_bytes, x += next * 4) memcpy(o, x, (size_t)w * 4);
            else
                for (int64_t i = i0; i < i1; ++i, o += row_bytes, x += next * 4)
                    for (int64_t c = 0; c < w; ++c) memcpy(o + c * 4, x + c * step * 4, 4);
        }
        orow += m * row_bytes;
        r += m;
        idx[last - 1] += m;
        for (int j = last - 1; j > 0 && idx[j] == op->dims[j]; --j) {
            idx[j] = 0;
            idx[j - 1]++;
        }
    }
}

typedef struct byoc__sim_rows_job {
    const byoc_sim_program *p;
    const struct byoc__sim_rows *rows;
    int first, end;
    int64_t ntasks;
} byoc__sim_rows_job;
static void byoc__sim_rows_task(void *ctx, int64_t t) {
    const byoc__sim_rows_job *job = BYOC__SIM_CAST(const byoc__sim_rows_job *, ctx);
    for (int i = job->first; i < job->end; ++i) {
        const byoc__sim_rows_op *op = &job->rows->ops[i];
        int64_t r0, r1;
        byoc__parallel_range(op->rows, job->ntasks, t, &r0, &r1);
        if (r0 < r1) byoc__sim_rows_run_op(job->p, job->rows, op, r0, r1);
    }
}

/* Runs OPS kernel k phase by phase over the program's threads when it has a row-range form (planned at its first
   run here); 0 when it has none or the program has one thread (the caller then runs its steps) */
BYOC__SIM_PRIVATE int byoc__sim_run_rows(byoc_sim_program *p, byoc__sim_kernel *k) {
    if (p->par.threads < 2 || !p->par.parallel_for || k->concat_slices || k->rows_state < 0 ||
        k->nsteps < BYOC__SIM_ROWS_MIN_OPS)
        return 0;
    if (!k->rows_state) {
        k->rows = byoc__sim_rows_plan(p, k);
        k->rows_state = k->rows ? 1 : -1;
        if (!k->rows) return 0;
    }
    const struct byoc__sim_rows *rows = k->rows;
    byoc__sim_rows_job job;
    job.p = p;
    job.rows = rows;
    for (int i = 0; i < rows->nops;) {
        int end = i;
        int64_t elements = 0;
        for (; end < rows->nops && rows->ops[end].phase == rows->ops[i].phase; ++end)
            elements += rows->ops[end].rows * rows->ops[end].cols;
        job.first = i;
        job.end = end;
        job.ntasks = BYOC__MIN((int64_t)p->par.threads, elements / BYOC__SIM_ROWS_GRAIN);
        if (job.ntasks < 2) {
            job.ntasks = 1;
            byoc__sim_rows_task(&job, 0);
        } else p->par.parallel_for(job.ntasks, byoc__sim_rows_task, &job, p->par.user);
        i = end;
    }
    return 1;
}

// [SECTION] sim impl: runtime
/* one input per tensor leaf of a parameter: "%x", or "%t.0" for a field of a tuple parameter */
BYOC__SIM_PRIVATE int byoc__sim_add_input(byoc__sim_lowering *L, const byoc_node *param, const byoc_type *t, char *name,
                                          size_t cap) {
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
    L->allow_dynamic = 1; /* a '?' extent takes the extent of each run's input */
    int v = byoc__sim_new_value(L, t, -1, param);
    L->allow_dynamic = 0;
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
    port->io.boxed = p->values[v].boxed;
    p->ninputs++;
    return byoc__sim_push_leaf(L, v);
}

/* An output of @main: a value the program computes lives in the output storage; an input or a constant is
   copied there. */
BYOC__SIM_PRIVATE int byoc__sim_add_output(byoc__sim_lowering *L, int v) {
    byoc_sim_program *p = L->p;
    int b = p->values[v].buffer;
    if (p->buffers[b].kind == BYOC_SIM_BUFFER_INPUT || p->buffers[b].kind == BYOC_SIM_BUFFER_CONSTANT) {
        int k = byoc__sim_new_kernel(L, BYOC_SIM_EXEC_COPY, NULL);
        if (k < 0 || !BYOC__SIM_RESERVE(p, p->values, p->cap_values, p->nvalues + 1) ||
            !BYOC__SIM_RESERVE(p, p->operands, p->cap_operands, p->noperands + 2))
            return BYOC__SIM_OOM(L);
        int w = p->nvalues++;
        p->values[w] = p->values[v];
        p->values[w].producer = -1;
        int nb = byoc__sim_new_buffer(L, p->values[w].dynamic ? BYOC_SIM_BUFFER_DYNAMIC : BYOC_SIM_BUFFER_OUTPUT,
                                      p->values[w].nbytes);
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
    } else if (p->buffers[b].kind != BYOC_SIM_BUFFER_DYNAMIC) {
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
    port->io.boxed = p->values[v].boxed;
    p->noutputs++;
    return 1;
}

/* An empty program over m with the options (NULL: defaults); NULL when memory runs out. */
BYOC__SIM_PRIVATE byoc_sim_program *byoc__sim_program_new(byoc_module *m, const byoc_sim_options *options,
                                                          byoc_diag *d) {
    byoc_allocator a;
    memset(&a, 0, sizeof a);
    if (options && options->allocator) a = *options->allocator;
    byoc_sim_program *p =
        BYOC__SIM_CAST(byoc_sim_program *, byoc__sim_alloc_in(&a, sizeof *p));
    if (!p) {
        byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, NULL, "byoc_sim_lower: out of memory");
        return NULL;
    }
    memset(p, 0, sizeof *p);
    p->alloc = a;
    if (options) p->opt = *options;
    p->opt.allocator = NULL; /* p->alloc holds it: the caller's struct need not outlive the call */
    p->host = options && options->host ? *options->host : *byoc_sim_preset_find("host-a55");
    p->opt.host = NULL;
    if (!p->opt.tile_bytes) p->opt.tile_bytes = BYOC_SIM_TILE_BYTES;
    p->opt.parallel = NULL;
    if (options && options->parallel && options->parallel->parallel_for) {
        p->par = *options->parallel;
    } else if (options && options->threads > 1) {
        p->pool = byoc_sim_pool_create(options->threads, a.alloc_fn ? &a : NULL, d);
        if (!p->pool) {
            byoc_sim_program_destroy(p);
            return NULL;
        }
        p->par = byoc_sim_pool_parallel(p->pool);
    }
    p->m = m;
    p->shadows = byoc_module_create(a.alloc_fn ? &p->alloc : NULL);
    if (!p->shadows) {
        byoc_sim_program_destroy(p);
        byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, NULL, "byoc_sim_lower: out of memory");
        return NULL;
    }
    return p;
}

/* Lowers fn as the whole of p: its parameters are p's inputs, its result p's outputs; then the schedule, the
   memory plan and the host model's account. @main's program and each control-flow body's are made here. */
BYOC__SIM_PRIVATE int byoc__sim_lower_program(byoc_sim_program *p, byoc_node *fn, int depth, byoc_diag *d) {
    byoc__sim_lowering L;
    memset(&L, 0, sizeof L);
    L.p = p;
    L.diag = d;
    int ok = 1, args_first = L.nleaves, rf = 0, rc = 0;
    for (int i = 0; ok && i < fn->nparams; ++i) {
        char name[256];
        snprintf(name, sizeof name, "%%%s", fn->params[i]->name ? fn->params[i]->name : "?");
        ok = byoc__sim_add_input(&L, fn->params[i], fn->params[i]->checked_type, name, sizeof name);
    }
    ok = ok && byoc__sim_lower_fn(&L, fn, args_first, L.nleaves - args_first, NULL, 0, depth, &rf, &rc);
    for (int i = 0; ok && i < rc; ++i) ok = byoc__sim_add_output(&L, L.leaves[rf + i]);
    ok = ok && byoc__sim_side_by_side(&L);
    ok = ok && byoc__sim_schedule(&L);
    if (ok && !p->opt.no_alias) ok = byoc__sim_concat_in_place(&L); /* before in place: it leaves slices alone */
    if (ok && !p->opt.no_inplace) byoc__sim_in_place(&L);
    ok = ok && byoc__sim_plan(&L);
    ok = ok && byoc__sim_winograd_filters(&L);
    if (ok && !L.error) byoc__sim_account(p);
    byoc__sim_mfree(p, L.leaves);
    byoc__sim_mfree(p, L.scalars);
    if (!ok || L.error) {
        if (!L.error) byoc__sim_fail(d, BYOC_ERR_INTERNAL, NULL, "byoc_sim_lower: failed");
        return 0;
    }
    return 1;
}

BYOC_SIM_API byoc_sim_program *byoc_sim_lower(byoc_module *m, const byoc_sim_options *options, byoc_diag *diag) {
    byoc_diag local;
    byoc_diag *d = diag ? diag : &local;
    memset(d, 0, sizeof *d);
    if (!m) {
        byoc__null_arg(d, __func__, "module");
        return NULL;
    }
    if (byoc_infer_type(m, d) != BYOC_OK) return NULL;
    byoc_node *main_fn = byoc_module_function(m, "main");
    if (!main_fn) {
        byoc__sim_fail(d, BYOC_ERR_NOT_FOUND, NULL, "byoc_sim_lower: the module has no @main");
        return NULL;
    }
    byoc_sim_program *p = byoc__sim_program_new(m, options, d);
    if (p && !byoc__sim_lower_program(p, main_fn, 0, d)) {
        byoc_sim_program_destroy(p);
        return NULL;
    }
    return p;
}

BYOC__SIM_PRIVATE char *byoc__sim_aligned(void *block) {
    return BYOC__SIM_CAST(char *, block) + ((BYOC_SIM_ALIGN - (uintptr_t)block % BYOC_SIM_ALIGN) % BYOC_SIM_ALIGN);
}

/* tasks a kernel may run at once on par (1: serial), and on the program's threads */
BYOC__SIM_PRIVATE int byoc__sim_par_tasks(const byoc_parallel *par) {
    return par->parallel_for && par->threads > 1 ? par->threads : 1;
}
BYOC__SIM_PRIVATE int byoc__sim_tasks_max(const byoc_sim_program *p) { return byoc__sim_par_tasks(&p->par); }
/* the workspace and tile scratch of one task: the plan's, or with threads what a split kernel needs (its scratch
   once per task: byoc_kernel_workspace_size_parallel over the tasks, divided among them) */
BYOC__SIM_PRIVATE void byoc__sim_task_memory(byoc_sim_program *p) {
    int tasks = byoc__sim_tasks_max(p);
    p->task_ws_bytes = byoc__sim_align(p->plan.workspace_bytes);
    p->task_scratch_bytes = byoc__sim_align(p->plan.tile_scratch_bytes);
    for (int s = 0; tasks > 1 && s < p->nsteps; ++s) {
        size_t w = p->steps[s].call ? byoc_kernel_workspace_size_parallel(p->steps[s].call, tasks) : 0;
        size_t per_task = byoc__sim_align((w + (size_t)tasks - 1) / (size_t)tasks);
        if (per_task > p->task_ws_bytes) p->task_ws_bytes = per_task;
    }
}

/* the first run: memory for the plan */
BYOC__SIM_PRIVATE int byoc__sim_prepare(byoc_sim_program *p) {
    p->arena_block = byoc__sim_malloc(p, p->plan.arena_bytes + BYOC_SIM_ALIGN);
    p->output_block = byoc__sim_malloc(p, p->plan.output_bytes + BYOC_SIM_ALIGN);
    byoc__sim_task_memory(p);
    p->workspace_block = byoc__sim_malloc(p, p->task_ws_bytes * (size_t)byoc__sim_tasks_max(p) + BYOC_SIM_ALIGN);
    p->scratch_block = byoc__sim_malloc(p, p->task_scratch_bytes * (size_t)byoc__sim_tasks_max(p) + BYOC_SIM_ALIGN);
    p->samples = BYOC__SIM_CAST(
        double *, byoc__sim_malloc(p, sizeof(double) * BYOC_SIM_SAMPLES * (size_t)(p->nkernels ? p->nkernels : 1)));
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

BYOC__SIM_PRIVATE char *byoc__sim_data(const byoc_sim_program *p, int value) {
    return BYOC__SIM_CAST(char *, p->buffers[p->values[value].buffer].data);
}

BYOC__SIM_PRIVATE byoc_result byoc__sim_run_step(byoc_sim_program *p, const byoc__sim_step *st,
                                                 const byoc__sim_lane *lane, byoc_diag *d) {
    byoc_tensor *t = &p->tensors[st->tensor_first];
    for (int q = 0; q < st->nin; ++q) t[q].data = byoc__sim_data(p, p->operands[st->in_first + q]);
    for (int q = 0; q < st->nout; ++q) t[st->nin + q].data = byoc__sim_data(p, p->operands[st->out_first + q]);
    if (st->winograd)
        return byoc__conv2d_winograd_run(st->call, t, t + st->nin, st->winograd, st->winograd_bias, st->winograd_act,
                                         lane->ws, lane->par, p->task_ws_bytes, d);
    return byoc_kernel_run_parallel(st->call, t, st->nin, t + st->nin, st->nout, lane->ws, lane->par, d);
}

/* (Re)allocates a DYNAMIC buffer for a value of this run's dims (the previous run's storage goes); 0 when memory
   runs out. */
BYOC__SIM_PRIVATE int byoc__sim_alloc_dynamic(byoc_sim_program *p, int value, const int64_t *dims) {
    byoc__sim_value *v = &p->values[value];
    byoc__sim_buffer *buf = &p->buffers[v->buffer];
    size_t n = byoc_dtype_size(v->dtype);
    for (int i = 0; i < v->rank; ++i) n *= (size_t)dims[i], v->rt_dims[i] = dims[i];
    v->rt_nbytes = n;
    if (buf->kind != BYOC_SIM_BUFFER_DYNAMIC) return 1;
    byoc__sim_mfree(p, buf->data);
    buf->size = n;
    return (buf->data = byoc__sim_malloc(p, n)) != NULL;
}

/* A step with '?' dims: its result types for this run from its arguments (byoc.h's type relation and shape
   function), its DYNAMIC results allocated for them, then its kernel typed for this run (workspace of its own:
   the shared one is sized for static shapes). */
BYOC__SIM_PRIVATE byoc_result byoc__sim_run_dynamic_step(byoc_sim_program *p, const byoc__sim_step *st, byoc_diag *d) {
    byoc_tensor *t = &p->tensors[st->tensor_first];
    for (int q = 0; q < st->nin; ++q) {
        const byoc__sim_value *v = &p->values[p->operands[st->in_first + q]];
        for (int i = 0; i < v->rank; ++i) t[q].dims[i] = v->rt_dims[i];
        t[q].data = byoc__sim_data(p, p->operands[st->in_first + q]);
    }
    const byoc_type *rt = byoc__run_time_type(p->m, st->call, t, st->nin, d);
    if (!rt) return d->code ? d->code : BYOC_ERR_INTERNAL;
    if (byoc__type_tensors(rt, t + st->nin, st->nout, 0, 0) != st->nout)
        return byoc__sim_fail(d, BYOC_ERR_INTERNAL, st->call, "byoc_sim_run: a result count changed at run time");
    for (int q = 0; q < st->nout; ++q) {
        int w = p->operands[st->out_first + q];
        if (!byoc__sim_alloc_dynamic(p, w, t[st->nin + q].dims))
            return byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, st->call, "byoc_sim_run: out of memory");
        t[st->nin + q].data = byoc__sim_data(p, w);
    }
    return byoc__kernel_run_retyped(p->m, st->call, rt, t, st->nin, t + st->nin, st->nout, d);
}

/* A qnn.conv2d group (byoc__sim_group_qconv): byoc.h's convolution with the bias and requantize as its epilogue */
BYOC__SIM_PRIVATE byoc_result byoc__sim_run_qconv(byoc_sim_program *p, const byoc__sim_kernel *k,
                                                  const byoc__sim_lane *lane, byoc_diag *d) {
    const byoc__sim_step *conv = &p->steps[k->step_first], *rq = &p->steps[k->step_first + k->nsteps - 1];
    const byoc__sim_step *bias = k->nsteps == 3 ? &p->steps[k->step_first + 1] : NULL;
    byoc_tensor *ct = &p->tensors[conv->tensor_first], *rt = &p->tensors[rq->tensor_first];
    for (int q = 0; q < 6; ++q) ct[q].data = byoc__sim_data(p, p->operands[conv->in_first + q]);
    for (int q = 1; q < 5; ++q) rt[q].data = byoc__sim_data(p, p->operands[rq->in_first + q]);
    rt[5].data = byoc__sim_data(p, p->operands[rq->out_first]);
    const void *b = bias ? byoc__sim_data(p, p->operands[bias->in_first + 1]) : NULL;
    return byoc__q8_conv_fused_run_parallel(conv->call, ct, &ct[6], (const int32_t *)b, rq->call, &rt[1], &rt[5],
                                            lane->ws, lane->par, p->task_ws_bytes, d);
}

/* One tile (outer index o, chunk c) of a TILED kernel, or of an ANCHOR kernel's epilogue: the chain's steps
   [first, end) on sub-tensor views, intermediates in the scratch slots at `scratch`. t: room for one step's
   tensors (the kernel's own, or a task's copy when tiles run on several threads at once). */
BYOC__SIM_PRIVATE byoc_result byoc__sim_run_tile(byoc_sim_program *p, const byoc__sim_kernel *k, int first, int end,
                                                 int64_t tile, char *scratch, void *ws, byoc_tensor *own,
                                                 byoc_diag *d) {
    char *final_slot = scratch + (size_t)k->scratch_slots * k->slot_bytes;
    int split = k->split;
    int64_t inner = 1, idx[BYOC_MAX_RANK] = {0}, o = tile / k->chunks, c = tile - o * k->chunks;
    for (int j = split + 1; j < k->rank; ++j) inner *= k->dims[j];
    for (int j = split - 1; j >= 0; --j) {
        idx[j] = o % k->dims[j];
        o /= k->dims[j];
    }
    int64_t at = c * k->chunk, e = k->dims[split] - at < k->chunk ? k->dims[split] - at : k->chunk;
    int var = e == k->chunk ? 0 : 1;
    for (int s = first; s < end; ++s) {
        const byoc__sim_step *st = &p->steps[s];
        int nops = st->nin + 1;
        byoc_tensor *t = &p->tensors[st->tile_tensor_first + var * nops];
        if (own) {
            memcpy(own, t, sizeof *t * (size_t)nops);
            t = own;
        }
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
    return BYOC_OK;
}

/* tiles over threads: task t runs a contiguous range of tiles with scratch and workspace of its own */
#define BYOC__SIM_TILE_TENSORS 16  /* a step's operands a task copies (elementwise ops take at most three) */
#define BYOC__SIM_PAR_ELEMENTS 32768 /* elements of a tiled kernel below which its tiles run on one thread */
typedef struct byoc__sim_tile_job {
    byoc_sim_program *p;
    const byoc__sim_kernel *k;
    int first, end;
    int64_t tiles, ntasks;
    byoc_result result[BYOC__SIM_TILE_TENSORS]; /* per task (ntasks <= this) */
    byoc_diag *diag[BYOC__SIM_TILE_TENSORS];
} byoc__sim_tile_job;
static void byoc__sim_tile_task(void *ctx, int64_t t) {
    byoc__sim_tile_job *job = BYOC__SIM_CAST(byoc__sim_tile_job *, ctx);
    byoc_sim_program *p = job->p;
    byoc_tensor own[BYOC__SIM_TILE_TENSORS];
    char *scratch = byoc__sim_aligned(p->scratch_block) + (size_t)t * p->task_scratch_bytes;
    char *ws = BYOC__SIM_CAST(char *, byoc__sim_aligned(p->workspace_block)) + (size_t)t * p->task_ws_bytes;
    int64_t lo = job->tiles * t / job->ntasks, hi = job->tiles * (t + 1) / job->ntasks;
    for (int64_t tile = lo; tile < hi && job->result[t] == BYOC_OK; ++tile)
        job->result[t] = byoc__sim_run_tile(p, job->k, job->first, job->end, tile, scratch, ws, own, job->diag[t]);
}

/* A TILED kernel, or an ANCHOR kernel's anchor and then its epilogue: every tile runs the chain's ops on sub-tensor
   views, intermediates in scratch slots. Tiles are disjoint slices of every operand (an in-place result takes
   exactly its input's slice), so they run on the program's threads in any order with the same bytes. */
BYOC__SIM_PRIVATE byoc_result byoc__sim_run_tiled(byoc_sim_program *p, const byoc__sim_kernel *k,
                                                  const byoc__sim_lane *lane, byoc_diag *d) {
    int first = k->step_first, end = k->step_first + k->nsteps;
    if (k->info.exec == BYOC_SIM_EXEC_ANCHOR) {
        byoc_result r = byoc__sim_run_step(p, &p->steps[first], lane, d);
        if (r != BYOC_OK || k->winograd_epilogue) return r; /* the Winograd kernel applied the epilogue */
        first++;
    }
    int64_t tiles = k->outer * k->chunks;
    int tasks = byoc__sim_par_tasks(lane->par), fits = 1;
    for (int s = first; s < end; ++s) fits &= p->steps[s].nin + 1 <= BYOC__SIM_TILE_TENSORS;
    if (tasks > BYOC__SIM_TILE_TENSORS) tasks = BYOC__SIM_TILE_TENSORS;
    if (tasks > tiles) tasks = (int)tiles;
    if (tasks < 2 || !fits || k->info.tile_elements * tiles < BYOC__SIM_PAR_ELEMENTS) {
        for (int64_t tile = 0; tile < tiles; ++tile) {
            byoc_result r = byoc__sim_run_tile(p, k, first, end, tile, lane->scratch, lane->ws, NULL, d);
            if (r != BYOC_OK) return r;
        }
        return BYOC_OK;
    }
    byoc__sim_tile_job job;
    byoc_diag diags[BYOC__SIM_TILE_TENSORS];
    memset(&job, 0, sizeof job);
    job.p = p;
    job.k = k;
    job.first = first;
    job.end = end;
    job.tiles = tiles;
    job.ntasks = tasks;
    for (int t = 0; t < tasks; ++t) {
        memset(&diags[t], 0, sizeof diags[t]);
        job.diag[t] = &diags[t];
    }
    lane->par->parallel_for(tasks, byoc__sim_tile_task, &job, lane->par->user);
    for (int t = 0; t < tasks; ++t)
        if (job.result[t] != BYOC_OK) {
            if (d) *d = diags[t];
            return job.result[t];
        }
    return BYOC_OK;
}

BYOC__SIM_PRIVATE byoc_result byoc__sim_take_result(byoc_sim_program *p, const byoc__sim_kernel *k,
                                                    const byoc_node *res, int *at, byoc_diag *d) {
    if (res->kind == BYOC_NODE_TUPLE) {
        for (int i = 0; i < res->nargs; ++i) {
            byoc_result r = byoc__sim_take_result(p, k, res->args[i], at, d);
            if (r != BYOC_OK) return r;
        }
        return BYOC_OK;
    }
    if (*at >= k->nout)
        return byoc__sim_fail(d, BYOC_ERR_TYPE, NULL,
                              "byoc_sim_run: the runtime module for @%s returned more than %d tensors", k->function,
                              k->nout);
    int v = p->operands[k->out_first + *at];
    const byoc__sim_value *val = &p->values[v];
    char want[160], got[160];
    byoc__sim_shape_string(val->dtype, val->rank, val->dims, want, sizeof want);
    const byoc_type *t =
        res->kind == BYOC_NODE_CONSTANT ? (res->annotation ? res->annotation : res->checked_type) : NULL;
    int same = t && t->kind == BYOC_TYPE_TENSOR && t->dtype == val->dtype && t->rank == val->rank &&
               byoc_constant_nbytes(res) == val->nbytes;
    for (int i = 0; same && i < val->rank; ++i) same = t->dims[i] == val->dims[i];
    if (!same) {
        if (t) byoc_type_to_string(t, got, sizeof got);
        else snprintf(got, sizeof got, "a node that is not a constant");
        return byoc__sim_fail(d, BYOC_ERR_TYPE, NULL,
                              "byoc_sim_run: the runtime module for @%s returned %s for result %d, expected %s",
                              k->function, got, *at, want);
    }
    memcpy(byoc__sim_data(p, v), res->data, val->nbytes);
    (*at)++;
    return BYOC_OK;
}

/* A partition's runtime module. Buffers and constant nodes convert here and only here: the kernel's input buffers are
   copied into the argument constants made at lowering, and the result constants the module returns into the kernel's
   output buffers. */
/* A partition compiled for a simulated device: its command stream runs on the kernel's buffers directly. */
BYOC__SIM_PRIVATE byoc_result byoc__sim_dispatch_device(byoc_sim_program *p, byoc__sim_kernel *k,
                                                        byoc_sim_device_program *dp, byoc_diag *d) {
    byoc_tensor io[128];
    if (k->nin + k->nout > 128)
        return byoc__sim_fail(d, BYOC_ERR_UNSUPPORTED, NULL, "byoc_sim_run: @%s has more than 128 inputs and outputs",
                              k->function);
    for (int q = 0; q < k->nin + k->nout; ++q) {
        int v = p->operands[(q < k->nin ? k->in_first : k->out_first - k->nin) + q];
        const byoc__sim_value *val = &p->values[v];
        io[q].dtype = val->dtype;
        io[q].rank = val->rank;
        memcpy(io[q].dims, val->dims, sizeof(int64_t) * (size_t)val->rank);
        io[q].data = byoc__sim_data(p, v);
    }
    byoc_sim_cost cost;
    byoc_diag dd;
    memset(&dd, 0, sizeof dd);
    byoc_result r = byoc_sim_device_run(dp, io, k->nin, io + k->nin, k->nout, &cost, &dd);
    if (r != BYOC_OK)
        return byoc__sim_fail(d, r, NULL, "byoc_sim_run: @%s on %s: %s", k->function, k->info.device, dd.message);
    k->info.cycles = cost.cycles;
    k->info.sim_seconds = cost.seconds;
    k->info.dram_bytes = cost.bytes_in + cost.bytes_out;
    k->info.macs = cost.macs;
    k->info.mac_utilization = cost.mac_utilization;
    k->info.commands = cost.commands;
    return BYOC_OK;
}

BYOC__SIM_PRIVATE byoc_result byoc__sim_dispatch_runtime(byoc_sim_program *p, const byoc__sim_kernel *k, byoc_diag *d) {
    const byoc_runtime_module *rm = byoc_module_runtime(p->m, k->function);
    if (!rm || !rm->run)
        return byoc__sim_fail(d, BYOC_ERR_NOT_FOUND, NULL, "byoc_sim_run: @%s no longer has a runtime module",
                              k->function);
    byoc_sim_device_program *dp = byoc__dv_program_of(rm);
    if (dp) return byoc__sim_dispatch_device(p, &p->kernels[k - p->kernels], dp, d);
    if (k->rt_device)
        return byoc__sim_fail(d, BYOC_ERR_INVALID_ARGUMENT, NULL,
                              "byoc_sim_run: @%s's runtime module changed since lowering", k->function);
    for (int q = 0; q < k->nin; ++q) {
        int v = p->operands[k->in_first + q];
        memcpy(p->rt_nodes[k->rt_leaf_first + q]->data, byoc__sim_data(p, v), p->values[v].nbytes);
    }
    byoc_node *res = NULL;
    byoc_diag rd;
    memset(&rd, 0, sizeof rd);
    byoc_result r = rm->run(rm->state, p->m, &p->rt_nodes[k->rt_first], k->rt_nargs, &res, &rd);
    if (r != BYOC_OK)
        return byoc__sim_fail(d, r, NULL, "byoc_sim_run: the runtime module for @%s: %s", k->function,
                              rd.message[0] ? rd.message : byoc_result_str(r));
    if (!res)
        return byoc__sim_fail(d, BYOC_ERR_INTERNAL, NULL, "byoc_sim_run: the runtime module for @%s returned no result",
                              k->function);
    int at = 0;
    r = byoc__sim_take_result(p, k, res, &at, d);
    if (r == BYOC_OK && at != k->nout)
        r = byoc__sim_fail(d, BYOC_ERR_TYPE, NULL,
                           "byoc_sim_run: the runtime module for @%s returned %d tensors, expected %d", k->function, at,
                           k->nout);
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

BYOC__SIM_PRIVATE void byoc__sim_update_medians(byoc_sim_program *p) {
    for (int i = 0; i < p->nkernels; ++i) byoc__sim_update_median(p, &p->kernels[i]);
    for (int b = 0; b < p->nbodies; ++b)
        if (p->bodies[b]->ready) byoc__sim_update_medians(p->bodies[b]);
}

BYOC__SIM_PRIVATE byoc_result byoc__sim_run_control(byoc_sim_program *p, byoc__sim_kernel *k, byoc_diag *d);
BYOC_SIM_API int byoc_sim_threads(const byoc_sim_program *p) {
    if (!p) return 0;
    return p->par.threads > 1 ? p->par.threads : 1;
}

BYOC__SIM_PRIVATE byoc_result byoc__sim_run_boxed_step(byoc_sim_program *p, const byoc__sim_step *st, byoc_diag *d);
BYOC__SIM_PRIVATE void byoc__sim_drop_boxes(byoc_sim_program *p);
BYOC__SIM_PRIVATE byoc_result byoc__sim_box_input(byoc_sim_program *p, int i, const byoc_sim_sequence *seq,
                                                  byoc_diag *d);
BYOC__SIM_PRIVATE int byoc__sim_take_box(byoc_sim_program *p, int v, const byoc_tensor *t);
BYOC__SIM_PRIVATE void byoc__sim_give_box(const byoc_sim_program *p, int v, byoc_tensor *t);
/* Runs kernel k where `lane` says and records its time. */
BYOC__SIM_PRIVATE byoc_result byoc__sim_run_kernel(byoc_sim_program *p, byoc__sim_kernel *k, const byoc__sim_lane *lane,
                                                   byoc_diag *kd) {
    byoc_result r = BYOC_OK;
    double t0 = BYOC_SIM_CLOCK();
    switch (k->info.exec) {
    case BYOC_SIM_EXEC_OPS:
        if (k->concat_slices) r = byoc__sim_run_concat_slices(p, k); /* the first step; then the group's others */
        else if (byoc__sim_run_rows(p, k)) break;                          /* the ops as row ranges over threads */
        for (int s = k->step_first + (k->concat_slices > 0); r == BYOC_OK && s < k->step_first + k->nsteps; ++s)
            r = p->steps[s].call->op->def.flags & BYOC_OP_SEQUENCE
                    ? byoc__sim_run_boxed_step(p, &p->steps[s], kd)
                : p->steps[s].dynamic ? byoc__sim_run_dynamic_step(p, &p->steps[s], kd)
                                      : byoc__sim_run_step(p, &p->steps[s], lane, kd);
        break;
    case BYOC_SIM_EXEC_TILED:
    case BYOC_SIM_EXEC_ANCHOR:
        r = k->qconv   ? byoc__sim_run_qconv(p, k, lane, kd)
            : k->fconv ? byoc__sim_run_fconv(p, k, lane, kd)
                       : byoc__sim_run_tiled(p, k, lane, kd);
        break;
    case BYOC_SIM_EXEC_RUNTIME: r = byoc__sim_dispatch_runtime(p, k, kd); break;
    case BYOC_SIM_EXEC_CONTROL: r = byoc__sim_run_control(p, k, kd); break;
    case BYOC_SIM_EXEC_COPY: {
        int v = p->operands[k->in_first], w = p->operands[k->out_first];
        if (p->values[v].boxed) { /* a body giving back a boxed parameter: the same value */
            p->values[w].box = p->values[v].box;
            break;
        }
        if (!byoc__sim_alloc_dynamic(p, w, p->values[v].rt_dims)) {
            r = byoc__sim_fail(kd, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
            break;
        }
        memcpy(byoc__sim_data(p, w), byoc__sim_data(p, v), p->values[v].rt_nbytes);
        break;
    }
    }
    double dt = BYOC_SIM_CLOCK() - t0;
    if (r != BYOC_OK) return r;
    p->samples[k->sample_first + k->next_sample] = dt;
    k->next_sample = (k->next_sample + 1) % BYOC_SIM_SAMPLES;
    if (k->nsamples < BYOC_SIM_SAMPLES) k->nsamples++;
    k->info.runs++;
    k->info.total_seconds += dt;
    return BYOC_OK;
}

/* A group of kernels side by side ("sim impl: kernels side by side"): lane t of min(threads, members) takes the next
   member no lane has taken (longest first), and runs it on one thread with lane t's workspace and tile scratch. */
typedef struct byoc__sim_group_job {
    byoc_sim_program *p;
    int first, n, lanes; /* the members: schedule positions first .. first + n - 1 */
    int next;            /* the next member to take */
    byoc_result result[BYOC__SIM_GROUP_MAX];
    byoc_diag diag[BYOC__SIM_GROUP_MAX];
} byoc__sim_group_job;
static void byoc__sim_group_lane(void *ctx, int64_t t) {
    byoc__sim_group_job *job = BYOC__SIM_CAST(byoc__sim_group_job *, ctx);
    byoc_sim_program *p = job->p;
    byoc_parallel serial;
    memset(&serial, 0, sizeof serial);
    byoc__sim_lane lane;
    lane.par = &serial;
    lane.ws = byoc__sim_aligned(p->workspace_block) + (size_t)t * p->task_ws_bytes;
    lane.scratch = byoc__sim_aligned(p->scratch_block) + (size_t)t * p->task_scratch_bytes;
#if defined(__GNUC__) || defined(__clang__)
    for (int m; (m = __atomic_fetch_add(&job->next, 1, __ATOMIC_RELAXED)) < job->n;)
#else /* without atomics each lane takes every lanes-th member */
    for (int m = (int)t; m < job->n; m += job->lanes)
#endif
        job->result[m] = byoc__sim_run_kernel(p, &p->kernels[p->order[job->first + m]], &lane, &job->diag[m]);
}
/* the group starting at schedule position `first`; *failed: the position of the first member that failed */
BYOC__SIM_PRIVATE byoc_result byoc__sim_run_group(byoc_sim_program *p, int first, int *failed, byoc_diag *d) {
    byoc__sim_group_job job;
    memset(&job, 0, sizeof job);
    job.p = p;
    job.first = first;
    job.n = p->together[first];
    job.lanes = byoc__sim_tasks_max(p) < job.n ? byoc__sim_tasks_max(p) : job.n;
    if (job.lanes > 1) p->par.parallel_for(job.lanes, byoc__sim_group_lane, &job, p->par.user);
    else job.lanes = 1, byoc__sim_group_lane(&job, 0);
    for (int m = 0; m < job.n; ++m)
        if (job.result[m] != BYOC_OK) {
            *failed = first + m;
            *d = job.diag[m];
            return job.result[m];
        }
    return BYOC_OK;
}

BYOC_SIM_API byoc_result byoc_sim_run(byoc_sim_program *p, const byoc_tensor *inputs, int ninputs, byoc_tensor *outputs,
                                      int noutputs, byoc_diag *diag) {
    byoc_diag local;
    byoc_diag *d = diag ? diag : &local;
    memset(d, 0, sizeof *d);
    if (!p) return byoc__null_arg(d, __func__, "program");
    if (ninputs != p->ninputs || (ninputs && !inputs))
        return byoc__sim_fail(d, BYOC_ERR_INVALID_ARGUMENT, NULL,
                              "byoc_sim_run: the program takes %d input%s, %d given", p->ninputs,
                              p->ninputs == 1 ? "" : "s", inputs ? ninputs : 0);
    for (int i = 0; i < ninputs; ++i) {
        const byoc_sim_io *io = &p->inputs[i].io;
        const byoc_tensor *t = &inputs[i];
        if (io->boxed && !t->data)
            return byoc__sim_fail(d, BYOC_ERR_INVALID_ARGUMENT, NULL, "byoc_sim_run: input %d (%s) is a sequence or "
                                  "an optional: its data must point to a byoc_sim_sequence", i, io->name);
        if (io->boxed) continue;
        int same = t->dtype == io->dtype && t->rank == io->rank;
        for (int j = 0; same && j < io->rank; ++j) /* a '?' takes any extent */
            same = t->dims[j] == io->dims[j] || (io->dims[j] < 0 && t->dims[j] >= 0);
        if (!same) {
            char want[160], got[160];
            byoc__sim_shape_string(io->dtype, io->rank, io->dims, want, sizeof want);
            if (t->rank < 0 || t->rank > BYOC_MAX_RANK) snprintf(got, sizeof got, "a tensor of rank %d", t->rank);
            else byoc__sim_shape_string(t->dtype, t->rank, t->dims, got, sizeof got);
            return byoc__sim_fail(d, BYOC_ERR_TYPE, NULL, "byoc_sim_run: input %d (%s): expected %s, got %s", i,
                                  io->name, want, got);
        }
        if (!t->data && io->nbytes)
            return byoc__sim_fail(d, BYOC_ERR_INVALID_ARGUMENT, NULL, "byoc_sim_run: input %d (%s): no data", i,
                                  io->name);
    }
    if (outputs && noutputs != p->noutputs)
        return byoc__sim_fail(d, BYOC_ERR_INVALID_ARGUMENT, NULL, "byoc_sim_run: the program has %d output%s, %d given",
                              p->noutputs, p->noutputs == 1 ? "" : "s", noutputs);
    if (!p->ready && !byoc__sim_prepare(p))
        return byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, NULL, "byoc_sim_run: out of memory");
    for (int i = 0; i < ninputs; ++i) {
        if (p->values[p->inputs[i].value].boxed) {
            if (p->depth) byoc__sim_take_box(p, p->inputs[i].value, &inputs[i]); /* @main's: after the drop below */
            continue;
        }
        p->buffers[p->values[p->inputs[i].value].buffer].data = inputs[i].data;
        byoc__sim_alloc_dynamic(p, p->inputs[i].value, inputs[i].dims); /* this run's dims, the caller's storage */
    }
    byoc__sim_drop_boxes(p); /* the last run's */
    for (int i = 0; i < ninputs && !p->depth; ++i) {
        byoc_result r = byoc__sim_box_input(p, i, BYOC__SIM_CAST(const byoc_sim_sequence *, inputs[i].data), d);
        if (r != BYOC_OK) return r;
    }
    p->nevents = p->events_dropped = 0; /* this run's kernels inside bodies */
    if (!p->depth) byoc__pool_run_begin(p->pool); /* "sim impl: threads (awake through a run)" */
    byoc__sim_lane main_lane;
    main_lane.par = &p->par;
    main_lane.ws = byoc__sim_aligned(p->workspace_block);
    main_lane.scratch = byoc__sim_aligned(p->scratch_block);
    for (int i = 0; i < p->nkernels; ++i) {
        int at = i; /* the kernel that failed: its position in the schedule */
        byoc_diag kd;
        memset(&kd, 0, sizeof kd);
        byoc_result r = p->together[i] > 1 ? byoc__sim_run_group(p, i, &at, &kd)
                                            : byoc__sim_run_kernel(p, &p->kernels[p->order[i]], &main_lane, &kd);
        if (p->together[i] > 1) i += p->together[i] - 1;
        if (r != BYOC_OK) {
            byoc__sim_kernel *k = &p->kernels[p->order[at]];
            if (!p->depth) byoc__pool_run_end(p->pool);
            if (k->info.exec == BYOC_SIM_EXEC_RUNTIME) { /* its message already says where */
                *d = kd;
                return r;
            }
            return byoc__sim_fail(d, r, NULL, "byoc_sim_run: kernel %d (%s): %s", p->order[at], k->info.name,
                                  kd.message[0] ? kd.message : byoc_result_str(r));
        }
    }
    if (!p->depth) byoc__pool_run_end(p->pool);
    /* medians: a body's program runs once per iteration, its medians are brought up to date once per run of
       @main's program, here */
    if (!p->depth) byoc__sim_update_medians(p);
    /* the simulated timeline: one kernel after another; a runtime module of no simulated device counts its wall time */
    double at = 0;
    for (int i = 0; i < p->nkernels; ++i) {
        byoc_sim_kernel_info *ki = &p->kernels[i].info;
        if (ki->exec == BYOC_SIM_EXEC_RUNTIME &&
            !byoc__dv_program_of(byoc_module_runtime(p->m, p->kernels[i].function)))
            ki->sim_seconds = ki->median_seconds;
        ki->sim_start = at;
        at += ki->sim_seconds;
    }
    for (int i = 0; outputs && i < noutputs; ++i) {
        const byoc_sim_io *io = &p->outputs[i].io;
        byoc_tensor *t = &outputs[i];
        memset(t, 0, sizeof *t);
        t->dtype = io->dtype;
        t->rank = io->rank;
        for (int j = 0; j < io->rank; ++j) t->dims[j] = p->values[p->outputs[i].value].rt_dims[j]; /* '?': this run's */
        t->data = byoc__sim_data(p, p->outputs[i].value);
        if (p->depth) byoc__sim_give_box(p, p->outputs[i].value, t); /* @main's: byoc_sim_output_element */
    }
    return BYOC_OK;
}

// [SECTION] sim impl: sequences and optionals (boxed values)
/* ONNX's sequences and optionals (onnx/defs/sequence/defs.cc) have data-dependent lengths and element shapes, so
   they cannot live in the static plan. A value of such a type is "boxed": its step gives it a DYNAMIC buffer of 0
   bytes (the plan and the access list see it, it takes no arena space) and, at run time, a node in p->boxes: a
   sequence value (byoc_sequence_value), an empty optional, or a tensor constant. The sequence ops are host kernels
   of their own (OPS kernels of one step, listed by the profile), evaluated by byoc.h's byoc__seq_eval on those
   nodes: they move tensors and compute nothing, so sharing the reference evaluator's code keeps one definition
   of their semantics. Ifs and loops carry them into and out of their bodies (below). Ownership follows the loop's
   run-time scan buffers: the heap, owned by @main's program, whose p->boxes its bodies borrow. It is dropped at the
   start of every run and by byoc_sim_program_destroy (@main's boxed outputs are read until then, as its other
   outputs); a loop's iterations keep adding to it until the run ends. ONNX Runtime holds them alike: TensorSeq values
   allocated per run, outside its memory pattern planner. */
BYOC__SIM_PRIVATE int byoc__sim_new_boxed_value(byoc__sim_lowering *L, const byoc_type *t) {
    byoc_sim_program *p = L->p;
    if (!BYOC__SIM_RESERVE(p, p->values, p->cap_values, p->nvalues + 1)) return BYOC__SIM_OOM(L) - 1;
    byoc__sim_value *v = &p->values[p->nvalues];
    memset(v, 0, sizeof *v);
    v->buffer = -1; /* its step gives it a DYNAMIC buffer (dynamic: no bytes in the plan) */
    v->producer = -1;
    v->dtype = t->dtype;
    v->boxed = v->dynamic = 1;
    v->box_type = t;
    return p->nvalues++;
}

BYOC__SIM_PRIVATE void byoc__sim_drop_boxes(byoc_sim_program *p) {
    if (!p->boxes || p->depth) return; /* a body's boxes are @main's program's */
    byoc_module_destroy(p->boxes);
    p->boxes = NULL;
    for (int v = 0; v < p->nvalues; ++v) p->values[v].box = NULL;
}

/* p->boxes, made on first use by @main's program (a body's is set by its control kernel before each run) */
BYOC__SIM_PRIVATE byoc_module *byoc__sim_boxes(byoc_sim_program *p) {
    if (!p->boxes && !p->depth) p->boxes = byoc_module_create(p->alloc.alloc_fn ? &p->alloc : NULL);
    return p->boxes;
}

/* Between a control kernel and its bodies' programs (byoc_sim_run's inputs and outputs), a boxed value travels
   as a byoc_tensor of rank 0 whose data is its node: bodies share @main's program's p->boxes, so the node stays
   valid for the whole run. @main's own inputs and outputs are never boxed (lowering refuses them). */
BYOC__SIM_PRIVATE void byoc__sim_give_box(const byoc_sim_program *p, int v, byoc_tensor *t) {
    if (p->values[v].boxed) t->data = p->values[v].box;
}
/* 1 when value v is boxed: it takes t's node */
BYOC__SIM_PRIVATE int byoc__sim_take_box(byoc_sim_program *p, int v, const byoc_tensor *t) {
    if (!p->values[v].boxed) return 0;
    p->values[v].box = BYOC__SIM_CAST(byoc_node *, t->data);
    return 1;
}

BYOC__SIM_PRIVATE void byoc__sim_value_tensor(const byoc_sim_program *p, int v, byoc_tensor *t);
BYOC__SIM_PRIVATE size_t byoc__sim_tensor_bytes(const byoc_tensor *t);
/* output i's node after a run, NULL for a tensor output or before a run */
BYOC__SIM_PRIVATE const byoc_node *byoc__sim_output_box(const byoc_sim_program *p, int i) {
    if (i < 0 || i >= p->noutputs) return NULL;
    const byoc__sim_value *v = &p->values[p->outputs[i].value];
    return v->boxed ? v->box : NULL;
}

BYOC_SIM_API int byoc_sim_output_elements(const byoc_sim_program *p, int i) {
    if (!p || i < 0 || i >= p->noutputs) return 0;
    if (!p->values[p->outputs[i].value].boxed) return 1;
    const byoc_node *b = byoc__sim_output_box(p, i);
    if (!b) return 0;
    if (byoc__is_none_value(b)) return -1;
    return byoc__is_sequence_value(b) ? b->nargs : 1;
}

BYOC_SIM_API byoc_result byoc_sim_output_element(const byoc_sim_program *p, int i, int k, byoc_tensor *element,
                                                 byoc_diag *diag) {
    byoc_diag local;
    byoc_diag *d = diag ? diag : &local;
    memset(d, 0, sizeof *d);
    if (!p) return byoc__null_arg(d, __func__, "program");
    if (!element) return byoc__null_arg(d, __func__, "element");
    int n = byoc_sim_output_elements(p, i);
    if (k < 0 || k >= n)
        return byoc__sim_fail(d, BYOC_ERR_INVALID_ARGUMENT, NULL,
                              "byoc_sim_output_element: output %d has %d element%s in the last run, no element %d", i,
                              n < 0 ? 0 : n, n == 1 ? "" : "s", k);
    memset(element, 0, sizeof *element);
    const byoc_node *b = byoc__sim_output_box(p, i);
    if (!b) { /* a tensor output: itself */
        byoc__sim_value_tensor(p, p->outputs[i].value, element);
        return BYOC_OK;
    }
    const byoc_node *c = byoc__is_sequence_value(b) ? b->args[k] : b;
    const byoc_type *t = c->annotation;
    element->dtype = t->dtype;
    element->rank = t->rank;
    for (int a = 0; a < t->rank; ++a) element->dims[a] = t->dims[a];
    element->data = c->data;
    return BYOC_OK;
}

/* @main's input i, when it is boxed: the caller's sequence copied into p->boxes, checked against its type */
BYOC__SIM_PRIVATE byoc_result byoc__sim_box_input(byoc_sim_program *p, int i, const byoc_sim_sequence *seq,
                                                  byoc_diag *d) {
    byoc__sim_value *v = &p->values[p->inputs[i].value];
    if (!v->boxed) return BYOC_OK;
    const char *name = p->inputs[i].io.name;
    const byoc_type *t = v->box_type, *inner = t->kind == BYOC_TYPE_OPTIONAL ? t->fields[0] : t;
    int many = inner->kind == BYOC_TYPE_SEQUENCE;
    if (!byoc__sim_boxes(p)) return byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, NULL, "byoc_sim_run: out of memory");
    if (seq->count < 0 ? t->kind != BYOC_TYPE_OPTIONAL : (!many && seq->count != 1) || (seq->count && !seq->elements))
        return byoc__sim_fail(d, BYOC_ERR_INVALID_ARGUMENT, NULL,
                              "byoc_sim_run: input %d (%s): %d elements given for a %s", i, name, seq->count,
                              t->kind == BYOC_TYPE_OPTIONAL ? "optional" : "sequence");
    if (seq->count < 0) return (v->box = byoc_optional_none(p->boxes, t)) ? BYOC_OK : BYOC_ERR_OUT_OF_MEMORY;
    byoc_node **elems = BYOC__SIM_CAST(byoc_node **, byoc__sim_malloc(p, sizeof *elems * (size_t)(seq->count + 1)));
    if (!elems) return byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, NULL, "byoc_sim_run: out of memory");
    int ok = 1;
    for (int k = 0; k < seq->count && ok; ++k) {
        const byoc_tensor *e = &seq->elements[k];
        const byoc_type *et = e->rank >= 0 && e->rank <= BYOC_MAX_RANK ? byoc_tensor_type(p->boxes, e->dtype, e->rank,
                                                                                          e->dims) : NULL;
        ok = et && (elems[k] = byoc_constant(p->boxes, et, e->data, byoc__sim_tensor_bytes(e))) != NULL;
    }
    v->box = !ok ? NULL : many ? byoc_sequence_value(p->boxes, inner, elems, seq->count) : elems[0];
    byoc__sim_mfree(p, elems);
    if (v->box && (many || byoc__value_fits(v->box, t))) return BYOC_OK;
    const byoc_diag *why = byoc_module_error(p->boxes);
    return byoc__sim_fail(d, BYOC_ERR_TYPE, NULL, "byoc_sim_run: input %d (%s): %s", i, name,
                          why && why->message[0] ? why->message : "an element does not fit its type");
}

/* value w as a node of p->boxes: its box, or a constant copy of the tensor (this run's shape) */
BYOC__SIM_PRIVATE byoc_node *byoc__sim_box_of(byoc_sim_program *p, int w) {
    const byoc__sim_value *v = &p->values[w];
    if (v->boxed) return v->box;
    const byoc_type *t = byoc_tensor_type(p->boxes, v->dtype, v->rank, v->rt_dims);
    return t ? byoc_constant(p->boxes, t, byoc__sim_data(p, w), v->rt_nbytes) : NULL;
}

/* a tensor result of a sequence op (sequence.at, .length, .concat, optional.has_element, .get_element) copied
   into its value's buffer: the plan's, or a DYNAMIC one of this run's shape */
BYOC__SIM_PRIVATE byoc_result byoc__sim_unbox(byoc_sim_program *p, const byoc__sim_step *st, int w,
                                              const byoc_node *r, byoc_diag *d) {
    const byoc__sim_value *v = &p->values[w];
    const byoc_type *rt = r->kind == BYOC_NODE_CONSTANT ? r->annotation : NULL;
    const char *op = st->call->op->def.name;
    if (!rt || rt->dtype != v->dtype || rt->rank != v->rank)
        return byoc__sim_fail(d, BYOC_ERR_TYPE, st->call, "byoc_sim_run: %s gave a value of another type than its "
                              "tensor result's", op);
    for (int i = 0; i < rt->rank; ++i)
        if (v->dims[i] >= 0 && rt->dims[i] != v->dims[i])
            return byoc__sim_fail(d, BYOC_ERR_TYPE, st->call,
                                  "byoc_sim_run: %s gave a tensor of extent %lld along axis %d, its type says %lld", op,
                                  (long long)rt->dims[i], i, (long long)v->dims[i]);
    if (!byoc__sim_alloc_dynamic(p, w, rt->dims))
        return byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, st->call, "byoc_sim_run: out of memory");
    if (p->values[w].rt_nbytes) memcpy(byoc__sim_data(p, w), r->data, p->values[w].rt_nbytes);
    return BYOC_OK;
}

/* one sequence or optional op: its arguments as nodes, byoc.h's evaluation, its result boxed or unboxed */
BYOC__SIM_PRIVATE byoc_result byoc__sim_run_boxed_step(byoc_sim_program *p, const byoc__sim_step *st, byoc_diag *d) {
    if (!byoc__sim_boxes(p)) return byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, st->call, "byoc_sim_run: out of memory");
    byoc_node *small[8], **ins = small;
    if (st->nin > 8 && !(ins = BYOC__SIM_CAST(byoc_node **, byoc__sim_malloc(p, sizeof *ins * (size_t)st->nin))))
        return byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, st->call, "byoc_sim_run: out of memory");
    int ok = 1;
    for (int q = 0; q < st->nin && ok; ++q) ok = (ins[q] = byoc__sim_box_of(p, p->operands[st->in_first + q])) != NULL;
    byoc_node *r = ok ? byoc__seq_eval(p->boxes, st->call, ins, d) : NULL;
    if (ins != small) byoc__sim_mfree(p, ins);
    if (!r) {
        if (d->code) return d->code;
        return byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, st->call, "byoc_sim_run: %s: out of memory",
                              st->call->op->def.name);
    }
    int w = p->operands[st->out_first];
    if (!p->values[w].boxed) return byoc__sim_unbox(p, st, w, r, d);
    p->values[w].box = r;
    return BYOC_OK;
}

// [SECTION] sim impl: control flow (bodies as programs)
/* An if or a loop is one CONTROL kernel of the enclosing schedule. Each body (a closed function: every outer value
   it uses is a capture, an input of the control node) is lowered as a program of its own, with its own kernels,
   static memory plan and outputs, exactly as @main is; the kernel runs those programs through byoc_sim_run:
     if    reads the condition and runs the then or the else program on the captures;
     loop  runs its body's program while iteration < max_trip and the condition holds, as ONNX Loop
           (onnx/defs/controlflow: M and cond; TVM's Relay writes the same loop as a recursive function), and
           ONNX Runtime's loop kernel (onnxruntime/core/providers/cpu/controlflow/loop.cc) feeds each iteration's
           carried outputs back as the next one's inputs and concatenates the scan outputs at the end.
   A let needs no kernel: its body is lowered inline with its parameters bound to the value and the captures (see
   byoc__sim_lower_fn), as Relay's let binds a var in the enclosing scope.
   Here the carried values live in the loop kernel's own result buffers: the body reads them there and its results
   (in the body program's output storage, never the same memory) are copied back after each iteration, so a body
   that swaps two carried values reads neither half-written. Scan outputs are appended slice by slice: into their
   arena buffer when the loop's type gives the stacked shape, else (a data-dependent trip count, '?' leading
   extent) into a DYNAMIC buffer that grows by doubling and is kept for the next run. A carried value must keep its
   shape from one iteration to the next (the arena of the body is planned once), which the runtime checks.
   A body's program is lowered once and its memory is allocated on its first run: every iteration and every run
   reuses it. Partitions called inside a body run on their device only when the body runs. */

#define BYOC__SIM_MAX_EVENTS 100000 /* kernels inside bodies kept per run for traces (the rest are counted) */
typedef struct byoc__sim_event {
    const char *name, *ops, *kind, *where, *partition;
    const byoc_sim_device *dev; /* the simulated device it ran on, NULL on the host */
    int kernel;          /* the control kernel of this program the event happened in */
    int body, body_kernel; /* which of its bodies, and the kernel in that body's program (innermost) */
    int depth;           /* 1 for a kernel of a body of this program's kernel, 2 inside a body of that, ... */
    int control;         /* the event is itself a control kernel (its bodies' events follow it) */
    int64_t iteration;   /* the iteration of the innermost loop around it, 0 when only ifs are */
    int in_loop;         /* iteration comes from a loop */
    double start, seconds; /* simulated; start counts from the control kernel's start */
    uint64_t cycles;
} byoc__sim_event;

BYOC__SIM_PRIVATE const char *byoc__sim_kernel_where(const byoc_sim_program *p, int i, const byoc_sim_device **dev);

/* "loop (onnx:Loop_3)": what messages and kernel names call a control node */
BYOC__SIM_PRIVATE void byoc__sim_control_name(const byoc_node *n, char *out, size_t cap) {
    const char *what = n->kind == BYOC_NODE_IF ? "if" : n->kind == BYOC_NODE_LET ? "let" : "loop";
    const char *src = byoc_node_span(n)->source;
    if (src && *src) snprintf(out, cap, "%s (%s)", what, src);
    else snprintf(out, cap, "%s", what);
}

/* Lowers body b of control node n as a program of its own (appended to p->bodies). */
BYOC__SIM_PRIVATE int byoc__sim_lower_body(byoc__sim_lowering *L, const byoc_node *n, int b, int depth) {
    byoc_sim_program *p = L->p;
    if (depth > BYOC__SIM_MAX_DEPTH)
        return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, n, "byoc_sim_lower: control flow nested too deeply");
    if (!BYOC__SIM_RESERVE(p, p->bodies, p->cap_bodies, p->nbodies + 1)) return BYOC__SIM_OOM(L);
    byoc_sim_options o = p->opt;
    o.allocator = p->alloc.alloc_fn ? &p->alloc : NULL;
    o.host = &p->host;
    o.threads = 0; /* the owner's threads, not a pool of its own */
    o.parallel = p->par.threads > 1 ? &p->par : NULL;
    byoc_diag bd;
    memset(&bd, 0, sizeof bd);
    byoc_sim_program *sub = byoc__sim_program_new(p->m, &o, &bd);
    if (sub) {
        sub->depth = p->depth + 1;
        if (!byoc__sim_lower_program(sub, n->params[b], depth, &bd)) {
            byoc_sim_program_destroy(sub);
            sub = NULL;
        }
    }
    if (!sub) { /* the body's message names the node inside it */
        L->error = bd.code ? bd.code : BYOC_ERR_INTERNAL;
        if (L->diag) *L->diag = bd;
        return 0;
    }
    p->bodies[p->nbodies++] = sub;
    const byoc_sim_memory_plan *sp = &sub->plan;
    p->plan.bodies += 1 + sp->bodies;
    p->plan.body_bytes += sp->arena_bytes + sp->output_bytes + sp->workspace_bytes + sp->tile_scratch_bytes +
                          sp->body_bytes;
    return 1;
}

/* An if or a loop over the values leaves[in_first, +nin) (its inputs' leaves): one CONTROL kernel, a program per
   body, and new values for its result. */
BYOC__SIM_PRIVATE int byoc__sim_lower_control(byoc__sim_lowering *L, const byoc_node *n, int in_first, int nin,
                                              const char *partition, int depth, int *rf, int *rc) {
    byoc_sim_program *p = L->p;
    char what[200];
    byoc__sim_control_name(n, what, sizeof what);
    int nout = byoc__sim_leaf_count(n->checked_type), head_leaves = 0;
    for (int a = 0; a < byoc__control_head(n); ++a) head_leaves += byoc__sim_leaf_count(n->args[a]->checked_type);
    if (nout < 1)
        return byoc__sim_lower_fail(L, BYOC_ERR_UNSUPPORTED, n,
                                    "byoc_sim_lower: %s: its result is not a tensor or a tuple of tensors", what);
    int k = byoc__sim_new_kernel(L, BYOC_SIM_EXEC_CONTROL, partition);
    if (k < 0) return 0;
    int body_first = p->nbodies, most = 0;
    for (int b = 0; b < n->nparams; ++b)
        if (!byoc__sim_lower_body(L, n, b, depth + 1)) return 0;
    /* what each body's program takes and gives back: if (captures) -> result;
       loop (iteration, cond, carried, captures) -> (cond, carried, scans) */
    int ncarried = n->kind == BYOC_NODE_LOOP ? head_leaves - 2 : 0;
    int want_in = n->kind == BYOC_NODE_IF ? nin - 1 : nin, want_out = n->kind == BYOC_NODE_LOOP ? nout + 1 : nout;
    for (int b = 0; b < n->nparams; ++b) {
        const byoc_sim_program *sub = p->bodies[body_first + b];
        if (sub->ninputs != want_in || sub->noutputs != want_out || ncarried < 0 || ncarried > nout)
            return byoc__sim_lower_fail(L, BYOC_ERR_INTERNAL, n,
                                        "byoc_sim_lower: %s: body %d takes %d tensors and gives %d, expected %d and %d",
                                        what, b, sub->ninputs, sub->noutputs, want_in, want_out);
        if (sub->ninputs + sub->noutputs > most) most = sub->ninputs + sub->noutputs;
    }
    if (!BYOC__SIM_RESERVE(p, p->operands, p->cap_operands, p->noperands + nin + nout) ||
        !BYOC__SIM_RESERVE(p, p->tensors, p->cap_tensors, p->ntensors + most))
        return BYOC__SIM_OOM(L);
    byoc__sim_kernel *kk = &p->kernels[k];
    kk->control = n;
    kk->body_first = body_first;
    kk->nbodies = n->nparams;
    kk->ncarried = ncarried;
    kk->io_first = p->ntensors;
    p->ntensors += most;
    kk->in_first = p->noperands;
    kk->nin = nin;
    for (int q = 0; q < nin; ++q) p->operands[p->noperands++] = L->leaves[in_first + q];
    kk->out_first = p->noperands;
    kk->nout = nout;
    p->noperands += nout;
    *rf = L->nleaves;
    *rc = nout;
    for (int i = 0; i < nout; ++i) {
        L->allow_dynamic = 1; /* a scan output's trip count, a branch's '?' extents: known at run time */
        int v = byoc__sim_new_value(L, byoc__sim_leaf_at(n->checked_type, i), -1, n);
        L->allow_dynamic = 0;
        int b = v >= 0 ? byoc__sim_new_buffer(L, p->values[v].dynamic ? BYOC_SIM_BUFFER_DYNAMIC : BYOC_SIM_BUFFER_ARENA,
                                              p->values[v].nbytes)
                       : -1;
        if (b < 0) return 0;
        p->values[v].buffer = b;
        p->operands[p->kernels[k].out_first + i] = v;
        if (!byoc__sim_push_leaf(L, v)) return 0;
    }
    const char *name = byoc__sim_strdup(p, what, strlen(what));
    const char *ops = n->kind == BYOC_NODE_IF ? "if" : n->kind == BYOC_NODE_LET ? "let" : "loop";
    if (!name) return BYOC__SIM_OOM(L);
    p->kernels[k].info.name = name;
    p->kernels[k].info.ops = ops;
    p->kernels[k].info.nops = 1;
    return 1;
}

/* value v as a tensor of this run's shape, over its storage */
BYOC__SIM_PRIVATE void byoc__sim_value_tensor(const byoc_sim_program *p, int v, byoc_tensor *t) {
    const byoc__sim_value *val = &p->values[v];
    memset(t, 0, sizeof *t);
    t->dtype = val->dtype;
    t->rank = val->rank;
    for (int i = 0; i < val->rank; ++i) t->dims[i] = val->rt_dims[i];
    t->data = byoc__sim_data(p, v);
    byoc__sim_give_box(p, v, t);
}

/* a scalar condition or trip count, exactly (an int64 through a double would lose its low bits) */
BYOC__SIM_PRIVATE int64_t byoc__sim_scalar_i64(const byoc_sim_program *p, int v) {
    const byoc__sim_value *val = &p->values[v];
    const char *data = byoc__sim_data(p, v);
    if (val->dtype == BYOC_INT64) {
        int64_t x;
        memcpy(&x, data, sizeof x);
        return x;
    }
    double x = byoc__load(val->dtype, data, 0);
    return x != x ? 1 : x >= 9.2e18 ? INT64_MAX : x <= -9.2e18 ? INT64_MIN : (int64_t)x;
}

BYOC__SIM_PRIVATE int byoc__sim_tensor_same_shape(const byoc_tensor *a, const byoc__sim_value *v) {
    if (a->dtype != v->dtype || a->rank != v->rank) return 0;
    for (int i = 0; i < a->rank; ++i)
        if (a->dims[i] != v->rt_dims[i]) return 0;
    return 1;
}

BYOC__SIM_PRIVATE size_t byoc__sim_tensor_bytes(const byoc_tensor *t) {
    size_t n = byoc_dtype_size(t->dtype);
    for (int i = 0; i < t->rank; ++i) n *= (size_t)t->dims[i];
    return n;
}

/* Records the kernels body b's program ran (and the kernels inside its own bodies) for traces and profiles;
   *at is where the body's run starts on the control kernel's simulated timeline. */
BYOC__SIM_PRIVATE void byoc__sim_record_body(byoc_sim_program *p, int k, int b, int64_t iteration, double at) {
    const byoc_sim_program *sub = p->bodies[p->kernels[k].body_first + b];
    int need = p->nevents + sub->nkernels + sub->nevents;
    if (need > BYOC__SIM_MAX_EVENTS || !BYOC__SIM_RESERVE(p, p->events, p->cap_events, need)) {
        p->events_dropped += sub->nkernels + sub->nevents;
        return;
    }
    for (int j = 0; j < sub->nkernels; ++j) {
        const byoc_sim_kernel_info *ki = &sub->kernels[j].info;
        const byoc_sim_device *dev = NULL;
        byoc__sim_event *e = &p->events[p->nevents++];
        e->name = ki->name;
        e->ops = ki->ops;
        e->kind = ki->device_kind;
        e->where = byoc__sim_kernel_where(sub, j, &dev);
        e->dev = dev;
        e->partition = ki->partition;
        e->kernel = k;
        e->body = b;
        e->body_kernel = j;
        e->depth = 1;
        e->control = ki->exec == BYOC_SIM_EXEC_CONTROL;
        e->iteration = iteration;
        e->in_loop = p->kernels[k].control->kind == BYOC_NODE_LOOP;
        e->start = at + ki->sim_start;
        e->seconds = ki->sim_seconds;
        e->cycles = ki->cycles;
        for (int x = 0; x < sub->nevents; ++x) { /* the kernels inside this one's bodies, right after it */
            const byoc__sim_event *in = &sub->events[x];
            if (in->kernel != j) continue;
            byoc__sim_event *o = &p->events[p->nevents++];
            *o = *in;
            o->kernel = k;
            o->depth = in->depth + 1;
            if (!in->in_loop) { /* inside ifs only: the iteration is this kernel's */
                o->iteration = iteration;
                o->in_loop = e->in_loop;
            }
            o->start = at + ki->sim_start + in->start;
        }
    }
}

/* Runs body b on the tensors in[], its results in out[] (views of its program's memory); adds its simulated time
   to *at. */
BYOC__SIM_PRIVATE byoc_result byoc__sim_run_body(byoc_sim_program *p, byoc__sim_kernel *k, int b, int64_t iteration,
                                                 double *at, byoc_diag *d) {
    byoc_sim_program *sub = p->bodies[k->body_first + b];
    byoc_tensor *io = &p->tensors[k->io_first];
    byoc_diag bd;
    if (!byoc__sim_boxes(p)) return byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, k->control, "out of memory");
    sub->boxes = p->boxes; /* sequences cross into and out of bodies as they are */
    byoc_result r = byoc_sim_run(sub, io, sub->ninputs, io + sub->ninputs, sub->noutputs, &bd);
    if (r != BYOC_OK) {
        const char *msg = bd.message, *prefix = "byoc_sim_run: ";
        if (!strncmp(msg, prefix, strlen(prefix))) msg += strlen(prefix);
        const char *part = k->control->kind == BYOC_NODE_IF ? (b ? "the else branch" : "the then branch") : "its body";
        if (k->control->kind == BYOC_NODE_LOOP)
            return byoc__sim_fail(d, r, k->control, "iteration %lld of its body: %s", (long long)iteration, msg);
        return byoc__sim_fail(d, r, k->control, "%s: %s", part, msg);
    }
    int ki = (int)(k - p->kernels);
    byoc__sim_record_body(p, ki, b, iteration, *at);
    *at += byoc_sim_latency(sub);
    return BYOC_OK;
}

/* result i of the control kernel: a body's tensor t copied in (a '?' extent takes t's) */
BYOC__SIM_PRIVATE byoc_result byoc__sim_control_result(byoc_sim_program *p, const byoc__sim_kernel *k, int i,
                                                       const byoc_tensor *t, byoc_diag *d) {
    int w = p->operands[k->out_first + i];
    if (byoc__sim_take_box(p, w, t)) return BYOC_OK;
    const byoc__sim_value *val = &p->values[w];
    int same = t->dtype == val->dtype && t->rank == val->rank;
    for (int j = 0; same && j < val->rank; ++j) same = val->dims[j] < 0 || val->dims[j] == t->dims[j];
    if (!same) {
        char want[160], got[160];
        byoc__sim_shape_string(val->dtype, val->rank, val->dims, want, sizeof want);
        byoc__sim_shape_string(t->dtype, t->rank, t->dims, got, sizeof got);
        return byoc__sim_fail(d, BYOC_ERR_TYPE, k->control, "result %d is %s, its type says %s", i, got, want);
    }
    if (!byoc__sim_alloc_dynamic(p, w, t->dims))
        return byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
    memcpy(byoc__sim_data(p, w), t->data, byoc__sim_tensor_bytes(t));
    return BYOC_OK;
}

/* if: the condition picks a branch, whose program runs on the captures */
BYOC__SIM_PRIVATE byoc_result byoc__sim_run_if(byoc_sim_program *p, byoc__sim_kernel *k, double *at, byoc_diag *d) {
    int b = byoc__sim_scalar_i64(p, p->operands[k->in_first]) ? 0 : 1;
    byoc_sim_program *sub = p->bodies[k->body_first + b];
    byoc_tensor *io = &p->tensors[k->io_first];
    for (int q = 0; q < sub->ninputs; ++q) byoc__sim_value_tensor(p, p->operands[k->in_first + 1 + q], &io[q]);
    byoc_result r = byoc__sim_run_body(p, k, b, 0, at, d);
    for (int i = 0; r == BYOC_OK && i < k->nout; ++i) r = byoc__sim_control_result(p, k, i, &io[sub->ninputs + i], d);
    k->iterations = b;
    return r;
}

/* Appends one iteration's slice to scan output i (a result after the carried values). */
BYOC__SIM_PRIVATE byoc_result byoc__sim_scan_append(byoc_sim_program *p, const byoc__sim_kernel *k, int i,
                                                    int64_t iteration, const byoc_tensor *slice, byoc_diag *d) {
    int w = p->operands[k->out_first + i];
    byoc__sim_value *val = &p->values[w];
    byoc__sim_buffer *buf = &p->buffers[val->buffer];
    size_t bytes = byoc__sim_tensor_bytes(slice);
    int same = slice->dtype == val->dtype && slice->rank + 1 == val->rank;
    for (int j = 0; same && j < slice->rank; ++j)
        same = (val->dims[j + 1] < 0 || val->dims[j + 1] == slice->dims[j]) &&
               (iteration == 0 || val->rt_dims[j + 1] == slice->dims[j]);
    if (!same) {
        char got[160], want[160];
        byoc__sim_shape_string(slice->dtype, slice->rank, slice->dims, got, sizeof got);
        byoc__sim_shape_string(val->dtype, val->rank, iteration ? val->rt_dims : val->dims, want, sizeof want);
        return byoc__sim_fail(d, BYOC_ERR_TYPE, k->control,
                              "iteration %lld: scan output %d gets a slice %s, which does not stack into %s",
                              (long long)iteration, i - k->ncarried, got, want);
    }
    for (int j = 0; j < slice->rank; ++j) val->rt_dims[j + 1] = slice->dims[j];
    size_t need = (size_t)(iteration + 1) * bytes;
    if (buf->kind == BYOC_SIM_BUFFER_DYNAMIC && need > buf->size) { /* grows by doubling, kept for the next runs */
        size_t cap = buf->size * 2 > need ? buf->size * 2 : need;
        char *grown = BYOC__SIM_CAST(char *, byoc__sim_malloc(p, cap));
        if (!grown) return byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
        if (buf->data && iteration) memcpy(grown, buf->data, (size_t)iteration * bytes);
        byoc__sim_mfree(p, buf->data);
        buf->data = grown;
        buf->size = cap;
    } else if (buf->kind != BYOC_SIM_BUFFER_DYNAMIC && need > val->nbytes) {
        char want[160];
        byoc__sim_shape_string(val->dtype, val->rank, val->dims, want, sizeof want);
        return byoc__sim_fail(d, BYOC_ERR_TYPE, k->control,
                              "scan output %d is %s, but the loop runs more than %lld iterations", i - k->ncarried,
                              want, (long long)val->dims[0]);
    }
    memcpy(BYOC__SIM_CAST(char *, buf->data) + (size_t)iteration * bytes, slice->data, bytes);
    return BYOC_OK;
}

/* the scan outputs' shapes once the loop has run `iterations` times */
BYOC__SIM_PRIVATE byoc_result byoc__sim_scan_finish(byoc_sim_program *p, const byoc__sim_kernel *k, int64_t iterations,
                                                    byoc_diag *d) {
    for (int i = k->ncarried; i < k->nout; ++i) {
        byoc__sim_value *val = &p->values[p->operands[k->out_first + i]];
        if (val->dims[0] >= 0 && val->dims[0] != iterations) {
            char want[160];
            byoc__sim_shape_string(val->dtype, val->rank, val->dims, want, sizeof want);
            return byoc__sim_fail(d, BYOC_ERR_TYPE, k->control,
                                  "scan output %d is %s, but the loop ran %lld iterations", i - k->ncarried, want,
                                  (long long)iterations);
        }
        val->rt_dims[0] = iterations;
        size_t n = byoc_dtype_size(val->dtype);
        for (int j = 0; j < val->rank; ++j) {
            if (iterations == 0 && j > 0 && val->dims[j] < 0) val->rt_dims[j] = 0; /* no slice gave it */
            n *= (size_t)val->rt_dims[j];
        }
        val->rt_nbytes = n;
    }
    return BYOC_OK;
}

/* One iteration's results: the condition for the next, the carried values copied back over the ones the body read
   (they must keep their shapes), the scan slices appended. */
BYOC__SIM_PRIVATE byoc_result byoc__sim_loop_results(byoc_sim_program *p, byoc__sim_kernel *k, int64_t it,
                                                     const byoc_tensor *out, byoc_diag *d) {
    k->loop_cond = byoc__load(out[0].dtype, out[0].data, 0) != 0;
    for (int j = 0; j < k->ncarried; ++j) {
        int w = p->operands[k->out_first + j];
        if (byoc__sim_take_box(p, w, &out[1 + j])) continue; /* a sequence may grow from one iteration to the next */
        if (!byoc__sim_tensor_same_shape(&out[1 + j], &p->values[w])) {
            char was[160], now[160], what[200];
            const byoc__sim_value *val = &p->values[w];
            byoc__sim_shape_string(val->dtype, val->rank, val->rt_dims, was, sizeof was);
            byoc__sim_shape_string(out[1 + j].dtype, out[1 + j].rank, out[1 + j].dims, now, sizeof now);
            byoc__sim_control_name(k->control, what, sizeof what);
            return byoc__sim_fail(d, BYOC_ERR_TYPE, k->control,
                                  "%s: loop-carried value %d entered iteration %lld as %s and the body returns %s; a "
                                  "carried value must keep its shape from one iteration to the next",
                                  what, j, (long long)it, was, now);
        }
        memcpy(byoc__sim_data(p, w), out[1 + j].data, p->values[w].rt_nbytes);
    }
    for (int i = k->ncarried; i < k->nout; ++i) {
        byoc_result r = byoc__sim_scan_append(p, k, i, it, &out[1 + i], d);
        if (r != BYOC_OK) return r;
    }
    return BYOC_OK;
}

/* loop: inputs (max_trip, cond, carried.., captures..); the body takes (iteration, cond, carried.., captures..) and
   gives (cond, carried.., scans..); the results are (carried.., stacked scans..) */
BYOC__SIM_PRIVATE byoc_result byoc__sim_run_loop(byoc_sim_program *p, byoc__sim_kernel *k, double *at, byoc_diag *d) {
    byoc_sim_program *sub = p->bodies[k->body_first];
    byoc_tensor *io = &p->tensors[k->io_first], *out = io + sub->ninputs;
    int64_t max_trip = byoc__sim_scalar_i64(p, p->operands[k->in_first]);
    k->loop_cond = byoc__sim_scalar_i64(p, p->operands[k->in_first + 1]) != 0;
    for (int j = 0; j < k->ncarried; ++j) { /* the carried values start as the loop's inputs */
        int v = p->operands[k->in_first + 2 + j], w = p->operands[k->out_first + j];
        if (p->values[v].boxed) {
            p->values[w].box = p->values[v].box;
            continue;
        }
        if (!byoc__sim_alloc_dynamic(p, w, p->values[v].rt_dims))
            return byoc__sim_fail(d, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
        memcpy(byoc__sim_data(p, w), byoc__sim_data(p, v), p->values[v].rt_nbytes);
    }
    int64_t it = 0;
    for (; it < max_trip && k->loop_cond; ++it) {
        k->loop_iteration = it;
        memset(&io[0], 0, sizeof io[0] * 2);
        io[0].dtype = BYOC_INT64;
        io[0].data = &k->loop_iteration;
        io[1].dtype = BYOC_BOOL;
        io[1].data = &k->loop_cond;
        for (int j = 0; j < k->ncarried; ++j) byoc__sim_value_tensor(p, p->operands[k->out_first + j], &io[2 + j]);
        for (int q = 2 + k->ncarried; q < sub->ninputs; ++q)
            byoc__sim_value_tensor(p, p->operands[k->in_first + q], &io[q]);
        byoc_result r = byoc__sim_run_body(p, k, 0, it, at, d);
        if (r == BYOC_OK) r = byoc__sim_loop_results(p, k, it, out, d);
        if (r != BYOC_OK) return r;
    }
    k->iterations = it;
    return byoc__sim_scan_finish(p, k, it, d);
}

BYOC__SIM_PRIVATE byoc_result byoc__sim_run_control(byoc_sim_program *p, byoc__sim_kernel *k, byoc_diag *d) {
    double at = 0;
    byoc_result r =
        k->control->kind == BYOC_NODE_LOOP ? byoc__sim_run_loop(p, k, &at, d) : byoc__sim_run_if(p, k, &at, d);
    k->info.sim_seconds = at;
    return r;
}

/* does a kernel of p, or of a body of one, run partition fn through its runtime module (source maps name the
   control kernel for the ops inside its bodies) */
BYOC__SIM_PRIVATE int byoc__sim_runs_partition(const byoc_sim_program *p, const char *fn) {
    for (int k = 0; k < p->nkernels; ++k)
        if (p->kernels[k].function && !strcmp(p->kernels[k].function, fn)) return 1;
    for (int b = 0; b < p->nbodies; ++b)
        if (byoc__sim_runs_partition(p->bodies[b], fn)) return 1;
    return 0;
}

BYOC_SIM_API int byoc_sim_kernel_body_count(const byoc_sim_program *p, int i) {
    if (!p) return 0;
    return i >= 0 && i < p->nkernels ? p->kernels[i].nbodies : 0;
}
BYOC_SIM_API const byoc_sim_program *byoc_sim_kernel_body(const byoc_sim_program *p, int i, int b) {
    if (!p || i < 0 || i >= p->nkernels || b < 0 || b >= p->kernels[i].nbodies) return NULL;
    return p->bodies[p->kernels[i].body_first + b];
}
BYOC_SIM_API int64_t byoc_sim_kernel_iterations(const byoc_sim_program *p, int i) {
    if (!p) return 0;
    return i >= 0 && i < p->nkernels ? p->kernels[i].iterations : 0;
}

// [SECTION] sim impl: profile
BYOC_SIM_API void byoc_sim_profile_reset(byoc_sim_program *p) {
    if (!p) return;
    for (int b = 0; b < p->nbodies; ++b) byoc_sim_profile_reset(p->bodies[b]);
    for (int i = 0; i < p->nkernels; ++i) {
        byoc__sim_kernel *k = &p->kernels[i];
        k->nsamples = k->next_sample = 0;
        k->info.runs = 0;
        k->info.median_seconds = k->info.total_seconds = 0;
    }
}

/* A convolution's class: one input channel per group is depthwise (MobileNet, ShuffleNet), more groups than one
   grouped, else a plain convolution (conv2d_transpose, 1-D and 3-D included) */
BYOC__SIM_PRIVATE const char *byoc__sim_conv_class(const byoc_sim_program *p, const byoc__sim_step *st) {
    int64_t groups = byoc_attrs_int(&st->call->attrs, "groups", 1);
    if (groups <= 1 || st->nin < 1) return "conv";
    const byoc__sim_value *x = &p->values[p->operands[st->in_first]];
    return x->rank >= 2 && x->dims[1] == groups ? "depthwise conv" : "grouped conv";
}
BYOC_SIM_API const char *byoc_sim_kernel_class(const byoc_sim_program *p, int i) {
    if (!p || i < 0 || i >= p->nkernels) return NULL;
    const byoc__sim_kernel *k = &p->kernels[i];
    switch (k->info.exec) {
    case BYOC_SIM_EXEC_RUNTIME: return "device";
    case BYOC_SIM_EXEC_CONTROL: return "control flow";
    case BYOC_SIM_EXEC_COPY: return "data movement";
    default: break;
    }
    if (k->nsteps < 1 || k->step_first < 0 || k->step_first >= p->nsteps) return "other";
    const byoc__sim_step *st = &p->steps[k->step_first];
    const byoc_op *op = st->call ? st->call->op : NULL;
    if (!op) return "other";
    const char *name = op->def.name;
    if (!strncmp(name, "qnn.", 4)) name += 4;
    if (strstr(name, "conv")) return byoc__sim_conv_class(p, st);
    if (strstr(name, "dense") || strstr(name, "matmul") || strstr(name, "einsum")) return "dense/matmul";
    if (strstr(name, "pool")) return "pool";
    if (strstr(name, "softmax") || strstr(name, "norm")) return "normalisation";
    if (strstr(name, "resize") || strstr(name, "to_space") || strstr(name, "to_depth")) return "data movement";
    switch (op->def.pattern) {
    case BYOC_PATTERN_ELEMWISE:
    case BYOC_PATTERN_BROADCAST: return "elementwise";
    case BYOC_PATTERN_INJECTIVE: return "data movement";
    case BYOC_PATTERN_COMM_REDUCE: return "reduction";
    default: return "other";
    }
}
BYOC_SIM_API int byoc_sim_profile_by_class(const byoc_sim_program *p, byoc_sim_class_time *rows, int cap) {
    if (!p || !rows || cap < 1) return 0;
    int n = 0;
    for (int i = 0; i < p->nkernels; ++i) {
        const char *cls = byoc_sim_kernel_class(p, i);
        int r = 0;
        while (r < n && strcmp(rows[r].kernel_class, cls)) r++;
        if (r == n) {
            if (n == cap) continue;
            rows[n].kernel_class = cls;
            rows[n].kernels = 0;
            rows[n].seconds = 0;
            n++;
        }
        rows[r].kernels++;
        rows[r].seconds += p->kernels[i].info.median_seconds;
    }
    for (int a = 1; a < n; ++a) /* largest first (a dozen rows at most: insertion sort) */
        for (int b = a; b > 0 && rows[b].seconds > rows[b - 1].seconds; --b) {
            byoc_sim_class_time t = rows[b];
            rows[b] = rows[b - 1];
            rows[b - 1] = t;
        }
    return n;
}

BYOC__SIM_PRIVATE void byoc__sim_device_about(const char *backend, const byoc_sim_device *d, char *out, size_t cap);
/* where kernel i ran, named as placement names it: "host", a device backend (its device in *dev), or a library
   backend (*dev NULL) for the host kernels of its partitions */
BYOC__SIM_PRIVATE const char *byoc__sim_kernel_where(const byoc_sim_program *p, int i, const byoc_sim_device **dev) {
    const byoc__sim_kernel *k = &p->kernels[i];
    *dev = NULL;
    if (k->info.exec == BYOC_SIM_EXEC_RUNTIME) {
        const byoc_sim_device_program *dp = byoc__dv_program_of(byoc_module_runtime(p->m, k->function));
        *dev = dp ? byoc_sim_device_of(dp) : NULL;
        return k->info.device;
    }
    const byoc_node *fn = k->info.partition ? byoc_module_function(p->m, k->info.partition) : NULL;
    const char *compiler = fn ? byoc_attrs_string(&fn->attrs, "Compiler", NULL) : NULL;
    return compiler && *compiler ? compiler : "host";
}

/* each control kernel's bodies: their kernels (indented by nesting; runs count every iteration of every run) */
BYOC__SIM_PRIVATE void byoc__sim_profile_bodies(byoc__buf *t, const byoc_sim_program *p, int indent, const char *path) {
    for (int i = 0; i < p->nkernels; ++i) {
        const byoc__sim_kernel *k = &p->kernels[i];
        for (int b = 0; b < k->nbodies; ++b) {
            const byoc_sim_program *sub = p->bodies[k->body_first + b];
            int is_if = k->control->kind == BYOC_NODE_IF;
            char here[64];
            snprintf(here, sizeof here, "%s%d.%d.", path, i, b);
            const char *which = is_if ? (b ? "else branch" : "then branch") : "body";
            byoc__buf_printf(t, "%*s%s of kernel %s%d (%s): %d kernels, ", indent, "", which, path, i, k->info.name,
                             sub->nkernels);
            if (is_if) byoc__buf_printf(t, "%staken in the last run\n", k->iterations == b ? "" : "not ");
            else byoc__buf_printf(t, "%lld iterations in the last run\n", (long long)k->iterations);
            for (int j = 0; j < sub->nkernels; ++j) {
                const byoc_sim_kernel_info *ki = &sub->kernels[j].info;
                byoc__buf_printf(t, "%*s%s%-3d %-32.32s %-8s %-7s %7d runs  %10.2f sim us (last)  %10.2f wall us  %s\n",
                                 indent + 2, "", here, j, ki->name, ki->device, byoc_sim_exec_name(ki->exec), ki->runs,
                                 ki->sim_seconds * 1e6, ki->median_seconds * 1e6, ki->nops ? ki->ops : "-");
            }
            byoc__sim_profile_bodies(t, sub, indent + 4, here);
        }
    }
}

BYOC_SIM_API char *byoc_sim_profile_format(const byoc_sim_program *p, size_t *len) {
    if (!p) return NULL;
    byoc__buf t;
    memset(&t, 0, sizeof t);
    t.alloc = &p->alloc;
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
    byoc__buf_printf(&t, "%4s  %-*s  %-8s  %-*s  %-7s  %12s  %10s  %5s  %12s  %10s  %10s  %s\n", "#", w, "kernel",
                     "device", pw, "partition", "exec", "cycles", "sim us", "util", "DRAM B", "xfer B", "wall us",
                     "ops");
    /* the latency by where kernels ran, named as placement names them: the host, each device backend, each
       library backend (host kernels of its partitions), in order of first use; only those used */
    enum { WHERE_MAX = 32 };
    const char *where[WHERE_MAX];
    const byoc_sim_device *where_dev[WHERE_MAX];
    double by_where[WHERE_MAX] = {0};
    int n_where[WHERE_MAX] = {0}, nwhere = 0;
    double sum = 0, sim = 0;
    uint64_t rd = 0, wr = 0, xfer = 0;
    for (int i = 0; i < p->nkernels; ++i) {
        const byoc_sim_kernel_info *k = &p->kernels[i].info;
        const char *part = k->partition ? k->partition : "-";
        int n = (int)strlen(k->name), pn = (int)strlen(part);
        char util[16] = "-";
        int kind = byoc_sim_device_kind_find(k->device_kind);
        if (kind < 0) kind = BYOC_SIM_HOST;
        if (byoc_sim_device_kind_at(kind)->mac_array) snprintf(util, sizeof util, "%.0f%%", 100.0 * k->mac_utilization);
        /* "concatenate (written in place)": the row's time is that of the copies left */
        int sliced = p->kernels[i].concat_slices > 0;
        byoc__buf_printf(&t,
                         "%4d  %-*.*s%s  %-8s  %-*.*s%s  %-7s  %12llu  %10.2f  %5s  %12llu  %10llu  %10.2f  %s%s%s%s\n",
                         i, n > w ? w - 3 : w, n > w ? w - 3 : w, k->name, n > w ? "..." : "", k->device,
                         pn > pw ? pw - 3 : pw, pn > pw ? pw - 3 : pw, part, pn > pw ? "..." : "",
                         byoc_sim_exec_name(k->exec), (unsigned long long)k->cycles, k->sim_seconds * 1e6, util,
                         (unsigned long long)k->dram_bytes, (unsigned long long)k->transfer_bytes,
                         k->median_seconds * 1e6, k->nops ? k->ops : "-", sliced ? " (" : "",
                         sliced ? k->algorithm : "", sliced ? ")" : "");
        sum += k->median_seconds;
        sim += k->sim_seconds;
        for (int e = -1; e < p->nevents; ++e) { /* a control kernel's time is that of the kernels in its bodies */
            const byoc__sim_event *ev = e >= 0 ? &p->events[e] : NULL;
            if (ev ? ev->kernel != i || ev->control : k->exec == BYOC_SIM_EXEC_CONTROL) continue;
            const byoc_sim_device *at_dev = NULL;
            const char *at = ev ? ev->where : byoc__sim_kernel_where(p, i, &at_dev);
            if (ev) at_dev = ev->dev;
            int w = 0;
            while (w < nwhere && strcmp(where[w], at)) w++;
            if (w == nwhere && nwhere < WHERE_MAX) where[nwhere] = at, where_dev[nwhere] = at_dev, nwhere++;
            if (w == WHERE_MAX) w = WHERE_MAX - 1;
            by_where[w] += ev ? ev->seconds : k->sim_seconds;
            n_where[w]++;
        }
        rd += k->bytes_read;
        wr += k->bytes_written;
        xfer += k->transfer_bytes;
    }
    byoc__sim_profile_bodies(&t, p, 2, "");
    byoc__buf_printf(&t, "simulated latency %.3f ms: ", sim * 1e3);
    int shown = 0;
    for (int pass = 0; pass < 2; ++pass) /* the host first when it ran anything */
        for (int w = 0; w < nwhere; ++w) {
            if ((strcmp(where[w], "host") == 0) != (pass == 0)) continue;
            const char *label = !strcmp(where[w], "host") ? "" : where_dev[w] ? "" : " (library)";
            byoc__buf_printf(&t, shown ? ", %s%s %.3f ms (%d, %.0f%%)" : "%s%s %.3f ms (%d kernels, %.0f%%)", where[w],
                             label, by_where[w] * 1e3, n_where[w], sim > 0 ? 100 * by_where[w] / sim : 0.0);
            shown++;
        }
    if (!shown) byoc__buf_printf(&t, "no kernels");
    byoc__buf_printf(&t, "; %llu bytes moved between devices\n", (unsigned long long)xfer);
    for (int w = 0; w < nwhere; ++w) { /* what each backend in use is */
        char about[640];
        if (!strcmp(where[w], "host")) continue;
        if (where_dev[w]) byoc__sim_device_about(where[w], where_dev[w], about, sizeof about);
        else snprintf(about, sizeof about, "%s (a library backend: host kernels)", where[w]);
        byoc__buf_printf(&t, "  %s\n", about);
    }
    byoc__buf_printf(&t,
                     "%d kernels, %d run%s: %.3f ms per run on this machine (sum of kernel medians), %llu bytes read, "
                     "%llu bytes written per run\n",
                     p->nkernels, runs, runs == 1 ? "" : "s", sum * 1e3, (unsigned long long)rd,
                     (unsigned long long)wr);
    byoc_sim_class_time classes[16];
    int nclasses = byoc_sim_profile_by_class(p, classes, 16);
    byoc__buf_printf(&t, "wall time by kernel class (sum of kernel medians):\n");
    for (int c = 0; c < nclasses; ++c)
        byoc__buf_printf(&t, "  %-16s %4d kernels  %10.3f ms  %5.1f%%\n", classes[c].kernel_class, classes[c].kernels,
                         classes[c].seconds * 1e3, sum > 0 ? 100 * classes[c].seconds / sum : 0.0);
    const byoc_sim_memory_plan *mp = &p->plan;
    double ratio = mp->lower_bound_bytes ? (double)mp->arena_bytes / (double)mp->lower_bound_bytes : 1.0;
    byoc__buf_printf(&t, "arena %zu bytes (lower bound %zu bytes, ratio %.2f)\n", mp->arena_bytes,
                     mp->lower_bound_bytes, ratio);
    byoc__buf_printf(&t,
                     "%d buffers in the arena (%d written in place), %d views; workspace %zu bytes, tile scratch %zu "
                     "bytes, outputs %zu bytes\n",
                     mp->buffers, mp->in_place, mp->views, mp->workspace_bytes, mp->tile_scratch_bytes,
                     mp->output_bytes);
    if (mp->slices)
        byoc__buf_printf(&t,
                         "%d concatenation inputs written by their producers straight into their slice of the result "
                         "(%d %s nothing)\n",
                         mp->slices, mp->concats_in_place,
                         mp->concats_in_place == 1 ? "concatenation copies" : "concatenations copy");
    if (p->groups) { /* "sim impl: kernels side by side" */
        byoc__buf_printf(&t,
                         "independent kernels run side by side, one thread each, in %d group%s (with more than one "
                         "thread the sum of kernel medians exceeds a run's time):",
                         p->groups, p->groups == 1 ? "" : "s");
        int shown_groups = 0;
        for (int i = 0; i < p->nkernels; ++i) {
            if (p->together[i] < 2) continue;
            if (shown_groups++ == 16) {
                byoc__buf_printf(&t, " ...");
                break;
            }
            byoc__buf_printf(&t, "%s", shown_groups % 8 == 1 ? "\n   " : "");
            for (int m = 0; m < p->together[i]; ++m) byoc__buf_printf(&t, "%s%d", m ? " " : " {", p->order[i + m]);
            byoc__buf_printf(&t, "}");
        }
        byoc__buf_printf(&t, "\n");
    }
    if (mp->bodies)
        byoc__buf_printf(&t,
                         "%d control-flow body programs: %zu bytes (their arenas, outputs, workspaces, scratch), "
                         "allocated once and reused by every iteration\n",
                         mp->bodies, mp->body_bytes);
    if (t.oom) {
        byoc__sim_mfree(p, t.data);
        return NULL;
    }
    if (len) *len = t.len;
    return t.data;
}

// [SECTION] sim impl: device kinds, layer classes, command streams
#define BYOC__DV_DT(t) (1u << (unsigned)(t))
#define BYOC__DV_MAX_OPERANDS 16 /* a qnn layer's scales and zero points are operands too (8 before blob v3) */
#define BYOC__DV_MAX_ARGS 8      /* arguments of one op call (qnn.add's 8: two tensors, three scales and zero points) */
#define BYOC__DV_MAX_DEPS 12
#define BYOC__DV_MAX_SRAM ((int64_t)1 << 28) /* 256 MB: a larger SRAM is a mistake, not a device */

/* ---- device kinds: the registry (kinds themselves are defined with the cycle model below) ---- */
#define BYOC__DK_MAX_PRESETS 8
#define BYOC__DK_MAX_OPS 64
typedef struct byoc__dk_entry {
    byoc_sim_device_kind_def def;
    byoc_sim_device presets[BYOC__DK_MAX_PRESETS]; /* the def's, with their kind set */
    const byoc_op *ops[BYOC__DK_MAX_OPS];          /* def.ops, resolved once */
    int nops;
} byoc__dk_entry;
BYOC__SIM_PRIVATE const byoc__dk_entry *byoc__dk_get(int k); /* NULL when k is not registered */
/* a kind that runs command streams (every registered kind but the host) */
BYOC__SIM_PRIVATE const byoc__dk_entry *byoc__dk_device(int k) {
    const byoc__dk_entry *e = byoc__dk_get(k);
    return e && e->def.compute_cycles ? e : NULL;
}

/* presets: the device kinds' in registration order, then the host's */
BYOC__SIM_PRIVATE const byoc_sim_device *byoc__dk_preset(int i, const char **about) {
    int n = byoc_sim_device_kind_count();
    for (int j = 1; j <= n && i >= 0; ++j) {
        const byoc__dk_entry *e = byoc__dk_get(j % n);
        if (i < e->def.npresets) {
            if (about) *about = e->def.preset_about ? e->def.preset_about[i] : "";
            return &e->presets[i];
        }
        i -= e->def.npresets;
    }
    return NULL;
}
BYOC_SIM_API int byoc_sim_preset_count(void) {
    int total = 0;
    for (int k = 0; k < byoc_sim_device_kind_count(); ++k) total += byoc__dk_get(k)->def.npresets;
    return total;
}
BYOC_SIM_API const byoc_sim_device *byoc_sim_preset(int i, const char **about) { return byoc__dk_preset(i, about); }
BYOC_SIM_API const byoc_sim_device *byoc_sim_preset_find(const char *name) {
    for (int k = 0; name && k < byoc_sim_device_kind_count(); ++k) {
        const byoc__dk_entry *e = byoc__dk_get(k);
        for (int i = 0; i < e->def.npresets; ++i)
            if (!strcmp(e->presets[i].preset, name)) return &e->presets[i];
    }
    return NULL;
}
BYOC__SIM_PRIVATE const char *byoc__sim_kind_name(int k) {
    const byoc__dk_entry *e = byoc__dk_get(k);
    return e ? e->def.name : "?";
}
/* the preset a device kind starts from */
BYOC__SIM_PRIVATE const byoc_sim_device *byoc__sim_default_preset(int k) {
    const byoc__dk_entry *e = byoc__dk_get(k);
    return e ? &e->presets[0] : NULL;
}

BYOC__SIM_PRIVATE int byoc__sim_attr_number(const byoc_attr_value *v, double *out) {
    if (v->kind == BYOC_ATTR_INT || v->kind == BYOC_ATTR_BOOL) *out = (double)v->i;
    else if (v->kind == BYOC_ATTR_FLOAT) *out = v->f;
    else return 0;
    return 1;
}

BYOC_SIM_API byoc_result byoc_sim_device_set(byoc_sim_device *dev, const char *name, const byoc_attr_value *value,
                                             byoc_diag *diag) {
    double x = 0;
    int is_num = byoc__sim_attr_number(value, &x);
    const char *s = value->kind == BYOC_ATTR_STRING ? value->s : NULL;
    if (!strcmp(name, "preset")) {
        const byoc_sim_device *p = s ? byoc_sim_preset_find(s) : NULL;
        if (!p) {
            char names[256] = "";
            const byoc__dk_entry *e = byoc__dk_get(dev->kind);
            for (int i = 0; e && i < e->def.npresets; ++i)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", names[0] ? ", " : "",
                         e->presets[i].preset);
            return byoc__sim_fail(diag, BYOC_ERR_ATTR, NULL, "%s: unknown preset %s%s%s (presets: %s)",
                                  byoc__sim_kind_name(dev->kind), s ? "'" : "", s ? s : "(not a string)", s ? "'" : "",
                                  names);
        }
        if (p->kind != dev->kind)
            return byoc__sim_fail(diag, BYOC_ERR_ATTR, NULL, "%s: preset '%s' is a %s, not a %s",
                                  byoc__sim_kind_name(dev->kind), s, byoc__sim_kind_name(p->kind),
                                  byoc__sim_kind_name(dev->kind));
        *dev = *p;
        return BYOC_OK;
    }
    if (!strcmp(name, "dataflow")) {
        if (s && (!strcmp(s, "os") || !strcmp(s, "output_stationary"))) dev->dataflow = BYOC_SIM_OUTPUT_STATIONARY;
        else if (s && (!strcmp(s, "ws") || !strcmp(s, "weight_stationary"))) dev->dataflow = BYOC_SIM_WEIGHT_STATIONARY;
        else
            return byoc__sim_fail(diag, BYOC_ERR_ATTR, NULL, "%s: dataflow must be \"os\" or \"ws\"",
                                  byoc__sim_kind_name(dev->kind));
        return BYOC_OK;
    }
    if (!strcmp(name, "dtypes")) {
        unsigned mask = 0;
        const char *at = s;
        while (at && *at) {
            char word[32];
            size_t n = strcspn(at, ", ");
            snprintf(word, sizeof word, "%.*s", (int)(n < 31 ? n : 31), at);
            byoc_dtype dt = byoc_dtype_from_name(word);
            if (n && dt == BYOC_DTYPE_INVALID)
                return byoc__sim_fail(diag, BYOC_ERR_ATTR, NULL, "%s: dtypes: unknown dtype '%s'",
                                      byoc__sim_kind_name(dev->kind), word);
            if (n) mask |= BYOC__DV_DT(dt);
            at += n;
            while (*at == ',' || *at == ' ') at++;
        }
        if (!mask)
            return byoc__sim_fail(diag, BYOC_ERR_ATTR, NULL,
                                  "%s: dtypes must name at least one dtype (\"float32,int8\")",
                                  byoc__sim_kind_name(dev->kind));
        dev->dtypes = mask;
        return BYOC_OK;
    }
    static const struct {
        const char *name;
        double lo, hi;
    } ranges[] = {{"clock_mhz", 1, 1e5},
                  {"rows", 1, 4096},
                  {"cols", 1, 4096},
                  {"lanes", 1, 4096},
                  {"sram_kb", 1, (double)(BYOC__DV_MAX_SRAM >> 10)},
                  {"dram_bytes_per_cycle", 0.01, 1e4},
                  {"dram_latency", 0, 1e7},
                  {"burst_bytes", 1, 1 << 20},
                  {"launch_cycles", 0, 1e9},
                  {"double_buffer", 0, 1}};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; ++i) {
        if (strcmp(name, ranges[i].name)) continue;
        if (!is_num || !(x >= ranges[i].lo && x <= ranges[i].hi))
            return byoc__sim_fail(diag, BYOC_ERR_ATTR, NULL, "%s: option %s must be a number in [%g, %g]",
                                  byoc__sim_kind_name(dev->kind), name, ranges[i].lo, ranges[i].hi);
        switch (i) {
        case 0: dev->clock_mhz = x; break;
        case 1: dev->rows = (int)x; break;
        case 2: dev->cols = (int)x; break;
        case 3: dev->lanes = (int)x; break;
        case 4: dev->sram_bytes = (int64_t)x * 1024; break;
        case 5: dev->dram_bytes_per_cycle = x; break;
        case 6: dev->dram_latency = (int)x; break;
        case 7: dev->burst_bytes = (int)x; break;
        case 8: dev->launch_cycles = (int)x; break;
        default: dev->double_buffer = x != 0; break;
        }
        return BYOC_OK;
    }
    return byoc__sim_fail(diag, BYOC_ERR_ATTR, NULL,
                          "%s: unknown device option '%s' (options: preset, clock_mhz, rows, cols, dataflow, lanes, "
                          "sram_kb, dram_bytes_per_cycle, "
                          "dram_latency, burst_bytes, launch_cycles, double_buffer, dtypes)",
                          byoc__sim_kind_name(dev->kind), name);
}

BYOC__SIM_PRIVATE void byoc__dv_dtypes_text(unsigned dtypes, char *dts, size_t cap) {
    dts[0] = 0;
    for (int t = 1; t < BYOC_DTYPE_COUNT && t < 32; ++t)
        if (dtypes & BYOC__DV_DT(t))
            snprintf(dts + strlen(dts), cap - strlen(dts), "%s%s", dts[0] ? "," : "", byoc_dtype_name((byoc_dtype)t));
}
/* a device named by its backend, with its own parameters and the preset they start from
   (see byoc_sim_backend_describe) */
BYOC__SIM_PRIVATE void byoc__sim_device_about(const char *backend, const byoc_sim_device *d, char *out, size_t cap) {
    if (!cap) return;
    char line[512], changed[200] = "";
    byoc_sim_device_describe(d, line, sizeof line);
    const char *params = strstr(line, "): "); /* "npu (preset): PARAMETERS" */
    params = params ? params + 3 : line;
    const byoc_sim_device *p = byoc_sim_preset_find(d->preset);
    if (p && p->kind == d->kind) {
        const struct { const char *name; int differs;
        } f[] = {{"clock_mhz", p->clock_mhz != d->clock_mhz},
                 {"rows", p->rows != d->rows},
                 {"cols", p->cols != d->cols},
                 {"dataflow", p->dataflow != d->dataflow},
                 {"lanes", p->lanes != d->lanes},
                 {"sram_kb", p->sram_bytes != d->sram_bytes},
                 {"dram_bytes_per_cycle", p->dram_bytes_per_cycle != d->dram_bytes_per_cycle},
                 {"dram_latency", p->dram_latency != d->dram_latency},
                 {"burst_bytes", p->burst_bytes != d->burst_bytes},
                 {"launch_cycles", p->launch_cycles != d->launch_cycles},
                 {"double_buffer", p->double_buffer != d->double_buffer},
                 {"dtypes", p->dtypes != d->dtypes}};
        for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i)
            if (f[i].differs)
                snprintf(changed + strlen(changed), sizeof changed - strlen(changed), "%s%s", changed[0] ? ", " : "",
                         f[i].name);
    }
    char text[1024];
    if (changed[0])
        snprintf(text, sizeof text, "%s (%s kind: %s; from preset %s with %s overridden)", backend,
                 byoc__sim_kind_name(d->kind), params, d->preset, changed);
    else
        snprintf(text, sizeof text, "%s (%s kind, preset %s: %s)", backend, byoc__sim_kind_name(d->kind), d->preset,
                 params);
    size_t len = strlen(text) < cap ? strlen(text) : cap - 1; /* cut to cap, on purpose */
    memcpy(out, text, len);
    out[len] = 0;
}

BYOC_SIM_API void byoc_sim_device_describe(const byoc_sim_device *d, char *out, size_t cap) {
    const byoc__dk_entry *e = byoc__dk_get(d->kind);
    if (e && e->def.describe) {
        e->def.describe(d, out, cap, e->def.user_data);
        return;
    }
    char dts[160], macs[48] = "";
    byoc__dv_dtypes_text(d->dtypes, dts, sizeof dts);
    if (e && e->def.mac_array) snprintf(macs, sizeof macs, ", %dx%d MACs", d->rows, d->cols);
    snprintf(out, cap,
             "%s (%s): %d lanes%s at %g MHz, SRAM %lld KB, DRAM %g B/cycle latency %d burst %d, launch %d cycles, %s "
             "buffering, %s",
             e ? e->def.name : "?", d->preset, d->lanes, macs, d->clock_mhz, (long long)(d->sram_bytes >> 10),
             d->dram_bytes_per_cycle, d->dram_latency, d->burst_bytes, d->launch_cycles,
             d->double_buffer ? "double" : "single", dts);
}

/* ---- what a device can run: layer classes (byoc.h's op classes) ---- */
enum {
    BYOC__DV_NONE = BYOC_OP_CLASS_NONE,
    BYOC__DV_CONV = BYOC_OP_CLASS_CONV2D,            /* nn.conv2d, groups 1, NCHW / OIHW */
    BYOC__DV_DENSE = BYOC_OP_CLASS_DENSE,            /* nn.dense */
    BYOC__DV_POOL = BYOC_OP_CLASS_POOL2D,            /* nn.max_pool2d, nn.avg_pool2d */
    BYOC__DV_GPOOL = BYOC_OP_CLASS_GLOBAL_POOL2D,    /* nn.global_avg_pool2d, nn.global_max_pool2d */
    BYOC__DV_ELEMWISE = BYOC_OP_CLASS_ELEMWISE,      /* elementwise and broadcast ops */
    BYOC__DV_SOFTMAX = BYOC_OP_CLASS_SOFTMAX,        /* nn.softmax, nn.log_softmax */
    BYOC__DV_LAYERNORM = BYOC_OP_CLASS_LAYER_NORM,   /* nn.layer_norm */
    BYOC__DV_REDUCE = BYOC_OP_CLASS_REDUCE,          /* mean, sum, max, min */
    BYOC__DV_TRANSPOSE = BYOC_OP_CLASS_TRANSPOSE     /* transpose */
};

/* the layer class of a call on a device kind: its op's class when the kind runs that class or lists the op */
BYOC__SIM_PRIVATE int byoc__dv_class(int kind, const byoc_node *call) {
    if (!call || call->kind != BYOC_NODE_CALL || !call->op || !call->op->builtin) return BYOC__DV_NONE;
    const byoc__dk_entry *e = byoc__dk_device(kind);
    byoc_op_class cls = call->op->def.device_class;
    if (!e || cls == BYOC_OP_CLASS_NONE) return BYOC__DV_NONE;
    if (e->def.classes & BYOC_SIM_CLASS(cls)) return (int)cls;
    for (int i = 0; i < e->nops; ++i)
        if (e->ops[i] == call->op) return (int)cls;
    return BYOC__DV_NONE;
}

/* a depthwise convolution of channel multiplier 1 (groups = input channels = output channels): the NPU maps
   channels across the array's columns, each summing its own KHxKW window (T = KH*KW in the fold formula) */
BYOC__SIM_PRIVATE int byoc__dv_is_depthwise(const byoc_node *call) {
    const byoc_type *x = call->nargs > 1 ? call->args[0]->checked_type : NULL,
                    *w = call->nargs > 1 ? call->args[1]->checked_type : NULL;
    int64_t groups = byoc_attrs_int(&call->attrs, "groups", 1);
    return x && w && x->kind == BYOC_TYPE_TENSOR && w->kind == BYOC_TYPE_TENSOR && x->rank == 4 && w->rank == 4 &&
           groups > 1 && x->dims[1] == groups && w->dims[0] == groups && w->dims[1] == 1;
}

/* padding as [top, left, bottom, right] from 1, 2 or 4 values */
BYOC__SIM_PRIVATE void byoc__dv_pads(const byoc_attrs *a, int64_t pad[4]) {
    const byoc_attr_value *v = byoc_attrs_get(a, "padding");
    pad[0] = pad[1] = pad[2] = pad[3] = 0;
    if (!v || v->kind != BYOC_ATTR_INT_LIST) return;
    if (v->count == 1) pad[0] = pad[1] = pad[2] = pad[3] = v->ints[0];
    else if (v->count == 2) pad[0] = pad[2] = v->ints[0], pad[1] = pad[3] = v->ints[1];
    else if (v->count == 4) memcpy(pad, v->ints, sizeof(int64_t) * 4);
}
BYOC__SIM_PRIVATE int64_t byoc__dv_pair(const byoc_attrs *a, const char *name, int i, int64_t fallback) {
    const byoc_attr_value *v = byoc_attrs_get(a, name);
    if (!v || v->kind != BYOC_ATTR_INT_LIST || v->count < 1) return fallback;
    return v->count == 1 ? v->ints[0] : v->ints[i < v->count ? i : v->count - 1];
}
BYOC__SIM_PRIVATE const byoc_type *byoc__dv_arg_type(const byoc_node *call, int i) {
    return i < call->nargs && call->args[i]->checked_type && call->args[i]->checked_type->kind == BYOC_TYPE_TENSOR
               ? call->args[i]->checked_type
               : NULL;
}

BYOC__SIM_PRIVATE uint64_t byoc__dv_elems(const byoc_type *t);
/* A qnn op's scale or zero point: argument a after its data ones (2 for the products and the binary ops, else 1).
   1 with *out_axis the output axis a per-axis one runs along (the channels of a conv2d or dense anchor, else the
   op's `axis`), or -1 for a single element every tile reads whole. */
BYOC__SIM_PRIVATE int byoc__dv_qnn_param(const byoc_node *c, int a, int out_rank, int *out_axis) {
    const char *name = c->op ? c->op->def.name : "";
    if (strncmp(name, "qnn.", 4) || a >= c->nargs) return 0;
    static const char *const binary[] = {"qnn.conv2d", "qnn.dense", "qnn.matmul", "qnn.batch_matmul",
                                         "qnn.add",    "qnn.mul",   "qnn.subtract"};
    int ndata = 1;
    for (size_t i = 0; i < sizeof binary / sizeof binary[0]; ++i)
        if (!strcmp(name, binary[i])) ndata = 2;
    if (a < ndata) return 0;
    const byoc_type *t = c->args[a]->checked_type;
    *out_axis = -1;
    if (!t || t->kind != BYOC_TYPE_TENSOR || byoc__dv_elems(t) == 1) return 1;
    byoc_op_class cls = c->op->def.device_class;
    int product = cls == BYOC_OP_CLASS_CONV2D || cls == BYOC_OP_CLASS_DENSE;
    int64_t axis = product ? 1 : byoc_attrs_int(&c->attrs, "axis", -1);
    if (axis < 0) axis += out_rank;
    *out_axis = axis >= 0 && axis < out_rank ? (int)axis : -1;
    return 1;
}

/* The device's own check of one op call (besides the backend file's constraints): dtypes, what its
   lowering handles, and whether a tile fits SRAM. 1 = accepted, else 0 with the reason.
   On a device that computes 8- or 16-bit integers, int32 is the datapath's own where it holds a qnn op's
   accumulators (the qnn op itself, and an elementwise op such as the bias add that reads one directly), and a qnn
   op's scales and zero points are parameters of its output stage, not data: only its data operands and result
   must be of the device's dtypes. */
BYOC__SIM_PRIVATE int byoc__dv_tile_fits(const byoc_sim_device *dev, const byoc_node *call, char *reason, size_t cap);
BYOC__SIM_PRIVATE int byoc__dv_accepts(const byoc_sim_device *dev, const byoc_node *call, char *reason, size_t cap) {
    const byoc_type *t = call->checked_type;
    const char *op = call->op ? call->op->def.name : "?";
    if (!t || t->kind != BYOC_TYPE_TENSOR) return snprintf(reason, cap, "%s: not a single tensor result", op), 0;
    int cls = byoc__dv_class(dev->kind, call), qnn = !strncmp(op, "qnn.", 4);
    int integers = (dev->dtypes & (BYOC__DV_DT(BYOC_INT8) | BYOC__DV_DT(BYOC_UINT8) | BYOC__DV_DT(BYOC_INT16))) != 0;
    for (int i = 0; !qnn && cls == BYOC__DV_ELEMWISE && i < call->nargs; ++i) {
        const byoc_node *a = call->args[i];
        qnn = a->kind == BYOC_NODE_CALL && a->op && !strncmp(a->op->def.name, "qnn.", 4);
    }
    for (int i = -1; i < call->nargs; ++i) {
        const byoc_type *a = i < 0 ? t : byoc__dv_arg_type(call, i);
        int axis;
        if (!a) return snprintf(reason, cap, "argument %d is not a tensor", i), 0;
        if (i >= 0 && byoc__dv_qnn_param(call, i, t->rank, &axis)) continue;
        if (a->dtype == BYOC_INT32 && integers && qnn) continue;
        if (!(dev->dtypes & BYOC__DV_DT(a->dtype)))
            return snprintf(reason, cap, "%s is not computed by %s %s", byoc_dtype_name(a->dtype),
                            byoc__sim_kind_name(dev->kind), dev->preset),
                   0;
        for (int j = 0; j < a->rank; ++j)
            if (a->dims[j] < 0) return snprintf(reason, cap, "dynamic shapes are not supported"), 0;
    }
    if (cls == BYOC__DV_NONE) return snprintf(reason, cap, "%s does not run %s", byoc__sim_kind_name(dev->kind), op), 0;
    if (cls == BYOC__DV_CONV) {
        int64_t groups = byoc_attrs_int(&call->attrs, "groups", 1);
        if (groups != 1 && !byoc__dv_is_depthwise(call))
            return snprintf(reason, cap,
                            "groups=%lld unsupported (the MAC array runs dense and depthwise convolutions, not grouped "
                            "ones)",
                            (long long)groups),
                   0;
        if (strcmp(byoc_attrs_string(&call->attrs, "data_layout", "NCHW"), "NCHW") ||
            strcmp(byoc_attrs_string(&call->attrs, "kernel_layout", "OIHW"), "OIHW"))
            return snprintf(reason, cap, "layouts other than NCHW/OIHW are unsupported"), 0;
        if (t->rank != 4) return snprintf(reason, cap, "not a 2-D convolution"), 0;
    }
    if (cls == BYOC__DV_POOL || cls == BYOC__DV_GPOOL) {
        if (strcmp(byoc_attrs_string(&call->attrs, "layout", "NCHW"), "NCHW"))
            return snprintf(reason, cap, "layouts other than NCHW are unsupported"), 0;
        if ((call->op == byoc__ops()->avg_pool2d || !strcmp(op, "qnn.avg_pool2d")) &&
            byoc_attrs_int(&call->attrs, "ceil_mode", 0) &&
            byoc_attrs_int(&call->attrs, "count_include_pad", 0))
            return snprintf(reason, cap, "ceil_mode with count_include_pad is unsupported"), 0;
        if (t->rank != 4) return snprintf(reason, cap, "not a 2-D pool"), 0;
    }
    if (cls == BYOC__DV_DENSE && t->rank != 2) return snprintf(reason, cap, "nn.dense of rank %d", t->rank), 0;
    int axis_operand = (call->op->def.flags & BYOC_OP_AXIS_OPERAND) != 0;
    if (cls == BYOC__DV_ELEMWISE && axis_operand) {
        const byoc_type *b = byoc__dv_arg_type(call, 1);
        if (!b || b->rank != 1) return snprintf(reason, cap, "%s with a second operand of rank other than 1", op), 0;
    }
    if (cls == BYOC__DV_ELEMWISE) {
        /* every operand broadcasts to the result (right-aligned, as numpy) */
        for (int i = 0; i < call->nargs && !axis_operand; ++i) {
            const byoc_type *a = byoc__dv_arg_type(call, i);
            if (a->rank > t->rank) return snprintf(reason, cap, "operand %d has a higher rank than the result", i), 0;
        }
    }
    const byoc__dk_entry *kd = byoc__dk_device(dev->kind);
    if (kd && kd->def.accepts && !kd->def.accepts(dev, call, reason, cap, kd->def.user_data)) return 0;
    return byoc__dv_tile_fits(dev, call, reason, cap);
}
/* ---- command streams ---- */
enum { BYOC__DV_INPUT = 1, BYOC__DV_OUTPUT, BYOC__DV_CONST, BYOC__DV_SCRATCH };
enum { BYOC__DV_LOAD = 1, BYOC__DV_STORE, BYOC__DV_COMPUTE };

typedef struct byoc__dv_tensor {
    int32_t kind, index; /* INPUT/OUTPUT: its position; CONST, SCRATCH: -1 */
    int32_t dtype, rank;
    int64_t dims[BYOC_MAX_RANK];
    uint64_t offset;     /* CONST: in the constant data; SCRATCH: in the scratch block */
    uint64_t nbytes;
    void *data;          /* while running */
} byoc__dv_tensor;

typedef struct byoc__dv_box {
    int32_t tensor, rank;
    int64_t begin[BYOC_MAX_RANK], extent[BYOC_MAX_RANK];
} byoc__dv_box;

typedef struct byoc__dv_cmd {
    int32_t op, layer, tile, kernel; /* kernel: COMPUTE only */
    int32_t ndeps;
    int32_t deps[BYOC__DV_MAX_DEPS]; /* earlier commands of the other engine it waits for */
    byoc__dv_box box;                /* LOAD, STORE */
    int64_t sram;                    /* LOAD: destination, STORE: source, COMPUTE: result */
    int32_t noperands;
    int64_t operand_sram[BYOC__DV_MAX_OPERANDS];
    /* derived (not serialised): cost, and timing of the last run */
    uint64_t cycles, bytes, macs, start;
} byoc__dv_cmd;

/* a compute kernel: a chain of op calls (anchor, then its epilogue) over SRAM tiles */
typedef struct byoc__dv_kernel {
    byoc_node *fn;
    byoc_node *calls[16];
    int ncalls;
    int arg_param[16][BYOC__DV_MAX_ARGS]; /* per call and argument: the parameter it reads, or -1 for the previous
                                             call's result */
    int cls;              /* the anchor's layer class */
    uint64_t cycles, macs;
    size_t out_bytes;
    size_t param_bytes[BYOC__DV_MAX_OPERANDS];
} byoc__dv_kernel;

typedef struct byoc__dv_stream {
    byoc_sim_device dev;
    byoc__dv_tensor *tensors;
    int ntensors, cap_tensors;
    byoc__dv_cmd *cmds;
    int ncmds, cap_cmds;
    char **layer_names, **layer_ops;
    int nlayers, cap_layers;
    int ninputs, noutputs;
    unsigned char *consts;
    uint64_t const_bytes, cap_consts;
    uint64_t scratch_bytes;
    byoc_module *km;      /* the kernels, functions @k0 ... */
    byoc__dv_kernel *kernels;
    int nkernels, cap_kernels;
    int *layer_bufs;      /* compile side: 2 where a layer's tiles are double-buffered */
    int cap_layer_bufs;
    size_t workspace;
    uint64_t memo_cycles; /* estimating with a memo: the cycles of layers it knew (they emit no commands) */
    byoc_allocator alloc; /* a loaded stream's memory (zero: malloc and free, as on the compile side) */
} byoc__dv_stream;

/* growable arrays of the compile side and the loader (plain malloc: a device program is not a sim program) */
BYOC__SIM_PRIVATE int byoc__dv_grow(void **arr, int *cap, int need, size_t elem) {
    if (need <= *cap) return 1;
    int ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > INT_MAX / 2) return 0;
        ncap *= 2;
    }
    void *n = BYOC_REALLOC(*arr, (size_t)ncap * elem);
    if (!n) return 0;
    *arr = n;
    *cap = ncap;
    return 1;
}
#define BYOC__DV_RESERVE(arr, cap, need) byoc__dv_grow((void **)(void *)&(arr), &(cap), (need), sizeof *(arr))

/* memory through an allocator (zero: malloc and free); zeroed, and NULL when n * size overflows */
BYOC__SIM_PRIVATE void *byoc__dv_zalloc(const byoc_allocator *a, size_t n, size_t size) {
    if (size && n > SIZE_MAX / size) return NULL;
    size_t bytes = n * size != 0 ? n * size : 1;
    void *p = a->alloc_fn && a->free_fn ? a->alloc_fn(bytes, a->user_data) : BYOC_MALLOC(bytes);
    if (p) memset(p, 0, bytes);
    return p;
}
BYOC__SIM_PRIVATE void byoc__dv_release(const byoc_allocator *a, void *p) {
    if (!p) return;
    if (a->alloc_fn && a->free_fn) a->free_fn(p, a->user_data);
    else BYOC_FREE(p);
}

BYOC__SIM_PRIVATE void byoc__dv_stream_free(byoc__dv_stream *s) {
    if (!s) return;
    const byoc_allocator a = s->alloc;
    for (int i = 0; i < s->nlayers; ++i) {
        byoc__dv_release(&a, s->layer_names[i]);
        byoc__dv_release(&a, s->layer_ops[i]);
    }
    byoc__dv_release(&a, s->layer_bufs);
    byoc__dv_release(&a, s->layer_names);
    byoc__dv_release(&a, s->layer_ops);
    byoc__dv_release(&a, s->tensors);
    byoc__dv_release(&a, s->cmds);
    byoc__dv_release(&a, s->consts);
    byoc__dv_release(&a, s->kernels);
    if (s->km) byoc_module_destroy(s->km);
    memset(s, 0, sizeof *s);
}

BYOC__SIM_PRIVATE char *byoc__dv_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = BYOC__SIM_CAST(char *, BYOC_MALLOC(n));
    if (d) memcpy(d, s, n);
    return d;
}

// [SECTION] sim impl: the cycle model and the npu, dsp and host kinds
/* ---- cycle model ---- */
BYOC__SIM_PRIVATE uint64_t byoc__dv_ceil_div(uint64_t a, uint64_t b) { return b ? (a + b - 1) / b : a; }

/* contiguous runs of a box in its tensor: innermost full axes merge into one run */
BYOC__SIM_PRIVATE void byoc__dv_runs(const byoc__dv_box *b, const int64_t *dims, uint64_t *runs, uint64_t *run_elems) {
    int k = b->rank - 1;
    uint64_t inner = 1;
    while (k > 0 && b->begin[k] == 0 && b->extent[k] == dims[k]) inner *= (uint64_t)dims[k--];
    *run_elems = b->rank ? inner * (uint64_t)b->extent[k < 0 ? 0 : k] : 1;
    uint64_t r = 1;
    for (int a = 0; a < k; ++a) r *= (uint64_t)b->extent[a];
    *runs = r;
}
BYOC__SIM_PRIVATE uint64_t byoc__dv_dma_cycles(const byoc_sim_device *dev, const byoc__dv_box *b,
                                               const byoc__dv_tensor *t, uint64_t *bytes) {
    uint64_t runs, elems, esize = byoc_dtype_size((byoc_dtype)t->dtype);
    byoc__dv_runs(b, t->dims, &runs, &elems);
    *bytes = runs * elems * esize;
    uint64_t burst = (uint64_t)(dev->burst_bytes > 0 ? dev->burst_bytes : 1);
    uint64_t moved = runs * byoc__dv_ceil_div(elems * esize, burst) * burst;
    return (uint64_t)dev->dram_latency + (uint64_t)((double)moved / dev->dram_bytes_per_cycle + 0.999999);
}

BYOC__SIM_PRIVATE uint64_t byoc__dv_elems(const byoc_type *t) {
    uint64_t n = 1;
    for (int i = 0; t && i < t->rank; ++i) n *= (uint64_t)t->dims[i];
    return n;
}
BYOC__SIM_PRIVATE uint64_t byoc__dv_log2(uint64_t x) {
    uint64_t r = 0;
    while (x > 1) x >>= 1, r++;
    return r;
}

/* ---- the integer datapath: requantize in fixed point ----
   Integer NPUs and DSPs do not rescale int32 accumulators with a float multiply: TFLite's QuantizeMultiplier
   (tensorflow/lite/kernels/internal/quantization_util.cc) turns the real multiplier input_scale / output_scale
   (for a conv: input scale * weight scale[c] / output scale, per channel) into a Q31 multiplier m in [2^30, 2^31)
   and a power-of-two exponent, and MultiplyByQuantizedMultiplier (kernels/internal/common.h: gemmlowp's
   SaturatingRoundingDoublingHighMul, then RoundingDivideByPOT) applies it; TFLite Micro's int8 kernels and the
   Ethos-U output stage (Vela's scaling: a 32-bit scale and a shift per channel) compute this way. Against ONNX
   Runtime's float32 requantize (x * M rounded half to even) the result can differ by one LSB, never more: ties
   do not go to even here (the high multiply's nudge rounds them up, the shift's threshold away from zero), the
   high multiply rounds once before the shift rounds again (a value within 2^-(shift+1) of a half can cross it),
   and m carries 31 bits of M where ORT's product carries 24. The error before the last rounding stays below a
   quarter LSB past the half, and the saturation is monotone, so the two stay within 1. */
BYOC_SIM_API byoc_result byoc_sim_quantize_multiplier(double real, int32_t *multiplier, int *shift, byoc_diag *diag) {
    if (!multiplier) return byoc__null_arg(diag, __func__, "multiplier");
    if (!shift) return byoc__null_arg(diag, __func__, "shift");
    if (!byoc__q31_multiplier(real, multiplier, shift)) /* byoc.h's, the host kernel's too */
        return byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL,
                              "byoc_sim_quantize_multiplier: the real multiplier %g is not a positive finite number",
                              real);
    return BYOC_OK;
}
BYOC_SIM_API int32_t byoc_sim_multiply_by_quantized_multiplier(int32_t x, int32_t multiplier, int shift) {
    return byoc__q31_multiply(x, multiplier, shift);
}

/* a scale's or zero point's value for channel c (one element: the same for all) */
BYOC__SIM_PRIVATE double byoc__dv_qparam_at(const byoc_tensor *p, int64_t c) {
    int64_t n = 1;
    for (int i = 0; i < p->rank; ++i) n *= p->dims[i];
    int64_t at = n > 1 ? c : 0;
    return byoc_dtype_is_float(p->dtype) ? byoc__load(p->dtype, p->data, at)
                                         : (double)byoc__int_at(p->dtype, (const char *)p->data +
                                                                              at * (int64_t)byoc_dtype_size(p->dtype));
}
/* qnn.requantize as the device computes it (its rounding and compute_dtype attributes are the host's): per channel
   along `axis`, q = saturate(MultiplyByQuantizedMultiplier(saturate_int32(data - input_zero_point), m, shift)
   + output_zero_point). In place over a narrower result, element by element forward, as the output stage does. */
BYOC__SIM_PRIVATE byoc_result byoc__dv_requantize_fixed(const byoc_node *call, const byoc_tensor *args,
                                                        byoc_tensor *out, byoc_diag *diag) {
    const byoc_tensor *x = &args[0];
    double lo, hi, xlo, xhi;
    if (!byoc__qrange(out->dtype, &lo, &hi) || !byoc__qrange(x->dtype, &xlo, &xhi))
        return byoc__sim_fail(diag, BYOC_ERR_UNSUPPORTED, call, "qnn.requantize: %s to %s is not an integer datapath",
                              byoc_dtype_name(x->dtype), byoc_dtype_name(out->dtype));
    int64_t axis = byoc_attrs_int(&call->attrs, "axis", -1), outer = 1, extent = 1, inner = 1;
    if (x->rank) {
        if (axis < 0) axis += x->rank;
        if (axis < 0 || axis >= x->rank) axis = x->rank - 1;
        for (int i = 0; i < x->rank; ++i)
            *(i < axis ? &outer : i == axis ? &extent : &inner) *= x->dims[i];
    }
    size_t xs = byoc_dtype_size(x->dtype), os = byoc_dtype_size(out->dtype);
    const char *xd = (const char *)x->data;
    char *od = (char *)out->data;
    for (int64_t o = 0, at = 0; o < outer; ++o)
        for (int64_t c = 0; c < extent; ++c, at += inner) {
            double m = byoc__dv_qparam_at(&args[1], c) / byoc__dv_qparam_at(&args[3], c);
            int64_t in_zp = (int64_t)byoc__dv_qparam_at(&args[2], c), out_zp = (int64_t)byoc__dv_qparam_at(&args[4], c);
            int32_t qm;
            int shift;
            byoc_diag md;
            if (byoc_sim_quantize_multiplier(m, &qm, &shift, &md) != BYOC_OK)
                return byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, call,
                                      "qnn.requantize: channel %lld: input_scale / output_scale = %g is not a positive "
                                      "finite number",
                                      (long long)c, m);
            for (int64_t r = 0; r < inner; ++r) {
                int64_t d = byoc__int_at(x->dtype, xd + (at + r) * (int64_t)xs) - in_zp;
                int64_t q = (int64_t)byoc_sim_multiply_by_quantized_multiplier(byoc__saturate_i32(d), qm, shift) +
                            out_zp;
                byoc__int_put(out->dtype, od + (at + r) * (int64_t)os,
                              q < (int64_t)lo ? (int64_t)lo : q > (int64_t)hi ? (int64_t)hi : q);
            }
        }
    return BYOC_OK;
}

/* ---- device kinds: npu, dsp and the host, and the registry ---- */
/* 16-bit integer operands of a product: MAC arrays and DSPs multiply them at half their 8-bit rate */
BYOC__SIM_PRIVATE int byoc__dv_int16_product(const byoc_node *anchor) {
    for (int i = 0; i < 2 && i < anchor->nargs; ++i) {
        const byoc_type *t = anchor->args[i]->checked_type;
        if (t && (t->dtype == BYOC_INT16 || t->dtype == BYOC_UINT16)) return 1;
    }
    return 0;
}
/* NPU: a systolic MAC array; convolutions and dense layers by SCALE-Sim's folds, pools and standalone
   elementwise ops at `cols` results per cycle, the fused bias and activation free (in the output stage).
   Integers: int8 and uint8 products at rows x cols MACs per cycle (Ethos-U55-256: 256 int8 MACs per cycle),
   int16 at half that (Arm documents 16x8 convolutions at half the 8x8 rate); a fused qnn.requantize adds the
   output stage's drain (multiply-high, rounding shift, zero point, clamp: 4 stages) to the layer; a standalone
   qnn op of the elementwise class (qnn.add rescales both inputs and the sum) takes two passes. */
BYOC__SIM_PRIVATE uint64_t byoc__dv_npu_cycles(const byoc_sim_device *dev, const byoc_node *const *calls, int ncalls,
                                               uint64_t *macs_out, void *user_data) {
    (void)user_data;
    const byoc_node *a = calls[0];
    const byoc_type *out = a->checked_type;
    byoc_op_class cls = a->op->def.device_class;
    uint64_t cyc = 0, macs = 0;
    uint64_t rows = (uint64_t)(dev->rows > 0 ? dev->rows : 1), cols = (uint64_t)(dev->cols > 0 ? dev->cols : 1);
    if (cls == BYOC_OP_CLASS_CONV2D || cls == BYOC_OP_CLASS_DENSE) {
        const byoc_type *w = a->args[1]->checked_type;
        uint64_t pixels, m, t;
        if (cls == BYOC_OP_CLASS_CONV2D) { /* out [n, m, e, f], weight [m, c, r, s] */
            pixels = (uint64_t)out->dims[0] * (uint64_t)out->dims[2] * (uint64_t)out->dims[3];
            m = (uint64_t)out->dims[1];
            t = (uint64_t)w->dims[1] * (uint64_t)w->dims[2] * (uint64_t)w->dims[3];
        } else { /* out [n, m], weight [m, k] */
            pixels = (uint64_t)out->dims[0];
            m = (uint64_t)out->dims[1];
            t = (uint64_t)w->dims[1];
        }
        macs = pixels * m * t;
        if (dev->dataflow == BYOC_SIM_WEIGHT_STATIONARY) /* SCALE-Sim WS: Sr = R*S*C, Sc = M, T = E*F */
            cyc = byoc__dv_ceil_div(t, rows) * byoc__dv_ceil_div(m, cols) * (2 * rows + cols + pixels - 2);
        else /* OS: Sr = E*F, Sc = M, T = R*S*C */
            cyc = byoc__dv_ceil_div(pixels, rows) * byoc__dv_ceil_div(m, cols) * (rows + cols + t - 2);
        if (byoc__dv_int16_product(a)) cyc *= 2;
        for (int i = 1; i < ncalls; ++i)
            if (!strcmp(calls[i]->op->def.name, "qnn.requantize")) cyc += 4;
    } else {
        uint64_t work = byoc__dv_elems(out);
        if (cls == BYOC_OP_CLASS_POOL2D)
            work *=
                (uint64_t)(byoc__dv_pair(&a->attrs, "pool_size", 0, 1) * byoc__dv_pair(&a->attrs, "pool_size", 1, 1));
        if (cls == BYOC_OP_CLASS_GLOBAL_POOL2D) work = byoc__dv_elems(a->args[0]->checked_type);
        if (cls == BYOC_OP_CLASS_ELEMWISE && !strncmp(a->op->def.name, "qnn.", 4)) work *= 2;
        cyc = byoc__dv_ceil_div(work, cols) + 8;
    }
    *macs_out = macs;
    return cyc;
}
BYOC__SIM_PRIVATE void byoc__dv_npu_describe(const byoc_sim_device *d, char *out, size_t cap, void *user_data) {
    (void)user_data;
    char dts[160];
    byoc__dv_dtypes_text(d->dtypes, dts, sizeof dts);
    snprintf(out, cap,
             "%s (%s): %dx%d MACs %s at %g MHz, SRAM %lld KB, DRAM %g B/cycle latency %d burst %d, launch %d cycles, "
             "%s buffering, %s",
             byoc__sim_kind_name(d->kind), d->preset, d->rows, d->cols,
             d->dataflow == BYOC_SIM_WEIGHT_STATIONARY ? "weight-stationary" : "output-stationary", d->clock_mhz,
             (long long)(d->sram_bytes >> 10), d->dram_bytes_per_cycle, d->dram_latency, d->burst_bytes,
             d->launch_cycles, d->double_buffer ? "double" : "single", dts);
}
/* what the NPU's output stage computes elementwise (activations by lookup table) */
static const char *const byoc__dv_npu_ops[] = {"add",           "subtract",    "multiply", "maximum",
                                               "minimum",       "nn.bias_add", "nn.relu",  "clip",
                                               "nn.leaky_relu", "sigmoid",     "tanh",     "qnn.requantize",
                                               "qnn.add",       "qnn.mul",     "qnn.sigmoid",
                                               "qnn.leaky_relu", NULL};
static const byoc_sim_device byoc__dv_npu_presets[] = {
    {0, "ethos-u55-256", 500.0, 16, 16, BYOC_SIM_OUTPUT_STATIONARY, 16, 384 * 1024, 8.0, 500, 128, 1000, 1,
     BYOC__DV_DT(BYOC_FLOAT32) | BYOC__DV_DT(BYOC_INT8) | BYOC__DV_DT(BYOC_UINT8) | BYOC__DV_DT(BYOC_INT16)},
    {0, "npu-128x128", 700.0, 128, 128, BYOC_SIM_WEIGHT_STATIONARY, 128, 1024 * 1024, 32.0, 200, 64, 1000, 1,
     BYOC__DV_DT(BYOC_FLOAT32) | BYOC__DV_DT(BYOC_INT8) | BYOC__DV_DT(BYOC_UINT8) | BYOC__DV_DT(BYOC_INT16) |
         BYOC__DV_DT(BYOC_BFLOAT16)}};
static const char *const byoc__dv_npu_about[] = {"edge NPU after Arm's Ethos-U55-256: 256 MACs/cycle (16x16), 500 MHz, "
                                                 "64-bit AXI (8 B/cycle), DRAM latency 500 cycles and "
                                                 "128-byte bursts as in Vela's performance model; 384 KB SRAM for "
                                                 "tiles. float32 runs at the int8 MAC rate (the U55 itself computes "
                                                 "int8 and int16 only)",
                                                 "datacenter-class NPU: a 128x128 weight-stationary systolic array "
                                                 "like a TPU v2 core's MXU (128x128 at 700 MHz), 1 MB SRAM for "
                                                 "tiles, 32 B/cycle DRAM, latency 200 cycles"};
/* the int8 composites both built-in device backends carry (README "The integer datapath"): a qnn.conv2d or
   qnn.dense anchor with its int32 bias, requantize and clip, and qnn.add */
#define BYOC__SIM_INT8_COMPOSITES \
    "define qconv = is_op(\"qnn.conv2d\")(wildcard(), is_constant(), wildcard(), " \
    "wildcard(), wildcard(), wildcard())\n" \
    "define qdense = is_op(\"qnn.dense\")(wildcard(), is_constant(), wildcard(), " \
    "wildcard(), wildcard(), wildcard())\n" \
    "define qconv_bias = (is_op(\"add\") | is_op(\"nn.bias_add\"))(qconv, is_constant())\n" \
    "define qdense_bias = (is_op(\"add\") | is_op(\"nn.bias_add\"))(qdense, is_constant())\n" \
    "define qconv_bias_rq = is_op(\"qnn.requantize\")(qconv_bias, wildcard(), wildcard(), wildcard(), wildcard())\n" \
    "define qconv_rq = is_op(\"qnn.requantize\")(qconv, wildcard(), wildcard(), wildcard(), wildcard())\n" \
    "define qdense_bias_rq = is_op(\"qnn.requantize\")(qdense_bias, wildcard(), wildcard(), wildcard(), wildcard())\n" \
    "define qdense_rq = is_op(\"qnn.requantize\")(qdense, wildcard(), wildcard(), wildcard(), wildcard())\n" \
    "pattern qnn_conv2d_bias_requantize_clip = is_op(\"clip\")(qconv_bias_rq)\n" \
    "pattern qnn_conv2d_requantize_clip = is_op(\"clip\")(qconv_rq)\n" \
    "pattern qnn_conv2d_bias_requantize = qconv_bias_rq\n" \
    "pattern qnn_conv2d_requantize = qconv_rq\n" \
    "pattern qnn_dense_bias_requantize = qdense_bias_rq\n" \
    "pattern qnn_dense_requantize = qdense_rq\n" \
    "pattern qnn_add = is_op(\"qnn.add\")(wildcard(), wildcard(), wildcard(), wildcard(), wildcard(), wildcard(), " \
    "wildcard(), wildcard())\n"

static const char byoc__dv_npu_spec[] =
    "# Built-in NPU: convolutions, dense layers and pools, with bias and activation fused into the layer; int8 (qnn)\n"
    "# layers with the int32 bias, requantize and clip in the output stage.\n"
    "backend npu\n"
    "kind npu\n"
    "priority 20\n"
    "define conv = is_op(\"nn.conv2d\")(wildcard(), is_constant())\n"
    "define dense = is_op(\"nn.dense\")(wildcard(), is_constant())\n"
    "define conv_bias = (is_op(\"add\") | is_op(\"nn.bias_add\"))(conv, is_constant())\n"
    "define dense_bias = (is_op(\"add\") | is_op(\"nn.bias_add\"))(dense, is_constant())\n"
    "pattern conv2d_bias_relu = is_op(\"nn.relu\")(conv_bias)\n"
    "pattern conv2d_bias_clip = is_op(\"clip\")(conv_bias)\n"
    "pattern conv2d_bias = conv_bias\n"
    "pattern conv2d_relu = is_op(\"nn.relu\")(conv)\n"
    "pattern dense_bias_relu = is_op(\"nn.relu\")(dense_bias)\n"
    "pattern dense_bias = dense_bias\n"
    BYOC__SIM_INT8_COMPOSITES
    "supports nn.conv2d nn.dense nn.max_pool2d nn.avg_pool2d nn.global_avg_pool2d nn.global_max_pool2d\n"
    "supports add nn.bias_add multiply nn.relu clip\n"
    "supports qnn.conv2d qnn.dense qnn.requantize qnn.add qnn.mul qnn.sigmoid qnn.leaky_relu\n"
    "supports qnn.avg_pool2d qnn.global_avg_pool2d\n";

/* DSP: a vector unit; every op of a layer is vector work at `lanes` elements per cycle times a per-op cost
   (polynomials for transcendental functions), softmax and layer_norm by their passes, reductions by a tree.
   `lanes` counts 32-bit lanes: integer ops split each into 32 / bits lanes (4 int8, 2 int16: Hexagon's vrmpy and
   Vision Q7's 8-bit MACs multiply four int8 pairs per 32-bit lane), so qnn.conv2d and qnn.dense run
   4 * lanes int8 MACs per cycle; qnn.requantize on int32 accumulators costs 2 per element (multiply-high, then
   the rounding shift with zero point and clamp). */
/* elements (or MACs) per cycle of a vector op: float at `lanes`, integers packed into the 32-bit lanes by the
   widest of its data operands and, unless it is a product with its own int32 accumulators, its result */
BYOC__SIM_PRIVATE uint64_t byoc__dv_dsp_width(uint64_t lanes, const byoc_node *c, int with_result) {
    size_t widest = 0;
    for (int i = with_result ? -1 : 0; i < c->nargs && i < 2; ++i) {
        const byoc_type *t = i < 0 ? c->checked_type : c->args[i]->checked_type;
        if (!t || t->kind != BYOC_TYPE_TENSOR) continue;
        if (byoc_dtype_is_float(t->dtype)) return lanes;
        if (byoc_dtype_size(t->dtype) > widest) widest = byoc_dtype_size(t->dtype);
    }
    return widest >= 1 && widest < 4 ? lanes * (4 / widest) : lanes;
}
static const byoc_op *byoc__dv_dsp_heavy[8], *byoc__dv_dsp_medium[8]; /* resolved when the dsp registers */
BYOC__SIM_PRIVATE uint64_t byoc__dv_dsp_op_cost(const byoc_op *op) {
    for (int i = 0; i < 8 && byoc__dv_dsp_heavy[i]; ++i)
        if (byoc__dv_dsp_heavy[i] == op) return 8;
    for (int i = 0; i < 8 && byoc__dv_dsp_medium[i]; ++i)
        if (byoc__dv_dsp_medium[i] == op) return 4;
    return 1;
}
BYOC__SIM_PRIVATE uint64_t byoc__dv_dsp_cycles(const byoc_sim_device *dev, const byoc_node *const *calls, int ncalls,
                                               uint64_t *macs_out, void *user_data) {
    (void)user_data;
    *macs_out = 0;
    uint64_t cyc = 0, lanes = (uint64_t)(dev->lanes > 0 ? dev->lanes : 1);
    for (int i = 0; i < ncalls; ++i) {
        const byoc_node *c = calls[i];
        const byoc_type *in = c->args[0]->checked_type;
        uint64_t n = byoc__dv_elems(c->checked_type), nin = byoc__dv_elems(in);
        byoc_op_class cls = c->op->def.device_class;
        if (cls == BYOC_OP_CLASS_CONV2D || cls == BYOC_OP_CLASS_DENSE) { /* integer products only (qnn) */
            uint64_t macs = n;
            const byoc_type *w = c->args[1]->checked_type;
            for (int d = 1; d < w->rank; ++d) macs *= (uint64_t)w->dims[d];
            *macs_out += macs;
            cyc += byoc__dv_ceil_div(macs, byoc__dv_dsp_width(lanes, c, 0));
        } else if (cls == BYOC_OP_CLASS_SOFTMAX || cls == BYOC_OP_CLASS_LAYER_NORM) {
            int64_t axis = byoc_attrs_int(&c->attrs, "axis", -1);
            if (axis < 0) axis += in->rank;
            uint64_t len = axis >= 0 && axis < in->rank ? (uint64_t)in->dims[axis] : 1, nrows = len ? nin / len : 0;
            /* softmax: max, exp, sum, scale (1 + 8 + 1 + 1);
               layer_norm: mean, variance, normalise, affine (1 + 2 + 2 + 2) */
            uint64_t passes = cls == BYOC_OP_CLASS_SOFTMAX ? 11 : 7;
            cyc += nrows * (byoc__dv_ceil_div(len, lanes) * passes + 2 * byoc__dv_log2(lanes) + 4);
        } else if (cls == BYOC_OP_CLASS_REDUCE) {
            cyc += byoc__dv_ceil_div(nin, lanes) + n * byoc__dv_log2(lanes);
        } else if (cls == BYOC_OP_CLASS_TRANSPOSE) {
            cyc += 2 * byoc__dv_ceil_div(n, lanes);
        } else {
            uint64_t cost = !strcmp(c->op->def.name, "qnn.requantize") ? 2
                            : !strncmp(c->op->def.name, "qnn.", 4)      ? 3 /* rescale both inputs and the result */
                                                                       : byoc__dv_dsp_op_cost(c->op);
            cyc += byoc__dv_ceil_div(n, byoc__dv_dsp_width(lanes, c, 1)) * cost;
        }
        cyc += 8; /* pipeline fill per op */
    }
    return cyc;
}
BYOC__SIM_PRIVATE void byoc__dv_dsp_describe(const byoc_sim_device *d, char *out, size_t cap, void *user_data) {
    (void)user_data;
    char dts[160];
    byoc__dv_dtypes_text(d->dtypes, dts, sizeof dts);
    snprintf(out, cap,
             "%s (%s): %d lanes at %g MHz, SRAM %lld KB, DRAM %g B/cycle latency %d burst %d, launch %d cycles, %s "
             "buffering, %s",
             byoc__sim_kind_name(d->kind), d->preset, d->lanes, d->clock_mhz, (long long)(d->sram_bytes >> 10),
             d->dram_bytes_per_cycle, d->dram_latency, d->burst_bytes, d->launch_cycles,
             d->double_buffer ? "double" : "single", dts);
}
/* what the DSP's vector unit computes elementwise */
static const char *const byoc__dv_dsp_ops[] = {
    "add",           "subtract", "multiply", "divide", "maximum", "minimum",       "nn.bias_add",
    "nn.relu",       "clip",     "sigmoid",  "tanh",   "exp",     "log",           "sqrt",
    "rsqrt",         "erf",      "negative", "abs",    "nn.gelu", "nn.leaky_relu", "nn.hard_sigmoid",
    "nn.hard_swish", "power",    "qnn.conv2d", "qnn.dense", "qnn.requantize", "qnn.add", "qnn.mul",
    "qnn.sigmoid",   "qnn.leaky_relu", NULL};
static const byoc_sim_device byoc__dv_dsp_presets[] = {
    {0, "dsp-512", 800.0, 0, 0, BYOC_SIM_OUTPUT_STATIONARY, 16, 256 * 1024, 16.0, 200, 64, 200, 1,
     BYOC__DV_DT(BYOC_FLOAT32) | BYOC__DV_DT(BYOC_INT8) | BYOC__DV_DT(BYOC_UINT8) | BYOC__DV_DT(BYOC_INT16) |
         BYOC__DV_DT(BYOC_INT32)},
    {0, "hvx-1024", 1000.0, 0, 0, BYOC_SIM_OUTPUT_STATIONARY, 32, 256 * 1024, 32.0, 300, 128, 2000, 1,
     BYOC__DV_DT(BYOC_FLOAT32) | BYOC__DV_DT(BYOC_INT8) | BYOC__DV_DT(BYOC_UINT8) | BYOC__DV_DT(BYOC_INT16) |
         BYOC__DV_DT(BYOC_INT32)}};
static const char *const byoc__dv_dsp_about[] = {"vector DSP with a 512-bit SIMD unit (16 float32 lanes) at 800 MHz, "
                                                 "like Cadence's Tensilica Vision Q7; 256 KB local memory, "
                                                 "16 B/cycle DMA, latency 200 cycles, 200-cycle launch",
                                                 "vector DSP like Qualcomm's Hexagon with HVX: 1024-bit vectors (32 "
                                                 "float32 lanes) at 1 GHz, 256 KB VTCM, 32 B/cycle, a "
                                                 "2000-cycle launch (a remote call from the application core)"};
static const char byoc__dv_dsp_spec[] =
    "# Built-in vector DSP: elementwise arithmetic and activations, softmax, layer norm, reductions, transposes, and\n"
    "# int8 convolutions and dense layers with their requantize (qnn).\n"
    "backend dsp\n"
    "kind dsp\n"
    "priority 10\n"
    "supports add nn.bias_add subtract multiply divide maximum minimum power nn.relu clip sigmoid tanh exp log sqrt "
    "rsqrt erf\n"
    "supports negative abs nn.gelu nn.leaky_relu nn.hard_sigmoid nn.hard_swish\n"
    "supports nn.softmax nn.log_softmax nn.layer_norm transpose mean sum max min\n"
    BYOC__SIM_INT8_COMPOSITES
    "supports qnn.conv2d qnn.dense qnn.requantize qnn.add qnn.mul qnn.sigmoid qnn.leaky_relu qnn.softmax\n";

/* the host: modelled per kernel (byoc__sim_account), not by command streams */
BYOC__SIM_PRIVATE void byoc__dv_host_describe(const byoc_sim_device *d, char *out, size_t cap, void *user_data) {
    (void)user_data;
    snprintf(out, cap, "%s (%s): %d float ops/cycle at %g MHz, DRAM %g B/cycle, %d cycles per kernel",
             byoc__sim_kind_name(d->kind), d->preset, d->lanes, d->clock_mhz, d->dram_bytes_per_cycle,
             d->launch_cycles);
}
static const byoc_sim_device byoc__dv_host_presets[] = {
    {0, "host-a55", 1800.0, 0, 0, BYOC_SIM_OUTPUT_STATIONARY, 4, 0, 8.0, 0, 64, 500, 0, ~0u}};
static const char *const byoc__dv_host_about[] = {"application core like Arm's Cortex-A55 at 1.8 GHz: 128-bit NEON, 4 "
                                                  "sustained float ops per cycle (half the FMA peak), "
                                                  "8 B/cycle DRAM, 500 cycles per kernel call"};

/* device parameters a command stream can run with (a loaded blob's, a registered preset's) */
BYOC__SIM_PRIVATE int byoc__dv_params_ok(const byoc_sim_device *d, int mac_array) {
    return d->clock_mhz >= 1 && d->clock_mhz <= 1e5 && d->rows >= 0 && d->rows <= 4096 && d->cols >= 0 &&
           d->cols <= 4096 && d->lanes >= 1 && d->lanes <= 4096 && d->sram_bytes >= 64 &&
           d->sram_bytes <= BYOC__DV_MAX_SRAM && d->dram_bytes_per_cycle >= 0.01 && d->dram_bytes_per_cycle <= 1e4 &&
           d->dram_latency >= 0 && d->burst_bytes >= 1 && d->launch_cycles >= 0 &&
           !(mac_array && (d->rows < 1 || d->cols < 1));
}

static byoc__dk_entry byoc__dk_entries[BYOC__DK_MAX];
static int byoc__dk_n, byoc__dk_ready;
BYOC__SIM_PRIVATE byoc_result byoc__dk_add(const byoc_sim_device_kind_def *def, byoc_diag *diag) {
    const char *name = def ? def->name : NULL;
    int ident = name && *name && strlen(name) < 32;
    for (const char *c = name; ident && *c; ++c)
        ident = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_';
    if (!ident)
        return byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL,
                              "device kind: the name must be an identifier of at most 31 characters");
    if (byoc__dk_n == BYOC__DK_MAX)
        return byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL,
                              "device kind '%s': the registry is full (%d kinds)", name, BYOC__DK_MAX);
    for (int k = 0; k < byoc__dk_n; ++k)
        if (!strcmp(byoc__dk_entries[k].def.name, name))
            return byoc__sim_fail(diag, BYOC_ERR_DUPLICATE, NULL, "device kind '%s' is registered already", name);
    if (!def->compute_cycles && byoc__dk_n > 0)
        return byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL, "device kind '%s': compute_cycles is required",
                              name);
    if (!def->presets || def->npresets < 1 || def->npresets > BYOC__DK_MAX_PRESETS)
        return byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL, "device kind '%s': 1 to %d presets", name,
                              BYOC__DK_MAX_PRESETS);
    byoc__dk_entry e;
    memset(&e, 0, sizeof e);
    e.def = *def;
    for (int i = 0; i < def->npresets; ++i) {
        e.presets[i] = def->presets[i];
        e.presets[i].kind = byoc__dk_n;
        e.presets[i].preset[sizeof e.presets[i].preset - 1] = 0;
        const char *pn = e.presets[i].preset;
        int dup = !*pn || byoc_sim_preset_find(pn) != NULL;
        for (int j = 0; j < i && !dup; ++j) dup = !strcmp(e.presets[j].preset, pn);
        if (dup)
            return byoc__sim_fail(diag, BYOC_ERR_DUPLICATE, NULL,
                                  "device kind '%s': preset %d has no name, or '%s' is taken", name, i, pn);
        if (def->compute_cycles && !byoc__dv_params_ok(&e.presets[i], def->mac_array))
            return byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL,
                                  "device kind '%s': preset '%s' has parameters out of range", name, pn);
    }
    for (int i = 0; def->ops && def->ops[i]; ++i) {
        const byoc_op *op = byoc_op_get(def->ops[i]);
        if (!op || op->def.device_class == BYOC_OP_CLASS_NONE || e.nops == BYOC__DK_MAX_OPS)
            return byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL,
                                  "device kind '%s': op '%s' is unknown, of no device class, or one too many", name,
                                  def->ops[i]);
        e.ops[e.nops++] = op;
    }
    byoc__dk_entries[byoc__dk_n++] = e;
    return BYOC_OK;
}
/* the built-in kinds, registered as any other: the host (index 0), npu (1), dsp (2) */
BYOC__SIM_PRIVATE void byoc__dk_init(void) {
    if (byoc__dk_ready) return;
    byoc__dk_ready = 1;
    static const char *const heavy[] = {"exp", "log", "sigmoid", "tanh", "erf", "nn.gelu", "power", NULL};
    static const char *const medium[] = {"divide", "sqrt", "rsqrt", "nn.hard_swish", NULL};
    for (int i = 0; heavy[i]; ++i) byoc__dv_dsp_heavy[i] = byoc_op_get(heavy[i]);
    for (int i = 0; medium[i]; ++i) byoc__dv_dsp_medium[i] = byoc_op_get(medium[i]);
    byoc_sim_device_kind_def host, npu, dsp;
    memset(&host, 0, sizeof host);
    host.name = "host";
    host.about = "the application core: every op on byoc.h's host kernels, costed per kernel";
    host.presets = byoc__dv_host_presets, host.preset_about = byoc__dv_host_about, host.npresets = 1;
    host.describe = byoc__dv_host_describe;
    memset(&npu, 0, sizeof npu);
    npu.name = "npu";
    npu.about = "systolic MAC array: convolutions, dense layers, pools; bias and activations in the output stage";
    npu.presets = byoc__dv_npu_presets, npu.preset_about = byoc__dv_npu_about, npu.npresets = 2;
    npu.spec_text = byoc__dv_npu_spec;
    npu.classes = BYOC_SIM_CLASS(BYOC_OP_CLASS_CONV2D) | BYOC_SIM_CLASS(BYOC_OP_CLASS_DENSE) |
                  BYOC_SIM_CLASS(BYOC_OP_CLASS_POOL2D) | BYOC_SIM_CLASS(BYOC_OP_CLASS_GLOBAL_POOL2D);
    npu.ops = byoc__dv_npu_ops;
    npu.fuse_epilogue = 1, npu.mac_array = 1;
    npu.compute_cycles = byoc__dv_npu_cycles;
    npu.describe = byoc__dv_npu_describe;
    memset(&dsp, 0, sizeof dsp);
    dsp.name = "dsp";
    dsp.about = "vector DSP: elementwise arithmetic and activations, softmax, layer norm, reductions, transposes";
    dsp.presets = byoc__dv_dsp_presets, dsp.preset_about = byoc__dv_dsp_about, dsp.npresets = 2;
    dsp.spec_text = byoc__dv_dsp_spec;
    dsp.classes = BYOC_SIM_CLASS(BYOC_OP_CLASS_SOFTMAX) | BYOC_SIM_CLASS(BYOC_OP_CLASS_LAYER_NORM) |
                  BYOC_SIM_CLASS(BYOC_OP_CLASS_REDUCE) | BYOC_SIM_CLASS(BYOC_OP_CLASS_TRANSPOSE);
    dsp.ops = byoc__dv_dsp_ops;
    dsp.fuse_epilogue = 1;
    dsp.compute_cycles = byoc__dv_dsp_cycles;
    dsp.describe = byoc__dv_dsp_describe;
    byoc_result r = byoc__dk_add(&host, NULL);
    if (r == BYOC_OK) r = byoc__dk_add(&npu, NULL);
    if (r == BYOC_OK) r = byoc__dk_add(&dsp, NULL);
    BYOC_ASSERT(r == BYOC_OK && byoc__dk_n == 3);
    (void)r;
}
BYOC__SIM_PRIVATE const byoc__dk_entry *byoc__dk_get(int k) {
    byoc__dk_init();
    return k >= 0 && k < byoc__dk_n ? &byoc__dk_entries[k] : NULL;
}
BYOC_SIM_API byoc_result byoc_sim_register_device_kind(const byoc_sim_device_kind_def *def, byoc_diag *diag) {
    byoc__dk_init();
    return byoc__dk_add(def, diag);
}
BYOC_SIM_API int byoc_sim_device_kind_count(void) {
    byoc__dk_init();
    return byoc__dk_n;
}
BYOC_SIM_API const byoc_sim_device_kind_def *byoc_sim_device_kind_at(int i) {
    const byoc__dk_entry *e = byoc__dk_get(i);
    return e ? &e->def : NULL;
}
BYOC_SIM_API int byoc_sim_device_kind_find(const char *name) {
    byoc__dk_init();
    for (int k = 0; name && k < byoc__dk_n; ++k)
        if (!strcmp(byoc__dk_entries[k].def.name, name)) return k;
    return -1;
}

/* compute cycles and MACs of a kernel (its calls typed on tile shapes): the device kind's model */
BYOC__SIM_PRIVATE void byoc__dv_kernel_cost(const byoc_sim_device *dev, byoc__dv_kernel *k) {
    const byoc__dk_entry *e = byoc__dk_device(dev->kind);
    uint64_t macs = 0;
    k->cycles =
        e ? e->def.compute_cycles(dev, (const byoc_node *const *)k->calls, k->ncalls, &macs, e->def.user_data) : 0;
    k->macs = macs;
}
// [SECTION] sim impl: device programs: lowering to command streams, tiles, timing
/* ---- lowering a partition to a command stream (relay_to_tir) ---- */
enum { BYOC__DVV_TENSOR = 1, BYOC__DVV_OP, BYOC__DVV_TUPLE };
typedef struct byoc__dv_value {
    int kind, id;     /* TENSOR: a stream tensor; OP: an op instance; TUPLE: fields at id in fields */
    int nfields;
} byoc__dv_value;

typedef struct byoc__dv_opinst {
    const byoc_node *call;
    int args[BYOC__DV_MAX_ARGS]; /* value ids */
    int uses;
    int tensor;       /* the stream tensor holding its result once a layer wrote it, else -1 */
    int layer;        /* the layer it belongs to, -1 until placed */
} byoc__dv_opinst;

/* how an operand's tile follows the output tile, per operand axis */
enum { BYOC__AX_FULL = 0, BYOC__AX_SAME, BYOC__AX_ONE, BYOC__AX_HALO };
typedef struct byoc__dv_axis {
    int how, out_axis;
    int64_t stride, pad,
        window; /* HALO: input rows of output rows [o0, o1) are [o0*stride - pad, (o1-1)*stride - pad + window) */
} byoc__dv_axis;
typedef struct byoc__dv_operand {
    int tensor;
    byoc__dv_axis axes[BYOC_MAX_RANK];
} byoc__dv_operand;

typedef struct byoc__dv_lowering {
    const byoc_sim_device *dev;
    byoc__dv_stream *s;
    byoc_module *m;
    byoc__dv_value *values;
    int nvalues, cap_values;
    int *fields;
    int nfields, cap_fields;
    byoc__dv_opinst *ops;
    int nops, cap_ops;
    const byoc_node **const_nodes; /* constant node of each CONST tensor, for sharing */
    int nconst_nodes, cap_const_nodes;
    byoc__map const_tensor;        /* constant node -> its CONST tensor (a long chain has one per op) */
    byoc_diag *diag;
    int failed;
    int dry;                       /* estimating: no constant data, no kernels' text kept */
    byoc__map *memo;               /* estimating: layer signature -> its cycles + 1 (may be NULL) */
    uint64_t dev_hash;             /* with a memo: byoc__sim_device_hash, which every layer signature mixes in */
} byoc__dv_lowering;

BYOC__SIM_PRIVATE int byoc__dv_fail(byoc__dv_lowering *L, byoc_result code, const byoc_node *n, const char *fmt, ...)
    BYOC__SIM_PRINTF(4, 5);
BYOC__SIM_PRIVATE int byoc__dv_fail(byoc__dv_lowering *L, byoc_result code, const byoc_node *n, const char *fmt, ...) {
    if (L->failed) return 0;
    L->failed = 1;
    char msg[BYOC_DIAG_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *src = n ? byoc_node_span(n)->source : NULL;
    byoc__sim_fail(L->diag, code, n, "%s%s%s%s", src ? src : "", src ? " (" : "", src && n->op ? n->op->def.name : "",
                   src ? "): " : "");
    if (L->diag)
        snprintf(L->diag->message + strlen(L->diag->message), sizeof L->diag->message - strlen(L->diag->message), "%s",
                 msg);
    return 0;
}

BYOC__SIM_PRIVATE int byoc__dv_new_value(byoc__dv_lowering *L, int kind, int id, int nfields) {
    if (!BYOC__DV_RESERVE(L->values, L->cap_values, L->nvalues + 1))
        return byoc__dv_fail(L, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory"), -1;
    byoc__dv_value v = {kind, id, nfields};
    L->values[L->nvalues] = v;
    return L->nvalues++;
}

BYOC__SIM_PRIVATE int byoc__dv_new_tensor(byoc__dv_lowering *L, int kind, int index, const byoc_type *t) {
    byoc__dv_stream *s = L->s;
    if (!t || t->kind != BYOC_TYPE_TENSOR)
        return byoc__dv_fail(L, BYOC_ERR_UNSUPPORTED, NULL, "a value that is not one tensor"), -1;
    if (!BYOC__DV_RESERVE(s->tensors, s->cap_tensors, s->ntensors + 1))
        return byoc__dv_fail(L, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory"), -1;
    byoc__dv_tensor *x = &s->tensors[s->ntensors];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->index = index;
    x->dtype = (int32_t)t->dtype;
    x->rank = t->rank;
    x->nbytes = byoc_dtype_size(t->dtype);
    for (int i = 0; i < t->rank; ++i) {
        if (t->dims[i] < 0) return byoc__dv_fail(L, BYOC_ERR_UNSUPPORTED, NULL, "dynamic shapes are not supported"), -1;
        x->dims[i] = t->dims[i];
        x->nbytes *= (uint64_t)t->dims[i];
    }
    if (kind == BYOC__DV_SCRATCH) {
        x->offset = s->scratch_bytes;
        s->scratch_bytes += (x->nbytes + 63) / 64 * 64;
    }
    return s->ntensors++;
}

BYOC__SIM_PRIVATE int byoc__dv_constant(byoc__dv_lowering *L, const byoc_node *c) {
    byoc__dv_stream *s = L->s;
    intptr_t known = byoc__map_get(&L->const_tensor, c, -1);
    if (known >= 0) return (int)known;
    int t = byoc__dv_new_tensor(L, BYOC__DV_CONST, -1, c->annotation ? c->annotation : c->checked_type);
    if (t < 0) return -1;
    if (!BYOC__DV_RESERVE(L->const_nodes, L->cap_const_nodes, L->nconst_nodes + 1))
        return byoc__dv_fail(L, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory"), -1;
    L->const_nodes[L->nconst_nodes++] = c;
    byoc__map_put(&L->const_tensor, c, t);
    byoc__dv_tensor *x = &s->tensors[t];
    x->offset = s->const_bytes;
    uint64_t need = s->const_bytes + (x->nbytes + 63) / 64 * 64;
    if (!L->dry) {
        if (need > s->cap_consts) {
            uint64_t ncap = s->cap_consts ? s->cap_consts : 4096;
            while (ncap < need) ncap *= 2;
            unsigned char *n = BYOC__SIM_CAST(unsigned char *, BYOC_REALLOC(s->consts, (size_t)ncap));
            if (!n) return byoc__dv_fail(L, BYOC_ERR_OUT_OF_MEMORY, c, "out of memory for constants"), -1;
            s->consts = n;
            s->cap_consts = ncap;
        }
        memset(s->consts + s->const_bytes, 0, (size_t)(need - s->const_bytes));
        if (c->data) memcpy(s->consts + s->const_bytes, c->data, (size_t)x->nbytes);
    }
    s->const_bytes = need;
    return t;
}

/* the values of a function's body, given its arguments' values; composite functions are entered */
BYOC__SIM_PRIVATE int byoc__dv_flatten(byoc__dv_lowering *L, const byoc_node *fn, const int *argv, int depth) {
    if (depth > 8) return byoc__dv_fail(L, BYOC_ERR_UNSUPPORTED, fn, "functions nested too deeply"), -1;
    byoc_graph g;
    if (byoc_graph_build(L->m, fn->body, 0, &g) != BYOC_OK)
        return byoc__dv_fail(L, BYOC_ERR_OUT_OF_MEMORY, fn, "out of memory"), -1;
    int *val = BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * (size_t)(g.count + 1)));
    if (!val) {
        byoc_graph_free(&g);
        return byoc__dv_fail(L, BYOC_ERR_OUT_OF_MEMORY, fn, "out of memory"), -1;
    }
    int result = -1;
    for (int i = 0; i < g.count && !L->failed; ++i) {
        const byoc_node *n = g.nodes[i].node;
        val[i] = -1;
        switch (n->kind) {
        case BYOC_NODE_VAR:
            for (int p = 0; p < fn->nparams; ++p)
                if (fn->params[p] == n) val[i] = argv[p];
            if (val[i] < 0) byoc__dv_fail(L, BYOC_ERR_UNSUPPORTED, n, "a free variable %%%s", n->name ? n->name : "?");
            break;
        case BYOC_NODE_CONSTANT: {
            int t = byoc__dv_constant(L, n);
            if (t >= 0) val[i] = byoc__dv_new_value(L, BYOC__DVV_TENSOR, t, 0);
            break;
        }
        case BYOC_NODE_FUNCTION: break; /* entered at its call */
        case BYOC_NODE_TUPLE: {
            if (!BYOC__DV_RESERVE(L->fields, L->cap_fields, L->nfields + n->nargs)) {
                byoc__dv_fail(L, BYOC_ERR_OUT_OF_MEMORY, n, "out of memory");
                break;
            }
            int first = L->nfields;
            for (int f = 0; f < n->nargs; ++f) L->fields[L->nfields++] = val[byoc_graph_index(&g, n->args[f])];
            val[i] = byoc__dv_new_value(L, BYOC__DVV_TUPLE, first, n->nargs);
            break;
        }
        case BYOC_NODE_TUPLE_GET_ITEM: {
            int tv = val[byoc_graph_index(&g, n->args[0])];
            if (tv >= 0 && L->values[tv].kind == BYOC__DVV_TUPLE && n->index >= 0 && n->index < L->values[tv].nfields)
                val[i] = L->fields[L->values[tv].id + n->index];
            else byoc__dv_fail(L, BYOC_ERR_UNSUPPORTED, n, "a projection of an op's tuple result");
            break;
        }
        case BYOC_NODE_CALL: {
            int args[16];
            if (n->nargs > 16) {
                byoc__dv_fail(L, BYOC_ERR_UNSUPPORTED, n, "a call with %d arguments", n->nargs);
                break;
            }
            for (int a = 0; a < n->nargs; ++a) args[a] = val[byoc_graph_index(&g, n->args[a])];
            if (n->op) {
                if (n->nargs > BYOC__DV_MAX_ARGS) {
                    byoc__dv_fail(L, BYOC_ERR_UNSUPPORTED, n, "%s with %d arguments", n->op->def.name, n->nargs);
                    break;
                }
                for (int a = 0; a < n->nargs; ++a)
                    if (args[a] < 0 || L->values[args[a]].kind == BYOC__DVV_TUPLE)
                        byoc__dv_fail(L, BYOC_ERR_UNSUPPORTED, n, "%s of a tuple", n->op->def.name);
                if (L->failed || !BYOC__DV_RESERVE(L->ops, L->cap_ops, L->nops + 1)) {
                    byoc__dv_fail(L, BYOC_ERR_OUT_OF_MEMORY, n, "out of memory");
                    break;
                }
                byoc__dv_opinst *o = &L->ops[L->nops];
                memset(o, 0, sizeof *o);
                o->call = n;
                o->tensor = o->layer = -1;
                for (int a = 0; a < n->nargs; ++a) o->args[a] = args[a];
                val[i] = byoc__dv_new_value(L, BYOC__DVV_OP, L->nops++, 0);
            } else if (n->callee && n->callee->kind == BYOC_NODE_FUNCTION) {
                if (n->nargs != n->callee->nparams)
                    byoc__dv_fail(L, BYOC_ERR_TYPE, n, "a call with %d arguments of a function of %d", n->nargs,
                                  n->callee->nparams);
                else val[i] = byoc__dv_flatten(L, n->callee, args, depth + 1);
            } else {
                byoc__dv_fail(L, BYOC_ERR_UNSUPPORTED, n, "a call of a global function inside a partition");
            }
            break;
        }
        default: byoc__dv_fail(L, BYOC_ERR_UNSUPPORTED, n, "an unsupported node kind"); break;
        }
    }
    if (!L->failed) result = val[byoc_graph_index(&g, fn->body)];
    BYOC_FREE(val);
    byoc_graph_free(&g);
    return L->failed ? -1 : result;
}

/* ---- tiles ---- */
/* the operand box of an output tile */
BYOC__SIM_PRIVATE void byoc__dv_operand_box(const byoc__dv_stream *s, const byoc__dv_operand *op, const int64_t *ob,
                                            const int64_t *oe, byoc__dv_box *box) {
    const byoc__dv_tensor *t = &s->tensors[op->tensor];
    memset(box, 0, sizeof *box); /* blobs record all BYOC_MAX_RANK axes: those past the rank are 0, not stack bytes */
    box->tensor = op->tensor;
    box->rank = t->rank;
    for (int a = 0; a < t->rank; ++a) {
        const byoc__dv_axis *x = &op->axes[a];
        int64_t b = 0, e = t->dims[a];
        if (x->how == BYOC__AX_SAME) b = ob[x->out_axis], e = oe[x->out_axis];
        else if (x->how == BYOC__AX_ONE) b = 0, e = 1;
        else if (x->how == BYOC__AX_HALO) {
            int64_t lo = ob[x->out_axis] * x->stride - x->pad,
                    hi = (ob[x->out_axis] + oe[x->out_axis] - 1) * x->stride - x->pad + x->window;
            if (lo < 0) lo = 0;
            if (hi > t->dims[a]) hi = t->dims[a];
            b = lo;
            e = hi > lo ? hi - lo : 1;
            if (b >= t->dims[a]) b = t->dims[a] - 1, e = 1; /* a tile inside the padding still reads one row */
        }
        box->begin[a] = b;
        box->extent[a] = e;
    }
}
BYOC__SIM_PRIVATE uint64_t byoc__dv_box_bytes(const byoc__dv_stream *s, const byoc__dv_box *b) {
    uint64_t n = byoc_dtype_size((byoc_dtype)s->tensors[b->tensor].dtype);
    for (int a = 0; a < b->rank; ++a) n *= (uint64_t)b->extent[a];
    return n;
}
BYOC__SIM_PRIVATE uint64_t byoc__dv_align(uint64_t n) { return (n + 63) / 64 * 64; }

/* A layer: an anchor op, its epilogue, their operands and the output tile plan. */
typedef struct byoc__dv_layer {
    int ops[16];
    int nops;
    int cls;
    byoc__dv_operand operands[BYOC__DV_MAX_OPERANDS];
    int noperands;
    int operand_of[16][BYOC__DV_MAX_ARGS]; /* per op and argument: operand index, or -1 for the previous op's result */
    int out;               /* stream tensor */
    int rank;
    int64_t dims[BYOC_MAX_RANK];
    int splittable[BYOC_MAX_RANK];
    int64_t tile[BYOC_MAX_RANK];
    uint64_t sram_need;
    int inner_axis; /* the tile loop's fastest axis: -1 the last (spatial); 1 the channels, so a spatial
                       tile's input stays resident across weight chunks */
    size_t out_esize; /* bytes per element of the output slot: the widest result of the chain (a qnn anchor's int32
                         accumulators stay on chip in the slot its epilogue requantizes to int8 in place) */
} byoc__dv_layer;

/* bytes per element of a layer's output slot in SRAM */
BYOC__SIM_PRIVATE uint64_t byoc__dv_out_esize(const byoc__dv_stream *s, const byoc__dv_layer *ly) {
    size_t stored = byoc_dtype_size((byoc_dtype)s->tensors[ly->out].dtype);
    return ly->out_esize > stored ? ly->out_esize : stored;
}
/* one tensor type has the other's shape (an epilogue op may change the dtype: qnn.requantize int32 -> int8) */
BYOC__SIM_PRIVATE int byoc__dv_same_shape(const byoc_type *a, const byoc_type *b) {
    if (!a || !b || a->kind != BYOC_TYPE_TENSOR || b->kind != BYOC_TYPE_TENSOR || a->rank != b->rank) return 0;
    for (int i = 0; i < a->rank; ++i)
        if (a->dims[i] != b->dims[i]) return 0;
    return 1;
}
/* the bytes of a kernel's output slot: its widest call's result */
BYOC__SIM_PRIVATE size_t byoc__dv_chain_out_bytes(byoc_node *const *calls, int ncalls) {
    size_t widest = 0;
    for (int i = 0; i < ncalls; ++i) {
        const byoc_type *t = calls[i]->checked_type;
        size_t bytes = (size_t)byoc_dtype_size(t->dtype) * (size_t)byoc__dv_elems(t);
        if (bytes > widest) widest = bytes;
    }
    return widest;
}

/* SRAM a tile plan needs: every operand and the output, in one or two buffers each */
BYOC__SIM_PRIVATE uint64_t byoc__dv_working_set(const byoc__dv_stream *s, const byoc__dv_layer *ly, const int64_t *tile,
                                                int bufs) {
    int64_t ob[BYOC_MAX_RANK] = {0};
    uint64_t need = 0, out = byoc__dv_out_esize(s, ly);
    for (int a = 0; a < ly->rank; ++a) out *= (uint64_t)tile[a];
    for (int j = 0; j < ly->noperands; ++j) {
        byoc__dv_box b;
        /* the worst tile: halo axes at full reach */
        byoc__dv_operand_box(s, &ly->operands[j], ob, tile, &b);
        for (int a = 0; a < b.rank; ++a) {
            const byoc__dv_axis *x = &ly->operands[j].axes[a];
            if (x->how == BYOC__AX_HALO) {
                int64_t reach = (tile[x->out_axis] - 1) * x->stride + x->window;
                b.extent[a] = reach < s->tensors[b.tensor].dims[a] ? reach : s->tensors[b.tensor].dims[a];
            }
        }
        need += byoc__dv_align(byoc__dv_box_bytes(s, &b)) * (uint64_t)bufs;
    }
    return need + byoc__dv_align(out) * (uint64_t)bufs;
}

/* halve the tile along the splittable axis that shrinks the working set most, until it fits */
BYOC__SIM_PRIVATE int byoc__dv_plan_tiles(const byoc__dv_stream *s, byoc__dv_layer *ly, int bufs, uint64_t sram) {
    for (int a = 0; a < ly->rank; ++a) ly->tile[a] = ly->dims[a];
    ly->sram_need = byoc__dv_working_set(s, ly, ly->tile, bufs);
    while (ly->sram_need > sram) {
        int best = -1;
        uint64_t best_need = 0;
        for (int a = 0; a < ly->rank; ++a) {
            if (!ly->splittable[a] || ly->tile[a] <= 1) continue;
            int64_t keep = ly->tile[a];
            ly->tile[a] = (keep + 1) / 2;
            uint64_t n = byoc__dv_working_set(s, ly, ly->tile, bufs);
            ly->tile[a] = keep;
            if (best < 0 || n < best_need) best = a, best_need = n;
        }
        if (best < 0) return 0;
        ly->tile[best] = (ly->tile[best] + 1) / 2;
        ly->sram_need = best_need;
    }
    return 1;
}
/* operand axes of an elementwise argument: numpy broadcasting against the output, right-aligned */
BYOC__SIM_PRIVATE void byoc__dv_broadcast_axes(const byoc__dv_tensor *t, int out_rank, const int64_t *out_dims,
                                               byoc__dv_axis *axes) {
    for (int j = 0; j < t->rank; ++j) {
        int a = j + out_rank - t->rank;
        axes[j].out_axis = a;
        axes[j].how = t->dims[j] == 1 && out_dims[a] != 1 ? BYOC__AX_ONE : BYOC__AX_SAME;
    }
}

BYOC__SIM_PRIVATE int byoc__dv_value_tensor(byoc__dv_lowering *L, int v) {
    const byoc__dv_value *x = &L->values[v];
    if (x->kind == BYOC__DVV_TENSOR) return x->id;
    if (x->kind == BYOC__DVV_OP && L->ops[x->id].tensor >= 0) return L->ops[x->id].tensor;
    return -1;
}

/* the reduced axes of a reduction over rank dims, as flags */
BYOC__SIM_PRIVATE void byoc__dv_reduced_axes(const byoc_attrs *a, int rank, int *reduced) {
    const byoc_attr_value *ax = byoc_attrs_get(a, "axis");
    int exclude = (int)byoc_attrs_int(a, "exclude", 0);
    for (int i = 0; i < rank; ++i) reduced[i] = !ax || ax->kind == BYOC_ATTR_NONE;
    if (ax && ax->kind == BYOC_ATTR_INT) reduced[(ax->i % rank + rank) % rank] = 1;
    if (ax && ax->kind == BYOC_ATTR_INT_LIST)
        for (int i = 0; i < ax->count; ++i) reduced[(ax->ints[i] % rank + rank) % rank] = 1;
    if (exclude && ax && ax->kind != BYOC_ATTR_NONE)
        for (int i = 0; i < rank; ++i) reduced[i] = !reduced[i];
}

/* the operand for argument a of op call c (anchor, or epilogue when chain >= 0) */
BYOC__SIM_PRIVATE int byoc__dv_add_operand(byoc__dv_lowering *L, byoc__dv_layer *ly, const byoc_node *c, int cls, int a,
                                           int tensor) {
    if (ly->noperands == BYOC__DV_MAX_OPERANDS) return -1;
    byoc__dv_operand *o = &ly->operands[ly->noperands];
    memset(o, 0, sizeof *o);
    o->tensor = tensor;
    const byoc__dv_tensor *t = &L->s->tensors[tensor];
    int qaxis;
    if (byoc__dv_qnn_param(c, a, ly->rank, &qaxis)) { /* whole, or the tile's slice along its axis */
        if (qaxis >= 0) o->axes[0].how = BYOC__AX_SAME, o->axes[0].out_axis = qaxis;
        return ly->noperands++;
    }
    if (cls == BYOC__DV_CONV || cls == BYOC__DV_POOL || cls == BYOC__DV_GPOOL) {
        if (a == 0) {
            int64_t pad[4];
            byoc__dv_pads(&c->attrs, pad);
            const char *win = cls == BYOC__DV_CONV ? NULL : "pool_size";
            int64_t k = win ? byoc__dv_pair(&c->attrs, win, 0, 1)
                            : (c->args[1]->checked_type ? c->args[1]->checked_type->dims[2] : 1);
            o->axes[0].how = BYOC__AX_SAME, o->axes[0].out_axis = 0;
            o->axes[1].how = cls == BYOC__DV_CONV && !byoc__dv_is_depthwise(c) ? BYOC__AX_FULL : BYOC__AX_SAME,
            o->axes[1].out_axis = 1;
            o->axes[2].how = cls == BYOC__DV_GPOOL ? BYOC__AX_FULL : BYOC__AX_HALO, o->axes[2].out_axis = 2;
            o->axes[2].stride = byoc__dv_pair(&c->attrs, "strides", 0, 1);
            o->axes[2].pad = pad[0];
            o->axes[2].window = (k - 1) * byoc__dv_pair(&c->attrs, "dilation", 0, 1) + 1;
        } else { /* conv weights [m, c, kh, kw]: the tile's output channels */
            o->axes[0].how = BYOC__AX_SAME, o->axes[0].out_axis = 1;
        }
    } else if (cls == BYOC__DV_DENSE) {
        o->axes[0].how = BYOC__AX_SAME, o->axes[0].out_axis = a == 0 ? 0 : 1;
    } else if (cls == BYOC__DV_SOFTMAX || (cls == BYOC__DV_LAYERNORM && a == 0)) {
        int64_t axis = byoc_attrs_int(&c->attrs, "axis", -1);
        if (axis < 0) axis += t->rank;
        for (int j = 0; j < t->rank; ++j)
            o->axes[j].how = j == axis ? BYOC__AX_FULL : BYOC__AX_SAME, o->axes[j].out_axis = j;
    } else if (cls == BYOC__DV_LAYERNORM) {
        /* gamma, beta: whole */
    } else if (cls == BYOC__DV_REDUCE) {
        int reduced[BYOC_MAX_RANK];
        byoc__dv_reduced_axes(&c->attrs, t->rank, reduced);
        int keep = (int)byoc_attrs_int(&c->attrs, "keepdims", 0), at = 0;
        for (int j = 0; j < t->rank; ++j) {
            if (reduced[j]) {
                o->axes[j].how = BYOC__AX_FULL;
                at += keep;
            } else {
                o->axes[j].how = BYOC__AX_SAME;
                o->axes[j].out_axis = at++;
            }
        }
    } else if (cls == BYOC__DV_TRANSPOSE) {
        const byoc_attr_value *ax = byoc_attrs_get(&c->attrs, "axes");
        for (int i = 0; i < t->rank; ++i) {
            int64_t src = ax && ax->kind == BYOC_ATTR_INT_LIST && ax->count == t->rank ? ax->ints[i] : t->rank - 1 - i;
            if (src < 0) src += t->rank;
            if (src < 0 || src >= t->rank) return -1;
            o->axes[src].how = BYOC__AX_SAME, o->axes[src].out_axis = i;
        }
    } else if ((c->op->def.flags & BYOC_OP_AXIS_OPERAND) && a == 1) {
        int64_t axis = byoc_attrs_int(&c->attrs, "axis", 1);
        if (axis < 0) axis += ly->rank;
        o->axes[0].how = BYOC__AX_SAME, o->axes[0].out_axis = (int)axis;
    } else {
        byoc__dv_broadcast_axes(t, ly->rank, ly->dims, o->axes);
    }
    return ly->noperands++;
}

/* Builds the layer that starts at op instance `first`: the anchor, then the elementwise ops that only it feeds. */
BYOC__SIM_PRIVATE int byoc__dv_build_layer(byoc__dv_lowering *L, int first, byoc__dv_layer *ly) {
    memset(ly, 0, sizeof *ly);
    ly->inner_axis = -1;
    const byoc_node *anchor = L->ops[first].call;
    ly->cls = byoc__dv_class(L->dev->kind, anchor);
    if (ly->cls == BYOC__DV_NONE)
        return byoc__dv_fail(L, BYOC_ERR_UNSUPPORTED, anchor, "%s does not run %s", byoc__sim_kind_name(L->dev->kind),
                             anchor->op->def.name);
    const byoc_type *ot = anchor->checked_type;
    ly->rank = ot->rank;
    memcpy(ly->dims, ot->dims, sizeof(int64_t) * (size_t)ot->rank);
    ly->ops[ly->nops++] = first;
    for (int a = 0; a < ly->rank; ++a) ly->splittable[a] = 1;
    if (ly->cls == BYOC__DV_CONV || ly->cls == BYOC__DV_POOL) ly->splittable[3] = 0; /* rows of whole width */
    if (ly->cls == BYOC__DV_GPOOL) ly->splittable[2] = ly->splittable[3] = 0;
    if (ly->cls == BYOC__DV_SOFTMAX || ly->cls == BYOC__DV_LAYERNORM) {
        int64_t axis = byoc_attrs_int(&anchor->attrs, "axis", -1);
        if (axis < 0) axis += ly->rank;
        if (axis >= 0 && axis < ly->rank) ly->splittable[axis] = 0;
    }
    for (int a = 0; a < anchor->nargs; ++a) {
        int t = byoc__dv_value_tensor(L, L->ops[first].args[a]);
        if (t < 0) return byoc__dv_fail(L, BYOC_ERR_INTERNAL, anchor, "an operand computed out of order");
        ly->operand_of[0][a] = byoc__dv_add_operand(L, ly, anchor, ly->cls, a, t);
        if (ly->operand_of[0][a] < 0)
            return byoc__dv_fail(L, BYOC_ERR_UNSUPPORTED, anchor, "more than %d operands", BYOC__DV_MAX_OPERANDS);
    }
    /* the epilogue: elementwise ops of the same result type that only the chain feeds */
    int cur = first;
    const byoc__dk_entry *kd = byoc__dk_device(L->dev->kind);
    while (kd && kd->def.fuse_epilogue && ly->nops < 16 && L->ops[cur].uses == 1) {
        int user = -1, chain_arg = -1;
        for (int u = cur + 1; u < L->nops && user < 0; ++u)
            for (int a = 0; a < L->ops[u].call->nargs; ++a) {
                const byoc__dv_value *v = &L->values[L->ops[u].args[a]];
                if (v->kind == BYOC__DVV_OP && v->id == cur) user = u, chain_arg = a;
            }
        if (user < 0) break;
        const byoc_node *c = L->ops[user].call;
        /* in place over the output slot: an op may narrow the dtype (int32 -> int8), never widen it */
        if (byoc__dv_class(L->dev->kind, c) != BYOC__DV_ELEMWISE ||
            !byoc__dv_same_shape(c->checked_type, L->ops[cur].call->checked_type) ||
            byoc_dtype_size(c->checked_type->dtype) > byoc_dtype_size(L->ops[cur].call->checked_type->dtype))
            break;
        int ok = 1, need = 0;
        for (int a = 0; a < c->nargs; ++a)
            if (a != chain_arg) {
                ok &= byoc__dv_value_tensor(L, L->ops[user].args[a]) >= 0;
                need++;
            }
        if (!ok || ly->noperands + need > BYOC__DV_MAX_OPERANDS) break;
        int k = ly->nops;
        for (int a = 0; a < c->nargs; ++a)
            ly->operand_of[k][a] = a == chain_arg
                                       ? -1
                                       : byoc__dv_add_operand(L, ly, c, BYOC__DV_ELEMWISE, a,
                                                              byoc__dv_value_tensor(L, L->ops[user].args[a]));
        ly->ops[ly->nops++] = user;
        cur = user;
    }
    for (int i = 0; i < ly->nops; ++i) {
        L->ops[ly->ops[i]].layer = 1;
        size_t es = byoc_dtype_size(L->ops[ly->ops[i]].call->checked_type->dtype);
        if (es > ly->out_esize) ly->out_esize = es;
    }
    return 1;
}
/* the kernel of one tile: the layer's calls retyped on the tile's operand boxes (a convolution's or pool's
   padding becomes the tile's own: real padding at the edges, none inside) */
BYOC__SIM_PRIVATE int byoc__dv_tile_kernel(byoc__dv_lowering *L, const byoc__dv_layer *ly, const byoc__dv_box *boxes,
                                           const int64_t *ob, const int64_t *oe) {
    byoc__dv_stream *s = L->s;
    byoc_module *km = s->km;
    if (!BYOC__DV_RESERVE(s->kernels, s->cap_kernels, s->nkernels + 1))
        return byoc__dv_fail(L, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory"), -1;
    byoc__dv_kernel *k = &s->kernels[s->nkernels];
    memset(k, 0, sizeof *k);
    byoc_node *params[BYOC__DV_MAX_OPERANDS];
    for (int j = 0; j < ly->noperands; ++j) {
        const byoc__dv_tensor *t = &s->tensors[boxes[j].tensor];
        char name[16];
        snprintf(name, sizeof name, "p%d", j);
        params[j] = byoc_var(km, name, byoc_tensor_type(km, (byoc_dtype)t->dtype, t->rank, boxes[j].extent));
        k->param_bytes[j] = (size_t)byoc__dv_box_bytes(s, &boxes[j]);
    }
    byoc_node *prev = NULL;
    for (int i = 0; i < ly->nops; ++i) {
        const byoc_node *c = L->ops[ly->ops[i]].call;
        byoc_attrs at = {NULL, 0};
        for (int a = 0; a < c->attrs.count; ++a)
            byoc_attrs_set(km, &at, c->attrs.items[a].name, &c->attrs.items[a].value);
        if (i == 0 && (ly->cls == BYOC__DV_CONV || ly->cls == BYOC__DV_POOL)) {
            const byoc__dv_axis *h = &ly->operands[0].axes[2];
            int64_t pad[4], start = ob[2] * h->stride - h->pad,
                            end = (ob[2] + oe[2] - 1) * h->stride - h->pad + h->window;
            byoc__dv_pads(&c->attrs, pad);
            int64_t tile_pad[4] = {boxes[0].begin[2] - start, pad[1], end - (boxes[0].begin[2] + boxes[0].extent[2]),
                                   pad[3]};
            if (tile_pad[0] < 0 || tile_pad[2] < 0)
                return byoc__dv_fail(L, BYOC_ERR_UNSUPPORTED, c,
                                     "a window lies wholly inside the padding (ceil_mode): not tiled"),
                       -1;
            /* the rows come out exact, so ceil_mode (kept for the untiled width) adds none */
            byoc_attrs_set_ints(km, &at, "padding", tile_pad, 4);
        }
        if (i == 0 && ly->cls == BYOC__DV_CONV && byoc_attrs_get(&c->attrs, "channels") &&
            byoc_attrs_get(&c->attrs, "channels")->kind == BYOC_ATTR_INT)
            byoc_attrs_set_int(km, &at, "channels", oe[1]);
        if (i == 0 && ly->cls == BYOC__DV_CONV && byoc__dv_is_depthwise(c))
            byoc_attrs_set_int(km, &at, "groups", oe[1]); /* the tile's channels */
        if (i == 0 && ly->cls == BYOC__DV_DENSE && byoc_attrs_get(&c->attrs, "units") &&
            byoc_attrs_get(&c->attrs, "units")->kind == BYOC_ATTR_INT)
            byoc_attrs_set_int(km, &at, "units", oe[1]);
        byoc_node *args[BYOC__DV_MAX_ARGS];
        for (int a = 0; a < c->nargs; ++a) {
            int o = ly->operand_of[i][a];
            args[a] = o < 0 ? prev : params[o];
            k->arg_param[i][a] = o;
        }
        prev = byoc_call_op(km, c->op, args, c->nargs, &at);
        byoc_diag d;
        if (!prev || byoc_infer_node_type(km, prev, &d) != BYOC_OK) {
            const byoc_diag *e = byoc_module_error(km);
            return byoc__dv_fail(L, BYOC_ERR_INTERNAL, c, "its tile kernel does not type: %s",
                                 prev ? d.message
                                 : e  ? e->message
                                      : "out of memory"),
                   -1;
        }
        k->calls[i] = prev;
    }
    k->ncalls = ly->nops;
    k->cls = ly->cls;
    byoc_node *fn = byoc_function(km, params, ly->noperands, prev, NULL, NULL);
    if (!fn) return byoc__dv_fail(L, BYOC_ERR_OUT_OF_MEMORY, L->ops[ly->ops[0]].call, "out of memory"), -1;
    k->fn = fn;
    k->out_bytes = byoc__dv_chain_out_bytes(k->calls, k->ncalls);
    byoc__dv_kernel_cost(&s->dev, k);
    for (int i = 0; i < k->ncalls; ++i) {
        size_t ws = byoc_kernel_workspace_size(k->calls[i]);
        if (ws > s->workspace) s->workspace = ws;
    }
    return s->nkernels++;
}

/* adds a dependency of a compute command on a DMA command; when the list is full, the DMA engine being in order
   makes the latest of two DMA commands imply the earlier, so the earliest listed gives way (a qnn layer can have
   more operands than BYOC__DV_MAX_DEPS) */
BYOC__SIM_PRIVATE void byoc__dv_add_dma_dep(byoc__dv_cmd *c, int dma_cmd) {
    if (c->ndeps < BYOC__DV_MAX_DEPS) {
        c->deps[c->ndeps++] = dma_cmd;
        return;
    }
    int earliest = 0;
    for (int d = 1; d < c->ndeps; ++d)
        if (c->deps[d] < c->deps[earliest]) earliest = d;
    if (c->deps[earliest] < dma_cmd) c->deps[earliest] = dma_cmd;
}

BYOC__SIM_PRIVATE int byoc__dv_push_cmd(byoc__dv_lowering *L, const byoc__dv_cmd *c) {
    byoc__dv_stream *s = L->s;
    if (!BYOC__DV_RESERVE(s->cmds, s->cap_cmds, s->ncmds + 1))
        return byoc__dv_fail(L, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory"), -1;
    s->cmds[s->ncmds] = *c;
    return s->ncmds++;
}

/* TIR-phase passes of one layer, in order: tiling (output tiles whose working set fits SRAM), DMA insertion
   with weight streaming (an operand whose box did not change stays resident), the fused epilogue (one
   kernel per tile shape), and double buffering (two SRAM buffers per operand, loads of tile i+1 issued
   before compute i). */
BYOC__SIM_PRIVATE int byoc__dv_emit_tiles(byoc__dv_lowering *L, byoc__dv_layer *ly, int layer, int bufs) {
    byoc__dv_stream *s = L->s;
    const byoc_sim_device *dev = &s->dev;
    const byoc_node *anchor = L->ops[ly->ops[0]].call;
    if (!byoc__dv_plan_tiles(s, ly, bufs, (uint64_t)dev->sram_bytes))
        return byoc__dv_fail(
            L, BYOC_ERR_UNSUPPORTED, anchor,
            "tile does not fit SRAM after splitting (the smallest tile needs %llu KB, SRAM has %lld KB)",
            (unsigned long long)(ly->sram_need + 1023) / 1024, (long long)(dev->sram_bytes >> 10));
    /* tiles, lexicographic over the output axes */
    int64_t ntiles = 1, count[BYOC_MAX_RANK];
    for (int a = 0; a < ly->rank; ++a) {
        count[a] = ly->dims[a] ? (ly->dims[a] + ly->tile[a] - 1) / ly->tile[a] : 0;
        ntiles *= count[a];
    }
    if (ntiles > (1 << 22))
        return byoc__dv_fail(L, BYOC_ERR_UNSUPPORTED, anchor, "%lld tiles (at most %d)", (long long)ntiles, 1 << 22);
    /* SRAM: per operand and the output, bufs buffers of its largest tile */
    int64_t region[BYOC__DV_MAX_OPERANDS + 1];
    uint64_t at = 0;
    {
        int64_t ob[BYOC_MAX_RANK] = {0};
        for (int j = 0; j < ly->noperands; ++j) {
            byoc__dv_box b;
            byoc__dv_operand_box(s, &ly->operands[j], ob, ly->tile, &b);
            uint64_t worst = byoc__dv_box_bytes(s, &b);
            for (int a = 0; a < b.rank; ++a) {
                const byoc__dv_axis *x = &ly->operands[j].axes[a];
                if (x->how == BYOC__AX_HALO) {
                    int64_t reach = (ly->tile[x->out_axis] - 1) * x->stride + x->window,
                            dim = s->tensors[b.tensor].dims[a];
                    worst = worst / (uint64_t)b.extent[a] * (uint64_t)(reach < dim ? reach : dim);
                }
            }
            region[j] = (int64_t)at;
            at += byoc__dv_align(worst) * (uint64_t)bufs;
        }
        uint64_t out = byoc__dv_out_esize(s, ly);
        for (int a = 0; a < ly->rank; ++a) out *= (uint64_t)ly->tile[a];
        region[ly->noperands] = (int64_t)at;
        at += byoc__dv_align(out) * (uint64_t)bufs;
    }
    int64_t slot_size[BYOC__DV_MAX_OPERANDS + 1];
    for (int j = 0; j <= ly->noperands; ++j)
        slot_size[j] = ((j < ly->noperands ? region[j + 1] : (int64_t)at) - region[j]) / bufs;
    if (at > (uint64_t)dev->sram_bytes) return byoc__dv_fail(L, BYOC_ERR_INTERNAL, anchor, "the SRAM plan overflows");
    /* per operand: the box resident in each buffer, the buffer in use, the load that filled it, the last
       compute that read it */
    byoc__dv_box resident[BYOC__DV_MAX_OPERANDS][2];
    int cur_slot[BYOC__DV_MAX_OPERANDS], filled_by[BYOC__DV_MAX_OPERANDS][2], last_reader[BYOC__DV_MAX_OPERANDS][2],
        out_store[2] = {-1, -1};
    for (int j = 0; j < ly->noperands; ++j) {
        cur_slot[j] = bufs - 1;
        for (int b = 0; b < 2; ++b) resident[j][b].tensor = -1, filled_by[j][b] = last_reader[j][b] = -1;
    }
    int kcache_n = 0;
    struct {
        int64_t ext[BYOC__DV_MAX_OPERANDS][BYOC_MAX_RANK];
        int64_t pad0, pad2;
        int kernel;
    } kcache[16];
    /* the tile plan for tile t: its boxes, and which operands need a load */
    byoc__dv_box boxes[2][BYOC__DV_MAX_OPERANDS];
    int need_load[2][BYOC__DV_MAX_OPERANDS], slot_of[2][BYOC__DV_MAX_OPERANDS], load_cmd[2][BYOC__DV_MAX_OPERANDS];
    int64_t obs[2][BYOC_MAX_RANK], oes[2][BYOC_MAX_RANK];
    int64_t idx[BYOC_MAX_RANK] = {0};
    int order[BYOC_MAX_RANK], norder = 0; /* the odometer's axes, slowest first */
    for (int a = 0; a < ly->rank; ++a)
        if (a != ly->inner_axis) order[norder++] = a;
    if (ly->inner_axis >= 0 && ly->inner_axis < ly->rank) order[norder++] = ly->inner_axis;
    /* plan(t) fills row t&1 from the odometer idx, then advances it */
#define BYOC__DV_PLAN(row)                                                                                   \
    do {                                                                                                     \
        for (int a = 0; a < ly->rank; ++a) {                                                                 \
            obs[row][a] = idx[a] * ly->tile[a];                                                              \
            oes[row][a] = ly->dims[a] - obs[row][a] < ly->tile[a] ? ly->dims[a] - obs[row][a] : ly->tile[a]; \
        }                                                                                                    \
        for (int j = 0; j < ly->noperands; ++j) {                                                            \
            byoc__dv_operand_box(s, &ly->operands[j], obs[row], oes[row], &boxes[row][j]);                   \
            const byoc__dv_box *r0 = &resident[j][cur_slot[j]];                                              \
            int same = r0->tensor == boxes[row][j].tensor;                                                   \
            for (int a = 0; same && a < r0->rank; ++a)                                                       \
                same = r0->begin[a] == boxes[row][j].begin[a] && r0->extent[a] == boxes[row][j].extent[a];   \
            need_load[row][j] = !same;                                                                       \
            if (!same) {                                                                                     \
                cur_slot[j] = (cur_slot[j] + 1) % bufs;                                                      \
                resident[j][cur_slot[j]] = boxes[row][j];                                                    \
            }                                                                                                \
            slot_of[row][j] = cur_slot[j];                                                                   \
        }                                                                                                    \
        for (int q = ly->rank - 1; q >= 0; --q) {                                                            \
            int a = order[q];                                                                                \
            if (++idx[a] < count[a]) break;                                                                  \
            idx[a] = 0;                                                                                      \
        }                                                                                                    \
    } while (0)
    /* loads of the planned tile in row `row` (tile number t) */
#define BYOC__DV_LOADS(row, t)                                                                \
    do {                                                                                      \
        for (int j = 0; j < ly->noperands && !L->failed; ++j) {                               \
            int sl = slot_of[row][j];                                                         \
            if (!need_load[row][j]) {                                                         \
                load_cmd[row][j] = filled_by[j][sl];                                          \
                continue;                                                                     \
            }                                                                                 \
            byoc__dv_cmd c;                                                                   \
            memset(&c, 0, sizeof c);                                                          \
            c.op = BYOC__DV_LOAD, c.layer = layer, c.tile = (int32_t)(t), c.kernel = -1;      \
            c.box = boxes[row][j];                                                            \
            c.sram = region[j] + sl * slot_size[j];                                           \
            if (last_reader[j][sl] >= 0) c.deps[c.ndeps++] = last_reader[j][sl];              \
            c.cycles = byoc__dv_dma_cycles(dev, &c.box, &s->tensors[c.box.tensor], &c.bytes); \
            load_cmd[row][j] = filled_by[j][sl] = byoc__dv_push_cmd(L, &c);                   \
        }                                                                                     \
    } while (0)
    BYOC__DV_PLAN(0);
    BYOC__DV_LOADS(0, 0);
    for (int64_t t = 0; t < ntiles && !L->failed; ++t) {
        int row = (int)(t & 1), next = row ^ 1;
        if (bufs == 2 && t + 1 < ntiles) { /* prefetch */
            BYOC__DV_PLAN(next);
            BYOC__DV_LOADS(next, t + 1);
        }
        /* the kernel of this tile's shape */
        int kern = -1;
        for (int q = 0; q < kcache_n && kern < 0; ++q) {
            int same = kcache[q].pad0 == boxes[row][0].begin[ly->rank > 2 ? 2 : 0] - obs[row][ly->rank > 2 ? 2 : 0] &&
                       kcache[q].pad2 == oes[row][ly->rank > 2 ? 2 : 0];
            for (int j = 0; same && j < ly->noperands; ++j)
                for (int a = 0; same && a < boxes[row][j].rank; ++a)
                    same = kcache[q].ext[j][a] == boxes[row][j].extent[a];
            if (same) kern = kcache[q].kernel;
        }
        if (kern < 0) {
            kern = byoc__dv_tile_kernel(L, ly, boxes[row], obs[row], oes[row]);
            if (kern < 0) break;
            if (kcache_n < 16) {
                for (int j = 0; j < ly->noperands; ++j)
                    for (int a = 0; a < boxes[row][j].rank; ++a) kcache[kcache_n].ext[j][a] = boxes[row][j].extent[a];
                kcache[kcache_n].pad0 = boxes[row][0].begin[ly->rank > 2 ? 2 : 0] - obs[row][ly->rank > 2 ? 2 : 0];
                kcache[kcache_n].pad2 = oes[row][ly->rank > 2 ? 2 : 0];
                kcache[kcache_n++].kernel = kern;
            }
        }
        byoc__dv_cmd c;
        memset(&c, 0, sizeof c);
        c.op = BYOC__DV_COMPUTE, c.layer = layer, c.tile = (int32_t)t, c.kernel = kern;
        int oslot = (int)(t % bufs);
        c.sram = region[ly->noperands] + oslot * slot_size[ly->noperands];
        c.noperands = ly->noperands;
        for (int j = 0; j < ly->noperands; ++j) {
            c.operand_sram[j] = region[j] + slot_of[row][j] * slot_size[j];
            if (load_cmd[row][j] >= 0) byoc__dv_add_dma_dep(&c, load_cmd[row][j]);
        }
        if (out_store[oslot] >= 0) byoc__dv_add_dma_dep(&c, out_store[oslot]);
        c.cycles = s->kernels[kern].cycles;
        c.macs = s->kernels[kern].macs;
        int ci = byoc__dv_push_cmd(L, &c);
        for (int j = 0; j < ly->noperands; ++j) last_reader[j][slot_of[row][j]] = ci;
        byoc__dv_cmd st;
        memset(&st, 0, sizeof st);
        st.op = BYOC__DV_STORE, st.layer = layer, st.tile = (int32_t)t, st.kernel = -1;
        st.box.tensor = ly->out;
        st.box.rank = ly->rank;
        for (int a = 0; a < ly->rank; ++a) st.box.begin[a] = obs[row][a], st.box.extent[a] = oes[row][a];
        st.sram = c.sram;
        st.deps[st.ndeps++] = ci;
        st.cycles = byoc__dv_dma_cycles(dev, &st.box, &s->tensors[ly->out], &st.bytes);
        out_store[oslot] = byoc__dv_push_cmd(L, &st);
        if (bufs == 1 && t + 1 < ntiles) {
            BYOC__DV_PLAN(next);
            BYOC__DV_LOADS(next, t + 1);
        }
    }
#undef BYOC__DV_PLAN
#undef BYOC__DV_LOADS
    return !L->failed;
}

BYOC__SIM_PRIVATE uint64_t byoc__dv_layer_cycles(const byoc__dv_stream *s, int from, int to, int bufs,
                                                 byoc_sim_cost *cost);

/* The layer's schedule: double or single buffering (double buffering halves the SRAM a tile may use, so it
   can lose, as Vela falls back when buffers do not fit), and the tile loop order (spatial tiles fastest, or
   output channels fastest so the input tile stays while weight chunks stream past), whichever the cycle
   model says is quickest (ties keep the earlier: double buffering, spatial order). */
/* the target a measurement ran on: the device's parameters, or "host" */
BYOC__SIM_PRIVATE void byoc__sim_target_key(const byoc_sim_device *dev, char *out, size_t cap) {
    if (!dev) { snprintf(out, cap, "host"); return; }
    snprintf(out, cap, "%s/%s/%.0f/%dx%d/%d/%d/%lld/%.3f/%d/%d/%d/%d", byoc__sim_kind_name(dev->kind), dev->preset,
             dev->clock_mhz, dev->rows, dev->cols, (int)dev->dataflow, dev->lanes, (long long)dev->sram_bytes,
             dev->dram_bytes_per_cycle, dev->dram_latency, dev->burst_bytes, dev->launch_cycles, dev->double_buffer);
}

/* every parameter of a device, hashed (the memo's part of a layer signature: Collage prices tens of thousands of
   candidates, and formatting the target key for each cost more than lowering most of them) */
BYOC__SIM_PRIVATE uint64_t byoc__sim_device_hash(const byoc_sim_device *dev) {
    const char *end = (const char *)memchr(dev->preset, 0, sizeof dev->preset);
    size_t n = end ? (size_t)(end - dev->preset) : sizeof dev->preset;
    uint64_t h = byoc__hash_bytes(0xcbf29ce484222325ull, dev->preset, n);
    double real[2] = {dev->clock_mhz, dev->dram_bytes_per_cycle};
    uint64_t bits[2];
    int64_t whole[11] = {dev->kind,    dev->rows,         dev->cols,        (int64_t)dev->dataflow,
                         dev->lanes,   dev->sram_bytes,   dev->dram_latency, dev->burst_bytes,
                         dev->launch_cycles, dev->double_buffer, (int64_t)dev->dtypes};
    memcpy(bits, real, sizeof bits);
    for (int i = 0; i < 2; ++i) h = byoc__mix(h, bits[i]); /* a word at a time: the tile check hashes per op */
    for (int i = 0; i < 11; ++i) h = byoc__mix(h, (uint64_t)whole[i]);
    return h;
}

/* what decides a layer's cycles: its ops (names, attributes, types), where their arguments come from,
   its operands' and output's shapes, and the device */
BYOC__SIM_PRIVATE uint64_t byoc__dv_layer_signature(const byoc__dv_lowering *L, const byoc__dv_layer *ly) {
    const byoc__dv_stream *s = L->s;
    uint64_t h = L->dev_hash;
    for (int i = 0; i < ly->nops; ++i) {
        const byoc_node *c = L->ops[ly->ops[i]].call;
        h = byoc__hash_attrs(byoc__hash_bytes(h, c->op->def.name, strlen(c->op->def.name)), &c->attrs);
        h = byoc__hash_type(h, c->checked_type);
        for (int a = 0; a < c->nargs && a < 4; ++a) h = byoc__mix(h, (uint64_t)(ly->operand_of[i][a] + 2));
    }
    for (int j = 0; j < ly->noperands; ++j) {
        const byoc__dv_tensor *t = &s->tensors[ly->operands[j].tensor];
        h = byoc__mix(byoc__mix(byoc__mix(h, (uint64_t)(t->kind == BYOC__DV_CONST)), (uint64_t)t->dtype),
                      (uint64_t)t->rank);
        for (int a = 0; a < t->rank; ++a) h = byoc__mix(h, (uint64_t)t->dims[a]);
    }
    return h | 1;
}

BYOC__SIM_PRIVATE int byoc__dv_emit_layer(byoc__dv_lowering *L, byoc__dv_layer *ly, int layer) {
    byoc__dv_stream *s = L->s;
    int c0 = s->ncmds, k0 = s->nkernels, bufs = s->dev.double_buffer ? 2 : 1, inner = -1;
    uint64_t signature = L->dry && L->memo ? byoc__dv_layer_signature(L, ly) : 0;
    if (signature) {
        intptr_t known = byoc__map_get(L->memo, (const void *)(uintptr_t)signature, 0);
        if (known) {
            s->memo_cycles += (uint64_t)(known - 1);
            return 1;
        }
    }
    int channel_order = ly->cls == BYOC__DV_CONV && ly->rank == 4;
    if (s->dev.double_buffer || channel_order) {
        byoc_diag quiet, *keep = L->diag;
        uint64_t best = UINT64_MAX;
        L->diag = &quiet;
        for (int b = s->dev.double_buffer ? 2 : 1; b >= 1; --b)
            for (int in = -1; in <= (channel_order ? 1 : -1); in += 2) {
                ly->inner_axis = in;
                uint64_t cycles =
                    byoc__dv_emit_tiles(L, ly, layer, b) ? byoc__dv_layer_cycles(s, c0, s->ncmds, b, NULL) : UINT64_MAX;
                if (cycles < best) best = cycles, bufs = b, inner = in;
                L->failed = 0;
                s->ncmds = c0, s->nkernels = k0;
            }
        L->diag = keep;
    }
    if (!BYOC__DV_RESERVE(s->layer_bufs, s->cap_layer_bufs, layer + 1))
        return byoc__dv_fail(L, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
    s->layer_bufs[layer] = bufs;
    ly->inner_axis = inner;
    int ok = byoc__dv_emit_tiles(L, ly, layer, bufs);
    if (ok && signature)
        byoc__map_put(L->memo, (const void *)(uintptr_t)signature,
                      (intptr_t)byoc__dv_layer_cycles(s, c0, s->ncmds, bufs, NULL) + 1);
    return ok;
}
/* joins the frontend names (or op names) of a layer's ops with '+' */
BYOC__SIM_PRIVATE char *byoc__dv_join(byoc__dv_lowering *L, const byoc__dv_layer *ly, int spans) {
    char buf[1024] = "";
    size_t at = 0;
    for (int i = 0; i < ly->nops && at < sizeof buf - 1; ++i) {
        const byoc_node *c = L->ops[ly->ops[i]].call;
        const char *name = spans && byoc_node_span(c)->source ? byoc_node_span(c)->source : c->op->def.name;
        if (spans && i &&
            !strcmp(name, spans && byoc_node_span(L->ops[ly->ops[i - 1]].call)->source
                              ? byoc_node_span(L->ops[ly->ops[i - 1]].call)->source
                              : ""))
            continue;
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s", i ? "+" : "", name);
    }
    return byoc__dv_strdup(buf);
}

BYOC__SIM_PRIVATE void byoc__dv_lowering_free(byoc__dv_lowering *L) {
    BYOC_FREE(L->values);
    BYOC_FREE(L->fields);
    BYOC_FREE(L->ops);
    BYOC_FREE(L->const_nodes);
    byoc__map_free(&L->const_tensor);
}

/* relay_to_tir's work: the partition function to a command stream */
BYOC__SIM_PRIVATE byoc_result byoc__dv_lower_in(byoc_module *m, const byoc_node *fn, const byoc_sim_device *dev,
                                                int dry, byoc__map *memo, byoc__dv_stream *s, byoc_diag *diag);
BYOC__SIM_PRIVATE byoc_result byoc__dv_lower(byoc_module *m, const byoc_node *fn, const byoc_sim_device *dev, int dry,
                                             byoc__dv_stream *s, byoc_diag *diag) {
    return byoc__dv_lower_in(m, fn, dev, dry, NULL, s, diag);
}
BYOC__SIM_PRIVATE byoc_result byoc__dv_lower_in(byoc_module *m, const byoc_node *fn, const byoc_sim_device *dev,
                                                int dry, byoc__map *memo, byoc__dv_stream *s, byoc_diag *diag) {
    memset(s, 0, sizeof *s);
    s->dev = *dev;
    if (!byoc__dk_device(dev->kind))
        return byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, fn, "a %s device runs no command streams",
                              byoc__sim_kind_name(dev->kind));
    s->km = byoc_module_create(NULL);
    if (!s->km) return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, fn, "out of memory");
    byoc__dv_lowering L;
    memset(&L, 0, sizeof L);
    L.dev = &s->dev;
    L.s = s;
    L.m = m;
    L.diag = diag;
    L.dry = dry;
    L.memo = memo;
    if (memo) L.dev_hash = byoc__sim_device_hash(&s->dev);
    int argv[64];
    if (fn->nparams > 64)
        byoc__dv_fail(&L, BYOC_ERR_UNSUPPORTED, fn, "a partition of %d parameters (at most 64)", fn->nparams);
    for (int i = 0; i < fn->nparams && !L.failed; ++i) {
        int t = byoc__dv_new_tensor(&L, BYOC__DV_INPUT, i, fn->params[i]->checked_type);
        if (t >= 0) argv[i] = byoc__dv_new_value(&L, BYOC__DVV_TENSOR, t, 0);
        s->ninputs++;
    }
    int result = L.failed ? -1 : byoc__dv_flatten(&L, fn, argv, 0);
    /* outputs: the result's ops, in order */
    if (result >= 0) {
        int nout = L.values[result].kind == BYOC__DVV_TUPLE ? L.values[result].nfields : 1;
        for (int o = 0; o < nout && !L.failed; ++o) {
            int v = L.values[result].kind == BYOC__DVV_TUPLE ? L.fields[L.values[result].id + o] : result;
            if (L.values[v].kind != BYOC__DVV_OP) {
                byoc__dv_fail(&L, BYOC_ERR_UNSUPPORTED, fn, "the partition returns an input or a constant unchanged");
                break;
            }
            byoc__dv_opinst *op = &L.ops[L.values[v].id];
            if (op->tensor >= 0) {
                byoc__dv_fail(&L, BYOC_ERR_UNSUPPORTED, op->call, "the partition returns one value twice");
                break;
            }
            op->tensor = byoc__dv_new_tensor(&L, BYOC__DV_OUTPUT, o, op->call->checked_type);
            op->uses++;
            s->noutputs++;
        }
    }
    for (int i = 0; i < L.nops && !L.failed; ++i)
        for (int a = 0; a < L.ops[i].call->nargs; ++a)
            if (L.values[L.ops[i].args[a]].kind == BYOC__DVV_OP) L.ops[L.values[L.ops[i].args[a]].id].uses++;
    /* layers, in op order */
    for (int i = 0; i < L.nops && !L.failed; ++i) {
        if (L.ops[i].layer >= 0) continue;
        byoc__dv_layer ly;
        if (!byoc__dv_build_layer(&L, i, &ly)) break;
        byoc__dv_opinst *last = &L.ops[ly.ops[ly.nops - 1]];
        if (last->tensor < 0) last->tensor = byoc__dv_new_tensor(&L, BYOC__DV_SCRATCH, -1, last->call->checked_type);
        if (last->tensor < 0) break;
        ly.out = last->tensor;
        if (!BYOC__DV_RESERVE(s->layer_names, s->cap_layers, s->nlayers + 1)) {
            byoc__dv_fail(&L, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
            break;
        }
        int cap = s->cap_layers - 1; /* layer_ops grows alongside */
        void *ops = BYOC_REALLOC(s->layer_ops, sizeof(char *) * (size_t)(cap + 1));
        if (!ops) {
            byoc__dv_fail(&L, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
            break;
        }
        s->layer_ops = BYOC__SIM_CAST(char **, ops);
        /* an estimate reads no names (NULL): Collage prices tens of thousands of candidates this way */
        s->layer_names[s->nlayers] = dry ? NULL : byoc__dv_join(&L, &ly, 1);
        s->layer_ops[s->nlayers] = dry ? NULL : byoc__dv_join(&L, &ly, 0);
        s->nlayers++;
        if (!byoc__dv_emit_layer(&L, &ly, s->nlayers - 1)) break;
    }
    if (!L.failed && L.nops == 0) byoc__dv_fail(&L, BYOC_ERR_UNSUPPORTED, fn, "the partition holds no op");
    byoc__dv_lowering_free(&L);
    if (L.failed) {
        byoc__dv_stream_free(s);
        return diag && diag->code ? diag->code : BYOC_ERR_UNSUPPORTED;
    }
    return BYOC_OK;
}

/* ---- timing: two in-order engines, each command after its dependencies ---- */
BYOC__SIM_PRIVATE void byoc__dv_schedule(byoc__dv_stream *s, byoc_sim_cost *cost) {
    uint64_t engine[2] = {(uint64_t)s->dev.launch_cycles, (uint64_t)s->dev.launch_cycles},
             end = (uint64_t)s->dev.launch_cycles;
    memset(cost, 0, sizeof *cost);
    for (int i = 0; i < s->ncmds; ++i) {
        byoc__dv_cmd *c = &s->cmds[i];
        int e = c->op == BYOC__DV_COMPUTE;
        uint64_t start = engine[e];
        for (int d = 0; d < c->ndeps; ++d) {
            uint64_t done = s->cmds[c->deps[d]].start + s->cmds[c->deps[d]].cycles;
            if (done > start) start = done;
        }
        c->start = start;
        engine[e] = start + c->cycles;
        if (engine[e] > end) end = engine[e];
        if (e) cost->compute_cycles += c->cycles, cost->macs += c->macs;
        else {
            cost->dma_cycles += c->cycles;
            if (c->op == BYOC__DV_LOAD) cost->bytes_in += c->bytes;
            else cost->bytes_out += c->bytes;
        }
    }
    cost->cycles = end;
    cost->seconds = (double)end / (s->dev.clock_mhz * 1e6);
    cost->commands = s->ncmds;
    cost->layers = s->nlayers;
    const byoc__dk_entry *kd = byoc__dk_device(s->dev.kind);
    uint64_t pes = kd && kd->def.mac_array ? (uint64_t)s->dev.rows * (uint64_t)s->dev.cols : 0;
    cost->mac_utilization = pes && end ? (double)cost->macs / ((double)end * (double)pes) : 0;
}

/* the analytic estimate of one layer's commands [from, to): double-buffered, the first tile's loads, then per
   tile max(its compute, the DMA beside it: the store of the tile before and the loads of the tile after), then
   the last store; single-buffered, everything in sequence */
BYOC__SIM_PRIVATE uint64_t byoc__dv_layer_cycles(const byoc__dv_stream *s, int from, int to, int bufs,
                                                 byoc_sim_cost *cost) {
    int ntiles = 0;
    for (int k = from; k < to; ++k)
        if (s->cmds[k].tile + 1 > ntiles) ntiles = s->cmds[k].tile + 1;
    uint64_t *ld = BYOC__SIM_CAST(uint64_t *, BYOC_CALLOC((size_t)ntiles + 1, 3 * sizeof(uint64_t)));
    if (!ld) return UINT64_MAX;
    uint64_t *st = ld + ntiles + 1, *comp = st + ntiles + 1, total = 0;
    for (int k = from; k < to; ++k) {
        const byoc__dv_cmd *c = &s->cmds[k];
        if (c->op == BYOC__DV_LOAD) ld[c->tile] += c->cycles;
        else if (c->op == BYOC__DV_STORE) st[c->tile] += c->cycles;
        else comp[c->tile] += c->cycles;
        if (!cost) continue;
        if (c->op == BYOC__DV_COMPUTE) cost->compute_cycles += c->cycles, cost->macs += c->macs;
        else cost->dma_cycles += c->cycles;
        if (c->op == BYOC__DV_LOAD) cost->bytes_in += c->bytes;
        if (c->op == BYOC__DV_STORE) cost->bytes_out += c->bytes;
    }
    if (bufs == 2 && ntiles > 0) {
        total += ld[0];
        for (int t = 0; t < ntiles; ++t) {
            uint64_t dma = (t ? st[t - 1] : 0) + ld[t + 1];
            total += comp[t] > dma ? comp[t] : dma;
        }
        total += st[ntiles - 1];
    } else {
        for (int t = 0; t < ntiles; ++t) total += ld[t] + comp[t] + st[t];
    }
    BYOC_FREE(ld);
    return total;
}

BYOC__SIM_PRIVATE void byoc__dv_estimate_stream(const byoc__dv_stream *s, byoc_sim_cost *cost) {
    memset(cost, 0, sizeof *cost);
    uint64_t total = (uint64_t)s->dev.launch_cycles + s->memo_cycles;
    for (int i = 0; i < s->ncmds;) {
        int layer = s->cmds[i].layer, j = i;
        while (j < s->ncmds && s->cmds[j].layer == layer) j++;
        total +=
            byoc__dv_layer_cycles(s, i, j, s->layer_bufs && layer < s->cap_layer_bufs ? s->layer_bufs[layer] : 1, cost);
        i = j;
    }
    cost->cycles = total;
    cost->seconds = (double)total / (s->dev.clock_mhz * 1e6);
    cost->commands = s->ncmds;
    cost->layers = s->nlayers;
    const byoc__dk_entry *kd = byoc__dk_device(s->dev.kind);
    uint64_t pes = kd && kd->def.mac_array ? (uint64_t)s->dev.rows * (uint64_t)s->dev.cols : 0;
    cost->mac_utilization = pes && total ? (double)cost->macs / ((double)total * (double)pes) : 0;
}


// [SECTION] sim impl: device programs: blobs, loading, running, runtime modules
/* The tile check's verdicts that an op fits, kept by what its one-op lowering reads: the device's parameters, the
   op, its attributes, its result's and arguments' types. Placement asks about one op many times (alone, in each
   match of a pattern, again in every greedy plan a Collage search makes), and each answer is a lowering. A small
   table, one signature per slot, the last stored there: a clash costs a lowering again, never a wrong answer
   (a slot holds the whole 64-bit signature). Refusals are not kept: their reason is worked out each time. The
   threads of a search share it under a lock. */
#define BYOC__DV_FITS_SLOTS 2048
static uint64_t byoc__dv_fits_known[BYOC__DV_FITS_SLOTS];
#if !defined(BYOC_NO_THREADS)
static pthread_mutex_t byoc__dv_fits_lock = PTHREAD_MUTEX_INITIALIZER;
#endif
BYOC__SIM_PRIVATE uint64_t byoc__dv_fits_signature(const byoc_sim_device *dev, const byoc_node *call) {
    uint64_t h = byoc__sim_device_hash(dev);
    h = byoc__hash_attrs(byoc__hash_bytes(h, call->op->def.name, strlen(call->op->def.name)), &call->attrs);
    h = byoc__hash_type(h, call->checked_type);
    for (int a = 0; a < call->nargs; ++a)
        h = byoc__hash_type(byoc__mix(h, (uint64_t)a + 1), call->args[a]->checked_type);
    return h | 1; /* 0 is an empty slot */
}
/* 1 when sig's slot holds sig; with store, the slot holds it afterwards */
BYOC__SIM_PRIVATE int byoc__dv_fits_slot(uint64_t sig, int store) {
    uint64_t *slot = &byoc__dv_fits_known[sig % BYOC__DV_FITS_SLOTS];
#if !defined(BYOC_NO_THREADS)
    pthread_mutex_lock(&byoc__dv_fits_lock);
#endif
    int known = *slot == sig;
    if (store) *slot = sig;
#if !defined(BYOC_NO_THREADS)
    pthread_mutex_unlock(&byoc__dv_fits_lock);
#endif
    return known;
}
/* the predicate's tile check: one op alone as a layer */
BYOC__SIM_PRIVATE int byoc__dv_tile_fits(const byoc_sim_device *dev, const byoc_node *call, char *reason, size_t cap) {
    uint64_t sig = byoc__dv_fits_signature(dev, call);
    if (byoc__dv_fits_slot(sig, 0)) return 1;
    byoc__dv_stream s;
    memset(&s, 0, sizeof s);
    s.dev = *dev;
    byoc__dv_lowering L;
    memset(&L, 0, sizeof L);
    byoc_diag d;
    memset(&d, 0, sizeof d);
    L.dev = &s.dev;
    L.s = &s;
    L.diag = &d;
    L.dry = 1;
    int ok = BYOC__DV_RESERVE(L.ops, L.cap_ops, 1);
    if (ok) {
        memset(&L.ops[0], 0, sizeof L.ops[0]);
        L.ops[0].call = call;
        L.ops[0].tensor = L.ops[0].layer = -1;
        L.ops[0].uses = 1;
        L.nops = 1;
        for (int a = 0; a < call->nargs && ok; ++a) {
            int t = byoc__dv_new_tensor(&L, BYOC__DV_INPUT, a, call->args[a]->checked_type);
            ok = t >= 0 && (L.ops[0].args[a] = byoc__dv_new_value(&L, BYOC__DVV_TENSOR, t, 0)) >= 0;
        }
    }
    byoc__dv_layer ly;
    if (ok) ok = byoc__dv_build_layer(&L, 0, &ly);
    if (ok) {
        ly.out = byoc__dv_new_tensor(&L, BYOC__DV_SCRATCH, -1, call->checked_type);
        ok = ly.out >= 0;
    }
    if (ok && !byoc__dv_plan_tiles(&s, &ly, 1, (uint64_t)s.dev.sram_bytes)) {
        snprintf(reason, cap,
                 "tile does not fit SRAM after splitting (the smallest tile needs %llu KB, SRAM has %lld KB)",
                 (unsigned long long)(ly.sram_need + 1023) / 1024, (long long)(dev->sram_bytes >> 10));
        ok = 0;
    } else if (!ok) {
        snprintf(reason, cap, "%s", d.message[0] ? d.message : "out of memory");
    }
    byoc__dv_lowering_free(&L);
    byoc__dv_stream_free(&s);
    if (ok) byoc__dv_fits_slot(sig, 1);
    return ok;
}
/* ---- the blob (tir_to_runtime's output) ---- */
#define BYOC__DV_MAGIC "BYOCDEV"
/* 3 gives each command 16 operand slots (a qnn layer's scales and zero points), written only when a command needs
   more than 8; 2 names the device kind (8 slots); 1 gave the index of a built-in one (1 npu, 2 dsp) */
#define BYOC__DV_VERSION 3u
#define BYOC__DV_V2_OPERANDS 8 /* operand slots per command in blobs of versions 1 and 2 */
typedef struct byoc__dv_writer {
    unsigned char *data;
    size_t len, cap;
    int oom;
} byoc__dv_writer;
BYOC__SIM_PRIVATE void byoc__dv_put(byoc__dv_writer *w, const void *p, size_t n) {
    if (w->oom) return;
    if (w->len + n > w->cap) {
        size_t ncap = w->cap ? w->cap : 4096;
        while (ncap < w->len + n) ncap *= 2;
        unsigned char *d = BYOC__SIM_CAST(unsigned char *, BYOC_REALLOC(w->data, ncap));
        if (!d) {
            w->oom = 1;
            return;
        }
        w->data = d;
        w->cap = ncap;
    }
    if (n) memcpy(w->data + w->len, p, n);
    w->len += n;
}
BYOC__SIM_PRIVATE void byoc__dv_put_u64(byoc__dv_writer *w, uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i) b[i] = (unsigned char)(v >> (8 * i));
    byoc__dv_put(w, b, 8);
}
BYOC__SIM_PRIVATE void byoc__dv_put_i32(byoc__dv_writer *w, int64_t v) {
    uint32_t u = (uint32_t)(int32_t)v;
    unsigned char b[4];
    for (int i = 0; i < 4; ++i) b[i] = (unsigned char)(u >> (8 * i));
    byoc__dv_put(w, b, 4);
}
BYOC__SIM_PRIVATE void byoc__dv_put_f64(byoc__dv_writer *w, double v) {
    uint64_t u;
    memcpy(&u, &v, 8);
    byoc__dv_put_u64(w, u);
}
BYOC__SIM_PRIVATE uint64_t byoc__dv_fnv(const unsigned char *p, size_t n) {
    return byoc__hash_bytes(0xcbf29ce484222325ull, p, n);
} /* FNV-1a 64 */
BYOC__SIM_PRIVATE void byoc__dv_put_str(byoc__dv_writer *w, const char *s) {
    size_t n = strlen(s);
    byoc__dv_put_i32(w, (int64_t)n);
    byoc__dv_put(w, s, n);
}

/* ---- loading a blob ---- */
typedef struct byoc__dv_reader {
    const unsigned char *p;
    size_t len, at;
    int bad;
} byoc__dv_reader;
BYOC__SIM_PRIVATE const unsigned char *byoc__dv_take(byoc__dv_reader *r, size_t n) {
    if (r->bad || n > r->len - r->at) {
        r->bad = 1;
        return NULL;
    }
    r->at += n;
    return r->p + r->at - n;
}
BYOC__SIM_PRIVATE uint64_t byoc__dv_get_u64(byoc__dv_reader *r) {
    const unsigned char *b = byoc__dv_take(r, 8);
    uint64_t v = 0;
    for (int i = 0; b && i < 8; ++i) v |= (uint64_t)b[i] << (8 * i);
    return v;
}
BYOC__SIM_PRIVATE int32_t byoc__dv_get_i32(byoc__dv_reader *r) {
    const unsigned char *b = byoc__dv_take(r, 4);
    uint32_t v = 0;
    for (int i = 0; b && i < 4; ++i) v |= (uint32_t)b[i] << (8 * i);
    return (int32_t)v;
}
BYOC__SIM_PRIVATE double byoc__dv_get_f64(byoc__dv_reader *r) {
    uint64_t u = byoc__dv_get_u64(r);
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* A conv tile's patch matrix (im2col of its input tile), kept while that input tile stays in SRAM: the
   output-channel tiles of one spatial tile then share one im2col, as the array reuses a resident input. */
typedef struct byoc__dv_patches {
    int load; /* the load command that filled the input tile, -1 for none */
    byoc__conv_geom g;
    float *data, *packed; /* the patch matrix, and it packed for the GEMM */
    size_t cap, cap_packed; /* floats */
} byoc__dv_patches;
/* the load that last filled each SRAM range of the running layer */
typedef struct byoc__dv_filled {
    int64_t sram, bytes;
    int load;
} byoc__dv_filled;

struct byoc_sim_device_program {
    byoc__dv_stream s;
    unsigned char *sram, *scratch, *consts_block;
    void *workspace;
    byoc_sim_cost last;
    byoc__dv_patches patches;
    byoc__dv_filled filled[2 * (BYOC__DV_MAX_OPERANDS + 1)];
    int nfilled;
    uint64_t cmd_table, cmd_record; /* byte offset of the command table in the blob, bytes per command */
};

BYOC_SIM_API void byoc_sim_device_program_destroy(byoc_sim_device_program *dp) {
    if (!dp) return;
    const byoc_allocator a = dp->s.alloc;
    byoc__dv_release(&a, dp->sram);
    byoc__dv_release(&a, dp->scratch);
    byoc__dv_release(&a, dp->workspace);
    byoc__dv_release(&a, dp->patches.data);
    byoc__dv_release(&a, dp->patches.packed);
    dp->s.consts = NULL; /* inside consts_block */
    byoc__dv_release(&a, dp->consts_block);
    byoc__dv_stream_free(&dp->s);
    byoc__dv_release(&a, dp);
}

#define BYOC__DV_CORRUPT(...)                                                                        \
    (byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, __VA_ARGS__), byoc_sim_device_program_destroy(dp), \
     (byoc_sim_device_program *)NULL)

/* a kernel function as a chain: calls[0] the anchor, each later call reads the one before */
BYOC__SIM_PRIVATE int byoc__dv_kernel_from_fn(const byoc_sim_device *dev, byoc_node *fn, byoc__dv_kernel *k, char *why,
                                              size_t cap) {
    memset(k, 0, sizeof *k);
    k->fn = fn;
    if (!fn || fn->kind != BYOC_NODE_FUNCTION || fn->nparams > BYOC__DV_MAX_OPERANDS)
        return snprintf(why, cap, "not a function of at most %d parameters", BYOC__DV_MAX_OPERANDS), 0;
    byoc_node *chain[16];
    int n = 0;
    byoc_node *at = fn->body;
    while (at && at->kind == BYOC_NODE_CALL && at->op) {
        if (n == 16 || at->nargs > BYOC__DV_MAX_ARGS)
            return snprintf(why, cap, "more than 16 calls, or a call of more than %d arguments", BYOC__DV_MAX_ARGS), 0;
        chain[n++] = at;
        byoc_node *next = NULL;
        for (int a = 0; a < at->nargs; ++a)
            if (at->args[a]->kind == BYOC_NODE_CALL) {
                if (next) return snprintf(why, cap, "not a chain"), 0;
                next = at->args[a];
            }
        at = next;
    }
    if (at || n == 0) return snprintf(why, cap, "not a chain of op calls"), 0;
    for (int i = 0; i < n; ++i) {
        k->calls[i] = chain[n - 1 - i];
        byoc_node *c = k->calls[i];
        for (int a = 0; a < c->nargs; ++a) {
            int p = -1;
            for (int q = 0; q < fn->nparams; ++q)
                if (fn->params[q] == c->args[a]) p = q;
            if (p < 0 && !(i > 0 && c->args[a] == k->calls[i - 1]))
                return snprintf(why, cap, "an argument that is neither a parameter nor the previous call"), 0;
            k->arg_param[i][a] = p;
        }
        if (!c->checked_type || c->checked_type->kind != BYOC_TYPE_TENSOR)
            return snprintf(why, cap, "an untyped call"), 0;
        int cls = byoc__dv_class(dev->kind, c);
        if (cls == BYOC__DV_NONE || (i > 0 && cls != BYOC__DV_ELEMWISE))
            return snprintf(why, cap, "%s does not run on the %s here", c->op->def.name,
                            byoc__sim_kind_name(dev->kind)),
                   0;
        if (i > 0 && (!byoc__dv_same_shape(c->checked_type, k->calls[0]->checked_type) ||
                      byoc_dtype_size(c->checked_type->dtype) > byoc_dtype_size(k->calls[i - 1]->checked_type->dtype)))
            return snprintf(why, cap, "an epilogue that changes the tile's shape or widens its dtype"), 0;
    }
    k->ncalls = n;
    k->cls = byoc__dv_class(dev->kind, k->calls[0]);
    for (int q = 0; q < fn->nparams; ++q) {
        const byoc_type *t = fn->params[q]->checked_type;
        if (!t || t->kind != BYOC_TYPE_TENSOR) return snprintf(why, cap, "a parameter that is not a tensor"), 0;
        k->param_bytes[q] = (size_t)byoc_dtype_size(t->dtype) * (size_t)byoc__dv_elems(t);
    }
    k->out_bytes = byoc__dv_chain_out_bytes(k->calls, n);
    byoc__dv_kernel_cost(dev, k);
    return 1;
}

BYOC_SIM_API byoc_sim_device_program *byoc_sim_device_load(const void *blob, size_t size, byoc_diag *diag) {
    return byoc_sim_device_load_with(blob, size, NULL, diag);
}
BYOC_SIM_API byoc_sim_device_program *byoc_sim_device_load_with(const void *blob, size_t size,
                                                                const byoc_allocator *allocator, byoc_diag *diag) {
    byoc_allocator a;
    memset(&a, 0, sizeof a);
    if (allocator) a = *allocator;
    byoc_sim_device_program *dp =
        BYOC__SIM_CAST(byoc_sim_device_program *, byoc__dv_zalloc(&a, 1, sizeof(byoc_sim_device_program)));
    if (!dp)
        return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory"), (byoc_sim_device_program *)NULL;
    dp->s.alloc = a;
    byoc__dv_stream *s = &dp->s;
    const unsigned char *bytes = BYOC__SIM_CAST(const unsigned char *, blob);
    if (!blob || size < 16 || memcmp(bytes, BYOC__DV_MAGIC, 8))
        return BYOC__DV_CORRUPT("device blob: not a byoc device blob (bad magic)");
    if (byoc__dv_fnv(bytes, size - 8) != (uint64_t)bytes[size - 8] + ((uint64_t)bytes[size - 7] << 8) +
                                             ((uint64_t)bytes[size - 6] << 16) + ((uint64_t)bytes[size - 5] << 24) +
                                             ((uint64_t)bytes[size - 4] << 32) + ((uint64_t)bytes[size - 3] << 40) +
                                             ((uint64_t)bytes[size - 2] << 48) + ((uint64_t)bytes[size - 1] << 56))
        return BYOC__DV_CORRUPT("device blob: checksum mismatch (truncated or corrupted)");
    byoc__dv_reader r = {bytes, size - 8, 8, 0};
    uint32_t version = (uint32_t)byoc__dv_get_i32(&r);
    if (version < 1 || version > BYOC__DV_VERSION)
        return BYOC__DV_CORRUPT("device blob: format version %u (this runtime reads 1 to %u)", version,
                                BYOC__DV_VERSION);
    int operand_slots = version >= 3 ? BYOC__DV_MAX_OPERANDS : BYOC__DV_V2_OPERANDS;
    byoc_sim_device *d = &s->dev;
    if (version == 1) { /* the built-in kinds' registry indices: 1 npu, 2 dsp */
        int32_t k = byoc__dv_get_i32(&r);
        d->kind = k == 1 || k == 2 ? k : -1;
    } else {
        int32_t n = byoc__dv_get_i32(&r);
        const unsigned char *kn = n > 0 && n < 32 ? byoc__dv_take(&r, (size_t)n) : NULL;
        char kind[32] = "";
        if (kn) memcpy(kind, kn, (size_t)n), kind[n] = 0;
        if (r.bad || !kn) return BYOC__DV_CORRUPT("device blob: truncated header");
        d->kind = byoc_sim_device_kind_find(kind);
        if (!byoc__dk_device(d->kind)) {
            byoc__sim_fail(diag, BYOC_ERR_UNSUPPORTED, NULL,
                           "device blob: device kind '%s' is not registered in this runtime", kind);
            byoc_sim_device_program_destroy(dp);
            return NULL;
        }
    }
    const unsigned char *preset = byoc__dv_take(&r, sizeof d->preset);
    if (preset) memcpy(d->preset, preset, sizeof d->preset);
    d->preset[sizeof d->preset - 1] = 0;
    d->clock_mhz = byoc__dv_get_f64(&r);
    d->rows = byoc__dv_get_i32(&r);
    d->cols = byoc__dv_get_i32(&r);
    d->dataflow = (byoc_sim_dataflow)byoc__dv_get_i32(&r);
    d->lanes = byoc__dv_get_i32(&r);
    d->sram_bytes = (int64_t)byoc__dv_get_u64(&r);
    d->dram_bytes_per_cycle = byoc__dv_get_f64(&r);
    d->dram_latency = byoc__dv_get_i32(&r);
    d->burst_bytes = byoc__dv_get_i32(&r);
    d->launch_cycles = byoc__dv_get_i32(&r);
    d->double_buffer = byoc__dv_get_i32(&r);
    d->dtypes = (unsigned)byoc__dv_get_i32(&r);
    if (r.bad) return BYOC__DV_CORRUPT("device blob: truncated header");
    if (!byoc__dk_device(d->kind) || !byoc__dv_params_ok(d, byoc__dk_device(d->kind)->def.mac_array))
        return BYOC__DV_CORRUPT("device blob: device parameters out of range");
    int32_t nin = byoc__dv_get_i32(&r), nout = byoc__dv_get_i32(&r), nt = byoc__dv_get_i32(&r),
            nl = byoc__dv_get_i32(&r), nk = byoc__dv_get_i32(&r), nc = byoc__dv_get_i32(&r);
    uint64_t scratch = byoc__dv_get_u64(&r), const_bytes = byoc__dv_get_u64(&r), text_len = byoc__dv_get_u64(&r);
    size_t rest = r.len - r.at;
    if (r.bad || nin < 0 || nout < 1 || (int64_t)nt < (int64_t)nin + nout || nl < 1 || nk < 1 || nc < 1 ||
        (uint64_t)nt > rest / 88 || (uint64_t)nl > rest / 8 || (uint64_t)nc > rest / 280 || (uint64_t)nk > rest ||
        text_len > rest || const_bytes > rest || scratch > ((uint64_t)1 << 30))
        return BYOC__DV_CORRUPT("device blob: counts out of range");
    s->ninputs = nin;
    s->noutputs = nout;
    s->tensors = BYOC__SIM_CAST(byoc__dv_tensor *, byoc__dv_zalloc(&a, (size_t)nt, sizeof *s->tensors));
    s->cmds = BYOC__SIM_CAST(byoc__dv_cmd *, byoc__dv_zalloc(&a, (size_t)nc, sizeof *s->cmds));
    s->layer_names = BYOC__SIM_CAST(char **, byoc__dv_zalloc(&a, (size_t)nl, sizeof(char *)));
    s->layer_ops = BYOC__SIM_CAST(char **, byoc__dv_zalloc(&a, (size_t)nl, sizeof(char *)));
    s->kernels = BYOC__SIM_CAST(byoc__dv_kernel *, byoc__dv_zalloc(&a, (size_t)nk, sizeof *s->kernels));
    if (!s->tensors || !s->cmds || !s->layer_names || !s->layer_ops || !s->kernels) {
        byoc_sim_device_program_destroy(dp);
        return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory"), (byoc_sim_device_program *)NULL;
    }
    s->ntensors = nt;
    s->scratch_bytes = scratch;
    s->const_bytes = const_bytes;
    int seen_in[64] = {0}, seen_out[64] = {0};
    if (nin > 64 || nout > 64) return BYOC__DV_CORRUPT("device blob: more than 64 inputs or outputs");
    for (int i = 0; i < nt; ++i) {
        byoc__dv_tensor *t = &s->tensors[i];
        t->kind = byoc__dv_get_i32(&r);
        t->index = byoc__dv_get_i32(&r);
        t->dtype = byoc__dv_get_i32(&r);
        t->rank = byoc__dv_get_i32(&r);
        for (int a = 0; a < BYOC_MAX_RANK; ++a) t->dims[a] = (int64_t)byoc__dv_get_u64(&r);
        t->offset = byoc__dv_get_u64(&r);
        if (r.bad) return BYOC__DV_CORRUPT("device blob: truncated tensor table");
        if (t->dtype <= 0 || t->dtype >= BYOC_DTYPE_COUNT || t->rank < 0 || t->rank > BYOC_MAX_RANK ||
            t->kind < BYOC__DV_INPUT || t->kind > BYOC__DV_SCRATCH)
            return BYOC__DV_CORRUPT("device blob: tensor %d: bad kind, dtype or rank", i);
        uint64_t n = byoc_dtype_size((byoc_dtype)t->dtype);
        for (int a = 0; a < t->rank; ++a) {
            if (t->dims[a] < 0 || t->dims[a] > ((int64_t)1 << 32) ||
                (t->dims[a] && n > ((uint64_t)1 << 40) / (uint64_t)t->dims[a]))
                return BYOC__DV_CORRUPT("device blob: tensor %d: dimensions out of range", i);
            n *= (uint64_t)t->dims[a];
        }
        t->nbytes = n;
        if (t->kind == BYOC__DV_INPUT || t->kind == BYOC__DV_OUTPUT) {
            int lim = t->kind == BYOC__DV_INPUT ? nin : nout;
            int *seen = t->kind == BYOC__DV_INPUT ? seen_in : seen_out;
            if (t->index < 0 || t->index >= lim || seen[t->index]++)
                return BYOC__DV_CORRUPT("device blob: tensor %d: bad or repeated %s index", i,
                                        t->kind == BYOC__DV_INPUT ? "input" : "output");
        } else {
            uint64_t lim = t->kind == BYOC__DV_CONST ? const_bytes : scratch;
            if (t->offset % 64 || t->offset > lim || n > lim - t->offset)
                return BYOC__DV_CORRUPT("device blob: tensor %d lies outside its %s block", i,
                                        t->kind == BYOC__DV_CONST ? "constant" : "scratch");
        }
    }
    for (int i = 0; i < nin; ++i)
        if (!seen_in[i]) return BYOC__DV_CORRUPT("device blob: input %d has no tensor", i);
    for (int i = 0; i < nout; ++i)
        if (!seen_out[i]) return BYOC__DV_CORRUPT("device blob: output %d has no tensor", i);
    for (int i = 0; i < nl; ++i) {
        s->nlayers = i + 1; /* (calloc'd: the destroy frees a half-read pair) */
        for (int f = 0; f < 2; ++f) {
            int32_t n = byoc__dv_get_i32(&r);
            const unsigned char *p = n >= 0 && n < 4096 ? byoc__dv_take(&r, (size_t)n) : NULL;
            if (!p) return BYOC__DV_CORRUPT("device blob: truncated layer names");
            char *str = BYOC__SIM_CAST(char *, byoc__dv_zalloc(&a, (size_t)n + 1, 1));
            if (!str) return BYOC__DV_CORRUPT("device blob: out of memory");
            memcpy(str, p, (size_t)n);
            str[n] = 0;
            if (f) s->layer_ops[i] = str;
            else s->layer_names[i] = str;
        }
    }
    dp->cmd_table = r.at;
    for (int i = 0; i < nc; ++i) {
        byoc__dv_cmd *c = &s->cmds[i];
        if (i == 1) dp->cmd_record = r.at - dp->cmd_table;
        c->op = byoc__dv_get_i32(&r);
        c->layer = byoc__dv_get_i32(&r);
        c->tile = byoc__dv_get_i32(&r);
        c->kernel = byoc__dv_get_i32(&r);
        c->ndeps = byoc__dv_get_i32(&r);
        for (int k = 0; k < BYOC__DV_MAX_DEPS; ++k) c->deps[k] = byoc__dv_get_i32(&r);
        c->box.tensor = byoc__dv_get_i32(&r);
        c->box.rank = byoc__dv_get_i32(&r);
        for (int a = 0; a < BYOC_MAX_RANK; ++a) c->box.begin[a] = (int64_t)byoc__dv_get_u64(&r);
        for (int a = 0; a < BYOC_MAX_RANK; ++a) c->box.extent[a] = (int64_t)byoc__dv_get_u64(&r);
        c->sram = (int64_t)byoc__dv_get_u64(&r);
        c->noperands = byoc__dv_get_i32(&r);
        for (int k = 0; k < operand_slots; ++k) c->operand_sram[k] = (int64_t)byoc__dv_get_u64(&r);
        if (r.bad) return BYOC__DV_CORRUPT("device blob: truncated command table");
        s->ncmds = i + 1;
        if (c->op < BYOC__DV_LOAD || c->op > BYOC__DV_COMPUTE || c->layer < 0 || c->layer >= nl || c->tile < 0 ||
            c->ndeps < 0 || c->ndeps > BYOC__DV_MAX_DEPS)
            return BYOC__DV_CORRUPT("device blob: command %d: bad opcode, layer, tile or dependency count", i);
        for (int k = 0; k < c->ndeps; ++k)
            if (c->deps[k] < 0 || c->deps[k] >= i)
                return BYOC__DV_CORRUPT("device blob: command %d depends on command %d, not an earlier one", i,
                                        c->deps[k]);
        if (c->sram < 0 || c->sram % 64 || c->sram >= d->sram_bytes)
            return BYOC__DV_CORRUPT("device blob: command %d: SRAM offset %lld out of range or unaligned", i,
                                    (long long)c->sram);
        if (c->op != BYOC__DV_COMPUTE) {
            const byoc__dv_box *b = &c->box;
            if (b->tensor < 0 || b->tensor >= nt || b->rank != s->tensors[b->tensor].rank)
                return BYOC__DV_CORRUPT("device blob: command %d: bad tensor or rank", i);
            for (int a = 0; a < b->rank; ++a)
                if (b->begin[a] < 0 || b->extent[a] < 1 || b->begin[a] > s->tensors[b->tensor].dims[a] ||
                    b->extent[a] > s->tensors[b->tensor].dims[a] - b->begin[a])
                    return BYOC__DV_CORRUPT("device blob: command %d: its box leaves tensor %d", i, b->tensor);
            if (c->op == BYOC__DV_STORE && s->tensors[b->tensor].kind != BYOC__DV_OUTPUT &&
                s->tensors[b->tensor].kind != BYOC__DV_SCRATCH)
                return BYOC__DV_CORRUPT("device blob: command %d stores into an input or a constant", i);
            uint64_t nbytes = byoc__dv_box_bytes(s, b);
            if (nbytes > (uint64_t)(d->sram_bytes - c->sram))
                return BYOC__DV_CORRUPT("device blob: command %d: %llu bytes overflow SRAM", i,
                                        (unsigned long long)nbytes);
            c->cycles = byoc__dv_dma_cycles(d, b, &s->tensors[b->tensor], &c->bytes);
        } else {
            if (c->kernel < 0 || c->kernel >= nk || c->noperands < 0 || c->noperands > operand_slots)
                return BYOC__DV_CORRUPT("device blob: command %d: bad kernel or operand count", i);
            for (int k = 0; k < c->noperands; ++k)
                if (c->operand_sram[k] < 0 || c->operand_sram[k] % 64 || c->operand_sram[k] >= d->sram_bytes)
                    return BYOC__DV_CORRUPT(
                        "device blob: command %d: operand %d's SRAM offset out of range or unaligned", i, k);
        }
    }
    const unsigned char *text = byoc__dv_take(&r, (size_t)text_len);
    const unsigned char *consts = byoc__dv_take(&r, (size_t)const_bytes);
    if (r.bad || r.at != r.len)
        return BYOC__DV_CORRUPT("device blob: %s", r.bad ? "truncated kernels or constants" : "trailing bytes");
    dp->consts_block = BYOC__SIM_CAST(unsigned char *, byoc__dv_zalloc(&a, (size_t)const_bytes + 64, 1));
    if (!dp->consts_block)
        return BYOC__DV_CORRUPT("device blob: out of memory for %llu bytes of constants",
                                (unsigned long long)const_bytes);
    s->consts = dp->consts_block + (64 - (uintptr_t)dp->consts_block % 64) % 64;
    if (const_bytes) memcpy(s->consts, consts, (size_t)const_bytes);
    /* the kernels */
    byoc_diag pd;
    byoc_parse_options kernel_parse;
    memset(&kernel_parse, 0, sizeof kernel_parse);
    kernel_parse.allocator = allocator;
    s->km = byoc_module_parse((const char *)text, (size_t)text_len, "<device blob kernels>", &kernel_parse, &pd);
    if (!s->km) return BYOC__DV_CORRUPT("device blob: kernels: %s", pd.message);
    if (byoc_infer_type(s->km, &pd) != BYOC_OK) return BYOC__DV_CORRUPT("device blob: kernels: %s", pd.message);
    for (int k = 0; k < nk; ++k) {
        char name[32], why[200];
        snprintf(name, sizeof name, "k%d", k);
        if (!byoc__dv_kernel_from_fn(d, byoc_module_function(s->km, name), &s->kernels[k], why, sizeof why))
            return BYOC__DV_CORRUPT("device blob: kernel @%s: %s", name, why);
        s->nkernels = k + 1;
        for (int i = 0; i < s->kernels[k].ncalls; ++i) {
            size_t ws = byoc_kernel_workspace_size(s->kernels[k].calls[i]);
            if (ws > s->workspace) s->workspace = ws;
        }
    }
    for (int i = 0; i < nc; ++i) {
        byoc__dv_cmd *c = &s->cmds[i];
        if (c->op != BYOC__DV_COMPUTE) continue;
        const byoc__dv_kernel *k = &s->kernels[c->kernel];
        if (c->noperands != k->fn->nparams)
            return BYOC__DV_CORRUPT("device blob: command %d gives %d operands to a kernel of %d", i, c->noperands,
                                    k->fn->nparams);
        for (int q = 0; q < c->noperands; ++q)
            if (k->param_bytes[q] > (uint64_t)(d->sram_bytes - c->operand_sram[q]))
                return BYOC__DV_CORRUPT("device blob: command %d: operand %d overflows SRAM", i, q);
        if (k->out_bytes > (uint64_t)(d->sram_bytes - c->sram))
            return BYOC__DV_CORRUPT("device blob: command %d: its result overflows SRAM", i);
        c->cycles = k->cycles;
        c->macs = k->macs;
    }
    /* the SRAM and the workspace come with the first run: loading allocates what the blob holds, no more */
    return dp;
}
#undef BYOC__DV_CORRUPT

BYOC_SIM_API const byoc_sim_device *byoc_sim_device_of(const byoc_sim_device_program *dp) {
    if (!dp) return NULL;
    return &dp->s.dev;
}
BYOC_SIM_API int byoc_sim_device_command_count(const byoc_sim_device_program *dp) {
    if (!dp) return 0;
    return dp->s.ncmds;
}
BYOC_SIM_API byoc_sim_command_info byoc_sim_device_command(const byoc_sim_device_program *dp, int i) {
    byoc_sim_command_info info;
    memset(&info, 0, sizeof info);
    if (!dp) return info;
    if (i < 0 || i >= dp->s.ncmds) return info;
    const byoc__dv_cmd *c = &dp->s.cmds[i];
    info.kind = c->op == BYOC__DV_LOAD ? "load" : c->op == BYOC__DV_STORE ? "store" : "compute";
    info.layer = c->layer;
    info.start = c->start;
    info.cycles = c->cycles;
    info.bytes = c->op == BYOC__DV_COMPUTE ? 0 : c->bytes;
    info.macs = c->macs;
    info.offset = dp->cmd_table + (uint64_t)i * dp->cmd_record;
    return info;
}
BYOC_SIM_API int byoc_sim_device_layer_count(const byoc_sim_device_program *dp) {
    if (!dp) return 0;
    return dp->s.nlayers;
}
BYOC_SIM_API const char *byoc_sim_device_layer(const byoc_sim_device_program *dp, int i, const char **ops) {
    if (!dp) return NULL;
    if (i < 0 || i >= dp->s.nlayers) return NULL;
    if (ops) *ops = dp->s.layer_ops[i];
    return dp->s.layer_names[i];
}

/* copies a box between its tensor (row-major) and a contiguous SRAM tile */
BYOC__SIM_PRIVATE void byoc__dv_box_copy(const byoc__dv_tensor *t, const byoc__dv_box *b, unsigned char *sram,
                                         int to_sram) {
    uint64_t runs, run_elems;
    byoc__dv_runs(b, t->dims, &runs, &run_elems);
    size_t es = byoc_dtype_size((byoc_dtype)t->dtype), run_bytes = (size_t)run_elems * es;
    int k = b->rank - 1;
    while (k > 0 && b->begin[k] == 0 && b->extent[k] == t->dims[k]) k--;
    int64_t idx[BYOC_MAX_RANK] = {0};
    unsigned char *base = BYOC__SIM_CAST(unsigned char *, t->data);
    for (uint64_t r = 0; r < runs; ++r) {
        /* element offset of the run's start */
        uint64_t off = 0;
        for (int a = 0; a < b->rank; ++a)
            off = off * (uint64_t)t->dims[a] + (uint64_t)(b->begin[a] + (a < k ? idx[a] : 0));
        if (to_sram) memcpy(sram + r * run_bytes, base + off * es, run_bytes);
        else memcpy(base + off * es, sram + r * run_bytes, run_bytes);
        for (int a = k - 1; a >= 0; --a) {
            if (++idx[a] < b->extent[a]) break;
            idx[a] = 0;
        }
    }
}

/* records that SRAM [at, at + bytes) now holds what load `load` brought (-1: a compute's result) */
BYOC__SIM_PRIVATE void byoc__dv_note_fill(byoc_sim_device_program *dp, int64_t at, int64_t bytes, int load) {
    int keep = 0;
    for (int i = 0; i < dp->nfilled; ++i) { /* drop the ranges it overlaps */
        const byoc__dv_filled *f = &dp->filled[i];
        if (f->sram + f->bytes <= at || at + bytes <= f->sram) dp->filled[keep++] = *f;
        else if (dp->patches.load == f->load) dp->patches.load = -1;
    }
    dp->nfilled = keep;
    if (load < 0) return;
    if (dp->nfilled == (int)(sizeof dp->filled / sizeof dp->filled[0]))
        dp->nfilled = 0, dp->patches.load = -1; /* forget all: only reuse is lost */
    byoc__dv_filled f = {at, bytes, load};
    dp->filled[dp->nfilled++] = f;
}
/* the load whose bytes hold all of SRAM [at, at + bytes), -1 if none does: any later write into that range
   then overlaps the load's and forgets it */
BYOC__SIM_PRIVATE int byoc__dv_filled_by(const byoc_sim_device_program *dp, int64_t at, int64_t bytes) {
    for (int i = 0; i < dp->nfilled; ++i)
        if (dp->filled[i].sram == at && dp->filled[i].bytes >= bytes) return dp->filled[i].load;
    return -1;
}

/* A float32 conv tile (one image, one group, not 1x1) as im2col + GEMM, the im2col reused while the same
   load's input tile is resident. 0 when the tile is not of that kind or memory is short: the host kernel
   runs it instead. */
BYOC__SIM_PRIVATE int byoc__dv_conv_reusing_patches(byoc_sim_device_program *dp, const byoc_node *call,
                                                    const byoc_tensor *x, const byoc_tensor *w, const byoc_tensor *out,
                                                    int load) {
    if (load < 0 || x->dtype != BYOC_FLOAT32 || w->dtype != BYOC_FLOAT32 || out->dtype != BYOC_FLOAT32 ||
        x->rank != 4 || w->rank != 4 || out->rank != 4 || x->dims[0] != 1 ||
        byoc_attrs_int(&call->attrs, "groups", 1) != 1 || w->dims[1] != x->dims[1] || w->dims[0] != out->dims[1] ||
        dp->s.workspace < byoc__gemm_ws())
        return 0;
    byoc__conv_geom g;
    memset(&g, 0, sizeof g);
    int64_t pad[4];
    byoc__dv_pads(&call->attrs, pad);
    g.N = 1, g.C = x->dims[1], g.H = x->dims[2], g.W = x->dims[3], g.O = out->dims[1], g.OH = out->dims[2],
    g.OW = out->dims[3];
    g.KH = w->dims[2], g.KW = w->dims[3], g.G = 1, g.Cg = g.C, g.Og = g.O;
    g.sh = byoc__dv_pair(&call->attrs, "strides", 0, 1), g.sw = byoc__dv_pair(&call->attrs, "strides", 1, 1);
    g.dh = byoc__dv_pair(&call->attrs, "dilation", 0, 1), g.dw = byoc__dv_pair(&call->attrs, "dilation", 1, 1);
    g.pt = pad[0], g.pl = pad[1];
    int64_t P = g.OH * g.OW, KK = g.Cg * g.KH * g.KW;
    if (P <= 0 || KK <= 0 || (uint64_t)KK > ((uint64_t)16 << 20) / (uint64_t)P) return 0;
    if (g.KH == 1 && g.KW == 1 && g.sh == 1 && g.sw == 1 && !pad[0] && !pad[1] && !pad[2] &&
        !pad[3]) { /* 1x1: the input is the patch matrix */
        byoc_sgemm(0, 0, g.O, P, KK, 1.0f, BYOC__SIM_CAST(const float *, w->data), KK,
                   BYOC__SIM_CAST(const float *, x->data), P, 0.0f, BYOC__SIM_CAST(float *, out->data), P,
                   dp->workspace);
        return 1;
    }
    byoc__dv_patches *pc = &dp->patches;
    int nr;
    byoc__ukr_fn ukr = byoc__gemm_kernel(&nr);
    size_t npacked = byoc__sgemm_packed_b_floats(P, KK, nr);
    if (pc->load != load || memcmp(&pc->g, &g, sizeof g)) {
        pc->load = -1;
        if ((size_t)(KK * P) > pc->cap) { /* the contents are rebuilt below: no copy */
            byoc__dv_release(&dp->s.alloc, pc->data);
            pc->cap = 0;
            if (!(pc->data = BYOC__SIM_CAST(float *, byoc__dv_zalloc(&dp->s.alloc, (size_t)(KK * P), sizeof(float)))))
                return 0;
            pc->cap = (size_t)(KK * P);
        }
        if (npacked > pc->cap_packed) {
            byoc__dv_release(&dp->s.alloc, pc->packed);
            pc->cap_packed = 0;
            if (!(pc->packed = BYOC__SIM_CAST(float *, byoc__dv_zalloc(&dp->s.alloc, npacked, sizeof(float)))))
                return 0;
            pc->cap_packed = npacked;
        }
        byoc__im2col(BYOC__SIM_CAST(const float *, x->data), &g, 0, P, pc->data);
        byoc__sgemm_pack_b_all(nr, P, KK, pc->data, P, pc->packed);
        pc->load = load;
        pc->g = g;
    }
    byoc__sgemm_packed_b(ukr, nr, g.O, P, KK, BYOC__SIM_CAST(const float *, w->data), KK, pc->packed,
                         BYOC__SIM_CAST(float *, out->data), P,
                         BYOC__SIM_CAST(float *, BYOC__SIM_CAST(void *, byoc__align64(dp->workspace))));
    return 1;
}

BYOC_SIM_API byoc_result byoc_sim_device_run(byoc_sim_device_program *dp, const byoc_tensor *in, int nin,
                                             byoc_tensor *out, int nout, byoc_sim_cost *cost, byoc_diag *diag) {
    if (!dp) return byoc__null_arg(diag, __func__, "device program");
    byoc__dv_stream *s = &dp->s;
    if (nin != s->ninputs || nout != s->noutputs)
        return byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL,
                              "device program: %d inputs and %d outputs given, it takes %d and %d", nin, nout,
                              s->ninputs, s->noutputs);
    if (s->scratch_bytes && !dp->scratch) {
        dp->scratch = BYOC__SIM_CAST(unsigned char *, byoc__dv_zalloc(&dp->s.alloc, (size_t)s->scratch_bytes + 64, 1));
        if (!dp->scratch)
            return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL,
                                  "device program: out of memory for %llu bytes of scratch",
                                  (unsigned long long)s->scratch_bytes);
    }
    if (!dp->sram &&
        !(dp->sram = BYOC__SIM_CAST(unsigned char *, byoc__dv_zalloc(&dp->s.alloc, (size_t)s->dev.sram_bytes + 64, 1))))
        return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL,
                              "device program: out of memory for %lld bytes of SRAM", (long long)s->dev.sram_bytes);
    if (s->workspace && !dp->workspace && !(dp->workspace = byoc__dv_zalloc(&dp->s.alloc, s->workspace, 1)))
        return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL,
                              "device program: out of memory for %llu bytes of workspace",
                              (unsigned long long)s->workspace);
    unsigned char *scratch = dp->scratch ? dp->scratch + (64 - (uintptr_t)dp->scratch % 64) % 64 : NULL;
    unsigned char *sram = dp->sram + (64 - (uintptr_t)dp->sram % 64) % 64;
    for (int i = 0; i < s->ntensors; ++i) {
        byoc__dv_tensor *t = &s->tensors[i];
        const byoc_tensor *x = t->kind == BYOC__DV_INPUT    ? &in[t->index]
                               : t->kind == BYOC__DV_OUTPUT ? &out[t->index]
                                                            : NULL;
        if (x) {
            int same = x->dtype == (byoc_dtype)t->dtype && x->rank == t->rank && x->data;
            for (int a = 0; same && a < t->rank; ++a) same = x->dims[a] == t->dims[a];
            if (!same) {
                char want[160];
                byoc__sim_shape_string((byoc_dtype)t->dtype, t->rank, t->dims, want, sizeof want);
                return byoc__sim_fail(diag, BYOC_ERR_TYPE, NULL, "device program: %s %d must be %s with data",
                                      t->kind == BYOC__DV_INPUT ? "input" : "output", t->index, want);
            }
            t->data = x->data;
        } else {
            t->data = t->kind == BYOC__DV_CONST ? (void *)(s->consts + t->offset) : (void *)(scratch + t->offset);
        }
    }
    dp->patches.load = -1;
    dp->nfilled = 0;
    const byoc__dk_entry *kd = byoc__dk_device(s->dev.kind);
    for (int i = 0; i < s->ncmds; ++i) {
        const byoc__dv_cmd *c = &s->cmds[i];
        if (i == 0 || c->layer != s->cmds[i - 1].layer) dp->nfilled = 0, dp->patches.load = -1;
        if (c->op != BYOC__DV_COMPUTE) {
            byoc__dv_box_copy(&s->tensors[c->box.tensor], &c->box, sram + c->sram, c->op == BYOC__DV_LOAD);
            if (c->op == BYOC__DV_LOAD) byoc__dv_note_fill(dp, c->sram, (int64_t)byoc__dv_box_bytes(s, &c->box), i);
            continue;
        }
        const byoc__dv_kernel *k = &s->kernels[c->kernel];
        byoc_tensor params[BYOC__DV_MAX_OPERANDS], result;
        for (int q = 0; q < k->fn->nparams; ++q) {
            const byoc_type *t = k->fn->params[q]->checked_type;
            params[q].dtype = t->dtype;
            params[q].rank = t->rank;
            memcpy(params[q].dims, t->dims, sizeof(int64_t) * (size_t)t->rank);
            params[q].data = sram + c->operand_sram[q];
        }
        for (int j = 0; j < k->ncalls; ++j) {
            const byoc_node *call = k->calls[j];
            byoc_tensor args[BYOC__DV_MAX_ARGS];
            for (int a = 0; a < call->nargs; ++a)
                args[a] = k->arg_param[j][a] < 0 ? result : params[k->arg_param[j][a]];
            const byoc_type *t = call->checked_type;
            result.dtype = t->dtype;
            result.rank = t->rank;
            memcpy(result.dims, t->dims, sizeof(int64_t) * (size_t)t->rank);
            result.data = sram + c->sram;
            if (j == 0 && k->cls == BYOC__DV_CONV && !(kd && kd->def.execute) && k->arg_param[0][0] >= 0 &&
                byoc__dv_conv_reusing_patches(dp, call, &args[0], &args[1], &result,
                                              byoc__dv_filled_by(dp, c->operand_sram[k->arg_param[0][0]],
                                                                 (int64_t)k->param_bytes[k->arg_param[0][0]])))
                continue;
            byoc_diag ed;
            memset(&ed, 0, sizeof ed);
            /* the devices' own requantize is in fixed point (a kind with its own execute decides for itself) */
            byoc_result rr =
                kd && kd->def.execute
                    ? kd->def.execute(&s->dev, call, args, call->nargs, &result, dp->workspace, &ed, kd->def.user_data)
                : !strcmp(call->op->def.name, "qnn.requantize")
                    ? byoc__dv_requantize_fixed(call, args, &result, &ed)
                    : byoc_kernel_run(call, args, call->nargs, &result, 1, dp->workspace, &ed);
            if (rr != BYOC_OK)
                return byoc__sim_fail(diag, rr, NULL, "device program: layer %d (%s), command %d: %s", c->layer,
                                      s->layer_names[c->layer], i, ed.message);
        }
        byoc__dv_note_fill(dp, c->sram, (int64_t)k->out_bytes, -1); /* what it overwrote is no longer a load's */
    }
    byoc__dv_schedule(s, &dp->last);
    if (cost) *cost = dp->last;
    return BYOC_OK;
}
/* ---- runtime modules: what tir_to_runtime attaches to a partition ---- */
typedef struct byoc__dv_runtime {
    byoc_sim_device_program *dp;
    void *blob;
    size_t size;
    byoc_allocator alloc; /* of this struct and the blob (zero: malloc) */
} byoc__dv_runtime;

BYOC__SIM_PRIVATE void byoc__dv_runtime_release(void *state) {
    byoc__dv_runtime *rt = BYOC__SIM_CAST(byoc__dv_runtime *, state);
    if (!rt) return;
    const byoc_allocator a = rt->alloc;
    byoc_sim_device_program_destroy(rt->dp);
    byoc__dv_release(&a, rt->blob);
    byoc__dv_release(&a, rt);
}

/* byoc_module_evaluate's entry: constants in, result constants made in m */
BYOC__SIM_PRIVATE byoc_result byoc__dv_runtime_run(void *state, byoc_module *m, byoc_node *const *args, int nargs,
                                                   byoc_node **result, byoc_diag *diag) {
    byoc__dv_runtime *rt = BYOC__SIM_CAST(byoc__dv_runtime *, state);
    byoc__dv_stream *s = &rt->dp->s;
    byoc_tensor in[64], out[64];
    byoc_node *outs[64];
    if (nargs != s->ninputs)
        return byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL, "device program: %d arguments for %d inputs",
                              nargs, s->ninputs);
    for (int i = 0; i < nargs; ++i) {
        const byoc_node *a = args[i];
        const byoc_type *t = a->annotation ? a->annotation : a->checked_type;
        if (a->kind != BYOC_NODE_CONSTANT || !t || t->kind != BYOC_TYPE_TENSOR)
            return byoc__sim_fail(diag, BYOC_ERR_TYPE, a, "device program: argument %d is not a tensor constant", i);
        in[i].dtype = t->dtype;
        in[i].rank = t->rank;
        memcpy(in[i].dims, t->dims, sizeof(int64_t) * (size_t)t->rank);
        in[i].data = a->data;
    }
    for (int t = 0; t < s->ntensors; ++t) {
        const byoc__dv_tensor *x = &s->tensors[t];
        if (x->kind != BYOC__DV_OUTPUT) continue;
        byoc_node *c = byoc_constant(m, byoc_tensor_type(m, (byoc_dtype)x->dtype, x->rank, x->dims), NULL, 0);
        if (!c)
            return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "device program: out of memory for its result");
        outs[x->index] = c;
        out[x->index].dtype = (byoc_dtype)x->dtype;
        out[x->index].rank = x->rank;
        memcpy(out[x->index].dims, x->dims, sizeof(int64_t) * (size_t)x->rank);
        out[x->index].data = c->data;
    }
    byoc_result r = byoc_sim_device_run(rt->dp, in, nargs, out, s->noutputs, NULL, diag);
    if (r != BYOC_OK) return r;
    *result = s->noutputs == 1 ? outs[0] : byoc_tuple(m, outs, s->noutputs);
    return *result ? BYOC_OK : byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
}

/* the state (device program and blob) behind a runtime module made here, NULL for any other */
BYOC__SIM_PRIVATE byoc__dv_runtime *byoc__dv_runtime_of(const byoc_runtime_module *rm) {
    return rm && rm->run == byoc__dv_runtime_run ? BYOC__SIM_CAST(byoc__dv_runtime *, rm->state) : NULL;
}
BYOC__SIM_PRIVATE byoc_sim_device_program *byoc__dv_program_of(const byoc_runtime_module *rm) {
    byoc__dv_runtime *rt = byoc__dv_runtime_of(rm);
    return rt ? rt->dp : NULL;
}

// [SECTION] sim impl: the host model, latency and traces
/* ---- the host model and the program's account ---- */

BYOC__SIM_PRIVATE void byoc__sim_account(byoc_sim_program *p) {
    const byoc_sim_device *h = &p->host;
    for (int i = 0; i < p->nkernels; ++i) {
        byoc__sim_kernel *k = &p->kernels[i];
        if (!k->info.device_kind) k->info.device_kind = "host";
        /* a control node's time is its bodies' programs', known after each run */
        if (k->info.exec == BYOC_SIM_EXEC_RUNTIME || k->info.exec == BYOC_SIM_EXEC_CONTROL) continue;
        double flops = 0;
        for (int st = k->step_first; st < k->step_first + k->nsteps; ++st) flops += byoc_op_flops(p->steps[st].call);
        double bytes = (double)(k->info.bytes_read + k->info.bytes_written);
        double compute = flops / (h->lanes > 0 ? h->lanes : 1),
               memory = bytes / (h->dram_bytes_per_cycle > 0 ? h->dram_bytes_per_cycle : 1);
        int copies_nothing =
            k->nsteps == 1 && k->info.algorithm && !strcmp(k->info.algorithm, BYOC__SIM_WRITTEN_IN_PLACE);
        uint64_t launch = copies_nothing ? 0 : (uint64_t)h->launch_cycles;
        k->info.cycles = launch + (uint64_t)(compute > memory ? compute : memory);
        k->info.sim_seconds = (double)k->info.cycles / (h->clock_mhz * 1e6);
        k->info.dram_bytes = (uint64_t)bytes;
    }
    /* transfers: inputs another device wrote (the program's inputs and the host's constants are the host's) */
    int *producer = BYOC__SIM_CAST(int *, byoc__sim_malloc(p, sizeof(int) * (size_t)(p->nvalues ? p->nvalues : 1)));
    int *seen = BYOC__SIM_CAST(int *, byoc__sim_malloc(p, sizeof(int) * (size_t)(p->nvalues ? p->nvalues : 1)));
    if (!producer || !seen) {
        byoc__sim_mfree(p, producer);
        byoc__sim_mfree(p, seen);
        return;
    }
    for (int v = 0; v < p->nvalues; ++v) producer[v] = -1, seen[v] = -1;
    for (int i = 0; i < p->nkernels; ++i) {
        byoc__sim_kernel *k = &p->kernels[i];
        const char *dev = k->info.exec == BYOC_SIM_EXEC_RUNTIME ? k->info.device : "host";
        /* what it reads: its steps' inputs, or its argument list */
        for (int pass = 0; pass < 2; ++pass) {
            int from = pass ? k->in_first : 0, n = pass ? k->nin : 0;
            if (!pass)
                for (int st = k->step_first; st < k->step_first + k->nsteps; ++st) {
                    const byoc__sim_step *s = &p->steps[st];
                    for (int q = 0; q < s->nin; ++q) {
                        int v = p->operands[s->in_first + q];
                        if (seen[v] == i || (producer[v] >= 0 && producer[v] == i)) continue;
                        seen[v] = i;
                        const char *src = producer[v] >= 0 ? (p->kernels[producer[v]].info.exec == BYOC_SIM_EXEC_RUNTIME
                                                                  ? p->kernels[producer[v]].info.device
                                                                  : "host")
                                                           : "host";
                        if (strcmp(src, dev)) k->info.transfer_bytes += p->values[v].nbytes;
                    }
                }
            for (int q = 0; q < n; ++q) {
                int v = p->operands[from + q];
                if (seen[v] == i) continue;
                seen[v] = i;
                const char *src = producer[v] >= 0 ? (p->kernels[producer[v]].info.exec == BYOC_SIM_EXEC_RUNTIME
                                                          ? p->kernels[producer[v]].info.device
                                                          : "host")
                                                   : "host";
                if (strcmp(src, dev)) k->info.transfer_bytes += p->values[v].nbytes;
            }
        }
        for (int st = k->step_first; st < k->step_first + k->nsteps; ++st)
            for (int q = 0; q < p->steps[st].nout; ++q) producer[p->operands[p->steps[st].out_first + q]] = i;
        if (k->info.exec == BYOC_SIM_EXEC_RUNTIME || k->info.exec == BYOC_SIM_EXEC_COPY)
            for (int q = 0; q < k->nout; ++q) producer[p->operands[k->out_first + q]] = i;
    }
    byoc__sim_mfree(p, producer);
    byoc__sim_mfree(p, seen);
}

BYOC_SIM_API double byoc_sim_latency(const byoc_sim_program *p) {
    if (!p) return 0;
    double t = 0;
    for (int i = 0; i < p->nkernels; ++i) t += p->kernels[i].info.sim_seconds;
    return t;
}

BYOC_SIM_API const byoc_sim_device_program *byoc_sim_kernel_program(const byoc_sim_program *p, int i) {
    if (!p || i < 0 || i >= p->nkernels || p->kernels[i].info.exec != BYOC_SIM_EXEC_RUNTIME || !p->kernels[i].function)
        return NULL;
    return byoc__dv_program_of(byoc_module_runtime(p->m, p->kernels[i].function));
}

BYOC_SIM_API const byoc_sim_device *byoc_sim_kernel_device(const byoc_sim_program *p, int i, int64_t *sram_peak_bytes) {
    if (sram_peak_bytes) *sram_peak_bytes = 0;
    const byoc_sim_device_program *dp = byoc_sim_kernel_program(p, i);
    if (!dp) return NULL;
    const byoc__dv_stream *s = &dp->s;
    int64_t peak = 0;
    for (int c = 0; c < s->ncmds; ++c) {
        const byoc__dv_cmd *cmd = &s->cmds[c];
        int compute = cmd->op == BYOC__DV_COMPUTE && cmd->kernel >= 0 && cmd->kernel < s->nkernels;
        int64_t end = cmd->sram + (int64_t)(compute                       ? s->kernels[cmd->kernel].out_bytes
                                            : cmd->op != BYOC__DV_COMPUTE ? byoc__dv_box_bytes(s, &cmd->box)
                                                                          : 0);
        if (end > peak) peak = end;
        for (int q = 0; compute && q < cmd->noperands && q < BYOC__DV_MAX_OPERANDS; ++q)
            if (cmd->operand_sram[q] + (int64_t)s->kernels[cmd->kernel].param_bytes[q] > peak)
                peak = cmd->operand_sram[q] + (int64_t)s->kernels[cmd->kernel].param_bytes[q];
    }
    if (sram_peak_bytes) *sram_peak_bytes = peak;
    return &s->dev;
}

/* byoc.h's JSON string writer; NULL is written as "" here (byoc__json_str writes null) */
BYOC__SIM_PRIVATE void byoc__sim_json_string(byoc__buf *t, const char *s) { byoc__json_str(t, s ? s : ""); }

/* the track (tid index) of a device name, announced on first use: its kernels, then for a simulated device its DMA
   and compute commands */
BYOC__SIM_PRIVATE int byoc__sim_trace_track(byoc__buf *t, const char **tracks, int *ntracks, const char *dev,
                                            const char *kind, int library) {
    for (int j = 0; j < *ntracks; ++j)
        if (!strcmp(tracks[j], dev)) return j;
    if (*ntracks >= 60) return 59;
    int tid = (*ntracks)++;
    tracks[tid] = dev;
    for (int e = 0; e < 3; ++e) {
        char name[160];
        snprintf(name, sizeof name,
                 e == 0   ? "%s%s"
                 : e == 1 ? "%s dma%s"
                          : "%s compute%s",
                 dev, library ? " (library: host kernels)" : "");
        if (e && !byoc__dk_device(byoc_sim_device_kind_find(kind))) break;
        byoc__buf_printf(t, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"args\":{\"name\":",
                         1 + 3 * tid + e);
        byoc__sim_json_string(t, name);
        byoc__buf_printf(t, "}}");
    }
    return tid;
}

/* the kernels that ran inside control kernel i's bodies in the last run, one event per kernel and iteration */
BYOC__SIM_PRIVATE void byoc__sim_trace_bodies(byoc__buf *t, const byoc_sim_program *p, int i, const char **tracks,
                                             int *ntracks) {
    const byoc__sim_kernel *k = &p->kernels[i];
    for (int e = 0; e < p->nevents; ++e) {
        const byoc__sim_event *ev = &p->events[e];
        if (ev->kernel != i) continue;
        int library = !ev->control && !ev->dev && strcmp(ev->where, "host");
        int tid = byoc__sim_trace_track(t, tracks, ntracks, ev->where, ev->kind, library);
        byoc__buf_printf(t, ",\n{\"name\":");
        byoc__sim_json_string(t, ev->name);
        byoc__buf_printf(t,
                         ",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%.4f,\"dur\":%.4f,"
                         "\"args\":{\"ops\":",
                         ev->kind, 1 + 3 * tid, (k->info.sim_start + ev->start) * 1e6, ev->seconds * 1e6);
        byoc__sim_json_string(t, ev->ops);
        byoc__buf_printf(t, ",\"partition\":");
        byoc__sim_json_string(t, ev->partition);
        byoc__buf_printf(t,
                         ",\"kernel\":%d,\"body\":%d,\"body_kernel\":%d,\"depth\":%d,\"iteration\":%lld,"
                         "\"cycles\":%llu}}",
                         i, ev->body, ev->body_kernel, ev->depth, (long long)ev->iteration,
                         (unsigned long long)ev->cycles);
    }
}

BYOC_SIM_API char *byoc_sim_trace_format(const byoc_sim_program *p, size_t *len) {
    if (!p) return NULL;
    byoc__buf t;
    memset(&t, 0, sizeof t);
    t.alloc = &p->alloc;
    /* tracks: one per device name, then DMA and compute of each simulated device */
    const char *tracks[64];
    int ntracks = 0;
    byoc__buf_printf(&t, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    byoc__buf_printf(
        &t, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"simulated SoC\"}}");
    for (int i = 0; i < p->nkernels; ++i) {
        const byoc__sim_kernel *k = &p->kernels[i];
        const byoc_sim_device *on = NULL;
        const char *dev =
            byoc__sim_kernel_where(p, i, &on); /* the backend's name (a library backend's: host kernels) */
        int tid = byoc__sim_trace_track(&t, tracks, &ntracks, dev, k->info.device_kind,
                                        k->info.exec != BYOC_SIM_EXEC_RUNTIME && strcmp(dev, "host"));
        double us = 1e6;
        byoc__buf_printf(&t, ",\n{\"name\":");
        byoc__sim_json_string(&t, k->info.name);
        byoc__buf_printf(
            &t, ",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%.4f,\"dur\":%.4f,\"args\":{\"ops\":",
            k->info.device_kind, 1 + 3 * tid, k->info.sim_start * us, k->info.sim_seconds * us);
        byoc__sim_json_string(&t, k->info.ops);
        if (k->info.algorithm) { /* "winograd", "written in place" (a concatenation that copies nothing) */
            byoc__buf_printf(&t, ",\"algorithm\":");
            byoc__sim_json_string(&t, k->info.algorithm);
        }
        byoc__buf_printf(&t, ",\"partition\":");
        byoc__sim_json_string(&t, k->info.partition ? k->info.partition : "");
        byoc__buf_printf(&t,
                         ",\"kernel\":%d,\"cycles\":%llu,\"dram_bytes\":%llu,\"macs\":%llu,\"transfer_bytes\":%llu}}",
                         i, (unsigned long long)k->info.cycles, (unsigned long long)k->info.dram_bytes,
                         (unsigned long long)k->info.macs, (unsigned long long)k->info.transfer_bytes);
        if (k->info.exec == BYOC_SIM_EXEC_CONTROL) byoc__sim_trace_bodies(&t, p, i, tracks, &ntracks);
        const byoc_sim_device_program *dp =
            k->info.exec == BYOC_SIM_EXEC_RUNTIME ? byoc__dv_program_of(byoc_module_runtime(p->m, k->function)) : NULL;
        if (!dp) continue;
        double per_cycle = 1.0 / (byoc_sim_device_of(dp)->clock_mhz); /* microseconds */
        for (int c = 0; c < dp->s.ncmds; ++c) {
            const byoc__dv_cmd *cmd = &dp->s.cmds[c];
            int e = cmd->op == BYOC__DV_COMPUTE ? 2 : 1;
            byoc__buf_printf(&t,
                             ",\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%.4f,\"dur\":"
                             "%.4f,\"args\":{\"layer\":",
                             cmd->op == BYOC__DV_LOAD    ? "load"
                             : cmd->op == BYOC__DV_STORE ? "store"
                                                         : "compute",
                             k->info.device_kind, 1 + 3 * tid + e,
                             k->info.sim_start * us + (double)cmd->start * per_cycle, (double)cmd->cycles * per_cycle);
            byoc__sim_json_string(&t, dp->s.layer_names[cmd->layer]);
            byoc__buf_printf(
                &t, ",\"kernel\":%d,\"layer_index\":%d,\"command\":%d,\"tile\":%d,\"cycles\":%llu,\"bytes\":%llu}}", i,
                cmd->layer, c, cmd->tile, (unsigned long long)cmd->cycles,
                (unsigned long long)(cmd->op == BYOC__DV_COMPUTE ? 0 : cmd->bytes));
        }
    }
    byoc__buf_printf(&t, "\n]}\n");
    if (t.oom) {
        byoc__sim_mfree(p, t.data);
        return NULL;
    }
    if (len) *len = t.len;
    return t.data;
}


// [SECTION] sim impl: executable (the container, loading)
#define BYOC__EXE_MAGIC "BYOCEXE"
#define BYOC__EXE_VERSION 1u
#define BYOC__EXE_HEADER 64u
#define BYOC__EXE_ENTRY 32u
#define BYOC__EXE_MAX_SECTIONS 65536u
#define BYOC__EXE_MAX_FIELDS 16
enum {
    BYOC__EXE_META = 1,
    BYOC__EXE_MODULE,
    BYOC__EXE_WEIGHTS,
    BYOC__EXE_PLAN,
    BYOC__EXE_KERNELS,
    BYOC__EXE_BLOB,
    BYOC__EXE_SOURCE_MAP,
    BYOC__EXE_KINDS
};
static const char *const byoc__exe_section_names[BYOC__EXE_KINDS] = {"?",    "meta",    "module", "weights",
                                                                     "plan", "kernels", "blob",   "source map"};

/* ---- writing ---- */
/* one field of a tab-separated line: backslash, tab, newline and CR escaped */
BYOC__SIM_PRIVATE void byoc__exe_field(byoc__dv_writer *w, const char *s, int last) {
    for (; s && *s; ++s) {
        const char *esc = *s == '\\' ? "\\\\" : *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : *s == '\r' ? "\\r" : NULL;
        if (esc) byoc__dv_put(w, esc, 2);
        else byoc__dv_put(w, s, 1);
    }
    byoc__dv_put(w, last ? "\n" : "\t", 1);
}
BYOC__SIM_PRIVATE void byoc__exe_line(byoc__dv_writer *w, int n, const char *const *fields) {
    for (int i = 0; i < n; ++i) byoc__exe_field(w, fields[i], i == n - 1);
}
BYOC__SIM_PRIVATE void byoc__exe_pair(byoc__dv_writer *w, const char *key, const char *value) {
    const char *f[2] = {key, value};
    byoc__exe_line(w, 2, f);
}
BYOC__SIM_PRIVATE void byoc__exe_pair_u64(byoc__dv_writer *w, const char *key, uint64_t v) {
    char num[32];
    snprintf(num, sizeof num, "%llu", (unsigned long long)v);
    byoc__exe_pair(w, key, num);
}

/* the device parameters in target syntax: the blob's compatibility string */
BYOC__SIM_PRIVATE void byoc__exe_target_string(const byoc_sim_device *d, char *out, size_t cap) {
    char dts[200] = "";
    size_t at = 0;
    for (int t = 1; t < BYOC_DTYPE_COUNT && t < 32; ++t)
        if ((d->dtypes >> t) & 1u && at < sizeof dts)
            at += (size_t)snprintf(dts + at, sizeof dts - at, "%s%s", at ? "," : "", byoc_dtype_name((byoc_dtype)t));
    snprintf(out, cap,
             "%s -preset=%s -clock_mhz=%.17g -rows=%d -cols=%d -dataflow=%s -lanes=%d -sram_bytes=%lld "
             "-dram_bytes_per_cycle=%.17g "
             "-dram_latency=%d -burst_bytes=%d -launch_cycles=%d -double_buffer=%d -dtypes=%s",
             byoc__sim_kind_name(d->kind), d->preset, d->clock_mhz, d->rows, d->cols,
             d->dataflow == BYOC_SIM_WEIGHT_STATIONARY ? "ws" : "os", d->lanes, (long long)d->sram_bytes,
             d->dram_bytes_per_cycle, d->dram_latency, d->burst_bytes, d->launch_cycles, d->double_buffer, dts);
}

BYOC__SIM_PRIVATE uint32_t byoc__exe_u32(const unsigned char *at) {
    return (uint32_t)at[0] | ((uint32_t)at[1] << 8) | ((uint32_t)at[2] << 16) | ((uint32_t)at[3] << 24);
}
BYOC__SIM_PRIVATE uint64_t byoc__exe_u64(const unsigned char *at) {
    return (uint64_t)byoc__exe_u32(at) | ((uint64_t)byoc__exe_u32(at + 4) << 32);
}

/* ---- loading ---- */
typedef struct byoc__exe_kv {
    const char *key, *value;
} byoc__exe_kv;

struct byoc_sim_executable {
    byoc_allocator alloc;
    byoc_module *m;
    byoc_sim_program *p;
    char *meta_text, *source_text; /* NUL-terminated copies, parsed in place */
    byoc__exe_kv meta[32];
    int nmeta;
    char **blob_heads;
    byoc_sim_blob_info *blobs;
    int nblobs;
    byoc_sim_source_entry *sources;
    int nsources;
};

BYOC__SIM_PRIVATE void *byoc__exe_malloc(const byoc_sim_executable *e, size_t n) {
    if (!n) n = 1;
    return e->alloc.alloc_fn && e->alloc.free_fn ? e->alloc.alloc_fn(n, e->alloc.user_data) : BYOC_MALLOC(n);
}
BYOC_SIM_API void byoc_sim_executable_free(const byoc_sim_executable *e, void *ptr) {
    if (!ptr) return;
    if (e && e->alloc.alloc_fn && e->alloc.free_fn) e->alloc.free_fn(ptr, e->alloc.user_data);
    else BYOC_FREE(ptr);
}

BYOC_SIM_API void byoc_sim_executable_destroy(byoc_sim_executable *e) {
    if (!e) return;
    byoc_sim_program_destroy(e->p);
    byoc_module_destroy(e->m);
    byoc_sim_executable_free(e, e->meta_text);
    byoc_sim_executable_free(e, e->source_text);
    for (int i = 0; e->blob_heads && i < e->nblobs; ++i) byoc_sim_executable_free(e, e->blob_heads[i]);
    byoc_sim_executable_free(e, e->blob_heads);
    byoc_sim_executable_free(e, e->blobs);
    byoc_sim_executable_free(e, e->sources);
    byoc_sim_executable_free(e, e);
}

/* A copy of a text section, NUL-terminated; NULL (with diag) when it holds a NUL or memory runs out. */
BYOC__SIM_PRIVATE char *byoc__exe_text(byoc_sim_executable *e, const unsigned char *data, size_t len, const char *file,
                                       const char *what, byoc_diag *diag) {
    if (memchr(data, 0, len))
        return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: %s section: a NUL byte in text", file, what),
               (char *)NULL;
    char *t = BYOC__SIM_CAST(char *, byoc__exe_malloc(e, len + 1));
    if (!t) return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "%s: out of memory", file), (char *)NULL;
    memcpy(t, data, len);
    t[len] = 0;
    return t;
}

/* The next line of text at *at: its fields split at tabs and unescaped in place. Returns the field count,
   0 at the end, -1 for a bad escape or too many fields. */
BYOC__SIM_PRIVATE int byoc__exe_next_line(char **at, char **fields) {
    char *s = *at;
    if (!*s) return 0;
    char *end = strchr(s, '\n');
    if (!end) return -1; /* every line ends with a newline */
    *end = 0;
    *at = end + 1;
    int n = 0;
    char *field = s, *out = s;
    for (char *c = s;; ++c) {
        if (*c == '\t' || !*c) {
            int last = !*c;
            *out = 0;
            if (n == BYOC__EXE_MAX_FIELDS) return -1;
            fields[n++] = field;
            if (last) break;
            field = out = c + 1;
            continue;
        }
        if (*c == '\\') {
            char x = c[1];
            *out++ = x == '\\' ? '\\' : x == 't' ? '\t' : x == 'n' ? '\n' : x == 'r' ? '\r' : 0;
            if (!out[-1]) return -1;
            c++;
        } else *out++ = *c;
    }
    return n;
}

BYOC__SIM_PRIVATE int byoc__exe_int(const char *s, long long lo, long long hi, long long *out) {
    char *end;
    if (!*s) return 0;
    long long v = strtoll(s, &end, 10);
    if (*end || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

BYOC_SIM_API const char *byoc_sim_executable_info(const byoc_sim_executable *e, const char *key) {
    for (int i = 0; e && i < e->nmeta; ++i)
        if (!strcmp(e->meta[i].key, key)) return e->meta[i].value;
    return NULL;
}
BYOC_SIM_API byoc_sim_program *byoc_sim_executable_program(const byoc_sim_executable *e) { return e ? e->p : NULL; }
BYOC_SIM_API byoc_module *byoc_sim_executable_module(const byoc_sim_executable *e) { return e ? e->m : NULL; }
BYOC_SIM_API int byoc_sim_executable_blob_count(const byoc_sim_executable *e) { return e ? e->nblobs : 0; }
BYOC_SIM_API const byoc_sim_blob_info *byoc_sim_executable_blob(const byoc_sim_executable *e, int i) {
    return e && i >= 0 && i < e->nblobs ? &e->blobs[i] : NULL;
}
BYOC_SIM_API int byoc_sim_executable_source_count(const byoc_sim_executable *e) { return e ? e->nsources : 0; }
BYOC_SIM_API const byoc_sim_source_entry *byoc_sim_executable_source(const byoc_sim_executable *e, int i) {
    return e && i >= 0 && i < e->nsources ? &e->sources[i] : NULL;
}

/* the stream's inputs and outputs against the partition's (typed) parameters and result, leaf by leaf */
BYOC__SIM_PRIVATE int byoc__exe_signature_matches(const byoc__dv_stream *s, const byoc_node *fn, char *why,
                                                  size_t cap) {
    const byoc_type *result = fn->body ? fn->body->checked_type : NULL;
    int nresults = !result                            ? 0
                   : result->kind == BYOC_TYPE_TENSOR ? 1
                   : result->kind == BYOC_TYPE_TUPLE  ? result->nfields
                                                      : 0;
    if (s->ninputs != fn->nparams || s->noutputs != nresults)
        return snprintf(why, cap, "%d inputs and %d outputs for %d parameters and %d results", s->ninputs, s->noutputs,
                        fn->nparams, nresults),
               0;
    for (int i = 0; i < s->ntensors; ++i) {
        const byoc__dv_tensor *t = &s->tensors[i];
        if (t->kind != BYOC__DV_INPUT && t->kind != BYOC__DV_OUTPUT) continue;
        const byoc_type *want = t->kind == BYOC__DV_INPUT ? fn->params[t->index]->checked_type
                                : result->kind == BYOC_TYPE_TENSOR ? result : result->fields[t->index];
        int same =
            want && want->kind == BYOC_TYPE_TENSOR && want->dtype == (byoc_dtype)t->dtype && want->rank == t->rank;
        for (int a = 0; same && a < t->rank; ++a) same = want->dims[a] == t->dims[a];
        if (!same)
            return snprintf(why, cap, "its %s %d has another type", t->kind == BYOC__DV_INPUT ? "input" : "output",
                            t->index),
                   0;
    }
    return 1;
}

/* a blob section: its compatibility strings checked, its stream loaded and attached to its partition */
BYOC__SIM_PRIVATE byoc_result byoc__exe_load_blob(byoc_sim_executable *e, const unsigned char *data, size_t len,
                                                  const char *file, int index, const byoc_sim_load_options *o,
                                                  byoc_diag *diag) {
    byoc_sim_blob_info *b = &e->blobs[index];
    memset(b, 0, sizeof *b);
    if (len < 4) return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: blob %d: truncated header", file, index);
    uint32_t hl = byoc__exe_u32(data);
    if (hl > len - 4)
        return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: blob %d: header of %u bytes in a section of %zu", file,
                              index, hl, len);
    char *head = byoc__exe_text(e, data + 4, hl, file, "blob", diag);
    if (!head) return diag ? diag->code : BYOC_ERR_CORRUPT;
    e->blob_heads[index] = head;
    char *at = head, *f[BYOC__EXE_MAX_FIELDS];
    int n;
    while ((n = byoc__exe_next_line(&at, f)) > 0) {
        if (n != 2)
            return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: blob %d: a header line is not KEY<tab>VALUE", file,
                                  index);
        const char **slot = !strcmp(f[0], "function")   ? &b->function
                            : !strcmp(f[0], "backend")  ? &b->backend
                            : !strcmp(f[0], "kind")     ? &b->kind
                            : !strcmp(f[0], "format")   ? &b->format
                            : !strcmp(f[0], "producer") ? &b->producer
                            : !strcmp(f[0], "target")   ? &b->target
                                                        : NULL;
        if (slot) *slot = f[1];
    }
    if (n < 0 || !b->function || !b->backend || !b->kind || !b->format || !b->producer || !b->target)
        return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL,
                              "%s: blob %d: its header lacks function, backend, kind, format, producer or target", file,
                              index);
    b->size = len - 4 - hl;
    /* compatibility: the partition, the backend this runtime offers, the blob format, the device */
    byoc_node *fn = byoc_module_function(e->m, b->function);
    const byoc_attr_value *c = fn ? byoc_attrs_get(&fn->attrs, "Compiler") : NULL;
    if (!c || c->kind != BYOC_ATTR_STRING || strcmp(c->s, b->backend))
        return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL,
                              "%s: blob for @%s: the module has no partition @%s for backend '%s'", file, b->function,
                              b->function, b->backend);
    if (byoc_module_runtime(e->m, b->function))
        return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: two blobs for @%s", file, b->function);
    const byoc_sim_runtime_backend *rb = NULL;
    for (int i = 0; o && o->backends && i < o->nbackends && !rb; ++i)
        if (o->backends[i].name && !strcmp(o->backends[i].name, b->backend)) rb = &o->backends[i];
    if (o && o->backends && !rb)
        return byoc__sim_fail(diag, BYOC_ERR_UNSUPPORTED, NULL,
                              "%s: partition @%s needs backend '%s' (%s), which this runtime does not offer", file,
                              b->function, b->backend, b->target);
    if (!byoc__dk_device(byoc_sim_device_kind_find(b->kind))) {
        char kinds[256] = "";
        for (int k = 0; k < byoc_sim_device_kind_count(); ++k)
            if (byoc__dk_device(k))
                snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%s", kinds[0] ? ", " : "",
                         byoc__sim_kind_name(k));
        return byoc__sim_fail(
            diag, BYOC_ERR_UNSUPPORTED, NULL,
            "%s: partition @%s: backend '%s' is of kind '%s', which this runtime cannot run (it runs %s)", file,
            b->function, b->backend, b->kind, kinds);
    }
    if (strcmp(b->format, "BYOCDEV 1") && strcmp(b->format, "BYOCDEV 2") && strcmp(b->format, "BYOCDEV 3"))
        return byoc__sim_fail(
            diag, BYOC_ERR_UNSUPPORTED, NULL,
            "%s: partition @%s: blob format '%s' is not one this runtime reads (BYOCDEV 1 to 3)", file,
            b->function, b->format);
    byoc__dv_runtime *rt = BYOC__SIM_CAST(byoc__dv_runtime *, byoc__dv_zalloc(&e->alloc, 1, sizeof(byoc__dv_runtime)));
    if (!rt) return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "%s: out of memory", file);
    rt->alloc = e->alloc;
    if (!(rt->blob = byoc__dv_zalloc(&e->alloc, b->size, 1))) {
        byoc__dv_runtime_release(rt);
        return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "%s: out of memory", file);
    }
    memcpy(rt->blob, data + 4 + hl, b->size);
    rt->size = b->size;
    byoc_diag local;
    rt->dp = byoc_sim_device_load_with(rt->blob, rt->size, &e->alloc, &local);
    if (!rt->dp) {
        byoc__dv_runtime_release(rt);
        return byoc__sim_fail(diag, local.code, NULL, "%s: partition @%s: %s", file, b->function, local.message);
    }
    char own[512], want[512];
    byoc__exe_target_string(&rt->dp->s.dev, own, sizeof own);
    if (strcmp(own, b->target) || strcmp(byoc__sim_kind_name(rt->dp->s.dev.kind), b->kind)) {
        byoc__dv_runtime_release(rt);
        return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL,
                              "%s: partition @%s: the blob's device (%s) is not its header's kind and target (%s %s)",
                              file, b->function, own, b->kind, b->target);
    }
    if (rb && rb->device) {
        byoc__exe_target_string(rb->device, want, sizeof want);
        if (strcmp(own, want)) {
            byoc__dv_runtime_release(rt);
            return byoc__sim_fail(diag, BYOC_ERR_UNSUPPORTED, NULL,
                                  "%s: partition @%s was compiled for '%s', but this runtime's %s is '%s'", file,
                                  b->function, own, b->backend, want);
        }
    }
    char why[300];
    if (!byoc__exe_signature_matches(&rt->dp->s, fn, why, sizeof why)) {
        byoc__dv_runtime_release(rt);
        return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: the blob for @%s does not fit the partition: %s", file,
                              b->function, why);
    }
    b->program = rt->dp;
    byoc_runtime_module rm;
    memset(&rm, 0, sizeof rm);
    rm.name = byoc_intern(e->m, b->backend);
    rm.run = byoc__dv_runtime_run;
    rm.state = rt;
    rm.release = byoc__dv_runtime_release;
    if (!rm.name) {
        byoc__dv_runtime_release(rt);
        return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "%s: out of memory", file);
    }
    return byoc_module_set_runtime(e->m, b->function, &rm, diag); /* (which releases rt when it fails) */
}

/* kernels of control-flow bodies, nested ones included */
BYOC__SIM_PRIVATE int byoc__exe_body_kernels(const byoc_sim_program *p) {
    int n = 0;
    for (int b = 0; b < p->nbodies; ++b) n += p->bodies[b]->nkernels + byoc__exe_body_kernels(p->bodies[b]);
    return n;
}

/* A "body" line of the kernels section: fields path ("1.0.3": kernel 1's body 0's kernel 3; deeper bodies add
   pairs), exec, device, partition, ops, name; checked against the body programs lowered here. */
BYOC__SIM_PRIVATE byoc_result byoc__exe_check_body_line(const byoc_sim_program *p, char **f, const char *file,
                                                        byoc_diag *diag) {
    const char *at = f[1];
    const byoc_sim_kernel_info *ki = NULL;
    while (p && *at) {
        char *end = NULL;
        long long kernel = strtoll(at, &end, 10), body;
        if (end == at || kernel < 0 || kernel >= p->nkernels) break;
        if (*end == 0) { /* the last number: a kernel of p */
            ki = &p->kernels[kernel].info;
            break;
        }
        if (*end != '.') break;
        at = end + 1;
        body = strtoll(at, &end, 10);
        if (end == at || *end != '.' || body < 0 || body > 1) break;
        at = end + 1;
        p = byoc_sim_kernel_body(p, (int)kernel, (int)body);
    }
    if (!ki)
        return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL,
                              "%s: kernels section: body kernel %s is not a kernel of a body the module lowers to",
                              file, f[1]);
    if (strcmp(f[2], byoc_sim_exec_name(ki->exec)) || strcmp(f[3], ki->device) ||
        strcmp(f[4], ki->partition ? ki->partition : "") || strcmp(f[5], ki->ops) || strcmp(f[6], ki->name))
        return byoc__sim_fail(
            diag, BYOC_ERR_CORRUPT, NULL,
            "%s: body kernel %s was saved as %s %s on %s (%s), but the module lowers to %s %s on %s (%s) here", file,
            f[1], f[2], f[5], f[3], f[6], byoc_sim_exec_name(ki->exec), ki->ops, ki->device, ki->name);
    return BYOC_OK;
}

/* the saved kernel list and memory plan against the program lowered here */
BYOC__SIM_PRIVATE byoc_result byoc__exe_check_program(byoc_sim_executable *e, char *kernels, char *plan,
                                                      const char *file, byoc_diag *diag) {
    const byoc_sim_program *p = e->p;
    char *f[BYOC__EXE_MAX_FIELDS];
    int n, k = 0, b = 0, body_lines = 0;
    while ((n = byoc__exe_next_line(&kernels, f)) > 0) {
        if (n == 7 && !strcmp(f[0], "body")) {
            if (byoc__exe_check_body_line(p, f, file, diag) != BYOC_OK) return diag ? diag->code : BYOC_ERR_CORRUPT;
            body_lines++;
            continue;
        }
        if (n != 6 || strcmp(f[0], "kernel"))
            return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: kernels section: line %d is not a kernel", file,
                                  k + 1);
        if (k >= p->nkernels)
            return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: lists more kernels than its module lowers to (%d)",
                                  file, p->nkernels);
        const byoc_sim_kernel_info *ki = &p->kernels[k].info;
        if (strcmp(f[1], byoc_sim_exec_name(ki->exec)) || strcmp(f[2], ki->device) ||
            strcmp(f[3], ki->partition ? ki->partition : "") || strcmp(f[4], ki->ops) || strcmp(f[5], ki->name))
            return byoc__sim_fail(
                diag, BYOC_ERR_CORRUPT, NULL,
                "%s: kernel %d was saved as %s %s on %s (%s), but the module lowers to %s %s on %s (%s) here", file, k,
                f[1], f[4], f[2], f[5], byoc_sim_exec_name(ki->exec), ki->ops, ki->device, ki->name);
        k++;
    }
    if (n < 0) return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: kernels section: a malformed line", file);
    if (k != p->nkernels)
        return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: %d kernels saved, the module lowers to %d", file, k,
                              p->nkernels);
    if (body_lines != byoc__exe_body_kernels(p))
        return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL,
                              "%s: %d kernels of control-flow bodies saved, the module lowers to %d", file, body_lines,
                              byoc__exe_body_kernels(p));
    const byoc_sim_memory_plan *pl = &p->plan;
    static const char *const summary[6] = {"arena", "lower_bound", "workspace", "tile_scratch", "outputs", "slots"};
    int seen[6] = {0};
    while ((n = byoc__exe_next_line(&plan, f)) > 0) {
        long long v[6];
        if (n == 2) {
            for (int i = 0; i < 6; ++i)
                if (!strcmp(f[0], summary[i]) && seen[i]++)
                    return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: memory plan: %s given twice", file, f[0]);
            uint64_t want = !strcmp(f[0], "arena")          ? pl->arena_bytes
                            : !strcmp(f[0], "lower_bound")  ? pl->lower_bound_bytes
                            : !strcmp(f[0], "workspace")    ? pl->workspace_bytes
                            : !strcmp(f[0], "tile_scratch") ? pl->tile_scratch_bytes
                            : !strcmp(f[0], "outputs")      ? pl->output_bytes
                            : !strcmp(f[0], "slots")        ? (uint64_t)pl->slots
                                                            : UINT64_MAX;
            if (want == UINT64_MAX || !byoc__exe_int(f[1], 0, LLONG_MAX, v) || (uint64_t)v[0] != want)
                return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: memory plan: %s is %s in the file, %llu here",
                                      file, f[0], f[1], (unsigned long long)(want == UINT64_MAX ? 0 : want));
            continue;
        }
        if (n != 7 || strcmp(f[0], "buffer"))
            return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: memory plan: a malformed line", file);
        for (int i = 0; i < 6; ++i)
            if (!byoc__exe_int(f[i + 1], -1, LLONG_MAX, &v[i]))
                return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: memory plan: buffer %d: '%s' is not a number",
                                      file, b, f[i + 1]);
        if (b >= p->nbuffers)
            return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL,
                                  "%s: memory plan: more buffers than the module has (%d)", file, p->nbuffers);
        const byoc__sim_buffer *x = &p->buffers[b];
        int per_run = x->kind == BYOC_SIM_BUFFER_DYNAMIC; /* saved as 0, 0: allocated by each run */
        if (v[0] != (long long)x->kind || (uint64_t)v[1] != (per_run ? 0 : x->offset) ||
            (uint64_t)v[2] != (per_run ? 0 : x->size) ||
            v[3] != x->first || v[4] != x->last || v[5] != x->inplace_of)
            return byoc__sim_fail(
                diag, BYOC_ERR_CORRUPT, NULL,
                "%s: memory plan: buffer %d (kind, offset, bytes, first, last, in place of) is (%lld, %lld, %lld, "
                "%lld, %lld, %lld) in the file, (%d, %llu, %llu, %d, %d, %d) here",
                file, b, v[0], v[1], v[2], v[3], v[4], v[5], (int)x->kind, (unsigned long long)x->offset,
                (unsigned long long)x->size, x->first, x->last, x->inplace_of);
        b++;
    }
    if (n < 0 || b != p->nbuffers)
        return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: memory plan: %d buffers saved, the module has %d",
                              file, b, p->nbuffers);
    for (int i = 0; i < 6; ++i)
        if (!seen[i])
            return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: memory plan: no %s line", file, summary[i]);
    return BYOC_OK;
}

BYOC__SIM_PRIVATE byoc_result byoc__exe_load_source_map(byoc_sim_executable *e, const unsigned char *data, size_t len,
                                                        const char *file, byoc_diag *diag) {
    if (!(e->source_text = byoc__exe_text(e, data, len, file, "source map", diag)))
        return diag ? diag->code : BYOC_ERR_CORRUPT;
    int cap = 0;
    char *at = e->source_text, *f[BYOC__EXE_MAX_FIELDS];
    int n, line = 0, pending = -1; /* a node line's entry, kept when no IR line follows */
    const char *node = NULL, *node_op = NULL;
    while ((n = byoc__exe_next_line(&at, f)) > 0) {
        line++;
        if (line == 1) {
            if (n != 2 || strcmp(f[0], "byoc-source-map") || strcmp(f[1], "1"))
                return byoc__sim_fail(diag, BYOC_ERR_UNSUPPORTED, NULL, "%s: source map: not version 1 of the format",
                                      file);
            continue;
        }
        if (e->nsources == cap) { /* grown as lines are accepted: never more than the lines read */
            if (cap > INT_MAX / 2)
                return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: source map: too many lines", file);
            int ncap = cap ? 2 * cap : 64;
            byoc_sim_source_entry *grown =
                BYOC__SIM_CAST(byoc_sim_source_entry *, byoc__dv_zalloc(&e->alloc, (size_t)ncap, sizeof *grown));
            if (!grown) return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "%s: out of memory", file);
            if (e->nsources) memcpy(grown, e->sources, sizeof *grown * (size_t)e->nsources);
            byoc_sim_executable_free(e, e->sources);
            e->sources = grown;
            cap = ncap;
        }
        if (n == 4 && !strcmp(f[0], "node")) {
            byoc_sim_source_entry *s = &e->sources[e->nsources];
            memset(s, 0, sizeof *s);
            s->frontend = node = f[1];
            s->frontend_op = node_op = f[2];
            s->removed = f[3];
            s->function = s->node = s->op = s->composite = s->partition = s->backend = s->reason = "";
            s->kernel = s->layer = s->command_first = s->command_last = -1;
            pending = e->nsources++;
            continue;
        }
        if (n != 14 || strcmp(f[0], "ir") || !node || strcmp(f[1], node))
            return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL,
                                  "%s: source map line %d: neither a node nor an IR op of the node before it", file,
                                  line);
        long long v[5];
        for (int i = 0; i < 5; ++i)
            if (!byoc__exe_int(f[8 + i], -1, i == 4 ? LLONG_MAX : INT_MAX, &v[i]))
                return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: source map line %d: '%s' is not a number",
                                      file, line, f[8 + i]);
        if (v[0] >= byoc_sim_kernel_count(e->p))
            return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: source map line %d: kernel %lld does not exist",
                                  file, line, v[0]);
        const char *kpart = v[0] >= 0 ? byoc_sim_kernel(e->p, (int)v[0])->partition : NULL;
        int in_body = 0; /* an op of a partition called inside a control kernel's bodies names that kernel */
        for (int b = 0; f[6][0] && v[0] >= 0 && b < byoc_sim_kernel_body_count(e->p, (int)v[0]); ++b)
            in_body |= byoc__sim_runs_partition(byoc_sim_kernel_body(e->p, (int)v[0], b), f[6]);
        if (f[6][0] && v[0] >= 0 && !in_body && (!kpart || strcmp(kpart, f[6])))
            return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL,
                                  "%s: source map line %d: kernel %lld is not partition @%s's", file, line, v[0], f[6]);
        if (!byoc_module_function(e->m, f[2]) || (f[6][0] && !byoc_module_function(e->m, f[6])))
            return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: source map line %d: no function @%s", file, line,
                                  f[6][0] ? f[6] : f[2]);
        const byoc_sim_device_program *dp = f[6][0] ? byoc__dv_program_of(byoc_module_runtime(e->m, f[6])) : NULL;
        if ((v[1] >= 0 || v[2] >= 0 || v[3] >= 0) &&
            (!dp || v[1] < 0 || v[1] >= dp->s.nlayers || v[2] > v[3] || v[2] < 0 || v[3] >= dp->s.ncmds ||
             dp->s.cmds[v[2]].layer != v[1] || dp->s.cmds[v[3]].layer != v[1] ||
             (uint64_t)v[4] != byoc_sim_device_command(dp, (int)v[2]).offset))
            return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL,
                                  "%s: source map line %d: layer %lld, commands %lld to %lld are not in @%s's blob",
                                  file, line, v[1], v[2], v[3], f[6]);
        if (pending >= 0 && e->sources[pending].removed[0])
            return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL,
                                  "%s: source map line %d: IR ops for a node said to be removed", file, line);
        byoc_sim_source_entry *s = pending >= 0 ? &e->sources[pending] : &e->sources[e->nsources++];
        pending = -1;
        memset(s, 0, sizeof *s);
        s->frontend = node;
        s->frontend_op = node_op;
        s->removed = NULL;
        s->function = f[2];
        s->node = f[3];
        s->op = f[4];
        s->composite = f[5];
        s->partition = f[6];
        s->backend = f[7];
        s->kernel = (int)v[0];
        s->layer = (int)v[1];
        s->command_first = (int)v[2];
        s->command_last = (int)v[3];
        s->command_offset = (uint64_t)v[4];
        s->reason = f[13];
    }
    if (n < 0)
        return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: source map line %d: a malformed line", file, line + 1);
    if (line == 0)
        return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, "%s: source map: empty (no 'byoc-source-map 1' line)",
                              file);
    for (int i = 0; i < e->nsources; ++i)
        if (e->sources[i].removed && !e->sources[i].removed[0])
            return byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL,
                                  "%s: source map: node %s has neither IR ops nor a reason for none", file,
                                  e->sources[i].frontend);
    return BYOC_OK;
}

BYOC_SIM_API byoc_sim_executable *byoc_sim_executable_load(const void *bytes, size_t size, const char *name,
                                                           const byoc_sim_load_options *o, byoc_diag *diag) {
    const unsigned char *d = BYOC__SIM_CAST(const unsigned char *, bytes);
    const char *file = name ? name : "<executable>";
    byoc_allocator alloc;
    memset(&alloc, 0, sizeof alloc);
    if (o && o->allocator) alloc = *o->allocator;
    if (!alloc.alloc_fn || !alloc.free_fn) memset(&alloc, 0, sizeof alloc); /* both functions, or the default */
    byoc_sim_executable *e = BYOC__SIM_CAST(
        byoc_sim_executable *, alloc.alloc_fn ? alloc.alloc_fn(sizeof *e, alloc.user_data) : BYOC_MALLOC(sizeof *e));
    if (!e)
        return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "%s: out of memory", file),
               (byoc_sim_executable *)NULL;
    memset(e, 0, sizeof *e);
    e->alloc = alloc;
#define BYOC__EXE_FAIL(...)                                                                     \
    (byoc__sim_fail(diag, BYOC_ERR_CORRUPT, NULL, __VA_ARGS__), byoc_sim_executable_destroy(e), \
     (byoc_sim_executable *)NULL)
    /* the header and the section table */
    if (!d || size < BYOC__EXE_HEADER || memcmp(d, BYOC__EXE_MAGIC, 8))
        return BYOC__EXE_FAIL("%s: not a .byoc executable (bad magic or shorter than its header)", file);
    uint32_t version = byoc__exe_u32(d + 8), nsec = byoc__exe_u32(d + 12);
    if (version != BYOC__EXE_VERSION)
        return byoc__sim_fail(diag, BYOC_ERR_UNSUPPORTED, NULL, "%s: format version %u; this runtime reads version %u",
                              file, version, BYOC__EXE_VERSION),
               byoc_sim_executable_destroy(e), (byoc_sim_executable *)NULL;
    if (byoc__exe_u64(d + 48) != (uint64_t)size)
        return BYOC__EXE_FAIL("%s: truncated or extended: the header says %llu bytes, there are %zu", file,
                              (unsigned long long)byoc__exe_u64(d + 48), size);
    if (nsec > BYOC__EXE_MAX_SECTIONS || (size - BYOC__EXE_HEADER) / BYOC__EXE_ENTRY < nsec)
        return BYOC__EXE_FAIL("%s: %u sections do not fit in %zu bytes", file, nsec, size);
    uint64_t h = byoc__dv_fnv(d, 56) ^ byoc__dv_fnv(d + BYOC__EXE_HEADER, (size_t)nsec * BYOC__EXE_ENTRY);
    if (h != byoc__exe_u64(d + 56)) return BYOC__EXE_FAIL("%s: header checksum mismatch (corrupted)", file);
    if (memchr(d + 16, 0, 32) == NULL || strncmp((const char *)d + 16, "byoc 0.", 7))
        return byoc__sim_fail(diag, BYOC_ERR_UNSUPPORTED, NULL, "%s: written by '%.32s'; this runtime is byoc %s", file,
                              (const char *)d + 16, BYOC_VERSION_STRING),
               byoc_sim_executable_destroy(e), (byoc_sim_executable *)NULL;
    size_t table_end = BYOC__EXE_HEADER + (size_t)nsec * BYOC__EXE_ENTRY;
    int found[BYOC__EXE_KINDS] = {0};
    int first[BYOC__EXE_KINDS];
    for (int k = 0; k < BYOC__EXE_KINDS; ++k) first[k] = -1;
    for (uint32_t i = 0; i < nsec; ++i) {
        const unsigned char *t = d + BYOC__EXE_HEADER + (size_t)i * BYOC__EXE_ENTRY;
        uint32_t kind = byoc__exe_u32(t);
        uint64_t off = byoc__exe_u64(t + 8), len = byoc__exe_u64(t + 16);
        if (kind == 0 || kind >= BYOC__EXE_KINDS)
            return BYOC__EXE_FAIL("%s: section %u: unknown kind %u", file, i, kind);
        if (off < table_end || off > size || len > size - off)
            return BYOC__EXE_FAIL("%s: section %u (%s): %llu bytes at %llu lie outside the file", file, i,
                                  byoc__exe_section_names[kind], (unsigned long long)len, (unsigned long long)off);
        if (byoc__dv_fnv(d + off, (size_t)len) != byoc__exe_u64(t + 24))
            return BYOC__EXE_FAIL("%s: section %u (%s): checksum mismatch (corrupted)", file, i,
                                  byoc__exe_section_names[kind]);
        if (found[kind]++ == 0) first[kind] = (int)i;
    }
    for (int k = BYOC__EXE_META; k < BYOC__EXE_KINDS; ++k)
        if (k != BYOC__EXE_BLOB && (found[k] > 1 || (!found[k] && k != BYOC__EXE_WEIGHTS && k != BYOC__EXE_SOURCE_MAP)))
            return BYOC__EXE_FAIL("%s: %d %s sections (expected %s)", file, found[k], byoc__exe_section_names[k],
                                  k == BYOC__EXE_WEIGHTS || k == BYOC__EXE_SOURCE_MAP ? "at most one" : "one");
#define BYOC__EXE_SEC(K) (d + byoc__exe_u64(d + BYOC__EXE_HEADER + (size_t)first[K] * BYOC__EXE_ENTRY + 8))
#define BYOC__EXE_LEN(K) ((size_t)byoc__exe_u64(d + BYOC__EXE_HEADER + (size_t)first[K] * BYOC__EXE_ENTRY + 16))
    /* meta */
    if (!(e->meta_text =
              byoc__exe_text(e, BYOC__EXE_SEC(BYOC__EXE_META), BYOC__EXE_LEN(BYOC__EXE_META), file, "meta", diag)))
        return byoc_sim_executable_destroy(e), (byoc_sim_executable *)NULL;
    char *at = e->meta_text, *f[BYOC__EXE_MAX_FIELDS];
    int n;
    while ((n = byoc__exe_next_line(&at, f)) > 0) {
        if (n != 2 || e->nmeta == 32)
            return BYOC__EXE_FAIL("%s: meta section: a malformed line, or more than 32", file);
        e->meta[e->nmeta].key = f[0];
        e->meta[e->nmeta++].value = f[1];
    }
    if (n < 0) return BYOC__EXE_FAIL("%s: meta section: a malformed line", file);
    byoc_sim_options so;
    memset(&so, 0, sizeof so);
    so.allocator = e->alloc.alloc_fn ? &e->alloc : NULL; /* the same allocator as the executable's, or none */
    if (o) {
        so.threads = o->threads;
        so.parallel = o->parallel;
    }
    long long v;
    const char *tb = byoc_sim_executable_info(e, "tile_bytes"), *nf = byoc_sim_executable_info(e, "no_fused_tiling"),
               *ni = byoc_sim_executable_info(e, "no_inplace"), *na = byoc_sim_executable_info(e, "no_alias"),
               *host = byoc_sim_executable_info(e, "host");
    if (!tb || !byoc__exe_int(tb, 0, 1LL << 40, &v))
        return BYOC__EXE_FAIL("%s: meta section: tile_bytes missing or out of range", file);
    so.tile_bytes = (size_t)v;
    if (!nf || !byoc__exe_int(nf, 0, 1, &v))
        return BYOC__EXE_FAIL("%s: meta section: no_fused_tiling missing or not 0/1", file);
    so.no_fused_tiling = (int)v;
    if (!ni || !byoc__exe_int(ni, 0, 1, &v))
        return BYOC__EXE_FAIL("%s: meta section: no_inplace missing or not 0/1", file);
    so.no_inplace = (int)v;
    if (!na || !byoc__exe_int(na, 0, 1, &v))
        return BYOC__EXE_FAIL("%s: meta section: no_alias missing or not 0/1", file);
    so.no_alias = (int)v;
    /* an executable saved before kernels could run side by side has no such line: its kernels ran alone */
    const char *sbs = byoc_sim_executable_info(e, "side_by_side");
    if (sbs && !byoc__exe_int(sbs, 0, 1, &v)) return BYOC__EXE_FAIL("%s: meta section: side_by_side not 0/1", file);
    so.side_by_side = sbs ? (int)v : 0;
    if (!host || !(so.host = byoc_sim_preset_find(host)) || so.host->kind != BYOC_SIM_HOST)
        return byoc__sim_fail(diag, BYOC_ERR_UNSUPPORTED, NULL,
                              "%s: host model '%s' is not a host preset of this runtime", file, host ? host : ""),
               byoc_sim_executable_destroy(e), (byoc_sim_executable *)NULL;
    /* the module and its weights */
    byoc_parse_options po;
    memset(&po, 0, sizeof po);
    po.allocator = so.allocator;
    po.require_weights = 1;
    po.weights_name = "weights section";
    if (found[BYOC__EXE_WEIGHTS]) {
        po.weights = BYOC__EXE_SEC(BYOC__EXE_WEIGHTS);
        po.weights_size = BYOC__EXE_LEN(BYOC__EXE_WEIGHTS);
    }
    char module_name[300];
    snprintf(module_name, sizeof module_name, "%s (module section)", file);
    byoc_diag pd;
    e->m = byoc_module_parse((const char *)BYOC__EXE_SEC(BYOC__EXE_MODULE), BYOC__EXE_LEN(BYOC__EXE_MODULE),
                             module_name, &po, &pd);
    if (!e->m)
        return byoc__sim_fail(diag, pd.code, NULL, "%s", pd.message), byoc_sim_executable_destroy(e),
               (byoc_sim_executable *)NULL;
    if (byoc_infer_type(e->m, &pd) != BYOC_OK) /* the partitions' types, for their blobs */
        return byoc__sim_fail(diag, pd.code, NULL, "%s: %s", file, pd.message), byoc_sim_executable_destroy(e),
               (byoc_sim_executable *)NULL;
    /* the blobs */
    e->nblobs = found[BYOC__EXE_BLOB];
    e->blobs = BYOC__SIM_CAST(byoc_sim_blob_info *, byoc__exe_malloc(e, sizeof *e->blobs * (size_t)(e->nblobs + 1)));
    e->blob_heads = BYOC__SIM_CAST(char **, byoc__exe_malloc(e, sizeof(char *) * (size_t)(e->nblobs + 1)));
    if (!e->blobs || !e->blob_heads)
        return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "%s: out of memory", file),
               byoc_sim_executable_destroy(e), (byoc_sim_executable *)NULL;
    memset(e->blob_heads, 0, sizeof(char *) * (size_t)(e->nblobs + 1));
    memset(e->blobs, 0, sizeof *e->blobs * (size_t)(e->nblobs + 1));
    for (uint32_t i = 0, b = 0; i < nsec; ++i) {
        const unsigned char *t = d + BYOC__EXE_HEADER + (size_t)i * BYOC__EXE_ENTRY;
        if (byoc__exe_u32(t) != BYOC__EXE_BLOB) continue;
        if (byoc__exe_load_blob(e, d + byoc__exe_u64(t + 8), (size_t)byoc__exe_u64(t + 16), file, (int)b++, o, diag) !=
            BYOC_OK)
            return byoc_sim_executable_destroy(e), (byoc_sim_executable *)NULL;
    }
    /* lowered again here, checked against the saved kernels and plan */
    if (!(e->p = byoc_sim_lower(e->m, &so, &pd)))
        return byoc__sim_fail(diag, pd.code, NULL, "%s: %s", file, pd.message), byoc_sim_executable_destroy(e),
               (byoc_sim_executable *)NULL;
    char *kernels =
        byoc__exe_text(e, BYOC__EXE_SEC(BYOC__EXE_KERNELS), BYOC__EXE_LEN(BYOC__EXE_KERNELS), file, "kernels", diag);
    char *plan =
        kernels ? byoc__exe_text(e, BYOC__EXE_SEC(BYOC__EXE_PLAN), BYOC__EXE_LEN(BYOC__EXE_PLAN), file, "plan", diag)
                : NULL;
    byoc_result r =
        plan ? byoc__exe_check_program(e, kernels, plan, file, diag) : (diag ? diag->code : BYOC_ERR_CORRUPT);
    byoc_sim_executable_free(e, kernels);
    byoc_sim_executable_free(e, plan);
    if (r == BYOC_OK && found[BYOC__EXE_SOURCE_MAP])
        r = byoc__exe_load_source_map(e, BYOC__EXE_SEC(BYOC__EXE_SOURCE_MAP), BYOC__EXE_LEN(BYOC__EXE_SOURCE_MAP), file,
                                      diag);
    if (r != BYOC_OK) return byoc_sim_executable_destroy(e), (byoc_sim_executable *)NULL;
#undef BYOC__EXE_SEC
#undef BYOC__EXE_LEN
#undef BYOC__EXE_FAIL
    return e;
}

BYOC_SIM_API byoc_sim_executable *byoc_sim_executable_read(const char *path, const byoc_sim_load_options *o,
                                                           byoc_diag *diag) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return byoc__sim_fail(diag, BYOC_ERR_IO, NULL, "%s: cannot open", path), (byoc_sim_executable *)NULL;
    long sz = -1;
    if (fseek(fp, 0, SEEK_END) == 0) sz = ftell(fp);
    byoc_allocator a; /* the file's bytes too come from the caller's allocator */
    memset(&a, 0, sizeof a);
    if (o && o->allocator) a = *o->allocator;
    unsigned char *data = sz >= 0 && fseek(fp, 0, SEEK_SET) == 0
                              ? BYOC__SIM_CAST(unsigned char *, byoc__dv_zalloc(&a, (size_t)sz + 1, 1))
                              : NULL;
    size_t got = data ? fread(data, 1, (size_t)sz, fp) : 0;
    fclose(fp);
    if (!data || got != (size_t)sz) {
        byoc__dv_release(&a, data);
        return byoc__sim_fail(diag, BYOC_ERR_IO, NULL, "%s: cannot read", path), (byoc_sim_executable *)NULL;
    }
    byoc_sim_executable *e = byoc_sim_executable_load(data, got, path, o, diag);
    byoc__dv_release(&a, data);
    return e;
}

BYOC_SIM_API char *byoc_sim_executable_source_map_json(const byoc_sim_executable *e, size_t *len) {
    if (!e) return NULL;
    byoc__buf t;
    memset(&t, 0, sizeof t);
    t.alloc = &e->p->alloc;
    const char *model = byoc_sim_executable_info(e, "model");
    byoc__buf_printf(&t, "{\"format\":\"byoc-source-map\",\"version\":1,\"model\":");
    byoc__sim_json_string(&t, model ? model : "");
    byoc__buf_printf(&t, ",\n\"nodes\":[");
    int nodes = 0;
    for (int i = 0; i < e->nsources;) {
        const byoc_sim_source_entry *s = &e->sources[i];
        byoc__buf_printf(&t, "%s\n{\"frontend\":", nodes++ ? "," : "");
        byoc__sim_json_string(&t, s->frontend);
        byoc__buf_printf(&t, ",\"op\":");
        byoc__sim_json_string(&t, s->frontend_op);
        if (s->removed) {
            byoc__buf_printf(&t, ",\"removed\":");
            byoc__sim_json_string(&t, s->removed);
            byoc__buf_printf(&t, "}");
            i++;
            continue;
        }
        byoc__buf_printf(&t, ",\"ir\":[");
        int j = i;
        for (; j < e->nsources && e->sources[j].frontend == s->frontend && !e->sources[j].removed; ++j) {
            const byoc_sim_source_entry *x = &e->sources[j];
            byoc__buf_printf(&t, "%s{\"function\":", j > i ? "," : "");
            byoc__sim_json_string(&t, x->function);
            byoc__buf_printf(&t, ",\"node\":");
            byoc__sim_json_string(&t, x->node);
            byoc__buf_printf(&t, ",\"op\":");
            byoc__sim_json_string(&t, x->op);
            byoc__buf_printf(&t, ",\"composite\":");
            byoc__sim_json_string(&t, x->composite);
            byoc__buf_printf(&t, ",\"partition\":");
            byoc__sim_json_string(&t, x->partition);
            byoc__buf_printf(&t, ",\"backend\":");
            byoc__sim_json_string(&t, x->backend);
            byoc__buf_printf(
                &t, ",\"kernel\":%d,\"layer\":%d,\"commands\":[%d,%d],\"command_offset\":%llu,\"reason\":", x->kernel,
                x->layer, x->command_first, x->command_last, (unsigned long long)x->command_offset);
            byoc__sim_json_string(&t, x->reason);
            byoc__buf_printf(&t, "}");
        }
        i = j;
        byoc__buf_printf(&t, "]}");
    }
    byoc__buf_printf(&t, "\n],\n\"kernels\":[");
    for (int k = 0; k < e->p->nkernels; ++k) {
        const byoc_sim_kernel_info *ki = &e->p->kernels[k].info;
        byoc__buf_printf(&t, "%s\n{\"kernel\":%d,\"name\":", k ? "," : "", k);
        byoc__sim_json_string(&t, ki->name);
        byoc__buf_printf(&t, ",\"device\":");
        byoc__sim_json_string(&t, ki->device);
        byoc__buf_printf(&t, ",\"frontend\":[");
        int c = 0;
        for (int i = 0; i < e->nsources; ++i) {
            const byoc_sim_source_entry *s = &e->sources[i];
            int seen = 0; /* once per frontend node: its group is contiguous */
            for (int j = i - 1; j >= 0 && e->sources[j].frontend == s->frontend && !seen; --j)
                seen = e->sources[j].kernel == k;
            if (s->removed || s->kernel != k || seen) continue;
            byoc__buf_printf(&t, "%s", c++ ? "," : "");
            byoc__sim_json_string(&t, s->frontend);
        }
        byoc__buf_printf(&t, "]}");
    }
    byoc__buf_printf(&t, "\n]}\n");
    if (t.oom) {
        byoc__sim_mfree(e->p, t.data);
        return NULL;
    }
    if (len) *len = t.len;
    return t.data;
}

/* ======== the compiler: everything below is left out under BYOC_SIM_RUNTIME_ONLY ======== */
#if !defined(BYOC_SIM_RUNTIME_ONLY)
// [SECTION] sim impl (compiler): compiling device programs (estimate, serialise)
BYOC_SIM_API byoc_result byoc_sim_estimate(byoc_module *m, const char *function, const byoc_sim_device *dev,
                                           byoc_sim_cost *cost, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    byoc_node *fn = byoc_module_function(m, function);
    if (!fn) return byoc__sim_fail(diag, BYOC_ERR_NOT_FOUND, NULL, "byoc_sim_estimate: no function @%s", function);
    if (!fn->body->checked_type && byoc_infer_type(m, diag) != BYOC_OK) return diag ? diag->code : BYOC_ERR_TYPE;
    byoc__dv_stream s;
    byoc_result r = byoc__dv_lower(m, fn, dev, 1, &s, diag);
    if (r != BYOC_OK) return r;
    byoc__dv_estimate_stream(&s, cost);
    byoc__dv_stream_free(&s);
    return BYOC_OK;
}

BYOC__SIM_PRIVATE byoc_result byoc__dv_serialise(byoc__dv_stream *s, void **blob, size_t *size, byoc_diag *diag) {
    byoc__dv_writer w;
    memset(&w, 0, sizeof w);
    /* the kernels as text IR: @k0, @k1, ... */
    for (int k = 0; k < s->nkernels; ++k) {
        char name[32];
        snprintf(name, sizeof name, "k%d", k);
        if (byoc_module_add_function(s->km, name, s->kernels[k].fn) != BYOC_OK)
            return byoc__sim_fail(diag, BYOC_ERR_INTERNAL, NULL, "cannot name kernel %d", k);
    }
    size_t text_len = 0;
    char *text = byoc_module_print(s->km, BYOC_PRINT_NO_SPANS, &text_len);
    if (!text) return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
    const byoc_sim_device *d = &s->dev;
    byoc__dv_put(&w, BYOC__DV_MAGIC, 8);
    int operand_slots = BYOC__DV_V2_OPERANDS; /* a stream that fits the format before keeps it, byte for byte */
    for (int i = 0; i < s->ncmds; ++i)
        if (s->cmds[i].noperands > operand_slots) operand_slots = BYOC__DV_MAX_OPERANDS;
    byoc__dv_put_i32(&w, operand_slots > BYOC__DV_V2_OPERANDS ? BYOC__DV_VERSION : 2);
    byoc__dv_put_str(&w, byoc__sim_kind_name(d->kind));
    byoc__dv_put(&w, d->preset, sizeof d->preset);
    byoc__dv_put_f64(&w, d->clock_mhz);
    byoc__dv_put_i32(&w, d->rows);
    byoc__dv_put_i32(&w, d->cols);
    byoc__dv_put_i32(&w, d->dataflow);
    byoc__dv_put_i32(&w, d->lanes);
    byoc__dv_put_u64(&w, (uint64_t)d->sram_bytes);
    byoc__dv_put_f64(&w, d->dram_bytes_per_cycle);
    byoc__dv_put_i32(&w, d->dram_latency);
    byoc__dv_put_i32(&w, d->burst_bytes);
    byoc__dv_put_i32(&w, d->launch_cycles);
    byoc__dv_put_i32(&w, d->double_buffer);
    byoc__dv_put_i32(&w, (int64_t)d->dtypes);
    byoc__dv_put_i32(&w, s->ninputs);
    byoc__dv_put_i32(&w, s->noutputs);
    byoc__dv_put_i32(&w, s->ntensors);
    byoc__dv_put_i32(&w, s->nlayers);
    byoc__dv_put_i32(&w, s->nkernels);
    byoc__dv_put_i32(&w, s->ncmds);
    byoc__dv_put_u64(&w, s->scratch_bytes);
    byoc__dv_put_u64(&w, s->const_bytes);
    byoc__dv_put_u64(&w, text_len);
    for (int i = 0; i < s->ntensors; ++i) {
        const byoc__dv_tensor *t = &s->tensors[i];
        byoc__dv_put_i32(&w, t->kind);
        byoc__dv_put_i32(&w, t->index);
        byoc__dv_put_i32(&w, t->dtype);
        byoc__dv_put_i32(&w, t->rank);
        for (int a = 0; a < BYOC_MAX_RANK; ++a) byoc__dv_put_u64(&w, (uint64_t)(a < t->rank ? t->dims[a] : 0));
        byoc__dv_put_u64(&w, t->offset);
    }
    for (int i = 0; i < s->nlayers; ++i) {
        byoc__dv_put_str(&w, s->layer_names[i]);
        byoc__dv_put_str(&w, s->layer_ops[i]);
    }
    for (int i = 0; i < s->ncmds; ++i) {
        const byoc__dv_cmd *c = &s->cmds[i];
        byoc__dv_put_i32(&w, c->op);
        byoc__dv_put_i32(&w, c->layer);
        byoc__dv_put_i32(&w, c->tile);
        byoc__dv_put_i32(&w, c->kernel);
        byoc__dv_put_i32(&w, c->ndeps);
        for (int k = 0; k < BYOC__DV_MAX_DEPS; ++k) byoc__dv_put_i32(&w, k < c->ndeps ? c->deps[k] : 0);
        byoc__dv_put_i32(&w, c->box.tensor);
        byoc__dv_put_i32(&w, c->box.rank);
        for (int a = 0; a < BYOC_MAX_RANK; ++a) byoc__dv_put_u64(&w, (uint64_t)c->box.begin[a]);
        for (int a = 0; a < BYOC_MAX_RANK; ++a) byoc__dv_put_u64(&w, (uint64_t)c->box.extent[a]);
        byoc__dv_put_u64(&w, (uint64_t)c->sram);
        byoc__dv_put_i32(&w, c->noperands);
        for (int k = 0; k < operand_slots; ++k)
            byoc__dv_put_u64(&w, (uint64_t)(k < c->noperands ? c->operand_sram[k] : 0));
    }
    byoc__dv_put(&w, text, text_len);
    byoc_free(s->km, text);
    byoc__dv_put(&w, s->consts, (size_t)s->const_bytes);
    byoc__dv_put_u64(&w, w.oom ? 0 : byoc__dv_fnv(w.data, w.len));
    if (w.oom) {
        BYOC_FREE(w.data);
        return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
    }
    *blob = w.data;
    *size = w.len;
    return BYOC_OK;
}

BYOC_SIM_API byoc_result byoc_sim_device_compile(byoc_module *m, const char *function, const byoc_sim_device *dev,
                                                 void **blob, size_t *size, byoc_diag *diag) {
    if (blob) *blob = NULL;
    if (size) *size = 0;
    if (!m || !blob || !size) return byoc__null_arg(diag, __func__, !m ? "module" : "output");
    byoc_node *fn = byoc_module_function(m, function);
    if (!fn) return byoc__sim_fail(diag, BYOC_ERR_NOT_FOUND, NULL, "no function @%s", function);
    if (!fn->body->checked_type && byoc_infer_type(m, diag) != BYOC_OK) return diag ? diag->code : BYOC_ERR_TYPE;
    byoc__dv_stream s;
    byoc_result r = byoc__dv_lower(m, fn, dev, 0, &s, diag);
    if (r != BYOC_OK) return r;
    r = byoc__dv_serialise(&s, blob, size, diag);
    byoc__dv_stream_free(&s);
    return r;
}

// [SECTION] sim impl (compiler): backends and their hooks
/* ---- backends ---- */
/* the built-in backends: the device kinds that bring a spec text, in registration order */
BYOC__SIM_PRIVATE const byoc__dk_entry *byoc__dv_builtin(int i) {
    for (int k = 0; k < byoc_sim_device_kind_count(); ++k) {
        const byoc__dk_entry *e = byoc__dk_device(k);
        if (e && e->def.spec_text && i-- == 0) return e;
    }
    return NULL;
}
BYOC_SIM_API int byoc_sim_builtin_backend_count(void) {
    int n = 0;
    while (byoc__dv_builtin(n)) n++;
    return n;
}
BYOC_SIM_API const char *byoc_sim_builtin_backend(int i, const char **spec_text) {
    const byoc__dk_entry *e = byoc__dv_builtin(i);
    if (!e) return NULL;
    if (spec_text) *spec_text = e->def.spec_text;
    return e->def.name;
}

/* A registered device backend: its target kind's options, the device its spec's options give, and the
   streams relay_to_tir made and tir_to_runtime has not taken yet. Entries live for the process (a
   registered backend must outlive its registration). */
#define BYOC__DV_NOPTIONS 13
typedef struct byoc__dv_pending {
    const byoc_module *m;
    char function[128];
    void *blob;
    size_t size;
} byoc__dv_pending;
typedef struct byoc__dv_entry {
    char name[64];
    byoc_sim_device base;
    byoc_backend backend;
    byoc_backend_spec *spec; /* the registry's own copy */
    byoc__dv_pending *pending;
    int npending, cap_pending;
} byoc__dv_entry;
static byoc__dv_entry *byoc__dv_entries[32];
static int byoc__dv_nentries;

static const byoc_target_option byoc__dv_options[BYOC__DV_NOPTIONS] = {
    {"preset", BYOC_ATTR_STRING, "\"\"", "device preset (byocc backends lists them)"},
    {"clock_mhz", BYOC_ATTR_FLOAT, "-1.0", "clock in MHz"},
    {"rows", BYOC_ATTR_INT, "-1", "MAC array rows (npu)"},
    {"cols", BYOC_ATTR_INT, "-1", "MAC array columns (npu)"},
    {"dataflow", BYOC_ATTR_STRING, "\"\"", "\"os\" or \"ws\" (npu)"},
    {"lanes", BYOC_ATTR_INT, "-1", "vector lanes (dsp)"},
    {"sram_kb", BYOC_ATTR_INT, "-1", "on-chip SRAM in KB"},
    {"dram_bytes_per_cycle", BYOC_ATTR_FLOAT, "-1.0", "DRAM bandwidth"},
    {"dram_latency", BYOC_ATTR_INT, "-1", "DRAM latency in cycles"},
    {"burst_bytes", BYOC_ATTR_INT, "-1", "DMA burst"},
    {"launch_cycles", BYOC_ATTR_INT, "-1", "cycles to launch a partition"},
    {"double_buffer", BYOC_ATTR_INT, "-1", "1 double-buffered tiles, 0 single"},
    {"dtypes", BYOC_ATTR_STRING, "\"\"", "dtypes it computes, \"float32,int8\""}};

/* the device a set of options gives (the preset first; unset values, -1 or "", keep the preset's) */
BYOC__SIM_PRIVATE byoc_result byoc__dv_apply_options(byoc_sim_device *dev, const byoc_attrs *a, byoc_diag *diag) {
    const byoc_attr_value *p = byoc_attrs_get(a, "preset");
    if (p && !(p->kind == BYOC_ATTR_STRING && !p->s[0]) && byoc_sim_device_set(dev, "preset", p, diag) != BYOC_OK)
        return diag ? diag->code : BYOC_ERR_ATTR;
    for (int i = 0; i < a->count; ++i) {
        const byoc_attr *x = &a->items[i];
        double num;
        if (!strcmp(x->name, "preset")) continue;
        if (x->value.kind == BYOC_ATTR_STRING && !x->value.s[0]) continue;
        if (byoc__sim_attr_number(&x->value, &num) && num == -1) continue;
        if (byoc_sim_device_set(dev, x->name, &x->value, diag) != BYOC_OK) return diag ? diag->code : BYOC_ERR_ATTR;
    }
    return BYOC_OK;
}

/* the device of the target whose hook runs: the entry's, with the target's options over it */
BYOC__SIM_PRIVATE byoc_result byoc__dv_hook_device(const byoc__dv_entry *e, byoc_sim_device *dev, byoc_diag *diag) {
    *dev = e->base;
    const byoc_target *t = byoc_target_current();
    return t && !strcmp(t->kind, e->name) ? byoc__dv_apply_options(dev, &t->attrs, diag) : BYOC_OK;
}

BYOC__SIM_PRIVATE byoc_result byoc__dv_relay_to_tir(byoc_module *m, const char *function, void *user_data,
                                                    byoc_diag *diag) {
    byoc__dv_entry *e = BYOC__SIM_CAST(byoc__dv_entry *, user_data);
    byoc_sim_device dev;
    byoc_result r = byoc__dv_hook_device(e, &dev, diag);
    if (r != BYOC_OK) return r;
    if (!BYOC__DV_RESERVE(e->pending, e->cap_pending, e->npending + 1))
        return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
    byoc__dv_pending *p = &e->pending[e->npending];
    memset(p, 0, sizeof *p);
    p->m = m;
    snprintf(p->function, sizeof p->function, "%s", function);
    r = byoc_sim_device_compile(m, function, &dev, &p->blob, &p->size, diag);
    if (r != BYOC_OK) {
        char msg[BYOC_DIAG_MESSAGE_MAX];
        snprintf(msg, sizeof msg, "%s", diag ? diag->message : "");
        return byoc__sim_fail(diag, r, NULL, "%s: lowering @%s: %s", e->name, function, msg);
    }
    e->npending++;
    return BYOC_OK;
}

BYOC__SIM_PRIVATE byoc_result byoc__dv_tir_to_runtime(byoc_module *m, const char *function, void *user_data,
                                                      byoc_runtime_module *out, byoc_diag *diag) {
    byoc__dv_entry *e = BYOC__SIM_CAST(byoc__dv_entry *, user_data);
    void *blob = NULL;
    size_t size = 0;
    for (int i = 0; i < e->npending; ++i)
        if (e->pending[i].m == m && !strcmp(e->pending[i].function, function)) {
            blob = e->pending[i].blob;
            size = e->pending[i].size;
            e->pending[i] = e->pending[--e->npending];
            break;
        }
    if (!blob) { /* relay_to_tir did not run (a module built before the hooks were registered): lower now */
        byoc_sim_device dev;
        byoc_result r = byoc__dv_hook_device(e, &dev, diag);
        if (r == BYOC_OK) r = byoc_sim_device_compile(m, function, &dev, &blob, &size, diag);
        if (r != BYOC_OK) return r;
    }
    byoc__dv_runtime *rt = BYOC__SIM_CAST(byoc__dv_runtime *, BYOC_CALLOC(1, sizeof *rt));
    if (!rt) {
        BYOC_FREE(blob);
        return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
    }
    rt->blob = blob;
    rt->size = size;
    rt->dp = byoc_sim_device_load(blob, size, diag);
    if (!rt->dp) {
        byoc__dv_runtime_release(rt);
        return diag ? diag->code : BYOC_ERR_CORRUPT;
    }
    out->name = e->name;
    out->run = byoc__dv_runtime_run;
    out->state = rt;
    out->release = byoc__dv_runtime_release;
    return BYOC_OK;
}

BYOC__SIM_PRIVATE double byoc__dv_estimate_cost(byoc_module *m, const byoc_node *function, const byoc_target *target,
                                                void *user_data) {
    byoc__dv_entry *e = BYOC__SIM_CAST(byoc__dv_entry *, user_data);
    byoc_sim_device dev = e->base;
    if (target && byoc__dv_apply_options(&dev, &target->attrs, NULL) != BYOC_OK) return -1;
    byoc__dv_stream s;
    if (byoc__dv_lower(m, function, &dev, 1, &s, NULL) != BYOC_OK) return -1;
    byoc_sim_cost c;
    byoc__dv_estimate_stream(&s, &c);
    byoc__dv_stream_free(&s);
    return c.seconds;
}

BYOC__SIM_PRIVATE int byoc__dv_predicate(const byoc_node *call, void *user_data, char *reason, size_t cap) {
    return byoc__dv_accepts(BYOC__SIM_CAST(const byoc_sim_device *, user_data), call, reason, cap);
}
/* a composite pattern's veto: the device checks the matched ops, from the root down to the anchor */
BYOC__SIM_PRIVATE int byoc__dv_pattern_check(const byoc_match *match, byoc_node *root, void *user_data) {
    (void)match;
    const byoc_sim_device *dev = BYOC__SIM_CAST(const byoc_sim_device *, user_data);
    char reason[256];
    for (const byoc_node *n = root; n && n->kind == BYOC_NODE_CALL && n->op; n = n->nargs ? n->args[0] : NULL) {
        if (!byoc__dv_accepts(dev, n, reason, sizeof reason)) return 0;
        if (byoc__dv_class(dev->kind, n) != BYOC__DV_ELEMWISE) break;
    }
    return 1;
}

BYOC__SIM_PRIVATE byoc__dv_entry *byoc__dv_register(const char *spec_text, size_t len, const char *file,
                                                    const byoc_sim_device *base, byoc_diag *diag) {
    byoc_backend_spec *spec = byoc_backend_parse(spec_text, len, file, diag);
    if (!spec) return NULL;
    for (int i = 0; i < byoc__dv_nentries; ++i)
        if (!strcmp(byoc__dv_entries[i]->name, spec->name)) { /* opened before: the newest parameters win */
            byoc__dv_entries[i]->base = *base;
            byoc_backend_free(spec);
            return byoc__dv_entries[i];
        }
    if (byoc_backend_get(spec->name) || byoc__dv_nentries == 32 || strlen(spec->name) >= 64) {
        byoc__sim_fail(diag, BYOC_ERR_DUPLICATE, NULL,
                       "backend '%s' is registered already by other code, or too many device backends", spec->name);
        byoc_backend_free(spec);
        return NULL;
    }
    byoc__dv_entry *e = BYOC__SIM_CAST(byoc__dv_entry *, BYOC_CALLOC(1, sizeof *e));
    if (!e) {
        byoc_backend_free(spec);
        byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
        return NULL;
    }
    snprintf(e->name, sizeof e->name, "%s", spec->name);
    e->base = *base;
    e->spec = spec;
    for (int i = 0; i < spec->nsupport; ++i)
        if (!spec->support[i].predicate)
            spec->support[i].predicate = byoc__dv_predicate, spec->support[i].user_data = &e->base;
    for (int i = 0; i < spec->npatterns; ++i)
        if (!spec->patterns[i].check)
            spec->patterns[i].check = byoc__dv_pattern_check, spec->patterns[i].user_data = &e->base;
    e->backend.spec = *spec;
    e->backend.options = byoc__dv_options;
    e->backend.noptions = BYOC__DV_NOPTIONS;
    e->backend.relay_to_tir = byoc__dv_relay_to_tir;
    e->backend.tir_to_runtime = byoc__dv_tir_to_runtime;
    e->backend.estimate_cost = byoc__dv_estimate_cost;
    e->backend.user_data = e;
    if (byoc_backend_register(&e->backend, diag) != BYOC_OK) {
        byoc_backend_free(spec);
        BYOC_FREE(e);
        return NULL;
    }
    byoc__dv_entries[byoc__dv_nentries++] = e;
    return e;
}

/* the error of a backend that names no device kind and is not a library backend, at its kind (or name) */
BYOC__SIM_PRIVATE byoc_result byoc__sim_kind_error(const byoc_backend_spec *spec, byoc_diag *diag) {
    const char *names[BYOC__DK_MAX];
    char kinds[256] = "";
    int n = 0;
    for (int k = 0; k < byoc_sim_device_kind_count(); ++k)
        if (byoc__dk_device(k) && n < BYOC__DK_MAX) {
            names[n] = byoc__sim_kind_name(k);
            snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%s", n ? ", " : "", names[n]);
            n++;
        }
    const char *near = byoc__closest_name(spec->kind, names, n);
    char at[400];
    snprintf(at, sizeof at, "%s:%d:%d", spec->file ? spec->file : "<backend>", spec->kind_line, spec->kind_col);
    if (!spec->kind_given)
        return byoc__sim_fail(
            diag, BYOC_ERR_INVALID_ARGUMENT, NULL,
            "%s: backend '%s' has no way to run its ops: no 'kind' line, and '%s' is not a registered device kind "
            "(kinds: %s%s%s%s); "
            "write 'kind KIND' for a device, or 'kind library' when its ops run on the host through its own kernels",
            at, spec->name, spec->kind, kinds, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    if (byoc_sim_device_kind_find(spec->kind) == BYOC_SIM_HOST)
        return byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL,
                              "%s: kind 'host' is not a registered device kind (kinds: %s); a backend whose ops run on "
                              "the host through its own kernels says 'kind library'",
                              at, kinds);
    return byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL,
                          "%s: kind '%s' is not a registered device kind (kinds: %s%s%s%s)", at, spec->kind, kinds,
                          near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
}

BYOC_SIM_API byoc_sim_backend *byoc_sim_backend_open(const char *text, byoc_diag *diag) {
    char head[1024];
    size_t n = strcspn(text, " \t");
    if (n == 0 || n >= sizeof head)
        return byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL, "backend '%s': expected a name or a .backend file",
                              text),
               (byoc_sim_backend *)NULL;
    memcpy(head, text, n);
    head[n] = 0;
    const char *rest = text + n;
    while (*rest == ' ' || *rest == '\t') rest++;
    const char *builtin = NULL;
    for (int i = 0; i < byoc_sim_builtin_backend_count(); ++i)
        if (!strcmp(head, byoc_sim_builtin_backend(i, NULL))) byoc_sim_builtin_backend(i, &builtin);
    char *file_text = NULL;
    size_t file_len = 0;
    if (!builtin) {
        FILE *f = fopen(head, "rb");
        if (!f) {
            char names[256] = "";
            for (int i = 0; i < byoc_sim_builtin_backend_count(); ++i)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                         byoc_sim_builtin_backend(i, NULL));
            return byoc__sim_fail(diag, BYOC_ERR_IO, NULL,
                                  "backend '%s': not a built-in backend (%s) and no such .backend file", head, names),
                   (byoc_sim_backend *)NULL;
        }
        if (fseek(f, 0, SEEK_END) == 0) {
            long sz = ftell(f);
            if (sz >= 0 && sz < (1L << 24) && fseek(f, 0, SEEK_SET) == 0 &&
                (file_text = BYOC__SIM_CAST(char *, BYOC_MALLOC((size_t)sz + 1))) != NULL) {
                file_len = fread(file_text, 1, (size_t)sz, f);
                file_text[file_len] = 0;
            }
        }
        fclose(f);
        if (!file_text)
            return byoc__sim_fail(diag, BYOC_ERR_IO, NULL, "%s: cannot read (or larger than 16 MB)", head),
                   (byoc_sim_backend *)NULL;
    }
    const char *spec_text = builtin ? builtin : file_text;
    size_t spec_len = builtin ? strlen(builtin) : file_len;
    const char *spec_file = head;
    byoc_sim_backend *b = BYOC__SIM_CAST(byoc_sim_backend *, BYOC_CALLOC(1, sizeof *b));
    if (!b) {
        BYOC_FREE(file_text);
        return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory"), (byoc_sim_backend *)NULL;
    }
    b->spec = byoc_backend_parse(spec_text, spec_len, spec_file, diag);
    /* a backend runs its ops on the device kind its `kind` line names (default: its name), or says `kind library`:
       its partitions run on the host through its own kernels. Anything else cannot run them. */
    const char *kind = b->spec ? (b->spec->kind ? b->spec->kind : b->spec->name) : NULL;
    int kind_index = b->spec && !b->spec->library ? byoc_sim_device_kind_find(kind) : -1;
    int device = byoc__dk_device(kind_index) != NULL;
    byoc_result r = b->spec ? BYOC_OK : (diag ? diag->code : BYOC_ERR_PARSE);
    if (r == BYOC_OK && !strcmp(b->spec->name, "host"))
        r = byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL,
                           "%s:%d:%d: 'host' is reserved for the host and cannot name a backend", b->spec->file,
                           b->spec->kind_line, b->spec->kind_col);
    if (r == BYOC_OK && !device && !b->spec->library) r = byoc__sim_kind_error(b->spec, diag);
    if (r == BYOC_OK && !device && *rest)
        r = byoc__sim_fail(diag, BYOC_ERR_INVALID_ARGUMENT, NULL,
                           "backend '%s' (kind %s) has no device options to set ('%s')", head, kind, rest);
    if (r == BYOC_OK && device) {
        b->device = *byoc__sim_default_preset(kind_index);
        r = byoc__dv_apply_options(&b->device, &b->spec->options, diag);
        if (r == BYOC_OK && b->spec->ndtypes) { /* the backend's one dtype list is the device's */
            unsigned mask = 0;
            for (int i = 0; i < b->spec->ndtypes; ++i) mask |= BYOC__DV_DT(byoc_dtype_from_name(b->spec->dtypes[i]));
            b->device.dtypes = mask;
        }
        if (r != BYOC_OK && diag) {
            char msg[BYOC_DIAG_MESSAGE_MAX];
            snprintf(msg, sizeof msg, "%s", diag->message);
            byoc__sim_fail(diag, r, NULL, "%s: %s", head, msg);
        }
        byoc__dv_entry *e = r == BYOC_OK ? byoc__dv_register(spec_text, spec_len, spec_file, &b->device, diag) : NULL;
        if (r == BYOC_OK && !e) r = diag ? diag->code : BYOC_ERR_INTERNAL;
        if (r == BYOC_OK && e) {
            char target_text[2048];
            snprintf(target_text, sizeof target_text, "%s %s", e->name, rest);
            b->target = byoc_target_parse(target_text, diag);
            if (!b->target) r = diag ? diag->code : BYOC_ERR_ATTR;
        }
        if (r == BYOC_OK) r = byoc__dv_apply_options(&b->device, &b->target->attrs, diag);
        for (int i = 0; r == BYOC_OK && i < b->spec->nsupport; ++i)
            if (!b->spec->support[i].predicate)
                b->spec->support[i].predicate = byoc__dv_predicate, b->spec->support[i].user_data = &b->device;
        for (int i = 0; r == BYOC_OK && i < b->spec->npatterns; ++i)
            if (!b->spec->patterns[i].check)
                b->spec->patterns[i].check = byoc__dv_pattern_check, b->spec->patterns[i].user_data = &b->device;
    }
    BYOC_FREE(file_text);
    if (r != BYOC_OK) {
        byoc_sim_backend_close(b);
        return NULL;
    }
    return b;
}

BYOC_SIM_API void byoc_sim_backend_describe(const byoc_sim_backend *b, char *out, size_t cap) {
    if (!cap) return;
    if (!b || !b->spec) { snprintf(out, cap, "?"); return; }
    if (b->spec->library || !b->target) snprintf(out, cap, "%s (a library backend: host kernels)", b->spec->name);
    else byoc__sim_device_about(b->spec->name, &b->device, out, cap);
}

BYOC_SIM_API void byoc_sim_backend_close(byoc_sim_backend *b) {
    if (!b) return;
    if (b->spec) byoc_backend_free(b->spec);
    if (b->target) byoc_target_free(b->target);
    BYOC_FREE(b);
}

// [SECTION] sim impl (compiler): Collage estimators
/* ---- estimators for the Collage search ---- */
BYOC__SIM_PRIVATE const byoc_sim_device *byoc__sim_collage_device(const byoc_sim_collage_devices *cd,
                                                                  const byoc_collage_candidate *c) {
    for (int i = 0; c->spec && i < cd->count; ++i)
        if (cd->backends[i]->spec == c->spec && byoc__dk_device(cd->backends[i]->device.kind))
            return &cd->backends[i]->device;
    return NULL;
}

BYOC__SIM_PRIVATE uint64_t byoc__sim_type_bytes(const byoc_type *t) {
    if (!t) return 0;
    if (t->kind == BYOC_TYPE_TENSOR) return byoc__dv_elems(t) * (uint64_t)byoc_dtype_size(t->dtype);
    uint64_t n = 0;
    for (int i = 0; t->kind == BYOC_TYPE_TUPLE && i < t->nfields; ++i) n += byoc__sim_type_bytes(t->fields[i]);
    return n;
}

/* The host model on one function as one kernel, as byoc__sim_account prices kernels: a fused elementwise
   chain or an anchor with its epilogue reads its inputs and writes its outputs once; other groups move
   every op's operands. */
BYOC__SIM_PRIVATE double byoc__sim_host_seconds(byoc_module *m, const byoc_sim_device *h, const byoc_node *fn) {
    byoc_graph g;
    if (byoc_graph_build(m, fn->body, 0, &g) != BYOC_OK) return -1;
    double flops = 0, boundary = 0, every = 0;
    int ops = 0, views = 0, anchors = 0, others = 0;
    for (int i = 0; i < g.count; ++i) {
        const byoc_node *x = g.nodes[i].node;
        if (x->kind == BYOC_NODE_VAR || x->kind == BYOC_NODE_CONSTANT) {
            boundary += (double)byoc__sim_type_bytes(x->checked_type);
            continue;
        }
        if (x->kind != BYOC_NODE_CALL || !x->op) continue;
        ops++;
        if (byoc__sim_is_view_op(x->op)) { views++; continue; }
        flops += byoc_op_flops(x);
        int k = x->op->def.pattern;
        anchors += k == BYOC_PATTERN_OUT_ELEMWISE_FUSABLE;
        others += k > BYOC_PATTERN_BROADCAST && k != BYOC_PATTERN_OUT_ELEMWISE_FUSABLE;
        every += (double)byoc__sim_type_bytes(x->checked_type);
        for (int a = 0; a < x->nargs; ++a) every += (double)byoc__sim_type_bytes(x->args[a]->checked_type);
    }
    boundary += (double)byoc__sim_type_bytes(fn->body->checked_type);
    byoc_graph_free(&g);
    if (ops == views) return 0; /* views of their input: no kernel */
    double bytes = anchors <= 1 && !others ? boundary : every;
    double compute = flops / (h->lanes > 0 ? h->lanes : 1),
           memory = bytes / (h->dram_bytes_per_cycle > 0 ? h->dram_bytes_per_cycle : 1);
    return ((double)h->launch_cycles + (compute > memory ? compute : memory)) / (h->clock_mhz * 1e6);
}

BYOC_SIM_API void byoc_sim_collage_devices_release(byoc_sim_collage_devices *cd) {
    if (!cd || !cd->memo) return;
    byoc__map_free(BYOC__SIM_CAST(byoc__map *, cd->memo));
    BYOC_FREE(cd->memo);
    cd->memo = NULL;
}

BYOC_SIM_API double byoc_sim_collage_cost(byoc_module *m, const byoc_collage_candidate *c, void *user_data) {
    if (!m || !c) return -1;
    byoc_sim_collage_devices *cd = (byoc_sim_collage_devices *)user_data;
    const byoc_sim_device *dev = cd ? byoc__sim_collage_device(cd, c) : NULL;
    if (!dev)
        return byoc__sim_host_seconds(m, cd && cd->host ? cd->host : byoc_sim_preset_find("host-a55"), c->function);
    byoc__dv_stream s;
    byoc_diag d;
    if (!cd->memo) cd->memo = BYOC_CALLOC(1, sizeof(byoc__map));
    if (byoc__dv_lower_in(m, c->function, dev, 1, BYOC__SIM_CAST(byoc__map *, cd->memo), &s, &d) != BYOC_OK)
        return -1; /* it cannot run there */
    byoc_sim_cost cost;
    byoc__dv_estimate_stream(&s, &cost);
    byoc__dv_stream_free(&s);
    return cost.seconds;
}

BYOC__SIM_PRIVATE int byoc__sim_double_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

BYOC__SIM_PRIVATE int byoc__sim_cache_lookup(const char *file, uint64_t key, const char *target, double *seconds) {
    FILE *f = file ? fopen(file, "r") : NULL;
    if (!f) return 0;
    char line[512];
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long k;
        char t[400];
        double v;
        if (sscanf(line, "%llx %399s %lf", &k, t, &v) == 3 && k == key && !strcmp(t, target) && v >= 0) {
            *seconds = v;
            found = 1;
        }
    }
    fclose(f);
    return found;
}

/* one run of fn on zero inputs: simulated seconds on dev, or measured seconds on the host kernels */
BYOC__SIM_PRIVATE double byoc__sim_measure_once(byoc_module *m, const byoc_node *fn, const byoc_sim_device *dev) {
    byoc_module *one = byoc_module_create(NULL);
    byoc_diag d;
    double seconds = -1;
    byoc_node *copy = one ? byoc_deep_copy(one, fn) : NULL;
    (void)m;
    if (!copy || byoc_module_add_function(one, "main", copy) != BYOC_OK || byoc_infer_type(one, &d) != BYOC_OK) {
        byoc_module_destroy(one);
        return -1;
    }
    byoc_tensor in[64], out[64];
    void *buffers[64] = {0};
    int nin = copy->nparams <= 64 ? copy->nparams : -1, ok = nin >= 0;
    for (int i = 0; ok && i < nin; ++i) {
        const byoc_type *t = copy->params[i]->checked_type;
        ok = t && t->kind == BYOC_TYPE_TENSOR;
        if (!ok) break;
        size_t bytes = (size_t)byoc__sim_type_bytes(t);
        buffers[i] = BYOC_CALLOC(bytes ? bytes : 1, 1);
        ok = buffers[i] != NULL;
        in[i].dtype = t->dtype;
        in[i].rank = t->rank;
        memcpy(in[i].dims, t->dims, sizeof(int64_t) * (size_t)t->rank);
        in[i].data = buffers[i];
    }
    if (ok && dev) {
        void *blob = NULL;
        size_t size = 0;
        byoc_module_set_function(one, "main", copy); /* the device compiles a global function */
        if (byoc_sim_device_compile(one, "main", dev, &blob, &size, &d) == BYOC_OK) {
            byoc_sim_device_program *dp = byoc_sim_device_load(blob, size, &d);
            const byoc_type *rt = copy->body->checked_type;
            int nout = rt->kind == BYOC_TYPE_TUPLE ? rt->nfields : 1;
            void *outs[64] = {0};
            int ook = dp && nout <= 64;
            for (int o = 0; ook && o < nout; ++o) {
                const byoc_type *t = rt->kind == BYOC_TYPE_TUPLE ? rt->fields[o] : rt;
                size_t bytes = (size_t)byoc__sim_type_bytes(t);
                outs[o] = BYOC_CALLOC(bytes ? bytes : 1, 1);
                ook = outs[o] != NULL && t->kind == BYOC_TYPE_TENSOR;
                if (!ook) break;
                out[o].dtype = t->dtype;
                out[o].rank = t->rank;
                memcpy(out[o].dims, t->dims, sizeof(int64_t) * (size_t)t->rank);
                out[o].data = outs[o];
            }
            byoc_sim_cost cost;
            if (ook && byoc_sim_device_run(dp, in, nin, out, nout, &cost, &d) == BYOC_OK) seconds = cost.seconds;
            for (int o = 0; o < nout && o < 64; ++o) BYOC_FREE(outs[o]);
            byoc_sim_device_program_destroy(dp);
        }
        BYOC_FREE(blob);
    } else if (ok) {
        byoc_sim_program *p = byoc_sim_lower(one, NULL, &d);
        if (p && byoc_sim_run(p, in, nin, NULL, 0, &d) == BYOC_OK) { /* a warm-up run allocates; the next is timed */
            double t0 = BYOC_SIM_CLOCK();
            if (byoc_sim_run(p, in, nin, NULL, 0, &d) == BYOC_OK) seconds = BYOC_SIM_CLOCK() - t0;
        }
        byoc_sim_program_destroy(p);
    }
    for (int i = 0; i < 64; ++i) BYOC_FREE(buffers[i]);
    byoc_module_destroy(one);
    return seconds;
}

BYOC_SIM_API double byoc_sim_collage_measured_cost(byoc_module *m, const byoc_collage_candidate *c, void *user_data) {
    if (!m || !c) return -1;
    byoc_sim_collage_devices *cd = (byoc_sim_collage_devices *)user_data;
    const byoc_sim_device *dev = cd ? byoc__sim_collage_device(cd, c) : NULL;
    char target[400];
    byoc__sim_target_key(dev, target, sizeof target);
    double seconds;
    if (cd && byoc__sim_cache_lookup(cd->cache_file, c->key, target, &seconds)) {
        cd->cache_hits++;
        return seconds;
    }
    int runs = cd && cd->runs > 0 ? cd->runs : 5;
    double samples[64];
    if (runs > 64) runs = 64;
    for (int i = 0; i < runs; ++i) {
        samples[i] = byoc__sim_measure_once(m, c->function, dev);
        if (samples[i] >= 0) continue;
        if (dev) return -1; /* it cannot run there */
        /* the host runs everything, but a candidate alone may not lower as a program (a lone view of its
           input): the host model prices it, so every node keeps a candidate */
        return byoc__sim_host_seconds(m, cd && cd->host ? cd->host : byoc_sim_preset_find("host-a55"), c->function);
    }
    qsort(samples, (size_t)runs, sizeof(double), byoc__sim_double_cmp);
    seconds = samples[runs / 2];
    if (cd) cd->measured++;
    FILE *f = cd && cd->cache_file ? fopen(cd->cache_file, "a") : NULL;
    if (f) {
        fprintf(f, "%016llx %s %.9g\n", (unsigned long long)c->key, target, seconds);
        fclose(f);
    }
    return seconds;
}

// [SECTION] sim impl (compiler): source maps and saving executables
/* ---- the source map, built while saving ---- */
typedef struct byoc__exe_ir {
    int src;                   /* index of its frontend node */
    const byoc_node *n;
    const byoc_node *root_of; /* the function whose result it is (printed unbound), NULL */
    const char *function, *composite, *partition, *backend;
    int kernel, layer, cmd_first, cmd_last;
    uint64_t cmd_offset;
} byoc__exe_ir;

typedef struct byoc__exe_name {
    const char *name, *op, *removed;
} byoc__exe_name;

typedef struct byoc__exe_srcmap {
    byoc_sim_program *p;
    byoc_module *m;
    const byoc_sim_save_options *o;
    int *label;        /* by node id: the printer's number in its global function, -1 */
    int *kernel;       /* by node id: the kernel that runs the op call, -1 */
    byoc__exe_name *names; /* frontend nodes: the given ones, then those only the module names */
    int nnames, cap_names;
    int *order;        /* names' indices sorted by name, for lookups */
    int norder;
    byoc__exe_ir *ir;
    int nir, cap_ir;
    const byoc_placement **by_origin; /* the report's ops sorted by origin */
    int nby_origin;
    int failed;
} byoc__exe_srcmap;

#define BYOC__EXE_RESERVE(arr, cap, need) BYOC__DV_RESERVE(arr, cap, need)

BYOC__SIM_PRIVATE void byoc__exe_label_visit(const byoc_node *n, int number, void *user_data) {
    byoc__exe_srcmap *sm = BYOC__SIM_CAST(byoc__exe_srcmap *, user_data);
    sm->label[n->id] = number;
}

static byoc__exe_srcmap *byoc__exe_sort_ctx;
static int byoc__exe_by_name(const void *a, const void *b) {
    return strcmp(byoc__exe_sort_ctx->names[*(const int *)a].name, byoc__exe_sort_ctx->names[*(const int *)b].name);
}
static int byoc__exe_by_origin(const void *a, const void *b) {
    uint32_t x = (*(const byoc_placement *const *)a)->origin, y = (*(const byoc_placement *const *)b)->origin;
    return x < y ? -1 : x > y;
}
static int byoc__exe_ir_order(const void *a, const void *b) {
    const byoc__exe_ir *x = BYOC__SIM_CAST(const byoc__exe_ir *, a), *y = BYOC__SIM_CAST(const byoc__exe_ir *, b);
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    return x->n->id < y->n->id ? -1 : x->n->id > y->n->id;
}

BYOC__SIM_PRIVATE int byoc__exe_find_name(byoc__exe_srcmap *sm, const char *name) {
    int lo = 0, hi = sm->norder - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(sm->names[sm->order[mid]].name, name);
        if (!c) return sm->order[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
    }
    for (int i = sm->norder; i < sm->nnames; ++i) /* added after the sort */
        if (!strcmp(sm->names[i].name, name)) return i;
    return -1;
}

BYOC__SIM_PRIVATE int byoc__exe_add_name(byoc__exe_srcmap *sm, const char *name, const char *op, const char *removed) {
    if (!BYOC__EXE_RESERVE(sm->names, sm->cap_names, sm->nnames + 1)) return sm->failed = 1, -1;
    sm->names[sm->nnames].name = name;
    sm->names[sm->nnames].op = op ? op : "";
    sm->names[sm->nnames].removed = removed;
    return sm->nnames++;
}

/* the layer of a device program whose name ("onnx:a+onnx:b") holds the frontend name, -1 */
BYOC__SIM_PRIVATE int byoc__exe_layer_of(const byoc_sim_device_program *dp, const char *frontend) {
    size_t n = strlen(frontend);
    for (int l = 0; l < dp->s.nlayers; ++l) {
        const char *at = dp->s.layer_names[l];
        while (at && *at) {
            size_t len = strcspn(at, "+");
            if (len == n && !memcmp(at, frontend, n)) return l;
            at += len;
            if (*at == '+') at++;
        }
    }
    return -1;
}

BYOC__SIM_PRIVATE void byoc__exe_walk(byoc__exe_srcmap *sm, byoc_node *root, const byoc_node *root_fn,
                                      const char *function, const char *composite, const char *partition,
                                      const char *backend, int depth) {
    byoc_graph g;
    if (depth > BYOC__SIM_MAX_DEPTH || byoc_graph_build(sm->m, root, 0, &g) != BYOC_OK) {
        sm->failed = 1;
        return;
    }
    const byoc_runtime_module *rm = partition ? byoc_module_runtime(sm->m, partition) : NULL;
    const byoc_sim_device_program *dp = byoc__dv_program_of(rm);
    int partition_kernel = -1;
    for (int k = 0; partition && k < sm->p->nkernels && partition_kernel < 0; ++k) {
        const byoc__sim_kernel *kk = &sm->p->kernels[k];
        if (kk->function && !strcmp(kk->function, partition)) partition_kernel = k;
        for (int b = 0; b < kk->nbodies && partition_kernel < 0; ++b) /* called inside an if or a loop */
            if (byoc__sim_runs_partition(sm->p->bodies[kk->body_first + b], partition)) partition_kernel = k;
    }
    for (int i = 0; i < g.count && !sm->failed; ++i) {
        byoc_node *n = g.nodes[i].node;
        if (n->kind == BYOC_NODE_IF || n->kind == BYOC_NODE_LET || n->kind == BYOC_NODE_LOOP) {
            for (int b = 0; b < n->nparams; ++b) /* the ops of bodies, which a dataflow graph leaves out */
                byoc__exe_walk(sm, n->params[b]->body, n->params[b], function, composite, partition, backend,
                               depth + 1);
            continue;
        }
        if (n->kind == BYOC_NODE_FUNCTION && n != root) {
            const byoc_attr_value *c = byoc_attrs_get(&n->attrs, "Composite");
            byoc__exe_walk(sm, n->body, n, function, c && c->kind == BYOC_ATTR_STRING ? c->s : composite, partition,
                           backend, depth + 1);
            continue;
        }
        if (n->kind != BYOC_NODE_CALL || !n->op) continue;
        const byoc_span *span = byoc_node_span(n);
        const char *src = span->source;
        if (!src && span->file) { /* a module read from text: its position there names it */
            char where[512];
            snprintf(where, sizeof where, "%s:%d:%d", span->file, span->line, span->col);
            src = byoc_intern(sm->m, where);
        }
        if (!src) continue;
        int s = byoc__exe_find_name(sm, src);
        if (s < 0) s = byoc__exe_add_name(sm, src, NULL, NULL);
        if (s < 0 || !BYOC__EXE_RESERVE(sm->ir, sm->cap_ir, sm->nir + 1)) {
            sm->failed = 1;
            break;
        }
        byoc__exe_ir *e = &sm->ir[sm->nir++];
        memset(e, 0, sizeof *e);
        e->src = s;
        e->n = n;
        e->root_of = n == root ? root_fn : NULL;
        e->function = function;
        e->composite = composite;
        e->partition = partition;
        e->backend = backend;
        e->kernel = rm ? partition_kernel : sm->kernel[n->id];
        e->layer = e->cmd_first = e->cmd_last = -1;
        if (dp && (e->layer = byoc__exe_layer_of(dp, src)) >= 0)
            for (int c = 0; c < dp->s.ncmds; ++c)
                if (dp->s.cmds[c].layer == e->layer) {
                    if (e->cmd_first < 0) e->cmd_first = c, e->cmd_offset = byoc_sim_device_command(dp, c).offset;
                    e->cmd_last = c;
                }
    }
    byoc_graph_free(&g);
}

/* why an op of a placement report runs where it does (the source map's and the HTML report's words) */
BYOC__SIM_PRIVATE void byoc__placement_reason(const byoc_placement *pl, const char *strategy, char *out, size_t cap) {
    size_t at = 0;
    out[0] = 0;
    if (!strcmp(strategy ? strategy : "greedy", "collage"))
        at += (size_t)snprintf(out + at, cap - at, "the Collage search's cheapest plan puts it on %s", pl->backend);
    else if (strcmp(pl->backend, "host")) at += (size_t)snprintf(out + at, cap - at, "%s takes it", pl->backend);
    else
        at += (size_t)snprintf(out + at, cap - at, "%s",
                               pl->ndeclined ? "no backend takes it" : "no backend was offered: the host runs it");
    if (at < cap && pl->composite) at += (size_t)snprintf(out + at, cap - at, " (pattern %s)", pl->composite);
    else if (at < cap && strcmp(pl->backend, "host")) at += (size_t)snprintf(out + at, cap - at, " (op support)");
    for (int d = 0; d < pl->ndeclined && at < cap; ++d)
        at += (size_t)snprintf(out + at, cap - at, "%s%s declined it: %s",
                               d                             ? "; "
                               : strcmp(pl->backend, "host") ? "; first "
                                                             : ": ",
                               pl->declined[d].backend, pl->declined[d].reason);
}

/* why the op runs where it does, from the placement report */
BYOC__SIM_PRIVATE void byoc__exe_reason(const byoc__exe_srcmap *sm, const byoc__exe_ir *e, char *out, size_t cap) {
    out[0] = 0;
    if (!sm->nby_origin) return;
    uint32_t origin = byoc_node_origin(e->n);
    int lo = 0, hi = sm->nby_origin - 1;
    const byoc_placement *pl = NULL;
    while (lo <= hi && !pl) {
        int mid = (lo + hi) / 2;
        if (sm->by_origin[mid]->origin == origin) pl = sm->by_origin[mid];
        else if (sm->by_origin[mid]->origin < origin) lo = mid + 1;
        else hi = mid - 1;
    }
    if (!pl) snprintf(out, cap, "not in the placement: made by a pass after partitioning");
    else byoc__placement_reason(pl, sm->o ? sm->o->strategy : NULL, out, cap);
}

/* every op call a body program (and the bodies inside it) runs, mapped to the top-level kernel k */
BYOC__SIM_PRIVATE void byoc__exe_mark_body(byoc__exe_srcmap *sm, const byoc_sim_program *body, int k, uint32_t ids) {
    for (int s = 0; s < body->nsteps; ++s)
        if (body->steps[s].call && body->steps[s].call->id < ids) sm->kernel[body->steps[s].call->id] = k;
    for (int b = 0; b < body->nbodies; ++b) byoc__exe_mark_body(sm, body->bodies[b], k, ids);
}

BYOC__SIM_PRIVATE byoc_result byoc__exe_source_map(byoc_sim_program *p, const byoc_sim_save_options *o,
                                                   byoc__dv_writer *w, byoc_diag *diag) {
    byoc__exe_srcmap sm;
    memset(&sm, 0, sizeof sm);
    sm.p = p;
    sm.m = p->m;
    sm.o = o;
    uint32_t ids = byoc_module_node_count(sm.m) + 1;
    sm.label = BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * ids));
    sm.kernel = BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * ids));
    if (!sm.label || !sm.kernel) sm.failed = 1;
    for (uint32_t i = 0; !sm.failed && i < ids; ++i) sm.label[i] = sm.kernel[i] = -1;
    for (int k = 0; !sm.failed && k < p->nkernels; ++k) {
        for (int s = p->kernels[k].step_first; s < p->kernels[k].step_first + p->kernels[k].nsteps; ++s)
            if (p->steps[s].call && p->steps[s].call->id < ids) sm.kernel[p->steps[s].call->id] = k;
        for (int b = 0; b < p->kernels[k].nbodies; ++b) /* ops inside bodies: the control kernel that runs them */
            byoc__exe_mark_body(&sm, p->bodies[p->kernels[k].body_first + b], k, ids);
    }
    for (int i = 0; o && !sm.failed && i < o->nsource_nodes; ++i)
        byoc__exe_add_name(&sm, o->source_nodes[i].name ? o->source_nodes[i].name : "", o->source_nodes[i].op,
                           o->source_nodes[i].removed);
    sm.order = sm.nnames ? BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * (size_t)sm.nnames)) : NULL;
    if (sm.nnames && !sm.order) sm.failed = 1;
    for (int i = 0; !sm.failed && i < sm.nnames; ++i) sm.order[i] = i;
    sm.norder = sm.order ? sm.nnames : 0;
    byoc__exe_sort_ctx = &sm;
    if (sm.norder) qsort(sm.order, (size_t)sm.norder, sizeof(int), byoc__exe_by_name);
    if (o && o->placement && o->placement->count > 0) {
        sm.by_origin =
            BYOC__SIM_CAST(const byoc_placement **, BYOC_MALLOC(sizeof(void *) * (size_t)o->placement->count));
        if (!sm.by_origin) sm.failed = 1;
        for (int i = 0; !sm.failed && i < o->placement->count; ++i) sm.by_origin[i] = &o->placement->nodes[i];
        if (!sm.failed) {
            sm.nby_origin = o->placement->count;
            qsort((void *)sm.by_origin, (size_t)sm.nby_origin, sizeof(void *), byoc__exe_by_origin);
        }
    }
    /* every op of every global function, with its function, composite and partition */
    for (int f = 0; !sm.failed && f < byoc_module_function_count(sm.m); ++f) {
        byoc_global_function gf = byoc_module_function_at(sm.m, f);
        const byoc_attr_value *c = byoc_attrs_get(&gf.function->attrs, "Compiler");
        const char *compiler = c && c->kind == BYOC_ATTR_STRING ? c->s : NULL;
        if (byoc_function_labels(sm.m, gf.function, byoc__exe_label_visit, &sm) != BYOC_OK) sm.failed = 1;
        else
            byoc__exe_walk(&sm, gf.function->body, gf.function, gf.name, NULL, compiler ? gf.name : NULL,
                           compiler ? compiler : "host", 0);
    }
    if (sm.nir) qsort(sm.ir, (size_t)sm.nir, sizeof *sm.ir, byoc__exe_ir_order);
    /* each frontend node once, followed by its IR ops */
    int at = 0;
    for (int s = 0; !sm.failed && s < sm.nnames; ++s) {
        int first = at;
        while (at < sm.nir && sm.ir[at].src == s) at++;
        const char *removed = at > first            ? ""
                              : sm.names[s].removed ? sm.names[s].removed
                                                    : "no IR node carries it after compilation";
        const char *node[4] = {"node", sm.names[s].name, sm.names[s].op, removed};
        byoc__exe_line(w, 4, node);
        for (int i = first; i < at; ++i) {
            const byoc__exe_ir *e = &sm.ir[i];
            char label[32], kernel[16], layer[16], cf[16], cl[16], off[32], reason[1024];
            if (sm.label[e->n->id] >= 0) snprintf(label, sizeof label, "%%%d", sm.label[e->n->id]);
            else if (e->root_of && e->root_of->kind == BYOC_NODE_FUNCTION && sm.label[e->root_of->id] >= 0)
                snprintf(label, sizeof label, "result of %%%d", sm.label[e->root_of->id]);
            else if (e->root_of) snprintf(label, sizeof label, "result");
            else snprintf(label, sizeof label, "#%u", (unsigned)e->n->id);
            snprintf(kernel, sizeof kernel, "%d", e->kernel);
            snprintf(layer, sizeof layer, "%d", e->layer);
            snprintf(cf, sizeof cf, "%d", e->cmd_first);
            snprintf(cl, sizeof cl, "%d", e->cmd_last);
            snprintf(off, sizeof off, "%llu", (unsigned long long)e->cmd_offset);
            byoc__exe_reason(&sm, e, reason, sizeof reason);
            const char *ir[14] = {"ir",
                                  sm.names[s].name,
                                  e->function,
                                  label,
                                  e->n->op->def.name,
                                  e->composite ? e->composite : "",
                                  e->partition ? e->partition : "",
                                  e->backend,
                                  kernel,
                                  layer,
                                  cf,
                                  cl,
                                  off,
                                  reason};
            byoc__exe_line(w, 14, ir);
        }
    }
    BYOC_FREE(sm.label);
    BYOC_FREE(sm.kernel);
    BYOC_FREE(sm.names);
    BYOC_FREE(sm.order);
    BYOC_FREE(sm.ir);
    BYOC_FREE((void *)sm.by_origin);
    if (sm.failed || w->oom) return byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "source map: out of memory");
    return BYOC_OK;
}

/* ---- saving ---- */
typedef struct byoc__exe_out_section {
    uint32_t kind;
    byoc__dv_writer w;
} byoc__exe_out_section;

BYOC__SIM_PRIVATE void byoc__exe_put_u32_at(unsigned char *at, uint32_t v) {
    for (int i = 0; i < 4; ++i) at[i] = (unsigned char)(v >> (8 * i));
}
BYOC__SIM_PRIVATE void byoc__exe_put_u64_at(unsigned char *at, uint64_t v) {
    for (int i = 0; i < 8; ++i) at[i] = (unsigned char)(v >> (8 * i));
}

/* the kernels of every control-flow body, as "body" lines after the kernel lines (byoc__exe_check_body_line) */
BYOC__SIM_PRIVATE void byoc__exe_body_lines(byoc__dv_writer *w, const byoc_sim_program *p, const char *path) {
    for (int k = 0; k < p->nkernels; ++k)
        for (int b = 0; b < byoc_sim_kernel_body_count(p, k); ++b) {
            const byoc_sim_program *sub = byoc_sim_kernel_body(p, k, b);
            char here[96];
            snprintf(here, sizeof here, "%s%d.%d.", path, k, b);
            for (int j = 0; j < sub->nkernels; ++j) {
                const byoc_sim_kernel_info *ki = &sub->kernels[j].info;
                char at[112];
                snprintf(at, sizeof at, "%s%d", here, j);
                const char *line[7] = {"body", at, byoc_sim_exec_name(ki->exec), ki->device,
                                       ki->partition ? ki->partition : "", ki->ops, ki->name};
                byoc__exe_line(w, 7, line);
            }
            byoc__exe_body_lines(w, sub, here);
        }
}

BYOC_SIM_API byoc_result byoc_sim_executable_save(byoc_sim_program *p, const byoc_sim_save_options *o, void **bytes,
                                                  size_t *size, byoc_diag *diag) {
    if (bytes) *bytes = NULL;
    if (size) *size = 0;
    if (!p || !bytes || !size) return byoc__null_arg(diag, __func__, !p ? "program" : "output");
    byoc_module *m = p->m;
    byoc__exe_out_section *sec = NULL;
    int nsec = 0, cap_sec = 0, lost = 0; /* lost: a section could not be made (out of memory) */
    byoc_result r = BYOC_OK;
#define BYOC__EXE_NEW_SECTION(K)                                                           \
    (BYOC__DV_RESERVE(sec, cap_sec, nsec + 1)                                              \
         ? (memset(&sec[nsec], 0, sizeof sec[nsec]), sec[nsec].kind = (K), &sec[nsec++].w) \
         : (lost = 1, (byoc__dv_writer *)NULL))
    /* meta */
    byoc__dv_writer *w = BYOC__EXE_NEW_SECTION(BYOC__EXE_META);
    if (w) {
        byoc__exe_pair_u64(w, "format", BYOC__EXE_VERSION);
        byoc__exe_pair(w, "library", "byoc " BYOC_VERSION_STRING ", byoc_sim " BYOC_SIM_VERSION_STRING);
        byoc__exe_pair(w, "model", o && o->model ? o->model : "");
        byoc__exe_pair(w, "strategy", o && o->strategy ? o->strategy : "");
        byoc__exe_pair(w, "host", p->host.preset);
        byoc__exe_pair_u64(w, "tile_bytes", p->opt.tile_bytes);
        byoc__exe_pair_u64(w, "no_fused_tiling", (uint64_t)p->opt.no_fused_tiling);
        byoc__exe_pair_u64(w, "no_inplace", (uint64_t)p->opt.no_inplace);
        byoc__exe_pair_u64(w, "no_alias", (uint64_t)p->opt.no_alias);
        byoc__exe_pair_u64(w, "side_by_side", (uint64_t)p->opt.side_by_side);
        for (int io = 0; io < 2 && o; ++io) { /* the names, one per line in the value */
            int n = io ? o->noutputs : o->ninputs;
            const char *const *names = io ? o->output_names : o->input_names;
            byoc__dv_writer joined;
            memset(&joined, 0, sizeof joined);
            for (int i = 0; names && i < n; ++i) {
                if (i) byoc__dv_put(&joined, "\n", 1);
                byoc__dv_put(&joined, names[i] ? names[i] : "", names[i] ? strlen(names[i]) : 0);
            }
            byoc__dv_put(&joined, "", 1);
            if (joined.oom) w->oom = 1;
            else if (names && n > 0) byoc__exe_pair(w, io ? "outputs" : "inputs", (const char *)joined.data);
            BYOC_FREE(joined.data);
        }
    }
    /* the host program and its weights */
    size_t text_len = 0, weights_len = 0;
    char *text = byoc_module_print(m, 0, &text_len);
    void *weights = byoc_module_weights_serialize(m, &weights_len);
    if (text && (w = BYOC__EXE_NEW_SECTION(BYOC__EXE_MODULE)) != NULL) byoc__dv_put(w, text, text_len);
    if (weights && (w = BYOC__EXE_NEW_SECTION(BYOC__EXE_WEIGHTS)) != NULL) byoc__dv_put(w, weights, weights_len);
    if (!text || !weights) r = byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
    byoc_free(m, text);
    byoc_free(m, weights);
    /* the memory plan and the kernels, checked against a fresh lowering when loaded */
    if (r == BYOC_OK && (w = BYOC__EXE_NEW_SECTION(BYOC__EXE_PLAN)) != NULL) {
        const byoc_sim_memory_plan *pl = &p->plan;
        byoc__exe_pair_u64(w, "arena", pl->arena_bytes);
        byoc__exe_pair_u64(w, "lower_bound", pl->lower_bound_bytes);
        byoc__exe_pair_u64(w, "workspace", pl->workspace_bytes);
        byoc__exe_pair_u64(w, "tile_scratch", pl->tile_scratch_bytes);
        byoc__exe_pair_u64(w, "outputs", pl->output_bytes);
        byoc__exe_pair_u64(w, "slots", (uint64_t)pl->slots);
        for (int b = 0; b < p->nbuffers; ++b) {
            const byoc__sim_buffer *x = &p->buffers[b];
            char f[6][24];
            snprintf(f[0], sizeof f[0], "%d", (int)x->kind);
            int per_run = x->kind == BYOC_SIM_BUFFER_DYNAMIC; /* no place in the plan: each run allocates it */
            snprintf(f[1], sizeof f[1], "%llu", per_run ? 0ull : (unsigned long long)x->offset);
            snprintf(f[2], sizeof f[2], "%llu", per_run ? 0ull : (unsigned long long)x->size);
            snprintf(f[3], sizeof f[3], "%d", x->first);
            snprintf(f[4], sizeof f[4], "%d", x->last);
            snprintf(f[5], sizeof f[5], "%d", x->inplace_of);
            const char *line[7] = {"buffer", f[0], f[1], f[2], f[3], f[4], f[5]};
            byoc__exe_line(w, 7, line);
        }
    }
    if (r == BYOC_OK && (w = BYOC__EXE_NEW_SECTION(BYOC__EXE_KERNELS)) != NULL)
        for (int k = 0; k < p->nkernels; ++k) {
            const byoc_sim_kernel_info *ki = &p->kernels[k].info;
            const char *line[6] = {"kernel", byoc_sim_exec_name(ki->exec), ki->device,
                                   ki->partition ? ki->partition : "", ki->ops, ki->name};
            byoc__exe_line(w, 6, line);
            if (k == p->nkernels - 1) byoc__exe_body_lines(w, p, ""); /* then the kernels of bodies */
        }
    /* one blob per partition with a runtime module */
    for (int f = 0; r == BYOC_OK && f < byoc_module_function_count(m); ++f) {
        byoc_global_function gf = byoc_module_function_at(m, f);
        const byoc_runtime_module *rm = byoc_module_runtime(m, gf.name);
        if (!rm) continue;
        const byoc__dv_runtime *rt = byoc__dv_runtime_of(rm);
        if (!rt) {
            r = byoc__sim_fail(
                diag, BYOC_ERR_UNSUPPORTED, NULL,
                "partition @%s: its runtime module ('%s') is not a simulated device's: it cannot be saved", gf.name,
                rm->name ? rm->name : "?");
            break;
        }
        const byoc_attr_value *c = byoc_attrs_get(&gf.function->attrs, "Compiler");
        char target[512];
        byoc__exe_target_string(&rt->dp->s.dev, target, sizeof target);
        byoc__dv_writer head;
        memset(&head, 0, sizeof head);
        byoc__exe_pair(&head, "function", gf.name);
        byoc__exe_pair(&head, "backend", c && c->kind == BYOC_ATTR_STRING ? c->s : "");
        byoc__exe_pair(&head, "kind", byoc__sim_kind_name(rt->dp->s.dev.kind));
        byoc__exe_pair(&head, "format", rt->size > 12 && ((const unsigned char *)rt->blob)[8] >= 3 ? "BYOCDEV 3"
                                                                                                 : "BYOCDEV 2");
        byoc__exe_pair(&head, "producer", "byoc_sim " BYOC_SIM_VERSION_STRING);
        byoc__exe_pair(&head, "target", target);
        if ((w = BYOC__EXE_NEW_SECTION(BYOC__EXE_BLOB)) != NULL && !head.oom) {
            byoc__dv_put_i32(w, (int64_t)head.len);
            byoc__dv_put(w, head.data, head.len);
            byoc__dv_put(w, rt->blob, rt->size);
        } else r = byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
        BYOC_FREE(head.data);
    }
    if (r == BYOC_OK && (w = BYOC__EXE_NEW_SECTION(BYOC__EXE_SOURCE_MAP)) != NULL) {
        byoc__exe_pair_u64(w, "byoc-source-map", 1);
        r = byoc__exe_source_map(p, o, w, diag);
    }
    /* header, section table, sections */
    size_t total = BYOC__EXE_HEADER + (size_t)nsec * BYOC__EXE_ENTRY;
    for (int i = 0; r == BYOC_OK && i < nsec; ++i) {
        if (sec[i].w.oom) r = byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
        total += sec[i].w.len;
    }
    if (r == BYOC_OK && lost) r = byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
    unsigned char *out = r == BYOC_OK ? BYOC__SIM_CAST(unsigned char *, BYOC_CALLOC(1, total)) : NULL;
    if (r == BYOC_OK && !out) r = byoc__sim_fail(diag, BYOC_ERR_OUT_OF_MEMORY, NULL, "out of memory");
    if (r == BYOC_OK) {
        memcpy(out, BYOC__EXE_MAGIC, 8);
        byoc__exe_put_u32_at(out + 8, BYOC__EXE_VERSION);
        byoc__exe_put_u32_at(out + 12, (uint32_t)nsec);
        snprintf((char *)out + 16, 32, "byoc %s", BYOC_VERSION_STRING);
        byoc__exe_put_u64_at(out + 48, (uint64_t)total);
        size_t at = BYOC__EXE_HEADER + (size_t)nsec * BYOC__EXE_ENTRY;
        for (int i = 0; i < nsec; ++i) {
            unsigned char *e = out + BYOC__EXE_HEADER + (size_t)i * BYOC__EXE_ENTRY;
            byoc__exe_put_u32_at(e, sec[i].kind);
            byoc__exe_put_u64_at(e + 8, (uint64_t)at);
            byoc__exe_put_u64_at(e + 16, (uint64_t)sec[i].w.len);
            byoc__exe_put_u64_at(e + 24, byoc__dv_fnv(sec[i].w.data, sec[i].w.len));
            if (sec[i].w.len) memcpy(out + at, sec[i].w.data, sec[i].w.len);
            at += sec[i].w.len;
        }
        /* the header's checksum covers its first 56 bytes and the table */
        uint64_t h = byoc__dv_fnv(out, 56) ^ byoc__dv_fnv(out + BYOC__EXE_HEADER, (size_t)nsec * BYOC__EXE_ENTRY);
        byoc__exe_put_u64_at(out + 56, h);
        *bytes = out;
        *size = total;
    }
    for (int i = 0; i < nsec; ++i) BYOC_FREE(sec[i].w.data);
    BYOC_FREE(sec);
#undef BYOC__EXE_NEW_SECTION
    return r;
}
// [SECTION] sim impl (compiler): report (the HTML page)
/* One pass that appends to a buffer. Strings from model files go through byoc__rep_text wherever they land (text
   or attribute), so the page's structure never depends on them. Each static piece of CSS and script is a literal
   of its own (C99 guarantees 4095 characters per literal). */
typedef struct byoc__rep_row_key {
    uint32_t origin;
    int row;
} byoc__rep_row_key;

typedef struct byoc__rep {
    const byoc_sim_report_input *in;
    const byoc_placement_report *pl;
    const byoc_sim_program *p;
    byoc__buf b;
    byoc__rep_row_key *by_origin; /* placement rows sorted by origin, for lookups */
    int *kernel_of;               /* per placement row: the kernel that runs it, -1 */
    int *device_of;               /* per placement row: its backend's index in pl->backends (its colour) */
    byoc_layout layout;
    /* the collapsed view (section "report: the collapsed view"): each partition contracted to one box */
    int *cnode_of;         /* per placement row: its node in the collapsed graph */
    int *crow_of;          /* per collapsed node: the row it shows, or -1 - q for partition q */
    int *cmembers;         /* per collapsed node: the placement rows it stands for */
    int cnodes;            /* nodes of the collapsed graph */
    byoc_layout collapsed; /* valid when collapsed_ok */
    int collapsed_ok;
    char collapsed_why[512]; /* why there is no collapsed view when !collapsed_ok */
} byoc__rep;
BYOC__SIM_PRIVATE byoc_result byoc__rep_collapse(byoc__rep *R);
BYOC__SIM_PRIVATE void byoc__rep_collapsed_view(byoc__rep *R);
BYOC__SIM_PRIVATE void byoc__rep_collapse_free(byoc__rep *R);
BYOC__SIM_PRIVATE void byoc__rep_op_label(const char *op, char *label, size_t cap);
/* a partition's members in drawing order (section "report: the collapsed view") */
typedef struct byoc__rep_member {
    int q, layer, order, rank, row; /* rank: the position among the ops of its layer, bend points not counted */
} byoc__rep_member;
typedef struct byoc__rep_shapes {
    byoc__rep_member *m; /* every row; those of partition q at m[first[q]] .. m[first[q + 1] - 1] by layer, order */
    int *first;          /* per partition, and one past the last */
    double *box;         /* per partition: x0, y0, x1, y1, its members' padded bounding box */
    char *split;         /* per partition: drawn as runs */
} byoc__rep_shapes;
BYOC__SIM_PRIVATE int byoc__rep_shapes_of(const byoc__rep *R, byoc__rep_shapes *S);
BYOC__SIM_PRIVATE void byoc__rep_shapes_free(byoc__rep_shapes *S);
BYOC__SIM_PRIVATE void byoc__rep_partition_shape(byoc__rep *R, const byoc__rep_shapes *S, int q, const char *cls,
                                                 const char *label);

#define BYOC__REP_PALETTE 10
static const char *const byoc__rep_colors[BYOC__REP_PALETTE] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                                                "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#86bcb6"};
#define BYOC__REP_HOST_COLOR "#bab0ac"

/* text or an attribute value: & < > " ' as references, control characters but tab and newline as spaces */
BYOC__SIM_PRIVATE void byoc__rep_text(byoc__buf *b, const char *s) {
    for (const char *run = s ? s : ""; *run;) {
        size_t n = strcspn(run, "&<>\"'\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15"
                                "\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f");
        byoc__buf_put(b, run, n);
        run += n;
        if (!*run) break;
        switch (*run) {
        case '&': byoc__buf_puts(b, "&amp;"); break;
        case '<': byoc__buf_puts(b, "&lt;"); break;
        case '>': byoc__buf_puts(b, "&gt;"); break;
        case '"': byoc__buf_puts(b, "&quot;"); break;
        case '\'': byoc__buf_puts(b, "&#39;"); break;
        default: byoc__buf_puts(b, " "); break;
        }
        run++;
    }
}
/* ` name="value"` with the value escaped */
BYOC__SIM_PRIVATE void byoc__rep_attr(byoc__buf *b, const char *name, const char *value) {
    byoc__buf_printf(b, " %s=\"", name);
    byoc__rep_text(b, value);
    byoc__buf_puts(b, "\"");
}

/* a size for people: 812 B, 12.5 KiB, 3.20 MiB */
BYOC__SIM_PRIVATE const char *byoc__rep_bytes(double v, char *out, size_t cap) {
    if (v < 1024) snprintf(out, cap, "%.0f B", v);
    else if (v < 1024.0 * 1024) snprintf(out, cap, "%.1f KiB", v / 1024);
    else snprintf(out, cap, "%.2f MiB", v / (1024.0 * 1024));
    return out;
}
/* a duration with three significant digits, in us, ms or s */
BYOC__SIM_PRIVATE const char *byoc__rep_us(double seconds, char *out, size_t cap) {
    if (seconds >= 1) snprintf(out, cap, "%.3g s", seconds);
    else if (seconds >= 1e-3) snprintf(out, cap, "%.3g ms", seconds * 1e3);
    else snprintf(out, cap, "%.3g us", seconds * 1e6);
    return out;
}

static int byoc__rep_by_origin(const void *a, const void *b) {
    const byoc__rep_row_key *x = BYOC__SIM_CAST(const byoc__rep_row_key *, a);
    const byoc__rep_row_key *y = BYOC__SIM_CAST(const byoc__rep_row_key *, b);
    if (x->origin != y->origin) return x->origin < y->origin ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}
/* pl's rows sorted by origin (NULL when out of memory) */
BYOC__SIM_PRIVATE byoc__rep_row_key *byoc__rep_keys(const byoc_placement_report *pl) {
    byoc__rep_row_key *keys = BYOC__SIM_CAST(
        byoc__rep_row_key *, BYOC_MALLOC(sizeof(byoc__rep_row_key) * (size_t)(pl->count ? pl->count : 1)));
    for (int i = 0; keys && i < pl->count; ++i) keys[i].origin = pl->nodes[i].origin, keys[i].row = i;
    if (keys) qsort(keys, (size_t)pl->count, sizeof *keys, byoc__rep_by_origin);
    return keys;
}
/* the placement row of an origin, -1 */
BYOC__SIM_PRIVATE int byoc__rep_row(const byoc__rep *R, uint32_t origin) {
    int lo = 0, hi = R->pl->count - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        uint32_t at = R->by_origin[mid].origin;
        if (at == origin) return R->by_origin[mid].row;
        if (at < origin) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}
/* a row's colour: its backend's index among the report's backends */
BYOC__SIM_PRIVATE int byoc__rep_device_index(const byoc_placement_report *pl, const char *backend) {
    for (int k = 0; k < pl->nbackends; ++k)
        if (backend && !strcmp(pl->backends[k], backend)) return k;
    return -1;
}
BYOC__SIM_PRIVATE const char *byoc__rep_color(const byoc_placement_report *pl, const char *backend) {
    int k = byoc__rep_device_index(pl, backend);
    if (!backend || !strcmp(backend, "host") || k < 0) return BYOC__REP_HOST_COLOR;
    return byoc__rep_colors[k % BYOC__REP_PALETTE];
}

/* the op calls a program (and the bodies inside it) runs, mapped to the top-level kernel k */
BYOC__SIM_PRIVATE void byoc__rep_mark(byoc__rep *R, const byoc_sim_program *p, int k, int depth) {
    for (int s = 0; s < p->nsteps && depth <= BYOC__SIM_MAX_DEPTH; ++s) {
        int row = p->steps[s].call ? byoc__rep_row(R, byoc_node_origin(p->steps[s].call)) : -1;
        if (row >= 0 && R->kernel_of[row] < 0) R->kernel_of[row] = k;
    }
    for (int b = 0; b < p->nbodies && depth <= BYOC__SIM_MAX_DEPTH; ++b) byoc__rep_mark(R, p->bodies[b], k, depth + 1);
}

/* which kernel runs each op: a host kernel's op calls keep their origin through FuseOps' copies; a partition run
   by its runtime module is one kernel that runs every op of the partition */
BYOC__SIM_PRIVATE int byoc__rep_index(byoc__rep *R) {
    int n = R->pl->count;
    R->by_origin = byoc__rep_keys(R->pl);
    R->kernel_of = BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * (size_t)(n ? n : 1)));
    R->device_of = BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * (size_t)(n ? n : 1)));
    if (!R->by_origin || !R->kernel_of || !R->device_of) return 0;
    for (int i = 0; i < n; ++i) {
        R->kernel_of[i] = -1;
        R->device_of[i] = byoc__rep_device_index(R->pl, R->pl->nodes[i].backend);
    }
    const byoc_sim_program *p = R->p;
    for (int k = 0; p && k < p->nkernels; ++k) {
        const byoc__sim_kernel *kk = &p->kernels[k];
        for (int s = kk->step_first; s < kk->step_first + kk->nsteps; ++s) {
            int row = p->steps[s].call ? byoc__rep_row(R, byoc_node_origin(p->steps[s].call)) : -1;
            if (row >= 0 && R->kernel_of[row] < 0) R->kernel_of[row] = k;
        }
        for (int b = 0; b < kk->nbodies; ++b) byoc__rep_mark(R, p->bodies[kk->body_first + b], k, 1);
        if (kk->info.exec == BYOC_SIM_EXEC_RUNTIME && kk->function)
            for (int i = 0; i < n; ++i)
                if (R->pl->nodes[i].partition && !strcmp(R->pl->nodes[i].partition, kk->function)) R->kernel_of[i] = k;
    }
    return 1;
}

/* the page's style: one literal per rule group */
static const char *const byoc__rep_css[] = {
    "body{font:14px/1.4 system-ui,sans-serif;margin:0 24px 48px;color:#222;background:#fff}"
    "h1{font-size:22px;margin:16px 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd}"
    "nav a{margin-right:14px}.muted{color:#666}.legend span{display:inline-block;margin-right:14px}"
    ".sw{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-1px;border:1px solid #0003}"
    "button{font:inherit;margin-right:6px;padding:2px 10px}\n",
    ".frame{border:1px solid #ccc;background:#fcfcfc;overflow:hidden;position:relative}"
    "#graph-svg{width:100%;height:70vh;display:block;cursor:grab;user-select:none}"
    "svg text{font:12px monospace;fill:#111;pointer-events:none}"
    "g.node rect{stroke:#0006;stroke-width:1}g.node{cursor:pointer}g.node:hover rect{stroke:#000;stroke-width:2}"
    "g.node.selected rect{stroke:#d00;stroke-width:3}g.partition-node rect{stroke:#222;stroke-width:1.5}"
    "g.partition-node,g.collapsed-op{cursor:pointer}g.collapsed-op rect{stroke:#0006;stroke-width:1}"
    ".edge{fill:none;stroke:#7779;stroke-width:1.2}\n",
    "g.partition .pbox{fill:none;stroke:#333;stroke-dasharray:5 3;stroke-width:1.2;pointer-events:none}"
    "g.partition .plabel{font:bold 12px monospace;fill:#333;pointer-events:auto;cursor:pointer}"
    "#details{border:1px solid #ccc;padding:8px 12px;margin-top:8px;min-height:3em;background:#f7f7f7}"
    "#details p{margin:2px 0}#details ul{margin:2px 0 2px 18px;padding:0}\n",
    "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:2px 8px;text-align:left}"
    /* names and op lists may break anywhere (a fused kernel's name runs long); numbers never ("1" over "0"), nor
       the kernels' device, class and exec words ("runti" over "me") */
    "td{overflow-wrap:anywhere;max-width:48em}td.num,th.num{text-align:right;white-space:nowrap;overflow-wrap:normal}"
    "#kernels td:nth-child(n+3):nth-child(-n+5){overflow-wrap:normal}"
    "tr:nth-child(even){background:#f6f6f6}.plans{display:flex;gap:32px;flex-wrap:wrap}"
    ".tl-svg,.mem-svg{width:100%;display:block;cursor:grab}.lane{fill:#f0f0f0}"
    ".tick{stroke:#bbb}.k{stroke:#fff;stroke-width:.5}.k:hover,.buf:hover{stroke:#000;stroke-width:1.5}\n",
};

BYOC__SIM_PRIVATE void byoc__rep_head(byoc__rep *R) {
    byoc__buf *b = &R->b;
    const char *title = R->in->title ? R->in->title : "byoc report";
    byoc__buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                      "<link rel=\"icon\" href=\"data:,\">\n<title>byoc report: ");
    byoc__rep_text(b, title);
    byoc__buf_puts(b, "</title>\n<style>\n");
    for (size_t i = 0; i < sizeof byoc__rep_css / sizeof byoc__rep_css[0]; ++i) byoc__buf_puts(b, byoc__rep_css[i]);
    for (int k = 0; k < BYOC__REP_PALETTE; ++k) byoc__buf_printf(b, ".d%d{fill:%s}", k, byoc__rep_colors[k]);
    byoc__buf_printf(b, ".dh{fill:%s}\n</style></head>\n<body>\n<h1>", BYOC__REP_HOST_COLOR);
    byoc__rep_text(b, title);
    byoc__buf_puts(b, "</h1>\n");
    if (R->in->note) {
        byoc__buf_puts(b, "<p class=\"muted\">");
        byoc__rep_text(b, R->in->note);
        byoc__buf_puts(b, "</p>\n");
    }
    int on_host = 0;
    for (int i = 0; i < R->pl->count; ++i) on_host += !strcmp(R->pl->nodes[i].backend, "host");
    char t[64];
    byoc__buf_printf(b, "<p>%s placement: %d ops, %d on backends in %d partition%s, %d on the host",
                     R->in->strategy ? (!strcmp(R->in->strategy, "collage") ? "Collage" : "greedy") : "greedy",
                     R->pl->count, R->pl->count - on_host, R->pl->npartitions, R->pl->npartitions == 1 ? "" : "s",
                     on_host);
    if (R->p)
        byoc__buf_printf(b, "; %d kernel%s, simulated latency %s", R->p->nkernels, R->p->nkernels == 1 ? "" : "s",
                         byoc__rep_us(byoc_sim_latency(R->p), t, sizeof t));
    byoc__buf_puts(
        b, ".</p>\n<nav><a href=\"#graph\">graph</a><a href=\"#timeline\">timeline</a>"
           "<a href=\"#plans\">plans</a><a href=\"#memory\">memory</a><a href=\"#kernels\">kernels</a></nav>\n");
}

/* a node's box fits its label, the op's name (cut at 24 characters: the details give it whole) */
#define BYOC__REP_LABEL_MAX 24
#define BYOC__REP_CHAR_W 7.3
#define BYOC__REP_NODE_H 24.0
BYOC__SIM_PRIVATE int byoc__rep_label_chars(const char *op) {
    size_t n = strlen(op ? op : "");
    return n > BYOC__REP_LABEL_MAX ? BYOC__REP_LABEL_MAX : (int)n;
}
BYOC__SIM_PRIVATE double byoc__rep_node_width(const char *op) {
    double w = 16 + BYOC__REP_CHAR_W * byoc__rep_label_chars(op);
    return w < 48 ? 48 : w;
}

/* the placement report's ops as a graph (an edge per distinct input op) laid out by byoc_graph_layout */
BYOC__SIM_PRIVATE byoc_result byoc__rep_layout(byoc__rep *R, byoc_diag *diag) {
    const byoc_placement_report *pl = R->pl;
    int n = pl->count, m = 0;
    for (int i = 0; i < n; ++i) m += pl->nodes[i].ninputs > 0 ? pl->nodes[i].ninputs : 0;
    size_t node_slots = n > 0 ? (size_t)n : 1, edge_slots = m > 0 ? (size_t)m : 1; /* a count is never negative */
    double *w = BYOC__SIM_CAST(double *, BYOC_MALLOC(sizeof(double) * node_slots));
    double *h = BYOC__SIM_CAST(double *, BYOC_MALLOC(sizeof(double) * node_slots));
    int *from = BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * edge_slots));
    int *to = BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * edge_slots));
    byoc_result r = BYOC_OK;
    if (!w || !h || !from || !to)
        r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "byoc_sim_report_html: out of memory");
    int nedges = 0;
    for (int i = 0; r == BYOC_OK && i < n; ++i) {
        const byoc_placement *op = &pl->nodes[i];
        w[i] = byoc__rep_node_width(op->op);
        h[i] = BYOC__REP_NODE_H;
        for (int q = 0; q < op->ninputs; ++q) {
            int src = byoc__rep_row(R, op->inputs[q]), seen = 0;
            for (int e = 0; e < q && !seen; ++e) seen = op->inputs[e] == op->inputs[q];
            if (src < 0 || src == i || seen) continue;
            from[nedges] = src;
            to[nedges++] = i;
        }
    }
    if (r == BYOC_OK) {
        byoc_layout_graph g;
        memset(&g, 0, sizeof g);
        g.nnodes = n;
        g.widths = w;
        g.heights = h;
        g.nedges = nedges;
        g.edge_from = from;
        g.edge_to = to;
        r = byoc_graph_layout(&g, R->in->layout, &R->layout, diag);
    }
    BYOC_FREE(w);
    BYOC_FREE(h);
    BYOC_FREE(from);
    BYOC_FREE(to);
    return r;
}

/* op `row` of the placement after its g's opening and "<title>": the title's text, the box coloured by device, the
   label, and the g closed (both views draw an op so) */
BYOC__SIM_PRIVATE void byoc__rep_op_shape(byoc__rep *R, int row, const byoc_layout_box *box) {
    byoc__buf *b = &R->b;
    const byoc_placement *op = &R->pl->nodes[row];
    byoc__rep_text(b, op->op);
    byoc__buf_puts(b, op->source ? " " : "");
    byoc__rep_text(b, op->source);
    byoc__buf_puts(b, " on ");
    byoc__rep_text(b, op->backend);
    int dev = R->device_of[row];
    if (!strcmp(op->backend, "host") || dev < 0) byoc__buf_puts(b, "</title><rect class=\"dh\"");
    else byoc__buf_printf(b, "</title><rect class=\"d%d\"", dev % BYOC__REP_PALETTE);
    byoc__buf_printf(b, " x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"4\"/><text x=\"%.1f\" y=\"%.1f\">",
                     box->x, box->y, box->w, box->h, box->x + 8, box->y + box->h / 2 + 4);
    char label[BYOC__REP_LABEL_MAX + 1];
    byoc__rep_op_label(op->op, label, sizeof label);
    byoc__rep_text(b, label);
    byoc__buf_puts(b, "</text></g>\n");
}

/* one node: its box, label, hover title and the fields a click shows (data attributes, escaped) */
BYOC__SIM_PRIVATE void byoc__rep_node(byoc__rep *R, int i) {
    byoc__buf *b = &R->b;
    const byoc_placement *op = &R->pl->nodes[i];
    const byoc_layout_box *box = &R->layout.nodes[i];
    char reason[2048], kernel[600], t1[64], t2[64];
    byoc__placement_reason(op, R->in->strategy, reason, sizeof reason);
    byoc__buf_printf(b, "<g class=\"node\" data-node-id=\"%u\"", (unsigned)op->origin);
    byoc__rep_attr(b, "data-device", op->backend);
    byoc__rep_attr(b, "data-op", op->op);
    byoc__rep_attr(b, "data-name", op->source ? op->source : "");
    byoc__rep_attr(b, "data-label", op->label);
    byoc__rep_attr(b, "data-function", op->function);
    byoc__rep_attr(b, "data-composite", op->composite ? op->composite : "");
    byoc__rep_attr(b, "data-partition", op->partition ? op->partition : "");
    int k = R->kernel_of[i];
    kernel[0] = 0;
    if (k >= 0) {
        const byoc_sim_kernel_info *ki = &R->p->kernels[k].info;
        snprintf(kernel, sizeof kernel, "#%d %.400s (%s, %s; simulated %s, measured %s)", k, ki->name,
                 byoc_sim_kernel_class(R->p, k), byoc_sim_exec_name(ki->exec),
                 byoc__rep_us(ki->sim_seconds, t1, sizeof t1), byoc__rep_us(ki->median_seconds, t2, sizeof t2));
        byoc__buf_printf(b, " data-kernel-index=\"%d\"", k);
    }
    byoc__rep_attr(b, "data-kernel", kernel);
    byoc__rep_attr(b, "data-reason", reason);
    byoc__buf_puts(b, " data-declined=\"");
    for (int d = 0; d < op->ndeclined; ++d) {
        if (d) byoc__buf_puts(b, "&#10;");
        byoc__rep_text(b, op->declined[d].backend);
        byoc__buf_puts(b, ": ");
        byoc__rep_text(b, op->declined[d].reason);
    }
    byoc__buf_puts(b, "\"><title>");
    byoc__rep_op_shape(R, i, box);
}

/* each partition: a dashed box around its nodes (or its runs: section "report: the collapsed view") with its name,
   backend and size; a click on the name collapses the partitions. The label is bold 12px monospace: 7.6 units a
   character. */
#define BYOC__REP_PLABEL_CHAR_W 7.6
BYOC__SIM_PRIVATE void byoc__rep_partitions(byoc__rep *R) {
    byoc__buf *b = &R->b;
    byoc__rep_shapes S;
    memset(&S, 0, sizeof S);
    if (!byoc__rep_shapes_of(R, &S)) b->oom = 1;
    for (int q = 0; !b->oom && q < R->pl->npartitions; ++q) {
        const byoc_partition_summary *ps = &R->pl->partitions[q];
        int members = S.first[q + 1] - S.first[q];
        if (!members) continue;
        int dev = byoc__rep_device_index(R->pl, ps->backend);
        char cls[16], label[320];
        snprintf(label, sizeof label, "%.256s (%.20s, %d op%s)", ps->function, ps->backend, members,
                 members == 1 ? "" : "s");
        if (dev < 0) snprintf(cls, sizeof cls, "dh");
        else snprintf(cls, sizeof cls, "d%d", dev % BYOC__REP_PALETTE);
        byoc__buf_puts(b, "<g class=\"partition\"");
        byoc__rep_attr(b, "data-partition", ps->function);
        byoc__rep_attr(b, "data-backend", ps->backend);
        byoc__buf_puts(b, "><title>");
        byoc__rep_text(b, label);
        byoc__buf_puts(b, "</title>");
        byoc__rep_partition_shape(R, &S, q, cls, label);
        byoc__buf_puts(b, "</g>\n");
    }
    byoc__rep_shapes_free(&S);
}

BYOC__SIM_PRIVATE void byoc__rep_graph(byoc__rep *R) {
    byoc__buf *b = &R->b;
    const byoc_layout *l = &R->layout;
    byoc__buf_printf(b,
                     "<section id=\"graph\"><h2>Graph</h2>\n<p>Showing <span id=\"node-count\">%d</span> nodes: "
                     "every op the placement report lists (those of @main and of its control-flow bodies), laid out "
                     "in %d layers (%lld edge crossings). Click a node for its details, or a partition's name to "
                     "collapse the partitions (the graph laid out again with each partition one box; a click on "
                     "that box expands them again); wheel to zoom, drag to pan.</p>\n",
                     R->pl->count, l->layers, l->crossings);
    byoc__buf_puts(b, "<p><button data-act=\"in\">zoom in</button><button data-act=\"out\">zoom out</button>"
                      "<button data-act=\"fit\">fit</button><button data-act=\"collapse\"");
    if (!R->collapsed_ok) {
        byoc__rep_attr(b, "title", R->collapsed_why);
        byoc__buf_puts(b, " disabled");
    }
    byoc__buf_puts(b, ">collapse partitions</button><button data-act=\"expand\">expand partitions</button></p>\n");
    if (!R->collapsed_ok) {
        byoc__buf_puts(b, "<p class=\"muted\">No collapsed view: ");
        byoc__rep_text(b, R->collapsed_why);
        byoc__buf_puts(b, "</p>\n");
    }
    byoc__buf_puts(b, "<p class=\"legend\">");
    for (int k = 0; k < R->pl->nbackends; ++k) {
        int ops = 0;
        for (int i = 0; i < R->pl->count; ++i) ops += !strcmp(R->pl->nodes[i].backend, R->pl->backends[k]);
        byoc__buf_printf(b, "<span><span class=\"sw\" style=\"background:%s\"></span>",
                         byoc__rep_color(R->pl, R->pl->backends[k]));
        byoc__rep_text(b, R->pl->backends[k]);
        byoc__buf_printf(b, " (%d op%s)</span>", ops, ops == 1 ? "" : "s");
    }
    byoc__buf_printf(b,
                     "</p>\n<div class=\"frame\"><svg id=\"graph-svg\" viewBox=\"-20 -30 %.1f %.1f\" "
                     "data-width=\"%.1f\" data-height=\"%.1f\" role=\"img\">\n"
                     "<defs><marker id=\"arrow\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"7\" "
                     "markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#777\"/></marker></defs>\n"
                     "<g id=\"view-expanded\" class=\"view\" data-width=\"%.1f\" data-height=\"%.1f\">\n"
                     "<g class=\"edges\">\n",
                     l->width + 40, l->height + 50, l->width, l->height, l->width, l->height);
    for (int e = 0; e < l->nedges; ++e) {
        const byoc_layout_edge *edge = &l->edges[e];
        byoc__buf_printf(
            b, "<polyline class=\"edge\" marker-end=\"url(#arrow)\" data-from=\"%u\" data-to=\"%u\" points=\"",
            (unsigned)R->pl->nodes[edge->from].origin, (unsigned)R->pl->nodes[edge->to].origin);
        for (int q = 0; q < edge->npoints; ++q)
            byoc__buf_printf(b, "%s%.1f,%.1f", q ? " " : "", edge->points[2 * q], edge->points[2 * q + 1]);
        byoc__buf_puts(b, "\"/>\n");
    }
    byoc__buf_puts(b, "</g>\n<g class=\"nodes\">\n");
    for (int i = 0; i < R->pl->count; ++i) byoc__rep_node(R, i);
    byoc__buf_puts(b, "</g>\n<g class=\"partitions\">\n");
    byoc__rep_partitions(R);
    byoc__buf_puts(b, "</g>\n</g>\n");
    if (R->collapsed_ok) byoc__rep_collapsed_view(R);
    byoc__buf_puts(b, "</svg></div>\n<div id=\"details\">Click a node to see its op, ONNX name, composite, "
                      "partition, kernel and why it runs where it does.</div>\n</section>\n");
}

/* ---- the timeline: lanes of kernels and of DMA commands on the simulated clock ---- */
#define BYOC__REP_LANES 64
#define BYOC__REP_MAX_COMMANDS 20000 /* DMA spans drawn in all: the rest are counted below the timeline */
typedef struct byoc__rep_lanes {
    char names[BYOC__REP_LANES][96];
    int count;
} byoc__rep_lanes;
BYOC__SIM_PRIVATE int byoc__rep_lane(byoc__rep_lanes *ls, const char *name) {
    for (int i = 0; i < ls->count; ++i)
        if (!strcmp(ls->names[i], name)) return i;
    if (ls->count == BYOC__REP_LANES) return BYOC__REP_LANES - 1;
    snprintf(ls->names[ls->count], sizeof ls->names[0], "%s", name);
    return ls->count++;
}
/* kernel i's device lane, and its DMA lane when it runs a command stream (else -1) */
BYOC__SIM_PRIVATE int byoc__rep_kernel_lanes(const byoc_sim_program *p, int i, byoc__rep_lanes *ls, int *dma,
                                             const byoc_sim_device_program **dp) {
    const byoc_sim_device *dev = NULL;
    const char *where = byoc__sim_kernel_where(p, i, &dev);
    int lane = byoc__rep_lane(ls, where);
    char name[120];
    *dp = byoc_sim_kernel_program(p, i);
    *dma = -1;
    if (*dp) {
        snprintf(name, sizeof name, "%.90s dma", where);
        *dma = byoc__rep_lane(ls, name);
    }
    return lane;
}

BYOC__SIM_PRIVATE void byoc__rep_body_lanes(const byoc_sim_program *p, int i, byoc__rep_lanes *ls);
BYOC__SIM_PRIVATE void byoc__rep_body_spans(byoc__rep *R, byoc__rep_lanes *ls, int i, double scale, int *drawn,
                                            int *skipped);

/* a span on a lane: [start, start + seconds) scaled to the plot */
BYOC__SIM_PRIVATE void byoc__rep_span(byoc__buf *b, double start, double seconds, double scale, int lane,
                                      const char *fill, const char *cls) {
    double w = seconds * scale;
    byoc__buf_printf(b, "<rect class=\"%s\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"18\" fill=\"%s\">", cls,
                     140 + start * scale, 20 + lane * 24 + 3, w < 0.6 ? 0.6 : w, fill);
}

BYOC__SIM_PRIVATE void byoc__rep_timeline(byoc__rep *R) {
    byoc__buf *b = &R->b;
    const byoc_sim_program *p = R->p;
    byoc__buf_puts(b, "<section id=\"timeline\"><h2>Simulated timeline</h2>\n");
    double total = 0;
    for (int i = 0; p && i < p->nkernels; ++i)
        if (p->kernels[i].info.sim_start + p->kernels[i].info.sim_seconds > total)
            total = p->kernels[i].info.sim_start + p->kernels[i].info.sim_seconds;
    if (!p || total <= 0) {
        byoc__buf_puts(b, "<p>No run to show: the page was written without a program that ran.</p></section>\n");
        return;
    }
    byoc__rep_lanes *ls = BYOC__SIM_CAST(byoc__rep_lanes *, BYOC_CALLOC(1, sizeof(byoc__rep_lanes)));
    if (!ls) {
        b->oom = 1;
        return;
    }
    const byoc_sim_device_program *dp;
    int dma, transfers = 0, drawn = 0, skipped = 0, body_drawn = 0, body_skipped = 0;
    byoc__rep_lane(ls, "host");
    for (int i = 0; i < p->nkernels; ++i) {
        byoc__rep_kernel_lanes(p, i, ls, &dma, &dp);
        byoc__rep_body_lanes(p, i, ls);
        transfers += p->kernels[i].info.transfer_bytes > 0;
    }
    int xfer_lane = transfers ? byoc__rep_lane(ls, "transfers") : -1;
    const double width = 1100, scale = width / total;
    char t[64], t2[64];
    byoc__buf_printf(b,
                     "<p>%d kernels run one after another, %s in all on the simulated SoC; a device's DMA lane "
                     "shows its command streams' loads and stores; the transfers lane, at the start of each kernel "
                     "that reads what another device wrote, how long those bytes take at the host's DRAM "
                     "bandwidth. Hover a span for its numbers.</p>\n<div class=\"frame\">"
                     "<svg class=\"tl-svg\" viewBox=\"0 0 %.0f %d\">\n",
                     p->nkernels, byoc__rep_us(total, t, sizeof t), 140 + width + 20, 20 + ls->count * 24 + 10);
    for (int l = 0; l < ls->count; ++l) {
        byoc__buf_printf(b,
                         "<rect class=\"lane\" x=\"140\" y=\"%d\" width=\"%.0f\" height=\"24\" fill-opacity=\"%s\"/>"
                         "<text x=\"4\" y=\"%d\">",
                         20 + l * 24, width, l % 2 ? "0.5" : "1", 20 + l * 24 + 16);
        byoc__rep_text(b, ls->names[l]);
        byoc__buf_puts(b, "</text>\n");
    }
    for (int q = 0; q <= 5; ++q)
        byoc__buf_printf(
            b,
            "<line class=\"tick\" x1=\"%.1f\" x2=\"%.1f\" y1=\"16\" y2=\"%d\"/><text x=\"%.1f\" y=\"12\">%s"
            "</text>\n",
            140 + width * q / 5, 140 + width * q / 5, 20 + ls->count * 24, 140 + width * q / 5 - (q == 5 ? 60 : 0),
            byoc__rep_us(total * q / 5, t, sizeof t));
    for (int i = 0; i < p->nkernels; ++i) {
        const byoc_sim_kernel_info *ki = &p->kernels[i].info;
        int lane = byoc__rep_kernel_lanes(p, i, ls, &dma, &dp);
        const byoc_sim_device *unused = NULL;
        byoc__rep_span(b, ki->sim_start, ki->sim_seconds, scale, lane,
                       byoc__rep_color(R->pl, byoc__sim_kernel_where(p, i, &unused)), "k");
        byoc__buf_printf(b, "<title>#%d ", i);
        byoc__rep_text(b, ki->name);
        byoc__buf_printf(b, " (%s): %s from %s</title></rect>\n", byoc_sim_kernel_class(p, i),
                         byoc__rep_us(ki->sim_seconds, t, sizeof t), byoc__rep_us(ki->sim_start, t2, sizeof t2));
        if (ki->exec == BYOC_SIM_EXEC_CONTROL) byoc__rep_body_spans(R, ls, i, scale, &body_drawn, &body_skipped);
        if (ki->transfer_bytes > 0) { /* as long as the bytes take at the host model's DRAM bandwidth */
            double bandwidth = p->host.dram_bytes_per_cycle * p->host.clock_mhz * 1e6;
            byoc__rep_span(b, ki->sim_start, bandwidth > 0 ? (double)ki->transfer_bytes / bandwidth : 0, scale,
                           xfer_lane, "#e15759", "k");
            byoc__buf_printf(b, "<title>#%d reads %s another device wrote</title></rect>\n", i,
                             byoc__rep_bytes((double)ki->transfer_bytes, t, sizeof t));
        }
        for (int c = 0; dp && c < dp->s.ncmds; ++c) {
            const byoc__dv_cmd *cmd = &dp->s.cmds[c];
            if (cmd->op == BYOC__DV_COMPUTE) continue;
            if (drawn == BYOC__REP_MAX_COMMANDS) {
                skipped++;
                continue;
            }
            double per_cycle = 1e-6 / byoc_sim_device_of(dp)->clock_mhz;
            byoc__rep_span(b, ki->sim_start + (double)cmd->start * per_cycle, (double)cmd->cycles * per_cycle, scale,
                           dma, cmd->op == BYOC__DV_LOAD ? "#8cd17d" : "#f1ce63", "k");
            byoc__buf_printf(b, "<title>%s of %s, %s (kernel #%d, command %d)</title></rect>\n",
                             cmd->op == BYOC__DV_LOAD ? "load" : "store",
                             byoc__rep_bytes((double)cmd->bytes, t, sizeof t),
                             byoc__rep_us((double)cmd->cycles * per_cycle, t2, sizeof t2), i, c);
            drawn++;
        }
    }
    byoc__buf_puts(b, "</svg></div>\n");
    if (skipped) byoc__buf_printf(b, "<p class=\"muted\">%d more DMA commands are not drawn.</p>\n", skipped);
    if (body_drawn || body_skipped || p->events_dropped)
        byoc__buf_printf(b,
                         "<p class=\"muted\" id=\"body-kernels\">%d kernel run%s inside loop and if bodies drawn "
                         "inset over their control kernel's span%s; %d more not drawn, %d not recorded by the run."
                         "</p>\n",
                         body_drawn, body_drawn == 1 ? "" : "s", body_drawn ? " (thinner when nested deeper)" : "",
                         body_skipped, p->events_dropped);
    byoc__buf_puts(b, "</section>\n");
    BYOC_FREE(ls);
}

/* ---- the plans side by side, and the ops that moved ---- */
BYOC__SIM_PRIVATE void byoc__rep_plan_table(byoc__rep *R, const byoc_placement_report *pl, const char *strategy) {
    byoc__buf *b = &R->b;
    char t[64];
    byoc__buf_puts(b, "<div><h3>");
    byoc__rep_text(b, !strategy ? "greedy" : !strcmp(strategy, "collage") ? "Collage" : strategy);
    byoc__buf_puts(b, "</h3><table><tr><th>device</th><th class=\"num\">ops</th><th class=\"num\">partitions</th>"
                      "<th class=\"num\">estimated cost</th></tr>\n");
    for (int k = 0; k < pl->nbackends; ++k) {
        int ops = 0, parts = 0;
        double cost = 0;
        for (int i = 0; i < pl->count; ++i) ops += !strcmp(pl->nodes[i].backend, pl->backends[k]);
        for (int q = 0; q < pl->npartitions; ++q)
            if (!strcmp(pl->partitions[q].backend, pl->backends[k])) {
                parts++;
                cost += pl->partitions[q].estimated_cost > 0 ? pl->partitions[q].estimated_cost : 0;
            }
        byoc__buf_printf(b, "<tr><td><span class=\"sw\" style=\"background:%s\"></span>",
                         byoc__rep_color(pl, pl->backends[k]));
        byoc__rep_text(b, pl->backends[k]);
        byoc__buf_printf(b, "</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%s</td></tr>\n",
                         ops, parts, parts && cost > 0 ? byoc__rep_us(cost, t, sizeof t) : "-");
    }
    byoc__buf_puts(b, "</table></div>\n");
}

BYOC__SIM_PRIVATE void byoc__rep_plans(byoc__rep *R) {
    byoc__buf *b = &R->b;
    const byoc_placement_report *other = R->in->other;
    byoc__buf_puts(b, "<section id=\"plans\"><h2>Plans</h2>\n");
    if (!other) {
        byoc__buf_puts(b, "<p>One plan only (the other strategy's plan was not given: with no backend there is "
                          "nothing to compare).</p>\n<div class=\"plans\">");
        byoc__rep_plan_table(R, R->pl, R->in->strategy);
        byoc__buf_puts(b, "</div></section>\n");
        return;
    }
    byoc__rep o; /* the other plan's rows by origin */
    memset(&o, 0, sizeof o);
    o.pl = other;
    o.by_origin = byoc__rep_keys(other);
    if (!o.by_origin) {
        b->oom = 1;
        return;
    }
    byoc__buf_puts(b, "<div class=\"plans\">");
    byoc__rep_plan_table(R, R->pl, R->in->strategy);
    byoc__rep_plan_table(R, other, R->in->other_strategy);
    byoc__buf_puts(b, "</div>\n");
    int moved = 0;
    for (int i = 0; i < R->pl->count; ++i) {
        const byoc_placement *a = &R->pl->nodes[i];
        int j = byoc__rep_row(&o, a->origin);
        if (j < 0 || !strcmp(a->backend, other->nodes[j].backend)) continue;
        if (!moved++) {
            byoc__buf_puts(
                b, "<h3>Ops that moved</h3><table id=\"moved\"><tr><th>node</th><th>op</th><th>ONNX name</th><th>");
            byoc__rep_text(b, R->in->strategy ? R->in->strategy : "greedy");
            byoc__buf_puts(b, "</th><th>");
            byoc__rep_text(b, R->in->other_strategy ? R->in->other_strategy : "other");
            byoc__buf_puts(b, "</th></tr>\n");
        }
        byoc__buf_printf(b, "<tr><td><a href=\"#node=%u\">#%u</a></td><td>", (unsigned)a->origin, (unsigned)a->origin);
        byoc__rep_text(b, a->op);
        byoc__buf_puts(b, "</td><td>");
        byoc__rep_text(b, a->source ? a->source : "-");
        byoc__buf_puts(b, "</td><td>");
        byoc__rep_text(b, a->backend);
        byoc__buf_puts(b, "</td><td>");
        byoc__rep_text(b, other->nodes[j].backend);
        byoc__buf_puts(b, "</td></tr>\n");
    }
    if (moved)
        byoc__buf_printf(b, "</table>\n<p>%d of %d ops run on another device in the other plan.</p>\n", moved,
                         R->pl->count);
    else byoc__buf_puts(b, "<p>No op moved: both plans put every op on the same device.</p>\n");
    byoc__buf_puts(b, "</section>\n");
    BYOC_FREE(o.by_origin);
}

/* ---- the memory plan: arena buffers as offset x lifetime ---- */
BYOC__SIM_PRIVATE void byoc__rep_memory(byoc__rep *R) {
    byoc__buf *b = &R->b;
    const byoc_sim_program *p = R->p;
    byoc__buf_puts(b, "<section id=\"memory\"><h2>Memory plan</h2>\n");
    byoc_sim_memory_plan mp;
    memset(&mp, 0, sizeof mp);
    if (p) mp = byoc_sim_memory(p);
    if (!p || !mp.arena_bytes || mp.slots <= 0) {
        byoc__buf_puts(b, p ? "<p>No intermediate buffers: the arena is empty.</p></section>\n"
                            : "<p>No program: the page was written without one.</p></section>\n");
        return;
    }
    char t1[64], t2[64], t3[64], t4[64];
    byoc__buf_printf(b,
                     "<p>Arena %s for %d buffers over %d time slots (lower bound %s, ratio %.2f); %d written in "
                     "place over a dying input, %d views; workspace %s, outputs %s. Each rectangle is a buffer: "
                     "its offset in the arena (down) over the slots it lives (across).</p>\n",
                     byoc__rep_bytes((double)mp.arena_bytes, t1, sizeof t1), mp.buffers, mp.slots,
                     byoc__rep_bytes((double)mp.lower_bound_bytes, t2, sizeof t2),
                     mp.lower_bound_bytes ? (double)mp.arena_bytes / (double)mp.lower_bound_bytes : 1.0, mp.in_place,
                     mp.views, byoc__rep_bytes((double)mp.workspace_bytes, t3, sizeof t3),
                     byoc__rep_bytes((double)mp.output_bytes, t4, sizeof t4));
    const double width = 1100, height = 320, sx = width / mp.slots, sy = height / (double)mp.arena_bytes;
    byoc__buf_printf(b,
                     "<div class=\"frame\"><svg class=\"mem-svg\" viewBox=\"0 0 %.0f %.0f\">\n<rect class=\"lane\" "
                     "x=\"70\" y=\"10\" width=\"%.0f\" height=\"%.0f\"/><text x=\"4\" y=\"22\">0</text><text x=\"4\" "
                     "y=\"%.0f\">%s</text><text x=\"70\" y=\"%.0f\">slot 0</text><text x=\"%.0f\" y=\"%.0f\">slot %d"
                     "</text>\n",
                     70 + width + 20, height + 40, width, height, height + 10,
                     byoc__rep_bytes((double)mp.arena_bytes, t1, sizeof t1), height + 28, width - 10, height + 28,
                     mp.slots - 1);
    for (int i = 0; i < byoc_sim_buffer_count(p); ++i) {
        byoc_sim_buffer_info bi = byoc_sim_buffer(p, i);
        if (bi.kind != BYOC_SIM_BUFFER_ARENA) continue;
        double h = (double)bi.size * sy;
        byoc__buf_printf(b,
                         "<rect class=\"buf\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                         "fill=\"hsl(%d,55%%,62%%)\" stroke=\"#0005\" stroke-width=\"0.5\"><title>buffer %d: %s at "
                         "offset %zu, slots %d to %d%s</title></rect>\n",
                         70 + bi.first * sx, 10 + (double)bi.offset * sy, (bi.last - bi.first + 1) * sx,
                         h < 0.5 ? 0.5 : h, (i * 47) % 360, i, byoc__rep_bytes((double)bi.size, t1, sizeof t1),
                         bi.offset, bi.first, bi.last, bi.inplace_of >= 0 ? " (in place of a dying input)" : "");
    }
    byoc__buf_puts(b, "</svg></div>\n</section>\n");
}

/* ---- the kernels ---- */
BYOC__SIM_PRIVATE void byoc__rep_kernels(byoc__rep *R) {
    byoc__buf *b = &R->b;
    const byoc_sim_program *p = R->p;
    byoc__buf_puts(b, "<section id=\"kernels\"><h2>Kernels</h2>\n");
    if (!p) {
        byoc__buf_puts(b, "<p>No program: the page was written without one.</p></section>\n");
        return;
    }
    byoc__buf_puts(b, "<table><tr><th class=\"num\">#</th><th>name</th><th>device</th><th>class</th><th>exec</th>"
                      "<th>ops</th><th class=\"num\">simulated</th><th class=\"num\">measured (median)</th>"
                      "<th class=\"num\">transfer</th></tr>\n");
    char t1[64], t2[64], t3[64];
    for (int i = 0; i < p->nkernels; ++i) {
        const byoc_sim_kernel_info *ki = &p->kernels[i].info;
        const byoc_sim_device *unused = NULL;
        byoc__buf_printf(b, "<tr id=\"kernel-%d\"><td class=\"num\">%d</td><td>", i, i);
        byoc__rep_text(b, ki->name);
        byoc__buf_puts(b, "</td><td>");
        byoc__rep_text(b, byoc__sim_kernel_where(p, i, &unused));
        byoc__buf_printf(b, "</td><td>%s</td><td>%s</td><td>", byoc_sim_kernel_class(p, i),
                         byoc_sim_exec_name(ki->exec));
        byoc__rep_text(b, ki->ops);
        byoc__buf_printf(b, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td></tr>\n",
                         byoc__rep_us(ki->sim_seconds, t1, sizeof t1),
                         ki->runs ? byoc__rep_us(ki->median_seconds, t2, sizeof t2) : "-",
                         ki->transfer_bytes ? byoc__rep_bytes((double)ki->transfer_bytes, t3, sizeof t3) : "");
    }
    byoc__buf_puts(b, "</table>\n</section>\n");
}

/* ---- the script: zoom and pan on the SVGs' viewBox, node details, collapsing partitions, #node=ID ---- */
static const char *const byoc__rep_js[] = {
    "(function () {\n\"use strict\";\n"
    "function panZoom(svg) {\n"
    "  var v = svg.viewBox.baseVal, home = {x: v.x, y: v.y, w: v.width, h: v.height}, drag = null;\n"
    "  var z = {view: {x: v.x, y: v.y, w: v.width, h: v.height}, dragged: false, home: home};\n"
    "  z.apply = function () { svg.setAttribute(\"viewBox\", z.view.x + \" \" + z.view.y + \" \" + z.view.w + \" \""
    " + z.view.h); };\n"
    "  z.zoom = function (f, cx, cy) {\n"
    "    var w = z.view.w * f;\n"
    "    if (w < 20 || w > Math.max(z.home.w, z.home.h) * 8) return;\n"
    "    z.view.x = cx - (cx - z.view.x) * f; z.view.y = cy - (cy - z.view.y) * f;\n"
    "    z.view.w = w; z.view.h = z.view.h * f; z.apply();\n  };\n"
    "  z.centre = function () { return {x: z.view.x + z.view.w / 2, y: z.view.y + z.view.h / 2}; };\n"
    "  z.fit = function () { z.view = {x: z.home.x, y: z.home.y, w: z.home.w, h: z.home.h}; z.apply(); };\n"
    "  function user(e) {\n"
    "    var m = svg.getScreenCTM(), pt = svg.createSVGPoint();\n"
    "    if (!m) return z.centre();\n"
    "    pt.x = e.clientX; pt.y = e.clientY; return pt.matrixTransform(m.inverse());\n  }\n"
    "  svg.addEventListener(\"wheel\", function (e) {\n"
    "    e.preventDefault(); var p = user(e); z.zoom(e.deltaY > 0 ? 1.25 : 0.8, p.x, p.y);\n"
    "  }, {passive: false});\n"
    "  svg.addEventListener(\"mousedown\", function (e) {\n"
    "    if (e.button !== 0) return;\n"
    "    drag = {x: e.clientX, y: e.clientY, vx: z.view.x, vy: z.view.y}; z.dragged = false;\n  });\n"
    "  window.addEventListener(\"mousemove\", function (e) {\n"
    "    var m = svg.getScreenCTM();\n"
    "    if (!drag || !m) return;\n"
    "    var dx = (e.clientX - drag.x) / m.a, dy = (e.clientY - drag.y) / m.d;\n"
    "    if (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 3) z.dragged = true;\n"
    "    z.view.x = drag.vx - dx; z.view.y = drag.vy - dy; z.apply();\n  });\n"
    "  window.addEventListener(\"mouseup\", function () {\n"
    "    drag = null; setTimeout(function () { z.dragged = false; }, 0); /* the click ending a drag is no click */\n"
    "  });\n"
    "  return z;\n}\n",
    "var svg = document.getElementById(\"graph-svg\"), details = document.getElementById(\"details\");\n"
    "var graph = panZoom(svg);\n"
    "Array.prototype.forEach.call(document.querySelectorAll(\".tl-svg, .mem-svg\"), panZoom);\n"
    "var views = {expanded: document.getElementById(\"view-expanded\"),"
    " collapsed: document.getElementById(\"view-collapsed\")}, current = \"expanded\";\n"
    "/* the initial view: the graph's whole width from its top, at most 1.25x; below 0.3x a label is a speck, so a\n"
    "   wider graph is shown at 0.3x around its first node's column (zoom out or fit for the whole) */\n"
    "function fitWidth() {\n"
    "  var r = svg.getBoundingClientRect(), h = graph.home;\n"
    "  if (!r.width || !r.height) { graph.fit(); return; }\n"
    "  var s = Math.min(1.25, Math.max(0.3, r.width / h.w)), w = r.width / s, ht = r.height / s;\n"
    "  var x = h.x + (h.w - w) / 2;\n"
    "  if (w < h.w) {\n"
    "    var first = views[current].querySelector(\"rect\");\n"
    "    x = (first ? +first.getAttribute(\"x\") : 0) - w / 2;\n  }\n"
    "  graph.view = {x: x, y: ht >= h.h ? h.y + (h.h - ht) / 2 : h.y, w: w, h: ht}; graph.apply();\n}\n"
    "function setView(name) {\n"
    "  if (!views[name]) return false;\n"
    "  current = name;\n"
    "  Object.keys(views).forEach(function (k) {\n"
    "    if (views[k]) views[k].setAttribute(\"display\", k === name ? \"inline\" : \"none\");\n  });\n"
    "  var g = views[name];\n"
    "  graph.home = {x: -20, y: -30, w: +g.dataset.width + 40, h: +g.dataset.height + 50};\n"
    "  fitWidth(); return true;\n}\n"
    "function centreOn(r) {\n"
    "  var cx = +r.getAttribute(\"x\") + +r.getAttribute(\"width\") / 2, cy = +r.getAttribute(\"y\") +"
    " +r.getAttribute(\"height\") / 2;\n"
    "  graph.view.x = cx - graph.view.w / 2; graph.view.y = cy - graph.view.h / 2; graph.apply();\n}\n"
    "fitWidth();\n"
    "function row(label, value) {\n"
    "  var p = document.createElement(\"p\"), b = document.createElement(\"b\");\n"
    "  b.textContent = label + \":\"; p.appendChild(b); p.appendChild(document.createTextNode(\" \" + value));\n"
    "  details.appendChild(p); return p;\n}\n"
    "function show(g, centre) {\n"
    "  var d = g.dataset, old = svg.querySelector(\"g.node.selected\");\n"
    "  if (old) old.classList.remove(\"selected\");\n"
    "  g.classList.add(\"selected\");\n"
    "  details.textContent = \"\";\n"
    "  var h = document.createElement(\"h3\");\n"
    "  h.textContent = \"node #\" + d.nodeId + \" (\" + d.label + \" in @\" + d.function + \")\"; "
    "details.appendChild(h);\n"
    "  row(\"op\", d.op); row(\"ONNX name\", d.name || \"-\"); row(\"device\", d.device);\n"
    "  row(\"composite\", d.composite || \"-\"); row(\"partition\", d.partition || \"- (on the host)\");\n"
    "  var k = row(\"kernel\", d.kernel || \"-\");\n"
    "  if (d.kernelIndex) {\n"
    "    var a = document.createElement(\"a\"); a.href = \"#kernel-\" + d.kernelIndex; a.textContent = \" (table)\";\n"
    "    k.appendChild(a);\n  }\n"
    "  row(\"reason\", d.reason);\n"
    "  if (d.declined) {\n"
    "    row(\"declined by\", \"\");\n"
    "    var ul = document.createElement(\"ul\");\n"
    "    d.declined.split(\"\\n\").forEach(function (t) {\n"
    "      var li = document.createElement(\"li\"); li.textContent = t; ul.appendChild(li);\n    });\n"
    "    details.appendChild(ul);\n  }\n"
    "  if (centre) centreOn(g.querySelector(\"rect\"));\n}\n",
    "/* a partition's name switches to the collapsed view centred on its box; a partition box there switches back\n"
    "   centred on its members; a host op there shows its details */\n"
    "svg.addEventListener(\"click\", function (e) {\n"
    "  var t = e.target, c = t.closest ? t.closest(\"g.partition, g.partition-node, g.collapsed-op\") : null;\n"
    "  if (graph.dragged || !c) return;\n"
    "  if (c.classList.contains(\"collapsed-op\")) {\n"
    "    var n = svg.querySelector('g.node[data-node-id=\"' + c.dataset.ref + '\"]');\n"
    "    if (n) show(n, false);\n    return;\n  }\n"
    "  var to = c.classList.contains(\"partition\") ? \"collapsed\" : \"expanded\";\n"
    "  if (!setView(to)) return;\n"
    "  Array.prototype.forEach.call(views[to].querySelectorAll(to === \"collapsed\" ? \"g.partition-node\" :"
    " \"g.partition\"), function (p) {\n"
    "    if (p.dataset.partition === c.dataset.partition) centreOn(p.querySelector(\"rect\"));\n  });\n"
    "});\n"
    "Array.prototype.forEach.call(svg.querySelectorAll(\"g.node\"), function (g) {\n"
    "  var d = g.dataset, t = g.querySelector(\"title\");\n"
    "  if (t) t.textContent = d.op + (d.name ? \" \" + d.name : \"\") + \" on \" + d.device +\n"
    "    (d.partition ? \" in \" + d.partition : \"\") + (d.composite ? \", composite \" + d.composite : \"\") +\n"
    "    (d.kernel ? \"\\nkernel \" + d.kernel : \"\") + \"\\n\" + d.reason; /* the hover shows the details too */\n"
    "  g.addEventListener(\"click\", function () { if (!graph.dragged) show(g, false); });\n});\n"
    "function select() { /* #node=ID selects a node (in the expanded view); #collapsed shows the collapsed view */\n"
    "  var m = /node=(\\d+)/.exec(location.hash);\n"
    "  if (!m && /collapsed/.test(location.hash)) setView(\"collapsed\");\n"
    "  if (!m) return;\n"
    "  var g = svg.querySelector('g.node[data-node-id=\"' + m[1] + '\"]');\n"
    "  if (!g) { details.textContent = \"No node #\" + m[1] + \" in this graph.\"; return; }\n"
    "  if (current !== \"expanded\") setView(\"expanded\");\n"
    "  show(g, true);\n}\n"
    "var actions = {\n"
    "  \"in\": function () { var c = graph.centre(); graph.zoom(0.8, c.x, c.y); },\n"
    "  \"out\": function () { var c = graph.centre(); graph.zoom(1.25, c.x, c.y); },\n"
    "  \"fit\": function () { graph.fit(); },\n"
    "  \"collapse\": function () { setView(\"collapsed\"); },\n"
    "  \"expand\": function () { setView(\"expanded\"); }\n};\n"
    "Array.prototype.forEach.call(document.querySelectorAll(\"button[data-act]\"), function (b) {\n"
    "  b.addEventListener(\"click\", actions[b.dataset.act]);\n});\n"
    "window.addEventListener(\"hashchange\", select);\n"
    "select();\n"
    "document.body.dataset.ready = \"1\";\n"
    "})();\n",
};

BYOC_SIM_API char *byoc_sim_report_html(const byoc_sim_report_input *input, size_t *len, byoc_diag *diag) {
    byoc_diag local;
    if (!diag) diag = &local;
    memset(diag, 0, sizeof *diag);
    if (len) *len = 0;
    if (!input || !input->placement) {
        byoc__null_arg(diag, __func__, !input ? "input" : "input->placement");
        return NULL;
    }
    byoc_allocator heap; /* BYOC_MALLOC, which byoc_sim_report_free matches */
    memset(&heap, 0, sizeof heap);
    byoc__rep R;
    memset(&R, 0, sizeof R);
    R.in = input;
    R.pl = input->placement;
    R.p = input->program;
    R.b.alloc = &heap;
    byoc_result r = byoc__rep_index(&R)
                        ? BYOC_OK
                        : byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "byoc_sim_report_html: out of memory");
    if (r == BYOC_OK) r = byoc__rep_layout(&R, diag);
    if (r == BYOC_OK && byoc__rep_collapse(&R) != BYOC_OK)
        r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "byoc_sim_report_html: out of memory");
    if (r == BYOC_OK) {
        byoc__rep_head(&R);
        byoc__rep_graph(&R);
        byoc__rep_timeline(&R);
        byoc__rep_plans(&R);
        byoc__rep_memory(&R);
        byoc__rep_kernels(&R);
        byoc__buf_puts(&R.b, "<script>\n");
        for (size_t i = 0; i < sizeof byoc__rep_js / sizeof byoc__rep_js[0]; ++i) byoc__buf_puts(&R.b, byoc__rep_js[i]);
        byoc__buf_puts(&R.b, "</script>\n</body></html>\n");
        if (R.b.oom) r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "byoc_sim_report_html: out of memory");
    }
    byoc_layout_free(&R.layout);
    byoc__rep_collapse_free(&R);
    BYOC_FREE(R.by_origin);
    BYOC_FREE(R.kernel_of);
    BYOC_FREE(R.device_of);
    if (r != BYOC_OK) {
        BYOC_FREE(R.b.data);
        return NULL;
    }
    if (len) *len = R.b.len;
    return R.b.data;
}

BYOC_SIM_API void byoc_sim_report_free(char *html) { BYOC_FREE(html); }

// [SECTION] sim impl (compiler): report: the collapsed view and large graphs
/* Collapsing partitions lays the graph out a second time with each partition contracted to one node, rather than
   painting over the expanded drawing: TensorBoard's graph dashboard does the same with its name scopes (a
   collapsed group is one "meta node" of its parent's layout, edges into and out of it bundled), and Netron
   re-runs dagre on every expansion. Here the hierarchy has one level: a partition becomes one box sized to its
   name, backend and op count, its members' edges to the rest merged (one per pair of nodes), the host ops kept.
   A partition is convex (PartitionGraph outlines regions that no path leaves and re-enters), so contracting it
   keeps the graph acyclic; should the contracted graph still have a cycle (a partition that is not convex in the
   report's edges), the page says why it has no collapsed view instead of failing. */
#define BYOC__REP_PNODE_H 40.0
#define BYOC__REP_PNODE_CHARS 40 /* a partition node's name is cut there: its hover title has it whole */

/* an op's label: its name cut at BYOC__REP_LABEL_MAX characters with ".." (the details give it whole) */
BYOC__SIM_PRIVATE void byoc__rep_op_label(const char *op, char *label, size_t cap) {
    int chars = byoc__rep_label_chars(op);
    snprintf(label, cap, "%.*s", chars, op ? op : "");
    if (op && (int)strlen(op) > chars && chars >= 2 && (size_t)chars < cap) label[chars - 1] = label[chars - 2] = '.';
}

BYOC__SIM_PRIVATE int byoc__rep_partition_index(const byoc_placement_report *pl, const char *function) {
    for (int q = 0; function && q < pl->npartitions; ++q)
        if (!strcmp(pl->partitions[q].function, function)) return q;
    return -1;
}

/* a partition node's two lines: its name (cut), then its backend and how many of the report's ops it holds */
BYOC__SIM_PRIVATE void byoc__rep_pnode_lines(const byoc_partition_summary *ps, int members, char *name, size_t ncap,
                                             char *info, size_t icap) {
    snprintf(name, ncap, "%.*s", BYOC__REP_PNODE_CHARS, ps->function);
    if ((int)strlen(ps->function) > BYOC__REP_PNODE_CHARS && ncap > BYOC__REP_PNODE_CHARS)
        name[BYOC__REP_PNODE_CHARS - 1] = name[BYOC__REP_PNODE_CHARS - 2] = '.';
    snprintf(info, icap, "%.24s, %d op%s", ps->backend, members, members == 1 ? "" : "s");
}
BYOC__SIM_PRIVATE double byoc__rep_pnode_width(const byoc_partition_summary *ps, int members) {
    char name[BYOC__REP_PNODE_CHARS + 1], info[64];
    byoc__rep_pnode_lines(ps, members, name, sizeof name, info, sizeof info);
    size_t chars = strlen(name) > strlen(info) ? strlen(name) : strlen(info);
    return 16 + BYOC__REP_PLABEL_CHAR_W * (double)chars;
}

static int byoc__rep_by_pair(const void *a, const void *b) {
    const int *x = BYOC__SIM_CAST(const int *, a), *y = BYOC__SIM_CAST(const int *, b);
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* rows to collapsed nodes: a partition's rows share the node made at its first row, every other row has its own */
BYOC__SIM_PRIVATE void byoc__rep_contract(byoc__rep *R, int *node_of_partition, double *w, double *h) {
    const byoc_placement_report *pl = R->pl;
    for (int q = 0; q < pl->npartitions; ++q) node_of_partition[q] = -1;
    R->cnodes = 0;
    for (int i = 0; i < pl->count; ++i) {
        int q = byoc__rep_partition_index(pl, pl->nodes[i].partition), c = q >= 0 ? node_of_partition[q] : -1;
        if (c < 0) {
            c = R->cnodes++;
            R->crow_of[c] = q >= 0 ? -1 - q : i;
            R->cmembers[c] = 0;
            if (q >= 0) node_of_partition[q] = c;
            w[c] = byoc__rep_node_width(pl->nodes[i].op);
            h[c] = q >= 0 ? BYOC__REP_PNODE_H : BYOC__REP_NODE_H;
        }
        R->cnode_of[i] = c;
        R->cmembers[c]++;
    }
    for (int c = 0; c < R->cnodes; ++c)
        if (R->crow_of[c] < 0) w[c] = byoc__rep_pnode_width(&pl->partitions[-1 - R->crow_of[c]], R->cmembers[c]);
}

/* the collapsed graph and its layout; BYOC_OK also when it cannot be laid out (collapsed_why says why) */
BYOC__SIM_PRIVATE byoc_result byoc__rep_collapse(byoc__rep *R) {
    const byoc_placement_report *pl = R->pl;
    int n = pl->count, m = 0;
    for (int i = 0; i < n; ++i) m += pl->nodes[i].ninputs > 0 ? pl->nodes[i].ninputs : 0;
    size_t slots = n > 0 ? (size_t)n : 1, edge_slots = m > 0 ? (size_t)m : 1;
    size_t part_slots = pl->npartitions > 0 ? (size_t)pl->npartitions : 1;
    R->cnode_of = BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * slots));
    R->crow_of = BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * slots));
    R->cmembers = BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * slots));
    int *node_of_partition = BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * part_slots));
    int *pairs = BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * 2 * edge_slots));
    int *from = BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * edge_slots));
    int *to = BYOC__SIM_CAST(int *, BYOC_MALLOC(sizeof(int) * edge_slots));
    double *w = BYOC__SIM_CAST(double *, BYOC_MALLOC(sizeof(double) * slots));
    double *h = BYOC__SIM_CAST(double *, BYOC_MALLOC(sizeof(double) * slots));
    byoc_result r = BYOC_OK;
    if (!R->cnode_of || !R->crow_of || !R->cmembers || !node_of_partition || !pairs || !from || !to || !w || !h)
        r = BYOC_ERR_OUT_OF_MEMORY;
    else if (!pl->npartitions)
        snprintf(R->collapsed_why, sizeof R->collapsed_why, "the placement has no partitions to collapse.");
    else {
        byoc__rep_contract(R, node_of_partition, w, h);
        int npairs = 0, nedges = 0;
        for (int i = 0; i < n; ++i)
            for (int q = 0; q < pl->nodes[i].ninputs; ++q) {
                int src = byoc__rep_row(R, pl->nodes[i].inputs[q]);
                if (src < 0 || R->cnode_of[src] == R->cnode_of[i]) continue;
                pairs[2 * npairs] = R->cnode_of[src];
                pairs[2 * npairs++ + 1] = R->cnode_of[i];
            }
        qsort(pairs, (size_t)npairs, 2 * sizeof(int), byoc__rep_by_pair);
        for (int e = 0; e < npairs; ++e) /* one edge per pair of nodes, however many tensors it stands for */
            if (!nedges || pairs[2 * e] != from[nedges - 1] || pairs[2 * e + 1] != to[nedges - 1])
                from[nedges] = pairs[2 * e], to[nedges++] = pairs[2 * e + 1];
        byoc_layout_graph g;
        memset(&g, 0, sizeof g);
        g.nnodes = R->cnodes;
        g.widths = w;
        g.heights = h;
        g.nedges = nedges;
        g.edge_from = from;
        g.edge_to = to;
        byoc_diag d;
        r = byoc_graph_layout(&g, R->in->layout, &R->collapsed, &d);
        R->collapsed_ok = r == BYOC_OK;
        if (r != BYOC_OK && r != BYOC_ERR_OUT_OF_MEMORY) {
            snprintf(R->collapsed_why, sizeof R->collapsed_why,
                     "the graph with each partition contracted to one node cannot be laid out (%.400s).", d.message);
            r = BYOC_OK;
        }
    }
    BYOC_FREE(node_of_partition);
    BYOC_FREE(pairs);
    BYOC_FREE(from);
    BYOC_FREE(to);
    BYOC_FREE(w);
    BYOC_FREE(h);
    return r;
}

BYOC__SIM_PRIVATE void byoc__rep_collapse_free(byoc__rep *R) {
    if (R->collapsed_ok) byoc_layout_free(&R->collapsed);
    BYOC_FREE(R->cnode_of);
    BYOC_FREE(R->crow_of);
    BYOC_FREE(R->cmembers);
}

/* Partition shapes that never overlap. A partition's bounding box can reach over another partition's members
   or a host op when the layout interleaves them (parallel branches whose joins pull their nodes sideways), and
   the layout knows nothing of partitions (Graphviz's clusters and dagre's compound graphs make the layout keep
   each cluster in one contiguous box, at the price of a second ordering problem per cluster). Here the drawing
   adapts instead: a partition whose padded box meets no other partition's box and covers no node but its own is
   that one box; any other is drawn as its runs, the maximal sets of its members side by side in one layer with
   no other op between them. Nodes of a layer are node_gap apart and runs are padded by less than half of it, so
   runs of different partitions never meet; layers are layer_gap apart and a run's top and bottom padding take
   less than the default gap. The label goes in the padding above the box or the partition's first run, cut to
   its width (whole in the hover title and in the collapsed view). */
#define BYOC__REP_PAD 6.0       /* around a partition's members, left, right and below */
#define BYOC__REP_PAD_TOP 18.0  /* above them, for the label */

static int byoc__rep_by_place(const void *a, const void *b) {
    const byoc__rep_member *x = BYOC__SIM_CAST(const byoc__rep_member *, a);
    const byoc__rep_member *y = BYOC__SIM_CAST(const byoc__rep_member *, b);
    if (x->layer != y->layer) return x->layer < y->layer ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}
static int byoc__rep_by_member(const void *a, const void *b) {
    const byoc__rep_member *x = BYOC__SIM_CAST(const byoc__rep_member *, a);
    const byoc__rep_member *y = BYOC__SIM_CAST(const byoc__rep_member *, b);
    if (x->q != y->q) return x->q < y->q ? -1 : 1;
    return byoc__rep_by_place(a, b);
}


BYOC__SIM_PRIVATE int byoc__rep_meets(const double *a, const double *b) {
    return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

BYOC__SIM_PRIVATE void byoc__rep_shapes_free(byoc__rep_shapes *S) {
    BYOC_FREE(S->m);
    BYOC_FREE(S->first);
    BYOC_FREE(S->box);
    BYOC_FREE(S->split);
}

/* the members of each partition in drawing order, their boxes, and which partitions are drawn as runs */
BYOC__SIM_PRIVATE int byoc__rep_shapes_of(const byoc__rep *R, byoc__rep_shapes *S) {
    int n = R->pl->count, np = R->pl->npartitions;
    size_t rows = n > 0 ? (size_t)n : 1, parts = np > 0 ? (size_t)np : 1;
    S->m = BYOC__SIM_CAST(byoc__rep_member *, BYOC_MALLOC(sizeof(byoc__rep_member) * rows));
    S->first = BYOC__SIM_CAST(int *, BYOC_CALLOC(parts + 1, sizeof(int)));
    S->box = BYOC__SIM_CAST(double *, BYOC_MALLOC(sizeof(double) * 4 * parts));
    S->split = BYOC__SIM_CAST(char *, BYOC_CALLOC(parts, 1));
    if (!S->m || !S->first || !S->box || !S->split) return 0;
    for (int i = 0; i < n; ++i) {
        byoc__rep_member *e = &S->m[i];
        e->q = byoc__rep_partition_index(R->pl, R->pl->nodes[i].partition);
        e->layer = R->layout.nodes[i].layer, e->order = R->layout.nodes[i].order, e->row = i;
    }
    qsort(S->m, (size_t)n, sizeof *S->m, byoc__rep_by_place);
    for (int i = 0; i < n; ++i) S->m[i].rank = i && S->m[i - 1].layer == S->m[i].layer ? S->m[i - 1].rank + 1 : 0;
    qsort(S->m, (size_t)n, sizeof *S->m, byoc__rep_by_member);
    int at = 0;
    while (at < n && S->m[at].q < 0) at++;
    for (int q = 0; q <= np; ++q) {
        S->first[q] = at;
        while (q < np && at < n && S->m[at].q == q) at++;
    }
    for (int q = 0; q < np; ++q) {
        double *bx = &S->box[4 * q];
        for (int k = S->first[q]; k < S->first[q + 1]; ++k) {
            const byoc_layout_box *nb = &R->layout.nodes[S->m[k].row];
            int first = k == S->first[q];
            if (first || nb->x - BYOC__REP_PAD < bx[0]) bx[0] = nb->x - BYOC__REP_PAD;
            if (first || nb->y - BYOC__REP_PAD_TOP < bx[1]) bx[1] = nb->y - BYOC__REP_PAD_TOP;
            if (first || nb->x + nb->w + BYOC__REP_PAD > bx[2]) bx[2] = nb->x + nb->w + BYOC__REP_PAD;
            if (first || nb->y + nb->h + BYOC__REP_PAD > bx[3]) bx[3] = nb->y + nb->h + BYOC__REP_PAD;
        }
    }
    for (int q = 0; q < np; ++q) /* boxes that meet another partition's: both are runs */
        for (int r = q + 1; r < np; ++r)
            if (S->first[q] < S->first[q + 1] && S->first[r] < S->first[r + 1] &&
                byoc__rep_meets(&S->box[4 * q], &S->box[4 * r]))
                S->split[q] = S->split[r] = 1;
    for (int i = 0; i < n; ++i) { /* a box over an op of another partition or of the host: runs */
        const byoc_layout_box *nb = &R->layout.nodes[S->m[i].row];
        double node[4] = {nb->x, nb->y, nb->x + nb->w, nb->y + nb->h};
        for (int q = 0; q < np; ++q)
            if (q != S->m[i].q && !S->split[q] && S->first[q] < S->first[q + 1] &&
                byoc__rep_meets(&S->box[4 * q], node))
                S->split[q] = 1;
    }
    return 1;
}

/* a partition's label in the padding above a box from x0 to x1 whose top is y, cut to fit */
BYOC__SIM_PRIVATE void byoc__rep_plabel(byoc__buf *b, const char *whole, double x0, double x1, double y) {
    char label[320];
    snprintf(label, sizeof label, "%s", whole);
    int room = (int)((x1 - x0 - 8) / BYOC__REP_PLABEL_CHAR_W), len = (int)strlen(label);
    if (room < len && room >= 4) label[room - 2] = label[room - 1] = '.', label[room] = 0;
    else if (room < len) label[0] = 0;
    byoc__buf_printf(b, "<text class=\"plabel\" x=\"%.1f\" y=\"%.1f\">", x0 + 4, y + 12);
    byoc__rep_text(b, label);
    byoc__buf_puts(b, "</text>");
}

/* partition q's shape: its box, or its runs (the label above the first) */
BYOC__SIM_PRIVATE void byoc__rep_partition_shape(byoc__rep *R, const byoc__rep_shapes *S, int q, const char *cls,
                                                 const char *label) {
    byoc__buf *b = &R->b;
    const char *rect = "<rect class=\"pbox %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"6\"/>";
    if (!S->split[q]) {
        const double *bx = &S->box[4 * q];
        byoc__buf_printf(b, rect, cls, bx[0], bx[1], bx[2] - bx[0], bx[3] - bx[1]);
        byoc__rep_plabel(b, label, bx[0], bx[2], bx[1]);
        return;
    }
    for (int k = S->first[q], start = k; k < S->first[q + 1]; ++k) {
        const byoc__rep_member *e = &S->m[k];
        if (k + 1 < S->first[q + 1] && e[1].layer == e->layer && e[1].rank == e->rank + 1) continue;
        const byoc_layout_box *l = &R->layout.nodes[S->m[start].row], *r = &R->layout.nodes[e->row];
        double top = start == S->first[q] ? BYOC__REP_PAD_TOP : BYOC__REP_PAD;
        double x0 = l->x - BYOC__REP_PAD, x1 = r->x + r->w + BYOC__REP_PAD, y0 = l->y - top;
        byoc__buf_printf(b, rect, cls, x0, y0, x1 - x0, l->h + top + BYOC__REP_PAD);
        if (start == S->first[q]) byoc__rep_plabel(b, label, x0, x1, y0);
        start = k + 1;
    }
}

/* Control-flow kernels on the timeline. An if or a loop is one kernel whose span covers its bodies' runs; the
   program records each kernel a body ran in the last run as an event (one per kernel and iteration, nested
   bodies included, its start counted from the control kernel's: what byoc_sim_trace writes for Perfetto,
   which nests them under the control slice the same way). The page draws them inset over the control kernel's
   span, each in its device's lane and colour, thinner the deeper it is nested. */
#define BYOC__REP_MAX_BODY_SPANS 20000 /* body kernels drawn in all: the rest are counted below the timeline */
BYOC__SIM_PRIVATE void byoc__rep_body_lanes(const byoc_sim_program *p, int i, byoc__rep_lanes *ls) {
    for (int e = 0; e < p->nevents; ++e)
        if (p->events[e].kernel == i) byoc__rep_lane(ls, p->events[e].where);
}
BYOC__SIM_PRIVATE void byoc__rep_body_spans(byoc__rep *R, byoc__rep_lanes *ls, int i, double scale, int *drawn,
                                            int *skipped) {
    byoc__buf *b = &R->b;
    const byoc_sim_program *p = R->p;
    const byoc_sim_kernel_info *ki = &p->kernels[i].info;
    char t1[64], t2[64];
    for (int e = 0; e < p->nevents; ++e) {
        const byoc__sim_event *ev = &p->events[e];
        if (ev->kernel != i) continue;
        if (*drawn == BYOC__REP_MAX_BODY_SPANS) {
            ++*skipped;
            continue;
        }
        int lane = byoc__rep_lane(ls, ev->where), h = 18 - 6 * (ev->depth < 2 ? ev->depth : 2);
        double w = ev->seconds * scale;
        byoc__buf_printf(b, "<rect class=\"k body\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\">",
                         140 + (ki->sim_start + ev->start) * scale, 20 + lane * 24 + 3 + (18 - h) / 2,
                         w < 0.6 ? 0.6 : w, h, byoc__rep_color(R->pl, ev->where));
        byoc__buf_printf(b, "<title>in #%d, body %d", i, ev->body);
        if (ev->in_loop) byoc__buf_printf(b, ", iteration %lld", (long long)ev->iteration);
        byoc__buf_puts(b, ": ");
        byoc__rep_text(b, ev->name);
        byoc__buf_puts(b, " on ");
        byoc__rep_text(b, ev->where);
        byoc__buf_printf(b, ": %s from %s</title></rect>\n", byoc__rep_us(ev->seconds, t1, sizeof t1),
                         byoc__rep_us(ki->sim_start + ev->start, t2, sizeof t2));
        ++*drawn;
    }
}

/* collapsed node c: a partition's box (g.partition-node) or a host op (g.collapsed-op, whose click shows the
   expanded view's g.node data-ref names); neither is a g.node, so the expanded view keeps one g.node per op */
BYOC__SIM_PRIVATE void byoc__rep_collapsed_node(byoc__rep *R, int c) {
    byoc__buf *b = &R->b;
    const byoc_layout_box *box = &R->collapsed.nodes[c];
    int row = R->crow_of[c];
    if (row >= 0) {
        byoc__buf_printf(b, "<g class=\"collapsed-op\" data-ref=\"%u\"><title>", (unsigned)R->pl->nodes[row].origin);
        byoc__rep_op_shape(R, row, box);
        return;
    }
    const byoc_partition_summary *ps = &R->pl->partitions[-1 - row];
    char name[BYOC__REP_PNODE_CHARS + 1], info[64], cls[16];
    byoc__rep_pnode_lines(ps, R->cmembers[c], name, sizeof name, info, sizeof info);
    int dev = byoc__rep_device_index(R->pl, ps->backend);
    if (dev < 0) snprintf(cls, sizeof cls, "dh");
    else snprintf(cls, sizeof cls, "d%d", dev % BYOC__REP_PALETTE);
    byoc__buf_puts(b, "<g class=\"partition-node\"");
    byoc__rep_attr(b, "data-partition", ps->function);
    byoc__rep_attr(b, "data-backend", ps->backend);
    byoc__buf_puts(b, "><title>");
    byoc__rep_text(b, ps->function);
    byoc__buf_puts(b, " (");
    byoc__rep_text(b, info);
    byoc__buf_printf(b, "): click to expand</title><rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                     "height=\"%.1f\" rx=\"6\"/><text x=\"%.1f\" y=\"%.1f\">", cls, box->x, box->y, box->w, box->h,
                     box->x + 8, box->y + 16);
    byoc__rep_text(b, name);
    byoc__buf_printf(b, "</text><text x=\"%.1f\" y=\"%.1f\">", box->x + 8, box->y + 32);
    byoc__rep_text(b, info);
    byoc__buf_puts(b, "</text></g>\n");
}

/* the collapsed view: an SVG group beside the expanded one, hidden until the page switches to it */
BYOC__SIM_PRIVATE void byoc__rep_collapsed_view(byoc__rep *R) {
    byoc__buf *b = &R->b;
    const byoc_layout *l = &R->collapsed;
    byoc__buf_printf(b,
                     "<g id=\"view-collapsed\" class=\"view\" data-width=\"%.1f\" data-height=\"%.1f\" "
                     "data-nodes=\"%d\" display=\"none\">\n<g class=\"edges\">\n",
                     l->width, l->height, R->cnodes);
    for (int e = 0; e < l->nedges; ++e) {
        const byoc_layout_edge *edge = &l->edges[e];
        byoc__buf_puts(b, "<polyline class=\"edge\" marker-end=\"url(#arrow)\" points=\"");
        for (int q = 0; q < edge->npoints; ++q)
            byoc__buf_printf(b, "%s%.1f,%.1f", q ? " " : "", edge->points[2 * q], edge->points[2 * q + 1]);
        byoc__buf_puts(b, "\"/>\n");
    }
    byoc__buf_puts(b, "</g>\n<g class=\"nodes\">\n");
    for (int c = 0; c < R->cnodes; ++c) byoc__rep_collapsed_node(R, c);
    byoc__buf_puts(b, "</g>\n</g>\n");
}

// [SECTION] sim impl (compiler): the compile pipeline
typedef struct byoc__sim_compile_run {
    const byoc_sim_compile_options *o;
    byoc_sim_compiled *c;
    int stopped; /* the callback returned nonzero */
} byoc__sim_compile_run;

BYOC_SIM_API const char *byoc_sim_compile_stage_name(byoc_sim_compile_stage stage) {
    static const char *const names[] = {"prepare", "place", "target hooks", "host rewrites", "fuse", "lower"};
    return (int)stage >= 0 && (int)stage < (int)(sizeof names / sizeof names[0]) ? names[stage] : "unknown";
}

/* the caller's callback after a stage; BYOC_ERR_INTERNAL when it asks to stop */
BYOC__SIM_PRIVATE byoc_result byoc__sim_compile_stage_done(byoc__sim_compile_run *r, byoc_sim_compile_stage stage,
                                                      const char *pass, byoc_module *m, byoc_diag *diag) {
    if (!r->o->on_stage || r->stopped) return r->stopped ? BYOC_ERR_INTERNAL : BYOC_OK;
    if (!r->o->on_stage(stage, pass, m, r->c, r->o->stage_data)) return BYOC_OK;
    r->stopped = 1;
    return byoc__diag(diag, BYOC_ERR_INTERNAL, 0, 0, 0, "byoc_sim_compile: stopped after %s%s%s",
                      byoc_sim_compile_stage_name(stage), pass ? " " : "", pass ? pass : "");
}

BYOC__SIM_PRIVATE void byoc__sim_compile_after_pass(const char *pass, byoc_module *m, double seconds, void *user_data) {
    byoc__sim_compile_run *r = (byoc__sim_compile_run *)user_data;
    (void)seconds;
    if (!r->stopped && r->o->on_stage(BYOC_SIM_STAGE_PREPARE, pass, m, r->c, r->o->stage_data)) r->stopped = 1;
}

/* byoc_prepare_for_partition, with FakeQuantizationToInteger off under no_fq2i, and the fixed-point requantize */
BYOC__SIM_PRIVATE byoc_result byoc__sim_compile_prepare(byoc_module *m, byoc__sim_compile_run *r, byoc_diag *diag) {
    const byoc_sim_compile_options *o = r->o;
    byoc_pass_context *ctx = byoc_pass_context_create(); /* unverified, as byoc_prepare_for_partition's own */
    if (!ctx) return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
    byoc_pass_context_set_verify(ctx, 0);
    if (o->on_stage) {
        byoc_pass_instrument instrument = {byoc__sim_compile_after_pass, r};
        byoc_pass_context_set_instrument(ctx, &instrument);
    }
    byoc_result res = o->no_fq2i ? byoc_pass_context_set(ctx, "fake_quantization_to_integer.enable", "False", diag)
                                 : BYOC_OK;
    if (res == BYOC_OK) res = byoc_prepare_for_partition(m, ctx, diag);
    if (res == BYOC_OK && o->fixed_point_requantize) res = byoc_requantize_in_fixed_point(m, diag);
    byoc_pass_context_destroy(ctx);
    if (res == BYOC_OK && r->stopped)
        res = byoc__diag(diag, BYOC_ERR_INTERNAL, 0, 0, 0, "byoc_sim_compile: stopped after a preparation pass");
    return res;
}

/* greedy, or the Collage search over the backends' devices (as byocc's --strategy collage) */
BYOC__SIM_PRIVATE byoc_result byoc__sim_compile_place(byoc_module *m, byoc__sim_compile_run *r, byoc_diag *diag) {
    const byoc_sim_compile_options *o = r->o;
    byoc_sim_compiled *c = r->c;
    const byoc_backend_spec **specs =
        (const byoc_backend_spec **)BYOC_MALLOC(sizeof *specs * (size_t)(o->nbackends ? o->nbackends : 1));
    if (!specs) return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
    for (int k = 0; k < o->nbackends; ++k) specs[k] = o->backends[k]->spec;
    byoc_result res;
    byoc_partition_options po;
    if (o->partition) po = *o->partition;
    else memset(&po, 0, sizeof po), po.bind_constants = 1;
    po.backends = specs;
    po.nbackends = o->nbackends;
    if (!o->strategy || !strcmp(o->strategy, "greedy")) {
        res = byoc_partition_greedy(m, &po, &c->placement, diag);
    } else if (!(c->collage = (byoc_collage_stats *)BYOC_CALLOC(1, sizeof *c->collage))) {
        res = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
    } else {
        int measured = o->estimator && !strcmp(o->estimator, "measured");
        byoc_sim_collage_devices devices; /* the estimator's state for this search */
        memset(&devices, 0, sizeof devices);
        devices.backends = (const byoc_sim_backend *const *)o->backends;
        devices.count = o->nbackends;
        devices.cache_file = o->cost_cache;
        byoc_collage_options co;
        memset(&co, 0, sizeof co);
        co.backends = po.backends;
        co.nbackends = po.nbackends;
        co.pins = po.pins;
        co.npins = po.npins;
        co.mod_name = po.mod_name;
        co.bind_constants = po.bind_constants;
        co.cost = measured ? byoc_sim_collage_measured_cost : byoc_sim_collage_cost;
        co.plain_candidates = 1; /* both estimators lower candidates through the device compiler, which sees through
                                    composites */
        co.cost_data = &devices;
        co.max_depth = co.host_max_depth = o->max_depth;
        co.state_budget = o->state_budget;
        co.replay = o->replay;
        co.nreplay = o->nreplay;
        /* the search's two independent steps on two of the program's threads (a pool of its own: the program's
           is made later; none when a thread cannot be started, and the search runs on this one) */
        byoc_sim_pool *pool = o->threads > 1 && !o->replay ? byoc_sim_pool_create(2, NULL, NULL) : NULL;
        byoc_parallel par = byoc_sim_pool_parallel(pool);
        co.parallel = pool ? &par : NULL;
        res = byoc_partition_collage(m, &co, c->collage, &c->placement, diag);
        byoc_sim_pool_destroy(pool);
        c->measured = devices.measured;
        c->cache_hits = devices.cache_hits;
        byoc_sim_collage_devices_release(&devices);
    }
    BYOC_FREE((void *)specs);
    return res;
}

BYOC__SIM_PRIVATE byoc_result byoc__sim_compile_steps(byoc_module *m, byoc__sim_compile_run *r, byoc_diag *diag) {
    const byoc_sim_compile_options *o = r->o;
    byoc_sim_compiled *c = r->c;
    byoc_result res;
    c->failed = BYOC_SIM_STAGE_PREPARE;
    if ((res = byoc__sim_compile_prepare(m, r, diag)) != BYOC_OK) return res;
    if (o->nbackends || o->place_only || o->always_place) {
        c->failed = BYOC_SIM_STAGE_PLACE;
        if ((res = byoc__sim_compile_place(m, r, diag)) != BYOC_OK) return res;
        if ((res = byoc__sim_compile_stage_done(r, BYOC_SIM_STAGE_PLACE, NULL, m, diag)) != BYOC_OK) return res;
    }
    if (o->place_only) return BYOC_OK;
    c->failed = BYOC_SIM_STAGE_TARGET_HOOKS;
    if (o->nbackends) { /* relay_to_tir lowers each partition to a command stream, tir_to_runtime loads its blob */
        const byoc_target **targets = (const byoc_target **)BYOC_MALLOC(sizeof *targets * (size_t)o->nbackends);
        int ntargets = 0;
        if (!targets) return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        for (int k = 0; k < o->nbackends; ++k)
            if (o->backends[k]->target) targets[ntargets++] = o->backends[k]->target;
        res = ntargets ? byoc_run_target_hooks(m, targets, ntargets, diag) : BYOC_OK;
        BYOC_FREE((void *)targets);
        if (res != BYOC_OK) return res;
    }
    if ((res = byoc__sim_compile_stage_done(r, BYOC_SIM_STAGE_TARGET_HOOKS, NULL, m, diag)) != BYOC_OK) return res;
    c->failed = BYOC_SIM_STAGE_HOST_REWRITES;
    if ((res = byoc_host_rewrites(m, NULL, diag)) != BYOC_OK) return res;
    if ((res = byoc__sim_compile_stage_done(r, BYOC_SIM_STAGE_HOST_REWRITES, NULL, m, diag)) != BYOC_OK) return res;
    c->failed = BYOC_SIM_STAGE_FUSE;
    if (!o->no_fuse && (res = byoc_fuse_ops(m, 256, diag)) != BYOC_OK) return res;
    if ((res = byoc__sim_compile_stage_done(r, BYOC_SIM_STAGE_FUSE, NULL, m, diag)) != BYOC_OK) return res;
    c->failed = BYOC_SIM_STAGE_LOWER;
    byoc_sim_options lower;
    memset(&lower, 0, sizeof lower);
    lower.threads = o->threads;
    lower.side_by_side = o->side_by_side;
    if (!(c->program = byoc_sim_lower(m, &lower, diag))) return diag ? diag->code : BYOC_ERR_INTERNAL;
    return byoc__sim_compile_stage_done(r, BYOC_SIM_STAGE_LOWER, NULL, m, diag);
}

BYOC_SIM_API byoc_result byoc_sim_compile(byoc_module *m, const byoc_sim_compile_options *options,
                                          byoc_sim_compiled **out, byoc_diag *diag) {
    byoc_sim_compile_options none;
    if (out) *out = NULL;
    if (!m) return byoc__null_arg(diag, __func__, "module");
    if (!out) return byoc__null_arg(diag, __func__, "out");
    if (!options) memset(&none, 0, sizeof none), options = &none;
    if (options->nbackends < 0 || (options->nbackends && !options->backends))
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                          "byoc_sim_compile: %d backends given without a list", options->nbackends);
    for (int k = 0; k < options->nbackends; ++k)
        if (!options->backends[k]) return byoc__null_arg(diag, __func__, "backend");
    if (options->strategy && strcmp(options->strategy, "greedy") && strcmp(options->strategy, "collage"))
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                          "byoc_sim_compile: strategy '%s' is not one of greedy, collage", options->strategy);
    if (options->estimator && strcmp(options->estimator, "analytic") && strcmp(options->estimator, "measured"))
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                          "byoc_sim_compile: estimator '%s' is not one of analytic, measured", options->estimator);
    byoc_sim_compiled *c = (byoc_sim_compiled *)BYOC_CALLOC(1, sizeof *c);
    if (!c) return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
    byoc__sim_compile_run run = {options, c, 0};
    *out = c;
    return byoc__sim_compile_steps(m, &run, diag);
}

BYOC_SIM_API void byoc_sim_compiled_free(byoc_sim_compiled *c) {
    if (!c) return;
    byoc_sim_program_destroy(c->program);
    byoc_placement_report_free(c->placement);
    if (c->collage) byoc_collage_stats_free(c->collage);
    BYOC_FREE(c->collage);
    BYOC_FREE(c);
}

#endif /* !BYOC_SIM_RUNTIME_ONLY */

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
