/* The C API's NULL-handle rule (issue 27, point 4): every public function of byoc.h, byoc_sim.h and
   tools/byoc_onnx.h that takes a handle (byoc_module, byoc_graph, byoc_node it works on, byoc_pass_context,
   byoc_backend_spec, byoc_placement_report, byoc_sim_program, byoc_sim_executable, byoc_sim_backend,
   byoc_sim_device_program) is called here with NULL for the handle and zero/NULL for the rest, and must
   fail as documented in the headers' ERRORS paragraphs instead of crashing: a byoc_result call returns
   BYOC_ERR_INVALID_ARGUMENT with "FUNCTION: WHAT is NULL" in its diag, a pointer-returning one NULL, a
   count or query 0 (or its documented value), a destroy/free call nothing. Public API only.

   How the list was made: a script read each header's declarations (everything before its
   implementation guard, comments removed), took every BYOC_API / BYOC_SIM_API prototype, and kept those
   with a parameter of one of the handle types above: 172 functions (byoc.h 126, byoc_sim.h 44,
   tools/byoc_onnx.h 2). The calls below were generated from those prototypes and then given their
   expected results by hand. guarded_functions[] is that list; test_list_matches_headers re-reads the
   headers the same way at run time, so a new public function taking a handle fails this test until it
   is guarded and added here. */
/* links the library compiled once (tests/lib/byoc_impl.c) */
#include "../byoc_sim.h"
#include "../tools/byoc_onnx.h"
#include "test.h"

#include <stdlib.h>

