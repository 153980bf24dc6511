#!/bin/sh
# Runs every test group and ends with "N passed, N failed". Each group prints "ok NAME" or
# "FAIL NAME: why" per test; a group that dies without reporting counts as one failure.
# JOBS groups (default 2) run at a time, the longest first; as each one finishes a line gives its counts,
# its wall time and the CPU time (user+sys) its processes took. The make test target passes TESTS (the
# unit tests, $BUILD/test_NAME) and FUZZERS ($FUZZ_BUILD/fuzz_NAME); run alone, it takes the executable
# files it finds there (not the scratch folders some tests leave beside them).
BUILD=${BUILD:-build}
FUZZ_BUILD=${FUZZ_BUILD:-build/fuzz}
CC=${CC:-cc}
CXX=${CXX:-c++}
JOBS=${JOBS:-2}
[ -n "$TESTS" ] || TESTS=$(for t in "$BUILD"/test_*; do [ -f "$t" ] && [ -x "$t" ] && echo "${t#"$BUILD"/test_}"; done)
[ -n "$FUZZERS" ] || FUZZERS=$(for f in "$FUZZ_BUILD"/fuzz_*; do [ -f "$f" ] && [ -x "$f" ] && echo "${f#"$FUZZ_BUILD"/fuzz_}"; done)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# every committed fuzz input is replayed (the corpus is a regression suite)
fuzz_group() { # target
    if "$FUZZ_BUILD/fuzz_$1" -runs=0 "tests/fuzz/corpus/$1" > "$out/fuzz_$1.raw" 2>&1; then echo "ok fuzz_corpus_$1"
    else tail -30 "$out/fuzz_$1.raw"; echo "FAIL fuzz_corpus_$1: a corpus input crashed"; fi
}
# IR-level tests: .relay files with RUN/CHECK lines, run by LLVM lit and FileCheck
lit_group() {
    /usr/bin/python3 /usr/lib/llvm-14/build/utils/lit/lit.py -v tests/lit --param build="$BUILD" > "$out/lit.raw" 2>&1
    sed -n 's/^PASS: byoc :: \([^ ]*\) .*/ok lit:\1/p; s/^FAIL: byoc :: \([^ ]*\) .*/FAIL lit:\1: see the FileCheck output above/p' "$out/lit.raw"
    if grep -q '^FAIL: ' "$out/lit.raw"; then sed -n '/^FAIL: /,/^\*\*\*\*\*\*\*\*\*\*$/p' "$out/lit.raw" | head -60 >&2; fi
    grep -q '^\(PASS\|FAIL\): ' "$out/lit.raw" || { cat "$out/lit.raw"; echo "FAIL lit: lit did not run"; }
}
group_command() { # name
    case $1 in
    cli) sh tests/cli.sh "$BUILD/byocc" ;;
    # every command's --help, unknown options and --json document, for the commands byocc's usage lists
    cli_json) sh tests/cli_json.sh "$BUILD/byocc" ;;
    # ONNX conformance (Debian's libonnx-testdata node tests) and real models against ONNX Runtime's outputs
    onnx_node) "$BUILD/onnx_node_tests" ;;
    models) sh tests/models.sh "$BUILD/byocc" ;;
    # byocc quantize on real models: ONNX Runtime runs the QDQ files, byocc gives its outputs
    quantize) sh tests/quantize.sh "$BUILD/byocc" ;;
    # the small models of tests/models (dynamic shapes, computed inputs, detector post-processing...): every mode
    built_models) BYOC_MODELS=tests/models sh tests/models.sh "$BUILD/byocc" ;;
    # ONNX Runtime's com.microsoft QOperator ops, one small model per case: integers equal to ORT's
    quant_qops) sh tests/quant/qops.sh "$BUILD/byocc" ;;
    # QDQ models through FakeQuantizationToInteger: integers equal to ORT's on the host, the devices, a .byoc
    quant_fq2i) sh tests/fq2i/fq2i.sh "$BUILD/byocc" ;;
    # four shared models quantized by byocc quantize: ORT's outputs on the host, the devices' fixed point, .byoc
    quant_models) sh tests/quant_models.sh "$BUILD/byocc" ;;
    # If, Loop and Scan models (tests/cflow) against ONNX Runtime: host, npu + dsp greedy and collage, .byoc
    cflow_models) sh tests/cflow_models.sh "$BUILD/byocc" ;;
    # the Collage plan and cost of every shared and test-built model, against the saved ones (tests/collage_plans)
    collage_plans) sh tests/collage_plans.sh "$BUILD/byocc" ;;
    # byocc report's HTML page in headless Chromium (DevTools protocol): no errors, the node count, a click
    report_browser) /usr/bin/python3 tests/report_browser.py "$BUILD/byocc" "$BUILD" ;;
    fuzz_*) fuzz_group "${1#fuzz_}" ;;
    lit) lit_group ;;
    build) env CC="$CC" CXX="$CXX" BUILD="$BUILD" SAN="$SAN" sh tests/build_checks.sh ;;
    # make install into a temporary prefix, and a program built against the installed copy alone
    install) env CC="$CC" SAN="$SAN" sh tests/install.sh ;;
    # build/libbyoc.so exports the public API alone
    libbyoc) sh tests/libbyoc.sh "$BUILD/libbyoc.so" ;;
    # the Python package (python/byoc, ctypes) under Debian's pytest, every shared model included
    python) env SAN="$SAN" sh tests/python.sh "$BUILD/libbyoc.so" ;;
    # examples/embed_runtime.c: the runtime alone, from its own pool, running what byocc compiled
    embed) env CC="$CC" SAN="$SAN" sh tests/embed.sh "$BUILD/byocc" ;;
    # examples/custom_device.c: a third device kind registered from outside the headers, a real model on it
    custom_device) env CC="$CC" SAN="$SAN" sh tests/custom_device.sh ;;
    # every C snippet of README.md, compiled warnings-clean and run (tests/readme_snippets.sh says how)
    readme_snippets) env CC="$CC" SAN="$SAN" sh tests/readme_snippets.sh "$BUILD/byocc" ;;
    # byocc report's HTML pages: structure against the placement, no URLs, well-formed SVG, escaped names
    report) sh tests/report.sh "$BUILD/byocc" ;;
    *) "$BUILD/test_$1" ;;
    esac
}

