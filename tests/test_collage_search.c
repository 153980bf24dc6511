/* The Collage search (byoc_partition_collage) with the mock estimator:
   - exact: on random graphs of up to 14 ops its optimum equals a brute-force enumeration of every plan
     (partitions chosen from every valid sub-graph per backend, plus the greedy plans' partitions);
   - never worse than greedy: on 500 random graphs, searched <= greedy <= each single-backend plan's
     cost is not required, but searched <= all of them is;
   - deterministic: the same input gives the same placement twice;
   - bounded: past the state budget the beam takes over, says so, and still returns a plan;
   - replay: a saved placement reproduces the partitioned module; a placement for another model is refused;
   - threads: with byoc_collage_options.parallel (here a parallel_for of plain pthreads, as an embedding program
     with a pool of its own passes one) every statistic, the placement and the partitioned module are those of
     the search on one thread. */
#include "byoc.h"
#include "test.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#define STBDS_NO_SHORT_NAMES
#include <stb/stb_ds.h> /* its implementation is in the library's object */

static uint64_t rng = 12345;
static int rnd(int n) {
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int)((rng >> 33) % (uint64_t)n);
}

/* a random graph of elementwise and broadcast ops over two inputs; the result is the tuple of every
   value nobody uses (or that value alone) */
static char *random_graph(int nops) {
    static const char *const unary[] = {"nn.relu", "abs", "tanh", "exp", "negative", "sigmoid"};
    static const char *const binary[] = {"add", "multiply", "subtract", "maximum"};
    size_t cap = 8192, len = 0;
    char *t = (char *)malloc(cap);
    int used[64] = {0};
    len += (size_t)snprintf(t + len, cap - len, "def @main(%%x: Tensor[(8), float32], %%y: Tensor[(8), float32]) {\n");
    for (int i = 0; i < nops; ++i) {
        /* values: -2 = %x, -1 = %y, j >= 0 = %j; recent values are likelier (graphs stay local) */
        int a = i == 0 ? -2 : i - 1 - rnd(i < 4 ? i : 4), b = rnd(3) == 0 ? -1 - rnd(2) : i - 1 - rnd(i < 6 ? i + 1 : 6);
        if (b < -2) b = -2;
        char sa[16], sb[16];
        if (a < 0) snprintf(sa, sizeof sa, "%s", a == -2 ? "%x" : "%y");
        else snprintf(sa, sizeof sa, "%%%d", a), used[a] = 1;
        if (b < 0) snprintf(sb, sizeof sb, "%s", b == -2 ? "%x" : "%y");
        else snprintf(sb, sizeof sb, "%%%d", b);
        if (rnd(2) == 0 || i == 0) len += (size_t)snprintf(t + len, cap - len, "  %%%d = %s(%s);\n", i, unary[rnd(6)], sa);
        else {
            if (b >= 0) used[b] = 1;
            len += (size_t)snprintf(t + len, cap - len, "  %%%d = %s(%s, %s);\n", i, binary[rnd(4)], sa, sb);
        }
    }
    int sinks = 0;
    for (int i = 0; i < nops; ++i) sinks += !used[i];
    if (sinks == 1) len += (size_t)snprintf(t + len, cap - len, "  %%%d\n}\n", nops - 1);
    else {
        len += (size_t)snprintf(t + len, cap - len, "  (");
        for (int i = 0, k = 0; i < nops; ++i)
            if (!used[i]) len += (size_t)snprintf(t + len, cap - len, "%s%%%d", k++ ? ", " : "", i);
        len += (size_t)snprintf(t + len, cap - len, ")\n}\n");
    }
    return t;
}

typedef struct world {
    byoc_backend_spec *npu, *dsp;
    const byoc_backend_spec *backends[2];
    const char *names[3];
    double base[3];
    byoc_collage_mock mock;
} world;

static int world_open(world *w) {
    static const char npu_text[] = "backend npu\npriority 20\nsupports add multiply nn.relu abs maximum\n";
    static const char dsp_text[] = "backend dsp\npriority 10\nsupports tanh exp sigmoid add negative subtract\n";
    byoc_diag d;
    memset(w, 0, sizeof *w);
    w->npu = byoc_backend_parse(npu_text, sizeof npu_text - 1, "npu.backend", &d);
    w->dsp = byoc_backend_parse(dsp_text, sizeof dsp_text - 1, "dsp.backend", &d);
    w->backends[0] = w->npu;
    w->backends[1] = w->dsp;
    w->names[0] = "npu";
    w->names[1] = "dsp";
    w->names[2] = "host";
    w->mock.names = w->names;
    w->mock.base = w->base;
    w->mock.count = 3;
    return w->npu && w->dsp;
}
static void world_close(world *w) {
    byoc_backend_free(w->npu);
    byoc_backend_free(w->dsp);
}
static void world_costs(world *w) { /* launch-heavy devices, a slow host: mixes are common */
    w->base[0] = 1 + rnd(40) / 10.0;
    w->base[1] = 1 + rnd(40) / 10.0;
    w->base[2] = 2 + rnd(30) / 10.0;
}

static void options_for(const world *w, byoc_collage_options *o, int max_depth) {
    memset(o, 0, sizeof *o);
    o->backends = w->backends;
    o->nbackends = 2;
    o->cost = byoc_collage_mock_cost;
    o->cost_data = (void *)&w->mock;
    o->max_depth = o->host_max_depth = max_depth;
    o->bind_constants = 1;
}

/* ---- the brute force: every plan from every valid block ---- */
typedef struct brute {
    const byoc_graph *g;
    int n;                 /* graph nodes (<= 32) */
    uint32_t required;
    uint32_t *blocks;      /* stb_ds */
    double *cost;
    int *backend;
    double best;
    uint32_t chosen[32];
} brute;

static int bits(uint32_t x) { int n = 0; for (; x; x &= x - 1) n++; return n; }

/* convex, one exit, depth <= max_depth (computed here, apart from the library) */
static int block_valid(const byoc_graph *g, uint32_t s, int max_depth) {
    int depth[32] = {0}, exits = 0, last = 0;
    for (int i = 0; i < g->count; ++i) {
        if (!(s >> i & 1)) continue;
        last = i;
        int d = 0;
        for (int k = 0; k < g->nodes[i].ninputs; ++k)
            if (s >> g->nodes[i].inputs[k] & 1 && depth[g->nodes[i].inputs[k]] > d) d = depth[g->nodes[i].inputs[k]];
        depth[i] = d + 1;
        if (depth[i] > max_depth) return 0;
        int out = i == g->count - 1;
        for (int k = 0; k < g->nodes[i].nusers; ++k) out |= !(s >> g->nodes[i].users[k] & 1);
        exits += out;
    }
    if (exits != 1) return 0;
    /* a node outside reachable from inside must not reach inside */
    uint32_t reach = 0;
    for (int i = 0; i <= last; ++i) {
        int from_inside = 0;
        for (int k = 0; k < g->nodes[i].ninputs; ++k) {
            int j = g->nodes[i].inputs[k];
            if ((s >> j & 1) || (reach >> j & 1)) from_inside = 1;
        }
        if (!(s >> i & 1) && from_inside) reach |= 1u << i;
        if ((s >> i & 1)) {
            for (int k = 0; k < g->nodes[i].ninputs; ++k)
                if (reach >> g->nodes[i].inputs[k] & 1) return 0;
        }
    }
    return 1;
}

