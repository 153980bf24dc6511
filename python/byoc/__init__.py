"""byoc from Python: load an ONNX or Relay model, partition it across the simulated NPU and DSP (greedy or Collage),
compile it, run it with numpy arrays, save and load .byoc executables, quantize ONNX models.

    import byoc
    with byoc.load("model.onnx") as m:
        report = byoc.partition(m, backends=["npu", "dsp"], strategy="collage")
    with byoc.compile("model.onnx", backends=["npu", "dsp"]) as sess:
        (y,) = sess.run(None, {"input": x})
        sess.save("model.byoc")
    with byoc.Session("model.byoc") as sess:
        y = sess.run(None, {"input": x})[0]
    with byoc.Session("model.onnx", backends=["npu"]) as sess:  # a model: compiled as byoc.compile does
        y = sess.run(None, {"input": x})[0]

Everything is the C library's (libbyoc.so, through ctypes): errors raise byoc.Error with its message, objects free
their C memory on close() or at the end of a with block (and, as a last resort, when collected).
"""
import ctypes
import json
import os

import numpy as np

from . import _lib
from ._lib import lib
from .backend import Backend, Call

__all__ = ["Backend", "Call", "Error", "Module", "Placement", "Session", "load", "partition", "compile", "quantize",
           "report", "library_path"]
library_path = _lib.path

# byoc_dtype codes (byoc.h's BYOC_DTYPE_LIST order, from 1) and numpy's; bfloat16 has no numpy dtype
_DTYPES = {1: np.float32, 2: np.float16, 4: np.int8, 5: np.uint8, 6: np.int16, 7: np.int32, 8: np.int64,
           9: np.bool_, 10: np.float64, 11: np.uint16, 12: np.uint32, 13: np.uint64}
_CODES = {np.dtype(v): k for k, v in _DTYPES.items()}
_RESULT_NAMES = ["ok", "out of memory", "i/o error", "parse error", "type error", "unknown op", "invalid attribute",
                 "invalid argument", "unsupported", "duplicate definition", "not found",
                 "corrupt or mismatched file", "internal error"]


class Error(Exception):
    """A failure the C library reported: message is its one-line diagnostic (naming the file:line:col or the node),
    code the byoc_result ("parse error", ...), line, col and node_id its position when it gave one."""

    def __init__(self, message, code=0, line=0, col=0, node_id=0):
        super().__init__(message)
        self.message = message
        self.code = _RESULT_NAMES[code] if 0 <= code < len(_RESULT_NAMES) else str(code)
        self.line, self.col, self.node_id = line, col, node_id


def _raise(diag):
    raise Error(diag.message.decode("utf-8", "replace"), diag.code, diag.line, diag.col, diag.node_id)


def _b(text):
    return None if text is None else os.fsencode(text) if isinstance(text, os.PathLike) else str(text).encode()


def _s(ptr):
    return None if ptr is None else ptr.decode("utf-8", "replace")


def _c_array(value):
    """value as a C-contiguous numpy array of its own rank: np.ascontiguousarray makes a scalar (a rank-0 input,
    a loop's trip count) a (1,) array, which the program refuses"""
    return np.require(value, requirements="C")


class _Owned:
    """Something holding C memory: close() frees it once; with-blocks close it; collection closes what is left."""

    def close(self):
        if getattr(self, "_open", False):
            self._open = False
            self._free()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may be gone already
            pass

    def _check(self):
        if not getattr(self, "_open", False):
            raise Error("%s is closed" % type(self).__name__, 7)


