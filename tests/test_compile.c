/* Unit tests for byoc_sim_compile (byoc_sim.h "sim: compile pipeline"): the stages in order, the program it gives
   against the host-only one, placement only, Collage, a stopping callback, and bad options. */
#include "byoc_sim.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

#define MNIST "tests/inputs/mnist.relay"

typedef struct stage_log {
    int stages[64];
    int n, prepare_passes, stop_at; /* stop_at: the stage whose callback returns 1 (-1: none) */
    int placed_ops;                 /* the placement report's op count, read at BYOC_SIM_STAGE_PLACE */
} stage_log;

static int log_stage(byoc_sim_compile_stage stage, const char *pass, byoc_module *m, const byoc_sim_compiled *c,
                     void *user_data) {
    stage_log *log = (stage_log *)user_data;
    (void)m;
    if (stage == BYOC_SIM_STAGE_PREPARE) {
        log->prepare_passes += pass && *pass;
        return 0;
    }
    if (log->n < 64) log->stages[log->n++] = (int)stage;
    if (stage == BYOC_SIM_STAGE_PLACE && c->placement) log->placed_ops = c->placement->count;
    return (int)stage == log->stop_at;
}

/* the output of the mnist module under opts, into out[10]; 0 when the compile or the run fails. With keep, the
   result and its module (which the program borrows) are the caller's to free. */
static int run_mnist(const byoc_sim_compile_options *opts, float *out, byoc_sim_compiled **keep, byoc_module **keep_m) {
    byoc_diag d;
    byoc_module *m = byoc_module_load(MNIST, NULL, &d);
    byoc_sim_compiled *c = NULL;
    int ok = m && byoc_sim_compile(m, opts, &c, &d) == BYOC_OK;
    static float x[784];
    for (int i = 0; i < 784; ++i) x[i] = (float)(i % 13) * 0.05f;
    byoc_tensor in = {BYOC_FLOAT32, 4, {1, 1, 28, 28}, x}, y;
    ok = ok && byoc_sim_run(c->program, &in, 1, &y, 1, &d) == BYOC_OK && y.rank == 2 && y.dims[1] == 10;
    if (ok) memcpy(out, y.data, sizeof(float) * 10);
    if (!ok) fprintf(stderr, "  mnist: %s\n", d.message);
    if (keep) {
        *keep = c;
        *keep_m = m;
        return ok;
    }
    byoc_sim_compiled_free(c);
    byoc_module_destroy(m);
    return ok;
}

static void test_stages_in_order_and_devices_match_the_host(void) {
    byoc_diag d;
    byoc_sim_backend *npu = byoc_sim_backend_open("npu", &d), *dsp = npu ? byoc_sim_backend_open("dsp", &d) : NULL;
    CHECKF(npu && dsp, "%s", d.message);
    if (!npu || !dsp) return;
    byoc_sim_backend *list[2] = {npu, dsp};
    stage_log log;
    memset(&log, 0, sizeof log);
    log.stop_at = -1;
    byoc_sim_compile_options o;
    memset(&o, 0, sizeof o);
    o.backends = list;
    o.nbackends = 2;
    o.on_stage = log_stage;
    o.stage_data = &log;
    float host[10], dev[10];
    byoc_sim_compiled *c = NULL;
    byoc_module *m = NULL;
    CHECK(run_mnist(NULL, host, NULL, NULL));
    CHECK(run_mnist(&o, dev, &c, &m));
    static const int want[] = {BYOC_SIM_STAGE_PLACE, BYOC_SIM_STAGE_TARGET_HOOKS, BYOC_SIM_STAGE_HOST_REWRITES,
                               BYOC_SIM_STAGE_FUSE, BYOC_SIM_STAGE_LOWER};
    CHECKF(log.n == 5 && !memcmp(log.stages, want, sizeof want), "%d stages reported", log.n);
    CHECKF(log.prepare_passes >= 3, "%d preparation passes reported", log.prepare_passes);
    CHECK(c && c->placement && c->placement->count == 13 && log.placed_ops == 13 && !c->collage);
    int on_npu = 0;
    for (int i = 0; c && c->placement && i < c->placement->count; ++i)
        on_npu += !strcmp(c->placement->nodes[i].backend, "npu");
    CHECKF(on_npu == 10, "%d ops on the npu", on_npu);
    int npu_kernels = 0;
    for (int k = 0; c && k < byoc_sim_kernel_count(c->program); ++k)
        npu_kernels += !strcmp(byoc_sim_kernel(c->program, k)->device, "npu");
    CHECKF(npu_kernels >= 1, "%d kernels on the npu", npu_kernels);
    for (int i = 0; i < 10; ++i)
        CHECKF(fabsf(host[i] - dev[i]) <= 1e-4f * (1 + fabsf(host[i])), "output %d: %g against %g", i, dev[i], host[i]);
    byoc_sim_compiled_free(c);
    byoc_module_destroy(m);
    /* Collage: its statistics, and the plan's program runs the same */
    o.strategy = "collage";
    o.on_stage = NULL;
    CHECK(run_mnist(&o, dev, &c, &m));
    CHECK(c && c->collage && c->collage->nplacement == 13 && c->collage->cost > 0);
    for (int i = 0; i < 10; ++i) CHECK(fabsf(host[i] - dev[i]) <= 1e-4f * (1 + fabsf(host[i])));
    byoc_sim_compiled_free(c);
    byoc_module_destroy(m);
    byoc_sim_backend_close(npu);
    byoc_sim_backend_close(dsp);
}

