"""Backends defined in Python, as TVM's UMA defines them (tvm.relay.backend.contrib.uma: a pattern table and
per-op predicates): byoc.Backend(name, patterns=[...], supports=[...], predicate=fn).

The backend becomes a .backend description in the library's own syntax (README "Backend files": `pattern NAME =
PATTERN` lines in the dataflow pattern language, `supports OP` lines) opened by byoc_sim_backend_open, so it is
placed, searched by Collage and lowered like any .backend file. The predicate is a C callback (ctypes CFUNCTYPE)
on every `supports` entry: it runs after the entry's own checks and the device's (a backend of kind npu or dsp
still refuses what its device cannot run), on each op the backend would take alone and on each op of a pattern
match that `supports` lists, and its reason shows in the placement report as "NAME: reason".
"""
import ctypes
import os
import tempfile
from ctypes import POINTER, Structure, c_char_p, c_double, c_int, c_int64, c_size_t, c_uint32, c_uint64, c_void_p

from . import _lib

PREDICATE = ctypes.CFUNCTYPE(c_int, c_void_p, c_void_p, c_void_p, c_size_t)


class _OpSupport(Structure):  # byoc_op_support
    _fields_ = [("op", c_char_p), ("constraints", c_void_p), ("nconstraints", c_int), ("predicate", c_void_p),
                ("user_data", c_void_p)]


class _SpecHead(Structure):  # byoc_backend_spec, up to its support table
    _fields_ = [("name", c_char_p), ("file", c_char_p), ("kind", c_char_p), ("priority", c_int),
                ("patterns", c_void_p), ("npatterns", c_int), ("support", POINTER(_OpSupport)), ("nsupport", c_int)]


class _Type(Structure):  # byoc_type
    _fields_ = [("kind", c_int), ("dtype", c_int), ("rank", c_int), ("dims", c_int64 * _lib.MAX_RANK),
                ("nfields", c_int), ("fields", c_void_p), ("ret", c_void_p)]


class _AttrValue(Structure):  # byoc_attr_value
    _fields_ = [("kind", c_int), ("i", c_int64), ("f", c_double), ("s", c_char_p), ("ints", POINTER(c_int64)),
                ("floats", POINTER(c_double)), ("count", c_int), ("inner", c_int)]


class _Attr(Structure):  # byoc_attr
    _fields_ = [("name", c_char_p), ("value", _AttrValue)]


class _Span(Structure):  # byoc_span
    _fields_ = [("source", c_char_p), ("file", c_char_p), ("line", c_int), ("col", c_int)]


class _Node(Structure):  # byoc_node
    _fields_ = [("walk_mark", c_uint64), ("id", c_uint32), ("kind", c_int), ("nargs", c_int), ("nparams", c_int),
                ("args", POINTER(c_void_p)), ("callee", c_void_p), ("body", c_void_p), ("checked_type", c_void_p),
                ("op", POINTER(c_char_p)), ("index", c_int), ("origin", c_uint32), ("params", c_void_p),
                ("attr_items", POINTER(_Attr)), ("attr_count", c_int), ("name", c_char_p), ("annotation", c_void_p),
                ("data", c_void_p), ("span", POINTER(_Span))]


_TENSOR = 1  # byoc_type_kind's BYOC_TYPE_TENSOR; byoc_attr_kind's values below
_ATTR_INT, _ATTR_FLOAT, _ATTR_STRING, _ATTR_BOOL, _ATTR_INTS, _ATTR_FLOATS = 2, 4, 8, 16, 32, 64


def _type_of(ptr):
    """(shape, dtype name) of a tensor type; None for other types or an untyped node"""
    if not ptr:
        return None
    t = _Type.from_address(ptr)
    if t.kind != _TENSOR:
        return None
    return tuple(t.dims[i] for i in range(t.rank)), _lib.lib.byoc_dtype_name(t.dtype).decode()


def _attr(v):
    if v.kind == _ATTR_INT:
        return v.i
    if v.kind == _ATTR_BOOL:
        return bool(v.i)
    if v.kind == _ATTR_FLOAT:
        return v.f
    if v.kind == _ATTR_STRING:
        return v.s.decode("utf-8", "replace") if v.s else ""
    if v.kind == _ATTR_INTS:
        flat = [v.ints[k] for k in range(v.count)]
        return [flat[k:k + v.inner] for k in range(0, len(flat), v.inner)] if v.inner > 0 else flat
    if v.kind == _ATTR_FLOATS:
        return [v.floats[k] for k in range(v.count)]
    return None


