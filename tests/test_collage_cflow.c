/* Collage inside control flow: each branch of an if and each loop body is searched as its own dataflow
   region. A model whose if has a conv chain in each branch and whose loop body holds a dense:
   - the plan puts the convolutions and the dense inside the bodies on the npu, the if and the loop stay on
     the host, and the statistics count four regions (@main, then, else, the loop body);
   - the partitioned module computes what the reference evaluator computes on the input (both branches);
   - the placement report gives the control nodes' reason and places the ops inside;
   - a saved placement replays to the same plan; one without the bodies' entries is refused;
   - a pin reaches an op inside a body;
   - an if inside a loop body: the body and each branch are regions, and the results still match;
   - a captured constant weight is bound inside the body, so the npu's composites match there.
   Public API only. */
#include "byoc_sim.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

static uint64_t rng = 99;
static float rnd_float(float scale) {
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return scale * (2.0f * (float)((rng >> 40) & 0xffffff) / (float)0xffffff - 1.0f);
}

static const byoc_type *f32(byoc_module *m, int rank, int64_t a, int64_t b, int64_t c, int64_t d) {
    int64_t dims[4] = {a, b, c, d};
    return byoc_tensor_type(m, BYOC_FLOAT32, rank, dims);
}

static byoc_node *weights(byoc_module *m, const byoc_type *t, float scale) {
    int64_t n = byoc_type_num_elements(t);
    float *data = (float *)malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
    for (int64_t i = 0; i < n; ++i) data[i] = rnd_float(scale);
    byoc_node *c = byoc_constant(m, t, data, sizeof(float) * (size_t)n);
    free(data);
    return c;
}

static byoc_node *binary(byoc_module *m, const char *op, byoc_node *a, byoc_node *b) {
    byoc_node *args[2] = {a, b};
    return byoc_call(m, op, args, 2, NULL);
}

/* relu(conv2d(x, W) + b): the npu's conv2d_bias_relu composite */
static byoc_node *conv_bias_relu(byoc_module *m, byoc_node *x, int64_t c) {
    byoc_attrs a = {0};
    int64_t pad[2] = {1, 1};
    byoc_attrs_set_ints(m, &a, "padding", pad, 2);
    byoc_node *args[2] = {x, weights(m, f32(m, 4, c, c, 3, 3), 1.0f / sqrtf((float)(c * 9)))};
    byoc_node *y = binary(m, "add", byoc_call(m, "nn.conv2d", args, 2, &a), weights(m, f32(m, 3, c, 1, 1, 1), 0.1f));
    return byoc_call(m, "nn.relu", &y, 1, NULL);
}

enum { C = 16, HW = 16, B = 32, D = 128 };

/* @main(%x, %c, %v): %0 = relu(%x); if (%c) {conv chain} else {another conv chain} over %0 (a capture);
   a loop of 3 trips carrying %v through relu(dense(acc, W) + b); the result is (the if, the loop's value) */
