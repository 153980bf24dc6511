#!/bin/sh
# End-to-end latency of every shared model and every model the tests build (tests/models): byocc's host
# runtime against ONNX Runtime at one thread each and at two threads each (byocc --threads 2, ORT's
# intraOpNumThreads 2), measured side by side in one run (medians), and byocc's speedup from 1 to 2 threads.
# Usage: tools/bench_models.sh BYOCC RUNS OUT.json; BYOC_MODELS is a space-separated list of model roots.
# Prints a markdown table; writes the same rows to OUT.json. BENCH_ROUNDS (default 3): each model is measured in
# that many alternating rounds (byocc then ORT, one thread then two), each a median of RUNS; the table gives the
# median of the rounds, so a neighbour's burst on a shared machine moves one round, not the figure. ORT's own
# speedup from 1 to 2 threads is the control beside byocc's. CORE_LATENCY, when set, is tools/core_latency.c's
# program: run in every round right before byocc's two-thread run, its round trip of a cache line between the two
# cores goes in a last column (the rounds' median, and their range when the rounds differ by more than a fifth;
# the JSON has every round's). On a virtual machine the two vCPUs may sit on cores that share a last-level cache
# (a short round trip) or on cores that do not (several times longer), and both runtimes' two-thread runs, whose
# threads read what the other thread wrote a kernel before, are much slower in the second placement.
BYOCC=$1 RUNS=${2:-20} OUT=${3:-build/bench_models.json} ROUNDS=${BENCH_ROUNDS:-3}
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
echo "| model | byocc 1 thread | ORT 1 thread | byocc / ORT | byocc 2 threads | ORT 2 threads | byocc / ORT | byocc 1 -> 2 threads | ORT 1 -> 2 threads | core round trip ns |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
echo "[" > "$OUT"
first=1
ratios=""
for dir in $(for root in $roots; do ls -d "$root"/*/; done); do
    dir=${dir%/}
    name=$(basename "$dir")
    [ -f "$dir/model.onnx" ] && [ -f "$dir/input_0.npy" ] || continue
    inputs=""
    k=0
    while [ -f "$dir/input_$k.npy" ]; do inputs="$inputs --input $dir/input_$k.npy"; k=$((k + 1)); done
    # one thread then two, byocc then ORT, back to back so both see the same load; ROUNDS times
    ours1="" ort1="" ours2="" ort2="" trips=""
    round=0
    while [ $round -lt "$ROUNDS" ]; do
        for t in 1 2; do
            if [ $t -eq 2 ] && [ -n "$CORE_LATENCY" ] && [ -x "$CORE_LATENCY" ]; then
                trip=$("$CORE_LATENCY" 2>/dev/null | sed -n 's/^core round trip: \([0-9]*\) ns.*/\1/p')
                trips="$trips ${trip:--}"
            fi
            # shellcheck disable=SC2086
            ours=$("$BYOCC" run "$dir/model.onnx" $inputs --threads $t --repeat "$RUNS" 2>/dev/null |
                sed -n 's/^time: .* p50 \([0-9.]*\) ms.*/\1/p')
            ort=$(ORT_THREADS=$t NODE_PATH="$ORT_DIR/node_modules" node tools/ort_bench.js "$RUNS" "$dir" 2>/dev/null |
                sed -n 's/.*"ort_ms_median":\([0-9.e-]*\).*/\1/p')
            eval "ours$t=\"\$ours$t \${ours:--}\" ort$t=\"\$ort$t \${ort:--}\""
        done
        round=$((round + 1))
    done
    # a list's numbers one per line (a round without one left out); the median of the rounds' medians
    numbers() { echo "$1" | tr ' ' '\n' | grep -v '^-*$'; }
    median() { numbers "$1" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.6g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
    ours1=$(median "$ours1") ort1=$(median "$ort1") ours2=$(median "$ours2") ort2=$(median "$ort2")
    trip=$(median "$trips")
    # the rounds' range beside the median when they were measured in different placements
    span=$(numbers "$trips" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 }
        END { if (NR > 1 && hi > 1.2 * lo) printf " (%s-%s)", lo, hi }')
    trip_list=$(numbers "$trips" | paste -sd, -)
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else printf "-" }'; }
    r1=$(ratio "$ours1" "$ort1") r2=$(ratio "$ours2" "$ort2") speedup=$(ratio "$ours1" "$ours2")
    ort_speedup=$(ratio "$ort1" "$ort2")
    ratios="$ratios $r1/$r2/$speedup/$ort_speedup"
    echo "| $name | $ours1 | $ort1 | $r1 | $ours2 | $ort2 | $r2 | ${speedup}x | ${ort_speedup}x | $trip$span |"
    [ $first -eq 1 ] || echo "," >> "$OUT"
    first=0
    json() { [ "$1" = "-" ] && echo null || echo "$1"; }
    printf '{"model": "%s", "byocc_ms_median": %s, "ort_ms_median": %s, "byocc_2t_ms_median": %s, "ort_2t_ms_median": %s, "core_round_trip_ns": %s, "core_round_trips_ns": [%s]}' \
        "$name" "$(json "$ours1")" "$(json "$ort1")" "$(json "$ours2")" "$(json "$ort2")" "$(json "$trip")" "$trip_list" >> "$OUT"
done
echo "]" >> "$OUT"
# geometric means of the ratios over the models that have both numbers
echo "$ratios" | tr ' ' '\n' | awk -F/ 'NF == 4 {
        for (i = 1; i <= 4; ++i) if ($i + 0 > 0) { l[i] += log($i); n[i]++ } }
    function gm(i, unit) { return n[i] ? sprintf("%.2f%s", exp(l[i] / n[i]), unit) : "-" }
    END { printf "| geometric mean | | | %s | | | %s | %s | %s | |\n", gm(1, ""), gm(2, ""), gm(3, "x"), gm(4, "x") }'
