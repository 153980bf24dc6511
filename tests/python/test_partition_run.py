"""byoc.partition's report, byoc.compile and Session.run with numpy, profiles, .byoc save and load, explain."""
import os

import pytest

np = pytest.importorskip("numpy")
import byoc  # noqa: E402
from conftest import MNIST, MODELS  # noqa: E402

MNIST8 = os.path.join(MODELS, "mnist8")


def test_greedy_report_gives_device_partition_composite_and_declines():
    with byoc.load(MNIST) as m:
        before = m.text
        p = byoc.partition(m, backends=["npu", "dsp"])
        assert m.text == before  # the module given is left as it was
    assert p.backends == ["npu", "dsp", "host"]
    counts = p.by_backend()
    assert counts["npu"] >= 8 and counts["host"] >= 1
    conv = [o for o in p.ops if o["op"] == "nn.conv2d"]
    assert all(o["backend"] == "npu" and o["partition"].startswith("tvmgen_default_npu_main_") for o in conv)
    assert all(o["composite"] == "npu.conv2d_bias_relu" for o in conv)
    pad = [o for o in p.ops if o["op"] == "nn.pad"][0]
    assert pad["backend"] == "host"
    assert {d["backend"]: d["reason"] for d in pad["declined"]} == {"npu": "unsupported op", "dsp": "unsupported op"}
    assert p.search is None and p.partitions


def test_collage_report_has_the_search_and_its_plan():
    p = byoc.partition(MNIST, backends=["npu", "dsp"], strategy="collage")
    assert 0 < p.search["cost"] <= p.search["plans"]["greedy"]
    assert p.search["ops"] == len(p.ops) == 13
    greedy = byoc.partition(MNIST, backends=["npu", "dsp"])
    moved = [a["id"] for a, b in zip(p.ops, greedy.ops) if a["backend"] != b["backend"]]
    assert len(moved) == p.search["moved"]


def test_unknown_backend_and_strategy_raise():
    with pytest.raises(byoc.Error, match="not a built-in backend"):
        byoc.partition(MNIST, backends=["npuu"])
    with pytest.raises(byoc.Error, match="greedy, collage"):
        byoc.partition(MNIST, backends=["npu"], strategy="best")


def _mnist_input():
    return np.random.default_rng(7).standard_normal((1, 1, 28, 28)).astype(np.float32)


def test_devices_give_the_host_outputs_and_a_profile():
    x = _mnist_input()
    with byoc.compile(MNIST) as host, byoc.compile(MNIST, backends=["npu", "dsp"]) as dev:
        assert host.input_names == ["%x"] or len(host.input_names) == 1
        (want,) = host.run(None, [x])
        (got,) = dev.run(None, {dev.input_names[0]: x})
        assert got.shape == (1, 10) and got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * max(1.0, float(np.abs(want).max())))
        prof = dev.profile()
        assert prof and all(k["runs"] == 1 for k in prof)
        assert {"npu", "host"} <= {k["device"] for k in prof}
        assert any(k["exec"] == "runtime" and k["cycles"] > 0 for k in prof)
        assert dev.simulated_latency > 0
        assert dev.placement.by_backend()["npu"] >= 8
        trace = dev.trace()
        assert any(e.get("args", {}).get("kernel") == 0 for e in trace["traceEvents"])


def test_run_errors_name_the_input():
    with byoc.compile(MNIST) as s:
        with pytest.raises(byoc.Error, match="expected Tensor"):
            s.run(None, [np.zeros((1, 28, 28), np.float32)])
        with pytest.raises(byoc.Error, match="no input named 'y'"):
            s.run(None, {"y": _mnist_input()})
        with pytest.raises(byoc.Error, match="no output named"):
            s.run(["nope"], [_mnist_input()])


@pytest.mark.skipif(not os.path.exists(os.path.join(MNIST8, "model.onnx")), reason="no ../shared/models/mnist8")
def test_save_load_and_explain(tmp_path):
    x = np.load(os.path.join(MNIST8, "input_0.npy"))
    path = str(tmp_path / "m.byoc")
    with byoc.compile(os.path.join(MNIST8, "model.onnx"), backends=["npu", "dsp"], strategy="collage") as s:
        (fly,) = s.run(None, {s.input_names[0]: x})
        s.save(path)
        conv = [o for o in s.placement.ops if o["op"] == "nn.conv2d"][0]["source"]
        live = s.explain(conv)
    with byoc.Session(path) as t:
        assert t.input_names[0] != "%x"  # the ONNX names were recorded
        (art,) = t.run(None, {t.input_names[0]: x})
        assert art.tobytes() == fly.tobytes()
        entry = t.explain(conv.split(":", 1)[1])
    assert entry == live
    assert entry["op"] == "Conv" and entry["ir"][0]["backend"] in ("npu", "dsp", "host")
    assert entry["ir"][0]["reason"]
    with pytest.raises(byoc.Error, match="no frontend node"):
        byoc.Session(path).explain("not_a_node")


