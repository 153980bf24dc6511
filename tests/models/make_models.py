#!/usr/bin/python3
"""Builds the small ONNX models of tests/models: each a network shape real users bring that the shared
models do not cover (upsampling necks, detector post-processing, recurrent and attention blocks, inputs
computed by the graph, data-dependent shapes). Weights and inputs come from a fixed seed, so the files
are reproducible; the reference outputs are ONNX Runtime's (tools/ort_reference.js), not ours.

Usage: /usr/bin/python3 tests/models/make_models.py [OUT_DIR]   (Debian's python3-onnx and python3-numpy)
Then:  NODE_PATH=build/ort/node_modules node tools/ort_reference.js OUT_DIR/*/
Each model directory gets model.onnx and input_K.npy; ort_reference.js adds ort_output_K.npy."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261126)


def weight(name, shape, scale=0.3):
    return numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name)


def const_i64(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def const_f32(name, values):
    return numpy_helper.from_array(np.array(values, dtype=np.float32), name)


def save(name, nodes, inputs, outputs, initializers, feeds, opset=17):
    graph = helper.make_graph(nodes, name, inputs, outputs, initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="byoc.h tests/models/make_models.py")
    model.ir_version = 8
    if opset <= 17:  # python3-onnx 1.12 knows opsets up to 17; newer ones are checked by ONNX Runtime
        onnx.checker.check_model(model, full_check=True)
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for k, x in enumerate(feeds):
        np.save(os.path.join(d, "input_%d.npy" % k), x)


def tensor(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


def fpn_resize():
    """A two-level FPN / U-Net neck: strided convs down, Resize up (nearest by scales, linear by sizes,
    half_pixel and asymmetric coordinates), lateral 1x1 convs added, a 3x3 head."""
    n = [
        helper.make_node("Conv", ["x", "w0", "b0"], ["c0"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c0"], ["r0"]),
        helper.make_node("Conv", ["r0", "w1", "b1"], ["c1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("Resize", ["r2", "", "up2"], ["u1"], mode="nearest", nearest_mode="floor",
                         coordinate_transformation_mode="asymmetric"),
        helper.make_node("Conv", ["r1", "l1", "lb1"], ["lat1"], kernel_shape=[1, 1]),
        helper.make_node("Add", ["u1", "lat1"], ["p1"]),
        helper.make_node("Resize", ["p1", "", "", "size0"], ["u0"], mode="linear",
                         coordinate_transformation_mode="half_pixel"),
        helper.make_node("Conv", ["r0", "l0", "lb0"], ["lat0"], kernel_shape=[1, 1]),
        helper.make_node("Add", ["u0", "lat0"], ["p0"]),
        helper.make_node("Conv", ["p0", "wh", "bh"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    ]
    inits = [weight("w0", [8, 3, 3, 3]), weight("b0", [8]), weight("w1", [16, 8, 3, 3]), weight("b1", [16]),
             weight("w2", [16, 16, 3, 3]), weight("b2", [16]), weight("l1", [16, 16, 1, 1]), weight("lb1", [16]),
             weight("l0", [16, 8, 1, 1]), weight("lb0", [16]), weight("wh", [2, 16, 3, 3]), weight("bh", [2]),
             const_f32("up2", [1, 1, 2, 2]), const_i64("size0", [1, 16, 32, 32])]
    x = rng.standard_normal([1, 3, 32, 32]).astype(np.float32)
    save("fpn_resize", n, [tensor("x", TensorProto.FLOAT, [1, 3, 32, 32])],
         [tensor("y", TensorProto.FLOAT, [1, 2, 32, 32])], inits, [x])


def detector_nms():
    """A single-class-agnostic detector head: per-anchor boxes and 3-class scores from a conv, the best
    32 anchors by score (TopK), their boxes gathered, then NonMaxSuppression over every class."""
    anchors = 64
    n = [
        helper.make_node("Conv", ["x", "wb", "bb"], ["box_map"], kernel_shape=[1, 1]),  # (1, 4, 8, 8)
        helper.make_node("Reshape", ["box_map", "shape_b"], ["box_t"]),                    # (1, 4, 64)
        helper.make_node("Transpose", ["box_t"], ["boxes"], perm=[0, 2, 1]),              # (1, 64, 4)
        helper.make_node("Conv", ["x", "ws", "bs"], ["score_map"], kernel_shape=[1, 1]),  # (1, 3, 8, 8)
        helper.make_node("Reshape", ["score_map", "shape_s"], ["logits"]),                # (1, 3, 64)
        helper.make_node("Sigmoid", ["logits"], ["scores"]),
        helper.make_node("ReduceMax", ["scores"], ["best"], axes=[1], keepdims=0),        # (1, 64)
        helper.make_node("TopK", ["best", "k"], ["top_scores", "top_idx"], axis=1),       # (1, 32)
        helper.make_node("Squeeze", ["top_idx", "axis0"], ["idx"]),
        helper.make_node("Gather", ["boxes", "idx"], ["top_boxes"], axis=1),              # (1, 32, 4)
        helper.make_node("Gather", ["scores", "idx"], ["top_cls_scores"], axis=2),        # (1, 3, 32)
        helper.make_node("NonMaxSuppression", ["top_boxes", "top_cls_scores", "max_out", "iou", "thr"],
                         ["selected"], center_point_box=0),
    ]
    inits = [weight("wb", [4, 16, 1, 1], 1.0), weight("bb", [4]), weight("ws", [3, 16, 1, 1]), weight("bs", [3]),
             const_i64("shape_b", [1, 4, anchors]), const_i64("shape_s", [1, 3, anchors]), const_i64("k", [32]),
             const_i64("axis0", [0]), const_i64("max_out", [5]), const_f32("iou", [0.5]), const_f32("thr", [0.3])]
    x = rng.standard_normal([1, 16, 8, 8]).astype(np.float32)
    save("detector_nms", n, [tensor("x", TensorProto.FLOAT, [1, 16, 8, 8])],
         [tensor("top_scores", TensorProto.FLOAT, [1, 32]), tensor("selected", TensorProto.INT64, ["n", 3])],
         inits, [x])


def kws_gru():
    """A keyword spotter: 20 frames of 10 MFCCs, a bidirectional GRU then a forward LSTM, the last
    frame's state classified into 6 words."""
    hidden = 16
    n = [
        helper.make_node("GRU", ["x", "gw", "gr", "gb"], ["gy", ""], hidden_size=hidden, direction="bidirectional",
                         linear_before_reset=1),                                          # (20, 2, 1, 16)
        helper.make_node("Transpose", ["gy"], ["gyt"], perm=[0, 2, 1, 3]),                # (20, 1, 2, 16)
        helper.make_node("Reshape", ["gyt", "seq_shape"], ["seq"]),                       # (20, 1, 32)
        helper.make_node("LSTM", ["seq", "lw", "lr", "lb"], ["", "h", ""], hidden_size=hidden),
        helper.make_node("Reshape", ["h", "flat"], ["hf"]),                               # (1, 16)
        helper.make_node("Gemm", ["hf", "fw", "fb"], ["logits"], transB=1),
        helper.make_node("Softmax", ["logits"], ["y"], axis=-1),
    ]
    inits = [weight("gw", [2, 3 * hidden, 10]), weight("gr", [2, 3 * hidden, hidden]), weight("gb", [2, 6 * hidden]),
             weight("lw", [1, 4 * hidden, 2 * hidden]), weight("lr", [1, 4 * hidden, hidden]),
             weight("lb", [1, 8 * hidden]), const_i64("seq_shape", [20, 1, 2 * hidden]), const_i64("flat", [1, hidden]),
             weight("fw", [6, hidden]), weight("fb", [6])]
    x = rng.standard_normal([20, 1, 10]).astype(np.float32)
    save("kws_gru", n, [tensor("x", TensorProto.FLOAT, [20, 1, 10])], [tensor("y", TensorProto.FLOAT, [1, 6])],
         inits, [x])


