#!/bin/sh
# CLI tests: exit codes, messages and output of build/byocc.
BYOCC=${1:-build/byocc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset COLUMNS # human output at its default width of 100

# expect NAME EXIT_CODE NEEDLE command...   (NEEDLE must appear in stdout+stderr; "" for none)
expect() {
    name=$1 code=$2 needle=$3; shift 3
    "$@" > "$tmp/out" 2>&1
    rc=$?
    if [ $rc -ne "$code" ]; then echo "FAIL $name: exit $rc, want $code: $(head -c 300 "$tmp/out")"; return; fi
    if [ -n "$needle" ] && ! grep -qF -- "$needle" "$tmp/out"; then echo "FAIL $name: missing \"$needle\" in: $(head -c 300 "$tmp/out")"; return; fi
    if [ "$code" -eq 2 ] && [ "$(grep -c '' "$tmp/out")" -gt 1 ]; then echo "FAIL $name: error is not one line: $(head -c 300 "$tmp/out")"; return; fi
    echo "ok $name"
}

M=tests/inputs/mnist.relay
expect cli_opt_infer_type 0 'def @main(%x: Tensor[(1, 1, 28, 28), float32]) -> Tensor[(1, 10), float32] {' \
    "$BYOCC" opt $M --passes infer_type --emit relay
expect cli_opt_print_types 0 '/* ty=Tensor[(1, 8, 28, 28), float32] */' "$BYOCC" opt $M --passes infer_type --print-types
expect cli_info_nodes 0 'nodes      23 (13 calls' "$BYOCC" info $M
expect cli_info_histogram 0 'nn.conv2d                    2' "$BYOCC" info $M
expect cli_info_param_bytes 0 'parameters 8 constants, 23984 bytes' "$BYOCC" info $M
expect cli_info_input 0 '%x: Tensor[(1, 1, 28, 28), float32]' "$BYOCC" info $M
expect cli_info_output 0 'Tensor[(1, 10), float32]' "$BYOCC" info $M
expect cli_info_json 0 '"ops": {"add": 3, "nn.conv2d": 2' "$BYOCC" info $M --json
expect cli_ops 0 'nn.conv2d                  out_elemwise_fusable' "$BYOCC" ops
expect cli_version 0 'byocc 0.' "$BYOCC" version

# -o writes text and weights; reading them back prints the same module
"$BYOCC" opt $M --passes infer_type -o "$tmp/m.relay" > /dev/null 2>&1
"$BYOCC" opt "$tmp/m.relay" --passes infer_type > "$tmp/a.txt" 2>&1
"$BYOCC" opt $M --passes infer_type > "$tmp/b.txt" 2>&1
if [ -f "$tmp/m.weights" ] && cmp -s "$tmp/a.txt" "$tmp/b.txt"; then echo "ok cli_output_file_round_trip"; else echo "FAIL cli_output_file_round_trip"; fi

# the artifact: compile, run it, explain a node; bad files, missing and mismatched backends refused by name
A=tests/inputs/artifact.relay
expect cli_compile 0 'source map: 9 frontend nodes (0 without ops)' "$BYOCC" compile $A --backend npu --backend dsp -o "$tmp/a.byoc" --source-map "$tmp/a.json"
expect cli_compile_blob_target 0 'npu: 3 blobs' "$BYOCC" compile $A --backend npu --backend dsp -o "$tmp/a.byoc"
expect cli_compile_source_map_json 0 '"frontend":"onnx:fc","op":"","ir":[{"function":"tvmgen_default_npu_main_' cat "$tmp/a.json"
expect cli_run_artifact 0 'output 1 output_1: (1, 10, 10, 8) float32' "$BYOCC" run "$tmp/a.byoc"
expect cli_run_artifact_profile 0 'runtime' "$BYOCC" run "$tmp/a.byoc" --profile
expect cli_run_artifact_side_by_side 1 'is compiled already: --strategy, --no-fuse, --side-by-side' \
    "$BYOCC" run "$tmp/a.byoc" --side-by-side
# independent kernels side by side: the profile lists the groups; an artifact keeps them (its plan is theirs)
D=tests/models/detector_nms
expect cli_run_side_by_side 0 'in 1 group (with more than one thread' \
    "$BYOCC" run $D/model.onnx --input $D/input_0.npy --compare-to $D --side-by-side --threads 2 --profile
"$BYOCC" compile $D/model.onnx --side-by-side -o "$tmp/sbs.byoc" > /dev/null 2>&1
expect cli_run_artifact_side_by_side_kept 0 'in 1 group' "$BYOCC" run "$tmp/sbs.byoc" --input $D/input_0.npy --profile
expect cli_run_artifact_missing_backend 2 "partition @tvmgen_default_dsp_main_0 needs backend 'dsp'" "$BYOCC" run "$tmp/a.byoc" --backend npu
expect cli_run_artifact_incompatible 2 "was compiled for 'npu -preset=ethos-u55-256" "$BYOCC" run "$tmp/a.byoc" --backend "npu -preset=npu-128x128" --backend dsp
expect cli_run_artifact_matching_backends 0 'output 0' "$BYOCC" run "$tmp/a.byoc" --backend npu --backend dsp
expect cli_run_artifact_no_strategy 1 'is compiled already' "$BYOCC" run "$tmp/a.byoc" --strategy collage
expect cli_explain 0 'why:       npu takes it' "$BYOCC" explain "$tmp/a.byoc" conv
expect cli_explain_time 0 'time:      kernel ' "$BYOCC" explain "$tmp/a.byoc" onnx:fc
expect cli_explain_host 0 'why:       no backend takes it: npu declined it' "$BYOCC" explain "$tmp/a.byoc" onnx:lrn
expect cli_explain_json 0 '"frontend":"onnx:softmax","op":"","function":"tvmgen_default_dsp_main_' "$BYOCC" explain "$tmp/a.byoc" softmax --json
expect cli_explain_unknown 2 "no frontend node 'nope' in the source map" "$BYOCC" explain "$tmp/a.byoc" nope
head -c 100 "$tmp/a.byoc" > "$tmp/cut.byoc"
expect cli_run_truncated_artifact 2 "cut.byoc: truncated or extended: the header says" "$BYOCC" run "$tmp/cut.byoc"
expect cli_compile_needs_output 1 'compile: no output file (-o OUT.byoc)' "$BYOCC" compile $A --backend npu
expect cli_compile_no_run_options 1 'belong to run' "$BYOCC" compile $A -o "$tmp/b.byoc" --profile

# the Collage search: statistics, JSON, a saved placement replayed, and one that no longer fits refused
expect cli_partition_collage 0 'collage: plan ' "$BYOCC" partition $M --backend npu --backend dsp --strategy collage
expect cli_partition_collage_json 0 '"search": {"cost": ' "$BYOCC" partition $M --backend npu --backend dsp --strategy collage --emit json
expect cli_partition_collage_save 0 'collage: plan ' "$BYOCC" partition $M --backend npu --backend dsp --strategy collage --save-placement "$tmp/plan.txt"
# the search on one thread and on three (the baseline plans beside the candidates): the same report, byte for byte
# but the search's time
"$BYOCC" partition $M --backend npu --backend dsp --strategy collage --threads 1 2>&1 | sed 's/, [0-9.]* ms$//' > "$tmp/collage1.txt"
"$BYOCC" partition $M --backend npu --backend dsp --strategy collage --threads 3 2>&1 | sed 's/, [0-9.]* ms$//' > "$tmp/collage3.txt"
if grep -q '^collage: plan ' "$tmp/collage1.txt" && cmp -s "$tmp/collage1.txt" "$tmp/collage3.txt"; then
    echo "ok cli_partition_collage_threads_same"
else
    echo "FAIL cli_partition_collage_threads_same: $(diff "$tmp/collage1.txt" "$tmp/collage3.txt" | head -4 | tr '\n' ' ')"
fi
expect cli_partition_bad_threads 1 "partition: --threads expects a thread count (1 to 1024), got '0'" \
    "$BYOCC" partition $M --backend npu --strategy collage --threads 0
expect cli_run_collage_replay 0 'all outputs match the host-only run' \
    "$BYOCC" run $M --backend npu --backend dsp --strategy collage --placement "$tmp/plan.txt" --reference host
sed 's/ nn.conv2d npu / nn.relu npu /' "$tmp/plan.txt" > "$tmp/stale.txt"
expect cli_collage_stale_placement 2 'the placement says nn.relu (it was made for another model or version)' \
    "$BYOCC" partition $M --backend npu --backend dsp --strategy collage --placement "$tmp/stale.txt"
printf 'byoc-placement 1\n5 nn.conv2d npu two\n' > "$tmp/bad_plan.txt"
expect cli_collage_bad_placement 2 "$tmp/bad_plan.txt:2: expected ORIGIN OP BACKEND GROUP" \
    "$BYOCC" partition $M --backend npu --backend dsp --strategy collage --placement "$tmp/bad_plan.txt"
expect cli_placement_needs_collage 1 '--placement and --save-placement need --strategy collage' \
    "$BYOCC" partition $M --backend npu --placement "$tmp/plan.txt"
expect cli_unknown_strategy 1 "--strategy 'best' is not one of greedy, collage" "$BYOCC" partition $M --backend npu --strategy best
# the measured estimator runs each candidate once: a second search takes every price from the cache file
expect cli_collage_measured 0 'byocc: measured ' "$BYOCC" partition $M --backend npu --strategy collage --estimator measured --cost-cache "$tmp/costs.txt"
expect cli_collage_measured_cached 0 'byocc: measured 0 candidates' "$BYOCC" partition $M --backend npu --strategy collage --estimator measured --cost-cache "$tmp/costs.txt"
# a pin holds under the search: the pinned op stays on the host
expect cli_collage_pin 0 '%1     nn.conv2d     -        host    -                         npu: pinned to host' "$BYOCC" partition $M --backend npu --strategy collage --pin %1=host
expect cli_collage_pin_id 0 '%1     nn.conv2d     -        host    -                         npu: pinned to host' "$BYOCC" partition $M --backend npu --strategy collage --pin '#5=host'
printf 'backend acc\nfusion sideways\nsupports nn.relu\n' > "$tmp/fusion.backend"
expect cli_backend_bad_fusion 2 'fusion.backend:2:8: expected fusion arbitrary|tvm|none [MAX_DEPTH 1..64]' "$BYOCC" partition $M --backend "$tmp/fusion.backend"

# bad input: exit 2, one line naming file and position
printf 'def @main(%%x: Tensor[(1, 2), float32]) {\n  nn.relu(%%x,\n}\n' > "$tmp/bad.relay"
expect cli_parse_error 2 "$tmp/bad.relay:3:1: expected an expression but found '}'" "$BYOCC" opt "$tmp/bad.relay" --passes infer_type
printf 'def @main(%%x: Tensor[(1, 16, 8, 8), float32], %%w: Tensor[(4, 8, 3, 3), float32]) {\n  nn.conv2d(%%x, %%w)\n}\n' > "$tmp/type.relay"
expect cli_type_error 2 "$tmp/type.relay:2:3: nn.conv2d result in @main: input has 16 channels, weight expects 8" "$BYOCC" info "$tmp/type.relay"
expect cli_missing_file 2 "nothere.relay: cannot open" "$BYOCC" info "$tmp/nothere.relay"
expect cli_not_relay 2 "unsupported model file" "$BYOCC" info tests/cli.sh
printf 'BYOCWTS1\001\000\000\000' > "$tmp/m.weights"
expect cli_corrupt_weights 2 "m.weights: entry 0: truncated header" "$BYOCC" info "$tmp/m.relay"
head -c 3000 /dev/urandom > "$tmp/noise.relay"
expect cli_binary_noise 2 "noise.relay:" "$BYOCC" info "$tmp/noise.relay"
expect cli_unknown_pass 1 "unknown pass 'fold_everything'" "$BYOCC" opt $M --passes fold_everything
expect cli_print_after_all 0 "// ---- after infer_type ----" "$BYOCC" opt $M --passes infer_type --print-after-all
expect cli_print_after_name 0 "// ---- after infer_type ----" "$BYOCC" opt $M --passes infer_type --print-after=infer_type
expect cli_time_passes 0 "//   infer_type" "$BYOCC" opt $M --passes infer_type --time-passes
expect cli_config_unknown_key 1 "unknown config key 'no.such_key'" "$BYOCC" opt $M --passes infer_type --config no.such_key=1
expect cli_config_wrong_type 1 "config key 'fuse_ops.max_depth' expects int, got string" "$BYOCC" opt $M --passes infer_type --config 'fuse_ops.max_depth="x"'
expect cli_passes_list 0 "fuse_ops.max_depth" "$BYOCC" passes
expect cli_unknown_command 1 "unknown command 'frobnicate'" "$BYOCC" frobnicate
expect cli_no_args 1 "usage: byocc" "$BYOCC"
expect cli_bad_emit 1 "--emit 'xml' is not supported" "$BYOCC" opt $M --emit xml

# match: listing, errors in the pattern text and file with line:col
expect cli_match_lists 0 '2 matches in @main' "$BYOCC" match $M --pattern 'is_op("nn.conv2d")(wildcard(), is_constant())'
expect cli_match_partition 0 'Composite="conv"' "$BYOCC" match $M --pattern 'is_op("nn.conv2d")(*)' --partition conv
expect cli_match_pattern_error 2 '<pattern>:1:7: unknown op' "$BYOCC" match $M --pattern 'is_op("nn.conv9")(wildcard())'
printf 'x = wildcard()\nis_op("add")(x, y)\n' > "$tmp/p.pat"
expect cli_match_pattern_file_error 2 "$tmp/p.pat:2:17: undefined pattern name 'y'" "$BYOCC" match $M --pattern-file "$tmp/p.pat"
expect cli_match_missing_pattern_file 2 'cannot read the pattern file' "$BYOCC" match $M --pattern-file "$tmp/nope.pat"
expect cli_match_needs_one_pattern 1 'exactly one of --pattern and --pattern-file' "$BYOCC" match $M
expect cli_string_config_plain_word 0 'def @tvmgen_edge_npu_main_0(' "$BYOCC" opt $M --backend examples/backends/demo_npu.backend --passes merge_composite,annotate_target,merge_compiler_regions,partition_graph --config partition_graph.mod_name=edge
expect cli_bool_config_spelling 0 'compiler_begin' "$BYOCC" opt $M --backend examples/backends/demo_npu.backend --passes annotate_target --config annotate_target.include_non_call_ops=false

# partition: usage errors (exit 1) and bad backend files (exit 2, file:line:col)
NPU=examples/backends/npu.backend
expect cli_partition_report 0 'ops on npu in 3 partitions' "$BYOCC" partition $M --backend $NPU --backend examples/backends/dsp.backend
expect cli_partition_bad_emit 1 "--emit 'svg' is not one of report, json, dot, relay" "$BYOCC" partition $M --backend $NPU --emit svg
expect cli_partition_bad_count 1 '--min-partition-ops expects a count' "$BYOCC" partition $M --backend $NPU --min-partition-ops -3
expect cli_partition_bad_strategy 1 "--strategy 'random' is not one of greedy, collage" "$BYOCC" partition $M --backend $NPU --strategy random
expect cli_partition_bad_pin 1 '--pin expects NODE=BACKEND' "$BYOCC" partition $M --backend $NPU --pin conv1
expect cli_partition_same_backend_twice 2 "backend 'npu' is given twice" "$BYOCC" partition $M --backend $NPU --backend $NPU
expect cli_partition_no_input 1 'partition: no input file' "$BYOCC" partition --backend $NPU
# a .backend file with one fault: the error names the file, line and column (NEEDLE follows "FILE")
backend_error() { # name, file text (printf format), needle after the file name
    printf "$2" > "$tmp/$1.backend"
    expect "$1" 2 "$tmp/$1.backend$3" "$BYOCC" partition $M --backend "$tmp/$1.backend"
}
backend_error cli_backend_bad_comparison 'backend npu\nsupports nn.conv2d\n    require attr.groups ~ 1 "x"\n' ":3:25: expected a comparison"
backend_error cli_backend_missing_reason 'backend npu\nsupports nn.conv2d\n    require attr.groups == 1\n' ":3:29: expected the reason shown to users"
backend_error cli_backend_bad_subject 'backend npu\nsupports nn.conv2d\n    require colour == 1 "x"\n' ":3:13: expected a subject"
backend_error cli_backend_bad_option 'backend npu\noption sram_kb\n' ":2:8: expected option NAME VALUE"
backend_error cli_backend_bad_priority 'backend npu\npriority high\n' ":2:10: expected one integer priority"
backend_error cli_backend_op_twice 'backend npu\nsupports nn.relu nn.relu\n' ":2:18: op 'nn.relu' is listed twice"
printf 'backend host\nsupports nn.relu\n' > "$tmp/c7.backend"
expect cli_backend_reserved_name 2 "'host' is reserved for the host" "$BYOCC" partition $M --backend "$tmp/c7.backend"

# every command answers --help and -h with its own usage (exit 0); byocc help COMMAND gives the same
for c in opt partition match import run compile explain backends info ops passes version quantize; do
    expect "cli_help_$c" 0 "usage: byocc $c" "$BYOCC" $c --help
    expect "cli_help_short_$c" 0 "usage: byocc $c" "$BYOCC" $c -h
done
expect cli_help_beside_bad_option 0 'usage: byocc run MODEL.byoc' "$BYOCC" run --no-such-option --help
expect cli_help_command 0 'usage: byocc explain MODEL.byoc NODE' "$BYOCC" help explain
expect cli_help_overview 0 'commands:' "$BYOCC" --help
expect cli_help_overview_word 0 '  backends [--json]' "$BYOCC" help
expect cli_unknown_option 1 "run: unknown or incomplete option '--no-such-option'" "$BYOCC" run $M --no-such-option
expect cli_no_arguments_taken 1 "version: takes no argument ('extra')" "$BYOCC" version extra

# --option=value is --option value; a flag takes no value
expect cli_opt_equals_value 0 'collage: plan ' "$BYOCC" partition $M --backend=npu --backend=dsp --strategy=collage
expect cli_opt_equals_count 1 "--max-depth expects a count (0 to 1000000), got 'x'" "$BYOCC" partition $M --backend=npu --strategy=collage --max-depth=x
expect cli_opt_equals_flag 1 "info: unknown or incomplete option '--json=yes'" "$BYOCC" info $M --json=yes

# --output-dir creates the directory and its missing parents; a file in the way is an error
expect cli_output_dir_created 0 'output 0 output_0: (1, 10) float32' "$BYOCC" run $M --output-dir "$tmp/made/for/outputs"
if [ -f "$tmp/made/for/outputs/output_0.npy" ]; then echo "ok cli_output_dir_created_file"; else echo "FAIL cli_output_dir_created_file: no $tmp/made/for/outputs/output_0.npy"; fi
: > "$tmp/plain_file"
expect cli_output_dir_not_a_dir 2 "cannot create the output directory $tmp/plain_file/sub" "$BYOCC" run $M --output-dir "$tmp/plain_file/sub"

# text from a file, echoed in a message, shows its control bytes escaped (and the message stays one line)
printf 'backend acc\nsupports nn.re\033lu\n' > "$tmp/esc.backend"
expect cli_escaped_op_name 2 "unknown op 'nn.re\x1blu'" "$BYOCC" partition $M --backend "$tmp/esc.backend"
{ printf '\223NUMPY\001\000\166\000'; printf "{'descr': '\033[1m\\n', 'fortran_order': False, 'shape': (1,), }%57s\n" ""; head -c 8 /dev/zero; } > "$tmp/esc.npy"
expect cli_escaped_npy_type 2 "element type '\x1b[1m\n' is not supported" "$BYOCC" run $M --input "$tmp/esc.npy"
expect cli_escaped_input_name 2 "no input is named 'a\x1bb\n_' ($tmp/made/for/outputs/output_0.npy); its inputs: x" "$BYOCC" run $M --input "$(printf 'a\033b\n_')=$tmp/made/for/outputs/output_0.npy"

# info on a module without op calls (nothing to sort)
printf 'def @main(%%x: Tensor[(1, 4), float32]) {\n  %%x\n}\n' > "$tmp/no_ops.relay"
expect cli_info_no_ops 0 'ops        0 distinct' "$BYOCC" info "$tmp/no_ops.relay"
expect cli_info_no_ops_json 0 '"calls": 0, "constants": 0, "parameter_bytes": 0, "ops": {}' "$BYOCC" info "$tmp/no_ops.relay" --json

# ONNX: import, errors naming the file, run with .npy inputs and outputs, --compare-to
# the same pipeline from C: byoc_prepare_for_partition + byoc_partition_greedy place a batch-norm network exactly
# as `byocc partition` does (the partitioned module, byte for byte)
if ${CC:-cc} -std=c99 -O0 -I. tests/compile/place_like_byocc.c -o "$tmp/place_like_byocc" -lm > "$tmp/plb.log" 2>&1 &&
   "$tmp/place_like_byocc" tests/inputs/conv_bn.relay npu dsp > "$tmp/plb.relay" 2>> "$tmp/plb.log" &&
   "$BYOCC" partition tests/inputs/conv_bn.relay --backend npu --backend dsp --emit relay > "$tmp/byocc.relay" 2>> "$tmp/plb.log"; then
    if cmp -s "$tmp/plb.relay" "$tmp/byocc.relay" && grep -q 'Composite="npu.conv2d_bias_relu"' "$tmp/byocc.relay"; then echo "ok cli_same_placement_as_c"
    else echo "FAIL cli_same_placement_as_c: the C program and byocc partition differ (or batch norm did not fold into a conv2d_bias_relu)"; fi
else echo "FAIL cli_same_placement_as_c: $(tail -3 "$tmp/plb.log" | tr '\n' ' ')"; fi

# greedy's report and Collage's statistics count ops alike: a batch norm SimplifyInference splits into a scale and
# a shift (not after a conv, so it stays split) is one op in both
cat > "$tmp/bn_split.relay" <<'RELAY'
def @main(%x: Tensor[(1, 4, 8, 8), float32]) {
  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(4, 4, 3, 3), float32] */, padding=[1, 1, 1, 1]) /* span=onnx:conv */;
  %1 = nn.relu(%0) /* span=onnx:relu */;
  %2 = nn.batch_norm(%1, meta[relay.Constant][1] /* ty=Tensor[(4,), float32] */, meta[relay.Constant][2] /* ty=Tensor[(4,), float32] */,
                     meta[relay.Constant][3] /* ty=Tensor[(4,), float32] */, meta[relay.Constant][4] /* ty=Tensor[(4,), float32] */) /* span=onnx:bn */;
  %3 = %2.0;
  nn.softmax(%3) /* span=onnx:softmax */
}
RELAY
g=$("$BYOCC" partition "$tmp/bn_split.relay" --backend npu --backend dsp 2>&1 | sed -n 's/^[0-9]* of \([0-9]*\) ops.*/\1/p')
c=$("$BYOCC" partition "$tmp/bn_split.relay" --backend npu --backend dsp --strategy collage 2>&1 | sed -n 's/^collage: [0-9]* of \([0-9]*\) ops placed.*/\1/p')
if [ "$g" = 4 ] && [ "$c" = 4 ]; then echo "ok cli_op_counts_agree"; else echo "FAIL cli_op_counts_agree: greedy counts '$g' ops, Collage '$c' (want 4 and 4)"; fi

