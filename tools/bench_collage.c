/* bench_collage -- the Collage search (byoc_partition_collage with the analytic estimator) on the built-in
   npu and dsp backends:
   - search time on synthetic graphs of 1k, 10k and 50k nodes (tools/synthetic.h), medians of wall seconds on one
     thread and on a pool of the online cores (byoc_collage_options.parallel; BYOC_BENCH_THREADS=N sets N), with
     the CPU seconds of the pool's runs, and the peak memory: each size runs in a process of its own (this program
     again, BYOC_BENCH_ONLY=N), whose getrusage maximum resident set is read before the first search (the graph
     built) and after the last;
   - every shared model: search time (median of RUNS searches), and the simulated latency of the greedy
     plan, the searched plan and the best single-backend plan (each compiled and run on the simulated
     SoC); the geometric mean of greedy / collage over the distinct models.
   The device presets are the built-ins' (README "Device models"), fixed before any of this is measured.
   Usage: bench_collage MODELS_DIR RUNS OUT.json. Prints markdown tables; writes the rows to OUT.json.
   BYOC_BENCH_ONLY=N: only the synthetic graph of N nodes (for profilers), one line of results. The process keeps
   freed memory for reuse as byocc does (glibc's mallopt; byocc.c's keep_freed_memory says why). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c99 */
#endif
#define BYOC_SIM_IMPLEMENTATION
#include "../byoc_sim.h"
#define BYOC_ONNX_IMPLEMENTATION
#include "byoc_onnx.h"
#include "synthetic.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include "bench_util.h"

static double clock_seconds(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}


static byoc_sim_backend *backends[2];
static byoc_sim_pool *pool;    /* the search's threads: the online cores, or BYOC_BENCH_THREADS */
static byoc_parallel threads;  /* pool's parallel_for; used when use_threads */
static int use_threads;

static void collage_options(byoc_collage_options *o, const byoc_backend_spec **specs, byoc_sim_collage_devices *devices) {
    specs[0] = backends[0]->spec;
    specs[1] = backends[1]->spec;
    memset(devices, 0, sizeof *devices);
    devices->backends = (const byoc_sim_backend *const *)backends;
    devices->count = 2;
    memset(o, 0, sizeof *o);
    o->backends = specs;
    o->nbackends = 2;
    o->cost = byoc_sim_collage_cost;
    o->cost_data = devices;
    o->plain_candidates = 1;
    o->bind_constants = 1;
    o->parallel = use_threads ? &threads : NULL;
}

/* one search on a copy of m: its statistics, wall seconds in *seconds (CPU seconds in *cpu when not NULL) */
static int search_once(const byoc_module *m, byoc_collage_stats *st, double *seconds, double *cpu, byoc_diag *d) {
    byoc_module *copy = byoc_module_clone(m, NULL);
    if (!copy) return 0;
    const byoc_backend_spec *specs[2];
    byoc_sim_collage_devices devices;
    byoc_collage_options o;
    collage_options(&o, specs, &devices);
    double t0 = clock_seconds(CLOCK_MONOTONIC), c0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    int ok = byoc_partition_collage(copy, &o, st, NULL, d) == BYOC_OK;
    *seconds = clock_seconds(CLOCK_MONOTONIC) - t0;
    if (cpu) *cpu = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
    byoc_sim_collage_devices_release(&devices);
    byoc_module_destroy(copy);
    return ok;
}

/* the simulated latency of m placed by a plan: PLAN_GREEDY, PLAN_COLLAGE, or greedy on one backend
   (PLAN_ONLY + k; k = 2: the host alone); then hooks, FuseOps, lower, one run on seeded inputs */
