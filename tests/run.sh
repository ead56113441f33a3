#!/bin/sh
# Runs every suite and sums their "N passed, N failed[, N skipped]" lines into one.
# Every failure prints a line "repro: COMMAND" that re-runs it (docs/hardening.md).
# Environment: BUILD (default build), PYTHON (default /usr/bin/python3), SKIP_SUITES (names of
# suites not to run, each counted as 1 skipped and said so: .ci/run's variant builds leave out
# the command's front-end suites that a variant of the library does not change).
BUILD=${BUILD:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
export BUILD PYTHON
total_pass=0
total_fail=0
total_skip=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

suite() { # name, command...
    name=$1; shift
    echo "== $name"
    start=$(date +%s)
    "$@" >"$log" 2>&1
    rc=$?
    cat "$log"
    echo "-- $name: $(($(date +%s) - start)) s"
    line=$(grep -E '^([A-Za-z_-]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    p=$(echo "$line" | sed -E 's/^([A-Za-z_-]+: )?([0-9]+) passed.*/\2/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    k=$(echo "$line" | sed -n -E 's/.* ([0-9]+) skipped.*/\1/p')
    if [ -z "$line" ]; then p=0; f=1; echo "$name: no result line (exit $rc)"; fi
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "$name: exit status $rc"; fi
    # a failing suite that printed no "repro: ..." line of its own: the suite is the repro
    if [ "$f" -ne 0 ] && ! grep -q '^repro: ' "$log"; then echo "repro: BUILD=$BUILD PYTHON=$PYTHON $*"; fi
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
    total_skip=$((total_skip + ${k:-0}))
}

suite unit "$BUILD/test_unit"
for s in tests/suites/*.sh; do
    [ -e "$s" ] || continue
    n=$(basename "$s" .sh)
    case " ${SKIP_SUITES:-} " in
    *" $n "*) echo "== $n"; echo "SKIP $n: SKIP_SUITES"; total_skip=$((total_skip + 1)); continue ;;
    esac
    suite "$n" sh "$s"
done

echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
