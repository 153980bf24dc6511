/* Helpers shared by the op unit tests (tests/test_ops_*.c): parse Relay text, run @main on inputs given as
   doubles, compare results, print/parse round trips, type errors. Included after test.h and byoc.h. */
#ifndef BYOC_OPS_TEST_H
#define BYOC_OPS_TEST_H
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static byoc_module *parse_text(const char *text, byoc_diag *d) {
    return byoc_module_parse(text, strlen(text), "test.relay", NULL, d);
}

/* one element of a tensor's bytes, as a double */
static double load_elem(byoc_dtype dt, const void *data, int64_t i) {
    const unsigned char *p = (const unsigned char *)data;
    switch (dt) {
    case BYOC_FLOAT32: { float v; memcpy(&v, p + 4 * i, 4); return v; }
    case BYOC_FLOAT64: { double v; memcpy(&v, p + 8 * i, 8); return v; }
    case BYOC_INT8: return (int8_t)p[i];
    case BYOC_UINT8: case BYOC_BOOL: return p[i];
    case BYOC_INT16: { int16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case BYOC_UINT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case BYOC_INT32: { int32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case BYOC_UINT32: { uint32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case BYOC_INT64: { int64_t v; memcpy(&v, p + 8 * i, 8); return (double)v; }
    case BYOC_UINT64: { uint64_t v; memcpy(&v, p + 8 * i, 8); return (double)v; }
    default: return NAN;
    }
}
static void store_elem(byoc_dtype dt, void *data, int64_t i, double v) {
    unsigned char *p = (unsigned char *)data;
    switch (dt) {
    case BYOC_FLOAT32: { float x = (float)v; memcpy(p + 4 * i, &x, 4); break; }
    case BYOC_FLOAT64: memcpy(p + 8 * i, &v, 8); break;
    case BYOC_INT8: { int8_t x = (int8_t)v; memcpy(p + i, &x, 1); break; }
    case BYOC_UINT8: p[i] = (unsigned char)v; break;
    case BYOC_BOOL: p[i] = v != 0; break;
    case BYOC_INT16: { int16_t x = (int16_t)v; memcpy(p + 2 * i, &x, 2); break; }
    case BYOC_UINT16: { uint16_t x = (uint16_t)v; memcpy(p + 2 * i, &x, 2); break; }
    case BYOC_INT32: { int32_t x = (int32_t)v; memcpy(p + 4 * i, &x, 4); break; }
    case BYOC_UINT32: { uint32_t x = (uint32_t)v; memcpy(p + 4 * i, &x, 4); break; }
    case BYOC_INT64: { int64_t x = (int64_t)v; memcpy(p + 8 * i, &x, 8); break; }
    case BYOC_UINT64: { uint64_t x = (uint64_t)v; memcpy(p + 8 * i, &x, 8); break; }
    default: break;
    }
}

/* A program run on given inputs: the module (kept for the round trip), its typed result. */
typedef struct run_result {
    byoc_module *m;
    byoc_node *out; /* a constant, NULL on failure */
    char why[600];
} run_result;

/* r->m's @main evaluated on inputs (values as doubles, stored in each parameter's dtype): r->out, or r->why */
static void evaluate_main(run_result *r, const double *const *inputs) {
    byoc_diag d;
    byoc_node *main_fn = byoc_module_function(r->m, "main"), *in[8];
    if (main_fn->nparams > 8) {
        snprintf(r->why, sizeof r->why, "evaluate: %d parameters (the helper takes 8)", main_fn->nparams);
        return;
    }
    for (int i = 0; i < main_fn->nparams; ++i) {
        const byoc_type *t = main_fn->params[i]->annotation;
        int64_t n = byoc_type_num_elements(t);
        size_t bytes = (size_t)n * byoc_dtype_size(t->dtype);
        unsigned char *buf = (unsigned char *)calloc(bytes ? bytes : 1, 1);
        for (int64_t k = 0; k < n; ++k) store_elem(t->dtype, buf, k, inputs[i][k]);
        in[i] = byoc_constant(r->m, t, buf, bytes);
        free(buf);
    }
    if (byoc_module_evaluate(r->m, in, main_fn->nparams, &r->out, &d) != BYOC_OK) {
        snprintf(r->why, sizeof r->why, "evaluate: %s", d.message);
        r->out = NULL;
    }
}
/* parses `text`, infers types, binds @main's parameters to `inputs` (values as doubles, stored in each
   parameter's dtype) and evaluates */
static run_result run(const char *text, const double *const *inputs) {
    run_result r;
    byoc_diag d;
    memset(&r, 0, sizeof r);
    r.m = parse_text(text, &d);
    if (!r.m) { snprintf(r.why, sizeof r.why, "parse: %s", d.message); return r; }
    if (byoc_infer_type(r.m, &d) != BYOC_OK) { snprintf(r.why, sizeof r.why, "types: %s", d.message); return r; }
    evaluate_main(&r, inputs);
    return r;
}

/* the result equals want[] within tol (exactly when tol is 0; NaN matches NaN) */
static inline int result_is(const run_result *r, const double *want, int64_t n, double tol, char *why, size_t cap) {
    if (!r->out) { snprintf(why, cap, "%s", r->why); return 0; }
    const byoc_type *t = r->out->annotation;
    if (byoc_type_num_elements(t) != n) {
        snprintf(why, cap, "%lld elements, expected %lld", (long long)byoc_type_num_elements(t), (long long)n);
        return 0;
    }
    for (int64_t i = 0; i < n; ++i) {
        double got = load_elem(t->dtype, r->out->data, i);
        int same = (got != got && want[i] != want[i]) || fabs(got - want[i]) <= tol;
        if (!same) {
            snprintf(why, cap, "element %lld is %.9g, expected %.9g", (long long)i, got, want[i]);
            return 0;
        }
    }
    return 1;
}

/* print with types, re-parse, compare structurally */
static inline int round_trips(byoc_module *m, char *why, size_t cap) {
    size_t len;
    char *text = byoc_module_print(m, BYOC_PRINT_TYPES, &len);
    byoc_diag d;
    byoc_module *again = byoc_module_parse(text, len, "printed.relay", NULL, &d);
    int ok = again && byoc_module_structural_equal(m, again);
    if (!again) snprintf(why, cap, "re-parse failed: %s", d.message);
    else if (!ok) snprintf(why, cap, "re-parsed module differs:\n%.500s", text);
    byoc_module_destroy(again);
    byoc_free(m, text);
    return ok;
}

/* the type error of a program, "" when it types */
static inline void type_error_of(const char *text, char *msg, size_t cap) {
    byoc_diag d;
    byoc_module *m = parse_text(text, &d);
    msg[0] = 0;
    if (!m) { snprintf(msg, cap, "parse: %s", d.message); return; }
    if (byoc_infer_type(m, &d) != BYOC_OK) snprintf(msg, cap, "%s", d.message);
    byoc_module_destroy(m);
}

#define CHECK_RUN(r, want, n, tol)                                                 \
    do {                                                                           \
        char why_[700];                                                            \
        int ok_ = result_is(&(r), (want), (n), (tol), why_, sizeof why_);          \
        if (!ok_) byoc_module_destroy((r).m);                                      \
        CHECKF(ok_, "%s", why_);                                                   \
    } while (0)
#define CHECK_ROUND_TRIP(r)                                                        \
    do {                                                                           \
        char why_[700];                                                            \
        int ok_ = round_trips((r).m, why_, sizeof why_);                           \
        byoc_module_destroy((r).m);                                                \
        CHECKF(ok_, "%s", why_);                                                   \
    } while (0)
#define CHECK_TYPE_ERROR(text, needle)                                             \
    do {                                                                           \
        char msg_[700];                                                            \
        const char *got_ = msg_;                                                   \
        type_error_of((text), msg_, sizeof msg_);                                  \
        CHECK_CONTAINS(got_, (needle));                                            \
    } while (0)

/* Small ONNX models written byte by byte (protobuf wire format), for the importer's tests: a graph of one node
   (model_begin), imported (model_import) and run (model_run). Only where tools/byoc_onnx.h is included. */
#ifdef BYOC_ONNX_H_INCLUDED
typedef struct pb { unsigned char *p; size_t n, cap; } pb;
static inline void pb_byte(pb *b, unsigned char c) {
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 256;
        b->p = (unsigned char *)realloc(b->p, b->cap);
    }
    b->p[b->n++] = c;
}
static inline void pb_varint(pb *b, uint64_t v) {
    do {
        pb_byte(b, (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
        v >>= 7;
    } while (v);
}
static inline void pb_int(pb *b, int field, int64_t v) {
    pb_varint(b, (uint64_t)field << 3);
    pb_varint(b, (uint64_t)v);
}
static inline void pb_bytes(pb *b, int field, const void *data, size_t n) {
    pb_varint(b, (uint64_t)field << 3 | 2);
    pb_varint(b, n);
    for (size_t i = 0; i < n; ++i) pb_byte(b, ((const unsigned char *)data)[i]);
}
static inline void pb_str(pb *b, int field, const char *s) { pb_bytes(b, field, s, strlen(s)); }
static inline void pb_msg(pb *b, int field, pb *m) { /* appends m as a field and frees it */
    pb_bytes(b, field, m->p, m->n);
    free(m->p);
    memset(m, 0, sizeof *m);
}

/* an AttributeProto: an int (type 2) or a string (type 3) */
static inline void attr_int(pb *node, const char *name, int64_t v) {
    pb a = {NULL, 0, 0};
    pb_str(&a, 1, name);
    pb_int(&a, 3, v);
    pb_int(&a, 20, 2);
    pb_msg(node, 5, &a);
}
static inline void attr_str(pb *node, const char *name, const char *v) {
    pb a = {NULL, 0, 0};
    pb_str(&a, 1, name);
    pb_str(&a, 4, v);
    pb_int(&a, 20, 3);
    pb_msg(node, 5, &a);
}
static inline void attr_ints(pb *node, const char *name, const int64_t *v, int n) {
    pb a = {NULL, 0, 0};
    pb_str(&a, 1, name);
    for (int i = 0; i < n; ++i) pb_int(&a, 8, v[i]);
    pb_int(&a, 20, 7);
    pb_msg(node, 5, &a);
}
/* a graph input (field 11) or output (12): a tensor of an ONNX element type */
static inline void value_info(pb *g, int field, const char *name, int elem, int rank, const int64_t *dims) {
    pb vi = {NULL, 0, 0}, type = {NULL, 0, 0}, tensor = {NULL, 0, 0}, shape = {NULL, 0, 0};
    pb_str(&vi, 1, name);
    pb_int(&tensor, 1, elem);
    for (int d = 0; d < rank; ++d) {
        pb dim = {NULL, 0, 0};
        pb_int(&dim, 1, dims[d]);
        pb_msg(&shape, 1, &dim);
    }
    pb_msg(&tensor, 2, &shape);
    pb_msg(&type, 1, &tensor);
    pb_msg(&vi, 2, &type);
    pb_msg(g, field, &vi);
}

/* A model of one node `op` reading inputs "a" (and "b" when b_elem > 0) and writing "y"; the caller
   adds the node's attributes to *node before model_finish. */
typedef struct onnx_case { pb graph, node; int opset, microsoft; } onnx_case; /* microsoft: com.microsoft node */
static inline void model_begin(onnx_case *mc, const char *op, int opset, int a_elem, int a_rank, const int64_t *a_dims,
                        int b_elem, int b_rank, const int64_t *b_dims) {
    memset(mc, 0, sizeof *mc);
    mc->opset = opset;
    pb_str(&mc->node, 1, "a");
    if (b_elem) pb_str(&mc->node, 1, "b");
    pb_str(&mc->node, 2, "y");
    pb_str(&mc->node, 3, "n1");
    pb_str(&mc->node, 4, op);
    value_info(&mc->graph, 11, "a", a_elem, a_rank, a_dims);
    if (b_elem) value_info(&mc->graph, 11, "b", b_elem, b_rank, b_dims);
}
/* imports the model: BYOC_OK, or the error in d */
static inline byoc_result model_import(onnx_case *mc, byoc_onnx_model *model, byoc_diag *d) {
    pb m = {NULL, 0, 0}, ops = {NULL, 0, 0}, ms = {NULL, 0, 0};
    if (mc->microsoft) pb_str(&mc->node, 7, "com.microsoft");
    pb_msg(&mc->graph, 1, &mc->node);
    pb_str(&mc->graph, 2, "g");
    pb_int(&m, 1, 8);
    pb_str(&ops, 1, "");
    pb_int(&ops, 2, mc->opset);
    pb_msg(&m, 8, &ops);
    if (mc->microsoft) {
        pb_str(&ms, 1, "com.microsoft");
        pb_int(&ms, 2, 1);
        pb_msg(&m, 8, &ms);
    }
    pb_msg(&m, 7, &mc->graph);
    byoc_result r = byoc_onnx_import(m.p, m.n, "t.onnx", NULL, model, d);
    free(m.p);
    return r;
}
/* runs an imported model's @main on inputs (values as doubles, in each parameter's dtype) */
static inline run_result model_run(byoc_onnx_model *model, const double *const *inputs) {
    run_result r;
    memset(&r, 0, sizeof r);
    r.m = model->module;
    evaluate_main(&r, inputs);
    return r;
}

#define CHECK_IMPORT_ERROR(mc, needle)                                                         \
    do {                                                                                       \
        byoc_onnx_model model_;                                                                \
        byoc_diag d_;                                                                          \
        byoc_result r_ = model_import(&(mc), &model_, &d_);                                    \
        if (r_ == BYOC_OK) byoc_onnx_model_free(&model_);                                      \
        CHECKF(r_ != BYOC_OK && strstr(d_.message, (needle)), "expected \"%s\", got \"%s\"", (needle), \
               r_ == BYOC_OK ? "success" : d_.message);                                        \
    } while (0)

enum { ONNX_FLOAT = 1, ONNX_UINT8 = 2, ONNX_INT8 = 3, ONNX_INT32 = 6, ONNX_INT64 = 7, ONNX_FLOAT8E4M3FN = 17 };
#endif

#endif
