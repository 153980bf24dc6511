#!/bin/sh
# byocc's conventions, for every command its overview lists (a command added later is covered without an edit
# here): --help and -h print its own usage on standard output, exit 0; an unknown option is a usage error
# (exit 1); --json prints one JSON document on standard output (python3 -m json.tool accepts it) holding the
# members README's "JSON reports" names. A command whose usage offers --json but has no case below fails, so
# a new report gets its JSON checked. Also: the build's other programs answer --help with a usage line.
BYOCC=${1:-build/byocc}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset COLUMNS

M=tests/inputs/mnist.relay
A=tests/inputs/artifact.relay
NT=/usr/share/libonnx-testdata/data/node
SM=../shared/models

# verdict NAME WHY CONDITION...: "ok NAME" when the condition (a command) holds, else "FAIL NAME: WHY"
verdict() {
    name=$1 why=$2; shift 2
    if "$@"; then echo "ok $name"; else echo "FAIL $name: $why"; fi
}

# the overview's command lines: two spaces, then the name (usage lines go on at six, descriptions at eight)
commands=$("$BYOCC" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z_-]*\)\( .*\)\{0,1\}$/\1/p' |
    awk '!seen[$0]++' | tr '\n' ' ')
verdict cli_json_commands_listed "the overview lists only: $commands" \
    sh -c '[ "$(echo $1 | wc -w)" -ge 13 ] && echo " $1 " | grep -q " version "' - "$commands"

for c in $commands; do
    for h in --help -h; do
        "$BYOCC" $c $h > "$tmp/help.out" 2> "$tmp/help.err"
        rc=$?
        first=$(head -1 "$tmp/help.out")
        verdict "cli_json_help${h#-}_$c" "exit $rc, first line '$first', stderr '$(head -c 200 "$tmp/help.err")'" \
            sh -c '[ $1 -eq 0 ] && [ "$(echo "$2" | cut -d" " -f1-3)" = "usage: byocc $3" ] && [ ! -s "$4" ]' \
            - "$rc" "$first" "$c" "$tmp/help.err"
    done
    "$BYOCC" $c --no-such-option > "$tmp/bad.out" 2> "$tmp/bad.err"
    rc=$?
    verdict "cli_json_unknown_option_$c" "exit $rc, stderr '$(head -c 200 "$tmp/bad.err")'" \
        sh -c '[ $1 -eq 1 ] && grep -qF "$2: unknown or incomplete option '"'--no-such-option'"'" "$3" &&
               [ ! -s "$4" ]' - "$rc" "$c" "$tmp/bad.err" "$tmp/bad.out"
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
assert d['passes'] == ['simplify_inference', 'fold_constant'], d['passes']
assert [r['pass'] for r in d['ran']] == d['passes'], d['ran']
assert d['before']['ops']['nn.batch_norm'] == 2 and 'nn.batch_norm' not in d['after']['ops']
assert d['after']['ops']['multiply'] == 2 and 'def @main(' in d['module'] and d['output'] is None" \
    "$BYOCC" opt tests/inputs/conv_bn.relay --passes simplify_inference,fold_constant --json
json_case opt_output "assert d['output'].endswith('o.relay') and d['module'] is None
assert d['after']['ops']['nn.conv2d'] == 2" "$BYOCC" opt $M --passes infer_type -o "$tmp/o.relay" --json
json_case partition "$(has 'backends nodes search fq2i')
assert d['search'] is None and d['fq2i'] == [] and any(n['backend'] == 'npu' for n in d['nodes'])" \
    "$BYOCC" partition $M --backend npu --backend dsp --json
json_case partition_collage "assert d['search']['cost'] > 0 and d['nodes']" \
    "$BYOCC" partition $M --backend npu --backend dsp --strategy collage --json
CONV='is_op("nn.conv2d")(wildcard(), is_constant())'
json_case match "$(has 'file pattern matches count composite module')
assert d['count'] == len(d['matches']) == 2 and d['module'] is None
assert d['matches'][0] == {'node': '%6', 'op': 'nn.conv2d', 'region': ''}, d['matches']" \
    "$BYOCC" match $M --pattern "$CONV" --json
json_case match_partition "assert d['count'] == 2 and d['composite'] == 'conv'
assert 'Composite=\"conv\"' in d['module']" \
    "$BYOCC" match $M --pattern "$CONV" --partition conv --json
json_case run "$(has 'model kernels simulated_ms devices memory outputs')
assert d['devices'] and d['memory']['planned_bytes'] > 0" "$BYOCC" run $A --backend npu --backend dsp --json
# the outputs as run prints them: a sequence's element count, an empty optional, a tensor's type and its file
json_case run_outputs "assert d['outputs'] == [{'output': 'output_0', 'elements': 3},
    {'output': 'output_1', 'elements': None},
    {'output': 'output_2', 'type': '() int64', 'file': sys.argv[1].replace('run_outputs.json', 'seq/output_2.npy')}
], d['outputs']" "$BYOCC" run tests/lit/control_flow/sequence_outputs.relay --output-dir "$tmp/seq" --json
# --profile's table and the comparisons' lines in numbers: a float output within the tolerance, an integer one
# exactly, each against ONNX Runtime's file and the host-only run
D=tests/models/detector_nms
json_case run_profile_compare "$(has 'profile compare match')
assert len(d['profile']) == d['kernels'] and d['match'] is True
assert all({'kernel', 'name', 'device', 'partition', 'exec', 'ops', 'simulated_us', 'wall_us', 'runs'} <= set(k)
           for k in d['profile']) and all(k['runs'] > 0 for k in d['profile'])