NT=/usr/share/libonnx-testdata/data/node
if [ -d "$NT" ]; then
    expect cli_import_relu 0 'nn.relu(%x' "$BYOCC" import $NT/test_relu/model.onnx
    expect cli_import_span 0 '/* span=onnx:y */' "$BYOCC" import $NT/test_relu/model.onnx
    expect cli_import_writes 0 '-> '"$tmp"'/const.relay' "$BYOCC" import $NT/test_constant/model.onnx -o "$tmp/const.relay"
    if [ -f "$tmp/const.relay" ] && [ -f "$tmp/const.weights" ]; then echo "ok cli_import_weights_file"; else echo "FAIL cli_import_weights_file: no const.relay + const.weights"; fi
    expect cli_info_onnx 0 'nn.conv2d                    1' "$BYOCC" info $NT/test_basic_conv_with_padding/model.onnx
    expect cli_import_unsupported 2 'test_bernoulli/model.onnx: 1 unsupported op type (1 node, opset 15): Bernoulli x1' "$BYOCC" import $NT/test_bernoulli/model.onnx
    head -c 40 $NT/test_basic_conv_with_padding/model.onnx > "$tmp/cut.onnx"
    expect cli_import_truncated 2 "$tmp/cut.onnx" "$BYOCC" import "$tmp/cut.onnx"
    printf 'not a model at all' > "$tmp/text.onnx"
    expect cli_import_not_onnx 2 "$tmp/text.onnx" "$BYOCC" info "$tmp/text.onnx"
    # run: .pb inputs of the ONNX test data, the expected output, a written .npy read back as reference
    S=$NT/test_basic_conv_with_padding/test_data_set_0
    expect cli_run_compare_pb 0 'all outputs match the reference' \
        "$BYOCC" run $NT/test_basic_conv_with_padding/model.onnx --input x=$S/input_0.pb --input W=$S/input_1.pb --compare-to $S/output_0.pb
    mkdir -p "$tmp/outs"
    # an int64 array of the right shape (a .npy written by hand: header padded to 64 bytes)
    { printf '\223NUMPY\001\000\166\000'; printf "%s%52s\n" "{'descr': '<i8', 'fortran_order': False, 'shape': (1, 1, 5, 5), }" ""; head -c 200 /dev/zero; } > "$tmp/x.npy"
    expect cli_run_output_dir 0 'output 0 y: (1, 1, 5, 5) float32' \
        "$BYOCC" run $NT/test_basic_conv_with_padding/model.onnx --input x=$S/input_0.pb --input W=$S/input_1.pb --output-dir "$tmp/outs"
    expect cli_run_npy_round_trip 0 'all outputs match the reference' \
        "$BYOCC" run $NT/test_basic_conv_with_padding/model.onnx --input x=$S/input_0.pb --input W=$S/input_1.pb --compare-to "$tmp/outs"
    expect cli_run_wrong_shape 2 "model.onnx: input 'x' expects (1, 1, 5, 5) float32, given (1, 1, 3, 3) in $S/input_1.pb" \
        "$BYOCC" run $NT/test_basic_conv_with_padding/model.onnx --input x=$S/input_1.pb --input W=$S/input_1.pb
    expect cli_run_missing_input 2 "input 'W' ((1, 1, 3, 3) float32) is not given: --input W=FILE.npy" \
        "$BYOCC" run $NT/test_basic_conv_with_padding/model.onnx --input x=$S/input_0.pb
    expect cli_run_misnamed_input 2 "no input is named 'z' ($S/input_0.pb); its inputs: x W" \
        "$BYOCC" run $NT/test_basic_conv_with_padding/model.onnx --input z=$S/input_0.pb
    expect cli_run_wrong_dtype 2 "input 'x' expects (1, 1, 5, 5) float32, $tmp/x.npy holds (1, 1, 5, 5) int64" \
        "$BYOCC" run $NT/test_basic_conv_with_padding/model.onnx --input x="$tmp/x.npy" --input W=$S/input_1.pb
    expect cli_run_mismatch 4 'MISMATCH' \
        "$BYOCC" run $NT/test_basic_conv_with_padding/model.onnx --input x=$S/input_0.pb --input W=$S/input_1.pb --compare-to $S/input_0.pb
