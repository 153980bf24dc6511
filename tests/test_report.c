/* Unit tests for byoc_sim_report_html, the HTML page byocc report writes (and Python can): one g.node per op of
   the placement report with its id and device, the stated count, partitions, every section, node names escaped,
   the kernel each op runs in, the other plan's moved ops, and the errors of a NULL input. */
#include "byoc_sim.h"
#include "test.h"

#include <stdlib.h>

static const char *const cnn =
    "def @main(%x: Tensor[(1, 3, 16, 16), float32]) {\n"
    "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(8, 3, 3, 3), float32] */, padding=[1, 1, 1, 1], "
    "channels=8, kernel_size=[3, 3]) /* span=onnx:conv<1>&\"a\" */;\n"
    "  %1 = nn.relu(%0) /* span=onnx:relu1 */;\n"
    "  %2 = nn.max_pool2d(%1, pool_size=[2, 2], strides=[2, 2]) /* span=onnx:pool1 */;\n"
    "  %3 = reshape(%2, newshape=[1, 512]) /* span=onnx:flat */;\n"
    "  nn.softmax(%3) /* span=onnx:soft */\n"
    "}\n";

static int count_of(const char *hay, const char *needle) {
    int n = 0;
    for (const char *at = strstr(hay, needle); at; at = strstr(at + 1, needle)) n++;
    return n;
}

/* the module placed on the backends (greedy), compiled and run once on zeros; the placement report kept */
typedef struct placed {
    byoc_module *m;
    byoc_placement_report *rep;
    byoc_sim_program *p;
} placed;

static int place_text(placed *pl, const char *text, byoc_sim_backend *const *b, int nb, int run, byoc_diag *d) {
    memset(pl, 0, sizeof *pl);
    pl->m = byoc_module_parse(text, strlen(text), "test.relay", NULL, d);
    if (!pl->m || byoc_infer_type(pl->m, d) != BYOC_OK) return 0;
    const byoc_backend_spec *specs[2];
    const byoc_target *targets[2];
    for (int i = 0; i < nb; ++i) specs[i] = b[i]->spec, targets[i] = b[i]->target;
    byoc_partition_options o;
    memset(&o, 0, sizeof o);
    o.backends = specs;
    o.nbackends = nb;
    o.bind_constants = 1;
    if (byoc_partition_greedy(pl->m, &o, &pl->rep, d) != BYOC_OK) return 0;
    if (!run) return 1;
    if (byoc_run_target_hooks(pl->m, targets, nb, d) != BYOC_OK || byoc_fuse_ops(pl->m, 256, d) != BYOC_OK ||
        !(pl->p = byoc_sim_lower(pl->m, NULL, d)))
        return 0;
    static float zeros[3 * 16 * 16];
    byoc_tensor in = {BYOC_FLOAT32, 4, {1, 3, 16, 16}, zeros};
    return byoc_sim_run(pl->p, &in, 1, NULL, 0, d) == BYOC_OK;
}
static int place_and_run(placed *pl, byoc_sim_backend *const *b, int nb, int run, byoc_diag *d) {
    return place_text(pl, cnn, b, nb, run, d);
}
static void placed_free(placed *pl) {
    byoc_sim_program_destroy(pl->p);
    byoc_placement_report_free(pl->rep);
    byoc_module_destroy(pl->m);
}

