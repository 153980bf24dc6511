/* Control flow on byoc_sim.h's runtime: if, let and loop bodies lowered to programs of their own, run on the host
   kernels and checked bit for bit against byoc_module_evaluate; a partition inside a branch and inside a loop body
   running on the simulated NPU only when its body runs; profiles and traces per iteration; .byoc round trips; and
   the errors of a loop whose carried value changes shape. Public API only. */
#include "byoc_sim.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

/* ---- helpers ---- */
static byoc_module *parse_typed(const char *text, byoc_diag *d) {
    byoc_module *m = byoc_module_parse(text, strlen(text), "cflow.relay", NULL, d);
    if (m && byoc_infer_type(m, d) != BYOC_OK) {
        byoc_module_destroy(m);
        return NULL;
    }
    return m;
}

/* one input of a test: dtype, shape and data */
typedef struct input {
    byoc_dtype dtype;
    int rank;
    int64_t dims[4];
    const void *data;
} input;

static size_t tensor_bytes(const byoc_tensor *t) {
    size_t n = byoc_dtype_size(t->dtype);
    for (int i = 0; i < t->rank; ++i) n *= (size_t)t->dims[i];
    return n;
}

/* the evaluator's output k: a tensor over the constant's data */
static byoc_tensor evaluated(byoc_node *out, int k) {
    byoc_node *c = out->kind == BYOC_NODE_TUPLE ? out->args[k] : out;
    const byoc_type *t = c->annotation ? c->annotation : c->checked_type;
    byoc_tensor r;
    memset(&r, 0, sizeof r);
    r.dtype = t->dtype;
    r.rank = t->rank;
    for (int i = 0; i < t->rank; ++i) r.dims[i] = t->dims[i];
    r.data = c->data;
    return r;
}

/* Runs p on the inputs and compares every output with byoc_module_evaluate's on m, bit for bit; why says what
   differs. */
static int same_as_evaluator(byoc_module *m, byoc_sim_program *p, const input *in, int nin, char *why, size_t cap) {
    byoc_diag d;
    byoc_node *consts[8];
    byoc_tensor ts[8], outs[8];
    for (int i = 0; i < nin; ++i) {
        const byoc_type *t = byoc_tensor_type(m, in[i].dtype, in[i].rank, in[i].dims);
        consts[i] = byoc_constant(m, t, in[i].data, (size_t)byoc_type_num_elements(t) * byoc_dtype_size(in[i].dtype));
        memset(&ts[i], 0, sizeof ts[i]);
        ts[i].dtype = in[i].dtype;
        ts[i].rank = in[i].rank;
        memcpy(ts[i].dims, in[i].dims, sizeof in[i].dims);
        ts[i].data = (void *)(uintptr_t)in[i].data;
    }
    byoc_node *out = NULL;
    if (byoc_module_evaluate(m, consts, nin, &out, &d) != BYOC_OK) {
        snprintf(why, cap, "evaluate: %s", d.message);
        return 0;
    }
    int nout = byoc_sim_output_count(p);
    if (nout > 8 || nout != (out->kind == BYOC_NODE_TUPLE ? out->nargs : 1)) {
        snprintf(why, cap, "%d outputs, the evaluator gives a different count", nout);
        return 0;
    }
    if (byoc_sim_run(p, ts, nin, outs, nout, &d) != BYOC_OK) {
        snprintf(why, cap, "run: %s", d.message);
        return 0;
    }
    for (int k = 0; k < nout; ++k) {
        byoc_tensor want = evaluated(out, k);
        int same = want.dtype == outs[k].dtype && want.rank == outs[k].rank;
        for (int i = 0; same && i < want.rank; ++i) same = want.dims[i] == outs[k].dims[i];
        if (!same) {
            snprintf(why, cap, "output %d: shape or dtype differs (rank %d vs %d, dim 0 %lld vs %lld)", k, outs[k].rank,
                     want.rank, (long long)(outs[k].rank ? outs[k].dims[0] : -1),
                     (long long)(want.rank ? want.dims[0] : -1));
            return 0;
        }
        if (memcmp(want.data, outs[k].data, tensor_bytes(&want))) {
            snprintf(why, cap, "output %d: values differ", k);
            return 0;
        }
    }
    return 1;
}