static byoc_module *build_model(void) {
    rng = 99; /* the same weights every time */
    byoc_module *m = byoc_module_create(NULL);
    byoc_node *x = byoc_var(m, "x", f32(m, 4, 1, C, HW, HW));
    byoc_node *c = byoc_var(m, "c", byoc_tensor_type(m, BYOC_BOOL, 0, NULL));
    byoc_node *v = byoc_var(m, "v", f32(m, 2, B, D, 0, 0));
    byoc_node *top = byoc_call(m, "nn.relu", &x, 1, NULL);
    byoc_node *bodies[2];
    for (int b = 0; b < 2; ++b) {
        byoc_node *p = byoc_var(m, "p", f32(m, 4, 1, C, HW, HW));
        byoc_node *y = conv_bias_relu(m, conv_bias_relu(m, p, C), C);
        if (b) y = conv_bias_relu(m, y, C);
        bodies[b] = byoc_function(m, &p, 1, y, NULL, NULL);
    }
    byoc_node *branch = byoc_if(m, c, bodies[0], bodies[1], &top, 1);
    byoc_node *params[3] = {byoc_var(m, "i", byoc_tensor_type(m, BYOC_INT64, 0, NULL)),
                            byoc_var(m, "go", byoc_tensor_type(m, BYOC_BOOL, 0, NULL)),
                            byoc_var(m, "acc", f32(m, 2, B, D, 0, 0))};
    byoc_node *dargs[2] = {params[2], weights(m, f32(m, 2, D, D, 0, 0), 1.0f / sqrtf((float)D))};
    byoc_node *h = binary(m, "add", byoc_call(m, "nn.dense", dargs, 2, NULL), weights(m, f32(m, 1, D, 0, 0, 0), 0.1f));
    h = byoc_call(m, "nn.relu", &h, 1, NULL);
    byoc_node *next[2] = {params[1], h};
    byoc_node *body = byoc_function(m, params, 3, byoc_tuple(m, next, 2), NULL, NULL);
    byoc_node *loop = byoc_loop(m, byoc_constant_scalar(m, BYOC_INT64, 3), byoc_constant_scalar(m, BYOC_BOOL, 1), &v,
                                1, body, NULL, 0);
    byoc_node *out[2] = {branch, byoc_tuple_get_item(m, loop, 0)};
    byoc_node *main_params[3] = {x, c, v};
    byoc_module_add_function(m, "main", byoc_function(m, main_params, 3, byoc_tuple(m, out, 2), NULL, NULL));
    byoc_diag d;
    if (byoc_module_error(m) || byoc_infer_type(m, &d) != BYOC_OK) {
        byoc_module_destroy(m);
        return NULL;
    }
    return m;
}

typedef struct devices {
    byoc_sim_backend *b[2];
    const byoc_backend_spec *specs[2];
    const byoc_target *targets[2];
    byoc_sim_collage_devices cd;
    byoc_collage_options o;
} devices;

static int open_devices(devices *dv) {
    byoc_diag d;
    memset(dv, 0, sizeof *dv);
    dv->b[0] = byoc_sim_backend_open("npu", &d);
    dv->b[1] = byoc_sim_backend_open("dsp", &d);
    if (!dv->b[0] || !dv->b[1]) return 0;
    for (int k = 0; k < 2; ++k) dv->specs[k] = dv->b[k]->spec, dv->targets[k] = dv->b[k]->target;
    dv->cd.backends = (const byoc_sim_backend *const *)dv->b;
    dv->cd.count = 2;
    dv->o.backends = dv->specs;
    dv->o.nbackends = 2;
    dv->o.cost = byoc_sim_collage_cost;
    dv->o.cost_data = &dv->cd;
    dv->o.bind_constants = 1;
    return 1;
}

static void close_devices(devices *dv) {
    byoc_sim_collage_devices_release(&dv->cd);
    byoc_sim_backend_close(dv->b[0]);
    byoc_sim_backend_close(dv->b[1]);
}

/* the inputs for condition c */
static void make_inputs(byoc_module *m, int c, byoc_node **in) {
    static float xs[C * HW * HW], vs[B * D];
    rng = 7;
    for (int i = 0; i < C * HW * HW; ++i) xs[i] = rnd_float(1.0f);
    for (int i = 0; i < B * D; ++i) vs[i] = rnd_float(1.0f);
    in[0] = byoc_constant(m, f32(m, 4, 1, C, HW, HW), xs, sizeof xs);
    in[1] = byoc_constant_scalar(m, BYOC_BOOL, c);
    in[2] = byoc_constant(m, f32(m, 2, B, D, 0, 0), vs, sizeof vs);
}

