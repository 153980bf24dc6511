#!/bin/sh
# examples/custom_device.c, built with the one cc line its header gives (warnings as errors): a third device
# kind (vpu) registered from outside the headers, a real model placed on npu + vpu + dsp greedily and by the
# Collage search, run, saved and loaded back, and checked against the host-only run. The example prints
# "ok custom_device_greedy" and "ok custom_device_collage" (or FAIL lines with why); with SAN=1 it runs under
# ASan+UBSan.
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=""
[ "$SAN" = 1 ] && flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
if ! $CC -std=c99 -O2 -Wall -Wextra -Wpedantic -Werror $flags -I. examples/custom_device.c -o "$tmp/custom_device" -lm > "$tmp/cc.log" 2>&1; then
    echo "FAIL custom_device_build: $(head -5 "$tmp/cc.log" | tr '\n' ' ')"; exit 0
fi
echo "ok custom_device_build"
"$tmp/custom_device"
rc=$?
[ $rc -eq 0 ] || echo "FAIL custom_device: exited with $rc"
exit 0
