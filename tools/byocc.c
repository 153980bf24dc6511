/* byocc -- the byoc.h command-line tool.
   Build: cc -std=c99 -O2 -I. tools/byocc.c -o build/byocc -lm
   Exit codes: 0 ok, 1 usage, 2 invalid input (message names file and position), 3 internal error,
   4 run --compare-to found an output beyond the tolerance. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime: profiles and run times on a monotonic wall clock */
#define BYOC_IMPLEMENTATION
#define BYOC_ONNX_IMPLEMENTATION
#define BYOC_SIM_IMPLEMENTATION
#include "../byoc.h"
#include "../byoc_sim.h"
#include "byoc_onnx.h"

#include <errno.h>
#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_INPUT = 2, EXIT_INTERNAL = 3, EXIT_MISMATCH = 4 };

static const char *const usage_text =
    "usage: byocc <command> [options]\n"
    "\n"
    "commands:\n"
    "  opt FILE.relay --passes p1,p2,... [--backend B.backend]... [--emit relay] [--print-types] [-o OUT.relay]\n"
    "      [--print-after-all] [--print-after=NAME,...] [--time-passes] [--no-verify]\n"
    "      [--opt-level N] [--config KEY=VALUE]...\n"
    "        run passes in order and print the module, or with -o write it to OUT.relay and its\n"
    "        constants to OUT.weights;\n"
    "        the IR is verified after every pass\n"
    "  partition FILE.relay --backend B.backend... [--emit report|json|dot|relay] [--strategy greedy|collage]\n"
    "      [--pin NODE=BACKEND]... [--no-fallback] [--min-partition-ops N] [--max-partitions N]\n"
    "      [--no-merge-regions] [--config KEY=VALUE]... [-o OUT.relay]\n"
    "      [--estimator analytic|measured] [--cost-cache FILE] [--max-depth N] [--state-budget N]\n"
    "      [--save-placement FILE] [--placement FILE]\n"
    "        greedy: place every op on the first backend (by priority, then as given) that takes it, host last;\n"
    "        collage: the cheapest plan under the device models (never dearer than greedy), with its\n"
    "        statistics; --save-placement writes it, --placement replays one (refused when it no longer fits);\n"
    "        NODE is a frontend name, a %N label of @main or #ID\n"
    "  match FILE.relay (--pattern TEXT | --pattern-file F) [--partition NAME]\n"
    "        list the expressions of @main the pattern matches (outputs first, as the matcher visits them);\n"
    "        with --partition, group each non-overlapping match into fn(...) { ... } with Composite=NAME\n"
    "        and print the module\n"
    "  import MODEL.onnx [-o OUT.relay] [--print-types] [--input [NAME=]FILE.npy]...\n"
    "        the ONNX model as Relay text (printed, or written to OUT.relay with its constants in OUT.weights);\n"
    "        --input takes the inputs' shapes from example tensors (.npy or .pb)\n"
    "  run MODEL [--input NAME=FILE.npy]... [--output-dir D] [--compare-to DIR|FILE.npy] [--tolerance T]\n"
    "      [--backend npu|dsp|B.backend [-option=value]...]... [--reference host] [--profile] [--trace FILE.json]\n"
    "      [--repeat N] [--no-fuse] [--strategy greedy|collage] [partition's collage options]\n"
    "        compile (SimplifyInference, FoldConstant, placement, FuseOps) and run on the host\n"
    "        runtime; --compare-to checks every output against DIR/NAME.npy (or ort_output_K.npy,\n"
    "        output_K.npy, expected_K.npy): floats within T x max(1, max|ref|) (T = 1e-4), integers\n"
    "        exactly, one-row scores by argmax; exit 4 when an output is off. Inputs not given (and none\n"
    "        given): seeded values\n"
    "        --backend npu / dsp: the built-in simulated devices (partitions run as command streams);\n"
    "        --reference host: compare with the model compiled for the host alone; --trace: Chrome trace JSON\n"
    "  compile MODEL --backend B... [run's compile options] [--input [NAME=]FILE.npy]... -o OUT.byoc [--source-map FILE.json]\n"
    "        the run pipeline, saved as one artifact: the host program, each device partition's blob with its\n"
    "        compatibility strings (backend, kind, format, producer, target), the weights, the memory plan, the\n"
    "        kernel list and the source map; it is loaded back (every check of the loader) before it is written\n"
    "  run MODEL.byoc [--input NAME=FILE.npy]... [--backend B]... [run's output options]\n"
    "        runs an artifact; with --backend, only those devices are offered, and a partition compiled for a\n"
    "        backend not offered, or for other device parameters, is refused\n"
    "  explain MODEL.byoc NODE [--json]\n"
    "        where a frontend node (onnx:NAME, or NAME) ran: its IR ops, composite, partition, kernel (with its\n"
    "        simulated time), device layer and commands, and why there (or why it has no op left)\n";
static const char *const usage_text_more = /* (two strings: C99 guarantees 4095 characters per literal) */
    "  backends [--json]\n"
    "        the built-in device backends, their parameters and the device presets\n"
    "  info FILE.relay [--json]\n"
    "        node count, op histogram, parameter bytes, input and output types\n"
    "  ops [--json]\n"
    "        the registered ops with their pattern kind and attributes\n"
    "  passes\n"
    "        the registered passes and configuration keys\n"
    "  version\n"
    "\n"
    "FILE.relay loads FILE.weights beside it when present (else constants get seeded values).\n"
    "Every command that reads a module also takes MODEL.onnx; --dim NAME=N sets a symbolic input dim\n"
    "(unset ones are taken as 1, with a note).\n";

static int usage_error(const char *fmt, const char *arg) {
    fprintf(stderr, "byocc: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(run 'byocc' with no arguments for usage)\n");
    return EXIT_USAGE;
}

static int input_error(const byoc_diag *d) {
    fprintf(stderr, "byocc: error: %s\n", d->message);
    return d->code == BYOC_ERR_OUT_OF_MEMORY || d->code == BYOC_ERR_INTERNAL ? EXIT_INTERNAL : EXIT_INPUT;
}

/* --backend NAME|FILE.backend [-option=value ...]: built-in device backends and .backend files, open for
   the whole command (byoc_sim_backend_open registers device backends and their target hooks) */
static byoc_sim_backend *opened_backends[64];
static int nopened_backends;
static byoc_sim_backend *open_backend(const char *arg, byoc_diag *d) {
    if (nopened_backends == 64) {
        snprintf(d->message, sizeof d->message, "at most 64 backends");
        d->code = BYOC_ERR_INVALID_ARGUMENT;
        return NULL;
    }
    byoc_sim_backend *b = byoc_sim_backend_open(arg, d);
    if (b) opened_backends[nopened_backends++] = b;
    return b;
}
static void close_backends(void) {
    for (int k = 0; k < nopened_backends; ++k) byoc_sim_backend_close(opened_backends[k]);
    nopened_backends = 0;
}

/* --dim NAME=N values for symbolic ONNX input dims, taken out of argv by main for every command */
#define MAX_DIMS 32
static byoc_onnx_dim onnx_dims[MAX_DIMS];
static int onnx_ndims;
static const byoc_onnx_input_shape *onnx_shapes; /* import and run --input: shapes of example tensors */
static int onnx_nshapes;

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A .relay (with its .weights) or an .onnx model. For ONNX, *info (when given) receives the import's
   facts (input and output names); the caller frees it with byoc_onnx_model_free, which also destroys
   the module. Symbolic dims not given with --dim are taken as 1, with a note on stderr. */
static byoc_module *load_model_info(const char *path, byoc_onnx_model *info, byoc_diag *d) {
    if (info) memset(info, 0, sizeof *info);
    if (ends_with(path, ".onnx")) {
        byoc_onnx_options o;
        memset(&o, 0, sizeof o);
        o.dims = onnx_dims;
        o.ndims = onnx_ndims;
        o.free_dim_default = 1;
        o.shapes = onnx_shapes;
        o.nshapes = onnx_nshapes;
        byoc_onnx_model model;
        if (byoc_onnx_load(path, &o, &model, d) != BYOC_OK) return NULL;
        for (int i = 0; model.notes[i]; ++i) fprintf(stderr, "byocc: note: %s (set it with --dim NAME=N)\n", model.notes[i]);
        if (info) { *info = model; return model.module; }
        byoc_module *m = model.module;
        byoc_free(m, (void *)model.input_names);
        byoc_free(m, (void *)model.output_names);
        byoc_free(m, (void *)model.notes);
        byoc_free(m, (void *)model.node_spans);
        byoc_free(m, (void *)model.node_ops);
        byoc_free(m, (void *)model.node_folded);
        return m;
    }
    if (!ends_with(path, ".relay")) {
        d->code = BYOC_ERR_UNSUPPORTED;
        snprintf(d->message, sizeof d->message, "%s: unsupported model file (expected FILE.relay or FILE.onnx)", path);
        return NULL;
    }
    return byoc_module_load(path, NULL, d);
}

static byoc_module *load_model(const char *path, byoc_diag *d) { return load_model_info(path, NULL, d); }

/* --config KEY=VALUE for command cmd */
static int set_config(byoc_pass_context *ctx, const char *cmd, const char *text) {
    char kv[512], msg[1200];
    byoc_diag d;
    snprintf(kv, sizeof kv, "%s", text);
    char *eq = strchr(kv, '=');
    if (!eq) {
        snprintf(msg, sizeof msg, "%s: --config expects KEY=VALUE, got '%s'", cmd, kv);
        return usage_error("%s", msg);
    }
    *eq = 0;
    if (byoc_pass_context_set(ctx, kv, eq + 1, &d) != BYOC_OK) {
        snprintf(msg, sizeof msg, "%s: %s", cmd, d.message);
        return usage_error("%s", msg);
    }
    return EXIT_OK;
}

static int parse_count(const char *text, const char *option, int *out);

/* ---- placement strategies: greedy, or the Collage search ---- */
typedef struct strategy_options {
    const char *strategy;       /* "greedy" or "collage" */
    const char *estimator;      /* collage: "analytic" or "measured" */
    const char *cost_cache;     /* measured: the cache file */
    const char *save_placement; /* write the chosen plan */
    const char *placement;      /* replay a saved plan */
    int max_depth, state_budget;
} strategy_options;

/* one strategy option at argv[*i]: 1 if taken (and *rc set on a bad value), 0 if not one */
static int strategy_arg(const char *cmd, int argc, char **argv, int *i, strategy_options *so, int *rc) {
    const char *a = argv[*i];
    if (*i + 1 >= argc) return 0;
    char msg[300];
    if (!strcmp(a, "--strategy")) {
        so->strategy = argv[++*i];
        if (strcmp(so->strategy, "greedy") && strcmp(so->strategy, "collage")) {
            snprintf(msg, sizeof msg, "%s: --strategy '%%s' is not one of greedy, collage", cmd);
            *rc = usage_error(msg, so->strategy);
        }
    } else if (!strcmp(a, "--estimator")) {
        so->estimator = argv[++*i];
        if (strcmp(so->estimator, "analytic") && strcmp(so->estimator, "measured")) {
            snprintf(msg, sizeof msg, "%s: --estimator '%%s' is not one of analytic, measured", cmd);
            *rc = usage_error(msg, so->estimator);
        }
    } else if (!strcmp(a, "--cost-cache")) so->cost_cache = argv[++*i];
    else if (!strcmp(a, "--save-placement")) so->save_placement = argv[++*i];
    else if (!strcmp(a, "--placement")) so->placement = argv[++*i];
    else if (!strcmp(a, "--max-depth")) *rc = parse_count(argv[++*i], a, &so->max_depth);
    else if (!strcmp(a, "--state-budget")) *rc = parse_count(argv[++*i], a, &so->state_budget);
    else return 0;
    return 1;
}

static char *read_file_text(const char *path, size_t *len, char *msg, size_t cap) {
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(msg, cap, "%s: cannot open: %s", path, strerror(errno)); return NULL; }
    size_t n = 0, got, want = 1 << 16;
    char *data = NULL;
    for (;;) {
        char *grown = (char *)realloc(data, n + want + 1);
        if (!grown) { free(data); fclose(f); snprintf(msg, cap, "%s: out of memory", path); return NULL; }
        data = grown;
        got = fread(data + n, 1, want, f);
        n += got;
        if (got < want) break;
        if (n > ((size_t)1 << 30)) { free(data); fclose(f); snprintf(msg, cap, "%s: larger than 1 GiB", path); return NULL; }
    }
    fclose(f);
    data[n] = 0;
    *len = n;
    return data;
}