/* the largest difference between two (tuple) results, relative to the largest magnitude; -1 on a shape mismatch */
static double max_rel_diff(const byoc_node *a, const byoc_node *b) {
    byoc_node *fa[2], *fb[2];
    if (byoc_node_inputs(a, fa, 2) != 2 || byoc_node_inputs(b, fb, 2) != 2) return -1;
    double worst = 0;
    for (int k = 0; k < 2; ++k) {
        int64_t n = (int64_t)(byoc_constant_nbytes(fa[k]) / sizeof(float));
        if (n <= 0 || byoc_constant_nbytes(fa[k]) != byoc_constant_nbytes(fb[k])) return -1;
        double big = 1e-6, diff = 0;
        for (int64_t i = 0; i < n; ++i) {
            double x = byoc_constant_f32(fa[k], i), y = byoc_constant_f32(fb[k], i);
            big = fabs(x) > big ? fabs(x) : big;
            diff = fabs(x - y) > diff ? fabs(x - y) : diff;
        }
        worst = diff / big > worst ? diff / big : worst;
    }
    return worst;
}

static int count_on(const byoc_collage_stats *st, const char *op, const char *backend) {
    int n = 0;
    for (int k = 0; k < st->nplacement; ++k)
        n += !strcmp(st->placement[k].op, op) && !strcmp(st->placement[k].backend, backend);
    return n;
}

static void test_bodies_searched_and_run(void) {
    devices dv;
    byoc_diag d;
    CHECK(open_devices(&dv));
    byoc_module *ref = build_model(), *m = build_model();
    CHECKF(ref && m, "the model does not build");
    byoc_collage_stats st;
    byoc_placement_report *rep = NULL;
    CHECKF(byoc_partition_collage(m, &dv.o, &st, &rep, &d) == BYOC_OK, "%s", d.message);
    /* four regions: @main, the two branches, the loop body; each body's nodes counted */
    CHECKF(st.nregions == 4, "%d regions", st.nregions);
    CHECK(!strcmp(st.regions[0].name, "main") && st.regions[0].ops == 1);
    CHECK_CONTAINS(st.regions[1].name, "then");
    CHECK_CONTAINS(st.regions[2].name, "else");
    CHECK_CONTAINS(st.regions[3].name, "loop");
    CHECKF(st.regions[1].ops == 6 && st.regions[2].ops == 9 && st.regions[3].ops == 3, "ops %d %d %d",
           st.regions[1].ops, st.regions[2].ops, st.regions[3].ops);
    int nodes = 0;
    double cost = 0;
    for (int k = 0; k < st.nregions; ++k) nodes += st.regions[k].nodes, cost += st.regions[k].cost;
    CHECKF(nodes == st.nodes && fabs(cost - st.cost) <= 1e-12 + 1e-9 * st.cost, "%d of %d nodes, %g of %g s", nodes,
           st.nodes, cost, st.cost);
    /* every convolution and the dense go to the npu, each body's in partitions of its own */
    CHECKF(count_on(&st, "nn.conv2d", "npu") == 5, "%d convolutions on the npu", count_on(&st, "nn.conv2d", "npu"));
    CHECKF(count_on(&st, "nn.dense", "npu") == 1, "the dense is not on the npu");
    CHECK(st.nplacement == 1 + 6 + 9 + 3);
    for (int k = 0; k < st.nplacement; ++k)
        for (int j = 0; j < k; ++j) /* groups are numbered across regions: a group never spans two regions */
            if (st.placement[k].group && st.placement[k].group == st.placement[j].group)
                CHECK((k < 1) == (j < 1) && (k < 7) == (j < 7) && (k < 16) == (j < 16));
    char *text = byoc_collage_stats_format(&st, "text", NULL);
    CHECK_CONTAINS(text, "4 regions searched");
    free(text);
    text = byoc_collage_stats_format(&st, "json", NULL);
    CHECK_CONTAINS(text, "\"regions\": [{\"name\": \"main\"");
    free(text);
    /* the module: well formed and typed; the if and the loop stay in @main, their bodies call the npu partitions */
    CHECKF(byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "%s", d.message);
    char *printed = byoc_module_print(m, 0, NULL);
    CHECK_CONTAINS(printed, "if (%c)");
    CHECK_CONTAINS(printed, "loop (");
    CHECK_CONTAINS(printed, "@tvmgen_default_npu_main_");
    byoc_free(m, printed);
    /* the report: the control nodes' reason, the ops inside placed */
    char *report = byoc_placement_report_format(rep, "report", NULL);
    CHECK_CONTAINS(report, "control flow: a backend never receives an if");
    CHECK_CONTAINS(report, "control flow: a backend never receives a loop");
    int inner_on_npu = 0;
    for (int q = 0; q < rep->count; ++q)
        inner_on_npu += !strcmp(rep->nodes[q].op, "nn.dense") && !strcmp(rep->nodes[q].backend, "npu");
    CHECK(inner_on_npu == 1);
    CHECK(rep->npartitions == 3); /* one per body, each priced by its body's search */
    for (int p = 0; p < rep->npartitions; ++p)
        CHECKF(rep->partitions[p].estimated_cost > 0, "%s unpriced", rep->partitions[p].function);
    byoc_free(rep->arena, report);
    byoc_placement_report_free(rep);
    /* the same results as the reference evaluator, both branches, with the partitions on the devices */
    CHECKF(byoc_run_target_hooks(m, dv.targets, 2, &d) == BYOC_OK, "%s", d.message);
    for (int c = 0; c < 2; ++c) {
        byoc_node *in_ref[3], *in[3], *want = NULL, *got = NULL;
        make_inputs(ref, c, in_ref);
        make_inputs(m, c, in);
        CHECKF(byoc_module_evaluate(ref, in_ref, 3, &want, &d) == BYOC_OK, "%s", d.message);
        CHECKF(byoc_module_evaluate(m, in, 3, &got, &d) == BYOC_OK, "%s", d.message);
        double diff = want && got ? max_rel_diff(want, got) : -1;
        CHECKF(diff >= 0 && diff < 1e-4, "condition %d: relative difference %g", c, diff);
    }
    byoc_collage_stats_free(&st);
    byoc_module_destroy(ref);
    byoc_module_destroy(m);
    close_devices(&dv);
}

