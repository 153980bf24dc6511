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
     present; the decoder never recurses (nested graphs in attributes are skipped, not decoded).

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
       [SECTION] impl: op converters: data-dependent and run-time shapes
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
    int nnodes;                /* ONNX nodes in the graph */
    int nfolded;               /* of them, evaluated at import (constants) */
    /* every ONNX node, in graph order (nnodes entries): */
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
    struct { char *key; byoc_node *value; } *values; /* stb_ds strdup map: ONNX value name -> IR node */
    const byoc_onnx__node *node; /* being converted, for messages */
    int node_index;
    const char *span;         /* "onnx:NAME" of the node being converted (module string) */
    byoc_node **built;        /* stb_ds: IR nodes built for the current node (get its span) */
    const char **notes;       /* stb_ds */
    int nfolded;
    const char **node_ops, **node_spans, **node_folded; /* stb_ds, one per node converted */
} byoc_onnx__state;

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
    return byoc__diag(st->diag, code, 0, 0, 0, "%s:%s%s %s", st->file, where, where[0] ? ":" : "", what);
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
            ok = w == BYOC_ONNX__WIRE_LEN && byoc_onnx__pb_len(&b, &s);
            a->has_g = 1;
            break; /* a subgraph: never decoded */
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
            byoc_onnx__pb t = byoc_onnx__pb_of(type);
            while (ok && t.p < t.end) {
                uint32_t tf;
                int tw;
                byoc_onnx__bytes tensor = {0, 0};
                ok = byoc_onnx__pb_key(&t, &tf, &tw);
                if (!ok) break;
                if (tf != 1) {
                    if (tf == 4 || tf == 5 || tf == 8 || tf == 9) vi->type_field = (int)tf;
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
    if (all_constant && strncmp(op, "annotation.", 11) != 0) {
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
    const byoc_type *t = byoc_onnx__tensor_of(c->st, byoc_onnx__input(c, 0, "data"), "Shape's input");
    if (!t) return BYOC_ONNX__OK(c);
    int64_t start = byoc_onnx__attr_int(c, "start", 0), end = byoc_onnx__attr_int(c, "end", t->rank);
    if (start < 0) start += t->rank;
    if (end < 0) end += t->rank;
    start = start < 0 ? 0 : start > t->rank ? t->rank : start;
    end = end < start ? start : end > t->rank ? t->rank : end;
    int64_t n = end - start;
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
    const byoc_type *t = byoc_onnx__tensor_of(c->st, data, "Gather's data");
    if (!t || !idx) return BYOC_ONNX__OK(c);
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", 0), t->rank, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(c->st->m, &a, "axis", axis);
    /* ONNX indices may count from the end: wrap maps [-n, n) onto [0, n) as ONNX does; constant
       indices are checked here */
    if (idx->kind == BYOC_NODE_CONSTANT) {
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
    const byoc_type *t = byoc_onnx__tensor_of(c->st, x, "Unsqueeze's input");
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
    int64_t dims[BYOC_MAX_RANK];
    for (int d = 0, k = 0; d < rank; ++d) dims[d] = is_new[d] ? 1 : t->dims[k++];
    c->out[0] = byoc_onnx__reshape(c->st, x, rank, dims);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__squeeze(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *x = byoc_onnx__input(c, 0, "data");
    const byoc_type *t = byoc_onnx__tensor_of(c->st, x, "Squeeze's input");
    int64_t axes[BYOC_MAX_RANK];
    int n = t ? byoc_onnx__axes(c, 1, 13, axes, BYOC_MAX_RANK) : -2;
    if (n == -2) return BYOC_ONNX__OK(c);
    int drop[BYOC_MAX_RANK] = {0};
    for (int i = 0; i < n; ++i) {
        int ax = byoc_onnx__norm_axis(c, axes[i], t->rank, "axis");
        if (ax < 0) return BYOC_ONNX__OK(c);
        if (t->dims[ax] != 1)
            return byoc_onnx__fail(c->st, BYOC_ERR_INVALID_ARGUMENT, "cannot squeeze axis %d of size %lld", ax,
                                   (long long)t->dims[ax]);
        drop[ax] = 1;
    }
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
    const byoc_type *t = byoc_onnx__tensor_of(c->st, x, "Flatten's input");
    if (!t) return BYOC_ONNX__OK(c);
    int64_t axis = byoc_onnx__attr_int(c, "axis", 1);
    if (axis < -t->rank || axis > t->rank)
        return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "axis %lld is out of range for rank %d", (long long)axis, t->rank);
    if (axis < 0) axis += t->rank;
    int64_t dims[2] = {1, 1};
    for (int d = 0; d < t->rank; ++d) dims[d < axis ? 0 : 1] *= t->dims[d];
    c->out[0] = byoc_onnx__reshape(c->st, x, 2, dims);
    return BYOC_ONNX__OK(c);
}

BYOC__PRIVATE byoc_result byoc_onnx__reshape_op(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_node *x = byoc_onnx__input(c, 0, "data");
    const byoc_type *t = byoc_onnx__tensor_of(c->st, x, "Reshape's input");
    int64_t shape[BYOC_MAX_RANK];
    int n = !t             ? -1
            : c->opset < 5 ? byoc_onnx__attr_ints(c, "shape", shape, BYOC_MAX_RANK) /* an attribute before opset 5 */
                           : byoc_onnx__const_ints(c->st, byoc_onnx__input(c, 1, "shape"), shape, BYOC_MAX_RANK,
                                                   "Reshape's shape");
    if (n == -1 && t && c->opset < 5 && !c->st->diag->code)
        return byoc_onnx__fail(c->st, BYOC_ERR_ATTR, "Reshape needs its shape attribute (opset %d)", c->opset);
    if (n < 0) return BYOC_ONNX__OK(c);
    int allowzero = (int)byoc_onnx__attr_int(c, "allowzero", 0), infer = -1;
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
    const byoc_type *t = byoc_onnx__tensor_of(c->st, x, "Transpose's input");
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
    const byoc_type *t = byoc_onnx__tensor_of(c->st, byoc_onnx__input(c, 0, "inputs"), "Concat's first input");
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
    const byoc_type *t = byoc_onnx__tensor_of(c->st, x, "Expand's input");
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

// [SECTION] impl: op converters: softmax, convolutions, pools, normalisations, reductions
/* Softmax and LogSoftmax: before opset 13 the input is seen as 2-D [prod(dims < axis), prod(rest)] */
BYOC__PRIVATE byoc_result byoc_onnx__softmax(byoc_onnx__ctx *c, const char *op) {
    byoc_node *x = byoc_onnx__input(c, 0, "input");
    const byoc_type *t = byoc_onnx__tensor_of(c->st, x, "the input");
    if (!t) return BYOC_ONNX__OK(c);
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", c->opset < 13 ? 1 : -1), t->rank, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
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

/* numpy matmul: 2-D weights become nn.dense (weights transposed once, folded when constant); batched
   operands become nn.batch_matmul on 3-D views with the batch broadcast */
BYOC__PRIVATE byoc_result byoc_onnx__matmul(byoc_onnx__ctx *c, const char *op) {
    (void)op;
    byoc_onnx__state *st = c->st;
    byoc_node *a = byoc_onnx__input(c, 0, "A"), *b = byoc_onnx__input(c, 1, "B");
    const byoc_type *ta = byoc_onnx__tensor_of(st, a, "MatMul's A"),
                    *tb = ta ? byoc_onnx__tensor_of(st, b, "MatMul's B") : NULL;
    if (!ta || !tb) return BYOC_ONNX__OK(c);
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
        y = byoc_onnx__call2(st, "nn.dense", byoc_onnx__reshape(st, a, 2, rows), byoc_onnx__transpose(st, b, 2, perm),
                             NULL);
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
    const byoc_type *ta = byoc_onnx__tensor_of(st, a, "Gemm's A"),
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
    const byoc_type *tx = byoc_onnx__tensor_of(st, x, "Conv's X"),
                    *tw = tx ? byoc_onnx__tensor_of(st, w, "Conv's W") : NULL;
    if (!tx || !tw) return BYOC_ONNX__OK(c);
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
    const byoc_type *tx = byoc_onnx__tensor_of(st, x, "the pool's input");
    if (!tx) return BYOC_ONNX__OK(c);
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
    const byoc_type *tx = byoc_onnx__tensor_of(c->st, byoc_onnx__input(c, 0, "X"), "the pool's input");
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
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "LayerNormalization's X");
    if (!t || !scale) return BYOC_ONNX__OK(c);
    int axis = byoc_onnx__norm_axis(c, byoc_onnx__attr_int(c, "axis", -1), t->rank, "axis");
    if (axis < 0) return BYOC_ONNX__OK(c);
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
    byoc_node *x2 = byoc_onnx__reshape(st, x, 2, flat);
    byoc_node *args[3] = {x2, params[0], params[1]};
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_int(st->m, &a, "axis", -1);
    byoc_attrs_set_float(st->m, &a, "epsilon", eps);
    c->out[0] = byoc_onnx__reshape(st, byoc_onnx__call(st, "nn.layer_norm", args, 3, &a), t->rank, t->dims);
    int want_mean = c->nout > 1 && c->node->outputs[1].n, want_inv = c->nout > 2 && c->node->outputs[2].n;
    if (c->out[0] && (want_mean || want_inv)) { /* shapes: X's with the normalized dims as 1 */
        int64_t kept[BYOC_MAX_RANK], one = 1;
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
        if (want_mean) c->out[1] = byoc_onnx__reshape(st, mean, t->rank, kept);
        if (want_inv) c->out[2] = byoc_onnx__reshape(st, inv, t->rank, kept);
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
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "the reduction's input");
    if (!t) return BYOC_ONNX__OK(c);
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
    const byoc_type *t = byoc_onnx__tensor_of(st, x, "Tile's input");
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
    const byoc_type *t = x && axis_in ? byoc_onnx__tensor_of(st, x, "CumSum's x") : NULL;
    if (!t) return BYOC_ONNX__OK(c);
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
    const byoc_type *t = byoc_onnx__tensor_of(c->st, idx, what);
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

/* HannWindow, HammingWindow, BlackmanWindow: the size must be known at import (the shape depends on it) */
BYOC__PRIVATE byoc_result byoc_onnx__window_op(byoc_onnx__ctx *c, const char *op) {
    int64_t size;
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

/* MelWeightMatrix: every input must be known at import (they give the shape) */
BYOC__PRIVATE byoc_result byoc_onnx__mel_weight_matrix(byoc_onnx__ctx *c, const char *op) {
    int64_t bins, len, rate;
    double lo, hi;
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
    if (c->nin > 3 && c->in[3]) return byoc_onnx__fail(st, BYOC_ERR_UNSUPPORTED, "Pad with axes is not supported");
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
};

BYOC__PRIVATE const byoc_onnx__op_entry *byoc_onnx__find_op(const byoc_onnx__node *n) {
    if (n->domain.n && !byoc_onnx__bytes_eq(n->domain, "ai.onnx")) return NULL;
    for (size_t i = 0; i < sizeof byoc_onnx__ops / sizeof byoc_onnx__ops[0]; ++i)
        if (byoc_onnx__bytes_eq(n->op_type, byoc_onnx__ops[i].onnx)) return &byoc_onnx__ops[i];
    return NULL;
}

// [SECTION] impl: import
BYOC__PRIVATE byoc_node *byoc_onnx__lookup(byoc_onnx__state *st, byoc_onnx__bytes name) {
    char small[256];
    char *key = byoc_onnx__cstr(name, small);
    if (!key) return NULL;
    ptrdiff_t i = stbds_shgeti(st->values, key);
    byoc_onnx__cstr_free(key, small);
    return i >= 0 ? st->values[i].value : NULL;
}

BYOC__PRIVATE void byoc_onnx__define(byoc_onnx__state *st, byoc_onnx__bytes name, byoc_node *value) {
    char small[256];
    char *key = byoc_onnx__cstr(name, small);
    if (!key) return;
    stbds_shput(st->values, key, value);
    byoc_onnx__cstr_free(key, small);
}

/* an input's type: the file's, with symbolic dims from the options (or the default), or an override */
BYOC__PRIVATE const byoc_type *byoc_onnx__input_type(byoc_onnx__state *st, const byoc_onnx__value_info *vi,
                                                     const char *name, int position) {
    const byoc_onnx_options *o = st->opt;
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
            u.count = 1;
            stbds_arrput(unsupported, u);
        }
    }
    if (!stbds_arrlen(unsupported)) return BYOC_OK;
    char list[700] = "";
    size_t used = 0;
    for (int k = 0; k < (int)stbds_arrlen(unsupported); ++k) {
        int w = snprintf(list + used, sizeof list - used, "%s%s x%d", k ? ", " : "", unsupported[k].op,
                         unsupported[k].count);
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
                        st, BYOC_ERR_INVALID_ARGUMENT,
                        "input '%s' is not defined before this node (the graph must be topologically sorted)", nm);
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
    stbds_sh_new_strdup(st.values);

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
            out->nnodes = (int)stbds_arrlen(g.nodes);
            out->nfolded = nfolded;
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