/* places m's ops on the opened backends by the chosen strategy; st (collage only) gets the statistics */
static int place_ops(byoc_module *m, const strategy_options *so, const byoc_partition_options *po, byoc_placement_report **rep, byoc_collage_stats *st,
                     byoc_diag *d) {
    memset(st, 0, sizeof *st);
    if (strcmp(so->strategy, "collage")) {
        if (so->placement || so->save_placement) {
            fprintf(stderr, "byocc: error: --placement and --save-placement need --strategy collage\n");
            return EXIT_USAGE;
        }
        return byoc_partition_greedy(m, po, rep, d) == BYOC_OK ? EXIT_OK : input_error(d);
    }
    byoc_sim_collage_devices devices; /* the estimator's state for this call (released below) */
    memset(&devices, 0, sizeof devices);
    devices.backends = (const byoc_sim_backend *const *)opened_backends;
    devices.count = nopened_backends;
    devices.cache_file = so->cost_cache;
    byoc_collage_options o;
    memset(&o, 0, sizeof o);
    o.backends = po->backends;
    o.nbackends = po->nbackends;
    o.pins = po->pins;
    o.npins = po->npins;
    o.mod_name = po->mod_name;
    o.bind_constants = po->bind_constants;
    o.cost = so->estimator && !strcmp(so->estimator, "measured") ? byoc_sim_collage_measured_cost : byoc_sim_collage_cost;
    o.plain_candidates = 1; /* both lower candidates through the device compiler, which sees through composites */
    o.cost_data = &devices;
    o.max_depth = o.host_max_depth = so->max_depth;
    o.state_budget = so->state_budget;
    byoc_module *arena = NULL;
    int rc = EXIT_OK;
    if (so->placement) {
        char msg[600];
        size_t len = 0;
        char *text = read_file_text(so->placement, &len, msg, sizeof msg);
        arena = byoc_module_create(NULL);
        if (!text || !arena) {
            fprintf(stderr, "byocc: error: %s\n", text ? "out of memory" : msg);
            free(text);
            byoc_module_destroy(arena);
            return EXIT_INPUT;
        }
        byoc_collage_assignment *list = NULL;
        int count = 0;
        if (byoc_collage_placement_parse(text, len, so->placement, arena, &list, &count, d) != BYOC_OK) rc = input_error(d);
        free(text);
        o.replay = list;
        o.nreplay = count;
        if (rc == EXIT_OK && !count) {
            fprintf(stderr, "byocc: error: %s: no ops are placed\n", so->placement);
            rc = EXIT_INPUT;
        }
    }
    if (rc == EXIT_OK && byoc_partition_collage(m, &o, st, rep, d) != BYOC_OK) {
        if (so->placement && d->code != BYOC_ERR_OUT_OF_MEMORY) { /* the placement no longer fits the model */
            fprintf(stderr, "byocc: error: %s: %s\n", so->placement, d->message);
            rc = EXIT_INPUT;
        } else
            rc = input_error(d);
    }
    byoc_module_destroy(arena);
    if (rc == EXIT_OK && o.cost == byoc_sim_collage_measured_cost)
        fprintf(stderr, "byocc: measured %d candidates, %d from the cost cache%s%s\n", devices.measured, devices.cache_hits, so->cost_cache ? " " : "",
                so->cost_cache ? so->cost_cache : "");
    byoc_sim_collage_devices_release(&devices);
    if (rc == EXIT_OK && so->save_placement) {
        size_t len = 0;
        char *text = byoc_collage_placement_format(st, &len);
        FILE *f = text ? fopen(so->save_placement, "wb") : NULL;
        if (!f || fwrite(text, 1, len, f) != len) {
            fprintf(stderr, "byocc: error: %s: cannot write the placement: %s\n", so->save_placement, strerror(errno));
            rc = EXIT_INPUT;
        }
        if (f && fclose(f) != 0 && rc == EXIT_OK) {
            fprintf(stderr, "byocc: error: %s: cannot write the placement: %s\n", so->save_placement, strerror(errno));
            rc = EXIT_INPUT;
        }
        free(text);
    }
    return rc;
}

/* ---- opt ---- */
typedef struct print_after { const char *names; int all; unsigned flags; } print_after;

/* --print-after-all / --print-after=NAME: the module after the pass, on stderr like mlir-opt */
static void after_pass(const char *pass, byoc_module *m, double seconds, void *user_data) {
    const print_after *pa = (const print_after *)user_data;
    (void)seconds;
    int wanted = pa->all;
    if (!wanted && pa->names) {
        char list[1024];
        snprintf(list, sizeof list, "%s", pa->names);
        for (char *tok = strtok(list, ","); tok && !wanted; tok = strtok(NULL, ",")) wanted = strcmp(tok, pass) == 0;
    }
    if (!wanted) return;
    char *text = byoc_module_print(m, pa->flags, NULL);
    fprintf(stderr, "// ---- after %s ----\n%s", pass, text ? text : "(out of memory)\n");
    byoc_free(m, text);
}

static int cmd_opt(int argc, char **argv) {
    const char *file = NULL, *pass_list = "", *emit = "relay", *out = NULL;
    unsigned flags = 0;
    int time_passes = 0, verify = 1, rc = EXIT_OK;
    print_after pa = {NULL, 0, 0};
    byoc_diag d;
    byoc_pass_context *ctx = byoc_pass_context_create();
    int nbackends = 0;
    byoc_module *m = NULL;
    if (!ctx) return EXIT_INTERNAL;
    for (int i = 0; i < argc && rc == EXIT_OK; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--passes") == 0 && i + 1 < argc) pass_list = argv[++i];
        else if (strcmp(a, "--emit") == 0 && i + 1 < argc) emit = argv[++i];
        else if (strcmp(a, "-o") == 0 && i + 1 < argc) out = argv[++i];
        else if (strcmp(a, "--print-types") == 0) flags |= BYOC_PRINT_TYPES;
        else if (strcmp(a, "--print-after-all") == 0) pa.all = 1;
        else if (strncmp(a, "--print-after=", 14) == 0) pa.names = a + 14;
        else if (strcmp(a, "--time-passes") == 0) time_passes = 1;
        else if (strcmp(a, "--no-verify") == 0) verify = 0;
        else if (strcmp(a, "--opt-level") == 0 && i + 1 < argc) byoc_pass_context_set_opt_level(ctx, atoi(argv[++i]));
        else if (strcmp(a, "--backend") == 0 && i + 1 < argc) {
            if (nbackends == 16) { rc = usage_error("opt: at most 16 backends%s", ""); break; }
            byoc_sim_backend *sb = open_backend(argv[++i], &d);
            if (!sb) { rc = input_error(&d); break; }
            nbackends++;
            if (byoc_pass_context_add_backend(ctx, sb->spec, &d) != BYOC_OK) rc = input_error(&d);
        } else if (strcmp(a, "--config") == 0 && i + 1 < argc) rc = set_config(ctx, "opt", argv[++i]);
        else if (a[0] == '-') rc = usage_error("opt: unknown or incomplete option '%s'", a);
        else if (!file) file = a;
        else rc = usage_error("opt: more than one input file ('%s')", a);
    }
    if (rc == EXIT_OK && !file) rc = usage_error("opt: no input file%s", "");
    if (rc == EXIT_OK && strcmp(emit, "relay") != 0) rc = usage_error("opt: --emit '%s' is not supported (use relay)", emit);
    if (rc == EXIT_OK) { /* validate the pass names before doing any work */
        char names[1024];
        snprintf(names, sizeof names, "%s", pass_list);
        for (char *tok = strtok(names, ","); tok && rc == EXIT_OK; tok = strtok(NULL, ","))
            if (!byoc_pass_get(tok)) rc = usage_error("opt: unknown pass '%s' (byocc passes lists them)", tok);
    }
    if (rc == EXIT_OK && !(m = load_model(file, &d))) rc = input_error(&d);
    if (rc == EXIT_OK) {
        pa.flags = flags;
        byoc_pass_instrument instrument = {after_pass, &pa};
        byoc_pass_context_set_instrument(ctx, &instrument);
        byoc_pass_context_set_verify(ctx, verify);
        const char *lists[1] = {pass_list};
        if (byoc_run_passes(m, lists, 1, ctx, &d) != BYOC_OK) rc = input_error(&d);
        if (time_passes) {
            int n;
            const byoc_pass_timing *t = byoc_pass_context_timings(ctx, &n);
            double total = 0;
            for (int i = 0; i < n; ++i) total += t[i].seconds;
            fprintf(stderr, "// pass timings (CPU seconds)\n");
            for (int i = 0; i < n; ++i) fprintf(stderr, "//   %-28s %10.6f\n", t[i].pass, t[i].seconds);
            fprintf(stderr, "//   %-28s %10.6f\n", "total", total);
        }
    }
    if (rc == EXIT_OK && out) {
        if (byoc_module_save(m, out, flags, &d) != BYOC_OK) rc = input_error(&d);
    } else if (rc == EXIT_OK) {
        size_t len;
        char *text = byoc_module_print(m, flags, &len);
        if (!text) {
            fprintf(stderr, "byocc: error: out of memory printing the module\n");
            rc = EXIT_INTERNAL;
        } else {
            fwrite(text, 1, len, stdout);
            byoc_free(m, text);
        }
    }
    byoc_module_destroy(m);
    byoc_pass_context_destroy(ctx);
    return rc;
}

/* ---- partition ---- */
static int parse_count(const char *text, const char *option, int *out) {
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (!*text || *end || v < 0 || v > 1000000) return usage_error("partition: %s expects a count (0 to 1000000)", option);
    *out = (int)v;
    return EXIT_OK;
}

