#!/bin/sh
# ONNX Runtime's com.microsoft QOperator ops (tests/quant/qops_*: one small model per case, built by
# tests/quant/make_qops.py, with ONNX Runtime's outputs beside its inputs): byocc imports and runs each on the
# host and every integer must equal ONNX Runtime's. One "ok NAME" / "FAIL NAME: why" line per model.
BYOCC=${1:-build/byocc}
for dir in tests/quant/qops_*/; do
    dir=${dir%/}
    name=$(basename "$dir")
    inputs=""
    k=0
    while [ -f "$dir/input_$k.npy" ]; do inputs="$inputs --input $dir/input_$k.npy"; k=$((k + 1)); done
    # shellcheck disable=SC2086
    if out=$("$BYOCC" run "$dir/model.onnx" $inputs --compare-to "$dir" 2>&1); then echo "ok quant:$name"
    else echo "FAIL quant:$name: $(echo "$out" | grep -E 'MISMATCH|error' | head -3 | tr '\n' ' ')"; fi
done
