# dmlref: plain Makefile.  `make` builds the libraries and the command,
# `make test` runs the whole suite, `make test-asan` the same under ASan+UBSan.
#
#   make CC=clang            build with clang
#   make OPENMP=0 SIMD=0     reduced builds (no OpenMP / no SIMDe fast paths)
#   make BUILD=dir           put objects and binaries in another directory
#   make install [PREFIX=/usr/local] [LIBDIR=$(PREFIX)/lib] [DESTDIR=stage]
#                            bin/dmlref, include/dmlref.h, libdmlref.a,
#                            libdmlref.so.X.Y.Z + .so.X + .so, pkgconfig/dmlref.pc
#   make uninstall           removes those files again (same PREFIX/LIBDIR/DESTDIR;
#                            directories are left in place)
#   make test-ship           the shipping checks (scripts/check-*.sh, code-size.sh),
#                            ending with "ship: N passed, N failed"
#   make code-size           the table of libdmlref.a text bytes (scripts/code-size.sh)
#   make stack-usage         the static worst-case stack of compile and execute per
#                            operator on the Cortex-M4F (scripts/stack-usage.sh)
#
# What is built (in $(BUILD)):
#   libdmlref.so.X.Y.Z       SONAME libdmlref.so.X, symlinks libdmlref.so.X and
#                            libdmlref.so; X.Y.Z are the DMLREF_VERSION_* macros of
#                            include/dmlref.h (the one place the version is written)
#   libdmlref.a              the shipped static library: the objects linked into
#                            one (libdmlref.o, `$(CC) -r`), hidden symbols made local
#                            (`$(OBJCOPY) --localize-hidden`), so only dmlref_* is
#                            global; the library is compiled with -fvisibility=hidden
#                            and include/dmlref.h's DMLREF_API exports the API
#   libdmlref_internal.a     the plain objects, internal names global: for the
#                            unit tests, fuzz targets, bench and the numpy driver
#   dmlref                   the command (linked against the shipped libdmlref.a)
#   failalloc.so             (make test) the out-of-memory sweep's LD_PRELOAD library
#   flags.stamp              the build configuration (compiler, tools, every flag,
#                            switch and the version); rewritten only when it changes,
#                            every object and link depends on it, so `make` after
#                            `make OPENMP=0` (or any other change) rebuilds
#
# Variables honoured (command line or environment):
#   CC AR RANLIB OBJCOPY NM  tools; CROSS=arm-linux-gnueabihf- sets their
#                            defaults to $(CROSS)gcc, $(CROSS)ar, ... (cross builds)
#   CPPFLAGS CFLAGS LDFLAGS  as usual (CFLAGS default -O2 -g); EXTRA_CFLAGS is
#                            added after the project's flags
#   OPENMP=1 SIMD=1 SAN=0    switches (SAN=1: ASan+UBSan)
#   MESSAGES=1               0: no message formatting (-DDMLREF_MESSAGES=0: statuses,
#                            rule ids and field names stay, dmlref_error.message holds
#                            the rule id or is empty; include/dmlref.h)
#   ORACLE_ONLY=0            1: the fast paths (*_fast.c, the plan hooks) are not
#                            compiled; every operator runs its oracle
#   SMALL=0                  1: a small target (-DDMLREF_SMALL=1): the fast paths'
#                            chunk buffers on the stack are at most 256 bytes (same
#                            outputs; docs/baremetal.md)
#   PIC=-fPIC                the library objects' code model (empty for bare metal)
#   (bare metal: DMLREF_NO_MALLOC=1 DMLREF_NO_ENV=1 in EXTRA_CFLAGS, docs/baremetal.md;
#    make test-baremetal, scripts/baremetal.sh)
#   SHARED=1                 0: no shared library (built, installed or checked)
#   LOCALIZE=1               0: libdmlref.a holds the plain objects (no `-r` link,
#                            no objcopy); internal names then stay global
#   WITH_CLI=1               0: `all` builds the libraries only (no command)
#   PREFIX LIBDIR BINDIR INCLUDEDIR PKGCONFIGDIR DESTDIR   install locations
#   PYTHON                   the python3 with numpy the tests use
# CC=emcc (wasm32: no shared libraries, no objcopy, no libgomp, no SIMDe in its
# sysroot; the command needs a file system, node's with -sNODERAWFS=1) changes
# the defaults to SHARED=0 LOCALIZE=0 OPENMP=0 SIMD=0 WITH_CLI=0 AR=emar
# RANLIB=emranlib; each can still be given (WITH_CLI=1 builds the command).

BUILD   ?= build
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
LIBDIR  ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
SAN     ?= 0
MESSAGES ?= 1
ORACLE_ONLY ?= 0
SMALL ?= 0
PYTHON  ?= /usr/bin/python3

# Tools.  make's built-in defaults of CC (cc) and AR (ar) give way to CROSS;
# a CC or AR given on the command line or in the environment is kept.
CROSS   ?=
ifeq ($(origin CC),default)
CC       = $(if $(CROSS),$(CROSS)gcc,cc)
endif
IS_EMCC := $(if $(findstring emcc,$(notdir $(firstword $(CC)))),1)
OPENMP  ?= $(if $(IS_EMCC),0,1)
SIMD    ?= $(if $(IS_EMCC),0,1)
WITH_CLI ?= $(if $(IS_EMCC),0,1)
ifeq ($(origin AR),default)
AR       = $(if $(IS_EMCC),emar,$(CROSS)ar)
endif
RANLIB  ?= $(if $(IS_EMCC),emranlib,$(CROSS)ranlib)
OBJCOPY ?= $(CROSS)objcopy
NM      ?= $(CROSS)nm
SHARED  ?= $(if $(IS_EMCC),0,1)
LOCALIZE ?= $(if $(IS_EMCC),0,1)

