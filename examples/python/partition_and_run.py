"""Partition an ONNX model over the simulated NPU and DSP, run it, save it, explain a node: MODEL.onnx [OUT.byoc]"""
import sys

import numpy as np

import byoc

model, out = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "model.byoc"
print(byoc.partition(model, backends=["npu", "dsp"], strategy="collage"))
with byoc.compile(model, backends=["npu", "dsp"], strategy="collage") as sess:
    feeds = {io["name"]: np.random.default_rng(0).random(io["shape"]).astype(io["dtype"]) for io in sess.inputs}
    outputs = sess.run(None, feeds)
    print("outputs:", [o.shape for o in outputs], "simulated: %.1f us" % (sess.simulated_latency * 1e6))
    slowest = max(sess.profile(), key=lambda k: k["sim_seconds"])["name"]
    print("slowest kernel:", slowest)
    sess.save(out)
with byoc.Session(out) as loaded:
    assert all(np.array_equal(a, b) for a, b in zip(loaded.run(None, feeds), outputs))
    print("why:", loaded.explain(slowest.split("+")[0])["ir"][0]["reason"])
