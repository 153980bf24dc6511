#!/bin/sh
# Compiles and runs every C snippet of README.md: one "ok readme_snippet_N" / "FAIL readme_snippet_N: why"
# line each (N counts the ```c blocks from 1), or "skipped readme_snippet_N: why" when a file it needs is
# absent (../shared/models).
#
# How a snippet becomes a program: the line just before its ```c block may be an HTML comment (invisible
# when the README is rendered) with fields separated by ';':
#     <!-- snippet: harness=tests/readme/sim.c; needs=PATH; copy=NAME:PATH; setup=COMMAND -->
#   harness=FILE  a C file around the snippet: its line @TOP@ is replaced by the snippet's preprocessor
#                 lines (#define, #include), its line @BODY@ by the rest (the harness declares what the
#                 snippet uses, and checks or prints what it made). Without a harness the snippet's
#                 preprocessor lines come first and the rest goes into int main(void) { ... return 0; };
#                 a snippet that defines main is compiled as it is.
#   needs=PATH    skip the snippet when PATH (from the repository) does not exist
#   copy=NAME:PATH  copy PATH into the directory the program runs in, as NAME (repeatable)
#   setup=COMMAND a shell command run from the repository first ($BYOCC: byocc, $OUT: the program's directory)
# Each program is built with $CC -std=c99 -Wall -Wextra -Werror -I. (warnings fail it) and must exit 0.
BYOCC=${1:-build/byocc}
CC=${CC:-cc}
SANFLAGS=
if [ "$SAN" = 1 ]; then SANFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined"; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

awk -v dir="$tmp" '
    /^<!-- snippet:/ { directive = $0; directive_line = NR; next }
    /^```c[ \t]*$/ {
        n++; inside = 1
        print (directive_line == NR - 1 ? directive : "") > (dir "/snippet_" n ".directive")
        close(dir "/snippet_" n ".directive")
        next
    }
    inside && /^```/ { inside = 0; close(dir "/snippet_" n ".c"); next }
    inside { print > (dir "/snippet_" n ".c") }
' README.md

n=1
while [ -f "$tmp/snippet_$n.c" ]; do
    name=readme_snippet_$n
    out="$tmp/run_$n"
    mkdir -p "$out"
    harness= needs= setup=
    : > "$tmp/copies"
    fields=$(sed -e 's/^<!-- snippet://' -e 's/-->[ \t]*$//' "$tmp/snippet_$n.directive")
    set -f
    old_ifs=$IFS
    IFS=';'
    for field in $fields; do
        field=$(printf '%s' "$field" | sed -e 's/^[ \t]*//' -e 's/[ \t]*$//')
        case "$field" in
            harness=*) harness=${field#harness=} ;;
            needs=*) needs=${field#needs=} ;;
            copy=*) printf '%s\n' "${field#copy=}" >> "$tmp/copies" ;;
            setup=*) setup=${field#setup=} ;;
            "") ;;
            *) echo "FAIL $name: unknown snippet field '$field'" ;;
        esac
    done
    IFS=$old_ifs
    set +f
    n=$((n + 1))
    if [ -n "$needs" ] && [ ! -e "$needs" ]; then echo "skipped $name: $needs is absent"; continue; fi

    grep '^#' "$tmp/snippet_$((n - 1)).c" > "$tmp/top"
    grep -v '^#' "$tmp/snippet_$((n - 1)).c" > "$tmp/body"
    if [ -n "$harness" ]; then
        awk -v top="$tmp/top" -v body="$tmp/body" '
            $0 == "@TOP@" { while ((getline l < top) > 0) print l; next }
            $0 == "@BODY@" { while ((getline l < body) > 0) print "    " l; next }
            { print }' "$harness" > "$out/prog.c"
    elif grep -q 'main(' "$tmp/body"; then
        cp "$tmp/snippet_$((n - 1)).c" "$out/prog.c"
    else
        { cat "$tmp/top"; echo; echo "int main(void) {"; sed 's/^/    /' "$tmp/body"; echo "    return 0;"; echo "}"; } > "$out/prog.c"
    fi
    ok=1
    while IFS= read -r copy; do
        [ -n "$copy" ] || continue
        if ! cp "${copy#*:}" "$out/${copy%%:*}" 2> "$out/copy.log"; then echo "FAIL $name: copy ${copy#*:}: $(cat "$out/copy.log")"; ok=0; fi
    done < "$tmp/copies"
    [ $ok = 1 ] || continue
    if [ -n "$setup" ] && ! BYOCC="$BYOCC" OUT="$out" sh -c "$setup" > "$out/setup.log" 2>&1; then
        echo "FAIL $name: setup '$setup': $(tail -3 "$out/setup.log" | tr '\n' ' ')"; continue
    fi
    # shellcheck disable=SC2086
    if ! $CC -std=c99 -Wall -Wextra -Werror $SANFLAGS -I. "$out/prog.c" -o "$out/prog" -lm > "$out/cc.log" 2>&1; then
        echo "FAIL $name: does not compile (README line $(grep -n '^```c' README.md | sed -n "$((n - 1))p" | cut -d: -f1)): $(head -c 600 "$out/cc.log" | tr '\n' ' ')"
        continue
    fi
    if (cd "$out" && ./prog) > "$out/run.log" 2>&1; then echo "ok $name"
    else echo "FAIL $name: exited with $?: $(tail -5 "$out/run.log" | tr '\n' ' ')"; fi
done
