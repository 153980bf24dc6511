#!/bin/sh
# make install into a temporary prefix, then a program built only against the installed copy (found with
# pkg-config) imports nothing from the source tree: it partitions a module with the Collage search and runs
# it on the simulated devices; the same program linked with the installed libbyoc.so (pkg-config byoc-shared)
# instead of compiling the implementation runs too; the installed byocc runs; and the installed Python package, away
# from the source tree, finds the installed libbyoc.so by itself. One "ok NAME" / "FAIL NAME: why" line each.
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! make -s install PREFIX="$tmp/prefix" SAN="$SAN" > "$tmp/install.log" 2>&1; then
    echo "FAIL install: make install failed: $(tail -3 "$tmp/install.log" | tr '\n' ' ')"; exit 0
fi
for f in include/byoc/byoc.h include/byoc/byoc_sim.h include/byoc/tools/byoc_onnx.h include/byoc/tools/byoc_quantize.h \
    bin/byocc lib/pkgconfig/byoc.pc lib/libbyoc.so lib/pkgconfig/byoc-shared.pc; do
    [ -f "$tmp/prefix/$f" ] || { echo "FAIL install: $f is not installed"; exit 0; }
done
echo "ok install_files"
pydir=$(ls -d "$tmp"/prefix/lib/python3*/dist-packages 2>/dev/null | head -1)
[ -n "$pydir" ] && [ -f "$pydir/byoc/__init__.py" ] && [ -f "$pydir/byoc/_lib.py" ] ||
    { echo "FAIL install: the Python package is not installed under $tmp/prefix/lib/python3*/dist-packages"; exit 0; }
flags=$(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --cflags --libs byoc 2>&1) || { echo "FAIL install_pkg_config: $flags"; exit 0; }
echo "ok install_pkg_config"
cat > "$tmp/prog.c" <<'PROG'
#define BYOC_SIM_IMPLEMENTATION
#include "byoc_sim.h"
static const char text[] = "def @main(%x: Tensor[(1, 8, 8, 8), float32]) {\n"
                           "  %0 = nn.conv2d(%x, meta[relay.Constant][0] /* ty=Tensor[(8, 8, 3, 3), float32] */, padding=[1, 1, 1, 1]);\n"
                           "  %1 = nn.relu(%0);\n  tanh(%1)\n}\n";
int main(void) {
    byoc_diag d;
    byoc_module *m = byoc_module_parse(text, sizeof text - 1, "prog.relay", NULL, &d);
    byoc_sim_backend *npu = m ? byoc_sim_backend_open("npu", &d) : NULL;
    if (!npu) { printf("error: %s\n", d.message); return 1; }
    const byoc_backend_spec *specs[1] = {npu->spec};
    const byoc_sim_backend *devs[1] = {npu};
    byoc_sim_collage_devices cd;
    memset(&cd, 0, sizeof cd);
    cd.backends = devs;
    cd.count = 1;
    byoc_collage_options o;
    memset(&o, 0, sizeof o);
    o.backends = specs;
    o.nbackends = 1;
    o.cost = byoc_sim_collage_cost;
    o.cost_data = &cd;
    o.bind_constants = 1;
    byoc_collage_stats st;
    const byoc_target *targets[1] = {npu->target};
    byoc_sim_program *p = NULL;
    if (byoc_partition_collage(m, &o, &st, NULL, &d) != BYOC_OK || byoc_run_target_hooks(m, targets, 1, &d) != BYOC_OK ||
        byoc_fuse_ops(m, 256, &d) != BYOC_OK || !(p = byoc_sim_lower(m, NULL, &d))) { printf("error: %s\n", d.message); return 1; }
    static float x[512];
    for (int i = 0; i < 512; ++i) x[i] = (float)(i % 7) * 0.1f;
    byoc_tensor in = {BYOC_FLOAT32, 4, {1, 8, 8, 8}, x}, out;
    if (byoc_sim_run(p, &in, 1, &out, 1, &d) != BYOC_OK) { printf("error: %s\n", d.message); return 1; }
    printf("ran %d kernels, %d ops placed, simulated %.3f us\n", byoc_sim_kernel_count(p), st.nplacement, byoc_sim_latency(p) * 1e6);
    byoc_collage_stats_free(&st);
    byoc_sim_collage_devices_release(&cd);
    byoc_sim_program_destroy(p);
    byoc_sim_backend_close(npu);
    byoc_module_destroy(m);
    return 0;
}
PROG
# only the installed headers: the program is built away from the source tree
if (cd "$tmp" && $CC -std=c99 prog.c -o prog $flags > build.log 2>&1); then echo "ok install_build_against_installed"
else echo "FAIL install_build_against_installed: $(head -c 400 "$tmp/build.log")"; exit 0; fi
out=$("$tmp/prog" 2>&1)
case "$out" in "ran "*" 3 ops placed"*) echo "ok install_program_runs";; *) echo "FAIL install_program_runs: $out";; esac
ver=$("$tmp/prefix/bin/byocc" version 2>&1)
case "$ver" in "byocc "*) echo "ok install_byocc_runs";; *) echo "FAIL install_byocc_runs: $ver";; esac
# the same program against the installed shared library: no IMPLEMENTATION define, -lbyoc through pkg-config
shared=$(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --cflags --libs byoc-shared 2>&1) ||
    { echo "FAIL install_pkg_config_shared: $shared"; exit 0; }