/* a saved placement covers the bodies and replays to the same plan; without the bodies' entries it is refused */
static void test_placement_covers_bodies(void) {
    devices dv;
    byoc_diag d;
    CHECK(open_devices(&dv));
    byoc_module *m = build_model(), *again = build_model(), *old = build_model(), *arena = byoc_module_create(NULL);
    byoc_collage_stats st, st2;
    memset(&st2, 0, sizeof st2);
    CHECKF(byoc_partition_collage(m, &dv.o, &st, NULL, &d) == BYOC_OK, "%s", d.message);
    size_t len;
    char *saved = byoc_collage_placement_format(&st, &len);
    CHECK_CONTAINS(saved, "\n# region: if #"); /* each body's entries under a comment naming it */
    CHECK_CONTAINS(saved, " else\n");
    CHECK_CONTAINS(saved, "\n# region: loop #");
    byoc_collage_assignment *entries = NULL;
    int count = 0;
    CHECKF(byoc_collage_placement_parse(saved, len, "saved.placement", arena, &entries, &count, &d) == BYOC_OK, "%s",
           d.message);
    CHECK(count == st.nplacement);
    byoc_collage_options o = dv.o;
    o.replay = entries;
    o.nreplay = count;
    CHECKF(byoc_partition_collage(again, &o, &st2, NULL, &d) == BYOC_OK, "%s", d.message);
    CHECK(st2.nplacement == st.nplacement && st2.nregions == 4);
    for (int k = 0; k < st.nplacement && k < st2.nplacement; ++k)
        CHECKF(st.placement[k].origin == st2.placement[k].origin &&
                   !strcmp(st.placement[k].backend, st2.placement[k].backend),
               "entry %d: #%u on %s, replayed #%u on %s", k, st.placement[k].origin, st.placement[k].backend,
               st2.placement[k].origin, st2.placement[k].backend);
    char *p1 = byoc_module_print(m, 0, NULL), *p2 = byoc_module_print(again, 0, NULL);
    CHECK(p1 && p2 && !strcmp(p1, p2));
    byoc_free(m, p1);
    byoc_free(again, p2);
    /* a placement saved before bodies were searched lists @main's ops only */
    o.nreplay = 1;
    CHECK(byoc_partition_collage(old, &o, NULL, NULL, &d) == BYOC_ERR_NOT_FOUND);
    CHECK_CONTAINS(d.message, "predates the search of control-flow bodies");
    free(saved);
    byoc_collage_stats_free(&st);
    byoc_collage_stats_free(&st2);
    byoc_module_destroy(arena);
    byoc_module_destroy(m);
    byoc_module_destroy(again);
    byoc_module_destroy(old);
    close_devices(&dv);
}