enum { PLAN_GREEDY = 0, PLAN_COLLAGE = 1, PLAN_ONLY = 2 };
static double simulated(const byoc_module *m, int plan, byoc_diag *d) {
    int collage = plan == PLAN_COLLAGE;
    byoc_module *copy = byoc_module_clone(m, NULL);
    if (!copy) return -1;
    const byoc_backend_spec *specs[2];
    byoc_sim_collage_devices devices;
    byoc_collage_options o;
    collage_options(&o, specs, &devices);
    byoc_partition_options po;
    memset(&po, 0, sizeof po);
    po.backends = plan >= PLAN_ONLY ? &specs[plan - PLAN_ONLY < 2 ? plan - PLAN_ONLY : 0] : specs;
    po.nbackends = plan >= PLAN_ONLY ? (plan - PLAN_ONLY < 2) : 2;
    po.bind_constants = 1;
    const byoc_target *targets[2] = {backends[0]->target, backends[1]->target};
    double latency = -1;
    byoc_sim_program *p = NULL;
    int ok = (collage ? byoc_partition_collage(copy, &o, NULL, NULL, d) : byoc_partition_greedy(copy, &po, NULL, d)) == BYOC_OK &&
             byoc_run_target_hooks(copy, targets, 2, d) == BYOC_OK && byoc_fuse_ops(copy, 256, d) == BYOC_OK && (p = byoc_sim_lower(copy, NULL, d)) != NULL;
    byoc_tensor in[16];
    memset(in, 0, sizeof in);
    int n = ok ? make_inputs(p, in, 16) : -1;
    ok = ok && n >= 0;
    if (ok && byoc_sim_run(p, in, n, NULL, 0, d) == BYOC_OK) latency = byoc_sim_latency(p);
    for (int i = 0; i < 16; ++i) free(in[i].data);
    byoc_sim_program_destroy(p);
    byoc_sim_collage_devices_release(&devices);
    byoc_module_destroy(copy);
    return latency;
}


/* a file's identity for counting distinct models (the shared set holds some twice under other names) */
static uint64_t file_identity(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    uint64_t h = 0xcbf29ce484222325ull;
    int c;
    long n = 0;
    while ((c = fgetc(f)) != EOF) h = (h ^ (uint64_t)c) * 0x100000001b3ull, n++;
    fclose(f);
    return h ^ (uint64_t)n;
}

static uint64_t seen_models[256];
static int nseen;
static double log_ratio_sum;
static int nratio;

static void bench_model(const char *label, const char *path, int runs, FILE *json, int *first) {
    byoc_diag d;
    byoc_onnx_options oo;
    memset(&oo, 0, sizeof oo);
    oo.free_dim_default = 1;
    byoc_onnx_model model;
    if (byoc_onnx_load(path, &oo, &model, &d) != BYOC_OK) {
        printf("| %s | error: %s | | | | | | |\n", label, d.message);
        return;
    }
    byoc_module *m = model.module;
    byoc_free(m, (void *)model.input_names);
    byoc_free(m, (void *)model.output_names);
    byoc_free(m, (void *)model.notes);
    byoc_free(m, (void *)model.node_spans);
    byoc_free(m, (void *)model.node_ops);
    byoc_free(m, (void *)model.node_folded);
    if (byoc_prepare_for_partition(m, NULL, &d) != BYOC_OK || byoc_infer_type(m, &d) != BYOC_OK) {
        printf("| %s | error: %s | | | | | | |\n", label, d.message);
        byoc_module_destroy(m);
        return;
    }
    double times[32];
    byoc_collage_stats st;
    memset(&st, 0, sizeof st);
    int ok = 1;
    for (int r = 0; ok && r < runs && r < 32; ++r) {
        byoc_collage_stats_free(&st);
        ok = search_once(m, &st, &times[r], NULL, &d);
    }
    double search = ok ? median(times, runs < 32 ? runs : 32) : 0;
    double greedy = ok ? simulated(m, PLAN_GREEDY, &d) : -1, collage = ok ? simulated(m, PLAN_COLLAGE, &d) : -1;
    if (!ok || greedy <= 0 || collage <= 0) {
        printf("| %s | error: %s | | | | | | |\n", label, d.message);
        byoc_collage_stats_free(&st);
        byoc_module_destroy(m);
        return;
    }
    double best_single = INFINITY; /* each single-backend plan simulated too */
    const char *best_name = "-";
    static const char *const single_names[3] = {"only:npu", "only:dsp", "host"};
    for (int k = 0; k < 3; ++k) {
        double t = simulated(m, PLAN_ONLY + k, &d);
        if (t > 0 && t < best_single) best_single = t, best_name = single_names[k];
    }
    uint64_t id = file_identity(path);
    int dup = 0;
    for (int k = 0; k < nseen; ++k) dup |= seen_models[k] == id;
    if (!dup && nseen < 256) {
        seen_models[nseen++] = id;
        log_ratio_sum += log(greedy / collage);
        nratio++;
    }
    printf("| %s%s | %d | %.1f | %.3f | %.3f | %.3f (%s) | %.2fx | %.2fx |\n", label, dup ? " (same model)" : "", st.nodes, 1e3 * search, 1e3 * greedy,
           1e3 * collage, 1e3 * best_single, best_name, greedy / collage, best_single / collage);
    fprintf(json, "%s{\"model\": \"%s\", \"nodes\": %d, \"candidates\": %d, \"states\": %d, \"search_ms\": %.3f, \"greedy_ms\": %.5f, \"collage_ms\": %.5f, "
                  "\"best_single_ms\": %.5f, \"best_single\": \"%s\", \"duplicate\": %s}",
            *first ? "" : ",\n", label, st.nodes, st.candidates, st.states, 1e3 * search, 1e3 * greedy, 1e3 * collage, 1e3 * best_single, best_name,
            dup ? "true" : "false");
    *first = 0;
    byoc_collage_stats_free(&st);
    byoc_module_destroy(m);
}

