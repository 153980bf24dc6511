/* Unit tests of the recurrent and spectral ops (nn.rnn, nn.gru, nn.lstm, dft, stft, the windows,
   mel_weight_matrix) through the public API: Relay text calling each op, type inference with its
   errors, byoc_module_evaluate against values computed here straight from ONNX's equations (plain
   loops, no shared code with the kernels) or by hand, and print/parse round trips. */
#include "byoc.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

/* ---- helpers ---- */
static byoc_module *parse_text(const char *text, byoc_diag *d) {
    return byoc_module_parse(text, strlen(text), "test.relay", NULL, d);
}

/* print, parse again, compare */
static int round_trips(byoc_module *m, char *why, size_t cap) {
    size_t len;
    char *text = byoc_module_print(m, 0, &len);
    byoc_diag d;
    byoc_module *again = byoc_module_parse(text, len, "printed.relay", NULL, &d);
    int ok = again && byoc_module_structural_equal(m, again);
    if (!again) snprintf(why, cap, "re-parse failed: %s\n%s", d.message, text);
    else if (!ok) snprintf(why, cap, "re-parsed module differs:\n%s", text);
    byoc_module_destroy(again);
    byoc_free(m, text);
    return ok;
}

static unsigned rng_state = 12345u;
static float frand(void) { /* uniform in [-1, 1) */
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)((rng_state >> 8) & 0xffff) / 32768.0f - 1.0f;
}
static float *random_floats(int64_t n) {
    float *v = (float *)malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
    for (int64_t i = 0; i < n; ++i) v[i] = frand();
    return v;
}

static byoc_node *constant_of(byoc_module *m, byoc_dtype dt, int rank, const int64_t *dims, const void *data) {
    const byoc_type *t = byoc_tensor_type(m, dt, rank, dims);
    byoc_node *c = byoc_constant(m, t, data, (size_t)byoc_type_num_elements(t) * byoc_dtype_size(dt));
    if (c) c->checked_type = t;
    return c;
}

/* parses text, infers types, evaluates @main on inputs; NULL with why filled on failure */
static byoc_node *evaluate_text(byoc_module **m_out, const char *text, byoc_node *(*make_inputs)(byoc_module *, int,
                                                                                                   void *),
                                int ninputs, void *user, char *why, size_t cap) {
    byoc_diag d;
    byoc_module *m = parse_text(text, &d);
    *m_out = m;
    if (!m) { snprintf(why, cap, "parse: %s", d.message); return NULL; }
    if (byoc_infer_type(m, &d) != BYOC_OK) { snprintf(why, cap, "types: %s", d.message); return NULL; }
    byoc_node *inputs[8];
    for (int i = 0; i < ninputs; ++i) inputs[i] = make_inputs(m, i, user);
    byoc_node *out = NULL;
    if (byoc_module_evaluate(m, inputs, ninputs, &out, &d) != BYOC_OK) {
        snprintf(why, cap, "evaluate: %s", d.message);
        return NULL;
    }
    return out;
}

static float out_at(const byoc_node *c, int64_t i) { return ((const float *)c->data)[i]; }

/* ---- a reference recurrent cell, from ONNX's equations ---- */
typedef struct ref_rnn {
    int gates;                     /* 1 RNN, 3 GRU, 4 LSTM */
    int64_t T, B, I, H, D;
    int layout, reverse;
    double clip;                   /* < 0: none */
    int input_forget, linear_before_reset;
    const char *act[2][3];
    double alpha[2][3], beta[2][3];
    float *x, *w, *r, *bias, *h0, *c0, *p; /* every input given */
    int32_t *lens;
    double *y, *yh, *yc;
} ref_rnn;

static double ref_activation(const char *name, double a, double b, double x) {
    if (!strcmp(name, "Sigmoid")) return 1 / (1 + exp(-x));
    if (!strcmp(name, "Tanh")) return tanh(x);
    if (!strcmp(name, "Relu")) return x > 0 ? x : 0;
    if (!strcmp(name, "Affine")) return a * x + b;
    if (!strcmp(name, "LeakyRelu")) return x >= 0 ? x : a * x;
    if (!strcmp(name, "ThresholdedRelu")) return x > a ? x : 0;
    if (!strcmp(name, "ScaledTanh")) return a * tanh(b * x);
    if (!strcmp(name, "HardSigmoid")) return fmin(fmax(a * x + b, 0), 1);
    if (!strcmp(name, "Elu")) return x >= 0 ? x : a * (exp(x) - 1);
    if (!strcmp(name, "Softsign")) return x / (1 + fabs(x));
    if (!strcmp(name, "Softplus")) return log(1 + exp(x));
    return NAN;
}

static double ref_gate(const ref_rnn *c, int d, int which, double x) {
    if (c->clip >= 0) x = fmin(fmax(x, -c->clip), c->clip);
    return ref_activation(c->act[d][which], c->alpha[d][which], c->beta[d][which], x);
}