static void test_report_page(void) {
    byoc_diag d;
    byoc_sim_backend *npu = byoc_sim_backend_open("npu", &d), *dsp = byoc_sim_backend_open("dsp", &d);
    CHECK(npu && dsp);
    byoc_sim_backend *both[2] = {npu, dsp}, *dsp_only[1] = {dsp};
    placed a, b;
    int ok_a = place_and_run(&a, both, 2, 1, &d), ok_b = ok_a && place_and_run(&b, dsp_only, 1, 0, &d);
    char why[1200];
    snprintf(why, sizeof why, "%s", d.message);
    byoc_sim_report_input in;
    memset(&in, 0, sizeof in);
    in.title = "cnn <test>";
    in.placement = a.rep;
    in.other = b.rep;
    in.other_strategy = "dsp only";
    in.program = a.p;
    size_t len = 0;
    char *html = ok_b ? byoc_sim_report_html(&in, &len, &d) : NULL;
    int conv = -1, npu_kernel = -1, nodes_ok = ok_b && html != NULL;
    for (int i = 0; nodes_ok && i < a.rep->count; ++i) {
        char id[64];
        snprintf(id, sizeof id, "data-node-id=\"%u\" data-device=\"%s\"", (unsigned)a.rep->nodes[i].origin,
                 a.rep->nodes[i].backend);
        nodes_ok = count_of(html, id) == 1;
        if (!strcmp(a.rep->nodes[i].op, "nn.conv2d")) conv = (int)a.rep->nodes[i].origin;
    }
    for (int k = 0; ok_b && k < byoc_sim_kernel_count(a.p); ++k)
        if (!strcmp(byoc_sim_kernel(a.p, k)->device, "npu")) npu_kernel = k;
    char count[64], moved[64], kernel_of_conv[160];
    snprintf(count, sizeof count, "<span id=\"node-count\">%d</span>", ok_b ? a.rep->count : -1);
    snprintf(moved, sizeof moved, "<a href=\"#node=%d\">", conv);
    snprintf(kernel_of_conv, sizeof kernel_of_conv, "data-node-id=\"%d\" data-device=\"npu\"", conv);
    const char *conv_node = html && conv >= 0 ? strstr(html, kernel_of_conv) : NULL;
    char kernel_attr[64];
    snprintf(kernel_attr, sizeof kernel_attr, "data-kernel-index=\"%d\"", npu_kernel);
    int nodes = html ? count_of(html, "<g class=\"node\"") : -1, rows = ok_b ? a.rep->count : -2;
    int kernels = html ? count_of(html, "<tr id=\"kernel-") : -1, nkernels = ok_b ? byoc_sim_kernel_count(a.p) : -2;
    int partitions = html ? count_of(html, "<g class=\"partition\" data-partition=\"tvmgen_default_") : -1;
    int npartitions = ok_b ? a.rep->npartitions : -2;
    placed_free(&a);
    if (ok_a) placed_free(&b);
    byoc_sim_backend_close(npu);
    byoc_sim_backend_close(dsp);
    CHECKF(ok_b, "%s", why);
    CHECKF(html && len == strlen(html), "%s", d.message);
    int body_ok = nodes_ok && nodes == rows && strstr(html, count) && kernels == nkernels && partitions == npartitions;
    int sections_ok = strstr(html, "<section id=\"graph\">") && strstr(html, "<section id=\"timeline\">") &&
                      strstr(html, "<section id=\"plans\">") && strstr(html, "<section id=\"memory\">") &&
                      strstr(html, "<section id=\"kernels\">") && strstr(html, "<div id=\"details\">") &&
                      strstr(html, "document.body.dataset.ready = \"1\"");
    int escaped = strstr(html, "data-name=\"onnx:conv&lt;1&gt;&amp;&quot;a&quot;\"") && !strstr(html, "conv<1>") &&
                  strstr(html, "cnn &lt;test&gt;") && !strstr(html, "<test>");
    int plans_ok = conv >= 0 && strstr(html, moved) && strstr(html, "<h3>dsp only</h3>");
    int conv_kernel_ok = conv_node && npu_kernel >= 0 && strstr(conv_node, kernel_attr) &&
                         strstr(conv_node, kernel_attr) < strstr(conv_node, "</g>");
    int offline = !strstr(html, "http") && strstr(html, ">npu dma</text>");
    if (!body_ok || !sections_ok || !escaped || !plans_ok || !conv_kernel_ok || !offline)
        snprintf(why, sizeof why, "nodes %d/%d (%d), kernels %d/%d, partitions %d/%d, %d %d %d %d %d", nodes, rows,
                 nodes_ok, kernels, nkernels, partitions, npartitions, sections_ok, escaped, plans_ok, conv_kernel_ok,
                 offline);
    byoc_sim_report_free(html);
    CHECKF(body_ok && sections_ok && escaped && plans_ok && conv_kernel_ok && offline, "%s", why);
}

