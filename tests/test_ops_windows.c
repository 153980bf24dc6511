/* Unit tests of the N-d window ops and the ONNX forms of opsets 18-21: nn.conv3d, nn.conv3d_transpose,
   tfidf_vectorizer and nn.pad's wrap mode through the Relay text (types, evaluation against values worked
   out by hand or by a plain loop over the definition, type errors, print/parse round trips), and the
   small ONNX models of tests/data/onnx18 (written by tests/data/make_opset18_models.py) imported and run. */
#include "byoc.h"
#include "tools/byoc_onnx.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

/* ---- helpers ---- */
static byoc_module *parse_text(const char *text, byoc_diag *d) {
    byoc_module *m = byoc_module_parse(text, strlen(text), "test.relay", NULL, d);
    if (m && byoc_infer_type(m, d) != BYOC_OK) {
        byoc_module_destroy(m);
        return NULL;
    }
    return m;
}

/* print, re-parse, compare */
static int round_trips(byoc_module *m, char *why, size_t cap) {
    size_t len;
    char *text = byoc_module_print(m, BYOC_PRINT_TYPES, &len);
    byoc_diag d;
    byoc_module *again = byoc_module_parse(text, len, "printed.relay", NULL, &d);
    int ok = again && byoc_module_structural_equal(m, again);
    if (!again) snprintf(why, cap, "re-parse failed: %s", d.message);
    else if (!ok) snprintf(why, cap, "re-parsed module differs:\n%.800s", text);
    byoc_module_destroy(again);
    byoc_free(m, text);
    return ok;
}

static byoc_node *tensor(byoc_module *m, byoc_dtype dt, int rank, const int64_t *dims, const void *data) {
    const byoc_type *t = byoc_tensor_type(m, dt, rank, dims);
    byoc_node *c = byoc_constant(m, t, data, (size_t)byoc_type_num_elements(t) * byoc_dtype_size(dt));
    if (c) c->checked_type = c->annotation;
    return c;
}

static float *floats_of(const byoc_node *n) { return (float *)n->data; }

static double max_diff(const float *got, const float *want, int64_t n) {
    double worst = 0;
    for (int64_t i = 0; i < n; ++i)
        if (fabs((double)got[i] - (double)want[i]) > worst) worst = fabs((double)got[i] - (double)want[i]);
    return worst;
}

/* a deterministic fill in [-1, 1) */
static void fill(float *v, int64_t n, int seed) {
    for (int64_t i = 0; i < n; ++i) v[i] = (float)(((i + 1) * 7919 + seed * 104729) % 200) / 100.0f - 1.0f;
}

/* ---- nn.conv3d ---- */
/* the definition: y[n, o, z, y, x] = sum over the group's c and the taps of x * w */
static void conv3d_ref(const float *x, const int64_t *xd, const float *w, const int64_t *wd, const int64_t *s,
                       const int64_t *dil, const int64_t *pad, int64_t groups, float *y, const int64_t *yd) {
    int64_t Cg = wd[1], Og = wd[0] / groups;
    for (int64_t n = 0; n < yd[0]; ++n)
        for (int64_t o = 0; o < yd[1]; ++o)
            for (int64_t z = 0; z < yd[2]; ++z)
                for (int64_t r = 0; r < yd[3]; ++r)
                    for (int64_t q = 0; q < yd[4]; ++q) {
                        double acc = 0;
                        for (int64_t c = 0; c < Cg; ++c)
                            for (int64_t kz = 0; kz < wd[2]; ++kz)
                                for (int64_t ky = 0; ky < wd[3]; ++ky)
                                    for (int64_t kx = 0; kx < wd[4]; ++kx) {
                                        int64_t iz = z * s[0] - pad[0] + kz * dil[0];
                                        int64_t iy = r * s[1] - pad[1] + ky * dil[1];
                                        int64_t ix = q * s[2] - pad[2] + kx * dil[2], ic = (o / Og) * Cg + c;
                                        if (iz < 0 || iz >= xd[2] || iy < 0 || iy >= xd[3] || ix < 0 || ix >= xd[4])
                                            continue;
                                        acc += x[(((n * xd[1] + ic) * xd[2] + iz) * xd[3] + iy) * xd[4] + ix] *
                                               w[(((o * Cg + c) * wd[2] + kz) * wd[3] + ky) * wd[4] + kx];
                                    }
                        y[(((n * yd[1] + o) * yd[2] + z) * yd[3] + r) * yd[4] + q] = (float)acc;
                    }
}