/* a pin reaches an op inside a body: named by #ID, the body's search honours it */
static void test_pin_inside_a_body(void) {
    devices dv;
    byoc_diag d;
    CHECK(open_devices(&dv));
    byoc_module *m = build_model(), *pinned = build_model();
    byoc_collage_stats st, st2;
    memset(&st2, 0, sizeof st2);
    CHECKF(byoc_partition_collage(m, &dv.o, &st, NULL, &d) == BYOC_OK, "%s", d.message);
    int k = 1; /* the then branch's first convolution, on the npu unpinned */
    while (k < st.nplacement && strcmp(st.placement[k].op, "nn.conv2d")) k++;
    CHECK(k < st.nplacement && !strcmp(st.placement[k].backend, "npu"));
    char node[24];
    snprintf(node, sizeof node, "#%u", (unsigned)st.placement[k].origin);
    byoc_pin pin = {node, "host"};
    byoc_collage_options o = dv.o;
    o.pins = &pin;
    o.npins = 1;
    CHECKF(byoc_partition_collage(pinned, &o, &st2, NULL, &d) == BYOC_OK, "%s", d.message);
    CHECK(st2.nplacement == st.nplacement && !strcmp(st2.placement[k].backend, "host"));
    CHECK(count_on(&st2, "nn.conv2d", "npu") == 4);
    byoc_collage_stats_free(&st);
    byoc_collage_stats_free(&st2);
    byoc_module_destroy(m);
    byoc_module_destroy(pinned);
    close_devices(&dv);
}