static int cmd_partition(int argc, char **argv) {
    const char *file = NULL, *emit = "report", *out = NULL;
    strategy_options so;
    memset(&so, 0, sizeof so);
    so.strategy = "greedy";
    byoc_backend_spec *backends[64];
    byoc_pin pins[256];
    char pin_text[256][160];
    int nbackends = 0, npins = 0, rc = EXIT_OK;
    byoc_partition_options o;
    memset(&o, 0, sizeof o);
    o.bind_constants = 1;
    byoc_diag d;
    byoc_pass_context *ctx = byoc_pass_context_create();
    if (!ctx) return EXIT_INTERNAL;
    for (int i = 0; i < argc && rc == EXIT_OK; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--emit") == 0 && i + 1 < argc) emit = argv[++i];
        else if (strcmp(a, "-o") == 0 && i + 1 < argc) out = argv[++i];
        else if (strategy_arg("partition", argc, argv, &i, &so, &rc)) continue;
        else if (strcmp(a, "--no-fallback") == 0) o.no_fallback = 1;
        else if (strcmp(a, "--no-merge-regions") == 0) o.no_merge_regions = 1;
        else if (strcmp(a, "--min-partition-ops") == 0 && i + 1 < argc) rc = parse_count(argv[++i], a, &o.min_partition_ops);
        else if (strcmp(a, "--max-partitions") == 0 && i + 1 < argc) rc = parse_count(argv[++i], a, &o.max_partitions);
        else if (strcmp(a, "--pin") == 0 && i + 1 < argc) {
            const char *pv = argv[++i], *eq = strrchr(pv, '=');
            if (!eq || eq == pv || !eq[1]) { rc = usage_error("partition: --pin expects NODE=BACKEND, got '%s'", pv); break; }
            if (npins == 256 || strlen(pv) >= sizeof pin_text[0]) { rc = usage_error("partition: too many or too long pins ('%s')", pv); break; }
            snprintf(pin_text[npins], sizeof pin_text[npins], "%s", pv);
            pin_text[npins][eq - pv] = 0;
            pins[npins].node = pin_text[npins];
            pins[npins].backend = pin_text[npins] + (eq - pv) + 1;
            npins++;
        } else if (strcmp(a, "--backend") == 0 && i + 1 < argc) {
            if (nbackends == 64) { rc = usage_error("partition: at most 64 backends%s", ""); break; }
            byoc_sim_backend *sb = open_backend(argv[++i], &d);
            if (!sb) { rc = input_error(&d); break; }
            backends[nbackends++] = sb->spec;
        } else if (strcmp(a, "--config") == 0 && i + 1 < argc) rc = set_config(ctx, "partition", argv[++i]);
        else if (a[0] == '-') rc = usage_error("partition: unknown or incomplete option '%s'", a);
        else if (!file) file = a;
        else rc = usage_error("partition: more than one input file ('%s')", a);
    }
    if (rc == EXIT_OK && !file) rc = usage_error("partition: no input file%s", "");
    int collage = !strcmp(so.strategy, "collage");
    if (rc == EXIT_OK && collage && (o.no_fallback || o.min_partition_ops || o.max_partitions || o.no_merge_regions))
        rc = usage_error("partition: %s", "--no-fallback, --min-partition-ops, --max-partitions and --no-merge-regions shape the greedy strategy only");
    if (rc == EXIT_OK && strcmp(emit, "report") && strcmp(emit, "json") && strcmp(emit, "dot") && strcmp(emit, "relay"))
        rc = usage_error("partition: --emit '%s' is not one of report, json, dot, relay", emit);
    byoc_module *m = NULL;
    if (rc == EXIT_OK && !(m = load_model(file, &d))) rc = input_error(&d);
    /* the graph run compiles: inference simplified (batch norm and dropout gone), constants folded */
    if (rc == EXIT_OK && (byoc_simplify_inference(m, &d) != BYOC_OK || byoc_fold_constant(m, &d) != BYOC_OK)) rc = input_error(&d);
    byoc_placement_report *rep = NULL;
    byoc_collage_stats stats;
    memset(&stats, 0, sizeof stats);
    if (rc == EXIT_OK) {
        o.backends = (const byoc_backend_spec *const *)backends;
        o.nbackends = nbackends;
        o.pins = pins;
        o.npins = npins;
        o.mod_name = byoc_pass_context_string(ctx, "partition_graph.mod_name");
        o.bind_constants = (int)byoc_pass_context_int(ctx, "partition_graph.bind_constants");
        rc = place_ops(m, &so, &o, &rep, &stats, &d);
    }
    if (rc == EXIT_OK && out && byoc_module_save(m, out, 0, &d) != BYOC_OK) rc = input_error(&d);
    if (rc == EXIT_OK) {
        size_t len = 0;
        char *text = strcmp(emit, "relay") == 0 ? byoc_module_print(m, 0, &len) : byoc_placement_report_format(rep, emit, &len);
        char *search = collage && strcmp(emit, "relay") && strcmp(emit, "dot") ? byoc_collage_stats_format(&stats, strcmp(emit, "json") ? "text" : "json", NULL) : NULL;
        if (!text || (collage && strcmp(emit, "relay") && strcmp(emit, "dot") && !search)) {
            fprintf(stderr, "byocc: error: out of memory formatting the result\n");
            rc = EXIT_INTERNAL;
        } else if (search && !strcmp(emit, "json")) { /* the report's object, with the search's statistics as "search" */
            while (len && text[len - 1] == '\n') len--;
            if (len && text[len - 1] == '}') len--;
            fwrite(text, 1, len, stdout);
            printf(", \"search\": %s}\n", search);
        } else {
            fwrite(text, 1, len, stdout);
            if (search) fputs(search, stdout);
        }
        if (text && strcmp(emit, "relay") == 0) byoc_free(m, text);
        else if (text) byoc_free(rep->arena, text);
        free(search);
    }
    byoc_collage_stats_free(&stats);
    byoc_placement_report_free(rep);
    byoc_module_destroy(m);
    byoc_pass_context_destroy(ctx);
    return rc;
}

/* ---- match ---- */
static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[4096];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            char *grown = (char *)realloc(buf, cap);
            if (!grown) { free(buf); fclose(f); return NULL; }
            buf = grown;
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (!buf && !(buf = (char *)calloc(1, 1))) return NULL;
    buf[len] = 0;
    return buf;
}

static int cmd_match(int argc, char **argv) {
    const char *file = NULL, *pattern_text = NULL, *pattern_file = NULL, *composite = NULL;
    for (int i = 0; i < argc; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--pattern") == 0 && i + 1 < argc) pattern_text = argv[++i];
        else if (strcmp(a, "--pattern-file") == 0 && i + 1 < argc) pattern_file = argv[++i];
        else if (strcmp(a, "--partition") == 0 && i + 1 < argc) composite = argv[++i];
        else if (a[0] == '-') return usage_error("match: unknown or incomplete option '%s'", a);
        else if (!file) file = a;
        else return usage_error("match: more than one input file ('%s')", a);
    }
    if (!file) return usage_error("match: no input file%s", "");
    if (!pattern_text == !pattern_file) return usage_error("match: give exactly one of --pattern and --pattern-file%s", "");
    byoc_diag d;
    byoc_module *m = load_model(file, &d);
    if (!m) return input_error(&d);
    int rc = EXIT_OK;
    char *owned = NULL;
    if (pattern_file && !(pattern_text = owned = read_text(pattern_file))) {
        fprintf(stderr, "byocc: error: %s: cannot read the pattern file\n", pattern_file);
        rc = EXIT_INPUT;
    }
    byoc_node *main_fn = byoc_module_function(m, "main");
    if (rc == EXIT_OK && !main_fn) {
        fprintf(stderr, "byocc: error: %s: the module has no @main\n", file);
        rc = EXIT_INPUT;
    }
    if (rc == EXIT_OK && byoc_infer_type(m, &d) != BYOC_OK) rc = input_error(&d);
    byoc_pattern *p = NULL;
    if (rc == EXIT_OK && !(p = byoc_pattern_parse(m, pattern_text, strlen(pattern_text), pattern_file ? pattern_file : "<pattern>", &d)))
        rc = input_error(&d);
    if (rc == EXIT_OK && composite) {
        byoc_attrs attrs = {NULL, 0};
        byoc_attrs_set_string(m, &attrs, "Composite", composite);
        byoc_node *body = byoc_pattern_partition(m, p, main_fn->body, &attrs, NULL, NULL);
        byoc_node *fn = body ? byoc_function(m, main_fn->params, main_fn->nparams, body, main_fn->annotation, &main_fn->attrs) : NULL;
        if (!fn || byoc_module_set_function(m, "main", fn) != BYOC_OK || byoc_infer_type(m, &d) != BYOC_OK) {
            const byoc_diag *e = byoc_module_error(m);
            rc = input_error(e ? e : &d);
        } else {
            size_t len;
            char *text = byoc_module_print(m, 0, &len);
            if (!text) rc = EXIT_INTERNAL;
            else fwrite(text, 1, len, stdout);
            byoc_free(m, text);
        }
    } else if (rc == EXIT_OK) {
        byoc_graph g;
        if (byoc_graph_build(m, main_fn->body, 0, &g) != BYOC_OK) rc = EXIT_INTERNAL;
        else {
            int found = 0;
            for (int i = g.count - 1; i >= 0; --i) {
                byoc_node *n = g.nodes[i].node;
                if (!byoc_pattern_match(p, n, &g, NULL)) continue;
                char label[64];
                byoc_node_label(m, main_fn, n, label, sizeof label);
                const char *what = n->kind == BYOC_NODE_CALL && n->op ? n->op->def.name
                                   : n->kind == BYOC_NODE_TUPLE ? "tuple"
                                   : n->kind == BYOC_NODE_TUPLE_GET_ITEM ? "tuple_get_item"
                                   : n->kind == BYOC_NODE_VAR ? "var"
                                   : n->kind == BYOC_NODE_CONSTANT ? "constant"
                                   : n->kind == BYOC_NODE_CALL ? "call" : "expression";
                printf("match %s (%s)\n", label, what);
                ++found;
            }
            printf("%d match%s in @main\n", found, found == 1 ? "" : "es");
            byoc_graph_free(&g);
        }
    }
    free(owned);
    byoc_module_destroy(m);
    return rc;
}

/* ---- passes ---- */
static int cmd_passes(void) {
    printf("passes:\n");
    for (int i = 0; i < byoc_pass_count(); ++i) {
        const byoc_pass *p = byoc_pass_at(i);
        printf("  %-24s opt_level %d  %s%s%s\n", p->name, p->opt_level, p->doc ? p->doc : "", p->required ? "; requires " : "",
               p->required ? p->required : "");
    }
    printf("config keys (--config KEY=VALUE):\n");
    for (int i = 0; i < byoc_config_key_count(); ++i) {
        const byoc_config_key *k = byoc_config_key_at(i);
        printf("  %-38s default %-10s %s\n", k->name, k->default_text, k->doc ? k->doc : "");
    }
    return EXIT_OK;
}

/* ---- info ---- */
typedef struct op_count { const char *name; int count; } op_count;

static int by_count(const void *a, const void *b) {
    const op_count *x = (const op_count *)a, *y = (const op_count *)b;
    if (x->count != y->count) return y->count - x->count;
    return strcmp(x->name, y->name);
}

static void json_string(const char *s) {
    putchar('"');
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20) printf("\\u%04x", (unsigned char)*s);
        else putchar(*s);
    }
    putchar('"');
}

static int cmd_info(int argc, char **argv) {
    const char *file = NULL;
    int json = 0;
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (argv[i][0] == '-') return usage_error("info: unknown option '%s'", argv[i]);
        else if (!file) file = argv[i];
        else return usage_error("info: more than one input file ('%s')", argv[i]);
    }
    if (!file) return usage_error("info: no input file%s", "");
    byoc_diag d;
    byoc_module *m = load_model(file, &d);
    if (!m) return input_error(&d);
    if (byoc_infer_type(m, &d) != BYOC_OK) {
        int rc = input_error(&d);
        byoc_module_destroy(m);
        return rc;
    }
    /* count every distinct node reachable from any function (nested functions included) */
    int nodes = 0, constants = 0, by_kind[8] = {0};
    size_t param_bytes = 0;
    op_count *ops = NULL;
    int nops = 0, cap = 0;
    byoc_graph *graphs = (byoc_graph *)calloc((size_t)byoc_module_function_count(m), sizeof(byoc_graph));
    if (!graphs) { byoc_module_destroy(m); return EXIT_INTERNAL; }
    for (int f = 0; f < byoc_module_function_count(m); ++f) {
        byoc_global_function g = byoc_module_function_at(m, f);
        if (byoc_graph_build(m, g.function, BYOC_GRAPH_ENTER_FUNCTIONS, &graphs[f]) != BYOC_OK) { byoc_module_destroy(m); return EXIT_INTERNAL; }
        for (int i = 0; i < graphs[f].count; ++i) {
            byoc_node *n = graphs[f].nodes[i].node;
            int shared = 0; /* already counted in an earlier function */
            for (int e = 0; e < f && !shared; ++e) shared = byoc_graph_index(&graphs[e], n) >= 0;
            if (shared) continue;
            nodes++;
            by_kind[n->kind]++;
            if (n->kind == BYOC_NODE_CONSTANT) { constants++; param_bytes += byoc_constant_nbytes(n); }
            if (n->kind == BYOC_NODE_CALL && n->op) {
                int k = 0;
                while (k < nops && strcmp(ops[k].name, n->op->def.name) != 0) ++k;
                if (k == nops) {
                    if (nops == cap) {
                        cap = cap ? cap * 2 : 16;
                        op_count *grown = (op_count *)realloc(ops, sizeof(op_count) * (size_t)cap);
                        if (!grown) { free(ops); byoc_module_destroy(m); return EXIT_INTERNAL; }
                        ops = grown;
                    }
                    ops[nops].name = n->op->def.name;
                    ops[nops++].count = 0;
                }
                ops[k].count++;
            }
        }
    }
    for (int f = 0; f < byoc_module_function_count(m); ++f) byoc_graph_free(&graphs[f]);
    free(graphs);
    qsort(ops, (size_t)nops, sizeof(op_count), by_count);
    byoc_node *main_fn = byoc_module_function(m, "main");
    if (!main_fn) main_fn = byoc_module_function_at(m, 0).function;
    char ty[512];
    if (json) {
        printf("{\"file\": ");
        json_string(file);
        printf(", \"functions\": %d, \"nodes\": %d, \"calls\": %d, \"constants\": %d, \"parameter_bytes\": %zu, \"ops\": {",
               byoc_module_function_count(m), nodes, by_kind[BYOC_NODE_CALL], constants, param_bytes);
        for (int k = 0; k < nops; ++k) { if (k) printf(", "); json_string(ops[k].name); printf(": %d", ops[k].count); }
        printf("}, \"inputs\": [");
        for (int i = 0; i < main_fn->nparams; ++i) {
            byoc_type_to_string(main_fn->params[i]->checked_type, ty, sizeof ty);
            printf("%s{\"name\": ", i ? ", " : "");
            json_string(main_fn->params[i]->name);
            printf(", \"type\": ");
            json_string(ty);
            printf("}");
        }
        byoc_type_to_string(main_fn->body->checked_type, ty, sizeof ty);
        printf("], \"output\": ");
        json_string(ty);
        printf("}\n");
    } else {
        printf("module %s\n", file);
        printf("functions  %d:", byoc_module_function_count(m));
        for (int f = 0; f < byoc_module_function_count(m); ++f) printf(" @%s", byoc_module_function_at(m, f).name);
        printf("\nnodes      %d (%d calls, %d vars, %d constants, %d tuples, %d projections, %d functions)\n", nodes, by_kind[BYOC_NODE_CALL],
               by_kind[BYOC_NODE_VAR], constants, by_kind[BYOC_NODE_TUPLE], by_kind[BYOC_NODE_TUPLE_GET_ITEM], by_kind[BYOC_NODE_FUNCTION]);
        printf("parameters %d constants, %zu bytes\n", constants, param_bytes);
        printf("ops        %d distinct\n", nops);
        for (int k = 0; k < nops; ++k) printf("  %-28s %d\n", ops[k].name, ops[k].count);
        printf("inputs of @%s\n", main_fn == byoc_module_function(m, "main") ? "main" : byoc_module_function_at(m, 0).name);
        for (int i = 0; i < main_fn->nparams; ++i) {
            byoc_type_to_string(main_fn->params[i]->checked_type, ty, sizeof ty);
            printf("  %%%s: %s\n", main_fn->params[i]->name, ty);
        }
        byoc_type_to_string(main_fn->body->checked_type, ty, sizeof ty);
        printf("output\n  %s\n", ty);
    }
    free(ops);
    byoc_module_destroy(m);
    return EXIT_OK;
}