class Call:
    """The op call a predicate is asked about: op ("nn.conv2d"), attrs (those the call gives: {name: value}),
    arg_types and out_type ((shape, dtype) each, None for a non-tensor), source (the ONNX node, or None)."""

    def __init__(self, address):
        n = _Node.from_address(address)
        self.op = n.op[0].decode() if n.op else None
        self.attrs = {n.attr_items[k].name.decode(): _attr(n.attr_items[k].value) for k in range(n.attr_count)}
        self.arg_types = [_type_of(_Node.from_address(n.args[k]).checked_type) for k in range(n.nargs)]
        self.out_type = _type_of(n.checked_type)
        self.source = n.span.contents.source.decode() if n.span and n.span.contents.source else None

    def __repr__(self):
        return "Call(%s, %s -> %s)" % (self.op, self.arg_types, self.out_type)


class Backend:
    """A backend defined in Python. patterns: ["NAME = PATTERN", ...] or [(NAME, PATTERN), ...] in priority order
    (the library's pattern text: is_op("nn.relu")(is_op("nn.conv2d")(wildcard(), is_constant()))); supports: ops it
    runs one at a time; predicate(call) -> True to take the op, or a string (the reason) / False to decline it;
    kind: the device kind that runs its partitions ("npu", "dsp") or "library" (the host kernels); options: device
    parameters ({"sram_kb": 512}); priority: higher is tried first."""

    def __init__(self, name, patterns=(), supports=(), predicate=None, kind="npu", options=None, priority=None):
        self.name, self.kind, self.predicate = name, kind, predicate
        lines = ["backend " + name, "kind " + kind]
        if priority is not None:
            lines.append("priority %d" % int(priority))
        for key, value in (options or {}).items():
            lines.append("option %s %s" % (key, value))
        for p in patterns:
            pname, text = p if isinstance(p, tuple) else [s.strip() for s in p.split("=", 1)]
            lines.append("pattern %s = %s" % (pname, text))
        if supports:
            lines.append("supports " + " ".join(supports))
        self.text = "\n".join(lines) + "\n"
        # per open handle, its CFUNCTYPE objects (each holds a libffi closure in C memory): alive while the library
        # may call them, released when the handle closes, so one Backend reused for many compiles does not grow
        self._callbacks = {}

    def _wrap(self, entry, callbacks):
        """entry's predicate: the one it has (the device's checks), then the Python one (kept in callbacks)"""
        before = PREDICATE(entry.predicate) if entry.predicate else None
        before_data = entry.user_data
        user = self.predicate

        def check(call, _user_data, reason, cap):
            if before and not before(call, before_data, reason, cap):
                return 0
            try:
                verdict = user(Call(call))
            except Exception as e:  # a raising predicate declines, saying why (never unwinds through C)
                verdict = "predicate raised %s: %s" % (type(e).__name__, e)
            if verdict is True or (verdict and not isinstance(verdict, str)):
                return 1
            text = (verdict if isinstance(verdict, str) and verdict else "declined by the Python predicate").encode()
            if cap:
                ctypes.memmove(reason, text[:cap - 1] + b"\0", min(len(text), cap - 1) + 1)
            return 0

        fn = PREDICATE(check)
        callbacks.append(fn)
        # the function pointer read from fn's buffer: ctypes.cast(fn, ...) would put fn in its own _objects, a
        # reference cycle that keeps the closure's C memory until the garbage collector runs
        entry.predicate = c_void_p.from_address(ctypes.addressof(fn)).value
        entry.user_data = None

    def _open_backend(self):
        """Opens it in the library (byoc_sim_backend_open on its text) and installs the predicate: the handle, to
        close with _close_backend"""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, self.name + ".backend")
            with open(path, "w") as f:
                f.write(self.text)
            diag = _lib.Diag()
            handle = _lib.lib.byoc_sim_backend_open(path.encode(), ctypes.byref(diag))
        if not handle:
            from . import Error
            raise Error(diag.message.decode("utf-8", "replace").replace(path, self.name + ".backend"), diag.code,
                        diag.line, diag.col)
        if self.predicate is not None:
            spec = _SpecHead.from_address(ctypes.c_void_p.from_address(handle).value)  # byoc_sim_backend.spec
            callbacks = self._callbacks.setdefault(handle, [])
            for k in range(spec.nsupport):
                self._wrap(spec.support[k], callbacks)
        return handle

    def _close_backend(self, handle):
        """Closes a handle _open_backend gave, then frees its predicate's callbacks (the library no longer calls
        them)"""
        _lib.lib.byoc_sim_backend_close(handle)
        self._callbacks.pop(handle, None)

    def __repr__(self):
        return "Backend(%r, kind=%r)" % (self.name, self.kind)
