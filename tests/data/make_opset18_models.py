#!/usr/bin/python3
"""Writes the small ONNX models of tests/data/onnx18/ that exercise the forms ops took in opsets 18-21
(Debian's libonnx-testdata stops at opset 17), plus 3-D convolutions and TfIdfVectorizer variants the
test data lacks. tests/test_ops_windows.c imports each one and checks its results against values
worked out by hand from the ONNX spec. Needs python3-onnx (Debian); run from the repository root:
    /usr/bin/python3 tests/data/make_opset18_models.py
The .onnx files are checked in, so the tests do not need python."""
import os

from onnx import TensorProto, helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "onnx18")
F, I64, I32 = TensorProto.FLOAT, TensorProto.INT64, TensorProto.INT32


def save(name, nodes, inputs, outputs, opset, inits=()):
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    model = helper.make_model(graph, producer_name="make_opset18_models",
                              opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    with open(os.path.join(OUT, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def ints(name, values):
    return helper.make_tensor(name, I64, [len(values)], values)


def main():
    os.makedirs(OUT, exist_ok=True)
    x23 = vi("X", F, [2, 3])
    # Reduce* (18): axes as an input; noop_with_empty_axes with no axes reduces nothing
    save("reduce_axes_input",
         [helper.make_node("ReduceMean", ["X", "axes"], ["mean"], keepdims=0),
          helper.make_node("ReduceSumSquare", ["X", "axes"], ["sumsq"], keepdims=1),
          helper.make_node("ReduceMax", ["X"], ["all"], keepdims=0)],
         [x23], [vi("mean", F, [2]), vi("sumsq", F, [2, 1]), vi("all", F, [])], 18, [ints("axes", [1])])
    save("reduce_noop",
         [helper.make_node("ReduceL2", ["X"], ["l2"], noop_with_empty_axes=1),
          helper.make_node("ReduceMin", ["X"], ["min"], noop_with_empty_axes=1),
          helper.make_node("ReduceLogSumExp", ["X", "none"], ["lse"], noop_with_empty_axes=1)],
         [x23], [vi("l2", F, [2, 3]), vi("min", F, [2, 3]), vi("lse", F, [2, 3])], 18, [ints("none", [])])
    # Split (18): num_outputs, the last part smaller
    save("split_num_outputs", [helper.make_node("Split", ["X"], ["a", "b", "c"], axis=0, num_outputs=3)],
         [vi("X", F, [7])], [vi("a", F, [3]), vi("b", F, [3]), vi("c", F, [1])], 18)
    # Pad (18): the axes input, a negative pad crops; (19): mode wrap
    save("pad_axes",
         [helper.make_node("Pad", ["X", "pads", "value", "axes"], ["Y"], mode="constant")],
         [x23], [vi("Y", F, [2, 4])], 18,
         [ints("pads", [-1, 2]), helper.make_tensor("value", F, [], [9.0]), ints("axes", [-1])])
    save("pad_wrap", [helper.make_node("Pad", ["X", "pads"], ["Y"], mode="wrap")],
         [x23], [vi("Y", F, [3, 6])], 19, [ints("pads", [0, 1, 1, 2])])
    # CenterCropPad (18): rows cropped to the centre, columns padded around it
    save("center_crop_pad",
         [helper.make_node("CenterCropPad", ["X", "shape"], ["Y"], axes=[0, 1])],
         [vi("X", F, [5, 2])], [vi("Y", F, [2, 5])], 18, [ints("shape", [2, 5])])
    # Col2Im (18): a 3x3 image from 2x2 blocks (4 places), and a 1-D one with stride 2 and pads
    save("col2im_2d",
         [helper.make_node("Col2Im", ["X", "image", "block"], ["Y"])],
         [vi("X", F, [1, 4, 4])], [vi("Y", F, [1, 1, 3, 3])], 18, [ints("image", [3, 3]), ints("block", [2, 2])])
    save("col2im_1d",
         [helper.make_node("Col2Im", ["X", "image", "block"], ["Y"], strides=[2], pads=[1, 0])],
         [vi("X", F, [1, 6, 3])], [vi("Y", F, [1, 2, 6])], 18, [ints("image", [6]), ints("block", [3])])
    # Cast (19) to a float8 type with saturate: refused
    save("cast_float8", [helper.make_node("Cast", ["X"], ["Y"], to=17, saturate=1)],
         [x23], [vi("Y", 17, [2, 3])], 19)
    # Shape (15) start and end, at opset 19
    save("shape_start_end", [helper.make_node("Shape", ["X"], ["Y"], start=1, end=-1)],
         [vi("X", F, [2, 3, 4, 5])], [vi("Y", I64, [2])], 19)
    # AveragePool (19): dilations
    save("avgpool_dilations",
         [helper.make_node("AveragePool", ["X"], ["Y"], kernel_shape=[2], dilations=[2])],
         [vi("X", F, [1, 1, 5])], [vi("Y", F, [1, 1, 3])], 19)
    # Conv and ConvTranspose of rank 5: groups, strides, pads, dilations, output_padding, SAME_UPPER
    save("conv3d_groups",
         [helper.make_node("Conv", ["X", "W", "B"], ["Y"], group=2, strides=[1, 2, 2], pads=[0, 1, 1, 0, 1, 1])],
         [vi("X", F, [1, 2, 2, 3, 3]), vi("W", F, [2, 1, 2, 2, 2]), vi("B", F, [2])], [vi("Y", F, [1, 2, 1, 2, 2])],
         11)
    save("conv3d_same_dilated",
         [helper.make_node("Conv", ["X", "W"], ["Y"], auto_pad="SAME_UPPER", dilations=[1, 1, 2])],
         [vi("X", F, [1, 1, 1, 1, 5]), vi("W", F, [1, 1, 1, 1, 2])], [vi("Y", F, [1, 1, 1, 1, 5])], 11)
    save("convtranspose3d_stride",
         [helper.make_node("ConvTranspose", ["X", "W"], ["Y"], strides=[1, 1, 2], output_padding=[0, 0, 1])],
         [vi("X", F, [1, 1, 1, 1, 2]), vi("W", F, [1, 1, 1, 1, 2])], [vi("Y", F, [1, 1, 1, 1, 5])], 11)
    save("convtranspose3d_output_shape",
         [helper.make_node("ConvTranspose", ["X", "W"], ["Y"], strides=[1, 1, 2], output_shape=[1, 1, 6])],
         [vi("X", F, [1, 1, 1, 1, 3]), vi("W", F, [1, 1, 1, 1, 3])], [vi("Y", F, [1, 1, 1, 1, 6])], 11)
    # TfIdfVectorizer: IDF and TFIDF with weights, and ngram_indexes that are not in pool order
    pool = dict(ngram_counts=[0, 3], pool_int64s=[4, 5, 6, 4, 5, 5, 6], ngram_indexes=[4, 3, 2, 1, 0],
                min_gram_length=1, max_gram_length=2, max_skip_count=1)
    weights = [1.0, 2.0, 3.0, 4.0, 5.0]
    save("tfidf_modes",
         [helper.make_node("TfIdfVectorizer", ["X"], ["tf"], mode="TF", **pool),
          helper.make_node("TfIdfVectorizer", ["X"], ["idf"], mode="IDF", weights=weights, **pool),
          helper.make_node("TfIdfVectorizer", ["X"], ["tfidf"], mode="TFIDF", weights=weights, **pool)],
         [vi("X", I32, [2, 4])], [vi("tf", F, [2, 5]), vi("idf", F, [2, 5]), vi("tfidf", F, [2, 5])], 9)


if __name__ == "__main__":
    main()