/* ---- ops ---- */
static int cmd_ops(int argc, char **argv) {
    int json = argc > 0 && strcmp(argv[0], "--json") == 0;
    if (argc > (json ? 1 : 0)) return usage_error("ops: unknown option '%s'", argv[json ? 1 : 0]);
    if (json) printf("[");
    for (int i = 0; i < byoc_op_count(); ++i) {
        const byoc_op *op = byoc_op_at(i);
        if (json) {
            printf("%s{\"name\": ", i ? ", " : "");
            json_string(op->def.name);
            printf(", \"pattern\": \"%s\", \"min_args\": %d, \"max_args\": %d, \"attrs\": [", byoc_op_pattern_name(op->def.pattern), op->def.min_args,
                   op->def.max_args);
            for (int a = 0; a < op->def.nattrs; ++a) {
                if (a) printf(", ");
                json_string(op->def.attrs[a].name);
            }
            printf("], \"doc\": ");
            json_string(op->def.doc ? op->def.doc : "");
            printf("}");
        } else {
            printf("%-26s %-21s", op->def.name, byoc_op_pattern_name(op->def.pattern));
            for (int a = 0; a < op->def.nattrs; ++a)
                printf(" %s=%s", op->def.attrs[a].name, op->def.attrs[a].default_text ? op->def.attrs[a].default_text : "(required)");
            printf("\n");
        }
    }
    if (json) printf("]\n");
    return EXIT_OK;
}

/* ---- tensors in .npy files ---- */
typedef struct npy_array {
    byoc_dtype dtype;
    int rank;
    int64_t dims[BYOC_MAX_RANK];
    void *data;   /* malloc'd, little-endian, row-major */
    size_t nbytes;
} npy_array;

static const struct { const char *descr; byoc_dtype dtype; } npy_types[] = {
    {"<f4", BYOC_FLOAT32}, {"<f2", BYOC_FLOAT16}, {"<f8", BYOC_FLOAT64}, {"|i1", BYOC_INT8}, {"|u1", BYOC_UINT8}, {"<i2", BYOC_INT16},
    {"<u2", BYOC_UINT16}, {"<i4", BYOC_INT32}, {"<u4", BYOC_UINT32}, {"<i8", BYOC_INT64}, {"<u8", BYOC_UINT64}, {"|b1", BYOC_BOOL},
};

/* reads a .npy file (format versions 1-3, C order, little-endian); msg gets the reason on failure */
static int npy_read(const char *path, npy_array *a, char *msg, size_t cap) {
    memset(a, 0, sizeof *a);
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(msg, cap, "%s: cannot open", path); return 0; }
    unsigned char head[12];
    size_t got = fread(head, 1, 10, f);
    if (got < 10 || memcmp(head, "\x93NUMPY", 6) != 0 || head[6] < 1 || head[6] > 3) {
        fclose(f);
        snprintf(msg, cap, "%s: not a .npy file (bad magic or version)", path);
        return 0;
    }
    size_t hlen = (size_t)head[8] | (size_t)head[9] << 8;
    if (head[6] >= 2) {
        if (fread(head + 10, 1, 2, f) != 2) { fclose(f); snprintf(msg, cap, "%s: truncated header", path); return 0; }
        hlen |= (size_t)head[10] << 16 | (size_t)head[11] << 24;
    }
    if (hlen > 1 << 20) { fclose(f); snprintf(msg, cap, "%s: header of %zu bytes is too long", path, hlen); return 0; }
    char *h = (char *)malloc(hlen + 1);
    if (!h || fread(h, 1, hlen, f) != hlen) { free(h); fclose(f); snprintf(msg, cap, "%s: truncated header", path); return 0; }
    h[hlen] = 0;
    const char *descr = strstr(h, "'descr'"), *fo = strstr(h, "'fortran_order'"), *shape = strstr(h, "'shape'");
    int ok = descr && fo && shape;
    if (ok) {
        const char *q = strchr(descr + 7, '\'');
        ok = 0;
        for (size_t k = 0; q && k < sizeof npy_types / sizeof npy_types[0]; ++k)
            if (!strncmp(q + 1, npy_types[k].descr, 3) && q[4] == '\'') { a->dtype = npy_types[k].dtype; ok = 1; }
        if (!ok) {
            char d[16] = "?";
            if (q) sscanf(q + 1, "%15[^']", d);
            snprintf(msg, cap, "%s: element type '%s' is not supported (float32, float16, float64, int8/16/32/64, uint8/16/32/64, bool)", path, d);
            free(h);
            fclose(f);
            return 0;
        }
    }
    if (ok) { /* 'fortran_order': True */
        const char *v = fo + strlen("'fortran_order'");
        while (*v == ' ' || *v == ':') v++;
        if (!strncmp(v, "True", 4)) { snprintf(msg, cap, "%s: Fortran-order arrays are not supported", path); free(h); fclose(f); return 0; }
    }
    if (ok) { /* (d0, d1, ...) */
        const char *p = strchr(shape, '(');
        ok = p != NULL;
        for (p = p ? p + 1 : p; ok && *p && *p != ')';) {
            while (*p == ' ' || *p == ',') p++;
            if (*p == ')') break;
            char *end;
            long long v = strtoll(p, &end, 10);
            if (end == p || v < 0 || v > BYOC_MAX_DIM || a->rank == BYOC_MAX_RANK) { ok = 0; break; }
            a->dims[a->rank++] = v;
            p = end;
        }
    }
    free(h);
    if (!ok) { fclose(f); snprintf(msg, cap, "%s: unreadable header (descr, fortran_order, shape)", path); return 0; }
    size_t count = 1;
    for (int d = 0; d < a->rank; ++d) {
        if (a->dims[d] && count > ((size_t)1 << 40) / (size_t)a->dims[d]) { fclose(f); snprintf(msg, cap, "%s: too many elements", path); return 0; }
        count *= (size_t)a->dims[d];
    }
    a->nbytes = count * byoc_dtype_size(a->dtype);
    a->data = malloc(a->nbytes ? a->nbytes : 1);
    if (!a->data) { fclose(f); snprintf(msg, cap, "%s: out of memory for %zu bytes", path, a->nbytes); return 0; }
    if (fread(a->data, 1, a->nbytes, f) != a->nbytes) {
        fclose(f);
        free(a->data);
        a->data = NULL;
        snprintf(msg, cap, "%s: holds fewer bytes than its shape needs (%zu)", path, a->nbytes);
        return 0;
    }
    fclose(f);
    return 1;
}

/* a tensor file: .npy, or .pb (a serialized ONNX TensorProto, as in ONNX test data sets) */
static int tensor_read(const char *path, npy_array *a, char *msg, size_t cap) {
    if (!ends_with(path, ".pb")) return npy_read(path, a, msg, cap);
    memset(a, 0, sizeof *a);
    size_t size = 0;
    byoc_diag d;
    uint8_t *bytes = byoc__onnx_read_file(path, &size, &d);
    if (!bytes) { snprintf(msg, cap, "%s", d.message); return 0; }
    byoc_module *scratch = byoc_module_create(NULL);
    byoc_node *c = scratch ? byoc_onnx_tensor_load(scratch, bytes, size, path, NULL, &d) : NULL;
    free(bytes);
    if (!c) {
        snprintf(msg, cap, "%s", scratch ? d.message : "out of memory");
        byoc_module_destroy(scratch);
        return 0;
    }
    a->dtype = c->annotation->dtype;
    a->rank = c->annotation->rank;
    memcpy(a->dims, c->annotation->dims, sizeof a->dims);
    a->nbytes = byoc_constant_nbytes(c);
    a->data = malloc(a->nbytes ? a->nbytes : 1);
    if (a->data) memcpy(a->data, c->data, a->nbytes);
    byoc_module_destroy(scratch);
    if (!a->data) { snprintf(msg, cap, "%s: out of memory", path); return 0; }
    return 1;
}

static int npy_write(const char *path, const byoc_tensor *t) {
    const char *descr = NULL;
    for (size_t k = 0; k < sizeof npy_types / sizeof npy_types[0]; ++k)
        if (npy_types[k].dtype == t->dtype) descr = npy_types[k].descr;
    if (!descr) return 0;
    char header[512], shape[300] = "";
    size_t used = 0;
    for (int d = 0; d < t->rank; ++d) used += (size_t)snprintf(shape + used, sizeof shape - used, "%lld%s", (long long)t->dims[d], t->rank == 1 ? "," : d + 1 < t->rank ? ", " : "");
    int n = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, shape);
    int total = 10 + n + 1, pad = (64 - total % 64) % 64; /* header padded so the data starts 64-byte aligned */
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    unsigned hl = (unsigned)(n + pad + 1);
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hl & 0xff), (unsigned char)(hl >> 8)};
    size_t count = 1;
    for (int d = 0; d < t->rank; ++d) count *= (size_t)t->dims[d];
    size_t nbytes = count * byoc_dtype_size(t->dtype);
    int ok = fwrite(pre, 1, 10, f) == 10 && fwrite(header, 1, (size_t)n, f) == (size_t)n;
    for (int i = 0; ok && i < pad; ++i) ok = fputc(' ', f) != EOF;
    ok = ok && fputc('\n', f) != EOF && fwrite(t->data, 1, nbytes, f) == nbytes;
    return fclose(f) == 0 && ok;
}

static void shape_text(byoc_dtype dt, int rank, const int64_t *dims, char *out, size_t cap) {
    size_t used = (size_t)snprintf(out, cap, "(");
    for (int d = 0; d < rank && used < cap; ++d) used += (size_t)snprintf(out + used, cap - used, "%lld%s", (long long)dims[d], d + 1 < rank ? ", " : "");
    if (used < cap) snprintf(out + used, cap - used, ") %s", byoc_dtype_name(dt));
}

/* ---- run ---- */
#define MAX_IO 64

/* the name a user gives an input: the ONNX input name, the var's name, or its frontend name */
static int input_matches(const byoc_node *param, const char *onnx_name, const char *given) {
    if (onnx_name && strcmp(onnx_name, given) == 0) return 1;
    if (param->name && strcmp(param->name, given) == 0) return 1;
    const char *src = byoc_node_span(param)->source;
    return src && strncmp(src, "onnx:", 5) == 0 && strcmp(src + 5, given) == 0;
}

/* a file name from an output name: path separators and odd characters become '_' */
static void file_safe(const char *name, char *out, size_t cap) {
    size_t i = 0;
    for (; name[i] && i + 1 < cap; ++i) {
        char ch = name[i];
        out[i] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '.' ? ch : '_';
    }
    out[i] = 0;
}

