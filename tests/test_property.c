/* Property tests: seeded random DAGs (mixed op kinds, fan-out, tuples, constants, stop_fusion) with
   random op support per backend go through AnnotateTarget -> MergeCompilerRegions -> PartitionGraph,
   and through FuseOps. Every result must verify (well formed, typed, acyclic), keep every original op
   exactly once, and keep each fused group within max_depth. */
#include "byoc.h"
#include "test.h"

#include <stdlib.h>

#define GRAPHS 500

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) { /* splitmix64, uniform enough for test generation */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) % n);
}

static const char *const op_names[] = {"nn.relu", "sigmoid", "tanh", "exp", "abs", "negative", "add", "multiply", "subtract",
                                       "maximum", "nn.conv2d", "nn.max_pool2d", "nn.softmax", "concatenate", "split", "reshape"};
#define NOPS (int)(sizeof op_names / sizeof op_names[0])

static const byoc_type *feature_type(byoc_module *m) {
    int64_t d[4] = {1, 8, 4, 4};
    return byoc_tensor_type(m, BYOC_FLOAT32, 4, d);
}

static byoc_node *constant(byoc_module *m, int64_t a, int64_t b, int64_t c, int64_t d) {
    int64_t dims[4] = {a, b, c, d};
    return byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, 4, dims), NULL, 0);
}

/* a random DAG of feature maps (1, 8, 4, 4); returns main's body */
static byoc_node *random_graph(byoc_module *m, byoc_node **x_out) {
    byoc_node *x = byoc_var(m, "x", feature_type(m));
    byoc_node *vals[64];
    int used[64] = {0};
    int n = 1, target = 4 + (int)rnd(28);
    vals[0] = x;
    *x_out = x;
    while (n < target) {
        /* inputs mostly from the recent values, sometimes from far back (fan-out) */
        int a = rnd(4) ? n - 1 - (int)rnd((uint32_t)(n < 3 ? n : 3)) : (int)rnd((uint32_t)n), b = (int)rnd((uint32_t)n);
        byoc_node *r = NULL;
        int op = (int)rnd(NOPS + 2);
        if (op < 6) r = byoc_call(m, op_names[op], &vals[a], 1, NULL);
        else if (op < 10) {
            byoc_node *args[2] = {vals[a], rnd(3) ? vals[b] : constant(m, 1, 8, 1, 1)};
            r = byoc_call(m, op_names[op], args, 2, NULL);
        } else if (op == 10) {
            byoc_node *args[2] = {vals[a], constant(m, 8, 8, 1, 1)};
            r = byoc_call(m, "nn.conv2d", args, 2, NULL);
        } else if (op == 11) {
            r = byoc_call(m, "nn.max_pool2d", &vals[a], 1, NULL);
        } else if (op == 12) {
            r = byoc_call(m, "nn.softmax", &vals[a], 1, NULL);
        } else if (op == 13 || op == 14) { /* concatenate on channels, then split back: tuples and projections */
            byoc_node *fields[2] = {vals[a], vals[b]};
            byoc_node *t = byoc_tuple(m, fields, 2);
            byoc_attrs at = {0};
            byoc_attrs_set_int(m, &at, "axis", 1);
            byoc_node *cat = byoc_call(m, "concatenate", &t, 1, &at);
            byoc_attrs sa = {0};
            byoc_attrs_set_int(m, &sa, "indices_or_sections", 2);
            byoc_attrs_set_int(m, &sa, "axis", 1);
            byoc_node *sp = byoc_call(m, "split", &cat, 1, &sa);
            r = byoc_tuple_get_item(m, sp, (int)rnd(2));
        } else if (op == 15) {
            int64_t flat[2] = {1, 128}, back[4] = {1, 8, 4, 4};
            byoc_attrs r1 = {0}, r2 = {0};
            byoc_attrs_set_ints(m, &r1, "newshape", flat, 2);
            byoc_attrs_set_ints(m, &r2, "newshape", back, 4);
            byoc_node *f = byoc_call(m, "reshape", &vals[a], 1, &r1);
            r = byoc_call(m, "reshape", &f, 1, &r2);
        } else
            r = byoc_call(m, "annotation.stop_fusion", &vals[a], 1, NULL);
        used[a] = used[b] = 1;
        vals[n++] = r;
    }
    /* the result: every value nobody used, as a tuple when there are several */
    byoc_node *outs[64];
    int no = 0;
    for (int i = 1; i < n; ++i)
        if (!used[i] || i == n - 1) outs[no++] = vals[i];
    return no == 1 ? outs[0] : byoc_tuple(m, outs, no);
}

