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

.PHONY: all lib cli test test-asan unit install clean
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

# The README's test command.  Runs every suite and ends with "N passed, N failed".
test: $(UNIT) $(NUMPY_DRIVER) $(if $(CLI_SRC),$(CLI))
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
