/* byocc -- the byoc.h command-line tool.
   Build: cc -std=c99 -O2 -I. tools/byocc.c -o build/byocc -lm
   Exit codes: 0 ok, 1 usage, 2 invalid input (message names file and position), 3 internal error. */
#define BYOC_IMPLEMENTATION
#include "../byoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_INPUT = 2, EXIT_INTERNAL = 3 };

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
    "  partition FILE.relay --backend B.backend... [--emit report|json|dot|relay] [--strategy greedy]\n"
    "      [--pin NODE=BACKEND]... [--no-fallback] [--min-partition-ops N] [--max-partitions N]\n"
    "      [--no-merge-regions] [--config KEY=VALUE]... [-o OUT.relay]\n"
    "        place every op on the first backend (by priority, then as given) that takes it, host last;\n"
    "        NODE is a frontend name, a %N label of @main or #ID\n"
    "  match FILE.relay (--pattern TEXT | --pattern-file F) [--partition NAME]\n"
    "        list the expressions of @main the pattern matches (outputs first, as the matcher visits them);\n"
    "        with --partition, group each non-overlapping match into fn(...) { ... } with Composite=NAME\n"
    "        and print the module\n"
    "  info FILE.relay [--json]\n"
    "        node count, op histogram, parameter bytes, input and output types\n"
    "  ops [--json]\n"
    "        the registered ops with their pattern kind and attributes\n"
    "  passes\n"
    "        the registered passes and configuration keys\n"
    "  version\n"
    "\n"
    "FILE.relay loads FILE.weights beside it when present (else constants get seeded values).\n";

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

static byoc_module *load_model(const char *path, byoc_diag *d) {
    size_t n = strlen(path);
    if (n < 6 || strcmp(path + n - 6, ".relay") != 0) {
        d->code = BYOC_ERR_UNSUPPORTED;
        snprintf(d->message, sizeof d->message, "%s: unsupported model file (expected FILE.relay)", path);
        return NULL;
    }
    return byoc_module_load(path, NULL, d);
}

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
    byoc_backend_spec *backends[16];
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
            byoc_backend_spec *b = byoc_backend_load(argv[++i], &d);
            if (!b) { rc = input_error(&d); break; }
            backends[nbackends++] = b;
            if (byoc_pass_context_add_backend(ctx, b, &d) != BYOC_OK) rc = input_error(&d);
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
    for (int k = 0; k < nbackends; ++k) byoc_backend_free(backends[k]);
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
    const char *file = NULL, *emit = "report", *out = NULL, *strategy = "greedy";
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
        else if (strcmp(a, "--strategy") == 0 && i + 1 < argc) strategy = argv[++i];
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
            byoc_backend_spec *b = byoc_backend_load(argv[++i], &d);
            if (!b) { rc = input_error(&d); break; }
            backends[nbackends++] = b;
        } else if (strcmp(a, "--config") == 0 && i + 1 < argc) rc = set_config(ctx, "partition", argv[++i]);
        else if (a[0] == '-') rc = usage_error("partition: unknown or incomplete option '%s'", a);
        else if (!file) file = a;
        else rc = usage_error("partition: more than one input file ('%s')", a);
    }
    if (rc == EXIT_OK && !file) rc = usage_error("partition: no input file%s", "");
    if (rc == EXIT_OK && strcmp(strategy, "greedy") != 0) rc = usage_error("partition: --strategy '%s' is not available (greedy)", strategy);
    if (rc == EXIT_OK && strcmp(emit, "report") && strcmp(emit, "json") && strcmp(emit, "dot") && strcmp(emit, "relay"))
        rc = usage_error("partition: --emit '%s' is not one of report, json, dot, relay", emit);
    byoc_module *m = NULL;
    if (rc == EXIT_OK && !(m = load_model(file, &d))) rc = input_error(&d);
    byoc_placement_report *rep = NULL;
    if (rc == EXIT_OK) {
        o.backends = (const byoc_backend_spec *const *)backends;
        o.nbackends = nbackends;
        o.pins = pins;
        o.npins = npins;
        o.mod_name = byoc_pass_context_string(ctx, "partition_graph.mod_name");
        o.bind_constants = (int)byoc_pass_context_int(ctx, "partition_graph.bind_constants");
        if (byoc_partition_greedy(m, &o, &rep, &d) != BYOC_OK) rc = input_error(&d);
    }
    if (rc == EXIT_OK && out && byoc_module_save(m, out, 0, &d) != BYOC_OK) rc = input_error(&d);
    if (rc == EXIT_OK) {
        size_t len = 0;
        char *text = strcmp(emit, "relay") == 0 ? byoc_module_print(m, 0, &len) : byoc_placement_report_format(rep, emit, &len);
        if (!text) {
            fprintf(stderr, "byocc: error: out of memory formatting the result\n");
            rc = EXIT_INTERNAL;
        } else {
            fwrite(text, 1, len, stdout);
            if (strcmp(emit, "relay") == 0) byoc_free(m, text);
            else byoc_free(rep->arena, text);
        }
    }
    byoc_placement_report_free(rep);
    byoc_module_destroy(m);
    byoc_pass_context_destroy(ctx);
    for (int k = 0; k < nbackends; ++k) byoc_backend_free(backends[k]);
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

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "opt") == 0) return cmd_opt(argc - 2, argv + 2);
    if (strcmp(cmd, "info") == 0) return cmd_info(argc - 2, argv + 2);
    if (strcmp(cmd, "match") == 0) return cmd_match(argc - 2, argv + 2);
    if (strcmp(cmd, "partition") == 0) return cmd_partition(argc - 2, argv + 2);
    if (strcmp(cmd, "ops") == 0) return cmd_ops(argc - 2, argv + 2);
    if (strcmp(cmd, "passes") == 0) return cmd_passes();
    if (strcmp(cmd, "version") == 0) { printf("byocc %s\n", BYOC_VERSION_STRING); return EXIT_OK; }
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) { fputs(usage_text, stdout); return EXIT_OK; }
    return usage_error("unknown command '%s'", cmd);
}
