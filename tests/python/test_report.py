"""byoc.report and Session.report: byocc report's HTML page written from Python, checked against the placement
report of byoc.partition and against the page build/byocc report writes for the same model and options."""
import os
import re
import subprocess
from html.parser import HTMLParser

import pytest

np = pytest.importorskip("numpy")
import byoc  # noqa: E402
from conftest import MNIST, MODELS, ROOT, TOOL_ENV  # noqa: E402

MNIST8 = os.path.join(MODELS, "mnist8", "model.onnx")
FPN = os.path.join(ROOT, "tests", "models", "fpn_resize", "model.onnx")
BYOCC = os.path.join(ROOT, os.environ.get("BUILD", "build"), "byocc")
SECTIONS = ("graph", "timeline", "plans", "memory", "kernels")


class _Page(HTMLParser):
    """The page's g.node elements (their attributes) and every element id"""

    def __init__(self, html):
        super().__init__()
        self.nodes, self.ids = [], set()
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "g" and "node" in (a.get("class") or "").split():
            self.nodes.append(a)
        if "id" in a:
            self.ids.add(a["id"])


def _node_devices(html):
    """{node id: device} from the page's data-node-id="N" data-device="D" pairs"""
    return {int(n): d for n, d in re.findall(r'data-node-id="(\d+)" data-device="([^"]*)"', html)}


def _check_page(html, placement):
    page = _Page(html)
    assert html.count('<g class="node"') == len(placement.ops) == len(page.nodes)
    assert _node_devices(html) == {o["id"]: o["backend"] for o in placement.ops}
    assert all(s in page.ids for s in SECTIONS), sorted(page.ids)
    assert not re.search(r"https?:", html, re.I)
    assert "document.body.dataset.ready" in html


@pytest.mark.parametrize("model", [MNIST8, FPN], ids=["mnist8", "fpn_resize"])
@pytest.mark.parametrize("strategy", ["greedy", "collage"])
def test_page_matches_partition_and_byocc_report(model, strategy, tmp_path):
    if not os.path.exists(model):
        pytest.skip("%s is not there" % model)
    out = tmp_path / "py.html"
    assert byoc.report(model, backends=["npu", "dsp"], strategy=strategy, path=str(out)) == str(out)
    html = out.read_text()
    _check_page(html, byoc.partition(model, backends=["npu", "dsp"], strategy=strategy))
    assert ("Ops that moved" in html or "No op moved" in html)  # the other strategy's plan is beside it
    if not os.path.exists(BYOCC):
        pytest.skip("%s is not built (make %s)" % (BYOCC, BYOCC))
    cli = tmp_path / "cli.html"
    subprocess.run([BYOCC, "report", model, "--backend", "npu", "--backend", "dsp", "--strategy", strategy,
                    "--threads", "1", "-o", str(cli)], check=True, capture_output=True, env=TOOL_ENV)
    assert _node_devices(html) == _node_devices(cli.read_text())


def test_host_only_page_given_inputs_returns_text():
    x = np.load(os.path.join(ROOT, "tests", "models", "fpn_resize", "input_0.npy"))
    html = byoc.report(FPN, inputs=[x], path=None, repeat=3)
    placement = byoc.partition(FPN, backends=[])
    assert placement.by_backend() == {"host": len(placement.ops)}
    _check_page(html, placement)
    assert "the given inputs" in html and "No op moved" not in html  # no backends: no second plan


def test_seeded_inputs_are_byocc_runs(tmp_path):
    """the page's run without inputs is byocc's: the same seeded values give byocc run's outputs bit for bit"""
    from byoc._report import _seeded_input

    if not os.path.exists(BYOCC):
        pytest.skip("%s is not built" % BYOCC)
    subprocess.run([BYOCC, "run", FPN, "--threads", "1", "--output-dir", str(tmp_path)], check=True,
                   capture_output=True, env=TOOL_ENV)
    with byoc.compile(FPN) as s:
        outputs = s.run(None, {io["name"]: _seeded_input(io, k) for k, io in enumerate(s.inputs)})
        for name, y in zip(s.output_names, outputs):
            assert np.array_equal(np.load(str(tmp_path / (name + ".npy"))), y), name


def test_note_names_each_backend_as_byocc_does(root):
    """the page's note names backends by their own names, a Python-defined one and a .backend file's included"""
    mine = byoc.Backend("pyacc", supports=["nn.relu"], kind="npu")
    path = os.path.join(root, "examples", "backends", "npu.backend")
    html = byoc.report(FPN, backends=[mine, path, "dsp -preset=dsp-512"], path=None)
    assert "greedy placement on pyacc, npu, dsp, host;" in html, re.findall(r"placement on [^;]*;", html)


def test_threads_reach_the_program():
    # byoc_sim_threads of the program the page ran (0 would be the online cores): the options' mirror is whole
    assert "; 1 host thread;" in byoc.report(FPN, backends=["npu"], threads=1, path=None)
    assert "; 2 host threads;" in byoc.report(FPN, backends=["npu"], threads=2, path=None)


def test_session_report_of_a_run_session(tmp_path):
    with byoc.compile(MNIST, backends=["npu", "dsp"], strategy="collage") as s:
        s.run(None, [np.zeros(s.inputs[0]["shape"], np.float32)])
        html = s.report(None, title="mnist from a session")
        _check_page(html, s.placement)
        assert "mnist from a session" in html and "the last run of the session" in html
        assert s.report(str(tmp_path / "s.html")) == str(tmp_path / "s.html")


def test_report_errors_raise(tmp_path):
    with pytest.raises(byoc.Error, match="not one of greedy, collage"):
        byoc.report(FPN, strategy="best", path=None)
    with pytest.raises(byoc.Error, match="not a built-in backend"):
        byoc.report(FPN, backends=["gpu9"], path=None)
    with pytest.raises(byoc.Error, match="no directory") as e:
        byoc.report(FPN, path="/nonexistent/dir/r.html")
    assert e.value.code == "i/o error"
    with pytest.raises(byoc.Error, match="cannot write the page"):
        byoc.report(FPN, path="/proc/r.html")
    with byoc.compile(FPN) as s:  # no backends, no always_place: no placement report to draw
        with pytest.raises(byoc.Error, match="no placement report"):
            s.report(None)
        s.save(str(tmp_path / "fpn.byoc"))
    with byoc.Session(str(tmp_path / "fpn.byoc")) as s:  # an executable keeps no placement report to draw
        with pytest.raises(byoc.Error, match="loaded from a .byoc file"):
            s.report(None)


def test_report_cycles_free_their_pages_and_plans():
    from test_module import _heap_growth_kib

    def cycle():  # two compiles (the page's and the other strategy's plan) and one page each
        assert byoc.report(MNIST, backends=["npu", "dsp"], path=None).count('<g class="node"') == 13

    grown = _heap_growth_kib(cycle, 10, 150)
    # a cycle holds ~300 KiB (two compiles) and a ~30 KiB page: a leaked page alone would add ~4 MiB
    assert grown < 2048, "the C heap grew by %d KiB over 150 reports" % grown
