#!/bin/sh
# Quantized versions of the shared models, for tests and benchmarks: each of mnist8, squeezenet_rand,
# ultraface_rfb320 and super_resolution is quantized by `byocc quantize --per-channel` (int8 weights per
# channel, uint8 activations, minmax) calibrated on its input_0.npy (mnist8 also on mnist8_set1's and
# mnist8_set2's inputs, one subdirectory each), into OUT/NAME/model.onnx with input_0.npy beside it, and
# ONNX Runtime's outputs (tools/ort_reference.js) as OUT/NAME/ort_output_K.npy when onnxruntime-node is
# there. Usage: tools/quantize_models.sh BYOCC MODELS OUT. Prints one line per model ("quantized NAME" or
# "FAIL NAME: why"); exits 0 even when models are missing (it says which).
BYOCC=$1 MODELS=$2 OUT=$3
NODE_PATH=${ORT_NODE_PATH:-build/ort/node_modules}
export NODE_PATH
have_ort=1
node -e 'require("onnxruntime-node")' > /dev/null 2>&1 || have_ort=0
for name in mnist8 squeezenet_rand ultraface_rfb320 super_resolution; do
    dir=$MODELS/$name
    if [ ! -f "$dir/model.onnx" ] || [ ! -f "$dir/input_0.npy" ]; then echo "skipped $name: $dir is not there"; continue; fi
    out=$OUT/$name
    mkdir -p "$out/calibration" || exit 1
    cp "$dir/input_0.npy" "$out/input_0.npy" && cp "$dir/input_0.npy" "$out/calibration/input_0.npy" || exit 1
    if [ "$name" = mnist8 ]; then
        for set in mnist8_set1 mnist8_set2; do
            [ -f "$MODELS/$set/input_0.npy" ] || continue
            mkdir -p "$out/calibration/$set" && cp "$MODELS/$set/input_0.npy" "$out/calibration/$set/" || exit 1
        done
    fi
    if ! "$BYOCC" quantize "$dir/model.onnx" --calibrate "$out/calibration" --per-channel -o "$out/model.onnx" \
        > "$out/quantize.log" 2>&1; then
        echo "FAIL $name: byocc quantize: $(tail -2 "$out/quantize.log" | tr '\n' ' ')"
        continue
    fi
    if [ $have_ort = 1 ] && ! node tools/ort_reference.js "$out" > "$out/ort.log" 2>&1; then
        echo "FAIL $name: ONNX Runtime: $(tr '\n' ' ' < "$out/ort.log")"
        continue
    fi
    echo "quantized $name$([ $have_ort = 1 ] || echo ' (no ONNX Runtime reference: onnxruntime-node is not installed)')"
done
