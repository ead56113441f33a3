#!/bin/sh
# The caller's allocator (tests/alloc/test_alloc.c): size queries, bump arenas, a
# failed allocation at every request, no libc allocation call.  Run twice: as is,
# and with the tuning knobs (docs/environment.md) at their smallest, so that the
# small cases reach the plans that own scratch (slabs, streaming buffers, marks).
# Environment: BUILD (default build).
BUILD=${BUILD:-build}
t="$BUILD/test_alloc"
if [ ! -x "$t" ]; then
    echo "alloc: $t is missing (make BUILD=$BUILD $t)"
    echo "alloc: 0 passed, 1 failed"
    exit 1
fi
p=0; f=0; rc=0
for knobs in "" "DMLREF_PAR_GRAIN=1 DMLREF_STREAM_MIN=1 DMLREF_SLAB_MIN=1"; do
    echo "-- alloc ${knobs:-(default knobs)}"
    out=$(env $knobs "$t" 2>&1) || rc=1
    echo "$out"
    line=$(echo "$out" | grep -E '^alloc: [0-9]+ passed' | tail -n 1)
    [ -n "$line" ] || { f=$((f + 1)); echo "repro: BUILD=$BUILD env $knobs $t"; continue; }
    p=$((p + $(echo "$line" | sed -E 's/^alloc: ([0-9]+) passed.*/\1/')))
    nf=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    f=$((f + nf))
    [ "$nf" -eq 0 ] || echo "repro: BUILD=$BUILD env $knobs $t"
done
echo "alloc: $p passed, $f failed"
[ "$f" -eq 0 ] && [ "$rc" -eq 0 ]