@pytest.mark.skipif(not os.path.exists(os.path.join(MNIST8, "model.onnx")), reason="no ../shared/models/mnist8")
def test_session_opens_a_model_as_onnx_runtime_does(tmp_path):
    """Session("m.onnx") compiles the model (onnxruntime.InferenceSession's first line), with compile's keywords"""
    model, x = os.path.join(MNIST8, "model.onnx"), np.load(os.path.join(MNIST8, "input_0.npy"))
    ref = np.load(os.path.join(MNIST8, "ort_output_0.npy"))
    with byoc.Session(model) as host, byoc.compile(model) as same:
        (y,) = host.run(None, {host.input_names[0]: x})
        assert y.tobytes() == same.run(None, [x])[0].tobytes()
        assert {k["device"] for k in host.profile()} == {"host"}
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-4 * max(1.0, float(np.abs(ref).max())))
    with byoc.Session(model, backends=["npu", "dsp"], strategy="collage", threads=2) as s:
        assert "npu" in s.placement.by_backend() and s.placement.search is not None
        assert s.run(None, [x])[0].tobytes() == byoc.Session(s.save(str(tmp_path / "m.byoc"))).run(None, [x])[0] \
            .tobytes()
        assert s.report(None).count('<g class="node"') == len(s.placement.ops)
    with byoc.load(MNIST) as m, byoc.Session(m, backends=["npu"]) as from_module:
        assert from_module.placement.by_backend()["npu"] > 0 and m.text  # the Module stays open and unchanged
    with pytest.raises(byoc.Error, match=r"m.byoc: backends: a .byoc executable is compiled already"):
        byoc.Session(str(tmp_path / "m.byoc"), backends=["npu"])
    with pytest.raises(byoc.Error, match="not one of greedy, collage"):
        byoc.Session(model, strategy="fastest")


def test_a_truncated_executable_raises(tmp_path):
    path = str(tmp_path / "m.byoc")
    with byoc.compile(MNIST, backends=["npu"]) as s:
        s.save(path)
    data = open(path, "rb").read()
    cut = tmp_path / "cut.byoc"
    cut.write_bytes(data[:100])
    with pytest.raises(byoc.Error, match="truncated"):
        byoc.Session(str(cut))


def test_pins_and_no_backends():
    p = byoc.partition(MNIST, backends=["npu", "dsp"], pins={"%2": "dsp"})
    by_label = {o["label"]: o["backend"] for o in p.ops}
    assert by_label["%1"] == "npu" and by_label["%2"] == "dsp"
    with pytest.raises(byoc.Error, match="nn.pad %0 in @main is pinned to npu, which declines it: unsupported op"):
        byoc.partition(MNIST, backends=["npu"], pins={"%0": "npu"})
    alone = byoc.partition(MNIST, backends=[])
    assert alone.by_backend() == {"host": 13} and alone.backends == ["host"]


def test_compile_run_close_cycles_do_not_grow():
    from test_module import _heap_growth_kib

    x = _mnist_input()

    def cycle():
        with byoc.compile(MNIST, backends=["npu", "dsp"]) as s:
            s.run(None, [x])

    grown = _heap_growth_kib(cycle, 20, 100)
    # a compile holds ~200 KiB (module, program, arena, device blobs): a leak of one would add ~20 MiB
    assert grown < 2048, "the C heap grew by %d KiB over 100 compiles" % grown


def test_backends_from_files_and_with_target_options(root):
    path = os.path.join(root, "examples", "backends", "npu.backend")
    p = byoc.partition(MNIST, backends=[path, "dsp -preset=dsp-512"])
    assert p.backends == ["npu", "dsp", "host"] and p.by_backend()["npu"] >= 8
    with pytest.raises(byoc.Error, match="sram_kbb"):
        byoc.partition(MNIST, backends=["npu -sram_kbb=64"])
