#!/bin/sh
# byocc's conventions, for every command its overview lists (a command added later is covered without an edit
# here): --help and -h print its own usage on standard output, exit 0; an unknown option is a usage error
# (exit 1); --json prints one JSON document on standard output (python3 -m json.tool accepts it) holding the
# members README's "JSON reports" names. A command whose usage offers --json but has no case below fails, so
# a new report gets its JSON checked.
BYOCC=${1:-build/byocc}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset COLUMNS

M=tests/inputs/mnist.relay
A=tests/inputs/artifact.relay
NT=/usr/share/libonnx-testdata/data/node
SM=../shared/models

commands=$("$BYOCC" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z_-]*\)\( .*\)\{0,1\}$/\1/p' | awk '!seen[$0]++' | tr '\n' ' ')
if [ "$(echo $commands | wc -w)" -ge 13 ] && echo " $commands " | grep -q ' version '; then echo "ok cli_json_commands_listed"
else echo "FAIL cli_json_commands_listed: the overview lists only: $commands"; fi

for c in $commands; do
    for h in --help -h; do
        "$BYOCC" $c $h > "$tmp/help.out" 2> "$tmp/help.err"
        rc=$?
        if [ $rc -eq 0 ] && [ "$(head -1 "$tmp/help.out" | cut -d' ' -f1-3)" = "usage: byocc $c" ] && [ ! -s "$tmp/help.err" ]; then
            echo "ok cli_json_help${h#-}_$c"
        else echo "FAIL cli_json_help${h#-}_$c: exit $rc, first line '$(head -1 "$tmp/help.out")', stderr '$(head -c 200 "$tmp/help.err")'"; fi
    done
    "$BYOCC" $c --no-such-option > "$tmp/bad.out" 2> "$tmp/bad.err"
    rc=$?
    if [ $rc -eq 1 ] && grep -qF "$c: unknown or incomplete option '--no-such-option'" "$tmp/bad.err" && [ ! -s "$tmp/bad.out" ]; then
        echo "ok cli_json_unknown_option_$c"
    else echo "FAIL cli_json_unknown_option_$c: exit $rc, stderr '$(head -c 200 "$tmp/bad.err")'"; fi
done

if [ ! -x "$PY" ]; then echo "skipped the --json documents: no $PY"; exit 0; fi

# json_case NAME CHECK command...: exit 0, standard output one document json.tool accepts, and CHECK (Python,
# with the document as d) holds
checked=""
json_case() {
    name=$1 check=$2; shift 2
    checked="$checked $name"
    "$@" > "$tmp/$name.json" 2> "$tmp/$name.err"
    rc=$?
    if [ $rc -ne 0 ]; then echo "FAIL cli_json_$name: exit $rc: $(head -c 300 "$tmp/$name.err")"; return; fi
    if ! "$PY" -m json.tool < "$tmp/$name.json" > /dev/null 2> "$tmp/$name.tool"; then
        echo "FAIL cli_json_$name: json.tool refuses standard output: $(head -c 200 "$tmp/$name.tool")"; return
    fi
    if "$PY" -c "import json, sys
d = json.load(open(sys.argv[1], encoding='utf-8'))
$check" "$tmp/$name.json" > "$tmp/$name.py" 2>&1; then echo "ok cli_json_$name"
    else echo "FAIL cli_json_$name: $(tail -2 "$tmp/$name.py" | tr '\n' ' ' | head -c 400)"; fi
}
has() { echo "assert all(k in d for k in '$1'.split()), sorted(d)"; }

# SimplifyInference splits each batch norm into a multiply and an add; FoldConstant then folds their constants
json_case opt "$(has 'file passes ran seconds before after output module')
assert d['passes'] == ['simplify_inference', 'fold_constant'] and [r['pass'] for r in d['ran']] == d['passes'], d['ran']
assert d['before']['ops']['nn.batch_norm'] == 2 and 'nn.batch_norm' not in d['after']['ops'] and d['after']['ops']['multiply'] == 2
assert 'def @main(' in d['module'] and d['output'] is None" \
    "$BYOCC" opt tests/inputs/conv_bn.relay --passes simplify_inference,fold_constant --json
json_case opt_output "assert d['output'].endswith('o.relay') and d['module'] is None and d['after']['ops']['nn.conv2d'] == 2" \
    "$BYOCC" opt $M --passes infer_type -o "$tmp/o.relay" --json