# The version, from include/dmlref.h.
version_macro = $(shell sed -n 's/^\#define DMLREF_VERSION_$(1) \([0-9][0-9]*\).*/\1/p' include/dmlref.h)
VERSION_MAJOR := $(call version_macro,MAJOR)
VERSION_MINOR := $(call version_macro,MINOR)
VERSION_PATCH := $(call version_macro,PATCH)
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)
ifneq ($(words $(VERSION_MAJOR) $(VERSION_MINOR) $(VERSION_PATCH)),3)
$(error cannot read DMLREF_VERSION_MAJOR/MINOR/PATCH from include/dmlref.h)
endif

WARN     = -Wall -Wextra -pedantic -Werror
CFLAGS  ?= -O2 -g
# _FILE_OFFSET_BITS=64: on 32-bit hosts stat() and readdir() otherwise fail with
# EOVERFLOW on a file system with 64-bit inode numbers (the in/out guard, the tests' listing).
PIC     ?= -fPIC
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) $(PIC) -Iinclude -Isrc -I. -D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64
# The library's own objects: only what DMLREF_API marks is exported.
LIB_CFLAGS = -fvisibility=hidden -ffunction-sections -fdata-sections
LDLIBS_LIB =
# What a static link of libdmlref.a needs besides it (dmlref.pc's Libs.private).
LIBS_PRIVATE =

ifeq ($(OPENMP),1)
ALL_CFLAGS += -fopenmp
LDLIBS_LIB += -fopenmp
LIBS_PRIVATE += -fopenmp
endif
ifeq ($(SIMD),1)
ALL_CFLAGS += -DDMLREF_SIMD=1
else
ALL_CFLAGS += -DDMLREF_SIMD=0
endif
ifeq ($(MESSAGES),0)
ALL_CFLAGS += -DDMLREF_MESSAGES=0
endif
ifeq ($(ORACLE_ONLY),1)
ALL_CFLAGS += -DDMLREF_ORACLE_ONLY=1
endif
ifeq ($(SMALL),1)
ALL_CFLAGS += -DDMLREF_SMALL=1
endif
ifeq ($(SAN),1)
ALL_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDLIBS_LIB += -fsanitize=address,undefined
endif
ALL_CFLAGS += $(EXTRA_CFLAGS)

# The library's layers (src/README.md), each using only those before it:
#   src/core/   the API, the registry and its operator list (operators.def),
#               tensor rules, support checks, indices, the iterator, errors
#   src/simd/   the SIMDe primitives
#   src/engine/ planning: loop nests, threads, scratch, the strided copy plan
#   src/ops/    the kernel list (kernels.def: every kernel name a planner sets)
#   src/ops/<family>/  the operators: op_<name>.c (one class each), the
#               family's rules and oracle, its fast path (*_fast.c)
#   src/api/    the public entry points (api.c) and the registry's table of
#               the built operators' classes (registry.c)
# Operators: every src/ops/<family>/op_<name>.c, or those OPS names (make OPS="gather join").
OP_FILES := $(wildcard src/ops/*/op_*.c)
ALL_OPS := $(sort $(patsubst op_%.c,%,$(notdir $(OP_FILES))))
OPS     ?= $(ALL_OPS)
ifneq ($(filter-out $(ALL_OPS),$(OPS)),)
$(error OPS: unknown operator(s) $(filter-out $(ALL_OPS),$(OPS)); known: $(ALL_OPS))
endif
LEFT_OUT = $(filter-out $(OPS),$(ALL_OPS))
LIB_SRC  = $(wildcard src/core/*.c src/simd/*.c src/engine/*.c src/ops/*.c src/api/*.c) \
	$(filter-out $(foreach o,$(LEFT_OUT),%/op_$(o).c) $(if $(filter 1,$(ORACLE_ONLY)),%_fast.c),$(wildcard src/ops/*/*.c))
LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/%.o)
# Above the library: case/ (the case library: reader, writer, fields, values,
# JSON, .npy), builders/ (random valid cases, over case/), cli/ (the command,
# over both); scripts/check-deps.py holds the folder rule.
CASE_SRC = $(wildcard case/*.c)
CASE_OBJ = $(CASE_SRC:%.c=$(BUILD)/%.o)
CLI_SRC  = $(wildcard cli/*.c)
CLI_OBJ  = $(CLI_SRC:%.c=$(BUILD)/%.o)
BUILDERS_SRC = $(wildcard builders/*.c)
BUILDERS_OBJ = $(BUILDERS_SRC:%.c=$(BUILD)/%.o)
TEST_SRC = $(wildcard tests/unit/*.c)
TEST_OBJ = $(TEST_SRC:%.c=$(BUILD)/%.o)

SONAME   = libdmlref.so.$(VERSION_MAJOR)
STATIC   = $(BUILD)/libdmlref.a
INTERNAL = $(BUILD)/libdmlref_internal.a
SHLIB    = $(BUILD)/libdmlref.so.$(VERSION)
SHLINKS  = $(BUILD)/$(SONAME) $(BUILD)/libdmlref.so
CLI      = $(BUILD)/dmlref
BUILDERS = $(BUILD)/libdmlref_builders.a
CASELIB  = $(BUILD)/libdmlref_case.a
UNIT     = $(BUILD)/test_unit
STAMP    = $(BUILD)/flags.stamp

.PHONY: all lib cli test test-asan unit install uninstall clean examples FORCE
all: lib $(if $(filter 1,$(WITH_CLI)),cli)
lib: $(STATIC) $(if $(filter 1,$(SHARED)),$(SHLIB) $(SHLINKS))
cli: $(CLI)

# The configuration stamp: one line per setting, rewritten only when one
# changes (its time then makes every object and link out of date).
sq = '$(subst ','\'',$(1))'
CONFIG_LINES = $(call sq,version=$(VERSION)) $(call sq,CC=$(CC)) $(call sq,AR=$(AR)) \
	$(call sq,RANLIB=$(RANLIB)) $(call sq,OBJCOPY=$(OBJCOPY)) $(call sq,CPPFLAGS=$(CPPFLAGS)) \
	$(call sq,CFLAGS=$(CFLAGS)) $(call sq,EXTRA_CFLAGS=$(EXTRA_CFLAGS)) \
	$(call sq,LDFLAGS=$(LDFLAGS)) $(call sq,OPENMP=$(OPENMP)) $(call sq,SIMD=$(SIMD)) \
	$(call sq,SAN=$(SAN)) $(call sq,SHARED=$(SHARED)) $(call sq,LOCALIZE=$(LOCALIZE)) \
	$(call sq,ALL_CFLAGS=$(ALL_CFLAGS)) $(call sq,LIB_CFLAGS=$(LIB_CFLAGS)) \
	$(call sq,LDLIBS_LIB=$(LDLIBS_LIB)) $(call sq,RELINK_FLAGS=$(RELINK_FLAGS)) $(call sq,OPS=$(sort $(OPS)))

$(STAMP): FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' $(CONFIG_LINES) > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; \
	 else [ -f $@ ] && echo "== $(BUILD): configuration changed, rebuilding"; mv -f $@.tmp $@; fi

# (operators.def among them: registry.h, builders/list.c and cli/framework.c expand it)
HEADERS = $(wildcard include/*.h src/*/*.h src/ops/*.def src/ops/*/*.h case/*.h cli/*.h tests/unit/*.h builders/*.h) src/core/operators.def
$(BUILD)/%.o: %.c $(HEADERS) $(STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

# (A rule of its own, not a target-specific variable: prerequisites such as
# the stamp would inherit that.)
$(BUILD)/src/%.o: src/%.c $(HEADERS) $(STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LIB_CFLAGS) -c $< -o $@

# ELEMENT_WISE_IDENTITY's ScaleBias rounds twice, x * Scale then + Bias: no fused
# multiply-add (docs/operators.md P7, src/simd/scale_bias.h).  gcc ignores
# `#pragma STDC FP_CONTRACT` and contracts by default outside ISO C modes (on
# aarch64, or x86-64 with -mfma): -std=c11 already turns that off, and this says
# it again after every other flag, so that no CFLAGS (-std=gnu11) can undo it.
$(BUILD)/src/ops/identity/op_element_wise_identity.o: src/ops/identity/op_element_wise_identity.c $(HEADERS) $(STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LIB_CFLAGS) -ffp-contract=off -c $< -o $@
# The RESAMPLE family's source index rounds every step to float32 (docs/operators.md Q11.4): a
# subtraction, a division, a subtraction, nothing to fuse; said again here all the same.
$(BUILD)/src/ops/resample/resample.o: src/ops/resample/resample.c $(HEADERS) $(STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LIB_CFLAGS) -ffp-contract=off -c $< -o $@

# The registry's list of built operators (src/core/operators.def, OPS).
OPS_BUILT = $(BUILD)/ops_built.h
$(OPS_BUILT): $(STAMP)
	@mkdir -p $(dir $@)
	@{ echo '/* Generated by the Makefile: the operators this build holds (OPS). */'; \
	  $(foreach o,$(ALL_OPS),echo '#define DMLREF_BUILT_$(o) $(if $(filter $(o),$(OPS)),1,0)';) } > $@
$(BUILD)/src/api/registry.o: src/api/registry.c src/core/operators.def $(OPS_BUILT) $(HEADERS) $(STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LIB_CFLAGS) -I$(BUILD) -c $< -o $@

# The internal archive: the plain objects (internal names global, hidden).
$(INTERNAL): $(LIB_OBJ) $(STAMP)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rc $@ $(LIB_OBJ)
	$(RANLIB) $@

# The shipped archive: one relocatable object whose hidden symbols are local.
# A sanitizer in CC (CC="clang -fsanitize=thread") would make the -r link pull its
# runtime into the object (clang does so even with -nostdlib -nodefaultlibs), and
# the archive would then clash with the runtime of any program linked with it:
# -fno-sanitize=all keeps the objects' instrumentation and leaves the runtime to
# the program's link (make test-tsan links examples/gather.c against it).
RELINK_FLAGS = -r -nostdlib $(if $(findstring -fsanitize=,$(CC)),-fno-sanitize=all)
ifeq ($(LOCALIZE),1)
$(BUILD)/libdmlref.o: $(LIB_OBJ) $(STAMP)
	$(CC) $(RELINK_FLAGS) -o $@.tmp $(LIB_OBJ)
	$(OBJCOPY) --localize-hidden $@.tmp $@
	@# i386 PIC code calls __x86.get_pc_thunk.* helpers that every object
	@# defines in a COMDAT group: made local, a program's own copy would win and
	@# leave this object's calls pointing into a discarded section.  They stay
	@# global (hidden), identical wherever they come from.
	thunks=$$($(NM) $@ | sed -n 's/.* \(__x86\.get_pc_thunk\.[a-z]*\)$$/--globalize-symbol=\1/p' | sort -u); \
	[ -z "$$thunks" ] || $(OBJCOPY) $$thunks $@
	rm -f $@.tmp

$(STATIC): $(BUILD)/libdmlref.o $(STAMP)
	rm -f $@
	$(AR) rc $@ $(BUILD)/libdmlref.o
	$(RANLIB) $@
else
$(STATIC): $(LIB_OBJ) $(STAMP)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rc $@ $(LIB_OBJ)
	$(RANLIB) $@
endif

$(SHLIB): $(LIB_OBJ) $(STAMP)
	$(CC) -shared -Wl,-soname,$(SONAME) $(LDFLAGS) -o $@ $(LIB_OBJ) $(LDLIBS_LIB)

$(BUILD)/$(SONAME): $(SHLIB)
	ln -sf $(notdir $(SHLIB)) $@

$(BUILD)/libdmlref.so: $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $@

# The case library (case/): the command's, the builders', the fuzz_case target's
# and the tests' reader and writer of cases.
$(CASELIB): $(CASE_OBJ) $(STAMP)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rc $@ $(CASE_OBJ)
	$(RANLIB) $@

# The random-case builders, one per operator (builders/<name>.c): `dmlref gen`'s.
# They use the case library.
$(BUILDERS): $(BUILDERS_OBJ) $(STAMP)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rc $@ $(BUILDERS_OBJ)
	$(RANLIB) $@

$(CLI): $(CLI_OBJ) $(BUILDERS) $(CASELIB) $(STATIC) $(STAMP)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BUILDERS) $(CASELIB) $(STATIC) $(LDLIBS_LIB) -lm -lpthread

