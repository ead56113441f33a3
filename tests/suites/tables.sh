#!/bin/sh
# One operator list (src/core/operators.def): scripts/check-tables.py checks every
# hand-kept per-operator table against it, one result per table; then, on a copy of
# operators.def with a fake operator added, every checked table must be reported
# missing it, by name (a checker that cannot fail proves nothing).
# Environment: PYTHON (default /usr/bin/python3).
PYTHON=${PYTHON:-/usr/bin/python3}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: $*"; }

# ---- the tables as they are ---------------------------------------------------------
"$PYTHON" scripts/check-tables.py >"$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
while IFS= read -r line; do
    case "$line" in
    "ok "*) ok ;;
    "FAIL "*) no "$line" ;;
    *) no "unexpected checker output: $line" ;;
    esac
done <"$tmp/out"
[ $rc -eq 0 ] && ok || no "check-tables.py exits $rc"

# ---- a fake operator: every checked table names it missing --------------------------
"$PYTHON" scripts/check-tables.py --list >"$tmp/list" 2>&1 || no "check-tables.py --list"
cp src/core/operators.def "$tmp/operators.def"
echo "DMLREF_OP(FAKE_TABLES_OP, fake_tables_op)" >>"$tmp/operators.def"
"$PYTHON" scripts/check-tables.py --def "$tmp/operators.def" >"$tmp/fake" 2>&1
rc=$?
[ $rc -eq 1 ] && ok || no "with a fake operator the checker exits $rc, not 1"
n=0
while IFS= read -r line; do
    case "$line" in
    "checked "*)
        table=${line#checked }
        n=$((n + 1))
        if grep -F -x -q "FAIL $table: missing FAKE_TABLES_OP" "$tmp/fake"; then ok; else
            no "table $table does not report the fake operator missing:"
            grep -F "$table" "$tmp/fake" | sed 's/^/    /'
        fi
        ;;
    esac
done <"$tmp/list"
[ "$n" -ge 18 ] && ok || no "--list names $n checked tables, fewer than the 18 known"
echo "tables: $(grep -c '^checked ' "$tmp/list") checked, $(grep -c '^derived ' "$tmp/list") derived (scripts/check-tables.py --list)"

echo "tables: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
