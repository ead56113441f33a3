#!/bin/sh
# The guide's harnesses (docs/testing-your-backend.md) on a generated suite: every
# operator through `dmlref gen` (fixed seed) plus the hand-made bits cases
# (tests/harness/bits_cases.sh), each exported with `dmlref export`; then
#   examples/backend_harness.py   against its numpy stand-in, and
#   examples/backend_torch.py     the same with PyTorch as the backend (skipped without torch),
#   examples/backend_harness.mjs  against its JavaScript stand-in (node; skipped without it):
# every case must pass, and deliberately wrong backends must be caught (a harness that
# cannot fail proves nothing): one flipped bit, -0.0 made +0.0, NaN payloads made
# canonical, a wrong output shape.
# Environment: BUILD (default build), PYTHON (default /usr/bin/python3).
BUILD=${BUILD:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
D="$BUILD/dmlref"
COUNT=12 # cases per operator
pass=0
fail=0
skipped=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
no() {
    fail=$((fail + 1))
    echo "FAIL: $*"
    [ -s "$tmp/log" ] && sed 's/^/    /' "$tmp/log" | head -n 8
}
if [ ! -x "$D" ]; then
    echo "harness: $D is missing (make BUILD=$BUILD cli)"
    echo "harness: 0 passed, 1 failed"
    exit 1
fi

# ---- the suite: gen (every operator) + the bits cases, exported ----------------------
"$D" gen --operator ALL --count $COUNT --seed 20261201 --out "$tmp/suite" >"$tmp/log" 2>&1 && ok || no "dmlref gen"
sh tests/harness/bits_cases.sh "$tmp/suite" >"$tmp/log" 2>&1 && ok || no "bits cases"
n=0
for f in "$tmp/suite"/*.json; do
    if "$D" export "$f" --out "$tmp/golden/$(basename "$f" .json)" >"$tmp/log" 2>&1; then n=$((n + 1)); else no "export $f"; fi
done
[ "$n" -eq "$(ls "$tmp/suite" | wc -l)" ] && [ "$n" -gt 0 ] && ok || no "exported $n cases of $(ls "$tmp/suite" | wc -l)"
# an operator export has no framework form for (cli/framework.c) cannot reach a framework
# backend: its cases are set aside and counted as skipped, by name; every operator with a
# form (framework.c) must be there
"$PYTHON" - "$tmp/golden" "$tmp/noform" >"$tmp/log" 2>&1 <<'PY'
import glob, json, os, re, shutil, sys
os.makedirs(sys.argv[2])
ops, without = set(), {}
for d in sorted(glob.glob(sys.argv[1] + "/*")):
    m = json.load(open(d + "/manifest.json"))
    if m["framework"] is None:
        without[m["operator"]] = without.get(m["operator"], 0) + 1
        shutil.move(d, sys.argv[2])
    else:
        ops.add(m["operator"])
for op, k in sorted(without.items()):
    print("harness: no framework form for %s (cli/framework.c): its %d cases are skipped" % (op, k))
# every operator of the registry's list (src/core/operators.def)
missing = set(re.findall(r"^DMLREF_OP\(([A-Z0-9_]+),", open("src/core/operators.def").read(), re.M)) - ops
print("harness: the suite lacks %s" % sorted(missing) if missing else "harness: operators: " + ", ".join(sorted(ops)))
sys.exit(1 if missing else 0)
PY
rc=$?
cat "$tmp/log"
[ $rc -eq 0 ] && ok || no "the suite covers every operator"
skipped=$((skipped + $(ls "$tmp/noform" | wc -l)))
total=$(ls "$tmp/golden" | wc -l)

# ---- Python: the numpy stand-in passes everything; wrong backends are caught ---------
if "$PYTHON" examples/backend_harness.py "$tmp"/golden/* >"$tmp/log" 2>&1 &&
    grep -q "^harness: $total passed, 0 failed" "$tmp/log"; then ok; else no "backend_harness.py against numpy"; fi

# each wrong backend: how many cases it must fail (all, or at least one)
"$PYTHON" - "$tmp/golden" >"$tmp/log" 2>&1 <<'PY'
import glob, io, contextlib, sys
import numpy as np
sys.path.insert(0, "examples")
import backend_harness as h

dirs = sorted(glob.glob(sys.argv[1] + "/*"))
bits = [d for d in dirs if "/bits_" in d]

def wrong(change):
    return lambda fw, xs: [change(np.asarray(o)) for o in h.run_backend(fw, xs)]

def flip(o):  # one bit of the first element
    o = o.copy()
    o.reshape(-1)[:1].view("u%d" % o.itemsize)[...] ^= 1
    return o

def plus_zero(o):  # -0.0 becomes +0.0, as an arithmetic copy (x + 0) would make it
    return np.where(o == 0, np.zeros_like(o), o) if o.dtype.kind == "f" else o

def canonical_nan(o):  # every NaN becomes the canonical quiet NaN
    return np.where(np.isnan(o), np.array(np.nan, o.dtype), o) if o.dtype.kind == "f" else o

bad = 0
for name, backend, which, want in [
        ("a flipped bit", wrong(flip), dirs, "all"),
        ("-0.0 made +0.0", wrong(plus_zero), bits, "some"),
        ("NaN payloads made canonical", wrong(canonical_nan), bits, "some"),
        ("outputs flattened", wrong(lambda o: o.reshape(-1)), dirs, "some")]:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        rc = h.main(which, backend)
    failed = {line.split(":")[0] for line in out.getvalue().splitlines() if line.startswith("FAIL")}
    caught = rc == 1 and (len(failed) == len(which) if want == "all" else len(failed) >= 1)
    print("%s: %s (%d of %d cases failed, want %s)" % ("caught" if caught else "MISSED", name, len(failed), len(which), want))
    bad += not caught
sys.exit(bad)
PY
rc=$?
cat "$tmp/log"
if [ $rc -eq 0 ]; then pass=$((pass + 4)); else no "wrong backends in Python"; fi

# ---- the result taxonomy (docs/testing-your-backend.md): each wrong backend's class ------------
"$PYTHON" - "$tmp/golden" "$tmp/junit.xml" >"$tmp/log" 2>&1 <<'PY'
import glob, io, contextlib, sys
import xml.etree.ElementTree as E
import numpy as np
sys.path.insert(0, "examples")
import backend_harness as h

dirs = sorted(glob.glob(sys.argv[1] + "/*"))
bits = [d for d in dirs if "/bits_" in d]

def wrong(change):
    return lambda fw, xs: [change(np.asarray(o)) for o in h.run_backend(fw, xs)]

def unsupported(fw, xs):
    raise h.TypeUnsupported("no such type here")

def broken(fw, xs):
    raise RuntimeError("device lost")

def plus_zero(o):
    return np.where(o == 0, np.zeros_like(o), o) if o.dtype.kind == "f" else o

def canonical_nan(o):
    return np.where(np.isnan(o), np.array(np.nan, o.dtype), o) if o.dtype.kind == "f" else o

def via_double(o):  # int64 through float64
    return o.astype(np.float64).astype(o.dtype) if o.dtype in (np.int64, np.uint64) else o

bad = 0
for name, backend, which, classes, rc_want in [
        ("-0.0 made +0.0", wrong(plus_zero), bits, {"zero-sign"}, 1),
        ("NaN payloads made canonical", wrong(canonical_nan), bits, {"nan-payload"}, 1),
        ("int64 through a double", wrong(via_double), dirs, {"int64-53bit"}, None),
        ("the data type unsupported", unsupported, dirs, {"type-unsupported"}, 0),
        ("an exception", broken, dirs, {"backend-error"}, 1)]:
    got = [h.check(d, backend)[0] for d in which]
    found = set(got) - {"pass"}
    with contextlib.redirect_stdout(io.StringIO()):
        rc = h.main(which + ["--junit", sys.argv[2]], backend)
    suite = E.parse(sys.argv[2]).getroot()[0]
    good = found <= classes and (rc_want is None or (found == classes and rc == rc_want)) and suite.get("tests") == str(len(which))
    print("%s: %s: classes %s (want %s), exit %d" % ("classified" if good else "MISCLASSIFIED", name, sorted(found), sorted(classes), rc))
    bad += not good
sys.exit(bad)
PY
rc=$?
cat "$tmp/log"
if [ $rc -eq 0 ]; then pass=$((pass + 5)); else no "the taxonomy in Python"; fi

# ---- undefined elements (NONZERO_COORDINATES' rows past the count, the manifest's defined_elements):
# a backend that writes anything there passes; one that writes a wrong defined row fails
"$PYTHON" - "$tmp/golden" >"$tmp/log" 2>&1 <<'PY'
import glob, io, contextlib, json, sys
import numpy as np
sys.path.insert(0, "examples")
import backend_harness as h

def defined(d):
    m = json.load(open(d + "/manifest.json"))
    return [t.get("defined_elements") for t in m["outputs"]] if m["operator"] == "NONZERO_COORDINATES" else None

dirs = [d for d in sorted(glob.glob(sys.argv[1] + "/*")) if defined(d)]
partly = [d for d in dirs if defined(d)[1] is not None]  # some rows past the count
rows = [d for d in partly if defined(d)[1] > 0]  # and at least one defined row

def garbage(fw, xs):  # the rows past the count: anything
    count, co = h.run_backend(fw, xs)
    co = co.copy()
    co[int(count):] = 0xDEADBEEF
    return [count, co]

def wrong_row(fw, xs):  # the last defined row's first component off by one
    count, co = h.run_backend(fw, xs)
    co = co.copy()
    co[int(count) - 1, 0] ^= 1
    return [count, co]

bad = 0
for name, backend, which, want_cls, want_rc in [("garbage past the count", garbage, partly, "pass", 0),
                                                 ("a wrong defined row", wrong_row, rows, "other", 1)]:
    got = {h.check(d, backend)[0] for d in which}
    with contextlib.redirect_stdout(io.StringIO()):
        rc = h.main(which, backend)
    good = len(which) > 0 and got == {want_cls} and rc == want_rc
    print("%s: %s: %d cases, classes %s (want %s), exit %d" % ("ok" if good else "WRONG", name, len(which), sorted(got), want_cls, rc))
    bad += not good
sys.exit(bad)
PY
rc=$?
cat "$tmp/log"
if [ $rc -eq 0 ]; then pass=$((pass + 2)); else no "undefined elements in Python"; fi

# ---- PyTorch as the backend (the guide's section 5), where torch is installed ---------------
if "$PYTHON" -c "import torch" >/dev/null 2>&1; then
    if "$PYTHON" examples/backend_torch.py "$tmp"/golden/* >"$tmp/log" 2>&1 &&
        grep -q "^harness: $total passed, 0 failed" "$tmp/log"; then ok; else no "backend_torch.py"; fi
else
    echo "harness: torch is not installed: examples/backend_torch.py is skipped"
    skipped=$((skipped + 1))
fi

# ---- JavaScript: the plain-JS stand-in passes everything; a wrong backend is caught ----
if command -v node >/dev/null 2>&1; then
    if node examples/backend_harness.mjs "$tmp"/golden/* >"$tmp/log" 2>&1 &&
        grep -q "^harness-js: $total passed, 0 failed" "$tmp/log"; then ok; else no "backend_harness.mjs against its stand-in"; fi
    cat >"$tmp/wrong.mjs" <<'JS'
// A backend that flips one bit of every output must fail every case.
import { pathToFileURL } from 'node:url';
const [example, ...dirs] = process.argv.slice(2);
const { main, runBackend } = await import(pathToFileURL(example).href);
const flip = (fw, xs) => runBackend(fw, xs).map((o) => {
  o = o.slice();
  o[0] ^= typeof o[0] === 'bigint' ? 1n : 1;
  return o;
});
const lines = [], log = console.log;
console.log = (s) => lines.push(s);
const rc = main(dirs, flip);
console.log = log;
const failed = new Set(lines.filter((s) => s.startsWith('FAIL')).map((s) => s.split(':')[0])).size;
console.log(`wrong JS backend (a flipped bit): exit ${rc}, ${failed} of ${dirs.length} cases failed`);
process.exitCode = rc === 1 && failed === dirs.length ? 0 : 1;
JS
    if node "$tmp/wrong.mjs" "$(pwd)/examples/backend_harness.mjs" "$tmp"/golden/* >"$tmp/log" 2>&1; then ok; else no "a wrong JS backend is caught"; fi
    cat "$tmp/log"
    cat >"$tmp/nz.mjs" <<'JS'
// NONZERO_COORDINATES' rows past the count (defined_elements) are not compared: garbage there
// passes; a wrong defined row fails (other).
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
const [example, ...dirs] = process.argv.slice(2);
const h = await import(pathToFileURL(example).href);
const outs = (d) => JSON.parse(fs.readFileSync(`${d}/manifest.json`, 'utf8')).outputs;
const partly = dirs.filter((d) => outs(d).some((t) => t.defined_elements !== undefined));
const rows = partly.filter((d) => outs(d)[1].defined_elements > 0);
const N = (fw) => fw.shapes.OutputCoordinatesTensor[1];
const garbage = (fw, xs) => { const [c, co] = h.runBackend(fw, xs); const g = co.slice(); g.fill(0xdeadbeef, c[0] * N(fw)); return [c, g]; };
const wrong = (fw, xs) => { const [c, co] = h.runBackend(fw, xs); const g = co.slice(); g[c[0] * N(fw) - 1] ^= 1; return [c, g]; };
const ok1 = partly.length > 0 && partly.every((d) => h.check(d, garbage)[0] === 'pass');
const ok2 = rows.length > 0 && rows.every((d) => h.check(d, wrong)[0] === 'other');
console.log(`JS undefined elements: garbage past the count ${ok1 ? 'passes' : 'WRONG'} (${partly.length} cases), a wrong defined row ${ok2 ? 'fails' : 'WRONG'} (${rows.length} cases)`);
process.exitCode = ok1 && ok2 ? 0 : 1;
JS
    if node "$tmp/nz.mjs" "$(pwd)/examples/backend_harness.mjs" "$tmp"/golden/* >"$tmp/log" 2>&1; then ok; else no "JS: undefined elements"; fi
    cat "$tmp/log"
    cat >"$tmp/taxonomy.mjs" <<'JS'
// The taxonomy in JavaScript: a thrown TypeUnsupported is type-unsupported (exit 0), any other
// exception backend-error, -0.0 made +0.0 in FLOAT32 outputs zero-sign; --junit writes XML.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
const [example, junit, ...dirs] = process.argv.slice(2);
const h = await import(pathToFileURL(example).href);
const lines = [], log = console.log;
let bad = 0;
const plusZero = (fw, xs) => h.runBackend(fw, xs).map((o) => (o instanceof Uint32Array ? o.map((v) => (v === 0x80000000 ? 0 : v)) : o));
for (const [name, backend, want, rcWant] of [
  ['the data type unsupported', () => { throw new h.TypeUnsupported('no such type'); }, ['type-unsupported'], 0],
  ['an exception', () => { throw new Error('device lost'); }, ['backend-error'], 1],
  ['-0.0 made +0.0', plusZero, ['zero-sign'], 1]]) {
  const which = name.startsWith('-0') ? dirs.filter((d) => d.includes('/bits_')) : dirs;
  const found = [...new Set(which.map((d) => h.check(d, backend)[0]))].filter((c) => c !== 'pass').sort();
  console.log = (s) => lines.push(s);
  const rc = h.main([...which, '--junit', junit], backend);
  console.log = log;
  const ok = JSON.stringify(found) === JSON.stringify(want) && rc === rcWant && fs.readFileSync(junit, 'utf8').includes(`tests="${which.length}"`);
  console.log(`${ok ? 'classified' : 'MISCLASSIFIED'}: ${name}: ${found.join(', ')} (want ${want.join(', ')}), exit ${rc}`);
  bad += !ok;
}
process.exitCode = bad ? 1 : 0;
JS
    if node "$tmp/taxonomy.mjs" "$(pwd)/examples/backend_harness.mjs" "$tmp/junit-js.xml" "$tmp"/golden/* >"$tmp/log" 2>&1; then ok; else no "the taxonomy in JavaScript"; fi
    cat "$tmp/log"
else
    echo "harness: node is not installed: the JavaScript harness is skipped"
    skipped=$((skipped + 3))
fi

echo "harness: $pass passed, $fail failed, $skipped skipped"
[ $fail -eq 0 ]