def transformer_einsum():
    """One pre-norm transformer block written the way einsum-heavy exporters write it: LayerNormalization,
    Q/K/V and the output projection as Einsum, attention scores and context as batched Einsum over heads,
    an MLP with Gelu (opset 20), residual adds."""
    s, d, h, f = 8, 32, 4, 64
    hd = d // h
    n = [
        helper.make_node("LayerNormalization", ["x", "g1", "be1"], ["n1"], axis=-1, epsilon=1e-5),
        helper.make_node("Einsum", ["n1", "wq"], ["q"], equation="bsd,dhe->bhse"),
        helper.make_node("Einsum", ["n1", "wk"], ["k"], equation="bsd,dhe->bhse"),
        helper.make_node("Einsum", ["n1", "wv"], ["v"], equation="bsd,dhe->bhse"),
        helper.make_node("Einsum", ["q", "k"], ["qk"], equation="bhqe,bhke->bhqk"),
        helper.make_node("Mul", ["qk", "scale"], ["qks"]),
        helper.make_node("Softmax", ["qks"], ["att"], axis=-1),
        helper.make_node("Einsum", ["att", "v"], ["ctx"], equation="bhqk,bhke->bqhe"),
        helper.make_node("Einsum", ["ctx", "wo"], ["proj"], equation="bqhe,hed->bqd"),
        helper.make_node("Add", ["x", "proj"], ["r1"]),
        helper.make_node("LayerNormalization", ["r1", "g2", "be2"], ["n2"], axis=-1, epsilon=1e-5),
        helper.make_node("MatMul", ["n2", "w1"], ["m1"]),
        helper.make_node("Gelu", ["m1"], ["gl"], approximate="tanh"),
        helper.make_node("MatMul", ["gl", "w2"], ["m2"]),
        helper.make_node("Add", ["r1", "m2"], ["y"]),
    ]
    inits = [const_f32("g1", 1 + 0.1 * rng.standard_normal(d)), weight("be1", [d], 0.1),
             weight("wq", [d, h, hd]), weight("wk", [d, h, hd]), weight("wv", [d, h, hd]), weight("wo", [h, hd, d]),
             const_f32("scale", [1 / np.sqrt(hd)]), const_f32("g2", 1 + 0.1 * rng.standard_normal(d)),
             weight("be2", [d], 0.1), weight("w1", [d, f], 0.2), weight("w2", [f, d], 0.2)]
    x = rng.standard_normal([1, s, d]).astype(np.float32)
    save("transformer_einsum", n, [tensor("x", TensorProto.FLOAT, [1, s, d])],
         [tensor("y", TensorProto.FLOAT, [1, s, d])], inits, [x], opset=20)