# the report order; the run order starts with the groups that take longest
groups=$(echo $TESTS cli cli_json onnx_node models built_models cflow_models collage_plans quant_qops quant_fq2i quant_models quantize \
    $(for f in $FUZZERS; do echo "fuzz_$f"; done) \
    lit build install libbyoc python embed)
[ -f tests/custom_device.sh ] && groups="$groups custom_device"
groups="$groups report_browser"
[ -f tests/readme_snippets.sh ] && groups="$groups readme_snippets"
[ -f tests/report.sh ] && groups="$groups report"
first="models onnx_node built_models build property collage_search kernels lit devices cli"
order=$(for g in $first $groups; do case " $groups " in *" $g "*) echo "$g" ;; esac; done | awk '!seen[$0]++')
total=$(echo $groups | wc -w)
echo 0 > "$out/finished"

seconds() { # "times" output: the second line (this subshell's children), user and sys, as whole seconds
    sed -n 2p | tr 'ms' '  ' | awk '{ printf "%d", $1 * 60 + $2 + $3 * 60 + $4 + 0.5 }'
}

run_group() { # name
    name=$1
    start=$(date +%s)
    ( group_command "$name"; rc=$?; times > "$out/$name.times"; exit $rc ) > "$out/$name.log" 2>&1
    rc=$?
    wall=$(($(date +%s) - start))
    cpu=$(seconds < "$out/$name.times")
    grep -E '^(ok|FAIL) ' "$out/$name.log" > "$out/$name.res"
    if grep -q '^FAIL ' "$out/$name.log"; then  # the group's other output explains the failure
        grep -vE '^(ok|FAIL) ' "$out/$name.log" | head -80 | sed 's/^/    /' >> "$out/$name.res"
    fi
    if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$out/$name.log"; then
        echo "FAIL $name: exited with $rc" >> "$out/$name.res"
        tail -20 "$out/$name.log" | sed 's/^/    /' >> "$out/$name.res"
    fi
    ok=$(grep -c '^ok ' "$out/$name.res")
    failed=$(grep -c '^FAIL ' "$out/$name.res")
    until mkdir "$out/lock" 2>/dev/null; do sleep 0.1; done
    n=$(($(cat "$out/finished") + 1))
    echo $n > "$out/finished"
    printf '[%2d/%d] %-16s %4d ok %3d failed %5d s  (cpu %d s)\n' "$n" "$total" "$name" "$ok" "$failed" "$wall" "$cpu"
    rmdir "$out/lock"
}

# JOBS workers; each takes the next group nobody has claimed yet
worker() {
    for g in $order; do
        mkdir "$out/claim.$g" 2>/dev/null && run_group "$g"
    done
}
start_all=$(date +%s)
i=0
while [ $i -lt "$JOBS" ]; do worker & i=$((i + 1)); done
wait
echo "all groups: $(($(date +%s) - start_all)) s, $JOBS at a time"

for g in $groups; do cat "$out/$g.res"; done > "$out/all"
grep -E '^(FAIL|    )' "$out/all"
# what the conformance run and the real-model run covered, with the lists the summaries point to
grep -h -E '^(refused|differs) ' "$out/onnx_node.log" 2>/dev/null | cut -c1-400
grep -h -E 'node tests pass \(|^skipped' "$out/onnx_node.log" "$out/models.log" "$out/cflow_models.log" \
    "$out/report_browser.log" 2>/dev/null | cut -c1-400
pass=$(grep -c '^ok ' "$out/all")
fail=$(grep -c '^FAIL ' "$out/all")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
