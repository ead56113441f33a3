#!/bin/sh
# `make install` into a DESTDIR staging tree, then the README's C example
# (examples/gather.c) built against the installed tree twice, through
# pkg-config: shared (must NEED libdmlref.so.0) and static (must not NEED any
# libdmlref); both run (the shared one from the staging tree through
# LD_LIBRARY_PATH) and print the documented output.  The installed command
# runs a case.  Then `make uninstall` must leave no file behind.  A second
# round with PREFIX=/opt/dmlref LIBDIR=/opt/dmlref/lib64 checks that LIBDIR
# and dmlref.pc's libdir follow.
#
# Environment: BUILD (default build), MAKE (default make), CC (default cc),
# READELF (default readelf), PKG_CONFIG (default pkg-config).  Host builds only
# (the programs run here).  Prints "ok - ..." / "FAIL - ..."; exits 1 on failure.
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
CC=${CC:-cc}
READELF=${READELF:-readelf}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
fail=0
ok() { echo "ok - $*"; }
bad() { echo "FAIL - $*"; fail=1; }

version=$(sed -n 's/^#define DMLREF_VERSION_STRING "\(.*\)"/\1/p' include/dmlref.h)
major=${version%%.*}
want='[1, 2]
[3, 4]
[3, 4]
[5, 6]'

mkdir -p "$BUILD" || exit 1
stage=$(cd "$BUILD" && pwd)/ship-stage
work=$(cd "$BUILD" && pwd)/ship-install
rm -rf "$stage" "$work"
mkdir -p "$work"

