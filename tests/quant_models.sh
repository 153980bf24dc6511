#!/bin/sh
# Quantized real models end to end: mnist8, squeezenet_rand, ultraface_rfb320 and super_resolution quantized by
# `byocc quantize` (tools/quantize_models.sh: per channel, calibrated on their inputs), with ONNX Runtime's
# outputs of the quantized files as the reference (ORT fuses their QDQ groups into its integer kernels).
#   host:     byocc's outputs equal ONNX Runtime's (FakeQuantizationToInteger makes the same integer groups with
#             ORT's arithmetic; within 1e-6 relative: equal integers dequantize to equal floats);
#   greedy and collage on npu + dsp: the devices requantize in fixed point (README "The integer datapath":
#             within 1 LSB of ORT's float requantize per layer, test_qdevices), so a device run must equal,
#             byte for byte, the host run with --fixed-point-requantize (the same arithmetic on the host
#             kernels); against ONNX Runtime, classifiers keep their class and the drift is printed;
#   artifact: compiled to a .byoc (host only, greedy, collage), loaded and run: the host-only one gives ONNX
#             Runtime's outputs, the device ones byte for byte the same compile run on the fly;
#   explain:  the source map names, for every DequantizeLinear and QuantizeLinear of the file, the IR ops it
#             became or the ONNX nodes whose qnn ops it was merged into (or that it was a constant folded at
#             import: a quantized constant operand); byocc explain finds one of each;
#   mnist8:   the quantized model classifies the zoo's three test sets (mnist8_zoo) as their expected outputs.
# One "ok NAME" / "FAIL NAME: why" line per check; without the models or ONNX Runtime one line says why it skipped.
BYOCC=${1:-build/byocc}
MODELS=${BYOC_MODELS:-../shared/models}
NODE_PATH=${ORT_NODE_PATH:-build/ort/node_modules}
export NODE_PATH
if [ ! -d "$MODELS/mnist8" ]; then
    echo "skipped quantized-model tests: $MODELS is not there (BYOC_MODELS=DIR points elsewhere)"
    exit 0
fi
if ! node -e 'require("onnxruntime-node")' > /dev/null 2>&1; then
    echo "skipped quantized-model tests: onnxruntime-node is not in $NODE_PATH (ORT_NODE_PATH=DIR points elsewhere)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # label command...
    label=$1; shift
    if "$@" > "$tmp/out" 2>&1; then echo "ok $label"
    else echo "FAIL $label: $(grep -E 'MISMATCH|error' "$tmp/out" | head -4 | tr '\n' ' ')"; fi
}
sh tools/quantize_models.sh "$BYOCC" "$MODELS" "$tmp/q" | sed -n 's/^FAIL /FAIL quantize:/p'