/* parse, lower and compare on each input set */
static void check_text(const char *name, const char *text, const input *sets, int nsets, int nin) {
    byoc_diag d;
    char why[512];
    byoc_module *m = parse_typed(text, &d);
    CHECKF(m != NULL, "%s: %s", name, d.message);
    if (!m) return;
    byoc_sim_program *p = byoc_sim_lower(m, NULL, &d);
    CHECKF(p != NULL, "%s: lower: %s", name, d.message);
    for (int s = 0; p && s < nsets; ++s)
        for (int twice = 0; twice < 2; ++twice) /* a second run reuses the program's memory */
            CHECKF(same_as_evaluator(m, p, sets + s * nin, nin, why, sizeof why), "%s, set %d, run %d: %s", name, s,
                   twice, why);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
}

static const char *const if_text = "def @main(%x: Tensor[(2, 3), float32], %c: bool) {\n"
                                   "  %0 = add(%x, 1f);\n"
                                   "  %1 = if (%c) {\n"
                                   "    %2 = multiply(%0, %x);\n"
                                   "    nn.relu(%2)\n"
                                   "  } else {\n"
                                   "    negative(%0)\n"
                                   "  };\n"
                                   "  add(%1, %x)\n"
                                   "}\n";

static const float xs6[6] = {-1.5f, 0.25f, 2, -3, 0.5f, 7};

static void test_if_both_branches(void) {
    unsigned char t = 1, f = 0;
    input sets[4] = {{BYOC_FLOAT32, 2, {2, 3}, xs6}, {BYOC_BOOL, 0, {0}, &t},
                     {BYOC_FLOAT32, 2, {2, 3}, xs6}, {BYOC_BOOL, 0, {0}, &f}};
    check_text("if", if_text, sets, 2, 2);
    /* the kernel records which branch ran */
    byoc_diag d;
    byoc_module *m = parse_typed(if_text, &d);
    byoc_sim_program *p = m ? byoc_sim_lower(m, NULL, &d) : NULL;
    CHECKF(p != NULL, "%s", d.message);
    if (!p) return;
    int ctl = -1;
    for (int i = 0; i < byoc_sim_kernel_count(p); ++i)
        if (byoc_sim_kernel(p, i)->exec == BYOC_SIM_EXEC_CONTROL) ctl = i;
    CHECK(ctl >= 0 && byoc_sim_kernel_body_count(p, ctl) == 2 && !strcmp(byoc_sim_kernel(p, ctl)->ops, "if"));
    CHECK(!strcmp(byoc_sim_exec_name(BYOC_SIM_EXEC_CONTROL), "control"));
    const byoc_sim_program *then_p = byoc_sim_kernel_body(p, ctl, 0), *else_p = byoc_sim_kernel_body(p, ctl, 1);
    CHECK(then_p && else_p && byoc_sim_kernel_body(p, ctl, 2) == NULL && byoc_sim_kernel_body(p, 0, 0) == NULL);
    CHECK(byoc_sim_memory(p).bodies == 2 && byoc_sim_memory(p).body_bytes > 0);
    byoc_tensor in[2] = {{BYOC_FLOAT32, 2, {2, 3}, (void *)(uintptr_t)xs6}, {BYOC_BOOL, 0, {0}, &f}};
    CHECKF(byoc_sim_run(p, in, 2, NULL, 0, &d) == BYOC_OK, "%s", d.message);
    CHECK(byoc_sim_kernel_iterations(p, ctl) == 1);
    CHECK(byoc_sim_kernel(then_p, 0)->runs == 0 && byoc_sim_kernel(else_p, 0)->runs == 1); /* only the else ran */
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
}

static const char *const loop_text = "def @main(%x: Tensor[(2), float32], %n: int64) {\n"
                                     "  %0 = loop (%n, True, %x)\n"
                                     "    fn (%i: int64, %go: bool, %acc: Tensor[(2), float32]) {\n"
                                     "    %1 = add(%acc, %x);\n"
                                     "    %2 = cast(%i, dtype=\"float32\");\n"
                                     "    %3 = less(%i, 9i64);\n"
                                     "    (%3, %1, %2)\n"
                                     "  };\n"
                                     "  let %y = %0.0;\n"
                                     "  (%y, %0.1)\n"
                                     "}\n";

