/* Unit tests for the losses family of built-in ops: nn.nll_loss (ONNX NegativeLogLikelihoodLoss, and with
   nn.log_softmax SoftmaxCrossEntropyLoss) and einsum. Each op: Relay text that calls it, its inferred type,
   its value through byoc_module_evaluate against values worked out by hand or by a naive loop over every
   index, its type errors, and a print/parse round trip; then the ONNX converters on models written here.
   Public API only. */
#include "byoc.h"
#include "tools/byoc_onnx.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

/* ---- helpers ---- */
static byoc_module *parse_text(const char *text, byoc_diag *d) {
    return byoc_module_parse(text, strlen(text), "test.relay", NULL, d);
}

/* print with types, re-parse, compare */
static int round_trips(byoc_module *m, char *why, size_t cap) {
    size_t len;
    char *text = byoc_module_print(m, BYOC_PRINT_TYPES, &len);
    byoc_diag d;
    byoc_module *again = text ? byoc_module_parse(text, len, "printed.relay", NULL, &d) : NULL;
    int ok = again && byoc_module_structural_equal(m, again);
    if (!again) snprintf(why, cap, "re-parse failed: %s", text ? d.message : "print failed");
    else if (!ok) snprintf(why, cap, "re-parsed module differs:\n%s", text);
    byoc_module_destroy(again);
    byoc_free(m, text);
    return ok;
}

/* a constant of dtype dt from doubles */
static byoc_node *constant_of(byoc_module *m, byoc_dtype dt, int rank, const int64_t *dims, const double *v) {
    const byoc_type *t = byoc_tensor_type(m, dt, rank, dims);
    int64_t n = byoc_type_num_elements(t);
    size_t es = byoc_dtype_size(dt);
    unsigned char *data = (unsigned char *)calloc((size_t)(n > 0 ? n : 1), es);
    for (int64_t i = 0; i < n; ++i) {
        switch (dt) {
        case BYOC_FLOAT32: {
            float f = (float)v[i];
            memcpy(data + 4 * i, &f, 4);
            break;
        }
        case BYOC_FLOAT64: memcpy(data + 8 * i, &v[i], 8); break;
        case BYOC_INT32: {
            int32_t x = (int32_t)v[i];
            memcpy(data + 4 * i, &x, 4);
            break;
        }
        case BYOC_INT64: {
            int64_t x = (int64_t)v[i];
            memcpy(data + 8 * i, &x, 8);
            break;
        }
        default: break;
        }
    }
    byoc_node *c = byoc_constant(m, t, data, (size_t)n * es);
    free(data);
    return c;
}

/* element i of a result constant as a double */
static double element(const byoc_node *c, int64_t i) {
    const byoc_type *t = c->checked_type ? c->checked_type : c->annotation;
    const unsigned char *p = (const unsigned char *)c->data;
    switch (t->dtype) {
    case BYOC_FLOAT32: {
        float f;
        memcpy(&f, p + 4 * i, 4);
        return f;
    }
    case BYOC_FLOAT64: {
        double x;
        memcpy(&x, p + 8 * i, 8);
        return x;
    }
    case BYOC_INT32: {
        int32_t x;
        memcpy(&x, p + 4 * i, 4);
        return x;
    }
    case BYOC_INT64: {
        int64_t x;
        memcpy(&x, p + 8 * i, 8);
        return (double)x;
    }
    default: return NAN;
    }
}

/* parses text, evaluates @main on the inputs (built in the module by make_inputs), returns the output */
typedef int (*inputs_fn)(byoc_module *m, byoc_node **in);
static byoc_node *evaluate_text(const char *text, inputs_fn make_inputs, byoc_module **mod, byoc_diag *d) {
    *mod = parse_text(text, d);
    if (!*mod) return NULL;
    byoc_node *in[8], *out = NULL;
    int n = make_inputs(*mod, in);
    return byoc_module_evaluate(*mod, in, n, &out, d) == BYOC_OK ? out : NULL;
}

