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

/* parses `text`, infers types, binds @main's parameters to `inputs` (values as doubles, stored in each
   parameter's dtype) and evaluates */
static run_result run(const char *text, const double *const *inputs) {
    run_result r;
    byoc_diag d;
    memset(&r, 0, sizeof r);
    r.m = parse_text(text, &d);
    if (!r.m) { snprintf(r.why, sizeof r.why, "parse: %s", d.message); return r; }
    if (byoc_infer_type(r.m, &d) != BYOC_OK) { snprintf(r.why, sizeof r.why, "types: %s", d.message); return r; }
    byoc_node *main_fn = byoc_module_function(r.m, "main");
    byoc_node *in[8];
    for (int i = 0; i < main_fn->nparams && i < 8; ++i) {
        const byoc_type *t = main_fn->params[i]->annotation;
        int64_t n = byoc_type_num_elements(t);
        size_t bytes = (size_t)n * byoc_dtype_size(t->dtype);
        unsigned char *buf = (unsigned char *)calloc(bytes ? bytes : 1, 1);
        for (int64_t k = 0; k < n; ++k) store_elem(t->dtype, buf, k, inputs[i][k]);
        in[i] = byoc_constant(r.m, t, buf, bytes);
        free(buf);
    }
    if (byoc_module_evaluate(r.m, in, main_fn->nparams, &r.out, &d) != BYOC_OK) {
        snprintf(r.why, sizeof r.why, "evaluate: %s", d.message);
        r.out = NULL;
    }
    return r;
}

/* the result equals want[] within tol (exactly when tol is 0; NaN matches NaN) */
static int result_is(const run_result *r, const double *want, int64_t n, double tol, char *why, size_t cap) {
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
static int round_trips(byoc_module *m, char *why, size_t cap) {
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
static void type_error_of(const char *text, char *msg, size_t cap) {
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
#endif
