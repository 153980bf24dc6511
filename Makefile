# byoc.h -- build, test, demo, fuzz.  `make test SAN=1` runs the suite under ASan+UBSan.
CC      ?= cc
CXX     ?= c++
CLANG   ?= clang
OPT     ?= -O2
WARN    := -Wall -Wextra -Wpedantic
CFLAGS  := -std=c99 $(OPT) -g $(WARN)
LDLIBS  := -lm -pthread
BUILD   := build
FUZZ_SECONDS ?= 60

ifeq ($(SAN),1)
CC      := $(CLANG)
CXX     := clang++
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
CFLAGS  := -std=c99 -O1 -g $(WARN) $(SANFLAGS)
LDLIBS  += $(SANFLAGS)
BUILD   := build/san
endif

STB_DS  := /usr/include/stb/stb_ds.h
HEADERS := byoc.h byoc_sim.h

.PHONY: all test test-bins demo fuzz bench deps clean install
all: $(BUILD)/byocc $(BUILD)/libbyoc.so

# clang (with libFuzzer and the sanitizers) builds the SAN suite, the fuzzers and the build checks
CLANG_BIN := /usr/bin/clang
LIT       := /usr/lib/llvm-14/build/utils/lit/lit.py
ONNX_TESTDATA := /usr/share/libonnx-testdata/data/node
PKG_CONFIG_BIN := /usr/bin/pkg-config
# python3-onnx (and numpy) build and check test models; onnxruntime-node (npm, into build/ort for both builds)
# gives the references of the quantized-model tests: when npm cannot install it, those tests say they skipped
PY_ONNX  := /usr/lib/python3/dist-packages/onnx/__init__.py
ORT_NODE := build/ort/node_modules/onnxruntime-node/package.json
# headless Chromium opens byocc report's page (tests/report_browser.py): when it cannot install, that test skips
CHROMIUM_BIN := /usr/bin/chromium
# the Python package's tests (tests/python.sh) run under Debian's pytest
PY_PYTEST := /usr/lib/python3/dist-packages/pytest/__init__.py
deps: $(STB_DS) $(CLANG_BIN) $(LIT) $(ONNX_TESTDATA) $(PKG_CONFIG_BIN) $(PY_ONNX) $(PY_PYTEST) $(ORT_NODE) $(CHROMIUM_BIN)
$(PY_ONNX):
	@tools/ensure-deps.sh $@ python3-onnx python3-numpy
$(PY_PYTEST):
	@tools/ensure-deps.sh $@ python3-pytest python3-numpy
$(ORT_NODE):
	@mkdir -p build/ort && (npm install --prefix build/ort onnxruntime-node --onnxruntime-node-install=skip \
	    > build/ort/npm.log 2>&1 || echo "onnxruntime-node did not install (build/ort/npm.log): the tests needing it skip")
$(CHROMIUM_BIN):
	@tools/ensure-deps.sh $@ chromium || echo "chromium did not install: the report's browser test (tests/report_browser.py) skips"
$(PKG_CONFIG_BIN):
	@tools/ensure-deps.sh $@ pkgconf
$(ONNX_TESTDATA):
	@tools/ensure-deps.sh $@ libonnx-testdata
$(LIT):
	@tools/ensure-deps.sh $@ llvm-14-tools
$(STB_DS):
	@tools/ensure-deps.sh $@ libstb-dev
$(CLANG_BIN):
	@tools/ensure-deps.sh $@ clang

$(BUILD):
	@mkdir -p $@

$(BUILD)/byocc: tools/byocc.c tools/byoc_onnx.h tools/byoc_quantize.h $(HEADERS) $(STB_DS) | $(BUILD)
	$(CC) $(CFLAGS) -I. $< -o $@ $(LDLIBS)

# tests truncate long failure messages on purpose
TEST_CFLAGS := $(CFLAGS) $(if $(findstring clang,$(CC)),,-Wno-format-truncation -Wno-stringop-overread)
LIB_HEADERS := $(HEADERS) tools/byoc_onnx.h tools/byoc_quantize.h

