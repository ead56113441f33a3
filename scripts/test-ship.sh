#!/bin/sh
# make test-ship: the shipping checks, one count each, ending with
# "ship: N passed, N failed" (exit 1 on a failure):
#   version   the Makefile's version (the header's DMLREF_VERSION_* macros) names
#             the built libdmlref.so.X.Y.Z, its SONAME is libdmlref.so.X, and
#             DMLREF_VERSION_STRING is X.Y.Z (dmlref_version(): tests/unit)
#   symbols   scripts/check-symbols.sh: only dmlref_* exported / global
#   install   scripts/check-install.sh: DESTDIR install, pkg-config, shared and
#             static example, uninstall
#   rebuild   scripts/check-rebuild.sh: a configuration change rebuilds
#   code-size scripts/code-size.sh: the code-size table (README.md "Code size")
#   ops       scripts/check-ops.sh: make OPS=gather builds GATHER alone; a static
#             GATHER program holds no other operator's code
# Environment: BUILD (default build), MAKE (default make).  Expects
# `make BUILD=$BUILD lib` to have run (the make target does that).
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
export BUILD MAKE
if [ "${SHARED:-1}" != 1 ] || [ "${LOCALIZE:-1}" != 1 ]; then
    echo "test-ship checks the shipped host build: run it with SHARED=1 LOCALIZE=1"
    echo "ship: 0 passed, 1 failed"
    exit 1
fi
pass=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

check() { # name, command...
    name=$1; shift
    echo "== $name"
    "$@" >"$log" 2>&1
    rc=$?
    cat "$log"
    if [ "$rc" -eq 0 ]; then
        pass=$((pass + 1)); echo "ship $name: passed"
    else
        failed=$((failed + 1)); echo "ship $name: FAILED (exit $rc)"
    fi
}

check_version() {
    v=$(sed -n 's/^#define DMLREF_VERSION_STRING "\(.*\)"/\1/p' include/dmlref.h)
    m=$(sed -n 's/^#define DMLREF_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' include/dmlref.h | paste -sd.)
    made=$($MAKE -s --no-print-directory -f Makefile -f - print-version <<'MK'
print-version: ; @echo $(VERSION)
MK
)
    echo "DMLREF_VERSION_STRING $v, MAJOR.MINOR.PATCH $m, Makefile VERSION $made"
    [ -n "$v" ] && [ "$v" = "$m" ] && [ "$v" = "$made" ] || return 1
    so=$BUILD/libdmlref.so.$v
    [ -f "$so" ] || { echo "no $so"; return 1; }
    soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    echo "$so: SONAME $soname"
    [ "$soname" = "libdmlref.so.${v%%.*}" ] || return 1
    [ "$(readlink "$BUILD/libdmlref.so.${v%%.*}")" = "libdmlref.so.$v" ] || { echo "bad symlink $BUILD/libdmlref.so.${v%%.*}"; return 1; }
    [ "$(readlink "$BUILD/libdmlref.so")" = "libdmlref.so.${v%%.*}" ] || { echo "bad symlink $BUILD/libdmlref.so"; return 1; }
    echo "symlinks libdmlref.so -> libdmlref.so.${v%%.*} -> libdmlref.so.$v"
}

check version check_version
check symbols sh scripts/check-symbols.sh
check install sh scripts/check-install.sh
check rebuild sh scripts/check-rebuild.sh
check code-size sh scripts/code-size.sh
check ops sh scripts/check-ops.sh

echo "ship: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
