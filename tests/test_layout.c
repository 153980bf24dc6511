/* Unit tests for byoc_graph_layout, the layered drawing the HTML report draws graphs with: boxes never overlap,
   every edge runs downward from its tail's bottom centre to its head's top centre, the result is deterministic,
   crossings are reduced, bad graphs are refused with the edge or node named, and large graphs lay out fast. */
#include "byoc.h"
#include "test.h"

#include <stdlib.h>
#include <time.h>

/* a seeded random DAG: edges only from lower to higher index (then the indices shuffled), with a few long ones */
typedef struct dag {
    int n, m;
    int *from, *to;
    double *w, *h;
} dag;

static unsigned long long next_random(unsigned long long *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

static dag random_dag(int n, int fan_in, unsigned long long seed) {
    dag g;
    g.n = n;
    g.m = 0;
    g.from = (int *)malloc(sizeof(int) * (size_t)(n * fan_in + 1));
    g.to = (int *)malloc(sizeof(int) * (size_t)(n * fan_in + 1));
    g.w = (double *)malloc(sizeof(double) * (size_t)(n + 1));
    g.h = (double *)malloc(sizeof(double) * (size_t)(n + 1));
    int *perm = (int *)malloc(sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; ++i) perm[i] = i;
    for (int i = n - 1; i > 0; --i) {
        int j = (int)(next_random(&seed) % (unsigned long long)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int i = 0; i < n; ++i) {
        g.w[perm[i]] = 30 + (double)(next_random(&seed) % 90);
        g.h[perm[i]] = 18 + (double)(next_random(&seed) % 12);
        int k = i ? 1 + (int)(next_random(&seed) % (unsigned long long)fan_in) : 0;
        for (int e = 0; e < k; ++e) {
            int back = next_random(&seed) % 8 == 0
                           ? 1 + (int)(next_random(&seed) % (unsigned long long)i)
                           : 1 + (int)(next_random(&seed) % (unsigned long long)(i < 3 ? i : 3));
            g.from[g.m] = perm[i - back];
            g.to[g.m++] = perm[i];
        }
    }
    free(perm);
    return g;
}
static void dag_free(dag *g) { free(g->from), free(g->to), free(g->w), free(g->h); }
static byoc_layout_graph graph_of(const dag *g) {
    byoc_layout_graph lg;
    memset(&lg, 0, sizeof lg);
    lg.nnodes = g->n;
    lg.widths = g->w;
    lg.heights = g->h;
    lg.nedges = g->m;
    lg.edge_from = g->from;
    lg.edge_to = g->to;
    return lg;
}

/* no two boxes overlap; every edge starts at its tail's bottom centre, ends at its head's top centre and goes
   strictly down; sizes are the given ones; the extent holds every box */
static int check_drawing(const byoc_layout_graph *g, const byoc_layout *l, char *why, size_t cap) {
    for (int i = 0; i < l->nnodes; ++i) {
        const byoc_layout_box *a = &l->nodes[i];
        if (a->w != g->widths[i] || a->h != g->heights[i] || a->x < -1e-9 || a->y < -1e-9 ||
            a->x + a->w > l->width + 1e-9 || a->y + a->h > l->height + 1e-9)
            return snprintf(why, cap, "node %d: box (%g, %g, %g, %g) in %g x %g", i, a->x, a->y, a->w, a->h, l->width,
                            l->height),
                   0;
        for (int j = i + 1; j < l->nnodes; ++j) {
            const byoc_layout_box *b = &l->nodes[j];
            if (a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h)
                return snprintf(why, cap, "nodes %d and %d overlap", i, j), 0;
        }
    }
    for (int k = 0; k < l->nedges; ++k) {
        const byoc_layout_edge *e = &l->edges[k];
        const byoc_layout_box *a = &l->nodes[g->edge_from[k]], *b = &l->nodes[g->edge_to[k]];
        const double *p = e->points;
        int n = e->npoints;
        if (e->from != g->edge_from[k] || e->to != g->edge_to[k] || n < 2)
            return snprintf(why, cap, "edge %d: ends %d -> %d, %d points", k, e->from, e->to, n), 0;
        if (p[0] != a->x + a->w / 2 || p[1] != a->y + a->h || p[2 * n - 2] != b->x + b->w / 2 || p[2 * n - 1] != b->y)
            return snprintf(why, cap, "edge %d does not start at its tail's bottom centre or end at its head's top", k),
                   0;
        for (int q = 1; q < n; ++q)
            if (!(p[2 * q + 1] > p[2 * q - 1]))
                return snprintf(why, cap, "edge %d goes up or sideways at point %d", k, q), 0;
        if (b->layer <= a->layer) return snprintf(why, cap, "edge %d: layer %d to layer %d", k, a->layer, b->layer), 0;
    }
    return 1;
}

static void test_layout_random_dags(void) {
    char why[300];
    for (int seed = 1; seed <= 20; ++seed) {
        dag d = random_dag(5 + seed * 7, 1 + seed % 4, (unsigned long long)seed);
        byoc_layout_graph g = graph_of(&d);
        byoc_layout l;
        byoc_diag diag;
        byoc_result r = byoc_graph_layout(&g, NULL, &l, &diag);
        int ok = r == BYOC_OK && check_drawing(&g, &l, why, sizeof why);
        if (r != BYOC_OK) snprintf(why, sizeof why, "%.290s", diag.message);
        byoc_layout_free(&l);
        dag_free(&d);
        CHECKF(ok, "seed %d: %s", seed, why);
    }
}

/* the same input gives the same bytes */
static void test_layout_deterministic(void) {
    dag d = random_dag(300, 3, 7);
    byoc_layout_graph g = graph_of(&d);
    byoc_layout a, b;
    CHECK(byoc_graph_layout(&g, NULL, &a, NULL) == BYOC_OK);
    CHECK(byoc_graph_layout(&g, NULL, &b, NULL) == BYOC_OK);
    int same = a.nnodes == b.nnodes && a.bends == b.bends && a.crossings == b.crossings &&
               !memcmp(a.nodes, b.nodes, sizeof(byoc_layout_box) * (size_t)a.nnodes);
    for (int k = 0; same && k < a.nedges; ++k)
        same = a.edges[k].npoints == b.edges[k].npoints &&
               !memcmp(a.edges[k].points, b.edges[k].points, sizeof(double) * 2 * (size_t)a.edges[k].npoints);
    byoc_layout_free(&a);
    byoc_layout_free(&b);
    dag_free(&d);
    CHECK(same);
}

/* layers: a chain goes one layer per node; a long edge bends once per layer it crosses; a source feeding only a
   deep node sits just above it (not at the top with a long edge) */
static void test_layout_layers_and_bends(void) {
    /* 0 -> 1 -> 2 -> 3, 0 -> 3 (two bends), 4 -> 3 (a source: moved down to layer 2) */
    int from[] = {0, 1, 2, 0, 4}, to[] = {1, 2, 3, 3, 3};
    double w[] = {40, 40, 40, 40, 40}, h[] = {20, 20, 20, 20, 20};
    byoc_layout_graph g = {5, w, h, 5, from, to};
    byoc_layout l;
    char why[300];
    CHECK(byoc_graph_layout(&g, NULL, &l, NULL) == BYOC_OK);
    int ok = check_drawing(&g, &l, why, sizeof why);
    int layers_ok = l.nodes[0].layer == 0 && l.nodes[1].layer == 1 && l.nodes[2].layer == 2 && l.nodes[3].layer == 3 &&
                    l.nodes[4].layer == 2 && l.layers == 4 && l.bends == 2;
    int long_edge_points = l.edges[3].npoints; /* tail, 2 points per bend, head */
    byoc_layout_free(&l);
    CHECKF(ok, "%s", why);
    CHECK(layers_ok);
    CHECKF(long_edge_points == 6, "%d points", long_edge_points);
}

/* a side chain (a mask computed from an input) sits by its user: 6 -> 7 -> 8 -> 5 beside 0 -> ... -> 5 */
static void test_layout_side_chain_moves_down(void) {
    int from[] = {0, 1, 2, 3, 4, 6, 7, 8}, to[] = {1, 2, 3, 4, 5, 7, 8, 5};
    byoc_layout_graph g = {9, NULL, NULL, 8, from, to};
    byoc_layout l;
    CHECK(byoc_graph_layout(&g, NULL, &l, NULL) == BYOC_OK);
    int layers[3] = {l.nodes[6].layer, l.nodes[7].layer, l.nodes[8].layer}, bends = l.bends;
    byoc_layout_free(&l);
    CHECKF(layers[0] == 2 && layers[1] == 3 && layers[2] == 4 && bends == 0, "layers %d %d %d, %d bends", layers[0],
           layers[1], layers[2], bends);
}

/* two twisted pairs: index order crosses (0 -> 3, 1 -> 2); the sweeps untangle it */
static void test_layout_reduces_crossings(void) {
    int from[] = {0, 1, 2, 3, 4, 5}, to[] = {3, 2, 5, 4, 6, 7};
    byoc_layout_graph g = {8, NULL, NULL, 6, from, to};
    byoc_layout l;
    CHECK(byoc_graph_layout(&g, NULL, &l, NULL) == BYOC_OK);
    long long crossings = l.crossings;
    double x0 = l.nodes[0].x, x1 = l.nodes[1].x, x2 = l.nodes[2].x, x3 = l.nodes[3].x;
    byoc_layout_free(&l);
    CHECKF(crossings == 0, "%lld crossings", crossings);
    CHECK((x0 < x1) == (x3 < x2)); /* 0's user is on 0's side */
}

static void test_layout_refuses_bad_graphs(void) {
    byoc_layout l;
    byoc_diag d;
    int cyc_from[] = {0, 1, 2}, cyc_to[] = {1, 2, 1};
    byoc_layout_graph cycle = {3, NULL, NULL, 3, cyc_from, cyc_to};
    CHECK(byoc_graph_layout(&cycle, NULL, &l, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "cycle");
    CHECK(l.nodes == NULL && l.nnodes == 0);
    int self_from[] = {0, 1}, self_to[] = {1, 1};
    byoc_layout_graph self = {2, NULL, NULL, 2, self_from, self_to};
    CHECK(byoc_graph_layout(&self, NULL, &l, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "edge 1 goes from node 1 to itself");
    int far_to[] = {7};
    byoc_layout_graph far = {2, NULL, NULL, 1, self_from, far_to};
    CHECK(byoc_graph_layout(&far, NULL, &l, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "edge 0 goes from node 0 to node 7, beyond the 2 nodes");
    double w[] = {10, -1}, h[] = {10, 10};
    byoc_layout_graph flat = {2, w, h, 0, NULL, NULL};
    CHECK(byoc_graph_layout(&flat, NULL, &l, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "node 1 is -1 x 10");
    int chain_from[] = {0, 1, 2, 0}, chain_to[] = {1, 2, 3, 3};
    byoc_layout_graph bendy = {4, NULL, NULL, 4, chain_from, chain_to};
    byoc_layout_options o;
    memset(&o, 0, sizeof o);
    o.max_bends = 1;
    CHECK(byoc_graph_layout(&bendy, &o, &l, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "2 bend points needed");
    CHECK(byoc_graph_layout(NULL, NULL, &l, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "byoc_graph_layout: graph is NULL");
    CHECK(byoc_graph_layout(&bendy, NULL, NULL, &d) == BYOC_ERR_INVALID_ARGUMENT);
    byoc_layout_free(NULL);
    byoc_layout_graph empty = {0, NULL, NULL, 0, NULL, NULL};
    CHECK(byoc_graph_layout(&empty, NULL, &l, &d) == BYOC_OK);
    CHECK(l.nnodes == 0 && l.width == 0 && l.height == 0);
    byoc_layout_free(&l);
}

/* a 5,000-node graph (a transformer-sized model is a few thousand ops): checked, and its time printed (no test
   asserts a wall-clock time; the report's pages lay out 1,000-node models in well under a second) */
static void test_layout_large(void) {
    dag d = random_dag(5000, 3, 42);
    byoc_layout_graph g = graph_of(&d);
    byoc_layout l;
    char why[300];
    clock_t t0 = clock();
    byoc_result r = byoc_graph_layout(&g, NULL, &l, NULL);
    double seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
    int ok = r == BYOC_OK;
    for (int k = 0; ok && k < l.nedges; ++k) /* the edge checks only: the pairwise box check is quadratic */
        for (int q = 1; ok && q < l.edges[k].npoints; ++q)
            ok = l.edges[k].points[2 * q + 1] > l.edges[k].points[2 * q - 1];
    printf("  5000 nodes, %d edges: %d layers, %d bends, %lld crossings in %.3f s\n", l.nedges, l.layers, l.bends,
           l.crossings, seconds);
    byoc_layout_free(&l);
    dag_free(&d);
    CHECK(ok);
    dag s = random_dag(600, 3, 43);
    g = graph_of(&s);
    r = byoc_graph_layout(&g, NULL, &l, NULL);
    ok = r == BYOC_OK && check_drawing(&g, &l, why, sizeof why);
    byoc_layout_free(&l);
    dag_free(&s);
    CHECKF(ok, "%s", why);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_layout_random_dags),
        TEST_ENTRY(test_layout_deterministic),
        TEST_ENTRY(test_layout_layers_and_bends),
        TEST_ENTRY(test_layout_side_chain_moves_down),
        TEST_ENTRY(test_layout_reduces_crossings),
        TEST_ENTRY(test_layout_refuses_bad_graphs),
        TEST_ENTRY(test_layout_large),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
