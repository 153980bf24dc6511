#!/bin/sh
# The control-flow models of tests/cflow (built by tests/cflow/make_models.py: an If chosen by its input, a greedy
# decoder Loop with a data-dependent trip count, a Scan RNN, an If inside a Loop; each input set its own
# directory, so both branches and both ways a decoder stops are taken), against ONNX Runtime's outputs
# (ort_output_K.npy beside the inputs; floats within 1e-4 x max(1, max|ref|), integers exactly, as tests/models.sh):
#   host:         byocc run on the host runtime;
#   import_round_trip: byocc import's .relay (and .weights) run the same;
#   greedy, collage: partitioned across npu + dsp + host, ONNX Runtime's outputs and the host-only run's;
#   collage_not_worse_than_greedy: the searched plan costs no more than the greedy one;
#   artifact_host, artifact_greedy, artifact_collage: compiled to a .byoc, loaded and run: ONNX Runtime's
#                 outputs, and byte for byte those of the same compile run on the fly; its source map lists every
#                 ONNX node once, those of the bodies included, and byocc explain finds a node inside a body.
# The reference evaluator's outputs on the same files are checked by build/test_cflow_onnx.
# While byoc_sim.h refuses to lower control flow ("does not lower to a kernel schedule yet"), the modes that run
# the runtime print one "skipped" line per model saying so; they run by themselves once it lowers.
# One "ok NAME" / "FAIL NAME: why" line per check.
BYOCC=${1:-build/byocc}
DIR=${CFLOW_MODELS:-tests/cflow}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() { # label command...
    label=$1; shift
    if "$@" > "$tmp/out" 2>&1; then echo "ok $label"
    else echo "FAIL $label: $(grep -E 'MISMATCH|error' "$tmp/out" | head -4 | tr '\n' ' ')"; fi
}

# searched <= greedy, read off the statistics line
collage_not_worse() { # model
    "$BYOCC" partition "$1" --backend npu --backend dsp --strategy collage > "$tmp/collage" 2>&1 || { cat "$tmp/collage"; return 1; }
    awk '/^collage: plan/ { for (i = 1; i < NF; i++) { if ($i == "plan") p = $(i + 1); if ($i == "greedy") g = $(i + 1) } found = 1 }
         END { if (!found || p + 0 > g + 0) { print "error: searched " p " ms, greedy " g " ms"; exit 1 } }' "$tmp/collage"
}

# the imported text and weights run as the model does
import_round_trip() { # model ref-dir inputs...
    model=$1; ref=$2; shift 2
    "$BYOCC" import "$model" "$@" -o "$tmp/import.relay" || return 1
    "$BYOCC" run "$tmp/import.relay" "$@" --compare-to "$ref"
}

# every ONNX node once in the source map, the nodes of If, Loop and Scan bodies included (the import's count
# covers subgraphs): distinct names, each with IR ops or a removal reason
source_map_complete() { # model.onnx map.json
    "$BYOCC" import "$1" -o "$tmp/import.relay" > "$tmp/import.log" 2>&1 || { cat "$tmp/import.log"; return 1; }
    nodes=$(sed -n 's/.*opset [0-9]*, \([0-9]*\) nodes.*/\1/p' "$tmp/import.log")
    awk -v want="$nodes" -F'"' '/^\{"frontend":/ { n++; if (seen[$4]++) dup = dup " " $4; if ($0 !~ /"removed":"/ && $0 !~ /"ir":\[\{/) bare = bare " " $4 }
        END { if (n != want || dup != "" || bare != "") { print "error: " n " nodes in the map, " want " in the graph; repeated:" dup "; without ops or reason:" bare; exit 1 } }' "$2"
}