static int plan_acyclic(const byoc_graph *g, const uint32_t *blocks, int nb) {
    int owner[32];
    for (int i = 0; i < g->count; ++i) owner[i] = -1;
    for (int b = 0; b < nb; ++b)
        for (int i = 0; i < g->count; ++i)
            if (blocks[b] >> i & 1) owner[i] = b;
    uint32_t succ[32] = {0};
    for (int i = 0; i < g->count; ++i)
        for (int k = 0; k < g->nodes[i].nusers; ++k) {
            int a = owner[i], c = owner[g->nodes[i].users[k]];
            if (a >= 0 && c >= 0 && a != c) succ[a] |= 1u << c;
        }
    /* repeatedly remove blocks without predecessors */
    uint32_t left = nb == 32 ? ~0u : (1u << nb) - 1;
    for (int round = 0; round < nb; ++round)
        for (int b = 0; b < nb; ++b) {
            if (!(left >> b & 1)) continue;
            int has_pred = 0;
            for (int a = 0; a < nb; ++a) has_pred |= (left >> a & 1) && a != b && (succ[a] >> b & 1);
            if (!has_pred) left &= ~(1u << b);
        }
    return left == 0;
}

static void dfs(brute *br, uint32_t covered, double cost, int depth) {
    if (cost >= br->best - 1e-12) return;
    uint32_t open = br->required & ~covered;
    if (!open) {
        if (plan_acyclic(br->g, br->chosen, depth)) br->best = cost;
        return;
    }
    int v = 0;
    while (!(open >> v & 1)) v++;
    for (int b = 0; b < (int)stbds_arrlen(br->blocks); ++b) {
        uint32_t s = br->blocks[b];
        if (!(s >> v & 1) || (s & covered) || (s & ((1u << v) - 1))) continue;
        br->chosen[depth] = s;
        dfs(br, covered | s, cost + br->cost[b], depth + 1);
    }
}

static double mock_cost(const world *w, int backend, int nops) {
    double c = 0, scale = 1;
    for (int i = 0; i < nops; ++i, scale *= 0.9) c += w->base[backend] * scale;
    return c;
}

/* blocks of a greedy plan on a copy: its partitions (by origin) */
static void plan_blocks(const world *w, byoc_module *m, const byoc_graph *g, int only, brute *br) {
    byoc_module *copy = byoc_module_clone(m, NULL);
    byoc_partition_options po;
    memset(&po, 0, sizeof po);
    po.backends = only < 0 ? w->backends : &w->backends[only];
    po.nbackends = only < 0 ? 2 : 1;
    po.bind_constants = 1;
    byoc_placement_report *rep = NULL;
    byoc_diag d;
    if (!copy || byoc_partition_greedy(copy, &po, &rep, &d) != BYOC_OK) { byoc_module_destroy(copy); return; }
    for (int p = 0; p < rep->npartitions; ++p) {
        uint32_t s = 0;
        int nops = 0;
        for (int q = 0; q < rep->count; ++q) {
            if (!rep->nodes[q].partition || strcmp(rep->nodes[q].partition, rep->partitions[p].function)) continue;
            for (int i = 0; i < g->count; ++i)
                if (byoc_node_origin(g->nodes[i].node) == rep->nodes[q].origin) s |= 1u << i, nops++;
        }
        int b = !strcmp(rep->partitions[p].backend, "npu") ? 0 : 1;
        stbds_arrput(br->blocks, s);
        stbds_arrput(br->cost, mock_cost(w, b, nops));
        stbds_arrput(br->backend, b);
    }
    byoc_placement_report_free(rep);
    byoc_module_destroy(copy);
}

static double brute_force(const world *w, byoc_module *m, int max_depth, double upper) {
    byoc_node *fn = byoc_module_function(m, "main");
    byoc_graph g;
    if (byoc_graph_build(m, fn->body, 0, &g) != BYOC_OK || g.count > 32) return -1;
    brute br;
    memset(&br, 0, sizeof br);
    br.g = &g;
    for (int i = 0; i < g.count; ++i) {
        byoc_node *x = g.nodes[i].node;
        if (x->kind == BYOC_NODE_CALL || x->kind == BYOC_NODE_TUPLE) br.required |= 1u << i;
    }
    /* every subset of required ops: valid on a backend that takes all of them, or on the host */
    uint32_t ops = 0;
    for (int i = 0; i < g.count; ++i)
        if (g.nodes[i].node->kind == BYOC_NODE_CALL) ops |= 1u << i;
    for (int i = 0; i < g.count; ++i)
        if (g.nodes[i].node->kind == BYOC_NODE_TUPLE) { /* the result tuple: alone on the host, free */
            stbds_arrput(br.blocks, 1u << i);
            stbds_arrput(br.cost, 0.0);
            stbds_arrput(br.backend, 2);
        }
    /* enumerate subsets of the op positions */
    int pos[32], np = 0;
    for (int i = 0; i < g.count; ++i)
        if (ops >> i & 1) pos[np++] = i;
    for (uint32_t sub = 1; sub < (1u << np); ++sub) {
        uint32_t s = 0;
        for (int k = 0; k < np; ++k)
            if (sub >> k & 1) s |= 1u << pos[k];
        if (!block_valid(&g, s, max_depth)) continue;
        for (int b = 0; b < 3; ++b) {
            int ok = 1;
            for (int i = 0; i < g.count && ok; ++i)
                if (s >> i & 1 && b < 2) ok = byoc_backend_accepts(w->backends[b], g.nodes[i].node, NULL, 0);
            if (!ok) continue;
            stbds_arrput(br.blocks, s);
            stbds_arrput(br.cost, mock_cost(w, b, bits(s)));
            stbds_arrput(br.backend, b);
        }
    }
    plan_blocks(w, m, &g, -1, &br);
    plan_blocks(w, m, &g, 0, &br);
    plan_blocks(w, m, &g, 1, &br);
    br.best = upper + 1e-9;
    dfs(&br, 0, 0, 0);
    stbds_arrfree(br.blocks);
    stbds_arrfree(br.cost);
    stbds_arrfree(br.backend);
    byoc_graph_free(&g);
    return br.best;
}