def computed_inputs():
    """Operands that opsets turned from attributes into inputs, computed by the graph instead of given as
    constants: Clip's bounds from statistics of the data, Pad's pads from the input's shape, a Reshape
    whose target shape is assembled from Shape, a Slice whose end comes from a second input, Tile repeats
    and Expand's shape likewise."""
    n = [
        helper.make_node("ReduceMean", ["x"], ["mu"], keepdims=0),
        helper.make_node("ReduceMax", ["x"], ["mx"], keepdims=0),
        helper.make_node("Mul", ["mx", "half"], ["hi"]),
        helper.make_node("Clip", ["x", "mu", "hi"], ["clipped"]),                           # (2, 3, 4)
        helper.make_node("Shape", ["x"], ["xs"]),                                           # [2, 3, 4]
        helper.make_node("Gather", ["xs", "last"], ["w"], axis=0),                           # [4]
        helper.make_node("Div", ["w", "two"], ["w2"]),                                       # [2]
        helper.make_node("Concat", ["zeros5", "w2"], ["pads"], axis=0),                      # [0,0,0,0,0,2]
        helper.make_node("Pad", ["clipped", "pads"], ["padded"], mode="constant"),          # (2, 3, 6)
        helper.make_node("Slice", ["xs", "zero1", "one1"], ["batch"]),                       # [2]
        helper.make_node("Concat", ["batch", "minus1"], ["target"], axis=0),                 # [2, -1]
        helper.make_node("Reshape", ["padded", "target"], ["flat"]),                         # (2, 18)
        helper.make_node("Cast", ["n"], ["n64"], to=TensorProto.INT64),
        helper.make_node("Unsqueeze", ["n64", "axes0"], ["end"]),
        helper.make_node("Slice", ["flat", "zero1", "end", "one_axis"], ["sliced"]),         # (2, n)
        helper.make_node("Concat", ["one1", "batch"], ["reps"], axis=0),                     # [1, 2]
        helper.make_node("Tile", ["sliced", "reps"], ["tiled"]),                             # (2, 2n)
        helper.make_node("Concat", ["two1", "batch", "minus_one_keep"], ["eshape"], axis=0),
        helper.make_node("Expand", ["tiled", "eshape"], ["y"]),                              # (2, 2, 2n)
    ]
    inits = [const_f32("half", 0.5), const_i64("last", [2]), const_i64("two", [2]), const_i64("zeros5", [0] * 5),
             const_i64("zero1", [0]), const_i64("one1", [1]), const_i64("minus1", [-1]), const_i64("axes0", [0]),
             const_i64("one_axis", [1]), const_i64("two1", [2]), const_i64("minus_one_keep", [1])]
    x = rng.standard_normal([2, 3, 4]).astype(np.float32)
    save("computed_inputs", n, [tensor("x", TensorProto.FLOAT, [2, 3, 4]), tensor("n", TensorProto.INT32, [])],
         [tensor("y", TensorProto.FLOAT, [2, 2, "m"])], inits, [x, np.array(7, dtype=np.int32)])