/* op name -> count over every function of the module */
typedef struct op_tally { int counts[128]; } op_tally;
static void tally(byoc_module *m, op_tally *t) {
    memset(t, 0, sizeof *t);
    for (int f = 0; f < byoc_module_function_count(m); ++f) {
        byoc_graph g;
        byoc_graph_build(m, byoc_module_function_at(m, f).function, BYOC_GRAPH_ENTER_FUNCTIONS, &g);
        for (int i = 0; i < g.count; ++i) {
            const byoc_node *n = g.nodes[i].node;
            if (n->kind != BYOC_NODE_CALL || !n->op) continue;
            for (int k = 0; k < byoc_op_count() && k < 128; ++k)
                if (byoc_op_at(k) == n->op) t->counts[k]++;
        }
        byoc_graph_free(&g);
    }
}

static int tally_equal(const op_tally *a, const op_tally *b, char *why, size_t cap) {
    for (int k = 0; k < 128; ++k)
        if (a->counts[k] != b->counts[k] && strcmp(byoc_op_at(k)->def.name, "annotation.stop_fusion") != 0) {
            snprintf(why, cap, "%s: %d before, %d after", byoc_op_at(k)->def.name, a->counts[k], b->counts[k]);
            return 0;
        }
    return 1;
}

static byoc_backend_spec *random_backend(const char *name) {
    char text[1024];
    int len = snprintf(text, sizeof text, "backend %s\nsupports", name);
    for (int i = 0; i < NOPS; ++i)
        if (rnd(2)) len += snprintf(text + len, sizeof text - (size_t)len, " %s", op_names[i]);
    if (rnd(2)) len += snprintf(text + len, sizeof text - (size_t)len, " annotation.stop_fusion");
    byoc_diag d;
    return byoc_backend_parse(text, (size_t)len, name, &d);
}

/* largest number of op calls in one Primitive function */
static int max_group(byoc_module *m) {
    byoc_graph g;
    int worst = 0;
    byoc_graph_build(m, byoc_module_function(m, "main"), BYOC_GRAPH_ENTER_FUNCTIONS, &g);
    for (int i = 0; i < g.count; ++i) {
        const byoc_node *fn = g.nodes[i].node;
        if (fn->kind != BYOC_NODE_FUNCTION || !byoc_attrs_get(&fn->attrs, "Primitive")) continue;
        byoc_graph inner;
        byoc_graph_build(m, fn->body, 0, &inner);
        int ops = 0;
        for (int k = 0; k < inner.count; ++k) ops += inner.nodes[k].node->kind == BYOC_NODE_CALL;
        if (ops > worst) worst = ops;
        byoc_graph_free(&inner);
    }
    byoc_graph_free(&g);
    return worst;
}

/* a typed module whose @main is a random graph (from the current rng state); NULL and *d on failure */
static byoc_module *random_module(byoc_diag *d) {
    byoc_module *m = byoc_module_create(NULL);
    byoc_node *x;
    byoc_node *body = random_graph(m, &x);
    byoc_module_add_function(m, "main", byoc_function(m, &x, 1, body, NULL, NULL));
    if (byoc_module_error(m)) *d = *byoc_module_error(m);
    if (byoc_module_error(m) || byoc_infer_type(m, d) != BYOC_OK) {
        byoc_module_destroy(m);
        return NULL;
    }
    return m;
}

/* Passes keep types they know hold: every type in m must be the one a fresh InferType finds on a
   copy of m (a copy has no types; its nodes come in the same order). */
static int types_match_fresh_inference(byoc_module *m, char *why, size_t cap) {
    byoc_module *fresh = byoc_module_clone(m, NULL);
    byoc_diag d;
    int ok = fresh && byoc_infer_type(fresh, &d) == BYOC_OK;
    if (!ok) snprintf(why, cap, "the copy does not type: %s", fresh ? d.message : "clone failed");
    for (int f = 0; ok && f < byoc_module_function_count(m); ++f) {
        byoc_graph a, b;
        byoc_graph_build(m, byoc_module_function_at(m, f).function, BYOC_GRAPH_ENTER_FUNCTIONS, &a);
        byoc_graph_build(fresh, byoc_module_function_at(fresh, f).function, BYOC_GRAPH_ENTER_FUNCTIONS, &b);
        ok = a.count == b.count;
        if (!ok) snprintf(why, cap, "@%s: %d nodes, its copy %d", byoc_module_function_at(m, f).name, a.count, b.count);
        for (int i = 0; ok && i < a.count; ++i) {
            const byoc_node *x = a.nodes[i].node, *y = b.nodes[i].node;
            if (x->kind == BYOC_NODE_GLOBAL_VAR) continue; /* looked up again by every InferType */
            ok = byoc_type_equal(x->checked_type, y->checked_type);
            if (!ok) {
                char t1[160], t2[160];
                byoc_type_to_string(x->checked_type, t1, sizeof t1);
                byoc_type_to_string(y->checked_type, t2, sizeof t2);
                snprintf(why, cap, "@%s node #%u has type %s, InferType finds %s", byoc_module_function_at(m, f).name, x->id, t1, t2);
            }
        }
        byoc_graph_free(&a);
        byoc_graph_free(&b);
    }
    byoc_module_destroy(fresh);
    return ok;
}