/* W x + Wb for gate row g * H + j of direction d, and R h + Rb */
static double ref_in(const ref_rnn *c, int d, int64_t row, const float *x) {
    double s = c->bias[d * 2 * c->gates * c->H + row];
    for (int64_t i = 0; i < c->I; ++i) s += (double)x[i] * c->w[(d * c->gates * c->H + row) * c->I + i];
    return s;
}
static double ref_rec(const ref_rnn *c, int d, int64_t row, const double *h) {
    double s = c->bias[d * 2 * c->gates * c->H + c->gates * c->H + row];
    for (int64_t k = 0; k < c->H; ++k) s += h[k] * c->r[(d * c->gates * c->H + row) * c->H + k];
    return s;
}

static void ref_step(const ref_rnn *c, int d, const float *x, double *h, double *cell) {
    int64_t H = c->H;
    double nh[64], nc[64], rh[64];
    for (int64_t j = 0; j < H; ++j) {
        if (c->gates == 1) {
            nh[j] = ref_gate(c, d, 0, ref_in(c, d, j, x) + ref_rec(c, d, j, h));
        } else if (c->gates == 4) {
            const float *p = c->p + d * 3 * H;
            double i = ref_gate(c, d, 0, ref_in(c, d, j, x) + ref_rec(c, d, j, h) + p[j] * cell[j]);
            double f = c->input_forget ? 1 - i
                                       : ref_gate(c, d, 0, ref_in(c, d, 2 * H + j, x) + ref_rec(c, d, 2 * H + j, h) +
                                                               p[2 * H + j] * cell[j]);
            double g = ref_gate(c, d, 1, ref_in(c, d, 3 * H + j, x) + ref_rec(c, d, 3 * H + j, h));
            nc[j] = f * cell[j] + i * g;
            double o = ref_gate(c, d, 0, ref_in(c, d, H + j, x) + ref_rec(c, d, H + j, h) + p[H + j] * nc[j]);
            nh[j] = o * ref_activation(c->act[d][2], c->alpha[d][2], c->beta[d][2], nc[j]);
        }
    }
    if (c->gates == 3) {
        double z[64], r[64];
        for (int64_t j = 0; j < H; ++j) {
            z[j] = ref_gate(c, d, 0, ref_in(c, d, j, x) + ref_rec(c, d, j, h));
            r[j] = ref_gate(c, d, 0, ref_in(c, d, H + j, x) + ref_rec(c, d, H + j, h));
            rh[j] = r[j] * h[j];
        }
        for (int64_t j = 0; j < H; ++j) {
            double n = c->linear_before_reset ? ref_in(c, d, 2 * H + j, x) + r[j] * ref_rec(c, d, 2 * H + j, h)
                                              : ref_in(c, d, 2 * H + j, x) + ref_rec(c, d, 2 * H + j, rh);
            n = ref_gate(c, d, 1, n);
            nh[j] = (1 - z[j]) * n + z[j] * h[j];
        }
    }
    for (int64_t j = 0; j < H; ++j) {
        h[j] = nh[j];
        if (c->gates == 4) cell[j] = nc[j];
    }
}

static void ref_run(ref_rnn *c) {
    int64_t T = c->T, B = c->B, H = c->H, D = c->D;
    memset(c->y, 0, sizeof(double) * (size_t)(T * B * D * H));
    for (int d = 0; d < D; ++d)
        for (int64_t b = 0; b < B; ++b) {
            double h[64], cell[64];
            int64_t state = (c->layout ? b * D + d : d * B + b) * H;
            for (int64_t j = 0; j < H; ++j) { h[j] = c->h0[state + j]; cell[j] = c->c0[state + j]; }
            int64_t len = c->lens[b];
            for (int64_t s = 0; s < len; ++s) {
                int64_t t = d == 1 || c->reverse ? len - 1 - s : s;
                const float *x = c->x + (c->layout ? b * T + t : t * B + b) * c->I;
                ref_step(c, d, x, h, cell);
                double *y = c->y + (c->layout ? ((b * T + t) * D + d) * H : ((t * D + d) * B + b) * H);
                for (int64_t j = 0; j < H; ++j) y[j] = h[j];
            }
            for (int64_t j = 0; j < H; ++j) { c->yh[state + j] = h[j]; c->yc[state + j] = cell[j]; }
        }
}

/* one recurrent call with every input given, its result against the reference */
typedef struct rnn_case {
    const char *op, *attrs; /* attrs: extra text after the arguments */
    int f64;                /* float64 tensors (else float32) */
    ref_rnn ref;
} rnn_case;

/* a float tensor of the case's dtype from float values */
static byoc_node *rnn_tensor(byoc_module *m, int f64, int rank, const int64_t *dims, const float *v) {
    if (!f64) return constant_of(m, BYOC_FLOAT32, rank, dims, v);
    int64_t n = 1;
    for (int d = 0; d < rank; ++d) n *= dims[d];
    double *wide = (double *)malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    for (int64_t i = 0; i < n; ++i) wide[i] = v[i];
    byoc_node *c = constant_of(m, BYOC_FLOAT64, rank, dims, wide);
    free(wide);
    return c;
}