/* trip count 3 stops first; 100: the condition stops it after 10 iterations; 0 and -2: no iteration */
static void test_loop_trip_count_and_condition(void) {
    static const float x2[2] = {1, 2.5f};
    static const int64_t trips[4] = {3, 100, 0, -2};
    input sets[8];
    for (int s = 0; s < 4; ++s) {
        input a = {BYOC_FLOAT32, 1, {2}, x2}, b = {BYOC_INT64, 0, {0}, &trips[s]};
        sets[2 * s] = a;
        sets[2 * s + 1] = b;
    }
    check_text("loop", loop_text, sets, 4, 2);
    byoc_diag d;
    byoc_module *m = parse_typed(loop_text, &d);
    byoc_sim_program *p = m ? byoc_sim_lower(m, NULL, &d) : NULL;
    CHECKF(p != NULL, "%s", d.message);
    if (!p) return;
    byoc_tensor in[2] = {{BYOC_FLOAT32, 1, {2}, (void *)(uintptr_t)x2},
                         {BYOC_INT64, 0, {0}, (void *)(uintptr_t)&trips[1]}},
                out[2];
    CHECKF(byoc_sim_run(p, in, 2, out, 2, &d) == BYOC_OK, "%s", d.message);
    int ctl = 0;
    while (ctl < byoc_sim_kernel_count(p) && byoc_sim_kernel(p, ctl)->exec != BYOC_SIM_EXEC_CONTROL) ctl++;
    CHECK(byoc_sim_kernel_iterations(p, ctl) == 10 && out[1].rank == 1 && out[1].dims[0] == 10);
    CHECK(((const float *)out[1].data)[9] == 9.0f && ((const float *)out[0].data)[1] == 2.5f * 11);
    /* the body's kernels ran once per iteration: the profile shows them with their counts */
    const byoc_sim_program *body = byoc_sim_kernel_body(p, ctl, 0);
    CHECK(body && byoc_sim_kernel_count(body) >= 3 && byoc_sim_kernel(body, 0)->runs == 10);
    char *prof = byoc_sim_profile_format(p, NULL);
    CHECK_CONTAINS(prof, "body of kernel");
    CHECK_CONTAINS(prof, "10 iterations");
    byoc_sim_free(p, prof);
    /* the trace has each body kernel once per iteration, with its iteration index */
    char *json = byoc_sim_trace_format(p, NULL);
    CHECK_CONTAINS(json, "\"iteration\":9");
    int events = 0;
    for (const char *s = json; s && (s = strstr(s, "\"iteration\":")) != NULL; ++s) events++;
    CHECKF(events == 10 * byoc_sim_kernel_count(body), "%d events inside the body", events);
    byoc_sim_free(p, json);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
}

/* carried values that swap every iteration: the body reads both before either is written back */
static void test_loop_swaps_carried_values(void) {
    static const char *const text =
        "def @main(%a: Tensor[(3), float32], %b: Tensor[(3), float32]) {\n"
        "  %0 = loop (5i64, True, %a, %b)\n"
        "    fn (%i: int64, %go: bool, %p: Tensor[(3), float32], %q: Tensor[(3), float32]) {\n"
        "    %1 = add(%p, 1f);\n"
        "    (%go, %q, %1)\n"
        "  };\n"
        "  (%0.0, %0.1)\n"
        "}\n";
    static const float a[3] = {1, 2, 3}, b[3] = {10, 20, 30};
    input sets[2] = {{BYOC_FLOAT32, 1, {3}, a}, {BYOC_FLOAT32, 1, {3}, b}};
    check_text("swap", text, sets, 1, 2);
}