static void test_exact_against_brute_force(void) {
    world w;
    CHECK(world_open(&w));
    int graphs = 0, mixed = 0;
    for (int trial = 0; trial < 150; ++trial) {
        int nops = 3 + rnd(12); /* 3..14 */
        char *text = random_graph(nops);
        world_costs(&w);
        int max_depth = 2 + rnd(4);
        byoc_diag d;
        byoc_module *m = byoc_module_parse(text, strlen(text), "random.relay", NULL, &d);
        CHECKF(m != NULL, "%s\n%s", d.message, text);
        byoc_module *before = byoc_module_clone(m, NULL);
        byoc_collage_options o;
        options_for(&w, &o, max_depth);
        byoc_collage_stats st;
        byoc_result r = byoc_partition_collage(m, &o, &st, NULL, &d);
        CHECKF(r == BYOC_OK, "%s\n%s", d.message, text);
        CHECK(byoc_infer_type(before, &d) == BYOC_OK);
        double want = brute_force(&w, before, max_depth, st.search_cost + 1.0);
        CHECKF(fabs(want - st.search_cost) < 1e-9, "trial %d: search %.12g, brute force %.12g (depth %d, base %g %g %g)\n%s", trial, st.search_cost, want, max_depth,
               w.base[0], w.base[1], w.base[2], text);
        CHECK(st.cost <= st.search_cost + 1e-12); /* MaxCoalesce never adds cost */
        int on[3] = {0};
        for (int k = 0; k < st.nplacement; ++k) on[!strcmp(st.placement[k].backend, "npu") ? 0 : !strcmp(st.placement[k].backend, "dsp") ? 1 : 2]++;
        mixed += (on[0] > 0) + (on[1] > 0) + (on[2] > 0) >= 2;
        graphs++;
        byoc_collage_stats_free(&st);
        byoc_module_destroy(before);
        byoc_module_destroy(m);
        free(text);
    }
    CHECKF(mixed > graphs / 4, "only %d of %d plans mix devices: the test would not exercise the search", mixed, graphs);
    world_close(&w);
}

static void test_never_worse_than_greedy(void) {
    world w;
    CHECK(world_open(&w));
    int better = 0;
    for (int trial = 0; trial < 500; ++trial) {
        int nops = 5 + rnd(56);
        char *text = random_graph(nops);
        world_costs(&w);
        byoc_diag d;
        byoc_module *m = byoc_module_parse(text, strlen(text), "random.relay", NULL, &d);
        CHECKF(m != NULL, "%s", d.message);
        byoc_collage_options o;
        options_for(&w, &o, 4);
        byoc_collage_stats st;
        CHECKF(byoc_partition_collage(m, &o, &st, NULL, &d) == BYOC_OK, "%s\n%s", d.message, text);
        CHECK(st.nplans == 4 && !strcmp(st.plans[0].name, "greedy") && !strcmp(st.plans[3].name, "host"));
        for (int p = 0; p < st.nplans; ++p) CHECKF(st.cost <= st.plans[p].cost + 1e-9, "trial %d: searched %g > %s %g\n%s", trial, st.cost, st.plans[p].name, st.plans[p].cost, text);
        better += st.cost < st.plans[0].cost - 1e-9;
        byoc_collage_stats_free(&st);
        byoc_module_destroy(m);
        free(text);
    }
    CHECKF(better > 100, "the search beat greedy on only %d of 500 graphs", better);
    world_close(&w);
}

/* same input, same answer; and a saved placement replays to the same module */
static void test_deterministic_and_replay(void) {
    world w;
    CHECK(world_open(&w));
    rng = 99;
    char *text = random_graph(40);
    world_costs(&w);
    byoc_diag d;
    byoc_module *a = byoc_module_parse(text, strlen(text), "r.relay", NULL, &d), *b = byoc_module_parse(text, strlen(text), "r.relay", NULL, &d),
                *c = byoc_module_parse(text, strlen(text), "r.relay", NULL, &d);
    CHECK(a && b && c);
    byoc_collage_options o;
    options_for(&w, &o, 4);
    byoc_collage_stats sa, sb, sc;
    CHECK(byoc_partition_collage(a, &o, &sa, NULL, &d) == BYOC_OK);
    CHECK(byoc_partition_collage(b, &o, &sb, NULL, &d) == BYOC_OK);
    CHECK(sa.cost == sb.cost && sa.nplacement == sb.nplacement);
    for (int k = 0; k < sa.nplacement; ++k)
        CHECK(sa.placement[k].origin == sb.placement[k].origin && !strcmp(sa.placement[k].backend, sb.placement[k].backend) && sa.placement[k].group == sb.placement[k].group);
    CHECK(byoc_module_structural_equal(a, b));
    o.replay = sa.placement;
    o.nreplay = sa.nplacement;
    CHECKF(byoc_partition_collage(c, &o, &sc, NULL, &d) == BYOC_OK, "%s", d.message);
    CHECK(byoc_module_structural_equal(a, c));
    CHECK(fabs(sc.cost - sa.cost) < 1e-9);
    /* the placement of another model is refused, naming the op */
    static const char other_text[] = "def @main(%x: Tensor[(8), float32]) { nn.relu(%x) }";
    byoc_module *other = byoc_module_parse(other_text, sizeof other_text - 1, "o.relay", NULL, &d);
    CHECK(other);
    byoc_collage_stats so;
    CHECK(byoc_partition_collage(other, &o, &so, NULL, &d) != BYOC_OK);
    CHECK_CONTAINS(d.message, "placement: op #");
    byoc_module_destroy(other);
    /* a device op with group 0 (replay would have put it on the host) is refused, naming op and backend */
    int device_entry = -1;
    for (int k = 0; k < sa.nplacement && device_entry < 0; ++k)
        if (strcmp(sa.placement[k].backend, "host")) device_entry = k;
    CHECK(device_entry >= 0);
    byoc_collage_assignment *zero = (byoc_collage_assignment *)malloc(sizeof *zero * (size_t)sa.nplacement);
    CHECK(zero);
    memcpy(zero, sa.placement, sizeof *zero * (size_t)sa.nplacement);
    zero[device_entry].group = 0;
    o.replay = zero;
    byoc_module *z = byoc_module_parse(text, strlen(text), "r.relay", NULL, &d);
    byoc_collage_stats sz;
    byoc_result rz = z ? byoc_partition_collage(z, &o, &sz, NULL, &d) : BYOC_ERR_INTERNAL;
    free(zero);
    byoc_module_destroy(z);
    CHECK(rz == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "has group 0: groups are numbered from 1");
    byoc_collage_stats_free(&sa);
    byoc_collage_stats_free(&sb);
    byoc_collage_stats_free(&sc);
    byoc_module_destroy(a);
    byoc_module_destroy(b);
    byoc_module_destroy(c);
    free(text);
    world_close(&w);
}