else
    echo "skipped ONNX CLI tests: $NT is missing (Debian package libonnx-testdata)"
fi

# a backend file is validated whole before anything is placed, compiled or run (issue 27)
printf 'backend tiny64\nkind npuu\nsupports nn.conv2d\n' > "$tmp/npuu.backend"
expect cli_backend_unknown_kind 2 "$tmp/npuu.backend:2:6: kind 'npuu' is not a registered device kind (kinds: npu, dsp; did you mean 'npu'?)" \
    "$BYOCC" compile $M --backend "$tmp/npuu.backend" -o "$tmp/npuu.byoc"
printf 'backend tiny64\noption rows 8\nsupports nn.conv2d\n' > "$tmp/nokind.backend"
expect cli_backend_no_way_to_run 2 "$tmp/nokind.backend:1:9: backend 'tiny64' has no way to run its ops" "$BYOCC" run $M --backend "$tmp/nokind.backend"
printf 'backend tiny64\nkind library\nsupports nn.conv2d\n' > "$tmp/lib.backend"
expect cli_backend_library 0 'ops on tiny64 (a library backend: host kernels) in 2 partitions' "$BYOCC" partition $M --backend "$tmp/lib.backend"

# "did you mean": options (from the option table), backends (built-in names, device kinds, .backend files beside the one named)
expect cli_did_you_mean_option 1 "run: unknown or incomplete option '--profil'; did you mean '--profile'?" "$BYOCC" run $M --profil
expect cli_did_you_mean_option_value 1 "did you mean '--strategy'?" "$BYOCC" partition $M --backend npu --stratgy=collage
expect cli_option_of_another_command 1 "unknown or incomplete option '--profile'; it belongs to run, compile" "$BYOCC" partition $M --profile
expect cli_did_you_mean_backend 2 "backend 'nup': not a built-in backend (npu, dsp) and no such .backend file; did you mean 'npu'?" \
    "$BYOCC" partition $M --backend nup
