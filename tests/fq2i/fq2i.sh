#!/bin/sh
# QDQ models (tests/fq2i/make_qdq.py: the form ONNX Runtime's quantize_static writes) through
# FakeQuantizationToInteger: every integer output must equal ONNX Runtime's (ort_output_K.npy, made by
# tools/ort_reference.js with all graph optimizations, so ORT runs its fused QLinear kernels) on the host
# (float outputs behind a final DequantizeLinear within 1e-6: equal integers give equal floats); placed greedily
# on the simulated npu and dsp, and with --strategy collage, within 1 LSB (the devices' requantize is fixed point,
# as TFLite Micro's and Ethos-U's: README "The integer datapath"). qdq_mnist8_{u8,s8} are
# ../shared/models/mnist8 quantized by `byocc quantize --calibrate DIR --per-channel [--activation-type int8]`
# (the qtool branch). A compiled .byoc of a QDQ model does not load back yet (its memory plan differs on
# reload, on main too), so that check is not here.
# One "ok NAME" / "FAIL NAME: why" line per check.
BYOCC=${1:-build/byocc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # label command...
    label=$1; shift
    if "$@" > "$tmp/out" 2>&1; then echo "ok $label"
    else echo "FAIL $label: $(grep -E 'MISMATCH|error' "$tmp/out" | head -4 | tr '\n' ' ')"; fi
}
for dir in tests/fq2i/qdq_*/; do
    name=$(basename "$dir")
    model=$dir/model.onnx
    check "fq2i:$name:host" "$BYOCC" run "$model" --compare-to "$dir" --tolerance 1e-6
    check "fq2i:$name:greedy" "$BYOCC" run "$model" --backend npu --backend dsp --compare-to "$dir" --lsb 1
    check "fq2i:$name:collage" "$BYOCC" run "$model" --backend npu --backend dsp --strategy collage --compare-to "$dir" --lsb 1
done