# The library is compiled once (tests/lib/byoc_impl.c: byoc.h, byoc_sim.h and tools/byoc_onnx.h) into
# $(BUILD)/lib/byoc_impl.o, which every unit test in UNIT_TESTS links: a new one is tests/test_NAME.c and
# NAME in that list. The tests that reach into the library's internals (its static functions and types)
# compile the implementation themselves: SELF_TESTS, onnx_node_tests, and byocc (its one cc line).
UNIT_TESTS := core patterns passes property targets sim collage collage_search collage_cflow artifact \
              api ops_windows ops_math ops_losses ops_indexing ops_recurrent ops_sampling ops_dynamic \
              ops_dyn3 ops_quant ops_cflow cflow_passes cflow_onnx ops_fuzz qgemm qdevices fq2i quantize \
              qfused sim_cflow host_rewrites let_chain ops_seq threads sim_seq layout report conv_fusion winograd compile
SELF_TESTS := onnx kernels devices pool fewconv
IMPL_O     := $(BUILD)/lib/byoc_impl.o

$(IMPL_O): tests/lib/byoc_impl.c $(LIB_HEADERS) $(STB_DS)
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -I. -c $< -o $@

# The shared library (Python's ctypes package and -lbyoc): the same implementation compiled with -fPIC, exporting
# only the public API (BYOC_BUILD_SHARED gives byoc_* default visibility; everything else stays hidden)
LIBBYOC := $(BUILD)/libbyoc.so
$(LIBBYOC): tests/lib/byoc_impl.c $(LIB_HEADERS) $(STB_DS) | $(BUILD)
	$(CC) $(TEST_CFLAGS) -fPIC -fvisibility=hidden -DBYOC_BUILD_SHARED -shared -I. $< -o $@ $(LDLIBS)

$(addprefix $(BUILD)/test_,$(UNIT_TESTS)): $(BUILD)/test_%: tests/test_%.c tests/test.h tests/ops_test.h $(LIB_HEADERS) $(IMPL_O) | $(BUILD)
	$(CC) $(TEST_CFLAGS) -I. $< $(IMPL_O) -o $@ $(LDLIBS)

$(addprefix $(BUILD)/test_,$(SELF_TESTS)): $(BUILD)/test_%: tests/test_%.c tests/test.h $(LIB_HEADERS) $(STB_DS) | $(BUILD)
	$(CC) $(TEST_CFLAGS) -I. $< -o $@ $(LDLIBS)

# the ONNX backend node tests of Debian's libonnx-testdata, for every op the importer supports
$(BUILD)/onnx_node_tests: tests/onnx_node_tests.c tools/bench_util.h $(LIB_HEADERS) $(STB_DS) | $(BUILD)
	$(CC) $(TEST_CFLAGS) -I. $< -o $@ $(LDLIBS)

# The fuzzers are built with clang, libFuzzer, ASan and UBSan whatever SAN says, so both suites share them
# (build/fuzz). Those in FUZZ_LINKED link the library compiled once with their flags; fuzz_device and
# fuzz_artifact use the library's internals and compile it themselves.
FUZZ_BUILD  := build/fuzz
FUZZ_CFLAGS := -std=c99 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_LINKED := text weights pattern backend onnx placement quantize
FUZZ_SELF   := device artifact
FUZZERS     := $(FUZZ_LINKED) $(FUZZ_SELF)
FUZZ_IMPL_O := $(FUZZ_BUILD)/lib/byoc_impl.o

$(FUZZ_IMPL_O): tests/lib/byoc_impl.c $(LIB_HEADERS) $(STB_DS) $(CLANG_BIN)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -I. -c $< -o $@