/* if, let and loop nested in each other, with dataflow around them and captures at every level */
static const char *const nested_text =
    "def @main(%x: Tensor[(1, 4), float32], %c: bool) {\n"
    "  %0 = add(%x, 1f);\n"
    "  %1 = nn.relu(%0);\n"
    "  %2 = if (%c) {\n"
    "    %3 = loop (3i64, True, %1) fn (%i: int64, %go: bool, %a: Tensor[(1, 4), float32]) {\n"
    "      %4 = add(%a, %x);\n"
    "      let %t = tanh(%4);\n"
    "      %5 = if (%go) { multiply(%t, 0.5f) } else { %t };\n"
    "      (%go, %5, %4)\n"
    "    };\n"
    "    %3.0\n"
    "  } else {\n"
    "    %6 = negative(%1);\n"
    "    exp(%6)\n"
    "  };\n"
    "  %7 = loop (2i64, True, %2) fn (%j: int64, %g: bool, %b: Tensor[(1, 4), float32]) {\n"
    "    %8 = add(%b, %x);\n"
    "    %9 = nn.relu(%8);\n"
    "    (%g, %9, %8)\n"
    "  };\n"
    "  let %y = %7.0;\n"
    "  %10 = sigmoid(%y);\n"
    "  (add(%10, %x), %7.1)\n"
    "}\n";

static void test_nested_if_let_loop(void) {
    static const float x[4] = {-1, 0.5f, 2, -3};
    unsigned char t = 1, f = 0;
    input sets[4] = {{BYOC_FLOAT32, 2, {1, 4}, x}, {BYOC_BOOL, 0, {0}, &t},
                     {BYOC_FLOAT32, 2, {1, 4}, x}, {BYOC_BOOL, 0, {0}, &f}};
    check_text("nested", nested_text, sets, 2, 2);
    /* fused bodies are not made by FuseOps yet, but a fused @main around control flow still runs */
    byoc_diag d;
    char why[512];
    byoc_module *m = parse_typed(nested_text, &d);
    CHECKF(m && byoc_fuse_ops(m, 256, &d) == BYOC_OK, "%s", d.message);
    byoc_sim_program *p = m ? byoc_sim_lower(m, NULL, &d) : NULL;
    CHECKF(p != NULL, "%s", d.message);
    if (p) CHECKF(same_as_evaluator(m, p, sets, 2, why, sizeof why), "fused: %s", why);
    /* then, else, the loop's body in then, the if's two in it, the second loop's (lets lower inline) */
    if (p) CHECKF(byoc_sim_memory(p).bodies == 6, "%d body programs", byoc_sim_memory(p).bodies);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
}

/* ---- a partition inside a branch and inside a loop body, on the simulated NPU ---- */
static const char *const partitioned_text =
    "def @npu_0(%a: Tensor[(1, 16), float32], Compiler=\"npu\", global_symbol=\"npu_0\", Primitive=1) {\n"
    "  %0 = nn.dense(%a, meta[relay.Constant][0] /* ty=Tensor[(16, 16), float32] */);\n"
    "  nn.relu(%0)\n"
    "}\n"
    "def @main(%x: Tensor[(1, 16), float32], %c: bool, %n: int64) {\n"
    "  %1 = if (%c) {\n"
    "    @npu_0(%x)\n"
    "  } else {\n"
    "    negative(%x)\n"
    "  };\n"
    "  %2 = loop (%n, True, %1) fn (%i: int64, %go: bool, %h: Tensor[(1, 16), float32]) {\n"
    "    %3 = @npu_0(%h);\n"
    "    %4 = multiply(%3, 0.25f);\n"
    "    (%go, %4, %4)\n"
    "  };\n"
    "  (%2.0, %2.1)\n"
    "}\n";

/* the module (its weight seeded by the parser) with the npu's runtime module attached to @npu_0 */
static byoc_module *partitioned_module(byoc_sim_backend *npu, byoc_diag *d) {
    byoc_module *m = parse_typed(partitioned_text, d);
    if (!m) return NULL;
    const byoc_target *targets[1] = {npu->target};
    if (byoc_run_target_hooks(m, targets, 1, d) != BYOC_OK) {
        byoc_module_destroy(m);
        return NULL;
    }
    return m;
}

static int npu_kernel_runs(const byoc_sim_program *p, int depth) {
    int runs = 0;
    for (int i = 0; i < byoc_sim_kernel_count(p); ++i) {
        const byoc_sim_kernel_info *k = byoc_sim_kernel(p, i);
        if (k->exec == BYOC_SIM_EXEC_RUNTIME && !strcmp(k->device_kind, "npu")) runs += k->runs;
        for (int b = 0; b < byoc_sim_kernel_body_count(p, i); ++b)
            runs += npu_kernel_runs(byoc_sim_kernel_body(p, i, b), depth + 1);
    }
    return runs;
}

