"""examples/python/partition_and_run.py runs as the README shows it."""
import os
import subprocess
import sys

import pytest

from conftest import MODELS, ROOT

MNIST8 = os.path.join(MODELS, "mnist8", "model.onnx")


@pytest.mark.skipif(not os.path.exists(MNIST8), reason="no ../shared/models/mnist8")
def test_example_partitions_runs_saves_and_explains(tmp_path):
    out = str(tmp_path / "m.byoc")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    r = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", "partition_and_run.py"), MNIST8, out],
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("Placement(11 ops: ") and "npu" in lines[0]
    assert lines[1].startswith("outputs: [(1, 10)] simulated: ")
    assert lines[3].startswith("why: the Collage search's cheapest plan puts it on ")
    assert os.path.getsize(out) > 1000