/* One output against its reference: float32 / float64 within tol * max(1, max|ref|), other dtypes
   exactly, and for a classifier-shaped output (one row of scores) the same argmax. Prints one line; 1
   when it holds. */
static int compare_output(const char *label, const byoc_tensor *got, const npy_array *ref, const char *ref_path, double tol) {
    char gs[200], rs[200];
    shape_text(got->dtype, got->rank, got->dims, gs, sizeof gs);
    shape_text(ref->dtype, ref->rank, ref->dims, rs, sizeof rs);
    int same_shape = got->dtype == ref->dtype && got->rank == ref->rank && !memcmp(got->dims, ref->dims, sizeof(int64_t) * (size_t)got->rank);
    if (!same_shape) {
        printf("  %-24s MISMATCH: output %s, reference %s is %s\n", label, gs, ref_path, rs);
        return 0;
    }
    size_t n = ref->nbytes / byoc_dtype_size(ref->dtype);
    byoc_dtype dt = ref->dtype;
    if (dt != BYOC_FLOAT32 && dt != BYOC_FLOAT64) {
        int equal = memcmp(got->data, ref->data, ref->nbytes) == 0;
        printf("  %-24s %s %s (exact)\n", label, equal ? "ok      " : "MISMATCH", gs);
        return equal;
    }
    double max_abs = 0, max_rel = 0, max_ref = 0;
    size_t arg_got = 0, arg_ref = 0;
    int finite = 1;
    for (size_t i = 0; i < n; ++i) {
        double g = byoc__load(dt, got->data, (int64_t)i), r = byoc__load(dt, ref->data, (int64_t)i);
        if (g != g || r != r) { if ((g != g) != (r != r)) finite = 0; continue; }
        double e = fabs(g - r);
        if (e > max_abs) max_abs = e;
        if (fabs(r) > 0 && e / fabs(r) > max_rel) max_rel = e / fabs(r);
        if (fabs(r) > max_ref) max_ref = fabs(r);
        if (g > byoc__load(dt, got->data, (int64_t)arg_got)) arg_got = i;
        if (r > byoc__load(dt, ref->data, (int64_t)arg_ref)) arg_ref = i;
    }
    double bound = tol * (max_ref > 1 ? max_ref : 1);
    int classifier = n > 1 && (size_t)got->dims[got->rank ? got->rank - 1 : 0] * 1 <= n && n <= 100000 && (got->rank <= 2 || n == (size_t)got->dims[1]);
    int ok = finite && max_abs <= bound && (!classifier || arg_got == arg_ref);
    printf("  %-24s %s %s  max abs err %.3g (bound %.3g), max rel err %.3g", label, ok ? "ok      " : "MISMATCH", gs, max_abs, bound, max_rel);
    if (classifier) printf(", argmax %zu (reference %zu)", arg_got, arg_ref);
    printf("\n");
    return ok;
}