/* An embedding program's parallel_for: task 0 on the caller, each other task on a thread of its own, all joined
   before it returns (a thread that cannot start runs its task on the caller). user counts the calls. */
typedef struct thread_task { byoc_parallel_task task; void *ctx; int64_t index; } thread_task;
static void *run_thread_task(void *arg) {
    const thread_task *t = (const thread_task *)arg;
    t->task(t->ctx, t->index);
    return NULL;
}
static void pthreads_parallel_for(int64_t n, byoc_parallel_task task, void *ctx, void *user) {
    pthread_t ids[8];
    thread_task tasks[8];
    int started[8] = {0};
    ++*(int *)user;
    for (int64_t i = 1; i < n && i < 8; ++i) {
        thread_task t = {task, ctx, i};
        tasks[i] = t;
        started[i] = pthread_create(&ids[i], NULL, run_thread_task, &tasks[i]) == 0;
    }
    task(ctx, 0);
    for (int64_t i = 1; i < n; ++i) {
        if (i < 8 && started[i]) pthread_join(ids[i], NULL);
        else task(ctx, i);
    }
}

/* the same search on one thread and with parallel: the same statistics, placement and module, pinned or not */
static void test_threads_same_result(void) {
    world w;
    CHECK(world_open(&w));
    rng = 4242;
    int calls = 0, pinned = 0;
    byoc_parallel par = {pthreads_parallel_for, &calls, 2};
    for (int trial = 0; trial < 60; ++trial) {
        char *text = random_graph(5 + rnd(40));
        world_costs(&w);
        byoc_diag d;
        byoc_module *a = byoc_module_parse(text, strlen(text), "r.relay", NULL, &d),
                    *b = byoc_module_parse(text, strlen(text), "r.relay", NULL, &d);
        CHECK(a && b);
        byoc_collage_options o;
        options_for(&w, &o, 2 + rnd(4));
        byoc_pin pin = {"%1", rnd(2) ? "host" : "dsp"}; /* pins: every backend's plan is made (none is shared) */
        if (trial % 3 == 0) o.pins = &pin, o.npins = 1;
        byoc_collage_stats sa, sb;
        byoc_result ra = byoc_partition_collage(a, &o, &sa, NULL, &d);
        o.parallel = &par;
        byoc_result rb = byoc_partition_collage(b, &o, &sb, NULL, &d);
        CHECKF(ra == rb, "trial %d: %d on one thread, %d with threads: %s\n%s", trial, (int)ra, (int)rb, d.message, text);
        if (ra == BYOC_OK && rb == BYOC_OK) {
            pinned += o.npins;
            CHECKF(sa.cost == sb.cost && sa.search_cost == sb.search_cost, "trial %d: cost %.17g / %.17g", trial, sa.cost, sb.cost);
            CHECK(sa.candidates == sb.candidates && sa.states == sb.states && sa.expanded == sb.expanded && sa.dropped == sb.dropped);
            CHECK(sa.estimates == sb.estimates && sa.cache_hits == sb.cache_hits && sa.coalesced == sb.coalesced && sa.moved == sb.moved);
            CHECK(sa.nplans == sb.nplans && sa.nplacement == sb.nplacement);
            for (int p = 0; p < sa.nplans && p < sb.nplans; ++p)
                CHECK(!strcmp(sa.plans[p].name, sb.plans[p].name) && sa.plans[p].cost == sb.plans[p].cost);
            for (int k = 0; k < sa.nplacement && k < sb.nplacement; ++k)
                CHECK(sa.placement[k].origin == sb.placement[k].origin && !strcmp(sa.placement[k].backend, sb.placement[k].backend) &&
                      sa.placement[k].group == sb.placement[k].group && !strcmp(sa.placement[k].greedy, sb.placement[k].greedy));
            CHECKF(byoc_module_structural_equal(a, b), "trial %d: the partitioned modules differ\n%s", trial, text);
            byoc_collage_stats_free(&sa);
            byoc_collage_stats_free(&sb);
        }
        byoc_module_destroy(a);
        byoc_module_destroy(b);
        free(text);
    }
    CHECKF(calls >= 55, "parallel_for was called %d times in 60 searches", calls);
    CHECKF(pinned >= 10, "only %d pinned searches succeeded", pinned);
    world_close(&w);
}

/* a tiny state budget: the beam takes over, the statistics say so, and the plan is still no worse than greedy */
static void test_beam_fallback(void) {
    world w;
    CHECK(world_open(&w));
    rng = 5;
    char *text = random_graph(60);
    world_costs(&w);
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, strlen(text), "r.relay", NULL, &d);
    CHECK(m);
    byoc_collage_options o;
    options_for(&w, &o, 4);
    o.state_budget = 50;
    o.beam_width = 2;
    byoc_collage_stats st;
    CHECKF(byoc_partition_collage(m, &o, &st, NULL, &d) == BYOC_OK, "%s", d.message);
    CHECK(st.beam == 1 && st.pruned > 0);
    CHECK(st.cost <= st.plans[0].cost + 1e-9);
    byoc_collage_stats_free(&st);
    byoc_module_destroy(m);
    free(text);
    world_close(&w);
}

/* ---- TVM's Collage tests (tests/python/relay/test_pass_collage_partition.py), in our words ----
   A BYOC target "hook" takes nn.relu, add and concatenate through composites; the host plays TVM's part.
   The mock prices a candidate of n ops at base * (1 + 0.9 + ... + 0.9^(n-1)). The greedy baselines are
   off, so the candidate space is TVM's. Each result is written as span=backend#partition, partitions
   numbered in order of first appearance. */
static const char hook_spec[] = "backend hook\n"
                                "pattern relu = is_op(\"nn.relu\")(wildcard())\n"
                                "pattern add = is_op(\"add\")(wildcard(), wildcard())\n"
                                "pattern concatenate = is_op(\"concatenate\")(wildcard())\n";