/* ---- nn.nll_loss ---- */
static const char *nll_text(const char *attrs) {
    static char text[1024];
    snprintf(text, sizeof text,
             "#[version = \"0.0.5\"]\n"
             "def @main(%%x: Tensor[(2, 3), float32], %%t: Tensor[(2), int64], %%w: Tensor[(3), float32]) {\n"
             "  nn.nll_loss(%%x, %%t, %%w%s)\n"
             "}\n",
             attrs);
    return text;
}
static double nll_targets[2] = {2, 0};
static int nll_inputs(byoc_module *m, byoc_node **in) {
    static const double x[6] = {-1.0, -2.0, -3.0, -0.5, -1.5, -2.5}, w[3] = {1, 2, 3};
    int64_t xd[2] = {2, 3}, td[1] = {2}, wd[1] = {3};
    in[0] = constant_of(m, BYOC_FLOAT32, 2, xd, x);
    in[1] = constant_of(m, BYOC_INT64, 1, td, nll_targets);
    in[2] = constant_of(m, BYOC_FLOAT32, 1, wd, w);
    return 3;
}

/* losses -w[t] * x[n, t]: 3 * 3 = 9 and 1 * 0.5 = 0.5; weights of the targets 3 and 1 */
static void test_nll_loss_reductions(void) {
    static const struct {
        const char *attrs;
        double want[2];
        int n;
    } cases[] = {
        {"", {2.375, 0}, 1}, /* mean: 9.5 / 4 */
        {", reduction=\"sum\"", {9.5, 0}, 1},
        {", reduction=\"none\"", {9, 0.5}, 2},
        {", reduction=\"mean\", ignore_index=2", {0.5, 0}, 1}, /* target 2 ignored: 0.5 / 1 */
        {", reduction=\"none\", ignore_index=0", {9, 0}, 2},
    };
    nll_targets[0] = 2;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        byoc_module *m;
        byoc_diag d;
        byoc_node *out = evaluate_text(nll_text(cases[c].attrs), nll_inputs, &m, &d);
        CHECKF(out, "%s: %s", cases[c].attrs, d.message);
        const byoc_type *t = out->checked_type ? out->checked_type : out->annotation;
        CHECKF(t->rank == (cases[c].n == 1 ? 0 : 1) && t->dtype == BYOC_FLOAT32, "%s: result rank %d", cases[c].attrs,
               t->rank);
        for (int i = 0; i < cases[c].n; ++i)
            CHECKF(fabs(element(out, i) - cases[c].want[i]) < 1e-6, "%s: element %d is %g, expected %g", cases[c].attrs,
                   i, element(out, i), cases[c].want[i]);
        char why[2048];
        CHECKF(round_trips(m, why, sizeof why), "%s", why);
        byoc_module_destroy(m);
    }
}

/* (N, C, d1): x[n, c, d] = -(6n + 2c + d) / 10, no weights, every target counted */
static int nll_nd_inputs(byoc_module *m, byoc_node **in) {
    double x[12], t[4] = {0, 2, 1, 1};
    for (int i = 0; i < 12; ++i) x[i] = -i / 10.0;
    int64_t xd[3] = {2, 3, 2}, td[2] = {2, 2};
    in[0] = constant_of(m, BYOC_FLOAT32, 3, xd, x);
    in[1] = constant_of(m, BYOC_INT64, 2, td, t);
    return 2;
}
static void test_nll_loss_spatial(void) {
    const char *text = "#[version = \"0.0.5\"]\n"
                       "def @main(%x: Tensor[(2, 3, 2), float32], %t: Tensor[(2, 2), int64]) {\n"
                       "  nn.nll_loss(%x, %t, reduction=\"none\", ignore_index=None)\n"
                       "}\n";
    byoc_module *m;
    byoc_diag d;
    byoc_node *out = evaluate_text(text, nll_nd_inputs, &m, &d);
    CHECKF(out, "%s", d.message);
    const byoc_type *t = out->checked_type ? out->checked_type : out->annotation;
    CHECK(t->rank == 2 && t->dims[0] == 2 && t->dims[1] == 2);
    static const double want[4] = {0.0, 0.5, 0.8, 0.9}; /* -x[0,0,0], -x[0,2,1], -x[1,1,0], -x[1,1,1] */
    for (int i = 0; i < 4; ++i)
        CHECKF(fabs(element(out, i) - want[i]) < 1e-6, "element %d is %g, expected %g", i, element(out, i), want[i]);
    char why[2048];
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
}