/* without a program the graph is still drawn and the run's sections say why they are empty; bad input */
static void test_report_without_program(void) {
    byoc_diag d;
    placed a;
    CHECKF(place_and_run(&a, NULL, 0, 0, &d), "%s", d.message);
    byoc_sim_report_input in;
    memset(&in, 0, sizeof in);
    in.placement = a.rep;
    char *html = byoc_sim_report_html(&in, NULL, &d);
    int hosted = html ? count_of(html, "data-device=\"host\"") : -1, rows = a.rep->count;
    int said = html && strstr(html, "No run to show") && strstr(html, "One plan only") &&
               strstr(html, "<title>byoc report: byoc report</title>");
    byoc_sim_report_free(html);
    placed_free(&a);
    CHECKF(hosted == rows && rows == 5, "%d host nodes of %d", hosted, rows);
    CHECK(said);
    CHECK(byoc_sim_report_html(NULL, NULL, &d) == NULL);
    CHECK_CONTAINS(d.message, "byoc_sim_report_html: input is NULL");
    memset(&in, 0, sizeof in);
    CHECK(byoc_sim_report_html(&in, NULL, &d) == NULL && d.code == BYOC_ERR_INVALID_ARGUMENT);
    CHECK_CONTAINS(d.message, "input->placement is NULL");
    byoc_sim_report_free(NULL);
}

/* blocks of `branches` parallel branches, each conv+add+relu (npu), tanh (dsp), conv+add (npu), joined by a
   concatenate the host runs and a 1x1 conv+add (npu): parallel partitions side by side in the same layers */
static char *branchy_module(int blocks, int branches) {
    size_t cap = (size_t)(blocks * branches + blocks) * 1200 + 256, at = 0;
    char *t = (char *)malloc(cap);
    int n = 0, c = 0;
    if (!t) return NULL;
    at += (size_t)snprintf(t + at, cap - at, "def @main(%%x: Tensor[(1, 4, 8, 8), float32]) {\n");
    for (int blk = 0, y = -1; blk < blocks; ++blk) {
        char in[16], joined[1024];
        if (y < 0) snprintf(in, sizeof in, "%%x");
        else snprintf(in, sizeof in, "%%%d", y);
        size_t jat = 0;
        for (int j = 0; j < branches; ++j) {
            at += (size_t)snprintf(
                t + at, cap - at,
                "  %%%d = nn.conv2d(%s, meta[relay.Constant][%d] /* ty=Tensor[(4, 4, 3, 3), float32] */, "
                "padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]);\n"
                "  %%%d = add(%%%d, meta[relay.Constant][%d] /* ty=Tensor[(1, 4, 1, 1), float32] */);\n"
                "  %%%d = nn.relu(%%%d);\n  %%%d = tanh(%%%d);\n"
                "  %%%d = nn.conv2d(%%%d, meta[relay.Constant][%d] /* ty=Tensor[(4, 4, 1, 1), float32] */, "
                "padding=[0, 0, 0, 0], channels=4, kernel_size=[1, 1]);\n"
                "  %%%d = add(%%%d, meta[relay.Constant][%d] /* ty=Tensor[(1, 4, 1, 1), float32] */);\n",
                n, in, c, n + 1, n, c + 1, n + 2, n + 1, n + 3, n + 2, n + 4, n + 3, c + 2, n + 5, n + 4, c + 3);
            jat += (size_t)snprintf(joined + jat, sizeof joined - jat, "%s%%%d", j ? ", " : "", n + 5);
            n += 6, c += 4;
        }
        at += (size_t)snprintf(t + at, cap - at,
                               "  %%%d = concatenate((%s), axis=1);\n"
                               "  %%%d = nn.conv2d(%%%d, meta[relay.Constant][%d] /* ty=Tensor[(4, %d, 1, 1), float32] "
                               "*/, padding=[0, 0, 0, 0], channels=4, kernel_size=[1, 1]);\n"
                               "  %%%d = add(%%%d, meta[relay.Constant][%d] /* ty=Tensor[(1, 4, 1, 1), float32] */);\n",
                               n, joined, n + 1, n, c, 4 * branches, n + 2, n + 1, c + 1);
        y = n + 2;
        n += 3, c += 2;
    }
    snprintf(t + at, cap - at, "  %%%d\n}\n", n - 1);
    return t;
}

