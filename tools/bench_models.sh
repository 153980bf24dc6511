#!/bin/sh
# End-to-end latency of every shared model and every model the tests build (tests/models): byocc's host
# runtime against ONNX Runtime, one thread each, measured side by side in one run (medians).
# Usage: tools/bench_models.sh BYOCC RUNS OUT.json; BYOC_MODELS is a space-separated list of model roots.
# Prints a markdown table; writes the same rows to OUT.json.
BYOCC=$1 RUNS=${2:-20} OUT=${3:-build/bench_models.json}
MODELS=${BYOC_MODELS:-../shared/models tests/models}
ORT_DIR=${ORT_DIR:-build/ort}
roots=""
for root in $MODELS; do
    if [ -d "$root" ]; then roots="$roots $root"; else echo "models: skipped $root (not there; BYOC_MODELS lists the roots)"; fi
done
[ -n "$roots" ] || exit 0
if [ ! -d "$ORT_DIR/node_modules/onnxruntime-node" ]; then
    mkdir -p "$ORT_DIR"
    if ! npm install --prefix "$ORT_DIR" onnxruntime-node --onnxruntime-node-install=skip > "$ORT_DIR/npm.log" 2>&1; then
        echo "models: onnxruntime-node did not install (see $ORT_DIR/npm.log); byocc times only"
    fi
fi
echo "| model | byocc ms (median) | ONNX Runtime ms (median) | byocc / ORT |"
echo "|---|---:|---:|---:|"
echo "[" > "$OUT"
first=1
for dir in $(for root in $roots; do ls -d "$root"/*/; done); do
    dir=${dir%/}
    name=$(basename "$dir")
    [ -f "$dir/model.onnx" ] && [ -f "$dir/input_0.npy" ] || continue
    inputs=""
    k=0
    while [ -f "$dir/input_$k.npy" ]; do inputs="$inputs --input $dir/input_$k.npy"; k=$((k + 1)); done
    # shellcheck disable=SC2086
    ours=$("$BYOCC" run "$dir/model.onnx" $inputs --repeat "$RUNS" 2>/dev/null | sed -n 's/^time: .* p50 \([0-9.]*\) ms.*/\1/p')
    ort=$(NODE_PATH="$ORT_DIR/node_modules" node tools/ort_bench.js "$RUNS" "$dir" 2>/dev/null | sed -n 's/.*"ort_ms_median":\([0-9.e-]*\).*/\1/p')
    ratio=$(awk -v a="${ours:-0}" -v b="${ort:-0}" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else printf "-" }')
    echo "| $name | ${ours:--} | ${ort:--} | $ratio |"
    [ $first -eq 1 ] || echo "," >> "$OUT"
    first=0
    printf '{"model": "%s", "byocc_ms_median": %s, "ort_ms_median": %s}' "$name" "${ours:-null}" "${ort:-null}" >> "$OUT"
done
echo "]" >> "$OUT"
