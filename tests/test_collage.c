/* Collage's machinery: IndexSet against a plain array, SubGraph's entry / exit / input / output sets,
   depth, kind, taps and validity (convexity: {a, c} of a -> b -> c with a -> c is refused, {a, b, c} is
   not), touching and disjoint union. */
#include "byoc.h"
#include "test.h"

#include <stdlib.h>

static uint64_t rng = 7;
static int rnd(int n) {
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int)((rng >> 33) % (uint64_t)n);
}

static void test_index_set(void) {
    for (int size = 1; size < 300; size += 37) {
        byoc_index_set a, b;
        CHECK(byoc_index_set_init(&a, size) == BYOC_OK && byoc_index_set_init(&b, size) == BYOC_OK);
        unsigned char ra[300] = {0}, rb[300] = {0};
        for (int k = 0; k < size / 2 + 1; ++k) {
            int i = rnd(size), j = rnd(size);
            byoc_index_set_add(&a, i), ra[i] = 1;
            byoc_index_set_add(&b, j), rb[j] = 1;
        }
        int i0 = rnd(size);
        byoc_index_set_remove(&a, i0), ra[i0] = 0;
        int count = 0, inter = 0, sub = 1, first_diff = -1;
        for (int i = 0; i < size; ++i) {
            CHECK(byoc_index_set_has(&a, i) == ra[i]);
            count += ra[i];
            inter |= ra[i] && rb[i];
            sub &= !ra[i] || rb[i];
            if (first_diff < 0 && ra[i] != rb[i]) first_diff = i;
        }
        CHECK(byoc_index_set_count(&a) == count);
        CHECK(byoc_index_set_intersects(&a, &b) == inter && byoc_index_set_is_subset(&a, &b) == sub);
        int want_cmp = first_diff < 0 ? 0 : ra[first_diff] ? -1 : 1;
        CHECKF(byoc_index_set_compare(&a, &b) == want_cmp && byoc_index_set_compare(&b, &a) == -want_cmp, "size %d", size);
        int seen = 0; /* next() visits the members in order */
        for (int i = byoc_index_set_next(&a, 0), prev = -1; i >= 0; prev = i, i = byoc_index_set_next(&a, i + 1)) {
            CHECK(i > prev && ra[i]);
            seen++;
        }
        CHECK(seen == count && byoc_index_set_next(&a, size) == -1);
        byoc_index_set_union(&a, &b);
        for (int i = 0; i < size; ++i) CHECK(byoc_index_set_has(&a, i) == (ra[i] || rb[i]));
        CHECK(byoc_index_set_is_subset(&b, &a));
        byoc_index_set_free(&a);
        byoc_index_set_free(&b);
    }
}

/* %x -> a = relu -> b = abs -> c = add(a, b) -> d = tanh(c); e = exp(a) also feeds the result tuple */
static const char diamond_text[] = "def @main(%x: Tensor[(4), float32]) {\n"
                                   "  %0 = nn.relu(%x) /* span=a */;\n"
                                   "  %1 = abs(%0) /* span=b */;\n"
                                   "  %2 = add(%0, %1) /* span=c */;\n"
                                   "  %3 = tanh(%2) /* span=d */;\n"
                                   "  %4 = exp(%0) /* span=e */;\n"
                                   "  (%3, %4)\n"
                                   "}\n";

typedef struct fixture {
    byoc_module *m;
    byoc_graph g;
    int a, b, c, d, e, x, result;
} fixture;

static int index_of_span(const byoc_graph *g, const char *span) {
    for (int i = 0; i < g->count; ++i)
        if (byoc_node_span(g->nodes[i].node)->source && !strcmp(byoc_node_span(g->nodes[i].node)->source, span)) return i;
    return -1;
}

