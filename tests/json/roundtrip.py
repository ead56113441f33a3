#!/usr/bin/env python3
"""Every value `dmlref run` prints reads back to the same bits.

For each case given (files or directories of case files), runs
`dmlref run CASE` (stdout JSON) and `dmlref run CASE --npy DIR` (the bit-exact
outputs), then reads the JSON as a test author would:

  - Python's `json` module, each number turned into the output's data type with
    numpy (`"nan"` the canonical quiet NaN, `"0x..."` the bits, `"inf"`/`"-inf"`);
  - JavaScript's `JSON.parse` in node (when node is installed), reading the output of
    `dmlref run CASE --int64-strings`: FLOAT32/FLOAT64 through Float32Array/Float64Array,
    FLOAT16 through a round-to-nearest-even conversion, INT64/UINT64 as "0x..." strings
    through BigInt, other integers as numbers (a number beyond 2^53, which JSON.parse
    would round, counts as skipped: --int64-strings leaves none).

and compares each with the .npy file's bytes.  The command's own reader (case/json.c)
reads the same text back through `expected` (tests/suites/cli.sh runs gen's cases).

    roundtrip.py --dmlref build/dmlref [--node node] CASE_OR_DIR...

Ends with "json: N passed, N failed, N skipped" (one count per case and reader).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

DTYPES = {"FLOAT32": "<f4", "FLOAT16": "<f2", "FLOAT64": "<f8", "UINT8": "u1", "INT8": "i1", "UINT16": "<u2",
          "INT16": "<i2", "UINT32": "<u4", "INT32": "<i4", "UINT64": "<u8", "INT64": "<i8"}
BITS = {"<f4": "<u4", "<f2": "<u2", "<f8": "<u8"}
CANON = {"<f4": 0x7FC00000, "<f2": 0x7E00, "<f8": 0x7FF8000000000000}

NODE_READER = r"""
const fs = require('fs');
// argv: a file of lines "IN.json OUT.json", one per case (one node start for all of them)
const pairs = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter((l) => l).map((l) => l.split(' '));
const canon = {FLOAT16: 0x7e00, FLOAT32: 0x7fc00000, FLOAT64: 0x7ff8000000000000n};
function f16bits(x) {           // binary64 -> binary16, round to nearest even
  const f64 = new Float64Array([x]), u = new BigUint64Array(f64.buffer)[0];
  const sign = Number(u >> 63n) << 15, e = Number((u >> 52n) & 0x7ffn), m = u & 0xfffffffffffffn;
  if (e === 0x7ff) return sign | 0x7c00 | (m ? 0x200 : 0);
  let exp = e - 1023 + 15;
  if (exp >= 31) return sign | 0x7c00;
  let mant = m | (e ? 1n << 52n : 0n), shift;
  if (exp <= 0) { shift = BigInt(42 + 1 - exp); exp = 0; } else shift = 42n;
  if (shift > 60n) return sign;
  let q = mant >> shift, rem = mant & ((1n << shift) - 1n), half = 1n << (shift - 1n);
  if (rem > half || (rem === half && (q & 1n))) q += 1n;
  if (exp === 0) return sign | Number(q);
  if (q >= (1n << 11n)) { q >>= 1n; exp += 1; if (exp >= 31) return sign | 0x7c00; }
  return sign | (exp << 10) | Number(q & 0x3ffn);
}
for (const [jsonPath, outPath] of pairs) {
const doc = JSON.parse(fs.readFileSync(jsonPath, 'utf8'));
const out = {};
const tensors = doc.OutputTensor ? {OutputTensor: doc.OutputTensor} : {};
(doc.OutputTensors || []).forEach((t, i) => { tensors['OutputTensors_' + i] = t; });
for (const [name, t] of Object.entries(tensors)) {
  const hex = [];
  let skipped = false;
  for (const v of t.data) {
    if (typeof v === 'string') {
      if (v === 'nan') hex.push(canon[t.DataType].toString(16));
      else if (v.startsWith('0x')) hex.push(BigInt(v).toString(16));
      else if (v === 'inf' || v === '-inf') {
        const x = v === 'inf' ? Infinity : -Infinity;
        hex.push(t.DataType === 'FLOAT16' ? f16bits(x).toString(16) :
                 t.DataType === 'FLOAT32' ? new Uint32Array(new Float32Array([x]).buffer)[0].toString(16) :
                 new BigUint64Array(new Float64Array([x]).buffer)[0].toString(16));
      } else hex.push('?');
    } else if (t.DataType === 'FLOAT32') hex.push(new Uint32Array(new Float32Array([v]).buffer)[0].toString(16));
    else if (t.DataType === 'FLOAT64') hex.push(new BigUint64Array(new Float64Array([v]).buffer)[0].toString(16));
    else if (t.DataType === 'FLOAT16') hex.push(f16bits(v).toString(16));
    else {
      if (!Number.isSafeInteger(v)) { skipped = true; break; }
      hex.push((t.DataType.startsWith('INT') && v < 0 ? 'neg' + (-v).toString(16) : v.toString(16)));
    }
  }
  out[name] = skipped ? null : hex;
}
fs.writeFileSync(outPath, JSON.stringify(out));
}
"""


def py_bits(t):
    """The output's values as unsigned integers of its width, through Python's json."""
    dt = DTYPES[t["DataType"]]
    vals = []
    for v in t["data"]:
        if isinstance(v, str):
            if v == "nan":
                vals.append(CANON[dt])
            elif v.startswith("0x"):
                vals.append(int(v, 16))
            else:
                x = np.array([float(v)], dtype=dt)
                vals.append(int(x.view(BITS[dt])[0]))
        elif dt in BITS:
            x = np.array([v], dtype=np.float64).astype(dt)  # json gives int or float; both exact here
            vals.append(int(x.view(BITS[dt])[0]))
        else:
            x = np.array([v], dtype=dt)
            vals.append(int(x.view(dt.replace("i", "u"))[0]))
    return vals


def npy_bits(path, dtype_name):
    a = np.load(path)
    dt = DTYPES[dtype_name]
    return [int(x) for x in a.view(BITS.get(dt, dt.replace("i", "u")))]


def outputs(doc):
    if "OutputTensor" in doc:
        yield "OutputTensor", doc["OutputTensor"]
    for i, t in enumerate(doc.get("OutputTensors", [])):
        yield "OutputTensors_%d" % i, t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dmlref", required=True)
    ap.add_argument("--node", default=shutil.which("node"))
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    cases = []
    for p in args.paths:
        if os.path.isdir(p):
            cases += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".json"))
        else:
            cases.append(p)
    passed = failed = skipped = 0
    tmp = tempfile.mkdtemp()
    reader = os.path.join(tmp, "reader.js")
    with open(reader, "w") as f:
        f.write(NODE_READER)
    try:
        js_cases = []  # (case, doc, want, IN.json, OUT.json) for the one node run
        for i, case in enumerate(cases):
            text = subprocess.run([args.dmlref, "run", case], capture_output=True, text=True)
            npy = os.path.join(tmp, "npy")
            shutil.rmtree(npy, ignore_errors=True)
            r2 = subprocess.run([args.dmlref, "run", case, "--npy", npy], capture_output=True, text=True)
            if text.returncode != 0 or r2.returncode != 0:
                print("FAIL %s: dmlref run exits %d / %d: %s" % (case, text.returncode, r2.returncode, text.stderr[:200]))
                failed += 1
                continue
            doc = json.loads(text.stdout)
            want = {name: npy_bits(os.path.join(npy, name + ".npy"), t["DataType"]) for name, t in outputs(doc)}
            # Python
            bad = [name for name, t in outputs(doc) if py_bits(t) != want[name]]
            if bad:
                print("FAIL %s: Python's json reads %s back to other bits" % (case, ", ".join(bad)))
                failed += 1
            else:
                passed += 1
            # JavaScript: the --int64-strings output, read by one node process after the loop
            if not args.node:
                skipped += 1
                continue
            jpath, opath = os.path.join(tmp, "out%d.json" % i), os.path.join(tmp, "js%d.json" % i)
            strings = subprocess.run([args.dmlref, "run", case, "--int64-strings"], capture_output=True, text=True)
            with open(jpath, "w") as f:
                f.write(strings.stdout)
            js_cases.append((case, doc, want, jpath, opath))
        if js_cases:
            pairs = os.path.join(tmp, "pairs.txt")
            with open(pairs, "w") as f:
                f.writelines("%s %s\n" % (c[3], c[4]) for c in js_cases)
            js = subprocess.run([args.node, reader, pairs], capture_output=True, text=True)
            if js.returncode != 0:
                print("FAIL node: %s" % js.stderr[:300])
                failed += 1
                js_cases = []
        for case, doc, want, jpath, opath in js_cases:
            with open(opath) as f:
                got = json.load(f)
            js_bad, js_skip = [], False
            for name, t in outputs(doc):
                if got[name] is None:
                    js_skip = True
                    continue
                signed = t["DataType"].startswith("INT")
                width = np.dtype(DTYPES[t["DataType"]]).itemsize * 8
                vals = []
                for h in got[name]:
                    v = -int(h[3:], 16) if h.startswith("neg") else int(h, 16)
                    vals.append(v % (1 << width) if signed else v)
                if vals != want[name]:
                    js_bad.append(name)
            if js_bad:
                print("FAIL %s: JSON.parse reads %s back to other bits" % (case, ", ".join(js_bad)))
                failed += 1
            elif js_skip:
                skipped += 1
            else:
                passed += 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not args.node:
        print("json: node is not installed: the JavaScript reads are skipped")
    print("json: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
