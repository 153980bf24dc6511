"""The package's ctypes mirrors of the C structs have the C layout: every field at the C compiler's offset, and
each whole struct the C size (a short mirror lets the library write past Python's buffer). The C side is a small
program printing offsetof / sizeof from the headers' declarations, built with the system's cc."""
import ctypes
import re
import shutil
import subprocess

import pytest

from byoc import _lib, backend
from conftest import ROOT

HEADERS = ("byoc.h", "byoc_sim.h", "tools/byoc_onnx.h", "tools/byoc_quantize.h")
# mirror fields named otherwise in C: a Python keyword, and a nested struct's members flattened
C_NAMES = {("byoc_quantize_options", "import_options"): "import", ("byoc_node", "attr_items"): "attrs.items",
           ("byoc_node", "attr_count"): "attrs.count"}


def _mirrors():
    """(ctypes class, C type name, whole): from each mirror's `class X(Structure):  # c_name[, up to ...]` line"""
    found = []
    for module in (_lib, backend):
        source = open(module.__file__.replace(".pyc", ".py")).read()
        for cls, cname, partial in re.findall(r"^class (\w+)\((?:ctypes\.)?Structure\):\s+# (byoc_\w+)(,?)",
                                              source, re.M):
            found.append((getattr(module, cls), cname, not partial))
    return found


def test_every_mirror_has_the_c_layout(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        pytest.skip("no C compiler to ask for the C layout")
    mirrors = _mirrors()
    assert len(mirrors) >= 20  # every mirror the two modules declare was found
    lines = ['#include "%s"' % h for h in HEADERS] + ["#include <stddef.h>", "#include <stdio.h>", "int main(void) {"]
    for cls, cname, whole in mirrors:
        for field in cls._fields_:
            member = C_NAMES.get((cname, field[0]), field[0])
            lines.append('    printf("%s.%s %%zu\\n", offsetof(%s, %s));' % (cname, field[0], cname, member))
        if whole:
            lines.append('    printf("%s %%zu\\n", sizeof(%s));' % (cname, cname))
    lines += ["    return 0;", "}"]
    src, exe = tmp_path / "layout.c", tmp_path / "layout"
    src.write_text("\n".join(lines) + "\n")
    r = subprocess.run([cc, "-std=c99", "-I", ROOT, str(src), "-o", str(exe)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    c_layout = dict(line.rsplit(" ", 1) for line in subprocess.check_output([str(exe)], text=True).splitlines())
    wrong = []
    for cls, cname, whole in mirrors:
        for field in cls._fields_:
            at = getattr(cls, field[0]).offset
            if int(c_layout["%s.%s" % (cname, field[0])]) != at:
                wrong.append("%s.%s at %d, C: %s" % (cname, field[0], at, c_layout["%s.%s" % (cname, field[0])]))
        if whole and int(c_layout[cname]) != ctypes.sizeof(cls):
            wrong.append("%s: %d bytes, C: %s" % (cname, ctypes.sizeof(cls), c_layout[cname]))
    assert not wrong, "; ".join(wrong)