static int setup(fixture *f) {
    byoc_diag d;
    memset(f, 0, sizeof *f);
    f->m = byoc_module_parse(diamond_text, sizeof diamond_text - 1, "t.relay", NULL, &d);
    if (!f->m || byoc_infer_type(f->m, &d) != BYOC_OK) return 0;
    byoc_node *fn = byoc_module_function(f->m, "main");
    if (byoc_graph_build(f->m, fn->body, 0, &f->g) != BYOC_OK) return 0;
    f->a = index_of_span(&f->g, "a"), f->b = index_of_span(&f->g, "b"), f->c = index_of_span(&f->g, "c");
    f->d = index_of_span(&f->g, "d"), f->e = index_of_span(&f->g, "e");
    f->x = byoc_graph_index(&f->g, fn->params[0]);
    f->result = f->g.count - 1;
    return f->a >= 0 && f->b >= 0 && f->c >= 0 && f->d >= 0 && f->e >= 0 && f->x >= 0;
}
static void teardown(fixture *f) {
    byoc_graph_free(&f->g);
    byoc_module_destroy(f->m);
}

static int make(const fixture *f, byoc_sub_graph *sg, const char *label, int n, const int *members) {
    byoc_index_set in;
    if (byoc_index_set_init(&in, f->g.count) != BYOC_OK) return 0;
    for (int i = 0; i < n; ++i) byoc_index_set_add(&in, members[i]);
    int ok = byoc_sub_graph_init(&f->g, &in, label, sg) == BYOC_OK;
    byoc_index_set_free(&in);
    return ok;
}

static void test_sub_graph_sets(void) {
    fixture f;
    CHECK(setup(&f));
    byoc_sub_graph sg;
    CHECK(make(&f, &sg, "ab", 2, (int[]){f.a, f.b}));
    /* a reads x from outside; b only reads a: one entry. a feeds c and e outside, b feeds c: two exits */
    CHECK(byoc_index_set_count(&sg.entry) == 1 && byoc_index_set_has(&sg.entry, f.a));
    CHECK(byoc_index_set_count(&sg.input) == 1 && byoc_index_set_has(&sg.input, f.x));
    CHECK(byoc_index_set_count(&sg.exit) == 2 && byoc_index_set_has(&sg.exit, f.a) && byoc_index_set_has(&sg.exit, f.b));
    CHECK(byoc_index_set_count(&sg.output) == 2 && byoc_index_set_has(&sg.output, f.c) && byoc_index_set_has(&sg.output, f.e));
    CHECK(sg.depth == 2 && sg.taps == 1 && sg.kind == BYOC_PATTERN_ELEMWISE && !strcmp(sg.label, "ab"));
    char why[128];
    byoc_sub_graph_config one_exit = {1, 1, 0}, two_exits = {2, 1, 0}, no_taps = {2, 0, 0}, shallow = {0, 1, 1};
    CHECK(!byoc_sub_graph_is_valid(&f.g, &sg, &one_exit, why, sizeof why));
    CHECKF(strstr(why, "2 exits (at most 1)") != NULL, "%s", why);
    CHECK(byoc_sub_graph_is_valid(&f.g, &sg, &two_exits, why, sizeof why));
    CHECK(!byoc_sub_graph_is_valid(&f.g, &sg, &no_taps, why, sizeof why));
    CHECKF(strstr(why, "1 taps") != NULL, "%s", why);
    CHECK(!byoc_sub_graph_is_valid(&f.g, &sg, &shallow, why, sizeof why));
    CHECKF(strstr(why, "depth 2 (at most 1)") != NULL, "%s", why);
    byoc_sub_graph_free(&sg);
    /* the result tuple is an exit of the sub-graph that holds it */
    CHECK(make(&f, &sg, "d+tuple", 2, (int[]){f.d, f.result}));
    CHECK(byoc_index_set_has(&sg.exit, f.result) && !byoc_index_set_has(&sg.exit, f.d) && sg.kind == BYOC_PATTERN_TUPLE);
    byoc_sub_graph_free(&sg);
    teardown(&f);
}