def nonzero_gather():
    """Data-dependent shapes: the positions of the positive elements (NonZero), the values there
    (GatherND), their running sum (CumSum) and how many there are; the count of positives depends on the
    input's values, so every shape after NonZero is known only at run time."""
    n = [
        helper.make_node("Greater", ["x", "zero"], ["pos"]),
        helper.make_node("NonZero", ["pos"], ["where"]),                                    # (2, n)
        helper.make_node("Transpose", ["where"], ["idx"], perm=[1, 0]),                     # (n, 2)
        helper.make_node("GatherND", ["x", "idx"], ["vals"]),                               # (n)
        helper.make_node("CumSum", ["vals", "axis0"], ["running"]),
        helper.make_node("Shape", ["vals"], ["count"]),
        helper.make_node("Cast", ["pos"], ["pos_f"], to=TensorProto.FLOAT),
        helper.make_node("ReduceSum", ["pos_f", "axis1"], ["per_row"], keepdims=0),          # (5)
        helper.make_node("Greater", ["per_row", "three"], ["row_has"]),
        helper.make_node("Compress", ["x", "row_has"], ["rows"], axis=0),                   # (r, 6)
    ]
    inits = [const_f32("zero", 0.0), const_i64("axis0", 0), const_i64("axis1", [1]), const_f32("three", 3.0)]
    x = rng.standard_normal([5, 6]).astype(np.float32)
    save("nonzero_gather", n, [tensor("x", TensorProto.FLOAT, [5, 6])],
         [tensor("running", TensorProto.FLOAT, ["n"]), tensor("count", TensorProto.INT64, [1]),
          tensor("rows", TensorProto.FLOAT, ["r", 6])], inits, [x])


if __name__ == "__main__":
    fpn_resize()
    detector_nms()
    kws_gru()
    transformer_einsum()
    computed_inputs()
    nonzero_gather()
