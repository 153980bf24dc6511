#!/usr/bin/python3
"""Builds the small control-flow models of tests/cflow: the shapes exporters give If, Loop and Scan in real
networks, with seeded weights. Each case is a directory holding model.onnx and its inputs; a model run on
several input sets (both branches of an If, a decoder stopping early and one running to its step limit) gets
one directory per set, each with its own copy of the (small) model, so every directory is a self-contained
MODEL_DIR for tools/ort_reference.js and `byocc run --compare-to`.

  if_conv_{then,else}    an If whose condition compares the input's mean with zero: a 3x3 conv/relu/conv chain
                         in one branch, a 1x1 conv/sigmoid/mul chain in the other (both read outer-scope names:
                         the graph input and the outer graph's initializers)
  decoder_{early,limit}  a greedy decoder: Loop with M and cond given as inputs, carried token and hidden
                         state, an embedding Gather, a MatMul/Add/Tanh cell, ArgMax, stopping when the argmax
                         is the end token; the scan output is the decoded tokens (its length depends on the data)
  scan_rnn               an Elman RNN over a sequence with Scan (carried hidden state, stacked outputs), the
                         second scan input read in reverse
  loop_if_{clip,grow}    an If nested in a Loop body: each step halves the accumulator when its sum passes a
                         threshold, else adds the outer graph's input to it

Usage: /usr/bin/python3 tests/cflow/make_models.py [OUT_DIR]   (Debian's python3-onnx and python3-numpy)
Then:  NODE_PATH=build/ort/node_modules node tools/ort_reference.js OUT_DIR/*/
The inputs that pick a branch or a trip count are chosen here by running the same arithmetic in numpy; the
reference outputs are ONNX Runtime's (ort_output_K.npy), not this script's."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261126)


def weight(shape, scale=0.3):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def init(name, value):
    return numpy_helper.from_array(np.asarray(value), name)


def tensor(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


def save(name, graph, feeds, opset=17):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="byoc.h tests/cflow/make_models.py")
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for k, x in enumerate(feeds):
        np.save(os.path.join(d, "input_%d.npy" % k), x)


def if_conv():
    """Both chains end in (1, 4, 8, 8); the branch bodies name x, the weights and each other's nothing."""
    then_nodes = [
        helper.make_node("Conv", ["x", "w3", "b3"], ["t0"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["t0"], ["t1"]),
        helper.make_node("Conv", ["t1", "w3b", "b3b"], ["then_y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    ]
    else_nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["e0"], kernel_shape=[1, 1]),
        helper.make_node("Sigmoid", ["e0"], ["e1"]),
        helper.make_node("Mul", ["e0", "e1"], ["else_y"]),  # SiLU
    ]
    y_type = [1, 4, 8, 8]
    then_g = helper.make_graph(then_nodes, "then_branch", [], [tensor("then_y", TensorProto.FLOAT, y_type)])
    else_g = helper.make_graph(else_nodes, "else_branch", [], [tensor("else_y", TensorProto.FLOAT, y_type)])
    nodes = [
        helper.make_node("ReduceMean", ["x"], ["mean"], keepdims=0),
        helper.make_node("Greater", ["mean", "zero"], ["positive"]),
        helper.make_node("If", ["positive"], ["branch"], then_branch=then_g, else_branch=else_g),
        helper.make_node("Relu", ["branch"], ["y"]),
    ]
    inits = [init("zero", np.float32(0)), init("w3", weight([6, 3, 3, 3])), init("b3", weight([6])),
             init("w3b", weight([4, 6, 3, 3])), init("b3b", weight([4])), init("w1", weight([4, 3, 1, 1], 1.0)),
             init("b1", weight([4]))]
    graph = helper.make_graph(nodes, "if_conv", [tensor("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                              [tensor("y", TensorProto.FLOAT, y_type)], inits)
    x = rng.standard_normal([1, 3, 8, 8]).astype(np.float32)
    save("if_conv_then", graph, [x - x.mean() + 0.25])
    save("if_conv_else", graph, [x - x.mean() - 0.25])


def decoder():
    """A greedy decoder: tokens[i] = argmax(Wo tanh(E[tok] Wx + h Wh + b) + bo), until END or M steps."""
    vocab, emb, hidden, end = 8, 6, 12, 0
    table, wx, wh, b = weight([vocab, emb], 1.0), weight([emb, hidden], 0.6), weight([hidden, hidden], 0.4), weight([hidden])
    wo, bo = weight([hidden, vocab], 1.0), weight([vocab], 0.2)
    body_nodes = [
        helper.make_node("Gather", ["table", "tok_in"], ["e"], axis=0),            # (1, emb)
        helper.make_node("MatMul", ["e", "wx"], ["ex"]),
        helper.make_node("MatMul", ["h_in", "wh"], ["hh"]),
        helper.make_node("Add", ["ex", "hh"], ["s0"]),
        helper.make_node("Add", ["s0", "b"], ["s1"]),
        helper.make_node("Tanh", ["s1"], ["h_out"]),                               # (1, hidden)
        helper.make_node("MatMul", ["h_out", "wo"], ["l0"]),
        helper.make_node("Add", ["l0", "bo"], ["logits"]),                         # (1, vocab)
        helper.make_node("ArgMax", ["logits"], ["tok_out"], axis=1, keepdims=0),   # (1)
        helper.make_node("Equal", ["tok_out", "end"], ["is_end"]),
        helper.make_node("Not", ["is_end"], ["go_on"]),
        helper.make_node("Squeeze", ["go_on"], ["cond_out"]),
        helper.make_node("Identity", ["tok_out"], ["tok_scan"]),
    ]
    body = helper.make_graph(
        body_nodes, "decoder_step",
        [tensor("i", TensorProto.INT64, []), tensor("cond_in", TensorProto.BOOL, []),
         tensor("tok_in", TensorProto.INT64, [1]), tensor("h_in", TensorProto.FLOAT, [1, hidden])],
        [tensor("cond_out", TensorProto.BOOL, []), tensor("tok_out", TensorProto.INT64, [1]),
         tensor("h_out", TensorProto.FLOAT, [1, hidden]), tensor("tok_scan", TensorProto.INT64, [1])])
    nodes = [helper.make_node("Loop", ["max_steps", "go", "start", "h0"], ["last_tok", "h", "tokens"], body=body)]
    inits = [init("table", table), init("wx", wx), init("wh", wh), init("b", b), init("wo", wo), init("bo", bo),
             init("end", np.array([end], dtype=np.int64))]
    graph = helper.make_graph(
        nodes, "decoder",
        [tensor("max_steps", TensorProto.INT64, []), tensor("go", TensorProto.BOOL, []),
         tensor("start", TensorProto.INT64, [1]), tensor("h0", TensorProto.FLOAT, [1, hidden])],
        [tensor("last_tok", TensorProto.INT64, [1]), tensor("h", TensorProto.FLOAT, [1, hidden]),
         tensor("tokens", TensorProto.INT64, ["steps", 1])], inits)

    def steps(start, h0, limit):
        tok, h = start, h0
        for n in range(1, limit + 1):
            h = np.tanh(table[tok] @ wx + h @ wh + b)
            tok = int(np.argmax(h @ wo + bo))
            if tok == end:
                return n
        return limit

    limit = 7
    found = {}
    for _ in range(500):  # an early stop after 2..limit-2 tokens, and a run that never meets END
        start, h0 = int(rng.integers(1, vocab)), weight([1, hidden], 1.5)
        n = steps(start, h0[0], limit + 3)
        key = "early" if 2 <= n <= limit - 2 else "limit" if n > limit else None
        if key and key not in found:
            found[key] = (start, h0)
    for key in ("early", "limit"):
        start, h0 = found[key]
        save("decoder_" + key, graph, [np.array(limit, dtype=np.int64), np.array(True),
                                        np.array([start], dtype=np.int64), h0])


def scan_rnn():
    """h_t = tanh(x_t Wx + r_(T-1-t) Wr + h_(t-1) Wh + b), y_t = h_t; x forward, r reversed."""
    seq, feat, hidden = 6, 5, 8
    body_nodes = [
        helper.make_node("MatMul", ["x_t", "wx"], ["a"]),
        helper.make_node("MatMul", ["r_t", "wr"], ["c"]),
        helper.make_node("MatMul", ["h_prev", "wh"], ["d"]),
        helper.make_node("Sum", ["a", "c", "d", "b"], ["pre"]),
        helper.make_node("Tanh", ["pre"], ["h_next"]),
        helper.make_node("Identity", ["h_next"], ["y_t"]),
    ]
    body = helper.make_graph(
        body_nodes, "elman_cell",
        [tensor("h_prev", TensorProto.FLOAT, [1, hidden]), tensor("x_t", TensorProto.FLOAT, [1, feat]),
         tensor("r_t", TensorProto.FLOAT, [1, feat])],
        [tensor("h_next", TensorProto.FLOAT, [1, hidden]), tensor("y_t", TensorProto.FLOAT, [1, hidden])])
    nodes = [helper.make_node("Scan", ["h0", "x", "r"], ["h", "ys"], body=body, num_scan_inputs=2,
                              scan_input_directions=[0, 1])]
    inits = [init("wx", weight([feat, hidden], 0.5)), init("wr", weight([feat, hidden], 0.3)),
             init("wh", weight([hidden, hidden], 0.4)), init("b", weight([hidden], 0.1))]
    graph = helper.make_graph(
        nodes, "scan_rnn",
        [tensor("h0", TensorProto.FLOAT, [1, hidden]), tensor("x", TensorProto.FLOAT, [seq, 1, feat]),
         tensor("r", TensorProto.FLOAT, [seq, 1, feat])],
        [tensor("h", TensorProto.FLOAT, [1, hidden]), tensor("ys", TensorProto.FLOAT, [seq, 1, hidden])], inits)
    save("scan_rnn", graph, [weight([1, hidden], 0.5), weight([seq, 1, feat], 1.0), weight([seq, 1, feat], 1.0)])


def loop_if():
    """acc_(i+1) = sum(acc_i) > limit ? acc_i * 0.5 : acc_i + x * w; the If reads x and w two scopes out."""
    n = 4
    halve = helper.make_graph([helper.make_node("Mul", ["acc_in", "half"], ["halved"])], "halve", [],
                              [tensor("halved", TensorProto.FLOAT, [n])])
    grow = helper.make_graph([helper.make_node("Mul", ["x", "w"], ["xw"]),
                              helper.make_node("Add", ["acc_in", "xw"], ["grown"])], "grow", [],
                             [tensor("grown", TensorProto.FLOAT, [n])])
    body_nodes = [
        helper.make_node("ReduceSum", ["acc_in"], ["total"], keepdims=0),
        helper.make_node("Greater", ["total", "limit"], ["over"]),
        helper.make_node("If", ["over"], ["acc_out"], then_branch=halve, else_branch=grow),
        helper.make_node("ReduceMax", ["acc_out"], ["peak"], keepdims=0),
        helper.make_node("Identity", ["cond_in"], ["cond_out"]),
    ]
    body = helper.make_graph(
        body_nodes, "step",
        [tensor("i", TensorProto.INT64, []), tensor("cond_in", TensorProto.BOOL, []),
         tensor("acc_in", TensorProto.FLOAT, [n])],
        [tensor("cond_out", TensorProto.BOOL, []), tensor("acc_out", TensorProto.FLOAT, [n]),
         tensor("peak", TensorProto.FLOAT, [])])
    nodes = [helper.make_node("Loop", ["trips", "", "acc0"], ["acc", "peaks"], body=body)]
    w = weight([n], 1.0)
    inits = [init("trips", np.array(6, dtype=np.int64)), init("half", np.float32(0.5)),
             init("limit", np.float32(3.0)), init("w", w)]
    graph = helper.make_graph(
        nodes, "loop_if", [tensor("x", TensorProto.FLOAT, [n]), tensor("acc0", TensorProto.FLOAT, [n])],
        [tensor("acc", TensorProto.FLOAT, [n]), tensor("peaks", TensorProto.FLOAT, [6])], inits)
    x = (np.abs(weight([n], 1.0)) * np.sign(w)).astype(np.float32)  # x * w >= 0: the sum grows
    save("loop_if_clip", graph, [x, np.full([n], 2.0, dtype=np.float32)])  # over at once
    save("loop_if_grow", graph, [x, np.zeros([n], dtype=np.float32)])       # grows first


if __name__ == "__main__":
    if_conv()
    decoder()
    scan_rnn()
    loop_if()
