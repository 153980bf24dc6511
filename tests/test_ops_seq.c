/* Unit tests of sequences and optionals (ONNX's sequence_type and optional_type): their types (built,
   compared, printed, parsed), the sequence.* and optional.* ops' type relations, evaluation with
   byoc_module_evaluate (positions, negative positions, split and concat, loops that grow a sequence), and
   bad input (a position out of range names the node, a sequence of mixed dtypes is refused).
   Public API only. */
#include "byoc_sim.h"
#include "tools/byoc_onnx.h"
#include "test.h"
#include "ops_test.h"

#include <math.h>
#include <stdlib.h>

static void test_types_build_compare_print(void) {
    byoc_module *m = byoc_module_create(NULL);
    int64_t d3[1] = {3}, dq[1] = {BYOC_DIM_UNKNOWN};
    const byoc_type *t3 = byoc_tensor_type(m, BYOC_FLOAT32, 1, d3), *tq = byoc_tensor_type(m, BYOC_FLOAT32, 1, dq);
    const byoc_type *s3 = byoc_sequence_type(m, BYOC_FLOAT32, t3), *sq = byoc_sequence_type(m, BYOC_FLOAT32, tq);
    const byoc_type *sany = byoc_sequence_type(m, BYOC_FLOAT32, NULL), *oq = byoc_optional_type(m, sq);
    char buf[128];
    CHECK(s3 && sq && sany && oq);
    CHECK(s3 == byoc_sequence_type(m, BYOC_FLOAT32, t3)); /* interned */
    CHECK(!byoc_type_equal(s3, sq) && !byoc_type_equal(sany, byoc_sequence_type(m, BYOC_INT64, NULL)));
    CHECK(!byoc_type_is_static(s3)); /* its length is known at run time */
    byoc_type_to_string(sq, buf, sizeof buf);
    CHECK(!strcmp(buf, "Sequence[Tensor[(?,), float32]]"));
    byoc_type_to_string(sany, buf, sizeof buf);
    CHECK(!strcmp(buf, "Sequence[Tensor[?, float32]]"));
    byoc_type_to_string(oq, buf, sizeof buf);
    CHECK(!strcmp(buf, "Optional[Sequence[Tensor[(?,), float32]]]"));
    /* the text format reads back what it prints, the empty sequence's type too */
    static const char *const spelled[] = {"Sequence[Tensor[(?,), float32]]", "Sequence[Tensor[?, float32]]",
                                          "Optional[Sequence[Tensor[(?,), float32]]]", "Sequence[int64, empty]",
                                          "Optional[Tensor[(2, 3), uint8]]"};
    for (int i = 0; i < 5; ++i) {
        byoc_diag d;
        const byoc_type *t = byoc_type_parse(m, spelled[i], &d);
        CHECKF(t, "%s: %s", spelled[i], d.message);
        byoc_type_to_string(t, buf, sizeof buf);
        CHECKF(!strcmp(buf, spelled[i]), "%s printed back as %s", spelled[i], buf);
    }
    CHECK(byoc_type_equal(byoc_type_parse(m, "Sequence[Tensor[?, float32]]", NULL), sany));
    CHECK(!byoc_type_equal(byoc_type_parse(m, "Sequence[float32, empty]", NULL), sany));
    /* an element of another dtype, an optional of an optional: refused with a message */
    CHECK(byoc_sequence_type(m, BYOC_INT64, t3) == NULL);
    CHECK_CONTAINS(byoc_module_error(m)->message, "the element must be a tensor of int64");
    byoc_module_clear_error(m);
    CHECK(byoc_optional_type(m, oq) == NULL);
    byoc_module_clear_error(m);
    CHECK(byoc_sequence_type(NULL, BYOC_FLOAT32, NULL) == NULL && byoc_optional_type(NULL, t3) == NULL);
    byoc_module_destroy(m);
}