class Module(_Owned):
    """An IR module (byoc_module): an imported ONNX model or a Relay text module."""

    def __init__(self, handle, onnx=None, path=None):
        self._handle, self._onnx, self.path, self._open = handle, onnx, path, True
        names = lambda ptr, n: [_s(ptr[i]) for i in range(n)] if onnx is not None and ptr else []
        self.input_names = names(onnx.input_names, onnx.ninputs) if onnx is not None else []
        self.output_names = names(onnx.output_names, onnx.noutputs) if onnx is not None else []
        # every ONNX node (its span, op_type, and why the import left no IR for it), for saved source maps
        self.source_nodes = [(_s(onnx.node_spans[i]), _s(onnx.node_ops[i]), _s(onnx.node_folded[i]))
                             for i in range(onnx.nnodes)] if onnx is not None and onnx.nnodes else []
        self.notes = []  # what the import assumed ("input 'x' dim 0 (batch) taken as 1")
        while onnx is not None and onnx.notes and onnx.notes[len(self.notes)]:
            self.notes.append(_s(onnx.notes[len(self.notes)]))

    def _free(self):
        if self._onnx is not None:
            lib.byoc_onnx_model_free(ctypes.byref(self._onnx))  # the module with the import's facts
        else:
            lib.byoc_module_destroy(self._handle)
        self._handle = None

    @property
    def handle(self):
        self._check()
        return self._handle

    @property
    def text(self):
        """The module in Relay's text format (with types)."""
        n = ctypes.c_size_t()
        ptr = lib.byoc_module_print(self.handle, 1, ctypes.byref(n))
        if not ptr:
            raise Error("out of memory printing the module", 1)
        try:
            return ctypes.string_at(ptr, n.value).decode("utf-8", "replace")
        finally:
            lib.byoc_free(self._handle, ptr)

    def print(self):
        print(self.text, end="")

    def __str__(self):
        return self.text

    def clone(self):
        """A copy (compile and partition change a module in place; the functions here compile a copy)."""
        h = lib.byoc_module_clone(self.handle, None)
        if not h:
            raise Error("out of memory copying the module", 1)
        copy = Module(h, path=self.path)
        copy.input_names, copy.output_names = list(self.input_names), list(self.output_names)
        copy.source_nodes = list(self.source_nodes)
        return copy


def load(path, dims=None, shapes=None, dynamic_dims=False):
    """An ONNX model (.onnx) or a Relay module (.relay, with its .weights file when there is one).
    dims: {"batch": 1} values for symbolic ONNX dims (others are 1, or '?' with dynamic_dims=True);
    shapes: whole input shapes, {"input": (1, 3, 224, 224)} or a list in input order."""
    diag = _lib.Diag()
    p = os.fspath(path)
    if p.endswith(".onnx"):
        o = _lib.OnnxOptions()
        keep = []
        if dims:
            arr = (_lib.OnnxDim * len(dims))(*[_lib.OnnxDim(_b(k), int(v)) for k, v in dims.items()])
            keep.append(arr)
            o.dims, o.ndims = arr, len(dims)
        if shapes and not dynamic_dims:
            items = shapes.items() if isinstance(shapes, dict) else [(None, s) for s in shapes]
            arr = (_lib.OnnxInputShape * len(items))()
            for k, (name, shape) in enumerate(items):
                if len(shape) > _lib.MAX_RANK:
                    raise Error("input %s: rank %d is above %d" % (name or k, len(shape), _lib.MAX_RANK), 7)
                arr[k].input, arr[k].rank = _b(name), len(shape)
                for i, d in enumerate(shape):
                    arr[k].dims[i] = int(d)
            keep.append(arr)
            o.shapes, o.nshapes = arr, len(items)
        o.free_dim_default = 0 if dynamic_dims else 1
        o.dynamic_dims = 1 if dynamic_dims else 0
        model = _lib.OnnxModel()
        if lib.byoc_onnx_load(_b(p), ctypes.byref(o), ctypes.byref(model), ctypes.byref(diag)) != 0:
            _raise(diag)
        module = Module(model.module, onnx=model, path=p)
        if dims:
            _check_dims(module, p, dims)
        return module
    if not p.endswith(".relay"):
        raise Error("%s: unsupported model file (expected FILE.relay or FILE.onnx)" % p, 8)
    if dims or shapes or dynamic_dims:
        raise Error("%s: a .relay module has no symbolic dims (dims, shapes and dynamic_dims are for .onnx)" % p, 7)
    h = lib.byoc_module_load(_b(p), None, ctypes.byref(diag))
    if not h:
        _raise(diag)
    return Module(h, path=p)


def _check_dims(module, path, dims):
    """dims the model has no symbolic dim for are an error (the importer ignores them), as byocc's --dim"""
    with load(path) as plain:  # its notes name every symbolic dim it took as 1
        names = [n.split("(")[-1].split(")")[0] for n in plain.notes if ") taken as " in n]
    unknown = [k for k in dims if k not in names]
    if unknown:
        module.close()
        raise Error("%s: dims %s: the model has no symbolic dim of that name (%s)" % (
            path, unknown[0], "its symbolic dims: " + ", ".join(dict.fromkeys(names)) if names else
            "its inputs have none"), 7)


