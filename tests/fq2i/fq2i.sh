#!/bin/sh
# QDQ models (tests/fq2i/make_qdq.py: the form ONNX Runtime's quantize_static writes) through
# FakeQuantizationToInteger: every integer output must equal ONNX Runtime's (ort_output_K.npy, made by
# tools/ort_reference.js with all graph optimizations, so ORT runs its fused QLinear kernels) on the host
# (float outputs behind a final DequantizeLinear within 1e-6: equal integers give equal floats); placed greedily
# on the simulated npu and dsp, and with --strategy collage, within 1 LSB (the devices' requantize is fixed point,
# as TFLite Micro's and Ethos-U's: README "The integer datapath"). qdq_mnist8_{u8,s8} are
# ../shared/models/mnist8 quantized by `byocc quantize --calibrate DIR --per-channel [--activation-type int8]`
# (the qtool branch). Each also compiles to a .byoc that loads back: host only, its outputs as ORT's; on the
# devices (greedy and collage), its outputs as the on-the-fly run's, byte for byte.
# One "ok NAME" / "FAIL NAME: why" line per check.
BYOCC=${1:-build/byocc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # label command...
    label=$1; shift
    if "$@" > "$tmp/out" 2>&1; then echo "ok $label"
    else echo "FAIL $label: $(grep -E 'MISMATCH|error' "$tmp/out" | head -4 | tr '\n' ' ')"; fi
}
artifact() { # model.onnx reference-dir [--backend B... --strategy S]: the .byoc runs as the model compiled now
    model=$1; ref=$2; shift 2
    "$BYOCC" compile "$model" "$@" -o "$tmp/a.byoc" || return 1
    if [ $# -eq 0 ]; then "$BYOCC" run "$tmp/a.byoc" --compare-to "$ref" --tolerance 1e-6; return; fi
    rm -rf "$tmp/fly" "$tmp/art" && mkdir "$tmp/fly" "$tmp/art" || return 1
    inputs="" k=0
    while [ -f "$ref/input_$k.npy" ]; do inputs="$inputs --input $ref/input_$k.npy"; k=$((k + 1)); done
    # shellcheck disable=SC2086
    "$BYOCC" run "$tmp/a.byoc" $inputs --output-dir "$tmp/art" || return 1
    # shellcheck disable=SC2086
    "$BYOCC" run "$model" "$@" $inputs --output-dir "$tmp/fly" || return 1
    for f in "$tmp/fly"/*.npy; do
        cmp -s "$f" "$tmp/art/$(basename "$f")" || { echo "error: $(basename "$f") differs on the fly"; return 1; }
    done
}
for dir in tests/fq2i/qdq_*/; do
    name=$(basename "$dir")
    model=$dir/model.onnx
    check "fq2i:$name:host" "$BYOCC" run "$model" --compare-to "$dir" --tolerance 1e-6
    check "fq2i:$name:greedy" "$BYOCC" run "$model" --backend npu --backend dsp --compare-to "$dir" --lsb 1
    check "fq2i:$name:collage" "$BYOCC" run "$model" --backend npu --backend dsp --strategy collage --compare-to "$dir" --lsb 1
    check "fq2i:$name:artifact" artifact "$model" "$dir"
    check "fq2i:$name:artifact_greedy" artifact "$model" "$dir" --backend npu --backend dsp
    check "fq2i:$name:artifact_collage" artifact "$model" "$dir" --backend npu --backend dsp --strategy collage
done