# The unit tests link the builders and the case library: random valid cases of
# every operator and the pthread pool (case/pool.c) of tests/unit/test_threadpool.c.
# With OpenMP from gcc (libgomp) they are linked with trap versions of every
# OpenMP symbol the library references (OMP_TRAP_SYMS, -Wl,--wrap), which that
# test counts; the link fails, naming it, when the library references any other
# omp_* / GOMP_* / __kmpc_* symbol (one the trap would miss).
IS_CLANG := $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null)),1)
OMP_TRAP_SYMS = GOMP_parallel omp_get_max_threads omp_get_num_threads omp_get_thread_num
OMP_TRAP = $(if $(and $(filter 1,$(OPENMP)),$(if $(IS_CLANG),,1)),1)
UNIT_OMP_WRAP = $(if $(OMP_TRAP),$(foreach s,$(OMP_TRAP_SYMS),-Wl,--wrap=$(s)))
$(UNIT): $(TEST_OBJ) $(BUILDERS) $(CASELIB) $(INTERNAL) $(STAMP)
ifneq ($(OMP_TRAP),)
	@extra=$$($(NM) -u $(INTERNAL) | sed -n 's/^ *U \(omp_[A-Za-z_]*\|GOMP_[A-Za-z_]*\|__kmpc_[A-Za-z_]*\)$$/\1/p' | sort -u | \
	    grep -vxF $(foreach s,$(OMP_TRAP_SYMS),-e $(s))); \
	if [ -n "$$extra" ]; then echo "Makefile: the library references OpenMP symbols the unit tests' trap" \
	    "does not wrap: $$extra (add them to OMP_TRAP_SYMS and to tests/unit/test_threadpool.c)"; exit 1; fi
endif
	$(CC) $(LDFLAGS) $(UNIT_OMP_WRAP) -o $@ $(TEST_OBJ) $(BUILDERS) $(CASELIB) $(INTERNAL) $(LDLIBS_LIB) -lm -lpthread

# test_threadpool.c defines the trap versions when the link wraps them.
$(BUILD)/tests/unit/test_threadpool.o: tests/unit/test_threadpool.c $(HEADERS) $(STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(if $(OMP_TRAP),-DDMLREF_OMP_TRAP=1) -c $< -o $@

unit: $(UNIT)

# The differential test's driver (tests/numpy/diff.py, tests/suites/numpy.sh).
NUMPY_DRIVER = $(BUILD)/numpy_driver
# It builds each desc through the schema (case/descbuf.o, no JSON: built where the command is not).
$(NUMPY_DRIVER): $(BUILD)/tests/numpy/driver.o $(BUILD)/case/descbuf.o $(INTERNAL) $(STAMP)
	$(CC) $(LDFLAGS) -o $@ $(BUILD)/tests/numpy/driver.o $(BUILD)/case/descbuf.o $(INTERNAL) $(LDLIBS_LIB)

# The case files' generic field reader and writer over a hand-made schema
# (tests/fields/test_fields.c, tests/suites/fields.sh), linked like fuzz_case.
FIELDS_TEST = $(BUILD)/test_fields
$(FIELDS_TEST): tests/fields/test_fields.c $(CASELIB) $(INTERNAL) $(HEADERS) $(STAMP)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(CASELIB) $(INTERNAL) $(LDLIBS_LIB) -lm

# The case library's JSON reader, alone and under the case reader (tests/json/test_json.c,
# tests/suites/json_read.sh), linked with the case library; the allocation functions are
# wrapped (--wrap) so that the test can make the Nth allocation fail.
JSON_TEST = $(BUILD)/test_json
JSON_TEST_WRAP = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=posix_memalign
$(JSON_TEST): tests/json/test_json.c $(CASELIB) $(INTERNAL) $(HEADERS) $(STAMP)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) $(JSON_TEST_WRAP) -o $@ $< $(CASELIB) $(INTERNAL) $(LDLIBS_LIB) -lm

# The builders' shared helpers under gen's filters and flavours (tests/builders/test_builders.c,
# tests/suites/builders.sh), linked with the builders and the case library.
BUILDERS_TEST = $(BUILD)/test_builders
$(BUILDERS_TEST): tests/builders/test_builders.c $(BUILDERS) $(CASELIB) $(INTERNAL) $(HEADERS) $(STAMP)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILDERS) $(CASELIB) $(INTERNAL) $(LDLIBS_LIB) -lm

# The caller's allocator (tests/alloc/test_alloc.c, tests/suites/alloc.sh): the size
# queries, bump arenas, a failure at every request, over random cases of every operator
# from the builders; libc's allocation functions are wrapped (--wrap) into traps that
# count the library's calls while an allocator is set.
ALLOC_TEST = $(BUILD)/test_alloc
ALLOC_TEST_WRAP = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=posix_memalign,--wrap=aligned_alloc
$(ALLOC_TEST): tests/alloc/test_alloc.c $(BUILDERS) $(CASELIB) $(INTERNAL) $(HEADERS) $(STAMP)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) $(ALLOC_TEST_WRAP) -o $@ $< $(BUILDERS) $(CASELIB) $(INTERNAL) $(LDLIBS_LIB) -lm

# dmlref_output_sizes over every documented example (tests/shape/test_shape.c,
# tests/suites/shape.sh), linked with the case library.
SHAPE_TEST = $(BUILD)/test_shape
$(SHAPE_TEST): tests/shape/test_shape.c $(CASELIB) $(INTERNAL) $(HEADERS) $(STAMP)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(CASELIB) $(INTERNAL) $(LDLIBS_LIB) -lm

# The LD_PRELOAD library that fails the Nth allocation (tests/oom/failalloc.c) for the
# out-of-memory sweep over the command (tests/suites/oom.sh, docs/hardening.md): the
# project's warnings, none of its other flags (no OpenMP, no sanitizer: the sweep skips a
# sanitizer build, whose runtime must come first).
FAILALLOC = $(BUILD)/failalloc.so
$(FAILALLOC): tests/oom/failalloc.c $(STAMP)
	$(CC) -std=c11 $(WARN) -O2 -g -fPIC -shared $(LDFLAGS) -o $@ $< -ldl