static void test_convexity(void) {
    fixture f;
    CHECK(setup(&f));
    byoc_sub_graph sg;
    char why[128];
    byoc_sub_graph_config any = {0, 1, 0};
    /* a -> b -> c and a -> c: {a, c} leaves through b and comes back */
    CHECK(make(&f, &sg, "ac", 2, (int[]){f.a, f.c}));
    CHECK(!byoc_sub_graph_is_valid(&f.g, &sg, &any, why, sizeof why));
    CHECKF(strstr(why, "not convex") != NULL, "%s", why);
    byoc_sub_graph_free(&sg);
    CHECK(make(&f, &sg, "abc", 3, (int[]){f.a, f.b, f.c}));
    CHECK(byoc_sub_graph_is_valid(&f.g, &sg, &any, why, sizeof why));
    byoc_sub_graph_free(&sg);
    /* {a, d}: the path a -> c -> d leaves through c */
    CHECK(make(&f, &sg, "ad", 2, (int[]){f.a, f.d}));
    CHECK(!byoc_sub_graph_is_valid(&f.g, &sg, &any, why, sizeof why));
    byoc_sub_graph_free(&sg);
    /* {b, e}: no path between them, so nothing leaves and comes back */
    CHECK(make(&f, &sg, "be", 2, (int[]){f.b, f.e}));
    CHECK(byoc_sub_graph_is_valid(&f.g, &sg, &any, why, sizeof why));
    byoc_sub_graph_free(&sg);
    teardown(&f);
}

static void test_touching_and_union(void) {
    fixture f;
    CHECK(setup(&f));
    byoc_sub_graph a, b, c, d, e, u;
    CHECK(make(&f, &a, "A", 1, &f.a) && make(&f, &b, "B", 1, &f.b) && make(&f, &c, "C", 1, &f.c) && make(&f, &d, "D", 1, &f.d) && make(&f, &e, "E", 1, &f.e));
    CHECK(byoc_sub_graph_are_touching(&f.g, &a, &b) && byoc_sub_graph_are_touching(&f.g, &b, &a)); /* a feeds b */
    CHECK(byoc_sub_graph_are_touching(&f.g, &c, &d));
    CHECK(!byoc_sub_graph_are_touching(&f.g, &a, &c)); /* a feeds c, but {a, c} is not convex */
    CHECK(!byoc_sub_graph_are_touching(&f.g, &b, &e)); /* no edge between them */
    CHECK(!byoc_sub_graph_are_touching(&f.g, &a, &a)); /* not disjoint */
    CHECK(byoc_sub_graph_union(&f.g, &a, &b, &u) == BYOC_OK);
    CHECK(byoc_index_set_count(&u.inside) == 2 && !strcmp(u.label, "A+B") && u.depth == 2 && u.first == (f.a < f.b ? f.a : f.b));
    byoc_sub_graph ub;
    CHECK(byoc_sub_graph_union(&f.g, &u, &b, &ub) == BYOC_ERR_INVALID_ARGUMENT); /* overlapping */
    CHECK(byoc_sub_graph_are_touching(&f.g, &u, &c)); /* {a, b} and c: convex together */
    byoc_sub_graph_free(&u);
    byoc_sub_graph_free(&a);
    byoc_sub_graph_free(&b);
    byoc_sub_graph_free(&c);
    byoc_sub_graph_free(&d);
    byoc_sub_graph_free(&e);
    teardown(&f);
}

