#!/bin/sh
# make install into a temporary prefix, then a program built only against the installed copy (found with
# pkg-config) imports nothing from the source tree: it partitions a module with the Collage search and runs
# it on the simulated devices; the same program linked with the installed libbyoc.so (pkg-config byoc-shared)
# instead of compiling the implementation runs too; and the installed byocc runs. One "ok NAME" / "FAIL NAME: why" line each.
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
