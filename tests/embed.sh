#!/bin/sh
# examples/embed_runtime.c, built with the one cc line its header gives: byoc_sim.h alone with
# BYOC_SIM_RUNTIME_ONLY, so no compiler symbol may be in the binary; it loads a .byoc that byocc compiled
# (npu, dsp and host), runs it from its own pool (under valgrind, when there is one, the C heap sees only
# the pool and stdio's buffers), and must print the outputs `byocc run` gives for the same input.
# One "ok NAME" / "FAIL NAME: why" line each.
BYOCC=${1:-build/byocc}
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! $CC -std=c99 -O2 -I. examples/embed_runtime.c -o "$tmp/embed_runtime" -lm > "$tmp/cc.log" 2>&1 || [ -s "$tmp/cc.log" ]; then
    echo "FAIL embed_build: $(head -5 "$tmp/cc.log" | tr '\n' ' ')"; exit 0
fi
echo "ok embed_build"
compiler=$(nm "$tmp/embed_runtime" | grep -E ' [TtWw] (byoc_partition_|byoc_merge_composite|byoc_annotate_target|byoc_merge_compiler_regions|byoc_fuse_ops|byoc_pass_|byoc_pattern_|byoc_backend_|byoc_collage_|byoc_fold_constant|byoc_simplify_inference|byoc_sim_device_compile|byoc_sim_estimate|byoc_sim_collage_|byoc_sim_backend_|byoc_sim_executable_save|byoc__dv_lower|byoc__dv_serialise)' | awk '{print $3}' | tr '\n' ' ')
runtime=$(nm "$tmp/embed_runtime" | grep -cE ' T (byoc_sim_executable_load|byoc_sim_run|byoc_sim_device_load_with|byoc_module_parse)$')
if [ -n "$compiler" ] || [ "$runtime" -ne 4 ]; then echo "FAIL embed_runtime_only: compiler symbols linked: $compiler ($runtime of 4 runtime entry points)"
else echo "ok embed_runtime_only"; fi
if ! "$BYOCC" compile tests/inputs/mnist.relay --backend npu --backend dsp -o "$tmp/m.byoc" > "$tmp/compile.log" 2>&1; then
    echo "FAIL embed_run: byocc compile: $(tail -2 "$tmp/compile.log" | tr '\n' ' ')"; exit 0
fi
if "$tmp/embed_runtime" "$tmp/m.byoc" > "$tmp/run.log" 2>&1 && grep -q "after destroy only the library's registry" "$tmp/run.log" && grep -q "^kernel 1 on npu" "$tmp/run.log"
then echo "ok embed_run"; else echo "FAIL embed_run: $(tail -3 "$tmp/run.log" | tr '\n' ' ')"; fi
# the same input through byocc run: the example's pattern (k % 17) / 17 - 0.5, written as .npy
/usr/bin/python3 - "$tmp/in.npy" <<'PY'
import struct, sys
n = 1 * 1 * 28 * 28
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 28, 28), }"
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<%df" % n, *[struct.unpack("<f", struct.pack("<f", (k % 17) / 17.0 - 0.5))[0] for k in range(n)]))
PY
mkdir -p "$tmp/out"
if "$BYOCC" run "$tmp/m.byoc" --input "$tmp/in.npy" --output-dir "$tmp/out" > "$tmp/byocc.log" 2>&1; then
    want=$(/usr/bin/python3 - "$tmp/out/output_0.npy" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
hl = struct.unpack("<H", data[8:10])[0]
vals = struct.unpack("<%df" % ((len(data) - 10 - hl) // 4), data[10 + hl:])
s = 0.0
for v in vals: s += v
print("output 0: %d elements, sum %.9g" % (len(vals), s))
PY
)
    if grep -qxF "$want" "$tmp/run.log"; then echo "ok embed_same_outputs_as_byocc"
    else echo "FAIL embed_same_outputs_as_byocc: byocc gives '$want', the example: $(grep '^output 0' "$tmp/run.log")"; fi
else
    echo "FAIL embed_same_outputs_as_byocc: $(tail -2 "$tmp/byocc.log" | tr '\n' ' ')"
fi
if [ -x /usr/bin/valgrind ] && [ "$SAN" != 1 ]; then
    /usr/bin/valgrind --error-exitcode=9 "$tmp/embed_runtime" "$tmp/m.byoc" > /dev/null 2> "$tmp/vg.log"
    rc=$?
    allocs=$(sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' "$tmp/vg.log" | tr -d ,)
    if [ $rc -eq 0 ] && [ -n "$allocs" ] && [ "$allocs" -le 8 ] && grep -q "in use at exit: 0 bytes" "$tmp/vg.log"; then echo "ok embed_only_the_pool ($allocs C heap allocations)"
    else echo "FAIL embed_only_the_pool: exit $rc, $allocs C heap allocations: $(grep -E 'heap usage|in use at exit|ERROR SUMMARY' "$tmp/vg.log" | tr '\n' ' ')"; fi
fi