expect cli_did_you_mean_backend_options 2 "did you mean 'dsp'?" "$BYOCC" partition $M --backend "dps -lanes=8"
expect cli_did_you_mean_backend_file 2 "did you mean 'examples/backends/npu.backend'?" "$BYOCC" partition $M --backend examples/backends/np.backend

expect cli_dim_on_relay 2 "mnist.relay: --dim batch: a .relay module has no symbolic dims" "$BYOCC" info $M --dim batch=2
# --dynamic-dims: a symbolic input dim imports as '?'; the program (and its artifact) takes each run's extent
D=tests/data/dynamic/shape_ops.onnx
expect cli_dynamic_dims_import 0 'def @main(%x: Tensor[(?, 3), float32]' "$BYOCC" import $D --dynamic-dims
expect cli_without_dynamic_dims 0 'byocc: note: symbolic dims defaulted: n=1; give --dim NAME=V' "$BYOCC" import $D
expect cli_dynamic_dims_seeded 0 "input 'x' ((?, 3) float32) not given: seeded values ('?' extents taken as 1)" \
    "$BYOCC" run $D --dynamic-dims --output-dir "$tmp/dyn1"
expect cli_dynamic_dims_on_relay 2 "mnist.relay: --dynamic-dims: a .relay module has no symbolic dims" \
    "$BYOCC" info $M --dynamic-dims