$(addprefix $(FUZZ_BUILD)/fuzz_,$(FUZZ_LINKED)): $(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(LIB_HEADERS) $(FUZZ_IMPL_O) \
  tests/fuzz/fuzz_evaluate.h
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer -I. $< $(FUZZ_IMPL_O) -o $@ -lm

$(addprefix $(FUZZ_BUILD)/fuzz_,$(FUZZ_SELF)): $(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(LIB_HEADERS) $(STB_DS) $(CLANG_BIN)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer -I. $< -o $@ -lm

# the programs that compile the implementation themselves first, so the two jobs stay busy
TEST_BINS := $(BUILD)/byocc $(BUILD)/core_latency $(LIBBYOC) $(BUILD)/onnx_node_tests $(addprefix $(BUILD)/test_,$(SELF_TESTS)) $(addprefix $(FUZZ_BUILD)/fuzz_,$(FUZZ_SELF)) \
             $(IMPL_O) $(FUZZ_IMPL_O) $(addprefix $(BUILD)/test_,$(UNIT_TESTS)) $(addprefix $(FUZZ_BUILD)/fuzz_,$(FUZZ_LINKED))

# make test builds with JOBS jobs (default 2) unless make was given -j, then runs JOBS test groups at a time
JOBS ?= 2
test: deps
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS)) test-bins
	@CC="$(CC)" CXX="$(CXX)" BUILD="$(BUILD)" FUZZ_BUILD="$(FUZZ_BUILD)" SAN="$(SAN)" JOBS="$(JOBS)" \
	  TESTS="$(UNIT_TESTS) $(SELF_TESTS)" FUZZERS="$(FUZZERS)" sh tests/run.sh
test-bins: $(TEST_BINS)