static const char *const guarded_functions[] = {"byoc_tensor_type", "byoc_tuple_type", "byoc_func_type", "byoc_attrs_set_int",
    "byoc_attrs_set_float", "byoc_attrs_set_string", "byoc_attrs_set_bool", "byoc_attrs_set_none",
    "byoc_attrs_set_ints", "byoc_attrs_set_floats", "byoc_attrs_set", "byoc_module_destroy",
    "byoc_module_error", "byoc_module_clear_error", "byoc_module_add_function", "byoc_module_set_function",
    "byoc_module_function", "byoc_module_function_count", "byoc_module_function_at", "byoc_module_node_count",
    "byoc_alloc", "byoc_free", "byoc_intern", "byoc_var",
    "byoc_constant", "byoc_constant_scalar", "byoc_call", "byoc_call_op",
    "byoc_call_function", "byoc_tuple", "byoc_tuple_get_item", "byoc_function", "byoc_if", "byoc_let", "byoc_loop",
    "byoc_let_bind",
    "byoc_global_var", "byoc_node_set_span", "byoc_node_span", "byoc_constant_nbytes",
    "byoc_node_origin", "byoc_constant_f32", "byoc_op_flops", "byoc_op_check_attrs",
    "byoc_infer_type", "byoc_infer_node_type", "byoc_module_print", "byoc_node_print",
    "byoc_node_label", "byoc_function_labels", "byoc_module_save", "byoc_module_save_weights",
    "byoc_module_weights_serialize", "byoc_type_parse", "byoc_attr_value_parse", "byoc_structural_equal",
    "byoc_structural_hash", "byoc_module_structural_equal", "byoc_deep_copy", "byoc_module_clone",
    "byoc_graph_build", "byoc_graph_index", "byoc_graph_free", "byoc_node_inputs",
    "byoc_graph_post_dominators", "byoc_pat_wildcard", "byoc_pat_expr", "byoc_pat_var",
    "byoc_pat_constant", "byoc_pat_op", "byoc_pat_call", "byoc_pat_call_op",
    "byoc_pat_tuple", "byoc_pat_tuple_get_item", "byoc_pat_alt", "byoc_pat_optional",
    "byoc_pat_has_attr", "byoc_pat_has_dtype", "byoc_pat_has_shape", "byoc_pat_has_type",
    "byoc_pat_dominates", "byoc_pattern_parse", "byoc_pattern_print", "byoc_pattern_match",
    "byoc_pattern_rewrite", "byoc_pattern_partition", "byoc_pass_context_destroy", "byoc_pass_context_set_opt_level",
    "byoc_pass_context_set", "byoc_pass_context_int", "byoc_pass_context_float", "byoc_pass_context_string",
    "byoc_pass_context_set_verify", "byoc_pass_context_set_instrument", "byoc_pass_context_timings", "byoc_pass_context_add_phase_pass",
    "byoc_run_phase", "byoc_run_passes", "byoc_verify", "byoc_merge_composite",
    "byoc_backend_free", "byoc_backend_supports_op", "byoc_backend_accepts", "byoc_annotate_target",
    "byoc_merge_compiler_regions", "byoc_partition_graph", "byoc_fuse_ops", "byoc_simplify_inference",
    "byoc_fold_scale_axis", "byoc_simplify_expr", "byoc_layer_norm_fusion", "byoc_gelu_fusion",
    "byoc_host_rewrites", "byoc_prepare_for_partition",
    "byoc_fold_constant", "byoc_dead_code_elimination",
    "byoc_fake_quantization_to_integer", "byoc_requantize_in_fixed_point",
    "byoc_pass_context_add_backend", "byoc_module_set_runtime", "byoc_module_runtime", "byoc_backend_partition",
    "byoc_run_target_hooks", "byoc_module_evaluate", "byoc_partition_greedy", "byoc_placement_report_format",
    "byoc_placement_report_free", "byoc_sub_graph_init", "byoc_sub_graph_is_valid", "byoc_sub_graph_are_touching",
    "byoc_sub_graph_union", "byoc_collage_mock_cost", "byoc_collage_placement_parse", "byoc_partition_collage",
    "byoc_kernel_run", "byoc_kernel_workspace_size", "byoc_kernel_run_parallel", "byoc_kernel_workspace_size_parallel",
    "byoc_sim_threads", "byoc_sim_lower", "byoc_sim_program_destroy",
    "byoc_sim_free", "byoc_sim_input_count", "byoc_sim_input", "byoc_sim_output_count",
    "byoc_sim_output", "byoc_sim_kernel_count", "byoc_sim_kernel", "byoc_sim_memory",
    "byoc_sim_buffer_count", "byoc_sim_buffer", "byoc_sim_accesses", "byoc_sim_run",
    "byoc_sim_profile_format", "byoc_sim_profile_reset", "byoc_sim_latency", "byoc_sim_kernel_device", "byoc_sim_kernel_program", "byoc_sim_trace_format",
    "byoc_sim_kernel_body_count", "byoc_sim_kernel_body", "byoc_sim_kernel_iterations", "byoc_sim_kernel_class",
    "byoc_sim_output_elements", "byoc_sim_output_element",
    "byoc_sim_profile_by_class",
    "byoc_sim_backend_close", "byoc_sim_backend_describe", "byoc_sim_device_compile", "byoc_sim_estimate", "byoc_sim_collage_cost",
    "byoc_sim_collage_measured_cost", "byoc_sim_device_program_destroy", "byoc_sim_device_of", "byoc_sim_device_run",
    "byoc_sim_device_command_count", "byoc_sim_device_command", "byoc_sim_device_layer_count", "byoc_sim_device_layer",
    "byoc_sim_executable_save", "byoc_sim_executable_destroy", "byoc_sim_executable_program", "byoc_sim_executable_module",
    "byoc_sim_executable_info", "byoc_sim_executable_blob_count", "byoc_sim_executable_blob", "byoc_sim_executable_source_count",
    "byoc_sim_executable_source", "byoc_sim_executable_source_map_json", "byoc_sim_executable_free", "byoc_onnx_tensor_load",
    "byoc_onnx_tensor_read", "byoc_sequence_type", "byoc_optional_type", "byoc_sequence_value", "byoc_optional_none",
    "byoc_onnx_value_load", "byoc_sim_compile", "byoc_sim_compiled_free",
};
#define GUARDED_COUNT ((int)(sizeof guarded_functions / sizeof guarded_functions[0]))

/* the functions the NULL calls below reached, to check them against guarded_functions */
static const char *called[GUARDED_COUNT + 16];
static int ncalled;
static void note(const char *name) {
    for (int i = 0; i < ncalled; ++i)
        if (!strcmp(called[i], name)) return;
    if (ncalled < (int)(sizeof called / sizeof called[0])) called[ncalled++] = name;
}