static void test_conv3d_matches_definition(void) {
    /* depth (5 + 1 - 3) / 2 + 1 = 2, height 6 + 1 - 3 + 1 = 5 (dilated taps 3 apart), width (7 + 3 - 3) / 2 + 1 = 4 */
    const char *text = "def @main(%x: Tensor[(2, 4, 5, 6, 7), float32], %w: Tensor[(6, 2, 3, 2, 3), float32]) {\n"
                       "  nn.conv3d(%x, %w, strides=[2, 1, 2], padding=[1, 0, 2, 0, 1, 1], dilation=[1, 2, 1], "
                       "groups=2, channels=6, kernel_size=[3, 2, 3])\n}\n";
    byoc_diag d;
    byoc_module *m = parse_text(text, &d);
    CHECKF(m, "%s", d.message);
    int64_t xd[5] = {2, 4, 5, 6, 7}, wd[5] = {6, 2, 3, 2, 3}, yd[5] = {2, 6, 2, 5, 4};
    const byoc_type *rt = byoc_module_function(m, "main")->body->checked_type;
    CHECKF(rt->rank == 5 && !memcmp(rt->dims, yd, sizeof yd), "result (%lld, %lld, %lld, %lld, %lld)",
           (long long)rt->dims[0], (long long)rt->dims[1], (long long)rt->dims[2], (long long)rt->dims[3],
           (long long)rt->dims[4]);
    static float x[2 * 4 * 5 * 6 * 7], w[6 * 2 * 3 * 2 * 3], want[2 * 6 * 2 * 5 * 4];
    fill(x, 2 * 4 * 5 * 6 * 7, 1);
    fill(w, 6 * 2 * 3 * 2 * 3, 2);
    int64_t s[3] = {2, 1, 2}, dil[3] = {1, 2, 1}, pad[3] = {1, 0, 2};
    conv3d_ref(x, xd, w, wd, s, dil, pad, 2, want, yd);
    byoc_node *in[2] = {tensor(m, BYOC_FLOAT32, 5, xd, x), tensor(m, BYOC_FLOAT32, 5, wd, w)}, *y = NULL;
    CHECKF(byoc_module_evaluate(m, in, 2, &y, &d) == BYOC_OK, "%s", d.message);
    double diff = max_diff(floats_of(y), want, 2 * 6 * 2 * 5 * 4);
    CHECKF(diff < 1e-4, "off by %g", diff);
    char why[1024];
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
}

/* a 2x2x2 box of ones over ones: each output counts the input voxels its window covers */
static void test_conv3d_by_hand(void) {
    const char *text = "def @main(%x: Tensor[(1, 1, 2, 2, 2), float32], %w: Tensor[(1, 1, 2, 2, 2), float32]) {\n"
                       "  nn.conv3d(%x, %w, padding=[1])\n}\n";
    byoc_diag d;
    byoc_module *m = parse_text(text, &d);
    CHECKF(m, "%s", d.message);
    float ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    int64_t dims[5] = {1, 1, 2, 2, 2};
    byoc_node *in[2] = {tensor(m, BYOC_FLOAT32, 5, dims, ones), tensor(m, BYOC_FLOAT32, 5, dims, ones)}, *y = NULL;
    CHECKF(byoc_module_evaluate(m, in, 2, &y, &d) == BYOC_OK, "%s", d.message);
    const float *v = floats_of(y); /* 3x3x3: corners 1, edges 2, faces 4, centre 8 */
    CHECKF(v[0] == 1 && v[1] == 2 && v[4] == 4 && v[13] == 8 && v[26] == 1, "got %g %g %g %g %g", v[0], v[1], v[4],
           v[13], v[26]);
    byoc_module_destroy(m);
}

static void test_conv3d_type_errors(void) {
    byoc_diag d;
    byoc_module *m =
        parse_text("def @main(%x: Tensor[(1, 3, 4, 4, 4), float32], %w: Tensor[(2, 2, 1, 1, 1), float32]) {\n"
                   "  nn.conv3d(%x, %w)\n}\n",
                   &d);
    CHECK(!m);
    CHECK_CONTAINS(d.message, "input has 3 channels, weight expects 2");
    m = parse_text("def @main(%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(2, 2, 1, 1, 1), float32]) {\n"
                   "  nn.conv3d(%x, %w)\n}\n",
                   &d);
    CHECK(!m);
    CHECK_CONTAINS(d.message, "input must have rank 5, got rank 4");
    m = parse_text("def @main(%x: Tensor[(1, 2, 4, 4, 4), float32], %w: Tensor[(2, 2, 1, 1, 1), float32]) {\n"
                   "  nn.conv3d(%x, %w, strides=[1, 2])\n}\n",
                   &d);
    CHECK(!m);
    CHECK_CONTAINS(d.message, "'strides' must have 1 or 3 values");
    m = parse_text("def @main(%x: Tensor[(1, 2, 2, 2, 2), float32], %w: Tensor[(2, 2, 3, 3, 3), float32]) {\n"
                   "  nn.conv3d(%x, %w)\n}\n",
                   &d);
    CHECK(!m);
    CHECK_CONTAINS(d.message, "larger than the padded depth extent 2");
}