assert [(c['output'], c['rule'], c['ok']) for c in d['compare']] == [('top_scores', 'tolerance', True),
    ('selected', 'exact', True)] * 2, d['compare']
assert d['compare'][0]['against'].endswith('ort_output_0.npy') and d['compare'][2]['against'] == 'the host-only run'
assert d['compare'][0]['max_abs_err'] <= d['compare'][0]['bound']" \
    "$BYOCC" run $D/model.onnx --backend npu --backend dsp --profile --compare-to $D --reference host --json
# a mismatch (ONNX Runtime's output plus 0.5): exit 4, and the document says which output and by how much
F=tests/models/fpn_resize
"$PY" -c "import numpy, sys; numpy.save(sys.argv[2], numpy.load(sys.argv[1]) + 0.5)" $F/ort_output_0.npy \
    "$tmp/off.npy" 2> /dev/null
"$BYOCC" run $F/model.onnx --input $F/input_0.npy --compare-to "$tmp/off.npy" --json > "$tmp/mismatch.json" 2> /dev/null
rc=$?
verdict cli_json_run_mismatch "exit $rc, document $(head -c 300 "$tmp/mismatch.json")" sh -c '[ $1 -eq 4 ] &&
    "$2" -c "import json, sys; d = json.load(open(sys.argv[1])); c = d[\"compare\"][0]