static byoc_node *rnn_input(byoc_module *m, int i, void *user) {
    const ref_rnn *c = &((rnn_case *)user)->ref;
    int f64 = ((rnn_case *)user)->f64;
    int64_t G = c->gates, H = c->H, D = c->D;
    int64_t x[3] = {c->layout ? c->B : c->T, c->layout ? c->T : c->B, c->I}, w[3] = {D, G * H, c->I},
            r[3] = {D, G * H, H}, b[2] = {D, 2 * G * H}, lens[1] = {c->B}, st[3] = {D, c->B, H},
            st1[3] = {c->B, D, H}, p[2] = {D, 3 * H};
    switch (i) {
    case 0: return rnn_tensor(m, f64, 3, x, c->x);
    case 1: return rnn_tensor(m, f64, 3, w, c->w);
    case 2: return rnn_tensor(m, f64, 3, r, c->r);
    case 3: return rnn_tensor(m, f64, 2, b, c->bias);
    case 4: return constant_of(m, BYOC_INT32, 1, lens, c->lens);
    case 5: return rnn_tensor(m, f64, 3, c->layout ? st1 : st, c->h0);
    case 6: return rnn_tensor(m, f64, 3, c->layout ? st1 : st, c->c0);
    default: return rnn_tensor(m, f64, 2, p, c->p);
    }
}

/* fills the inputs at random, runs the call and the reference, compares every output */
static int check_rnn_case(rnn_case *k, char *why, size_t cap) {
    ref_rnn *c = &k->ref;
    int64_t T = c->T, B = c->B, I = c->I, H = c->H, D = c->D, G = c->gates;
    c->x = random_floats(T * B * I);
    c->w = random_floats(D * G * H * I);
    c->r = random_floats(D * G * H * H);
    c->bias = random_floats(D * 2 * G * H);
    c->h0 = random_floats(D * B * H);
    c->c0 = random_floats(D * B * H);
    c->p = random_floats(D * 3 * H);
    c->y = (double *)malloc(sizeof(double) * (size_t)(T * B * D * H));
    c->yh = (double *)malloc(sizeof(double) * (size_t)(B * D * H));
    c->yc = (double *)malloc(sizeof(double) * (size_t)(B * D * H));
    ref_run(c);
    int nin = G == 4 ? 8 : 6;
    char st[64], text[2048];
    snprintf(st, sizeof st, "(%lld, %lld, %lld)", (long long)(c->layout ? B : D), (long long)(c->layout ? D : B),
             (long long)H);
    snprintf(text, sizeof text,
             "def @main(%%x: Tensor[(%lld, %lld, %lld), float32], %%w: Tensor[(%lld, %lld, %lld), float32], "
             "%%r: Tensor[(%lld, %lld, %lld), float32], %%b: Tensor[(%lld, %lld), float32], "
             "%%lens: Tensor[(%lld), int32], %%h0: Tensor[%s, float32]%s%s%s) {\n"
             "  %s(%%x, %%w, %%r, %%b, %%lens, %%h0%s%s)\n}\n",
             (long long)(c->layout ? B : T), (long long)(c->layout ? T : B), (long long)I, (long long)D,
             (long long)(G * H), (long long)I, (long long)D, (long long)(G * H), (long long)H, (long long)D,
             (long long)(2 * G * H), (long long)B, st, G == 4 ? ", %c0: Tensor[" : "", G == 4 ? st : "",
             G == 4 ? ", float32], %p: Tensor[(2, 12), float32]" : "", k->op, G == 4 ? ", %c0, %p" : "",
             k->attrs);
    if (G == 4 && D == 1) { /* P's shape in the text above is for two directions of hidden size 4 */
        char *at = strstr(text, "%p: Tensor[(2, 12)");
        if (at) memcpy(at, "%p: Tensor[(1, 12)", 18);
    }
    if (k->f64) /* every float32 of the text (the lengths stay int32) */
        for (char *at = strstr(text, "float32"); at; at = strstr(at, "float32")) memcpy(at, "float64", 7);
    byoc_module *m = NULL;
    byoc_node *out = evaluate_text(&m, text, rnn_input, nin, k, why, cap);
    int ok = out != NULL && out->kind == BYOC_NODE_TUPLE && out->nargs == (G == 4 ? 3 : 2);
    if (out && !ok) snprintf(why, cap, "the result is not a tuple of %d", G == 4 ? 3 : 2);
    for (int o = 0; ok && o < out->nargs; ++o) {
        const double *want = o == 0 ? c->y : o == 1 ? c->yh : c->yc;
        int64_t n = o == 0 ? T * B * D * H : B * D * H;
        double tolerance = k->f64 ? 1e-10 : 1e-4;
        for (int64_t i = 0; i < n && ok; ++i) {
            double got = k->f64 ? ((const double *)out->args[o]->data)[i] : out_at(out->args[o], i);
            if (fabs(got - want[i]) > tolerance * (1 + fabs(want[i]))) {
                snprintf(why, cap, "%s output %d element %lld is %.12g, expected %.12g", k->op, o, (long long)i, got,
                         want[i]);
                ok = 0;
            }
        }
    }
    if (ok) ok = round_trips(m, why, cap);
    byoc_module_destroy(m);
    free(c->x); free(c->w); free(c->r); free(c->bias); free(c->h0); free(c->c0); free(c->p);
    free(c->y); free(c->yh); free(c->yc);
    return ok;
}

