#!/usr/bin/python3
"""Builds small QDQ ONNX models in the form ONNX Runtime's quantize_static writes (weights as int8
initializers -> DequantizeLinear, per channel; biases as int32 initializers -> DequantizeLinear with scale
x_scale * w_scale; activations QuantizeLinear -> DequantizeLinear after every quantized op), for the tests
of FakeQuantizationToInteger: byoc.h's integers must equal ONNX Runtime's, which fuses the same groups into
QLinearConv / QGemm / QLinearMatMul and drops the Q/DQ around MaxPool, Reshape, Transpose, ...

Usage: /usr/bin/python3 tests/fq2i/make_qdq.py [OUT_DIR]   (Debian's python3-onnx and python3-numpy)
Then:  NODE_PATH=build/ort/node_modules node tools/ort_reference.js OUT_DIR/*/
Weights and inputs come from a fixed seed; the reference outputs are ONNX Runtime's."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261126)


class Builder:
    def __init__(self, act_type):
        self.nodes, self.inits, self.act_type = [], [], act_type
        self.n = 0

    def name(self, base):
        self.n += 1
        return "%s_%d" % (base, self.n)

    def const(self, name, array):
        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def act_params(self, lo, hi):
        """asymmetric activation parameters of the range [lo, hi] widened to hold 0 (quantize_static's MinMax)"""
        lo, hi = min(lo, 0.0), max(hi, 0.0)
        qmin, qmax = (-128, 127) if self.act_type == TensorProto.INT8 else (0, 255)
        scale = np.float32((hi - lo) / (qmax - qmin)) or np.float32(1.0)
        zp = int(np.clip(np.round(qmin - lo / scale), qmin, qmax))
        np_type = np.int8 if self.act_type == TensorProto.INT8 else np.uint8
        return np.float32(scale), np.array(zp, dtype=np_type)

    def qdq(self, x, lo, hi, label):
        """QuantizeLinear -> DequantizeLinear of activation x with the range [lo, hi]"""
        scale, zp = self.act_params(lo, hi)
        s = self.const(label + "_scale", np.array(scale, dtype=np.float32))
        z = self.const(label + "_zero_point", zp)
        q, dq = label + "_quantized", label + "_dequantized"
        self.nodes.append(helper.make_node("QuantizeLinear", [x, s, z], [q], name=label + "_QuantizeLinear"))
        self.nodes.append(helper.make_node("DequantizeLinear", [q, s, z], [dq], name=label + "_DequantizeLinear"))
        return dq, scale

    def quantize_out(self, x, lo, hi, label):
        """the graph's output: the integers of x (QuantizeLinear alone), compared exactly"""
        scale, zp = self.act_params(lo, hi)
        s = self.const(label + "_scale", np.array(scale, dtype=np.float32))
        z = self.const(label + "_zero_point", zp)
        self.nodes.append(helper.make_node("QuantizeLinear", [x, s, z], ["output"], name=label + "_QuantizeLinear"))

    def weight(self, label, w, axis):
        """symmetric int8 weights per channel along axis, as quantize_static(per_channel=True)"""
        other = tuple(d for d in range(w.ndim) if d != axis)
        scale = (np.abs(w).max(axis=other) / 127.0).astype(np.float32)
        shape = [1] * w.ndim
        shape[axis] = -1
        q = np.clip(np.round(w / scale.reshape(shape)), -127, 127).astype(np.int8)
        wq = self.const(label + "_quantized", q)
        s = self.const(label + "_scale", scale)
        z = self.const(label + "_zero_point", np.zeros(scale.shape, dtype=np.int8))
        out = label + "_dequantized"
        self.nodes.append(helper.make_node("DequantizeLinear", [wq, s, z], [out], name=label + "_DequantizeLinear",
                                           axis=axis))
        return out, scale

    def bias(self, label, b, x_scale, w_scale):
        scale = (np.float32(x_scale) * w_scale).astype(np.float32)
        q = np.round(b / scale).astype(np.int32)
        bq = self.const(label + "_quantized", q)
        s = self.const(label + "_scale", scale)
        z = self.const(label + "_zero_point", np.zeros(scale.shape, dtype=np.int32))
        out = label + "_dequantized"
        self.nodes.append(helper.make_node("DequantizeLinear", [bq, s, z], [out], name=label + "_DequantizeLinear",
                                           axis=0))
        return out


def save(name, b, inputs, outputs, feeds, opset=13):
    graph = helper.make_graph(b.nodes, name, inputs, outputs, b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="byoc.h tests/fq2i/make_qdq.py")
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for k, v in enumerate(feeds):
        np.save(os.path.join(d, "input_%d.npy" % k), v)


def conv(b, x, x_scale, cin, cout, k, pad, label, relu=True, lo=-1.0, hi=6.0):
    w, w_scale = b.weight(label + "_W", (rng.standard_normal((cout, cin, k, k)) * 0.3).astype(np.float32), 0)
    bias = b.bias(label + "_B", (rng.standard_normal(cout) * 0.2).astype(np.float32), x_scale, w_scale)
    y = label + "_out"
    b.nodes.append(helper.make_node("Conv", [x, w, bias], [y], name=label, pads=[pad] * 4))
    if relu:  # Relu before the QuantizeLinear: ONNX Runtime drops it when the zero point makes it redundant
        b.nodes.append(helper.make_node("Relu", [y], [y + "_relu"], name=label + "_relu"))
        y, lo = y + "_relu", 0.0
    return b.qdq(y, lo, hi, label + "_output")


def cnn(name, act_type):
    """Conv+Relu, MaxPool, Conv (3x3, padded), Flatten, Gemm, in QDQ form"""
    b = Builder(act_type)
    x, s = b.qdq("input", -1.0, 1.0, "input")
    x, s = conv(b, x, s, 3, 8, 3, 0, "conv1")
    b.nodes.append(helper.make_node("MaxPool", [x], ["pool"], name="pool", kernel_shape=[2, 2], strides=[2, 2]))
    scale, zp = b.act_params(0.0, 6.0)
    b.const("pool_scale", np.array(scale, dtype=np.float32))
    b.const("pool_zero_point", zp)
    b.nodes.append(helper.make_node("QuantizeLinear", ["pool", "pool_scale", "pool_zero_point"], ["pool_q"],
                                    name="pool_QuantizeLinear"))
    b.nodes.append(helper.make_node("DequantizeLinear", ["pool_q", "pool_scale", "pool_zero_point"], ["pool_dq"],
                                    name="pool_DequantizeLinear"))
    x, s = conv(b, "pool_dq", scale, 8, 8, 3, 1, "conv2", relu=False, lo=-4.0, hi=4.0)
    b.nodes.append(helper.make_node("Flatten", [x], ["flat"], name="flatten", axis=1))
    fx, fs = b.qdq("flat", -4.0, 4.0, "flat")
    w, w_scale = b.weight("fc_W", (rng.standard_normal((10, 8 * 7 * 7)) * 0.1).astype(np.float32), 0)
    bias = b.bias("fc_B", (rng.standard_normal(10) * 0.1).astype(np.float32), fs, w_scale)
    b.nodes.append(helper.make_node("Gemm", [fx, w, bias], ["logits"], name="fc", transB=1))
    b.quantize_out("logits", -8.0, 8.0, "fc_output")
    feeds = [rng.uniform(-1, 1, (1, 3, 16, 16)).astype(np.float32)]
    save(name, b, [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 16, 16])],
         [helper.make_tensor_value_info("output", act_type, [1, 10])], feeds)