def _model(model, **load_args):
    """(module, owned): a path is loaded (and owned by the caller), a Module is copied (it stays as it was)."""
    if isinstance(model, Module):
        return model.clone(), True
    return load(model, **load_args), True


class _Backends(_Owned):
    """The backends of one compile, open as long as its program runs: built-in names ("npu", "dsp"), .backend files
    (with TVM-style target options: "npu -sram_kb=512"), or byoc.Backend objects defined in Python."""

    def __init__(self, backends):
        self._handles, self._owners, self._open = [], [], True
        for b in backends or []:
            if hasattr(b, "_open_backend"):
                try:
                    self._handles.append(b._open_backend())
                except Exception:
                    self.close()
                    raise
                self._owners.append(b)  # a Backend closes its handle itself: its callbacks go with it
                continue
            diag = _lib.Diag()
            h = lib.byoc_sim_backend_open(_b(os.fspath(b) if isinstance(b, os.PathLike) else b), ctypes.byref(diag))
            if not h:
                self.close()
                _raise(diag)
            self._handles.append(h)
            self._owners.append(None)
        self.array = (ctypes.c_void_p * max(1, len(self._handles)))(*self._handles)

    def _free(self):
        for h, owner in zip(self._handles, self._owners):
            if owner is not None:
                owner._close_backend(h)
            else:
                lib.byoc_sim_backend_close(h)
        self._handles, self._owners = [], []


def _compile_options(backends, strategy, estimator, cost_cache, no_fq2i, no_fuse, threads, place_only, pins,
                     always_place=False):
    if strategy not in ("greedy", "collage"):
        raise Error("strategy '%s' is not one of greedy, collage" % strategy, 7)
    o = _lib.CompileOptions()
    o.backends = backends.array  # arrays go into pointer fields as they are: ctypes.cast makes cycles
    o.nbackends = len(backends._handles)
    o.strategy, o.estimator, o.cost_cache = _b(strategy), _b(estimator), _b(cost_cache)
    o.no_fq2i, o.no_fuse, o.place_only, o.threads = int(no_fq2i), int(no_fuse), int(place_only), int(threads)
    o.always_place = int(always_place)
    keep = None
    if pins:  # {node: backend}: byoc_partition_options' pins, constants bound as by default
        arr = (_lib.Pin * len(pins))(*[_lib.Pin(_b(n), _b(b)) for n, b in pins.items()])
        po = _lib.PartitionOptions(pins=arr, npins=len(pins), bind_constants=1)
        keep = (arr, po)
        o.partition = ctypes.pointer(po)
    return o, keep


def _report_json(placement_ptr, collage_ptr):
    """The library's placement report (and Collage's statistics) as Python objects, from their JSON formats."""
    if not placement_ptr:
        return None
    n = ctypes.c_size_t()
    text = lib.byoc_placement_report_format(placement_ptr, b"json", ctypes.byref(n))
    if not text:
        raise Error("out of memory formatting the placement report", 1)
    try:
        report = json.loads(ctypes.string_at(text, n.value).decode("utf-8", "replace"))
    finally:
        lib.byoc_free(_lib.PlacementReportHead.from_address(placement_ptr).arena, text)
    if collage_ptr:
        stats = lib.byoc_collage_stats_format(collage_ptr, b"json", ctypes.byref(n))
        if not stats:
            raise Error("out of memory formatting the Collage statistics", 1)
        try:
            report["search"] = json.loads(ctypes.string_at(stats, n.value).decode("utf-8", "replace"))
        finally:
            _lib.libc.free(stats)
    return report


class Placement:
    """Where every op runs and why: ops (one dict per op of the input: id, function, label, op, source (the ONNX
    node), backend, partition, composite, inputs, declined [{backend, reason}]), partitions, backends, summary,
    and search (Collage's statistics and plan) under strategy="collage". The library's JSON report, as objects."""

    def __init__(self, report):
        self.report = report
        self.ops = report["nodes"]
        self.partitions = report.get("partitions", [])
        self.backends = report.get("backends", [])
        self.summary = report.get("summary")
        self.search = report.get("search")

    def __getitem__(self, source):
        """The ops of an ONNX node ("conv1" or "onnx:conv1") or of a printer label ("%3")."""
        found = [o for o in self.ops if o["source"] in (source, "onnx:" + source) or o["label"] == source]
        if not found:
            raise KeyError(source)
        return found

    def by_backend(self):
        counts = {}
        for o in self.ops:
            counts[o["backend"]] = counts.get(o["backend"], 0) + 1
        return counts

    def __repr__(self):
        return "Placement(%d ops: %s)" % (len(self.ops), ", ".join("%s %d" % kv for kv in self.by_backend().items()))


