"""The C library through ctypes: finding libbyoc.so, the structs Python reads or fills, the signatures.

Only the structs the API passes by value or fills are mirrored here (each a public struct of byoc.h, byoc_sim.h
or tools/byoc_onnx.h, fields in declaration order); reports come back as the library's JSON and are json.loads'd.
"""
import ctypes
import ctypes.util
import os
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char, c_char_p, c_double, c_int, c_int64, c_size_t, c_uint32,
                    c_uint64, c_void_p)

MAX_RANK = 8
DIAG_MESSAGE_MAX = 1024


def _candidates():
    env = os.environ.get("BYOC_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    # the source tree's build/, then make install's layout: PREFIX/lib/python3.X/dist-packages/byoc beside
    # PREFIX/lib/libbyoc.so
    folders = [os.path.join(here, "..", "build"), os.path.join(here, "..", "..", "build")]
    if os.path.basename(os.path.dirname(here)) in ("dist-packages", "site-packages"):
        folders.append(os.path.join(here, "..", "..", ".."))
    for folder in folders:
        path = os.path.normpath(os.path.join(folder, "libbyoc.so"))
        if os.path.exists(path):
            yield path
    found = ctypes.util.find_library("byoc")
    yield found or "libbyoc.so"


def _open():
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise OSError("libbyoc.so not found: set BYOC_LIBRARY, build it with make, or install it; tried " +
                  "; ".join(tried))


lib, path = _open()
libc = ctypes.CDLL(None)
libc.free.argtypes = [c_void_p]
libc.free.restype = None


class Diag(Structure):  # byoc_diag
    _fields_ = [("code", c_int), ("line", c_int), ("col", c_int), ("node_id", c_uint32),
                ("message", c_char * DIAG_MESSAGE_MAX)]


class Tensor(Structure):  # byoc_tensor
    _fields_ = [("dtype", c_int), ("rank", c_int), ("dims", c_int64 * MAX_RANK), ("data", c_void_p)]


class SimIO(Structure):  # byoc_sim_io
    _fields_ = [("name", c_char_p), ("dtype", c_int), ("rank", c_int), ("dims", c_int64 * MAX_RANK),
                ("nbytes", c_size_t), ("boxed", c_int)]


class OnnxDim(Structure):  # byoc_onnx_dim
    _fields_ = [("name", c_char_p), ("value", c_int64)]


class OnnxInputShape(Structure):  # byoc_onnx_input_shape
    _fields_ = [("input", c_char_p), ("rank", c_int), ("dims", c_int64 * MAX_RANK)]


class OnnxOptions(Structure):  # byoc_onnx_options
    _fields_ = [("allocator", c_void_p), ("dims", POINTER(OnnxDim)), ("ndims", c_int),
                ("shapes", POINTER(OnnxInputShape)), ("nshapes", c_int), ("free_dim_default", c_int64),
                ("no_external_data", c_int), ("external_data_dir", c_char_p), ("max_constant_bytes", c_uint64),
                ("bound", c_void_p), ("nbound", c_int), ("shapes_replace_declared", c_int), ("dynamic_dims", c_int)]


class OnnxModel(Structure):  # byoc_onnx_model
    _fields_ = [("module", c_void_p), ("ninputs", c_int), ("noutputs", c_int), ("input_names", POINTER(c_char_p)),
                ("output_names", POINTER(c_char_p)), ("opset", c_int), ("ir_version", c_int64),
                ("producer", c_char_p), ("nnodes", c_int), ("nfolded", c_int), ("node_spans", POINTER(c_char_p)),
                ("node_ops", POINTER(c_char_p)), ("node_folded", POINTER(c_char_p)), ("notes", POINTER(c_char_p))]


class Pin(Structure):  # byoc_pin
    _fields_ = [("node", c_char_p), ("backend", c_char_p)]


class PartitionOptions(Structure):  # byoc_partition_options
    _fields_ = [("backends", c_void_p), ("nbackends", c_int), ("pins", POINTER(Pin)), ("npins", c_int),
                ("no_fallback", c_int), ("min_partition_ops", c_int), ("max_partitions", c_int),
                ("no_merge_regions", c_int), ("mod_name", c_char_p), ("bind_constants", c_int)]


STAGE_FN = CFUNCTYPE(c_int, c_int, c_char_p, c_void_p, c_void_p, c_void_p)


class CompileOptions(Structure):  # byoc_sim_compile_options
    _fields_ = [("backends", POINTER(c_void_p)), ("nbackends", c_int), ("strategy", c_char_p),
                ("estimator", c_char_p), ("cost_cache", c_char_p), ("replay", c_void_p), ("nreplay", c_int),
                ("max_depth", c_int), ("state_budget", c_int), ("partition", POINTER(PartitionOptions)),
                ("no_fq2i", c_int), ("fixed_point_requantize", c_int), ("no_fuse", c_int), ("place_only", c_int),
                ("always_place", c_int), ("threads", c_int), ("on_stage", STAGE_FN), ("stage_data", c_void_p),
                ("side_by_side", c_int)]


class ReportInput(Structure):  # byoc_sim_report_input
    _fields_ = [("title", c_char_p), ("note", c_char_p), ("placement", c_void_p), ("strategy", c_char_p),
                ("other", c_void_p), ("other_strategy", c_char_p), ("program", c_void_p), ("layout", c_void_p)]


class Compiled(Structure):  # byoc_sim_compiled
    _fields_ = [("program", c_void_p), ("placement", c_void_p), ("collage", c_void_p), ("measured", c_int),
                ("cache_hits", c_int), ("failed", c_int)]


class PlacementReportHead(Structure):  # byoc_placement_report, up to its arena (what Python reads)
    _fields_ = [("nodes", c_void_p), ("count", c_int), ("partitions", c_void_p), ("npartitions", c_int),
                ("backends", c_void_p), ("nbackends", c_int), ("arena", c_void_p)]


class KernelInfo(Structure):  # byoc_sim_kernel_info
    _fields_ = [("name", c_char_p), ("ops", c_char_p), ("nops", c_int), ("device", c_char_p),
                ("partition", c_char_p), ("exec", c_int), ("slot_first", c_int), ("slot_last", c_int),
                ("bytes_read", c_uint64), ("bytes_written", c_uint64), ("tile_elements", c_int64),
                ("tiles", c_int64), ("runs", c_int), ("median_seconds", c_double), ("total_seconds", c_double),
                ("device_kind", c_char_p), ("cycles", c_uint64), ("sim_seconds", c_double),
                ("sim_start", c_double), ("dram_bytes", c_uint64), ("macs", c_uint64),
                ("mac_utilization", c_double), ("transfer_bytes", c_uint64), ("commands", c_int),
                ("algorithm", c_char_p)]


class SourceNode(Structure):  # byoc_sim_source_node
    _fields_ = [("name", c_char_p), ("op", c_char_p), ("removed", c_char_p)]


class SaveOptions(Structure):  # byoc_sim_save_options
    _fields_ = [("model", c_char_p), ("strategy", c_char_p), ("source_nodes", c_void_p), ("nsource_nodes", c_int),
                ("placement", c_void_p), ("input_names", POINTER(c_char_p)), ("ninputs", c_int),
                ("output_names", POINTER(c_char_p)), ("noutputs", c_int)]


class LoadOptions(Structure):  # byoc_sim_load_options
    _fields_ = [("allocator", c_void_p), ("backends", c_void_p), ("nbackends", c_int), ("threads", c_int),
                ("parallel", c_void_p)]


class QuantizeOptions(Structure):  # byoc_quantize_options
    _fields_ = [("method", c_int), ("per_channel", c_int), ("activation_type", c_int), ("percentile", c_double),
                ("samples", POINTER(Tensor)), ("sample_labels", c_void_p), ("nsamples", c_int), ("ninputs", c_int),
                ("import_options", c_void_p)]


class QuantizeResult(Structure):  # byoc_quantize_result
    _fields_ = [("bytes", c_void_p), ("size", c_size_t), ("nodes_in", c_int), ("nodes_quantized", c_int),
                ("nodes_removed", c_int), ("qdq_pairs", c_int), ("weights", c_int), ("biases", c_int),
                ("samples", c_int), ("opset_in", c_int), ("opset_out", c_int), ("summary", c_void_p),
                ("nodes", c_void_p), ("ranges", c_void_p), ("nranges", c_int)]  # the library writes all of it


D = POINTER(Diag)
SIGNATURES = {
    # byoc.h
    "byoc_module_load": (c_void_p, [c_char_p, c_void_p, D]),
    "byoc_module_parse": (c_void_p, [c_char_p, c_size_t, c_char_p, c_void_p, D]),
    "byoc_module_destroy": (None, [c_void_p]),
    "byoc_module_clone": (c_void_p, [c_void_p, c_void_p]),
    "byoc_module_print": (c_void_p, [c_void_p, ctypes.c_uint, POINTER(c_size_t)]),
    "byoc_module_save": (c_int, [c_void_p, c_char_p, ctypes.c_uint, D]),
    "byoc_infer_type": (c_int, [c_void_p, D]),
    "byoc_free": (None, [c_void_p, c_void_p]),
    "byoc_dtype_name": (c_char_p, [c_int]),
    "byoc_placement_report_format": (c_void_p, [c_void_p, c_char_p, POINTER(c_size_t)]),
    "byoc_collage_stats_format": (c_void_p, [c_void_p, c_char_p, POINTER(c_size_t)]),
    # tools/byoc_onnx.h
    "byoc_onnx_load": (c_int, [c_char_p, POINTER(OnnxOptions), POINTER(OnnxModel), D]),
    "byoc_onnx_model_free": (None, [POINTER(OnnxModel)]),
    # tools/byoc_quantize.h
    "byoc_quantize_onnx": (c_int, [c_char_p, c_size_t, c_char_p, POINTER(QuantizeOptions), POINTER(QuantizeResult),
                                   D]),
    "byoc_quantize_result_free": (None, [POINTER(QuantizeResult)]),
    "byoc_quantize_method_parse": (c_int, [c_char_p, POINTER(c_int)]),
    # byoc_sim.h
    "byoc_sim_backend_open": (c_void_p, [c_char_p, D]),
    "byoc_sim_backend_close": (None, [c_void_p]),
    "byoc_sim_compile": (c_int, [c_void_p, POINTER(CompileOptions), POINTER(POINTER(Compiled)), D]),
    "byoc_sim_compiled_free": (None, [POINTER(Compiled)]),
    "byoc_sim_compile_stage_name": (c_char_p, [c_int]),
    "byoc_sim_report_html": (c_void_p, [POINTER(ReportInput), POINTER(c_size_t), D]),
    "byoc_sim_report_free": (None, [c_void_p]),
    "byoc_sim_threads": (c_int, [c_void_p]),
    "byoc_sim_program_destroy": (None, [c_void_p]),
    "byoc_sim_free": (None, [c_void_p, c_void_p]),
    "byoc_sim_input_count": (c_int, [c_void_p]),
    "byoc_sim_input": (POINTER(SimIO), [c_void_p, c_int]),
    "byoc_sim_output_count": (c_int, [c_void_p]),
    "byoc_sim_output": (POINTER(SimIO), [c_void_p, c_int]),
    "byoc_sim_run": (c_int, [c_void_p, POINTER(Tensor), c_int, POINTER(Tensor), c_int, D]),
    "byoc_sim_kernel_count": (c_int, [c_void_p]),
    "byoc_sim_kernel": (POINTER(KernelInfo), [c_void_p, c_int]),
    "byoc_sim_exec_name": (c_char_p, [c_int]),
    "byoc_sim_latency": (c_double, [c_void_p]),
    "byoc_sim_profile_reset": (None, [c_void_p]),
    "byoc_sim_trace_format": (c_void_p, [c_void_p, POINTER(c_size_t)]),
    "byoc_sim_executable_save": (c_int, [c_void_p, POINTER(SaveOptions), POINTER(c_void_p), POINTER(c_size_t), D]),
    "byoc_sim_executable_load": (c_void_p, [c_char_p, c_size_t, c_char_p, POINTER(LoadOptions), D]),
    "byoc_sim_executable_read": (c_void_p, [c_char_p, POINTER(LoadOptions), D]),
    "byoc_sim_executable_destroy": (None, [c_void_p]),
    "byoc_sim_executable_program": (c_void_p, [c_void_p]),
    "byoc_sim_executable_module": (c_void_p, [c_void_p]),
    "byoc_sim_executable_info": (c_char_p, [c_void_p, c_char_p]),
    "byoc_sim_executable_source_map_json": (c_void_p, [c_void_p, POINTER(c_size_t)]),
    "byoc_sim_executable_free": (None, [c_void_p, c_void_p]),
}
for _name, (_res, _args) in SIGNATURES.items():
    _fn = getattr(lib, _name)
    _fn.restype = _res
    _fn.argtypes = _args