static void test_random_partitions(void) {
    char why[512];
    for (int seed = 1; seed <= GRAPHS; ++seed) {
        rng_state = (uint64_t)seed * 7919;
        byoc_diag d;
        byoc_module *m = random_module(&d);
        CHECKF(m, "seed %d: %s", seed, d.message);
        op_tally before, after;
        tally(m, &before);
        byoc_module *fused = byoc_module_clone(m, NULL);
        byoc_backend_spec *b0 = random_backend("npu"), *b1 = random_backend("dsp");
        const byoc_backend_spec *backends[2] = {b0, b1};
        int include_non_call = (int)rnd(2);
        CHECKF(byoc_annotate_target(m, backends, 2, include_non_call, &d) == BYOC_OK, "seed %d: annotate: %s", seed, d.message);
        CHECKF(byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "seed %d: after annotate: %s", seed, d.message);
        CHECKF(byoc_merge_compiler_regions(m, &d) == BYOC_OK, "seed %d: merge: %s", seed, d.message);
        CHECKF(byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "seed %d: after merge: %s", seed, d.message);
        CHECKF(byoc_partition_graph(m, "default", (int)rnd(2), &d) == BYOC_OK, "seed %d: partition: %s", seed, d.message);
        CHECKF(byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "seed %d: after partition: %s", seed, d.message);
        CHECKF(types_match_fresh_inference(m, why, sizeof why), "seed %d: after partition: %s", seed, why);
        tally(m, &after);
        CHECKF(tally_equal(&before, &after, why, sizeof why), "seed %d: partitioning changed the ops: %s", seed, why);
        /* no annotation survives, every offloaded function is a Compiler function called from main */
        CHECKF(after.counts[0] >= 0, "seed %d", seed);
        for (int f = 0; f < byoc_module_function_count(m); ++f) {
            byoc_global_function gf = byoc_module_function_at(m, f);
            if (!strcmp(gf.name, "main")) continue;
            const char *compiler = byoc_attrs_string(&gf.function->attrs, "Compiler", NULL);
            CHECKF(compiler && (!strcmp(compiler, "npu") || !strcmp(compiler, "dsp")), "seed %d: @%s has Compiler %s", seed, gf.name,
                   compiler ? compiler : "(none)");
        }
        char *text = byoc_module_print(m, 0, NULL);
        CHECKF(!strstr(text, "annotation.compiler_"), "seed %d: annotations left behind", seed);
        byoc_free(m, text);
        /* FuseOps on the original graph */
        int max_depth = 1 + (int)rnd(8);
        CHECKF(byoc_fuse_ops(fused, max_depth, &d) == BYOC_OK, "seed %d: fuse: %s", seed, d.message);
        CHECKF(byoc_verify(fused, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "seed %d: after fuse: %s", seed, d.message);
        CHECKF(types_match_fresh_inference(fused, why, sizeof why), "seed %d: after fuse: %s", seed, why);
        tally(fused, &after);
        CHECKF(tally_equal(&before, &after, why, sizeof why), "seed %d: fusion changed the ops: %s", seed, why);
        int worst = max_group(fused);
        CHECKF(worst <= max_depth, "seed %d: a fused group has %d ops, max_depth %d", seed, worst, max_depth);
        byoc_backend_free(b0);
        byoc_backend_free(b1);
        byoc_module_destroy(fused);
        byoc_module_destroy(m);
    }
}

/* a backend with random op support, an add->relu pattern half the time, and constraints that hold
   on some nodes only */
static byoc_backend_spec *random_constrained_backend(const char *name, int priority) {
    char text[2048];
    int len = snprintf(text, sizeof text, "backend %s\npriority %d\n", name, priority);
    if (rnd(2)) len += snprintf(text + len, sizeof text - (size_t)len, "pattern add_relu = is_op(\"nn.relu\")(is_op(\"add\")(wildcard(), wildcard()))\n");
    len += snprintf(text + len, sizeof text - (size_t)len, "supports");
    int any = 0;
    for (int i = 0; i < NOPS; ++i)
        if (rnd(2)) { len += snprintf(text + len, sizeof text - (size_t)len, " %s", op_names[i]); any = 1; }
    if (!any) len += snprintf(text + len, sizeof text - (size_t)len, " tanh");
    if (rnd(2)) len += snprintf(text + len, sizeof text - (size_t)len, "\n    require out.shape[1] <= %u \"narrow outputs only\"", 1 + rnd(16));
    byoc_diag d;
    byoc_backend_spec *b = byoc_backend_parse(text, (size_t)len, name, &d);
    if (!b) fprintf(stderr, "backend: %s\n", d.message);
    return b;
}

static void test_random_greedy(void) {
    char why[512];
    for (int seed = 1; seed <= GRAPHS; ++seed) {
        rng_state = (uint64_t)seed * 104729;
        byoc_diag d;
        byoc_module *m = random_module(&d);
        CHECKF(m, "seed %d: %s", seed, d.message);
        op_tally before, after;
        tally(m, &before);
        int total_ops = 0;
        for (int k = 0; k < 128; ++k) total_ops += before.counts[k];
        byoc_backend_spec *b0 = random_constrained_backend("npu", (int)rnd(3)), *b1 = random_constrained_backend("dsp", (int)rnd(3));
        const byoc_backend_spec *backends[2] = {b0, b1};
        byoc_partition_options o;
        memset(&o, 0, sizeof o);
        o.backends = backends;
        o.nbackends = 2;
        o.min_partition_ops = (int)rnd(4);
        o.max_partitions = (int)rnd(5);
        o.no_merge_regions = rnd(4) == 0;
        o.bind_constants = (int)rnd(2);
        byoc_pin pin;
        char pin_node[32];
        snprintf(pin_node, sizeof pin_node, "#%u", 2 + rnd(40));
        pin.node = pin_node;
        pin.backend = "host";
        o.pins = &pin;
        o.npins = rnd(2) ? 1 : 0;
        byoc_placement_report *rep = NULL;
        byoc_result r = byoc_partition_greedy(m, &o, &rep, &d);
        /* a pin naming a node that is not an op is refused; nothing else may fail */
        CHECKF(r == BYOC_OK || (o.npins && strstr(d.message, "no op is named")), "seed %d: greedy: %s", seed, d.message);
        if (r == BYOC_OK) {
            CHECKF(byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "seed %d: after greedy: %s", seed, d.message);
            CHECKF(types_match_fresh_inference(m, why, sizeof why), "seed %d: after greedy: %s", seed, why);
            tally(m, &after);
            CHECKF(tally_equal(&before, &after, why, sizeof why), "seed %d: greedy changed the ops: %s", seed, why);
            CHECKF(rep && rep->count == total_ops, "seed %d: report has %d ops, module %d", seed, rep ? rep->count : -1, total_ops);
            CHECKF(!o.max_partitions || rep->npartitions <= o.max_partitions, "seed %d: %d partitions, max %d", seed, rep->npartitions, o.max_partitions);
            for (int p = 0; p < rep->npartitions; ++p)
                CHECKF(rep->partitions[p].nops >= o.min_partition_ops, "seed %d: partition %s has %d ops, min %d", seed, rep->partitions[p].function,
                       rep->partitions[p].nops, o.min_partition_ops);
            for (int q = 0; q < rep->count; ++q) {
                const byoc_placement *pl = &rep->nodes[q];
                if (pl->partition) {
                    const byoc_node *fn = byoc_module_function(m, pl->partition);
                    CHECKF(fn && !strcmp(byoc_attrs_string(&fn->attrs, "Compiler", ""), pl->backend), "seed %d: %s placed on %s but in %s", seed,
                           pl->label, pl->backend, pl->partition);
                } else
                    CHECKF(!strcmp(pl->backend, "host"), "seed %d: %s on %s without a partition", seed, pl->label, pl->backend);
                if (o.npins && (unsigned)atoi(pin_node + 1) == pl->origin)
                    CHECKF(!strcmp(pl->backend, "host"), "seed %d: %s pinned to host runs on %s", seed, pl->label, pl->backend);
                /* a host op was declined by every backend, with a reason */
                if (!strcmp(pl->backend, "host")) CHECKF(pl->ndeclined == 2, "seed %d: host op %s has %d reasons", seed, pl->label, pl->ndeclined);
            }
            for (int f = 0; f < 3; ++f) {
                static const char *const formats[] = {"report", "json", "dot"};
                char *text = byoc_placement_report_format(rep, formats[f], NULL);
                CHECKF(text && strlen(text) > 10, "seed %d: %s output", seed, formats[f]);
                byoc_free(rep->arena, text);
            }
        }
        byoc_placement_report_free(rep);
        byoc_backend_free(b0);
        byoc_backend_free(b1);
        byoc_module_destroy(m);
    }
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_random_partitions),
        TEST_ENTRY(test_random_greedy),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
