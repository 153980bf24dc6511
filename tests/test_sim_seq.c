/* Sequences and optionals in byoc_sim.h's runtime: each sequence.* and optional.* op runs as a host kernel of
   its own (listed by the profile), on boxed values held by the run, and gives what byoc_module_evaluate gives;
   repeated runs of one program reuse nothing stale; a sequence as an input or output of a program (@main's or
   a body's) is refused by name; a bad position is an error naming the op. Public API only. */
#include "byoc_sim.h"
#include "test.h"
#include "ops_test.h"

#include <stdlib.h>

/* the runtime's outputs of r->m's @main on inputs (as doubles) equal the evaluator's r->out, byte for byte */
static int runtime_matches(run_result *r, const double *const *inputs, int *kernels, char *why, size_t cap) {
    byoc_diag d;
    byoc_node *main_fn = byoc_module_function(r->m, "main");
    byoc_sim_program *p = byoc_sim_lower(r->m, NULL, &d);
    if (!p) return snprintf(why, cap, "lower: %s", d.message), 0;
    byoc_tensor in[8], out[8];
    void *bufs[8] = {NULL};
    int nin = main_fn->nparams, ok = nin <= 8;
    for (int i = 0; ok && i < nin; ++i) {
        const byoc_type *t = main_fn->params[i]->checked_type;
        int64_t n = byoc_type_num_elements(t);
        bufs[i] = calloc((size_t)n * byoc_dtype_size(t->dtype) + 1, 1);
        for (int64_t k = 0; k < n; ++k) store_elem(t->dtype, bufs[i], k, inputs[i][k]);
        in[i].dtype = t->dtype;
        in[i].rank = t->rank;
        for (int a = 0; a < t->rank; ++a) in[i].dims[a] = t->dims[a];
        in[i].data = bufs[i];
    }
    int nout = byoc_sim_output_count(p);
    const byoc_node *const *want = r->out->kind == BYOC_NODE_TUPLE ? (const byoc_node *const *)r->out->args : NULL;
    if (!want) want = (const byoc_node *const *)&r->out;
    ok = ok && nout <= 8 && nout == (r->out->kind == BYOC_NODE_TUPLE ? r->out->nargs : 1);
    if (!ok) snprintf(why, cap, "%d runtime outputs", nout);
    for (int run = 0; ok && run < 2; ++run) { /* twice: the second run starts from the first one's state */
        if (byoc_sim_run(p, in, nin, out, nout, &d) != BYOC_OK) {
            snprintf(why, cap, "run %d: %s", run, d.message);
            ok = 0;
        }
        for (int o = 0; ok && o < nout; ++o) {
            const byoc_type *wt = want[o]->annotation;
            size_t bytes = (size_t)byoc_type_num_elements(wt) * byoc_dtype_size(wt->dtype);
            int same = out[o].dtype == wt->dtype && out[o].rank == wt->rank;
            for (int a = 0; same && a < wt->rank; ++a) same = out[o].dims[a] == wt->dims[a];
            if (!same || memcmp(out[o].data, want[o]->data, bytes)) {
                snprintf(why, cap, "run %d: output %d differs from the evaluator's", run, o);
                ok = 0;
            }
        }
    }
    *kernels = byoc_sim_kernel_count(p);
    for (int i = 0; i < nin; ++i) free(bufs[i]);
    byoc_sim_program_destroy(p);
    return ok;
}

typedef struct seq_case {
    const char *text;
    const double *inputs[4];
    int kernels; /* the runtime's kernels: one per op call */
} seq_case;

