#!/bin/sh
# Build checks: warnings-clean C99 with gcc and clang, C++ compile, a host that implements stb_ds,
# and BYOC_STATIC exporting nothing. One "ok NAME" / "FAIL NAME: why" line each.
BUILD=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
W="-Wall -Wextra -Wpedantic -Werror"

# JOBS checks (default 2) run at a time, each with its own log; the lines come out in this file's order.
# A check that runs what another built comes after a `wait`.
JOBS=${JOBS:-2}
mkfifo "$tmp/slots" && exec 3<>"$tmp/slots"
i=0; while [ $i -lt "$JOBS" ]; do echo >&3; i=$((i + 1)); done
n=0
check() { # name command...
    name=$1; shift
    n=$((n + 1)); res=$tmp/res.$(printf %03d $n)
    read -r _ <&3
    { if "$@" > "$res.log" 2>&1; then echo "ok $name"; else echo "FAIL $name: $(head -c 600 "$res.log" | tr '\n' ' ')"; fi > "$res"; echo >&3; } &
}

check build_gcc_c99_warnings_clean        gcc   -std=c99 -O2 $W -I. tests/compile/use_c.c -o "$tmp/gcc" -lm
check build_clang_c99_warnings_clean      clang -std=c99 -O2 $W -I. tests/compile/use_c.c -o "$tmp/clang" -lm
check build_byocc_gcc_warnings_clean      gcc   -std=c99 -O2 $W -I. tools/byocc.c -o "$tmp/byocc_gcc" -lm
check build_byocc_clang_warnings_clean    clang -std=c99 -O2 $W -I. tools/byocc.c -o "$tmp/byocc_clang" -lm
# the CLI holds byoc_sim.h and tools/byoc_onnx.h too: both compile as C++
check build_byocc_gxx_cpp11              g++     -x c++ -std=c++11 -O0 $W -I. -c tools/byocc.c -o "$tmp/byocc_cpp.o"
check build_byocc_clangxx_cpp17          clang++ -x c++ -std=c++17 -O0 $W -I. -c tools/byocc.c -o "$tmp/byocc_cpp2.o"
check build_gxx_cpp11                     g++     -std=c++11 -O1 $W -I. tests/compile/use_cpp.cpp -o "$tmp/gxx"
check build_clangxx_cpp17                 clang++ -std=c++17 -O1 $W -I. tests/compile/use_cpp.cpp -o "$tmp/clangxx"
wait
check run_cpp_build                       "$tmp/gxx"
check run_c_build                         "$tmp/gcc"
# byoc_sim.h with byoc.h, both implementations in one file, as C99 and as C++
check build_sim_gcc_c99_warnings_clean    gcc     -std=c99 -O2 $W -I. tests/compile/use_sim_c.c -o "$tmp/sim_gcc" -lm
check build_sim_clang_c99_warnings_clean  clang   -std=c99 -O2 $W -I. tests/compile/use_sim_c.c -o "$tmp/sim_clang" -lm
check build_sim_gxx_cpp11                 g++     -std=c++11 -O1 $W -I. tests/compile/use_sim_cpp.cpp -o "$tmp/sim_gxx"
check build_sim_clangxx_cpp17             clang++ -std=c++17 -O1 $W -I. tests/compile/use_sim_cpp.cpp -o "$tmp/sim_clangxx"
wait
check run_sim_c_build                     "$tmp/sim_gcc"
check run_sim_cpp_build                   "$tmp/sim_gxx"
check build_host_implements_stb_ds        sh -c "gcc -std=c99 $W -I. -c tests/compile/stbds_host_impl.c -o $tmp/h1.o &&
                                                  gcc -std=c99 $W -I. -c tests/compile/stbds_host_main.c -o $tmp/h2.o &&
                                                  gcc $tmp/h1.o $tmp/h2.o -o $tmp/host -lm && $tmp/host"
# BYOC_STATIC: every public function is static, so the object exports no byoc_ symbol
check build_static_exports_nothing       sh -c "gcc -std=c99 -O1 $W -DBYOC_STATIC -DBYOC_IMPLEMENTATION -I. -x c -c byoc.h -o $tmp/s.o &&
                                                  ! nm -g --defined-only $tmp/s.o | grep -q ' byoc_'"
check build_sim_static_exports_nothing   sh -c "gcc -std=c99 -O1 $W -DBYOC_STATIC -DBYOC_SIM_IMPLEMENTATION -I. -x c -c byoc_sim.h -o $tmp/s2.o &&
                                                  ! nm -g --defined-only $tmp/s2.o | grep -q ' byoc_'"
# examples build with the one cc line their header gives, warnings-clean, and check their own results
check example_custom_backend_gcc         sh -c "gcc -std=c99 -O2 $W -I. examples/custom_backend.c -o $tmp/cb -lm && $tmp/cb | grep -q ': OK$'"
check example_custom_backend_clang       sh -c "clang -std=c99 -O2 $W -I. examples/custom_backend.c -o $tmp/cb2 -lm && $tmp/cb2 | grep -q ': OK$'"
# the runtime alone (BYOC_SIM_RUNTIME_ONLY, examples/embed_runtime.c): warnings-clean with gcc and clang, and as C++
check example_embed_runtime_gcc          gcc     -std=c99 -O2 $W -I. examples/embed_runtime.c -o "$tmp/er" -lm
check example_embed_runtime_clang        clang   -std=c99 -O2 $W -I. examples/embed_runtime.c -o "$tmp/er2" -lm
check example_embed_runtime_gxx_cpp11    g++     -x c++ -std=c++11 -O1 $W -I. -c examples/embed_runtime.c -o "$tmp/er3.o"
# house rules (.clang-format): the headers keep within 120 columns
check headers_within_120_columns         sh -c "awk 'length > 120 { print FILENAME \":\" FNR; bad = 1 } END { exit bad }' byoc.h byoc_sim.h tools/byoc_onnx.h"
wait
cat "$tmp"/res.[0-9][0-9][0-9]
