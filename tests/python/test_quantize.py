"""byoc.quantize: the library's quantize_static entry, as byocc quantize (the same bytes for the same samples),
and the quantized model compiled and run from Python keeps mnist8's class."""
import os
import subprocess

import pytest

np = pytest.importorskip("numpy")
import byoc  # noqa: E402
from conftest import MODELS, ROOT, TOOL_ENV  # noqa: E402

MNIST8 = os.path.join(MODELS, "mnist8")
BYOCC = os.path.join(ROOT, os.environ.get("BUILD", "build"), "byocc")


def _samples():
    x = np.load(os.path.join(MNIST8, "input_0.npy"))
    rng = np.random.default_rng(3)
    return [[x]] + [[np.clip(x + rng.normal(0, 20, x.shape), 0, 255).astype(np.float32)] for _ in range(2)]


@pytest.mark.skipif(not os.path.exists(os.path.join(MNIST8, "model.onnx")), reason="no ../shared/models/mnist8")
def test_quantize_writes_what_byocc_quantize_writes(tmp_path):
    samples = _samples()
    out = str(tmp_path / "py_q.onnx")
    summary = byoc.quantize(os.path.join(MNIST8, "model.onnx"), out, samples, per_channel=True)
    assert "Conv x2" in summary and "calibration samples" in summary
    if os.path.exists(BYOCC):  # the CLI on the same samples (a directory: input_0.npy, then one subdirectory each)
        calib = tmp_path / "calib"
        calib.mkdir()
        np.save(str(calib / "input_0.npy"), samples[0][0])
        for k, s in enumerate(samples[1:]):
            (calib / ("s%d" % k)).mkdir()
            np.save(str(calib / ("s%d" % k) / "input_0.npy"), s[0])
        cli = str(tmp_path / "cli_q.onnx")
        r = subprocess.run([BYOCC, "quantize", os.path.join(MNIST8, "model.onnx"), "--calibrate", str(calib),
                            "--per-channel", "-o", cli], capture_output=True, text=True, timeout=300,
                           env=TOOL_ENV)
        assert r.returncode == 0, r.stderr
        assert open(cli, "rb").read() == open(out, "rb").read()
    x = samples[0][0]
    ref = np.load(os.path.join(MNIST8, "ort_output_0.npy"))
    with byoc.compile(out, backends=["npu"]) as s:
        (y,) = s.run(None, [x])
        assert s.placement.by_backend().get("npu", 0) > 0
    assert int(np.argmax(y)) == int(np.argmax(ref))


def test_quantize_errors_name_the_problem(tmp_path):
    model = os.path.join(MNIST8, "model.onnx")
    if not os.path.exists(model):
        pytest.skip("no ../shared/models/mnist8")
    with pytest.raises(byoc.Error, match="minmax, percentile, entropy"):
        byoc.quantize(model, str(tmp_path / "q.onnx"), _samples(), method="median")
    with pytest.raises(byoc.Error) as e:
        byoc.quantize(model, str(tmp_path / "q.onnx"), [[np.zeros((1, 3, 5), np.float32)]])
    assert "Input3" in e.value.message
    assert not os.path.exists(str(tmp_path / "q.onnx"))
