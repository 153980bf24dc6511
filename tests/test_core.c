/* Unit tests for the byoc.h core: IR, builder, op registry, type inference, text format, weights,
   structural equality/hash/copy and traversal. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "byoc.h"
#include "test.h"

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

/* ---- helpers ---- */
static byoc_module *parse_text(const char *text, byoc_diag *d) {
    return byoc_module_parse(text, strlen(text), "test.relay", NULL, d);
}

/* print, re-parse with the module's own weights, compare */
static int round_trips(byoc_module *m, char *why, size_t cap) {
    size_t len, wsize;
    char *text = byoc_module_print(m, BYOC_PRINT_TYPES, &len);
    void *weights = byoc_module_weights_serialize(m, &wsize);
    byoc_parse_options o;
    memset(&o, 0, sizeof o);
    o.weights = weights;
    o.weights_size = wsize;
    o.require_weights = 1;
    byoc_diag d;
    byoc_module *again = byoc_module_parse(text, len, "printed.relay", &o, &d);
    int ok = again && byoc_module_structural_equal(m, again);
    if (!again) snprintf(why, cap, "re-parse failed: %s", d.message);
    else if (!ok) snprintf(why, cap, "re-parsed module differs:\n%s", text);
    byoc_module_destroy(again);
    byoc_free(m, text);
    byoc_free(m, weights);
    return ok;
}

static const byoc_type *t4(byoc_module *m, int64_t a, int64_t b, int64_t c, int64_t d) {
    int64_t dims[4] = {a, b, c, d};
    return byoc_tensor_type(m, BYOC_FLOAT32, 4, dims);
}

static byoc_node *weight(byoc_module *m, int64_t o, int64_t i, int64_t kh, int64_t kw) {
    const byoc_type *t = t4(m, o, i, kh, kw);
    int64_t n = o * i * kh * kw; /* the caller passes positive sizes */
    float *data = (float *)malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
    for (int64_t k = 0; k < n; ++k) data[k] = (float)(k % 7) * 0.25f - 0.5f;
    byoc_node *c = byoc_constant(m, t, data, sizeof(float) * (size_t)n);
    free(data);
    return c;
}

/* conv -> bias add -> relu, as a module */
static byoc_module *build_conv_module(int in_channels, int weight_in_channels) {
    byoc_module *m = byoc_module_create(NULL);
    byoc_node *x = byoc_var(m, "x", t4(m, 1, in_channels, 8, 8));
    byoc_node *args[2] = {x, weight(m, 4, weight_in_channels, 3, 3)};
    byoc_attrs a = {0};
    int64_t pad[2] = {1, 1};
    byoc_attrs_set_ints(m, &a, "padding", pad, 2);
    byoc_node *conv = byoc_call(m, "nn.conv2d", args, 2, &a);
    int64_t four = 4;
    byoc_node *bias = byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, 1, &four), NULL, 0);
    byoc_node *ba[2] = {conv, bias};
    byoc_node *badd = byoc_call(m, "nn.bias_add", ba, 2, NULL);
    byoc_node *relu = byoc_call(m, "nn.relu", &badd, 1, NULL);
    byoc_module_add_function(m, "main", byoc_function(m, &x, 1, relu, NULL, NULL));
    return m;
}

/* ---- dtypes, types, attributes ---- */
static void test_dtypes(void) {
    static const char *names[] = {"float32", "float16", "bfloat16", "int8", "uint8", "int16", "int32", "int64", "bool", "float64", "uint16", "uint32", "uint64"};
    static const size_t sizes[] = {4, 2, 2, 1, 1, 2, 4, 8, 1, 8, 2, 4, 8};
    for (int i = 0; i < 13; ++i) {
        byoc_dtype dt = byoc_dtype_from_name(names[i]);
        CHECKF(dt != BYOC_DTYPE_INVALID, "%s unknown", names[i]);
        CHECK(strcmp(byoc_dtype_name(dt), names[i]) == 0);
        CHECK(byoc_dtype_size(dt) == sizes[i]);
        CHECK((int)dt == i + 1); /* the weights file stores these codes */
    }
    CHECK(byoc_dtype_from_name("float128") == BYOC_DTYPE_INVALID && byoc_dtype_from_name("complex64") == BYOC_DTYPE_INVALID);
    CHECK(byoc_dtype_is_float(BYOC_BFLOAT16) && byoc_dtype_is_float(BYOC_FLOAT64) && !byoc_dtype_is_float(BYOC_INT8) && !byoc_dtype_is_float(BYOC_UINT64));
}

static void test_types(void) {
    byoc_module *m = byoc_module_create(NULL);
    int64_t dims[9] = {1, BYOC_DIM_UNKNOWN, 3, 1, 1, 1, 1, 1, 1};
    const byoc_type *t = byoc_tensor_type(m, BYOC_FLOAT32, 3, dims);
    char buf[128];
    byoc_type_to_string(t, buf, sizeof buf);
    CHECK(strcmp(buf, "Tensor[(1, ?, 3), float32]") == 0);
    CHECK(!byoc_type_is_static(t) && byoc_type_num_elements(t) == -1);
    const byoc_type *scalar = byoc_tensor_type(m, BYOC_INT64, 0, NULL);
    byoc_type_to_string(scalar, buf, sizeof buf);
    CHECK(strcmp(buf, "int64") == 0);
    CHECK(byoc_type_num_elements(scalar) == 1);
    CHECK(byoc_tensor_type(m, BYOC_FLOAT32, 8, dims) != NULL); /* rank 8 is the maximum */
    const byoc_type *fields[2] = {t, scalar};
    const byoc_type *tup = byoc_tuple_type(m, fields, 2);
    byoc_type_to_string(tup, buf, sizeof buf);
    CHECK(strcmp(buf, "(Tensor[(1, ?, 3), float32], int64)") == 0);
    const byoc_type *fn = byoc_func_type(m, fields, 1, scalar);
    byoc_type_to_string(fn, buf, sizeof buf);
    CHECK(strcmp(buf, "fn (Tensor[(1, ?, 3), float32]) -> int64") == 0);
    CHECK(byoc_type_equal(byoc_type_parse(m, buf, NULL), fn));
    CHECK(byoc_module_error(m) == NULL);
    CHECK(byoc_tensor_type(m, BYOC_FLOAT32, 9, dims) == NULL); /* rank 9: rejected, sticky */
    CHECK_CONTAINS(byoc_module_error(m)->message, "rank 9");
    CHECK(byoc_tensor_type(m, BYOC_FLOAT32, 1, dims) == NULL);
    byoc_module_destroy(m);
}

static void test_attrs(void) {
    byoc_module *m = byoc_module_create(NULL);
    byoc_attrs a = {0};
    int64_t ints[3] = {1, 2, 3};
    double fl[2] = {0.5, -1.25};
    byoc_attrs_set_int(m, &a, "i", 7);
    byoc_attrs_set_float(m, &a, "f", 0.25);
    byoc_attrs_set_string(m, &a, "s", "NCHW");
    byoc_attrs_set_bool(m, &a, "b", 1);
    byoc_attrs_set_ints(m, &a, "il", ints, 3);
    byoc_attrs_set_floats(m, &a, "fl", fl, 2);
    byoc_attrs_set_none(m, &a, "n");
    CHECK(a.count == 7);
    CHECK(byoc_attrs_int(&a, "i", 0) == 7 && byoc_attrs_float(&a, "f", 0) == 0.25);
    CHECK(strcmp(byoc_attrs_string(&a, "s", ""), "NCHW") == 0);
    CHECK(byoc_attrs_get(&a, "il")->count == 3 && byoc_attrs_get(&a, "il")->ints[2] == 3);
    CHECK(byoc_attrs_get(&a, "fl")->floats[1] == -1.25);
    CHECK(byoc_attrs_get(&a, "n")->kind == BYOC_ATTR_NONE);
    CHECK(byoc_attrs_int(&a, "missing", 42) == 42);
    byoc_attrs_set_int(m, &a, "i", 8); /* replace keeps the count */
    CHECK(a.count == 7 && byoc_attrs_int(&a, "i", 0) == 8);
    byoc_attr_value v;
    CHECK(byoc_attr_value_parse(m, "[[0, 0], [2, 2]]", &v, NULL) == BYOC_OK);
    CHECK(v.kind == BYOC_ATTR_INT_LIST && v.inner == 2 && v.count == 4 && v.ints[2] == 2);
    CHECK(byoc_attr_value_parse(m, "[0.5f, 1]", &v, NULL) == BYOC_OK && v.kind == BYOC_ATTR_FLOAT_LIST && v.floats[1] == 1.0);
    byoc_diag d;
    CHECK(byoc_attr_value_parse(m, "[[1], [2, 3]]", &v, &d) == BYOC_ERR_PARSE);
    CHECK_CONTAINS(d.message, "equal length");
    byoc_module_destroy(m);
}