typedef struct box {
    double x, y, w, h;
    char owner[64]; /* the partition it draws or, for a node, the partition it is in ("" on the host) */
} box;
/* the rects after each `<g class="KIND"` (partition shapes or nodes) with their data-partition (at most cap) */
static int boxes_of(const char *html, const char *kind, box *boxes, int cap) {
    char open[64];
    snprintf(open, sizeof open, "<g class=\"%s\"", kind);
    int n = 0;
    for (const char *g = strstr(html, open); g && n < cap; g = strstr(g + 1, open)) {
        const char *owner = strstr(g, "data-partition=\""), *end = strstr(g, "</g>");
        if (!owner || !end) break;
        for (const char *r = strstr(g, "<rect "); r && r < end && n < cap; r = strstr(r + 1, "<rect ")) {
            const char *x = strstr(r, " x=\"");
            box *bx = &boxes[n];
            bx->owner[0] = 0; /* a host node's data-partition is empty */
            if (sscanf(owner, "data-partition=\"%63[^\"]\"", bx->owner) >= 0 && x &&
                sscanf(x, " x=\"%lf\" y=\"%lf\" width=\"%lf\" height=\"%lf\"", &bx->x, &bx->y, &bx->w, &bx->h) == 4)
                n++;
        }
    }
    return n;
}
static int meets(const box *p, const box *q) {
    return p->x < q->x + q->w && q->x < p->x + p->w && p->y < q->y + q->h && q->y < p->y + p->h;
}

/* parallel partitions: no two partition boxes overlap (their labels are cut to the box, never widen it), and
   the collapsed view has one g.partition-node per partition and one g.collapsed-op per host op */
static void test_report_parallel_partitions(void) {
    byoc_diag d;
    byoc_sim_backend *npu = byoc_sim_backend_open("npu", &d), *dsp = byoc_sim_backend_open("dsp", &d);
    CHECK(npu && dsp);
    byoc_sim_backend *both[2] = {npu, dsp};
    char *text = branchy_module(2, 3);
    placed a;
    int ok = text && place_text(&a, text, both, 2, 0, &d);
    CHECKF(ok, "%s", d.message);
    byoc_sim_report_input in;
    memset(&in, 0, sizeof in);
    in.placement = a.rep;
    char *html = byoc_sim_report_html(&in, NULL, &d);
    CHECKF(html, "%s", d.message);
    static box shapes[256], nodes_drawn[256];
    int nshapes = boxes_of(html, "partition", shapes, 256), nnodes = boxes_of(html, "node", nodes_drawn, 256);
    int overlaps = 0, covered = 0, host = 0, side_by_side = 0;
    for (int i = 0; i < nshapes; ++i) {
        for (int j = i + 1; j < nshapes; ++j)
            if (strcmp(shapes[i].owner, shapes[j].owner)) {
                overlaps += meets(&shapes[i], &shapes[j]);
                side_by_side += shapes[i].y < shapes[j].y + shapes[j].h && shapes[j].y < shapes[i].y + shapes[i].h;
            }
        for (int k = 0; k < nnodes; ++k)
            covered += strcmp(shapes[i].owner, nodes_drawn[k].owner) && meets(&shapes[i], &nodes_drawn[k]);
    }
    for (int i = 0; i < a.rep->count; ++i) host += !strcmp(a.rep->nodes[i].backend, "host");
    int pnodes = count_of(html, "<g class=\"partition-node\""), cops = count_of(html, "<g class=\"collapsed-op\"");
    int nodes = count_of(html, "<g class=\"node\""), rows = a.rep->count, nparts = a.rep->npartitions;
    int hidden = strstr(html, "<g id=\"view-collapsed\"") && strstr(html, "display=\"none\">");
    byoc_sim_report_free(html);
    placed_free(&a);
    free(text);
    byoc_sim_backend_close(npu);
    byoc_sim_backend_close(dsp);
    CHECKF(nshapes >= nparts && nparts >= 6 && nnodes == rows, "%d partition shapes for %d partitions, %d nodes",
           nshapes, nparts, nnodes);
    CHECKF(side_by_side > 0, "no two partitions share a layer: the model does not test overlaps");
    CHECKF(overlaps == 0 && covered == 0, "%d pairs of partition shapes overlap, %d cover another's node", overlaps,
           covered);
    CHECKF(pnodes == nparts && cops == host && host == 2, "collapsed view: %d partition nodes of %d, %d ops of %d host",
           pnodes, nparts, cops, host);
    CHECKF(nodes == rows && hidden, "%d g.node for %d ops (collapsed view hidden: %d)", nodes, rows, hidden);
}