static int by_seconds(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static unsigned long long seeded_next(unsigned long long *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The frontend names op calls carry in every function of m, sorted: which ONNX nodes are still there. */
typedef struct span_set {
    const char **names;
    int count;
} span_set;
static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }
static int span_set_build(byoc_module *m, span_set *s) {
    memset(s, 0, sizeof *s);
    int cap = 0;
    for (int f = 0; f < byoc_module_function_count(m); ++f) {
        byoc_graph g;
        if (byoc_graph_build(m, byoc_module_function_at(m, f).function, BYOC_GRAPH_ENTER_FUNCTIONS, &g) != BYOC_OK) return 0;
        for (int i = 0; i < g.count; ++i) {
            const byoc_node *n = g.nodes[i].node;
            const char *src = byoc_node_span(n)->source;
            if (n->kind != BYOC_NODE_CALL || !n->op || !src) continue;
            if (s->count == cap) {
                cap = cap ? 2 * cap : 256;
                const char **grown = (const char **)realloc((void *)s->names, sizeof(char *) * (size_t)cap);
                if (!grown) { byoc_graph_free(&g); return 0; }
                s->names = grown;
            }
            s->names[s->count++] = src;
        }
        byoc_graph_free(&g);
    }
    if (s->count) qsort((void *)s->names, (size_t)s->count, sizeof(char *), by_name);
    return 1;
}
static int span_set_has(const span_set *s, const char *name) {
    return s->count && bsearch(&name, (const void *)s->names, (size_t)s->count, sizeof(char *), by_name) != NULL;
}

/* Why each ONNX node the compile pipeline leaves without an op is gone: the import's reason, else the first stage
   after which none of its ops remains. stages[k] holds the spans after stage k. */
#define NSTAGES 5
static const char *const stage_reasons[NSTAGES] = {
    "none of its ops is reachable from the graph outputs after import",
    "removed by SimplifyInference (an inference-time no-op)",
    "computed at compile time by FoldConstant (its inputs are constants)",
    "removed while partitioning",
    "removed by FuseOps"};
static byoc_sim_source_node *source_nodes_of(const byoc_onnx_model *info, const span_set *stages, char ***owned) {
    byoc_sim_source_node *nodes = (byoc_sim_source_node *)calloc((size_t)info->nnodes + 1, sizeof *nodes);
    *owned = (char **)calloc((size_t)info->nnodes + 1, sizeof(char *));
    if (!nodes || !*owned) { free(nodes); free(*owned); *owned = NULL; return NULL; }
    for (int i = 0; i < info->nnodes; ++i) {
        nodes[i].name = info->node_spans[i];
        nodes[i].op = info->node_ops[i];
        if (info->node_folded[i]) {
            size_t n = strlen(info->node_folded[i]) + 32;
            char *r = (char *)malloc(n);
            if (r) snprintf(r, n, "folded at import: %s", info->node_folded[i]);
            (*owned)[i] = r;
            nodes[i].removed = r ? r : info->node_folded[i];
            continue;
        }
        for (int k = 0; k < NSTAGES; ++k)
            if (!span_set_has(&stages[k], nodes[i].name)) { nodes[i].removed = stage_reasons[k]; break; }
    }
    return nodes;
}

/* "a\nb\nc" split in place into at most cap names */
static int split_lines(char *text, const char **out, int cap) {
    int n = 0;
    while (text && n < cap) {
        out[n++] = text;
        text = strchr(text, '\n');
        if (text) *text++ = 0;
    }
    return n;
}

static int write_bytes(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = 0;
    if (!ok) fprintf(stderr, "byocc: error: cannot write %s: %s\n", path, strerror(errno));
    return ok;
}

/* run MODEL ..., and compile MODEL -o OUT.byoc (the same pipeline, saved instead of run) */
static int cmd_run_or_compile(int argc, char **argv, int compile) {
    const char *cmd = compile ? "compile" : "run";
    const char *file = NULL, *output_dir = NULL, *compare_to = NULL, *trace = NULL, *reference = NULL, *out_path = NULL, *source_map = NULL;
    const char *input_spec[MAX_IO];
    byoc_backend_spec *backends[64];
    int ninputs_given = 0, nbackends = 0, profile = 0, repeat = 0, fuse = 1, rc = EXIT_OK;
    double tol = 1e-4;
    byoc_diag d;
    strategy_options so;
    memset(&so, 0, sizeof so);
    so.strategy = "greedy";
    for (int i = 0; i < argc && rc == EXIT_OK; ++i) {
        const char *a = argv[i];
        if (strcmp(a, "--input") == 0 && i + 1 < argc) {
            if (ninputs_given == MAX_IO) { rc = usage_error("run: at most 64 inputs%s", ""); break; }
            input_spec[ninputs_given++] = argv[++i];
        } else if (strcmp(a, "--output-dir") == 0 && i + 1 < argc) output_dir = argv[++i];
        else if (strcmp(a, "--compare-to") == 0 && i + 1 < argc) compare_to = argv[++i];
        else if (strcmp(a, "--trace") == 0 && i + 1 < argc) trace = argv[++i];
        else if (strcmp(a, "--reference") == 0 && i + 1 < argc) {
            reference = argv[++i];
            if (strcmp(reference, "host")) rc = usage_error("run: --reference takes 'host' (the model compiled for the host alone), got '%s'", reference);
        }
        else if (strcmp(a, "--tolerance") == 0 && i + 1 < argc) {
            char *end;
            tol = strtod(argv[++i], &end);
            if (*end || !(tol >= 0)) rc = usage_error("run: --tolerance expects a number >= 0, got '%s'", argv[i]);
        } else if (strcmp(a, "--profile") == 0) profile = 1;
        else if (strategy_arg("run", argc, argv, &i, &so, &rc)) continue;
        else if (strcmp(a, "--repeat") == 0 && i + 1 < argc) rc = parse_count(argv[++i], a, &repeat);
        else if (strcmp(a, "--no-fuse") == 0) fuse = 0;
        else if (strcmp(a, "--backend") == 0 && i + 1 < argc) {
            if (nbackends == 64) { rc = usage_error("run: at most 64 backends%s", ""); break; }
            byoc_sim_backend *sb = open_backend(argv[++i], &d);
            if (!sb) { rc = input_error(&d); break; }
            backends[nbackends++] = sb->spec;
        } else if (compile && strcmp(a, "-o") == 0 && i + 1 < argc) out_path = argv[++i];
        else if (compile && strcmp(a, "--source-map") == 0 && i + 1 < argc) source_map = argv[++i];
        else if (a[0] == '-') {
            char msg[300];
            snprintf(msg, sizeof msg, "%s: unknown or incomplete option '%%s'", cmd);
            rc = usage_error(msg, a);
        } else if (!file) file = a;
        else rc = usage_error("run: more than one input file ('%s')", a);
    }
    if (rc == EXIT_OK && !file) rc = usage_error("run: no input file%s", "");
    int from_exe = file && ends_with(file, ".byoc");
    if (rc == EXIT_OK && compile && !out_path) rc = usage_error("compile: no output file (-o OUT.byoc)%s", "");
    if (rc == EXIT_OK && compile && (output_dir || compare_to || trace || reference || profile || repeat || from_exe))
        rc = usage_error("compile: %s", "--output-dir, --compare-to, --trace, --reference, --profile and --repeat belong to run; the input is a model, not a .byoc");
    if (rc == EXIT_OK && from_exe && (reference || !fuse || strcmp(so.strategy, "greedy") || so.placement || so.save_placement || so.estimator))
        rc = usage_error("run: %s is compiled already: --strategy, --no-fuse, --reference and the placement options do not apply", file);
    /* the input files first: for ONNX, their shapes give symbolic dims their values */
    npy_array arrays[MAX_IO];
    char *array_names[MAX_IO];
    const char *array_paths[MAX_IO];
    byoc_onnx_input_shape shapes[MAX_IO];
    memset(arrays, 0, sizeof arrays);
    memset(array_names, 0, sizeof array_names);
    int named = 0;
    for (int k = 0; rc == EXIT_OK && k < ninputs_given; ++k) {
        const char *spec = input_spec[k], *eq = strchr(spec, '=');
        char msg[1200];
        array_paths[k] = eq ? eq + 1 : spec;
        if (eq) {
            size_t n = (size_t)(eq - spec);
            array_names[k] = (char *)malloc(n + 1);
            if (!array_names[k]) { rc = EXIT_INTERNAL; break; }
            memcpy(array_names[k], spec, n);
            array_names[k][n] = 0;
            named++;
        }
        if (!tensor_read(array_paths[k], &arrays[k], msg, sizeof msg)) {
            fprintf(stderr, "byocc: error: %s\n", msg);
            rc = EXIT_INPUT;
            break;
        }
        shapes[k].input = array_names[k];
        shapes[k].rank = arrays[k].rank;
        memcpy(shapes[k].dims, arrays[k].dims, sizeof shapes[k].dims);
    }
    byoc_onnx_model info;
    memset(&info, 0, sizeof info);
    byoc_module *m = NULL;
    byoc_sim_executable *exe = NULL;
    byoc_sim_program *p = NULL;
    byoc_placement_report *rep = NULL;
    span_set stages[NSTAGES];
    memset(stages, 0, sizeof stages);
    char *exe_names = NULL;
    const char *exe_io[2 * MAX_IO];
    if (rc == EXIT_OK && from_exe) { /* a compiled artifact: the devices given with --backend must be the ones it was built for */
        byoc_sim_runtime_backend offered[64];
        byoc_sim_load_options lo;
        memset(&lo, 0, sizeof lo);
        for (int k = 0; k < nopened_backends; ++k) {
            offered[k].name = opened_backends[k]->spec->name;
            offered[k].device = opened_backends[k]->target ? &opened_backends[k]->device : NULL;
        }
        lo.backends = nopened_backends ? offered : NULL;
        lo.nbackends = nopened_backends;
        if (!(exe = byoc_sim_executable_read(file, &lo, &d))) rc = input_error(&d);
        else {
            m = byoc_sim_executable_module(exe);
            p = byoc_sim_executable_program(exe);
            const char *ins = byoc_sim_executable_info(exe, "inputs"), *outs = byoc_sim_executable_info(exe, "outputs");
            size_t a = ins ? strlen(ins) + 1 : 0, b = outs ? strlen(outs) + 1 : 0;
            exe_names = (char *)malloc(a + b + 1);
            if (!exe_names) rc = EXIT_INTERNAL;
            else {
                if (ins) memcpy(exe_names, ins, a);
                if (outs) memcpy(exe_names + a, outs, b);
                info.ninputs = ins ? split_lines(exe_names, exe_io, MAX_IO) : 0;
                info.noutputs = outs ? split_lines(exe_names + a, exe_io + MAX_IO, MAX_IO) : 0;
                info.input_names = exe_io;
                info.output_names = exe_io + MAX_IO;
            }
        }
    }
    if (rc == EXIT_OK && !from_exe) {
        onnx_shapes = shapes; /* unnamed files give the shape of the input in their position */
        onnx_nshapes = named == ninputs_given || named == 0 ? ninputs_given : 0;
        if (!(m = load_model_info(file, &info, &d))) rc = input_error(&d);
    }
    int track = compile && info.node_spans; /* which stage removes each ONNX node, for the source map */
    if (rc == EXIT_OK && track && !span_set_build(m, &stages[0])) rc = EXIT_INTERNAL;
    /* the compile pipeline: inference simplified, constants folded, greedy placement, FuseOps */
    if (rc == EXIT_OK && !from_exe && byoc_simplify_inference(m, &d) != BYOC_OK) rc = input_error(&d);
    if (rc == EXIT_OK && track && !span_set_build(m, &stages[1])) rc = EXIT_INTERNAL;
    if (rc == EXIT_OK && !from_exe && byoc_fold_constant(m, &d) != BYOC_OK) rc = input_error(&d);
    if (rc == EXIT_OK && track && !span_set_build(m, &stages[2])) rc = EXIT_INTERNAL;
    if (rc == EXIT_OK && !from_exe && nbackends) {
        byoc_partition_options po;
        memset(&po, 0, sizeof po);
        po.backends = (const byoc_backend_spec *const *)backends;
        po.nbackends = nbackends;
        po.bind_constants = 1;
        byoc_collage_stats stats;
        rc = place_ops(m, &so, &po, &rep, &stats, &d);
        if (rc == EXIT_OK && !strcmp(so.strategy, "collage") && profile) {
            char *text = byoc_collage_stats_format(&stats, "text", NULL);
            if (text) fputs(text, stdout);
            free(text);
        }
        byoc_collage_stats_free(&stats);
    }
    /* device partitions: relay_to_tir lowers each to a command stream, tir_to_runtime loads its blob */
    if (rc == EXIT_OK && !from_exe && nopened_backends) {
        const byoc_target *targets[64];
        int ntargets = 0;
        for (int k = 0; k < nopened_backends; ++k)
            if (opened_backends[k]->target) targets[ntargets++] = opened_backends[k]->target;
        if (ntargets && byoc_run_target_hooks(m, targets, ntargets, &d) != BYOC_OK) rc = input_error(&d);
    }
    if (rc == EXIT_OK && track && !span_set_build(m, &stages[3])) rc = EXIT_INTERNAL;
    if (rc == EXIT_OK && !from_exe && fuse && byoc_fuse_ops(m, 256, &d) != BYOC_OK) rc = input_error(&d);
    if (rc == EXIT_OK && track && !span_set_build(m, &stages[4])) rc = EXIT_INTERNAL;
    if (rc == EXIT_OK && !from_exe && !(p = byoc_sim_lower(m, NULL, &d))) rc = input_error(&d);
    if (compile) { /* save, load back (the loader's checks), and write the source map */
        char **owned = NULL;
        byoc_sim_source_node *nodes = rc == EXIT_OK && track ? source_nodes_of(&info, stages, &owned) : NULL;
        if (rc == EXIT_OK && track && !nodes) rc = EXIT_INTERNAL;
        byoc_sim_save_options sv;
        memset(&sv, 0, sizeof sv);
        sv.model = file;
        sv.strategy = nbackends ? so.strategy : "host";
        sv.source_nodes = nodes;
        sv.nsource_nodes = nodes ? info.nnodes : 0;
        sv.placement = rep;
        sv.input_names = info.input_names;
        sv.ninputs = info.ninputs;
        sv.output_names = info.output_names;
        sv.noutputs = info.noutputs;
        void *bytes = NULL;
        size_t size = 0;
        if (rc == EXIT_OK && byoc_sim_executable_save(p, &sv, &bytes, &size, &d) != BYOC_OK) rc = input_error(&d);
        byoc_sim_executable *back = NULL;
        if (rc == EXIT_OK && !(back = byoc_sim_executable_load(bytes, size, out_path, NULL, &d))) {
            fprintf(stderr, "byocc: internal error: the artifact does not load back: %s\n", d.message);
            rc = EXIT_INTERNAL;
        }
        if (rc == EXIT_OK && !write_bytes(out_path, bytes, size)) rc = EXIT_INPUT;
        char *json = NULL;
        size_t json_len = 0;
        if (rc == EXIT_OK && source_map && (!(json = byoc_sim_executable_source_map_json(back, &json_len)) || !write_bytes(source_map, json, json_len))) rc = EXIT_INPUT;
        if (rc == EXIT_OK) {
            int removed = 0, nodes_seen = 0;
            for (int i = 0; i < byoc_sim_executable_source_count(back); ++i) {
                const byoc_sim_source_entry *e = byoc_sim_executable_source(back, i);
                if (i == 0 || byoc_sim_executable_source(back, i - 1)->frontend != e->frontend) nodes_seen++;
                removed += e->removed != NULL;
            }
            printf("%s: %zu bytes: %d kernels, %d device blobs, arena %zu bytes; source map: %d frontend nodes (%d without ops)\n", out_path, size,
                   byoc_sim_kernel_count(byoc_sim_executable_program(back)), byoc_sim_executable_blob_count(back),
                   byoc_sim_memory(byoc_sim_executable_program(back)).arena_bytes, nodes_seen, removed);
            for (int b = 0; b < byoc_sim_executable_blob_count(back); ++b) { /* one line per backend and target */
                const byoc_sim_blob_info *bi = byoc_sim_executable_blob(back, b);
                int seen = 0, count = 0;
                size_t bytes_total = 0;
                for (int c = 0; c < byoc_sim_executable_blob_count(back); ++c) {
                    const byoc_sim_blob_info *other = byoc_sim_executable_blob(back, c);
                    if (strcmp(other->backend, bi->backend) || strcmp(other->target, bi->target)) continue;
                    if (c < b) seen = 1;
                    count++;
                    bytes_total += other->size;
                }
                if (!seen) printf("  %s: %d blob%s, %zu bytes, target %s\n", bi->backend, count, count == 1 ? "" : "s", bytes_total, bi->target);
            }
        }
        byoc_sim_executable_free(back, json);
        byoc_sim_executable_destroy(back);
        free(bytes);
        free(nodes);
        for (int i = 0; owned && i < info.nnodes; ++i) free(owned[i]);
        free(owned);
        for (int k = 0; k < NSTAGES; ++k) free((void *)stages[k].names);
        byoc_placement_report_free(rep);
        byoc_sim_program_destroy(p);
        for (int k = 0; k < MAX_IO; ++k) {
            free(arrays[k].data);
            free(array_names[k]);
        }
        if (info.module) byoc_onnx_model_free(&info);
        else byoc_module_destroy(m);
        return rc;
    }
    byoc_placement_report_free(rep);
    rep = NULL;
    byoc_node *main_fn = m ? byoc_module_function(m, "main") : NULL;
    int nin = p ? byoc_sim_input_count(p) : 0;
    if (rc == EXIT_OK && (nin > MAX_IO || nin != main_fn->nparams)) {
        fprintf(stderr, "byocc: error: %s: run takes at most %d tensor inputs (this module has %d, or tuple-typed ones)\n", file, MAX_IO, nin);
        rc = EXIT_INPUT;
    }
    /* each given array goes to the input it names (or, unnamed, to the input in its position) */
    byoc_tensor inputs[MAX_IO];
    void *seeded[MAX_IO];
    int given[MAX_IO];
    memset(seeded, 0, sizeof seeded);
    for (int i = 0; i < MAX_IO; ++i) given[i] = -1;
    for (int k = 0; rc == EXIT_OK && k < ninputs_given; ++k) {
        int found = -1;
        for (int i = 0; i < nin && found < 0; ++i)
            if (array_names[k] ? input_matches(main_fn->params[i], i < info.ninputs ? info.input_names[i] : NULL, array_names[k]) : i == k) found = i;
        if (found < 0 || given[found] >= 0) {
            fprintf(stderr, "byocc: error: %s: ", file);
            if (found >= 0) fprintf(stderr, "input '%s' is given twice;", array_names[k]);
            else if (array_names[k]) fprintf(stderr, "no input is named '%s'; its inputs:", array_names[k]);
            else fprintf(stderr, "%d --input files for %d inputs; its inputs:", ninputs_given, nin);
            for (int i = 0; found < 0 && i < nin; ++i) fprintf(stderr, " %s", i < info.ninputs ? info.input_names[i] : main_fn->params[i]->name);
            fprintf(stderr, "\n");
            rc = EXIT_INPUT;
            break;
        }
        const byoc_sim_io *io = byoc_sim_input(p, found);
        if (io->dtype != arrays[k].dtype || io->rank != arrays[k].rank || memcmp(io->dims, arrays[k].dims, sizeof(int64_t) * (size_t)io->rank)) {
            char want[200], have[200];
            shape_text(io->dtype, io->rank, io->dims, want, sizeof want);
            shape_text(arrays[k].dtype, arrays[k].rank, arrays[k].dims, have, sizeof have);
            fprintf(stderr, "byocc: error: input '%s' expects %s, %s holds %s\n", found < info.ninputs ? info.input_names[found] : main_fn->params[found]->name,
                    want, array_paths[k], have);
            rc = EXIT_INPUT;
            break;
        }
        given[found] = k;
        inputs[found].dtype = arrays[k].dtype;
        inputs[found].rank = arrays[k].rank;
        memcpy(inputs[found].dims, arrays[k].dims, sizeof inputs[found].dims);
        inputs[found].data = arrays[k].data;
    }
    /* inputs not given: an error when some were given; seeded values (for timing) when none were */
    for (int i = 0; rc == EXIT_OK && i < nin; ++i) {
        if (given[i] >= 0) continue;
        const byoc_sim_io *io = byoc_sim_input(p, i);
        const char *name = i < info.ninputs ? info.input_names[i] : main_fn->params[i]->name;
        char want[200];
        shape_text(io->dtype, io->rank, io->dims, want, sizeof want);
        if (ninputs_given) {
            fprintf(stderr, "byocc: error: input '%s' (%s) is not given: --input %s=FILE.npy\n", name, want, name);
            rc = EXIT_INPUT;
            break;
        }
        fprintf(stderr, "byocc: note: input '%s' (%s) not given: seeded values\n", name, want);
        seeded[i] = malloc(io->nbytes ? io->nbytes : 1);
        if (!seeded[i]) { rc = EXIT_INTERNAL; break; }
        unsigned long long s = 0x9e3779b97f4a7c15ULL + (unsigned long long)i;
        size_t count = io->nbytes / byoc_dtype_size(io->dtype);
        for (size_t e = 0; e < count; ++e) {
            unsigned long long r = seeded_next(&s);
            if (byoc_dtype_is_float(io->dtype)) byoc__store(io->dtype, seeded[i], (int64_t)e, (double)(r >> 11) / 9007199254740992.0 - 0.5);
            else byoc__store(io->dtype, seeded[i], (int64_t)e, (double)(r % (byoc_dtype_size(io->dtype) >= 4 ? 4 : 2)));
        }
        inputs[i].dtype = io->dtype;
        inputs[i].rank = io->rank;
        memcpy(inputs[i].dims, io->dims, sizeof inputs[i].dims);
        inputs[i].data = seeded[i];
    }
    int nout = p ? byoc_sim_output_count(p) : 0;
    byoc_tensor outputs[MAX_IO];
    if (rc == EXIT_OK && nout > MAX_IO) { fprintf(stderr, "byocc: error: %s: %d outputs (at most %d)\n", file, nout, MAX_IO); rc = EXIT_INPUT; }
    int runs = repeat ? repeat : profile ? 10 : 1;
    if (rc == EXIT_OK && profile) { /* one warm-up run: first-touch page faults are not the kernels' time */
        if (byoc_sim_run(p, inputs, nin, outputs, nout, &d) != BYOC_OK) rc = input_error(&d);
        byoc_sim_profile_reset(p);
    }
    double *times = (double *)calloc((size_t)runs, sizeof(double));
    if (!times) rc = EXIT_INTERNAL;
    if (rc == EXIT_OK && repeat > 1 && byoc_sim_run(p, inputs, nin, outputs, nout, &d) != BYOC_OK) rc = input_error(&d); /* warm-up */
    for (int r = 0; rc == EXIT_OK && r < runs; ++r) {
        double t0 = BYOC_SIM_CLOCK();
        if (byoc_sim_run(p, inputs, nin, outputs, nout, &d) != BYOC_OK) rc = input_error(&d);
        times[r] = BYOC_SIM_CLOCK() - t0;
    }
    if (rc == EXIT_OK && repeat > 1) { /* median and minimum of the timed runs, after one warm-up run */
        qsort(times, (size_t)runs, sizeof(double), by_seconds);
        printf("time: median %.4f ms, min %.4f ms over %d runs\n", 1e3 * times[runs / 2], 1e3 * times[0], runs);
    }
    free(times);
    int mismatches = 0;
    for (int k = 0; rc == EXIT_OK && k < nout; ++k) {
        char label[300], safe[300], path[2048], shape[200];
        snprintf(label, sizeof label, "%s", k < info.noutputs ? info.output_names[k] : "");
        if (!label[0]) snprintf(label, sizeof label, "output_%d", k);
        file_safe(label, safe, sizeof safe);
        shape_text(outputs[k].dtype, outputs[k].rank, outputs[k].dims, shape, sizeof shape);
        if (!compare_to) printf("output %d %s: %s\n", k, label, shape);
        if (output_dir) {
            snprintf(path, sizeof path, "%s/%s.npy", output_dir, safe);
            if (!npy_write(path, &outputs[k])) { fprintf(stderr, "byocc: error: cannot write %s\n", path); rc = EXIT_INPUT; break; }
        }
        if (compare_to) {
            char ref_path[2048] = "";
            if (ends_with(compare_to, ".npy") || ends_with(compare_to, ".pb")) {
                if (nout != 1) { fprintf(stderr, "byocc: error: --compare-to FILE needs a model with one output (this one has %d); give a directory\n", nout); rc = EXIT_USAGE; break; }
                snprintf(ref_path, sizeof ref_path, "%s", compare_to);
            } else { /* DIR/NAME.npy, else DIR/ort_output_K.npy, output_K.npy, expected_K.npy, output_K.pb */
                const char *forms[5] = {"%s/%s.npy", "%s/ort_output_%d.npy", "%s/output_%d.npy", "%s/expected_%d.npy", "%s/output_%d.pb"};
                for (int f = 0; f < 5 && !ref_path[0]; ++f) {
                    if (f == 0) snprintf(path, sizeof path, forms[0], compare_to, safe);
                    else snprintf(path, sizeof path, forms[f], compare_to, k);
                    FILE *probe = fopen(path, "rb");
                    if (probe) { fclose(probe); snprintf(ref_path, sizeof ref_path, "%s", path); }
                }
                if (!ref_path[0]) { fprintf(stderr, "byocc: error: no reference for output %d (%s) in %s (looked for %s.npy, ort_output_%d.npy, output_%d.npy, expected_%d.npy, output_%d.pb)\n", k, label, compare_to, safe, k, k, k, k); rc = EXIT_INPUT; break; }
            }
            npy_array ref;
            char msg[1200];
            if (!tensor_read(ref_path, &ref, msg, sizeof msg)) { fprintf(stderr, "byocc: error: %s\n", msg); rc = EXIT_INPUT; break; }
            if (k == 0) printf("%s against %s (tolerance %g x max(1, max|reference|)):\n", file, compare_to, tol);
            mismatches += !compare_output(label, &outputs[k], &ref, ref_path, tol);
            free(ref.data);
        }
    }
    /* --reference host: the same inputs through the model compiled for the host alone */
    int ref_mismatches = 0;
    if (rc == EXIT_OK && reference) {
        byoc_onnx_model rinfo;
        memset(&rinfo, 0, sizeof rinfo);
        byoc_module *rm = load_model_info(file, &rinfo, &d);
        byoc_sim_program *rp = NULL;
        byoc_tensor routs[MAX_IO];
        if (!rm || byoc_simplify_inference(rm, &d) != BYOC_OK || byoc_fold_constant(rm, &d) != BYOC_OK || (fuse && byoc_fuse_ops(rm, 256, &d) != BYOC_OK) ||
            !(rp = byoc_sim_lower(rm, NULL, &d)) || byoc_sim_run(rp, inputs, nin, routs, nout, &d) != BYOC_OK)
            rc = input_error(&d);
        if (rc == EXIT_OK) printf("%s against the host-only run (tolerance %g x max(1, max|reference|)):\n", file, tol);
        for (int k = 0; rc == EXIT_OK && k < nout; ++k) {
            char label[300];
            snprintf(label, sizeof label, "%s", k < info.noutputs ? info.output_names[k] : "");
            if (!label[0]) snprintf(label, sizeof label, "output_%d", k);
            npy_array ref;
            memset(&ref, 0, sizeof ref);
            ref.dtype = routs[k].dtype;
            ref.rank = routs[k].rank;
            memcpy(ref.dims, routs[k].dims, sizeof ref.dims);
            ref.data = routs[k].data;
            ref.nbytes = byoc_dtype_size(ref.dtype);
            for (int i = 0; i < ref.rank; ++i) ref.nbytes *= (size_t)ref.dims[i];
            ref_mismatches += !compare_output(label, &outputs[k], &ref, "the host-only run", tol);
        }
        if (rc == EXIT_OK) printf("%s\n", ref_mismatches ? "MISMATCH: outputs differ from the host-only run" : "all outputs match the host-only run");
        if (rc == EXIT_OK) {
            double dev = byoc_sim_latency(p), host = byoc_sim_latency(rp);
            printf("simulated latency %.3f ms, host only %.3f ms (%.2fx)\n", dev * 1e3, host * 1e3, dev > 0 ? host / dev : 0.0);
        }
        byoc_sim_program_destroy(rp);
        if (rinfo.module) byoc_onnx_model_free(&rinfo);
        else byoc_module_destroy(rm);
        if (rc == EXIT_OK && ref_mismatches) rc = EXIT_MISMATCH;
    }
    if ((rc == EXIT_OK || rc == EXIT_MISMATCH) && profile) {
        size_t len;
        char *table = byoc_sim_profile_format(p, &len);
        if (table) fwrite(table, 1, len, stdout);
        byoc_sim_free(p, table);
    }
    if ((rc == EXIT_OK || rc == EXIT_MISMATCH) && trace) {
        size_t len;
        char *json = byoc_sim_trace_format(p, &len);
        FILE *f = json ? fopen(trace, "wb") : NULL;
        if (!f || fwrite(json, 1, len, f) != len) {
            fprintf(stderr, "byocc: error: cannot write %s\n", trace);
            rc = EXIT_INPUT;
        }
        if (f) fclose(f);
        byoc_sim_free(p, json);
    }
    if ((rc == EXIT_OK || rc == EXIT_MISMATCH) && compare_to) {
        printf("%s\n", mismatches ? "MISMATCH: outputs differ from the reference beyond the tolerance" : "all outputs match the reference");
        if (mismatches) rc = EXIT_MISMATCH;
    }
    for (int k = 0; k < MAX_IO; ++k) {
        free(arrays[k].data);
        free(array_names[k]);
        free(seeded[k]);
    }
    if (exe) byoc_sim_executable_destroy(exe);
    else {
        byoc_sim_program_destroy(p);
        if (info.module) byoc_onnx_model_free(&info);
        else byoc_module_destroy(m);
    }
    free(exe_names);
    return rc;
}
static int cmd_run(int argc, char **argv) { return cmd_run_or_compile(argc, argv, 0); }

/* ---- explain: where an ONNX node ran, in which kernel, and why there ---- */
/* the blob of a partition, NULL for none */
static const byoc_sim_blob_info *blob_of(const byoc_sim_executable *exe, const char *partition) {
    for (int b = 0; b < byoc_sim_executable_blob_count(exe); ++b)
        if (!strcmp(byoc_sim_executable_blob(exe, b)->function, partition)) return byoc_sim_executable_blob(exe, b);
    return NULL;
}
/* the cycles one layer spanned in the last run (its first command's start to its last one's end), and the
   device's clock */
static uint64_t layer_cycles(const byoc_sim_executable *exe, const byoc_sim_source_entry *e, double *mhz) {
    const byoc_sim_blob_info *blob = blob_of(exe, e->partition);
    uint64_t first = UINT64_MAX, last = 0;
    if (!blob) return 0;
    *mhz = byoc_sim_device_of(blob->program)->clock_mhz;
    for (int c = e->command_first; c >= 0 && c <= e->command_last; ++c) {
        byoc_sim_command_info ci = byoc_sim_device_command(blob->program, c);
        if (ci.start < first) first = ci.start;
        if (ci.start + ci.cycles > last) last = ci.start + ci.cycles;
    }
    return last > first && first != UINT64_MAX ? last - first : 0;
}
static int cmd_explain(int argc, char **argv) {
    const char *file = NULL, *node = NULL;
    int json = 0;
    for (int i = 0; i < argc; ++i) {
        if (!strcmp(argv[i], "--json")) json = 1;
        else if (argv[i][0] == '-' && argv[i][1]) return usage_error("explain: unknown option '%s'", argv[i]);
        else if (!file) file = argv[i];
        else if (!node) node = argv[i];
        else return usage_error("explain: more than one node ('%s')", argv[i]);
    }
    if (!file || !node) return usage_error("explain: expects MODEL.byoc NODE%s", "");
    byoc_diag d;
    byoc_sim_executable *exe = byoc_sim_executable_read(file, NULL, &d);
    if (!exe) return input_error(&d);
    int count = byoc_sim_executable_source_count(exe), found = 0;
    if (!count) {
        fprintf(stderr, "byocc: error: %s has no source map\n", file);
        byoc_sim_executable_destroy(exe);
        return EXIT_INPUT;
    }
    byoc_sim_program *p = byoc_sim_executable_program(exe);
    /* one run on zero inputs gives the simulated times (the device and host models do not depend on values) */
    int nin = byoc_sim_input_count(p), timed = nin <= MAX_IO;
    byoc_tensor zeros[MAX_IO];
    memset(zeros, 0, sizeof zeros);
    for (int i = 0; i < nin && i < MAX_IO; ++i) {
        const byoc_sim_io *io = byoc_sim_input(p, i);
        zeros[i].dtype = io->dtype;
        zeros[i].rank = io->rank;
        memcpy(zeros[i].dims, io->dims, sizeof zeros[i].dims);
        zeros[i].data = calloc(1, io->nbytes ? io->nbytes : 1);
        if (!zeros[i].data) timed = 0;
    }
    if (timed && byoc_sim_run(p, zeros, nin, NULL, 0, &d) != BYOC_OK) timed = 0;
    for (int i = 0; i < nin && i < MAX_IO; ++i) free(zeros[i].data);
    double total = timed ? byoc_sim_latency(p) : 0;
    if (json) printf("[");
    for (int i = 0; i < count; ++i) {
        const byoc_sim_source_entry *e = byoc_sim_executable_source(exe, i);
        const char *bare = strncmp(e->frontend, "onnx:", 5) ? e->frontend : e->frontend + 5;
        if (strcmp(e->frontend, node) && strcmp(bare, node)) continue;
        if (json) {
            printf("%s\n{\"frontend\":", found ? "," : "");
            json_string(e->frontend);
            printf(",\"op\":");
            json_string(e->frontend_op);
            if (e->removed) {
                printf(",\"removed\":");
                json_string(e->removed);
            } else {
                printf(",\"function\":");
                json_string(e->function);
                printf(",\"node\":");
                json_string(e->node);
                printf(",\"ir_op\":");
                json_string(e->op);
                printf(",\"composite\":");
                json_string(e->composite);
                printf(",\"backend\":");
                json_string(e->backend);
                printf(",\"kernel\":%d,\"kernel_name\":", e->kernel);
                json_string(e->kernel >= 0 ? byoc_sim_kernel(p, e->kernel)->name : "");
                double mhz = 0;
                printf(",\"layer\":%d,\"commands\":[%d,%d],\"command_offset\":%llu", e->layer, e->command_first, e->command_last, (unsigned long long)e->command_offset);
                if (timed && e->kernel >= 0) printf(",\"kernel_sim_seconds\":%.9g,\"total_sim_seconds\":%.9g", byoc_sim_kernel(p, e->kernel)->sim_seconds, total);
                if (timed && e->layer >= 0) printf(",\"layer_cycles\":%llu", (unsigned long long)layer_cycles(exe, e, &mhz));
                printf(",\"reason\":");
                json_string(e->reason);
            }
            printf("}");
            found++;
            continue;
        }
        if (!found++) printf("%s (%s)\n", e->frontend, e->frontend_op[0] ? e->frontend_op : "?");
        if (e->removed) {
            printf("  no op left: %s\n", e->removed);
            continue;
        }
        printf("  %s in @%s%s%s%s\n", e->op, e->function, e->node[0] ? " " : "", e->node, "");
        if (e->composite[0]) printf("    composite: %s\n", e->composite);
        printf("    runs on:   %s%s%s\n", e->backend, e->partition[0] ? ", partition @" : "", e->partition);
        if (e->kernel >= 0) {
            const byoc_sim_kernel_info *k = byoc_sim_kernel(p, e->kernel);
            printf("    kernel:    %d %.60s%s (%s, %d ops, on %s)\n", e->kernel, k->name, strlen(k->name) > 60 ? "..." : "", byoc_sim_exec_name(k->exec), k->nops, k->device);
        } else
            printf("    kernel:    none (a view of its input's buffer)\n");
        if (e->layer >= 0) {
            const byoc_sim_blob_info *blob = blob_of(exe, e->partition);
            printf("    layer:     %d, commands %d to %d (first record at byte %llu of the blob)\n", e->layer, e->command_first, e->command_last,
                   (unsigned long long)e->command_offset);
            if (blob) printf("    target:    %s\n", blob->target);
        }
        if (timed && e->kernel >= 0) {
            double mhz = 0, k = byoc_sim_kernel(p, e->kernel)->sim_seconds;
            uint64_t cycles = e->layer >= 0 ? layer_cycles(exe, e, &mhz) : 0;
            printf("    time:      kernel %d takes %.1f us of %.3f ms simulated (%.1f%%)", e->kernel, k * 1e6, total * 1e3, total > 0 ? 100 * k / total : 0.0);
            if (cycles && mhz > 0) printf("; its layer spans %llu cycles (%.1f us at %.0f MHz)", (unsigned long long)cycles, (double)cycles / mhz, mhz);
            printf("\n");
        }
        printf("    why:       %s\n", e->reason[0] ? e->reason : "(no placement recorded)");
    }
    if (json) printf("%s]\n", found ? "\n" : "");
    byoc_sim_executable_destroy(exe);
    if (!found) {
        fprintf(stderr, "byocc: error: %s: no frontend node '%s' in the source map (byocc compile --source-map FILE.json lists them)\n", file, node);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}
static int cmd_compile(int argc, char **argv) { return cmd_run_or_compile(argc, argv, 1); }

/* ---- import ---- */
static int cmd_import(int argc, char **argv) {
    const char *file = NULL, *out = NULL;
    unsigned flags = 0;
    byoc_onnx_input_shape shapes[MAX_IO];
    int nshapes = 0, named = 0;
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
        else if (strcmp(argv[i], "--input") == 0 && i + 1 < argc) { /* example tensors give symbolic dims their values */
            const char *spec = argv[++i], *eq = strchr(spec, '=');
            npy_array a;
            char msg[1200];
            if (nshapes == MAX_IO) return usage_error("import: at most 64 inputs%s", "");
            if (!tensor_read(eq ? eq + 1 : spec, &a, msg, sizeof msg)) { fprintf(stderr, "byocc: error: %s\n", msg); return EXIT_INPUT; }
            free(a.data);
            shapes[nshapes].input = NULL;
            if (eq) { argv[i][eq - spec] = 0; shapes[nshapes].input = spec; named++; }
            shapes[nshapes].rank = a.rank;
            memcpy(shapes[nshapes].dims, a.dims, sizeof a.dims);
            nshapes++;
        }
        else if (strcmp(argv[i], "--print-types") == 0) flags |= BYOC_PRINT_TYPES;
        else if (argv[i][0] == '-') return usage_error("import: unknown or incomplete option '%s'", argv[i]);
        else if (!file) file = argv[i];
        else return usage_error("import: more than one input file ('%s')", argv[i]);
    }
    if (!file) return usage_error("import: no input file%s", "");
    if (!ends_with(file, ".onnx")) return usage_error("import: '%s' is not an .onnx file", file);
    if (out && !ends_with(out, ".relay")) return usage_error("import: the output '%s' must end in .relay", out);
    if (named && named != nshapes) return usage_error("import: name every --input or none%s", "");
    byoc_diag d;
    byoc_onnx_model model;
    onnx_shapes = shapes;
    onnx_nshapes = nshapes;
    byoc_module *m = load_model_info(file, &model, &d);
    if (!m) return input_error(&d);
    int rc = EXIT_OK;
    if (out) {
        if (byoc_module_save(m, out, flags, &d) != BYOC_OK) rc = input_error(&d);
        else {
            fprintf(stderr, "byocc: %s: opset %d, %d nodes (%d evaluated at import), %d input%s, %d output%s -> %s\n", file, model.opset, model.nnodes,
                    model.nfolded, model.ninputs, model.ninputs == 1 ? "" : "s", model.noutputs, model.noutputs == 1 ? "" : "s", out);
        }
    } else {
        char *text = byoc_module_print(m, flags, NULL);
        if (!text) rc = EXIT_INTERNAL;
        else fputs(text, stdout);
        byoc_free(m, text);
    }
    byoc_onnx_model_free(&model);
    return rc;
}

/* takes every "--dim NAME=N" out of argv into onnx_dims; returns the new argc, or -1 after an error */
static int take_dim_flags(int argc, char **argv) {
    int kept = 0;
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--dim") != 0) { argv[kept++] = argv[i]; continue; }
        const char *kv = i + 1 < argc ? argv[++i] : "";
        const char *eq = strchr(kv, '=');
        char *end = NULL;
        long long v = eq ? strtoll(eq + 1, &end, 10) : 0;
        if (!eq || eq == kv || !end || *end || v < 1 || v > 2147483647LL) { usage_error("--dim expects NAME=N with N >= 1, got '%s'", kv); return -1; }
        if (onnx_ndims == MAX_DIMS) { usage_error("at most 32 --dim flags%s", ""); return -1; }
        size_t n = (size_t)(eq - kv);
        char *name = (char *)malloc(n + 1);
        if (!name) return -1;
        memcpy(name, kv, n);
        name[n] = 0;
        onnx_dims[onnx_ndims].name = name;
        onnx_dims[onnx_ndims++].value = v;
    }
    return kept;
}