# the seeded run's Concat output, (2, 3), is an input of another extent: the artifact runs it as the model does
"$BYOCC" compile $D --dynamic-dims --backend npu -o "$tmp/dyn.byoc" > /dev/null 2>&1
"$BYOCC" run "$tmp/dyn.byoc" --input "$tmp/dyn1/cat.npy" --output-dir "$tmp/dyn_art" > /dev/null 2>&1
"$BYOCC" run $D --dynamic-dims --backend npu --input "$tmp/dyn1/cat.npy" --output-dir "$tmp/dyn_fly" > /dev/null 2>&1
if [ -f "$tmp/dyn_art/tl.npy" ] && cmp -s "$tmp/dyn_art/tl.npy" "$tmp/dyn_fly/tl.npy" \
    && cmp -s "$tmp/dyn_art/ex.npy" "$tmp/dyn_fly/ex.npy" && ! cmp -s "$tmp/dyn1/tl.npy" "$tmp/dyn_art/tl.npy"; then echo "ok cli_dynamic_dims_artifact"
else echo "FAIL cli_dynamic_dims_artifact: the .byoc's outputs on a (2, 3) input differ from the model's"; fi
# output files: a missing directory is refused before any work (-o, --trace, --save-placement, --source-map, --emit FILE)
expect cli_missing_output_dir 2 "-o $tmp/no/such/a.byoc: the directory $tmp/no/such does not exist" "$BYOCC" compile $A --backend npu -o "$tmp/no/such/a.byoc"
expect cli_missing_trace_dir 2 "--trace $tmp/no/t.json: the directory $tmp/no does not exist" "$BYOCC" run $M --trace "$tmp/no/t.json"
expect cli_missing_placement_dir 2 "the directory $tmp/no does not exist" "$BYOCC" partition $M --backend npu --strategy collage --save-placement "$tmp/no/p.txt"
expect cli_missing_source_map_dir 2 "--source-map $tmp/no/m.json: the directory" "$BYOCC" compile $A --backend npu -o "$tmp/ok.byoc" --source-map "$tmp/no/m.json"
if [ ! -f "$tmp/ok.byoc" ]; then echo "ok cli_missing_dir_before_work"; else echo "FAIL cli_missing_dir_before_work: -o was written before --source-map's directory was checked"; fi