/* split into pieces, read them back by (negative) position, insert, erase, count, and join again */
static const char *const split_text =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(2, 3), float32]) {\n"
    "  %0 = sequence.split(%x, axis=1, keepdims=0);\n"
    "  %1 = sequence.at(%0, -1i64);\n"
    "  %2 = sequence.insert(%0, %1, 0i64);\n"
    "  %3 = sequence.erase(%2, -1i64);\n"
    "  %4 = sequence.concat(%3, axis=0, new_axis=1);\n"
    "  %5 = sequence.length(%3);\n"
    "  (%4, %5)\n"
    "}\n";

static void test_split_at_insert_erase_concat(void) {
    static const double x[6] = {1, 2, 3, 4, 5, 6};
    const double *in[1] = {x};
    run_result r = run(split_text, in);
    CHECKF(r.out && r.out->kind == BYOC_NODE_TUPLE && r.out->nargs == 2, "%s", r.why);
    /* columns (1,4) (2,5) (3,6); (3,6) inserted first, the last dropped: (3,6) (1,4) (2,5) stacked */
    const byoc_node *stacked = r.out->args[0], *len = r.out->args[1];
    static const double want[6] = {3, 6, 1, 4, 2, 5};
    CHECK(stacked->annotation->rank == 2 && stacked->annotation->dims[0] == 3 && stacked->annotation->dims[1] == 2);
    for (int i = 0; i < 6; ++i) CHECKF(((const float *)stacked->data)[i] == want[i], "element %d", i);
    CHECK(*(const int64_t *)len->data == 3);
    byoc_node *main_fn = byoc_module_function(r.m, "main");
    char buf[160];
    byoc_type_to_string(main_fn->body->args[0]->args[0]->checked_type, buf, sizeof buf);
    CHECKF(!strcmp(buf, "Sequence[Tensor[(2,), float32]]"), "%s", buf);
    CHECK_ROUND_TRIP(r);
}

/* split's lengths, then concatenation along the split axis gives the input back */
static void test_split_lengths_and_concat(void) {
    static const char *const text = "#[version = \"0.0.5\"]\n"
                                    "def @main(%x: Tensor[(5, 2), int32], %s: Tensor[(2), int64]) {\n"
                                    "  %0 = sequence.split(%x, %s);\n"
                                    "  %1 = sequence.at(%0, 1i64);\n"
                                    "  (sequence.concat(%0, axis=0), %1)\n"
                                    "}\n";
    static const double x[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, s[2] = {2, 3};
    const double *in[2] = {x, s};
    run_result r = run(text, in);
    CHECKF(r.out && r.out->kind == BYOC_NODE_TUPLE, "%s", r.why);
    CHECK(byoc_type_num_elements(r.out->args[0]->annotation) == 10 && !memcmp(r.out->args[0]->data,
                                                                             (int32_t[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
                                                                             40));
    CHECK(r.out->args[1]->annotation->dims[0] == 3 && ((const int32_t *)r.out->args[1]->data)[0] == 4);
    byoc_module_destroy(r.m);
    /* lengths that do not add up: an error naming the op */
    static const double bad[2] = {2, 2};
    const double *in2[2] = {x, bad};
    r = run(text, in2);
    CHECK(!r.out);
    CHECK_CONTAINS(r.why, "split's lengths add up to 4, the axis has 5");
    byoc_module_destroy(r.m);
}

/* a loop carrying a sequence that grows by a slice of another length every iteration (ONNX's
   test_loop13_seq): the carried element type widens to '?' extents, the values stay exact */
static const char *const grow_text =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(4), float32], %n: int64) {\n"
    "  %0 = sequence.empty(dtype=\"float32\");\n"
    "  %1 = loop (%n, True, %0, %x) fn (%i: int64, %go: bool, %s, %v) {\n"
    "    %2 = add(%i, 1i64);\n"
    "    %3 = expand_dims(%2, axis=0);\n"
    "    %b = expand_dims(0i64, axis=0);\n"
    "    %st = expand_dims(1i64, axis=0);\n"
    "    %4 = dyn.strided_slice(%v, %b, %3, %st);\n"
    "    (True, sequence.insert(%s, %4), %v)\n"
    "  };\n"
    "  %5 = %1.0;\n"
    "  (sequence.length(%5), sequence.at(%5, 2i64))\n"
    "}\n";

static void test_loop_grows_a_sequence(void) {
    static const double x[4] = {1, 2, 3, 4}, n[1] = {3};
    const double *in[2] = {x, n};
    run_result r = run(grow_text, in);
    CHECKF(r.out && r.out->kind == BYOC_NODE_TUPLE, "%s", r.why);
    CHECK(*(const int64_t *)r.out->args[0]->data == 3);
    const byoc_node *third = r.out->args[1];
    CHECK(third->annotation->rank == 1 && third->annotation->dims[0] == 3);
    CHECK(((const float *)third->data)[2] == 3);
    CHECK_ROUND_TRIP(r);
}

/* If branches of different element extents merge to '?'; optionals: an empty one and a present one */
static const char *const optional_text =
    "#[version = \"0.0.5\"]\n"
    "def @main(%c: bool, %x: Tensor[(2), float32]) {\n"
    "  %0 = if (%c) {\n"
    "    optional.none(dtype=\"float32\", shape=[-1], sequence=1)\n"
    "  } else {\n"
    "    %1 = sequence.construct(%x, %x);\n"
    "    optional.some(%1)\n"
    "  };\n"
    "  %2 = optional.has_element(%0);\n"
    "  %3 = if (%2) {\n"
    "    %4 = optional.get_element(%0);\n"
    "    sequence.length(%4)\n"
    "  } else {\n"
    "    -1i64\n"
    "  };\n"
    "  (%2, %3)\n"
    "}\n";

static void test_optionals(void) {
    static const double c_true[1] = {1}, c_false[1] = {0}, x[2] = {5, 6};
    const double *in[2] = {c_true, x};
    run_result r = run(optional_text, in);
    CHECKF(r.out && r.out->kind == BYOC_NODE_TUPLE, "%s", r.why);
    CHECK(*(const uint8_t *)r.out->args[0]->data == 0 && *(const int64_t *)r.out->args[1]->data == -1);
    byoc_node *main_fn = byoc_module_function(r.m, "main");
    char buf[160];
    byoc_type_to_string(main_fn->body->args[0]->args[0]->checked_type, buf, sizeof buf);
    CHECKF(strstr(buf, "Optional[Sequence[Tensor[(?,), float32]]]") != NULL, "%s", buf);
    byoc_module_destroy(r.m);
    in[0] = c_false;
    r = run(optional_text, in);
    CHECKF(r.out && r.out->kind == BYOC_NODE_TUPLE, "%s", r.why);
    CHECK(*(const uint8_t *)r.out->args[0]->data == 1 && *(const int64_t *)r.out->args[1]->data == 2);
    CHECK_ROUND_TRIP(r);
}

/* a sequence made and joined in one expression: the elements concatenated in order */
static void test_construct_concat(void) {
    static const char *const text = "#[version = \"0.0.5\"]\n"
                                    "def @main(%x: Tensor[(2), float32], %y: Tensor[(1), float32]) {\n"
                                    "  sequence.concat(sequence.construct(%x, %y, %x), axis=-1)\n"
                                    "}\n";
    static const double x[2] = {1, 2}, y[1] = {7}, want[5] = {1, 2, 7, 1, 2};
    const double *in[2] = {x, y};
    run_result r = run(text, in);
    CHECK_RUN(r, want, 5, 0);
    CHECK_ROUND_TRIP(r);
}

static void test_bad_input(void) {
    /* a position outside the sequence: the error names the op and the position */
    static const char *const at_text = "#[version = \"0.0.5\"]\n"
                                       "def @main(%x: Tensor[(2), float32], %p: int64) {\n"
                                       "  %0 = sequence.construct(%x, %x);\n"
                                       "  sequence.at(%0, %p)\n"
                                       "}\n";
    static const double x[2] = {1, 2}, p[1] = {-3};
    const double *in[2] = {x, p};
    run_result r = run(at_text, in);
    CHECK(!r.out);
    CHECK_CONTAINS(r.why, "sequence.at: position -3 is out of range for a sequence of 2 elements");
    byoc_module_destroy(r.m);
    /* one dtype per sequence */
    CHECK_TYPE_ERROR("#[version = \"0.0.5\"]\n"
                     "def @main(%x: Tensor[(2), float32], %y: Tensor[(2), int64]) {\n"
                     "  sequence.construct(%x, %y)\n"
                     "}\n",
                     "a sequence holds one dtype: element 1 is int64, the sequence holds float32");
    /* an op on a tensor where a sequence is expected, at on elements of different ranks */
    CHECK_TYPE_ERROR("#[version = \"0.0.5\"]\n"
                     "def @main(%x: Tensor[(2), float32]) {\n"
                     "  sequence.length(%x)\n"
                     "}\n",
                     "input_sequence must be a sequence, got Tensor[(2,), float32]");
    CHECK_TYPE_ERROR("#[version = \"0.0.5\"]\n"
                     "def @main(%x: Tensor[(2), float32], %y: float32) {\n"
                     "  %0 = sequence.construct(%x, %y);\n"
                     "  sequence.at(%0, 0i64)\n"
                     "}\n",
                     "but those of Sequence[Tensor[?, float32]] may differ in rank");
    /* an empty optional read: an error, not a crash */
    static const char *const get_text = "#[version = \"0.0.5\"]\n"
                                        "def @main(%x: Tensor[(2), float32]) {\n"
                                        "  %0 = optional.none(dtype=\"float32\", shape=[2]);\n"
                                        "  add(optional.get_element(%0), %x)\n"
                                        "}\n";
    const double *in1[1] = {x};
    r = run(get_text, in1);
    CHECK(!r.out);
    CHECK_CONTAINS(r.why, "optional.get_element: the optional is empty");
    byoc_module_destroy(r.m);
    /* a parsed Sequence of a non-tensor */
    byoc_diag d;
    static const char *const bad_type = "#[version = \"0.0.5\"]\n"
                                        "def @main(%s: Sequence[(float32, float32)]) { %s }\n";
    CHECK(!byoc_module_parse(bad_type, strlen(bad_type), "bad.relay", NULL, &d));
    CHECK_CONTAINS(d.message, "a sequence holds tensors");
}

/* sequence values as @main's inputs and outputs */
static void test_sequence_inputs(void) {
    static const char *const text = "#[version = \"0.0.5\"]\n"
                                    "def @main(%s: Sequence[Tensor[?, float32]], %x: float32) {\n"
                                    "  sequence.insert(%s, %x, 0i64)\n"
                                    "}\n";
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, strlen(text), "seq.relay", NULL, &d);
    CHECKF(m && byoc_infer_type(m, &d) == BYOC_OK, "%s", d.message);
    float one = 1, two[2] = {2, 3};
    int64_t d2[1] = {2};
    byoc_node *elem = byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, 1, d2), two, sizeof two);
    byoc_node *in[2] = {byoc_sequence_value(m, byoc_sequence_type(m, BYOC_FLOAT32, NULL), &elem, 1),
                        byoc_constant(m, byoc_tensor_type(m, BYOC_FLOAT32, 0, NULL), &one, sizeof one)};
    byoc_node *out = NULL;
    CHECKF(byoc_module_evaluate(m, in, 2, &out, &d) == BYOC_OK, "%s", d.message);
    CHECK(out && out->kind == BYOC_NODE_TUPLE && out->nargs == 2 && out->annotation->kind == BYOC_TYPE_SEQUENCE);
    CHECK(out->args[0]->annotation->rank == 0 && out->args[1] == elem);
    /* an element of another dtype is refused when the value is built */
    int64_t i64 = 1;
    byoc_node *wrong = byoc_constant(m, byoc_tensor_type(m, BYOC_INT64, 0, NULL), &i64, sizeof i64);
    CHECK(!byoc_sequence_value(m, byoc_sequence_type(m, BYOC_FLOAT32, NULL), &wrong, 1));
    CHECK_CONTAINS(byoc_module_error(m)->message, "sequence value: element 0 is int64");
    byoc_module_destroy(m);
}