# The README's C example (examples/gather.c), built against the shipped static library.
EXAMPLE = $(BUILD)/example_gather
$(EXAMPLE): examples/gather.c $(STATIC) $(STAMP)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ examples/gather.c $(STATIC) $(LDLIBS_LIB)

# The embedding example (examples/embed/embed.c, docs/embedding.md): one static
# arena as the allocator, a 2-thread pthread pool as the thread pool, executes from
# two threads; the same static library, plus -pthread.
EMBED = $(BUILD)/example_embed
$(EMBED): examples/embed/embed.c $(STATIC) $(STAMP)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ examples/embed/embed.c $(STATIC) $(LDLIBS_LIB) -pthread

# The same example linked with trap versions of libc's allocation functions and, in a
# gcc OPENMP=1 build, of the OpenMP symbols the library references (tests/alloc/libc_trap.c,
# -Wl,--wrap): a program that sets an allocator and a thread pool on every compile must
# make no call to them (a call exits 99, naming it).  The link fails when the program
# still references one of them (nm -u: a reference the wrap did not catch).
TRAP_SYMS = malloc calloc realloc free posix_memalign aligned_alloc $(if $(OMP_TRAP),$(OMP_TRAP_SYMS))
EMBED_TRAP = $(BUILD)/example_embed_trap
$(EMBED_TRAP): examples/embed/embed.c tests/alloc/libc_trap.c $(STATIC) $(STAMP)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(if $(OMP_TRAP),-DDMLREF_OMP_TRAP=1) $(LDFLAGS) \
	    $(foreach s,$(TRAP_SYMS),-Wl,--wrap=$(s)) -o $@ examples/embed/embed.c tests/alloc/libc_trap.c \
	    $(STATIC) $(LDLIBS_LIB) -pthread
	@left=$$($(NM) -u $@ | sed -n 's/^ *U \([A-Za-z_]*\).*/\1/p' | grep -xF $(foreach s,$(TRAP_SYMS),-e $(s))); \
	if [ -n "$$left" ]; then echo "Makefile: $@ still references $$left"; rm -f $@; exit 1; fi
# The trap is live: the README's example (default options: malloc) linked the same way
# must exit 99 at its first compile (tests/suites/example.sh runs both).
GATHER_TRAP = $(BUILD)/example_gather_trap
$(GATHER_TRAP): examples/gather.c tests/alloc/libc_trap.c $(STATIC) $(STAMP)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(if $(OMP_TRAP),-DDMLREF_OMP_TRAP=1) $(LDFLAGS) \
	    $(foreach s,$(TRAP_SYMS),-Wl,--wrap=$(s)) -o $@ examples/gather.c tests/alloc/libc_trap.c $(STATIC) $(LDLIBS_LIB)