/* a target outside [0, C) that is not ignore_index is an error naming the op, not a read out of bounds */
static void test_nll_loss_bad_target(void) {
    byoc_module *m;
    byoc_diag d;
    nll_targets[0] = 3;
    byoc_node *out = evaluate_text(nll_text(", ignore_index=-1"), nll_inputs, &m, &d);
    nll_targets[0] = 2;
    CHECK(!out);
    CHECK_CONTAINS(d.message, "nn.nll_loss");
    CHECK_CONTAINS(d.message, "target 3 (element 0) is outside the classes [0, 3)");
    byoc_module_destroy(m);
}

static void expect_type_error(const char *text, const char *needle) {
    byoc_diag d;
    byoc_module *m = parse_text(text, &d);
    CHECKF(m, "parse: %s", d.message);
    CHECKF(byoc_infer_type(m, &d) == BYOC_ERR_TYPE, "no type error for:\n%s", text);
    byoc_module_destroy(m);
    CHECK_CONTAINS(d.message, needle);
}

static void test_nll_loss_type_errors(void) {
    expect_type_error("#[version = \"0.0.5\"]\n"
                      "def @main(%x: Tensor[(2, 3), float32], %t: Tensor[(2), float32]) { nn.nll_loss(%x, %t) }\n",
                      "targets must be class indices of an integer dtype, got float32");
    if (test_failed) return;
    expect_type_error("#[version = \"0.0.5\"]\n"
                      "def @main(%x: Tensor[(2, 3, 4), float32], %t: Tensor[(2), int64]) { nn.nll_loss(%x, %t) }\n",
                      "targets must be (N, d1, ..., dk): rank 2 for predictions of rank 3, got rank 1");
    if (test_failed) return;
    expect_type_error("#[version = \"0.0.5\"]\n"
                      "def @main(%x: Tensor[(2, 3, 4), float32], %t: Tensor[(2, 5), int64]) { nn.nll_loss(%x, %t) }\n",
                      "targets axis 1 has 5, predictions have 4");
    if (test_failed) return;
    expect_type_error("#[version = \"0.0.5\"]\n"
                      "def @main(%x: Tensor[(2, 3), float32], %t: Tensor[(2), int64], %w: Tensor[(4), float32]) {\n"
                      "  nn.nll_loss(%x, %t, %w)\n}\n",
                      "weights have 4 classes, predictions 3");
    if (test_failed) return;
    expect_type_error("#[version = \"0.0.5\"]\n"
                      "def @main(%x: Tensor[(2, 3), float32], %t: Tensor[(2), int64]) {\n"
                      "  nn.nll_loss(%x, %t, reduction=\"max\")\n}\n",
                      "reduction \"max\" is not one of none, sum, mean");
}

/* ---- einsum ---- */
/* A naive reference: every assignment of values to the letters of an explicit equation without "...",
   an extent-1 axis repeating its element (as "..." broadcasts). */
static void naive_einsum(const char *eq, int nops, const int64_t dims[][8], const double *const *data, double *out,
                         int64_t nout) {
    const char *terms[8];
    int lens[8], n = 0;
    const char *p = eq;
    for (; n < nops; ++n) {
        terms[n] = p;
        while (*p != ',' && *p != '-') ++p;
        lens[n] = (int)(p - terms[n]);
        ++p;
    }
    const char *rhs = strstr(eq, "->") + 2;
    int64_t size[128] = {0}, val[128] = {0}, points = 1;
    char letters[64], seen[128] = {0};
    int nl = 0;
    for (int i = 0; i < nops; ++i)
        for (int a = 0; a < lens[i]; ++a) {
            unsigned char ch = (unsigned char)terms[i][a];
            if (!seen[ch]++) letters[nl++] = (char)ch;
            if (dims[i][a] > size[ch] || dims[i][a] == 0) size[ch] = dims[i][a];
        }
    for (int l = 0; l < nl; ++l) points *= size[(unsigned char)letters[l]];
    for (int64_t i = 0; i < nout; ++i) out[i] = 0;
    while (points > 0) {
        double prod = 1;
        for (int i = 0; i < nops; ++i) {
            int64_t off = 0;
            for (int a = 0; a < lens[i]; ++a)
                off = off * dims[i][a] + (dims[i][a] == 1 ? 0 : val[(unsigned char)terms[i][a]]);
            prod *= data[i][off];
        }
        int64_t o = 0;
        for (const char *r = rhs; *r; ++r) o = o * size[(unsigned char)*r] + val[(unsigned char)*r];
        out[o] += prod;
        int d = nl - 1;
        for (; d >= 0; --d) {
            if (++val[(unsigned char)letters[d]] < size[(unsigned char)letters[d]]) break;
            val[(unsigned char)letters[d]] = 0;
        }
        if (d < 0) break;
    }
}