static char *tvm_case(const char *body, double host_base, double hook_base, int tvm_max_depth, int byoc_max_depth, byoc_collage_stats *st_out) {
    static char out[512];
    char text[1024];
    snprintf(text, sizeof text, "def @main(%%x: Tensor[(10, 10), float32]) {\n%s}\n", body);
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, strlen(text), "case.relay", NULL, &d);
    byoc_backend_spec *hook = byoc_backend_parse(hook_spec, sizeof hook_spec - 1, "hook.backend", &d);
    if (!m || !hook) { snprintf(out, sizeof out, "error: %s", d.message); return out; }
    hook->fusion_max_depth = byoc_max_depth;
    const byoc_backend_spec *backends[1] = {hook};
    const char *names[2] = {"hook", "host"};
    double base[2] = {hook_base, host_base};
    byoc_collage_mock mock = {names, base, 2};
    byoc_collage_options o;
    memset(&o, 0, sizeof o);
    o.backends = backends;
    o.nbackends = 1;
    o.cost = byoc_collage_mock_cost;
    o.cost_data = &mock;
    o.host_max_depth = tvm_max_depth;
    o.no_baselines = 1;
    o.bind_constants = 1;
    byoc_collage_stats st;
    byoc_placement_report *rep = NULL;
    if (byoc_partition_collage(m, &o, &st, &rep, &d) != BYOC_OK) {
        snprintf(out, sizeof out, "error: %s", d.message);
    } else {
        const char *parts[16];
        int nparts = 0;
        size_t len = 0;
        out[0] = 0;
        for (int q = 0; q < rep->count; ++q) {
            const byoc_placement *pl = &rep->nodes[q];
            int k = -1;
            for (int j = 0; j < nparts && pl->partition; ++j)
                if (!strcmp(parts[j], pl->partition)) k = j;
            if (pl->partition && k < 0 && nparts < 16) parts[k = nparts++] = pl->partition;
            if (pl->partition) len += (size_t)snprintf(out + len, sizeof out - len, "%s%s=%s#%d", len ? " " : "", pl->source ? pl->source : "?", pl->backend, k);
            else len += (size_t)snprintf(out + len, sizeof out - len, "%s%s=host", len ? " " : "", pl->source ? pl->source : "?");
        }
        if (st_out) *st_out = st;
        else byoc_collage_stats_free(&st);
    }
    byoc_placement_report_free(rep);
    byoc_backend_free(hook);
    byoc_module_destroy(m);
    return out;
}

#define EXPECT_PLACEMENT(got, want) CHECKF(!strcmp((got), (want)), "got  %s\nwant %s", (got), (want))

static void test_tvm_single_op(void) {
    static const char body[] = "  nn.relu(%x) /* span=r */\n";
    EXPECT_PLACEMENT(tvm_case(body, 1, 2, 8, 8, NULL), "r=host");
    EXPECT_PLACEMENT(tvm_case(body, 2, 1, 8, 8, NULL), "r=hook#0");
}

/* relu -> abs -> relu -> add(abs, relu): the first relu cannot join the others (abs sits between) */
static void test_tvm_diamond_valid_topology(void) {
    static const char body[] = "  %0 = nn.relu(%x) /* span=a */;\n  %1 = abs(%0) /* span=b */;\n  %2 = nn.relu(%1) /* span=c */;\n  add(%1, %2) /* span=d */\n";
    EXPECT_PLACEMENT(tvm_case(body, 2, 1, 1, 1, NULL), "a=hook#0 b=host c=hook#1 d=hook#1");
    EXPECT_PLACEMENT(tvm_case(body, 2, 1, 1, 3, NULL), "a=hook#0 b=host c=hook#1 d=hook#1");
}

/* three relus; host 100 per op fused, hook 99 alone: depth 2 is an exact tie (99 + 190 = 190 + 99), and the
   order between states decides it as TVM's expected output does: the first relu on the hook */
static void test_tvm_max_depth(void) {
    static const char body[] = "  %0 = nn.relu(%x) /* span=r1 */;\n  %1 = nn.relu(%0) /* span=r2 */;\n  nn.relu(%1) /* span=r3 */\n";
    EXPECT_PLACEMENT(tvm_case(body, 100, 99, 1, 1, NULL), "r1=hook#0 r2=hook#0 r3=hook#0");
    EXPECT_PLACEMENT(tvm_case(body, 100, 99, 2, 1, NULL), "r1=hook#0 r2=host r3=host");
    EXPECT_PLACEMENT(tvm_case(body, 100, 99, 3, 1, NULL), "r1=host r2=host r3=host");
}

static void test_byoc_max_depth(void) {
    static const char body[] = "  %0 = nn.relu(%x) /* span=r1 */;\n  %1 = nn.relu(%0) /* span=r2 */;\n  nn.relu(%1) /* span=r3 */\n";
    EXPECT_PLACEMENT(tvm_case(body, 99, 100, 1, 1, NULL), "r1=host r2=host r3=host");
    EXPECT_PLACEMENT(tvm_case(body, 99, 100, 1, 2, NULL), "r1=host r2=hook#0 r3=hook#0");
    EXPECT_PLACEMENT(tvm_case(body, 99, 100, 1, 3, NULL), "r1=hook#0 r2=hook#0 r3=hook#0");
}

/* both relus feed the result tuple: one candidate would have two exits, so each goes alone and MaxCoalesce
   joins them into one partition with two outputs */
static void test_tvm_output_tuple(void) {
    static const char body[] = "  %0 = nn.relu(%x) /* span=a */;\n  %1 = nn.relu(%0) /* span=b */;\n  %2 = abs(%1) /* span=c */;\n  (%0, %1, %2)\n";
    byoc_collage_stats st;
    EXPECT_PLACEMENT(tvm_case(body, 2, 1, 2, 2, &st), "a=hook#0 b=hook#0 c=host");
    CHECK(st.coalesced == 1);
    byoc_collage_stats_free(&st);
}

/* a tuple between the relus and concatenate: the hook cannot take the tuple, so two partitions */
static void test_tvm_intermediate_tuple(void) {
    static const char body[] = "  %0 = nn.relu(%x) /* span=a */;\n  %1 = nn.relu(%0) /* span=b */;\n  %2 = (%0, %1);\n  concatenate(%2) /* span=c */\n";
    EXPECT_PLACEMENT(tvm_case(body, 2, 1, 3, 5, NULL), "a=hook#0 b=hook#0 c=hook#1");
}

/* the hook is dearer per op (6 against 5) and wins only by fusing five ops: 6 * 4.0951 < 25 */
static void test_tvm_fusion_benefit(void) {
    static const char body[] = "  %0 = nn.relu(%x) /* span=a */;\n  %1 = nn.relu(%0) /* span=b */;\n  %2 = abs(%x) /* span=c */;\n"
                               "  %3 = nn.relu(%2) /* span=d */;\n  %4 = add(%1, %3) /* span=e */;\n  %5 = nn.relu(%4) /* span=f */;\n  abs(%5) /* span=g */\n";
    EXPECT_PLACEMENT(tvm_case(body, 5, 6, 1, 5, NULL), "a=hook#0 b=hook#0 c=host d=hook#0 e=hook#0 f=hook#0 g=host");
}

