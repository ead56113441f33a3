#!/bin/sh
# make OPS="..." builds a library with only those operators:
#   - compiling another operator fails with DMLREF_ERROR_UNSUPPORTED_OPERATOR
#     naming the build option (through the command: exit 2, the message);
#   - a static program that uses only GATHER, linked with -Wl,--gc-sections,
#     holds none of the other operators' code, and is smaller than the same
#     program against the whole library (both sizes printed).
# Environment: MAKE (default make), CC (default cc), OPS_BUILD (default
# build-ops; <dir>-gather and <dir>-all are used).
MAKE=${MAKE:-make}
CC=${CC:-cc}
B=${OPS_BUILD:-build-ops}
fail=0
ok() { echo "ok - $*"; }
bad() { echo "FAIL - $*"; fail=1; }

for ops in gather all; do
    if [ $ops = all ]; then set --; else set -- OPS=$ops; fi
    $MAKE -s -j2 BUILD="$B-$ops" "$@" "$B-$ops/libdmlref.a" "$B-$ops/dmlref" >"$B.log" 2>&1 ||
        { cat "$B.log"; bad "make $* failed"; continue; }
    $CC -O2 -Iinclude -o "$B-$ops/example_gather" examples/gather.c "$B-$ops/libdmlref.a" -fopenmp \
        -Wl,--gc-sections || { bad "linking examples/gather.c against $B-$ops/libdmlref.a"; continue; }
    out=$("$B-$ops/example_gather" | head -n 1)
    [ "$out" = "[1, 2]" ] && ok "OPS=$ops: the GATHER example runs" || bad "OPS=$ops: the example printed '$out'"
done
rm -f "$B.log"

# another operator in the GATHER-only build
"$B-gather/dmlref" run tests/cases/join_doc1.json >/dev/null 2>"$B-err.txt"
rc=$?
msg=$(cat "$B-err.txt"); rm -f "$B-err.txt"
[ $rc -eq 2 ] && ok "OPS=gather: JOIN exits 2" || bad "OPS=gather: JOIN exits $rc"
case "$msg" in
*"JOIN: not built into this library (build it with make OPS="*) ok "the message names the build option" ;;
*) bad "OPS=gather: JOIN's message: $msg" ;;
esac
"$B-gather/dmlref" run tests/cases/gather_doc1.json >/dev/null && ok "OPS=gather: GATHER runs" || bad "OPS=gather: GATHER fails"

# the GATHER-only program holds no other operator's code
others=$(nm "$B-gather/example_gather" | grep -E ' [tT] (scatter_nd|concat|split|join|identity|plan_scatter|plan_concat)' | head -n 5)
[ -z "$others" ] && ok "the GATHER-only program has no SCATTER_ND/SPLIT/JOIN/IDENTITY code" ||
    bad "the GATHER-only program holds: $others"
sz_g=$(size "$B-gather/example_gather" | awk 'NR == 2 {print $1}')
sz_a=$(size "$B-all/example_gather" | awk 'NR == 2 {print $1}')
echo "text bytes of examples/gather.c linked statically with -Wl,--gc-sections: OPS=gather $sz_g, all operators $sz_a"
[ "$sz_g" -lt "$sz_a" ] && ok "the GATHER-only program is smaller" || bad "the GATHER-only program is not smaller"
[ $fail -eq 0 ]