typedef struct model_run {
    int runs;
    FILE *json;
    int *first;
} model_run;
static void bench_one(const char *label, const char *path, void *user) {
    const model_run *r = (const model_run *)user;
    bench_model(label, path, r->runs, r->json, r->first);
}

/* one synthetic size's results */
typedef struct synthetic_row {
    int nodes, searched, candidates, states, beam;
    double seconds, threaded_seconds, threaded_cpu; /* wall: one thread, the pool; CPU: the pool's runs */
    double cost_over_greedy;
    long rss_before_kib, rss_peak_kib; /* getrusage's maximum resident set (KiB on Linux) */
} synthetic_row;

static long peak_rss_kib(void) {
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? (long)ru.ru_maxrss : -1;
}

/* BYOC_BENCH_ONLY=N: the N-node graph searched RUNS times; prints one "synthetic ..." line (synthetic_row's
   fields in order) */
static int synthetic_only(int size, int runs) {
    byoc_diag d;
    if (size < 1) { fprintf(stderr, "bench_collage: BYOC_BENCH_ONLY must be a node count\n"); return 3; }
    rng = 42;
    byoc_module *m = synthetic(size, 0);
    if (byoc_infer_type(m, &d) != BYOC_OK) { fprintf(stderr, "bench_collage: %s\n", d.message); return 3; }
    synthetic_row row;
    memset(&row, 0, sizeof row);
    row.rss_before_kib = peak_rss_kib();
    double times[2][32], cpu[32];
    byoc_collage_stats st;
    memset(&st, 0, sizeof st);
    for (int r = 0; r < runs && r < 32; ++r) /* one thread and the pool, alternating: the same moments of load */
        for (int t = 0; t < 2; ++t) {
            use_threads = t;
            double serial_cost = st.cost;
            int serial_states = st.states;
            byoc_collage_stats_free(&st);
            if (!search_once(m, &st, &times[t][r], &cpu[r], &d)) {
                fprintf(stderr, "bench_collage: %d nodes: %s\n", size, d.message);
                return 3;
            }
            if (t && (st.cost != serial_cost || st.states != serial_states)) {
                fprintf(stderr, "bench_collage: %d nodes: the threaded search differs (cost %.9g, %d states) from "
                        "the serial one (cost %.9g, %d states)\n", size, st.cost, st.states, serial_cost,
                        serial_states);
                return 3;
            }
        }
    use_threads = 0;
    row.rss_peak_kib = peak_rss_kib();
    double greedy = st.nplans ? st.plans[0].cost : 0;
    int n = runs < 32 ? runs : 32;
    printf("synthetic %d %d %d %d %d %.5f %.5f %.5f %.5f %ld %ld\n", size, st.nodes, st.candidates, st.states, st.beam,
           median(times[0], n), median(times[1], n), median(cpu, n), greedy > 0 ? st.cost / greedy : 0.0,
           row.rss_before_kib, row.rss_peak_kib);
    byoc_collage_stats_free(&st);
    byoc_module_destroy(m);
    return 0;
}

