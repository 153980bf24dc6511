#!/bin/sh
# byocc quantize on real models (../shared/models, or $BYOC_MODELS): mnist8, squeezenet_rand and the
# ultraface_rfb320 detector (opset 9: Slice, Unsqueeze, Softmax rewritten for opset 13) are quantized
# with calibration samples made here (each model's input_0.npy and two seeded perturbations of it, one per
# subdirectory, and for mnist8 a stacked file split along its leading dim), per tensor and per channel,
# with each calibration method and both activation types. For every quantized model:
#   (a) ONNX Runtime (onnxruntime-node in build/ort, or $ORT_NODE_PATH) loads and runs it;
#   (b) its output is close to the float model's (ONNX Runtime's ort_output_0.npy): mnist8's class is the
#       same (and on mnist8_set1/set2, not calibrated on, too), squeezenet's probabilities and ultraface's
#       scores within 0.25 x their largest;
#   (c) byocc runs it and gives ONNX Runtime's output (within 1e-6 x max(1, max|ref|): FakeQuantizationToInteger
#       makes the integer groups ONNX Runtime fuses, with its arithmetic);
#   (d) the QDQ placement: every Conv reads DequantizeLinear outputs (data, weight, bias) and only a
#       QuantizeLinear reads its output, weights are int8 (per channel: DequantizeLinear with an axis),
#       biases int32, no Relu is left after a Conv, and the summary's counts say so.
# Bad input (no samples, a dtype or shape that does not fit, an unknown method, a file that is no model)
# must fail with a message naming the file and input. One "ok NAME" / "FAIL NAME: why" line per check;
# without the models (or without ONNX Runtime for the checks that need it) one line says why it skipped.
BYOCC=${1:-build/byocc}
MODELS=${BYOC_MODELS:-../shared/models}
NODE_PATH=${ORT_NODE_PATH:-build/ort/node_modules}
export NODE_PATH
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# bad input first: these need no model directory
expect_fail() { # label exit-code message-fragment command...
    label=$1; code=$2; want=$3; shift 3
    "$@" > "$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -eq "$code" ] && grep -qF -- "$want" "$tmp/out"; then echo "ok $label"
    else echo "FAIL $label: exit $rc, wanted $code and '$want' in: $(head -3 "$tmp/out" | tr '\n' ' ')"; fi
}
printf 'not a model' > "$tmp/junk.onnx"
mkdir -p "$tmp/empty"
expect_fail quantize_no_samples 2 "no calibration samples" \
    "$BYOCC" quantize "$tmp/junk.onnx" --calibrate "$tmp/empty" -o "$tmp/x.onnx"
expect_fail quantize_bad_method 1 "--method" \
    "$BYOCC" quantize "$tmp/junk.onnx" --calibrate "$tmp/empty" --method median -o "$tmp/x.onnx"
expect_fail quantize_bad_activation 1 "--activation-type" \
    "$BYOCC" quantize "$tmp/junk.onnx" --calibrate "$tmp/empty" --activation-type int4 -o "$tmp/x.onnx"
expect_fail quantize_no_output 1 "-o MODEL_q.onnx" "$BYOCC" quantize "$tmp/junk.onnx" --calibrate "$tmp/empty"

if [ ! -d "$MODELS/mnist8" ] || [ ! -d "$MODELS/squeezenet_rand" ] || [ ! -d "$MODELS/ultraface_rfb320" ]; then
    echo "skipped quantize model tests: $MODELS/mnist8, squeezenet_rand and ultraface_rfb320 are not there" \
        "(BYOC_MODELS=DIR points elsewhere)"
    exit 0
fi
if ! $PY -c 'import numpy, onnx' 2>/dev/null; then
    echo "skipped quantize model tests: $PY has no numpy/onnx (Debian's python3-onnx)"
    exit 0
fi

# calibration directories: input_0.npy, and two seeded perturbations in subdirectories
for m in mnist8 squeezenet_rand ultraface_rfb320; do
    $PY - "$MODELS/$m/input_0.npy" "$tmp/cal_$m" <<'EOF' || echo "FAIL quantize_calibration_$m: no samples written"
import os, sys
import numpy as np
x = np.load(sys.argv[1])
out = sys.argv[2]
rng = np.random.default_rng(7)
for k, sub in enumerate(["", "s1", "s2"]):
    d = os.path.join(out, sub)
    os.makedirs(d, exist_ok=True)
    y = x if k == 0 else x * (1 + 0.1 * k) + rng.normal(0, 0.05 * float(np.abs(x).max()), x.shape)
    np.save(os.path.join(d, "input_0.npy"), y.astype(np.float32))
np.save(os.path.join(out, "..", os.path.basename(out) + "_stack.npy"), np.concatenate([x, x * 0.5]).astype(np.float32))
np.save(os.path.join(out, "..", os.path.basename(out) + "_int64.npy"), x.astype(np.int64))
np.save(os.path.join(out, "..", os.path.basename(out) + "_shape.npy"), x.reshape(1, -1))
EOF
done