# The README's main job: every documented DirectML example through `dmlref run`
# (outputs printed, compared with the documented ones), then the C examples.
examples: $(CLI) $(EXAMPLE) $(EMBED)
	@for f in tests/cases/*.json; do \
	    echo "== dmlref run $$f"; $(CLI) run "$$f" || exit 1; done
	@echo "== $(EXAMPLE)"; $(EXAMPLE)
	@echo "== $(EMBED)"; $(EMBED)

# The README's test command.  Runs every suite and ends with "N passed, N failed".
test: $(UNIT) $(NUMPY_DRIVER) $(EXAMPLE) $(EMBED) $(EMBED_TRAP) $(GATHER_TRAP) $(if $(CLI_SRC),$(CLI) $(FIELDS_TEST) $(JSON_TEST) $(BUILDERS_TEST) $(SHAPE_TEST) $(FAILALLOC) $(ALLOC_TEST)) $(BUILD)/bench
	BUILD=$(BUILD) PYTHON=$(PYTHON) sh tests/run.sh

test-asan:
	$(MAKE) BUILD=build-asan SAN=1 CC=$(CC) test

# Installation.  dmlref.pc's Libs.private holds what a static link needs
# (pkg-config --static --libs dmlref).
pc_dir = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
PC_SED = -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_dir,$(LIBDIR))|' \
	-e 's|@INCLUDEDIR@|$(call pc_dir,$(INCLUDEDIR))|' -e 's|@VERSION@|$(VERSION)|' \
	-e 's|@LIBS_PRIVATE@|$(strip $(LIBS_PRIVATE))|'

INSTALL ?= install
install: lib cli
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR)
	$(INSTALL) -m 755 $(CLI) $(DESTDIR)$(BINDIR)/dmlref
	$(INSTALL) -m 644 include/dmlref.h $(DESTDIR)$(INCLUDEDIR)/dmlref.h
	$(INSTALL) -m 644 $(STATIC) $(DESTDIR)$(LIBDIR)/libdmlref.a
ifeq ($(SHARED),1)
	$(INSTALL) -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/$(notdir $(SHLIB))
	ln -sf $(notdir $(SHLIB)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libdmlref.so
endif
	sed $(PC_SED) dmlref.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/dmlref.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/dmlref.pc

# Removes what install puts there (whatever SHARED was at install time).
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/dmlref $(DESTDIR)$(INCLUDEDIR)/dmlref.h \
	    $(DESTDIR)$(LIBDIR)/libdmlref.a $(DESTDIR)$(LIBDIR)/libdmlref.so.$(VERSION) \
	    $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libdmlref.so \
	    $(DESTDIR)$(PKGCONFIGDIR)/dmlref.pc

# The shipping checks (README "Building and installing"): exported symbols,
# the install tree, rebuild on a configuration change, the code-size table.
.PHONY: test-ship code-size stack-usage
test-ship: lib $(INTERNAL)
	BUILD=$(BUILD) MAKE="$(MAKE)" NM="$(NM)" SHARED=$(SHARED) LOCALIZE=$(LOCALIZE) \
	    sh scripts/test-ship.sh

code-size:
	MAKE="$(MAKE)" sh scripts/code-size.sh

stack-usage:
	MAKE="$(MAKE)" sh scripts/stack-usage.sh

# The bare-metal test (docs/baremetal.md): the host program that writes the case
# table, then scripts/baremetal.sh (the Cortex-M4F build, qemu-system-arm).
BM_GEN = $(BUILD)/bm_gen_table
$(BM_GEN): tests/baremetal/gen_table.c tests/baremetal/bm_table.h $(BUILDERS) $(CASELIB) $(INTERNAL) $(HEADERS) $(STAMP)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILDERS) $(CASELIB) $(INTERNAL) $(LDLIBS_LIB) -lm
.PHONY: test-baremetal
test-baremetal: $(BM_GEN)
	BM_GEN=$(BM_GEN) MAKE="$(MAKE)" sh scripts/baremetal.sh

# No source file depends on a file that depends back on it, and every folder uses
# only itself and the layers below it (scripts/check-deps.py, over the objects'
# defined and undefined symbols and over every #include); src/simd/README.md's
# kernel table is src/ops/kernels.def (scripts/kernel-table.py --check); every file
# path the docs and sources name exists (scripts/check-paths.py).
.PHONY: check-deps
check-deps: all
	NM=$(NM) $(PYTHON) scripts/check-deps.py $(BUILD)
	$(PYTHON) scripts/kernel-table.py --check
	$(PYTHON) scripts/check-paths.py

clean:
	rm -rf build build-* python/csrc python/build python/dist python/dmlref.egg-info python/dmlref/_bin
	rm -f js/dmlref_wasm.mjs js/dmlref_wasm.wasm js/dmlref-*.tgz
	find python/dmlref -maxdepth 1 -name '_core*.so' -delete

# ---------------------------------------------------------------------------
# Fast paths (src/simd/README.md).
#
#   make bench [BENCH_ARGS="--repeat 5 gather"]   the workloads of docs/performance.md, then the
#                                                 tiny-operator table (scripts/tiny.sh)
#   make test-portable     unit tests with SIMDe's portable fallbacks (-DSIMDE_NO_NATIVE)
#   make test-avx2         unit tests built with -mavx2 (256-bit SIMD primitives)
# ---------------------------------------------------------------------------
BENCH = $(BUILD)/bench
.PHONY: bench test-portable test-avx2

# The workloads are case files (bench/workloads/*.json), read by the case library.
$(BENCH): bench/bench.c $(CASELIB) $(INTERNAL) $(HEADERS) $(STAMP)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ bench/bench.c $(CASELIB) $(INTERNAL) $(LDLIBS_LIB) -lm -lpthread

bench: $(BENCH) $(CLI)
	$(BENCH) $(BENCH_ARGS)
	sh scripts/tiny.sh $(CLI)

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
#   make fuzz-campaign RUNS=N replay, N executions per target, merge new
#                             coverage into fuzz/corpus/
#   make test-tsan            unit tests under ThreadSanitizer (OPENMP=0)
#   make valgrind             unit tests under valgrind (OPENMP=0)
# ---------------------------------------------------------------------------
FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build-fuzz
FUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SECONDS      ?= 30
RUNS         ?= 10000000
FUZZ_RSS_MB  ?= 1024
# fuzz_desc_valid (validation at every feature level) and fuzz_desc_exec
# (execution, oracle against the fast paths) read one byte format
# (fuzz/desc_decode.h) and share fuzz/corpus/fuzz_desc/ and its dictionary;
# fuzz_case (the case-file reader) links the case library.
FUZZ_DESC_TARGETS = fuzz_desc_valid fuzz_desc_exec
FUZZ_TARGETS  = $(FUZZ_DESC_TARGETS) $(if $(and $(wildcard fuzz/fuzz_case.c),$(wildcard case/case.c)),fuzz_case)
FUZZ_OPTS     = -rss_limit_mb=$(FUZZ_RSS_MB) -timeout=10 -print_final_stats=1
# Crash, timeout and OOM inputs go outside the source tree.
FUZZ_ARTIFACTS ?= $(or $(TMPDIR),/tmp)/dmlref-fuzz-artifacts
# $(call fuzz_step,NAME,ARGS): runs every target with ARGS ($$t is the target,
# $$c the name of its corpus and dictionary: fuzz_desc for both descriptor
# targets) and prints "fuzz-NAME: N passed, N failed"; a target fails when it
# exits non-zero or writes an artifact (a file that was not in FUZZ_ARTIFACTS
# before); each new artifact prints "repro: build-fuzz/TARGET ARTIFACT".
fuzz_step = pass=0; fail=0; \
	for t in $(FUZZ_TARGETS); do \
	  c=$$t; case $$t in fuzz_desc_*) c=fuzz_desc;; esac; \
	  dict=; [ -f fuzz/$$c.dict ] && dict=-dict=fuzz/$$c.dict; \
	  maxlen=4096; [ $$t = fuzz_case ] && maxlen=16384; \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t '$(FUZZ_ARTIFACTS)'; \
	  before=$$(ls '$(FUZZ_ARTIFACTS)' | wc -l); \
	  echo "== $$t ($(1))"; \
	  $(FUZZ_BUILD)/$$t $(FUZZ_OPTS) -max_len=$$maxlen $$dict -artifact_prefix='$(FUZZ_ARTIFACTS)'/$$t- $(2); rc=$$?; \
	  after=$$(ls '$(FUZZ_ARTIFACTS)' | wc -l); \
	  if [ $$after -gt $$before ]; then echo "$$t wrote an artifact in $(FUZZ_ARTIFACTS):"; \
	    for a in $$(ls -t '$(FUZZ_ARTIFACTS)' | head -n $$((after - before))); do \
	      echo "repro: $(FUZZ_BUILD)/$$t $(FUZZ_ARTIFACTS)/$$a"; done; rc=1; fi; \
	  if [ $$rc -eq 0 ]; then pass=$$((pass + 1)); else fail=$$((fail + 1)); fi; \
	done; echo "fuzz-$(1): $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

.PHONY: fuzz fuzz-bins fuzz-run fuzz-replay fuzz-campaign test-tsan valgrind

fuzz:
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) CFLAGS="-O1 -g" \
	    EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" fuzz-bins

fuzz-bins: $(FUZZ_TARGETS:%=$(BUILD)/%)

$(FUZZ_DESC_TARGETS:%=$(BUILD)/%): $(BUILD)/%: fuzz/%.c fuzz/desc_decode.h $(INTERNAL) $(STAMP)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -fsanitize=fuzzer $< $(INTERNAL) $(LDLIBS_LIB) -lm -o $@

$(BUILD)/fuzz_case: fuzz/fuzz_case.c $(CASELIB) $(INTERNAL) $(STAMP)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -fsanitize=fuzzer $< $(CASELIB) $(INTERNAL) $(LDLIBS_LIB) -lm -o $@

# Each target over its committed corpus once (-runs=0: no mutation).
fuzz-replay: fuzz
	@$(call fuzz_step,replay,-runs=0 fuzz/corpus/$$c)

# The corpus replay, then N seconds of fuzzing per target; new inputs go to
# build-fuzz/corpus/<target>, crashes to $(FUZZ_ARTIFACTS) (default
# /tmp/dmlref-fuzz-artifacts), which fails the run.
fuzz-run: fuzz-replay
	@$(call fuzz_step,run,-max_total_time=$(SECONDS) $(FUZZ_BUILD)/corpus/$$t fuzz/corpus/$$c)

# A long campaign (docs/hardening.md): the replay, then RUNS executions per
# target (-runs=N; inputs go to build-fuzz/corpus/<target>), then
# build-fuzz/corpus/<target> merged into fuzz/corpus/<corpus> with -merge=1:
# only inputs that add coverage are copied, under their SHA-1 names, for
# committing.  Fails as fuzz-run does, before anything is merged.
fuzz-campaign: fuzz-replay
	@$(call fuzz_step,campaign,-runs=$(RUNS) $(FUZZ_BUILD)/corpus/$$t fuzz/corpus/$$c)
	@for t in $(FUZZ_TARGETS); do \
	  c=$$t; case $$t in fuzz_desc_*) c=fuzz_desc;; esac; \
	  before=$$(ls fuzz/corpus/$$c | wc -l); \
	  echo "== merge $$t into fuzz/corpus/$$c"; \
	  maxlen=4096; [ $$t = fuzz_case ] && maxlen=16384; \
	  $(FUZZ_BUILD)/$$t $(FUZZ_OPTS) -max_len=$$maxlen -artifact_prefix='$(FUZZ_ARTIFACTS)'/$$t-merge- \
	      -merge=1 fuzz/corpus/$$c $(FUZZ_BUILD)/corpus/$$t 2>&1 | grep -E 'MERGE-OUTER: [0-9]+ new files' || exit 1; \
	  echo "fuzz/corpus/$$c: $$before -> $$(ls fuzz/corpus/$$c | wc -l) files"; \
	done

# ThreadSanitizer: OpenMP's runtime is not TSan-instrumented and gives false
# reports, so this build has OPENMP=0 (threads come from test_threads.c).
# The shipped archive of the same build is linked into examples/gather.c by
# clang -fsanitize=thread and run first (scripts/check-sanitizer-archive.sh): it
# must hold the instrumented library and no sanitizer runtime of its own.
test-tsan:
	$(MAKE) BUILD=build-tsan OPENMP=0 CC="clang -fsanitize=thread" CFLAGS="-O1 -g" build-tsan/test_unit build-tsan/libdmlref.a
	SAN_CC="clang -fsanitize=thread" SAN_BUILD=build-tsan sh scripts/check-sanitizer-archive.sh
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" ./build-tsan/test_unit

# valgrind over the unit tests, without sanitizers; OPENMP=0 avoids libgomp's
# thread-pool noise.  Any error or leak fails the target.
valgrind:
	$(MAKE) BUILD=build-valgrind OPENMP=0 build-valgrind/test_unit
	valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
	    ./build-valgrind/test_unit

# ---------------------------------------------------------------------------
# The Python package (python/, README "Python").
#
#   make python              build dmlref._core in place (python/dmlref), linking
#                            $(BUILD)/libdmlref.a statically; the command is copied
#                            to python/dmlref/_bin for dmlref.Case (python/setup.py,
#                            DMLREF_BUILD); `pip install ./python` needs no make:
#                            it compiles the sources itself
#   make python-install      pip-install the package for $(PYTHON) into the system
#                            (Debian: /usr/local/lib/python3.11/dist-packages); a
#                            virtual environment is the README's first route
#   make test-python         the package's tests (pytest), ending with
#                            "python: N passed, N failed, N skipped"
#   make test-python-venv    a clean clone installed into a fresh venv, its tests run
#                            there (python/tools/ci-venv.sh)
# ---------------------------------------------------------------------------
.PHONY: python python-install test-python test-python-venv
PY_ENV = DMLREF_BUILD=$(abspath $(BUILD))

# --force: setuptools relinks only when _core.c changed, not when libdmlref.a did (a stale
# extension kept the library of its first build)
python: $(STATIC) $(CLI)
	cd python && $(PY_ENV) $(PYTHON) setup.py -q build_ext --inplace --force --build-temp $(abspath $(BUILD))/python

python-install: python
	$(PY_ENV) $(PYTHON) -m pip install -q --root-user-action=ignore --no-build-isolation --no-deps --no-index --break-system-packages ./python
	rm -rf python/build python/dmlref.egg-info

test-python-venv:
	PYTHON=$(PYTHON) python/tools/ci-venv.sh

test-python: python
	cd python && PYTHONPATH=. $(PYTHON) -m pytest -p no:cacheprovider tests

# ---------------------------------------------------------------------------
# The JavaScript/WebAssembly package (js/README.md): the library and the case library
# built by Debian's emcc into $(JS_BUILD) (wasm32, SIMD128, no threads), linked with the
# shim js/src/dmlref_js.c into an ES module (dmlref_wasm.mjs) and its .wasm, copied into
# js/ and packed (npm pack) into js/dmlref-$(VERSION).tgz.
#   make js            build and pack
#   make test-js       the package's node tests (js/test/*.test.mjs) against $(BUILD)/dmlref,
#                      ending with "js: N passed, N failed, N skipped"
#   make test-js-browser  the same package in headless Chromium (Debian's chromium), every case
#                      of tests/cases and a gen suite against $(BUILD)/dmlref: "js-browser: ..."
# ---------------------------------------------------------------------------
.PHONY: js test-js js-wasm
JS_BUILD ?= build-js
EMCC ?= emcc
NODE ?= node
NPM ?= npm
JS_ENV = NODE_PATH=$${NODE_PATH:+$$NODE_PATH:}/usr/share/nodejs
JS_LIBS = $(JS_BUILD)/libdmlref.a $(JS_BUILD)/libdmlref_case.a
JS_EXPORT_NAMES = malloc free dmlref_js_run dmlref_js_free dmlref_js_rc dmlref_js_message dmlref_js_warning \
	dmlref_js_status dmlref_js_rule dmlref_js_field dmlref_js_library_message dmlref_js_operator \
	dmlref_js_n_outputs dmlref_js_out_name dmlref_js_out_slot dmlref_js_out_index dmlref_js_out_type \
	dmlref_js_out_dims dmlref_js_out_sizes dmlref_js_out_strides dmlref_js_out_esize dmlref_js_out_slots \
	dmlref_js_out_data dmlref_js_version
js_comma := ,
js_empty :=
js_space := $(js_empty) $(js_empty)
JS_EXPORTS = $(subst $(js_space),$(js_comma),$(strip $(patsubst %,_%,$(JS_EXPORT_NAMES))))
JS_LDFLAGS = -O2 -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=dmlrefWasm -sENVIRONMENT=web,node \
	-sALLOW_MEMORY_GROWTH=1 -sFORCE_FILESYSTEM=1 -sEXPORTED_FUNCTIONS=$(JS_EXPORTS) \
	-sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0 \
	-sEXPORTED_RUNTIME_METHODS=FS,UTF8ToString,stringToUTF8,lengthBytesUTF8

js-wasm: $(JS_BUILD)/dmlref_wasm.mjs

# The libraries by a make of their own in $(JS_BUILD) (its flags.stamp: rebuilt when a flag
# changes); libs.stamp is touched only when one of them changed, so the link reruns only then.
$(JS_BUILD)/libs.stamp: FORCE
	@mkdir -p $(JS_BUILD)/simde-include $(JS_BUILD)/raw
	@ln -sfn /usr/include/simde $(JS_BUILD)/simde-include/simde
	@$(JS_ENV) $(MAKE) --no-print-directory BUILD=$(JS_BUILD) CC=$(EMCC) AR=emar RANLIB=emranlib NM=emnm OPENMP=0 \
	    SIMD=1 SHARED=0 LOCALIZE=0 WITH_CLI=0 EXTRA_CFLAGS="-msimd128 -isystem $(JS_BUILD)/simde-include" $(JS_LIBS)
	@if [ ! -f $@ ] || [ $(JS_BUILD)/libdmlref.a -nt $@ ] || [ $(JS_BUILD)/libdmlref_case.a -nt $@ ]; then touch $@; fi

$(JS_BUILD)/dmlref_wasm.mjs: js/src/dmlref_js.c $(JS_BUILD)/libs.stamp $(HEADERS)
	$(JS_ENV) $(EMCC) -std=c11 $(WARN) -O2 -msimd128 -Iinclude -I. -D_POSIX_C_SOURCE=200809L $(JS_LDFLAGS) \
	    -o $(JS_BUILD)/raw/dmlref_wasm.mjs js/src/dmlref_js.c $(JS_LIBS)
	@# emcc 3.1.6's node code calls require() and reads __dirname, which an ES module has not:
	@# js/index.mjs hands them in (Module.nodeRequire, Module.nodeDirname), in node only.
	sed -e 's/\brequire(/Module["nodeRequire"](/g' -e 's/\b__dirname\b/Module["nodeDirname"]/g' \
	    $(JS_BUILD)/raw/dmlref_wasm.mjs > $@
	@if grep -q '[^"]require(\|__dirname' $@; then echo "Makefile: require( or __dirname left in $@"; exit 1; fi
	cp $(JS_BUILD)/raw/dmlref_wasm.wasm $(JS_BUILD)/dmlref_wasm.wasm

js: $(JS_BUILD)/dmlref_wasm.mjs
	@grep -q '"version": "$(VERSION)"' js/package.json || \
	    { echo "Makefile: js/package.json's version is not $(VERSION) (include/dmlref.h)"; exit 1; }
	cp $(JS_BUILD)/dmlref_wasm.mjs $(JS_BUILD)/dmlref_wasm.wasm js/
	rm -f js/dmlref-*.tgz
	cd js && $(NPM) pack --silent --pack-destination . >/dev/null
	@ls -l js/dmlref-$(VERSION).tgz

# The library's schema as JSON (js/tools/schema_json.c), from which js/tools/gen_operators.mjs
# writes js/operators.mjs, js/functions.mjs and js/functions.d.ts (committed; the tests check them).
JS_SCHEMA = $(BUILD)/js_schema
$(JS_SCHEMA): js/tools/schema_json.c $(STATIC) $(STAMP)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ js/tools/schema_json.c $(STATIC) $(LDLIBS_LIB)

.PHONY: js-operators
js-operators: $(JS_SCHEMA)
	$(JS_SCHEMA) > $(BUILD)/js_schema.json
	$(NODE) js/tools/gen_operators.mjs $(BUILD)/js_schema.json

test-js: js $(CLI) $(JS_SCHEMA)
	DMLREF_CLI=$(abspath $(CLI)) DMLREF_JS_SCHEMA=$(abspath $(JS_SCHEMA)) $(NODE) js/test/run.mjs

# The package in headless Chromium (js/test/browser/run.mjs; SKIP without chromium).
.PHONY: test-js-browser
test-js-browser: js $(CLI)
	DMLREF_CLI=$(abspath $(CLI)) $(NODE) js/test/browser/run.mjs
