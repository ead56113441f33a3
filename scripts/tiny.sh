#!/bin/sh
# The tiny-operator table of `make bench` (docs/performance.md, "Per-call overhead"): for
# each operator, the first documented example of tests/cases that names it (a few dozen
# bytes), the time per dmlref_execute of the compiled operator and per dmlref_run
# (compile + execute + release), each the median of 11 samples of a batch of calls
# (`dmlref bench --batch B [--run]`), with OpenMP's default threads and default options,
# measured in R rounds over the whole table (round 1 times every operator, then round 2, ...:
# a burst of a neighbour's load lands on one round of an operator, not on all of them) and
# printed as the least of the R and, in parentheses, their median (the lower middle one for
# an even R);
# then the per-call time of the Python package's function on the same case
# (scripts/tiny_py.py: the outputs allocated once, out=, the median of 7 batches of 20000
# calls in one Python process; `*`: the package caches no compiled operator for the call,
# so each call builds, compiles, executes and releases) and of the command's `run` on the
# case file (`dmlref run CASE`, process start to exit: the median of 21, hyperfine when
# installed, else a loop around date +%s%N).
#
#   sh scripts/tiny.sh [DMLREF]      default build/dmlref
# Environment: PYTHON (default /usr/bin/python3; without dmlref's package importable, `make
# python`, the python column says -), TINY_ROUNDS=R (default 3), TINY_QUICK=1 (functional
# only: batches of 200, 3 runs, 1 round).
set -u
D=${1:-build/dmlref}
[ -x "$D" ] || { echo "tiny.sh: $D is not built (make cli)" >&2; exit 1; }
case $D in /*) ;; *) D=$PWD/$D ;; esac # before the cd below
cd "$(dirname "$0")/.." || exit 1
PY=${PYTHON:-/usr/bin/python3}
if [ "${TINY_QUICK:-0}" = 1 ]; then EB=200 RB=20 PB=200 N=3 REP=3 R=1; else EB=20000 RB=2000 PB=20000 N=21 REP=11 R=3; fi
R=${TINY_ROUNDS:-$R}
case $R in '' | *[!0-9]* | 0) echo "tiny.sh: TINY_ROUNDS=$R is not a count of rounds" >&2; exit 2 ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seen=" "
files=""
for f in tests/cases/*.json; do
    op=$(sed -n 's/.*"operator": *"\([A-Z0-9_]*\)".*/\1/p' "$f" | head -n 1)
    [ -n "$op" ] || continue
    case "$seen" in *" $op "*) continue ;; esac
    seen="$seen$op "
    files="$files $f"
done
# the Python package: all cases in one process, before the rest (PATH NS [compiles] | PATH - WHY)
# shellcheck disable=SC2086
"$PY" scripts/tiny_py.py --batch $PB --repeat 7 $files >"$tmp/py" 2>"$tmp/py.err" ||
    [ -s "$tmp/py" ] || sed 's/^/tiny.sh: tiny_py.py: /' "$tmp/py.err" >&2
# field JSON KEY: the value of KEY in a one-line JSON object from `dmlref bench`
field() { echo "$1" | sed -n "s/.*\"$2\": \"*\([^,\"}]*\).*/\1/p"; }
now_ns() { date +%s%N; }
# run_us CASE: the median of N `dmlref run CASE` (process start to exit), microseconds
run_us() {
    if command -v hyperfine >/dev/null 2>&1; then
        hyperfine -N -w 2 -r "$N" --export-json "$tmp/hf.json" "$D run $1" >/dev/null 2>&1 &&
            "$PY" -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["results"][0]["median"] * 1e6))' "$tmp/hf.json" &&
            return
    fi
    "$D" run "$1" >/dev/null 2>&1 || { echo -; return; }
    i=0
    : >"$tmp/t"
    while [ $i -lt "$N" ]; do
        t0=$(now_ns)
        "$D" run "$1" >/dev/null 2>&1
        t1=$(now_ns)
        echo $(((t1 - t0) / 1000)) >>"$tmp/t"
        i=$((i + 1))
    done
    sort -n "$tmp/t" | sed -n "$(((N + 1) / 2))p"
}
# spread NAME: the least of the numbers in file NAME and, in parentheses, their median
spread() {
    sort -n "$1" >"$1.s"
    c=$(wc -l <"$1.s")
    [ "$c" -gt 0 ] || { echo -; return; }
    echo "$(head -n 1 "$1.s") ($(sed -n "$(((c + 1) / 2))p" "$1.s"))"
}
rc=0
round=1
while [ $round -le "$R" ]; do
    k=0
    for f in $files; do
        k=$((k + 1))
        e=$("$D" bench "$f" --batch $EB --repeat $REP) &&
            r=$("$D" bench "$f" --batch $RB --repeat $REP --run) || { rc=1; continue; }
        field "$e" median_ns >>"$tmp/e$k"
        field "$r" median_ns >>"$tmp/r$k"
        [ $round -gt 1 ] || echo "$(field "$e" bytes_moved) $(field "$e" kernel)" >"$tmp/m$k"
    done
    round=$((round + 1))
done
printf '%-24s %6s %10s %10s %10s %10s  %s\n' "operator (tiny case)" bytes "execute ns" "run ns" "python ns" "cmd run us" kernel
k=0
for f in $files; do
    k=$((k + 1))
    [ -s "$tmp/m$k" ] || continue
    op=$(sed -n 's/.*"operator": *"\([A-Z0-9_]*\)".*/\1/p' "$f" | head -n 1)
    read -r bytes kernel <"$tmp/m$k"
    py=$(awk -v f="$f" '$1 == f { print ($2 == "-" ? "-" : $2 ($3 == "uncached" ? "*" : "")) }' "$tmp/py")
    printf '%-24s %6s %10s %10s %10s %10s  %s (%s)\n' "$op" "$bytes" "$(spread "$tmp/e$k")" "$(spread "$tmp/r$k")" \
        "${py:--}" "$(run_us "$f")" "$kernel" "$(basename "$f" .json)"
done
exit $rc