expect_fail quantize_bad_model 2 "junk.onnx" \
    "$BYOCC" quantize "$tmp/junk.onnx" --calibrate "$tmp/cal_mnist8" -o "$tmp/x.onnx"
mkdir -p "$tmp/cal_dtype" "$tmp/cal_shape" "$tmp/cal_split"
cp "$tmp/cal_mnist8_int64.npy" "$tmp/cal_dtype/input_0.npy"
cp "$tmp/cal_mnist8_shape.npy" "$tmp/cal_shape/input_0.npy"
cp "$tmp/cal_mnist8_stack.npy" "$tmp/cal_split/input_0.npy"
expect_fail quantize_bad_dtype 2 "cal_dtype/input_0.npy: int64 (1, 1, 28, 28), but input 'Input3'" \
    "$BYOCC" quantize "$MODELS/mnist8/model.onnx" --calibrate "$tmp/cal_dtype" -o "$tmp/x.onnx"
expect_fail quantize_bad_shape 2 "does not fit input 'Input3'" \
    "$BYOCC" quantize "$MODELS/mnist8/model.onnx" --calibrate "$tmp/cal_shape" -o "$tmp/x.onnx"
if "$BYOCC" quantize "$MODELS/mnist8/model.onnx" --calibrate "$tmp/cal_split" -o "$tmp/split.onnx" > "$tmp/out" 2>&1 &&
    grep -q " 2 calibration samples" "$tmp/out"; then echo "ok quantize_split_leading_dim"
else echo "FAIL quantize_split_leading_dim: $(tr '\n' ' ' < "$tmp/out")"; fi

have_ort=1
if ! node -e 'require("onnxruntime-node")' > /dev/null 2>&1; then
    have_ort=0
    echo "skipped quantize ONNX Runtime checks: onnxruntime-node is not in $NODE_PATH" \
        "(ORT_NODE_PATH=DIR points elsewhere)"
fi

# (d): the QDQ structure, read with python3-onnx
qdq_placement() { # model.onnx per-channel(0|1) activation-onnx-type
    $PY - "$@" <<'EOF'
import sys
import onnx
from onnx import numpy_helper
m = onnx.load(sys.argv[1])
per_channel, act = sys.argv[2] == "1", int(sys.argv[3])
onnx.checker.check_model(m)
g = m.graph
producer = {o: n for n in g.node for o in n.output}
consumers = {}
for n in g.node:
    for i in n.input:
        consumers.setdefault(i, []).append(n)
inits = {t.name: t for t in g.initializer}
bad = []
for n in g.node:
    if n.op_type != "Conv":
        continue
    for k, i in enumerate(n.input):
        p = producer.get(i)
        if p is None or p.op_type != "DequantizeLinear":
            bad.append(f"{n.name or n.output[0]} input {k} is not dequantized")
            continue
        q = inits.get(p.input[0])
        want = {0: None, 1: 3, 2: 6}[k]
        if want is not None and (q is None or q.data_type != want):
            bad.append(f"{n.name or n.output[0]} input {k}: {p.input[0]} is not of ONNX type {want}")
        axis = [a.i for a in p.attribute if a.name == "axis"]
        if k >= 1 and per_channel != bool(axis):
            bad.append(f"{n.name or n.output[0]} input {k}: per-channel {per_channel} but axis {axis}")
    users = consumers.get(n.output[0], [])
    if not users or any(u.op_type != "QuantizeLinear" for u in users):
        bad.append(f"{n.name or n.output[0]} output is read by {[u.op_type for u in users]}")
for n in g.node:
    dq = producer.get(n.input[0]) if n.op_type == "Relu" else None
    if dq is not None and dq.op_type == "DequantizeLinear":
        src = producer.get(producer[n.input[0]].input[0])
        src = producer.get(src.input[0]) if src is not None else None
        if src is not None and src.op_type == "Conv":
            bad.append(f"Relu {n.name} after Conv {src.name} was not fused")
    if n.op_type == "QuantizeLinear":
        zp = inits[n.input[2]]
        if zp.data_type != act:
            bad.append(f"{n.name}: zero point of type {zp.data_type}, wanted {act}")
if bad:
    print("error: " + "; ".join(bad[:5]))
    sys.exit(1)
EOF
}

# (b) closeness to the float model, read from ONNX Runtime's outputs
close_to_float() { # kind float.npy quantized.npy
    $PY - "$@" <<'EOF'
import sys
import numpy as np
kind, f, q = sys.argv[1], np.load(sys.argv[2]), np.load(sys.argv[3])
if kind == "argmax":
    ok = int(f.argmax()) == int(q.argmax())
    what = f"class {int(q.argmax())}, float {int(f.argmax())}"
else:
    err, scale = float(np.abs(f - q).max()), float(np.abs(f).max())
    ok = err <= 0.25 * scale
    what = f"max error {err:.4g} against max |float| {scale:.4g}"
print(("" if ok else "error: ") + what)
sys.exit(0 if ok else 1)
EOF
}

