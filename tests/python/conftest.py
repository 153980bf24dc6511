"""The package from python/ next to the tests, on the library the build made (BYOC_LIBRARY, else BUILD/libbyoc.so)."""
import os
import sys

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
if "BYOC_LIBRARY" not in os.environ:
    os.environ["BYOC_LIBRARY"] = os.path.join(ROOT, os.environ.get("BUILD", "build"), "libbyoc.so")
MODELS = os.environ.get("BYOC_MODELS", os.path.join(ROOT, "..", "shared", "models"))
MNIST = os.path.join(ROOT, "tests", "inputs", "mnist.relay")
# The environment for the build's programs (byocc): under SAN=1 the interpreter runs with ASan's shared runtime
# preloaded for the library, while the programs link their own, and the two refuse to load together.
TOOL_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


@pytest.fixture
def root():
    return ROOT
