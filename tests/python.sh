#!/bin/sh
# The Python package (python/byoc, ctypes on build/libbyoc.so) under Debian's pytest and numpy:
# tests/python/test_*.py, one "ok python:NAME" / "FAIL python:NAME: why" line per test. Without pytest or numpy
# it says it skipped and why. Under SAN=1 the library carries ASan, whose runtime must be loaded first.
LIB=${1:-build/libbyoc.so}
PY=/usr/bin/python3
if ! $PY -c 'import pytest, numpy' 2>/dev/null; then
    echo "skipped python tests: /usr/bin/python3 lacks pytest or numpy (apt-get install python3-pytest python3-numpy)"
    exit 0
fi
[ -f "$LIB" ] || { echo "FAIL python:library: $LIB is missing (make $LIB)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
preload=""
if [ "$SAN" = 1 ]; then
    preload=$(clang -print-file-name=libclang_rt.asan-x86_64.so 2>/dev/null)
    export ASAN_OPTIONS=detect_leaks=0  # the interpreter's own allocations are not the library's leaks
fi
BYOC_LIBRARY="$LIB" LD_PRELOAD="$preload" $PY -m pytest -q -rA -p no:cacheprovider tests/python > "$tmp/log" 2>&1
# pytest -rA's summary lines: "PASSED tests/python/FILE::TEST", "FAILED ... - why", "SKIPPED [1] FILE:LINE: why"
sed -n -e 's/^PASSED tests\/python\/[^:]*::\([^ ]*\).*/ok python:\1/p' \
    -e 's/^SKIPPED \[[0-9]*\] tests\/python\/\([^:]*\):[0-9]*: \(.*\)/skipped python:\1: \2/p' "$tmp/log"
sed -n -e 's/^FAILED tests\/python\/[^:]*::\([^ ]*\)\( - \(.*\)\)\{0,1\}$/FAIL python:\1: \3/p' \
    -e 's/^ERROR tests\/python\/\(.*\)/FAIL python:\1/p' "$tmp/log" | cut -c1-300
if grep -q '^\(FAILED\|ERROR\) ' "$tmp/log"; then
    sed -n '/^=* FAILURES =*$/,/^=* short test summary/p' "$tmp/log" | head -80 >&2
fi
if ! grep -q '^\(PASSED\|FAILED\|ERROR\|SKIPPED\) ' "$tmp/log"; then
    tail -20 "$tmp/log"
    echo "FAIL python: pytest did not run"
fi