# .npz inputs: numpy's zip of .npy files (members by name, arr_K by position; stored, compressed members refused by name)
{ printf '\223NUMPY\001\000\166\000'; printf "%s%50s\n" "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 28, 28), }" ""; head -c 3136 /dev/zero; } > "$tmp/x28.npy"
if [ -x /usr/bin/python3 ]; then
    /usr/bin/python3 -c '
import sys, zipfile
d = open(sys.argv[1], "rb").read()
for name, member, method in (("named", "x.npy", zipfile.ZIP_STORED), ("pos", "arr_0.npy", zipfile.ZIP_STORED), ("deflated", "x.npy", zipfile.ZIP_DEFLATED),
                             ("bzip2", "x.npy", zipfile.ZIP_BZIP2)):
    with zipfile.ZipFile(sys.argv[2] + "/" + name + ".npz", "w", compression=method) as z:
        with z.open(member, "w", force_zip64=True) as f: f.write(d)
' "$tmp/x28.npy" "$tmp"
    expect cli_npz_named 0 'output 0 output_0: (1, 10) float32' "$BYOCC" run $M --input "$tmp/named.npz"
    expect cli_npz_positional 0 'output 0 output_0: (1, 10) float32' "$BYOCC" run $M --input "$tmp/pos.npz"
    expect cli_npz_member_as_name 0 'output 0 output_0: (1, 10) float32' "$BYOCC" run $M --input "x=$tmp/pos.npz"
    expect cli_npz_deflated 2 "$tmp/deflated.npz: member x.npy is compressed (zip method 8, deflate: numpy.savez_compressed); only stored members are read" \
        "$BYOCC" run $M --input "$tmp/deflated.npz"
    expect cli_npz_other_method 2 "$tmp/bzip2.npz: member x.npy is compressed (zip method 12); only stored members are read" \
        "$BYOCC" run $M --input "$tmp/bzip2.npz"
    /usr/bin/python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[60] ^= 0xff; b[61] ^= 0x55; open(sys.argv[2], "wb").write(b)' "$tmp/named.npz" "$tmp/bad_crc.npz"
    expect cli_npz_corrupt 2 "$tmp/bad_crc.npz: member x.npy: truncated or corrupt" "$BYOCC" run $M --input "$tmp/bad_crc.npz"
    head -c 500 "$tmp/named.npz" > "$tmp/cut.npz"
    expect cli_npz_truncated 2 "$tmp/cut.npz: not a zip file" "$BYOCC" run $M --input "$tmp/cut.npz"