/* ---- nn.conv3d_transpose ---- */
/* the definition: each input voxel adds x * w[c, o, taps] where its taps land */
static void conv3d_transpose_ref(const float *x, const int64_t *xd, const float *w, const int64_t *wd, const int64_t *s,
                                 const int64_t *dil, const int64_t *pad, int64_t groups, float *y, const int64_t *yd) {
    int64_t Cg = xd[1] / groups, Og = wd[1];
    memset(y, 0, sizeof(float) * (size_t)(yd[0] * yd[1] * yd[2] * yd[3] * yd[4]));
    for (int64_t n = 0; n < xd[0]; ++n)
        for (int64_t c = 0; c < xd[1]; ++c)
            for (int64_t z = 0; z < xd[2]; ++z)
                for (int64_t r = 0; r < xd[3]; ++r)
                    for (int64_t q = 0; q < xd[4]; ++q)
                        for (int64_t o = 0; o < Og; ++o)
                            for (int64_t kz = 0; kz < wd[2]; ++kz)
                                for (int64_t ky = 0; ky < wd[3]; ++ky)
                                    for (int64_t kx = 0; kx < wd[4]; ++kx) {
                                        int64_t oz = z * s[0] - pad[0] + kz * dil[0],
                                                oy = r * s[1] - pad[1] + ky * dil[1],
                                                ox = q * s[2] - pad[2] + kx * dil[2], oc = (c / Cg) * Og + o;
                                        if (oz < 0 || oz >= yd[2] || oy < 0 || oy >= yd[3] || ox < 0 || ox >= yd[4])
                                            continue;
                                        y[(((n * yd[1] + oc) * yd[2] + oz) * yd[3] + oy) * yd[4] + ox] +=
                                            x[(((n * xd[1] + c) * xd[2] + z) * xd[3] + r) * xd[4] + q] *
                                            w[(((c * Og + o) * wd[2] + kz) * wd[3] + ky) * wd[4] + kx];
                                    }
}

static void test_conv3d_transpose_matches_definition(void) {
    const char *text =
        "def @main(%x: Tensor[(1, 4, 3, 2, 3), float32], %w: Tensor[(4, 3, 2, 3, 2), float32]) {\n"
        "  nn.conv3d_transpose(%x, %w, strides=[2, 1, 3], padding=[0, 1, 1, 1, 0, 0], dilation=[1, 1, 2], "
        "output_padding=[1, 0, 2], groups=2, channels=6)\n}\n";
    byoc_diag d;
    byoc_module *m = parse_text(text, &d);
    CHECKF(m, "%s", d.message);
    /* depth (3 - 1) * 2 - 1 + 2 + 1 = 6, height (2 - 1) - 1 + 3 = 3, width (3 - 1) * 3 - 1 + 2 + 2 + 1 = 10 */
    int64_t xd[5] = {1, 4, 3, 2, 3}, wd[5] = {4, 3, 2, 3, 2}, yd[5] = {1, 6, 6, 3, 10};
    const byoc_type *rt = byoc_module_function(m, "main")->body->checked_type;
    CHECKF(rt->rank == 5 && !memcmp(rt->dims, yd, sizeof yd), "result (%lld, %lld, %lld, %lld, %lld)",
           (long long)rt->dims[0], (long long)rt->dims[1], (long long)rt->dims[2], (long long)rt->dims[3],
           (long long)rt->dims[4]);
    static float x[4 * 3 * 2 * 3], w[4 * 3 * 2 * 3 * 2], want[6 * 6 * 3 * 10];
    fill(x, 4 * 3 * 2 * 3, 3);
    fill(w, 4 * 3 * 2 * 3 * 2, 4);
    int64_t s[3] = {2, 1, 3}, dil[3] = {1, 1, 2}, pad[3] = {0, 1, 1};
    conv3d_transpose_ref(x, xd, w, wd, s, dil, pad, 2, want, yd);
    byoc_node *in[2] = {tensor(m, BYOC_FLOAT32, 5, xd, x), tensor(m, BYOC_FLOAT32, 5, wd, w)}, *y = NULL;
    CHECKF(byoc_module_evaluate(m, in, 2, &y, &d) == BYOC_OK, "%s", d.message);
    double diff = max_diff(floats_of(y), want, 6 * 6 * 3 * 10);
    CHECKF(diff < 1e-4, "off by %g", diff);
    char why[1024];
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
}