/* on random DAGs, convexity agrees with its definition: no node outside lies on a path between two inside */
static void test_convexity_against_paths(void) {
    for (int trial = 0; trial < 60; ++trial) {
        byoc_module *m = byoc_module_create(NULL);
        int64_t dim = 2;
        const byoc_type *t = byoc_tensor_type(m, BYOC_FLOAT32, 1, &dim);
        byoc_node *nodes[16];
        int n = 0;
        nodes[n++] = byoc_var(m, "x", t);
        int ops = 4 + rnd(9);
        for (int k = 0; k < ops; ++k) {
            byoc_node *args[2] = {nodes[rnd(n)], nodes[rnd(n)]};
            nodes[n++] = byoc_call(m, rnd(2) ? "add" : "multiply", args, 2, NULL);
        }
        byoc_node *fields[16];
        for (int k = 0; k < n; ++k) fields[k] = nodes[k];
        byoc_node *root = byoc_tuple(m, fields + 1, n - 1); /* every op is an output: all reachable */
        byoc_graph g;
        CHECK(byoc_graph_build(m, root, 0, &g) == BYOC_OK);
        /* reach[i][j]: a path from i to j */
        static unsigned char reach[32][32];
        memset(reach, 0, sizeof reach);
        for (int i = g.count - 1; i >= 0; --i) {
            reach[i][i] = 1;
            for (int k = 0; k < g.nodes[i].nusers; ++k)
                for (int j = 0; j < g.count; ++j) reach[i][j] |= reach[g.nodes[i].users[k]][j];
        }
        for (int s = 0; s < 20; ++s) {
            byoc_index_set in;
            CHECK(byoc_index_set_init(&in, g.count) == BYOC_OK);
            int members = 0;
            for (int i = 0; i < g.count; ++i)
                if (rnd(3) == 0) byoc_index_set_add(&in, i), members++;
            if (!members) byoc_index_set_add(&in, rnd(g.count));
            int convex = 1;
            for (int i = 0; i < g.count; ++i)
                for (int j = 0; j < g.count; ++j)
                    for (int o = 0; o < g.count; ++o)
                        if (byoc_index_set_has(&in, i) && byoc_index_set_has(&in, j) && !byoc_index_set_has(&in, o) && reach[i][o] && reach[o][j]) convex = 0;
            byoc_sub_graph sg;
            CHECK(byoc_sub_graph_init(&g, &in, NULL, &sg) == BYOC_OK);
            byoc_sub_graph_config any = {0, 1, 0};
            char why[128];
            CHECKF(byoc_sub_graph_is_valid(&g, &sg, &any, why, sizeof why) == convex, "trial %d: convex %d, valid says %s", trial, convex, why);
            byoc_sub_graph_free(&sg);
            byoc_index_set_free(&in);
        }
        byoc_graph_free(&g);
        byoc_module_destroy(m);
    }
}

/* placement files: the writer's groups start at 1 and read back as written; a group 0 (which replay would
   have put on the host whatever its backend) and a negative group are refused, naming file:line */
static void test_placement_file_groups(void) {
    byoc_module *arena = byoc_module_create(NULL);
    CHECK(arena);
    byoc_collage_assignment plan[2] = {{5, "nn.conv2d", "npu", 1, NULL, "conv1", NULL}, {6, "nn.relu", "host", 2, NULL, NULL, NULL}};
    byoc_collage_stats st;
    memset(&st, 0, sizeof st);
    st.placement = plan;
    st.nplacement = 2;
    size_t len = 0;
    char *text = byoc_collage_placement_format(&st, &len);
    CHECK(text);
    CHECK_CONTAINS(text, "5 nn.conv2d npu 1  # conv1\n6 nn.relu host 2\n");
    byoc_collage_assignment *got = NULL;
    int n = 0;
    byoc_diag d;
    byoc_result r = byoc_collage_placement_parse(text, len, "plan.txt", arena, &got, &n, &d);
    free(text);
    CHECKF(r == BYOC_OK, "%s", d.message);
    CHECK(n == 2 && got[0].origin == 5 && !strcmp(got[0].op, "nn.conv2d") && !strcmp(got[0].backend, "npu") && got[0].group == 1);
    CHECK(got[1].origin == 6 && !strcmp(got[1].backend, "host") && got[1].group == 2);
    const char *zero = "byoc-placement 1\n5 nn.conv2d npu 1\n6 nn.relu npu 0  # relu1\n";
    r = byoc_collage_placement_parse(zero, strlen(zero), "plan.txt", arena, &got, &n, &d);
    CHECK(r == BYOC_ERR_PARSE && n == 0 && got == NULL);
    CHECK_CONTAINS(d.message, "plan.txt:3: group 0 for op #6 on npu: groups are numbered from 1");
    const char *negative = "byoc-placement 1\n5 nn.conv2d npu -1\n";
    r = byoc_collage_placement_parse(negative, strlen(negative), "plan.txt", arena, &got, &n, &d);
    CHECK(r == BYOC_ERR_PARSE);
    CHECK_CONTAINS(d.message, "plan.txt:2: expected ORIGIN OP BACKEND GROUP");
    byoc_module_destroy(arena);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {TEST_ENTRY(test_index_set), TEST_ENTRY(test_sub_graph_sets), TEST_ENTRY(test_convexity), TEST_ENTRY(test_touching_and_union),
                                      TEST_ENTRY(test_convexity_against_paths), TEST_ENTRY(test_placement_file_groups)};
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
