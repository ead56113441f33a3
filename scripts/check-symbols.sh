#!/bin/sh
# Only the public API leaves the library: every defined dynamic symbol of
# libdmlref.so and every global defined symbol of the shipped libdmlref.a must
# start with dmlref_, and every DMLREF_API function of include/dmlref.h must be
# there.  Self-test: the same filter must find internal names (set_error, ...)
# in libdmlref_internal.a, so a filter that lets everything through fails.
#
# Allowed besides dmlref_*: names a toolchain itself may add to a shared
# library's dynamic table (_init, _fini; the linker's __bss_start, _edata,
# _end and ARM's __bss_start__, __bss_end__, _bss_end__, __end__), and in the
# static archive i386's PIC helpers __x86.get_pc_thunk.* (hidden, in COMDAT
# groups, identical in every object that defines them).  None of them can
# clash with a host program's names.
#
# Environment: BUILD (default build), NM (default nm), SHARED (default 1),
# LOCALIZE (default 1; with 0 the static archive is not checked).
# Prints "ok - ..." / "FAIL - ..." lines; exits 1 on any failure.
BUILD=${BUILD:-build}
NM=${NM:-nm}
SHARED=${SHARED:-1}
LOCALIZE=${LOCALIZE:-1}
fail=0
ok() { echo "ok - $*"; }
bad() { echo "FAIL - $*"; fail=1; }

toolchain='^(_init|_fini|__bss_start|_edata|_end|__bss_start__|__bss_end__|_bss_end__|__end__|__x86\.get_pc_thunk\.[a-z]+)$'

# The names of the DMLREF_API functions the header declares.
api=$(sed -n 's/^DMLREF_API .*[ *]\(dmlref_[a-z0-9_]*\)(.*/\1/p' include/dmlref.h | sort -u)
n_api=$(echo "$api" | grep -c .)
undecorated=$(grep -E '^[A-Za-z_].*[ *]dmlref_[a-z0-9_]*\(' include/dmlref.h | grep -v '^DMLREF_API ')
if [ "$n_api" -lt 15 ]; then
    bad "include/dmlref.h: only $n_api DMLREF_API functions found"
elif [ -n "$undecorated" ]; then
    bad "include/dmlref.h: functions without DMLREF_API: $undecorated"
else
    ok "include/dmlref.h: $n_api functions, all DMLREF_API"
fi

# check_list WHAT NAMES: NAMES (one a line) must all be dmlref_* (or toolchain
# names) and include every API function.
check_list() {
    what=$1; names=$2
    extra=$(echo "$names" | grep . | grep -v '^dmlref_' | grep -Ev "$toolchain")
    missing=$(echo "$api" | while read -r f; do echo "$names" | grep -qx "$f" || echo "$f"; done)
    n=$(echo "$names" | grep -c '^dmlref_')
    if [ -n "$extra" ]; then
        bad "$what exports non-API names: $(echo $extra)"
    elif [ -n "$missing" ]; then
        bad "$what lacks API functions: $(echo $missing)"
    else
        ok "$what: $n global symbols, all dmlref_*"
    fi
}

if [ "$SHARED" = 1 ]; then
    so=$(ls "$BUILD"/libdmlref.so.*.*.* 2>/dev/null | head -n 1)
    if [ -z "$so" ]; then
        bad "no $BUILD/libdmlref.so.X.Y.Z (make BUILD=$BUILD lib)"
    else
        names=$("$NM" -D --defined-only "$so" | awk 'NF >= 3 { print $3 }' | sed 's/@.*//')
        check_list "$so (nm -D --defined-only)" "$names"
    fi
fi

if [ "$LOCALIZE" = 1 ]; then
    if [ ! -f "$BUILD/libdmlref.a" ]; then
        bad "no $BUILD/libdmlref.a"
    else
        names=$("$NM" -g --defined-only "$BUILD/libdmlref.a" | awk 'NF >= 3 { print $3 }')
        check_list "$BUILD/libdmlref.a (nm -g --defined-only)" "$names"
    fi
fi

# Self-test of the filter on the archive whose internal names are global.
if [ ! -f "$BUILD/libdmlref_internal.a" ]; then
    bad "no $BUILD/libdmlref_internal.a for the self-test"
else
    names=$("$NM" -g --defined-only "$BUILD/libdmlref_internal.a" | awk 'NF >= 3 { print $3 }')
    extra=$(echo "$names" | grep . | grep -v '^dmlref_' | grep -Ev "$toolchain")
    n=$(echo "$extra" | grep -c .)
    if echo "$extra" | grep -qx set_error; then
        ok "self-test: the filter finds $n internal names (set_error, ...) in libdmlref_internal.a"
    else
        bad "self-test: the filter finds no set_error in libdmlref_internal.a"
    fi
fi

[ "$fail" -eq 0 ]