static void test_tvm_double_residual(void) {
    static const char body[] = "  %0 = nn.relu(%x) /* span=a */;\n  %1 = abs(%0) /* span=b */;\n  %2 = add(%0, %1) /* span=c */;\n  add(%1, %2) /* span=d */\n";
    EXPECT_PLACEMENT(tvm_case(body, 2, 1, 4, 4, NULL), "a=hook#0 b=host c=hook#1 d=hook#1");
}

/* TVM prunes to the largest candidates and allows two estimates; the exact search needs no pruning and
   finds the same plan, pricing each distinct candidate once */
static void test_tvm_pruning(void) {
    static const char body[] = "  %0 = nn.relu(%x) /* span=a */;\n  %1 = nn.relu(%0) /* span=b */;\n  %2 = add(%0, %1) /* span=c */;\n  add(%1, %2) /* span=d */\n";
    byoc_collage_stats st;
    EXPECT_PLACEMENT(tvm_case(body, 2, 1, 4, 4, &st), "a=hook#0 b=hook#0 c=hook#0 d=hook#0");
    CHECK(st.estimates + st.cache_hits <= st.candidates + 1);
    byoc_collage_stats_free(&st);
}

/* ---- Declared constraints bind (issue 27) ----
   A made-up 8x8 accelerator declares `supports nn.conv2d` with `require attr.groups == 1` and
   `require out.shape[1] <= 64`, and a conv2d_bias_relu pattern. A depthwise 256-channel conv + bias + relu
   must stay off it with greedy, with Collage (even when the mock prices tiny64 far below the host) and
   through the pass context's MergeComposite; a pin of it to tiny64 is refused with the constraint's text;
   the small conv + bias + relu goes to tiny64 as one composite. TVM expresses the same with check
   functions on its pattern table (test_pass_merge_composite.py's test_check; see test_passes.c). */
static const char tiny64_spec[] = "backend tiny64\n"
                                  "option rows 8\n"
                                  "define conv = is_op(\"nn.conv2d\")(wildcard(), is_constant())\n"
                                  "pattern conv2d_bias_relu = is_op(\"nn.relu\")(is_op(\"add\")(conv, is_constant()))\n"
                                  "supports nn.conv2d\n"
                                  "    require attr.groups == 1 \"grouped and depthwise convolutions are not supported\"\n"
                                  "    require out.shape[1] <= 64 \"at most 64 output channels\"\n";
/* the same accelerator whose fused kernel alone is limited: a constraint scoped to the pattern */
static const char tiny64_scoped_spec[] = "backend tiny64\n"
                                         "define conv = is_op(\"nn.conv2d\")(wildcard(), is_constant())\n"
                                         "pattern conv2d_bias_relu = is_op(\"nn.relu\")(is_op(\"add\")(conv, is_constant()))\n"
                                         "    require nn.conv2d out.shape[1] <= 16 \"the fused kernel holds at most 16 channels\"\n"
                                         "    require out.dtype == float32 \"fuses in float32 only\"\n"
                                         "supports nn.conv2d\n"
                                         "    require attr.groups == 1 \"grouped and depthwise convolutions are not supported\"\n";
static const char dw_module[] =
    "def @main(%x: Tensor[(1, 256, 8, 8), float32], %y: Tensor[(1, 16, 8, 8), float32]) {\n"
    "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(256, 1, 3, 3), float32] */, padding=[1, 1, 1, 1], groups=256) /* span=onnx:dw_conv */;\n"
    "  %1 = add(%0, meta[relay.Constant][1] /* ty=Tensor[(256, 1, 1), float32] */) /* span=onnx:dw_bias */;\n"
    "  %2 = nn.relu(%1) /* span=onnx:dw_relu */;\n"
    "  %3 = nn.conv2d(%y, meta[relay.Constant][2] /* ty=Tensor[(32, 16, 3, 3), float32] */, padding=[1, 1, 1, 1]) /* span=onnx:conv */;\n"
    "  %4 = add(%3, meta[relay.Constant][3] /* ty=Tensor[(32, 1, 1), float32] */) /* span=onnx:bias */;\n"
    "  %5 = nn.relu(%4) /* span=onnx:relu */;\n"
    "  %6 = nn.conv2d(%y, meta[relay.Constant][4] /* ty=Tensor[(16, 16, 1, 1), float32] */) /* span=onnx:conv16 */;\n"
    "  %7 = add(%6, meta[relay.Constant][5] /* ty=Tensor[(16, 1, 1), float32] */) /* span=onnx:bias16 */;\n"
    "  %8 = nn.relu(%7) /* span=onnx:relu16 */;\n"
    "  (%2, %5, %8)\n"
    "}\n";

static const byoc_placement *placed(const byoc_placement_report *r, const char *source) {
    for (int q = 0; q < r->count; ++q)
        if (r->nodes[q].source && !strcmp(r->nodes[q].source, source)) return &r->nodes[q];
    return NULL;
}
static const char *declined_reason(const byoc_placement *pl, const char *backend) {
    for (int k = 0; pl && k < pl->ndeclined; ++k)
        if (!strcmp(pl->declined[k].backend, backend)) return pl->declined[k].reason;
    return NULL;
}

/* places dw_module with tiny64 (greedy or Collage with the mock: tiny64 ten times cheaper than the host);
   the report names the backend by the spec's string: the caller frees the spec after the report */
static byoc_result place_tiny64(const char *spec_text, int collage, const byoc_pin *pins, int npins, byoc_placement_report **rep, byoc_backend_spec **spec_out,
                                byoc_diag *d) {
    byoc_module *m = byoc_module_parse(dw_module, sizeof dw_module - 1, "dw.relay", NULL, d);
    byoc_backend_spec *spec = byoc_backend_parse(spec_text, strlen(spec_text), "tiny64.backend", d);
    byoc_result r = m && spec ? BYOC_OK : BYOC_ERR_PARSE;
    *spec_out = spec;
    const byoc_backend_spec *backends[1] = {spec};
    *rep = NULL;
    if (r == BYOC_OK && collage) {
        static const char *const names[2] = {"tiny64", "host"};
        static const double base[2] = {1e-6, 1e-5};
        byoc_collage_mock mock = {names, base, 2};
        byoc_collage_options o;
        memset(&o, 0, sizeof o);
        o.backends = backends;
        o.nbackends = 1;
        o.cost = byoc_collage_mock_cost;
        o.cost_data = &mock;
        o.pins = pins;
        o.npins = npins;
        o.bind_constants = 1;
        byoc_collage_stats st;
        r = byoc_partition_collage(m, &o, &st, rep, d);
        if (r == BYOC_OK) byoc_collage_stats_free(&st);
    } else if (r == BYOC_OK) {
        byoc_partition_options o;
        memset(&o, 0, sizeof o);
        o.backends = backends;
        o.nbackends = 1;
        o.pins = pins;
        o.npins = npins;
        o.bind_constants = 1;
        r = byoc_partition_greedy(m, &o, rep, d);
    }
    byoc_module_destroy(m);
    return r;
}

