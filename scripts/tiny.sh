#!/bin/sh
# The tiny-operator table of `make bench` (docs/performance.md, "Per-call overhead"): for
# each operator, the first documented example of tests/cases that names it (a few dozen
# bytes), the time per dmlref_execute of the compiled operator and per dmlref_run
# (compile + execute + release), each the median of 11 samples of a batch of calls
# (`dmlref bench --batch B [--run]`), with OpenMP's default threads and default options.
#
#   sh scripts/tiny.sh [DMLREF]      default build/dmlref
set -u
D=${1:-build/dmlref}
[ -x "$D" ] || { echo "tiny.sh: $D is not built (make cli)" >&2; exit 1; }
case $D in /*) ;; *) D=$PWD/$D ;; esac # before the cd below
cd "$(dirname "$0")/.." || exit 1
seen=" "
# field JSON KEY: the value of KEY in a one-line JSON object from `dmlref bench`
field() { echo "$1" | sed -n "s/.*\"$2\": \"*\([^,\"}]*\).*/\1/p"; }
printf '%-24s %6s %10s %10s  %s\n' "operator (tiny case)" bytes "execute ns" "run ns" kernel
rc=0
for f in tests/cases/*.json; do
    op=$(sed -n 's/.*"operator": *"\([A-Z0-9_]*\)".*/\1/p' "$f" | head -n 1)
    [ -n "$op" ] || continue
    case "$seen" in *" $op "*) continue ;; esac
    seen="$seen$op "
    e=$("$D" bench "$f" --batch 20000 --repeat 11) || { rc=1; continue; }
    r=$("$D" bench "$f" --batch 2000 --repeat 11 --run) || { rc=1; continue; }
    printf '%-24s %6s %10s %10s  %s (%s)\n' "$op" "$(field "$e" bytes_moved)" "$(field "$e" median_ns)" \
        "$(field "$r" median_ns)" "$(field "$e" kernel)" "$(basename "$f" .json)"
done
exit $rc
