/* byoc.h v0.1.0 -- partition neural networks across heterogeneous hardware. MIT license (end of file).

   One C99 header: graph IR, op registry with type relations, the Relay text format, dataflow patterns,
   passes, the BYOC partition pipeline, targets and backends, greedy and cost-driven (Collage) placement,
   and the host kernels. No dependency but stb_ds (Debian: libstb-dev, included as <stb/stb_ds.h>), which
   never appears in the API.

   QUICK START
       #define BYOC_IMPLEMENTATION      // in exactly one C or C++ file
       #include "byoc.h"

       byoc_diag diag;
       byoc_module *m = byoc_module_load("mnist.relay", NULL, &diag);   // + mnist.weights if present
       if (!m || byoc_infer_type(m, &diag) != BYOC_OK) { fprintf(stderr, "%s\n", diag.message); ... }
       char *text = byoc_module_print(m, BYOC_PRINT_TYPES, NULL);
       puts(text);
       byoc_free(m, text);
       byoc_module_destroy(m);                                        // frees every node, type, constant

   Building a graph from C:
       byoc_module *m = byoc_module_create(NULL);
       int64_t shape[4] = {1, 3, 32, 32};
       byoc_node *x = byoc_var(m, "x", byoc_tensor_type(m, BYOC_FLOAT32, 4, shape));
       byoc_node *y = byoc_call(m, "nn.relu", &x, 1, NULL);
       byoc_module_add_function(m, "main", byoc_function(m, &x, 1, y, NULL, NULL));
       if (byoc_module_error(m)) ...   // builder errors are sticky per module: later calls return NULL

   COMPILE-TIME OPTIONS
       BYOC_IMPLEMENTATION            emit the implementation in this translation unit
       BYOC_STATIC                    make every public function static (private copy per file)
       BYOC_API                       override the declaration prefix of public functions
       BYOC_ASSERT(c)                 programmer-error checks (default: assert); bad input never asserts
       BYOC_NO_STB_DS_IMPLEMENTATION  the host program already compiles STB_DS_IMPLEMENTATION itself
       BYOC_STB_DS_PATH               include path of stb_ds (default <stb/stb_ds.h>)
       BYOC_NO_SIMD                   host kernels in plain C loops (no GNU vector extensions)
       BYOC_NO_COMPILER               leave the compiler out of the implementation: patterns, passes,
                                      partitioning, placement, sub-graphs and the Collage search (the IR,
                                      text format, type inference, host kernels, evaluation and runtime
                                      modules stay); calling a function left out fails to link
       BYOC_MALLOC(n), BYOC_CALLOC(n, size), BYOC_REALLOC(p, n), BYOC_FREE(p)
                                      (all four) the heap for what no byoc_allocator covers: scratch of
                                      passes and walks, registries, the default allocator (default: the C library's)
   Memory goes through byoc_allocator {alloc_fn, free_fn, user_data} given at module creation
   (NULL: BYOC_MALLOC/BYOC_FREE). stb_ds's internal scratch arrays use its own STBDS_REALLOC/STBDS_FREE.

   ERRORS
   Fallible calls return byoc_result (0 = BYOC_OK) and fill a caller-owned byoc_diag with a one-line
   message naming the file:line:col or node. There is no global error state. BYOC_ASSERT fires only on
   programmer errors (an out-of-range index into a node you built, an unregistered config key).
   A NULL handle is an error, never a crash: every public function taking a module, graph, node it works
   on, pass context, backend spec or placement report (byoc_sim.h's and byoc_onnx.h's too) returns
   BYOC_ERR_INVALID_ARGUMENT with "byoc_fuse_ops: module is NULL" in diag when it returns a byoc_result,
   NULL when it returns a pointer, 0 from a count or query (-1 from byoc_graph_index, a negative cost from
   an estimator), and a destroy/free call ignores NULL as free does.

   EXTENSION POINTS (what to touch, by symbol)
     an op (built-in)   one record in byoc__builtin_ops ("impl: built-in ops"): its byoc_op_def (attrs
                        byoc__attrs_*, type relation byoc__rel_*, device_class, flops byoc__flops_*,
                        flags) and its host kernel byoc__k_* (+ workspace, + shape function when the data
                        settles its '?' extents); README "Adding an op"
     an op (user)       byoc_op_register(byoc_op_def); no host kernel: a backend must take it
     a backend          a .backend file (byoc_backend_parse/_load), or byoc_backend_register(byoc_backend)
                        with a pattern table, predicates, phase passes and relay_to_tir/tir_to_runtime
                        hooks; target options through byoc_target_kind_register
     a device kind      byoc_sim.h (its EXTENSION POINTS)
     an estimator       byoc_collage_options.cost (byoc_collage_cost_fn) and cost_data
     a pass             byoc_pass_register(byoc_pass) and byoc_pass_context_add_phase_pass; built-ins in
                        byoc__builtin_passes; config keys through byoc_config_key_register

   TABLE OF CONTENTS (each section starts with a "// [SECTION] name" line)
     Public API
       [SECTION] config & platform
       [SECTION] results & diagnostics
       [SECTION] dtypes & types
       [SECTION] attributes
       [SECTION] IR: nodes, functions, modules, builder
       [SECTION] op registry
       [SECTION] type inference
       [SECTION] text format (printer, parser, weights file)
       [SECTION] structural equality, hash, copy, traversal
       [SECTION] patterns
       [SECTION] pass infrastructure
       [SECTION] partition passes
       [SECTION] targets & backends
       [SECTION] placement (greedy partitioner, report)
       [SECTION] sub-graphs (Collage's IndexSet and SubGraph)
       [SECTION] collage (cost-driven partition search)
       [SECTION] host kernels
     Implementation (the core, then the compiler: BYOC_NO_COMPILER leaves out from "impl: dominators" on)
       [SECTION] impl: config & platform
       [SECTION] impl: results & diagnostics
       [SECTION] impl: arena & strings
       [SECTION] impl: dtypes & types
       [SECTION] impl: attributes
       [SECTION] impl: IR builder
       [SECTION] impl: traversal & dataflow graph
       [SECTION] impl: op registry & type relations
       [SECTION] impl: type inference
       [SECTION] impl: text printer
       [SECTION] impl: text parser
       [SECTION] impl: weights file
       [SECTION] impl: structural equality, hash, copy
       [SECTION] impl: host kernels: vector loops and GEMM
       [SECTION] impl: host kernels: elementwise, normalisation, pooling, reductions
       [SECTION] impl: host kernels: data movement, resize, convolutions
       [SECTION] impl: host kernels: math (trigonometric, rounding, bitwise, triangular, scans, determinants)
       [SECTION] impl: host kernels: indexing (arg-reductions, top-k, gather and scatter, one-hot, einsum)
       [SECTION] impl: host kernels: spatial sampling (resize, grid sample, RoI align, unpooling)
       [SECTION] impl: host kernels: N-d windows (1-D and 3-D convolutions and pools)
       [SECTION] impl: host kernels: recurrent and spectral (RNN, LSTM, GRU, DFT, STFT, windows)
       [SECTION] impl: host kernels: losses (negative log-likelihood, softmax cross-entropy)
       [SECTION] impl: host kernels: data-dependent shapes (non-zero, unique, compress, NMS)
       [SECTION] impl: built-in ops (one record each) and running calls
       [SECTION] impl: runtime modules
       [SECTION] impl: dominators
       [SECTION] impl: patterns (build, print, parse)
       [SECTION] impl: pattern matching
       [SECTION] impl: pattern rewrite & partition
       [SECTION] impl: verifier
       [SECTION] impl: pass infrastructure
       [SECTION] impl: MergeComposite, backend files, constraints on matches
       [SECTION] impl: partition passes: annotation, regions, partitioning
       [SECTION] impl: FuseOps, SimplifyInference, FoldConstant, DCE
       [SECTION] impl: targets & backends
       [SECTION] impl: reference evaluation
       [SECTION] impl: placement (greedy partitioner, report)
       [SECTION] impl: sub-graphs
       [SECTION] impl: collage: candidates and their prices
       [SECTION] impl: collage: the search, applying a plan, placement files
*/
#ifndef BYOC_H_INCLUDED
#define BYOC_H_INCLUDED

// [SECTION] config & platform
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

#define BYOC_VERSION_MAJOR 0
#define BYOC_VERSION_MINOR 1
#define BYOC_VERSION_PATCH 0
#define BYOC_VERSION_NUM (BYOC_VERSION_MAJOR * 10000 + BYOC_VERSION_MINOR * 100 + BYOC_VERSION_PATCH)
#define BYOC_VERSION_STRING "0.1.0"

#ifndef BYOC_API
#ifdef BYOC_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define BYOC_API static __attribute__((unused))
#else
#define BYOC_API static
#endif
#else
#define BYOC_API extern
#endif
#endif

#define BYOC_MAX_RANK 8
#define BYOC_MAX_BACKEND_NAME 64 /* characters of a backend's name (it goes into partition function names) */
#define BYOC_DIM_UNKNOWN (-1) /* an unknown (dynamic) dimension; printed as '?' */
#define BYOC_DIM_ANY BYOC_DIM_UNKNOWN /* Relay's name for it (Any): text `Tensor[(?, 4), float32]` */
#define BYOC_MAX_DIM 2147483647 /* larger extents are rejected: shape arithmetic stays in int64 */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct byoc_allocator {
    void *(*alloc_fn)(size_t size, void *user_data);
    void (*free_fn)(void *ptr, void *user_data);
    void *user_data;
} byoc_allocator;

// [SECTION] results & diagnostics
#define BYOC_RESULT_LIST(X)                                    \
    X(BYOC_OK, "ok")                                           \
    X(BYOC_ERR_OUT_OF_MEMORY, "out of memory")                 \
    X(BYOC_ERR_IO, "i/o error")                                \
    X(BYOC_ERR_PARSE, "parse error")                           \
    X(BYOC_ERR_TYPE, "type error")                             \
    X(BYOC_ERR_UNKNOWN_OP, "unknown op")                       \
    X(BYOC_ERR_ATTR, "invalid attribute")                      \
    X(BYOC_ERR_INVALID_ARGUMENT, "invalid argument")           \
    X(BYOC_ERR_UNSUPPORTED, "unsupported")                     \
    X(BYOC_ERR_DUPLICATE, "duplicate definition")              \
    X(BYOC_ERR_NOT_FOUND, "not found")                         \
    X(BYOC_ERR_CORRUPT, "corrupt or mismatched file")          \
    X(BYOC_ERR_INTERNAL, "internal error")

typedef enum byoc_result {
#define BYOC__RESULT_ENUM(code, text) code,
    BYOC_RESULT_LIST(BYOC__RESULT_ENUM)
#undef BYOC__RESULT_ENUM
    BYOC_RESULT_COUNT
} byoc_result;

#define BYOC_DIAG_MESSAGE_MAX 1024

/* Filled by every fallible call that takes one (may be NULL). message is a complete one-line text,
   e.g. "model.relay:12:7: expected ')' but found ','" or "nn.conv2d %3: input has 16 channels,
   weight expects 8". line/col are 1-based (0 when the error has no text position); node_id is the
   IR node concerned (0 when none). */
typedef struct byoc_diag {
    byoc_result code;
    int line, col;
    uint32_t node_id;
    char message[BYOC_DIAG_MESSAGE_MAX];
} byoc_diag;

BYOC_API const char *byoc_result_str(byoc_result r);

// [SECTION] dtypes & types
#define BYOC_DTYPE_LIST(X)                  \
    X(BYOC_FLOAT32, "float32", 4, 'f')      \
    X(BYOC_FLOAT16, "float16", 2, 'f')      \
    X(BYOC_BFLOAT16, "bfloat16", 2, 'f')    \
    X(BYOC_INT8, "int8", 1, 'i')            \
    X(BYOC_UINT8, "uint8", 1, 'u')          \
    X(BYOC_INT16, "int16", 2, 'i')          \
    X(BYOC_INT32, "int32", 4, 'i')          \
    X(BYOC_INT64, "int64", 8, 'i')          \
    X(BYOC_BOOL, "bool", 1, 'b')            \
    X(BYOC_FLOAT64, "float64", 8, 'f')      \
    X(BYOC_UINT16, "uint16", 2, 'u')        \
    X(BYOC_UINT32, "uint32", 4, 'u')        \
    X(BYOC_UINT64, "uint64", 8, 'u')

typedef enum byoc_dtype {
    BYOC_DTYPE_INVALID = 0,
#define BYOC__DTYPE_ENUM(code, name, size, cls) code,
    BYOC_DTYPE_LIST(BYOC__DTYPE_ENUM)
#undef BYOC__DTYPE_ENUM
    BYOC_DTYPE_COUNT
} byoc_dtype;

BYOC_API const char *byoc_dtype_name(byoc_dtype dt);
BYOC_API byoc_dtype byoc_dtype_from_name(const char *name); /* BYOC_DTYPE_INVALID if unknown */
BYOC_API size_t byoc_dtype_size(byoc_dtype dt);
BYOC_API int byoc_dtype_is_float(byoc_dtype dt);

typedef enum byoc_type_kind { BYOC_TYPE_TENSOR = 1, BYOC_TYPE_TUPLE, BYOC_TYPE_FUNC } byoc_type_kind;

/* Types are immutable and owned by a module (or the op registry); compare with byoc_type_equal. */
typedef struct byoc_type {
    byoc_type_kind kind;
    byoc_dtype dtype;                      /* tensor */
    int rank;                              /* tensor: 0..BYOC_MAX_RANK */
    int64_t dims[BYOC_MAX_RANK];           /* tensor: BYOC_DIM_UNKNOWN for a dynamic dim */
    int nfields;                           /* tuple fields, or function params */
    const struct byoc_type *const *fields; /* tuple fields, or function param types */
    const struct byoc_type *ret;           /* function result */
} byoc_type;

typedef struct byoc_module byoc_module;

BYOC_API const byoc_type *byoc_tensor_type(byoc_module *m, byoc_dtype dt, int rank, const int64_t *dims);
BYOC_API const byoc_type *byoc_tuple_type(byoc_module *m, const byoc_type *const *fields, int n);
BYOC_API const byoc_type *byoc_func_type(byoc_module *m, const byoc_type *const *params, int n, const byoc_type *ret);
BYOC_API int byoc_type_equal(const byoc_type *a, const byoc_type *b);
BYOC_API int byoc_type_is_static(const byoc_type *t);   /* no unknown dims anywhere */
BYOC_API int64_t byoc_type_num_elements(const byoc_type *t); /* tensor only; -1 if dynamic or above INT64_MAX */
/* Writes e.g. "Tensor[(1, 3, 224, 224), float32]"; returns the length it needed (snprintf-like). */
BYOC_API int byoc_type_to_string(const byoc_type *t, char *buf, size_t cap);

// [SECTION] attributes
typedef enum byoc_attr_kind {
    BYOC_ATTR_NONE = 1,   /* the value None (an optional attribute left unset) */
    BYOC_ATTR_INT = 2,
    BYOC_ATTR_FLOAT = 4,
    BYOC_ATTR_STRING = 8,
    BYOC_ATTR_BOOL = 16,
    BYOC_ATTR_INT_LIST = 32,  /* flat, or a list of equal-length lists when inner > 0 */
    BYOC_ATTR_FLOAT_LIST = 64
} byoc_attr_kind;

typedef struct byoc_attr_value {
    byoc_attr_kind kind;
    int64_t i;          /* INT, BOOL (0/1) */
    double f;           /* FLOAT */
    const char *s;      /* STRING */
    const int64_t *ints;/* INT_LIST */
    const double *floats;/* FLOAT_LIST */
    int count;          /* list length (number of scalars) */
    int inner;          /* INT_LIST: > 0 means nested, count/inner rows of inner values */
} byoc_attr_value;

typedef struct byoc_attr {
    const char *name;
    byoc_attr_value value;
} byoc_attr;

/* An attribute set. Built by the byoc_attrs_set_* calls (storage in the module's arena). */
typedef struct byoc_attrs {
    const byoc_attr *items;
    int count;
} byoc_attrs;

BYOC_API void byoc_attrs_set_int(byoc_module *m, byoc_attrs *a, const char *name, int64_t v);
BYOC_API void byoc_attrs_set_float(byoc_module *m, byoc_attrs *a, const char *name, double v);
BYOC_API void byoc_attrs_set_string(byoc_module *m, byoc_attrs *a, const char *name, const char *v);
BYOC_API void byoc_attrs_set_bool(byoc_module *m, byoc_attrs *a, const char *name, int v);
BYOC_API void byoc_attrs_set_none(byoc_module *m, byoc_attrs *a, const char *name);
BYOC_API void byoc_attrs_set_ints(byoc_module *m, byoc_attrs *a, const char *name, const int64_t *v, int n);
BYOC_API void byoc_attrs_set_floats(byoc_module *m, byoc_attrs *a, const char *name, const double *v, int n);
BYOC_API void byoc_attrs_set(byoc_module *m, byoc_attrs *a, const char *name, const byoc_attr_value *v);
BYOC_API const byoc_attr_value *byoc_attrs_get(const byoc_attrs *a, const char *name);
/* Typed getters with a fallback for absent/None values. */
BYOC_API int64_t byoc_attrs_int(const byoc_attrs *a, const char *name, int64_t fallback);
BYOC_API double byoc_attrs_float(const byoc_attrs *a, const char *name, double fallback);
BYOC_API const char *byoc_attrs_string(const byoc_attrs *a, const char *name, const char *fallback);
BYOC_API int byoc_attr_value_equal(const byoc_attr_value *a, const byoc_attr_value *b);

// [SECTION] IR: nodes, functions, modules, builder
typedef enum byoc_node_kind {
    BYOC_NODE_VAR = 1,
    BYOC_NODE_CONSTANT,
    BYOC_NODE_CALL,
    BYOC_NODE_TUPLE,
    BYOC_NODE_TUPLE_GET_ITEM,
    BYOC_NODE_FUNCTION,
    BYOC_NODE_GLOBAL_VAR
} byoc_node_kind;

/* Where a node came from: a frontend node name ("onnx:conv1") and/or a text position. */
typedef struct byoc_span {
    const char *source; /* frontend node name, NULL if none; printed as / * span=... * / */
    const char *file;   /* text file it was parsed from, NULL if built in code */
    int line, col;
} byoc_span;

typedef struct byoc_op byoc_op;

/* One IR node. Nodes are immutable once built (checked_type is a cache filled by byoc_infer_type, or
   by a pass for a node it built whose type it knows);
   passes build new nodes. All storage belongs to the module. Fields by kind:
     VAR            name, annotation (the declared type, may be NULL)
     CONSTANT       annotation (tensor type), data (owned copy, byoc_constant_nbytes bytes)
     CALL           op (operator call) or callee (function, var or global var), args/nargs, attrs
     TUPLE          args/nargs are the fields
     TUPLE_GET_ITEM args[0] is the tuple, index
     FUNCTION       params/nparams, body, annotation (declared result type, may be NULL), attrs
     GLOBAL_VAR     name (a module function) */
typedef struct byoc_node {
    /* the fields traversals read come first, in one 64-byte span, in the order a walk reads them: the
       mark and id of a node it meets, then what it takes to enter the node */
    uint64_t walk_mark; /* internal: set by graph walks (a module is used by one thread at a time) */
    uint32_t id;        /* unique within the module, > 0 */
    byoc_node_kind kind;
    int nargs;
    int nparams;
    struct byoc_node **args;
    struct byoc_node *callee;
    struct byoc_node *body;
    const byoc_type *checked_type;
    const byoc_op *op;
    int index;
    uint32_t origin; /* id of the node this one was rebuilt from by a pass (transitively); 0: an original */
    struct byoc_node **params;
    byoc_attrs attrs;
    const char *name;
    const byoc_type *annotation;
    void *data;
    /* where the node comes from, NULL if nowhere known (byoc_node_span never returns NULL); nodes a
       pass rebuilds from one node share its span */
    const byoc_span *span;
} byoc_node;

typedef struct byoc_global_function {
    const char *name;
    byoc_node *function;
} byoc_global_function;

BYOC_API byoc_module *byoc_module_create(const byoc_allocator *allocator);
BYOC_API void byoc_module_destroy(byoc_module *m);
/* The first builder error since creation (or since byoc_module_clear_error), NULL if none; for a NULL
   module, a BYOC_ERR_INVALID_ARGUMENT diag saying so. */
BYOC_API const byoc_diag *byoc_module_error(const byoc_module *m);
BYOC_API void byoc_module_clear_error(byoc_module *m);
BYOC_API byoc_result byoc_module_add_function(byoc_module *m, const char *name, byoc_node *function);
/* Replaces (or adds) a function under name. */
BYOC_API byoc_result byoc_module_set_function(byoc_module *m, const char *name, byoc_node *function);
BYOC_API byoc_node *byoc_module_function(const byoc_module *m, const char *name);
BYOC_API int byoc_module_function_count(const byoc_module *m);
BYOC_API byoc_global_function byoc_module_function_at(const byoc_module *m, int i);
BYOC_API uint32_t byoc_module_node_count(const byoc_module *m); /* nodes ever built in it */
/* Memory from the module's allocator; release it with byoc_free (destroy does not). */
BYOC_API void *byoc_alloc(byoc_module *m, size_t size);
BYOC_API void byoc_free(byoc_module *m, void *ptr);
/* A string interned in the module (lives as long as it). */
BYOC_API const char *byoc_intern(byoc_module *m, const char *s);

/* Builder. Each returns NULL on error (and records it, see byoc_module_error); any NULL input
   makes the result NULL, so a chain of builder calls needs one check at the end. */
BYOC_API byoc_node *byoc_var(byoc_module *m, const char *name, const byoc_type *type);
BYOC_API byoc_node *byoc_constant(byoc_module *m, const byoc_type *tensor_type, const void *data, size_t nbytes);
BYOC_API byoc_node *byoc_constant_scalar(byoc_module *m, byoc_dtype dt, double value);
BYOC_API byoc_node *byoc_call(byoc_module *m, const char *op_name, byoc_node *const *args, int nargs,
                              const byoc_attrs *attrs);
BYOC_API byoc_node *byoc_call_op(byoc_module *m, const byoc_op *op, byoc_node *const *args, int nargs,
                                 const byoc_attrs *attrs);
BYOC_API byoc_node *byoc_call_function(byoc_module *m, byoc_node *callee, byoc_node *const *args, int nargs);
BYOC_API byoc_node *byoc_tuple(byoc_module *m, byoc_node *const *fields, int n);
BYOC_API byoc_node *byoc_tuple_get_item(byoc_module *m, byoc_node *tuple, int index);
BYOC_API byoc_node *byoc_function(byoc_module *m, byoc_node *const *params, int nparams, byoc_node *body,
                                  const byoc_type *ret_type, const byoc_attrs *attrs);
BYOC_API byoc_node *byoc_global_var(byoc_module *m, const char *name);
BYOC_API void byoc_node_set_span(byoc_module *m, byoc_node *n, const char *source, const char *file, int line, int col);
BYOC_API const byoc_span *byoc_node_span(const byoc_node *n); /* an empty span when n has none */
BYOC_API size_t byoc_constant_nbytes(const byoc_node *c);    /* bytes of a constant's data */
/* The id of the original node n stands for: passes that rebuild a node keep its span and origin, so
   placements and reports can name nodes of the module as it was before partitioning. */
BYOC_API uint32_t byoc_node_origin(const byoc_node *n);
/* Helpers for constants. */
BYOC_API float byoc_constant_f32(const byoc_node *c, int64_t i); /* element i converted to float */

// [SECTION] op registry
typedef enum byoc_op_pattern { /* TVM's OpPatternKind, same values */
    BYOC_PATTERN_ELEMWISE = 0,
    BYOC_PATTERN_BROADCAST = 1,
    BYOC_PATTERN_INJECTIVE = 2,
    BYOC_PATTERN_COMM_REDUCE = 3,
    BYOC_PATTERN_OUT_ELEMWISE_FUSABLE = 4,
    BYOC_PATTERN_TUPLE = 7,
    BYOC_PATTERN_OPAQUE = 8
} byoc_op_pattern;

BYOC_API const char *byoc_op_pattern_name(byoc_op_pattern p);

/* One attribute of an op: accepted kinds (a mask of byoc_attr_kind) and the default written in the
   text syntax ("[1, 1]", "\"NCHW\"", "None", "0.5f"); default_text NULL makes it required. */
typedef struct byoc_attr_spec {
    const char *name;
    unsigned kinds;
    const char *default_text;
} byoc_attr_spec;

typedef struct byoc_type_rel_ctx byoc_type_rel_ctx;

/* A type relation: the result type from the argument types and the (complete, checked) attributes,
   or NULL after byoc_type_rel_fail. Argument types are never NULL. */
typedef const byoc_type *(*byoc_type_rel_fn)(byoc_type_rel_ctx *ctx, const byoc_type *const *args, int nargs,
                                             const byoc_attrs *attrs);

/* How a device's datapath computes an op: the layer class a device kind maps it to (byoc_sim.h's device
   kinds say which classes, and which ops of a class, they run). NONE: never a device layer. */
typedef enum byoc_op_class {
    BYOC_OP_CLASS_NONE = 0,
    BYOC_OP_CLASS_CONV2D,        /* a MAC-array convolution */
    BYOC_OP_CLASS_DENSE,         /* a MAC-array matrix product */
    BYOC_OP_CLASS_POOL2D,        /* windowed pooling */
    BYOC_OP_CLASS_GLOBAL_POOL2D, /* pooling over H and W */
    BYOC_OP_CLASS_ELEMWISE,      /* elementwise and broadcast arithmetic, activations */
    BYOC_OP_CLASS_SOFTMAX,       /* softmax-like: a reduction and an elementwise pass along one axis */
    BYOC_OP_CLASS_LAYER_NORM,    /* normalisation along one axis */
    BYOC_OP_CLASS_REDUCE,        /* reductions over axes */
    BYOC_OP_CLASS_TRANSPOSE      /* axis permutations */
} byoc_op_class;

/* Facts about an op that lowering and the runtime rely on (byoc_op_def.flags). */
enum {
    BYOC_OP_VIEW = 1,            /* the result is the input's bytes under another shape: lowered as a view */
    BYOC_OP_ANNOTATION = 2,      /* passes its argument through; FoldConstant leaves it alone */
    BYOC_OP_RESHAPES = 4,        /* a BROADCAST-pattern op whose result shape is not its inputs' broadcast */
    BYOC_OP_AXIS_OPERAND = 8,    /* the second argument is 1-D along the attribute `axis` (bias, slope) */
    BYOC_OP_READS_SHAPE_ONLY = 16 /* reads its argument's shape, never its data */
};

/* Float operations of one call with inferred types, for the host model and the search's costs. Ops that
   only move data return 0 (their bytes are counted apart). */
typedef double (*byoc_op_flops_fn)(const byoc_node *call);

/* One op: everything the library knows about it (README "Adding an op"). A built-in op is one record
   in byoc.h's table of built-in ops: this definition plus its host kernel. */
typedef struct byoc_op_def {
    const char *name;
    int min_args, max_args; /* max_args -1: variadic */
    byoc_op_pattern pattern;
    const byoc_attr_spec *attrs;
    int nattrs;
    byoc_type_rel_fn type_rel;
    void *user_data;
    const char *doc;
    byoc_op_class device_class; /* the device layer class; 0 (NONE): not a device op */
    byoc_op_flops_fn flops;     /* NULL: one per result element for ELEMWISE and BROADCAST ops, else 0 */
    unsigned flags;             /* BYOC_OP_VIEW, ... */
} byoc_op_def;

struct byoc_op {
    byoc_op_def def;
    byoc_attrs defaults; /* parsed default_text of every attribute, in spec order */
    int builtin;         /* 1 + index of its record among the built-in ops (0: a user op); a built-in's type
                            relation reads argument types and attributes only */
};

BYOC_API const byoc_op *byoc_op_get(const char *name); /* NULL if unknown */
BYOC_API const char *byoc_op_class_name(byoc_op_class c);
/* Float operations of one call: its op's flops model, or the default for ops without one. */
BYOC_API double byoc_op_flops(const byoc_node *call);
BYOC_API int byoc_op_count(void);
BYOC_API const byoc_op *byoc_op_at(int i);
/* Registers a user op (copied; strings must stay valid). Fails on a duplicate name or a default that
   does not parse or does not fit its kinds. Not thread-safe against concurrent lookups. */
BYOC_API byoc_result byoc_op_register(const byoc_op_def *def, byoc_diag *diag);
/* Checks attrs against op's schema and returns the complete set (defaults filled, ints widened to
   floats where a float is expected). Error names the op and attribute. */
BYOC_API byoc_result byoc_op_check_attrs(byoc_module *m, const byoc_op *op, const byoc_attrs *given,
                                         byoc_attrs *out, byoc_diag *diag);

/* For type relations. */
BYOC_API const byoc_type *byoc_type_rel_tensor(byoc_type_rel_ctx *ctx, byoc_dtype dt, int rank, const int64_t *dims);
BYOC_API const byoc_type *byoc_type_rel_tuple(byoc_type_rel_ctx *ctx, const byoc_type *const *fields, int n);
BYOC_API const byoc_type *byoc_type_rel_fail(byoc_type_rel_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
BYOC_API void *byoc_type_rel_user_data(byoc_type_rel_ctx *ctx);
BYOC_API const byoc_node *byoc_type_rel_call(byoc_type_rel_ctx *ctx);

// [SECTION] type inference
/* Fills checked_type on every node of every function. On the first mismatch returns BYOC_ERR_TYPE
   with a message naming the node (as the printer numbers it), its span, the op and the reason. */
BYOC_API byoc_result byoc_infer_type(byoc_module *m, byoc_diag *diag);
/* Types one node whose inputs are typed already (a frontend typing each call as it builds it, to read
   shapes); errors as byoc_infer_type's, the node named by its span. */
BYOC_API byoc_result byoc_infer_node_type(byoc_module *m, byoc_node *n, byoc_diag *diag);

// [SECTION] text format (printer, parser, weights file)
enum {
    BYOC_PRINT_TYPES = 1,     /* append / * ty=... * / after each binding */
    BYOC_PRINT_NO_SPANS = 2,  /* omit / * span=... * / comments */
    BYOC_PRINT_NO_HEADER = 4  /* omit the #[version = "0.0.5"] line */
};

/* Text of the module, NUL-terminated, from byoc_alloc (free with byoc_free). Constants that are not
   finite scalars print as meta[relay.Constant][i] with i in first-use order; the weights file written
   by byoc_module_save_weights uses the same numbering. */
BYOC_API char *byoc_module_print(byoc_module *m, unsigned flags, size_t *len);
BYOC_API char *byoc_node_print(byoc_module *m, const byoc_node *expr, unsigned flags, size_t *len);
/* The name the printer gives n inside the global function scope: "%3", "%x", "@f", "constant", or
   "result" for an unbound result expression. Costs one print of scope; meant for messages. */
BYOC_API void byoc_node_label(byoc_module *m, const byoc_node *scope, const byoc_node *n, char *out, size_t cap);
/* Every node the printer numbers inside the global function scope (function literals in it included), with
   its number k (label "%k"): the labels of a whole function for the cost of one print. */
BYOC_API byoc_result byoc_function_labels(byoc_module *m, const byoc_node *scope,
                                          void (*visit)(const byoc_node *n, int number, void *user_data),
                                          void *user_data);

typedef struct byoc_parse_options {
    const byoc_allocator *allocator; /* NULL: malloc */
    const void *weights;             /* contents of a weights file, or NULL */
    size_t weights_size;
    const char *weights_name;        /* for messages */
    uint64_t seed;                   /* seed for constants with no weights (0: default seed) */
    int require_weights;             /* error instead of seeded values when weights are missing */
} byoc_parse_options;

/* Parses Relay text. filename is used in messages (may be NULL). Returns NULL with diag filled. */
BYOC_API byoc_module *byoc_module_parse(const char *text, size_t len, const char *filename,
                                        const byoc_parse_options *opts, byoc_diag *diag);
/* Reads a .relay file; if opts gives no weights and PATH.weights (the path with ".relay" replaced by
   ".weights") exists, loads it. */
BYOC_API byoc_module *byoc_module_load(const char *path, const byoc_parse_options *opts, byoc_diag *diag);
/* Writes the module's printed text to path, and its constants to the matching .weights file when it
   has any (see byoc_module_save_weights). */
BYOC_API byoc_result byoc_module_save(byoc_module *m, const char *path, unsigned flags, byoc_diag *diag);
/* Weights file: see README "Weights file". */
BYOC_API byoc_result byoc_module_save_weights(byoc_module *m, const char *path, byoc_diag *diag);
/* The same bytes in memory (from byoc_alloc; free with byoc_free). NULL only when out of memory. */
BYOC_API void *byoc_module_weights_serialize(byoc_module *m, size_t *size);
/* Parses only a type ("Tensor[(1, 3), float32]") or an attribute value ("[1, 2]") -- used by tools. */
BYOC_API const byoc_type *byoc_type_parse(byoc_module *m, const char *text, byoc_diag *diag);
BYOC_API byoc_result byoc_attr_value_parse(byoc_module *m, const char *text, byoc_attr_value *out, byoc_diag *diag);

// [SECTION] structural equality, hash, copy, traversal
/* Graph equality up to variable renaming (params are matched by position, free vars by first use),
   ignoring spans and checked types; constants compare by dtype, shape and bytes. */
BYOC_API int byoc_structural_equal(const byoc_node *a, const byoc_node *b);
BYOC_API uint64_t byoc_structural_hash(const byoc_node *n);
/* Same function names with structurally equal functions. */
BYOC_API int byoc_module_structural_equal(const byoc_module *a, const byoc_module *b);
/* Copies expr (and everything it reaches) into dst, which may be its own module. */
BYOC_API byoc_node *byoc_deep_copy(byoc_module *dst, const byoc_node *expr);
BYOC_API byoc_module *byoc_module_clone(const byoc_module *m, const byoc_allocator *allocator);

/* Dataflow view of one expression: nodes in post-DFS order (inputs before users), with inputs and
   users as indices. Nested function bodies are not entered unless BYOC_GRAPH_ENTER_FUNCTIONS; a
   function node's input is then its body. */
enum { BYOC_GRAPH_ENTER_FUNCTIONS = 1 };
typedef struct byoc_graph_node {
    byoc_node *node;
    int *inputs;  /* distinct indices, argument order */
    int ninputs;
    int *users;   /* distinct indices, ascending */
    int nusers;
} byoc_graph_node;

typedef struct byoc_graph {
    byoc_graph_node *nodes;
    int count;
    byoc_module *module;
    void *index_map; /* internal: node -> index */
    int *dense;      /* internal: node id - dense_base -> index, when the graph's ids are distinct */
    uint32_t dense_base, dense_count;
    int *edge_pool;  /* internal: storage of every inputs/users list */
} byoc_graph;

BYOC_API byoc_result byoc_graph_build(byoc_module *m, byoc_node *root, unsigned flags, byoc_graph *out);
BYOC_API int byoc_graph_index(const byoc_graph *g, const byoc_node *n); /* -1 if not in the graph */
BYOC_API void byoc_graph_free(byoc_graph *g);
/* The direct inputs of a node in graph terms (args, then the callee if it is a node; tuple_get_item's tuple;
   a function's body). Returns the count, writes at most cap. */
BYOC_API int byoc_node_inputs(const byoc_node *n, byoc_node **out, int cap);

/* Immediate post-dominators of a graph's nodes: ipdom[i] is the first node that every path from node i
   to the graph's result passes through, or -1 for the result itself. out has g->count entries. */
BYOC_API byoc_result byoc_graph_post_dominators(const byoc_graph *g, int *ipdom);

// [SECTION] patterns
/* Dataflow patterns with the semantics of TVM's DFPattern language. Pattern nodes live in a module's
   arena (any module: a backend usually keeps one just for its patterns). A pattern node used twice
   must match the same expression both times (one binding per pattern node). */
typedef enum byoc_pattern_kind {
    BYOC_PAT_WILDCARD = 1, /* wildcard(): anything */
    BYOC_PAT_EXPR,         /* is_expr(e): structurally equal to e */
    BYOC_PAT_VAR,          /* is_var("x") / is_var(): a var (with that name) */
    BYOC_PAT_CONSTANT,     /* is_constant() */
    BYOC_PAT_OP,           /* is_op("nn.relu"): an operator, as the callee of a call pattern */
    BYOC_PAT_CALL,         /* callee(args...): a call; nargs -1 matches any arguments */
    BYOC_PAT_TUPLE,        /* is_tuple([...]); nargs -1 matches any tuple */
    BYOC_PAT_TUPLE_GET_ITEM, /* is_tuple_get_item(p, i); index -1 matches any index */
    BYOC_PAT_ALT,          /* p | q: left first */
    BYOC_PAT_ATTR,         /* p.has_attr({...}): call, function or op attributes ("TOpPattern") */
    BYOC_PAT_DTYPE,        /* p.has_dtype("float32") */
    BYOC_PAT_SHAPE,        /* p.has_shape([1, 64, 56, 56]); '?' an unknown dimension, '*' any */
    BYOC_PAT_TYPE,         /* p.has_type("Tensor[(1, 8), float32]") */
    BYOC_PAT_DOMINATOR     /* dominates(parent, path, child) */
} byoc_pattern_kind;

typedef struct byoc_pattern {
    byoc_pattern_kind kind;
    uint32_t id;
    const char *name;            /* VAR: name to match, "" for any */
    const byoc_op *op;           /* OP */
    const byoc_node *expr;       /* EXPR */
    struct byoc_pattern *inner;  /* CALL: callee; ATTR/DTYPE/SHAPE/TYPE: the constrained pattern; DOMINATOR: child */
    struct byoc_pattern *
        *args; /* CALL args, TUPLE fields, TUPLE_GET_ITEM args[0]; DOMINATOR: args[0] parent, args[1] path */
    int nargs;                   /* -1: any */
    int index;                   /* TUPLE_GET_ITEM; -1 any */
    struct byoc_pattern *left, *right; /* ALT */
    byoc_attrs attrs;            /* ATTR */
    byoc_dtype dtype;            /* DTYPE */
    const byoc_type *type;       /* SHAPE (dtype ignored), TYPE */
    uint32_t any_dims;           /* SHAPE: bit i set: dimension i is '*' (any size; type->dims[i] unused) */
} byoc_pattern;

/* Builders (NULL on error, recorded in the module like the IR builder; NULL inputs give NULL). */
BYOC_API byoc_pattern *byoc_pat_wildcard(byoc_module *m);
BYOC_API byoc_pattern *byoc_pat_expr(byoc_module *m, const byoc_node *e);
BYOC_API byoc_pattern *byoc_pat_var(byoc_module *m, const char *name); /* NULL or "" matches any var */
BYOC_API byoc_pattern *byoc_pat_constant(byoc_module *m);
BYOC_API byoc_pattern *byoc_pat_op(byoc_module *m, const char *op_name);
BYOC_API byoc_pattern *byoc_pat_call(byoc_module *m, byoc_pattern *callee, byoc_pattern *const *args, int nargs);
/* is_op(name)(args...) in one call */
BYOC_API byoc_pattern *byoc_pat_call_op(byoc_module *m, const char *op_name, byoc_pattern *const *args, int nargs);
BYOC_API byoc_pattern *byoc_pat_tuple(byoc_module *m, byoc_pattern *const *fields, int nfields);
BYOC_API byoc_pattern *byoc_pat_tuple_get_item(byoc_module *m, byoc_pattern *tuple, int index);
BYOC_API byoc_pattern *byoc_pat_alt(byoc_module *m, byoc_pattern *left, byoc_pattern *right);
/* p.optional(f) == p | f(p), where f is a callee pattern such as is_op("nn.relu") */
BYOC_API byoc_pattern *byoc_pat_optional(byoc_module *m, byoc_pattern *p, byoc_pattern *callee);
BYOC_API byoc_pattern *byoc_pat_has_attr(byoc_module *m, byoc_pattern *p, const byoc_attrs *attrs);
BYOC_API byoc_pattern *byoc_pat_has_dtype(byoc_module *m, byoc_pattern *p, byoc_dtype dt);
/* dims: sizes, BYOC_DIM_UNKNOWN (text '?') to match only an unknown dimension (TVM's Any), or
   BYOC_DIM_WILDCARD (text '*') to match any dimension, known or not */
#define BYOC_DIM_WILDCARD (-2)
BYOC_API byoc_pattern *byoc_pat_has_shape(byoc_module *m, byoc_pattern *p, int rank, const int64_t *dims);
BYOC_API byoc_pattern *byoc_pat_has_type(byoc_module *m, byoc_pattern *p, const byoc_type *t);
BYOC_API byoc_pattern *byoc_pat_dominates(byoc_module *m, byoc_pattern *parent, byoc_pattern *path,
                                          byoc_pattern *child);

/* Parses TVM's Python spelling: wildcard(), is_op("add")(x, y), is_var("x"), is_constant(),
   is_expr(1f), is_tuple([a, b]), is_tuple_get_item(p, 0), p | q, p.optional(is_op("nn.relu")),
   p.optional(lambda x: is_op("nn.bias_add")(x, wildcard())),
   p.has_attr({"groups": 1}), p.has_dtype("float32"), p.has_shape([1, 8]), p.has_type("..."),
   dominates(parent, path, child). Lines "name = pattern" bind names for reuse; the last line (or
   the binding named `pattern` if the text ends with bindings only) is the result. Errors give line:col. */
BYOC_API byoc_pattern *byoc_pattern_parse(byoc_module *m, const char *text, size_t len, const char *filename,
                                          byoc_diag *diag);
/* The pattern in the syntax above (names bindings of shared nodes); from byoc_alloc. */
BYOC_API char *byoc_pattern_print(byoc_module *m, const byoc_pattern *p);

typedef struct byoc_match byoc_match;
/* Matches p against expr. g is the dataflow graph that contains expr (needed by dominates() and by
   callers that group matches; may be NULL otherwise). With out, the bindings are returned (free with
   byoc_match_free). Types must be inferred for has_dtype/has_shape/has_type. */
BYOC_API int byoc_pattern_match(const byoc_pattern *p, byoc_node *expr, const byoc_graph *g, byoc_match **out);
BYOC_API byoc_node *byoc_match_get(const byoc_match *mt, const byoc_pattern *p); /* NULL if p is unbound */
BYOC_API void byoc_match_free(byoc_match *mt);

/* Rewrite: every match (roots visited outputs-first, matches never overlap) is offered to fn, which
   returns the replacement, or NULL to keep the original. Repeats until nothing changes (at most
   max_iterations rounds; 0 means 16). Returns the new expression (expr itself if nothing matched). */
typedef byoc_node *(*byoc_rewrite_fn)(byoc_module *m, byoc_node *root, const byoc_match *match, void *user_data);
BYOC_API byoc_node *byoc_pattern_rewrite(byoc_module *m, const byoc_pattern *p, byoc_node *expr, byoc_rewrite_fn fn,
                                         void *user_data, int max_iterations);
/* Partition: each match becomes a call of a function holding the matched nodes, whose params are the
   match's inputs, with attrs plus PartitionedFromPattern="<label>". check (may be NULL) vetoes a match. */
typedef int (*byoc_match_check_fn)(const byoc_match *match, byoc_node *root, void *user_data);
BYOC_API byoc_node *byoc_pattern_partition(byoc_module *m, const byoc_pattern *p, byoc_node *expr,
                                           const byoc_attrs *attrs, byoc_match_check_fn check, void *user_data);

// [SECTION] pass infrastructure
/* The phases at which backends add passes (TVM's UMA phases). */
typedef enum byoc_phase {
    BYOC_PHASE_PRE_PARTITIONING = 0,
    BYOC_PHASE_POST_PARTITIONING_0,
    BYOC_PHASE_POST_PARTITIONING_1,
    BYOC_PHASE_TIR_0,
    BYOC_PHASE_TIR_1,
    BYOC_PHASE_TIR_2,
    BYOC_PHASE_TIR_3,
    BYOC_PHASE_COUNT
} byoc_phase;
BYOC_API const char *byoc_phase_name(byoc_phase phase);

typedef struct byoc_pass_context byoc_pass_context;
typedef byoc_result (*byoc_pass_fn)(byoc_module *m, byoc_pass_context *ctx, void *user_data, byoc_diag *diag);

typedef struct byoc_pass {
    const char *name;
    int opt_level;         /* skipped when above the context's opt level (default 2) */
    const char *required;  /* comma-separated passes that must have run first; run on demand */
    byoc_pass_fn run;      /* NULL for a sequential pass */
    const char *sequence;  /* sequential pass: comma-separated passes run in order */
    void *user_data;
    const char *doc;
} byoc_pass;

/* Registry of passes by name (built-ins plus yours; strings must outlive the registry). */
BYOC_API byoc_result byoc_pass_register(const byoc_pass *pass, byoc_diag *diag);
BYOC_API const byoc_pass *byoc_pass_get(const char *name);
BYOC_API int byoc_pass_count(void);
BYOC_API const byoc_pass *byoc_pass_at(int i);

/* Typed configuration keys, e.g. "fuse_ops.max_depth" (int, 256). Unknown keys and values of the
   wrong kind are errors naming the key. */
typedef struct byoc_config_key {
    const char *name;
    byoc_attr_kind kind;
    const char *default_text; /* in attribute syntax */
    const char *doc;
} byoc_config_key;
BYOC_API byoc_result byoc_config_key_register(const byoc_config_key *key, byoc_diag *diag);
BYOC_API int byoc_config_key_count(void);
BYOC_API const byoc_config_key *byoc_config_key_at(int i);

/* Called after every pass that ran, with its wall time. */
typedef struct byoc_pass_instrument {
    void (*after_pass)(const char *pass, byoc_module *m, double seconds, void *user_data);
    void *user_data;
} byoc_pass_instrument;

typedef struct byoc_pass_timing { const char *pass; double seconds; } byoc_pass_timing;

BYOC_API byoc_pass_context *byoc_pass_context_create(void);
BYOC_API void byoc_pass_context_destroy(byoc_pass_context *ctx);
BYOC_API void byoc_pass_context_set_opt_level(byoc_pass_context *ctx, int level);
/* value_text in attribute syntax: "128", "True", "\"npu\"", "[1, 2]"; a string key also takes a plain word (npu) */
BYOC_API byoc_result byoc_pass_context_set(byoc_pass_context *ctx, const char *key, const char *value_text,
                                           byoc_diag *diag);
/* A config value (ctx NULL: the registered default); key must be registered. */
BYOC_API int64_t byoc_pass_context_int(const byoc_pass_context *ctx, const char *key);
BYOC_API double byoc_pass_context_float(const byoc_pass_context *ctx, const char *key);
BYOC_API const char *byoc_pass_context_string(const byoc_pass_context *ctx, const char *key);
/* Run byoc_verify after every pass (on by default); a failure names the pass that broke the IR. */
BYOC_API void byoc_pass_context_set_verify(byoc_pass_context *ctx, int on);
BYOC_API void byoc_pass_context_set_instrument(byoc_pass_context *ctx, const byoc_pass_instrument *instrument);
/* Wall time of every pass run with this context, in order. */
BYOC_API const byoc_pass_timing *byoc_pass_context_timings(const byoc_pass_context *ctx, int *count);
/* Passes a backend adds to a phase; byoc_run_phase runs them in order. */
BYOC_API byoc_result byoc_pass_context_add_phase_pass(byoc_pass_context *ctx, byoc_phase phase, const char *pass,
                                                      byoc_diag *diag);
BYOC_API byoc_result byoc_run_phase(byoc_module *m, byoc_phase phase, byoc_pass_context *ctx, byoc_diag *diag);

/* Runs passes by name, in order (a comma-separated list is accepted in each name). */
BYOC_API byoc_result byoc_run_passes(byoc_module *m, const char *const *names, int count, byoc_pass_context *ctx,
                                     byoc_diag *diag);

/* Checks that the module is well formed: every var is bound by an enclosing function, every global
   referenced exists, no node depends on itself, and (with BYOC_VERIFY_TYPED) every node has a type. */
enum { BYOC_VERIFY_TYPED = 1 };
BYOC_API byoc_result byoc_verify(byoc_module *m, unsigned flags, byoc_diag *diag);


// [SECTION] partition passes
/* One row of a pattern table: composite name (conventionally "<backend>.<name>"), pattern, and an
   optional check that can veto a match (its nodes stay claimed, as in TVM). */
typedef struct byoc_pattern_entry {
    const char *name;
    const byoc_pattern *pattern;
    byoc_match_check_fn check;
    void *user_data;
} byoc_pattern_entry;

/* MergeComposite: for each entry in order, every match becomes a call of a function with
   Composite="<name>" and PartitionedFromPattern="<label>"; earlier entries win. Functions that carry
   a Compiler attribute are left alone. Types are inferred before, between and after the entries. */
BYOC_API byoc_result byoc_merge_composite(byoc_module *m, const byoc_pattern_entry *table, int count, byoc_diag *diag);

/* One condition an op must meet on a backend, with the reason shown when it fails. subject names what
   is tested: "dtype", "rank", "shape[i]" (i may be negative), "elements" of the first argument;
   "argK.dtype" etc. of argument K; "out.dtype" etc. of the result; "attr.NAME" an attribute (its
   default when not given). cmp is one of == != < <= > >= in. */
typedef struct byoc_op_constraint {
    const char *subject;
    const char *cmp;
    byoc_attr_value value; /* INT, FLOAT or STRING, or for "in" an INT_LIST/FLOAT_LIST or strings in `strings` */
    const char *const *strings;
    int nstrings;
    const char *reason;
} byoc_op_constraint;

/* A C predicate over one call: returns 1 to accept, or 0 and writes the reason. */
typedef int (*byoc_op_predicate_fn)(const byoc_node *call, void *user_data, char *reason, size_t cap);

/* An op a backend runs on its own, with the conditions it needs. */
typedef struct byoc_op_support {
    const char *op;
    const byoc_op_constraint *constraints;
    int nconstraints;
    byoc_op_predicate_fn predicate; /* may be NULL */
    void *user_data;
} byoc_op_support;

/* How the cost-driven search (byoc_partition_collage) grows a backend's candidates from its single ops and
   composites: ARBITRARY unions any touching ones (a compiler that takes whole sub-graphs), TVM by TVM's
   kind rules (an elementwise or broadcast consumer joins a producer up to out_elemwise_fusable), NONE
   keeps each op or composite alone. */
typedef enum byoc_fusion_style { BYOC_FUSION_ARBITRARY = 0, BYOC_FUSION_TVM, BYOC_FUSION_NONE } byoc_fusion_style;

/* A backend description (see README "Backend files"): name, ordered patterns, supported ops with
   their constraints. byoc_backend_parse/load fill it from a .backend file; C code may fill one too. */
typedef struct byoc_backend_spec {
    const char *name;
    const char *file;
    const char *kind;             /* device model ("npu", "dsp", ...); the name when not given */
    int priority;                 /* higher is tried first; equal priorities keep the given order */
    byoc_pattern_entry *patterns; /* names are "<backend>.<pattern name>" */
    int npatterns;
    byoc_op_support *support;     /* ops the backend runs one at a time */
    int nsupport;
    byoc_attrs options;           /* device parameters ("option NAME VALUE" lines) */
    byoc_fusion_style fusion;     /* how the cost-driven search combines its ops ("fusion STYLE [DEPTH]") */
    int fusion_max_depth;         /* deepest combined candidate (0: the search's default) */
    byoc_module *arena;           /* owns the patterns and strings (NULL for a spec built in C) */
    int kind_given;               /* 1 when a `kind` line named the kind (else it is the name) */
    int kind_line,
        kind_col; /* where the kind is named: the `kind` line's word, else the backend's name (0: not from a file) */
    int library;  /* 1: `kind library`: no device; its partitions run on the host through its own kernels */
    const char *const *dtypes; /* `dtypes` line: the dtypes every tensor of an op it takes must have (NULL: any), which
                                     also set the device's (byoc_sim.h) */
    int ndtypes;
    int dynamic_shapes; /* `dynamic_shapes` line: it takes ops whose types have '?' extents (else they stay
                           on the host, with that reason in the placement report) */
} byoc_backend_spec;

BYOC_API byoc_backend_spec *byoc_backend_parse(const char *text, size_t len, const char *filename, byoc_diag *diag);
BYOC_API byoc_backend_spec *byoc_backend_load(const char *path, byoc_diag *diag);
BYOC_API void byoc_backend_free(byoc_backend_spec *b);
BYOC_API int byoc_backend_supports_op(const byoc_backend_spec *b, const char *op_name);
/* Does the backend take this op call as it is (op listed, every constraint and predicate met)? When
   not, reason (if given) says why: "unsupported op" or e.g. "groups=32 (grouped convolution is not
   supported)". Types must be inferred. The same checks bind every op call of a match of the backend's
   patterns wherever the library applies them (greedy, Collage, merge_composite with the pass context's
   backends, byoc_backend_partition): a match that breaks one is not formed. */
BYOC_API int byoc_backend_accepts(const byoc_backend_spec *b, const byoc_node *call, char *reason, size_t cap);
/* AnnotateTarget: marks every op call with the first backend (in priority order) that supports it, or
   "default", by wrapping each argument use in annotation.compiler_end(…, arg target) and
   annotation.compiler_begin(…, this target). A Composite function call goes to the backend named by
   the part of its Composite attribute before the first '.'. Functions with Compiler are skipped. */
BYOC_API byoc_result byoc_annotate_target(byoc_module *m, const byoc_backend_spec *const *backends, int count,
                                          int include_non_call_ops, byoc_diag *diag);
/* MergeCompilerRegions: merges neighbouring regions of one target unless a path between them leaves
   through another target's region (which would make the partition cyclic), then drops the
   begin(end(x)) pairs that now sit inside one region. */
BYOC_API byoc_result byoc_merge_compiler_regions(byoc_module *m, byoc_diag *diag);
/* PartitionGraph: every non-default region becomes a global function
   tvmgen_<mod_name>_<target>_main_<id> with Primitive=1, Compiler, global_symbol and Inline=1,
   called from where the region was; several outputs come back as a tuple. With bind_constants,
   constant inputs are moved into the function. "default" annotations are removed. */
BYOC_API byoc_result byoc_partition_graph(byoc_module *m, const char *mod_name, int bind_constants, byoc_diag *diag);
/* FuseOps with TVM's OpPatternKind rules: producers fuse into their post-dominator when the kinds on
   every path allow it (elementwise/broadcast chains, injective chains, one out_elemwise_fusable anchor
   such as conv2d followed by elementwise ops), at most max_depth ops per group (TVM's default is 256;
   below 2 nothing fuses, as with TVM's max_depth 0 or opt level 0, and every op is alone). Every group
   of op calls becomes a call of fn(p0, ...) { ... } with Primitive=1. annotation.stop_fusion is
   opaque, so nothing fuses across it, and it is erased from the result. Functions with Compiler or
   Primitive are left alone. */
BYOC_API byoc_result byoc_fuse_ops(byoc_module *m, int max_depth, byoc_diag *diag);
/* SimplifyInference: nn.batch_norm(...).0 becomes x * scale + shift (computed once when gamma, beta,
   mean and var are constants), its .1/.2 become the moving mean/var, and nn.dropout(x).0 becomes x. */
BYOC_API byoc_result byoc_simplify_inference(byoc_module *m, byoc_diag *diag);
/* FoldScaleAxis (TVM's backward folding): a per-channel constant scale applied to a convolution's or a
   dense layer's output, multiply(nn.conv2d(x, W), s) or multiply(add(nn.conv2d(x, W), b), s), becomes
   nn.conv2d(x, W * s) (and add(..., b * s)): the scale moves into the constant weights, so a batch norm
   that SimplifyInference turned into a scale and a shift leaves only the shift (a bias). It applies when
   W, s (and b) are float constants, s (and b) vary along the output channel only (NCHW/OIHW conv2d; the
   last axis of nn.dense), and nothing else reads the convolution (or the add). */
BYOC_API byoc_result byoc_fold_scale_axis(byoc_module *m, byoc_diag *diag);
/* The preparation every placement runs first, as TVM's partition_for_* functions do: SimplifyInference,
   FoldConstant, FoldScaleAxis, FoldConstant (the registered sequential pass "prepare_for_partition").
   byocc partition, run and compile call it before byoc_partition_greedy or byoc_partition_collage; a C
   program that calls it too places a model exactly as byocc does. ctx may be NULL (then no verifier
   runs between the passes); a context's instrument sees each of the four passes. */
BYOC_API byoc_result byoc_prepare_for_partition(byoc_module *m, byoc_pass_context *ctx, byoc_diag *diag);
/* FoldConstant: a call whose arguments are all constants (concatenate's tuple: of constants) is run
   by its op's host kernel (byoc_kernel_run) and replaced by the result, a constant or, for a tuple
   result (split, nn.batch_norm, nn.dropout), a tuple of constants whose projections fold too.
   shape_of folds whenever its input's type is static. Left as they are: annotations, ops without a
   kernel for their dtypes or attributes, and results above 2^22 elements. */
BYOC_API byoc_result byoc_fold_constant(byoc_module *m, byoc_diag *diag);
/* DCE: drops global functions that @main does not reach (the graph form has no dead bindings). */
BYOC_API byoc_result byoc_dead_code_elimination(byoc_module *m, byoc_diag *diag);
/* Backends the built-in partition passes use (in priority order); the context does not own them. */
BYOC_API byoc_result byoc_pass_context_add_backend(byoc_pass_context *ctx, const byoc_backend_spec *b, byoc_diag *diag);

// [SECTION] targets & backends
/* Target kinds: a name with typed options and their defaults (UMA's target attributes). Option kinds
   are BYOC_ATTR_INT, _FLOAT, _STRING or _BOOL; every option needs a default. These names are reserved
   for the target itself: kind, keys, libs, device, model, tag, host, mattr, mcpu, mtriple. */
typedef struct byoc_target_option {
    const char *name;
    byoc_attr_kind kind;
    const char *default_text; /* in attribute syntax: 256, 1.5, "text", True */
    const char *doc;
} byoc_target_option;

BYOC_API byoc_result byoc_target_kind_register(const char *kind, const byoc_target_option *options, int count,
                                               byoc_diag *diag);
BYOC_API int byoc_target_kind_exists(const char *kind);

/* A target: a kind with a value for each of its options. */
typedef struct byoc_target {
    const char *kind;
    byoc_attrs attrs;   /* every option, as given or by default */
    byoc_module *arena; /* owns the strings */
} byoc_target;

/* Parses TVM's spelling: "npu -sram_kb=256 -macs=512" (a bool option may be given as "-flag"). */
BYOC_API byoc_target *byoc_target_parse(const char *text, byoc_diag *diag);
BYOC_API void byoc_target_free(byoc_target *t);
/* The target whose hook is running (NULL outside hooks): what TVM's Target.current() gives. */
BYOC_API const byoc_target *byoc_target_current(void);

/* RelayToTIR as TVM runs it: a pass over the module for one global function whose Compiler names the
   backend's kind, run with that target current. It may rewrite or replace the function. */
typedef byoc_result (*byoc_relay_to_tir_fn)(byoc_module *m, const char *function_name, void *user_data,
                                            byoc_diag *diag);

/* A compiled partition, what TVM's TIRToRuntime returns: run computes the function's result from its
   arguments (constants of the module m), release frees state when the module is destroyed. */
typedef struct byoc_runtime_module {
    const char *name;
    byoc_result (*run)(void *state, byoc_module *m, byoc_node *const *args, int nargs, byoc_node **result,
                       byoc_diag *diag);
    void *state;
    void (*release)(void *state);
} byoc_runtime_module;
/* TIRToRuntime: builds the runtime module of one function (after relay_to_tir), target current. */
typedef byoc_result (*byoc_tir_to_runtime_fn)(byoc_module *m, const char *function_name, void *user_data,
                                              byoc_runtime_module *out, byoc_diag *diag);
/* Attaches a runtime module to a global function (the module releases it); byoc_module_evaluate then
   runs calls of that function through it. NULL if the function has none. */
BYOC_API byoc_result byoc_module_set_runtime(byoc_module *m, const char *function_name, const byoc_runtime_module *rm,
                                             byoc_diag *diag);
BYOC_API const byoc_runtime_module *byoc_module_runtime(const byoc_module *m, const char *function_name);

typedef struct byoc_phase_pass {
    byoc_phase phase;
    const char *pass; /* a registered pass */
} byoc_phase_pass;

/* A backend registered from C (UMA's workflow: create, register, partition). spec.name is the target
   kind and the Compiler attribute; spec's patterns become the pattern table "<name>.<pattern>". */
typedef struct byoc_backend {
    byoc_backend_spec spec;
    const byoc_target_option *options;
    int noptions;
    const byoc_phase_pass *passes;
    int npasses;
    byoc_relay_to_tir_fn relay_to_tir;
    byoc_tir_to_runtime_fn tir_to_runtime;
    /* RelayToRuntime (optional): straight from the partition to a runtime module, for backends with
       their own compiler; used for a function when tir_to_runtime is not given. */
    byoc_tir_to_runtime_fn relay_to_runtime;
    /* Estimated seconds to run one partition (a global function with this Compiler) on target; a
       negative value means unknown. Placement reports show it per partition. May be NULL. */
    double (*estimate_cost)(byoc_module *m, const byoc_node *function, const byoc_target *target, void *user_data);
    void *user_data;
    int no_merge_regions; /* UMA's merge_compiler_regions=False */
} byoc_backend;

/* Registers the backend and creates its target kind (errors as UMA's: a duplicate kind, an option
   without a default, of a kind other than int/float/string/bool, or with a reserved name). The
   backend struct must outlive its registration. */
BYOC_API byoc_result byoc_backend_register(const byoc_backend *backend, byoc_diag *diag);
BYOC_API const byoc_backend *byoc_backend_get(const char *name);
/* The registered pattern table of a backend (NULL with *count 0 when there is none). */
BYOC_API const byoc_pattern_entry *byoc_pattern_table(const char *backend, int *count);

/* A value for one of @main's parameters, bound before partitioning. */
typedef struct byoc_param {
    const char *name;
    byoc_node *value; /* a constant of the same module */
} byoc_param;

/* UMA's partition: bind params; PRE_PARTITIONING passes; MergeComposite (its pattern table);
   AnnotateTarget (its op support); MergeCompilerRegions (unless no_merge_regions); PartitionGraph;
   POST_PARTITIONING_0 and _1 passes. */
BYOC_API byoc_result byoc_backend_partition(byoc_module *m, const char *backend, const byoc_param *params, int nparams,
                                            byoc_diag *diag);
/* Runs each target's registered relay_to_tir hook, then its tir_to_runtime hook (or, without one,
   relay_to_runtime; the result is attached with byoc_module_set_runtime), on every function whose Compiler
   names the target's kind, with that target current (once per kind: the first target of a kind wins). */
BYOC_API byoc_result byoc_run_target_hooks(byoc_module *m, const byoc_target *const *targets, int count,
                                           byoc_diag *diag);

/* Reference evaluation of @main on constant inputs (one per parameter), calling global functions
   and function literals as it goes (a function with a runtime module runs through it). Every op runs
   through its host kernel (byoc_kernel_run); an op, dtype or attribute without one is
   BYOC_ERR_UNSUPPORTED naming the op. *output receives the result (a constant, or a tuple of
   constants). Dynamic shapes: an input fits a parameter whose type has '?' wherever it has any extent;
   a call whose types hold '?' gets its concrete result type at run time (its type relation applied to
   the argument values' types, then the op's shape function for data-dependent extents such as
   argwhere's count) and its result is allocated then. */
BYOC_API byoc_result byoc_module_evaluate(byoc_module *m, byoc_node *const *inputs, int ninputs, byoc_node **output,
                                          byoc_diag *diag);

// [SECTION] placement (greedy partitioner, report)
/* Pin a node to a backend: node is its frontend name ("onnx:conv1"), its printer label in @main of the
   input ("%3"), or "#ID" with its id; backend is a backend's name or "host". */
typedef struct byoc_pin {
    const char *node;
    const char *backend;
} byoc_pin;

typedef struct byoc_partition_options {
    const byoc_backend_spec *const *backends; /* tried by descending priority, then in this order */
    int nbackends;
    const byoc_pin *pins;
    int npins;
    int no_fallback;        /* an op no backend takes is an error that names every backend's reason */
    int min_partition_ops;  /* smaller partitions go back to the next backend in line (0: no minimum) */
    int max_partitions;     /* at most this many partitions in all; the largest are kept (0: no limit) */
    int no_merge_regions;   /* skip MergeCompilerRegions (one partition per op or composite) */
    const char *mod_name;   /* NULL: "default" */
    int bind_constants;
} byoc_partition_options;

typedef struct byoc_placement_decline {
    const char *backend;
    const char *reason;
} byoc_placement_decline;

/* Where one op of the input module ended up, and why not higher up the priority list. */
typedef struct byoc_placement {
    uint32_t origin;          /* its node id in the input module (byoc_node_origin of its copies) */
    const char *function;     /* the input function it is in */
    const char *label;        /* its printer label there ("%3"; "result" for the returned expression) */
    const char *op;
    const char *source;       /* frontend name, NULL if none */
    const char *backend;      /* the backend it runs on, or "host" */
    const char *partition;    /* the global function it was moved to, NULL on the host */
    const char *composite;    /* the Composite function it belongs to, NULL if none */
    const byoc_placement_decline *declined; /* backends tried before the chosen one, with their reasons */
    int ndeclined;
    const uint32_t *inputs;   /* origins of the ops whose results it reads */
    int ninputs;
} byoc_placement;

typedef struct byoc_partition_summary {
    const char *function;
    const char *backend;
    int nops;
    double estimated_cost; /* seconds, from the registered backend's estimate_cost; negative: unknown */
} byoc_partition_summary;

typedef struct byoc_placement_report {
    const byoc_placement *nodes; /* every op of the input, in post-order */
    int count;
    const byoc_partition_summary *partitions;
    int npartitions;
    const char *const *backends; /* in the order tried, then "host" */
    int nbackends;
    byoc_module *arena;          /* owns everything above */
    const char *const
        *backend_notes; /* per backend: "a library backend: host kernels" or NULL (the summary shows it) */
} byoc_placement_report;

/* Greedy multi-backend partitioning, UMA's flow once per backend in priority order: MergeComposite
   with its patterns, AnnotateTarget (per-op support, constraints, pins), MergeCompilerRegions,
   PartitionGraph. Partitions below min_partition_ops or beyond max_partitions are undone and their ops
   offered to the next backend; what no backend takes stays on the host. Partitions are acyclic.
   With report, the placement of every op is returned (free with byoc_placement_report_free). */
BYOC_API byoc_result byoc_partition_greedy(byoc_module *m, const byoc_partition_options *options,
                                           byoc_placement_report **report, byoc_diag *diag);
/* The report as text: format "report" (a table and a summary line), "json" (schema in the README) or
   "dot" (Graphviz, one coloured cluster per partition). From byoc_alloc(r->arena): free with
   byoc_free(r->arena, text). NULL for an unknown format. */
BYOC_API char *byoc_placement_report_format(const byoc_placement_report *r, const char *format, size_t *len);
BYOC_API void byoc_placement_report_free(byoc_placement_report *r);

// [SECTION] sub-graphs (Collage's IndexSet and SubGraph)
/* Sets of a byoc_graph's node indices: a bitset of `size` bits (Collage's IndexSet). Functions that take
   two sets need equal sizes. */
typedef struct byoc_index_set {
    uint64_t *words; /* (size + 63) / 64 words, malloc'd */
    int size;
} byoc_index_set;
BYOC_API byoc_result byoc_index_set_init(byoc_index_set *s, int size); /* empty; BYOC_ERR_OUT_OF_MEMORY */
BYOC_API byoc_result byoc_index_set_copy(byoc_index_set *dst, const byoc_index_set *src);
BYOC_API void byoc_index_set_free(byoc_index_set *s);
BYOC_API void byoc_index_set_add(byoc_index_set *s, int i);
BYOC_API void byoc_index_set_remove(byoc_index_set *s, int i);
BYOC_API int byoc_index_set_has(const byoc_index_set *s, int i);
BYOC_API int byoc_index_set_count(const byoc_index_set *s);
BYOC_API int byoc_index_set_next(const byoc_index_set *s, int from); /* the first member >= from, -1 if none */
BYOC_API int byoc_index_set_intersects(const byoc_index_set *a, const byoc_index_set *b);
BYOC_API int byoc_index_set_is_subset(const byoc_index_set *a, const byoc_index_set *b); /* a within b */
BYOC_API void byoc_index_set_union(byoc_index_set *dst, const byoc_index_set *src);
/* A total order (Collage's tie-break between equal costs): the smaller set is the one holding the lowest
   index the other lacks; 0 when equal. */
BYOC_API int byoc_index_set_compare(const byoc_index_set *a, const byoc_index_set *b);

/* A sub-graph of a byoc_graph: the nodes inside and where it meets the rest (Collage's SubGraph).
   Entries are inside nodes with an input outside (or none at all); inputs are those outside nodes.
   Exits are inside nodes with a user outside, or the graph's result; outputs are those outside users.
   A tap is an exit that inside nodes also use. Depth counts the nodes on the longest path inside; kind is
   the most general op pattern kind of its calls, tuples and projections. */
typedef struct byoc_sub_graph {
    byoc_index_set inside, entry, exit, input, output;
    int first, last; /* the lowest and highest index inside, -1 when empty */
    int depth, taps;
    byoc_op_pattern kind;
    char label[64];
} byoc_sub_graph;
/* Limits a sub-graph must keep (Collage's SubGraphConfig): 0 means no limit for max_exits and max_depth. */
typedef struct byoc_sub_graph_config {
    int max_exits;
    int allow_taps;
    int max_depth;
} byoc_sub_graph_config;
BYOC_API byoc_result byoc_sub_graph_init(const byoc_graph *g, const byoc_index_set *inside, const char *label,
                                         byoc_sub_graph *out);
BYOC_API void byoc_sub_graph_free(byoc_sub_graph *sg);
/* 1 when the sub-graph is non-empty, convex (no path leaves it and comes back) and keeps the config's
   limits; else 0 with why. */
BYOC_API int byoc_sub_graph_is_valid(const byoc_graph *g, const byoc_sub_graph *sg, const byoc_sub_graph_config *config,
                                     char *why, size_t cap);
/* 1 when a and b are disjoint, one's output is inside the other, and their union is convex */
BYOC_API int byoc_sub_graph_are_touching(const byoc_graph *g, const byoc_sub_graph *a, const byoc_sub_graph *b);
/* The disjoint union of a and b (labels joined with '+'); BYOC_ERR_INVALID_ARGUMENT when they overlap. */
BYOC_API byoc_result byoc_sub_graph_union(const byoc_graph *g, const byoc_sub_graph *a, const byoc_sub_graph *b,
                                          byoc_sub_graph *out);

// [SECTION] collage (cost-driven partition search)
/* Collage (TVM's cost-driven partitioner, seed 002), exact over its candidate space and never worse than
   greedy by construction. Over @main's dataflow graph:
     candidates  each backend's composite matches (overlaps allowed) and single ops it accepts, grown by its
                 fusion style (Combine: unions of touching candidates, valid sub-graphs of one exit and at most
                 max_depth deep); the host's single ops grown by TVM's kind rules; tuples and projections on
                 the host at no cost; and every partition of the greedy plan and of each single-backend plan.
     costs       the estimator prices each candidate once per structural key (its ops, attributes and types,
                 constants by type, and the backend): a device candidate's price includes moving its inputs in
                 and its outputs out and its launch, so crossing a device boundary costs what the device model
                 says it costs, and the sum over a plan's candidates is the plan's cost.
     search      Dijkstra over covered sets: from a state, only candidates whose first node is the first
                 uncovered node extend it. States are ordered by cost, then by covered set (the set holding the
                 lowest index the other lacks first), so ties resolve the same way every run. A state stores its
                 first uncovered node and the covered nodes after it (no bitset of the graph). Past state_budget
                 states, each first-uncovered node keeps at most beam_width states (statistics: beam).
     result      the cheapest plan whose partitions form no cycle; touching partitions of one backend are then
                 coalesced where that does not cost more (MaxCoalesce). The greedy, every single-backend and the
                 all-host plan are searched in the same space; the statistics carry their costs, and the result
                 is never above the cheapest of them. */
typedef struct byoc_collage_candidate {
    const char *backend;           /* a backend's name, or "host" */
    const byoc_backend_spec *spec; /* NULL for the host */
    byoc_node *function;           /* fn(its inputs) { its nodes }: constants bound, several exits as a tuple */
    int nops;                      /* op calls inside */
    const char *rule;              /* how it was made: a composite's name ("npu.conv2d_bias"), "op", "combine",
                                      "host", "greedy", "only" (a single-backend plan), "coalesce", "placement" */
    uint64_t key;                  /* structural key with the backend: equal keys are priced once */
} byoc_collage_candidate;
/* Seconds to run candidate c where it says; negative, NaN or infinite: it cannot run there (dropped). */
typedef double (*byoc_collage_cost_fn)(byoc_module *m, const byoc_collage_candidate *c, void *user_data);

/* The mock estimator of TVM's tests: the i-th op call of a candidate (from 0) costs base * 0.9^i, base being
   the backend's entry ("host" for the host); a backend without one cannot run anything. */
typedef struct byoc_collage_mock {
    const char *const *names;
    const double *base;
    int count;
} byoc_collage_mock;
BYOC_API double byoc_collage_mock_cost(byoc_module *m, const byoc_collage_candidate *c, void *user_data);

/* One op of a plan: its origin (byoc_node_origin in @main), where it runs, and its candidate: ops with the
   same backend and group form one partition (on the host: one candidate the search priced as a fused group).
   byoc_collage_stats gives the plan found; a replayed plan is checked against the module. */
typedef struct byoc_collage_assignment {
    uint32_t origin;
    const char *op;      /* its op, checked on replay (NULL: not checked) */
    const char *backend; /* a backend's name or "host" */
    int group;           /* 1, 2, ... in plan order */
    const char *greedy;  /* stats only: where the greedy plan put it (NULL without baselines) */
    const char *source;  /* stats only: its frontend name, NULL if none */
} byoc_collage_assignment;

typedef struct byoc_collage_options {
    const byoc_backend_spec *const *backends;
    int nbackends;
    byoc_collage_cost_fn cost; /* required: byoc_sim_collage_cost, byoc_sim_collage_measured_cost, the mock, or yours */
    void *cost_data;
    const byoc_pin *pins;      /* a pinned op is only covered by candidates of its backend */
    int npins;
    int max_depth;             /* of combined candidates where the backend gives none (0: 8) */
    int host_max_depth;        /* of the host's combined candidates (0: 8) */
    int max_candidates;        /* per backend, combining stops there (0: 50000) */
    int state_budget;          /* states before the beam takes over (0: 1 << 20) */
    int beam_width;            /* states kept per first-uncovered node past the budget (0: 16) */
    int no_baselines;          /* skip the greedy and single-backend plans (their candidates and costs) */
    int plain_candidates;      /* candidates' functions hold plain ops, no composites: faster, for estimators
                                  that see through composites (byoc_sim_collage_cost does) */
    const byoc_collage_assignment *replay; /* place as given instead of searching */
    int nreplay;
    const char *mod_name;      /* NULL: "default" */
    int bind_constants;
} byoc_collage_options;

typedef struct byoc_collage_plan_cost {
    const char *name;    /* "greedy", "only:npu", ..., "host" */
    double cost;         /* seconds under the estimator; INFINITY when the plan could not be priced */
} byoc_collage_plan_cost;

typedef struct byoc_collage_stats {
    int nodes, candidates;          /* graph nodes to cover; candidates priced and kept */
    int dropped;                    /* candidates the estimator refused */
    int truncated;                  /* backends whose combining stopped at max_candidates */
    int states, expanded;           /* states created and settled, over every search run */
    int beam;                       /* 1 when the beam pruned states (the result may then be inexact) */
    int pruned;                     /* states the beam did not keep */
    int estimates, cache_hits;      /* estimator calls; candidates priced from the cache */
    int researches;                 /* searches repeated to break a cycle between partitions */
    int coalesced;                  /* MaxCoalesce unions */
    int ops;                        /* ops of @main, counted as the placement report counts them: one per op of
                                       the input module (a batch norm SimplifyInference splits is one) */
    int moved;                      /* of those, the ops placed elsewhere than by the greedy plan */
    int fallback;                   /* 1 when a baseline plan was cheaper than the search (beam, cycles) */
    double seconds;                 /* wall time of the whole call */
    double search_cost;             /* the optimum over the candidate space (before MaxCoalesce) */
    double cost;                    /* the chosen plan under the estimator (after MaxCoalesce) */
    byoc_collage_plan_cost *plans;  /* greedy, only:<backend>..., host */
    int nplans;
    byoc_collage_assignment *placement; /* the chosen plan, one entry per op of @main */
    int nplacement;
    byoc_module *arena;             /* owns plans, placement and their strings (byoc_collage_stats_free) */
} byoc_collage_stats;
BYOC_API void byoc_collage_stats_free(byoc_collage_stats *s);

/* The statistics as text: format "text" (a few lines: costs of the plan and the baselines, the search's
   counts and time) or "json" (an object; README "Collage"). NULL for an unknown format. Free with free()
   (BYOC_FREE, when defined). */
BYOC_API char *byoc_collage_stats_format(const byoc_collage_stats *s, const char *format, size_t *len);
/* Placement files: a line "byoc-placement 1", then per op "ORIGIN OP BACKEND GROUP" (GROUP from 1), optionally
   followed by "# comment" (the writer adds the frontend name). Parse errors name file:line. The assignments and their
   strings live in arena. */
BYOC_API char *byoc_collage_placement_format(const byoc_collage_stats *s, size_t *len);
BYOC_API byoc_result byoc_collage_placement_parse(const char *text, size_t len, const char *filename,
                                                  byoc_module *arena, byoc_collage_assignment **out, int *count,
                                                  byoc_diag *diag);

/* Partitions m by the cheapest plan (or replays options->replay). stats and report may be NULL. The report
   is the greedy partitioner's (byoc_placement_report_format), with the search's reasons. */
BYOC_API byoc_result byoc_partition_collage(byoc_module *m, const byoc_collage_options *options,
                                            byoc_collage_stats *stats, byoc_placement_report **report, byoc_diag *diag);

// [SECTION] host kernels
/* A dense row-major tensor the caller owns (data aligned for its dtype): what host kernels read and
   write. */
typedef struct byoc_tensor {
    byoc_dtype dtype;
    int rank;
    int64_t dims[BYOC_MAX_RANK];
    void *data;
} byoc_tensor;

/* The one set of host kernels, with TVM Relay's semantics: FoldConstant, byoc_module_evaluate and the
   byoc_sim.h runtime all run ops through these. `call` is a typed op call with static shapes (its op,
   attributes and checked types); in[] are its arguments in order, a tuple argument (concatenate's)
   flattened into its fields; out[] its results, one per field of a tuple result (split,
   nn.batch_norm, nn.dropout), storage from the caller. Every tensor must have the dtype and shape the
   call's types give (else BYOC_ERR_INVALID_ARGUMENT naming it). workspace is
   byoc_kernel_workspace_size(call) bytes at any alignment (NULL: the kernel allocates what it needs).
   An op without a kernel, or a dtype or attribute a kernel does not handle, is BYOC_ERR_UNSUPPORTED
   naming the op and the dtype ("nn.leaky_relu: no host kernel for int32"). float16 / bfloat16 run
   as float32 in the workspace. Kernels keep no state: calls on separate outputs may run in parallel. */
BYOC_API byoc_result byoc_kernel_run(const byoc_node *call, const byoc_tensor *in, int nin, byoc_tensor *out, int nout,
                                     void *workspace, byoc_diag *diag);
BYOC_API size_t byoc_kernel_workspace_size(const byoc_node *call);
/* 1 when op has a host kernel (for some dtypes), else 0. */
BYOC_API int byoc_kernel_exists(const byoc_op *op);
/* C[M,N] = alpha * op(A)[M,K] * op(B)[K,N] + beta * C (row-major, leading dimensions in elements;
   op(X) is X or its transpose; with beta 0, C is not read): the blocked, packed single-precision GEMM
   dense, matmul and the convolutions use. workspace: byoc_sgemm_workspace_size() bytes at any
   alignment, or NULL to allocate (without memory it still computes, unblocked). */
BYOC_API void byoc_sgemm(int trans_a, int trans_b, int64_t M, int64_t N, int64_t K, float alpha, const float *A,
                         int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc, void *workspace);
BYOC_API size_t byoc_sgemm_workspace_size(void);


#ifdef __cplusplus
}
#endif
#endif /* BYOC_H_INCLUDED */

/* ============================================================================================== */
/*                                        IMPLEMENTATION                                          */
/* ============================================================================================== */
#if defined(__INTELLISENSE__) && !defined(BYOC_IMPLEMENTATION)
#define BYOC_IMPLEMENTATION
#endif
#if defined(BYOC_IMPLEMENTATION) && !defined(BYOC_IMPLEMENTATION_INCLUDED)
#define BYOC_IMPLEMENTATION_INCLUDED

// [SECTION] impl: config & platform
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <math.h>
#include <errno.h>
#include <limits.h>
#include <time.h>
#include <ctype.h>
#include <float.h>

#ifndef BYOC_ASSERT
#include <assert.h>
#define BYOC_ASSERT(c) assert(c)
#endif

/* Heap memory no byoc_allocator covers (scratch of passes and graph walks, registries, defaults):
   define all four of BYOC_MALLOC, BYOC_CALLOC, BYOC_REALLOC and BYOC_FREE to route it elsewhere.
   stb_ds's arrays follow STBDS_REALLOC and STBDS_FREE. */
#ifndef BYOC_MALLOC
#define BYOC_MALLOC(n) malloc(n)
#define BYOC_CALLOC(n, size) calloc((n), (size))
#define BYOC_REALLOC(p, n) realloc((p), (n))
#define BYOC_FREE(p) free(p)
#endif

/* stb_ds: included here only, with prefixed names. gcc in strict ISO mode lacks `typeof`. */
#ifndef INCLUDE_STB_DS_H
#if defined(__STRICT_ANSI__) && !defined(__cplusplus) && !defined(typeof)
#define typeof __typeof__
#define BYOC__DEFINED_TYPEOF
#endif
#ifndef STBDS_NO_SHORT_NAMES
#define STBDS_NO_SHORT_NAMES
#endif
#if !defined(BYOC_NO_STB_DS_IMPLEMENTATION) && !defined(STB_DS_IMPLEMENTATION)
#define STB_DS_IMPLEMENTATION
#define BYOC__OWNS_STB_DS_IMPLEMENTATION
#endif
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wpedantic"
#endif
#ifdef BYOC_STB_DS_PATH
#include BYOC_STB_DS_PATH
#else
#include <stb/stb_ds.h>
#endif
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
#ifdef BYOC__OWNS_STB_DS_IMPLEMENTATION
#undef STB_DS_IMPLEMENTATION
#undef BYOC__OWNS_STB_DS_IMPLEMENTATION
#endif
#endif

#if defined(__GNUC__) || defined(__clang__)
#define BYOC__PRIVATE static __attribute__((unused))
#define BYOC__PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define BYOC__PRIVATE static
#define BYOC__PRINTF(a, b)
#endif

#ifdef __cplusplus
#define BYOC__CAST(T, v) static_cast<T>(v)
#else
#define BYOC__CAST(T, v) ((T)(v))
#endif
#define BYOC__NEW(m, T) BYOC__CAST(T *, byoc__arena_alloc((m), sizeof(T)))
#define BYOC__NEW_N(m, T, n) BYOC__CAST(T *, byoc__arena_alloc((m), sizeof(T) * (size_t)(n)))

/* Scratch hash map from a pointer to an intptr_t (open addressing, linear probing, 16 bytes a slot).
   Used for node sets and maps during traversals; memory from malloc like stb_ds's scratch arrays. */
/* key and value side by side: a lookup that hits costs one cache line */
typedef struct byoc__map_slot_pair { uintptr_t key; intptr_t val; } byoc__map_slot_pair;
typedef struct byoc__map {
    byoc__map_slot_pair *slots; /* an empty slot has key 0 */
    size_t cap, count;
} byoc__map;
#define BYOC__MAP_EMPTY {NULL, 0, 0}

BYOC__PRIVATE size_t byoc__map_hash(uintptr_t a) {
    uint64_t h = (uint64_t)a * 0x9e3779b97f4a7c15ull;
    return (size_t)(h ^ (h >> 29));
}
BYOC__PRIVATE ptrdiff_t byoc__map_slot(const byoc__map *m, const void *a) {
    if (!m->cap) return -1;
    size_t mask = m->cap - 1, i = byoc__map_hash((uintptr_t)a) & mask;
    while (m->slots[i].key) {
        if (m->slots[i].key == (uintptr_t)a) return (ptrdiff_t)i;
        i = (i + 1) & mask;
    }
    return -1;
}
BYOC__PRIVATE void byoc__map_grow_for_one(byoc__map *m) {
    if ((m->count + 1) * 4 <= m->cap * 3) return; /* keep the load under 3/4 */
    size_t ncap = m->cap ? m->cap * 2 : 8;
    byoc__map_slot_pair *ns = (byoc__map_slot_pair *)BYOC_CALLOC(ncap, sizeof *ns);
    if (!ns) abort(); /* scratch memory exhausted: nothing sane to continue with */
    for (size_t i = 0; i < m->cap; ++i) {
        if (!m->slots[i].key) continue;
        size_t j = byoc__map_hash(m->slots[i].key) & (ncap - 1);
        while (ns[j].key) j = (j + 1) & (ncap - 1);
        ns[j] = m->slots[i];
    }
    BYOC_FREE(m->slots);
    m->slots = ns;
    m->cap = ncap;
}
/* Adds k -> v unless k is present; returns 1 if it was added. One probe sequence. */
BYOC__PRIVATE int byoc__map_insert(byoc__map *m, const void *k, intptr_t v) {
    byoc__map_grow_for_one(m);
    size_t mask = m->cap - 1, i = byoc__map_hash((uintptr_t)k) & mask;
    while (m->slots[i].key) {
        if (m->slots[i].key == (uintptr_t)k) return 0;
        i = (i + 1) & mask;
    }
    m->slots[i].key = (uintptr_t)k;
    m->slots[i].val = v;
    m->count++;
    return 1;
}
BYOC__PRIVATE void byoc__map_put(byoc__map *m, const void *a, intptr_t v) {
    ptrdiff_t at = byoc__map_slot(m, a);
    if (at >= 0) m->slots[at].val = v;
    else byoc__map_insert(m, a, v);
}
BYOC__PRIVATE int byoc__map_has(const byoc__map *m, const void *k) { return byoc__map_slot(m, k) >= 0; }
BYOC__PRIVATE intptr_t byoc__map_get(const byoc__map *m, const void *k, intptr_t missing) {
    ptrdiff_t i = byoc__map_slot(m, k);
    return i >= 0 ? m->slots[i].val : missing;
}
BYOC__PRIVATE void byoc__map_free(byoc__map *m) {
    BYOC_FREE(m->slots);
    memset(m, 0, sizeof *m);
}

// [SECTION] impl: results & diagnostics
BYOC_API const char *byoc_result_str(byoc_result r) {
    static const char *const names[] = {
#define BYOC__RESULT_TEXT(code, text) text,
        BYOC_RESULT_LIST(BYOC__RESULT_TEXT)
#undef BYOC__RESULT_TEXT
    };
    if ((int)r < 0 || r >= BYOC_RESULT_COUNT) return "unknown result";
    return names[r];
}

BYOC__PRIVATE byoc_result byoc__vdiag(byoc_diag *d, byoc_result code, int line, int col, uint32_t node_id,
                                      const char *fmt, va_list ap) {
    if (!d) return code;
    d->code = code;
    d->line = line;
    d->col = col;
    d->node_id = node_id;
    vsnprintf(d->message, sizeof d->message, fmt, ap);
    /* one line only: messages quote user text, which may hold newlines */
    for (char *p = d->message; *p; ++p)
        if (*p == '\n' || *p == '\r') *p = ' ';
    return code;
}

BYOC__PRIVATE BYOC__PRINTF(6, 7) byoc_result byoc__diag(byoc_diag *d, byoc_result code, int line, int col,
                                                       uint32_t node_id, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    byoc__vdiag(d, code, line, col, node_id, fmt, ap);
    va_end(ap);
    return code;
}
/* the error of a public function given a NULL handle: "byoc_fuse_ops: module is NULL" */
BYOC__PRIVATE byoc_result byoc__null_arg(byoc_diag *d, const char *function, const char *what) {
    return byoc__diag(d, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "%s: %s is NULL", function, what);
}

// [SECTION] impl: arena & strings
typedef struct byoc__block {
    struct byoc__block *next;
    size_t size, used;
} byoc__block;

typedef struct byoc__runtime_entry { const char *name; byoc_runtime_module rm; } byoc__runtime_entry;
struct byoc_module {
    byoc_allocator alloc;
    byoc__block *blocks;
    struct { char *key; int value; } *strings; /* stb_ds strdup map: key pointers are stable */
    byoc_global_function *functions;           /* stb_ds array, in definition order */
    byoc__map function_index;                  /* interned name -> position in functions */
    uint32_t next_id;
    int has_error;
    byoc_diag error;
    byoc__runtime_entry *runtimes; /* stb_ds array */
    byoc__block *bulk;             /* constant payloads: kept apart so nodes stay dense in `blocks` */
    byoc__map op_defaults;         /* op -> its complete default attribute items, shared by calls */
    byoc__map types;               /* structural hash -> type: equal types are one object */
    byoc__map annotation_attrs;    /* target name (as passed) -> its {compiler: target} item */
    /* node id -> index in the graph that last held the node, lent to one graph at a time; never
       cleared (a lookup checks that the index names that very node) */
    int *id_index;
    uint32_t id_index_cap;
    int id_index_lent;
    int borrow_constants; /* copies into it share their constants' payloads (a short-lived planning copy) */
};

static void *byoc__default_alloc(size_t size, void *user_data) { (void)user_data; return BYOC_MALLOC(size); }
static void byoc__default_free(void *ptr, void *user_data) { (void)user_data; BYOC_FREE(ptr); }

BYOC_API void *byoc_alloc(byoc_module *m, size_t size) {
    if (!m) return NULL;
    return m->alloc.alloc_fn(size ? size : 1, m->alloc.user_data);
}
BYOC_API void byoc_free(byoc_module *m, void *ptr) {
    if (!m) return;
    if (ptr) m->alloc.free_fn(ptr, m->alloc.user_data);
}

BYOC__PRIVATE void byoc__fail(byoc_module *m, byoc_result code, uint32_t node_id, const char *fmt, ...)
    BYOC__PRINTF(4, 5);
BYOC__PRIVATE void byoc__fail(byoc_module *m, byoc_result code, uint32_t node_id, const char *fmt, ...) {
    if (m->has_error) return; /* keep the first */
    va_list ap;
    va_start(ap, fmt);
    byoc__vdiag(&m->error, code, 0, 0, node_id, fmt, ap);
    va_end(ap);
    m->has_error = 1;
}

#define BYOC__ARENA_BLOCK (64 * 1024)
/* bump allocation from the block list *list (m->blocks, or m->bulk for payloads no walk reads) */
BYOC__PRIVATE void *byoc__arena_alloc_in(byoc_module *m, byoc__block **list, size_t size) {
    if (size > SIZE_MAX / 2) {
        byoc__fail(m, BYOC_ERR_OUT_OF_MEMORY, 0, "allocation of %zu bytes is too large", size);
        return NULL;
    }
    /* node storage needs pointer alignment only (8 bytes saves a line in 20 over 16); payloads get 16 */
    size_t align = list == &m->bulk ? 16 : 8;
    size = (size + align - 1) & ~(align - 1);
    byoc__block *b = *list;
    if (!b || b->size - b->used < size) {
        int dedicated = size > BYOC__ARENA_BLOCK / 4; /* big allocations get a block of their own */
        size_t cap = dedicated ? size : BYOC__ARENA_BLOCK;
        size_t header = (sizeof(byoc__block) + 15) & ~(size_t)15;
        byoc__block *nb = BYOC__CAST(byoc__block *, m->alloc.alloc_fn(header + cap, m->alloc.user_data));
        if (!nb) {
            byoc__fail(m, BYOC_ERR_OUT_OF_MEMORY, 0, "out of memory allocating %zu bytes", size);
            return NULL;
        }
        nb->size = header + cap;
        nb->used = header;
        if (dedicated && b) { /* keep the current, partly used block on top */
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            *list = nb;
        }
        b = nb;
    }
    void *p = (char *)b + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}
BYOC__PRIVATE void *byoc__arena_alloc(byoc_module *m, size_t size) { return byoc__arena_alloc_in(m, &m->blocks, size); }

BYOC_API const char *byoc_intern(byoc_module *m, const char *s) {
    if (!m) return NULL;
    if (!s) return NULL;
    ptrdiff_t i = stbds_shputi(m->strings, s, 0); /* one probe: finds the key, or adds a copy */
    return m->strings[i].key;
}

BYOC__PRIVATE const char *byoc__intern_n(byoc_module *m, const char *s, size_t n) {
    char small[256];
    char *tmp = n < sizeof small ? small : BYOC__CAST(char *, BYOC_MALLOC(n + 1));
    if (!tmp) return NULL;
    memcpy(tmp, s, n);
    tmp[n] = 0;
    const char *r = byoc_intern(m, tmp);
    if (tmp != small) BYOC_FREE(tmp);
    return r;
}

BYOC_API byoc_module *byoc_module_create(const byoc_allocator *allocator) {
    byoc_allocator a;
    if (allocator && allocator->alloc_fn && allocator->free_fn) a = *allocator;
    else {
        a.alloc_fn = byoc__default_alloc;
        a.free_fn = byoc__default_free;
        a.user_data = NULL;
    }
    byoc_module *m = BYOC__CAST(byoc_module *, a.alloc_fn(sizeof(byoc_module), a.user_data));
    if (!m) return NULL;
    memset(m, 0, sizeof *m);
    m->alloc = a;
    stbds_sh_new_strdup(m->strings);
    m->next_id = 1;
    return m;
}

BYOC__PRIVATE void byoc__blocks_free(byoc_module *m, byoc__block *b) {
    while (b) {
        byoc__block *next = b->next;
        m->alloc.free_fn(b, m->alloc.user_data);
        b = next;
    }
}

BYOC_API void byoc_module_destroy(byoc_module *m) {
    if (!m) return;
    byoc__blocks_free(m, m->blocks);
    byoc__blocks_free(m, m->bulk);
    byoc__map_free(&m->op_defaults);
    byoc__map_free(&m->types);
    byoc__map_free(&m->annotation_attrs);
    for (int i = 0; i < (int)stbds_arrlen(m->runtimes); ++i)
        if (m->runtimes[i].rm.release) m->runtimes[i].rm.release(m->runtimes[i].rm.state);
    stbds_arrfree(m->runtimes);
    stbds_shfree(m->strings);
    byoc__map_free(&m->function_index);
    stbds_arrfree(m->functions);
    BYOC_FREE(m->id_index);
    m->alloc.free_fn(m, m->alloc.user_data);
}

BYOC_API const byoc_diag *byoc_module_error(const byoc_module *m) {
    static const byoc_diag null_module = {BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "byoc_module_error: module is NULL"};
    if (!m) return &null_module;
    return m->has_error ? &m->error : NULL;
}
BYOC_API void byoc_module_clear_error(byoc_module *m) {
    if (!m) return;
    m->has_error = 0;
    memset(&m->error, 0, sizeof m->error);
}
BYOC_API uint32_t byoc_module_node_count(const byoc_module *m) { if (!m) return 0; return m->next_id - 1; }

/* growable text buffer on the module allocator, or on `alloc` when set (byoc_sim.h's programs; NULL functions
   there mean BYOC_MALLOC / BYOC_FREE). The one text buffer of byoc.h, byoc_sim.h and tools/byoc_onnx.h. */
typedef struct byoc__buf {
    byoc_module *m;
    char *data;
    size_t len, cap;
    int oom;
    const byoc_allocator *alloc;
} byoc__buf;

BYOC__PRIVATE void *byoc__buf_alloc(const byoc__buf *b, size_t n) {
    const byoc_allocator *a = b->alloc;
    return !a ? byoc_alloc(b->m, n) : a->alloc_fn ? a->alloc_fn(n, a->user_data) : BYOC_MALLOC(n);
}
/* frees the buffer's data (or anything from its allocator) */
BYOC__PRIVATE void byoc__buf_free(const byoc__buf *b, void *ptr) {
    const byoc_allocator *a = b->alloc;
    if (!a) byoc_free(b->m, ptr);
    else if (ptr && a->free_fn) a->free_fn(ptr, a->user_data);
    else BYOC_FREE(ptr);
}
BYOC__PRIVATE void byoc__buf_reserve(byoc__buf *b, size_t extra) {
    if (b->oom || b->len + extra + 1 <= b->cap) return;
    size_t ncap = b->cap ? b->cap * 2 : 1024;
    while (ncap < b->len + extra + 1) ncap *= 2;
    char *nd = BYOC__CAST(char *, byoc__buf_alloc(b, ncap));
    if (!nd) { b->oom = 1; return; }
    if (b->data) { memcpy(nd, b->data, b->len); byoc__buf_free(b, b->data); }
    b->data = nd;
    b->cap = ncap;
}
BYOC__PRIVATE void byoc__buf_put(byoc__buf *b, const char *s, size_t n) {
    byoc__buf_reserve(b, n);
    if (b->oom) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
}
BYOC__PRIVATE void byoc__buf_puts(byoc__buf *b, const char *s) { byoc__buf_put(b, s, strlen(s)); }
BYOC__PRIVATE BYOC__PRINTF(2, 3) void byoc__buf_printf(byoc__buf *b, const char *fmt, ...) {
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) { byoc__buf_put(b, small, (size_t)n); return; }
    byoc__buf_reserve(b, (size_t)n);
    if (b->oom) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}
/* a JSON string (NULL: null); the one JSON string writer of byoc.h, byoc_sim.h and tools/byoc_onnx.h */
BYOC__PRIVATE void byoc__json_str(byoc__buf *b, const char *s) {
    if (!s) { byoc__buf_puts(b, "null"); return; }
    byoc__buf_puts(b, "\"");
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') byoc__buf_printf(b, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) byoc__buf_printf(b, "\\u%04x", (unsigned char)*s);
        else byoc__buf_put(b, s, 1);
    }
    byoc__buf_puts(b, "\"");
}

// [SECTION] impl: dtypes & types
static const struct { const char *name; size_t size; char cls; } byoc__dtypes[] = {
    {"invalid", 0, 0},
#define BYOC__DTYPE_INFO(code, name, size, cls) {name, size, cls},
    BYOC_DTYPE_LIST(BYOC__DTYPE_INFO)
#undef BYOC__DTYPE_INFO
};

BYOC_API const char *byoc_dtype_name(byoc_dtype dt) {
    return (int)dt > 0 && dt < BYOC_DTYPE_COUNT ? byoc__dtypes[dt].name : "invalid";
}
BYOC_API byoc_dtype byoc_dtype_from_name(const char *name) {
    for (int i = 1; i < BYOC_DTYPE_COUNT; ++i)
        if (strcmp(byoc__dtypes[i].name, name) == 0) return (byoc_dtype)i;
    return BYOC_DTYPE_INVALID;
}
BYOC_API size_t byoc_dtype_size(byoc_dtype dt) {
    return (int)dt > 0 && dt < BYOC_DTYPE_COUNT ? byoc__dtypes[dt].size : 0;
}
BYOC_API int byoc_dtype_is_float(byoc_dtype dt) {
    return (int)dt > 0 && dt < BYOC_DTYPE_COUNT && byoc__dtypes[dt].cls == 'f';
}
BYOC__PRIVATE int byoc__dtype_is_unsigned(byoc_dtype dt) {
    return (int)dt > 0 && dt < BYOC_DTYPE_COUNT && byoc__dtypes[dt].cls == 'u';
}
/* the values an integer dtype of at most 32 bits holds; int64 (and uint64, as its bits) the whole int64 range */
BYOC__PRIVATE void byoc__int_range(byoc_dtype dt, int64_t *lo, int64_t *hi) {
    *lo = INT64_MIN, *hi = INT64_MAX;
    switch (dt) {
    case BYOC_INT8: *lo = INT8_MIN; *hi = INT8_MAX; break;
    case BYOC_UINT8: *lo = 0; *hi = UINT8_MAX; break;
    case BYOC_INT16: *lo = INT16_MIN; *hi = INT16_MAX; break;
    case BYOC_UINT16: *lo = 0; *hi = UINT16_MAX; break;
    case BYOC_INT32: *lo = INT32_MIN; *hi = INT32_MAX; break;
    case BYOC_UINT32: *lo = 0; *hi = UINT32_MAX; break;
    default: break;
    }
}

/* Types are immutable, so equal ones can be one object: a model's thousands of values of a few shapes
   then share a few cache lines instead of a type each. A hash collision just builds another copy. */
BYOC__PRIVATE const byoc_type *byoc__type_intern(byoc_module *m, const byoc_type *want) {
    uint64_t h = 0xcbf29ce484222325ull;
#define BYOC__MIX(v) (h = (h ^ (uint64_t)(v)) * 0x100000001b3ull)
    BYOC__MIX(want->kind);
    BYOC__MIX(want->dtype);
    BYOC__MIX(want->rank);
    for (int i = 0; i < want->rank; ++i) BYOC__MIX(want->dims[i]);
    BYOC__MIX(want->nfields);
    for (int i = 0; i < want->nfields; ++i) BYOC__MIX((uintptr_t)want->fields[i]);
    BYOC__MIX((uintptr_t)want->ret);
#undef BYOC__MIX
    const void *key = (const void *)(uintptr_t)(h | 1); /* 0 marks an empty map slot */
    const byoc_type *seen = (const byoc_type *)byoc__map_get(&m->types, key, 0);
    if (seen && byoc_type_equal(seen, want)) return seen;
    byoc_type *t = BYOC__NEW(m, byoc_type);
    const byoc_type **f = want->nfields ? BYOC__NEW_N(m, const byoc_type *, want->nfields) : NULL;
    if (!t || (want->nfields && !f)) return NULL;
    *t = *want;
    for (int i = 0; i < want->nfields; ++i) f[i] = want->fields[i];
    t->fields = f;
    if (!seen) byoc__map_insert(&m->types, key, (intptr_t)t);
    return t;
}

BYOC_API const byoc_type *byoc_tensor_type(byoc_module *m, byoc_dtype dt, int rank, const int64_t *dims) {
    if (!m) return NULL;
    if (m->has_error) return NULL;
    if ((int)dt <= 0 || dt >= BYOC_DTYPE_COUNT) {
        byoc__fail(m, BYOC_ERR_INVALID_ARGUMENT, 0, "tensor type: invalid dtype %d", (int)dt);
        return NULL;
    }
    if (rank < 0 || rank > BYOC_MAX_RANK) {
        byoc__fail(m, BYOC_ERR_UNSUPPORTED, 0, "tensor type: rank %d outside 0..%d", rank, BYOC_MAX_RANK);
        return NULL;
    }
    for (int i = 0; i < rank; ++i) {
        if (dims[i] < 0 && dims[i] != BYOC_DIM_UNKNOWN) {
            byoc__fail(m, BYOC_ERR_INVALID_ARGUMENT, 0, "tensor type: negative dimension %lld", (long long)dims[i]);
            return NULL;
        }
        if (dims[i] > BYOC_MAX_DIM) {
            byoc__fail(m, BYOC_ERR_UNSUPPORTED, 0, "tensor type: dimension %lld exceeds %d", (long long)dims[i],
                       BYOC_MAX_DIM);
            return NULL;
        }
    }
    byoc_type want;
    memset(&want, 0, sizeof want);
    want.kind = BYOC_TYPE_TENSOR;
    want.dtype = dt;
    want.rank = rank;
    for (int i = 0; i < rank; ++i) want.dims[i] = dims[i];
    return byoc__type_intern(m, &want);
}

BYOC__PRIVATE const byoc_type *byoc__fields_type(byoc_module *m, byoc_type_kind kind, const byoc_type *const *fields,
                                                 int n, const byoc_type *ret) {
    if (m->has_error) return NULL;
    for (int i = 0; i < n; ++i) if (!fields[i]) return NULL;
    if (kind == BYOC_TYPE_FUNC && !ret) return NULL;
    byoc_type want;
    memset(&want, 0, sizeof want);
    want.kind = kind;
    want.nfields = n;
    want.fields = fields;
    want.ret = ret;
    return byoc__type_intern(m, &want);
}
BYOC_API const byoc_type *byoc_tuple_type(byoc_module *m, const byoc_type *const *fields, int n) {
    if (!m) return NULL;
    return byoc__fields_type(m, BYOC_TYPE_TUPLE, fields, n, NULL);
}
BYOC_API const byoc_type *byoc_func_type(byoc_module *m, const byoc_type *const *params, int n, const byoc_type *ret) {
    if (!m) return NULL;
    return byoc__fields_type(m, BYOC_TYPE_FUNC, params, n, ret);
}

BYOC_API int byoc_type_equal(const byoc_type *a, const byoc_type *b) {
    if (a == b) return 1;
    if (!a || !b || a->kind != b->kind) return 0;
    if (a->kind == BYOC_TYPE_TENSOR) {
        if (a->dtype != b->dtype || a->rank != b->rank) return 0;
        for (int i = 0; i < a->rank; ++i) if (a->dims[i] != b->dims[i]) return 0;
        return 1;
    }
    if (a->nfields != b->nfields) return 0;
    for (int i = 0; i < a->nfields; ++i) if (!byoc_type_equal(a->fields[i], b->fields[i])) return 0;
    return a->kind != BYOC_TYPE_FUNC || byoc_type_equal(a->ret, b->ret);
}

/* a type fits a declared one: equal, or with any extent where the declared type has '?' (Relay's Any) */
BYOC__PRIVATE int byoc__type_fits(const byoc_type *given, const byoc_type *declared) {
    if (given == declared) return 1;
    if (!given || !declared || given->kind != declared->kind) return 0;
    if (given->kind == BYOC_TYPE_TENSOR) {
        if (given->dtype != declared->dtype || given->rank != declared->rank) return 0;
        for (int i = 0; i < given->rank; ++i)
            if (declared->dims[i] >= 0 && given->dims[i] != declared->dims[i]) return 0;
        return 1;
    }
    if (given->nfields != declared->nfields) return 0;
    for (int i = 0; i < given->nfields; ++i)
        if (!byoc__type_fits(given->fields[i], declared->fields[i])) return 0;
    return given->kind != BYOC_TYPE_FUNC || byoc__type_fits(given->ret, declared->ret);
}

BYOC_API int byoc_type_is_static(const byoc_type *t) {
    if (!t) return 0;
    if (t->kind == BYOC_TYPE_TENSOR) {
        for (int i = 0; i < t->rank; ++i) if (t->dims[i] < 0) return 0;
        return 1;
    }
    for (int i = 0; i < t->nfields; ++i) if (!byoc_type_is_static(t->fields[i])) return 0;
    return t->kind != BYOC_TYPE_FUNC || byoc_type_is_static(t->ret);
}

BYOC_API int64_t byoc_type_num_elements(const byoc_type *t) {
    if (!t || t->kind != BYOC_TYPE_TENSOR) return -1;
    int64_t n = 1;
    for (int i = 0; i < t->rank; ++i) {
        if (t->dims[i] < 0) return -1;
        if (t->dims[i] && n > INT64_MAX / t->dims[i]) return -1;
        n *= t->dims[i];
    }
    return n;
}

BYOC__PRIVATE void byoc__type_write(byoc__buf *b, const byoc_type *t) {
    if (!t) { byoc__buf_puts(b, "?"); return; }
    switch (t->kind) {
    case BYOC_TYPE_TENSOR:
        if (t->rank == 0) { byoc__buf_puts(b, byoc_dtype_name(t->dtype)); return; }
        byoc__buf_puts(b, "Tensor[(");
        for (int i = 0; i < t->rank; ++i) {
            if (i) byoc__buf_puts(b, ", ");
            if (t->dims[i] < 0) byoc__buf_puts(b, "?");
            else byoc__buf_printf(b, "%lld", (long long)t->dims[i]);
        }
        byoc__buf_printf(b, "%s), %s]", t->rank == 1 ? "," : "", byoc_dtype_name(t->dtype));
        return;
    case BYOC_TYPE_TUPLE:
        byoc__buf_puts(b, "(");
        for (int i = 0; i < t->nfields; ++i) {
            if (i) byoc__buf_puts(b, ", ");
            byoc__type_write(b, t->fields[i]);
        }
        byoc__buf_puts(b, t->nfields == 1 ? ",)" : ")");
        return;
    case BYOC_TYPE_FUNC:
        byoc__buf_puts(b, "fn (");
        for (int i = 0; i < t->nfields; ++i) {
            if (i) byoc__buf_puts(b, ", ");
            byoc__type_write(b, t->fields[i]);
        }
        byoc__buf_puts(b, ") -> ");
        byoc__type_write(b, t->ret);
        return;
    }
}

/* plain-malloc text buffer for short-lived strings outside any module */
BYOC_API int byoc_type_to_string(const byoc_type *t, char *out, size_t cap) {
    byoc_module tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.alloc.alloc_fn = byoc__default_alloc;
    tmp.alloc.free_fn = byoc__default_free;
    byoc__buf b;
    memset(&b, 0, sizeof b);
    b.m = &tmp;
    byoc__type_write(&b, t);
    int n = (int)b.len;
    if (cap) {
        size_t k = b.len < cap - 1 ? b.len : cap - 1;
        if (b.data) memcpy(out, b.data, k);
        out[k] = 0;
    }
    BYOC_FREE(b.data);
    return n;
}

// [SECTION] impl: attributes
/* v as an attribute value owned by m: strings interned, lists copied into the arena */
BYOC__PRIVATE byoc_attr_value byoc__attr_value_own(byoc_module *m, const byoc_attr_value *v) {
    byoc_attr_value c = *v;
    if (c.kind == BYOC_ATTR_STRING) c.s = byoc_intern(m, c.s ? c.s : "");
    if (c.kind == BYOC_ATTR_INT_LIST && c.count) {
        int64_t *p = BYOC__NEW_N(m, int64_t, c.count);
        if (p) memcpy(p, c.ints, sizeof(int64_t) * (size_t)c.count);
        c.ints = p;
    }
    if (c.kind == BYOC_ATTR_FLOAT_LIST && c.count) {
        double *p = BYOC__NEW_N(m, double, c.count);
        if (p) memcpy(p, c.floats, sizeof(double) * (size_t)c.count);
        c.floats = p;
    }
    return c;
}

BYOC_API void byoc_attrs_set(byoc_module *m, byoc_attrs *a, const char *name, const byoc_attr_value *v) {
    if (!m) return;
    if (m->has_error) return;
    const char *key = byoc_intern(m, name);
    byoc_attr_value copy = byoc__attr_value_own(m, v);
    if (m->has_error) return;
    int at = a->count;
    for (int i = 0; i < a->count; ++i)
        if (a->items[i].name == key) at = i;
    /* a fresh array even to replace: item arrays are shared (nodes rebuilt by passes, op defaults) */
    byoc_attr *items = BYOC__NEW_N(m, byoc_attr, a->count + (at == a->count));
    if (!items) return;
    if (a->count) memcpy(items, a->items, sizeof(byoc_attr) * (size_t)a->count);
    items[at].name = key;
    items[at].value = copy;
    a->items = items;
    if (at == a->count) a->count++;
}

/* base's items then extra ones (a later name replaces an earlier one), owned by m, in one array:
   byoc_attrs_set copies the array on every call, which is quadratic for a set built item by item.
   extra_owned: the extra items' names and values are m's already (a pass interned them once), so
   they are taken as they are instead of interned again for every set. */
BYOC__PRIVATE byoc_attrs byoc__attrs_build_in(byoc_module *m, const byoc_attrs *base, const byoc_attr *extra,
                                              int nextra, int extra_owned) {
    byoc_attrs out;
    memset(&out, 0, sizeof out);
    int nbase = base ? base->count : 0;
    if (m->has_error || nbase + nextra == 0) return out;
    byoc_attr *items = BYOC__NEW_N(m, byoc_attr, nbase + nextra);
    if (!items) return out;
    for (int k = 0; k < nbase + nextra; ++k) {
        const byoc_attr *a = k < nbase ? &base->items[k] : &extra[k - nbase];
        int owned = extra_owned && k >= nbase;
        const char *key = owned ? a->name : byoc_intern(m, a->name);
        int at = out.count;
        for (int i = 0; i < out.count; ++i)
            if (items[i].name == key) at = i;
        items[at].name = key;
        items[at].value = owned ? a->value : byoc__attr_value_own(m, &a->value);
        if (at == out.count) out.count++;
    }
    out.items = items;
    return out;
}
BYOC__PRIVATE byoc_attrs byoc__attrs_build(byoc_module *m, const byoc_attrs *base, const byoc_attr *extra, int nextra) {
    return byoc__attrs_build_in(m, base, extra, nextra, 0);
}
BYOC__PRIVATE byoc_attr byoc__attr_named(const char *name, byoc_attr_kind kind) {
    byoc_attr a;
    memset(&a, 0, sizeof a);
    a.name = name;
    a.value.kind = kind;
    return a;
}
BYOC__PRIVATE byoc_attr byoc__attr_int(const char *name, int64_t v) {
    byoc_attr a = byoc__attr_named(name, BYOC_ATTR_INT);
    a.value.i = v;
    return a;
}
BYOC__PRIVATE byoc_attr byoc__attr_string(const char *name, const char *v) {
    byoc_attr a = byoc__attr_named(name, BYOC_ATTR_STRING);
    a.value.s = v;
    return a;
}

BYOC_API void byoc_attrs_set_int(byoc_module *m, byoc_attrs *a, const char *name, int64_t v) {
    byoc_attr_value x; memset(&x, 0, sizeof x); x.kind = BYOC_ATTR_INT; x.i = v; byoc_attrs_set(m, a, name, &x);
}
BYOC_API void byoc_attrs_set_float(byoc_module *m, byoc_attrs *a, const char *name, double v) {
    byoc_attr_value x; memset(&x, 0, sizeof x); x.kind = BYOC_ATTR_FLOAT; x.f = v; byoc_attrs_set(m, a, name, &x);
}
BYOC_API void byoc_attrs_set_string(byoc_module *m, byoc_attrs *a, const char *name, const char *v) {
    byoc_attr_value x; memset(&x, 0, sizeof x); x.kind = BYOC_ATTR_STRING; x.s = v; byoc_attrs_set(m, a, name, &x);
}
BYOC_API void byoc_attrs_set_bool(byoc_module *m, byoc_attrs *a, const char *name, int v) {
    byoc_attr_value x; memset(&x, 0, sizeof x); x.kind = BYOC_ATTR_BOOL; x.i = v != 0; byoc_attrs_set(m, a, name, &x);
}
BYOC_API void byoc_attrs_set_none(byoc_module *m, byoc_attrs *a, const char *name) {
    byoc_attr_value x; memset(&x, 0, sizeof x); x.kind = BYOC_ATTR_NONE; byoc_attrs_set(m, a, name, &x);
}
BYOC_API void byoc_attrs_set_ints(byoc_module *m, byoc_attrs *a, const char *name, const int64_t *v, int n) {
    byoc_attr_value x;
    memset(&x, 0, sizeof x);
    x.kind = BYOC_ATTR_INT_LIST;
    x.ints = v;
    x.count = n;
    byoc_attrs_set(m, a, name, &x);
}
BYOC_API void byoc_attrs_set_floats(byoc_module *m, byoc_attrs *a, const char *name, const double *v, int n) {
    byoc_attr_value x;
    memset(&x, 0, sizeof x);
    x.kind = BYOC_ATTR_FLOAT_LIST;
    x.floats = v;
    x.count = n;
    byoc_attrs_set(m, a, name, &x);
}

BYOC_API const byoc_attr_value *byoc_attrs_get(const byoc_attrs *a, const char *name) {
    if (!a) return NULL;
    for (int i = 0; i < a->count; ++i)
        if (strcmp(a->items[i].name, name) == 0) return &a->items[i].value;
    return NULL;
}
BYOC_API int64_t byoc_attrs_int(const byoc_attrs *a, const char *name, int64_t fallback) {
    const byoc_attr_value *v = byoc_attrs_get(a, name);
    if (!v) return fallback;
    if (v->kind == BYOC_ATTR_INT || v->kind == BYOC_ATTR_BOOL) return v->i;
    if (v->kind == BYOC_ATTR_FLOAT) return (int64_t)v->f;
    return fallback;
}
BYOC_API double byoc_attrs_float(const byoc_attrs *a, const char *name, double fallback) {
    const byoc_attr_value *v = byoc_attrs_get(a, name);
    if (!v) return fallback;
    if (v->kind == BYOC_ATTR_FLOAT) return v->f;
    if (v->kind == BYOC_ATTR_INT) return (double)v->i;
    return fallback;
}
BYOC_API const char *byoc_attrs_string(const byoc_attrs *a, const char *name, const char *fallback) {
    const byoc_attr_value *v = byoc_attrs_get(a, name);
    return v && v->kind == BYOC_ATTR_STRING ? v->s : fallback;
}

BYOC_API int byoc_attr_value_equal(const byoc_attr_value *a, const byoc_attr_value *b) {
    if (a->kind != b->kind) return 0;
    switch (a->kind) {
    case BYOC_ATTR_NONE: return 1;
    case BYOC_ATTR_INT: case BYOC_ATTR_BOOL: return a->i == b->i;
    case BYOC_ATTR_FLOAT: return a->f == b->f || (a->f != a->f && b->f != b->f);
    case BYOC_ATTR_STRING: return strcmp(a->s, b->s) == 0;
    case BYOC_ATTR_INT_LIST:
        if (a->count != b->count || a->inner != b->inner) return 0;
        for (int i = 0; i < a->count; ++i) if (a->ints[i] != b->ints[i]) return 0;
        return 1;
    case BYOC_ATTR_FLOAT_LIST:
        if (a->count != b->count) return 0;
        for (int i = 0; i < a->count; ++i) if (a->floats[i] != b->floats[i]) return 0;
        return 1;
    }
    return 0;
}

BYOC__PRIVATE int byoc__attrs_equal(const byoc_attrs *a, const byoc_attrs *b) {
    if (a->count != b->count) return 0;
    for (int i = 0; i < a->count; ++i) {
        const byoc_attr_value *v = byoc_attrs_get(b, a->items[i].name);
        if (!v || !byoc_attr_value_equal(&a->items[i].value, v)) return 0;
    }
    return 1;
}

BYOC__PRIVATE const char *byoc__attr_kind_name(unsigned kinds) {
    switch (kinds) {
    case BYOC_ATTR_NONE: return "None";
    case BYOC_ATTR_INT: return "int";
    case BYOC_ATTR_FLOAT: return "float";
    case BYOC_ATTR_STRING: return "string";
    case BYOC_ATTR_BOOL: return "bool";
    case BYOC_ATTR_INT_LIST: return "int list";
    case BYOC_ATTR_FLOAT_LIST: return "float list";
    default: return "value";
    }
}

BYOC__PRIVATE void byoc__attr_kinds_text(unsigned kinds, char *out, size_t cap) {
    out[0] = 0;
    for (unsigned k = 1; k <= BYOC_ATTR_FLOAT_LIST; k <<= 1) {
        if (!(kinds & k)) continue;
        if (out[0]) strncat(out, " or ", cap - strlen(out) - 1);
        strncat(out, byoc__attr_kind_name(k), cap - strlen(out) - 1);
    }
}

// [SECTION] impl: IR builder
BYOC__PRIVATE byoc_node *byoc__node_new(byoc_module *m, byoc_node_kind kind) {
    if (m->has_error) return NULL;
    byoc_node *n = BYOC__NEW(m, byoc_node);
    if (!n) return NULL;
    n->kind = kind;
    n->id = m->next_id++;
    return n;
}

BYOC_API uint32_t byoc_node_origin(const byoc_node *n) { if (!n) return 0; return n->origin ? n->origin : n->id; }
/* r stands for n from now on: same source position and origin */
BYOC__PRIVATE void byoc__inherit(byoc_node *r, const byoc_node *n) {
    if (!r || r == n) return;
    r->span = n->span;
    r->origin = byoc_node_origin(n);
}

/* arena copy of n object pointers (node or pattern arrays), and a check for NULL entries */
BYOC__PRIVATE void *byoc__ptr_array(byoc_module *m, const void *src, int n) {
    if (n <= 0) return NULL;
    void *a = byoc__arena_alloc(m, sizeof(void *) * (size_t)n);
    if (a) memcpy(a, src, sizeof(void *) * (size_t)n);
    return a;
}
BYOC__PRIVATE int byoc__ptrs_null(const void *src, int n) {
    for (int i = 0; i < n; ++i) {
        const void *p;
        memcpy(&p, (const char *)src + sizeof(void *) * (size_t)i, sizeof p);
        if (!p) return 1;
    }
    return 0;
}
BYOC__PRIVATE byoc_node **byoc__node_array(byoc_module *m, byoc_node *const *src, int n) {
    return BYOC__CAST(byoc_node **, byoc__ptr_array(m, src, n));
}
BYOC__PRIVATE int byoc__any_null(byoc_node *const *a, int n) { return byoc__ptrs_null(a, n); }

BYOC_API byoc_node *byoc_var(byoc_module *m, const char *name, const byoc_type *type) {
    if (!m) return NULL;
    byoc_node *n = byoc__node_new(m, BYOC_NODE_VAR);
    if (!n) return NULL;
    n->name = byoc_intern(m, name && *name ? name : "v");
    n->annotation = type;
    return n;
}

/* A var under a name a pass made up for it alone (FunctionVar_3_0): the name is copied into the
   arena, not interned, since interning a string no one else uses only grows the intern table. */
BYOC__PRIVATE byoc_node *byoc__var_unique(byoc_module *m, const char *name, const byoc_type *type) {
    size_t len = strlen(name) + 1;
    char *copy = BYOC__CAST(char *, byoc__arena_alloc_in(m, &m->bulk, len));
    byoc_node *n = copy ? byoc__node_new(m, BYOC_NODE_VAR) : NULL;
    if (!n) return NULL;
    memcpy(copy, name, len);
    n->name = copy;
    n->annotation = type;
    return n;
}

/* float16 / bfloat16 conversions (round to nearest even) */
BYOC__PRIVATE uint16_t byoc__f32_to_f16(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
    int exp = (int)((x >> 23) & 0xff);
    if (exp == 0xff) return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
    int e = exp - 127 + 15;
    if (e >= 0x1f) return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10) return (uint16_t)sign;
        mant |= 0x800000u;
        int shift = 14 - e;
        uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (mant >> 13), rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++;
    return (uint16_t)(sign | h);
}
BYOC__PRIVATE float byoc__f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ffu, x;
    if (exp == 0) {
        if (!mant) x = sign;
        else {
            exp = 127 - 15 + 1;
            while (!(mant & 0x400u)) { mant <<= 1; exp--; }
            x = sign | (exp << 23) | ((mant & 0x3ffu) << 13);
        }
    } else if (exp == 0x1f) x = sign | 0x7f800000u | (mant << 13);
    else x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
    float f;
    memcpy(&f, &x, 4);
    return f;
}
BYOC__PRIVATE uint16_t byoc__f32_to_bf16(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}
BYOC__PRIVATE float byoc__bf16_to_f32(uint16_t h) {
    uint32_t x = (uint32_t)h << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}
/* double to float rounded to odd (truncated, the last bit set when inexact): narrowing that to float16 /
   bfloat16 then rounds once, as a direct conversion would (rounding to float first can round twice) */
BYOC__PRIVATE float byoc__f64_to_f32_odd(double v) {
    float f = (float)v;
    if (f != f || (double)f == v) return f;
    uint32_t x;
    memcpy(&x, &f, 4);
    if (fabs((double)f) > fabs(v)) x -= 1; /* rounded away from zero (or to infinity): step back */
    x |= 1;
    memcpy(&f, &x, 4);
    return f;
}
BYOC__PRIVATE uint16_t byoc__f64_to_f16(double v) { return byoc__f32_to_f16(byoc__f64_to_f32_odd(v)); }
BYOC__PRIVATE uint16_t byoc__f64_to_bf16(double v) { return byoc__f32_to_bf16(byoc__f64_to_f32_odd(v)); }

/* element i of a buffer of dtype dt, as double */
BYOC__PRIVATE double byoc__load(byoc_dtype dt, const void *data, int64_t i) {
    const unsigned char *p = (const unsigned char *)data;
    switch (dt) {
    case BYOC_FLOAT32: { float v; memcpy(&v, p + 4 * i, 4); return v; }
    case BYOC_FLOAT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return byoc__f16_to_f32(v); }
    case BYOC_BFLOAT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return byoc__bf16_to_f32(v); }
    case BYOC_INT8: return (double)(int8_t)p[i];
    case BYOC_UINT8: return (double)p[i];
    case BYOC_BOOL: return p[i] ? 1.0 : 0.0;
    case BYOC_INT16: { int16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case BYOC_INT32: { int32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case BYOC_INT64: { int64_t v; memcpy(&v, p + 8 * i, 8); return (double)v; }
    case BYOC_FLOAT64: { double v; memcpy(&v, p + 8 * i, 8); return v; }
    case BYOC_UINT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case BYOC_UINT32: { uint32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case BYOC_UINT64: { uint64_t v; memcpy(&v, p + 8 * i, 8); return (double)v; }
    default: return 0;
    }
}
/* saturating double -> integer conversion (a plain cast of an out-of-range value is undefined) */
BYOC__PRIVATE double byoc__clamp(double v, double lo, double hi) { return v != v ? 0 : v < lo ? lo : v > hi ? hi : v; }

BYOC__PRIVATE void byoc__store(byoc_dtype dt, void *data, int64_t i, double v) {
    unsigned char *p = (unsigned char *)data;
    switch (dt) {
    case BYOC_INT8: v = byoc__clamp(v, -128, 127); break;
    case BYOC_UINT8: v = byoc__clamp(v, 0, 255); break;
    case BYOC_INT16: v = byoc__clamp(v, -32768, 32767); break;
    case BYOC_INT32: v = byoc__clamp(v, -2147483648.0, 2147483647.0); break;
    case BYOC_INT64: v = byoc__clamp(v, -9223372036854775808.0, 9223372036854774784.0); break;
    case BYOC_UINT16: v = byoc__clamp(v, 0, 65535); break;
    case BYOC_UINT32: v = byoc__clamp(v, 0, 4294967295.0); break;
    case BYOC_UINT64: v = byoc__clamp(v, 0, 18446744073709549568.0); break;
    default: break;
    }
    switch (dt) {
    case BYOC_FLOAT32: { float f = (float)v; memcpy(p + 4 * i, &f, 4); break; }
    case BYOC_FLOAT16: { uint16_t h = byoc__f64_to_f16(v); memcpy(p + 2 * i, &h, 2); break; }
    case BYOC_BFLOAT16: { uint16_t h = byoc__f64_to_bf16(v); memcpy(p + 2 * i, &h, 2); break; }
    case BYOC_FLOAT64: memcpy(p + 8 * i, &v, 8); break;
    case BYOC_UINT16: { uint16_t x = (uint16_t)v; memcpy(p + 2 * i, &x, 2); break; }
    case BYOC_UINT32: { uint32_t x = (uint32_t)v; memcpy(p + 4 * i, &x, 4); break; }
    case BYOC_UINT64: { uint64_t x = (uint64_t)v; memcpy(p + 8 * i, &x, 8); break; }
    case BYOC_INT8: p[i] = (unsigned char)(int8_t)v; break;
    case BYOC_UINT8: p[i] = (unsigned char)v; break;
    case BYOC_BOOL: p[i] = v != 0; break;
    case BYOC_INT16: { int16_t x = (int16_t)v; memcpy(p + 2 * i, &x, 2); break; }
    case BYOC_INT32: { int32_t x = (int32_t)v; memcpy(p + 4 * i, &x, 4); break; }
    case BYOC_INT64: { int64_t x = (int64_t)v; memcpy(p + 8 * i, &x, 8); break; }
    default: break;
    }
}

BYOC_API byoc_node *byoc_constant(byoc_module *m, const byoc_type *t, const void *data, size_t nbytes) {
    if (!m) return NULL;
    if (m->has_error || !t) return NULL;
    if (t->kind != BYOC_TYPE_TENSOR || !byoc_type_is_static(t)) {
        byoc__fail(m, BYOC_ERR_INVALID_ARGUMENT, 0, "constant: type must be a tensor type with static shape");
        return NULL;
    }
    int64_t elems = byoc_type_num_elements(t);
    if (elems < 0 || (uint64_t)elems > (UINT64_C(1) << 40) / byoc_dtype_size(t->dtype)) {
        byoc__fail(m, BYOC_ERR_UNSUPPORTED, 0, "constant: too large (limit 2^40 bytes)");
        return NULL;
    }
    size_t want = (size_t)elems * byoc_dtype_size(t->dtype);
    if (data && nbytes != want) {
        byoc__fail(m, BYOC_ERR_INVALID_ARGUMENT, 0, "constant: %zu bytes given, the type needs %zu", nbytes, want);
        return NULL;
    }
    byoc_node *n = byoc__node_new(m, BYOC_NODE_CONSTANT);
    void *copy = byoc__arena_alloc_in(m, &m->bulk, want);
    if (!n || !copy) return NULL;
    if (data && want) memcpy(copy, data, want);
    n->annotation = t;
    n->data = copy;
    return n;
}

BYOC_API byoc_node *byoc_constant_scalar(byoc_module *m, byoc_dtype dt, double value) {
    if (!m) return NULL;
    const byoc_type *t = byoc_tensor_type(m, dt, 0, NULL);
    byoc_node *n = byoc_constant(m, t, NULL, 0);
    if (n) byoc__store(dt, n->data, 0, value);
    return n;
}

BYOC_API float byoc_constant_f32(const byoc_node *c, int64_t i) {
    if (!c) return 0;
    BYOC_ASSERT(c && c->kind == BYOC_NODE_CONSTANT);
    return (float)byoc__load(c->annotation->dtype, c->data, i);
}

/* an op call whose attributes are complete, checked and owned by m (shared, never copied) */
BYOC__PRIVATE byoc_node *byoc__call_op_checked(byoc_module *m, const byoc_op *op, byoc_node *const *args, int nargs,
                                              const byoc_attrs *attrs) {
    if (m->has_error || byoc__any_null(args, nargs)) return NULL;
    byoc_node *n = byoc__node_new(m, BYOC_NODE_CALL);
    if (!n) return NULL;
    n->op = op;
    n->args = byoc__node_array(m, args, nargs);
    n->nargs = nargs;
    n->attrs = *attrs;
    return m->has_error ? NULL : n;
}

BYOC_API byoc_node *byoc_call_op(byoc_module *m, const byoc_op *op, byoc_node *const *args, int nargs,
                                 const byoc_attrs *attrs) {
    if (!m) return NULL;
    if (m->has_error || !op || byoc__any_null(args, nargs)) return NULL;
    if (nargs < op->def.min_args || (op->def.max_args >= 0 && nargs > op->def.max_args)) {
        if (op->def.max_args == op->def.min_args)
            byoc__fail(m, BYOC_ERR_INVALID_ARGUMENT, 0, "%s: expects %d argument%s, got %d", op->def.name,
                       op->def.min_args, op->def.min_args == 1 ? "" : "s", nargs);
        else if (op->def.max_args < 0)
            byoc__fail(m, BYOC_ERR_INVALID_ARGUMENT, 0, "%s: expects at least %d arguments, got %d", op->def.name,
                       op->def.min_args, nargs);
        else
            byoc__fail(m, BYOC_ERR_INVALID_ARGUMENT, 0, "%s: expects %d to %d arguments, got %d", op->def.name,
                       op->def.min_args, op->def.max_args, nargs);
        return NULL;
    }
    byoc_attrs full;
    byoc_diag d;
    if (byoc_op_check_attrs(m, op, attrs, &full, &d) != BYOC_OK) {
        if (!m->has_error) { m->error = d; m->has_error = 1; }
        return NULL;
    }
    return byoc__call_op_checked(m, op, args, nargs, &full);
}

BYOC_API byoc_node *byoc_call(byoc_module *m, const char *op_name, byoc_node *const *args, int nargs,
                              const byoc_attrs *attrs) {
    if (!m) return NULL;
    if (m->has_error) return NULL;
    const byoc_op *op = byoc_op_get(op_name);
    if (!op) {
        byoc__fail(m, BYOC_ERR_UNKNOWN_OP, 0, "unknown op '%s'", op_name);
        return NULL;
    }
    return byoc_call_op(m, op, args, nargs, attrs);
}

BYOC_API byoc_node *byoc_call_function(byoc_module *m, byoc_node *callee, byoc_node *const *args, int nargs) {
    if (!m) return NULL;
    if (m->has_error || !callee || byoc__any_null(args, nargs)) return NULL;
    if (callee->kind != BYOC_NODE_FUNCTION && callee->kind != BYOC_NODE_VAR && callee->kind != BYOC_NODE_GLOBAL_VAR) {
        byoc__fail(m, BYOC_ERR_INVALID_ARGUMENT, callee->id, "call: callee must be a function, var or global var");
        return NULL;
    }
    byoc_node *n = byoc__node_new(m, BYOC_NODE_CALL);
    if (!n) return NULL;
    n->callee = callee;
    n->args = byoc__node_array(m, args, nargs);
    n->nargs = nargs;
    return m->has_error ? NULL : n;
}

BYOC_API byoc_node *byoc_tuple(byoc_module *m, byoc_node *const *fields, int nfields) {
    if (!m) return NULL;
    if (m->has_error || byoc__any_null(fields, nfields)) return NULL;
    byoc_node *n = byoc__node_new(m, BYOC_NODE_TUPLE);
    if (!n) return NULL;
    n->args = byoc__node_array(m, fields, nfields);
    n->nargs = nfields;
    return m->has_error ? NULL : n;
}

BYOC_API byoc_node *byoc_tuple_get_item(byoc_module *m, byoc_node *tuple, int index) {
    if (!m) return NULL;
    if (m->has_error || !tuple) return NULL;
    if (index < 0) {
        byoc__fail(m, BYOC_ERR_INVALID_ARGUMENT, tuple->id, "tuple_get_item: negative index %d", index);
        return NULL;
    }
    byoc_node *n = byoc__node_new(m, BYOC_NODE_TUPLE_GET_ITEM);
    if (!n) return NULL;
    n->args = byoc__node_array(m, &tuple, 1);
    n->nargs = 1;
    n->index = index;
    return m->has_error ? NULL : n;
}

BYOC_API byoc_node *byoc_function(byoc_module *m, byoc_node *const *params, int nparams, byoc_node *body,
                                  const byoc_type *ret_type, const byoc_attrs *attrs) {
    if (!m) return NULL;
    if (m->has_error || !body || byoc__any_null(params, nparams)) return NULL;
    for (int i = 0; i < nparams; ++i)
        if (params[i]->kind != BYOC_NODE_VAR) {
            byoc__fail(m, BYOC_ERR_INVALID_ARGUMENT, params[i]->id, "function: parameter %d is not a var", i);
            return NULL;
        }
    byoc_node *n = byoc__node_new(m, BYOC_NODE_FUNCTION);
    if (!n) return NULL;
    n->params = byoc__node_array(m, params, nparams);
    n->nparams = nparams;
    n->body = body;
    n->annotation = ret_type;
    if (attrs) n->attrs = byoc__attrs_build(m, attrs, NULL, 0);
    return m->has_error ? NULL : n;
}

/* fn with a new body, sharing its parameters, result annotation, attributes (immutable, owned by m)
   and span */
BYOC__PRIVATE byoc_node *byoc__function_with_body(byoc_module *m, const byoc_node *fn, byoc_node *body) {
    byoc_node *nf = byoc_function(m, fn->params, fn->nparams, body, fn->annotation, NULL);
    if (nf) {
        nf->attrs = fn->attrs;
        nf->span = fn->span;
    }
    return nf;
}

/* a global var for a name already interned in m */
BYOC__PRIVATE byoc_node *byoc__global_var_interned(byoc_module *m, const char *interned) {
    byoc_node *n = byoc__node_new(m, BYOC_NODE_GLOBAL_VAR);
    if (n) n->name = interned;
    return n;
}
BYOC_API byoc_node *byoc_global_var(byoc_module *m, const char *name) {
    if (!m) return NULL;
    return byoc__global_var_interned(m, byoc_intern(m, name));
}

/* a span of m's (strings interned in m) */
BYOC__PRIVATE const byoc_span *byoc__span_new(byoc_module *m, const char *source, const char *file, int line, int col) {
    if (!source && !file && !line && !col) return NULL;
    byoc_span *sp = BYOC__CAST(byoc_span *, byoc__arena_alloc_in(m, &m->bulk, sizeof *sp));
    if (!sp) return NULL;
    sp->source = byoc_intern(m, source);
    sp->file = byoc_intern(m, file);
    sp->line = line;
    sp->col = col;
    return sp;
}
/* n's span, copied into m (n may belong to another module) */
BYOC__PRIVATE const byoc_span *byoc__span_copy(byoc_module *m, const byoc_node *n) {
    return n->span ? byoc__span_new(m, n->span->source, n->span->file, n->span->line, n->span->col) : NULL;
}

BYOC_API void byoc_node_set_span(byoc_module *m, byoc_node *n, const char *source, const char *file, int line,
                                 int col) {
    if (!m) return;
    if (n) n->span = byoc__span_new(m, source, file, line, col);
}

BYOC_API const byoc_span *byoc_node_span(const byoc_node *n) {
    static const byoc_span none = {NULL, NULL, 0, 0};
    return n && n->span ? n->span : &none;
}

BYOC_API size_t byoc_constant_nbytes(const byoc_node *c) {
    if (!c || c->kind != BYOC_NODE_CONSTANT || !c->annotation) return 0;
    return (size_t)byoc_type_num_elements(c->annotation) * byoc_dtype_size(c->annotation->dtype);
}

/* Functions are found by their interned name, a pointer: callers mostly pass one already (names of
   functions and global vars are interned), so the string itself is hashed only for other spellings. */
BYOC__PRIVATE int byoc__function_index(const byoc_module *m, const char *name) {
    if (!name) return -1;
    intptr_t i = byoc__map_get(&m->function_index, name, -1);
    if (i >= 0) return (int)i;
    byoc_module *mm = (byoc_module *)m; /* stb_ds lookups take a non-const map */
    ptrdiff_t s = stbds_shgeti(mm->strings, name);
    if (s < 0 || mm->strings[s].key == name) return -1; /* never interned, or it was the interned copy */
    return (int)byoc__map_get(&m->function_index, mm->strings[s].key, -1);
}

/* sets the function under a name already interned in m */
BYOC__PRIVATE void byoc__module_put_function(byoc_module *m, const char *interned, byoc_node *function) {
    intptr_t i = byoc__map_get(&m->function_index, interned, -1);
    if (i >= 0) { m->functions[i].function = function; return; }
    byoc_global_function g;
    g.name = interned;
    g.function = function;
    byoc__map_put(&m->function_index, interned, (intptr_t)stbds_arrlen(m->functions));
    stbds_arrput(m->functions, g);
}

BYOC_API byoc_result byoc_module_set_function(byoc_module *m, const char *name, byoc_node *function) {
    if (!m) return BYOC_ERR_INVALID_ARGUMENT;
    if (m->has_error) return m->error.code;
    if (!function || function->kind != BYOC_NODE_FUNCTION) {
        byoc__fail(m, BYOC_ERR_INVALID_ARGUMENT, function ? function->id : 0, "module: @%s is not a function", name);
        return BYOC_ERR_INVALID_ARGUMENT;
    }
    if (!name) {
        byoc__fail(m, BYOC_ERR_INVALID_ARGUMENT, function->id, "module: a function needs a name");
        return BYOC_ERR_INVALID_ARGUMENT;
    }
    byoc__module_put_function(m, byoc_intern(m, name), function);
    return BYOC_OK;
}

BYOC_API byoc_result byoc_module_add_function(byoc_module *m, const char *name, byoc_node *function) {
    if (!m) return BYOC_ERR_INVALID_ARGUMENT;
    if (m->has_error) return m->error.code;
    if (byoc__function_index(m, name) >= 0) {
        byoc__fail(m, BYOC_ERR_DUPLICATE, 0, "module: function @%s is already defined", name);
        return BYOC_ERR_DUPLICATE;
    }
    return byoc_module_set_function(m, name, function);
}

BYOC_API byoc_node *byoc_module_function(const byoc_module *m, const char *name) {
    if (!m) return NULL;
    int i = byoc__function_index(m, name);
    return i >= 0 ? m->functions[i].function : NULL;
}
BYOC_API int byoc_module_function_count(const byoc_module *m) {
    if (!m) return 0;
    return (int)stbds_arrlen(m->functions);
}
BYOC_API byoc_global_function byoc_module_function_at(const byoc_module *m, int i) {
    if (!m) { byoc_global_function none; memset(&none, 0, sizeof none); return none; }
    BYOC_ASSERT(i >= 0 && i < (int)stbds_arrlen(m->functions));
    return m->functions[i];
}

// [SECTION] impl: traversal & dataflow graph
BYOC__PRIVATE int byoc__input_count(const byoc_node *n, unsigned flags) {
    switch (n->kind) {
    case BYOC_NODE_CALL: return n->nargs + (n->callee ? 1 : 0);
    case BYOC_NODE_TUPLE: case BYOC_NODE_TUPLE_GET_ITEM: return n->nargs;
    case BYOC_NODE_FUNCTION: return (flags & BYOC_GRAPH_ENTER_FUNCTIONS) ? 1 : 0;
    default: return 0;
    }
}
BYOC__PRIVATE byoc_node *byoc__input_at(const byoc_node *n, int i) {
    if (n->kind == BYOC_NODE_FUNCTION) return n->body;
    if (n->kind == BYOC_NODE_CALL && n->callee) return i < n->nargs ? n->args[i] : n->callee;
    return n->args[i];
}

BYOC_API int byoc_node_inputs(const byoc_node *n, byoc_node **out, int cap) {
    if (!n) return 0;
    int k = byoc__input_count(n, BYOC_GRAPH_ENTER_FUNCTIONS);
    for (int i = 0; i < k && i < cap; ++i) out[i] = byoc__input_at(n, i);
    return k;
}

typedef struct byoc__frame { byoc_node *node; int next; } byoc__frame;
/* Internal walk flag: do not enter nodes that already have a type (their inputs have one too). */
enum { BYOC__WALK_SKIP_TYPED = 0x100 };

#if defined(__GNUC__) || defined(__clang__)
#define BYOC__PREFETCH(p) __builtin_prefetch(p)
#else
#define BYOC__PREFETCH(p) ((void)0)
#endif
/* A walk that enters node n reads its inputs next. Builders and passes allocate a node's inputs (and
   their argument arrays) just before it in the arena, so the lines below n are mostly what comes next:
   fetching them early overlaps the cache misses of a walk that otherwise waits for one node at a time
   (measured: about 40% off a cold walk). A prefetch is only a hint; a wrong guess costs bandwidth. */
BYOC__PRIVATE void byoc__prefetch_inputs_of(const byoc_node *n) {
    /* integer arithmetic, not pointer arithmetic: those lines may lie outside n's arena block */
    for (uintptr_t k = 1; k <= 8; ++k) BYOC__PREFETCH((const void *)((uintptr_t)n - 64 * k));
}

/* the lines holding a node's first 64 bytes (the fields every loop reads): nodes are 8-byte aligned,
   so those bytes usually straddle two lines */
BYOC__PRIVATE void byoc__prefetch_node(const byoc_node *n) {
    BYOC__PREFETCH(n);
    BYOC__PREFETCH((const void *)((uintptr_t)n + 63));
}

/* Iterative post-order (inputs first, each node once): deep chains must not overflow the C stack.
   Appends to *order (stb_ds array); `seen` maps each visited node to its position in order. */
BYOC__PRIVATE void byoc__post_order(byoc_node *root, unsigned flags, byoc__map *seen, byoc_node ***order) {
    if (!root || !byoc__map_insert(seen, root, -1)) return;
    byoc__frame *stack = NULL;
    byoc__frame f0 = {root, 0};
    stbds_arrput(stack, f0);
    while (stbds_arrlen(stack)) {
        byoc__frame *top = &stack[stbds_arrlen(stack) - 1];
        if (top->next < byoc__input_count(top->node, flags)) {
            byoc_node *child = byoc__input_at(top->node, top->next++);
            if ((flags & BYOC__WALK_SKIP_TYPED) && child->checked_type && child->kind != BYOC_NODE_GLOBAL_VAR) continue;
            if (byoc__map_insert(seen, child, -1)) {
                byoc__frame f = {child, 0};
                stbds_arrput(stack, f);
                byoc__prefetch_inputs_of(child);
            }
            continue;
        }
        byoc__map_put(seen, top->node, (intptr_t)stbds_arrlen(*order));
        stbds_arrput(*order, top->node);
        (void)stbds_arrpop(stack);
    }
    stbds_arrfree(stack);
}

/* A fresh walk mark: nodes carry the mark of the last walk that reached them (0 when new). One
   counter serves all modules, so no two walks share a mark (a graph may hold nodes of several
   modules); it is atomic where the compiler offers it, since separate modules may be walked from
   separate threads. */
static uint64_t byoc__walk_epoch; /* 64 bits: it never wraps around to a mark a node still holds */
BYOC__PRIVATE uint64_t byoc__walk_mark_new(void) {
#if defined(__GNUC__) || defined(__clang__)
    return __atomic_add_fetch(&byoc__walk_epoch, 1, __ATOMIC_RELAXED);
#else
    return ++byoc__walk_epoch;
#endif
}
/* What byoc_graph_build learns during its walk, so that it need not read any node again after it (on
   a big graph every such read is a cache miss: the walk has long pushed the node out). */
typedef struct byoc__walk_stats {
    uint32_t *ids;       /* stb_ds: the id of each node, in post-order */
    int *ninputs;        /* stb_ds: per node, how many distinct inputs it has */
    uint32_t *input_ids; /* stb_ds: those inputs' ids, node after node, in argument order */
    uint32_t *pending;   /* stb_ds: ids of the inputs of the nodes on the walk's stack */
    uint32_t lo, hi;
    size_t slots;        /* input slots in all (repeats included) */
} byoc__walk_stats;

/* byoc__post_order for a single walk: "visited" is a mark in the node itself, so the check reads the
   cache line the walk needs anyway instead of a hash map. With stats, it also notes ids and edges
   while the lines are at hand: a node's input ids are pushed as the walk meets them and popped when
   the node is done (deeper nodes pop theirs first). */
BYOC__PRIVATE void byoc__post_order_marked_stats(byoc_node *root, unsigned flags, byoc_node ***order,
                                                 byoc__walk_stats *stats) {
    if (!root) return;
    uint64_t mark = byoc__walk_mark_new();
    byoc__frame *stack = NULL;
    byoc__frame f0 = {root, 0};
    root->walk_mark = mark;
    stbds_arrput(stack, f0);
    while (stbds_arrlen(stack)) {
        byoc__frame *top = &stack[stbds_arrlen(stack) - 1];
        int k = byoc__input_count(top->node, flags);
        if (top->next < k) {
            byoc_node *child = byoc__input_at(top->node, top->next++);
            if ((flags & BYOC__WALK_SKIP_TYPED) && child->checked_type && child->kind != BYOC_NODE_GLOBAL_VAR) continue;
            if (stats) stbds_arrput(stats->pending, child->id); /* (stats are never asked with SKIP_TYPED) */
            if (child->walk_mark != mark) {
                child->walk_mark = mark;
                byoc__frame f = {child, 0};
                stbds_arrput(stack, f);
                byoc__prefetch_inputs_of(child);
            }
            continue;
        }
        if (stats) {
            uint32_t id = top->node->id, *mine = k ? stats->pending + stbds_arrlen(stats->pending) - k : NULL;
            stbds_arrput(stats->ids, id);
            if (id < stats->lo) stats->lo = id;
            if (id > stats->hi) stats->hi = id;
            stats->slots += (size_t)k;
            int distinct = 0;
            size_t first = stbds_arrlen(stats->input_ids);
            for (int j = 0; j < k; ++j) {
                int dup = 0;
                for (int q = 0; q < distinct; ++q) dup |= stats->input_ids[first + (size_t)q] == mine[j];
                if (!dup) { stbds_arrput(stats->input_ids, mine[j]); distinct++; }
            }
            stbds_arrput(stats->ninputs, distinct);
            stbds_arrsetlen(stats->pending, stbds_arrlen(stats->pending) - k);
        }
        stbds_arrput(*order, top->node);
        (void)stbds_arrpop(stack);
    }
    stbds_arrfree(stack);
}
BYOC__PRIVATE void byoc__post_order_marked(byoc_node *root, unsigned flags, byoc_node ***order) {
    byoc__post_order_marked_stats(root, flags, order, NULL);
}

BYOC__PRIVATE void byoc__walk_stats_free(byoc__walk_stats *st) {
    stbds_arrfree(st->ids);
    stbds_arrfree(st->ninputs);
    stbds_arrfree(st->input_ids);
    stbds_arrfree(st->pending);
}

/* grows m's id table to hold ids below need; new entries are -1 */
BYOC__PRIVATE int byoc__id_index_reserve(byoc_module *m, uint32_t need) {
    if (need <= m->id_index_cap) return 1;
    size_t cap = (size_t)m->id_index_cap * 2 > need ? (size_t)m->id_index_cap * 2 : need;
    if (cap < 1024) cap = 1024;
    if (cap > UINT32_MAX) return 0;
    int *grown = BYOC__CAST(int *, BYOC_REALLOC(m->id_index, sizeof(int) * cap));
    if (!grown) return 0;
    memset(grown + m->id_index_cap, 0xff, sizeof(int) * (cap - m->id_index_cap));
    m->id_index = grown;
    m->id_index_cap = (uint32_t)cap;
    return 1;
}

BYOC_API byoc_result byoc_graph_build(byoc_module *m, byoc_node *root, unsigned flags, byoc_graph *out) {
    if (!out) return BYOC_ERR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    out->module = m;
    if (!m) return BYOC_ERR_INVALID_ARGUMENT;
    flags &= ~(unsigned)BYOC__WALK_SKIP_TYPED; /* a graph holds every input of its nodes */
    byoc_node **order = NULL;
    byoc__walk_stats st;
    memset(&st, 0, sizeof st);
    st.lo = UINT32_MAX;
    byoc__post_order_marked_stats(root, flags, &order, &st);
    int count = (int)stbds_arrlen(order);
    uint32_t lo = st.lo, hi = st.hi;
    /* ids are dense within a module: an array indexed by id is much faster than a hash map (a map is
       the fallback when nodes of several modules share ids). The module lends its table when it can:
       clearing a fresh one for every graph would write a line per 16 ids, graph after graph. */
    if (count && hi - lo < (uint32_t)INT32_MAX) {
        int *dense = NULL;
        uint32_t base = lo, span = hi - lo + 1;
        if (!m->id_index_lent && hi < m->next_id && byoc__id_index_reserve(m, hi + 1)) {
            dense = m->id_index;
            base = 0;
            span = m->id_index_cap;
        } else if ((size_t)(hi - lo) / 64 <= (size_t)count + 4096) {
            dense = BYOC__CAST(int *, BYOC_MALLOC(sizeof(int) * (size_t)span));
            if (dense) memset(dense, 0xff, sizeof(int) * (size_t)span);
        }
        int ok = dense != NULL;
        for (int i = 0; ok && i < count; ++i) {
            int *slot = &dense[st.ids[i] - base];
            /* an entry left by an earlier graph is told apart by the id at the position it names */
            if (*slot >= 0 && *slot < i && st.ids[*slot] == st.ids[i])
                ok = 0; /* two nodes with one id: nodes from several modules */
            else *slot = i;
        }
        if (ok) {
            out->dense = dense;
            out->dense_base = base;
            out->dense_count = span;
            if (dense == m->id_index) m->id_index_lent = 1;
        } else if (dense != m->id_index) BYOC_FREE(dense);
    }
    byoc__map *index = NULL;
    if (!out->dense) {
        index = (byoc__map *)BYOC_CALLOC(1, sizeof(byoc__map));
        if (!index) { stbds_arrfree(order); byoc__walk_stats_free(&st); return BYOC_ERR_OUT_OF_MEMORY; }
        for (int i = 0; i < count; ++i) byoc__map_put(index, order[i], i);
    }
    out->index_map = index;
    out->count = count;
    /* distinct inputs by id are distinct by node only when ids are: else size for every slot */
    size_t edges = out->dense ? (size_t)stbds_arrlen(st.input_ids) : st.slots;
    out->nodes = BYOC__CAST(byoc_graph_node *, byoc_alloc(m, sizeof(byoc_graph_node) * (size_t)(count ? count : 1)));
    int *pool = BYOC__CAST(int *, byoc_alloc(m, sizeof(int) * (2 * edges + 1)));
    int *user_counts = BYOC__CAST(int *, BYOC_CALLOC((size_t)count + 1, sizeof(int)));
    if (!out->nodes || !pool || !user_counts) {
        byoc_free(m, out->nodes);
        byoc_free(m, pool);
        BYOC_FREE(user_counts);
        out->nodes = NULL;
        if (index) byoc__map_free(index);
        BYOC_FREE(index);
        out->index_map = NULL; /* the caller's byoc_graph_free must not free it again */
        if (out->dense == m->id_index) m->id_index_lent = 0;
        else BYOC_FREE(out->dense);
        out->dense = NULL;
        stbds_arrfree(order);
        byoc__walk_stats_free(&st);
        return BYOC_ERR_OUT_OF_MEMORY;
    }
    memset(out->nodes, 0, sizeof(byoc_graph_node) * (size_t)(count ? count : 1));
    int *in_pool = pool, *user_pool = pool + edges;
    size_t used = 0;
    for (int i = 0; i < count; ++i) {
        byoc_graph_node *g = &out->nodes[i];
        g->node = order[i];
        g->inputs = in_pool + used;
        if (out->dense) { /* the edges the walk noted, as indices: no node is read */
            for (int j = 0; j < st.ninputs[i]; ++j) {
                int idx = out->dense[st.input_ids[used + (size_t)j] - out->dense_base];
                g->inputs[g->ninputs++] = idx;
                user_counts[idx]++;
            }
        } else { /* ids are not distinct: the edges again from the nodes, through the map */
            int k = byoc__input_count(order[i], flags);
            for (int j = 0; j < k; ++j) {
                int idx = byoc_graph_index(out, byoc__input_at(order[i], j)), dup = 0;
                for (int q = 0; q < g->ninputs; ++q) dup |= g->inputs[q] == idx;
                if (!dup) { g->inputs[g->ninputs++] = idx; user_counts[idx]++; }
            }
        }
        used += (size_t)g->ninputs;
    }
    size_t uoff = 0;
    for (int i = 0; i < count; ++i) {
        out->nodes[i].users = user_pool + uoff;
        uoff += (size_t)user_counts[i];
    }
    for (int i = 0; i < count; ++i) /* ascending i gives ascending user lists */
        for (int j = 0; j < out->nodes[i].ninputs; ++j) {
            byoc_graph_node *src = &out->nodes[out->nodes[i].inputs[j]];
            src->users[src->nusers++] = i;
        }
    BYOC_FREE(user_counts);
    out->edge_pool = pool;
    stbds_arrfree(order);
    byoc__walk_stats_free(&st);
    return BYOC_OK;
}

/* loops that visit a graph in order read each node: fetch the node at index i a few steps early */
BYOC__PRIVATE void byoc__graph_prefetch(const byoc_graph *g, int i) {
    if (i >= 0 && i < g->count) byoc__prefetch_node(g->nodes[i].node);
}
/* the same for loops that rebuild nodes: those read the attributes, span and origin too, the node's
   second half (a node is 128 bytes, so three lines cover it however it is aligned) */
BYOC__PRIVATE void byoc__graph_prefetch_whole(const byoc_graph *g, int i) {
    if (i < 0 || i >= g->count) return;
    uintptr_t n = (uintptr_t)g->nodes[i].node;
    BYOC__PREFETCH((const void *)n);
    BYOC__PREFETCH((const void *)(n + 64));
    BYOC__PREFETCH((const void *)(n + sizeof(byoc_node) - 1));
}

BYOC_API int byoc_graph_index(const byoc_graph *g, const byoc_node *n) {
    if (!g || !n) return -1;
    if (g->dense) {
        uint32_t k = n->id - g->dense_base;
        if (n->id < g->dense_base || k >= g->dense_count) return -1;
        int i = g->dense[k]; /* may be left by another graph: valid only if it names n here */
        return i >= 0 && i < g->count && g->nodes[i].node == n ? i : -1;
    }
    return (int)byoc__map_get((const byoc__map *)g->index_map, n, -1);
}

BYOC_API void byoc_graph_free(byoc_graph *g) {
    if (!g || !g->module) return;
    if (g->dense && g->dense == g->module->id_index) g->module->id_index_lent = 0;
    else BYOC_FREE(g->dense);
    byoc__map *index = (byoc__map *)g->index_map;
    if (index) byoc__map_free(index);
    BYOC_FREE(index);
    byoc_free(g->module, g->edge_pool);
    byoc_free(g->module, g->nodes);
    memset(g, 0, sizeof *g);
}

// [SECTION] impl: op registry & type relations
struct byoc_type_rel_ctx {
    byoc_module *m;
    const byoc_op *op;
    const byoc_node *call;
    int failed;
    char message[512];
};

BYOC_API const byoc_type *byoc_type_rel_tensor(byoc_type_rel_ctx *ctx, byoc_dtype dt, int rank, const int64_t *dims) {
    /* report bad results as this op's type error, not as a sticky module error */
    if (rank < 0 || rank > BYOC_MAX_RANK)
        return byoc_type_rel_fail(ctx, "result rank %d outside 0..%d", rank, BYOC_MAX_RANK);
    for (int i = 0; i < rank; ++i)
        if (dims[i] < -1 || dims[i] > BYOC_MAX_DIM)
            return byoc_type_rel_fail(ctx, "result dimension %lld is out of range", (long long)dims[i]);
    if ((int)dt <= 0 || dt >= BYOC_DTYPE_COUNT) return byoc_type_rel_fail(ctx, "invalid result dtype");
    return byoc_tensor_type(ctx->m, dt, rank, dims);
}
BYOC_API const byoc_type *byoc_type_rel_tuple(byoc_type_rel_ctx *ctx, const byoc_type *const *fields, int n) {
    return byoc_tuple_type(ctx->m, fields, n);
}
BYOC_API const byoc_type *byoc_type_rel_fail(byoc_type_rel_ctx *ctx, const char *fmt, ...) {
    if (ctx->failed) return NULL;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->message, sizeof ctx->message, fmt, ap);
    va_end(ap);
    ctx->failed = 1;
    return NULL;
}
BYOC_API void *byoc_type_rel_user_data(byoc_type_rel_ctx *ctx) { return ctx->op->def.user_data; }
BYOC_API const byoc_node *byoc_type_rel_call(byoc_type_rel_ctx *ctx) { return ctx->call; }

BYOC_API const char *byoc_op_class_name(byoc_op_class c) {
    static const char *const names[] = {"none",     "conv2d",  "dense",      "pool2d", "global_pool2d",
                                        "elemwise", "softmax", "layer_norm", "reduce", "transpose"};
    return (int)c >= 0 && (int)c < (int)(sizeof names / sizeof names[0]) ? names[c] : "unknown";
}

BYOC_API const char *byoc_op_pattern_name(byoc_op_pattern p) {
    switch (p) {
    case BYOC_PATTERN_ELEMWISE: return "elemwise";
    case BYOC_PATTERN_BROADCAST: return "broadcast";
    case BYOC_PATTERN_INJECTIVE: return "injective";
    case BYOC_PATTERN_COMM_REDUCE: return "comm_reduce";
    case BYOC_PATTERN_OUT_ELEMWISE_FUSABLE: return "out_elemwise_fusable";
    case BYOC_PATTERN_TUPLE: return "tuple";
    case BYOC_PATTERN_OPAQUE: return "opaque";
    }
    return "unknown";
}

/* -- helpers shared by the type relations -- */
#define BYOC__FAIL(...) byoc_type_rel_fail(ctx, __VA_ARGS__)
#define BYOC__OPNAME (ctx->op->def.name)

BYOC__PRIVATE int byoc__tensor_arg(byoc_type_rel_ctx *ctx, const byoc_type *t, const char *what) {
    if (t->kind == BYOC_TYPE_TENSOR) return 1;
    char buf[128];
    byoc_type_to_string(t, buf, sizeof buf);
    BYOC__FAIL("%s must be a tensor, got %s", what, buf);
    return 0;
}

BYOC__PRIVATE int byoc__static_arg(byoc_type_rel_ctx *ctx, const byoc_type *t, const char *what) {
    if (!byoc__tensor_arg(ctx, t, what)) return 0;
    if (byoc_type_is_static(t)) return 1;
    char buf[128];
    byoc_type_to_string(t, buf, sizeof buf);
    BYOC__FAIL("needs a static shape for %s, got %s", what, buf);
    return 0;
}

BYOC__PRIVATE int byoc__rank_arg(byoc_type_rel_ctx *ctx, const byoc_type *t, const char *what, int rank) {
    if (!byoc__tensor_arg(ctx, t, what)) return 0;
    if (t->rank == rank) return 1;
    BYOC__FAIL("%s must have rank %d, got rank %d", what, rank, t->rank);
    return 0;
}

BYOC__PRIVATE int byoc__float_arg(byoc_type_rel_ctx *ctx, const byoc_type *t, const char *what) {
    if (!byoc__tensor_arg(ctx, t, what)) return 0;
    if (byoc_dtype_is_float(t->dtype)) return 1;
    BYOC__FAIL("%s must be a float tensor, got %s", what, byoc_dtype_name(t->dtype));
    return 0;
}

BYOC__PRIVATE int byoc__same_dtype(byoc_type_rel_ctx *ctx, const byoc_type *a, const byoc_type *b) {
    if (a->dtype == b->dtype) return 1;
    BYOC__FAIL("argument dtypes differ (%s vs %s)", byoc_dtype_name(a->dtype), byoc_dtype_name(b->dtype));
    return 0;
}

/* axis in [-rank, rank) -> [0, rank) */
BYOC__PRIVATE int byoc__axis(byoc_type_rel_ctx *ctx, int64_t axis, int rank, const char *what) {
    if (axis < -rank || axis >= rank) {
        BYOC__FAIL("%s %lld is out of range for rank %d", what, (long long)axis, rank);
        return -1;
    }
    return (int)(axis < 0 ? axis + rank : axis);
}

BYOC__PRIVATE const byoc_attr_value *byoc__list_attr(byoc_type_rel_ctx *ctx, const byoc_attrs *attrs, const char *name,
                                                     int min_len, int max_len) {
    const byoc_attr_value *v = byoc_attrs_get(attrs, name);
    if (!v || v->kind != BYOC_ATTR_INT_LIST) { BYOC__FAIL("attribute '%s' must be an int list", name); return NULL; }
    if (v->count < min_len || v->count > max_len) {
        if (min_len == max_len) BYOC__FAIL("attribute '%s' must have %d values, got %d", name, min_len, v->count);
        else BYOC__FAIL("attribute '%s' must have %d to %d values, got %d", name, min_len, max_len, v->count);
        return NULL;
    }
    return v;
}

/* padding given as [p], [ph, pw] or [top, left, bottom, right] */
BYOC__PRIVATE int byoc__padding4(byoc_type_rel_ctx *ctx, const byoc_attrs *attrs, int64_t pad[4]) {
    const byoc_attr_value *v = byoc__list_attr(ctx, attrs, "padding", 1, 4);
    if (!v) return 0;
    if (v->count == 3) { BYOC__FAIL("attribute 'padding' must have 1, 2 or 4 values, got 3"); return 0; }
    if (v->count == 1) pad[0] = pad[1] = pad[2] = pad[3] = v->ints[0];
    else if (v->count == 2) { pad[0] = pad[2] = v->ints[0]; pad[1] = pad[3] = v->ints[1]; }
    else for (int i = 0; i < 4; ++i) pad[i] = v->ints[i];
    for (int i = 0; i < 4; ++i)
        if (pad[i] < 0 || pad[i] > BYOC_MAX_DIM) {
            BYOC__FAIL("padding %lld is out of range", (long long)pad[i]);
            return 0;
        }
    return 1;
}

BYOC__PRIVATE int byoc__pair(byoc_type_rel_ctx *ctx, const byoc_attrs *attrs, const char *name, int64_t out[2],
                             int64_t min_value) {
    const byoc_attr_value *v = byoc__list_attr(ctx, attrs, name, 1, 2);
    if (!v) return 0;
    out[0] = v->ints[0];
    out[1] = v->count == 2 ? v->ints[1] : v->ints[0];
    if (out[0] < min_value || out[1] < min_value || out[0] > BYOC_MAX_DIM || out[1] > BYOC_MAX_DIM) {
        BYOC__FAIL("attribute '%s' values must be in %lld..%d", name, (long long)min_value, BYOC_MAX_DIM);
        return 0;
    }
    return 1;
}

BYOC__PRIVATE int byoc__layout_is(byoc_type_rel_ctx *ctx, const byoc_attrs *attrs, const char *name, const char *want,
                                  int empty_ok) {
    const char *s = byoc_attrs_string(attrs, name, "");
    if (strcmp(s, want) == 0 || (empty_ok && !*s)) return 1;
    BYOC__FAIL("%s \"%s\" is not supported (only \"%s\")", name, s, want);
    return 0;
}

BYOC__PRIVATE byoc_dtype byoc__out_dtype(byoc_type_rel_ctx *ctx, const byoc_attrs *attrs, byoc_dtype fallback) {
    const char *s = byoc_attrs_string(attrs, "out_dtype", "");
    if (!*s) return fallback;
    byoc_dtype dt = byoc_dtype_from_name(s);
    if (dt == BYOC_DTYPE_INVALID) BYOC__FAIL("unknown out_dtype \"%s\"", s);
    return dt;
}

/* a window op's output extent: -1 for a dynamic input */
BYOC__PRIVATE int64_t byoc__window_out(byoc_type_rel_ctx *ctx, int64_t in, int64_t pad_before, int64_t pad_after,
                                       int64_t kernel, int64_t stride, int64_t dilation, int ceil_mode,
                                       const char *axis_name) {
    int64_t pad_sum = pad_before + pad_after;
    if (in < 0) return -1;
    int64_t span = dilation * (kernel - 1) + 1, avail = in + pad_sum - span;
    if (avail < 0) {
        BYOC__FAIL("window %lld (dilated) is larger than the padded %s extent %lld", (long long)span, axis_name,
                   (long long)(in + pad_sum));
        return -2;
    }
    int64_t out = (ceil_mode ? (avail + stride - 1) / stride : avail / stride) + 1;
    /* the last window must start inside the input or its leading padding */
    if (ceil_mode && (out - 1) * stride >= in + pad_before) out--;
    return out;
}

BYOC__PRIVATE const byoc_type *byoc__same_as_input(byoc_type_rel_ctx *ctx, const byoc_type *t) {
    if (!byoc__tensor_arg(ctx, t, "the input")) return NULL;
    return t;
}

/* -- type relations -- */
static const byoc_type *byoc__rel_identity(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                           const byoc_attrs *at) {
    (void)n; (void)at;
    return byoc__same_as_input(ctx, a[0]);
}
static const byoc_type *byoc__rel_any_identity(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                               const byoc_attrs *at) {
    (void)ctx; (void)n; (void)at;
    return a[0];
}
static const byoc_type *byoc__rel_float_unary(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                              const byoc_attrs *at) {
    (void)n; (void)at;
    return byoc__float_arg(ctx, a[0], "the input") ? a[0] : NULL;
}

BYOC__PRIVATE const byoc_type *byoc__broadcast(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                               byoc_dtype out_dt) {
    int rank = 0;
    for (int i = 0; i < n; ++i) {
        if (!byoc__tensor_arg(ctx, a[i],
                              i == 0   ? "the first argument"
                              : i == 1 ? "the second argument"
                                       : "the third argument"))
            return NULL;
        if (a[i]->rank > rank) rank = a[i]->rank;
    }
    int64_t dims[BYOC_MAX_RANK];
    for (int d = 0; d < rank; ++d) {
        int64_t r = 1;
        for (int i = 0; i < n; ++i) {
            int k = d - (rank - a[i]->rank);
            if (k < 0) continue;
            int64_t v = a[i]->dims[k];
            if (v == 1) continue;
            if (r == 1) r = v;
            else if (v >= 0 && r >= 0 && v != r) {
                char s0[128], s1[128];
                byoc_type_to_string(a[0], s0, sizeof s0);
                byoc_type_to_string(a[i], s1, sizeof s1);
                BYOC__FAIL("shapes %s and %s do not broadcast (axis %d: %lld vs %lld)", s0, s1, d, (long long)r,
                           (long long)v);
                return NULL;
            } else if (v < 0) r = r >= 0 && r != 1 ? r : -1;
        }
        dims[d] = r;
    }
    return byoc_type_rel_tensor(ctx, out_dt, rank, dims);
}

static const byoc_type *byoc__rel_broadcast(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                            const byoc_attrs *at) {
    (void)at;
    if (!byoc__tensor_arg(ctx, a[0], "the first argument") || !byoc__tensor_arg(ctx, a[1], "the second argument"))
        return NULL;
    if (!byoc__same_dtype(ctx, a[0], a[1])) return NULL;
    return byoc__broadcast(ctx, a, n, a[0]->dtype);
}
static const byoc_type *byoc__rel_compare(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                          const byoc_attrs *at) {
    (void)at;
    if (!byoc__tensor_arg(ctx, a[0], "the first argument") || !byoc__tensor_arg(ctx, a[1], "the second argument"))
        return NULL;
    if (!byoc__same_dtype(ctx, a[0], a[1])) return NULL;
    return byoc__broadcast(ctx, a, n, BYOC_BOOL);
}
static const byoc_type *byoc__rel_where(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                        const byoc_attrs *at) {
    (void)at;
    for (int i = 0; i < 3; ++i) if (!byoc__tensor_arg(ctx, a[i], "every argument")) return NULL;
    if (a[0]->dtype != BYOC_BOOL) return BYOC__FAIL("condition must be bool, got %s", byoc_dtype_name(a[0]->dtype));
    if (!byoc__same_dtype(ctx, a[1], a[2])) return NULL;
    return byoc__broadcast(ctx, a, n, a[1]->dtype);
}
static const byoc_type *byoc__rel_logical_not(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                              const byoc_attrs *at) {
    (void)n; (void)at;
    if (!byoc__tensor_arg(ctx, a[0], "the input")) return NULL;
    if (a[0]->dtype != BYOC_BOOL) return BYOC__FAIL("the input must be bool, got %s", byoc_dtype_name(a[0]->dtype));
    return a[0];
}

/* data plus a 1-D per-channel operand along attribute 'axis' (bias_add's bias, prelu's alpha) */
BYOC__PRIVATE const byoc_type *byoc__per_channel(byoc_type_rel_ctx *ctx, const byoc_type *const *a,
                                                 const byoc_attrs *at, const char *what, int broadcast_one) {
    if (!byoc__tensor_arg(ctx, a[0], "data") || !byoc__rank_arg(ctx, a[1], what, 1) ||
        !byoc__same_dtype(ctx, a[0], a[1]))
        return NULL;
    int axis = byoc__axis(ctx, byoc_attrs_int(at, "axis", 1), a[0]->rank, "axis");
    if (axis < 0) return NULL;
    int64_t c = a[0]->dims[axis], k = a[1]->dims[0];
    if (c >= 0 && k >= 0 && c != k && !(broadcast_one && k == 1))
        return BYOC__FAIL("data has %lld channels on axis %d, %s has %lld", (long long)c, axis, what, (long long)k);
    return a[0];
}
static const byoc_type *byoc__rel_bias_add(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                           const byoc_attrs *at) {
    (void)n;
    return byoc__per_channel(ctx, a, at, "bias", 0);
}
static const byoc_type *byoc__rel_prelu(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                        const byoc_attrs *at) {
    (void)n;
    return byoc__per_channel(ctx, a, at, "alpha", 1);
}

static const byoc_type *byoc__rel_conv2d(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                         const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0], *w = a[1];
    if (!byoc__rank_arg(ctx, d, "input", 4) || !byoc__rank_arg(ctx, w, "weight", 4) ||
        !byoc__static_arg(ctx, w, "weight"))
        return NULL;
    if (!byoc__layout_is(ctx, at, "data_layout", "NCHW", 0) || !byoc__layout_is(ctx, at, "kernel_layout", "OIHW", 0) ||
        !byoc__layout_is(ctx, at, "out_layout", "NCHW", 1))
        return NULL;
    int64_t groups = byoc_attrs_int(at, "groups", 1), strides[2], dil[2], pad[4];
    if (groups < 1 || groups > BYOC_MAX_DIM)
        return BYOC__FAIL("groups must be in 1..%d, got %lld", BYOC_MAX_DIM, (long long)groups);
    if (!byoc__pair(ctx, at, "strides", strides, 1) || !byoc__pair(ctx, at, "dilation", dil, 1) ||
        !byoc__padding4(ctx, at, pad))
        return NULL;
    if (d->dims[1] < 0) return BYOC__FAIL("needs a static channel count, got '?'");
    if (d->dims[1] != w->dims[1] * groups)
        return BYOC__FAIL("input has %lld channels, weight expects %lld", (long long)d->dims[1],
                          (long long)(w->dims[1] * groups));
    if (w->dims[0] % groups)
        return BYOC__FAIL("weight has %lld output channels, not divisible by groups=%lld", (long long)w->dims[0],
                          (long long)groups);
    const byoc_attr_value *ch = byoc_attrs_get(at, "channels");
    if (ch && ch->kind == BYOC_ATTR_INT && ch->i != w->dims[0])
        return BYOC__FAIL("channels=%lld but weight has %lld output channels", (long long)ch->i, (long long)w->dims[0]);
    const byoc_attr_value *ks = byoc_attrs_get(at, "kernel_size");
    if (ks && ks->kind == BYOC_ATTR_INT_LIST &&
        (ks->count != 2 || ks->ints[0] != w->dims[2] || ks->ints[1] != w->dims[3]))
        return BYOC__FAIL("kernel_size does not match weight shape (%lld, %lld)", (long long)w->dims[2],
                          (long long)w->dims[3]);
    if (!byoc__same_dtype(ctx, d, w)) return NULL;
    int64_t dims[4] = {d->dims[0], w->dims[0], 0, 0};
    dims[2] = byoc__window_out(ctx, d->dims[2], pad[0], pad[2], w->dims[2], strides[0], dil[0], 0, "height");
    dims[3] = byoc__window_out(ctx, d->dims[3], pad[1], pad[3], w->dims[3], strides[1], dil[1], 0, "width");
    if (ctx->failed) return NULL;
    byoc_dtype odt = byoc__out_dtype(ctx, at, d->dtype);
    return ctx->failed ? NULL : byoc_type_rel_tensor(ctx, odt, 4, dims);
}

static const byoc_type *byoc__rel_conv2d_transpose(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                                   const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0], *w = a[1];
    if (!byoc__rank_arg(ctx, d, "input", 4) || !byoc__rank_arg(ctx, w, "weight", 4) ||
        !byoc__static_arg(ctx, w, "weight"))
        return NULL;
    if (!byoc__layout_is(ctx, at, "data_layout", "NCHW", 0) || !byoc__layout_is(ctx, at, "kernel_layout", "IOHW", 0) ||
        !byoc__layout_is(ctx, at, "out_layout", "NCHW", 1))
        return NULL;
    int64_t groups = byoc_attrs_int(at, "groups", 1), strides[2], dil[2], pad[4], opad[2];
    if (groups < 1 || groups > BYOC_MAX_DIM)
        return BYOC__FAIL("groups must be in 1..%d, got %lld", BYOC_MAX_DIM, (long long)groups);
    if (!byoc__pair(ctx, at, "strides", strides, 1) || !byoc__pair(ctx, at, "dilation", dil, 1) ||
        !byoc__padding4(ctx, at, pad) || !byoc__pair(ctx, at, "output_padding", opad, 0))
        return NULL;
    if (d->dims[1] < 0) return BYOC__FAIL("needs a static channel count, got '?'");
    if (d->dims[1] != w->dims[0])
        return BYOC__FAIL("input has %lld channels, weight expects %lld", (long long)d->dims[1], (long long)w->dims[0]);
    if (!byoc__same_dtype(ctx, d, w)) return NULL;
    int64_t dims[4] = {d->dims[0], w->dims[1] * groups, -1, -1};
    for (int k = 0; k < 2; ++k) {
        int64_t in = d->dims[2 + k];
        if (in < 0) continue;
        dims[2 + k] = (in - 1) * strides[k] - pad[k] - pad[k + 2] + dil[k] * (w->dims[2 + k] - 1) + opad[k] + 1;
        if (dims[2 + k] < 1)
            return BYOC__FAIL("output %s would be %lld", k ? "width" : "height", (long long)dims[2 + k]);
    }
    const byoc_attr_value *ch = byoc_attrs_get(at, "channels");
    if (ch && ch->kind == BYOC_ATTR_INT && ch->i != dims[1])
        return BYOC__FAIL("channels=%lld but weight gives %lld output channels", (long long)ch->i, (long long)dims[1]);
    byoc_dtype odt = byoc__out_dtype(ctx, at, d->dtype);
    return ctx->failed ? NULL : byoc_type_rel_tensor(ctx, odt, 4, dims);
}

static const byoc_type *byoc__rel_dense(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                        const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0], *w = a[1];
    if (!byoc__tensor_arg(ctx, d, "input") || !byoc__rank_arg(ctx, w, "weight", 2) ||
        !byoc__static_arg(ctx, w, "weight"))
        return NULL;
    if (d->rank < 1) return BYOC__FAIL("input must have rank >= 1");
    int64_t k = d->dims[d->rank - 1];
    if (k >= 0 && k != w->dims[1])
        return BYOC__FAIL("input has %lld features, weight expects %lld", (long long)k, (long long)w->dims[1]);
    const byoc_attr_value *u = byoc_attrs_get(at, "units");
    if (u && u->kind == BYOC_ATTR_INT && u->i != w->dims[0])
        return BYOC__FAIL("units=%lld but weight has %lld rows", (long long)u->i, (long long)w->dims[0]);
    if (!byoc__same_dtype(ctx, d, w)) return NULL;
    int64_t dims[BYOC_MAX_RANK];
    memcpy(dims, d->dims, sizeof dims);
    dims[d->rank - 1] = w->dims[0];
    byoc_dtype odt = byoc__out_dtype(ctx, at, d->dtype);
    return ctx->failed ? NULL : byoc_type_rel_tensor(ctx, odt, d->rank, dims);
}

/* numpy-style matmul over the last two axes, batch axes broadcast */
BYOC__PRIVATE const byoc_type *byoc__matmul_type(byoc_type_rel_ctx *ctx, const byoc_type *x, const byoc_type *y, int ta,
                                                 int tb, const byoc_attrs *at) {
    if (!byoc__tensor_arg(ctx, x, "the first argument") || !byoc__tensor_arg(ctx, y, "the second argument"))
        return NULL;
    if (x->rank < 2 || y->rank < 2) return BYOC__FAIL("arguments must have rank >= 2, got %d and %d", x->rank, y->rank);
    if (!byoc__same_dtype(ctx, x, y)) return NULL;
    int64_t m = x->dims[x->rank - (ta ? 1 : 2)], k1 = x->dims[x->rank - (ta ? 2 : 1)];
    int64_t k2 = y->dims[y->rank - (tb ? 1 : 2)], nn = y->dims[y->rank - (tb ? 2 : 1)];
    if (k1 >= 0 && k2 >= 0 && k1 != k2)
        return BYOC__FAIL("reduction axes differ: first argument has %lld, second has %lld", (long long)k1,
                          (long long)k2);
    int rank = x->rank > y->rank ? x->rank : y->rank;
    int64_t dims[BYOC_MAX_RANK];
    for (int d = 0; d < rank - 2; ++d) {
        int kx = d - (rank - x->rank), ky = d - (rank - y->rank);
        int64_t vx = kx >= 0 ? x->dims[kx] : 1, vy = ky >= 0 ? y->dims[ky] : 1;
        if (vx != 1 && vy != 1 && vx != vy && vx >= 0 && vy >= 0)
            return BYOC__FAIL("batch axis %d does not broadcast (%lld vs %lld)", d, (long long)vx, (long long)vy);
        dims[d] = vx == 1 ? vy : vx;
    }
    dims[rank - 2] = m;
    dims[rank - 1] = nn;
    byoc_dtype odt = byoc__out_dtype(ctx, at, x->dtype);
    return ctx->failed ? NULL : byoc_type_rel_tensor(ctx, odt, rank, dims);
}
static const byoc_type *byoc__rel_matmul(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                         const byoc_attrs *at) {
    (void)n;
    return byoc__matmul_type(ctx, a[0], a[1], (int)byoc_attrs_int(at, "transpose_a", 0),
                             (int)byoc_attrs_int(at, "transpose_b", 0), at);
}
static const byoc_type *byoc__rel_batch_matmul(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                               const byoc_attrs *at) {
    (void)n;
    if (!byoc__rank_arg(ctx, a[0], "the first argument", 3) || !byoc__rank_arg(ctx, a[1], "the second argument", 3))
        return NULL;
    return byoc__matmul_type(ctx, a[0], a[1], (int)byoc_attrs_int(at, "transpose_a", 0),
                             (int)byoc_attrs_int(at, "transpose_b", 1), at);
}

static const byoc_type *byoc__rel_softmax(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                          const byoc_attrs *at) {
    (void)n;
    if (!byoc__float_arg(ctx, a[0], "the input")) return NULL;
    return byoc__axis(ctx, byoc_attrs_int(at, "axis", -1), a[0]->rank, "axis") < 0 ? NULL : a[0];
}

static const byoc_type *byoc__rel_batch_norm(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                             const byoc_attrs *at) {
    (void)n;
    if (!byoc__float_arg(ctx, a[0], "data")) return NULL;
    int axis = byoc__axis(ctx, byoc_attrs_int(at, "axis", 1), a[0]->rank, "axis");
    if (axis < 0) return NULL;
    static const char *const names[] = {"gamma", "beta", "moving_mean", "moving_var"};
    for (int i = 1; i < 5; ++i) {
        if (!byoc__rank_arg(ctx, a[i], names[i - 1], 1) || !byoc__same_dtype(ctx, a[0], a[i])) return NULL;
        if (a[0]->dims[axis] >= 0 && a[i]->dims[0] != a[0]->dims[axis])
            return BYOC__FAIL("%s has %lld values, data has %lld channels", names[i - 1], (long long)a[i]->dims[0],
                              (long long)a[0]->dims[axis]);
    }
    const byoc_type *fields[3] = {a[0], a[3], a[4]};
    return byoc_type_rel_tuple(ctx, fields, 3);
}

static const byoc_type *byoc__rel_layer_norm(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                             const byoc_attrs *at) {
    (void)n;
    if (!byoc__float_arg(ctx, a[0], "data")) return NULL;
    int axis = byoc__axis(ctx, byoc_attrs_int(at, "axis", -1), a[0]->rank, "axis");
    if (axis < 0) return NULL;
    static const char *const names[] = {"gamma", "beta"};
    for (int i = 1; i < 3; ++i) {
        if (!byoc__rank_arg(ctx, a[i], names[i - 1], 1) || !byoc__same_dtype(ctx, a[0], a[i])) return NULL;
        if (a[0]->dims[axis] >= 0 && a[i]->dims[0] != a[0]->dims[axis])
            return BYOC__FAIL("%s has %lld values, data has %lld on axis %d", names[i - 1], (long long)a[i]->dims[0],
                              (long long)a[0]->dims[axis], axis);
    }
    return a[0];
}

static const byoc_type *byoc__rel_lrn(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n, const byoc_attrs *at) {
    (void)n;
    if (!byoc__float_arg(ctx, a[0], "data")) return NULL;
    if (byoc_attrs_int(at, "size", 5) < 1) return BYOC__FAIL("size must be >= 1");
    return byoc__axis(ctx, byoc_attrs_int(at, "axis", 1), a[0]->rank, "axis") < 0 ? NULL : a[0];
}

static const byoc_type *byoc__rel_pool2d(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                         const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0];
    if (!byoc__rank_arg(ctx, d, "input", 4) || !byoc__layout_is(ctx, at, "layout", "NCHW", 0) ||
        !byoc__layout_is(ctx, at, "out_layout", "NCHW", 1))
        return NULL;
    int64_t k[2], s[2], dil[2], pad[4];
    if (!byoc__pair(ctx, at, "pool_size", k, 1) || !byoc__pair(ctx, at, "strides", s, 1) ||
        !byoc__pair(ctx, at, "dilation", dil, 1) || !byoc__padding4(ctx, at, pad))
        return NULL;
    int ceil_mode = (int)byoc_attrs_int(at, "ceil_mode", 0);
    int64_t dims[4] = {d->dims[0], d->dims[1], 0, 0};
    dims[2] = byoc__window_out(ctx, d->dims[2], pad[0], pad[2], k[0], s[0], dil[0], ceil_mode, "height");
    dims[3] = byoc__window_out(ctx, d->dims[3], pad[1], pad[3], k[1], s[1], dil[1], ceil_mode, "width");
    return ctx->failed ? NULL : byoc_type_rel_tensor(ctx, d->dtype, 4, dims);
}

/* (max pool, the flat index into the input of each output's maximum as int64) */
static const byoc_type *byoc__rel_pool2d_argmax(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                                const byoc_attrs *at) {
    const byoc_type *values = byoc__rel_pool2d(ctx, a, n, at);
    if (!values) return NULL;
    const byoc_type *fields[2] = {values, byoc_type_rel_tensor(ctx, BYOC_INT64, values->rank, values->dims)};
    return byoc_type_rel_tuple(ctx, fields, 2);
}

static const byoc_type *byoc__rel_global_pool2d(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                                const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0];
    if (!byoc__rank_arg(ctx, d, "input", 4) || !byoc__layout_is(ctx, at, "layout", "NCHW", 0) ||
        !byoc__layout_is(ctx, at, "out_layout", "NCHW", 1))
        return NULL;
    int64_t dims[4] = {d->dims[0], d->dims[1], 1, 1};
    return byoc_type_rel_tensor(ctx, d->dtype, 4, dims);
}

static const byoc_type *byoc__rel_pad(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n, const byoc_attrs *at) {
    const byoc_type *d = a[0];
    if (!byoc__tensor_arg(ctx, d, "data")) return NULL;
    if (n > 1 && (!byoc__tensor_arg(ctx, a[1], "pad_value") || a[1]->rank != 0))
        return BYOC__FAIL("pad_value must be a scalar");
    if (n > 1 && !byoc__same_dtype(ctx, d, a[1])) return NULL;
    const byoc_attr_value *pw = byoc_attrs_get(at, "pad_width");
    if (!pw || pw->kind != BYOC_ATTR_INT_LIST || pw->inner != 2 || pw->count != 2 * d->rank)
        return BYOC__FAIL("pad_width must be %d pairs [[before, after], ...], one per axis", d->rank);
    const char *mode = byoc_attrs_string(at, "pad_mode", "constant");
    if (strcmp(mode, "constant") && strcmp(mode, "edge") && strcmp(mode, "reflect"))
        return BYOC__FAIL("pad_mode \"%s\" is not one of constant, edge, reflect", mode);
    int64_t dims[BYOC_MAX_RANK];
    for (int i = 0; i < d->rank; ++i) {
        int64_t lo = pw->ints[2 * i], hi = pw->ints[2 * i + 1];
        if (lo < 0 || hi < 0 || lo > BYOC_MAX_DIM || hi > BYOC_MAX_DIM)
            return BYOC__FAIL("pad_width on axis %d is out of range", i);
        dims[i] = d->dims[i] < 0 ? -1 : d->dims[i] + lo + hi;
    }
    return byoc_type_rel_tensor(ctx, d->dtype, d->rank, dims);
}

static const byoc_type *byoc__rel_reshape(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                          const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0];
    if (!byoc__tensor_arg(ctx, d, "the input")) return NULL;
    const byoc_attr_value *ns = byoc__list_attr(ctx, at, "newshape", 0, BYOC_MAX_RANK);
    if (!ns) return NULL;
    int64_t dims[BYOC_MAX_RANK], known = 1;
    int infer = -1, unknown = 0;
    for (int i = 0; i < ns->count; ++i) {
        int64_t v = ns->ints[i];
        if (v == 0) {
            if (i >= d->rank) return BYOC__FAIL("newshape[%d]=0 copies an axis the input does not have", i);
            v = d->dims[i];
            if (v < 0) { dims[i] = BYOC_DIM_ANY; unknown = 1; continue; } /* a copied '?' stays '?' */
        } else if (v == -1) {
            if (infer >= 0) return BYOC__FAIL("newshape has more than one -1");
            infer = i;
            dims[i] = 1;
            continue;
        } else if (v < -1 || v > BYOC_MAX_DIM)
            return BYOC__FAIL("newshape[%d]=%lld is not supported (only 0, -1 or a size)", i, (long long)v);
        dims[i] = v;
        if (v && known > INT64_MAX / v) return BYOC__FAIL("newshape has too many elements");
        known *= v;
    }
    int64_t total = byoc_type_num_elements(d);
    if (total < 0 || unknown) { /* '?' in: the inferred extent is '?', and the count is checked at run time */
        if (infer >= 0) dims[infer] = BYOC_DIM_ANY;
        return byoc_type_rel_tensor(ctx, d->dtype, ns->count, dims);
    }
    if (infer >= 0) {
        if (known == 0 || total % known)
            return BYOC__FAIL("cannot infer the -1 in newshape: %lld elements into blocks of %lld", (long long)total,
                              (long long)known);
        dims[infer] = total / known;
    } else if (known != total)
        return BYOC__FAIL("newshape has %lld elements, the input has %lld", (long long)known, (long long)total);
    return byoc_type_rel_tensor(ctx, d->dtype, ns->count, dims);
}

static const byoc_type *byoc__rel_transpose(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                            const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0];
    if (!byoc__tensor_arg(ctx, d, "the input")) return NULL;
    int64_t dims[BYOC_MAX_RANK];
    const byoc_attr_value *ax = byoc_attrs_get(at, "axes");
    if (!ax || ax->kind == BYOC_ATTR_NONE || ax->count == 0) {
        for (int i = 0; i < d->rank; ++i) dims[i] = d->dims[d->rank - 1 - i];
    } else {
        if (ax->count != d->rank) return BYOC__FAIL("axes has %d entries for rank %d", ax->count, d->rank);
        int used[BYOC_MAX_RANK] = {0};
        for (int i = 0; i < d->rank; ++i) {
            int k = byoc__axis(ctx, ax->ints[i], d->rank, "axes entry");
            if (k < 0) return NULL;
            if (used[k]++) return BYOC__FAIL("axes repeats axis %d", k);
            dims[i] = d->dims[k];
        }
    }
    return byoc_type_rel_tensor(ctx, d->dtype, d->rank, dims);
}

static const byoc_type *byoc__rel_squeeze(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                          const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0];
    if (!byoc__tensor_arg(ctx, d, "the input")) return NULL;
    const byoc_attr_value *ax = byoc_attrs_get(at, "axis");
    int drop[BYOC_MAX_RANK] = {0};
    if (!ax || ax->kind == BYOC_ATTR_NONE) {
        for (int i = 0; i < d->rank; ++i) {
            if (d->dims[i] < 0) return BYOC__FAIL("needs a static shape to squeeze all unit axes");
            drop[i] = d->dims[i] == 1;
        }
    } else {
        for (int i = 0; i < ax->count; ++i) {
            int k = byoc__axis(ctx, ax->ints[i], d->rank, "axis");
            if (k < 0) return NULL;
            if (d->dims[k] != 1) return BYOC__FAIL("axis %d has extent %lld, not 1", k, (long long)d->dims[k]);
            drop[k] = 1;
        }
    }
    int64_t dims[BYOC_MAX_RANK];
    int r = 0;
    for (int i = 0; i < d->rank; ++i) if (!drop[i]) dims[r++] = d->dims[i];
    return byoc_type_rel_tensor(ctx, d->dtype, r, dims);
}

static const byoc_type *byoc__rel_expand_dims(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                              const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0];
    if (!byoc__tensor_arg(ctx, d, "the input")) return NULL;
    int64_t num = byoc_attrs_int(at, "num_newaxis", 1);
    if (num < 0 || num > BYOC_MAX_RANK || d->rank + num > BYOC_MAX_RANK)
        return BYOC__FAIL("num_newaxis=%lld gives a rank above %d", (long long)num, BYOC_MAX_RANK);
    int axis = byoc__axis(ctx, byoc_attrs_int(at, "axis", 0), d->rank + 1, "axis");
    if (axis < 0) return NULL;
    int64_t dims[BYOC_MAX_RANK];
    int r = 0;
    for (int i = 0; i <= d->rank; ++i) {
        if (i == axis) for (int k = 0; k < num; ++k) dims[r++] = 1;
        if (i < d->rank) dims[r++] = d->dims[i];
    }
    return byoc_type_rel_tensor(ctx, d->dtype, r, dims);
}

static const byoc_type *byoc__rel_concatenate(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                              const byoc_attrs *at) {
    (void)n;
    const byoc_type *t = a[0];
    if (t->kind != BYOC_TYPE_TUPLE) return BYOC__FAIL("the input must be a tuple of tensors");
    if (t->nfields < 1) return BYOC__FAIL("needs at least one tensor");
    const byoc_type *f0 = t->fields[0];
    if (!byoc__tensor_arg(ctx, f0, "every field")) return NULL;
    int axis = byoc__axis(ctx, byoc_attrs_int(at, "axis", 0), f0->rank, "axis");
    if (axis < 0) return NULL;
    int64_t dims[BYOC_MAX_RANK];
    memcpy(dims, f0->dims, sizeof dims);
    for (int i = 1; i < t->nfields; ++i) {
        const byoc_type *f = t->fields[i];
        if (!byoc__tensor_arg(ctx, f, "every field") || !byoc__same_dtype(ctx, f0, f)) return NULL;
        if (f->rank != f0->rank) return BYOC__FAIL("field %d has rank %d, field 0 has rank %d", i, f->rank, f0->rank);
        for (int k = 0; k < f->rank; ++k) {
            if (k == axis) { dims[k] = dims[k] < 0 || f->dims[k] < 0 ? -1 : dims[k] + f->dims[k]; continue; }
            if (f->dims[k] >= 0 && f0->dims[k] >= 0 && f->dims[k] != f0->dims[k])
                return BYOC__FAIL("field %d has extent %lld on axis %d, field 0 has %lld", i, (long long)f->dims[k], k,
                                  (long long)f0->dims[k]);
        }
    }
    return byoc_type_rel_tensor(ctx, f0->dtype, f0->rank, dims);
}

static const byoc_type *byoc__rel_split(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                        const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0];
    if (!byoc__tensor_arg(ctx, d, "the input")) return NULL;
    int axis = byoc__axis(ctx, byoc_attrs_int(at, "axis", 0), d->rank, "axis");
    if (axis < 0) return NULL;
    int64_t extent = d->dims[axis];
    if (extent < 0) return BYOC__FAIL("needs a static extent on axis %d", axis);
    const byoc_attr_value *ios = byoc_attrs_get(at, "indices_or_sections");
    int64_t bounds[65];
    int parts = 0;
    if (ios->kind == BYOC_ATTR_INT) {
        if (ios->i < 1 || ios->i > 64) return BYOC__FAIL("sections must be in 1..64, got %lld", (long long)ios->i);
        if (extent % ios->i)
            return BYOC__FAIL("axis %d extent %lld does not split into %lld equal sections", axis, (long long)extent,
                              (long long)ios->i);
        parts = (int)ios->i;
        for (int i = 0; i <= parts; ++i) bounds[i] = extent / parts * i;
    } else {
        if (ios->count > 63) return BYOC__FAIL("at most 63 split indices");
        bounds[0] = 0;
        for (int i = 0; i < ios->count; ++i) {
            bounds[i + 1] = ios->ints[i];
            if (bounds[i + 1] < bounds[i] || bounds[i + 1] > extent)
                return BYOC__FAIL("split indices must ascend within 0..%lld", (long long)extent);
        }
        parts = ios->count + 1;
        bounds[parts] = extent;
    }
    const byoc_type *fields[64];
    for (int i = 0; i < parts; ++i) {
        int64_t dims[BYOC_MAX_RANK];
        memcpy(dims, d->dims, sizeof dims);
        dims[axis] = bounds[i + 1] - bounds[i];
        fields[i] = byoc_type_rel_tensor(ctx, d->dtype, d->rank, dims);
    }
    return byoc_type_rel_tuple(ctx, fields, parts);
}

static const byoc_type *byoc__rel_strided_slice(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                                const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0];
    if (!byoc__tensor_arg(ctx, d, "the input")) return NULL;
    const byoc_attr_value *b = byoc_attrs_get(at, "begin"), *e = byoc_attrs_get(at, "end"),
                          *s = byoc_attrs_get(at, "strides"), *ax = byoc_attrs_get(at, "axes");
    int has_axes = ax && ax->kind == BYOC_ATTR_INT_LIST,
        has_strides = s && s->kind == BYOC_ATTR_INT_LIST && s->count > 0;
    int count = has_axes ? ax->count : b->count;
    if (b->count != count || e->count != count || (has_strides && s->count != count && s->count != 1))
        return BYOC__FAIL("begin, end, strides and axes must have matching lengths");
    if (count > d->rank) return BYOC__FAIL("%d slice entries for rank %d", count, d->rank);
    int size_mode = strcmp(byoc_attrs_string(at, "slice_mode", "end"), "size") == 0;
    int64_t dims[BYOC_MAX_RANK];
    memcpy(dims, d->dims, sizeof dims);
    int seen[BYOC_MAX_RANK] = {0};
    for (int i = 0; i < count; ++i) {
        int axis = has_axes ? byoc__axis(ctx, ax->ints[i], d->rank, "axes entry") : i;
        if (axis < 0) return NULL;
        if (seen[axis]++) return BYOC__FAIL("axis %d sliced twice", axis);
        int64_t dim = d->dims[axis];
        int64_t stride = has_strides ? s->ints[s->count == 1 ? 0 : i] : 1;
        if (stride == 0 || stride == INT64_MIN) return BYOC__FAIL("invalid stride on axis %d", axis);
        if (dim < 0) { dims[axis] = BYOC_DIM_ANY; continue; } /* known once the extent is */
        int64_t lo = b->ints[i], hi = e->ints[i];
        if (size_mode) {
            if (stride != 1) return BYOC__FAIL("slice_mode=\"size\" needs stride 1");
            if (lo < 0) lo += dim;
            lo = lo < 0 ? 0 : lo > dim ? dim : lo;
            hi = e->ints[i] < 0 || e->ints[i] > dim ? dim : lo + e->ints[i];
        } else {
            if (lo < 0) lo += dim;
            if (hi < 0) hi += dim;
        }
        if (stride > 0) {
            lo = lo < 0 ? 0 : lo > dim ? dim : lo;
            hi = hi < 0 ? 0 : hi > dim ? dim : hi;
            dims[axis] = hi > lo ? (hi - lo - 1) / stride + 1 : 0;
        } else {
            lo = lo < -1 ? -1 : lo > dim - 1 ? dim - 1 : lo;
            hi = hi < -1 ? -1 : hi > dim - 1 ? dim - 1 : hi;
            dims[axis] = lo > hi ? (lo - hi - 1) / (-stride) + 1 : 0;
        }
    }
    return byoc_type_rel_tensor(ctx, d->dtype, d->rank, dims);
}

static const byoc_type *byoc__rel_take(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n, const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0], *idx = a[1];
    if (!byoc__tensor_arg(ctx, d, "data") || !byoc__tensor_arg(ctx, idx, "indices")) return NULL;
    if (byoc_dtype_is_float(idx->dtype) || idx->dtype == BYOC_BOOL)
        return BYOC__FAIL("indices must be integers, got %s", byoc_dtype_name(idx->dtype));
    const char *mode = byoc_attrs_string(at, "mode", "clip");
    if (strcmp(mode, "clip") && strcmp(mode, "wrap") && strcmp(mode, "fast"))
        return BYOC__FAIL("mode \"%s\" is not one of clip, wrap, fast", mode);
    const byoc_attr_value *ax = byoc_attrs_get(at, "axis");
    int64_t dims[BYOC_MAX_RANK];
    if (!ax || ax->kind == BYOC_ATTR_NONE) return byoc_type_rel_tensor(ctx, d->dtype, idx->rank, idx->dims);
    int axis = byoc__axis(ctx, ax->i, d->rank, "axis");
    if (axis < 0) return NULL;
    /* the first batch_dims axes of data and indices are shared: they appear once in the result */
    int64_t bd = byoc_attrs_int(at, "batch_dims", 0);
    if (bd < 0) bd += idx->rank;
    if (bd < 0 || bd > axis || bd > idx->rank)
        return BYOC__FAIL("batch_dims %lld must be in 0..min(axis, indices rank)",
                          (long long)byoc_attrs_int(at, "batch_dims", 0));
    for (int i = 0; i < bd; ++i)
        if (d->dims[i] >= 0 && idx->dims[i] >= 0 && d->dims[i] != idx->dims[i])
            return BYOC__FAIL("batch axis %d: data has %lld, indices have %lld", i, (long long)d->dims[i],
                              (long long)idx->dims[i]);
    int rank = d->rank - 1 + idx->rank - (int)bd;
    if (rank > BYOC_MAX_RANK) return BYOC__FAIL("result rank %d exceeds %d", rank, BYOC_MAX_RANK);
    int r = 0;
    for (int i = 0; i < axis; ++i) dims[r++] = d->dims[i];
    for (int i = (int)bd; i < idx->rank; ++i) dims[r++] = idx->dims[i];
    for (int i = axis + 1; i < d->rank; ++i) dims[r++] = d->dims[i];
    return byoc_type_rel_tensor(ctx, d->dtype, rank, dims);
}

static const byoc_type *byoc__rel_depth_to_space(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                                 const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0];
    if (!byoc__rank_arg(ctx, d, "input", 4) || !byoc__layout_is(ctx, at, "layout", "NCHW", 0)) return NULL;
    int64_t bs = byoc_attrs_int(at, "block_size", 1);
    const char *mode = byoc_attrs_string(at, "mode", "DCR");
    if (strcmp(mode, "DCR") && strcmp(mode, "CRD")) return BYOC__FAIL("mode \"%s\" is not DCR or CRD", mode);
    if (bs < 1 || bs > 65536) return BYOC__FAIL("block_size must be in 1..65536");
    if (d->dims[1] < 0 || d->dims[1] % (bs * bs))
        return BYOC__FAIL("input channels %lld are not divisible by block_size^2=%lld", (long long)d->dims[1],
                          (long long)(bs * bs));
    int64_t dims[4] = {d->dims[0], d->dims[1] / (bs * bs), d->dims[2] < 0 ? -1 : d->dims[2] * bs,
                       d->dims[3] < 0 ? -1 : d->dims[3] * bs};
    return byoc_type_rel_tensor(ctx, d->dtype, 4, dims);
}

static const byoc_type *byoc__rel_broadcast_to(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                               const byoc_attrs *at) {
    (void)n;
    if (!byoc__tensor_arg(ctx, a[0], "the input")) return NULL;
    const byoc_attr_value *s = byoc__list_attr(ctx, at, "shape", 0, BYOC_MAX_RANK);
    if (!s) return NULL;
    const byoc_type *target = byoc_type_rel_tensor(ctx, a[0]->dtype, s->count, s->ints);
    if (!target) return BYOC__FAIL("invalid shape");
    const byoc_type *both[2] = {a[0], target};
    const byoc_type *r = byoc__broadcast(ctx, both, 2, a[0]->dtype);
    if (r && !byoc_type_equal(r, target)) return BYOC__FAIL("input does not broadcast to the requested shape");
    return r;
}

static const byoc_type *byoc__rel_reduce(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                         const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0];
    if (!byoc__tensor_arg(ctx, d, "the input")) return NULL;
    const byoc_attr_value *ax = byoc_attrs_get(at, "axis");
    int keep = (int)byoc_attrs_int(at, "keepdims", 0), exclude = (int)byoc_attrs_int(at, "exclude", 0);
    int red[BYOC_MAX_RANK] = {0};
    if (!ax || ax->kind == BYOC_ATTR_NONE) {
        for (int i = 0; i < d->rank; ++i) red[i] = 1;
    } else {
        int64_t single = ax->i;
        const int64_t *list = ax->kind == BYOC_ATTR_INT ? &single : ax->ints;
        int cnt = ax->kind == BYOC_ATTR_INT ? 1 : ax->count;
        for (int i = 0; i < cnt; ++i) {
            int k = byoc__axis(ctx, list[i], d->rank, "axis");
            if (k < 0) return NULL;
            red[k] = 1;
        }
        if (exclude) for (int i = 0; i < d->rank; ++i) red[i] = !red[i];
    }
    int64_t dims[BYOC_MAX_RANK];
    int r = 0;
    for (int i = 0; i < d->rank; ++i) {
        if (!red[i]) dims[r++] = d->dims[i];
        else if (keep) dims[r++] = 1;
    }
    return byoc_type_rel_tensor(ctx, d->dtype, r, dims);
}

static const byoc_type *byoc__rel_cast(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n, const byoc_attrs *at) {
    (void)n;
    if (!byoc__tensor_arg(ctx, a[0], "the input")) return NULL;
    const char *s = byoc_attrs_string(at, "dtype", "");
    byoc_dtype dt = byoc_dtype_from_name(s);
    if (dt == BYOC_DTYPE_INVALID) return BYOC__FAIL("unknown dtype \"%s\"", s);
    return byoc_type_rel_tensor(ctx, dt, a[0]->rank, a[0]->dims);
}

static const byoc_type *byoc__rel_dropout(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                          const byoc_attrs *at) {
    (void)n;
    if (!byoc__float_arg(ctx, a[0], "the input")) return NULL;
    double rate = byoc_attrs_float(at, "rate", 0.5);
    if (!(rate >= 0 && rate < 1)) return BYOC__FAIL("rate must be in [0, 1), got %g", rate);
    const byoc_type *fields[2] = {a[0], a[0]};
    return byoc_type_rel_tuple(ctx, fields, 2);
}

static const byoc_type *byoc__rel_resize2d(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                           const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0];
    if (!byoc__rank_arg(ctx, d, "input", 4) || !byoc__layout_is(ctx, at, "layout", "NCHW", 0)) return NULL;
    const byoc_attr_value *size = byoc__list_attr(ctx, at, "size", 2, 2);
    if (!size) return NULL;
    if (size->ints[0] < 1 || size->ints[1] < 1) return BYOC__FAIL("size must be positive");
    const char *method = byoc_attrs_string(at, "method", "linear");
    if (strcmp(method, "nearest_neighbor") && strcmp(method, "linear") && strcmp(method, "cubic"))
        return BYOC__FAIL("method \"%s\" is not one of nearest_neighbor, linear, cubic", method);
    const char *ctm = byoc_attrs_string(at, "coordinate_transformation_mode", "half_pixel");
    if (strcmp(ctm, "half_pixel") && strcmp(ctm, "align_corners") && strcmp(ctm, "asymmetric") &&
        strcmp(ctm, "pytorch_half_pixel"))
        return BYOC__FAIL("coordinate_transformation_mode \"%s\" is not supported", ctm);
    int64_t dims[4] = {d->dims[0], d->dims[1], size->ints[0], size->ints[1]};
    byoc_dtype odt = byoc__out_dtype(ctx, at, d->dtype);
    return ctx->failed ? NULL : byoc_type_rel_tensor(ctx, odt, 4, dims);
}

static const byoc_type *byoc__rel_shape_of(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                           const byoc_attrs *at) {
    (void)n;
    if (!byoc__tensor_arg(ctx, a[0], "the input")) return NULL;
    byoc_dtype dt = byoc_dtype_from_name(byoc_attrs_string(at, "dtype", "int32"));
    if (dt != BYOC_INT32 && dt != BYOC_INT64) return BYOC__FAIL("dtype must be int32 or int64");
    int64_t r = a[0]->rank;
    return byoc_type_rel_tensor(ctx, dt, 1, &r);
}

/* -- attribute schemas -- */
#define BYOC__A(name, kinds, def) {name, kinds, def}
#define BYOC__INT BYOC_ATTR_INT
#define BYOC__FLT BYOC_ATTR_FLOAT
#define BYOC__STR BYOC_ATTR_STRING
#define BYOC__BOOL BYOC_ATTR_BOOL
#define BYOC__INTS BYOC_ATTR_INT_LIST
#define BYOC__FLTS BYOC_ATTR_FLOAT_LIST
#define BYOC__OPT BYOC_ATTR_NONE
static const byoc_attr_spec byoc__attrs_conv2d[] = {
    BYOC__A("strides", BYOC__INTS, "[1, 1]"),           BYOC__A("padding", BYOC__INTS, "[0, 0, 0, 0]"),
    BYOC__A("dilation", BYOC__INTS, "[1, 1]"),          BYOC__A("groups", BYOC__INT, "1"),
    BYOC__A("channels", BYOC__INT | BYOC__OPT, "None"), BYOC__A("kernel_size", BYOC__INTS | BYOC__OPT, "None"),
    BYOC__A("data_layout", BYOC__STR, "\"NCHW\""),      BYOC__A("kernel_layout", BYOC__STR, "\"OIHW\""),
    BYOC__A("out_layout", BYOC__STR, "\"\""),           BYOC__A("out_dtype", BYOC__STR, "\"\"")};
static const byoc_attr_spec byoc__attrs_conv2d_transpose[] = {BYOC__A("strides", BYOC__INTS, "[1, 1]"),
                                                              BYOC__A("padding", BYOC__INTS, "[0, 0, 0, 0]"),
                                                              BYOC__A("dilation", BYOC__INTS, "[1, 1]"),
                                                              BYOC__A("output_padding", BYOC__INTS, "[0, 0]"),
                                                              BYOC__A("groups", BYOC__INT, "1"),
                                                              BYOC__A("channels", BYOC__INT | BYOC__OPT, "None"),
                                                              BYOC__A("kernel_size", BYOC__INTS | BYOC__OPT, "None"),
                                                              BYOC__A("data_layout", BYOC__STR, "\"NCHW\""),
                                                              BYOC__A("kernel_layout", BYOC__STR, "\"IOHW\""),
                                                              BYOC__A("out_layout", BYOC__STR, "\"\""),
                                                              BYOC__A("out_dtype", BYOC__STR, "\"\"")};
static const byoc_attr_spec byoc__attrs_dense[] = {BYOC__A("units", BYOC__INT | BYOC__OPT, "None"),
                                                   BYOC__A("out_dtype", BYOC__STR, "\"\"")};
static const byoc_attr_spec byoc__attrs_matmul[] = {
    BYOC__A("units", BYOC__INT | BYOC__OPT, "None"), BYOC__A("out_dtype", BYOC__STR, "\"\""),
    BYOC__A("transpose_a", BYOC__BOOL, "False"), BYOC__A("transpose_b", BYOC__BOOL, "False")};
static const byoc_attr_spec byoc__attrs_batch_matmul[] = {BYOC__A("out_dtype", BYOC__STR, "\"\""),
                                                          BYOC__A("transpose_a", BYOC__BOOL, "False"),
                                                          BYOC__A("transpose_b", BYOC__BOOL, "True")};
static const byoc_attr_spec byoc__attrs_axis1[] = {BYOC__A("axis", BYOC__INT, "1")};
static const byoc_attr_spec byoc__attrs_axis_last[] = {BYOC__A("axis", BYOC__INT, "-1")};
static const byoc_attr_spec byoc__attrs_leaky_relu[] = {BYOC__A("alpha", BYOC__FLT, "0.01f")};
static const byoc_attr_spec byoc__attrs_clip[] = {BYOC__A("a_min", BYOC__FLT, NULL), BYOC__A("a_max", BYOC__FLT, NULL)};
static const byoc_attr_spec byoc__attrs_hard_sigmoid[] = {BYOC__A("alpha", BYOC__FLT, "0.2f"),
                                                          BYOC__A("beta", BYOC__FLT, "0.5f")};
static const byoc_attr_spec byoc__attrs_gelu[] = {BYOC__A("approximate", BYOC__STR, "\"none\"")};
static const byoc_attr_spec byoc__attrs_batch_norm[] = {
    BYOC__A("axis", BYOC__INT, "1"), BYOC__A("epsilon", BYOC__FLT, "1e-05f"), BYOC__A("center", BYOC__BOOL, "True"),
    BYOC__A("scale", BYOC__BOOL, "True")};
static const byoc_attr_spec byoc__attrs_layer_norm[] = {
    BYOC__A("axis", BYOC__INT, "-1"), BYOC__A("epsilon", BYOC__FLT, "1e-05f"), BYOC__A("center", BYOC__BOOL, "True"),
    BYOC__A("scale", BYOC__BOOL, "True")};
static const byoc_attr_spec byoc__attrs_lrn[] = {
    BYOC__A("size", BYOC__INT, "5"), BYOC__A("axis", BYOC__INT, "1"), BYOC__A("bias", BYOC__FLT, "2f"),
    BYOC__A("alpha", BYOC__FLT, "0.0001f"), BYOC__A("beta", BYOC__FLT, "0.75f")};
static const byoc_attr_spec byoc__attrs_max_pool2d[] = {
    BYOC__A("pool_size", BYOC__INTS, "[1, 1]"), BYOC__A("strides", BYOC__INTS, "[1, 1]"),
    BYOC__A("dilation", BYOC__INTS, "[1, 1]"),  BYOC__A("padding", BYOC__INTS, "[0, 0, 0, 0]"),
    BYOC__A("layout", BYOC__STR, "\"NCHW\""),   BYOC__A("out_layout", BYOC__STR, "\"\""),
    BYOC__A("ceil_mode", BYOC__BOOL, "False")};
static const byoc_attr_spec byoc__attrs_avg_pool2d[] = {
    BYOC__A("pool_size", BYOC__INTS, "[1, 1]"), BYOC__A("strides", BYOC__INTS, "[1, 1]"),
    BYOC__A("dilation", BYOC__INTS, "[1, 1]"),  BYOC__A("padding", BYOC__INTS, "[0, 0, 0, 0]"),
    BYOC__A("layout", BYOC__STR, "\"NCHW\""),   BYOC__A("out_layout", BYOC__STR, "\"\""),
    BYOC__A("ceil_mode", BYOC__BOOL, "False"),  BYOC__A("count_include_pad", BYOC__BOOL, "False")};
static const byoc_attr_spec byoc__attrs_global_pool2d[] = {BYOC__A("layout", BYOC__STR, "\"NCHW\""),
                                                           BYOC__A("out_layout", BYOC__STR, "\"\"")};
static const byoc_attr_spec byoc__attrs_pad[] = {BYOC__A("pad_width", BYOC__INTS, NULL),
                                                 BYOC__A("pad_mode", BYOC__STR, "\"constant\"")};
static const byoc_attr_spec byoc__attrs_reshape[] = {BYOC__A("newshape", BYOC__INTS, NULL)};
static const byoc_attr_spec byoc__attrs_transpose[] = {BYOC__A("axes", BYOC__INTS | BYOC__OPT, "None")};
static const byoc_attr_spec byoc__attrs_squeeze[] = {BYOC__A("axis", BYOC__INTS | BYOC__OPT, "None")};
static const byoc_attr_spec byoc__attrs_expand_dims[] = {BYOC__A("axis", BYOC__INT, NULL),
                                                         BYOC__A("num_newaxis", BYOC__INT, "1")};
static const byoc_attr_spec byoc__attrs_concatenate[] = {BYOC__A("axis", BYOC__INT, "0")};
static const byoc_attr_spec byoc__attrs_split[] = {BYOC__A("indices_or_sections", BYOC__INT | BYOC__INTS, NULL),
                                                   BYOC__A("axis", BYOC__INT, "0")};
static const byoc_attr_spec byoc__attrs_strided_slice[] = {
    BYOC__A("begin", BYOC__INTS, NULL), BYOC__A("end", BYOC__INTS, NULL),
    BYOC__A("strides", BYOC__INTS | BYOC__OPT, "None"), BYOC__A("axes", BYOC__INTS | BYOC__OPT, "None"),
    BYOC__A("slice_mode", BYOC__STR, "\"end\"")};
static const byoc_attr_spec byoc__attrs_take[] = {BYOC__A("axis", BYOC__INT | BYOC__OPT, "None"),
                                                  BYOC__A("batch_dims", BYOC__INT, "0"),
                                                  BYOC__A("mode", BYOC__STR, "\"clip\"")};
static const byoc_attr_spec byoc__attrs_depth_to_space[] = {BYOC__A("block_size", BYOC__INT, NULL),
                                                            BYOC__A("layout", BYOC__STR, "\"NCHW\""),
                                                            BYOC__A("mode", BYOC__STR, "\"DCR\"")};
static const byoc_attr_spec byoc__attrs_broadcast_to[] = {BYOC__A("shape", BYOC__INTS, NULL)};
static const byoc_attr_spec byoc__attrs_reduce[] = {BYOC__A("axis", BYOC__INTS | BYOC__INT | BYOC__OPT, "None"),
                                                    BYOC__A("keepdims", BYOC__BOOL, "False"),
                                                    BYOC__A("exclude", BYOC__BOOL, "False")};
static const byoc_attr_spec byoc__attrs_cast[] = {BYOC__A("dtype", BYOC__STR, NULL)};
static const byoc_attr_spec byoc__attrs_dropout[] = {BYOC__A("rate", BYOC__FLT, "0.5f")};
static const byoc_attr_spec byoc__attrs_resize2d[] = {
    BYOC__A("size", BYOC__INTS, NULL),
    BYOC__A("roi", BYOC__FLTS, "[0f, 0f, 0f, 0f]"),
    BYOC__A("layout", BYOC__STR, "\"NCHW\""),
    BYOC__A("method", BYOC__STR, "\"linear\""),
    BYOC__A("coordinate_transformation_mode", BYOC__STR, "\"half_pixel\""),
    BYOC__A("rounding_method", BYOC__STR, "\"round_prefer_floor\""),
    BYOC__A("cubic_alpha", BYOC__FLT, "-0.5f"),
    BYOC__A("cubic_exclude", BYOC__INT, "0"),
    BYOC__A("extrapolation_value", BYOC__FLT, "0f"),
    BYOC__A("out_dtype", BYOC__STR, "\"\"")};
static const byoc_attr_spec byoc__attrs_shape_of[] = {BYOC__A("dtype", BYOC__STR, "\"int32\"")};
static const byoc_attr_spec byoc__attrs_compiler[] = {BYOC__A("compiler", BYOC__STR, NULL)};

#define BYOC__N(a) (int)(sizeof(a) / sizeof((a)[0]))

/* The registry: built-ins plus user ops. Its defaults live in a private module (an arena). */
static struct {
    int initialized;
    byoc_module *arena;
    byoc_op **ops;                             /* stb_ds array */
    struct { char *key; int value; } *by_name; /* stb_ds string map */
} byoc__registry;

BYOC__PRIVATE byoc_result byoc__attr_value_parse_in(byoc_module *m, const char *text, byoc_attr_value *out,
                                                    byoc_diag *diag);

BYOC__PRIVATE byoc_result byoc__op_add(const byoc_op_def *def, byoc_diag *diag) {
    byoc_module *m = byoc__registry.arena;
    if (!def->name || !*def->name)
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "op registration: empty name");
    if (stbds_shgeti(byoc__registry.by_name, def->name) >= 0)
        return byoc__diag(diag, BYOC_ERR_DUPLICATE, 0, 0, 0, "op '%s' is already registered", def->name);
    if (!def->type_rel)
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "op '%s': no type relation", def->name);
    if (def->min_args < 0 || (def->max_args >= 0 && def->max_args < def->min_args))
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "op '%s': bad argument count range", def->name);
    byoc_op *op = BYOC__NEW(m, byoc_op);
    if (!op) return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
    op->def = *def;
    for (int i = 0; i < def->nattrs; ++i) {
        const byoc_attr_spec *s = &def->attrs[i];
        for (int j = 0; j < i; ++j)
            if (strcmp(def->attrs[j].name, s->name) == 0)
                return byoc__diag(diag, BYOC_ERR_DUPLICATE, 0, 0, 0, "op '%s': attribute '%s' declared twice",
                                  def->name, s->name);
        if (!s->default_text) continue;
        byoc_attr_value v;
        byoc_diag d;
        if (byoc__attr_value_parse_in(m, s->default_text, &v, &d) != BYOC_OK)
            return byoc__diag(diag, BYOC_ERR_ATTR, 0, 0, 0, "op '%s': default of attribute '%s' does not parse: %s",
                              def->name, s->name, d.message);
        if (v.kind == BYOC_ATTR_INT_LIST && v.count == 0 && (s->kinds & BYOC_ATTR_FLOAT_LIST))
            v.kind = BYOC_ATTR_FLOAT_LIST;
        if (!(v.kind & s->kinds))
            return byoc__diag(diag, BYOC_ERR_ATTR, 0, 0, 0,
                              "op '%s': default of attribute '%s' is a %s, not an allowed kind", def->name, s->name,
                              byoc__attr_kind_name(v.kind));
        byoc_attrs_set(m, &op->defaults, s->name, &v);
    }
    if (m->has_error) return byoc__diag(diag, m->error.code, 0, 0, 0, "%s", m->error.message);
    stbds_shput(byoc__registry.by_name, def->name, (int)stbds_arrlen(byoc__registry.ops));
    stbds_arrput(byoc__registry.ops, op);
    return BYOC_OK;
}

/* Built-in ops that passes, matchers and device models refer to, interned once: code compares a call's
   op to these pointers, never its name. */
#define BYOC__KNOWN_OPS(X)                                                                                      \
    X(add, "add") X(multiply, "multiply") X(divide, "divide") X(avg_pool2d, "nn.avg_pool2d")                    \
    X(conv2d, "nn.conv2d") X(dense, "nn.dense")                                                                 \
    X(batch_norm, "nn.batch_norm") X(dropout, "nn.dropout") X(compiler_begin, "annotation.compiler_begin")      \
    X(compiler_end, "annotation.compiler_end") X(stop_fusion, "annotation.stop_fusion")
typedef struct byoc__known_op_set {
#define BYOC__KNOWN_FIELD(field, name) const byoc_op *field;
    BYOC__KNOWN_OPS(BYOC__KNOWN_FIELD)
#undef BYOC__KNOWN_FIELD
} byoc__known_op_set;
static byoc__known_op_set byoc__known_ops;
BYOC__PRIVATE void byoc__known_ops_init(void) {
#define BYOC__KNOWN_GET(field, name) byoc__known_ops.field = byoc_op_get(name); BYOC_ASSERT(byoc__known_ops.field);
    BYOC__KNOWN_OPS(BYOC__KNOWN_GET)
#undef BYOC__KNOWN_GET
}
BYOC__PRIVATE void byoc__registry_init(void);
BYOC__PRIVATE const byoc__known_op_set *byoc__ops(void) {
    byoc__registry_init();
    return &byoc__known_ops;
}

/* the i-th built-in op's definition (NULL past the end), and their count: impl: built-in ops */
BYOC__PRIVATE const byoc_op_def *byoc__builtin_op(int i, int *count);

BYOC__PRIVATE void byoc__registry_init(void) {
    if (byoc__registry.initialized) return;
    byoc__registry.initialized = 1;
    byoc__registry.arena = byoc_module_create(NULL);
    int count = 0;
    byoc__builtin_op(0, &count);
    for (int i = 0; i < count; ++i) {
        byoc_diag d;
        byoc_result r = byoc__op_add(byoc__builtin_op(i, NULL), &d);
        BYOC_ASSERT(r == BYOC_OK); /* built-in table is wrong */
        (void)r;
        byoc__registry.ops[i]->builtin = i + 1;
    }
    byoc__known_ops_init();
}

BYOC_API const byoc_op *byoc_op_get(const char *name) {
    byoc__registry_init();
    ptrdiff_t i = stbds_shgeti(byoc__registry.by_name, name);
    return i < 0 ? NULL : byoc__registry.ops[byoc__registry.by_name[i].value];
}
BYOC_API int byoc_op_count(void) { byoc__registry_init(); return (int)stbds_arrlen(byoc__registry.ops); }
BYOC_API const byoc_op *byoc_op_at(int i) {
    byoc__registry_init();
    BYOC_ASSERT(i >= 0 && i < (int)stbds_arrlen(byoc__registry.ops));
    return byoc__registry.ops[i];
}
BYOC_API byoc_result byoc_op_register(const byoc_op_def *def, byoc_diag *diag) {
    byoc__registry_init();
    return byoc__op_add(def, diag);
}

BYOC_API byoc_result byoc_op_check_attrs(byoc_module *m, const byoc_op *op, const byoc_attrs *given, byoc_attrs *out,
                                         byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    const byoc_op_def *def = &op->def;
    memset(out, 0, sizeof *out);
    if (m->has_error) return byoc__diag(diag, m->error.code, 0, 0, 0, "%s", m->error.message);
    if (given && !given->count) given = NULL;
    if (given)
        for (int i = 0; i < given->count; ++i) {
            const byoc_attr *a = &given->items[i];
            int found = 0;
            for (int j = 0; j < def->nattrs; ++j) found |= strcmp(def->attrs[j].name, a->name) == 0;
            if (!found)
                return byoc__diag(diag, BYOC_ERR_ATTR, 0, 0, 0, "%s: unknown attribute '%s'", def->name, a->name);
        }
    if (!def->nattrs) return BYOC_OK;
    /* the op's complete default items, once built in this module: a call with no attributes of its
       own shares them (most calls of a model) */
    const byoc_attr *defaults = (const byoc_attr *)byoc__map_get(&m->op_defaults, op, 0);
    if (defaults && !given) {
        out->items = defaults;
        out->count = def->nattrs;
        return BYOC_OK;
    }
    byoc_attr *items = BYOC__NEW_N(m, byoc_attr, def->nattrs); /* one array, in spec order */
    if (!items) return byoc__diag(diag, m->error.code, 0, 0, 0, "%s", m->error.message);
    for (int j = 0; j < def->nattrs; ++j) {
        const byoc_attr_spec *s = &def->attrs[j];
        const byoc_attr_value *v = given ? byoc_attrs_get(given, s->name) : NULL;
        if (!v && defaults) { /* already checked and owned by m: share its lists */
            items[j] = defaults[j];
            continue;
        }
        if (!v) {
            v = byoc_attrs_get(&op->defaults, s->name);
            if (!v)
                return byoc__diag(diag, BYOC_ERR_ATTR, 0, 0, 0, "%s: missing required attribute '%s'", def->name,
                                  s->name);
        }
        byoc_attr_value c = *v;
        double tmp[64];
        if (!(c.kind & s->kinds)) { /* widen where it loses nothing */
            if (c.kind == BYOC_ATTR_INT && (s->kinds & BYOC_ATTR_FLOAT)) {
                c.kind = BYOC_ATTR_FLOAT;
                c.f = (double)c.i;
            } else if (c.kind == BYOC_ATTR_INT && (s->kinds & BYOC_ATTR_BOOL) && (c.i == 0 || c.i == 1))
                c.kind = BYOC_ATTR_BOOL;
            else if (c.kind == BYOC_ATTR_INT && (s->kinds & BYOC_ATTR_INT_LIST)) {
                c.kind = BYOC_ATTR_INT_LIST;
                c.ints = &v->i;
                c.count = 1;
            } else if (c.kind == BYOC_ATTR_INT_LIST && c.inner == 0 && (s->kinds & BYOC_ATTR_FLOAT_LIST) &&
                       c.count <= 64) {
                for (int k = 0; k < c.count; ++k) tmp[k] = (double)c.ints[k];
                c.kind = BYOC_ATTR_FLOAT_LIST;
                c.floats = tmp;
            } else {
                char want[96];
                byoc__attr_kinds_text(s->kinds, want, sizeof want);
                return byoc__diag(diag, BYOC_ERR_ATTR, 0, 0, 0, "%s: attribute '%s' expects %s, got %s", def->name,
                                  s->name, want, byoc__attr_kind_name(c.kind));
            }
        }
        items[j].name = byoc_intern(m, s->name);
        items[j].value = byoc__attr_value_own(m, &c);
    }
    if (m->has_error) return byoc__diag(diag, m->error.code, 0, 0, 0, "%s", m->error.message);
    if (!given) byoc__map_insert(&m->op_defaults, op, (intptr_t)items);
    out->items = items;
    out->count = def->nattrs;
    return BYOC_OK;
}

// [SECTION] impl: type inference
BYOC__PRIVATE void byoc__node_label(byoc_module *m, const byoc_node *scope, const byoc_node *n, char *out, size_t cap);

typedef struct byoc__infer {
    byoc_module *m;
    byoc_diag *diag;
    const byoc_node *scope; /* the global function being checked, for node labels */
    const char *scope_name;
    byoc__map state;        /* global function node -> 1 in progress, 2 done */
} byoc__infer;

BYOC__PRIVATE byoc_result byoc__infer_error(byoc__infer *st, const byoc_node *n, const char *what, const char *fmt, ...)
    BYOC__PRINTF(4, 5);
BYOC__PRIVATE byoc_result byoc__infer_error(byoc__infer *st, const byoc_node *n, const char *what, const char *fmt,
                                            ...) {
    char reason[600], label[64], where[300] = "", src[200] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    byoc__node_label(st->m, st->scope, n, label, sizeof label);
    const byoc_span *sp = byoc_node_span(n);
    if (sp->file) snprintf(where, sizeof where, "%s:%d:%d: ", sp->file, sp->line, sp->col);
    if (sp->source) snprintf(src, sizeof src, " (%s)", sp->source);
    return byoc__diag(st->diag, BYOC_ERR_TYPE, sp->line, sp->col, n->id, "%s%s %s%s in @%s: %s", where, what, label,
                      src, st->scope_name, reason);
}

BYOC__PRIVATE byoc_result byoc__infer_function(byoc__infer *st, byoc_node *fn, const char *name);

BYOC__PRIVATE byoc_result byoc__infer_global(byoc__infer *st, byoc_node *ref) {
    byoc_node *fn = byoc_module_function(st->m, ref->name);
    if (!fn) return byoc__infer_error(st, ref, "global", "@%s is not defined in the module", ref->name);
    intptr_t state = byoc__map_get(&st->state, fn, 0);
    if (state == 1) return byoc__infer_error(st, ref, "global", "@%s is called recursively (not supported)", ref->name);
    if (state == 0) {
        const byoc_node *saved_scope = st->scope;
        const char *saved_name = st->scope_name;
        byoc_result r = byoc__infer_function(st, fn, ref->name);
        st->scope = saved_scope;
        st->scope_name = saved_name;
        if (r != BYOC_OK) return r;
    }
    ref->checked_type = fn->checked_type;
    return BYOC_OK;
}

/* a tuple built from typed fields gets its type as InferType would give it */
BYOC__PRIVATE void byoc__infer_tuple_of_typed(byoc_module *m, byoc_node *t) {
    if (!t || t->kind != BYOC_NODE_TUPLE || t->checked_type) return;
    const byoc_type *small[16] = {0};
    const byoc_type **f =
        t->nargs <= 16 ? small : BYOC__CAST(const byoc_type **, BYOC_MALLOC(sizeof(byoc_type *) * (size_t)t->nargs));
    int ok = f != NULL;
    for (int k = 0; ok && k < t->nargs; ++k) ok = (f[k] = t->args[k]->checked_type) != NULL;
    if (ok) t->checked_type = byoc_tuple_type(m, f, t->nargs);
    if (f != small) BYOC_FREE((void *)f);
}

BYOC__PRIVATE byoc_result byoc__infer_node(byoc__infer *st, byoc_node *n) {
    byoc_module *m = st->m;
    char s1[160], s2[160];
    /* nodes never change, so a type found once stays right (globals are looked up again: a module
       function can be replaced) */
    if (n->checked_type && n->kind != BYOC_NODE_GLOBAL_VAR) return BYOC_OK;
    switch (n->kind) {
    case BYOC_NODE_VAR:
        if (!n->annotation) return byoc__infer_error(st, n, "var", "has no type annotation");
        n->checked_type = n->annotation;
        return BYOC_OK;
    case BYOC_NODE_CONSTANT:
        n->checked_type = n->annotation;
        return BYOC_OK;
    case BYOC_NODE_GLOBAL_VAR:
        return byoc__infer_global(st, n);
    case BYOC_NODE_TUPLE:
        byoc__infer_tuple_of_typed(m, n); /* its fields come first in the walk */
        break;
    case BYOC_NODE_TUPLE_GET_ITEM: {
        const byoc_type *t = n->args[0]->checked_type;
        if (t->kind != BYOC_TYPE_TUPLE) {
            byoc_type_to_string(t, s1, sizeof s1);
            return byoc__infer_error(st, n, "tuple_get_item", "projects .%d from %s, which is not a tuple", n->index,
                                     s1);
        }
        if (n->index >= t->nfields)
            return byoc__infer_error(st, n, "tuple_get_item", "index %d is out of range for a tuple of %d", n->index,
                                     t->nfields);
        n->checked_type = t->fields[n->index];
        return BYOC_OK;
    }
    case BYOC_NODE_FUNCTION: {
        const byoc_type *small[16] = {0};
        const byoc_type **p =
            n->nparams <= 16 ? small
                             : BYOC__CAST(const byoc_type **, BYOC_MALLOC(sizeof(byoc_type *) * (size_t)n->nparams));
        if (!p) return byoc__diag(st->diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, n->id, "out of memory");
        byoc_result r = BYOC_OK;
        for (int i = 0; i < n->nparams && r == BYOC_OK; ++i) {
            if (!n->params[i]->annotation)
                r = byoc__infer_error(st, n->params[i], "parameter", "has no type annotation");
            else n->params[i]->checked_type = p[i] = n->params[i]->annotation;
        }
        const byoc_type *body = n->body->checked_type;
        if (r == BYOC_OK && n->annotation && !byoc__type_fits(body, n->annotation)) {
            byoc_type_to_string(n->annotation, s1, sizeof s1);
            byoc_type_to_string(body, s2, sizeof s2);
            r = byoc__infer_error(st, n, "fn", "declares result %s but its body has type %s", s1, s2);
        }
        if (r == BYOC_OK) n->checked_type = byoc_func_type(m, p, n->nparams, body);
        if (p != small) BYOC_FREE((void *)p);
        if (r != BYOC_OK) return r;
        break;
    }
    case BYOC_NODE_CALL:
        if (n->op) {
            const byoc_type *small[16] = {0};
            const byoc_type **a =
                n->nargs <= 16 ? small
                               : BYOC__CAST(const byoc_type **, BYOC_MALLOC(sizeof(byoc_type *) * (size_t)n->nargs));
            if (!a) return byoc__diag(st->diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, n->id, "out of memory");
            byoc_type_rel_ctx ctx;
            memset(&ctx, 0, sizeof ctx);
            ctx.m = m;
            ctx.op = n->op;
            ctx.call = n;
            for (int i = 0; i < n->nargs; ++i) a[i] = n->args[i]->checked_type;
            const byoc_type *t = n->op->def.type_rel(&ctx, a, n->nargs, &n->attrs);
            if (a != small) BYOC_FREE((void *)a);
            if (!t)
                return byoc__infer_error(st, n, n->op->def.name, "%s",
                                         ctx.failed ? ctx.message : "type relation failed");
            n->checked_type = t;
        } else {
            const byoc_type *ft = n->callee->checked_type;
            if (ft->kind != BYOC_TYPE_FUNC) {
                byoc_type_to_string(ft, s1, sizeof s1);
                return byoc__infer_error(st, n, "call", "callee has type %s, not a function type", s1);
            }
            if (ft->nfields != n->nargs)
                return byoc__infer_error(st, n, "call", "function takes %d argument%s, given %d", ft->nfields,
                                         ft->nfields == 1 ? "" : "s", n->nargs);
            for (int i = 0; i < n->nargs; ++i) /* a '?' parameter takes any extent */
                if (!byoc__type_fits(n->args[i]->checked_type, ft->fields[i])) {
                    byoc_type_to_string(n->args[i]->checked_type, s1, sizeof s1);
                    byoc_type_to_string(ft->fields[i], s2, sizeof s2);
                    return byoc__infer_error(st, n, "call", "argument %d has type %s, the function expects %s", i, s1,
                                             s2);
                }
            n->checked_type = ft->ret;
        }
        break;
    }
    if (!n->checked_type)
        return byoc__diag(st->diag, m->has_error ? m->error.code : BYOC_ERR_INTERNAL, 0, 0, n->id, "%s",
                          m->has_error ? m->error.message : "type inference failed");
    return BYOC_OK;
}

BYOC__PRIVATE byoc_result byoc__infer_function(byoc__infer *st, byoc_node *fn, const char *name) {
    if (fn->checked_type) { /* typed already, and so is all it holds: nothing to walk */
        byoc__map_put(&st->state, fn, 2);
        return BYOC_OK;
    }
    byoc__map_put(&st->state, fn, 1);
    st->scope = fn;
    st->scope_name = name;
    byoc_node **order = NULL;
    /* typed nodes are final (nodes never change) and only have typed inputs, so the walk stops at
       them: re-inferring after a pass costs what the pass built, not the whole function */
    byoc__post_order_marked(fn, BYOC_GRAPH_ENTER_FUNCTIONS | BYOC__WALK_SKIP_TYPED, &order);
    byoc_result r = BYOC_OK;
    /* parameters first: a var's type is its annotation, used before the function node is reached */
    for (int i = 0; i < (int)stbds_arrlen(order) && r == BYOC_OK; ++i) {
        if (i + 8 < (int)stbds_arrlen(order)) byoc__prefetch_node(order[i + 8]);
        r = byoc__infer_node(st, order[i]);
    }
    stbds_arrfree(order);
    byoc__map_put(&st->state, fn, 2);
    return r;
}

BYOC_API byoc_result byoc_infer_node_type(byoc_module *m, byoc_node *n, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    if (m->has_error) return byoc__diag(diag, m->error.code, 0, 0, m->error.node_id, "%s", m->error.message);
    if (!n) return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "infer_node_type: no node");
    for (int i = 0; i < n->nargs; ++i)
        if (!n->args[i]->checked_type && n->args[i]->kind != BYOC_NODE_CONSTANT && n->args[i]->kind != BYOC_NODE_VAR)
            return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, n->id,
                              "infer_node_type: input %d of #%u is not typed", i, (unsigned)n->id);
    byoc__infer st;
    memset(&st, 0, sizeof st);
    st.m = m;
    st.diag = diag;
    st.scope_name = "main";
    byoc_result r = BYOC_OK;
    for (int i = 0; i < n->nargs && r == BYOC_OK; ++i) r = byoc__infer_node(&st, n->args[i]);
    if (r == BYOC_OK) r = byoc__infer_node(&st, n);
    byoc__map_free(&st.state);
    return r;
}

BYOC_API byoc_result byoc_infer_type(byoc_module *m, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    if (m->has_error) return byoc__diag(diag, m->error.code, 0, 0, m->error.node_id, "%s", m->error.message);
    byoc__infer st;
    memset(&st, 0, sizeof st);
    st.m = m;
    st.diag = diag;
    byoc_result r = BYOC_OK;
    for (int i = 0; i < byoc_module_function_count(m) && r == BYOC_OK; ++i) {
        byoc_node *fn = m->functions[i].function;
        if (byoc__map_has(&st.state, fn)) continue;
        r = byoc__infer_function(&st, fn, m->functions[i].name);
    }
    byoc__map_free(&st.state);
    if (r == BYOC_OK && diag) memset(diag, 0, sizeof *diag);
    return r;
}

// [SECTION] impl: text printer
typedef struct byoc__printer {
    byoc_module *m;
    byoc__buf out;
    unsigned flags;
    byoc__map names;          /* bound node -> %k number; vars -> index into var_names */
    const char **var_names;   /* stb_ds array of printed var names */
    struct { char *key; int value; } *used_var_names;
    byoc__map meta;           /* constant -> meta index */
    int meta_count;
    byoc_node **meta_order;   /* stb_ds array, by meta index */
    int counter;
    const byoc_node *stop_at; /* for labels: stop once this node is numbered */
    int stopped;
} byoc__printer;

/* a scalar constant that prints as a literal and parses back bit-exactly */
BYOC__PRIVATE int byoc__scalar_literal(const byoc_node *c, char *out, size_t cap) {
    const byoc_type *t = c->annotation;
    if (t->rank != 0) return 0;
    double v = byoc__load(t->dtype, c->data, 0);
    switch (t->dtype) {
    case BYOC_FLOAT32: case BYOC_FLOAT16: case BYOC_FLOAT64: {
        if (!isfinite(v)) return 0;
        const char *suffix = t->dtype == BYOC_FLOAT32 ? "f" : t->dtype == BYOC_FLOAT16 ? "f16" : "f64";
        for (int prec = 1; prec <= 17; ++prec) { /* shortest text that reads back to the same value */
            snprintf(out, cap, "%.*g", prec, v);
            double back = strtod(out, NULL);
            if ((t->dtype == BYOC_FLOAT32 && (float)back == (float)v) ||
                (t->dtype == BYOC_FLOAT16 && byoc__f64_to_f16(back) == byoc__f64_to_f16(v)) ||
                (t->dtype == BYOC_FLOAT64 && back == v))
                break;
        }
        strncat(out, suffix, cap - strlen(out) - 1);
        return 1;
    }
    case BYOC_INT32: snprintf(out, cap, "%lld", (long long)v); return 1;
    case BYOC_INT64: { int64_t x; memcpy(&x, c->data, 8); snprintf(out, cap, "%lldi64", (long long)x); return 1; }
    case BYOC_INT16: snprintf(out, cap, "%lldi16", (long long)v); return 1;
    case BYOC_INT8: snprintf(out, cap, "%lldi8", (long long)v); return 1;
    case BYOC_UINT8: snprintf(out, cap, "%lldu8", (long long)v); return 1;
    case BYOC_UINT16: snprintf(out, cap, "%lldu16", (long long)v); return 1;
    case BYOC_UINT32: snprintf(out, cap, "%lldu32", (long long)v); return 1;
    case BYOC_UINT64: {
        uint64_t x;
        memcpy(&x, c->data, 8);
        snprintf(out, cap, "%lluu64", (unsigned long long)x);
        return 1;
    }
    case BYOC_BOOL: snprintf(out, cap, "%s", v != 0 ? "True" : "False"); return 1;
    default: return 0;
    }
}

BYOC__PRIVATE void byoc__print_double(byoc__buf *b, double v) {
    char tmp[64];
    if (v != v) { byoc__buf_puts(b, "nanf"); return; }
    if (isinf(v)) { byoc__buf_puts(b, v > 0 ? "inff" : "-inff"); return; }
    for (int prec = 1; prec <= 17; ++prec) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v) break;
    }
    byoc__buf_puts(b, tmp);
    byoc__buf_puts(b, "f");
}

BYOC__PRIVATE void byoc__print_string(byoc__buf *b, const char *s) {
    byoc__buf_puts(b, "\"");
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') { char e[3] = {'\\', *s, 0}; byoc__buf_puts(b, e); }
        else if (*s == '\n') byoc__buf_puts(b, "\\n");
        else if (*s == '\t') byoc__buf_puts(b, "\\t");
        else if ((unsigned char)*s < 0x20) byoc__buf_printf(b, "\\x%02x", (unsigned char)*s);
        else byoc__buf_put(b, s, 1);
    }
    byoc__buf_puts(b, "\"");
}

BYOC__PRIVATE void byoc__print_attr_value(byoc__buf *b, const byoc_attr_value *v) {
    switch (v->kind) {
    case BYOC_ATTR_NONE: byoc__buf_puts(b, "None"); return;
    case BYOC_ATTR_INT: byoc__buf_printf(b, "%lld", (long long)v->i); return;
    case BYOC_ATTR_FLOAT: byoc__print_double(b, v->f); return;
    case BYOC_ATTR_STRING: byoc__print_string(b, v->s); return;
    case BYOC_ATTR_BOOL: byoc__buf_puts(b, v->i ? "True" : "False"); return;
    case BYOC_ATTR_INT_LIST:
        byoc__buf_puts(b, "[");
        for (int i = 0; i < v->count; ++i) {
            if (i) byoc__buf_puts(b, ", ");
            if (v->inner > 0 && i % v->inner == 0) byoc__buf_puts(b, "[");
            byoc__buf_printf(b, "%lld", (long long)v->ints[i]);
            if (v->inner > 0 && i % v->inner == v->inner - 1) byoc__buf_puts(b, "]");
        }
        byoc__buf_puts(b, "]");
        return;
    case BYOC_ATTR_FLOAT_LIST:
        byoc__buf_puts(b, "[");
        for (int i = 0; i < v->count; ++i) {
            if (i) byoc__buf_puts(b, ", ");
            byoc__print_double(b, v->floats[i]);
        }
        byoc__buf_puts(b, "]");
        return;
    }
}

/* attributes as ", key=value" pairs; op calls print only values that differ from the op's defaults */
BYOC__PRIVATE void byoc__print_attrs(byoc__printer *p, const byoc_attrs *attrs, const byoc_op *op, int first) {
    for (int i = 0; i < attrs->count; ++i) {
        const byoc_attr *a = &attrs->items[i];
        if (op) {
            const byoc_attr_value *d = byoc_attrs_get(&op->defaults, a->name);
            if (d && byoc_attr_value_equal(d, &a->value)) continue;
        }
        if (!first) byoc__buf_puts(&p->out, ", ");
        first = 0;
        byoc__buf_printf(&p->out, "%s=", a->name);
        byoc__print_attr_value(&p->out, &a->value);
    }
}

BYOC__PRIVATE void byoc__print_type_comment(byoc__printer *p, const byoc_type *t) {
    if (!(p->flags & BYOC_PRINT_TYPES) || !t) return;
    byoc__buf_puts(&p->out, " /* ty=");
    byoc__type_write(&p->out, t);
    byoc__buf_puts(&p->out, " */");
}

BYOC__PRIVATE void byoc__print_span(byoc__printer *p, const byoc_node *n) {
    if ((p->flags & BYOC_PRINT_NO_SPANS) || !n->span || !n->span->source) return;
    byoc__buf_puts(&p->out, " /* span=");
    for (const char *s = n->span->source; *s; ++s) /* keep the comment closed and on one line */
        byoc__buf_put(&p->out, (s[0] == '*' && s[1] == '/') || (unsigned char)*s < 0x20 || *s == 0x7f ? "_" : s, 1);
    byoc__buf_puts(&p->out, " */");
}

BYOC__PRIVATE const char *byoc__var_name(byoc__printer *p, const byoc_node *v) {
    intptr_t known = byoc__map_get(&p->names, v, -1);
    if (known >= 0) return p->var_names[known];
    /* a valid, unique identifier from the name hint */
    char base[96], name[112];
    size_t k = 0;
    for (const char *s = v->name ? v->name : "v"; *s && k < sizeof base - 1; ++s) {
        char c = *s;
        base[k++] =
            (char)((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ? c : '_');
    }
    base[k] = 0;
    if (!k || (base[0] >= '0' && base[0] <= '9')) {
        memmove(base + 2, base, k + 1 < sizeof base - 2 ? k + 1 : sizeof base - 3);
        base[0] = 'v';
        base[1] = '_';
        base[sizeof base - 1] = 0;
    }
    snprintf(name, sizeof name, "%s", base);
    for (int suffix = 1; stbds_shgeti(p->used_var_names, name) >= 0; ++suffix)
        snprintf(name, sizeof name, "%s_%d", base, suffix);
    stbds_shput(p->used_var_names, name, 1);
    const char *interned = byoc_intern(p->m, name);
    byoc__map_put(&p->names, v, (intptr_t)stbds_arrlen(p->var_names));
    stbds_arrput(p->var_names, interned);
    return interned;
}

BYOC__PRIVATE int byoc__meta_index(byoc__printer *p, byoc_node *c) {
    intptr_t known = byoc__map_get(&p->meta, c, -1);
    if (known >= 0) return (int)known;
    byoc__map_put(&p->meta, c, p->meta_count);
    stbds_arrput(p->meta_order, c);
    return p->meta_count++;
}

/* a reference to an already printed or atomic node */
BYOC__PRIVATE void byoc__print_ref(byoc__printer *p, byoc_node *n) {
    char lit[64];
    switch (n->kind) {
    case BYOC_NODE_VAR: byoc__buf_printf(&p->out, "%%%s", byoc__var_name(p, n)); return;
    case BYOC_NODE_GLOBAL_VAR: byoc__buf_printf(&p->out, "@%s", n->name); return;
    case BYOC_NODE_CONSTANT:
        if (byoc__scalar_literal(n, lit, sizeof lit)) { byoc__buf_puts(&p->out, lit); return; }
        byoc__buf_printf(&p->out, "meta[relay.Constant][%d] /* ty=", byoc__meta_index(p, n));
        byoc__type_write(&p->out, n->annotation);
        byoc__buf_puts(&p->out, " */");
        return;
    default: {
        intptr_t k = byoc__map_get(&p->names, n, -1);
        if (k >= 0) byoc__buf_printf(&p->out, "%%%d", (int)k);
        else byoc__buf_puts(&p->out, "%<unbound>"); /* unreachable: print order binds inputs first */
    }
    }
}

BYOC__PRIVATE void byoc__print_block(byoc__printer *p, byoc_node *fn, int indent);

BYOC__PRIVATE void byoc__print_indent(byoc__printer *p, int indent) {
    for (int i = 0; i < indent; ++i) byoc__buf_puts(&p->out, "  ");
}

BYOC__PRIVATE void byoc__print_fn_header(byoc__printer *p, byoc_node *fn) {
    byoc__buf_puts(&p->out, "(");
    for (int i = 0; i < fn->nparams; ++i) {
        byoc_node *v = fn->params[i];
        if (i) byoc__buf_puts(&p->out, ", ");
        byoc__buf_printf(&p->out, "%%%s", byoc__var_name(p, v));
        if (v->annotation) {
            byoc__buf_puts(&p->out, ": ");
            byoc__type_write(&p->out, v->annotation);
        }
        byoc__print_span(p, v);
    }
    byoc__print_attrs(p, &fn->attrs, NULL, fn->nparams == 0);
    byoc__buf_puts(&p->out, ")");
    if (fn->annotation) {
        byoc__buf_puts(&p->out, " -> ");
        byoc__type_write(&p->out, fn->annotation);
    }
    byoc__buf_puts(&p->out, " {\n");
}

/* the expression of a non-atomic node, its inputs already bound */
BYOC__PRIVATE void byoc__print_expr(byoc__printer *p, byoc_node *n, int indent) {
    switch (n->kind) {
    case BYOC_NODE_CALL:
        if (n->op) byoc__buf_puts(&p->out, n->op->def.name);
        else byoc__print_ref(p, n->callee);
        byoc__buf_puts(&p->out, "(");
        for (int i = 0; i < n->nargs; ++i) {
            if (i) byoc__buf_puts(&p->out, ", ");
            byoc__print_ref(p, n->args[i]);
        }
        if (n->op) byoc__print_attrs(p, &n->attrs, n->op, n->nargs == 0);
        byoc__buf_puts(&p->out, ")");
        return;
    case BYOC_NODE_TUPLE:
        byoc__buf_puts(&p->out, "(");
        for (int i = 0; i < n->nargs; ++i) {
            if (i) byoc__buf_puts(&p->out, ", ");
            byoc__print_ref(p, n->args[i]);
        }
        byoc__buf_puts(&p->out, n->nargs == 1 ? ",)" : ")");
        return;
    case BYOC_NODE_TUPLE_GET_ITEM:
        /* "1f.0" would read as one number: a literal gets parentheses */
        if (n->args[0]->kind == BYOC_NODE_CONSTANT) byoc__buf_puts(&p->out, "(");
        byoc__print_ref(p, n->args[0]);
        if (n->args[0]->kind == BYOC_NODE_CONSTANT) byoc__buf_puts(&p->out, ")");
        byoc__buf_printf(&p->out, ".%d", n->index);
        return;
    case BYOC_NODE_FUNCTION:
        byoc__buf_puts(&p->out, "fn ");
        byoc__print_fn_header(p, n);
        byoc__print_block(p, n, indent + 1);
        byoc__print_indent(p, indent);
        byoc__buf_puts(&p->out, "}");
        return;
    default:
        byoc__print_ref(p, n);
    }
}

BYOC__PRIVATE int byoc__is_atom(const byoc_node *n) {
    return n->kind == BYOC_NODE_VAR || n->kind == BYOC_NODE_CONSTANT || n->kind == BYOC_NODE_GLOBAL_VAR;
}

/* body of fn: one binding per non-atomic node in post-order, then the result expression */
/* The binding order of a function body. Post-order, except that a nested function comes after every
   value of this scope that its body uses (a closure capture), so that value is bound first. */
BYOC__PRIVATE byoc_node **byoc__print_order(byoc_node *body) {
    byoc__map owned = BYOC__MAP_EMPTY;
    byoc_node **plain = NULL;
    byoc__post_order(body, 0, &owned, &plain);
    byoc__map capture_index = BYOC__MAP_EMPTY;
    byoc_node ***captures = NULL; /* stb_ds array of stb_ds arrays */
    for (int i = 0; i < (int)stbds_arrlen(plain); ++i) {
        byoc_node *f = plain[i];
        if (f->kind != BYOC_NODE_FUNCTION) continue;
        byoc__map inner_seen = BYOC__MAP_EMPTY;
        byoc_node **inner = NULL, **list = NULL;
        byoc__post_order(f->body, BYOC_GRAPH_ENTER_FUNCTIONS, &inner_seen, &inner);
        for (int k = 0; k < (int)stbds_arrlen(inner); ++k)
            if (!byoc__is_atom(inner[k]) && byoc__map_has(&owned, inner[k])) stbds_arrput(list, inner[k]);
        byoc__map_free(&inner_seen);
        stbds_arrfree(inner);
        if (!list) continue;
        byoc__map_put(&capture_index, f, (intptr_t)stbds_arrlen(captures));
        stbds_arrput(captures, list);
    }
    if (!captures) { byoc__map_free(&owned); return plain; }
    /* the same iterative DFS as byoc__post_order, with captures as the inputs of functions */
    byoc_node **order = NULL;
    byoc__map seen = BYOC__MAP_EMPTY;
    byoc__frame *stack = NULL;
    byoc__frame f0 = {body, 0};
    byoc__map_put(&seen, body, 1);
    stbds_arrput(stack, f0);
    while (stbds_arrlen(stack)) {
        byoc__frame *top = &stack[stbds_arrlen(stack) - 1];
        byoc_node *n = top->node, *child = NULL;
        intptr_t ci = n->kind == BYOC_NODE_FUNCTION ? byoc__map_get(&capture_index, n, -1) : -1;
        int count = ci >= 0 ? (int)stbds_arrlen(captures[ci]) : byoc__input_count(n, 0);
        if (top->next < count) {
            child = ci >= 0 ? captures[ci][top->next] : byoc__input_at(n, top->next);
            top->next++;
            if (!byoc__map_has(&seen, child)) {
                byoc__map_put(&seen, child, 1);
                byoc__frame f = {child, 0};
                stbds_arrput(stack, f);
            }
            continue;
        }
        stbds_arrput(order, n);
        (void)stbds_arrpop(stack);
    }
    for (int i = 0; i < (int)stbds_arrlen(captures); ++i) stbds_arrfree(captures[i]);
    stbds_arrfree(captures);
    stbds_arrfree(stack);
    stbds_arrfree(plain);
    byoc__map_free(&seen);
    byoc__map_free(&owned);
    byoc__map_free(&capture_index);
    return order;
}

BYOC__PRIVATE void byoc__print_block(byoc__printer *p, byoc_node *fn, int indent) {
    byoc_node **order = byoc__print_order(fn->body);
    int count = (int)stbds_arrlen(order);
    for (int i = 0; i < count - 1 && !p->stopped; ++i) {
        byoc_node *n = order[i];
        if (byoc__is_atom(n) || byoc__map_has(&p->names, n)) {
            if (n->kind == BYOC_NODE_VAR) byoc__var_name(p, n);
            if (n == p->stop_at) p->stopped = 1;
            continue;
        }
        int k = p->counter++;
        byoc__print_indent(p, indent);
        byoc__buf_printf(&p->out, "%%%d = ", k);
        byoc__print_expr(p, n, indent);
        byoc__map_put(&p->names, n, k);
        byoc__print_type_comment(p, n->checked_type);
        byoc__print_span(p, n);
        byoc__buf_puts(&p->out, ";\n");
        if (n == p->stop_at) p->stopped = 1;
    }
    if (count && !p->stopped) {
        byoc_node *root = order[count - 1];
        byoc__print_indent(p, indent);
        if (byoc__map_has(&p->names, root)) byoc__print_ref(p, root); /* a captured value bound outside */
        else {
            byoc__print_expr(p, root, indent);
            byoc__print_type_comment(p, root->checked_type);
            byoc__print_span(p, root);
        }
        byoc__buf_puts(&p->out, "\n");
    }
    stbds_arrfree(order);
}

BYOC__PRIVATE void byoc__printer_free(byoc__printer *p) {
    byoc__map_free(&p->names);
    stbds_arrfree(p->var_names);
    stbds_shfree(p->used_var_names);
    byoc__map_free(&p->meta);
    stbds_arrfree(p->meta_order);
}

BYOC__PRIVATE void byoc__printer_init(byoc__printer *p, byoc_module *m, unsigned flags) {
    memset(p, 0, sizeof *p);
    p->m = m;
    p->out.m = m;
    p->flags = flags;
    stbds_sh_new_strdup(p->used_var_names);
}

BYOC__PRIVATE void byoc__print_global(byoc__printer *p, const char *name, byoc_node *fn) {
    /* names restart per global function */
    byoc__map_free(&p->names);
    stbds_arrfree(p->var_names);
    stbds_shfree(p->used_var_names);
    stbds_sh_new_strdup(p->used_var_names);
    p->counter = 0;
    byoc__buf_printf(&p->out, "def @%s", name);
    byoc__print_fn_header(p, fn);
    byoc__print_block(p, fn, 1);
    byoc__buf_puts(&p->out, "}\n");
}

BYOC_API char *byoc_module_print(byoc_module *m, unsigned flags, size_t *len) {
    if (!m) return NULL;
    byoc__printer p;
    byoc__printer_init(&p, m, flags);
    if (!(flags & BYOC_PRINT_NO_HEADER)) byoc__buf_puts(&p.out, "#[version = \"0.0.5\"]\n");
    for (int i = 0; i < byoc_module_function_count(m); ++i) {
        if (i) byoc__buf_puts(&p.out, "\n");
        byoc__print_global(&p, m->functions[i].name, m->functions[i].function);
    }
    if (!p.out.data) byoc__buf_puts(&p.out, "");
    byoc__printer_free(&p);
    if (p.out.oom) { byoc_free(m, p.out.data); return NULL; }
    if (len) *len = p.out.len;
    return p.out.data;
}

BYOC_API char *byoc_node_print(byoc_module *m, const byoc_node *expr, unsigned flags, size_t *len) {
    if (!m) return NULL;
    byoc__printer p;
    byoc__printer_init(&p, m, flags);
    byoc_node *e = (byoc_node *)expr;
    if (e->kind == BYOC_NODE_FUNCTION) byoc__print_expr(&p, e, 0);
    else if (byoc__is_atom(e)) byoc__print_ref(&p, e);
    else {
        /* print as the block of a function with no params */
        byoc_node fake;
        memset(&fake, 0, sizeof fake);
        fake.kind = BYOC_NODE_FUNCTION;
        fake.body = e;
        byoc__print_block(&p, &fake, 0);
    }
    if (!p.out.data) byoc__buf_puts(&p.out, "");
    byoc__printer_free(&p);
    if (p.out.oom) { byoc_free(m, p.out.data); return NULL; }
    if (len) *len = p.out.len;
    return p.out.data;
}

/* "%3" or "%x" as the printer would name n inside the global function scope */
BYOC__PRIVATE void byoc__node_label(byoc_module *m, const byoc_node *scope, const byoc_node *n, char *out, size_t cap) {
    if (n->kind == BYOC_NODE_VAR) { snprintf(out, cap, "%%%s", n->name); return; }
    if (n->kind == BYOC_NODE_GLOBAL_VAR) { snprintf(out, cap, "@%s", n->name); return; }
    if (n->kind == BYOC_NODE_CONSTANT) { snprintf(out, cap, "constant"); return; }
    snprintf(out, cap, "#%u", (unsigned)n->id);
    if (!scope) return;
    byoc__printer p;
    byoc__printer_init(&p, m, BYOC_PRINT_NO_SPANS);
    p.stop_at = n;
    byoc__print_block(&p, (byoc_node *)scope, 0);
    intptr_t k = byoc__map_get(&p.names, n, -1);
    if (k >= 0) snprintf(out, cap, "%%%d", (int)k);
    else if (p.stopped || scope->body == n) snprintf(out, cap, "result");
    byoc_free(m, p.out.data);
    byoc__printer_free(&p);
}

BYOC_API void byoc_node_label(byoc_module *m, const byoc_node *scope, const byoc_node *n, char *out, size_t cap) {
    if (!m || !n) { if (out && cap) out[0] = 0; return; }
    byoc__node_label(m, scope, n, out, cap);
}

BYOC_API byoc_result byoc_function_labels(byoc_module *m, const byoc_node *scope,
                                          void (*visit)(const byoc_node *n, int number, void *user_data),
                                          void *user_data) {
    if (!m || !scope || scope->kind != BYOC_NODE_FUNCTION || !visit) return BYOC_ERR_INVALID_ARGUMENT;
    byoc__printer p;
    byoc__printer_init(&p, m, BYOC_PRINT_NO_SPANS);
    byoc__print_block(&p, (byoc_node *)scope, 0);
    byoc_result r = p.out.oom ? BYOC_ERR_OUT_OF_MEMORY : BYOC_OK;
    for (size_t i = 0; r == BYOC_OK && i < p.names.cap; ++i) {
        const byoc_node *n = (const byoc_node *)p.names.slots[i].key;
        if (n && n->kind != BYOC_NODE_VAR) visit(n, (int)p.names.slots[i].val, user_data);
    }
    byoc_free(m, p.out.data);
    byoc__printer_free(&p);
    return r;
}

/* the constants in the order byoc_module_print numbers them */
BYOC__PRIVATE byoc_node **byoc__meta_constants(byoc_module *m, int *count) {
    byoc__printer p;
    byoc__printer_init(&p, m, BYOC_PRINT_NO_HEADER);
    for (int i = 0; i < byoc_module_function_count(m); ++i)
        byoc__print_global(&p, m->functions[i].name, m->functions[i].function);
    byoc_node **r = p.meta_order;
    p.meta_order = NULL;
    *count = (int)stbds_arrlen(r);
    byoc_free(m, p.out.data);
    byoc__printer_free(&p);
    return r;
}

// [SECTION] impl: text parser
typedef enum byoc__tok_kind {
    BYOC__T_EOF, BYOC__T_IDENT, BYOC__T_LOCAL, BYOC__T_GLOBAL, BYOC__T_NUMBER, BYOC__T_STRING,
    BYOC__T_LPAREN, BYOC__T_RPAREN, BYOC__T_LBRACKET, BYOC__T_RBRACKET, BYOC__T_LBRACE, BYOC__T_RBRACE,
    BYOC__T_COMMA, BYOC__T_EQUAL, BYOC__T_SEMI, BYOC__T_COLON, BYOC__T_DOT, BYOC__T_ARROW, BYOC__T_QUESTION,
    BYOC__T_PIPE, BYOC__T_STAR, BYOC__T_ERROR
} byoc__tok_kind;

typedef struct byoc__token {
    byoc__tok_kind kind;
    const char *start; /* for LOCAL/GLOBAL: after the sigil; STRING: inside the quotes */
    size_t len;
    int line, col;
    const char *comments, *comments_end; /* block comments between the previous token and this one */
} byoc__token;

typedef struct byoc__weight { int index; const byoc_type *type; const void *data; size_t nbytes; } byoc__weight;
typedef struct byoc__scope_entry { char *key; byoc_node *value; } byoc__scope_entry;

typedef struct byoc__parser {
    byoc_module *m;
    byoc_diag *diag;
    const char *filename; /* interned */
    const char *src, *pos, *end;
    int line, col;
    byoc__token tok;
    int prev_line; /* line of the token before tok: patterns end a statement at a line break */
    int failed;
    int depth;      /* expression, type and function nesting */
    int list_depth; /* attribute list nesting */
    byoc__scope_entry **scopes;  /* stb_ds array of stb_ds string maps, innermost last */
    byoc_node **globals_used;    /* global var nodes, checked once every def is known */
    byoc__weight *weights;       /* stb_ds array */
    byoc__map meta_nodes;        /* meta index + 1 -> constant node */
    const byoc_parse_options *opts;
} byoc__parser;

#define BYOC__MAX_DEPTH 256

BYOC__PRIVATE void byoc__parser_init(byoc__parser *p, byoc_module *m, byoc_diag *diag, const char *filename,
                                     const char *text, size_t len) {
    memset(p, 0, sizeof *p);
    p->m = m;
    p->diag = diag;
    p->filename = filename;
    p->src = p->pos = text;
    p->end = text + len;
    p->line = p->col = 1;
}

BYOC__PRIVATE int byoc__parse_fail(byoc__parser *p, int line, int col, const char *fmt, ...) BYOC__PRINTF(4, 5);
BYOC__PRIVATE int byoc__parse_fail(byoc__parser *p, int line, int col, const char *fmt, ...) {
    if (p->failed) return 0;
    char msg[800];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    byoc__diag(p->diag, BYOC_ERR_PARSE, line, col, 0, "%s:%d:%d: %s", p->filename ? p->filename : "<text>", line, col,
               msg);
    p->failed = 1;
    return 0;
}

BYOC__PRIVATE void byoc__advance_char(byoc__parser *p) {
    if (*p->pos == '\n') { p->line++; p->col = 1; }
    else p->col++;
    p->pos++;
}

BYOC__PRIVATE int byoc__is_ident_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
BYOC__PRIVATE int byoc__is_ident_char(int c) { return byoc__is_ident_start(c) || (c >= '0' && c <= '9'); }
BYOC__PRIVATE int byoc__is_digit(int c) { return c >= '0' && c <= '9'; }

BYOC__PRIVATE void byoc__next(byoc__parser *p) {
    byoc__token t;
    memset(&t, 0, sizeof t);
    p->prev_line = p->tok.line;
    /* whitespace and comments */
    for (;;) {
        while (p->pos < p->end && (*p->pos == ' ' || *p->pos == '\t' || *p->pos == '\n' || *p->pos == '\r'))
            byoc__advance_char(p);
        if (p->pos >= p->end) break;
        if (*p->pos == '#' || (*p->pos == '/' && p->pos + 1 < p->end && p->pos[1] == '/')) {
            while (p->pos < p->end && *p->pos != '\n') byoc__advance_char(p);
            continue;
        }
        if (*p->pos == '/' && p->pos + 1 < p->end && p->pos[1] == '*') {
            int line = p->line, col = p->col;
            if (!t.comments) t.comments = p->pos;
            byoc__advance_char(p);
            byoc__advance_char(p);
            while (p->pos < p->end && !(*p->pos == '*' && p->pos + 1 < p->end && p->pos[1] == '/'))
                byoc__advance_char(p);
            if (p->pos >= p->end) {
                byoc__parse_fail(p, line, col, "unterminated comment");
                t.kind = BYOC__T_ERROR;
                p->tok = t;
                return;
            }
            byoc__advance_char(p);
            byoc__advance_char(p);
            t.comments_end = p->pos;
            continue;
        }
        break;
    }
    t.line = p->line;
    t.col = p->col;
    t.start = p->pos;
    if (p->pos >= p->end) { t.kind = BYOC__T_EOF; p->tok = t; return; }
    char c = *p->pos;
    if (c == '\0') { /* embedded NUL: never read past it as if it were text */
        byoc__parse_fail(p, t.line, t.col, "unexpected NUL byte");
        t.kind = BYOC__T_ERROR;
        p->tok = t;
        return;
    }
    if (byoc__is_ident_start(c)) {
        while (p->pos < p->end && byoc__is_ident_char(*p->pos)) byoc__advance_char(p);
        t.kind = BYOC__T_IDENT;
        t.len = (size_t)(p->pos - t.start);
        if ((t.len == 4 && (memcmp(t.start, "inff", 4) == 0 || memcmp(t.start, "nanf", 4) == 0)))
            t.kind = BYOC__T_NUMBER;
        p->tok = t;
        return;
    }
    if (c == '%' || c == '@') {
        byoc__advance_char(p);
        t.start = p->pos;
        while (p->pos < p->end && byoc__is_ident_char(*p->pos)) byoc__advance_char(p);
        t.len = (size_t)(p->pos - t.start);
        t.kind = c == '%' ? BYOC__T_LOCAL : BYOC__T_GLOBAL;
        if (!t.len) {
            byoc__parse_fail(p, t.line, t.col, "expected a name after '%c'", c);
            t.kind = BYOC__T_ERROR;
        }
        p->tok = t;
        return;
    }
    if (byoc__is_digit(c) || (c == '-' && p->pos + 1 < p->end && (byoc__is_digit(p->pos[1]) || p->pos[1] == 'i'))) {
        byoc__advance_char(p);
        while (p->pos < p->end && (byoc__is_ident_char(*p->pos) || *p->pos == '.' ||
                                   ((*p->pos == '+' || *p->pos == '-') && (p->pos[-1] == 'e' || p->pos[-1] == 'E'))))
            byoc__advance_char(p);
        /* "1.0" is a number but in "%x.0" the dot was consumed by the local; a trailing '.' belongs here only
           before a digit */
        t.kind = BYOC__T_NUMBER;
        t.len = (size_t)(p->pos - t.start);
        p->tok = t;
        return;
    }
    if (c == '"') {
        byoc__advance_char(p);
        t.start = p->pos;
        while (p->pos < p->end && *p->pos != '"' && *p->pos != '\n') {
            if (*p->pos == '\\' && p->pos + 1 < p->end) byoc__advance_char(p);
            byoc__advance_char(p);
        }
        if (p->pos >= p->end || *p->pos != '"') {
            byoc__parse_fail(p, t.line, t.col, "unterminated string");
            t.kind = BYOC__T_ERROR;
            p->tok = t;
            return;
        }
        t.len = (size_t)(p->pos - t.start);
        byoc__advance_char(p);
        t.kind = BYOC__T_STRING;
        p->tok = t;
        return;
    }
    byoc__advance_char(p);
    t.len = 1;
    switch (c) {
    case '(': t.kind = BYOC__T_LPAREN; break;
    case ')': t.kind = BYOC__T_RPAREN; break;
    case '[': t.kind = BYOC__T_LBRACKET; break;
    case ']': t.kind = BYOC__T_RBRACKET; break;
    case '{': t.kind = BYOC__T_LBRACE; break;
    case '}': t.kind = BYOC__T_RBRACE; break;
    case ',': t.kind = BYOC__T_COMMA; break;
    case '=': t.kind = BYOC__T_EQUAL; break;
    case ';': t.kind = BYOC__T_SEMI; break;
    case ':': t.kind = BYOC__T_COLON; break;
    case '.': t.kind = BYOC__T_DOT; break;
    case '?': t.kind = BYOC__T_QUESTION; break;
    case '|': t.kind = BYOC__T_PIPE; break;
    case '*': t.kind = BYOC__T_STAR; break;
    case '-':
        if (p->pos < p->end && *p->pos == '>') { byoc__advance_char(p); t.kind = BYOC__T_ARROW; t.len = 2; break; }
        /* fallthrough */
    default:
        if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
            byoc__parse_fail(p, t.line, t.col, "unexpected character '%c'", c);
        else byoc__parse_fail(p, t.line, t.col, "unexpected byte 0x%02x", (unsigned char)c);
        t.kind = BYOC__T_ERROR;
    }
    p->tok = t;
}

BYOC__PRIVATE const char *byoc__tok_name(byoc__tok_kind k) {
    static const char *const names[] = {"end of input", "identifier", "local name", "global name",  "number", "string",
                                        "'('",          "')'",        "'['",        "']'",          "'{'",    "'}'",
                                        "','",          "'='",        "';'",        "':'",          "'.'",    "'->'",
                                        "'?'",          "'|'",        "'*'",        "invalid token"};
    return names[k];
}

/* "found ..." text for the current token */
BYOC__PRIVATE void byoc__tok_describe(const byoc__token *t, char *out, size_t cap) {
    int n = (int)(t->len > 40 ? 40 : t->len);
    switch (t->kind) {
    case BYOC__T_IDENT: case BYOC__T_NUMBER: snprintf(out, cap, "'%.*s'", n, t->start); break;
    case BYOC__T_LOCAL: snprintf(out, cap, "'%%%.*s'", n, t->start); break;
    case BYOC__T_GLOBAL: snprintf(out, cap, "'@%.*s'", n, t->start); break;
    case BYOC__T_STRING: snprintf(out, cap, "string \"%.*s\"", n, t->start); break;
    default: snprintf(out, cap, "%s", byoc__tok_name(t->kind));
    }
}

BYOC__PRIVATE int byoc__expected(byoc__parser *p, const char *what) {
    char found[64];
    byoc__tok_describe(&p->tok, found, sizeof found);
    return byoc__parse_fail(p, p->tok.line, p->tok.col, "expected %s but found %s", what, found);
}

BYOC__PRIVATE int byoc__accept(byoc__parser *p, byoc__tok_kind k) {
    if (p->failed || p->tok.kind != k) return 0;
    byoc__next(p);
    return 1;
}
BYOC__PRIVATE int byoc__expect(byoc__parser *p, byoc__tok_kind k) {
    if (p->failed) return 0;
    if (p->tok.kind == k) { byoc__next(p); return 1; }
    return byoc__expected(p, byoc__tok_name(k));
}
BYOC__PRIVATE int byoc__is_word(const byoc__parser *p, const char *w) {
    return p->tok.kind == BYOC__T_IDENT && p->tok.len == strlen(w) && memcmp(p->tok.start, w, p->tok.len) == 0;
}

/* kind of the token after the current one, without consuming anything */
BYOC__PRIVATE byoc__tok_kind byoc__peek_kind(byoc__parser *p) {
    byoc__parser saved = *p;
    byoc__next(p);
    byoc__tok_kind k = p->tok.kind;
    int failed = p->failed;
    *p = saved;
    if (failed && p->diag) p->diag->code = BYOC_OK; /* the real error is reported when reached */
    return k;
}

/* integer token text -> value, with range check */
BYOC__PRIVATE int byoc__tok_int(byoc__parser *p, int64_t *out) {
    if (p->tok.kind != BYOC__T_NUMBER) return byoc__expected(p, "an integer");
    char buf[64];
    size_t n = p->tok.len < sizeof buf - 1 ? p->tok.len : sizeof buf - 1;
    memcpy(buf, p->tok.start, n);
    buf[n] = 0;
    char *endp;
    errno = 0;
    long long v = strtoll(buf, &endp, 10);
    if (*endp || errno) return byoc__parse_fail(p, p->tok.line, p->tok.col, "'%s' is not an integer in range", buf);
    *out = v;
    byoc__next(p);
    return 1;
}

/* ---- types ---- */
BYOC__PRIVATE const byoc_type *byoc__parse_type(byoc__parser *p) {
    if (p->failed) return NULL;
    if (++p->depth > BYOC__MAX_DEPTH) {
        byoc__parse_fail(p, p->tok.line, p->tok.col, "type nested too deeply");
        return NULL;
    }
    const byoc_type *result = NULL;
    if (byoc__is_word(p, "Tensor")) {
        byoc__next(p);
        int64_t dims[BYOC_MAX_RANK];
        int rank = 0;
        if (!byoc__expect(p, BYOC__T_LBRACKET) || !byoc__expect(p, BYOC__T_LPAREN)) goto done;
        while (!p->failed && p->tok.kind != BYOC__T_RPAREN) {
            if (rank == BYOC_MAX_RANK) {
                byoc__parse_fail(p, p->tok.line, p->tok.col, "rank above %d is not supported", BYOC_MAX_RANK);
                goto done;
            }
            int line = p->tok.line, col = p->tok.col;
            if (byoc__accept(p, BYOC__T_QUESTION)) dims[rank++] = BYOC_DIM_UNKNOWN;
            else {
                int64_t v;
                if (!byoc__tok_int(p, &v)) goto done;
                if (v < 0) { byoc__parse_fail(p, line, col, "negative dimension %lld", (long long)v); goto done; }
                dims[rank++] = v;
            }
            if (!byoc__accept(p, BYOC__T_COMMA)) break;
        }
        if (!byoc__expect(p, BYOC__T_RPAREN) || !byoc__expect(p, BYOC__T_COMMA)) goto done;
        if (p->tok.kind != BYOC__T_IDENT) { byoc__expected(p, "a dtype"); goto done; }
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(p->tok.len < 31 ? p->tok.len : 31), p->tok.start);
        byoc_dtype dt = byoc_dtype_from_name(name);
        if (dt == BYOC_DTYPE_INVALID) {
            byoc__parse_fail(p, p->tok.line, p->tok.col, "unknown dtype '%s'", name);
            goto done;
        }
        byoc__next(p);
        if (!byoc__expect(p, BYOC__T_RBRACKET)) goto done;
        result = byoc_tensor_type(p->m, dt, rank, dims);
    } else if (p->tok.kind == BYOC__T_LPAREN) {
        byoc__next(p);
        const byoc_type **fields = NULL;
        while (!p->failed && p->tok.kind != BYOC__T_RPAREN) {
            const byoc_type *f = byoc__parse_type(p);
            if (!f) break;
            stbds_arrput(fields, f);
            if (!byoc__accept(p, BYOC__T_COMMA)) break;
        }
        if (byoc__expect(p, BYOC__T_RPAREN)) result = byoc_tuple_type(p->m, fields, (int)stbds_arrlen(fields));
        stbds_arrfree(fields);
    } else if (byoc__is_word(p, "fn")) {
        byoc__next(p);
        const byoc_type **params = NULL;
        if (byoc__expect(p, BYOC__T_LPAREN)) {
            while (!p->failed && p->tok.kind != BYOC__T_RPAREN) {
                const byoc_type *f = byoc__parse_type(p);
                if (!f) break;
                stbds_arrput(params, f);
                if (!byoc__accept(p, BYOC__T_COMMA)) break;
            }
            if (byoc__expect(p, BYOC__T_RPAREN) && byoc__expect(p, BYOC__T_ARROW)) {
                const byoc_type *ret = byoc__parse_type(p);
                if (ret) result = byoc_func_type(p->m, params, (int)stbds_arrlen(params), ret);
            }
        }
        stbds_arrfree(params);
    } else if (p->tok.kind == BYOC__T_IDENT) {
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(p->tok.len < 31 ? p->tok.len : 31), p->tok.start);
        byoc_dtype dt = byoc_dtype_from_name(name);
        if (dt == BYOC_DTYPE_INVALID) {
            byoc__parse_fail(p, p->tok.line, p->tok.col, "unknown type '%.*s'", (int)p->tok.len, p->tok.start);
            goto done;
        }
        byoc__next(p);
        result = byoc_tensor_type(p->m, dt, 0, NULL);
    } else
        byoc__expected(p, "a type");
done:
    p->depth--;
    if (!result && !p->failed)
        byoc__parse_fail(p, p->tok.line, p->tok.col, "%s", p->m->has_error ? p->m->error.message : "invalid type");
    return p->failed ? NULL : result;
}

/* ---- attribute values ---- */
BYOC__PRIVATE int byoc__number_text(byoc__parser *p, char *buf, size_t cap) {
    size_t n = p->tok.len < cap - 1 ? p->tok.len : cap - 1;
    memcpy(buf, p->tok.start, n);
    buf[n] = 0;
    return (int)n;
}

/* splits "1.5f16" into value text and suffix; returns 1 if the value is written as a float */
BYOC__PRIVATE int byoc__split_number(char *buf, const char **suffix) {
    int is_float = 0;
    char *s = buf;
    if (*s == '-') s++;
    if (strncmp(s, "inf", 3) == 0 || strncmp(s, "nan", 3) == 0) { *suffix = s + 3; return 1; }
    while (*s && (byoc__is_digit(*s) || *s == '.' ||
                  ((*s == 'e' || *s == 'E') && (byoc__is_digit(s[1]) || s[1] == '-' || s[1] == '+')) ||
                  ((*s == '-' || *s == '+') && (s[-1] == 'e' || s[-1] == 'E')))) {
        if (*s == '.' || *s == 'e' || *s == 'E') is_float = 1;
        s++;
    }
    *suffix = s;
    return is_float;
}

BYOC__PRIVATE int byoc__parse_double_text(const char *buf, double *out) {
    char tmp[80];
    snprintf(tmp, sizeof tmp, "%s", buf);
    char *sfx = tmp;
    if (*sfx == '-') sfx++;
    if (strncmp(sfx, "inf", 3) == 0) { *out = buf[0] == '-' ? -HUGE_VAL : HUGE_VAL; return 1; }
    if (strncmp(sfx, "nan", 3) == 0) { *out = NAN; return 1; }
    char *endp;
    errno = 0;
    *out = strtod(tmp, &endp);
    return endp != tmp && errno != ERANGE;
}

BYOC__PRIVATE int byoc__parse_attr_value(byoc__parser *p, byoc_attr_value *out) {
    memset(out, 0, sizeof *out);
    if (p->failed) return 0;
    int line = p->tok.line, col = p->tok.col;
    if (p->tok.kind == BYOC__T_STRING) {
        char *s = BYOC__CAST(char *, BYOC_MALLOC(p->tok.len + 1));
        if (!s) return byoc__parse_fail(p, line, col, "out of memory");
        size_t k = 0;
        for (size_t i = 0; i < p->tok.len; ++i) {
            char c = p->tok.start[i];
            if (c == '\\' && i + 1 < p->tok.len) {
                char e = p->tok.start[++i];
                if (e == 'n') c = '\n';
                else if (e == 't') c = '\t';
                else if (e == 'x' && i + 2 < p->tok.len) {
                    char hex[3] = {p->tok.start[i + 1], p->tok.start[i + 2], 0};
                    c = (char)strtol(hex, NULL, 16);
                    i += 2;
                } else c = e;
            }
            if (c == 0) { BYOC_FREE(s); return byoc__parse_fail(p, line, col, "NUL character in string"); }
            s[k++] = c;
        }
        s[k] = 0;
        out->kind = BYOC_ATTR_STRING;
        out->s = byoc_intern(p->m, s);
        BYOC_FREE(s);
        byoc__next(p);
        return 1;
    }
    if (byoc__is_word(p, "True") || byoc__is_word(p, "False")) {
        out->kind = BYOC_ATTR_BOOL;
        out->i = byoc__is_word(p, "True");
        byoc__next(p);
        return 1;
    }
    if (byoc__is_word(p, "None")) {
        out->kind = BYOC_ATTR_NONE;
        byoc__next(p);
        return 1;
    }
    if (p->tok.kind == BYOC__T_NUMBER) {
        char buf[80];
        byoc__number_text(p, buf, sizeof buf);
        const char *suffix;
        int is_float = byoc__split_number(buf, &suffix);
        if (*suffix && strcmp(suffix, "f") && strcmp(suffix, "f32") && strcmp(suffix, "i64") && strcmp(suffix, "i32"))
            return byoc__parse_fail(p, line, col, "bad number '%s'", buf);
        if (is_float || *suffix == 'f') {
            out->kind = BYOC_ATTR_FLOAT;
            if (!byoc__parse_double_text(buf, &out->f)) return byoc__parse_fail(p, line, col, "bad number '%s'", buf);
            byoc__next(p);
            return 1;
        }
        out->kind = BYOC_ATTR_INT;
        char digits[80];
        snprintf(digits, sizeof digits, "%.*s", (int)(suffix - buf), buf);
        char *endp;
        errno = 0;
        long long v = strtoll(digits, &endp, 10);
        if (*endp || errno || endp == digits)
            return byoc__parse_fail(p, line, col, "integer '%s' out of range", digits);
        out->i = v;
        byoc__next(p);
        return 1;
    }
    if (p->tok.kind == BYOC__T_LBRACKET) {
        if (p->list_depth >= 2) return byoc__parse_fail(p, line, col, "attribute lists nest at most two deep");
        p->list_depth++;
        byoc__next(p);
        int64_t *ints = NULL;
        double *floats = NULL;
        int any_float = 0, inner = -1, ok = 1;
        while (ok && !p->failed && p->tok.kind != BYOC__T_RBRACKET) {
            byoc_attr_value e;
            int eline = p->tok.line, ecol = p->tok.col;
            if (!byoc__parse_attr_value(p, &e)) { ok = 0; break; }
            if (e.kind == BYOC_ATTR_INT) {
                if (inner > 0) {
                    ok = byoc__parse_fail(p, eline, ecol, "cannot mix numbers and lists in one list");
                    break;
                }
                inner = 0;
                stbds_arrput(ints, e.i);
                stbds_arrput(floats, (double)e.i);
            } else if (e.kind == BYOC_ATTR_FLOAT) {
                if (inner > 0) {
                    ok = byoc__parse_fail(p, eline, ecol, "cannot mix numbers and lists in one list");
                    break;
                }
                inner = 0;
                any_float = 1;
                stbds_arrput(ints, 0);
                stbds_arrput(floats, e.f);
            } else if (e.kind == BYOC_ATTR_INT_LIST && e.inner == 0) {
                if (inner == 0 || (inner > 0 && e.count != inner) || e.count == 0) {
                    ok = byoc__parse_fail(p, eline, ecol, "nested lists must be non-empty and of equal length");
                    break;
                }
                inner = e.count;
                for (int i = 0; i < e.count; ++i) {
                    stbds_arrput(ints, e.ints[i]);
                    stbds_arrput(floats, (double)e.ints[i]);
                }
            } else {
                ok = byoc__parse_fail(p, eline, ecol, "list elements must be numbers or lists of integers");
                break;
            }
            if (!byoc__accept(p, BYOC__T_COMMA)) break;
        }
        p->list_depth--;
        if (ok && byoc__expect(p, BYOC__T_RBRACKET)) {
            int count = (int)stbds_arrlen(ints);
            if (any_float) {
                double *f = count ? BYOC__NEW_N(p->m, double, count) : NULL;
                if (count && f) memcpy(f, floats, sizeof(double) * (size_t)count);
                out->kind = BYOC_ATTR_FLOAT_LIST;
                out->floats = f;
            } else {
                int64_t *v = count ? BYOC__NEW_N(p->m, int64_t, count) : NULL;
                if (count && v) memcpy(v, ints, sizeof(int64_t) * (size_t)count);
                out->kind = BYOC_ATTR_INT_LIST;
                out->ints = v;
                out->inner = inner > 0 ? inner : 0;
            }
            out->count = count;
        }
        stbds_arrfree(ints);
        stbds_arrfree(floats);
        return !p->failed;
    }
    return byoc__expected(p, "an attribute value");
}

/* ---- expressions ---- */
BYOC__PRIVATE byoc_node *byoc__lookup(byoc__parser *p, const char *name) {
    for (ptrdiff_t i = stbds_arrlen(p->scopes) - 1; i >= 0; --i) {
        ptrdiff_t k = stbds_shgeti(p->scopes[i], name);
        if (k >= 0) return p->scopes[i][k].value;
    }
    return NULL;
}

BYOC__PRIVATE void byoc__push_scope(byoc__parser *p) {
    byoc__scope_entry *s = NULL;
    stbds_sh_new_strdup(s);
    stbds_arrput(p->scopes, s);
}
BYOC__PRIVATE void byoc__pop_scope(byoc__parser *p) {
    byoc__scope_entry *s = stbds_arrpop(p->scopes);
    stbds_shfree(s);
}

BYOC__PRIVATE int byoc__bind(byoc__parser *p, const byoc__token *name_tok, byoc_node *n) {
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(name_tok->len < 127 ? name_tok->len : 127), name_tok->start);
    byoc__scope_entry *scope = p->scopes[stbds_arrlen(p->scopes) - 1];
    if (stbds_shgeti(scope, name) >= 0)
        return byoc__parse_fail(p, name_tok->line, name_tok->col, "%%%s is already defined in this scope", name);
    stbds_shput(scope, name, n);
    p->scopes[stbds_arrlen(p->scopes) - 1] = scope;
    return 1;
}

/* block comments before the current token: find "span=..." and a type comment */
BYOC__PRIVATE int byoc__comment_find(const byoc__token *t, const char *key, const char **start, size_t *len) {
    /* the input is not NUL-terminated: scan only inside [comments, comments_end) */
    const char *c = t->comments, *end = t->comments_end;
    if (!c || !end) return 0;
    size_t klen = strlen(key);
    while (c + 4 <= end) {
        if (!(c[0] == '/' && c[1] == '*')) { c++; continue; }
        const char *body = c + 2, *close = body;
        while (close + 2 <= end && !(close[0] == '*' && close[1] == '/')) close++;
        if (close + 2 > end) return 0;
        const char *b = body, *tail = close;
        while (b < tail && (*b == ' ' || *b == '\t' || *b == '\n' || *b == '\r')) b++;
        while (tail > b && (tail[-1] == ' ' || tail[-1] == '\t' || tail[-1] == '\n' || tail[-1] == '\r')) tail--;
        if ((size_t)(tail - b) >= klen && memcmp(b, key, klen) == 0) {
            *start = b + klen;
            *len = (size_t)(tail - b) - klen;
            return 1;
        }
        c = close + 2;
    }
    return 0;
}

/* the parser's nodes each get a span of their own, which it fills in as it learns the parts */
BYOC__PRIVATE byoc_span *byoc__parsed_span(byoc__parser *p, byoc_node *n) {
    if (!n->span) n->span = BYOC__CAST(byoc_span *, byoc__arena_alloc_in(p->m, &p->m->bulk, sizeof(byoc_span)));
    return (byoc_span *)n->span;
}

BYOC__PRIVATE void byoc__apply_span_comment(byoc__parser *p, byoc_node *n) {
    const char *s;
    size_t len;
    byoc_span *sp;
    if (n && byoc__comment_find(&p->tok, "span=", &s, &len) && len && (sp = byoc__parsed_span(p, n)) != NULL)
        sp->source = byoc__intern_n(p->m, s, len);
}

BYOC__PRIVATE void byoc__set_pos(byoc__parser *p, byoc_node *n, int line, int col) {
    if (!n || byoc_node_span(n)->file) return;
    byoc_span *sp = byoc__parsed_span(p, n);
    if (!sp) return;
    sp->file = p->filename;
    sp->line = line;
    sp->col = col;
}

/* builder errors become parse errors at the construct's position */
BYOC__PRIVATE byoc_node *byoc__check_built(byoc__parser *p, byoc_node *n, int line, int col) {
    if (n) { byoc__set_pos(p, n, line, col); return n; }
    if (!p->failed) byoc__parse_fail(p, line, col, "%s", p->m->has_error ? p->m->error.message : "invalid expression");
    return NULL;
}

BYOC__PRIVATE uint64_t byoc__splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* meta[relay.Constant][i] with a following type comment, weights by index or seeded values */
BYOC__PRIVATE byoc_node *byoc__parse_meta(byoc__parser *p) {
    int line = p->tok.line, col = p->tok.col;
    byoc__next(p);
    int64_t index;
    if (!byoc__expect(p, BYOC__T_LBRACKET)) return NULL;
    if (!byoc__is_word(p, "relay")) { byoc__expected(p, "'relay.Constant'"); return NULL; }
    byoc__next(p);
    if (!byoc__expect(p, BYOC__T_DOT)) return NULL;
    if (!byoc__is_word(p, "Constant")) {
        byoc__expected(p, "'Constant' (only relay.Constant metadata is supported)");
        return NULL;
    }
    byoc__next(p);
    if (!byoc__expect(p, BYOC__T_RBRACKET) || !byoc__expect(p, BYOC__T_LBRACKET) || !byoc__tok_int(p, &index) ||
        !byoc__expect(p, BYOC__T_RBRACKET))
        return NULL;
    if (index < 0 || index > 100000000) {
        byoc__parse_fail(p, line, col, "meta index %lld out of range", (long long)index);
        return NULL;
    }
    /* the type comment, if any, sits before the token now current */
    const byoc_type *comment_type = NULL;
    const char *s;
    size_t len;
    if (byoc__comment_find(&p->tok, "ty=", &s, &len) || byoc__comment_find(&p->tok, "Tensor[", &s, &len)) {
        if (s[-1] == '[') { s -= 7; len += 7; } /* keep "Tensor[" */
        byoc__parser sub = *p;
        sub.src = sub.pos = s;
        sub.end = s + len;
        sub.scopes = NULL;
        sub.depth = 0;
        byoc__next(&sub);
        comment_type = byoc__parse_type(&sub);
        if (sub.failed) { p->failed = 1; return NULL; }
        if (sub.tok.kind != BYOC__T_EOF) {
            byoc__parse_fail(p, line, col,
                             "unexpected text after the type in the comment of meta[relay.Constant][%lld]",
                             (long long)index);
            return NULL;
        }
    }
    byoc_node *existing = (byoc_node *)byoc__map_get(&p->meta_nodes, (const void *)(uintptr_t)(index + 1), 0);
    if (existing) {
        if (comment_type && !byoc_type_equal(comment_type, existing->annotation)) {
            byoc__parse_fail(p, line, col, "meta[relay.Constant][%lld] is used with two different types",
                             (long long)index);
            return NULL;
        }
        return existing;
    }
    const byoc__weight *w = NULL;
    for (int i = 0; i < (int)stbds_arrlen(p->weights); ++i)
        if (p->weights[i].index == index) w = &p->weights[i];
    byoc_node *c = NULL;
    if (w) {
        if (comment_type && !byoc_type_equal(comment_type, w->type)) {
            char a[128], b[128];
            byoc_type_to_string(comment_type, a, sizeof a);
            byoc_type_to_string(w->type, b, sizeof b);
            byoc__parse_fail(p, line, col, "meta[relay.Constant][%lld] is %s in the text but %s in %s",
                             (long long)index, a, b,
                             p->opts && p->opts->weights_name ? p->opts->weights_name : "the weights");
            return NULL;
        }
        c = byoc_constant(p->m, w->type, w->data, w->nbytes);
    } else {
        if (!comment_type) {
            byoc__parse_fail(p, line, col, "meta[relay.Constant][%lld] has no type comment and no entry in the weights",
                             (long long)index);
            return NULL;
        }
        if (p->opts && p->opts->require_weights) {
            byoc__parse_fail(p, line, col, "meta[relay.Constant][%lld] has no entry in the weights", (long long)index);
            return NULL;
        }
        if (!byoc_type_is_static(comment_type) || comment_type->kind != BYOC_TYPE_TENSOR) {
            byoc__parse_fail(p, line, col, "meta[relay.Constant][%lld] needs a static tensor type", (long long)index);
            return NULL;
        }
        int64_t count = byoc_type_num_elements(comment_type);
        if (count < 0 || count > ((int64_t)1 << 28)) {
            byoc__parse_fail(p, line, col, "meta[relay.Constant][%lld] is too large to seed (%lld elements)",
                             (long long)index, (long long)count);
            return NULL;
        }
        c = byoc_constant(p->m, comment_type, NULL, 0);
        if (c) { /* deterministic values: small floats in [-0.5, 0.5), small ints in [-4, 3] */
            uint64_t seed =
                (p->opts && p->opts->seed ? p->opts->seed : 0x5eedull) ^ ((uint64_t)index * 0x9e3779b97f4a7c15ull);
            for (int64_t i = 0; i < count; ++i) {
                uint64_t r = byoc__splitmix(&seed);
                double v = byoc_dtype_is_float(comment_type->dtype) ? (double)(r >> 11) / 9007199254740992.0 - 0.5
                           : comment_type->dtype == BYOC_BOOL ? (double)(r & 1) : (double)((int)(r & 7) - 4);
                if (byoc__dtype_is_unsigned(comment_type->dtype)) v = (double)(r & 7);
                byoc__store(comment_type->dtype, c->data, i, v);
            }
        }
    }
    c = byoc__check_built(p, c, line, col);
    if (c) byoc__map_put(&p->meta_nodes, (const void *)(uintptr_t)(index + 1), (intptr_t)c);
    return c;
}

BYOC__PRIVATE byoc_node *byoc__parse_number_literal(byoc__parser *p) {
    int line = p->tok.line, col = p->tok.col;
    char buf[80];
    byoc__number_text(p, buf, sizeof buf);
    const char *suffix;
    int is_float = byoc__split_number(buf, &suffix);
    byoc_dtype dt;
    if (!*suffix) dt = is_float ? BYOC_FLOAT32 : BYOC_INT32;
    else if (!strcmp(suffix, "f") || !strcmp(suffix, "f32")) dt = BYOC_FLOAT32;
    else if (!strcmp(suffix, "f16")) dt = BYOC_FLOAT16;
    else if (!strcmp(suffix, "i8")) dt = BYOC_INT8;
    else if (!strcmp(suffix, "i16")) dt = BYOC_INT16;
    else if (!strcmp(suffix, "i32")) dt = BYOC_INT32;
    else if (!strcmp(suffix, "i64")) dt = BYOC_INT64;
    else if (!strcmp(suffix, "u8")) dt = BYOC_UINT8;
    else if (!strcmp(suffix, "f64")) dt = BYOC_FLOAT64;
    else if (!strcmp(suffix, "u16")) dt = BYOC_UINT16;
    else if (!strcmp(suffix, "u32")) dt = BYOC_UINT32;
    else if (!strcmp(suffix, "u64")) dt = BYOC_UINT64;
    else { byoc__parse_fail(p, line, col, "unsupported literal suffix in '%s'", buf); return NULL; }
    byoc_node *c;
    if (byoc_dtype_is_float(dt)) {
        double v;
        if (!byoc__parse_double_text(buf, &v)) { byoc__parse_fail(p, line, col, "bad number '%s'", buf); return NULL; }
        c = byoc_constant_scalar(p->m, dt, v);
    } else {
        if (is_float) {
            byoc__parse_fail(p, line, col, "'%s': an integer literal cannot have a fraction", buf);
            return NULL;
        }
        char digits[80];
        snprintf(digits, sizeof digits, "%.*s", (int)(suffix - buf), buf);
        char *endp;
        errno = 0;
        int is_u64 = dt == BYOC_UINT64;
        unsigned long long u = is_u64 && digits[0] != '-' ? strtoull(digits, &endp, 10) : 0;
        long long v = is_u64 ? 0 : strtoll(digits, &endp, 10);
        int64_t lo, hi;
        byoc__int_range(dt, &lo, &hi);
        if ((is_u64 && digits[0] == '-') || *endp || errno || endp == digits || v < lo || v > hi) {
            byoc__parse_fail(p, line, col, "'%s' is out of range for %s", buf, byoc_dtype_name(dt));
            return NULL;
        }
        c = byoc_constant(p->m, byoc_tensor_type(p->m, dt, 0, NULL), NULL, 0);
        if (c) { /* 64-bit integers are stored directly: a double cannot hold every value */
            if (dt == BYOC_INT64) { int64_t x = v; memcpy(c->data, &x, 8); }
            else if (is_u64) { uint64_t x = u; memcpy(c->data, &x, 8); }
            else byoc__store(dt, c->data, 0, (double)v);
        }
    }
    byoc__next(p);
    return byoc__check_built(p, c, line, col);
}

BYOC__PRIVATE byoc_node *byoc__parse_expr(byoc__parser *p);
BYOC__PRIVATE byoc_node *byoc__parse_function(byoc__parser *p, int line, int col, int is_def);

/* call arguments after '(' : expressions, then key=value attributes */
BYOC__PRIVATE int byoc__parse_args(byoc__parser *p, byoc_node ***args, byoc_attrs *attrs, int allow_attrs) {
    while (!p->failed && p->tok.kind != BYOC__T_RPAREN) {
        if (p->tok.kind == BYOC__T_IDENT && byoc__peek_kind(p) == BYOC__T_EQUAL) {
            byoc__token key = p->tok;
            if (!allow_attrs) return byoc__parse_fail(p, key.line, key.col, "a call of a function takes no attributes");
            byoc__next(p);
            byoc__next(p);
            byoc_attr_value v;
            if (!byoc__parse_attr_value(p, &v)) return 0;
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(key.len < 127 ? key.len : 127), key.start);
            if (byoc_attrs_get(attrs, name))
                return byoc__parse_fail(p, key.line, key.col, "attribute '%s' given twice", name);
            byoc_attrs_set(p->m, attrs, name, &v);
        } else {
            if (attrs->count) return byoc__expected(p, "an attribute (positional arguments come first)");
            byoc_node *a = byoc__parse_expr(p);
            if (!a) return 0;
            stbds_arrput(*args, a);
        }
        if (!byoc__accept(p, BYOC__T_COMMA)) break;
    }
    return byoc__expect(p, BYOC__T_RPAREN);
}

BYOC__PRIVATE byoc_node *byoc__parse_primary(byoc__parser *p) {
    int line = p->tok.line, col = p->tok.col;
    switch (p->tok.kind) {
    case BYOC__T_LOCAL: {
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(p->tok.len < 127 ? p->tok.len : 127), p->tok.start);
        byoc_node *n = byoc__lookup(p, name);
        if (!n) { byoc__parse_fail(p, line, col, "undefined variable %%%s", name); return NULL; }
        byoc__next(p);
        return n;
    }
    case BYOC__T_GLOBAL: {
        byoc_node *g = byoc_global_var(p->m, byoc__intern_n(p->m, p->tok.start, p->tok.len));
        g = byoc__check_built(p, g, line, col);
        if (g) stbds_arrput(p->globals_used, g);
        byoc__next(p);
        return g;
    }
    case BYOC__T_NUMBER: return byoc__parse_number_literal(p);
    case BYOC__T_LPAREN: {
        byoc__next(p);
        byoc_node **fields = NULL;
        int trailing_comma = 0;
        while (!p->failed && p->tok.kind != BYOC__T_RPAREN) {
            byoc_node *f = byoc__parse_expr(p);
            if (!f) break;
            stbds_arrput(fields, f);
            trailing_comma = 0;
            if (!byoc__accept(p, BYOC__T_COMMA)) break;
            trailing_comma = 1;
        }
        byoc_node *r = NULL;
        if (byoc__expect(p, BYOC__T_RPAREN)) {
            int n = (int)stbds_arrlen(fields);
            if (n == 1 && !trailing_comma) r = fields[0]; /* parenthesized expression */
            else r = byoc__check_built(p, byoc_tuple(p->m, fields, n), line, col);
        }
        stbds_arrfree(fields);
        return r;
    }
    case BYOC__T_IDENT:
        if (byoc__is_word(p, "True") || byoc__is_word(p, "False")) {
            byoc_node *c = byoc_constant_scalar(p->m, BYOC_BOOL, byoc__is_word(p, "True"));
            byoc__next(p);
            return byoc__check_built(p, c, line, col);
        }
        if (byoc__is_word(p, "meta")) return byoc__parse_meta(p);
        if (byoc__is_word(p, "fn")) { byoc__next(p); return byoc__parse_function(p, line, col, 0); }
        if (byoc__is_word(p, "let")) {
            byoc__parse_fail(p, line, col, "'let' bindings are not supported; use %%name = expr;");
            return NULL;
        }
        if (byoc__is_word(p, "if") || byoc__is_word(p, "match")) {
            byoc__parse_fail(p, line, col, "control flow ('%.*s') is not supported", (int)p->tok.len, p->tok.start);
            return NULL;
        }
        {
            /* an op name: ident ('.' ident)* '(' */
            char name[128];
            size_t n = 0;
            for (;;) {
                if (n + p->tok.len + 1 >= sizeof name) {
                    byoc__parse_fail(p, line, col, "op name too long");
                    return NULL;
                }
                memcpy(name + n, p->tok.start, p->tok.len);
                n += p->tok.len;
                name[n] = 0;
                byoc__next(p);
                if (p->tok.kind != BYOC__T_DOT) break;
                byoc__next(p);
                if (p->tok.kind != BYOC__T_IDENT) { byoc__expected(p, "the rest of an op name"); return NULL; }
                name[n++] = '.';
            }
            const byoc_op *op = byoc_op_get(name);
            if (!op) { byoc__parse_fail(p, line, col, "unknown op '%s'", name); return NULL; }
            if (!byoc__expect(p, BYOC__T_LPAREN)) return NULL;
            byoc_node **args = NULL;
            byoc_attrs attrs;
            memset(&attrs, 0, sizeof attrs);
            byoc_node *r = NULL;
            if (byoc__parse_args(p, &args, &attrs, 1)) {
                r = byoc_call_op(p->m, op, args, (int)stbds_arrlen(args), &attrs);
                r = byoc__check_built(p, r, line, col);
            }
            stbds_arrfree(args);
            return r;
        }
    default:
        byoc__expected(p, "an expression");
        return NULL;
    }
}

BYOC__PRIVATE byoc_node *byoc__parse_expr(byoc__parser *p) {
    if (p->failed) return NULL;
    if (++p->depth > BYOC__MAX_DEPTH) {
        byoc__parse_fail(p, p->tok.line, p->tok.col, "expression nested too deeply (limit %d)", BYOC__MAX_DEPTH);
        p->depth--;
        return NULL;
    }
    int line = p->tok.line, col = p->tok.col;
    byoc_node *e = byoc__parse_primary(p);
    while (e && !p->failed) {
        if (p->tok.kind == BYOC__T_DOT) {
            byoc__next(p);
            int64_t idx;
            int iline = p->tok.line, icol = p->tok.col;
            if (!byoc__tok_int(p, &idx)) { e = NULL; break; }
            if (idx < 0 || idx > 1000000) {
                byoc__parse_fail(p, iline, icol, "tuple index %lld out of range", (long long)idx);
                e = NULL;
                break;
            }
            e = byoc__check_built(p, byoc_tuple_get_item(p->m, e, (int)idx), line, col);
        } else if (p->tok.kind == BYOC__T_LPAREN) {
            if (e->kind != BYOC_NODE_FUNCTION && e->kind != BYOC_NODE_VAR && e->kind != BYOC_NODE_GLOBAL_VAR) {
                byoc__parse_fail(p, p->tok.line, p->tok.col, "only a function, a variable or a global can be called");
                e = NULL;
                break;
            }
            byoc__next(p);
            byoc_node **args = NULL;
            byoc_attrs attrs;
            memset(&attrs, 0, sizeof attrs);
            if (byoc__parse_args(p, &args, &attrs, 0))
                e = byoc__check_built(p, byoc_call_function(p->m, e, args, (int)stbds_arrlen(args)), line, col);
            else e = NULL;
            stbds_arrfree(args);
        } else break;
    }
    p->depth--;
    return p->failed ? NULL : e;
}

/* params ')' ['->' type] '{' block '}' -- after "fn (" or "def @name(" has been read up to '(' */
BYOC__PRIVATE byoc_node *byoc__parse_function(byoc__parser *p, int line, int col, int is_def) {
    if (!byoc__expect(p, BYOC__T_LPAREN)) return NULL;
    if (++p->depth > BYOC__MAX_DEPTH) {
        byoc__parse_fail(p, line, col, "functions nested too deeply (limit %d)", BYOC__MAX_DEPTH);
        p->depth--;
        return NULL;
    }
    (void)is_def;
    byoc__push_scope(p);
    byoc_node **params = NULL;
    byoc_attrs attrs;
    memset(&attrs, 0, sizeof attrs);
    byoc_node *fn = NULL;
    while (!p->failed && p->tok.kind != BYOC__T_RPAREN) {
        if (p->tok.kind == BYOC__T_LOCAL) {
            if (attrs.count) { byoc__expected(p, "an attribute (parameters come first)"); break; }
            byoc__token name = p->tok;
            byoc__next(p);
            const byoc_type *t = NULL;
            if (byoc__accept(p, BYOC__T_COLON)) {
                t = byoc__parse_type(p);
                if (!t) break;
            }
            byoc_node *v = byoc_var(p->m, byoc__intern_n(p->m, name.start, name.len), t);
            v = byoc__check_built(p, v, name.line, name.col);
            if (!v || !byoc__bind(p, &name, v)) break;
            byoc__apply_span_comment(p, v);
            stbds_arrput(params, v);
        } else if (p->tok.kind == BYOC__T_IDENT) {
            byoc__token key = p->tok;
            byoc__next(p);
            if (!byoc__expect(p, BYOC__T_EQUAL)) break;
            byoc_attr_value v;
            if (!byoc__parse_attr_value(p, &v)) break;
            char kname[128];
            snprintf(kname, sizeof kname, "%.*s", (int)(key.len < 127 ? key.len : 127), key.start);
            if (byoc_attrs_get(&attrs, kname)) {
                byoc__parse_fail(p, key.line, key.col, "attribute '%s' given twice", kname);
                break;
            }
            byoc_attrs_set(p->m, &attrs, kname, &v);
        } else {
            byoc__expected(p, "a parameter or an attribute");
            break;
        }
        if (!byoc__accept(p, BYOC__T_COMMA)) break;
    }
    const byoc_type *ret = NULL;
    if (!p->failed && byoc__expect(p, BYOC__T_RPAREN) && byoc__accept(p, BYOC__T_ARROW)) ret = byoc__parse_type(p);
    if (!p->failed && byoc__expect(p, BYOC__T_LBRACE)) {
        /* block: (%name = expr ;)* expr */
        byoc_node *body = NULL;
        while (!p->failed) {
            if (p->tok.kind == BYOC__T_LOCAL && byoc__peek_kind(p) == BYOC__T_EQUAL) {
                byoc__token name = p->tok;
                byoc__next(p);
                byoc__next(p);
                byoc_node *e = byoc__parse_expr(p);
                if (!e) break;
                byoc__apply_span_comment(p, e);
                if (!byoc__expect(p, BYOC__T_SEMI) || !byoc__bind(p, &name, e)) break;
                continue;
            }
            body = byoc__parse_expr(p);
            if (body) byoc__apply_span_comment(p, body);
            break;
        }
        if (body && byoc__expect(p, BYOC__T_RBRACE))
            fn = byoc__check_built(p, byoc_function(p->m, params, (int)stbds_arrlen(params), body, ret, &attrs), line,
                                   col);
    }
    byoc__pop_scope(p);
    stbds_arrfree(params);
    p->depth--;
    return p->failed ? NULL : fn;
}

BYOC__PRIVATE byoc_result byoc__read_weights(byoc__parser *p, const unsigned char *data, size_t size, const char *name);

BYOC__PRIVATE void byoc__parser_free(byoc__parser *p) {
    while (stbds_arrlen(p->scopes)) byoc__pop_scope(p);
    stbds_arrfree(p->scopes);
    stbds_arrfree(p->globals_used);
    stbds_arrfree(p->weights);
    byoc__map_free(&p->meta_nodes);
}

BYOC_API byoc_module *byoc_module_parse(const char *text, size_t len, const char *filename,
                                        const byoc_parse_options *opts, byoc_diag *diag) {
    byoc_diag local;
    if (!diag) diag = &local;
    memset(diag, 0, sizeof *diag);
    byoc_module *m = byoc_module_create(opts ? opts->allocator : NULL);
    if (!m) { byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory"); return NULL; }
    byoc__parser p;
    byoc__parser_init(&p, m, diag, byoc_intern(m, filename ? filename : "<text>"), text ? text : "", text ? len : 0);
    p.opts = opts;
    if (opts && opts->weights && byoc__read_weights(&p, (const unsigned char *)opts->weights, opts->weights_size,
                                                    opts->weights_name ? opts->weights_name : "weights") != BYOC_OK)
        p.failed = 1;
    byoc__push_scope(&p);
    if (!p.failed) byoc__next(&p);
    while (!p.failed && p.tok.kind != BYOC__T_EOF) {
        int line = p.tok.line, col = p.tok.col;
        if (byoc__is_word(&p, "def")) {
            byoc__next(&p);
            if (p.tok.kind != BYOC__T_GLOBAL) { byoc__expected(&p, "a global name like @main"); break; }
            byoc__token name = p.tok;
            byoc__next(&p);
            const char *gname = byoc__intern_n(m, name.start, name.len);
            if (byoc_module_function(m, gname)) {
                byoc__parse_fail(&p, name.line, name.col, "@%s is defined twice", gname);
                break;
            }
            byoc_node *fn = byoc__parse_function(&p, line, col, 1);
            if (!fn) break;
            byoc_module_add_function(m, gname, fn);
        } else if (byoc__is_word(&p, "fn")) {
            byoc__next(&p);
            byoc_node *fn = byoc__parse_function(&p, line, col, 1);
            if (!fn) break;
            if (byoc_module_function(m, "main")) {
                byoc__parse_fail(&p, line, col, "a bare 'fn' defines @main, which is already defined");
                break;
            }
            byoc_module_add_function(m, "main", fn);
        } else {
            byoc__expected(&p, "'def' or 'fn'");
            break;
        }
    }
    for (int i = 0; !p.failed && i < (int)stbds_arrlen(p.globals_used); ++i) {
        byoc_node *g = p.globals_used[i];
        if (!byoc_module_function(m, g->name))
            byoc__parse_fail(&p, byoc_node_span(g)->line, byoc_node_span(g)->col, "@%s is not defined", g->name);
    }
    if (!p.failed && byoc_module_function_count(m) == 0)
        byoc__parse_fail(&p, p.tok.line, p.tok.col, "no functions in the module");
    byoc__parser_free(&p);
    if (p.failed || m->has_error) {
        if (!p.failed) byoc__diag(diag, m->error.code, 0, 0, 0, "%s", m->error.message);
        byoc_module_destroy(m);
        return NULL;
    }
    return m;
}

BYOC__PRIVATE char *byoc__read_file(const char *path, size_t *size, byoc_diag *diag) {
    FILE *f = fopen(path, "rb");
    if (!f) { byoc__diag(diag, BYOC_ERR_IO, 0, 0, 0, "%s: cannot open: %s", path, strerror(errno)); return NULL; }
    char *data = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            char *nd = BYOC__CAST(char *, BYOC_REALLOC(data, cap + 1));
            if (!nd) {
                BYOC_FREE(data);
                fclose(f);
                byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "%s: out of memory", path);
                return NULL;
            }
            data = nd;
        }
        size_t got = fread(data + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) { BYOC_FREE(data); byoc__diag(diag, BYOC_ERR_IO, 0, 0, 0, "%s: read error", path); return NULL; }
    data[len] = 0;
    *size = len;
    return data;
}

BYOC_API byoc_module *byoc_module_load(const char *path, const byoc_parse_options *opts, byoc_diag *diag) {
    size_t len;
    char *text = byoc__read_file(path, &len, diag);
    if (!text) return NULL;
    byoc_parse_options o;
    if (opts) o = *opts;
    else memset(&o, 0, sizeof o);
    char *weights = NULL;
    char wpath[4096];
    if (!o.weights) {
        size_t n = strlen(path);
        if (n > 6 && strcmp(path + n - 6, ".relay") == 0 && n + 3 < sizeof wpath) {
            snprintf(wpath, sizeof wpath, "%.*s.weights", (int)(n - 6), path);
            FILE *f = fopen(wpath, "rb");
            if (f) {
                fclose(f);
                size_t wlen;
                weights = byoc__read_file(wpath, &wlen, diag);
                if (!weights) { BYOC_FREE(text); return NULL; }
                o.weights = weights;
                o.weights_size = wlen;
                o.weights_name = wpath;
            }
        }
    }
    byoc_module *m = byoc_module_parse(text, len, path, &o, diag);
    BYOC_FREE(text);
    BYOC_FREE(weights);
    return m;
}

BYOC_API const byoc_type *byoc_type_parse(byoc_module *m, const char *text, byoc_diag *diag) {
    if (!m) { byoc__null_arg(diag, __func__, "module"); return NULL; }
    byoc__parser p;
    byoc__parser_init(&p, m, diag, "<type>", text, strlen(text));
    byoc__next(&p);
    const byoc_type *t = byoc__parse_type(&p);
    if (t && p.tok.kind != BYOC__T_EOF) { byoc__expected(&p, "end of the type"); t = NULL; }
    return p.failed ? NULL : t;
}

BYOC__PRIVATE byoc_result byoc__attr_value_parse_in(byoc_module *m, const char *text, byoc_attr_value *out,
                                                    byoc_diag *diag) {
    byoc__parser p;
    byoc__parser_init(&p, m, diag, "<attribute>", text, strlen(text));
    byoc__next(&p);
    if (byoc__parse_attr_value(&p, out) && p.tok.kind != BYOC__T_EOF) byoc__expected(&p, "end of the value");
    return p.failed ? BYOC_ERR_PARSE : BYOC_OK;
}
BYOC_API byoc_result byoc_attr_value_parse(byoc_module *m, const char *text, byoc_attr_value *out, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    return byoc__attr_value_parse_in(m, text, out, diag);
}

// [SECTION] impl: weights file
/* Layout (little-endian): "BYOCWTS1", u32 count, then per constant: u32 meta index, u32 dtype code
   (byoc_dtype value), u32 rank, i64 dims[rank], u64 nbytes, nbytes of data. */
static const char byoc__weights_magic[8] = {'B', 'Y', 'O', 'C', 'W', 'T', 'S', '1'};

BYOC__PRIVATE uint64_t byoc__get_le(const unsigned char *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

BYOC__PRIVATE byoc_result byoc__read_weights(byoc__parser *p, const unsigned char *data, size_t size,
                                             const char *name) {
    byoc_diag *d = p->diag;
    if (size < 12 || memcmp(data, byoc__weights_magic, 8) != 0)
        return byoc__diag(d, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: not a weights file (bad magic)", name);
    uint64_t count = byoc__get_le(data + 8, 4);
    size_t off = 12;
    for (uint64_t e = 0; e < count; ++e) {
        if (size - off < 12)
            return byoc__diag(d, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: entry %llu: truncated header", name,
                              (unsigned long long)e);
        uint64_t index = byoc__get_le(data + off, 4), dtype = byoc__get_le(data + off + 4, 4),
                 rank = byoc__get_le(data + off + 8, 4);
        off += 12;
        if (dtype == 0 || dtype >= BYOC_DTYPE_COUNT)
            return byoc__diag(d, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: entry %llu: unknown dtype code %llu", name,
                              (unsigned long long)e, (unsigned long long)dtype);
        if (rank > BYOC_MAX_RANK)
            return byoc__diag(d, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: entry %llu: rank %llu above %d", name,
                              (unsigned long long)e, (unsigned long long)rank, BYOC_MAX_RANK);
        if (index > 100000000)
            return byoc__diag(d, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: entry %llu: index %llu out of range", name,
                              (unsigned long long)e, (unsigned long long)index);
        if (size - off < rank * 8 + 8)
            return byoc__diag(d, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: entry %llu: truncated shape", name,
                              (unsigned long long)e);
        int64_t dims[BYOC_MAX_RANK];
        uint64_t elems = 1;
        for (uint64_t i = 0; i < rank; ++i) {
            dims[i] = (int64_t)byoc__get_le(data + off + 8 * i, 8);
            if (dims[i] < 0 || dims[i] > BYOC_MAX_DIM || (dims[i] && elems > (UINT64_C(1) << 40) / (uint64_t)dims[i]))
                return byoc__diag(d, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: entry %llu: bad dimension", name,
                                  (unsigned long long)e);
            elems *= (uint64_t)dims[i];
        }
        off += rank * 8;
        uint64_t nbytes = byoc__get_le(data + off, 8);
        off += 8;
        if (nbytes != elems * byoc_dtype_size((byoc_dtype)dtype))
            return byoc__diag(d, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: entry %llu: %llu data bytes, shape needs %llu", name,
                              (unsigned long long)e, (unsigned long long)nbytes,
                              (unsigned long long)(elems * byoc_dtype_size((byoc_dtype)dtype)));
        if (size - off < nbytes)
            return byoc__diag(d, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: entry %llu: truncated data", name,
                              (unsigned long long)e);
        for (int i = 0; i < (int)stbds_arrlen(p->weights); ++i)
            if (p->weights[i].index == (int)index)
                return byoc__diag(d, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: entry %llu: index %llu appears twice", name,
                                  (unsigned long long)e, (unsigned long long)index);
        byoc__weight w;
        w.index = (int)index;
        w.type = byoc_tensor_type(p->m, (byoc_dtype)dtype, (int)rank, dims);
        w.data = data + off;
        w.nbytes = (size_t)nbytes;
        if (!w.type) return byoc__diag(d, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "%s: out of memory", name);
        stbds_arrput(p->weights, w);
        off += (size_t)nbytes;
    }
    if (off != size)
        return byoc__diag(d, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: %zu unexpected bytes after the last entry", name,
                          size - off);
    return BYOC_OK;
}

BYOC__PRIVATE void byoc__put_le(byoc__buf *b, uint64_t v, int n) {
    char bytes[8];
    for (int i = 0; i < n; ++i) bytes[i] = (char)(unsigned char)(v >> (8 * i));
    byoc__buf_put(b, bytes, (size_t)n);
}

BYOC_API void *byoc_module_weights_serialize(byoc_module *m, size_t *size) {
    if (!m) return NULL;
    int count;
    byoc_node **consts = byoc__meta_constants(m, &count);
    byoc__buf b;
    memset(&b, 0, sizeof b);
    b.m = m;
    byoc__buf_put(&b, byoc__weights_magic, 8);
    byoc__put_le(&b, (uint64_t)count, 4);
    for (int i = 0; i < count; ++i) {
        const byoc_node *c = consts[i];
        const byoc_type *t = c->annotation;
        byoc__put_le(&b, (uint64_t)i, 4);
        byoc__put_le(&b, (uint64_t)t->dtype, 4);
        byoc__put_le(&b, (uint64_t)t->rank, 4);
        for (int k = 0; k < t->rank; ++k) byoc__put_le(&b, (uint64_t)t->dims[k], 8);
        byoc__put_le(&b, (uint64_t)byoc_constant_nbytes(c), 8);
        byoc__buf_put(&b, (const char *)c->data, byoc_constant_nbytes(c));
    }
    stbds_arrfree(consts);
    if (b.oom) { byoc_free(m, b.data); return NULL; }
    *size = b.len;
    return b.data;
}

BYOC__PRIVATE byoc_result byoc__write_file(const char *path, const void *data, size_t size, byoc_diag *diag) {
    FILE *f = fopen(path, "wb");
    if (!f) return byoc__diag(diag, BYOC_ERR_IO, 0, 0, 0, "%s: cannot create: %s", path, strerror(errno));
    size_t wrote = fwrite(data, 1, size, f);
    if (fclose(f) != 0 || wrote != size) return byoc__diag(diag, BYOC_ERR_IO, 0, 0, 0, "%s: write failed", path);
    return BYOC_OK;
}

BYOC_API byoc_result byoc_module_save_weights(byoc_module *m, const char *path, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    size_t size;
    void *bytes = byoc_module_weights_serialize(m, &size);
    if (!bytes) return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory serializing weights");
    byoc_result r = byoc__write_file(path, bytes, size, diag);
    byoc_free(m, bytes);
    return r;
}

BYOC_API byoc_result byoc_module_save(byoc_module *m, const char *path, unsigned flags, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    size_t len, wsize, n = strlen(path);
    char *text = byoc_module_print(m, flags, &len);
    void *weights = byoc_module_weights_serialize(m, &wsize);
    char *wpath = BYOC__CAST(char *, BYOC_MALLOC(n + 4));
    byoc_result r = BYOC_OK;
    int has_constants = wsize > 12; /* more than the header */
    if (!text || !weights || !wpath)
        r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory saving the module");
    else if (has_constants && (n < 6 || strcmp(path + n - 6, ".relay") != 0))
        r = byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                       "%s: a module with constants must be saved as NAME.relay (weights go to NAME.weights)", path);
    else {
        r = byoc__write_file(path, text, len, diag);
        if (r == BYOC_OK && has_constants) {
            snprintf(wpath, n + 4, "%.*s.weights", (int)(n - 6), path);
            r = byoc__write_file(wpath, weights, wsize, diag);
        }
    }
    byoc_free(m, text);
    byoc_free(m, weights);
    BYOC_FREE(wpath);
    return r;
}

// [SECTION] impl: structural equality, hash, copy
typedef struct byoc__node_pair { const byoc_node *a, *b; } byoc__node_pair;

BYOC__PRIVATE int byoc__local_equal(const byoc_node *a, const byoc_node *b) {
    if (a->kind != b->kind || a->nargs != b->nargs) return 0;
    switch (a->kind) {
    case BYOC_NODE_VAR: return byoc_type_equal(a->annotation, b->annotation);
    case BYOC_NODE_CONSTANT:
        return byoc_type_equal(a->annotation, b->annotation) && memcmp(a->data, b->data, byoc_constant_nbytes(a)) == 0;
    case BYOC_NODE_GLOBAL_VAR: return strcmp(a->name, b->name) == 0;
    case BYOC_NODE_CALL:
        if (a->op != b->op || (!a->callee) != (!b->callee)) return 0;
        return byoc__attrs_equal(&a->attrs, &b->attrs);
    case BYOC_NODE_TUPLE: return 1;
    case BYOC_NODE_TUPLE_GET_ITEM: return a->index == b->index;
    case BYOC_NODE_FUNCTION:
        return a->nparams == b->nparams && byoc_type_equal(a->annotation, b->annotation) &&
               byoc__attrs_equal(&a->attrs, &b->attrs);
    }
    return 0;
}

BYOC_API int byoc_structural_equal(const byoc_node *a, const byoc_node *b) {
    if (!a || !b) return a == b;
    byoc__node_pair *work = NULL;
    byoc__map done = BYOC__MAP_EMPTY;
    byoc__map fwd = BYOC__MAP_EMPTY, back = BYOC__MAP_EMPTY; /* var bijection */
    int equal = 1;
    byoc__node_pair start = {a, b};
    stbds_arrput(work, start);
    while (equal && stbds_arrlen(work)) {
        byoc__node_pair pr = stbds_arrpop(work);
        /* a node compared with the node it was last compared with needs no second look; a node met
           again against another partner is compared again (rare: sharing that differs) */
        if (byoc__map_get(&done, pr.a, 0) == (intptr_t)pr.b) continue;
        byoc__map_put(&done, pr.a, (intptr_t)pr.b);
        const byoc_node *x = pr.a, *y = pr.b;
        if (!byoc__local_equal(x, y)) { equal = 0; break; }
        if (x->kind == BYOC_NODE_VAR || x->kind == BYOC_NODE_FUNCTION) {
            int n = x->kind == BYOC_NODE_VAR ? 1 : x->nparams;
            for (int i = 0; i < n && equal; ++i) {
                const byoc_node *vx = x->kind == BYOC_NODE_VAR ? x : x->params[i],
                                *vy = y->kind == BYOC_NODE_VAR ? y : y->params[i];
                if (!byoc_type_equal(vx->annotation, vy->annotation)) { equal = 0; break; }
                intptr_t f = byoc__map_get(&fwd, vx, 0), g = byoc__map_get(&back, vy, 0);
                if (!f && !g) {
                    byoc__map_put(&fwd, vx, (intptr_t)vy);
                    byoc__map_put(&back, vy, (intptr_t)vx);
                } else if (f != (intptr_t)vy || g != (intptr_t)vx) equal = 0;
            }
        }
        int k = byoc__input_count(x, BYOC_GRAPH_ENTER_FUNCTIONS);
        for (int i = 0; i < k; ++i) {
            byoc__node_pair c = {byoc__input_at(x, i), byoc__input_at(y, i)};
            stbds_arrput(work, c);
        }
    }
    stbds_arrfree(work);
    byoc__map_free(&done);
    byoc__map_free(&fwd);
    byoc__map_free(&back);
    return equal;
}

BYOC_API int byoc_module_structural_equal(const byoc_module *a, const byoc_module *b) {
    if (!a || !b) return a == b;
    if (byoc_module_function_count(a) != byoc_module_function_count(b)) return 0;
    for (int i = 0; i < byoc_module_function_count(a); ++i) {
        byoc_node *fb = byoc_module_function(b, a->functions[i].name);
        if (!fb || !byoc_structural_equal(a->functions[i].function, fb)) return 0;
    }
    return 1;
}

BYOC__PRIVATE uint64_t byoc__mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0x100000001b3ull;
}
BYOC__PRIVATE uint64_t byoc__hash_bytes(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = (const unsigned char *)data;
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}
BYOC__PRIVATE uint64_t byoc__hash_type(uint64_t h, const byoc_type *t) {
    if (!t) return byoc__mix(h, 0x7a);
    h = byoc__mix(h, (uint64_t)t->kind);
    if (t->kind == BYOC_TYPE_TENSOR) {
        h = byoc__mix(h, (uint64_t)t->dtype);
        h = byoc__mix(h, (uint64_t)t->rank);
        for (int i = 0; i < t->rank; ++i) h = byoc__mix(h, (uint64_t)t->dims[i]);
        return h;
    }
    for (int i = 0; i < t->nfields; ++i) h = byoc__hash_type(h, t->fields[i]);
    return t->ret ? byoc__hash_type(h, t->ret) : h;
}
BYOC__PRIVATE uint64_t byoc__hash_attrs(uint64_t h, const byoc_attrs *a) {
    uint64_t acc = 0; /* order-independent, matching byoc__attrs_equal */
    for (int i = 0; i < a->count; ++i) {
        const byoc_attr_value *v = &a->items[i].value;
        uint64_t x = byoc__hash_bytes(0xcbf29ce484222325ull, a->items[i].name, strlen(a->items[i].name));
        x = byoc__mix(x, (uint64_t)v->kind);
        switch (v->kind) {
        case BYOC_ATTR_INT: case BYOC_ATTR_BOOL: x = byoc__mix(x, (uint64_t)v->i); break;
        case BYOC_ATTR_FLOAT: x = byoc__hash_bytes(x, &v->f, sizeof v->f); break;
        case BYOC_ATTR_STRING: x = byoc__hash_bytes(x, v->s, strlen(v->s)); break;
        case BYOC_ATTR_INT_LIST:
            x = byoc__mix(x, (uint64_t)v->inner);
            if (v->count) x = byoc__hash_bytes(x, v->ints, sizeof(int64_t) * (size_t)v->count);
            break;
        case BYOC_ATTR_FLOAT_LIST:
            if (v->count) x = byoc__hash_bytes(x, v->floats, sizeof(double) * (size_t)v->count);
            break;
        default: break;
        }
        acc += x;
    }
    return byoc__mix(h, acc);
}

BYOC_API uint64_t byoc_structural_hash(const byoc_node *root) {
    if (!root) return 0;
    byoc__map seen = BYOC__MAP_EMPTY;
    byoc_node **order = NULL;
    byoc__post_order((byoc_node *)root, BYOC_GRAPH_ENTER_FUNCTIONS, &seen, &order);
    int count = (int)stbds_arrlen(order);
    uint64_t *h = BYOC__CAST(uint64_t *, BYOC_MALLOC(sizeof(uint64_t) * (size_t)(count ? count : 1)));
    if (!h) { byoc__map_free(&seen); stbds_arrfree(order); return 0; }
    for (int i = 0; i < count; ++i) {
        const byoc_node *n = order[i];
        uint64_t x = byoc__mix(0xcbf29ce484222325ull, (uint64_t)n->kind);
        switch (n->kind) {
        case BYOC_NODE_VAR: x = byoc__hash_type(x, n->annotation); break; /* names are not part of structure */
        case BYOC_NODE_CONSTANT:
            x = byoc__hash_bytes(byoc__hash_type(x, n->annotation), n->data, byoc_constant_nbytes(n));
            break;
        case BYOC_NODE_GLOBAL_VAR: x = byoc__hash_bytes(x, n->name, strlen(n->name)); break;
        case BYOC_NODE_CALL:
            x = byoc__hash_attrs(byoc__hash_bytes(x, n->op ? n->op->def.name : "", n->op ? strlen(n->op->def.name) : 0),
                                 &n->attrs);
            break;
        case BYOC_NODE_TUPLE_GET_ITEM: x = byoc__mix(x, (uint64_t)n->index); break;
        case BYOC_NODE_FUNCTION:
            x = byoc__hash_attrs(byoc__hash_type(byoc__mix(x, (uint64_t)n->nparams), n->annotation), &n->attrs);
            for (int k = 0; k < n->nparams; ++k) x = byoc__hash_type(x, n->params[k]->annotation);
            break;
        default: break;
        }
        int k = byoc__input_count(n, BYOC_GRAPH_ENTER_FUNCTIONS);
        for (int j = 0; j < k; ++j) {
            byoc_node *in = byoc__input_at(n, j);
            x = byoc__mix(x, h[byoc__map_get(&seen, in, 0)]);
        }
        h[i] = x;
    }
    uint64_t r = count ? h[count - 1] : 0;
    BYOC_FREE(h);
    byoc__map_free(&seen);
    stbds_arrfree(order);
    return r;
}

BYOC__PRIVATE byoc_node *byoc__copy_from(byoc__map *map, const byoc_node *old) {
    return (byoc_node *)byoc__map_get(map, old, 0);
}

/* duplicates a type tree into dst (types hold pointers, so a copy must not point into another module) */
BYOC__PRIVATE const byoc_type *byoc__copy_type(byoc_module *dst, const byoc_type *t) {
    if (!t) return NULL;
    if (t->kind == BYOC_TYPE_TENSOR) return byoc_tensor_type(dst, t->dtype, t->rank, t->dims);
    const byoc_type *small[16] = {0};
    const byoc_type **f = t->nfields <= 16
                              ? small
                              : BYOC__CAST(const byoc_type **, BYOC_MALLOC(sizeof(byoc_type *) * (size_t)t->nfields));
    if (!f) return NULL;
    for (int i = 0; i < t->nfields; ++i) f[i] = byoc__copy_type(dst, t->fields[i]);
    const byoc_type *r = t->kind == BYOC_TYPE_TUPLE ? byoc_tuple_type(dst, f, t->nfields)
                                                    : byoc_func_type(dst, f, t->nfields, byoc__copy_type(dst, t->ret));
    if (f != small) BYOC_FREE((void *)f);
    return r;
}

BYOC__PRIVATE byoc_node *byoc__copy_into(byoc_module *dst, const byoc_node *expr, byoc__map *map) {
    byoc__map seen = BYOC__MAP_EMPTY;
    byoc_node **order = NULL;
    byoc__post_order((byoc_node *)expr, BYOC_GRAPH_ENTER_FUNCTIONS, &seen, &order);
    byoc_node **tmp = NULL;
    for (int i = 0; i < (int)stbds_arrlen(order) && !dst->has_error; ++i) {
        const byoc_node *n = order[i];
        if (byoc__copy_from(map, n)) continue;
        byoc_node *c = NULL;
        stbds_arrsetlen(tmp, 0);
        for (int k = 0; k < n->nargs; ++k) stbds_arrput(tmp, byoc__copy_from(map, n->args[k]));
        switch (n->kind) {
        case BYOC_NODE_VAR: c = byoc_var(dst, n->name, byoc__copy_type(dst, n->annotation)); break;
        case BYOC_NODE_CONSTANT:
            if (dst->borrow_constants) {
                c = byoc__node_new(dst, BYOC_NODE_CONSTANT);
                if (c) c->annotation = byoc__copy_type(dst, n->annotation), c->data = n->data;
            } else
                c = byoc_constant(dst, byoc__copy_type(dst, n->annotation), n->data, byoc_constant_nbytes(n));
            break;
        case BYOC_NODE_GLOBAL_VAR: c = byoc_global_var(dst, n->name); break;
        case BYOC_NODE_TUPLE: c = byoc_tuple(dst, tmp, n->nargs); break;
        case BYOC_NODE_TUPLE_GET_ITEM: c = byoc_tuple_get_item(dst, tmp[0], n->index); break;
        case BYOC_NODE_CALL:
            if (n->op) c = byoc_call_op(dst, n->op, tmp, n->nargs, &n->attrs);
            else c = byoc_call_function(dst, byoc__copy_from(map, n->callee), tmp, n->nargs);
            break;
        case BYOC_NODE_FUNCTION: {
            byoc_node **ps = NULL;
            for (int k = 0; k < n->nparams; ++k) {
                byoc_node *pv = byoc__copy_from(map, n->params[k]);
                if (!pv) { /* unused parameter: not reached by the traversal */
                    pv = byoc_var(dst, n->params[k]->name, byoc__copy_type(dst, n->params[k]->annotation));
                    if (pv) {
                        pv->span = byoc__span_copy(dst, n->params[k]);
                        byoc__map_put(map, n->params[k], (intptr_t)pv);
                    }
                }
                stbds_arrput(ps, pv);
            }
            c = byoc_function(dst, ps, n->nparams, byoc__copy_from(map, n->body), byoc__copy_type(dst, n->annotation),
                              &n->attrs);
            stbds_arrfree(ps);
            break;
        }
        }
        if (!c) break;
        c->span = byoc__span_copy(dst, n);
        c->origin = byoc_node_origin(n);
        byoc__map_put(map, n, (intptr_t)c);
    }
    byoc_node *r = dst->has_error ? NULL : byoc__copy_from(map, expr);
    stbds_arrfree(tmp);
    byoc__map_free(&seen);
    stbds_arrfree(order);
    return r;
}

BYOC_API byoc_node *byoc_deep_copy(byoc_module *dst, const byoc_node *expr) {
    if (!dst) return NULL;
    if (!expr || dst->has_error) return NULL;
    byoc__map map = BYOC__MAP_EMPTY;
    byoc_node *r = byoc__copy_into(dst, expr, &map);
    byoc__map_free(&map);
    return r;
}

BYOC__PRIVATE byoc_module *byoc__module_clone_in(const byoc_module *m, const byoc_allocator *allocator,
                                                 int borrow_constants) {
    byoc_module *dst = byoc_module_create(allocator ? allocator : &m->alloc);
    if (!dst) return NULL;
    dst->borrow_constants = borrow_constants;
    byoc__map map = BYOC__MAP_EMPTY; /* shared: nodes shared between functions stay shared */
    for (int i = 0; i < byoc_module_function_count(m); ++i) {
        byoc_node *fn = byoc__copy_into(dst, m->functions[i].function, &map);
        if (!fn || byoc_module_add_function(dst, m->functions[i].name, fn) != BYOC_OK) {
            byoc__map_free(&map);
            byoc_module_destroy(dst);
            return NULL;
        }
    }
    byoc__map_free(&map);
    return dst;
}

BYOC_API byoc_module *byoc_module_clone(const byoc_module *m, const byoc_allocator *allocator) {
    if (!m) return NULL;
    return byoc__module_clone_in(m, allocator, 0);
}
/* a copy that borrows m's constant payloads: it must die before m does, and nobody may write them */
BYOC__PRIVATE byoc_module *byoc__module_clone_borrowing(const byoc_module *m) {
    return byoc__module_clone_in(m, NULL, 1);
}

// [SECTION] impl: host kernels: vector loops and GEMM
/* The one set of CPU kernels: FoldConstant, byoc_module_evaluate and the byoc_sim.h runtime all run
   ops through byoc_kernel_run. In this section: SIMD helpers, byoc_sgemm, shared helpers (attributes,
   strided copies, broadcasting), the kernels by family, then the op table and byoc_kernel_run.
   Kernels read shapes and dtypes from their tensors and attributes from the call; float16/bfloat16
   tensors of float kernels are widened to float32 in the workspace and narrowed back. */

/* GNU vector extensions give portable SIMD (SSE2 on any x86-64, NEON on arm64) without intrinsics;
   other compilers, or BYOC_NO_SIMD, get the plain loops that follow every vector loop. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(BYOC_NO_SIMD)
#define BYOC__SIMD 1
typedef float byoc__f4 __attribute__((vector_size(16)));
typedef int32_t byoc__i4 __attribute__((vector_size(16)));
#define BYOC__LD(v, p) memcpy(&(v), (p), sizeof(v)) /* unaligned vector load / store */
#define BYOC__ST(p, v) memcpy((p), &(v), sizeof(v))
/* lanes of a where mask (a vector comparison) is set, else lanes of b */
#define BYOC__SEL(mask, a, b) ((byoc__f4)((((byoc__i4)(a)) & (mask)) | (((byoc__i4)(b)) & ~(mask))))
#else
#define BYOC__SIMD 0
#endif
/* x86-64: the GEMM micro-kernel is compiled again for AVX2+FMA and for AVX-512 and chosen at run
   time, so the default -O2 build (no -march) still runs at the machine's speed */
#if BYOC__SIMD && defined(__x86_64__)
#define BYOC__X86_DISPATCH 1
typedef float byoc__f8 __attribute__((vector_size(32)));
typedef float byoc__f16v __attribute__((vector_size(64)));
#else
#define BYOC__X86_DISPATCH 0
#endif
/* gcc contracts a * b + c into an FMA only when asked (ISO modes turn it off); clang does by default */
#if defined(__GNUC__) && !defined(__clang__)
#define BYOC__FP_CONTRACT __attribute__((optimize("fp-contract=fast")))
#else
#define BYOC__FP_CONTRACT
#endif

#if defined(__GNUC__) || defined(__clang__)
#define BYOC__ALWAYS_INLINE static inline __attribute__((always_inline, unused))
#else
#define BYOC__ALWAYS_INLINE static
#endif
#if BYOC__X86_DISPATCH
/* asked each call (one load and test): a cached answer would be global state shared by threads */
BYOC__PRIVATE int byoc__has_avx2_fma(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#endif

#define BYOC__MIN(a, b) ((a) < (b) ? (a) : (b))
#define BYOC__MAX(a, b) ((a) > (b) ? (a) : (b))

/* 64-byte aligned start of a caller's buffer (workspace sizes include the slack) */
BYOC__PRIVATE unsigned char *byoc__align64(void *p) {
    uintptr_t u = (uintptr_t)p;
    return (unsigned char *)p + ((64 - (u & 63)) & 63);
}

/* ---- float32 vector loops shared by several kernels ---- */
BYOC__PRIVATE float byoc__dot_f32(const float *x, const float *y, int64_t n) {
    int64_t i = 0;
    float s = 0;
#if BYOC__SIMD
    byoc__f4 s0 = {0, 0, 0, 0}, s1 = s0, s2 = s0, s3 = s0;
    for (; i + 16 <= n; i += 16) {
        byoc__f4 a0, a1, a2, a3, b0, b1, b2, b3;
        BYOC__LD(a0, x + i); BYOC__LD(a1, x + i + 4); BYOC__LD(a2, x + i + 8); BYOC__LD(a3, x + i + 12);
        BYOC__LD(b0, y + i); BYOC__LD(b1, y + i + 4); BYOC__LD(b2, y + i + 8); BYOC__LD(b3, y + i + 12);
        s0 += a0 * b0; s1 += a1 * b1; s2 += a2 * b2; s3 += a3 * b3;
    }
    for (; i + 4 <= n; i += 4) {
        byoc__f4 a0, b0;
        BYOC__LD(a0, x + i); BYOC__LD(b0, y + i);
        s0 += a0 * b0;
    }
    s0 = (s0 + s1) + (s2 + s3);
    s = (s0[0] + s0[1]) + (s0[2] + s0[3]);
#endif
    for (; i < n; ++i) s += x[i] * y[i];
    return s;
}

BYOC__PRIVATE float byoc__dot_strided_f32(const float *x, int64_t incx, const float *y, int64_t incy, int64_t n) {
    if (incx == 1 && incy == 1) return byoc__dot_f32(x, y, n);
    float s = 0;
    for (int64_t i = 0; i < n; ++i) s += x[i * incx] * y[i * incy];
    return s;
}

/* y += a * x */
BYOC__PRIVATE void byoc__axpy_f32(int64_t n, float a, const float *x, float *y) {
    int64_t i = 0;
#if BYOC__SIMD
    byoc__f4 av = {a, a, a, a};
    for (; i + 8 <= n; i += 8) {
        byoc__f4 x0, x1, y0, y1;
        BYOC__LD(x0, x + i); BYOC__LD(x1, x + i + 4); BYOC__LD(y0, y + i); BYOC__LD(y1, y + i + 4);
        y0 += av * x0; y1 += av * x1;
        BYOC__ST(y + i, y0); BYOC__ST(y + i + 4, y1);
    }
#endif
    for (; i < n; ++i) y[i] += a * x[i];
}

/* y = a * x + b */
BYOC__PRIVATE void byoc__affine_f32(int64_t n, const float *x, float a, float b, float *y) {
    int64_t i = 0;
#if BYOC__SIMD
    byoc__f4 av = {a, a, a, a}, bv = {b, b, b, b};
    for (; i + 8 <= n; i += 8) {
        byoc__f4 x0, x1;
        BYOC__LD(x0, x + i); BYOC__LD(x1, x + i + 4);
        x0 = x0 * av + bv; x1 = x1 * av + bv;
        BYOC__ST(y + i, x0); BYOC__ST(y + i + 4, x1);
    }
#endif
    for (; i < n; ++i) y[i] = x[i] * a + b;
}

/* ---- float32 exp, tanh and erf on vectors (1-3 ulp): the activations and softmax spend their time
   here, and a libm call per element is ten times slower ---- */
#if BYOC__SIMD
#define BYOC__SPLAT(v) {(v), (v), (v), (v)}
/* inlined, so that the long dependency chains of neighbouring vectors interleave */
#define BYOC__VINLINE BYOC__ALWAYS_INLINE
/* e^x: x = n ln2 + r with |r| <= ln2 / 2, e^r by a minimax polynomial (Cephes' expf), 2^n built in
   the exponent bits; below -87.3 (where results go subnormal) it is 0, above 88.37 infinity */
BYOC__VINLINE byoc__f4 byoc__exp4(byoc__f4 x) {
    const byoc__f4 hi = BYOC__SPLAT(88.3762626647949f), lo = BYOC__SPLAT(-87.3365478515625f),
                   log2e = BYOC__SPLAT(1.44269504088896341f), round = BYOC__SPLAT(12582912.0f),
                   c1 = BYOC__SPLAT(0.693359375f), c2 = BYOC__SPLAT(-2.12194440e-4f), one = BYOC__SPLAT(1.0f),
                   zero = BYOC__SPLAT(0.0f), inf = BYOC__SPLAT(INFINITY);
    byoc__f4 xc = BYOC__SEL(x > lo, x, lo);
    xc = BYOC__SEL(xc < hi, xc, hi);
    byoc__f4 n = (xc * log2e + round) - round; /* round to nearest, in float arithmetic */
    byoc__f4 r = xc - n * c1 - n * c2, z = r * r;
    byoc__f4 p = ((((1.9875691500E-4f * r + 1.3981999507E-3f) * r + 8.3334519073E-3f) * r + 4.1665795894E-2f) * r +
                  1.6666665459E-1f) *
                     r +
                 5.0000001201E-1f;
    p = p * z + r + one;
    byoc__i4 e = (__builtin_convertvector(n, byoc__i4) + 127) << 23;
    byoc__f4 y = p * (byoc__f4)e;
    y = BYOC__SEL(x > hi, inf, y);
    y = BYOC__SEL(x < lo, zero, y);
    return BYOC__SEL(x == x, y, x); /* NaN stays NaN */
}
/* |x| < 0.625: Cephes' tanhf polynomial; else 1 - 2 / (e^2|x| + 1), with x's sign */
BYOC__VINLINE byoc__f4 byoc__tanh4(byoc__f4 x) {
    const byoc__i4 sign = BYOC__SPLAT(INT32_MIN);
    const byoc__f4 one = BYOC__SPLAT(1.0f), two = BYOC__SPLAT(2.0f), edge = BYOC__SPLAT(0.625f);
    byoc__f4 ax = (byoc__f4)((byoc__i4)x & ~sign), z = x * x;
    byoc__f4 small =
        ((((-5.70498872745E-3f * z + 2.06390887954E-2f) * z - 5.37397155531E-2f) * z + 1.33314422036E-1f) * z -
         3.33332819422E-1f) *
            z * x +
        x;
    byoc__f4 large = one - two / (byoc__exp4(two * ax) + one);
    large = (byoc__f4)((byoc__i4)large | ((byoc__i4)x & sign));
    return BYOC__SEL(ax < edge, small, large);
}
/* |x| < 0.5: the Taylor series; else Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7) */
BYOC__VINLINE byoc__f4 byoc__erf4(byoc__f4 x) {
    const byoc__i4 sign = BYOC__SPLAT(INT32_MIN);
    const byoc__f4 one = BYOC__SPLAT(1.0f), half = BYOC__SPLAT(0.5f);
    byoc__f4 ax = (byoc__f4)((byoc__i4)x & ~sign), z = x * x;
    byoc__f4 small =
        x * (1.1283791670955126f +
             z * (-0.37612638903183754f +
                  z * (0.11283791670955126f +
                       z * (-0.026866170645131252f + z * (0.005223977625442188f + z * -0.0008548327023450852f)))));
    byoc__f4 t = one / (one + 0.3275911f * ax);
    byoc__f4 poly =
        ((((1.061405429f * t - 1.453152027f) * t + 1.421413741f) * t - 0.284496736f) * t + 0.254829592f) * t;
    byoc__f4 large = one - poly * byoc__exp4(-z);
    large = (byoc__f4)((byoc__i4)large | ((byoc__i4)x & sign));
    return BYOC__SEL(ax < half, small, large);
}
#endif

/* ---- sgemm: BLIS-style blocking. C is walked in NC-column blocks; for each KC-deep slice a KC x NC
   block of op(B) is packed into NR-column micro-panels, and for each MC-row block of op(A) an MC x KC
   block into MR-row micro-panels; the micro-kernel multiplies one MR x KC panel by one KC x NR panel
   into an MR x NR tile of C held in registers. ---- */
#define BYOC__GEMM_MR 6
#define BYOC__GEMM_MC 96   /* a multiple of MR; MC x KC floats of A stay in L2 */
#define BYOC__GEMM_KC 384  /* a KC x NR panel of B stays in L1 */
#define BYOC__GEMM_NC 2048 /* a multiple of every NR; KC x NC floats of B stay in L3 */
#define BYOC__GEMM_NR_MAX 32

/* rows [0, mc) x columns [0, kc) of op(A), element (i, k) at a[i * rs + k * cs], into MR-row
   micro-panels (for each k, MR values; zero past mc) */
BYOC__PRIVATE void byoc__pack_a(int64_t mc, int64_t kc, const float *a, int64_t rs, int64_t cs, float *dst) {
    for (int64_t i0 = 0; i0 < mc; i0 += BYOC__GEMM_MR) {
        int64_t rows = BYOC__MIN(mc - i0, BYOC__GEMM_MR);
        const float *src = a + i0 * rs;
        if (rows == BYOC__GEMM_MR && cs == 1) {
            const float *r0 = src, *r1 = src + rs, *r2 = src + 2 * rs, *r3 = src + 3 * rs, *r4 = src + 4 * rs,
                        *r5 = src + 5 * rs;
            for (int64_t k = 0; k < kc; ++k, dst += BYOC__GEMM_MR) {
                dst[0] = r0[k]; dst[1] = r1[k]; dst[2] = r2[k]; dst[3] = r3[k]; dst[4] = r4[k]; dst[5] = r5[k];
            }
        } else if (rows == BYOC__GEMM_MR && rs == 1) {
            for (int64_t k = 0; k < kc; ++k, dst += BYOC__GEMM_MR)
                memcpy(dst, src + k * cs, BYOC__GEMM_MR * sizeof(float));
        } else {
            for (int64_t k = 0; k < kc; ++k, dst += BYOC__GEMM_MR) {
                int64_t i = 0;
                for (; i < rows; ++i) dst[i] = src[i * rs + k * cs];
                for (; i < BYOC__GEMM_MR; ++i) dst[i] = 0;
            }
        }
    }
}

/* rows [0, kc) x columns [0, nc) of op(B), element (k, j) at b[k * rs + j * cs], into nr-column
   micro-panels (zero past nc) */
BYOC__PRIVATE void byoc__pack_b(int64_t kc, int64_t nc, const float *b, int64_t rs, int64_t cs, int nr, float *dst) {
    for (int64_t j0 = 0; j0 < nc; j0 += nr) {
        int64_t cols = BYOC__MIN(nc - j0, (int64_t)nr);
        const float *src = b + j0 * cs;
        if (cols == nr && cs == 1) {
            for (int64_t k = 0; k < kc; ++k, dst += nr) memcpy(dst, src + k * rs, (size_t)nr * sizeof(float));
        } else if (rs == 1) { /* op(B) = B^T: each column is contiguous in k */
            for (int64_t j = 0; j < cols; ++j) {
                const float *col = src + j * cs;
                for (int64_t k = 0; k < kc; ++k) dst[k * nr + j] = col[k];
            }
            for (int64_t j = cols; j < nr; ++j)
                for (int64_t k = 0; k < kc; ++k) dst[k * nr + j] = 0;
            dst += kc * nr;
        } else {
            for (int64_t k = 0; k < kc; ++k, dst += nr) {
                int64_t j = 0;
                for (; j < cols; ++j) dst[j] = src[k * rs + j * cs];
                for (; j < nr; ++j) dst[j] = 0;
            }
        }
    }
}

/* an edge tile: c = alpha * acc + beta * c over m x n (beta 0: c is not read, as in BLAS) */
BYOC__PRIVATE void byoc__tile_store(const float *acc, int nr, float *c, int64_t ldc, float alpha, float beta, int m,
                                    int n) {
    for (int i = 0; i < m; ++i) {
        float *ci = c + i * ldc;
        const float *ai = acc + i * nr;
        if (beta == 0)
            for (int j = 0; j < n; ++j) ci[j] = alpha * ai[j];
        else
            for (int j = 0; j < n; ++j) ci[j] = alpha * ai[j] + beta * ci[j];
    }
}

/* The micro-kernel: a 6 x (2 VL) tile of C in twelve vector accumulators, for a vector type V of VL
   floats; one definition, compiled once per instruction set. */
#define BYOC__UKR_ROW_DECL(r) V c##r##0 = zero, c##r##1 = zero;
#define BYOC__UKR_ROW_FMA(r) \
    {                        \
        float ar = a[r];     \
        c##r##0 += ar * b0;  \
        c##r##1 += ar * b1;  \
    }
#define BYOC__UKR_ROW_OUT(r)                                 \
    if (full) {                                              \
        float *cr = c + r * ldc;                             \
        V o0, o1;                                            \
        if (beta == 0) {                                     \
            o0 = alpha * c##r##0;                            \
            o1 = alpha * c##r##1;                            \
        } else {                                             \
            memcpy(&o0, cr, sizeof o0);                      \
            memcpy(&o1, cr + VL, sizeof o1);                 \
            o0 = alpha * c##r##0 + beta * o0;                \
            o1 = alpha * c##r##1 + beta * o1;                \
        }                                                    \
        memcpy(cr, &o0, sizeof o0);                          \
        memcpy(cr + VL, &o1, sizeof o1);                     \
    } else {                                                 \
        memcpy(tile + r * 2 * VL, &c##r##0, sizeof(V));      \
        memcpy(tile + r * 2 * VL + VL, &c##r##1, sizeof(V)); \
    }
#define BYOC__DEFINE_UKR(name, attrs, VT, VLEN)                                                                        \
    attrs static void name(int64_t kc, const float *a, const float *b, float *c, int64_t ldc, float alpha, float beta, \
                           int m, int n) {                                                                             \
        typedef VT V;                                                                                                  \
        enum {                                                                                                         \
            VL = VLEN                                                                                                  \
        };                                                                                                             \
        V zero;                                                                                                        \
        memset(&zero, 0, sizeof zero);                                                                                 \
        BYOC__UKR_ROW_DECL(0)                                                                                          \
        BYOC__UKR_ROW_DECL(1) BYOC__UKR_ROW_DECL(2) BYOC__UKR_ROW_DECL(3) BYOC__UKR_ROW_DECL(4)                        \
            BYOC__UKR_ROW_DECL(5) for (int64_t k = 0; k < kc; ++k, a += BYOC__GEMM_MR, b += 2 * VL) {                  \
            V b0, b1;                                                                                                  \
            memcpy(&b0, b, sizeof b0);                                                                                 \
            memcpy(&b1, b + VL, sizeof b1);                                                                            \
            BYOC__UKR_ROW_FMA(0)                                                                                       \
            BYOC__UKR_ROW_FMA(1) BYOC__UKR_ROW_FMA(2) BYOC__UKR_ROW_FMA(3) BYOC__UKR_ROW_FMA(4) BYOC__UKR_ROW_FMA(5)   \
        }                                                                                                              \
        int full = m == BYOC__GEMM_MR && n == 2 * VL;                                                                  \
        float tile[BYOC__GEMM_MR * 2 * VL];                                                                            \
        BYOC__UKR_ROW_OUT(0)                                                                                           \
        BYOC__UKR_ROW_OUT(1) BYOC__UKR_ROW_OUT(2) BYOC__UKR_ROW_OUT(3) BYOC__UKR_ROW_OUT(4)                            \
            BYOC__UKR_ROW_OUT(5) if (!full) byoc__tile_store(tile, 2 * VL, c, ldc, alpha, beta, m, n);                 \
    }

typedef void (*byoc__ukr_fn)(int64_t kc, const float *a, const float *b, float *c, int64_t ldc, float alpha, float beta,
                             int m, int n);

#if BYOC__SIMD
BYOC__DEFINE_UKR(byoc__ukr_vec4, BYOC__FP_CONTRACT, byoc__f4, 4)
#else
/* plain C: the same 6 x 8 tile in scalars the compiler keeps in registers as it can */
static void byoc__ukr_vec4(int64_t kc, const float *a, const float *b, float *c, int64_t ldc, float alpha, float beta,
                           int m, int n) {
    float acc[BYOC__GEMM_MR * 8];
    memset(acc, 0, sizeof acc);
    for (int64_t k = 0; k < kc; ++k, a += BYOC__GEMM_MR, b += 8)
        for (int i = 0; i < BYOC__GEMM_MR; ++i)
            for (int j = 0; j < 8; ++j) acc[i * 8 + j] += a[i] * b[j];
    byoc__tile_store(acc, 8, c, ldc, alpha, beta, m, n);
}
#endif
#if BYOC__X86_DISPATCH
BYOC__DEFINE_UKR(byoc__ukr_avx2, __attribute__((target("avx2,fma"))) BYOC__FP_CONTRACT, byoc__f8, 8)
BYOC__DEFINE_UKR(byoc__ukr_avx512, __attribute__((target("avx512f"))) BYOC__FP_CONTRACT, byoc__f16v, 16)
#endif

/* the widest micro-kernel this CPU runs, and its NR (asked each call: a cached answer would be
   global state shared between threads) */
BYOC__PRIVATE byoc__ukr_fn byoc__gemm_kernel(int *nr) {
#if BYOC__X86_DISPATCH
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) { *nr = 32; return byoc__ukr_avx512; }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) { *nr = 16; return byoc__ukr_avx2; }
#endif
    *nr = 8;
    return byoc__ukr_vec4;
}

BYOC_API size_t byoc_sgemm_workspace_size(void) {
    return (size_t)(BYOC__GEMM_MC * BYOC__GEMM_KC + BYOC__GEMM_KC * BYOC__GEMM_NC) * sizeof(float) + 64;
}

/* rows one at a time, as dot products or row updates: for a one-row or one-column product, where
   packing costs more than it saves, and when scratch memory cannot be had */
BYOC__PRIVATE void byoc__sgemm_rows(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t a_rs,
                                    int64_t a_cs, const float *B, int64_t b_rs, int64_t b_cs, float beta, float *C,
                                    int64_t ldc) {
    for (int64_t i = 0; i < M; ++i) {
        float *ci = C + i * ldc;
        const float *ai = A + i * a_rs;
        if (b_cs == 1) { /* rows of op(B) are contiguous: C row = sum_k A(i, k) * B row k */
            if (beta == 0) memset(ci, 0, (size_t)N * sizeof(float));
            else if (beta != 1) for (int64_t j = 0; j < N; ++j) ci[j] *= beta;
            for (int64_t k = 0; k < K; ++k) byoc__axpy_f32(N, alpha * ai[k * a_cs], B + k * b_rs, ci);
        } else {
            for (int64_t j = 0; j < N; ++j) {
                float dot = alpha * byoc__dot_strided_f32(ai, a_cs, B + j * b_cs, b_rs, K);
                ci[j] = beta == 0 ? dot : dot + beta * ci[j];
            }
        }
    }
}

/* the blocked product with a given micro-kernel (ws: byoc_sgemm_workspace_size() bytes, aligned) */
BYOC__PRIVATE void byoc__sgemm_blocked(byoc__ukr_fn ukr, int nr, int64_t M, int64_t N, int64_t K, float alpha,
                                       const float *A, int64_t a_rs, int64_t a_cs, const float *B, int64_t b_rs,
                                       int64_t b_cs, float beta, float *C, int64_t ldc, float *ws) {
    float *ap = ws, *bp = ap + BYOC__GEMM_MC * BYOC__GEMM_KC;
    for (int64_t jc = 0; jc < N; jc += BYOC__GEMM_NC) {
        int64_t nc = BYOC__MIN(N - jc, BYOC__GEMM_NC);
        for (int64_t pc = 0; pc < K; pc += BYOC__GEMM_KC) {
            int64_t kc = BYOC__MIN(K - pc, BYOC__GEMM_KC);
            byoc__pack_b(kc, nc, B + pc * b_rs + jc * b_cs, b_rs, b_cs, nr, bp);
            float beta_now = pc == 0 ? beta : 1.0f; /* later slices accumulate */
            for (int64_t ic = 0; ic < M; ic += BYOC__GEMM_MC) {
                int64_t mc = BYOC__MIN(M - ic, BYOC__GEMM_MC);
                byoc__pack_a(mc, kc, A + ic * a_rs + pc * a_cs, a_rs, a_cs, ap);
                for (int64_t jr = 0; jr < nc; jr += nr)
                    for (int64_t ir = 0; ir < mc; ir += BYOC__GEMM_MR)
                        ukr(kc, ap + ir * kc, bp + jr * kc, C + (ic + ir) * ldc + jc + jr, ldc, alpha, beta_now,
                            (int)BYOC__MIN(mc - ir, BYOC__GEMM_MR), (int)BYOC__MIN(nc - jr, (int64_t)nr));
            }
        }
    }
}

/* B [K, N] (row-major) packed once for several products with it (a conv's patch matrix against each chunk of
   its weights): the panels byoc__sgemm_blocked packs, block after block in its loop order */
BYOC__PRIVATE size_t byoc__sgemm_packed_b_floats(int64_t N, int64_t K, int nr) {
    size_t total = 0;
    for (int64_t jc = 0; jc < N; jc += BYOC__GEMM_NC) {
        int64_t nc = BYOC__MIN(N - jc, BYOC__GEMM_NC);
        total += (size_t)K * (size_t)((nc + nr - 1) / nr * nr);
    }
    return total;
}
BYOC__PRIVATE void byoc__sgemm_pack_b_all(int nr, int64_t N, int64_t K, const float *B, int64_t ldb, float *packed) {
    for (int64_t jc = 0; jc < N; jc += BYOC__GEMM_NC) {
        int64_t nc = BYOC__MIN(N - jc, BYOC__GEMM_NC), ncr = (nc + nr - 1) / nr * nr;
        for (int64_t pc = 0; pc < K; pc += BYOC__GEMM_KC) {
            int64_t kc = BYOC__MIN(K - pc, BYOC__GEMM_KC);
            byoc__pack_b(kc, nc, B + pc * ldb + jc, ldb, 1, nr, packed);
            packed += kc * ncr;
        }
    }
}
/* C [M, N] = A [M, K] * B with B packed by byoc__sgemm_pack_b_all for the same nr
   (ws: byoc_sgemm_workspace_size() bytes, aligned) */
BYOC__PRIVATE void byoc__sgemm_packed_b(byoc__ukr_fn ukr, int nr, int64_t M, int64_t N, int64_t K, const float *A,
                                        int64_t lda, const float *packed, float *C, int64_t ldc, float *ws) {
    for (int64_t jc = 0; jc < N; jc += BYOC__GEMM_NC) {
        int64_t nc = BYOC__MIN(N - jc, BYOC__GEMM_NC), ncr = (nc + nr - 1) / nr * nr;
        for (int64_t pc = 0; pc < K; pc += BYOC__GEMM_KC) {
            int64_t kc = BYOC__MIN(K - pc, BYOC__GEMM_KC);
            for (int64_t ic = 0; ic < M; ic += BYOC__GEMM_MC) {
                int64_t mc = BYOC__MIN(M - ic, BYOC__GEMM_MC);
                byoc__pack_a(mc, kc, A + ic * lda + pc, lda, 1, ws);
                for (int64_t jr = 0; jr < nc; jr += nr)
                    for (int64_t ir = 0; ir < mc; ir += BYOC__GEMM_MR)
                        ukr(kc, ws + ir * kc, packed + jr * kc, C + (ic + ir) * ldc + jc + jr, ldc, 1.0f,
                            pc == 0 ? 0.0f : 1.0f, (int)BYOC__MIN(mc - ir, BYOC__GEMM_MR),
                            (int)BYOC__MIN(nc - jr, (int64_t)nr));
            }
            packed += kc * ncr;
        }
    }
}

BYOC_API void byoc_sgemm(int trans_a, int trans_b, int64_t M, int64_t N, int64_t K, float alpha, const float *A,
                         int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc, void *workspace) {
    if (M <= 0 || N <= 0) return;
    int64_t a_rs = trans_a ? 1 : lda, a_cs = trans_a ? lda : 1, b_rs = trans_b ? 1 : ldb, b_cs = trans_b ? ldb : 1;
    if (K <= 0 || alpha == 0) { /* C = beta * C */
        for (int64_t i = 0; i < M; ++i)
            for (int64_t j = 0; j < N; ++j) C[i * ldc + j] = beta == 0 ? 0.0f : beta * C[i * ldc + j];
        return;
    }
    void *owned = NULL;
    if (M == 1 || N == 1 || (!workspace && !(owned = BYOC_MALLOC(byoc_sgemm_workspace_size())))) {
        byoc__sgemm_rows(M, N, K, alpha, A, a_rs, a_cs, B, b_rs, b_cs, beta, C, ldc);
        return;
    }
    int nr;
    byoc__ukr_fn ukr = byoc__gemm_kernel(&nr);
    byoc__sgemm_blocked(ukr, nr, M, N, K, alpha, A, a_rs, a_cs, B, b_rs, b_cs, beta, C, ldc,
                        (float *)byoc__align64(workspace ? workspace : owned));
    BYOC_FREE(owned);
}

// [SECTION] impl: host kernels: elementwise, normalisation, pooling, reductions
/* ---- the kernel context and shared helpers ---- */
typedef struct byoc__kctx {
    const byoc_node *call;
    const char *name;      /* the op's name, for messages */
    int code;              /* which op of a kernel's family (BYOC__K_*) */
    const byoc_tensor *in; /* arguments, a tuple argument flattened */
    int nin;
    byoc_tensor *out;      /* results, a tuple result flattened */
    int nout;
    unsigned char *ws;     /* 64-byte aligned scratch: the kernel's workspace_size bytes */
    byoc_diag *diag;
} byoc__kctx;

BYOC__PRIVATE byoc_result byoc__kfail_dtype(byoc__kctx *k, byoc_dtype dt) {
    return byoc__diag(k->diag, BYOC_ERR_UNSUPPORTED, 0, 0, k->call->id, "%s: no host kernel for %s", k->name,
                      byoc_dtype_name(dt));
}
BYOC__PRIVATE BYOC__PRINTF(2, 3) byoc_result byoc__kfail(byoc__kctx *k, const char *fmt, ...) {
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return byoc__diag(k->diag, BYOC_ERR_UNSUPPORTED, 0, 0, k->call->id, "%s: %s", k->name, why);
}

/* an attribute of the call, or the op's default */
BYOC__PRIVATE const byoc_attr_value *byoc__kattr(const byoc__kctx *k, const char *name) {
    const byoc_attr_value *v = byoc_attrs_get(&k->call->attrs, name);
    return v ? v : byoc_attrs_get(&k->call->op->defaults, name);
}
BYOC__PRIVATE int64_t byoc__kint(const byoc__kctx *k, const char *name, int64_t fallback) {
    const byoc_attr_value *v = byoc__kattr(k, name);
    return v && (v->kind == BYOC_ATTR_INT || v->kind == BYOC_ATTR_BOOL) ? v->i : fallback;
}
BYOC__PRIVATE double byoc__kfloat(const byoc__kctx *k, const char *name, double fallback) {
    const byoc_attr_value *v = byoc__kattr(k, name);
    return !v ? fallback : v->kind == BYOC_ATTR_FLOAT ? v->f : v->kind == BYOC_ATTR_INT ? (double)v->i : fallback;
}
BYOC__PRIVATE const char *byoc__kstr(const byoc__kctx *k, const char *name, const char *fallback) {
    const byoc_attr_value *v = byoc__kattr(k, name);
    return v && v->kind == BYOC_ATTR_STRING ? v->s : fallback;
}
/* an int-list attribute spread to n values: [v] for all, [a, b] as pairs (padding: [top, left] for
   [top, left, bottom, right]) */
BYOC__PRIVATE void byoc__kints(const byoc__kctx *k, const char *name, int64_t *out, int n, int64_t fallback) {
    const byoc_attr_value *v = byoc__kattr(k, name);
    for (int i = 0; i < n; ++i) out[i] = fallback;
    if (!v || v->kind != BYOC_ATTR_INT_LIST || !v->count) return;
    for (int i = 0; i < n; ++i) out[i] = v->count >= n ? v->ints[i] : v->ints[i % v->count];
}
/* axis attribute normalised to [0, rank) (the type relation checked its range) */
BYOC__PRIVATE int byoc__kaxis(const byoc__kctx *k, const char *name, int64_t fallback, int rank) {
    int64_t a = byoc__kint(k, name, fallback);
    if (a < 0) a += rank;
    return a < 0 ? 0 : a >= rank ? (rank > 0 ? rank - 1 : 0) : (int)a;
}

BYOC__PRIVATE int64_t byoc__numel(const byoc_tensor *t) {
    int64_t n = 1;
    for (int i = 0; i < t->rank; ++i) n *= t->dims[i];
    return n;
}
BYOC__PRIVATE size_t byoc__nbytes(const byoc_tensor *t) { return (size_t)byoc__numel(t) * byoc_dtype_size(t->dtype); }
/* product of dims [from, to) */
BYOC__PRIVATE int64_t byoc__dims_prod(const int64_t *dims, int from, int to) {
    int64_t n = 1;
    for (int i = from; i < to; ++i) n *= dims[i];
    return n;
}
BYOC__PRIVATE void byoc__strides_of(int rank, const int64_t *dims, int64_t *strides) {
    int64_t s = 1;
    for (int i = rank - 1; i >= 0; --i) { strides[i] = s; s *= dims[i]; }
}
BYOC__PRIVATE int byoc__is_int_dtype(byoc_dtype dt) {
    return dt != BYOC_BOOL && !byoc_dtype_is_float(dt) && byoc_dtype_size(dt) > 0;
}

/* Copies dims[rank] elements of esize bytes: element idx goes from src + sum(idx * src_strides) to
   dst + sum(idx * dst_strides) (strides in elements, any sign, 0 repeats). Unit axes are dropped and
   axes both sides walk contiguously are merged, so the innermost loop is as long as it can be; when
   both sides are contiguous there it is one memcpy. */
BYOC__PRIVATE void byoc__copy_strided(int rank, const int64_t *dims_in, char *dst, const int64_t *dst_strides_in,
                                      const char *src, const int64_t *src_strides_in, size_t esize) {
    int64_t dims[BYOC_MAX_RANK + 1], ds[BYOC_MAX_RANK + 1], ss[BYOC_MAX_RANK + 1];
    int r = 0;
    for (int i = 0; i < rank; ++i) {
        if (dims_in[i] == 0) return;
        if (dims_in[i] == 1) continue;
        if (r > 0 && ds[r - 1] == dst_strides_in[i] * dims_in[i] && ss[r - 1] == src_strides_in[i] * dims_in[i]) {
            dims[r - 1] *= dims_in[i];
            ds[r - 1] = dst_strides_in[i];
            ss[r - 1] = src_strides_in[i];
            continue;
        }
        dims[r] = dims_in[i];
        ds[r] = dst_strides_in[i];
        ss[r] = src_strides_in[i];
        r++;
    }
    if (r == 0) { dims[0] = 1; ds[0] = ss[0] = 1; r = 1; }
    /* a transpose (the destination runs along one axis, the source along another): the two become
       the innermost pair and are copied in square tiles that stay in cache */
    int pair = -1;
    if (r >= 2 && ds[r - 1] == 1 && ss[r - 1] != 1)
        for (int d = 0; d < r - 1; ++d)
            if (ss[d] == 1) pair = d;
    if (pair >= 0) {
        int64_t t;
        t = dims[pair]; dims[pair] = dims[r - 2]; dims[r - 2] = t;
        t = ds[pair]; ds[pair] = ds[r - 2]; ds[r - 2] = t;
        t = ss[pair]; ss[pair] = ss[r - 2]; ss[r - 2] = t;
    }
    int64_t n = dims[r - 1], dstep = ds[r - 1] * (int64_t)esize, sstep = ss[r - 1] * (int64_t)esize;
    int contiguous = ds[r - 1] == 1 && ss[r - 1] == 1;
    int64_t idx[BYOC_MAX_RANK + 1] = {0};
    if (pair >= 0) {
        int64_t rows = dims[r - 2], drow = ds[r - 2] * (int64_t)esize;
        for (;;) {
            for (int64_t i0 = 0; i0 < rows; i0 += 16)
                for (int64_t j0 = 0; j0 < n; j0 += 16) {
                    int64_t i1 = BYOC__MIN(rows, i0 + 16), j1 = BYOC__MIN(n, j0 + 16);
                    for (int64_t i = i0; i < i1; ++i) {
                        char *drow_p = dst + i * drow;
                        const char *scol = src + i * (int64_t)esize;
                        if (esize == 4)
                            for (int64_t j = j0; j < j1; ++j) memcpy(drow_p + j * 4, scol + j * sstep, 4);
                        else
                            for (int64_t j = j0; j < j1; ++j)
                                memcpy(drow_p + j * (int64_t)esize, scol + j * sstep, esize);
                    }
                }
            int d = r - 3;
            for (; d >= 0; --d) {
                dst += ds[d] * (int64_t)esize;
                src += ss[d] * (int64_t)esize;
                if (++idx[d] < dims[d]) break;
                dst -= ds[d] * dims[d] * (int64_t)esize;
                src -= ss[d] * dims[d] * (int64_t)esize;
                idx[d] = 0;
            }
            if (d < 0) return;
        }
    }
    for (;;) {
        if (contiguous) {
            memcpy(dst, src, (size_t)n * esize);
        } else if (esize == 4) { /* constant sizes let each copy be one move */
            for (int64_t i = 0; i < n; ++i) memcpy(dst + i * dstep, src + i * sstep, 4);
        } else if (esize == 1) {
            for (int64_t i = 0; i < n; ++i) dst[i * dstep] = src[i * sstep];
        } else if (esize == 2) {
            for (int64_t i = 0; i < n; ++i) memcpy(dst + i * dstep, src + i * sstep, 2);
        } else if (esize == 8) {
            for (int64_t i = 0; i < n; ++i) memcpy(dst + i * dstep, src + i * sstep, 8);
        } else {
            for (int64_t i = 0; i < n; ++i) memcpy(dst + i * dstep, src + i * sstep, esize);
        }
        int d = r - 2;
        for (; d >= 0; --d) {
            dst += ds[d] * (int64_t)esize;
            src += ss[d] * (int64_t)esize;
            if (++idx[d] < dims[d]) break;
            dst -= ds[d] * dims[d] * (int64_t)esize;
            src -= ss[d] * dims[d] * (int64_t)esize;
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

/* Broadcasting: the output's shape with, per operand (0 is the output), an element stride per axis
   (0 along a broadcast axis). Unit axes are dropped and neighbours merged when every operand allows,
   so NCHW + (C, 1, 1) becomes a loop over C of runs of H*W against one value. */
#define BYOC__BCAST_MAX_OPS 4
typedef struct byoc__bcast {
    int rank, nops;
    int64_t dims[BYOC_MAX_RANK];
    int64_t strides[BYOC__BCAST_MAX_OPS][BYOC_MAX_RANK];
} byoc__bcast;

BYOC__PRIVATE void byoc__bcast_init(byoc__bcast *bc, const byoc_tensor *const *ops, int nops) {
    const byoc_tensor *out = ops[0];
    int64_t st[BYOC__BCAST_MAX_OPS][BYOC_MAX_RANK];
    for (int o = 0; o < nops; ++o) {
        int64_t own[BYOC_MAX_RANK];
        byoc__strides_of(ops[o]->rank, ops[o]->dims, own);
        for (int d = 0; d < out->rank; ++d) {
            int od = d - (out->rank - ops[o]->rank);
            st[o][d] = od < 0 || ops[o]->dims[od] == 1 ? 0 : own[od];
        }
    }
    bc->nops = nops;
    bc->rank = 0;
    for (int d = 0; d < out->rank; ++d) {
        if (out->dims[d] == 1) continue;
        int r = bc->rank, merge = r > 0;
        for (int o = 0; merge && o < nops; ++o) merge = bc->strides[o][r - 1] == st[o][d] * out->dims[d];
        if (merge) {
            bc->dims[r - 1] *= out->dims[d];
            for (int o = 0; o < nops; ++o) bc->strides[o][r - 1] = st[o][d];
            continue;
        }
        bc->dims[r] = out->dims[d];
        for (int o = 0; o < nops; ++o) bc->strides[o][r] = st[o][d];
        bc->rank++;
    }
    if (bc->rank == 0) {
        bc->rank = 1;
        bc->dims[0] = 1;
        for (int o = 0; o < nops; ++o) bc->strides[o][0] = 1;
    }
}

/* calls fn for every innermost run: operand pointers at its start, each operand's element stride
   along it (0 or 1 after merging, except where an operand is strided), and its length */
typedef void (*byoc__bcast_fn)(void *user, char *const *ptr, const int64_t *stride, int64_t n);
BYOC__PRIVATE void byoc__bcast_walk(const byoc__bcast *bc, char *const *base, const size_t *esize, byoc__bcast_fn fn,
                                    void *user) {
    char *p[BYOC__BCAST_MAX_OPS];
    int64_t inner[BYOC__BCAST_MAX_OPS], idx[BYOC_MAX_RANK] = {0};
    int r = bc->rank;
    for (int o = 0; o < bc->nops; ++o) {
        p[o] = base[o];
        inner[o] = bc->strides[o][r - 1];
    }
    for (int d = 0; d < r; ++d)
        if (bc->dims[d] == 0) return;
    for (;;) {
        fn(user, p, inner, bc->dims[r - 1]);
        int d = r - 2;
        for (; d >= 0; --d) {
            for (int o = 0; o < bc->nops; ++o) p[o] += bc->strides[o][d] * (int64_t)esize[o];
            if (++idx[d] < bc->dims[d]) break;
            for (int o = 0; o < bc->nops; ++o) p[o] -= bc->strides[o][d] * bc->dims[d] * (int64_t)esize[o];
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

/* which op of a family a kernel runs */
enum {
    BYOC__K_NONE = 0,
    BYOC__K_ADD, BYOC__K_SUBTRACT, BYOC__K_MULTIPLY, BYOC__K_DIVIDE, BYOC__K_POWER, BYOC__K_MAXIMUM, BYOC__K_MINIMUM,
    BYOC__K_EQUAL, BYOC__K_LESS, BYOC__K_GREATER,
    BYOC__K_RELU,
    BYOC__K_LEAKY_RELU,
    BYOC__K_CLIP,
    BYOC__K_SIGMOID,
    BYOC__K_TANH,
    BYOC__K_EXP,
    BYOC__K_LOG,
    BYOC__K_SQRT,
    BYOC__K_RSQRT,
    BYOC__K_ERF,
    BYOC__K_NEGATIVE,
    BYOC__K_ABS,
    BYOC__K_FLOOR,
    BYOC__K_CEIL,
    BYOC__K_HARD_SIGMOID,
    BYOC__K_HARD_SWISH,
    BYOC__K_GELU,
    BYOC__K_SOFTMAX, BYOC__K_LOG_SOFTMAX,
    BYOC__K_MAX_POOL, BYOC__K_AVG_POOL,
    BYOC__K_SUM, BYOC__K_MEAN, BYOC__K_RMAX, BYOC__K_RMIN,
    BYOC__K_DENSE, BYOC__K_MATMUL, BYOC__K_BATCH_MATMUL
};

/* ---- elementwise binary ops with broadcasting ---- */
/* float32: one loop per operand pattern (both runs, run and scalar, scalar and run), vectorised */
#if BYOC__SIMD
#define BYOC__F32_BINARY_VEC(VEXPR)            \
    if (sa == 1 && sb == 1)                    \
        for (; i + 8 <= n; i += 8) {           \
            byoc__f4 x0, x1, y0, y1;           \
            BYOC__LD(x0, a + i);               \
            BYOC__LD(x1, a + i + 4);           \
            BYOC__LD(y0, b + i);               \
            BYOC__LD(y1, b + i + 4);           \
            {                                  \
                byoc__f4 x = x0, y = y0;       \
                x0 = VEXPR;                    \
            }                                  \
            {                                  \
                byoc__f4 x = x1, y = y1;       \
                x1 = VEXPR;                    \
            }                                  \
            BYOC__ST(o + i, x0);               \
            BYOC__ST(o + i + 4, x1);           \
        }                                      \
    else if (sa == 1 && sb == 0) {             \
        byoc__f4 y = {b[0], b[0], b[0], b[0]}; \
        for (; i + 8 <= n; i += 8) {           \
            byoc__f4 x0, x1;                   \
            BYOC__LD(x0, a + i);               \
            BYOC__LD(x1, a + i + 4);           \
            {                                  \
                byoc__f4 x = x0;               \
                x0 = VEXPR;                    \
            }                                  \
            {                                  \
                byoc__f4 x = x1;               \
                x1 = VEXPR;                    \
            }                                  \
            BYOC__ST(o + i, x0);               \
            BYOC__ST(o + i + 4, x1);           \
        }                                      \
    } else if (sa == 0 && sb == 1) {           \
        byoc__f4 x = {a[0], a[0], a[0], a[0]}; \
        for (; i + 8 <= n; i += 8) {           \
            byoc__f4 y0, y1;                   \
            BYOC__LD(y0, b + i);               \
            BYOC__LD(y1, b + i + 4);           \
            {                                  \
                byoc__f4 y = y0;               \
                y0 = VEXPR;                    \
            }                                  \
            {                                  \
                byoc__f4 y = y1;               \
                y1 = VEXPR;                    \
            }                                  \
            BYOC__ST(o + i, y0);               \
            BYOC__ST(o + i + 4, y1);           \
        }                                      \
    }
#else
#define BYOC__F32_BINARY_VEC(VEXPR)
#endif
#define BYOC__F32_BINARY(VEXPR, SEXPR)          \
    {                                           \
        BYOC__F32_BINARY_VEC(VEXPR)             \
        for (; i < n; ++i) {                    \
            float x = a[i * sa], y = b[i * sb]; \
            o[i] = SEXPR;                       \
        }                                       \
    }

BYOC__PRIVATE void byoc__binary_f32(int code, const float *a, int64_t sa, const float *b, int64_t sb, float *o,
                                    int64_t n) {
    int64_t i = 0;
    switch (code) {
    case BYOC__K_ADD: BYOC__F32_BINARY(x + y, x + y) break;
    case BYOC__K_SUBTRACT: BYOC__F32_BINARY(x - y, x - y) break;
    case BYOC__K_MULTIPLY: BYOC__F32_BINARY(x * y, x * y) break;
    case BYOC__K_DIVIDE: BYOC__F32_BINARY(x / y, x / y) break;
    case BYOC__K_MAXIMUM: BYOC__F32_BINARY(BYOC__SEL(x > y, x, y), x > y ? x : y) break;
    case BYOC__K_MINIMUM: BYOC__F32_BINARY(BYOC__SEL(x < y, x, y), x < y ? x : y) break;
    case BYOC__K_POWER: for (; i < n; ++i) o[i] = powf(a[i * sa], b[i * sb]); break;
    default: break;
    }
}

/* float64: plain loops in double */
BYOC__PRIVATE void byoc__binary_f64(int code, const double *a, int64_t sa, const double *b, int64_t sb, double *o,
                                    int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
        double x = a[i * sa], y = b[i * sb];
        switch (code) {
        case BYOC__K_ADD: o[i] = x + y; break;
        case BYOC__K_SUBTRACT: o[i] = x - y; break;
        case BYOC__K_MULTIPLY: o[i] = x * y; break;
        case BYOC__K_DIVIDE: o[i] = x / y; break;
        case BYOC__K_POWER: o[i] = pow(x, y); break;
        case BYOC__K_MAXIMUM: o[i] = x > y ? x : y; break;
        case BYOC__K_MINIMUM: o[i] = x < y ? x : y; break;
        default: break;
        }
    }
}

/* integers wrap as two's complement (arithmetic in the unsigned type UT, so no signed overflow);
   division truncates as C does, x / 0 is 0 and MIN / -1 wraps to MIN */
/* v < 0, as a call: the same test on an unsigned type inside a macro would warn that it is always false */
BYOC__PRIVATE int byoc__negative(int64_t v) { return v < 0; }
BYOC__PRIVATE uint64_t byoc__upow(uint64_t base, uint64_t e) {
    uint64_t r = 1;
    for (; e; e >>= 1, base *= base)
        if (e & 1) r *= base;
    return r;
}
#define BYOC__INT_BINARY(T, UT, SIGNED)                                                                         \
    static void byoc__binary_##T(int code, const T *a, int64_t sa, const T *b, int64_t sb, T *o, int64_t n) {   \
        int64_t i;                                                                                              \
        switch (code) {                                                                                         \
        case BYOC__K_ADD:                                                                                       \
            for (i = 0; i < n; ++i) o[i] = (T)((UT)a[i * sa] + (UT)b[i * sb]);                                  \
            break;                                                                                              \
        case BYOC__K_SUBTRACT:                                                                                  \
            for (i = 0; i < n; ++i) o[i] = (T)((UT)a[i * sa] - (UT)b[i * sb]);                                  \
            break;                                                                                              \
        case BYOC__K_MULTIPLY:                                                                                  \
            for (i = 0; i < n; ++i) o[i] = (T)((UT)a[i * sa] * (UT)b[i * sb]);                                  \
            break;                                                                                              \
        case BYOC__K_DIVIDE:                                                                                    \
            for (i = 0; i < n; ++i) {                                                                           \
                T x = a[i * sa], y = b[i * sb];                                                                 \
                o[i] = y == 0 ? (T)0 : (SIGNED && y == (T)-1) ? (T)((UT)0 - (UT)x) : (T)(x / y);                \
            }                                                                                                   \
            break;                                                                                              \
        case BYOC__K_POWER:                                                                                     \
            for (i = 0; i < n; ++i) {                                                                           \
                T x = a[i * sa], y = b[i * sb];                                                                 \
                if (SIGNED && byoc__negative((int64_t)y)) /* a negative exponent: what truncating x^y leaves */ \
                    o[i] = x == 1                   ? (T)1                                                      \
                           : (SIGNED && x == (T)-1) ? (((uint64_t)(int64_t)y & 1) ? (T)-1 : (T)1)               \
                                                    : (T)0;                                                     \
                else o[i] = (T)byoc__upow((uint64_t)(int64_t)x, (uint64_t)(int64_t)y);                          \
            }                                                                                                   \
            break;                                                                                              \
        case BYOC__K_MAXIMUM:                                                                                   \
            for (i = 0; i < n; ++i) o[i] = a[i * sa] > b[i * sb] ? a[i * sa] : b[i * sb];                       \
            break;                                                                                              \
        case BYOC__K_MINIMUM:                                                                                   \
            for (i = 0; i < n; ++i) o[i] = a[i * sa] < b[i * sb] ? a[i * sa] : b[i * sb];                       \
            break;                                                                                              \
        default: break;                                                                                         \
        }                                                                                                       \
    }
BYOC__INT_BINARY(int8_t, uint32_t, 1)
BYOC__INT_BINARY(uint8_t, uint32_t, 0)
BYOC__INT_BINARY(int16_t, uint32_t, 1)
BYOC__INT_BINARY(int32_t, uint32_t, 1)
BYOC__INT_BINARY(int64_t, uint64_t, 1)
BYOC__INT_BINARY(uint16_t, uint32_t, 0)
BYOC__INT_BINARY(uint32_t, uint32_t, 0)
BYOC__INT_BINARY(uint64_t, uint64_t, 0)

/* comparisons: any dtype to bool (bool compares as uint8 0/1) */
#define BYOC__COMPARE(T)                                                                                             \
    static void byoc__compare_##T(int code, const T *a, int64_t sa, const T *b, int64_t sb, uint8_t *o, int64_t n) { \
        int64_t i;                                                                                                   \
        if (code == BYOC__K_EQUAL)                                                                                   \
            for (i = 0; i < n; ++i) o[i] = a[i * sa] == b[i * sb];                                                   \
        else if (code == BYOC__K_LESS)                                                                               \
            for (i = 0; i < n; ++i) o[i] = a[i * sa] < b[i * sb];                                                    \
        else                                                                                                         \
            for (i = 0; i < n; ++i) o[i] = a[i * sa] > b[i * sb];                                                    \
    }
BYOC__COMPARE(float)
BYOC__COMPARE(int8_t)
BYOC__COMPARE(uint8_t)
BYOC__COMPARE(int16_t)
BYOC__COMPARE(int32_t)
BYOC__COMPARE(int64_t)
BYOC__COMPARE(double)
BYOC__COMPARE(uint16_t)
BYOC__COMPARE(uint32_t)
BYOC__COMPARE(uint64_t)

typedef struct byoc__binary_job { int code; byoc_dtype dt; } byoc__binary_job;
static void byoc__binary_run(void *user, char *const *p, const int64_t *s, int64_t n) {
    const byoc__binary_job *j = (const byoc__binary_job *)user;
    int cmp = j->code == BYOC__K_EQUAL || j->code == BYOC__K_LESS || j->code == BYOC__K_GREATER;
#define BYOC__BIN_CASE(DT, T)                                                                                  \
    case DT:                                                                                                   \
        if (cmp) byoc__compare_##T(j->code, (const T *)p[1], s[1], (const T *)p[2], s[2], (uint8_t *)p[0], n); \
        else byoc__binary_##T(j->code, (const T *)p[1], s[1], (const T *)p[2], s[2], (T *)p[0], n);            \
        break;
    switch (j->dt) {
    case BYOC_FLOAT32:
        if (cmp) byoc__compare_float(j->code, (const float *)p[1], s[1], (const float *)p[2], s[2], (uint8_t *)p[0], n);
        else byoc__binary_f32(j->code, (const float *)p[1], s[1], (const float *)p[2], s[2], (float *)p[0], n);
        break;
    BYOC__BIN_CASE(BYOC_INT8, int8_t)
    BYOC__BIN_CASE(BYOC_UINT8, uint8_t)
    BYOC__BIN_CASE(BYOC_BOOL, uint8_t) /* maximum / minimum of 0/1 are or / and */
    BYOC__BIN_CASE(BYOC_INT16, int16_t)
    BYOC__BIN_CASE(BYOC_INT32, int32_t)
    BYOC__BIN_CASE(BYOC_INT64, int64_t)
    BYOC__BIN_CASE(BYOC_UINT16, uint16_t)
    BYOC__BIN_CASE(BYOC_UINT32, uint32_t)
    BYOC__BIN_CASE(BYOC_UINT64, uint64_t)
    case BYOC_FLOAT64:
        if (cmp)
            byoc__compare_double(j->code, (const double *)p[1], s[1], (const double *)p[2], s[2], (uint8_t *)p[0], n);
        else byoc__binary_f64(j->code, (const double *)p[1], s[1], (const double *)p[2], s[2], (double *)p[0], n);
        break;
    default: break;
    }
#undef BYOC__BIN_CASE
}

static byoc_result byoc__k_binary(byoc__kctx *k) {
    byoc_dtype dt = k->in[0].dtype;
    int cmp = k->code == BYOC__K_EQUAL || k->code == BYOC__K_LESS || k->code == BYOC__K_GREATER;
    if (dt == BYOC_BOOL && !cmp && k->code != BYOC__K_MAXIMUM && k->code != BYOC__K_MINIMUM)
        return byoc__kfail_dtype(k, dt);
    if (dt != BYOC_FLOAT32 && dt != BYOC_FLOAT64 && dt != BYOC_BOOL && !byoc__is_int_dtype(dt))
        return byoc__kfail_dtype(k, dt);
    const byoc_tensor *ops[3] = {&k->out[0], &k->in[0], &k->in[1]};
    byoc__bcast bc;
    byoc__bcast_init(&bc, ops, 3);
    char *base[3] = {(char *)k->out[0].data, (char *)k->in[0].data, (char *)k->in[1].data};
    size_t es[3] = {byoc_dtype_size(k->out[0].dtype), byoc_dtype_size(dt), byoc_dtype_size(dt)};
    byoc__binary_job job;
    job.code = k->code;
    job.dt = dt;
    byoc__bcast_walk(&bc, base, es, byoc__binary_run, &job);
    return BYOC_OK;
}

/* where(cond, x, y): any dtype, moved by element size */
static void byoc__where_run(void *user, char *const *p, const int64_t *s, int64_t n) {
    size_t es = *(const size_t *)user;
    const uint8_t *c = (const uint8_t *)p[1];
    for (int64_t i = 0; i < n; ++i)
        memcpy(p[0] + (size_t)i * es, c[i * s[1]] ? p[2] + (size_t)(i * s[2]) * es : p[3] + (size_t)(i * s[3]) * es,
               es);
}
static byoc_result byoc__k_where(byoc__kctx *k) {
    const byoc_tensor *ops[4] = {&k->out[0], &k->in[0], &k->in[1], &k->in[2]};
    byoc__bcast bc;
    byoc__bcast_init(&bc, ops, 4);
    size_t es = byoc_dtype_size(k->out[0].dtype);
    char *base[4] = {(char *)k->out[0].data, (char *)k->in[0].data, (char *)k->in[1].data, (char *)k->in[2].data};
    size_t sizes[4] = {es, 1, es, es};
    byoc__bcast_walk(&bc, base, sizes, byoc__where_run, &es);
    return BYOC_OK;
}

static byoc_result byoc__k_logical_not(byoc__kctx *k) {
    const uint8_t *x = (const uint8_t *)k->in[0].data;
    uint8_t *o = (uint8_t *)k->out[0].data;
    for (int64_t i = 0, n = byoc__numel(&k->out[0]); i < n; ++i) o[i] = !x[i];
    return BYOC_OK;
}

/* ---- elementwise unary ops ---- */
typedef struct byoc__unary_params { float alpha, beta, lo, hi; int tanh_gelu; } byoc__unary_params;

#if BYOC__SIMD
#define BYOC__F32_UNARY_VEC(VEXPR) \
    for (; i + 8 <= n; i += 8) {   \
        byoc__f4 x0, x1;           \
        BYOC__LD(x0, a + i);       \
        BYOC__LD(x1, a + i + 4);   \
        {                          \
            byoc__f4 x = x0;       \
            x0 = VEXPR;            \
        }                          \
        {                          \
            byoc__f4 x = x1;       \
            x1 = VEXPR;            \
        }                          \
        BYOC__ST(o + i, x0);       \
        BYOC__ST(o + i + 4, x1);   \
    }
#else
#define BYOC__F32_UNARY_VEC(VEXPR)
#endif
/* with vectors, the last few elements go through the same vector code (padded), so an element's
   result does not depend on where in the tensor, or in a tile of it, it sits */
#if BYOC__SIMD
#define BYOC__F32_UNARY(VEXPR, SEXPR)                                  \
    {                                                                  \
        BYOC__F32_UNARY_VEC(VEXPR)                                     \
        for (; i < n; i += 4) {                                        \
            float pad[4] = {0, 0, 0, 0};                               \
            size_t rest = (size_t)BYOC__MIN(n - i, 4) * sizeof(float); \
            byoc__f4 x;                                                \
            memcpy(pad, a + i, rest);                                  \
            BYOC__LD(x, pad);                                          \
            x = VEXPR;                                                 \
            BYOC__ST(pad, x);                                          \
            memcpy(o + i, pad, rest);                                  \
        }                                                              \
    }
#else
#define BYOC__F32_UNARY(VEXPR, SEXPR) \
    for (; i < n; ++i) {              \
        float x = a[i];               \
        o[i] = SEXPR;                 \
    }
#endif
#define BYOC__F32_MAP(SEXPR) \
    for (; i < n; ++i) {     \
        float x = a[i];      \
        o[i] = SEXPR;        \
    }

/* the loops, inlined into a plain copy and (x86-64) an AVX2+FMA copy: the same vector code gets
   three-operand encodings and fused multiply-adds, which nearly halves the time of exp and friends */
BYOC__ALWAYS_INLINE void byoc__unary_f32_body(int code, const byoc__unary_params *pr, const float *a, float *o,
                                              int64_t n) {
    int64_t i = 0;
    float al = pr->alpha, be = pr->beta, lo = pr->lo, hi = pr->hi;
#if BYOC__SIMD
    const byoc__f4 zero = {0, 0, 0, 0}, one = {1, 1, 1, 1}, three = {3, 3, 3, 3}, six = {6, 6, 6, 6},
                   sixth = {1.0f / 6, 1.0f / 6, 1.0f / 6, 1.0f / 6};
    const byoc__f4 alv = {al, al, al, al}, bev = {be, be, be, be}, lov = {lo, lo, lo, lo}, hiv = {hi, hi, hi, hi};
    const byoc__i4 sign = {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN};
#endif
    switch (code) {
    case BYOC__K_RELU: BYOC__F32_UNARY(BYOC__SEL(x > zero, x, zero), x > 0 ? x : 0) break;
    case BYOC__K_LEAKY_RELU: BYOC__F32_UNARY(BYOC__SEL(x > zero, x, x * alv), x > 0 ? x : x * al) break;
    case BYOC__K_CLIP: /* max(min(x, hi), lo), as TVM computes it */
        BYOC__F32_UNARY(BYOC__SEL(BYOC__SEL(x < hiv, x, hiv) > lov, BYOC__SEL(x < hiv, x, hiv), lov),
                        (x < hi ? x : hi) > lo ? (x < hi ? x : hi) : lo)
        break;
    case BYOC__K_NEGATIVE: BYOC__F32_UNARY(-x, -x) break;
    case BYOC__K_ABS: BYOC__F32_UNARY((byoc__f4)((byoc__i4)x & ~sign), fabsf(x)) break;
    case BYOC__K_HARD_SIGMOID:
        BYOC__F32_UNARY(BYOC__SEL((x * alv + bev) > zero, BYOC__SEL((x * alv + bev) < one, x * alv + bev, one), zero),
                        x * al + be > 0 ? (x * al + be < 1 ? x * al + be : 1.0f) : 0.0f)
        break;
    case BYOC__K_HARD_SWISH:
        BYOC__F32_UNARY(x * BYOC__SEL((x + three) > zero, BYOC__SEL((x + three) < six, x + three, six), zero) * sixth,
                        x * (x + 3 > 0 ? (x + 3 < 6 ? x + 3 : 6.0f) : 0.0f) * (1.0f / 6))
        break;
    case BYOC__K_SIGMOID: BYOC__F32_UNARY(one / (one + byoc__exp4(-x)), 1.0f / (1.0f + expf(-x))) break;
    case BYOC__K_TANH: BYOC__F32_UNARY(byoc__tanh4(x), tanhf(x)) break;
    case BYOC__K_EXP: BYOC__F32_UNARY(byoc__exp4(x), expf(x)) break;
    case BYOC__K_LOG: BYOC__F32_MAP(logf(x)) break;
    case BYOC__K_SQRT: BYOC__F32_MAP(sqrtf(x)) break;
    case BYOC__K_RSQRT: BYOC__F32_MAP(1.0f / sqrtf(x)) break;
    case BYOC__K_ERF: BYOC__F32_UNARY(byoc__erf4(x), erff(x)) break;
    case BYOC__K_FLOOR: BYOC__F32_MAP(floorf(x)) break;
    case BYOC__K_CEIL: BYOC__F32_MAP(ceilf(x)) break;
    case BYOC__K_GELU:
        if (pr->tanh_gelu)
            BYOC__F32_UNARY(0.5f * x * (one + byoc__tanh4(0.7978845608028654f * (x + 0.044715f * x * x * x))),
                            0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x))))
        else
            BYOC__F32_UNARY(0.5f * x * (one + byoc__erf4(x * 0.7071067811865476f)),
                            0.5f * x * (1.0f + erff(x * 0.7071067811865476f)))
        break;
    default: break;
    }
}

static void byoc__unary_f32_plain(int code, const byoc__unary_params *pr, const float *a, float *o, int64_t n) {
    byoc__unary_f32_body(code, pr, a, o, n);
}
#if BYOC__X86_DISPATCH
__attribute__((target("avx2,fma"))) BYOC__FP_CONTRACT static void
byoc__unary_f32_avx2(int code, const byoc__unary_params *pr, const float *a, float *o, int64_t n) {
    byoc__unary_f32_body(code, pr, a, o, n);
}
#endif
BYOC__PRIVATE void byoc__unary_f32(int code, const byoc__unary_params *pr, const float *a, float *o, int64_t n) {
#if BYOC__X86_DISPATCH
    if (byoc__has_avx2_fma()) {
        byoc__unary_f32_avx2(code, pr, a, o, n);
        return;
    }
#endif
    byoc__unary_f32_plain(code, pr, a, o, n);
}

/* relu, negative, abs, clip on integers (wrapping: -MIN is MIN) */
#define BYOC__INT_UNARY(T, UT, SIGNED, TMIN, TMAX)                                                                 \
    static void byoc__unary_##T(int code, double lo_d, double hi_d, const T *a, T *o, int64_t n) {                 \
        int64_t i;                                                                                                 \
        switch (code) {                                                                                            \
        case BYOC__K_RELU:                                                                                         \
            for (i = 0; i < n; ++i) o[i] = a[i] > 0 ? a[i] : (T)0;                                                 \
            break;                                                                                                 \
        case BYOC__K_NEGATIVE:                                                                                     \
            for (i = 0; i < n; ++i) o[i] = (T)((UT)0 - (UT)a[i]);                                                  \
            break;                                                                                                 \
        case BYOC__K_ABS:                                                                                          \
            for (i = 0; i < n; ++i) o[i] = SIGNED && byoc__negative((int64_t)a[i]) ? (T)((UT)0 - (UT)a[i]) : a[i]; \
            break;                                                                                                 \
        case BYOC__K_CLIP: {                                                                                       \
            /* bounds saturated into the type (NaN: no bound), then truncated as a cast does */                    \
            if (lo_d != lo_d) lo_d = -HUGE_VAL;                                                                    \
            if (hi_d != hi_d) hi_d = HUGE_VAL;                                                                     \
            T lo = (T)(lo_d <= (double)(TMIN) ? (TMIN) : lo_d >= (double)(TMAX) ? (TMAX) : (T)lo_d);               \
            T hi = (T)(hi_d <= (double)(TMIN) ? (TMIN) : hi_d >= (double)(TMAX) ? (TMAX) : (T)hi_d);               \
            for (i = 0; i < n; ++i) o[i] = (a[i] < hi ? a[i] : hi) > lo ? (a[i] < hi ? a[i] : hi) : lo;            \
            break;                                                                                                 \
        }                                                                                                          \
        default: break;                                                                                            \
        }                                                                                                          \
    }
BYOC__INT_UNARY(int8_t, uint32_t, 1, INT8_MIN, INT8_MAX)
BYOC__INT_UNARY(uint8_t, uint32_t, 0, 0, UINT8_MAX)
BYOC__INT_UNARY(int16_t, uint32_t, 1, INT16_MIN, INT16_MAX)
BYOC__INT_UNARY(int32_t, uint32_t, 1, INT32_MIN, INT32_MAX)
BYOC__INT_UNARY(int64_t, uint64_t, 1, INT64_MIN, INT64_MAX)
BYOC__INT_UNARY(uint16_t, uint32_t, 0, 0, UINT16_MAX)
BYOC__INT_UNARY(uint32_t, uint32_t, 0, 0, UINT32_MAX)
BYOC__INT_UNARY(uint64_t, uint64_t, 0, 0, UINT64_MAX)

/* float64: the same formulas in double, with libm */
BYOC__PRIVATE void byoc__unary_f64(int code, double al, double be, double lo, double hi, int tanh_gelu, const double *a,
                                   double *o, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
        double x = a[i], c;
        switch (code) {
        case BYOC__K_RELU: o[i] = x > 0 ? x : 0; break;
        case BYOC__K_LEAKY_RELU: o[i] = x > 0 ? x : x * al; break;
        case BYOC__K_CLIP: c = x < hi ? x : hi; o[i] = c > lo ? c : lo; break;
        case BYOC__K_NEGATIVE: o[i] = -x; break;
        case BYOC__K_ABS: o[i] = fabs(x); break;
        case BYOC__K_HARD_SIGMOID: c = x * al + be; o[i] = c > 0 ? (c < 1 ? c : 1) : 0; break;
        case BYOC__K_HARD_SWISH: c = x + 3; o[i] = x * (c > 0 ? (c < 6 ? c : 6) : 0) / 6; break;
        case BYOC__K_SIGMOID: o[i] = 1 / (1 + exp(-x)); break;
        case BYOC__K_TANH: o[i] = tanh(x); break;
        case BYOC__K_EXP: o[i] = exp(x); break;
        case BYOC__K_LOG: o[i] = log(x); break;
        case BYOC__K_SQRT: o[i] = sqrt(x); break;
        case BYOC__K_RSQRT: o[i] = 1 / sqrt(x); break;
        case BYOC__K_ERF: o[i] = erf(x); break;
        case BYOC__K_FLOOR: o[i] = floor(x); break;
        case BYOC__K_CEIL: o[i] = ceil(x); break;
        case BYOC__K_GELU:
            o[i] = tanh_gelu ? 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))
                             : 0.5 * x * (1 + erf(x * 0.7071067811865476));
            break;
        default: break;
        }
    }
}

static byoc_result byoc__k_unary(byoc__kctx *k) {
    byoc_dtype dt = k->in[0].dtype;
    int64_t n = byoc__numel(&k->out[0]);
    double lo = byoc__kfloat(k, "a_min", 0), hi = byoc__kfloat(k, "a_max", 0);
    if (dt == BYOC_FLOAT32 || dt == BYOC_FLOAT64) {
        double alpha = byoc__kfloat(k, "alpha", k->code == BYOC__K_HARD_SIGMOID ? 0.2 : 0.01),
               beta = byoc__kfloat(k, "beta", 0.5);
        byoc__unary_params pr;
        memset(&pr, 0, sizeof pr);
        pr.alpha = (float)alpha;
        pr.beta = (float)beta;
        pr.lo = (float)lo;
        pr.hi = (float)hi;
        if (k->code == BYOC__K_GELU) {
            const char *approx = byoc__kstr(k, "approximate", "none");
            if (strcmp(approx, "none") && strcmp(approx, "tanh"))
                return byoc__kfail(k, "no host kernel for approximate=\"%s\"", approx);
            pr.tanh_gelu = !strcmp(approx, "tanh");
        }
        if (dt == BYOC_FLOAT64)
            byoc__unary_f64(k->code, alpha, beta, lo, hi, pr.tanh_gelu, (const double *)k->in[0].data,
                            (double *)k->out[0].data, n);
        else byoc__unary_f32(k->code, &pr, (const float *)k->in[0].data, (float *)k->out[0].data, n);
        return BYOC_OK;
    }
    int int_ok =
        k->code == BYOC__K_RELU || k->code == BYOC__K_NEGATIVE || k->code == BYOC__K_ABS || k->code == BYOC__K_CLIP;
    if (!int_ok) return byoc__kfail_dtype(k, dt);
    switch (dt) {
    case BYOC_INT8:
        byoc__unary_int8_t(k->code, lo, hi, (const int8_t *)k->in[0].data, (int8_t *)k->out[0].data, n);
        break;
    case BYOC_UINT8:
        byoc__unary_uint8_t(k->code, lo, hi, (const uint8_t *)k->in[0].data, (uint8_t *)k->out[0].data, n);
        break;
    case BYOC_INT16:
        byoc__unary_int16_t(k->code, lo, hi, (const int16_t *)k->in[0].data, (int16_t *)k->out[0].data, n);
        break;
    case BYOC_INT32:
        byoc__unary_int32_t(k->code, lo, hi, (const int32_t *)k->in[0].data, (int32_t *)k->out[0].data, n);
        break;
    case BYOC_INT64:
        byoc__unary_int64_t(k->code, lo, hi, (const int64_t *)k->in[0].data, (int64_t *)k->out[0].data, n);
        break;
    case BYOC_UINT16:
        byoc__unary_uint16_t(k->code, lo, hi, (const uint16_t *)k->in[0].data, (uint16_t *)k->out[0].data, n);
        break;
    case BYOC_UINT32:
        byoc__unary_uint32_t(k->code, lo, hi, (const uint32_t *)k->in[0].data, (uint32_t *)k->out[0].data, n);
        break;
    case BYOC_UINT64:
        byoc__unary_uint64_t(k->code, lo, hi, (const uint64_t *)k->in[0].data, (uint64_t *)k->out[0].data, n);
        break;
    default: return byoc__kfail_dtype(k, dt);
    }
    return BYOC_OK;
}

/* data viewed as [outer, C, inner] around `axis` */
BYOC__PRIVATE void byoc__split_axis(const byoc_tensor *t, int axis, int64_t *outer, int64_t *c, int64_t *inner) {
    *outer = byoc__dims_prod(t->dims, 0, axis);
    *c = t->rank ? t->dims[axis] : 1;
    *inner = byoc__dims_prod(t->dims, axis + 1, t->rank);
}

/* bias_add: x + bias[c] along axis (float32, float64 and integers) */
static byoc_result byoc__k_bias_add(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    int axis = byoc__kaxis(k, "axis", 1, x->rank);
    int64_t outer, C, inner;
    byoc__split_axis(x, axis, &outer, &C, &inner);
    if (x->dtype == BYOC_FLOAT32) {
        const float *xd = (const float *)x->data, *bias = (const float *)k->in[1].data;
        float *o = (float *)k->out[0].data;
        for (int64_t p = 0; p < outer; ++p)
            for (int64_t c = 0; c < C; ++c, xd += inner, o += inner)
                byoc__binary_f32(BYOC__K_ADD, xd, 1, bias + c, 0, o, inner);
        return BYOC_OK;
    }
    if (!byoc__is_int_dtype(x->dtype) && x->dtype != BYOC_FLOAT64) return byoc__kfail_dtype(k, x->dtype);
    size_t es = byoc_dtype_size(x->dtype);
    const char *xd = (const char *)x->data, *bias = (const char *)k->in[1].data;
    char *o = (char *)k->out[0].data;
    for (int64_t p = 0; p < outer; ++p)
        for (int64_t c = 0; c < C; ++c, xd += inner * (int64_t)es, o += inner * (int64_t)es) {
            char *ptr[3] = {o, (char *)xd, (char *)bias + c * (int64_t)es};
            int64_t s[3] = {1, 1, 0};
            byoc__binary_job job;
            job.code = BYOC__K_ADD;
            job.dt = x->dtype;
            byoc__binary_run(&job, ptr, s, inner);
        }
    return BYOC_OK;
}

/* prelu: x if x > 0 else alpha[c] * x (alpha of one value applies to every channel) */
static byoc_result byoc__k_prelu(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    if (x->dtype != BYOC_FLOAT32) return byoc__kfail_dtype(k, x->dtype);
    int axis = byoc__kaxis(k, "axis", 1, x->rank);
    int64_t outer, C, inner;
    byoc__split_axis(x, axis, &outer, &C, &inner);
    const float *xd = (const float *)x->data, *alpha = (const float *)k->in[1].data;
    int one = k->in[1].dims[0] == 1;
    float *o = (float *)k->out[0].data;
    byoc__unary_params pr;
    memset(&pr, 0, sizeof pr);
    for (int64_t p = 0; p < outer; ++p)
        for (int64_t c = 0; c < C; ++c, xd += inner, o += inner) {
            pr.alpha = alpha[one ? 0 : c];
            byoc__unary_f32(BYOC__K_LEAKY_RELU, &pr, xd, o, inner);
        }
    return BYOC_OK;
}

/* ---- softmax, normalisations ---- */
BYOC__PRIVATE float byoc__sum_f32(const float *x, int64_t n) {
    int64_t i = 0;
    float s = 0;
#if BYOC__SIMD
    byoc__f4 s0 = {0, 0, 0, 0}, s1 = s0;
    for (; i + 8 <= n; i += 8) {
        byoc__f4 a0, a1;
        BYOC__LD(a0, x + i); BYOC__LD(a1, x + i + 4);
        s0 += a0; s1 += a1;
    }
    s0 += s1;
    s = (s0[0] + s0[1]) + (s0[2] + s0[3]);
#endif
    for (; i < n; ++i) s += x[i];
    return s;
}
BYOC__PRIVATE float byoc__max_f32(const float *x, int64_t n) {
    float m = -INFINITY;
    int64_t i = 0;
#if BYOC__SIMD
    if (n >= 8) {
        byoc__f4 m0 = {m, m, m, m}, m1 = m0;
        for (; i + 8 <= n; i += 8) {
            byoc__f4 a, b;
            BYOC__LD(a, x + i);
            BYOC__LD(b, x + i + 4);
            m0 = BYOC__SEL(a > m0, a, m0);
            m1 = BYOC__SEL(b > m1, b, m1);
        }
        m0 = BYOC__SEL(m1 > m0, m1, m0);
        for (int j = 0; j < 4; ++j) m = m0[j] > m ? m0[j] : m;
    }
#endif
    for (; i < n; ++i) m = x[i] > m ? x[i] : m;
    return m;
}
BYOC__PRIVATE float byoc__min_f32(const float *x, int64_t n) {
    float m = INFINITY;
    for (int64_t i = 0; i < n; ++i) m = x[i] < m ? x[i] : m;
    return m;
}
BYOC__PRIVATE void byoc__scale_f32(float *x, float a, int64_t n) {
    int64_t i = 0;
#if BYOC__SIMD
    byoc__f4 av = {a, a, a, a};
    for (; i + 4 <= n; i += 4) {
        byoc__f4 v;
        BYOC__LD(v, x + i);
        v *= av;
        BYOC__ST(x + i, v);
    }
#endif
    for (; i < n; ++i) x[i] *= a;
}

/* out = e^(x - shift) (one shift, or one per element); returns the sum of out */
BYOC__ALWAYS_INLINE float byoc__exp_shifted_f32_body(const float *x, float shift, const float *shifts, float *out,
                                                     int64_t n) {
    int64_t i = 0;
    float sum = 0;
#if BYOC__SIMD
    byoc__f4 acc = {0, 0, 0, 0}, sv = {shift, shift, shift, shift};
    for (; i + 4 <= n; i += 4) {
        byoc__f4 v;
        BYOC__LD(v, x + i);
        if (shifts) BYOC__LD(sv, shifts + i);
        v = byoc__exp4(v - sv);
        acc += v;
        BYOC__ST(out + i, v);
    }
    sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    if (i < n) { /* the same vector code on the padded rest */
        float pad[4] = {0, 0, 0, 0}, spad[4] = {shift, shift, shift, shift};
        size_t rest = (size_t)(n - i) * sizeof(float);
        byoc__f4 v;
        memcpy(pad, x + i, rest);
        if (shifts) memcpy(spad, shifts + i, rest);
        BYOC__LD(v, pad);
        BYOC__LD(sv, spad);
        v = byoc__exp4(v - sv);
        BYOC__ST(pad, v);
        memcpy(out + i, pad, rest);
        for (int64_t j = 0; j < n - i; ++j) sum += pad[j];
        i = n;
    }
#endif
    for (; i < n; ++i) sum += out[i] = expf(x[i] - (shifts ? shifts[i] : shift));
    return sum;
}
static float byoc__exp_shifted_f32_plain(const float *x, float shift, const float *shifts, float *out, int64_t n) {
    return byoc__exp_shifted_f32_body(x, shift, shifts, out, n);
}
#if BYOC__X86_DISPATCH
__attribute__((target("avx2,fma"))) BYOC__FP_CONTRACT static float
byoc__exp_shifted_f32_avx2(const float *x, float shift, const float *shifts, float *out, int64_t n) {
    return byoc__exp_shifted_f32_body(x, shift, shifts, out, n);
}
#endif
BYOC__PRIVATE float byoc__exp_shifted_f32(const float *x, float shift, const float *shifts, float *out, int64_t n) {
#if BYOC__X86_DISPATCH
    if (byoc__has_avx2_fma()) return byoc__exp_shifted_f32_avx2(x, shift, shifts, out, n);
#endif
    return byoc__exp_shifted_f32_plain(x, shift, shifts, out, n);
}

/* softmax and log_softmax along any axis: rows when the axis is innermost, otherwise runs of the
   inner extent with its running max and sum in the workspace */
static size_t byoc__ws_softmax(const byoc__kctx *k) {
    int axis = byoc__kaxis(k, "axis", -1, k->in[0].rank);
    return 2 * (size_t)byoc__dims_prod(k->in[0].dims, axis + 1, k->in[0].rank) * sizeof(float);
}
static byoc_result byoc__k_softmax(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    if (x->dtype != BYOC_FLOAT32) return byoc__kfail_dtype(k, x->dtype);
    int axis = byoc__kaxis(k, "axis", -1, x->rank), logsm = k->code == BYOC__K_LOG_SOFTMAX;
    int64_t outer, A, inner;
    byoc__split_axis(x, axis, &outer, &A, &inner);
    const float *xd = (const float *)x->data;
    float *od = (float *)k->out[0].data;
    if (A == 0) return BYOC_OK;
    if (inner == 1) {
        for (int64_t p = 0; p < outer; ++p, xd += A, od += A) {
            float m = byoc__max_f32(xd, A), s = byoc__exp_shifted_f32(xd, m, NULL, od, A);
            if (logsm) {
                float shift = m + logf(s);
                for (int64_t a = 0; a < A; ++a) od[a] = xd[a] - shift;
            } else byoc__scale_f32(od, 1.0f / s, A);
        }
        return BYOC_OK;
    }
    float *mx = (float *)k->ws, *sum = mx + inner;
    for (int64_t p = 0; p < outer; ++p, xd += A * inner, od += A * inner) {
        memcpy(mx, xd, (size_t)inner * sizeof(float));
        for (int64_t a = 1; a < A; ++a) byoc__binary_f32(BYOC__K_MAXIMUM, mx, 1, xd + a * inner, 1, mx, inner);
        memset(sum, 0, (size_t)inner * sizeof(float));
        for (int64_t a = 0; a < A; ++a) {
            byoc__exp_shifted_f32(xd + a * inner, 0, mx, od + a * inner, inner);
            byoc__binary_f32(BYOC__K_ADD, sum, 1, od + a * inner, 1, sum, inner);
        }
        for (int64_t j = 0; j < inner; ++j) sum[j] = logsm ? mx[j] + logf(sum[j]) : 1.0f / sum[j];
        for (int64_t a = 0; a < A; ++a) {
            const float *xr = xd + a * inner;
            float *orow = od + a * inner;
            if (logsm) byoc__binary_f32(BYOC__K_SUBTRACT, xr, 1, sum, 1, orow, inner);
            else byoc__binary_f32(BYOC__K_MULTIPLY, orow, 1, sum, 1, orow, inner);
        }
    }
    return BYOC_OK;
}

/* inference batch norm: x * s + t per channel (s = gamma / sqrt(var + eps), t = beta - mean * s); the
   moving mean and variance pass through as results 1 and 2 */
static byoc_result byoc__k_batch_norm(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    if (x->dtype != BYOC_FLOAT32) return byoc__kfail_dtype(k, x->dtype);
    int axis = byoc__kaxis(k, "axis", 1, x->rank);
    double eps = byoc__kfloat(k, "epsilon", 1e-5);
    int center = (int)byoc__kint(k, "center", 1), scale = (int)byoc__kint(k, "scale", 1);
    int64_t outer, C, inner;
    byoc__split_axis(x, axis, &outer, &C, &inner);
    const float *gamma = (const float *)k->in[1].data, *beta = (const float *)k->in[2].data,
                *mean = (const float *)k->in[3].data, *var = (const float *)k->in[4].data, *xd = (const float *)x->data;
    float *od = (float *)k->out[0].data;
    for (int64_t p = 0; p < outer; ++p)
        for (int64_t c = 0; c < C; ++c, xd += inner, od += inner) {
            double s = (scale ? gamma[c] : 1.0) / sqrt((double)var[c] + eps),
                   t = (center ? beta[c] : 0.0) - mean[c] * s;
            byoc__affine_f32(inner, xd, (float)s, (float)t, od);
        }
    if (k->nout > 1) memcpy(k->out[1].data, k->in[3].data, byoc__nbytes(&k->in[3]));
    if (k->nout > 2) memcpy(k->out[2].data, k->in[4].data, byoc__nbytes(&k->in[4]));
    return BYOC_OK;
}

/* layer norm over one axis: (x - mean) / sqrt(var + eps) * gamma + beta, biased variance */
static size_t byoc__ws_layer_norm(const byoc__kctx *k) {
    int axis = byoc__kaxis(k, "axis", -1, k->in[0].rank);
    return 2 * (size_t)byoc__dims_prod(k->in[0].dims, axis + 1, k->in[0].rank) * sizeof(float);
}
static byoc_result byoc__k_layer_norm(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    if (x->dtype != BYOC_FLOAT32) return byoc__kfail_dtype(k, x->dtype);
    int axis = byoc__kaxis(k, "axis", -1, x->rank);
    float eps = (float)byoc__kfloat(k, "epsilon", 1e-5);
    int center = (int)byoc__kint(k, "center", 1), scale = (int)byoc__kint(k, "scale", 1);
    int64_t outer, A, inner;
    byoc__split_axis(x, axis, &outer, &A, &inner);
    const float *gamma = (const float *)k->in[1].data, *beta = (const float *)k->in[2].data,
                *xd = (const float *)x->data;
    float *od = (float *)k->out[0].data;
    if (A == 0) return BYOC_OK;
    if (inner == 1) {
        for (int64_t p = 0; p < outer; ++p, xd += A, od += A) {
            float mean = byoc__sum_f32(xd, A) / (float)A;
            byoc__affine_f32(A, xd, 1.0f, -mean, od); /* centred values, then their squares' mean */
            float rstd = 1.0f / sqrtf(byoc__dot_f32(od, od, A) / (float)A + eps);
            for (int64_t a = 0; a < A; ++a)
                od[a] = od[a] * rstd * (scale ? gamma[a] : 1.0f) + (center ? beta[a] : 0.0f);
        }
        return BYOC_OK;
    }
    float *mean = (float *)k->ws, *rstd = mean + inner;
    for (int64_t p = 0; p < outer; ++p, xd += A * inner, od += A * inner) {
        memset(mean, 0, (size_t)inner * 2 * sizeof(float));
        for (int64_t a = 0; a < A; ++a) byoc__binary_f32(BYOC__K_ADD, mean, 1, xd + a * inner, 1, mean, inner);
        byoc__scale_f32(mean, 1.0f / (float)A, inner);
        for (int64_t a = 0; a < A; ++a)
            for (int64_t j = 0; j < inner; ++j) {
                float d = xd[a * inner + j] - mean[j];
                rstd[j] += d * d;
            }
        for (int64_t j = 0; j < inner; ++j) rstd[j] = 1.0f / sqrtf(rstd[j] / (float)A + eps);
        for (int64_t a = 0; a < A; ++a) {
            float g = scale ? gamma[a] : 1.0f, b = center ? beta[a] : 0.0f;
            for (int64_t j = 0; j < inner; ++j) od[a * inner + j] = (xd[a * inner + j] - mean[j]) * rstd[j] * g + b;
        }
    }
    return BYOC_OK;
}

/* local response normalisation across channels, as ONNX and Caffe define it:
   x / (bias + alpha / size * sum of squares over channels [c - (size-1)/2, c + size/2])^beta */
static size_t byoc__ws_lrn(const byoc__kctx *k) {
    int axis = byoc__kaxis(k, "axis", 1, k->in[0].rank);
    return (size_t)byoc__dims_prod(k->in[0].dims, axis + 1, k->in[0].rank) * sizeof(float);
}
static byoc_result byoc__k_lrn(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    if (x->dtype != BYOC_FLOAT32) return byoc__kfail_dtype(k, x->dtype);
    int axis = byoc__kaxis(k, "axis", 1, x->rank);
    int64_t size = byoc__kint(k, "size", 5), before = (size - 1) / 2, after = size - 1 - before;
    float bias = (float)byoc__kfloat(k, "bias", 2), alpha = (float)byoc__kfloat(k, "alpha", 1e-4),
          beta = (float)byoc__kfloat(k, "beta", 0.75);
    float a_over_n = alpha / (float)size;
    int64_t outer, C, inner;
    byoc__split_axis(x, axis, &outer, &C, &inner);
    float *acc = (float *)k->ws;
    for (int64_t p = 0; p < outer; ++p) {
        const float *xd = (const float *)x->data + p * C * inner;
        float *od = (float *)k->out[0].data + p * C * inner;
        for (int64_t c = 0; c < C; ++c) {
            memset(acc, 0, (size_t)inner * sizeof(float));
            for (int64_t j = BYOC__MAX(c - before, 0); j <= BYOC__MIN(c + after, C - 1); ++j) {
                const float *xr = xd + j * inner;
                for (int64_t i = 0; i < inner; ++i) acc[i] += xr[i] * xr[i];
            }
            for (int64_t i = 0; i < inner; ++i)
                od[c * inner + i] = xd[c * inner + i] / powf(bias + a_over_n * acc[i], beta);
        }
    }
    return BYOC_OK;
}

/* ---- pooling ---- */
/* output columns [x0, x1) whose tap ox * stride + off lands inside [0, W) */
BYOC__PRIVATE void byoc__valid_cols(int64_t off, int64_t stride, int64_t W, int64_t OW, int64_t *x0, int64_t *x1) {
    int64_t lo = off >= 0 ? 0 : (-off + stride - 1) / stride, hi = W - 1 - off < 0 ? 0 : (W - 1 - off) / stride + 1;
    *x0 = BYOC__MIN(lo, OW);
    *x1 = BYOC__MAX(*x0, BYOC__MIN(hi, OW));
}
/* y[i] (i < n) gets x[i * stride] combined in: op 0 adds w * x, 1 takes the maximum, 2 adds x; unit and
   double strides run on vectors (the even lanes of two loads), others one element at a time */
enum { BYOC__TAP_AXPY, BYOC__TAP_MAX, BYOC__TAP_ADD };
BYOC__PRIVATE void byoc__row_tap(int op, int64_t n, float w, const float *x, int64_t stride, float *y) {
    if (n <= 0) return;
    if (stride == 1) {
        if (op == BYOC__TAP_AXPY) byoc__axpy_f32(n, w, x, y);
        else byoc__binary_f32(op == BYOC__TAP_MAX ? BYOC__K_MAXIMUM : BYOC__K_ADD, y, 1, x, 1, y, n);
        return;
    }
    int64_t i = 0;
#if BYOC__SIMD
    if (stride == 2) {
        byoc__f4 wv = {w, w, w, w};
        for (; i + 5 <= n; i += 4) { /* reads x[2i .. 2i + 7], all before x[2 (n - 1)] */
            byoc__f4 a, b, v, e;
            BYOC__LD(a, x + 2 * i);
            BYOC__LD(b, x + 2 * i + 4);
            BYOC__LD(v, y + i);
            e[0] = a[0]; e[1] = a[2]; e[2] = b[0]; e[3] = b[2];
            v = op == BYOC__TAP_AXPY ? v + wv * e : op == BYOC__TAP_MAX ? BYOC__SEL(v > e, v, e) : v + e;
            BYOC__ST(y + i, v);
        }
    }
#endif
    for (; i < n; ++i) {
        float v = x[i * stride];
        y[i] = op == BYOC__TAP_AXPY ? y[i] + w * v : op == BYOC__TAP_MAX ? (y[i] > v ? y[i] : v) : y[i] + v;
    }
}

typedef struct byoc__pool_geom {
    int64_t N, C, H, W, OH, OW, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr;
} byoc__pool_geom;

BYOC__PRIVATE void byoc__pool_geom_of(const byoc__kctx *k, byoc__pool_geom *g) {
    const byoc_tensor *x = &k->in[0], *o = &k->out[0];
    int64_t pool[2], st[2], dil[2], pad[4];
    byoc__kints(k, "pool_size", pool, 2, 1);
    byoc__kints(k, "strides", st, 2, 1);
    byoc__kints(k, "dilation", dil, 2, 1);
    byoc__kints(k, "padding", pad, 4, 0);
    g->N = x->dims[0]; g->C = x->dims[1]; g->H = x->dims[2]; g->W = x->dims[3]; g->OH = o->dims[2]; g->OW = o->dims[3];
    g->kh = pool[0]; g->kw = pool[1]; g->sh = st[0]; g->sw = st[1]; g->dh = dil[0]; g->dw = dil[1];
    g->pt = pad[0]; g->pl = pad[1]; g->pb = pad[2]; g->pr = pad[3];
}

/* window taps along one axis that land in [lo, hi) */
BYOC__PRIVATE int64_t byoc__taps_in(int64_t start, int64_t kernel, int64_t dilation, int64_t lo, int64_t hi) {
    int64_t n = 0;
    for (int64_t t = 0; t < kernel; ++t) n += start + t * dilation >= lo && start + t * dilation < hi;
    return n;
}

#define BYOC__MAX_POOL(T, LOWEST)                                                 \
    static void byoc__max_pool_##T(const byoc__pool_geom *g, const T *x, T *o) {  \
        for (int64_t p = 0; p < g->N * g->C; ++p, x += g->H * g->W)               \
            for (int64_t oy = 0; oy < g->OH; ++oy)                                \
                for (int64_t ox = 0; ox < g->OW; ++ox) {                          \
                    T m = LOWEST;                                                 \
                    int64_t y0 = oy * g->sh - g->pt, x0 = ox * g->sw - g->pl;     \
                    for (int64_t ky = 0; ky < g->kh; ++ky) {                      \
                        int64_t iy = y0 + ky * g->dh;                             \
                        if (iy < 0 || iy >= g->H) continue;                       \
                        const T *row = x + iy * g->W;                             \
                        for (int64_t kx = 0; kx < g->kw; ++kx) {                  \
                            int64_t ix = x0 + kx * g->dw;                         \
                            if (ix >= 0 && ix < g->W && row[ix] > m) m = row[ix]; \
                        }                                                         \
                    }                                                             \
                    *o++ = m;                                                     \
                }                                                                 \
    }
BYOC__MAX_POOL(float, -FLT_MAX)
BYOC__MAX_POOL(int8_t, INT8_MIN)
BYOC__MAX_POOL(uint8_t, 0)
BYOC__MAX_POOL(int16_t, INT16_MIN)
BYOC__MAX_POOL(int32_t, INT32_MIN)
BYOC__MAX_POOL(int64_t, INT64_MIN)
BYOC__MAX_POOL(double, -DBL_MAX)
BYOC__MAX_POOL(uint16_t, 0)
BYOC__MAX_POOL(uint32_t, 0)
BYOC__MAX_POOL(uint64_t, 0)
/* the max pool of any dtype but bool and the 16-bit floats; 0 when dt has none */
BYOC__PRIVATE int byoc__max_pool_any(const byoc__pool_geom *g, byoc_dtype dt, const void *x, void *o) {
    switch (dt) {
    case BYOC_FLOAT32: byoc__max_pool_float(g, (const float *)x, (float *)o); break;
    case BYOC_FLOAT64: byoc__max_pool_double(g, (const double *)x, (double *)o); break;
    case BYOC_INT8: byoc__max_pool_int8_t(g, (const int8_t *)x, (int8_t *)o); break;
    case BYOC_UINT8: byoc__max_pool_uint8_t(g, (const uint8_t *)x, (uint8_t *)o); break;
    case BYOC_INT16: byoc__max_pool_int16_t(g, (const int16_t *)x, (int16_t *)o); break;
    case BYOC_UINT16: byoc__max_pool_uint16_t(g, (const uint16_t *)x, (uint16_t *)o); break;
    case BYOC_INT32: byoc__max_pool_int32_t(g, (const int32_t *)x, (int32_t *)o); break;
    case BYOC_UINT32: byoc__max_pool_uint32_t(g, (const uint32_t *)x, (uint32_t *)o); break;
    case BYOC_INT64: byoc__max_pool_int64_t(g, (const int64_t *)x, (int64_t *)o); break;
    case BYOC_UINT64: byoc__max_pool_uint64_t(g, (const uint64_t *)x, (uint64_t *)o); break;
    default: return 0;
    }
    return 1;
}

/* average pooling divides by the taps inside the input, or with count_include_pad by the taps inside
   the padded input (a ceil_mode window may reach past the padding: those taps never count) */
static size_t byoc__ws_pool2d(const byoc__kctx *k) { return (size_t)k->out[0].dims[3] * sizeof(float); }
/* max pooling with the index of each maximum, ((n * C + c) * H + h) * W + w, the first in window order on
   ties; padding never wins. Any dtype whose values a double holds exactly. */
static byoc_result byoc__k_pool2d_argmax(byoc__kctx *k) {
    byoc__pool_geom g;
    byoc__pool_geom_of(k, &g);
    byoc_dtype dt = k->in[0].dtype;
    if (dt == BYOC_BOOL || dt == BYOC_INT64 || dt == BYOC_UINT64) return byoc__kfail_dtype(k, dt);
    size_t es = byoc_dtype_size(dt);
    const char *x = (const char *)k->in[0].data;
    char *o = (char *)k->out[0].data;
    int64_t *idx = (int64_t *)k->out[1].data, at = 0;
    for (int64_t p = 0; p < g.N * g.C; ++p)
        for (int64_t oy = 0; oy < g.OH; ++oy)
            for (int64_t ox = 0; ox < g.OW; ++ox, ++at) {
                int64_t best = -1;
                double m = 0;
                for (int64_t ky = 0; ky < g.kh; ++ky) {
                    int64_t iy = oy * g.sh - g.pt + ky * g.dh;
                    if (iy < 0 || iy >= g.H) continue;
                    for (int64_t kx = 0; kx < g.kw; ++kx) {
                        int64_t ix = ox * g.sw - g.pl + kx * g.dw, flat = (p * g.H + iy) * g.W + ix;
                        if (ix < 0 || ix >= g.W) continue;
                        double v = byoc__load(dt, x, flat);
                        if (best < 0 || (m == m && (v > m || v != v)))
                            m = v, best = flat; /* NaN wins, as numpy's argmax */
                    }
                }
                if (best < 0)
                    return byoc__kfail(k, "output (%lld, %lld) of plane %lld has no tap inside the input",
                                       (long long)oy, (long long)ox, (long long)p);
                memcpy(o + at * (int64_t)es, x + best * (int64_t)es, es);
                idx[at] = best;
            }
    return BYOC_OK;
}

static byoc_result byoc__k_pool2d(byoc__kctx *k) {
    byoc__pool_geom g;
    byoc__pool_geom_of(k, &g);
    byoc_dtype dt = k->in[0].dtype;
    const void *x = k->in[0].data;
    void *o = k->out[0].data;
    if (dt == BYOC_FLOAT32) { /* row by row: each tap combines a run of input columns into the output row */
        int avg = k->code == BYOC__K_AVG_POOL, include_pad = (int)byoc__kint(k, "count_include_pad", 0);
        float *count_x = (float *)k->ws; /* per output column, the taps that count (average) */
        for (int64_t ox = 0; avg && ox < g.OW; ++ox) {
            int64_t x0 = ox * g.sw - g.pl;
            count_x[ox] = (float)(include_pad ? byoc__taps_in(x0, g.kw, g.dw, -g.pl, g.W + g.pr)
                                              : byoc__taps_in(x0, g.kw, g.dw, 0, g.W));
        }
        const float *xd = (const float *)x;
        float *od = (float *)o;
        if (g.OW < 8) { /* narrow outputs (a 7x7 average at the end of a CNN): runs of a few columns cost
                           more to hand to the row helper than to add up here, window by window */
            for (int64_t p = 0; p < g.N * g.C; ++p, xd += g.H * g.W)
                for (int64_t oy = 0; oy < g.OH; ++oy) {
                    int64_t y0 = oy * g.sh - g.pt;
                    float ny = avg ? (float)(include_pad ? byoc__taps_in(y0, g.kh, g.dh, -g.pt, g.H + g.pb)
                                                         : byoc__taps_in(y0, g.kh, g.dh, 0, g.H))
                                   : 0.0f;
                    for (int64_t ox = 0; ox < g.OW; ++ox, ++od) {
                        int64_t x0 = ox * g.sw - g.pl;
                        float acc = avg ? 0.0f : -FLT_MAX;
                        for (int64_t ky = 0; ky < g.kh; ++ky) {
                            int64_t iy = y0 + ky * g.dh;
                            if (iy < 0 || iy >= g.H) continue;
                            const float *row = xd + iy * g.W;
                            for (int64_t kx = 0; kx < g.kw; ++kx) {
                                int64_t ix = x0 + kx * g.dw;
                                if (ix < 0 || ix >= g.W) continue;
                                acc = avg ? acc + row[ix] : (row[ix] > acc ? row[ix] : acc);
                            }
                        }
                        *od = !avg ? acc : ny > 0 && count_x[ox] > 0 ? acc / (ny * count_x[ox]) : 0.0f;
                    }
                }
            return BYOC_OK;
        }
        for (int64_t p = 0; p < g.N * g.C; ++p, xd += g.H * g.W)
            for (int64_t oy = 0; oy < g.OH; ++oy, od += g.OW) {
                for (int64_t ox = 0; ox < g.OW; ++ox) od[ox] = avg ? 0.0f : -FLT_MAX;
                int64_t y0 = oy * g.sh - g.pt;
                for (int64_t ky = 0; ky < g.kh; ++ky) {
                    int64_t iy = y0 + ky * g.dh;
                    if (iy < 0 || iy >= g.H) continue;
                    for (int64_t kx = 0; kx < g.kw; ++kx) {
                        int64_t off = kx * g.dw - g.pl, x0, x1;
                        byoc__valid_cols(off, g.sw, g.W, g.OW, &x0, &x1);
                        byoc__row_tap(avg ? BYOC__TAP_ADD : BYOC__TAP_MAX, x1 - x0, 0, xd + iy * g.W + x0 * g.sw + off,
                                      g.sw, od + x0);
                    }
                }
                if (!avg) continue;
                float ny = (float)(include_pad ? byoc__taps_in(y0, g.kh, g.dh, -g.pt, g.H + g.pb)
                                               : byoc__taps_in(y0, g.kh, g.dh, 0, g.H));
                for (int64_t ox = 0; ox < g.OW; ++ox)
                    od[ox] = ny > 0 && count_x[ox] > 0 ? od[ox] / (ny * count_x[ox]) : 0.0f;
            }
        return BYOC_OK;
    }
    if (k->code == BYOC__K_MAX_POOL && byoc__max_pool_any(&g, dt, x, o)) return BYOC_OK;
    return byoc__kfail_dtype(k, dt);
}

static byoc_result byoc__k_global_pool2d(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    byoc_dtype dt = x->dtype;
    if (k->code == BYOC__K_AVG_POOL) {
        int64_t planes = x->dims[0] * x->dims[1], hw = x->dims[2] * x->dims[3];
        if (dt != BYOC_FLOAT32) return byoc__kfail_dtype(k, dt);
        const float *xd = (const float *)x->data;
        float *od = (float *)k->out[0].data;
        for (int64_t p = 0; p < planes; ++p) od[p] = hw ? byoc__sum_f32(xd + p * hw, hw) / (float)hw : 0.0f;
        return BYOC_OK;
    }
    /* a max pool whose window is the whole plane */
    byoc__pool_geom g;
    memset(&g, 0, sizeof g);
    g.N = x->dims[0]; g.C = x->dims[1]; g.H = x->dims[2]; g.W = x->dims[3]; g.OH = g.OW = 1;
    g.kh = g.H; g.kw = g.W; g.sh = g.sw = g.dh = g.dw = 1;
    return byoc__max_pool_any(&g, dt, x->data, k->out[0].data) ? BYOC_OK : byoc__kfail_dtype(k, dt);
}

/* ---- reductions: sum, mean, max, min over any set of axes ---- */
/* Which input axes reduce (axis None: all; exclude: all but those listed). */
BYOC__PRIVATE void byoc__reduced_axes(const byoc__kctx *k, int rank, int *red) {
    const byoc_attr_value *ax = byoc__kattr(k, "axis");
    for (int i = 0; i < rank; ++i) red[i] = 0;
    if (!ax || ax->kind == BYOC_ATTR_NONE) {
        for (int i = 0; i < rank; ++i) red[i] = 1;
        return;
    }
    int64_t single = ax->i;
    const int64_t *list = ax->kind == BYOC_ATTR_INT ? &single : ax->ints;
    int count = ax->kind == BYOC_ATTR_INT ? 1 : ax->count;
    for (int i = 0; i < count; ++i) {
        int64_t a = list[i] < 0 ? list[i] + rank : list[i];
        if (a >= 0 && a < rank) red[a] = 1;
    }
    if (byoc__kint(k, "exclude", 0))
        for (int i = 0; i < rank; ++i) red[i] = !red[i];
}

static size_t byoc__ws_reduce(const byoc__kctx *k) {
    return byoc__is_int_dtype(k->in[0].dtype) || k->in[0].dtype == BYOC_BOOL
               ? (size_t)byoc__numel(&k->out[0]) * sizeof(int64_t)
               : 0;
}

/* Walks the input in memory order, axes grouped into runs that all reduce or all stay; each innermost
   run either folds into one output value (it reduces) or combines elementwise with an output row
   (it stays). Floats accumulate in the output, integers in int64 in the workspace (a mean needs the
   true sum; a sum wraps into its dtype at the end, as in-dtype arithmetic would). */
/* an integer or bool element as int64 (uint64: its bits, so arithmetic modulo 2^64 stays exact) */
BYOC__PRIVATE int64_t byoc__int_at(byoc_dtype dt, const char *p) {
    switch (dt) {
    case BYOC_INT8: return *(const int8_t *)p;
    case BYOC_UINT8: case BYOC_BOOL: return *(const uint8_t *)p;
    case BYOC_INT16: { int16_t v; memcpy(&v, p, 2); return v; }
    case BYOC_UINT16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case BYOC_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
    case BYOC_UINT32: { uint32_t v; memcpy(&v, p, 4); return v; }
    case BYOC_INT64: case BYOC_UINT64: { int64_t v; memcpy(&v, p, 8); return v; }
    default: return 0;
    }
}
BYOC__PRIVATE void byoc__int_put(byoc_dtype dt, char *p, int64_t v) {
    switch (dt) {
    case BYOC_INT8: { int8_t x = (int8_t)v; memcpy(p, &x, 1); break; }
    case BYOC_UINT8: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
    case BYOC_BOOL: { uint8_t x = v != 0; memcpy(p, &x, 1); break; }
    case BYOC_INT16: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
    case BYOC_INT32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
    case BYOC_UINT16: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case BYOC_UINT32: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    case BYOC_INT64: case BYOC_UINT64: memcpy(p, &v, 8); break;
    default: break;
    }
}

static byoc_result byoc__k_reduce(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    byoc_dtype dt = x->dtype;
    int is_int = byoc__is_int_dtype(dt) || dt == BYOC_BOOL, code = k->code, is_u64 = dt == BYOC_UINT64,
        is_f64 = dt == BYOC_FLOAT64;
    if (dt != BYOC_FLOAT32 && !is_f64 && !is_int) return byoc__kfail_dtype(k, dt);
    if (dt == BYOC_BOOL && (code == BYOC__K_SUM || code == BYOC__K_MEAN)) return byoc__kfail_dtype(k, dt);
    int red[BYOC_MAX_RANK];
    byoc__reduced_axes(k, x->rank, red);
    /* runs of axes: extent, input stride, output stride (0 when reduced) */
    int64_t dims[BYOC_MAX_RANK], ostr[BYOC_MAX_RANK], ostr_full[BYOC_MAX_RANK];
    int rr[BYOC_MAX_RANK], r = 0;
    int64_t s = 1, count = 1, total = byoc__numel(x), nout = byoc__numel(&k->out[0]);
    for (int i = x->rank - 1; i >= 0; --i) {
        ostr_full[i] = red[i] ? 0 : s;
        if (!red[i]) s *= x->dims[i];
        else count *= x->dims[i];
    }
    for (int i = 0; i < x->rank; ++i) {
        if (x->dims[i] == 1) continue;
        if (r > 0 && rr[r - 1] == red[i]) {
            dims[r - 1] *= x->dims[i];
            ostr[r - 1] = ostr_full[i];
            continue;
        }
        dims[r] = x->dims[i];
        ostr[r] = ostr_full[i];
        rr[r] = red[i];
        r++;
    }
    if (r == 0) { dims[0] = 1; ostr[0] = 1; rr[0] = 0; r = 1; }
    int64_t n = dims[r - 1], inner_reduces = rr[r - 1];
    float *of = (float *)k->out[0].data;
    double *od = (double *)k->out[0].data;
    int64_t *oi = (int64_t *)k->ws;
    /* identities (uint64 compares its bits unsigned: 0 and all ones) */
    for (int64_t j = 0; j < nout; ++j) {
        if (is_int)
            oi[j] = code == BYOC__K_RMAX   ? (is_u64 ? 0 : INT64_MIN)
                    : code == BYOC__K_RMIN ? (is_u64 ? -1 : INT64_MAX)
                                           : 0;
        else if (is_f64) od[j] = code == BYOC__K_RMAX ? -HUGE_VAL : code == BYOC__K_RMIN ? HUGE_VAL : 0.0;
        else of[j] = code == BYOC__K_RMAX ? -INFINITY : code == BYOC__K_RMIN ? INFINITY : 0.0f;
    }
    if (total == 0) {
        if (is_int)
            for (int64_t j = 0; j < nout; ++j)
                byoc__int_put(k->out[0].dtype, (char *)k->out[0].data + j * (int64_t)byoc_dtype_size(dt), 0);
        else if (code == BYOC__K_MEAN) for (int64_t j = 0; j < nout; ++j) byoc__store(dt, k->out[0].data, j, NAN);
        return BYOC_OK;
    }
    size_t es = byoc_dtype_size(dt);
    const char *xp = (const char *)x->data;
    int64_t idx[BYOC_MAX_RANK] = {0}, off = 0;
    for (;;) {
        if (is_f64) {
            const double *row = (const double *)xp;
            double *orow = od + off;
            for (int64_t i = 0; i < n; ++i) {
                double v = row[i], *acc = orow + (inner_reduces ? 0 : i);
                *acc = code == BYOC__K_RMAX   ? (v > *acc ? v : *acc)
                       : code == BYOC__K_RMIN ? (v < *acc ? v : *acc)
                                              : *acc + v;
            }
        } else if (!is_int) {
            const float *row = (const float *)xp;
            float *orow = of + off;
            if (inner_reduces) {
                float v = code == BYOC__K_RMAX   ? byoc__max_f32(row, n)
                          : code == BYOC__K_RMIN ? byoc__min_f32(row, n)
                                                 : byoc__sum_f32(row, n);
                orow[0] = code == BYOC__K_RMAX   ? (v > orow[0] ? v : orow[0])
                          : code == BYOC__K_RMIN ? (v < orow[0] ? v : orow[0])
                                                 : orow[0] + v;
            } else {
                int op = code == BYOC__K_RMAX ? BYOC__K_MAXIMUM : code == BYOC__K_RMIN ? BYOC__K_MINIMUM : BYOC__K_ADD;
                byoc__binary_f32(op, orow, 1, row, 1, orow, n);
            }
        } else {
            for (int64_t i = 0; i < n; ++i) {
                int64_t v = byoc__int_at(dt, xp + i * (int64_t)es), *acc = oi + off + (inner_reduces ? 0 : i);
                int above = is_u64 ? (uint64_t)v > (uint64_t)*acc : v > *acc,
                    below = is_u64 ? (uint64_t)v < (uint64_t)*acc : v < *acc;
                if (code == BYOC__K_RMAX) *acc = above ? v : *acc;
                else if (code == BYOC__K_RMIN) *acc = below ? v : *acc;
                else *acc = (int64_t)((uint64_t)*acc + (uint64_t)v);
            }
        }
        xp += n * (int64_t)es;
        int d = r - 2;
        for (; d >= 0; --d) {
            off += ostr[d];
            if (++idx[d] < dims[d]) break;
            off -= ostr[d] * dims[d];
            idx[d] = 0;
        }
        if (d < 0) break;
    }
    if (is_int) {
        for (int64_t j = 0; j < nout; ++j) {
            int64_t v = oi[j];
            if (code == BYOC__K_MEAN) v = !count ? 0 : is_u64 ? (int64_t)((uint64_t)v / (uint64_t)count) : v / count;
            byoc__int_put(k->out[0].dtype, (char *)k->out[0].data + j * (int64_t)es, v);
        }
    } else if (code == BYOC__K_MEAN && is_f64) {
        for (int64_t j = 0; j < nout; ++j) od[j] /= (double)count;
    } else if (code == BYOC__K_MEAN)
        byoc__scale_f32(of, 1.0f / (float)count, nout);
    return BYOC_OK;
}

// [SECTION] impl: host kernels: data movement, resize, convolutions
/* ---- data movement: any dtype, moved by element size ---- */
/* identity results: reshape, squeeze, expand_dims, copy and the annotations (each result a copy of
   the argument in the same place of the flattened lists) */
static byoc_result byoc__k_copy(byoc__kctx *k) {
    for (int i = 0; i < k->nout && i < k->nin; ++i)
        if (k->out[i].data != k->in[i].data) memmove(k->out[i].data, k->in[i].data, byoc__nbytes(&k->out[i]));
    return BYOC_OK;
}

/* inference dropout: the input, and a mask of ones */
static byoc_result byoc__k_dropout(byoc__kctx *k) {
    if (k->in[0].dtype != BYOC_FLOAT32) return byoc__kfail_dtype(k, k->in[0].dtype);
    memmove(k->out[0].data, k->in[0].data, byoc__nbytes(&k->out[0]));
    float *mask = (float *)k->out[1].data;
    for (int64_t i = 0, n = byoc__numel(&k->out[1]); i < n; ++i) mask[i] = 1.0f;
    return BYOC_OK;
}

static byoc_result byoc__k_transpose(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0], *o = &k->out[0];
    const byoc_attr_value *ax = byoc__kattr(k, "axes");
    int64_t in_str[BYOC_MAX_RANK], src[BYOC_MAX_RANK], dst[BYOC_MAX_RANK];
    byoc__strides_of(x->rank, x->dims, in_str);
    byoc__strides_of(o->rank, o->dims, dst);
    for (int i = 0; i < x->rank; ++i) {
        int64_t p = ax && ax->kind == BYOC_ATTR_INT_LIST && ax->count == x->rank ? ax->ints[i] : x->rank - 1 - i;
        src[i] = in_str[p < 0 ? p + x->rank : p];
    }
    byoc__copy_strided(o->rank, o->dims, (char *)o->data, dst, (const char *)x->data, src, byoc_dtype_size(x->dtype));
    return BYOC_OK;
}

static byoc_result byoc__k_concatenate(byoc__kctx *k) {
    const byoc_tensor *o = &k->out[0];
    int axis = byoc__kaxis(k, "axis", 0, o->rank);
    size_t es = byoc_dtype_size(o->dtype);
    int64_t ostr[BYOC_MAX_RANK], at = 0;
    byoc__strides_of(o->rank, o->dims, ostr);
    for (int i = 0; i < k->nin; ++i) {
        const byoc_tensor *t = &k->in[i];
        int64_t istr[BYOC_MAX_RANK];
        byoc__strides_of(t->rank, t->dims, istr);
        byoc__copy_strided(t->rank, t->dims, (char *)o->data + at * ostr[axis] * (int64_t)es, ostr,
                           (const char *)t->data, istr, es);
        at += t->dims[axis];
    }
    return BYOC_OK;
}

static byoc_result byoc__k_split(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    int axis = byoc__kaxis(k, "axis", 0, x->rank);
    size_t es = byoc_dtype_size(x->dtype);
    int64_t istr[BYOC_MAX_RANK], at = 0;
    byoc__strides_of(x->rank, x->dims, istr);
    for (int i = 0; i < k->nout; ++i) {
        const byoc_tensor *t = &k->out[i];
        int64_t ostr[BYOC_MAX_RANK];
        byoc__strides_of(t->rank, t->dims, ostr);
        byoc__copy_strided(t->rank, t->dims, (char *)t->data, ostr,
                           (const char *)x->data + at * istr[axis] * (int64_t)es, istr, es);
        at += t->dims[axis];
    }
    return BYOC_OK;
}

/* begin and step per axis, normalised exactly as the type relation does it */
static byoc_result byoc__k_strided_slice(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0], *o = &k->out[0];
    const byoc_attr_value *b = byoc__kattr(k, "begin"), *s = byoc__kattr(k, "strides"), *ax = byoc__kattr(k, "axes");
    int has_axes = ax && ax->kind == BYOC_ATTR_INT_LIST,
        has_strides = s && s->kind == BYOC_ATTR_INT_LIST && s->count > 0;
    int size_mode = !strcmp(byoc__kstr(k, "slice_mode", "end"), "size");
    int64_t istr[BYOC_MAX_RANK], ostr[BYOC_MAX_RANK], begin[BYOC_MAX_RANK] = {0}, step[BYOC_MAX_RANK];
    byoc__strides_of(x->rank, x->dims, istr);
    byoc__strides_of(o->rank, o->dims, ostr);
    for (int d = 0; d < x->rank; ++d) step[d] = 1;
    int count = b && b->kind == BYOC_ATTR_INT_LIST ? b->count : 0;
    for (int i = 0; i < count; ++i) {
        int64_t a = has_axes ? ax->ints[i] : i;
        if (a < 0) a += x->rank;
        if (a < 0 || a >= x->rank) continue;
        int64_t dim = x->dims[a], st = has_strides ? s->ints[s->count == 1 ? 0 : i] : 1, lo = b->ints[i];
        if (size_mode) st = 1;
        if (lo < 0) lo += dim;
        lo = st > 0 ? BYOC__MAX(0, BYOC__MIN(lo, dim)) : BYOC__MAX(-1, BYOC__MIN(lo, dim - 1));
        begin[a] = lo;
        step[a] = st;
    }
    int64_t src_off = 0, src_str[BYOC_MAX_RANK];
    for (int d = 0; d < x->rank; ++d) {
        src_str[d] = istr[d] * step[d];
        if (o->dims[d] > 0) src_off += begin[d] * istr[d];
    }
    size_t es = byoc_dtype_size(x->dtype);
    byoc__copy_strided(o->rank, o->dims, (char *)o->data, ostr, (const char *)x->data + src_off * (int64_t)es, src_str,
                       es);
    return BYOC_OK;
}

/* take along an axis (or from the flattened data when axis is None), with batch_dims leading axes
   shared by data and indices; mode clip clamps, wrap wraps, fast counts negative indices from the
   end (and clamps what is still outside, rather than read out of bounds) */
BYOC__PRIVATE int64_t byoc__take_index(int64_t i, int64_t extent, int mode) {
    if (mode == 1) { /* wrap */
        i %= extent;
        return i < 0 ? i + extent : i;
    }
    if (mode == 2 && i < 0) i += extent;
    return i < 0 ? 0 : i >= extent ? extent - 1 : i;
}
static byoc_result byoc__k_take(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0], *ind = &k->in[1], *o = &k->out[0];
    const char *mode_s = byoc__kstr(k, "mode", "clip");
    int mode = !strcmp(mode_s, "wrap") ? 1 : !strcmp(mode_s, "fast") ? 2 : 0;
    size_t es = byoc_dtype_size(x->dtype), isz = byoc_dtype_size(ind->dtype);
    const byoc_attr_value *ax = byoc__kattr(k, "axis");
    int64_t nind = byoc__numel(ind);
    if (!ax || ax->kind == BYOC_ATTR_NONE) {
        int64_t n = byoc__numel(x);
        if (n == 0) { memset(o->data, 0, byoc__nbytes(o)); return BYOC_OK; }
        for (int64_t j = 0; j < nind; ++j)
            memcpy((char *)o->data + j * (int64_t)es,
                   (const char *)x->data +
                       byoc__take_index(byoc__int_at(ind->dtype, (const char *)ind->data + j * (int64_t)isz), n, mode) *
                           (int64_t)es,
                   es);
        return BYOC_OK;
    }
    int axis = byoc__kaxis(k, "axis", 0, x->rank);
    int64_t bd = byoc__kint(k, "batch_dims", 0);
    if (bd < 0) bd += ind->rank;
    if (bd < 0 || bd > axis || bd > ind->rank)
        return byoc__kfail(k, "no host kernel for batch_dims=%lld with axis=%d",
                           (long long)byoc__kint(k, "batch_dims", 0), axis);
    int64_t batch = byoc__dims_prod(x->dims, 0, (int)bd), pre = byoc__dims_prod(x->dims, (int)bd, axis),
            A = x->dims[axis];
    int64_t post = byoc__dims_prod(x->dims, axis + 1, x->rank),
            per_batch = byoc__dims_prod(ind->dims, (int)bd, ind->rank);
    if (A == 0) { memset(o->data, 0, byoc__nbytes(o)); return BYOC_OK; }
    size_t row = (size_t)post * es;
    char *op = (char *)o->data;
    for (int64_t bi = 0; bi < batch; ++bi)
        for (int64_t p = 0; p < pre; ++p)
            for (int64_t j = 0; j < per_batch; ++j, op += row) {
                int64_t i = byoc__take_index(
                    byoc__int_at(ind->dtype, (const char *)ind->data + (bi * per_batch + j) * (int64_t)isz), A, mode);
                memcpy(op, (const char *)x->data + ((bi * pre + p) * A + i) * (int64_t)row, row);
            }
    return BYOC_OK;
}

/* DCR: out[n, c, h*bs + i, w*bs + j] = x[n, (i*bs + j) * C' + c, h, w]; CRD: x[n, c*bs*bs + i*bs + j, h, w] */
static byoc_result byoc__k_depth_to_space(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0], *o = &k->out[0];
    int64_t bs = byoc__kint(k, "block_size", 1), C = x->dims[1], H = x->dims[2], W = x->dims[3], Co = o->dims[1];
    int crd = !strcmp(byoc__kstr(k, "mode", "DCR"), "CRD");
    int64_t dims[6] = {x->dims[0], Co, H, bs, W, bs}, dst[6], src[6];
    byoc__strides_of(6, dims, dst);
    src[0] = C * H * W;
    src[1] = crd ? bs * bs * H * W : H * W;
    src[2] = W;
    src[3] = crd ? bs * H * W : bs * Co * H * W;
    src[4] = 1;
    src[5] = crd ? H * W : Co * H * W;
    byoc__copy_strided(6, dims, (char *)o->data, dst, (const char *)x->data, src, byoc_dtype_size(x->dtype));
    return BYOC_OK;
}

static byoc_result byoc__k_broadcast_to(byoc__kctx *k) {
    const byoc_tensor *ops[2] = {&k->out[0], &k->in[0]};
    byoc__bcast bc;
    byoc__bcast_init(&bc, ops, 2);
    if (byoc__numel(&k->out[0]) == 0) return BYOC_OK;
    byoc__copy_strided(bc.rank, bc.dims, (char *)k->out[0].data, bc.strides[0], (const char *)k->in[0].data,
                       bc.strides[1], byoc_dtype_size(k->in[0].dtype));
    return BYOC_OK;
}

/* pad: constant fills with the pad value (the optional second argument, else 0) and copies the input
   inside; edge and reflect map every output index of each axis to its source index */
static size_t byoc__ws_pad(const byoc__kctx *k) {
    size_t n = 0;
    for (int d = 0; d < k->out[0].rank; ++d) n += (size_t)k->out[0].dims[d];
    return n * sizeof(int64_t);
}
/* lo: the leading pad of each axis; pad_value: the constant's bytes (NULL: zero) */
BYOC__PRIVATE byoc_result byoc__pad_run(byoc__kctx *k, const int64_t *lo, const void *pad_value) {
    const byoc_tensor *x = &k->in[0], *o = &k->out[0];
    const char *mode = byoc__kstr(k, "pad_mode", "constant");
    size_t es = byoc_dtype_size(x->dtype);
    int rank = x->rank;
    int64_t istr[BYOC_MAX_RANK], ostr[BYOC_MAX_RANK];
    byoc__strides_of(rank, x->dims, istr);
    byoc__strides_of(rank, o->dims, ostr);
    int64_t total = byoc__numel(o);
    if (total == 0) return BYOC_OK;
    if (!strcmp(mode, "constant") || byoc__numel(x) == 0) {
        unsigned char value[8] = {0};
        if (pad_value) memcpy(value, pad_value, es);
        char *od = (char *)o->data;
        int zero = 1;
        for (size_t b = 0; b < es; ++b) zero &= value[b] == 0;
        if (zero) memset(od, 0, (size_t)total * es);
        else {
            memcpy(od, value, es);
            for (int64_t have = 1; have < total; have *= 2)
                memcpy(od + have * (int64_t)es, od, (size_t)BYOC__MIN(have, total - have) * es);
        }
        int64_t off = 0;
        for (int d = 0; d < rank; ++d) off += lo[d] * ostr[d];
        byoc__copy_strided(rank, x->dims, od + off * (int64_t)es, ostr, (const char *)x->data, istr, es);
        return BYOC_OK;
    }
    int reflect = !strcmp(mode, "reflect");
    int64_t *map[BYOC_MAX_RANK], *at = (int64_t *)k->ws;
    for (int d = 0; d < rank; ++d) {
        map[d] = at;
        at += o->dims[d];
        int64_t n = x->dims[d];
        for (int64_t j = 0; j < o->dims[d]; ++j) {
            int64_t i = j - lo[d];
            if (!reflect || n == 1) i = i < 0 ? 0 : i >= n ? n - 1 : i;
            else { /* numpy's reflect, repeated as often as the padding needs */
                int64_t period = 2 * (n - 1);
                i %= period;
                if (i < 0) i += period;
                if (i >= n) i = period - i;
            }
            map[d][j] = i * istr[d];
        }
    }
    int64_t idx[BYOC_MAX_RANK] = {0}, inner = rank ? o->dims[rank - 1] : 1;
    char *od = (char *)o->data;
    const char *xd = (const char *)x->data;
    if (rank == 0) { memcpy(od, xd, es); return BYOC_OK; }
    for (;;) {
        int64_t src = 0;
        for (int d = 0; d < rank - 1; ++d) src += map[d][idx[d]];
        for (int64_t j = 0; j < inner; ++j, od += es) memcpy(od, xd + (src + map[rank - 1][j]) * (int64_t)es, es);
        int d = rank - 2;
        for (; d >= 0; --d) {
            if (++idx[d] < o->dims[d]) break;
            idx[d] = 0;
        }
        if (d < 0) return BYOC_OK;
    }
}
static byoc_result byoc__k_pad(byoc__kctx *k) {
    const byoc_attr_value *pw = byoc__kattr(k, "pad_width");
    int64_t lo[BYOC_MAX_RANK];
    for (int d = 0; d < k->in[0].rank; ++d) lo[d] = pw && pw->count >= 2 * k->in[0].rank ? pw->ints[2 * d] : 0;
    return byoc__pad_run(k, lo, k->nin > 1 ? k->in[1].data : NULL);
}

/* ---- cast: any dtype to any dtype, through double (float sources) or int64 (integer and bool
   sources; uint64 as its bits), 256 elements at a time; float to integer truncates toward zero and
   saturates (NaN is 0), integer to narrower integer wraps, anything to bool is != 0, and a float
   narrows with one rounding ---- */
BYOC__PRIVATE int64_t byoc__f64_to_i64_sat(double v) {
    if (v != v) return 0;
    if (v >= 9223372036854775808.0) return INT64_MAX;
    if (v <= -9223372036854775808.0) return INT64_MIN;
    return (int64_t)v;
}
/* the bits of the uint64 nearest v toward zero, saturated */
BYOC__PRIVATE int64_t byoc__f64_to_u64_sat(double v) {
    if (!(v > 0)) return 0;
    if (v >= 18446744073709551616.0) return -1;
    return (int64_t)(uint64_t)v;
}
BYOC__PRIVATE int64_t byoc__clamp_i64(int64_t v, byoc_dtype dt) {
    int64_t lo, hi;
    byoc__int_range(dt, &lo, &hi);
    return v < lo ? lo : v > hi ? hi : v;
}
/* n float16 / bfloat16 / float32 values to float32 and back */
BYOC__PRIVATE void byoc__to_f32(byoc_dtype dt, const void *src, float *dst, int64_t n) {
    const uint16_t *h = (const uint16_t *)src;
    if (dt == BYOC_FLOAT32) memcpy(dst, src, (size_t)n * sizeof(float));
    else if (dt == BYOC_FLOAT16) for (int64_t i = 0; i < n; ++i) dst[i] = byoc__f16_to_f32(h[i]);
    else for (int64_t i = 0; i < n; ++i) dst[i] = byoc__bf16_to_f32(h[i]);
}
BYOC__PRIVATE void byoc__from_f32(byoc_dtype dt, const float *src, void *dst, int64_t n) {
    uint16_t *h = (uint16_t *)dst;
    if (dt == BYOC_FLOAT32) memcpy(dst, src, (size_t)n * sizeof(float));
    else if (dt == BYOC_FLOAT16) for (int64_t i = 0; i < n; ++i) h[i] = byoc__f32_to_f16(src[i]);
    else for (int64_t i = 0; i < n; ++i) h[i] = byoc__f32_to_bf16(src[i]);
}

static byoc_result byoc__k_cast(byoc__kctx *k) {
    byoc_dtype from = k->in[0].dtype, to = k->out[0].dtype;
    int64_t n = byoc__numel(&k->out[0]);
    size_t fs = byoc_dtype_size(from), ts = byoc_dtype_size(to);
    const char *src = (const char *)k->in[0].data;
    char *dst = (char *)k->out[0].data;
    if (from == to) { memmove(dst, src, (size_t)n * fs); return BYOC_OK; }
    int from_float = byoc_dtype_is_float(from), to_float = byoc_dtype_is_float(to), from_u64 = from == BYOC_UINT64;
    double fbuf[256];
    int64_t ibuf[256];
    for (int64_t at = 0; at < n; at += 256) {
        int64_t m = BYOC__MIN(256, n - at), i;
        const char *s = src + at * (int64_t)fs;
        char *d = dst + at * (int64_t)ts;
        if (from_float) for (i = 0; i < m; ++i) fbuf[i] = byoc__load(from, s, i);
        else for (i = 0; i < m; ++i) ibuf[i] = byoc__int_at(from, s + i * (int64_t)fs);
        if (to_float && !from_float && to != BYOC_FLOAT64) { /* one rounding from the integer: through float32 */
            float f32[256];
            for (i = 0; i < m; ++i) f32[i] = from_u64 ? (float)(uint64_t)ibuf[i] : (float)ibuf[i];
            byoc__from_f32(to, f32, d, m);
        } else if (to_float) {
            if (!from_float) for (i = 0; i < m; ++i) fbuf[i] = from_u64 ? (double)(uint64_t)ibuf[i] : (double)ibuf[i];
            for (i = 0; i < m; ++i) byoc__store(to, d, i, fbuf[i]);
        } else if (to == BYOC_BOOL) {
            for (i = 0; i < m; ++i) d[i] = (char)(from_float ? fbuf[i] != 0 : ibuf[i] != 0);
        } else if (from_float) {
            for (i = 0; i < m; ++i)
                byoc__int_put(to, d + i * (int64_t)ts,
                              to == BYOC_UINT64 ? byoc__f64_to_u64_sat(fbuf[i])
                                                : byoc__clamp_i64(byoc__f64_to_i64_sat(fbuf[i]), to));
        } else
            for (i = 0; i < m; ++i) byoc__int_put(to, d + i * (int64_t)ts, ibuf[i]);
    }
    return BYOC_OK;
}

static byoc_result byoc__k_shape_of(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    for (int d = 0; d < x->rank; ++d)
        byoc__int_put(k->out[0].dtype, (char *)k->out[0].data + d * (int64_t)byoc_dtype_size(k->out[0].dtype),
                      x->dims[d]);
    return BYOC_OK;
}

/* ---- image.resize2d: nearest_neighbor (any dtype), linear and cubic (float32), coordinates as TVM's
   topi computes them, in float32 ---- */
enum { BYOC__CTM_HALF_PIXEL, BYOC__CTM_ALIGN_CORNERS, BYOC__CTM_ASYMMETRIC, BYOC__CTM_PYTORCH_HALF_PIXEL };
BYOC__PRIVATE float byoc__resize_coord(int64_t x, int64_t in, int64_t out, int mode) {
    float scale = (float)in / (float)out;
    switch (mode) {
    case BYOC__CTM_ALIGN_CORNERS: return out > 1 ? (float)(in - 1) / (float)(out - 1) * (float)x : 0.0f;
    case BYOC__CTM_ASYMMETRIC: return scale * (float)x;
    case BYOC__CTM_PYTORCH_HALF_PIXEL: return out > 1 ? ((float)x + 0.5f) * scale - 0.5f : 0.0f;
    default: return ((float)x + 0.5f) * scale - 0.5f;
    }
}
BYOC__PRIVATE int64_t byoc__clamp_index(int64_t i, int64_t n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

/* per output index along one axis: 4 source indices and 4 weights (nearest uses the first index,
   linear two, cubic four) */
typedef struct byoc__resize_tap { int64_t at[4]; float w[4]; } byoc__resize_tap;
static size_t byoc__ws_resize2d(const byoc__kctx *k) {
    return (size_t)(k->out[0].dims[2] + k->out[0].dims[3]) * sizeof(byoc__resize_tap);
}
BYOC__PRIVATE void byoc__resize_taps(byoc__resize_tap *taps, int64_t in, int64_t out, int ctm, int method, int rounding,
                                     float alpha, int exclude) {
    for (int64_t x = 0; x < out; ++x) {
        byoc__resize_tap *t = &taps[x];
        float c = byoc__resize_coord(x, in, out, ctm);
        memset(t, 0, sizeof *t);
        if (method == 0 && ctm == BYOC__CTM_ASYMMETRIC && rounding == 3 && out % in == 0) {
            t->at[0] = x / (out / in); /* an integer upscale: exact, as TVM's integer division */
            t->w[0] = 1;
        } else if (method == 0) {
            float r;
            switch (rounding) {
            case 0: r = roundf(c); break;               /* round: halves away from zero */
            case 1: r = ceilf(c - 0.5f); break;         /* round_prefer_floor */
            case 2: r = floorf(c + 0.5f); break;        /* round_prefer_ceil */
            case 3: r = floorf(c + 1e-5f); break;       /* floor (TVM's epsilon) */
            default: r = ceilf(c - 1e-5f); break;       /* ceil */
            }
            t->at[0] = byoc__clamp_index((int64_t)r, in);
            t->w[0] = 1;
        } else if (method == 1) {
            float f = floorf(c);
            t->at[0] = byoc__clamp_index((int64_t)f, in);
            t->at[1] = byoc__clamp_index((int64_t)f + 1, in);
            t->w[1] = c - f;
            t->w[0] = 1.0f - t->w[1];
        } else {
            float f = floorf(c), s = c - f, s2 = s * s, s3 = s2 * s;
            float w[4] = {alpha * (s3 - 2 * s2 + s), (alpha + 2) * s3 - (3 + alpha) * s2 + 1,
                          -(alpha + 2) * s3 + (3 + 2 * alpha) * s2 - alpha * s, -alpha * s3 + alpha * s2};
            float sum = 0;
            for (int i = 0; i < 4; ++i) {
                int64_t src = (int64_t)f - 1 + i;
                if (exclude && (src < 0 || src >= in)) w[i] = 0;
                sum += w[i];
                t->at[i] = byoc__clamp_index(src, in);
            }
            for (int i = 0; i < 4; ++i) t->w[i] = exclude ? w[i] / sum : w[i];
        }
    }
}
static byoc_result byoc__k_resize2d(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0], *o = &k->out[0];
    const char *method_s = byoc__kstr(k, "method", "linear"),
               *ctm_s = byoc__kstr(k, "coordinate_transformation_mode", "half_pixel");
    const char *round_s = byoc__kstr(k, "rounding_method", "");
    int method = !strcmp(method_s, "nearest_neighbor") ? 0
                 : !strcmp(method_s, "linear")         ? 1
                 : !strcmp(method_s, "cubic")          ? 2
                                                       : -1;
    int ctm = !strcmp(ctm_s, "half_pixel")           ? BYOC__CTM_HALF_PIXEL
              : !strcmp(ctm_s, "align_corners")      ? BYOC__CTM_ALIGN_CORNERS
              : !strcmp(ctm_s, "asymmetric")         ? BYOC__CTM_ASYMMETRIC
              : !strcmp(ctm_s, "pytorch_half_pixel") ? BYOC__CTM_PYTORCH_HALF_PIXEL
                                                     : -1;
    if (!*round_s) round_s = ctm == BYOC__CTM_ALIGN_CORNERS ? "round" : "floor"; /* TVM's default */
    int rounding = !strcmp(round_s, "round")                ? 0
                   : !strcmp(round_s, "round_prefer_floor") ? 1
                   : !strcmp(round_s, "round_prefer_ceil")  ? 2
                   : !strcmp(round_s, "floor")              ? 3
                   : !strcmp(round_s, "ceil")               ? 4
                                                            : -1;
    if (method < 0) return byoc__kfail(k, "no host kernel for method=\"%s\"", method_s);
    if (ctm < 0) return byoc__kfail(k, "no host kernel for coordinate_transformation_mode=\"%s\"", ctm_s);
    if (rounding < 0 && method == 0) return byoc__kfail(k, "no host kernel for rounding_method=\"%s\"", round_s);
    if (x->dtype != o->dtype)
        return byoc__kfail(k, "no host kernel from %s to out_dtype %s", byoc_dtype_name(x->dtype),
                           byoc_dtype_name(o->dtype));
    if (method && x->dtype != BYOC_FLOAT32)
        return byoc__kfail(k, "no host kernel for method=\"%s\" on %s", method_s, byoc_dtype_name(x->dtype));
    int64_t H = x->dims[2], W = x->dims[3], OH = o->dims[2], OW = o->dims[3], planes = x->dims[0] * x->dims[1];
    byoc__resize_tap *ty = (byoc__resize_tap *)k->ws, *tx = ty + OH;
    float alpha = (float)byoc__kfloat(k, "cubic_alpha", -0.5);
    int exclude = (int)byoc__kint(k, "cubic_exclude", 0);
    byoc__resize_taps(ty, H, OH, ctm, method, rounding, alpha, exclude);
    byoc__resize_taps(tx, W, OW, ctm, method, rounding, alpha, exclude);
    if (method == 0) {
        size_t es = byoc_dtype_size(x->dtype);
        char *od = (char *)o->data;
        for (int64_t p = 0; p < planes; ++p) {
            const char *plane = (const char *)x->data + p * H * W * (int64_t)es;
            for (int64_t oy = 0; oy < OH; ++oy) {
                const char *row = plane + ty[oy].at[0] * W * (int64_t)es;
                for (int64_t ox = 0; ox < OW; ++ox, od += es) memcpy(od, row + tx[ox].at[0] * (int64_t)es, es);
            }
        }
        return BYOC_OK;
    }
    int taps = method == 1 ? 2 : 4;
    float *od = (float *)o->data;
    for (int64_t p = 0; p < planes; ++p) {
        const float *plane = (const float *)x->data + p * H * W;
        for (int64_t oy = 0; oy < OH; ++oy)
            for (int64_t ox = 0; ox < OW; ++ox) {
                float v = 0;
                for (int i = 0; i < taps; ++i) { /* along x in each source row, then along y */
                    const float *row = plane + ty[oy].at[i] * W;
                    float r = 0;
                    for (int j = 0; j < taps; ++j) r += row[tx[ox].at[j]] * tx[ox].w[j];
                    v += r * ty[oy].w[i];
                }
                *od++ = v;
            }
    }
    return BYOC_OK;
}

/* ---- convolutions and products (float32 through byoc_sgemm; integers by plain int64 loops, each
   product accumulated exactly and wrapped into the result dtype) ---- */
BYOC__PRIVATE size_t byoc__gemm_ws(void) { return byoc_sgemm_workspace_size(); }

/* C[M, N] (integer dtype oc) = op(A) * op(B) for integer A, B of any integer dtype */
BYOC__PRIVATE void byoc__igemm(int ta, int tb, int64_t M, int64_t N, int64_t K, byoc_dtype at, const char *A,
                               byoc_dtype bt, const char *B, byoc_dtype ct, char *C) {
    size_t as = byoc_dtype_size(at), bs = byoc_dtype_size(bt), cs = byoc_dtype_size(ct);
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            uint64_t acc = 0;
            for (int64_t p = 0; p < K; ++p) {
                int64_t a = byoc__int_at(at, A + (ta ? p * M + i : i * K + p) * (int64_t)as),
                        b = byoc__int_at(bt, B + (tb ? j * K + p : p * N + j) * (int64_t)bs);
                acc += (uint64_t)a * (uint64_t)b;
            }
            byoc__int_put(ct, C + (i * N + j) * (int64_t)cs, (int64_t)acc);
        }
}
/* integer kernels accept integer inputs and an integer result (out_dtype may widen, e.g. int8 to int32) */
BYOC__PRIVATE int byoc__int_product_ok(const byoc__kctx *k) {
    return byoc__is_int_dtype(k->in[0].dtype) && byoc__is_int_dtype(k->in[1].dtype) &&
           byoc__is_int_dtype(k->out[0].dtype);
}
BYOC__PRIVATE byoc_result byoc__product_dtypes(byoc__kctx *k) {
    if (k->in[0].dtype == BYOC_FLOAT32 && k->in[1].dtype == BYOC_FLOAT32 && k->out[0].dtype == BYOC_FLOAT32)
        return BYOC_OK;
    if (byoc__int_product_ok(k)) return BYOC_OK;
    if (k->in[0].dtype != k->out[0].dtype)
        return byoc__kfail(k, "no host kernel from %s to out_dtype %s", byoc_dtype_name(k->in[0].dtype),
                           byoc_dtype_name(k->out[0].dtype));
    return byoc__kfail_dtype(k, k->in[0].dtype);
}

typedef struct byoc__conv_geom {
    int64_t N, C, H, W, O, OH, OW, KH, KW, G, Cg, Og, sh, sw, dh, dw, pt, pl;
} byoc__conv_geom;
/* conv2d: weight [O, C/G, KH, KW]; conv2d_transpose: weight [C, O/G, KH, KW] */
BYOC__PRIVATE void byoc__conv_geom_of(const byoc__kctx *k, byoc__conv_geom *g) {
    const byoc_tensor *x = &k->in[0], *w = &k->in[1], *o = &k->out[0];
    int64_t st[2], dil[2], pad[4];
    byoc__kints(k, "strides", st, 2, 1);
    byoc__kints(k, "dilation", dil, 2, 1);
    byoc__kints(k, "padding", pad, 4, 0);
    g->N = x->dims[0]; g->C = x->dims[1]; g->H = x->dims[2]; g->W = x->dims[3];
    g->O = o->dims[1]; g->OH = o->dims[2]; g->OW = o->dims[3]; g->KH = w->dims[2]; g->KW = w->dims[3];
    g->G = byoc__kint(k, "groups", 1);
    if (g->G < 1) g->G = 1;
    g->Cg = g->C / g->G;
    g->Og = g->O / g->G;
    g->sh = st[0]; g->sw = st[1]; g->dh = dil[0]; g->dw = dil[1]; g->pt = pad[0]; g->pl = pad[1];
}
BYOC__PRIVATE int byoc__conv_is_pointwise(const byoc__conv_geom *g, const byoc__kctx *k) {
    int64_t pad[4];
    byoc__kints(k, "padding", pad, 4, 0);
    return g->KH == 1 && g->KW == 1 && g->sh == 1 && g->sw == 1 && !pad[0] && !pad[1] && !pad[2] && !pad[3];
}

/* columns [p0, p1) (output pixels oy * OW + ox) of one group's patch matrix, rows (c, ky, kx): the
   block is (p1 - p0) wide, so a conv over a large image never builds the whole matrix */
BYOC__PRIVATE void byoc__im2col(const float *x, const byoc__conv_geom *g, int64_t p0, int64_t p1, float *col) {
    int64_t width = p1 - p0;
    for (int64_t c = 0; c < g->Cg; ++c)
        for (int64_t ky = 0; ky < g->KH; ++ky)
            for (int64_t kx = 0; kx < g->KW; ++kx, col += width) {
                int64_t off = kx * g->dw - g->pl, x0, x1;
                byoc__valid_cols(off, g->sw, g->W, g->OW, &x0, &x1);
                for (int64_t p = p0; p < p1;) {
                    int64_t oy = p / g->OW, a = p - oy * g->OW,
                            b = BYOC__MIN(g->OW, a + (p1 - p)); /* columns [a, b) of row oy */
                    float *drow = col + (p - p0) - a;
                    int64_t iy = oy * g->sh - g->pt + ky * g->dh, lo = BYOC__MAX(a, x0), hi = BYOC__MIN(b, x1);
                    if (iy < 0 || iy >= g->H || lo >= hi) {
                        memset(drow + a, 0, (size_t)(b - a) * sizeof(float));
                    } else {
                        const float *srow = x + (c * g->H + iy) * g->W + off;
                        memset(drow + a, 0, (size_t)(lo - a) * sizeof(float));
                        if (g->sw == 1) memcpy(drow + lo, srow + lo, (size_t)(hi - lo) * sizeof(float));
                        else for (int64_t ox = lo; ox < hi; ++ox) drow[ox] = srow[ox * g->sw];
                        memset(drow + hi, 0, (size_t)(b - hi) * sizeof(float));
                    }
                    p += b - a;
                }
            }
}

/* output pixels per patch-matrix block: about 2 MB of it at a time, so it is still in cache when the
   GEMM packs it */
BYOC__PRIVATE int64_t byoc__im2col_block(const byoc__conv_geom *g) {
    int64_t rows = g->Cg * g->KH * g->KW, P = g->OH * g->OW, cols = ((int64_t)1 << 19) / (rows ? rows : 1);
    return BYOC__MIN(P, BYOC__MAX(cols, 256));
}
/* one input channel per group and few outputs per group (depthwise): a direct loop; otherwise GEMM */
BYOC__PRIVATE int byoc__conv_is_direct(const byoc__conv_geom *g) { return g->Cg == 1 && g->Og < 8; }

static size_t byoc__ws_conv2d(const byoc__kctx *k) {
    if (k->in[0].dtype != BYOC_FLOAT32) return 0;
    byoc__conv_geom g;
    byoc__conv_geom_of(k, &g);
    if (byoc__conv_is_direct(&g)) return 0;
    if (byoc__conv_is_pointwise(&g, k)) return byoc__gemm_ws();
    return byoc__gemm_ws() + (size_t)(g.Cg * g.KH * g.KW * byoc__im2col_block(&g)) * sizeof(float) + 64;
}

/* One depthwise output plane. With stride 1 and as many output as input columns, a tap's input is
   the output shifted by a constant offset, so each tap is one run over the whole plane; the few
   columns where that run reads a neighbouring row are saved before and put back after. Otherwise
   row by row. */
BYOC__PRIVATE void byoc__depthwise_plane(const byoc__conv_geom *g, const float *xp, const float *wp, float *op) {
    int64_t P = g->OH * g->OW;
    /* a small stride-1 plane: copied once into a zero-padded buffer, every tap is then one run over
       the output rows at the padded width (the extra columns are dropped at the end), with no edge
       cases; the late layers of MobileNet/ShuffleNet (7x7, 14x14) live here */
    int64_t Hp = g->OH + (g->KH - 1) * g->dh, Wp = g->OW + (g->KW - 1) * g->dw;
    if (g->sh == 1 && g->sw == 1 && Hp * Wp <= 4096) {
        float padded[4096], acc[4096];
        for (int64_t r = 0; r < Hp; ++r)
            for (int64_t c = 0; c < Wp; ++c) {
                int64_t iy = r - g->pt, ix = c - g->pl;
                padded[r * Wp + c] = iy >= 0 && iy < g->H && ix >= 0 && ix < g->W ? xp[iy * g->W + ix] : 0.0f;
            }
        int64_t run = (g->OH - 1) * Wp + g->OW;
        memset(acc, 0, (size_t)run * sizeof(float));
        for (int64_t ky = 0; ky < g->KH; ++ky)
            for (int64_t kx = 0; kx < g->KW; ++kx)
                byoc__axpy_f32(run, wp[ky * g->KW + kx], padded + ky * g->dh * Wp + kx * g->dw, acc);
        for (int64_t oy = 0; oy < g->OH; ++oy) memcpy(op + oy * g->OW, acc + oy * Wp, (size_t)g->OW * sizeof(float));
        return;
    }
    memset(op, 0, (size_t)P * sizeof(float));
    int whole = g->sh == 1 && g->sw == 1 && g->OW == g->W;
    float saved[1024];
    for (int64_t ky = 0; ky < g->KH; ++ky) {
        int64_t shift = ky * g->dh - g->pt; /* iy = oy + shift */
        int64_t oy0 = BYOC__MAX(0, -shift), oy1 = BYOC__MIN(g->OH, g->H - shift);
        for (int64_t kx = 0; whole && oy0 < oy1 && kx < g->KW; ++kx) {
            int64_t off = kx * g->dw - g->pl, x0, x1;
            byoc__valid_cols(off, 1, g->W, g->OW, &x0, &x1);
            int64_t rows = oy1 - oy0, bad = g->OW - (x1 - x0);
            if (x0 >= x1 || bad * rows > 1024) { whole = 0; break; }
            float wv = wp[ky * g->KW + kx], *sv = saved;
            int64_t start = oy0 * g->OW + x0, end = (oy1 - 1) * g->OW + x1;
            for (int64_t oy = oy0; oy < oy1; ++oy) { /* columns outside [x0, x1) inside the run */
                if (oy > oy0) for (int64_t ox = 0; ox < x0; ++ox) *sv++ = op[oy * g->OW + ox];
                if (oy < oy1 - 1) for (int64_t ox = x1; ox < g->OW; ++ox) *sv++ = op[oy * g->OW + ox];
            }
            byoc__axpy_f32(end - start, wv, xp + (oy0 + shift) * g->W + x0 + off, op + start);
            sv = saved;
            for (int64_t oy = oy0; oy < oy1; ++oy) {
                if (oy > oy0) for (int64_t ox = 0; ox < x0; ++ox) op[oy * g->OW + ox] = *sv++;
                if (oy < oy1 - 1) for (int64_t ox = x1; ox < g->OW; ++ox) op[oy * g->OW + ox] = *sv++;
            }
        }
        if (!whole) break;
    }
    if (whole) return;
    memset(op, 0, (size_t)P * sizeof(float)); /* a tap did not fit: start again, row by row */
    for (int64_t oy = 0; oy < g->OH; ++oy) {
        float *orow = op + oy * g->OW;
        for (int64_t ky = 0; ky < g->KH; ++ky) {
            int64_t iy = oy * g->sh - g->pt + ky * g->dh;
            if (iy < 0 || iy >= g->H) continue;
            const float *srow = xp + iy * g->W;
            for (int64_t kx = 0; kx < g->KW; ++kx) {
                int64_t off = kx * g->dw - g->pl, x0, x1;
                byoc__valid_cols(off, g->sw, g->W, g->OW, &x0, &x1);
                byoc__row_tap(BYOC__TAP_AXPY, x1 - x0, wp[ky * g->KW + kx], srow + x0 * g->sw + off, g->sw, orow + x0);
            }
        }
    }
}

static byoc_result byoc__k_conv2d(byoc__kctx *k) {
    byoc_result r = byoc__product_dtypes(k);
    if (r != BYOC_OK) return r;
    byoc__conv_geom g;
    byoc__conv_geom_of(k, &g);
    int64_t P = g.OH * g.OW, KK = g.Cg * g.KH * g.KW;
    if (k->in[0].dtype != BYOC_FLOAT32) { /* integers: the definition, accumulated in int64 */
        byoc_dtype xt = k->in[0].dtype, wt = k->in[1].dtype, ot = k->out[0].dtype;
        const char *x = (const char *)k->in[0].data, *w = (const char *)k->in[1].data;
        char *o = (char *)k->out[0].data;
        size_t xs = byoc_dtype_size(xt), ws = byoc_dtype_size(wt), os = byoc_dtype_size(ot);
        for (int64_t n = 0; n < g.N; ++n)
            for (int64_t oc = 0; oc < g.O; ++oc)
                for (int64_t oy = 0; oy < g.OH; ++oy)
                    for (int64_t ox = 0; ox < g.OW; ++ox) {
                        uint64_t acc = 0;
                        int64_t grp = oc / g.Og;
                        for (int64_t c = 0; c < g.Cg; ++c)
                            for (int64_t ky = 0; ky < g.KH; ++ky) {
                                int64_t iy = oy * g.sh - g.pt + ky * g.dh;
                                if (iy < 0 || iy >= g.H) continue;
                                for (int64_t kx = 0; kx < g.KW; ++kx) {
                                    int64_t ix = ox * g.sw - g.pl + kx * g.dw;
                                    if (ix < 0 || ix >= g.W) continue;
                                    int64_t xv = byoc__int_at(
                                        xt, x + (((n * g.C + grp * g.Cg + c) * g.H + iy) * g.W + ix) * (int64_t)xs);
                                    int64_t wv =
                                        byoc__int_at(wt, w + (((oc * g.Cg + c) * g.KH + ky) * g.KW + kx) * (int64_t)ws);
                                    acc += (uint64_t)xv * (uint64_t)wv;
                                }
                            }
                        byoc__int_put(ot, o + (((n * g.O + oc) * g.OH + oy) * g.OW + ox) * (int64_t)os, (int64_t)acc);
                    }
        return BYOC_OK;
    }
    const float *x = (const float *)k->in[0].data, *w = (const float *)k->in[1].data;
    float *o = (float *)k->out[0].data;
    if (byoc__conv_is_direct(&g)) { /* depthwise: each output plane from one input plane */
        for (int64_t n = 0; n < g.N; ++n)
            for (int64_t oc = 0; oc < g.O; ++oc)
                byoc__depthwise_plane(&g, x + (n * g.C + oc / g.Og) * g.H * g.W, w + oc * g.KH * g.KW,
                                      o + (n * g.O + oc) * P);
        return BYOC_OK;
    }
    int pointwise = byoc__conv_is_pointwise(&g, k);
    unsigned char *gemm_ws = k->ws;
    float *col = pointwise ? NULL : (float *)byoc__align64(k->ws + byoc__gemm_ws());
    int64_t block = pointwise ? P : byoc__im2col_block(&g);
    for (int64_t n = 0; n < g.N; ++n)
        for (int64_t grp = 0; grp < g.G; ++grp) {
            const float *xg = x + (n * g.C + grp * g.Cg) * g.H * g.W;
            float *og = o + (n * g.O + grp * g.Og) * P;
            /* out[Og, P] = W_g[Og, Cg*KH*KW] * patches[Cg*KH*KW, P], a block of columns at a time */
            for (int64_t p0 = 0; p0 < P; p0 += block) {
                int64_t width = BYOC__MIN(block, P - p0);
                if (!pointwise) byoc__im2col(xg, &g, p0, p0 + width, col);
                byoc_sgemm(0, 0, g.Og, width, KK, 1.0f, w + grp * g.Og * KK, KK, pointwise ? xg + p0 : col,
                           pointwise ? P : width, 0.0f, og + p0, P, gemm_ws);
            }
        }
    return BYOC_OK;
}

/* conv2d_transpose: per group, cols[(oc, ky, kx), (iy, ix)] = W_g^T * x_g by GEMM, a block of input
   pixels at a time, then each column value is added where its tap lands in the output (col2im) */
BYOC__PRIVATE int64_t byoc__col2im_block(const byoc__conv_geom *g) {
    int64_t rows = g->Og * g->KH * g->KW, HW = g->H * g->W, cols = ((int64_t)1 << 19) / (rows ? rows : 1);
    return BYOC__MIN(HW, BYOC__MAX(cols, 256));
}
static size_t byoc__ws_conv2d_transpose(const byoc__kctx *k) {
    if (k->in[0].dtype != BYOC_FLOAT32) return 0;
    byoc__conv_geom g;
    byoc__conv_geom_of(k, &g);
    return byoc__gemm_ws() + (size_t)(g.Og * g.KH * g.KW * byoc__col2im_block(&g)) * sizeof(float) + 64;
}
static byoc_result byoc__k_conv2d_transpose(byoc__kctx *k) {
    if (k->in[0].dtype != BYOC_FLOAT32 || k->in[1].dtype != BYOC_FLOAT32 || k->out[0].dtype != BYOC_FLOAT32)
        return byoc__kfail_dtype(k, k->in[0].dtype != BYOC_FLOAT32 ? k->in[0].dtype : k->out[0].dtype);
    byoc__conv_geom g;
    byoc__conv_geom_of(k, &g);
    /* as the forward conv's geometry, the input channels per group are C / G and outputs O / G */
    int64_t Cin_g = g.C / g.G, M = g.Og * g.KH * g.KW, HW = g.H * g.W, P = g.OH * g.OW;
    const float *x = (const float *)k->in[0].data, *w = (const float *)k->in[1].data;
    float *o = (float *)k->out[0].data, *col = (float *)byoc__align64(k->ws + byoc__gemm_ws());
    int64_t block = byoc__col2im_block(&g);
    memset(o, 0, byoc__nbytes(&k->out[0]));
    for (int64_t n = 0; n < g.N; ++n)
        for (int64_t grp = 0; grp < g.G; ++grp) {
            for (int64_t p0 = 0; p0 < HW; p0 += block) {
                int64_t width = BYOC__MIN(block, HW - p0);
                byoc_sgemm(1, 0, M, width, Cin_g, 1.0f, w + grp * Cin_g * M, M, x + (n * g.C + grp * Cin_g) * HW + p0,
                           HW, 0.0f, col, width, k->ws);
                for (int64_t oc = 0; oc < g.Og; ++oc) {
                    float *plane = o + (n * g.O + grp * g.Og + oc) * P;
                    for (int64_t ky = 0; ky < g.KH; ++ky)
                        for (int64_t kx = 0; kx < g.KW; ++kx) {
                            const float *crow = col + ((oc * g.KH + ky) * g.KW + kx) * width;
                            int64_t off = kx * g.dw - g.pl;
                            for (int64_t p = p0; p < p0 + width; ++p) {
                                int64_t iy = p / g.W, ix = p - iy * g.W, oy = iy * g.sh - g.pt + ky * g.dh,
                                        ox = ix * g.sw + off;
                                if (oy >= 0 && oy < g.OH && ox >= 0 && ox < g.OW) plane[oy * g.OW + ox] += crow[p - p0];
                            }
                        }
                }
            }
        }
    return BYOC_OK;
}

/* dense: x[..., K] * W[U, K]^T */
static size_t byoc__ws_gemm_op(const byoc__kctx *k) { return k->in[0].dtype == BYOC_FLOAT32 ? byoc__gemm_ws() : 0; }
static byoc_result byoc__k_dense(byoc__kctx *k) {
    byoc_result r = byoc__product_dtypes(k);
    if (r != BYOC_OK) return r;
    const byoc_tensor *x = &k->in[0], *w = &k->in[1];
    int64_t K = w->dims[1], U = w->dims[0], M = K ? byoc__numel(x) / K : byoc__numel(&k->out[0]) / (U ? U : 1);
    if (x->dtype == BYOC_FLOAT32)
        byoc_sgemm(0, 1, M, U, K, 1.0f, (const float *)x->data, K, (const float *)w->data, K, 0.0f,
                   (float *)k->out[0].data, U, k->ws);
    else
        byoc__igemm(0, 1, M, U, K, x->dtype, (const char *)x->data, w->dtype, (const char *)w->data, k->out[0].dtype,
                    (char *)k->out[0].data);
    return BYOC_OK;
}

/* matmul and batch_matmul: the last two axes multiply, the batch axes broadcast numpy-style */
static byoc_result byoc__k_matmul(byoc__kctx *k) {
    byoc_result r = byoc__product_dtypes(k);
    if (r != BYOC_OK) return r;
    const byoc_tensor *a = &k->in[0], *b = &k->in[1], *o = &k->out[0];
    int ta = (int)byoc__kint(k, "transpose_a", 0),
        tb = (int)byoc__kint(k, "transpose_b", k->code == BYOC__K_BATCH_MATMUL);
    int R = o->rank;
    int64_t M = o->dims[R - 2], N = o->dims[R - 1], K = a->dims[a->rank - (ta ? 2 : 1)];
    int64_t batch = byoc__dims_prod(o->dims, 0, R - 2), a_mat = M * K, b_mat = K * N;
    /* per batch axis of the result, the element step in a and b (0 where it broadcasts) */
    int64_t ast[BYOC_MAX_RANK], bst[BYOC_MAX_RANK];
    int64_t astep = a_mat, bstep = b_mat;
    for (int d = R - 3; d >= 0; --d) {
        int da = d - (R - a->rank), db = d - (R - b->rank);
        ast[d] = da >= 0 && a->dims[da] != 1 ? astep : 0;
        bst[d] = db >= 0 && b->dims[db] != 1 ? bstep : 0;
        if (da >= 0) astep *= a->dims[da];
        if (db >= 0) bstep *= b->dims[db];
    }
    int b_shared = 1, a_full = !ta;
    for (int d = 0; d < R - 2; ++d) { b_shared &= bst[d] == 0; a_full &= ast[d] != 0 || o->dims[d] == 1; }
    int is_float = a->dtype == BYOC_FLOAT32;
    if (is_float && b_shared && a_full) { /* one B for every batch and A's batches stacked: one tall product */
        byoc_sgemm(0, tb, batch * M, N, K, 1.0f, (const float *)a->data, K, (const float *)b->data, tb ? K : N, 0.0f,
                   (float *)o->data, N, k->ws);
        return BYOC_OK;
    }
    int64_t idx[BYOC_MAX_RANK] = {0}, aoff = 0, boff = 0;
    size_t as = byoc_dtype_size(a->dtype), bs = byoc_dtype_size(b->dtype), os = byoc_dtype_size(o->dtype);
    for (int64_t i = 0; i < batch; ++i) {
        if (is_float)
            byoc_sgemm(ta, tb, M, N, K, 1.0f, (const float *)a->data + aoff, ta ? M : K, (const float *)b->data + boff,
                       tb ? K : N, 0.0f, (float *)o->data + i * M * N, N, k->ws);
        else
            byoc__igemm(ta, tb, M, N, K, a->dtype, (const char *)a->data + aoff * (int64_t)as, b->dtype,
                        (const char *)b->data + boff * (int64_t)bs, o->dtype,
                        (char *)o->data + i * M * N * (int64_t)os);
        for (int d = R - 3; d >= 0; --d) {
            aoff += ast[d];
            boff += bst[d];
            if (++idx[d] < o->dims[d]) break;
            aoff -= ast[d] * o->dims[d];
            boff -= bst[d] * o->dims[d];
            idx[d] = 0;
        }
    }
    return BYOC_OK;
}

// [SECTION] impl: host kernels: math (trigonometric, rounding, bitwise, triangular, scans, determinants)
/* (ops: math) attribute tables, type relations, FLOP models and kernels of this family */

// [SECTION] impl: host kernels: indexing (arg-reductions, top-k, gather and scatter, one-hot, einsum)
/* (ops: indexing) attribute tables, type relations, FLOP models and kernels of this family */

// [SECTION] impl: host kernels: spatial sampling (resize, grid sample, RoI align, unpooling)
/* (ops: sampling) attribute tables, type relations, FLOP models and kernels of this family */

// [SECTION] impl: host kernels: N-d windows (1-D and 3-D convolutions and pools)
/* (ops: windows) attribute tables, type relations, FLOP models and kernels of this family */

// [SECTION] impl: host kernels: recurrent and spectral (RNN, LSTM, GRU, DFT, STFT, windows)
/* (ops: recurrent) attribute tables, type relations, FLOP models and kernels of this family */

// [SECTION] impl: host kernels: losses (negative log-likelihood, softmax cross-entropy)
/* (ops: losses) attribute tables, type relations, FLOP models and kernels of this family */

// [SECTION] impl: host kernels: data-dependent shapes (non-zero, unique, compress, NMS)
/* (ops: dynamic) attribute tables, type relations, shape functions, FLOP models and kernels of this family */
/* Ops whose result extents are known only at run time. Their type relations give '?' (BYOC_DIM_ANY)
   for those extents; each run settles them through the op's shape function (the kernel record's
   `shape`, called by byoc__run_time_type for byoc_module_evaluate, FoldConstant and byoc_sim.h) before
   the result is allocated. Shape functions see the argument tensors in their own dtypes (float16 is not
   widened for them). */

/* a stable bottom-up merge sort of idx[0..n) by `before` (a strict order), tmp as scratch */
typedef int (*byoc__before_fn)(const void *ctx, int64_t a, int64_t b);
BYOC__PRIVATE void byoc__sort_indices(int64_t *idx, int64_t *tmp, int64_t n, byoc__before_fn before,
                                      const void *ctx) {
    int64_t *src = idx, *dst = tmp;
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = BYOC__MIN(lo + width, n), hi = BYOC__MIN(lo + 2 * width, n), i = lo, j = mid, o = lo;
            while (i < mid && j < hi) dst[o++] = before(ctx, src[j], src[i]) ? src[j++] : src[i++];
            while (i < mid) dst[o++] = src[i++];
            while (j < hi) dst[o++] = src[j++];
        }
        int64_t *t = src; src = dst; dst = t;
    }
    if (src != idx) memcpy(idx, src, (size_t)n * sizeof *idx);
}

/* element i of a tensor is not zero (NaN counts as non-zero, -0.0 as zero) */
BYOC__PRIVATE int byoc__nonzero_at(const byoc_tensor *t, int64_t i) {
    if (byoc_dtype_is_float(t->dtype)) return byoc__load(t->dtype, t->data, i) != 0;
    return byoc__int_at(t->dtype, (const char *)t->data + i * (int64_t)byoc_dtype_size(t->dtype)) != 0;
}
BYOC__PRIVATE int64_t byoc__count_nonzero(const byoc_tensor *t) {
    int64_t n = byoc__numel(t), count = 0;
    if (t->dtype == BYOC_FLOAT32) {
        const float *f = (const float *)t->data;
        for (int64_t i = 0; i < n; ++i) count += f[i] != 0.0f;
    } else if (t->dtype == BYOC_BOOL || t->dtype == BYOC_UINT8 || t->dtype == BYOC_INT8) {
        const unsigned char *b = (const unsigned char *)t->data;
        for (int64_t i = 0; i < n; ++i) count += b[i] != 0;
    } else
        for (int64_t i = 0; i < n; ++i) count += byoc__nonzero_at(t, i);
    return count;
}

/* ---- argwhere (Relay's): the coordinates of the non-zero elements in memory order, (count, rank) ---- */
static const byoc_type *byoc__rel_argwhere(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                           const byoc_attrs *at) {
    (void)n; (void)at;
    if (!byoc__tensor_arg(ctx, a[0], "the condition")) return NULL;
    int64_t dims[2] = {BYOC_DIM_ANY, a[0]->rank};
    return byoc_type_rel_tensor(ctx, BYOC_INT32, 2, dims);
}
static byoc_result byoc__shape_argwhere(byoc__kctx *k) {
    k->out[0].dims[0] = byoc__count_nonzero(&k->in[0]);
    return BYOC_OK;
}
static byoc_result byoc__k_argwhere(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0], *o = &k->out[0];
    int rank = x->rank;
    int64_t n = byoc__numel(x), coord[BYOC_MAX_RANK] = {0}, row = 0;
    if (byoc__count_nonzero(x) != o->dims[0])
        return byoc__kfail(k, "the result has %lld rows, the condition has %lld non-zero elements",
                           (long long)o->dims[0], (long long)byoc__count_nonzero(x));
    const float *f32 = x->dtype == BYOC_FLOAT32 ? (const float *)x->data : NULL;
    int32_t *rows32 = o->dtype == BYOC_INT32 ? (int32_t *)o->data : NULL;
    for (int64_t i = 0; i < n; ++i) {
        if (f32 ? f32[i] != 0.0f : byoc__nonzero_at(x, i)) {
            for (int d = 0; d < rank; ++d) {
                if (rows32) rows32[row * rank + d] = (int32_t)coord[d];
                else byoc__store(o->dtype, o->data, row * rank + d, (double)coord[d]);
            }
            row++;
        }
        for (int d = rank - 1; d >= 0; --d) { /* the next coordinate, last axis fastest */
            if (++coord[d] < x->dims[d]) break;
            coord[d] = 0;
        }
    }
    return BYOC_OK;
}

/* ---- unique: the distinct slices along an axis (or distinct elements of the flattened input), as
   ONNX Unique: (values, first indices, inverse indices, counts), sorted or in order of first occurrence ---- */
static const byoc_attr_spec byoc__attrs_unique[] = {BYOC__A("sorted", BYOC__BOOL, "True"),
                                                    BYOC__A("axis", BYOC__INT | BYOC__OPT, "None")};
static const byoc_type *byoc__rel_unique(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                         const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0];
    if (!byoc__tensor_arg(ctx, d, "the input")) return NULL;
    const byoc_attr_value *ax = byoc_attrs_get(at, "axis");
    int64_t vdims[BYOC_MAX_RANK], any = BYOC_DIM_ANY, inverse;
    int vrank;
    if (!ax || ax->kind == BYOC_ATTR_NONE) {
        vrank = 1;
        vdims[0] = BYOC_DIM_ANY;
        inverse = byoc_type_num_elements(d); /* -1 ('?') when the input is dynamic */
    } else {
        if (d->rank < 1) return BYOC__FAIL("axis needs an input of rank >= 1");
        int axis = byoc__axis(ctx, ax->i, d->rank, "axis");
        if (axis < 0) return NULL;
        vrank = d->rank;
        memcpy(vdims, d->dims, sizeof vdims);
        vdims[axis] = BYOC_DIM_ANY;
        inverse = d->dims[axis];
    }
    const byoc_type *fields[4] = {byoc_type_rel_tensor(ctx, d->dtype, vrank, vdims),
                                  byoc_type_rel_tensor(ctx, BYOC_INT64, 1, &any),
                                  byoc_type_rel_tensor(ctx, BYOC_INT64, 1, &inverse),
                                  byoc_type_rel_tensor(ctx, BYOC_INT64, 1, &any)};
    return ctx->failed ? NULL : byoc_type_rel_tuple(ctx, fields, 4);
}

/* the input seen as `rows` slices, each slice `pre` runs of `post` elements `rows * post` apart */
typedef struct byoc__slices {
    const char *data;
    byoc_dtype dtype;
    size_t esize;
    int64_t rows, pre, post;
} byoc__slices;
BYOC__PRIVATE void byoc__slices_of(const byoc__kctx *k, byoc__slices *s) {
    const byoc_tensor *x = &k->in[0];
    const byoc_attr_value *ax = byoc__kattr(k, "axis");
    s->data = (const char *)x->data;
    s->dtype = x->dtype;
    s->esize = byoc_dtype_size(x->dtype);
    if (!ax || ax->kind == BYOC_ATTR_NONE || x->rank == 0) {
        s->rows = byoc__numel(x);
        s->pre = s->post = 1;
        return;
    }
    int axis = byoc__kaxis(k, "axis", 0, x->rank);
    s->rows = x->dims[axis];
    s->pre = byoc__dims_prod(x->dims, 0, axis);
    s->post = byoc__dims_prod(x->dims, axis + 1, x->rank);
}
/* -1, 0, 1 as slice a orders before, equal to, after slice b (element by element, numbers compared as
   numbers: floats as double, integers as int64) */
BYOC__PRIVATE int byoc__slice_cmp(const byoc__slices *s, int64_t a, int64_t b) {
    int is_float = byoc_dtype_is_float(s->dtype), is_u64 = s->dtype == BYOC_UINT64;
    for (int64_t p = 0; p < s->pre; ++p)
        for (int64_t q = 0; q < s->post; ++q) {
            int64_t ia = (p * s->rows + a) * s->post + q, ib = (p * s->rows + b) * s->post + q;
            if (is_float) {
                double va = byoc__load(s->dtype, s->data, ia), vb = byoc__load(s->dtype, s->data, ib);
                if (va != vb) return va < vb ? -1 : 1;
            } else {
                int64_t va = byoc__int_at(s->dtype, s->data + ia * (int64_t)s->esize),
                        vb = byoc__int_at(s->dtype, s->data + ib * (int64_t)s->esize);
                if (va != vb) return (is_u64 ? (uint64_t)va < (uint64_t)vb : va < vb) ? -1 : 1;
            }
        }
    return 0;
}
static int byoc__slice_before(const void *ctx, int64_t a, int64_t b) {
    return byoc__slice_cmp((const byoc__slices *)ctx, a, b) < 0;
}
/* Groups the slices: returns the group count; first[g] and count[g] of each group and inverse[r] (the
   group of row r), groups numbered in output order. ws: 4 * rows int64. */
BYOC__PRIVATE int64_t byoc__unique_groups(const byoc__slices *s, int sorted, int64_t *ws, int64_t **first_out,
                                          int64_t **count_out, int64_t **inverse_out) {
    int64_t n = s->rows, *perm = ws, *first = ws + n, *count = ws + 2 * n, *inverse = ws + 3 * n, groups = 0;
    for (int64_t i = 0; i < n; ++i) perm[i] = i;
    byoc__sort_indices(perm, first, n, byoc__slice_before, s); /* first[] is scratch until here */
    for (int64_t j = 0; j < n; ++j) {
        if (j == 0 || byoc__slice_cmp(s, perm[j - 1], perm[j]) != 0) {
            first[groups] = perm[j]; /* the sort is stable: the group's smallest row comes first */
            count[groups++] = 0;
        }
        count[groups - 1]++;
        inverse[perm[j]] = groups - 1;
    }
    if (!sorted) { /* renumber groups by first occurrence: scan rows, a group's first row gives its number */
        int64_t next = 0, *renum = perm; /* perm is free now */
        for (int64_t r = 0; r < n; ++r)
            if (first[inverse[r]] == r) renum[inverse[r]] = next++;
        int64_t *tmp_count = (int64_t *)BYOC_MALLOC((size_t)(groups ? groups : 1) * sizeof(int64_t));
        if (!tmp_count) return -1;
        for (int64_t g = 0; g < groups; ++g) tmp_count[renum[g]] = count[g];
        for (int64_t g = 0; g < groups; ++g) count[g] = tmp_count[g];
        for (int64_t g = 0; g < groups; ++g) tmp_count[renum[g]] = first[g];
        for (int64_t g = 0; g < groups; ++g) first[g] = tmp_count[g];
        for (int64_t r = 0; r < n; ++r) inverse[r] = renum[inverse[r]];
        BYOC_FREE(tmp_count);
    }
    *first_out = first;
    *count_out = count;
    *inverse_out = inverse;
    return groups;
}
static size_t byoc__ws_unique(const byoc__kctx *k) {
    byoc__slices s;
    byoc__slices_of(k, &s);
    return (size_t)(4 * s.rows + 1) * sizeof(int64_t);
}
static byoc_result byoc__shape_unique(byoc__kctx *k) {
    byoc__slices s;
    byoc__slices_of(k, &s);
    int64_t *ws = (int64_t *)BYOC_MALLOC((size_t)(4 * s.rows + 1) * sizeof(int64_t)), *first, *count, *inverse;
    if (!ws) return byoc__diag(k->diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, k->call->id, "%s: out of memory", k->name);
    int64_t groups = byoc__unique_groups(&s, (int)byoc__kint(k, "sorted", 1), ws, &first, &count, &inverse);
    BYOC_FREE(ws);
    if (groups < 0) return byoc__diag(k->diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, k->call->id, "%s: out of memory", k->name);
    const byoc_attr_value *ax = byoc__kattr(k, "axis");
    int axis = !ax || ax->kind == BYOC_ATTR_NONE ? 0 : byoc__kaxis(k, "axis", 0, k->in[0].rank);
    k->out[0].dims[axis] = groups;
    k->out[1].dims[0] = k->out[3].dims[0] = groups;
    return BYOC_OK;
}
static byoc_result byoc__k_unique(byoc__kctx *k) {
    byoc__slices s;
    byoc__slices_of(k, &s);
    int64_t *first, *count, *inverse;
    int64_t groups = byoc__unique_groups(&s, (int)byoc__kint(k, "sorted", 1), (int64_t *)(void *)k->ws, &first,
                                         &count, &inverse);
    if (groups < 0) return byoc__diag(k->diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, k->call->id, "%s: out of memory", k->name);
    if (groups != k->out[1].dims[0] || s.rows != k->out[2].dims[0])
        return byoc__kfail(k, "the results are typed for %lld distinct slices of %lld, the input has %lld of %lld",
                           (long long)k->out[1].dims[0], (long long)k->out[2].dims[0], (long long)groups,
                           (long long)s.rows);
    size_t run = (size_t)s.post * s.esize;
    char *values = (char *)k->out[0].data;
    for (int64_t p = 0; p < s.pre; ++p)
        for (int64_t g = 0; g < groups; ++g, values += run)
            memcpy(values, s.data + (size_t)((p * s.rows + first[g]) * s.post) * s.esize, run);
    int64_t *indices = (int64_t *)k->out[1].data, *inv = (int64_t *)k->out[2].data, *counts = (int64_t *)k->out[3].data;
    for (int64_t g = 0; g < groups; ++g) { indices[g] = first[g]; counts[g] = count[g]; }
    for (int64_t r = 0; r < s.rows; ++r) inv[r] = inverse[r];
    return BYOC_OK;
}
/* elements of a call's first argument, '?' counted as 1 */
BYOC__PRIVATE double byoc__flops_dyn_in(const byoc_node *c) {
    const byoc_type *t = c->nargs ? c->args[0]->checked_type : NULL;
    double n = 1;
    if (!t || t->kind != BYOC_TYPE_TENSOR) return 0;
    for (int i = 0; i < t->rank; ++i) n *= t->dims[i] < 0 ? 1.0 : (double)t->dims[i];
    return n;
}
BYOC__PRIVATE double byoc__flops_unique(const byoc_node *c) { /* a sort: n log n element comparisons */
    double n = byoc__flops_dyn_in(c);
    return n > 1 ? n * log2(n) : n;
}

/* ---- vision.all_class_non_max_suppression: ONNX NonMaxSuppression. Per batch and class, boxes whose
   score passes score_threshold, greedily in falling score order (ties: lower index first), each kept
   unless its IoU with a kept box exceeds iou_threshold, at most max_output_boxes_per_class of them;
   result rows (batch, class, box) int64. Omitted scalars: no boxes, IoU 0, no score threshold. ---- */
static const byoc_attr_spec byoc__attrs_nms[] = {BYOC__A("center_point_box", BYOC__INT, "0")};
BYOC__PRIVATE int byoc__scalar_arg(byoc_type_rel_ctx *ctx, const byoc_type *t, const char *what, int want_float) {
    if (!byoc__tensor_arg(ctx, t, what)) return 0;
    int64_t n = byoc_type_num_elements(t);
    if (t->rank > 1 || (n >= 0 && n > 1) || (t->rank == 1 && t->dims[0] < 0)) {
        BYOC__FAIL("%s must hold one value (a scalar or a 1-element tensor)", what);
        return 0;
    }
    if (want_float != byoc_dtype_is_float(t->dtype) || t->dtype == BYOC_BOOL) {
        BYOC__FAIL("%s must be %s, got %s", what, want_float ? "a float" : "an integer", byoc_dtype_name(t->dtype));
        return 0;
    }
    return 1;
}
static const byoc_type *byoc__rel_nms(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n, const byoc_attrs *at) {
    const byoc_type *boxes = a[0], *scores = a[1];
    if (!byoc__rank_arg(ctx, boxes, "boxes", 3) || !byoc__rank_arg(ctx, scores, "scores", 3) ||
        !byoc__float_arg(ctx, boxes, "boxes") || !byoc__same_dtype(ctx, boxes, scores))
        return NULL;
    if (boxes->dims[2] >= 0 && boxes->dims[2] != 4)
        return BYOC__FAIL("boxes must be (batch, boxes, 4), got %lld coordinates", (long long)boxes->dims[2]);
    if (boxes->dims[0] >= 0 && scores->dims[0] >= 0 && boxes->dims[0] != scores->dims[0])
        return BYOC__FAIL("boxes have %lld batches, scores %lld", (long long)boxes->dims[0],
                          (long long)scores->dims[0]);
    if (boxes->dims[1] >= 0 && scores->dims[2] >= 0 && boxes->dims[1] != scores->dims[2])
        return BYOC__FAIL("there are %lld boxes but scores for %lld", (long long)boxes->dims[1],
                          (long long)scores->dims[2]);
    int64_t cpb = byoc_attrs_int(at, "center_point_box", 0);
    if (cpb != 0 && cpb != 1) return BYOC__FAIL("center_point_box must be 0 or 1, got %lld", (long long)cpb);
    if (n > 2 && !byoc__scalar_arg(ctx, a[2], "max_output_boxes_per_class", 0)) return NULL;
    if (n > 3 && !byoc__scalar_arg(ctx, a[3], "iou_threshold", 1)) return NULL;
    if (n > 4 && !byoc__scalar_arg(ctx, a[4], "score_threshold", 1)) return NULL;
    int64_t dims[2] = {BYOC_DIM_ANY, 3};
    return byoc_type_rel_tensor(ctx, BYOC_INT64, 2, dims);
}

typedef struct byoc__nms_scratch {
    float *corners;  /* per box of the batch: y1, x1, y2, x2 (ordered) */
    float *area;
    float *score;    /* the class's scores */
    int64_t *order, *tmp, *kept;
} byoc__nms_scratch;
BYOC__PRIVATE size_t byoc__nms_bytes(int64_t boxes) { return (size_t)(boxes + 1) * (6 * sizeof(float) + 24); }
BYOC__PRIVATE void byoc__nms_scratch_at(byoc__nms_scratch *s, void *mem, int64_t boxes) {
    int64_t *ints = (int64_t *)mem;
    s->order = ints;
    s->tmp = ints + boxes + 1;
    s->kept = ints + 2 * (boxes + 1);
    s->corners = (float *)(void *)(ints + 3 * (boxes + 1));
    s->area = s->corners + 4 * (boxes + 1);
    s->score = s->area + (boxes + 1);
}
static int byoc__nms_before(const void *ctx, int64_t a, int64_t b) { /* higher score first, then lower index */
    const float *score = (const float *)ctx;
    return score[a] > score[b] || (score[a] == score[b] && a < b);
}
/* box a suppresses box b: IoU above the threshold (degenerate boxes never suppress) */
BYOC__PRIVATE int byoc__nms_suppresses(const byoc__nms_scratch *s, int64_t a, int64_t b, float iou_threshold) {
    const float *p = s->corners + 4 * a, *q = s->corners + 4 * b;
    float h = BYOC__MIN(p[2], q[2]) - BYOC__MAX(p[0], q[0]), w = BYOC__MIN(p[3], q[3]) - BYOC__MAX(p[1], q[1]);
    if (h <= 0 || w <= 0) return 0;
    float inter = h * w, uni = s->area[a] + s->area[b] - inter;
    if (s->area[a] <= 0 || s->area[b] <= 0 || uni <= 0) return 0;
    return inter / uni > iou_threshold;
}
/* runs the selection, writing the first `cap` rows to out (NULL: only counts them); returns the row count */
BYOC__PRIVATE int64_t byoc__nms_run(const byoc__kctx *k, byoc__nms_scratch *s, int64_t *out, int64_t cap) {
    const byoc_tensor *boxes = &k->in[0], *scores = &k->in[1];
    int64_t B = boxes->dims[0], N = boxes->dims[1], C = scores->dims[1], rows = 0;
    int64_t max_out = k->nin > 2 && byoc__numel(&k->in[2]) ? byoc__int_at(k->in[2].dtype, (const char *)k->in[2].data)
                                                            : 0;
    float iou = k->nin > 3 && byoc__numel(&k->in[3]) ? (float)byoc__load(k->in[3].dtype, k->in[3].data, 0) : 0.0f;
    int has_threshold = k->nin > 4 && byoc__numel(&k->in[4]) > 0;
    float threshold = has_threshold ? (float)byoc__load(k->in[4].dtype, k->in[4].data, 0) : 0.0f;
    int center = byoc__kint(k, "center_point_box", 0) == 1;
    if (max_out <= 0) return 0;
    for (int64_t b = 0; b < B; ++b) {
        for (int64_t i = 0; i < N; ++i) {
            float v[4], *c = s->corners + 4 * i;
            for (int j = 0; j < 4; ++j) v[j] = (float)byoc__load(boxes->dtype, boxes->data, (b * N + i) * 4 + j);
            if (center) { /* (x center, y center, width, height) */
                c[0] = v[1] - v[3] / 2; c[2] = v[1] + v[3] / 2;
                c[1] = v[0] - v[2] / 2; c[3] = v[0] + v[2] / 2;
            } else { /* (y1, x1, y2, x2), either corner pair first */
                c[0] = BYOC__MIN(v[0], v[2]); c[2] = BYOC__MAX(v[0], v[2]);
                c[1] = BYOC__MIN(v[1], v[3]); c[3] = BYOC__MAX(v[1], v[3]);
            }
            s->area[i] = (c[2] - c[0]) * (c[3] - c[1]);
        }
        for (int64_t cls = 0; cls < C; ++cls) {
            int64_t candidates = 0, kept = 0;
            for (int64_t i = 0; i < N; ++i) {
                s->score[i] = (float)byoc__load(scores->dtype, scores->data, (b * C + cls) * N + i);
                if (!has_threshold || s->score[i] > threshold) s->order[candidates++] = i;
            }
            byoc__sort_indices(s->order, s->tmp, candidates, byoc__nms_before, s->score);
            for (int64_t j = 0; j < candidates && kept < max_out; ++j) {
                int64_t box = s->order[j], suppressed = 0;
                for (int64_t q = 0; q < kept && !suppressed; ++q)
                    suppressed = byoc__nms_suppresses(s, s->kept[q], box, iou);
                if (suppressed) continue;
                s->kept[kept++] = box;
                if (out && rows < cap) { out[3 * rows] = b; out[3 * rows + 1] = cls; out[3 * rows + 2] = box; }
                rows++;
            }
        }
    }
    return rows;
}
static size_t byoc__ws_nms(const byoc__kctx *k) { return byoc__nms_bytes(k->in[0].dims[1]); }
static byoc_result byoc__shape_nms(byoc__kctx *k) {
    void *mem = BYOC_MALLOC(byoc__nms_bytes(k->in[0].dims[1]));
    if (!mem) return byoc__diag(k->diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, k->call->id, "%s: out of memory", k->name);
    byoc__nms_scratch s;
    byoc__nms_scratch_at(&s, mem, k->in[0].dims[1]);
    k->out[0].dims[0] = byoc__nms_run(k, &s, NULL, 0);
    BYOC_FREE(mem);
    return BYOC_OK;
}
static byoc_result byoc__k_nms(byoc__kctx *k) {
    byoc__nms_scratch s;
    byoc__nms_scratch_at(&s, k->ws, k->in[0].dims[1]);
    int64_t rows = byoc__nms_run(k, &s, (int64_t *)k->out[0].data, k->out[0].dims[0]);
    if (rows != k->out[0].dims[0])
        return byoc__kfail(k, "the result is typed for %lld selected boxes, the selection has %lld",
                           (long long)k->out[0].dims[0], (long long)rows);
    return BYOC_OK;
}
BYOC__PRIVATE double byoc__flops_nms(const byoc_node *c) { /* IoU tests: boxes^2 per class, about 12 flops each */
    const byoc_type *s = c->nargs > 1 ? c->args[1]->checked_type : NULL;
    if (!s || s->kind != BYOC_TYPE_TENSOR || s->rank != 3) return 0;
    double b = s->dims[0] < 0 ? 1 : (double)s->dims[0], cl = s->dims[1] < 0 ? 1 : (double)s->dims[1],
           n = s->dims[2] < 0 ? 1 : (double)s->dims[2];
    return 12.0 * b * cl * n * n;
}

/* ---- Relay's dyn.* ops: a shape-like operand (a new shape, repeats, slice bounds, pads) is a tensor
   computed by the graph, so the result extents are '?' until a run gives its values ---- */
BYOC__PRIVATE BYOC__PRINTF(2, 3) byoc_result byoc__kbad(byoc__kctx *k, const char *fmt, ...) {
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return byoc__diag(k->diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, k->call->id, "%s: %s", k->name, why);
}
/* a 1-D integer operand of static length: its length, or -1 after an error */
BYOC__PRIVATE int byoc__shape_operand(byoc_type_rel_ctx *ctx, const byoc_type *t, const char *what, int max_len) {
    if (!byoc__tensor_arg(ctx, t, what)) return -1;
    if (byoc_dtype_is_float(t->dtype) || t->dtype == BYOC_BOOL) {
        BYOC__FAIL("%s must be an integer tensor, got %s", what, byoc_dtype_name(t->dtype));
        return -1;
    }
    if (t->rank != 1 || t->dims[0] < 0) {
        BYOC__FAIL("%s must be 1-D with a static length", what);
        return -1;
    }
    if (t->dims[0] > max_len) {
        BYOC__FAIL("%s has %lld values, at most %d", what, (long long)t->dims[0], max_len);
        return -1;
    }
    return (int)t->dims[0];
}
/* the values of an integer operand (the type relation bounded its length by BYOC_MAX_RANK) */
BYOC__PRIVATE int byoc__operand_ints(const byoc_tensor *t, int64_t *out) {
    int64_t n = byoc__numel(t);
    for (int64_t i = 0; i < n && i < BYOC_MAX_RANK; ++i)
        out[i] = byoc__int_at(t->dtype, (const char *)t->data + i * (int64_t)byoc_dtype_size(t->dtype));
    return (int)BYOC__MIN(n, BYOC_MAX_RANK);
}
static const byoc_type *byoc__dyn_result(byoc_type_rel_ctx *ctx, byoc_dtype dt, int rank) {
    int64_t dims[BYOC_MAX_RANK];
    for (int i = 0; i < rank; ++i) dims[i] = BYOC_DIM_ANY;
    return byoc_type_rel_tensor(ctx, dt, rank, dims);
}

/* dyn.reshape(data, newshape): newshape as reshape's attribute (0 copies an axis unless allowzero, one
   -1 is inferred), given as a tensor */
static const byoc_attr_spec byoc__attrs_dyn_reshape[] = {BYOC__A("allowzero", BYOC__BOOL, "False")};
static const byoc_type *byoc__rel_dyn_reshape(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                              const byoc_attrs *at) {
    (void)n; (void)at;
    if (!byoc__tensor_arg(ctx, a[0], "data")) return NULL;
    int len = byoc__shape_operand(ctx, a[1], "newshape", BYOC_MAX_RANK);
    return len < 0 ? NULL : byoc__dyn_result(ctx, a[0]->dtype, len);
}
static byoc_result byoc__shape_dyn_reshape(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    int64_t want[BYOC_MAX_RANK], known = 1, total = byoc__numel(x);
    int len = byoc__operand_ints(&k->in[1], want), infer = -1, allowzero = (int)byoc__kint(k, "allowzero", 0);
    for (int i = 0; i < len; ++i) {
        int64_t v = want[i];
        if (v == 0 && !allowzero) {
            if (i >= x->rank) return byoc__kbad(k, "newshape[%d]=0 copies an axis the input does not have", i);
            v = x->dims[i];
        } else if (v == -1) {
            if (infer >= 0) return byoc__kbad(k, "newshape has more than one -1");
            infer = i;
            continue;
        } else if (v < 0 || v > BYOC_MAX_DIM)
            return byoc__kbad(k, "newshape[%d]=%lld is not a size, 0 or -1", i, (long long)v);
        k->out[0].dims[i] = v;
        if (v && known > INT64_MAX / v) return byoc__kbad(k, "newshape has too many elements");
        known *= v;
    }
    if (infer >= 0) {
        if (known == 0 || total % known)
            return byoc__kbad(k, "cannot infer the -1 in newshape: %lld elements into blocks of %lld", (long long)total,
                              (long long)known);
        k->out[0].dims[infer] = total / known;
    } else if (known != total)
        return byoc__kbad(k, "newshape has %lld elements, the input has %lld", (long long)known, (long long)total);
    return BYOC_OK;
}

/* dyn.broadcast_to(data, shape): data broadcast with the shape (numpy's rules both ways, as ONNX Expand) */
static const byoc_type *byoc__rel_dyn_broadcast_to(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                                   const byoc_attrs *at) {
    (void)n; (void)at;
    if (!byoc__tensor_arg(ctx, a[0], "data")) return NULL;
    int len = byoc__shape_operand(ctx, a[1], "shape", BYOC_MAX_RANK);
    return len < 0 ? NULL : byoc__dyn_result(ctx, a[0]->dtype, BYOC__MAX(len, a[0]->rank));
}
static byoc_result byoc__shape_dyn_broadcast_to(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    int64_t want[BYOC_MAX_RANK];
    int len = byoc__operand_ints(&k->in[1], want), rank = k->out[0].rank;
    for (int d = 0; d < rank; ++d) {
        int xi = d - (rank - x->rank), wi = d - (rank - len);
        int64_t u = xi >= 0 ? x->dims[xi] : 1, v = wi >= 0 ? want[wi] : 1;
        if (v < 0 || v > BYOC_MAX_DIM) return byoc__kbad(k, "shape[%d]=%lld is not a size", wi, (long long)v);
        if (u != v && u != 1 && v != 1)
            return byoc__kbad(k, "an input of extent %lld on axis %d does not broadcast to %lld", (long long)u, d,
                              (long long)v);
        k->out[0].dims[d] = u == 1 ? v : u;
    }
    return BYOC_OK;
}

/* dyn.tile(data, reps): each axis repeated (numpy's tile: the shorter of rank and reps is padded with
   leading ones) */
static const byoc_type *byoc__rel_dyn_tile(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                           const byoc_attrs *at) {
    (void)n; (void)at;
    if (!byoc__tensor_arg(ctx, a[0], "data")) return NULL;
    int len = byoc__shape_operand(ctx, a[1], "reps", BYOC_MAX_RANK);
    return len < 0 ? NULL : byoc__dyn_result(ctx, a[0]->dtype, BYOC__MAX(len, a[0]->rank));
}
static byoc_result byoc__shape_dyn_tile(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    int64_t reps[BYOC_MAX_RANK];
    int len = byoc__operand_ints(&k->in[1], reps), rank = k->out[0].rank;
    for (int d = 0; d < rank; ++d) {
        int xi = d - (rank - x->rank), ri = d - (rank - len);
        int64_t u = xi >= 0 ? x->dims[xi] : 1, r = ri >= 0 ? reps[ri] : 1;
        if (r < 0) return byoc__kbad(k, "reps[%d]=%lld is negative", ri, (long long)r);
        if (u && r > BYOC_MAX_DIM / u) return byoc__kbad(k, "axis %d would exceed %d", d, BYOC_MAX_DIM);
        k->out[0].dims[d] = u * r;
    }
    return BYOC_OK;
}
/* The output as (repeat, extent) pairs per axis, the source stride 0 along each repeat; the outer axes
   beyond four are walked here so that one strided copy moves at most eight dims. */
static byoc_result byoc__k_dyn_tile(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0], *o = &k->out[0];
    int rank = o->rank, outer = rank > 4 ? rank - 4 : 0;
    int64_t xd[BYOC_MAX_RANK], istr[BYOC_MAX_RANK], ostr[BYOC_MAX_RANK];
    for (int d = 0; d < rank; ++d) xd[d] = d - (rank - x->rank) >= 0 ? x->dims[d - (rank - x->rank)] : 1;
    byoc__strides_of(rank, xd, istr);
    byoc__strides_of(rank, o->dims, ostr);
    if (byoc__numel(o) == 0) return BYOC_OK;
    int64_t dims[8], dst[8], src[8];
    int nd = 0;
    for (int d = outer; d < rank; ++d) {
        int64_t r = xd[d] ? o->dims[d] / xd[d] : 0;
        dims[nd] = r; dst[nd] = ostr[d] * xd[d]; src[nd++] = 0;
        dims[nd] = xd[d]; dst[nd] = ostr[d]; src[nd++] = istr[d];
    }
    size_t es = byoc_dtype_size(x->dtype);
    int64_t idx[BYOC_MAX_RANK] = {0};
    for (;;) {
        int64_t doff = 0, soff = 0;
        for (int d = 0; d < outer; ++d) { doff += idx[d] * ostr[d]; soff += (idx[d] % xd[d]) * istr[d]; }
        byoc__copy_strided(nd, dims, (char *)o->data + doff * (int64_t)es, dst,
                           (const char *)x->data + soff * (int64_t)es, src, es);
        int d = outer - 1;
        for (; d >= 0; --d) {
            if (++idx[d] < o->dims[d]) break;
            idx[d] = 0;
        }
        if (d < 0) return BYOC_OK;
    }
}

/* dyn.strided_slice(data, begin, end, strides[, axes]): ONNX Slice with its operands as tensors (axes
   omitted: 0, 1, ...), clamped as ONNX clamps them */
static const byoc_type *byoc__rel_dyn_strided_slice(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                                    const byoc_attrs *at) {
    (void)at;
    if (!byoc__tensor_arg(ctx, a[0], "data")) return NULL;
    static const char *const what[] = {"begin", "end", "strides", "axes"};
    int len = -1;
    for (int i = 1; i < n; ++i) {
        int l = byoc__shape_operand(ctx, a[i], what[i - 1], a[0]->rank);
        if (l < 0) return NULL;
        if (len >= 0 && l != len) return BYOC__FAIL("begin, end, strides and axes must have matching lengths");
        len = l;
    }
    return byoc__dyn_result(ctx, a[0]->dtype, a[0]->rank);
}
/* begin and step per axis (the whole axis where none is given) and the result extents */
BYOC__PRIVATE byoc_result byoc__dyn_slice_plan(byoc__kctx *k, int64_t *begin, int64_t *step, int64_t *extent) {
    const byoc_tensor *x = &k->in[0];
    int64_t lo[BYOC_MAX_RANK], hi[BYOC_MAX_RANK], st[BYOC_MAX_RANK], ax[BYOC_MAX_RANK];
    int count = byoc__operand_ints(&k->in[1], lo), seen[BYOC_MAX_RANK] = {0};
    byoc__operand_ints(&k->in[2], hi);
    byoc__operand_ints(&k->in[3], st);
    for (int i = 0; i < count; ++i) ax[i] = i;
    if (k->nin > 4) byoc__operand_ints(&k->in[4], ax);
    for (int d = 0; d < x->rank; ++d) { begin[d] = 0; step[d] = 1; extent[d] = x->dims[d]; }
    for (int i = 0; i < count; ++i) {
        int64_t a = ax[i] < 0 ? ax[i] + x->rank : ax[i];
        if (a < 0 || a >= x->rank) return byoc__kbad(k, "axes[%d]=%lld is out of range for rank %d", i,
                                                     (long long)ax[i], x->rank);
        if (seen[a]++) return byoc__kbad(k, "axis %lld is sliced twice", (long long)a);
        int64_t dim = x->dims[a], s = st[i], b = lo[i], e = hi[i];
        if (s == 0 || s == INT64_MIN) return byoc__kbad(k, "step %lld on axis %lld", (long long)s, (long long)a);
        if (b < 0) b += dim;
        if (e < 0) e += dim;
        if (dim == 0) {
            b = 0;
            extent[a] = 0;
        } else if (s > 0) {
            b = BYOC__MAX(0, BYOC__MIN(b, dim));
            e = BYOC__MAX(0, BYOC__MIN(e, dim));
            extent[a] = e > b ? (e - b - 1) / s + 1 : 0;
        } else {
            b = BYOC__MAX(0, BYOC__MIN(b, dim - 1));
            e = BYOC__MAX(-1, BYOC__MIN(e, dim - 1));
            extent[a] = b > e ? (b - e - 1) / (-s) + 1 : 0;
        }
        begin[a] = b;
        step[a] = s;
    }
    return BYOC_OK;
}
static byoc_result byoc__shape_dyn_strided_slice(byoc__kctx *k) {
    int64_t begin[BYOC_MAX_RANK], step[BYOC_MAX_RANK];
    return byoc__dyn_slice_plan(k, begin, step, k->out[0].dims);
}
static byoc_result byoc__k_dyn_strided_slice(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0], *o = &k->out[0];
    int64_t begin[BYOC_MAX_RANK], step[BYOC_MAX_RANK], extent[BYOC_MAX_RANK], istr[BYOC_MAX_RANK],
        ostr[BYOC_MAX_RANK], src[BYOC_MAX_RANK], off = 0;
    byoc_result r = byoc__dyn_slice_plan(k, begin, step, extent);
    if (r != BYOC_OK) return r;
    for (int d = 0; d < x->rank; ++d)
        if (extent[d] != o->dims[d])
            return byoc__kbad(k, "the result is typed with extent %lld on axis %d, the bounds give %lld",
                              (long long)o->dims[d], d, (long long)extent[d]);
    if (byoc__numel(o) == 0) return BYOC_OK;
    byoc__strides_of(x->rank, x->dims, istr);
    byoc__strides_of(o->rank, o->dims, ostr);
    for (int d = 0; d < x->rank; ++d) { src[d] = istr[d] * step[d]; off += begin[d] * istr[d]; }
    size_t es = byoc_dtype_size(x->dtype);
    byoc__copy_strided(o->rank, o->dims, (char *)o->data, ostr, (const char *)x->data + off * (int64_t)es, src, es);
    return BYOC_OK;
}

/* dyn.nn.pad(data, pad_width[, pad_value]): nn.pad with pad_width a (rank, 2) tensor of (before, after) */
static const byoc_attr_spec byoc__attrs_dyn_pad[] = {BYOC__A("pad_mode", BYOC__STR, "\"constant\"")};
static const byoc_type *byoc__rel_dyn_pad(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                          const byoc_attrs *at) {
    const byoc_type *d = a[0], *pw = a[1];
    if (!byoc__tensor_arg(ctx, d, "data") || !byoc__tensor_arg(ctx, pw, "pad_width")) return NULL;
    if (byoc_dtype_is_float(pw->dtype) || pw->dtype == BYOC_BOOL)
        return BYOC__FAIL("pad_width must be an integer tensor, got %s", byoc_dtype_name(pw->dtype));
    if (pw->rank != 2 || (pw->dims[0] >= 0 && pw->dims[0] != d->rank) || (pw->dims[1] >= 0 && pw->dims[1] != 2))
        return BYOC__FAIL("pad_width must be (%d, 2): (before, after) per axis", d->rank);
    if (n > 2 && (!byoc__tensor_arg(ctx, a[2], "pad_value") || a[2]->rank != 0))
        return BYOC__FAIL("pad_value must be a scalar");
    if (n > 2 && !byoc__same_dtype(ctx, d, a[2])) return NULL;
    const char *mode = byoc_attrs_string(at, "pad_mode", "constant");
    if (strcmp(mode, "constant") && strcmp(mode, "edge") && strcmp(mode, "reflect"))
        return BYOC__FAIL("pad_mode \"%s\" is not one of constant, edge, reflect", mode);
    return byoc__dyn_result(ctx, d->dtype, d->rank);
}
/* the (before, after) pads of each axis, checked */
BYOC__PRIVATE byoc_result byoc__dyn_pads(byoc__kctx *k, int64_t *before, int64_t *after) {
    const byoc_tensor *x = &k->in[0], *pw = &k->in[1];
    size_t es = byoc_dtype_size(pw->dtype);
    for (int d = 0; d < x->rank; ++d) {
        before[d] = byoc__int_at(pw->dtype, (const char *)pw->data + (size_t)(2 * d) * es);
        after[d] = byoc__int_at(pw->dtype, (const char *)pw->data + (size_t)(2 * d + 1) * es);
        if (before[d] < 0 || after[d] < 0 || before[d] > BYOC_MAX_DIM || after[d] > BYOC_MAX_DIM)
            return byoc__kbad(k, "pads (%lld, %lld) on axis %d: only pads in 0..%d are supported (no cropping)",
                              (long long)before[d], (long long)after[d], d, BYOC_MAX_DIM);
        if (x->dims[d] == 0 && before[d] + after[d] > 0 && strcmp(byoc__kstr(k, "pad_mode", "constant"), "constant"))
            return byoc__kbad(k, "axis %d is empty: only constant padding can extend it", d);
    }
    return BYOC_OK;
}
static byoc_result byoc__shape_dyn_pad(byoc__kctx *k) {
    int64_t before[BYOC_MAX_RANK], after[BYOC_MAX_RANK];
    byoc_result r = byoc__dyn_pads(k, before, after);
    for (int d = 0; r == BYOC_OK && d < k->in[0].rank; ++d) k->out[0].dims[d] = k->in[0].dims[d] + before[d] + after[d];
    return r;
}
static byoc_result byoc__k_dyn_pad(byoc__kctx *k) {
    int64_t before[BYOC_MAX_RANK], after[BYOC_MAX_RANK];
    byoc_result r = byoc__dyn_pads(k, before, after);
    if (r != BYOC_OK) return r;
    for (int d = 0; d < k->in[0].rank; ++d)
        if (k->out[0].dims[d] != k->in[0].dims[d] + before[d] + after[d])
            return byoc__kbad(k, "the result is typed with extent %lld on axis %d, the pads give %lld",
                              (long long)k->out[0].dims[d], d, (long long)(k->in[0].dims[d] + before[d] + after[d]));
    return byoc__pad_run(k, before, k->nin > 2 ? k->in[2].data : NULL);
}

/* dyn.squeeze(data, axes) / dyn.expand_dims(data, axes): ONNX Squeeze / Unsqueeze with the axes a
   tensor (expand_dims: positions in the result); the result rank follows from the axes' length */
static const byoc_type *byoc__rel_dyn_squeeze(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                              const byoc_attrs *at) {
    (void)n; (void)at;
    if (!byoc__tensor_arg(ctx, a[0], "data")) return NULL;
    int len = byoc__shape_operand(ctx, a[1], "axes", a[0]->rank);
    return len < 0 ? NULL : byoc__dyn_result(ctx, a[0]->dtype, a[0]->rank - len);
}
static const byoc_type *byoc__rel_dyn_expand_dims(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                                  const byoc_attrs *at) {
    (void)n; (void)at;
    if (!byoc__tensor_arg(ctx, a[0], "data")) return NULL;
    int len = byoc__shape_operand(ctx, a[1], "axes", BYOC_MAX_RANK - a[0]->rank);
    return len < 0 ? NULL : byoc__dyn_result(ctx, a[0]->dtype, a[0]->rank + len);
}
/* marks the axes (normalised to rank) in picked[]; an error for one out of range or repeated */
BYOC__PRIVATE byoc_result byoc__dyn_axes(byoc__kctx *k, const byoc_tensor *axes, int rank, int *picked) {
    int64_t ax[BYOC_MAX_RANK];
    int n = byoc__operand_ints(axes, ax);
    for (int d = 0; d < rank; ++d) picked[d] = 0;
    for (int i = 0; i < n; ++i) {
        int64_t a = ax[i] < 0 ? ax[i] + rank : ax[i];
        if (a < 0 || a >= rank)
            return byoc__kbad(k, "axes[%d]=%lld is out of range for rank %d", i, (long long)ax[i], rank);
        if (picked[a]++) return byoc__kbad(k, "axis %lld is given twice", (long long)a);
    }
    return BYOC_OK;
}
static byoc_result byoc__shape_dyn_squeeze(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    int drop[BYOC_MAX_RANK], r = 0;
    byoc_result res = byoc__dyn_axes(k, &k->in[1], x->rank, drop);
    for (int d = 0; res == BYOC_OK && d < x->rank; ++d) {
        if (drop[d] && x->dims[d] != 1)
            return byoc__kbad(k, "axis %d has extent %lld, not 1", d, (long long)x->dims[d]);
        if (!drop[d]) k->out[0].dims[r++] = x->dims[d];
    }
    return res;
}
static byoc_result byoc__shape_dyn_expand_dims(byoc__kctx *k) {
    const byoc_tensor *x = &k->in[0];
    int fresh[BYOC_MAX_RANK], rank = k->out[0].rank;
    byoc_result res = byoc__dyn_axes(k, &k->in[1], rank, fresh);
    for (int d = 0, from = 0; res == BYOC_OK && d < rank; ++d) k->out[0].dims[d] = fresh[d] ? 1 : x->dims[from++];
    return res;
}

/* dyn.sum, dyn.mean, dyn.max, dyn.min(data, axes): the reductions with the axes a tensor (empty: all) */
static const byoc_attr_spec byoc__attrs_dyn_reduce[] = {BYOC__A("keepdims", BYOC__BOOL, "False")};
static const byoc_type *byoc__rel_dyn_reduce(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                             const byoc_attrs *at) {
    (void)n;
    const byoc_type *d = a[0];
    if (!byoc__tensor_arg(ctx, d, "data")) return NULL;
    int len = byoc__shape_operand(ctx, a[1], "axes", d->rank), keep = (int)byoc_attrs_int(at, "keepdims", 0);
    if (len < 0) return NULL;
    int64_t dims[BYOC_MAX_RANK];
    for (int i = 0; i < d->rank; ++i) /* with keepdims an axis is 1 either way when it is 1 */
        dims[i] = len == 0 ? 1 : keep && d->dims[i] == 1 ? 1 : BYOC_DIM_ANY;
    return byoc_type_rel_tensor(ctx, d->dtype, keep ? d->rank : len == 0 ? 0 : d->rank - len, dims);
}
/* the reduced axes as reduce's attributes, for the static reductions' kernel */
BYOC__PRIVATE byoc_result byoc__dyn_reduce_attrs(byoc__kctx *k, int64_t *axes, byoc_attr *items, byoc_attrs *attrs) {
    int picked[BYOC_MAX_RANK], n = 0, rank = k->in[0].rank;
    byoc_result r = byoc__dyn_axes(k, &k->in[1], rank, picked);
    if (r != BYOC_OK) return r;
    for (int d = 0; d < rank; ++d) if (picked[d] || byoc__numel(&k->in[1]) == 0) axes[n++] = d;
    memset(items, 0, 3 * sizeof *items);
    items[0].name = "axis";
    items[0].value.kind = BYOC_ATTR_INT_LIST;
    items[0].value.ints = axes;
    items[0].value.count = n;
    items[1].name = "keepdims";
    items[1].value.kind = BYOC_ATTR_BOOL;
    items[1].value.i = byoc__kint(k, "keepdims", 0);
    items[2].name = "exclude";
    items[2].value.kind = BYOC_ATTR_BOOL;
    attrs->items = items;
    attrs->count = 3;
    return BYOC_OK;
}
static byoc_result byoc__shape_dyn_reduce(byoc__kctx *k) {
    int64_t axes[BYOC_MAX_RANK];
    byoc_attr items[3];
    byoc_attrs attrs;
    byoc_result r = byoc__dyn_reduce_attrs(k, axes, items, &attrs);
    int keep = byoc__kint(k, "keepdims", 0) != 0, at = 0, red[BYOC_MAX_RANK] = {0};
    for (int i = 0; r == BYOC_OK && i < attrs.items[0].value.count; ++i) red[axes[i]] = 1;
    for (int d = 0; r == BYOC_OK && d < k->in[0].rank; ++d)
        if (!red[d] || keep) k->out[0].dims[at++] = red[d] ? 1 : k->in[0].dims[d];
    if (r == BYOC_OK && at != k->out[0].rank)
        return byoc__kbad(k, "the axes give a result of rank %d, the call's type has rank %d", at, k->out[0].rank);
    return r;
}
static byoc_result byoc__k_dyn_reduce(byoc__kctx *k) {
    int64_t axes[BYOC_MAX_RANK];
    byoc_attr items[3];
    byoc_node call = *k->call;
    byoc_result r = byoc__dyn_reduce_attrs(k, axes, items, &call.attrs);
    if (r != BYOC_OK) return r;
    byoc__kctx reduce = *k;
    reduce.call = &call;
    reduce.nin = 1;
    return byoc__k_reduce(&reduce);
}

/* dyn.full(fill_value, shape): a tensor of the shape filled with the scalar (dtype "": the value's) */
static const byoc_attr_spec byoc__attrs_dyn_full[] = {BYOC__A("dtype", BYOC__STR, "\"\"")};
static const byoc_type *byoc__rel_dyn_full(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                           const byoc_attrs *at) {
    (void)n;
    if (!byoc__tensor_arg(ctx, a[0], "fill_value")) return NULL;
    if (a[0]->rank != 0) return BYOC__FAIL("fill_value must be a scalar");
    int len = byoc__shape_operand(ctx, a[1], "shape", BYOC_MAX_RANK);
    const char *s = byoc_attrs_string(at, "dtype", "");
    byoc_dtype dt = *s ? byoc_dtype_from_name(s) : a[0]->dtype;
    if (dt == BYOC_DTYPE_INVALID) return BYOC__FAIL("unknown dtype \"%s\"", s);
    return len < 0 ? NULL : byoc__dyn_result(ctx, dt, len);
}
static byoc_result byoc__shape_dyn_full(byoc__kctx *k) {
    int64_t want[BYOC_MAX_RANK], total = 1;
    int len = byoc__operand_ints(&k->in[1], want);
    for (int d = 0; d < len; ++d) {
        if (want[d] < 0 || want[d] > BYOC_MAX_DIM)
            return byoc__kbad(k, "shape[%d]=%lld is not a size", d, (long long)want[d]);
        if (want[d] && total > INT64_MAX / want[d]) return byoc__kbad(k, "the shape has too many elements");
        total *= want[d];
        k->out[0].dims[d] = want[d];
    }
    return BYOC_OK;
}
static byoc_result byoc__k_dyn_full(byoc__kctx *k) {
    const byoc_tensor *o = &k->out[0];
    size_t es = byoc_dtype_size(o->dtype);
    int64_t total = byoc__numel(o);
    if (total == 0) return BYOC_OK;
    char *od = (char *)o->data;
    byoc__store(o->dtype, od, 0, byoc__load(k->in[0].dtype, k->in[0].data, 0));
    if (k->in[0].dtype == o->dtype) memcpy(od, k->in[0].data, es); /* exact, int64 included */
    for (int64_t have = 1; have < total; have *= 2) /* doubling copies */
        memcpy(od + have * (int64_t)es, od, (size_t)BYOC__MIN(have, total - have) * es);
    return BYOC_OK;
}

/* arange(start, stop, step) (Relay's, the bounds as scalar tensors): start + i * step while before
   stop, in the bounds' dtype */
static const byoc_type *byoc__rel_arange(byoc_type_rel_ctx *ctx, const byoc_type *const *a, int n,
                                         const byoc_attrs *at) {
    (void)n; (void)at;
    static const char *const what[] = {"start", "stop", "step"};
    for (int i = 0; i < 3; ++i) {
        if (!byoc__tensor_arg(ctx, a[i], what[i])) return NULL;
        if (byoc_type_num_elements(a[i]) != 1 || a[i]->rank > 1) return BYOC__FAIL("%s must be a scalar", what[i]);
        if (a[i]->dtype != a[0]->dtype || a[i]->dtype == BYOC_BOOL)
            return BYOC__FAIL("start, stop and step must share a numeric dtype, got %s, %s, %s",
                              byoc_dtype_name(a[0]->dtype), byoc_dtype_name(a[1]->dtype), byoc_dtype_name(a[2]->dtype));
    }
    int64_t any = BYOC_DIM_ANY;
    return byoc_type_rel_tensor(ctx, a[0]->dtype, 1, &any);
}
/* an integer element, wrapped into its dtype */
BYOC__PRIVATE void byoc__store_int(byoc_dtype dt, void *data, int64_t i, int64_t v) {
    char *p = (char *)data + i * (int64_t)byoc_dtype_size(dt);
    switch (byoc_dtype_size(dt)) {
    case 1: { uint8_t b = (uint8_t)(uint64_t)v; memcpy(p, &b, 1); break; }
    case 2: { uint16_t h = (uint16_t)(uint64_t)v; memcpy(p, &h, 2); break; }
    case 4: { uint32_t w = (uint32_t)(uint64_t)v; memcpy(p, &w, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}
BYOC__PRIVATE int64_t byoc__arange_count(byoc__kctx *k, byoc_result *r) {
    byoc_dtype dt = k->in[0].dtype;
    *r = BYOC_OK;
    if (byoc_dtype_is_float(dt)) {
        double start = byoc__load(dt, k->in[0].data, 0), stop = byoc__load(dt, k->in[1].data, 0),
               step = byoc__load(dt, k->in[2].data, 0), n = ceil((stop - start) / step);
        if (step == 0 || n != n) { *r = byoc__kbad(k, "step is 0 or not a number"); return 0; }
        if (n > BYOC_MAX_DIM) { *r = byoc__kbad(k, "%.0f elements exceed %d", n, BYOC_MAX_DIM); return 0; }
        return n > 0 ? (int64_t)n : 0;
    }
    int64_t start = byoc__int_at(dt, (const char *)k->in[0].data), stop = byoc__int_at(dt, (const char *)k->in[1].data),
            step = byoc__int_at(dt, (const char *)k->in[2].data);
    if (step == 0) { *r = byoc__kbad(k, "step is 0"); return 0; }
    double n = ceil(((double)stop - (double)start) / (double)step); /* doubles: no overflow of stop - start */
    if (n > BYOC_MAX_DIM) { *r = byoc__kbad(k, "%.0f elements exceed %d", n, BYOC_MAX_DIM); return 0; }
    int64_t span = step > 0 ? stop - start : start - stop, mag = step > 0 ? step : -step;
    return n <= 0 ? 0 : (span + mag - 1) / mag;
}
static byoc_result byoc__shape_arange(byoc__kctx *k) {
    byoc_result r;
    k->out[0].dims[0] = byoc__arange_count(k, &r);
    return r;
}
static byoc_result byoc__k_arange(byoc__kctx *k) {
    byoc_tensor *o = &k->out[0];
    byoc_dtype dt = o->dtype;
    int64_t n = o->dims[0];
    if (byoc_dtype_is_float(dt) && dt != BYOC_FLOAT64) { /* float arithmetic, as the spec's loop */
        float start = (float)byoc__load(dt, k->in[0].data, 0), step = (float)byoc__load(dt, k->in[2].data, 0);
        for (int64_t i = 0; i < n; ++i) byoc__store(dt, o->data, i, (double)(start + (float)i * step));
    } else if (dt == BYOC_FLOAT64) {
        double start = byoc__load(dt, k->in[0].data, 0), step = byoc__load(dt, k->in[2].data, 0);
        for (int64_t i = 0; i < n; ++i) byoc__store(dt, o->data, i, start + (double)i * step);
    } else {
        int64_t start = byoc__int_at(dt, (const char *)k->in[0].data),
                step = byoc__int_at(dt, (const char *)k->in[2].data);
        for (int64_t i = 0; i < n; ++i) byoc__store_int(dt, o->data, i, start + i * step);
    }
    return BYOC_OK;
}

// [SECTION] impl: built-in ops (one record each) and running calls
/* ---- FLOP models (byoc_op_def.flops) ---- */
BYOC__PRIVATE double byoc__flops_elems(const byoc_type *t) {
    if (!t || t->kind != BYOC_TYPE_TENSOR) return 0;
    double n = 1;
    for (int i = 0; i < t->rank; ++i) n *= t->dims[i] < 0 ? 1.0 : (double)t->dims[i]; /* '?': at least 1 */
    return n;
}
BYOC__PRIVATE double byoc__flops_out(const byoc_node *c) { return byoc__flops_elems(c->checked_type); }
BYOC__PRIVATE double byoc__flops_in(const byoc_node *c) {
    return c->nargs ? byoc__flops_elems(c->args[0]->checked_type) : 0;
}
BYOC__PRIVATE const byoc_type *byoc__flops_weight(const byoc_node *c) {
    const byoc_type *w = c->nargs > 1 ? c->args[1]->checked_type : NULL;
    return w && w->kind == BYOC_TYPE_TENSOR && w->rank == 4 ? w : NULL;
}
/* a multiply and an add per MAC: each output (conv2d) or input (transposed) element meets a whole filter */
BYOC__PRIVATE double byoc__flops_conv2d(const byoc_node *c) {
    const byoc_type *w = byoc__flops_weight(c);
    return w ? 2.0 * byoc__flops_out(c) * (double)w->dims[1] * (double)w->dims[2] * (double)w->dims[3] : 0;
}
BYOC__PRIVATE double byoc__flops_conv2d_transpose(const byoc_node *c) {
    const byoc_type *w = byoc__flops_weight(c);
    return w ? 2.0 * byoc__flops_in(c) * (double)w->dims[1] * (double)w->dims[2] * (double)w->dims[3] : 0;
}
BYOC__PRIVATE double byoc__flops_gemm(const byoc_node *c) {
    const byoc_type *in = c->nargs ? c->args[0]->checked_type : NULL;
    return in && in->kind == BYOC_TYPE_TENSOR && in->rank ? 2.0 * byoc__flops_out(c) * (double)in->dims[in->rank - 1]
                                                          : 0;
}
BYOC__PRIVATE double byoc__flops_pool2d(const byoc_node *c) {
    const byoc_attr_value *v = byoc_attrs_get(&c->attrs, "pool_size");
    double window = 1;
    if (v && v->kind == BYOC_ATTR_INT_LIST && v->count >= 1)
        window = (double)v->ints[0] * (double)v->ints[v->count > 1 ? 1 : 0];
    return byoc__flops_out(c) * window;
}
BYOC__PRIVATE double byoc__flops_per_input(const byoc_node *c) { return byoc__flops_in(c); }   /* reductions */
BYOC__PRIVATE double byoc__flops_per_output(const byoc_node *c) { return byoc__flops_out(c); } /* arithmetic */
BYOC__PRIVATE double byoc__flops_softmax(const byoc_node *c) { return 12.0 * byoc__flops_out(c); }
BYOC__PRIVATE double byoc__flops_norm(const byoc_node *c) { return 8.0 * byoc__flops_in(c); }
BYOC__PRIVATE double byoc__flops_transcendental(const byoc_node *c) {
    return 10.0 * byoc__flops_out(c);
} /* a polynomial each */
BYOC__PRIVATE double byoc__flops_none(const byoc_node *c) { (void)c; return 0; } /* data movement: counted as bytes */

BYOC_API double byoc_op_flops(const byoc_node *call) {
    if (!call || call->kind != BYOC_NODE_CALL || !call->op || !call->checked_type) return 0;
    if (call->op->def.flops) return call->op->def.flops(call);
    return call->op->def.pattern <= BYOC_PATTERN_BROADCAST ? byoc__flops_out(call) : 0;
}

/* ---- the op table ---- */
enum {
    BYOC__KF_FLOAT = 1,     /* computes in float32: float16 / bfloat16 tensors are widened and narrowed around it */
    BYOC__KF_NO_INPLACE = 2 /* moves bytes with memcpy: its result may not overlap an input */
};
typedef struct byoc__kernel_def {
    byoc_result (*run)(byoc__kctx *k);
    size_t (*workspace)(const byoc__kctx *k); /* NULL: none */
    int code;
    unsigned flags;
    /* NULL, or the data-dependent shape function of an op whose type relation leaves '?' dims that the
       argument shapes do not settle (nonzero's count): from the argument tensors (with data, in their
       own dtypes) it replaces every -1 in out[].dims; no workspace, out[].data NULL */
    byoc_result (*shape)(byoc__kctx *k);
} byoc__kernel_def;

/* The built-in ops, one record each: the op's definition (name, arity, TOpPattern kind, attributes and
   defaults, type relation, doc, device layer class, FLOP model, flags) and its host kernel (run,
   workspace size, variant code, kernel flags). The registry registers them in this order; the test
   suite fails when a record lacks a kernel or a FLOP model. README "Adding an op" is the checklist. */
typedef struct byoc__op_record {
    byoc_op_def def;
    byoc__kernel_def kernel;
} byoc__op_record;

#define BYOC__OP(name, lo, hi, pat, attrs, rel, doc, cls, flops, flags, kernel)                                       \
    {                                                                                                                 \
        {name, lo, hi, BYOC_PATTERN_##pat, attrs, BYOC__N(attrs), rel, NULL, doc, BYOC_OP_CLASS_##cls, flops, flags}, \
            kernel                                                                                                    \
    }
#define BYOC__OP0(name, lo, hi, pat, rel, doc, cls, flops, flags, kernel) \
    {{name, lo, hi, BYOC_PATTERN_##pat, NULL, 0, rel, NULL, doc, BYOC_OP_CLASS_##cls, flops, flags}, kernel}
#define BYOC__K(run, workspace, code, flags) {run, workspace, code, flags, NULL}
#define BYOC__KS(run, workspace, shape, code, flags) {run, workspace, code, flags, shape} /* + a shape function */
#define BYOC__KF BYOC__KF_FLOAT
static const byoc__op_record byoc__builtin_ops[] = {
    BYOC__OP("nn.conv2d", 2, 2, OUT_ELEMWISE_FUSABLE, byoc__attrs_conv2d, byoc__rel_conv2d,
             "2-D convolution, NCHW data, OIHW weight", CONV2D, byoc__flops_conv2d, 0,
             BYOC__K(byoc__k_conv2d, byoc__ws_conv2d, 0, BYOC__KF)),
    BYOC__OP("nn.conv2d_transpose", 2, 2, OUT_ELEMWISE_FUSABLE, byoc__attrs_conv2d_transpose,
             byoc__rel_conv2d_transpose, "transposed 2-D convolution, IOHW weight", NONE, byoc__flops_conv2d_transpose,
             0, BYOC__K(byoc__k_conv2d_transpose, byoc__ws_conv2d_transpose, 0, BYOC__KF)),
    BYOC__OP("nn.dense", 2, 2, OUT_ELEMWISE_FUSABLE, byoc__attrs_dense, byoc__rel_dense, "x * W^T, W is (units, in)",
             DENSE, byoc__flops_gemm, 0, BYOC__K(byoc__k_dense, byoc__ws_gemm_op, BYOC__K_DENSE, BYOC__KF)),
    BYOC__OP("nn.matmul", 2, 2, OUT_ELEMWISE_FUSABLE, byoc__attrs_matmul, byoc__rel_matmul,
             "matrix product over the last two axes, batch axes broadcast", NONE, byoc__flops_gemm, 0,
             BYOC__K(byoc__k_matmul, byoc__ws_gemm_op, BYOC__K_MATMUL, BYOC__KF)),
    BYOC__OP("nn.batch_matmul", 2, 2, OUT_ELEMWISE_FUSABLE, byoc__attrs_batch_matmul, byoc__rel_batch_matmul,
             "batched product, y transposed by default", NONE, byoc__flops_gemm, 0,
             BYOC__K(byoc__k_matmul, byoc__ws_gemm_op, BYOC__K_BATCH_MATMUL, BYOC__KF)),
    BYOC__OP0("add", 2, 2, BROADCAST, byoc__rel_broadcast, "elementwise sum with broadcasting", ELEMWISE,
              byoc__flops_per_output, 0, BYOC__K(byoc__k_binary, NULL, BYOC__K_ADD, BYOC__KF)),
    BYOC__OP0("subtract", 2, 2, BROADCAST, byoc__rel_broadcast, "elementwise difference with broadcasting", ELEMWISE,
              byoc__flops_per_output, 0, BYOC__K(byoc__k_binary, NULL, BYOC__K_SUBTRACT, BYOC__KF)),
    BYOC__OP0("multiply", 2, 2, BROADCAST, byoc__rel_broadcast, "elementwise product with broadcasting", ELEMWISE,
              byoc__flops_per_output, 0, BYOC__K(byoc__k_binary, NULL, BYOC__K_MULTIPLY, BYOC__KF)),
    BYOC__OP0("divide", 2, 2, BROADCAST, byoc__rel_broadcast, "elementwise quotient with broadcasting", ELEMWISE,
              byoc__flops_per_output, 0, BYOC__K(byoc__k_binary, NULL, BYOC__K_DIVIDE, BYOC__KF)),
    BYOC__OP0("power", 2, 2, BROADCAST, byoc__rel_broadcast, "elementwise power with broadcasting", ELEMWISE,
              byoc__flops_transcendental, 0, BYOC__K(byoc__k_binary, NULL, BYOC__K_POWER, BYOC__KF)),
    BYOC__OP0("maximum", 2, 2, BROADCAST, byoc__rel_broadcast, "elementwise maximum with broadcasting", ELEMWISE,
              byoc__flops_per_output, 0, BYOC__K(byoc__k_binary, NULL, BYOC__K_MAXIMUM, BYOC__KF)),
    BYOC__OP0("minimum", 2, 2, BROADCAST, byoc__rel_broadcast, "elementwise minimum with broadcasting", ELEMWISE,
              byoc__flops_per_output, 0, BYOC__K(byoc__k_binary, NULL, BYOC__K_MINIMUM, BYOC__KF)),
    BYOC__OP0("equal", 2, 2, BROADCAST, byoc__rel_compare, "elementwise ==, bool result", NONE, byoc__flops_per_output,
              0, BYOC__K(byoc__k_binary, NULL, BYOC__K_EQUAL, BYOC__KF)),
    BYOC__OP0("less", 2, 2, BROADCAST, byoc__rel_compare, "elementwise <, bool result", NONE, byoc__flops_per_output, 0,
              BYOC__K(byoc__k_binary, NULL, BYOC__K_LESS, BYOC__KF)),
    BYOC__OP0("greater", 2, 2, BROADCAST, byoc__rel_compare, "elementwise >, bool result", NONE, byoc__flops_per_output,
              0, BYOC__K(byoc__k_binary, NULL, BYOC__K_GREATER, BYOC__KF)),
    BYOC__OP0("where", 3, 3, BROADCAST, byoc__rel_where, "select x where condition else y", NONE,
              byoc__flops_per_output, 0, BYOC__K(byoc__k_where, NULL, 0, BYOC__KF_NO_INPLACE)),
    BYOC__OP0("logical_not", 1, 1, ELEMWISE, byoc__rel_logical_not, "boolean negation", NONE, byoc__flops_per_output, 0,
              BYOC__K(byoc__k_logical_not, NULL, 0, 0)),
    BYOC__OP("nn.bias_add", 2, 2, BROADCAST, byoc__attrs_axis1, byoc__rel_bias_add, "add a 1-D bias along axis",
             ELEMWISE, byoc__flops_per_output, BYOC_OP_AXIS_OPERAND, BYOC__K(byoc__k_bias_add, NULL, 0, BYOC__KF)),
    BYOC__OP("nn.prelu", 2, 2, BROADCAST, byoc__attrs_axis1, byoc__rel_prelu, "leaky relu with a per-channel slope",
             NONE, byoc__flops_per_output, BYOC_OP_AXIS_OPERAND, BYOC__K(byoc__k_prelu, NULL, 0, BYOC__KF)),
    BYOC__OP0("nn.relu", 1, 1, ELEMWISE, byoc__rel_identity, "max(x, 0)", ELEMWISE, byoc__flops_per_output, 0,
              BYOC__K(byoc__k_unary, NULL, BYOC__K_RELU, BYOC__KF)),
    BYOC__OP("nn.leaky_relu", 1, 1, ELEMWISE, byoc__attrs_leaky_relu, byoc__rel_identity, "x if x > 0 else alpha * x",
             ELEMWISE, byoc__flops_per_output, 0, BYOC__K(byoc__k_unary, NULL, BYOC__K_LEAKY_RELU, BYOC__KF)),
    BYOC__OP("clip", 1, 1, ELEMWISE, byoc__attrs_clip, byoc__rel_identity, "clamp to [a_min, a_max]", ELEMWISE,
             byoc__flops_per_output, 0, BYOC__K(byoc__k_unary, NULL, BYOC__K_CLIP, BYOC__KF)),
    BYOC__OP0("sigmoid", 1, 1, ELEMWISE, byoc__rel_float_unary, "1 / (1 + exp(-x))", ELEMWISE,
              byoc__flops_transcendental, 0, BYOC__K(byoc__k_unary, NULL, BYOC__K_SIGMOID, BYOC__KF)),
    BYOC__OP0("tanh", 1, 1, ELEMWISE, byoc__rel_float_unary, "hyperbolic tangent", ELEMWISE, byoc__flops_transcendental,
              0, BYOC__K(byoc__k_unary, NULL, BYOC__K_TANH, BYOC__KF)),
    BYOC__OP0("exp", 1, 1, ELEMWISE, byoc__rel_float_unary, "e^x", ELEMWISE, byoc__flops_transcendental, 0,
              BYOC__K(byoc__k_unary, NULL, BYOC__K_EXP, BYOC__KF)),
    BYOC__OP0("log", 1, 1, ELEMWISE, byoc__rel_float_unary, "natural logarithm", ELEMWISE, byoc__flops_transcendental,
              0, BYOC__K(byoc__k_unary, NULL, BYOC__K_LOG, BYOC__KF)),
    BYOC__OP0("sqrt", 1, 1, ELEMWISE, byoc__rel_float_unary, "square root", ELEMWISE, byoc__flops_per_output, 0,
              BYOC__K(byoc__k_unary, NULL, BYOC__K_SQRT, BYOC__KF)),
    BYOC__OP0("rsqrt", 1, 1, ELEMWISE, byoc__rel_float_unary, "1 / sqrt(x)", ELEMWISE, byoc__flops_per_output, 0,
              BYOC__K(byoc__k_unary, NULL, BYOC__K_RSQRT, BYOC__KF)),
    BYOC__OP0("erf", 1, 1, ELEMWISE, byoc__rel_float_unary, "Gauss error function", ELEMWISE,
              byoc__flops_transcendental, 0, BYOC__K(byoc__k_unary, NULL, BYOC__K_ERF, BYOC__KF)),
    BYOC__OP0("negative", 1, 1, ELEMWISE, byoc__rel_identity, "-x", ELEMWISE, byoc__flops_per_output, 0,
              BYOC__K(byoc__k_unary, NULL, BYOC__K_NEGATIVE, BYOC__KF)),
    BYOC__OP0("abs", 1, 1, ELEMWISE, byoc__rel_identity, "|x|", ELEMWISE, byoc__flops_per_output, 0,
              BYOC__K(byoc__k_unary, NULL, BYOC__K_ABS, BYOC__KF)),
    BYOC__OP0("floor", 1, 1, ELEMWISE, byoc__rel_float_unary, "round down", NONE, byoc__flops_per_output, 0,
              BYOC__K(byoc__k_unary, NULL, BYOC__K_FLOOR, BYOC__KF)),
    BYOC__OP0("ceil", 1, 1, ELEMWISE, byoc__rel_float_unary, "round up", NONE, byoc__flops_per_output, 0,
              BYOC__K(byoc__k_unary, NULL, BYOC__K_CEIL, BYOC__KF)),
    BYOC__OP("nn.hard_sigmoid", 1, 1, ELEMWISE, byoc__attrs_hard_sigmoid, byoc__rel_float_unary,
             "clip(alpha * x + beta, 0, 1)", ELEMWISE, byoc__flops_per_output, 0,
             BYOC__K(byoc__k_unary, NULL, BYOC__K_HARD_SIGMOID, BYOC__KF)),
    BYOC__OP0("nn.hard_swish", 1, 1, ELEMWISE, byoc__rel_float_unary, "x * relu6(x + 3) / 6", ELEMWISE,
              byoc__flops_per_output, 0, BYOC__K(byoc__k_unary, NULL, BYOC__K_HARD_SWISH, BYOC__KF)),
    BYOC__OP("nn.gelu", 1, 1, ELEMWISE, byoc__attrs_gelu, byoc__rel_float_unary,
             "x * Phi(x); approximate=\"tanh\" for the tanh form", ELEMWISE, byoc__flops_transcendental, 0,
             BYOC__K(byoc__k_unary, NULL, BYOC__K_GELU, BYOC__KF)),
    BYOC__OP("nn.softmax", 1, 1, OUT_ELEMWISE_FUSABLE, byoc__attrs_axis_last, byoc__rel_softmax, "softmax along axis",
             SOFTMAX, byoc__flops_softmax, 0, BYOC__K(byoc__k_softmax, byoc__ws_softmax, BYOC__K_SOFTMAX, BYOC__KF)),
    BYOC__OP("nn.log_softmax", 1, 1, OUT_ELEMWISE_FUSABLE, byoc__attrs_axis_last, byoc__rel_softmax,
             "log of softmax along axis", SOFTMAX, byoc__flops_softmax, 0,
             BYOC__K(byoc__k_softmax, byoc__ws_softmax, BYOC__K_LOG_SOFTMAX, BYOC__KF)),
    BYOC__OP("nn.batch_norm", 5, 5, OPAQUE, byoc__attrs_batch_norm, byoc__rel_batch_norm,
             "inference batch norm; result is (out, mean, var)", NONE, byoc__flops_norm, 0,
             BYOC__K(byoc__k_batch_norm, NULL, 0, BYOC__KF)),
    BYOC__OP("nn.layer_norm", 3, 3, OPAQUE, byoc__attrs_layer_norm, byoc__rel_layer_norm,
             "layer normalization along axis", LAYER_NORM, byoc__flops_norm, 0,
             BYOC__K(byoc__k_layer_norm, byoc__ws_layer_norm, 0, BYOC__KF)),
    BYOC__OP("nn.lrn", 1, 1, OPAQUE, byoc__attrs_lrn, byoc__rel_lrn, "local response normalization across channels",
             NONE, byoc__flops_norm, 0, BYOC__K(byoc__k_lrn, byoc__ws_lrn, 0, BYOC__KF)),
    BYOC__OP("nn.max_pool2d", 1, 1, OUT_ELEMWISE_FUSABLE, byoc__attrs_max_pool2d, byoc__rel_pool2d,
             "2-D max pooling, NCHW", POOL2D, byoc__flops_pool2d, 0,
             BYOC__K(byoc__k_pool2d, NULL, BYOC__K_MAX_POOL, BYOC__KF)),
    BYOC__OP(
        "nn.max_pool2d_with_argmax", 1, 1, OPAQUE, byoc__attrs_max_pool2d, byoc__rel_pool2d_argmax,
        "2-D max pooling and the flat input index of each maximum (ONNX MaxPool's Indices); result is (out, indices)",
        NONE, byoc__flops_none, 0, BYOC__K(byoc__k_pool2d_argmax, NULL, 0, BYOC__KF)),
    BYOC__OP("nn.avg_pool2d", 1, 1, OUT_ELEMWISE_FUSABLE, byoc__attrs_avg_pool2d, byoc__rel_pool2d,
             "2-D average pooling, NCHW", POOL2D, byoc__flops_pool2d, 0,
             BYOC__K(byoc__k_pool2d, byoc__ws_pool2d, BYOC__K_AVG_POOL, BYOC__KF)),
    BYOC__OP("nn.global_avg_pool2d", 1, 1, OUT_ELEMWISE_FUSABLE, byoc__attrs_global_pool2d, byoc__rel_global_pool2d,
             "mean over H and W", GLOBAL_POOL2D, byoc__flops_per_input, 0,
             BYOC__K(byoc__k_global_pool2d, NULL, BYOC__K_AVG_POOL, BYOC__KF)),
    BYOC__OP("nn.global_max_pool2d", 1, 1, OUT_ELEMWISE_FUSABLE, byoc__attrs_global_pool2d, byoc__rel_global_pool2d,
             "max over H and W", GLOBAL_POOL2D, byoc__flops_per_input, 0,
             BYOC__K(byoc__k_global_pool2d, NULL, BYOC__K_MAX_POOL, BYOC__KF)),
    BYOC__OP("nn.pad", 1, 2, INJECTIVE, byoc__attrs_pad, byoc__rel_pad,
             "pad each axis; optional scalar pad value argument", NONE, byoc__flops_none, 0,
             BYOC__K(byoc__k_pad, byoc__ws_pad, 0, 0)),
    BYOC__OP("reshape", 1, 1, INJECTIVE, byoc__attrs_reshape, byoc__rel_reshape,
             "reshape; 0 copies an axis, -1 is inferred", NONE, byoc__flops_none, BYOC_OP_VIEW,
             BYOC__K(byoc__k_copy, NULL, 0, 0)),
    BYOC__OP("transpose", 1, 1, INJECTIVE, byoc__attrs_transpose, byoc__rel_transpose,
             "permute axes (reverse when axes is None)", TRANSPOSE, byoc__flops_none, 0,
             BYOC__K(byoc__k_transpose, NULL, 0, 0)),
    BYOC__OP("squeeze", 1, 1, INJECTIVE, byoc__attrs_squeeze, byoc__rel_squeeze, "drop unit axes", NONE,
             byoc__flops_none, BYOC_OP_VIEW, BYOC__K(byoc__k_copy, NULL, 0, 0)),
    BYOC__OP("expand_dims", 1, 1, BROADCAST, byoc__attrs_expand_dims, byoc__rel_expand_dims, "insert unit axes", NONE,
             byoc__flops_per_output, BYOC_OP_VIEW | BYOC_OP_RESHAPES, BYOC__K(byoc__k_copy, NULL, 0, 0)),
    BYOC__OP("concatenate", 1, 1, INJECTIVE, byoc__attrs_concatenate, byoc__rel_concatenate,
             "join a tuple of tensors along axis", NONE, byoc__flops_none, 0, BYOC__K(byoc__k_concatenate, NULL, 0, 0)),
    BYOC__OP("split", 1, 1, INJECTIVE, byoc__attrs_split, byoc__rel_split,
             "split into a tuple by section count or indices", NONE, byoc__flops_none, 0,
             BYOC__K(byoc__k_split, NULL, 0, 0)),
    BYOC__OP("strided_slice", 1, 1, INJECTIVE, byoc__attrs_strided_slice, byoc__rel_strided_slice,
             "slice with begin/end/strides, ONNX clamping", NONE, byoc__flops_none, 0,
             BYOC__K(byoc__k_strided_slice, NULL, 0, 0)),
    BYOC__OP("take", 2, 2, INJECTIVE, byoc__attrs_take, byoc__rel_take, "gather along axis", NONE, byoc__flops_none, 0,
             BYOC__K(byoc__k_take, NULL, 0, 0)),
    BYOC__OP("nn.depth_to_space", 1, 1, INJECTIVE, byoc__attrs_depth_to_space, byoc__rel_depth_to_space,
             "rearrange channels into blocks", NONE, byoc__flops_none, 0, BYOC__K(byoc__k_depth_to_space, NULL, 0, 0)),
    BYOC__OP("broadcast_to", 1, 1, BROADCAST, byoc__attrs_broadcast_to, byoc__rel_broadcast_to, "broadcast to a shape",
             NONE, byoc__flops_per_output, BYOC_OP_RESHAPES, BYOC__K(byoc__k_broadcast_to, NULL, 0, 0)),
    BYOC__OP("mean", 1, 1, COMM_REDUCE, byoc__attrs_reduce, byoc__rel_reduce, "mean over axes", REDUCE,
             byoc__flops_per_input, 0, BYOC__K(byoc__k_reduce, byoc__ws_reduce, BYOC__K_MEAN, BYOC__KF)),
    BYOC__OP("sum", 1, 1, COMM_REDUCE, byoc__attrs_reduce, byoc__rel_reduce, "sum over axes", REDUCE,
             byoc__flops_per_input, 0, BYOC__K(byoc__k_reduce, byoc__ws_reduce, BYOC__K_SUM, BYOC__KF)),
    BYOC__OP("max", 1, 1, COMM_REDUCE, byoc__attrs_reduce, byoc__rel_reduce, "maximum over axes", REDUCE,
             byoc__flops_per_input, 0, BYOC__K(byoc__k_reduce, byoc__ws_reduce, BYOC__K_RMAX, BYOC__KF)),
    BYOC__OP("min", 1, 1, COMM_REDUCE, byoc__attrs_reduce, byoc__rel_reduce, "minimum over axes", REDUCE,
             byoc__flops_per_input, 0, BYOC__K(byoc__k_reduce, byoc__ws_reduce, BYOC__K_RMIN, BYOC__KF)),
    BYOC__OP("cast", 1, 1, ELEMWISE, byoc__attrs_cast, byoc__rel_cast, "convert dtype", NONE, byoc__flops_per_output, 0,
             BYOC__K(byoc__k_cast, NULL, 0, BYOC__KF_NO_INPLACE)),
    BYOC__OP0("copy", 1, 1, ELEMWISE, byoc__rel_identity, "identity copy", NONE, byoc__flops_per_output, BYOC_OP_VIEW,
              BYOC__K(byoc__k_copy, NULL, 0, BYOC__KF_NO_INPLACE)),
    BYOC__OP("nn.dropout", 1, 1, OPAQUE, byoc__attrs_dropout, byoc__rel_dropout,
             "inference dropout; result is (out, mask)", NONE, byoc__flops_none, 0,
             BYOC__K(byoc__k_dropout, NULL, 0, BYOC__KF)),
    BYOC__OP("image.resize2d", 1, 1, INJECTIVE, byoc__attrs_resize2d, byoc__rel_resize2d,
             "resize H and W (nearest_neighbor, linear, cubic)", NONE, byoc__flops_transcendental, 0,
             BYOC__K(byoc__k_resize2d, byoc__ws_resize2d, 0, BYOC__KF)),
    BYOC__OP("shape_of", 1, 1, OPAQUE, byoc__attrs_shape_of, byoc__rel_shape_of, "the shape as a 1-D tensor", NONE,
             byoc__flops_none, BYOC_OP_READS_SHAPE_ONLY, BYOC__K(byoc__k_shape_of, NULL, 0, 0)),
    BYOC__OP("annotation.compiler_begin", 1, 1, OPAQUE, byoc__attrs_compiler, byoc__rel_any_identity,
             "start of a region for a compiler", NONE, byoc__flops_none, BYOC_OP_ANNOTATION,
             BYOC__K(byoc__k_copy, NULL, 0, 0)),
    BYOC__OP("annotation.compiler_end", 1, 1, OPAQUE, byoc__attrs_compiler, byoc__rel_any_identity,
             "end of a region for a compiler", NONE, byoc__flops_none, BYOC_OP_ANNOTATION,
             BYOC__K(byoc__k_copy, NULL, 0, 0)),
    BYOC__OP0("annotation.stop_fusion", 1, 1, OPAQUE, byoc__rel_any_identity, "FuseOps never fuses across this", NONE,
              byoc__flops_none, BYOC_OP_ANNOTATION, BYOC__K(byoc__k_copy, NULL, 0, 0)),
    /* ---- ops: math ---- */
    /* (end of math) */
    /* ---- ops: indexing ---- */
    /* (end of indexing) */
    /* ---- ops: sampling ---- */
    /* (end of sampling) */
    /* ---- ops: windows ---- */
    /* (end of windows) */
    /* ---- ops: recurrent ---- */
    /* (end of recurrent) */
    /* ---- ops: losses ---- */
    /* (end of losses) */
    /* ---- ops: dynamic ---- */
    BYOC__OP0("argwhere", 1, 1, OPAQUE, byoc__rel_argwhere,
              "coordinates of the non-zero elements, (count, rank) int32; count known at run time", NONE,
              byoc__flops_dyn_in, 0, BYOC__KS(byoc__k_argwhere, NULL, byoc__shape_argwhere, 0, 0)),
    BYOC__OP("unique", 1, 1, OPAQUE, byoc__attrs_unique, byoc__rel_unique,
             "distinct slices along axis (None: elements), ONNX Unique's (values, indices, inverse, counts)", NONE,
             byoc__flops_unique, 0, BYOC__KS(byoc__k_unique, byoc__ws_unique, byoc__shape_unique, 0, 0)),
    BYOC__OP("vision.all_class_non_max_suppression", 2, 5, OPAQUE, byoc__attrs_nms, byoc__rel_nms,
             "ONNX NonMaxSuppression: (boxes, scores[, max per class, iou, score threshold]) -> (?, 3) int64 rows",
             NONE, byoc__flops_nms, 0, BYOC__KS(byoc__k_nms, byoc__ws_nms, byoc__shape_nms, 0, 0)),
    BYOC__OP("dyn.reshape", 2, 2, INJECTIVE, byoc__attrs_dyn_reshape, byoc__rel_dyn_reshape,
             "reshape to a shape given as a tensor (0 copies an axis unless allowzero, -1 is inferred)", NONE,
             byoc__flops_none, 0, BYOC__KS(byoc__k_copy, NULL, byoc__shape_dyn_reshape, 0, 0)),
    BYOC__OP0("dyn.broadcast_to", 2, 2, BROADCAST, byoc__rel_dyn_broadcast_to,
              "broadcast with a shape given as a tensor (both ways, as ONNX Expand)", NONE, byoc__flops_none,
              BYOC_OP_RESHAPES, BYOC__KS(byoc__k_broadcast_to, NULL, byoc__shape_dyn_broadcast_to, 0, 0)),
    BYOC__OP0("dyn.tile", 2, 2, INJECTIVE, byoc__rel_dyn_tile, "repeat each axis reps[i] times, reps a tensor", NONE,
              byoc__flops_none, 0, BYOC__KS(byoc__k_dyn_tile, NULL, byoc__shape_dyn_tile, 0, 0)),
    BYOC__OP0("dyn.strided_slice", 4, 5, INJECTIVE, byoc__rel_dyn_strided_slice,
              "slice with begin, end, strides[, axes] given as tensors, ONNX clamping", NONE, byoc__flops_none, 0,
              BYOC__KS(byoc__k_dyn_strided_slice, NULL, byoc__shape_dyn_strided_slice, 0, 0)),
    BYOC__OP("dyn.nn.pad", 2, 3, INJECTIVE, byoc__attrs_dyn_pad, byoc__rel_dyn_pad,
             "nn.pad with pad_width a (rank, 2) tensor; optional scalar pad value", NONE, byoc__flops_none, 0,
             BYOC__KS(byoc__k_dyn_pad, byoc__ws_pad, byoc__shape_dyn_pad, 0, 0)),
    BYOC__OP0("dyn.squeeze", 2, 2, INJECTIVE, byoc__rel_dyn_squeeze, "drop the unit axes a tensor names", NONE,
              byoc__flops_none, 0, BYOC__KS(byoc__k_copy, NULL, byoc__shape_dyn_squeeze, 0, 0)),
    BYOC__OP0("dyn.expand_dims", 2, 2, INJECTIVE, byoc__rel_dyn_expand_dims,
              "insert unit axes at the result positions a tensor names (ONNX Unsqueeze)", NONE, byoc__flops_none, 0,
              BYOC__KS(byoc__k_copy, NULL, byoc__shape_dyn_expand_dims, 0, 0)),
    BYOC__OP("dyn.sum", 2, 2, COMM_REDUCE, byoc__attrs_dyn_reduce, byoc__rel_dyn_reduce,
             "sum over the axes a tensor names (none: all)", NONE, byoc__flops_dyn_in, 0,
             BYOC__KS(byoc__k_dyn_reduce, byoc__ws_reduce, byoc__shape_dyn_reduce, BYOC__K_SUM, BYOC__KF)),
    BYOC__OP("dyn.mean", 2, 2, COMM_REDUCE, byoc__attrs_dyn_reduce, byoc__rel_dyn_reduce,
             "mean over the axes a tensor names (none: all)", NONE, byoc__flops_dyn_in, 0,
             BYOC__KS(byoc__k_dyn_reduce, byoc__ws_reduce, byoc__shape_dyn_reduce, BYOC__K_MEAN, BYOC__KF)),
    BYOC__OP("dyn.max", 2, 2, COMM_REDUCE, byoc__attrs_dyn_reduce, byoc__rel_dyn_reduce,
             "maximum over the axes a tensor names (none: all)", NONE, byoc__flops_dyn_in, 0,
             BYOC__KS(byoc__k_dyn_reduce, byoc__ws_reduce, byoc__shape_dyn_reduce, BYOC__K_RMAX, BYOC__KF)),
    BYOC__OP("dyn.min", 2, 2, COMM_REDUCE, byoc__attrs_dyn_reduce, byoc__rel_dyn_reduce,
             "minimum over the axes a tensor names (none: all)", NONE, byoc__flops_dyn_in, 0,
             BYOC__KS(byoc__k_dyn_reduce, byoc__ws_reduce, byoc__shape_dyn_reduce, BYOC__K_RMIN, BYOC__KF)),
    BYOC__OP("dyn.full", 2, 2, OPAQUE, byoc__attrs_dyn_full, byoc__rel_dyn_full,
             "a tensor of a shape given as a tensor, filled with a scalar", NONE, byoc__flops_none, 0,
             BYOC__KS(byoc__k_dyn_full, NULL, byoc__shape_dyn_full, 0, 0)),
    BYOC__OP0("arange", 3, 3, OPAQUE, byoc__rel_arange, "start, start + step, ... before stop (scalar tensors)", NONE,
              byoc__flops_none, 0, BYOC__KS(byoc__k_arange, NULL, byoc__shape_arange, 0, 0)),
    /* (end of dynamic) */
};
#undef BYOC__KF
#undef BYOC__K
#undef BYOC__KS
#undef BYOC__OP
#undef BYOC__OP0
BYOC__PRIVATE const byoc_op_def *byoc__builtin_op(int i, int *count) {
    if (count) *count = BYOC__N(byoc__builtin_ops);
    return i >= 0 && i < BYOC__N(byoc__builtin_ops) ? &byoc__builtin_ops[i].def : NULL;
}
BYOC__PRIVATE const byoc__kernel_def *byoc__kernel_of(const byoc_op *op) {
    return op && op->builtin > 0 && op->builtin <= BYOC__N(byoc__builtin_ops) &&
                   byoc__builtin_ops[op->builtin - 1].kernel.run
               ? &byoc__builtin_ops[op->builtin - 1].kernel
               : NULL;
}
BYOC_API int byoc_kernel_exists(const byoc_op *op) { return byoc__kernel_of(op) != NULL; }

/* The tensors of a type, tuples flattened in order (shape and dtype; no data). Returns the count, or
   -1 for a function type or tuples nested deeper than 16. */
BYOC__PRIVATE int byoc__type_tensors(const byoc_type *t, byoc_tensor *dst, int cap, int at, int depth) {
    if (!t || depth > 16) return -1;
    if (t->kind == BYOC_TYPE_TENSOR) {
        if (dst && at < cap) {
            memset(&dst[at], 0, sizeof dst[at]);
            dst[at].dtype = t->dtype;
            dst[at].rank = t->rank;
            memcpy(dst[at].dims, t->dims, sizeof t->dims);
        }
        return at + 1;
    }
    if (t->kind != BYOC_TYPE_TUPLE) return -1;
    for (int i = 0; i < t->nfields && at >= 0; ++i) at = byoc__type_tensors(t->fields[i], dst, cap, at, depth + 1);
    return at;
}
/* an argument's type: as inferred, or a constant's own */
BYOC__PRIVATE const byoc_type *byoc__arg_type(const byoc_node *a) {
    return a->checked_type ? a->checked_type : a->kind == BYOC_NODE_CONSTANT ? a->annotation : NULL;
}

/* what a call's kernel needs: its def, the flattened argument and result tensors the call's types
   describe, and the same as the kernel sees them (float16 / bfloat16 as float32 for float kernels) */
typedef struct byoc__kplan {
    const byoc__kernel_def *def;
    byoc_tensor *typed_in, *typed_out; /* the call's types */
    byoc_tensor *in, *out;             /* the kernel's view */
    int nin, nout;
    byoc_tensor local[32]; /* storage for small calls */
    byoc_tensor *heap;
} byoc__kplan;

BYOC__PRIVATE void byoc__kplan_free(byoc__kplan *p) { BYOC_FREE(p->heap); }

/* fills p from the call's types; BYOC_OK or an error naming the op */
BYOC__PRIVATE byoc_result byoc__kplan_init(byoc__kplan *p, const byoc_node *call, byoc_diag *diag) {
    memset(p, 0, sizeof *p);
    if (!call || call->kind != BYOC_NODE_CALL || !call->op)
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, call ? call->id : 0, "kernel: not an op call");
    const char *name = call->op->def.name;
    p->def = byoc__kernel_of(call->op);
    if (!p->def) return byoc__diag(diag, BYOC_ERR_UNSUPPORTED, 0, 0, call->id, "%s: no host kernel", name);
    if (!call->checked_type)
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, call->id,
                          "%s: the call is not typed (infer types first)", name);
    int nin = 0, nout = byoc__type_tensors(call->checked_type, NULL, 0, 0, 0);
    for (int i = 0; i < call->nargs && nin >= 0; ++i) {
        const byoc_type *t = byoc__arg_type(call->args[i]);
        if (!t)
            return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, call->id,
                              "%s: argument %d is not typed (infer types first)", name, i);
        nin = byoc__type_tensors(t, NULL, 0, nin, 0);
    }
    if (nin < 0 || nout < 0)
        return byoc__diag(diag, BYOC_ERR_UNSUPPORTED, 0, 0, call->id,
                          "%s: no host kernel for arguments or results of these types", name);
    int n = nin + nout;
    byoc_tensor *all = p->local;
    if (2 * n > 32 && !(all = p->heap = (byoc_tensor *)BYOC_MALLOC(sizeof(byoc_tensor) * (size_t)(2 * n))))
        return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, call->id, "%s: out of memory", name);
    p->typed_in = all;
    p->typed_out = all + nin;
    p->in = all + n;
    p->out = all + n + nin;
    p->nin = nin;
    p->nout = nout;
    int at = 0;
    for (int i = 0; i < call->nargs; ++i)
        at = byoc__type_tensors(byoc__arg_type(call->args[i]), p->typed_in, nin, at, 0);
    byoc__type_tensors(call->checked_type, p->typed_out, nout, 0, 0);
    for (int i = 0; i < n; ++i) {
        byoc_tensor *t = &all[n + i];
        *t = all[i];
        for (int d = 0; d < t->rank; ++d)
            if (t->dims[d] < 0)
                return byoc__diag(diag, BYOC_ERR_UNSUPPORTED, 0, 0, call->id,
                                  "%s: the call's types have '?' dims; kernels run on calls typed for one run "
                                  "(byoc_module_evaluate and byoc_sim.h type them per run)",
                                  name);
        if ((p->def->flags & BYOC__KF_FLOAT) && (t->dtype == BYOC_FLOAT16 || t->dtype == BYOC_BFLOAT16))
            t->dtype = BYOC_FLOAT32;
    }
    return BYOC_OK;
}

BYOC__PRIVATE size_t byoc__round64(size_t n) { return (n + 63) & ~(size_t)63; }

/* bytes of the float32 copy of a float16 / bfloat16 tensor a float kernel sees as float32 */
BYOC__PRIVATE size_t byoc__half_copy_bytes(const byoc_tensor *typed, const byoc_tensor *view) {
    return typed->dtype != view->dtype ? byoc__round64((size_t)byoc__numel(view) * sizeof(float)) : 0;
}

BYOC__PRIVATE size_t byoc__kplan_workspace(const byoc__kplan *p, const byoc_node *call) {
    size_t bytes = 64; /* to align the caller's pointer */
    for (int i = 0; i < p->nin; ++i) bytes += byoc__half_copy_bytes(&p->typed_in[i], &p->in[i]);
    for (int i = 0; i < p->nout; ++i) bytes += byoc__half_copy_bytes(&p->typed_out[i], &p->out[i]);
    if (p->def->workspace) {
        byoc__kctx k;
        memset(&k, 0, sizeof k);
        k.call = call;
        k.name = call->op->def.name;
        k.code = p->def->code;
        k.in = p->in;
        k.nin = p->nin;
        k.out = p->out;
        k.nout = p->nout;
        bytes += byoc__round64(p->def->workspace(&k));
    }
    return bytes;
}

BYOC_API size_t byoc_kernel_workspace_size(const byoc_node *call) {
    byoc__kplan p;
    size_t bytes = byoc__kplan_init(&p, call, NULL) == BYOC_OK ? byoc__kplan_workspace(&p, call) : 0;
    byoc__kplan_free(&p);
    return bytes;
}

BYOC__PRIVATE int byoc__tensor_matches(const byoc_tensor *given, const byoc_tensor *typed) {
    if (given->rank != typed->rank || given->dtype != typed->dtype) return 0;
    for (int d = 0; d < given->rank; ++d)
        if (given->dims[d] != typed->dims[d]) return 0;
    return 1;
}

BYOC__PRIVATE byoc_result byoc__tensor_mismatch(const byoc_node *call, const char *what, int i, const byoc_tensor *t,
                                                byoc_diag *diag) {
    char buf[160];
    byoc_type ty;
    memset(&ty, 0, sizeof ty);
    ty.kind = BYOC_TYPE_TENSOR;
    ty.dtype = t->dtype;
    ty.rank = t->rank >= 0 && t->rank <= BYOC_MAX_RANK ? t->rank : 0;
    memcpy(ty.dims, t->dims, sizeof ty.dims);
    byoc_type_to_string(&ty, buf, sizeof buf);
    return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, call->id,
                      "%s: %s %d is %s, which is not what the call's type says", call->op->def.name, what, i, buf);
}

BYOC_API byoc_result byoc_kernel_run(const byoc_node *call, const byoc_tensor *in, int nin, byoc_tensor *out, int nout,
                                     void *workspace, byoc_diag *diag) {
    if (!call) return byoc__null_arg(diag, __func__, "call");
    byoc__kplan p;
    byoc_result r = byoc__kplan_init(&p, call, diag);
    if (r != BYOC_OK) { byoc__kplan_free(&p); return r; }
    const char *name = call->op->def.name;
    if (nin != p.nin || nout != p.nout) {
        byoc__kplan_free(&p);
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, call->id,
                          "%s: %d arguments and %d results given, the call has %d and %d", name, nin, nout, p.nin,
                          p.nout);
    }
    for (int i = 0; i < nin + nout; ++i) {
        const byoc_tensor *t = i < nin ? &in[i] : &out[i - nin];
        const byoc_tensor *want = i < nin ? &p.typed_in[i] : &p.typed_out[i - nin];
        r = !byoc__tensor_matches(t, want)
                ? byoc__tensor_mismatch(call, i < nin ? "argument" : "result", i < nin ? i : i - nin, t, diag)
            : !t->data && byoc__numel(t) > 0 && !(i < nin && (call->op->def.flags & BYOC_OP_READS_SHAPE_ONLY))
                ? byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, call->id, "%s: %s %d has no data", name,
                             i < nin ? "argument" : "result", i < nin ? i : i - nin)
                : BYOC_OK;
        if (r != BYOC_OK) { byoc__kplan_free(&p); return r; }
    }
    size_t need = byoc__kplan_workspace(&p, call);
    void *owned = NULL;
    if (!workspace && !(workspace = owned = BYOC_MALLOC(need))) {
        byoc__kplan_free(&p);
        return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, call->id, "%s: out of memory for %zu bytes of workspace",
                          name, need);
    }
    /* the kernel's tensors: the caller's, or float32 copies of float16 / bfloat16 ones */
    unsigned char *at = byoc__align64(workspace);
    for (int i = 0; i < nin; ++i) {
        p.in[i].data = in[i].data;
        if (in[i].dtype == p.in[i].dtype) continue;
        p.in[i].data = at;
        byoc__to_f32(in[i].dtype, in[i].data, (float *)(void *)at, byoc__numel(&in[i]));
        at += byoc__half_copy_bytes(&in[i], &p.in[i]);
    }
    for (int i = 0; i < nout; ++i) {
        p.out[i].data = out[i].data;
        if (out[i].dtype == p.out[i].dtype) continue;
        p.out[i].data = at;
        at += byoc__half_copy_bytes(&out[i], &p.out[i]);
    }
    byoc__kctx k;
    memset(&k, 0, sizeof k);
    k.call = call;
    k.name = name;
    k.code = p.def->code;
    k.in = p.in;
    k.nin = nin;
    k.out = p.out;
    k.nout = nout;
    k.ws = at;
    k.diag = diag;
    r = p.def->run(&k);
    if (r == BYOC_OK)
        for (int i = 0; i < nout; ++i)
            if (out[i].dtype != p.out[i].dtype)
                byoc__from_f32(out[i].dtype, (const float *)p.out[i].data, out[i].data, byoc__numel(&out[i]));
    BYOC_FREE(owned);
    byoc__kplan_free(&p);
    return r;
}

/* ---- running a call on constants: FoldConstant and byoc_module_evaluate ---- */
/* the tensors of an argument value: a constant, or a tuple of them (a value that is neither gives
   only its shape, for a kernel that reads nothing else) */
BYOC__PRIVATE int byoc__value_tensors(const byoc_node *v, byoc_tensor *dst, int cap, int at, int shape_only,
                                      int depth) {
    if (!v || at < 0 || depth > 16) return -1;
    if (v->kind == BYOC_NODE_TUPLE) {
        for (int i = 0; i < v->nargs && at >= 0; ++i)
            at = byoc__value_tensors(v->args[i], dst, cap, at, shape_only, depth + 1);
        return at;
    }
    const byoc_type *t = v->kind == BYOC_NODE_CONSTANT ? v->annotation : shape_only ? v->checked_type : NULL;
    if (!t || t->kind != BYOC_TYPE_TENSOR) return -1;
    if (dst && at < cap) {
        memset(&dst[at], 0, sizeof dst[at]);
        dst[at].dtype = t->dtype;
        dst[at].rank = t->rank;
        memcpy(dst[at].dims, t->dims, sizeof t->dims);
        dst[at].data = v->kind == BYOC_NODE_CONSTANT ? v->data : NULL;
    }
    return at + 1;
}
/* new constants (a tuple of them for a tuple type) for a result, and their tensors in order */
BYOC__PRIVATE byoc_node *byoc__result_constants(byoc_module *m, const byoc_type *t, byoc_tensor *dst, int *at) {
    if (t->kind == BYOC_TYPE_TENSOR) {
        byoc_node *c = byoc_constant(m, t, NULL, 0);
        if (!c) return NULL;
        c->checked_type = t;
        memset(&dst[*at], 0, sizeof dst[*at]);
        dst[*at].dtype = t->dtype;
        dst[*at].rank = t->rank;
        memcpy(dst[*at].dims, t->dims, sizeof t->dims);
        dst[*at].data = c->data;
        (*at)++;
        return c;
    }
    byoc_node *fields[64],
        **fp = t->nfields <= 64 ? fields : (byoc_node **)BYOC_MALLOC(sizeof(byoc_node *) * (size_t)t->nfields);
    byoc_node *tuple = NULL;
    int ok = fp != NULL;
    for (int i = 0; ok && i < t->nfields; ++i) ok = (fp[i] = byoc__result_constants(m, t->fields[i], dst, at)) != NULL;
    if (ok && (tuple = byoc_tuple(m, fp, t->nfields))) tuple->checked_type = t;
    if (fp != fields) BYOC_FREE(fp);
    return tuple;
}

/* Runs an op call on argument values that are constants (or tuples of constants); the result is a
   new constant, or a tuple of constants for a tuple result. NULL with diag filled when the op has no
   kernel for these arguments. */
BYOC__PRIVATE byoc_node *byoc__kernel_run_constants(byoc_module *m, const byoc_node *call, byoc_node *const *args,
                                                    byoc_diag *diag) {
    const byoc__kernel_def *def = byoc__kernel_of(call->op);
    const char *name = call->op ? call->op->def.name : "call";
    if (!def) { byoc__diag(diag, BYOC_ERR_UNSUPPORTED, 0, 0, call->id, "%s: no host kernel", name); return NULL; }
    const byoc_type *rt = call->checked_type;
    int shape_only = (call->op->def.flags & BYOC_OP_READS_SHAPE_ONLY) != 0, nin = 0;
    int nout = rt ? byoc__type_tensors(rt, NULL, 0, 0, 0) : -1;
    for (int i = 0; i < call->nargs && nin >= 0; ++i) nin = byoc__value_tensors(args[i], NULL, 0, nin, shape_only, 0);
    if (nin < 0 || nout < 0) {
        byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, call->id,
                   "%s: the arguments are not constants, or the call is not typed", name);
        return NULL;
    }
    byoc_tensor *ts = (byoc_tensor *)BYOC_MALLOC(sizeof(byoc_tensor) * (size_t)(nin + nout + 1));
    if (!ts) { byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, call->id, "%s: out of memory", name); return NULL; }
    int at = 0;
    for (int i = 0; i < call->nargs; ++i) at = byoc__value_tensors(args[i], ts, nin, at, shape_only, 0);
    at = 0;
    byoc_node *result = byoc__result_constants(m, rt, ts + nin, &at);
    byoc_result r = result ? byoc_kernel_run(call, ts, nin, ts + nin, nout, NULL, diag)
                           : byoc__diag(diag, m->has_error ? m->error.code : BYOC_ERR_OUT_OF_MEMORY, 0, 0, call->id,
                                        "%s: %s", name, m->has_error ? m->error.message : "out of memory");
    BYOC_FREE(ts);
    return r == BYOC_OK ? result : NULL;
}

/* ---- running a call typed at run time: calls whose types hold '?' (byoc_module_evaluate, FoldConstant,
   byoc_sim.h's runtime) ---- */
/* room for n type pointers: small (16) when they fit, else the heap (NULL when out of memory) */
BYOC__PRIVATE const byoc_type **byoc__type_array(const byoc_type **small, int n) {
    return n <= 16 ? small : BYOC__CAST(const byoc_type **, BYOC_MALLOC(sizeof(byoc_type *) * (size_t)n));
}
/* t with the extents of the flattened tensors dims[*at...] (what a shape function computed) */
BYOC__PRIVATE const byoc_type *byoc__type_with_dims(byoc_module *m, const byoc_type *t, const byoc_tensor *dims,
                                                    int *at) {
    if (t->kind == BYOC_TYPE_TENSOR) {
        const byoc_tensor *d = &dims[(*at)++];
        return byoc_tensor_type(m, t->dtype, t->rank, d->dims);
    }
    const byoc_type *small[16], **f = byoc__type_array(small, t->nfields);
    int ok = f != NULL;
    for (int i = 0; ok && i < t->nfields; ++i) ok = (f[i] = byoc__type_with_dims(m, t->fields[i], dims, at)) != NULL;
    const byoc_type *r = ok ? byoc_tuple_type(m, f, t->nfields) : NULL;
    if (f != small) BYOC_FREE((void *)f);
    return r;
}

/* Relay's shape functions: the concrete result type of a call whose types hold '?' for one run, from
   in[] (its flattened argument tensors, with data): the type relation applied to the arguments' types
   of this run, then the op's shape function for the extents that still are '?'. NULL with diag filled
   when neither settles them or the values break the relation. */
BYOC__PRIVATE const byoc_type *byoc__run_time_type(byoc_module *m, const byoc_node *call, const byoc_tensor *in,
                                                   int nin, byoc_diag *diag) {
    const char *name = call->op->def.name;
    const byoc_type *small[16] = {0}, **at = byoc__type_array(small, call->nargs);
    int ok = at != NULL, k_at = 0;
    for (int i = 0; ok && i < call->nargs; ++i) {
        const byoc_type *declared = byoc__arg_type(call->args[i]);
        ok = declared && byoc__type_tensors(declared, NULL, 0, k_at, 0) <= nin &&
             (at[i] = byoc__type_with_dims(m, declared, in, &k_at)) != NULL;
    }
    byoc_type_rel_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.m = m;
    ctx.op = call->op;
    ctx.call = call;
    const byoc_type *t = ok ? call->op->def.type_rel(&ctx, at, call->nargs, &call->attrs) : NULL;
    if (at != small) BYOC_FREE((void *)at);
    if (!t) {
        byoc__diag(diag, ok ? BYOC_ERR_TYPE : BYOC_ERR_INVALID_ARGUMENT, 0, 0, call->id, "%s: at run time: %s", name,
                   ctx.failed ? ctx.message : "the arguments do not match the call's types");
        return NULL;
    }
    if (byoc_type_is_static(t)) return t;
    const byoc__kernel_def *def = byoc__kernel_of(call->op);
    char buf[160];
    byoc_type_to_string(t, buf, sizeof buf);
    if (!def || !def->shape) {
        byoc__diag(diag, BYOC_ERR_UNSUPPORTED, 0, 0, call->id,
                   "%s: its result %s is not settled by the argument shapes and the op has no shape function", name,
                   buf);
        return NULL;
    }
    int nout = byoc__type_tensors(t, NULL, 0, 0, 0);
    byoc_tensor *out = nout > 0 ? (byoc_tensor *)BYOC_CALLOC((size_t)nout, sizeof(byoc_tensor)) : NULL;
    if (!out) {
        byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, call->id, "%s: out of memory", name);
        return NULL;
    }
    byoc__type_tensors(t, out, nout, 0, 0);
    byoc__kctx k;
    memset(&k, 0, sizeof k);
    k.call = call;
    k.name = name;
    k.code = def->code;
    k.in = in;
    k.nin = nin;
    k.out = out;
    k.nout = nout;
    k.diag = diag;
    const byoc_type *r = NULL;
    if (def->shape(&k) == BYOC_OK) {
        k_at = 0;
        r = byoc__type_with_dims(m, t, out, &k_at);
        if (!r || !byoc_type_is_static(r)) {
            byoc__diag(diag, BYOC_ERR_INTERNAL, 0, 0, call->id, "%s: the shape function left %s unsettled", name, buf);
            r = NULL;
        }
    }
    BYOC_FREE(out);
    return r;
}

/* Runs a call's kernel typed for one run: its arguments as in[] are, its result as t (from
   byoc__run_time_type). The kernel sees a copy of the call and of its argument nodes with these types. */
BYOC__PRIVATE byoc_result byoc__kernel_run_retyped(byoc_module *m, const byoc_node *call, const byoc_type *t,
                                                   const byoc_tensor *in, int nin, byoc_tensor *out, int nout,
                                                   byoc_diag *diag) {
    byoc_node local[8], *small[8];
    byoc_node *copies = call->nargs <= 8 ? local : (byoc_node *)BYOC_MALLOC(sizeof(byoc_node) * (size_t)call->nargs);
    byoc_node **args = call->nargs <= 8 ? small : (byoc_node **)BYOC_MALLOC(sizeof(byoc_node *) * (size_t)call->nargs);
    byoc_result r = copies && args ? BYOC_OK
                                   : byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, call->id, "%s: out of memory",
                                                call->op->def.name);
    int at = 0;
    for (int i = 0; r == BYOC_OK && i < call->nargs; ++i) {
        copies[i] = *call->args[i];
        copies[i].checked_type = byoc__type_with_dims(m, byoc__arg_type(call->args[i]), in, &at);
        args[i] = &copies[i];
        if (!copies[i].checked_type)
            r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, call->id, "%s: out of memory", call->op->def.name);
    }
    if (r == BYOC_OK) {
        byoc_node concrete = *call;
        concrete.args = args;
        concrete.checked_type = t;
        r = byoc_kernel_run(&concrete, in, nin, out, nout, NULL, diag);
    }
    if (copies != local) BYOC_FREE(copies);
    if (args != small) BYOC_FREE(args);
    return r;
}

/* runs a call whose types hold '?' on argument values, its result allocated for this run */
BYOC__PRIVATE byoc_node *byoc__kernel_run_dynamic(byoc_module *m, const byoc_node *call, byoc_node *const *vals,
                                                  byoc_diag *diag) {
    const char *name = call->op->def.name;
    int nin = 0;
    for (int i = 0; i < call->nargs && nin >= 0; ++i) nin = byoc__value_tensors(vals[i], NULL, 0, nin, 0, 0);
    byoc_tensor *in = nin >= 0 ? (byoc_tensor *)BYOC_CALLOC((size_t)nin + 1, sizeof(byoc_tensor)) : NULL;
    if (!in) {
        byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, call->id, "%s: the arguments are not values", name);
        return NULL;
    }
    int at = 0;
    for (int i = 0; i < call->nargs; ++i) at = byoc__value_tensors(vals[i], in, nin, at, 0, 0);
    const byoc_type *t = byoc__run_time_type(m, call, in, nin, diag);
    int nout = t ? byoc__type_tensors(t, NULL, 0, 0, 0) : 0;
    byoc_tensor *out = t && nout > 0 ? (byoc_tensor *)BYOC_CALLOC((size_t)nout, sizeof(byoc_tensor)) : NULL;
    byoc_node *result = NULL;
    at = 0;
    if (out) result = byoc__result_constants(m, t, out, &at);
    if (t && !result)
        byoc__diag(diag, m->has_error ? m->error.code : BYOC_ERR_OUT_OF_MEMORY, 0, 0, call->id, "%s: %s", name,
                   m->has_error ? m->error.message : "out of memory");
    if (result && byoc__kernel_run_retyped(m, call, t, in, nin, out, nout, diag) != BYOC_OK) result = NULL;
    BYOC_FREE(in);
    BYOC_FREE(out);
    return result;
}

// [SECTION] impl: runtime modules
BYOC_API byoc_result byoc_module_set_runtime(byoc_module *m, const char *function_name, const byoc_runtime_module *rm,
                                             byoc_diag *diag) {
    if (!m) { if (rm && rm->release) rm->release(rm->state); return byoc__null_arg(diag, __func__, "module"); }
    if (!byoc_module_function(m, function_name)) {
        if (rm->release) rm->release(rm->state);
        return byoc__diag(diag, BYOC_ERR_NOT_FOUND, 0, 0, 0, "runtime module for @%s: no such function", function_name);
    }
    if (!rm->run) {
        if (rm->release) rm->release(rm->state);
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "runtime module for @%s: no run function",
                          function_name);
    }
    for (int i = 0; i < (int)stbds_arrlen(m->runtimes); ++i)
        if (!strcmp(m->runtimes[i].name, function_name)) {
            if (m->runtimes[i].rm.release) m->runtimes[i].rm.release(m->runtimes[i].rm.state);
            m->runtimes[i].rm = *rm;
            return BYOC_OK;
        }
    byoc__runtime_entry e;
    e.name = byoc_intern(m, function_name);
    e.rm = *rm;
    stbds_arrput(m->runtimes, e);
    return BYOC_OK;
}

BYOC_API const byoc_runtime_module *byoc_module_runtime(const byoc_module *m, const char *function_name) {
    if (!m) return NULL;
    for (int i = 0; i < (int)stbds_arrlen(m->runtimes); ++i)
        if (!strcmp(m->runtimes[i].name, function_name)) return &m->runtimes[i].rm;
    return NULL;
}

/* ======== the compiler: everything below is left out under BYOC_NO_COMPILER ======== */
#if !defined(BYOC_NO_COMPILER)
// [SECTION] impl: dominators
BYOC_API byoc_result byoc_graph_post_dominators(const byoc_graph *g, int *ipdom) {
    if (!g) return BYOC_ERR_INVALID_ARGUMENT;
    int *depth = BYOC__CAST(int *, BYOC_MALLOC(sizeof(int) * (size_t)(g->count ? g->count : 1)));
    if (!depth) return BYOC_ERR_OUT_OF_MEMORY;
    /* users come after their inputs in post-order, so walking backwards sees every user first */
    for (int i = g->count - 1; i >= 0; --i) {
        const byoc_graph_node *n = &g->nodes[i];
        int lca = n->nusers ? n->users[0] : -1;
        for (int k = 1; k < n->nusers && lca >= 0; ++k) {
            int b = n->users[k];
            while (lca != b && lca >= 0 && b >= 0) {
                if (depth[lca] >= depth[b]) lca = ipdom[lca];
                else b = ipdom[b];
            }
            if (lca != b) lca = -1;
        }
        ipdom[i] = lca;
        depth[i] = lca >= 0 ? depth[lca] + 1 : 0;
    }
    BYOC_FREE(depth);
    return BYOC_OK;
}

/* does node a (index) lie on every path from b to the result, i.e. a post-dominates b */
BYOC__PRIVATE int byoc__post_dominates(const int *ipdom, int a, int b) {
    for (int x = b; x >= 0; x = ipdom[x])
        if (x == a) return 1;
    return 0;
}

// [SECTION] impl: patterns (build, print, parse)
BYOC__PRIVATE byoc_pattern *byoc__pat_new(byoc_module *m, byoc_pattern_kind kind) {
    if (m->has_error) return NULL;
    byoc_pattern *p = BYOC__NEW(m, byoc_pattern);
    if (!p) return NULL;
    p->kind = kind;
    p->id = m->next_id++;
    p->index = -1;
    return p;
}

BYOC__PRIVATE byoc_pattern **byoc__pat_array(byoc_module *m, byoc_pattern *const *src, int n) {
    return BYOC__CAST(byoc_pattern **, byoc__ptr_array(m, src, n));
}
BYOC__PRIVATE int byoc__pats_null(byoc_pattern *const *a, int n) { return byoc__ptrs_null(a, n); }

BYOC_API byoc_pattern *byoc_pat_wildcard(byoc_module *m) {
    if (!m) return NULL;
    return byoc__pat_new(m, BYOC_PAT_WILDCARD);
}
BYOC_API byoc_pattern *byoc_pat_constant(byoc_module *m) {
    if (!m) return NULL;
    return byoc__pat_new(m, BYOC_PAT_CONSTANT);
}
BYOC_API byoc_pattern *byoc_pat_expr(byoc_module *m, const byoc_node *e) {
    if (!m) return NULL;
    if (!e) return NULL;
    byoc_pattern *p = byoc__pat_new(m, BYOC_PAT_EXPR);
    if (p) p->expr = e;
    return p;
}
BYOC_API byoc_pattern *byoc_pat_var(byoc_module *m, const char *name) {
    if (!m) return NULL;
    byoc_pattern *p = byoc__pat_new(m, BYOC_PAT_VAR);
    if (p) p->name = byoc_intern(m, name ? name : "");
    return p;
}
BYOC_API byoc_pattern *byoc_pat_op(byoc_module *m, const char *op_name) {
    if (!m) return NULL;
    if (m->has_error) return NULL;
    const byoc_op *op = byoc_op_get(op_name);
    if (!op) { byoc__fail(m, BYOC_ERR_UNKNOWN_OP, 0, "is_op: unknown op '%s'", op_name); return NULL; }
    byoc_pattern *p = byoc__pat_new(m, BYOC_PAT_OP);
    if (p) p->op = op;
    return p;
}
BYOC_API byoc_pattern *byoc_pat_call(byoc_module *m, byoc_pattern *callee, byoc_pattern *const *args, int nargs) {
    if (!m) return NULL;
    if (!callee || (nargs > 0 && byoc__pats_null(args, nargs))) return NULL;
    byoc_pattern *p = byoc__pat_new(m, BYOC_PAT_CALL);
    if (!p) return NULL;
    p->inner = callee;
    p->args = byoc__pat_array(m, args, nargs);
    p->nargs = nargs < 0 ? -1 : nargs;
    return p;
}
BYOC_API byoc_pattern *byoc_pat_call_op(byoc_module *m, const char *op_name, byoc_pattern *const *args, int nargs) {
    if (!m) return NULL;
    return byoc_pat_call(m, byoc_pat_op(m, op_name), args, nargs);
}
BYOC_API byoc_pattern *byoc_pat_tuple(byoc_module *m, byoc_pattern *const *fields, int nfields) {
    if (!m) return NULL;
    if (nfields > 0 && byoc__pats_null(fields, nfields)) return NULL;
    byoc_pattern *p = byoc__pat_new(m, BYOC_PAT_TUPLE);
    if (!p) return NULL;
    p->args = byoc__pat_array(m, fields, nfields);
    p->nargs = nfields < 0 ? -1 : nfields;
    return p;
}
BYOC_API byoc_pattern *byoc_pat_tuple_get_item(byoc_module *m, byoc_pattern *tuple, int index) {
    if (!m) return NULL;
    if (!tuple) return NULL;
    byoc_pattern *p = byoc__pat_new(m, BYOC_PAT_TUPLE_GET_ITEM);
    if (!p) return NULL;
    p->args = byoc__pat_array(m, &tuple, 1);
    p->nargs = 1;
    p->index = index < 0 ? -1 : index;
    return p;
}
BYOC_API byoc_pattern *byoc_pat_alt(byoc_module *m, byoc_pattern *left, byoc_pattern *right) {
    if (!m) return NULL;
    if (!left || !right) return NULL;
    byoc_pattern *p = byoc__pat_new(m, BYOC_PAT_ALT);
    if (p) { p->left = left; p->right = right; }
    return p;
}
BYOC_API byoc_pattern *byoc_pat_optional(byoc_module *m, byoc_pattern *p, byoc_pattern *callee) {
    if (!m) return NULL;
    return byoc_pat_alt(m, p, byoc_pat_call(m, callee, &p, 1));
}
BYOC__PRIVATE byoc_pattern *byoc__pat_wrap(byoc_module *m, byoc_pattern_kind kind, byoc_pattern *inner) {
    if (!inner) return NULL;
    byoc_pattern *p = byoc__pat_new(m, kind);
    if (p) p->inner = inner;
    return p;
}
BYOC_API byoc_pattern *byoc_pat_has_attr(byoc_module *m, byoc_pattern *p, const byoc_attrs *attrs) {
    if (!m) return NULL;
    byoc_pattern *w = byoc__pat_wrap(m, BYOC_PAT_ATTR, p);
    if (w && attrs)
        for (int i = 0; i < attrs->count; ++i)
            byoc_attrs_set(m, &w->attrs, attrs->items[i].name, &attrs->items[i].value);
    return m->has_error ? NULL : w;
}
BYOC_API byoc_pattern *byoc_pat_has_dtype(byoc_module *m, byoc_pattern *p, byoc_dtype dt) {
    if (!m) return NULL;
    if ((int)dt <= 0 || dt >= BYOC_DTYPE_COUNT) {
        byoc__fail(m, BYOC_ERR_INVALID_ARGUMENT, 0, "has_dtype: invalid dtype");
        return NULL;
    }
    byoc_pattern *w = byoc__pat_wrap(m, BYOC_PAT_DTYPE, p);
    if (w) w->dtype = dt;
    return w;
}
BYOC_API byoc_pattern *byoc_pat_has_shape(byoc_module *m, byoc_pattern *p, int rank, const int64_t *dims) {
    if (!m) return NULL;
    int64_t known[BYOC_MAX_RANK];
    uint32_t any = 0;
    for (int i = 0; dims && i < rank && i < BYOC_MAX_RANK; ++i) {
        known[i] = dims[i] == BYOC_DIM_WILDCARD ? BYOC_DIM_UNKNOWN : dims[i];
        if (dims[i] == BYOC_DIM_WILDCARD) any |= 1u << i;
    }
    const byoc_type *t = byoc_tensor_type(m, BYOC_FLOAT32, rank, dims && rank <= BYOC_MAX_RANK ? known : dims);
    byoc_pattern *w = t ? byoc__pat_wrap(m, BYOC_PAT_SHAPE, p) : NULL;
    if (w) {
        w->type = t;
        w->any_dims = any;
    }
    return w;
}
BYOC_API byoc_pattern *byoc_pat_has_type(byoc_module *m, byoc_pattern *p, const byoc_type *t) {
    if (!m) return NULL;
    byoc_pattern *w = t ? byoc__pat_wrap(m, BYOC_PAT_TYPE, p) : NULL;
    if (w) w->type = t;
    return w;
}
BYOC_API byoc_pattern *byoc_pat_dominates(byoc_module *m, byoc_pattern *parent, byoc_pattern *path,
                                          byoc_pattern *child) {
    if (!m) return NULL;
    if (!parent || !path || !child) return NULL;
    byoc_pattern *p = byoc__pat_new(m, BYOC_PAT_DOMINATOR);
    if (!p) return NULL;
    byoc_pattern *pp[2] = {parent, path};
    p->inner = child;
    p->args = byoc__pat_array(m, pp, 2);
    p->nargs = 2;
    return p;
}

/* the direct sub-patterns of p */
BYOC__PRIVATE int byoc__pat_children(const byoc_pattern *p, const byoc_pattern **out) {
    int n = 0;
    switch (p->kind) {
    case BYOC_PAT_CALL: out[n++] = p->inner; /* fallthrough */
    case BYOC_PAT_TUPLE: case BYOC_PAT_TUPLE_GET_ITEM:
        for (int i = 0; i < p->nargs; ++i) out[n++] = p->args[i];
        return n;
    case BYOC_PAT_ALT: out[0] = p->left; out[1] = p->right; return 2;
    case BYOC_PAT_ATTR: case BYOC_PAT_DTYPE: case BYOC_PAT_SHAPE: case BYOC_PAT_TYPE: out[0] = p->inner; return 1;
    case BYOC_PAT_DOMINATOR: out[0] = p->args[0]; out[1] = p->args[1]; out[2] = p->inner; return 3;
    default: return 0;
    }
}
BYOC__PRIVATE int byoc__pat_child_count(const byoc_pattern *p) {
    switch (p->kind) {
    case BYOC_PAT_CALL: return 1 + (p->nargs > 0 ? p->nargs : 0);
    case BYOC_PAT_TUPLE: case BYOC_PAT_TUPLE_GET_ITEM: return p->nargs > 0 ? p->nargs : 0;
    case BYOC_PAT_ALT: return 2;
    case BYOC_PAT_ATTR: case BYOC_PAT_DTYPE: case BYOC_PAT_SHAPE: case BYOC_PAT_TYPE: return 1;
    case BYOC_PAT_DOMINATOR: return 3;
    default: return 0;
    }
}

/* ---- printer ---- */
typedef struct byoc__pat_printer {
    byoc__buf out;
    byoc__map uses;  /* pattern -> number of references */
    byoc__map names; /* shared pattern -> binding number + 1 */
    int next;
} byoc__pat_printer;

BYOC__PRIVATE void byoc__pat_count(byoc__pat_printer *pp, const byoc_pattern *p) {
    /* iterative: count references, descend on first visit */
    const byoc_pattern **stack = NULL;
    stbds_arrput(stack, p);
    while (stbds_arrlen(stack)) {
        const byoc_pattern *q = stbds_arrpop(stack);
        intptr_t n = byoc__map_get(&pp->uses, q, 0);
        byoc__map_put(&pp->uses, q, n + 1);
        if (n) continue;
        int k = byoc__pat_child_count(q);
        const byoc_pattern **kids =
            BYOC__CAST(const byoc_pattern **, BYOC_MALLOC(sizeof(byoc_pattern *) * (size_t)(k + 1)));
        if (!kids) break;
        byoc__pat_children(q, kids);
        for (int i = k - 1; i >= 0; --i) stbds_arrput(stack, kids[i]);
        BYOC_FREE(kids);
    }
    stbds_arrfree(stack);
}

BYOC__PRIVATE void byoc__pat_write(byoc__pat_printer *pp, const byoc_pattern *p, int top);

/* is_expr's argument, written as one Relay expression (literals, tuples, projections, op calls);
   returns 0 if it holds anything else, which the text form cannot carry */
BYOC__PRIVATE int byoc__write_inline_expr(byoc__buf *b, const byoc_node *e, int depth) {
    char lit[64];
    if (depth > BYOC__MAX_DEPTH) return 0;
    switch (e->kind) {
    case BYOC_NODE_CONSTANT:
        if (!byoc__scalar_literal(e, lit, sizeof lit)) break;
        if (b) byoc__buf_puts(b, lit);
        return 1;
    case BYOC_NODE_TUPLE:
        if (b) byoc__buf_puts(b, "(");
        for (int i = 0; i < e->nargs; ++i) {
            if (b && i) byoc__buf_puts(b, ", ");
            if (!byoc__write_inline_expr(b, e->args[i], depth + 1)) return 0;
        }
        if (b) byoc__buf_puts(b, e->nargs == 1 ? ",)" : ")");
        return 1;
    case BYOC_NODE_TUPLE_GET_ITEM:
        if (b) byoc__buf_puts(b, "(");
        if (!byoc__write_inline_expr(b, e->args[0], depth + 1)) return 0;
        if (b) byoc__buf_printf(b, ").%d", e->index);
        return 1;
    case BYOC_NODE_CALL:
        if (!e->op) break;
        if (b) byoc__buf_printf(b, "%s(", e->op->def.name);
        for (int i = 0; i < e->nargs; ++i) {
            if (b && i) byoc__buf_puts(b, ", ");
            if (!byoc__write_inline_expr(b, e->args[i], depth + 1)) return 0;
        }
        if (b) {
            byoc__printer ap; /* only for its attribute writer */
            memset(&ap, 0, sizeof ap);
            ap.out = *b;
            byoc__print_attrs(&ap, &e->attrs, e->op, e->nargs == 0);
            *b = ap.out;
            byoc__buf_puts(b, ")");
        }
        return 1;
    default: break;
    }
    if (b) byoc__buf_printf(b, "<expr #%u>", (unsigned)e->id);
    return 0;
}

/* shared, non-trivial sub-patterns get a binding line before their first use */
BYOC__PRIVATE void byoc__pat_bind_shared(byoc__pat_printer *pp, const byoc_pattern *p, int depth) {
    if (depth > 200 || byoc__map_has(&pp->names, p)) return;
    int k = byoc__pat_child_count(p);
    const byoc_pattern *kids[260];
    if (k > 256) k = 256;
    byoc__pat_children(p, kids);
    for (int i = 0; i < k; ++i) byoc__pat_bind_shared(pp, kids[i], depth + 1);
    if (byoc__map_get(&pp->uses, p, 0) > 1 && p->kind != BYOC_PAT_OP) {
        byoc__buf tmp = pp->out;
        (void)tmp;
        int id = ++pp->next;
        byoc__buf_printf(&pp->out, "p%d = ", id);
        byoc__pat_write(pp, p, 1);
        byoc__buf_puts(&pp->out, "\n");
        byoc__map_put(&pp->names, p, id);
    }
}

BYOC__PRIVATE void byoc__pat_write(byoc__pat_printer *pp, const byoc_pattern *p, int top) {
    byoc__buf *b = &pp->out;
    intptr_t named = byoc__map_get(&pp->names, p, 0);
    if (named && !top) { byoc__buf_printf(b, "p%d", (int)named); return; }
    switch (p->kind) {
    case BYOC_PAT_WILDCARD: byoc__buf_puts(b, "wildcard()"); return;
    case BYOC_PAT_CONSTANT: byoc__buf_puts(b, "is_constant()"); return;
    case BYOC_PAT_VAR:
        if (p->name[0]) { byoc__buf_puts(b, "is_var("); byoc__print_string(b, p->name); byoc__buf_puts(b, ")"); }
        else byoc__buf_puts(b, "is_var()");
        return;
    case BYOC_PAT_EXPR:
        byoc__buf_puts(b, "is_expr(");
        byoc__write_inline_expr(b, p->expr, 0);
        byoc__buf_puts(b, ")");
        return;
    case BYOC_PAT_OP:
        byoc__buf_puts(b, "is_op(");
        byoc__print_string(b, p->op->def.name);
        byoc__buf_puts(b, ")");
        return;
    case BYOC_PAT_CALL:
        if (p->inner->kind == BYOC_PAT_ALT || p->inner->kind == BYOC_PAT_DOMINATOR) {
            byoc__buf_puts(b, "(");
            byoc__pat_write(pp, p->inner, 0);
            byoc__buf_puts(b, ")");
        } else byoc__pat_write(pp, p->inner, 0);
        byoc__buf_puts(b, "(");
        if (p->nargs < 0) byoc__buf_puts(b, "*");
        for (int i = 0; i < p->nargs; ++i) {
            if (i) byoc__buf_puts(b, ", ");
            byoc__pat_write(pp, p->args[i], 0);
        }
        byoc__buf_puts(b, ")");
        return;
    case BYOC_PAT_TUPLE:
        if (p->nargs < 0) { byoc__buf_puts(b, "is_tuple(None)"); return; }
        byoc__buf_puts(b, "is_tuple([");
        for (int i = 0; i < p->nargs; ++i) {
            if (i) byoc__buf_puts(b, ", ");
            byoc__pat_write(pp, p->args[i], 0);
        }
        byoc__buf_puts(b, "])");
        return;
    case BYOC_PAT_TUPLE_GET_ITEM:
        byoc__buf_puts(b, "is_tuple_get_item(");
        byoc__pat_write(pp, p->args[0], 0);
        if (p->index >= 0) byoc__buf_printf(b, ", %d)", p->index);
        else byoc__buf_puts(b, ")");
        return;
    case BYOC_PAT_ALT:
        byoc__buf_puts(b, "(");
        byoc__pat_write(pp, p->left, 0);
        byoc__buf_puts(b, " | ");
        byoc__pat_write(pp, p->right, 0);
        byoc__buf_puts(b, ")");
        return;
    case BYOC_PAT_ATTR:
        byoc__pat_write(pp, p->inner, 0);
        byoc__buf_puts(b, ".has_attr({");
        for (int i = 0; i < p->attrs.count; ++i) {
            if (i) byoc__buf_puts(b, ", ");
            byoc__print_string(b, p->attrs.items[i].name);
            byoc__buf_puts(b, ": ");
            byoc__print_attr_value(b, &p->attrs.items[i].value);
        }
        byoc__buf_puts(b, "})");
        return;
    case BYOC_PAT_DTYPE:
        byoc__pat_write(pp, p->inner, 0);
        byoc__buf_printf(b, ".has_dtype(\"%s\")", byoc_dtype_name(p->dtype));
        return;
    case BYOC_PAT_SHAPE:
        byoc__pat_write(pp, p->inner, 0);
        byoc__buf_puts(b, ".has_shape([");
        for (int i = 0; i < p->type->rank; ++i) {
            if (i) byoc__buf_puts(b, ", ");
            if (p->any_dims >> i & 1) byoc__buf_puts(b, "*");
            else if (p->type->dims[i] < 0) byoc__buf_puts(b, "?");
            else byoc__buf_printf(b, "%lld", (long long)p->type->dims[i]);
        }
        byoc__buf_puts(b, "])");
        return;
    case BYOC_PAT_TYPE:
        byoc__pat_write(pp, p->inner, 0);
        byoc__buf_puts(b, ".has_type(\"");
        byoc__type_write(b, p->type);
        byoc__buf_puts(b, "\")");
        return;
    case BYOC_PAT_DOMINATOR:
        byoc__buf_puts(b, "dominates(");
        byoc__pat_write(pp, p->args[0], 0);
        byoc__buf_puts(b, ", ");
        byoc__pat_write(pp, p->args[1], 0);
        byoc__buf_puts(b, ", ");
        byoc__pat_write(pp, p->inner, 0);
        byoc__buf_puts(b, ")");
        return;
    }
}

BYOC_API char *byoc_pattern_print(byoc_module *m, const byoc_pattern *p) {
    if (!m) return NULL;
    byoc__pat_printer pp;
    memset(&pp, 0, sizeof pp);
    pp.out.m = m;
    byoc__pat_count(&pp, p);
    byoc__pat_bind_shared(&pp, p, 0);
    intptr_t root_name = byoc__map_get(&pp.names, p, 0);
    if (root_name) byoc__buf_printf(&pp.out, "p%d", (int)root_name);
    else byoc__pat_write(&pp, p, 1);
    byoc__map_free(&pp.uses);
    byoc__map_free(&pp.names);
    if (pp.out.oom) { byoc_free(m, pp.out.data); return NULL; }
    return pp.out.data;
}

/* ---- parser (the Relay lexer with '|' and '*' added) ---- */
typedef struct byoc__pat_name { char *key; byoc_pattern *value; } byoc__pat_name;

BYOC__PRIVATE byoc_pattern *byoc__parse_pat(byoc__parser *p, byoc__pat_name **names);

BYOC__PRIVATE int byoc__parse_string_arg(byoc__parser *p, char *out, size_t cap) {
    if (p->tok.kind != BYOC__T_STRING) return byoc__expected(p, "a string");
    byoc_attr_value v; /* the attribute reader undoes the escapes the printer writes */
    if (!byoc__parse_attr_value(p, &v)) return 0;
    snprintf(out, cap, "%s", v.s);
    return 1;
}

/* pattern arguments "(p, q, ...)" after '(' has been read; '*' alone means any arguments */
BYOC__PRIVATE int byoc__parse_pat_args(byoc__parser *p, byoc__pat_name **names, byoc_pattern ***out, int *any) {
    *any = 0;
    if (p->tok.kind == BYOC__T_STAR) {
        byoc__next(p);
        *any = 1;
        return byoc__expect(p, BYOC__T_RPAREN);
    }
    while (!p->failed && p->tok.kind != BYOC__T_RPAREN) {
        byoc_pattern *a = byoc__parse_pat(p, names);
        if (!a) return 0;
        stbds_arrput(*out, a);
        if (!byoc__accept(p, BYOC__T_COMMA)) break;
    }
    return byoc__expect(p, BYOC__T_RPAREN);
}

BYOC__PRIVATE byoc_pattern *byoc__pat_built(byoc__parser *p, byoc_pattern *r, int line, int col) {
    if (!r && !p->failed)
        byoc__parse_fail(p, line, col, "%s", p->m->has_error ? p->m->error.message : "invalid pattern");
    return p->failed ? NULL : r;
}

BYOC__PRIVATE byoc_pattern *byoc__parse_pat_primary(byoc__parser *p, byoc__pat_name **names) {
    int line = p->tok.line, col = p->tok.col;
    byoc_module *m = p->m;
    if (byoc__accept(p, BYOC__T_LPAREN)) {
        byoc_pattern *r = byoc__parse_pat(p, names);
        return r && byoc__expect(p, BYOC__T_RPAREN) ? r : NULL;
    }
    if (p->tok.kind != BYOC__T_IDENT) { byoc__expected(p, "a pattern"); return NULL; }
    char word[64];
    snprintf(word, sizeof word, "%.*s", (int)(p->tok.len < 63 ? p->tok.len : 63), p->tok.start);
    byoc__next(p);
    if (p->tok.kind != BYOC__T_LPAREN) {
        ptrdiff_t i = stbds_shgeti(*names, word);
        if (i < 0) { byoc__parse_fail(p, line, col, "undefined pattern name '%s'", word); return NULL; }
        return (*names)[i].value;
    }
    byoc__next(p);
    char s[128];
    if (!strcmp(word, "wildcard"))
        return byoc__expect(p, BYOC__T_RPAREN) ? byoc__pat_built(p, byoc_pat_wildcard(m), line, col) : NULL;
    if (!strcmp(word, "is_constant"))
        return byoc__expect(p, BYOC__T_RPAREN) ? byoc__pat_built(p, byoc_pat_constant(m), line, col) : NULL;
    if (!strcmp(word, "is_var")) {
        s[0] = 0;
        if (p->tok.kind == BYOC__T_STRING && !byoc__parse_string_arg(p, s, sizeof s)) return NULL;
        return byoc__expect(p, BYOC__T_RPAREN) ? byoc__pat_built(p, byoc_pat_var(m, s), line, col) : NULL;
    }
    if (!strcmp(word, "is_op")) {
        int sl = p->tok.line, sc = p->tok.col;
        if (!byoc__parse_string_arg(p, s, sizeof s) || !byoc__expect(p, BYOC__T_RPAREN)) return NULL;
        if (!byoc_op_get(s)) { byoc__parse_fail(p, sl, sc, "unknown op '%s'", s); return NULL; }
        return byoc__pat_built(p, byoc_pat_op(m, s), line, col);
    }
    if (!strcmp(word, "is_expr")) {
        byoc__push_scope(p);
        int el = p->tok.line, ec = p->tok.col;
        byoc_node *e = byoc__parse_expr(p);
        byoc__pop_scope(p);
        if (!e || !byoc__expect(p, BYOC__T_RPAREN)) return NULL;
        if (!byoc__write_inline_expr(NULL, e, 0)) {
            byoc__parse_fail(p, el, ec, "is_expr takes literals, tuples and op calls of them");
            return NULL;
        }
        return byoc__pat_built(p, byoc_pat_expr(m, e), line, col);
    }
    if (!strcmp(word, "is_tuple")) {
        if (byoc__is_word(p, "None")) {
            byoc__next(p);
            return byoc__expect(p, BYOC__T_RPAREN) ? byoc__pat_built(p, byoc_pat_tuple(m, NULL, -1), line, col) : NULL;
        }
        if (!byoc__expect(p, BYOC__T_LBRACKET)) return NULL;
        byoc_pattern **fields = NULL;
        while (!p->failed && p->tok.kind != BYOC__T_RBRACKET) {
            byoc_pattern *f = byoc__parse_pat(p, names);
            if (!f) break;
            stbds_arrput(fields, f);
            if (!byoc__accept(p, BYOC__T_COMMA)) break;
        }
        byoc_pattern *r = NULL;
        if (byoc__expect(p, BYOC__T_RBRACKET) && byoc__expect(p, BYOC__T_RPAREN))
            r = byoc__pat_built(p, byoc_pat_tuple(m, fields, (int)stbds_arrlen(fields)), line, col);
        stbds_arrfree(fields);
        return r;
    }
    if (!strcmp(word, "is_tuple_get_item")) {
        byoc_pattern *t = byoc__parse_pat(p, names);
        int64_t idx = -1;
        if (!t) return NULL;
        if (byoc__accept(p, BYOC__T_COMMA)) {
            int il = p->tok.line, ic = p->tok.col;
            if (byoc__is_word(p, "None")) byoc__next(p);
            else if (!byoc__tok_int(p, &idx)) return NULL;
            else if (idx < -1 || idx > 1000000) { /* -1: any index, as in TVM */
                byoc__parse_fail(p, il, ic, "tuple index %lld out of range (-1 or None: any)", (long long)idx);
                return NULL;
            }
        }
        return byoc__expect(p, BYOC__T_RPAREN) ? byoc__pat_built(p, byoc_pat_tuple_get_item(m, t, (int)idx), line, col)
                                               : NULL;
    }
    if (!strcmp(word, "dominates")) {
        byoc_pattern *a = byoc__parse_pat(p, names);
        byoc_pattern *b = a && byoc__expect(p, BYOC__T_COMMA) ? byoc__parse_pat(p, names) : NULL;
        byoc_pattern *c = b && byoc__expect(p, BYOC__T_COMMA) ? byoc__parse_pat(p, names) : NULL;
        return c && byoc__expect(p, BYOC__T_RPAREN) ? byoc__pat_built(p, byoc_pat_dominates(m, a, b, c), line, col)
                                                    : NULL;
    }
    byoc__parse_fail(p, line, col, "unknown pattern function '%s'", word);
    return NULL;
}

BYOC__PRIVATE byoc_pattern *byoc__parse_pat_postfix(byoc__parser *p, byoc__pat_name **names) {
    if (++p->depth > BYOC__MAX_DEPTH) {
        byoc__parse_fail(p, p->tok.line, p->tok.col, "pattern nested too deeply (limit %d)", BYOC__MAX_DEPTH);
        p->depth--;
        return NULL;
    }
    byoc_pattern *r = byoc__parse_pat_primary(p, names);
    byoc_module *m = p->m;
    while (r && !p->failed) {
        int line = p->tok.line, col = p->tok.col;
        /* at statement level a '(' on a new line starts the next statement, as in Python */
        if (p->tok.kind == BYOC__T_LPAREN && p->depth == 1 && p->tok.line > p->prev_line) break;
        if (p->tok.kind == BYOC__T_LPAREN) { /* a call pattern: r is the callee */
            byoc__next(p);
            byoc_pattern **args = NULL;
            int any;
            if (byoc__parse_pat_args(p, names, &args, &any))
                r = byoc__pat_built(p, byoc_pat_call(m, r, args, any ? -1 : (int)stbds_arrlen(args)), line, col);
            else r = NULL;
            stbds_arrfree(args);
            continue;
        }
        if (p->tok.kind != BYOC__T_DOT) break;
        byoc__next(p);
        if (p->tok.kind != BYOC__T_IDENT) { byoc__expected(p, "a method name"); r = NULL; break; }
        char method[32];
        snprintf(method, sizeof method, "%.*s", (int)(p->tok.len < 31 ? p->tok.len : 31), p->tok.start);
        int ml = p->tok.line, mc = p->tok.col;
        byoc__next(p);
        if (!byoc__expect(p, BYOC__T_LPAREN)) { r = NULL; break; }
        char s[256];
        if (!strcmp(method, "optional") && byoc__is_word(p, "lambda")) {
            /* p.optional(lambda x: f(x, ...)) == p | f(p, ...): x names p inside the body only */
            byoc__next(p);
            if (p->tok.kind != BYOC__T_IDENT) { byoc__expected(p, "the lambda's parameter name"); r = NULL; break; }
            char param[64];
            snprintf(param, sizeof param, "%.*s", (int)(p->tok.len < 63 ? p->tok.len : 63), p->tok.start);
            byoc__next(p);
            if (!byoc__expect(p, BYOC__T_COLON)) { r = NULL; break; }
            ptrdiff_t prev = stbds_shgeti(*names, param);
            byoc_pattern *shadowed = prev >= 0 ? (*names)[prev].value : NULL;
            stbds_shput(*names, param, r);
            byoc_pattern *f = byoc__parse_pat(p, names);
            if (shadowed) stbds_shput(*names, param, shadowed);
            else (void)stbds_shdel(*names, param);
            r = f && byoc__expect(p, BYOC__T_RPAREN) ? byoc__pat_built(p, byoc_pat_alt(m, r, f), ml, mc) : NULL;
        } else if (!strcmp(method, "optional")) {
            byoc_pattern *f = byoc__parse_pat(p, names);
            r = f && byoc__expect(p, BYOC__T_RPAREN) ? byoc__pat_built(p, byoc_pat_optional(m, r, f), ml, mc) : NULL;
        } else if (!strcmp(method, "has_dtype")) {
            int sl = p->tok.line, sc = p->tok.col;
            if (!byoc__parse_string_arg(p, s, sizeof s) || !byoc__expect(p, BYOC__T_RPAREN)) { r = NULL; break; }
            byoc_dtype dt = byoc_dtype_from_name(s);
            if (dt == BYOC_DTYPE_INVALID) { byoc__parse_fail(p, sl, sc, "unknown dtype '%s'", s); r = NULL; break; }
            r = byoc__pat_built(p, byoc_pat_has_dtype(m, r, dt), ml, mc);
        } else if (!strcmp(method, "has_type")) {
            int sl = p->tok.line, sc = p->tok.col;
            if (!byoc__parse_string_arg(p, s, sizeof s) || !byoc__expect(p, BYOC__T_RPAREN)) { r = NULL; break; }
            byoc_diag d;
            const byoc_type *t = byoc_type_parse(m, s, &d);
            if (!t) { byoc__parse_fail(p, sl, sc, "bad type in has_type: %s", d.message); r = NULL; break; }
            r = byoc__pat_built(p, byoc_pat_has_type(m, r, t), ml, mc);
        } else if (!strcmp(method, "has_shape")) {
            if (!byoc__expect(p, BYOC__T_LBRACKET)) { r = NULL; break; }
            int64_t dims[BYOC_MAX_RANK];
            int rank = 0;
            while (!p->failed && p->tok.kind != BYOC__T_RBRACKET) {
                int dl = p->tok.line, dc = p->tok.col;
                if (rank == BYOC_MAX_RANK) { byoc__parse_fail(p, dl, dc, "rank above %d", BYOC_MAX_RANK); break; }
                if (byoc__accept(p, BYOC__T_QUESTION)) dims[rank++] = BYOC_DIM_UNKNOWN;
                else if (byoc__accept(p, BYOC__T_STAR)) dims[rank++] = BYOC_DIM_WILDCARD;
                else if (!byoc__tok_int(p, &dims[rank])) break;
                else if (dims[rank] < 0 || dims[rank] > BYOC_MAX_DIM) {
                    byoc__parse_fail(p, dl, dc, "dimension out of range");
                    break;
                } else rank++;
                if (!byoc__accept(p, BYOC__T_COMMA)) break;
            }
            if (p->failed || !byoc__expect(p, BYOC__T_RBRACKET) || !byoc__expect(p, BYOC__T_RPAREN)) {
                r = NULL;
                break;
            }
            r = byoc__pat_built(p, byoc_pat_has_shape(m, r, rank, dims), ml, mc);
        } else if (!strcmp(method, "has_attr")) {
            if (!byoc__expect(p, BYOC__T_LBRACE)) { r = NULL; break; }
            byoc_attrs attrs;
            memset(&attrs, 0, sizeof attrs);
            while (!p->failed && p->tok.kind != BYOC__T_RBRACE) {
                byoc_attr_value v;
                if (!byoc__parse_string_arg(p, s, sizeof s) || !byoc__expect(p, BYOC__T_COLON) ||
                    !byoc__parse_attr_value(p, &v))
                    break;
                byoc_attrs_set(m, &attrs, s, &v);
                if (!byoc__accept(p, BYOC__T_COMMA)) break;
            }
            if (p->failed || !byoc__expect(p, BYOC__T_RBRACE) || !byoc__expect(p, BYOC__T_RPAREN)) { r = NULL; break; }
            r = byoc__pat_built(p, byoc_pat_has_attr(m, r, &attrs), ml, mc);
        } else {
            byoc__parse_fail(p, ml, mc, "unknown pattern method '%s'", method);
            r = NULL;
        }
    }
    p->depth--;
    return p->failed ? NULL : r;
}

BYOC__PRIVATE byoc_pattern *byoc__parse_pat(byoc__parser *p, byoc__pat_name **names) {
    int line = p->tok.line, col = p->tok.col;
    byoc_pattern *r = byoc__parse_pat_postfix(p, names);
    while (r && !p->failed && byoc__accept(p, BYOC__T_PIPE)) {
        byoc_pattern *q = byoc__parse_pat_postfix(p, names);
        r = q ? byoc__pat_built(p, byoc_pat_alt(p->m, r, q), line, col) : NULL;
    }
    return p->failed ? NULL : r;
}

BYOC_API byoc_pattern *byoc_pattern_parse(byoc_module *m, const char *text, size_t len, const char *filename,
                                          byoc_diag *diag) {
    if (!m) { byoc__null_arg(diag, __func__, "module"); return NULL; }
    byoc_diag local;
    if (!diag) diag = &local;
    memset(diag, 0, sizeof *diag);
    if (m->has_error) { byoc__diag(diag, m->error.code, 0, 0, 0, "%s", m->error.message); return NULL; }
    byoc__parser p;
    byoc__parser_init(&p, m, diag, byoc_intern(m, filename ? filename : "<pattern>"), text ? text : "", text ? len : 0);

    byoc__pat_name *names = NULL;
    stbds_sh_new_strdup(names);
    byoc_pattern *result = NULL, *last_bound = NULL;
    byoc__next(&p);
    while (!p.failed && p.tok.kind != BYOC__T_EOF) {
        if (p.tok.kind == BYOC__T_IDENT && byoc__peek_kind(&p) == BYOC__T_EQUAL) {
            byoc__token name = p.tok;
            byoc__next(&p);
            byoc__next(&p);
            byoc_pattern *v = byoc__parse_pat(&p, &names);
            if (!v) break;
            char key[64];
            snprintf(key, sizeof key, "%.*s", (int)(name.len < 63 ? name.len : 63), name.start);
            stbds_shput(names, key, v);
            last_bound = v;
        } else {
            if (result) { byoc__expected(&p, "end of the pattern"); break; }
            result = byoc__parse_pat(&p, &names);
            if (!result) break;
        }
        byoc__accept(&p, BYOC__T_SEMI);
    }
    if (!p.failed && !result) result = last_bound;
    if (!p.failed && !result) byoc__parse_fail(&p, p.tok.line, p.tok.col, "no pattern in the text");
    stbds_shfree(names);
    byoc__parser_free(&p); /* is_expr(...) used the expression parser */
    return p.failed ? NULL : result;
}

// [SECTION] impl: pattern matching
typedef struct byoc__binding { const byoc_pattern *p; byoc_node *e; } byoc__binding;

struct byoc_match {
    byoc__binding *memo;      /* stb_ds array: bindings in match order; truncated to roll back */
    byoc_node **path_nodes;   /* nodes matched by dominator path patterns */
    const byoc_graph *graph;
    int *ipdom;               /* post-dominators of graph, computed on first use */
    byoc_pattern **scratch;   /* stb_ds array: patterns made while matching (reassociation), freed with the match */
};

BYOC__PRIVATE byoc_node *byoc__memo_get(const byoc_match *mt, const byoc_pattern *p) {
    for (ptrdiff_t i = stbds_arrlen(mt->memo) - 1; i >= 0; --i)
        if (mt->memo[i].p == p) return mt->memo[i].e;
    return NULL;
}

BYOC__PRIVATE void byoc__rollback(byoc_match *mt, ptrdiff_t memo_len, ptrdiff_t path_len) {
    if (mt->memo) stbds_arrsetlen(mt->memo, memo_len);
    if (mt->path_nodes) stbds_arrsetlen(mt->path_nodes, path_len);
}

BYOC__PRIVATE int byoc__match(byoc_match *mt, const byoc_pattern *p, byoc_node *e, int depth);

/* numeric-aware attribute comparison: a pattern's [1, 1] matches a call's [1, 1], 1 matches 1.0 */
BYOC__PRIVATE int byoc__attr_matches(const byoc_attr_value *want, const byoc_attr_value *have) {
    if (byoc_attr_value_equal(want, have)) return 1;
    int wn = want->kind == BYOC_ATTR_INT || want->kind == BYOC_ATTR_FLOAT || want->kind == BYOC_ATTR_BOOL;
    int hn = have->kind == BYOC_ATTR_INT || have->kind == BYOC_ATTR_FLOAT || have->kind == BYOC_ATTR_BOOL;
    if (wn && hn) {
        double a = want->kind == BYOC_ATTR_FLOAT ? want->f : (double)want->i,
               b = have->kind == BYOC_ATTR_FLOAT ? have->f : (double)have->i;
        return a == b;
    }
    if ((want->kind == BYOC_ATTR_INT_LIST || want->kind == BYOC_ATTR_FLOAT_LIST) &&
        (have->kind == BYOC_ATTR_INT_LIST || have->kind == BYOC_ATTR_FLOAT_LIST) && want->count == have->count) {
        for (int i = 0; i < want->count; ++i) {
            double a = want->kind == BYOC_ATTR_INT_LIST ? (double)want->ints[i] : want->floats[i];
            double b = have->kind == BYOC_ATTR_INT_LIST ? (double)have->ints[i] : have->floats[i];
            if (a != b) return 0;
        }
        return 1;
    }
    return 0;
}

BYOC__PRIVATE int byoc__op_attrs_match(const byoc_attrs *want, const byoc_op *op) {
    for (int i = 0; i < want->count; ++i) {
        const byoc_attr *a = &want->items[i];
        if (strcmp(a->name, "TOpPattern") != 0) return 0; /* ops carry no other attributes */
        byoc_attr_value have;
        memset(&have, 0, sizeof have);
        have.kind = BYOC_ATTR_INT;
        have.i = op->def.pattern;
        if (!byoc__attr_matches(&a->value, &have)) return 0;
    }
    return 1;
}

/* the callee of a call: an op pattern (possibly with alternatives or TOpPattern attributes), or any
   pattern matched against a non-op callee */
BYOC__PRIVATE int byoc__match_callee(byoc_match *mt, const byoc_pattern *p, byoc_node *call, int depth) {
    switch (p->kind) {
    case BYOC_PAT_OP: return call->op == p->op;
    case BYOC_PAT_WILDCARD: return 1;
    case BYOC_PAT_ALT: {
        ptrdiff_t ml = stbds_arrlen(mt->memo), pl = stbds_arrlen(mt->path_nodes);
        if (byoc__match_callee(mt, p->left, call, depth + 1)) return 1;
        byoc__rollback(mt, ml, pl);
        return byoc__match_callee(mt, p->right, call, depth + 1);
    }
    case BYOC_PAT_ATTR:
        if (call->op)
            return byoc__match_callee(mt, p->inner, call, depth + 1) && byoc__op_attrs_match(&p->attrs, call->op);
        return call->callee && byoc__match(mt, p, call->callee, depth + 1);
    default:
        return call->callee && byoc__match(mt, p, call->callee, depth + 1);
    }
}

BYOC__PRIVATE int byoc__match_args(byoc_match *mt, byoc_pattern *const *pats, byoc_node *const *nodes, int n, int swap,
                                   int depth) {
    for (int i = 0; i < n; ++i) {
        int k = swap ? n - 1 - i : i;
        if (!byoc__match(mt, pats[i], nodes[k], depth + 1)) return 0;
    }
    return 1;
}

/* dominates(parent, path, child), as TVM's DFPatternMatcher::MatchesPath: starting at the child, a node
   that reads a node matching `parent` is done (its other inputs, a bias or a weight, are not asked about);
   any other node's inputs must all match `path` and are checked the same way. One parent for all (the
   binding), and the child must post-dominate it (TVM's DominatesParent). TVM looks at a node's inputs in
   order and stops at the parent, so the inputs before it must still be path nodes; here the parent's
   position does not matter. */
BYOC__PRIVATE int byoc__match_dominator(byoc_match *mt, const byoc_pattern *p, byoc_node *e, int depth) {
    const byoc_graph *g = mt->graph;
    if (!g || !byoc__match(mt, p->inner, e, depth + 1)) return 0;
    if (!mt->ipdom) {
        mt->ipdom = BYOC__CAST(int *, BYOC_MALLOC(sizeof(int) * (size_t)(g->count ? g->count : 1)));
        if (!mt->ipdom || byoc_graph_post_dominators(g, mt->ipdom) != BYOC_OK) return 0;
    }
    int child_index = byoc_graph_index(g, e);
    if (child_index < 0) return 0;
    byoc_node **work = NULL;
    byoc_node *parent = NULL;
    byoc__map visited = BYOC__MAP_EMPTY;
    int ok = 1;
    stbds_arrput(work, e);
    while (ok && stbds_arrlen(work)) {
        byoc_node *cur = stbds_arrpop(work);
        int n = byoc__input_count(cur, 0), reads_parent = 0;
        /* only a call's callee is not an input here */
        for (int i = 0; i < n && !reads_parent; ++i) {
            byoc_node *in = byoc__input_at(cur, i);
            if (cur->kind == BYOC_NODE_CALL && in == cur->callee) continue;
            ptrdiff_t ml = stbds_arrlen(mt->memo), pl = stbds_arrlen(mt->path_nodes);
            /* the first match binds the parent pattern: another node matching it is not the parent */
            if (byoc__match(mt, p->args[0], in, depth + 1)) {
                reads_parent = 1;
                parent = in;
            } else {
                byoc__rollback(mt, ml, pl);
            }
        }
        for (int i = 0; ok && !reads_parent && i < n; ++i) {
            byoc_node *in = byoc__input_at(cur, i);
            if ((cur->kind == BYOC_NODE_CALL && in == cur->callee) || byoc__map_has(&visited, in)) continue;
            byoc__map_put(&visited, in, 1);
            ptrdiff_t ml = stbds_arrlen(mt->memo), pl = stbds_arrlen(mt->path_nodes);
            /* path nodes may be many: match each against a fresh copy of the bindings, then drop them */
            if (!byoc__match(mt, p->args[1], in, depth + 1)) { ok = 0; break; }
            byoc__rollback(mt, ml, pl);
            stbds_arrput(mt->path_nodes, in);
            stbds_arrput(work, in);
        }
    }
    stbds_arrfree(work);
    byoc__map_free(&visited);
    if (!ok || !parent) return 0;
    int parent_index = byoc_graph_index(g, parent);
    return parent_index >= 0 && byoc__post_dominates(mt->ipdom, child_index, parent_index);
}

/* call(a0, a1) with callee pattern `callee`, owned by the match (NULL when out of memory) */
BYOC__PRIVATE byoc_pattern *byoc__scratch_call(byoc_match *mt, byoc_pattern *callee, byoc_pattern *a0,
                                               byoc_pattern *a1) {
    byoc_pattern *c = BYOC__CAST(byoc_pattern *, BYOC_CALLOC(1, sizeof(byoc_pattern)));
    byoc_pattern **args = BYOC__CAST(byoc_pattern **, BYOC_MALLOC(2 * sizeof(byoc_pattern *)));
    if (!c || !args) { BYOC_FREE(c); BYOC_FREE(args); return NULL; }
    args[0] = a0;
    args[1] = a1;
    c->kind = BYOC_PAT_CALL;
    c->inner = callee;
    c->args = args;
    c->nargs = 2;
    c->index = -1;
    stbds_arrput(mt->scratch, c);
    return c;
}
BYOC__PRIVATE int byoc__pat_names_op(const byoc_pattern *call, const byoc_op *op) {
    return call && call->kind == BYOC_PAT_CALL && call->nargs == 2 && call->inner && call->inner->kind == BYOC_PAT_OP &&
           call->inner->op == op;
}
BYOC__PRIVATE int byoc__calls_op(const byoc_node *e, const byoc_op *op) {
    return e->kind == BYOC_NODE_CALL && e->op == op;
}

/* TVM's reassociation of multiply and divide, tried when the call's op differs from the pattern's:
   divide(multiply(a, b), c) also matches multiply(b, divide(a, c)) (either factor), and
   multiply(divide(a, b), c) also matches divide(multiply(a, c), b). So a batch-norm pattern written
   as gamma * (x - mean) / sqrt(var) matches the other spelling. */
BYOC__PRIVATE int byoc__match_reassociated(byoc_match *mt, const byoc_pattern *p, byoc_node *e, int depth) {
    if (e->nargs != 2) return 0;
    const byoc_op *multiply = byoc__ops()->multiply, *divide = byoc__ops()->divide;
    if (byoc__pat_names_op(p, divide) && byoc__pat_names_op(p->args[0], multiply) && byoc__calls_op(e, multiply) &&
        (byoc__calls_op(e->args[0], divide) || byoc__calls_op(e->args[1], divide))) {
        const byoc_pattern *mul = p->args[0];
        for (int k = 0; k < 2; ++k) {
            ptrdiff_t ml = stbds_arrlen(mt->memo), pl = stbds_arrlen(mt->path_nodes);
            byoc_pattern *div = byoc__scratch_call(mt, p->inner, mul->args[k], p->args[1]);
            byoc_pattern *whole = div ? byoc__scratch_call(mt, mul->inner, mul->args[1 - k], div) : NULL;
            if (whole && byoc__match(mt, whole, e, depth + 1)) return 1;
            byoc__rollback(mt, ml, pl);
        }
        return 0;
    }
    if (byoc__pat_names_op(p, multiply) && byoc__calls_op(e, divide) &&
        (byoc__calls_op(e->args[0], multiply) || byoc__calls_op(e->args[1], multiply))) {
        for (int k = 0; k < 2; ++k) {
            if (!byoc__pat_names_op(p->args[k], divide)) continue;
            const byoc_pattern *div = p->args[k];
            byoc_pattern *mul = byoc__scratch_call(mt, p->inner, div->args[0], p->args[1 - k]);
            byoc_pattern *whole = mul ? byoc__scratch_call(mt, div->inner, mul, div->args[1]) : NULL;
            return whole && byoc__match(mt, whole, e, depth + 1);
        }
    }
    return 0;
}

BYOC__PRIVATE int byoc__match_kind(byoc_match *mt, const byoc_pattern *p, byoc_node *e, int depth) {
    const byoc_type *t = e->checked_type;
    switch (p->kind) {
    case BYOC_PAT_WILDCARD: return 1;
    case BYOC_PAT_EXPR: return e == p->expr || byoc_structural_equal(p->expr, e);
    case BYOC_PAT_VAR: return e->kind == BYOC_NODE_VAR && (!p->name[0] || strcmp(p->name, e->name) == 0);
    case BYOC_PAT_CONSTANT: return e->kind == BYOC_NODE_CONSTANT;
    case BYOC_PAT_OP: return 0; /* an op is only ever a callee */
    case BYOC_PAT_CALL: {
        if (e->kind != BYOC_NODE_CALL) return 0;
        if (!byoc__match_callee(mt, p->inner, e, depth)) return byoc__match_reassociated(mt, p, e, depth);
        if (p->nargs < 0) return 1;
        if (p->nargs != e->nargs) return 0;
        ptrdiff_t ml = stbds_arrlen(mt->memo), pl = stbds_arrlen(mt->path_nodes);
        if (byoc__match_args(mt, p->args, e->args, e->nargs, 0, depth)) return 1;
        byoc__rollback(mt, ml, pl);
        /* add and multiply commute: TVM tries the arguments swapped when the pattern names one of them
           (is_op("add"), is_op("multiply")), not for a wildcard or an alternative callee */
        const byoc_op *named = p->inner && p->inner->kind == BYOC_PAT_OP ? p->inner->op : NULL;
        if (e->nargs == 2 && named && (named == byoc__ops()->add || named == byoc__ops()->multiply)) {
            if (byoc__match_args(mt, p->args, e->args, 2, 1, depth)) return 1;
            byoc__rollback(mt, ml, pl);
        }
        return 0;
    }
    case BYOC_PAT_TUPLE:
        if (e->kind != BYOC_NODE_TUPLE) return 0;
        if (p->nargs < 0) return 1;
        return p->nargs == e->nargs && byoc__match_args(mt, p->args, e->args, e->nargs, 0, depth);
    case BYOC_PAT_TUPLE_GET_ITEM:
        return e->kind == BYOC_NODE_TUPLE_GET_ITEM && (p->index < 0 || p->index == e->index) &&
               byoc__match(mt, p->args[0], e->args[0], depth + 1);
    case BYOC_PAT_ALT: {
        ptrdiff_t ml = stbds_arrlen(mt->memo), pl = stbds_arrlen(mt->path_nodes);
        if (byoc__match(mt, p->left, e, depth + 1)) return 1;
        byoc__rollback(mt, ml, pl);
        return byoc__match(mt, p->right, e, depth + 1);
    }
    case BYOC_PAT_ATTR: {
        if (!byoc__match(mt, p->inner, e, depth + 1)) return 0;
        const byoc_attrs *have = e->kind == BYOC_NODE_CALL || e->kind == BYOC_NODE_FUNCTION ? &e->attrs : NULL;
        if (!have) return 0;
        for (int i = 0; i < p->attrs.count; ++i) {
            const byoc_attr *a = &p->attrs.items[i];
            if (!strcmp(a->name, "TOpPattern") && e->op) {
                if (!byoc__op_attrs_match(&p->attrs, e->op)) return 0;
                continue;
            }
            const byoc_attr_value *v = byoc_attrs_get(have, a->name);
            if (!v || !byoc__attr_matches(&a->value, v)) return 0;
        }
        return 1;
    }
    case BYOC_PAT_DTYPE:
        return byoc__match(mt, p->inner, e, depth + 1) && t && t->kind == BYOC_TYPE_TENSOR && t->dtype == p->dtype;
    case BYOC_PAT_SHAPE:
        if (!byoc__match(mt, p->inner, e, depth + 1) || !t || t->kind != BYOC_TYPE_TENSOR || t->rank != p->type->rank)
            return 0;
        /* '?' (BYOC_DIM_UNKNOWN) is a dimension like any other: it equals only an unknown dimension, as
           TVM's Any does under StructuralEqual; '*' (any_dims) takes any */
        for (int i = 0; i < t->rank; ++i) if (!(p->any_dims >> i & 1) && t->dims[i] != p->type->dims[i]) return 0;
        return 1;
    case BYOC_PAT_TYPE: return byoc__match(mt, p->inner, e, depth + 1) && byoc_type_equal(t, p->type);
    case BYOC_PAT_DOMINATOR: return byoc__match_dominator(mt, p, e, depth);
    }
    return 0;
}

#define BYOC__MATCH_DEPTH 1000
BYOC__PRIVATE int byoc__match(byoc_match *mt, const byoc_pattern *p, byoc_node *e, int depth) {
    if (depth > BYOC__MATCH_DEPTH) return 0; /* patterns are shallow; this bounds pathological recursion */
    byoc_node *bound = byoc__memo_get(mt, p);
    if (bound) return bound == e;
    ptrdiff_t ml = stbds_arrlen(mt->memo), pl = stbds_arrlen(mt->path_nodes);
    if (!byoc__match_kind(mt, p, e, depth)) {
        byoc__rollback(mt, ml, pl);
        return 0;
    }
    byoc__binding b = {p, e};
    stbds_arrput(mt->memo, b);
    return 1;
}

BYOC_API void byoc_match_free(byoc_match *mt) {
    if (!mt) return;
    for (ptrdiff_t i = 0; i < stbds_arrlen(mt->scratch); ++i) {
        BYOC_FREE(mt->scratch[i]->args);
        BYOC_FREE(mt->scratch[i]);
    }
    stbds_arrfree(mt->scratch);
    stbds_arrfree(mt->memo);
    stbds_arrfree(mt->path_nodes);
    BYOC_FREE(mt->ipdom);
    BYOC_FREE(mt);
}

BYOC_API byoc_node *byoc_match_get(const byoc_match *mt, const byoc_pattern *p) { return byoc__memo_get(mt, p); }

BYOC_API int byoc_pattern_match(const byoc_pattern *p, byoc_node *expr, const byoc_graph *g, byoc_match **out) {
    if (out) *out = NULL;
    if (!p || !expr) return 0;
    byoc_match *mt = BYOC__CAST(byoc_match *, BYOC_CALLOC(1, sizeof(byoc_match)));
    if (!mt) return 0;
    mt->graph = g;
    int ok = byoc__match(mt, p, expr, 0);
    if (ok && out) *out = mt;
    else byoc_match_free(mt);
    return ok;
}

// [SECTION] impl: pattern rewrite & partition
/* Does a node rebuilt on `inputs` keep n's type? Yes when every input's type is the very object n's
   input had (types are interned) and the type follows from input types alone: tuples, projections,
   calls of functions, and library ops (a user op's relation may read argument values). A call through
   a global name is left to InferType, which looks the function up again. Passes then re-infer only
   what they really changed instead of every node downstream of a change. */
BYOC__PRIVATE int byoc__same_input_types(const byoc_node *n, byoc_node *const *inputs) {
    if (n->kind == BYOC_NODE_CALL &&
        ((n->op && !n->op->builtin) || (n->callee && n->callee->kind == BYOC_NODE_GLOBAL_VAR)))
        return 0;
    int k = byoc__input_count(n, 0);
    for (int j = 0; j < k; ++j) {
        const byoc_type *t = inputs[j]->checked_type;
        if (!t || t != byoc__input_at(n, j)->checked_type) return 0;
    }
    return 1;
}

/* a node rebuilt with new inputs (same kind, op, attributes, index, span, and type where
   byoc__same_input_types holds); n must belong to m, since the rebuilt call shares n's attribute
   storage */
BYOC__PRIVATE byoc_node *byoc__rebuild(byoc_module *m, const byoc_node *n, byoc_node *const *inputs) {
    byoc_node *r = NULL;
    switch (n->kind) {
    case BYOC_NODE_CALL:
        if (n->op) r = byoc__call_op_checked(m, n->op, inputs, n->nargs, &n->attrs); /* same checked attributes */
        else
            r = byoc_call_function(m, inputs[n->nargs], inputs, n->nargs);
        break;
    case BYOC_NODE_TUPLE: r = byoc_tuple(m, inputs, n->nargs); break;
    case BYOC_NODE_TUPLE_GET_ITEM: r = byoc_tuple_get_item(m, inputs[0], n->index); break;
    default: return (byoc_node *)n;
    }
    byoc__inherit(r, n);
    if (r && n->checked_type && byoc__same_input_types(n, inputs)) r->checked_type = n->checked_type;
    return r;
}

/* graph node xi rebuilt on the current versions of its inputs (now[graph index]), or itself when none
   changed. When an input has no current version yet, returns NULL and sets *missing to its index (if
   given). */
BYOC__PRIVATE byoc_node *byoc__rebuild_on(byoc_module *m, const byoc_graph *g, int xi, byoc_node *const *now,
                                          byoc_node ***scratch, int *missing) {
    byoc_node *x = g->nodes[xi].node;
    int k = byoc__input_count(x, 0), changed = 0;
    /* without repeated inputs the graph's input list is in argument order: indices without reading
       the input nodes */
    const int *listed = g->nodes[xi].ninputs == k ? g->nodes[xi].inputs : NULL;
    stbds_arrsetlen(*scratch, 0);
    for (int j = 0; j < k; ++j) {
        byoc_node *in = byoc__input_at(x, j);
        int ji = listed ? listed[j] : byoc_graph_index(g, in);
        byoc_node *to = now[ji];
        if (!to) {
            if (missing) *missing = ji;
            return NULL;
        }
        changed |= to != in;
        stbds_arrput(*scratch, to);
    }
    return changed ? byoc__rebuild(m, x, *scratch) : x;
}

/* A replacement built from nodes of g: the graph nodes it uses (all before index `limit`) may have
   been replaced themselves, so its new part is rebuilt on top of their current versions. */
BYOC__PRIVATE byoc_node *byoc__remap(byoc_module *m, byoc_node *r, const byoc_graph *g, byoc_node *const *now,
                                     int limit) {
    int ri = byoc_graph_index(g, r);
    if (ri >= 0) return ri < limit ? now[ri] : r;
    /* post-order over the new nodes only: graph nodes are leaves here, so the cost is the size of
       the replacement, not of the graph below it */
    byoc__map mapped = BYOC__MAP_EMPTY;
    byoc__frame *stack = NULL;
    byoc_node **ins = NULL;
    byoc__frame f0 = {r, 0};
    stbds_arrput(stack, f0);
    byoc__map_put(&mapped, r, 0);
    while (stbds_arrlen(stack) && !m->has_error) {
        byoc__frame *top = &stack[stbds_arrlen(stack) - 1];
        byoc_node *x = top->node;
        int n = byoc__input_count(x, 0);
        if (top->next < n) {
            byoc_node *in = byoc__input_at(x, top->next++);
            if (byoc__map_has(&mapped, in)) continue;
            int gi = byoc_graph_index(g, in);
            if (gi >= 0) { byoc__map_put(&mapped, in, (intptr_t)(gi < limit ? now[gi] : in)); continue; }
            byoc__map_put(&mapped, in, 0);
            byoc__frame f = {in, 0};
            stbds_arrput(stack, f);
            continue;
        }
        int changed = 0;
        stbds_arrsetlen(ins, 0);
        for (int j = 0; j < n; ++j) {
            byoc_node *in = byoc__input_at(x, j), *to = (byoc_node *)byoc__map_get(&mapped, in, 0);
            if (!to) to = in;
            changed |= to != in;
            stbds_arrput(ins, to);
        }
        byoc_node *nx = changed ? byoc__rebuild(m, x, ins) : x;
        if (nx && nx != x) nx->checked_type = x->checked_type;
        byoc__map_put(&mapped, x, (intptr_t)nx);
        (void)stbds_arrpop(stack);
    }
    byoc_node *out = (byoc_node *)byoc__map_get(&mapped, r, 0);
    byoc__map_free(&mapped);
    stbds_arrfree(stack);
    stbds_arrfree(ins);
    return out ? out : r;
}

/* the graph's root with graph node i replaced by to[i] (NULL: kept); everything that used a replaced
   node is rebuilt, everything else is shared */
BYOC__PRIVATE byoc_node *byoc__substitute_at(byoc_module *m, const byoc_graph *g, byoc_node *const *to) {
    byoc_node **now = BYOC__CAST(byoc_node **, BYOC_CALLOC((size_t)(g->count ? g->count : 1), sizeof(byoc_node *)));
    byoc_node **ins = NULL;
    if (!now) return NULL;
    for (int i = 0; i < g->count && !m->has_error; ++i) {
        byoc__graph_prefetch_whole(g, i + 8);
        now[i] = to[i] ? byoc__remap(m, to[i], g, now, i) : byoc__rebuild_on(m, g, i, now, &ins, NULL);
    }
    byoc_node *root = m->has_error || !g->count ? NULL : now[g->count - 1];
    stbds_arrfree(ins);
    BYOC_FREE(now);
    return root;
}

/* the same with the replacements as a map (graph node -> node) */
BYOC__PRIVATE byoc_node *byoc__substitute(byoc_module *m, const byoc_graph *g, const byoc__map *repl) {
    byoc_node **to = BYOC__CAST(byoc_node **, BYOC_CALLOC((size_t)(g->count ? g->count : 1), sizeof(byoc_node *)));
    if (!to) return NULL;
    /* one pass over the map instead of a probe per node */
    for (size_t s = 0; s < repl->cap; ++s) {
        int i = repl->slots[s].key ? byoc_graph_index(g, (const byoc_node *)repl->slots[s].key) : -1;
        if (i >= 0) to[i] = (byoc_node *)repl->slots[s].val;
    }
    byoc_node *root = byoc__substitute_at(m, g, to);
    BYOC_FREE(to);
    return root;
}

typedef struct byoc__group {
    byoc_node *root;
    int root_index; /* in the graph */
    byoc_match *match;
    byoc_node **interior; /* stb_ds array, graph order */
    byoc_node **params;   /* stb_ds array: the group's inputs, in binding order */
    byoc__map embed;      /* constants bound by is_constant()/is_expr() (kept inside unless also inputs) */
    int accepted;
    int number; /* FunctionVar_<number>_<k>: as TVM counts, every match found at an unclaimed root, from 0
                   in each scan (refused and vetoed matches too) */
} byoc__group;

BYOC__PRIVATE void byoc__group_free(byoc__group *gr) {
    byoc_match_free(gr->match);
    stbds_arrfree(gr->interior);
    stbds_arrfree(gr->params);
    byoc__map_free(&gr->embed);
}
/* takes each group as byoc__find_groups finds it (gr->accepted: the check let it through) */
typedef void (*byoc__group_fn)(const byoc__group *gr, void *ctx);
/* what a group becomes: the user's rewrite (byoc_pattern_rewrite) or a Composite call (byoc__partition) */
typedef struct byoc__group_sink {
    byoc_module *m;
    byoc_node **to; /* graph index of a group's root -> its replacement (NULL: none) */
    int replaced;
    byoc_rewrite_fn rewrite;
    void *user_data;
    const byoc_attrs *attrs;
} byoc__group_sink;


static int byoc__int_cmp(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* the pattern a binding is really about: wrappers (attr/dtype/shape/type) constrain, they do not decide */
BYOC__PRIVATE int byoc__pat_is_interior(const byoc_pattern *p) {
    return p->kind == BYOC_PAT_CALL || p->kind == BYOC_PAT_TUPLE || p->kind == BYOC_PAT_TUPLE_GET_ITEM;
}

/* the nodes of pattern p in post-order (a callee before the arguments), each once */
BYOC__PRIVATE void byoc__pattern_post_order(const byoc_pattern *p, const byoc_pattern ***out, int depth) {
    if (!p || depth > BYOC__MATCH_DEPTH) return;
    for (int i = 0; i < (int)stbds_arrlen(*out); ++i)
        if ((*out)[i] == p) return;
    byoc__pattern_post_order(p->inner, out, depth + 1);
    byoc__pattern_post_order(p->left, out, depth + 1);
    byoc__pattern_post_order(p->right, out, depth + 1);
    for (int i = 0; i < p->nargs; ++i) byoc__pattern_post_order(p->args[i], out, depth + 1);
    stbds_arrput(*out, p);
}
/* memo positions in the order of their pattern nodes in p's post-order (made-up patterns last), as TVM
   orders a group's inputs: after reassociation the match order is the rewritten pattern's. NULL when
   out of memory. */
BYOC__PRIVATE int *byoc__memo_in_pattern_order(const byoc_match *mt, const byoc_pattern *p) {
    const byoc_pattern **post = NULL;
    byoc__pattern_post_order(p, &post, 0);
    int n = (int)stbds_arrlen(mt->memo), count = (int)stbds_arrlen(post);
    int *order = BYOC__CAST(int *, BYOC_MALLOC(sizeof(int) * (size_t)(n ? n : 1)));
    int *rank = BYOC__CAST(int *, BYOC_MALLOC(sizeof(int) * (size_t)(n ? n : 1)));
    for (int k = 0; order && rank && k < n; ++k) {
        rank[k] = count;
        for (int r = 0; r < count && rank[k] == count; ++r)
            if (post[r] == mt->memo[k].p) rank[k] = r;
        int j = k - 1; /* insertion sort by rank, stable: matches are small */
        while (j >= 0 && rank[order[j]] > rank[k]) { order[j + 1] = order[j]; --j; }
        order[j + 1] = k;
    }
    stbds_arrfree(post);
    BYOC_FREE(rank);
    if (!rank) { BYOC_FREE(order); return NULL; }
    return order;
}

/* Non-overlapping matches of p over g, candidate roots visited outputs first. A match is refused when
   one of its inner nodes is claimed already, or feeds a consumer outside the match that the root does
   not post-dominate (the result would need that value twice). claimed: graph index -> group id + 1
   (0: free), an array rather than a map since every claimed node is a graph node. Each group goes to
   take as soon as it is found, and is freed after: holding every group until the scan ends would keep
   thousands of small allocations alive, and cold by the time they were used. */
BYOC__PRIVATE void byoc__find_groups(const byoc_pattern *p, const byoc_graph *g, const int *ipdom, int *claimed,
                                     byoc_match_check_fn check, void *user_data, byoc__group_fn take, void *take_ctx) {
    int ngroups = 0, candidates = 0;
    for (int i = g->count - 1; i >= 0; --i) {
        byoc__graph_prefetch(g, i - 8);
        byoc_node *root = g->nodes[i].node;
        if (root->kind != BYOC_NODE_CALL && root->kind != BYOC_NODE_TUPLE && root->kind != BYOC_NODE_TUPLE_GET_ITEM)
            continue;
        if (claimed[i]) continue;
        byoc_match *mt;
        if (!byoc_pattern_match(p, root, g, &mt)) continue;
        byoc__group gr;
        memset(&gr, 0, sizeof gr);
        gr.number = candidates++;
        gr.root = root;
        gr.root_index = i;
        gr.match = mt;
        byoc__map inside = BYOC__MAP_EMPTY, leaf = BYOC__MAP_EMPTY;
        for (int k = 0; k < (int)stbds_arrlen(mt->memo); ++k)
            if (byoc__pat_is_interior(mt->memo[k].p)) byoc__map_put(&inside, mt->memo[k].e, 1);
        for (int k = 0; k < (int)stbds_arrlen(mt->path_nodes); ++k) byoc__map_put(&inside, mt->path_nodes[k], 1);
        int ok = byoc__map_has(&inside, root); /* a match whose root is a leaf (wildcard()) groups nothing */
        /* the interior in graph order (topologically sorted), from the bindings: a match costs its
           own size, not the graph's */
        int *idx = NULL;
        for (size_t s = 0; s < inside.cap; ++s)
            if (inside.slots[s].key) stbds_arrput(idx, byoc_graph_index(g, (const byoc_node *)inside.slots[s].key));
        if (idx) qsort(idx, (size_t)stbds_arrlen(idx), sizeof(int), byoc__int_cmp);
        for (int q = 0; ok && q < (int)stbds_arrlen(idx); ++q) {
            int k = idx[q];
            byoc_node *n = g->nodes[k].node;
            if (claimed[k]) ok = 0; /* overlaps an earlier match */
            for (int u = 0; ok && n != root && u < g->nodes[k].nusers; ++u) {
                int user = g->nodes[k].users[u];
                if (!byoc__map_has(&inside, g->nodes[user].node) && !byoc__post_dominates(ipdom, i, user)) ok = 0;
            }
            stbds_arrput(gr.interior, n);
        }
        /* inputs: leaf bindings in match order (the pattern's post-order; a reassociated match is put
           back in that order), the arguments of an any-arity call or tuple where that pattern node is,
           then any other outside input of an interior node. A function stays where it is, inside the
           group (TVM never makes one an input). */
        int *order = stbds_arrlen(mt->scratch) ? byoc__memo_in_pattern_order(mt, p) : NULL;
        for (int q = 0; ok && q < (int)stbds_arrlen(mt->memo); ++q) {
            int k = order ? order[q] : q;
            const byoc_pattern *bp = mt->memo[k].p;
            byoc_node *e = mt->memo[k].e;
            if ((bp->kind == BYOC_PAT_CALL || bp->kind == BYOC_PAT_TUPLE) && bp->nargs < 0) {
                for (int j = 0; j < e->nargs; ++j) {
                    byoc_node *in = e->args[j];
                    if (in->kind == BYOC_NODE_FUNCTION || byoc__map_has(&inside, in) || byoc__map_has(&leaf, in))
                        continue;
                    byoc__map_put(&leaf, in, 1);
                    stbds_arrput(gr.params, in);
                }
                continue;
            }
            if (e->kind == BYOC_NODE_FUNCTION || byoc__pat_is_interior(bp) || byoc__map_has(&inside, e) ||
                byoc__map_has(&leaf, e))
                continue;
            if (bp->kind != BYOC_PAT_WILDCARD && bp->kind != BYOC_PAT_VAR && bp->kind != BYOC_PAT_CONSTANT &&
                bp->kind != BYOC_PAT_EXPR)
                continue;
            /* a constant is embedded when is_constant()/is_expr() binds it, unless another leaf (a
               wildcard) binds it too: then it is an input, as in TVM */
            if (e->kind == BYOC_NODE_CONSTANT && (bp->kind == BYOC_PAT_CONSTANT || bp->kind == BYOC_PAT_EXPR)) {
                byoc__map_put(&gr.embed, e, 1);
                continue;
            }
            byoc__map_put(&leaf, e, 1);
            stbds_arrput(gr.params, e);
        }
        for (int k = 0; ok && k < (int)stbds_arrlen(gr.interior); ++k) {
            byoc_node *n = gr.interior[k];
            for (int j = 0; j < byoc__input_count(n, 0); ++j) {
                byoc_node *in = byoc__input_at(n, j);
                if (in->kind == BYOC_NODE_FUNCTION || byoc__map_has(&inside, in) || byoc__map_has(&leaf, in)) continue;
                if (byoc__map_has(&gr.embed, in)) continue;
                byoc__map_put(&leaf, in, 1);
                stbds_arrput(gr.params, in);
            }
        }
        BYOC_FREE(order);
        byoc__map_free(&inside);
        byoc__map_free(&leaf);
        if (ok) {
            /* a vetoed match keeps its nodes claimed, as in TVM */
            gr.accepted = !check || check(mt, root, user_data);
            ngroups++;
            for (int q = 0; q < (int)stbds_arrlen(idx); ++q) claimed[idx[q]] = ngroups;
            take(&gr, take_ctx);
        }
        stbds_arrfree(idx);
        byoc__group_free(&gr);
    }
}

/* TVM's PartitionedFromPattern label: the names of the group's nodes in the order TVM's extractor
   rebuilds them, post-order from the root with a call's callee before its arguments: op names,
   "Tuple", "TupleGetItem<i>", "Call" for other callees, each + "_"; a function kept inside is its
   body's names, then "Function". The group's inputs add nothing. */
BYOC__PRIVATE const char *byoc__group_label(byoc_module *m, const byoc__group *gr) {
    byoc__buf b;
    memset(&b, 0, sizeof b);
    b.m = m;
    /* walk marks, not maps: a group is small, and the label is made for every group */
    uint64_t input = byoc__walk_mark_new(), seen = byoc__walk_mark_new();
    for (int k = 0; k < (int)stbds_arrlen(gr->params); ++k) gr->params[k]->walk_mark = input;
    byoc__frame *stack = NULL;
    byoc__frame f0 = {gr->root, 0};
    stbds_arrput(stack, f0);
    gr->root->walk_mark = seen;
    while (stbds_arrlen(stack)) {
        byoc__frame *top = &stack[stbds_arrlen(stack) - 1];
        byoc_node *n = top->node;
        /* children in the extractor's order: callee, then arguments; a tuple's fields; a function's body */
        int count = n->kind == BYOC_NODE_CALL ? n->nargs + (n->callee != NULL) : n->kind == BYOC_NODE_FUNCTION ? 1
                    : (n->kind == BYOC_NODE_TUPLE || n->kind == BYOC_NODE_TUPLE_GET_ITEM) ? n->nargs : 0;
        if (top->next < count) {
            int k = top->next++;
            byoc_node *child = n->kind == BYOC_NODE_FUNCTION            ? n->body
                               : n->kind == BYOC_NODE_CALL && n->callee ? (k == 0 ? n->callee : n->args[k - 1])
                                                                        : n->args[k];
            if (!child || child->walk_mark == input || child->walk_mark == seen) continue;
            child->walk_mark = seen;
            byoc__frame f = {child, 0};
            stbds_arrput(stack, f);
            continue;
        }
        if (n->kind == BYOC_NODE_CALL && n->op) byoc__buf_printf(&b, "%s_", n->op->def.name);
        else if (n->kind == BYOC_NODE_CALL) byoc__buf_puts(&b, "Call_");
        else if (n->kind == BYOC_NODE_TUPLE) byoc__buf_puts(&b, "Tuple_");
        else if (n->kind == BYOC_NODE_TUPLE_GET_ITEM) byoc__buf_printf(&b, "TupleGetItem%d_", n->index);
        else if (n->kind == BYOC_NODE_FUNCTION) byoc__buf_puts(&b, "Function");
        (void)stbds_arrpop(stack);
    }
    stbds_arrfree(stack);
    const char *label = byoc_intern(m, b.data ? b.data : "");
    byoc_free(m, b.data);
    return label;
}

/* Types a function a pass just built from typed nodes, as InferType would (parameters by their
   annotations, no declared result), so that InferType need not walk it again. Returns its result
   type, or NULL (and leaves it to InferType) when a part is untyped. */
BYOC__PRIVATE const byoc_type *byoc__type_new_function(byoc_module *m, byoc_node *fn) {
    if (!fn || !fn->body || !fn->body->checked_type || fn->annotation) return NULL;
    const byoc_type *small[16] = {0};
    const byoc_type **pt = fn->nparams <= 16
                               ? small
                               : BYOC__CAST(const byoc_type **, BYOC_MALLOC(sizeof(byoc_type *) * (size_t)fn->nparams));
    int ok = pt != NULL;
    for (int k = 0; ok && k < fn->nparams; ++k) ok = (pt[k] = fn->params[k]->annotation) != NULL;
    if (ok) {
        for (int k = 0; k < fn->nparams; ++k) fn->params[k]->checked_type = pt[k];
        fn->checked_type = byoc_func_type(m, pt, fn->nparams, fn->body->checked_type);
    }
    if (pt != small) BYOC_FREE((void *)pt);
    return fn->checked_type ? fn->body->checked_type : NULL;
}

/* field k of a tuple-valued node, typed when the tuple is */
BYOC__PRIVATE byoc_node *byoc__typed_field(byoc_module *m, byoc_node *tuple, int k) {
    byoc_node *r = byoc_tuple_get_item(m, tuple, k);
    const byoc_type *t = tuple ? tuple->checked_type : NULL;
    if (r && t && t->kind == BYOC_TYPE_TUPLE && k < t->nfields) r->checked_type = t->fields[k];
    return r;
}

/* the call that replaces a group: fn(FunctionVar_<gid>_<k>...){interior} applied to the inputs */
BYOC__PRIVATE byoc_node *byoc__outline_group(byoc_module *m, const byoc__group *gr, int gid, const byoc_attrs *attrs) {
    byoc__map map = BYOC__MAP_EMPTY;
    byoc_node **params = NULL, **ins = NULL;
    int np = (int)stbds_arrlen(gr->params);
    for (int k = 0; k < np; ++k) {
        char name[64];
        snprintf(name, sizeof name, "FunctionVar_%d_%d", gid, k);
        byoc_node *v = byoc__var_unique(m, name, gr->params[k]->checked_type);
        if (v) v->checked_type = v->annotation; /* so the interior keeps its types when rebuilt on it */
        stbds_arrput(params, v);
        byoc__map_put(&map, gr->params[k], (intptr_t)v);
    }
    for (int k = 0; k < (int)stbds_arrlen(gr->interior) && !m->has_error; ++k) {
        byoc_node *n = gr->interior[k];
        stbds_arrsetlen(ins, 0);
        for (int j = 0; j < byoc__input_count(n, 0); ++j) {
            byoc_node *in = byoc__input_at(n, j);
            byoc_node *mapped = (byoc_node *)byoc__map_get(&map, in, 0);
            stbds_arrput(ins, mapped ? mapped : in); /* embedded constants and callee functions stay */
        }
        byoc_node *c = byoc__rebuild(m, n, ins);
        if (c) c->checked_type = n->checked_type;
        byoc__map_put(&map, n, (intptr_t)c);
    }
    byoc_attr label =
        byoc__attr_string(byoc_intern(m, "PartitionedFromPattern"), byoc__group_label(m, gr)); /* both m's */
    byoc_attrs fattrs = byoc__attrs_build_in(m, attrs, &label, 1, 1);
    byoc_node *body = (byoc_node *)byoc__map_get(&map, gr->root, 0);
    byoc_node *fn = byoc_function(m, params, np, body, NULL, NULL);
    if (fn) fn->attrs = fattrs;
    byoc_node *call = byoc_call_function(m, fn, gr->params, np);
    byoc__inherit(call, gr->root);
    const byoc_type *result = byoc__type_new_function(m, fn);
    for (int k = 0; result && k < np; ++k)
        if (!gr->params[k]->checked_type) result = NULL; /* a typed node has typed inputs only */
    if (call) call->checked_type = result;
    byoc__map_free(&map);
    stbds_arrfree(params);
    stbds_arrfree(ins);
    return call;
}

BYOC__PRIVATE void byoc__group_outline(const byoc__group *gr, void *ctx) {
    byoc__group_sink *sink = (byoc__group_sink *)ctx;
    if (gr->accepted && !sink->m->has_error) {
        sink->to[gr->root_index] = byoc__outline_group(sink->m, gr, gr->number, sink->attrs);
        sink->replaced++;
    }
}

BYOC__PRIVATE int *byoc__ipdom_of(const byoc_graph *g) {
    int *ipdom = BYOC__CAST(int *, BYOC_MALLOC(sizeof(int) * (size_t)(g->count ? g->count : 1)));
    if (ipdom && byoc_graph_post_dominators(g, ipdom) != BYOC_OK) { BYOC_FREE(ipdom); return NULL; }
    return ipdom;
}

BYOC__PRIVATE void byoc__group_rewrite(const byoc__group *gr, void *ctx) {
    byoc__group_sink *sink = (byoc__group_sink *)ctx;
    if (sink->m->has_error) return;
    byoc_node *r = sink->rewrite(sink->m, gr->root, gr->match, sink->user_data);
    if (r && r != gr->root) {
        sink->to[gr->root_index] = r;
        sink->replaced++;
    }
}

/* One scan of expr for p's groups, each handed to take (which fills sink->to). Returns expr with the
   replacements in place (expr itself when there are none), NULL on error. */
BYOC__PRIVATE byoc_node *byoc__replace_groups(byoc_module *m, const byoc_pattern *p, byoc_node *expr,
                                              byoc_match_check_fn check, void *user_data, byoc__group_fn take,
                                              byoc__group_sink *sink) {
    byoc_graph g;
    if (byoc_graph_build(m, expr, 0, &g) != BYOC_OK) return NULL;
    int *ipdom = byoc__ipdom_of(&g);
    int *claimed = BYOC__CAST(int *, BYOC_CALLOC((size_t)g.count + 1, sizeof(int)));
    sink->to = BYOC__CAST(byoc_node **, BYOC_CALLOC((size_t)g.count + 1, sizeof(byoc_node *)));
    sink->replaced = 0;
    if (ipdom && claimed && sink->to) byoc__find_groups(p, &g, ipdom, claimed, check, user_data, take, sink);
    else byoc__fail(m, BYOC_ERR_OUT_OF_MEMORY, 0, "pattern matching: out of memory");
    byoc_node *r = m->has_error ? NULL : sink->replaced ? byoc__substitute_at(m, &g, sink->to) : expr;
    BYOC_FREE(claimed);
    BYOC_FREE(sink->to);
    sink->to = NULL;
    BYOC_FREE(ipdom);
    byoc_graph_free(&g);
    return r;
}

BYOC_API byoc_node *byoc_pattern_rewrite(byoc_module *m, const byoc_pattern *p, byoc_node *expr, byoc_rewrite_fn fn,
                                         void *user_data, int max_iterations) {
    if (!m) return NULL;
    if (!p || !expr || !fn || m->has_error) return NULL;
    for (int round = 0; round < (max_iterations > 0 ? max_iterations : 16); ++round) {
        byoc__group_sink sink;
        memset(&sink, 0, sizeof sink);
        sink.m = m;
        sink.rewrite = fn;
        sink.user_data = user_data;
        expr = byoc__replace_groups(m, p, expr, NULL, NULL, byoc__group_rewrite, &sink);
        if (!expr || !sink.replaced) break;
    }
    return expr;
}

BYOC__PRIVATE byoc_node *byoc__partition(byoc_module *m, const byoc_pattern *p, byoc_node *expr,
                                         const byoc_attrs *attrs, byoc_match_check_fn check, void *user_data);

BYOC_API byoc_node *byoc_pattern_partition(byoc_module *m, const byoc_pattern *p, byoc_node *expr,
                                           const byoc_attrs *attrs, byoc_match_check_fn check, void *user_data) {
    if (!m) return NULL;
    return byoc__partition(m, p, expr, attrs, check, user_data);
}

/* one scan of expr for p's groups, each outlined as a call of fn(FunctionVar_<group>_<k>...) */
BYOC__PRIVATE byoc_node *byoc__partition(byoc_module *m, const byoc_pattern *p, byoc_node *expr,
                                         const byoc_attrs *attrs, byoc_match_check_fn check, void *user_data) {
    if (!p || !expr || m->has_error) return NULL;
    byoc__group_sink sink;
    memset(&sink, 0, sizeof sink);
    sink.m = m;
    sink.attrs = attrs;
    return byoc__replace_groups(m, p, expr, check, user_data, byoc__group_outline, &sink);
}

// [SECTION] impl: verifier
typedef struct byoc__verifier {
    byoc_module *m;
    unsigned flags;
    byoc_diag *diag;
    const char *scope_name;
    const byoc_node *scope;
    /* var -> the function that has it as a parameter, with bit 0 set while that function's body is
       being checked (the var is bound there); one map, so a parameter costs one probe per visit */
    byoc__map params;
    const byoc_node *untyped, *untyped_scope; /* BYOC_VERIFY_TYPED: the first node without a type */
    const char *untyped_scope_name;
} byoc__verifier;

BYOC__PRIVATE byoc_result byoc__verify_fail(byoc__verifier *v, const byoc_node *n, const char *fmt, ...)
    BYOC__PRINTF(3, 4);
BYOC__PRIVATE byoc_result byoc__verify_fail(byoc__verifier *v, const byoc_node *n, const char *fmt, ...) {
    char what[512], label[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    byoc__node_label(v->m, v->scope, n, label, sizeof label);
    return byoc__diag(v->diag, BYOC_ERR_INVALID_ARGUMENT, byoc_node_span(n)->line, byoc_node_span(n)->col, n->id,
                      "@%s: %s %s", v->scope_name, label, what);
}

/* a missing type is reported only once the structure is known sound (a structural fault explains
   more than the missing type it causes), so the walk that checks the structure just notes the first */
BYOC__PRIVATE void byoc__verify_note_type(byoc__verifier *v, const byoc_node *n) {
    if (!(v->flags & BYOC_VERIFY_TYPED) || v->untyped || n->checked_type) return;
    v->untyped = n;
    v->untyped_scope = v->scope;
    v->untyped_scope_name = v->scope_name;
}

BYOC__PRIVATE byoc_result byoc__verify_function(byoc__verifier *v, const byoc_node *fn, int depth) {
    if (depth > 4096) return byoc__verify_fail(v, fn, "functions nest more than 4096 deep");
    for (int i = 0; i < fn->nparams; ++i) {
        const byoc_node *p = fn->params[i];
        intptr_t e = byoc__map_get(&v->params, p, 0);
        const byoc_node *other = (const byoc_node *)(e & ~(intptr_t)1); /* nodes are 8-byte aligned */
        if (other && other != fn) return byoc__verify_fail(v, p, "is a parameter of two functions");
        if (e & 1) return byoc__verify_fail(v, p, "is a parameter twice");
        byoc__map_put(&v->params, p, (intptr_t)fn | 1);
    }
    /* iterative DFS over the body, with walk marks: on_path = on the stack (reaching such a node again
       closes a cycle), done = checked. Nested functions are checked after the walk, while this
       function's parameters are still bound. */
    uint64_t on_path = byoc__walk_mark_new(), done = byoc__walk_mark_new();
    byoc_node **nested = NULL;
    byoc__frame *stack = NULL;
    byoc_result r = BYOC_OK;
    byoc_node *next = fn->body;
    if (!next) r = byoc__verify_fail(v, fn, "has no body");
    while (r == BYOC_OK && (next || stbds_arrlen(stack))) {
        if (next) { /* first visit: local checks */
            byoc_node *n = next;
            next = NULL;
            if (n->kind == BYOC_NODE_VAR && !(byoc__map_get(&v->params, n, 0) & 1))
                r = byoc__verify_fail(v, n, "is used but no enclosing function binds it");
            else if (n->kind == BYOC_NODE_GLOBAL_VAR && !byoc_module_function(v->m, n->name))
                r = byoc__verify_fail(v, n, "refers to a function the module does not have");
            else if (n->kind == BYOC_NODE_CALL && !n->op && !n->callee) r = byoc__verify_fail(v, n, "calls nothing");
            else if (n->kind == BYOC_NODE_FUNCTION) stbds_arrput(nested, n);
            for (int i = 0; r == BYOC_OK && i < n->nargs; ++i)
                if (!n->args[i]) r = byoc__verify_fail(v, n, "has a missing argument %d", i);
            if (r != BYOC_OK) break;
            n->walk_mark = on_path;
            byoc__frame f = {n, 0};
            stbds_arrput(stack, f);
            byoc__prefetch_inputs_of(n);
            continue;
        }
        byoc__frame *top = &stack[stbds_arrlen(stack) - 1];
        if (top->next < byoc__input_count(top->node, 0)) {
            byoc_node *child = byoc__input_at(top->node, top->next++);
            if (child->walk_mark == on_path) r = byoc__verify_fail(v, child, "depends on itself (cycle)");
            else if (child->walk_mark != done) next = child;
            continue;
        }
        top->node->walk_mark = done;
        byoc__verify_note_type(v, top->node);
        (void)stbds_arrpop(stack);
    }
    stbds_arrfree(stack);
    for (int i = 0; r == BYOC_OK && i < (int)stbds_arrlen(nested); ++i)
        r = byoc__verify_function(v, nested[i], depth + 1);
    stbds_arrfree(nested);
    for (int i = 0; i < fn->nparams; ++i) byoc__map_put(&v->params, fn->params[i], (intptr_t)fn);
    return r;
}

BYOC_API byoc_result byoc_verify(byoc_module *m, unsigned flags, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    byoc__verifier v;
    memset(&v, 0, sizeof v);
    v.m = m;
    v.flags = flags;
    v.diag = diag;
    byoc_result r = m->has_error ? byoc__diag(diag, m->error.code, 0, 0, 0, "%s", m->error.message) : BYOC_OK;
    for (int i = 0; r == BYOC_OK && i < byoc_module_function_count(m); ++i) {
        v.scope_name = m->functions[i].name;
        v.scope = m->functions[i].function;
        r = byoc__verify_function(&v, v.scope, 0);
        byoc__verify_note_type(&v, v.scope);
    }
    if (r == BYOC_OK && v.untyped) {
        v.scope = v.untyped_scope;
        v.scope_name = v.untyped_scope_name;
        r = byoc__verify_fail(&v, v.untyped, "has no type");
    }
    byoc__map_free(&v.params);
    return r;
}

BYOC__PRIVATE int byoc__module_typed(byoc_module *m) {
    for (int i = 0; i < byoc_module_function_count(m); ++i) {
        byoc_node **order = NULL;
        byoc__post_order_marked(m->functions[i].function, BYOC_GRAPH_ENTER_FUNCTIONS, &order);
        int typed = 1;
        for (int k = 0; typed && k < (int)stbds_arrlen(order); ++k) typed = order[k]->checked_type != NULL;
        stbds_arrfree(order);
        if (!typed) return 0;
    }
    return 1;
}

// [SECTION] impl: pass infrastructure
BYOC_API const char *byoc_phase_name(byoc_phase phase) {
    static const char *const names[] = {"PRE_PARTITIONING", "POST_PARTITIONING_0", "POST_PARTITIONING_1", "TIR_PHASE_0",
                                        "TIR_PHASE_1", "TIR_PHASE_2", "TIR_PHASE_3"};
    return (int)phase >= 0 && phase < BYOC_PHASE_COUNT ? names[phase] : "unknown phase";
}

struct byoc_pass_context {
    byoc_module *arena;          /* storage for values */
    int opt_level;
    int verify;
    byoc_attrs values;           /* explicitly set keys */
    byoc_pass_instrument instrument;
    byoc_pass_timing *timings;   /* stb_ds array */
    const char **ran;            /* stb_ds array of pass names run */
    const char **phase_passes[BYOC_PHASE_COUNT];
    const byoc_backend_spec **backends; /* stb_ds array, priority order */
    int depth;
};

static struct {
    int initialized;
    byoc_pass *passes;           /* stb_ds array */
    byoc_config_key *keys;       /* stb_ds array */
    byoc_module *arena;          /* parsed key defaults */
    byoc_attrs defaults;
} byoc__passes;

static byoc_result byoc__pass_infer_type(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d) {
    (void)ctx; (void)ud;
    return byoc_infer_type(m, d);
}

BYOC__PRIVATE int byoc__builtin_passes(void);
static byoc_result byoc__pass_merge_composite(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d);
static byoc_result byoc__pass_annotate_target(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d);
static byoc_result byoc__pass_merge_regions(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d);
static byoc_result byoc__pass_partition_graph(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d);
static byoc_result byoc__pass_fuse_ops(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d);
static byoc_result byoc__pass_simplify_inference(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d);
static byoc_result byoc__pass_fold_constant(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d);
static byoc_result byoc__pass_fold_scale_axis(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d);
static byoc_result byoc__pass_dce(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d);

BYOC__PRIVATE void byoc__passes_init(void) {
    if (byoc__passes.initialized) return;
    byoc__passes.arena = byoc_module_create(NULL);
    if (!byoc__passes.arena) return; /* out of memory: nothing is registered, and the next call tries again */
    byoc__passes.initialized = 1;
    if (!byoc__builtin_passes()) { /* out of memory half-way: undo it all, so that the next call tries again */
        byoc_module_destroy(byoc__passes.arena);
        stbds_arrfree(byoc__passes.passes);
        stbds_arrfree(byoc__passes.keys);
        memset(&byoc__passes, 0, sizeof byoc__passes);
    }
}

BYOC_API byoc_result byoc_pass_register(const byoc_pass *pass, byoc_diag *diag) {
    byoc__passes_init();
    if (!pass->name || !*pass->name)
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "pass registration: empty name");
    if (!pass->run && !pass->sequence)
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "pass '%s': neither run nor sequence", pass->name);
    if (strchr(pass->name, ','))
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "pass '%s': names cannot hold ','", pass->name);
    if (byoc_pass_get(pass->name))
        return byoc__diag(diag, BYOC_ERR_DUPLICATE, 0, 0, 0, "pass '%s' is already registered", pass->name);
    stbds_arrput(byoc__passes.passes, *pass);
    return BYOC_OK;
}
BYOC_API const byoc_pass *byoc_pass_get(const char *name) {
    byoc__passes_init();
    for (int i = 0; i < (int)stbds_arrlen(byoc__passes.passes); ++i)
        if (!strcmp(byoc__passes.passes[i].name, name)) return &byoc__passes.passes[i];
    return NULL;
}
BYOC_API int byoc_pass_count(void) { byoc__passes_init(); return (int)stbds_arrlen(byoc__passes.passes); }
BYOC_API const byoc_pass *byoc_pass_at(int i) {
    byoc__passes_init();
    BYOC_ASSERT(i >= 0 && i < (int)stbds_arrlen(byoc__passes.passes));
    return &byoc__passes.passes[i];
}

BYOC_API byoc_result byoc_config_key_register(const byoc_config_key *key, byoc_diag *diag) {
    byoc__passes_init();
    if (!byoc__passes.arena)
        return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "config key registration: out of memory");
    if (!key->name || !*key->name)
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "config key: empty name");
    for (int i = 0; i < (int)stbds_arrlen(byoc__passes.keys); ++i)
        if (!strcmp(byoc__passes.keys[i].name, key->name))
            return byoc__diag(diag, BYOC_ERR_DUPLICATE, 0, 0, 0, "config key '%s' is already registered", key->name);
    byoc_attr_value v;
    byoc_diag d;
    if (!key->default_text || byoc__attr_value_parse_in(byoc__passes.arena, key->default_text, &v, &d) != BYOC_OK)
        return byoc__diag(diag, BYOC_ERR_ATTR, 0, 0, 0, "config key '%s': default does not parse", key->name);
    if (v.kind == BYOC_ATTR_INT && key->kind == BYOC_ATTR_FLOAT) { v.kind = BYOC_ATTR_FLOAT; v.f = (double)v.i; }
    if (v.kind != key->kind)
        return byoc__diag(diag, BYOC_ERR_ATTR, 0, 0, 0, "config key '%s': default is not a %s", key->name,
                          byoc__attr_kind_name(key->kind));
    byoc_attrs_set(byoc__passes.arena, &byoc__passes.defaults, key->name, &v);
    stbds_arrput(byoc__passes.keys, *key);
    return BYOC_OK;
}
BYOC_API int byoc_config_key_count(void) { byoc__passes_init(); return (int)stbds_arrlen(byoc__passes.keys); }
BYOC_API const byoc_config_key *byoc_config_key_at(int i) {
    byoc__passes_init();
    BYOC_ASSERT(i >= 0 && i < (int)stbds_arrlen(byoc__passes.keys));
    return &byoc__passes.keys[i];
}

BYOC_API byoc_pass_context *byoc_pass_context_create(void) {
    byoc__passes_init();
    if (!byoc__passes.initialized) return NULL;
    byoc_pass_context *ctx = BYOC__CAST(byoc_pass_context *, BYOC_CALLOC(1, sizeof(byoc_pass_context)));
    if (!ctx) return NULL;
    ctx->arena = byoc_module_create(NULL);
    if (!ctx->arena) { BYOC_FREE(ctx); return NULL; }
    ctx->opt_level = 2;
    ctx->verify = 1;
    return ctx;
}
BYOC_API void byoc_pass_context_destroy(byoc_pass_context *ctx) {
    if (!ctx) return;
    byoc_module_destroy(ctx->arena);
    stbds_arrfree(ctx->timings);
    stbds_arrfree(ctx->ran);
    for (int i = 0; i < BYOC_PHASE_COUNT; ++i) stbds_arrfree(ctx->phase_passes[i]);
    stbds_arrfree(ctx->backends);
    BYOC_FREE(ctx);
}
BYOC_API void byoc_pass_context_set_opt_level(byoc_pass_context *ctx, int level) {
    if (!ctx) return;
    ctx->opt_level = level;
}
BYOC_API void byoc_pass_context_set_verify(byoc_pass_context *ctx, int on) { if (!ctx) return; ctx->verify = on; }
BYOC_API void byoc_pass_context_set_instrument(byoc_pass_context *ctx, const byoc_pass_instrument *instrument) {
    if (!ctx) return;
    if (instrument) ctx->instrument = *instrument;
    else memset(&ctx->instrument, 0, sizeof ctx->instrument);
}
BYOC_API const byoc_pass_timing *byoc_pass_context_timings(const byoc_pass_context *ctx, int *count) {
    if (!ctx) { if (count) *count = 0; return NULL; }
    *count = (int)stbds_arrlen(ctx->timings);
    return ctx->timings;
}

BYOC__PRIVATE const byoc_config_key *byoc__config_key(const char *name) {
    for (int i = 0; i < (int)stbds_arrlen(byoc__passes.keys); ++i)
        if (!strcmp(byoc__passes.keys[i].name, name)) return &byoc__passes.keys[i];
    return NULL;
}

BYOC_API byoc_result byoc_pass_context_set(byoc_pass_context *ctx, const char *key, const char *value_text,
                                           byoc_diag *diag) {
    if (!ctx) return byoc__null_arg(diag, __func__, "pass context");
    const byoc_config_key *k = byoc__config_key(key);
    if (!k) return byoc__diag(diag, BYOC_ERR_NOT_FOUND, 0, 0, 0, "unknown config key '%s'", key);
    byoc_attr_value v;
    byoc_diag d;
    if (k->kind == BYOC_ATTR_BOOL &&
        (!strcmp(value_text, "true") || !strcmp(value_text, "false"))) /* as users type it */
        value_text = value_text[0] == 't' ? "True" : "False";
    if (k->kind == BYOC_ATTR_STRING && value_text[0] != '"') { /* a plain word is the string itself */
        memset(&v, 0, sizeof v);
        v.kind = BYOC_ATTR_STRING;
        v.s = byoc_intern(ctx->arena, value_text);
        if (!v.s) return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "config key '%s': out of memory", key);
    } else if (byoc__attr_value_parse_in(ctx->arena, value_text, &v, &d) != BYOC_OK)
        return byoc__diag(diag, BYOC_ERR_ATTR, 0, 0, 0, "config key '%s': value \"%s\" does not parse", key,
                          value_text);
    if (v.kind == BYOC_ATTR_INT && k->kind == BYOC_ATTR_FLOAT) { v.kind = BYOC_ATTR_FLOAT; v.f = (double)v.i; }
    if (v.kind == BYOC_ATTR_INT && k->kind == BYOC_ATTR_BOOL && (v.i == 0 || v.i == 1)) v.kind = BYOC_ATTR_BOOL;
    if (v.kind != k->kind)
        return byoc__diag(diag, BYOC_ERR_ATTR, 0, 0, 0, "config key '%s' expects %s, got %s", key,
                          byoc__attr_kind_name(k->kind), byoc__attr_kind_name(v.kind));
    byoc_attrs_set(ctx->arena, &ctx->values, key, &v);
    return BYOC_OK;
}

BYOC__PRIVATE const byoc_attr_value *byoc__config_value(const byoc_pass_context *ctx, const char *key) {
    const byoc_attr_value *v = ctx ? byoc_attrs_get(&ctx->values, key) : NULL;
    if (!v) v = byoc_attrs_get(&byoc__passes.defaults, key);
    BYOC_ASSERT(v && "unregistered config key");
    return v;
}
BYOC_API int64_t byoc_pass_context_int(const byoc_pass_context *ctx, const char *key) {
    return byoc__config_value(ctx, key)->i;
}
BYOC_API double byoc_pass_context_float(const byoc_pass_context *ctx, const char *key) {
    return byoc__config_value(ctx, key)->f;
}
BYOC_API const char *byoc_pass_context_string(const byoc_pass_context *ctx, const char *key) {
    return byoc__config_value(ctx, key)->s;
}

BYOC_API byoc_result byoc_pass_context_add_phase_pass(byoc_pass_context *ctx, byoc_phase phase, const char *pass,
                                                      byoc_diag *diag) {
    if (!ctx) return byoc__null_arg(diag, __func__, "pass context");
    if ((int)phase < 0 || phase >= BYOC_PHASE_COUNT)
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "invalid phase %d", (int)phase);
    if (!byoc_pass_get(pass)) return byoc__diag(diag, BYOC_ERR_NOT_FOUND, 0, 0, 0, "unknown pass '%s'", pass);
    stbds_arrput(ctx->phase_passes[phase], byoc_intern(ctx->arena, pass));
    return BYOC_OK;
}

BYOC__PRIVATE int byoc__ran(const byoc_pass_context *ctx, const char *name) {
    for (int i = 0; i < (int)stbds_arrlen(ctx->ran); ++i)
        if (!strcmp(ctx->ran[i], name)) return 1;
    return 0;
}

BYOC__PRIVATE byoc_result byoc__run_names(byoc_module *m, const char *list, byoc_pass_context *ctx, byoc_diag *diag);

BYOC__PRIVATE byoc_result byoc__run_pass(byoc_module *m, const byoc_pass *pass, byoc_pass_context *ctx,
                                         byoc_diag *diag) {
    if (pass->opt_level > ctx->opt_level) return BYOC_OK;
    if (++ctx->depth > 32) {
        ctx->depth--;
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                          "pass '%s': required/sequence passes nest more than 32 deep (a cycle?)", pass->name);
    }
    byoc_result r = BYOC_OK;
    if (pass->required) { /* the ones not run yet */
        char buf[512];
        snprintf(buf, sizeof buf, "%s", pass->required);
        for (char *s = buf, *e; r == BYOC_OK && s && *s; s = e ? e + 1 : NULL) {
            e = strchr(s, ',');
            if (e) *e = 0;
            if (*s && !byoc__ran(ctx, s)) r = byoc__run_names(m, s, ctx, diag);
        }
    }
    if (r == BYOC_OK && pass->sequence) r = byoc__run_names(m, pass->sequence, ctx, diag);
    else if (r == BYOC_OK) {
        int typed_before = ctx->verify && byoc__module_typed(m);
        clock_t t0 = clock();
        r = pass->run(m, ctx, pass->user_data, diag);
        double seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
        if (r == BYOC_OK && m->has_error)
            r = byoc__diag(diag, m->error.code, 0, 0, m->error.node_id, "%s", m->error.message);
        if (r == BYOC_OK) {
            byoc_pass_timing t = {pass->name, seconds};
            stbds_arrput(ctx->timings, t);
            if (ctx->verify) {
                byoc_diag vd;
                if (byoc_verify(m, typed_before ? BYOC_VERIFY_TYPED : 0, &vd) != BYOC_OK)
                    r = byoc__diag(diag, BYOC_ERR_INTERNAL, vd.line, vd.col, vd.node_id, "pass '%s' broke the IR: %s",
                                   pass->name, vd.message);
            }
            if (r == BYOC_OK && ctx->instrument.after_pass)
                ctx->instrument.after_pass(pass->name, m, seconds, ctx->instrument.user_data);
        }
    }
    if (r == BYOC_OK) stbds_arrput(ctx->ran, pass->name);
    ctx->depth--;
    return r;
}

BYOC__PRIVATE byoc_result byoc__run_names(byoc_module *m, const char *list, byoc_pass_context *ctx, byoc_diag *diag) {
    const char *s = list;
    while (*s) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name - 1 ? n : sizeof name - 1), s);
        if (name[0]) {
            const byoc_pass *p = byoc_pass_get(name);
            if (!p) return byoc__diag(diag, BYOC_ERR_NOT_FOUND, 0, 0, 0, "unknown pass '%s'", name);
            byoc_result r = byoc__run_pass(m, p, ctx, diag);
            if (r != BYOC_OK) return r;
        }
        if (!e) break;
        s = e + 1;
    }
    return BYOC_OK;
}

BYOC_API byoc_result byoc_run_passes(byoc_module *m, const char *const *names, int count, byoc_pass_context *ctx,
                                     byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    byoc_pass_context *own = ctx ? NULL : byoc_pass_context_create();
    if (!ctx) ctx = own;
    if (!ctx) return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
    byoc_result r = BYOC_OK;
    for (int i = 0; r == BYOC_OK && i < count; ++i) r = byoc__run_names(m, names[i], ctx, diag);
    byoc_pass_context_destroy(own);
    return r;
}

BYOC_API byoc_result byoc_run_phase(byoc_module *m, byoc_phase phase, byoc_pass_context *ctx, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    if (!ctx) return byoc__null_arg(diag, __func__, "pass context");
    if ((int)phase < 0 || phase >= BYOC_PHASE_COUNT)
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "invalid phase %d", (int)phase);
    byoc_result r = BYOC_OK;
    for (int i = 0; r == BYOC_OK && i < (int)stbds_arrlen(ctx->phase_passes[phase]); ++i)
        r = byoc__run_names(m, ctx->phase_passes[phase][i], ctx, diag);
    return r;
}

BYOC__PRIVATE int byoc__builtin_passes(void) {
    static const byoc_config_key keys[] = {
        {"fuse_ops.max_depth", BYOC_ATTR_INT, "256", "most ops in one fused function"},
        {"partition_graph.mod_name", BYOC_ATTR_STRING, "\"default\"", "module name in partitioned function names"},
        {"partition_graph.bind_constants", BYOC_ATTR_BOOL, "True",
         "substitute constant arguments into partitioned functions"},
        {"annotate_target.include_non_call_ops", BYOC_ATTR_BOOL, "True", "annotate tuples and projections too"},
    };
    static const byoc_pass passes[] = {
        {"infer_type", 0, NULL, byoc__pass_infer_type, NULL, NULL, "fill every node's checked type"},
        {"merge_composite", 0, NULL, byoc__pass_merge_composite, NULL, NULL,
         "wrap pattern matches of the backends in Composite functions"},
        {"annotate_target", 0, NULL, byoc__pass_annotate_target, NULL, NULL,
         "mark each op with the first backend that supports it"},
        {"merge_compiler_regions", 0, NULL, byoc__pass_merge_regions, NULL, NULL,
         "merge neighbouring regions of one backend without cycles"},
        {"partition_graph", 0, NULL, byoc__pass_partition_graph, NULL, NULL,
         "outline each backend region as a Compiler function"},
        {"fuse_ops", 0, NULL, byoc__pass_fuse_ops, NULL, NULL,
         "fuse host ops into Primitive functions (TVM OpPatternKind rules)"},
        {"simplify_inference", 0, NULL, byoc__pass_simplify_inference, NULL, NULL,
         "batch_norm to scale and shift, drop dropout"},
        {"fold_constant", 2, NULL, byoc__pass_fold_constant, NULL, NULL, "evaluate ops whose inputs are constants"},
        {"fold_scale_axis", 2, NULL, byoc__pass_fold_scale_axis, NULL, NULL,
         "fold per-channel scales of conv2d and dense outputs into their weights"},
        {"prepare_for_partition", 0, NULL, NULL, "simplify_inference,fold_constant,fold_scale_axis,fold_constant", NULL,
         "what every placement runs first (byoc_prepare_for_partition)"},
        {"dce", 0, NULL, byoc__pass_dce, NULL, NULL, "drop global functions @main does not use"},
    };
    byoc_diag d;
    int ok = 1;
    for (int i = 0; i < BYOC__N(keys); ++i) ok &= byoc_config_key_register(&keys[i], &d) == BYOC_OK;
    for (int i = 0; i < BYOC__N(passes); ++i) ok &= byoc_pass_register(&passes[i], &d) == BYOC_OK;
    return ok && !byoc__passes.arena->has_error; /* the names are fixed: only memory can run out */
}

// [SECTION] impl: MergeComposite, backend files, constraints on matches
BYOC__PRIVATE int byoc__has_compiler(const byoc_node *fn) { return byoc_attrs_get(&fn->attrs, "Compiler") != NULL; }
/* functions the IR passes leave alone, as TVM's function passes do: partitions (Compiler) and
   functions marked SkipOptimization */
BYOC__PRIVATE int byoc__pass_skips(const byoc_node *fn) {
    return byoc__has_compiler(fn) || byoc_attrs_int(&fn->attrs, "SkipOptimization", 0) != 0;
}

BYOC_API byoc_result byoc_merge_composite(byoc_module *m, const byoc_pattern_entry *table, int count, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    byoc_result r = byoc_infer_type(m, diag);
    for (int e = 0; r == BYOC_OK && e < count; ++e) {
        byoc_attrs attrs;
        memset(&attrs, 0, sizeof attrs);
        byoc_attrs_set_string(m, &attrs, "Composite", table[e].name);
        for (int f = 0; f < byoc_module_function_count(m) && !m->has_error; ++f) {
            byoc_node *fn = m->functions[f].function;
            if (byoc__pass_skips(fn)) continue; /* an existing partition is never re-partitioned */
            byoc_node *body =
                byoc__partition(m, table[e].pattern, fn->body, &attrs, table[e].check, table[e].user_data);
            if (body && body != fn->body) {
                byoc_node *nf = byoc__function_with_body(m, fn, body);
                if (nf) m->functions[f].function = nf;
            }
        }
        if (m->has_error)
            return byoc__diag(diag, m->error.code, 0, 0, m->error.node_id, "merge_composite: %s", m->error.message);
        r = byoc_infer_type(m, diag); /* later patterns may test types */
    }
    return r;
}

BYOC_API byoc_result byoc_pass_context_add_backend(byoc_pass_context *ctx, const byoc_backend_spec *b,
                                                   byoc_diag *diag) {
    if (!ctx) return byoc__null_arg(diag, __func__, "pass context");
    if (!b) return byoc__null_arg(diag, __func__, "backend");
    for (int i = 0; i < (int)stbds_arrlen(ctx->backends); ++i)
        if (!strcmp(ctx->backends[i]->name, b->name))
            return byoc__diag(diag, BYOC_ERR_DUPLICATE, 0, 0, 0, "backend '%s' is given twice", b->name);
    stbds_arrput(ctx->backends, b);
    return BYOC_OK;
}

BYOC__PRIVATE byoc_result byoc__merge_backend_composites(byoc_module *m, const byoc_backend_spec *const *backends,
                                                         int n, byoc_diag *diag);
/* the pattern tables of every backend, in priority order, each backend's constraints binding */
static byoc_result byoc__pass_merge_composite(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d) {
    (void)ud;
    return byoc__merge_backend_composites(m, ctx->backends, (int)stbds_arrlen(ctx->backends), d);
}

static byoc_result byoc__pass_annotate_target(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d) {
    (void)ud;
    return byoc_annotate_target(m, ctx->backends, (int)stbds_arrlen(ctx->backends),
                                (int)byoc_pass_context_int(ctx, "annotate_target.include_non_call_ops"), d);
}
static byoc_result byoc__pass_merge_regions(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d) {
    (void)ctx; (void)ud;
    return byoc_merge_compiler_regions(m, d);
}
static byoc_result byoc__pass_partition_graph(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d) {
    (void)ud;
    return byoc_partition_graph(m, byoc_pass_context_string(ctx, "partition_graph.mod_name"),
                                (int)byoc_pass_context_int(ctx, "partition_graph.bind_constants"), d);
}

static byoc_result byoc__pass_fuse_ops(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d) {
    (void)ud;
    /* as in TVM, FuseOps runs at every opt level, and at level 0 fuses nothing (each op alone) */
    int max_depth = (int)byoc_pass_context_int(ctx, "fuse_ops.max_depth");
    return byoc_fuse_ops(m, ctx && ctx->opt_level == 0 ? 1 : max_depth, d);
}

static byoc_result byoc__pass_simplify_inference(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d) {
    (void)ctx; (void)ud;
    return byoc_simplify_inference(m, d);
}
static byoc_result byoc__pass_fold_constant(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d) {
    (void)ctx; (void)ud;
    return byoc_fold_constant(m, d);
}
static byoc_result byoc__pass_fold_scale_axis(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d) {
    (void)ctx; (void)ud;
    return byoc_fold_scale_axis(m, d);
}
BYOC_API byoc_result byoc_prepare_for_partition(byoc_module *m, byoc_pass_context *ctx, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    byoc_pass_context *own = ctx ? NULL : byoc_pass_context_create();
    if (!ctx && !own) return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
    if (own) byoc_pass_context_set_verify(own, 0);
    const char *name = "prepare_for_partition";
    byoc_result r = byoc_run_passes(m, &name, 1, ctx ? ctx : own, diag);
    byoc_pass_context_destroy(own);
    return r;
}
static byoc_result byoc__pass_dce(byoc_module *m, byoc_pass_context *ctx, void *ud, byoc_diag *d) {
    (void)ctx; (void)ud;
    return byoc_dead_code_elimination(m, d);
}

/* ---- backend files ---- */
BYOC_API void byoc_backend_free(byoc_backend_spec *b) {
    if (!b) return;
    byoc_module *arena = b->arena;
    BYOC_FREE(b->patterns);
    BYOC_FREE(b->support);
    BYOC_FREE(b);
    byoc_module_destroy(arena);
}

BYOC_API int byoc_backend_supports_op(const byoc_backend_spec *b, const char *op_name) {
    if (!b) return 0;
    for (int i = 0; i < b->nsupport; ++i)
        if (!strcmp(b->support[i].op, op_name)) return 1;
    return 0;
}

/* the value a constraint's subject has on a call */
typedef struct byoc__actual {
    int kind;                    /* 0: absent, 1: number, 2: string, 3: attribute value (lists) */
    double num;
    const char *str;
    const byoc_attr_value *attr;
} byoc__actual;

BYOC__PRIVATE byoc__actual byoc__subject_value(const byoc_node *call, const char *subject) {
    byoc__actual a;
    memset(&a, 0, sizeof a);
    if (!strncmp(subject, "attr.", 5)) {
        const byoc_attr_value *v = byoc_attrs_get(&call->attrs, subject + 5);
        if (!v && call->op) v = byoc_attrs_get(&call->op->defaults, subject + 5);
        if (!v) return a;
        if (v->kind == BYOC_ATTR_INT || v->kind == BYOC_ATTR_BOOL) { a.kind = 1; a.num = (double)v->i; }
        else if (v->kind == BYOC_ATTR_FLOAT) { a.kind = 1; a.num = v->f; }
        else if (v->kind == BYOC_ATTR_STRING) { a.kind = 2; a.str = v->s; }
        else if (v->kind == BYOC_ATTR_NONE) { a.kind = 2; a.str = "None"; }
        else { a.kind = 3; a.attr = v; }
        return a;
    }
    const byoc_type *t = NULL;
    const char *field = subject;
    if (!strncmp(subject, "out.", 4)) { t = call->checked_type; field = subject + 4; }
    else if (!strncmp(subject, "arg", 3) && isdigit((unsigned char)subject[3])) {
        int k = atoi(subject + 3);
        field = strchr(subject, '.');
        if (!field) return a;
        field++;
        if (k < call->nargs) t = call->args[k]->checked_type;
    } else if (call->nargs > 0) t = call->args[0]->checked_type;
    if (!t || t->kind != BYOC_TYPE_TENSOR) return a;
    if (!strcmp(field, "dtype")) { a.kind = 2; a.str = byoc_dtype_name(t->dtype); }
    else if (!strcmp(field, "rank")) { a.kind = 1; a.num = t->rank; }
    else if (!strcmp(field, "elements")) {
        int64_t e = byoc_type_num_elements(t);
        if (e >= 0) { a.kind = 1; a.num = (double)e; }
    } else if (!strncmp(field, "shape[", 6)) {
        int i = atoi(field + 6);
        if (i < 0) i += t->rank;
        if (i >= 0 && i < t->rank && t->dims[i] != BYOC_DIM_UNKNOWN) { a.kind = 1; a.num = (double)t->dims[i]; }
    }
    return a;
}

BYOC__PRIVATE int byoc__constraint_holds(const byoc_op_constraint *c, const byoc__actual *a) {
    const byoc_attr_value *v = &c->value;
    if (!strcmp(c->cmp, "in")) {
        if (a->kind == 2) {
            for (int i = 0; i < c->nstrings; ++i)
                if (!strcmp(c->strings[i], a->str)) return 1;
            return 0;
        }
        if (a->kind != 1) return 0;
        for (int i = 0; i < v->count; ++i)
            if ((v->kind == BYOC_ATTR_INT_LIST ? (double)v->ints[i] : v->floats[i]) == a->num) return 1;
        return 0;
    }
    int eq = !strcmp(c->cmp, "=="), ne = !strcmp(c->cmp, "!=");
    if (a->kind == 2) {
        if (v->kind != BYOC_ATTR_STRING || !(eq || ne)) return 0;
        return (strcmp(a->str, v->s) == 0) == eq;
    }
    if (a->kind == 3) {
        if (!(eq || ne)) return 0;
        return byoc_attr_value_equal(a->attr, v) == eq;
    }
    if (a->kind != 1) return 0;
    double want;
    if (v->kind == BYOC_ATTR_INT || v->kind == BYOC_ATTR_BOOL) want = (double)v->i;
    else if (v->kind == BYOC_ATTR_FLOAT) want = v->f;
    else return 0;
    if (eq) return a->num == want;
    if (ne) return a->num != want;
    if (!strcmp(c->cmp, "<")) return a->num < want;
    if (!strcmp(c->cmp, "<=")) return a->num <= want;
    if (!strcmp(c->cmp, ">")) return a->num > want;
    return a->num >= want;
}

/* does constraint c hold on call? When not, reason says so with the value found: "groups=2 (reason)" */
BYOC__PRIVATE int byoc__constraint_check(const byoc_op_constraint *c, const byoc_node *call, char *reason, size_t cap) {
    byoc__actual a = byoc__subject_value(call, c->subject);
    if (byoc__constraint_holds(c, &a)) return 1;
    const char *shown = strncmp(c->subject, "attr.", 5) ? c->subject : c->subject + 5;
    byoc_module tmp; /* plain-malloc text buffer, as in byoc_type_to_string */
    memset(&tmp, 0, sizeof tmp);
    tmp.alloc.alloc_fn = byoc__default_alloc;
    tmp.alloc.free_fn = byoc__default_free;
    byoc__buf val;
    memset(&val, 0, sizeof val);
    val.m = &tmp;
    if (a.kind == 1) snprintf(reason, cap, "%s=%.17g (%s)", shown, a.num, c->reason);
    else if (a.kind == 2) snprintf(reason, cap, "%s=%s (%s)", shown, a.str, c->reason);
    else if (a.kind == 3) {
        byoc__print_attr_value(&val, a.attr);
        snprintf(reason, cap, "%s=%s (%s)", shown, val.data ? val.data : "", c->reason);
    } else snprintf(reason, cap, "%s unknown (%s)", shown, c->reason);
    BYOC_FREE(val.data);
    return 0;
}

/* the constraints and the predicate of one supports entry, on a call of its op */
BYOC__PRIVATE int byoc__support_accepts(const byoc_op_support *sup, const byoc_node *call, char *reason, size_t cap) {
    if (cap) reason[0] = 0;
    for (int i = 0; i < sup->nconstraints; ++i)
        if (!byoc__constraint_check(&sup->constraints[i], call, reason, cap)) return 0;
    if (sup->predicate && !sup->predicate(call, sup->user_data, reason, cap)) {
        if (cap && !reason[0]) snprintf(reason, cap, "refused by the backend's predicate");
        return 0;
    }
    return 1;
}

/* the backend's dtypes line on one call: every tensor argument and a tensor result must have one of them */
BYOC__PRIVATE int byoc__dtypes_accept(const byoc_backend_spec *b, const byoc_node *call, char *reason, size_t cap) {
    for (int i = -1; b->ndtypes && i < call->nargs; ++i) {
        const byoc_type *t = i < 0 ? call->checked_type : call->args[i]->checked_type;
        if (!t || t->kind != BYOC_TYPE_TENSOR) continue;
        const char *dt = byoc_dtype_name(t->dtype);
        int ok = 0;
        for (int k = 0; k < b->ndtypes && !ok; ++k) ok = !strcmp(b->dtypes[k], dt);
        if (ok) continue;
        char list[200] = "", who[16] = "out";
        for (int k = 0; k < b->ndtypes; ++k)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", b->dtypes[k]);
        if (i >= 0) snprintf(who, sizeof who, "arg%d", i);
        snprintf(reason, cap, "%s.dtype=%s (not one of its dtypes: %s)", who, dt, list);
        return 0;
    }
    return 1;
}

/* ops with '?' extents in their types stay on the host unless the backend declares dynamic_shapes */
BYOC__PRIVATE int byoc__shapes_accept(const byoc_backend_spec *b, const byoc_node *call, char *reason, size_t cap) {
    for (int i = -1; !b->dynamic_shapes && i < call->nargs; ++i) {
        const byoc_type *t = i < 0 ? call->checked_type : call->args[i]->checked_type;
        if (!t || byoc_type_is_static(t)) continue;
        char ty[120], who[16] = "out";
        byoc_type_to_string(t, ty, sizeof ty);
        if (i >= 0) snprintf(who, sizeof who, "arg%d", i);
        snprintf(reason, cap, "dynamic shape: %s is %s (the backend does not declare dynamic_shapes)", who, ty);
        return 0;
    }
    return 1;
}

BYOC_API int byoc_backend_accepts(const byoc_backend_spec *b, const byoc_node *call, char *reason, size_t cap) {
    if (!b || !call) return 0;
    char scratch[8];
    if (!reason) { reason = scratch; cap = sizeof scratch; }
    if (cap) reason[0] = 0;
    if (call->kind != BYOC_NODE_CALL || !call->op) { snprintf(reason, cap, "not an op call"); return 0; }
    const byoc_op_support *sup = NULL;
    for (int i = 0; i < b->nsupport && !sup; ++i)
        if (!strcmp(b->support[i].op, call->op->def.name)) sup = &b->support[i];
    if (!sup) { snprintf(reason, cap, "unsupported op"); return 0; }
    if (!byoc__shapes_accept(b, call, reason, cap) || !byoc__dtypes_accept(b, call, reason, cap)) return 0;
    return byoc__support_accepts(sup, call, reason, cap);
}

/* ---- a backend's constraints on its pattern matches ----
   The rule: what a backend declares about an op binds wherever the backend would take that op: alone
   (byoc_backend_accepts), inside a match of one of its patterns, in a cost-driven candidate, or through
   a pin. byoc__match_declined is the one check of a match; every place that applies a backend's
   patterns calls it: byoc__pass_merge_composite (the pass context's table), byoc_backend_partition,
   byoc__greedy_check, byoc__cc_generate_backend and byoc__cc_apply_check. An op a pattern names but
   `supports` does not list has no constraints to meet. */

/* Constraints scoped to one pattern (a .backend file's indented require lines under it): each applies to
   every call of its op in a match, or to the match's root call when no op is named. They ride on the
   pattern entry as its check (TVM's pattern predicate), so any pass that honours checks honours them. */
typedef struct byoc__pattern_require { const byoc_op *op; byoc_op_constraint c; } byoc__pattern_require;
typedef struct byoc__pattern_requires { const byoc__pattern_require *items; int count; } byoc__pattern_requires;

/* the i-th op call of a match (bindings of call patterns, then nodes on dominates() paths), or NULL */
BYOC__PRIVATE const byoc_node *byoc__match_op_call(const byoc_match *mt, int i) {
    int nm = (int)stbds_arrlen(mt->memo);
    const byoc_node *e;
    if (i < nm) {
        if (!byoc__pat_is_interior(mt->memo[i].p)) return NULL;
        e = mt->memo[i].e;
    } else e = mt->path_nodes[i - nm];
    return e->kind == BYOC_NODE_CALL && e->op ? e : NULL;
}
BYOC__PRIVATE int byoc__match_size(const byoc_match *mt) {
    return (int)(stbds_arrlen(mt->memo) + stbds_arrlen(mt->path_nodes));
}

/* the first call of the match that breaks one of the pattern's own constraints (reason written), or NULL */
BYOC__PRIVATE const byoc_node *byoc__pattern_requires_fail(const byoc__pattern_requires *pr, const byoc_match *mt,
                                                           const byoc_node *root, char *reason, size_t cap) {
    for (int k = 0; k < pr->count; ++k) {
        const byoc__pattern_require *q = &pr->items[k];
        if (!q->op) {
            if (root->kind != BYOC_NODE_CALL || !root->op) {
                snprintf(reason, cap, "%s unknown (%s)", q->c.subject, q->c.reason);
                return root;
            }
            if (!byoc__constraint_check(&q->c, root, reason, cap)) return root;
            continue;
        }
        for (int i = 0; i < byoc__match_size(mt); ++i) {
            const byoc_node *x = byoc__match_op_call(mt, i);
            if (x && x->op == q->op && !byoc__constraint_check(&q->c, x, reason, cap)) return x;
        }
    }
    return NULL;
}
static int byoc__pattern_requires_check(const byoc_match *mt, byoc_node *root, void *user_data) {
    char why[8];
    return !byoc__pattern_requires_fail((const byoc__pattern_requires *)user_data, mt, root, why, sizeof why);
}

/* b's supported ops resolved once (ops[i] = byoc_op_get(b->support[i].op)), so matches compare pointers.
   BYOC_MALLOC'd; NULL when out of memory (lookups then compare names). */
BYOC__PRIVATE const byoc_op **byoc__support_ops(const byoc_backend_spec *b) {
    const byoc_op **ops = BYOC__CAST(const byoc_op **, BYOC_MALLOC(sizeof(byoc_op *) * (size_t)(b->nsupport + 1)));
    for (int i = 0; ops && i < b->nsupport; ++i) ops[i] = byoc_op_get(b->support[i].op);
    return ops;
}
BYOC__PRIVATE const byoc_op_support *byoc__support_of(const byoc_backend_spec *b, const byoc_op *const *ops,
                                                      const byoc_op *op) {
    for (int i = 0; i < b->nsupport; ++i)
        if (ops ? ops[i] == op : !strcmp(b->support[i].op, op->def.name)) return &b->support[i];
    return NULL;
}

/* Does backend b take match mt of its pattern entry e (root: the match's root) as one composite? Every op
   call of the match must meet b's supports entry for its op (constraints, then predicate) when b lists
   the op, then the pattern's own constraints. Returns NULL when it does, else the call that breaks one,
   with reason ("groups=256 (grouped convolutions are not supported)"). ops: from byoc__support_ops or NULL. */
BYOC__PRIVATE const byoc_node *byoc__match_declined(const byoc_backend_spec *b, const byoc_op *const *ops,
                                                    const byoc_pattern_entry *e, const byoc_match *mt,
                                                    const byoc_node *root, char *reason, size_t cap) {
    for (int i = 0; i < byoc__match_size(mt); ++i) {
        const byoc_node *x = byoc__match_op_call(mt, i);
        const byoc_op_support *sup = x ? byoc__support_of(b, ops, x->op) : NULL;
        if (x && (!byoc__shapes_accept(b, x, reason, cap) || !byoc__dtypes_accept(b, x, reason, cap))) return x;
        if (sup && !byoc__support_accepts(sup, x, reason, cap)) return x;
    }
    if (e && e->check == byoc__pattern_requires_check)
        return byoc__pattern_requires_fail((const byoc__pattern_requires *)e->user_data, mt, root, reason, cap);
    return NULL;
}

/* The note a refused match leaves on one of its ops x: on the op that broke a constraint, the reason and
   "[in pattern P]"; on the others, which op broke what. label: the offender's name in reports (may be NULL). */
BYOC__PRIVATE void byoc__pattern_note(char *out, size_t cap, const char *pattern, const byoc_node *x,
                                      const byoc_node *offender, const char *label, const char *why) {
    if (x == offender) snprintf(out, cap, "%s [in pattern %s]", why, pattern);
    else
        snprintf(out, cap, "pattern %s declined for its %s%s%s: %s", pattern,
                 offender->kind == BYOC_NODE_CALL && offender->op ? offender->op->def.name : "root", label ? " " : "",
                 label ? label : "", why);
}
/* an op's reason for being declined alone, with the note of a pattern refusal: the note alone when it says
   the same with "[in pattern P]", else both */
BYOC__PRIVATE void byoc__add_pattern_note(char *reason, size_t cap, const char *note) {
    size_t n = strlen(reason);
    if (!strncmp(note, reason, n) && !strncmp(note + n, " [in pattern ", 13)) snprintf(reason, cap, "%s", note);
    else if (n + 2 < cap) snprintf(reason + n, cap - n, "; %s", note);
}

/* a backend's pattern entry checked against its constraints (the pass context's MergeComposite, UMA's
   byoc_backend_partition), then by the entry's own check */
typedef struct byoc__backend_entry {
    const byoc_backend_spec *b;
    const byoc_op **ops;
    const byoc_pattern_entry *entry;
} byoc__backend_entry;
BYOC__PRIVATE int byoc__backend_entry_check(const byoc_match *mt, byoc_node *root, void *user_data) {
    const byoc__backend_entry *be = (const byoc__backend_entry *)user_data;
    char why[300];
    if (byoc__match_declined(be->b, be->ops, be->entry, mt, root, why, sizeof why)) return 0;
    return !be->entry->check || be->entry->check(mt, root, be->entry->user_data);
}
/* MergeComposite with the patterns of backends[0..n), in that order, their constraints binding */
BYOC__PRIVATE byoc_result byoc__merge_backend_composites(byoc_module *m, const byoc_backend_spec *const *backends,
                                                         int n, byoc_diag *diag) {
    byoc_pattern_entry *table = NULL;
    byoc__backend_entry *wrapped = NULL;
    const byoc_op ***ops = BYOC__CAST(const byoc_op ***, BYOC_CALLOC((size_t)n + 1, sizeof(const byoc_op **)));
    int total = 0;
    for (int i = 0; i < n; ++i) total += backends[i]->npatterns;
    wrapped = BYOC__CAST(byoc__backend_entry *, BYOC_MALLOC(sizeof(byoc__backend_entry) * ((size_t)total + 1)));
    byoc_result r = ops && wrapped ? BYOC_OK : byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
    for (int i = 0, at = 0; r == BYOC_OK && i < n; ++i) {
        ops[i] = byoc__support_ops(backends[i]);
        for (int k = 0; k < backends[i]->npatterns; ++k, ++at) {
            wrapped[at].b = backends[i];
            wrapped[at].ops = ops[i];
            wrapped[at].entry = &backends[i]->patterns[k];
            byoc_pattern_entry e = backends[i]->patterns[k];
            e.check = byoc__backend_entry_check;
            e.user_data = &wrapped[at];
            stbds_arrput(table, e);
        }
    }
    if (r == BYOC_OK) r = byoc_merge_composite(m, table, (int)stbds_arrlen(table), diag);
    for (int i = 0; ops && i < n; ++i) BYOC_FREE(ops[i]);
    BYOC_FREE(ops);
    BYOC_FREE(wrapped);
    stbds_arrfree(table);
    return r;
}

/* one directive: its first line and the indented lines that continue it */
typedef struct byoc__directive { const char *start, *end; int line; } byoc__directive;

BYOC__PRIVATE int byoc__is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

BYOC__PRIVATE int byoc__is_identifier(const char *w) {
    if (!*w || isdigit((unsigned char)*w)) return 0;
    for (; *w; ++w)
        if (!isalnum((unsigned char)*w) && *w != '_') return 0;
    return 1;
}

/* the edit distance of a and b (their first 63 characters) */
BYOC__PRIVATE int byoc__edit_distance(const char *a, const char *b) {
    int la = (int)strlen(a), lb = (int)strlen(b), row[64];
    if (la > 63) la = 63;
    if (lb > 63) lb = 63;
    for (int j = 0; j <= lb; ++j) row[j] = j;
    for (int i = 1; i <= la; ++i) {
        int corner = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; ++j) {
            int up = row[j], best = corner + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            corner = up;
        }
    }
    return row[lb];
}
/* the candidate closest to word when it is close enough to be a misspelling of it, else NULL ("did you mean") */
BYOC__PRIVATE const char *byoc__closest_name(const char *word, const char *const *names, int n) {
    int len = (int)strlen(word), limit = len <= 3 ? 1 : 2 + len / 8, best_d = limit + 1;
    const char *best = NULL;
    for (int i = 0; i < n; ++i) {
        int d = byoc__edit_distance(word, names[i]);
        if (d < best_d && strcmp(word, names[i])) best_d = d, best = names[i];
    }
    return best;
}
/* 1 when word names a dtype, else 0 with "unknown dtype 'int9' (did you mean 'int8'?)" */
BYOC__PRIVATE int byoc__check_dtype_name(const char *word, char *msg, size_t cap) {
    if (byoc_dtype_from_name(word) != BYOC_DTYPE_INVALID) return 1;
    const char *names[BYOC_DTYPE_COUNT];
    char list[256] = "";
    for (int i = 1; i < BYOC_DTYPE_COUNT; ++i) {
        names[i - 1] = byoc_dtype_name((byoc_dtype)i);
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i > 1 ? ", " : "", names[i - 1]);
    }
    const char *near = byoc__closest_name(word, names, BYOC_DTYPE_COUNT - 1);
    if (near) snprintf(msg, cap, "unknown dtype '%.40s' (did you mean '%s'?)", word, near);
    else snprintf(msg, cap, "unknown dtype '%.40s' (dtypes: %s)", word, list);
    return 0;
}
/* 1 when op's attribute schema has name, else 0 with "nn.conv2d has no attribute 'group' (did you mean 'groups'?)" */
BYOC__PRIVATE int byoc__check_attr_name(const byoc_op *op, const char *name, char *msg, size_t cap) {
    const char *names[64] = {NULL};
    char list[300] = "";
    int n = 0;
    for (int i = 0; i < op->def.nattrs; ++i) {
        if (!strcmp(op->def.attrs[i].name, name)) return 1;
        if (n < 64) names[n++] = op->def.attrs[i].name;
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", op->def.attrs[i].name);
    }
    const char *near = byoc__closest_name(name, names, n);
    if (near) snprintf(msg, cap, "%s has no attribute '%.40s' (did you mean '%s'?)", op->def.name, name, near);
    else if (!n) snprintf(msg, cap, "%s has no attributes (attr.%.40s)", op->def.name, name);
    else snprintf(msg, cap, "%s has no attribute '%.40s' (its attributes: %s)", op->def.name, name, list);
    return 0;
}

/* "SUBJECT CMP VALUE "reason"" from p to e (one line of a supports directive, after "require") */
BYOC__PRIVATE int byoc__parse_constraint(byoc_module *arena, const char *p, const char *e, const char *fname, int line,
                                         const char *line_start, byoc_op_constraint *c, byoc_diag *diag) {
    memset(c, 0, sizeof *c);
#define BYOC__CFAIL(at, ...)                                                                      \
    do {                                                                                          \
        int col_ = (int)((at)-line_start) + 1;                                                    \
        char msg_[400];                                                                           \
        snprintf(msg_, sizeof msg_, __VA_ARGS__);                                                 \
        byoc__diag(diag, BYOC_ERR_PARSE, line, col_, 0, "%s:%d:%d: %s", fname, line, col_, msg_); \
        return 0;                                                                                 \
    } while (0)
    while (p < e && byoc__is_space(*p)) p++;
    const char *se = p;
    while (se < e && !byoc__is_space(*se) && !strchr("=!<>", *se)) se++;
    char subject[96];
    snprintf(subject, sizeof subject, "%.*s", (int)(se - p < 95 ? se - p : 95), p);
    int ok = 0;
    const char *field = subject;
    if (!strncmp(subject, "attr.", 5)) ok = byoc__is_identifier(subject + 5);
    else {
        if (!strncmp(subject, "out.", 4)) field = subject + 4;
        else if (!strncmp(subject, "arg", 3) && isdigit((unsigned char)subject[3])) {
            const char *dot = strchr(subject, '.');
            int digits = 1;
            for (const char *d = subject + 3; d < (dot ? dot : subject + strlen(subject)); ++d)
                digits &= isdigit((unsigned char)*d) != 0;
            field = dot && digits && dot - subject <= 6 ? dot + 1 : "";
        }
        if (!strcmp(field, "dtype") || !strcmp(field, "rank") || !strcmp(field, "elements")) ok = 1;
        else if (!strncmp(field, "shape[", 6)) {
            const char *d = field + 6;
            if (*d == '-') d++;
            const char *ds = d;
            while (isdigit((unsigned char)*d)) d++;
            ok = d > ds && d - ds <= 2 && d[0] == ']' && d[1] == 0;
        }
    }
    if (!ok)
        BYOC__CFAIL(p, "expected a subject: dtype, rank, shape[i], elements (optionally argK. or out.) or attr.NAME");
    c->subject = byoc_intern(arena, subject);
    p = se;
    while (p < e && byoc__is_space(*p)) p++;
    static const char *const cmps[] = {"==", "!=", "<=", ">=", "<", ">", "in"};
    for (int i = 0; i < 7 && !c->cmp; ++i) {
        size_t n = strlen(cmps[i]);
        if ((size_t)(e - p) >= n && !memcmp(p, cmps[i], n) && (i < 6 || (p + n < e && byoc__is_space(p[n])))) {
            c->cmp = cmps[i];
            p += n;
        }
    }
    if (!c->cmp) BYOC__CFAIL(p, "expected a comparison: == != < <= > >= or in");
    while (p < e && byoc__is_space(*p)) p++;
    /* the value: up to the reason's opening quote, except quotes inside [ ] or a quoted scalar */
    const char *ve = p;
    int depth = 0;
    if (p < e && *p == '"') { /* a quoted string value */
        ve = p + 1;
        while (ve < e && *ve != '"') ve++;
        if (ve < e) ve++;
    } else {
        while (ve < e && (depth > 0 || *ve != '"')) {
            if (*ve == '[') depth++;
            else if (*ve == ']') depth--;
            ve++;
        }
    }
    const char *vend = ve;
    while (vend > p && byoc__is_space(vend[-1])) vend--;
    if (vend == p) BYOC__CFAIL(p, "expected a value");
    char vtext[256];
    snprintf(vtext, sizeof vtext, "%.*s", (int)(vend - p < 255 ? vend - p : 255), p);
    int is_in = !strcmp(c->cmp, "in"), is_dtype = !strcmp(field, "dtype");
    if (is_in) { /* [a, b, ...]: numbers, or words/strings (dtype names need no quotes) */
        if (vtext[0] != '[' || vtext[strlen(vtext) - 1] != ']') BYOC__CFAIL(p, "'in' expects a list [a, b, ...]");
        const char **words = NULL;
        int numbers = 0;
        char *item = vtext + 1;
        vtext[strlen(vtext) - 1] = 0;
        for (char *tok = strtok(item, ","); tok; tok = strtok(NULL, ",")) {
            while (byoc__is_space(*tok)) tok++;
            char *te = tok + strlen(tok);
            while (te > tok && byoc__is_space(te[-1])) *--te = 0;
            if (*tok == '"' && te - tok >= 2 && te[-1] == '"') { te[-1] = 0; tok++; }
            else if (isdigit((unsigned char)*tok) || *tok == '-') numbers++;
            char bad[160];
            if (is_dtype && !numbers && !byoc__check_dtype_name(tok, bad, sizeof bad)) {
                stbds_arrfree(words);
                BYOC__CFAIL(p + (tok - vtext), "%s", bad);
            }
            stbds_arrput(words, byoc_intern(arena, tok));
        }
        int n = (int)stbds_arrlen(words);
        if (!n || (numbers && numbers != n)) {
            stbds_arrfree(words);
            BYOC__CFAIL(p, "'in' expects a list of numbers or of names");
        }
        if (numbers && is_dtype) {
            stbds_arrfree(words);
            BYOC__CFAIL(p, "expected a list of dtype names ([float32, int8])");
        }
        if (numbers) {
            byoc_diag vd;
            snprintf(vtext, sizeof vtext, "%.*s", (int)(vend - p < 255 ? vend - p : 255), p);
            if (byoc__attr_value_parse_in(arena, vtext, &c->value, &vd) != BYOC_OK) {
                stbds_arrfree(words);
                BYOC__CFAIL(p, "bad number list");
            }
        } else {
            const char **kept = BYOC__NEW_N(arena, const char *, n);
            if (kept) memcpy(kept, words, sizeof(char *) * (size_t)n);
            c->strings = kept;
            c->nstrings = n;
            c->value.kind = BYOC_ATTR_STRING;
        }
        stbds_arrfree(words);
    } else if (byoc__is_identifier(vtext) && strcmp(vtext, "True") && strcmp(vtext, "False") && strcmp(vtext, "None")) {
        c->value.kind = BYOC_ATTR_STRING; /* a bare word such as float32 */
        c->value.s = byoc_intern(arena, vtext);
        char bad[160];
        if (is_dtype && !byoc__check_dtype_name(vtext, bad, sizeof bad)) BYOC__CFAIL(p, "%s", bad);
    } else {
        byoc_diag vd;
        if (byoc__attr_value_parse_in(arena, vtext, &c->value, &vd) != BYOC_OK)
            BYOC__CFAIL(p, "bad value '%.60s'", vtext);
        if (c->value.kind != BYOC_ATTR_STRING && c->value.kind != BYOC_ATTR_INT && c->value.kind != BYOC_ATTR_FLOAT &&
            c->value.kind != BYOC_ATTR_BOOL && strcmp(c->cmp, "==") && strcmp(c->cmp, "!="))
            BYOC__CFAIL(p, "a list can only be compared with == or !=");
        char bad[160];
        if (is_dtype && c->value.kind != BYOC_ATTR_STRING) BYOC__CFAIL(p, "expected a dtype name (float32, int8, ...)");
        if (is_dtype && !byoc__check_dtype_name(c->value.s, bad, sizeof bad)) BYOC__CFAIL(p + 1, "%s", bad);
    }
    p = ve;
    while (p < e && byoc__is_space(*p)) p++;
    if (p >= e || *p != '"') BYOC__CFAIL(p, "expected the reason shown to users, in double quotes");
    const char *rs = ++p;
    while (p < e && *p != '"') p++;
    if (p >= e) BYOC__CFAIL(rs - 1, "unterminated reason string");
    if (p == rs) BYOC__CFAIL(rs - 1, "the reason is empty");
    c->reason = byoc__intern_n(arena, rs, (size_t)(p - rs));
    p++;
    while (p < e && byoc__is_space(*p)) p++;
    if (p < e && *p != '#') BYOC__CFAIL(p, "unexpected text after the reason");
#undef BYOC__CFAIL
    return !arena->has_error;
}

/* a pattern's own constraints, from p to e (the indented lines after the pattern, the first at line `line`):
   "require [OP] SUBJECT CMP VALUE "reason"" each; OP must be an op the pattern names */
BYOC__PRIVATE byoc__pattern_requires *byoc__parse_pattern_requires(byoc_module *arena, const byoc_pattern *pat,
                                                                   const char *p, const char *e, int line,
                                                                   const char *fname, byoc_diag *diag) {
    byoc__pattern_require *items = NULL;
    int failed = 0;
    for (const char *ls = p; !failed && ls < e; ++line) {
        const char *le = ls;
        while (le < e && *le != '\n') le++;
        const char *q = ls;
        while (q < le && byoc__is_space(*q)) q++;
        if (q < le && *q != '#') {
            if (le - q < 8 || memcmp(q, "require", 7) || !byoc__is_space(q[7])) {
                byoc__diag(diag, BYOC_ERR_PARSE, line, (int)(q - ls) + 1, 0,
                           "%s:%d:%d: expected 'require' (a pattern's constraints follow it, one a line)", fname, line,
                           (int)(q - ls) + 1);
                failed = 1;
                break;
            }
            q += 7;
            while (q < le && byoc__is_space(*q)) q++;
            byoc__pattern_require item;
            memset(&item, 0, sizeof item);
            /* "require OP SUBJECT ...": a first word followed by another word, not by a comparison */
            const char *we = q;
            while (we < le && !byoc__is_space(*we) && !strchr("=!<>", *we)) we++;
            const char *nx = we;
            while (nx < le && byoc__is_space(*nx)) nx++;
            int named = we > q && nx > we && nx < le && !strchr("=!<>\"", *nx) &&
                        !(le - nx >= 3 && !memcmp(nx, "in", 2) && byoc__is_space(nx[2]));
            if (named) {
                char opname[96];
                snprintf(opname, sizeof opname, "%.*s", (int)(we - q < 95 ? we - q : 95), q);
                item.op = byoc_op_get(opname);
                int col = (int)(q - ls) + 1, found = 0;
                if (!item.op) {
                    byoc__diag(diag, BYOC_ERR_PARSE, line, col, 0, "%s:%d:%d: unknown op '%s'", fname, line, col,
                               opname);
                    failed = 1;
                    break;
                }
                const byoc_pattern **post = NULL;
                byoc__pattern_post_order(pat, &post, 0);
                for (int i = 0; i < (int)stbds_arrlen(post) && !found; ++i)
                    found = post[i]->kind == BYOC_PAT_OP && post[i]->op == item.op;
                stbds_arrfree(post);
                if (!found) {
                    byoc__diag(diag, BYOC_ERR_PARSE, line, col, 0, "%s:%d:%d: the pattern has no %s call to constrain",
                               fname, line, col, opname);
                    failed = 1;
                    break;
                }
                q = nx;
            }
            if (!byoc__parse_constraint(arena, q, le, fname, line, ls, &item.c, diag)) { failed = 1; break; }
            /* attr.NAME must be an attribute of the op it constrains: the named op, else the pattern's root op */
            const byoc_op *about = item.op ? item.op
                                   : pat->kind == BYOC_PAT_CALL && pat->inner && pat->inner->kind == BYOC_PAT_OP
                                       ? pat->inner->op
                                       : NULL;
            char bad[400];
            if (about && !strncmp(item.c.subject, "attr.", 5) &&
                !byoc__check_attr_name(about, item.c.subject + 5, bad, sizeof bad)) {
                int col = (int)(q - ls) + 1;
                byoc__diag(diag, BYOC_ERR_PARSE, line, col, 0, "%s:%d:%d: %s", fname, line, col, bad);
                failed = 1;
                break;
            }
            stbds_arrput(items, item);
        }
        ls = le < e ? le + 1 : le;
    }
    byoc__pattern_requires *pr = failed ? NULL : BYOC__NEW(arena, byoc__pattern_requires);
    byoc__pattern_require *kept = pr ? BYOC__NEW_N(arena, byoc__pattern_require, stbds_arrlen(items) + 1) : NULL;
    if (kept) {
        if (stbds_arrlen(items)) memcpy(kept, items, sizeof(byoc__pattern_require) * (size_t)stbds_arrlen(items));
        pr->items = kept;
        pr->count = (int)stbds_arrlen(items);
    } else pr = NULL;
    stbds_arrfree(items);
    if (!pr && !failed) byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
    return pr;
}

BYOC_API byoc_backend_spec *byoc_backend_parse(const char *text, size_t len, const char *filename, byoc_diag *diag) {
    byoc_diag local;
    if (!diag) diag = &local;
    memset(diag, 0, sizeof *diag);
    const char *fname = filename ? filename : "<backend>";
    byoc_backend_spec *b = BYOC__CAST(byoc_backend_spec *, BYOC_CALLOC(1, sizeof *b));
    byoc_module *arena = byoc_module_create(NULL);
    if (!b || !arena) {
        BYOC_FREE(b);
        byoc_module_destroy(arena);
        byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        return NULL;
    }
    b->arena = arena;
    b->file = byoc_intern(arena, fname);
    byoc__pat_name *names = NULL;
    stbds_sh_new_strdup(names);
    byoc_pattern_entry *patterns = NULL;
    byoc_op_support *support = NULL;
    const char **dtypes = NULL;
    int failed = 0, option_line = 0;
    const char *p = text ? text : "", *end = p + (text ? len : 0);
    int line = 1;
    while (!failed && p < end) {
        /* gather a directive: a non-indented line plus indented continuation lines */
        const char *ls = p;
        while (p < end && *p != '\n') p++;
        const char *le = p;
        int dline = line;
        if (p < end) { p++; line++; }
        const char *content = ls;
        while (content < le && byoc__is_space(*content)) content++;
        if (content == le || *content == '#') continue;
        if (content != ls) {
            byoc__diag(diag, BYOC_ERR_PARSE, dline, 1, 0, "%s:%d:1: a directive cannot start indented", fname, dline);
            failed = 1;
            break;
        }
        while (p < end && byoc__is_space(*p)) { /* continuation lines */
            const char *q = p;
            while (q < end && byoc__is_space(*q)) q++;
            if (q < end && *q == '\n') { p = q + 1; line++; continue; } /* blank line */
            if (q < end && *q == '#') { while (q < end && *q != '\n') q++; p = q < end ? q + 1 : q; line++; continue; }
            while (q < end && *q != '\n') q++;
            le = q;
            p = q < end ? q + 1 : q;
            line++;
        }
        /* the keyword */
        const char *kw = content, *kwe = kw;
        while (kwe < le && !byoc__is_space(*kwe) && *kwe != '\n') kwe++;
        size_t kwlen = (size_t)(kwe - kw);
        const char *arg = kwe;
        while (arg < le && (byoc__is_space(*arg) || *arg == '\n')) arg++;
        int arg_col = (int)(arg - ls) + 1;
        static const char *const known[] = {"kind",   "priority", "dtypes",   "option",        "define",
                                            "pattern", "supports", "fusion", "dynamic_shapes"};
        for (int k = 0; k < 9 && !b->name; ++k)
            if (kwlen == strlen(known[k]) &&
                !memcmp(kw, known[k], kwlen)) { /* the name first: everything after belongs to it */
                byoc__diag(diag, BYOC_ERR_PARSE, dline, 1, 0, "%s:%d:1: 'backend NAME' must come first, before '%s'",
                           fname, dline, known[k]);
                failed = 1;
            }
        if (failed) break;
        if (kwlen == 7 && !memcmp(kw, "backend", 7)) {
            const char *ae = arg;
            while (ae < le && (isalnum((unsigned char)*ae) || *ae == '_')) ae++;
            if (ae == arg || b->name || ae - arg > BYOC_MAX_BACKEND_NAME) {
                byoc__diag(diag, BYOC_ERR_PARSE, dline, arg_col, 0, "%s:%d:%d: %s", fname, dline, arg_col,
                           b->name     ? "the backend is named twice"
                           : ae == arg ? "expected a backend name (letters, digits, _)"
                                       : "a backend name has at most 64 characters");
                failed = 1;
                break;
            }
            b->name = byoc__intern_n(arena, arg, (size_t)(ae - arg));
            b->kind_line = dline, b->kind_col = arg_col; /* the kind is the name until a kind line says otherwise */
            const char *rest = ae;
            while (rest < le && (byoc__is_space(*rest) || *rest == '\n')) rest++;
            if (rest < le) {
                byoc__diag(diag, BYOC_ERR_PARSE, dline, (int)(rest - ls) + 1, 0,
                           "%s:%d:%d: unexpected text after the backend name", fname, dline, (int)(rest - ls) + 1);
                failed = 1;
            }
        } else if ((kwlen == 7 && !memcmp(kw, "pattern", 7)) || (kwlen == 6 && !memcmp(kw, "define", 6))) {
            int is_pattern = kwlen == 7;
            const char *ne = arg;
            while (ne < le && (isalnum((unsigned char)*ne) || *ne == '_')) ne++;
            const char *eq = ne;
            while (eq < le && byoc__is_space(*eq)) eq++;
            if (ne == arg || eq >= le || *eq != '=') {
                byoc__diag(diag, BYOC_ERR_PARSE, dline, arg_col, 0, "%s:%d:%d: expected NAME = PATTERN", fname, dline,
                           arg_col);
                failed = 1;
                break;
            }
            char pname[128];
            snprintf(pname, sizeof pname, "%.*s", (int)(ne - arg < 127 ? ne - arg : 127), arg);
            const char *body = eq + 1;
            /* the pattern ends where an indented line starts with "require": its own constraints follow */
            const char *body_end = le, *req_line = NULL;
            int req_lineno = dline;
            for (const char *c = body; c < le; ++c) {
                if (*c != '\n') continue;
                req_lineno++;
                const char *w = c + 1;
                while (w < le && byoc__is_space(*w)) w++;
                if (le - w >= 7 && !memcmp(w, "require", 7) && (w + 7 == le || byoc__is_space(w[7]) || w[7] == '\n')) {
                    body_end = c;
                    req_line = c + 1;
                    break;
                }
            }
            if (req_line && !is_pattern) {
                int col = 1;
                while (byoc__is_space(req_line[col - 1])) col++;
                byoc__diag(diag, BYOC_ERR_PARSE, req_lineno, col, 0,
                           "%s:%d:%d: 'require' lines belong to a pattern or to supports, not to a define", fname,
                           req_lineno, col);
                failed = 1;
                break;
            }
            byoc__parser pp;
            byoc__parser_init(&pp, arena, diag, b->file, body, (size_t)(body_end - body));
            pp.line = dline;
            pp.col = (int)(body - ls) + 1;
            byoc__next(&pp);
            byoc_pattern *pat = pp.failed ? NULL : byoc__parse_pat(&pp, &names);
            if (pat && pp.tok.kind != BYOC__T_EOF) byoc__expected(&pp, "the end of the pattern");
            byoc__parser_free(&pp);
            if (pp.failed || !pat) { failed = 1; break; }
            if (is_pattern) {
                char full[300];
                snprintf(full, sizeof full, "%s.%s", b->name, pname);
                for (int i = 0; i < (int)stbds_arrlen(patterns); ++i)
                    if (!strcmp(patterns[i].name, full)) {
                        byoc__diag(diag, BYOC_ERR_PARSE, dline, arg_col, 0, "%s:%d:%d: pattern '%s' is defined twice",
                                   fname, dline, arg_col, pname);
                        failed = 1;
                    }
                if (failed) break;
                byoc_pattern_entry e;
                memset(&e, 0, sizeof e);
                e.name = byoc_intern(arena, full);
                e.pattern = pat;
                if (req_line) {
                    byoc__pattern_requires *pr =
                        byoc__parse_pattern_requires(arena, pat, req_line, le, req_lineno, fname, diag);
                    if (!pr) { failed = 1; break; }
                    e.check = byoc__pattern_requires_check;
                    e.user_data = pr;
                }
                stbds_arrput(patterns, e);
            } else
                stbds_shput(names, pname, pat);
        } else if (kwlen == 8 && !memcmp(kw, "supports", 8)) {
            /* first line: op names; indented lines: more op names, or
               "require SUBJECT CMP VALUE "reason"" constraints for every op of this directive */
            int first_op = (int)stbds_arrlen(support);
            byoc_op_constraint *cons = NULL;
            int *cons_at = NULL; /* each constraint's line and subject column */
            const char *q = arg, *line_start = ls;
            int cur_line = dline;
            while (!failed && q < le) {
                while (q < le && (byoc__is_space(*q) || *q == ',' || *q == '\n')) {
                    if (*q == '\n') { cur_line++; line_start = q + 1; }
                    q++;
                }
                if (q >= le) break;
                if (*q == '#') { while (q < le && *q != '\n') q++; continue; }
                const char *oe = q;
                while (oe < le && !byoc__is_space(*oe) && *oe != '\n' && *oe != ',') oe++;
                int col = (int)(q - line_start) + 1;
                if (oe - q == 7 && !memcmp(q, "require", 7)) {
                    const char *le_line = oe;
                    while (le_line < le && *le_line != '\n') le_line++;
                    byoc_op_constraint c;
                    if (!byoc__parse_constraint(arena, oe, le_line, fname, cur_line, line_start, &c, diag)) {
                        failed = 1;
                        break;
                    }
                    stbds_arrput(cons, c);
                    const char *sj = oe;
                    while (sj < le_line && byoc__is_space(*sj)) sj++;
                    stbds_arrput(cons_at, cur_line);
                    stbds_arrput(cons_at, (int)(sj - line_start) + 1);
                    q = le_line;
                    continue;
                }
                const char *op = byoc__intern_n(arena, q, (size_t)(oe - q));
                if (!byoc_op_get(op)) {
                    byoc__diag(diag, BYOC_ERR_PARSE, cur_line, col, 0, "%s:%d:%d: unknown op '%s'", fname, cur_line,
                               col, op);
                    failed = 1;
                    break;
                }
                for (int k = 0; k < (int)stbds_arrlen(support); ++k)
                    if (!strcmp(support[k].op, op)) {
                        byoc__diag(diag, BYOC_ERR_PARSE, cur_line, col, 0, "%s:%d:%d: op '%s' is listed twice", fname,
                                   cur_line, col, op);
                        failed = 1;
                    }
                if (failed) break;
                byoc_op_support su;
                memset(&su, 0, sizeof su);
                su.op = op;
                stbds_arrput(support, su);
                q = oe;
            }
            for (int k = 0; !failed && k < (int)stbds_arrlen(cons);
                 ++k) /* attr.NAME: an attribute of every op it constrains */
                for (int o = first_op; !failed && o < (int)stbds_arrlen(support); ++o) {
                    char bad[400];
                    if (strncmp(cons[k].subject, "attr.", 5) ||
                        byoc__check_attr_name(byoc_op_get(support[o].op), cons[k].subject + 5, bad, sizeof bad))
                        continue;
                    byoc__diag(diag, BYOC_ERR_PARSE, cons_at[2 * k], cons_at[2 * k + 1], 0, "%s:%d:%d: %s", fname,
                               cons_at[2 * k], cons_at[2 * k + 1], bad);
                    failed = 1;
                }
            stbds_arrfree(cons_at);
            if (!failed && stbds_arrlen(cons)) {
                byoc_op_constraint *stored = BYOC__NEW_N(arena, byoc_op_constraint, stbds_arrlen(cons));
                if (stored) memcpy(stored, cons, sizeof(byoc_op_constraint) * (size_t)stbds_arrlen(cons));
                for (int k = first_op; stored && k < (int)stbds_arrlen(support); ++k) {
                    support[k].constraints = stored;
                    support[k].nconstraints = (int)stbds_arrlen(cons);
                }
            }
            if (!failed && first_op == (int)stbds_arrlen(support)) {
                byoc__diag(diag, BYOC_ERR_PARSE, dline, arg_col, 0, "%s:%d:%d: 'supports' needs at least one op", fname,
                           dline, arg_col);
                failed = 1;
            }
            stbds_arrfree(cons);
        } else if (kwlen == 6 && !memcmp(kw, "fusion", 6)) {
            char words[3][32];
            int nwords = 0, too_long = 0;
            for (const char *c = arg; c < le && nwords < 3;) { /* the directive's words, within this line */
                while (c < le && (byoc__is_space(*c) || *c == '\n')) c++;
                const char *w = c;
                while (c < le && !byoc__is_space(*c) && *c != '\n') c++;
                if (c == w) break;
                too_long |= c - w > 31;
                snprintf(words[nwords++], sizeof words[0], "%.*s", (int)(c - w < 31 ? c - w : 31), w);
            }
            char *depth_end = NULL;
            long depth = nwords == 2 ? strtol(words[1], &depth_end, 10) : 0;
            int known = nwords >= 1 &&
                        (!strcmp(words[0], "arbitrary") || !strcmp(words[0], "tvm") || !strcmp(words[0], "none"));
            if (!known || nwords > 2 || too_long || (nwords == 2 && (*depth_end || depth < 1 || depth > 64))) {
                byoc__diag(diag, BYOC_ERR_PARSE, dline, arg_col, 0,
                           "%s:%d:%d: expected fusion arbitrary|tvm|none [MAX_DEPTH 1..64]", fname, dline, arg_col);
                failed = 1;
                break;
            }
            b->fusion = !strcmp(words[0], "tvm")    ? BYOC_FUSION_TVM
                        : !strcmp(words[0], "none") ? BYOC_FUSION_NONE
                                                    : BYOC_FUSION_ARBITRARY;
            b->fusion_max_depth = (int)depth;
        } else if ((kwlen == 4 && !memcmp(kw, "kind", 4)) || (kwlen == 8 && !memcmp(kw, "priority", 8))) {
            const char *ae = arg;
            while (ae < le && !byoc__is_space(*ae) && *ae != '\n') ae++;
            const char *rest = ae;
            while (rest < le && (byoc__is_space(*rest) || *rest == '\n')) rest++;
            int is_kind = kwlen == 4;
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)(ae - arg < 63 ? ae - arg : 63), arg);
            char *num_end = NULL;
            long pr = is_kind ? 0 : strtol(word, &num_end, 10);
            if (ae == arg || rest < le ||
                (is_kind ? !byoc__is_identifier(word) : (*num_end != 0 || pr < -1000000 || pr > 1000000))) {
                byoc__diag(diag, BYOC_ERR_PARSE, dline, arg_col, 0, "%s:%d:%d: %s", fname, dline, arg_col,
                           is_kind ? "expected one device kind name (letters, digits, _)"
                                   : "expected one integer priority");
                failed = 1;
                break;
            }
            if (is_kind && (b->kind_given || option_line)) {
                byoc__diag(
                    diag, BYOC_ERR_PARSE, dline, 1, 0,
                    b->kind_given
                        ? "%s:%d:1: the kind is given twice"
                        : "%s:%d:1: 'kind' must come before the option lines (line %d sets a parameter of the kind)",
                    fname, dline, option_line);
                failed = 1;
                break;
            }
            if (is_kind) {
                b->kind = byoc_intern(arena, word), b->kind_given = 1, b->kind_line = dline, b->kind_col = arg_col;
                b->library = !strcmp(word, "library");
            } else b->priority = (int)pr;
        } else if (kwlen == 6 && !memcmp(kw, "dtypes", 6)) {
            /* one dtype list for the whole backend: placement checks every tensor of an op against it, and it is
               the device's */
            if (dtypes) {
                byoc__diag(diag, BYOC_ERR_PARSE, dline, 1, 0, "%s:%d:1: the dtypes are given twice", fname, dline);
                failed = 1;
                break;
            }
            for (const char *c = arg; c < le && !failed;) {
                while (c < le && (byoc__is_space(*c) || *c == '\n' || *c == ',')) c++;
                const char *w = c;
                while (c < le && !byoc__is_space(*c) && *c != '\n' && *c != ',') c++;
                if (c == w) break;
                char word[48], bad[300];
                snprintf(word, sizeof word, "%.*s", (int)(c - w < 47 ? c - w : 47), w);
                if (*w == '#') break;
                const char *wl = ls; /* the word's own line, for a list that continues on indented lines */
                int wline = dline;
                for (const char *x = ls; x < w; ++x)
                    if (*x == '\n') wline++, wl = x + 1;
                if (!byoc__check_dtype_name(word, bad, sizeof bad)) {
                    int col = (int)(w - wl) + 1;
                    byoc__diag(diag, BYOC_ERR_PARSE, wline, col, 0, "%s:%d:%d: %s", fname, wline, col, bad);
                    failed = 1;
                    break;
                }
                stbds_arrput(dtypes, byoc_dtype_name(byoc_dtype_from_name(word)));
            }
            if (failed) break;
            if (!dtypes) {
                byoc__diag(diag, BYOC_ERR_PARSE, dline, arg_col, 0,
                           "%s:%d:%d: expected dtype names (dtypes float32 int8)", fname, dline, arg_col);
                failed = 1;
                break;
            }
        } else if (kwlen == 6 && !memcmp(kw, "option", 6)) {
            const char *ne = arg;
            while (ne < le && (isalnum((unsigned char)*ne) || *ne == '_')) ne++;
            const char *val = ne;
            while (val < le && byoc__is_space(*val)) val++;
            char oname[64], vtext[256];
            snprintf(oname, sizeof oname, "%.*s", (int)(ne - arg < 63 ? ne - arg : 63), arg);
            snprintf(vtext, sizeof vtext, "%.*s", (int)(le - val < 255 ? le - val : 255), val);
            byoc_attr_value v;
            byoc_diag vd;
            if (ne == arg || val == ne || byoc__attr_value_parse_in(arena, vtext, &v, &vd) != BYOC_OK) {
                int col = ne == arg || val == ne ? arg_col : (int)(val - ls) + 1;
                byoc__diag(diag, BYOC_ERR_PARSE, dline, col, 0,
                           "%s:%d:%d: expected option NAME VALUE (a number, \"string\", True/False or a list)", fname,
                           dline, col);
                failed = 1;
                break;
            }
            if (byoc_attrs_get(&b->options, oname)) {
                byoc__diag(diag, BYOC_ERR_PARSE, dline, arg_col, 0, "%s:%d:%d: option '%s' is given twice", fname,
                           dline, arg_col, oname);
                failed = 1;
                break;
            }
            if (!strcmp(oname, "dtypes")) { /* one list serves placement and the device: the dtypes directive */
                byoc__diag(diag, BYOC_ERR_PARSE, dline, arg_col, 0,
                           "%s:%d:%d: the dtypes are the backend's one list, for placement and the device: write "
                           "'dtypes float32 int8' (a directive) instead of an option",
                           fname, dline, arg_col);
                failed = 1;
                break;
            }
            if (b->library) {
                byoc__diag(diag, BYOC_ERR_PARSE, dline, arg_col, 0,
                           "%s:%d:%d: a library backend has no device parameters (option '%s')", fname, dline, arg_col,
                           oname);
                failed = 1;
                break;
            }
            if (!option_line) option_line = dline;
            byoc_attrs_set(arena, &b->options, oname, &v);
        } else if (kwlen == 14 && !memcmp(kw, "dynamic_shapes", 14)) {
            b->dynamic_shapes = 1;
        } else {
            byoc__diag(diag, BYOC_ERR_PARSE, dline, 1, 0,
                       "%s:%d:1: unknown directive '%.*s' (expected backend, kind, priority, dtypes, option, define, "
                       "pattern, supports, fusion or dynamic_shapes)",
                       fname, dline, (int)(kwlen > 40 ? 40 : kwlen), kw);
            failed = 1;
        }
    }
    if (!failed && !b->name) {
        byoc__diag(diag, BYOC_ERR_PARSE, line, 1, 0, "%s:%d:1: no 'backend NAME' line", fname, line);
        failed = 1;
    }
    stbds_shfree(names);
    if (!failed) { /* plain malloc copies: the stb_ds arrays do not outlive this call */
        b->npatterns = (int)stbds_arrlen(patterns);
        b->nsupport = (int)stbds_arrlen(support);
        b->patterns =
            BYOC__CAST(byoc_pattern_entry *, BYOC_MALLOC(sizeof(byoc_pattern_entry) * (size_t)(b->npatterns + 1)));
        b->support = BYOC__CAST(byoc_op_support *, BYOC_MALLOC(sizeof(byoc_op_support) * (size_t)(b->nsupport + 1)));
        if (!b->patterns || !b->support) failed = 1;
        else {
            if (b->npatterns) memcpy(b->patterns, patterns, sizeof(byoc_pattern_entry) * (size_t)b->npatterns);
            if (b->nsupport) memcpy(b->support, support, sizeof(byoc_op_support) * (size_t)b->nsupport);
        }
        if (!b->kind) b->kind = b->name;
        int nd = (int)stbds_arrlen(dtypes);
        const char **kept = nd ? BYOC__NEW_N(arena, const char *, nd) : NULL;
        if (kept) memcpy(kept, dtypes, sizeof(char *) * (size_t)nd), b->dtypes = kept, b->ndtypes = nd;
        else if (nd) failed = 1;
    }
    stbds_arrfree(dtypes);
    stbds_arrfree(patterns);
    stbds_arrfree(support);
    if (failed) {
        if (!diag->message[0]) byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        byoc_backend_free(b);
        return NULL;
    }
    return b;
}

BYOC_API byoc_backend_spec *byoc_backend_load(const char *path, byoc_diag *diag) {
    size_t len;
    char *text = byoc__read_file(path, &len, diag);
    if (!text) return NULL;
    byoc_backend_spec *b = byoc_backend_parse(text, len, path, diag);
    BYOC_FREE(text);
    return b;
}

// [SECTION] impl: partition passes: annotation, regions, partitioning
/* ---- annotation and regions ---- */
BYOC__PRIVATE const byoc_op *byoc__begin_op(void) { return byoc__ops()->compiler_begin; }
BYOC__PRIVATE const byoc_op *byoc__end_op(void) { return byoc__ops()->compiler_end; }
BYOC__PRIVATE int byoc__is_begin(const byoc_node *n) { return n->kind == BYOC_NODE_CALL && n->op == byoc__begin_op(); }
BYOC__PRIVATE int byoc__is_end(const byoc_node *n) { return n->kind == BYOC_NODE_CALL && n->op == byoc__end_op(); }
/* an operator call other than the region annotations */
BYOC__PRIVATE int byoc__is_op_call(const byoc_node *n) {
    return n->kind == BYOC_NODE_CALL && n->op && !byoc__is_begin(n) && !byoc__is_end(n);
}
BYOC__PRIVATE const char *byoc__annotation_target(const byoc_node *n) {
    return byoc_attrs_string(&n->attrs, "compiler", "default");
}

BYOC__PRIVATE byoc_node *byoc__annotate(byoc_module *m, const byoc_op *op, byoc_node *x, const char *target) {
    /* every annotation for a target shares one attribute item (begin and end have the same schema) */
    byoc_attrs a;
    a.items = (const byoc_attr *)byoc__map_get(&m->annotation_attrs, target, 0);
    a.count = 1;
    if (!a.items || strcmp(a.items[0].value.s, target)) { /* new, or another name at a reused address */
        byoc_attr item = byoc__attr_string("compiler", target);
        a = byoc__attrs_build(m, NULL, &item, 1);
        if (!a.items) return NULL;
        byoc__map_put(&m->annotation_attrs, target, (intptr_t)a.items);
    }
    byoc_node *r = byoc__call_op_checked(m, op, &x, 1, &a);
    if (r) r->checked_type = x->checked_type;
    return r;
}

/* replaces a function's body (keeping params, result annotation, attributes and span) */
BYOC__PRIVATE void byoc__set_body(byoc_module *m, int f, byoc_node *body) {
    byoc_node *fn = m->functions[f].function;
    if (!body || body == fn->body) return;
    byoc_node *nf = byoc__function_with_body(m, fn, body);
    if (nf) m->functions[f].function = nf;
}

/* Which target an op call or composite call goes to (NULL: "default"). */
typedef const char *(*byoc__choose_fn)(byoc_node *call, void *user_data);
typedef struct byoc__first_accepting { const byoc_backend_spec *const *backends; int count; } byoc__first_accepting;

/* is n a call of a Composite function of the backend named name ("<name>.<pattern>")? */
BYOC__PRIVATE int byoc__composite_of(const byoc_node *n, const char *name) {
    const char *comp = !n->op && n->callee->kind == BYOC_NODE_FUNCTION
                           ? byoc_attrs_string(&n->callee->attrs, "Composite", NULL)
                           : NULL;
    size_t len = strlen(name);
    return comp && !strncmp(comp, name, len) && comp[len] == '.'; /* <backend>.<pattern>, as TVM requires */
}

/* the first backend, in priority order, that takes the call */
BYOC__PRIVATE const char *byoc__choose_first(byoc_node *n, void *user_data) {
    const byoc__first_accepting *fa = (const byoc__first_accepting *)user_data;
    for (int k = 0; k < fa->count; ++k)
        if (n->op ? byoc_backend_accepts(fa->backends[k], n, NULL, 0) : byoc__composite_of(n, fa->backends[k]->name))
            return fa->backends[k]->name;
    return NULL;
}

/* a call or tuple with no arguments gets no compiler_end, as in TVM: there is nothing inside it to close */
BYOC__PRIVATE int byoc__no_end_needed(const byoc_node *n) {
    return (n->kind == BYOC_NODE_CALL || n->kind == BYOC_NODE_TUPLE) && n->nargs == 0;
}

BYOC__PRIVATE byoc_result byoc__annotate_target(byoc_module *m, byoc__choose_fn choose, void *choose_data,
                                                int include_non_call_ops, byoc_diag *diag);

BYOC_API byoc_result byoc_annotate_target(byoc_module *m, const byoc_backend_spec *const *backends, int count,
                                          int include_non_call_ops, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    byoc__first_accepting fa = {backends, count};
    return byoc__annotate_target(m, byoc__choose_first, &fa, include_non_call_ops, diag);
}

BYOC__PRIVATE byoc_result byoc__annotate_target(byoc_module *m, byoc__choose_fn choose, void *choose_data,
                                                int include_non_call_ops, byoc_diag *diag) {
    byoc_result r = byoc_infer_type(m, diag);
    const byoc_op *begin = byoc__begin_op(), *end = byoc__end_op();
    for (int f = 0; r == BYOC_OK && f < byoc_module_function_count(m); ++f) {
        byoc_node *fn = m->functions[f].function;
        if (byoc__pass_skips(fn)) continue;
        byoc_graph g;
        if (byoc_graph_build(m, fn->body, 0, &g) != BYOC_OK)
            return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        const char **target = BYOC__CAST(const char **, BYOC_CALLOC((size_t)g.count + 1, sizeof(char *)));
        byoc_node **now = BYOC__CAST(byoc_node **, BYOC_CALLOC((size_t)g.count + 1, sizeof(byoc_node *)));
        byoc_node **ins = NULL;
        for (int i = 0; target && now && i < g.count && !m->has_error; ++i) {
            byoc__graph_prefetch_whole(&g, i + 8);
            byoc_node *n = g.nodes[i].node;
            if (n->kind != BYOC_NODE_CALL && n->kind != BYOC_NODE_TUPLE && n->kind != BYOC_NODE_TUPLE_GET_ITEM) {
                now[i] = n;
                continue;
            }
            if (byoc__is_begin(n) || byoc__is_end(n)) { /* an earlier run's annotation: see through it */
                int j = g.nodes[i].inputs[0];
                now[i] = now[j];
                target[i] = target[j];
                continue;
            }
            /* this node's target: one an earlier run chose (other than default) is kept, so running with
               A and then with B equals running with [A, B] */
            const char *t = NULL;
            for (int k = 0; k < byoc__input_count(n, 0) && !t; ++k) {
                byoc_node *in = byoc__input_at(n, k);
                if (byoc__is_begin(in) && strcmp(byoc__annotation_target(in), "default"))
                    t = byoc__annotation_target(in);
            }
            if (!t && n->kind == BYOC_NODE_CALL) {
                t = choose(n, choose_data);
                if (!t) t = "default";
            } else if (!t && include_non_call_ops) { /* tuples and projections follow their inputs when those agree */
                for (int k = 0; k < byoc__input_count(n, 0); ++k) {
                    int j = byoc_graph_index(&g, byoc__input_at(n, k));
                    const char *at = target[j] ? target[j] : "default";
                    t = !t ? at : strcmp(t, at) ? "default" : t;
                }
                if (!t) t = "default";
            } else if (!t)
                t = "default";
            target[i] = t;
            /* arguments: begin(end(arg)) for computed values, begin(arg) for inputs */
            stbds_arrsetlen(ins, 0);
            for (int k = 0; k < byoc__input_count(n, 0); ++k) {
                byoc_node *in = byoc__input_at(n, k);
                int j = byoc_graph_index(&g, in);
                if (n->kind == BYOC_NODE_CALL && n->callee && k == n->nargs) {
                    stbds_arrput(ins, now[j]);
                    continue;
                } /* the callee */
                byoc_node *a = now[j];
                if (target[j] && !byoc__no_end_needed(in)) a = byoc__annotate(m, end, a, target[j]);
                stbds_arrput(ins, byoc__annotate(m, begin, a, t));
            }
            now[i] = byoc__rebuild(m, n, ins);
            if (now[i]) now[i]->checked_type = n->checked_type;
        }
        if (r == BYOC_OK && !m->has_error && target && now && g.count) {
            int last = g.count - 1;
            byoc_node *body = target[last] && !byoc__no_end_needed(g.nodes[last].node)
                                  ? byoc__annotate(m, end, now[last], target[last])
                                  : now[last];
            byoc__set_body(m, f, body);
        }
        stbds_arrfree(ins);
        BYOC_FREE(target);
        BYOC_FREE(now);
        byoc_graph_free(&g);
        if (r == BYOC_OK && m->has_error)
            r = byoc__diag(diag, m->error.code, 0, 0, 0, "annotate_target: %s", m->error.message);
    }
    return r == BYOC_OK ? byoc_infer_type(m, diag) : r;
}

/* Regions of an annotated body: each compiler_begin opens one, a computed node joins the regions of its
   inputs (merging them into the first), a compiler_end belongs to the region of its input. */
enum { BYOC__PLAIN = 0, BYOC__BEGIN = 1, BYOC__END = 2 };
typedef struct byoc__regions {
    int *of;             /* graph node -> region (-1 none) */
    unsigned char *role; /* graph node -> BYOC__BEGIN, BYOC__END or BYOC__PLAIN: later loops need not read the node */
    int *parent;         /* union-find over regions */
    const char **target; /* per region */
    int count;
} byoc__regions;

BYOC__PRIVATE int byoc__region_find(const byoc__regions *rs, int r) {
    while (rs->parent[r] != r) r = rs->parent[r];
    return r;
}
BYOC__PRIVATE void byoc__region_union(byoc__regions *rs, int into, int from) {
    into = byoc__region_find(rs, into);
    from = byoc__region_find(rs, from);
    if (into != from) rs->parent[from] = into;
}

BYOC__PRIVATE int byoc__regions_build(const byoc_graph *g, byoc__regions *rs) {
    memset(rs, 0, sizeof *rs);
    size_t n = (size_t)g->count + 1;
    rs->of = BYOC__CAST(int *, BYOC_MALLOC(sizeof(int) * n));
    rs->parent = BYOC__CAST(int *, BYOC_MALLOC(sizeof(int) * n));
    rs->target = BYOC__CAST(const char **, BYOC_MALLOC(sizeof(char *) * n));
    rs->role = BYOC__CAST(unsigned char *, BYOC_MALLOC(n));
    if (!rs->of || !rs->parent || !rs->target || !rs->role) return 0;
    for (int i = 0; i < g->count; ++i) {
        byoc__graph_prefetch(g, i + 8);
        byoc_node *x = g->nodes[i].node;
        rs->of[i] = -1;
        rs->role[i] = byoc__is_begin(x) ? BYOC__BEGIN : byoc__is_end(x) ? BYOC__END : BYOC__PLAIN;
        if (rs->role[i] == BYOC__BEGIN) {
            int r = rs->count++;
            rs->parent[r] = r;
            rs->target[r] = byoc__annotation_target(x);
            rs->of[i] = r;
        } else if (rs->role[i] == BYOC__END) {
            int j = g->nodes[i].ninputs ? g->nodes[i].inputs[0] : -1;
            rs->of[i] = j >= 0 && rs->of[j] >= 0 ? byoc__region_find(rs, rs->of[j]) : -1;
        } else if (x->kind == BYOC_NODE_CALL || x->kind == BYOC_NODE_TUPLE || x->kind == BYOC_NODE_TUPLE_GET_ITEM) {
            int first = -1;
            for (int k = 0; k < g->nodes[i].ninputs; ++k) {
                int j = g->nodes[i].inputs[k];
                if (rs->of[j] < 0 || rs->role[j] == BYOC__END) continue; /* an end is an output, not a member */
                if (first < 0) first = byoc__region_find(rs, rs->of[j]);
                else byoc__region_union(rs, first, rs->of[j]);
            }
            rs->of[i] = first;
        }
    }
    return 1;
}

BYOC__PRIVATE void byoc__regions_free(byoc__regions *rs) {
    BYOC_FREE(rs->of);
    BYOC_FREE(rs->parent);
    BYOC_FREE((void *)rs->target);
    BYOC_FREE(rs->role);
    memset(rs, 0, sizeof *rs);
}

/* sorted int sets for restriction sets */
BYOC__PRIVATE int byoc__set_has(const int *set, int x) {
    int lo = 0, hi = (int)stbds_arrlen(set) - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (set[mid] == x) return 1;
        if (set[mid] < x) lo = mid + 1;
        else hi = mid - 1;
    }
    return 0;
}
BYOC__PRIVATE void byoc__set_add(int **set, int x) {
    int n = (int)stbds_arrlen(*set), i = n;
    if (byoc__set_has(*set, x)) return;
    while (i > 0 && (*set)[i - 1] > x) i--;
    stbds_arrins(*set, i, x);
}

/* is there a path from region `from` to region `to` other than their direct edges? Regions after `to` in
   the topological order (pos) cannot lead to it, which bounds the search. */
BYOC__PRIVATE int byoc__other_path(const byoc__regions *rs, int *const *children, const int *pos, int from, int to,
                                   int *visited, int stamp) {
    int *stack = NULL, found = 0;
    for (int c = 0; c < (int)stbds_arrlen(children[from]); ++c) {
        int x = byoc__region_find(rs, children[from][c]);
        if (x != to && x != from) stbds_arrput(stack, x);
    }
    while (!found && stbds_arrlen(stack)) {
        int x = stbds_arrpop(stack);
        if (x == to) { found = 1; break; }
        if (pos[x] > pos[to] || visited[x] == stamp) continue;
        visited[x] = stamp;
        for (int c = 0; c < (int)stbds_arrlen(children[x]); ++c) {
            int y = byoc__region_find(rs, children[x][c]);
            if (y != x) stbds_arrput(stack, y);
        }
    }
    stbds_arrfree(stack);
    return found;
}

BYOC_API byoc_result byoc_merge_compiler_regions(byoc_module *m, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    byoc_result r = byoc_infer_type(m, diag);
    for (int f = 0; r == BYOC_OK && f < byoc_module_function_count(m); ++f) {
        byoc_node *fn = m->functions[f].function;
        if (byoc__pass_skips(fn)) continue;
        byoc_graph g;
        byoc__regions rs;
        memset(&rs, 0, sizeof rs);
        if (byoc_graph_build(m, fn->body, 0, &g) != BYOC_OK || !byoc__regions_build(&g, &rs)) {
            byoc__regions_free(&rs);
            byoc_graph_free(&g);
            return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        }
        /* parents of each region: regions whose compiler_end feeds one of its compiler_begins */
        int nr = rs.count;
        int **parents = BYOC__CAST(int **, BYOC_CALLOC((size_t)nr + 1, sizeof(int *)));
        int *order = BYOC__CAST(int *, BYOC_MALLOC(sizeof(int) * ((size_t)nr + 1)));
        int *pending = BYOC__CAST(int *, BYOC_CALLOC((size_t)nr + 1, sizeof(int)));
        int **children = BYOC__CAST(int **, BYOC_CALLOC((size_t)nr + 1, sizeof(int *)));
        int *pos = BYOC__CAST(int *, BYOC_CALLOC((size_t)nr + 1, sizeof(int)));
        int *visited = BYOC__CAST(int *, BYOC_CALLOC((size_t)nr + 1, sizeof(int))), stamp = 0;
        if (!parents || !order || !pending || !children || !pos || !visited) {
            BYOC_FREE(parents);
            BYOC_FREE(order);
            BYOC_FREE(pending);
            BYOC_FREE(children);
            BYOC_FREE(pos);
            BYOC_FREE(visited);
            byoc__regions_free(&rs);
            byoc_graph_free(&g);
            return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "merge_compiler_regions: out of memory");
        }
        for (int i = 0; i < g.count; ++i) {
            if (rs.of[i] < 0) continue;
            int reg = byoc__region_find(&rs, rs.of[i]);
            if (rs.role[i] == BYOC__BEGIN && g.nodes[i].ninputs && rs.role[g.nodes[i].inputs[0]] == BYOC__END) {
                int e = g.nodes[i].inputs[0];
                if (rs.of[e] >= 0) byoc__set_add(&parents[reg], byoc__region_find(&rs, rs.of[e]));
            }
        }
        /* parents first (Kahn's algorithm over the region graph): a region must be finished, with its
           restriction set, before any child merges it */
        int no = 0;
        for (int reg = 0; reg < nr; ++reg) {
            if (byoc__region_find(&rs, reg) != reg) continue;
            for (int p = 0; p < (int)stbds_arrlen(parents[reg]); ++p) {
                stbds_arrput(children[parents[reg][p]], reg);
                pending[reg]++;
            }
        }
        for (int reg = 0; reg < nr; ++reg)
            if (byoc__region_find(&rs, reg) == reg && !pending[reg]) order[no++] = reg;
        for (int k = 0; k < no; ++k)
            for (int c = 0; c < (int)stbds_arrlen(children[order[k]]); ++c)
                if (--pending[children[order[k]][c]] == 0) order[no++] = children[order[k]][c];
        BYOC_FREE(pending);
        /* A parent joins a child of the same target unless another path leads from it to the child:
           contracting that edge would close a cycle. The check runs on the current region graph, so
           paths created by earlier merges count too (restriction sets computed once can miss those). */
        for (int k = 0; k < no; ++k) pos[order[k]] = k;
        for (int k = 0; k < no; ++k) {
            int reg = order[k];
            for (int p = 0; p < (int)stbds_arrlen(parents[reg]); ++p) {
                int par = byoc__region_find(&rs, parents[reg][p]), here = byoc__region_find(&rs, reg);
                if (par == here || strcmp(rs.target[par], rs.target[reg])) continue;
                if (byoc__other_path(&rs, children, pos, par, here, visited, ++stamp)) continue;
                rs.parent[par] = here; /* the parent joins this region */
                for (int c = 0; c < (int)stbds_arrlen(children[par]); ++c)
                    stbds_arrput(children[here], children[par][c]);
            }
        }
        for (int reg = 0; reg < nr; ++reg) stbds_arrfree(children[reg]);
        BYOC_FREE(children);
        BYOC_FREE(pos);
        BYOC_FREE(visited);
        /* drop begin(end(x)) inside one region */
        byoc_node **to = BYOC__CAST(byoc_node **, BYOC_CALLOC((size_t)g.count + 1, sizeof(byoc_node *)));
        int dropped = 0;
        if (!to) byoc__fail(m, BYOC_ERR_OUT_OF_MEMORY, 0, "merge_compiler_regions: out of memory");
        for (int i = 0; to && i < g.count; ++i) {
            if (rs.role[i] != BYOC__BEGIN || !g.nodes[i].ninputs) continue;
            int e = g.nodes[i].inputs[0];
            if (rs.role[e] != BYOC__END || rs.of[e] < 0) continue;
            if (byoc__region_find(&rs, rs.of[i]) == byoc__region_find(&rs, rs.of[e])) {
                to[i] = g.nodes[e].node->args[0];
                dropped++;
            }
        }
        byoc_node *body = dropped ? byoc__substitute_at(m, &g, to) : fn->body;
        byoc__set_body(m, f, body);
        BYOC_FREE(to);
        for (int i = 0; i < nr; ++i) stbds_arrfree(parents[i]);
        BYOC_FREE(parents);
        BYOC_FREE(order);
        byoc__regions_free(&rs);
        byoc_graph_free(&g);
        if (m->has_error) r = byoc__diag(diag, m->error.code, 0, 0, 0, "merge_compiler_regions: %s", m->error.message);
    }
    return r == BYOC_OK ? byoc_infer_type(m, diag) : r;
}

/* a valid global name: every character that is not a letter or digit becomes '_' */
BYOC__PRIVATE void byoc__mangle(char *s) {
    for (; *s; ++s)
        if (!isalnum((unsigned char)*s)) *s = '_';
}

/* Where a partition_graph run starts numbering target's partitions of function fname: 0, as TVM does,
   unless an earlier run made some already (then after the largest), so that a later run for the same
   target (manual partitioning, then another flow) adds functions instead of failing on a name clash. */
BYOC__PRIVATE int byoc__partition_number_base(const byoc_module *m, const char *mod, const char *target,
                                              const char *fname) {
    char prefix[256];
    snprintf(prefix, sizeof prefix, "tvmgen_%s_%s_%s_", mod, target, fname);
    byoc__mangle(prefix);
    size_t len = strlen(prefix);
    int base = 0;
    for (int i = 0; i < byoc_module_function_count(m); ++i) {
        const char *name = m->functions[i].name;
        if (strncmp(name, prefix, len) || !name[len]) continue;
        long v = 0;
        const char *c = name + len;
        for (; isdigit((unsigned char)*c) && v < INT_MAX / 10 - 1; ++c) v = v * 10 + (*c - '0');
        if (!*c && v + 1 > base) base = (int)v + 1;
    }
    return base;
}

/* the value an annotation chain carries: begin(end(v)) and the like stand for v (a region's inputs are
   one per such value, as in TVM, however many begins read it) */
BYOC__PRIVATE byoc_node *byoc__annotated_source(byoc_node *n) {
    while (n && (byoc__is_begin(n) || byoc__is_end(n)) && n->nargs == 1) n = n->args[0];
    return n;
}

BYOC__PRIVATE int byoc__out_index(byoc_node *const *outs, const byoc_node *v) {
    for (int k = 0; k < (int)stbds_arrlen(outs); ++k)
        if (outs[k] == v) return k;
    return -1;
}

BYOC_API byoc_result byoc_partition_graph(byoc_module *m, const char *mod_name, int bind_constants, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    byoc_result r = byoc_infer_type(m, diag);
    int nfunctions = byoc_module_function_count(m);
    const char *mod = mod_name && *mod_name ? mod_name : "default";
    /* attribute names interned once for every partition's set */
    const char *key_primitive = byoc_intern(m, "Primitive"), *key_compiler = byoc_intern(m, "Compiler");
    const char *key_symbol = byoc_intern(m, "global_symbol"), *key_inline = byoc_intern(m, "Inline");
    for (int f = 0; r == BYOC_OK && f < nfunctions; ++f) {
        byoc_node *fn = m->functions[f].function;
        if (byoc__pass_skips(fn)) continue;
        const char *fname = m->functions[f].name;
        byoc_graph g;
        byoc__regions rs;
        memset(&rs, 0, sizeof rs);
        if (byoc_graph_build(m, fn->body, 0, &g) != BYOC_OK || !byoc__regions_build(&g, &rs)) {
            byoc__regions_free(&rs);
            byoc_graph_free(&g);
            return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        }
        int nr = rs.count;
        /* per region: its nodes in graph order, its inputs (one per value its begins carry: sources, and
           the node outside that gives each, a begin's argument), its outputs (ends) */
        byoc_node ***members = BYOC__CAST(byoc_node ***, BYOC_CALLOC((size_t)nr + 1, sizeof(byoc_node **)));
        byoc_node ***inputs = BYOC__CAST(byoc_node ***, BYOC_CALLOC((size_t)nr + 1, sizeof(byoc_node **)));
        byoc_node ***sources = BYOC__CAST(byoc_node ***, BYOC_CALLOC((size_t)nr + 1, sizeof(byoc_node **)));
        byoc_node ***outputs = BYOC__CAST(byoc_node ***, BYOC_CALLOC((size_t)nr + 1, sizeof(byoc_node **)));
        /* a region's number in names counts the regions of real targets only: TVM drops the "default"
           annotations before it numbers regions (numbers still skip where regions merged) */
        int *number = BYOC__CAST(int *, BYOC_MALLOC(sizeof(int) * ((size_t)nr + 1)));
        /* each target's numbers start after the partitions earlier runs made (a handful of targets) */
        const char **based = NULL;
        int *bases = NULL;
        for (int k = 0, next = 0; number && k < nr; ++k) {
            number[k] = next;
            if (!strcmp(rs.target[k], "default")) continue;
            next++;
            if (byoc__region_find(&rs, k) != k) continue; /* merged away: never named */
            int t = 0;
            while (t < (int)stbds_arrlen(based) && strcmp(based[t], rs.target[k])) ++t;
            if (t == (int)stbds_arrlen(based)) {
                stbds_arrput(based, rs.target[k]);
                stbds_arrput(bases, byoc__partition_number_base(m, mod, rs.target[k], fname));
            }
            number[k] += bases[t];
        }
        stbds_arrfree(based);
        stbds_arrfree(bases);
        if (!members || !inputs || !sources || !outputs || !number) {
            BYOC_FREE(number);
            BYOC_FREE(members);
            BYOC_FREE(inputs);
            BYOC_FREE(sources);
            BYOC_FREE(outputs);
            byoc__regions_free(&rs);
            byoc_graph_free(&g);
            return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "partition_graph: out of memory");
        }
        for (int i = 0; i < g.count; ++i) {
            if (rs.of[i] < 0) continue;
            int reg = byoc__region_find(&rs, rs.of[i]);
            byoc_node *x = g.nodes[i].node;
            if (rs.role[i] == BYOC__END) { /* its value, or a tuple built in the region as its fields (TVM flattens) */
                byoc_node *v = x->args[0];
                int vi = byoc_graph_index(&g, v);
                int flatten = v->kind == BYOC_NODE_TUPLE && rs.of[vi] >= 0 && byoc__region_find(&rs, rs.of[vi]) == reg;
                for (int k = 0; k < (flatten ? v->nargs : 1); ++k) {
                    byoc_node *o = flatten ? v->args[k] : v;
                    if (byoc__out_index(outputs[reg], o) < 0) stbds_arrput(outputs[reg], o);
                }
                continue;
            }
            stbds_arrput(members[reg], x);
            if (rs.role[i] == BYOC__BEGIN) {
                byoc_node *source = byoc__annotated_source(x);
                if (byoc__out_index(sources[reg], source) < 0) {
                    stbds_arrput(sources[reg], source);
                    stbds_arrput(inputs[reg], x->args[0]);
                }
            }
        }
        /* rebuild the body: default annotations vanish, each region becomes a call. Values are built on
           demand from the result (an explicit stack): a region is emitted when its first output is
           needed, after the values it reads, however its nodes interleave in graph order. */
        byoc_node **now = BYOC__CAST(byoc_node **, BYOC_CALLOC((size_t)g.count + 1, sizeof(byoc_node *)));
        byoc_node **region_call = BYOC__CAST(byoc_node **, BYOC_CALLOC((size_t)nr + 1, sizeof(byoc_node *)));
        char *on_stack = BYOC__CAST(char *, BYOC_CALLOC((size_t)g.count + 1, 1));
        byoc_node **ins = NULL;
        int *stack = NULL, cycle = 0;
        if (now && region_call && on_stack && g.count) { stbds_arrput(stack, g.count - 1); on_stack[g.count - 1] = 1; }
        while (stbds_arrlen(stack) && !m->has_error && !cycle) {
            int i = stack[stbds_arrlen(stack) - 1], missing = -1;
            if (now[i]) { (void)stbds_arrpop(stack); on_stack[i] = 0; continue; }
            {
                byoc_node *x = g.nodes[i].node;
                int reg = rs.of[i] >= 0 ? byoc__region_find(&rs, rs.of[i]) : -1;
                int is_default = reg >= 0 && !strcmp(rs.target[reg], "default");
                if (rs.role[i] != BYOC__PLAIN) {
                    if (is_default || reg < 0) { /* a default annotation: the value itself */
                        int j = g.nodes[i].inputs[0];
                        if (now[j]) now[i] = now[j];
                        else missing = j;
                        goto next;
                    }
                } else {
                    now[i] = byoc__rebuild_on(m, &g, i, now, &ins, &missing);
                    goto next;
                }
                /* an end of an offloaded region: build the region's function and call once */
                if (!region_call[reg]) {
                    for (int k = 0; k < (int)stbds_arrlen(inputs[reg]) && missing < 0; ++k) {
                        int si = byoc_graph_index(&g, inputs[reg][k]);
                        if (!(bind_constants && sources[reg][k]->kind == BYOC_NODE_CONSTANT) && !now[si]) missing = si;
                    }
                    if (missing >= 0) goto next;
                    byoc__map inside = BYOC__MAP_EMPTY;
                    byoc_node **params = NULL, **args = NULL, **outs = NULL;
                    char name[256];
                    snprintf(name, sizeof name, "tvmgen_%s_%s_%s_%d", mod, rs.target[reg], fname, number[reg]);
                    byoc__mangle(name);
                    for (int k = 0; k < (int)stbds_arrlen(inputs[reg]); ++k) {
                        byoc_node *src = sources[reg][k];
                        if (bind_constants && src->kind == BYOC_NODE_CONSTANT) {
                            byoc__map_put(&inside, src, (intptr_t)src);
                            continue;
                        }
                        char pname[300];
                        snprintf(pname, sizeof pname, "%s_%d_i%d", rs.target[reg], number[reg],
                                 (int)stbds_arrlen(params));
                        byoc_node *v = byoc__var_unique(m, pname, src->checked_type);
                        if (v) v->checked_type = v->annotation;
                        stbds_arrput(params, v);
                        stbds_arrput(args, now[byoc_graph_index(&g, inputs[reg][k])]);
                        byoc__map_put(&inside, src, (intptr_t)v);
                    }
                    for (int k = 0; k < (int)stbds_arrlen(members[reg]) && !m->has_error; ++k) {
                        byoc_node *y = members[reg][k];
                        if (byoc__is_begin(y)) {
                            byoc__map_put(&inside, y, byoc__map_get(&inside, byoc__annotated_source(y), 0));
                            continue;
                        }
                        stbds_arrsetlen(ins, 0);
                        for (int j = 0; j < byoc__input_count(y, 0); ++j) {
                            byoc_node *in = byoc__input_at(y, j), *to = (byoc_node *)byoc__map_get(&inside, in, 0);
                            stbds_arrput(ins, to ? to : in);
                        }
                        byoc_node *c = byoc__rebuild(m, y, ins);
                        if (c) c->checked_type = y->checked_type;
                        byoc__map_put(&inside, y, (intptr_t)c);
                    }
                    for (int k = 0; k < (int)stbds_arrlen(outputs[reg]); ++k) {
                        byoc_node *o = (byoc_node *)byoc__map_get(&inside, outputs[reg][k], 0);
                        stbds_arrput(outs, o ? o : outputs[reg][k]); /* constants bound in stay themselves */
                    }
                    int nout = (int)stbds_arrlen(outs);
                    byoc_node *body = nout == 1 ? outs[0] : byoc_tuple(m, outs, nout);
                    const char *target = byoc_intern(m, rs.target[reg]);
                    const char *symbol =
                        byoc_intern(m, name); /* once: the attribute, the function and its global var share it */
                    byoc_attr items[4];
                    items[0] = byoc__attr_int(key_primitive, 1);
                    items[1] = byoc__attr_string(key_compiler, target);
                    items[2] = byoc__attr_string(key_symbol, symbol);
                    items[3] = byoc__attr_int(key_inline, 1);
                    byoc_attrs a = byoc__attrs_build_in(m, NULL, items, 4, 1);
                    byoc_node *pf = byoc_function(m, params, (int)stbds_arrlen(params), body, NULL, NULL);
                    if (pf) pf->attrs = a;
                    if (pf && byoc__map_get(&m->function_index, symbol, -1) >= 0)
                        byoc__fail(m, BYOC_ERR_DUPLICATE, 0, "partition_graph: @%s exists already", name);
                    else if (pf) byoc__module_put_function(m, symbol, pf);
                    if (nout > 1 && body && !body->checked_type) byoc__infer_tuple_of_typed(m, body);
                    byoc_node *gv = byoc__global_var_interned(m, symbol);
                    region_call[reg] = byoc_call_function(m, gv, args, (int)stbds_arrlen(args));
                    const byoc_type *result = byoc__type_new_function(m, pf);
                    for (int k = 0; result && k < (int)stbds_arrlen(args); ++k)
                        if (!args[k]->checked_type) result = NULL; /* a typed node has typed inputs only */
                    if (result &&
                        region_call[reg]) { /* typed here, so the rest of @main keeps its types when rebuilt */
                        gv->checked_type = pf->checked_type;
                        region_call[reg]->checked_type = result;
                    }
                    byoc__map_free(&inside);
                    stbds_arrfree(params);
                    stbds_arrfree(args);
                    stbds_arrfree(outs);
                }
                /* this end's value: the call, or its field when the region has several outputs; a flattened
                   tuple is put back together from its fields */
                int nout = (int)stbds_arrlen(outputs[reg]);
                byoc_node *v = x->args[0];
                int field = byoc__out_index(outputs[reg], v);
                if (field >= 0) now[i] = nout == 1 ? region_call[reg] : byoc__typed_field(m, region_call[reg], field);
                else {
                    stbds_arrsetlen(ins, 0);
                    for (int k = 0; k < v->nargs; ++k) {
                        int fk = byoc__out_index(outputs[reg], v->args[k]);
                        stbds_arrput(ins, nout == 1 ? region_call[reg] : byoc__typed_field(m, region_call[reg], fk));
                    }
                    now[i] = byoc_tuple(m, ins, v->nargs);
                    byoc__infer_tuple_of_typed(m, now[i]);
                }
            }
        next:
            if (missing >= 0) {
                if (on_stack[missing]) cycle = 1;
                else { stbds_arrput(stack, missing); on_stack[missing] = 1; }
            }
        }
        stbds_arrfree(stack);
        BYOC_FREE(on_stack);
        if (cycle && !m->has_error)
            byoc__fail(m, BYOC_ERR_INTERNAL, 0, "partition_graph: the regions of @%s depend on each other in a cycle",
                       fname);
        if (!m->has_error && now && g.count) byoc__set_body(m, f, now[g.count - 1]);
        for (int i = 0; i < nr; ++i) {
            stbds_arrfree(members[i]);
            stbds_arrfree(inputs[i]);
            stbds_arrfree(sources[i]);
            stbds_arrfree(outputs[i]);
        }
        BYOC_FREE(members);
        BYOC_FREE(inputs);
        BYOC_FREE(sources);
        BYOC_FREE(outputs);
        BYOC_FREE(number);
        BYOC_FREE(now);
        BYOC_FREE(region_call);
        stbds_arrfree(ins);
        byoc__regions_free(&rs);
        byoc_graph_free(&g);
        if (m->has_error) r = byoc__diag(diag, m->error.code, 0, 0, 0, "partition_graph: %s", m->error.message);
    }
    return r == BYOC_OK ? byoc_infer_type(m, diag) : r;
}

// [SECTION] impl: FuseOps, SimplifyInference, FoldConstant, DCE
/* ---- FuseOps ---- */
typedef struct byoc__fuser {
    const byoc_graph *g;
    int *kind;        /* node pattern kind */
    int *pdom;        /* post-dominator parent (-1 none) */
    int *pdom_kind;   /* combined edge kind on the way to it */
    int *depth;
    int *group;       /* union-find parent */
    int *gkind;       /* group pattern (valid at roots) */
    int *gsize;       /* nodes in the group (at roots) */
    int *anchor;      /* group has an out_elemwise_fusable anchor (at roots) */
    int *mark;        /* visit generation per node */
    int generation;
    int *stack;       /* stb_ds scratch */
} byoc__fuser;

BYOC__PRIVATE int byoc__fuse_root(byoc__fuser *fz, int x) {
    while (fz->group[x] != x) { fz->group[x] = fz->group[fz->group[x]]; x = fz->group[x]; }
    return x;
}

/* the kind of two groups merged (TVM's GraphPartitioner::CombinePattern): two kinds above broadcast
   make opaque, else the larger */
BYOC__PRIVATE int byoc__combine_kind(int a, int b) {
    if (a > BYOC_PATTERN_BROADCAST && b > BYOC_PATTERN_BROADCAST) return BYOC_PATTERN_OPAQUE;
    return a > b ? a : b;
}
/* the kind of edges met on the way to a post-dominator: the larger (TVM's DominatorTree::CombinePattern;
   two injective edges stay injective, so parallel injective branches still fuse) */
BYOC__PRIVATE int byoc__worse_edge_kind(int a, int b) { return a > b ? a : b; }

/* same tensor shape, dtype aside (a broadcast op's input is elementwise along its edge when the shapes
   agree, as in TVM, even where the result's dtype differs, as for comparisons) */
BYOC__PRIVATE int byoc__same_tensor_shape(const byoc_type *a, const byoc_type *b) {
    if (!a || !b || a->kind != BYOC_TYPE_TENSOR || b->kind != BYOC_TYPE_TENSOR || a->rank != b->rank) return 0;
    for (int i = 0; i < a->rank; ++i)
        if (a->dims[i] != b->dims[i]) return 0;
    return 1;
}

/* a tuple type whose fields are all tensors: TVM fuses nothing through a projection of any other tuple
   (a fused function's arguments must be tensors or tuples of tensors) */
BYOC__PRIVATE int byoc__tensor_fields_only(const byoc_type *t) {
    if (!t || t->kind != BYOC_TYPE_TUPLE) return 0;
    for (int i = 0; i < t->nfields; ++i)
        if (!t->fields[i] || t->fields[i]->kind != BYOC_TYPE_TENSOR) return 0;
    return 1;
}

/* an op call whose types have '?': FuseOps leaves it alone, outside every fused function (its results are
   allocated when a run knows their shape) */
BYOC__PRIVATE int byoc__call_has_any_dims(const byoc_node *n) {
    if (n->kind != BYOC_NODE_CALL || !n->op) return 0;
    if (!byoc_type_is_static(n->checked_type)) return 1;
    for (int k = 0; k < n->nargs; ++k)
        if (n->args[k]->checked_type && !byoc_type_is_static(n->args[k]->checked_type)) return 1;
    return 0;
}

BYOC__PRIVATE int byoc__node_kind(const byoc_node *n) {
    switch (n->kind) {
    case BYOC_NODE_CALL: return n->op && !byoc__call_has_any_dims(n) ? (int)n->op->def.pattern : BYOC_PATTERN_OPAQUE;
    case BYOC_NODE_CONSTANT: { /* TVM inlines "simple" scalars only: other constants become parameters */
        byoc_dtype dt = n->annotation->dtype;
        int simple = dt == BYOC_INT32 || dt == BYOC_INT64 || dt == BYOC_FLOAT32 || dt == BYOC_FLOAT64 ||
                     dt == BYOC_BOOL; /* TVM's list */
        return n->annotation->rank == 0 && simple ? BYOC_PATTERN_ELEMWISE : BYOC_PATTERN_OPAQUE;
    }
    case BYOC_NODE_TUPLE: return BYOC_PATTERN_TUPLE;
    case BYOC_NODE_TUPLE_GET_ITEM:
        return byoc__tensor_fields_only(n->args[0]->checked_type) ? BYOC_PATTERN_INJECTIVE : BYOC_PATTERN_OPAQUE;
    default: return BYOC_PATTERN_OPAQUE;
    }
}

/* the kind of the edge from input to user: the user's kind, but a broadcast whose input already has
   the result's shape is elementwise along that edge; tensor tuple fields and projections of
   tuples of tensors are injective */
BYOC__PRIVATE int byoc__edge_kind(const byoc_node *user, const byoc_node *input) {
    if (user->kind == BYOC_NODE_TUPLE) /* a field that is not a tensor is an outside reference */
        return input->checked_type && input->checked_type->kind == BYOC_TYPE_TENSOR ? BYOC_PATTERN_INJECTIVE
                                                                                    : BYOC_PATTERN_OPAQUE;
    if (user->kind == BYOC_NODE_TUPLE_GET_ITEM)
        return byoc__tensor_fields_only(input->checked_type) ? BYOC_PATTERN_INJECTIVE : BYOC_PATTERN_OPAQUE;
    if (user->kind != BYOC_NODE_CALL || !user->op || user->callee == input) return BYOC_PATTERN_OPAQUE;
    int k = user->op->def.pattern;
    if (k == BYOC_PATTERN_BROADCAST && byoc__same_tensor_shape(user->checked_type, input->checked_type))
        k = BYOC_PATTERN_ELEMWISE;
    return k;
}

/* the worst edge kind from node i to its users */
BYOC__PRIVATE int byoc__user_edge_kind(const byoc__fuser *fz, int i, int user) {
    const byoc_node *u = fz->g->nodes[user].node, *n = fz->g->nodes[i].node;
    int k = -1;
    for (int a = 0; a < byoc__input_count(u, 0); ++a)
        if (byoc__input_at(u, a) == n) { int e = byoc__edge_kind(u, n); k = k < 0 ? e : byoc__worse_edge_kind(k, e); }
    return k < 0 ? BYOC_PATTERN_OPAQUE : k;
}

BYOC__PRIVATE void byoc__fuse_post_dominators(byoc__fuser *fz) {
    const byoc_graph *g = fz->g;
    for (int i = g->count - 1; i >= 0; --i) {
        const byoc_graph_node *gn = &g->nodes[i];
        if (i == g->count - 1 || gn->nusers == 0) { /* the result: nothing after it */
            fz->pdom[i] = -1;
            fz->pdom_kind[i] = BYOC_PATTERN_OPAQUE;
            fz->depth[i] = 1;
            continue;
        }
        int kind = BYOC_PATTERN_ELEMWISE, lca = gn->users[0];
        kind = byoc__worse_edge_kind(kind, byoc__user_edge_kind(fz, i, lca));
        for (int u = 1; u < gn->nusers && lca >= 0; ++u) {
            int other = gn->users[u];
            kind = byoc__worse_edge_kind(kind, byoc__user_edge_kind(fz, i, other));
            while (lca != other && lca >= 0 && other >= 0) {
                if (fz->depth[lca] < fz->depth[other]) {
                    kind = byoc__worse_edge_kind(kind, fz->pdom_kind[other]);
                    other = fz->pdom[other];
                } else if (fz->depth[other] < fz->depth[lca]) {
                    kind = byoc__worse_edge_kind(kind, fz->pdom_kind[lca]);
                    lca = fz->pdom[lca];
                } else {
                    kind = byoc__worse_edge_kind(kind, fz->pdom_kind[lca]);
                    kind = byoc__worse_edge_kind(kind, fz->pdom_kind[other]);
                    lca = fz->pdom[lca];
                    other = fz->pdom[other];
                }
            }
            if (lca != other) lca = -1;
        }
        fz->pdom[i] = lca;
        fz->pdom_kind[i] = kind;
        fz->depth[i] = lca >= 0 ? fz->depth[lca] + 1 : 1;
    }
}

/* Every node on the paths from src to sink (src excluded) satisfies cond(group kind, is_sink). */
typedef int (*byoc__path_cond)(int kind, int is_sink);
BYOC__PRIVATE int byoc__check_path(byoc__fuser *fz, int src, int sink, byoc__path_cond cond) {
    fz->generation++;
    stbds_arrsetlen(fz->stack, 0);
    for (int u = 0; u < fz->g->nodes[src].nusers; ++u) stbds_arrput(fz->stack, fz->g->nodes[src].users[u]);
    while (stbds_arrlen(fz->stack)) {
        int x = stbds_arrpop(fz->stack);
        if (fz->mark[x] == fz->generation) continue;
        fz->mark[x] = fz->generation;
        if (!cond(fz->gkind[byoc__fuse_root(fz, x)], x == sink)) return 0;
        if (x == sink) continue;
        for (int u = 0; u < fz->g->nodes[x].nusers; ++u) stbds_arrput(fz->stack, fz->g->nodes[x].users[u]);
    }
    return 1;
}

BYOC__PRIVATE void byoc__merge_groups(byoc__fuser *fz, int child, int parent) {
    child = byoc__fuse_root(fz, child);
    parent = byoc__fuse_root(fz, parent);
    if (child == parent) return;
    fz->gsize[parent] += fz->gsize[child];
    fz->group[child] = parent;
    if (fz->anchor[child]) {
        fz->anchor[parent] = 1;
        fz->gkind[parent] = byoc__combine_kind(fz->gkind[child], fz->gkind[parent]);
    }
}

/* merges every group on the paths from src to sink into sink's group */
BYOC__PRIVATE void byoc__commit_fuse(byoc__fuser *fz, int src, int sink) {
    fz->generation++;
    stbds_arrsetlen(fz->stack, 0);
    stbds_arrput(fz->stack, src);
    while (stbds_arrlen(fz->stack)) {
        int x = stbds_arrpop(fz->stack);
        if (x == sink || fz->mark[x] == fz->generation) continue;
        fz->mark[x] = fz->generation;
        byoc__merge_groups(fz, x, sink);
        for (int u = 0; u < fz->g->nodes[x].nusers; ++u) stbds_arrput(fz->stack, fz->g->nodes[x].users[u]);
    }
}

/* size of sink's group after taking in everything on the paths from child to it */
BYOC__PRIVATE int byoc__count_with_child(byoc__fuser *fz, int child, int sink) {
    int total = fz->gsize[byoc__fuse_root(fz, sink)];
    fz->generation++;
    stbds_arrsetlen(fz->stack, 0);
    stbds_arrput(fz->stack, child);
    while (stbds_arrlen(fz->stack)) {
        int x = stbds_arrpop(fz->stack);
        if (x == sink || fz->mark[x] == fz->generation) continue;
        fz->mark[x] = fz->generation;
        total += fz->gsize[x]; /* as TVM: the size x's own group had when it was last a root */
        for (int u = 0; u < fz->g->nodes[x].nusers; ++u) stbds_arrput(fz->stack, fz->g->nodes[x].users[u]);
    }
    return total;
}

static int byoc__cond_broadcast(int kind, int is_sink) { (void)is_sink; return kind <= BYOC_PATTERN_BROADCAST; }
static int byoc__cond_injective(int kind, int is_sink) { (void)is_sink; return kind <= BYOC_PATTERN_INJECTIVE; }
static int byoc__cond_elemwise_anchor(int kind, int is_sink) {
    if (!is_sink) return kind <= BYOC_PATTERN_INJECTIVE; /* parallel branches may be injective */
    return kind <= BYOC_PATTERN_BROADCAST || kind == BYOC_PATTERN_COMM_REDUCE || kind == BYOC_PATTERN_INJECTIVE ||
           kind == BYOC_PATTERN_OUT_ELEMWISE_FUSABLE;
}

BYOC__PRIVATE void byoc__run_fuse(byoc__fuser *fz, int phase, int max_depth) {
    const byoc_graph *g = fz->g;
    for (int i = 0; i < g->count; ++i) {
        int gi = byoc__fuse_root(fz, i), kind = fz->gkind[gi], parent = fz->pdom[i];
        if (kind == BYOC_PATTERN_OPAQUE || parent < 0) continue;
        if (byoc__count_with_child(fz, i, parent) > max_depth) continue;
        int proot = byoc__fuse_root(fz, parent);
        if (phase == 2) { /* injective ops join an intermediate tuple that went into an injective consumer */
            if (kind > BYOC_PATTERN_INJECTIVE) continue;
            if (fz->gkind[proot] == BYOC_PATTERN_TUPLE) continue; /* the tuple is its group's root */
            if (fz->kind[parent] == BYOC_PATTERN_TUPLE && fz->gkind[proot] <= BYOC_PATTERN_INJECTIVE &&
                byoc__check_path(fz, i, parent, byoc__cond_injective))
                byoc__commit_fuse(fz, i, parent);
            continue;
        }
        if (gi == proot) continue;
        if (fz->gkind[proot] == BYOC_PATTERN_TUPLE) continue; /* never into a tuple in these phases */
        if (kind == BYOC_PATTERN_OUT_ELEMWISE_FUSABLE) {
            if (phase == 0 && fz->pdom_kind[i] == BYOC_PATTERN_ELEMWISE &&
                byoc__check_path(fz, i, parent, byoc__cond_broadcast))
                byoc__commit_fuse(fz, i, parent);
        } else if (kind <= BYOC_PATTERN_BROADCAST) {
            int dk = fz->pdom_kind[i];
            if ((dk <= BYOC_PATTERN_INJECTIVE || dk == BYOC_PATTERN_COMM_REDUCE) &&
                byoc__check_path(fz, i, parent, byoc__cond_elemwise_anchor))
                byoc__commit_fuse(fz, i, parent);
        } else if (kind == BYOC_PATTERN_INJECTIVE || kind == BYOC_PATTERN_TUPLE) {
            if (phase == 1 && byoc__check_path(fz, i, parent, byoc__cond_injective)) byoc__commit_fuse(fz, i, parent);
        }
        /* comm_reduce never starts a fusion */
    }
}

BYOC_API byoc_result byoc_fuse_ops(byoc_module *m, int max_depth, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    if (max_depth < 1) max_depth = 1;
    byoc_result r = byoc_infer_type(m, diag);
    const byoc_op *stop = byoc__ops()->stop_fusion;
    byoc_attr primitive_item = byoc__attr_int("Primitive", 1);
    byoc_attrs primitive = byoc__attrs_build(m, NULL, &primitive_item, 1); /* shared by every fused function */
    for (int f = 0; r == BYOC_OK && f < byoc_module_function_count(m); ++f) {
        byoc_node *fn = m->functions[f].function;
        if (byoc__pass_skips(fn) || byoc_attrs_get(&fn->attrs, "Primitive")) continue;
        byoc_graph g;
        if (byoc_graph_build(m, fn->body, 0, &g) != BYOC_OK)
            return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        size_t n = (size_t)g.count + 1;
        byoc__fuser fz;
        memset(&fz, 0, sizeof fz);
        fz.g = &g;
        int *pool = BYOC__CAST(int *, BYOC_CALLOC(n * 9, sizeof(int)));
        if (!pool) { byoc_graph_free(&g); return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory"); }
        fz.kind = pool;
        fz.pdom = pool + n;
        fz.pdom_kind = pool + 2 * n;
        fz.depth = pool + 3 * n;
        fz.group = pool + 4 * n;
        fz.gkind = pool + 5 * n; fz.gsize = pool + 6 * n; fz.anchor = pool + 7 * n; fz.mark = pool + 8 * n;
        for (int i = 0; i < g.count; ++i) {
            byoc__graph_prefetch(&g, i + 8);
            fz.kind[i] = fz.gkind[i] = byoc__node_kind(g.nodes[i].node);
            fz.group[i] = i;
            fz.gsize[i] = 1;
            fz.anchor[i] = fz.kind[i] == BYOC_PATTERN_OUT_ELEMWISE_FUSABLE;
        }
        byoc__fuse_post_dominators(&fz);
        for (int phase = 0; phase < 3; ++phase) byoc__run_fuse(&fz, phase, max_depth);
        /* members of each group, in graph order */
        byoc_node **now = BYOC__CAST(byoc_node **, BYOC_CALLOC(n, sizeof(byoc_node *)));
        int **members = BYOC__CAST(int **, BYOC_CALLOC(n, sizeof(int *)));
        byoc_node **ins = NULL;
        for (int i = 0; now && members && i < g.count; ++i) stbds_arrput(members[byoc__fuse_root(&fz, i)], i);
        for (int i = 0; now && members && i < g.count && !m->has_error; ++i) {
            byoc_node *x = g.nodes[i].node;
            int root = byoc__fuse_root(&fz, i);
            /* groups rooted at an op call, and any group of several nodes, become functions; a lone
               tuple, projection or non-op call stays as it is (TVM's FuseMutator does the same) */
            int lone_op = x->kind == BYOC_NODE_CALL && x->op && x->op != stop && !byoc__call_has_any_dims(x);
            int wrap = root == i && (lone_op || stbds_arrlen(members[i]) > 1);
            if (!wrap) {
                if (root != i) continue; /* built with its group */
                /* outside every fused function: rebuild on the new inputs; stop_fusion disappears */
                if (x->kind == BYOC_NODE_CALL && x->op == stop) { now[i] = now[g.nodes[i].inputs[0]]; continue; }
                now[i] = byoc__rebuild_on(m, &g, i, now, &ins, NULL);
                continue;
            }
            /* the group's function: params for values from outside, members rebuilt inside */
            byoc__map inside = BYOC__MAP_EMPTY;
            byoc_node **params = NULL, **args = NULL;
            int *mem = members[i];
            for (int k = 0; k < (int)stbds_arrlen(mem); ++k) byoc__map_put(&inside, g.nodes[mem[k]].node, 0);
            for (int k = 0; k < (int)stbds_arrlen(mem) && !m->has_error; ++k) {
                byoc_node *y = g.nodes[mem[k]].node;
                if (y->kind == BYOC_NODE_CONSTANT) { byoc__map_put(&inside, y, (intptr_t)y); continue; }
                stbds_arrsetlen(ins, 0);
                for (int j = 0; j < byoc__input_count(y, 0); ++j) {
                    byoc_node *in = byoc__input_at(y, j);
                    byoc_node *to = (byoc_node *)byoc__map_get(&inside, in, 0);
                    if (!to && in->kind != BYOC_NODE_FUNCTION) { /* from outside: a parameter (one per value) */
                        int known = -1;
                        for (int q = 0; q < (int)stbds_arrlen(args) && known < 0; ++q)
                            if (args[q] == now[byoc_graph_index(&g, in)]) known = q;
                        if (known < 0) {
                            char name[32];
                            snprintf(name, sizeof name, "p%d", (int)stbds_arrlen(params));
                            stbds_arrput(params, byoc_var(m, name, in->checked_type));
                            stbds_arrput(args, now[byoc_graph_index(&g, in)]);
                            known = (int)stbds_arrlen(params) - 1;
                        }
                        to = params[known];
                    }
                    stbds_arrput(ins, to ? to : in);
                }
                byoc_node *c = y->kind == BYOC_NODE_CALL && y->op == stop ? ins[0] : byoc__rebuild(m, y, ins);
                if (c && c != ins[0]) c->checked_type = y->checked_type;
                byoc__map_put(&inside, y, (intptr_t)c);
            }
            byoc_node *ff = byoc_function(m, params, (int)stbds_arrlen(params),
                                          (byoc_node *)byoc__map_get(&inside, x, 0), NULL, NULL);
            if (ff) ff->attrs = primitive;
            now[i] = byoc_call_function(m, ff, args, (int)stbds_arrlen(args));
            byoc__inherit(now[i], x);
            byoc__map_free(&inside);
            stbds_arrfree(params);
            stbds_arrfree(args);
        }
        if (!m->has_error && now && g.count) byoc__set_body(m, f, now[g.count - 1]);
        for (size_t i = 0; members && i < n; ++i) stbds_arrfree(members[i]);
        BYOC_FREE(members);
        BYOC_FREE(now);
        stbds_arrfree(ins);
        stbds_arrfree(fz.stack);
        BYOC_FREE(pool);
        byoc_graph_free(&g);
        if (m->has_error) r = byoc__diag(diag, m->error.code, 0, 0, 0, "fuse_ops: %s", m->error.message);
    }
    return r == BYOC_OK ? byoc_infer_type(m, diag) : r;
}

/* ---- SimplifyInference ---- */
/* v reshaped so that it broadcasts along `axis` of a rank-`rank` tensor: (C,) -> (C, 1, ..., 1) */
BYOC__PRIVATE byoc_node *byoc__along_axis(byoc_module *m, byoc_node *v, int axis, int rank) {
    int trailing = rank - axis - 1;
    if (trailing <= 0) return v;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(m, &a, "axis", 1);
    byoc_attrs_set_int(m, &a, "num_newaxis", trailing);
    return byoc_call(m, "expand_dims", &v, 1, &a);
}

BYOC__PRIVATE byoc_node *byoc__binary(byoc_module *m, const char *op, byoc_node *a, byoc_node *b) {
    byoc_node *ab[2] = {a, b};
    return byoc_call(m, op, ab, 2, NULL);
}

/* x * scale + shift for one batch_norm call */
BYOC__PRIVATE byoc_node *byoc__batch_norm_affine(byoc_module *m, const byoc_node *bn, byoc_node *const *in) {
    const byoc_type *xt = bn->args[0]->checked_type;
    int axis = (int)byoc_attrs_int(&bn->attrs, "axis", 1);
    if (axis < 0) axis += xt->rank;
    double eps = byoc_attrs_float(&bn->attrs, "epsilon", 1e-5);
    int center = (int)byoc_attrs_int(&bn->attrs, "center", 1), scale = (int)byoc_attrs_int(&bn->attrs, "scale", 1);
    byoc_node *scale_v, *shift_v;
    int all_const = 1;
    for (int i = 1; i < 5; ++i) all_const &= in[i]->kind == BYOC_NODE_CONSTANT;
    if (all_const) { /* fold now: one constant each */
        int64_t c = in[1]->annotation->dims[0];
        byoc_node *sc = byoc_constant(m, in[1]->annotation, NULL, 0),
                  *sh = byoc_constant(m, in[1]->annotation, NULL, 0);
        if (!sc || !sh) return NULL;
        for (int64_t k = 0; k < c; ++k) {
            double g = scale ? byoc__load(in[1]->annotation->dtype, in[1]->data, k) : 1.0;
            double b = center ? byoc__load(in[2]->annotation->dtype, in[2]->data, k) : 0.0;
            double mean = byoc__load(in[3]->annotation->dtype, in[3]->data, k),
                   var = byoc__load(in[4]->annotation->dtype, in[4]->data, k);
            double s = g / sqrt(var + eps);
            byoc__store(in[1]->annotation->dtype, sc->data, k, s);
            byoc__store(in[1]->annotation->dtype, sh->data, k, b - mean * s);
        }
        scale_v = sc;
        shift_v = sh;
    } else { /* the same arithmetic as ops */
        byoc_node *var_eps = byoc__binary(m, "add", in[4], byoc_constant_scalar(m, xt->dtype, eps));
        byoc_node *std = byoc_call(m, "sqrt", &var_eps, 1, NULL);
        scale_v = scale ? byoc__binary(m, "divide", in[1], std)
                        : byoc__binary(m, "divide", byoc_constant_scalar(m, xt->dtype, 1.0), std);
        byoc_node *ms = byoc__binary(m, "multiply", in[3], scale_v);
        shift_v = center ? byoc__binary(m, "subtract", in[2], ms) : byoc_call(m, "negative", &ms, 1, NULL);
    }
    byoc_node *scaled = byoc__binary(m, "multiply", in[0], byoc__along_axis(m, scale_v, axis, xt->rank));
    byoc_node *shifted = byoc__binary(m, "add", scaled, byoc__along_axis(m, shift_v, axis, xt->rank));
    /* the ops that stand for the batch_norm keep its span and origin: reports and profiles name it */
    if (scaled && shifted) {
        byoc__inherit(scaled, bn);
        byoc__inherit(shifted, bn);
    }
    return shifted;
}

BYOC_API byoc_result byoc_simplify_inference(byoc_module *m, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    byoc_result r = byoc_infer_type(m, diag);
    const byoc_op *bn_op = byoc__ops()->batch_norm, *dropout_op = byoc__ops()->dropout;
    for (int f = 0; r == BYOC_OK && f < byoc_module_function_count(m); ++f) {
        byoc_node *fn = m->functions[f].function;
        if (byoc__pass_skips(fn)) continue;
        byoc_graph g;
        if (byoc_graph_build(m, fn->body, 0, &g) != BYOC_OK)
            return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        byoc__map repl = BYOC__MAP_EMPTY, affine = BYOC__MAP_EMPTY;
        for (int i = 0; i < g.count && !m->has_error; ++i) {
            byoc__graph_prefetch(&g, i + 8);
            byoc_node *x = g.nodes[i].node;
            if (x->kind != BYOC_NODE_TUPLE_GET_ITEM || x->args[0]->kind != BYOC_NODE_CALL) continue;
            byoc_node *call = x->args[0];
            if (call->op == bn_op) {
                byoc_node *to = x->index == 1 ? call->args[3] : x->index == 2 ? call->args[4] : NULL;
                if (x->index == 0) {
                    to = (byoc_node *)byoc__map_get(&affine, call, 0);
                    if (!to) {
                        to = byoc__batch_norm_affine(m, call, call->args);
                        byoc__map_put(&affine, call, (intptr_t)to);
                    }
                }
                if (to) byoc__map_put(&repl, x, (intptr_t)to);
            } else if (call->op == dropout_op && x->index == 0)
                byoc__map_put(&repl, x, (intptr_t)call->args[0]);
        }
        if (repl.count && !m->has_error) byoc__set_body(m, f, byoc__substitute(m, &g, &repl));
        byoc__map_free(&repl);
        byoc__map_free(&affine);
        byoc_graph_free(&g);
        if (m->has_error) r = byoc__diag(diag, m->error.code, 0, 0, 0, "simplify_inference: %s", m->error.message);
        else r = byoc_infer_type(m, diag);
    }
    return r;
}

/* ---- FoldScaleAxis ---- */
/* The channel count C when constant c varies along output axis `axis` (of rank `rank`) only, with extent C
   or 1 there: then its flat index is its channel index. 0 otherwise. */
BYOC__PRIVATE int64_t byoc__channel_constant(const byoc_node *c, int axis, int rank, int64_t channels) {
    if (!c || c->kind != BYOC_NODE_CONSTANT || !c->data) return 0;
    const byoc_type *t = c->annotation;
    if (!t || t->kind != BYOC_TYPE_TENSOR || !byoc_dtype_is_float(t->dtype) || t->rank > rank) return 0;
    int64_t along = 1;
    for (int d = 0; d < t->rank; ++d) {
        int out_axis = rank - t->rank + d; /* right-aligned, as broadcasting lines them up */
        if (out_axis == axis) along = t->dims[d];
        else if (t->dims[d] != 1) return 0;
    }
    return along == channels || along == 1 ? along : 0;
}

/* the anchor (conv2d or dense) whose output `a` is, possibly through add(anchor, bias), with the output
   channel axis and count; NULL when the scale cannot fold into it */
BYOC__PRIVATE byoc_node *byoc__scale_anchor(const byoc_graph *g, byoc_node *a, byoc_node **bias, int *axis,
                                            int64_t *channels) {
    *bias = NULL;
    if (a->kind == BYOC_NODE_CALL && a->op == byoc__ops()->add && a->nargs == 2) {
        int ai = byoc_graph_index(g, a);
        if (ai < 0 || g->nodes[ai].nusers != 1) return NULL;
        for (int k = 0; k < 2 && !*bias; ++k)
            if (a->args[1 - k]->kind == BYOC_NODE_CONSTANT && a->args[k]->kind == BYOC_NODE_CALL) {
                *bias = a->args[1 - k];
                a = a->args[k];
            }
        if (!*bias) return NULL;
    }
    if (a->kind != BYOC_NODE_CALL || a->nargs != 2 || a->args[1]->kind != BYOC_NODE_CONSTANT || !a->args[1]->data)
        return NULL;
    int ai = byoc_graph_index(g, a);
    const byoc_type *t = a->checked_type, *w = a->args[1]->annotation;
    if (ai < 0 || g->nodes[ai].nusers != 1 || !t || t->kind != BYOC_TYPE_TENSOR || !byoc_dtype_is_float(t->dtype) ||
        w->dtype != t->dtype)
        return NULL;
    if (a->op == byoc__ops()->conv2d) {
        const char *out_layout = byoc_attrs_string(&a->attrs, "out_layout", "");
        if (strcmp(byoc_attrs_string(&a->attrs, "data_layout", "NCHW"), "NCHW") ||
            strcmp(byoc_attrs_string(&a->attrs, "kernel_layout", "OIHW"), "OIHW") ||
            (*out_layout && strcmp(out_layout, "NCHW")) || t->rank != 4 || w->rank != 4)
            return NULL;
        *axis = 1;
    } else if (a->op == byoc__ops()->dense) {
        if (t->rank < 1 || w->rank != 2) return NULL;
        *axis = t->rank - 1;
    } else
        return NULL;
    *channels = t->dims[*axis];
    return *channels == w->dims[0] && *channels > 0 ? a : NULL;
}

/* a constant of c's type (or `like`'s, when c is per-channel with extent 1 and like has C) whose value at
   channel k is c[k] * s[k], over `per` elements a channel */
BYOC__PRIVATE byoc_node *byoc__scaled_constant(byoc_module *m, const byoc_node *c, const byoc_node *like,
                                               const byoc_node *s, int64_t channels, int64_t per) {
    const byoc_type *t = c->annotation;
    if (like && byoc_type_num_elements(t) == 1 && byoc_type_num_elements(like->annotation) == channels)
        t = like->annotation;
    byoc_node *r = byoc_constant(m, t, NULL, 0);
    if (!r) return NULL;
    int64_t n = byoc_type_num_elements(t), cn = byoc_type_num_elements(c->annotation);
    int64_t sn = byoc_type_num_elements(s->annotation);
    for (int64_t at = 0; per > 0 && at < n && at < channels * per; ++at) { /* element at is of channel at / per */
        double v = byoc__load(c->annotation->dtype, c->data, cn == 1 ? 0 : at) *
                   byoc__load(s->annotation->dtype, s->data, sn == 1 ? 0 : at / per);
        byoc__store(t->dtype, r->data, at, v);
    }
    return r;
}

BYOC_API byoc_result byoc_fold_scale_axis(byoc_module *m, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    byoc_result r = byoc_infer_type(m, diag);
    const byoc_op *multiply = byoc__ops()->multiply;
    for (int f = 0; r == BYOC_OK && f < byoc_module_function_count(m); ++f) {
        byoc_node *fn = m->functions[f].function;
        if (byoc__pass_skips(fn)) continue;
        byoc_graph g;
        if (byoc_graph_build(m, fn->body, 0, &g) != BYOC_OK)
            return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        byoc__map repl = BYOC__MAP_EMPTY;
        for (int i = 0; i < g.count && !m->has_error; ++i) {
            byoc_node *x = g.nodes[i].node;
            if (x->kind != BYOC_NODE_CALL || x->op != multiply || x->nargs != 2 || !x->checked_type) continue;
            for (int k = 0; k < 2; ++k) {
                byoc_node *scale = x->args[1 - k], *bias = NULL;
                int axis = 0;
                int64_t channels = 0;
                if (scale->kind != BYOC_NODE_CONSTANT || x->args[k]->kind != BYOC_NODE_CALL) continue;
                byoc_node *anchor = byoc__scale_anchor(&g, x->args[k], &bias, &axis, &channels);
                const byoc_type *t = anchor ? anchor->checked_type : NULL;
                /* the scale must not widen the output, and scale and bias must be per channel of its dtype */
                if (!t || x->checked_type != t || scale->annotation->dtype != t->dtype ||
                    !byoc__channel_constant(scale, axis, t->rank, channels) ||
                    (bias &&
                     (bias->annotation->dtype != t->dtype || !byoc__channel_constant(bias, axis, t->rank, channels))))
                    continue;
                const byoc_node *w = anchor->args[1];
                byoc_node *args[2] = {anchor->args[0],
                                      byoc__scaled_constant(m, w, NULL, scale, channels,
                                                            byoc_type_num_elements(w->annotation) / channels)};
                byoc_node *scaled = args[1] ? byoc__rebuild(m, anchor, args) : NULL;
                if (scaled && bias) {
                    byoc_node *b = byoc__scaled_constant(m, bias, scale, scale, channels, 1);
                    byoc_node *sum[2] = {scaled, b};
                    scaled = b ? byoc__rebuild(m, x->args[k], sum) : NULL; /* the add, with the scaled bias */
                }
                if (scaled) byoc__map_put(&repl, x, (intptr_t)scaled);
                break;
            }
        }
        if (repl.count && !m->has_error) byoc__set_body(m, f, byoc__substitute(m, &g, &repl));
        byoc__map_free(&repl);
        byoc_graph_free(&g);
        if (m->has_error) r = byoc__diag(diag, m->error.code, 0, 0, 0, "fold_scale_axis: %s", m->error.message);
        else r = byoc_infer_type(m, diag);
    }
    return r;
}

/* ---- FoldConstant ---- */
#define BYOC__FOLD_LIMIT (1 << 22) /* largest result folded, in elements */

/* the value of call when its arguments are constants (or tuples of them) and its op has a host
   kernel for them: a constant, or a tuple of constants for a tuple result; else NULL */
BYOC__PRIVATE byoc_node *byoc__fold_dynamic_call(byoc_module *m, const byoc_node *call);
BYOC__PRIVATE byoc_node *byoc__fold_call(byoc_module *m, const byoc_node *call) {
    const byoc__kernel_def *def = byoc__kernel_of(call->op);
    const byoc_type *ot = call->checked_type;
    if (!def || (call->op->def.flags & BYOC_OP_ANNOTATION) || !ot) return NULL;
    if (!byoc_type_is_static(ot)) return byoc__fold_dynamic_call(m, call);
    byoc_tensor results[64];
    int nresults = byoc__type_tensors(ot, results, 64, 0, 0);
    if (nresults < 0 || nresults > 64) return NULL;
    int64_t elements = 0;
    for (int i = 0; i < nresults; ++i)
        if ((elements += byoc__numel(&results[i])) > BYOC__FOLD_LIMIT) return NULL;
    /* shape_of needs only its input's static type; every other op needs constant inputs */
    for (int i = 0; i < call->nargs; ++i)
        if (byoc__value_tensors(call->args[i], NULL, 0, 0, (call->op->def.flags & BYOC_OP_READS_SHAPE_ONLY) != 0, 0) <
            0)
            return NULL;
    byoc_diag d;
    byoc_node *c = byoc__kernel_run_constants(m, call, call->args, &d);
    byoc__inherit(c, call);
    return c;
}

/* A call whose type has '?' on constant arguments: its value typed for them (Relay's DynamicToStatic), as a
   constant of concrete type; NULL when an argument is not constant, the values break the call or the
   result is above the fold limit. */
BYOC__PRIVATE byoc_node *byoc__fold_dynamic_call(byoc_module *m, const byoc_node *call) {
    for (int i = 0; i < call->nargs; ++i)
        if (byoc__value_tensors(call->args[i], NULL, 0, 0, 0, 0) < 0) return NULL;
    byoc_diag d;
    memset(&d, 0, sizeof d);
    byoc_node *c = byoc__kernel_run_dynamic(m, call, call->args, &d);
    if (!c) return NULL;
    byoc_tensor results[64];
    int nresults = byoc__type_tensors(c->checked_type, results, 64, 0, 0);
    int64_t elements = 0;
    for (int i = 0; i < nresults && i < 64; ++i) elements += byoc__numel(&results[i]);
    if (nresults < 0 || nresults > 64 || elements > BYOC__FOLD_LIMIT) return NULL; /* left to run time */
    byoc__inherit(c, call);
    return c;
}

BYOC_API byoc_result byoc_fold_constant(byoc_module *m, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    byoc_result r = byoc_infer_type(m, diag);
    for (int f = 0; r == BYOC_OK && f < byoc_module_function_count(m); ++f) {
        byoc_node *fn = m->functions[f].function;
        if (byoc__pass_skips(fn)) continue;
        byoc_graph g;
        if (byoc_graph_build(m, fn->body, 0, &g) != BYOC_OK)
            return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        /* in graph order, on the rebuilt nodes, so chains of constant ops fold completely */
        byoc_node **now = BYOC__CAST(byoc_node **, BYOC_CALLOC((size_t)g.count + 1, sizeof(byoc_node *)));
        byoc_node **ins = NULL;
        for (int i = 0; now && i < g.count && !m->has_error; ++i) {
            byoc_node *x = g.nodes[i].node;
            byoc_node *y = byoc__rebuild_on(m, &g, i, now, &ins, NULL);
            if (y && y != x) y->checked_type = x->checked_type;
            if (y && y != x && !byoc_type_is_static(x->checked_type) && y->kind == BYOC_NODE_CALL && y->op) {
                /* a '?' type is inferred again: folded arguments may settle it (DynamicToStatic) */
                byoc_diag td;
                y->checked_type = NULL;
                if (byoc_infer_node_type(m, y, &td) != BYOC_OK) y->checked_type = x->checked_type;
            }
            byoc_node *folded = y && y->kind == BYOC_NODE_CALL ? byoc__fold_call(m, y) : NULL;
            if (y && y->kind == BYOC_NODE_TUPLE_GET_ITEM && y->args[0]->kind == BYOC_NODE_TUPLE)
                folded = y->args[0]->args[y->index];
            now[i] = folded ? folded : y;
        }
        if (!m->has_error && now && g.count) byoc__set_body(m, f, now[g.count - 1]);
        stbds_arrfree(ins);
        BYOC_FREE(now);
        byoc_graph_free(&g);
        if (m->has_error) r = byoc__diag(diag, m->error.code, 0, 0, 0, "fold_constant: %s", m->error.message);
        else r = byoc_infer_type(m, diag);
    }
    return r;
}

/* ---- DCE ---- */
BYOC_API byoc_result byoc_dead_code_elimination(byoc_module *m, byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    byoc_node *main_fn = byoc_module_function(m, "main");
    if (!main_fn) return BYOC_OK; /* a library of functions: every one is an entry */
    byoc__map reached = BYOC__MAP_EMPTY;
    const char **work = NULL;
    stbds_arrput(work, "main");
    while (stbds_arrlen(work)) {
        const char *name = stbds_arrpop(work);
        byoc_node *fn = byoc_module_function(m, name);
        if (!fn || byoc__map_has(&reached, fn)) continue;
        byoc__map_put(&reached, fn, 1);
        byoc_node **order = NULL;
        byoc__post_order_marked(fn, BYOC_GRAPH_ENTER_FUNCTIONS, &order);
        for (int i = 0; i < (int)stbds_arrlen(order); ++i)
            if (order[i]->kind == BYOC_NODE_GLOBAL_VAR) stbds_arrput(work, order[i]->name);
        stbds_arrfree(order);
    }
    int kept = 0;
    for (int i = 0; i < (int)stbds_arrlen(m->functions); ++i)
        if (byoc__map_has(&reached, m->functions[i].function)) m->functions[kept++] = m->functions[i];
    stbds_arrsetlen(m->functions, kept);
    byoc__map_free(&m->function_index);
    for (int i = 0; i < kept; ++i) byoc__map_put(&m->function_index, m->functions[i].name, i);
    byoc__map_free(&reached);
    stbds_arrfree(work);
    (void)diag;
    return BYOC_OK;
}

// [SECTION] impl: targets & backends
typedef struct byoc__target_kind {
    const char *name;
    byoc_target_option *options; /* copies, strings interned in the registry arena */
    int noptions;
    byoc_attrs defaults;
} byoc__target_kind;

static struct {
    byoc_module *arena;
    byoc__target_kind *kinds;   /* stb_ds */
    const byoc_backend **backends; /* stb_ds */
    const byoc_target *current[16];
    int depth;
} byoc__targets;

BYOC__PRIVATE const byoc__target_kind *byoc__target_kind_get(const char *name) {
    for (int i = 0; i < (int)stbds_arrlen(byoc__targets.kinds); ++i)
        if (!strcmp(byoc__targets.kinds[i].name, name)) return &byoc__targets.kinds[i];
    return NULL;
}
BYOC_API int byoc_target_kind_exists(const char *kind) { return byoc__target_kind_get(kind) != NULL; }

BYOC__PRIVATE int byoc__option_kind_ok(byoc_attr_kind k) {
    return k == BYOC_ATTR_INT || k == BYOC_ATTR_FLOAT || k == BYOC_ATTR_STRING || k == BYOC_ATTR_BOOL;
}

BYOC_API byoc_result byoc_target_kind_register(const char *kind, const byoc_target_option *options, int count,
                                               byoc_diag *diag) {
    static const char *const reserved[] = {"kind", "keys", "libs",  "device", "model",
                                           "tag",  "host", "mattr", "mcpu",   "mtriple"};
    if (!kind || !byoc__is_identifier(kind))
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "target kind '%s': not a name", kind ? kind : "");
    if (!strcmp(kind, "host") || !strcmp(kind, "default"))
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                          "target kind '%s': the name is reserved for the host", kind);
    if (byoc__target_kind_get(kind))
        return byoc__diag(diag, BYOC_ERR_DUPLICATE, 0, 0, 0, "target kind '%s' is already registered", kind);
    if (!byoc__targets.arena && !(byoc__targets.arena = byoc_module_create(NULL)))
        return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
    byoc_module *a = byoc__targets.arena;
    byoc__target_kind tk;
    memset(&tk, 0, sizeof tk);
    tk.name = byoc_intern(a, kind);
    tk.options = count > 0 ? BYOC__NEW_N(a, byoc_target_option, count) : NULL;
    for (int i = 0; i < count; ++i) {
        const byoc_target_option *o = &options[i];
        if (!o->name || !byoc__is_identifier(o->name))
            return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "target kind '%s': option %d has no valid name",
                              kind, i);
        for (size_t r = 0; r < sizeof reserved / sizeof reserved[0]; ++r)
            if (!strcmp(o->name, reserved[r]))
                return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                                  "target kind '%s': option name '%s' is reserved", kind, o->name);
        for (int j = 0; j < i; ++j)
            if (!strcmp(options[j].name, o->name))
                return byoc__diag(diag, BYOC_ERR_DUPLICATE, 0, 0, 0, "target kind '%s': option '%s' is declared twice",
                                  kind, o->name);
        if (!byoc__option_kind_ok(o->kind))
            return byoc__diag(diag, BYOC_ERR_ATTR, 0, 0, 0,
                              "target kind '%s': option '%s' must be int, float, string or bool", kind, o->name);
        if (!o->default_text)
            return byoc__diag(diag, BYOC_ERR_ATTR, 0, 0, 0, "target kind '%s': option '%s' has no default (None)", kind,
                              o->name);
        byoc_attr_value v;
        byoc_diag d;
        if (byoc__attr_value_parse_in(a, o->default_text, &v, &d) != BYOC_OK)
            return byoc__diag(diag, BYOC_ERR_ATTR, 0, 0, 0,
                              "target kind '%s': default of option '%s' does not parse: %s", kind, o->name,
                              o->default_text);
        if (v.kind == BYOC_ATTR_INT && o->kind == BYOC_ATTR_FLOAT) { v.kind = BYOC_ATTR_FLOAT; v.f = (double)v.i; }
        if (v.kind != o->kind)
            return byoc__diag(diag, BYOC_ERR_ATTR, 0, 0, 0,
                              "target kind '%s': default of option '%s' is a %s, not a %s", kind, o->name,
                              byoc__attr_kind_name(v.kind), byoc__attr_kind_name(o->kind));
        tk.options[i] = *o;
        tk.options[i].name = byoc_intern(a, o->name);
        tk.options[i].default_text = byoc_intern(a, o->default_text);
        tk.options[i].doc = o->doc ? byoc_intern(a, o->doc) : NULL;
        byoc_attrs_set(a, &tk.defaults, tk.options[i].name, &v);
    }
    if (a->has_error) return byoc__diag(diag, a->error.code, 0, 0, 0, "%s", a->error.message);
    tk.noptions = count;
    stbds_arrput(byoc__targets.kinds, tk);
    return BYOC_OK;
}

BYOC_API void byoc_target_free(byoc_target *t) {
    if (!t) return;
    byoc_module *a = t->arena;
    BYOC_FREE(t);
    byoc_module_destroy(a);
}

BYOC_API byoc_target *byoc_target_parse(const char *text, byoc_diag *diag) {
    byoc_diag local;
    if (!diag) diag = &local;
    memset(diag, 0, sizeof *diag);
    const char *p = text ? text : "";
    while (*p == ' ') p++;
    const char *ke = p;
    while (*ke && *ke != ' ') ke++;
    char kind[64];
    snprintf(kind, sizeof kind, "%.*s", (int)(ke - p < 63 ? ke - p : 63), p);
    const byoc__target_kind *tk = byoc__target_kind_get(kind);
    if (!tk) {
        char known[300] = "";
        for (int i = 0; i < (int)stbds_arrlen(byoc__targets.kinds); ++i) {
            size_t used = strlen(known);
            snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", byoc__targets.kinds[i].name);
        }
        byoc__diag(diag, BYOC_ERR_NOT_FOUND, 0, 1, 0, "target '%s': unknown target kind '%s' (registered: %s)",
                   text ? text : "", kind, known[0] ? known : "none");
        return NULL;
    }
    byoc_target *t = BYOC__CAST(byoc_target *, BYOC_CALLOC(1, sizeof *t));
    byoc_module *a = byoc_module_create(NULL);
    if (!t || !a) {
        BYOC_FREE(t);
        byoc_module_destroy(a);
        byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        return NULL;
    }
    t->arena = a;
    t->kind = byoc_intern(a, tk->name);
    for (int i = 0; i < tk->defaults.count; ++i)
        byoc_attrs_set(a, &t->attrs, tk->defaults.items[i].name, &tk->defaults.items[i].value);
    p = ke;
    int given[256] = {0};
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        int col = (int)(p - text) + 1;
        const char *te = p;
        while (*te && *te != ' ') te++;
        char tok[256];
        snprintf(tok, sizeof tok, "%.*s", (int)(te - p < 255 ? te - p : 255), p);
        p = te;
        if (tok[0] != '-' || !tok[1]) {
            byoc__diag(diag, BYOC_ERR_PARSE, 0, col, 0, "target '%s': expected -option=value at column %d, got '%s'",
                       text, col, tok);
            break;
        }
        char *eq = strchr(tok, '=');
        const char *name = tok + 1, *value = eq ? eq + 1 : NULL;
        if (eq) *eq = 0;
        int at = -1;
        for (int i = 0; i < tk->noptions && at < 0; ++i)
            if (!strcmp(tk->options[i].name, name)) at = i;
        if (at < 0) {
            char opts[300] = "";
            for (int i = 0; i < tk->noptions; ++i) {
                size_t used = strlen(opts);
                snprintf(opts + used, sizeof opts - used, "%s-%s", i ? ", " : "", tk->options[i].name);
            }
            byoc__diag(diag, BYOC_ERR_ATTR, 0, col, 0, "target '%s': kind %s has no option -%s (options: %s)", text,
                       tk->name, name, opts[0] ? opts : "none");
            break;
        }
        if (at < 256 && given[at]++) {
            byoc__diag(diag, BYOC_ERR_ATTR, 0, col, 0, "target '%s': option -%s is given twice", text, name);
            break;
        }
        const byoc_target_option *o = &tk->options[at];
        byoc_attr_value v;
        memset(&v, 0, sizeof v);
        v.kind = o->kind;
        int ok = 1;
        if (!value) { /* a bare flag */
            ok = o->kind == BYOC_ATTR_BOOL;
            v.i = 1;
        } else if (o->kind == BYOC_ATTR_INT) {
            char *end;
            errno = 0;
            long long x = strtoll(value, &end, 10);
            ok = *value && !*end && errno == 0;
            v.i = x;
        } else if (o->kind == BYOC_ATTR_FLOAT) {
            char *end;
            double x = strtod(value, &end);
            ok = *value && !*end && isfinite(x);
            v.f = x;
        } else if (o->kind == BYOC_ATTR_BOOL) {
            ok = !strcmp(value, "true") || !strcmp(value, "false") || !strcmp(value, "1") || !strcmp(value, "0");
            v.i = value[0] == 't' || value[0] == '1';
        } else {
            size_t n = strlen(value);
            if (n >= 2 && value[0] == '"' && value[n - 1] == '"') v.s = byoc__intern_n(a, value + 1, n - 2);
            else v.s = byoc_intern(a, value);
        }
        if (!ok) {
            byoc__diag(diag, BYOC_ERR_ATTR, 0, col, 0, "target '%s': option -%s expects %s, got '%s'", text, name,
                       byoc__attr_kind_name(o->kind), value ? value : "(no value)");
            break;
        }
        byoc_attrs_set(a, &t->attrs, o->name, &v);
    }
    if (!diag->code && a->has_error) byoc__diag(diag, a->error.code, 0, 0, 0, "%s", a->error.message);
    if (diag->code) { byoc_target_free(t); return NULL; }
    return t;
}

BYOC_API const byoc_target *byoc_target_current(void) {
    return byoc__targets.depth ? byoc__targets.current[byoc__targets.depth - 1] : NULL;
}
/* makes t current for a hook; 0 when hooks are nested too deeply */
BYOC__PRIVATE int byoc__target_push(const byoc_target *t) {
    if (byoc__targets.depth == (int)(sizeof byoc__targets.current / sizeof byoc__targets.current[0])) return 0;
    byoc__targets.current[byoc__targets.depth++] = t;
    return 1;
}
BYOC__PRIVATE void byoc__target_pop(void) { byoc__targets.depth--; }

BYOC_API byoc_result byoc_backend_register(const byoc_backend *b, byoc_diag *diag) {
    const char *name = b->spec.name;
    if (!name) return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "backend registration: no name");
    if (byoc_backend_get(name))
        return byoc__diag(diag, BYOC_ERR_DUPLICATE, 0, 0, 0, "backend '%s' is already registered", name);
    for (int i = 0; i < b->npasses; ++i) {
        if ((int)b->passes[i].phase < 0 || b->passes[i].phase >= BYOC_PHASE_COUNT)
            return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "backend '%s': pass %d has no valid phase",
                              name, i);
        if (!b->passes[i].pass || !byoc_pass_get(b->passes[i].pass))
            return byoc__diag(diag, BYOC_ERR_NOT_FOUND, 0, 0, 0, "backend '%s': pass '%s' is not registered", name,
                              b->passes[i].pass ? b->passes[i].pass : "");
    }
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s.", name);
    for (int i = 0; i < b->spec.npatterns; ++i)
        if (!b->spec.patterns[i].name || strncmp(b->spec.patterns[i].name, prefix, strlen(prefix)) ||
            !b->spec.patterns[i].pattern)
            return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                              "backend '%s': pattern %d must be named '%s<name>' and have a pattern", name, i, prefix);
    byoc_result r = byoc_target_kind_register(name, b->options, b->noptions, diag);
    if (r != BYOC_OK) return r;
    stbds_arrput(byoc__targets.backends, b);
    return BYOC_OK;
}

BYOC_API const byoc_backend *byoc_backend_get(const char *name) {
    for (int i = 0; i < (int)stbds_arrlen(byoc__targets.backends); ++i)
        if (!strcmp(byoc__targets.backends[i]->spec.name, name)) return byoc__targets.backends[i];
    return NULL;
}

BYOC_API const byoc_pattern_entry *byoc_pattern_table(const char *backend, int *count) {
    const byoc_backend *b = byoc_backend_get(backend);
    *count = b ? b->spec.npatterns : 0;
    return b && b->spec.npatterns ? b->spec.patterns : NULL;
}

BYOC__PRIVATE byoc_result byoc__run_phase(byoc_module *m, const byoc_backend *b, byoc_phase phase, byoc_diag *diag) {
    byoc_result r = BYOC_OK;
    byoc_pass_context *ctx = NULL;
    for (int i = 0; r == BYOC_OK && i < b->npasses; ++i) {
        if (b->passes[i].phase != phase) continue;
        if (!ctx && !(ctx = byoc_pass_context_create()))
            return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        const char *one[1] = {b->passes[i].pass};
        r = byoc_run_passes(m, one, 1, ctx, diag);
    }
    byoc_pass_context_destroy(ctx);
    return r;
}

BYOC_API byoc_result byoc_backend_partition(byoc_module *m, const char *name, const byoc_param *params, int nparams,
                                            byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    const byoc_backend *b = byoc_backend_get(name);
    if (!b) return byoc__diag(diag, BYOC_ERR_NOT_FOUND, 0, 0, 0, "partition: no backend '%s' is registered", name);
    byoc_node *main_fn = byoc_module_function(m, "main");
    if (!main_fn) return byoc__diag(diag, BYOC_ERR_NOT_FOUND, 0, 0, 0, "partition: the module has no @main");
    if (nparams > 0) { /* bind params: the named parameters become constants */
        byoc__map repl = BYOC__MAP_EMPTY;
        byoc_node **kept = NULL;
        for (int i = 0; i < main_fn->nparams; ++i) {
            byoc_node *v = NULL;
            for (int k = 0; k < nparams && !v; ++k)
                if (!strcmp(params[k].name, main_fn->params[i]->name)) v = params[k].value;
            if (v) byoc__map_put(&repl, main_fn->params[i], (intptr_t)v);
            else stbds_arrput(kept, main_fn->params[i]);
        }
        for (int k = 0; k < nparams; ++k) {
            int found = 0;
            for (int i = 0; i < main_fn->nparams; ++i) found |= !strcmp(params[k].name, main_fn->params[i]->name);
            if (!found || !params[k].value || params[k].value->kind != BYOC_NODE_CONSTANT) {
                byoc__map_free(&repl);
                stbds_arrfree(kept);
                return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "partition: param '%s' %s", params[k].name,
                                  found ? "must be bound to a constant" : "is not a parameter of @main");
            }
        }
        byoc_graph g;
        if (byoc_graph_build(m, main_fn->body, 0, &g) != BYOC_OK) {
            byoc__map_free(&repl);
            stbds_arrfree(kept);
            return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        }
        byoc_node *body = byoc__substitute(m, &g, &repl);
        byoc_graph_free(&g);
        byoc_node *nf =
            body ? byoc_function(m, kept, (int)stbds_arrlen(kept), body, main_fn->annotation, &main_fn->attrs) : NULL;
        byoc__map_free(&repl);
        stbds_arrfree(kept);
        if (!nf || byoc_module_set_function(m, "main", nf) != BYOC_OK)
            return byoc__diag(diag, BYOC_ERR_INTERNAL, 0, 0, 0, "partition: binding params: %s",
                              m->has_error ? m->error.message : "failed");
    }
    byoc_result r = byoc_infer_type(m, diag);
    if (r == BYOC_OK) r = byoc__run_phase(m, b, BYOC_PHASE_PRE_PARTITIONING, diag);
    const byoc_backend_spec *one[1] = {&b->spec};
    if (r == BYOC_OK) r = byoc__merge_backend_composites(m, one, 1, diag);
    if (r == BYOC_OK) r = byoc_annotate_target(m, one, 1, 1, diag);
    if (r == BYOC_OK && !b->no_merge_regions) r = byoc_merge_compiler_regions(m, diag);
    if (r == BYOC_OK) r = byoc_partition_graph(m, "default", 1, diag);
    if (r == BYOC_OK) r = byoc__run_phase(m, b, BYOC_PHASE_POST_PARTITIONING_0, diag);
    if (r == BYOC_OK) r = byoc__run_phase(m, b, BYOC_PHASE_POST_PARTITIONING_1, diag);
    return r;
}

BYOC_API byoc_result byoc_run_target_hooks(byoc_module *m, const byoc_target *const *targets, int count,
                                           byoc_diag *diag) {
    if (!m) return byoc__null_arg(diag, __func__, "module");
    byoc_result r = BYOC_OK;
    for (int t = 0; r == BYOC_OK && t < count; ++t) {
        int first = 1;
        for (int u = 0; u < t; ++u) first &= strcmp(targets[u]->kind, targets[t]->kind) != 0;
        const byoc_backend *b = first ? byoc_backend_get(targets[t]->kind) : NULL;
        if (!b || (!b->relay_to_tir && !b->tir_to_runtime && !b->relay_to_runtime)) continue;
        /* the names first: a hook may add or replace functions */
        const char **names = NULL;
        for (int f = 0; f < byoc_module_function_count(m); ++f)
            if (!strcmp(byoc_attrs_string(&m->functions[f].function->attrs, "Compiler", ""), targets[t]->kind))
                stbds_arrput(names, m->functions[f].name);
        int pushed = byoc__target_push(targets[t]); /* current for every hook below */
        if (!pushed) r = byoc__diag(diag, BYOC_ERR_INTERNAL, 0, 0, 0, "target hooks nested too deeply");
        for (int k = 0; r == BYOC_OK && b->relay_to_tir && k < (int)stbds_arrlen(names); ++k) {
            r = b->relay_to_tir(m, names[k], b->user_data, diag);
            if (r == BYOC_OK && m->has_error)
                r = byoc__diag(diag, m->error.code, 0, 0, 0, "%s relay_to_tir on @%s: %s", b->spec.name, names[k],
                               m->error.message);
        }
        if (r == BYOC_OK) r = byoc_infer_type(m, diag);
        byoc_tir_to_runtime_fn build = b->tir_to_runtime ? b->tir_to_runtime : b->relay_to_runtime;
        for (int k = 0; r == BYOC_OK && build && k < (int)stbds_arrlen(names); ++k) {
            if (!byoc_module_function(m, names[k])) continue; /* replaced by the hook */
            byoc_runtime_module rm;
            memset(&rm, 0, sizeof rm);
            r = build(m, names[k], b->user_data, &rm, diag);
            if (r == BYOC_OK) r = byoc_module_set_runtime(m, names[k], &rm, diag);
            else if (rm.release) rm.release(rm.state);
        }
        if (pushed) byoc__target_pop();
        stbds_arrfree(names);
    }
    return r == BYOC_OK ? byoc_infer_type(m, diag) : r;
}

// [SECTION] impl: reference evaluation
/* ---- reference evaluation ---- */
BYOC__PRIVATE byoc_node *byoc__eval_function(byoc_module *m, byoc_node *fn, byoc_node *const *args, int nargs,
                                             int depth, byoc_diag *diag);


BYOC__PRIVATE byoc_node *byoc__eval_function(byoc_module *m, byoc_node *fn, byoc_node *const *args, int nargs,
                                             int depth, byoc_diag *diag) {
    if (depth > 64) {
        byoc__diag(diag, BYOC_ERR_UNSUPPORTED, 0, 0, fn->id, "evaluate: calls nested too deeply");
        return NULL;
    }
    if (nargs != fn->nparams) {
        byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, fn->id, "evaluate: %d arguments for %d parameters", nargs,
                   fn->nparams);
        return NULL;
    }
    byoc_graph g;
    if (byoc_graph_build(m, fn->body, 0, &g) != BYOC_OK) {
        byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        return NULL;
    }
    byoc_node **val = BYOC__CAST(byoc_node **, BYOC_CALLOC((size_t)g.count + 1, sizeof(byoc_node *)));
    byoc_node **ins = NULL;
    int ok = val != NULL;
    for (int i = 0; ok && i < g.count; ++i) {
        byoc_node *n = g.nodes[i].node;
        stbds_arrsetlen(ins, 0);
        for (int k = 0; k < n->nargs; ++k) stbds_arrput(ins, val[byoc_graph_index(&g, n->args[k])]);
        switch (n->kind) {
        case BYOC_NODE_VAR: {
            for (int k = 0; k < fn->nparams && !val[i]; ++k)
                if (fn->params[k] == n) val[i] = args[k];
            if (!val[i]) {
                byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, byoc_node_span(n)->line, byoc_node_span(n)->col, n->id,
                           "evaluate: %%%s is not bound", n->name);
                ok = 0;
            }
            break;
        }
        case BYOC_NODE_CONSTANT: val[i] = n; break;
        case BYOC_NODE_FUNCTION: case BYOC_NODE_GLOBAL_VAR: val[i] = n; break; /* called below */
        case BYOC_NODE_TUPLE: val[i] = byoc_tuple(m, ins, n->nargs); break;
        case BYOC_NODE_TUPLE_GET_ITEM:
            val[i] = ins[0] && ins[0]->kind == BYOC_NODE_TUPLE ? ins[0]->args[n->index] : NULL;
            break;
        case BYOC_NODE_CALL:
            if (n->op) { /* the op's host kernel, on the values of its arguments */
                val[i] = byoc__call_has_any_dims(n) ? byoc__kernel_run_dynamic(m, n, ins, diag)
                                                  : byoc__kernel_run_constants(m, n, ins, diag);
                if (!val[i]) {
                    char why[BYOC_DIAG_MESSAGE_MAX];
                    snprintf(why, sizeof why, "%s", diag->message);
                    byoc__diag(diag, diag->code ? diag->code : BYOC_ERR_INTERNAL, byoc_node_span(n)->line,
                               byoc_node_span(n)->col, n->id, "evaluate: %s", why);
                    ok = 0;
                }
            } else {
                const byoc_runtime_module *rm =
                    n->callee->kind == BYOC_NODE_GLOBAL_VAR ? byoc_module_runtime(m, n->callee->name) : NULL;
                byoc_node *callee =
                    n->callee->kind == BYOC_NODE_GLOBAL_VAR ? byoc_module_function(m, n->callee->name) : n->callee;
                if (rm) { /* a compiled partition */
                    if (rm->run(rm->state, m, ins, n->nargs, &val[i], diag) != BYOC_OK) ok = 0;
                } else if (!callee || callee->kind != BYOC_NODE_FUNCTION) {
                    byoc__diag(diag, BYOC_ERR_UNSUPPORTED, byoc_node_span(n)->line, byoc_node_span(n)->col, n->id,
                               "evaluate: calls of a function value are not supported");
                    ok = 0;
                } else val[i] = byoc__eval_function(m, callee, ins, n->nargs, depth + 1, diag);
            }
            break;
        }
        if (ok && !val[i]) {
            if (!diag->code)
                byoc__diag(diag, m->has_error ? m->error.code : BYOC_ERR_INTERNAL, 0, 0, n->id, "evaluate: %s",
                           m->has_error ? m->error.message : "failed");
            ok = 0;
        }
    }
    byoc_node *r = ok && g.count ? val[g.count - 1] : NULL;
    stbds_arrfree(ins);
    BYOC_FREE(val);
    byoc_graph_free(&g);
    return r;
}

BYOC_API byoc_result byoc_module_evaluate(byoc_module *m, byoc_node *const *inputs, int ninputs, byoc_node **output,
                                          byoc_diag *diag) {
    if (output) *output = NULL;
    if (!m) return byoc__null_arg(diag, __func__, "module");
    *output = NULL;
    byoc_result r = byoc_infer_type(m, diag);
    if (r != BYOC_OK) return r;
    byoc_node *main_fn = byoc_module_function(m, "main");
    if (!main_fn) return byoc__diag(diag, BYOC_ERR_NOT_FOUND, 0, 0, 0, "evaluate: the module has no @main");
    for (int i = 0; i < ninputs && i < main_fn->nparams; ++i)
        if (!inputs[i] || inputs[i]->kind != BYOC_NODE_CONSTANT ||
            !byoc__type_fits(inputs[i]->annotation, main_fn->params[i]->checked_type))
            return byoc__diag(diag, BYOC_ERR_TYPE, 0, 0, 0, "evaluate: input %d must be a constant of type of %%%s", i,
                              main_fn->params[i]->name);
    memset(diag, 0, sizeof *diag);
    *output = byoc__eval_function(m, main_fn, inputs, ninputs, 0, diag);
    return *output ? BYOC_OK : (diag->code ? diag->code : BYOC_ERR_INTERNAL);
}

// [SECTION] impl: placement (greedy partitioner, report)
/* (origin, backend) as one map key; backends are at most BYOC__MAX_BACKENDS */
#define BYOC__MAX_BACKENDS 64
BYOC__PRIVATE const void *byoc__ob_key(uint32_t origin, int backend) {
    return (const void *)(((uintptr_t)origin << 7) | (uintptr_t)(backend + 1));
}

typedef struct byoc__report_builder {
    byoc_placement *nodes;   /* stb_ds */
    byoc__map index;         /* origin -> index + 1 */
} byoc__report_builder;

typedef struct byoc__greedy {
    byoc_module *m;
    const byoc__report_builder *rb; /* the input's ops, for names in messages */
    const byoc_partition_options *o;
    const byoc_backend_spec *order[BYOC__MAX_BACKENDS];
    int n, k;                 /* backends in the order tried; the one being placed */
    byoc__map pin;            /* origin -> backend index + 1, or n + 1 for the host */
    byoc__map declined;       /* (origin, backend) -> reason (interned in the report arena) */
    byoc__map excluded;       /* (origin, backend) -> reason: dropped partitions */
    byoc__map noted;          /* (origin, backend) -> the note of the first refused match it was in */
    const byoc_op **ops;      /* the backend being placed: its supported ops (byoc__support_ops) */
    byoc_module *arena;       /* the report's strings */
    byoc_diag pin_error;      /* a pinned op its backend declines */
    int failed;
} byoc__greedy;

typedef struct byoc__greedy_entry { byoc__greedy *g; const byoc_pattern_entry *entry; } byoc__greedy_entry;

BYOC__PRIVATE const char *byoc__pin_name(const byoc__greedy *g, intptr_t pin) {
    return pin == g->n + 1 ? "host" : g->order[pin - 1]->name;
}

/* a composite match of the backend being placed: refused when it would take a node pinned elsewhere
   or one whose partition this backend gave up */
BYOC__PRIVATE int byoc__greedy_check(const byoc_match *mt, byoc_node *root, void *user_data) {
    const byoc__greedy_entry *ge = (const byoc__greedy_entry *)user_data;
    byoc__greedy *g = ge->g;
    for (int i = 0; i < (int)stbds_arrlen(mt->memo); ++i) {
        if (!byoc__pat_is_interior(mt->memo[i].p)) continue;
        uint32_t origin = byoc_node_origin(mt->memo[i].e);
        intptr_t pin = byoc__map_get(&g->pin, (const void *)(uintptr_t)origin, 0);
        if (pin && pin != g->k + 1) return 0;
        if (byoc__map_has(&g->excluded, byoc__ob_key(origin, g->k))) return 0;
    }
    char why[300], note[700];
    const byoc_node *bad = byoc__match_declined(g->order[g->k], g->ops, ge->entry, mt, root, why, sizeof why);
    if (bad) { /* each op of the match keeps the first refusal's note, for its reason should it be declined alone */
        intptr_t at = byoc__map_get(&g->rb->index, (const void *)(uintptr_t)byoc_node_origin(bad), 0);
        const char *label = at ? g->rb->nodes[at - 1].label : NULL;
        for (int i = 0; i < byoc__match_size(mt); ++i) {
            const byoc_node *x = byoc__match_op_call(mt, i);
            const void *key = x ? byoc__ob_key(byoc_node_origin(x), g->k) : NULL;
            if (!x || byoc__map_has(&g->noted, key)) continue;
            byoc__pattern_note(note, sizeof note, ge->entry->name, x, bad, label, why);
            byoc__map_put(&g->noted, key, (intptr_t)byoc_intern(g->arena, note));
        }
        return 0;
    }
    return ge->entry->check ? ge->entry->check(mt, root, ge->entry->user_data) : 1;
}

BYOC__PRIVATE void byoc__greedy_decline(byoc__greedy *g, uint32_t origin, const char *reason) {
    byoc__map_put(&g->declined, byoc__ob_key(origin, g->k), (intptr_t)byoc_intern(g->arena, reason));
}

BYOC__PRIVATE const char *byoc__greedy_choose(byoc_node *n, void *user_data) {
    byoc__greedy *g = (byoc__greedy *)user_data;
    const byoc_backend_spec *b = g->order[g->k];
    if (!n->op) return byoc__composite_of(n, b->name) ? b->name : NULL; /* byoc__greedy_check vetted the match */
    uint32_t origin = byoc_node_origin(n);
    intptr_t pin = byoc__map_get(&g->pin, (const void *)(uintptr_t)origin, 0);
    char reason[1000];
    if (pin && pin != g->k + 1) {
        snprintf(reason, sizeof reason, "pinned to %s", byoc__pin_name(g, pin));
        byoc__greedy_decline(g, origin, reason);
        return NULL;
    }
    intptr_t dropped = byoc__map_get(&g->excluded, byoc__ob_key(origin, g->k), 0);
    if (dropped) {
        byoc__greedy_decline(g, origin, (const char *)dropped);
        return NULL;
    }
    if (!byoc_backend_accepts(b, n, reason, sizeof reason)) {
        intptr_t note = byoc__map_get(&g->noted, byoc__ob_key(origin, g->k), 0);
        if (note) byoc__add_pattern_note(reason, sizeof reason, (const char *)note);
        if (pin && !g->failed) {
            intptr_t at = byoc__map_get(&g->rb->index, (const void *)(uintptr_t)origin, 0);
            const byoc_placement *pl = at ? &g->rb->nodes[at - 1] : NULL;
            byoc__diag(&g->pin_error, BYOC_ERR_UNSUPPORTED, byoc_node_span(n)->line, byoc_node_span(n)->col, origin,
                       "%s %s%s%s%s in @%s is pinned to %s, which declines it: %s", n->op->def.name,
                       pl ? pl->label : "", pl && pl->source ? " (" : "", pl && pl->source ? pl->source : "",
                       pl && pl->source ? ")" : "", pl ? pl->function : "?", b->name, reason);
            g->failed = 1;
        }
        byoc__greedy_decline(g, origin, reason);
        return NULL;
    }
    return b->name;
}

/* op calls inside expr (entering function literals), counted, with their origins appended */
BYOC__PRIVATE int byoc__count_ops(byoc_node *expr, uint32_t **origins) {
    byoc_node **order = NULL;
    byoc__post_order_marked(expr, BYOC_GRAPH_ENTER_FUNCTIONS, &order);
    int n = 0;
    for (int i = 0; i < (int)stbds_arrlen(order); ++i) {
        byoc_node *x = order[i];
        if (!byoc__is_op_call(x)) continue;
        n++;
        if (origins) stbds_arrput(*origins, byoc_node_origin(x));
    }
    stbds_arrfree(order);
    return n;
}

typedef struct byoc__region_info { int region, ops, first; uint32_t *members; } byoc__region_info;

BYOC__PRIVATE int byoc__region_size_cmp(const void *a, const void *b) {
    const byoc__region_info *x = (const byoc__region_info *)a, *y = (const byoc__region_info *)b;
    if (x->ops != y->ops) return y->ops - x->ops;
    return x->first - y->first;
}

/* After MergeCompilerRegions for backend k: regions that are too small, or beyond the partition budget,
   are excluded for k. Returns how many nodes were newly excluded. */
BYOC__PRIVATE int byoc__greedy_drop(byoc__greedy *g, int budget) {
    byoc_module *m = g->m;
    const char *name = g->order[g->k]->name;
    byoc__region_info *infos = NULL;
    for (int f = 0; f < byoc_module_function_count(m); ++f) {
        byoc_node *fn = m->functions[f].function;
        if (byoc__has_compiler(fn)) continue;
        byoc_graph gr;
        byoc__regions rs;
        if (byoc_graph_build(m, fn->body, 0, &gr) != BYOC_OK) continue;
        if (!byoc__regions_build(&gr, &rs)) { byoc__regions_free(&rs); byoc_graph_free(&gr); continue; }
        byoc__map info_of = BYOC__MAP_EMPTY; /* region + 1 -> index in infos + 1 */
        for (int i = 0; i < gr.count; ++i) {
            byoc_node *x = gr.nodes[i].node;
            if (rs.of[i] < 0 || byoc__is_begin(x) || byoc__is_end(x) || x->kind != BYOC_NODE_CALL) continue;
            int reg = byoc__region_find(&rs, rs.of[i]);
            if (strcmp(rs.target[reg], name)) continue;
            int at = (int)byoc__map_get(&info_of, (const void *)(intptr_t)(reg + 1), 0) - 1;
            if (at < 0) {
                byoc__region_info ri;
                memset(&ri, 0, sizeof ri);
                ri.region = reg;
                ri.first = (int)stbds_arrlen(infos);
                stbds_arrput(infos, ri);
                at = (int)stbds_arrlen(infos) - 1;
                byoc__map_put(&info_of, (const void *)(intptr_t)(reg + 1), at + 1);
            }
            if (x->op) { /* one op */
                infos[at].ops++;
                stbds_arrput(infos[at].members, byoc_node_origin(x));
            } else if (x->callee->kind == BYOC_NODE_FUNCTION) /* a composite: the ops in its body */
                infos[at].ops += byoc__count_ops(x->callee->body, &infos[at].members);
        }
        byoc__map_free(&info_of);
        byoc__regions_free(&rs);
        byoc_graph_free(&gr);
    }
    int newly = 0, kept = 0, count = (int)stbds_arrlen(infos);
    if (count) qsort(infos, (size_t)count, sizeof *infos, byoc__region_size_cmp);
    char reason[200];
    for (int q = 0; q < count; ++q) {
        reason[0] = 0;
        if (g->o->min_partition_ops > 0 && infos[q].ops < g->o->min_partition_ops)
            snprintf(reason, sizeof reason, "its partition would hold %d op%s, below --min-partition-ops %d",
                     infos[q].ops, infos[q].ops == 1 ? "" : "s", g->o->min_partition_ops);
        else if (budget >= 0 && kept >= budget)
            snprintf(reason, sizeof reason, "--max-partitions %d reached (larger partitions kept)",
                     g->o->max_partitions);
        else kept++;
        for (int t = 0; reason[0] && t < (int)stbds_arrlen(infos[q].members); ++t) {
            const void *key = byoc__ob_key(infos[q].members[t], g->k);
            if (byoc__map_has(&g->excluded, key)) continue;
            byoc__map_put(&g->excluded, key, (intptr_t)byoc_intern(g->arena, reason));
            newly++;
        }
    }
    for (int q = 0; q < count; ++q) stbds_arrfree(infos[q].members);
    stbds_arrfree(infos);
    return newly;
}

/* the printer's %N for every bound node of fn */
BYOC__PRIVATE void byoc__label_all(byoc_module *m, byoc_node *fn, byoc__map *out) {
    byoc__printer p;
    byoc__printer_init(&p, m, BYOC_PRINT_NO_SPANS);
    byoc__print_block(&p, fn, 0);
    for (size_t i = 0; i < p.names.cap; ++i)
        if (p.names.slots[i].key && ((byoc_node *)p.names.slots[i].key)->kind == BYOC_NODE_CALL)
            byoc__map_put(out, (const void *)p.names.slots[i].key, p.names.slots[i].val);
    byoc_free(m, p.out.data);
    byoc__printer_free(&p);
}

/* every op call of the input, with label, frontend name and the ops it reads */
BYOC__PRIVATE void byoc__collect_ops(byoc_module *m, byoc_module *arena, byoc__report_builder *rb) {
    for (int f = 0; f < byoc_module_function_count(m); ++f) {
        byoc_node *fn = m->functions[f].function;
        if (byoc__has_compiler(fn)) continue;
        byoc__map labels = BYOC__MAP_EMPTY;
        byoc__label_all(m, fn, &labels);
        byoc_node **order = NULL;
        byoc__post_order_marked(fn->body, BYOC_GRAPH_ENTER_FUNCTIONS, &order);
        for (int i = 0; i < (int)stbds_arrlen(order); ++i) {
            byoc_node *x = order[i];
            if (!byoc__is_op_call(x)) continue;
            if (byoc__map_has(&rb->index, (const void *)(uintptr_t)byoc_node_origin(x))) continue;
            byoc_placement pl;
            memset(&pl, 0, sizeof pl);
            pl.origin = byoc_node_origin(x);
            pl.function = byoc_intern(arena, m->functions[f].name);
            char label[32];
            intptr_t k = byoc__map_get(&labels, x, -1);
            if (k >= 0) snprintf(label, sizeof label, "%%%d", (int)k);
            else snprintf(label, sizeof label, x == fn->body ? "result" : "#%u", (unsigned)pl.origin);
            pl.label = byoc_intern(arena, label);
            pl.op = byoc_intern(arena, x->op->def.name);
            pl.source = byoc_node_span(x)->source ? byoc_intern(arena, byoc_node_span(x)->source) : NULL;
            pl.backend = "host";
            /* producers: through tuples and projections to the ops behind them */
            uint32_t *ins = NULL;
            byoc_node **work = NULL;
            for (int a = 0; a < x->nargs; ++a) stbds_arrput(work, x->args[a]);
            while (stbds_arrlen(work)) {
                byoc_node *y = stbds_arrpop(work);
                if (y->kind == BYOC_NODE_TUPLE || y->kind == BYOC_NODE_TUPLE_GET_ITEM || byoc__is_begin(y) ||
                    byoc__is_end(y)) {
                    for (int a = 0; a < y->nargs; ++a) stbds_arrput(work, y->args[a]);
                } else if (y->kind == BYOC_NODE_CALL && y->op) {
                    uint32_t o = byoc_node_origin(y);
                    int dup = 0;
                    for (int q = 0; q < (int)stbds_arrlen(ins); ++q) dup |= ins[q] == o;
                    if (!dup) stbds_arrput(ins, o);
                }
            }
            stbds_arrfree(work);
            if (stbds_arrlen(ins)) {
                uint32_t *kept = BYOC__NEW_N(arena, uint32_t, stbds_arrlen(ins));
                if (kept) memcpy(kept, ins, sizeof(uint32_t) * (size_t)stbds_arrlen(ins));
                pl.inputs = kept;
                pl.ninputs = (int)stbds_arrlen(ins);
            }
            stbds_arrfree(ins);
            stbds_arrput(rb->nodes, pl);
            byoc__map_put(&rb->index, (const void *)(uintptr_t)pl.origin, (intptr_t)stbds_arrlen(rb->nodes));
        }
        stbds_arrfree(order);
        byoc__map_free(&labels);
    }
}

/* where each op ended up: walk every global function of the result (composite bodies too); with
   estimate, each partition is priced by its backend's estimate_cost */
BYOC__PRIVATE void byoc__locate_ops(byoc_module *m, byoc_module *arena, byoc__report_builder *rb,
                                    byoc_partition_summary **parts, int estimate) {
    for (int f = 0; f < byoc_module_function_count(m); ++f) {
        byoc_node *fn = m->functions[f].function;
        const char *compiler = byoc_attrs_string(&fn->attrs, "Compiler", NULL);
        const char *fname = byoc_intern(arena, m->functions[f].name);
        byoc_node **order = NULL;
        byoc__post_order_marked(fn->body, 0, &order);
        int nops = 0;
        for (int i = 0; i < (int)stbds_arrlen(order); ++i) {
            byoc_node *x = order[i];
            if (x->kind != BYOC_NODE_CALL) continue;
            const char *composite = NULL;
            byoc_node **inner = NULL;
            if (!x->op && x->callee->kind == BYOC_NODE_FUNCTION) {
                composite = byoc_attrs_string(&x->callee->attrs, "Composite", NULL);
                byoc__post_order_marked(x->callee->body, BYOC_GRAPH_ENTER_FUNCTIONS, &inner);
            } else if (x->op)
                stbds_arrput(inner, x);
            for (int q = 0; q < (int)stbds_arrlen(inner); ++q) {
                byoc_node *y = inner[q];
                if (!byoc__is_op_call(y)) continue;
                nops++;
                intptr_t at = byoc__map_get(&rb->index, (const void *)(uintptr_t)byoc_node_origin(y), 0);
                if (!at) continue;
                byoc_placement *pl = &rb->nodes[at - 1];
                if (pl->partition && !compiler)
                    continue; /* a copy left on the host by duplication: the partition wins */
                pl->backend = compiler ? byoc_intern(arena, compiler) : "host";
                pl->partition = compiler ? fname : NULL;
                pl->composite = composite ? byoc_intern(arena, composite) : NULL;
            }
            stbds_arrfree(inner);
        }
        stbds_arrfree(order);
        if (compiler) {
            byoc_partition_summary ps = {fname, byoc_intern(arena, compiler), nops, -1.0};
            const byoc_backend *b = byoc_backend_get(compiler);
            if (estimate && b && b->estimate_cost) { /* on the kind's default target */
                byoc_diag d;
                byoc_target *t = byoc_target_parse(compiler, &d);
                if (t && byoc__target_push(t)) {
                    ps.estimated_cost = b->estimate_cost(m, fn, t, b->user_data);
                    byoc__target_pop();
                }
                byoc_target_free(t);
            }
            stbds_arrput(*parts, ps);
        }
    }
}

/* "npu: unsupported op; dsp: dtype=int8 (...)" */
BYOC__PRIVATE void byoc__write_declines(byoc__buf *b, const byoc_placement *pl) {
    for (int k = 0; k < pl->ndeclined; ++k)
        byoc__buf_printf(b, "%s%s: %s", k ? "; " : "", pl->declined[k].backend, pl->declined[k].reason);
}

BYOC_API void byoc_placement_report_free(byoc_placement_report *r) {
    if (!r) return;
    byoc_module *arena = r->arena;
    BYOC_FREE(r);
    byoc_module_destroy(arena);
}

/* the backends of a partitioning call: at most BYOC__MAX_BACKENDS, distinct, none named host or default */
BYOC__PRIVATE byoc_result byoc__check_backends(const byoc_backend_spec *const *backends, int n, byoc_diag *diag) {
    if (n < 0 || n > BYOC__MAX_BACKENDS)
        return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "partition: between 0 and %d backends",
                          BYOC__MAX_BACKENDS);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < i; ++j)
            if (!strcmp(backends[i]->name, backends[j]->name))
                return byoc__diag(diag, BYOC_ERR_DUPLICATE, 0, 0, 0, "partition: backend '%s' is given twice",
                                  backends[i]->name);
    for (int i = 0; i < n; ++i)
        if (strlen(backends[i]->name) > BYOC_MAX_BACKEND_NAME)
            return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                              "partition: backend name '%.32s...' is longer than %d characters", backends[i]->name,
                              BYOC_MAX_BACKEND_NAME);
    for (int i = 0; i < n; ++i)
        if (!strcmp(backends[i]->name, "host") || !strcmp(backends[i]->name, "default"))
            return byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                              "partition: '%s' is reserved for the host and cannot name a backend", backends[i]->name);
    return BYOC_OK;
}

/* Resolves pins against the input's ops: put(origin, backend index + 1, with n + 1 for the host). */
BYOC__PRIVATE byoc_result byoc__resolve_pins(const byoc_pin *pins, int npins, const byoc_backend_spec *const *order,
                                             int n, const byoc__report_builder *rb, byoc__map *out, byoc_diag *diag) {
    for (int i = 0; i < npins; ++i) {
        const byoc_pin *pin = &pins[i];
        intptr_t to = 0;
        if (!strcmp(pin->backend, "host")) to = n + 1;
        for (int k = 0; k < n && !to; ++k)
            if (!strcmp(order[k]->name, pin->backend)) to = k + 1;
        if (!to)
            return byoc__diag(diag, BYOC_ERR_NOT_FOUND, 0, 0, 0, "pin %s=%s: no backend named '%s' is given", pin->node,
                              pin->backend, pin->backend);
        int found = 0;
        for (int q = 0; q < (int)stbds_arrlen(rb->nodes); ++q) {
            const byoc_placement *pl = &rb->nodes[q];
            char id[16];
            snprintf(id, sizeof id, "#%u", (unsigned)pl->origin);
            int hit = (pl->source && !strcmp(pl->source, pin->node)) ||
                      (!strcmp(pl->function, "main") && !strcmp(pl->label, pin->node)) || !strcmp(id, pin->node);
            if (!hit) continue;
            found = 1;
            byoc__map_put(out, (const void *)(uintptr_t)pl->origin, to);
        }
        if (!found)
            return byoc__diag(diag, BYOC_ERR_NOT_FOUND, 0, 0, 0,
                              "pin %s=%s: no op is named '%s' (use a frontend name, a %%N label of @main or #ID)",
                              pin->node, pin->backend, pin->node);
    }
    return BYOC_OK;
}

/* the report from its parts; the arena passes to the report (NULL afterwards) */
BYOC__PRIVATE byoc_result byoc__report_make(byoc_module **arena, const byoc__report_builder *rb,
                                            const byoc_partition_summary *parts, const byoc_backend_spec *const *order,
                                            int n, byoc_placement_report **report, byoc_diag *diag) {
    byoc_placement_report *rep = BYOC__CAST(byoc_placement_report *, BYOC_CALLOC(1, sizeof *rep));
    int count = (int)stbds_arrlen(rb->nodes), np = (int)stbds_arrlen(parts);
    byoc_placement *nodes = BYOC__NEW_N(*arena, byoc_placement, count + 1);
    byoc_partition_summary *ps = BYOC__NEW_N(*arena, byoc_partition_summary, np + 1);
    const char **names = BYOC__NEW_N(*arena, const char *, n + 1);
    const char **notes = BYOC__NEW_N(*arena, const char *, n + 1);
    if (!rep || !nodes || !ps || !names || !notes) {
        BYOC_FREE(rep);
        return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
    }
    if (count) memcpy(nodes, rb->nodes, sizeof(byoc_placement) * (size_t)count);
    if (np) memcpy(ps, parts, sizeof(byoc_partition_summary) * (size_t)np);
    for (int k = 0; k < n; ++k)
        names[k] = byoc_intern(*arena, order[k]->name),
        notes[k] = order[k]->library ? "a library backend: host kernels" : NULL;
    names[n] = "host";
    notes[n] = NULL;
    rep->backend_notes = notes;
    rep->nodes = nodes;
    rep->count = count;
    rep->partitions = ps;
    rep->npartitions = np;
    rep->backends = names;
    rep->nbackends = n + 1;
    rep->arena = *arena;
    *arena = NULL;
    *report = rep;
    return BYOC_OK;
}

BYOC_API byoc_result byoc_partition_greedy(byoc_module *m, const byoc_partition_options *o,
                                           byoc_placement_report **report, byoc_diag *diag) {
    byoc_diag local;
    if (!diag) diag = &local;
    memset(diag, 0, sizeof *diag);
    if (report) *report = NULL;
    if (!m || !o) return byoc__null_arg(diag, __func__, !m ? "module" : "options");
    byoc_result r = byoc__check_backends(o->backends, o->nbackends, diag);
    if (r == BYOC_OK) r = byoc_infer_type(m, diag);
    if (r != BYOC_OK) return r;
    byoc__greedy g;
    memset(&g, 0, sizeof g);
    g.m = m;
    g.o = o;
    g.n = o->nbackends;
    g.arena = byoc_module_create(NULL);
    if (!g.arena) return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
    for (int i = 0; i < g.n; ++i) g.order[i] = o->backends[i];
    for (int i = 1; i < g.n; ++i) /* stable: descending priority, then as given */
        for (int j = i; j > 0 && g.order[j]->priority > g.order[j - 1]->priority; --j) {
            const byoc_backend_spec *t = g.order[j];
            g.order[j] = g.order[j - 1];
            g.order[j - 1] = t;
        }
    byoc__report_builder rb;
    memset(&rb, 0, sizeof rb);
    byoc__collect_ops(m, g.arena, &rb);
    g.rb = &rb;
    if (r == BYOC_OK) r = byoc__resolve_pins(o->pins, o->npins, g.order, g.n, &rb, &g.pin, diag);
    int made = 0; /* partitions so far */
    for (g.k = 0; r == BYOC_OK && g.k < g.n; ++g.k) {
        const byoc_backend_spec *b = g.order[g.k];
        int nf = byoc_module_function_count(m);
        byoc_node **saved = BYOC__CAST(byoc_node **, BYOC_MALLOC(sizeof(byoc_node *) * (size_t)(nf + 1)));
        byoc__greedy_entry *wrapped =
            BYOC__CAST(byoc__greedy_entry *, BYOC_MALLOC(sizeof(byoc__greedy_entry) * (size_t)(b->npatterns + 1)));
        byoc_pattern_entry *table =
            BYOC__CAST(byoc_pattern_entry *, BYOC_MALLOC(sizeof(byoc_pattern_entry) * (size_t)(b->npatterns + 1)));
        if (!saved || !wrapped || !table) r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        for (int f = 0; r == BYOC_OK && f < nf; ++f) saved[f] = m->functions[f].function;
        g.ops = byoc__support_ops(b);
        for (int e = 0; r == BYOC_OK && e < b->npatterns; ++e) {
            wrapped[e].g = &g;
            wrapped[e].entry = &b->patterns[e];
            table[e] = b->patterns[e];
            table[e].check = byoc__greedy_check;
            table[e].user_data = &wrapped[e];
        }
        for (int round = 0; r == BYOC_OK; ++round) {
            if (round) /* undo this backend's composites and annotations, then try again with the drops */
                for (int f = 0; f < nf; ++f) m->functions[f].function = saved[f];
            r = byoc_merge_composite(m, table, b->npatterns, diag);
            /* tuples and projections stay on the host: a partition holds ops (and their composites) */
            if (r == BYOC_OK) r = byoc__annotate_target(m, byoc__greedy_choose, &g, 0, diag);
            if (r == BYOC_OK && g.failed) {
                *diag = g.pin_error;
                r = diag->code;
            }
            if (r == BYOC_OK && !o->no_merge_regions) r = byoc_merge_compiler_regions(m, diag);
            if (r != BYOC_OK) break;
            int budget = o->max_partitions > 0 ? (o->max_partitions > made ? o->max_partitions - made : 0) : -1;
            if (!byoc__greedy_drop(&g, budget)) break;
        }
        if (r == BYOC_OK) r = byoc_partition_graph(m, o->mod_name ? o->mod_name : "default", o->bind_constants, diag);
        if (r == BYOC_OK) made += byoc_module_function_count(m) - nf;
        BYOC_FREE(saved);
        BYOC_FREE(wrapped);
        BYOC_FREE(table);
        BYOC_FREE(g.ops);
        g.ops = NULL;
    }
    byoc_partition_summary *parts = NULL;
    if (r == BYOC_OK) byoc__locate_ops(m, g.arena, &rb, &parts, report != NULL);
    /* the reasons of the backends tried before the one chosen */
    for (int q = 0; r == BYOC_OK && q < (int)stbds_arrlen(rb.nodes); ++q) {
        byoc_placement *pl = &rb.nodes[q];
        byoc_placement_decline *ds = BYOC__NEW_N(g.arena, byoc_placement_decline, g.n + 1);
        if (!ds) break;
        for (int k = 0; k < g.n && strcmp(g.order[k]->name, pl->backend); ++k) {
            const char *why = (const char *)byoc__map_get(&g.declined, byoc__ob_key(pl->origin, k), 0);
            ds[pl->ndeclined].backend = g.order[k]->name;
            ds[pl->ndeclined].reason = why ? why : "not offered (part of another backend's composite or partition)";
            pl->ndeclined++;
        }
        pl->declined = ds;
    }
    if (r == BYOC_OK && o->no_fallback)
        for (int q = 0; q < (int)stbds_arrlen(rb.nodes); ++q) {
            const byoc_placement *pl = &rb.nodes[q];
            if (strcmp(pl->backend, "host")) continue;
            byoc__buf why;
            memset(&why, 0, sizeof why);
            why.m = g.arena;
            byoc__write_declines(&why, pl);
            r = byoc__diag(diag, BYOC_ERR_UNSUPPORTED, 0, 0, pl->origin,
                           "%s %s%s%s%s in @%s has no backend (--no-fallback): %s", pl->op, pl->label,
                           pl->source ? " (" : "", pl->source ? pl->source : "", pl->source ? ")" : "", pl->function,
                           why.data ? why.data : "no backends given");
            byoc_free(g.arena, why.data);
            break;
        }
    if (r == BYOC_OK && report) r = byoc__report_make(&g.arena, &rb, parts, g.order, g.n, report, diag);
    stbds_arrfree(parts);
    stbds_arrfree(rb.nodes);
    byoc__map_free(&rb.index);
    byoc__map_free(&g.pin);
    byoc__map_free(&g.declined);
    byoc__map_free(&g.excluded);
    byoc__map_free(&g.noted);
    byoc_module_destroy(g.arena);
    if (r == BYOC_OK && m->has_error) r = byoc__diag(diag, m->error.code, 0, 0, 0, "partition: %s", m->error.message);
    return r;
}

/* ---- report formats ---- */
BYOC__PRIVATE int byoc__backend_rank(const byoc_placement_report *r, const char *backend) {
    for (int k = 0; k < r->nbackends; ++k)
        if (!strcmp(r->backends[k], backend)) return k;
    return r->nbackends - 1;
}

typedef struct byoc__host_group { const char *op; char *why; int count; } byoc__host_group;
BYOC__PRIVATE int byoc__host_group_cmp(const void *a, const void *b) {
    const byoc__host_group *x = (const byoc__host_group *)a, *y = (const byoc__host_group *)b;
    if (x->count != y->count) return y->count - x->count;
    int c = strcmp(x->op, y->op);
    return c ? c : strcmp(x->why, y->why);
}

BYOC__PRIVATE void byoc__write_summary(byoc__buf *b, const byoc_placement_report *r) {
    int total = r->count, placed_any = 0;
    for (int k = 0; k + 1 < r->nbackends; ++k) {
        int ops = 0, parts = 0;
        for (int q = 0; q < r->count; ++q) ops += !strcmp(r->nodes[q].backend, r->backends[k]);
        for (int q = 0; q < r->npartitions; ++q) parts += !strcmp(r->partitions[q].backend, r->backends[k]);
        if (!ops) continue;
        const char *note = r->backend_notes ? r->backend_notes[k] : NULL;
        if (!placed_any)
            byoc__buf_printf(b, "%d of %d ops on %s%s%s%s in %d partition%s", ops, total, r->backends[k],
                             note ? " (" : "", note ? note : "", note ? ")" : "", parts, parts == 1 ? "" : "s");
        else
            byoc__buf_printf(b, ", %d on %s%s%s%s in %d partition%s", ops, r->backends[k], note ? " (" : "",
                             note ? note : "", note ? ")" : "", parts, parts == 1 ? "" : "s");
        placed_any = 1;
    }
    int host = 0;
    for (int q = 0; q < r->count; ++q) host += !strcmp(r->nodes[q].backend, "host");
    if (!placed_any) byoc__buf_printf(b, "0 of %d ops on a backend", total);
    byoc__buf_printf(b, "; %d on host", host);
    if (!host) { byoc__buf_puts(b, "\n"); return; }
    byoc__host_group *groups = NULL;
    for (int q = 0; q < r->count; ++q) {
        const byoc_placement *pl = &r->nodes[q];
        if (strcmp(pl->backend, "host")) continue;
        byoc__buf why;
        memset(&why, 0, sizeof why);
        why.m = r->arena;
        byoc__write_declines(&why, pl);
        const char *w = why.data ? why.data : "";
        int at = -1;
        for (int k = 0; k < (int)stbds_arrlen(groups) && at < 0; ++k)
            if (!strcmp(groups[k].op, pl->op) && !strcmp(groups[k].why, w)) at = k;
        if (at >= 0) { groups[at].count++; byoc_free(r->arena, why.data); continue; }
        byoc__host_group hg = {pl->op, why.data, 1};
        if (!hg.why) hg.why = (char *)"";
        stbds_arrput(groups, hg);
    }
    int ng = (int)stbds_arrlen(groups);
    if (ng) qsort(groups, (size_t)ng, sizeof *groups, byoc__host_group_cmp);
    byoc__buf_puts(b, ":");
    for (int k = 0; k < ng; ++k) {
        byoc__buf_printf(b, "%s %d x %s", k ? "," : "", groups[k].count, groups[k].op);
        if (groups[k].why[0]) byoc__buf_printf(b, " (%s)", groups[k].why);
        if (groups[k].why[0]) byoc_free(r->arena, groups[k].why);
    }
    byoc__buf_puts(b, "\n");
    stbds_arrfree(groups);
}

BYOC_API char *byoc_placement_report_format(const byoc_placement_report *r, const char *format, size_t *len) {
    if (!r) return NULL;
    byoc__buf b;
    memset(&b, 0, sizeof b);
    b.m = r->arena;
    if (!strcmp(format, "report")) {
        byoc__buf_puts(&b, "backends, in the order tried:");
        for (int k = 0; k < r->nbackends; ++k) byoc__buf_printf(&b, " %s", r->backends[k]);
        byoc__buf_printf(&b, "\n\n%-8s %-22s %-20s %-8s %-30s %s\n", "node", "op", "frontend", "backend", "partition",
                         "declined by");
        for (int q = 0; q < r->count; ++q) {
            const byoc_placement *pl = &r->nodes[q];
            char node[64];
            if (strcmp(pl->function, "main")) snprintf(node, sizeof node, "@%s:%s", pl->function, pl->label);
            else snprintf(node, sizeof node, "%s", pl->label);
            byoc__buf_printf(&b, "%-8s %-22s %-20s %-8s %-30s ", node, pl->op, pl->source ? pl->source : "-",
                             pl->backend, pl->partition ? pl->partition : "-");
            if (pl->ndeclined) byoc__write_declines(&b, pl);
            else if (!pl->composite) byoc__buf_puts(&b, "-");
            if (pl->composite) byoc__buf_printf(&b, "%s(in composite %s)", pl->ndeclined ? " " : "", pl->composite);
            byoc__buf_puts(&b, "\n");
        }
        if (r->npartitions) {
            byoc__buf_printf(&b, "\n%-30s %-8s %5s  %s\n", "partition", "backend", "ops", "estimated cost");
            for (int p = 0; p < r->npartitions; ++p) {
                const byoc_partition_summary *ps = &r->partitions[p];
                byoc__buf_printf(&b, "%-30s %-8s %5d  ", ps->function, ps->backend, ps->nops);
                if (ps->estimated_cost >= 0) byoc__buf_printf(&b, "%.3g us\n", ps->estimated_cost * 1e6);
                else byoc__buf_puts(&b, "- (no estimator)\n");
            }
        }
        byoc__buf_puts(&b, "\n");
        byoc__write_summary(&b, r);
    } else if (!strcmp(format, "json")) {
        byoc__buf_puts(&b, "{\"backends\": [");
        for (int k = 0; k < r->nbackends; ++k) { if (k) byoc__buf_puts(&b, ", "); byoc__json_str(&b, r->backends[k]); }
        byoc__buf_puts(&b, "],\n \"nodes\": [");
        for (int q = 0; q < r->count; ++q) {
            const byoc_placement *pl = &r->nodes[q];
            byoc__buf_printf(&b, "%s\n  {\"id\": %u, \"function\": ", q ? "," : "", (unsigned)pl->origin);
            byoc__json_str(&b, pl->function);
            byoc__buf_puts(&b, ", \"label\": ");
            byoc__json_str(&b, pl->label);
            byoc__buf_puts(&b, ", \"op\": ");
            byoc__json_str(&b, pl->op);
            byoc__buf_puts(&b, ", \"source\": ");
            byoc__json_str(&b, pl->source);
            byoc__buf_puts(&b, ", \"backend\": ");
            byoc__json_str(&b, pl->backend);
            byoc__buf_puts(&b, ", \"partition\": ");
            byoc__json_str(&b, pl->partition);
            byoc__buf_puts(&b, ", \"composite\": ");
            byoc__json_str(&b, pl->composite);
            byoc__buf_puts(&b, ", \"inputs\": [");
            for (int k = 0; k < pl->ninputs; ++k) byoc__buf_printf(&b, "%s%u", k ? ", " : "", (unsigned)pl->inputs[k]);
            byoc__buf_puts(&b, "], \"declined\": [");
            for (int k = 0; k < pl->ndeclined; ++k) {
                byoc__buf_puts(&b, k ? ", {\"backend\": " : "{\"backend\": ");
                byoc__json_str(&b, pl->declined[k].backend);
                byoc__buf_puts(&b, ", \"reason\": ");
                byoc__json_str(&b, pl->declined[k].reason);
                byoc__buf_puts(&b, "}");
            }
            byoc__buf_puts(&b, "]}");
        }
        byoc__buf_puts(&b, "\n ],\n \"partitions\": [");
        for (int p = 0; p < r->npartitions; ++p) {
            const byoc_partition_summary *ps = &r->partitions[p];
            byoc__buf_puts(&b, p ? ",\n  {\"function\": " : "\n  {\"function\": ");
            byoc__json_str(&b, ps->function);
            byoc__buf_puts(&b, ", \"backend\": ");
            byoc__json_str(&b, ps->backend);
            byoc__buf_printf(&b, ", \"ops\": %d, \"estimated_cost_s\": ", ps->nops);
            if (ps->estimated_cost >= 0) byoc__buf_printf(&b, "%.6g", ps->estimated_cost);
            else byoc__buf_puts(&b, "null");
            byoc__buf_puts(&b, ", \"nodes\": [");
            int first = 1;
            for (int q = 0; q < r->count; ++q)
                if (r->nodes[q].partition && !strcmp(r->nodes[q].partition, ps->function)) {
                    byoc__buf_printf(&b, "%s%u", first ? "" : ", ", (unsigned)r->nodes[q].origin);
                    first = 0;
                }
            byoc__buf_puts(&b, "]}");
        }
        byoc__buf_printf(&b, "%s],\n \"totals\": {\"ops\": %d, \"partitions\": %d, \"by_backend\": {",
                         r->npartitions ? "\n " : "", r->count, r->npartitions);
        for (int k = 0; k < r->nbackends; ++k) {
            int ops = 0;
            for (int q = 0; q < r->count; ++q) ops += !strcmp(r->nodes[q].backend, r->backends[k]);
            if (k) byoc__buf_puts(&b, ", ");
            byoc__json_str(&b, r->backends[k]);
            byoc__buf_printf(&b, ": %d", ops);
        }
        byoc__buf_puts(&b, "}},\n \"summary\": ");
        byoc__buf sum;
        memset(&sum, 0, sizeof sum);
        sum.m = r->arena;
        byoc__write_summary(&sum, r);
        if (sum.data && sum.len) sum.data[--sum.len] = 0; /* no newline inside the string */
        byoc__json_str(&b, sum.data ? sum.data : "");
        byoc_free(r->arena, sum.data);
        byoc__buf_puts(&b, "}\n");
    } else if (!strcmp(format, "dot")) {
        static const char *const fill[] = {"#9ecae1", "#a1d99b", "#fdae6b", "#bcbddc", "#fc9272", "#c7e9c0"};
        static const char *const frame[] = {"#deebf7", "#e5f5e0", "#fee6ce", "#efedf5", "#fee0d2", "#f7fcf5"};
        byoc__buf_puts(&b, "digraph placement {\n  rankdir=TB;\n  node [shape=box, style=\"rounded,filled\", "
                           "fontname=\"Helvetica\", fontsize=10];\n");
        for (int p = 0; p < r->npartitions; ++p) {
            const byoc_partition_summary *ps = &r->partitions[p];
            int c = byoc__backend_rank(r, ps->backend) % 6;
            byoc__buf_printf(
                &b, "  subgraph cluster_%d {\n    label=\"%s (%s, %d op%s)\";\n    style=filled;\n    color=\"%s\";\n",
                p, ps->function, ps->backend, ps->nops, ps->nops == 1 ? "" : "s", frame[c]);
            for (int q = 0; q < r->count; ++q)
                if (r->nodes[q].partition && !strcmp(r->nodes[q].partition, ps->function))
                    byoc__buf_printf(&b, "    n%u;\n", (unsigned)r->nodes[q].origin);
            byoc__buf_puts(&b, "  }\n");
        }
        for (int q = 0; q < r->count; ++q) {
            const byoc_placement *pl = &r->nodes[q];
            int host = !strcmp(pl->backend, "host");
            int c = byoc__backend_rank(r, pl->backend) % 6;
            byoc__buf_printf(&b, "  n%u [label=\"%s %s", (unsigned)pl->origin, pl->label, pl->op);
            if (pl->source) {
                byoc__buf_puts(&b, "\\n");
                for (const char *s = pl->source; *s; ++s)
                    byoc__buf_printf(&b, *s == '"' || *s == '\\' ? "\\%c" : "%c", *s);
            }
            byoc__buf_printf(&b, "\", fillcolor=\"%s\"];\n", host ? "#eeeeee" : fill[c]);
        }
        for (int q = 0; q < r->count; ++q)
            for (int k = 0; k < r->nodes[q].ninputs; ++k)
                byoc__buf_printf(&b, "  n%u -> n%u;\n", (unsigned)r->nodes[q].inputs[k], (unsigned)r->nodes[q].origin);
        byoc__buf_puts(&b, "}\n");
    } else
        return NULL;
    if (b.oom) { byoc_free(r->arena, b.data); return NULL; }
    if (len) *len = b.len;
    return b.data;
}


// [SECTION] impl: sub-graphs
BYOC_API byoc_result byoc_index_set_init(byoc_index_set *s, int size) {
    s->size = size > 0 ? size : 0;
    s->words = BYOC__CAST(uint64_t *, BYOC_CALLOC((size_t)(s->size + 63) / 64 + 1, sizeof(uint64_t)));
    return s->words ? BYOC_OK : BYOC_ERR_OUT_OF_MEMORY;
}
BYOC_API byoc_result byoc_index_set_copy(byoc_index_set *dst, const byoc_index_set *src) {
    if (byoc_index_set_init(dst, src->size) != BYOC_OK) return BYOC_ERR_OUT_OF_MEMORY;
    memcpy(dst->words, src->words, sizeof(uint64_t) * (size_t)((src->size + 63) / 64));
    return BYOC_OK;
}
BYOC_API void byoc_index_set_free(byoc_index_set *s) {
    if (!s) return;
    BYOC_FREE(s->words);
    s->words = NULL;
    s->size = 0;
}
BYOC_API void byoc_index_set_add(byoc_index_set *s, int i) {
    BYOC_ASSERT(i >= 0 && i < s->size);
    s->words[i >> 6] |= (uint64_t)1 << (i & 63);
}
BYOC_API void byoc_index_set_remove(byoc_index_set *s, int i) {
    BYOC_ASSERT(i >= 0 && i < s->size);
    s->words[i >> 6] &= ~((uint64_t)1 << (i & 63));
}
BYOC_API int byoc_index_set_has(const byoc_index_set *s, int i) {
    return i >= 0 && i < s->size && (s->words[i >> 6] >> (i & 63) & 1);
}
BYOC__PRIVATE int byoc__popcount64(uint64_t w) {
    int n = 0;
    for (; w; w &= w - 1) n++;
    return n;
}
BYOC__PRIVATE int byoc__lowest_bit(uint64_t w) { /* w != 0 */
    int n = 0;
    while (!(w & 1)) w >>= 1, n++;
    return n;
}
BYOC_API int byoc_index_set_count(const byoc_index_set *s) {
    int n = 0;
    for (int w = 0; w < (s->size + 63) / 64; ++w) n += byoc__popcount64(s->words[w]);
    return n;
}
BYOC_API int byoc_index_set_next(const byoc_index_set *s, int from) {
    if (from < 0) from = 0;
    if (from >= s->size) return -1;
    int w = from >> 6;
    uint64_t bits = s->words[w] & (~(uint64_t)0 << (from & 63));
    for (;;) {
        if (bits) {
            int i = (w << 6) + byoc__lowest_bit(bits);
            return i < s->size ? i : -1;
        }
        if (++w >= (s->size + 63) / 64) return -1;
        bits = s->words[w];
    }
}
BYOC_API int byoc_index_set_intersects(const byoc_index_set *a, const byoc_index_set *b) {
    BYOC_ASSERT(a->size == b->size);
    for (int w = 0; w < (a->size + 63) / 64; ++w)
        if (a->words[w] & b->words[w]) return 1;
    return 0;
}
BYOC_API int byoc_index_set_is_subset(const byoc_index_set *a, const byoc_index_set *b) {
    BYOC_ASSERT(a->size == b->size);
    for (int w = 0; w < (a->size + 63) / 64; ++w)
        if (a->words[w] & ~b->words[w]) return 0;
    return 1;
}
BYOC_API void byoc_index_set_union(byoc_index_set *dst, const byoc_index_set *src) {
    BYOC_ASSERT(dst->size == src->size);
    for (int w = 0; w < (dst->size + 63) / 64; ++w) dst->words[w] |= src->words[w];
}
BYOC_API int byoc_index_set_compare(const byoc_index_set *a, const byoc_index_set *b) {
    BYOC_ASSERT(a->size == b->size);
    for (int w = 0; w < (a->size + 63) / 64; ++w) {
        uint64_t diff = a->words[w] ^ b->words[w];
        if (diff)
            return (a->words[w] >> byoc__lowest_bit(diff) & 1)
                       ? -1
                       : 1; /* the holder of the lowest differing index is smaller */
    }
    return 0;
}

BYOC_API void byoc_sub_graph_free(byoc_sub_graph *sg) {
    if (!sg) return;
    byoc_index_set_free(&sg->inside);
    byoc_index_set_free(&sg->entry);
    byoc_index_set_free(&sg->exit);
    byoc_index_set_free(&sg->input);
    byoc_index_set_free(&sg->output);
}

BYOC_API byoc_result byoc_sub_graph_init(const byoc_graph *g, const byoc_index_set *inside, const char *label,
                                         byoc_sub_graph *out) {
    if (!out) return BYOC_ERR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (!g || !inside) return BYOC_ERR_INVALID_ARGUMENT;
    if (inside->size != g->count) return BYOC_ERR_INVALID_ARGUMENT;
    int *depth = BYOC__CAST(int *, BYOC_CALLOC((size_t)g->count + 1, sizeof(int)));
    if (!depth || byoc_index_set_copy(&out->inside, inside) != BYOC_OK ||
        byoc_index_set_init(&out->entry, g->count) != BYOC_OK || byoc_index_set_init(&out->exit, g->count) != BYOC_OK ||
        byoc_index_set_init(&out->input, g->count) != BYOC_OK ||
        byoc_index_set_init(&out->output, g->count) != BYOC_OK) {
        BYOC_FREE(depth);
        byoc_sub_graph_free(out);
        return BYOC_ERR_OUT_OF_MEMORY;
    }
    snprintf(out->label, sizeof out->label, "%s", label ? label : "");
    out->first = out->last = -1;
    out->kind = BYOC_PATTERN_ELEMWISE;
    for (int i = byoc_index_set_next(inside, 0); i >= 0; i = byoc_index_set_next(inside, i + 1)) {
        const byoc_graph_node *gn = &g->nodes[i];
        if (out->first < 0) out->first = i;
        out->last = i;
        int d = 0, outside_input = gn->ninputs == 0, inside_user = 0,
            outside_user = i == g->count - 1; /* the last node is the result */
        for (int k = 0; k < gn->ninputs; ++k) {
            int in = gn->inputs[k];
            if (byoc_index_set_has(inside, in)) {
                if (depth[in] > d) d = depth[in];
            } else {
                outside_input = 1;
                byoc_index_set_add(&out->input, in);
            }
        }
        depth[i] = d + 1; /* inputs come first in post-order */
        if (depth[i] > out->depth) out->depth = depth[i];
        if (outside_input) byoc_index_set_add(&out->entry, i);
        for (int k = 0; k < gn->nusers; ++k) {
            int u = gn->users[k];
            if (byoc_index_set_has(inside, u)) inside_user = 1;
            else {
                outside_user = 1;
                byoc_index_set_add(&out->output, u);
            }
        }
        if (outside_user) byoc_index_set_add(&out->exit, i);
        out->taps += outside_user && inside_user;
        byoc_node_kind nk = gn->node->kind;
        if (nk == BYOC_NODE_CALL || nk == BYOC_NODE_TUPLE || nk == BYOC_NODE_TUPLE_GET_ITEM) {
            int kind = byoc__node_kind(gn->node);
            if (kind > (int)out->kind) out->kind = (byoc_op_pattern)kind;
        }
    }
    BYOC_FREE(depth);
    return BYOC_OK;
}

/* convex: no outside node on a path from an exit back to an entry. Post-order bounds the walk: a node
   after the last inside index cannot reach back in. */
BYOC__PRIVATE int byoc__sub_graph_convex(const byoc_graph *g, const byoc_sub_graph *sg) {
    if (sg->first < 0) return 1;
    int *stack = BYOC__CAST(int *, BYOC_MALLOC(sizeof(int) * ((size_t)g->count + 1)));
    unsigned char *seen = BYOC__CAST(unsigned char *, BYOC_CALLOC((size_t)g->count + 1, 1));
    int convex = stack && seen, top = 0;
    for (int o = byoc_index_set_next(&sg->output, 0); convex && o >= 0 && o < sg->last;
         o = byoc_index_set_next(&sg->output, o + 1))
        if (!seen[o]) seen[o] = 1, stack[top++] = o;
    while (convex && top) {
        const byoc_graph_node *gn = &g->nodes[stack[--top]];
        for (int k = 0; k < gn->nusers && convex; ++k) {
            int u = gn->users[k];
            if (u > sg->last || seen[u]) continue;
            if (byoc_index_set_has(&sg->inside, u)) convex = 0;
            else seen[u] = 1, stack[top++] = u;
        }
    }
    if (!stack || !seen) convex = 0;
    BYOC_FREE(stack);
    BYOC_FREE(seen);
    return convex;
}

BYOC_API int byoc_sub_graph_is_valid(const byoc_graph *g, const byoc_sub_graph *sg, const byoc_sub_graph_config *config,
                                     char *why, size_t cap) {
    if (!g || !sg) return 0;
    char scratch[8];
    if (!why) why = scratch, cap = sizeof scratch;
    int exits = byoc_index_set_count(&sg->exit);
    if (sg->first < 0) return snprintf(why, cap, "empty"), 0;
    if (config && config->max_exits > 0 && exits > config->max_exits)
        return snprintf(why, cap, "%d exits (at most %d)", exits, config->max_exits), 0;
    if (config && !config->allow_taps && sg->taps)
        return snprintf(why, cap, "%d taps (an exit also used inside)", sg->taps), 0;
    if (config && config->max_depth > 0 && sg->depth > config->max_depth)
        return snprintf(why, cap, "depth %d (at most %d)", sg->depth, config->max_depth), 0;
    if (!byoc__sub_graph_convex(g, sg)) return snprintf(why, cap, "not convex (a path leaves it and comes back)"), 0;
    return 1;
}

BYOC_API byoc_result byoc_sub_graph_union(const byoc_graph *g, const byoc_sub_graph *a, const byoc_sub_graph *b,
                                          byoc_sub_graph *out) {
    if (!out) return BYOC_ERR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (!g || !a || !b) return BYOC_ERR_INVALID_ARGUMENT;
    if (byoc_index_set_intersects(&a->inside, &b->inside)) return BYOC_ERR_INVALID_ARGUMENT;
    byoc_index_set both;
    if (byoc_index_set_copy(&both, &a->inside) != BYOC_OK) return BYOC_ERR_OUT_OF_MEMORY;
    byoc_index_set_union(&both, &b->inside);
    char label[2 * sizeof a->label + 2]; /* the joined label is cut to fit by byoc_sub_graph_init */
    snprintf(label, sizeof label, "%s%s%s", a->label, a->label[0] && b->label[0] ? "+" : "", b->label);
    byoc_result r = byoc_sub_graph_init(g, &both, label, out);
    byoc_index_set_free(&both);
    return r;
}

BYOC_API int byoc_sub_graph_are_touching(const byoc_graph *g, const byoc_sub_graph *a, const byoc_sub_graph *b) {
    if (!g || !a || !b) return 0;
    if (byoc_index_set_intersects(&a->inside, &b->inside)) return 0;
    if (!byoc_index_set_intersects(&a->output, &b->inside) && !byoc_index_set_intersects(&b->output, &a->inside))
        return 0;
    byoc_sub_graph u;
    if (byoc_sub_graph_union(g, a, b, &u) != BYOC_OK) return 0;
    int convex = byoc__sub_graph_convex(g, &u);
    byoc_sub_graph_free(&u);
    return convex;
}


// [SECTION] impl: collage: candidates and their prices
BYOC_API double byoc_collage_mock_cost(byoc_module *m, const byoc_collage_candidate *c, void *user_data) {
    if (!c) return -1;
    (void)m;
    const byoc_collage_mock *mock = (const byoc_collage_mock *)user_data;
    for (int k = 0; mock && k < mock->count; ++k) {
        if (strcmp(mock->names[k], c->backend)) continue;
        double cost = 0, scale = 1;
        for (int i = 0; i < c->nops; ++i, scale *= 0.9) cost += mock->base[k] * scale;
        return cost;
    }
    return -1;
}

BYOC_API void byoc_collage_stats_free(byoc_collage_stats *s) {
    if (!s) return;
    byoc_module_destroy(s->arena);
    memset(s, 0, sizeof *s);
}

/* A candidate: a set of graph nodes on one backend (index nb: the host). */
typedef struct byoc__cc_cand {
    int backend;
    int first, last, n, off; /* members: pool[off .. off + n), ascending graph indices */
    int depth, exits, kind, nops;
    uint64_t plans;          /* bit 0: a partition of the greedy plan; bit 1 + k: of backend k's plan */
    const char *rule;
    uint64_t key;
    double cost;
    int priced, dead;
} byoc__cc_cand;

typedef struct byoc__cc_state {
    double cost;
    int f;        /* the first uncovered required node, -1 when all are covered */
    int off, n;   /* the covered required nodes after f, ascending: spool[off .. off + n) */
    int prev, cand;
    int next;     /* the next state with the same hash, -1 */
    int settled;
} byoc__cc_state;

typedef struct byoc__cc_heap_item { double cost; int state; } byoc__cc_heap_item;

typedef struct byoc__cc {
    byoc_module *m;
    const byoc_collage_options *o;
    byoc_collage_stats *st;
    byoc_graph g;
    int nb;                 /* backends; nb stands for the host */
    int *req;               /* required nodes (op calls, tuples, projections), ascending */
    int *req_pos;           /* graph index -> position in req, -1 */
    int *pin;               /* graph index -> backend (nb: host), -1 */
    int *pool;              /* candidates' members */
    byoc__cc_cand *cands;
    byoc__map dedup;        /* members hash -> candidate + 1 (chained through `collide`) */
    int *collide;           /* candidate -> next candidate with the same hash + 1 */
    int **by_first;         /* graph index -> candidates whose first member it is */
    byoc__map by_origin;    /* origin -> the first graph index with it + 1 */
    int *same_origin;       /* graph index -> the next graph index with the same origin, -1 */
    uint32_t *origin_of;    /* graph index -> its node's origin (before tagging) */
    int *mark, *seen, *tmp; /* graph-sized scratch, stamped */
    int stamp, seen_stamp;
    int *stack;
    byoc__map cost_cache;   /* key -> index into costs + 1 */
    double *costs;
    /* search */
    byoc__cc_state *states;
    int *spool;
    byoc__map state_index;
    byoc__cc_heap_item *heap;
    int *per_f;             /* states created per first-uncovered node (the beam) */
    const unsigned char *allowed; /* candidate filter of the current run, NULL: all live */
    const byoc_op **ops[BYOC__MAX_BACKENDS]; /* each backend's supported ops (byoc__support_ops) */
    const byoc__report_builder *rb; /* the input's ops, for names in notes */
    byoc_module *arena;     /* the report's strings */
    byoc__map noted;        /* (graph index, backend) -> the note of the first refused match it was in */
} byoc__cc;

/* Origins are not unique in @main (SimplifyInference's multiply and add both stand for the batch norm), so
   while a plan is made or applied every searched node carries a tag, its graph index, in its origin: the
   passes pass origins on to what they rebuild, so any node made from a searched node names it. */
#define BYOC__CC_TAG 0x80000000u
BYOC__PRIVATE void byoc__cc_tag(const byoc_graph *g, const int *req, int nreq) {
    for (int q = 0; q < nreq; ++q) g->nodes[req[q]].node->origin = BYOC__CC_TAG | (uint32_t)req[q];
}
BYOC__PRIVATE int byoc__cc_tag_of(const byoc_node *n) {
    return n->origin & BYOC__CC_TAG ? (int)(n->origin & ~BYOC__CC_TAG) : -1;
}
/* every tagged node of m gets its searched node's origin back */
BYOC__PRIVATE void byoc__cc_untag(byoc_module *m, const uint32_t *origin_of, int count) {
    for (int f = 0; f < byoc_module_function_count(m); ++f) {
        byoc_node **order = NULL;
        byoc__post_order_marked(m->functions[f].function, BYOC_GRAPH_ENTER_FUNCTIONS, &order);
        for (int i = 0; i < (int)stbds_arrlen(order); ++i) {
            int t = byoc__cc_tag_of(order[i]);
            if (t >= 0 && t < count) order[i]->origin = origin_of[t];
        }
        stbds_arrfree(order);
    }
}

BYOC__PRIVATE double byoc__cc_clock(void) { return (double)clock() / CLOCKS_PER_SEC; }
BYOC__PRIVATE const char *byoc__cc_backend_name(const byoc__cc *cc, int b) {
    return b == cc->nb ? "host" : cc->o->backends[b]->name;
}
BYOC__PRIVATE int byoc__cc_new_stamp(byoc__cc *cc) {
    if (++cc->stamp == INT_MAX) { memset(cc->mark, 0, sizeof(int) * (size_t)cc->g.count); cc->stamp = 1; }
    return cc->stamp;
}

/* depth, exits, taps, kind and convexity of a member set (ascending); returns 1 when convex */
BYOC__PRIVATE int byoc__cc_describe(byoc__cc *cc, const int *mem, int n, int *depth, int *exits, int *taps, int *kind,
                                    int *nops) {
    const byoc_graph *g = &cc->g;
    int s = byoc__cc_new_stamp(cc);
    for (int q = 0; q < n; ++q) cc->mark[mem[q]] = s;
    *depth = *exits = *taps = *nops = 0;
    *kind = BYOC_PATTERN_ELEMWISE;
    stbds_arrsetlen(cc->stack, 0);
    if (++cc->seen_stamp == INT_MAX) { memset(cc->seen, 0, sizeof(int) * (size_t)g->count); cc->seen_stamp = 1; }
    int last = n ? mem[n - 1] : -1;
    for (int q = 0; q < n; ++q) {
        int i = mem[q];
        const byoc_graph_node *gn = &g->nodes[i];
        int d = 0;
        for (int k = 0; k < gn->ninputs; ++k)
            if (cc->mark[gn->inputs[k]] == s && cc->tmp[gn->inputs[k]] > d) d = cc->tmp[gn->inputs[k]];
        cc->tmp[i] = d + 1;
        if (d + 1 > *depth) *depth = d + 1;
        int out = i == g->count - 1, in = 0;
        for (int k = 0; k < gn->nusers; ++k) {
            int u = gn->users[k];
            if (cc->mark[u] == s) { in = 1; continue; }
            out = 1;
            if (u < last && cc->seen[u] != cc->seen_stamp) { cc->seen[u] = cc->seen_stamp; stbds_arrput(cc->stack, u); }
        }
        *exits += out;
        *taps += out && in;
        int k = byoc__node_kind(gn->node);
        if (k > *kind) *kind = k;
        *nops += byoc__is_op_call(gn->node);
    }
    /* convex: no outside node reached from an exit leads back in (nodes after `last` cannot) */
    while (stbds_arrlen(cc->stack)) {
        const byoc_graph_node *gn = &g->nodes[stbds_arrpop(cc->stack)];
        for (int k = 0; k < gn->nusers; ++k) {
            int u = gn->users[k];
            if (u > last || cc->seen[u] == cc->seen_stamp) continue;
            if (cc->mark[u] == s) return 0;
            cc->seen[u] = cc->seen_stamp;
            stbds_arrput(cc->stack, u);
        }
    }
    return 1;
}

BYOC__PRIVATE uint64_t byoc__cc_members_hash(int backend, const int *mem, int n) {
    uint64_t h = byoc__mix(0x51ed27ull, (uint64_t)backend);
    for (int q = 0; q < n; ++q) h = byoc__mix(h, (uint64_t)mem[q]);
    return h | 1; /* the map's empty key is 0 */
}

/* adds a candidate unless the same member set is there for that backend (then its plans grow); returns
   its index, or -1 when it breaks a pin or is invalid (validate: convex, one exit, at most max_depth) */
BYOC__PRIVATE int byoc__cc_add(byoc__cc *cc, int backend, const int *mem, int n, const char *rule, uint64_t plans,
                               int validate, int max_depth) {
    if (n <= 0) return -1;
    for (int q = 0; q < n; ++q)
        if (cc->pin[mem[q]] >= 0 && cc->pin[mem[q]] != backend && !plans) return -1;
    uint64_t h = byoc__cc_members_hash(backend, mem, n);
    for (intptr_t at = byoc__map_get(&cc->dedup, (const void *)(uintptr_t)h, 0); at; at = cc->collide[at - 1]) {
        byoc__cc_cand *c = &cc->cands[at - 1];
        if (c->backend == backend && c->n == n && !memcmp(&cc->pool[c->off], mem, sizeof(int) * (size_t)n)) {
            c->plans |= plans;
            return (int)at - 1;
        }
    }
    byoc__cc_cand c;
    memset(&c, 0, sizeof c);
    int taps;
    int convex = byoc__cc_describe(cc, mem, n, &c.depth, &c.exits, &taps, &c.kind, &c.nops);
    if (validate && (!convex || c.exits > 1 || (max_depth > 0 && c.depth > max_depth))) return -1;
    c.backend = backend;
    c.first = mem[0];
    c.last = mem[n - 1];
    c.n = n;
    c.off = (int)stbds_arrlen(cc->pool);
    c.plans = plans;
    c.rule = rule;
    for (int q = 0; q < n; ++q) stbds_arrput(cc->pool, mem[q]);
    int id = (int)stbds_arrlen(cc->cands);
    stbds_arrput(cc->cands, c);
    stbds_arrput(cc->collide, (int)byoc__map_get(&cc->dedup, (const void *)(uintptr_t)h, 0));
    byoc__map_put(&cc->dedup, (const void *)(uintptr_t)h, id + 1);
    return id;
}

/* the members of two disjoint candidates, merged ascending into out (stb_ds) */
BYOC__PRIVATE void byoc__cc_merge(const byoc__cc *cc, const byoc__cc_cand *a, const byoc__cc_cand *b, int **out) {
    stbds_arrsetlen(*out, 0);
    const int *x = &cc->pool[a->off], *y = &cc->pool[b->off];
    int i = 0, j = 0;
    while (i < a->n || j < b->n) {
        if (j == b->n || (i < a->n && x[i] < y[j])) stbds_arrput(*out, x[i++]);
        else stbds_arrput(*out, y[j++]);
    }
}

/* TVM's kind rule: an elementwise or broadcast consumer joins a producer of kind up to out_elemwise_fusable */
BYOC__PRIVATE int byoc__cc_may_combine(byoc_fusion_style style, const byoc__cc_cand *up, const byoc__cc_cand *down) {
    if (style == BYOC_FUSION_ARBITRARY) return 1;
    if (style == BYOC_FUSION_NONE) return 0;
    return up->kind <= BYOC_PATTERN_OUT_ELEMWISE_FUSABLE && down->kind <= BYOC_PATTERN_BROADCAST;
}

/* Combine: unions of touching candidates of one backend, to a fixed point (new ones combine again) */
BYOC__PRIVATE void byoc__cc_combine(byoc__cc *cc, int backend, int from, byoc_fusion_style style, int max_depth) {
    if (style == BYOC_FUSION_NONE) return;
    int limit = cc->o->max_candidates > 0 ? cc->o->max_candidates : 50000;
    const byoc_graph *g = &cc->g;
    int **by_node = BYOC__CAST(int **, BYOC_CALLOC((size_t)g->count + 1, sizeof(int *)));
    int *merged = NULL, *work = NULL;
    if (!by_node) return;
    for (int c = from; c < (int)stbds_arrlen(cc->cands); ++c) {
        stbds_arrput(work, c);
        for (int q = 0; q < cc->cands[c].n; ++q) stbds_arrput(by_node[cc->pool[cc->cands[c].off + q]], c);
    }
    for (int w = 0; w < (int)stbds_arrlen(work); ++w) {
        int a = work[w];
        for (int dir = 0; dir < 2; ++dir) { /* 0: a upstream of its users' candidates; 1: downstream of its inputs' */
            int n_a = cc->cands[a].n;
            for (int q = 0; q < n_a; ++q) {
                const byoc_graph_node *gn = &g->nodes[cc->pool[cc->cands[a].off + q]];
                int nn = dir ? gn->ninputs : gn->nusers;
                for (int k = 0; k < nn; ++k) {
                    int x = dir ? gn->inputs[k] : gn->users[k];
                    for (int t = 0; t < (int)stbds_arrlen(by_node[x]); ++t) {
                        int b = by_node[x][t];
                        if (b == a) continue;
                        const byoc__cc_cand *ca = &cc->cands[a], *cb = &cc->cands[b];
                        if (!byoc__cc_may_combine(style, dir ? cb : ca, dir ? ca : cb)) continue;
                        /* disjoint? */
                        int s = byoc__cc_new_stamp(cc), overlap = 0;
                        for (int r = 0; r < ca->n; ++r) cc->mark[cc->pool[ca->off + r]] = s;
                        for (int r = 0; r < cb->n && !overlap; ++r) overlap = cc->mark[cc->pool[cb->off + r]] == s;
                        if (overlap) continue;
                        byoc__cc_merge(cc, ca, cb, &merged);
                        int before = (int)stbds_arrlen(cc->cands);
                        int id =
                            byoc__cc_add(cc, backend, merged, (int)stbds_arrlen(merged), "combine", 0, 1, max_depth);
                        if (id < before) continue; /* known or invalid */
                        stbds_arrput(work, id);
                        for (int r = 0; r < cc->cands[id].n; ++r)
                            stbds_arrput(by_node[cc->pool[cc->cands[id].off + r]], id);
                        if ((int)stbds_arrlen(cc->cands) - from >= limit) {
                            cc->st->truncated++;
                            goto done;
                        }
                    }
                }
            }
        }
    }
done:
    for (int i = 0; i < g->count; ++i) stbds_arrfree(by_node[i]);
    BYOC_FREE(by_node);
    stbds_arrfree(merged);
    stbds_arrfree(work);
}

/* every composite match and accepted single op of backend b, then their combinations */
BYOC__PRIVATE void byoc__cc_generate_backend(byoc__cc *cc, int b) {
    const byoc_backend_spec *spec = cc->o->backends[b];
    const byoc_graph *g = &cc->g;
    int from = (int)stbds_arrlen(cc->cands);
    int max_depth = spec->fusion_max_depth > 0 ? spec->fusion_max_depth : cc->o->max_depth > 0 ? cc->o->max_depth : 8;
    int *mem = NULL;
    for (int e = 0; e < spec->npatterns; ++e) {
        const byoc_pattern_entry *pe = &spec->patterns[e];
        for (int r = 0; r < (int)stbds_arrlen(cc->req); ++r) {
            byoc_node *root = g->nodes[cc->req[r]].node;
            byoc_match *mt = NULL;
            if (!byoc_pattern_match(pe->pattern, root, g, &mt)) continue;
            stbds_arrsetlen(mem, 0);
            int ok = 1;
            for (int i = 0; ok && i < (int)stbds_arrlen(mt->memo); ++i) {
                if (!byoc__pat_is_interior(mt->memo[i].p)) continue;
                int at = byoc_graph_index(g, mt->memo[i].e);
                ok = at >= 0 && cc->req_pos[at] >= 0;
                int dup = 0;
                for (int q = 0; ok && q < (int)stbds_arrlen(mem); ++q) dup |= mem[q] == at;
                if (ok && !dup) stbds_arrput(mem, at);
            }
            if (ok) {
                char why[300], note[700];
                const byoc_node *bad = byoc__match_declined(spec, cc->ops[b], pe, mt, root, why, sizeof why);
                if (bad) { /* each op of the match keeps the first refusal's note, for the report */
                    intptr_t at =
                        cc->rb ? byoc__map_get(&cc->rb->index, (const void *)(uintptr_t)byoc_node_origin(bad), 0) : 0;
                    const char *label = at ? cc->rb->nodes[at - 1].label : NULL;
                    for (int i = 0; i < byoc__match_size(mt); ++i) {
                        const byoc_node *x = byoc__match_op_call(mt, i);
                        int xi = x ? byoc_graph_index(g, x) : -1;
                        if (xi < 0 || byoc__map_has(&cc->noted, byoc__ob_key((uint32_t)xi, b))) continue;
                        byoc__pattern_note(note, sizeof note, pe->name, x, bad, label, why);
                        byoc__map_put(&cc->noted, byoc__ob_key((uint32_t)xi, b),
                                      (intptr_t)byoc_intern(cc->arena, note));
                    }
                    ok = 0;
                }
            }
            if (ok && pe->check) ok = pe->check(mt, root, pe->user_data);
            byoc_match_free(mt);
            if (!ok || !stbds_arrlen(mem)) continue;
            qsort(mem, (size_t)stbds_arrlen(mem), sizeof(int), byoc__int_cmp);
            byoc__cc_add(cc, b, mem, (int)stbds_arrlen(mem), pe->name, 0, 1, 0);
        }
    }
    for (int r = 0; r < (int)stbds_arrlen(cc->req); ++r) {
        int i = cc->req[r];
        if (!byoc__is_op_call(g->nodes[i].node) || !byoc_backend_accepts(spec, g->nodes[i].node, NULL, 0)) continue;
        byoc__cc_add(cc, b, &i, 1, "op", 0, 1, 0);
    }
    stbds_arrfree(mem);
    byoc__cc_combine(cc, b, from, spec->fusion, max_depth);
}

BYOC__PRIVATE void byoc__cc_generate_host(byoc__cc *cc) {
    int from = (int)stbds_arrlen(cc->cands);
    for (int r = 0; r < (int)stbds_arrlen(cc->req); ++r) {
        int i = cc->req[r];
        byoc__cc_add(cc, cc->nb, &i, 1, byoc__is_op_call(cc->g.nodes[i].node) ? "op" : "host", 0, 0, 0);
    }
    byoc__cc_combine(cc, cc->nb, from, BYOC_FUSION_TVM, cc->o->host_max_depth > 0 ? cc->o->host_max_depth : 8);
}

/* The partitions of a greedy run on a copy of the module (all backends, or only backend `only`) become
   candidates marked with plan bit `bit`. */
BYOC__PRIVATE byoc_result byoc__cc_plan(byoc__cc *cc, int only, int bit, byoc_diag *diag) {
    byoc_module *copy = byoc__module_clone_borrowing(cc->m);
    if (!copy) return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "collage: out of memory");
    byoc_partition_options po;
    memset(&po, 0, sizeof po);
    const byoc_backend_spec *one[1];
    byoc_pin *pins = NULL;
    if (only < 0) {
        po.backends = cc->o->backends;
        po.nbackends = cc->nb;
    } else {
        one[0] = cc->o->backends[only];
        po.backends = one;
        po.nbackends = 1;
    }
    for (int k = 0; k < cc->o->npins; ++k) /* pins to backends outside this plan do not apply */
        if (!strcmp(cc->o->pins[k].backend, "host") || only < 0 ||
            !strcmp(cc->o->pins[k].backend, cc->o->backends[only]->name))
            stbds_arrput(pins, cc->o->pins[k]);
    po.pins = pins;
    po.npins = (int)stbds_arrlen(pins);
    po.bind_constants = 1;
    int before = byoc_module_function_count(copy);
    byoc_diag local;
    byoc_graph cg; /* the copy's @main has the same post-order: tag its searched nodes with their indices */
    byoc_node *copy_main = byoc_module_function(copy, "main");
    if (!copy_main || byoc_graph_build(copy, copy_main->body, 0, &cg) != BYOC_OK) {
        stbds_arrfree(pins);
        byoc_module_destroy(copy);
        return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "collage: out of memory");
    }
    int same_shape = cg.count == cc->g.count;
    if (same_shape) byoc__cc_tag(&cg, cc->req, (int)stbds_arrlen(cc->req));
    byoc_graph_free(&cg);
    if (!same_shape) { /* cannot happen with byoc_module_clone; without the plan the search is still valid */
        stbds_arrfree(pins);
        byoc_module_destroy(copy);
        return BYOC_OK;
    }
    byoc_result r = byoc_partition_greedy(copy, &po, NULL, &local);
    stbds_arrfree(pins);
    if (r != BYOC_OK) {
        byoc_module_destroy(copy);
        if (only < 0) { *diag = local; return r; } /* the greedy plan must exist: its error is the user's */
        return BYOC_OK;                             /* a single-backend plan that cannot be made is left out */
    }
    int *mem = NULL;
    for (int f = before; f < byoc_module_function_count(copy); ++f) {
        byoc_node *fn = copy->functions[f].function;
        const char *compiler = byoc_attrs_string(&fn->attrs, "Compiler", NULL);
        if (!compiler) continue;
        int b = -1;
        for (int k = 0; k < cc->nb && b < 0; ++k)
            if (!strcmp(cc->o->backends[k]->name, compiler)) b = k;
        if (b < 0) continue;
        byoc_node **order = NULL;
        byoc__post_order_marked(fn->body, BYOC_GRAPH_ENTER_FUNCTIONS, &order);
        stbds_arrsetlen(mem, 0);
        int ok = 1;
        for (int i = 0; i < (int)stbds_arrlen(order); ++i) {
            byoc_node *x = order[i];
            if (!byoc__is_op_call(x) && x->kind != BYOC_NODE_TUPLE_GET_ITEM && x->kind != BYOC_NODE_TUPLE) continue;
            int t = byoc__cc_tag_of(x);
            if (t < 0 || t >= cc->g.count) {
                ok &= !byoc__is_op_call(x);
                continue;
            } /* tuples PartitionGraph made for outputs are new */
            stbds_arrput(mem, t);
        }
        stbds_arrfree(order);
        if (!ok || !stbds_arrlen(mem)) continue;
        qsort(mem, (size_t)stbds_arrlen(mem), sizeof(int), byoc__int_cmp);
        int n = 0; /* distinct */
        for (int q = 0; q < (int)stbds_arrlen(mem); ++q)
            if (!n || mem[n - 1] != mem[q]) mem[n++] = mem[q];
        byoc__cc_add(cc, b, mem, n, only < 0 ? "greedy" : "only", (uint64_t)1 << bit, 0, 0);
    }
    stbds_arrfree(mem);
    byoc_module_destroy(copy);
    return BYOC_OK;
}

/* The structural key: ops, attributes and types of the members, where inputs come from (a member's
   position, or an outside value's type and whether it is a constant), which members are exits. */
BYOC__PRIVATE uint64_t byoc__cc_key(byoc__cc *cc, const byoc__cc_cand *c) {
    const byoc_graph *g = &cc->g;
    int s = byoc__cc_new_stamp(cc);
    const int *mem = &cc->pool[c->off];
    for (int q = 0; q < c->n; ++q) cc->mark[mem[q]] = s, cc->tmp[mem[q]] = q;
    uint64_t h = byoc__mix(0xc011a6eull, (uint64_t)c->backend);
    for (int q = 0; q < c->n; ++q) {
        const byoc_graph_node *gn = &g->nodes[mem[q]];
        const byoc_node *x = gn->node;
        h = byoc__mix(h, (uint64_t)x->kind);
        if (x->kind == BYOC_NODE_CALL && x->op)
            h = byoc__hash_attrs(byoc__hash_bytes(h, x->op->def.name, strlen(x->op->def.name)), &x->attrs);
        if (x->kind == BYOC_NODE_TUPLE_GET_ITEM) h = byoc__mix(h, (uint64_t)x->index);
        h = byoc__hash_type(h, x->checked_type);
        int k = byoc__input_count(x, 0);
        for (int a = 0; a < k; ++a) {
            byoc_node *in = byoc__input_at(x, a);
            int j = byoc_graph_index(g, in);
            if (j >= 0 && cc->mark[j] == s) h = byoc__mix(h, 0x100u + (uint64_t)cc->tmp[j]);
            else h = byoc__hash_type(byoc__mix(h, in->kind == BYOC_NODE_CONSTANT ? 0xc0u : 0xa0u), in->checked_type);
        }
        int exit = mem[q] == g->count - 1;
        for (int u = 0; u < gn->nusers && !exit; ++u) exit = cc->mark[gn->users[u]] != s;
        h = byoc__mix(h, (uint64_t)exit);
    }
    return h | 1;
}

/* fn(inputs) { members } in the working module: constants stay bound, several exits return a tuple */
BYOC__PRIVATE byoc_node *byoc__cc_function(byoc__cc *cc, const byoc__cc_cand *c) {
    const byoc_graph *g = &cc->g;
    byoc_module *m = cc->m;
    int s = byoc__cc_new_stamp(cc);
    const int *mem = &cc->pool[c->off];
    for (int q = 0; q < c->n; ++q) cc->mark[mem[q]] = s;
    byoc__map now = BYOC__MAP_EMPTY;
    byoc_node **params = NULL, **ins = NULL, **outs = NULL;
    byoc_node *fn = NULL;
    for (int q = 0; q < c->n && !m->has_error; ++q) {
        const byoc_graph_node *gn = &g->nodes[mem[q]];
        byoc_node *x = gn->node;
        stbds_arrsetlen(ins, 0);
        int k = byoc__input_count(x, 0);
        for (int a = 0; a < k; ++a) {
            byoc_node *in = byoc__input_at(x, a);
            byoc_node *v = (byoc_node *)byoc__map_get(&now, in, 0);
            if (!v &&
                (in->kind == BYOC_NODE_CONSTANT || in->kind == BYOC_NODE_GLOBAL_VAR || in->kind == BYOC_NODE_FUNCTION))
                v = in;
            if (!v) { /* an outside value: a new parameter */
                char name[24];
                snprintf(name, sizeof name, "p%d", (int)stbds_arrlen(params));
                v = byoc_var(m, name, in->checked_type);
                if (!v) break;
                v->checked_type = in->checked_type;
                stbds_arrput(params, v);
                byoc__map_put(&now, in, (intptr_t)v);
            }
            stbds_arrput(ins, v);
        }
        byoc_node *r = byoc__rebuild(m, x, ins);
        if (!r) break;
        r->checked_type = x->checked_type;
        byoc__map_put(&now, x, (intptr_t)r);
        int exit = mem[q] == g->count - 1;
        for (int u = 0; u < gn->nusers && !exit; ++u) exit = cc->mark[gn->users[u]] != s;
        if (exit) stbds_arrput(outs, r);
    }
    if (!m->has_error && stbds_arrlen(outs)) {
        byoc_node *body = outs[0];
        if (stbds_arrlen(outs) > 1) {
            body = byoc_tuple(m, outs, (int)stbds_arrlen(outs));
            const byoc_type **fields =
                BYOC__CAST(const byoc_type **, BYOC_MALLOC(sizeof(byoc_type *) * (size_t)stbds_arrlen(outs)));
            if (body && fields) {
                for (int q = 0; q < (int)stbds_arrlen(outs); ++q) fields[q] = outs[q]->checked_type;
                body->checked_type = byoc_tuple_type(m, fields, (int)stbds_arrlen(outs));
            }
            BYOC_FREE((void *)fields);
        }
        /* a device candidate holds its backend's composites, as its partition will (its compiler may fuse
           by them) */
        const byoc_backend_spec *spec =
            c->backend < cc->nb && !cc->o->plain_candidates ? cc->o->backends[c->backend] : NULL;
        for (int e = 0; body && spec && e < spec->npatterns && !m->has_error; ++e) {
            byoc_attrs attrs;
            memset(&attrs, 0, sizeof attrs);
            byoc_attrs_set_string(m, &attrs, "Composite", spec->patterns[e].name);
            byoc__backend_entry be = {spec, cc->ops[c->backend], &spec->patterns[e]};
            byoc_node *nb = byoc__partition(m, spec->patterns[e].pattern, body, &attrs, byoc__backend_entry_check, &be);
            if (nb && nb != body) { /* type what the rewrite made */
                byoc_node **order = NULL;
                byoc__post_order_marked(nb, BYOC_GRAPH_ENTER_FUNCTIONS, &order);
                for (int i = 0; i < (int)stbds_arrlen(order) && !m->has_error; ++i)
                    if (!order[i]->checked_type && byoc_infer_node_type(m, order[i], NULL) != BYOC_OK) nb = NULL;
                stbds_arrfree(order);
            }
            if (nb) body = nb;
        }
        if (body) fn = byoc_function(m, params, (int)stbds_arrlen(params), body, NULL, NULL);
    }
    stbds_arrfree(params);
    stbds_arrfree(ins);
    stbds_arrfree(outs);
    byoc__map_free(&now);
    return fn;
}

/* prices every live candidate (tuples and projections on the host cost nothing) */
BYOC__PRIVATE void byoc__cc_price(byoc__cc *cc, int c_index) {
    byoc__cc_cand *c = &cc->cands[c_index];
    if (c->priced || c->dead) return;
    c->priced = 1;
    if (c->backend == cc->nb && c->nops == 0) { c->cost = 0; return; }
    c->key = byoc__cc_key(cc, c);
    intptr_t hit = byoc__map_get(&cc->cost_cache, (const void *)(uintptr_t)c->key, 0);
    if (hit) {
        cc->st->cache_hits++;
        c->cost = cc->costs[hit - 1];
    } else {
        byoc_collage_candidate info;
        memset(&info, 0, sizeof info);
        info.backend = byoc__cc_backend_name(cc, c->backend);
        info.spec = c->backend == cc->nb ? NULL : cc->o->backends[c->backend];
        info.nops = c->nops;
        info.rule = c->rule;
        info.key = c->key;
        info.function = byoc__cc_function(cc, c);
        cc->st->estimates++;
        double cost = info.function ? cc->o->cost(cc->m, &info, cc->o->cost_data) : -1;
        if (cc->m->has_error) { byoc_module_clear_error(cc->m); cost = -1; }
        if (!(cost >= 0) || !isfinite(cost)) cost = -1;
        stbds_arrput(cc->costs, cost);
        byoc__map_put(&cc->cost_cache, (const void *)(uintptr_t)c->key, (intptr_t)stbds_arrlen(cc->costs));
        c->cost = cost;
    }
    if (c->cost < 0) {
        c->dead = 1;
        cc->st->dropped++;
    }
}

// [SECTION] impl: collage: the search, applying a plan, placement files
/* ---- the search ---- */
/* the documented order between states: cost, then the covered set holding the lowest index the other lacks */
BYOC__PRIVATE int byoc__cc_state_less(const byoc__cc *cc, const byoc__cc_heap_item *x, const byoc__cc_heap_item *y) {
    if (x->cost != y->cost) return x->cost < y->cost;
    const byoc__cc_state *a = &cc->states[x->state], *b = &cc->states[y->state];
    int fa = a->f < 0 ? INT_MAX : a->f, fb = b->f < 0 ? INT_MAX : b->f;
    if (fa != fb) return fa > fb; /* covering everything below a later f holds the other's f */
    for (int i = 0; i < a->n && i < b->n; ++i) {
        int p = cc->spool[a->off + i], q = cc->spool[b->off + i];
        if (p != q) return p < q;
    }
    if (a->n != b->n) return a->n > b->n;
    return x->state < y->state;
}
BYOC__PRIVATE void byoc__cc_heap_push(byoc__cc *cc, byoc__cc_heap_item it) {
    stbds_arrput(cc->heap, it);
    int i = (int)stbds_arrlen(cc->heap) - 1;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (!byoc__cc_state_less(cc, &cc->heap[i], &cc->heap[p])) break;
        byoc__cc_heap_item t = cc->heap[i];
        cc->heap[i] = cc->heap[p];
        cc->heap[p] = t;
        i = p;
    }
}
BYOC__PRIVATE byoc__cc_heap_item byoc__cc_heap_pop(byoc__cc *cc) {
    byoc__cc_heap_item top = cc->heap[0];
    cc->heap[0] = stbds_arrpop(cc->heap);
    int n = (int)stbds_arrlen(cc->heap), i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, best = i;
        if (l < n && byoc__cc_state_less(cc, &cc->heap[l], &cc->heap[best])) best = l;
        if (r < n && byoc__cc_state_less(cc, &cc->heap[r], &cc->heap[best])) best = r;
        if (best == i) break;
        byoc__cc_heap_item t = cc->heap[i];
        cc->heap[i] = cc->heap[best];
        cc->heap[best] = t;
        i = best;
    }
    return top;
}

BYOC__PRIVATE uint64_t byoc__cc_state_hash(int f, const int *extra, int n) {
    uint64_t h = byoc__mix(0x57a7eull, (uint64_t)(f + 1));
    for (int i = 0; i < n; ++i) h = byoc__mix(h, (uint64_t)extra[i]);
    return h | 1;
}

/* the state (f, extra), made when new; -1 when the beam refuses a new one */
BYOC__PRIVATE int byoc__cc_state_get(byoc__cc *cc, int f, const int *extra, int n, int *made) {
    uint64_t h = byoc__cc_state_hash(f, extra, n);
    intptr_t head = byoc__map_get(&cc->state_index, (const void *)(uintptr_t)h, 0);
    for (int s = (int)head - 1; s >= 0; s = cc->states[s].next)
        if (cc->states[s].f == f && cc->states[s].n == n &&
            (n == 0 || !memcmp(&cc->spool[cc->states[s].off], extra, sizeof(int) * (size_t)n))) {
            *made = 0;
            return s;
        }
    int budget = cc->o->state_budget > 0 ? cc->o->state_budget : 1 << 20,
        beam = cc->o->beam_width > 0 ? cc->o->beam_width : 16;
    if (f >= 0 && (int)stbds_arrlen(cc->states) >= budget && cc->per_f[f] >= beam) {
        cc->st->beam = 1;
        cc->st->pruned++;
        return -1;
    }
    byoc__cc_state st;
    memset(&st, 0, sizeof st);
    st.f = f;
    st.off = (int)stbds_arrlen(cc->spool);
    st.n = n;
    st.prev = st.cand = -1;
    st.next = (int)head - 1;
    st.cost = INFINITY;
    for (int i = 0; i < n; ++i) stbds_arrput(cc->spool, extra[i]);
    stbds_arrput(cc->states, st);
    int id = (int)stbds_arrlen(cc->states) - 1;
    byoc__map_put(&cc->state_index, (const void *)(uintptr_t)h, id + 1);
    if (f >= 0) cc->per_f[f]++;
    cc->st->states++;
    *made = 1;
    return id;
}

BYOC__PRIVATE int byoc__cc_allowed(const byoc__cc *cc, int c) {
    return !cc->cands[c].dead && (!cc->allowed || cc->allowed[c]);
}

/* Dijkstra from nothing covered to everything covered; *chosen gets the plan's candidates (stb_ds).
   Returns the cost, INFINITY when no plan exists. */
BYOC__PRIVATE double byoc__cc_search(byoc__cc *cc, int **chosen) {
    stbds_arrsetlen(*chosen, 0);
    stbds_arrfree(cc->states);
    stbds_arrfree(cc->spool);
    stbds_arrfree(cc->heap);
    cc->states = NULL;
    cc->spool = NULL;
    cc->heap = NULL;
    byoc__map_free(&cc->state_index);
    memset(cc->per_f, 0, sizeof(int) * (size_t)cc->g.count);
    int nreq = (int)stbds_arrlen(cc->req), made;
    int start = byoc__cc_state_get(cc, nreq ? cc->req[0] : -1, NULL, 0, &made);
    cc->states[start].cost = 0;
    byoc__cc_heap_item it0 = {0, start};
    byoc__cc_heap_push(cc, it0);
    int *covered = NULL, goal = -1;
    while (stbds_arrlen(cc->heap)) {
        byoc__cc_heap_item it = byoc__cc_heap_pop(cc);
        byoc__cc_state *s = &cc->states[it.state];
        if (s->settled || it.cost != s->cost) continue;
        s->settled = 1;
        cc->st->expanded++;
        if (s->f < 0) { goal = it.state; break; }
        int f = s->f, sid = it.state;
        int **list = &cc->by_first[f];
        for (int t = 0; t < (int)stbds_arrlen(*list); ++t) {
            int c = (*list)[t];
            if (!byoc__cc_allowed(cc, c)) continue;
            const byoc__cc_cand *cd = &cc->cands[c];
            const byoc__cc_state *cur = &cc->states[sid];
            /* members after f must not be covered: merge them with the state's extra */
            stbds_arrsetlen(covered, 0);
            const int *ex = cur->n ? &cc->spool[cur->off] : NULL, *mm = &cc->pool[cd->off] + 1;
            int i = 0, j = 0, ne = cur->n, nm = cd->n - 1, clash = 0;
            while ((i < ne || j < nm) && !clash) {
                if (j == nm || (i < ne && ex[i] < mm[j])) stbds_arrput(covered, ex[i++]);
                else if (i == ne || mm[j] < ex[i]) stbds_arrput(covered, mm[j++]);
                else clash = 1;
            }
            if (clash) continue;
            /* the next uncovered required node */
            int p = cc->req_pos[f] + 1, q = 0, nc = (int)stbds_arrlen(covered);
            while (p < nreq && q < nc && covered[q] <= cc->req[p]) {
                if (covered[q] == cc->req[p]) p++;
                q++;
            }
            int nf = p < nreq ? cc->req[p] : -1;
            while (q < nc && nf >= 0 && covered[q] <= nf) q++;
            double cost = cur->cost + cd->cost;
            int ns = byoc__cc_state_get(cc, nf, nc > q ? covered + q : NULL, nc - q, &made);
            if (ns < 0) continue;
            if (cost < cc->states[ns].cost) {
                cc->states[ns].cost = cost;
                cc->states[ns].prev = sid;
                cc->states[ns].cand = c;
                byoc__cc_heap_item nit = {cost, ns};
                byoc__cc_heap_push(cc, nit);
            }
        }
    }
    stbds_arrfree(covered);
    if (goal < 0) return INFINITY;
    for (int s = goal; cc->states[s].prev >= 0; s = cc->states[s].prev) stbds_arrput(*chosen, cc->states[s].cand);
    for (int a = 0, b = (int)stbds_arrlen(*chosen) - 1; a < b; ++a, --b) {
        int t = (*chosen)[a];
        (*chosen)[a] = (*chosen)[b];
        (*chosen)[b] = t;
    }
    return cc->states[goal].cost;
}

/* A candidate on a cycle between the plan's partitions (contracted, they must form a DAG), or -1. */
BYOC__PRIVATE int byoc__cc_cycle(byoc__cc *cc, const int *chosen, int n) {
    const byoc_graph *g = &cc->g;
    for (int i = 0; i < g->count; ++i) cc->tmp[i] = -1;
    for (int k = 0; k < n; ++k)
        for (int q = 0; q < cc->cands[chosen[k]].n; ++q) cc->tmp[cc->pool[cc->cands[chosen[k]].off + q]] = k;
    /* edges between partitions, through outside nodes (inputs, constants) too: those have no owner */
    int *indeg = BYOC__CAST(int *, BYOC_CALLOC((size_t)n + 1, sizeof(int)));
    int **succ = BYOC__CAST(int **, BYOC_CALLOC((size_t)n + 1, sizeof(int *)));
    int *queue = NULL, found = -1, done = 0;
    if (!indeg || !succ) { BYOC_FREE(indeg); BYOC_FREE(succ); return -1; }
    for (int i = 0; i < g->count; ++i) {
        int a = cc->tmp[i];
        if (a < 0) continue;
        for (int u = 0; u < g->nodes[i].nusers; ++u) {
            int b = cc->tmp[g->nodes[i].users[u]];
            if (b < 0 || b == a) continue;
            int dup = 0;
            for (int t = 0; t < (int)stbds_arrlen(succ[a]) && !dup; ++t) dup = succ[a][t] == b;
            if (dup) continue;
            stbds_arrput(succ[a], b);
            indeg[b]++;
        }
    }
    for (int k = 0; k < n; ++k)
        if (!indeg[k]) stbds_arrput(queue, k);
    for (int h = 0; h < (int)stbds_arrlen(queue); ++h, ++done)
        for (int t = 0; t < (int)stbds_arrlen(succ[queue[h]]); ++t)
            if (--indeg[succ[queue[h]][t]] == 0) stbds_arrput(queue, succ[queue[h]][t]);
    if (done < n) { /* left over: on a cycle or after one; prefer a searched candidate with several exits */
        int best = -1;
        for (int k = 0; k < n; ++k) {
            if (!indeg[k]) continue;
            const byoc__cc_cand *c = &cc->cands[chosen[k]];
            int score = (c->exits > 1) * 2 + !(c->plans & 1);
            if (best < 0 || score > best) best = score, found = chosen[k];
        }
    }
    for (int k = 0; k < n; ++k) stbds_arrfree(succ[k]);
    BYOC_FREE(succ);
    BYOC_FREE(indeg);
    stbds_arrfree(queue);
    return found;
}

/* MaxCoalesce: touching chosen partitions of one device backend become one where the union is convex, no
   dearer than the two apart, and leaves the plan acyclic */
BYOC__PRIVATE void byoc__cc_coalesce(byoc__cc *cc, int **chosen) {
    int *merged = NULL, changed = 1;
    while (changed) {
        changed = 0;
        int n = (int)stbds_arrlen(*chosen);
        for (int a = 0; a < n && !changed; ++a) {
            for (int b = 0; b < n && !changed; ++b) {
                const byoc__cc_cand *ca = &cc->cands[(*chosen)[a]], *cb = &cc->cands[(*chosen)[b]];
                if (a == b || ca->backend != cb->backend || ca->backend == cc->nb) continue;
                /* does a feed b? */
                int s = byoc__cc_new_stamp(cc), feeds = 0;
                for (int q = 0; q < cb->n; ++q) cc->mark[cc->pool[cb->off + q]] = s;
                for (int q = 0; q < ca->n && !feeds; ++q) {
                    const byoc_graph_node *gn = &cc->g.nodes[cc->pool[ca->off + q]];
                    for (int u = 0; u < gn->nusers && !feeds; ++u) feeds = cc->mark[gn->users[u]] == s;
                }
                if (!feeds) continue;
                byoc__cc_merge(cc, ca, cb, &merged);
                int before = (int)stbds_arrlen(cc->cands);
                int id = byoc__cc_add(cc, ca->backend, merged, (int)stbds_arrlen(merged), "coalesce", 0, 0, 0);
                if (id < 0) continue;
                int depth, exits, taps, kind, nops;
                if (!byoc__cc_describe(cc, merged, (int)stbds_arrlen(merged), &depth, &exits, &taps, &kind, &nops))
                    continue;
                if (id >= before) byoc__cc_price(cc, id);
                ca = &cc->cands[(*chosen)[a]];
                cb = &cc->cands[(*chosen)[b]];
                if (cc->cands[id].dead || cc->cands[id].cost > ca->cost + cb->cost) continue;
                int *trial = NULL;
                for (int k = 0; k < n; ++k)
                    if (k != a && k != b) stbds_arrput(trial, (*chosen)[k]);
                stbds_arrput(trial, id);
                if (byoc__cc_cycle(cc, trial, (int)stbds_arrlen(trial)) < 0) {
                    stbds_arrfree(*chosen);
                    *chosen = trial;
                    cc->st->coalesced++;
                    changed = 1;
                } else
                    stbds_arrfree(trial);
            }
        }
    }
    stbds_arrfree(merged);
}

/* ---- applying a plan: composites and regions of the chosen device partitions, then PartitionGraph ---- */
typedef struct byoc__cc_apply {
    const int *group;    /* graph index -> partition number (1...), 0 on the host */
    const int *backend;  /* graph index -> backend index + 1, 0 on the host */
    int count;
    const byoc_collage_options *o;
    int k;               /* the backend whose composites are being formed */
    const byoc_pattern_entry *entry;
    const byoc_op *const *ops; /* backend k's supported ops */
} byoc__cc_apply;

/* the searched node an op call or composite call stands for (by the op that gives its result), -1 */
BYOC__PRIVATE int byoc__cc_searched(const byoc__cc_apply *ap, const byoc_node *n) {
    if (n->kind != BYOC_NODE_CALL) return -1;
    if (!n->op && n->callee && n->callee->kind == BYOC_NODE_FUNCTION &&
        byoc_attrs_string(&n->callee->attrs, "Composite", NULL))
        n = n->callee->body;
    while ((n->kind == BYOC_NODE_TUPLE_GET_ITEM || n->kind == BYOC_NODE_TUPLE) && n->nargs) n = n->args[0];
    if (n->kind != BYOC_NODE_CALL || !n->op) return -1;
    int t = byoc__cc_tag_of(n);
    return t < ap->count ? t : -1;
}
BYOC__PRIVATE int byoc__cc_group_of(const byoc__cc_apply *ap, const byoc_node *n) {
    int t = byoc__cc_searched(ap, n);
    return t >= 0 ? ap->group[t] : 0;
}

/* a composite match is kept when every node it takes sits in one partition of the backend being formed */
BYOC__PRIVATE int byoc__cc_apply_check(const byoc_match *mt, byoc_node *root, void *user_data) {
    const byoc__cc_apply *ap = (const byoc__cc_apply *)user_data;
    int group = -1;
    for (int i = 0; i < (int)stbds_arrlen(mt->memo); ++i) {
        if (!byoc__pat_is_interior(mt->memo[i].p)) continue;
        const byoc_node *e = mt->memo[i].e;
        int t = byoc__cc_tag_of(e);
        if (t < 0 || t >= ap->count) return 0;
        int g = ap->group[t];
        if (e->kind == BYOC_NODE_CALL && e->op && (!g || ap->backend[t] != ap->k + 1)) return 0;
        if (!g) continue; /* a projection or tuple inside the match follows its ops */
        if (group >= 0 && g != group) return 0;
        group = g;
    }
    char why[300];
    if (group > 0 && byoc__match_declined(ap->o->backends[ap->k], ap->ops, ap->entry, mt, root, why, sizeof why))
        return 0;
    return group > 0 && (!ap->entry->check || ap->entry->check(mt, root, ap->entry->user_data));
}

BYOC__PRIVATE const char *byoc__cc_apply_choose(byoc_node *n, void *user_data) {
    const byoc__cc_apply *ap = (const byoc__cc_apply *)user_data;
    int t = byoc__cc_searched(ap, n);
    return t >= 0 && ap->backend[t] ? ap->o->backends[ap->backend[t] - 1]->name : NULL;
}

/* drops begin(end(x)) where x and the call reading it are in one partition */
BYOC__PRIVATE byoc_result byoc__cc_join_regions(byoc_module *m, const byoc__cc_apply *ap, byoc_diag *diag) {
    byoc_node *fn = byoc_module_function(m, "main");
    int f = -1;
    for (int i = 0; i < byoc_module_function_count(m); ++i)
        if (m->functions[i].function == fn) f = i;
    byoc_graph g;
    if (f < 0 || byoc_graph_build(m, fn->body, 0, &g) != BYOC_OK)
        return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "collage: out of memory");
    byoc_node **to = BYOC__CAST(byoc_node **, BYOC_CALLOC((size_t)g.count + 1, sizeof(byoc_node *)));
    int dropped = 0;
    for (int i = 0; to && i < g.count; ++i) {
        byoc_node *b = g.nodes[i].node;
        if (!byoc__is_begin(b) || !g.nodes[i].ninputs || g.nodes[i].nusers != 1) continue;
        byoc_node *e = g.nodes[g.nodes[i].inputs[0]].node;
        if (!byoc__is_end(e)) continue;
        int gp = byoc__cc_group_of(ap, e->args[0]), gu = byoc__cc_group_of(ap, g.nodes[g.nodes[i].users[0]].node);
        if (gp && gp == gu) { to[i] = e->args[0]; dropped++; }
    }
    if (to && dropped) byoc__set_body(m, f, byoc__substitute_at(m, &g, to));
    BYOC_FREE(to);
    byoc_graph_free(&g);
    if (m->has_error) return byoc__diag(diag, m->error.code, 0, 0, 0, "collage: %s", m->error.message);
    return byoc_infer_type(m, diag);
}

BYOC__PRIVATE byoc_result byoc__cc_apply_plan(byoc__cc *cc, byoc__cc_apply *ap, byoc_diag *diag) {
    byoc_module *m = cc->m;
    byoc_result r = BYOC_OK;
    for (ap->k = 0; r == BYOC_OK && ap->k < cc->nb; ++ap->k) {
        const byoc_backend_spec *b = cc->o->backends[ap->k];
        if (!b->npatterns) continue;
        byoc_pattern_entry *table =
            BYOC__CAST(byoc_pattern_entry *, BYOC_MALLOC(sizeof(byoc_pattern_entry) * (size_t)b->npatterns));
        byoc__cc_apply *per = BYOC__CAST(byoc__cc_apply *, BYOC_MALLOC(sizeof(byoc__cc_apply) * (size_t)b->npatterns));
        if (!table || !per) r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "collage: out of memory");
        for (int e = 0; r == BYOC_OK && e < b->npatterns; ++e) {
            per[e] = *ap;
            per[e].entry = &b->patterns[e];
            per[e].ops = cc->ops[ap->k];
            table[e] = b->patterns[e];
            table[e].check = byoc__cc_apply_check;
            table[e].user_data = &per[e];
        }
        if (r == BYOC_OK) r = byoc_merge_composite(m, table, b->npatterns, diag);
        BYOC_FREE(table);
        BYOC_FREE(per);
    }
    if (r == BYOC_OK) r = byoc__annotate_target(m, byoc__cc_apply_choose, ap, 0, diag);
    if (r == BYOC_OK) r = byoc__cc_join_regions(m, ap, diag);
    if (r == BYOC_OK)
        r = byoc_partition_graph(m, cc->o->mod_name ? cc->o->mod_name : "default", cc->o->bind_constants, diag);
    return r;
}

/* a replayed placement: checked against the module, then its partitions become the plan. Entries with
   one origin (ops that stand for one frontend op) take that origin's nodes in graph order. */
BYOC__PRIVATE byoc_result byoc__cc_replay(byoc__cc *cc, int **chosen, byoc_diag *diag) {
    const byoc_collage_options *o = cc->o;
    int count = cc->g.count;
    int *node_of = BYOC__CAST(int *, BYOC_MALLOC(sizeof(int) * ((size_t)o->nreplay + 1))); /* entry -> graph index */
    int *entry_of = BYOC__CAST(int *, BYOC_MALLOC(sizeof(int) * ((size_t)count + 1))); /* graph index -> entry, -1 */
    byoc__map cursor = BYOC__MAP_EMPTY; /* origin -> the next graph index to take + 1 (-1 when used up) */
    int *mem = NULL;
    byoc_result r =
        node_of && entry_of ? BYOC_OK : byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "collage: out of memory");
    for (int i = 0; r == BYOC_OK && i < count; ++i) entry_of[i] = -1;
    for (int k = 0; k < o->nreplay && r == BYOC_OK; ++k) {
        const byoc_collage_assignment *a = &o->replay[k];
        const void *key = (const void *)(uintptr_t)a->origin;
        intptr_t at = byoc__map_get(&cursor, key, 0);
        int i = at > 0 ? (int)at - 1 : at < 0 ? -1 : (int)byoc__map_get(&cc->by_origin, key, 0) - 1;
        while (i >= 0 && !byoc__is_op_call(cc->g.nodes[i].node)) i = cc->same_origin[i];
        if (i < 0) {
            r = byoc__diag(
                diag, BYOC_ERR_NOT_FOUND, 0, 0, a->origin,
                at < 0 ? "placement: op #%u is placed more often than this model has it"
                       : "placement: op #%u is not in this model (the placement was made for another model or version)",
                (unsigned)a->origin);
            break;
        }
        int next = cc->same_origin[i];
        byoc__map_put(&cursor, key, next >= 0 ? next + 1 : -1);
        const byoc_node *x = cc->g.nodes[i].node;
        if (a->op && strcmp(a->op, x->op->def.name)) {
            r = byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, a->origin,
                           "placement: op #%u is %s in this model, the placement says %s (it was made for another "
                           "model or version)",
                           (unsigned)a->origin, x->op->def.name, a->op);
            break;
        }
        int b = -1;
        for (int q = 0; q < cc->nb && b < 0; ++q)
            if (!strcmp(o->backends[q]->name, a->backend)) b = q;
        if (!strcmp(a->backend, "host")) b = cc->nb;
        if (a->group <= 0 && b != cc->nb) /* replay would put it on the host one by one, whatever its backend */
            r = byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, a->origin,
                           "placement: op #%u on %s has group %d: groups are numbered from 1", (unsigned)a->origin,
                           a->backend, a->group);
        else if (b < 0)
            r = byoc__diag(diag, BYOC_ERR_NOT_FOUND, 0, 0, a->origin,
                           "placement: op #%u goes to '%s', which is not among the backends given", (unsigned)a->origin,
                           a->backend);
        else if (cc->pin[i] >= 0 && cc->pin[i] != b)
            r = byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, a->origin,
                           "placement: op #%u goes to %s but is pinned to %s", (unsigned)a->origin, a->backend,
                           byoc__cc_backend_name(cc, cc->pin[i]));
        node_of[k] = i;
        entry_of[i] = k;
    }
    for (int q = 0; q < (int)stbds_arrlen(cc->req) && r == BYOC_OK; ++q) {
        const byoc_node *x = cc->g.nodes[cc->req[q]].node;
        if (byoc__is_op_call(x) && entry_of[cc->req[q]] < 0)
            r = byoc__diag(diag, BYOC_ERR_NOT_FOUND, byoc_node_span(x)->line, byoc_node_span(x)->col,
                           byoc_node_origin(x),
                           "placement: op #%u (%s%s%s) has no entry (the model changed since the placement was saved)",
                           (unsigned)byoc_node_origin(x), x->op->def.name, byoc_node_span(x)->source ? " " : "",
                           byoc_node_span(x)->source ? byoc_node_span(x)->source : "");
    }
    /* one candidate per (backend, group); ungrouped ops, tuples and projections on the host one by one */
    for (int k = 0; k < o->nreplay && r == BYOC_OK; ++k) {
        const byoc_collage_assignment *a = &o->replay[k];
        if (a->group <= 0) continue;
        int dup = 0;
        for (int j = 0; j < k && !dup; ++j)
            dup = o->replay[j].group == a->group && !strcmp(o->replay[j].backend, a->backend);
        if (dup) continue;
        int b = 0;
        while (b < cc->nb && strcmp(o->backends[b]->name, a->backend)) b++;
        stbds_arrsetlen(mem, 0);
        for (int j = k; j < o->nreplay; ++j)
            if (o->replay[j].group == a->group && !strcmp(o->replay[j].backend, a->backend))
                stbds_arrput(mem, node_of[j]);
        qsort(mem, (size_t)stbds_arrlen(mem), sizeof(int), byoc__int_cmp);
        int depth, exits, taps, kind, nops;
        if (!byoc__cc_describe(cc, mem, (int)stbds_arrlen(mem), &depth, &exits, &taps, &kind, &nops)) {
            r = byoc__diag(
                diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, a->origin,
                "placement: partition %d on %s is not convex in this model (a path leaves it and comes back)", a->group,
                a->backend);
            break;
        }
        for (int q = 0; q < (int)stbds_arrlen(mem) && r == BYOC_OK; ++q) {
            const byoc_node *x = cc->g.nodes[mem[q]].node;
            char why[300];
            if (b < cc->nb && !byoc_backend_accepts(o->backends[b], x, why, sizeof why)) {
                int covered = 0; /* an op the backend takes only inside one of its composites */
                for (int c = 0; c < (int)stbds_arrlen(cc->cands) && !covered; ++c) {
                    const byoc__cc_cand *cd = &cc->cands[c];
                    if (cd->backend != b || strcmp(cd->rule, "op") == 0 || strcmp(cd->rule, "combine") == 0) continue;
                    for (int z = 0; z < cd->n && !covered; ++z) covered = cc->pool[cd->off + z] == mem[q];
                }
                if (!covered)
                    r = byoc__diag(diag, BYOC_ERR_UNSUPPORTED, 0, 0, byoc_node_origin(x),
                                   "placement: op #%u (%s) goes to %s, which declines it: %s",
                                   (unsigned)byoc_node_origin(x), x->op ? x->op->def.name : "?", a->backend, why);
            }
        }
        if (r != BYOC_OK) break;
        int id = byoc__cc_add(cc, b, mem, (int)stbds_arrlen(mem), "placement", 0, 0, 0);
        if (id < 0) {
            r = byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, a->origin,
                           "placement: partition %d on %s breaks a pin", a->group, a->backend);
            break;
        }
        cc->cands[id].dead = 0;
        stbds_arrput(*chosen, id);
    }
    for (int q = 0; q < (int)stbds_arrlen(cc->req) && r == BYOC_OK; ++q) {
        int i = cc->req[q];
        if (entry_of[i] >= 0 && o->replay[entry_of[i]].group > 0) continue;
        int id = byoc__cc_add(cc, cc->nb, &i, 1, "placement", 0, 0, 0);
        if (id >= 0) stbds_arrput(*chosen, id);
    }
    if (r == BYOC_OK && byoc__cc_cycle(cc, *chosen, (int)stbds_arrlen(*chosen)) >= 0)
        r = byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0,
                       "placement: its partitions depend on each other in a cycle in this model");
    byoc__map_free(&cursor);
    stbds_arrfree(mem);
    BYOC_FREE(node_of);
    BYOC_FREE(entry_of);
    return r;
}

/* the text of b in BYOC_MALLOC'd memory (the caller frees it with BYOC_FREE), NULL when b ran out of memory */
BYOC__PRIVATE char *byoc__cc_text(const byoc__buf *b, size_t *len) {
    if (b->oom || !b->data) return NULL;
    char *out = BYOC__CAST(char *, BYOC_MALLOC(b->len + 1));
    if (!out) return NULL;
    memcpy(out, b->data, b->len);
    out[b->len] = 0;
    if (len) *len = b->len;
    return out;
}

BYOC_API char *byoc_collage_stats_format(const byoc_collage_stats *s, const char *format, size_t *len) {
    byoc_module *scratch = byoc_module_create(NULL);
    if (!scratch) return NULL;
    byoc__buf b;
    memset(&b, 0, sizeof b);
    b.m = scratch;
    int json = !strcmp(format, "json");
    if (!json && strcmp(format, "text")) { byoc_module_destroy(scratch); return NULL; }
    if (json) {
        byoc__buf_printf(&b, "{\"cost\": %.9g, \"search_cost\": %.9g, \"plans\": {", s->cost, s->search_cost);
        for (int p = 0; p < s->nplans; ++p) {
            byoc__buf_printf(&b, "%s", p ? ", " : "");
            byoc__json_str(&b, s->plans[p].name);
            if (isfinite(s->plans[p].cost)) byoc__buf_printf(&b, ": %.9g", s->plans[p].cost);
            else byoc__buf_puts(&b, ": null");
        }
        byoc__buf_printf(&b,
                         "}, \"nodes\": %d, \"candidates\": %d, \"dropped\": %d, \"truncated\": %d, \"states\": %d, "
                         "\"expanded\": %d, "
                         "\"beam\": %s, \"pruned\": %d, \"estimates\": %d, \"cache_hits\": %d, \"researches\": %d, "
                         "\"coalesced\": %d, \"ops\": %d, \"moved\": %d, "
                         "\"fallback\": %s, "
                         "\"seconds\": %.6f}",
                         s->nodes, s->candidates, s->dropped, s->truncated, s->states, s->expanded,
                         s->beam ? "true" : "false", s->pruned, s->estimates, s->cache_hits, s->researches,
                         s->coalesced, s->ops, s->moved, s->fallback ? "true" : "false", s->seconds);
    } else {
        byoc__buf_printf(&b, "collage: plan %.6g ms", s->cost * 1e3);
        for (int p = 0; p < s->nplans; ++p)
            if (isfinite(s->plans[p].cost))
                byoc__buf_printf(&b, "%s %s %.6g ms", p ? "," : " against", s->plans[p].name, s->plans[p].cost * 1e3);
        for (int p = 0; p < s->nplans; ++p)
            if (!strcmp(s->plans[p].name, "greedy") && s->plans[p].cost > 0 && isfinite(s->plans[p].cost))
                byoc__buf_printf(&b, " (%.2fx greedy)", s->plans[p].cost / (s->cost > 0 ? s->cost : 1e-30));
        byoc__buf_printf(&b,
                         "\ncollage: %d nodes, %d candidates (%d refused by the estimator%s), %d states (%d "
                         "expanded%s), %d estimates, %d cache hits, "
                         "%d coalesced, %.1f ms%s%s\n",
                         s->nodes, s->candidates, s->dropped, s->truncated ? ", combining truncated" : "", s->states,
                         s->expanded, s->beam ? ", beam" : ", exact", s->estimates, s->cache_hits, s->coalesced,
                         s->seconds * 1e3, s->researches ? ", re-searched to break a cycle" : "",
                         s->fallback ? ", a baseline plan was kept" : "");
        if (s->nplans) { /* what the search changed: moves between backends, counted, and the first few ops */
            byoc__buf_printf(&b, "collage: %d of %d ops placed elsewhere than by greedy", s->moved, s->ops);
            const char *seen_from[16], *seen_to[16];
            int seen_count[16], nseen = 0, listed = 0;
            byoc__map counted = BYOC__MAP_EMPTY; /* an op the report counts once, though SimplifyInference made two */
            for (int k = 0; k < s->nplacement; ++k) {
                const byoc_collage_assignment *a = &s->placement[k];
                if (!a->greedy || !strcmp(a->greedy, a->backend) ||
                    byoc__map_has(&counted, (const void *)(uintptr_t)a->origin))
                    continue;
                byoc__map_put(&counted, (const void *)(uintptr_t)a->origin, 1);
                int at = -1;
                for (int j = 0; j < nseen && at < 0; ++j)
                    if (!strcmp(seen_from[j], a->greedy) && !strcmp(seen_to[j], a->backend)) at = j;
                if (at < 0 && nseen < 16)
                    at = nseen++, seen_from[at] = a->greedy, seen_to[at] = a->backend, seen_count[at] = 0;
                if (at >= 0) seen_count[at]++;
            }
            byoc__map_free(&counted);
            for (int j = 0; j < nseen; ++j)
                byoc__buf_printf(&b, "%s %d %s -> %s", j ? "," : ":", seen_count[j], seen_from[j], seen_to[j]);
            for (int k = 0; k < s->nplacement && listed < 6; ++k) {
                const byoc_collage_assignment *a = &s->placement[k];
                if (!a->greedy || !strcmp(a->greedy, a->backend)) continue;
                byoc__buf_printf(&b, "%s%s%s%s", listed ? ", " : "; e.g. ", a->op, a->source ? " " : "",
                                 a->source ? a->source : "");
                listed++;
            }
            byoc__buf_printf(&b, "%s\n", s->moved > listed ? ", ..." : "");
        }
    }
    char *out = byoc__cc_text(&b, len);
    byoc_free(scratch, b.data);
    byoc_module_destroy(scratch);
    return out;
}

BYOC_API char *byoc_collage_placement_format(const byoc_collage_stats *s, size_t *len) {
    byoc_module *scratch = byoc_module_create(NULL);
    if (!scratch) return NULL;
    byoc__buf b;
    memset(&b, 0, sizeof b);
    b.m = scratch;
    byoc__buf_puts(&b, "byoc-placement 1\n# origin op backend group  # frontend name\n");
    for (int k = 0; k < s->nplacement; ++k) {
        const byoc_collage_assignment *a = &s->placement[k];
        byoc__buf_printf(&b, "%u %s %s %d%s%s\n", (unsigned)a->origin, a->op ? a->op : "-", a->backend, a->group,
                         a->source ? "  # " : "", a->source ? a->source : "");
    }
    char *out = byoc__cc_text(&b, len);
    byoc_free(scratch, b.data);
    byoc_module_destroy(scratch);
    return out;
}

BYOC_API byoc_result byoc_collage_placement_parse(const char *text, size_t len, const char *filename,
                                                  byoc_module *arena, byoc_collage_assignment **out, int *count,
                                                  byoc_diag *diag) {
    byoc_diag local;
    if (!diag) diag = &local;
    memset(diag, 0, sizeof *diag);
    if (out) *out = NULL;
    if (count) *count = 0;
    if (!arena || !out || !count) return byoc__null_arg(diag, __func__, !arena ? "arena" : "output");
    const char *fname = filename ? filename : "<placement>";
    byoc_collage_assignment *list = NULL;
    const char *p = text ? text : "", *end = p + (text ? len : 0);
    int line = 0, header = 0;
    byoc_result r = BYOC_OK;
    while (p < end && r == BYOC_OK) {
        const char *ls = p;
        while (p < end && *p != '\n') p++;
        const char *le = p;
        if (p < end) p++;
        line++;
        const char *hash = (const char *)memchr(ls, '#', (size_t)(le - ls));
        if (hash) le = hash;
        char words[5][128];
        int nwords = 0;
        for (const char *c = ls; c < le;) {
            while (c < le && byoc__is_space(*c)) c++;
            const char *w = c;
            while (c < le && !byoc__is_space(*c)) c++;
            if (c == w) break;
            if (nwords == 5 || c - w > 127) { nwords = 6; break; }
            snprintf(words[nwords++], sizeof words[0], "%.*s", (int)(c - w), w);
        }
        if (!nwords) continue;
        if (!header) {
            if (nwords != 2 || strcmp(words[0], "byoc-placement") || strcmp(words[1], "1")) {
                r = byoc__diag(diag, BYOC_ERR_PARSE, line, 1, 0, "%s:%d: expected the header \"byoc-placement 1\"",
                               fname, line);
                break;
            }
            header = 1;
            continue;
        }
        char *e1 = NULL, *e2 = NULL;
        unsigned long origin = nwords == 4 ? strtoul(words[0], &e1, 10) : 0;
        long group = nwords == 4 ? strtol(words[3], &e2, 10) : 0;
        if (nwords != 4 || *e1 || words[0][0] == '-' || origin > 0xffffffffUL || *e2 || group < 0 || group > INT_MAX ||
            !byoc__is_identifier(words[2])) {
            r = byoc__diag(diag, BYOC_ERR_PARSE, line, 1, 0,
                           "%s:%d: expected ORIGIN OP BACKEND GROUP (numbers, an op name, a backend name)", fname,
                           line);
            break;
        }
        if (group ==
            0) { /* the writer numbers partitions from 1; replay would put a 0 op on the host, whatever its backend */
            r = byoc__diag(diag, BYOC_ERR_PARSE, line, 1, 0,
                           "%s:%d: group 0 for op #%lu on %s: groups are numbered from 1", fname, line, origin,
                           words[2]);
            break;
        }
        if (stbds_arrlen(list) >= 1 << 24) {
            r = byoc__diag(diag, BYOC_ERR_PARSE, line, 1, 0, "%s:%d: more than 2^24 entries", fname, line);
            break;
        }
        byoc_collage_assignment a;
        a.origin = (uint32_t)origin;
        a.op = strcmp(words[1], "-") ? byoc_intern(arena, words[1]) : NULL;
        a.backend = byoc_intern(arena, words[2]);
        a.group = (int)group;
        stbds_arrput(list, a);
    }
    if (r == BYOC_OK && !header)
        r = byoc__diag(diag, BYOC_ERR_PARSE, 1, 1, 0, "%s: empty (no \"byoc-placement 1\" header)", fname);
    if (r == BYOC_OK) {
        int n = (int)stbds_arrlen(list);
        byoc_collage_assignment *kept = BYOC__NEW_N(arena, byoc_collage_assignment, n + 1);
        if (!kept) r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "%s: out of memory", fname);
        else {
            if (n) memcpy(kept, list, sizeof(byoc_collage_assignment) * (size_t)n);
            *out = kept;
            *count = n;
        }
    }
    stbds_arrfree(list);
    return r;
}

BYOC__PRIVATE void byoc__cc_free(byoc__cc *cc) {
    for (int i = 0; cc->by_first && i < cc->g.count; ++i) stbds_arrfree(cc->by_first[i]);
    BYOC_FREE(cc->by_first);
    stbds_arrfree(cc->req);
    BYOC_FREE(cc->req_pos);
    BYOC_FREE(cc->pin);
    BYOC_FREE(cc->mark);
    BYOC_FREE(cc->seen);
    BYOC_FREE(cc->tmp);
    BYOC_FREE(cc->per_f);
    stbds_arrfree(cc->stack);
    stbds_arrfree(cc->pool);
    stbds_arrfree(cc->cands);
    stbds_arrfree(cc->collide);
    stbds_arrfree(cc->costs);
    stbds_arrfree(cc->states);
    stbds_arrfree(cc->spool);
    stbds_arrfree(cc->heap);
    byoc__map_free(&cc->dedup);
    byoc__map_free(&cc->by_origin);
    BYOC_FREE(cc->same_origin);
    BYOC_FREE(cc->origin_of);
    byoc__map_free(&cc->cost_cache);
    byoc__map_free(&cc->state_index);
    byoc__map_free(&cc->noted);
    for (int b = 0; b < cc->nb && b < BYOC__MAX_BACKENDS; ++b) BYOC_FREE(cc->ops[b]);
    byoc_graph_free(&cc->g);
}

/* the candidates a baseline plan may use: its own partitions, and host candidates clear of them */
BYOC__PRIVATE void byoc__cc_allow_plan(byoc__cc *cc, unsigned char *allowed, int bit) {
    int ncand = (int)stbds_arrlen(cc->cands);
    int s = byoc__cc_new_stamp(cc);
    for (int c = 0; c < ncand; ++c) {
        const byoc__cc_cand *cd = &cc->cands[c];
        allowed[c] = 0;
        if (bit >= 0 && (cd->plans >> bit & 1) && cd->backend != cc->nb)
            for (int q = 0; q < cd->n; ++q) cc->mark[cc->pool[cd->off + q]] = s;
    }
    for (int c = 0; c < ncand; ++c) {
        const byoc__cc_cand *cd = &cc->cands[c];
        if (cd->dead) continue;
        if (bit >= 0 && (cd->plans >> bit & 1) && cd->backend != cc->nb) { allowed[c] = 1; continue; }
        if (cd->backend != cc->nb) continue;
        int clear = 1;
        for (int q = 0; q < cd->n && clear; ++q) clear = cc->mark[cc->pool[cd->off + q]] != s;
        allowed[c] = (unsigned char)clear;
    }
}

BYOC_API byoc_result byoc_partition_collage(byoc_module *m, const byoc_collage_options *o, byoc_collage_stats *stats,
                                            byoc_placement_report **report, byoc_diag *diag) {
    byoc_diag local_diag;
    byoc_collage_stats local_stats;
    if (!diag) diag = &local_diag;
    if (!stats) stats = &local_stats;
    memset(diag, 0, sizeof *diag);
    memset(stats, 0, sizeof *stats);
    if (report) *report = NULL;
    if (!m || !o) return byoc__null_arg(diag, __func__, !m ? "module" : "options");
    double t0 = byoc__cc_clock();
    byoc_result r = byoc__check_backends(o->backends, o->nbackends, diag);
    if (r == BYOC_OK && !o->cost)
        r = byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "collage: no cost estimator given");
    if (r == BYOC_OK) r = byoc_infer_type(m, diag);
    byoc_node *main_fn = r == BYOC_OK ? byoc_module_function(m, "main") : NULL;
    if (r == BYOC_OK && !main_fn) r = byoc__diag(diag, BYOC_ERR_NOT_FOUND, 0, 0, 0, "collage: the module has no @main");
    if (r != BYOC_OK) return r;
    stats->arena = byoc_module_create(NULL);
    byoc_module *arena = byoc_module_create(NULL); /* the report's */
    byoc__cc cc;
    memset(&cc, 0, sizeof cc);
    cc.m = m;
    cc.o = o;
    cc.st = stats;
    cc.nb = o->nbackends;
    byoc__report_builder rb;
    memset(&rb, 0, sizeof rb);
    byoc__map pins = BYOC__MAP_EMPTY;
    int *chosen = NULL, *best_base = NULL, *trial = NULL;
    double *group_cost = NULL; /* per partition number */
    unsigned char *allowed = NULL;
    byoc_partition_summary *parts = NULL;
    int *group_of = NULL, *backend_of = NULL; /* the plan: graph index -> partition number, backend + 1 */
    int *greedy_of = NULL;                    /* the greedy plan: graph index -> backend + 1 */
    byoc__cc_apply ap;
    memset(&ap, 0, sizeof ap);
    ap.o = o;
    if (!stats->arena || !arena || byoc_graph_build(m, main_fn->body, 0, &cc.g) != BYOC_OK)
        r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "collage: out of memory");
    int count = cc.g.count;
    if (r == BYOC_OK) {
        size_t bytes = sizeof(int) * ((size_t)count + 1);
        cc.req_pos = BYOC__CAST(int *, BYOC_MALLOC(bytes));
        cc.pin = BYOC__CAST(int *, BYOC_MALLOC(bytes));
        cc.mark = BYOC__CAST(int *, BYOC_CALLOC((size_t)count + 1, sizeof(int)));
        cc.seen = BYOC__CAST(int *, BYOC_CALLOC((size_t)count + 1, sizeof(int)));
        cc.tmp = BYOC__CAST(int *, BYOC_CALLOC((size_t)count + 1, sizeof(int)));
        cc.per_f = BYOC__CAST(int *, BYOC_CALLOC((size_t)count + 1, sizeof(int)));
        cc.by_first = BYOC__CAST(int **, BYOC_CALLOC((size_t)count + 1, sizeof(int *)));
        cc.same_origin = BYOC__CAST(int *, BYOC_MALLOC(bytes));
        cc.origin_of = BYOC__CAST(uint32_t *, BYOC_CALLOC((size_t)count + 1, sizeof(uint32_t)));
        group_of = BYOC__CAST(int *, BYOC_CALLOC((size_t)count + 1, sizeof(int)));
        backend_of = BYOC__CAST(int *, BYOC_CALLOC((size_t)count + 1, sizeof(int)));
        greedy_of = BYOC__CAST(int *, BYOC_CALLOC((size_t)count + 1, sizeof(int)));
        if (!greedy_of || !cc.req_pos || !cc.pin || !cc.mark || !cc.seen || !cc.tmp || !cc.per_f || !cc.by_first ||
            !cc.same_origin || !cc.origin_of || !group_of || !backend_of)
            r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "collage: out of memory");
    }
    for (int b = 0; r == BYOC_OK && b < cc.nb; ++b) cc.ops[b] = byoc__support_ops(o->backends[b]);
    if (r == BYOC_OK) {
        byoc__collect_ops(m, arena, &rb);
        cc.rb = &rb;
        cc.arena = arena;
        byoc__map last = BYOC__MAP_EMPTY; /* origin -> the last graph index with it + 1 */
        for (int i = 0; i < count; ++i) {
            byoc_node *x = cc.g.nodes[i].node;
            cc.req_pos[i] = cc.pin[i] = cc.same_origin[i] = -1;
            cc.origin_of[i] = byoc_node_origin(x);
            if (x->kind != BYOC_NODE_CALL && x->kind != BYOC_NODE_TUPLE && x->kind != BYOC_NODE_TUPLE_GET_ITEM)
                continue;
            cc.req_pos[i] = (int)stbds_arrlen(cc.req);
            stbds_arrput(cc.req, i);
            const void *key = (const void *)(uintptr_t)cc.origin_of[i];
            intptr_t prev = byoc__map_get(&last, key, 0);
            if (prev) cc.same_origin[prev - 1] = i;
            else byoc__map_put(&cc.by_origin, key, i + 1);
            byoc__map_put(&last, key, i + 1);
        }
        byoc__map_free(&last);
        stats->nodes = (int)stbds_arrlen(cc.req);
        r = byoc__resolve_pins(o->pins, o->npins, o->backends, cc.nb, &rb, &pins, diag);
        for (size_t s = 0; r == BYOC_OK && s < pins.cap; ++s) { /* every node standing for the pinned op */
            if (!pins.slots[s].key) continue;
            for (int i = (int)byoc__map_get(&cc.by_origin, (const void *)pins.slots[s].key, 0) - 1; i >= 0;
                 i = cc.same_origin[i])
                cc.pin[i] = (int)pins.slots[s].val - 1; /* nb + 1 - 1: the host */
        }
    }
    /* candidates */
    if (r == BYOC_OK && !o->replay) {
        for (int b = 0; b < cc.nb; ++b) byoc__cc_generate_backend(&cc, b);
        byoc__cc_generate_host(&cc);
        if (!o->no_baselines) {
            r = byoc__cc_plan(&cc, -1, 0, diag);
            for (int k = 0; r == BYOC_OK && k < cc.nb && k < 63; ++k) r = byoc__cc_plan(&cc, k, k + 1, diag);
        }
    }
    if (r == BYOC_OK && o->replay) {
        byoc__cc_generate_host(&cc);
        for (int b = 0; b < cc.nb; ++b) byoc__cc_generate_backend(&cc, b); /* for composites the replay may use */
    }
    int ncand = (int)stbds_arrlen(cc.cands);
    for (int c = 0; r == BYOC_OK && c < ncand; ++c) {
        byoc__cc_price(&cc, c);
        if (m->has_error) r = byoc__diag(diag, m->error.code, 0, 0, 0, "collage: %s", m->error.message);
    }
    if (r == BYOC_OK) {
        allowed = BYOC__CAST(unsigned char *, BYOC_MALLOC((size_t)ncand + 1));
        if (!allowed) r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "collage: out of memory");
    }
    for (int c = 0; r == BYOC_OK && c < ncand; ++c) {
        const byoc__cc_cand *cd = &cc.cands[c];
        int pin_ok = 1;
        for (int q = 0; q < cd->n && pin_ok; ++q)
            pin_ok = cc.pin[cc.pool[cd->off + q]] < 0 || cc.pin[cc.pool[cd->off + q]] == cd->backend;
        allowed[c] = (unsigned char)(pin_ok && !cd->dead);
        stats->candidates += !cd->dead;
        if (!cd->dead) stbds_arrput(cc.by_first[cd->first], c);
    }
    /* a pinned op needs a candidate of its backend */
    for (int i = 0; r == BYOC_OK && i < count; ++i) {
        if (cc.pin[i] < 0) continue;
        int ok = 0;
        for (int c = 0; c < ncand && !ok; ++c) {
            const byoc__cc_cand *cd = &cc.cands[c];
            if (!allowed[c] || cd->backend != cc.pin[i] || i < cd->first || i > cd->last) continue;
            for (int q = 0; q < cd->n && !ok; ++q) ok = cc.pool[cd->off + q] == i;
        }
        if (!ok) {
            const byoc_node *x = cc.g.nodes[i].node;
            char why[1000] = "it cannot run there";
            if (cc.pin[i] < cc.nb && byoc__is_op_call(x) &&
                !byoc_backend_accepts(o->backends[cc.pin[i]], x, why, sizeof why)) {
                intptr_t note = byoc__map_get(&cc.noted, byoc__ob_key((uint32_t)i, cc.pin[i]), 0);
                if (note) byoc__add_pattern_note(why, sizeof why, (const char *)note);
            }
            r = byoc__diag(
                diag, BYOC_ERR_UNSUPPORTED, byoc_node_span(x)->line, byoc_node_span(x)->col, byoc_node_origin(x),
                "%s #%u%s%s is pinned to %s, which declines it: %s", x->op ? x->op->def.name : "node",
                (unsigned)byoc_node_origin(x), byoc_node_span(x)->source ? " " : "",
                byoc_node_span(x)->source ? byoc_node_span(x)->source : "", byoc__cc_backend_name(&cc, cc.pin[i]), why);
        }
    }
    /* the search, then the baselines in the same space */
    double cost = INFINITY;
    if (r == BYOC_OK && o->replay) {
        r = byoc__cc_replay(&cc, &chosen, diag);
        cost = 0;
        for (int k = 0; r == BYOC_OK && k < (int)stbds_arrlen(chosen); ++k) {
            byoc__cc_price(&cc, chosen[k]);
            if (cc.cands[chosen[k]].dead)
                r = byoc__diag(diag, BYOC_ERR_UNSUPPORTED, 0, 0, 0,
                               "placement: the estimator cannot price partition on %s of %d ops in this model",
                               byoc__cc_backend_name(&cc, cc.cands[chosen[k]].backend), cc.cands[chosen[k]].n);
            else cost += cc.cands[chosen[k]].cost;
        }
    } else if (r == BYOC_OK) {
        cc.allowed = allowed;
        for (int round = 0;; ++round) {
            cost = byoc__cc_search(&cc, &chosen);
            int bad = isfinite(cost) ? byoc__cc_cycle(&cc, chosen, (int)stbds_arrlen(chosen)) : -1;
            if (bad < 0 || round == 16) {
                if (bad >= 0) cost = INFINITY;
                break;
            }
            allowed[bad] = 0; /* break the cycle: search again without this partition */
            stats->researches++;
        }
        /* baselines: greedy, each backend alone, the host alone */
        int nplans = o->no_baselines ? 0 : cc.nb + 2;
        stats->plans = BYOC__NEW_N(stats->arena, byoc_collage_plan_cost, nplans + 1);
        double best = INFINITY;
        unsigned char *base = BYOC__CAST(unsigned char *, BYOC_MALLOC((size_t)ncand + 1));
        for (int p = 0; base && stats->plans && p < nplans; ++p) {
            int bit = p == 0 ? 0 : p <= cc.nb ? p : -1;
            if (bit > 63) continue;
            char name[160];
            snprintf(name, sizeof name, "%s%s",
                     p == 0       ? "greedy"
                     : p <= cc.nb ? "only:"
                                  : "host",
                     p > 0 && p <= cc.nb ? o->backends[p - 1]->name : "");
            byoc__cc_allow_plan(&cc, base, bit);
            cc.allowed = base;
            double c = byoc__cc_search(&cc, &trial);
            stats->plans[stats->nplans].name = byoc_intern(stats->arena, name);
            stats->plans[stats->nplans].cost = c;
            stats->nplans++;
            /* a baseline honours the pins only when the greedy plan does (the others ignore other backends' pins) */
            int pin_ok = 1;
            for (int k = 0; k < (int)stbds_arrlen(trial) && pin_ok; ++k) {
                const byoc__cc_cand *cd = &cc.cands[trial[k]];
                for (int q = 0; q < cd->n && pin_ok; ++q)
                    pin_ok = cc.pin[cc.pool[cd->off + q]] < 0 || cc.pin[cc.pool[cd->off + q]] == cd->backend;
            }
            if (p == 0)
                for (int k = 0; k < (int)stbds_arrlen(trial); ++k) {
                    const byoc__cc_cand *cd = &cc.cands[trial[k]];
                    for (int q = 0; q < cd->n; ++q) greedy_of[cc.pool[cd->off + q]] = cd->backend + 1;
                }
            if (pin_ok && c < best) {
                best = c;
                stbds_arrsetlen(best_base, 0);
                for (int k = 0; k < (int)stbds_arrlen(trial); ++k) stbds_arrput(best_base, trial[k]);
            }
        }
        BYOC_FREE(base);
        cc.allowed = allowed;
        if (best < cost) { /* the beam or a cycle cost the search its optimum: the best baseline stands */
            stats->fallback = 1;
            cost = best;
            stbds_arrsetlen(chosen, 0);
            for (int k = 0; k < (int)stbds_arrlen(best_base); ++k) stbds_arrput(chosen, best_base[k]);
        }
        if (!isfinite(cost))
            r = byoc__diag(diag, BYOC_ERR_UNSUPPORTED, 0, 0, 0, "collage: no plan covers every node of @main");
        stats->search_cost = cost;
        if (r == BYOC_OK) {
            byoc__cc_coalesce(&cc, &chosen);
            cost = 0;
            for (int k = 0; k < (int)stbds_arrlen(chosen); ++k) cost += cc.cands[chosen[k]].cost;
        }
    }
    stats->cost = cost;
    /* the plan: device partitions numbered in plan order */
    if (r == BYOC_OK) {
        int group = 0;
        for (int k = 0; k < (int)stbds_arrlen(chosen); ++k) {
            const byoc__cc_cand *cd = &cc.cands[chosen[k]];
            if (!cd->nops) continue;
            group++;
            stbds_arrput(group_cost, cd->cost);
            for (int q = 0; q < cd->n; ++q) {
                int i = cc.pool[cd->off + q];
                group_of[i] = group;
                backend_of[i] = cd->backend + 1; /* nb + 1: the host */
            }
        }
        stats->placement = BYOC__NEW_N(stats->arena, byoc_collage_assignment, stbds_arrlen(cc.req) + 1);
        byoc__map op_moved = BYOC__MAP_EMPTY; /* origin -> 1 + moved: the report's unit */
        for (int q = 0; stats->placement && q < (int)stbds_arrlen(cc.req);
             ++q) { /* in graph order: replay relies on it */
            int i = cc.req[q];
            const byoc_node *x = cc.g.nodes[i].node;
            if (!byoc__is_op_call(x)) continue;
            byoc_collage_assignment *a = &stats->placement[stats->nplacement++];
            a->origin = cc.origin_of[i];
            a->op = x->op->def.name;
            a->backend = backend_of[i] && backend_of[i] <= cc.nb
                             ? byoc_intern(stats->arena, o->backends[backend_of[i] - 1]->name)
                             : "host";
            a->group = group_of[i];
            a->source = byoc_node_span(x)->source ? byoc_intern(stats->arena, byoc_node_span(x)->source) : NULL;
            int moved = 0;
            if (greedy_of[i]) {
                a->greedy =
                    greedy_of[i] <= cc.nb ? byoc_intern(stats->arena, o->backends[greedy_of[i] - 1]->name) : "host";
                moved = strcmp(a->greedy, a->backend) != 0;
            }
            intptr_t was = byoc__map_get(&op_moved, (const void *)(uintptr_t)a->origin, 0);
            if (!was) stats->ops++;
            if (moved && was != 2) stats->moved++;
            if (!was || moved) byoc__map_put(&op_moved, (const void *)(uintptr_t)a->origin, 1 + (moved || was == 2));
        }
        byoc__map_free(&op_moved);
        /* the host's groups are FuseOps' business: only device partitions are applied */
        for (int i = 0; i < count; ++i)
            if (backend_of[i] > cc.nb) group_of[i] = backend_of[i] = 0;
        ap.group = group_of;
        ap.backend = backend_of;
        ap.count = count;
        byoc__cc_tag(&cc.g, cc.req, (int)stbds_arrlen(cc.req));
        r = byoc__cc_apply_plan(&cc, &ap, diag);
        byoc__cc_untag(m, cc.origin_of, count);
    }
    /* the report, with the search's reasons */
    if (r == BYOC_OK) byoc__locate_ops(m, arena, &rb, &parts, 0);
    /* each partition's cost: its candidate's, found through any of its ops */
    for (int p = 0; r == BYOC_OK && p < (int)stbds_arrlen(parts); ++p)
        for (int q = 0; q < (int)stbds_arrlen(rb.nodes); ++q) {
            if (!rb.nodes[q].partition || strcmp(rb.nodes[q].partition, parts[p].function)) continue;
            intptr_t at = byoc__map_get(&cc.by_origin, (const void *)(uintptr_t)rb.nodes[q].origin, 0);
            int group = at ? group_of[at - 1] : 0;
            if (group > 0 && group <= (int)stbds_arrlen(group_cost)) parts[p].estimated_cost = group_cost[group - 1];
            break;
        }
    for (int q = 0; r == BYOC_OK && q < (int)stbds_arrlen(rb.nodes); ++q) {
        byoc_placement *pl = &rb.nodes[q];
        byoc_placement_decline *ds = BYOC__NEW_N(arena, byoc_placement_decline, cc.nb + 1);
        if (!ds) break;
        intptr_t at = byoc__map_get(&cc.by_origin, (const void *)(uintptr_t)pl->origin, 0);
        const byoc_node *x = at ? cc.g.nodes[at - 1].node : NULL;
        for (int k = 0; k < cc.nb; ++k) {
            if (!strcmp(o->backends[k]->name, pl->backend)) continue;
            char why[1000];
            ds[pl->ndeclined].backend = o->backends[k]->name;
            if (x && cc.pin[at - 1] >= 0 && cc.pin[at - 1] != k)
                snprintf(why, sizeof why, "pinned to %s", byoc__cc_backend_name(&cc, cc.pin[at - 1]));
            else if (!x || byoc_backend_accepts(o->backends[k], x, why, sizeof why))
                snprintf(why, sizeof why, "the searched plan is cheaper with it on %s", pl->backend);
            else { /* declined alone: and inside a pattern? */
                intptr_t note = byoc__map_get(&cc.noted, byoc__ob_key((uint32_t)(at - 1), k), 0);
                if (note) byoc__add_pattern_note(why, sizeof why, (const char *)note);
            }
            ds[pl->ndeclined].reason = byoc_intern(arena, why);
            pl->ndeclined++;
        }
        pl->declined = ds;
    }
    if (r == BYOC_OK && report) r = byoc__report_make(&arena, &rb, parts, o->backends, cc.nb, report, diag);
    stats->seconds = byoc__cc_clock() - t0;
    stbds_arrfree(parts);
    stbds_arrfree(rb.nodes);
    byoc__map_free(&rb.index);
    byoc__map_free(&pins);
    BYOC_FREE(group_of);
    BYOC_FREE(backend_of);
    BYOC_FREE(greedy_of);
    stbds_arrfree(chosen);
    stbds_arrfree(group_cost);
    stbds_arrfree(best_base);
    stbds_arrfree(trial);
    BYOC_FREE(allowed);
    byoc__cc_free(&cc);
    byoc_module_destroy(arena);
    if (stats == &local_stats || r != BYOC_OK) {
        if (stats != &local_stats) { /* keep the counts, drop what the arena held */
            byoc_module_destroy(stats->arena);
            stats->arena = NULL;
            stats->plans = NULL;
            stats->placement = NULL;
            stats->nplans = stats->nplacement = 0;
        } else
            byoc_collage_stats_free(stats);
    }
    if (r == BYOC_OK && m->has_error) r = byoc__diag(diag, m->error.code, 0, 0, 0, "collage: %s", m->error.message);
    return r;
}

#endif /* !BYOC_NO_COMPILER */

#ifdef BYOC__DEFINED_TYPEOF
#undef typeof
#undef BYOC__DEFINED_TYPEOF
#endif
#endif /* BYOC_IMPLEMENTATION */

/*
MIT License

Copyright (c) 2026 the byoc.h authors

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction,
including without limitation the rights to use, copy, modify, merge, publish, distribute,
sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
*/