static void test_conv3d_transpose_type_errors(void) {
    byoc_diag d;
    byoc_module *m =
        parse_text("def @main(%x: Tensor[(1, 3, 2, 2, 2), float32], %w: Tensor[(2, 1, 1, 1, 1), float32]) {\n"
                   "  nn.conv3d_transpose(%x, %w)\n}\n",
                   &d);
    CHECK(!m);
    CHECK_CONTAINS(d.message, "input has 3 channels, weight expects 2");
    m = parse_text("def @main(%x: Tensor[(1, 2, 2, 2, 2), float32], %w: Tensor[(2, 1, 1, 1, 1), float32]) {\n"
                   "  nn.conv3d_transpose(%x, %w, kernel_layout=\"OIDHW\")\n}\n",
                   &d);
    CHECK(!m);
    CHECK_CONTAINS(d.message, "kernel_layout \"OIDHW\" is not supported (only \"IODHW\")");
}

/* ---- tfidf_vectorizer ---- */
/* The ONNX spec's example: the pool holds unigrams 2, 3, 5, 4 and bigrams (5, 6), (7, 8), (6, 7), bigrams
   may skip up to 5 tokens */
static void test_tfidf_counts(void) {
    const char *text =
        "def @main(%x: Tensor[(2, 6), int64]) {\n"
        "  tfidf_vectorizer(%x, min_gram_length=1, max_gram_length=2, max_skip_count=5, ngram_counts=[0, 4], "
        "ngram_indexes=[0, 1, 2, 3, 4, 5, 6], pool_int64s=[2, 3, 5, 4, 5, 6, 7, 8, 6, 7])\n}\n";
    byoc_diag d;
    byoc_module *m = parse_text(text, &d);
    CHECKF(m, "%s", d.message);
    int64_t dims[2] = {2, 6}, x[12] = {1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8};
    byoc_node *in = tensor(m, BYOC_INT64, 2, dims, x), *y = NULL;
    CHECKF(byoc_module_evaluate(m, &in, 1, &y, &d) == BYOC_OK, "%s", d.message);
    /* row 0 (1 1 3 3 3 7): unigram 3 three times, no bigram of the pool. Row 1 (8 6 7 5 6 8): unigram 5
       once; (6, 7) and (5, 6) adjacent; (7, 8) at positions 2 and 5, two tokens skipped */
    const float want[14] = {0, 3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1};
    CHECKF(max_diff(floats_of(y), want, 14) == 0, "row 1: %g %g %g %g %g %g %g", floats_of(y)[7], floats_of(y)[8],
           floats_of(y)[9], floats_of(y)[10], floats_of(y)[11], floats_of(y)[12], floats_of(y)[13]);
    char why[1024];
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
}

static void test_tfidf_type_errors(void) {
    byoc_diag d;
    byoc_module *m = parse_text("def @main(%x: Tensor[(4), float32]) {\n  tfidf_vectorizer(%x, ngram_counts=[0], "
                                "ngram_indexes=[0], pool_int64s=[1])\n}\n",
                                &d);
    CHECK(!m);
    CHECK_CONTAINS(d.message, "the input must be int32 or int64 tokens, got float32");
    m = parse_text("def @main(%x: Tensor[(4), int32]) {\n  tfidf_vectorizer(%x, ngram_counts=[0, 2], "
                   "ngram_indexes=[0, 1], pool_int64s=[1, 2, 3])\n}\n",
                   &d);
    CHECK(!m);
    CHECK_CONTAINS(d.message, "the 1 pool items of the 2-grams do not make whole 2-grams");
    m = parse_text("def @main(%x: Tensor[(4), int32]) {\n  tfidf_vectorizer(%x, mode=\"BM25\", ngram_counts=[0], "
                   "ngram_indexes=[0], pool_int64s=[1])\n}\n",
                   &d);
    CHECK(!m);
    CHECK_CONTAINS(d.message, "mode \"BM25\" is not one of TF, IDF, TFIDF");
    m = parse_text("def @main(%x: Tensor[(4), int32]) {\n  tfidf_vectorizer(%x, ngram_counts=[0], "
                   "ngram_indexes=[0, 1], pool_int64s=[1])\n}\n",
                   &d);
    CHECK(!m);
    CHECK_CONTAINS(d.message, "the pool holds 1 n-grams, ngram_indexes has 2");
}

/* ---- nn.pad's wrap mode ---- */
static void test_pad_wrap(void) {
    byoc_diag d;
    byoc_module *m = parse_text("def @main(%x: Tensor[(3), float32]) {\n"
                                "  nn.pad(%x, 0f, pad_width=[[4, 2]], pad_mode=\"wrap\")\n}\n",
                                &d);
    CHECKF(m, "%s", d.message);
    int64_t n = 3;
    float x[3] = {1, 2, 3}, want[9] = {3, 1, 2, 3, 1, 2, 3, 1, 2};
    byoc_node *in = tensor(m, BYOC_FLOAT32, 1, &n, x), *y = NULL;
    CHECKF(byoc_module_evaluate(m, &in, 1, &y, &d) == BYOC_OK, "%s", d.message);
    CHECK(max_diff(floats_of(y), want, 9) == 0);
    char why[1024];
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
    m = parse_text("def @main(%x: Tensor[(3), float32]) {\n  nn.pad(%x, pad_width=[[1, 1]], pad_mode=\"mirror\")\n}\n",
                   &d);
    CHECK(!m);
    CHECK_CONTAINS(d.message, "pad_mode \"mirror\" is not one of constant, edge, reflect, wrap");
}