# round PREFIX LIBDIR
round() {
    prefix=$1; libdir=$2
    echo "== install PREFIX=$prefix LIBDIR=$libdir DESTDIR=$stage"
    if ! $MAKE -s BUILD="$BUILD" PREFIX="$prefix" LIBDIR="$libdir" DESTDIR="$stage" install >"$work/install.log" 2>&1; then
        cat "$work/install.log"; bad "make install failed"; return
    fi
    lib=$stage$libdir
    for f in "$stage$prefix/bin/dmlref" "$stage$prefix/include/dmlref.h" "$lib/libdmlref.a" \
             "$lib/libdmlref.so.$version" "$lib/pkgconfig/dmlref.pc"; do
        [ -f "$f" ] || bad "not installed: $f"
    done
    [ "$(readlink "$lib/libdmlref.so.$major")" = "libdmlref.so.$version" ] \
        || bad "$lib/libdmlref.so.$major is not a symlink to libdmlref.so.$version"
    [ "$(readlink "$lib/libdmlref.so")" = "libdmlref.so.$major" ] \
        || bad "$lib/libdmlref.so is not a symlink to libdmlref.so.$major"
    soname=$("$READELF" -d "$lib/libdmlref.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    [ "$soname" = "libdmlref.so.$major" ] || bad "SONAME is '$soname', not libdmlref.so.$major"

    # pkg-config sees only the staging tree.
    PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_LIBDIR=$lib/pkgconfig PKG_CONFIG_PATH= \
        "$PKG_CONFIG" --modversion dmlref >"$work/pc.version" 2>&1
    [ "$(cat "$work/pc.version")" = "$version" ] || bad "pkg-config --modversion: $(cat "$work/pc.version")"
    pcdir=$(PKG_CONFIG_LIBDIR=$lib/pkgconfig PKG_CONFIG_PATH= "$PKG_CONFIG" --variable=libdir dmlref)
    [ "$pcdir" = "$libdir" ] || bad "dmlref.pc libdir is '$pcdir', not $libdir"
    cflags=$(PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_LIBDIR=$lib/pkgconfig PKG_CONFIG_PATH= "$PKG_CONFIG" --cflags dmlref)
    libs=$(PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_LIBDIR=$lib/pkgconfig PKG_CONFIG_PATH= "$PKG_CONFIG" --libs dmlref)
    slibs=$(PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_LIBDIR=$lib/pkgconfig PKG_CONFIG_PATH= "$PKG_CONFIG" --static --libs dmlref)
    echo "   cflags: $cflags"
    echo "   libs: $libs"
    echo "   static libs: $slibs"

    # Shared: the usual -ldmlref picks libdmlref.so.
    ex_shared=$work/gather_shared
    ex_static=$work/gather_static
    rm -f "$ex_shared" "$ex_static"
    cc_opts="-std=c11 -Wall -Wextra -pedantic -Werror -O2"
    if ! $CC $cc_opts $cflags examples/gather.c -o "$ex_shared" $libs; then
        bad "examples/gather.c does not build against the shared library"
    else
        needed=$("$READELF" -d "$ex_shared" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
        if echo "$needed" | grep -qx "libdmlref.so.$major"; then
            ok "shared example NEEDs libdmlref.so.$major ($(echo $needed))"
        else
            bad "shared example NEEDs $(echo $needed), not libdmlref.so.$major"
        fi
        resolved=$(LD_LIBRARY_PATH=$lib ldd "$ex_shared" 2>/dev/null | grep 'libdmlref')
        case "$resolved" in
            *"$lib/libdmlref.so.$major"*) ok "shared example loads $lib/libdmlref.so.$major" ;;
            *) bad "shared example resolves libdmlref to: $resolved" ;;
        esac
        got_shared=$(LD_LIBRARY_PATH=$lib "$ex_shared") || bad "shared example exited $?"
    fi

    # Static: the static link line pkg-config --static gives, with libdmlref.a
    # (the archive) chosen over the .so.
    slibs_a=$(echo "$slibs" | sed 's/-ldmlref\b/-Wl,-Bstatic -ldmlref -Wl,-Bdynamic/')
    if ! $CC $cc_opts $cflags examples/gather.c -o "$ex_static" $slibs_a; then
        bad "examples/gather.c does not build against the static library with: $slibs_a"
    else
        needed=$("$READELF" -d "$ex_static" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
        if echo "$needed" | grep -q 'libdmlref'; then
            bad "static example NEEDs $(echo $needed)"
        else
            ok "static example needs no libdmlref ($(echo $needed))"
        fi
        got_static=$("$ex_static") || bad "static example exited $?"
    fi

    if [ "${got_shared-}" = "$want" ] && [ "${got_static-}" = "$want" ]; then
        ok "shared and static examples print the same, documented output"
    else
        bad "example outputs: shared '${got_shared-}', static '${got_static-}', want '$want'"
    fi
    unset got_shared got_static

    # The installed command.
    v=$(LD_LIBRARY_PATH=$lib "$stage$prefix/bin/dmlref" --version)
    case "$v" in
    "dmlref $version (library $version; host: "*) ok "installed dmlref --version: $v" ;;
    *) bad "installed dmlref --version: '$v' (want 'dmlref $version (library $version; host: ...)')" ;;
    esac
    if "$stage$prefix/bin/dmlref" run tests/cases/gather_doc1.json >"$work/run.log" 2>&1; then
        ok "installed dmlref runs tests/cases/gather_doc1.json"
    else
        cat "$work/run.log"; bad "installed dmlref run tests/cases/gather_doc1.json failed"
    fi

    echo "== uninstall"
    if ! $MAKE -s BUILD="$BUILD" PREFIX="$prefix" LIBDIR="$libdir" DESTDIR="$stage" uninstall >"$work/uninstall.log" 2>&1; then
        cat "$work/uninstall.log"; bad "make uninstall failed"
    fi
    left=$(find "$stage" ! -type d)
    if [ -n "$left" ]; then
        bad "make uninstall left: $(echo $left)"
    else
        ok "make uninstall left no file in $stage (directories stay)"
    fi
}

round /usr/local /usr/local/lib
round /opt/dmlref /opt/dmlref/lib64
rm -rf "$stage"
[ "$fail" -eq 0 ]