static void test_place_only_and_a_stopping_callback(void) {
    byoc_diag d;
    byoc_sim_backend *npu = byoc_sim_backend_open("npu", &d);
    CHECKF(npu != NULL, "%s", d.message);
    if (!npu) return;
    byoc_module *m = byoc_module_load(MNIST, NULL, &d);
    byoc_sim_compile_options o;
    memset(&o, 0, sizeof o);
    o.backends = &npu;
    o.nbackends = 1;
    o.place_only = 1;
    byoc_sim_compiled *c = NULL;
    CHECK(m && byoc_sim_compile(m, &o, &c, &d) == BYOC_OK);
    CHECK(c && !c->program && c->placement && c->placement->count == 13);
    byoc_sim_compiled_free(c);
    byoc_module_destroy(m);
    /* a callback that returns nonzero after the host rewrites: the compile stops there, saying so */
    stage_log log;
    memset(&log, 0, sizeof log);
    log.stop_at = BYOC_SIM_STAGE_HOST_REWRITES;
    o.place_only = 0;
    o.on_stage = log_stage;
    o.stage_data = &log;
    m = byoc_module_load(MNIST, NULL, &d);
    c = NULL;
    byoc_result r = m ? byoc_sim_compile(m, &o, &c, &d) : BYOC_ERR_IO;
    CHECKF(r == BYOC_ERR_INTERNAL && strstr(d.message, "stopped after host rewrites"), "%s: %s", byoc_result_str(r),
           d.message);
    CHECK(c && !c->program && c->failed == BYOC_SIM_STAGE_HOST_REWRITES && log.n == 3);
    CHECK(!strcmp(byoc_sim_compile_stage_name(BYOC_SIM_STAGE_TARGET_HOOKS), "target hooks"));
    byoc_sim_compiled_free(c);
    byoc_module_destroy(m);
    byoc_sim_backend_close(npu);
}

static void test_bad_options_are_errors(void) {
    byoc_diag d;
    byoc_module *m = byoc_module_load(MNIST, NULL, &d);
    byoc_sim_compile_options o;
    memset(&o, 0, sizeof o);
    byoc_sim_compiled *c = NULL;
    o.strategy = "best";
    CHECK(m && byoc_sim_compile(m, &o, &c, &d) == BYOC_ERR_INVALID_ARGUMENT && !c);
    CHECKF(strstr(d.message, "strategy 'best' is not one of greedy, collage") != NULL, "%s", d.message);
    o.strategy = "collage";
    o.estimator = "guess";
    CHECK(byoc_sim_compile(m, &o, &c, &d) == BYOC_ERR_INVALID_ARGUMENT && strstr(d.message, "estimator 'guess'"));
    o.estimator = NULL;
    o.nbackends = 1; /* and no list */
    CHECK(byoc_sim_compile(m, &o, &c, &d) == BYOC_ERR_INVALID_ARGUMENT && strstr(d.message, "without a list"));
    byoc_sim_backend *none = NULL;
    o.backends = &none;
    CHECK(byoc_sim_compile(m, &o, &c, &d) == BYOC_ERR_INVALID_ARGUMENT && strstr(d.message, "backend is NULL"));
    CHECK(byoc_sim_compile(m, NULL, NULL, &d) == BYOC_ERR_INVALID_ARGUMENT && strstr(d.message, "out is NULL"));
    /* a module that does not lower: the failed stage says where (an op without a host kernel) */
    byoc_module_destroy(m);
    static const char text[] = "def @main(%x: Tensor[(2, 2), float32]) { nn.conv2d(%x, %x) }\n";
    m = byoc_module_parse(text, sizeof text - 1, "bad.relay", NULL, &d);
    memset(&o, 0, sizeof o);
    byoc_result r = m ? byoc_sim_compile(m, &o, &c, &d) : BYOC_OK;
    CHECKF(r != BYOC_OK && c && c->failed == BYOC_SIM_STAGE_PREPARE, "%s (failed at %s): %s", byoc_result_str(r),
           c ? byoc_sim_compile_stage_name(c->failed) : "-", d.message);
    byoc_sim_compiled_free(c);
    byoc_module_destroy(m);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_stages_in_order_and_devices_match_the_host),
        TEST_ENTRY(test_place_only_and_a_stopping_callback),
        TEST_ENTRY(test_bad_options_are_errors),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
