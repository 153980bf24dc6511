#!/bin/sh
# Real third-party models: each model in $BYOC_MODELS (default ../shared/models) is imported, compiled
# and run on the host runtime by `byocc run`, and every output must match ONNX Runtime's
# (ort_output_K.npy): floats within 1e-4 x max(1, max|ref|), integers exactly, classifiers by argmax.
# The imported .relay (with its .weights) must give the same outputs. mnist8 must also match the model
# zoo's own expected_0.npy, and mnist8_zoo each of its .pb test sets.
# Partitioned across the simulated npu, dsp and host (`--backend npu --backend dsp --reference host`),
# every model must match its host-only run and ONNX Runtime's outputs; zoo_light's graphs (seeded
# inputs, no reference outputs) must match their host-only runs.
# The Collage search (`--strategy collage`) places every model too: its outputs must match (ONNX Runtime's
# and the host-only run's), and its plan may cost no more than the greedy plan under the same device
# models (the statistics line "collage: plan X ms against greedy Y ms").
# The artifact: each model compiled to a .byoc (greedy and collage, npu + dsp + host), then loaded and run by
# `byocc run MODEL.byoc`, must give ONNX Runtime's outputs and byte for byte those of the same compile run on
# the fly; its source map (--source-map) must list every ONNX node of the graph exactly once, each with its IR
# ops or the reason it has none (the node count comes from the import's own count of the graph).
# Each model also runs at 1 and 2 threads (tests/threads_cmp.sh): the outputs must be the same bytes.
# One "ok NAME" / "FAIL NAME: why" line per check; without the models, one line saying why it skipped.
BYOCC=${1:-build/byocc}
MODELS=${BYOC_MODELS:-../shared/models}
if [ ! -d "$MODELS" ]; then
    echo "skipped real-model tests: $MODELS is not there (BYOC_MODELS=DIR points elsewhere)"
    exit 0
fi
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

# every ONNX node once in the source map: as many node lines as the graph has nodes, distinct names, each
# with IR ops or a removal reason
source_map_complete() { # model.onnx map.json
    "$BYOCC" import "$1" -o "$tmp/import.relay" > "$tmp/import.log" 2>&1 || { cat "$tmp/import.log"; return 1; }
    nodes=$(sed -n 's/.*opset [0-9]*, \([0-9]*\) nodes.*/\1/p' "$tmp/import.log")
    awk -v want="$nodes" -F'"' '/^\{"frontend":/ { n++; if (seen[$4]++) dup = dup " " $4; if ($0 !~ /"removed":"/ && $0 !~ /"ir":\[\{/) bare = bare " " $4 }
        END { if (n != want || dup != "" || bare != "") { print "error: " n " nodes in the map, " want " in the graph; repeated:" dup "; without ops or reason:" bare; exit 1 } }' "$2"
}

# compile to a .byoc, run it: ONNX Runtime's outputs (when there are any) and the on-the-fly run's, byte for byte
artifact_round_trip() { # model.onnx reference-dir|"" strategy inputs...
    model=$1; ref=$2; strategy=$3; shift 3
    "$BYOCC" compile "$model" --backend npu --backend dsp --strategy "$strategy" "$@" -o "$tmp/a.byoc" --source-map "$tmp/a.json" || return 1
    if [ -n "$ref" ]; then "$BYOCC" run "$tmp/a.byoc" "$@" --compare-to "$ref" || return 1; fi
    rm -rf "$tmp/fly" "$tmp/art" && mkdir "$tmp/fly" "$tmp/art" || return 1
    "$BYOCC" run "$tmp/a.byoc" "$@" --output-dir "$tmp/art" || return 1
    "$BYOCC" run "$model" --backend npu --backend dsp --strategy "$strategy" "$@" --output-dir "$tmp/fly" || return 1
    for f in "$tmp/fly"/*.npy; do
        cmp -s "$f" "$tmp/art/$(basename "$f")" || { echo "error: $(basename "$f") from the artifact differs from the on-the-fly run"; return 1; }
    done
    source_map_complete "$model" "$tmp/a.json"
}

for dir in "$MODELS"/*/; do
    dir=${dir%/}
    name=$(basename "$dir")
    [ -f "$dir/model.onnx" ] || continue
    if [ -f "$dir/input_0.npy" ]; then
        inputs=""
        k=0
        while [ -f "$dir/input_$k.npy" ]; do inputs="$inputs --input $dir/input_$k.npy"; k=$((k + 1)); done
        # shellcheck disable=SC2086
        check "model:$name" "$BYOCC" run "$dir/model.onnx" $inputs --compare-to "$dir"
        # shellcheck disable=SC2086
        check "model:$name:threads_1_2_same_bytes" sh tests/threads_cmp.sh "$BYOCC" "$dir/model.onnx" $inputs
        # the imported text and weights run the same: byocc import, then run the .relay
        # shellcheck disable=SC2086
        if "$BYOCC" import "$dir/model.onnx" $inputs -o "$tmp/$name.relay" > "$tmp/import.log" 2>&1; then
            # shellcheck disable=SC2086
            check "model:$name:import_round_trip" "$BYOCC" run "$tmp/$name.relay" $inputs --compare-to "$dir"
        else
            echo "FAIL model:$name:import_round_trip: $(tail -1 "$tmp/import.log")"
        fi
        # shellcheck disable=SC2086
        check "model:$name:npu_dsp_host" "$BYOCC" run "$dir/model.onnx" $inputs --backend npu --backend dsp --reference host --compare-to "$dir"
        # shellcheck disable=SC2086
        check "model:$name:collage" "$BYOCC" run "$dir/model.onnx" $inputs --backend npu --backend dsp --strategy collage --reference host --compare-to "$dir"
        check "model:$name:collage_not_worse_than_greedy" collage_not_worse "$dir/model.onnx"
        # shellcheck disable=SC2086
        check "model:$name:artifact" artifact_round_trip "$dir/model.onnx" "$dir" greedy $inputs
        # shellcheck disable=SC2086
        check "model:$name:artifact_collage" artifact_round_trip "$dir/model.onnx" "$dir" collage $inputs
        if [ -f "$dir/expected_0.npy" ]; then
            # shellcheck disable=SC2086
            check "model:$name:zoo_expected" "$BYOCC" run "$dir/model.onnx" $inputs --compare-to "$dir/expected_0.npy"
        fi
    fi
    for set in "$dir"/test_data_set_*; do
        [ -f "$set/input_0.pb" ] || continue
        check "model:$name:$(basename "$set")" "$BYOCC" run "$dir/model.onnx" --input "$set/input_0.pb" --compare-to "$set/output_0.pb"
    done
done
for model in "$MODELS"/zoo_light/*.onnx; do
    [ -f "$model" ] || continue
    check "model:zoo_light/$(basename "$model" .onnx):npu_dsp_host" "$BYOCC" run "$model" --backend npu --backend dsp --reference host
    check "model:zoo_light/$(basename "$model" .onnx):threads_1_2_same_bytes" sh tests/threads_cmp.sh "$BYOCC" "$model"
    check "model:zoo_light/$(basename "$model" .onnx):collage" "$BYOCC" run "$model" --backend npu --backend dsp --strategy collage --reference host
    check "model:zoo_light/$(basename "$model" .onnx):collage_not_worse_than_greedy" collage_not_worse "$model"
    check "model:zoo_light/$(basename "$model" .onnx):artifact" artifact_round_trip "$model" "" greedy
done
