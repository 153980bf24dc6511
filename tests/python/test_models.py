"""Every shared model with ONNX Runtime's outputs (../shared/models/NAME: model.onnx, input_K.npy, ort_output_K.npy)
compiled for the simulated npu and dsp from Python and run with numpy: floats within 1e-4 x max(1, max|ref|),
integers exactly (tests/models.sh's rule for byocc run). Then the test-built ones of tests/models and tests/cflow
(scalar inputs, integer outputs, data-dependent shapes, loops and ifs), each greedy and by the Collage search."""
import glob
import os

import pytest

np = pytest.importorskip("numpy")
import byoc  # noqa: E402
from conftest import MODELS, ROOT  # noqa: E402


def _models(root):
    found = []
    for d in sorted(glob.glob(os.path.join(root, "*"))):
        if os.path.exists(os.path.join(d, "model.onnx")) and os.path.exists(os.path.join(d, "ort_output_0.npy")):
            found.append(d)
    return found


def _files(d, stem):
    files, k = [], 0
    while os.path.exists(os.path.join(d, "%s_%d.npy" % (stem, k))):
        files.append(os.path.join(d, "%s_%d.npy" % (stem, k)))
        k += 1
    return files


MODEL_DIRS = _models(MODELS)
BUILT_DIRS = _models(os.path.join(ROOT, "tests", "models")) + _models(os.path.join(ROOT, "tests", "cflow"))


@pytest.mark.skipif(not MODEL_DIRS, reason="no shared models with ONNX Runtime outputs in %s" % MODELS)
@pytest.mark.parametrize("d", MODEL_DIRS, ids=[os.path.basename(d) for d in MODEL_DIRS])
def test_shared_model_matches_onnx_runtime(d):
    _check_model(d, "greedy")


@pytest.mark.parametrize("strategy", ["greedy", "collage"])
@pytest.mark.parametrize("d", BUILT_DIRS, ids=[os.path.basename(d) for d in BUILT_DIRS])
def test_built_model_matches_onnx_runtime(d, strategy):
    _check_model(d, strategy)


def _check_model(d, strategy):
    inputs = [np.load(f) for f in _files(d, "input")]
    refs = [np.load(f) for f in _files(d, "ort_output")]
    with byoc.compile(os.path.join(d, "model.onnx"), backends=["npu", "dsp"], strategy=strategy,
                      shapes=[a.shape for a in inputs]) as s:
        outs = s.run(None, dict(zip(s.input_names, inputs)))
        assert s.placement is not None and len(s.placement.ops) > 0
    assert len(outs) >= len(refs)
    for k, (got, ref) in enumerate(zip(outs, refs)):
        assert got.shape == ref.shape and got.dtype == ref.dtype, "output %d: %s %s, ONNX Runtime %s %s" % (
            k, got.shape, got.dtype, ref.shape, ref.dtype)
        if ref.dtype.kind == "f":
            tol = 1e-4 * max(1.0, float(np.abs(ref).max()))
            worst = float(np.abs(got.astype(np.float64) - ref).max()) if ref.size else 0.0
            assert worst <= tol, "output %d: max difference %g above %g" % (k, worst, tol)
        else:
            assert np.array_equal(got, ref), "output %d differs from ONNX Runtime's" % k
