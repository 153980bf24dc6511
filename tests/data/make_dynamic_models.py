#!/usr/bin/python3
"""Writes the small ONNX models of tests/data/dynamic/: graphs whose input has a symbolic dim ('n'), so that
imported with dynamic_dims (byocc --dynamic-dims) every value after it has a '?' extent. tests/test_ops_dynamic.c
imports them, runs them on inputs of two extents and checks the results against values worked out by hand;
tests/cli.sh runs one through byocc. Needs python3-onnx (Debian); run from the repository root:
    /usr/bin/python3 tests/data/make_dynamic_models.py
The .onnx files are checked in, so the tests do not need python."""
import os

from onnx import TensorProto, helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dynamic")
F, I64 = TensorProto.FLOAT, TensorProto.INT64


def ints(name, values):
    return helper.make_tensor(name, I64, [len(values)], values)


def shape_ops():
    """x: (n, 3). The ops that only need the rank, each on the '?' extent: Shape, Transpose, Unsqueeze,
    Squeeze, Flatten, Reshape (0 and -1), Concat, Gather, CumSum, ReduceSum, Tile and Expand."""
    n = [
        helper.make_node("Shape", ["x"], ["shape"]),                                  # [n, 3]
        helper.make_node("Shape", ["x"], ["rows"], end=1),                            # [n]
        helper.make_node("Transpose", ["x"], ["xt"], perm=[1, 0]),                   # (3, n)
        helper.make_node("Unsqueeze", ["xt", "axes0"], ["u"]),                       # (1, 3, n)
        helper.make_node("Squeeze", ["u", "axes0"], ["sq"]),                         # (3, n)
        helper.make_node("Flatten", ["u"], ["flat"], axis=1),                        # (1, 3n)
        helper.make_node("Reshape", ["x", "shape_r"], ["r"]),                        # (n, 3, 1)
        helper.make_node("Concat", ["x", "x"], ["cat"], axis=0),                     # (2n, 3)
        helper.make_node("Gather", ["x", "last"], ["g"], axis=0),                    # (1, 3): the last row
        helper.make_node("CumSum", ["x", "axis0"], ["cs"]),                          # (n, 3)
        helper.make_node("ReduceSum", ["x", "axes0"], ["rs"], keepdims=0),           # (3)
        helper.make_node("Tile", ["x", "reps"], ["tl"]),                             # (n, 6)
        helper.make_node("Expand", ["x", "eshape"], ["ex"]),                         # (2, n, 3)
    ]
    inits = [ints("axes0", [0]), ints("shape_r", [0, -1, 1]), ints("last", [-1]),
             helper.make_tensor("axis0", I64, [], [0]), ints("reps", [1, 2]), ints("eshape", [2, 1, 3])]
    outs = [("shape", I64, [2]), ("rows", I64, [1]), ("sq", F, [3, "n"]), ("flat", F, [1, None]),
            ("r", F, ["n", 3, 1]), ("cat", F, [None, 3]), ("g", F, [1, 3]), ("cs", F, ["n", 3]), ("rs", F, [3]),
            ("tl", F, ["n", 6]), ("ex", F, [2, "n", 3])]
    graph = helper.make_graph(n, "shape_ops", [helper.make_tensor_value_info("x", F, ["n", 3])],
                              [helper.make_tensor_value_info(name, t, s) for name, t, s in outs], initializer=inits)
    model = helper.make_model(graph, producer_name="make_dynamic_models",
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    with open(os.path.join(OUT, "shape_ops.onnx"), "wb") as f:
        f.write(model.SerializeToString())


def squeeze_unknown():
    """x: (n, 1). Squeeze without axes: which axes are 1 is known only at run time, so the import refuses it."""
    graph = helper.make_graph([helper.make_node("Squeeze", ["x"], ["y"])], "squeeze_unknown",
                              [helper.make_tensor_value_info("x", F, ["n", 1])],
                              [helper.make_tensor_value_info("y", F, None)])
    model = helper.make_model(graph, producer_name="make_dynamic_models",
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    with open(os.path.join(OUT, "squeeze_unknown.onnx"), "wb") as f:
        f.write(model.SerializeToString())


def save(name, nodes, inputs, outputs, inits, opset=13):
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=inits)
    model = helper.make_model(graph, producer_name="make_dynamic_models",
                              opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    with open(os.path.join(OUT, name + ".onnx"), "wb") as f:
        f.write(model.SerializeToString())


def projection():
    """x: (b, s, 2), both '?': a projection by a constant matrix (MatMul), attention-like scores x x^T
    (a MatMul of two '?' operands), Softmax on the last axis, and Gemm on the rows flattened."""
    n = [
        helper.make_node("MatMul", ["x", "w"], ["y"]),                               # (b, s, 3)
        helper.make_node("Transpose", ["x"], ["xt"], perm=[0, 2, 1]),               # (b, 2, s)
        helper.make_node("MatMul", ["x", "xt"], ["scores"]),                        # (b, s, s)
        helper.make_node("Softmax", ["y"], ["p"], axis=-1),                          # (b, s, 3)
        helper.make_node("Reshape", ["x", "rows"], ["flat"]),                        # (b s, 2)
        helper.make_node("Gemm", ["flat", "g", "c"], ["sums"]),                      # (b s, 1)
    ]
    inits = [helper.make_tensor("w", F, [2, 3], [1, 0, 1, 0, 1, 1]), ints("rows", [-1, 2]),
             helper.make_tensor("g", F, [2, 1], [1, 1]), helper.make_tensor("c", F, [1], [0.5])]
    save("projection", n, [helper.make_tensor_value_info("x", F, ["b", "s", 2])],
         [helper.make_tensor_value_info(v, F, None) for v in ("y", "scores", "p", "sums")], inits)


def conv_batch():
    """x: (n, 1, 3, 3), the batch '?': Conv with a 2x2 kernel of ones, then a 2x2 MaxPool."""
    n = [helper.make_node("Conv", ["x", "w", "b"], ["c"], kernel_shape=[2, 2]),      # (n, 1, 2, 2)
         helper.make_node("MaxPool", ["c"], ["m"], kernel_shape=[2, 2])]              # (n, 1, 1, 1)
    inits = [helper.make_tensor("w", F, [1, 1, 2, 2], [1, 1, 1, 1]), helper.make_tensor("b", F, [1], [0])]
    save("conv_batch", n, [helper.make_tensor_value_info("x", F, ["n", 1, 3, 3])],
         [helper.make_tensor_value_info(v, F, None) for v in ("c", "m")], inits)
    # the channels '?' as well: the import refuses it (the weights fix them)
    save("conv_channels", n[:1], [helper.make_tensor_value_info("x", F, ["n", "c", 3, 3])],
         [helper.make_tensor_value_info("c", F, None)], inits)


def layer_norm():
    """x: (b, s, 2), both '?': LayerNormalization over the last axis with its Mean and InvStdDev outputs."""
    n = [helper.make_node("LayerNormalization", ["x", "scale", "bias"], ["y", "mean", "inv"], axis=-1)]
    inits = [helper.make_tensor("scale", F, [2], [2, 2]), helper.make_tensor("bias", F, [2], [1, 1])]
    save("layer_norm", n, [helper.make_tensor_value_info("x", F, ["b", "s", 2])],
         [helper.make_tensor_value_info(v, F, None) for v in ("y", "mean", "inv")], inits, opset=17)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    shape_ops()
    squeeze_unknown()
    projection()
    conv_batch()
    layer_norm()
