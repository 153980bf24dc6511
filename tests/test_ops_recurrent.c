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
    ref_rnn ref;
} rnn_case;

static byoc_node *rnn_input(byoc_module *m, int i, void *user) {
    const ref_rnn *c = &((rnn_case *)user)->ref;
    int64_t G = c->gates, H = c->H, D = c->D;
    int64_t x[3] = {c->layout ? c->B : c->T, c->layout ? c->T : c->B, c->I}, w[3] = {D, G * H, c->I},
            r[3] = {D, G * H, H}, b[2] = {D, 2 * G * H}, lens[1] = {c->B}, st[3] = {D, c->B, H},
            st1[3] = {c->B, D, H}, p[2] = {D, 3 * H};
    switch (i) {
    case 0: return constant_of(m, BYOC_FLOAT32, 3, x, c->x);
    case 1: return constant_of(m, BYOC_FLOAT32, 3, w, c->w);
    case 2: return constant_of(m, BYOC_FLOAT32, 3, r, c->r);
    case 3: return constant_of(m, BYOC_FLOAT32, 2, b, c->bias);
    case 4: return constant_of(m, BYOC_INT32, 1, lens, c->lens);
    case 5: return constant_of(m, BYOC_FLOAT32, 3, c->layout ? st1 : st, c->h0);
    case 6: return constant_of(m, BYOC_FLOAT32, 3, c->layout ? st1 : st, c->c0);
    default: return constant_of(m, BYOC_FLOAT32, 2, p, c->p);
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
    byoc_module *m = NULL;
    byoc_node *out = evaluate_text(&m, text, rnn_input, nin, k, why, cap);
    int ok = out != NULL && out->kind == BYOC_NODE_TUPLE && out->nargs == (G == 4 ? 3 : 2);
    if (out && !ok) snprintf(why, cap, "the result is not a tuple of %d", G == 4 ? 3 : 2);
    for (int o = 0; ok && o < out->nargs; ++o) {
        const double *want = o == 0 ? c->y : o == 1 ? c->yh : c->yc;
        int64_t n = o == 0 ? T * B * D * H : B * D * H;
        for (int64_t i = 0; i < n && ok; ++i)
            if (fabs(out_at(out->args[o], i) - want[i]) > 1e-4 + 1e-4 * fabs(want[i])) {
                snprintf(why, cap, "%s output %d element %lld is %.7g, expected %.7g", k->op, o, (long long)i,
                         out_at(out->args[o], i), want[i]);
                ok = 0;
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
    CHECKF(check_rnn_case(&k, why, sizeof why), "%s", why);
    /* ScaledTanh takes an alpha and a beta, Relu none; layout 1; clip */
    k.attrs = ", activations=\"ScaledTanh\", activation_alpha=[0.7f], activation_beta=[1.3f], clip=0.8f, layout=1";
    k.ref.D = 1; k.ref.layout = 1; k.ref.clip = 0.8;
    set_acts(&k.ref, "ScaledTanh", "", "");
    k.ref.alpha[0][0] = 0.7; k.ref.beta[0][0] = 1.3;
    CHECKF(check_rnn_case(&k, why, sizeof why), "%s", why);
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
    CHECKF(check_rnn_case(&k, why, sizeof why), "%s", why);
    k.attrs = ", direction=\"reverse\", linear_before_reset=True";
    k.ref.D = 1; k.ref.reverse = 1; k.ref.linear_before_reset = 1;
    CHECKF(check_rnn_case(&k, why, sizeof why), "%s", why);
    /* HardSigmoid's alpha and beta, then LeakyRelu's alpha: consumed in order */
    k.attrs = ", activations=\"HardSigmoid,LeakyRelu\", activation_alpha=[0.3f, 0.2f], activation_beta=[0.4f], "
              "layout=1, clip=1.5f";
    k.ref.reverse = 0; k.ref.linear_before_reset = 0; k.ref.layout = 1; k.ref.clip = 1.5;
    set_acts(&k.ref, "HardSigmoid", "LeakyRelu", "");
    k.ref.alpha[0][0] = 0.3; k.ref.beta[0][0] = 0.4; k.ref.alpha[0][1] = 0.2;
    CHECKF(check_rnn_case(&k, why, sizeof why), "%s", why);
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
    CHECKF(check_rnn_case(&k, why, sizeof why), "%s", why);
    k.attrs = ", direction=\"reverse\", input_forget=True, clip=0.5f, layout=1, activations=\"Sigmoid,Softsign,Elu\", "
              "activation_alpha=[0.6f]";
    k.ref.D = 1; k.ref.reverse = 1; k.ref.input_forget = 1; k.ref.clip = 0.5; k.ref.layout = 1;
    set_acts(&k.ref, "Sigmoid", "Softsign", "Elu");
    k.ref.alpha[0][2] = 0.6;
    CHECKF(check_rnn_case(&k, why, sizeof why), "%s", why);
    k.attrs = ", activations=\"Affine,Softplus,ThresholdedRelu\", activation_alpha=[0.5f, 0.1f], "
              "activation_beta=[0.25f]";
    k.ref.reverse = 0; k.ref.input_forget = 0; k.ref.clip = -1; k.ref.layout = 0;
    set_acts(&k.ref, "Affine", "Softplus", "ThresholdedRelu");
    k.ref.alpha[0][0] = 0.5; k.ref.beta[0][0] = 0.25; k.ref.alpha[0][2] = 0.1;
    CHECKF(check_rnn_case(&k, why, sizeof why), "%s", why);
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

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_rnn_forward_and_bidirectional_with_lengths),
        TEST_ENTRY(test_gru_both_reset_forms),
        TEST_ENTRY(test_lstm_peepholes_lengths_and_variants),
        TEST_ENTRY(test_recurrent_errors_name_the_problem),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