# make demo: a real model (Ultra-Light-Fast face detector, from $(MODELS)) imported from ONNX, placed on the
# built-in simulated npu and dsp with the rest on the host, run, and checked against ONNX Runtime and the
# host-only run; without the models, the bundled MNIST.
MODELS ?= $(if $(BYOC_MODELS),$(BYOC_MODELS),../shared/models)
DEMO_MODEL := $(MODELS)/ultraface_rfb320
demo: $(BUILD)/byocc
	@mkdir -p $(BUILD)/demo
	@if [ -f $(DEMO_MODEL)/model.onnx ]; then \
	  echo "== byocc partition $(DEMO_MODEL)/model.onnx --backend npu --backend dsp   (placement: the first ops, then the partitions)"; \
	  $(BUILD)/byocc partition $(DEMO_MODEL)/model.onnx --backend npu --backend dsp > $(BUILD)/demo/placement.txt || exit 1; \
	  sed -n '1,16p' $(BUILD)/demo/placement.txt; echo "   ... (all of it: $(BUILD)/demo/placement.txt)"; \
	  sed -n '/^partition /,$$p' $(BUILD)/demo/placement.txt; \
	  echo; echo "== byocc run $(DEMO_MODEL)/model.onnx --backend npu --backend dsp --input $(DEMO_MODEL)/input_0.npy --compare-to $(DEMO_MODEL) --reference host --profile --trace $(BUILD)/demo/trace.json"; \
	  $(BUILD)/byocc run $(DEMO_MODEL)/model.onnx --backend npu --backend dsp --input $(DEMO_MODEL)/input_0.npy --compare-to $(DEMO_MODEL) --reference host \
	    --profile --trace $(BUILD)/demo/trace.json || exit 1; \
	  echo; echo "(the timeline: open $(BUILD)/demo/trace.json in https://ui.perfetto.dev, one track per device)"; \
	  echo; echo "== byocc partition $(DEMO_MODEL)/model.onnx --backend npu --backend dsp --strategy collage --save-placement $(BUILD)/demo/collage.placement   (the searched plan beside greedy)"; \
	  $(BUILD)/byocc partition $(DEMO_MODEL)/model.onnx --backend npu --backend dsp --strategy collage --save-placement $(BUILD)/demo/collage.placement > $(BUILD)/demo/collage.txt || exit 1; \
	  sed -n '/^partition /,$$p' $(BUILD)/demo/collage.txt; \
	  echo; echo "== byocc run $(DEMO_MODEL)/model.onnx --backend npu --backend dsp --strategy collage --placement $(BUILD)/demo/collage.placement --input $(DEMO_MODEL)/input_0.npy --compare-to $(DEMO_MODEL) --reference host"; \
	  $(BUILD)/byocc run $(DEMO_MODEL)/model.onnx --backend npu --backend dsp --strategy collage --placement $(BUILD)/demo/collage.placement \
	    --input $(DEMO_MODEL)/input_0.npy --compare-to $(DEMO_MODEL) --reference host || exit 1; \
	  echo; echo "== byocc compile $(DEMO_MODEL)/model.onnx --backend npu --backend dsp --strategy collage -o $(BUILD)/demo/ultraface.byoc --source-map $(BUILD)/demo/ultraface.json"; \
	  $(BUILD)/byocc compile $(DEMO_MODEL)/model.onnx --backend npu --backend dsp --strategy collage -o $(BUILD)/demo/ultraface.byoc --source-map $(BUILD)/demo/ultraface.json || exit 1; \
	  echo; echo "== byocc run $(BUILD)/demo/ultraface.byoc --input $(DEMO_MODEL)/input_0.npy --compare-to $(DEMO_MODEL)   (the artifact, loaded and checked)"; \
	  $(BUILD)/byocc run $(BUILD)/demo/ultraface.byoc --input $(DEMO_MODEL)/input_0.npy --compare-to $(DEMO_MODEL) || exit 1; \
	  echo; echo "== byocc explain $(BUILD)/demo/ultraface.byoc 318   (where an ONNX node ran, and why)"; \
	  $(BUILD)/byocc explain $(BUILD)/demo/ultraface.byoc 318 || exit 1; \
	  echo; echo "== examples/embed_runtime.c: the runtime alone (no compiler linked), from its own memory pool"; \
	  $(CC) -std=c99 -O2 -I. examples/embed_runtime.c -o $(BUILD)/embed_runtime -lm && $(BUILD)/embed_runtime $(BUILD)/demo/ultraface.byoc | grep -v '^kernel' || exit 1; \
	else \
	  echo "(no $(DEMO_MODEL): the ONNX part of the demo is skipped; BYOC_MODELS=DIR points elsewhere)"; \
	  echo; echo "== byocc partition tests/inputs/mnist.relay --backend npu --backend dsp   (the Collage design doc's MNIST)"; \
	  $(BUILD)/byocc partition tests/inputs/mnist.relay --backend npu --backend dsp || exit 1; \
	  echo; echo "== byocc run tests/inputs/mnist.relay --backend npu --backend dsp --reference host --profile --trace $(BUILD)/demo/trace.json   (seeded input)"; \
	  $(BUILD)/byocc run tests/inputs/mnist.relay --backend npu --backend dsp --reference host --profile --trace $(BUILD)/demo/trace.json || exit 1; \
	  echo; echo "== byocc run tests/inputs/mnist.relay --backend npu --backend dsp --strategy collage --reference host   (the searched plan beside greedy)"; \
	  $(BUILD)/byocc run tests/inputs/mnist.relay --backend npu --backend dsp --strategy collage --reference host --profile | grep -v '^  ' || exit 1; \
	  echo; echo "== byocc compile tests/inputs/mnist.relay --backend npu --backend dsp -o $(BUILD)/demo/mnist.byoc, then examples/embed_runtime.c runs it"; \
	  $(BUILD)/byocc compile tests/inputs/mnist.relay --backend npu --backend dsp -o $(BUILD)/demo/mnist.byoc || exit 1; \
	  $(CC) -std=c99 -O2 -I. examples/embed_runtime.c -o $(BUILD)/embed_runtime -lm && $(BUILD)/embed_runtime $(BUILD)/demo/mnist.byoc || exit 1; \
	fi

