#!/bin/sh
# One model run by `byocc run` at 1 and at 2 threads: every output file must be the same bytes (host kernels
# split outputs only, never a reduction). Used by the model groups (tests/models.sh, cflow_models.sh,
# quant_models.sh) as one check per model.  Usage: threads_cmp.sh BYOCC MODEL [run options...]
BYOCC=$1
model=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BYOCC" run "$model" "$@" --threads 1 --output-dir "$tmp/t1" > "$tmp/log1" 2>&1 || { cat "$tmp/log1"; exit 1; }
"$BYOCC" run "$model" "$@" --threads 2 --output-dir "$tmp/t2" > "$tmp/log2" 2>&1 || { cat "$tmp/log2"; exit 1; }
n=0
for f in "$tmp/t1"/*; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    cmp -s "$f" "$tmp/t2/$(basename "$f")" || { echo "error: $(basename "$f") differs between 1 and 2 threads"; exit 1; }
done
[ "$n" -gt 0 ] || { echo "error: no output files were written"; exit 1; }
[ "$(ls "$tmp/t2" | wc -l)" -eq "$n" ] || { echo "error: 1 and 2 threads wrote different output files"; exit 1; }
