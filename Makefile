# byoc.h -- build, test, demo, fuzz.  `make test SAN=1` runs the suite under ASan+UBSan.
CC      ?= cc
CXX     ?= c++
CLANG   ?= clang
OPT     ?= -O2
WARN    := -Wall -Wextra -Wpedantic
CFLAGS  := -std=c99 $(OPT) -g $(WARN)
LDLIBS  := -lm
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
FUZZERS := text weights pattern backend
HEADERS := byoc.h

.PHONY: all test demo fuzz bench deps clean
all: $(BUILD)/byocc

# clang (with libFuzzer and the sanitizers) builds the SAN suite, the fuzzers and the build checks
CLANG_BIN := /usr/bin/clang
LIT       := /usr/lib/llvm-14/build/utils/lit/lit.py
deps: $(STB_DS) $(CLANG_BIN) $(LIT)
$(LIT):
	@tools/ensure-deps.sh $@ llvm-14-tools
$(STB_DS):
	@tools/ensure-deps.sh $@ libstb-dev
$(CLANG_BIN):
	@tools/ensure-deps.sh $@ clang

$(BUILD):
	@mkdir -p $@

$(BUILD)/byocc: tools/byocc.c $(HEADERS) $(STB_DS) | $(BUILD)
	$(CC) $(CFLAGS) -I. $< -o $@ $(LDLIBS)

# tests truncate long failure messages on purpose
TEST_CFLAGS := $(CFLAGS) $(if $(findstring clang,$(CC)),,-Wno-format-truncation -Wno-stringop-overread)
UNIT_TESTS := test_core test_patterns test_passes test_property test_targets
$(BUILD)/test_%: tests/test_%.c tests/test.h $(HEADERS) $(STB_DS) | $(BUILD)
	$(CC) $(TEST_CFLAGS) -I. $< -o $@ $(LDLIBS)

TEST_BINS := $(BUILD)/byocc $(addprefix $(BUILD)/,$(UNIT_TESTS)) $(addprefix $(BUILD)/fuzz_,$(FUZZERS))

test: deps $(TEST_BINS)
	@CC="$(CC)" CXX="$(CXX)" BUILD="$(BUILD)" SAN="$(SAN)" sh tests/run.sh

demo: $(BUILD)/byocc
	@echo "== byocc info tests/inputs/mnist.relay   (the MNIST module from the Collage design doc)"
	@$(BUILD)/byocc info tests/inputs/mnist.relay
	@echo
	@echo "== byocc opt tests/inputs/mnist.relay --passes infer_type --emit relay --print-types"
	@$(BUILD)/byocc opt tests/inputs/mnist.relay --passes infer_type --emit relay --print-types
	@echo
	@echo "== MNIST partitioned for examples/backends/demo_npu.backend (MergeComposite, AnnotateTarget,"
	@echo "   MergeCompilerRegions, PartitionGraph)"
	@$(BUILD)/byocc opt tests/inputs/mnist.relay --backend examples/backends/demo_npu.backend \
	    --passes merge_composite,annotate_target,merge_compiler_regions,partition_graph --emit relay
	@echo
	@echo "== Where each MNIST op runs: greedy placement on an NPU and a DSP, host last"
	@echo "   byocc partition tests/inputs/mnist.relay --backend examples/backends/npu.backend --backend examples/backends/dsp.backend"
	@$(BUILD)/byocc partition tests/inputs/mnist.relay --backend examples/backends/npu.backend --backend examples/backends/dsp.backend

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(HEADERS) $(STB_DS) $(CLANG_BIN) | $(BUILD)
	$(CLANG) -std=c99 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I. $< -o $@ -lm

fuzz: $(addprefix $(BUILD)/fuzz_,$(FUZZERS))
	@for f in $(FUZZERS); do \
	  work=$(BUILD)/fuzz-work/$$f; mkdir -p $$work; cp tests/fuzz/corpus/$$f/* $$work/ 2>/dev/null; \
	  echo "== fuzz_$$f for $(FUZZ_SECONDS)s"; \
	  $(BUILD)/fuzz_$$f -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -print_final_stats=1 $$work tests/fuzz/corpus/$$f 2>&1 | tail -5 || exit 1; \
	done

# make bench: the partition pipeline on synthetic 1k/10k/50k-node graphs (median of 11); writes
# build/bench.md and build/bench.json. Times are machine-dependent: compare within one run.
$(BUILD)/bench: tools/bench.c $(HEADERS) $(STB_DS) | $(BUILD)
	$(CC) -std=c99 -O2 -g $(WARN) -I. $< -o $@ -lm

bench: $(BUILD)/bench
	@$(BUILD)/bench $(BUILD)/bench.json | tee $(BUILD)/bench.md

clean:
	rm -rf build