else
    echo "skipped .npz tests: no /usr/bin/python3 to write them"
fi

# info on an executable, the per-device summary (text, --emit json, --emit csv), --repeat's percentiles and memory
expect cli_info_byoc 0 'model      tests/inputs/artifact.relay, placed by greedy' "$BYOCC" info "$tmp/a.byoc"
expect cli_info_byoc_blobs 0 'npu: 3 blobs' "$BYOCC" info "$tmp/a.byoc"
expect cli_info_byoc_devices 0 'per device (simulated' "$BYOCC" info "$tmp/a.byoc"
expect cli_run_device_summary 0 '  device     kernels    ops      MACs   time ms   share  SRAM peak / size' "$BYOCC" run "$tmp/a.byoc"
expect cli_compile_device_summary 0 'per device (simulated' "$BYOCC" compile $A --backend npu --backend dsp -o "$tmp/c.byoc"
"$BYOCC" run $A --backend npu --backend dsp > "$tmp/sum.txt" 2>&1
if grep -q '^  npu  ' "$tmp/sum.txt" && grep -q '^  dsp  ' "$tmp/sum.txt" && grep -q '^  host ' "$tmp/sum.txt" &&
   grep '^  npu  ' "$tmp/sum.txt" | grep -q 'KiB / 384.0 KiB.*%$'; then echo "ok cli_device_summary_rows"
else echo "FAIL cli_device_summary_rows: $(grep -A4 '^per device' "$tmp/sum.txt" | tr '\n' '|')"; fi
"$BYOCC" run $M > "$tmp/host_only.txt" 2>&1
if [ "$(sed -n '/^per device/,$p' "$tmp/host_only.txt" | grep -v '^  device ' | grep -c '^  [a-z]')" -eq 1 ]; then echo "ok cli_device_summary_only_used"
else echo "FAIL cli_device_summary_only_used: $(sed -n '/^per device/,$p' "$tmp/host_only.txt" | tr '\n' '|')"; fi
expect cli_repeat_percentiles 0 'time: 20 runs after a warm-up: p50 ' "$BYOCC" run $M --repeat 20
expect cli_repeat_rate 0 ' inferences/s' "$BYOCC" run $M --repeat 20
expect cli_repeat_memory 0 'planned (the memory plan: arena ' "$BYOCC" run $M --repeat 3
expect cli_repeat_rss 0 'process peak RSS ' "$BYOCC" run $M --repeat 3
expect cli_emit_bad_format 1 "run: --emit 'xml' is not one of json, csv" "$BYOCC" run $M --emit xml
expect cli_emit_info_relay 1 'info: --emit json=FILE|csv describes a compiled MODEL.byoc' "$BYOCC" info $M --emit csv
if [ -x /usr/bin/python3 ]; then
    json_ok() { # name, command...: standard output is one JSON document with a device entry per device row
        name=$1; shift
        if "$@" 2> "$tmp/json.err" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["devices"] and all(k in d["devices"][0] for k in ("device", "kind", "kernels", "ops", "macs", "cycles", "simulated_ms", "share", "sram_bytes", "sram_peak_bytes", "dram_bytes", "mac_utilization")), d
assert abs(sum(x["share"] for x in d["devices"]) - 1) < 0.01 and d["memory"]["planned_bytes"] > 0
' > "$tmp/json.out" 2>&1; then echo "ok $name"; else echo "FAIL $name: $(tail -2 "$tmp/json.out" | tr '\n' ' ')"; fi
    }
    json_ok cli_emit_json_run "$BYOCC" run $A --backend npu --backend dsp --emit json
    json_ok cli_emit_json_info "$BYOCC" info "$tmp/a.byoc" --emit json
    json_ok cli_info_byoc_json "$BYOCC" info "$tmp/a.byoc" --json
    json_ok cli_emit_json_compile "$BYOCC" compile $A --backend npu --backend dsp -o "$tmp/d.byoc" --emit json
    "$BYOCC" run $M --repeat 5 --emit "json=$tmp/t.json" > /dev/null 2>&1
    if /usr/bin/python3 -c 'import json,sys; t = json.load(open(sys.argv[1]))["timing"]; assert t["runs"] == 5 and t["p50_ms"] <= t["p90_ms"] <= t["p99_ms"] and t["inferences_per_second"] > 0' "$tmp/t.json" 2> "$tmp/t.err"
    then echo "ok cli_emit_json_timing"; else echo "FAIL cli_emit_json_timing: $(tail -1 "$tmp/t.err")"; fi
