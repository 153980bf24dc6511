#!/bin/sh
# build/libbyoc.so exports the public API and nothing else: every dynamic symbol it defines is a byoc_ name, none
# is an internal byoc__ one, and every function the headers declare public (BYOC_API / BYOC_SIM_API) is there.
# One "ok NAME" / "FAIL NAME: why" line each.
LIB=${1:-build/libbyoc.so}
[ -f "$LIB" ] || { echo "FAIL libbyoc_built: $LIB is missing (make $LIB)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$LIB" | awk '{ print $3 }' | sort -u > "$tmp/exported"
n=$(wc -l < "$tmp/exported")
[ "$n" -gt 0 ] || { echo "FAIL libbyoc_exports: nm -D lists no symbols in $LIB"; exit 0; }
other=$(grep -v '^byoc_' "$tmp/exported" | head -5 | tr '\n' ' ')
[ -z "$other" ] && echo "ok libbyoc_only_byoc_names" || echo "FAIL libbyoc_only_byoc_names: also exported: $other"
internal=$(grep '^byoc__' "$tmp/exported" | head -5 | tr '\n' ' ')
[ -z "$internal" ] && echo "ok libbyoc_no_internal_names" || echo "FAIL libbyoc_no_internal_names: exported: $internal"
for h in byoc.h byoc_sim.h tools/byoc_onnx.h tools/byoc_quantize.h; do
    grep -hoE '^BYOC(_SIM)?_API [^(]*\bbyoc_[a-z0-9_]+\(' "$h" | grep -oE 'byoc_[a-z0-9_]+\($' | tr -d '('
done | sort -u > "$tmp/declared"
missing=$(comm -23 "$tmp/declared" "$tmp/exported" | head -5 | tr '\n' ' ')
ndeclared=$(wc -l < "$tmp/declared")
if [ "$ndeclared" -lt 200 ]; then echo "FAIL libbyoc_public_functions: found only $ndeclared declarations"
elif [ -n "$missing" ]; then echo "FAIL libbyoc_public_functions: not exported: $missing"
else echo "ok libbyoc_public_functions ($ndeclared declared, $n exported)"; fi
