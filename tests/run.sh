#!/bin/sh
# Runs every test group and ends with "N passed, N failed". Each group prints "ok NAME" or
# "FAIL NAME: why" per test; a group that dies without reporting counts as one failure.
BUILD=${BUILD:-build}
CC=${CC:-cc}
CXX=${CXX:-c++}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0

group() { # name command...
    name=$1; shift
    "$@" > "$out/$name.log" 2>&1
    rc=$?
    grep -E '^(ok|FAIL) ' "$out/$name.log" >> "$out/all"
    if grep -q '^FAIL ' "$out/$name.log"; then  # the group's other output explains the failure
        grep -vE '^(ok|FAIL) ' "$out/$name.log" | head -80 | sed 's/^/    /' >> "$out/all"
    fi
    if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$out/$name.log"; then
        echo "FAIL $name: exited with $rc" >> "$out/all"
        tail -20 "$out/$name.log" | sed 's/^/    /' >> "$out/all"
    fi
}

: > "$out/all"
for t in core patterns passes property targets sim onnx kernels devices collage collage_search artifact api; do group "$t" "$BUILD/test_$t"; done
group cli sh tests/cli.sh "$BUILD/byocc"
# ONNX conformance (Debian's libonnx-testdata node tests) and real models against ONNX Runtime's outputs
group onnx_node "$BUILD/onnx_node_tests"
group models sh tests/models.sh "$BUILD/byocc"
# every committed fuzz input is replayed (the corpus is a regression suite)
for f in text weights pattern backend onnx device placement artifact; do
    group "fuzz_$f" sh -c "if $BUILD/fuzz_$f -runs=0 tests/fuzz/corpus/$f > $out/fuzz_$f.raw 2>&1; then echo 'ok fuzz_corpus_$f'; else tail -30 $out/fuzz_$f.raw; echo 'FAIL fuzz_corpus_$f: a corpus input crashed'; fi"
done
# IR-level tests: .relay files with RUN/CHECK lines, run by LLVM lit and FileCheck
lit_group() {
    /usr/bin/python3 /usr/lib/llvm-14/build/utils/lit/lit.py -v tests/lit --param build="$BUILD" > "$out/lit.raw" 2>&1
    sed -n 's/^PASS: byoc :: \([^ ]*\) .*/ok lit:\1/p; s/^FAIL: byoc :: \([^ ]*\) .*/FAIL lit:\1: see the FileCheck output above/p' "$out/lit.raw"
    if grep -q '^FAIL: ' "$out/lit.raw"; then sed -n '/^FAIL: /,/^\*\*\*\*\*\*\*\*\*\*$/p' "$out/lit.raw" | head -60 >&2; fi
    grep -q '^\(PASS\|FAIL\): ' "$out/lit.raw" || { cat "$out/lit.raw"; echo "FAIL lit: lit did not run"; }
}
group lit lit_group
group build env CC="$CC" CXX="$CXX" BUILD="$BUILD" SAN="$SAN" sh tests/build_checks.sh
# make install into a temporary prefix, and a program built against the installed copy alone
group install env CC="$CC" SAN="$SAN" sh tests/install.sh
# examples/embed_runtime.c: the runtime alone, from its own pool, running what byocc compiled
group embed env CC="$CC" SAN="$SAN" sh tests/embed.sh "$BUILD/byocc"
# examples/custom_device.c: a third device kind registered from outside the headers, a real model on it
group custom_device env CC="$CC" SAN="$SAN" sh tests/custom_device.sh
# every C snippet of README.md, compiled warnings-clean and run (tests/readme_snippets.sh says how)
group readme_snippets env CC="$CC" SAN="$SAN" sh tests/readme_snippets.sh "$BUILD/byocc"

grep -E '^(FAIL|    )' "$out/all"
# what the conformance run and the real-model run covered
grep -h -E 'node tests of supported ops|^skipped' "$out/onnx_node.log" "$out/models.log" 2>/dev/null | cut -c1-400
pass=$(grep -c '^ok ' "$out/all")
fail=$(grep -c '^FAIL ' "$out/all")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
