"""byoc.Backend: a backend defined in Python with patterns and a predicate callback places ops, its reasons show
in the report, its partitions run on the simulated device and give the host's outputs; its callbacks go with the
compile that opened it."""
import ctypes
import gc
import os

import pytest

np = pytest.importorskip("numpy")
import byoc  # noqa: E402
from conftest import MNIST, MODELS  # noqa: E402

CONV_BIAS_RELU = 'is_op("nn.relu")(is_op("add")(is_op("nn.conv2d")(wildcard(), is_constant()), is_constant()))'


def _narrow_convs(call):
    if call.op == "nn.conv2d" and call.out_type[0][1] > 8:
        return "more than 8 output channels"
    return True


def _backend(**kw):
    return byoc.Backend("pyacc", patterns=["conv_bias_relu = " + CONV_BIAS_RELU],
                        supports=["nn.conv2d", "add", "nn.relu", "nn.max_pool2d"], priority=100, **kw)


def test_python_backend_places_ops_by_pattern_and_predicate():
    calls = []

    def predicate(call):
        calls.append(call)
        return _narrow_convs(call)

    p = byoc.partition(MNIST, backends=[_backend(predicate=predicate), "dsp"])
    by_label = {o["label"]: o for o in p.ops}
    assert [by_label[k]["composite"] for k in ("%1", "%2", "%3")] == ["pyacc.conv_bias_relu"] * 3
    assert by_label["%1"]["backend"] == "pyacc" and by_label["%1"]["partition"].startswith("tvmgen_default_pyacc_")
    wide = by_label["%6"]
    assert wide["op"] == "nn.conv2d" and wide["backend"] == "host"
    assert {"backend": "pyacc", "reason": "more than 8 output channels [in pattern pyacc.conv_bias_relu]"} in \
        wide["declined"]
    convs = {c.arg_types[1]: c for c in calls if c.op == "nn.conv2d"}  # by their weights' types
    first = convs[((8, 1, 5, 5), "float32")]
    assert first.out_type == ((1, 8, 28, 28), "float32") and first.arg_types[0] == ((1, 1, 32, 32), "float32")
    assert convs[((16, 8, 5, 5), "float32")].out_type == ((1, 16, 14, 14), "float32")
    assert first.attrs["channels"] == 8 and first.attrs["kernel_size"] == [5, 5]
    assert first.attrs["padding"] == [0, 0, 0, 0]


def test_without_the_predicate_the_wide_conv_is_taken():
    p = byoc.partition(MNIST, backends=[_backend()])
    assert {o["backend"] for o in p.ops if o["op"] == "nn.conv2d"} == {"pyacc"}


def test_python_backend_runs_as_the_host_does():
    x = np.random.default_rng(1).standard_normal((1, 1, 28, 28)).astype(np.float32)
    with byoc.compile(MNIST, backends=[_backend(predicate=_narrow_convs), "dsp"]) as s, byoc.compile(MNIST) as h:
        got, want = s.run(None, [x])[0], h.run(None, [x])[0]
        assert {"pyacc", "host"} <= {k["device"] for k in s.profile()}
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * max(1.0, float(np.abs(want).max())))


def test_collage_searches_a_python_backend():
    p = byoc.partition(MNIST, backends=[_backend(predicate=_narrow_convs)], strategy="collage")
    assert p.by_backend().get("pyacc", 0) > 0 and "only:pyacc" in p.search["plans"]


def test_a_raising_predicate_declines_and_bad_patterns_raise():
    def boom(call):
        raise ValueError("boom")

    lib_backend = byoc.Backend("pylib", supports=["nn.relu"], predicate=boom, kind="library")
    p = byoc.partition(MNIST, backends=[lib_backend])
    relus = [o for o in p.ops if o["op"] == "nn.relu"]
    assert relus and all(o["backend"] == "host" for o in relus)
    assert relus[0]["declined"] == [{"backend": "pylib", "reason": "predicate raised ValueError: boom"}]
    with pytest.raises(byoc.Error, match=r"pybad.backend:3:\d+: expected a pattern"):
        byoc.partition(MNIST, backends=[byoc.Backend("pybad", patterns=['x = is_op("nn.relu")('])])


def test_a_reused_backend_frees_its_callbacks_with_each_compile():
    from test_module import _heap_growth_kib

    backend = _backend(predicate=_narrow_convs)

    def cycle():
        p = byoc.partition(MNIST, backends=[backend])
        assert p.by_backend()["pyacc"] > 0

    grown = _heap_growth_kib(cycle, 20, 300)
    assert backend._callbacks == {}, "callbacks of closed handles are kept: %d" % len(backend._callbacks)
    # each open wraps four predicates (~1.3 KiB of libffi closures and Python objects): kept, 300 compiles
    # would add ~750 KiB
    assert grown < 256, "the C heap grew by %d KiB over 300 partitions with one Backend" % grown
    with byoc.compile(MNIST, backends=[backend]) as s:  # a session keeps its callbacks while it can run
        assert len(backend._callbacks) == 1
        s.run(None, [np.zeros((1, 1, 28, 28), np.float32)])
    assert backend._callbacks == {}


def test_no_reference_cycles_hold_c_memory(tmp_path):
    """Every C handle and callback is freed when its last reference goes (reference counting), not when the garbage
    collector gets to a cycle: with the collector off, a round of load, partition (a Python backend too), compile,
    run, save, Session, explain and report leaves no ctypes object or byoc object in a cycle."""
    mnist8 = os.path.join(MODELS, "mnist8", "model.onnx")
    model = mnist8 if os.path.exists(mnist8) else MNIST
    backend = _backend(predicate=_narrow_convs)

    def round_trip():
        with byoc.load(model) as m:
            byoc.partition(m, backends=[backend, "dsp"], strategy="collage")
        with byoc.compile(model, backends=["npu", backend]) as s:
            s.run(None, [np.zeros(s.inputs[0]["shape"], np.float32)])
            s.save(str(tmp_path / "m.byoc"))
        with byoc.Session(str(tmp_path / "m.byoc")) as t:
            t.explain(t.source_map()["nodes"][0]["frontend"])
        byoc.report(model, backends=["npu", "dsp"], path=None)

    round_trip()  # the first round makes ctypes' array types, which live in cycles of their own
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(3):
            round_trip()
        gc.collect()
        cdata = (ctypes.Structure, ctypes.Array, ctypes._SimpleCData, ctypes._Pointer, ctypes._CFuncPtr)
        held = [type(o).__name__ for o in gc.garbage if isinstance(o, cdata) or
                type(o).__module__.startswith("byoc")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert not held, "in reference cycles: %s" % sorted(set(held))