/* ---- ONNX models of opsets 18-21 (tests/data/onnx18) ---- */
typedef struct onnx_run {
    byoc_onnx_model model;
    byoc_node *out[4];
    int nout;
    char error[1100];
} onnx_run;

/* imports tests/data/onnx18/NAME.onnx and runs it on one float32 (or int32) input; 0 with run->error */
static int run_model(const char *name, byoc_dtype dt, int rank, const int64_t *dims, const void *data, onnx_run *run) {
    char path[256];
    snprintf(path, sizeof path, "tests/data/onnx18/%s.onnx", name);
    byoc_diag d;
    memset(run, 0, sizeof *run);
    if (byoc_onnx_load(path, NULL, &run->model, &d) != BYOC_OK) {
        snprintf(run->error, sizeof run->error, "%s", d.message);
        return 0;
    }
    byoc_module *m = run->model.module;
    byoc_node *in = tensor(m, dt, rank, dims, data), *y = NULL;
    if (byoc_module_evaluate(m, &in, 1, &y, &d) != BYOC_OK) {
        snprintf(run->error, sizeof run->error, "%s", d.message);
        return 0;
    }
    run->nout = y->kind == BYOC_NODE_TUPLE ? y->nargs : 1;
    for (int i = 0; i < run->nout && i < 4; ++i) run->out[i] = y->kind == BYOC_NODE_TUPLE ? y->args[i] : y;
    return 1;
}

/* output k has the given shape and values */
static int output_is(const onnx_run *run, int k, int rank, const int64_t *dims, const float *want, char *why,
                     size_t cap) {
    const byoc_node *o = run->out[k];
    const byoc_type *t = o->checked_type ? o->checked_type : o->annotation;
    if (t->rank != rank || (rank && memcmp(t->dims, dims, sizeof(int64_t) * (size_t)rank))) { /* dims is NULL for a scalar */
        snprintf(why, cap, "output %d has rank %d (first dim %lld)", k, t->rank, (long long)(t->rank ? t->dims[0] : 0));
        return 0;
    }
    int64_t n = byoc_type_num_elements(t);
    for (int64_t i = 0; i < n; ++i)
        if (fabs((double)((const float *)o->data)[i] - want[i]) > 1e-5) {
            snprintf(why, cap, "output %d element %lld is %g, expected %g", k, (long long)i,
                     ((const float *)o->data)[i], want[i]);
            return 0;
        }
    return 1;
}

static const float x23[6] = {1, -2, 3, 4, 5, -6};
static const int64_t d23[2] = {2, 3};