json_case partition "$(has 'backends nodes search fq2i')
assert d['search'] is None and d['fq2i'] == [] and any(n['backend'] == 'npu' for n in d['nodes'])" \
    "$BYOCC" partition $M --backend npu --backend dsp --json
json_case partition_collage "assert d['search']['cost'] > 0 and d['nodes']" \
    "$BYOCC" partition $M --backend npu --backend dsp --strategy collage --json
json_case match "$(has 'file pattern matches count composite module')
assert d['count'] == len(d['matches']) == 2 and d['matches'][0] == {'node': '%6', 'op': 'nn.conv2d', 'region': ''} and d['module'] is None" \
    "$BYOCC" match $M --pattern 'is_op("nn.conv2d")(wildcard(), is_constant())' --json
json_case match_partition "assert d['count'] == 2 and d['composite'] == 'conv' and 'Composite=\"conv\"' in d['module']" \
    "$BYOCC" match $M --pattern 'is_op("nn.conv2d")(wildcard(), is_constant())' --partition conv --json
json_case run "$(has 'model kernels simulated_ms devices memory')
assert d['devices'] and d['memory']['planned_bytes'] > 0" "$BYOCC" run $A --backend npu --backend dsp --json
json_case compile "assert {x['device'] for x in d['devices']} >= {'npu', 'dsp'}" \
    "$BYOCC" compile $A --backend npu --backend dsp -o "$tmp/a.byoc" --json
json_case explain "assert d[0]['frontend'] == 'onnx:conv' and d[0]['backend'] == 'npu' and d[0]['reason']" "$BYOCC" explain "$tmp/a.byoc" conv --json
json_case backends "$(has 'backends presets')
assert {b['name'] for b in d['backends']} >= {'npu', 'dsp'} and d['presets'][0]['name']" "$BYOCC" backends --json
json_case info "$(has 'file functions nodes calls constants parameter_bytes ops inputs output')
assert d['nodes'] == 23 and d['ops']['nn.conv2d'] == 2 and d['inputs'][0]['name'] == 'x'" "$BYOCC" info $M --json
json_case info_byoc "assert d['devices'] and d['memory']['planned_bytes'] > 0" "$BYOCC" info "$tmp/a.byoc" --json
json_case ops "assert {o['name'] for o in d} >= {'nn.conv2d', 'add'} and all('pattern' in o for o in d)" "$BYOCC" ops --json
json_case passes "$(has 'passes config_keys')
assert 'fuse_ops' in [p['name'] for p in d['passes']] and 'fuse_ops.max_depth' in [k['name'] for k in d['config_keys']]" "$BYOCC" passes --json
json_case version "$(has 'version headers build online_cores cpu_features')
assert d['headers']['byoc.h'] == d['version'] and d['build']['compiler'] and d['online_cores'] >= 1" "$BYOCC" version --json
if [ -d "$NT/test_relu" ]; then
    json_case import "$(has 'file opset ir_version producer onnx_nodes evaluated_at_import inputs outputs relay warnings evaluated output module')
assert d['inputs'] == [{'name': 'x', 'type': 'Tensor[(3, 4, 5), float32]'}] and d['outputs'][0]['name'] == 'y'
assert d['onnx_nodes'] == 1 and d['relay']['ops'] == {'nn.relu': 1} and 'nn.relu(%x' in d['module']" "$BYOCC" import $NT/test_relu/model.onnx --json
    # strings are escaped, and bytes that are not UTF-8 (here in a file name) become U+FFFD: the document parses
    odd=$(printf '%s/q"uo\\te\033\377.onnx' "$tmp")
    cp $NT/test_relu/model.onnx "$odd"
    json_case escaped_strings "assert d['file'].endswith('/q\"uo\\\\te\x1b\ufffd.onnx'), d['file']" "$BYOCC" import "$odd" --json
else
    echo "skipped cli_json_import: $NT is missing (Debian package libonnx-testdata)"
    checked="$checked import"
fi
if [ -f "$SM/mnist8/model.onnx" ]; then
    mkdir -p "$tmp/cal" && cp "$SM/mnist8/input_0.npy" "$tmp/cal/"
    json_case quantize "$(has 'model output bytes method activation_type per_channel samples nodes ranges')