/* a byoc_result call with a diag: BYOC_ERR_INVALID_ARGUMENT, and "FN: WHAT is NULL" in D */
#define RESULT_D(fn, what, ...)                                                                                      \
    do {                                                                                                           \
        byoc_diag D;                                                                                               \
        memset(&D, 0, sizeof D);                                                                                   \
        note(#fn);                                                                                                 \
        byoc_result r_ = fn(__VA_ARGS__);                                                                          \
        CHECKF(r_ == BYOC_ERR_INVALID_ARGUMENT, "%s returned %s", #fn, byoc_result_str(r_));                       \
        CHECKF(D.code == BYOC_ERR_INVALID_ARGUMENT && !strcmp(D.message, #fn ": " what " is NULL"),               \
               "%s: diag \"%s\"", #fn, D.message);                                                                 \
    } while (0)
/* a pointer-returning call with a diag: NULL, and the message in D */
#define PTR_D(fn, what, ...)                                                                                         \
    do {                                                                                                           \
        byoc_diag D;                                                                                               \
        memset(&D, 0, sizeof D);                                                                                   \
        note(#fn);                                                                                                 \
        CHECKF(fn(__VA_ARGS__) == NULL, "%s did not return NULL", #fn);                                            \
        CHECKF(D.code == BYOC_ERR_INVALID_ARGUMENT && !strcmp(D.message, #fn ": " what " is NULL"),               \
               "%s: diag \"%s\"", #fn, D.message);                                                                 \
    } while (0)
#define RESULT(fn, ...) do { note(#fn); byoc_result r_ = fn(__VA_ARGS__); CHECKF(r_ == BYOC_ERR_INVALID_ARGUMENT, "%s returned %s", #fn, byoc_result_str(r_)); } while (0)
#define PTR(fn, ...) do { note(#fn); CHECKF(fn(__VA_ARGS__) == NULL, "%s did not return NULL", #fn); } while (0)
#define ZERO(fn, ...) do { note(#fn); CHECKF(fn(__VA_ARGS__) == 0, "%s did not return 0", #fn); } while (0)
#define VALUE(fn, expected, ...) do { note(#fn); CHECKF(fn(__VA_ARGS__) == (expected), "%s did not return %s", #fn, #expected); } while (0)
#define NEGATIVE(fn, ...) do { note(#fn); CHECKF(fn(__VA_ARGS__) < 0, "%s did not return a negative cost", #fn); } while (0)
#define VOID(fn, ...) do { note(#fn); fn(__VA_ARGS__); } while (0)

static void test_null_handles_byoc_h(void) {
    static const byoc_config_key ratio = {"test_api.ratio", BYOC_ATTR_FLOAT, "0.5f", "a float key for byoc_pass_context_float"};
    byoc_result registered = byoc_config_key_register(&ratio, NULL);
    CHECK(registered == BYOC_OK || registered == BYOC_ERR_DUPLICATE);
    int count;
    PTR(byoc_tensor_type, NULL, (byoc_dtype)0, 0, NULL);
    PTR(byoc_tuple_type, NULL, NULL, 0);
    PTR(byoc_func_type, NULL, NULL, 0, NULL);
    PTR(byoc_sequence_type, NULL, (byoc_dtype)0, NULL);
    PTR(byoc_optional_type, NULL, NULL);
    PTR(byoc_sequence_value, NULL, NULL, NULL, 0);
    PTR(byoc_optional_none, NULL, NULL);
    VOID(byoc_attrs_set_int, NULL, NULL, NULL, 0);
    VOID(byoc_attrs_set_float, NULL, NULL, NULL, 0);
    VOID(byoc_attrs_set_string, NULL, NULL, NULL, NULL);
    VOID(byoc_attrs_set_bool, NULL, NULL, NULL, 0);
    VOID(byoc_attrs_set_none, NULL, NULL, NULL);
    VOID(byoc_attrs_set_ints, NULL, NULL, NULL, NULL, 0);
    VOID(byoc_attrs_set_floats, NULL, NULL, NULL, NULL, 0);
    VOID(byoc_attrs_set, NULL, NULL, NULL, NULL);
    VOID(byoc_module_destroy, NULL);
    CHECK(byoc_module_error(NULL) && byoc_module_error(NULL)->code == BYOC_ERR_INVALID_ARGUMENT); /* an error, not "no error" */
    note("byoc_module_error");
    VOID(byoc_module_clear_error, NULL);
    RESULT(byoc_module_add_function, NULL, NULL, NULL);
    RESULT(byoc_module_set_function, NULL, NULL, NULL);
    PTR(byoc_module_function, NULL, NULL);
    ZERO(byoc_module_function_count, NULL);
    { byoc_global_function f = byoc_module_function_at(NULL, 0); CHECK(!f.name && !f.function); note("byoc_module_function_at"); }
    ZERO(byoc_module_node_count, NULL);
    PTR(byoc_alloc, NULL, 0);
    VOID(byoc_free, NULL, NULL);
    PTR(byoc_intern, NULL, NULL);
    PTR(byoc_var, NULL, NULL, NULL);
    PTR(byoc_constant, NULL, NULL, NULL, 0);
    PTR(byoc_constant_scalar, NULL, (byoc_dtype)0, 0);
    PTR(byoc_call, NULL, NULL, NULL, 0, NULL);
    PTR(byoc_call_op, NULL, NULL, NULL, 0, NULL);
    PTR(byoc_call_function, NULL, NULL, NULL, 0);
    PTR(byoc_tuple, NULL, NULL, 0);
    PTR(byoc_tuple_get_item, NULL, NULL, 0);
    PTR(byoc_function, NULL, NULL, 0, NULL, NULL, NULL);
    PTR(byoc_if, NULL, NULL, NULL, NULL, NULL, 0);
    PTR(byoc_let, NULL, NULL, NULL, NULL, 0);
    PTR(byoc_loop, NULL, NULL, NULL, NULL, 0, NULL, NULL, 0);
    PTR(byoc_let_bind, NULL, NULL, NULL);
    PTR(byoc_global_var, NULL, NULL);
    VOID(byoc_node_set_span, NULL, NULL, NULL, NULL, 0, 0);
    CHECK(byoc_node_span(NULL) && !byoc_node_span(NULL)->source); /* documented: an empty span */
    note("byoc_node_span");
    ZERO(byoc_constant_nbytes, NULL);
    ZERO(byoc_node_origin, NULL);
    ZERO(byoc_constant_f32, NULL, 0);
    ZERO(byoc_op_flops, NULL);
    RESULT_D(byoc_op_check_attrs, "module", NULL, NULL, NULL, NULL, &D);
    RESULT_D(byoc_infer_type, "module", NULL, &D);
    RESULT_D(byoc_infer_node_type, "module", NULL, NULL, &D);
    PTR(byoc_module_print, NULL, 0, NULL);
    PTR(byoc_node_print, NULL, NULL, 0, NULL);
    VOID(byoc_node_label, NULL, NULL, NULL, NULL, 0);
    RESULT(byoc_function_labels, NULL, NULL, NULL, NULL);
    RESULT_D(byoc_module_save, "module", NULL, NULL, 0, &D);
    RESULT_D(byoc_module_save_weights, "module", NULL, NULL, &D);
    PTR(byoc_module_weights_serialize, NULL, NULL);
    PTR_D(byoc_type_parse, "module", NULL, NULL, &D);
    RESULT_D(byoc_attr_value_parse, "module", NULL, NULL, NULL, &D);
    VALUE(byoc_structural_equal, 1, NULL, NULL); /* NULL equals only NULL */
    ZERO(byoc_structural_hash, NULL);
    VALUE(byoc_module_structural_equal, 1, NULL, NULL);
    PTR(byoc_deep_copy, NULL, NULL);
    PTR(byoc_module_clone, NULL, NULL);
    RESULT(byoc_graph_build, NULL, NULL, 0, NULL);
    VALUE(byoc_graph_index, -1, NULL, NULL); /* not in the graph */
    VOID(byoc_graph_free, NULL);
    ZERO(byoc_node_inputs, NULL, NULL, 0);
    RESULT(byoc_graph_post_dominators, NULL, NULL);
    PTR(byoc_pat_wildcard, NULL);
    PTR(byoc_pat_expr, NULL, NULL);
    PTR(byoc_pat_var, NULL, NULL);
    PTR(byoc_pat_constant, NULL);
    PTR(byoc_pat_op, NULL, NULL);
    PTR(byoc_pat_call, NULL, NULL, NULL, 0);
    PTR(byoc_pat_call_op, NULL, NULL, NULL, 0);
    PTR(byoc_pat_tuple, NULL, NULL, 0);
    PTR(byoc_pat_tuple_get_item, NULL, NULL, 0);
    PTR(byoc_pat_alt, NULL, NULL, NULL);
    PTR(byoc_pat_optional, NULL, NULL, NULL);
    PTR(byoc_pat_has_attr, NULL, NULL, NULL);
    PTR(byoc_pat_has_dtype, NULL, NULL, (byoc_dtype)0);
    PTR(byoc_pat_has_shape, NULL, NULL, 0, NULL);
    PTR(byoc_pat_has_type, NULL, NULL, NULL);
    PTR(byoc_pat_dominates, NULL, NULL, NULL, NULL);
    PTR_D(byoc_pattern_parse, "module", NULL, NULL, 0, NULL, &D);
    PTR(byoc_pattern_print, NULL, NULL);
    ZERO(byoc_pattern_match, NULL, NULL, NULL, NULL);
    PTR(byoc_pattern_rewrite, NULL, NULL, NULL, NULL, NULL, 0);
    PTR(byoc_pattern_partition, NULL, NULL, NULL, NULL, NULL, NULL);
    VOID(byoc_pass_context_destroy, NULL);
    VOID(byoc_pass_context_set_opt_level, NULL, 0);
    RESULT_D(byoc_pass_context_set, "pass context", NULL, NULL, NULL, &D);
    VALUE(byoc_pass_context_int, 256, NULL, "fuse_ops.max_depth"); /* NULL context: the registered default */
    VALUE(byoc_pass_context_float, 0.5, NULL, "test_api.ratio");
    CHECK(!strcmp(byoc_pass_context_string(NULL, "partition_graph.mod_name"), "default"));
    note("byoc_pass_context_string");
    VOID(byoc_pass_context_set_verify, NULL, 0);
    VOID(byoc_pass_context_set_instrument, NULL, NULL);
    count = 7;
    PTR(byoc_pass_context_timings, NULL, &count);
    CHECK(count == 0);
    RESULT_D(byoc_pass_context_add_phase_pass, "pass context", NULL, (byoc_phase)0, NULL, &D);
    RESULT_D(byoc_run_phase, "module", NULL, (byoc_phase)0, NULL, &D);
    RESULT_D(byoc_run_passes, "module", NULL, NULL, 0, NULL, &D);
    RESULT_D(byoc_verify, "module", NULL, 0, &D);
    RESULT_D(byoc_merge_composite, "module", NULL, NULL, 0, &D);
    VOID(byoc_backend_free, NULL);
    ZERO(byoc_backend_supports_op, NULL, NULL);
    ZERO(byoc_backend_accepts, NULL, NULL, NULL, 0);
    RESULT_D(byoc_annotate_target, "module", NULL, NULL, 0, 0, &D);
    RESULT_D(byoc_merge_compiler_regions, "module", NULL, &D);
    RESULT_D(byoc_partition_graph, "module", NULL, NULL, 0, &D);
    RESULT_D(byoc_fuse_ops, "module", NULL, 0, &D);
    RESULT_D(byoc_simplify_inference, "module", NULL, &D);
    RESULT_D(byoc_fold_scale_axis, "module", NULL, &D);
    RESULT_D(byoc_simplify_expr, "module", NULL, &D);
    RESULT_D(byoc_layer_norm_fusion, "module", NULL, &D);
    RESULT_D(byoc_gelu_fusion, "module", NULL, &D);
    RESULT_D(byoc_host_rewrites, "module", NULL, NULL, &D);
    RESULT_D(byoc_prepare_for_partition, "module", NULL, NULL, &D);
    RESULT_D(byoc_fold_constant, "module", NULL, &D);
    RESULT_D(byoc_dead_code_elimination, "module", NULL, &D);
    RESULT_D(byoc_fake_quantization_to_integer, "module", NULL, NULL, &D);
    RESULT_D(byoc_requantize_in_fixed_point, "module", NULL, &D);
    RESULT_D(byoc_pass_context_add_backend, "pass context", NULL, NULL, &D);
    RESULT_D(byoc_module_set_runtime, "module", NULL, NULL, NULL, &D);
    PTR(byoc_module_runtime, NULL, NULL);
    RESULT_D(byoc_backend_partition, "module", NULL, NULL, NULL, 0, &D);
    RESULT_D(byoc_run_target_hooks, "module", NULL, NULL, 0, &D);
    RESULT_D(byoc_module_evaluate, "module", NULL, NULL, 0, NULL, &D);
    RESULT_D(byoc_partition_greedy, "module", NULL, NULL, NULL, &D);
    PTR(byoc_placement_report_format, NULL, NULL, NULL);
    VOID(byoc_placement_report_free, NULL);
    RESULT(byoc_sub_graph_init, NULL, NULL, NULL, NULL);
    ZERO(byoc_sub_graph_is_valid, NULL, NULL, NULL, NULL, 0);
    ZERO(byoc_sub_graph_are_touching, NULL, NULL, NULL);
    RESULT(byoc_sub_graph_union, NULL, NULL, NULL, NULL);
    NEGATIVE(byoc_collage_mock_cost, NULL, NULL, NULL); /* negative: cannot run there */
    RESULT_D(byoc_collage_placement_parse, "arena", NULL, 0, NULL, NULL, NULL, NULL, &D);
    RESULT_D(byoc_partition_collage, "module", NULL, NULL, NULL, NULL, &D);
    RESULT_D(byoc_kernel_run, "call", NULL, NULL, 0, NULL, 0, NULL, &D);
    ZERO(byoc_kernel_workspace_size, NULL);
    RESULT_D(byoc_kernel_run_parallel, "call", NULL, NULL, 0, NULL, 0, NULL, NULL, &D);
    ZERO(byoc_kernel_workspace_size_parallel, NULL, 0);
}

static void test_null_handles_byoc_sim_h(void) {
    int count;
    PTR_D(byoc_sim_lower, "module", NULL, NULL, &D);
    VOID(byoc_sim_program_destroy, NULL);
    VOID(byoc_sim_free, NULL, NULL);
    ZERO(byoc_sim_input_count, NULL);
    PTR(byoc_sim_input, NULL, 0);
    ZERO(byoc_sim_output_count, NULL);
    PTR(byoc_sim_output, NULL, 0);
    ZERO(byoc_sim_kernel_count, NULL);
    PTR(byoc_sim_kernel, NULL, 0);
    { byoc_sim_memory_plan plan = byoc_sim_memory(NULL); CHECK(plan.arena_bytes == 0); note("byoc_sim_memory"); }
    ZERO(byoc_sim_buffer_count, NULL);
    { byoc_sim_buffer_info b = byoc_sim_buffer(NULL, 0); CHECK(b.size == 0 && b.inplace_of == -1); note("byoc_sim_buffer"); }
    count = 7;
    PTR(byoc_sim_accesses, NULL, &count);
    CHECK(count == 0);
    RESULT_D(byoc_sim_run, "program", NULL, NULL, 0, NULL, 0, &D);
    ZERO(byoc_sim_threads, NULL);
    PTR(byoc_sim_profile_format, NULL, NULL);
    VOID(byoc_sim_profile_reset, NULL);
    ZERO(byoc_sim_latency, NULL);
    PTR(byoc_sim_kernel_device, NULL, 0, NULL);
    PTR(byoc_sim_kernel_program, NULL, 0);
    ZERO(byoc_sim_kernel_body_count, NULL, 0);
    PTR(byoc_sim_kernel_body, NULL, 0, 0);
    ZERO(byoc_sim_kernel_iterations, NULL, 0);
    ZERO(byoc_sim_output_elements, NULL, 0);
    RESULT_D(byoc_sim_output_element, "program", NULL, 0, 0, NULL, &D);
    PTR(byoc_sim_kernel_class, NULL, 0);
    ZERO(byoc_sim_profile_by_class, NULL, NULL, 0);
    PTR(byoc_sim_trace_format, NULL, NULL);
    VOID(byoc_sim_backend_close, NULL);
    {
        char about[8] = "";
        VOID(byoc_sim_backend_describe, NULL, about, sizeof about);
        CHECK(!strcmp(about, "?"));
    }
    RESULT_D(byoc_sim_device_compile, "module", NULL, NULL, NULL, NULL, NULL, &D);
    RESULT_D(byoc_sim_estimate, "module", NULL, NULL, NULL, NULL, &D);
    NEGATIVE(byoc_sim_collage_cost, NULL, NULL, NULL);
    NEGATIVE(byoc_sim_collage_measured_cost, NULL, NULL, NULL);
    VOID(byoc_sim_device_program_destroy, NULL);
    PTR(byoc_sim_device_of, NULL);
    RESULT_D(byoc_sim_device_run, "device program", NULL, NULL, 0, NULL, 0, NULL, &D);
    ZERO(byoc_sim_device_command_count, NULL);
    { byoc_sim_command_info c = byoc_sim_device_command(NULL, 0); CHECK(!c.kind && c.cycles == 0); note("byoc_sim_device_command"); }
    ZERO(byoc_sim_device_layer_count, NULL);
    PTR(byoc_sim_device_layer, NULL, 0, NULL);
    RESULT_D(byoc_sim_executable_save, "program", NULL, NULL, NULL, NULL, &D);
    VOID(byoc_sim_executable_destroy, NULL);
    {
        byoc_sim_compiled *c = (byoc_sim_compiled *)&c; /* set to NULL by the failed call */
        RESULT_D(byoc_sim_compile, "module", NULL, NULL, &c, &D);
        CHECK(c == NULL);
    }
    VOID(byoc_sim_compiled_free, NULL);
    PTR(byoc_sim_executable_program, NULL);
    PTR(byoc_sim_executable_module, NULL);
    PTR(byoc_sim_executable_info, NULL, NULL);
    ZERO(byoc_sim_executable_blob_count, NULL);
    PTR(byoc_sim_executable_blob, NULL, 0);
    ZERO(byoc_sim_executable_source_count, NULL);
    PTR(byoc_sim_executable_source, NULL, 0);
    PTR(byoc_sim_executable_source_map_json, NULL, NULL);
    VOID(byoc_sim_executable_free, NULL, NULL);
}

static void test_null_handles_byoc_onnx_h(void) {
    PTR_D(byoc_onnx_tensor_load, "module", NULL, NULL, 0, NULL, NULL, &D);
    PTR_D(byoc_onnx_tensor_read, "module", NULL, NULL, NULL, &D);
    PTR_D(byoc_onnx_value_load, "module", NULL, NULL, 0, NULL, NULL, NULL, &D);
}

/* a handle other than the first: the diag names it */
static void test_null_second_handle(void) {
    byoc_diag d;
    const char *text = "def @main(%x: Tensor[(1, 2), float32]) { nn.relu(%x) }";
    byoc_module *m = byoc_module_parse(text, strlen(text), NULL, NULL, &d);
    CHECKF(m, "%s", d.message);
    byoc_pass_context *ctx = byoc_pass_context_create();
    CHECK(ctx);
    CHECK(byoc_pass_context_add_backend(ctx, NULL, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK(!strcmp(d.message, "byoc_pass_context_add_backend: backend is NULL"));
    CHECK(byoc_run_phase(m, BYOC_PHASE_PRE_PARTITIONING, NULL, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK(!strcmp(d.message, "byoc_run_phase: pass context is NULL"));
    CHECK(byoc_partition_greedy(m, NULL, NULL, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK(!strcmp(d.message, "byoc_partition_greedy: options is NULL"));
    byoc_collage_assignment *list = NULL;
    int count_dummy = 5;
    CHECK(byoc_collage_placement_parse("byoc-placement 1\n", 17, NULL, NULL, &list, &count_dummy, &d) == BYOC_ERR_INVALID_ARGUMENT);
    CHECK(!strcmp(d.message, "byoc_collage_placement_parse: arena is NULL") && !list);
    size_t size = 9;
    CHECK(byoc_sim_device_compile(m, "main", byoc_sim_preset_find("ethos-u55-256"), NULL, &size, &d) == BYOC_ERR_INVALID_ARGUMENT && size == 0);
    CHECK(!strcmp(d.message, "byoc_sim_device_compile: output is NULL"));
    byoc_graph g;
    CHECK(byoc_graph_build(NULL, NULL, 0, &g) == BYOC_ERR_INVALID_ARGUMENT);
    byoc_graph_free(&g); /* zeroed: freeing it is safe */
    byoc_pass_context_destroy(ctx);
    byoc_module_destroy(m);
}

/* the public prototypes of one header that take a handle type, read as the list above was made */
static int header_handle_functions(const char *path, const char *stop, char names[][64], int cap, int *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = 0;
    char *end = strstr(text, stop);
    if (!end) return 0;
    *end = 0;
    for (char *p = text; *p; ++p) { /* comments out */
        if (p[0] == '/' && p[1] == '*') { char *q = strstr(p + 2, "*/"); if (!q) return 0; memset(p, ' ', (size_t)(q + 2 - p)); }
        else if (p[0] == '/' && p[1] == '/') while (*p && *p != '\n') *p++ = ' ';
        if (!*p) break;
    }
    static const char *const handles[] = {"byoc_module", "byoc_graph", "byoc_node", "byoc_pass_context", "byoc_backend_spec",
                                          "byoc_placement_report", "byoc_sim_program", "byoc_sim_executable", "byoc_sim_backend",
                                          "byoc_sim_device_program", "byoc_sim_compiled"};
    for (char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        char *s = line;
        while (*s == ' ' || *s == '\t') ++s;
        if (strncmp(s, "BYOC_API ", 9) && strncmp(s, "BYOC_SIM_API ", 13)) continue;
        char *open = strchr(s, '('), *semi = strchr(s, ';');
        if (!open || !semi || open > semi) continue;
        char *name_end = open;
        while (name_end > s && name_end[-1] == ' ') --name_end;
        char *name = name_end;
        while (name > s && (name[-1] == '_' || (name[-1] >= 'a' && name[-1] <= 'z') || (name[-1] >= '0' && name[-1] <= '9'))) --name;
        int depth = 0, takes = 0;
        for (char *q = open; q < semi; ++q) {
            if (*q == '(') ++depth;
            if (*q == ')' && --depth == 0) break;
            for (int h = 0; h < (int)(sizeof handles / sizeof handles[0]); ++h) {
                size_t hl = strlen(handles[h]);
                if (strncmp(q, handles[h], hl) || q[-1] == '_' || (q[-1] >= 'a' && q[-1] <= 'z')) continue;
                char *t = q + hl;
                while (*t == ' ') ++t;
                if (*t == '*') takes = 1;
            }
        }
        if (takes && *n < cap && name_end - name < 64) {
            memcpy(names[*n], name, (size_t)(name_end - name));
            names[*n][name_end - name] = 0;
            ++*n;
        }
    }
    return 1;
}

static void test_list_matches_headers(void) {
    static char names[400][64];
    int n = 0;
    char dir[512]; /* the repository, from this file's path (tests/test_api.c) */
    snprintf(dir, sizeof dir, "%s", __FILE__);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0; else snprintf(dir, sizeof dir, "tests");
    static const char *const headers[][2] = {
        {"byoc.h", "#if defined(BYOC_IMPLEMENTATION) && !defined(BYOC_IMPLEMENTATION_INCLUDED)"},
        {"byoc_sim.h", "#if defined(BYOC_SIM_IMPLEMENTATION) && !defined(BYOC_SIM_IMPLEMENTATION_INCLUDED)"},
        {"tools/byoc_onnx.h", "#if defined(BYOC_ONNX_IMPLEMENTATION) && !defined(BYOC_ONNX_IMPLEMENTATION_INCLUDED)"},
    };
    for (int h = 0; h < 3; ++h) {
        char path[600];
        snprintf(path, sizeof path, "%s/../%s", dir, headers[h][0]);
        CHECKF(header_handle_functions(path, headers[h][1], names, 400, &n), "cannot read the declarations of %s", path);
    }
    for (int i = 0; i < n; ++i) {
        int found = 0;
        for (int k = 0; k < GUARDED_COUNT && !found; ++k) found = !strcmp(names[i], guarded_functions[k]);
        CHECKF(found, "%s takes a handle but is not in guarded_functions (guard it, then list and call it here)", names[i]);
    }
    for (int k = 0; k < GUARDED_COUNT; ++k) {
        int found = 0;
        for (int i = 0; i < n && !found; ++i) found = !strcmp(names[i], guarded_functions[k]);
        CHECKF(found, "%s is listed but no header declares it with a handle", guarded_functions[k]);
    }
    CHECKF(n == GUARDED_COUNT && GUARDED_COUNT == 199, "%d public functions take a handle, %d are listed", n,
           GUARDED_COUNT);
}

/* every listed function was called with NULL (when the NULL tests ran: a filtered run skips this) */
static void test_calls_cover_the_list(void) {
    if (!ncalled) return;
    for (int k = 0; k < GUARDED_COUNT; ++k) {
        int found = 0;
        for (int i = 0; i < ncalled && !found; ++i) found = !strcmp(called[i], guarded_functions[k]);
        CHECKF(found, "%s is listed but never called with NULL", guarded_functions[k]);
    }
    CHECKF(ncalled == GUARDED_COUNT, "%d functions called, %d listed", ncalled, GUARDED_COUNT);
}

int main(int argc, char **argv) {
    static const test_case tests[] = {
        TEST_ENTRY(test_null_handles_byoc_h),  TEST_ENTRY(test_null_handles_byoc_sim_h), TEST_ENTRY(test_null_handles_byoc_onnx_h),
        TEST_ENTRY(test_null_second_handle),   TEST_ENTRY(test_list_matches_headers),    TEST_ENTRY(test_calls_cover_the_list),
    };
    return run_tests(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv);
}