def _compile(module, backends, place_only, strategy="greedy", estimator=None, cost_cache=None, no_fq2i=False,
             no_fuse=False, threads=1, pins=None, always_place=False):
    """byoc_sim_compile on module (changed in place): (compiled pointer, report dict)"""
    opts, keep = _compile_options(backends, strategy, estimator, cost_cache, no_fq2i, no_fuse, threads, place_only,
                                  pins, always_place)
    out = ctypes.POINTER(_lib.Compiled)()
    diag = _lib.Diag()
    rc = lib.byoc_sim_compile(module.handle, ctypes.byref(opts), ctypes.byref(out), ctypes.byref(diag))
    del keep
    if rc != 0:
        lib.byoc_sim_compiled_free(out)
        _raise(diag)
    try:
        report = _report_json(out.contents.placement, out.contents.collage)
    except Exception:
        lib.byoc_sim_compiled_free(out)
        raise
    return out, report


def partition(model, backends=("npu", "dsp"), strategy="greedy", estimator=None, pins=None, **load_args):
    """Places the ops of model (a path or a Module, which is left as it was) on the backends, greedy or by the
    Collage search (estimator "analytic" or "measured"): the placement report. pins: {"%3" or ONNX name: backend}."""
    module, _ = _model(model, **load_args)
    with module, _Backends(backends) as bk:
        out, report = _compile(module, bk, True, strategy, estimator, pins=pins)
        lib.byoc_sim_compiled_free(out)
    return Placement(report)


def _to_numpy(t):
    dtype = _DTYPES.get(t.dtype)
    if dtype is None:
        raise Error("output of dtype %s has no numpy dtype" % _s(lib.byoc_dtype_name(t.dtype)), 8)
    shape = tuple(t.dims[i] for i in range(t.rank))
    n = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if n == 0 or not t.data:
        return np.zeros(shape, dtype)
    raw = ctypes.string_at(t.data, n * np.dtype(dtype).itemsize)  # a copy: the program reuses its output memory
    return np.frombuffer(raw, dtype).reshape(shape).copy()


def _is_model(path):
    """a model to compile (a Module, .onnx or .relay), not a .byoc executable"""
    return isinstance(path, Module) or (isinstance(path, (str, os.PathLike)) and
                                        os.fspath(path).endswith((".onnx", ".relay")))