assert d[\"match\"] is False and c[\"ok\"] is False and c[\"rule\"] == \"tolerance\"
assert abs(c[\"max_abs_err\"] - 0.5) < 1e-3 and c[\"max_abs_err\"] > c[\"bound\"]" "$3"' \
    - "$rc" "$PY" "$tmp/mismatch.json"
json_case compile "assert {x['device'] for x in d['devices']} >= {'npu', 'dsp'}" \
    "$BYOCC" compile $A --backend npu --backend dsp -o "$tmp/a.byoc" --json
json_case report "$(has 'file bytes nodes partitions kernels plans')
assert d['file'].endswith('a.html') and d['bytes'] > 0 and d['nodes'] > 0 and d['plans'] == ['greedy', 'collage']" \
    "$BYOCC" report $A --backend npu --backend dsp -o "$tmp/a.html" --json
json_case explain "assert d[0]['frontend'] == 'onnx:conv' and d[0]['backend'] == 'npu' and d[0]['reason']" \
    "$BYOCC" explain "$tmp/a.byoc" conv --json
json_case backends "$(has 'backends presets')
assert {b['name'] for b in d['backends']} >= {'npu', 'dsp'} and d['presets'][0]['name']" "$BYOCC" backends --json
json_case info "$(has 'file functions nodes calls constants parameter_bytes ops inputs output')
assert d['nodes'] == 23 and d['ops']['nn.conv2d'] == 2 and d['inputs'][0]['name'] == 'x'" "$BYOCC" info $M --json
json_case info_byoc "assert d['devices'] and d['memory']['planned_bytes'] > 0" "$BYOCC" info "$tmp/a.byoc" --json
json_case ops "assert {o['name'] for o in d} >= {'nn.conv2d', 'add'} and all('pattern' in o for o in d)" \
    "$BYOCC" ops --json
json_case passes "$(has 'passes config_keys')
assert 'fuse_ops' in [p['name'] for p in d['passes']]
assert 'fuse_ops.max_depth' in [k['name'] for k in d['config_keys']]" "$BYOCC" passes --json
json_case version "$(has 'version headers build online_cores cpu_features')
assert d['headers']['byoc.h'] == d['version'] and d['build']['compiler'] and d['online_cores'] >= 1" \
    "$BYOCC" version --json
if [ -d "$NT/test_relu" ]; then
    json_case import "$(has 'file opset ir_version producer onnx_nodes evaluated_at_import inputs outputs relay')
$(has 'warnings evaluated output module')
assert d['inputs'] == [{'name': 'x', 'type': 'Tensor[(3, 4, 5), float32]'}] and d['outputs'][0]['name'] == 'y'
assert d['onnx_nodes'] == 1 and d['relay']['ops'] == {'nn.relu': 1} and 'nn.relu(%x' in d['module']" \
        "$BYOCC" import $NT/test_relu/model.onnx --json
    # strings are escaped, and bytes that are not UTF-8 (here in a file name) become U+FFFD: the document parses
    odd=$(printf '%s/q"uo\\te\033\377.onnx' "$tmp")
    cp $NT/test_relu/model.onnx "$odd"
    json_case escaped_strings "assert d['file'].endswith('/q\"uo\\\\te\x1b\ufffd.onnx'), d['file']" \
        "$BYOCC" import "$odd" --json
    # the library's own writers too (the placement report, the trace): a node named with bytes that are not
    # UTF-8 (the name's 4 bytes replaced in place, so the protobuf lengths hold) gives documents that parse
    "$PY" -c "import onnx, sys
m = onnx.load(sys.argv[1]); m.graph.node[0].name = 'NAME'
open(sys.argv[2], 'wb').write(m.SerializeToString().replace(b'NAME', b'n\xff\xc3('))" \
        $NT/test_relu/model.onnx "$tmp/badname.onnx"
    json_case placement_utf8 "assert d['nodes'][0]['source'] == 'onnx:n\ufffd\ufffd(', d['nodes'][0]" \
        "$BYOCC" partition "$tmp/badname.onnx" --json
    "$BYOCC" run "$tmp/badname.onnx" --trace "$tmp/badname_trace.json" > /dev/null 2>&1
    verdict cli_json_trace_utf8 "the trace of a node named with non-UTF-8 bytes does not parse" \
        "$PY" -c "import json, sys; t = json.load(open(sys.argv[1], encoding='utf-8'))
assert any('\ufffd' in json.dumps(e, ensure_ascii=False) for e in t['traceEvents'])" "$tmp/badname_trace.json"
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
    case " $checked " in
    *" $c "*) ;;
    *) echo "FAIL cli_json_case_$c: byocc $c offers --json and tests/cli_json.sh has no case for it" ;;
    esac
done

# where --emit exists, --json is --emit json: the same document
same_document() { # NAME command... (run twice: with --emit json, then with --json)
    name=$1; shift
    "$@" --emit json > "$tmp/emit.json" 2>&1
    "$@" --json > "$tmp/flag.json" 2>&1
    verdict "$name" "the documents differ" sh -c '[ -s "$1" ] && cmp -s "$1" "$2"' - "$tmp/emit.json" "$tmp/flag.json"
}
same_document cli_json_is_emit_json_partition "$BYOCC" partition $M --backend npu
same_document cli_json_is_emit_json_info "$BYOCC" info $M
"$BYOCC" opt $M --passes infer_type --emit json > "$tmp/emit.json" 2>&1
verdict cli_json_is_emit_json_opt "$(head -c 200 "$tmp/emit.json")" \
    "$PY" -c 'import json, sys; assert "def @main(" in json.load(open(sys.argv[1]))["module"]' "$tmp/emit.json"
# the human lines move to standard error; --json beside another --emit of a one-format command is refused
"$BYOCC" run $M --json > "$tmp/run.json" 2> "$tmp/run.err"
verdict cli_json_human_to_stderr "stdout '$(head -c 100 "$tmp/run.json")', stderr '$(head -c 99 "$tmp/run.err")'" \
    sh -c '"$1" -m json.tool < "$2" > /dev/null 2>&1 && grep -q "^output 0 output_0: (1, 10) float32" "$3"' \
    - "$PY" "$tmp/run.json" "$tmp/run.err"
"$BYOCC" opt $M --passes infer_type --json --emit relay > "$tmp/c.out" 2>&1
rc=$?
verdict cli_json_conflicting_emit "exit $rc: $(head -c 200 "$tmp/c.out")" sh -c \
    '[ $1 -eq 1 ] && grep -qF "opt: --json is --emit json; it does not go with --emit '"'relay'"'" "$2"' \
    - "$rc" "$tmp/c.out"
"$BYOCC" run $M --emit csv --json > "$tmp/c.out" 2>&1
rc=$?
verdict cli_json_one_document "exit $rc: $(head -c 200 "$tmp/c.out")" sh -c \
    '[ $1 -eq 1 ] && grep -qF "run: --emit '"'csv'"' and another --emit (or --json) both write standard output" "$2"' \
    - "$rc" "$tmp/c.out"
"$BYOCC" version --json=yes > "$tmp/c.out" 2>&1
rc=$?
verdict cli_json_is_a_flag "exit $rc: $(head -c 200 "$tmp/c.out")" sh -c \
    '[ $1 -eq 1 ] && grep -qF "version: unknown or incomplete option '"'--json=yes'"'" "$2"' - "$rc" "$tmp/c.out"

# the other programs of the build directory take positional paths: --help is a usage line, never an output file
bin=$(dirname "$BYOCC")
for t in onnx_node_tests bench bench_kernels bench_devices bench_collage; do
    [ -x "$bin/$t" ] || continue
    prog=$(cd "$bin" && pwd)/$t
    mkdir -p "$tmp/run_$t"
    (cd "$tmp/run_$t" && "$prog" --help > out.txt 2> err.txt)
    rc=$?
    files=$(ls "$tmp/run_$t" | tr '\n' ' ')
    verdict "cli_json_tool_help_$t" "exit $rc, '$(head -c 200 "$tmp/run_$t/out.txt")', files: $files" \
        sh -c '[ $1 -eq 0 ] && grep -q "^usage: $2 " "$3/out.txt" && [ ! -e "$3/--help" ]' - "$rc" "$t" "$tmp/run_$t"
done