typedef struct einsum_case {
    const char *equation, *reference; /* the op's equation, an explicit one the naive loop computes */
    int nops, ranks[4];
    int64_t dims[4][8];
    int out_rank;
    int64_t out_dims[8];
} einsum_case;

/* builds einsum((%x0, %x1, ...), equation=...) on pseudo-random inputs of dtype dt, checks the inferred
   type, evaluates it and compares with the naive loop; why gets the first difference */
static int check_einsum(const einsum_case *c, byoc_dtype dt, double tolerance, char *why, size_t cap) {
    byoc_module *m = byoc_module_create(NULL);
    byoc_node *params[4], *inputs[4], *out = NULL;
    double *data[4];
    unsigned seed = 12345;
    for (int i = 0; i < c->nops; ++i) {
        char name[8];
        snprintf(name, sizeof name, "x%d", i);
        params[i] = byoc_var(m, name, byoc_tensor_type(m, dt, c->ranks[i], c->dims[i]));
        int64_t n = 1;
        for (int a = 0; a < c->ranks[i]; ++a) n *= c->dims[i][a];
        data[i] = (double *)malloc(sizeof(double) * (size_t)(n ? n : 1));
        for (int64_t j = 0; j < n; ++j) {
            seed = seed * 1103515245u + 12345u;
            int r = (int)((seed >> 16) % 17) - 8; /* small integers: every dtype computes them exactly */
            data[i][j] = dt == BYOC_INT32 ? r : r / 4.0;
        }
        inputs[i] = constant_of(m, dt, c->ranks[i], c->dims[i], data[i]);
    }
    byoc_attrs a;
    memset(&a, 0, sizeof a);
    byoc_attrs_set_string(m, &a, "equation", c->equation);
    byoc_node *tuple = byoc_tuple(m, params, c->nops);
    byoc_node *call = byoc_call(m, "einsum", &tuple, 1, &a);
    byoc_module_add_function(m, "main", byoc_function(m, params, c->nops, call, NULL, NULL));
    byoc_diag d;
    int ok = byoc_module_evaluate(m, inputs, c->nops, &out, &d) == BYOC_OK;
    if (!ok) snprintf(why, cap, "%s: %s", c->equation, d.message);
    const byoc_type *t = ok ? out->annotation : NULL;
    if (ok &&
        (t->rank != c->out_rank || t->dtype != dt || memcmp(t->dims, c->out_dims, sizeof(int64_t) * (size_t)t->rank))) {
        char s[160];
        byoc_type_to_string(t, s, sizeof s);
        snprintf(why, cap, "%s: result type %s", c->equation, s);
        ok = 0;
    }
    int64_t n = ok ? byoc_type_num_elements(t) : 0;
    double *want = (double *)malloc(sizeof(double) * (size_t)(n ? n : 1));
    if (ok) naive_einsum(c->reference, c->nops, c->dims, (const double *const *)data, want, n);
    for (int64_t i = 0; ok && i < n; ++i)
        if (fabs(element(out, i) - want[i]) > tolerance * (1 + fabs(want[i]))) {
            snprintf(why, cap, "%s (%s): element %lld is %g, expected %g", c->equation, byoc_dtype_name(dt),
                     (long long)i, element(out, i), want[i]);
            ok = 0;
        }
    if (ok && !round_trips(m, why, cap)) ok = 0;
    free(want);
    for (int i = 0; i < c->nops; ++i) free(data[i]);
    byoc_module_destroy(m);
    return ok;
}