fi
"$BYOCC" run $A --backend npu --backend dsp --emit "csv=$tmp/layers.csv" > /dev/null 2>&1
kernels=$(grep -c '' "$tmp/layers.csv" 2>/dev/null)
if [ "$(head -1 "$tmp/layers.csv")" = "kernel,layer,device,kind,name,ops,cycles,simulated_us,macs,dram_bytes,mac_utilization" ] &&
   [ "${kernels:-0}" -gt 2 ] && grep -q '^[0-9]*,0,npu,npu,' "$tmp/layers.csv" &&
   grep -q '^[0-9]*,-,host,host,' "$tmp/layers.csv" &&
   awk -F, 'NR > 1 && NF < 11 { bad = 1 } END { exit bad }' "$tmp/layers.csv"; then echo "ok cli_emit_csv_layers"
else echo "FAIL cli_emit_csv_layers: $(head -3 "$tmp/layers.csv" 2>&1 | tr '\n' '|')"; fi
expect cli_emit_csv_stdout 0 'kernel,layer,device,kind,name,ops,cycles' "$BYOCC" info "$tmp/a.byoc" --emit csv

# the shared models: inputs from --compare-to DIR, names and dims with "did you mean", defaulted dims in errors, 100 columns
SM=../shared/models
if [ -d "$SM/mnist8" ] && [ -d "$SM/tiny_distilbert" ]; then
    start=$(date +%s)
    expect cli_missing_dir_refused_quickly 2 "--trace $tmp/no/t.json: the directory $tmp/no does not exist" \
        "$BYOCC" run $SM/ultraface_rfb320/model.onnx --backend npu --backend dsp --repeat 50 --trace "$tmp/no/t.json"
    if [ $(( $(date +%s) - start )) -le 1 ]; then echo "ok cli_missing_dir_before_import"; else echo "FAIL cli_missing_dir_before_import: took $(( $(date +%s) - start )) s"; fi
    expect cli_compare_to_dir_inputs 0 'all outputs match the reference' "$BYOCC" run $SM/mnist8/model.onnx --compare-to $SM/mnist8
    expect cli_compare_to_test_data_set 0 'all outputs match the reference' "$BYOCC" run $SM/mnist8_zoo/model.onnx --compare-to $SM/mnist8_zoo/test_data_set_0
    expect cli_did_you_mean_input 2 "no input is named 'Input' ($SM/mnist8/input_0.npy); its inputs: Input3; did you mean 'Input3'?" \
        "$BYOCC" run $SM/mnist8/model.onnx --input Input=$SM/mnist8/input_0.npy
    expect cli_unknown_dim 2 "--dim nosuch: the model has no symbolic dim of that name (its inputs have none)" "$BYOCC" run $SM/mnist8/model.onnx --dim nosuch=48
    expect cli_did_you_mean_dim 2 "--dim bach: the model has no symbolic dim of that name (its symbolic dims: batch, sequence); did you mean 'batch'?" \
        "$BYOCC" partition $SM/tiny_distilbert/model.onnx --backend npu --dim bach=2
    { printf '\223NUMPY\001\000\166\000'; printf "%s%58s\n" "{'descr': '<i8', 'fortran_order': False, 'shape': (1, 4), }" ""; head -c 32 /dev/zero; } > "$tmp/ids.npy"
    expect cli_defaulted_dims_in_error 2 '(symbolic dims defaulted: batch=1, sequence=1; give --dim NAME=V)' \
        "$BYOCC" run $SM/tiny_distilbert/model.onnx --input input_ids="$tmp/ids.npy"
    expect cli_defaulted_dims_note 0 'byocc: note: symbolic dims defaulted: batch=1, sequence=1; give --dim NAME=V' "$BYOCC" info $SM/tiny_distilbert/model.onnx
    wide=""
    for args in "partition $SM/tiny_distilbert/model.onnx --backend npu --backend dsp" "partition $SM/mnist8/model.onnx --backend npu --backend dsp --strategy collage" \
                "run $SM/mnist8/model.onnx --backend npu --backend dsp --compare-to $SM/mnist8 --reference host"; do
        "$BYOCC" $args > "$tmp/wide.txt" 2>&1
        n=$(awk 'length($0) > 100' "$tmp/wide.txt" | wc -l)
        [ "$n" -eq 0 ] || wide="$wide [byocc $args: $n lines, e.g. $(awk 'length($0) > 100 { print substr($0, 1, 60); exit }' "$tmp/wide.txt")]"
    done
    if [ -z "$wide" ]; then echo "ok cli_human_output_100_columns"; else echo "FAIL cli_human_output_100_columns:$wide"; fi
else
    echo "skipped shared-model CLI tests: $SM/mnist8 or $SM/tiny_distilbert is missing"
fi

# control flow (If, Loop, Scan) on the runtime and from a .byoc; explain finds a node inside a loop body
N=/usr/share/libonnx-testdata/data/node
if [ -d "$N/test_loop11" ] && [ -d "$N/test_scan9_sum" ]; then
    for t in test_if test_loop11 test_scan_sum test_scan9_sum; do
        expect "cli_cflow_run_$t" 0 'all outputs match the reference' "$BYOCC" run "$N/$t/model.onnx" --compare-to "$N/$t/test_data_set_0"
    done
    expect cli_cflow_profile_per_iteration 0 '0.0.1   onnx:slice_out' "$BYOCC" run "$N/test_loop11/model.onnx" --compare-to "$N/test_loop11/test_data_set_0" --profile
    expect cli_cflow_compile 0 'source map: 10 frontend nodes (5 without ops)' "$BYOCC" compile "$N/test_loop11/model.onnx" --backend npu -o "$tmp/loop.byoc"
    expect cli_cflow_run_byoc 0 'all outputs match the reference' "$BYOCC" run "$tmp/loop.byoc" --compare-to "$N/test_loop11/test_data_set_0"
    expect cli_cflow_explain_in_body 0 'in body:   kernel 0.0.1 onnx:slice_out' "$BYOCC" explain "$tmp/loop.byoc" onnx:slice_out
else
    echo "skipped control-flow CLI tests: $N is missing (Debian package libonnx-testdata)"
fi