/* ---- builder and registry ---- */
static void test_builder_and_infer(void) {
    byoc_module *m = build_conv_module(3, 3);
    CHECK(byoc_module_error(m) == NULL);
    byoc_diag d;
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    char buf[128];
    byoc_type_to_string(byoc_module_function(m, "main")->body->checked_type, buf, sizeof buf);
    CHECK(strcmp(buf, "Tensor[(1, 4, 8, 8), float32]") == 0);
    char why[4096];
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
}

static void test_infer_error_names_node(void) {
    byoc_module *m = build_conv_module(16, 8);
    byoc_diag d;
    CHECK(byoc_infer_type(m, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "nn.conv2d %0");
    CHECK_CONTAINS(d.message, "input has 16 channels, weight expects 8");
    CHECK(d.node_id != 0);
    byoc_module_destroy(m);
    /* from text: the message carries file:line:col and the frontend name */
    const char *text = "def @main(%x: Tensor[(1, 16, 8, 8), float32], %w: Tensor[(4, 8, 3, 3), float32]) {\n"
                       "  %0 = nn.relu(%x);\n"
                       "  %1 = nn.conv2d(%0, %w) /* span=onnx:conv1 */;\n"
                       "  nn.relu(%1)\n}\n";
    m = parse_text(text, &d);
    CHECK(m);
    CHECK(byoc_infer_type(m, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "test.relay:3:8: nn.conv2d %1 (onnx:conv1) in @main: input has 16 channels, weight expects 8");
    CHECK(d.line == 3 && d.col == 8);
    byoc_module_destroy(m);
}

static void test_sticky_builder_errors(void) {
    byoc_module *m = byoc_module_create(NULL);
    byoc_node *x = byoc_var(m, "x", t4(m, 1, 1, 2, 2));
    CHECK(byoc_call(m, "nn.nope", &x, 1, NULL) == NULL);
    CHECK_CONTAINS(byoc_module_error(m)->message, "unknown op 'nn.nope'");
    CHECK(byoc_module_error(m)->code == BYOC_ERR_UNKNOWN_OP);
    CHECK(byoc_call(m, "nn.relu", &x, 1, NULL) == NULL); /* sticky */
    byoc_module_clear_error(m);
    CHECK(byoc_call(m, "nn.relu", &x, 1, NULL) != NULL);
    byoc_node *two[2] = {x, x};
    CHECK(byoc_call(m, "nn.relu", two, 2, NULL) == NULL);
    CHECK_CONTAINS(byoc_module_error(m)->message, "nn.relu: expects 1 argument, got 2");
    byoc_module_destroy(m);
}

static void test_attr_schema_errors(void) {
    byoc_module *m = byoc_module_create(NULL);
    byoc_node *x = byoc_var(m, "x", t4(m, 1, 1, 4, 4));
    byoc_node *args[2] = {x, weight(m, 1, 1, 1, 1)};
    byoc_attrs a = {0};
    byoc_attrs_set_string(m, &a, "groups", "two");
    CHECK(byoc_call(m, "nn.conv2d", args, 2, &a) == NULL);
    CHECK_CONTAINS(byoc_module_error(m)->message, "nn.conv2d: attribute 'groups' expects int, got string");
    CHECK(byoc_module_error(m)->code == BYOC_ERR_ATTR);
    byoc_module_clear_error(m);
    byoc_attrs b = {0};
    byoc_attrs_set_int(m, &b, "bogus", 1);
    CHECK(byoc_call(m, "nn.conv2d", args, 2, &b) == NULL);
    CHECK_CONTAINS(byoc_module_error(m)->message, "nn.conv2d: unknown attribute 'bogus'");
    byoc_module_clear_error(m);
    CHECK(byoc_call(m, "reshape", &x, 1, NULL) == NULL);
    CHECK_CONTAINS(byoc_module_error(m)->message, "reshape: missing required attribute 'newshape'");
    byoc_module_clear_error(m);
    /* defaults are filled in: the stored attrs are complete */
    byoc_node *c = byoc_call(m, "nn.conv2d", args, 2, NULL);
    CHECK(c && byoc_attrs_int(&c->attrs, "groups", 0) == 1);
    CHECK(strcmp(byoc_attrs_string(&c->attrs, "data_layout", ""), "NCHW") == 0);
    /* an int is accepted where a float is expected */
    byoc_attrs l = {0};
    byoc_attrs_set_int(m, &l, "alpha", 1);
    byoc_node *lr = byoc_call(m, "nn.leaky_relu", &x, 1, &l);
    CHECK(lr && byoc_attrs_get(&lr->attrs, "alpha")->kind == BYOC_ATTR_FLOAT);
    byoc_module_destroy(m);
}

static void test_registry_contents(void) {
    static const struct { const char *name; byoc_op_pattern kind; } expect[] = {
        {"nn.conv2d", BYOC_PATTERN_OUT_ELEMWISE_FUSABLE}, {"nn.conv2d_transpose", BYOC_PATTERN_OUT_ELEMWISE_FUSABLE},
        {"nn.dense", BYOC_PATTERN_OUT_ELEMWISE_FUSABLE}, {"nn.matmul", BYOC_PATTERN_OUT_ELEMWISE_FUSABLE},
        {"nn.batch_matmul", BYOC_PATTERN_OUT_ELEMWISE_FUSABLE}, {"add", BYOC_PATTERN_BROADCAST}, {"subtract", BYOC_PATTERN_BROADCAST},
        {"multiply", BYOC_PATTERN_BROADCAST}, {"divide", BYOC_PATTERN_BROADCAST}, {"power", BYOC_PATTERN_BROADCAST},
        {"maximum", BYOC_PATTERN_BROADCAST}, {"minimum", BYOC_PATTERN_BROADCAST}, {"nn.bias_add", BYOC_PATTERN_BROADCAST},
        {"nn.relu", BYOC_PATTERN_ELEMWISE}, {"nn.leaky_relu", BYOC_PATTERN_ELEMWISE}, {"clip", BYOC_PATTERN_ELEMWISE},
        {"sigmoid", BYOC_PATTERN_ELEMWISE}, {"tanh", BYOC_PATTERN_ELEMWISE}, {"exp", BYOC_PATTERN_ELEMWISE}, {"log", BYOC_PATTERN_ELEMWISE},
        {"sqrt", BYOC_PATTERN_ELEMWISE}, {"erf", BYOC_PATTERN_ELEMWISE}, {"nn.hard_sigmoid", BYOC_PATTERN_ELEMWISE},
        {"nn.hard_swish", BYOC_PATTERN_ELEMWISE}, {"nn.gelu", BYOC_PATTERN_ELEMWISE}, {"nn.softmax", BYOC_PATTERN_OUT_ELEMWISE_FUSABLE},
        {"nn.batch_norm", BYOC_PATTERN_OPAQUE}, {"nn.layer_norm", BYOC_PATTERN_OPAQUE}, {"nn.max_pool2d", BYOC_PATTERN_OUT_ELEMWISE_FUSABLE},
        {"nn.avg_pool2d", BYOC_PATTERN_OUT_ELEMWISE_FUSABLE}, {"nn.global_avg_pool2d", BYOC_PATTERN_OUT_ELEMWISE_FUSABLE},
        {"nn.pad", BYOC_PATTERN_INJECTIVE}, {"reshape", BYOC_PATTERN_INJECTIVE}, {"transpose", BYOC_PATTERN_INJECTIVE},
        {"squeeze", BYOC_PATTERN_INJECTIVE}, {"expand_dims", BYOC_PATTERN_BROADCAST}, {"concatenate", BYOC_PATTERN_INJECTIVE},
        {"split", BYOC_PATTERN_INJECTIVE}, {"strided_slice", BYOC_PATTERN_INJECTIVE}, {"take", BYOC_PATTERN_INJECTIVE},
        {"nn.depth_to_space", BYOC_PATTERN_INJECTIVE}, {"mean", BYOC_PATTERN_COMM_REDUCE}, {"sum", BYOC_PATTERN_COMM_REDUCE},
        {"max", BYOC_PATTERN_COMM_REDUCE}, {"cast", BYOC_PATTERN_ELEMWISE}, {"copy", BYOC_PATTERN_ELEMWISE}, {"nn.dropout", BYOC_PATTERN_OPAQUE},
        {"image.resize2d", BYOC_PATTERN_INJECTIVE}, {"annotation.compiler_begin", BYOC_PATTERN_OPAQUE},
        {"annotation.compiler_end", BYOC_PATTERN_OPAQUE}, {"annotation.stop_fusion", BYOC_PATTERN_OPAQUE},
        /* needed by the models in ../shared/models */
        {"nn.lrn", BYOC_PATTERN_OPAQUE}, {"equal", BYOC_PATTERN_BROADCAST}, {"where", BYOC_PATTERN_BROADCAST},
        {"broadcast_to", BYOC_PATTERN_BROADCAST}, {"shape_of", BYOC_PATTERN_OPAQUE},
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; ++i) {
        const byoc_op *op = byoc_op_get(expect[i].name);
        CHECKF(op != NULL, "op %s is missing", expect[i].name);
        CHECKF(op->def.pattern == expect[i].kind, "%s has pattern %s", expect[i].name, byoc_op_pattern_name(op->def.pattern));
    }
    CHECK(byoc_op_count() >= (int)(sizeof expect / sizeof expect[0]));
    for (int i = 0; i < byoc_op_count(); ++i) CHECK(byoc_op_at(i)->def.type_rel != NULL);
}

/* a user op: my.scale(x, factor=1.0) keeps the input type; integers are rejected */
static const byoc_type *scale_rel(byoc_type_rel_ctx *ctx, const byoc_type *const *args, int n, const byoc_attrs *attrs) {
    (void)n;
    int *calls = (int *)byoc_type_rel_user_data(ctx);
    ++*calls;
    if (!byoc_dtype_is_float(args[0]->dtype)) return byoc_type_rel_fail(ctx, "needs floats, got %s", byoc_dtype_name(args[0]->dtype));
    if (byoc_attrs_float(attrs, "factor", 0) == 0) return byoc_type_rel_fail(ctx, "factor must not be zero");
    return args[0];
}

static void test_user_op(void) {
    static int calls;
    static const byoc_attr_spec attrs[] = {{"factor", BYOC_ATTR_FLOAT, "1f"}};
    byoc_op_def def;
    memset(&def, 0, sizeof def);
    def.name = "my.scale";
    def.min_args = def.max_args = 1;
    def.pattern = BYOC_PATTERN_ELEMWISE;
    def.attrs = attrs;
    def.nattrs = 1;
    def.type_rel = scale_rel;
    def.user_data = &calls;
    byoc_diag d;
    CHECKF(byoc_op_register(&def, &d) == BYOC_OK, "%s", d.message);
    CHECK(byoc_op_register(&def, &d) == BYOC_ERR_DUPLICATE);
    CHECK_CONTAINS(d.message, "'my.scale' is already registered");
    static const byoc_attr_spec bad_attrs[] = {{"k", BYOC_ATTR_INT, "\"text\""}};
    byoc_op_def bad = def;
    bad.name = "my.bad";
    bad.attrs = bad_attrs;
    CHECK(byoc_op_register(&bad, &d) == BYOC_ERR_ATTR);
    CHECK(byoc_op_get("my.bad") == NULL);
    /* usable from text, printed and type-checked */
    const char *text = "def @main(%x: Tensor[(2, 2), float32], %i: Tensor[(2,), int32]) { %0 = my.scale(%x, factor=3f); my.scale(%0) }";
    byoc_module *m = parse_text(text, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECK(byoc_infer_type(m, &d) == BYOC_OK && calls == 2);
    char why[2048];
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
    m = parse_text("def @main(%i: Tensor[(2,), int32]) { my.scale(%i) }", &d);
    CHECK(m && byoc_infer_type(m, &d) == BYOC_ERR_TYPE);
    CHECK_CONTAINS(d.message, "my.scale");
    CHECK_CONTAINS(d.message, "needs floats, got int32");
    byoc_module_destroy(m);
}

/* ---- type relations: one line per case ---- */
typedef struct type_case { const char *params, *body, *expect; } type_case;
static const type_case type_cases[] = {
    {"%x: Tensor[(1, 3, 224, 224), float32], %w: Tensor[(64, 3, 7, 7), float32]", "nn.conv2d(%x, %w, strides=[2, 2], padding=[3, 3, 3, 3])", "Tensor[(1, 64, 112, 112), float32]"},
    {"%x: Tensor[(1, 32, 56, 56), float32], %w: Tensor[(32, 1, 3, 3), float32]", "nn.conv2d(%x, %w, padding=[1, 1], groups=32)", "Tensor[(1, 32, 56, 56), float32]"},
    {"%x: Tensor[(1, 8, 10, 10), float32], %w: Tensor[(8, 8, 3, 3), float32]", "nn.conv2d(%x, %w, dilation=[2, 2])", "Tensor[(1, 8, 6, 6), float32]"},
    {"%x: Tensor[(?, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]", "nn.conv2d(%x, %w)", "Tensor[(?, 4, 6, 6), float32]"},
    {"%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]", "nn.conv2d(%x, %w, data_layout=\"NHWC\")", "!data_layout \"NHWC\" is not supported"},
    {"%x: Tensor[(1, 3, 2, 2), float32], %w: Tensor[(4, 3, 3, 3), float32]", "nn.conv2d(%x, %w)", "!larger than the padded height"},
    {"%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]", "nn.conv2d(%x, %w, channels=5)", "!channels=5 but weight has 4"},
    {"%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(3, 5, 4, 4), float32]", "nn.conv2d_transpose(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1])", "Tensor[(1, 5, 16, 16), float32]"},
    {"%x: Tensor[(4, 256), float32], %w: Tensor[(10, 256), float32]", "nn.dense(%x, %w)", "Tensor[(4, 10), float32]"},
    {"%x: Tensor[(4, 255), float32], %w: Tensor[(10, 256), float32]", "nn.dense(%x, %w)", "!input has 255 features, weight expects 256"},
    {"%a: Tensor[(2, 1, 4, 8), float32], %b: Tensor[(3, 8, 5), float32]", "nn.matmul(%a, %b)", "Tensor[(2, 3, 4, 5), float32]"},
    {"%a: Tensor[(4, 8), float32], %b: Tensor[(5, 8), float32]", "nn.matmul(%a, %b, transpose_b=True)", "Tensor[(4, 5), float32]"},
    {"%a: Tensor[(2, 4, 8), float32], %b: Tensor[(2, 5, 8), float32]", "nn.batch_matmul(%a, %b)", "Tensor[(2, 4, 5), float32]"},
    {"%a: Tensor[(2, 4, 8), float32], %b: Tensor[(2, 8, 5), float32]", "nn.batch_matmul(%a, %b, transpose_b=False)", "Tensor[(2, 4, 5), float32]"},
    {"%a: Tensor[(8, 1, 3), float32], %b: Tensor[(4, 1), float32]", "add(%a, %b)", "Tensor[(8, 4, 3), float32]"},
    {"%a: Tensor[(2, 3), float32], %b: Tensor[(4, 3), float32]", "subtract(%a, %b)", "!do not broadcast"},
    {"%a: Tensor[(2, 3), float32], %b: Tensor[(2, 3), int32]", "multiply(%a, %b)", "!argument dtypes differ (float32 vs int32)"},
    {"%a: Tensor[(2, 3), float32]", "divide(%a, 2f)", "Tensor[(2, 3), float32]"},
    {"%a: Tensor[(2, 3), float32]", "power(%a, 2f)", "Tensor[(2, 3), float32]"},
    {"%a: Tensor[(2, 3), float32], %b: Tensor[(3,), float32]", "maximum(%a, %b)", "Tensor[(2, 3), float32]"},
    {"%a: Tensor[(2, 3), float32], %b: Tensor[(3,), float32]", "minimum(%a, %b)", "Tensor[(2, 3), float32]"},
    {"%a: Tensor[(2, 3), int64], %b: Tensor[(1,), int64]", "equal(%a, %b)", "Tensor[(2, 3), bool]"},
    {"%c: Tensor[(2, 1), bool], %a: Tensor[(2, 3), float32]", "where(%c, %a, 0f)", "Tensor[(2, 3), float32]"},
    {"%x: Tensor[(1, 16, 4, 4), float32], %b: Tensor[(16,), float32]", "nn.bias_add(%x, %b)", "Tensor[(1, 16, 4, 4), float32]"},
    {"%x: Tensor[(1, 16, 4, 4), float32], %b: Tensor[(8,), float32]", "nn.bias_add(%x, %b)", "!data has 16 channels on axis 1, bias has 8"},
    {"%x: Tensor[(2, 5), float32]", "nn.relu(%x)", "Tensor[(2, 5), float32]"},
    {"%x: Tensor[(2, 5), float32]", "nn.leaky_relu(%x, alpha=0.1f)", "Tensor[(2, 5), float32]"},
    {"%x: Tensor[(2, 5), float32]", "clip(%x, a_min=0f, a_max=6f)", "Tensor[(2, 5), float32]"},
    {"%x: Tensor[(2, 5), float32]", "clip(%x, a_min=0f)", "!missing required attribute 'a_max'"},
    {"%x: Tensor[(2, 5), float32]", "sigmoid(%x)", "Tensor[(2, 5), float32]"},
    {"%x: Tensor[(2, 5), int32]", "tanh(%x)", "!the input must be a float tensor, got int32"},
    {"%x: Tensor[(2, 5), float16]", "exp(%x)", "Tensor[(2, 5), float16]"},
    {"%x: Tensor[(2, 5), float32]", "log(%x)", "Tensor[(2, 5), float32]"},
    {"%x: Tensor[(2, 5), float32]", "sqrt(%x)", "Tensor[(2, 5), float32]"},
    {"%x: Tensor[(2, 5), float32]", "erf(%x)", "Tensor[(2, 5), float32]"},
    {"%x: Tensor[(2, 5), float32]", "nn.hard_sigmoid(%x)", "Tensor[(2, 5), float32]"},
    {"%x: Tensor[(2, 5), float32]", "nn.hard_swish(%x)", "Tensor[(2, 5), float32]"},
    {"%x: Tensor[(2, 5), bfloat16]", "nn.gelu(%x)", "Tensor[(2, 5), bfloat16]"},
    {"%x: Tensor[(2, 5), float32]", "nn.softmax(%x)", "Tensor[(2, 5), float32]"},
    {"%x: Tensor[(2, 5), float32]", "nn.softmax(%x, axis=2)", "!axis 2 is out of range for rank 2"},
    {"%x: Tensor[(1, 4, 3, 3), float32], %g: Tensor[(4,), float32]", "nn.batch_norm(%x, %g, %g, %g, %g)",
     "(Tensor[(1, 4, 3, 3), float32], Tensor[(4,), float32], Tensor[(4,), float32])"},
    {"%x: Tensor[(1, 4, 3, 3), float32], %g: Tensor[(4,), float32]", "%0 = nn.batch_norm(%x, %g, %g, %g, %g, epsilon=0.001f); %0.0", "Tensor[(1, 4, 3, 3), float32]"},
    {"%x: Tensor[(2, 7, 32), float32], %g: Tensor[(32,), float32]", "nn.layer_norm(%x, %g, %g)", "Tensor[(2, 7, 32), float32]"},
    {"%x: Tensor[(1, 8, 5, 5), float32]", "nn.lrn(%x, size=3)", "Tensor[(1, 8, 5, 5), float32]"},
    {"%x: Tensor[(1, 8, 112, 112), float32]", "nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1])", "Tensor[(1, 8, 56, 56), float32]"},
    {"%x: Tensor[(1, 8, 6, 6), float32]", "nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], ceil_mode=True)", "Tensor[(1, 8, 3, 3), float32]"},
    {"%x: Tensor[(1, 8, 5, 5), float32]", "nn.max_pool2d(%x, pool_size=[2, 2], strides=[2, 2], ceil_mode=True)", "Tensor[(1, 8, 3, 3), float32]"},
    {"%x: Tensor[(1, 8, 7, 7), float32]", "nn.avg_pool2d(%x, pool_size=[7, 7])", "Tensor[(1, 8, 1, 1), float32]"},
    {"%x: Tensor[(1, 8, 7, 7), float32]", "nn.global_avg_pool2d(%x)", "Tensor[(1, 8, 1, 1), float32]"},
    {"%x: Tensor[(1, 1, 28, 28), float32]", "nn.pad(%x, 0f, pad_width=[[0, 0], [0, 0], [2, 2], [1, 3]])", "Tensor[(1, 1, 32, 32), float32]"},
    {"%x: Tensor[(1, 1, 28, 28), float32]", "nn.pad(%x, 0f, pad_width=[[0, 0], [2, 2]])", "!pad_width must be 4 pairs"},
    {"%x: Tensor[(2, 3, 4), float32]", "reshape(%x, newshape=[0, -1])", "Tensor[(2, 12), float32]"},
    {"%x: Tensor[(2, 3, 4), float32]", "reshape(%x, newshape=[5, -1])", "!cannot infer the -1"},
    {"%x: Tensor[(?, 3, 4), float32]", "reshape(%x, newshape=[-1])", "Tensor[(?,), float32]"}, /* '?' in, '?' inferred */
    {"%x: Tensor[(?, 3, 4), float32]", "reshape(%x, newshape=[0, 12])", "Tensor[(?, 12), float32]"},
    {"%x: Tensor[(2, 3, 4), float32]", "transpose(%x, axes=[0, 2, 1])", "Tensor[(2, 4, 3), float32]"},
    {"%x: Tensor[(2, 3, 4), float32]", "transpose(%x)", "Tensor[(4, 3, 2), float32]"},
    {"%x: Tensor[(2, 3, 4), float32]", "transpose(%x, axes=[0, 0, 1])", "!axes repeats axis 0"},
    {"%x: Tensor[(1, 3, 1, 4), float32]", "squeeze(%x)", "Tensor[(3, 4), float32]"},
    {"%x: Tensor[(1, 3, 1, 4), float32]", "squeeze(%x, axis=[2])", "Tensor[(1, 3, 4), float32]"},
    {"%x: Tensor[(1, 3, 1, 4), float32]", "squeeze(%x, axis=[1])", "!axis 1 has extent 3, not 1"},
    {"%x: Tensor[(3, 4), float32]", "expand_dims(%x, axis=1, num_newaxis=2)", "Tensor[(3, 1, 1, 4), float32]"},
    {"%x: Tensor[(3, 4), float32]", "expand_dims(%x, axis=-1)", "Tensor[(3, 4, 1), float32]"},
    {"%a: Tensor[(1, 2, 5), float32], %b: Tensor[(1, 3, 5), float32]", "concatenate((%a, %b), axis=1)", "Tensor[(1, 5, 5), float32]"},
    {"%a: Tensor[(1, 2, 5), float32], %b: Tensor[(1, 3, 4), float32]", "concatenate((%a, %b), axis=1)", "!field 1 has extent 4 on axis 2"},
    {"%x: Tensor[(6, 4), float32]", "split(%x, indices_or_sections=3)", "(Tensor[(2, 4), float32], Tensor[(2, 4), float32], Tensor[(2, 4), float32])"},
    {"%x: Tensor[(6, 4), float32]", "split(%x, indices_or_sections=[1, 3], axis=0)", "(Tensor[(1, 4), float32], Tensor[(2, 4), float32], Tensor[(3, 4), float32])"},
    {"%x: Tensor[(6, 4), float32]", "split(%x, indices_or_sections=4)", "!does not split into 4 equal sections"},
    {"%x: Tensor[(10, 8), float32]", "strided_slice(%x, begin=[1, 0], end=[9, 8], strides=[2, 3])", "Tensor[(4, 3), float32]"},
    {"%x: Tensor[(10, 8), float32]", "strided_slice(%x, begin=[-3], end=[100], axes=[0])", "Tensor[(3, 8), float32]"},
    {"%x: Tensor[(10, 8), float32]", "strided_slice(%x, begin=[-1], end=[-11], strides=[-1], axes=[0])", "Tensor[(10, 8), float32]"},
    {"%x: Tensor[(10, 8), float32], %i: Tensor[(2, 3), int64]", "take(%x, %i, axis=0)", "Tensor[(2, 3, 8), float32]"},
    {"%x: Tensor[(10, 8), float32], %i: Tensor[(2, 3), int64]", "take(%x, %i)", "Tensor[(2, 3), float32]"},
    {"%x: Tensor[(10, 8), float32], %i: Tensor[(2,), float32]", "take(%x, %i, axis=1)", "!indices must be integers, got float32"},
    {"%x: Tensor[(1, 16, 5, 5), float32]", "nn.depth_to_space(%x, block_size=2)", "Tensor[(1, 4, 10, 10), float32]"},
    {"%x: Tensor[(1, 10, 5, 5), float32]", "nn.depth_to_space(%x, block_size=2)", "!not divisible by block_size^2=4"},
    {"%x: Tensor[(3, 1), float32]", "broadcast_to(%x, shape=[2, 3, 4])", "Tensor[(2, 3, 4), float32]"},
    {"%x: Tensor[(2, 3, 4), float32]", "mean(%x, axis=[1], keepdims=True)", "Tensor[(2, 1, 4), float32]"},
    {"%x: Tensor[(2, 3, 4), float32]", "sum(%x, axis=[0, 2])", "Tensor[(3,), float32]"},
    {"%x: Tensor[(2, 3, 4), float32]", "max(%x)", "float32"},
    {"%x: Tensor[(2, 3, 4), float32]", "sum(%x, axis=[1], exclude=True)", "Tensor[(3,), float32]"},
    {"%x: Tensor[(2, 3), float32]", "cast(%x, dtype=\"int8\")", "Tensor[(2, 3), int8]"},
    {"%x: Tensor[(2, 3), float32]", "cast(%x, dtype=\"float64\")", "Tensor[(2, 3), float64]"},
    {"%x: Tensor[(2, 3), float32]", "cast(%x, dtype=\"complex64\")", "!unknown dtype \"complex64\""},
    {"%x: Tensor[(2, 3), float32]", "copy(%x)", "Tensor[(2, 3), float32]"},
    {"%x: Tensor[(2, 3), float32]", "nn.dropout(%x)", "(Tensor[(2, 3), float32], Tensor[(2, 3), float32])"},
    {"%x: Tensor[(1, 3, 8, 8), float32]", "image.resize2d(%x, size=[16, 24], method=\"nearest_neighbor\")", "Tensor[(1, 3, 16, 24), float32]"},
    {"%x: Tensor[(1, 3, 8, 8), float32]", "image.resize2d(%x, size=[16, 16], method=\"bilinear\")", "!method \"bilinear\" is not one of"},
    {"%x: Tensor[(1, 3, 8, 8), float32]", "shape_of(%x)", "Tensor[(4,), int32]"},
    {"%x: Tensor[(2, 3), float32]", "annotation.compiler_begin(%x, compiler=\"npu\")", "Tensor[(2, 3), float32]"},
    {"%x: Tensor[(2, 3), float32]", "annotation.compiler_end(%x, compiler=\"npu\")", "Tensor[(2, 3), float32]"},
    {"%x: Tensor[(2, 3), float32]", "annotation.stop_fusion(%x)", "Tensor[(2, 3), float32]"},
    {"%x: Tensor[(2, 3), float32]", "%0 = (%x, %x); %0.2", "!index 2 is out of range for a tuple of 2"},
    {"%x: Tensor[(2, 3), float32]", "%f = fn (%y: Tensor[(2, 3), float32]) { nn.relu(%y) }; %f(%x)", "Tensor[(2, 3), float32]"},
    {"%x: Tensor[(2, 4), float32]", "%f = fn (%y: Tensor[(2, 3), float32]) { nn.relu(%y) }; %f(%x)",
     "!argument 0 has type Tensor[(2, 4), float32], the function expects Tensor[(2, 3), float32]"},
    {"%x: Tensor[(2, 3), float32]", "%f = fn (%y: Tensor[(2, 3), float32]) -> Tensor[(3, 2), float32] { nn.relu(%y) }; %f(%x)", "!declares result"},
};

static void test_type_relations(void) {
    char text[2048], got[256];
    for (size_t i = 0; i < sizeof type_cases / sizeof type_cases[0]; ++i) {
        const type_case *c = &type_cases[i];
        snprintf(text, sizeof text, "def @main(%s) {\n  %s\n}\n", c->params, c->body);
        byoc_diag d;
        byoc_module *m = parse_text(text, &d);
        int want_error = c->expect[0] == '!';
        if (!m) {
            CHECKF(want_error && strstr(d.message, c->expect + 1), "case %zu (%s): parse failed: %s", i, c->body, d.message);
            continue;
        }
        byoc_result r = byoc_infer_type(m, &d);
        if (want_error) {
            CHECKF(r == BYOC_ERR_TYPE && strstr(d.message, c->expect + 1), "case %zu (%s): expected error \"%s\", got %s", i, c->body,
                   c->expect + 1, r == BYOC_OK ? "success" : d.message);
        } else {
            CHECKF(r == BYOC_OK, "case %zu (%s): %s", i, c->body, d.message);
            byoc_type_to_string(byoc_module_function(m, "main")->body->checked_type, got, sizeof got);
            CHECKF(strcmp(got, c->expect) == 0, "case %zu (%s): got %s, want %s", i, c->body, got, c->expect);
            char why[4096];
            CHECKF(round_trips(m, why, sizeof why), "case %zu: %s", i, why);
        }
        byoc_module_destroy(m);
    }
}

/* ---- text format ---- */
static void test_mnist_seed_example(void) {
    byoc_diag d;
    byoc_module *m = byoc_module_load("tests/inputs/mnist.relay", NULL, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    byoc_node *main_fn = byoc_module_function(m, "main");
    char buf[128];
    byoc_type_to_string(main_fn->body->checked_type, buf, sizeof buf);
    CHECK(strcmp(buf, "Tensor[(1, 10), float32]") == 0);
    byoc_graph g;
    CHECK(byoc_graph_build(m, main_fn->body, 0, &g) == BYOC_OK);
    int convs = 0, calls = 0;
    for (int i = 0; i < g.count; ++i) {
        byoc_node *n = g.nodes[i].node;
        if (n->kind == BYOC_NODE_CALL) calls++;
        if (n->op == byoc_op_get("nn.conv2d")) {
            convs++;
            CHECK(n->args[1]->kind == BYOC_NODE_CONSTANT);
        }
    }
    byoc_graph_free(&g);
    CHECK(convs == 2 && calls == 13);
    char why[8192];
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    /* seeded constants are deterministic: loading twice gives the same module */
    byoc_module *again = byoc_module_load("tests/inputs/mnist.relay", NULL, &d);
    CHECK(again && byoc_module_structural_equal(m, again));
    CHECK(byoc_structural_hash(main_fn) == byoc_structural_hash(byoc_module_function(again, "main")));
    byoc_module_destroy(again);
    byoc_module_destroy(m);
}

static int has_suffix(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static void test_every_input_round_trips(void) {
    DIR *dir = opendir("tests/inputs");
    CHECK(dir != NULL);
    struct dirent *e;
    int files = 0;
    char path[512], why[16384];
    while ((e = readdir(dir)) != NULL) {
        if (!has_suffix(e->d_name, ".relay")) continue;
        snprintf(path, sizeof path, "tests/inputs/%s", e->d_name);
        byoc_diag d;
        byoc_module *m = byoc_module_load(path, NULL, &d);
        if (!m) { closedir(dir); CHECKF(0, "%s: %s", path, d.message); }
        int typed = byoc_infer_type(m, &d) == BYOC_OK;
        int ok = round_trips(m, why, sizeof why);
        byoc_module_destroy(m);
        if (!typed || !ok) { closedir(dir); CHECKF(0, "%s: %s", path, typed ? why : d.message); }
        files++;
    }
    closedir(dir);
    CHECK(files >= 3);
}

typedef struct parse_error_case { const char *text, *expect; } parse_error_case;
static const parse_error_case parse_errors[] = {
    {"def @main(%x: Tensor[(1, 2), float32]) {\n  nn.relu(%x,\n}", "test.relay:3:1: expected an expression but found '}'"},
    {"def @main(%x: Tensor[(1, 2), float32]) {\n  nn.relu(%y)\n}", "test.relay:2:11: undefined variable %y"},
    {"def @main(%x: Tensor[(1, 2), float32]) {\n  nn.frobnicate(%x)\n}", "test.relay:2:3: unknown op 'nn.frobnicate'"},
    {"def @main(%x: Tensor[(1, 2), float33]) { %x }", "test.relay:1:30: unknown dtype 'float33'"},
    {"def @main(%x: Tensor[(1, 2) float32]) { %x }", "test.relay:1:29: expected ',' but found 'float32'"},
    {"def @main(%x: Tensor[(1, 2), float32]) {\n  %0 = nn.relu(%x);\n  %0 = nn.relu(%0);\n  %0\n}", "test.relay:3:3: %0 is already defined in this scope"},
    {"def @main(%x: Tensor[(1, 2), float32]) { nn.relu(%x, alpha=1f) }", "test.relay:1:42: nn.relu: unknown attribute 'alpha'"},
    {"def @main(%x: Tensor[(1, 2), float32]) { nn.leaky_relu(%x, alpha=\"big\") }", "nn.leaky_relu: attribute 'alpha' expects float, got string"},
    {"def @main(%x: Tensor[(1, 2), float32]) { @other(%x) }", "test.relay:1:42: @other is not defined"},
    {"def @main() { meta[relay.Constant][0] }", "test.relay:1:15: meta[relay.Constant][0] has no type comment and no entry in the weights"},
    {"def @main(%x: Tensor[(1, 2), float32]) { /* open", "test.relay:1:42: unterminated comment"},
    {"def @main(%x: Tensor[(1, 2), float32]) { cast(%x, dtype=\"int8) }", "unterminated string"},
    {"def @main(%x: Tensor[(1, 2), float32]) { 300i8 }", "'300i8' is out of range for int8"},
    {"def @main(%x: Tensor[(1, 2), float32]) { %x }\ndef @main(%x: Tensor[(1, 2), float32]) { %x }", "test.relay:2:5: @main is defined twice"},
    {"def @main(%x: Tensor[(1, 2), float32]) { let %y = %x %y }", "expected ';'"},
    {"", "no functions in the module"},
    {"def @main(%x: Tensor[(1, 2, 3, 4, 5, 6, 7, 8, 9), float32]) { %x }", "rank above 8 is not supported"},
    {"def @main(%x: Tensor[(1, 2), float32]) { nn.relu(%x) } $", "unexpected character '$'"},
    {"def @main(%x: Tensor[(1, 2), float32]) { nn.pad(%x, pad_width=[[1], [2, 3]]) }", "nested lists must be non-empty and of equal length"},
};

static void test_parse_errors(void) {
    for (size_t i = 0; i < sizeof parse_errors / sizeof parse_errors[0]; ++i) {
        byoc_diag d;
        byoc_module *m = parse_text(parse_errors[i].text, &d);
        CHECKF(m == NULL, "case %zu parsed but should fail", i);
        CHECKF(d.code == BYOC_ERR_PARSE, "case %zu: code %s", i, byoc_result_str(d.code));
        CHECKF(strstr(d.message, parse_errors[i].expect) != NULL, "case %zu: got \"%s\", want \"%s\"", i, d.message, parse_errors[i].expect);
        CHECKF(strchr(d.message, '\n') == NULL, "case %zu: message is not one line", i);
        CHECK(d.line > 0 && d.col > 0);
    }
    /* a deep expression is refused, not a stack overflow */
    size_t n = 20000;
    char *deep = (char *)malloc(n * 10 + 100);
    strcpy(deep, "def @main(%x: Tensor[(1,), float32]) { ");
    for (size_t i = 0; i < n; ++i) strcat(deep + strlen(deep) - 0, "nn.relu(");
    strcat(deep, "%x");
    for (size_t i = 0; i < n; ++i) strcat(deep, ")");
    strcat(deep, " }");
    byoc_diag d;
    byoc_module *m = parse_text(deep, &d);
    free(deep);
    CHECK(m == NULL);
    CHECK_CONTAINS(d.message, "nested too deeply");
}

static void test_text_features(void) {
    const char *text =
        "#[version = \"0.0.5\"]\n"
        "// a line comment\n"
        "def @helper(%a: Tensor[(2, 2), float32], %b: Tensor[(2, 2), float32], Compiler=\"npu\", global_symbol=\"helper\", Primitive=1)\n"
        "    -> (Tensor[(2, 2), float32], Tensor[(2, 2), float32]) {\n"
        "  %0 = add(%a, %b) /* span=onnx:Add_1 */;\n"
        "  (%0, %b)\n"
        "}\n"
        "def @main(%x: Tensor[(2, 2), float32] /* span=onnx:input */, %s: float16, %i: int64) -> Tensor[(2, 2), float32] {\n"
        "  %0 = @helper(%x, %x);\n"
        "  %1 = %0.0;\n"
        "  %2 = fn (%p: Tensor[(2, 2), float32], Primitive=1, Composite=\"npu.relu\") -> Tensor[(2, 2), float32] {\n"
        "    %3 = nn.relu(%p);\n"
        "    multiply(%3, -0.5f)\n"
        "  };\n"
        "  %4 = %2(%1);\n"
        "  %5 = (%4,);\n"
        "  %6 = %5.0;\n"
        "  %7 = add(%6, 1e-07f);\n"
        "  %8 = clip(%7, a_min=-1.5f, a_max=inff);\n"
        "  %9 = where(True, %8, %6);\n"
        "  %10 = nn.pad(%9, pad_width=[[0, 0], [1, 1]], pad_mode=\"edge\");\n"
        "  strided_slice(%10, begin=[0, 1], end=[2, 3])\n"
        "}\n";
    byoc_diag d;
    byoc_module *m = parse_text(text, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    byoc_node *helper = byoc_module_function(m, "helper");
    CHECK(helper && strcmp(byoc_attrs_string(&helper->attrs, "Compiler", ""), "npu") == 0);
    CHECK(helper->body->args[0]->span->source && strcmp(helper->body->args[0]->span->source, "onnx:Add_1") == 0);
    byoc_node *main_fn = byoc_module_function(m, "main");
    CHECK(strcmp(main_fn->params[0]->span->source, "onnx:input") == 0);
    CHECK(main_fn->params[1]->annotation->dtype == BYOC_FLOAT16 && main_fn->params[1]->annotation->rank == 0);
    size_t len;
    char *printed = byoc_module_print(m, 0, &len);
    CHECK_CONTAINS(printed, "/* span=onnx:Add_1 */");
    CHECK_CONTAINS(printed, "Compiler=\"npu\"");
    CHECK_CONTAINS(printed, "%5 = (%4,);");
    CHECK_CONTAINS(printed, "1e-07f");
    CHECK_CONTAINS(printed, "a_max=inff");
    CHECK_CONTAINS(printed, "pad_width=[[0, 0], [1, 1]]");
    byoc_free(m, printed);
    char why[16384];
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    /* spans: none reads as empty; a clone holds its own copies */
    CHECK(byoc_node_span(NULL)->source == NULL && byoc_node_span(NULL)->file == NULL && byoc_node_span(NULL)->line == 0);
    byoc_module *cl = byoc_module_clone(m, NULL), *cl2 = cl ? byoc_module_clone(cl, NULL) : NULL;
    byoc_module_destroy(cl); /* cl2's spans must not point into cl */
    CHECK(cl2 != NULL);
    if (cl2) {
        const byoc_span *orig = helper->body->args[0]->span, *cs = byoc_node_span(byoc_module_function(cl2, "helper")->body->args[0]);
        CHECK(cs != orig && cs->source && strcmp(cs->source, "onnx:Add_1") == 0);
        CHECK(cs->line == orig->line && cs->col == orig->col && cs->file && strcmp(cs->file, orig->file) == 0);
        byoc_module_destroy(cl2);
    }
    byoc_module_destroy(m);
}

static void test_closure_captures_round_trip(void) {
    /* nested functions that use values of the enclosing body: those are bound before the function */
    const char *text =
        "def @main(%x: Tensor[(2, 2), float32]) {\n"
        "  %0 = nn.relu(%x);\n"
        "  %1 = fn (%y: Tensor[(2, 2), float32]) { add(%y, %0) };\n"
        "  %2 = fn (%z: Tensor[(2, 2), float32]) { %0 };\n"
        "  %3 = %1(%x);\n"
        "  %4 = %2(%3);\n"
        "  %5 = sigmoid(%0);\n"
        "  %6 = fn (%w: Tensor[(2, 2), float32]) { %7 = fn (%v: Tensor[(2, 2), float32]) { multiply(%v, %5) }; %7(%w) };\n"
        "  %8 = %6(%4);\n"
        "  add(%8, %0)\n"
        "}\n";
    byoc_diag d;
    byoc_module *m = parse_text(text, &d);
    CHECKF(m != NULL, "%s", d.message);
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    char why[8192];
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
}

static void test_var_names_are_made_unique(void) {
    byoc_module *m = byoc_module_create(NULL);
    const byoc_type *t = t4(m, 1, 1, 1, 1);
    byoc_node *p[3] = {byoc_var(m, "in", t), byoc_var(m, "in", t), byoc_var(m, "9:odd/name", t)};
    byoc_node *a = byoc_call(m, "add", p, 2, NULL);
    byoc_node *args2[2] = {a, p[2]};
    byoc_node *b = byoc_call(m, "add", args2, 2, NULL);
    byoc_module_add_function(m, "main", byoc_function(m, p, 3, b, NULL, NULL));
    char *text = byoc_module_print(m, 0, NULL);
    CHECK_CONTAINS(text, "%in: ");
    CHECK_CONTAINS(text, "%in_1: ");
    CHECK_CONTAINS(text, "%v_9_odd_name: ");
    byoc_free(m, text);
    char why[4096];
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
}

/* ---- weights file ---- */
static void test_weights_file(void) {
    byoc_module *m = build_conv_module(3, 3);
    int64_t d2[2] = {2, 3};
    int64_t i64[6] = {-1, 0, 1, 1LL << 40, -(1LL << 50), 7};
    byoc_node *k = byoc_constant(m, byoc_tensor_type(m, BYOC_INT64, 2, d2), i64, sizeof i64);
    uint16_t h[6] = {0x3c00, 0xbc00, 0x7bff, 0x0001, 0x8000, 0x3555};
    byoc_node *hf = byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT16, 2, d2), h, sizeof h);
    double f64[6] = {0.1, -1e300, 4.9e-324, 1.0 / 3, -0.0, 123456789.123456789};
    byoc_node *df = byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT64, 2, d2), f64, sizeof f64);
    uint64_t u64[6] = {UINT64_MAX, 0, 1ULL << 63, (1ULL << 53) + 1, 42, 0xfedcba9876543210ULL};
    byoc_node *uk = byoc_constant(m, byoc_tensor_type(m, BYOC_UINT64, 2, d2), u64, sizeof u64);
    byoc_node *fields[4] = {k, hf, df, uk};
    byoc_module_add_function(m, "consts", byoc_function(m, NULL, 0, byoc_tuple(m, fields, 4), NULL, NULL));
    char dir[] = "/tmp/byoc_test_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256], wpath[256];
    snprintf(path, sizeof path, "%s/model.relay", dir);
    snprintf(wpath, sizeof wpath, "%s/model.weights", dir);
    byoc_diag d;
    CHECKF(byoc_module_save(m, path, 0, &d) == BYOC_OK, "%s", d.message);
    byoc_module *back = byoc_module_load(path, NULL, &d);
    CHECKF(back != NULL, "%s", d.message);
    CHECK(byoc_module_structural_equal(m, back));
    byoc_node *consts = byoc_module_function(back, "consts")->body;
    CHECK(consts->args[2]->annotation->dtype == BYOC_FLOAT64 && memcmp(consts->args[2]->data, f64, sizeof f64) == 0);
    CHECK(consts->args[3]->annotation->dtype == BYOC_UINT64 && memcmp(consts->args[3]->data, u64, sizeof u64) == 0);
    byoc_module_destroy(back);
    /* without the weights file the constants are seeded: same shapes, other values */
    byoc_parse_options o;
    memset(&o, 0, sizeof o);
    size_t len;
    char *text = byoc_module_print(m, 0, &len);
    byoc_module *seeded = byoc_module_parse(text, len, "model.relay", &o, &d);
    CHECK(seeded && !byoc_module_structural_equal(m, seeded));
    CHECK(byoc_infer_type(seeded, &d) == BYOC_OK);
    byoc_module_destroy(seeded);
    o.require_weights = 1;
    CHECK(byoc_module_parse(text, len, "model.relay", &o, &d) == NULL);
    CHECK_CONTAINS(d.message, "has no entry in the weights");
    /* a corrupted weights file is refused with its name */
    size_t wsize;
    unsigned char *w = (unsigned char *)byoc_module_weights_serialize(m, &wsize);
    o.require_weights = 0;
    o.weights = w;
    o.weights_size = wsize - 1;
    o.weights_name = "model.weights";
    CHECK(byoc_module_parse(text, len, "model.relay", &o, &d) == NULL);
    CHECK(d.code == BYOC_ERR_CORRUPT);
    CHECK_CONTAINS(d.message, "model.weights: entry");
    w[0] = 'X';
    o.weights_size = wsize;
    CHECK(byoc_module_parse(text, len, "model.relay", &o, &d) == NULL);
    CHECK_CONTAINS(d.message, "model.weights: not a weights file");
    w[0] = 'B';
    w[12 + 4] = 99; /* dtype code of entry 0 */
    CHECK(byoc_module_parse(text, len, "model.relay", &o, &d) == NULL);
    CHECK_CONTAINS(d.message, "unknown dtype code 99");
    byoc_free(m, w);
    byoc_free(m, text);
    unlink(path);
    unlink(wpath);
    rmdir(dir);
    byoc_module_destroy(m);
}

/* ---- equality, hash, copy ---- */
static void test_structural_equality(void) {
    byoc_diag d;
    byoc_module *a = parse_text("def @main(%x: Tensor[(2, 2), float32]) { %0 = nn.relu(%x); add(%0, %x) }", &d);
    byoc_module *b = parse_text("def @main(%other: Tensor[(2, 2), float32]) { %5 = nn.relu(%other); add(%5, %other) }", &d);
    byoc_module *c = parse_text("def @main(%x: Tensor[(2, 2), float32]) { %0 = nn.relu(%x); add(%x, %0) }", &d);
    byoc_module *e = parse_text("def @main(%x: Tensor[(2, 2), float32]) { %0 = nn.leaky_relu(%x, alpha=0.2f); add(%0, %x) }", &d);
    byoc_module *f = parse_text("def @main(%x: Tensor[(2, 2), float32]) { %0 = nn.leaky_relu(%x, alpha=0.3f); add(%0, %x) }", &d);
    byoc_module *g = parse_text("def @main(%x: Tensor[(2, 2), float32], %y: Tensor[(2, 2), float32]) { %0 = nn.relu(%x); add(%0, %y) }", &d);
    CHECK(a && b && c && e && f && g);
    byoc_node *fa = byoc_module_function(a, "main"), *fb = byoc_module_function(b, "main"), *fc = byoc_module_function(c, "main");
    CHECK(byoc_structural_equal(fa, fb)); /* names do not matter */
    CHECK(byoc_structural_hash(fa) == byoc_structural_hash(fb));
    CHECK(!byoc_structural_equal(fa, fc)); /* argument order does */
    CHECK(byoc_structural_hash(fa) != byoc_structural_hash(fc));
    CHECK(!byoc_module_structural_equal(e, f)); /* attributes do */
    CHECK(byoc_structural_hash(byoc_module_function(e, "main")) != byoc_structural_hash(byoc_module_function(f, "main")));
    CHECK(!byoc_module_structural_equal(a, g)); /* %x used twice vs two params */
    /* deep copy into another module and clone */
    byoc_module *dst = byoc_module_create(NULL);
    byoc_node *copy = byoc_deep_copy(dst, fa);
    CHECK(copy && copy != fa && byoc_structural_equal(copy, fa));
    CHECK(byoc_structural_hash(copy) == byoc_structural_hash(fa));
    byoc_module *cl = byoc_module_clone(e, NULL);
    CHECK(cl && byoc_module_structural_equal(cl, e));
    byoc_module_destroy(cl);
    byoc_module_destroy(dst);
    byoc_module_destroy(a);
    byoc_module_destroy(b);
    byoc_module_destroy(c);
    byoc_module_destroy(e);
    byoc_module_destroy(f);
    byoc_module_destroy(g);
}

static void test_graph_traversal(void) {
    /* diamond: x -> relu -> (sigmoid, tanh) -> add */
    byoc_module *m = byoc_module_create(NULL);
    byoc_node *x = byoc_var(m, "x", t4(m, 1, 1, 2, 2));
    byoc_node *r = byoc_call(m, "nn.relu", &x, 1, NULL);
    byoc_node *s = byoc_call(m, "sigmoid", &r, 1, NULL);
    byoc_node *t = byoc_call(m, "tanh", &r, 1, NULL);
    byoc_node *st[2] = {s, t};
    byoc_node *add = byoc_call(m, "add", st, 2, NULL);
    byoc_node *fn = byoc_function(m, &x, 1, add, NULL, NULL);
    CHECK(x->span == NULL && byoc_node_span(x)->source == NULL); /* built in code: no span */
    byoc_node_set_span(m, x, "onnx:x", NULL, 0, 0);
    CHECK(x->span && strcmp(byoc_node_span(x)->source, "onnx:x") == 0);
    byoc_graph g;
    CHECK(byoc_graph_build(m, add, 0, &g) == BYOC_OK);
    CHECK(g.count == 5);
    CHECK(g.nodes[g.count - 1].node == add);
    for (int i = 0; i < g.count; ++i) /* inputs come first */
        for (int k = 0; k < g.nodes[i].ninputs; ++k) CHECK(g.nodes[i].inputs[k] < i);
    int ri = byoc_graph_index(&g, r);
    CHECK(ri >= 0 && g.nodes[ri].nusers == 2 && g.nodes[ri].ninputs == 1);
    CHECK(g.nodes[g.nodes[ri].users[0]].node == s || g.nodes[g.nodes[ri].users[0]].node == t);
    CHECK(byoc_graph_index(&g, fn) == -1);
    byoc_graph_free(&g);
    /* entering functions: the function node's input is its body */
    CHECK(byoc_graph_build(m, fn, BYOC_GRAPH_ENTER_FUNCTIONS, &g) == BYOC_OK);
    CHECK(g.count == 6 && g.nodes[5].node == fn && g.nodes[5].inputs[0] == byoc_graph_index(&g, add));
    byoc_graph_free(&g);
    /* two graphs of one module alive at once (the second cannot borrow the module's id table), then a
       graph that borrows the table after a bigger one: entries left behind never name a node it lacks */
    byoc_graph whole, part;
    CHECK(byoc_graph_build(m, add, 0, &whole) == BYOC_OK);
    CHECK(byoc_graph_build(m, s, 0, &part) == BYOC_OK);
    CHECK(whole.count == 5 && part.count == 3);
    CHECK(byoc_graph_index(&part, t) == -1 && byoc_graph_index(&part, add) == -1);
    CHECK(whole.nodes[byoc_graph_index(&whole, t)].node == t && part.nodes[byoc_graph_index(&part, r)].node == r);
    byoc_graph_free(&whole);
    byoc_graph_free(&part);
    CHECK(byoc_graph_build(m, t, 0, &part) == BYOC_OK);
    CHECK(part.count == 3 && part.nodes[byoc_graph_index(&part, t)].node == t);
    CHECK(byoc_graph_index(&part, s) == -1 && byoc_graph_index(&part, add) == -1 && byoc_graph_index(&part, fn) == -1);
    byoc_graph_free(&part);
    byoc_node *ins[4];
    CHECK(byoc_node_inputs(add, ins, 4) == 2 && ins[0] == s && ins[1] == t);
    /* a repeated input is one edge; nodes of two modules share ids, and each is still its own node */
    byoc_module *other = byoc_module_create(NULL);
    byoc_node *y = byoc_var(other, "y", t4(other, 1, 1, 2, 2));
    byoc_node *ry = byoc_call(other, "nn.relu", &y, 1, NULL); /* ids 1 and 2, as x and r */
    byoc_node *mixed[3] = {add, ry, add};
    byoc_node *tup = byoc_tuple(m, mixed, 3);
    CHECK(byoc_graph_build(m, tup, 0, &g) == BYOC_OK);
    CHECK(g.count == 8 && g.nodes[7].node == tup && g.nodes[7].ninputs == 2);
    CHECK(g.nodes[7].inputs[0] == byoc_graph_index(&g, add) && g.nodes[7].inputs[1] == byoc_graph_index(&g, ry));
    CHECK(byoc_graph_index(&g, x) != byoc_graph_index(&g, y) && byoc_graph_index(&g, y) >= 0);
    CHECK(g.nodes[byoc_graph_index(&g, ry)].inputs[0] == byoc_graph_index(&g, y));
    byoc_graph_free(&g);
    /* a cycle made through the public fields: the graph is built without looping or reading out of
       bounds (the verifier is what reports it) */
    s->args[0] = add;
    CHECK(byoc_graph_build(m, add, 0, &g) == BYOC_OK);
    CHECK(g.count == 5 && g.nodes[4].node == add); /* x, relu and tanh still, through tanh */
    for (int i = 0; i < g.count; ++i)
        for (int k = 0; k < g.nodes[i].ninputs; ++k) CHECK(g.nodes[i].inputs[k] >= 0 && g.nodes[i].inputs[k] < g.count);
    byoc_graph_free(&g);
    s->args[0] = r;
    byoc_module_destroy(other);
    byoc_module_destroy(m);
}

static void test_deep_chain(void) {
    /* 100k nodes in a chain: every traversal is iterative */
    byoc_module *m = byoc_module_create(NULL);
    int64_t dims[1] = {4};
    byoc_node *x = byoc_var(m, "x", byoc_tensor_type(m, BYOC_FLOAT32, 1, dims));
    byoc_node *cur = x;
    for (int i = 0; i < 100000; ++i) cur = byoc_call(m, i % 2 ? "nn.relu" : "tanh", &cur, 1, NULL);
    byoc_module_add_function(m, "main", byoc_function(m, &x, 1, cur, NULL, NULL));
    byoc_diag d;
    CHECKF(byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    char why[256];
    CHECKF(round_trips(m, why, sizeof why), "%.200s", why);
    byoc_module *cl = byoc_module_clone(m, NULL);
    CHECK(cl && byoc_structural_hash(byoc_module_function(cl, "main")) == byoc_structural_hash(byoc_module_function(m, "main")));
    byoc_module_destroy(cl);
    byoc_module_destroy(m);
}

/* ---- allocator ---- */
typedef struct counting { long live, total; } counting;
static void *count_alloc(size_t size, void *user) {
    counting *c = (counting *)user;
    c->live++;
    c->total++;
    return malloc(size);
}
static void count_free(void *p, void *user) {
    ((counting *)user)->live--;
    free(p);
}

static void test_allocator(void) {
    counting c = {0, 0};
    byoc_allocator a = {count_alloc, count_free, &c};
    byoc_parse_options o;
    memset(&o, 0, sizeof o);
    o.allocator = &a;
    byoc_diag d;
    const char *text = "def @main(%x: Tensor[(1, 3, 8, 8), float32]) { %0 = nn.relu(%x); %1 = nn.max_pool2d(%0, pool_size=[2, 2]); %1 }";
    byoc_module *m = byoc_module_parse(text, strlen(text), "a.relay", &o, &d);
    CHECK(m != NULL);
    CHECK(c.live > 0);
    char *printed = byoc_module_print(m, 0, NULL);
    CHECK(printed != NULL);
    byoc_free(m, printed);
    byoc_module_destroy(m);
    CHECK(c.live == 0);
    CHECK(c.total > 1);
    /* a failed parse frees everything too */
    m = byoc_module_parse("def @main(", 10, "a.relay", &o, &d);
    CHECK(m == NULL && c.live == 0);
}

static void test_result_strings(void) {
    CHECK(strcmp(byoc_result_str(BYOC_OK), "ok") == 0);
    CHECK(strcmp(byoc_result_str(BYOC_ERR_TYPE), "type error") == 0);
    CHECK(strcmp(byoc_result_str((byoc_result)999), "unknown result") == 0);
    for (int r = 0; r < BYOC_RESULT_COUNT; ++r) CHECK(byoc_result_str((byoc_result)r)[0] != 0);
}

static void test_scalar_literals(void) {
    byoc_diag d;
    byoc_module *m = parse_text("def @main() { (0f, -2.5f, 1i64, -3i8, 200u8, 7, True, 0.1f16, 9223372036854775807i64) }", &d);
    CHECKF(m != NULL, "%s", d.message);
    byoc_node *t = byoc_module_function(m, "main")->body;
    CHECK(t->nargs == 9);
    CHECK(t->args[1]->annotation->dtype == BYOC_FLOAT32 && byoc_constant_f32(t->args[1], 0) == -2.5f);
    CHECK(t->args[2]->annotation->dtype == BYOC_INT64);
    CHECK(t->args[3]->annotation->dtype == BYOC_INT8 && byoc_constant_f32(t->args[3], 0) == -3.0f);
    CHECK(t->args[4]->annotation->dtype == BYOC_UINT8 && byoc_constant_f32(t->args[4], 0) == 200.0f);
    CHECK(t->args[5]->annotation->dtype == BYOC_INT32);
    CHECK(t->args[6]->annotation->dtype == BYOC_BOOL);
    CHECK(t->args[7]->annotation->dtype == BYOC_FLOAT16);
    int64_t big;
    memcpy(&big, t->args[8]->data, 8);
    CHECK(big == INT64_MAX);
    char *text = byoc_module_print(m, 0, NULL);
    CHECK_CONTAINS(text, "(0f, -2.5f, 1i64, -3i8, 200u8, 7, True, 0.1f16, 9223372036854775807i64)");
    byoc_free(m, text);
    char why[2048];
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
    /* float64 and the wide unsigned types print with their suffixes and read back bit for bit */
    m = parse_text("def @main() { (0.1f64, -1.5e+300f64, 18446744073709551615u64, 65535u16, 4000000000u32, 9007199254740993u64) }", &d);
    CHECKF(m != NULL, "%s", d.message);
    t = byoc_module_function(m, "main")->body;
    double f;
    uint64_t u;
    memcpy(&f, t->args[0]->data, 8);
    CHECK(t->args[0]->annotation->dtype == BYOC_FLOAT64 && f == 0.1);
    memcpy(&u, t->args[2]->data, 8);
    CHECK(t->args[2]->annotation->dtype == BYOC_UINT64 && u == UINT64_MAX);
    memcpy(&u, t->args[5]->data, 8);
    CHECK(u == 9007199254740993ULL); /* 2^53 + 1: not a double */
    CHECK(t->args[3]->annotation->dtype == BYOC_UINT16 && t->args[4]->annotation->dtype == BYOC_UINT32 && byoc_constant_f32(t->args[4], 0) == 4e9f);
    text = byoc_module_print(m, 0, NULL);
    CHECK_CONTAINS(text, "(0.1f64, -1.5e+300f64, 18446744073709551615u64, 65535u16, 4000000000u32, 9007199254740993u64)");
    byoc_free(m, text);
    CHECKF(round_trips(m, why, sizeof why), "%s", why);
    byoc_module_destroy(m);
    static const char *const out_of_range[] = {"-1u64", "18446744073709551616u64", "65536u16", "-1u32", "4294967296u32"};
    for (int i = 0; i < 5; ++i) {
        char src[128];
        snprintf(src, sizeof src, "def @main() { %s }", out_of_range[i]);
        CHECKF(parse_text(src, &d) == NULL && strstr(d.message, "out of range"), "%s: %s", out_of_range[i], d.message);
    }
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_dtypes),
        TEST_ENTRY(test_types),
        TEST_ENTRY(test_attrs),
        TEST_ENTRY(test_builder_and_infer),
        TEST_ENTRY(test_infer_error_names_node),
        TEST_ENTRY(test_sticky_builder_errors),
        TEST_ENTRY(test_attr_schema_errors),
        TEST_ENTRY(test_registry_contents),
        TEST_ENTRY(test_user_op),
        TEST_ENTRY(test_type_relations),
        TEST_ENTRY(test_mnist_seed_example),
        TEST_ENTRY(test_every_input_round_trips),
        TEST_ENTRY(test_parse_errors),
        TEST_ENTRY(test_text_features),
        TEST_ENTRY(test_closure_captures_round_trip),
        TEST_ENTRY(test_var_names_are_made_unique),
        TEST_ENTRY(test_weights_file),
        TEST_ENTRY(test_structural_equality),
        TEST_ENTRY(test_graph_traversal),
        TEST_ENTRY(test_deep_chain),
        TEST_ENTRY(test_allocator),
        TEST_ENTRY(test_result_strings),
        TEST_ENTRY(test_scalar_literals),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