/* ---- backends ---- */
static int cmd_backends(int argc, char **argv) {
    int json = argc == 1 && strcmp(argv[0], "--json") == 0;
    if (argc && !json) return usage_error("backends: unknown option '%s' (only --json)", argv[0]);
    byoc_diag d;
    char line[512];
    if (json) printf("{\"backends\": [");
    else printf("built-in backends (--backend NAME [-option=value]...; a .backend file with 'kind npu' or 'kind dsp' gets the same device model):\n");
    for (int i = 0; i < byoc_sim_builtin_backend_count(); ++i) {
        const char *spec_text = NULL, *name = byoc_sim_builtin_backend(i, &spec_text);
        byoc_sim_backend *b = open_backend(name, &d);
        if (!b) return input_error(&d);
        byoc_sim_device_describe(&b->device, line, sizeof line);
        if (json) {
            printf("%s\n  {\"name\": \"%s\", \"kind\": \"%s\", \"device\": \"%s\", \"preset\": \"%s\", \"priority\": %d, \"patterns\": [", i ? "," : "", name,
                   b->spec->kind ? b->spec->kind : name, line, b->device.preset, b->spec->priority);
            for (int k = 0; k < b->spec->npatterns; ++k) printf("%s\"%s\"", k ? ", " : "", b->spec->patterns[k].name);
            printf("], \"ops\": [");
            for (int k = 0; k < b->spec->nsupport; ++k) printf("%s\"%s\"", k ? ", " : "", b->spec->support[k].op);
            printf("]}");
            continue;
        }
        printf("  %-5s %s\n        priority %d; patterns:", name, line, b->spec->priority);
        for (int k = 0; k < b->spec->npatterns; ++k) printf(" %s", b->spec->patterns[k].name);
        printf("\n        ops:");
        for (int k = 0; k < b->spec->nsupport; ++k) printf(" %s", b->spec->support[k].op);
        printf("\n");
    }
    if (json) printf("\n], \"presets\": [");
    else printf("\npresets (-preset=NAME):\n");
    for (int i = 0; i < byoc_sim_preset_count(); ++i) {
        const char *about = NULL;
        const byoc_sim_device *p = byoc_sim_preset(i, &about);
        byoc_sim_device_describe(p, line, sizeof line);
        if (json) printf("%s\n  {\"name\": \"%s\", \"device\": \"%s\", \"about\": \"%s\"}", i ? "," : "", p->preset, line, about);
        else printf("  %-14s %s\n                 %s\n", p->preset, line, about);
    }
    if (json) printf("\n]}\n");
    else
        printf("\ndevice options (in .backend files: option NAME VALUE; after --backend: -NAME=VALUE): preset, clock_mhz, rows, cols,\n"
               "dataflow (\"os\"|\"ws\"), lanes, sram_kb, dram_bytes_per_cycle, dram_latency, burst_bytes, launch_cycles, double_buffer,\n"
               "dtypes (\"float32,int8\")\n");
    return EXIT_OK;
}