# a node inside a body (of a branch, a loop, a scan; the If inside the Loop for loop_if) found by byocc explain
body_node() { # case name: "NAME OP"
    case $1 in
    if_conv_*) echo "t1 Relu" ;;
    decoder_*) echo "logits Add" ;;
    scan_*) echo "pre Sum" ;;
    loop_if_*) echo "grown Add" ;;
    esac
}
explains_body_node() { # artifact case
    # shellcheck disable=SC2046
    set -- "$1" $(body_node "$2")
    [ -n "$2" ] || return 0
    "$BYOCC" explain "$1" "$2" > "$tmp/explain" 2>&1 && grep -qF "onnx:$2 ($3)" "$tmp/explain" || {
        echo "error: byocc explain $2: $(head -2 "$tmp/explain" | tr '\n' ' ')"; return 1; }
}

# compile to a .byoc, run it: ONNX Runtime's outputs and the on-the-fly run's, byte for byte; its source map
# complete, and a node of a body explained
artifact() { # model ref-dir host|greedy|collage inputs...
    model=$1; ref=$2; strategy=$3; shift 3
    place=""
    [ "$strategy" = host ] || place="--backend npu --backend dsp --strategy $strategy"
    # shellcheck disable=SC2086
    "$BYOCC" compile "$model" $place "$@" -o "$tmp/a.byoc" --source-map "$tmp/a.json" || return 1
    source_map_complete "$model" "$tmp/a.json" || return 1
    explains_body_node "$tmp/a.byoc" "$(basename "$(dirname "$model")")" || return 1
    "$BYOCC" run "$tmp/a.byoc" "$@" --compare-to "$ref" || return 1
    rm -rf "$tmp/fly" "$tmp/art" && mkdir "$tmp/fly" "$tmp/art" || return 1
    "$BYOCC" run "$tmp/a.byoc" "$@" --output-dir "$tmp/art" || return 1
    # shellcheck disable=SC2086
    "$BYOCC" run "$model" $place "$@" --output-dir "$tmp/fly" || return 1
    for f in "$tmp/fly"/*.npy; do
        cmp -s "$f" "$tmp/art/$(basename "$f")" || { echo "error: $(basename "$f") from the artifact differs from the on-the-fly run"; return 1; }
    done
}

found=0
skipped=""
for dir in "$DIR"/*/; do
    dir=${dir%/}
    name=$(basename "$dir")
    [ -f "$dir/model.onnx" ] && [ -f "$dir/ort_output_0.npy" ] || continue
    found=$((found + 1))
    model=$dir/model.onnx
    inputs=""
    k=0
    while [ -f "$dir/input_$k.npy" ]; do inputs="$inputs --input $dir/input_$k.npy"; k=$((k + 1)); done
    check "cflow:$name:collage_not_worse_than_greedy" collage_not_worse "$model"
    # shellcheck disable=SC2086
    if "$BYOCC" run "$model" $inputs > "$tmp/probe" 2>&1; then :
    elif grep -q "does not lower to a kernel schedule yet" "$tmp/probe"; then
        skipped="$skipped $name"
        continue
    fi
    # shellcheck disable=SC2086
    check "cflow:$name:host" "$BYOCC" run "$model" $inputs --compare-to "$dir"
    # shellcheck disable=SC2086
    check "cflow:$name:threads_1_2_same_bytes" sh tests/threads_cmp.sh "$BYOCC" "$model" $inputs
    # shellcheck disable=SC2086
    check "cflow:$name:import_round_trip" import_round_trip "$model" "$dir" $inputs
    for strategy in greedy collage; do
        # shellcheck disable=SC2086
        check "cflow:$name:$strategy" "$BYOCC" run "$model" $inputs --backend npu --backend dsp --strategy $strategy \
            --reference host --compare-to "$dir"
    done
    for strategy in host greedy collage; do
        # shellcheck disable=SC2086
        check "cflow:$name:artifact_$strategy" artifact "$model" "$dir" $strategy $inputs
    done
done
[ -z "$skipped" ] || echo "skipped cflow models host, import_round_trip, greedy, collage and artifact_{host,greedy,collage}" \
    "for$skipped: byocc run refuses control flow (byoc_sim.h does not lower it to a kernel schedule yet)"
[ "$found" -gt 0 ] || echo "FAIL cflow: no model with ONNX Runtime outputs in $DIR"
