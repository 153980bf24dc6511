"""byoc.load, Module.text, byoc.Error with the library's diagnostics, closing, and no growth over 1000 loads
(of a model, and of a .byoc executable run each time)."""
import ctypes
import os

import pytest

np = pytest.importorskip("numpy")
import byoc  # noqa: E402
from conftest import MNIST, MODELS, ROOT  # noqa: E402


def test_load_relay_prints_its_ops():
    with byoc.load(MNIST) as m:
        text = m.text
    assert text.startswith("#[version")
    assert text.count("nn.conv2d(") == 2 and "nn.dense(" in text
    assert "ty=Tensor[(1, 10), float32]" in text


def test_load_onnx_names_its_inputs_and_outputs(root):
    path = os.path.join(root, "tests", "models", "fpn_resize", "model.onnx")
    if not os.path.exists(path):
        pytest.skip("tests/models/fpn_resize is built by tests/models/make_models.py")
    with byoc.load(path) as m:
        assert m.input_names and m.output_names
        assert "span=onnx:" in m.text


def test_closed_module_raises():
    m = byoc.load(MNIST)
    m.close()
    m.close()  # twice is fine
    with pytest.raises(byoc.Error, match="closed"):
        m.text


def test_missing_file_raises_with_the_library_message(tmp_path):
    missing = str(tmp_path / "none.relay")
    with pytest.raises(byoc.Error) as e:
        byoc.load(missing)
    assert missing in e.value.message and e.value.code == "i/o error"


def test_parse_error_names_file_line_and_column(tmp_path):
    bad = tmp_path / "bad.relay"
    bad.write_text('#[version = "0.0.5"]\ndef @main(%x: Tensor[(1, 4), float32]) {\n  nn.relu(%y)\n}\n')
    with pytest.raises(byoc.Error) as e:
        byoc.load(str(bad))
    assert e.value.message.startswith(str(bad) + ":3:")
    assert "%y" in e.value.message and e.value.line == 3


def test_unsupported_extension_and_misplaced_dims(tmp_path):
    with pytest.raises(byoc.Error, match="unsupported model file"):
        byoc.load(str(tmp_path / "model.tflite"))
    with pytest.raises(byoc.Error, match="no symbolic dims"):
        byoc.load(MNIST, dims={"batch": 1})


def test_corrupt_onnx_raises(tmp_path):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x08\x07\x12\x04junk\xff\xff\xff")
    with pytest.raises(byoc.Error) as e:
        byoc.load(str(bad))
    assert str(bad) in e.value.message


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def _heap_kib():
    """The C heap in use (glibc's mallinfo2: malloc'd bytes, mmapped chunks included), in KiB: what a leak of the
    library's memory grows. Resident memory also moves with fragmentation and with the interpreter's own arenas,
    which made a leak test fail at random (3.3 MiB over 150 reports with nothing leaked). Without mallinfo2 (not
    glibc), the resident set."""
    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        mallinfo2 = None
    if mallinfo2 is not None:
        mallinfo2.restype = _Mallinfo2
        info = mallinfo2()
        return (info.uordblks + info.hblkhd) // 1024
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def _heap_growth_kib(cycle, settle, times):
    """How much the C heap grew over `times` calls of cycle(), after `settle` calls let the allocator's
    high-water mark settle"""
    for _ in range(settle):
        cycle()
    before = _heap_kib()
    for _ in range(times):
        cycle()
    return _heap_kib() - before


def test_thousand_loads_and_closes_do_not_grow():
    path = os.path.join(MODELS, "mnist8", "model.onnx")
    if not os.path.exists(path):
        path = MNIST
    def cycle():
        with byoc.load(path) as m:
            assert m.handle

    grown = _heap_growth_kib(cycle, 100, 1000)
    # one mnist8 import holds ~30 KiB of weights and more of IR: a leak of one module per load would add
    # tens of MiB over a thousand loads
    assert grown < 2048, "the C heap grew by %d KiB over 1000 loads" % grown


def test_thousand_executable_loads_and_runs_do_not_grow(tmp_path):
    path = str(tmp_path / "m.byoc")
    with byoc.compile(MNIST, backends=["npu", "dsp"]) as s:
        s.save(path)
    x = np.zeros((1, 1, 28, 28), np.float32)

    def cycle():
        with byoc.Session(path) as t:
            assert t.run(None, [x])[0].shape == (1, 10)

    grown = _heap_growth_kib(cycle, 100, 1000)
    # a loaded executable holds ~100 KiB (its program, arena and device blobs): one leaked a load would add ~100 MiB
    assert grown < 2048, "the C heap grew by %d KiB over 1000 .byoc loads and runs" % grown


def test_symbolic_dims_given_defaulted_or_dynamic(root):
    path = os.path.join(root, "tests", "data", "dynamic", "conv_batch.onnx")
    with byoc.load(path, dims={"n": 3}) as m:
        assert "Tensor[(3, 1, 3, 3), float32]" in m.text and m.notes == []
    with byoc.load(path) as m:
        assert m.notes == ["input 'x' dim 0 (n) taken as 1"]
    with pytest.raises(byoc.Error, match=r"dims N: the model has no symbolic dim of that name \(its symbolic dims: n"):
        byoc.load(path, dims={"N": 3})
    with byoc.compile(path, dynamic_dims=True) as s:
        assert s.inputs[0]["shape"] == (-1, 1, 3, 3)
        for batch in (1, 4):
            y = s.run(None, [np.ones((batch, 1, 3, 3), np.float32)])[0]
            assert y.shape == (batch, 1, 2, 2)