fuzz: $(addprefix $(FUZZ_BUILD)/fuzz_,$(FUZZERS))
	@for f in $(FUZZERS); do \
	  work=$(BUILD)/fuzz-work/$$f; mkdir -p $$work; cp tests/fuzz/corpus/$$f/* $$work/ 2>/dev/null; \
	  if [ $$f = onnx ] && [ -d $(ONNX_TESTDATA) ]; then for t in $(ONNX_TESTDATA)/*/model.onnx; do \
	    cp $$t $$work/seed_$$(basename $$(dirname $$t)).onnx; done; fi; \
	  echo "== fuzz_$$f for $(FUZZ_SECONDS)s"; \
	  $(FUZZ_BUILD)/fuzz_$$f -max_total_time=$(FUZZ_SECONDS) -max_len=$$(if [ $$f = device ] || [ $$f = artifact ]; then echo 32768; else echo 4096; fi) -print_final_stats=1 $$work tests/fuzz/corpus/$$f 2>&1 | tail -5 || exit 1; \
	done

# the partition pipeline on synthetic 1k/10k/50k-node graphs (median of 11). Times are
# machine-dependent: compare within one run.
$(BUILD)/bench: tools/bench.c tools/synthetic.h tools/bench_util.h $(HEADERS) $(STB_DS) | $(BUILD)
	$(CC) -std=c99 -O2 -g $(WARN) -I. $< -o $@ -lm

# GEMM and conv2d against OpenBLAS (Debian libopenblas-dev, the baseline only: byoc.h never links it)
OPENBLAS_LIB := /usr/lib/x86_64-linux-gnu/libopenblas.so
$(OPENBLAS_LIB):
	@tools/ensure-deps.sh $@ libopenblas-dev
$(BUILD)/bench_kernels: tools/bench_kernels.c tools/bench_util.h $(HEADERS) $(STB_DS) $(OPENBLAS_LIB) | $(BUILD)
	$(CC) -std=c99 -O2 -g $(WARN) -I. $< -o $@ -lopenblas -lm

# the simulated SoC on every shared model: estimator against simulator, command streams against host kernels
$(BUILD)/bench_devices: tools/bench_devices.c tools/bench_util.h tools/byoc_onnx.h tools/byoc_quantize.h $(HEADERS) $(STB_DS) | $(BUILD)
	$(CC) -std=c99 -O2 -g $(WARN) -I. $< -o $@ -lm

# the Collage search: synthetic graphs and every shared model (search time, simulated latency against greedy)
$(BUILD)/bench_collage: tools/bench_collage.c tools/bench_util.h tools/synthetic.h tools/byoc_onnx.h $(HEADERS) $(STB_DS) | $(BUILD)
	$(CC) -std=c99 -O2 -g $(WARN) -I. $< -o $@ -lm

# the round trip of a cache line between the first two CPUs (which cores a VM's two vCPUs share a cache on), printed
# by tools/bench_models.sh beside each model's thread speedup
$(BUILD)/core_latency: tools/core_latency.c | $(BUILD)
	$(CC) -std=c99 -O2 -g $(WARN) $< -o $@ -pthread