/* a 1,000-op module: the page is written, and the collapsed view is compact (one box a partition) */
static void test_report_thousand_ops(void) {
    byoc_diag d;
    byoc_sim_backend *npu = byoc_sim_backend_open("npu", &d), *dsp = byoc_sim_backend_open("dsp", &d);
    CHECK(npu && dsp);
    byoc_sim_backend *both[2] = {npu, dsp};
    char *text = branchy_module(26, 6);
    placed a;
    int ok = text && place_text(&a, text, both, 2, 0, &d);
    CHECKF(ok, "%s", d.message);
    byoc_sim_report_input in;
    memset(&in, 0, sizeof in);
    in.placement = a.rep;
    size_t len = 0;
    char *html = byoc_sim_report_html(&in, &len, &d);
    CHECKF(html, "%s", d.message);
    int rows = a.rep->count, nparts = a.rep->npartitions, host = 0, collapsed = -1;
    double tall = -1, short_ = -1; /* the expanded and collapsed drawings' heights */
    for (int i = 0; i < rows; ++i) host += !strcmp(a.rep->nodes[i].backend, "host");
    const char *expanded = strstr(html, "<g id=\"view-expanded\""), *view = strstr(html, "<g id=\"view-collapsed\"");
    if (expanded) sscanf(strstr(expanded, "data-height=\""), "data-height=\"%lf\"", &tall);
    if (view) sscanf(view, "<g id=\"view-collapsed\" class=\"view\" data-width=\"%*f\" data-height=\"%lf\" "
                     "data-nodes=\"%d\"", &short_, &collapsed);
    int nodes = count_of(html, "<g class=\"node\"");
    byoc_sim_report_free(html);
    placed_free(&a);
    free(text);
    byoc_sim_backend_close(npu);
    byoc_sim_backend_close(dsp);
    CHECKF(rows >= 1000 && nodes == rows, "%d g.node for %d ops", nodes, rows);
    CHECKF(collapsed == nparts + host && collapsed * 2 < rows, "collapsed view of %d nodes (%d partitions, %d host)",
           collapsed, nparts, host);
    CHECKF(short_ > 0 && short_ < 0.6 * tall, "the collapsed drawing is %.0f high, the expanded %.0f", short_, tall);
    CHECKF(len < (size_t)rows * 2000, "%zu bytes for %d ops", len, rows);
}

/* a loop's body kernels are drawn inset over the loop kernel's span on the timeline, one per iteration */
static void test_report_loop_body_kernels(void) {
    static const char *const text =
        "def @main(%x: Tensor[(1, 3, 16, 16), float32]) {\n"
        "  %0 = loop (3i64, True, %x) fn (%i: int64, %go: bool, %p: Tensor[(1, 3, 16, 16), float32]) {\n"
        "    %1 = add(%p, 1f);\n"
        "    (%go, nn.relu(%1))\n"
        "  };\n"
        "  nn.softmax(%0.0)\n"
        "}\n";
    byoc_diag d;
    placed a;
    CHECKF(place_text(&a, text, NULL, 0, 1, &d), "%s", d.message);
    byoc_sim_report_input in;
    memset(&in, 0, sizeof in);
    in.placement = a.rep;
    in.program = a.p;
    char *html = byoc_sim_report_html(&in, NULL, &d);
    int spans = html ? count_of(html, "<rect class=\"k body\"") : -1;
    int said = html && strstr(html, "id=\"body-kernels\"") && strstr(html, ", iteration 2: ");
    byoc_sim_report_free(html);
    placed_free(&a);
    CHECKF(spans >= 3 && spans % 3 == 0 && said, "%d body spans (%d)", spans, said);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {TEST_ENTRY(test_report_page), TEST_ENTRY(test_report_without_program),
                                      TEST_ENTRY(test_report_parallel_partitions),
                                      TEST_ENTRY(test_report_thousand_ops), TEST_ENTRY(test_report_loop_body_kernels)};
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
