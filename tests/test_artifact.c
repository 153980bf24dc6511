/* The .byoc artifact: save and load give the same outputs as the program compiled in memory; the loader
   refuses truncated, corrupted, re-signed hostile, newer and mismatched files with a message naming the
   file and what is wrong; missing or incompatible backends are refused by name; the source map covers
   every op down to device layers and commands; the caller's allocator carries the loaded executable; a scalar
   constant node shared by several calls (the text reads it back as one node per use) loads back to the same plan. */
#include "../byoc_sim.h"
#include "test.h"
#include <stdlib.h>

/* conv + bias + relu and a dense layer with its bias (two ops of one frontend node) for the npu, a softmax and a transpose for the dsp, an LRN for the host */
static const char model_text[] =
    "def @main(%x: Tensor[(1, 4, 10, 10), float32]) {\n"
    "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(8, 4, 3, 3), float32] */, padding=[1, 1, 1, 1]) /* span=onnx:conv */;\n"
    "  %1 = add(%0, meta[relay.Constant][1] /* ty=Tensor[(8, 1, 1), float32] */) /* span=onnx:bias */;\n"
    "  %2 = nn.relu(%1) /* span=onnx:relu */;\n"
    "  %3 = nn.lrn(%2, size=3) /* span=onnx:lrn */;\n"
    "  %4 = nn.global_avg_pool2d(%3) /* span=onnx:gap */;\n"
    "  %5 = reshape(%4, newshape=[1, 8]) /* span=onnx:flatten */;\n"
    "  %6 = nn.dense(%5, meta[relay.Constant][2] /* ty=Tensor[(6, 8), float32] */) /* span=onnx:fc */;\n"
    "  %7 = add(%6, meta[relay.Constant][3] /* ty=Tensor[(6), float32] */) /* span=onnx:fc */;\n"
    "  %8 = nn.softmax(%7) /* span=onnx:softmax */;\n"
    "  %9 = transpose(%3, axes=[0, 2, 3, 1]) /* span=onnx:nhwc */;\n"
    "  (%8, %9)\n"
    "}\n";

typedef struct built {
    byoc_module *m;
    byoc_sim_program *p;
    byoc_placement_report *rep;
} built;

static float input[1 * 4 * 10 * 10];

/* text placed on the backends (host last), fused and lowered; prepare: byoc_prepare_for_partition first, as byocc */
static int build_from(built *b, const char *text, byoc_sim_backend *const *backends, int nb, int prepare,
                      byoc_diag *d) {
    memset(b, 0, sizeof *b);
    b->m = byoc_module_parse(text, strlen(text), "artifact.relay", NULL, d);
    if (!b->m || byoc_infer_type(b->m, d) != BYOC_OK) return 0;
    if (prepare && byoc_prepare_for_partition(b->m, NULL, d) != BYOC_OK) return 0;
    const byoc_backend_spec *specs[4];
    const byoc_target *targets[4];
    for (int i = 0; i < nb; ++i) specs[i] = backends[i]->spec, targets[i] = backends[i]->target;
    byoc_partition_options o;
    memset(&o, 0, sizeof o);
    o.backends = specs;
    o.nbackends = nb;
    o.bind_constants = 1;
    if (byoc_partition_greedy(b->m, &o, &b->rep, d) != BYOC_OK || byoc_run_target_hooks(b->m, targets, nb, d) != BYOC_OK) return 0;
    return byoc_fuse_ops(b->m, 256, d) == BYOC_OK && (b->p = byoc_sim_lower(b->m, NULL, d)) != NULL;
}
static int build(built *b, byoc_sim_backend *const *backends, int nb, byoc_diag *d) {
    return build_from(b, model_text, backends, nb, 0, d);
}
static void built_free(built *b) {
    byoc_sim_program_destroy(b->p);
    byoc_placement_report_free(b->rep);
    byoc_module_destroy(b->m);
}

static int run(byoc_sim_program *p, byoc_tensor *out, byoc_diag *d) {
    byoc_tensor in = {BYOC_FLOAT32, 4, {1, 4, 10, 10}, input};
    return byoc_sim_run(p, &in, 1, out, 2, d) == BYOC_OK;
}

static byoc_sim_backend *npu, *dsp;
static void open_backends(void) {
    byoc_diag d;
    if (!npu) npu = byoc_sim_backend_open("npu", &d);
    if (!dsp) dsp = byoc_sim_backend_open("dsp", &d);
    for (size_t i = 0; i < sizeof input / sizeof input[0]; ++i) input[i] = (float)((int)(i * 37 % 101) - 50) / 50.0f;
}