# make bench: the partition pipeline on synthetic graphs, the kernels against OpenBLAS, every shared
# model and its quantized version (tools/quantize_models.sh) against ONNX Runtime (onnxruntime-node from
# npm, installed into build/ort), and the simulated devices and the Collage search; tables in build/bench.md,
# rows in build/bench*.json
BENCH_RUNS ?= 20
BENCH_ROUNDS ?= 5
bench: $(BUILD)/bench $(BUILD)/bench_kernels $(BUILD)/bench_devices $(BUILD)/bench_collage $(BUILD)/byocc \
       $(BUILD)/core_latency
	@$(BUILD)/bench $(BUILD)/bench.json | tee $(BUILD)/bench.md
	@echo | tee -a $(BUILD)/bench.md
	@OPENBLAS_NUM_THREADS=1 $(BUILD)/bench_kernels $(BUILD)/bench_kernels.json | tee -a $(BUILD)/bench.md
	@echo "## Models, 1 and 2 threads: byocc run against ONNX Runtime (ms, the median of $(BENCH_ROUNDS) alternating rounds, each the median of $(BENCH_RUNS) runs; the last column: the two cores' cache-line round trip right before byocc's two-thread runs, the rounds' median and their range when they differ, tools/core_latency.c)" | tee -a $(BUILD)/bench.md
	@echo | tee -a $(BUILD)/bench.md
	@BENCH_ROUNDS=$(BENCH_ROUNDS) CORE_LATENCY=$(BUILD)/core_latency BYOC_MODELS="$(MODELS) tests/models" \
	  sh tools/bench_models.sh $(BUILD)/byocc $(BENCH_RUNS) $(BUILD)/bench_models.json | tee -a $(BUILD)/bench.md
	@echo | tee -a $(BUILD)/bench.md
	@echo "## Quantized models (byocc quantize --per-channel), one thread: byocc run against ONNX Runtime" | tee -a $(BUILD)/bench.md
	@echo | tee -a $(BUILD)/bench.md
	@rm -rf $(BUILD)/qmodels && sh tools/quantize_models.sh $(BUILD)/byocc $(MODELS) $(BUILD)/qmodels | tee -a $(BUILD)/bench.md
	@BENCH_ROUNDS=$(BENCH_ROUNDS) CORE_LATENCY=$(BUILD)/core_latency BYOC_MODELS=$(BUILD)/qmodels \
	  sh tools/bench_models.sh $(BUILD)/byocc $(BENCH_RUNS) $(BUILD)/bench_qmodels.json | tee -a $(BUILD)/bench.md
	@echo | tee -a $(BUILD)/bench.md
	@$(BUILD)/bench_devices $(MODELS) 5 $(BUILD)/bench_devices.json | tee -a $(BUILD)/bench.md
	@echo | tee -a $(BUILD)/bench.md
	@$(BUILD)/bench_collage $(MODELS) 3 $(BUILD)/bench_collage.json | tee -a $(BUILD)/bench.md

# make install PREFIX=DIR: the headers (DIR/include/byoc: byoc.h, byoc_sim.h, tools/byoc_onnx.h), byocc,
# DIR/lib/libbyoc.so and two pkg-config files: byoc.pc for the single-header use (cc prog.c $$(pkg-config
# --cflags --libs byoc), one file defining BYOC_SIM_IMPLEMENTATION) and byoc-shared.pc to link the shared
# library instead (cc prog.c $$(pkg-config --cflags --libs byoc-shared), no IMPLEMENTATION define); DESTDIR stages it.
# The Python package goes to PYTHON_DIR (Debian's site directory under PREFIX: /usr/local/lib/python3.X/dist-packages
# is on /usr/bin/python3's path), where it finds PREFIX/lib/libbyoc.so three directories up
PREFIX ?= /usr/local
PYTHON_DIR ?= $(PREFIX)/lib/$(shell /usr/bin/python3 -c 'import sys; print("python%d.%d" % sys.version_info[:2])' \
                2>/dev/null || echo python3)/dist-packages
VERSION := $(shell sed -n 's/^#define BYOC_VERSION_STRING "\(.*\)"/\1/p' byoc.h)
install: $(BUILD)/byocc $(LIBBYOC)
	@mkdir -p $(DESTDIR)$(PREFIX)/include/byoc/tools $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig
	cp byoc.h byoc_sim.h $(DESTDIR)$(PREFIX)/include/byoc/
	cp tools/byoc_onnx.h tools/byoc_quantize.h $(DESTDIR)$(PREFIX)/include/byoc/tools/
	cp $(BUILD)/byocc $(DESTDIR)$(PREFIX)/bin/
	cp $(LIBBYOC) $(DESTDIR)$(PREFIX)/lib/
	@mkdir -p $(DESTDIR)$(PYTHON_DIR)/byoc
	cp python/byoc/*.py $(DESTDIR)$(PYTHON_DIR)/byoc/
	for pc in byoc byoc-shared; do \
	  sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' tools/$$pc.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/$$pc.pc || exit 1; \
	done

clean:
	rm -rf build