static void test_onnx18_reduce_axes_input(void) {
    onnx_run r;
    char why[300];
    CHECKF(run_model("reduce_axes_input", BYOC_FLOAT32, 2, d23, x23, &r), "%s", r.error);
    CHECK(r.model.opset == 18 && r.nout == 3);
    const int64_t two[1] = {2}, two_one[2] = {2, 1};
    const float mean[2] = {2.0f / 3, 1}, sumsq[2] = {14, 77}, all[1] = {5};
    CHECKF(output_is(&r, 0, 1, two, mean, why, sizeof why), "%s", why);
    CHECKF(output_is(&r, 1, 2, two_one, sumsq, why, sizeof why), "%s", why);
    CHECKF(output_is(&r, 2, 0, NULL, all, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&r.model);
}

static void test_onnx18_reduce_noop_with_empty_axes(void) {
    onnx_run r;
    char why[300];
    CHECKF(run_model("reduce_noop", BYOC_FLOAT32, 2, d23, x23, &r), "%s", r.error);
    const float l2[6] = {1, 2, 3, 4, 5, 6}; /* the reduction over no axes: sqrt(x * x) */
    CHECKF(output_is(&r, 0, 2, d23, l2, why, sizeof why), "%s", why);
    CHECKF(output_is(&r, 1, 2, d23, x23, why, sizeof why), "%s", why);
    CHECKF(output_is(&r, 2, 2, d23, x23, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&r.model);
}

static void test_onnx18_split_num_outputs(void) {
    onnx_run r;
    char why[300];
    const int64_t seven = 7, three = 3, one = 1;
    const float x[7] = {0, 1, 2, 3, 4, 5, 6};
    CHECKF(run_model("split_num_outputs", BYOC_FLOAT32, 1, &seven, x, &r), "%s", r.error);
    CHECK(r.nout == 3);
    CHECKF(output_is(&r, 0, 1, &three, x, why, sizeof why), "%s", why);
    CHECKF(output_is(&r, 1, 1, &three, x + 3, why, sizeof why), "%s", why);
    CHECKF(output_is(&r, 2, 1, &one, x + 6, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&r.model);
}

static void test_onnx18_pad_axes_and_crop(void) {
    onnx_run r;
    char why[300];
    CHECKF(run_model("pad_axes", BYOC_FLOAT32, 2, d23, x23, &r), "%s", r.error);
    const int64_t dims[2] = {2, 4}; /* the last axis: its first column cropped, two columns of 9 added */
    const float want[8] = {-2, 3, 9, 9, 5, -6, 9, 9};
    CHECKF(output_is(&r, 0, 2, dims, want, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&r.model);
}

static void test_onnx19_pad_wrap(void) {
    onnx_run r;
    char why[300];
    CHECKF(run_model("pad_wrap", BYOC_FLOAT32, 2, d23, x23, &r), "%s", r.error);
    const int64_t dims[3] = {3, 6}; /* rows 0 1 0 (one row after), columns 2 0 1 2 0 1 */
    const float want[18] = {3, 1, -2, 3, 1, -2, -6, 4, 5, -6, 4, 5, 3, 1, -2, 3, 1, -2};
    CHECKF(output_is(&r, 0, 2, dims, want, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&r.model);
}

static void test_onnx18_center_crop_pad(void) {
    onnx_run r;
    char why[300];
    const int64_t in[2] = {5, 2}, dims[2] = {2, 5};
    const float x[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    CHECKF(run_model("center_crop_pad", BYOC_FLOAT32, 2, in, x, &r), "%s", r.error);
    /* rows 1 and 2 of 5 (the crop starts at (5 - 2) / 2); 1 zero column before, 2 after */
    const float want[10] = {0, 2, 3, 0, 0, 0, 4, 5, 0, 0};
    CHECKF(output_is(&r, 0, 2, dims, want, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&r.model);
}

static void test_onnx18_col2im(void) {
    onnx_run r;
    char why[300];
    /* columns (tap, place): tap t of place p holds 10 * t + p; the 3x3 image sums the taps landing on
       each pixel: places p = (py, px) in {0, 1}^2, tap (ty, tx), pixel (py + ty, px + tx) */
    const int64_t in[3] = {1, 4, 4}, dims[4] = {1, 1, 3, 3};
    float x[16];
    for (int t = 0; t < 4; ++t)
        for (int p = 0; p < 4; ++p) x[t * 4 + p] = (float)(10 * t + p);
    CHECKF(run_model("col2im_2d", BYOC_FLOAT32, 3, in, x, &r), "%s", r.error);
    const float want[9] = {0, 1 + 10, 11, 2 + 20, 3 + 12 + 21 + 30, 13 + 31, 22, 23 + 32, 33};
    CHECKF(output_is(&r, 0, 4, dims, want, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&r.model);
    /* 1-D, stride 2, one pad before: place p's tap t lands on pixel 2p + t - 1 (pixel -1 is padding) */
    const int64_t in1[3] = {1, 6, 3}, dims1[3] = {1, 2, 6};
    float x1[18];
    for (int i = 0; i < 18; ++i) x1[i] = (float)(i + 1);
    CHECKF(run_model("col2im_1d", BYOC_FLOAT32, 3, in1, x1, &r), "%s", r.error);
    /* channel c: taps rows c*3 + t; pixel 0 = t1p0, 1 = t2p0 + t0p1, 2 = t1p1, 3 = t2p1 + t0p2, 4 = t1p2, 5 = t2p2 */
    float want1[12];
    for (int c = 0; c < 2; ++c) {
        const float *t0 = x1 + (c * 3) * 3, *t1 = t0 + 3, *t2 = t0 + 6;
        float v[6] = {t1[0], t2[0] + t0[1], t1[1], t2[1] + t0[2], t1[2], t2[2]};
        memcpy(want1 + 6 * c, v, sizeof v);
    }
    CHECKF(output_is(&r, 0, 3, dims1, want1, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&r.model);
}

static void test_onnx19_cast_float8_refused(void) {
    onnx_run r;
    CHECK(!run_model("cast_float8", BYOC_FLOAT32, 2, d23, x23, &r));
    CHECK_CONTAINS(r.error, "float8e4m3fn");
}

static void test_onnx19_shape_start_end(void) {
    onnx_run r;
    const int64_t in[4] = {2, 3, 4, 5};
    static float x[120];
    CHECKF(run_model("shape_start_end", BYOC_FLOAT32, 4, in, x, &r), "%s", r.error);
    const byoc_node *o = r.out[0];
    CHECK(o->annotation->dtype == BYOC_INT64 && byoc_type_num_elements(o->annotation) == 2);
    CHECK(((const int64_t *)o->data)[0] == 3 && ((const int64_t *)o->data)[1] == 4);
    byoc_onnx_model_free(&r.model);
}

static void test_onnx19_avgpool_dilations(void) {
    onnx_run r;
    char why[300];
    const int64_t in[3] = {1, 1, 5}, dims[3] = {1, 1, 3};
    const float x[5] = {1, 2, 4, 8, 16}, want[3] = {2.5f, 5, 10}; /* pairs (0, 2), (1, 3), (2, 4) */
    CHECKF(run_model("avgpool_dilations", BYOC_FLOAT32, 3, in, x, &r), "%s", r.error);
    CHECKF(output_is(&r, 0, 3, dims, want, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&r.model);
}

/* imports tests/data/onnx18/NAME.onnx, whose inputs (X, W and maybe B) the caller builds in *mm; 0 with
   r->error */
static int load_model(const char *name, byoc_module **mm, onnx_run *r) {
    char path[256];
    snprintf(path, sizeof path, "tests/data/onnx18/%s.onnx", name);
    byoc_diag d;
    memset(r, 0, sizeof *r);
    if (byoc_onnx_load(path, NULL, &r->model, &d) != BYOC_OK) {
        snprintf(r->error, sizeof r->error, "%s", d.message);
        return 0;
    }
    *mm = r->model.module;
    return 1;
}

static void test_onnx_conv3d_attributes(void) {
    onnx_run r;
    byoc_module *m = NULL;
    char why[300];
    byoc_diag d;
    CHECKF(load_model("conv3d_groups", &m, &r), "%s", r.error);
    int64_t xd[5] = {1, 2, 2, 3, 3}, wd[5] = {2, 1, 2, 2, 2}, yd[5] = {1, 2, 1, 2, 2}, bd = 2;
    float x[36], w[16], b[2] = {0.5f, -1}, want[8];
    fill(x, 36, 5);
    fill(w, 16, 6);
    int64_t s[3] = {1, 2, 2}, dil[3] = {1, 1, 1}, pad[3] = {0, 1, 1};
    conv3d_ref(x, xd, w, wd, s, dil, pad, 2, want, yd);
    for (int i = 0; i < 8; ++i) want[i] += b[i / 4];
    byoc_node *in[3] = {tensor(m, BYOC_FLOAT32, 5, xd, x), tensor(m, BYOC_FLOAT32, 5, wd, w),
                        tensor(m, BYOC_FLOAT32, 1, &bd, b)},
              *y = NULL;
    CHECKF(byoc_module_evaluate(m, in, 3, &y, &d) == BYOC_OK, "%s", d.message);
    r.out[0] = y;
    CHECKF(output_is(&r, 0, 5, yd, want, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&r.model);

    /* SAME_UPPER with a dilated 2-tap kernel along W: pads 1 and 1, y[i] = x[i - 1] * w0 + x[i + 1] * w1 */
    CHECKF(load_model("conv3d_same_dilated", &m, &r), "%s", r.error);
    int64_t x5[5] = {1, 1, 1, 1, 5}, w2[5] = {1, 1, 1, 1, 2};
    float xv[5] = {1, 2, 3, 4, 5}, wv[2] = {10, 1}, same[5] = {2, 10 + 3, 20 + 4, 30 + 5, 40};
    byoc_node *in2[2] = {tensor(m, BYOC_FLOAT32, 5, x5, xv), tensor(m, BYOC_FLOAT32, 5, w2, wv)};
    CHECKF(byoc_module_evaluate(m, in2, 2, &y, &d) == BYOC_OK, "%s", d.message);
    r.out[0] = y;
    CHECKF(output_is(&r, 0, 5, x5, same, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&r.model);

    /* ConvTranspose, stride 2 along W and output_padding 1: y = x0 w0, x0 w1, x1 w0, x1 w1, 0 */
    CHECKF(load_model("convtranspose3d_stride", &m, &r), "%s", r.error);
    int64_t x2[5] = {1, 1, 1, 1, 2}, y5[5] = {1, 1, 1, 1, 5};
    float xt[2] = {2, 3}, wt[2] = {10, 1}, tw[5] = {20, 2, 30, 3, 0};
    byoc_node *in3[2] = {tensor(m, BYOC_FLOAT32, 5, x2, xt), tensor(m, BYOC_FLOAT32, 5, x2, wt)};
    CHECKF(byoc_module_evaluate(m, in3, 2, &y, &d) == BYOC_OK, "%s", d.message);
    r.out[0] = y;
    CHECKF(output_is(&r, 0, 5, y5, tw, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&r.model);
}

/* output_shape 6 of a full 7: the pad goes at the end, y = x0 w, then x1 w from 2, x2 w from 4, cut at 6 */
static void test_onnx_conv3d_transpose_output_shape(void) {
    onnx_run r;
    byoc_module *m = NULL;
    char why[300];
    byoc_diag d;
    CHECKF(load_model("convtranspose3d_output_shape", &m, &r), "%s", r.error);
    int64_t x3[5] = {1, 1, 1, 1, 3}, y6[5] = {1, 1, 1, 1, 6};
    float x[3] = {1, 2, 3}, w[3] = {1, 10, 100}, want[6] = {1, 10, 102, 20, 203, 30};
    byoc_node *in[2] = {tensor(m, BYOC_FLOAT32, 5, x3, x), tensor(m, BYOC_FLOAT32, 5, x3, w)}, *y = NULL;
    CHECKF(byoc_module_evaluate(m, in, 2, &y, &d) == BYOC_OK, "%s", d.message);
    r.out[0] = y;
    CHECKF(output_is(&r, 0, 5, y6, want, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&r.model);
}

/* weights print and parse as a float list; TFIDF multiplies each output's count by its weight */
static void test_tfidf_weights(void) {
    const char *text = "def @main(%x: Tensor[(5), int32]) {\n"
                       "  tfidf_vectorizer(%x, mode=\"TFIDF\", ngram_counts=[0], ngram_indexes=[1, 0], "
                       "pool_int64s=[7, 9], weights=[0.5f, 2f])\n}\n";
    byoc_diag d;
    byoc_module *m = parse_text(text, &d);
    CHECKF(m, "%s", d.message);
    int64_t n = 5;
    int32_t x[5] = {7, 9, 7, 1, 7};
    byoc_node *in = tensor(m, BYOC_INT32, 1, &n, x), *y = NULL;
    CHECKF(byoc_module_evaluate(m, &in, 1, &y, &d) == BYOC_OK, "%s", d.message);
    const float want[2] = {0.5f * 1, 2.0f * 3}; /* 9 once at output 0, 7 three times at output 1 */
    CHECK(max_diff(floats_of(y), want, 2) == 0);
    char why[1024];
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
}

static void test_onnx_tfidf_modes(void) {
    onnx_run r;
    char why[300];
    /* pool: unigrams 4, 5, 6 (ids 0-2), bigrams (4, 5), (5, 6) (ids 3, 4); id i goes to output 4 - i, output
       j weighs j + 1. Row 0: 4 5 6 5 -> unigrams 4 x1, 5 x2, 6 x1; bigrams (4, 5) x1, (5, 6) x1 and with one
       skip (4, 6), (5, 5): none. Row 1: 6 6 4 4 -> 6 x2, 4 x2; no bigram of the pool. */
    const int64_t dims[2] = {2, 4}, out[2] = {2, 5};
    const int32_t x[8] = {4, 5, 6, 5, 6, 6, 4, 4};
    CHECKF(run_model("tfidf_modes", BYOC_INT32, 2, dims, x, &r), "%s", r.error);
    const float tf[10] = {1, 1, 1, 2, 1, 0, 0, 2, 0, 2};
    const float idf[10] = {1, 2, 3, 4, 5, 0, 0, 3, 0, 5};
    const float tfidf[10] = {1, 2, 3, 8, 5, 0, 0, 6, 0, 10};
    CHECKF(output_is(&r, 0, 2, out, tf, why, sizeof why), "%s", why);
    CHECKF(output_is(&r, 1, 2, out, idf, why, sizeof why), "%s", why);
    CHECKF(output_is(&r, 2, 2, out, tfidf, why, sizeof why), "%s", why);
    byoc_onnx_model_free(&r.model);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_conv3d_matches_definition),
        TEST_ENTRY(test_conv3d_by_hand),
        TEST_ENTRY(test_conv3d_type_errors),
        TEST_ENTRY(test_conv3d_transpose_matches_definition),
        TEST_ENTRY(test_conv3d_transpose_type_errors),
        TEST_ENTRY(test_tfidf_counts),
        TEST_ENTRY(test_tfidf_type_errors),
        TEST_ENTRY(test_pad_wrap),
        TEST_ENTRY(test_onnx18_reduce_axes_input),
        TEST_ENTRY(test_onnx18_reduce_noop_with_empty_axes),
        TEST_ENTRY(test_onnx18_split_num_outputs),
        TEST_ENTRY(test_onnx18_pad_axes_and_crop),
        TEST_ENTRY(test_onnx19_pad_wrap),
        TEST_ENTRY(test_onnx18_center_crop_pad),
        TEST_ENTRY(test_onnx18_col2im),
        TEST_ENTRY(test_onnx19_cast_float8_refused),
        TEST_ENTRY(test_onnx19_shape_start_end),
        TEST_ENTRY(test_onnx19_avgpool_dilations),
        TEST_ENTRY(test_onnx_conv3d_attributes),
        TEST_ENTRY(test_onnx_conv3d_transpose_output_shape),
        TEST_ENTRY(test_tfidf_weights),
        TEST_ENTRY(test_onnx_tfidf_modes),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