static void set_acts(ref_rnn *c, const char *a0, const char *a1, const char *a2) {
    for (int d = 0; d < 2; ++d) {
        c->act[d][0] = a0; c->act[d][1] = a1; c->act[d][2] = a2;
    }
}

/* the case in float32, then in float64 (same values, a tighter tolerance; the attributes' alphas, betas
   and clips are float32 values, so the cases give them as such) */
static int check_rnn_both(rnn_case *k, char *why, size_t cap) {
    k->f64 = 0;
    if (!check_rnn_case(k, why, cap)) return 0;
    k->f64 = 1;
    int ok = check_rnn_case(k, why, cap);
    if (!ok) {
        size_t n = strlen(why);
        snprintf(why + n, cap - n, " (float64)");
    }
    k->f64 = 0;
    return ok;
}

/* ---- tests ---- */
static void test_rnn_forward_and_bidirectional_with_lengths(void) {
    static int32_t lens[3] = {4, 2, 0};
    char why[1024] = "";
    rnn_case k;
    memset(&k, 0, sizeof k);
    k.op = "nn.rnn";
    k.attrs = ", direction=\"bidirectional\"";
    k.ref.gates = 1; k.ref.T = 4; k.ref.B = 3; k.ref.I = 5; k.ref.H = 3; k.ref.D = 2; k.ref.clip = -1;
    k.ref.lens = lens;
    set_acts(&k.ref, "Tanh", "", "");
    CHECKF(check_rnn_both(&k, why, sizeof why), "%s", why);
    /* ScaledTanh takes an alpha and a beta, Relu none; layout 1; clip */
    k.attrs = ", activations=\"ScaledTanh\", activation_alpha=[0.7f], activation_beta=[1.3f], clip=0.8f, layout=1";
    k.ref.D = 1; k.ref.layout = 1; k.ref.clip = 0.8f;
    set_acts(&k.ref, "ScaledTanh", "", "");
    k.ref.alpha[0][0] = 0.7f; k.ref.beta[0][0] = 1.3f;
    CHECKF(check_rnn_both(&k, why, sizeof why), "%s", why);
}

static void test_gru_both_reset_forms(void) {
    static int32_t lens[2] = {3, 5};
    char why[1024] = "";
    rnn_case k;
    memset(&k, 0, sizeof k);
    k.op = "nn.gru";
    k.attrs = ", direction=\"bidirectional\"";
    k.ref.gates = 3; k.ref.T = 5; k.ref.B = 2; k.ref.I = 3; k.ref.H = 4; k.ref.D = 2; k.ref.clip = -1;
    k.ref.lens = lens;
    set_acts(&k.ref, "Sigmoid", "Tanh", "");
    CHECKF(check_rnn_both(&k, why, sizeof why), "%s", why);
    k.attrs = ", direction=\"reverse\", linear_before_reset=True";
    k.ref.D = 1; k.ref.reverse = 1; k.ref.linear_before_reset = 1;
    CHECKF(check_rnn_both(&k, why, sizeof why), "%s", why);
    /* HardSigmoid's alpha and beta, then LeakyRelu's alpha: consumed in order */
    k.attrs = ", activations=\"HardSigmoid,LeakyRelu\", activation_alpha=[0.3f, 0.2f], activation_beta=[0.4f], "
              "layout=1, clip=1.5f";
    k.ref.reverse = 0; k.ref.linear_before_reset = 0; k.ref.layout = 1; k.ref.clip = 1.5f;
    set_acts(&k.ref, "HardSigmoid", "LeakyRelu", "");
    k.ref.alpha[0][0] = 0.3f; k.ref.beta[0][0] = 0.4f; k.ref.alpha[0][1] = 0.2f;
    CHECKF(check_rnn_both(&k, why, sizeof why), "%s", why);
}

static void test_lstm_peepholes_lengths_and_variants(void) {
    static int32_t lens[2] = {2, 4};
    char why[1024] = "";
    rnn_case k;
    memset(&k, 0, sizeof k);
    k.op = "nn.lstm";
    k.attrs = ", direction=\"bidirectional\", hidden_size=4";
    k.ref.gates = 4; k.ref.T = 4; k.ref.B = 2; k.ref.I = 3; k.ref.H = 4; k.ref.D = 2; k.ref.clip = -1;
    k.ref.lens = lens;
    set_acts(&k.ref, "Sigmoid", "Tanh", "Tanh");
    CHECKF(check_rnn_both(&k, why, sizeof why), "%s", why);
    k.attrs = ", direction=\"reverse\", input_forget=True, clip=0.5f, layout=1, activations=\"Sigmoid,Softsign,Elu\", "
              "activation_alpha=[0.6f]";
    k.ref.D = 1; k.ref.reverse = 1; k.ref.input_forget = 1; k.ref.clip = 0.5f; k.ref.layout = 1;
    set_acts(&k.ref, "Sigmoid", "Softsign", "Elu");
    k.ref.alpha[0][2] = 0.6f;
    CHECKF(check_rnn_both(&k, why, sizeof why), "%s", why);
    k.attrs = ", activations=\"Affine,Softplus,ThresholdedRelu\", activation_alpha=[0.5f, 0.1f], "
              "activation_beta=[0.25f]";
    k.ref.reverse = 0; k.ref.input_forget = 0; k.ref.clip = -1; k.ref.layout = 0;
    set_acts(&k.ref, "Affine", "Softplus", "ThresholdedRelu");
    k.ref.alpha[0][0] = 0.5f; k.ref.beta[0][0] = 0.25f; k.ref.alpha[0][2] = 0.1f;
    CHECKF(check_rnn_both(&k, why, sizeof why), "%s", why);
}