int main(int argc, char **argv) {
    int args = tool_args(argc, argv,
                         "bench_collage [MODELS_DIR [RUNS [OUT.json]]]   "
                         "(default ../shared/models 3 build/bench_collage.json)");
    if (args >= 0) return args;
    const char *models = argc > 1 ? argv[1] : "../shared/models";
    int runs = argc > 2 ? atoi(argv[2]) : 3;
    const char *out_path = argc > 3 ? argv[3] : "build/bench_collage.json";
    if (runs < 1) runs = 1;
#if defined(__GLIBC__)
    mallopt(M_TRIM_THRESHOLD, 1 << 30); /* freed memory kept for reuse, as byocc keeps it (its keep_freed_memory) */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
    byoc_diag d;
    backends[0] = byoc_sim_backend_open("npu", &d);
    backends[1] = backends[0] ? byoc_sim_backend_open("dsp", &d) : NULL;
    if (!backends[1]) { fprintf(stderr, "bench_collage: %s\n", d.message); return 3; }
    const char *nthreads = getenv("BYOC_BENCH_THREADS");
    pool = byoc_sim_pool_create(nthreads ? atoi(nthreads) : byoc_sim_online_cores(), NULL, &d);
    if (!pool) { fprintf(stderr, "bench_collage: BYOC_BENCH_THREADS: %s\n", d.message); return 3; }
    threads = byoc_sim_pool_parallel(pool);
    const char *only = getenv("BYOC_BENCH_ONLY"); /* one synthetic size, alone in this process */
    if (only) {
        int rc = synthetic_only(atoi(only), runs);
        byoc_sim_pool_destroy(pool);
        byoc_sim_backend_close(backends[0]);
        byoc_sim_backend_close(backends[1]);
        return rc;
    }
    FILE *json = fopen(out_path, "w");
    if (!json) { fprintf(stderr, "bench_collage: cannot write %s\n", out_path); return 3; }

    /* synthetic graphs, each in a process of its own so its peak memory is its own */
    static const int sizes[] = {1000, 10000, 50000};
    double med[3] = {0, 0, 0}, threaded[3] = {0, 0, 0};
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0 || (size_t)len >= sizeof self - 1) snprintf(self, sizeof self, "%s", argv[0]);
    else self[len] = 0;
    int nthr = byoc_sim_pool_threads(pool);
    printf("## Collage search: synthetic graphs (npu + dsp + host, analytic estimator; medians of %d)\n\n", runs);
    printf("Search s: wall seconds on one thread, and with %d threads (byoc_collage_options.parallel: the baseline "
           "plans' greedy runs beside candidate generation and pricing, the baselines' searches beside the search), "
           "with that run's CPU seconds; the same plan either way. The process keeps freed memory for reuse, as "
           "byocc does. Memory: the maximum resident set (getrusage) of a process running that size alone, once "
           "its graph is built and after the searches.\n\n", nthr);
    printf("| nodes | graph nodes searched | candidates | states | beam | search s, 1 thread | search s, %d threads "
           "| CPU s, %d threads | us per node, %d threads | searched / greedy cost | RSS before MiB | peak RSS MiB |\n"
           "|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n", nthr, nthr, nthr);
    fprintf(json, "{\"synthetic\": [");
    for (int s = 0; s < 3; ++s) {
        char cmd[4200], line[512];
        snprintf(cmd, sizeof cmd, "BYOC_BENCH_ONLY=%d '%s' - %d /dev/null", sizes[s], self, runs);
        FILE *child = popen(cmd, "r");
        synthetic_row row;
        int got = 0;
        while (child && fgets(line, sizeof line, child))
            got |= sscanf(line, "synthetic %d %d %d %d %d %lf %lf %lf %lf %ld %ld", &row.nodes, &row.searched,
                          &row.candidates, &row.states, &row.beam, &row.seconds, &row.threaded_seconds,
                          &row.threaded_cpu, &row.cost_over_greedy, &row.rss_before_kib, &row.rss_peak_kib) == 11;
        if (!child || pclose(child) != 0 || !got) {
            fprintf(stderr, "bench_collage: the %d-node run failed\n", sizes[s]);
            return 3;
        }
        med[s] = row.seconds;
        threaded[s] = row.threaded_seconds;
        printf("| %d | %d | %d | %d | %s | %.3f | %.3f | %.3f | %.1f | %.3f | %.1f | %.1f |\n", sizes[s], row.searched,
               row.candidates, row.states, row.beam ? "yes" : "no", row.seconds, row.threaded_seconds,
               row.threaded_cpu, 1e6 * row.threaded_seconds / sizes[s], row.cost_over_greedy,
               row.rss_before_kib / 1024.0, row.rss_peak_kib / 1024.0);
        fprintf(json, "%s{\"nodes\": %d, \"searched_nodes\": %d, \"candidates\": %d, \"states\": %d, \"beam\": %s, "
                      "\"search_s\": %.5f, \"threads\": %d, \"threaded_search_s\": %.5f, \"threaded_cpu_s\": %.5f, "
                      "\"cost_over_greedy\": %.5f, \"rss_before_kib\": %ld, \"rss_peak_kib\": %ld}",
                s ? ", " : "", sizes[s], row.searched, row.candidates, row.states, row.beam ? "true" : "false",
                row.seconds, nthr, row.threaded_seconds, row.threaded_cpu, row.cost_over_greedy, row.rss_before_kib,
                row.rss_peak_kib);
    }
    printf("\nGrowth 1k -> 10k: %.1fx, 10k -> 50k: %.1fx on one thread (linear: 10x, 5x); %.1fx, %.1fx on %d. Targets: "
           "50k nodes within 1 s, 10k -> 50k within 6x.\n\n", med[1] / med[0], med[2] / med[1],
           threaded[1] / threaded[0], threaded[2] / threaded[1], nthr);

    /* the models */
    printf("## Collage on every shared model (npu + dsp + host)\n\n");
    printf("Search: wall ms on one thread, median of %d. Latency: the simulated SoC running each plan: greedy, collage, and the best of\n", runs);
    printf("the single-backend plans (greedy on npu alone, on dsp alone, and the host alone).\n\n");
    printf("| model | nodes | search ms | greedy ms | collage ms | best single ms | greedy / collage | best single / collage |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    fprintf(json, "],\n\"models\": [\n");
    int first = 1;
    model_run run = {runs, json, &first};
    if (!for_each_model(models, bench_one, &run)) printf("| (no models in %s: BYOC_MODELS=DIR points elsewhere) | | | | | | | |\n", models);
    double geo = nratio ? exp(log_ratio_sum / nratio) : 0;
    printf("\nGreedy / collage simulated latency, geometric mean over %d distinct models: %.2fx (target: >= 1.10x).\n\n", nratio, geo);
    fprintf(json, "\n],\n\"geomean_greedy_over_collage\": %.4f, \"distinct_models\": %d}\n", geo, nratio);
    fclose(json);
    byoc_sim_pool_destroy(pool);
    byoc_sim_backend_close(backends[0]);
    byoc_sim_backend_close(backends[1]);
    return 0;
}
