#!/bin/sh
# The Makefile rebuilds when the configuration changes ($(BUILD)/flags.stamp):
#   make                  (OPENMP=1) libdmlref.so and dmlref NEED libgomp
#   make again            nothing is rebuilt
#   make OPENMP=0         objects recompiled, libraries and command relinked,
#                         no libgomp NEEDed, no GOMP_ reference in libdmlref.a
#   make OPENMP=0 EXTRA_CFLAGS=..  objects recompiled
#   make                  back: libgomp again
# in a build directory of its own.
#
# Environment: BUILD (the check uses $BUILD-rebuild; default build), MAKE,
# JOBS (default 2), READELF, NM.  Prints "ok - ..." / "FAIL - ..."; exits 1 on failure.
BUILD=${BUILD:-build}
R=$BUILD-rebuild
MAKE=${MAKE:-make}
JOBS=${JOBS:-2}
READELF=${READELF:-readelf}
NM=${NM:-nm}
fail=0
ok() { echo "ok - $*"; }
bad() { echo "FAIL - $*"; fail=1; }

version=$(sed -n 's/^#define DMLREF_VERSION_STRING "\(.*\)"/\1/p' include/dmlref.h)
so=$R/libdmlref.so.$version
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Every build at CFLAGS=-O0 (the same in all of them, so it is no change of configuration):
# the check is about what make rebuilds, not the code, and -O0 compiles in a third of the time.
build() { # make arguments...
    if $MAKE -j"$JOBS" BUILD="$R" CFLAGS=-O0 "$@" all >"$log" 2>&1; then return 0; fi
    cat "$log"; bad "make BUILD=$R $* all failed"; return 1
}
stamp() { stat -c %.9Y "$1" 2>/dev/null || echo missing; }
needs_gomp() { "$READELF" -d "$1" | grep '(NEEDED)' | grep -q 'libgomp'; }
state() { echo "$(stamp "$R/src/api/api.o") $(stamp "$so") $(stamp "$R/libdmlref.a") $(stamp "$R/dmlref")"; }

# expect_openmp yes|no WHEN
expect_openmp() {
    want=$1; when=$2
    for f in "$so" "$R/dmlref"; do
        if needs_gomp "$f"; then has=yes; else has=no; fi
        if [ "$has" = "$want" ]; then
            ok "$when: $f NEEDs libgomp: $has"
        else
            bad "$when: $f NEEDs libgomp: $has, want $want"
        fi
    done
    if "$NM" "$R/libdmlref.a" | grep -q ' U GOMP_'; then has=yes; else has=no; fi
    [ "$has" = "$want" ] && ok "$when: libdmlref.a references GOMP_: $has" \
        || bad "$when: libdmlref.a references GOMP_: $has, want $want"
}

# expect_rebuilt BEFORE WHEN: every one of the four files is new.
expect_rebuilt() {
    before=$1; when=$2; after=$(state)
    changed=0
    for i in 1 2 3 4; do
        old=$(echo "$before" | cut -d' ' -f$i)
        new=$(echo "$after" | cut -d' ' -f$i)
        [ -n "$new" ] && [ "$old" != "$new" ] && changed=$((changed + 1))
    done
    if [ "$changed" -eq 4 ]; then
        ok "$when: src/api/api.o, the .so, libdmlref.a and dmlref rebuilt"
    else
        bad "$when: only $changed of src/api/api.o, .so, libdmlref.a, dmlref rebuilt"
    fi
}

# OPENMP=1 is written out so that a caller's OPENMP=0 (in MAKEFLAGS) does not
# turn the first and last builds into OpenMP-free ones.
rm -rf "$R"
build OPENMP=1 || exit 1
expect_openmp yes "make"

sleep 1; before=$(state)
build OPENMP=1 || exit 1
if [ "$(state)" = "$before" ] && ! grep -qE '(^| )-c |-o ' "$log"; then
    ok "make again: nothing rebuilt"
else
    bad "make again rebuilt: $(grep -E ' -o ' "$log" | head -n 3)"
fi

sleep 1; before=$(state)
build OPENMP=0 || exit 1
expect_rebuilt "$before" "make OPENMP=0"
expect_openmp no "make OPENMP=0"

sleep 1; before=$(state)
build OPENMP=0 EXTRA_CFLAGS=-DDMLREF_REBUILD_PROBE=1 || exit 1
expect_rebuilt "$before" "make OPENMP=0 EXTRA_CFLAGS=-DDMLREF_REBUILD_PROBE=1"

sleep 1; before=$(state)
build OPENMP=1 || exit 1
expect_rebuilt "$before" "make (back to OPENMP=1)"
expect_openmp yes "make (back to OPENMP=1)"

rm -rf "$R"
[ "$fail" -eq 0 ]
