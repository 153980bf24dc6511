/* byoc_onnx.h v0.1.0 -- ONNX importer for byoc.h. MIT license (see byoc.h).

   Reads an ONNX model (protobuf wire format, decoded here: no libprotobuf) into a byoc_module whose
   @main takes the graph inputs and returns its outputs (a tuple when there are several).

   QUICK START
       #define BYOC_IMPLEMENTATION       // in exactly one file, and in that same file:
       #define BYOC_ONNX_IMPLEMENTATION
       #include "byoc.h"
       #include "tools/byoc_onnx.h"

       byoc_diag diag;
       byoc_onnx_model model;
       if (byoc_onnx_load("model.onnx", NULL, &model, &diag) != BYOC_OK) { fprintf(stderr, "%s\n", diag.message); ... }
       ... model.module, model.input_names[i], model.output_names[k] ...
       byoc_onnx_model_free(&model);    // destroys the module too

   The implementation uses byoc.h's internals (stb_ds, private helpers), so BYOC_ONNX_IMPLEMENTATION
   goes in the translation unit that defines BYOC_IMPLEMENTATION. Its own private names are byoc_onnx__*
   and BYOC_ONNX__* (it defines nothing in byoc.h's byoc__ / BYOC__ namespace).

   COMPILE-TIME OPTIONS
       BYOC_ONNX_IMPLEMENTATION           emit the implementation in this translation unit (the one that
                                          defines BYOC_IMPLEMENTATION)
   Versions: BYOC_ONNX_VERSION_MAJOR, _MINOR, _PATCH, _NUM (major * 10000 + minor * 100 + patch, as
   byoc.h's BYOC_VERSION_NUM) and _STRING; BYOC_VERSION_* is the core's it was built with.

   WHAT IT DOES
   - Opsets 1-21 of the default domain (ai.onnx), with each op's semantics at the model's opset where
     they changed (legacy forms we do not handle, such as opset 6's broadcast attribute, are refused);
     other domains' nodes are unsupported ops. One error
     lists every unsupported op type with its count and opset.
   - Initializers become constants; external data is read from the model's directory (bounded to the
     file, checked against the tensor's size) or refused when options forbid it.
   - Nodes whose inputs are all constants are evaluated at import with the host kernels (Constant,
     ConstantOfShape, Shape of a static type, and the Gather/Unsqueeze/Concat/Reshape chains that
     compute shapes fold away), up to max_constant_bytes per tensor.
   - Every IR node built for an ONNX node carries the span "onnx:NAME" (its name, or its first output's
     name when unnamed); graph inputs carry their input name.
   - Shape-like inputs the graph computes (Reshape's shape, Slice's starts, Pad's pads, ReduceSum's axes,
     ...) import as Relay's dyn.* ops, whose result extents are '?' until a run; NonZero, Compress, Unique
     and NonMaxSuppression give '?' extents the data decides (byoc.h's "Dynamic shapes"). Such calls
     on constants are evaluated at import like any other.
   - Symbolic input dims take values from options (dims by name, or whole input shapes) or
     free_dim_default, or with dynamic_dims stay '?' (then ops that need the extent refuse it by name);
     otherwise the import fails naming the input and the dim.
   - Hostile files: every length, count, varint, wire type and dim is checked against the bytes
     present. The decoder itself never recurses: a graph attribute is kept as bytes and decoded only when
     the If, Loop or Scan converter reads it, subgraphs nesting at most BYOC_ONNX__MAX_GRAPH_DEPTH deep.
   - If, Loop and Scan import as byoc.h's control nodes (if, loop): each subgraph is a closed body
     function, a value of an enclosing graph it uses passed in as a capture (constants are used as they
     are), as ONNX's scoping resolves names: innermost graph first, then outwards. Scan is a loop whose
     body takes its slices of the scan inputs.

   ERRORS
   Calls return byoc_result and fill a caller-owned byoc_diag (may be NULL) with one line naming the file and
   the ONNX node; a NULL module given to byoc_onnx_tensor_load/_read is byoc.h's NULL-handle error
   ("byoc_onnx_tensor_read: module is NULL", NULL returned); byoc_onnx_model_free(NULL) does nothing.

   EXTENSION POINTS (what to touch, by symbol)
     an ONNX op         a converter byoc_onnx__<name>(byoc_onnx__ctx *, const char *op) building IR ops
                        through byoc_onnx__call*, and one entry in byoc_onnx__ops mapping the ONNX op type
                        to it (and to the op record it builds); an IR op it needs first goes into byoc.h
                        (README "Adding an op")
     a tensor format    byoc_onnx__tensor_* (data types, raw and typed fields, external data)

   TABLE OF CONTENTS
       [SECTION] config
       [SECTION] api
       [SECTION] impl: protobuf wire format
       [SECTION] impl: onnx messages
       [SECTION] impl: tensors
       [SECTION] impl: graph building helpers
       [SECTION] impl: op converters: elementwise, shapes, indexing
       [SECTION] impl: op converters: softmax, convolutions, pools, normalisations, reductions
       [SECTION] impl: op converters: math
       [SECTION] impl: op converters: indexing
       [SECTION] impl: op converters: spatial sampling
       [SECTION] impl: op converters: N-d windows
       [SECTION] impl: op converters: recurrent and spectral
       [SECTION] impl: op converters: losses
       [SECTION] impl: op converters: run-time operands
       [SECTION] impl: op converters: data-dependent and run-time shapes
       [SECTION] impl: op converters: quantized
       [SECTION] impl: op converters: control flow
       [SECTION] impl: op converters: sequences and optionals
       [SECTION] impl: the op table (ONNX op type -> converter and op record)
       [SECTION] impl: import
*/
#ifndef BYOC_ONNX_H_INCLUDED
#define BYOC_ONNX_H_INCLUDED
#include "../byoc.h"

// [SECTION] config
#define BYOC_ONNX_VERSION_MAJOR 0
#define BYOC_ONNX_VERSION_MINOR 1
#define BYOC_ONNX_VERSION_PATCH 0
#define BYOC_ONNX_VERSION_NUM \
    (BYOC_ONNX_VERSION_MAJOR * 10000 + BYOC_ONNX_VERSION_MINOR * 100 + BYOC_ONNX_VERSION_PATCH)
#define BYOC_ONNX_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

// [SECTION] api
typedef struct byoc_onnx_dim {
    const char *name; /* a symbolic dim_param of the graph inputs */
    int64_t value;
} byoc_onnx_dim;

typedef struct byoc_onnx_input_shape {
    const char *input; /* a graph input name; NULL: the input at this entry's position (initializers aside) */
    int rank;
    int64_t dims[BYOC_MAX_RANK];
} byoc_onnx_input_shape;

/* A graph input given a value at import: it becomes a constant (ops whose shape-like inputs must be
   known, such as Reshape's shape, then import even when the model feeds them from an input). */
typedef struct byoc_onnx_bound_input {
    const char *input;
    byoc_tensor value; /* copied */
} byoc_onnx_bound_input;

typedef struct byoc_onnx_options {
    const byoc_allocator *allocator;      /* for the module (NULL: malloc) */
    const byoc_onnx_dim *dims;            /* values for symbolic dims */
    int ndims;
    const byoc_onnx_input_shape *shapes;  /* whole shapes for inputs (override the file's) */
    int nshapes;
    int64_t free_dim_default;             /* > 0: value of symbolic dims not given above */
    int no_external_data;                 /* refuse tensors stored outside the file */
    const char *external_data_dir;        /* where external data lives (NULL: the model's directory) */
    uint64_t max_constant_bytes;          /* largest tensor made or folded at import (0: 1 GiB) */
    const byoc_onnx_bound_input *bound;   /* inputs that become constants */
    int nbound;
    int shapes_replace_declared;          /* 1: shapes replace the file's static dims too (the model then
                                             runs on them, as ONNX Runtime runs a model on the shapes it is
                                             fed); 0: a shape must agree with the file's static dims */
    int dynamic_dims;                     /* 1: a symbolic dim with no value above is '?', known at run time */
} byoc_onnx_options;

typedef struct byoc_onnx_model {
    byoc_module *module;
    int ninputs, noutputs;
    const char **input_names;  /* graph input names, in @main's parameter order (module strings) */
    const char **output_names; /* graph output names, in result order */
    int opset;                 /* of the default domain */
    int64_t ir_version;
    const char *producer;      /* producer_name, "" if none */
    int nnodes;                /* ONNX nodes in the graph and its subgraphs (If, Loop, Scan bodies) */
    int nfolded;               /* of them, evaluated at import (constants) */
    /* every ONNX node, in graph order, a subgraph's nodes just before the node holding it (nnodes entries): */
    const char **node_spans;   /* the span its IR nodes carry ("onnx:NAME") */
    const char **node_ops;     /* its op_type */
    const char *
        *node_folded; /* NULL when IR nodes were built for it, else why none is left ("evaluated at import: ...") */
    const char **notes;        /* what the import assumed (symbolic dims taken by default), NULL-terminated */
} byoc_onnx_model;

/* Imports a model held in memory. name is used in messages (and, with no external_data_dir, its
   directory locates external data). On failure returns an error with diag filled and *out zeroed. */
BYOC_API byoc_result byoc_onnx_import(const void *data, size_t size, const char *name, const byoc_onnx_options *opts,
                                      byoc_onnx_model *out, byoc_diag *diag);
BYOC_API byoc_result byoc_onnx_load(const char *path, const byoc_onnx_options *opts, byoc_onnx_model *out,
                                    byoc_diag *diag);
BYOC_API void byoc_onnx_model_free(byoc_onnx_model *model);
/* A serialized TensorProto (the .pb files of ONNX test data) as a constant of m; its name (or "") in
   *name_out when given (module string). */
BYOC_API byoc_node *byoc_onnx_tensor_load(byoc_module *m, const void *data, size_t size, const char *file,
                                          const char **name_out, byoc_diag *diag);
/* The same, read from the file at path. */
BYOC_API byoc_node *byoc_onnx_tensor_read(byoc_module *m, const char *path, const char **name_out, byoc_diag *diag);
/* A serialized TensorProto, SequenceProto or OptionalProto, as `type` says which (a tensor, sequence or
   optional type; NULL: a tensor), as a value byoc_module_evaluate takes (byoc_sequence_value: a sequence's
   type then has elements of any rank; an empty optional is byoc_optional_none of `type`). Sequences of
   tensors only. */
BYOC_API byoc_node *byoc_onnx_value_load(byoc_module *m, const void *data, size_t size, const char *file,
                                         const byoc_type *type, const char **name_out, byoc_diag *diag);

#ifdef __cplusplus
}
#endif
#endif /* BYOC_ONNX_H_INCLUDED */

#if defined(BYOC_ONNX_IMPLEMENTATION) && !defined(BYOC_ONNX_IMPLEMENTATION_INCLUDED)
#define BYOC_ONNX_IMPLEMENTATION_INCLUDED
#if !defined(BYOC_IMPLEMENTATION_INCLUDED)
#error "define BYOC_ONNX_IMPLEMENTATION in the file that defines BYOC_IMPLEMENTATION, after including byoc.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <math.h>

#define BYOC_ONNX__MIN_OPSET 1
#define BYOC_ONNX__MAX_OPSET 21

// [SECTION] impl: protobuf wire format
typedef struct byoc_onnx__pb {
    const uint8_t *p, *end;
} byoc_onnx__pb;

typedef struct byoc_onnx__bytes {
    const uint8_t *p;
    size_t n;
} byoc_onnx__bytes;

/* a reader over a slice; an empty or absent slice reads as empty (never arithmetic on NULL) */
BYOC__PRIVATE byoc_onnx__pb byoc_onnx__pb_of(byoc_onnx__bytes s) {
    static const uint8_t nothing[1] = {0};
    byoc_onnx__pb r;
    r.p = s.p && s.n ? s.p : nothing;
    r.end = s.p && s.n ? s.p + s.n : nothing;
    return r;
}

enum { BYOC_ONNX__WIRE_VARINT = 0, BYOC_ONNX__WIRE_I64 = 1, BYOC_ONNX__WIRE_LEN = 2, BYOC_ONNX__WIRE_I32 = 5 };

/* at most 10 bytes; a 10th byte may carry only the top bit of a uint64 */
BYOC__PRIVATE int byoc_onnx__pb_varint(byoc_onnx__pb *b, uint64_t *v) {
    uint64_t r = 0;
    for (int i = 0; i < 10; ++i) {
        if (b->p >= b->end) return 0;
        uint8_t c = *b->p++;
        if (i == 9 && c > 1) return 0;
        r |= (uint64_t)(c & 0x7f) << (7 * i);
        if (!(c & 0x80)) { *v = r; return 1; }
    }
    return 0;
}

BYOC__PRIVATE int byoc_onnx__pb_key(byoc_onnx__pb *b, uint32_t *field, int *wire) {
    uint64_t k;
    if (!byoc_onnx__pb_varint(b, &k) || (k >> 3) == 0 || (k >> 3) > 0x1fffffff) return 0;
    *field = (uint32_t)(k >> 3);
    *wire = (int)(k & 7);
    return 1;
}

BYOC__PRIVATE int byoc_onnx__pb_len(byoc_onnx__pb *b, byoc_onnx__bytes *out) {
    uint64_t n;
    if (!byoc_onnx__pb_varint(b, &n) || n > (uint64_t)(b->end - b->p)) return 0;
    out->p = b->p;
    out->n = (size_t)n;
    b->p += n;
    return 1;
}

BYOC__PRIVATE int byoc_onnx__pb_skip(byoc_onnx__pb *b, int wire) {
    uint64_t v = 0;
    byoc_onnx__bytes s = {0, 0};
    switch (wire) {
    case BYOC_ONNX__WIRE_VARINT: return byoc_onnx__pb_varint(b, &v);
    case BYOC_ONNX__WIRE_I64: if (b->end - b->p < 8) return 0; b->p += 8; return 1;
    case BYOC_ONNX__WIRE_LEN: return byoc_onnx__pb_len(b, &s);
    case BYOC_ONNX__WIRE_I32: if (b->end - b->p < 4) return 0; b->p += 4; return 1;
    default: return 0; /* groups (3, 4) are not used by ONNX; 6, 7 do not exist */
    }
}

BYOC__PRIVATE uint32_t byoc_onnx__le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
BYOC__PRIVATE uint64_t byoc_onnx__le64(const uint8_t *p) {
    return (uint64_t)byoc_onnx__le32(p) | (uint64_t)byoc_onnx__le32(p + 4) << 32;
}

/* A repeated scalar field, packed (one LEN record) or not (one record per value): the values are
   appended to *out as uint64 bit patterns (fixed32/fixed64 as their bits, varints as read). */
BYOC__PRIVATE int byoc_onnx__pb_repeated(byoc_onnx__pb *b, int wire, int element_wire, uint64_t **out) {
    uint64_t v = 0;
    if (wire == element_wire) {
        if (element_wire == BYOC_ONNX__WIRE_VARINT) { if (!byoc_onnx__pb_varint(b, &v)) return 0;
        } else if (element_wire == BYOC_ONNX__WIRE_I32) {
            if (b->end - b->p < 4) return 0;
            v = byoc_onnx__le32(b->p);
            b->p += 4;
        } else {
            if (b->end - b->p < 8) return 0;
            v = byoc_onnx__le64(b->p);
            b->p += 8;
        }
        stbds_arrput(*out, v);
        return 1;
    }
    if (wire != BYOC_ONNX__WIRE_LEN) return 0;
    byoc_onnx__bytes s = {0, 0};
    if (!byoc_onnx__pb_len(b, &s)) return 0;
    byoc_onnx__pb in = byoc_onnx__pb_of(s);
    if (element_wire == BYOC_ONNX__WIRE_I32) {
        if (s.n % 4) return 0;
        for (; in.p < in.end; in.p += 4) stbds_arrput(*out, byoc_onnx__le32(in.p));
    } else if (element_wire == BYOC_ONNX__WIRE_I64) {
        if (s.n % 8) return 0;
        for (; in.p < in.end; in.p += 8) stbds_arrput(*out, byoc_onnx__le64(in.p));
    } else {
        while (in.p < in.end) {
            if (!byoc_onnx__pb_varint(&in, &v)) return 0;
            stbds_arrput(*out, v);
        }
    }
    return 1;
}

// [SECTION] impl: onnx messages
/* The parts of ONNX's messages the importer reads; byte fields point into the file. */
typedef struct byoc_onnx__tensor {
    byoc_onnx__bytes name;
    int data_type;
    uint64_t *dims;           /* stb_ds, as int64 bit patterns */
    byoc_onnx__bytes raw;
    int has_raw;
    uint64_t *values;         /* stb_ds: float_data/int32_data/int64_data/double_data/uint64_data */
    int value_field;          /* which of those fields the values came from (0: none) */
    int external;             /* data_location EXTERNAL */
    byoc_onnx__bytes ext_location;
    uint64_t ext_offset, ext_length;
    int has_ext_length;
    int segment;              /* a segmented tensor (not supported) */
} byoc_onnx__tensor;

typedef enum {
    BYOC_ONNX__ATTR_FLOAT = 1, BYOC_ONNX__ATTR_INT = 2, BYOC_ONNX__ATTR_STRING = 3, BYOC_ONNX__ATTR_TENSOR = 4,
    BYOC_ONNX__ATTR_GRAPH = 5, BYOC_ONNX__ATTR_FLOATS = 6, BYOC_ONNX__ATTR_INTS = 7, BYOC_ONNX__ATTR_STRINGS = 8
} byoc_onnx__attr_type;

typedef struct byoc_onnx__attr {
    byoc_onnx__bytes name;
    int type;          /* from the type field, or inferred from the fields present (old writers omit it) */
    float f;
    int64_t i;
    byoc_onnx__bytes s;
    byoc_onnx__bytes t;     /* the TensorProto, decoded when used */
    uint64_t *floats;  /* stb_ds, float bits */
    uint64_t *ints;    /* stb_ds */
    byoc_onnx__bytes g;     /* the GraphProto, decoded when a control-flow converter reads it */
    byoc_onnx__bytes tp;    /* a TypeProto (Optional's type), decoded when read */
    int has_tp;
    int has_f, has_i, has_s, has_t, has_g, nstrings;
    byoc_onnx__bytes raw; /* the whole AttributeProto: its strings are read from here when an op needs them */
} byoc_onnx__attr;

typedef struct byoc_onnx__node {
    byoc_onnx__bytes *inputs, *outputs; /* stb_ds */
    byoc_onnx__bytes name, op_type, domain;
    byoc_onnx__attr *attrs;        /* stb_ds */
} byoc_onnx__node;

typedef struct byoc_onnx__value_info {
    byoc_onnx__bytes name;
    int elem_type;     /* 0: not a tensor type (or absent) */
    int type_field;    /* TypeProto's field when not a tensor: 4 sequence, 5 map, 8 sparse tensor, 9 optional */
    int nwrap, wrap[2]; /* sequence (4) and optional (9) types around the tensor type, outermost first */
    int has_shape, rank;
    int64_t dims[BYOC_MAX_RANK]; /* -1: symbolic or absent */
    byoc_onnx__bytes dim_names[BYOC_MAX_RANK];
    int too_many_dims;
} byoc_onnx__value_info;

typedef struct byoc_onnx__graph {
    byoc_onnx__node *nodes;        /* stb_ds */
    byoc_onnx__bytes *initializers;     /* stb_ds: TensorProto bytes, decoded when converted */
    byoc_onnx__value_info *inputs, *outputs;
    int sparse_initializers;
} byoc_onnx__graph;

typedef struct byoc_onnx__file {
    int64_t ir_version;
    int opset;                      /* default domain; 0 when absent */
    byoc_onnx__bytes producer;
    byoc_onnx__bytes graph;
    int has_graph;
} byoc_onnx__file;

typedef struct byoc_onnx__value_map { char *key; byoc_node *value; } byoc_onnx__value_map;

/* A subgraph being converted: the values of the graph enclosing it, and each of those its body uses with
   the capture parameter standing for it inside the body. */
typedef struct byoc_onnx__scope {
    byoc_onnx__value_map *outer; /* stb_ds strdup map */
    byoc_node **captured;        /* stb_ds: outer values, in first-use order */
    byoc_node **params;          /* stb_ds: their capture parameters */
    /* the node holding the subgraph and its attribute, so an error inside names where the subgraph is */
    const byoc_onnx__node *holder;
    int holder_index;
    const char *attr;
} byoc_onnx__scope;

/* the importer's state */
typedef struct byoc_onnx__state {
    byoc_module *m;
    const byoc_onnx_options *opt;
    byoc_onnx_options defaults;
    const char *file;         /* for messages */
    char dir[1024];           /* external data directory */
    byoc_diag *diag;
    int opset;
    uint64_t max_bytes;
    byoc_onnx__value_map *values; /* stb_ds strdup map: ONNX value name -> IR node (of the graph converted) */
    byoc_onnx__scope *scopes;     /* stb_ds: subgraphs being converted, innermost last */
    const byoc_onnx__node *node; /* being converted, for messages */
    int node_index;
    const char *span;         /* "onnx:NAME" of the node being converted (module string) */
    byoc_node **built;        /* stb_ds: IR nodes built for the current node (get its span) */
    const char **notes;       /* stb_ds */
    int nfolded;
    const char **node_ops, **node_spans, **node_folded; /* stb_ds, one per node converted */
} byoc_onnx__state;

/* " (in the then_branch of node 2 'pick' (If), in the body of ...)" for an error inside subgraphs, innermost
   first: a subgraph's node indices restart at 0 and its names are often generic, so the enclosing nodes locate it
   (the two innermost named, deeper ones counted) */
BYOC__PRIVATE void byoc_onnx__within(const byoc_onnx__state *st, char *out, size_t cap) {
    size_t len = 0;
    int named = 0, more = 0, top = (int)stbds_arrlen(st->scopes) - 1;
    for (int level = top; level >= 0; --level) {
        const byoc_onnx__scope *sc = &st->scopes[level];
        if (!sc->holder || (level == top && sc->holder == st->node)) continue; /* the message names it already */
        if (named == 2) { more++; continue; }
        byoc_onnx__bytes label = sc->holder->name.n ? sc->holder->name
                                 : stbds_arrlen(sc->holder->outputs) ? sc->holder->outputs[0] : sc->holder->op_type;
        int n = snprintf(out + len, cap - len, "%s the %s of node %d '%.*s' (%.*s)", named ? "," : " (in", sc->attr,
                         sc->holder_index, (int)(label.n > 100 ? 100 : label.n), (const char *)label.p,
                         (int)(sc->holder->op_type.n > 40 ? 40 : sc->holder->op_type.n),
                         (const char *)sc->holder->op_type.p);
        if (n < 0 || (size_t)n >= cap - len) { out[len] = 0; break; }
        len += (size_t)n;
        named++;
    }
    if (named) snprintf(out + len, cap - len, more ? ", %d more enclosing node%s)" : ")", more, more == 1 ? "" : "s");
}

BYOC__PRIVATE byoc_result byoc_onnx__fail(byoc_onnx__state *st, byoc_result code, const char *fmt, ...)
    BYOC__PRINTF(3, 4);
BYOC__PRIVATE byoc_result byoc_onnx__fail(byoc_onnx__state *st, byoc_result code, const char *fmt, ...) {
    char what[700], where[300] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (st->node)
        snprintf(where, sizeof where, " node %d '%.*s' (%.*s)", st->node_index,
                 (int)(st->node->name.n    ? st->node->name.n
                       : st->node->outputs ? st->node->outputs[0].n
                                           : 0),
                 (const char *)(st->node->name.n    ? st->node->name.p
                                : st->node->outputs ? st->node->outputs[0].p
                                                    : (const uint8_t *)""),
                 (int)(st->node->op_type.n > 64 ? 64 : st->node->op_type.n), (const char *)st->node->op_type.p);
    if (st->diag && st->diag->code) return st->diag->code; /* keep the first error */
    char within[500] = "";
    byoc_onnx__within(st, within, sizeof within);
    return byoc__diag(st->diag, code, 0, 0, 0, "%s:%s%s %s%s", st->file, where, where[0] ? ":" : "", what, within);
}

BYOC__PRIVATE int byoc_onnx__bytes_eq(byoc_onnx__bytes b, const char *s) {
    return b.n == strlen(s) && (!b.n || !memcmp(b.p, s, b.n));
}

/* b NUL-terminated: in small (256 bytes) when it fits, else malloc'd (release with byoc_onnx__cstr_free) */
BYOC__PRIVATE char *byoc_onnx__cstr(byoc_onnx__bytes b, char *small) {
    char *s = b.n < 256 ? small : BYOC__CAST(char *, malloc(b.n + 1));
    if (!s) return NULL;
    if (b.n) memcpy(s, b.p, b.n);
    s[b.n] = 0;
    return s;
}

BYOC__PRIVATE void byoc_onnx__cstr_free(char *s, const char *small) { if (s != small) free(s); }

/* a NUL-terminated copy in the module */
BYOC__PRIVATE const char *byoc_onnx__str(byoc_onnx__state *st, byoc_onnx__bytes b) {
    char small[256];
    char *tmp = byoc_onnx__cstr(b, small);
    if (!tmp) return NULL;
    for (size_t i = 0; i < b.n; ++i) if (!tmp[i]) tmp[i] = '?'; /* names with NULs would be cut silently */
    const char *r = byoc_intern(st->m, tmp);
    byoc_onnx__cstr_free(tmp, small);
    return r;
}

#define BYOC_ONNX__PB_BAD(what) \
    return byoc_onnx__fail(st, BYOC_ERR_CORRUPT, "malformed %s (truncated, bad varint or wrong wire type)", what)

BYOC__PRIVATE void byoc_onnx__tensor_free(byoc_onnx__tensor *t) {
    stbds_arrfree(t->dims);
    stbds_arrfree(t->values);
}

BYOC__PRIVATE byoc_result byoc_onnx__parse_tensor(byoc_onnx__state *st, byoc_onnx__bytes data, byoc_onnx__tensor *t) {
    memset(t, 0, sizeof *t);
    byoc_onnx__pb b = byoc_onnx__pb_of(data);
    while (b.p < b.end) {
        uint32_t f;
        int w;
        if (!byoc_onnx__pb_key(&b, &f, &w)) { byoc_onnx__tensor_free(t); BYOC_ONNX__PB_BAD("tensor"); }
        int ok = 1;
        uint64_t v = 0;
        switch (f) {
        case 1: ok = byoc_onnx__pb_repeated(&b, w, BYOC_ONNX__WIRE_VARINT, &t->dims); break;
        case 2:
            ok = w == BYOC_ONNX__WIRE_VARINT && byoc_onnx__pb_varint(&b, &v);
            t->data_type = v > 64 ? 64 : (int)v;
            break;
        case 3: t->segment = 1; ok = byoc_onnx__pb_skip(&b, w); break;
        case 4: case 5: case 7: case 10: case 11:
            if (t->value_field && t->value_field != (int)f) {
                t->value_field = -1;
                ok = byoc_onnx__pb_skip(&b, w);
                break;
            }
            t->value_field = (int)f;
            ok = byoc_onnx__pb_repeated(&b, w,
                                        f == 4    ? BYOC_ONNX__WIRE_I32
                                        : f == 10 ? BYOC_ONNX__WIRE_I64
                                                  : BYOC_ONNX__WIRE_VARINT,
                                        &t->values);
            break;
        case 8: ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &t->name); break;
        case 9: ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &t->raw); t->has_raw = 1; break;
        case 13: { /* external_data: key/value pairs */
            byoc_onnx__bytes entry = {0, 0}, key = {0, 0}, val = {0, 0};
            ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &entry);
            byoc_onnx__pb e = byoc_onnx__pb_of(entry);
            while (ok && e.p < e.end) {
                uint32_t ef;
                int ew;
                ok = byoc_onnx__pb_key(&e, &ef, &ew);
                if (ok && (ef == 1 || ef == 2))
                    ok = ew == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&e, ef == 1 ? &key : &val);
                else if (ok) ok = byoc_onnx__pb_skip(&e, ew);
            }
            if (ok && key.p) {
                char num[32] = "";
                if (val.n < sizeof num) { if (val.n) memcpy(num, val.p, val.n); num[val.n] = 0; }
                if (byoc_onnx__bytes_eq(key, "location")) t->ext_location = val;
                else if (byoc_onnx__bytes_eq(key, "offset")) t->ext_offset = strtoull(num, NULL, 10);
                else if (byoc_onnx__bytes_eq(key, "length")) {
                    t->ext_length = strtoull(num, NULL, 10);
                    t->has_ext_length = 1;
                }
            }
            break;
        }
        case 14: ok = w == BYOC_ONNX__WIRE_VARINT && byoc_onnx__pb_varint(&b, &v); t->external = v == 1; break;
        default: ok = byoc_onnx__pb_skip(&b, w);
        }
        if (!ok) { byoc_onnx__tensor_free(t); BYOC_ONNX__PB_BAD("tensor"); }
    }
    return BYOC_OK;
}


BYOC__PRIVATE byoc_result byoc_onnx__parse_attr(byoc_onnx__state *st, byoc_onnx__bytes data, byoc_onnx__attr *a) {
    memset(a, 0, sizeof *a);
    a->raw = data;
    byoc_onnx__pb b = byoc_onnx__pb_of(data);
    while (b.p < b.end) {
        uint32_t f;
        int w, ok = 1;
        uint64_t v = 0;
        byoc_onnx__bytes s = {0, 0};
        if (!byoc_onnx__pb_key(&b, &f, &w)) {
            stbds_arrfree(a->floats);
            stbds_arrfree(a->ints);
            BYOC_ONNX__PB_BAD("attribute");
        }
        switch (f) {
        case 1: ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &a->name); break;
        case 2:
            ok = w == BYOC_ONNX__WIRE_I32 && b.end - b.p >= 4;
            if (ok) {
                uint32_t bits = byoc_onnx__le32(b.p);
                memcpy(&a->f, &bits, 4);
                b.p += 4;
                a->has_f = 1;
            }
            break;
        case 3:
            ok = w == BYOC_ONNX__WIRE_VARINT && byoc_onnx__pb_varint(&b, &v);
            a->i = (int64_t)v;
            a->has_i = 1;
            break;
        case 4: ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &a->s); a->has_s = 1; break;
        case 5: ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &a->t); a->has_t = 1; break;
        case 6:
            ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &a->g);
            a->has_g = 1;
            break; /* a subgraph: decoded on demand (If, Loop, Scan) */
        case 14: ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &a->tp); a->has_tp = 1; break;
        case 7: ok = byoc_onnx__pb_repeated(&b, w, BYOC_ONNX__WIRE_I32, &a->floats); break;
        case 8: ok = byoc_onnx__pb_repeated(&b, w, BYOC_ONNX__WIRE_VARINT, &a->ints); break;
        case 9: ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &s); a->nstrings++; break;
        case 20:
            ok = w == BYOC_ONNX__WIRE_VARINT && byoc_onnx__pb_varint(&b, &v);
            a->type = v > 100 ? 100 : (int)v;
            break;
        default: ok = byoc_onnx__pb_skip(&b, w);
        }
        if (!ok) {
            stbds_arrfree(a->floats);
            stbds_arrfree(a->ints);
            BYOC_ONNX__PB_BAD("attribute");
        }
    }
    if (!a->type) /* IR version 1 writers did not set type */
        a->type = a->has_f      ? BYOC_ONNX__ATTR_FLOAT
                  : a->has_i    ? BYOC_ONNX__ATTR_INT
                  : a->has_s    ? BYOC_ONNX__ATTR_STRING
                  : a->has_t    ? BYOC_ONNX__ATTR_TENSOR
                  : a->has_g    ? BYOC_ONNX__ATTR_GRAPH
                  : a->floats   ? BYOC_ONNX__ATTR_FLOATS
                  : a->ints     ? BYOC_ONNX__ATTR_INTS
                  : a->nstrings ? BYOC_ONNX__ATTR_STRINGS
                                : 0;
    return BYOC_OK;
}

BYOC__PRIVATE void byoc_onnx__node_free(byoc_onnx__node *n) {
    stbds_arrfree(n->inputs);
    stbds_arrfree(n->outputs);
    for (int i = 0; i < (int)stbds_arrlen(n->attrs); ++i) {
        stbds_arrfree(n->attrs[i].floats);
        stbds_arrfree(n->attrs[i].ints);
    }
    stbds_arrfree(n->attrs);
}

BYOC__PRIVATE byoc_result byoc_onnx__parse_node(byoc_onnx__state *st, byoc_onnx__bytes data, byoc_onnx__node *n) {
    memset(n, 0, sizeof *n);
    byoc_onnx__pb b = byoc_onnx__pb_of(data);
    while (b.p < b.end) {
        uint32_t f;
        int w, ok = 1;
        byoc_onnx__bytes s = {0, 0};
        if (!byoc_onnx__pb_key(&b, &f, &w)) { byoc_onnx__node_free(n); BYOC_ONNX__PB_BAD("node"); }
        switch (f) {
        case 1: case 2:
            ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &s);
            if (ok) { if (f == 1) stbds_arrput(n->inputs, s); else stbds_arrput(n->outputs, s); }
            break;
        case 3: ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &n->name); break;
        case 4: ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &n->op_type); break;
        case 7: ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &n->domain); break;
        case 5: {
            ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &s);
            byoc_onnx__attr a;
            if (ok && byoc_onnx__parse_attr(st, s, &a) != BYOC_OK) { byoc_onnx__node_free(n); return st->diag->code; }
            if (ok) stbds_arrput(n->attrs, a);
            break;
        }
        default: ok = byoc_onnx__pb_skip(&b, w);
        }
        if (!ok) { byoc_onnx__node_free(n); BYOC_ONNX__PB_BAD("node"); }
    }
    return BYOC_OK;
}

/* TypeProto: a tensor type's element type and shape; a sequence or optional around it (at most two, outermost
   first) in vi->wrap. 0 on a malformed message. */
BYOC__PRIVATE int byoc_onnx__parse_type_proto(byoc_onnx__bytes type, byoc_onnx__value_info *vi, int depth) {
    byoc_onnx__pb t = byoc_onnx__pb_of(type);
    int ok = 1;
    while (ok && t.p < t.end) {
        uint32_t tf;
        int tw;
        byoc_onnx__bytes tensor = {0, 0};
        ok = byoc_onnx__pb_key(&t, &tf, &tw);
        if (!ok) break;
        if ((tf == 4 || tf == 9) && depth < 2) { /* Sequence / Optional { elem_type: TypeProto = 1 } */
            byoc_onnx__bytes wrapped = {0, 0};
            if (!vi->nwrap) vi->type_field = (int)tf;
            vi->wrap[vi->nwrap++] = (int)tf;
            ok = tw == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&t, &wrapped);
            byoc_onnx__pb e = byoc_onnx__pb_of(wrapped);
            while (ok && e.p < e.end) {
                uint32_t ef;
                int ew;
                byoc_onnx__bytes elem = {0, 0};
                ok = byoc_onnx__pb_key(&e, &ef, &ew);
                if (ok && ef == 1) ok = ew == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&e, &elem) &&
                                        byoc_onnx__parse_type_proto(elem, vi, depth + 1);
                else if (ok) ok = byoc_onnx__pb_skip(&e, ew);
            }
            continue;
        }
        if (tf != 1) {
            if (tf == 4 || tf == 5 || tf == 8 || tf == 9) vi->type_field = (int)tf;
            if (vi->nwrap) vi->elem_type = 0; /* a map or sparse tensor inside: not supported */
            ok = byoc_onnx__pb_skip(&t, tw);
            continue;
        }
        ok = tw == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&t, &tensor);
        byoc_onnx__pb tt = byoc_onnx__pb_of(tensor);
        while (ok && tt.p < tt.end) {
            uint32_t xf;
            int xw;
            uint64_t v = 0;
            byoc_onnx__bytes shape = {0, 0};
            ok = byoc_onnx__pb_key(&tt, &xf, &xw);
            if (!ok) break;
            if (xf == 1) {
                ok = xw == BYOC_ONNX__WIRE_VARINT && byoc_onnx__pb_varint(&tt, &v);
                vi->elem_type = v > 64 ? 64 : (int)v;
            } else if (xf == 2) {
                ok = xw == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&tt, &shape);
                vi->has_shape = 1;
                byoc_onnx__pb sh = byoc_onnx__pb_of(shape);
                while (ok && sh.p < sh.end) {
                    uint32_t df;
                    int dw;
                    byoc_onnx__bytes dim = {0, 0};
                    ok = byoc_onnx__pb_key(&sh, &df, &dw);
                    if (!ok) break;
                    if (df != 1) { ok = byoc_onnx__pb_skip(&sh, dw); continue; }
                    ok = dw == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&sh, &dim);
                    if (!ok) break;
                    if (vi->rank == BYOC_MAX_RANK) { vi->too_many_dims = 1; continue; }
                    int k = vi->rank++;
                    vi->dims[k] = -1;
                    vi->dim_names[k].p = NULL;
                    vi->dim_names[k].n = 0;
                    byoc_onnx__pb d = byoc_onnx__pb_of(dim);
                    while (ok && d.p < d.end) {
                        uint32_t ff;
                        int fw;
                        ok = byoc_onnx__pb_key(&d, &ff, &fw);
                        if (!ok) break;
                        if (ff == 1) {
                            ok = fw == BYOC_ONNX__WIRE_VARINT && byoc_onnx__pb_varint(&d, &v);
                            vi->dims[k] = (int64_t)v;
                        } else if (ff == 2)
                            ok = fw == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&d, &vi->dim_names[k]);
                        else ok = byoc_onnx__pb_skip(&d, fw);
                    }
                }
            } else ok = byoc_onnx__pb_skip(&tt, xw);
        }
    }
    return ok;
}

/* ValueInfoProto: name and, for a tensor type, element type and shape */
BYOC__PRIVATE byoc_result byoc_onnx__parse_value_info(byoc_onnx__state *st, byoc_onnx__bytes data,
                                                      byoc_onnx__value_info *vi) {
    memset(vi, 0, sizeof *vi);
    byoc_onnx__pb b = byoc_onnx__pb_of(data);
    while (b.p < b.end) {
        uint32_t f;
        int w, ok = 1;
        byoc_onnx__bytes type = {0, 0};
        if (!byoc_onnx__pb_key(&b, &f, &w)) BYOC_ONNX__PB_BAD("value info");
        if (f == 1) ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &vi->name);
        else if (f == 2 && (ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &type))) {
            ok = byoc_onnx__parse_type_proto(type, vi, 0);
        } else if (f != 2) ok = byoc_onnx__pb_skip(&b, w);
        if (!ok) BYOC_ONNX__PB_BAD("value info");
    }
    return BYOC_OK;
}

BYOC__PRIVATE void byoc_onnx__graph_free(byoc_onnx__graph *g) {
    for (int i = 0; i < (int)stbds_arrlen(g->nodes); ++i) byoc_onnx__node_free(&g->nodes[i]);
    stbds_arrfree(g->nodes);
    stbds_arrfree(g->initializers);
    stbds_arrfree(g->inputs);
    stbds_arrfree(g->outputs);
}

BYOC__PRIVATE byoc_result byoc_onnx__parse_graph(byoc_onnx__state *st, byoc_onnx__bytes data, byoc_onnx__graph *g) {
    memset(g, 0, sizeof *g);
    byoc_onnx__pb b = byoc_onnx__pb_of(data);
    while (b.p < b.end) {
        uint32_t f;
        int w, ok = 1;
        byoc_onnx__bytes s = {0, 0};
        if (!byoc_onnx__pb_key(&b, &f, &w)) BYOC_ONNX__PB_BAD("graph");
        if (f == 1 || f == 5 || f == 11 || f == 12) {
            ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &s);
            if (!ok) break;
            if (f == 1) {
                byoc_onnx__node n;
                if (byoc_onnx__parse_node(st, s, &n) != BYOC_OK) return st->diag->code;
                stbds_arrput(g->nodes, n);
            } else if (f == 5) stbds_arrput(g->initializers, s);
            else {
                byoc_onnx__value_info vi;
                if (byoc_onnx__parse_value_info(st, s, &vi) != BYOC_OK) return st->diag->code;
                if (f == 11) stbds_arrput(g->inputs, vi);
                else stbds_arrput(g->outputs, vi);
            }
        } else if (f == 15) { g->sparse_initializers++; ok = byoc_onnx__pb_skip(&b, w); }
        else ok = byoc_onnx__pb_skip(&b, w);
        if (!ok) BYOC_ONNX__PB_BAD("graph");
    }
    return BYOC_OK;
}

BYOC__PRIVATE byoc_result byoc_onnx__parse_model(byoc_onnx__state *st, const uint8_t *data, size_t size,
                                                 byoc_onnx__file *mf) {
    memset(mf, 0, sizeof *mf);
    byoc_onnx__bytes whole = {data, size};
    byoc_onnx__pb b = byoc_onnx__pb_of(whole);
    int saw_default = 0;
    while (b.p < b.end) {
        uint32_t f;
        int w, ok = 1;
        uint64_t v = 0;
        byoc_onnx__bytes s = {0, 0};
        if (!byoc_onnx__pb_key(&b, &f, &w)) BYOC_ONNX__PB_BAD("model (not an ONNX file?)");
        switch (f) {
        case 1: ok = w == BYOC_ONNX__WIRE_VARINT && byoc_onnx__pb_varint(&b, &v); mf->ir_version = (int64_t)v; break;
        case 2: ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &mf->producer); break;
        case 7: ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &mf->graph); mf->has_graph = 1; break;
        case 8: {
            ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &s);
            byoc_onnx__pb o = byoc_onnx__pb_of(s);
            byoc_onnx__bytes domain = {0, 0};
            int64_t version = 0;
            while (ok && o.p < o.end) {
                uint32_t of;
                int ow;
                ok = byoc_onnx__pb_key(&o, &of, &ow);
                if (!ok) break;
                if (of == 1) ok = ow == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&o, &domain);
                else if (of == 2) {
                    ok = ow == BYOC_ONNX__WIRE_VARINT && byoc_onnx__pb_varint(&o, &v);
                    version = (int64_t)v;
                } else ok = byoc_onnx__pb_skip(&o, ow);
            }
            if (ok && (domain.n == 0 || byoc_onnx__bytes_eq(domain, "ai.onnx"))) {
                mf->opset = version < 0 || version > 1000 ? 1000 : (int)version;
                saw_default = 1;
            }
            break;
        }
        default: ok = byoc_onnx__pb_skip(&b, w);
        }
        if (!ok) BYOC_ONNX__PB_BAD("model (not an ONNX file?)");
    }
    if (!mf->has_graph) return byoc_onnx__fail(st, BYOC_ERR_CORRUPT, "not an ONNX model: it has no graph");
    if (!saw_default) mf->opset = 1; /* ONNX: no import of the default domain means opset 1 */
    return BYOC_OK;
}

// [SECTION] impl: tensors
BYOC__PRIVATE byoc_dtype byoc_onnx__dtype(int t) {
    switch (t) {
    case 1: return BYOC_FLOAT32;
    case 2: return BYOC_UINT8;
    case 3: return BYOC_INT8;
    case 4: return BYOC_UINT16;
    case 5: return BYOC_INT16;
    case 6: return BYOC_INT32;
    case 7: return BYOC_INT64;
    case 9: return BYOC_BOOL;
    case 10: return BYOC_FLOAT16;
    case 11: return BYOC_FLOAT64;
    case 12: return BYOC_UINT32;
    case 13: return BYOC_UINT64;
    case 16: return BYOC_BFLOAT16;
    default: return BYOC_DTYPE_INVALID;
    }
}

BYOC__PRIVATE const char *byoc_onnx__dtype_name(int t) {
    static const char *const names[] = {
        "undefined", "float", "uint8", "int8", "uint16", "int16", "int32", "int64", "string", "bool", "float16",
        "double", "uint32", "uint64", "complex64", "complex128", "bfloat16",
        /* opset 19's float8 types, 21's 4-bit integers, 23's float4 */
        "float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "uint4", "int4", "float4e2m1"};
    return t >= 0 && t < (int)(sizeof names / sizeof names[0]) ? names[t] : "unknown";
}

/* the whole file (or NULL with diag filled) */
BYOC__PRIVATE uint8_t *byoc_onnx__read_file(const char *path, size_t *size, byoc_diag *diag) {
    FILE *f = fopen(path, "rb");
    if (!f) { byoc__diag(diag, BYOC_ERR_IO, 0, 0, 0, "%s: cannot open", path); return NULL; }
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 1 << 16;
            uint8_t *nb = BYOC__CAST(uint8_t *, realloc(buf, ncap));
            if (!nb) {
                free(buf);
                fclose(f);
                byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "%s: out of memory reading it", path);
                return NULL;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) { free(buf); byoc__diag(diag, BYOC_ERR_IO, 0, 0, 0, "%s: read error", path); return NULL; }
    *size = n;
    return buf;
}

/* A TensorProto's payload as a constant. what names it in messages ("initializer 'w'"). */
BYOC__PRIVATE byoc_node *byoc_onnx__tensor_constant(byoc_onnx__state *st, const byoc_onnx__tensor *t,
                                                    const char *what) {
    byoc_dtype dt = byoc_onnx__dtype(t->data_type);
    if (dt == BYOC_DTYPE_INVALID) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%s has element type %s (not supported)", what,
                        byoc_onnx__dtype_name(t->data_type));
        return NULL;
    }
    if (t->segment) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%s is a segmented tensor (not supported)", what);
        return NULL;
    }
    if (t->value_field < 0) {
        byoc_onnx__fail(st, BYOC_ERR_CORRUPT, "%s has values in two different typed fields", what);
        return NULL;
    }
    int rank = (int)stbds_arrlen(t->dims);
    if (rank > BYOC_MAX_RANK) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%s has rank %d (at most %d supported)", what, rank, BYOC_MAX_RANK);
        return NULL;
    }
    int64_t dims[BYOC_MAX_RANK];
    uint64_t count = 1;
    for (int d = 0; d < rank; ++d) {
        int64_t v = (int64_t)t->dims[d];
        if (v < 0 || v > BYOC_MAX_DIM) {
            byoc_onnx__fail(st, BYOC_ERR_CORRUPT, "%s has dim %d = %lld (out of range)", what, d, (long long)v);
            return NULL;
        }
        dims[d] = v;
        if (v && count > UINT64_MAX / (uint64_t)v) {
            byoc_onnx__fail(st, BYOC_ERR_CORRUPT, "%s: element count overflows", what);
            return NULL;
        }
        count *= (uint64_t)v;
    }
    size_t esize = byoc_dtype_size(dt);
    if (count > st->max_bytes / esize) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%s has %llu elements, above the import limit of %llu bytes", what,
                        (unsigned long long)count, (unsigned long long)st->max_bytes);
        return NULL;
    }
    size_t nbytes = (size_t)count * esize;
    const byoc_type *type = byoc_tensor_type(st->m, dt, rank, dims);
    byoc_node *c = type ? byoc_constant(st->m, type, NULL, 0) : NULL;
    if (!c) { byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory for %s", what); return NULL; }
    uint8_t *out = BYOC__CAST(uint8_t *, c->data);
    if (t->external) {
        if (st->opt->no_external_data) {
            byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%s keeps its data in an external file (refused by the options)",
                            what);
            return NULL;
        }
        char loc[512], path[1600];
        if (!t->ext_location.n || t->ext_location.n >= sizeof loc) {
            byoc_onnx__fail(st, BYOC_ERR_CORRUPT, "%s: external data without a usable location", what);
            return NULL;
        }
        memcpy(loc, t->ext_location.p, t->ext_location.n);
        loc[t->ext_location.n] = 0;
        if (loc[0] == '/' || strstr(loc, "..") || strlen(loc) != t->ext_location.n) {
            byoc_onnx__fail(st, BYOC_ERR_CORRUPT, "%s: external data location '%s' leaves the model's directory", what,
                            loc);
            return NULL;
        }
        if (t->has_ext_length && t->ext_length != nbytes) {
            byoc_onnx__fail(st, BYOC_ERR_CORRUPT, "%s: external data length %llu, the tensor needs %llu bytes", what,
                            (unsigned long long)t->ext_length, (unsigned long long)nbytes);
            return NULL;
        }
        snprintf(path, sizeof path, "%s%s", st->dir, loc);
        FILE *f = fopen(path, "rb");
        if (!f) { byoc_onnx__fail(st, BYOC_ERR_IO, "%s: cannot open external data file %s", what, path); return NULL; }
        int ok = fseek(f, 0, SEEK_END) == 0;
        long end = ok ? ftell(f) : -1;
        ok = ok && end >= 0 && t->ext_offset <= (uint64_t)end && (uint64_t)end - t->ext_offset >= nbytes &&
             t->ext_offset <= (uint64_t)LONG_MAX;
        ok = ok && fseek(f, (long)t->ext_offset, SEEK_SET) == 0 && fread(out, 1, nbytes, f) == nbytes;
        fclose(f);
        if (!ok) {
            byoc_onnx__fail(st, BYOC_ERR_CORRUPT, "%s: external data file %s is shorter than offset %llu + %llu bytes",
                            what, path, (unsigned long long)t->ext_offset, (unsigned long long)nbytes);
            return NULL;
        }
        return c;
    }
    if (t->has_raw) {
        if (t->raw.n != nbytes) {
            byoc_onnx__fail(st, BYOC_ERR_CORRUPT, "%s has %zu bytes of raw data, its shape needs %zu", what, t->raw.n,
                            nbytes);
            return NULL;
        }
        if (nbytes) memcpy(out, t->raw.p, nbytes); /* ONNX raw data is little-endian, as the host */
        return c;
    }
    size_t have = (size_t)stbds_arrlen(t->values);
    if (have != count) {
        byoc_onnx__fail(st, BYOC_ERR_CORRUPT, "%s has %zu values, its shape needs %llu", what, have,
                        (unsigned long long)count);
        return NULL;
    }
    int field = t->value_field;
    /* which typed field may carry which element type (onnx.proto): float_data, int32_data (every type of
       32 bits or fewer but float32, 16-bit floats as their bits), int64_data, double_data, uint64_data */
    int fits = (field == 4 && dt == BYOC_FLOAT32) || (field == 7 && dt == BYOC_INT64) ||
               (field == 10 && dt == BYOC_FLOAT64) || (field == 11 && (dt == BYOC_UINT32 || dt == BYOC_UINT64)) ||
               (field == 5 && (dt == BYOC_INT32 || dt == BYOC_INT16 || dt == BYOC_UINT16 || dt == BYOC_INT8 ||
                               dt == BYOC_UINT8 || dt == BYOC_BOOL || dt == BYOC_FLOAT16 || dt == BYOC_BFLOAT16)) ||
               count == 0;
    if (!fits) {
        byoc_onnx__fail(st, BYOC_ERR_CORRUPT, "%s: element type %s stored in the wrong field", what,
                        byoc_onnx__dtype_name(t->data_type));
        return NULL;
    }
    for (size_t i = 0; i < count; ++i) {
        uint64_t v = t->values[i];
        switch (dt) {
        case BYOC_FLOAT32: case BYOC_UINT32: { uint32_t bits = (uint32_t)v; memcpy(out + 4 * i, &bits, 4); break; }
        case BYOC_INT64:
        case BYOC_UINT64:
        case BYOC_FLOAT64: memcpy(out + 8 * i, &v, 8); break; /* double_data: the bits */
        case BYOC_INT32: { int32_t x = (int32_t)(uint32_t)v; memcpy(out + 4 * i, &x, 4); break; }
        case BYOC_INT16:
        case BYOC_UINT16:
        case BYOC_FLOAT16:
        case BYOC_BFLOAT16: {
            uint16_t x = (uint16_t)v;
            memcpy(out + 2 * i, &x, 2);
            break;
        }
        default: out[i] = dt == BYOC_BOOL ? (v != 0) : (uint8_t)v; break;
        }
    }
    return c;
}

BYOC_API byoc_node *byoc_onnx_tensor_load(byoc_module *m, const void *data, size_t size, const char *file,
                                          const char **name_out, byoc_diag *diag) {
    if (!m) { byoc__null_arg(diag, __func__, "module"); return NULL; }
    byoc_diag local;
    if (!diag) diag = &local;
    byoc_onnx__state st;
    memset(&st, 0, sizeof st);
    st.m = m;
    st.opt = &st.defaults;
    st.defaults.no_external_data = 1;
    st.file = file ? file : "tensor";
    st.diag = diag;
    st.max_bytes = (uint64_t)1 << 30;
    memset(diag, 0, sizeof *diag);
    byoc_onnx__tensor t;
    byoc_onnx__bytes b = {BYOC__CAST(const uint8_t *, data), size};
    if (byoc_onnx__parse_tensor(&st, b, &t) != BYOC_OK) return NULL;
    byoc_node *c = byoc_onnx__tensor_constant(&st, &t, "the tensor");
    if (c && name_out) *name_out = byoc_onnx__str(&st, t.name);
    byoc_onnx__tensor_free(&t);
    return c;
}

// [SECTION] impl: graph building helpers
/* each IR node made for an ONNX node gets its span when the converter returns */
BYOC__PRIVATE byoc_node *byoc_onnx__note(byoc_onnx__state *st, byoc_node *n) {
    if (n) stbds_arrput(st->built, n);
    return n;
}

/* Evaluates a call whose arguments are all constants with the host kernels; NULL (and an error)
   when it cannot. */
BYOC__PRIVATE byoc_node *byoc_onnx__evaluate(byoc_onnx__state *st, byoc_node *call) {
    const byoc_type *t = call->checked_type;
    if (t->kind == BYOC_TYPE_TENSOR && !byoc_type_is_static(t)) { /* '?' extents the constants settle */
        byoc_diag kd;
        memset(&kd, 0, sizeof kd);
        byoc_node *c = byoc__kernel_run_dynamic(st->m, call, call->args, &kd);
        if (!c)
            byoc_onnx__fail(st, kd.code ? kd.code : BYOC_ERR_INTERNAL, "evaluating its constant inputs: %s",
                            kd.message);
        else if (byoc_constant_nbytes(c) > st->max_bytes)
            byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED,
                            "the constant result has %zu bytes, above the import limit of %llu bytes",
                            byoc_constant_nbytes(c), (unsigned long long)st->max_bytes);
        return st->diag->code ? NULL : c;
    }
    if (t->kind != BYOC_TYPE_TENSOR || !byoc_type_is_static(t)) return NULL;
    int64_t n = byoc_type_num_elements(t);
    if (n < 0 || (uint64_t)n > st->max_bytes / byoc_dtype_size(t->dtype)) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED,
                        "the constant result has %lld elements, above the import limit of %llu bytes", (long long)n,
                        (unsigned long long)st->max_bytes);
        return NULL;
    }
    byoc_tensor in[16], out;
    int nin = 0;
    for (int i = 0; i < call->nargs; ++i) {
        const byoc_node *a = call->args[i];
        int nf = a->kind == BYOC_NODE_TUPLE ? a->nargs : 1;
        for (int k = 0; k < nf; ++k) {
            const byoc_node *c = a->kind == BYOC_NODE_TUPLE ? a->args[k] : a;
            if (c->kind != BYOC_NODE_CONSTANT) return NULL;
            if (nin == 16) return NULL;
            in[nin].dtype = c->annotation->dtype;
            in[nin].rank = c->annotation->rank;
            memcpy(in[nin].dims, c->annotation->dims, sizeof in[nin].dims);
            in[nin].data = c->data;
            nin++;
        }
    }
    byoc_node *c = byoc_constant(st->m, t, NULL, 0);
    if (!c) { byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory"); return NULL; }
    out.dtype = t->dtype;
    out.rank = t->rank;
    memcpy(out.dims, t->dims, sizeof out.dims);
    out.data = c->data;
    byoc_diag kd;
    memset(&kd, 0, sizeof kd);
    if (byoc_kernel_run(call, in, nin, &out, 1, NULL, &kd) != BYOC_OK) {
        byoc_onnx__fail(st, kd.code ? kd.code : BYOC_ERR_INTERNAL, "evaluating its constant inputs: %s", kd.message);
        return NULL;
    }
    c->checked_type = t;
    return c;
}

/* an op call, typed at once; folded to a constant when every argument is one */
BYOC__PRIVATE byoc_node *byoc_onnx__call(byoc_onnx__state *st, const char *op, byoc_node *const *args, int nargs,
                                         const byoc_attrs *attrs) {
    for (int i = 0; i < nargs; ++i) if (!args[i]) return NULL;
    byoc_node *n = byoc_call(st->m, op, args, nargs, attrs);
    if (!n) {
        const byoc_diag *e = byoc_module_error(st->m);
        byoc_onnx__fail(st, e ? e->code : BYOC_ERR_INTERNAL, "%s", e ? e->message : "cannot build the call");
        return NULL;
    }
    byoc_diag td;
    memset(&td, 0, sizeof td);
    if (byoc_infer_node_type(st->m, n, &td) != BYOC_OK) {
        /* the type relation's reason, without the node label (the node is named by this importer) */
        const char *why = strstr(td.message, " in @main: ");
        byoc_onnx__fail(st, BYOC_ERR_TYPE, "%s: %s", op, why ? why + 11 : td.message);
        return NULL;
    }
    int all_constant = 1;
    for (int i = 0; i < nargs && all_constant; ++i) {
        const byoc_node *a = args[i];
        if (a->kind == BYOC_NODE_TUPLE) {
            for (int k = 0; k < a->nargs; ++k) all_constant &= a->args[k]->kind == BYOC_NODE_CONSTANT;
        } else all_constant = a->kind == BYOC_NODE_CONSTANT;
    }
    /* a dequantized constant (a QDQ model's weights and biases) stays a qnn.dequantize: FakeQuantizationToInteger
       needs its integers, scale and zero point; FoldConstant folds it later when it stays in float */
    if (all_constant && strncmp(op, "annotation.", 11) != 0 && strcmp(op, "qnn.dequantize") != 0) {
        byoc_node *c = byoc_onnx__evaluate(st, n);
        if (c) return c;
        if (st->diag->code) return NULL;
    }
    return byoc_onnx__note(st, n);
}

BYOC__PRIVATE byoc_node *byoc_onnx__call1(byoc_onnx__state *st, const char *op, byoc_node *a, const byoc_attrs *attrs) {
    return byoc_onnx__call(st, op, &a, 1, attrs);
}
BYOC__PRIVATE byoc_node *byoc_onnx__call2(byoc_onnx__state *st, const char *op, byoc_node *a, byoc_node *b,
                                          const byoc_attrs *attrs) {
    byoc_node *ab[2] = {a, b};
    return byoc_onnx__call(st, op, ab, 2, attrs);
}

BYOC__PRIVATE const byoc_type *byoc_onnx__type(byoc_node *n) {
    return n ? (n->checked_type ? n->checked_type : n->annotation) : NULL;
}

/* the static tensor type of an input, or NULL with an error */
BYOC__PRIVATE const byoc_type *byoc_onnx__tensor_of(byoc_onnx__state *st, byoc_node *n, const char *what) {
    const byoc_type *t = byoc_onnx__type(n);
    if (!t || t->kind != BYOC_TYPE_TENSOR) {
        byoc_onnx__fail(st, BYOC_ERR_TYPE, "%s is not a tensor", what);
        return NULL;
    }
    if (!byoc_type_is_static(t)) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%s has a dynamic shape (give input shapes or dims)", what);
        return NULL;
    }
    return t;
}

/* a tensor type of known rank whose dims may be '?' (BYOC_DIM_ANY), for converters that need only the rank
   (the IR's type relations carry the '?' on), or NULL with an error */
BYOC__PRIVATE const byoc_type *byoc_onnx__ranked_of(byoc_onnx__state *st, byoc_node *n, const char *what) {
    const byoc_type *t = byoc_onnx__type(n);
    if (!t || t->kind != BYOC_TYPE_TENSOR) {
        byoc_onnx__fail(st, BYOC_ERR_TYPE, "%s is not a tensor", what);
        return NULL;
    }
    return t;
}

/* a tensor type whose dims are known but for the first, the batch, which may be '?': the windowed ops (conv,
   pools) need the channels and the spatial extents, and their 1-D views infer the batch (reshape's -1) */
BYOC__PRIVATE const byoc_type *byoc_onnx__batched_of(byoc_onnx__state *st, byoc_node *n, const char *what) {
    const byoc_type *t = byoc_onnx__ranked_of(st, n, what);
    for (int d = 1; t && d < t->rank; ++d)
        if (t->dims[d] == BYOC_DIM_ANY) {
            byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%s has a '?' extent on axis %d (only the batch may be '?')",
                            what, d);
            return NULL;
        }
    return t;
}

BYOC__PRIVATE byoc_node *byoc_onnx__reshape(byoc_onnx__state *st, byoc_node *x, int rank, const int64_t *dims) {
    const byoc_type *t = byoc_onnx__type(x);
    if (!x || !t) return NULL;
    if (t->kind == BYOC_TYPE_TENSOR && t->rank == rank && !memcmp(t->dims, dims, sizeof(int64_t) * (size_t)rank))
        return x;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(st->m, &a, "newshape", dims, rank);
    return byoc_onnx__call1(st, "reshape", x, &a);
}

BYOC__PRIVATE byoc_node *byoc_onnx__transpose(byoc_onnx__state *st, byoc_node *x, int rank, const int *perm) {
    int64_t axes[BYOC_MAX_RANK];
    int identity = 1;
    for (int d = 0; d < rank; ++d) { axes[d] = perm[d]; identity &= perm[d] == d; }
    if (identity) return x;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(st->m, &a, "axes", axes, rank);
    return byoc_onnx__call1(st, "transpose", x, &a);
}

BYOC__PRIVATE byoc_node *byoc_onnx__cast(byoc_onnx__state *st, byoc_node *x, byoc_dtype dt) {
    const byoc_type *t = byoc_onnx__type(x);
    if (!t || (t->kind == BYOC_TYPE_TENSOR && t->dtype == dt)) return x;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_string(st->m, &a, "dtype", byoc_dtype_name(dt));
    return byoc_onnx__call1(st, "cast", x, &a);
}

BYOC__PRIVATE byoc_node *byoc_onnx__scalar(byoc_onnx__state *st, byoc_dtype dt, double v) {
    byoc_node *c = byoc_constant_scalar(st->m, dt, v);
    if (c) c->checked_type = c->annotation;
    return c;
}

/* The values of a constant integer tensor (a shape, axes, pads...), at most cap of them; -1 and an
   error when x is not a constant of an integer type. */
/* element i of an integer (or bool) tensor, exactly: INT64_MAX, the exporters' "to the end", does not
   survive a trip through double */
BYOC__PRIVATE int64_t byoc_onnx__int_at(byoc_dtype dt, const void *data, int64_t i) {
    const char *p = (const char *)data;
    switch (dt) {
    case BYOC_INT64: { int64_t v; memcpy(&v, p + 8 * i, 8); return v; }
    case BYOC_INT32: { int32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case BYOC_INT16: { int16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case BYOC_INT8: return (int8_t)p[i];
    case BYOC_UINT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case BYOC_UINT32: { uint32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case BYOC_UINT64: {
        uint64_t v;
        memcpy(&v, p + 8 * i, 8);
        return v > INT64_MAX ? INT64_MAX : (int64_t)v;
    }                              /* saturated */
    default: return (uint8_t)p[i]; /* uint8, bool */
    }
}

BYOC__PRIVATE int byoc_onnx__const_ints(byoc_onnx__state *st, byoc_node *x, int64_t *out, int cap, const char *what) {
    if (!x) return -1;
    if (x->kind != BYOC_NODE_CONSTANT) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%s must be a constant (it is computed at run time)", what);
        return -1;
    }
    const byoc_type *t = x->annotation;
    if (t->rank > 1 || (byoc_dtype_is_float(t->dtype) && t->dtype != BYOC_DTYPE_INVALID)) {
        byoc_onnx__fail(st, BYOC_ERR_TYPE, "%s must be a 1-D integer tensor", what);
        return -1;
    }
    int64_t n = byoc_type_num_elements(t);
    if (n > cap) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%s has %lld values (at most %d)", what, (long long)n, cap);
        return -1;
    }
    for (int64_t i = 0; i < n; ++i) out[i] = byoc_onnx__int_at(t->dtype, x->data, i);
    return (int)n;
}

BYOC__PRIVATE int byoc_onnx__const_floats(byoc_onnx__state *st, byoc_node *x, double *out, int cap, const char *what) {
    if (!x) return -1;
    if (x->kind != BYOC_NODE_CONSTANT) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%s must be a constant (it is computed at run time)", what);
        return -1;
    }
    int64_t n = byoc_type_num_elements(x->annotation);
    if (n > cap) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%s has %lld values (at most %d)", what, (long long)n, cap);
        return -1;
    }
    for (int64_t i = 0; i < n; ++i) out[i] = byoc__load(x->annotation->dtype, x->data, i);
    return (int)n;
}

// [SECTION] impl: op converters: elementwise, shapes, indexing
/* What a converter sees: the node's inputs (NULL for an omitted optional input) and attributes. */
typedef struct byoc_onnx__ctx {
    byoc_onnx__state *st;
    const byoc_onnx__node *node;
    byoc_node **in;     /* one per ONNX input */
    int nin;
    byoc_node **out;    /* one per ONNX output, filled by the converter */
    int nout;
    int opset;
} byoc_onnx__ctx;

BYOC__PRIVATE const byoc_onnx__attr *byoc_onnx__attr_get(const byoc_onnx__ctx *c, const char *name) {
    for (int i = 0; i < (int)stbds_arrlen(c->node->attrs); ++i)
        if (byoc_onnx__bytes_eq(c->node->attrs[i].name, name)) return &c->node->attrs[i];
    return NULL;
}

BYOC__PRIVATE int64_t byoc_onnx__attr_int(const byoc_onnx__ctx *c, const char *name, int64_t fallback) {
    const byoc_onnx__attr *a = byoc_onnx__attr_get(c, name);
    return a && a->type == BYOC_ONNX__ATTR_INT ? a->i : fallback;
}

BYOC__PRIVATE double byoc_onnx__attr_float(const byoc_onnx__ctx *c, const char *name, double fallback) {
    const byoc_onnx__attr *a = byoc_onnx__attr_get(c, name);
    return a && a->type == BYOC_ONNX__ATTR_FLOAT ? a->f : a && a->type == BYOC_ONNX__ATTR_INT ? (double)a->i : fallback;
}

/* a string attribute into buf ("" when absent) */
BYOC__PRIVATE const char *byoc_onnx__attr_string(const byoc_onnx__ctx *c, const char *name, const char *fallback,
                                                 char *buf, size_t cap) {
    const byoc_onnx__attr *a = byoc_onnx__attr_get(c, name);
    if (!a || a->type != BYOC_ONNX__ATTR_STRING) return fallback;
    size_t n = a->s.n < cap - 1 ? a->s.n : cap - 1;
    if (n) memcpy(buf, a->s.p, n);
    buf[n] = 0;
    return buf;
}

/* an ints attribute: count, or -1 when absent; an error (returns -2) when longer than cap */
BYOC__PRIVATE int byoc_onnx__attr_ints(const byoc_onnx__ctx *c, const char *name, int64_t *out, int cap) {
    const byoc_onnx__attr *a = byoc_onnx__attr_get(c, name);
    if (!a || a->type != BYOC_ONNX__ATTR_INTS) return -1;
    int n = (int)stbds_arrlen(a->ints);
    if (n > cap) {
        byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "attribute %s has %d values (at most %d)", name, n, cap);
        return -2;
    }
    for (int i = 0; i < n; ++i) out[i] = (int64_t)a->ints[i];
    return n;
}

BYOC__PRIVATE int byoc_onnx__attr_floats(const byoc_onnx__ctx *c, const char *name, double *out, int cap) {
    const byoc_onnx__attr *a = byoc_onnx__attr_get(c, name);
    if (!a || a->type != BYOC_ONNX__ATTR_FLOATS) return -1;
    int n = (int)stbds_arrlen(a->floats);
    if (n > cap) {
        byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "attribute %s has %d values (at most %d)", name, n, cap);
        return -2;
    }
    for (int i = 0; i < n; ++i) { uint32_t bits = (uint32_t)a->floats[i]; float f; memcpy(&f, &bits, 4); out[i] = f; }
    return n;
}

BYOC__PRIVATE byoc_node *byoc_onnx__input(const byoc_onnx__ctx *c, int i, const char *what) {
    if (i < c->nin && c->in[i]) return c->in[i];
    byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "missing input %d (%s)", i, what);
    return NULL;
}

BYOC__PRIVATE int byoc_onnx__norm_axis(byoc_onnx__ctx *c, int64_t axis, int rank, const char *what) {
    if (axis < -rank || axis >= (rank ? rank : 1)) {
        byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "%s %lld is out of range for rank %d", what, (long long)axis, rank);
        return -1;
    }
    return (int)(axis < 0 ? axis + rank : axis);
}

typedef byoc_result (*byoc_onnx__convert_fn)(byoc_onnx__ctx *c, const char *op);
#define BYOC_ONNX__OK(c) ((c)->st->diag->code ? (c)->st->diag->code : BYOC_OK)

BYOC__PRIVATE byoc_result byoc_onnx__identity(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    /* Dropout's training_mode (opset 12): random masks are not an inference op, ratio 0 is the identity */
    if (c->nin > 2 && c->in[2]) {
        if (c->in[2]->kind != BYOC_NODE_CONSTANT)
            return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "Dropout's training_mode must be a constant");
        if (byoc__load(c->in[2]->annotation->dtype, c->in[2]->data, 0) != 0) {
            byoc_node *ratio = c->nin > 1 ? c->in[1] : NULL;
            if (ratio && ratio->kind != BYOC_NODE_CONSTANT)
                return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED,
                                       "Dropout's ratio must be a constant in training mode");
            double r = ratio ? byoc__load(ratio->annotation->dtype, ratio->data, 0) : 0.5;
            if (r != 0)
                return byoc_onnx__fail(
                    c->st, BYOC_ERR_UNSUPPORTED,
                    "Dropout in training mode with ratio %g draws a random mask (not an inference op)", r);
        }
    }
    c->out[0] = byoc_onnx__input(c, 0, "input");
    if (c->nout > 1 && c->out[0]) { /* Dropout's mask: all true at inference */
        const byoc_type *t = byoc_onnx__type(c->out[0]);
        byoc_node *mask =
            t && t->kind == BYOC_TYPE_TENSOR
                ? byoc_constant(c->st->m, byoc_tensor_type(c->st->m, BYOC_BOOL, t->rank, t->dims), NULL, 0)
                : NULL;
        if (mask) { memset(mask->data, 1, byoc_constant_nbytes(mask)); mask->checked_type = mask->annotation; }
        c->out[1] = mask;
    }
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__unary(byoc_onnx__ctx *c, const char *op) {
    c->out[0] = byoc_onnx__call1(c->st, op, byoc_onnx__input(c, 0, "X"), NULL);
    return BYOC_ONNX__OK(c);
}

/* binary broadcast ops; Pow's exponent takes the base's type (ONNX allows them to differ) */
BYOC__PRIVATE byoc_result byoc_onnx__binary(byoc_onnx__ctx *c, const char *op) {
    if (c->opset < 7 && byoc_onnx__attr_get(c, "broadcast") && byoc_onnx__attr_int(c, "broadcast", 0))
        return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED,
                               "the opset %d broadcast attribute is not supported (opset 7 made broadcasting implicit)",
                               c->opset);
    byoc_node *a = byoc_onnx__input(c, 0, "A"), *b = byoc_onnx__input(c, 1, "B");
    if (a && b && !strcmp(op, "power")) {
        byoc_dtype at = byoc_onnx__type(a)->dtype, bt = byoc_onnx__type(b)->dtype;
        if (!byoc_dtype_is_float(at) &&
            byoc_dtype_is_float(bt)) { /* an integer base to a float power: computed in float, as ONNX Runtime does */
            c->out[0] = byoc_onnx__cast(c->st, byoc_onnx__call2(c->st, op, byoc_onnx__cast(c->st, a, bt), b, NULL), at);
            return BYOC_ONNX__OK(c);
        }
        b = byoc_onnx__cast(c->st, b, at);
    }
    c->out[0] = byoc_onnx__call2(c->st, op, a, b, NULL);
    return BYOC_ONNX__OK(c);
}

/* GreaterOrEqual, LessOrEqual: strict or equal (not "not less", which NaN would make true) */
BYOC__PRIVATE byoc_result byoc_onnx__or_equal(byoc_onnx__ctx *c, const char *op) {
    byoc_node *a = byoc_onnx__input(c, 0, "A"), *b = byoc_onnx__input(c, 1, "B");
    byoc_node *strict = byoc_onnx__call2(c->st, op, a, b, NULL);
    byoc_node *args[3] = {strict, strict, byoc_onnx__call2(c->st, "equal", a, b, NULL)};
    c->out[0] = byoc_onnx__call(c->st, "where", args, 3, NULL);
    return BYOC_ONNX__OK(c);
}

/* Sum, Max, Min, Mean: a chain over every input */
BYOC__PRIVATE byoc_result byoc_onnx__variadic(byoc_onnx__ctx *c, const char *op) {
    int mean = !strcmp(op, "mean");
    byoc_node *acc = byoc_onnx__input(c, 0, "data_0");
    for (int i = 1; i < c->nin && acc; ++i)
        acc = byoc_onnx__call2(c->st, mean ? "add" : op, acc, byoc_onnx__input(c, i, "data"), NULL);
    if (mean && acc && c->nin > 1)
        acc =
            byoc_onnx__call2(c->st, "divide", acc, byoc_onnx__scalar(c->st, byoc_onnx__type(acc)->dtype, c->nin), NULL);
    c->out[0] = acc;
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__reciprocal(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *x = byoc_onnx__input(c, 0, "X");
    if (x)
        c->out[0] =
            byoc_onnx__call2(c->st, "divide", byoc_onnx__scalar(c->st, byoc_onnx__type(x)->dtype, 1.0), x, NULL);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__leaky_relu(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_float(c->st->m, &a, "alpha", byoc_onnx__attr_float(c, "alpha", 0.01));
    c->out[0] = byoc_onnx__call1(c->st, "nn.leaky_relu", byoc_onnx__input(c, 0, "X"), &a);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__hard_sigmoid(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_float(c->st->m, &a, "alpha", byoc_onnx__attr_float(c, "alpha", 0.2));
    byoc_attrs_set_float(c->st->m, &a, "beta", byoc_onnx__attr_float(c, "beta", 0.5));
    c->out[0] = byoc_onnx__call1(c->st, "nn.hard_sigmoid", byoc_onnx__input(c, 0, "X"), &a);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__clip(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *x = byoc_onnx__input(c, 0, "input");
    if (!x) return BYOC_ONNX__OK(c);
    byoc_dtype dt = byoc_onnx__type(x)->dtype;
    double lo = dt == BYOC_FLOAT32 ? -3.4028234663852886e38 : -HUGE_VAL, hi = -lo,
           v[1]; /* integers saturate the bounds */
    if (c->opset < 11) {
        lo = byoc_onnx__attr_float(c, "min", lo);
        hi = byoc_onnx__attr_float(c, "max", hi);
    } else {
        if (c->nin > 1 && c->in[1]) {
            if (byoc_onnx__const_floats(c->st, c->in[1], v, 1, "Clip's min") != 1)
                return BYOC_ONNX__OK(c)
                           ? BYOC_ONNX__OK(c)
                           : byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "Clip's min must be a scalar");
            lo = v[0];
        }
        if (c->nin > 2 && c->in[2]) {
            if (byoc_onnx__const_floats(c->st, c->in[2], v, 1, "Clip's max") != 1)
                return BYOC_ONNX__OK(c)
                           ? BYOC_ONNX__OK(c)
                           : byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "Clip's max must be a scalar");
            hi = v[0];
        }
    }
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_float(c->st->m, &a, "a_min", lo);
    byoc_attrs_set_float(c->st->m, &a, "a_max", hi);
    c->out[0] = byoc_onnx__call1(c->st, "clip", x, &a);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__prelu(byoc_onnx__ctx *c,
                                           const char *op) { /* max(0, x) + slope * min(0, x), any broadcast */
    (void)op;
    byoc_node *x = byoc_onnx__input(c, 0, "X"), *slope = byoc_onnx__input(c, 1, "slope");
    if (!x || !slope) return BYOC_ONNX__OK(c);
    byoc_node *zero = byoc_onnx__scalar(c->st, byoc_onnx__type(x)->dtype, 0);
    byoc_node *pos = byoc_onnx__call2(c->st, "maximum", x, zero, NULL),
              *neg = byoc_onnx__call2(c->st, "minimum", x, zero, NULL);
    c->out[0] = byoc_onnx__call2(c->st, "add", pos, byoc_onnx__call2(c->st, "multiply", neg, slope, NULL), NULL);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__cast_op(byoc_onnx__ctx *c, const char *op) {
    byoc_node *x = byoc_onnx__input(c, 0, "input");
    if (!x) return BYOC_ONNX__OK(c);
    byoc_dtype dt;
    if (!strcmp(op, "CastLike")) {
        byoc_node *like = byoc_onnx__input(c, 1, "target_type");
        if (!like) return BYOC_ONNX__OK(c);
        dt = byoc_onnx__type(like)->dtype;
    } else {
        const byoc_onnx__attr *to_attr = byoc_onnx__attr_get(c, "to");
        if (to_attr && to_attr->type == BYOC_ONNX__ATTR_STRING)
            return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED,
                                   "Cast with a type name in 'to' (opset %d's form) is not supported", c->opset);
        int64_t to = byoc_onnx__attr_int(c, "to", 0);
        /* saturate (opset 19) only changes conversions to the float8 types, which are refused below */
        dt = byoc_onnx__dtype((int)(to < 0 || to > 64 ? 0 : to));
        if (dt == BYOC_DTYPE_INVALID)
            return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "Cast to %s is not supported",
                                   byoc_onnx__dtype_name((int)(to < 0 || to > 64 ? 0 : to)));
    }
    c->out[0] = byoc_onnx__cast(c->st, x, dt);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__constant(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    const byoc_onnx__attr *a = NULL;
    for (int i = 0; i < (int)stbds_arrlen(c->node->attrs) && !a; ++i) a = &c->node->attrs[i];
    if (!a) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "Constant has no value attribute");
    if (byoc_onnx__bytes_eq(a->name, "value") && a->type == BYOC_ONNX__ATTR_TENSOR) {
        byoc_onnx__tensor t;
        if (byoc_onnx__parse_tensor(st, a->t, &t) != BYOC_OK) return st->diag->code;
        c->out[0] = byoc_onnx__tensor_constant(st, &t, "its value");
        byoc_onnx__tensor_free(&t);
    } else if (byoc_onnx__bytes_eq(a->name, "value_float") || byoc_onnx__bytes_eq(a->name, "value_int")) {
        c->out[0] = byoc_onnx__scalar(st, a->type == BYOC_ONNX__ATTR_FLOAT ? BYOC_FLOAT32 : BYOC_INT64,
                                      a->type == BYOC_ONNX__ATTR_FLOAT ? a->f : (double)a->i);
    } else if (byoc_onnx__bytes_eq(a->name, "value_floats") || byoc_onnx__bytes_eq(a->name, "value_ints")) {
        int ints = a->type == BYOC_ONNX__ATTR_INTS;
        int64_t n = (int64_t)stbds_arrlen(ints ? a->ints : a->floats);
        byoc_node *k = byoc_constant(st->m, byoc_tensor_type(st->m, ints ? BYOC_INT64 : BYOC_FLOAT32, 1, &n), NULL, 0);
        for (int64_t i = 0; k && i < n; ++i) {
            if (ints) { int64_t v = (int64_t)a->ints[i]; memcpy((char *)k->data + 8 * i, &v, 8); }
            else { uint32_t bits = (uint32_t)a->floats[i]; memcpy((char *)k->data + 4 * i, &bits, 4); }
        }
        c->out[0] = k;
    } else {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(a->name.n > 40 ? 40 : a->name.n), (const char *)a->name.p);
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "Constant with attribute %s is not supported", name);
    }
    if (c->out[0]) c->out[0]->checked_type = c->out[0]->annotation;
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__constant_of_shape(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    int64_t dims[BYOC_MAX_RANK];
    int rank =
        byoc_onnx__const_ints(st, byoc_onnx__input(c, 0, "input"), dims, BYOC_MAX_RANK, "ConstantOfShape's shape");
    if (rank < 0) return BYOC_ONNX__OK(c);
    uint64_t count = 1;
    for (int d = 0; d < rank; ++d) {
        if (dims[d] < 0 || dims[d] > BYOC_MAX_DIM)
            return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "ConstantOfShape: dim %d = %lld", d,
                                   (long long)dims[d]);
        if (dims[d] && count > UINT64_MAX / (uint64_t)dims[d])
            return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "ConstantOfShape: element count overflows");
        count *= (uint64_t)dims[d];
    }
    byoc_dtype dt = BYOC_FLOAT32;
    uint8_t value[8] = {0};
    const byoc_onnx__attr *a = byoc_onnx__attr_get(c, "value");
    if (a && a->type == BYOC_ONNX__ATTR_TENSOR) {
        byoc_onnx__tensor t;
        if (byoc_onnx__parse_tensor(st, a->t, &t) != BYOC_OK) return st->diag->code;
        byoc_node *v = byoc_onnx__tensor_constant(st, &t, "ConstantOfShape's value");
        byoc_onnx__tensor_free(&t);
        if (!v) return BYOC_ONNX__OK(c);
        if (byoc_type_num_elements(v->annotation) != 1)
            return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "ConstantOfShape's value must hold one element");
        dt = v->annotation->dtype;
        memcpy(value, v->data, byoc_dtype_size(dt));
    }
    size_t esize = byoc_dtype_size(dt);
    if (count > st->max_bytes / esize)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED,
                               "ConstantOfShape makes %llu elements, above the import limit of %llu bytes",
                               (unsigned long long)count, (unsigned long long)st->max_bytes);
    byoc_node *k = byoc_constant(st->m, byoc_tensor_type(st->m, dt, rank, dims), NULL, 0);
    if (!k) return byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
    uint8_t *p = BYOC__CAST(uint8_t *, k->data);
    int zero = 1;
    for (size_t i = 0; i < esize; ++i) zero &= value[i] == 0;
    if (zero) memset(p, 0, (size_t)count * esize);
    else for (uint64_t i = 0; i < count; ++i) memcpy(p + i * esize, value, esize);
    k->checked_type = k->annotation;
    c->out[0] = k;
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__shape(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *x = byoc_onnx__input(c, 0, "data");
    const byoc_type *t = byoc_onnx__ranked_of(c->st, x, "Shape's input");
    if (!t) return BYOC_ONNX__OK(c);
    int64_t start = byoc_onnx__attr_int(c, "start", 0), end = byoc_onnx__attr_int(c, "end", t->rank);
    if (start < 0) start += t->rank;
    if (end < 0) end += t->rank;
    start = start < 0 ? 0 : start > t->rank ? t->rank : start;
    end = end < start ? start : end > t->rank ? t->rank : end;
    int64_t n = end - start;
    int known = 1;
    for (int64_t d = start; d < end; ++d) known &= t->dims[d] >= 0;
    if (!known) { /* a '?' extent: the shape computed at run time, then the asked-for part of it */
        byoc_attrs a, s;
        memset(&a, 0, sizeof a);
        memset(&s, 0, sizeof s);
        byoc_attrs_set_string(c->st->m, &a, "dtype", "int64");
        byoc_attrs_set_ints(c->st->m, &s, "begin", &start, 1);
        byoc_attrs_set_ints(c->st->m, &s, "end", &end, 1);
        byoc_node *all = byoc_onnx__call1(c->st, "shape_of", x, &a);
        c->out[0] = n == t->rank ? all : byoc_onnx__call1(c->st, "strided_slice", all, &s);
        return BYOC_ONNX__OK(c);
    }
    byoc_node *k = byoc_constant(c->st->m, byoc_tensor_type(c->st->m, BYOC_INT64, 1, &n), NULL, 0);
    if (!k) return byoc_onnx__fail(c->st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
    memcpy(k->data, t->dims + start, sizeof(int64_t) * (size_t)n);
    k->checked_type = k->annotation;
    c->out[0] = k;
    return BYOC_OK;
}

BYOC__PRIVATE byoc_result byoc_onnx__gather(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *data = byoc_onnx__input(c, 0, "data"), *idx = byoc_onnx__input(c, 1, "indices");
    const byoc_type *t = byoc_onnx__ranked_of(c->st, data, "Gather's data");
    if (!t || !idx) return BYOC_ONNX__OK(c);
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", 0), t->rank, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(c->st->m, &a, "axis", axis);
    /* ONNX indices may count from the end: wrap maps [-n, n) onto [0, n) as ONNX does; constant
       indices are checked here */
    /* on a '?' axis the extent is known at run time only: indices are then taken as computed ones are (wrap) */
    if (idx->kind == BYOC_NODE_CONSTANT && t->dims[axis] >= 0) {
        int64_t n = byoc_type_num_elements(idx->annotation);
        for (int64_t i = 0; i < n; ++i) {
            int64_t v = byoc_onnx__int_at(idx->annotation->dtype, idx->data, i);
            if (v < -t->dims[axis] || v >= t->dims[axis])
                return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT,
                                       "index %lld is out of range for axis %d of size %lld", (long long)v, axis,
                                       (long long)t->dims[axis]);
        }
    }
    byoc_attrs_set_string(c->st->m, &a, "mode", "wrap");
    c->out[0] = byoc_onnx__call2(c->st, "take", data, idx, &a);
    return BYOC_ONNX__OK(c);
}

/* axes from the attribute (before opset 13 for Unsqueeze/Squeeze/ReduceSum...) or the input */
BYOC__PRIVATE int byoc_onnx__axes(byoc_onnx__ctx *c, int input, int attr_until_opset, int64_t *axes, int cap) {
    if (c->opset < attr_until_opset) return byoc_onnx__attr_ints(c, "axes", axes, cap);
    if (input < c->nin && c->in[input]) return byoc_onnx__const_ints(c->st, c->in[input], axes, cap, "axes");
    return -1;
}

/* The axes of a Reduce* node, normalised and checked: from the attribute before opset axes_input_from
   (13 for ReduceSum, 18 for the others), then from the optional input. Returns their count (0: none
   given, every axis is reduced) or -1 with an error. *noop is set when none are given and
   noop_with_empty_axes (an attribute from that same opset) asks for the input unreduced. */
BYOC__PRIVATE int byoc_onnx__reduce_axes(byoc_onnx__ctx *c, const byoc_type *t, int axes_input_from, int64_t *axes,
                                         int *noop) {
    int n = byoc_onnx__axes(c, 1, axes_input_from, axes, BYOC_MAX_RANK);
    if (n == -2 || c->st->diag->code) return -1;
    if (n < 0) n = 0;
    *noop = n == 0 && c->opset >= axes_input_from && byoc_onnx__attr_int(c, "noop_with_empty_axes", 0) != 0;
    int seen[BYOC_MAX_RANK] = {0};
    for (int i = 0; i < n; ++i) {
        int ax = byoc_onnx__norm_axis(c, axes[i], t->rank, "axis");
        if (ax < 0) return -1;
        if (seen[ax]++) {
            byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "axis %d repeated", ax);
            return -1;
        }
        axes[i] = ax;
    }
    return n;
}

BYOC__PRIVATE byoc_result byoc_onnx__unsqueeze(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *x = byoc_onnx__input(c, 0, "data");
    const byoc_type *t = byoc_onnx__ranked_of(c->st, x, "Unsqueeze's input");
    int64_t axes[BYOC_MAX_RANK];
    int n = t ? byoc_onnx__axes(c, 1, 13, axes, BYOC_MAX_RANK) : -2;
    if (n < 0)
        return n == -1 ? byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "Unsqueeze needs axes") : BYOC_ONNX__OK(c);
    int rank = t->rank + n;
    if (rank > BYOC_MAX_RANK)
        return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "Unsqueeze to rank %d (at most %d)", rank, BYOC_MAX_RANK);
    int is_new[BYOC_MAX_RANK] = {0};
    for (int i = 0; i < n; ++i) {
        int ax = byoc_onnx__norm_axis(c, axes[i], rank, "axis");
        if (ax < 0) return BYOC_ONNX__OK(c);
        if (is_new[ax]) return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "axis %d repeated", ax);
        is_new[ax] = 1;
    }
    if (!byoc_type_is_static(t)) { /* '?' extents: unit axes inserted one by one, lowest position first */
        byoc_node *y = x;
        for (int d = 0; d < rank && y; ++d) {
            if (!is_new[d]) continue;
            byoc_attrs a;
            memset(&a, 0, sizeof a);
            byoc_attrs_set_int(c->st->m, &a, "axis", d);
            y = byoc_onnx__call1(c->st, "expand_dims", y, &a);
        }
        c->out[0] = y;
        return BYOC_ONNX__OK(c);
    }
    int64_t dims[BYOC_MAX_RANK];
    for (int d = 0, k = 0; d < rank; ++d) dims[d] = is_new[d] ? 1 : t->dims[k++];
    c->out[0] = byoc_onnx__reshape(c->st, x, rank, dims);
    return BYOC_ONNX__OK(c);
}

/* Squeeze of an input with '?' extents: squeeze by axis (the IR's relation keeps the other '?'); a '?'
   axis squeezed is checked to be 1 at run time (dyn.squeeze); without axes, which ones are 1 is unknown */
BYOC__PRIVATE byoc_result byoc_onnx__squeeze_dynamic(byoc_onnx__ctx *c, byoc_node *x, const byoc_type *t,
                                                     const int *drop, int naxes) {
    if (naxes < 0)
        return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "Squeeze without axes of an input with '?' extents "
                                                            "(which axes are 1 is known at run time)");
    int64_t axes[BYOC_MAX_RANK];
    int n = 0, any_unknown = 0;
    for (int d = 0; d < t->rank; ++d)
        if (drop[d]) {
            axes[n++] = d;
            any_unknown |= t->dims[d] == BYOC_DIM_ANY;
        }
    if (any_unknown) {
        int64_t count = n;
        byoc_node *k = byoc_constant(c->st->m, byoc_tensor_type(c->st->m, BYOC_INT64, 1, &count), axes,
                                     sizeof(int64_t) * (size_t)n);
        if (!k) return byoc_onnx__fail(c->st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
        k->checked_type = k->annotation;
        c->out[0] = byoc_onnx__call2(c->st, "dyn.squeeze", x, k, NULL);
        return BYOC_ONNX__OK(c);
    }
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(c->st->m, &a, "axis", axes, n);
    c->out[0] = n ? byoc_onnx__call1(c->st, "squeeze", x, &a) : x;
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__squeeze(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *x = byoc_onnx__input(c, 0, "data");
    const byoc_type *t = byoc_onnx__ranked_of(c->st, x, "Squeeze's input");
    int64_t axes[BYOC_MAX_RANK];
    int n = t ? byoc_onnx__axes(c, 1, 13, axes, BYOC_MAX_RANK) : -2;
    if (n == -2) return BYOC_ONNX__OK(c);
    int drop[BYOC_MAX_RANK] = {0};
    for (int i = 0; i < n; ++i) {
        int ax = byoc_onnx__norm_axis(c, axes[i], t->rank, "axis");
        if (ax < 0) return BYOC_ONNX__OK(c);
        if (t->dims[ax] != 1 && t->dims[ax] != BYOC_DIM_ANY)
            return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "cannot squeeze axis %d of size %lld", ax,
                                   (long long)t->dims[ax]);
        drop[ax] = 1;
    }
    if (!byoc_type_is_static(t)) return byoc_onnx__squeeze_dynamic(c, x, t, drop, n);
    int64_t dims[BYOC_MAX_RANK];
    int rank = 0;
    for (int d = 0; d < t->rank; ++d)
        if (!(n < 0 ? t->dims[d] == 1 : drop[d])) dims[rank++] = t->dims[d];
    c->out[0] = byoc_onnx__reshape(c->st, x, rank, dims);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__flatten(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *x = byoc_onnx__input(c, 0, "input");
    const byoc_type *t = byoc_onnx__ranked_of(c->st, x, "Flatten's input");
    if (!t) return BYOC_ONNX__OK(c);
    int64_t axis = byoc_onnx__attr_int(c, "axis", 1);
    if (axis < -t->rank || axis > t->rank)
        return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "axis %lld is out of range for rank %d", (long long)axis, t->rank);
    if (axis < 0) axis += t->rank;
    int64_t dims[2] = {1, 1};
    int unknown[2] = {0, 0};
    for (int d = 0; d < t->rank; ++d) {
        if (t->dims[d] == BYOC_DIM_ANY) unknown[d < axis ? 0 : 1] = 1;
        else dims[d < axis ? 0 : 1] *= t->dims[d];
    }
    if (unknown[0] && unknown[1])
        return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED,
                               "Flatten of an input with '?' extents on both sides of axis %lld", (long long)axis);
    for (int k = 0; k < 2; ++k)
        if (unknown[k]) dims[k] = -1; /* the '?' side is what the known side leaves */
    c->out[0] = byoc_onnx__reshape(c->st, x, 2, dims);
    return BYOC_ONNX__OK(c);
}

/* Reshape of an input with '?' extents to a constant shape: the IR's reshape reads 0 (copy the dim) and -1
   (infer it) as ONNX does without allowzero, and its relation carries the '?' */
BYOC__PRIVATE byoc_result byoc_onnx__reshape_dynamic(byoc_onnx__ctx *c, byoc_node *x, const byoc_type *t,
                                                     const int64_t *shape, int n, int allowzero) {
    int inferred = 0;
    for (int d = 0; d < n; ++d) {
        if (shape[d] == 0 && allowzero)
            return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED,
                                   "Reshape to a 0 extent (allowzero) of an input with '?' extents");
        if (shape[d] == 0 && d >= t->rank)
            return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT,
                                   "shape[%d] = 0 copies a dim the input (rank %d) lacks", d, t->rank);
        if (shape[d] < -1 || shape[d] > BYOC_MAX_DIM)
            return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "shape[%d] = %lld", d, (long long)shape[d]);
        if (shape[d] == -1 && inferred++)
            return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "shape has more than one -1");
    }
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(c->st->m, &a, "newshape", shape, n);
    c->out[0] = byoc_onnx__call1(c->st, "reshape", x, &a);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__reshape_op(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *x = byoc_onnx__input(c, 0, "data");
    const byoc_type *t = byoc_onnx__ranked_of(c->st, x, "Reshape's input");
    int64_t shape[BYOC_MAX_RANK];
    int n = !t             ? -1
            : c->opset < 5 ? byoc_onnx__attr_ints(c, "shape", shape, BYOC_MAX_RANK) /* an attribute before opset 5 */
                           : byoc_onnx__const_ints(c->st, byoc_onnx__input(c, 1, "shape"), shape, BYOC_MAX_RANK,
                                                   "Reshape's shape");
    if (n == -1 && t && c->opset < 5 && !c->st->diag->code)
        return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "Reshape needs its shape attribute (opset %d)", c->opset);
    if (n < 0) return BYOC_ONNX__OK(c);
    int allowzero = (int)byoc_onnx__attr_int(c, "allowzero", 0), infer = -1;
    if (!byoc_type_is_static(t)) return byoc_onnx__reshape_dynamic(c, x, t, shape, n, allowzero);
    int64_t total = byoc_type_num_elements(t), known = 1;
    for (int d = 0; d < n; ++d) {
        if (shape[d] == 0 && !allowzero) {
            if (d >= t->rank)
                return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT,
                                       "shape[%d] = 0 copies a dim the input (rank %d) lacks", d, t->rank);
            shape[d] = t->dims[d];
        }
        if (shape[d] == -1) {
            if (infer >= 0) return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "shape has more than one -1");
            infer = d;
        } else if (shape[d] < 0 || shape[d] > BYOC_MAX_DIM)
            return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "shape[%d] = %lld", d, (long long)shape[d]);
        else known *= shape[d];
        if (known > total && total > 0) break;
    }
    if (infer >= 0) {
        if (known == 0 || total % known)
            return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT,
                                   "cannot infer the -1 dim: %lld elements into parts of %lld", (long long)total,
                                   (long long)known);
        shape[infer] = total / known;
        known = total;
    }
    if (known != total)
        return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "cannot reshape %lld elements into %lld",
                               (long long)total, (long long)known);
    for (int d = 0; d < n; ++d) /* the IR's reshape reads 0 as "keep this dim" (Relay's newshape) */
        if (shape[d] == 0) {
            /* an empty result holds no data: a constant of that shape (no element depends on the input) */
            const byoc_type *t = byoc_onnx__type(x);
            byoc_node *k = t && t->kind == BYOC_TYPE_TENSOR
                               ? byoc_constant(c->st->m, byoc_tensor_type(c->st->m, t->dtype, n, shape), NULL, 0)
                               : NULL;
            if (!k) return byoc_onnx__fail(c->st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
            k->checked_type = k->annotation;
            c->out[0] = k;
            return BYOC_ONNX__OK(c);
        }
    c->out[0] = byoc_onnx__reshape(c->st, x, n, shape);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__transpose_op(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *x = byoc_onnx__input(c, 0, "data");
    const byoc_type *t = byoc_onnx__ranked_of(c->st, x, "Transpose's input");
    if (!t) return BYOC_ONNX__OK(c);
    int64_t p[BYOC_MAX_RANK];
    int perm[BYOC_MAX_RANK], seen[BYOC_MAX_RANK] = {0};
    int n = byoc_onnx__attr_ints(c, "perm", p, BYOC_MAX_RANK);
    if (n == -2) return BYOC_ONNX__OK(c);
    if (n >= 0 && n != t->rank)
        return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "perm has %d values for rank %d", n, t->rank);
    for (int d = 0; d < t->rank; ++d) {
        perm[d] = n < 0 ? t->rank - 1 - d : byoc_onnx__norm_axis(c, p[d], t->rank, "perm value");
        if (perm[d] < 0) return BYOC_ONNX__OK(c);
        if (seen[perm[d]]++) return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "perm repeats axis %d", perm[d]);
    }
    c->out[0] = byoc_onnx__transpose(c->st, x, t->rank, perm);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__concat(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    if (c->nin < 1) return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "Concat needs an input");
    const byoc_type *t = byoc_onnx__ranked_of(c->st, byoc_onnx__input(c, 0, "inputs"), "Concat's first input");
    if (!t) return BYOC_ONNX__OK(c);
    if (c->opset >= 4 && !byoc_onnx__attr_get(c, "axis"))
        return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "Concat needs an axis");
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", 1), t->rank, "axis"); /* 1 before opset 4 */
    if (axis < 0) return BYOC_ONNX__OK(c);
    byoc_node **fields = NULL;
    for (int i = 0; i < c->nin; ++i) {
        byoc_node *x = byoc_onnx__input(c, i, "inputs");
        if (!x) { stbds_arrfree(fields); return BYOC_ONNX__OK(c); }
        const byoc_type *xt = byoc_onnx__type(x);
        if (xt && xt->kind == BYOC_TYPE_TENSOR && xt->rank == t->rank && xt->dims[axis] == 0)
            continue; /* empty parts add nothing */
        stbds_arrput(fields, x);
    }
    if (stbds_arrlen(fields) == 1) c->out[0] = fields[0];
    else {
        if (!stbds_arrlen(fields)) stbds_arrput(fields, c->in[0]);
        byoc_node *tuple = byoc_tuple(c->st->m, fields, (int)stbds_arrlen(fields));
        if (tuple) byoc_infer_node_type(c->st->m, tuple, c->st->diag);
        byoc_attrs a;
        memset(&a, 0, sizeof a);
        byoc_attrs_set_int(c->st->m, &a, "axis", axis);
        if (!c->st->diag->code) c->out[0] = byoc_onnx__call1(c->st, "concatenate", tuple, &a);
        else byoc_onnx__fail(c->st, BYOC_ERR_TYPE, "inputs do not concatenate");
    }
    stbds_arrfree(fields);
    return BYOC_ONNX__OK(c);
}

/* ONNX Slice: per axis start/end clamped as the spec says, then one strided_slice over every axis */
BYOC__PRIVATE byoc_result byoc_onnx__slice(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "data");
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "Slice's input");
    if (!t) return BYOC_ONNX__OK(c);
    int64_t starts[BYOC_MAX_RANK], ends[BYOC_MAX_RANK], axes[BYOC_MAX_RANK], steps[BYOC_MAX_RANK];
    int ns, ne, na = -1, nt = -1;
    if (c->opset < 10) {
        ns = byoc_onnx__attr_ints(c, "starts", starts, BYOC_MAX_RANK);
        ne = byoc_onnx__attr_ints(c, "ends", ends, BYOC_MAX_RANK);
        na = byoc_onnx__attr_ints(c, "axes", axes, BYOC_MAX_RANK);
    } else {
        ns = byoc_onnx__const_ints(st, byoc_onnx__input(c, 1, "starts"), starts, BYOC_MAX_RANK, "Slice's starts");
        ne = ns < 0 ? -1
                    : byoc_onnx__const_ints(st, byoc_onnx__input(c, 2, "ends"), ends, BYOC_MAX_RANK, "Slice's ends");
        if (c->nin > 3 && c->in[3]) na = byoc_onnx__const_ints(st, c->in[3], axes, BYOC_MAX_RANK, "Slice's axes");
        if (c->nin > 4 && c->in[4]) nt = byoc_onnx__const_ints(st, c->in[4], steps, BYOC_MAX_RANK, "Slice's steps");
    }
    if (st->diag->code) return st->diag->code;
    if (ns < 0 || ne != ns || (na >= 0 && na != ns) || (nt >= 0 && nt != ns))
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "starts, ends, axes and steps must have the same length");
    int64_t begin[BYOC_MAX_RANK], end[BYOC_MAX_RANK], stride[BYOC_MAX_RANK];
    int seen[BYOC_MAX_RANK] = {0};
    for (int d = 0; d < t->rank; ++d) { begin[d] = 0; end[d] = t->dims[d]; stride[d] = 1; }
    for (int i = 0; i < ns; ++i) {
        int d = byoc_onnx__norm_axis(c, na >= 0 ? axes[i] : i, t->rank, "axis");
        if (d < 0) return BYOC_ONNX__OK(c);
        if (seen[d]++) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "axis %d repeated", d);
        int64_t step = nt >= 0 ? steps[i] : 1, dim = t->dims[d], s = starts[i], e = ends[i];
        if (step == 0) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "step 0 on axis %d", d);
        /* the spec: negatives count from the end, then starts clamp to [0, dim] and ends to [0, dim]
           going forward, starts to [0, dim - 1] and ends to [-1, dim - 1] going backward */
        if (s < 0) s = s < -dim ? -1 : s + dim;
        if (e < 0) e = e < -dim ? -1 : e + dim;
        if (step > 0) {
            s = s < 0 ? 0 : s > dim ? dim : s;
            e = e < 0 ? 0 : e > dim ? dim : e;
        } else {
            s = s < 0 ? 0 : s > dim - 1 ? dim - 1 : s;
            e = e < -1 ? -1 : e > dim - 1 ? dim - 1 : e;
            if (dim == 0) s = e = 0;
        }
        begin[d] = s;
        end[d] = e;
        stride[d] = step;
    }
    /* strided_slice reads a negative end as counting from the back: "before index 0" is -(dim + 1) */
    for (int d = 0; d < t->rank; ++d)
        if (stride[d] < 0 && end[d] == -1) end[d] = -(t->dims[d] + 1);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(st->m, &a, "begin", begin, t->rank);
    byoc_attrs_set_ints(st->m, &a, "end", end, t->rank);
    byoc_attrs_set_ints(st->m, &a, "strides", stride, t->rank);
    c->out[0] = byoc_onnx__call1(st, "strided_slice", x, &a);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__split(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "input");
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "Split's input");
    if (!t) return BYOC_ONNX__OK(c);
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", 0), t->rank, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
    int64_t sizes[64];
    /* the sizes: an input at opset 1 (or the attribute) and from opset 13, the attribute in between */
    int from_input = (c->opset >= 13 || c->opset < 2) && c->nin > 1 && c->in[1];
    int n = from_input      ? byoc_onnx__const_ints(st, c->in[1], sizes, 64, "Split's split")
            : c->opset < 13 ? byoc_onnx__attr_ints(c, "split", sizes, 64)
                            : -1;
    if (st->diag->code) return st->diag->code;
    if (n < 0 && c->opset >= 18) { /* num_outputs parts of ceil(dim / num_outputs), the last one smaller */
        int64_t parts = byoc_onnx__attr_int(c, "num_outputs", 0), dim = t->dims[axis];
        if (parts < 1 || parts > 64 || parts != c->nout)
            return byoc_onnx__fail(st, BYOC_ERR_ATTR,
                                   "Split (opset %d) needs the split input or num_outputs (1..64) "
                                   "equal to its %d outputs, got num_outputs %lld",
                                   c->opset, c->nout, (long long)parts);
        int64_t chunk = (dim + parts - 1) / parts;
        n = (int)parts;
        for (int i = 0; i < n; ++i) sizes[i] = BYOC__MIN(chunk, BYOC__MAX(dim - chunk * i, 0));
    } else if (byoc_onnx__attr_get(c, "num_outputs") && c->nin > 1 && c->in[1]) {
        return byoc_onnx__fail(st, BYOC_ERR_ATTR, "Split takes the split input or num_outputs, not both");
    }
    if (n < 0) { /* equal parts, one per output */
        n = c->nout;
        if (n < 1 || n > 64 || t->dims[axis] % n)
            return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT,
                                   "axis of size %lld does not split into %d equal parts", (long long)t->dims[axis],
                                   c->nout);
        for (int i = 0; i < n; ++i) sizes[i] = t->dims[axis] / n;
    }
    if (n != c->nout)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "%d split sizes for %d outputs", n, c->nout);
    int64_t idx[64], sum = 0;
    for (int i = 0; i < n; ++i) {
        if (sizes[i] < 0) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "negative split size");
        sum += sizes[i];
        if (i + 1 < n) idx[i] = sum;
    }
    if (sum != t->dims[axis])
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "split sizes add to %lld, the axis has %lld",
                               (long long)sum, (long long)t->dims[axis]);
    if (n == 1) { c->out[0] = x; return BYOC_OK; }
    /* one strided_slice per part: each output stands alone (a part may be folded or unused) */
    int64_t lo = 0;
    for (int i = 0; i < n; ++i) {
        int64_t begin[BYOC_MAX_RANK], end[BYOC_MAX_RANK];
        for (int d = 0; d < t->rank; ++d) { begin[d] = 0; end[d] = t->dims[d]; }
        begin[axis] = lo;
        end[axis] = i + 1 < n ? idx[i] : t->dims[axis];
        lo = end[axis];
        byoc_attrs a;
        memset(&a, 0, sizeof a);
        byoc_attrs_set_ints(st->m, &a, "begin", begin, t->rank);
        byoc_attrs_set_ints(st->m, &a, "end", end, t->rank);
        c->out[i] = byoc_onnx__call1(st, "strided_slice", x, &a);
    }
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__expand(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *x = byoc_onnx__input(c, 0, "input");
    const byoc_type *t = byoc_onnx__ranked_of(c->st, x, "Expand's input");
    if (t && !byoc_type_is_static(t)) { /* '?' extents: dyn.broadcast_to settles them at run time */
        c->out[0] = byoc_onnx__call2(c->st, "dyn.broadcast_to", x, byoc_onnx__input(c, 1, "shape"), NULL);
        return BYOC_ONNX__OK(c);
    }
    int64_t shape[BYOC_MAX_RANK], out[BYOC_MAX_RANK];
    int n =
        t ? byoc_onnx__const_ints(c->st, byoc_onnx__input(c, 1, "shape"), shape, BYOC_MAX_RANK, "Expand's shape") : -1;
    if (n < 0) return BYOC_ONNX__OK(c);
    int rank = n > t->rank ? n : t->rank;
    for (int d = 0; d < rank; ++d) { /* numpy broadcast of the two shapes, right-aligned */
        int64_t a = d - (rank - t->rank) >= 0 ? t->dims[d - (rank - t->rank)] : 1,
                b = d - (rank - n) >= 0 ? shape[d - (rank - n)] : 1;
        if (a != b && a != 1 && b != 1)
            return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "cannot expand dim %lld to %lld", (long long)a,
                                   (long long)b);
        out[d] = a == 1 ? b : a;
    }
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(c->st->m, &a, "shape", out, rank);
    c->out[0] = byoc_onnx__call1(c->st, "broadcast_to", x, &a);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__where(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *args[3] = {byoc_onnx__input(c, 0, "condition"), byoc_onnx__input(c, 1, "X"),
                          byoc_onnx__input(c, 2, "Y")};
    c->out[0] = byoc_onnx__call(c->st, "where", args, 3, NULL);
    return BYOC_ONNX__OK(c);
}

/* the run-time operand converters (section "op converters: run-time operands"), which the static
   converters below call when an operand that must be a constant for them is computed by the graph */
BYOC__PRIVATE int byoc_onnx__computed(const byoc_onnx__ctx *c, int i);
BYOC__PRIVATE byoc_result byoc_onnx__topk_computed(byoc_onnx__ctx *c, int axis);
BYOC__PRIVATE byoc_result byoc_onnx__one_hot_computed(byoc_onnx__ctx *c);
BYOC__PRIVATE byoc_result byoc_onnx__reduce_computed(byoc_onnx__ctx *c, const char *op);
BYOC__PRIVATE byoc_result byoc_onnx__reduce_composite_computed(byoc_onnx__ctx *c, const char *op);
BYOC__PRIVATE int byoc_onnx__resize_is_computed(const byoc_onnx__ctx *c, int legacy, int crop);
BYOC__PRIVATE byoc_result byoc_onnx__pad_axes_computed(byoc_onnx__ctx *c, const char *op);
BYOC__PRIVATE byoc_result byoc_onnx__center_crop_pad_computed(byoc_onnx__ctx *c);
BYOC__PRIVATE byoc_result byoc_onnx__window_computed(byoc_onnx__ctx *c, const char *op);
BYOC__PRIVATE byoc_result byoc_onnx__dft_computed(byoc_onnx__ctx *c);
BYOC__PRIVATE byoc_result byoc_onnx__stft_computed(byoc_onnx__ctx *c);
BYOC__PRIVATE byoc_result byoc_onnx__mel_weight_matrix_computed(byoc_onnx__ctx *c);
BYOC__PRIVATE byoc_result byoc_onnx__resize_computed(byoc_onnx__ctx *c, byoc_node *x, const char *method,
                                                     const char *ctm, const char *nearest, int legacy, int crop);

// [SECTION] impl: op converters: softmax, convolutions, pools, normalisations, reductions
/* Softmax and LogSoftmax: before opset 13 the input is seen as 2-D [prod(dims < axis), prod(rest)] */
BYOC__PRIVATE byoc_result byoc_onnx__softmax(byoc_onnx__ctx *c, const char *op) {
    byoc_node *x = byoc_onnx__input(c, 0, "input");
    const byoc_type *t = byoc_onnx__ranked_of(c->st, x, "the input");
    if (!t) return BYOC_ONNX__OK(c);
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", c->opset < 13 ? 1 : -1), t->rank, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
    if (c->opset < 13 && axis != t->rank - 1 && !byoc_type_is_static(t)) /* the 2-D view needs every extent */
        return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "the input has '?' extents, which the opset %d form "
                                                            "(a 2-D view at axis %d) needs", c->opset, axis);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    if (c->opset >= 13 || axis == t->rank - 1) {
        byoc_attrs_set_int(c->st->m, &a, "axis", axis);
        c->out[0] = byoc_onnx__call1(c->st, op, x, &a);
    } else {
        int64_t flat[2] = {1, 1};
        for (int d = 0; d < t->rank; ++d) flat[d < axis ? 0 : 1] *= t->dims[d];
        byoc_attrs_set_int(c->st->m, &a, "axis", 1);
        byoc_node *y = byoc_onnx__call1(c->st, op, byoc_onnx__reshape(c->st, x, 2, flat), &a);
        c->out[0] = byoc_onnx__reshape(c->st, y, t->rank, t->dims);
    }
    return BYOC_ONNX__OK(c);
}

/* MatMul with '?' extents: the views the static path takes need every extent, so the IR's N-d ops take the
   operands as they are (their relations broadcast the batch axes and carry the '?'): nn.dense when B is a
   static matrix (the weights of a projection), else nn.matmul */
BYOC__PRIVATE byoc_result byoc_onnx__matmul_dynamic(byoc_onnx__ctx *c, byoc_node *a, byoc_node *b,
                                                    const byoc_type *ta, const byoc_type *tb) {
    byoc_onnx__state *st = c->st;
    if (ta->rank < 2 || tb->rank < 2)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "MatMul of a 1-D operand with '?' extents (ranks %d and %d)",
                               ta->rank, tb->rank);
    if (tb->rank == 2 && byoc_type_is_static(tb)) {
        int perm[2] = {1, 0};
        c->out[0] = byoc_onnx__call2(st, "nn.dense", a, byoc_onnx__transpose(st, b, 2, perm), NULL);
    } else c->out[0] = byoc_onnx__call2(st, "nn.matmul", a, b, NULL);
    return BYOC_ONNX__OK(c);
}

/* numpy matmul: 2-D weights become nn.dense (weights transposed once, folded when constant); batched
   operands become nn.batch_matmul on 3-D views with the batch broadcast */
BYOC__PRIVATE byoc_result byoc_onnx__matmul(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *a = byoc_onnx__input(c, 0, "A"), *b = byoc_onnx__input(c, 1, "B");
    const byoc_type *ta = byoc_onnx__ranked_of(st, a, "MatMul's A"),
                    *tb = ta ? byoc_onnx__ranked_of(st, b, "MatMul's B") : NULL;
    if (!ta || !tb) return BYOC_ONNX__OK(c);
    if (!byoc_type_is_static(ta) || !byoc_type_is_static(tb)) return byoc_onnx__matmul_dynamic(c, a, b, ta, tb);
    if (ta->rank == 0 || tb->rank == 0) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "MatMul of a scalar");
    /* 1-D operands: A gets a leading 1, B a trailing 1, both dropped from the result */
    int64_t da[BYOC_MAX_RANK + 1], db[BYOC_MAX_RANK + 1];
    int ra = ta->rank, rb = tb->rank;
    memcpy(da, ta->dims, sizeof(int64_t) * (size_t)ra);
    memcpy(db, tb->dims, sizeof(int64_t) * (size_t)rb);
    if (ra == 1) { da[1] = da[0]; da[0] = 1; ra = 2; a = byoc_onnx__reshape(st, a, 2, da); }
    if (rb == 1) { db[1] = 1; rb = 2; b = byoc_onnx__reshape(st, b, 2, db); }
    int64_t M = da[ra - 2], K = da[ra - 1], N = db[rb - 1];
    if (db[rb - 2] != K)
        return byoc_onnx__fail(st, BYOC_ERR_TYPE, "MatMul: A has %lld columns, B has %lld rows", (long long)K,
                               (long long)db[rb - 2]);
    int rank = ra > rb ? ra : rb;
    int64_t batch[BYOC_MAX_RANK], nbatch = 1, batch_a = 1, batch_b = 1;
    for (int d = 0; d < rank - 2; ++d) {
        int ia = d - (rank - ra), ib = d - (rank - rb);
        int64_t x = ia >= 0 ? da[ia] : 1, y = ib >= 0 ? db[ib] : 1;
        if (x != y && x != 1 && y != 1)
            return byoc_onnx__fail(st, BYOC_ERR_TYPE, "MatMul: batch dims %lld and %lld do not broadcast", (long long)x,
                                   (long long)y);
        batch[d] = x == 1 ? y : x;
        nbatch *= batch[d];
        batch_a *= x;
        batch_b *= y;
    }
    byoc_node *y;
    if (rb == 2) { /* (..., M, K) x (K, N): one dense over all rows */
        int64_t rows[2] = {batch_a * M, K};
        int perm[2] = {1, 0};
        /* one statement each: the order of evaluation of arguments is unspecified in C, and the nodes' ids (which
           placement files name) must not depend on the compiler */
        byoc_node *b_t = byoc_onnx__transpose(st, b, 2, perm);
        byoc_node *a_rows = byoc_onnx__reshape(st, a, 2, rows);
        y = byoc_onnx__call2(st, "nn.dense", a_rows, b_t, NULL);
    } else {
        int64_t sa[3] = {batch_a, M, K}, sb[3] = {batch_b, K, N}, ta3[3] = {nbatch, M, K}, tb3[3] = {nbatch, K, N};
        byoc_node *a3 = byoc_onnx__reshape(st, a, 3, sa), *b3 = byoc_onnx__reshape(st, b, 3, sb);
        /* a batch broadcast that is not all-or-one needs the operand materialised at full batch */
        if (batch_a != nbatch) {
            if (batch_a != 1)
                return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "MatMul with partially broadcast batch dims");
            byoc_attrs ba;
            memset(&ba, 0, sizeof ba);
            byoc_attrs_set_ints(st->m, &ba, "shape", ta3, 3);
            a3 = byoc_onnx__call1(st, "broadcast_to", a3, &ba);
        }
        if (batch_b != nbatch) {
            if (batch_b != 1)
                return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "MatMul with partially broadcast batch dims");
            byoc_attrs bb;
            memset(&bb, 0, sizeof bb);
            byoc_attrs_set_ints(st->m, &bb, "shape", tb3, 3);
            b3 = byoc_onnx__call1(st, "broadcast_to", b3, &bb);
        }
        byoc_attrs at;
        memset(&at, 0, sizeof at);
        byoc_attrs_set_bool(st->m, &at, "transpose_b", 0);
        y = byoc_onnx__call2(st, "nn.batch_matmul", a3, b3, &at);
    }
    /* the result's shape: batch..., M (unless A was 1-D), N (unless B was 1-D) */
    int64_t out[BYOC_MAX_RANK + 2];
    int r = 0;
    if (rb == 2) for (int d = 0; d < ra - 2; ++d) out[r++] = da[d];
    else for (int d = 0; d < rank - 2; ++d) out[r++] = batch[d];
    if (ta->rank != 1) out[r++] = M;
    if (tb->rank != 1) out[r++] = N;
    if (r > BYOC_MAX_RANK) return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "MatMul result of rank %d", r);
    c->out[0] = byoc_onnx__reshape(st, y, r, out);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__gemm(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *a = byoc_onnx__input(c, 0, "A"), *b = byoc_onnx__input(c, 1, "B");
    /* A's rows may be '?' (nn.dense carries them); B is the dense weight, whose extents its relation needs */
    const byoc_type *ta = byoc_onnx__ranked_of(st, a, "Gemm's A"),
                    *tb = ta ? byoc_onnx__tensor_of(st, b, "Gemm's B") : NULL;
    if (!ta || !tb) return BYOC_ONNX__OK(c);
    if (ta->rank != 2 || tb->rank != 2)
        return byoc_onnx__fail(st, BYOC_ERR_TYPE, "Gemm needs 2-D A and B (ranks %d and %d)", ta->rank, tb->rank);
    double alpha = byoc_onnx__attr_float(c, "alpha", 1.0), beta = byoc_onnx__attr_float(c, "beta", 1.0);
    int perm[2] = {1, 0};
    if (byoc_onnx__attr_int(c, "transA", 0)) a = byoc_onnx__transpose(st, a, 2, perm);
    if (!byoc_onnx__attr_int(c, "transB", 0)) b = byoc_onnx__transpose(st, b, 2, perm); /* dense wants [N, K] */
    byoc_node *y = byoc_onnx__call2(st, "nn.dense", a, b, NULL);
    byoc_dtype dt = ta->dtype;
    if (y && alpha != 1.0) y = byoc_onnx__call2(st, "multiply", y, byoc_onnx__scalar(st, dt, alpha), NULL);
    if (y && c->nin > 2 && c->in[2] && beta != 0.0) {
        byoc_node *bias = c->in[2];
        if (beta != 1.0) bias = byoc_onnx__call2(st, "multiply", bias, byoc_onnx__scalar(st, dt, beta), NULL);
        y = byoc_onnx__call2(st, "add", y, bias, NULL);
    }
    c->out[0] = y;
    return BYOC_ONNX__OK(c);
}

/* kernel, strides, dilations and pads of a Conv/Pool as the 2-D op takes them; a 1-D window (rank-3
   input) becomes a 2-D one of height 1 (auto_pad worked out from static shapes) */
typedef struct byoc_onnx__window {
    int spatial;                                          /* 1 or 2: spatial dims of the ONNX input */
    int64_t kernel[2], strides[2], dilations[2], pads[4]; /* pads: top, left, bottom, right */
} byoc_onnx__window;

/* an ints attribute of exactly n values into out[2 - n...] (1-D windows keep the leading 1); 0 on error */
BYOC__PRIVATE int byoc_onnx__window_ints(byoc_onnx__ctx *c, const char *name, int n, int64_t *out, int *given) {
    int64_t v[8];
    int got = byoc_onnx__attr_ints(c, name, v, 8);
    *given = got >= 0;
    if (got == -2) return 0;
    if (got < 0) return 1;
    if (got != n) { byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "%s has %d values, expected %d", name, got, n); return 0; }
    for (int i = 0; i < n; ++i) out[2 - n + i] = v[i];
    return 1;
}

BYOC__PRIVATE int byoc_onnx__window_attrs(byoc_onnx__ctx *c, const byoc_type *x, const int64_t *kernel_from_weight,
                                          byoc_onnx__window *w) {
    byoc_onnx__state *st = c->st;
    int s = x->rank - 2, given;
    if (s != 1 && s != 2) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED,
                        "only 1-D and 2-D windows (inputs of rank 3 or 4) are supported, this input has rank %d",
                        x->rank);
        return 0;
    }
    w->spatial = s;
    for (int i = 0; i < 2; ++i) w->kernel[i] = w->strides[i] = w->dilations[i] = 1;
    memset(w->pads, 0, sizeof w->pads);
    if (!byoc_onnx__window_ints(c, "kernel_shape", s, w->kernel, &given)) return 0;
    if (!given) {
        if (!kernel_from_weight) { byoc_onnx__fail(st, BYOC_ERR_ATTR, "kernel_shape is required"); return 0; }
        for (int i = 0; i < s; ++i) w->kernel[2 - s + i] = kernel_from_weight[i];
    }
    if (!byoc_onnx__window_ints(c, "strides", s, w->strides, &given) ||
        !byoc_onnx__window_ints(c, "dilations", s, w->dilations, &given))
        return 0;
    for (int i = 0; i < 2; ++i)
        if (w->kernel[i] < 1 || w->strides[i] < 1 || w->dilations[i] < 1 || w->kernel[i] > BYOC_MAX_DIM ||
            w->strides[i] > BYOC_MAX_DIM || w->dilations[i] > BYOC_MAX_DIM) {
            byoc_onnx__fail(st, BYOC_ERR_ATTR, "kernel, strides and dilations must be positive");
            return 0;
        }
    char buf[32];
    const char *auto_pad = byoc_onnx__attr_string(c, "auto_pad", "NOTSET", buf, sizeof buf);
    if (!strcmp(auto_pad, "NOTSET")) {
        int64_t v[8];
        int n = byoc_onnx__attr_ints(c, "pads", v, 8);
        if (n == -2) return 0;
        if (n >= 0 && n != 2 * s) {
            byoc_onnx__fail(st, BYOC_ERR_ATTR, "pads has %d values, expected %d", n, 2 * s);
            return 0;
        }
        for (int i = 0; n > 0 && i < s; ++i) { /* ONNX: all begins, then all ends */
            w->pads[2 - s + i] = v[i];
            w->pads[4 - s + i] = v[s + i];
        }
        for (int i = 0; i < 4; ++i)
            if (w->pads[i] < 0 || w->pads[i] > BYOC_MAX_DIM) {
                byoc_onnx__fail(st, BYOC_ERR_ATTR, "pads must be non-negative");
                return 0;
            }
    } else if (!strcmp(auto_pad, "SAME_UPPER") || !strcmp(auto_pad, "SAME_LOWER")) {
        for (int i = 2 - s; i < 2;
             ++i) { /* output = ceil(in / stride); the odd pad goes at the end (UPPER) or the start (LOWER) */
            int64_t in = x->dims[x->rank - 2 + i], out = (in + w->strides[i] - 1) / w->strides[i];
            int64_t total = (out - 1) * w->strides[i] + (w->kernel[i] - 1) * w->dilations[i] + 1 - in;
            if (total < 0) total = 0;
            int64_t small = total / 2, big = total - small;
            w->pads[i] = auto_pad[5] == 'U' ? small : big;
            w->pads[i + 2] = auto_pad[5] == 'U' ? big : small;
        }
    } else if (strcmp(auto_pad, "VALID")) {
        byoc_onnx__fail(st, BYOC_ERR_ATTR, "auto_pad '%s' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID",
                        auto_pad);
        return 0;
    }
    return 1;
}

BYOC__PRIVATE void byoc_onnx__set_window(byoc_onnx__state *st, byoc_attrs *a, const byoc_onnx__window *w,
                                         const char *kernel_name) {
    byoc_attrs_set_ints(st->m, a, kernel_name, w->kernel, 2);
    byoc_attrs_set_ints(st->m, a, "strides", w->strides, 2);
    byoc_attrs_set_ints(st->m, a, "dilation", w->dilations, 2);
    byoc_attrs_set_ints(st->m, a, "padding", w->pads, 4);
}

/* a rank-3 tensor seen as rank 4 with a unit height (1-D windows run as 2-D ops), and back */
BYOC__PRIVATE byoc_node *byoc_onnx__to_2d(byoc_onnx__state *st, byoc_node *x) {
    const byoc_type *t = byoc_onnx__type(x);
    if (!t || t->rank != 3) return x;
    int64_t dims[4] = {t->dims[0], t->dims[1], 1, t->dims[2]};
    return byoc_onnx__reshape(st, x, 4, dims);
}

BYOC__PRIVATE byoc_node *byoc_onnx__from_2d(byoc_onnx__state *st, byoc_node *y, const byoc_onnx__window *w) {
    const byoc_type *t = byoc_onnx__type(y);
    if (!t || w->spatial != 1 || t->rank != 4) return y;
    int64_t dims[3] = {t->dims[0], t->dims[1], t->dims[3]};
    return byoc_onnx__reshape(st, y, 3, dims);
}

/* rank-5 (3-D) Conv and ConvTranspose, in the windows converters */
BYOC__PRIVATE byoc_result byoc_onnx__conv_nd(byoc_onnx__ctx *c, int transposed);

BYOC__PRIVATE byoc_result byoc_onnx__conv(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "X"), *w = byoc_onnx__input(c, 1, "W");
    const byoc_type *tx = byoc_onnx__batched_of(st, x, "Conv's X"),
                    *tw = tx ? byoc_onnx__tensor_of(st, w, "Conv's W") : NULL;
    if (!tx || !tw) return BYOC_ONNX__OK(c);
    if (tx->rank == 5 && !byoc_onnx__tensor_of(st, x, "Conv's X")) return BYOC_ONNX__OK(c); /* 3-D: static */
    if (tx->rank == 5) return byoc_onnx__conv_nd(c, 0);
    if (tw->rank != tx->rank)
        return byoc_onnx__fail(st, BYOC_ERR_TYPE, "W has rank %d, X has rank %d", tw->rank, tx->rank);
    byoc_onnx__window win;
    if (!byoc_onnx__window_attrs(c, tx, tw->dims + 2, &win)) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_onnx__set_window(st, &a, &win, "kernel_size");
    byoc_attrs_set_int(st->m, &a, "groups", byoc_onnx__attr_int(c, "group", 1));
    byoc_attrs_set_int(st->m, &a, "channels", tw->dims[0]);
    byoc_node *y = byoc_onnx__call2(st, "nn.conv2d", byoc_onnx__to_2d(st, x), byoc_onnx__to_2d(st, w), &a);
    if (y && c->nin > 2 && c->in[2]) y = byoc_onnx__call2(st, "nn.bias_add", y, c->in[2], NULL);
    c->out[0] = byoc_onnx__from_2d(st, y, &win);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__conv_transpose(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "X"), *w = byoc_onnx__input(c, 1, "W");
    const byoc_type *tx = byoc_onnx__tensor_of(st, x, "ConvTranspose's X"),
                    *tw = tx ? byoc_onnx__tensor_of(st, w, "ConvTranspose's W") : NULL;
    if (!tx || !tw) return BYOC_ONNX__OK(c);
    if (tx->rank == 5) return byoc_onnx__conv_nd(c, 1);
    if (tw->rank != tx->rank)
        return byoc_onnx__fail(st, BYOC_ERR_TYPE, "W has rank %d, X has rank %d", tw->rank, tx->rank);
    char buf[32];
    const char *auto_pad = byoc_onnx__attr_string(c, "auto_pad", "NOTSET", buf, sizeof buf);
    byoc_onnx__window win;
    int64_t outpad[2] = {0, 0}, out_shape[2] = {0, 0};
    int has_out_shape = 0, given;
    /* the window without auto_pad: a transposed convolution's SAME padding is worked out below */
    int same = !strcmp(auto_pad, "SAME_UPPER") || !strcmp(auto_pad, "SAME_LOWER");
    if (!byoc_onnx__window_attrs(c, tx, tw->dims + 2, &win)) return BYOC_ONNX__OK(c);
    if (!byoc_onnx__window_ints(c, "output_padding", win.spatial, outpad, &given)) return BYOC_ONNX__OK(c);
    if (!byoc_onnx__window_ints(c, "output_shape", win.spatial, out_shape, &has_out_shape)) return BYOC_ONNX__OK(c);
    if (same && !has_out_shape) { /* ONNX: SAME makes the output in * stride */
        for (int i = 2 - win.spatial; i < 2; ++i) out_shape[i] = tx->dims[tx->rank - 2 + i] * win.strides[i];
        has_out_shape = 1;
    }
    if (has_out_shape) { /* pads from the requested size: the odd one at the end (SAME_LOWER: at the start) */
        for (int i = 2 - win.spatial; i < 2; ++i) {
            int64_t full = win.strides[i] * (tx->dims[tx->rank - 2 + i] - 1) + outpad[i] +
                           (win.kernel[i] - 1) * win.dilations[i] + 1;
            int64_t total = full - out_shape[i];
            if (total < 0) { outpad[i] -= total; total = 0; } /* a larger output: extra rows at the end */
            int64_t small = total / 2, big = total - small;
            win.pads[i] = strcmp(auto_pad, "SAME_LOWER") ? small : big;
            win.pads[i + 2] = strcmp(auto_pad, "SAME_LOWER") ? big : small;
        }
    }
    int64_t groups = byoc_onnx__attr_int(c, "group", 1);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_onnx__set_window(st, &a, &win, "kernel_size");
    byoc_attrs_set_int(st->m, &a, "groups", groups);
    byoc_attrs_set_int(st->m, &a, "channels", tw->dims[1] * groups);
    byoc_attrs_set_ints(st->m, &a, "output_padding", outpad, 2);
    byoc_node *y = byoc_onnx__call2(st, "nn.conv2d_transpose", byoc_onnx__to_2d(st, x), byoc_onnx__to_2d(st, w), &a);
    if (y && c->nin > 2 && c->in[2]) y = byoc_onnx__call2(st, "nn.bias_add", y, c->in[2], NULL);
    c->out[0] = byoc_onnx__from_2d(st, y, &win);
    return BYOC_ONNX__OK(c);
}

/* A 3-D pool as two 2-D pools: over (H, W) with depth folded into the channels, then over D with the
   plane flattened. Exact for max (a box's max is the max of its slices' maxes) and for average (the taps
   of a window that count form a box, so its count is the product of the per-axis counts). */
BYOC__PRIVATE byoc_result byoc_onnx__pool3d(byoc_onnx__ctx *c, const char *op, byoc_node *x, const byoc_type *t) {
    byoc_onnx__state *st = c->st;
    int64_t k[3] = {1, 1, 1}, str[3] = {1, 1, 1}, dil[3] = {1, 1, 1}, pads[6] = {0, 0, 0, 0, 0, 0}, v[8];
    int n = byoc_onnx__attr_ints(c, "kernel_shape", v, 8);
    if (n != 3)
        return n == -2 ? BYOC_ONNX__OK(c)
                       : byoc_onnx__fail(st, BYOC_ERR_ATTR, "kernel_shape must have 3 values for a 3-D pool");
    memcpy(k, v, sizeof k);
    static const char *const names[2] = {"strides", "dilations"};
    int64_t *dst[2] = {str, dil};
    for (int q = 0; q < 2; ++q) {
        n = byoc_onnx__attr_ints(c, names[q], v, 8);
        if (n == -2) return BYOC_ONNX__OK(c);
        if (n >= 0 && n != 3) return byoc_onnx__fail(st, BYOC_ERR_ATTR, "%s has %d values, expected 3", names[q], n);
        if (n == 3) memcpy(dst[q], v, sizeof(int64_t) * 3);
    }
    for (int i = 0; i < 3; ++i)
        if (k[i] < 1 || str[i] < 1 || dil[i] < 1 || k[i] > BYOC_MAX_DIM || str[i] > BYOC_MAX_DIM ||
            dil[i] > BYOC_MAX_DIM)
            return byoc_onnx__fail(st, BYOC_ERR_ATTR, "kernel, strides and dilations must be positive");
    char buf[32];
    const char *auto_pad = byoc_onnx__attr_string(c, "auto_pad", "NOTSET", buf, sizeof buf);
    if (!strcmp(auto_pad, "NOTSET")) {
        n = byoc_onnx__attr_ints(c, "pads", v, 8);
        if (n == -2) return BYOC_ONNX__OK(c);
        if (n >= 0 && n != 6) return byoc_onnx__fail(st, BYOC_ERR_ATTR, "pads has %d values, expected 6", n);
        if (n == 6) memcpy(pads, v, sizeof pads);
    } else if (!strcmp(auto_pad, "SAME_UPPER") || !strcmp(auto_pad, "SAME_LOWER")) {
        for (int i = 0; i < 3; ++i) {
            int64_t in = t->dims[2 + i], out = (in + str[i] - 1) / str[i],
                    total = (out - 1) * str[i] + (k[i] - 1) * dil[i] + 1 - in;
            if (total < 0) total = 0;
            pads[i] = auto_pad[5] == 'U' ? total / 2 : total - total / 2;
            pads[i + 3] = total - pads[i];
        }
    } else if (strcmp(auto_pad, "VALID")) {
        return byoc_onnx__fail(st, BYOC_ERR_ATTR, "auto_pad '%s' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID",
                               auto_pad);
    }
    for (int i = 0; i < 6; ++i)
        if (pads[i] < 0 || pads[i] > BYOC_MAX_DIM)
            return byoc_onnx__fail(st, BYOC_ERR_ATTR, "pads must be non-negative");
    int ceil_mode = (int)byoc_onnx__attr_int(c, "ceil_mode", 0),
        include_pad = (int)byoc_onnx__attr_int(c, "count_include_pad", 0);
    int64_t N = t->dims[0], C = t->dims[1], D = t->dims[2], H = t->dims[3], W = t->dims[4];
    for (int pass = 0; pass < 2; ++pass) { /* 0: (H, W) per depth slice; 1: D per output pixel */
        const byoc_type *cur = byoc_onnx__type(x);
        if (!cur) return BYOC_ONNX__OK(c);
        int64_t plane[2] = {pass ? cur->dims[3] : H, pass ? cur->dims[4] : W}; /* pass 1: the pooled (OH, OW) */
        int64_t shape[4] = {N, pass ? C : C * D, pass ? D : H, pass ? plane[0] * plane[1] : W};
        int64_t win[2] = {pass ? k[0] : k[1], pass ? 1 : k[2]},
                strides[2] = {pass ? str[0] : str[1], pass ? 1 : str[2]};
        int64_t dilation[2] = {pass ? dil[0] : dil[1], pass ? 1 : dil[2]};
        int64_t padding[4] = {pass ? pads[0] : pads[1], pass ? 0 : pads[2], pass ? pads[3] : pads[4],
                              pass ? 0 : pads[5]};
        byoc_attrs a;
        memset(&a, 0, sizeof a);
        byoc_attrs_set_ints(st->m, &a, "pool_size", win, 2);
        byoc_attrs_set_ints(st->m, &a, "strides", strides, 2);
        byoc_attrs_set_ints(st->m, &a, "dilation", dilation, 2);
        byoc_attrs_set_ints(st->m, &a, "padding", padding, 4);
        byoc_attrs_set_bool(st->m, &a, "ceil_mode", ceil_mode);
        if (!strcmp(op, "nn.avg_pool2d")) byoc_attrs_set_bool(st->m, &a, "count_include_pad", include_pad);
        x = byoc_onnx__call1(st, op, byoc_onnx__reshape(st, x, 4, shape), &a);
        const byoc_type *y = byoc_onnx__type(x);
        if (!y) return BYOC_ONNX__OK(c);
        if (pass == 0) {
            int64_t split[5] = {N, C, D, y->dims[2], y->dims[3]};
            x = byoc_onnx__reshape(st, x, 5, split);
        } else {
            int64_t back[5] = {N, C, y->dims[2], plane[0], plane[1]};
            x = byoc_onnx__reshape(st, x, 5, back);
        }
    }
    c->out[0] = x;
    if (c->nout > 1) c->out[1] = NULL;
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__pool(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "X");
    const byoc_type *tx = byoc_onnx__batched_of(st, x, "the pool's input");
    if (!tx || (tx->rank == 5 && !byoc_onnx__tensor_of(st, x, "the pool's input"))) return BYOC_ONNX__OK(c);
    int want_indices = c->nout > 1 && c->node->outputs[1].n,
        column_major = (int)byoc_onnx__attr_int(c, "storage_order", 0);
    if (want_indices && tx->rank == 5)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "MaxPool's Indices of a 3-D pool are not supported");
    if (tx->rank == 5) return byoc_onnx__pool3d(c, op, x, tx);
    byoc_onnx__window win;
    if (!byoc_onnx__window_attrs(c, tx, NULL, &win)) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_onnx__set_window(st, &a, &win, "pool_size");
    byoc_attrs_set_bool(st->m, &a, "ceil_mode", (int)byoc_onnx__attr_int(c, "ceil_mode", 0));
    if (!strcmp(op, "nn.avg_pool2d"))
        byoc_attrs_set_bool(st->m, &a, "count_include_pad", (int)byoc_onnx__attr_int(c, "count_include_pad", 0));
    if (want_indices) { /* (values, flat indices): with a unit height, the 2-D index is the 1-D one */
        byoc_node *both = byoc_onnx__call1(st, "nn.max_pool2d_with_argmax", byoc_onnx__to_2d(st, x), &a);
        for (int i = 0; i < 2 && both; ++i) {
            byoc_node *field = byoc_tuple_get_item(st->m, both, i);
            if (!field || byoc_infer_node_type(st->m, field, st->diag) != BYOC_OK) break;
            if (i == 1 && column_major) { /* storage_order 1: plane + w * H + h for the row-major plane + h * W + w */
                int64_t H = tx->rank == 4 ? tx->dims[2] : 1, W = tx->dims[tx->rank - 1];
                byoc_node *hw = byoc_onnx__scalar(st, BYOC_INT64, (double)(H * W)),
                          *w_ = byoc_onnx__scalar(st, BYOC_INT64, (double)W);
                byoc_node *plane =
                    byoc_onnx__call2(st, "multiply", byoc_onnx__call2(st, "divide", field, hw, NULL), hw, NULL);
                byoc_node *rest = byoc_onnx__call2(st, "subtract", field, plane, NULL);
                byoc_node *row = byoc_onnx__call2(st, "divide", rest, w_, NULL);
                byoc_node *col =
                    byoc_onnx__call2(st, "subtract", rest, byoc_onnx__call2(st, "multiply", row, w_, NULL), NULL);
                byoc_node *h_ = byoc_onnx__scalar(st, BYOC_INT64, (double)H);
                field = byoc_onnx__call2(
                    st, "add", plane,
                    byoc_onnx__call2(st, "add", byoc_onnx__call2(st, "multiply", col, h_, NULL), row, NULL), NULL);
                if (!field) break;
            }
            c->out[i] = byoc_onnx__from_2d(st, field, &win);
        }
        return BYOC_ONNX__OK(c);
    }
    c->out[0] = byoc_onnx__from_2d(st, byoc_onnx__call1(st, op, byoc_onnx__to_2d(st, x), &a), &win);
    if (c->nout > 1) c->out[1] = NULL;
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__global_pool(byoc_onnx__ctx *c, const char *op) {
    const byoc_type *tx = byoc_onnx__batched_of(c->st, byoc_onnx__input(c, 0, "X"), "the pool's input");
    if (!tx) return BYOC_ONNX__OK(c);
    if (tx->rank != 4 && tx->rank != 3)
        return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED,
                               "only 1-D and 2-D windows (inputs of rank 3 or 4) are supported, this input has rank %d",
                               tx->rank);
    byoc_onnx__window one_d;
    one_d.spatial = tx->rank - 2;
    c->out[0] = byoc_onnx__from_2d(c->st, byoc_onnx__call1(c->st, op, byoc_onnx__to_2d(c->st, c->in[0]), NULL), &one_d);
    return BYOC_ONNX__OK(c);
}

/* BatchNormalization in training mode (opset 14+): the batch's own statistics over every axis but the
   channels, mean and population variance; Y normalised with them, and running_mean / running_var as
   input * momentum + batch * (1 - momentum) */
BYOC__PRIVATE byoc_result byoc_onnx__batch_norm_training(byoc_onnx__ctx *c, byoc_node *const *args) {
    byoc_onnx__state *st = c->st;
    const byoc_type *t = byoc_onnx__tensor_of(st, args[0], "BatchNormalization's X");
    if (!t) return BYOC_ONNX__OK(c);
    if (t->rank < 2)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "BatchNormalization of an input of rank %d", t->rank);
    int64_t axes[BYOC_MAX_RANK], n = 0;
    for (int d = 0; d < t->rank; ++d)
        if (d != 1) axes[n++] = d;
    byoc_attrs r, e;
    memset(&r, 0, sizeof r);
    memset(&e, 0, sizeof e);
    byoc_attrs_set_ints(st->m, &r, "axis", axes, (int)n);
    byoc_attrs_set_int(st->m, &e, "axis", 1);
    byoc_attrs_set_int(st->m, &e, "num_newaxis", t->rank - 2);
    byoc_node *mean = byoc_onnx__call1(st, "mean", args[0], &r);
    byoc_node *centered =
        byoc_onnx__call2(st, "subtract", args[0], byoc_onnx__call1(st, "expand_dims", mean, &e), NULL);
    byoc_node *var = byoc_onnx__call1(st, "mean", byoc_onnx__call2(st, "multiply", centered, centered, NULL), &r);
    byoc_node *bn_args[5] = {args[0], args[1], args[2], mean, var};
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_float(st->m, &a, "epsilon", byoc_onnx__attr_float(c, "epsilon", 1e-5));
    byoc_node *bn = mean && var ? byoc_onnx__call(st, "nn.batch_norm", bn_args, 5, &a) : NULL;
    byoc_node *y = bn ? byoc_tuple_get_item(st->m, bn, 0) : NULL;
    if (!y || byoc_infer_node_type(st->m, y, st->diag) != BYOC_OK) return BYOC_ONNX__OK(c);
    c->out[0] = byoc_onnx__note(st, y);
    double momentum = byoc_onnx__attr_float(c, "momentum", 0.9);
    for (int k = 1; k < 3 && k < c->nout; ++k) {
        byoc_node *running =
            byoc_onnx__call2(st, "multiply", args[2 + k], byoc_onnx__scalar(st, t->dtype, momentum), NULL);
        byoc_node *batch =
            byoc_onnx__call2(st, "multiply", k == 1 ? mean : var, byoc_onnx__scalar(st, t->dtype, 1 - momentum), NULL);
        c->out[k] = byoc_onnx__call2(st, "add", running, batch, NULL);
    }
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__batch_norm(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    int training = c->opset >= 14 && byoc_onnx__attr_int(c, "training_mode", 0);
    if (c->nout > 1 && !training) {
        int used = 0;
        for (int i = 1; i < c->nout; ++i) used |= c->node->outputs[i].n > 0;
        if (used)
            return byoc_onnx__fail(
                st, BYOC_ERR_UNSUPPORTED,
                "BatchNormalization's running statistics outputs need training_mode=1 (opset 14 or later)");
    }
    if (c->opset < 9 && !byoc_onnx__attr_int(c, "spatial", 1))
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "BatchNormalization with spatial=0 is not supported");
    byoc_node *args[5];
    static const char *const names[5] = {"X", "scale", "B", "mean", "var"};
    for (int i = 0; i < 5; ++i) if (!(args[i] = byoc_onnx__input(c, i, names[i]))) return BYOC_ONNX__OK(c);
    if (training) return byoc_onnx__batch_norm_training(c, args);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_float(st->m, &a, "epsilon", byoc_onnx__attr_float(c, "epsilon", 1e-5));
    byoc_node *bn = byoc_onnx__call(st, "nn.batch_norm", args, 5, &a);
    byoc_node *y = bn ? byoc_tuple_get_item(st->m, bn, 0) : NULL;
    if (y && byoc_infer_node_type(st->m, y, st->diag) == BYOC_OK) c->out[0] = byoc_onnx__note(st, y);
    return BYOC_ONNX__OK(c);
}

/* LayerNormalization (opset 17) over dims axis..rank-1: X seen as [outer, inner], nn.layer_norm over
   the last axis, and back; Mean and InvStdDev, when used, from reductions over the same dims */
BYOC__PRIVATE byoc_result byoc_onnx__layer_norm(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "X"), *scale = byoc_onnx__input(c, 1, "Scale");
    const byoc_type *t = byoc_onnx__ranked_of(st, x, "LayerNormalization's X");
    if (!t || !scale) return BYOC_ONNX__OK(c);
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", -1), t->rank, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
    /* '?' extents: normalised over the last axis alone (a known extent), X is taken as it is, not as the 2-D view */
    int dynamic = !byoc_type_is_static(t);
    if (dynamic && (axis != t->rank - 1 || t->dims[axis] == BYOC_DIM_ANY))
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "LayerNormalization of an input with '?' extents needs "
                                                         "axis = -1 over a known extent");
    if (byoc_onnx__attr_int(c, "stash_type", 1) != 1)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "LayerNormalization with stash_type other than float32");
    double eps = byoc_onnx__attr_float(c, "epsilon", 1e-5);
    int64_t outer = 1, inner = 1, flat[2];
    for (int d = 0; d < t->rank; ++d) { if (d < axis) outer *= t->dims[d]; else inner *= t->dims[d]; }
    flat[0] = outer;
    flat[1] = inner;
    /* scale and bias broadcast to the normalized dims, then flattened */
    byoc_node *params[2] = {scale, c->nin > 2 ? c->in[2] : NULL};
    for (int k = 0; k < 2; ++k) {
        if (!params[k]) {
            params[k] = byoc_constant(st->m, byoc_tensor_type(st->m, t->dtype, 1, &inner), NULL, 0);
            if (!params[k]) return byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
            memset(params[k]->data, 0, byoc_constant_nbytes(params[k]));
            params[k]->checked_type = params[k]->annotation;
            continue;
        }
        const byoc_type *pt = byoc_onnx__tensor_of(st, params[k], k ? "B" : "Scale");
        if (!pt) return BYOC_ONNX__OK(c);
        if (byoc_type_num_elements(pt) != inner) {
            byoc_attrs ba;
            memset(&ba, 0, sizeof ba);
            byoc_attrs_set_ints(st->m, &ba, "shape", t->dims + axis, t->rank - axis);
            params[k] = byoc_onnx__call1(st, "broadcast_to", params[k], &ba);
        }
        params[k] = byoc_onnx__reshape(st, params[k], 1, &inner);
    }
    byoc_node *x2 = dynamic ? x : byoc_onnx__reshape(st, x, 2, flat);
    byoc_node *args[3] = {x2, params[0], params[1]};
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(st->m, &a, "axis", -1);
    byoc_attrs_set_float(st->m, &a, "epsilon", eps);
    byoc_node *y = byoc_onnx__call(st, "nn.layer_norm", args, 3, &a);
    c->out[0] = dynamic ? y : byoc_onnx__reshape(st, y, t->rank, t->dims);
    int want_mean = c->nout > 1 && c->node->outputs[1].n, want_inv = c->nout > 2 && c->node->outputs[2].n;
    if (c->out[0] && (want_mean || want_inv)) { /* shapes: X's with the normalized dims as 1 */
        int64_t kept[BYOC_MAX_RANK], one = dynamic ? t->rank - 1 : 1; /* x2's normalised axis */
        for (int d = 0; d < t->rank; ++d) kept[d] = d < axis ? t->dims[d] : 1;
        byoc_attrs r;
        memset(&r, 0, sizeof r);
        byoc_attrs_set_ints(st->m, &r, "axis", &one, 1);
        byoc_attrs_set_bool(st->m, &r, "keepdims", 1);
        byoc_node *mean = byoc_onnx__call1(st, "mean", x2, &r);
        byoc_node *centered = byoc_onnx__call2(st, "subtract", x2, mean, NULL);
        byoc_node *var = byoc_onnx__call1(st, "mean", byoc_onnx__call2(st, "multiply", centered, centered, NULL), &r);
        byoc_node *inv = byoc_onnx__call1(
            st, "rsqrt", byoc_onnx__call2(st, "add", var, byoc_onnx__scalar(st, t->dtype, eps), NULL), NULL);
        if (want_mean) c->out[1] = dynamic ? mean : byoc_onnx__reshape(st, mean, t->rank, kept);
        if (want_inv) c->out[2] = dynamic ? inv : byoc_onnx__reshape(st, inv, t->rank, kept);
    }
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__lrn(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    int64_t size = byoc_onnx__attr_int(c, "size", 0);
    if (size < 1) return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "LRN needs a positive size");
    byoc_attrs_set_int(c->st->m, &a, "size", size);
    byoc_attrs_set_int(c->st->m, &a, "axis", 1);
    byoc_attrs_set_float(c->st->m, &a, "alpha", byoc_onnx__attr_float(c, "alpha", 1e-4));
    byoc_attrs_set_float(c->st->m, &a, "beta", byoc_onnx__attr_float(c, "beta", 0.75));
    byoc_attrs_set_float(c->st->m, &a, "bias", byoc_onnx__attr_float(c, "bias", 1.0));
    c->out[0] = byoc_onnx__call1(c->st, "nn.lrn", byoc_onnx__input(c, 0, "X"), &a);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__depth_to_space(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    char buf[16];
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(c->st->m, &a, "block_size", byoc_onnx__attr_int(c, "blocksize", 0));
    byoc_attrs_set_string(c->st->m, &a, "mode", byoc_onnx__attr_string(c, "mode", "DCR", buf, sizeof buf));
    c->out[0] = byoc_onnx__call1(c->st, "nn.depth_to_space", byoc_onnx__input(c, 0, "input"), &a);
    return BYOC_ONNX__OK(c);
}

/* ReduceMean/Sum/Max/Min: axes as an attribute (ReduceSum: an input from opset 13) */
BYOC__PRIVATE byoc_result byoc_onnx__reduce(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "data");
    const byoc_type *t = byoc_onnx__ranked_of(st, x, "the reduction's input");
    if (!t) return BYOC_ONNX__OK(c);
    if (c->opset >= 18 && strcmp(op, "sum") && byoc_onnx__computed(c, 1)) return byoc_onnx__reduce_computed(c, op);
    int64_t axes[BYOC_MAX_RANK];
    int noop = 0, n = byoc_onnx__reduce_axes(c, t, !strcmp(op, "sum") ? 13 : 18, axes, &noop);
    if (n < 0) return BYOC_ONNX__OK(c);
    if (noop) { /* a reduction over no axes: each element alone */
        c->out[0] = x;
        return BYOC_OK;
    }
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    if (n > 0) byoc_attrs_set_ints(st->m, &a, "axis", axes, n);
    byoc_attrs_set_bool(st->m, &a, "keepdims", byoc_onnx__attr_int(c, "keepdims", 1) != 0);
    c->out[0] = byoc_onnx__call1(st, op, x, &a);
    return BYOC_ONNX__OK(c);
}

/* Pad's axes input (opset 18): the n pads (begins, then ends, of those axes) spread over every axis, 0
   elsewhere; the new count (2 * rank), or 0 with an error */
BYOC__PRIVATE int byoc_onnx__pad_axes(byoc_onnx__ctx *c, const byoc_type *t, int64_t *pads, int n) {
    int64_t axes[BYOC_MAX_RANK], full[2 * BYOC_MAX_RANK] = {0};
    int na = byoc_onnx__const_ints(c->st, c->in[3], axes, BYOC_MAX_RANK, "Pad's axes");
    if (na < 0) return 0;
    if (n != 2 * na) {
        byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "pads has %d values for %d axes", n, na);
        return 0;
    }
    int seen[BYOC_MAX_RANK] = {0};
    for (int i = 0; i < na; ++i) {
        int ax = byoc_onnx__norm_axis(c, axes[i], t->rank, "axis");
        if (ax < 0) return 0;
        if (seen[ax]++) {
            byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "axis %d repeated", ax);
            return 0;
        }
        full[ax] = pads[i];
        full[ax + t->rank] = pads[na + i];
    }
    memcpy(pads, full, sizeof(int64_t) * (size_t)(2 * t->rank));
    return 2 * t->rank;
}

BYOC__PRIVATE byoc_result byoc_onnx__pad(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "data");
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "Pad's input");
    if (!t) return BYOC_ONNX__OK(c);
    if (c->opset >= 18 && byoc_onnx__computed(c, 3)) return byoc_onnx__pad_axes_computed(c, op);
    int64_t pads[2 * BYOC_MAX_RANK];
    double value = 0;
    int n;
    if (c->opset < 11) {
        n = byoc_onnx__attr_ints(c, c->opset < 2 ? "paddings" : "pads", pads,
                                 2 * BYOC_MAX_RANK); /* "paddings" at opset 1 */
        value = byoc_onnx__attr_float(c, "value", 0.0);
    } else {
        n = byoc_onnx__const_ints(st, byoc_onnx__input(c, 1, "pads"), pads, 2 * BYOC_MAX_RANK, "Pad's pads");
        double v[1];
        if (n >= 0 && c->nin > 2 && c->in[2]) {
            if (byoc_onnx__const_floats(st, c->in[2], v, 1, "Pad's constant_value") != 1) return BYOC_ONNX__OK(c);
            value = v[0];
        }
        if (n >= 0 && c->nin > 3 && c->in[3] && !(n = byoc_onnx__pad_axes(c, t, pads, n))) return st->diag->code;
    }
    if (st->diag->code) return st->diag->code;
    if (n != 2 * t->rank)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "pads has %d values for rank %d", n < 0 ? 0 : n, t->rank);
    int64_t width[2 * BYOC_MAX_RANK], crop[2 * BYOC_MAX_RANK]; /* negative pads crop, after the padding */
    int cropped = 0;
    for (int d = 0; d < t->rank; ++d)
        for (int e = 0; e < 2; ++e) {
            int64_t v = pads[d + e * t->rank];
            if (v < -t->dims[d] || v > BYOC_MAX_DIM)
                return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "pad %lld on axis %d of size %lld", (long long)v,
                                       d, (long long)t->dims[d]);
            width[2 * d + e] = v > 0 ? v : 0;
            crop[2 * d + e] = v < 0 ? -v : 0;
            cropped |= v < 0;
        }
    char buf[16];
    const char *mode = byoc_onnx__attr_string(c, "mode", "constant", buf, sizeof buf);
    if (strcmp(mode, "constant") && strcmp(mode, "edge") && strcmp(mode, "reflect") &&
        (strcmp(mode, "wrap") || c->opset < 19))
        return byoc_onnx__fail(st, BYOC_ERR_ATTR, "Pad mode '%s' is not one of constant, edge, reflect%s", mode,
                               c->opset < 19 ? "" : ", wrap");
    if (cropped) { /* the input cropped first: the padding modes then read what is kept, as numpy does */
        int64_t begin[BYOC_MAX_RANK], end[BYOC_MAX_RANK], kept[BYOC_MAX_RANK];
        for (int d = 0; d < t->rank; ++d) {
            begin[d] = crop[2 * d];
            end[d] = t->dims[d] - crop[2 * d + 1];
            if (end[d] < begin[d])
                return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "pads crop more than axis %d's %lld", d,
                                       (long long)t->dims[d]);
            kept[d] = end[d] - begin[d];
        }
        byoc_attrs sa;
        memset(&sa, 0, sizeof sa);
        byoc_attrs_set_ints(st->m, &sa, "begin", begin, t->rank);
        byoc_attrs_set_ints(st->m, &sa, "end", end, t->rank);
        x = byoc_onnx__call1(st, "strided_slice", x, &sa);
        int empty = 0;
        for (int d = 0; d < t->rank; ++d) empty |= kept[d] == 0;
        if (empty && strcmp(mode, "constant"))
            return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "Pad mode '%s' of an empty (cropped) input", mode);
    }
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attr_value pw;
    memset(&pw, 0, sizeof pw);
    pw.kind = BYOC_ATTR_INT_LIST;
    pw.ints = width;
    pw.count = 2 * t->rank;
    pw.inner = 2;
    byoc_attrs_set(st->m, &a, "pad_width", &pw);
    byoc_attrs_set_string(st->m, &a, "pad_mode", mode);
    c->out[0] = byoc_onnx__call2(st, "nn.pad", x, byoc_onnx__scalar(st, t->dtype, value), &a);
    return BYOC_ONNX__OK(c);
}

/* ---- ops made of other ops ---- */
BYOC__PRIVATE byoc_node *byoc_onnx__like(byoc_onnx__ctx *c, byoc_node *x, double v) {
    return byoc_onnx__scalar(c->st, byoc_onnx__type(x)->dtype, v);
}

/* Elu, Selu, Celu, ThresholdedRelu, Softplus, Softsign, Shrink: elementwise formulas over existing ops */
BYOC__PRIVATE byoc_result byoc_onnx__activation(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "X");
    if (!x) return BYOC_ONNX__OK(c);
    if (!byoc_dtype_is_float(byoc_onnx__type(x)->dtype) && strcmp(op, "Shrink"))
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%s of %s is not supported", op,
                               byoc_dtype_name(byoc_onnx__type(x)->dtype));
    byoc_node *zero = byoc_onnx__like(c, x, 0), *one = byoc_onnx__like(c, x, 1), *y = NULL;
    if (!strcmp(op, "Elu") || !strcmp(op, "Selu")) { /* x > 0 ? x : alpha (e^x - 1), Selu scaled by gamma */
        int selu = op[0] == 'S';
        double alpha = byoc_onnx__attr_float(c, "alpha", selu ? 1.67326319217681884765625 : 1.0);
        byoc_node *neg = byoc_onnx__call2(
            st, "multiply", byoc_onnx__call2(st, "subtract", byoc_onnx__call1(st, "exp", x, NULL), one, NULL),
            byoc_onnx__like(c, x, alpha), NULL);
        byoc_node *args[3] = {byoc_onnx__call2(st, "greater", x, zero, NULL), x, neg};
        y = byoc_onnx__call(st, "where", args, 3, NULL);
        if (selu)
            y = byoc_onnx__call2(st, "multiply", y,
                                 byoc_onnx__like(c, x, byoc_onnx__attr_float(c, "gamma", 1.05070102214813232421875)),
                                 NULL);
    } else if (!strcmp(op, "Celu")) { /* max(0, x) + min(0, alpha (e^(x / alpha) - 1)) */
        double alpha = byoc_onnx__attr_float(c, "alpha", 1.0);
        byoc_node *a = byoc_onnx__like(c, x, alpha);
        byoc_node *e = byoc_onnx__call2(
            st, "subtract", byoc_onnx__call1(st, "exp", byoc_onnx__call2(st, "divide", x, a, NULL), NULL), one, NULL);
        y = byoc_onnx__call2(st, "add", byoc_onnx__call2(st, "maximum", x, zero, NULL),
                             byoc_onnx__call2(st, "minimum", byoc_onnx__call2(st, "multiply", e, a, NULL), zero, NULL),
                             NULL);
    } else if (!strcmp(op, "ThresholdedRelu")) {
        byoc_node *args[3] = {
            byoc_onnx__call2(st, "greater", x, byoc_onnx__like(c, x, byoc_onnx__attr_float(c, "alpha", 1.0)), NULL), x,
            zero};
        y = byoc_onnx__call(st, "where", args, 3, NULL);
    } else if (!strcmp(op, "Softplus")) { /* max(x, 0) + log(1 + e^-|x|): no overflow for large x */
        byoc_node *tail = byoc_onnx__call1(
            st, "exp", byoc_onnx__call1(st, "negative", byoc_onnx__call1(st, "abs", x, NULL), NULL), NULL);
        y = byoc_onnx__call2(st, "add", byoc_onnx__call2(st, "maximum", x, zero, NULL),
                             byoc_onnx__call1(st, "log", byoc_onnx__call2(st, "add", tail, one, NULL), NULL), NULL);
    } else if (!strcmp(op, "Softsign"))
        y = byoc_onnx__call2(st, "divide", x,
                             byoc_onnx__call2(st, "add", byoc_onnx__call1(st, "abs", x, NULL), one, NULL), NULL);
    else { /* Shrink: x < -lambd ? x + bias : x > lambd ? x - bias : 0 */
        double lambd = byoc_onnx__attr_float(c, "lambd", 0.5), bias = byoc_onnx__attr_float(c, "bias", 0.0);
        byoc_node *hi[3] = {byoc_onnx__call2(st, "greater", x, byoc_onnx__like(c, x, lambd), NULL),
                            byoc_onnx__call2(st, "subtract", x, byoc_onnx__like(c, x, bias), NULL), zero};
        byoc_node *upper = byoc_onnx__call(st, "where", hi, 3, NULL);
        byoc_node *lo[3] = {byoc_onnx__call2(st, "less", x, byoc_onnx__like(c, x, -lambd), NULL),
                            byoc_onnx__call2(st, "add", x, byoc_onnx__like(c, x, bias), NULL), upper};
        y = byoc_onnx__call(st, "where", lo, 3, NULL);
    }
    c->out[0] = y;
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__sign(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "input");
    if (!x) return BYOC_ONNX__OK(c);
    byoc_node *zero = byoc_onnx__like(c, x, 0);
    byoc_node *neg[3] = {byoc_onnx__call2(st, "less", x, zero, NULL), byoc_onnx__like(c, x, -1), zero};
    byoc_node *pos[3] = {byoc_onnx__call2(st, "greater", x, zero, NULL), byoc_onnx__like(c, x, 1),
                         byoc_onnx__call(st, "where", neg, 3, NULL)};
    c->out[0] = byoc_onnx__call(st, "where", pos, 3, NULL);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__is_nan_inf(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "X");
    if (!x) return BYOC_ONNX__OK(c);
    if (!strcmp(op, "IsNaN")) {
        c->out[0] = byoc_onnx__call1(st, "logical_not", byoc_onnx__call2(st, "equal", x, x, NULL), NULL);
        return BYOC_ONNX__OK(c);
    }
    int pos = (int)byoc_onnx__attr_int(c, "detect_positive", 1),
        neg = (int)byoc_onnx__attr_int(c, "detect_negative", 1);
    byoc_node *inf = byoc_onnx__like(c, x, HUGE_VAL), *minus_inf = byoc_onnx__like(c, x, -HUGE_VAL);
    byoc_node *p = byoc_onnx__call2(st, "equal", x, inf, NULL), *n = byoc_onnx__call2(st, "equal", x, minus_inf, NULL);
    if (pos && neg) { /* p or n */
        byoc_node *args[3] = {p, p, n};
        c->out[0] = byoc_onnx__call(st, "where", args, 3, NULL);
    } else if (pos) c->out[0] = p;
    else if (neg) c->out[0] = n;
    else c->out[0] = byoc_onnx__call2(st, "less", inf, x, NULL); /* never true */
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__size(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    const byoc_type *t = byoc_onnx__tensor_of(c->st, byoc_onnx__input(c, 0, "data"), "Size's input");
    if (t) c->out[0] = byoc_onnx__scalar(c->st, BYOC_INT64, (double)byoc_type_num_elements(t));
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__range(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    double v[3];
    for (int i = 0; i < 3; ++i) {
        static const char *const names[3] = {"Range's start", "Range's limit", "Range's delta"};
        if (byoc_onnx__const_floats(st, byoc_onnx__input(c, i, names[i]), v + i, 1, names[i]) != 1)
            return BYOC_ONNX__OK(c) ? BYOC_ONNX__OK(c)
                                    : byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "%s must be a scalar", names[i]);
    }
    if (v[2] == 0) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "Range's delta is 0");
    byoc_dtype dt = byoc_onnx__type(c->in[0])->dtype;
    int integer = !byoc_dtype_is_float(dt);
    int64_t iv[3] = {0, 0, 0}; /* integer bounds exactly: doubles round int64 values above 2^53 */
    for (int i = 0; integer && i < 3; ++i)
        if (byoc_onnx__const_ints(st, c->in[i], iv + i, 1, "Range's bounds") != 1) return BYOC_ONNX__OK(c);
    double count = integer ? (double)byoc__arange_int_count(iv[0], iv[1], iv[2]) : ceil((v[1] - v[0]) / v[2]);
    if (count < 0) count = 0;
    if (!(count <= 1e9)) return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "Range of %.0f elements", count);
    int64_t n = (int64_t)count;
    if ((uint64_t)n * byoc_dtype_size(dt) > st->max_bytes)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "Range above the import limit");
    byoc_node *k = byoc_constant(st->m, byoc_tensor_type(st->m, dt, 1, &n), NULL, 0);
    if (!k) return byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
    /* start + i * delta in the input type, as the spec's loop computes it */
    for (int64_t i = 0; i < n; ++i) {
        if (integer) byoc__store_int(dt, k->data, i, byoc__arange_int_at(iv[0], iv[2], i));
        else
            byoc__store(dt, k->data, i,
                        dt == BYOC_FLOAT64 ? v[0] + (double)i * v[2] : (double)((float)v[0] + (float)i * (float)v[2]));
    }
    k->checked_type = k->annotation;
    c->out[0] = k;
    return BYOC_OK;
}

/* ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum, ReduceLogSumExp: a transform, sum, and a finish */
BYOC__PRIVATE byoc_result byoc_onnx__reduce_composite(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "data");
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "the reduction's input");
    if (!t) return BYOC_ONNX__OK(c);
    if (c->opset >= 18 && byoc_onnx__computed(c, 1)) return byoc_onnx__reduce_composite_computed(c, op);
    int64_t axes[BYOC_MAX_RANK];
    int noop = 0, n = byoc_onnx__reduce_axes(c, t, 18, axes, &noop);
    if (n < 0) return BYOC_ONNX__OK(c);
    byoc_node *v = x;
    if (!strcmp(op, "ReduceL1")) v = byoc_onnx__call1(st, "abs", x, NULL);
    else if (!strcmp(op, "ReduceL2") || !strcmp(op, "ReduceSumSquare"))
        v = byoc_onnx__call2(st, "multiply", x, x, NULL);
    if (noop) { /* a reduction over no axes (opset 18's noop_with_empty_axes): the elementwise parts alone */
        if (!strcmp(op, "ReduceL2")) v = byoc_onnx__call1(st, "sqrt", v, NULL);
        else if (!strcmp(op, "ReduceLogSum")) v = byoc_onnx__call1(st, "log", v, NULL);
        c->out[0] = v; /* ReduceLogSumExp of one element: log(exp(x)) = x */
        return BYOC_ONNX__OK(c);
    }
    byoc_attrs a, kept;
    memset(&a, 0, sizeof a);
    memset(&kept, 0, sizeof kept);
    if (n > 0) {
        byoc_attrs_set_ints(st->m, &a, "axis", axes, n);
        byoc_attrs_set_ints(st->m, &kept, "axis", axes, n);
    }
    byoc_attrs_set_bool(st->m, &a, "keepdims", byoc_onnx__attr_int(c, "keepdims", 1) != 0);
    byoc_attrs_set_bool(st->m, &kept, "keepdims", 1);
    byoc_node *peak = NULL;
    if (!strcmp(op, "ReduceLogSumExp")) { /* log(sum(e^(x - max))) + max: no overflow */
        peak = byoc_onnx__call1(st, "max", x, &kept);
        v = byoc_onnx__call1(st, "exp", byoc_onnx__call2(st, "subtract", x, peak, NULL), NULL);
    }
    byoc_node *r = byoc_onnx__call1(st, "sum", v, &a);
    if (!strcmp(op, "ReduceL2")) r = byoc_onnx__call1(st, "sqrt", r, NULL);
    else if (!strcmp(op, "ReduceLogSum") || peak) r = byoc_onnx__call1(st, "log", r, NULL);
    if (peak && r) {
        const byoc_type *rt = byoc_onnx__type(r);
        r = byoc_onnx__call2(st, "add", r, byoc_onnx__reshape(st, peak, rt->rank, rt->dims), NULL);
    }
    c->out[0] = r;
    return BYOC_ONNX__OK(c);
}

/* Tile: x seen as [1, d0, 1, d1, ...], broadcast to [r0, d0, r1, d1, ...], merged back */
BYOC__PRIVATE byoc_result byoc_onnx__tile(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "input");
    const byoc_type *t = byoc_onnx__ranked_of(st, x, "Tile's input");
    if (t && !byoc_type_is_static(t)) { /* '?' extents: dyn.tile multiplies them at run time */
        c->out[0] = byoc_onnx__call2(st, "dyn.tile", x, byoc_onnx__input(c, 1, "repeats"), NULL);
        return BYOC_ONNX__OK(c);
    }
    int64_t reps[BYOC_MAX_RANK];
    int n =
        t ? byoc_onnx__const_ints(st, byoc_onnx__input(c, 1, "repeats"), reps, BYOC_MAX_RANK, "Tile's repeats") : -1;
    if (n < 0) return BYOC_ONNX__OK(c);
    if (n != t->rank)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "repeats has %d values for rank %d", n, t->rank);
    if (2 * t->rank > BYOC_MAX_RANK)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "Tile of rank %d (at most %d)", t->rank, BYOC_MAX_RANK / 2);
    int64_t split[BYOC_MAX_RANK], wide[BYOC_MAX_RANK], out[BYOC_MAX_RANK];
    for (int d = 0; d < t->rank; ++d) {
        if (reps[d] < 1 || reps[d] > BYOC_MAX_DIM)
            return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "repeats[%d] = %lld", d, (long long)reps[d]);
        split[2 * d] = 1;
        split[2 * d + 1] = t->dims[d];
        wide[2 * d] = reps[d];
        wide[2 * d + 1] = t->dims[d];
        out[d] = reps[d] * t->dims[d];
    }
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(st->m, &a, "shape", wide, 2 * t->rank);
    c->out[0] = byoc_onnx__reshape(
        st, byoc_onnx__call1(st, "broadcast_to", byoc_onnx__reshape(st, x, 2 * t->rank, split), &a), t->rank, out);
    return BYOC_ONNX__OK(c);
}

/* SpaceToDepth: [N, C, H/b, b, W/b, b] -> [N, b, b, C, H/b, W/b] -> [N, C b b, H/b, W/b] */
BYOC__PRIVATE byoc_result byoc_onnx__space_to_depth(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "input");
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "SpaceToDepth's input");
    if (!t) return BYOC_ONNX__OK(c);
    int64_t b = byoc_onnx__attr_int(c, "blocksize", 0);
    if (t->rank != 4 || b < 1 || t->dims[2] % b || t->dims[3] % b)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT,
                               "SpaceToDepth needs a rank-4 input whose height and width divide by blocksize %lld",
                               (long long)b);
    int64_t six[6] = {t->dims[0], t->dims[1], t->dims[2] / b, b, t->dims[3] / b, b};
    int perm[6] = {0, 3, 5, 1, 2, 4};
    int64_t out[4] = {t->dims[0], t->dims[1] * b * b, t->dims[2] / b, t->dims[3] / b};
    c->out[0] = byoc_onnx__reshape(st, byoc_onnx__transpose(st, byoc_onnx__reshape(st, x, 6, six), 6, perm), 4, out);
    return BYOC_ONNX__OK(c);
}

/* MeanVarianceNormalization: (x - mean) / sqrt(var + 1e-9) over axes (default 0, 2, 3) */
BYOC__PRIVATE byoc_result byoc_onnx__mvn(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "X");
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "the input");
    if (!t) return BYOC_ONNX__OK(c);
    int64_t axes[BYOC_MAX_RANK] = {0, 2, 3};
    int n = byoc_onnx__attr_ints(c, "axes", axes, BYOC_MAX_RANK);
    if (n == -2) return BYOC_ONNX__OK(c);
    if (n < 0) n = 3;
    for (int i = 0; i < n; ++i)
        if ((axes[i] = byoc_onnx__norm_axis(c, axes[i], t->rank, "axis")) < 0) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(st->m, &a, "axis", axes, n);
    byoc_attrs_set_bool(st->m, &a, "keepdims", 1);
    byoc_node *mean = byoc_onnx__call1(st, "mean", x, &a);
    byoc_node *centered = byoc_onnx__call2(st, "subtract", x, mean, NULL);
    byoc_node *var = byoc_onnx__call1(st, "mean", byoc_onnx__call2(st, "multiply", centered, centered, NULL), &a);
    c->out[0] = byoc_onnx__call2(
        st, "divide", centered,
        byoc_onnx__call1(st, "sqrt", byoc_onnx__call2(st, "add", var, byoc_onnx__like(c, x, 1e-9), NULL), NULL), NULL);
    return BYOC_ONNX__OK(c);
}

/* InstanceNormalization: per sample and channel over the spatial dims, then scale and bias per channel */
BYOC__PRIVATE byoc_result byoc_onnx__instance_norm(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "input"), *scale = byoc_onnx__input(c, 1, "scale"),
              *bias = byoc_onnx__input(c, 2, "B");
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "the input");
    if (!t || !scale || !bias) return BYOC_ONNX__OK(c);
    if (t->rank < 3)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "InstanceNormalization needs rank 3 or more");
    int64_t axes[BYOC_MAX_RANK], cshape[BYOC_MAX_RANK];
    for (int d = 2; d < t->rank; ++d) axes[d - 2] = d;
    for (int d = 0; d < t->rank; ++d) cshape[d] = d == 1 ? t->dims[1] : 1;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(st->m, &a, "axis", axes, t->rank - 2);
    byoc_attrs_set_bool(st->m, &a, "keepdims", 1);
    byoc_node *mean = byoc_onnx__call1(st, "mean", x, &a);
    byoc_node *centered = byoc_onnx__call2(st, "subtract", x, mean, NULL);
    byoc_node *var = byoc_onnx__call1(st, "mean", byoc_onnx__call2(st, "multiply", centered, centered, NULL), &a);
    byoc_node *eps = byoc_onnx__like(c, x, byoc_onnx__attr_float(c, "epsilon", 1e-5));
    byoc_node *norm = byoc_onnx__call2(
        st, "divide", centered, byoc_onnx__call1(st, "sqrt", byoc_onnx__call2(st, "add", var, eps, NULL), NULL), NULL);
    byoc_node *y = byoc_onnx__call2(st, "multiply", norm, byoc_onnx__reshape(st, scale, t->rank, cshape), NULL);
    c->out[0] = byoc_onnx__call2(st, "add", y, byoc_onnx__reshape(st, bias, t->rank, cshape), NULL);
    return BYOC_ONNX__OK(c);
}

// [SECTION] impl: op converters: math
/* (converters: math) */
/* Mod: fmod=1 is C's fmod (the dividend's sign), fmod=0 Python's % (the divisor's sign), which ONNX defines
   for integers only */
BYOC__PRIVATE byoc_result byoc_onnx__mod(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *a = byoc_onnx__input(c, 0, "A"), *b = byoc_onnx__input(c, 1, "B");
    if (!a || !b) return BYOC_ONNX__OK(c);
    int64_t fmod = byoc_onnx__attr_int(c, "fmod", 0);
    if (fmod != 0 && fmod != 1)
        return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "fmod must be 0 or 1, got %lld", (long long)fmod);
    byoc_dtype dt = byoc_onnx__type(a)->dtype;
    if (!fmod && byoc_dtype_is_float(dt))
        return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "Mod of %s needs fmod=1 (fmod=0 is defined for integers only)",
                               byoc_dtype_name(dt));
    c->out[0] = byoc_onnx__call2(c->st, fmod ? "mod" : "floor_mod", a, b, NULL);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__bitshift(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    char buf[16];
    const char *dir = byoc_onnx__attr_string(c, "direction", "", buf, sizeof buf);
    int left = !strcmp(dir, "LEFT");
    if (!left && strcmp(dir, "RIGHT"))
        return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "direction must be \"LEFT\" or \"RIGHT\", got \"%s\"", dir);
    c->out[0] = byoc_onnx__call2(c->st, left ? "left_shift" : "right_shift", byoc_onnx__input(c, 0, "X"),
                                 byoc_onnx__input(c, 1, "Y"), NULL);
    return BYOC_ONNX__OK(c);
}

/* Trilu: k (optional, a 0-D int64) stays an argument, so it may be computed at run time */
BYOC__PRIVATE byoc_result byoc_onnx__trilu(byoc_onnx__ctx *c, const char *op) {
    byoc_node *x = byoc_onnx__input(c, 0, "input"), *k = c->nin > 1 ? c->in[1] : NULL;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_bool(c->st->m, &a, "upper", byoc_onnx__attr_int(c, "upper", 1) != 0);
    c->out[0] = k ? byoc_onnx__call2(c->st, op, x, k, &a) : byoc_onnx__call1(c->st, op, x, &a);
    return BYOC_ONNX__OK(c);
}

/* CumSum: the axis input must be a constant (it fixes which axis the kernel scans) */
BYOC__PRIVATE byoc_result byoc_onnx__cumsum(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "x"), *axis_in = byoc_onnx__input(c, 1, "axis");
    const byoc_type *t = x && axis_in ? byoc_onnx__ranked_of(st, x, "CumSum's x") : NULL;
    if (!t) return BYOC_ONNX__OK(c);
    /* The axis must be a constant: it selects which axis the kernel scans (the result's shape does not
       depend on it, so there is nothing for a run-time shape function to settle), as cumsum's attribute in
       Relay; a computed axis is refused naming the node. */
    int64_t axis;
    int n = byoc_onnx__const_ints(st, axis_in, &axis, 1, "CumSum's axis");
    if (n < 0) return BYOC_ONNX__OK(c);
    if (n != 1) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "CumSum's axis must hold one value, got %d", n);
    if ((axis = byoc_onnx__norm_axis(c, axis, t->rank, "axis")) < 0) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(st->m, &a, "axis", axis);
    byoc_attrs_set_bool(st->m, &a, "exclusive", byoc_onnx__attr_int(c, "exclusive", 0) != 0);
    byoc_attrs_set_bool(st->m, &a, "reverse", byoc_onnx__attr_int(c, "reverse", 0) != 0);
    c->out[0] = byoc_onnx__call1(st, op, x, &a);
    return BYOC_ONNX__OK(c);
}

/* EyeLike: dtype (a TensorProto data type) defaults to the input's */
BYOC__PRIVATE byoc_result byoc_onnx__eye_like(byoc_onnx__ctx *c, const char *op) {
    byoc_node *x = byoc_onnx__input(c, 0, "input");
    if (!x) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    if (byoc_onnx__attr_get(c, "dtype")) {
        int64_t code = byoc_onnx__attr_int(c, "dtype", 0);
        byoc_dtype dt = code > 0 && code < 64 ? byoc_onnx__dtype((int)code) : BYOC_DTYPE_INVALID;
        if (dt == BYOC_DTYPE_INVALID)
            return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "dtype %lld is not supported", (long long)code);
        byoc_attrs_set_string(c->st->m, &a, "dtype", byoc_dtype_name(dt));
    }
    byoc_attrs_set_int(c->st->m, &a, "k", byoc_onnx__attr_int(c, "k", 0));
    c->out[0] = byoc_onnx__call1(c->st, op, x, &a);
    return BYOC_ONNX__OK(c);
}

/* Gelu (opset 20): approximate "none" (the erf form) or "tanh" */
BYOC__PRIVATE byoc_result byoc_onnx__gelu(byoc_onnx__ctx *c, const char *op) {
    char buf[16];
    const char *approx = byoc_onnx__attr_string(c, "approximate", "none", buf, sizeof buf);
    if (strcmp(approx, "none") && strcmp(approx, "tanh"))
        return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "approximate must be \"none\" or \"tanh\", got \"%s\"", approx);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_string(c->st->m, &a, "approximate", approx);
    c->out[0] = byoc_onnx__call1(c->st, op, byoc_onnx__input(c, 0, "X"), &a);
    return BYOC_ONNX__OK(c);
}

// [SECTION] impl: op converters: indexing
/* (converters: indexing) */
/* ArgMax, ArgMin: Relay's argmax/argmin give int32, ONNX wants int64 */
BYOC__PRIVATE byoc_result byoc_onnx__argreduce(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "data");
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "the input");
    if (!t) return BYOC_ONNX__OK(c);
    int64_t axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", 0), t->rank, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(st->m, &a, "axis", &axis, 1);
    byoc_attrs_set_bool(st->m, &a, "keepdims", byoc_onnx__attr_int(c, "keepdims", 1) != 0);
    /* select_last_index came with opset 12; before it ties went to the first index */
    byoc_attrs_set_bool(st->m, &a, "select_last_index",
                        c->opset >= 12 && byoc_onnx__attr_int(c, "select_last_index", 0) != 0);
    c->out[0] = byoc_onnx__cast(st, byoc_onnx__call1(st, op, x, &a), BYOC_INT64);
    return BYOC_ONNX__OK(c);
}

/* TopK: k an attribute before opset 10, a constant input from it; `largest` from opset 11. The result
   is always sorted (sorted=0 leaves the order unspecified, so sorted is a valid order). */
BYOC__PRIVATE byoc_result byoc_onnx__topk(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "X");
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "TopK's input");
    if (!t) return BYOC_ONNX__OK(c);
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", -1), t->rank, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
    if (c->opset >= 10 && byoc_onnx__computed(c, 1)) return byoc_onnx__topk_computed(c, axis);
    int64_t k = byoc_onnx__attr_int(c, "k", -1);
    if (c->opset >= 10) {
        int n = byoc_onnx__const_ints(st, byoc_onnx__input(c, 1, "K"), &k, 1, "TopK's k");
        if (st->diag->code) return st->diag->code;
        if (n != 1) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "TopK's k must hold one value");
    }
    if (k < 1 || k > t->dims[axis])
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "k=%lld must be in 1..%lld (the extent of axis %d)",
                               (long long)k, (long long)t->dims[axis], axis);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(st->m, &a, "k", k);
    byoc_attrs_set_int(st->m, &a, "axis", axis);
    byoc_attrs_set_string(st->m, &a, "ret_type", "both");
    byoc_attrs_set_bool(st->m, &a, "is_ascend", c->opset >= 11 && byoc_onnx__attr_int(c, "largest", 1) == 0);
    byoc_attrs_set_string(st->m, &a, "dtype", "int64");
    byoc_node *both = byoc_onnx__call1(st, op, x, &a);
    for (int i = 0; i < 2 && i < c->nout && both; ++i) {
        byoc_node *field = byoc_tuple_get_item(st->m, both, i);
        if (!field || byoc_infer_node_type(st->m, field, st->diag) != BYOC_OK) break;
        c->out[i] = byoc_onnx__note(st, field);
    }
    return BYOC_ONNX__OK(c);
}

/* GatherElements: Relay's gather (negative indices count from the end) */
BYOC__PRIVATE byoc_result byoc_onnx__gather_elements(byoc_onnx__ctx *c, const char *op) {
    byoc_node *data = byoc_onnx__input(c, 0, "data"), *idx = byoc_onnx__input(c, 1, "indices");
    const byoc_type *t = byoc_onnx__tensor_of(c->st, data, "GatherElements' data");
    if (!t || !idx) return BYOC_ONNX__OK(c);
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", 0), t->rank, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(c->st->m, &a, "axis", axis);
    c->out[0] = byoc_onnx__call2(c->st, op, data, idx, &a);
    return BYOC_ONNX__OK(c);
}

/* ONNX puts the index tuple on the last axis of GatherND's / ScatterND's indices, Relay on the first */
BYOC__PRIVATE byoc_node *byoc_onnx__tuple_axis_first(byoc_onnx__ctx *c, byoc_node *idx, const char *what) {
    const byoc_type *t = byoc_onnx__ranked_of(c->st, idx, what);
    if (!t) return NULL;
    if (t->rank < 1) {
        byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "%s must have rank 1 or more", what);
        return NULL;
    }
    int perm[BYOC_MAX_RANK];
    perm[0] = t->rank - 1;
    for (int d = 1; d < t->rank; ++d) perm[d] = d - 1;
    return byoc_onnx__transpose(c->st, idx, t->rank, perm);
}

BYOC__PRIVATE byoc_result byoc_onnx__gather_nd(byoc_onnx__ctx *c, const char *op) {
    byoc_node *data = byoc_onnx__input(c, 0, "data"), *idx = byoc_onnx__input(c, 1, "indices");
    if (!data || !idx) return BYOC_ONNX__OK(c);
    byoc_node *tuples = byoc_onnx__tuple_axis_first(c, idx, "GatherND's indices");
    if (!tuples) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(c->st->m, &a, "batch_dims", byoc_onnx__attr_int(c, "batch_dims", 0));
    c->out[0] = byoc_onnx__call2(c->st, op, data, tuples, &a);
    return BYOC_ONNX__OK(c);
}

/* the scatter reduction in Relay's words: ONNX's none (opset 16's default) is update; add and mul came
   with opset 16, max and min with 18. NULL after failing. */
BYOC__PRIVATE const char *byoc_onnx__scatter_reduction(byoc_onnx__ctx *c) {
    char buf[32];
    const char *r = byoc_onnx__attr_string(c, "reduction", "none", buf, sizeof buf);
    static const char *const names[][2] = {
        {"none", "update"}, {"add", "add"}, {"mul", "mul"}, {"max", "max"}, {"min", "min"}};
    for (int i = 0; i < 5; ++i)
        if (!strcmp(r, names[i][0])) return names[i][1];
    byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "reduction \"%s\" is not one of none, add, mul, max, min", r);
    return NULL;
}

/* Scatter (opset 9-10) and ScatterElements */
BYOC__PRIVATE byoc_result byoc_onnx__scatter_elements(byoc_onnx__ctx *c, const char *op) {
    byoc_node *args[3] = {byoc_onnx__input(c, 0, "data"), byoc_onnx__input(c, 1, "indices"),
                          byoc_onnx__input(c, 2, "updates")};
    const byoc_type *t = byoc_onnx__tensor_of(c->st, args[0], "the scatter's data");
    const char *reduction = t && args[1] && args[2] ? byoc_onnx__scatter_reduction(c) : NULL;
    if (!reduction) return BYOC_ONNX__OK(c);
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", 0), t->rank, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(c->st->m, &a, "axis", axis);
    byoc_attrs_set_string(c->st->m, &a, "reduction", reduction);
    c->out[0] = byoc_onnx__call(c->st, op, args, 3, &a);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__scatter_nd(byoc_onnx__ctx *c, const char *op) {
    byoc_node *args[3] = {byoc_onnx__input(c, 0, "data"), byoc_onnx__input(c, 1, "indices"),
                          byoc_onnx__input(c, 2, "updates")};
    if (!args[0] || !args[1] || !args[2]) return BYOC_ONNX__OK(c);
    const char *mode = byoc_onnx__scatter_reduction(c);
    if (!mode || !(args[1] = byoc_onnx__tuple_axis_first(c, args[1], "ScatterND's indices"))) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_string(c->st->m, &a, "mode", mode);
    c->out[0] = byoc_onnx__call(c->st, op, args, 3, &a);
    return BYOC_ONNX__OK(c);
}

/* OneHot: indices of any numeric type (cast to int64, truncating); from opset 11 a negative one counts
   from the end (Relay's one_hot, as opset 9, gives it a row of off_value, so they are wrapped here
   first); depth a constant; values = [off_value, on_value] in the result's dtype */
BYOC__PRIVATE byoc_result byoc_onnx__one_hot(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    byoc_node *idx = byoc_onnx__input(c, 0, "indices"), *values = byoc_onnx__input(c, 2, "values");
    const byoc_type *ti = byoc_onnx__tensor_of(st, idx, "OneHot's indices"),
                    *tv = ti ? byoc_onnx__tensor_of(st, values, "OneHot's values") : NULL;
    if (tv && byoc_onnx__computed(c, 1)) return byoc_onnx__one_hot_computed(c);
    double depth_v[1];
    if (!tv || byoc_onnx__const_floats(st, byoc_onnx__input(c, 1, "depth"), depth_v, 1, "OneHot's depth") < 0)
        return BYOC_ONNX__OK(c);
    if (!(depth_v[0] >= 1 && depth_v[0] <= BYOC_MAX_DIM))
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "OneHot's depth %g must be a positive size", depth_v[0]);
    if (byoc_type_num_elements(tv) != 2)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT,
                               "OneHot's values must hold two elements [off_value, on_value], got %lld",
                               (long long)byoc_type_num_elements(tv));
    int64_t depth = (int64_t)depth_v[0];
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", -1), ti->rank + 1, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
    byoc_node *i64 = byoc_onnx__cast(st, idx, BYOC_INT64);
    if (c->opset >= 11) {
        byoc_node *wrap[3] = {byoc_onnx__call2(st, "less", i64, byoc_onnx__scalar(st, BYOC_INT64, 0), NULL),
                              byoc_onnx__call2(st, "add", i64, byoc_onnx__scalar(st, BYOC_INT64, (double)depth), NULL),
                              i64};
        i64 = byoc_onnx__call(st, "where", wrap, 3, NULL);
    }
    byoc_node *args[3] = {i64, byoc_onnx__call2(st, "take", values, byoc_onnx__scalar(st, BYOC_INT64, 1), NULL),
                          byoc_onnx__call2(st, "take", values, byoc_onnx__scalar(st, BYOC_INT64, 0), NULL)};
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(st->m, &a, "depth", depth);
    byoc_attrs_set_int(st->m, &a, "axis", axis);
    byoc_attrs_set_string(st->m, &a, "dtype", byoc_dtype_name(tv->dtype));
    c->out[0] = byoc_onnx__call(st, op, args, 3, &a);
    return BYOC_ONNX__OK(c);
}

/* ReverseSequence: ONNX's time_axis (default 0) and batch_axis (default 1) */
BYOC__PRIVATE byoc_result byoc_onnx__reverse_sequence(byoc_onnx__ctx *c, const char *op) {
    byoc_node *x = byoc_onnx__input(c, 0, "input"), *lens = byoc_onnx__input(c, 1, "sequence_lens");
    if (!x || !lens) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(c->st->m, &a, "seq_axis", byoc_onnx__attr_int(c, "time_axis", 0));
    byoc_attrs_set_int(c->st->m, &a, "batch_axis", byoc_onnx__attr_int(c, "batch_axis", 1));
    c->out[0] = byoc_onnx__call2(c->st, op, x, lens, &a);
    return BYOC_ONNX__OK(c);
}

// [SECTION] impl: op converters: spatial sampling
/* (converters: sampling) */
/* ---- Resize (opsets 10-19) and Upsample (opsets 1-9) -> image.resize ---- */
typedef struct byoc_onnx__resize_args {
    int rank, naxes, axes[BYOC_MAX_RANK];
    double scales[BYOC_MAX_RANK], roi[2 * BYOC_MAX_RANK];
    int64_t sizes[BYOC_MAX_RANK];
    int nscales, nsizes, nroi;
} byoc_onnx__resize_args;

/* Upsample: scales from the attributes (opsets 1-8) or the second input (9); coordinates asymmetric
   and nearest rounding down, which is how Upsample (and Resize-10) index: out[x] = in[x / scale] */
BYOC__PRIVATE int byoc_onnx__upsample_scales(byoc_onnx__ctx *c, byoc_onnx__resize_args *r) {
    if (c->opset >= 9) {
        r->nscales = byoc_onnx__const_floats(c->st, byoc_onnx__input(c, 1, "scales"), r->scales, BYOC_MAX_RANK,
                                             "Upsample's scales");
    } else if (c->opset >= 7) {
        r->nscales = byoc_onnx__attr_floats(c, "scales", r->scales, BYOC_MAX_RANK);
        if (r->nscales == -1) byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "Upsample needs the scales attribute");
    } else { /* opset 1: height_scale and width_scale of an NCHW input */
        if (r->rank != 4)
            return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "Upsample-1 takes NCHW inputs, this one has rank %d",
                                   r->rank),
                   0;
        r->scales[0] = r->scales[1] = 1;
        r->scales[2] = byoc_onnx__attr_float(c, "height_scale", 1);
        r->scales[3] = byoc_onnx__attr_float(c, "width_scale", 1);
        r->nscales = 4;
    }
    return !c->st->diag->code;
}

/* Resize's roi, scales and sizes (opset 11 on; 10 has only scales), read as constants where they
   matter: the roi only for tf_crop_and_resize */
BYOC__PRIVATE int byoc_onnx__resize_inputs(byoc_onnx__ctx *c, byoc_onnx__resize_args *r, int crop) {
    byoc_onnx__state *st = c->st;
    int si = c->opset >= 11 ? 2 : 1;
    r->nscales = si < c->nin && c->in[si]
                     ? byoc_onnx__const_floats(st, c->in[si], r->scales, BYOC_MAX_RANK, "Resize's scales")
                     : 0;
    r->nsizes = c->opset >= 11 && c->nin > 3 && c->in[3]
                    ? byoc_onnx__const_ints(st, c->in[3], r->sizes, BYOC_MAX_RANK, "Resize's sizes")
                    : 0;
    if (crop && c->nin > 1 && c->in[1])
        r->nroi = byoc_onnx__const_floats(st, c->in[1], r->roi, 2 * BYOC_MAX_RANK, "Resize's roi");
    if (st->diag->code) return 0;
    if (r->nscales > 0 && r->nsizes > 0)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "give scales or sizes, not both"), 0;
    if (r->nscales <= 0 && r->nsizes <= 0)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "Resize needs scales or sizes"), 0;
    return 1;
}

/* axes (opset 18) and the lengths of scales, sizes and roi against them */
BYOC__PRIVATE int byoc_onnx__resize_axes(byoc_onnx__ctx *c, byoc_onnx__resize_args *r) {
    int64_t axes[BYOC_MAX_RANK];
    int n = c->opset >= 18 ? byoc_onnx__attr_ints(c, "axes", axes, BYOC_MAX_RANK) : -1;
    if (n == -2) return 0;
    r->naxes = n < 0 ? r->rank : n;
    for (int i = 0; i < r->naxes; ++i) {
        int a = n < 0 ? i : byoc_onnx__norm_axis(c, axes[i], r->rank, "axis");
        if (a < 0) return 0;
        for (int j = 0; j < i; ++j)
            if (r->axes[j] == a) return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "axis %d is given twice", a), 0;
        r->axes[i] = a;
    }
    int given = r->nscales > 0 ? r->nscales : r->nsizes;
    if (given != r->naxes)
        return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "%s has %d values for %d axes",
                               r->nscales > 0 ? "scales" : "sizes", given, r->naxes),
               0;
    if (r->nroi > 0 && r->nroi != 2 * r->naxes)
        return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "roi has %d values for %d axes", r->nroi, r->naxes), 0;
    return 1;
}

/* the output shape and the per-axis scale the coordinates use; sizes_only: the scale is size / input */
BYOC__PRIVATE int byoc_onnx__resize_shape(byoc_onnx__ctx *c, const byoc_type *t, const byoc_onnx__resize_args *r,
                                          int64_t *size, double *scale, int *sizes_only) {
    char buf[24];
    const char *policy =
        c->opset >= 18 ? byoc_onnx__attr_string(c, "keep_aspect_ratio_policy", "stretch", buf, sizeof buf) : "stretch";
    int keep = !strcmp(policy, "not_larger") ? 1 : !strcmp(policy, "not_smaller") ? 2 : 0;
    if (!keep && strcmp(policy, "stretch"))
        return byoc_onnx__fail(c->st, BYOC_ERR_ATTR,
                               "keep_aspect_ratio_policy \"%s\" is not one of stretch, "
                               "not_larger, not_smaller",
                               policy),
               0;
    for (int d = 0; d < t->rank; ++d) {
        size[d] = t->dims[d];
        scale[d] = 1;
    }
    *sizes_only = r->nsizes > 0 && !keep;
    double common = 0;
    for (int i = 0; i < r->naxes; ++i) {
        int d = r->axes[i];
        double in = (double)t->dims[d];
        if (r->nscales > 0) {
            if (!(r->scales[i] > 0) || !isfinite(r->scales[i]))
                return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "scale %g is not positive", r->scales[i]), 0;
            double out = floor(in * r->scales[i]);
            if (out > BYOC_MAX_DIM)
                return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "scale %g is too large", r->scales[i]), 0;
            size[d] = (int64_t)out;
            scale[d] = r->scales[i];
        } else {
            if (r->sizes[i] < 0 || r->sizes[i] > BYOC_MAX_DIM)
                return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "size %lld is out of range",
                                       (long long)r->sizes[i]),
                       0;
            size[d] = r->sizes[i];
            double s = t->dims[d] ? (double)r->sizes[i] / in : 1;
            if (i == 0 || (keep == 1 && s < common) || (keep == 2 && s > common)) common = s;
        }
    }
    for (int i = 0; keep && r->nsizes > 0 && i < r->naxes; ++i) { /* one scale for every axis, sizes rounded */
        int d = r->axes[i];
        scale[d] = common;
        size[d] = (int64_t)(common * (double)t->dims[d] + 0.5);
    }
    return 1;
}

BYOC__PRIVATE byoc_result byoc_onnx__resize(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    int upsample = !strcmp(op, "Upsample"), legacy = upsample || c->opset < 11; /* Upsample and Resize-10 */
    byoc_node *x = byoc_onnx__input(c, 0, "X");
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "the input");
    if (!t) return BYOC_ONNX__OK(c);
    byoc_onnx__resize_args r;
    memset(&r, 0, sizeof r);
    r.rank = t->rank;
    char mbuf[24], cbuf[32], nbuf[32];
    const char *mode = byoc_onnx__attr_string(c, "mode", "nearest", mbuf, sizeof mbuf);
    const char *ctm =
        legacy ? "asymmetric"
               : byoc_onnx__attr_string(c, "coordinate_transformation_mode", "half_pixel", cbuf, sizeof cbuf);
    const char *nearest =
        legacy ? "floor" : byoc_onnx__attr_string(c, "nearest_mode", "round_prefer_floor", nbuf, sizeof nbuf);
    const char *method = !strcmp(mode, "nearest")                                             ? "nearest_neighbor"
                         : !strcmp(mode, "linear") || (upsample && !strcmp(mode, "bilinear")) ? "linear"
                         : !strcmp(mode, "cubic") && !legacy                                  ? "cubic"
                                                                                              : NULL;
    if (!method) return byoc_onnx__fail(st, BYOC_ERR_ATTR, "mode \"%s\" is not supported at opset %d", mode, c->opset);
    int crop = !strcmp(ctm, "tf_crop_and_resize");
    if (byoc_onnx__resize_is_computed(c, legacy, crop))
        return byoc_onnx__resize_computed(c, x, method, ctm, nearest, legacy, crop);
    if (upsample ? !byoc_onnx__upsample_scales(c, &r) : !byoc_onnx__resize_inputs(c, &r, crop)) return BYOC_ONNX__OK(c);
    if (!byoc_onnx__resize_axes(c, &r)) return BYOC_ONNX__OK(c);
    if (crop && r.nroi <= 0) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "tf_crop_and_resize needs a roi");
    int64_t size[BYOC_MAX_RANK];
    double scale[BYOC_MAX_RANK], roi[2 * BYOC_MAX_RANK];
    int sizes_only;
    if (!byoc_onnx__resize_shape(c, t, &r, size, scale, &sizes_only)) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(st->m, &a, "size", size, t->rank);
    if (!sizes_only) byoc_attrs_set_floats(st->m, &a, "scales", scale, t->rank);
    if (crop) { /* starts then ends over every axis; the axes not listed keep their whole extent */
        for (int d = 0; d < t->rank; ++d) {
            roi[d] = 0;
            roi[t->rank + d] = 1;
        }
        for (int i = 0; i < r.naxes; ++i) {
            roi[r.axes[i]] = r.roi[i];
            roi[t->rank + r.axes[i]] = r.roi[r.naxes + i];
        }
        byoc_attrs_set_floats(st->m, &a, "roi", roi, 2 * t->rank);
        byoc_attrs_set_float(st->m, &a, "extrapolation_value", byoc_onnx__attr_float(c, "extrapolation_value", 0));
    }
    byoc_attrs_set_string(st->m, &a, "method", method);
    byoc_attrs_set_string(st->m, &a, "coordinate_transformation_mode", ctm);
    if (!strcmp(method, "nearest_neighbor")) byoc_attrs_set_string(st->m, &a, "rounding_method", nearest);
    if (!strcmp(method, "cubic")) {
        byoc_attrs_set_float(st->m, &a, "cubic_alpha", byoc_onnx__attr_float(c, "cubic_coeff_a", -0.75));
        byoc_attrs_set_int(st->m, &a, "cubic_exclude", byoc_onnx__attr_int(c, "exclude_outside", 0) != 0);
    } else if (!legacy && byoc_onnx__attr_int(c, "exclude_outside", 0)) {
        byoc_attrs_set_int(st->m, &a, "cubic_exclude", 1); /* renormalises linear taps at the border too */
    }
    if (c->opset >= 18 && byoc_onnx__attr_int(c, "antialias", 0) && strcmp(method, "nearest_neighbor"))
        byoc_attrs_set_bool(st->m, &a, "antialias", 1);
    c->out[0] = byoc_onnx__call1(st, "image.resize", x, &a);
    return BYOC_ONNX__OK(c);
}

/* ---- GridSample (opset 16; 20's linear/cubic names too) -> image.grid_sample on a [N, 2, OH, OW] grid ---- */
BYOC__PRIVATE byoc_result byoc_onnx__grid_sample(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "X"), *grid = byoc_onnx__input(c, 1, "grid");
    const byoc_type *tx = byoc_onnx__tensor_of(st, x, "GridSample's X"),
                    *tg = tx ? byoc_onnx__tensor_of(st, grid, "GridSample's grid") : NULL;
    if (!tx || !tg) return BYOC_ONNX__OK(c);
    if (tx->rank != 4)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "only 2-D sampling (X of rank 4) is supported, X has rank %d",
                               tx->rank);
    if (tg->rank != 4 || tg->dims[3] != 2)
        return byoc_onnx__fail(st, BYOC_ERR_TYPE, "the grid must be [N, H_out, W_out, 2]");
    char mbuf[24], pbuf[24];
    const char *mode = byoc_onnx__attr_string(c, "mode", c->opset >= 20 ? "linear" : "bilinear", mbuf, sizeof mbuf);
    const char *padding = byoc_onnx__attr_string(c, "padding_mode", "zeros", pbuf, sizeof pbuf);
    const char *method = !strcmp(mode, "bilinear") || !strcmp(mode, "linear") ? "bilinear"
                         : !strcmp(mode, "bicubic") || !strcmp(mode, "cubic") ? "bicubic"
                         : !strcmp(mode, "nearest")                           ? "nearest"
                                                                              : NULL;
    if (!method)
        return byoc_onnx__fail(st, BYOC_ERR_ATTR, "mode \"%s\" is not one of bilinear, nearest, bicubic", mode);
    static const int to_channels_first[4] = {0, 3, 1, 2};
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_string(st->m, &a, "method", method);
    byoc_attrs_set_string(st->m, &a, "padding_mode", padding);
    byoc_attrs_set_bool(st->m, &a, "align_corners", byoc_onnx__attr_int(c, "align_corners", 0) != 0);
    c->out[0] = byoc_onnx__call2(st, "image.grid_sample", x, byoc_onnx__transpose(st, grid, 4, to_channels_first), &a);
    return BYOC_ONNX__OK(c);
}

/* ---- RoiAlign (opsets 10, 16) -> vision.roi_align on rois [R, 5] = (batch index, box) ---- */
BYOC__PRIVATE byoc_result byoc_onnx__roi_align(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "X"), *rois = byoc_onnx__input(c, 1, "rois"),
              *batch = byoc_onnx__input(c, 2, "batch_indices");
    const byoc_type *tr = x ? byoc_onnx__tensor_of(st, rois, "RoiAlign's rois") : NULL,
                    *tb = tr ? byoc_onnx__tensor_of(st, batch, "RoiAlign's batch_indices") : NULL;
    if (!tr || !tb) return BYOC_ONNX__OK(c);
    if (tr->rank != 2 || tr->dims[1] != 4 || tb->rank != 1 || tb->dims[0] != tr->dims[0])
        return byoc_onnx__fail(st, BYOC_ERR_TYPE, "rois must be [R, 4] and batch_indices [R]");
    char mbuf[16], cbuf[24];
    const char *mode = byoc_onnx__attr_string(c, "mode", "avg", mbuf, sizeof mbuf);
    const char *ctm = c->opset >= 16
                          ? byoc_onnx__attr_string(c, "coordinate_transformation_mode", "half_pixel", cbuf, sizeof cbuf)
                          : "output_half_pixel";
    if (strcmp(ctm, "half_pixel") && strcmp(ctm, "output_half_pixel"))
        return byoc_onnx__fail(st, BYOC_ERR_ATTR,
                               "coordinate_transformation_mode \"%s\" is not one of half_pixel, output_half_pixel",
                               ctm);
    int64_t column[2] = {tb->dims[0], 1},
            pooled[2] = {byoc_onnx__attr_int(c, "output_height", 1), byoc_onnx__attr_int(c, "output_width", 1)};
    byoc_node *fields[2] = {byoc_onnx__reshape(st, byoc_onnx__cast(st, batch, tr->dtype), 2, column), rois};
    if (!fields[0]) return BYOC_ONNX__OK(c);
    byoc_node *tuple = byoc_tuple(st->m, fields, 2);
    if (!tuple || byoc_infer_node_type(st->m, tuple, st->diag) != BYOC_OK) return BYOC_ONNX__OK(c);
    byoc_attrs cat;
    memset(&cat, 0, sizeof cat);
    byoc_attrs_set_int(st->m, &cat, "axis", 1);
    byoc_node *boxes = byoc_onnx__call1(st, "concatenate", tuple, &cat);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(st->m, &a, "pooled_size", pooled, 2);
    byoc_attrs_set_float(st->m, &a, "spatial_scale", byoc_onnx__attr_float(c, "spatial_scale", 1.0));
    byoc_attrs_set_int(st->m, &a, "sample_ratio", byoc_onnx__attr_int(c, "sampling_ratio", 0));
    byoc_attrs_set_string(st->m, &a, "mode", mode);
    byoc_attrs_set_bool(st->m, &a, "aligned", !strcmp(ctm, "half_pixel"));
    c->out[0] = byoc_onnx__call2(st, "vision.roi_align", x, boxes, &a);
    return BYOC_ONNX__OK(c);
}

/* ---- MaxUnpool (opsets 9, 11) -> nn.max_unpool ---- */
BYOC__PRIVATE byoc_result byoc_onnx__max_unpool(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "X"), *ix = byoc_onnx__input(c, 1, "I");
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "MaxUnpool's X");
    if (!t || !ix) return BYOC_ONNX__OK(c);
    int s = t->rank - 2;
    if (s < 1) return byoc_onnx__fail(st, BYOC_ERR_TYPE, "X must be [N, C, spatial...], got rank %d", t->rank);
    int64_t kernel[BYOC_MAX_RANK], strides[BYOC_MAX_RANK], pads[2 * BYOC_MAX_RANK], shape[BYOC_MAX_RANK];
    int nk = byoc_onnx__attr_ints(c, "kernel_shape", kernel, BYOC_MAX_RANK);
    int ns = byoc_onnx__attr_ints(c, "strides", strides, BYOC_MAX_RANK);
    int np = byoc_onnx__attr_ints(c, "pads", pads, 2 * BYOC_MAX_RANK);
    if (nk == -2 || ns == -2 || np == -2) return BYOC_ONNX__OK(c);
    if (nk != s) return byoc_onnx__fail(st, BYOC_ERR_ATTR, "kernel_shape needs %d values", s);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(st->m, &a, "pool_size", kernel, s);
    if (ns >= 0) byoc_attrs_set_ints(st->m, &a, "strides", strides, ns);
    if (np >= 0) byoc_attrs_set_ints(st->m, &a, "padding", pads, np);
    if (byoc_onnx__computed(c, 2)) { /* the result shape read at run time */
        byoc_node *args[3] = {x, ix, c->in[2]};
        c->out[0] = byoc_onnx__call(st, "dyn.nn.max_unpool", args, 3, &a);
        return BYOC_ONNX__OK(c);
    }
    if (c->nin > 2 && c->in[2]) {
        int n = byoc_onnx__const_ints(st, c->in[2], shape, BYOC_MAX_RANK, "MaxUnpool's output_shape");
        if (n < 0) return BYOC_ONNX__OK(c);
        byoc_attrs_set_ints(st->m, &a, "output_shape", shape, n);
    }
    c->out[0] = byoc_onnx__call2(st, "nn.max_unpool", x, ix, &a);
    return BYOC_ONNX__OK(c);
}

// [SECTION] impl: op converters: N-d windows
/* (converters: windows) */
/* -- Conv and ConvTranspose of rank-5 inputs (3-D windows): nn.conv3d, nn.conv3d_transpose -- */
typedef struct byoc_onnx__window3d {
    int64_t kernel[3], strides[3], dilations[3], pads[6]; /* pads: front, top, left, back, bottom, right */
} byoc_onnx__window3d;

/* an ints attribute of exactly 3 values into out (left alone when absent); 0 on error */
BYOC__PRIVATE int byoc_onnx__ints3(byoc_onnx__ctx *c, const char *name, int64_t out[3], int *given) {
    int64_t v[8];
    int n = byoc_onnx__attr_ints(c, name, v, 8);
    if (given) *given = n >= 0;
    if (n == -2) return 0;
    if (n < 0) return 1;
    if (n != 3) {
        byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "%s has %d values, expected 3", name, n);
        return 0;
    }
    memcpy(out, v, sizeof(int64_t) * 3);
    return 1;
}

/* kernel_shape (or the weight's), strides, dilations and pads of a 3-D window; auto_pad SAME_* gives Conv's
   padding here (a transposed convolution works its own out from the output size) */
BYOC__PRIVATE int byoc_onnx__window3d_attrs(byoc_onnx__ctx *c, const byoc_type *x, const int64_t *weight_kernel,
                                            int transposed, byoc_onnx__window3d *w) {
    byoc_onnx__state *st = c->st;
    int given;
    for (int i = 0; i < 3; ++i) {
        w->kernel[i] = weight_kernel[i];
        w->strides[i] = w->dilations[i] = 1;
    }
    memset(w->pads, 0, sizeof w->pads);
    if (!byoc_onnx__ints3(c, "kernel_shape", w->kernel, &given) || !byoc_onnx__ints3(c, "strides", w->strides, NULL) ||
        !byoc_onnx__ints3(c, "dilations", w->dilations, NULL))
        return 0;
    for (int i = 0; i < 3; ++i) {
        if (w->kernel[i] != weight_kernel[i]) {
            byoc_onnx__fail(st, BYOC_ERR_ATTR, "kernel_shape (%lld, %lld, %lld) disagrees with W's (%lld, %lld, %lld)",
                            (long long)w->kernel[0], (long long)w->kernel[1], (long long)w->kernel[2],
                            (long long)weight_kernel[0], (long long)weight_kernel[1], (long long)weight_kernel[2]);
            return 0;
        }
        if (w->strides[i] < 1 || w->dilations[i] < 1 || w->strides[i] > BYOC_MAX_DIM ||
            w->dilations[i] > BYOC_MAX_DIM) {
            byoc_onnx__fail(st, BYOC_ERR_ATTR, "strides and dilations must be positive");
            return 0;
        }
    }
    char buf[32];
    const char *auto_pad = byoc_onnx__attr_string(c, "auto_pad", "NOTSET", buf, sizeof buf);
    if (!strcmp(auto_pad, "NOTSET")) {
        int64_t v[8];
        int n = byoc_onnx__attr_ints(c, "pads", v, 8);
        if (n == -2) return 0;
        if (n >= 0 && n != 6) {
            byoc_onnx__fail(st, BYOC_ERR_ATTR, "pads has %d values, expected 6", n);
            return 0;
        }
        if (n == 6) memcpy(w->pads, v, sizeof w->pads); /* ONNX: all begins, then all ends, as the IR op */
        for (int i = 0; i < 6; ++i)
            if (w->pads[i] < 0 || w->pads[i] > BYOC_MAX_DIM) {
                byoc_onnx__fail(st, BYOC_ERR_ATTR, "pads must be non-negative");
                return 0;
            }
    } else if (!strcmp(auto_pad, "SAME_UPPER") || !strcmp(auto_pad, "SAME_LOWER")) {
        for (int i = 0; i < 3 && !transposed; ++i) { /* output = ceil(in / stride); the odd pad at the end (UPPER) */
            int64_t in = x->dims[2 + i], out = (in + w->strides[i] - 1) / w->strides[i];
            int64_t total = (out - 1) * w->strides[i] + (w->kernel[i] - 1) * w->dilations[i] + 1 - in;
            if (total < 0) total = 0;
            w->pads[i] = auto_pad[5] == 'U' ? total / 2 : total - total / 2;
            w->pads[i + 3] = total - w->pads[i];
        }
    } else if (strcmp(auto_pad, "VALID")) {
        byoc_onnx__fail(st, BYOC_ERR_ATTR, "auto_pad '%s' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID",
                        auto_pad);
        return 0;
    }
    return 1;
}

BYOC__PRIVATE void byoc_onnx__set_window3d(byoc_onnx__state *st, byoc_attrs *a, const byoc_onnx__window3d *w,
                                           int64_t groups) {
    byoc_attrs_set_ints(st->m, a, "kernel_size", w->kernel, 3);
    byoc_attrs_set_ints(st->m, a, "strides", w->strides, 3);
    byoc_attrs_set_ints(st->m, a, "dilation", w->dilations, 3);
    byoc_attrs_set_ints(st->m, a, "padding", w->pads, 6);
    byoc_attrs_set_int(st->m, a, "groups", groups);
}

/* Conv on NCDHW: nn.conv3d, then the bias */
BYOC__PRIVATE byoc_result byoc_onnx__conv3d(byoc_onnx__ctx *c, byoc_node *x, byoc_node *w, const byoc_type *tx,
                                            const byoc_type *tw) {
    byoc_onnx__state *st = c->st;
    byoc_onnx__window3d win;
    if (!byoc_onnx__window3d_attrs(c, tx, tw->dims + 2, 0, &win)) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_onnx__set_window3d(st, &a, &win, byoc_onnx__attr_int(c, "group", 1));
    byoc_attrs_set_int(st->m, &a, "channels", tw->dims[0]);
    byoc_node *y = byoc_onnx__call2(st, "nn.conv3d", x, w, &a);
    if (y && c->nin > 2 && c->in[2]) y = byoc_onnx__call2(st, "nn.bias_add", y, c->in[2], NULL);
    c->out[0] = y;
    return BYOC_ONNX__OK(c);
}

/* ConvTranspose on NCDHW: output_padding, and output_shape (or auto_pad SAME: input * stride) turned into
   pads as the 2-D converter does (the odd one at the end, at the start for SAME_LOWER) */
BYOC__PRIVATE byoc_result byoc_onnx__conv3d_transpose(byoc_onnx__ctx *c, byoc_node *x, byoc_node *w,
                                                      const byoc_type *tx, const byoc_type *tw) {
    byoc_onnx__state *st = c->st;
    byoc_onnx__window3d win;
    if (!byoc_onnx__window3d_attrs(c, tx, tw->dims + 2, 1, &win)) return BYOC_ONNX__OK(c);
    char buf[32];
    const char *auto_pad = byoc_onnx__attr_string(c, "auto_pad", "NOTSET", buf, sizeof buf);
    int same = !strcmp(auto_pad, "SAME_UPPER") || !strcmp(auto_pad, "SAME_LOWER"),
        lower = !strcmp(auto_pad, "SAME_LOWER");
    int64_t outpad[3] = {0, 0, 0}, out_shape[3] = {0, 0, 0}, v[8];
    int has_out_shape = 0;
    if (!byoc_onnx__ints3(c, "output_padding", outpad, NULL)) return BYOC_ONNX__OK(c);
    int n = byoc_onnx__attr_ints(c, "output_shape", v, 8);
    if (n == -2) return BYOC_ONNX__OK(c);
    if (n == 3 || n == 5) { /* spatial dims, or the whole NCDHW shape */
        memcpy(out_shape, v + n - 3, sizeof out_shape);
        has_out_shape = 1;
    } else if (n >= 0) {
        return byoc_onnx__fail(st, BYOC_ERR_ATTR, "output_shape has %d values, expected 3", n);
    }
    for (int i = 0; i < 3; ++i)
        if (outpad[i] < 0 || outpad[i] > BYOC_MAX_DIM || out_shape[i] < 0 || out_shape[i] > BYOC_MAX_DIM)
            return byoc_onnx__fail(st, BYOC_ERR_ATTR, "output_padding and output_shape must be non-negative");
    if (same && !has_out_shape) {
        for (int i = 0; i < 3; ++i) out_shape[i] = tx->dims[2 + i] * win.strides[i];
        has_out_shape = 1;
    }
    for (int i = 0; has_out_shape && i < 3; ++i) {
        int64_t full = win.strides[i] * (tx->dims[2 + i] - 1) + outpad[i] + (win.kernel[i] - 1) * win.dilations[i] + 1;
        int64_t total = full - out_shape[i];
        if (total < 0) {
            outpad[i] -= total;
            total = 0;
        } /* a larger output: extra planes at the end */
        win.pads[i] = lower ? total - total / 2 : total / 2;
        win.pads[i + 3] = total - win.pads[i];
    }
    int64_t groups = byoc_onnx__attr_int(c, "group", 1);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_onnx__set_window3d(st, &a, &win, groups);
    byoc_attrs_set_int(st->m, &a, "channels", tw->dims[1] * groups);
    byoc_attrs_set_ints(st->m, &a, "output_padding", outpad, 3);
    byoc_node *y = byoc_onnx__call2(st, "nn.conv3d_transpose", x, w, &a);
    if (y && c->nin > 2 && c->in[2]) y = byoc_onnx__call2(st, "nn.bias_add", y, c->in[2], NULL);
    c->out[0] = y;
    return BYOC_ONNX__OK(c);
}

/* the hook Conv and ConvTranspose call for rank-5 inputs */
BYOC__PRIVATE byoc_result byoc_onnx__conv_nd(byoc_onnx__ctx *c, int transposed) {
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "X"), *w = byoc_onnx__input(c, 1, "W");
    const byoc_type *tx = byoc_onnx__tensor_of(st, x, "X"), *tw = tx ? byoc_onnx__tensor_of(st, w, "W") : NULL;
    if (!tx || !tw) return BYOC_ONNX__OK(c);
    if (tw->rank != 5) return byoc_onnx__fail(st, BYOC_ERR_TYPE, "W has rank %d, X has rank 5", tw->rank);
    return transposed ? byoc_onnx__conv3d_transpose(c, x, w, tx, tw) : byoc_onnx__conv3d(c, x, w, tx, tw);
}

/* -- Col2Im (opset 18): the sum of image patches back into the image -- */
/* Col2Im's result is a transposed convolution of the columns, seen as [N, C * K, blocks...], grouped by
   channel (groups = C) with a constant one-hot weight: column row c * K + j puts its value at tap j of
   channel c. The output padding makes up the rows past the last whole block. Images of 1 (as 2-D with a
   unit height), 2 or 3 spatial dims. */
BYOC__PRIVATE byoc_result byoc_onnx__col2im(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "input");
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "Col2Im's input");
    /* image_shape and block_shape must be constants: they fix the transposed convolution's kernel, strides
       and padding (the geometry of the conversion, not only the result's extents), so a computed one is
       refused naming the node. */
    int64_t image[3], block[3];
    int s = t ? byoc_onnx__const_ints(st, byoc_onnx__input(c, 1, "image_shape"), image, 3, "Col2Im's image_shape") : -1;
    int nb =
        s > 0 ? byoc_onnx__const_ints(st, byoc_onnx__input(c, 2, "block_shape"), block, 3, "Col2Im's block_shape") : -1;
    if (st->diag->code) return st->diag->code;
    if (s < 1 || nb != s)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT,
                               "image_shape and block_shape must "
                               "have the same 1 to 3 values (got %d and %d)",
                               s, nb);
    if (t->rank != 3)
        return byoc_onnx__fail(st, BYOC_ERR_TYPE, "Col2Im's input must be [N, C * K, L], got rank %d", t->rank);
    if (t->dtype != BYOC_FLOAT32 && t->dtype != BYOC_FLOAT16 && t->dtype != BYOC_BFLOAT16)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "Col2Im of %s is not supported (float32, float16, bfloat16)",
                               byoc_dtype_name(t->dtype));
    int64_t strides[3] = {1, 1, 1}, dil[3] = {1, 1, 1}, pads[6] = {0}, v[8], K = 1, L = 1, blocks[3], outpad[3];
    static const char *const names[2] = {"strides", "dilations"};
    int64_t *dst[2] = {strides, dil};
    for (int q = 0; q < 2; ++q) {
        int n = byoc_onnx__attr_ints(c, names[q], v, 8);
        if (n == -2) return BYOC_ONNX__OK(c);
        if (n >= 0 && n != s)
            return byoc_onnx__fail(st, BYOC_ERR_ATTR, "%s has %d values, expected %d", names[q], n, s);
        if (n == s) memcpy(dst[q], v, sizeof(int64_t) * (size_t)s);
    }
    int np = byoc_onnx__attr_ints(c, "pads", v, 8);
    if (np == -2) return BYOC_ONNX__OK(c);
    if (np >= 0 && np != 2 * s) return byoc_onnx__fail(st, BYOC_ERR_ATTR, "pads has %d values, expected %d", np, 2 * s);
    for (int i = 0; np > 0 && i < s; ++i) {
        pads[i] = v[i];
        pads[3 + i] = v[s + i];
    }
    for (int i = 0; i < s; ++i) {
        if (image[i] < 1 || block[i] < 1 || strides[i] < 1 || dil[i] < 1 || pads[i] < 0 || pads[3 + i] < 0 ||
            image[i] > BYOC_MAX_DIM || block[i] > 4096 || strides[i] > BYOC_MAX_DIM || dil[i] > BYOC_MAX_DIM ||
            pads[i] > BYOC_MAX_DIM || pads[3 + i] > BYOC_MAX_DIM)
            return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT,
                                   "Col2Im: image, block, strides and dilations must "
                                   "be positive, pads non-negative (axis %d)",
                                   i);
        int64_t span = dil[i] * (block[i] - 1) + 1, room = image[i] + pads[i] + pads[3 + i] - span;
        if (room < 0)
            return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT,
                                   "Col2Im: a block of %lld does not fit the padded "
                                   "image's %lld on axis %d",
                                   (long long)span, (long long)(span + room), i);
        blocks[i] = room / strides[i] + 1;
        outpad[i] = room % strides[i];
        K *= block[i];
        L *= blocks[i];
        if (K > 65536) return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "Col2Im blocks of %lld taps", (long long)K);
    }
    if (t->dims[1] % K || t->dims[2] != L)
        return byoc_onnx__fail(st, BYOC_ERR_TYPE,
                               "Col2Im's input is (%lld, %lld, %lld); blocks of %lld taps in %lld "
                               "places need (N, C * %lld, %lld)",
                               (long long)t->dims[0], (long long)t->dims[1], (long long)t->dims[2], (long long)K,
                               (long long)L, (long long)K, (long long)L);
    int64_t C = t->dims[1] / K, r = s == 3 ? 5 : 4, lead = 4 - s; /* 1-D runs as 2-D: one unit axis first */
    int64_t cols[5] = {t->dims[0], C * K, 1, 1, 1}, wdims[5] = {C * K, 1, 1, 1, 1};
    int64_t ks[3] = {1, 1, 1}, st3[3] = {1, 1, 1}, dl3[3] = {1, 1, 1}, op3[3] = {0, 0, 0}, pd6[6] = {0};
    for (int i = 0; i < s; ++i) {
        int a = s == 3 ? i : (int)lead + i - 2; /* the axis among the op's 2 or 3 spatial ones */
        cols[2 + a] = blocks[i];
        wdims[2 + a] = ks[a] = block[i];
        st3[a] = strides[i];
        dl3[a] = dil[i];
        op3[a] = outpad[i];
        pd6[a] = pads[i];
        pd6[(s == 3 ? 3 : 2) + a] = pads[3 + i];
    }
    if ((uint64_t)(C * K) * (uint64_t)K > st->max_bytes / byoc_dtype_size(t->dtype))
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED,
                               "Col2Im's one-hot weight (%lld x %lld) is above the import "
                               "limit of %llu bytes",
                               (long long)(C * K), (long long)K, (unsigned long long)st->max_bytes);
    byoc_node *w = byoc_constant(st->m, byoc_tensor_type(st->m, t->dtype, (int)r, wdims), NULL, 0);
    if (!w) return byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
    memset(w->data, 0, byoc_constant_nbytes(w));
    for (int64_t row = 0; row < C * K; ++row) byoc__store(t->dtype, w->data, row * K + row % K, 1.0);
    w->checked_type = w->annotation;
    int sp = s == 3 ? 3 : 2;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(st->m, &a, "strides", st3, sp);
    byoc_attrs_set_ints(st->m, &a, "dilation", dl3, sp);
    byoc_attrs_set_ints(st->m, &a, "padding", pd6, 2 * sp);
    byoc_attrs_set_ints(st->m, &a, "output_padding", op3, sp);
    byoc_attrs_set_int(st->m, &a, "groups", C);
    byoc_attrs_set_int(st->m, &a, "channels", C);
    byoc_attrs_set_ints(st->m, &a, "kernel_size", ks, sp);
    byoc_node *y = byoc_onnx__call2(st, s == 3 ? "nn.conv3d_transpose" : "nn.conv2d_transpose",
                                    byoc_onnx__reshape(st, x, (int)r, cols), w, &a);
    int64_t out[5] = {t->dims[0], C, image[0], s > 1 ? image[1] : 0, s > 2 ? image[2] : 0};
    c->out[0] = byoc_onnx__reshape(st, y, 2 + s, out);
    return BYOC_ONNX__OK(c);
}

/* -- CenterCropPad (opset 18): each listed axis cropped to its centre or zero-padded around it -- */
BYOC__PRIVATE byoc_result byoc_onnx__center_crop_pad(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "input_data");
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "CenterCropPad's input");
    if (t && byoc_onnx__computed(c, 1)) return byoc_onnx__center_crop_pad_computed(c);
    int64_t shape[BYOC_MAX_RANK], axes[BYOC_MAX_RANK];
    int n =
        t ? byoc_onnx__const_ints(st, byoc_onnx__input(c, 1, "shape"), shape, BYOC_MAX_RANK, "CenterCropPad's shape")
          : -1;
    if (n < 0) return BYOC_ONNX__OK(c);
    int na = byoc_onnx__attr_ints(c, "axes", axes, BYOC_MAX_RANK);
    if (na == -2) return BYOC_ONNX__OK(c);
    if (na < 0)
        for (na = 0; na < t->rank; ++na) axes[na] = na;
    if (n != na) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "shape has %d values for %d axes", n, na);
    int64_t begin[BYOC_MAX_RANK], end[BYOC_MAX_RANK], width[2 * BYOC_MAX_RANK];
    int seen[BYOC_MAX_RANK] = {0}, crops = 0, pads = 0;
    for (int d = 0; d < t->rank; ++d) {
        begin[d] = 0;
        end[d] = t->dims[d];
        width[2 * d] = width[2 * d + 1] = 0;
    }
    for (int i = 0; i < na; ++i) {
        int d = byoc_onnx__norm_axis(c, axes[i], t->rank, "axis");
        if (d < 0) return BYOC_ONNX__OK(c);
        if (seen[d]++) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "axis %d repeated", d);
        if (shape[i] < 0 || shape[i] > BYOC_MAX_DIM)
            return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "shape[%d] = %lld", i, (long long)shape[i]);
        int64_t diff = t->dims[d] - shape[i];
        if (diff > 0) {
            begin[d] = diff / 2;
            end[d] = begin[d] + shape[i];
            crops = 1;
        }
        if (diff < 0) {
            width[2 * d] = -diff / 2;
            width[2 * d + 1] = -diff - -diff / 2;
            pads = 1;
        }
    }
    if (crops) {
        byoc_attrs a;
        memset(&a, 0, sizeof a);
        byoc_attrs_set_ints(st->m, &a, "begin", begin, t->rank);
        byoc_attrs_set_ints(st->m, &a, "end", end, t->rank);
        x = byoc_onnx__call1(st, "strided_slice", x, &a);
    }
    if (pads && x) {
        byoc_attrs a;
        memset(&a, 0, sizeof a);
        byoc_attr_value pw;
        memset(&pw, 0, sizeof pw);
        pw.kind = BYOC_ATTR_INT_LIST;
        pw.ints = width;
        pw.count = 2 * t->rank;
        pw.inner = 2;
        byoc_attrs_set(st->m, &a, "pad_width", &pw);
        x = byoc_onnx__call2(st, "nn.pad", x, byoc_onnx__scalar(st, t->dtype, 0), &a);
    }
    c->out[0] = x;
    return BYOC_ONNX__OK(c);
}

/* -- TfIdfVectorizer: tfidf_vectorizer over int32 / int64 tokens -- */
BYOC__PRIVATE byoc_result byoc_onnx__tfidf(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "X");
    if (!x) return BYOC_ONNX__OK(c);
    const byoc_onnx__attr *strings = byoc_onnx__attr_get(c, "pool_strings");
    if (strings && strings->nstrings)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED,
                               "TfIdfVectorizer over strings (pool_strings) is not supported");
    const byoc_onnx__attr *lists[3] = {byoc_onnx__attr_get(c, "ngram_counts"), byoc_onnx__attr_get(c, "ngram_indexes"),
                                       byoc_onnx__attr_get(c, "pool_int64s")};
    static const char *const names[3] = {"ngram_counts", "ngram_indexes", "pool_int64s"};
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    for (int i = 0; i < 3; ++i) {
        if (!lists[i] || lists[i]->type != BYOC_ONNX__ATTR_INTS)
            return byoc_onnx__fail(st, BYOC_ERR_ATTR, "TfIdfVectorizer needs the ints attribute %s", names[i]);
        int64_t count = (int64_t)stbds_arrlen(lists[i]->ints);
        if (count > INT_MAX / 16)
            return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%s has %lld values", names[i], (long long)count);
        int64_t *vals = (int64_t *)BYOC_MALLOC(sizeof(int64_t) * (size_t)(count ? count : 1));
        if (!vals) return byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
        for (int64_t k = 0; k < count; ++k) vals[k] = (int64_t)lists[i]->ints[k];
        byoc_attrs_set_ints(st->m, &a, names[i], vals, (int)count);
        BYOC_FREE(vals);
    }
    const byoc_onnx__attr *wa = byoc_onnx__attr_get(c, "weights");
    if (wa && wa->type != BYOC_ONNX__ATTR_FLOATS)
        return byoc_onnx__fail(st, BYOC_ERR_ATTR, "TfIdfVectorizer's weights must be a floats attribute");
    if (wa) {
        int64_t count = (int64_t)stbds_arrlen(wa->floats);
        double *w = (double *)BYOC_MALLOC(sizeof(double) * (size_t)(count ? count : 1));
        if (!w) return byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
        for (int64_t k = 0; k < count; ++k) {
            uint32_t bits = (uint32_t)wa->floats[k];
            float f;
            memcpy(&f, &bits, 4);
            w[k] = f;
        }
        byoc_attrs_set_floats(st->m, &a, "weights", w, (int)count);
        BYOC_FREE(w);
    }
    char buf[16];
    byoc_attrs_set_string(st->m, &a, "mode", byoc_onnx__attr_string(c, "mode", "", buf, sizeof buf));
    byoc_attrs_set_int(st->m, &a, "min_gram_length", byoc_onnx__attr_int(c, "min_gram_length", 0));
    byoc_attrs_set_int(st->m, &a, "max_gram_length", byoc_onnx__attr_int(c, "max_gram_length", 0));
    byoc_attrs_set_int(st->m, &a, "max_skip_count", byoc_onnx__attr_int(c, "max_skip_count", 0));
    c->out[0] = byoc_onnx__call1(st, "tfidf_vectorizer", x, &a);
    return BYOC_ONNX__OK(c);
}

// [SECTION] impl: op converters: recurrent and spectral
/* (converters: recurrent) */
/* an attribute's strings (AttributeProto's repeated `strings`), joined by commas into buf: their count,
   0 when absent, -1 when they do not fit or do not decode */
BYOC__PRIVATE int byoc_onnx__attr_strings_joined(const byoc_onnx__ctx *c, const char *name, char *buf, size_t cap) {
    const byoc_onnx__attr *a = byoc_onnx__attr_get(c, name);
    buf[0] = 0;
    if (!a || a->type != BYOC_ONNX__ATTR_STRINGS) return 0;
    byoc_onnx__pb b = byoc_onnx__pb_of(a->raw);
    size_t at = 0;
    int n = 0;
    while (b.p < b.end) {
        uint32_t f;
        int w;
        byoc_onnx__bytes s;
        if (!byoc_onnx__pb_key(&b, &f, &w)) return -1;
        if (f != 9) {
            if (!byoc_onnx__pb_skip(&b, w)) return -1;
            continue;
        }
        if (w != BYOC_ONNX__WIRE_LEN || !byoc_onnx__pb_len(&b, &s) || at + s.n + 2 > cap) return -1;
        if (n++) buf[at++] = ',';
        if (s.n) memcpy(buf + at, s.p, s.n);
        at += s.n;
        buf[at] = 0;
    }
    return n;
}

/* a constant of type t filled with v (the value of an omitted optional input) */
BYOC__PRIVATE byoc_node *byoc_onnx__filled(byoc_onnx__state *st, byoc_dtype dt, int rank, const int64_t *dims,
                                          double v) {
    const byoc_type *t = byoc_tensor_type(st->m, dt, rank, dims);
    byoc_node *k = t ? byoc_constant(st->m, t, NULL, 0) : NULL;
    if (!k) { byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory"); return NULL; }
    int64_t n = byoc_type_num_elements(t);
    for (int64_t i = 0; i < n; ++i) byoc__store(dt, k->data, i, v);
    k->checked_type = t;
    return k;
}

/* RNN, GRU, LSTM: one nn.rnn / nn.gru / nn.lstm call (its attributes are ONNX's); an omitted optional
   input that a given one follows becomes its default (zero bias and states, full lengths); each output
   asked for is a field of the call's tuple */
BYOC__PRIVATE byoc_result byoc_onnx__recurrent(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    int lstm = !strcmp(op, "nn.lstm"), gru = !strcmp(op, "nn.gru");
    byoc_node *args[8] = {byoc_onnx__input(c, 0, "X"), byoc_onnx__input(c, 1, "W"), byoc_onnx__input(c, 2, "R")};
    const byoc_type *tx = byoc_onnx__tensor_of(st, args[0], "X"),
                    *tr = tx ? byoc_onnx__tensor_of(st, args[2], "R") : NULL;
    if (!tx || !tr) return BYOC_ONNX__OK(c);
    int layout = c->opset >= 14 ? (int)byoc_onnx__attr_int(c, "layout", 0) : 0;
    if (tx->rank != 3 || tr->rank != 3)
        return byoc_onnx__fail(st, BYOC_ERR_TYPE, "X and R must have rank 3, got %d and %d", tx->rank, tr->rank);
    char dir_buf[32], acts[256];
    const char *dir = byoc_onnx__attr_string(c, "direction", "forward", dir_buf, sizeof dir_buf);
    int64_t T = tx->dims[layout ? 1 : 0], B = tx->dims[layout ? 0 : 1], D = !strcmp(dir, "bidirectional") ? 2 : 1,
            H = tr->dims[2], G = lstm ? 4 : gru ? 3 : 1;
    int last = 2, max_in = lstm ? 8 : 6;
    for (int i = 3; i < c->nin && i < max_in; ++i)
        if (c->in[i]) last = i;
    for (int i = 3; i <= last; ++i) {
        int64_t bias[2] = {D, 2 * G * H}, lens[1] = {B}, state[3] = {D, B, H}, state1[3] = {B, D, H};
        args[i] = c->in[i]               ? c->in[i]
                  : i == 3 ? byoc_onnx__filled(st, tx->dtype, 2, bias, 0)
                  : i == 4 ? byoc_onnx__filled(st, BYOC_INT32, 1, lens, (double)T)
                           : byoc_onnx__filled(st, tx->dtype, 3, layout ? state1 : state, 0);
        if (!args[i]) return BYOC_ONNX__OK(c);
    }
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    if (byoc_onnx__attr_get(c, "hidden_size"))
        byoc_attrs_set_int(st->m, &a, "hidden_size", byoc_onnx__attr_int(c, "hidden_size", H));
    byoc_attrs_set_string(st->m, &a, "direction", dir);
    int nacts = byoc_onnx__attr_strings_joined(c, "activations", acts, sizeof acts);
    if (nacts < 0) return byoc_onnx__fail(st, BYOC_ERR_CORRUPT, "the activations attribute does not decode");
    if (nacts) byoc_attrs_set_string(st->m, &a, "activations", acts);
    double vals[16];
    int na = byoc_onnx__attr_floats(c, "activation_alpha", vals, 16);
    if (na > 0) byoc_attrs_set_floats(st->m, &a, "activation_alpha", vals, na);
    int nb = na < -1 ? na : byoc_onnx__attr_floats(c, "activation_beta", vals, 16);
    if (nb > 0) byoc_attrs_set_floats(st->m, &a, "activation_beta", vals, nb);
    if (na < -1 || nb < -1) return BYOC_ONNX__OK(c);
    if (byoc_onnx__attr_get(c, "clip")) byoc_attrs_set_float(st->m, &a, "clip", byoc_onnx__attr_float(c, "clip", 0));
    byoc_attrs_set_int(st->m, &a, "layout", layout);
    if (lstm) byoc_attrs_set_bool(st->m, &a, "input_forget", (int)byoc_onnx__attr_int(c, "input_forget", 0) != 0);
    if (gru)
        byoc_attrs_set_bool(st->m, &a, "linear_before_reset",
                            (int)byoc_onnx__attr_int(c, "linear_before_reset", 0) != 0);
    byoc_node *call = byoc_onnx__call(st, op, args, last + 1, &a);
    for (int i = 0; i < c->nout && i < (lstm ? 3 : 2) && call; ++i) {
        if (!c->node->outputs[i].n) continue; /* an output not asked for */
        byoc_node *field = byoc_onnx__note(st, byoc_tuple_get_item(st->m, call, i));
        if (!field || byoc_infer_node_type(st->m, field, st->diag) != BYOC_OK) break;
        c->out[i] = field;
    }
    return BYOC_ONNX__OK(c);
}

/* a scalar (or one-value) constant input as an integer; 0 with an error when it is not one */
BYOC__PRIVATE int byoc_onnx__scalar_int_input(byoc_onnx__ctx *c, int i, const char *what, int64_t *out) {
    byoc_node *x = byoc_onnx__input(c, i, what);
    int n = x ? byoc_onnx__const_ints(c->st, x, out, 1, what) : -1;
    if (n == 1) return 1;
    if (n >= 0) byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "%s must hold one value, it has %d", what, n);
    return 0;
}
BYOC__PRIVATE int byoc_onnx__scalar_float_input(byoc_onnx__ctx *c, int i, const char *what, double *out) {
    byoc_node *x = byoc_onnx__input(c, i, what);
    int n = x ? byoc_onnx__const_floats(c->st, x, out, 1, what) : -1;
    if (n == 1) return 1;
    if (n >= 0) byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "%s must hold one value, it has %d", what, n);
    return 0;
}

/* output_datatype (TensorProto's enum) as a dtype name, or NULL with an error */
BYOC__PRIVATE const char *byoc_onnx__output_datatype(byoc_onnx__ctx *c) {
    int64_t code = byoc_onnx__attr_int(c, "output_datatype", 1);
    byoc_dtype dt = byoc_onnx__dtype((int)(code < 0 || code > 64 ? 0 : code));
    if (dt == BYOC_DTYPE_INVALID || dt == BYOC_BOOL) {
        byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "output_datatype %s is not supported",
                        byoc_onnx__dtype_name((int)(code < 0 || code > 64 ? 0 : code)));
        return NULL;
    }
    return byoc_dtype_name(dt);
}

/* HannWindow, HammingWindow, BlackmanWindow: a constant size here (a computed one: dyn.hann_window ...) */
BYOC__PRIVATE byoc_result byoc_onnx__window_op(byoc_onnx__ctx *c, const char *op) {
    int64_t size;
    if (byoc_onnx__computed(c, 0)) return byoc_onnx__window_computed(c, op);
    if (!byoc_onnx__scalar_int_input(c, 0, "the window's size", &size)) return BYOC_ONNX__OK(c);
    const char *dt = byoc_onnx__output_datatype(c);
    if (!dt) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(c->st->m, &a, "size", size);
    byoc_attrs_set_bool(c->st->m, &a, "periodic", byoc_onnx__attr_int(c, "periodic", 1) != 0);
    byoc_attrs_set_string(c->st->m, &a, "dtype", dt);
    byoc_node *none[1] = {NULL};
    c->out[0] = byoc_onnx__call(c->st, op, none, 0, &a);
    return BYOC_ONNX__OK(c);
}

/* MelWeightMatrix: constant inputs here (any computed one: dyn.mel_weight_matrix) */
BYOC__PRIVATE byoc_result byoc_onnx__mel_weight_matrix(byoc_onnx__ctx *c, const char *op) {
    int64_t bins, len, rate;
    double lo, hi;
    for (int i = 0; i < 5; ++i)
        if (byoc_onnx__computed(c, i)) return byoc_onnx__mel_weight_matrix_computed(c);
    if (!byoc_onnx__scalar_int_input(c, 0, "num_mel_bins", &bins) ||
        !byoc_onnx__scalar_int_input(c, 1, "dft_length", &len) ||
        !byoc_onnx__scalar_int_input(c, 2, "sample_rate", &rate) ||
        !byoc_onnx__scalar_float_input(c, 3, "lower_edge_hertz", &lo) ||
        !byoc_onnx__scalar_float_input(c, 4, "upper_edge_hertz", &hi))
        return BYOC_ONNX__OK(c);
    const char *dt = byoc_onnx__output_datatype(c);
    if (!dt) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(c->st->m, &a, "num_mel_bins", bins);
    byoc_attrs_set_int(c->st->m, &a, "dft_length", len);
    byoc_attrs_set_int(c->st->m, &a, "sample_rate", rate);
    byoc_attrs_set_float(c->st->m, &a, "lower_edge_hertz", lo);
    byoc_attrs_set_float(c->st->m, &a, "upper_edge_hertz", hi);
    byoc_attrs_set_string(c->st->m, &a, "dtype", dt);
    byoc_node *none[1] = {NULL};
    c->out[0] = byoc_onnx__call(c->st, op, none, 0, &a);
    return BYOC_ONNX__OK(c);
}

/* DFT (opset 17): dft_length, when given, must be known at import */
BYOC__PRIVATE byoc_result byoc_onnx__dft(byoc_onnx__ctx *c, const char *op) {
    byoc_node *x = byoc_onnx__input(c, 0, "input");
    if (!x) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    if (byoc_onnx__computed(c, 1)) return byoc_onnx__dft_computed(c);
    if (c->nin > 1 && c->in[1]) {
        int64_t len;
        if (!byoc_onnx__scalar_int_input(c, 1, "dft_length", &len)) return BYOC_ONNX__OK(c);
        byoc_attrs_set_int(c->st->m, &a, "dft_length", len);
    }
    byoc_attrs_set_int(c->st->m, &a, "axis", byoc_onnx__attr_int(c, "axis", 1));
    byoc_attrs_set_bool(c->st->m, &a, "inverse", byoc_onnx__attr_int(c, "inverse", 0) != 0);
    byoc_attrs_set_bool(c->st->m, &a, "onesided", byoc_onnx__attr_int(c, "onesided", 0) != 0);
    c->out[0] = byoc_onnx__call1(c->st, op, x, &a);
    return BYOC_ONNX__OK(c);
}

/* STFT (opset 17): frame_step and frame_length must be known at import, the window may come at run time */
BYOC__PRIVATE byoc_result byoc_onnx__stft(byoc_onnx__ctx *c, const char *op) {
    if (byoc_onnx__computed(c, 1) || byoc_onnx__computed(c, 3)) return byoc_onnx__stft_computed(c);
    byoc_node *args[2] = {byoc_onnx__input(c, 0, "signal"), c->nin > 2 ? c->in[2] : NULL};
    int64_t step, len;
    if (!args[0] || !byoc_onnx__scalar_int_input(c, 1, "frame_step", &step)) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(c->st->m, &a, "frame_step", step);
    if (c->nin > 3 && c->in[3]) {
        if (!byoc_onnx__scalar_int_input(c, 3, "frame_length", &len)) return BYOC_ONNX__OK(c);
        byoc_attrs_set_int(c->st->m, &a, "frame_length", len);
    }
    byoc_attrs_set_bool(c->st->m, &a, "onesided", byoc_onnx__attr_int(c, "onesided", 1) != 0);
    c->out[0] = byoc_onnx__call(c->st, op, args, args[1] ? 2 : 1, &a);
    return BYOC_ONNX__OK(c);
}

// [SECTION] impl: op converters: losses
/* (converters: losses) */
/* reduction and ignore_index of NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss as nn.nll_loss's
   attributes; ONNX without ignore_index ignores no target (None), not TVM's default -100 */
BYOC__PRIVATE int byoc_onnx__loss_attrs(byoc_onnx__ctx *c, byoc_attrs *a) {
    char buf[32];
    const char *reduction = byoc_onnx__attr_string(c, "reduction", "mean", buf, sizeof buf);
    if (strcmp(reduction, "none") && strcmp(reduction, "sum") && strcmp(reduction, "mean")) {
        byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "reduction \"%s\" is not one of none, sum, mean", reduction);
        return 0;
    }
    memset(a, 0, sizeof *a);
    byoc_attrs_set_string(c->st->m, a, "reduction", reduction);
    if (byoc_onnx__attr_get(c, "ignore_index"))
        byoc_attrs_set_int(c->st->m, a, "ignore_index", byoc_onnx__attr_int(c, "ignore_index", 0));
    else byoc_attrs_set_none(c->st->m, a, "ignore_index");
    return 1;
}

/* NegativeLogLikelihoodLoss (opsets 12, 13): nn.nll_loss(input, target[, weight]) */
BYOC__PRIVATE byoc_result byoc_onnx__nll_loss(byoc_onnx__ctx *c, const char *op) {
    byoc_node *args[3] = {byoc_onnx__input(c, 0, "input"), byoc_onnx__input(c, 1, "target"),
                          c->nin > 2 ? c->in[2] : NULL};
    byoc_attrs a;
    if (!args[0] || !args[1] || !byoc_onnx__loss_attrs(c, &a)) return BYOC_ONNX__OK(c);
    c->out[0] = byoc_onnx__call(c->st, op, args, args[2] ? 3 : 2, &a);
    return BYOC_ONNX__OK(c);
}

/* log_softmax over axis 1 in double: x - (m + log(sum(exp(x - m)))), m the maximum (nn.log_softmax's kernel
   computes in float32, which would round float64 scores) */
BYOC__PRIVATE byoc_node *byoc_onnx__log_softmax_f64(byoc_onnx__state *st, byoc_node *x) {
    byoc_attrs a;
    int64_t axis = 1;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_ints(st->m, &a, "axis", &axis, 1);
    byoc_attrs_set_bool(st->m, &a, "keepdims", 1);
    byoc_node *m = byoc_onnx__call1(st, "max", x, &a);
    byoc_node *e = byoc_onnx__call1(st, "exp", byoc_onnx__call2(st, "subtract", x, m, NULL), NULL);
    byoc_node *log_sum = byoc_onnx__call1(st, "log", byoc_onnx__call1(st, "sum", e, &a), NULL);
    byoc_node *lse = byoc_onnx__call2(st, "add", m, log_sum, NULL);
    return byoc_onnx__call2(st, "subtract", x, lse, NULL);
}

/* SoftmaxCrossEntropyLoss (opsets 12, 13): nn.log_softmax over the classes (axis 1), then nn.nll_loss; the
   optional second output, log_prob, is the log_softmax itself */
BYOC__PRIVATE byoc_result byoc_onnx__softmax_cross_entropy(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *scores = byoc_onnx__input(c, 0, "scores"), *labels = byoc_onnx__input(c, 1, "labels");
    const byoc_type *t = scores ? byoc_onnx__tensor_of(c->st, scores, "scores") : NULL;
    byoc_attrs a, axis;
    if (!t || !labels || !byoc_onnx__loss_attrs(c, &a)) return BYOC_ONNX__OK(c);
    if (t->rank < 2)
        return byoc_onnx__fail(c->st, BYOC_ERR_TYPE, "scores must be (N, C, d1, ..., dk), got rank %d", t->rank);
    memset(&axis, 0, sizeof axis);
    byoc_attrs_set_int(c->st->m, &axis, "axis", 1);
    byoc_node *log_prob = t->dtype == BYOC_FLOAT64 ? byoc_onnx__log_softmax_f64(c->st, scores)
                                                   : byoc_onnx__call1(c->st, "nn.log_softmax", scores, &axis);
    byoc_node *args[3] = {log_prob, labels, c->nin > 2 ? c->in[2] : NULL};
    if (log_prob) c->out[0] = byoc_onnx__call(c->st, "nn.nll_loss", args, args[2] ? 3 : 2, &a);
    if (c->nout > 1) c->out[1] = log_prob;
    return BYOC_ONNX__OK(c);
}

/* Einsum (opset 12): einsum over the tuple of every input, the equation as given */
BYOC__PRIVATE byoc_result byoc_onnx__einsum(byoc_onnx__ctx *c, const char *op) {
    char buf[512];
    const byoc_onnx__attr *eq = byoc_onnx__attr_get(c, "equation");
    if (eq && eq->type == BYOC_ONNX__ATTR_STRING && eq->s.n >= sizeof buf) /* never parse a truncated one */
        return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "Einsum's equation has %zu characters (at most %zu)",
                               eq->s.n, sizeof buf - 1);
    const char *equation = byoc_onnx__attr_string(c, "equation", NULL, buf, sizeof buf);
    if (!equation) return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "Einsum needs an equation");
    if (c->nin < 1) return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "Einsum needs an input");
    byoc_node *fields[64];
    if (c->nin > 64) return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "Einsum has %d inputs (at most 64)", c->nin);
    for (int i = 0; i < c->nin; ++i)
        if (!(fields[i] = byoc_onnx__input(c, i, "Inputs"))) return BYOC_ONNX__OK(c);
    byoc_node *tuple = byoc_onnx__note(c->st, byoc_tuple(c->st->m, fields, c->nin));
    if (!tuple || byoc_infer_node_type(c->st->m, tuple, c->st->diag) != BYOC_OK)
        return byoc_onnx__fail(c->st, BYOC_ERR_TYPE, "Einsum's inputs do not form a tuple of tensors");
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_string(c->st->m, &a, "equation", equation);
    c->out[0] = byoc_onnx__call1(c->st, op, tuple, &a);
    return BYOC_ONNX__OK(c);
}

// [SECTION] impl: op converters: run-time operands
/* (converters: dyn3) */
/* TopK's k, OneHot's depth, Resize's and Upsample's scales / sizes / roi and the Reduce* axes (opset 18)
   computed by the graph: the static converters call these when such an input is not a constant, and
   they build the dyn.* ops, whose extents are '?' until a run reads the operand. */
BYOC__PRIVATE int byoc_onnx__computed(const byoc_onnx__ctx *c, int i) {
    return i < c->nin && c->in[i] && c->in[i]->kind != BYOC_NODE_CONSTANT;
}
/* a one-value operand as an int64 scalar, or NULL with an error */
BYOC__PRIVATE byoc_node *byoc_onnx__int64_scalar_of(byoc_onnx__ctx *c, byoc_node *x, const char *what) {
    const byoc_type *t = byoc_onnx__type(x);
    if (!t) return NULL;
    if (t->kind != BYOC_TYPE_TENSOR || t->rank > 1 || byoc_type_num_elements(t) != 1) {
        byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "%s must hold one value (a scalar or a 1-element tensor)",
                        what);
        return NULL;
    }
    int64_t no_dims[1] = {0};
    return byoc_onnx__reshape(c->st, byoc_onnx__cast(c->st, x, BYOC_INT64), 0, no_dims);
}

/* TopK (opset 10+) with a computed k: dyn.topk */
BYOC__PRIVATE byoc_result byoc_onnx__topk_computed(byoc_onnx__ctx *c, int axis) {
    byoc_onnx__state *st = c->st;
    const byoc_type *tk = byoc_onnx__type(c->in[1]);
    if (tk && (tk->kind != BYOC_TYPE_TENSOR || byoc_dtype_is_float(tk->dtype)))
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "TopK's k must be an integer tensor");
    byoc_node *k = byoc_onnx__int64_scalar_of(c, c->in[1], "TopK's k");
    if (!k) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(st->m, &a, "axis", axis);
    byoc_attrs_set_string(st->m, &a, "ret_type", "both");
    byoc_attrs_set_bool(st->m, &a, "is_ascend", c->opset >= 11 && byoc_onnx__attr_int(c, "largest", 1) == 0);
    byoc_attrs_set_string(st->m, &a, "dtype", "int64");
    byoc_node *both = byoc_onnx__call2(st, "dyn.topk", byoc_onnx__input(c, 0, "X"), k, &a);
    for (int i = 0; i < 2 && i < c->nout && both; ++i) {
        byoc_node *field = byoc_tuple_get_item(st->m, both, i);
        if (!field || byoc_infer_node_type(st->m, field, st->diag) != BYOC_OK) break;
        c->out[i] = byoc_onnx__note(st, field);
    }
    return BYOC_ONNX__OK(c);
}

/* OneHot with a computed depth (any numeric type, truncated to int64 as ONNX Runtime does): dyn.one_hot;
   from opset 11 a negative index counts back from depth */
BYOC__PRIVATE byoc_result byoc_onnx__one_hot_computed(byoc_onnx__ctx *c) {
    byoc_onnx__state *st = c->st;
    byoc_node *idx = byoc_onnx__input(c, 0, "indices"), *values = byoc_onnx__input(c, 2, "values");
    const byoc_type *ti = byoc_onnx__tensor_of(st, idx, "OneHot's indices"),
                    *tv = ti ? byoc_onnx__tensor_of(st, values, "OneHot's values") : NULL;
    byoc_node *depth = tv ? byoc_onnx__int64_scalar_of(c, c->in[1], "OneHot's depth") : NULL;
    if (!depth) return BYOC_ONNX__OK(c);
    if (byoc_type_num_elements(tv) != 2)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT,
                               "OneHot's values must hold two elements [off_value, on_value], got %lld",
                               (long long)byoc_type_num_elements(tv));
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", -1), ti->rank + 1, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
    byoc_node *i64 = byoc_onnx__cast(st, idx, BYOC_INT64);
    if (c->opset >= 11) {
        byoc_node *wrap[3] = {byoc_onnx__call2(st, "less", i64, byoc_onnx__scalar(st, BYOC_INT64, 0), NULL),
                              byoc_onnx__call2(st, "add", i64, depth, NULL), i64};
        i64 = byoc_onnx__call(st, "where", wrap, 3, NULL);
    }
    byoc_node *args[4] = {i64, byoc_onnx__call2(st, "take", values, byoc_onnx__scalar(st, BYOC_INT64, 1), NULL),
                          byoc_onnx__call2(st, "take", values, byoc_onnx__scalar(st, BYOC_INT64, 0), NULL), depth};
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(st->m, &a, "axis", axis);
    byoc_attrs_set_string(st->m, &a, "dtype", byoc_dtype_name(tv->dtype));
    c->out[0] = byoc_onnx__call(st, "dyn.one_hot", args, 4, &a);
    return BYOC_ONNX__OK(c);
}

/* The computed axes of a Reduce* node (opset 18): 1 when they are 1-D of a length above 0 (the dyn.*
   form follows), 0 after making them an empty constant when their length is 0 (every axis, or none
   with noop_with_empty_axes, whatever the run: the static form follows), -1 with an error. */
BYOC__PRIVATE int byoc_onnx__reduce_axes_computed(byoc_onnx__ctx *c) {
    byoc_onnx__state *st = c->st;
    const byoc_type *ta = byoc_onnx__type(c->in[1]);
    if (!ta || ta->kind != BYOC_TYPE_TENSOR || ta->rank != 1 || ta->dims[0] < 0)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "the reduction's axes must be 1-D of a static length"),
               -1;
    if (ta->dims[0] > 0) return 1;
    byoc_node *empty = byoc_constant(st->m, ta, NULL, 0);
    if (!empty) return byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory"), -1;
    empty->checked_type = ta;
    c->in[1] = empty;
    return 0;
}
BYOC__PRIVATE byoc_node *byoc_onnx__dyn_reduce(byoc_onnx__ctx *c, const char *op, byoc_node *x, int keepdims) {
    char name[32];
    snprintf(name, sizeof name, "dyn.%s", op);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_bool(c->st->m, &a, "keepdims", keepdims);
    return byoc_onnx__call2(c->st, name, x, c->in[1], &a);
}
/* ReduceMax, ReduceMin, ReduceMean, ReduceProd (opset 18) with computed axes: dyn.max / min / mean / prod */
BYOC__PRIVATE byoc_result byoc_onnx__reduce_computed(byoc_onnx__ctx *c, const char *op) {
    int dyn = byoc_onnx__reduce_axes_computed(c);
    if (dyn <= 0) return dyn < 0 ? c->st->diag->code : byoc_onnx__reduce(c, op);
    int keep = byoc_onnx__attr_int(c, "keepdims", 1) != 0;
    c->out[0] = byoc_onnx__dyn_reduce(c, op, byoc_onnx__input(c, 0, "data"), keep);
    return BYOC_ONNX__OK(c);
}
/* ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum, ReduceLogSumExp (opset 18) with computed axes: the
   static composites' steps around dyn.sum (LogSumExp's max taken again without keepdims, as the
   reduced extents are not known for a reshape) */
BYOC__PRIVATE byoc_result byoc_onnx__reduce_composite_computed(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    int dyn = byoc_onnx__reduce_axes_computed(c);
    if (dyn <= 0) return dyn < 0 ? st->diag->code : byoc_onnx__reduce_composite(c, op);
    byoc_node *x = byoc_onnx__input(c, 0, "data"), *v = x, *peak = NULL;
    int keep = byoc_onnx__attr_int(c, "keepdims", 1) != 0;
    if (!strcmp(op, "ReduceL1")) v = byoc_onnx__call1(st, "abs", x, NULL);
    else if (!strcmp(op, "ReduceL2") || !strcmp(op, "ReduceSumSquare"))
        v = byoc_onnx__call2(st, "multiply", x, x, NULL);
    else if (!strcmp(op, "ReduceLogSumExp")) { /* log(sum(e^(x - max))) + max: no overflow */
        peak = byoc_onnx__dyn_reduce(c, "max", x, 1);
        v = byoc_onnx__call1(st, "exp", byoc_onnx__call2(st, "subtract", x, peak, NULL), NULL);
        if (!keep) peak = byoc_onnx__dyn_reduce(c, "max", x, 0);
    }
    byoc_node *r = byoc_onnx__dyn_reduce(c, "sum", v, keep);
    if (!strcmp(op, "ReduceL2")) r = byoc_onnx__call1(st, "sqrt", r, NULL);
    else if (!strcmp(op, "ReduceLogSum") || peak) r = byoc_onnx__call1(st, "log", r, NULL);
    c->out[0] = peak ? byoc_onnx__call2(st, "add", r, peak, NULL) : r;
    return BYOC_ONNX__OK(c);
}

/* Resize's (Upsample's) scales, sizes or (for tf_crop_and_resize) roi computed by the graph */
BYOC__PRIVATE int byoc_onnx__resize_is_computed(const byoc_onnx__ctx *c, int legacy, int crop) {
    if (legacy) return c->opset >= 9 && byoc_onnx__computed(c, 1); /* Upsample-9, Resize-10: scales */
    return byoc_onnx__computed(c, 2) || byoc_onnx__computed(c, 3) || (crop && byoc_onnx__computed(c, 1));
}
/* the length of an optional 1-D operand: -1 when omitted */
BYOC__PRIVATE int64_t byoc_onnx__operand_length(const byoc_onnx__ctx *c, int i) {
    const byoc_type *t = i < c->nin && c->in[i] ? byoc_onnx__type(c->in[i]) : NULL;
    return !t ? -1 : t->kind == BYOC_TYPE_TENSOR && t->rank == 1 ? t->dims[0] : -2;
}
/* Resize (opsets 10-19) or Upsample (9) with computed scales, sizes or roi: dyn.image.resize, the mode
   attributes as the static conversion sets them */
BYOC__PRIVATE byoc_result byoc_onnx__resize_computed(byoc_onnx__ctx *c, byoc_node *x, const char *method,
                                                     const char *ctm, const char *nearest, int legacy, int crop) {
    byoc_onnx__state *st = c->st;
    byoc_node *target = NULL, *roi = NULL;
    if (legacy) target = byoc_onnx__input(c, 1, "scales");
    else {
        int64_t ns = byoc_onnx__operand_length(c, 2), nz = byoc_onnx__operand_length(c, 3);
        if (ns == -2 || nz == -2)
            return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "Resize's scales and sizes must be 1-D");
        if (ns > 0 && nz > 0) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "give scales or sizes, not both");
        target = nz > 0 ? c->in[3] : ns > 0 ? c->in[2] : NULL;
        if (!target) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "Resize needs scales or sizes");
        if (crop && !(roi = c->nin > 1 ? c->in[1] : NULL))
            return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "tf_crop_and_resize needs a roi");
    }
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    int64_t axes[BYOC_MAX_RANK];
    int naxes = c->opset >= 18 ? byoc_onnx__attr_ints(c, "axes", axes, BYOC_MAX_RANK) : -1;
    if (naxes == -2) return st->diag->code;
    if (naxes >= 0) byoc_attrs_set_ints(st->m, &a, "axes", axes, naxes);
    char buf[24];
    if (c->opset >= 18)
        byoc_attrs_set_string(st->m, &a, "keep_aspect_ratio_policy",
                              byoc_onnx__attr_string(c, "keep_aspect_ratio_policy", "stretch", buf, sizeof buf));
    byoc_attrs_set_string(st->m, &a, "method", method);
    byoc_attrs_set_string(st->m, &a, "coordinate_transformation_mode", ctm);
    if (!strcmp(method, "nearest_neighbor")) byoc_attrs_set_string(st->m, &a, "rounding_method", nearest);
    if (!strcmp(method, "cubic")) {
        byoc_attrs_set_float(st->m, &a, "cubic_alpha", byoc_onnx__attr_float(c, "cubic_coeff_a", -0.75));
        byoc_attrs_set_int(st->m, &a, "cubic_exclude", byoc_onnx__attr_int(c, "exclude_outside", 0) != 0);
    } else if (!legacy && byoc_onnx__attr_int(c, "exclude_outside", 0)) {
        byoc_attrs_set_int(st->m, &a, "cubic_exclude", 1);
    }
    if (crop)
        byoc_attrs_set_float(st->m, &a, "extrapolation_value", byoc_onnx__attr_float(c, "extrapolation_value", 0));
    if (c->opset >= 18 && byoc_onnx__attr_int(c, "antialias", 0) && strcmp(method, "nearest_neighbor"))
        byoc_attrs_set_bool(st->m, &a, "antialias", 1);
    byoc_node *args[3] = {x, target, roi};
    c->out[0] = byoc_onnx__call(st, "dyn.image.resize", args, roi ? 3 : 2, &a);
    return BYOC_ONNX__OK(c);
}

/* Pad (opset 18) with axes, the pads or the axes computed by the graph: the pads spread over every
   axis by a scatter (begins at the normalised axes, ends at those plus the rank; 0 elsewhere; an axis
   out of range is the scatter's error at run time), then Pad with computed pads (dyn.nn.pad) */
BYOC__PRIVATE byoc_result byoc_onnx__pad_any(byoc_onnx__ctx *c, const char *op);
BYOC__PRIVATE byoc_result byoc_onnx__pad_axes_computed(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    const byoc_type *t = byoc_onnx__type(byoc_onnx__input(c, 0, "data"));
    byoc_node *pads = byoc_onnx__input(c, 1, "pads"), *axes = c->in[3];
    const byoc_type *tp = byoc_onnx__type(pads), *ta = byoc_onnx__type(axes);
    if (!t || !tp || !ta) return BYOC_ONNX__OK(c);
    if (ta->kind != BYOC_TYPE_TENSOR || ta->rank != 1 || ta->dims[0] < 0 || byoc_dtype_is_float(ta->dtype))
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "Pad's axes must be 1-D integers of a static length");
    if (tp->kind != BYOC_TYPE_TENSOR || tp->rank != 1 || tp->dims[0] != 2 * ta->dims[0])
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "pads must hold 2 values per axis (%lld)",
                               (long long)(2 * ta->dims[0]));
    byoc_node *a64 = byoc_onnx__cast(st, axes, BYOC_INT64), *rank = byoc_onnx__scalar(st, BYOC_INT64, t->rank);
    byoc_node *pick[3] = {byoc_onnx__call2(st, "less", a64, byoc_onnx__scalar(st, BYOC_INT64, 0), NULL),
                          byoc_onnx__call2(st, "add", a64, rank, NULL), a64};
    byoc_node *begins = byoc_onnx__call(st, "where", pick, 3, NULL);
    byoc_node *both[2] = {begins, byoc_onnx__call2(st, "add", begins, rank, NULL)};
    if (!both[0] || !both[1]) return BYOC_ONNX__OK(c);
    byoc_node *tuple = byoc_tuple(st->m, both, 2);
    if (!tuple || byoc_infer_node_type(st->m, tuple, st->diag) != BYOC_OK) return BYOC_ONNX__OK(c);
    int64_t zeros[2 * BYOC_MAX_RANK] = {0}, n = 2 * t->rank;
    byoc_node *none = byoc_constant(st->m, byoc_tensor_type(st->m, BYOC_INT64, 1, &n), zeros, (size_t)n * 8);
    if (!none) return byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
    none->checked_type = none->annotation;
    byoc_attrs cat;
    memset(&cat, 0, sizeof cat);
    byoc_attrs_set_int(st->m, &cat, "axis", 0);
    byoc_node *args[3] = {none, byoc_onnx__call1(st, "concatenate", tuple, &cat),
                          byoc_onnx__cast(st, pads, BYOC_INT64)};
    byoc_node *full = byoc_onnx__call(st, "scatter_elements", args, 3, NULL);
    if (!full) return BYOC_ONNX__OK(c);
    c->in[1] = full;
    c->in[3] = NULL;
    return byoc_onnx__pad_any(c, op);
}

/* an int64 1-D constant of n values */
BYOC__PRIVATE byoc_node *byoc_onnx__int64s(byoc_onnx__state *st, const int64_t *v, int64_t n) {
    byoc_node *k = byoc_constant(st->m, byoc_tensor_type(st->m, BYOC_INT64, 1, &n), v, (size_t)n * sizeof *v);
    if (!k) byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
    else k->checked_type = k->annotation;
    return k;
}
/* CenterCropPad (opset 18) with a computed shape: per listed axis (static extent D, target S) a
   dyn.strided_slice keeps [max(D - S, 0) / 2, that + min(D, S)), then dyn.nn.pad adds max(S - D, 0)
   split as the static conversion does (the smaller half before), the pads spread over every axis by a
   scatter */
BYOC__PRIVATE byoc_result byoc_onnx__center_crop_pad_computed(byoc_onnx__ctx *c) {
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "input_data");
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "CenterCropPad's input"), *ts = byoc_onnx__type(c->in[1]);
    if (!t || !ts) return BYOC_ONNX__OK(c);
    int64_t axes[BYOC_MAX_RANK], dims[BYOC_MAX_RANK], ones[BYOC_MAX_RANK], zeros[2 * BYOC_MAX_RANK] = {0},
            where[2 * BYOC_MAX_RANK];
    int na = byoc_onnx__attr_ints(c, "axes", axes, BYOC_MAX_RANK), seen[BYOC_MAX_RANK] = {0};
    if (na == -2) return BYOC_ONNX__OK(c);
    if (na < 0)
        for (na = 0; na < t->rank; ++na) axes[na] = na;
    if (ts->kind != BYOC_TYPE_TENSOR || ts->rank != 1 || ts->dims[0] != na || byoc_dtype_is_float(ts->dtype))
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "shape must hold %d integers, one per axis", na);
    for (int i = 0; i < na; ++i) {
        int d = byoc_onnx__norm_axis(c, axes[i], t->rank, "axis");
        if (d < 0) return BYOC_ONNX__OK(c);
        if (seen[d]++) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "axis %d repeated", d);
        if (t->dims[d] < 0)
            return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "a computed shape needs a static extent on axis %d", d);
        axes[i] = d;
        dims[i] = t->dims[d];
        ones[i] = 1;
        where[i] = d;
        where[na + i] = d + t->rank;
    }
    byoc_node *S = byoc_onnx__cast(st, c->in[1], BYOC_INT64), *D = byoc_onnx__int64s(st, dims, na);
    byoc_node *zero = byoc_onnx__scalar(st, BYOC_INT64, 0), *two = byoc_onnx__scalar(st, BYOC_INT64, 2);
    byoc_node *crop = byoc_onnx__call2(st, "maximum", byoc_onnx__call2(st, "subtract", D, S, NULL), zero, NULL);
    byoc_node *grow = byoc_onnx__call2(st, "maximum", byoc_onnx__call2(st, "subtract", S, D, NULL), zero, NULL);
    byoc_node *begin = byoc_onnx__call2(st, "divide", crop, two, NULL);
    byoc_node *slice[5] = {x, begin,
                           byoc_onnx__call2(st, "add", begin, byoc_onnx__call2(st, "minimum", S, D, NULL), NULL),
                           byoc_onnx__int64s(st, ones, na), byoc_onnx__int64s(st, axes, na)};
    byoc_node *before = byoc_onnx__call2(st, "divide", grow, two, NULL);
    byoc_node *halves[2] = {before, byoc_onnx__call2(st, "subtract", grow, before, NULL)};
    if (!halves[0] || !halves[1] || !slice[2] || !slice[3] || !slice[4]) return BYOC_ONNX__OK(c);
    byoc_node *tuple = byoc_tuple(st->m, halves, 2);
    if (!tuple || byoc_infer_node_type(st->m, tuple, st->diag) != BYOC_OK) return BYOC_ONNX__OK(c);
    byoc_attrs cat;
    memset(&cat, 0, sizeof cat);
    byoc_attrs_set_int(st->m, &cat, "axis", 0);
    byoc_node *scatter[3] = {byoc_onnx__int64s(st, zeros, 2 * t->rank), byoc_onnx__int64s(st, where, 2 * na),
                             byoc_onnx__call1(st, "concatenate", tuple, &cat)};
    int64_t two_by_rank[2] = {2, t->rank};
    int perm[2] = {1, 0};
    byoc_node *full = byoc_onnx__call(st, "scatter_elements", scatter, 3, NULL);
    byoc_node *pad[3] = {byoc_onnx__call(st, "dyn.strided_slice", slice, 5, NULL),
                         byoc_onnx__transpose(st, byoc_onnx__reshape(st, full, 2, two_by_rank), 2, perm),
                         byoc_onnx__scalar(st, t->dtype, 0)};
    if (!pad[0] || !pad[1] || !pad[2]) return BYOC_ONNX__OK(c);
    c->out[0] = byoc_onnx__call(st, "dyn.nn.pad", pad, 3, NULL);
    return BYOC_ONNX__OK(c);
}

/* HannWindow, HammingWindow, BlackmanWindow with a computed size: dyn.hann_window ... */
BYOC__PRIVATE byoc_result byoc_onnx__window_computed(byoc_onnx__ctx *c, const char *op) {
    byoc_node *size = byoc_onnx__int64_scalar_of(c, c->in[0], "the window's size");
    const char *dt = size ? byoc_onnx__output_datatype(c) : NULL;
    if (!dt) return BYOC_ONNX__OK(c);
    char name[40];
    snprintf(name, sizeof name, "dyn.%s", op);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_bool(c->st->m, &a, "periodic", byoc_onnx__attr_int(c, "periodic", 1) != 0);
    byoc_attrs_set_string(c->st->m, &a, "dtype", dt);
    c->out[0] = byoc_onnx__call1(c->st, name, size, &a);
    return BYOC_ONNX__OK(c);
}
/* DFT (opset 17) with a computed dft_length: dyn.dft */
BYOC__PRIVATE byoc_result byoc_onnx__dft_computed(byoc_onnx__ctx *c) {
    byoc_node *x = byoc_onnx__input(c, 0, "input"), *len = byoc_onnx__int64_scalar_of(c, c->in[1], "dft_length");
    if (!x || !len) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(c->st->m, &a, "axis", byoc_onnx__attr_int(c, "axis", 1));
    byoc_attrs_set_bool(c->st->m, &a, "inverse", byoc_onnx__attr_int(c, "inverse", 0) != 0);
    byoc_attrs_set_bool(c->st->m, &a, "onesided", byoc_onnx__attr_int(c, "onesided", 0) != 0);
    c->out[0] = byoc_onnx__call2(c->st, "dyn.dft", x, len, &a);
    return BYOC_ONNX__OK(c);
}
/* STFT (opset 17) with a computed frame_step or frame_length: dyn.stft, frame_length the window's
   (static) length when omitted */
BYOC__PRIVATE byoc_result byoc_onnx__stft_computed(byoc_onnx__ctx *c) {
    byoc_onnx__state *st = c->st;
    byoc_node *window = c->nin > 2 ? c->in[2] : NULL, *len = NULL;
    const byoc_type *tw = window ? byoc_onnx__type(window) : NULL;
    if (c->nin > 3 && c->in[3]) len = byoc_onnx__int64_scalar_of(c, c->in[3], "frame_length");
    else if (tw && tw->kind == BYOC_TYPE_TENSOR && tw->rank == 1 && tw->dims[0] >= 0)
        len = byoc_onnx__scalar(st, BYOC_INT64, (double)tw->dims[0]);
    else return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "STFT needs frame_length or a 1-D window");
    byoc_node *args[4] = {byoc_onnx__input(c, 0, "signal"), byoc_onnx__int64_scalar_of(c, c->in[1], "frame_step"),
                          len, window};
    if (!args[0] || !args[1] || !args[2]) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_bool(st->m, &a, "onesided", byoc_onnx__attr_int(c, "onesided", 1) != 0);
    c->out[0] = byoc_onnx__call(st, "dyn.stft", args, window ? 4 : 3, &a);
    return BYOC_ONNX__OK(c);
}
/* MelWeightMatrix with a computed parameter: dyn.mel_weight_matrix (the integers as int64 scalars, the
   edges as float scalars) */
BYOC__PRIVATE byoc_result byoc_onnx__mel_weight_matrix_computed(byoc_onnx__ctx *c) {
    static const char *const what[5] = {"num_mel_bins", "dft_length", "sample_rate", "lower_edge_hertz",
                                        "upper_edge_hertz"};
    byoc_node *args[5];
    int64_t no_dims[1] = {0};
    for (int i = 0; i < 5; ++i) {
        byoc_node *x = byoc_onnx__input(c, i, what[i]);
        const byoc_type *t = byoc_onnx__type(x);
        if (!t) return BYOC_ONNX__OK(c);
        if (t->kind != BYOC_TYPE_TENSOR || t->rank > 1 || byoc_type_num_elements(t) != 1)
            return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "%s must hold one value", what[i]);
        args[i] = i < 3 ? byoc_onnx__int64_scalar_of(c, x, what[i]) : byoc_onnx__reshape(c->st, x, 0, no_dims);
        if (!args[i]) return BYOC_ONNX__OK(c);
    }
    const char *dt = byoc_onnx__output_datatype(c);
    if (!dt) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_string(c->st->m, &a, "dtype", dt);
    c->out[0] = byoc_onnx__call(c->st, "dyn.mel_weight_matrix", args, 5, &a);
    return BYOC_ONNX__OK(c);
}

// [SECTION] impl: op converters: data-dependent and run-time shapes
/* (converters: dynamic) */
/* Shape-like inputs computed by the graph (ops that moved them from attribute to input): the static
   converters take constant ones; a computed one builds Relay's dyn.* op instead, whose result extents
   are '?' until run time. */
BYOC__PRIVATE int byoc_onnx__is_constant_or_absent(const byoc_onnx__ctx *c, int i) {
    return i >= c->nin || !c->in[i] || c->in[i]->kind == BYOC_NODE_CONSTANT;
}
/* a projection of a tuple-valued call, typed and carrying the node's span */
BYOC__PRIVATE byoc_node *byoc_onnx__field(byoc_onnx__state *st, byoc_node *tuple, int i) {
    byoc_node *f = tuple ? byoc_tuple_get_item(st->m, tuple, i) : NULL;
    if (!f || byoc_infer_node_type(st->m, f, st->diag) != BYOC_OK) return NULL;
    return byoc_onnx__note(st, f);
}

/* Clip (opset 11+) with a computed bound: maximum / minimum against it (a scalar, broadcast) */
BYOC__PRIVATE byoc_result byoc_onnx__clip_any(byoc_onnx__ctx *c, const char *op) {
    if (c->opset < 11 || (byoc_onnx__is_constant_or_absent(c, 1) && byoc_onnx__is_constant_or_absent(c, 2)))
        return byoc_onnx__clip(c, op);
    byoc_node *y = byoc_onnx__input(c, 0, "input");
    static const char *const what[] = {"min", "max"};
    for (int i = 1; i <= 2 && y; ++i) {
        if (i >= c->nin || !c->in[i]) continue;
        const byoc_type *t = byoc_onnx__type(c->in[i]);
        if (!t || t->kind != BYOC_TYPE_TENSOR || byoc_type_num_elements(t) != 1)
            return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "Clip's %s must be a scalar", what[i - 1]);
        y = byoc_onnx__call2(c->st, i == 1 ? "maximum" : "minimum", y, c->in[i], NULL);
    }
    c->out[0] = y;
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__reshape_any(byoc_onnx__ctx *c, const char *op) {
    if (c->opset < 5 || byoc_onnx__is_constant_or_absent(c, 1)) return byoc_onnx__reshape_op(c, op);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_bool(c->st->m, &a, "allowzero", byoc_onnx__attr_int(c, "allowzero", 0) != 0);
    c->out[0] = byoc_onnx__call2(c->st, "dyn.reshape", byoc_onnx__input(c, 0, "data"),
                                 byoc_onnx__input(c, 1, "shape"), &a);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__expand_any(byoc_onnx__ctx *c, const char *op) {
    if (byoc_onnx__is_constant_or_absent(c, 1)) return byoc_onnx__expand(c, op);
    c->out[0] = byoc_onnx__call2(c->st, "dyn.broadcast_to", byoc_onnx__input(c, 0, "input"),
                                 byoc_onnx__input(c, 1, "shape"), NULL);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__tile_any(byoc_onnx__ctx *c, const char *op) {
    if (byoc_onnx__is_constant_or_absent(c, 1)) return byoc_onnx__tile(c, op);
    byoc_node *x = byoc_onnx__input(c, 0, "input"), *reps = byoc_onnx__input(c, 1, "repeats");
    const byoc_type *tx = byoc_onnx__type(x), *tr = byoc_onnx__type(reps);
    if (tx && tr && tr->kind == BYOC_TYPE_TENSOR && tr->rank == 1 && tr->dims[0] >= 0 && tr->dims[0] != tx->rank)
        return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "repeats has %lld values for rank %d",
                               (long long)tr->dims[0], tx->rank);
    c->out[0] = byoc_onnx__call2(c->st, "dyn.tile", x, reps, NULL);
    return BYOC_ONNX__OK(c);
}

/* Slice (opset 10+) with computed starts, ends, axes or steps: dyn.strided_slice, steps of ones when
   omitted */
BYOC__PRIVATE byoc_result byoc_onnx__slice_any(byoc_onnx__ctx *c, const char *op) {
    int constant = 1;
    for (int i = 1; i < 5; ++i) constant &= byoc_onnx__is_constant_or_absent(c, i);
    if (c->opset < 10 || constant) return byoc_onnx__slice(c, op);
    byoc_onnx__state *st = c->st;
    byoc_node *args[5] = {byoc_onnx__input(c, 0, "data"), byoc_onnx__input(c, 1, "starts"),
                          byoc_onnx__input(c, 2, "ends"), c->nin > 4 ? c->in[4] : NULL, c->nin > 3 ? c->in[3] : NULL};
    const byoc_type *ts = byoc_onnx__type(args[1]);
    if (!args[0] || !ts) return BYOC_ONNX__OK(c);
    if (ts->kind != BYOC_TYPE_TENSOR || ts->rank != 1 || ts->dims[0] < 0)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "Slice's starts must be 1-D");
    if (!args[3]) { /* steps of one, as many as starts */
        args[3] = byoc_constant(st->m, ts, NULL, 0);
        if (!args[3]) return byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
        args[3]->checked_type = ts;
        for (int64_t i = 0; i < ts->dims[0]; ++i) byoc__store(ts->dtype, args[3]->data, i, 1.0);
    }
    c->out[0] = byoc_onnx__call(st, "dyn.strided_slice", args, args[4] ? 5 : 4, NULL);
    return BYOC_ONNX__OK(c);
}

/* Pad (opset 11+) with computed pads: ONNX's [begins..., ends...] as dyn.nn.pad's (rank, 2) pad_width */
BYOC__PRIVATE byoc_result byoc_onnx__pad_any(byoc_onnx__ctx *c, const char *op) {
    if (c->opset < 11 || (byoc_onnx__is_constant_or_absent(c, 1) && byoc_onnx__is_constant_or_absent(c, 2)))
        return byoc_onnx__pad(c, op);
    byoc_onnx__state *st = c->st;
    if (c->nin > 3 && c->in[3]) return byoc_onnx__pad_axes_computed(c, op);
    byoc_node *x = byoc_onnx__input(c, 0, "data"), *pads = byoc_onnx__input(c, 1, "pads");
    const byoc_type *t = byoc_onnx__type(x), *tp = byoc_onnx__type(pads);
    if (!t || !tp) return BYOC_ONNX__OK(c);
    if (tp->kind != BYOC_TYPE_TENSOR || tp->rank != 1 || tp->dims[0] != 2 * t->rank)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "pads must hold %d values for rank %d", 2 * t->rank,
                               t->rank);
    char buf[16];
    const char *mode = byoc_onnx__attr_string(c, "mode", "constant", buf, sizeof buf);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_string(st->m, &a, "pad_mode", mode);
    int64_t two_by_rank[2] = {2, t->rank};
    int perm[2] = {1, 0};
    byoc_node *width = byoc_onnx__transpose(st, byoc_onnx__reshape(st, pads, 2, two_by_rank), 2, perm);
    byoc_node *value = c->nin > 2 && c->in[2] ? c->in[2] : byoc_onnx__scalar(st, t->dtype, 0.0);
    const byoc_type *tv = byoc_onnx__type(value);
    if (tv && tv->kind == BYOC_TYPE_TENSOR && tv->rank == 1 && tv->dims[0] == 1)
        value = byoc_onnx__reshape(st, value, 0, two_by_rank); /* a 1-element tensor as its scalar (no dims) */
    byoc_node *args[3] = {x, width, value};
    c->out[0] = byoc_onnx__call(st, "dyn.nn.pad", args, 3, &a);
    return BYOC_ONNX__OK(c);
}

/* Squeeze / Unsqueeze (opset 13+) with computed axes */
BYOC__PRIVATE byoc_result byoc_onnx__squeeze_any(byoc_onnx__ctx *c, const char *op) {
    if (c->opset < 13 || byoc_onnx__is_constant_or_absent(c, 1)) return byoc_onnx__squeeze(c, op);
    c->out[0] = byoc_onnx__call2(c->st, "dyn.squeeze", byoc_onnx__input(c, 0, "data"), c->in[1], NULL);
    return BYOC_ONNX__OK(c);
}
BYOC__PRIVATE byoc_result byoc_onnx__unsqueeze_any(byoc_onnx__ctx *c, const char *op) {
    if (c->opset < 13 || byoc_onnx__is_constant_or_absent(c, 1)) return byoc_onnx__unsqueeze(c, op);
    c->out[0] = byoc_onnx__call2(c->st, "dyn.expand_dims", byoc_onnx__input(c, 0, "data"), c->in[1], NULL);
    return BYOC_ONNX__OK(c);
}

/* ReduceSum (opset 13+) with computed axes: dyn.sum; axes of static length 0 are known to be empty */
BYOC__PRIVATE byoc_result byoc_onnx__reduce_any(byoc_onnx__ctx *c, const char *op) {
    if (c->opset < 13 || byoc_onnx__is_constant_or_absent(c, 1)) return byoc_onnx__reduce(c, op);
    byoc_onnx__state *st = c->st;
    const byoc_type *ta = byoc_onnx__type(c->in[1]);
    if (!ta || ta->kind != BYOC_TYPE_TENSOR || ta->rank != 1 || ta->dims[0] < 0)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "the reduction's axes must be 1-D");
    if (ta->dims[0] == 0) { /* no axes, whatever the run: the static conversion of an empty constant */
        byoc_node *empty = byoc_constant(st->m, ta, NULL, 0);
        if (!empty) return byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
        empty->checked_type = ta;
        c->in[1] = empty;
        return byoc_onnx__reduce(c, op);
    }
    char name[32];
    snprintf(name, sizeof name, "dyn.%s", op);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_bool(st->m, &a, "keepdims", byoc_onnx__attr_int(c, "keepdims", 1) != 0);
    c->out[0] = byoc_onnx__call2(st, name, byoc_onnx__input(c, 0, "data"), c->in[1], &a);
    return BYOC_ONNX__OK(c);
}

/* Split (opset 13+) with computed sizes: part i is a dyn.strided_slice from the sum of the sizes before
   it (a sum of a static slice of the sizes) to that plus its own size */
BYOC__PRIVATE byoc_result byoc_onnx__split_any(byoc_onnx__ctx *c, const char *op) {
    if (c->opset < 13 || byoc_onnx__is_constant_or_absent(c, 1)) return byoc_onnx__split(c, op);
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "input"), *sizes = byoc_onnx__cast(st, c->in[1], BYOC_INT64);
    const byoc_type *t = byoc_onnx__type(x), *ts = byoc_onnx__type(sizes);
    if (!t || !ts) return BYOC_ONNX__OK(c);
    if (ts->kind != BYOC_TYPE_TENSOR || ts->rank != 1 || ts->dims[0] != c->nout)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "Split's split must hold one size per output (%d)",
                               c->nout);
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", 0), t->rank, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
    int64_t one = 1;
    byoc_node *ones = byoc_constant(st->m, byoc_tensor_type(st->m, BYOC_INT64, 1, &one), &one, sizeof one);
    int64_t ax = axis, zero = 0;
    byoc_node *axes = byoc_constant(st->m, byoc_tensor_type(st->m, BYOC_INT64, 1, &one), &ax, sizeof ax);
    byoc_node *begin = byoc_constant(st->m, byoc_tensor_type(st->m, BYOC_INT64, 1, &one), &zero, sizeof zero);
    if (!ones || !axes || !begin) return byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
    ones->checked_type = axes->checked_type = begin->checked_type = ones->annotation;
    for (int i = 0; i < c->nout && begin; ++i) {
        int64_t lo = i, hi = i + 1;
        byoc_attrs a;
        memset(&a, 0, sizeof a);
        byoc_attrs_set_ints(st->m, &a, "begin", &lo, 1);
        byoc_attrs_set_ints(st->m, &a, "end", &hi, 1);
        byoc_node *end = byoc_onnx__call2(st, "add", begin, byoc_onnx__call1(st, "strided_slice", sizes, &a), NULL);
        byoc_node *args[5] = {x, begin, end, ones, axes};
        c->out[i] = byoc_onnx__call(st, "dyn.strided_slice", args, 5, NULL);
        begin = end;
    }
    return BYOC_ONNX__OK(c);
}

/* ConstantOfShape with a computed shape: dyn.full of the value attribute (float 0 by default) */
BYOC__PRIVATE byoc_result byoc_onnx__constant_of_shape_any(byoc_onnx__ctx *c, const char *op) {
    if (byoc_onnx__is_constant_or_absent(c, 0)) return byoc_onnx__constant_of_shape(c, op);
    byoc_onnx__state *st = c->st;
    byoc_node *fill = byoc_onnx__scalar(st, BYOC_FLOAT32, 0.0);
    const byoc_onnx__attr *a = byoc_onnx__attr_get(c, "value");
    if (a && a->type == BYOC_ONNX__ATTR_TENSOR) {
        byoc_onnx__tensor t;
        if (byoc_onnx__parse_tensor(st, a->t, &t) != BYOC_OK) return st->diag->code;
        byoc_node *v = byoc_onnx__tensor_constant(st, &t, "ConstantOfShape's value");
        byoc_onnx__tensor_free(&t);
        if (!v) return BYOC_ONNX__OK(c);
        if (byoc_type_num_elements(v->annotation) != 1)
            return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "ConstantOfShape's value must hold one element");
        fill = byoc_constant(st->m, byoc_tensor_type(st->m, v->annotation->dtype, 0, NULL), v->data,
                             byoc_dtype_size(v->annotation->dtype));
        if (!fill) return byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
        fill->checked_type = fill->annotation;
    }
    c->out[0] = byoc_onnx__call2(st, "dyn.full", fill, c->in[0], NULL);
    return BYOC_ONNX__OK(c);
}

/* Range with computed bounds: arange */
BYOC__PRIVATE byoc_result byoc_onnx__range_any(byoc_onnx__ctx *c, const char *op) {
    int constant = 1;
    for (int i = 0; i < 3; ++i) constant &= byoc_onnx__is_constant_or_absent(c, i);
    if (constant) return byoc_onnx__range(c, op);
    byoc_node *args[3] = {byoc_onnx__input(c, 0, "start"), byoc_onnx__input(c, 1, "limit"),
                          byoc_onnx__input(c, 2, "delta")};
    c->out[0] = byoc_onnx__call(c->st, "arange", args, 3, NULL);
    return BYOC_ONNX__OK(c);
}

/* NonZero: argwhere's (count, rank) int32 rows as ONNX's (rank, count) int64 */
BYOC__PRIVATE byoc_result byoc_onnx__nonzero(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    int perm[2] = {1, 0};
    byoc_node *rows = byoc_onnx__call1(c->st, "argwhere", byoc_onnx__input(c, 0, "X"), NULL);
    c->out[0] = byoc_onnx__cast(c->st, byoc_onnx__transpose(c->st, rows, 2, perm), BYOC_INT64);
    return BYOC_ONNX__OK(c);
}

/* Compress: take along axis (or from the flattened input) at the positions where condition holds */
BYOC__PRIVATE byoc_result byoc_onnx__compress(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "input"), *cond = byoc_onnx__input(c, 1, "condition");
    const byoc_type *t = byoc_onnx__type(x), *tc = byoc_onnx__type(cond);
    if (!t || !tc) return BYOC_ONNX__OK(c);
    if (tc->kind != BYOC_TYPE_TENSOR || tc->rank != 1)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "Compress's condition must be 1-D");
    const byoc_onnx__attr *axis_attr = byoc_onnx__attr_get(c, "axis");
    int axis = 0;
    if (axis_attr) {
        axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", 0), t->rank, "axis");
        if (axis < 0) return BYOC_ONNX__OK(c);
    } else {
        int64_t flat = byoc_type_num_elements(t);
        if (flat < 0) return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "Compress without axis needs a static input");
        x = byoc_onnx__reshape(st, x, 1, &flat);
    }
    const byoc_type *tx = byoc_onnx__type(x);
    if (tx && tc->dims[0] >= 0 && tx->dims[axis] >= 0 && tc->dims[0] > tx->dims[axis])
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "condition has %lld values for an extent of %lld",
                               (long long)tc->dims[0], (long long)tx->dims[axis]);
    int64_t minus_one = -1;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(st->m, &a, "axis", axis);
    byoc_node *where = byoc_onnx__call1(st, "argwhere", cond, NULL);
    c->out[0] = byoc_onnx__call2(st, "take", x, byoc_onnx__reshape(st, where, 1, &minus_one), &a);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__unique(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_bool(st->m, &a, "sorted", byoc_onnx__attr_int(c, "sorted", 1) != 0);
    if (byoc_onnx__attr_get(c, "axis")) byoc_attrs_set_int(st->m, &a, "axis", byoc_onnx__attr_int(c, "axis", 0));
    byoc_node *all = byoc_onnx__call1(st, "unique", byoc_onnx__input(c, 0, "X"), &a);
    for (int i = 0; i < c->nout && i < 4 && all; ++i) c->out[i] = byoc_onnx__field(st, all, i);
    return BYOC_ONNX__OK(c);
}

/* NonMaxSuppression: omitted max_output_boxes_per_class selects nothing, omitted iou_threshold is 0 */
BYOC__PRIVATE byoc_result byoc_onnx__nms(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *boxes = byoc_onnx__input(c, 0, "boxes");
    const byoc_type *tb = byoc_onnx__type(boxes);
    if (!tb) return BYOC_ONNX__OK(c);
    byoc_node *args[5] = {boxes, byoc_onnx__input(c, 1, "scores"),
                          c->nin > 2 && c->in[2] ? c->in[2] : byoc_onnx__scalar(st, BYOC_INT64, 0),
                          c->nin > 3 && c->in[3] ? c->in[3] : byoc_onnx__scalar(st, tb->dtype, 0),
                          c->nin > 4 ? c->in[4] : NULL};
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(st->m, &a, "center_point_box", byoc_onnx__attr_int(c, "center_point_box", 0));
    c->out[0] = byoc_onnx__call(st, "vision.all_class_non_max_suppression", args, args[4] ? 5 : 4, &a);
    return BYOC_ONNX__OK(c);
}

// [SECTION] impl: op converters: quantized
/* (converters: quant) */
/* ONNX's quantization ops on byoc.h's qnn dialect. Scales and zero points stay graph values (arguments of
   the qnn ops, as in TVM), so they may come from inputs as well as initializers. */

/* an optional zero point: the input, or a scalar 0 of dtype dt */
BYOC__PRIVATE byoc_node *byoc_onnx__zero_point(byoc_onnx__ctx *c, int i, byoc_dtype dt) {
    if (i < c->nin && c->in[i]) return c->in[i];
    return byoc_onnx__scalar(c->st, dt, 0);
}
/* a quantized dtype ONNX names (an output_dtype attribute, a zero point's type): byoc.h's, or an error naming
   it (float8 and 4-bit types have no byoc.h dtype) */
BYOC__PRIVATE byoc_dtype byoc_onnx__quant_dtype(byoc_onnx__ctx *c, int onnx_type) {
    byoc_dtype dt = byoc_onnx__dtype(onnx_type);
    if (dt != BYOC_INT8 && dt != BYOC_UINT8 && dt != BYOC_INT16 && dt != BYOC_UINT16 && dt != BYOC_INT32) {
        byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "quantizing to %s is not supported (int8, uint8, int16, uint16)",
                        byoc_onnx__dtype_name(onnx_type));
        return BYOC_DTYPE_INVALID;
    }
    return dt;
}
/* the byoc.h dtype's ONNX number, for messages */
BYOC__PRIVATE int byoc_onnx__type_number(byoc_dtype dt) {
    for (int t = 1; t <= 16; ++t)
        if (byoc_onnx__dtype(t) == dt) return t;
    return 0;
}
/* axis and block_size of QuantizeLinear / DequantizeLinear onto a qnn op's attributes (opset 10: per tensor
   only; 13: axis, default 1; 21: block_size) */
BYOC__PRIVATE int byoc_onnx__quant_attrs(byoc_onnx__ctx *c, const byoc_type *x, const byoc_type *scale, byoc_attrs *a) {
    int64_t block = c->opset >= 21 ? byoc_onnx__attr_int(c, "block_size", 0) : 0;
    int per_tensor = scale->rank <= 1 && byoc_type_num_elements(scale) == 1 && !block;
    int64_t axis = c->opset >= 13 ? byoc_onnx__attr_int(c, "axis", 1) : 1;
    if (c->opset < 13 && !per_tensor) {
        byoc_onnx__fail(c->st, BYOC_ERR_TYPE, "opset %d quantizes per tensor: the scale must have one element",
                        c->opset);
        return 0;
    }
    if (!per_tensor && byoc_onnx__norm_axis(c, axis, x->rank, "axis") < 0) return 0;
    byoc_attrs_set_int(c->st->m, a, "axis", per_tensor ? -1 : axis);
    if (block) byoc_attrs_set_int(c->st->m, a, "block_size", block);
    return 1;
}

/* a scale and zero point as ONNX requires them: a constant scale positive and finite in every element, a zero
   point of its data's type (dt; BYOC_DTYPE_INVALID: any); 0 after an error naming the input */
BYOC__PRIVATE int byoc_onnx__qpair_ok(byoc_onnx__ctx *c, byoc_node *scale, const char *scale_name, byoc_node *zp,
                                      const char *zp_name, byoc_dtype dt) {
    if (scale && scale->kind == BYOC_NODE_CONSTANT && scale->annotation) {
        for (int64_t i = 0, n = byoc_type_num_elements(scale->annotation); i < n; ++i) {
            double s = byoc__load(scale->annotation->dtype, scale->data, i);
            if (!(s > 0) || s > 3.4e38) {
                byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT,
                                "%s is %g (element %lld): a scale must be positive and finite", scale_name, s,
                                (long long)i);
                return 0;
            }
        }
    }
    const byoc_type *tz = zp ? byoc_onnx__type(zp) : NULL;
    if (tz && dt != BYOC_DTYPE_INVALID && tz->dtype != dt) {
        byoc_onnx__fail(c->st, BYOC_ERR_TYPE, "%s is %s but its data is %s: they must have the same type", zp_name,
                        byoc_dtype_name(tz->dtype), byoc_dtype_name(dt));
        return 0;
    }
    return 1;
}

BYOC__PRIVATE byoc_result byoc_onnx__quantize_linear(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "x"), *scale = byoc_onnx__input(c, 1, "y_scale");
    const byoc_type *tx = byoc_onnx__tensor_of(st, x, "x"),
                    *ts = tx ? byoc_onnx__tensor_of(st, scale, "y_scale") : NULL;
    if (!ts) return BYOC_ONNX__OK(c);
    byoc_node *given_zp = c->nin > 2 ? c->in[2] : NULL;
    if (!byoc_onnx__qpair_ok(c, scale, "y_scale", NULL, NULL, BYOC_DTYPE_INVALID)) return BYOC_ONNX__OK(c);
    int onnx_type = given_zp ? byoc_onnx__type_number(byoc_onnx__type(given_zp)->dtype)
                             : (int)byoc_onnx__attr_int(c, "output_dtype", 2); /* opset 21; uint8 before */
    if (!onnx_type) onnx_type = 2;
    byoc_dtype dt = byoc_onnx__quant_dtype(c, onnx_type);
    if (dt == BYOC_DTYPE_INVALID) return BYOC_ONNX__OK(c);
    if (dt == BYOC_INT32)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "QuantizeLinear to int32 is not an ONNX type");
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    if (!byoc_onnx__quant_attrs(c, tx, ts, &a)) return BYOC_ONNX__OK(c);
    byoc_attrs_set_string(st->m, &a, "out_dtype", byoc_dtype_name(dt));
    byoc_node *args[3] = {x, scale, byoc_onnx__zero_point(c, 2, dt)};
    c->out[0] = byoc_onnx__call(st, "qnn.quantize", args, 3, &a);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__dequantize_linear(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "x"), *scale = byoc_onnx__input(c, 1, "x_scale");
    const byoc_type *tx = byoc_onnx__tensor_of(st, x, "x"),
                    *ts = tx ? byoc_onnx__tensor_of(st, scale, "x_scale") : NULL;
    if (!ts) return BYOC_ONNX__OK(c);
    if (!byoc_onnx__qpair_ok(c, scale, "x_scale", c->nin > 2 ? c->in[2] : NULL, "x_zero_point", tx->dtype))
        return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    if (!byoc_onnx__quant_attrs(c, tx, ts, &a)) return BYOC_ONNX__OK(c);
    byoc_attrs_set_string(st->m, &a, "out_dtype", byoc_dtype_name(ts->dtype)); /* y takes the scale's type */
    byoc_node *args[3] = {x, scale, byoc_onnx__zero_point(c, 2, tx->dtype)};
    c->out[0] = byoc_onnx__call(st, "qnn.dequantize", args, 3, &a);
    return BYOC_ONNX__OK(c);
}

/* DynamicQuantizeLinear: uint8 with the range of x widened to hold 0, as the spec's formula (and ONNX
   Runtime): scale = (max - min) / 255, zero point = saturate(round(0 - min / scale)), then QuantizeLinear */
BYOC__PRIVATE byoc_result byoc_onnx__dynamic_quantize_linear(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "x");
    const byoc_type *tx = byoc_onnx__tensor_of(st, x, "x");
    if (!tx) return BYOC_ONNX__OK(c);
    if (tx->dtype != BYOC_FLOAT32) return byoc_onnx__fail(st, BYOC_ERR_TYPE, "x must be float32");
    byoc_node *zero = byoc_onnx__scalar(st, BYOC_FLOAT32, 0);
    byoc_node *lo = byoc_onnx__call2(st, "minimum", byoc_onnx__call1(st, "min", x, NULL), zero, NULL);
    byoc_node *hi = byoc_onnx__call2(st, "maximum", byoc_onnx__call1(st, "max", x, NULL), zero, NULL);
    byoc_node *scale = byoc_onnx__call2(st, "divide", byoc_onnx__call2(st, "subtract", hi, lo, NULL),
                                        byoc_onnx__scalar(st, BYOC_FLOAT32, 255), NULL);
    byoc_attrs clip;
    memset(&clip, 0, sizeof clip);
    byoc_attrs_set_float(st->m, &clip, "a_min", 0);
    byoc_attrs_set_float(st->m, &clip, "a_max", 255);
    byoc_node *zp = byoc_onnx__call2(st, "subtract", zero, byoc_onnx__call2(st, "divide", lo, scale, NULL), NULL);
    zp = byoc_onnx__cast(st, byoc_onnx__call1(st, "round", byoc_onnx__call1(st, "clip", zp, &clip), NULL), BYOC_UINT8);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_string(st->m, &a, "out_dtype", "uint8");
    byoc_node *args[3] = {x, scale, zp};
    c->out[0] = byoc_onnx__call(st, "qnn.quantize", args, 3, &a);
    if (c->nout > 1) c->out[1] = scale;
    if (c->nout > 2) c->out[2] = zp;
    return BYOC_ONNX__OK(c);
}

/* the int32 convolution of ConvInteger and QLinearConv: qnn.conv2d on (x, w) with their zero points and
   scales; rank-3 (1-D) convolutions run as 2-D ones of unit height */
BYOC__PRIVATE byoc_node *byoc_onnx__qconv(byoc_onnx__ctx *c, byoc_node *x, byoc_node *w, byoc_node *xz, byoc_node *wz,
                                          byoc_node *xs, byoc_node *ws, byoc_onnx__window *win) {
    byoc_onnx__state *st = c->st;
    const byoc_type *tx = byoc_onnx__tensor_of(st, x, "x"), *tw = tx ? byoc_onnx__tensor_of(st, w, "w") : NULL;
    if (!tw) return NULL;
    if (tw->rank != tx->rank) {
        byoc_onnx__fail(st, BYOC_ERR_TYPE, "w has rank %d, x has rank %d", tw->rank, tx->rank);
        return NULL;
    }
    if (!byoc_onnx__window_attrs(c, tx, tw->dims + 2, win)) return NULL;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_onnx__set_window(st, &a, win, "kernel_size");
    byoc_attrs_set_int(st->m, &a, "groups", byoc_onnx__attr_int(c, "group", 1));
    byoc_attrs_set_int(st->m, &a, "channels", tw->dims[0]);
    byoc_node *args[6] = {byoc_onnx__to_2d(st, x), byoc_onnx__to_2d(st, w), xz, wz, xs, ws};
    return byoc_onnx__call(st, "qnn.conv2d", args, 6, &a);
}

BYOC__PRIVATE byoc_result byoc_onnx__conv_integer(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *x = byoc_onnx__input(c, 0, "x"), *w = byoc_onnx__input(c, 1, "w");
    const byoc_type *tx = byoc_onnx__type(x), *tw = byoc_onnx__type(w);
    if (!tx || !tw) return BYOC_ONNX__OK(c);
    byoc_node *one = byoc_onnx__scalar(st, BYOC_FLOAT32, 1); /* no scales: the result is the raw int32 sum */
    byoc_onnx__window win;
    byoc_node *y = byoc_onnx__qconv(c, x, w, byoc_onnx__zero_point(c, 2, tx->dtype),
                                    byoc_onnx__zero_point(c, 3, tw->dtype), one, one, &win);
    if (y) c->out[0] = byoc_onnx__from_2d(st, y, &win);
    return BYOC_ONNX__OK(c);
}

/* y = requantize(acc, a_scale * b_scale, 0, y_scale, y_zero_point): ONNX Runtime's arithmetic (the multiplier
   a_scale * b_scale / y_scale and the product in float32, ties to even) */
BYOC__PRIVATE byoc_node *byoc_onnx__requantize(byoc_onnx__ctx *c, byoc_node *acc, byoc_node *a_scale,
                                               byoc_node *b_scale, byoc_node *y_scale, byoc_node *y_zp, int axis) {
    byoc_onnx__state *st = c->st;
    const byoc_type *tz = byoc_onnx__type(y_zp);
    if (!acc || !tz) return NULL;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(st->m, &a, "axis", axis);
    byoc_attrs_set_string(st->m, &a, "rounding", "TONEAREST_EVEN");
    byoc_attrs_set_string(st->m, &a, "compute_dtype", "float32");
    byoc_attrs_set_string(st->m, &a, "out_dtype", byoc_dtype_name(tz->dtype));
    byoc_node *args[5] = {acc, byoc_onnx__call2(st, "multiply", a_scale, b_scale, NULL),
                          byoc_onnx__scalar(st, BYOC_INT32, 0), y_scale, y_zp};
    return byoc_onnx__call(st, "qnn.requantize", args, 5, &a);
}

/* QLinearConv's and QLinearMatMul's three (scale, zero point) pairs: (x, w, y) or (a, b, y) */
BYOC__PRIVATE int byoc_onnx__qlinear_params_ok(byoc_onnx__ctx *c, byoc_node *const *in, const char *const *names) {
    const byoc_type *tx = byoc_onnx__type(in[0]), *tw = byoc_onnx__type(in[3]);
    return byoc_onnx__qpair_ok(c, in[1], names[1], in[2], names[2], tx ? tx->dtype : BYOC_DTYPE_INVALID) &&
           byoc_onnx__qpair_ok(c, in[4], names[4], in[5], names[5], tw ? tw->dtype : BYOC_DTYPE_INVALID) &&
           byoc_onnx__qpair_ok(c, in[6], names[6], NULL, NULL, BYOC_DTYPE_INVALID);
}

/* QLinearConv(x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point[, B]) */
BYOC__PRIVATE byoc_result byoc_onnx__qlinear_conv(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    static const char *const names[8] = {"x", "x_scale", "x_zero_point", "w", "w_scale", "w_zero_point", "y_scale",
                                         "y_zero_point"};
    byoc_node *in[8];
    for (int i = 0; i < 8; ++i)
        if (!(in[i] = byoc_onnx__input(c, i, names[i]))) return BYOC_ONNX__OK(c);
    if (!byoc_onnx__qlinear_params_ok(c, in, names)) return BYOC_ONNX__OK(c);
    byoc_onnx__window win;
    byoc_node *acc = byoc_onnx__qconv(c, in[0], in[3], in[2], in[5], in[1], in[4], &win);
    if (acc && c->nin > 8 && c->in[8]) acc = byoc_onnx__call2(st, "nn.bias_add", acc, c->in[8], NULL);
    byoc_node *y = byoc_onnx__requantize(c, acc, in[1], in[4], in[6], in[7], 1);
    if (y) c->out[0] = byoc_onnx__from_2d(st, y, &win);
    return BYOC_ONNX__OK(c);
}

/* MatMulInteger and QLinearMatMul: qnn.matmul (numpy's broadcasting); a 1-D operand is a row (A) or a
   column (B) whose unit axis leaves the result, as in numpy's matmul */
BYOC__PRIVATE byoc_node *byoc_onnx__qmatmul(byoc_onnx__ctx *c, byoc_node *a, byoc_node *b, byoc_node *az, byoc_node *bz,
                                            byoc_node *as, byoc_node *bs) {
    byoc_onnx__state *st = c->st;
    const byoc_type *ta = byoc_onnx__tensor_of(st, a, "A"), *tb = ta ? byoc_onnx__tensor_of(st, b, "B") : NULL;
    if (!tb) return NULL;
    if (ta->rank < 1 || tb->rank < 1) {
        byoc_onnx__fail(st, BYOC_ERR_TYPE, "A and B must have rank >= 1 (A has rank %d, B rank %d)", ta->rank,
                        tb->rank);
        return NULL;
    }
    const byoc_type *tz = byoc_onnx__type(az);
    if (tz && (tz->rank > 1 || byoc_type_num_elements(tz) != 1)) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "a per-row zero point of A is not supported (one element only)");
        return NULL;
    }
    int a_row = ta->rank == 1, b_column = tb->rank == 1;
    int64_t row[2] = {1, ta->dims[0]}, column[2] = {tb->dims[0], 1};
    byoc_node *args[6] = {a_row ? byoc_onnx__reshape(st, a, 2, row) : a,
                          b_column ? byoc_onnx__reshape(st, b, 2, column) : b, az, bz, as, bs};
    byoc_node *y = byoc_onnx__call(st, "qnn.matmul", args, 6, NULL);
    const byoc_type *ty = byoc_onnx__type(y);
    if (!ty || (!a_row && !b_column)) return y;
    int64_t dims[BYOC_MAX_RANK];
    int rank = 0;
    for (int d = 0; d < ty->rank; ++d)
        if (!(a_row && d == ty->rank - 2) && !(b_column && d == ty->rank - 1)) dims[rank++] = ty->dims[d];
    return byoc_onnx__reshape(st, y, rank, dims);
}

BYOC__PRIVATE byoc_result byoc_onnx__matmul_integer(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *a = byoc_onnx__input(c, 0, "A"), *b = byoc_onnx__input(c, 1, "B");
    const byoc_type *ta = byoc_onnx__type(a), *tb = byoc_onnx__type(b);
    if (!ta || !tb) return BYOC_ONNX__OK(c);
    byoc_node *one = byoc_onnx__scalar(st, BYOC_FLOAT32, 1);
    c->out[0] = byoc_onnx__qmatmul(c, a, b, byoc_onnx__zero_point(c, 2, ta->dtype),
                                   byoc_onnx__zero_point(c, 3, tb->dtype), one, one);
    return BYOC_ONNX__OK(c);
}

/* QLinearMatMul(a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point) */
BYOC__PRIVATE byoc_result byoc_onnx__qlinear_matmul(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    static const char *const names[8] = {"a", "a_scale", "a_zero_point", "b", "b_scale", "b_zero_point", "y_scale",
                                         "y_zero_point"};
    byoc_node *in[8];
    for (int i = 0; i < 8; ++i)
        if (!(in[i] = byoc_onnx__input(c, i, names[i]))) return BYOC_ONNX__OK(c);
    if (!byoc_onnx__qlinear_params_ok(c, in, names)) return BYOC_ONNX__OK(c);
    const byoc_type *as = byoc_onnx__type(in[1]);
    if (as && (as->rank > 1 || byoc_type_num_elements(as) != 1))
        return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "a per-row a_scale is not supported (one element only)");
    byoc_node *acc = byoc_onnx__qmatmul(c, in[0], in[3], in[2], in[5], in[1], in[4]);
    c->out[0] = byoc_onnx__requantize(c, acc, in[1], in[4], in[6], in[7], -1);
    return BYOC_ONNX__OK(c);
}

/* ---- ONNX Runtime's com.microsoft QOperator ops (contrib_defs.cc / quantization_defs.cc schemas) ----
   Each takes its tensors' scales and zero points as inputs; an absent zero point is 0 of the data's type.
   Scales must be float32 and zero points of the data's type (ORT's kernels enforce both); a constant scale
   must be positive and finite. */

/* input i as a quantization parameter of the 8-bit data xt: a one-element float32 scale (want_scale) or a
   zero point of xt's dtype (absent: 0); NULL after an error naming it */
BYOC__PRIVATE byoc_node *byoc_onnx__qparam(byoc_onnx__ctx *c, int i, const byoc_type *xt, int want_scale,
                                           const char *what) {
    byoc_onnx__state *st = c->st;
    byoc_node *p = want_scale ? byoc_onnx__input(c, i, what) : byoc_onnx__zero_point(c, i, xt->dtype);
    const byoc_type *t = p ? byoc_onnx__tensor_of(st, p, what) : NULL;
    if (!t) return NULL;
    if (t->rank > 1 || byoc_type_num_elements(t) != 1) {
        char buf[128];
        byoc_type_to_string(t, buf, sizeof buf);
        byoc_onnx__fail(st, BYOC_ERR_TYPE, "%s is %s: it must have one element (per-tensor quantization)", what, buf);
        return NULL;
    }
    if (want_scale && t->dtype != BYOC_FLOAT32) {
        byoc_onnx__fail(st, BYOC_ERR_TYPE, "%s must be float32, got %s", what, byoc_dtype_name(t->dtype));
        return NULL;
    }
    if (!want_scale && t->dtype != xt->dtype) {
        byoc_onnx__fail(st, BYOC_ERR_TYPE, "%s is %s but its data is %s: they must have the same type", what,
                        byoc_dtype_name(t->dtype), byoc_dtype_name(xt->dtype));
        return NULL;
    }
    if (want_scale && p->kind == BYOC_NODE_CONSTANT) {
        double s = byoc__load(t->dtype, p->data, 0);
        if (!(s > 0) || s > 3.4e38) {
            byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "%s is %g: a scale must be positive and finite", what, s);
            return NULL;
        }
    }
    return p;
}
/* input i as 8-bit data (int8 or uint8), or NULL after an error naming it */
BYOC__PRIVATE const byoc_type *byoc_onnx__q8_input(byoc_onnx__ctx *c, int i, const char *what, byoc_node **x) {
    *x = byoc_onnx__input(c, i, what);
    const byoc_type *t = *x ? byoc_onnx__tensor_of(c->st, *x, what) : NULL;
    if (t && !byoc__is_q8(t->dtype)) {
        byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "%s is %s: only int8 and uint8 are supported", what,
                        byoc_dtype_name(t->dtype));
        return NULL;
    }
    return t;
}

/* QLinearAdd, QLinearMul(A, A_scale, A_zero_point, B, B_scale, B_zero_point, C_scale, C_zero_point) */
BYOC__PRIVATE byoc_result byoc_onnx__qlinear_binary(byoc_onnx__ctx *c, const char *op) {
    static const char *const names[8] = {"A", "A_scale", "A_zero_point", "B", "B_scale", "B_zero_point", "C_scale",
                                         "C_zero_point"};
    byoc_node *a, *b, *args[8];
    const byoc_type *ta = byoc_onnx__q8_input(c, 0, "A", &a), *tb = ta ? byoc_onnx__q8_input(c, 3, "B", &b) : NULL;
    if (!tb) return BYOC_ONNX__OK(c);
    if (ta->dtype != tb->dtype)
        return byoc_onnx__fail(c->st, BYOC_ERR_TYPE, "A is %s and B is %s: they must have the same type",
                               byoc_dtype_name(ta->dtype), byoc_dtype_name(tb->dtype));
    args[0] = a;
    args[1] = b;
    static const int order[6] = {1, 2, 4, 5, 6, 7}; /* TVM's: lhs, rhs, then (scale, zero point) per operand */
    for (int i = 0; i < 6; ++i)
        if (!(args[2 + i] = byoc_onnx__qparam(c, order[i], ta, i % 2 == 0, names[order[i]]))) return BYOC_ONNX__OK(c);
    c->out[0] = byoc_onnx__call(c->st, op, args, 8, NULL); /* the entry's op: qnn.add or qnn.mul */
    return BYOC_ONNX__OK(c);
}

/* QLinearConcat(Y_scale, Y_zero_point, X0, X0_scale, X0_zero_point, X1, ...) with attribute axis: every input
   of Y's type (ORT's kernel requires it) */
BYOC__PRIVATE byoc_result byoc_onnx__qlinear_concat(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    if (c->nin < 5 || (c->nin - 2) % 3)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT,
                               "has %d inputs: it takes Y_scale, Y_zero_point, then (tensor, scale, zero point) "
                               "triples", c->nin);
    byoc_node *x0;
    const byoc_type *t0 = byoc_onnx__q8_input(c, 2, "X0", &x0);
    if (!t0) return BYOC_ONNX__OK(c);
    if (!byoc_onnx__attr_get(c, "axis")) return byoc_onnx__fail(st, BYOC_ERR_ATTR, "QLinearConcat needs an axis");
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", 0), t0->rank, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
    int n = (c->nin - 2) / 3;
    byoc_node **parts[3] = {NULL, NULL, NULL};
    byoc_node *y_scale = byoc_onnx__qparam(c, 0, t0, 1, "Y_scale");
    byoc_node *y_zp = y_scale ? byoc_onnx__qparam(c, 1, t0, 0, "Y_zero_point") : NULL;
    for (int i = 0; y_zp && i < n && !st->diag->code; ++i) {
        char what[3][32];
        snprintf(what[0], sizeof what[0], "X%d", i);
        snprintf(what[1], sizeof what[1], "X%d_scale", i);
        snprintf(what[2], sizeof what[2], "X%d_zero_point", i);
        byoc_node *x;
        const byoc_type *t = byoc_onnx__q8_input(c, 2 + 3 * i, what[0], &x);
        if (t && t->dtype != t0->dtype)
            byoc_onnx__fail(st, BYOC_ERR_TYPE, "%s is %s, X0 is %s: QLinearConcat's inputs share one type", what[0],
                            byoc_dtype_name(t->dtype), byoc_dtype_name(t0->dtype));
        byoc_node *s = t ? byoc_onnx__qparam(c, 3 + 3 * i, t, 1, what[1]) : NULL;
        byoc_node *z = s ? byoc_onnx__qparam(c, 4 + 3 * i, t, 0, what[2]) : NULL;
        if (!z) break;
        stbds_arrput(parts[0], x);
        stbds_arrput(parts[1], s);
        stbds_arrput(parts[2], z);
    }
    if (!st->diag->code && y_zp) {
        byoc_node *args[5];
        for (int k = 0; k < 3; ++k) {
            args[k] = byoc_tuple(st->m, parts[k], n);
            if (args[k]) byoc_infer_node_type(st->m, args[k], st->diag);
        }
        args[3] = y_scale;
        args[4] = y_zp;
        byoc_attrs a;
        memset(&a, 0, sizeof a);
        byoc_attrs_set_int(st->m, &a, "axis", axis);
        if (!st->diag->code) c->out[0] = byoc_onnx__call(st, "qnn.concatenate", args, 5, &a);
    }
    for (int k = 0; k < 3; ++k) stbds_arrfree(parts[k]);
    return BYOC_ONNX__OK(c);
}

/* the five inputs (X, X_scale, X_zero_point, Y_scale, Y_zero_point) of the unary QOperator ops as the qnn op's
   arguments; 0 after an error naming the input */
BYOC__PRIVATE const byoc_type *byoc_onnx__qunary_args(byoc_onnx__ctx *c, byoc_node **args) {
    static const char *const names[5] = {"X", "X_scale", "X_zero_point", "Y_scale", "Y_zero_point"};
    const byoc_type *tx = byoc_onnx__q8_input(c, 0, names[0], &args[0]);
    for (int i = 1; tx && i < 5; ++i)
        if (!(args[i] = byoc_onnx__qparam(c, i, tx, i % 2 == 1, names[i]))) return NULL;
    if (tx && byoc_onnx__attr_int(c, "channels_last", 0)) {
        byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "channels_last 1 (NHWC) is not supported: NCHW only");
        return NULL;
    }
    return tx;
}

/* QLinearSigmoid, QLinearLeakyRelu (alpha, default 0.01) */
BYOC__PRIVATE byoc_result byoc_onnx__qlinear_activation(byoc_onnx__ctx *c, const char *op) {
    byoc_node *args[5];
    if (!byoc_onnx__qunary_args(c, args)) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    if (!strcmp(op, "qnn.leaky_relu"))
        byoc_attrs_set_float(c->st->m, &a, "alpha", byoc_onnx__attr_float(c, "alpha", 0.01));
    c->out[0] = byoc_onnx__call(c->st, op, args, 5, &a);
    return BYOC_ONNX__OK(c);
}

/* QLinearAveragePool (AveragePool's attributes; 1-D and 2-D windows) and QLinearGlobalAveragePool (rank 4) */
BYOC__PRIVATE byoc_result byoc_onnx__qlinear_pool(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    byoc_node *args[5];
    const byoc_type *tx = byoc_onnx__qunary_args(c, args);
    if (!tx) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    if (!strcmp(op, "qnn.global_avg_pool2d")) {
        if (tx->rank != 4)
            return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "X has rank %d: only NCHW (rank 4) is supported",
                                   tx->rank);
        c->out[0] = byoc_onnx__call(st, op, args, 5, NULL);
        return BYOC_ONNX__OK(c);
    }
    if (tx->rank != 3 && tx->rank != 4)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "X has rank %d: 1-D and 2-D pools (rank 3 or 4) only",
                               tx->rank);
    byoc_onnx__window win;
    if (!byoc_onnx__window_attrs(c, tx, NULL, &win)) return BYOC_ONNX__OK(c);
    byoc_onnx__set_window(st, &a, &win, "pool_size");
    byoc_attrs_set_bool(st->m, &a, "ceil_mode", (int)byoc_onnx__attr_int(c, "ceil_mode", 0));
    byoc_attrs_set_bool(st->m, &a, "count_include_pad", (int)byoc_onnx__attr_int(c, "count_include_pad", 0));
    args[0] = byoc_onnx__to_2d(st, args[0]);
    byoc_node *y = byoc_onnx__call(st, op, args, 5, &a);
    if (y) c->out[0] = byoc_onnx__from_2d(st, y, &win);
    return BYOC_ONNX__OK(c);
}

/* QLinearSoftmax (axis; opset, the Softmax version it stands for: before 13 the input is seen as 2-D, the
   axes from axis on flattened into one) */
BYOC__PRIVATE byoc_result byoc_onnx__qlinear_softmax(byoc_onnx__ctx *c, const char *op) {
    byoc_onnx__state *st = c->st;
    byoc_node *args[5];
    const byoc_type *tx = byoc_onnx__qunary_args(c, args);
    if (!tx) return BYOC_ONNX__OK(c);
    if (!byoc_onnx__attr_get(c, "opset"))
        return byoc_onnx__fail(st, BYOC_ERR_ATTR, "QLinearSoftmax needs its opset attribute");
    int before13 = byoc_onnx__attr_int(c, "opset", 13) < 13;
    if (tx->rank < 1) return byoc_onnx__fail(st, BYOC_ERR_TYPE, "X must have rank >= 1");
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", before13 ? 1 : -1), tx->rank, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    if (!before13 || axis == tx->rank - 1) {
        byoc_attrs_set_int(st->m, &a, "axis", axis);
        c->out[0] = byoc_onnx__call(st, op, args, 5, &a);
        return BYOC_ONNX__OK(c);
    }
    int64_t flat[2] = {1, 1};
    for (int d = 0; d < tx->rank; ++d) flat[d >= axis] *= tx->dims[d];
    args[0] = byoc_onnx__reshape(st, args[0], 2, flat);
    byoc_attrs_set_int(st->m, &a, "axis", 1);
    byoc_node *y = byoc_onnx__call(st, op, args, 5, &a);
    if (y) c->out[0] = byoc_onnx__reshape(st, y, tx->rank, tx->dims);
    return BYOC_ONNX__OK(c);
}

// [SECTION] impl: op converters: control flow
/* (converters: cflow) If, Loop and Scan. A subgraph converts like the main graph, node by node, inside a
   scope of its own; what it takes from enclosing graphs arrives through captures, so each body is a
   closed function and byoc.h's passes see the control node as one node over its inputs. */
#define BYOC_ONNX__MAX_GRAPH_DEPTH 16 /* subgraphs inside subgraphs: deeper is taken for a hostile file */
#define BYOC_ONNX__MAX_SCAN 16        /* scan inputs, and scan outputs, of one Scan */

BYOC__PRIVATE byoc_result byoc_onnx__check_ops(byoc_onnx__state *st, const byoc_onnx__graph *g, int opset);
BYOC__PRIVATE byoc_result byoc_onnx__convert_nodes(byoc_onnx__state *st, const byoc_onnx__graph *g, int *nfolded);
BYOC__PRIVATE byoc_node *byoc_onnx__lookup(byoc_onnx__state *st, byoc_onnx__bytes name);
BYOC__PRIVATE void byoc_onnx__define(byoc_onnx__state *st, byoc_onnx__bytes name, byoc_node *value);

/* the capture parameter of scope sc for an outer value, made on first use (a constant needs none) */
BYOC__PRIVATE byoc_node *byoc_onnx__capture(byoc_onnx__state *st, byoc_onnx__scope *sc, byoc_node *outer,
                                            const char *name) {
    if (!outer || outer->kind == BYOC_NODE_CONSTANT) return outer;
    for (int i = 0; i < (int)stbds_arrlen(sc->captured); ++i)
        if (sc->captured[i] == outer) return sc->params[i];
    const byoc_type *t = byoc_onnx__type(outer);
    byoc_node *v = byoc_var(st->m, name, NULL); /* unannotated, as the text format reads it back */
    if (!v) return NULL;
    v->checked_type = t;
    char span[300];
    snprintf(span, sizeof span, "onnx:%s", name);
    byoc_node_set_span(st->m, v, span, NULL, 0, 0);
    stbds_arrput(sc->captured, outer);
    stbds_arrput(sc->params, v);
    return v;
}

/* ONNX scoping: a name a subgraph does not define is the innermost enclosing graph's; every subgraph
   between that graph and this one captures it */
BYOC__PRIVATE byoc_node *byoc_onnx__outer_lookup(byoc_onnx__state *st, const char *key) {
    int depth = (int)stbds_arrlen(st->scopes);
    for (int level = depth - 1; level >= 0; --level) {
        ptrdiff_t i = stbds_shgeti(st->scopes[level].outer, key);
        if (i < 0) continue;
        byoc_node *v = st->scopes[level].outer[i].value;
        for (int k = level; v && k < depth; ++k) v = byoc_onnx__capture(st, &st->scopes[k], v, key);
        return v;
    }
    return NULL;
}

/* A subgraph being converted: begin (decode, enter its scope, define its initializers), then the caller
   defines its formal inputs, then end (convert its nodes, collect its outputs, leave the scope). */
typedef struct byoc_onnx__body {
    const char *attr;
    byoc_onnx__graph g;
    byoc_node **lead;    /* stb_ds: the body function's parameters before the captures */
    byoc_node **results; /* stb_ds: the subgraph's outputs */
    byoc_onnx__scope scope;
    /* the state of the node being converted, restored at the end */
    const byoc_onnx__node *node;
    int node_index;
    const char *span;
    byoc_node **built;
    int entered;
} byoc_onnx__body;

BYOC__PRIVATE void byoc_onnx__body_free(byoc_onnx__body *b) {
    byoc_onnx__graph_free(&b->g);
    stbds_arrfree(b->lead);
    stbds_arrfree(b->results);
    stbds_arrfree(b->scope.captured);
    stbds_arrfree(b->scope.params);
}

/* leaves the subgraph's scope: the enclosing graph's values and node come back */
BYOC__PRIVATE void byoc_onnx__body_leave(byoc_onnx__state *st, byoc_onnx__body *b) {
    if (!b->entered) return;
    b->entered = 0;
    b->scope = stbds_arrpop(st->scopes);
    stbds_shfree(st->values);
    st->values = b->scope.outer;
    b->scope.outer = NULL;
    stbds_arrfree(st->built);
    st->built = b->built;
    st->node = b->node;
    st->node_index = b->node_index;
    st->span = b->span;
}

BYOC__PRIVATE byoc_result byoc_onnx__body_begin(byoc_onnx__ctx *c, const char *attr, int ninputs,
                                                byoc_onnx__body *b) {
    byoc_onnx__state *st = c->st;
    memset(b, 0, sizeof *b);
    b->attr = attr;
    const byoc_onnx__attr *a = byoc_onnx__attr_get(c, attr);
    if (!a || !a->has_g)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "the graph attribute %s is missing", attr);
    if ((int)stbds_arrlen(st->scopes) >= BYOC_ONNX__MAX_GRAPH_DEPTH)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "subgraphs nest more than %d deep",
                               BYOC_ONNX__MAX_GRAPH_DEPTH);
    byoc_result r = byoc_onnx__parse_graph(st, a->g, &b->g);
    if (r == BYOC_OK && b->g.sparse_initializers)
        r = byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%s: sparse initializers are not supported", attr);
    if (r == BYOC_OK && (int)stbds_arrlen(b->g.inputs) != ninputs)
        r = byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "%s takes %d inputs, expected %d", attr,
                            (int)stbds_arrlen(b->g.inputs), ninputs);
    if (r == BYOC_OK) r = byoc_onnx__check_ops(st, &b->g, st->opset);
    if (r != BYOC_OK) { /* nothing of it stays: callers free only what began */
        byoc_onnx__body_free(b);
        memset(b, 0, sizeof *b);
        return r;
    }
    b->node = st->node;
    b->node_index = st->node_index;
    b->span = st->span;
    b->built = st->built;
    st->built = NULL;
    byoc_onnx__scope sc;
    memset(&sc, 0, sizeof sc);
    sc.outer = st->values;
    sc.holder = st->node;
    sc.holder_index = st->node_index;
    sc.attr = attr;
    stbds_arrput(st->scopes, sc);
    st->values = NULL;
    BYOC__SH_NEW_STRDUP(st->values); /* under byoc.h's seed lock: models may load on several threads */
    b->entered = 1;
    for (int i = 0; r == BYOC_OK && i < (int)stbds_arrlen(b->g.initializers); ++i) {
        byoc_onnx__tensor t;
        r = byoc_onnx__parse_tensor(st, b->g.initializers[i], &t);
        if (r != BYOC_OK) break;
        byoc_node *k = byoc_onnx__tensor_constant(st, &t, "a subgraph initializer");
        if (k) {
            k->checked_type = k->annotation;
            byoc_onnx__define(st, t.name, k);
        } else r = st->diag->code ? st->diag->code : BYOC_ERR_INTERNAL;
        byoc_onnx__tensor_free(&t);
    }
    if (r != BYOC_OK) {
        byoc_onnx__body_leave(st, b);
        byoc_onnx__body_free(b);
        memset(b, 0, sizeof *b);
    }
    return r;
}

/* a formal input of the subgraph bound to a new leading parameter of type t */
BYOC__PRIVATE byoc_node *byoc_onnx__body_input(byoc_onnx__state *st, byoc_onnx__body *b, int i, const byoc_type *t) {
    const char *name = byoc_onnx__str(st, b->g.inputs[i].name);
    byoc_node *v = byoc_var(st->m, name ? name : "input", t);
    if (!v) return NULL;
    v->checked_type = t;
    char span[300];
    snprintf(span, sizeof span, "onnx:%s", name ? name : "input");
    byoc_node_set_span(st->m, v, span, NULL, 0, 0);
    stbds_arrput(b->lead, v);
    byoc_onnx__define(st, b->g.inputs[i].name, v);
    return v;
}

BYOC__PRIVATE byoc_result byoc_onnx__body_end(byoc_onnx__state *st, byoc_onnx__body *b) {
    int nfolded = 0;
    byoc_result r = byoc_onnx__convert_nodes(st, &b->g, &nfolded);
    st->nfolded += nfolded; /* the model's count covers subgraphs */
    for (int i = 0; r == BYOC_OK && i < (int)stbds_arrlen(b->g.outputs); ++i) {
        byoc_node *v = byoc_onnx__lookup(st, b->g.outputs[i].name);
        if (!v) {
            const char *name = byoc_onnx__str(st, b->g.outputs[i].name);
            st->node = b->node;
            r = byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "%s: output '%s' is not defined in it or around it",
                                b->attr, name ? name : "?");
        } else stbds_arrput(b->results, v);
    }
    byoc_onnx__body_leave(st, b);
    return r;
}

/* the body function: leading parameters, then one per value of `all` (the control node's captures: a
   value this body does not use gets a parameter it ignores) */
BYOC__PRIVATE byoc_node *byoc_onnx__body_function(byoc_onnx__state *st, const byoc_onnx__body *b, byoc_node *root,
                                                  byoc_node *const *all, int nall) {
    byoc_node **params = NULL;
    if (!root) return NULL;
    for (int i = 0; i < (int)stbds_arrlen(b->lead); ++i) stbds_arrput(params, b->lead[i]);
    for (int i = 0; i < nall; ++i) {
        byoc_node *v = NULL;
        for (int k = 0; k < (int)stbds_arrlen(b->scope.captured) && !v; ++k)
            if (b->scope.captured[k] == all[i]) v = b->scope.params[k];
        if (!v && (v = byoc_var(st->m, "unused", NULL)) != NULL) v->checked_type = byoc_onnx__type(all[i]);
        stbds_arrput(params, v);
    }
    byoc_node *fn = byoc_function(st->m, params, (int)stbds_arrlen(params), root, NULL, NULL);
    stbds_arrfree(params);
    return fn;
}

/* a body's outputs as one value: the output itself (unless as_tuple), or the tuple of them */
BYOC__PRIVATE byoc_node *byoc_onnx__body_root(byoc_onnx__state *st, byoc_onnx__body *b, int as_tuple) {
    int n = (int)stbds_arrlen(b->results);
    if (n == 1 && !as_tuple) return b->results[0];
    byoc_node *t = byoc_tuple(st->m, b->results, n);
    if (t) byoc_node_set_span(st->m, t, b->span, NULL, 0, 0);
    return t;
}

/* a one-element tensor (shape () or (1)) as a scalar of type dt */
BYOC__PRIVATE byoc_node *byoc_onnx__as_scalar(byoc_onnx__state *st, byoc_node *x, byoc_dtype dt, const char *what) {
    const byoc_type *t = byoc_onnx__type(x);
    if (!t || t->kind != BYOC_TYPE_TENSOR || t->dtype != dt || byoc_type_num_elements(t) != 1) {
        char ts[160];
        byoc_type_to_string(t, ts, sizeof ts);
        byoc_onnx__fail(st, BYOC_ERR_TYPE, "%s has type %s, expected one %s", what, ts, byoc_dtype_name(dt));
        return NULL;
    }
    int64_t none[1] = {0};
    return byoc_onnx__reshape(st, x, 0, none);
}

/* the control node typed, noted for its span, and its outputs projected */
BYOC__PRIVATE byoc_result byoc_onnx__control_outputs(byoc_onnx__ctx *c, byoc_node *n, int tuple, int nout) {
    byoc_onnx__state *st = c->st;
    if (!n) {
        const byoc_diag *e = byoc_module_error(st->m);
        return byoc_onnx__fail(st, e ? e->code : BYOC_ERR_INTERNAL, "%s", e ? e->message : "cannot build it");
    }
    byoc_diag td;
    memset(&td, 0, sizeof td);
    if (byoc_infer_node_type(st->m, n, &td) != BYOC_OK) {
        const char *why = strstr(td.message, " in @main: ");
        return byoc_onnx__fail(st, BYOC_ERR_TYPE, "%s", why ? why + 11 : td.message);
    }
    byoc_onnx__note(st, n);
    for (int i = 0; i < nout && i < c->nout; ++i) {
        c->out[i] = tuple ? byoc_onnx__note(st, byoc_tuple_get_item(st->m, n, i)) : n;
        if (c->out[i] && tuple) c->out[i]->checked_type = n->checked_type->fields[i];
    }
    return BYOC_ONNX__OK(c);
}

/* a body's captures in the order the text format reads them back */
BYOC__PRIVATE void byoc_onnx__canonical(byoc_onnx__body *b, byoc_node *root) {
    if (root) { /* a capture only a dead node of the subgraph reads is dropped (the text would not keep it) */
        int reached = byoc__canonical_captures(root, b->scope.captured, b->scope.params,
                                               (int)stbds_arrlen(b->scope.captured));
        stbds_arrsetlen(b->scope.captured, reached);
        stbds_arrsetlen(b->scope.params, reached);
    }
}

/* the union of two capture lists, in first-use order */
BYOC__PRIVATE byoc_node **byoc_onnx__capture_union(const byoc_onnx__body *a, const byoc_onnx__body *b) {
    byoc_node **all = NULL;
    for (int i = 0; i < (int)stbds_arrlen(a->scope.captured); ++i) stbds_arrput(all, a->scope.captured[i]);
    for (int i = 0; i < (int)stbds_arrlen(b->scope.captured); ++i) {
        int seen = 0;
        for (int k = 0; k < (int)stbds_arrlen(a->scope.captured); ++k)
            seen |= a->scope.captured[k] == b->scope.captured[i];
        if (!seen) stbds_arrput(all, b->scope.captured[i]);
    }
    return all;
}

/* If: both branches take no inputs and give the node's outputs */
BYOC__PRIVATE byoc_result byoc_onnx__if(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *cond = byoc_onnx__as_scalar(st, byoc_onnx__input(c, 0, "cond"), BYOC_BOOL, "the condition");
    if (!cond) return BYOC_ONNX__OK(c);
    byoc_onnx__body tb, eb;
    memset(&eb, 0, sizeof eb);
    byoc_result r = byoc_onnx__body_begin(c, "then_branch", 0, &tb);
    if (r == BYOC_OK) r = byoc_onnx__body_end(st, &tb);
    if (r == BYOC_OK) r = byoc_onnx__body_begin(c, "else_branch", 0, &eb);
    if (r == BYOC_OK) r = byoc_onnx__body_end(st, &eb);
    int nt = (int)stbds_arrlen(tb.results), ne = (int)stbds_arrlen(eb.results);
    if (r == BYOC_OK && (nt != ne || nt != c->nout))
        r = byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "the branches give %d and %d outputs, the node has %d", nt,
                            ne, c->nout);
    if (r == BYOC_OK) {
        byoc_node *troot = byoc_onnx__body_root(st, &tb, 0), *eroot = byoc_onnx__body_root(st, &eb, 0);
        byoc_onnx__canonical(&tb, troot);
        byoc_onnx__canonical(&eb, eroot);
        byoc_node **all = byoc_onnx__capture_union(&tb, &eb);
        int nall = (int)stbds_arrlen(all);
        byoc_node *tf = byoc_onnx__body_function(st, &tb, troot, all, nall);
        byoc_node *ef = byoc_onnx__body_function(st, &eb, eroot, all, nall);
        r = byoc_onnx__control_outputs(c, byoc_if(st->m, cond, tf, ef, all, nall), nt > 1, nt);
        stbds_arrfree(all);
    }
    byoc_onnx__body_free(&tb);
    byoc_onnx__body_free(&eb);
    return r;
}

/* A carried sequence's type inside a loop body: elements of any rank (of its dtype), since the body may add
   elements of other shapes or ranks each iteration (ONNX's test_loop13_seq and test_loop16_seq_none do) */
BYOC__PRIVATE const byoc_type *byoc_onnx__carried_type(byoc_onnx__state *st, const byoc_type *t) {
    if (byoc__is_empty_sequence_type(t)) return t; /* left to type inference: see byoc_onnx__loop */
    if (t && t->kind == BYOC_TYPE_SEQUENCE) return byoc_sequence_type(st->m, t->dtype, NULL);
    if (t && t->kind == BYOC_TYPE_OPTIONAL && t->fields[0]->kind == BYOC_TYPE_SEQUENCE)
        return byoc_optional_type(st->m, byoc_sequence_type(st->m, t->fields[0]->dtype, NULL));
    return t;
}

/* Loop: (M, cond, carried...) with a body (iteration, cond, carried...) -> (cond, carried..., scans...) */
BYOC__PRIVATE byoc_result byoc_onnx__loop(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    int nc = c->nin > 2 ? c->nin - 2 : 0;
    byoc_node *trip = c->nin > 0 && c->in[0] ? byoc_onnx__as_scalar(st, c->in[0], BYOC_INT64, "the trip count M")
                                             : byoc_onnx__scalar(st, BYOC_INT64, 0);
    if (trip && !(c->nin > 0 && c->in[0])) { int64_t big = INT64_MAX; memcpy(trip->data, &big, 8); } /* no limit */
    byoc_node *cond = c->nin > 1 && c->in[1] ? byoc_onnx__as_scalar(st, c->in[1], BYOC_BOOL, "the condition")
                                             : byoc_onnx__scalar(st, BYOC_BOOL, 1);
    if (!trip || !cond) return BYOC_ONNX__OK(c);
    for (int i = 0; i < nc; ++i)
        if (!c->in[2 + i]) return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "loop-carried value %d is omitted", i);
    byoc_onnx__body b;
    byoc_result r = byoc_onnx__body_begin(c, "body", 2 + nc, &b);
    if (r != BYOC_OK) return r;
    int ok = byoc_onnx__body_input(st, &b, 0, byoc_tensor_type(st->m, BYOC_INT64, 0, NULL)) &&
             byoc_onnx__body_input(st, &b, 1, byoc_tensor_type(st->m, BYOC_BOOL, 0, NULL));
    for (int i = 0; ok && i < nc; ++i) {
        byoc_node *v = byoc_onnx__body_input(st, &b, 2 + i, byoc_onnx__carried_type(st, byoc_onnx__type(c->in[2 + i])));
        /* a sequence entering empty (SequenceEmpty) takes the type of what the body adds: its parameter stays
           undeclared, so the loop's type inference settles it (a model collecting values, then joining them) */
        if (v && byoc__is_empty_sequence_type(v->checked_type)) v->annotation = NULL;
        ok = v != NULL;
    }
    r = ok ? byoc_onnx__body_end(st, &b) : (byoc_onnx__body_leave(st, &b), BYOC_ONNX__OK(c));
    int nres = (int)stbds_arrlen(b.results);
    if (r == BYOC_OK && nres < 1 + nc)
        r = byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "the body gives %d outputs, expected at least %d", nres,
                            1 + nc);
    if (r == BYOC_OK && nres - 1 != c->nout)
        r = byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "the body gives %d outputs after its condition, the node "
                            "has %d", nres - 1, c->nout);
    if (r == BYOC_OK) { /* the body's next condition as a scalar: built in the body, so inside its scope */
        byoc_node *next = b.results[0];
        const byoc_type *t = byoc_onnx__type(next);
        if (t && t->kind == BYOC_TYPE_TENSOR && t->rank > 0 && byoc_type_num_elements(t) == 1 &&
            t->dtype == BYOC_BOOL) {
            byoc_attrs a;
            memset(&a, 0, sizeof a);
            int64_t none[1] = {0};
            byoc_attrs_set_ints(st->m, &a, "newshape", none, 0);
            next = byoc_call(st->m, "reshape", &next, 1, &a);
            if (next && byoc_infer_node_type(st->m, next, st->diag) == BYOC_OK) b.results[0] = next;
            r = BYOC_ONNX__OK(c);
        }
    }
    if (r == BYOC_OK) {
        byoc_node *root = byoc_onnx__body_root(st, &b, 1);
        byoc_onnx__canonical(&b, root);
        int n = (int)stbds_arrlen(b.scope.captured);
        byoc_node *fn = byoc_onnx__body_function(st, &b, root, b.scope.captured, n);
        byoc_node *loop = byoc_loop(st->m, trip, cond, c->in + 2, nc, fn, b.scope.captured, n);
        r = byoc_onnx__control_outputs(c, loop, 1, nres - 1);
    }
    byoc_onnx__body_free(&b);
    return r;
}

/* What a Scan converts with: its states and scan inputs (batch axis gone, for opset 8), and per scan
   input and output its axis and direction. */
typedef struct byoc_onnx__scan_args {
    byoc_node **states, **scans;
    int nstates, nscans;
    int64_t in_axes[BYOC_ONNX__MAX_SCAN], in_dirs[BYOC_ONNX__MAX_SCAN];
    int64_t out_axes[BYOC_ONNX__MAX_SCAN], out_dirs[BYOC_ONNX__MAX_SCAN];
    int nout_axes, nout_dirs;
} byoc_onnx__scan_args;

/* the scan input k's slice for iteration i (from the end when reversed), built inside the body */
BYOC__PRIVATE byoc_node *byoc_onnx__scan_slice(byoc_onnx__state *st, byoc_onnx__body *b, const byoc_onnx__scan_args *sa,
                                               int k, byoc_node *iter, int64_t length) {
    const char *name = byoc_onnx__str(st, b->g.inputs[sa->nstates + k].name);
    byoc_onnx__scope *inner = &st->scopes[stbds_arrlen(st->scopes) - 1];
    byoc_node *x = byoc_onnx__capture(st, inner, sa->scans[k], name ? name : "scan");
    byoc_node *index = iter;
    if (sa->in_dirs[k]) /* reversed: step i reads slice length - 1 - i */
        index = byoc_onnx__call2(st, "subtract", byoc_onnx__scalar(st, BYOC_INT64, (double)(length - 1)), iter, NULL);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(st->m, &a, "axis", sa->in_axes[k]);
    byoc_node *slice = byoc_onnx__call2(st, "take", x, index, &a);
    if (slice) byoc_node_set_span(st->m, slice, b->span, NULL, 0, 0);
    if (index && index != iter) byoc_node_set_span(st->m, index, b->span, NULL, 0, 0);
    return slice;
}

/* a stacked scan output (iterations on axis 0) reversed and moved to its axis as the node asks */
BYOC__PRIVATE byoc_node *byoc_onnx__scan_output(byoc_onnx__state *st, const byoc_onnx__scan_args *sa, int k,
                                                byoc_node *stacked) {
    const byoc_type *t = byoc_onnx__type(stacked);
    if (!t) return NULL;
    int rank = t->rank;
    if (k < sa->nout_dirs && sa->out_dirs[k]) {
        byoc_attrs a;
        memset(&a, 0, sizeof a);
        byoc_attrs_set_int(st->m, &a, "axis", 0);
        stacked = byoc_onnx__call1(st, "reverse", stacked, &a);
    }
    int64_t axis = k < sa->nout_axes ? sa->out_axes[k] : 0;
    if (axis < -rank || axis >= rank) {
        byoc_onnx__fail(st, BYOC_ERR_ATTR, "scan_output_axes[%d] = %lld is out of range for rank %d", k,
                        (long long)axis, rank);
        return NULL;
    }
    if (axis < 0) axis += rank;
    int perm[BYOC_MAX_RANK];
    for (int j = 0; j < rank; ++j) perm[j] = j < axis ? j + 1 : j == axis ? 0 : j;
    return byoc_onnx__transpose(st, stacked, rank, perm);
}

/* Scan as a loop over the scan axis: states carried, slices taken in the body, outputs stacked */
BYOC__PRIVATE byoc_result byoc_onnx__scan_core(byoc_onnx__ctx *c, byoc_onnx__scan_args *sa, byoc_node **outs) {
    byoc_onnx__state *st = c->st;
    int64_t length = -1;
    for (int k = 0; k < sa->nscans; ++k) {
        const byoc_type *t = byoc_onnx__tensor_of(st, sa->scans[k], "a scan input");
        if (!t) return BYOC_ONNX__OK(c);
        int axis = byoc_onnx__norm_axis(c, sa->in_axes[k], t->rank, "scan_input_axes");
        if (axis < 0) return BYOC_ONNX__OK(c);
        sa->in_axes[k] = axis;
        if (length >= 0 && t->dims[axis] != length)
            return byoc_onnx__fail(st, BYOC_ERR_TYPE, "scan input %d has %lld steps, scan input 0 has %lld", k,
                                   (long long)t->dims[axis], (long long)length);
        length = t->dims[axis];
    }
    if (length < 0) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "Scan has no scan inputs");
    byoc_onnx__body b;
    byoc_result r = byoc_onnx__body_begin(c, "body", sa->nstates + sa->nscans, &b);
    if (r != BYOC_OK) return r;
    const byoc_type *i64 = byoc_tensor_type(st->m, BYOC_INT64, 0, NULL);
    const byoc_type *b8 = byoc_tensor_type(st->m, BYOC_BOOL, 0, NULL);
    byoc_node *iter = byoc_var(st->m, "iteration", i64), *go = byoc_var(st->m, "cond", b8);
    int ok = iter && go;
    if (ok) {
        iter->checked_type = i64;
        go->checked_type = b8;
        stbds_arrput(b.lead, iter);
        stbds_arrput(b.lead, go);
    }
    for (int i = 0; ok && i < sa->nstates; ++i)
        ok = byoc_onnx__body_input(st, &b, i, byoc_onnx__type(sa->states[i])) != NULL;
    for (int k = 0; ok && k < sa->nscans; ++k) {
        byoc_node *slice = byoc_onnx__scan_slice(st, &b, sa, k, iter, length);
        if ((ok = slice != NULL) != 0) byoc_onnx__define(st, b.g.inputs[sa->nstates + k].name, slice);
    }
    r = ok ? byoc_onnx__body_end(st, &b) : (byoc_onnx__body_leave(st, &b), BYOC_ONNX__OK(c));
    int nres = (int)stbds_arrlen(b.results), nscan_out = nres - sa->nstates;
    if (r == BYOC_OK && (nscan_out < 0 || nres != c->nout))
        r = byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "the body gives %d outputs, the node has %d (%d states)",
                            nres, c->nout, sa->nstates);
    if (r == BYOC_OK) {
        byoc_node *always = byoc_onnx__scalar(st, BYOC_BOOL, 1);
        stbds_arrinsn(b.results, 0, 1);
        b.results[0] = always;
        byoc_node *root = byoc_onnx__body_root(st, &b, 1);
        byoc_onnx__canonical(&b, root);
        int n = (int)stbds_arrlen(b.scope.captured);
        byoc_node *fn = byoc_onnx__body_function(st, &b, root, b.scope.captured, n);
        byoc_node *trip = byoc_onnx__scalar(st, BYOC_INT64, (double)length);
        byoc_node *loop = byoc_loop(st->m, trip, byoc_onnx__scalar(st, BYOC_BOOL, 1), sa->states, sa->nstates, fn,
                                    b.scope.captured, n);
        byoc_node **raw = c->out;
        c->out = outs; /* the loop's own outputs first; the node's are made from them below */
        r = byoc_onnx__control_outputs(c, loop, 1, nres);
        c->out = raw;
        for (int k = 0; r == BYOC_OK && k < nscan_out; ++k) {
            outs[sa->nstates + k] = byoc_onnx__scan_output(st, sa, k, outs[sa->nstates + k]);
            r = BYOC_ONNX__OK(c);
        }
    }
    byoc_onnx__body_free(&b);
    return r;
}

BYOC__PRIVATE int byoc_onnx__scan_attr_list(byoc_onnx__ctx *c, const char *name, int64_t *out, int count) {
    for (int i = 0; i < BYOC_ONNX__MAX_SCAN; ++i) out[i] = 0;
    int n = byoc_onnx__attr_ints(c, name, out, BYOC_ONNX__MAX_SCAN);
    if (n == -2) return -1;
    if (n >= 0 && count >= 0 && n != count) {
        byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "%s has %d values, expected %d", name, n, count);
        return -1;
    }
    return n < 0 ? 0 : n;
}

/* Scan: opset 9+ (states, scan inputs; axes and directions per input and output) and opset 8 (an optional
   sequence_lens first, and a batch axis 0 on everything: a batch of one is taken out and put back) */
BYOC__PRIVATE byoc_result byoc_onnx__scan(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_onnx__scan_args sa;
    memset(&sa, 0, sizeof sa);
    int v8 = c->opset < 9, first = v8 ? 1 : 0;
    int64_t nscans = byoc_onnx__attr_int(c, "num_scan_inputs", -1);
    if (nscans < 1 || nscans > BYOC_ONNX__MAX_SCAN || nscans > c->nin - first)
        return byoc_onnx__fail(st, BYOC_ERR_ATTR, "num_scan_inputs %lld is out of range (1 to %d, and the inputs)",
                               (long long)nscans, BYOC_ONNX__MAX_SCAN);
    sa.nscans = (int)nscans;
    sa.nstates = c->nin - first - sa.nscans;
    if (c->nout - sa.nstates > BYOC_ONNX__MAX_SCAN || c->nout < sa.nstates)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%d outputs for %d states", c->nout, sa.nstates);
    if (v8 && c->nin > 0 && c->in[0])
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "Scan's sequence_lens (opset 8) is not supported");
    if (byoc_onnx__scan_attr_list(c, v8 ? "directions" : "scan_input_directions", sa.in_dirs, sa.nscans) < 0 ||
        (!v8 && byoc_onnx__scan_attr_list(c, "scan_input_axes", sa.in_axes, sa.nscans) < 0) ||
        (!v8 &&
         (sa.nout_axes = byoc_onnx__scan_attr_list(c, "scan_output_axes", sa.out_axes, c->nout - sa.nstates)) < 0) ||
        (!v8 && (sa.nout_dirs = byoc_onnx__scan_attr_list(c, "scan_output_directions", sa.out_dirs,
                                                          c->nout - sa.nstates)) < 0))
        return BYOC_ONNX__OK(c);
    byoc_node *small[2 * BYOC_ONNX__MAX_SCAN + 2], **ins = small;
    if (c->nin - first > (int)(sizeof small / sizeof small[0]))
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "Scan with %d inputs (at most %d)", c->nin - first,
                               (int)(sizeof small / sizeof small[0]));
    for (int i = first; i < c->nin; ++i) {
        ins[i - first] = byoc_onnx__input(c, i, "a state or scan input");
        if (!ins[i - first]) return BYOC_ONNX__OK(c);
        if (v8) { /* drop the batch axis */
            const byoc_type *t = byoc_onnx__tensor_of(st, ins[i - first], "a Scan input");
            if (!t) return BYOC_ONNX__OK(c);
            if (t->rank < 1 || t->dims[0] != 1)
                return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "Scan (opset 8) with a batch of %lld: only a batch "
                                       "of 1 is supported", (long long)(t->rank ? t->dims[0] : 0));
            ins[i - first] = byoc_onnx__reshape(st, ins[i - first], t->rank - 1, t->dims + 1);
            if (!ins[i - first]) return BYOC_ONNX__OK(c);
        }
    }
    sa.states = ins;
    sa.scans = ins + sa.nstates;
    byoc_node *outs[2 * BYOC_ONNX__MAX_SCAN + 2];
    byoc_result r = byoc_onnx__scan_core(c, &sa, outs);
    for (int i = 0; r == BYOC_OK && i < c->nout; ++i) {
        c->out[i] = outs[i];
        if (v8 && outs[i]) { /* the batch axis back */
            const byoc_type *t = byoc_onnx__type(outs[i]);
            int64_t dims[BYOC_MAX_RANK];
            dims[0] = 1;
            for (int d = 0; d < t->rank && d + 1 < BYOC_MAX_RANK; ++d) dims[d + 1] = t->dims[d];
            c->out[i] = byoc_onnx__reshape(st, outs[i], t->rank + 1, dims);
        }
        r = BYOC_ONNX__OK(c);
    }
    return r;
}

// [SECTION] impl: op converters: sequences and optionals
/* (converters: sequence) ONNX's sequence and optional ops (onnx/defs/sequence/defs.cc, optional/defs.cc) onto
   byoc.h's sequence.* and optional.* ops, which run on the host (their lengths and shapes are data). */
BYOC__PRIVATE const byoc_type *byoc_onnx__wrapped_type(byoc_onnx__state *st, const byoc_onnx__value_info *vi,
                                                       const char *name);

/* SequenceConstruct, SequenceInsert, SequenceAt, SequenceErase, SequenceLength, OptionalGetElement: the
   inputs given (optional trailing ones may be absent) */
BYOC__PRIVATE byoc_result byoc_onnx__sequence_op(byoc_onnx__ctx *c, const char *op) {
    int n = c->nin;
    while (n > 0 && !c->in[n - 1]) n--;
    for (int i = 0; i < n; ++i)
        if (!c->in[i]) return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "input %d is missing", i);
    const byoc_op *rec = byoc_op_get(op);
    if (rec && n < rec->def.min_args)
        return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "%d inputs given, it takes at least %d", n,
                               rec->def.min_args);
    c->out[0] = byoc_onnx__call(c->st, op, c->in, n, NULL);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__sequence_empty(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    int64_t code = byoc_onnx__attr_int(c, "dtype", 1); /* float by default */
    byoc_dtype dt = byoc_onnx__dtype((int)code);
    if (dt == BYOC_DTYPE_INVALID)
        return byoc_onnx__fail(c->st, BYOC_ERR_UNSUPPORTED, "dtype %s is not supported",
                               byoc_onnx__dtype_name((int)code));
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_string(c->st->m, &a, "dtype", byoc_dtype_name(dt));
    c->out[0] = byoc_onnx__call(c->st, "sequence.empty", NULL, 0, &a);
    return BYOC_ONNX__OK(c);
}

/* SplitToSequence (axis, keepdims) and ConcatFromSequence (axis, new_axis) */
BYOC__PRIVATE byoc_result byoc_onnx__sequence_attrs_op(byoc_onnx__ctx *c, const char *op) {
    int split = !strcmp(op, "sequence.split");
    byoc_node *x = byoc_onnx__input(c, 0, split ? "input" : "input_sequence");
    if (!x) return BYOC_ONNX__OK(c);
    if (!split && !byoc_onnx__attr_get(c, "axis"))
        return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "the attribute axis is required");
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(c->st->m, &a, "axis", byoc_onnx__attr_int(c, "axis", 0));
    byoc_attrs_set_int(c->st->m, &a, split ? "keepdims" : "new_axis",
                       byoc_onnx__attr_int(c, split ? "keepdims" : "new_axis", split ? 1 : 0));
    byoc_node *args[2] = {x, split && c->nin > 1 ? c->in[1] : NULL};
    c->out[0] = byoc_onnx__call(c->st, op, args, args[1] ? 2 : 1, &a);
    return BYOC_ONNX__OK(c);
}

/* Optional: of its input, or empty of the type its `type` attribute gives */
BYOC__PRIVATE byoc_result byoc_onnx__optional(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    if (c->nin > 0 && c->in[0]) {
        c->out[0] = byoc_onnx__call(st, "optional.some", c->in, 1, NULL);
        return BYOC_ONNX__OK(c);
    }
    const byoc_onnx__attr *ta = byoc_onnx__attr_get(c, "type");
    byoc_onnx__value_info vi;
    memset(&vi, 0, sizeof vi);
    if (!ta || !ta->has_tp)
        return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "an Optional without input needs its type attribute");
    if (!byoc_onnx__parse_type_proto(ta->tp, &vi, 0) || vi.nwrap > 1)
        return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "the type attribute is not a tensor or sequence type");
    /* the attribute is the element type: wrapped in an optional here */
    vi.wrap[1] = vi.wrap[0];
    vi.wrap[0] = 9;
    vi.nwrap++;
    const byoc_type *t = byoc_onnx__wrapped_type(st, &vi, "the type attribute");
    if (!t) return BYOC_ONNX__OK(c);
    const byoc_type *e = t->fields[0], *tensor = e->kind == BYOC_TYPE_SEQUENCE ? (e->nfields ? e->fields[0] : NULL) : e;
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_string(st->m, &a, "dtype", byoc_dtype_name(e->dtype));
    if (tensor) byoc_attrs_set_ints(st->m, &a, "shape", tensor->dims, tensor->rank);
    byoc_attrs_set_int(st->m, &a, "sequence", e->kind == BYOC_TYPE_SEQUENCE);
    c->out[0] = byoc_onnx__call(st, "optional.none", NULL, 0, &a);
    return BYOC_ONNX__OK(c);
}

/* OptionalHasElement: an absent input (opset 18) is an empty optional */
BYOC__PRIVATE byoc_result byoc_onnx__optional_has(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    if (c->nin < 1 || !c->in[0]) c->out[0] = byoc_onnx__scalar(c->st, BYOC_BOOL, 0);
    else c->out[0] = byoc_onnx__call(c->st, "optional.has_element", c->in, 1, NULL);
    return BYOC_ONNX__OK(c);
}

/* SequenceMap: the body run on element i of each sequence input (tensor inputs as they are), its outputs
   gathered into one sequence each. Imported as the loop its *_expanded variants spell out (ONNX's
   sequence/defs.cc function body): trip count SequenceLength of the first input, the output sequences
   carried from SequenceEmpty and grown by SequenceInsert, each input read with SequenceAt. */
BYOC__PRIVATE byoc_result byoc_onnx__sequence_map(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_module *m = st->m;
    const byoc_type *t0 = byoc_onnx__type(byoc_onnx__input(c, 0, "input_sequence"));
    if (!t0) return BYOC_ONNX__OK(c);
    if (t0->kind != BYOC_TYPE_SEQUENCE) return byoc_onnx__fail(st, BYOC_ERR_TYPE, "input 0 is not a sequence");
    if (c->nout < 1 || c->nout > 16) return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%d outputs (1 to 16)", c->nout);
    for (int i = 1; i < c->nin; ++i)
        if (!c->in[i]) return byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "input %d is missing", i);
    byoc_onnx__body b;
    byoc_result r = byoc_onnx__body_begin(c, "body", c->nin, &b);
    if (r != BYOC_OK) return r;
    byoc_node *init[16];
    byoc_dtype dts[16];
    for (int k = 0; r == BYOC_OK && k < c->nout; ++k) { /* the output sequences' dtypes, as the body declares */
        const byoc_onnx__value_info *vi = k < (int)stbds_arrlen(b.g.outputs) ? &b.g.outputs[k] : NULL;
        dts[k] = vi && !vi->nwrap && vi->elem_type ? byoc_onnx__dtype(vi->elem_type) : BYOC_DTYPE_INVALID;
        if (dts[k] == BYOC_DTYPE_INVALID)
            r = byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "the body's output %d declares no tensor type", k);
    }
    const char *names[2] = {"iteration", "cond"};
    for (int k = 0; r == BYOC_OK && k < 2 + c->nout; ++k) {
        const byoc_type *t = k == 0 ? byoc_tensor_type(m, BYOC_INT64, 0, NULL)
                             : k == 1 ? byoc_tensor_type(m, BYOC_BOOL, 0, NULL)
                                      : byoc_sequence_type(m, dts[k - 2], NULL);
        byoc_node *v = t ? byoc_var(m, k < 2 ? names[k] : "gathered", t) : NULL;
        if (!v) r = byoc_onnx__fail(st, BYOC_ERR_OUT_OF_MEMORY, "out of memory");
        else {
            v->checked_type = t;
            byoc_node_set_span(m, v, b.span, NULL, 0, 0);
            stbds_arrput(b.lead, v);
        }
    }
    for (int i = 0; r == BYOC_OK && i < c->nin; ++i) { /* body input i: element `iteration` of a sequence */
        const char *name = byoc_onnx__str(st, b.g.inputs[i].name);
        byoc_onnx__scope *inner = &st->scopes[stbds_arrlen(st->scopes) - 1];
        byoc_node *x = byoc_onnx__capture(st, inner, c->in[i], name ? name : "input");
        const byoc_type *t = byoc_onnx__type(x);
        if (x && t && t->kind == BYOC_TYPE_SEQUENCE) {
            x = byoc_onnx__call2(st, "sequence.at", x, b.lead[0], NULL);
            if (x) byoc_node_set_span(m, x, b.span, NULL, 0, 0);
        }
        if (!x) r = BYOC_ONNX__OK(c) ? BYOC_ONNX__OK(c) : BYOC_ERR_INTERNAL;
        else byoc_onnx__define(st, b.g.inputs[i].name, x);
    }
    r = r == BYOC_OK ? byoc_onnx__body_end(st, &b) : (byoc_onnx__body_leave(st, &b), r);
    if (r == BYOC_OK && (int)stbds_arrlen(b.results) != c->nout)
        r = byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "the body gives %d outputs, the node has %d",
                            (int)stbds_arrlen(b.results), c->nout);
    byoc_node *fields[17];
    fields[0] = byoc_onnx__scalar(st, BYOC_BOOL, 1);
    for (int k = 0; r == BYOC_OK && k < c->nout; ++k) { /* each output appended to its sequence, in the body */
        byoc_node *args[2] = {b.lead[2 + k], b.results[k]};
        fields[1 + k] = byoc_call(m, "sequence.insert", args, 2, NULL);
        if (!fields[1 + k] || byoc_infer_node_type(m, fields[1 + k], st->diag) != BYOC_OK)
            r = st->diag->code ? st->diag->code : byoc_onnx__fail(st, BYOC_ERR_INTERNAL, "cannot gather output %d", k);
        else byoc_node_set_span(m, fields[1 + k], b.span, NULL, 0, 0);
    }
    for (int k = 0; r == BYOC_OK && k < c->nout; ++k) {
        byoc_attrs a;
        memset(&a, 0, sizeof a);
        byoc_attrs_set_string(m, &a, "dtype", byoc_dtype_name(dts[k]));
        if (!(init[k] = byoc_onnx__call(st, "sequence.empty", NULL, 0, &a))) r = BYOC_ONNX__OK(c);
    }
    byoc_node *trip = r == BYOC_OK ? byoc_onnx__call1(st, "sequence.length", c->in[0], NULL) : NULL;
    if (r == BYOC_OK && trip) {
        byoc_node *root = byoc_tuple(m, fields, 1 + c->nout);
        if (root) byoc_node_set_span(m, root, b.span, NULL, 0, 0);
        byoc_onnx__canonical(&b, root);
        int n = (int)stbds_arrlen(b.scope.captured);
        byoc_node *fn = byoc_onnx__body_function(st, &b, root, b.scope.captured, n);
        byoc_node *loop = byoc_loop(m, trip, byoc_onnx__scalar(st, BYOC_BOOL, 1), init, c->nout, fn,
                                    b.scope.captured, n);
        r = byoc_onnx__control_outputs(c, loop, 1, c->nout);
    } else if (r == BYOC_OK) r = BYOC_ONNX__OK(c);
    byoc_onnx__body_free(&b);
    return r;
}

// [SECTION] impl: the op table (ONNX op type -> converter and op record)
typedef struct byoc_onnx__op_entry {
    const char *onnx;
    byoc_onnx__convert_fn convert;
    const char *op; /* NULL, or the IR op the converter builds (lowercase: a registered op's name, which
                       test_onnx checks), or the ONNX op a shared converter tells apart (capitalised) */
} byoc_onnx__op_entry;

static const byoc_onnx__op_entry byoc_onnx__ops[] = {
    {"Celu", byoc_onnx__activation, "Celu"},
    {"Elu", byoc_onnx__activation, "Elu"},
    {"InstanceNormalization", byoc_onnx__instance_norm, NULL},
    {"IsInf", byoc_onnx__is_nan_inf, "IsInf"},
    {"IsNaN", byoc_onnx__is_nan_inf, "IsNaN"},
    {"MeanVarianceNormalization", byoc_onnx__mvn, NULL},
    {"ReduceL1", byoc_onnx__reduce_composite, "ReduceL1"},
    {"ReduceL2", byoc_onnx__reduce_composite, "ReduceL2"},
    {"ReduceLogSum", byoc_onnx__reduce_composite, "ReduceLogSum"},
    {"ReduceLogSumExp", byoc_onnx__reduce_composite, "ReduceLogSumExp"},
    {"ReduceSumSquare", byoc_onnx__reduce_composite, "ReduceSumSquare"},
    {"Selu", byoc_onnx__activation, "Selu"},
    {"Shrink", byoc_onnx__activation, "Shrink"},
    {"Sign", byoc_onnx__sign, NULL},
    {"Size", byoc_onnx__size, NULL},
    {"Softplus", byoc_onnx__activation, "Softplus"},
    {"Softsign", byoc_onnx__activation, "Softsign"},
    {"SpaceToDepth", byoc_onnx__space_to_depth, NULL},
    {"ThresholdedRelu", byoc_onnx__activation, "ThresholdedRelu"},
    {"Abs", byoc_onnx__unary, "abs"},
    {"Add", byoc_onnx__binary, "add"},
    {"AveragePool", byoc_onnx__pool, "nn.avg_pool2d"},
    {"BatchNormalization", byoc_onnx__batch_norm, NULL},
    {"Cast", byoc_onnx__cast_op, "Cast"},
    {"CastLike", byoc_onnx__cast_op, "CastLike"},
    {"Ceil", byoc_onnx__unary, "ceil"},
    {"Concat", byoc_onnx__concat, NULL},
    {"Constant", byoc_onnx__constant, NULL},
    {"Conv", byoc_onnx__conv, NULL},
    {"ConvTranspose", byoc_onnx__conv_transpose, NULL},
    {"DepthToSpace", byoc_onnx__depth_to_space, NULL},
    {"Div", byoc_onnx__binary, "divide"},
    {"Dropout", byoc_onnx__identity, NULL},
    {"Equal", byoc_onnx__binary, "equal"},
    {"Erf", byoc_onnx__unary, "erf"},
    {"Exp", byoc_onnx__unary, "exp"},
    {"Flatten", byoc_onnx__flatten, NULL},
    {"Floor", byoc_onnx__unary, "floor"},
    {"Gather", byoc_onnx__gather, NULL},
    {"Gemm", byoc_onnx__gemm, NULL},
    {"GlobalAveragePool", byoc_onnx__global_pool, "nn.global_avg_pool2d"},
    {"GlobalMaxPool", byoc_onnx__global_pool, "nn.global_max_pool2d"},
    {"Greater", byoc_onnx__binary, "greater"},
    {"GreaterOrEqual", byoc_onnx__or_equal, "greater"},
    {"HardSigmoid", byoc_onnx__hard_sigmoid, NULL},
    {"HardSwish", byoc_onnx__unary, "nn.hard_swish"},
    {"Identity", byoc_onnx__identity, NULL},
    {"LayerNormalization", byoc_onnx__layer_norm, NULL},
    {"LeakyRelu", byoc_onnx__leaky_relu, NULL},
    {"Less", byoc_onnx__binary, "less"},
    {"LessOrEqual", byoc_onnx__or_equal, "less"},
    {"Log", byoc_onnx__unary, "log"},
    {"LogSoftmax", byoc_onnx__softmax, "nn.log_softmax"},
    {"LRN", byoc_onnx__lrn, NULL},
    {"MatMul", byoc_onnx__matmul, NULL},
    {"Max", byoc_onnx__variadic, "maximum"},
    {"MaxPool", byoc_onnx__pool, "nn.max_pool2d"},
    {"Mean", byoc_onnx__variadic, "mean"},
    {"Min", byoc_onnx__variadic, "minimum"},
    {"Mul", byoc_onnx__binary, "multiply"},
    {"Neg", byoc_onnx__unary, "negative"},
    {"Not", byoc_onnx__unary, "logical_not"},
    {"Pow", byoc_onnx__binary, "power"},
    {"PRelu", byoc_onnx__prelu, NULL},
    {"Reciprocal", byoc_onnx__reciprocal, NULL},
    {"ReduceMax", byoc_onnx__reduce, "max"},
    {"ReduceMean", byoc_onnx__reduce, "mean"},
    {"ReduceMin", byoc_onnx__reduce, "min"},
    {"Relu", byoc_onnx__unary, "nn.relu"},
    {"Shape", byoc_onnx__shape, NULL},
    {"Sigmoid", byoc_onnx__unary, "sigmoid"},
    {"Softmax", byoc_onnx__softmax, "nn.softmax"},
    {"Sqrt", byoc_onnx__unary, "sqrt"},
    {"Sub", byoc_onnx__binary, "subtract"},
    {"Sum", byoc_onnx__variadic, "add"},
    {"Tanh", byoc_onnx__unary, "tanh"},
    {"Transpose", byoc_onnx__transpose_op, NULL},
    {"Where", byoc_onnx__where, NULL},
    /* ---- math ---- */
    {"Acos", byoc_onnx__unary, "acos"},
    {"Acosh", byoc_onnx__unary, "acosh"},
    {"And", byoc_onnx__binary, "logical_and"},
    {"Asin", byoc_onnx__unary, "asin"},
    {"Asinh", byoc_onnx__unary, "asinh"},
    {"Atan", byoc_onnx__unary, "atan"},
    {"Atanh", byoc_onnx__unary, "atanh"},
    {"BitShift", byoc_onnx__bitshift, NULL},
    {"Cos", byoc_onnx__unary, "cos"},
    {"Cosh", byoc_onnx__unary, "cosh"},
    {"CumSum", byoc_onnx__cumsum, "cumsum"},
    {"Det", byoc_onnx__unary, "det"},
    {"EyeLike", byoc_onnx__eye_like, "eye_like"},
    {"Gelu", byoc_onnx__gelu, "nn.gelu"},
    {"Hardmax", byoc_onnx__softmax, "hardmax"},
    {"Mod", byoc_onnx__mod, NULL},
    {"Or", byoc_onnx__binary, "logical_or"},
    {"ReduceProd", byoc_onnx__reduce, "prod"},
    {"Round", byoc_onnx__unary, "round"},
    {"Sin", byoc_onnx__unary, "sin"},
    {"Sinh", byoc_onnx__unary, "sinh"},
    {"Tan", byoc_onnx__unary, "tan"},
    {"Trilu", byoc_onnx__trilu, "trilu"},
    {"Xor", byoc_onnx__binary, "logical_xor"},
    /* (end of math) */
    /* ---- indexing ---- */
    {"ArgMax", byoc_onnx__argreduce, "argmax"},
    {"ArgMin", byoc_onnx__argreduce, "argmin"},
    {"GatherElements", byoc_onnx__gather_elements, "gather"},
    {"GatherND", byoc_onnx__gather_nd, "gather_nd"},
    {"OneHot", byoc_onnx__one_hot, "one_hot"},
    {"ReverseSequence", byoc_onnx__reverse_sequence, "reverse_sequence"},
    {"Scatter", byoc_onnx__scatter_elements, "scatter_elements"},
    {"ScatterElements", byoc_onnx__scatter_elements, "scatter_elements"},
    {"ScatterND", byoc_onnx__scatter_nd, "scatter_nd"},
    {"TopK", byoc_onnx__topk, "topk"},
    /* (end of indexing) */
    /* ---- sampling ---- */
    {"GridSample", byoc_onnx__grid_sample, "image.grid_sample"},
    {"MaxUnpool", byoc_onnx__max_unpool, "nn.max_unpool"},
    {"Resize", byoc_onnx__resize, "Resize"},
    {"RoiAlign", byoc_onnx__roi_align, "vision.roi_align"},
    {"Upsample", byoc_onnx__resize, "Upsample"},
    /* (end of sampling) */
    /* ---- windows ---- */
    {"CenterCropPad", byoc_onnx__center_crop_pad, NULL},
    {"Col2Im", byoc_onnx__col2im, NULL},
    {"TfIdfVectorizer", byoc_onnx__tfidf, "tfidf_vectorizer"},
    /* (end of windows) */
    /* ---- recurrent ---- */
    {"BlackmanWindow", byoc_onnx__window_op, "blackman_window"},
    {"DFT", byoc_onnx__dft, "dft"},
    {"GRU", byoc_onnx__recurrent, "nn.gru"},
    {"HammingWindow", byoc_onnx__window_op, "hamming_window"},
    {"HannWindow", byoc_onnx__window_op, "hann_window"},
    {"LSTM", byoc_onnx__recurrent, "nn.lstm"},
    {"MelWeightMatrix", byoc_onnx__mel_weight_matrix, "mel_weight_matrix"},
    {"RNN", byoc_onnx__recurrent, "nn.rnn"},
    {"STFT", byoc_onnx__stft, "stft"},
    /* (end of recurrent) */
    /* ---- losses ---- */
    {"NegativeLogLikelihoodLoss", byoc_onnx__nll_loss, "nn.nll_loss"},
    {"SoftmaxCrossEntropyLoss", byoc_onnx__softmax_cross_entropy, NULL},
    {"Einsum", byoc_onnx__einsum, "einsum"},
    /* (end of losses) */
    /* ---- dynamic ---- */
    {"Clip", byoc_onnx__clip_any, NULL},
    {"Compress", byoc_onnx__compress, "argwhere"},
    {"ConstantOfShape", byoc_onnx__constant_of_shape_any, "dyn.full"},
    {"Expand", byoc_onnx__expand_any, "dyn.broadcast_to"},
    {"NonMaxSuppression", byoc_onnx__nms, "vision.all_class_non_max_suppression"},
    {"NonZero", byoc_onnx__nonzero, "argwhere"},
    {"Pad", byoc_onnx__pad_any, "dyn.nn.pad"},
    {"Range", byoc_onnx__range_any, "arange"},
    {"ReduceSum", byoc_onnx__reduce_any, "sum"}, /* dyn.sum for computed axes */
    {"Reshape", byoc_onnx__reshape_any, "dyn.reshape"},
    {"Slice", byoc_onnx__slice_any, "dyn.strided_slice"},
    {"Split", byoc_onnx__split_any, "dyn.strided_slice"},
    {"Squeeze", byoc_onnx__squeeze_any, "dyn.squeeze"},
    {"Tile", byoc_onnx__tile_any, "dyn.tile"},
    {"Unique", byoc_onnx__unique, "unique"},
    {"Unsqueeze", byoc_onnx__unsqueeze_any, "dyn.expand_dims"},
    /* (end of dynamic) */
    /* ---- quant ---- */
    {"ConvInteger", byoc_onnx__conv_integer, "qnn.conv2d"},
    {"DequantizeLinear", byoc_onnx__dequantize_linear, "qnn.dequantize"},
    {"DynamicQuantizeLinear", byoc_onnx__dynamic_quantize_linear, "qnn.quantize"},
    {"MatMulInteger", byoc_onnx__matmul_integer, "qnn.matmul"},
    {"QLinearConv", byoc_onnx__qlinear_conv, "qnn.requantize"},
    {"QLinearMatMul", byoc_onnx__qlinear_matmul, "qnn.requantize"},
    {"QuantizeLinear", byoc_onnx__quantize_linear, "qnn.quantize"},
    {"com.microsoft:QLinearAdd", byoc_onnx__qlinear_binary, "qnn.add"},
    {"com.microsoft:QLinearAveragePool", byoc_onnx__qlinear_pool, "qnn.avg_pool2d"},
    {"com.microsoft:QLinearConcat", byoc_onnx__qlinear_concat, "qnn.concatenate"},
    {"com.microsoft:QLinearGlobalAveragePool", byoc_onnx__qlinear_pool, "qnn.global_avg_pool2d"},
    {"com.microsoft:QLinearLeakyRelu", byoc_onnx__qlinear_activation, "qnn.leaky_relu"},
    {"com.microsoft:QLinearMul", byoc_onnx__qlinear_binary, "qnn.mul"},
    {"com.microsoft:QLinearSigmoid", byoc_onnx__qlinear_activation, "qnn.sigmoid"},
    {"com.microsoft:QLinearSoftmax", byoc_onnx__qlinear_softmax, "qnn.softmax"},
    /* (end of quant) */
    /* ---- cflow ---- */
    {"If", byoc_onnx__if, NULL},
    {"SequenceConstruct", byoc_onnx__sequence_op, "sequence.construct"},
    {"SequenceEmpty", byoc_onnx__sequence_empty, NULL},
    {"SequenceInsert", byoc_onnx__sequence_op, "sequence.insert"},
    {"SequenceAt", byoc_onnx__sequence_op, "sequence.at"},
    {"SequenceErase", byoc_onnx__sequence_op, "sequence.erase"},
    {"SequenceLength", byoc_onnx__sequence_op, "sequence.length"},
    {"SplitToSequence", byoc_onnx__sequence_attrs_op, "sequence.split"},
    {"ConcatFromSequence", byoc_onnx__sequence_attrs_op, "sequence.concat"},
    {"Optional", byoc_onnx__optional, NULL},
    {"OptionalHasElement", byoc_onnx__optional_has, NULL},
    {"OptionalGetElement", byoc_onnx__sequence_op, "optional.get_element"},
    {"SequenceMap", byoc_onnx__sequence_map, NULL},
    {"Loop", byoc_onnx__loop, NULL},
    {"Scan", byoc_onnx__scan, NULL},
    /* (end of cflow) */
};

/* an entry names a default-domain op by its type, another domain's as "domain:Type" (com.microsoft's) */
BYOC__PRIVATE int byoc_onnx__entry_matches(const byoc_onnx__node *n, const char *entry) {
    const char *colon = strchr(entry, ':');
    int default_domain = !n->domain.n || byoc_onnx__bytes_eq(n->domain, "ai.onnx");
    if (!colon) return default_domain && byoc_onnx__bytes_eq(n->op_type, entry);
    size_t len = (size_t)(colon - entry);
    return !default_domain && n->domain.n == len && !memcmp(n->domain.p, entry, len) &&
           byoc_onnx__bytes_eq(n->op_type, colon + 1);
}
BYOC__PRIVATE const byoc_onnx__op_entry *byoc_onnx__find_op(const byoc_onnx__node *n) {
    for (size_t i = 0; i < sizeof byoc_onnx__ops / sizeof byoc_onnx__ops[0]; ++i)
        if (byoc_onnx__entry_matches(n, byoc_onnx__ops[i].onnx)) return &byoc_onnx__ops[i];
    return NULL;
}

// [SECTION] impl: import
BYOC__PRIVATE byoc_node *byoc_onnx__outer_lookup(byoc_onnx__state *st, const char *key);
BYOC__PRIVATE byoc_node *byoc_onnx__lookup(byoc_onnx__state *st, byoc_onnx__bytes name) {
    char small[256];
    char *key = byoc_onnx__cstr(name, small);
    if (!key) return NULL;
    ptrdiff_t i = stbds_shgeti(st->values, key);
    byoc_node *v = i >= 0 ? st->values[i].value : NULL;
    if (!v) v = byoc_onnx__outer_lookup(st, key); /* in a subgraph: a value of an enclosing graph */
    byoc_onnx__cstr_free(key, small);
    return v;
}

BYOC__PRIVATE void byoc_onnx__define(byoc_onnx__state *st, byoc_onnx__bytes name, byoc_node *value) {
    char small[256];
    char *key = byoc_onnx__cstr(name, small);
    if (!key) return;
    stbds_shput(st->values, key, value);
    byoc_onnx__cstr_free(key, small);
}

/* a sequence or optional input's type: its tensor's dtype, a '?' for each dim that is not a number (a
   sequence's elements may differ), and elements of any rank when the file gives no shape */
BYOC__PRIVATE const byoc_type *byoc_onnx__wrapped_type(byoc_onnx__state *st, const byoc_onnx__value_info *vi,
                                                       const char *name) {
    byoc_dtype dt = vi->elem_type ? byoc_onnx__dtype(vi->elem_type) : BYOC_DTYPE_INVALID;
    if (dt == BYOC_DTYPE_INVALID) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "input '%s' is a sequence or optional of %s (not supported)", name,
                        vi->elem_type ? byoc_onnx__dtype_name(vi->elem_type) : "a map or sparse tensor");
        return NULL;
    }
    const byoc_type *t = NULL;
    if (vi->has_shape && !vi->too_many_dims) {
        int64_t dims[BYOC_MAX_RANK];
        for (int d = 0; d < vi->rank; ++d)
            dims[d] = vi->dims[d] >= 0 && vi->dims[d] <= BYOC_MAX_DIM && !vi->dim_names[d].n ? vi->dims[d]
                                                                                            : BYOC_DIM_UNKNOWN;
        t = byoc_tensor_type(st->m, dt, vi->rank, dims);
    }
    for (int k = vi->nwrap - 1; k >= 0; --k) {
        if (vi->wrap[k] == 4 && (!t || t->kind == BYOC_TYPE_TENSOR)) t = byoc_sequence_type(st->m, dt, t);
        else if (vi->wrap[k] == 9 && t) t = byoc_optional_type(st->m, t);
        else {
            byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "input '%s': %s is not supported", name,
                            vi->wrap[k] == 4 ? "a sequence of optionals" : "an optional tensor without a shape");
            return NULL;
        }
    }
    return t;
}

/* an input's type: the file's, with symbolic dims from the options (or the default), or an override */
BYOC__PRIVATE const byoc_type *byoc_onnx__input_type(byoc_onnx__state *st, const byoc_onnx__value_info *vi,
                                                     const char *name, int position) {
    const byoc_onnx_options *o = st->opt;
    if (vi->nwrap) return byoc_onnx__wrapped_type(st, vi, name);
    if (!vi->elem_type) {
        const char *kind = vi->type_field == 4   ? "a sequence"
                           : vi->type_field == 5 ? "a map"
                           : vi->type_field == 8 ? "a sparse tensor"
                           : vi->type_field == 9 ? "an optional"
                                                 : "not a tensor";
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "input '%s' is %s (only tensors are supported)", name, kind);
        return NULL;
    }
    byoc_dtype dt = byoc_onnx__dtype(vi->elem_type);
    if (dt == BYOC_DTYPE_INVALID) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "input '%s' has element type %s (not supported)", name,
                        byoc_onnx__dtype_name(vi->elem_type));
        return NULL;
    }
    for (int i = 0; i < o->nshapes; ++i)
        if (o->shapes[i].input ? !strcmp(o->shapes[i].input, name) : i == position) {
            int fits = !vi->has_shape || o->shapes_replace_declared || o->shapes[i].rank == vi->rank;
            for (int d = 0; fits && vi->has_shape && !o->shapes_replace_declared && d < vi->rank; ++d)
                fits = vi->dims[d] < 0 || vi->dim_names[d].n || vi->dims[d] == o->shapes[i].dims[d];
            if (!fits) { /* "expects (1, 3, ?, 224) float32, given (1, 3, 200)" */
                char want[300] = "(", have[300] = "(";
                for (int d = 0; d < vi->rank; ++d)
                    snprintf(want + strlen(want), sizeof want - strlen(want),
                             vi->dims[d] >= 0 && !vi->dim_names[d].n ? "%s%lld" : "%s?", d ? ", " : "",
                             (long long)vi->dims[d]);
                for (int d = 0; d < o->shapes[i].rank && d < BYOC_MAX_RANK; ++d)
                    snprintf(have + strlen(have), sizeof have - strlen(have), "%s%lld", d ? ", " : "",
                             (long long)o->shapes[i].dims[d]);
                byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT, "input '%s' expects %s) %s, given %s)", name, want,
                                byoc_dtype_name(dt), have);
                return NULL;
            }
            return byoc_tensor_type(st->m, dt, o->shapes[i].rank, o->shapes[i].dims);
        }
    if (vi->too_many_dims) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "input '%s' has more than %d dims", name, BYOC_MAX_RANK);
        return NULL;
    }
    if (!vi->has_shape) {
        byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "input '%s' has no shape in the model; give one", name);
        return NULL;
    }
    int64_t dims[BYOC_MAX_RANK];
    for (int d = 0; d < vi->rank; ++d) {
        dims[d] = vi->dims[d];
        if (dims[d] >= 0 && !vi->dim_names[d].n) {
            if (dims[d] > BYOC_MAX_DIM) {
                byoc_onnx__fail(st, BYOC_ERR_CORRUPT, "input '%s' has dim %d = %lld (out of range)", name, d,
                                (long long)dims[d]);
                return NULL;
            }
            continue;
        }
        char sym[128] = "";
        if (vi->dim_names[d].n)
            snprintf(sym, sizeof sym, "%.*s", (int)(vi->dim_names[d].n > 100 ? 100 : vi->dim_names[d].n),
                     (const char *)vi->dim_names[d].p);
        dims[d] = -1;
        for (int k = 0; k < o->ndims && sym[0]; ++k)
            if (o->dims[k].name && !strcmp(o->dims[k].name, sym)) dims[d] = o->dims[k].value;
        if (dims[d] < 0 && o->free_dim_default > 0) {
            dims[d] = o->free_dim_default;
            char note[300];
            snprintf(note, sizeof note, "input '%s' dim %d (%s) taken as %lld", name, d, sym[0] ? sym : "unnamed",
                     (long long)dims[d]);
            stbds_arrput(st->notes, byoc_intern(st->m, note));
        }
        if (dims[d] < 0 && o->dynamic_dims) { /* Relay's Any: ops that need the extent say so */
            dims[d] = BYOC_DIM_ANY;
            continue;
        }
        if (dims[d] < 0 || dims[d] > BYOC_MAX_DIM) {
            byoc_onnx__fail(st, BYOC_ERR_INVALID_ARGUMENT,
                            "input '%s' dim %d is symbolic (%s): give its value (or keep it '?': dynamic_dims)", name,
                            d, sym[0] ? sym : "unnamed");
            return NULL;
        }
    }
    return byoc_tensor_type(st->m, dt, vi->rank, dims);
}

BYOC__PRIVATE void byoc_onnx__free_state(byoc_onnx__state *st) {
    stbds_shfree(st->values);
    stbds_arrfree(st->scopes); /* empty: every subgraph conversion pops its scope */
    stbds_arrfree(st->built);
    stbds_arrfree(st->notes);
    stbds_arrfree(st->node_spans);
    stbds_arrfree(st->node_ops);
    stbds_arrfree(st->node_folded);
}

BYOC_API void byoc_onnx_model_free(byoc_onnx_model *model) {
    if (!model) return;
    if (model->module) {
        byoc_module *m = model->module;
        byoc_free(m, (void *)model->input_names);
        byoc_free(m, (void *)model->output_names);
        byoc_free(m, (void *)model->notes);
        byoc_free(m, (void *)model->node_spans);
        byoc_free(m, (void *)model->node_ops);
        byoc_free(m, (void *)model->node_folded);
        byoc_module_destroy(m);
    }
    memset(model, 0, sizeof *model);
}

typedef struct byoc_onnx__unsupported {
    char op[80];
    char first[64]; /* another domain's op: " (node 'NAME')", its first node, so the report names one */
    int count;
} byoc_onnx__unsupported;

/* one error listing every op type the importer does not support, with counts (BYOC_OK when none) */
BYOC__PRIVATE byoc_result byoc_onnx__check_ops(byoc_onnx__state *st, const byoc_onnx__graph *g, int opset) {
    byoc_onnx__unsupported *unsupported = NULL;
    int total = 0;
    for (int ni = 0; ni < (int)stbds_arrlen(g->nodes); ++ni) {
        const byoc_onnx__node *n = &g->nodes[ni];
        if (byoc_onnx__find_op(n)) continue;
        char op[80];
        if (n->domain.n) /* domain:Op */
            snprintf(op, sizeof op, "%.*s:%.*s", (int)(n->domain.n > 30 ? 30 : n->domain.n), (const char *)n->domain.p,
                     (int)(n->op_type.n > 40 ? 40 : n->op_type.n), (const char *)n->op_type.p);
        else snprintf(op, sizeof op, "%.*s", (int)(n->op_type.n > 40 ? 40 : n->op_type.n), (const char *)n->op_type.p);
        total++;
        int found = 0;
        for (int k = 0; k < (int)stbds_arrlen(unsupported) && !found; ++k)
            if (!strcmp(unsupported[k].op, op)) { unsupported[k].count++; found = 1; }
        if (!found) {
            byoc_onnx__unsupported u;
            memset(&u, 0, sizeof u);
            snprintf(u.op, sizeof u.op, "%s", op);
            if (n->domain.n) {
                byoc_onnx__bytes label = n->name.n ? n->name : stbds_arrlen(n->outputs) ? n->outputs[0] : n->op_type;
                snprintf(u.first, sizeof u.first, " (node '%.*s')", (int)(label.n > 40 ? 40 : label.n),
                         (const char *)label.p);
            }
            u.count = 1;
            stbds_arrput(unsupported, u);
        }
    }
    if (!stbds_arrlen(unsupported)) return BYOC_OK;
    char list[700] = "";
    size_t used = 0;
    for (int k = 0; k < (int)stbds_arrlen(unsupported); ++k) {
        int w = snprintf(list + used, sizeof list - used, "%s%s x%d%s", k ? ", " : "", unsupported[k].op,
                         unsupported[k].count, unsupported[k].first);
        if (w < 0 || (size_t)w >= sizeof list - used) { snprintf(list + sizeof list - 5, 5, "..."); break; }
        used += (size_t)w;
    }
    byoc_result r = byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "%d unsupported op type%s (%d node%s, opset %d): %s",
                                    (int)stbds_arrlen(unsupported), stbds_arrlen(unsupported) == 1 ? "" : "s", total,
                                    total == 1 ? "" : "s", opset, list);
    stbds_arrfree(unsupported);
    return r;
}

/* converts every node, in order (ONNX graphs are topologically sorted) */
BYOC__PRIVATE byoc_result byoc_onnx__convert_nodes(byoc_onnx__state *st, const byoc_onnx__graph *g, int *nfolded) {
    byoc_node **ins = NULL, **outs = NULL;
    for (int ni = 0; ni < (int)stbds_arrlen(g->nodes); ++ni) {
        const byoc_onnx__node *n = &g->nodes[ni];
        const byoc_onnx__op_entry *e = byoc_onnx__find_op(n);
        st->node = n;
        st->node_index = ni;
        char span[300];
        byoc_onnx__bytes label = n->name.n ? n->name : stbds_arrlen(n->outputs) ? n->outputs[0] : n->op_type;
        snprintf(span, sizeof span, "onnx:%.*s", (int)(label.n > 280 ? 280 : label.n), (const char *)label.p);
        st->span = byoc_intern(st->m, span);
        stbds_arrsetlen(ins, 0);
        stbds_arrsetlen(st->built, 0);
        int all_constant = 1;
        for (int i = 0; i < (int)stbds_arrlen(n->inputs); ++i) {
            byoc_node *v = NULL;
            if (n->inputs[i].n) { /* an empty name is an omitted optional input */
                v = byoc_onnx__lookup(st, n->inputs[i]);
                if (!v) {
                    char nm[200];
                    snprintf(nm, sizeof nm, "%.*s", (int)(n->inputs[i].n > 180 ? 180 : n->inputs[i].n),
                             (const char *)n->inputs[i].p);
                    byoc_result r = byoc_onnx__fail(
                        st, BYOC_ERR_INVALID_ARGUMENT, "input '%s' is not defined before this node %s", nm,
                        stbds_arrlen(st->scopes) ? "nor in an enclosing graph (ONNX scoping: a subgraph sees the names "
                                                   "its enclosing graphs define before the node holding it)"
                                                 : "(the graph must be topologically sorted)");
                    stbds_arrfree(ins); stbds_arrfree(outs);
                    return r;
                }
                all_constant &= v->kind == BYOC_NODE_CONSTANT;
            }
            stbds_arrput(ins, v);
        }
        int nout = (int)stbds_arrlen(n->outputs);
        stbds_arrsetlen(outs, nout > 0 ? nout : 1);
        for (int i = 0; i < nout; ++i) outs[i] = NULL;
        byoc_onnx__ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.st = st;
        ctx.node = n;
        ctx.in = ins;
        ctx.nin = (int)stbds_arrlen(ins);
        ctx.out = outs;
        ctx.nout = nout;
        ctx.opset = st->opset;
        byoc_result r = e->convert(&ctx, e->op ? e->op : e->onnx);
        for (int i = 0; r == BYOC_OK && i < nout; ++i)
            if (n->outputs[i].n && !outs[i])
                r = byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "output %d is not produced (not supported)", i);
        if (r != BYOC_OK || st->m->has_error) {
            if (r == BYOC_OK) {
                const byoc_diag *me = byoc_module_error(st->m);
                r = byoc_onnx__fail(st, me->code, "%s", me->message);
            }
            stbds_arrfree(ins); stbds_arrfree(outs);
            return r;
        }
        for (int i = 0; i < (int)stbds_arrlen(st->built); ++i)
            if (!st->built[i]->span) byoc_node_set_span(st->m, st->built[i], st->span, NULL, 0, 0);
        int produced_constant = 1;
        for (int i = 0; i < nout; ++i) {
            if (n->outputs[i].n) byoc_onnx__define(st, n->outputs[i], outs[i]);
            if (outs[i] && outs[i]->kind != BYOC_NODE_CONSTANT) produced_constant = 0;
        }
        const char *folded = NULL;
        if (produced_constant && (all_constant || !stbds_arrlen(n->inputs) || e->convert == byoc_onnx__shape))
            (*nfolded)++;
        if (produced_constant)
            folded = !stbds_arrlen(n->inputs) ? "a constant (no inputs): its value is made at import"
                     : all_constant           ? "every input is a constant: evaluated at import"
                                              : "its result depends only on static shapes: evaluated at import";
        else if (!stbds_arrlen(st->built))
            folded = "passes an input through unchanged: no IR node of its own";
        stbds_arrput(st->node_spans, st->span);
        stbds_arrput(st->node_ops, byoc_onnx__str(st, n->op_type));
        stbds_arrput(st->node_folded, folded);
    }
    st->node = NULL;
    stbds_arrfree(ins);
    stbds_arrfree(outs);
    return BYOC_OK;
}

BYOC_API byoc_result byoc_onnx_import(const void *data, size_t size, const char *name, const byoc_onnx_options *opts,
                                      byoc_onnx_model *out, byoc_diag *diag) {
    byoc_diag local;
    if (!diag) diag = &local;
    memset(diag, 0, sizeof *diag);
    memset(out, 0, sizeof *out);
    byoc_onnx__state st;
    memset(&st, 0, sizeof st);
    st.opt = opts ? opts : &st.defaults;
    st.file = name ? name : "model.onnx";
    st.diag = diag;
    st.max_bytes = st.opt->max_constant_bytes ? st.opt->max_constant_bytes : (uint64_t)1 << 30;
    if (st.opt->external_data_dir) snprintf(st.dir, sizeof st.dir, "%s/", st.opt->external_data_dir);
    else if (name && strrchr(name, '/'))
        snprintf(st.dir, sizeof st.dir, "%.*s/", (int)(strrchr(name, '/') - name), name);
    BYOC__SH_NEW_STRDUP(st.values);

    byoc_onnx__file mf;
    byoc_onnx__graph g;
    memset(&g, 0, sizeof g);
    byoc_result r = byoc_onnx__parse_model(&st, BYOC__CAST(const uint8_t *, data), size, &mf);
    if (r == BYOC_OK) r = byoc_onnx__parse_graph(&st, mf.graph, &g);
    if (r == BYOC_OK) r = byoc_onnx__check_ops(&st, &g, mf.opset);
    if (r == BYOC_OK && (mf.opset < BYOC_ONNX__MIN_OPSET || mf.opset > BYOC_ONNX__MAX_OPSET))
        r = byoc_onnx__fail(&st, BYOC_ERR_UNSUPPORTED, "opset %d of the default domain is not supported (%d to %d are)",
                            mf.opset, BYOC_ONNX__MIN_OPSET, BYOC_ONNX__MAX_OPSET);
    if (r == BYOC_OK && g.sparse_initializers)
        r = byoc_onnx__fail(&st, BYOC_ERR_UNSUPPORTED, "sparse initializers are not supported");
    if (r != BYOC_OK) {
        byoc_onnx__graph_free(&g);
        byoc_onnx__free_state(&st);
        return r;
    }
    st.opset = mf.opset;
    st.m = byoc_module_create(st.opt->allocator);
    if (!st.m) {
        byoc_onnx__graph_free(&g);
        byoc_onnx__free_state(&st);
        return byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "%s: out of memory", st.file);
    }
    /* initializers first: a graph input with an initializer of the same name is a constant (IR < 4) */
    for (int i = 0; r == BYOC_OK && i < (int)stbds_arrlen(g.initializers); ++i) {
        byoc_onnx__tensor t;
        r = byoc_onnx__parse_tensor(&st, g.initializers[i], &t);
        if (r != BYOC_OK) break;
        char what[300];
        snprintf(what, sizeof what, "initializer '%.*s'", (int)(t.name.n > 200 ? 200 : t.name.n),
                 (const char *)t.name.p);
        byoc_node *c = byoc_onnx__tensor_constant(&st, &t, what);
        if (c) {
            c->checked_type = c->annotation;
            byoc_onnx__define(&st, t.name, c);
        } else r = diag->code ? diag->code : BYOC_ERR_INTERNAL;
        byoc_onnx__tensor_free(&t);
    }
    byoc_node **params = NULL;
    const char **input_names = NULL;
    for (int i = 0; r == BYOC_OK && i < (int)stbds_arrlen(g.inputs); ++i) {
        const byoc_onnx__value_info *vi = &g.inputs[i];
        if (byoc_onnx__lookup(&st, vi->name)) continue;
        const char *iname = byoc_onnx__str(&st, vi->name);
        const byoc_onnx_bound_input *bound = NULL;
        for (int k = 0; iname && k < st.opt->nbound && !bound; ++k)
            if (st.opt->bound[k].input && !strcmp(st.opt->bound[k].input, iname)) bound = &st.opt->bound[k];
        if (bound) {
            const byoc_tensor *bv = &bound->value;
            const byoc_type *bt = bv->rank >= 0 && bv->rank <= BYOC_MAX_RANK
                                      ? byoc_tensor_type(st.m, bv->dtype, bv->rank, bv->dims)
                                      : NULL;
            int64_t count = bt ? byoc_type_num_elements(bt) : -1;
            byoc_node *k =
                count >= 0 ? byoc_constant(st.m, bt, bv->data, (size_t)count * byoc_dtype_size(bv->dtype)) : NULL;
            if (!k) {
                r = byoc_onnx__fail(&st, BYOC_ERR_INVALID_ARGUMENT,
                                    "the value bound to input '%s' is not a valid tensor", iname);
                break;
            }
            k->checked_type = k->annotation;
            byoc_onnx__define(&st, vi->name, k);
            continue;
        }
        const byoc_type *t = iname ? byoc_onnx__input_type(&st, vi, iname, (int)stbds_arrlen(params)) : NULL;
        byoc_node *v = t ? byoc_var(st.m, iname, t) : NULL;
        if (!v) { r = diag->code ? diag->code : byoc_onnx__fail(&st, BYOC_ERR_OUT_OF_MEMORY, "out of memory"); break; }
        char span[300];
        snprintf(span, sizeof span, "onnx:%s", iname);
        byoc_node_set_span(st.m, v, span, NULL, 0, 0);
        v->checked_type = t;
        byoc_onnx__define(&st, vi->name, v);
        stbds_arrput(params, v);
        stbds_arrput(input_names, iname);
    }
    int nfolded = 0;
    if (r == BYOC_OK) r = byoc_onnx__convert_nodes(&st, &g, &nfolded);
    byoc_node **results = NULL;
    const char **output_names = NULL;
    for (int i = 0; r == BYOC_OK && i < (int)stbds_arrlen(g.outputs); ++i) {
        byoc_node *v = byoc_onnx__lookup(&st, g.outputs[i].name);
        const char *oname = byoc_onnx__str(&st, g.outputs[i].name);
        if (!v) {
            r = byoc_onnx__fail(&st, BYOC_ERR_INVALID_ARGUMENT, "graph output '%s' is not produced by any node",
                                oname ? oname : "?");
            break;
        }
        stbds_arrput(results, v);
        stbds_arrput(output_names, oname);
    }
    if (r == BYOC_OK && !stbds_arrlen(results))
        r = byoc_onnx__fail(&st, BYOC_ERR_INVALID_ARGUMENT, "the graph has no outputs");
    if (r == BYOC_OK) {
        byoc_node *body =
            stbds_arrlen(results) == 1 ? results[0] : byoc_tuple(st.m, results, (int)stbds_arrlen(results));
        byoc_node *fn = byoc_function(st.m, params, (int)stbds_arrlen(params), body, NULL, NULL);
        if (!fn || byoc_module_add_function(st.m, "main", fn) != BYOC_OK) {
            const byoc_diag *me = byoc_module_error(st.m);
            r = byoc_onnx__fail(&st, me ? me->code : BYOC_ERR_INTERNAL, "%s", me ? me->message : "cannot build @main");
        }
    }
    if (r == BYOC_OK) r = byoc_infer_type(st.m, diag);
    if (r == BYOC_OK) {
        out->module = st.m;
        out->ninputs = (int)stbds_arrlen(input_names);
        out->noutputs = (int)stbds_arrlen(output_names);
        out->input_names = BYOC__CAST(const char **, byoc_alloc(st.m, sizeof(char *) * (size_t)(out->ninputs + 1)));
        out->output_names = BYOC__CAST(const char **, byoc_alloc(st.m, sizeof(char *) * (size_t)(out->noutputs + 1)));
        out->notes = BYOC__CAST(const char **, byoc_alloc(st.m, sizeof(char *) * (size_t)(stbds_arrlen(st.notes) + 1)));
        if (!out->input_names || !out->output_names || !out->notes)
            r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "%s: out of memory", st.file);
        else {
            for (int i = 0; i < out->ninputs; ++i) out->input_names[i] = input_names[i];
            for (int i = 0; i < out->noutputs; ++i) out->output_names[i] = output_names[i];
            for (int i = 0; i < (int)stbds_arrlen(st.notes); ++i) out->notes[i] = st.notes[i];
            out->notes[stbds_arrlen(st.notes)] = NULL;
            out->opset = st.opset;
            out->ir_version = mf.ir_version;
            out->producer = byoc_onnx__str(&st, mf.producer);
            out->nnodes = (int)stbds_arrlen(st.node_spans); /* subgraphs' nodes included */
            out->nfolded = nfolded + st.nfolded;
            int nn = (int)stbds_arrlen(st.node_spans);
            out->node_spans = BYOC__CAST(const char **, byoc_alloc(st.m, sizeof(char *) * (size_t)(nn + 1)));
            out->node_ops = BYOC__CAST(const char **, byoc_alloc(st.m, sizeof(char *) * (size_t)(nn + 1)));
            out->node_folded = BYOC__CAST(const char **, byoc_alloc(st.m, sizeof(char *) * (size_t)(nn + 1)));
            if (!out->node_spans || !out->node_ops || !out->node_folded)
                r = byoc__diag(diag, BYOC_ERR_OUT_OF_MEMORY, 0, 0, 0, "%s: out of memory", st.file);
            for (int i = 0; r == BYOC_OK && i < nn; ++i) {
                out->node_spans[i] = st.node_spans[i];
                out->node_ops[i] = st.node_ops[i];
                out->node_folded[i] = st.node_folded[i];
            }
        }
    }
    stbds_arrfree(params);
    stbds_arrfree(input_names);
    stbds_arrfree(results);
    stbds_arrfree(output_names);
    byoc_onnx__graph_free(&g);
    byoc_onnx__free_state(&st);
    if (r != BYOC_OK) {
        if (out->module) { out->module = NULL; }
        byoc_module_destroy(st.m);
        memset(out, 0, sizeof *out);
    }
    return r;
}

BYOC_API byoc_result byoc_onnx_load(const char *path, const byoc_onnx_options *opts, byoc_onnx_model *out,
                                    byoc_diag *diag) {
    byoc_diag local;
    if (!diag) diag = &local;
    memset(diag, 0, sizeof *diag);
    memset(out, 0, sizeof *out);
    size_t size = 0;
    uint8_t *data = byoc_onnx__read_file(path, &size, diag);
    if (!data) return diag->code;
    byoc_result r = byoc_onnx_import(data, size, path, opts, out, diag);
    free(data);
    return r;
}

/* SequenceProto {name 1, elem_type 2, tensor_values 3, ...} and OptionalProto {name 1, elem_type 2, tensor_value 3,
   sequence_value 5, ...} (onnx/onnx-ml.proto): the tensors, or the optional's one value, in order */
BYOC_API byoc_node *byoc_onnx_value_load(byoc_module *m, const void *data, size_t size, const char *file,
                                         const byoc_type *type, const char **name_out, byoc_diag *diag) {
    if (!m) { byoc__null_arg(diag, __func__, "module"); return NULL; }
    if (!type || type->kind == BYOC_TYPE_TENSOR) return byoc_onnx_tensor_load(m, data, size, file, name_out, diag);
    byoc_diag local;
    if (!diag) diag = &local;
    memset(diag, 0, sizeof *diag);
    const char *what = type->kind == BYOC_TYPE_SEQUENCE ? "sequence" : "optional";
    if (type->kind != BYOC_TYPE_SEQUENCE && type->kind != BYOC_TYPE_OPTIONAL) {
        byoc__diag(diag, BYOC_ERR_INVALID_ARGUMENT, 0, 0, 0, "%s: a value of a tuple or function type", file);
        return NULL;
    }
    byoc_onnx__bytes b = {BYOC__CAST(const uint8_t *, data), size}, name = {0, 0};
    byoc_onnx__pb pb = byoc_onnx__pb_of(b);
    byoc_node **elems = NULL, *r = NULL;
    int ok = 1, has_value = 0;
    if (type->kind == BYOC_TYPE_OPTIONAL && type->fields[0]->kind == BYOC_TYPE_SEQUENCE) {
        /* elem_type TENSOR (1): a SequenceProto, the present value itself (an OptionalProto of a sequence says
           SEQUENCE, 3), as ONNX writes a loop's carried optional sequence (test_loop16_seq_none) */
        uint64_t elem_type = 0;
        while (ok && pb.p < pb.end) {
            uint32_t f;
            int w;
            ok = byoc_onnx__pb_key(&pb, &f, &w);
            if (ok && f == 2 && w == BYOC_ONNX__WIRE_VARINT) ok = byoc_onnx__pb_varint(&pb, &elem_type);
            else if (ok) ok = byoc_onnx__pb_skip(&pb, w);
        }
        if (ok && elem_type == 1) return byoc_onnx_value_load(m, data, size, file, type->fields[0], name_out, diag);
        pb = byoc_onnx__pb_of(b);
        ok = 1;
    }
    while (ok && pb.p < pb.end) {
        uint32_t f;
        int w;
        byoc_onnx__bytes v = {0, 0};
        ok = byoc_onnx__pb_key(&pb, &f, &w);
        if (ok && f == 1) ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&pb, &name);
        else if (ok && (f == 3 || (f == 5 && type->kind == BYOC_TYPE_OPTIONAL))) {
            ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&pb, &v);
            byoc_node *e = !ok ? NULL
                           : f == 5 ? byoc_onnx_value_load(m, v.p, v.n, file, type->fields[0], NULL, diag)
                                    : byoc_onnx_tensor_load(m, v.p, v.n, file, NULL, diag);
            if (!e) goto done;
            has_value = 1;
            stbds_arrput(elems, e);
        } else if (ok && (f == 4 || f == 6 || f == 7 || (f == 5 && type->kind == BYOC_TYPE_SEQUENCE))) {
            byoc__diag(diag, BYOC_ERR_UNSUPPORTED, 0, 0, 0, "%s: a %s of sparse tensors, maps or sequences "
                       "(only tensors are supported)", file, what);
            goto done;
        } else if (ok) ok = byoc_onnx__pb_skip(&pb, w);
    }
    if (!ok) {
        byoc__diag(diag, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: not a valid %s message", file, what);
        goto done;
    }
    if (type->kind == BYOC_TYPE_OPTIONAL) {
        r = !has_value ? byoc_optional_none(m, type) : stbds_arrlen(elems) == 1 ? elems[0] : NULL;
        if (has_value && !r) byoc__diag(diag, BYOC_ERR_CORRUPT, 0, 0, 0, "%s: an optional with several values", file);
    } else {
        byoc_dtype dt = stbds_arrlen(elems) ? elems[0]->annotation->dtype : type->dtype;
        r = byoc_sequence_value(m, byoc_sequence_type(m, dt, NULL), elems, (int)stbds_arrlen(elems));
    }
    if (!r && !diag->code) { /* a sequence of mixed dtypes */
        const byoc_diag *e = byoc_module_error(m);
        byoc__diag(diag, e ? e->code : BYOC_ERR_INTERNAL, 0, 0, 0, "%s: %s", file, e ? e->message : "out of memory");
        byoc_module_clear_error(m);
    }
    if (r && name_out) {
        char small[256];
        char *s = byoc_onnx__cstr(name, small);
        *name_out = s ? byoc_intern(m, s) : "";
        byoc_onnx__cstr_free(s, small);
    }
done:
    stbds_arrfree(elems);
    return r;
}

BYOC_API byoc_node *byoc_onnx_tensor_read(byoc_module *m, const char *path, const char **name_out, byoc_diag *diag) {
    if (!m) { byoc__null_arg(diag, __func__, "module"); return NULL; }
    size_t size = 0;
    uint8_t *data = byoc_onnx__read_file(path, &size, diag);
    if (!data) return NULL;
    byoc_node *c = byoc_onnx_tensor_load(m, data, size, path, name_out, diag);
    free(data);
    return c;
}

#endif /* BYOC_ONNX_IMPLEMENTATION */