static const einsum_case einsum_cases[] = {
    {"ij,jk->ik", "ij,jk->ik", 2, {2, 2}, {{3, 4}, {4, 5}}, 2, {3, 5}},
    {"ij,jk", "ij,jk->ik", 2, {2, 2}, {{3, 4}, {4, 5}}, 2, {3, 5}}, /* implicit */
    {"ba", "ba->ab", 1, {2}, {{3, 4}}, 2, {4, 3}},                  /* implicit: sorted, a transpose */
    {"Ba", "Ba->Ba", 1, {2}, {{3, 4}}, 2, {3, 4}},                  /* ASCII: 'B' before 'a' */
    {"ii->i", "ii->i", 1, {2}, {{4, 4}}, 1, {4}},                   /* diagonal */
    {"ii", "ii->", 1, {2}, {{4, 4}}, 0, {0}},                       /* trace */
    {"iij->ji", "iij->ji", 1, {3}, {{3, 3, 2}}, 2, {2, 3}},
    {"ij->", "ij->", 1, {2}, {{3, 4}}, 0, {0}},
    {"i,i", "i,i->", 2, {1, 1}, {{5}, {5}}, 0, {0}},                    /* inner product */
    {"i,j->ij", "i,j->ij", 2, {1, 1}, {{3}, {4}}, 2, {3, 4}},           /* outer product */
    {"ij,ij->ij", "ij,ij->ij", 2, {2, 2}, {{3, 4}, {3, 4}}, 2, {3, 4}}, /* elementwise */
    {"bij,bjk->bik", "bij,bjk->bik", 2, {3, 3}, {{2, 3, 4}, {2, 4, 5}}, 3, {2, 3, 5}},
    {"bji,bjk->bki", "bji,bjk->bki", 2, {3, 3}, {{2, 4, 3}, {2, 4, 5}}, 3, {2, 5, 3}},
    {"...ij,...jk->...ik", "xyij,yjk->xyik", 2, {4, 3}, {{2, 1, 3, 4}, {5, 4, 2}}, 4, {2, 5, 3, 2}},
    {"...ii->...i", "bii->bi", 1, {3}, {{3, 4, 4}}, 2, {3, 4}},
    {"i...->...", "ixy->xy", 1, {3}, {{3, 2, 2}}, 2, {2, 2}},
    {"abc,cd,de->abe", "abc,cd,de->abe", 3, {3, 2, 2}, {{2, 3, 4}, {4, 5}, {5, 2}}, 3, {2, 3, 2}},
    {"ab,bc,cd,da->", "ab,bc,cd,da->", 4, {2, 2, 2, 2}, {{2, 3}, {3, 4}, {4, 2}, {2, 2}}, 0, {0}},
    {"ij,kj->ikj", "ij,kj->ikj", 2, {2, 2}, {{2, 3}, {4, 3}}, 3, {2, 4, 3}}, /* a batch axis that stays */
    {",ij->ij", ",ij->ij", 2, {0, 2}, {{0}, {2, 3}}, 2, {2, 3}},             /* a scalar operand */
    {"ij->j", "ij->j", 1, {2}, {{0, 3}}, 1, {3}},                            /* a sum over nothing */
};

static void test_einsum_equations(void) {
    static const byoc_dtype dts[] = {BYOC_FLOAT32, BYOC_FLOAT64, BYOC_INT32};
    char why[4096];
    for (size_t c = 0; c < sizeof einsum_cases / sizeof einsum_cases[0]; ++c)
        for (size_t t = 0; t < sizeof dts / sizeof dts[0]; ++t)
            CHECKF(check_einsum(&einsum_cases[c], dts[t], 1e-9, why, sizeof why), "%s", why);
}

/* big enough for byoc_sgemm, operands transposed, batched and with a summed axis of one operand alone */
static void test_einsum_gemm_sized(void) {
    static const einsum_case big[] = {
        {"ij,jk->ik", "ij,jk->ik", 2, {2, 2}, {{33, 70}, {70, 41}}, 2, {33, 41}},
        {"ji,kj->ik", "ji,kj->ik", 2, {2, 2}, {{70, 33}, {41, 70}}, 2, {33, 41}},
        {"bij,bkj->bik", "bij,bkj->bik", 2, {3, 3}, {{3, 20, 30}, {3, 25, 30}}, 3, {3, 20, 25}},
        {"aij,jkl->ikl", "aij,jkl->ikl", 2, {3, 3}, {{4, 16, 24}, {24, 8, 9}}, 3, {16, 8, 9}},
    };
    char why[4096];
    for (size_t c = 0; c < sizeof big / sizeof big[0]; ++c)
        CHECKF(check_einsum(&big[c], BYOC_FLOAT32, 1e-4, why, sizeof why), "%s", why);
}