/* x (2, 1, 1), w, r (1, 1, 1), b (1, 2) and the lengths (one entry, from user) */
static byoc_node *bad_length_input(byoc_module *m, int i, void *user) {
    int64_t x[3] = {2, 1, 1}, one[3] = {1, 1, 1}, b[2] = {1, 2}, l[1] = {1};
    static const float values[2] = {0.5f, -0.25f};
    return i == 4 ? constant_of(m, BYOC_INT32, 1, l, user)
         : i == 3 ? constant_of(m, BYOC_FLOAT32, 2, b, values)
                  : constant_of(m, BYOC_FLOAT32, 3, i == 0 ? x : one, values);
}

static void test_recurrent_errors_name_the_problem(void) {
    byoc_diag d;
    /* W's rows must be gates * hidden */
    byoc_module *m = parse_text("def @main(%x: Tensor[(2, 1, 3), float32], %w: Tensor[(1, 8, 3), float32], "
                                "%r: Tensor[(1, 12, 3), float32]) { nn.gru(%x, %w, %r) }",
                                &d);
    CHECK(m);
    CHECK(byoc_infer_type(m, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "nn.gru");
    CHECK_CONTAINS(d.message, "W has dim 1 of 8, the op needs shape (1, 9, 3)");
    byoc_module_destroy(m);
    m = parse_text("def @main(%x: Tensor[(2, 1, 3), float32], %w: Tensor[(1, 1, 3), float32], "
                   "%r: Tensor[(1, 1, 1), float32]) { nn.rnn(%x, %w, %r, activations=\"Swish\") }",
                   &d);
    CHECK(m);
    CHECK(byoc_infer_type(m, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "unknown activation \"Swish\"");
    byoc_module_destroy(m);
    /* LSTM's peepholes are three vectors of hidden size per direction */
    m = parse_text("def @main(%x: Tensor[(2, 1, 3), float32], %w: Tensor[(1, 16, 3), float32], "
                   "%r: Tensor[(1, 16, 4), float32], %b: Tensor[(1, 32), float32], %l: Tensor[(1), int32], "
                   "%h: Tensor[(1, 1, 4), float32], %p: Tensor[(1, 8), float32]) { nn.lstm(%x, %w, %r, %b, %l, %h, "
                   "%h, %p) }",
                   &d);
    CHECK(m);
    CHECK(byoc_infer_type(m, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "nn.lstm");
    CHECK_CONTAINS(d.message, "P has dim 1 of 8, the op needs shape (1, 12)");
    byoc_module_destroy(m);
    m = parse_text("def @main(%x: Tensor[(2, 1, 3), float32], %w: Tensor[(1, 16, 3), float32], "
                   "%r: Tensor[(1, 16, 4), float32], %b: Tensor[(1, 32), float32], %l: Tensor[(1), float32]) { "
                   "nn.lstm(%x, %w, %r, %b, %l, layout=1) }",
                   &d);
    CHECK(m);
    CHECK(byoc_infer_type(m, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "sequence_lens has dim 0 of 1, the op needs shape (2)");
    byoc_module_destroy(m);
    /* a length past the sequence is an error at run time, naming the op */
    char why[512] = "";
    int32_t bad = 3;
    m = NULL;
    byoc_node *out = evaluate_text(&m,
                                   "def @main(%x: Tensor[(2, 1, 1), float32], %w: Tensor[(1, 1, 1), float32], "
                                   "%r: Tensor[(1, 1, 1), float32], %b: Tensor[(1, 2), float32], "
                                   "%l: Tensor[(1), int32]) { nn.rnn(%x, %w, %r, %b, %l) }",
                                   bad_length_input, 5, &bad, why, sizeof why);
    byoc_module_destroy(m);
    CHECK(!out);
    const char *message = why;
    CHECK_CONTAINS(message, "nn.rnn: sequence_lens[0] is 3, outside [0, 2]");
}

/* ---- spectral ---- */
/* the direct O(n^2) sum: y[k] = scale * sum_j x[j] e^{sign 2 pi i j k / n}, x zero-padded or cut to n */
static void ref_dft(const double *xr, const double *xi, int64_t len, int64_t n, int inverse, double *yr, double *yi) {
    for (int64_t k = 0; k < n; ++k) {
        double sr = 0, si = 0;
        for (int64_t j = 0; j < n && j < len; ++j) {
            double a = (inverse ? 2 : -2) * 3.14159265358979323846 * (double)((j * k) % n) / (double)n;
            sr += xr[j] * cos(a) - xi[j] * sin(a);
            si += xr[j] * sin(a) + xi[j] * cos(a);
        }
        yr[k] = inverse ? sr / (double)n : sr;
        yi[k] = inverse ? si / (double)n : si;
    }
}

typedef struct dft_case {
    int64_t batch, len, channels; /* input (batch, len, channels) */
    float *x;
} dft_case;

static byoc_node *dft_input(byoc_module *m, int i, void *user) {
    const dft_case *c = (const dft_case *)user;
    int64_t dims[3] = {c->batch, c->len, c->channels};
    (void)i;
    return constant_of(m, BYOC_FLOAT32, 3, dims, c->x);
}

/* dft over axis 1 of a (batch, len, channels) input against the direct sums */
static int check_dft(int64_t batch, int64_t len, int64_t channels, int64_t n, int inverse, int onesided,
                     const char *attrs, char *why, size_t cap) {
    dft_case c = {batch, len, channels, random_floats(batch * len * channels)};
    char text[512];
    snprintf(text, sizeof text, "def @main(%%x: Tensor[(%lld, %lld, %lld), float32]) { dft(%%x%s) }", (long long)batch,
             (long long)len, (long long)channels, attrs);
    byoc_module *m = NULL;
    byoc_node *out = evaluate_text(&m, text, dft_input, 1, &c, why, cap);
    int ok = out != NULL, bins = (int)(onesided ? n / 2 + 1 : n);
    if (ok && (out->annotation->rank != 3 || out->annotation->dims[1] != bins || out->annotation->dims[2] != 2)) {
        snprintf(why, cap, "%s: result shape is not (%lld, %d, 2)", text, (long long)batch, bins);
        ok = 0;
    }
    double xr[64], xi[64], yr[64], yi[64];
    for (int64_t b = 0; ok && b < batch; ++b) {
        for (int64_t j = 0; j < len; ++j) {
            xr[j] = c.x[(b * len + j) * channels];
            xi[j] = channels == 2 ? c.x[(b * len + j) * channels + 1] : 0;
        }
        ref_dft(xr, xi, len, n, inverse, yr, yi);
        for (int64_t k = 0; k < bins && ok; ++k) {
            double gr = out_at(out, (b * bins + k) * 2), gi = out_at(out, (b * bins + k) * 2 + 1);
            if (fabs(gr - yr[k]) > 1e-4 * (1 + fabs(yr[k])) || fabs(gi - yi[k]) > 1e-4 * (1 + fabs(yi[k]))) {
                snprintf(why, cap, "%s: bin %lld of batch %lld is %g%+gi, expected %g%+gi", text, (long long)k,
                         (long long)b, gr, gi, yr[k], yi[k]);
                ok = 0;
            }
        }
    }
    if (ok) ok = round_trips(m, why, cap);
    byoc_module_destroy(m);
    free(c.x);
    return ok;
}

static void test_dft_matches_direct_sums(void) {
    char why[1024] = "";
    /* powers of two run radix-2, other lengths (prime too) Bluestein's transform */
    static const int64_t lengths[] = {1, 2, 8, 32, 3, 6, 7, 12, 31};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; ++i) {
        int64_t n = lengths[i];
        CHECKF(check_dft(2, n, 1, n, 0, 0, "", why, sizeof why), "%s", why);
        CHECKF(check_dft(1, n, 2, n, 0, 0, "", why, sizeof why), "%s", why);
        CHECKF(check_dft(2, n, 2, n, 1, 0, ", inverse=True", why, sizeof why), "%s", why);
        CHECKF(check_dft(1, n, 1, n, 0, 1, ", onesided=True", why, sizeof why), "%s", why);
    }
    /* dft_length pads with zeros or cuts the signal */
    CHECKF(check_dft(1, 5, 1, 8, 0, 0, ", dft_length=8", why, sizeof why), "%s", why);
    CHECKF(check_dft(2, 9, 2, 5, 0, 0, ", dft_length=5", why, sizeof why), "%s", why);
    CHECKF(check_dft(1, 6, 1, 10, 0, 1, ", dft_length=10, onesided=True, axis=-2", why, sizeof why), "%s", why);
}

static void test_dft_inverse_undoes_forward_on_an_inner_axis(void) {
    /* rank 4, axis 2: the transform runs along a middle axis */
    const char *text = "def @main(%x: Tensor[(2, 3, 5, 2), float32]) {\n"
                       "  %0 = dft(%x, axis=2);\n  dft(%0, axis=2, inverse=True)\n}";
    dft_case c = {1, 60, 1, random_floats(60)};
    char why[512] = "";
    byoc_diag d;
    byoc_module *m = parse_text(text, &d);
    CHECKF(m, "%s", d.message);
    int64_t dims[4] = {2, 3, 5, 2};
    byoc_node *in = constant_of(m, BYOC_FLOAT32, 4, dims, c.x), *out = NULL;
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    byoc_result r = byoc_module_evaluate(m, &in, 1, &out, &d);
    int same = r == BYOC_OK;
    for (int64_t i = 0; same && i < 60; ++i) same = fabs(out_at(out, i) - c.x[i]) < 1e-5;
    int trip = round_trips(m, why, sizeof why);
    byoc_module_destroy(m);
    free(c.x);
    CHECKF(r == BYOC_OK, "%s", d.message);
    CHECK(same);
    CHECKF(trip, "%s", why);
}

static byoc_node *dft64_input(byoc_module *m, int i, void *user) {
    int64_t dims[3] = {1, 5, 2};
    (void)i;
    return constant_of(m, BYOC_FLOAT64, 3, dims, user);
}

static void test_dft_float64_keeps_double_precision(void) {
    double x[10] = {1, 0, 0.5, -2, 1e-9, 3, -1, 0.25, 2, 1}, yr[5], yi[5], xr[5], xi[5];
    for (int j = 0; j < 5; ++j) { xr[j] = x[2 * j]; xi[j] = x[2 * j + 1]; }
    ref_dft(xr, xi, 5, 5, 0, yr, yi);
    char why[512] = "";
    byoc_module *m = NULL;
    byoc_node *out = evaluate_text(&m, "def @main(%x: Tensor[(1, 5, 2), float64]) { dft(%x) }", dft64_input, 1, x,
                                   why, sizeof why);
    int ok = out && out->annotation->dtype == BYOC_FLOAT64;
    for (int k = 0; ok && k < 5; ++k) {
        const double *y = (const double *)out->data;
        ok = fabs(y[2 * k] - yr[k]) < 1e-12 && fabs(y[2 * k + 1] - yi[k]) < 1e-12;
        if (!ok) snprintf(why, sizeof why, "bin %d is %.17g%+.17gi, expected %.17g%+.17gi", k, y[2 * k], y[2 * k + 1],
                          yr[k], yi[k]);
    }
    byoc_module_destroy(m);
    CHECKF(ok, "%s", why);
}

static byoc_node *stft_input(byoc_module *m, int i, void *user) {
    const float *const *v = (const float *const *)user;
    int64_t signal[3] = {2, 11, 1}, window[1] = {4};
    return i == 0 ? constant_of(m, BYOC_FLOAT32, 3, signal, v[0]) : constant_of(m, BYOC_FLOAT32, 1, window, v[1]);
}

static void test_stft_frames_against_direct_sums(void) {
    float *signal = random_floats(22), window[4] = {0.1f, 0.7f, 1.0f, 0.4f};
    const float *inputs[2] = {signal, window};
    char why[1024] = "";
    byoc_module *m = NULL;
    /* 11 points, frames of 4 every 3: 3 frames of 3 bins */
    byoc_node *out = evaluate_text(&m,
                                   "def @main(%s: Tensor[(2, 11, 1), float32], %w: Tensor[(4), float32]) {\n"
                                   "  stft(%s, %w, frame_step=3)\n}",
                                   stft_input, 2, (void *)inputs, why, sizeof why);
    int ok = out && out->annotation->rank == 4 && out->annotation->dims[1] == 3 && out->annotation->dims[2] == 3;
    for (int64_t b = 0; ok && b < 2; ++b)
        for (int64_t f = 0; ok && f < 3; ++f) {
            double xr[4], xi[4] = {0, 0, 0, 0}, yr[4], yi[4];
            for (int j = 0; j < 4; ++j) xr[j] = (double)signal[b * 11 + f * 3 + j] * window[j];
            ref_dft(xr, xi, 4, 4, 0, yr, yi);
            for (int64_t k = 0; ok && k < 3; ++k) {
                int64_t at = ((b * 3 + f) * 3 + k) * 2;
                ok = fabs(out_at(out, at) - yr[k]) < 1e-5 && fabs(out_at(out, at + 1) - yi[k]) < 1e-5;
                if (!ok) snprintf(why, sizeof why, "batch %lld frame %lld bin %lld differs", (long long)b,
                                  (long long)f, (long long)k);
            }
        }
    if (ok) ok = round_trips(m, why, sizeof why);
    byoc_module_destroy(m);
    free(signal);
    CHECKF(ok, "%s", why);
}

/* a call without arguments evaluated to its constant, against values given */
static int check_constant_op(const char *call, const double *want, int64_t n, char *why, size_t cap) {
    char text[256];
    snprintf(text, sizeof text, "def @main() { %s }", call);
    byoc_module *m = NULL;
    byoc_node *out = evaluate_text(&m, text, NULL, 0, NULL, why, cap);
    int ok = out != NULL && byoc_type_num_elements(out->annotation) == n;
    if (out && !ok) snprintf(why, cap, "%s: %lld values, expected %lld", call,
                             (long long)byoc_type_num_elements(out->annotation), (long long)n);
    for (int64_t i = 0; ok && i < n; ++i) {
        double got = out->annotation->dtype == BYOC_FLOAT64 ? ((const double *)out->data)[i] : out_at(out, i);
        if (fabs(got - want[i]) > 1e-6) {
            snprintf(why, cap, "%s: value %lld is %.9g, expected %.9g", call, (long long)i, got, want[i]);
            ok = 0;
        }
    }
    if (ok) ok = round_trips(m, why, cap);
    byoc_module_destroy(m);
    return ok;
}

static void test_windows_by_hand(void) {
    char why[1024] = "";
    static const double hann4[] = {0, 0.5, 1, 0.5}, hann5_symmetric[] = {0, 0.5, 1, 0.5, 0},
                        hamming4[] = {4.0 / 46, 25.0 / 46, 1, 25.0 / 46}, blackman4[] = {0, 0.34, 1, 0.34},
                        blackman3_symmetric[] = {0, 1, 0}, one[] = {1};
    CHECKF(check_constant_op("hann_window(size=4)", hann4, 4, why, sizeof why), "%s", why);
    CHECKF(check_constant_op("hann_window(size=5, periodic=False)", hann5_symmetric, 5, why, sizeof why), "%s", why);
    CHECKF(check_constant_op("hamming_window(size=4, dtype=\"float64\")", hamming4, 4, why, sizeof why), "%s", why);
    CHECKF(check_constant_op("blackman_window(size=4)", blackman4, 4, why, sizeof why), "%s", why);
    CHECKF(check_constant_op("blackman_window(size=3, periodic=False)", blackman3_symmetric, 3, why, sizeof why), "%s",
           why);
    CHECKF(check_constant_op("hann_window(size=1, periodic=False)", one, 1, why, sizeof why), "%s", why);
}

static void test_mel_weight_matrix_onnx_example(void) {
    /* ONNX's MelWeightMatrix example: 8 bins of a 16-point DFT at 8192 Hz from 0 to 4096 Hz; the
       expected matrix its test lists */
    double want[9 * 8];
    memset(want, 0, sizeof want);
    static const int ones[][2] = {{0, 0}, {0, 1}, {1, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 6}, {5, 7}};
    for (int i = 0; i < 8; ++i) want[ones[i][0] * 8 + ones[i][1]] = 1;
    char why[1024] = "";
    CHECKF(check_constant_op("mel_weight_matrix(num_mel_bins=8, dft_length=16, sample_rate=8192, "
                             "upper_edge_hertz=4096f)",
                             want, 72, why, sizeof why),
           "%s", why);
}

/* each text's type inference fails with a message containing the given words */
static void test_spectral_errors_name_the_problem(void) {
    static const char *const cases[][2] = {
        {"def @main(%x: Tensor[(1, 4, 3), float32]) { dft(%x) }", "last dim must be 1 (real) or 2 (complex)"},
        {"def @main(%x: Tensor[(1, 4, 2), float32]) { dft(%x, axis=2) }", "axis 2 is not a signal axis"},
        {"def @main(%x: Tensor[(1, 4, 1), float32]) { dft(%x, onesided=True, inverse=True) }",
         "onesided with inverse"},
        {"def @main(%x: Tensor[(1, 4, 1), int32]) { dft(%x) }", "must be a float tensor"},
        {"def @main(%x: Tensor[(1, 8, 1), float32], %w: Tensor[(5), float32]) { stft(%x, %w, frame_step=2, "
         "frame_length=4) }",
         "the window has 5 points, frame_length is 4"},
        {"def @main(%x: Tensor[(1, 3, 1), float32]) { stft(%x, frame_step=1, frame_length=4) }",
         "frame_length 4 is longer than the signal (3)"},
        {"def @main(%x: Tensor[(1, 8, 1), float32]) { stft(%x, frame_step=1) }", "needs a frame_length"},
        {"def @main() { hann_window(size=-1) }", "size must be at least 0"},
        {"def @main() { hamming_window(size=4, dtype=\"bool\") }", "not a numeric dtype"},
        {"def @main() { mel_weight_matrix(num_mel_bins=4, dft_length=8, sample_rate=8000, lower_edge_hertz=100f, "
         "upper_edge_hertz=50f) }",
         "lower_edge_hertz < upper_edge_hertz"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        byoc_diag d;
        byoc_module *m = parse_text(cases[i][0], &d);
        CHECKF(m, "%s: %s", cases[i][0], d.message);
        byoc_result r = byoc_infer_type(m, &d);
        byoc_module_destroy(m);
        CHECKF(r == BYOC_ERR_TYPE, "%s: typed", cases[i][0]);
        CHECKF(strstr(d.message, cases[i][1]) != NULL, "expected \"%s\" in \"%s\"", cases[i][1], d.message);
    }
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_rnn_forward_and_bidirectional_with_lengths),
        TEST_ENTRY(test_gru_both_reset_forms),
        TEST_ENTRY(test_lstm_peepholes_lengths_and_variants),
        TEST_ENTRY(test_recurrent_errors_name_the_problem),
        TEST_ENTRY(test_dft_matches_direct_sums),
        TEST_ENTRY(test_dft_inverse_undoes_forward_on_an_inner_axis),
        TEST_ENTRY(test_dft_float64_keeps_double_precision),
        TEST_ENTRY(test_stft_frames_against_direct_sums),
        TEST_ENTRY(test_windows_by_hand),
        TEST_ENTRY(test_mel_weight_matrix_onnx_example),
        TEST_ENTRY(test_spectral_errors_name_the_problem),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