static void test_partition_inside_branch_and_loop(void) {
    byoc_diag d;
    byoc_sim_backend *npu = byoc_sim_backend_open("npu", &d);
    CHECKF(npu != NULL, "%s", d.message);
    if (!npu) return;
    byoc_module *m = partitioned_module(npu, &d);
    CHECKF(m != NULL, "%s", d.message);
    byoc_sim_program *p = m ? byoc_sim_lower(m, NULL, &d) : NULL;
    CHECKF(p != NULL, "%s", d.message);
    if (!p) {
        byoc_module_destroy(m);
        byoc_sim_backend_close(npu);
        return;
    }
    float x[16];
    for (int i = 0; i < 16; ++i) x[i] = (float)(i % 5) - 2.0f;
    unsigned char t = 1, f = 0;
    int64_t n = 4;
    byoc_tensor in[3] = {{BYOC_FLOAT32, 2, {1, 16}, x}, {BYOC_BOOL, 0, {0}, &f}, {BYOC_INT64, 0, {0}, &n}}, out[2];
    /* else: the npu runs only in the loop's 4 iterations */
    CHECKF(byoc_sim_run(p, in, 3, out, 2, &d) == BYOC_OK, "%s", d.message);
    CHECKF(npu_kernel_runs(p, 0) == 4, "%d npu runs", npu_kernel_runs(p, 0));
    /* then: once more in the branch */
    in[1].data = &t;
    CHECKF(byoc_sim_run(p, in, 3, out, 2, &d) == BYOC_OK, "%s", d.message);
    CHECKF(npu_kernel_runs(p, 0) == 4 + 5, "%d npu runs", npu_kernel_runs(p, 0));
    /* the device's time is in the control kernels' simulated time and in the profile's npu share */
    char *prof = byoc_sim_profile_format(p, NULL);
    CHECK_CONTAINS(prof, "npu ");
    CHECK_CONTAINS(prof, "npu 0.0");
    byoc_sim_free(p, prof);
    CHECK(byoc_sim_latency(p) > 0);
    /* the npu computes what the host kernels compute (float32 dense: the same kernel up to summation order) */
    float direct[16];
    memcpy(direct, out[0].data, sizeof direct);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
    byoc_module *plain = parse_typed(partitioned_text, &d); /* no runtime module: @npu_0 inlined on the host */
    if (plain) {
        byoc_sim_program *hp = byoc_sim_lower(plain, NULL, &d);
        CHECKF(hp && byoc_sim_run(hp, in, 3, out, 2, &d) == BYOC_OK, "%s", d.message);
        double err = 0;
        for (int i = 0; hp && i < 16; ++i) err = fmax(err, fabs((double)direct[i] - ((const float *)out[0].data)[i]));
        CHECKF(err < 1e-4, "npu and host differ by %g", err);
        byoc_sim_program_destroy(hp);
        byoc_module_destroy(plain);
    }
    byoc_sim_backend_close(npu);
}