/* @main(%c, %v): a loop of 3 trips whose body holds an if (capturing %c): relu(dense(acc, W) + b) or -acc */
static byoc_module *build_nested(void) {
    rng = 5;
    byoc_module *m = byoc_module_create(NULL);
    byoc_node *c = byoc_var(m, "c", byoc_tensor_type(m, BYOC_BOOL, 0, NULL));
    byoc_node *v = byoc_var(m, "v", f32(m, 2, B, D, 0, 0));
    byoc_node *params[4] = {byoc_var(m, "i", byoc_tensor_type(m, BYOC_INT64, 0, NULL)),
                            byoc_var(m, "go", byoc_tensor_type(m, BYOC_BOOL, 0, NULL)),
                            byoc_var(m, "acc", f32(m, 2, B, D, 0, 0)),
                            byoc_var(m, "cc", byoc_tensor_type(m, BYOC_BOOL, 0, NULL))};
    byoc_node *bodies[2];
    for (int b = 0; b < 2; ++b) {
        byoc_node *p = byoc_var(m, "p", f32(m, 2, B, D, 0, 0)), *y;
        if (b) y = byoc_call(m, "negative", &p, 1, NULL);
        else {
            byoc_node *dargs[2] = {p, weights(m, f32(m, 2, D, D, 0, 0), 1.0f / sqrtf((float)D))};
            y = binary(m, "add", byoc_call(m, "nn.dense", dargs, 2, NULL), weights(m, f32(m, 1, D, 0, 0, 0), 0.1f));
            y = byoc_call(m, "nn.relu", &y, 1, NULL);
        }
        bodies[b] = byoc_function(m, &p, 1, y, NULL, NULL);
    }
    byoc_node *inner = byoc_if(m, params[3], bodies[0], bodies[1], &params[2], 1);
    byoc_node *next[2] = {params[1], inner};
    byoc_node *body = byoc_function(m, params, 4, byoc_tuple(m, next, 2), NULL, NULL);
    byoc_node *loop = byoc_loop(m, byoc_constant_scalar(m, BYOC_INT64, 3), byoc_constant_scalar(m, BYOC_BOOL, 1), &v,
                                1, body, &c, 1);
    byoc_node *out[2] = {byoc_tuple_get_item(m, loop, 0), byoc_call(m, "nn.relu", &v, 1, NULL)};
    byoc_node *main_params[2] = {c, v};
    byoc_module_add_function(m, "main", byoc_function(m, main_params, 2, byoc_tuple(m, out, 2), NULL, NULL));
    byoc_diag d;
    if (byoc_module_error(m) || byoc_infer_type(m, &d) != BYOC_OK) {
        byoc_module_destroy(m);
        return NULL;
    }
    return m;
}

/* an if inside a loop body: the body and each branch are regions, nested names say where */
static void test_nested_bodies(void) {
    devices dv;
    byoc_diag d;
    CHECK(open_devices(&dv));
    byoc_module *ref = build_nested(), *m = build_nested();
    CHECKF(ref && m, "the model does not build");
    byoc_collage_stats st;
    CHECKF(byoc_partition_collage(m, &dv.o, &st, NULL, &d) == BYOC_OK, "%s", d.message);
    CHECKF(st.nregions == 4, "%d regions", st.nregions);
    CHECK_CONTAINS(st.regions[1].name, "loop #");
    CHECK_CONTAINS(st.regions[2].name, " > if #");
    CHECK_CONTAINS(st.regions[2].name, "then");
    CHECK(st.regions[1].ops == 0 && st.regions[2].ops == 3 && st.regions[3].ops == 1);
    CHECK(count_on(&st, "nn.dense", "npu") == 1);
    CHECKF(byoc_verify(m, BYOC_VERIFY_TYPED, &d) == BYOC_OK, "%s", d.message);
    CHECKF(byoc_run_target_hooks(m, dv.targets, 2, &d) == BYOC_OK, "%s", d.message);
    float vs[B * D];
    rng = 11;
    for (int i = 0; i < B * D; ++i) vs[i] = rnd_float(1.0f);
    for (int c = 0; c < 2; ++c) {
        byoc_node *in_ref[2] = {byoc_constant_scalar(ref, BYOC_BOOL, c),
                                byoc_constant(ref, f32(ref, 2, B, D, 0, 0), vs, sizeof vs)};
        byoc_node *in[2] = {byoc_constant_scalar(m, BYOC_BOOL, c),
                            byoc_constant(m, f32(m, 2, B, D, 0, 0), vs, sizeof vs)};
        byoc_node *want = NULL, *got = NULL;
        CHECKF(byoc_module_evaluate(ref, in_ref, 2, &want, &d) == BYOC_OK, "%s", d.message);
        CHECKF(byoc_module_evaluate(m, in, 2, &got, &d) == BYOC_OK, "%s", d.message);
        double diff = want && got ? max_rel_diff(want, got) : -1;
        CHECKF(diff >= 0 && diff < 1e-4, "condition %d: relative difference %g", c, diff);
    }
    byoc_collage_stats_free(&st);
    byoc_module_destroy(ref);
    byoc_module_destroy(m);
    close_devices(&dv);
}

