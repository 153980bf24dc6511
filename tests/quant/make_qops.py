#!/usr/bin/python3
"""Builds one small model per case of ONNX Runtime's com.microsoft QOperator ops (QLinearAdd, QLinearMul,
QLinearConcat, QLinearSigmoid, QLinearLeakyRelu, QLinearAveragePool, QLinearGlobalAveragePool,
QLinearSoftmax), which libonnx-testdata has no node tests for. Cases cover int8 and uint8, per-tensor
parameters, numpy broadcasting (each of ORT's broadcast paths: both operands varying, either one a single
value per run, a scalar), odd shapes, scales whose ratios make rounding ties, and saturation. Inputs come from
a fixed seed; the reference outputs are ONNX Runtime's (tools/ort_reference.js), checked in beside them, and
tests/quant/qops.sh requires byocc's integers to equal them on every element.

Usage: /usr/bin/python3 tests/quant/make_qops.py [OUT_DIR]   (Debian's python3-onnx and python3-numpy)
Then:  NODE_PATH=build/ort/node_modules node tools/ort_reference.js OUT_DIR/qops_*/
With --every-pair OUT_DIR it builds instead 20 larger models (not checked in): QLinearAdd and QLinearMul on
every pair of 8-bit values (65536 elements each) for five scale and zero-point sets, int8 and uint8, the
measurement behind qnn.add's and qnn.mul's arithmetic; run them the same way and compare with byocc run."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

EVERY_PAIR = len(sys.argv) > 2 and sys.argv[1] == "--every-pair"
OUT = sys.argv[-1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261126)
NP = {TensorProto.INT8: np.int8, TensorProto.UINT8: np.uint8}


def data(elem, shape):
    info = np.iinfo(NP[elem])
    return rng.integers(info.min, info.max + 1, size=shape, dtype=np.int64).astype(NP[elem])


def qparams(prefix, elem, scale, zero_point):
    """the scale (float32) and zero point (of the data's type) initializers named prefix_scale, prefix_zero_point"""
    return [numpy_helper.from_array(np.array(scale, dtype=np.float32), prefix + "_scale"),
            numpy_helper.from_array(np.array(zero_point, dtype=NP[elem]), prefix + "_zero_point")]


def save(name, node, feeds, initializers, out_elem, out_shape):
    inputs = [helper.make_tensor_value_info(k, TensorProto.INT8 if v.dtype == np.int8 else TensorProto.UINT8,
                                            list(v.shape)) for k, v in feeds]
    out = helper.make_tensor_value_info(node.output[0], out_elem, out_shape)
    graph = helper.make_graph([node], name, inputs, [out], initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13),
                                                    helper.make_opsetid("com.microsoft", 1)],
                              producer_name="byoc.h tests/quant/make_qops.py")
    model.ir_version = 8
    d = os.path.join(OUT, "qops_" + name)
    os.makedirs(d, exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for k, (_, x) in enumerate(feeds):
        np.save(os.path.join(d, "input_%d.npy" % k), x)


def ms_node(op, inputs, **attrs):
    return helper.make_node(op, inputs, ["y"], domain="com.microsoft", **attrs)


def binary(op, name, elem, a_shape, b_shape, out_shape, a_q, b_q, c_q, a=None, b=None):
    a = data(elem, a_shape) if a is None else a
    b = data(elem, b_shape) if b is None else b
    node = ms_node(op, ["a", "a_scale", "a_zero_point", "b", "b_scale", "b_zero_point", "c_scale", "c_zero_point"])
    inits = qparams("a", elem, *a_q) + qparams("b", elem, *b_q) + qparams("c", elem, *c_q)
    save(name, node, [("a", a), ("b", b)], inits, elem, out_shape)


def every_pair(elem):
    """a [256, 256] grid of every 8-bit value against every other, flattened into two [65536] vectors' halves:
    the first 4096 pairs of a seeded permutation keep the files small"""
    info = np.iinfo(NP[elem])
    v = np.arange(info.min, info.max + 1)
    a, b = np.meshgrid(v, v)
    order = rng.permutation(a.size)[:4096]
    return a.ravel()[order].astype(NP[elem]).reshape(64, 64), b.ravel()[order].astype(NP[elem]).reshape(64, 64)


def binaries():
    i8, u8 = TensorProto.INT8, TensorProto.UINT8
    for op, tag in (("QLinearAdd", "add"), ("QLinearMul", "mul")):
        # both operands vary (ORT's general span); ratios 0.5 and 0.25 make many exact ties
        a, b = every_pair(i8)
        binary(op, tag + "_i8_ties", i8, None, None, [64, 64], (0.5, 3), (0.25, -7), (1.0, 1) if tag == "add" else
               (8.0, 1), a=a, b=b)
        a, b = every_pair(u8)
        binary(op, tag + "_u8_ties", u8, None, None, [64, 64], (0.25, 128), (0.75, 120), (0.5, 130) if tag == "add"
               else (16.0, 131), a=a, b=b)
        # general scales, both varying, an odd shape
        binary(op, tag + "_u8_odd", u8, [3, 5, 7], [3, 5, 7], [3, 5, 7], (0.0173, 131), (0.0291, 97), (0.0417, 125))
        # rhs one value per innermost run: NCHW + (C, 1, 1)
        binary(op, tag + "_i8_channel", i8, [2, 3, 5, 7], [3, 1, 1], [2, 3, 5, 7], (0.05, -3), (0.11, 9),
               (0.07, 4))
        # lhs one value per run: (N, 1) + (N, M)
        binary(op, tag + "_u8_lhs_runs", u8, [6, 1], [6, 33], [6, 33], (0.3, 100), (0.02, 140), (0.25, 128))
        # a rank-0 operand
        binary(op, tag + "_i8_scalar", i8, [], [4, 9], [4, 9], (0.4, 0), (0.015, -20), (0.03, 10))
        # rhs repeats along the outer axis but varies along the run: the general path per span
        binary(op, tag + "_i8_row", i8, [5, 19], [19], [5, 19], (0.02, 1), (0.03, -1), (0.04, 0))
        # saturation at both ends: a small output scale
        binary(op, tag + "_u8_saturate", u8, [8, 40], [8, 40], [8, 40], (0.5, 128), (0.5, 100), (0.01, 128))
        binary(op, tag + "_i8_saturate", i8, [8, 40], [8, 40], [8, 40], (0.5, 0), (0.5, 10), (0.02, -5))


def concats():
    i8, u8 = TensorProto.INT8, TensorProto.UINT8
    for elem, tag, axis in ((i8, "i8", 1), (u8, "u8", -1)):
        shapes = [[2, 3, 5], [2, 4, 5], [2, 1, 5]] if axis == 1 else [[3, 4, 7], [3, 4, 2], [3, 4, 11]]
        params = [(0.05, 3 if elem == i8 else 128), (0.1, 0 if elem == i8 else 120), (0.0125, -9 if elem == i8 else 1)]
        out_q = (0.05, 3 if elem == i8 else 128)  # the first input's: copied as is
        inputs = ["y_scale", "y_zero_point"]
        inits = qparams("y", elem, *out_q)
        feeds = []
        for k, (shape, q) in enumerate(zip(shapes, params)):
            inputs += ["x%d" % k, "x%d_scale" % k, "x%d_zero_point" % k]
            inits += qparams("x%d" % k, elem, *q)
            feeds.append(("x%d" % k, data(elem, shape)))
        out_shape = list(shapes[0])
        out_shape[axis] = sum(s[axis] for s in shapes)
        save("concat_" + tag, ms_node("QLinearConcat", inputs, axis=axis), feeds, inits, elem, out_shape)


def unaries():
    i8, u8 = TensorProto.INT8, TensorProto.UINT8
    every = {i8: np.arange(-128, 128).astype(np.int8).reshape(16, 16),
             u8: np.arange(0, 256).astype(np.uint8).reshape(16, 16)}
    cases = [("sigmoid", "QLinearSigmoid", {}, [(i8, (0.05, 2), (1.0 / 256, -128)), (u8, (0.1, 128), (1.0 / 255, 0)),
                                                (i8, (0.0313, -5), (0.003, -100))]),
             ("leaky_relu", "QLinearLeakyRelu", {"alpha": 0.1}, [(i8, (0.05, 2), (0.04, -10)),
                                                                 (u8, (0.1, 128), (0.07, 100))]),
             ("leaky_relu_ties", "QLinearLeakyRelu", {"alpha": 0.5}, [(i8, (0.5, 0), (1.0, 0))])]
    for tag, op, attrs, variants in cases:
        for k, (elem, xq, yq) in enumerate(variants):
            node = ms_node(op, ["x", "x_scale", "x_zero_point", "y_scale", "y_zero_point"], **attrs)
            name = "%s_%s%s" % (tag, "i8" if elem == i8 else "u8", "" if k < 2 else "_%d" % k)
            save(name, node, [("x", every[elem])], qparams("x", elem, *xq) + qparams("y", elem, *yq), elem, [16, 16])


def pools():
    i8, u8 = TensorProto.INT8, TensorProto.UINT8
    names = ["x", "x_scale", "x_zero_point", "y_scale", "y_zero_point"]
    cases = [("avg_pool_u8", u8, [1, 3, 9, 11], dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
              (0.05, 128), (0.04, 120), [1, 3, 5, 6]),
             ("avg_pool_i8_include_pad", i8, [2, 2, 7, 7],
              dict(kernel_shape=[2, 3], strides=[1, 2], pads=[1, 0, 1, 2], count_include_pad=1), (0.1, -3), (0.1, 2),
              [2, 2, 8, 4]),
             ("avg_pool_i8_ceil", i8, [1, 4, 8, 8], dict(kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1), (0.02, 0),
              (0.03, 5), [1, 4, 4, 4]),
             ("avg_pool_u8_ties", u8, [1, 2, 6, 6], dict(kernel_shape=[2, 2], strides=[2, 2]), (1.0, 0), (1.0, 0),
              [1, 2, 3, 3]),
             ("avg_pool_i8_same_upper", i8, [1, 3, 7, 8],
              dict(kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_UPPER"), (0.07, 1), (0.05, -2), [1, 3, 4, 4]),
             ("avg_pool_u8_1d", u8, [2, 3, 11], dict(kernel_shape=[4], strides=[3], pads=[2, 1]), (0.03, 100),
              (0.02, 90), [2, 3, 4])]
    for name, elem, shape, attrs, xq, yq, out_shape in cases:
        node = ms_node("QLinearAveragePool", names, **attrs)
        save(name, node, [("x", data(elem, shape))], qparams("x", elem, *xq) + qparams("y", elem, *yq), elem,
             out_shape)
    for name, elem, shape, xq, yq in (("global_avg_pool_u8", u8, [2, 5, 7, 9], (0.05, 128), (0.02, 100)),
                                      ("global_avg_pool_i8", i8, [1, 16, 3, 3], (0.1, -2), (0.1, 0)),
                                      ("global_avg_pool_u8_ties", u8, [1, 3, 2, 2], (1.0, 0), (1.0, 0))):
        node = ms_node("QLinearGlobalAveragePool", names, channels_last=0)
        save(name, node, [("x", data(elem, shape))], qparams("x", elem, *xq) + qparams("y", elem, *yq), elem,
             shape[:2] + [1, 1])


def softmaxes():
    i8, u8 = TensorProto.INT8, TensorProto.UINT8
    names = ["x", "x_scale", "x_zero_point", "y_scale", "y_zero_point"]
    for name, elem, shape, axis, opset, xq, yq in (
            ("softmax_u8", u8, [4, 10], -1, 13, (0.1, 128), (1.0 / 256, 0)),
            ("softmax_i8", i8, [3, 5, 17], -1, 13, (0.05, 3), (1.0 / 256, -128)),
            ("softmax_u8_axis1", u8, [2, 6, 5], 1, 13, (0.2, 100), (1.0 / 256, 0)),
            ("softmax_i8_opset11", i8, [2, 3, 4], 1, 11, (0.08, 0), (1.0 / 256, -128)),
            # a wide input scale: one element dominates its row and its quotient reaches the type's maximum
            ("softmax_i8_dominant", i8, [16, 3], -1, 13, (1.5, 0), (1.0 / 256, -128)),
            ("softmax_u8_dominant", u8, [16, 3], -1, 13, (1.5, 128), (1.0 / 256, 0))):
        node = ms_node("QLinearSoftmax", names, axis=axis, opset=opset)
        save(name, node, [("x", data(elem, shape))], qparams("x", elem, *xq) + qparams("y", elem, *yq), elem,
             shape)


def every_pair_models():
    i8, u8 = TensorProto.INT8, TensorProto.UINT8
    sets = [(0.1, 3, 0.3, -7, 0.7, 1), (0.0173, 5, 0.0291, 9, 0.0417, -3), (0.37, 0, 0.11, 0, 0.05, 0),
            (0.5, 1, 0.25, 3, 0.75, -2), (0.013, -20, 0.021, 17, 0.9, 7)]
    for op, tag in (("QLinearMul", "mul"), ("QLinearAdd", "add")):
        for elem in (i8, u8):
            info = np.iinfo(NP[elem])
            v = np.arange(info.min, info.max + 1)
            a, b = (g.astype(NP[elem]) for g in np.meshgrid(v, v))
            shift = 128 if elem == u8 else 0
            for k, (sa, za, sb, zb, sc, zc) in enumerate(sets):
                binary(op, "every_pair_%s_%s_%d" % (tag, "i8" if elem == i8 else "u8", k), elem, None, None,
                       [256, 256], (sa, za + shift), (sb, zb + shift), (sc, zc + shift), a=a, b=b)


if EVERY_PAIR:
    every_pair_models()
else:
    binaries()
    concats()
    unaries()
    pools()
    softmaxes()