sed '/^#define BYOC_SIM_IMPLEMENTATION$/d' "$tmp/prog.c" > "$tmp/prog_shared.c"
san=""; [ "$SAN" = 1 ] && san="-fsanitize=address,undefined"
if (cd "$tmp" && $CC -std=c99 $san prog_shared.c -o prog_shared $shared > build_shared.log 2>&1); then
    echo "ok install_build_against_libbyoc"
else echo "FAIL install_build_against_libbyoc: $(head -c 400 "$tmp/build_shared.log")"; exit 0; fi
case "$(ldd "$tmp/prog_shared" 2>&1)" in *"$tmp/prefix/lib/libbyoc.so"*) echo "ok install_links_libbyoc";;
    *) echo "FAIL install_links_libbyoc: prog_shared does not load the installed libbyoc.so";; esac
out_shared=$("$tmp/prog_shared" 2>&1)
[ "$out_shared" = "$out" ] && echo "ok install_libbyoc_program_runs" ||
    echo "FAIL install_libbyoc_program_runs: '$out_shared' (the single-header build printed '$out')"
# the installed Python package, away from the source tree and without BYOC_LIBRARY: it loads the installed
# libbyoc.so and runs a module on the simulated npu (under SAN=1 the library carries ASan, whose runtime goes first)
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    preload=""
    [ "$SAN" = 1 ] && preload=$(clang -print-file-name=libclang_rt.asan-x86_64.so 2>/dev/null)
    cat > "$tmp/use.py" <<'PY'
import sys
import numpy as np
import byoc
relay = sys.argv[1] + "/m.relay"
with open(relay, "w") as f:
    f.write('def @main(%x: Tensor[(1, 8, 8, 8), float32]) {\n  %0 = nn.conv2d(%x, meta[relay.Constant][0] '
            '/* ty=Tensor[(8, 8, 3, 3), float32] */, padding=[1, 1, 1, 1]);\n  %1 = nn.relu(%0);\n  tanh(%1)\n}\n')
with byoc.compile(relay, backends=["npu"]) as s:
    y = s.run(None, [np.full((1, 8, 8, 8), 0.1, np.float32)])[0]
    print(byoc.library_path, sorted(s.placement.by_backend()), y.shape)
PY
    got=$(cd "$tmp" && env -u BYOC_LIBRARY PYTHONPATH="$pydir" LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 \
          /usr/bin/python3 use.py "$tmp" 2>&1)
    case "$got" in "$tmp/prefix/lib/libbyoc.so ['host', 'npu'] (1, 8, 8, 8)") echo "ok install_python_package";;
        *) echo "FAIL install_python_package: $(echo "$got" | tail -3 | tr '\n' ' ')";; esac
else
    echo "skipped install_python_package: /usr/bin/python3 has no numpy"
fi