class Session(_Owned):
    """A compiled program to run: from a .byoc file (Session("m.byoc"): each part on the device it was compiled
    for), or from a model, as onnxruntime.InferenceSession("m.onnx") takes one: Session("m.onnx", backends=["npu"],
    strategy="collage") compiles it as byoc.compile does with the same keywords (no backends: all on the host).
    run(output_names, {input_name: array}) -> [arrays], as onnxruntime.InferenceSession.run."""

    def __init__(self, path=None, threads=1, _compiled=None, **compile_args):
        self._open, self._exe, self._compiled, self._module, self._backends = False, None, None, None, None
        self.placement, self._path = None, path
        if _compiled is None and _is_model(path):
            _compiled = _compile_parts(path, threads=threads, **compile_args)
        elif _compiled is None and compile_args:
            raise Error("%s: %s: a .byoc executable is compiled already (its devices and options are in the file); "
                        "these keywords are for a model (.onnx, .relay)" % (
                            os.fspath(path), ", ".join(sorted(compile_args))), 7)
        if _compiled is not None:
            self._module, self._backends, self._compiled, report, names, self._strategy, self._recipe = _compiled
            self.placement = Placement(report) if report else None
            self._program = self._compiled.contents.program
            self.input_names, self.output_names = names
            self._open = True
        else:  # each blob runs on the simulated device it was compiled for (the file records it)
            lo = _lib.LoadOptions()
            lo.threads = int(threads)
            diag = _lib.Diag()
            exe = lib.byoc_sim_executable_read(_b(os.fspath(path)), ctypes.byref(lo), ctypes.byref(diag))
            if not exe:
                _raise(diag)
            self._exe, self._open = exe, True
            self._program = lib.byoc_sim_executable_program(exe)
            info = lambda key: (_s(lib.byoc_sim_executable_info(exe, key)) or "").split("\n")
            self.input_names = [n for n in info(b"inputs") if n]
            self.output_names = [n for n in info(b"outputs") if n]
        ins = [self._io(lib.byoc_sim_input(self._program, i)) for i in range(lib.byoc_sim_input_count(self._program))]
        outs = [self._io(lib.byoc_sim_output(self._program, i))
                for i in range(lib.byoc_sim_output_count(self._program))]
        if len(self.input_names) != len(ins):
            self.input_names = [io["name"] for io in ins]
        if len(self.output_names) != len(outs):
            self.output_names = [io["name"] for io in outs]
        for io, name in zip(ins, self.input_names):
            io["name"] = name
        for io, name in zip(outs, self.output_names):
            io["name"] = name
        self.inputs, self.outputs = ins, outs

    @staticmethod
    def _io(p):
        io = p.contents
        return {"name": _s(io.name), "dtype": _DTYPES.get(io.dtype), "shape": tuple(io.dims[i] for i in range(io.rank)),
                "boxed": bool(io.boxed)}

    def _free(self):
        if self._exe:
            lib.byoc_sim_executable_destroy(self._exe)
        if self._compiled:
            lib.byoc_sim_compiled_free(self._compiled)
        if self._module:
            self._module.close()
        if self._backends:
            self._backends.close()
        self._exe = self._compiled = self._module = self._program = None

    def _inputs(self, feeds):
        if not isinstance(feeds, dict):
            feeds = dict(zip(self.input_names, feeds))
        unknown = [k for k in feeds if k not in self.input_names]
        if unknown:
            raise Error("no input named %s (inputs: %s)" % (", ".join(map(repr, unknown)), ", ".join(self.input_names)),
                        7)
        arrays = []
        tensors = (_lib.Tensor * max(1, len(self.inputs)))()
        for k, io in enumerate(self.inputs):
            if io["name"] not in feeds:
                raise Error("input '%s' is not given" % io["name"], 7)
            if io["boxed"]:
                raise Error("input '%s' is a sequence or optional: not supported from Python yet" % io["name"], 8)
            a = _c_array(feeds[io["name"]])
            code = _CODES.get(a.dtype)
            if code is None or a.ndim > _lib.MAX_RANK:
                raise Error("input '%s': numpy %s of rank %d has no byoc dtype" % (io["name"], a.dtype, a.ndim), 7)
            arrays.append(a)
            tensors[k].dtype, tensors[k].rank, tensors[k].data = code, a.ndim, a.ctypes.data
            for i, d in enumerate(a.shape):
                tensors[k].dims[i] = d
        return tensors, arrays

    def run(self, output_names, input_feed):
        """Runs the program: input_feed maps input names to arrays (or is a list in input order); the outputs named
        (None: all) come back as numpy arrays (copies)."""
        self._check()
        tensors, arrays = self._inputs(input_feed)
        outs = (_lib.Tensor * max(1, len(self.outputs)))()
        diag = _lib.Diag()
        rc = lib.byoc_sim_run(self._program, tensors, len(self.inputs), outs, len(self.outputs), ctypes.byref(diag))
        del arrays
        if rc != 0:
            _raise(diag)
        self._runs = getattr(self, "_runs", 0) + 1
        names = self.output_names if output_names is None else list(output_names)
        result = []
        for name in names:
            if name not in self.output_names:
                raise Error("no output named '%s' (outputs: %s)" % (name, ", ".join(self.output_names)), 7)
            k = self.output_names.index(name)
            if self.outputs[k]["boxed"]:
                raise Error("output '%s' is a sequence or optional: not supported from Python yet" % name, 8)
            result.append(_to_numpy(outs[k]))
        return result

    def report(self, path="report.html", title=None):
        """byocc report's page (one self-contained HTML file) of this in-memory session: its placement, its last
        run (one on seeded inputs if it has not run), and, with backends, the other strategy's plan. Writes path
        and returns it, or returns the HTML text when path is None."""
        from ._report import session_report
        return session_report(self, path, title)

    def profile(self):
        """The last runs per kernel, in schedule order: a list of dicts (byoc_sim_kernel_info's fields, times in
        seconds; sim_* on the simulated SoC's timeline)."""
        self._check()
        rows = []
        for i in range(lib.byoc_sim_kernel_count(self._program)):
            k = lib.byoc_sim_kernel(self._program, i).contents
            row = {}
            for name, _ in _lib.KernelInfo._fields_:
                v = getattr(k, name)
                row[name] = _s(v) if isinstance(v, bytes) or name in ("partition",) else v
            row["exec"] = _s(lib.byoc_sim_exec_name(k.exec))
            row["kernel"] = i
            rows.append(row)
        return rows

    @property
    def simulated_latency(self):
        """The simulated SoC's latency of the last run, in seconds."""
        self._check()
        return lib.byoc_sim_latency(self._program)

    def trace(self):
        """The last run as Chrome trace events (the library's JSON, as objects; opens in Perfetto)."""
        self._check()
        n = ctypes.c_size_t()
        ptr = lib.byoc_sim_trace_format(self._program, ctypes.byref(n))
        if not ptr:
            raise Error("out of memory formatting the trace", 1)
        try:
            return json.loads(ctypes.string_at(ptr, n.value).decode("utf-8", "replace"))
        finally:
            lib.byoc_sim_free(self._program, ptr)

    def _bytes(self, model_name):
        if self._exe:
            with open(self._path, "rb") as f:
                return f.read()
        so = _lib.SaveOptions()
        so.model = _b(model_name or (self._module.path if self._module else None))
        so.strategy = _b(self._strategy)
        so.placement = self._compiled.contents.placement
        nodes = self._module.source_nodes if self._module else []
        if nodes:  # removed: the import's reason; a node a later pass removed gets the library's general one
            arr = (_lib.SourceNode * len(nodes))()
            for k, (span, op, folded) in enumerate(nodes):
                arr[k].name, arr[k].op = _b(span), _b(op)
                arr[k].removed = _b("folded at import: " + folded) if folded else None
            so.source_nodes, so.nsource_nodes = ctypes.addressof(arr), len(nodes)
        ins = (ctypes.c_char_p * max(1, len(self.input_names)))(*[_b(n) for n in self.input_names])
        outs = (ctypes.c_char_p * max(1, len(self.output_names)))(*[_b(n) for n in self.output_names])
        so.input_names, so.ninputs = ins, len(self.input_names)
        so.output_names, so.noutputs = outs, len(self.output_names)
        data, size, diag = ctypes.c_void_p(), ctypes.c_size_t(), _lib.Diag()
        if lib.byoc_sim_executable_save(self._program, ctypes.byref(so), ctypes.byref(data), ctypes.byref(size),
                                        ctypes.byref(diag)) != 0:
            _raise(diag)
        try:
            return ctypes.string_at(data, size.value)
        finally:
            _lib.libc.free(data)

    def save(self, path, model_name=None):
        """Writes the program as a .byoc executable (byocc compile's format; byocc run and Session load it)."""
        self._check()
        data = self._bytes(model_name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def source_map(self):
        """The source map (README "Source map"): every frontend node with the IR ops, kernel, device and reason."""
        self._check()
        if self._exe:
            return _source_map_of(self._exe)
        data = self._bytes(None)
        diag = _lib.Diag()
        exe = lib.byoc_sim_executable_load(data, len(data), b"<session>", None, ctypes.byref(diag))
        if not exe:
            _raise(diag)
        try:
            return _source_map_of(exe)
        finally:
            lib.byoc_sim_executable_destroy(exe)

    def explain(self, node):
        """Where a frontend node ("conv1" or "onnx:conv1") ran and why: its source-map entry (its IR ops, each
        with function, partition, backend, kernel, device layer and commands, and the placement's reason)."""
        for entry in self.source_map()["nodes"]:
            if entry["frontend"] in (node, "onnx:" + node):
                return entry
        raise Error("no frontend node '%s' in the source map" % node, 10)


def _source_map_of(exe):
    n = ctypes.c_size_t()
    ptr = lib.byoc_sim_executable_source_map_json(exe, ctypes.byref(n))
    if not ptr:
        raise Error("out of memory formatting the source map", 1)
    try:
        return json.loads(ctypes.string_at(ptr, n.value).decode("utf-8", "replace"))
    finally:
        lib.byoc_sim_executable_free(exe, ptr)


def compile(model, backends=(), strategy="greedy", estimator=None, cost_cache=None, no_fq2i=False, no_fuse=False,
            threads=1, pins=None, always_place=False, **load_args):
    """Compiles model (a path, loaded with load_args, or a Module, which is left as it was) for the backends
    (none: everything on the host) by byocc run's pipeline (byoc_sim_compile): an in-memory Session.
    always_place: keep a placement report without backends too (every op on the host), as byoc.report does."""
    return Session(_compiled=_compile_parts(model, backends, strategy, estimator, cost_cache, no_fq2i, no_fuse,
                                            threads, pins, always_place, **load_args))


def _compile_parts(model, backends=(), strategy="greedy", estimator=None, cost_cache=None, no_fq2i=False,
                   no_fuse=False, threads=1, pins=None, always_place=False, **load_args):
    """compile's work, for a Session to own: (module, backends, compiled, report, (inputs, outputs), strategy,
    recipe)"""
    module, _ = _model(model, **load_args)
    bk = None
    try:
        bk = _Backends(backends)
        out, report = _compile(module, bk, False, strategy, estimator, cost_cache, no_fq2i, no_fuse, threads, pins,
                               always_place)
    except Exception:
        if bk:
            bk.close()
        module.close()
        raise
    # what Session.report needs to place the model again by the other strategy (the module compiled is changed)
    recipe = {"model": model, "load_args": load_args, "backends": list(backends or []), "estimator": estimator,
              "cost_cache": cost_cache, "no_fq2i": no_fq2i, "pins": pins}
    return module, bk, out, report, (list(module.input_names), list(module.output_names)), strategy, recipe


def quantize(model, output, calibration, method="minmax", per_channel=False, activation_type="uint8"):
    """Quantizes an ONNX model to QDQ form (ONNX Runtime's quantize_static, as byocc quantize): calibration is a
    list of samples, each a list (or dict in input order) of arrays for the model's inputs. Writes output and
    returns the library's summary text."""
    with open(model, "rb") as f:
        data = f.read()
    samples = [list(s.values()) if isinstance(s, dict) else list(s) for s in calibration]
    if not samples or any(len(s) != len(samples[0]) for s in samples):
        raise Error("quantize: give one or more samples, each with the same number of input arrays", 7)
    arrays = [_c_array(a) for s in samples for a in s]
    tensors = (_lib.Tensor * len(arrays))()
    for k, a in enumerate(arrays):
        code = _CODES.get(a.dtype)
        if code is None or a.ndim > _lib.MAX_RANK:
            raise Error("quantize: sample array %d: numpy %s of rank %d has no byoc dtype" % (k, a.dtype, a.ndim), 7)
        tensors[k].dtype, tensors[k].rank, tensors[k].data = code, a.ndim, a.ctypes.data
        for i, d in enumerate(a.shape):
            tensors[k].dims[i] = d
    o = _lib.QuantizeOptions()
    m = ctypes.c_int()
    if not lib.byoc_quantize_method_parse(_b(method), ctypes.byref(m)):
        raise Error("quantize: method '%s' is not one of minmax, percentile, entropy" % method, 7)
    if activation_type not in ("uint8", "int8"):
        raise Error("quantize: activation_type '%s' is not one of uint8, int8" % activation_type, 7)
    o.method, o.per_channel = m.value, int(per_channel)
    o.activation_type = 4 if activation_type == "int8" else 5
    o.samples, o.nsamples, o.ninputs = tensors, len(samples), len(samples[0])
    r, diag = _lib.QuantizeResult(), _lib.Diag()
    if lib.byoc_quantize_onnx(data, len(data), _b(model), ctypes.byref(o), ctypes.byref(r), ctypes.byref(diag)) != 0:
        _raise(diag)
    try:
        with open(output, "wb") as f:
            f.write(ctypes.string_at(r.bytes, r.size))
        return _s(ctypes.string_at(r.summary)) if r.summary else ""
    finally:
        lib.byoc_quantize_result_free(ctypes.byref(r))


from ._report import report  # noqa: E402 (it uses the names above)