static const double x6[6] = {1, 2, 3, 4, 5, 6}, x2[2] = {5, 6}, y1[1] = {7}, lens[2] = {2, 3},
                    x10[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, pos_neg[1] = {-2}, t1[1] = {1}, f0[1] = {0};

static void test_each_op_equals_the_evaluator(void) {
    static const seq_case cases[] = {
        /* split, at (negative), insert, erase, concat (stacked), length */
        {"def @main(%x: Tensor[(2, 3), float32]) {\n"
         "  %0 = sequence.split(%x, axis=1, keepdims=0);\n  %1 = sequence.at(%0, -1i64);\n"
         "  %2 = sequence.insert(%0, %1, 0i64);\n  %3 = sequence.erase(%2, -1i64);\n"
         "  (sequence.concat(%3, axis=0, new_axis=1), sequence.length(%3))\n}\n",
         {x6}, 6},
        /* split by lengths: pieces of '?' extent, an at of a data-dependent shape (a DYNAMIC buffer) */
        {"def @main(%x: Tensor[(5, 2), int32], %s: Tensor[(2), int64]) {\n"
         "  %0 = sequence.split(%x, %s);\n  (sequence.concat(%0, axis=0), sequence.at(%0, 1i64))\n}\n",
         {x10, lens}, 3},
        /* construct, concat along the last axis, a position read from an input */
        {"def @main(%x: Tensor[(2), float32], %y: Tensor[(1), float32], %p: int64) {\n"
         "  %0 = sequence.construct(%x, %y, %x);\n  (sequence.concat(%0, axis=-1), sequence.at(%0, %p))\n}\n",
         {x2, y1, pos_neg}, 3},
        /* empty, insert at the end (no position), erase the last (no position), length */
        {"def @main(%x: Tensor[(2), float32]) {\n  %0 = sequence.empty(dtype=\"float32\");\n"
         "  %1 = sequence.insert(%0, %x);\n  %2 = sequence.insert(%1, %x);\n  %3 = sequence.erase(%2);\n"
         "  (sequence.length(%3), sequence.at(%3, 0i64))\n}\n",
         {x2}, 6},
        /* optionals: of a tensor, an empty one, of a sequence */
        {"def @main(%x: Tensor[(2), float32]) {\n  %0 = optional.some(%x);\n"
         "  %1 = optional.none(dtype=\"float32\", shape=[2]);\n  %2 = optional.some(sequence.construct(%x));\n"
         "  (optional.has_element(%0), optional.has_element(%1), optional.get_element(%0),\n"
         "   sequence.length(optional.get_element(%2)))\n}\n",
         {x2}, 9},
        /* an if inside @main whose branches read a sequence of the enclosing program only through tensors */
        {"def @main(%c: bool, %x: Tensor[(2, 3), float32]) {\n  %0 = sequence.split(%x, axis=1, keepdims=0);\n"
         "  %1 = sequence.at(%0, 0i64);\n  %2 = sequence.at(%0, 2i64);\n"
         "  if (%c) { add(%1, %2) } else { subtract(%1, %2) }\n}\n",
         {t1, x6}, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char text[1200], why[400] = "";
        snprintf(text, sizeof text, "#[version = \"0.0.5\"]\n%s", cases[i].text);
        run_result r = run(text, cases[i].inputs);
        CHECKF(r.out, "case %zu: %s", i, r.why);
        int kernels = -1;
        if (r.out) CHECKF(runtime_matches(&r, cases[i].inputs, &kernels, why, sizeof why), "case %zu: %s", i, why);
        CHECKF(kernels == cases[i].kernels, "case %zu: %d kernels, expected %d", i, kernels, cases[i].kernels);
        byoc_module_destroy(r.m);
    }
    (void)f0;
}

/* the profile lists each sequence op as a kernel of the host */
static void test_profile_lists_them(void) {
    byoc_diag d;
    byoc_module *m = parse_text("#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(2, 3), float32]) {\n"
                                "  sequence.length(sequence.split(%x, axis=1))\n}\n", &d);
    CHECKF(m, "%s", d.message);
    byoc_sim_program *p = m ? byoc_sim_lower(m, NULL, &d) : NULL;
    CHECKF(p, "%s", d.message);
    if (!p) { byoc_module_destroy(m); return; }
    byoc_tensor in = {BYOC_FLOAT32, 2, {2, 3}, (void *)(float[6]){0}}, out;
    CHECK(byoc_sim_run(p, &in, 1, &out, 1, &d) == BYOC_OK && *(const int64_t *)out.data == 3);
    CHECK(byoc_sim_kernel_count(p) == 2);
    CHECK(!strcmp(byoc_sim_kernel(p, 0)->ops, "sequence.split") && !strcmp(byoc_sim_kernel(p, 0)->device, "host"));
    CHECK(!strcmp(byoc_sim_kernel(p, 1)->ops, "sequence.length") && byoc_sim_kernel(p, 1)->runs == 1);
    char *table = byoc_sim_profile_format(p, NULL);
    CHECK(table && strstr(table, "sequence.split") && strstr(table, "sequence.length"));
    byoc_sim_free(p, table);
    CHECK(byoc_sim_memory(p).arena_bytes == 0); /* a sequence takes no arena space */
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
}

/* a sequence as @main's input (a byoc_sim_sequence), one of the wrong element shape refused naming the input;
   a bad position fails the run naming the op, and the next run succeeds */
static void test_refusals_and_errors(void) {
    byoc_diag d;
    byoc_module *m = parse_text("#[version = \"0.0.5\"]\ndef @main(%s: Sequence[Tensor[(2), float32]]) {\n"
                   "  sequence.at(%s, -1i64)\n}\n", &d);
    byoc_sim_program *sp = m ? byoc_sim_lower(m, NULL, &d) : NULL;
    CHECKF(sp && byoc_sim_input(sp, 0)->boxed, "%s", d.message);
    if (sp) {
        float a[2] = {1, 2}, b[3] = {3, 4, 5};
        byoc_tensor el[2] = {{BYOC_FLOAT32, 1, {2}, a}, {BYOC_FLOAT32, 1, {2}, b}}, out;
        byoc_sim_sequence seq = {2, el};
        byoc_tensor in = {BYOC_FLOAT32, 0, {0}, &seq};
        CHECKF(byoc_sim_run(sp, &in, 1, &out, 1, &d) == BYOC_OK, "%s", d.message);
        CHECK(out.rank == 1 && out.dims[0] == 2 && ((const float *)out.data)[0] == 3);
        el[1].dims[0] = 3;
        CHECK(byoc_sim_run(sp, &in, 1, &out, 1, &d) == BYOC_ERR_TYPE);
        CHECK_CONTAINS(d.message, "input 0 (%s): sequence value: element 1 is Tensor[(3,), float32]");
        in.data = NULL;
        CHECK(byoc_sim_run(sp, &in, 1, &out, 1, &d) == BYOC_ERR_INVALID_ARGUMENT);
        CHECK_CONTAINS(d.message, "its data must point to a byoc_sim_sequence");
        byoc_sim_program_destroy(sp);
    }
    byoc_module_destroy(m);
    m = parse_text("#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(2), float32], %p: int64) {\n"
                   "  sequence.at(sequence.construct(%x, %x), %p)\n}\n", &d);
    byoc_sim_program *p = m ? byoc_sim_lower(m, NULL, &d) : NULL;
    CHECKF(p, "%s", d.message);
    if (p) {
        int64_t pos = 5;
        byoc_tensor in[2] = {{BYOC_FLOAT32, 1, {2}, (void *)(float[2]){3, 4}}, {BYOC_INT64, 0, {0}, &pos}}, out;
        CHECK(byoc_sim_run(p, in, 2, &out, 1, &d) != BYOC_OK);
        CHECK_CONTAINS(d.message, "sequence.at: position 5 is out of range for a sequence of 2 elements");
        pos = -1;
        CHECK(byoc_sim_run(p, in, 2, &out, 1, &d) == BYOC_OK && ((const float *)out.data)[1] == 4);
        byoc_sim_program_destroy(p);
    }
    byoc_module_destroy(m);
}

/* @main's outputs that are sequences and optionals, read element by element after each run; an if choosing
   between an empty optional and a sequence (ONNX's test_if_opt), a loop growing a sequence (test_loop13_seq) */
static void test_sequence_outputs(void) {
    byoc_diag d;
    byoc_module *m = parse_text("#[version = \"0.0.5\"]\n"
                                "def @main(%c: bool, %x: Tensor[(2), float32], %n: int64) {\n"
                                "  %0 = if (%c) { optional.none(dtype=\"float32\", shape=[-1], sequence=1) }\n"
                                "  else { optional.some(sequence.construct(%x, %x)) };\n"
                                "  %1 = sequence.empty(dtype=\"float32\");\n"
                                "  %2 = loop (%n, True, %1) fn (%i: int64, %go: bool, %s) {\n"
                                "    (True, sequence.insert(%s, multiply(%x, cast(%i, dtype=\"float32\"))))\n"
                                "  };\n"
                                "  (%0, %2.0, %x)\n}\n", &d);
    CHECKF(m, "%s", d.message);
    byoc_sim_program *p = m ? byoc_sim_lower(m, NULL, &d) : NULL;
    CHECKF(p, "%s", d.message);
    if (!p) { byoc_module_destroy(m); return; }
    CHECK(byoc_sim_output_count(p) == 3 && byoc_sim_output(p, 0)->boxed && byoc_sim_output(p, 1)->boxed &&
          !byoc_sim_output(p, 2)->boxed);
    unsigned char c = 1;
    int64_t n = 3;
    float x[2] = {1, 2};
    byoc_tensor in[3] = {{BYOC_BOOL, 0, {0}, &c}, {BYOC_FLOAT32, 1, {2}, x}, {BYOC_INT64, 0, {0}, &n}}, out[3], e;
    CHECKF(byoc_sim_run(p, in, 3, out, 3, &d) == BYOC_OK, "%s", d.message);
    CHECK(byoc_sim_output_elements(p, 0) == -1 && byoc_sim_output_elements(p, 1) == 3);
    CHECK(byoc_sim_output_elements(p, 2) == 1 && out[0].data == NULL);
    CHECK(byoc_sim_output_element(p, 1, 2, &e, &d) == BYOC_OK && e.rank == 1 && e.dims[0] == 2 &&
          ((const float *)e.data)[1] == 4); /* x * 2 */
    CHECK(byoc_sim_output_element(p, 1, 3, &e, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "output 1 has 3 elements in the last run, no element 3");
    CHECK(byoc_sim_output_element(p, 0, 0, &e, &d) == BYOC_ERR_INVALID_ARGUMENT);
    c = 0;
    n = 0;
    CHECKF(byoc_sim_run(p, in, 3, out, 3, &d) == BYOC_OK, "%s", d.message);
    CHECK(byoc_sim_output_elements(p, 0) == 2 && byoc_sim_output_elements(p, 1) == 0);
    CHECK(byoc_sim_output_element(p, 0, 1, &e, &d) == BYOC_OK && ((const float *)e.data)[0] == 1);
    CHECK(byoc_sim_output_element(p, 2, 0, &e, &d) == BYOC_OK && ((const float *)e.data)[1] == 2);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_each_op_equals_the_evaluator),
        TEST_ENTRY(test_profile_lists_them),
        TEST_ENTRY(test_refusals_and_errors),
        TEST_ENTRY(test_sequence_outputs),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
