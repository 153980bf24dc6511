"""byocc report's HTML page from Python: the same steps (tools/byocc.c report_gather) on the same library calls.

A compile that keeps its placement report (every op on the host without backends), one run (--repeat N: a warm-up
and N), the other strategy's plan from a second load of the model placed with place_only (so its node ids, the
plans' origins, are the compiled plan's), then byoc_sim_report_html.
"""
import ctypes
import os
import warnings

import numpy as np

from . import Error, _b, _compile, _lib, _model, _raise, compile as _compile_session
from ._lib import lib
from .backend import _SpecHead

_MASK64 = (1 << 64) - 1


def _seeded_input(io, index):
    """byocc's seeded values of input index (tools/byocc.c run_job_bind_inputs), so that a page from Python and
    one from byocc report run the same numbers: xorshift64 from 0x9e3779b97f4a7c15 + index; floats in
    [-0.5, 0.5), integers 0..3 (0..1 below 4 bytes); '?' extents taken as 1."""
    if io["dtype"] is None:
        raise Error("input '%s': its dtype has no numpy dtype to seed (give inputs=)" % io["name"], 8)
    dtype = np.dtype(io["dtype"])
    shape = tuple(1 if d < 0 else d for d in io["shape"])
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    values = np.empty(count, np.uint64)
    s = (0x9e3779b97f4a7c15 + index) & _MASK64
    for e in range(count):
        s ^= (s << 13) & _MASK64
        s ^= s >> 7
        s ^= (s << 17) & _MASK64
        values[e] = s
    if dtype.kind == "f":
        data = (values >> np.uint64(11)).astype(np.float64) / 9007199254740992.0 - 0.5
    else:
        data = values % np.uint64(4 if dtype.itemsize >= 4 else 2)
    return data.astype(dtype).reshape(shape)


def _run_for_page(sess, inputs, repeat):
    """One run (repeat > 1: a warm-up, then repeat runs), as byocc run --repeat: the timeline is the last run's,
    the kernels' measured times the median of the runs."""
    feeds = inputs if inputs is not None else {io["name"]: _seeded_input(io, k) for k, io in enumerate(sess.inputs)}
    runs = max(1, int(repeat))
    for _ in range(runs + (1 if repeat > 1 else 0)):
        sess.run(None, feeds)


def _other_plan(sess, other_strategy):
    """The other strategy's plan of the same model (a compiled pointer to free), or None with a warning when it
    fails (byocc report then notes the page shows no second plan and goes on)."""
    recipe = sess._recipe
    try:
        module, _ = _model(recipe["model"], **recipe["load_args"])
    except Error as e:
        warnings.warn("byoc.report: the page shows no %s plan to compare with (%s)" % (other_strategy, e))
        return None
    with module:
        try:
            out, _ = _compile(module, sess._backends, True, other_strategy, recipe["estimator"], recipe["cost_cache"],
                              recipe["no_fq2i"], pins=recipe["pins"])
        except Error as e:
            warnings.warn("byoc.report: the page shows no %s plan to compare with (%s)" % (other_strategy, e))
            return None
    return out


def _note(sess, strategy, inputs_text):
    # each backend's own name (its spec's, as byocc report names it): a .backend file's, a byoc.Backend's
    handles = sess._backends._handles if sess._backends else []
    backends = "".join(" %s," % _SpecHead.from_address(ctypes.c_void_p.from_address(h).value).name.decode()
                       for h in handles)
    threads = lib.byoc_sim_threads(sess._program)
    return "byoc.report from Python: %s placement on%s host; %d host thread%s; %s" % (
        strategy, backends, threads, "" if threads == 1 else "s", inputs_text)


def session_report(sess, path, title=None, note=None):
    """Session.report: the page of an in-memory session (see there)."""
    sess._check()
    if sess._compiled is None:
        raise Error("Session.report: a session loaded from a .byoc file has no placement report: "
                    "byoc.report(model) compiles the model and writes the page", 7)
    placement = sess._compiled.contents.placement
    if not placement:
        raise Error("Session.report: compiled without backends and without always_place=True: no placement report "
                    "to draw", 7)
    if path is not None:
        _check_output_dir(path)
    inputs_text = "the last run of the session"
    if not getattr(sess, "_runs", 0):
        _run_for_page(sess, None, 0)
        inputs_text = "seeded inputs"
    strategy = sess._strategy
    other_strategy = "greedy" if strategy == "collage" else "collage"
    other = _other_plan(sess, other_strategy) if sess._recipe["backends"] else None
    try:
        model = sess._recipe["model"]
        default_title = os.path.basename(os.fspath(model)) if isinstance(model, (str, os.PathLike)) else None
        inp = _lib.ReportInput()
        inp.title = _b(title or default_title)  # None: the library's "byoc report"
        inp.note = _b(note or _note(sess, strategy, inputs_text))
        inp.placement, inp.strategy, inp.program = placement, _b(strategy), sess._program
        if other:
            inp.other, inp.other_strategy = other.contents.placement, _b(other_strategy)
        return _write_page(inp, path)
    finally:
        if other:
            lib.byoc_sim_compiled_free(other)


def _write_page(inp, path):
    n, diag = ctypes.c_size_t(), _lib.Diag()
    html = lib.byoc_sim_report_html(ctypes.byref(inp), ctypes.byref(n), ctypes.byref(diag))
    if not html:
        _raise(diag)
    try:
        text = ctypes.string_at(html, n.value)
    finally:
        lib.byoc_sim_report_free(html)
    if path is None:
        return text.decode("utf-8", "replace")
    try:
        with open(path, "wb") as f:
            f.write(text)
    except OSError as e:
        raise Error("%s: cannot write the page: %s" % (path, e.strerror or e), 2) from None
    return path


def _check_output_dir(path):
    """as byocc checks its output files' directories before any work"""
    folder = os.path.dirname(os.path.abspath(os.fspath(path)))
    if not os.path.isdir(folder):
        raise Error("%s: no directory %s to write the page in" % (path, folder), 2)


def report(model, backends=(), strategy="greedy", inputs=None, path="report.html", repeat=0, estimator=None,
           cost_cache=None, no_fq2i=False, threads=1, pins=None, title=None, **load_args):
    """byocc report from Python: one self-contained HTML page (graph, timeline, both strategies' plans, memory plan,
    kernels) of model (a path, loaded with load_args, or a Module, left as it was) placed on backends (none: every
    op on the host) by strategy, after one run on inputs ({name: array} or a list; None: byocc's seeded values;
    repeat N: a warm-up and N runs). Writes path and returns it, or returns the HTML text when path is None."""
    if strategy not in ("greedy", "collage"):
        raise Error("strategy '%s' is not one of greedy, collage" % strategy, 7)
    if path is not None:
        _check_output_dir(path)
    with _compile_session(model, backends, strategy, estimator, cost_cache, no_fq2i, threads=threads, pins=pins,
                          always_place=True, **load_args) as sess:
        _run_for_page(sess, inputs, repeat)
        return session_report(sess, path, title, _note(sess, strategy, "seeded inputs" if inputs is None else
                                                       "the given inputs"))