# a device run equals the host run in the devices' arithmetic; against ORT: the class, and the drift printed
on_devices() { # model.onnx ref-dir strategy
    "$BYOCC" run "$1" --input "$2/input_0.npy" --backend npu --backend dsp --strategy "$3" --fixed-point-requantize \
        --reference host --tolerance 0 || return 1
    "$BYOCC" run "$1" --input "$2/input_0.npy" --backend npu --backend dsp --strategy "$3" --compare-to "$2" \
        --tolerance 1 > "$tmp/drift" 2>&1
    grep -q "MISMATCH" "$tmp/drift" && { grep "MISMATCH" "$tmp/drift"; return 1; }
    return 0
}
drift() { # model.onnx ref-dir strategy: the largest difference from ONNX Runtime, in the output's units
    "$BYOCC" run "$1" --input "$2/input_0.npy" --backend npu --backend dsp --strategy "$3" --compare-to "$2" \
        --tolerance 1 2>/dev/null | sed -n 's/^ *\([^ ]*\) .*max abs err \([^ ]*\) .*/\1 \2/p' | paste -sd, - |
        sed 's/,/, /g'
}
artifact() { # model.onnx ref-dir strategy|host
    if [ "$3" = host ]; then
        "$BYOCC" compile "$1" -o "$tmp/a.byoc" --source-map "$tmp/a.json" || return 1
        "$BYOCC" run "$tmp/a.byoc" --input "$2/input_0.npy" --compare-to "$2" --tolerance 1e-6 || return 1
    else
        "$BYOCC" compile "$1" --backend npu --backend dsp --strategy "$3" -o "$tmp/a.byoc" --source-map "$tmp/a.json" ||
            return 1
        rm -rf "$tmp/fly" "$tmp/art" && mkdir "$tmp/fly" "$tmp/art" || return 1
        "$BYOCC" run "$tmp/a.byoc" --input "$2/input_0.npy" --output-dir "$tmp/art" || return 1
        "$BYOCC" run "$1" --input "$2/input_0.npy" --backend npu --backend dsp --strategy "$3" --output-dir "$tmp/fly" ||
            return 1
        for f in "$tmp/fly"/*.npy; do
            cmp -s "$f" "$tmp/art/$(basename "$f")" || { echo "error: $(basename "$f") from the artifact differs"; return 1; }
        done
    fi
}
# every QDQ node of the file in the source map with IR ops or the nodes it merged into; explain finds them
qdq_explained() { # map.json artifact
    bad=$(awk -F'"' '/^\{"frontend":/ && ($8 == "DequantizeLinear" || $8 == "QuantizeLinear") {
            n++; if ($0 !~ /"ir":\[\{/ && $0 !~ /merged by FakeQuantizationToInteger into the qnn ops of onnx:/ &&
                $0 !~ /"removed":"folded at import/) print $4 }
        END { if (!n) print "no DequantizeLinear or QuantizeLinear in the map" }' "$1")
    [ -z "$bad" ] || { echo "error: QDQ nodes without ops or a group: $(echo "$bad" | head -3 | tr '\n' ' ')"; return 1; }
    for op in DequantizeLinear QuantizeLinear; do
        node=$(awk -F'"' -v op="$op" '/^\{"frontend":/ && $8 == op { print $4; exit }' "$1")
        "$BYOCC" explain "$2" "$node" > "$tmp/explain" 2>&1 && grep -qF "$node ($op)" "$tmp/explain" || {
            echo "error: byocc explain $node: $(head -2 "$tmp/explain" | tr '\n' ' ')"; return 1; }
    done
}

for dir in "$tmp"/q/*/; do
    dir=${dir%/}
    name=$(basename "$dir")
    [ -f "$dir/ort_output_0.npy" ] || continue
    model=$dir/model.onnx
    check "quantized:$name:host" "$BYOCC" run "$model" --input "$dir/input_0.npy" --compare-to "$dir" --tolerance 1e-6
    check "quantized:$name:threads_1_2_same_bytes" sh tests/threads_cmp.sh "$BYOCC" "$model" --input "$dir/input_0.npy"
    for strategy in greedy collage; do
        check "quantized:$name:$strategy (largest difference from ONNX Runtime: $(drift "$model" "$dir" $strategy))" \
            on_devices "$model" "$dir" $strategy
    done
    check "quantized:$name:artifact_host" artifact "$model" "$dir" host
    check "quantized:$name:source_map_names_qdq_nodes" qdq_explained "$tmp/a.json" "$tmp/a.byoc"
    check "quantized:$name:artifact_greedy" artifact "$model" "$dir" greedy
    check "quantized:$name:artifact_collage" artifact "$model" "$dir" collage
done
for set in "$MODELS"/mnist8_zoo/test_data_set_*; do
    [ -f "$set/input_0.pb" ] && [ -f "$tmp/q/mnist8/model.onnx" ] || continue
    # the class only: --tolerance 10 bounds nothing a classifier's scores reach
    check "quantized:mnist8:zoo_$(basename "$set")" "$BYOCC" run "$tmp/q/mnist8/model.onnx" --input "$set/input_0.pb" \
        --compare-to "$set/output_0.pb" --tolerance 10
done