assert d['nodes_quantized'] == sum(n['state'] == 'quantized' for n in d['nodes']) > 0
assert all(r['min'] <= r['max'] and r['scale'] > 0 for r in d['ranges']) and d['ranges'][0]['tensor'] == 'Input3'" \
        "$BYOCC" quantize "$SM/mnist8/model.onnx" --calibrate "$tmp/cal" -o "$tmp/q.onnx" --json
else
    echo "skipped cli_json_quantize: $SM/mnist8 is missing"
    checked="$checked quantize"
fi

# every command whose usage offers --json has a case above
for c in $commands; do
    "$BYOCC" $c --help | grep -q -- '--json' || continue
    case " $checked " in *" $c "*) ;; *) echo "FAIL cli_json_case_$c: byocc $c offers --json and tests/cli_json.sh has no case for it" ;; esac
done

# where --emit exists, --json is --emit json: the same document
"$BYOCC" partition $M --backend npu --emit json > "$tmp/emit.json" 2>&1
"$BYOCC" partition $M --backend npu --json > "$tmp/flag.json" 2>&1
if cmp -s "$tmp/emit.json" "$tmp/flag.json" && [ -s "$tmp/flag.json" ]; then echo "ok cli_json_is_emit_json_partition"; else echo "FAIL cli_json_is_emit_json_partition: the documents differ"; fi
"$BYOCC" info $M --emit json > "$tmp/emit.json" 2>&1
"$BYOCC" info $M --json > "$tmp/flag.json" 2>&1
if cmp -s "$tmp/emit.json" "$tmp/flag.json" && [ -s "$tmp/flag.json" ]; then echo "ok cli_json_is_emit_json_info"; else echo "FAIL cli_json_is_emit_json_info: the documents differ"; fi
"$BYOCC" opt $M --passes infer_type --emit json > "$tmp/emit.json" 2>&1
if "$PY" -c 'import json, sys; assert "def @main(" in json.load(open(sys.argv[1]))["module"]' "$tmp/emit.json" 2> /dev/null
then echo "ok cli_json_is_emit_json_opt"; else echo "FAIL cli_json_is_emit_json_opt: $(head -c 200 "$tmp/emit.json")"; fi
# the human lines move to standard error; --json beside another --emit of a one-format command is refused
"$BYOCC" run $M --json > "$tmp/run.json" 2> "$tmp/run.err"
if "$PY" -m json.tool < "$tmp/run.json" > /dev/null 2>&1 && grep -q '^output 0 output_0: (1, 10) float32' "$tmp/run.err"; then echo "ok cli_json_human_to_stderr"
else echo "FAIL cli_json_human_to_stderr: stdout '$(head -c 100 "$tmp/run.json")', stderr '$(head -c 100 "$tmp/run.err")'"; fi
"$BYOCC" opt $M --passes infer_type --json --emit relay > "$tmp/c.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -qF "opt: --json is --emit json; it does not go with --emit 'relay'" "$tmp/c.out"; then echo "ok cli_json_conflicting_emit"
else echo "FAIL cli_json_conflicting_emit: exit $rc: $(head -c 200 "$tmp/c.out")"; fi
"$BYOCC" version --json=yes > "$tmp/c.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -qF "version: unknown or incomplete option '--json=yes'" "$tmp/c.out"; then echo "ok cli_json_is_a_flag"
else echo "FAIL cli_json_is_a_flag: exit $rc: $(head -c 200 "$tmp/c.out")"; fi

# the other programs of the build directory take positional paths: --help is a usage line, never an output file
bin=$(dirname "$BYOCC")
for t in onnx_node_tests bench bench_kernels bench_devices bench_collage; do
    [ -x "$bin/$t" ] || continue
    prog=$(cd "$bin" && pwd)/$t
    mkdir -p "$tmp/run_$t"
    (cd "$tmp/run_$t" && "$prog" --help > out.txt 2> err.txt)
    rc=$?
    if [ $rc -eq 0 ] && grep -q "^usage: $t " "$tmp/run_$t/out.txt" && [ ! -e "$tmp/run_$t/--help" ]; then echo "ok cli_json_tool_help_$t"
    else echo "FAIL cli_json_tool_help_$t: exit $rc, '$(head -c 200 "$tmp/run_$t/out.txt")', files: $(ls "$tmp/run_$t" | tr '\n' ' ')"; fi
done