/* ONNX: SplitToSequence then SequenceAt at a position read from an input; a position out of range is an
   evaluation error naming the ONNX node ('pick'), a negative one counts from the end */
static void test_onnx_split_then_at(void) {
    onnx_case mc;
    int64_t dims[2] = {2, 3};
    model_begin(&mc, "SplitToSequence", 13, ONNX_FLOAT, 2, dims, 0, 0, NULL);
    value_info(&mc.graph, 11, "b", ONNX_INT64, 0, NULL);
    attr_int(&mc.node, "axis", 1);
    attr_int(&mc.node, "keepdims", 0);
    pb at = {NULL, 0, 0}; /* the second node, after the first: model_import appends the first last */
    pb_msg(&mc.graph, 1, &mc.node);
    memset(&mc.node, 0, sizeof mc.node);
    pb_str(&at, 1, "y");
    pb_str(&at, 1, "b");
    pb_str(&at, 2, "z");
    pb_str(&at, 3, "pick");
    pb_str(&at, 4, "SequenceAt");
    mc.node = at;
    pb out = {NULL, 0, 0};
    pb_str(&out, 1, "z");
    pb_msg(&mc.graph, 12, &out);
    byoc_onnx_model model;
    byoc_diag d;
    CHECKF(model_import(&mc, &model, &d) == BYOC_OK, "%s", d.message);
    static const double a[6] = {1, 2, 3, 4, 5, 6}, last[1] = {-1}, beyond[1] = {3};
    const double *in[2] = {a, last};
    run_result r = model_run(&model, in);
    static const double want[2] = {3, 6};
    char why[600];
    CHECKF(result_is(&r, want, 2, 0, why, sizeof why), "%s", why);
    in[1] = beyond;
    r = model_run(&model, in);
    CHECK(!r.out);
    CHECK_CONTAINS(r.why, "onnx:pick");
    CHECK_CONTAINS(r.why, "position 3 is out of range for a sequence of 3 elements");
    byoc_onnx_model_free(&model);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_types_build_compare_print),  TEST_ENTRY(test_split_at_insert_erase_concat),
        TEST_ENTRY(test_split_lengths_and_concat),   TEST_ENTRY(test_loop_grows_a_sequence),
        TEST_ENTRY(test_optionals),                  TEST_ENTRY(test_bad_input),
        TEST_ENTRY(test_sequence_inputs),            TEST_ENTRY(test_construct_concat),
        TEST_ENTRY(test_onnx_split_then_at),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