def mlp(name, act_type):
    """MatMul with [K, N] weights per channel along axis 1, Add of an int32 bias, Transpose, Reshape; and a
    Sigmoid that has no integer form, so it stays in float32"""
    b = Builder(act_type)
    x, s = b.qdq("input", -2.0, 2.0, "input")
    w, w_scale = b.weight("mm_W", (rng.standard_normal((12, 6)) * 0.4).astype(np.float32), 1)
    bias = b.bias("mm_B", (rng.standard_normal(6) * 0.2).astype(np.float32), s, w_scale)
    b.nodes.append(helper.make_node("MatMul", [x, w], ["mm"], name="matmul"))
    b.nodes.append(helper.make_node("Add", ["mm", bias], ["mm_bias"], name="bias_add"))
    y, s = b.qdq("mm_bias", -5.0, 5.0, "mm_output")
    b.nodes.append(helper.make_node("Transpose", [y], ["tr"], name="transpose", perm=[0, 2, 1]))
    b.const("tr_scale", np.array(s, dtype=np.float32))
    b.const("tr_zero_point", b.act_params(-5.0, 5.0)[1])
    b.nodes.append(helper.make_node("QuantizeLinear", ["tr", "tr_scale", "tr_zero_point"], ["tr_q"],
                                    name="tr_QuantizeLinear"))
    b.nodes.append(helper.make_node("DequantizeLinear", ["tr_q", "tr_scale", "tr_zero_point"], ["tr_dq"],
                                    name="tr_DequantizeLinear"))
    b.nodes.append(helper.make_node("Sigmoid", ["tr_dq"], ["sig"], name="sigmoid"))
    b.quantize_out("sig", 0.0, 1.0, "sig_output")
    feeds = [rng.uniform(-2, 2, (2, 5, 12)).astype(np.float32)]
    save(name, b, [helper.make_tensor_value_info("input", TensorProto.FLOAT, [2, 5, 12])],
         [helper.make_tensor_value_info("output", act_type, [2, 6, 5])], feeds)