/* ---- .byoc executables ---- */
static void test_executable_round_trip(void) {
    byoc_diag d;
    byoc_sim_backend *npu = byoc_sim_backend_open("npu", &d);
    byoc_module *m = npu ? partitioned_module(npu, &d) : NULL;
    byoc_sim_program *p = m ? byoc_sim_lower(m, NULL, &d) : NULL;
    CHECKF(p != NULL, "%s", d.message);
    if (!p) {
        byoc_module_destroy(m);
        byoc_sim_backend_close(npu);
        return;
    }
    void *bytes = NULL;
    size_t size = 0;
    CHECKF(byoc_sim_executable_save(p, NULL, &bytes, &size, &d) == BYOC_OK, "%s", d.message);
    byoc_sim_executable *e = bytes ? byoc_sim_executable_load(bytes, size, "cflow.byoc", NULL, &d) : NULL;
    CHECKF(e != NULL, "%s", d.message);
    byoc_sim_program *q = e ? byoc_sim_executable_program(e) : NULL;
    float x[16];
    for (int i = 0; i < 16; ++i) x[i] = (float)(i % 7) - 3.0f;
    unsigned char t = 1;
    int64_t n = 6;
    byoc_tensor in[3] = {{BYOC_FLOAT32, 2, {1, 16}, x}, {BYOC_BOOL, 0, {0}, &t}, {BYOC_INT64, 0, {0}, &n}}, a[2], b[2];
    CHECKF(byoc_sim_run(p, in, 3, a, 2, &d) == BYOC_OK, "%s", d.message);
    CHECKF(q && byoc_sim_run(q, in, 3, b, 2, &d) == BYOC_OK, "%s", d.message);
    for (int k = 0; q && k < 2; ++k)
        CHECK(a[k].rank == b[k].rank && a[k].dims[0] == b[k].dims[0] &&
              !memcmp(a[k].data, b[k].data, tensor_bytes(&a[k])));
    CHECK(q && npu_kernel_runs(q, 0) == 7);
    /* the source map holds the ops inside bodies, each with the control kernel that runs it */
    int body_ops = 0, npu_ops = 0;
    for (int i = 0; e && i < byoc_sim_executable_source_count(e); ++i) {
        const byoc_sim_source_entry *se = byoc_sim_executable_source(e, i);
        if (se->removed && se->removed[0]) continue;
        const byoc_sim_kernel_info *ki = se->kernel >= 0 ? byoc_sim_kernel(q, se->kernel) : NULL;
        if (!strcmp(se->op, "multiply"))
            body_ops += ki && ki->exec == BYOC_SIM_EXEC_CONTROL && !strcmp(ki->ops, "loop");
        if (!strcmp(se->op, "nn.dense"))
            npu_ops += ki && ki->exec == BYOC_SIM_EXEC_CONTROL && !strcmp(se->partition, "npu_0");
    }
    CHECKF(body_ops == 1 && npu_ops == 1, "source map: %d loop-body ops, %d npu ops under a control kernel", body_ops,
           npu_ops);
    /* the bodies' kernels are listed in the file (the loader checked them against its own lowering) */
    const unsigned char *f = (const unsigned char *)bytes;
    const char *needle = "body\t1.0.0\truntime\tnpu";
    size_t nl = strlen(needle), at = 0;
    while (f && at + nl < size && memcmp(f + at, needle, nl)) at++;
    CHECKF(f && at + nl < size, "%s", "no line for the loop body's npu kernel in the kernels section");
    free(bytes);
    byoc_sim_executable_destroy(e);
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
    byoc_sim_backend_close(npu);
}

/* ---- bad input ---- */
static void test_carried_value_changing_shape(void) {
    /* the type of %acc has '?', so type inference accepts a body that doubles it; the runtime plans each body
       once and refuses, naming the loop */
    static const char *const text =
        "def @main(%x: Tensor[(?), float32]) {\n"
        "  %0 = loop (3i64, True, %x) fn (%i: int64, %go: bool, %acc: Tensor[(?), float32]) {\n"
        "    %1 = concatenate((%acc, %acc));\n"
        "    (%go, %1)\n"
        "  };\n"
        "  %0.0\n"
        "}\n";
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, strlen(text), "grow.relay", NULL, &d);
    CHECKF(m != NULL, "%s", d.message);
    if (!m) return;
    byoc_node_set_span(m, byoc_module_function(m, "main")->body->args[0], "onnx:Loop_7", "grow.onnx", 0, 0);
    byoc_sim_program *p = byoc_sim_lower(m, NULL, &d);
    CHECKF(p != NULL, "%s", d.message);
    float x[2] = {1, 2};
    byoc_tensor in = {BYOC_FLOAT32, 1, {2}, x};
    CHECK(p && byoc_sim_run(p, &in, 1, NULL, 0, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "loop (onnx:Loop_7)");
    CHECK_CONTAINS(d.message, "loop-carried value 0 entered iteration 0 as Tensor[(2,), float32] and the body returns "
                              "Tensor[(4,), float32]");
    byoc_sim_program_destroy(p);
    byoc_module_destroy(m);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_if_both_branches),
        TEST_ENTRY(test_loop_trip_count_and_condition),
        TEST_ENTRY(test_loop_swaps_carried_values),
        TEST_ENTRY(test_nested_if_let_loop),
        TEST_ENTRY(test_partition_inside_branch_and_loop),
        TEST_ENTRY(test_executable_round_trip),
        TEST_ENTRY(test_carried_value_changing_shape),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