static void test_einsum_text_and_errors(void) {
    const char *text = "#[version = \"0.0.5\"]\n"
                       "def @main(%a: Tensor[(2, 3), float32], %b: Tensor[(3, 4), float32]) {\n"
                       "  einsum((%a, %b), equation=\"ij,jk->ik\")\n"
                       "}\n";
    byoc_diag d;
    byoc_module *m = parse_text(text, &d);
    CHECKF(m && byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    const byoc_type *t = byoc_module_function(m, "main")->body->checked_type;
    CHECK(t->rank == 2 && t->dims[0] == 2 && t->dims[1] == 4 && t->dtype == BYOC_FLOAT32);
    char why[2048];
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
    expect_type_error("#[version = \"0.0.5\"]\n"
                      "def @main(%a: Tensor[(2, 3), float32], %b: Tensor[(4, 5), float32]) {\n"
                      "  einsum((%a, %b), equation=\"ij,jk->ik\")\n}\n",
                      "subscript 'j' has extent 4 in operand 1 but 3 elsewhere");
    if (test_failed) return;
    expect_type_error("#[version = \"0.0.5\"]\n"
                      "def @main(%a: Tensor[(2, 3), float32]) { einsum((%a,), equation=\"ij->iz\") }\n",
                      "output subscript 'z' is in no input");
    if (test_failed) return;
    expect_type_error("#[version = \"0.0.5\"]\n"
                      "def @main(%a: Tensor[(2, 3, 4), float32]) { einsum((%a,), equation=\"ij->i\") }\n",
                      "operand 0 has rank 3, its term names 2 axes and has no \"...\"");
    if (test_failed) return;
    expect_type_error("#[version = \"0.0.5\"]\n"
                      "def @main(%a: Tensor[(2, 3), float32]) { einsum((%a,), equation=\"ij,jk->ik\") }\n",
                      "2 input terms for 1 operands");
    if (test_failed) return;
    expect_type_error("#[version = \"0.0.5\"]\n"
                      "def @main(%a: Tensor[(1, 1, 1, 1, 1), float32], %b: Tensor[(1, 1), float32]) {\n"
                      "  einsum((%a, %a, %b, %b, %b, %b, %b), equation=\"abcde,fghij,af,bg,ch,di,ej->\")\n}\n",
                      "contracting the operands left to right makes a product of 10 axes after operand 1 (at most 8)");
}

/* ---- the ONNX converters: models written here with a small protobuf writer ---- */
typedef struct pbuf {
    unsigned char *p;
    size_t n, cap;
} pbuf;
static void put_byte(pbuf *b, unsigned char c) {
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 256;
        b->p = (unsigned char *)realloc(b->p, b->cap);
    }
    b->p[b->n++] = c;
}
static void put_varint(pbuf *b, uint64_t v) {
    do {
        put_byte(b, (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
        v >>= 7;
    } while (v);
}
static void put_int(pbuf *b, int field, int64_t v) {
    put_varint(b, (uint64_t)field << 3);
    put_varint(b, (uint64_t)v);
}
static void put_bytes(pbuf *b, int field, const void *data, size_t n) {
    put_varint(b, (uint64_t)field << 3 | 2);
    put_varint(b, n);
    for (size_t i = 0; i < n; ++i) put_byte(b, ((const unsigned char *)data)[i]);
}
static void put_str(pbuf *b, int field, const char *s) { put_bytes(b, field, s, strlen(s)); }
static void put_msg(pbuf *b, int field, pbuf *m) {
    put_bytes(b, field, m->p, m->n);
    free(m->p);
    memset(m, 0, sizeof *m);
}

/* a ValueInfoProto: a tensor of ONNX element type elem */
static void put_value_info(pbuf *g, int field, const char *name, int elem, int rank, const int64_t *dims) {
    pbuf vi = {0, 0, 0}, type = {0, 0, 0}, tensor = {0, 0, 0}, shape = {0, 0, 0};
    put_str(&vi, 1, name);
    put_int(&tensor, 1, elem);
    for (int d = 0; d < rank; ++d) {
        pbuf dim = {0, 0, 0};
        put_int(&dim, 1, dims[d]);
        put_msg(&shape, 1, &dim);
    }
    put_msg(&tensor, 2, &shape);
    put_msg(&type, 1, &tensor);
    put_msg(&vi, 2, &type);
    put_msg(g, field, &vi);
}

/* A one-node model: inputs x (elem, x_dims), t (int64, t_dims), optionally w (elem, C); outputs y (and
   log_prob); attributes reduction (NULL: absent), ignore_index (has_ignore) or equation. */
typedef struct loss_model {
    const char *op, *reduction, *equation;
    int elem, x_rank, t_rank, with_weight, has_ignore, nout;
    int64_t x_dims[8], t_dims[8], ignore_index;
} loss_model;

static void put_attr(pbuf *node, const char *name, const char *s, int64_t i) {
    pbuf a = {0, 0, 0};
    put_str(&a, 1, name);
    if (s) {
        put_bytes(&a, 4, s, strlen(s));
        put_int(&a, 20, 3);
    } else {
        put_int(&a, 3, i);
        put_int(&a, 20, 2);
    }
    put_msg(node, 5, &a);
}

static pbuf loss_model_bytes(const loss_model *lm) {
    pbuf g = {0, 0, 0}, node = {0, 0, 0}, model = {0, 0, 0}, ops = {0, 0, 0};
    int einsum = lm->equation != NULL;
    put_str(&node, 1, "x");
    put_str(&node, 1, "t");
    if (lm->with_weight) put_str(&node, 1, "w");
    put_str(&node, 2, "y");
    if (lm->nout > 1) put_str(&node, 2, "log_prob");
    put_str(&node, 3, "loss1");
    put_str(&node, 4, lm->op);
    if (lm->reduction) put_attr(&node, "reduction", lm->reduction, 0);
    if (lm->has_ignore) put_attr(&node, "ignore_index", NULL, lm->ignore_index);
    if (einsum) put_attr(&node, "equation", lm->equation, 0);
    put_msg(&g, 1, &node);
    put_str(&g, 2, "g");
    put_value_info(&g, 11, "x", lm->elem, lm->x_rank, lm->x_dims);
    put_value_info(&g, 11, "t", einsum ? lm->elem : 7, lm->t_rank, lm->t_dims);
    if (lm->with_weight) put_value_info(&g, 11, "w", lm->elem, 1, &lm->x_dims[1]);
    /* output shapes are not checked by the importer: declared scalar */
    put_value_info(&g, 12, "y", lm->elem, 0, NULL);
    if (lm->nout > 1) put_value_info(&g, 12, "log_prob", lm->elem, lm->x_rank, lm->x_dims);
    put_int(&model, 1, 8);
    put_str(&ops, 1, "");
    put_int(&ops, 2, 13);
    put_msg(&model, 8, &ops);
    put_msg(&model, 7, &g);
    return model;
}

/* imports the model and evaluates it on x, t (and w); out gets the result (a tuple for two outputs) */
static byoc_result run_loss_model(const loss_model *lm, const double *x, const double *t, const double *w,
                                  byoc_onnx_model *model, byoc_node **out, byoc_diag *d) {
    pbuf bytes = loss_model_bytes(lm);
    byoc_result r = byoc_onnx_import(bytes.p, bytes.n, "loss.onnx", NULL, model, d);
    free(bytes.p);
    if (r != BYOC_OK) return r;
    byoc_module *m = model->module;
    byoc_dtype dt = lm->elem == 11 ? BYOC_FLOAT64 : BYOC_FLOAT32;
    byoc_node *in[3] = {constant_of(m, dt, lm->x_rank, lm->x_dims, x),
                        constant_of(m, lm->equation ? dt : BYOC_INT64, lm->t_rank, lm->t_dims, t),
                        lm->with_weight ? constant_of(m, dt, 1, &lm->x_dims[1], w) : NULL};
    return byoc_module_evaluate(m, in, lm->with_weight ? 3 : 2, out, d);
}

/* scores [[1, 2, 3], [1, 1, 1]], labels [2, 1], weights [1, 2, 3], ignore_index 1: the second sample is
   ignored, the loss is 3 * -log_softmax(row 0)[2] / 3; log_prob is the log_softmax itself */
static void test_onnx_softmax_cross_entropy(void) {
    static const double x[6] = {1, 2, 3, 1, 1, 1}, t[2] = {2, 1}, w[3] = {1, 2, 3};
    double lse0 = 3 + log(1 + exp(-1.0) + exp(-2.0)), lse1 = 1 + log(3.0), log_prob[6];
    for (int i = 0; i < 6; ++i) log_prob[i] = x[i] - (i < 3 ? lse0 : lse1);
    static const int elems[2] = {1, 11}; /* float32, and float64 through the double decomposition */
    for (int e = 0; e < 2; ++e) {
        loss_model lm = {"SoftmaxCrossEntropyLoss", "mean", NULL, elems[e], 2, 1, 1, 1, 2, {2, 3}, {2}, 1};
        byoc_onnx_model model;
        byoc_node *out = NULL;
        byoc_diag d;
        CHECKF(run_loss_model(&lm, x, t, w, &model, &out, &d) == BYOC_OK, "%s", d.message);
        double tol = e ? 1e-12 : 1e-6;
        CHECKF(out->kind == BYOC_NODE_TUPLE && out->nargs == 2, "expected (loss, log_prob)");
        CHECKF(fabs(element(out->args[0], 0) - (lse0 - 3)) < tol, "loss %.9g, expected %.9g", element(out->args[0], 0),
               lse0 - 3);
        for (int i = 0; i < 6; ++i)
            CHECKF(fabs(element(out->args[1], i) - log_prob[i]) < tol, "log_prob[%d] %.9g, expected %.9g", i,
                   element(out->args[1], i), log_prob[i]);
        byoc_onnx_model_free(&model);
    }
}

/* without ignore_index no target is ignored: -100 is an out-of-range target, not TVM's default ignore */
static void test_onnx_nll_loss_ignore_index(void) {
    static const double x[6] = {-1, -2, -3, -4, -5, -6}, t[2] = {-100, 0};
    loss_model lm = {"NegativeLogLikelihoodLoss", "none", NULL, 1, 2, 1, 0, 0, 1, {2, 3}, {2}, 0};
    byoc_onnx_model model;
    byoc_node *out = NULL;
    byoc_diag d;
    CHECK(run_loss_model(&lm, x, t, NULL, &model, &out, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "target -100 (element 0) is outside the classes [0, 3)");
    byoc_onnx_model_free(&model);
    lm.has_ignore = 1;
    lm.ignore_index = -100;
    CHECKF(run_loss_model(&lm, x, t, NULL, &model, &out, &d) == BYOC_OK, "%s", d.message);
    CHECK(element(out, 0) == 0 && element(out, 1) == 4);
    byoc_onnx_model_free(&model);
    lm.reduction = "avg";
    CHECK(run_loss_model(&lm, x, t, NULL, &model, &out, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "reduction \"avg\" is not one of none, sum, mean");
}

static void test_onnx_einsum(void) {
    static const double a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 0, 0, 1, 1, 1};
    loss_model lm = {"Einsum", NULL, "ij,jk", 11, 2, 2, 0, 0, 1, {2, 3}, {3, 2}, 0};
    byoc_onnx_model model;
    byoc_node *out = NULL;
    byoc_diag d;
    CHECKF(run_loss_model(&lm, a, b, NULL, &model, &out, &d) == BYOC_OK, "%s", d.message);
    static const double want[4] = {4, 5, 10, 11}; /* [[1+3, 2+3], [4+6, 5+6]] */
    for (int i = 0; i < 4; ++i) CHECKF(element(out, i) == want[i], "element %d is %g", i, element(out, i));
    byoc_onnx_model_free(&model);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_nll_loss_reductions),        TEST_ENTRY(test_nll_loss_spatial),
        TEST_ENTRY(test_nll_loss_bad_target),        TEST_ENTRY(test_nll_loss_type_errors),
        TEST_ENTRY(test_einsum_equations),           TEST_ENTRY(test_einsum_gemm_sized),
        TEST_ENTRY(test_einsum_text_and_errors),     TEST_ENTRY(test_onnx_softmax_cross_entropy),
        TEST_ENTRY(test_onnx_nll_loss_ignore_index), TEST_ENTRY(test_onnx_einsum),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