static void test_constraints_bind_inside_patterns(void) {
    const char *groups = "groups=256 (grouped and depthwise convolutions are not supported)";
    for (int collage = 0; collage < 2; ++collage) {
        byoc_diag d;
        byoc_placement_report *rep = NULL;
        byoc_backend_spec *spec = NULL;
        CHECKF(place_tiny64(tiny64_spec, collage, NULL, 0, &rep, &spec, &d) == BYOC_OK, "%s", d.message);
        static const char *const off[3] = {"onnx:dw_conv", "onnx:dw_bias", "onnx:dw_relu"};
        static const char *const on[6] = {"onnx:conv", "onnx:bias", "onnx:relu", "onnx:conv16", "onnx:bias16", "onnx:relu16"};
        for (int i = 0; i < 3; ++i) {
            const byoc_placement *pl = placed(rep, off[i]);
            CHECKF(pl && !strcmp(pl->backend, "host"), "%s on %s (collage %d)", off[i], pl ? pl->backend : "?", collage);
        }
        for (int i = 0; i < 6; ++i) {
            const byoc_placement *pl = placed(rep, on[i]);
            CHECKF(pl && !strcmp(pl->backend, "tiny64") && pl->composite && !strcmp(pl->composite, "tiny64.conv2d_bias_relu"), "%s on %s in %s (collage %d)",
                   on[i], pl ? pl->backend : "?", pl && pl->composite ? pl->composite : "-", collage);
        }
        /* the report names the constraint, on the op that breaks it and on the others of the match */
        const char *why = declined_reason(placed(rep, "onnx:dw_conv"), "tiny64");
        CHECK(why);
        CHECKF(strstr(why, groups) && strstr(why, "[in pattern tiny64.conv2d_bias_relu]"), "%s", why);
        why = declined_reason(placed(rep, "onnx:dw_relu"), "tiny64");
        CHECK(why);
        CHECK_CONTAINS(why, "unsupported op; pattern tiny64.conv2d_bias_relu declined for its nn.conv2d %0: groups=256");
        char *text = byoc_placement_report_format(rep, "report", NULL);
        CHECK_CONTAINS(text, "tiny64: groups=256 (grouped and depthwise convolutions are not supported) [in pattern tiny64.conv2d_bias_relu]");
        byoc_free(rep->arena, text);
        byoc_placement_report_free(rep);
        byoc_backend_free(spec);
    }
    /* a pin that breaks the constraint is refused with its text, with greedy and with Collage */
    for (int collage = 0; collage < 2; ++collage) {
        byoc_diag d;
        byoc_placement_report *rep = NULL;
        byoc_backend_spec *spec = NULL;
        byoc_pin pin = {"onnx:dw_conv", "tiny64"};
        CHECK(place_tiny64(tiny64_spec, collage, &pin, 1, &rep, &spec, &d) == BYOC_ERR_UNSUPPORTED);
        byoc_backend_free(spec);
        CHECK_CONTAINS(d.message, "pinned to tiny64, which declines it: groups=256 (grouped and depthwise convolutions are not supported)");
        byoc_pin ok = {"onnx:relu", "tiny64"};
        CHECKF(place_tiny64(tiny64_spec, collage, &ok, 1, &rep, &spec, &d) == BYOC_OK, "%s", d.message);
        CHECK(!strcmp(placed(rep, "onnx:relu")->backend, "tiny64") && !strcmp(placed(rep, "onnx:dw_relu")->backend, "host"));
        byoc_placement_report_free(rep);
        byoc_backend_free(spec);
    }
    /* the pass context's merge_composite: only the two ordinary convolutions become composites */
    byoc_diag d;
    byoc_module *m = byoc_module_parse(dw_module, sizeof dw_module - 1, "dw.relay", NULL, &d);
    byoc_backend_spec *spec = byoc_backend_parse(tiny64_spec, sizeof tiny64_spec - 1, "tiny64.backend", &d);
    byoc_pass_context *ctx = byoc_pass_context_create();
    CHECK(m && spec && ctx && byoc_pass_context_add_backend(ctx, spec, &d) == BYOC_OK);
    const char *pass = "merge_composite";
    CHECKF(byoc_run_passes(m, &pass, 1, ctx, &d) == BYOC_OK, "%s", d.message);
    char *text = byoc_module_print(m, 0, NULL);
    int n = 0;
    for (const char *s = text; (s = strstr(s, "Composite=")) != NULL; ++s) ++n;
    CHECKF(n == 2 && strstr(text, "groups=256"), "%d composites in\n%s", n, text);
    byoc_free(m, text);
    byoc_pass_context_destroy(ctx);
    byoc_backend_free(spec);
    byoc_module_destroy(m);
}

/* A constraint under a pattern binds only there: the 32-channel conv runs on tiny64 alone, its bias and
   relu on the host (the report says which constraint of the pattern broke), the 16-channel block fuses. */
