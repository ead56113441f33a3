#!/bin/sh
# make OPS="..." builds a library with only those operators:
#   - another operator is refused, naming the build option: the command's case
#     reader exits 3 (the library's compile returns DMLREF_ERROR_UNSUPPORTED_OPERATOR:
#     tests/unit/test_registry.c covers the library side in any OPS build);
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
[ $rc -eq 3 ] && ok "OPS=gather: a JOIN case exits 3" || bad "OPS=gather: JOIN exits $rc"
case "$msg" in
*"operator: JOIN is not built into this dmlref (make OPS=\"...\" left it out; this build has GATHER)"*)
    ok "the message names the build option" ;;
*) bad "OPS=gather: JOIN's message: $msg" ;;
esac
"$B-gather/dmlref" run tests/cases/gather_doc1.json >/dev/null && ok "OPS=gather: GATHER runs" || bad "OPS=gather: GATHER fails"

# the library itself: compiling JOIN in the GATHER-only build
cat >"$B-gather/not_built.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include "dmlref.h"
int main(void) {
    const uint32_t sizes[1] = {2};
    DMLREF_BUFFER_TENSOR_DESC b = {DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_FLAG_NONE, 1, sizes, NULL, 8, 0};
    DMLREF_TENSOR_DESC t = {DMLREF_TENSOR_TYPE_BUFFER, &b};
    DMLREF_JOIN_OPERATOR_DESC j = {1, &t, &t, 0};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_JOIN, &j};
    dmlref_error err;
    const dmlref_status st = dmlref_validate(&d, DMLREF_FEATURE_LEVEL_6_4, &err);
    printf("%s: %s\n", dmlref_status_name(st), err.message);
    return st == DMLREF_ERROR_UNSUPPORTED_OPERATOR && strstr(err.message, "JOIN: not built into this library (build it with make OPS=") &&
           dmlref_operator_schema(DMLREF_OPERATOR_JOIN) == NULL && dmlref_operator_schema(DMLREF_OPERATOR_GATHER) != NULL ? 0 : 1;
}
EOF
if $CC -Iinclude -o "$B-gather/not_built" "$B-gather/not_built.c" "$B-gather/libdmlref.a" -fopenmp &&
    "$B-gather/not_built"; then ok "OPS=gather: the library refuses JOIN naming the build option"
else bad "OPS=gather: the library's answer for JOIN"; fi

# the GATHER-only program holds no other operator's code
others=$(nm "$B-gather/example_gather" | grep -E ' [tT] (scatter_nd|concat|split|join|identity|plan_scatter|plan_concat)' | head -n 5)
[ -z "$others" ] && ok "the GATHER-only program has no SCATTER_ND/SPLIT/JOIN/IDENTITY code" ||
    bad "the GATHER-only program holds: $others"
sz_g=$(size "$B-gather/example_gather" | awk 'NR == 2 {print $1}')
sz_a=$(size "$B-all/example_gather" | awk 'NR == 2 {print $1}')
echo "text bytes of examples/gather.c linked statically with -Wl,--gc-sections: OPS=gather $sz_g, all operators $sz_a"
[ "$sz_g" -lt "$sz_a" ] && ok "the GATHER-only program is smaller" || bad "the GATHER-only program is not smaller"
[ $fail -eq 0 ]
