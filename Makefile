# dmlref: plain Makefile.  `make` builds the libraries and the command,
# `make test` runs the whole suite, `make test-asan` the same under ASan+UBSan.
#
#   make CC=clang            build with clang
#   make OPENMP=0 SIMD=0     reduced builds (no OpenMP / no SIMDe fast paths)
#   make BUILD=dir           put objects and binaries in another directory

CC      ?= cc
BUILD   ?= build
PREFIX  ?= /usr/local
OPENMP  ?= 1
SIMD    ?= 1
SAN     ?= 0
PYTHON  ?= /usr/bin/python3

WARN     = -Wall -Wextra -pedantic -Werror
CFLAGS  ?= -O2 -g
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) -fPIC -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L
LDLIBS_LIB =

ifeq ($(OPENMP),1)
ALL_CFLAGS += -fopenmp
LDLIBS_LIB += -fopenmp
endif
ifeq ($(SIMD),1)
ALL_CFLAGS += -DDMLREF_SIMD=1
else
ALL_CFLAGS += -DDMLREF_SIMD=0
endif
ifeq ($(SAN),1)
ALL_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDLIBS_LIB += -fsanitize=address,undefined
endif
ALL_CFLAGS += $(EXTRA_CFLAGS)

LIB_SRC  = $(wildcard src/*.c) $(wildcard src/simd/*.c)
LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_SRC  = $(wildcard cli/*.c)
CLI_OBJ  = $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_SRC = $(wildcard tests/unit/*.c)
TEST_OBJ = $(TEST_SRC:%.c=$(BUILD)/%.o)

STATIC = $(BUILD)/libdmlref.a
SHARED = $(BUILD)/libdmlref.so
CLI    = $(BUILD)/dmlref
UNIT   = $(BUILD)/test_unit

.PHONY: all lib cli test test-asan unit install clean examples
all: lib cli
lib: $(STATIC) $(SHARED)
cli: $(CLI)

$(BUILD)/%.o: %.c $(wildcard include/*.h src/*.h src/simd/*.h cli/*.h tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(STATIC): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(SHARED): $(LIB_OBJ)
	$(CC) -shared -o $@ $^ $(LDLIBS_LIB)

$(CLI): $(CLI_OBJ) $(STATIC)
	$(CC) -o $@ $(CLI_OBJ) $(STATIC) $(LDLIBS_LIB) -ljson-c -lm

$(UNIT): $(TEST_OBJ) $(STATIC)
	$(CC) -o $@ $(TEST_OBJ) $(STATIC) $(LDLIBS_LIB) -lm -lpthread

unit: $(UNIT)

# The differential test's driver (tests/numpy/diff.py, tests/suites/numpy.sh).
NUMPY_DRIVER = $(BUILD)/numpy_driver
$(NUMPY_DRIVER): $(BUILD)/tests/numpy/driver.o $(STATIC)
	$(CC) -o $@ $(BUILD)/tests/numpy/driver.o $(STATIC) $(LDLIBS_LIB)

# The README's C example (examples/gather.c), built against the static library.
EXAMPLE = $(BUILD)/example_gather
$(EXAMPLE): examples/gather.c $(STATIC)
	$(CC) $(ALL_CFLAGS) -o $@ examples/gather.c $(STATIC) $(LDLIBS_LIB)

# The README's main job: every documented DirectML example through `dmlref run`
# (outputs printed, compared with the documented ones), then the C example.
examples: $(CLI) $(EXAMPLE)
	@for f in tests/cases/*.json; do \
	    echo "== dmlref run $$f"; $(CLI) run "$$f" || exit 1; done
	@echo "== $(EXAMPLE)"; $(EXAMPLE)

# The README's test command.  Runs every suite and ends with "N passed, N failed".
test: $(UNIT) $(NUMPY_DRIVER) $(EXAMPLE) $(if $(CLI_SRC),$(CLI)) $(BUILD)/bench
	BUILD=$(BUILD) PYTHON=$(PYTHON) sh tests/run.sh

test-asan:
	$(MAKE) BUILD=build-asan SAN=1 CC=$(CC) test

install: lib
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/dmlref.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(STATIC) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED) $(DESTDIR)$(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBS@|$(LDLIBS_LIB)|' dmlref.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/dmlref.pc

clean:
	rm -rf build build-*

# ---------------------------------------------------------------------------
# Fast paths (src/simd/README.md).
#
#   make bench [BENCH_ARGS="--repeat 5 gather"]   the workloads of shared/perf/workloads.md
#   make test-portable     unit tests with SIMDe's portable fallbacks (-DSIMDE_NO_NATIVE)
#   make test-avx2         unit tests built with -mavx2 (256-bit SIMD primitives)
# ---------------------------------------------------------------------------
BENCH = $(BUILD)/bench
.PHONY: bench test-portable test-avx2

$(BENCH): bench/bench.c $(STATIC)
	$(CC) $(ALL_CFLAGS) -o $@ bench/bench.c $(STATIC) $(LDLIBS_LIB)

bench: $(BENCH)
	$(BENCH) $(BENCH_ARGS)

test-portable:
	$(MAKE) BUILD=build-portable EXTRA_CFLAGS="$(EXTRA_CFLAGS) -DSIMDE_NO_NATIVE" build-portable/test_unit
	./build-portable/test_unit

# The unit tests built with -mavx2, where the SIMD primitives use 256-bit
# vectors (needs a CPU with AVX2; .ci/run skips it on one without).
test-avx2:
	$(MAKE) BUILD=build-avx2 EXTRA_CFLAGS="$(EXTRA_CFLAGS) -mavx2" build-avx2/test_unit
	./build-avx2/test_unit

# ---------------------------------------------------------------------------
# Hardening (docs/hardening.md): libFuzzer targets, ThreadSanitizer, valgrind.
#
#   make fuzz                 build the fuzz targets in build-fuzz (clang)
#   make fuzz-run SECONDS=N   replay the corpus, then fuzz each target N seconds
#   make fuzz-replay          run each target once over its corpus
#   make test-tsan            unit tests under ThreadSanitizer (OPENMP=0)
#   make valgrind             unit tests under valgrind (OPENMP=0)
# ---------------------------------------------------------------------------
FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build-fuzz
FUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SECONDS      ?= 30
FUZZ_RSS_MB  ?= 1024
# fuzz_case (the case-file reader) links the command's objects but cli/main.o.
FUZZ_TARGETS  = fuzz_desc $(if $(and $(wildcard fuzz/fuzz_case.c),$(wildcard cli/case.c)),fuzz_case)
FUZZ_CLI_OBJ  = $(filter-out $(BUILD)/cli/main.o,$(CLI_OBJ))
FUZZ_OPTS     = -rss_limit_mb=$(FUZZ_RSS_MB) -timeout=10 -print_final_stats=1
# $(call fuzz_step,NAME,ARGS): runs every target with ARGS ($$t is the target)
# and prints "fuzz-NAME: N passed, N failed".
fuzz_step = pass=0; fail=0; \
	for t in $(FUZZ_TARGETS); do \
	  dict=; [ -f fuzz/$$t.dict ] && dict=-dict=fuzz/$$t.dict; \
	  maxlen=4096; [ $$t = fuzz_case ] && maxlen=16384; \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/artifacts; \
	  echo "== $$t ($(1))"; \
	  if $(FUZZ_BUILD)/$$t $(FUZZ_OPTS) -max_len=$$maxlen $$dict -artifact_prefix=$(FUZZ_BUILD)/artifacts/$$t- $(2); \
	  then pass=$$((pass + 1)); else fail=$$((fail + 1)); fi; \
	done; echo "fuzz-$(1): $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

.PHONY: fuzz fuzz-bins fuzz-run fuzz-replay test-tsan valgrind

fuzz:
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) CFLAGS="-O1 -g" \
	    EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" fuzz-bins

fuzz-bins: $(FUZZ_TARGETS:%=$(BUILD)/%)

$(BUILD)/fuzz_desc: fuzz/fuzz_desc.c $(STATIC)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer $< $(STATIC) $(LDLIBS_LIB) -lm -o $@

# The command's objects in an archive, so only what the reader needs is linked.
$(BUILD)/libdmlref_cli.a: $(FUZZ_CLI_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/fuzz_case: fuzz/fuzz_case.c $(BUILD)/libdmlref_cli.a $(STATIC)
	$(CC) $(ALL_CFLAGS) -Icli -fsanitize=fuzzer $< $(BUILD)/libdmlref_cli.a $(STATIC) $(LDLIBS_LIB) -ljson-c -lm -o $@

# Each target over its committed corpus once (-runs=0: no mutation).
fuzz-replay: fuzz
	@$(call fuzz_step,replay,-runs=0 fuzz/corpus/$$t)

# The corpus replay, then N seconds of fuzzing per target; new inputs go to
# build-fuzz/corpus/<target>, crashes to build-fuzz/artifacts/.
fuzz-run: fuzz-replay
	@$(call fuzz_step,run,-max_total_time=$(SECONDS) $(FUZZ_BUILD)/corpus/$$t fuzz/corpus/$$t)

# ThreadSanitizer: OpenMP's runtime is not TSan-instrumented and gives false
# reports, so this build has OPENMP=0 (threads come from test_threads.c).
test-tsan:
	$(MAKE) BUILD=build-tsan OPENMP=0 CC="clang -fsanitize=thread" CFLAGS="-O1 -g" build-tsan/test_unit
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" ./build-tsan/test_unit

# valgrind over the unit tests, without sanitizers; OPENMP=0 avoids libgomp's
# thread-pool noise.  Any error or leak fails the target.
valgrind:
	$(MAKE) BUILD=build-valgrind OPENMP=0 build-valgrind/test_unit
	valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
	    ./build-valgrind/test_unit