def qlinear_ops(name, act_type):
    """the groups ONNX Runtime turns into its com.microsoft QLinear* kernels: Add, Mul, Concat, Sigmoid,
    LeakyRelu, AveragePool, GlobalAveragePool, Softmax, each between dequantizes and a quantize"""
    b = Builder(act_type)
    x, s = b.qdq("input", -2.0, 2.0, "input")
    y, s2 = b.qdq("input2", -1.0, 3.0, "input2")
    b.nodes.append(helper.make_node("Add", [x, y], ["sum"], name="add"))
    a, _ = b.qdq("sum", -3.0, 5.0, "add_output")
    b.nodes.append(helper.make_node("Mul", [a, x], ["prod"], name="mul"))
    p, _ = b.qdq("prod", -6.0, 6.0, "mul_output")
    b.nodes.append(helper.make_node("Sigmoid", [p], ["sig"], name="sigmoid"))
    g, _ = b.qdq("sig", 0.0, 1.0, "sigmoid_output")
    b.nodes.append(helper.make_node("LeakyRelu", [a], ["leaky"], name="leaky_relu", alpha=0.1))
    lk, _ = b.qdq("leaky", -0.5, 5.0, "leaky_output")
    b.nodes.append(helper.make_node("Concat", [g, lk], ["cat"], name="concat", axis=1))
    c, _ = b.qdq("cat", -0.5, 5.0, "concat_output")
    b.nodes.append(helper.make_node("AveragePool", [c], ["avg"], name="avgpool", kernel_shape=[2, 2], strides=[2, 2]))
    av, _ = b.qdq("avg", -0.5, 5.0, "avgpool_output")
    b.nodes.append(helper.make_node("GlobalAveragePool", [av], ["gap"], name="gap"))
    gp, _ = b.qdq("gap", -0.5, 5.0, "gap_output")
    b.nodes.append(helper.make_node("Flatten", [gp], ["flat"], name="flatten", axis=1))
    f, _ = b.qdq("flat", -0.5, 5.0, "flat_output")
    b.nodes.append(helper.make_node("Softmax", [f], ["soft"], name="softmax", axis=1))
    b.quantize_out("soft", 0.0, 1.0, "softmax_output")
    feeds = [rng.uniform(-2, 2, (1, 4, 8, 8)).astype(np.float32), rng.uniform(-1, 3, (1, 4, 8, 8)).astype(np.float32)]
    save(name, b, [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 4, 8, 8]),
                   helper.make_tensor_value_info("input2", TensorProto.FLOAT, [1, 4, 8, 8])],
         [helper.make_tensor_value_info("output", act_type, [1, 8])], feeds)


cnn("qdq_cnn_s8", TensorProto.INT8)
cnn("qdq_cnn_u8", TensorProto.UINT8)
mlp("qdq_mlp_s8", TensorProto.INT8)
mlp("qdq_mlp_u8", TensorProto.UINT8)
qlinear_ops("qdq_ops_s8", TensorProto.INT8)
qlinear_ops("qdq_ops_u8", TensorProto.UINT8)