one_model() { # label model-dir check-kind want-summary-text quantize-options...
    label=$1; dir=$2; kind=$3; summary=$4; shift 4
    per_channel=0; act=2
    case " $* " in *" --per-channel "*) per_channel=1 ;; esac
    case " $* " in *" int8 "*) act=3 ;; esac
    m=$(basename "$dir")
    out="$tmp/$label"
    mkdir -p "$out"
    if ! "$BYOCC" quantize "$dir/model.onnx" --calibrate "$tmp/cal_$m" "$@" -o "$out/model.onnx" > "$out/log" 2>&1; then
        echo "FAIL quantize_$label: $(tr '\n' ' ' < "$out/log" | cut -c1-300)"
        return
    fi
    if grep -qF -- "$summary" "$out/log"; then echo "ok quantize_${label}_summary"
    else echo "FAIL quantize_${label}_summary: no '$summary' in $(tr '\n' ' ' < "$out/log" | cut -c1-300)"; fi
    if qdq_placement "$out/model.onnx" $per_channel $act > "$out/qdq" 2>&1; then echo "ok quantize_${label}_qdq"
    else echo "FAIL quantize_${label}_qdq: $(tail -2 "$out/qdq" | tr '\n' ' ')"; fi
    [ $have_ort = 1 ] || return
    cp "$dir/input_0.npy" "$out/input_0.npy"
    if node tools/ort_reference.js "$out" > "$out/ort" 2>&1; then echo "ok quantize_${label}_ort_runs"
    else echo "FAIL quantize_${label}_ort_runs: $(tr '\n' ' ' < "$out/ort")"; return; fi
    if close_to_float "$kind" "$dir/ort_output_0.npy" "$out/ort_output_0.npy" > "$out/close" 2>&1; then
        echo "ok quantize_${label}_close_to_float"
    else echo "FAIL quantize_${label}_close_to_float: $(cat "$out/close")"; fi
    if "$BYOCC" run "$out/model.onnx" --input "$out/input_0.npy" --compare-to "$out" --tolerance 1e-6 \
        > "$out/run" 2>&1; then
        echo "ok quantize_${label}_byocc_matches_ort"
    else echo "FAIL quantize_${label}_byocc_matches_ort: $(grep -E 'MISMATCH|error' "$out/run" | head -3 | tr '\n' ' ')"
    fi
}

# a quantized mnist8 classifies the other test sets (not calibrated on) as the float model does
classifies_like_float() { # label
    [ $have_ort = 1 ] || return
    for set in mnist8_set1 mnist8_set2; do
        [ -d "$MODELS/$set" ] || continue
        mkdir -p "$tmp/$1_$set" && cp "$tmp/$1/model.onnx" "$MODELS/$set/input_0.npy" "$tmp/$1_$set/" &&
            node tools/ort_reference.js "$tmp/$1_$set" > "$tmp/$1_$set/log" 2>&1 &&
            close_to_float argmax "$MODELS/$set/ort_output_0.npy" "$tmp/$1_$set/ort_output_0.npy" > "$tmp/$1_$set/close"
        if [ $? = 0 ]; then echo "ok quantize_$1_classifies_$set"
        else echo "FAIL quantize_$1_classifies_$set: $(cat "$tmp/$1_$set/log" "$tmp/$1_$set/close" 2>/dev/null)"; fi
    done
}

one_model mnist8 "$MODELS/mnist8" argmax "6 of 12 nodes quantized, 2 fused away"
one_model mnist8_per_channel "$MODELS/mnist8" argmax "9 of 12 nodes quantized, 2 fused away, 10 QDQ pairs, 3 int8 weights" \
    --per-channel
one_model mnist8_int8 "$MODELS/mnist8" argmax "opset 8 -> 13" --per-channel --activation-type int8
one_model mnist8_entropy "$MODELS/mnist8" argmax "3 calibration samples" --method entropy
for q in mnist8 mnist8_per_channel mnist8_int8 mnist8_entropy; do classifies_like_float $q; done
one_model squeezenet "$MODELS/squeezenet_rand" range "26 fused away, 41 QDQ pairs, 26 int8 weights, 26 int32 biases"
one_model squeezenet_per_channel "$MODELS/squeezenet_rand" range "opset 9 -> 13" --per-channel
one_model squeezenet_percentile "$MODELS/squeezenet_rand" range "36 of 66 nodes quantized" --method percentile
one_model squeezenet_entropy_int8 "$MODELS/squeezenet_rand" range "3 calibration samples" \
    --method entropy --activation-type int8
one_model ultraface_per_channel "$MODELS/ultraface_rfb320" range \
    "opset 9 -> 13 (nodes rewritten for it)" --per-channel