/* a branch whose weight is a captured constant (as FoldConstant leaves a value computed outside): the npu's
   composite, which asks for a constant weight, still matches inside the branch */
static void test_constant_capture(void) {
    devices dv;
    byoc_diag d;
    CHECK(open_devices(&dv));
    rng = 3;
    byoc_module *m = byoc_module_create(NULL);
    byoc_node *x = byoc_var(m, "x", f32(m, 4, 1, C, HW, HW));
    byoc_node *c = byoc_var(m, "c", byoc_tensor_type(m, BYOC_BOOL, 0, NULL));
    byoc_node *w = weights(m, f32(m, 4, C, C, 3, 3), 1.0f / sqrtf((float)(C * 9)));
    byoc_node *bodies[2];
    for (int b = 0; b < 2; ++b) {
        byoc_node *p[2] = {byoc_var(m, "p", f32(m, 4, 1, C, HW, HW)), byoc_var(m, "w", f32(m, 4, C, C, 3, 3))}, *y;
        if (b) y = byoc_call(m, "negative", &p[0], 1, NULL);
        else {
            byoc_attrs a = {0};
            int64_t pad[2] = {1, 1};
            byoc_attrs_set_ints(m, &a, "padding", pad, 2);
            y = binary(m, "add", byoc_call(m, "nn.conv2d", p, 2, &a), weights(m, f32(m, 3, C, 1, 1, 1), 0.1f));
            y = byoc_call(m, "nn.relu", &y, 1, NULL);
        }
        bodies[b] = byoc_function(m, p, 2, y, NULL, NULL);
    }
    byoc_node *captures[2] = {x, w};
    byoc_node *main_params[2] = {x, c};
    byoc_module_add_function(
        m, "main", byoc_function(m, main_params, 2, byoc_if(m, c, bodies[0], bodies[1], captures, 2), NULL, NULL));
    CHECKF(!byoc_module_error(m) && byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    byoc_collage_stats st;
    CHECKF(byoc_partition_collage(m, &dv.o, &st, NULL, &d) == BYOC_OK, "%s", d.message);
    CHECK(count_on(&st, "nn.conv2d", "npu") == 1);
    char *printed = byoc_module_print(m, 0, NULL);
    CHECK_CONTAINS(printed, "Composite=\"npu.conv2d_bias_relu\"");
    byoc_free(m, printed);
    byoc_collage_stats_free(&st);
    byoc_module_destroy(m);
    close_devices(&dv);
}

/* a model without control flow is one region, and its plan is what it was */
static void test_dataflow_model_is_one_region(void) {
    devices dv;
    byoc_diag d;
    CHECK(open_devices(&dv));
    byoc_module *m = byoc_module_create(NULL);
    byoc_node *x = byoc_var(m, "x", f32(m, 4, 1, C, HW, HW));
    byoc_node *y = conv_bias_relu(m, conv_bias_relu(m, x, C), C);
    byoc_module_add_function(m, "main", byoc_function(m, &x, 1, y, NULL, NULL));
    byoc_collage_stats st;
    CHECKF(byoc_partition_collage(m, &dv.o, &st, NULL, &d) == BYOC_OK, "%s", d.message);
    CHECK(st.nregions == 1 && !strcmp(st.regions[0].name, "main") && st.regions[0].nodes == st.nodes);
    CHECK(count_on(&st, "nn.conv2d", "npu") == 2);
    char *text = byoc_collage_stats_format(&st, "text", NULL);
    CHECK(text && !strstr(text, "regions searched"));
    free(text);
    byoc_collage_stats_free(&st);
    byoc_module_destroy(m);
    close_devices(&dv);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_bodies_searched_and_run),
        TEST_ENTRY(test_placement_covers_bodies),
        TEST_ENTRY(test_pin_inside_a_body),
        TEST_ENTRY(test_nested_bodies),
        TEST_ENTRY(test_constant_capture),
        TEST_ENTRY(test_dataflow_model_is_one_region),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