static void test_pattern_scoped_constraints(void) {
    for (int collage = 0; collage < 2; ++collage) {
        byoc_diag d;
        byoc_placement_report *rep = NULL;
        byoc_backend_spec *spec = NULL;
        CHECKF(place_tiny64(tiny64_scoped_spec, collage, NULL, 0, &rep, &spec, &d) == BYOC_OK, "%s", d.message);
        const byoc_placement *conv = placed(rep, "onnx:conv"), *relu = placed(rep, "onnx:relu"), *conv16 = placed(rep, "onnx:conv16");
        CHECK(conv && relu && conv16);
        CHECKF(!strcmp(conv->backend, "tiny64") && !conv->composite, "conv on %s (collage %d)", conv->backend, collage);
        CHECK(!strcmp(relu->backend, "host"));
        CHECK_CONTAINS(declined_reason(relu, "tiny64"),
                       "unsupported op; pattern tiny64.conv2d_bias_relu declined for its nn.conv2d %3: out.shape[1]=32 (the fused kernel holds at most 16 channels)");
        CHECK(!strcmp(conv16->backend, "tiny64") && conv16->composite && !strcmp(conv16->composite, "tiny64.conv2d_bias_relu"));
        CHECK(!strcmp(placed(rep, "onnx:dw_conv")->backend, "host"));
        byoc_placement_report_free(rep);
        byoc_backend_free(spec);
    }
    /* the parser: errors with file:line:col */
    static const char *const bad[][2] = {
        {"backend t\npattern p = is_op(\"nn.relu\")(wildcard())\n    require nn.dense attr.units == 1 \"x\"\n",
         "t.backend:3:13: the pattern has no nn.dense call to constrain"},
        {"backend t\npattern p = is_op(\"nn.relu\")(wildcard())\n    require nn.bogus attr.units == 1 \"x\"\n", "t.backend:3:13: unknown op 'nn.bogus'"},
        {"backend t\ndefine p = is_op(\"nn.relu\")(wildcard())\n    require attr.x == 1 \"x\"\n",
         "t.backend:3:5: 'require' lines belong to a pattern or to supports, not to a define"},
        {"backend t\npattern p = is_op(\"nn.relu\")(wildcard())\n    require rank == 4 \"x\"\n    frob\n",
         "t.backend:4:5: expected 'require' (a pattern's constraints follow it, one a line)"},
        {"backend t\npattern p = is_op(\"nn.relu\")(\n    wildcard())\n    require nn.relu out.rank = 4 \"x\"\n",
         "t.backend:4:30: expected a comparison: == != < <= > >= or in"},
        {"backend t\npattern p = is_op(\"nn.relu\")(wildcard())\n    require rank == 4\n", "t.backend:3:22: expected the reason shown to users, in double quotes"},
    };
    for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); ++i) {
        byoc_diag d;
        byoc_backend_spec *b = byoc_backend_parse(bad[i][0], strlen(bad[i][0]), "t.backend", &d);
        CHECKF(!b && strstr(d.message, bad[i][1]), "case %d: %s", i, b ? "parsed" : d.message);
    }
    /* a multi-line pattern followed by its constraints, comments between */
    const char *good = "backend t\npattern p = is_op(\"nn.relu\")(\n    is_op(\"nn.conv2d\")(wildcard(), wildcard()))\n"
                       "    # the fused kernel\n    require nn.conv2d attr.groups == 1 \"x\"\n    require dtype in [float32] \"y\"\n";
    byoc_diag d;
    byoc_backend_spec *b = byoc_backend_parse(good, strlen(good), "t.backend", &d);
    CHECKF(b && b->npatterns == 1 && b->patterns[0].check, "%s", b ? "no check" : d.message);
    byoc_backend_free(b);
}

/* The greedy plan's partitions of the first backend in line (by priority) are that backend's single-backend plan
   when nothing is pinned, and the search takes them from the greedy run instead of running greedy again. A pin
   to where greedy puts an op anyway changes neither the greedy plan nor that backend's (the host's and the dsp's
   plans lose the host candidates holding the pinned op) but makes the search run each plan on its own: the two
   plans' costs must come out the same both ways, with the backends given in either order. */
static double plan_cost(const byoc_collage_stats *st, const char *name) {
    for (int p = 0; p < st->nplans; ++p)
        if (!strcmp(st->plans[p].name, name)) return st->plans[p].cost;
    return -1;
}
static void test_baselines_shared_with_greedy(void) {
    world w;
    CHECK(world_open(&w));
    rng = 4242;
    int compared = 0;
    for (int trial = 0; trial < 100; ++trial) {
        char *text = random_graph(8 + rnd(40));
        world_costs(&w);
        byoc_collage_stats st[2];
        byoc_pin pin = {NULL, "npu"};
        char node[24] = "";
        const byoc_backend_spec *reversed[2] = {w.dsp, w.npu};
        for (int run = 0; run < 2; ++run) {
            byoc_diag d;
            byoc_module *m = byoc_module_parse(text, strlen(text), "random.relay", NULL, &d);
            CHECKF(m != NULL, "%s", d.message);
            byoc_collage_options o;
            options_for(&w, &o, 4);
            if (run == 0) o.backends = reversed; /* unpinned: npu is first in line by priority, given second */
            else pin.node = node, o.pins = &pin, o.npins = 1;
            CHECKF(byoc_partition_collage(m, &o, &st[run], NULL, &d) == BYOC_OK, "run %d: %s\n%s", run, d.message,
                   text);
            byoc_module_destroy(m);
            for (int k = 0; run == 0 && k < st[0].nplacement && !node[0]; ++k) /* an op greedy puts on the npu */
                if (st[0].placement[k].greedy && !strcmp(st[0].placement[k].greedy, "npu"))
                    snprintf(node, sizeof node, "#%u", (unsigned)st[0].placement[k].origin);
            if (!node[0]) break;
        }
        if (node[0]) {
            static const char *const names[] = {"greedy", "only:npu"};
            for (int p = 0; p < 2; ++p)
                CHECKF(fabs(plan_cost(&st[0], names[p]) - plan_cost(&st[1], names[p])) <= 1e-12 &&
                           plan_cost(&st[0], names[p]) >= 0,
                       "trial %d, %s: %g unpinned, %g with %s pinned to npu\n%s", trial, names[p],
                       plan_cost(&st[0], names[p]), plan_cost(&st[1], names[p]), node, text);
            compared++;
            byoc_collage_stats_free(&st[1]);
        }
        byoc_collage_stats_free(&st[0]);
        free(text);
    }
    CHECKF(compared > 50, "only %d of 100 graphs had an op greedy puts on the npu", compared);
    world_close(&w);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {TEST_ENTRY(test_tvm_single_op),           TEST_ENTRY(test_tvm_diamond_valid_topology), TEST_ENTRY(test_tvm_max_depth),
                                      TEST_ENTRY(test_byoc_max_depth),          TEST_ENTRY(test_tvm_output_tuple),           TEST_ENTRY(test_tvm_intermediate_tuple),
                                      TEST_ENTRY(test_tvm_fusion_benefit),      TEST_ENTRY(test_tvm_double_residual),        TEST_ENTRY(test_tvm_pruning),
                                      TEST_ENTRY(test_exact_against_brute_force), TEST_ENTRY(test_never_worse_than_greedy), TEST_ENTRY(test_deterministic_and_replay),
                                      TEST_ENTRY(test_beam_fallback),
                                      TEST_ENTRY(test_constraints_bind_inside_patterns), TEST_ENTRY(test_pattern_scoped_constraints),
                                      TEST_ENTRY(test_baselines_shared_with_greedy), TEST_ENTRY(test_threads_same_result)};
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