static int run_command(int argc, char **argv);

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(usage_text, stderr);
        fputs(usage_text_more, stderr);
        return EXIT_USAGE;
    }
    argc = take_dim_flags(argc, argv);
    if (argc < 0) return EXIT_USAGE;
    int rc = run_command(argc, argv);
    close_backends();
    return rc;
}

static int run_command(int argc, char **argv) {
    const char *cmd = argv[1];
    if (strcmp(cmd, "backends") == 0) return cmd_backends(argc - 2, argv + 2);
    if (strcmp(cmd, "import") == 0) return cmd_import(argc - 2, argv + 2);
    if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2);
    if (strcmp(cmd, "compile") == 0) return cmd_compile(argc - 2, argv + 2);
    if (strcmp(cmd, "explain") == 0) return cmd_explain(argc - 2, argv + 2);
    if (strcmp(cmd, "opt") == 0) return cmd_opt(argc - 2, argv + 2);
    if (strcmp(cmd, "info") == 0) return cmd_info(argc - 2, argv + 2);
    if (strcmp(cmd, "match") == 0) return cmd_match(argc - 2, argv + 2);
    if (strcmp(cmd, "partition") == 0) return cmd_partition(argc - 2, argv + 2);
    if (strcmp(cmd, "ops") == 0) return cmd_ops(argc - 2, argv + 2);
    if (strcmp(cmd, "passes") == 0) return cmd_passes();
    if (strcmp(cmd, "version") == 0) { printf("byocc %s\n", BYOC_VERSION_STRING); return EXIT_OK; }
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) { fputs(usage_text, stdout); fputs(usage_text_more, stdout); return EXIT_OK; }
    return usage_error("unknown command '%s'", cmd);
}
