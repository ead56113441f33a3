#!/bin/sh
# Every value `dmlref run` prints reads back to the same bits in Python's json
# and JavaScript's JSON.parse (tests/json/roundtrip.py), over the documented
# cases, 15 generated cases of every operator and 6 of the bits flavour
# (subnormals, signalling NaNs, NaN payloads, -0.0, integer extremes).
# Environment: BUILD (default build), PYTHON (default /usr/bin/python3).
BUILD=${BUILD:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
D="$BUILD/dmlref"
if [ ! -x "$D" ]; then
    echo "json: $D is missing (make BUILD=$BUILD cli)"
    echo "json: 0 passed, 1 failed"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$D" gen --operator ALL --count 15 --seed 20261124 --out "$tmp/gen" >"$tmp/gen.log" 2>&1 ||
   ! "$D" gen --operator ALL --count 6 --seed 20261124 --bits --out "$tmp/gen" >>"$tmp/gen.log" 2>&1; then
    cat "$tmp/gen.log"
    echo "json: 0 passed, 1 failed"
    exit 1
fi
exec "$PYTHON" "$(dirname "$0")/../json/roundtrip.py" --dmlref "$D" tests/cases "$tmp/gen"