/* an artifact of the model on npu + dsp + host, from malloc */
static unsigned char *saved(size_t *size, const byoc_sim_save_options *so) {
    open_backends();
    byoc_sim_backend *bs[2] = {npu, dsp};
    built b;
    byoc_diag d;
    void *bytes = NULL;
    *size = 0;
    if (build(&b, bs, 2, &d)) {
        byoc_sim_save_options o;
        memset(&o, 0, sizeof o);
        if (so) o = *so;
        o.placement = b.rep;
        if (byoc_sim_executable_save(b.p, &o, &bytes, size, &d) != BYOC_OK) printf("# save: %s\n", d.message);
    } else
        printf("# build: %s\n", d.message);
    built_free(&b);
    return (unsigned char *)bytes;
}

/* the test's own reading of the container: FNV-1a 64 and the header and section fields */
static uint64_t fnv(const unsigned char *p, size_t n) {
    uint64_t h = 14695981039346656037ULL; /* FNV-1a 64 */
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}
static uint64_t get64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}
static void put64(unsigned char *p, uint64_t v) {
    for (int i = 0; i < 8; ++i) p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t sections(const unsigned char *f) { return (uint32_t)get64(f + 12) & 0xffffffffu; }
/* checksums made right again after an edit: what a hostile file would do */
static void resign(unsigned char *f, size_t size) {
    uint32_t n = sections(f);
    if (64 + 32 * (uint64_t)n > size) return; /* the loader refuses the count before any checksum */
    for (uint32_t i = 0; i < n; ++i) {
        unsigned char *e = f + 64 + 32 * i;
        uint64_t off = get64(e + 8), len = get64(e + 16);
        if (off <= size && len <= size - off) put64(e + 24, fnv(f + off, (size_t)len));
    }
    put64(f + 56, fnv(f, 56) ^ fnv(f + 64, 32 * (size_t)n));
}
/* the first section of a kind: its bytes and length */
static unsigned char *section(unsigned char *f, uint32_t kind, size_t *len) {
    for (uint32_t i = 0; i < sections(f); ++i) {
        unsigned char *e = f + 64 + 32 * i;
        if ((get64(e) & 0xffffffffu) == kind) {
            *len = (size_t)get64(e + 16);
            return f + get64(e + 8);
        }
    }
    return NULL;
}

static void test_round_trip_same_outputs(void) {
    open_backends();
    CHECK(npu && dsp);
    byoc_sim_backend *bs[2] = {npu, dsp};
    built b;
    byoc_diag d;
    CHECKF(build(&b, bs, 2, &d), "%s", d.message);
    byoc_tensor direct[2];
    CHECKF(run(b.p, direct, &d), "%s", d.message);
    const char *ins[1] = {"x"}, *outs[2] = {"probs", "features"};
    byoc_sim_save_options o;
    memset(&o, 0, sizeof o);
    o.model = "artifact.relay";
    o.strategy = "greedy";
    o.placement = b.rep;
    o.input_names = ins;
    o.ninputs = 1;
    o.output_names = outs;
    o.noutputs = 2;
    void *bytes = NULL;
    size_t size = 0;
    CHECKF(byoc_sim_executable_save(b.p, &o, &bytes, &size, &d) == BYOC_OK, "%s", d.message);
    byoc_sim_executable *e = byoc_sim_executable_load(bytes, size, "round.byoc", NULL, &d);
    free(bytes);
    CHECKF(e, "%s", d.message);
    byoc_sim_program *p = byoc_sim_executable_program(e);
    byoc_tensor loaded[2];
    int same = run(p, loaded, &d);
    for (int k = 0; same && k < 2; ++k) {
        size_t n = 4;
        for (int i = 0; i < loaded[k].rank; ++i) n *= (size_t)loaded[k].dims[i];
        same = loaded[k].rank == direct[k].rank && !memcmp(loaded[k].data, direct[k].data, n);
    }
    int kernels = byoc_sim_kernel_count(p), direct_kernels = byoc_sim_kernel_count(b.p);
    size_t arena = byoc_sim_memory(p).arena_bytes, direct_arena = byoc_sim_memory(b.p).arena_bytes;
    int blobs = byoc_sim_executable_blob_count(e);
    const char *outputs = byoc_sim_executable_info(e, "outputs"), *strategy = byoc_sim_executable_info(e, "strategy");
    int npu_blob = 0, dsp_blob = 0;
    for (int i = 0; i < blobs; ++i) {
        const byoc_sim_blob_info *bi = byoc_sim_executable_blob(e, i);
        npu_blob += !strcmp(bi->backend, "npu") && !strcmp(bi->kind, "npu") && !strncmp(bi->target, "npu -preset=ethos-u55-256", 25);
        dsp_blob += !strcmp(bi->backend, "dsp") && !strcmp(bi->format, "BYOCDEV 2") && !strncmp(bi->producer, "byoc_sim ", 9);
    }
    int outputs_ok = outputs && !strcmp(outputs, "probs\nfeatures"), strategy_ok = strategy && !strcmp(strategy, "greedy");
    byoc_sim_executable_destroy(e);
    built_free(&b);
    CHECK(same);
    CHECK(kernels == direct_kernels && arena == direct_arena);
    CHECKF(npu_blob >= 1 && dsp_blob >= 1, "%d npu and %d dsp blobs of %d", npu_blob, dsp_blob, blobs);
    CHECK(outputs_ok && strategy_ok);
}

static void test_source_map_covers_every_op(void) {
    byoc_sim_source_node nodes[11] = {{"onnx:conv", "Conv", NULL},   {"onnx:bias", "Add", NULL},        {"onnx:relu", "Relu", NULL},
                                      {"onnx:lrn", "LRN", NULL},     {"onnx:gap", "GlobalAveragePool", NULL}, {"onnx:flatten", "Flatten", NULL},
                                      {"onnx:fc", "Gemm", NULL},     {"onnx:softmax", "Softmax", NULL}, {"onnx:nhwc", "Transpose", NULL},
                                      {"onnx:shape", "Shape", "folded at import: its result depends only on static shapes"},
                                      {"onnx:gone", "Identity", NULL}};
    byoc_sim_save_options o;
    memset(&o, 0, sizeof o);
    o.source_nodes = nodes;
    o.nsource_nodes = 11;
    size_t size;
    unsigned char *f = saved(&size, &o);
    CHECK(f);
    byoc_diag d;
    byoc_sim_executable *e = byoc_sim_executable_load(f, size, "map.byoc", NULL, &d);
    free(f);
    CHECKF(e, "%s", d.message);
    int groups = 0, fc_ops = 0, conv_npu = 0, conv_layer = 0, softmax_dsp = 0, lrn_host = 0, flatten_view = 0, shape_removed = 0, gone_removed = 0, reasons = 0;
    for (int i = 0; i < byoc_sim_executable_source_count(e); ++i) {
        const byoc_sim_source_entry *s = byoc_sim_executable_source(e, i);
        if (i == 0 || byoc_sim_executable_source(e, i - 1)->frontend != s->frontend) groups++;
        if (s->removed) {
            shape_removed += !strcmp(s->frontend, "onnx:shape") && strstr(s->removed, "static shapes");
            gone_removed += !strcmp(s->frontend, "onnx:gone") && strstr(s->removed, "no IR node");
            continue;
        }
        reasons += s->reason[0] != 0;
        if (!strcmp(s->frontend, "onnx:conv") && !strcmp(s->backend, "npu") && s->partition[0] && s->kernel >= 0) {
            conv_npu++;
            const byoc_sim_kernel_info *k = byoc_sim_kernel(byoc_sim_executable_program(e), s->kernel);
            conv_layer += s->layer >= 0 && s->command_first >= 0 && s->command_last >= s->command_first && s->command_offset > 0 && !strcmp(k->device, "npu") &&
                          strstr(s->reason, "npu takes it") != NULL;
        }
        softmax_dsp += !strcmp(s->frontend, "onnx:softmax") && !strcmp(s->backend, "dsp") && s->layer >= 0;
        lrn_host += !strcmp(s->frontend, "onnx:lrn") && !strcmp(s->backend, "host") && s->kernel >= 0 && strstr(s->reason, "npu declined it") != NULL;
        flatten_view += !strcmp(s->frontend, "onnx:flatten") && s->kernel == -1;
        fc_ops += !strcmp(s->frontend, "onnx:fc") && !strcmp(s->backend, "npu");
    }
    size_t len = 0;
    char *json = byoc_sim_executable_source_map_json(e, &len);
    int json_ok = json && strstr(json, "\"frontend\":\"onnx:conv\"") && strstr(json, "\"kernels\":[") && strstr(json, "\"removed\":\"folded at import");
    byoc_sim_executable_free(e, json);
    int total = byoc_sim_executable_source_count(e);
    byoc_sim_executable_destroy(e);
    CHECKF(groups == 11, "%d frontend nodes in the map (11 given)", groups);
    CHECK(conv_npu == 1 && conv_layer == 1);
    CHECK(softmax_dsp == 1 && lrn_host == 1 && flatten_view == 1);
    CHECKF(fc_ops == 2, "%d npu ops for onnx:fc (dense and its bias)", fc_ops);
    CHECK(shape_removed == 1 && gone_removed == 1);
    CHECKF(reasons == total - 2, "%d reasons for %d ops", reasons, total - 2);
    CHECK(json_ok);
}

static void test_truncated_and_flipped_refused(void) {
    size_t size;
    unsigned char *f = saved(&size, NULL);
    CHECK(f && size > 1000);
    byoc_diag d;
    int refused = 0, tried = 0, named = 1;
    for (size_t cut = 0; cut < size; cut += 1 + cut / 8) { /* every prefix, sparser further in */
        tried++;
        byoc_sim_executable *e = byoc_sim_executable_load(f, cut, "cut.byoc", NULL, &d);
        refused += !e && d.code != BYOC_OK;
        named &= e != NULL || strstr(d.message, "cut.byoc") != NULL;
        byoc_sim_executable_destroy(e);
    }
    int flips = 0, flip_refused = 0;
    for (size_t at = 0; at < size; at += 1 + size / 300) { /* a bit flipped anywhere */
        f[at] ^= 0x10;
        byoc_sim_executable *e = byoc_sim_executable_load(f, size, "flip.byoc", NULL, &d);
        flips++;
        flip_refused += !e && (strstr(d.message, "checksum") || strstr(d.message, "magic") || strstr(d.message, "version") || strstr(d.message, "bytes"));
        byoc_sim_executable_destroy(e);
        f[at] ^= 0x10;
    }
    byoc_sim_executable *e = byoc_sim_executable_load(f, size, "intact.byoc", NULL, &d);
    int intact = e != NULL;
    byoc_sim_executable_destroy(e);
    free(f);
    CHECKF(refused == tried && named, "%d of %d truncations refused", refused, tried);
    CHECKF(flip_refused == flips, "%d of %d flips refused by a checksum, magic, version or size", flip_refused, flips);
    CHECK(intact);
}

static void test_hostile_resigned_files_refused(void) {
    size_t size, len;
    unsigned char *f = saved(&size, NULL);
    CHECK(f);
    unsigned char *copy = (unsigned char *)malloc(size);
    CHECK(copy);
    byoc_diag d;
    byoc_sim_executable *e;
#define EXPECT_REFUSED(text)                                                                     \
    do {                                                                                         \
        resign(copy, size);                                                                          \
        e = byoc_sim_executable_load(copy, size, "hostile.byoc", NULL, &d);                      \
        byoc_sim_executable_destroy(e);                                                          \
        if (e || !strstr(d.message, text)) { free(copy); free(f); }                              \
        CHECKF(!e && strstr(d.message, text), "expected \"%s\", got \"%s\"", text, e ? "loaded" : d.message); \
        memcpy(copy, f, size);                                                                   \
    } while (0)
    memcpy(copy, f, size);
    copy[8] = 2; /* a newer format */
    EXPECT_REFUSED("format version 2; this runtime reads version 1");
    put64(copy + 12, 0xffffffffULL | (get64(copy + 12) & ~0xffffffffULL)); /* a section count past the file */
    EXPECT_REFUSED("sections do not fit");
    put64(copy + 64 + 8, (uint64_t)size - 4); /* the first section runs past the end */
    EXPECT_REFUSED("lie outside the file");
    put64(copy + 64 + 16, UINT64_MAX - 10); /* a length that wraps */
    EXPECT_REFUSED("lie outside the file");
    copy[64] = 99; /* an unknown section kind */
    EXPECT_REFUSED("unknown kind 99");
    unsigned char *k = section(copy, 5, &len); /* the kernel list no longer matches the module */
    CHECK(k && len > 8);
    char *tab = (char *)memchr(k, '\t', len);
    CHECK(tab);
    memcpy(tab + 1, "tiled", 5);
    EXPECT_REFUSED("kernel 0 was saved as");
    unsigned char *plan = section(copy, 4, &len); /* the arena's size */
    CHECK(plan && !memcmp(plan, "arena\t", 6));
    plan[6] = plan[6] == '9' ? '1' : '9';
    EXPECT_REFUSED("memory plan: arena is");
    unsigned char *meta = section(copy, 1, &len); /* a host model this runtime lacks */
    char *host = meta ? strstr((char *)meta, "host\thost-") : NULL;
    CHECK(host);
    host[10] = 'Z';
    EXPECT_REFUSED("host model");
    unsigned char *blob = section(copy, 6, &len); /* a blob header naming a partition that does not exist */
    char *fn = blob ? strstr((char *)blob + 4, "function\t") : NULL;
    CHECK(fn);
    fn[9] = 'Q';
    EXPECT_REFUSED("the module has no partition");
    blob = section(copy, 6, &len); /* the blob's stream itself damaged: its own checksum */
    blob[len - 20] ^= 1;
    EXPECT_REFUSED("checksum mismatch");
    char *dsp = NULL; /* a blob moved to another partition of its backend: its types do not fit */
    for (uint32_t i = 0; i < sections(copy) && !dsp; ++i) {
        unsigned char *e = copy + 64 + 32 * i;
        if ((get64(e) & 0xffffffffu) == 6) dsp = strstr((char *)copy + get64(e + 8) + 4, "function\ttvmgen_default_dsp_main_0\n");
    }
    CHECK(dsp);
    dsp[strlen("function\ttvmgen_default_dsp_main_")] = '1';
    EXPECT_REFUSED("does not fit the partition");
    for (uint32_t i = 0; i < sections(copy); ++i) /* an empty source map */
        if ((get64(copy + 64 + 32 * i) & 0xffffffffu) == 7) put64(copy + 64 + 32 * i + 16, 0);
    EXPECT_REFUSED("source map: empty");
    unsigned char *map = section(copy, 7, &len); /* a source map entry pointing at a kernel that does not exist */
    char *ir = map ? strstr((char *)map, "\nir\t") : NULL;
    CHECK(ir);
    char *field = ir + 1;
    for (int t = 0; t < 8 && field; ++t) field = strchr(field, '\t') ? strchr(field, '\t') + 1 : NULL;
    CHECK(field && field[0] != '\t');
    field[0] = '9';
    if (field[1] != '\t') field[1] = '9';
    EXPECT_REFUSED("does not exist");
#undef EXPECT_REFUSED
    free(copy);
    free(f);
}

static void test_missing_and_incompatible_backends_refused(void) {
    size_t size;
    unsigned char *f = saved(&size, NULL);
    CHECK(f);
    byoc_diag d;
    byoc_sim_runtime_backend only_npu[1] = {{"npu", &npu->device}};
    byoc_sim_load_options o;
    memset(&o, 0, sizeof o);
    o.backends = only_npu;
    o.nbackends = 1;
    byoc_sim_executable *e = byoc_sim_executable_load(f, size, "a.byoc", &o, &d);
    int missing = !e && strstr(d.message, "needs backend 'dsp'") && strstr(d.message, "does not offer");
    byoc_sim_executable_destroy(e);
    byoc_sim_device bigger = *byoc_sim_preset_find("npu-128x128");
    byoc_sim_runtime_backend both[2] = {{"npu", &bigger}, {"dsp", NULL}};
    o.backends = both;
    o.nbackends = 2;
    e = byoc_sim_executable_load(f, size, "a.byoc", &o, &d);
    int incompatible = !e && strstr(d.message, "was compiled for 'npu -preset=ethos-u55-256") && strstr(d.message, "this runtime's npu is 'npu -preset=npu-128x128");
    byoc_sim_executable_destroy(e);
    both[0].device = &npu->device;
    e = byoc_sim_executable_load(f, size, "a.byoc", &o, &d);
    int matching = e != NULL;
    byoc_sim_executable_destroy(e);
    free(f);
    CHECK(missing);
    CHECK(incompatible);
    CHECKF(matching, "%s", d.message);
}

/* A QDQ conv whose quantize and dequantize share one scale node and one zero point node, as an ONNX model's share an
   initializer: FakeQuantizationToInteger passes them on to qnn.quantize and qnn.conv2d, two kernels reading one
   scalar constant. The text format prints a scalar at each use, so the saved module reads back with one node per
   use: the plan lowered from it must still be the saved one, and it must compute the same. */
static const char shared_scalars_text[] =
    "def @main(%x: Tensor[(1, 1, 6, 6), float32]) {\n"
    "  %s = 0.5f;\n"
    "  %z = 0u8;\n"
    "  %0 = qnn.quantize(%x, %s, %z, out_dtype=\"uint8\");\n"
    "  %1 = qnn.dequantize(%0, %s, %z);\n"
    "  %2 = qnn.dequantize(meta[relay.Constant][0] /* ty=Tensor[(2, 1, 3, 3), int8] */, 0.01f, 0i8);\n"
    "  %3 = nn.conv2d(%1, %2, padding=[1, 1, 1, 1]);\n"
    "  %4 = qnn.quantize(%3, 0.25f, 128u8, out_dtype=\"uint8\");\n"
    "  qnn.dequantize(%4, 0.25f, 128u8)\n"
    "}\n";

static void test_shared_scalar_constants_round_trip(void) {
    open_backends();
    CHECK(npu && dsp);
    static float x[36];
    for (int i = 0; i < 36; ++i) x[i] = (float)(i * 7 % 50) / 4.0f;
    byoc_sim_backend *bs[2] = {npu, dsp};
    for (int nb = 0; nb <= 2; nb += 2) { /* the host alone, and with the devices */
        built b;
        byoc_diag d;
        CHECKF(build_from(&b, shared_scalars_text, bs, nb, 1, &d), "%s", d.message);
        byoc_tensor in = {BYOC_FLOAT32, 4, {1, 1, 6, 6}, x}, direct, loaded;
        CHECKF(byoc_sim_run(b.p, &in, 1, &direct, 1, &d) == BYOC_OK, "%s", d.message);
        void *bytes = NULL;
        size_t size = 0;
        CHECKF(byoc_sim_executable_save(b.p, NULL, &bytes, &size, &d) == BYOC_OK, "%s", d.message);
        byoc_sim_executable *e = byoc_sim_executable_load(bytes, size, "shared.byoc", NULL, &d);
        free(bytes);
        CHECKF(e, "%d backends: %s", nb, d.message);
        byoc_sim_program *p = byoc_sim_executable_program(e);
        int ran = byoc_sim_run(p, &in, 1, &loaded, 1, &d) == BYOC_OK;
        int same = ran && loaded.rank == 4 && !memcmp(loaded.data, direct.data, sizeof(float) * 2 * 36);
        int kernels = byoc_sim_kernel_count(p) == byoc_sim_kernel_count(b.p);
        byoc_sim_executable_destroy(e);
        built_free(&b);
        CHECKF(ran, "%s", d.message);
        CHECK(same && kernels);
    }
}

/* a counting allocator: everything the loaded executable owns goes through it */
typedef struct counting {
    long live, total;
} counting;
static void *counting_alloc(size_t n, void *user) {
    counting *c = (counting *)user;
    c->live++;
    c->total++;
    return malloc(n);
}
static void counting_free(void *p, void *user) {
    ((counting *)user)->live--;
    free(p);
}

static void test_load_through_callers_allocator(void) {
    size_t size;
    unsigned char *f = saved(&size, NULL);
    CHECK(f);
    counting c = {0, 0};
    byoc_allocator a = {counting_alloc, counting_free, &c};
    byoc_sim_load_options o;
    memset(&o, 0, sizeof o);
    o.allocator = &a;
    byoc_diag d;
    byoc_sim_executable *e = byoc_sim_executable_load(f, size, "alloc.byoc", &o, &d);
    free(f);
    CHECKF(e, "%s", d.message);
    byoc_tensor out[2];
    int ran = run(byoc_sim_executable_program(e), out, &d);
    long during = c.live;
    byoc_sim_executable_destroy(e);
    CHECK(ran);
    CHECKF(c.total > 10 && during > 0 && c.live == 0, "%ld allocations, %ld live while loaded, %ld after destroy", c.total, during, c.live);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_round_trip_same_outputs),         TEST_ENTRY(test_source_map_covers_every_op),
        TEST_ENTRY(test_truncated_and_flipped_refused),   TEST_ENTRY(test_hostile_resigned_files_refused),
        TEST_ENTRY(test_missing_and_incompatible_backends_refused), TEST_ENTRY(test_load_through_callers_allocator),
        TEST_ENTRY(test_shared_scalar_constants_round_trip),
    };
    int rc = run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
    byoc_sim_backend_close(npu);
    byoc_sim_backend_close(dsp);
    return rc;
}
