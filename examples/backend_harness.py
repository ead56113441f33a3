#!/usr/bin/env python3
"""Tests a backend against dmlref's golden files, bit for bit (docs/testing-your-backend.md).

    dmlref gen --operator ALL --count 50 --seed 1 --out suite/
    for f in suite/*.json; do dmlref export "$f" --out "golden/$(basename "$f" .json)"; done
    python3 backend_harness.py [--junit FILE] [--form onnx|webnn] golden/*/

Each directory is one case as `dmlref export` writes it: manifest.json (operator,
parameters, the framework form: ONNX / WebNN / PyTorch shapes and axis) and .npy files.
Replace run_backend() with calls into your device; numpy stands in for one here
(backend_numpy.py: every operator's framework form).  Every result gets a class of the
taxonomy `dmlref check` uses (docs/testing-your-backend.md, "The result taxonomy").
"""
import json
import os
import sys
from xml.sax.saxutils import quoteattr

import numpy as np

from backend_numpy import run_backend  # the stand-in: replace it with your device's calls

CLASSES = ["pass", "nan-payload", "zero-sign", "int64-53bit", "unaddressed-bytes", "other",
           "backend-error", "type-unsupported", "not-expressible"]
FAILING = {"nan-payload", "zero-sign", "int64-53bit", "other", "backend-error"}


class TypeUnsupported(Exception):
    """Raise it from the backend for a data type the device lacks: type-unsupported, not a failure."""


def bits(a):
    """The elements as unsigned integers of their width: NaN payloads and -0.0 compare exactly."""
    a = np.ascontiguousarray(a)
    return a.view(np.dtype("u%d" % a.itemsize).newbyteorder(a.dtype.byteorder))


def classify(want, got):
    """The class of the differences between two flat arrays of one dtype (classify.c's rules)."""
    d = bits(want) != bits(got)
    if not d.any():
        return "pass"
    w, g = want[d], got[d]
    if w.dtype.kind == "f" and (np.isnan(w) & np.isnan(g)).all():
        return "nan-payload"
    if w.dtype.kind == "f" and ((w == 0) & (g == 0)).all():
        return "zero-sign"
    if w.dtype in (np.int64, np.uint64):  # beyond 2^53, and a round trip through a double explains got
        fw, fg, top = w.astype(np.float64), g.astype(np.float64), 2.0 ** (63 if w.dtype == np.int64 else 64)
        edge = (fw >= top) & np.isin(bits(g), [0 if w.dtype == np.uint64 else 1 << 63, 1 << 63])
        if ((np.abs(fw) >= 2.0 ** 53) & ((fw == fg) | edge)).all():
            return "int64-53bit"
    return "other"


def check(case_dir, backend=run_backend, form=None):
    """(class, detail) of one exported case."""
    m = json.load(open(os.path.join(case_dir, "manifest.json")))
    fw, why = m["framework"], (m.get("expressible") or {}).get(form)
    if fw is None or isinstance(why, str):
        return "not-expressible", why or "no framework form"
    load = lambda t, f="logical": np.load(os.path.join(case_dir, t[f]))
    try:
        outs = backend(fw, [load(t).reshape(fw["shapes"][t["name"]]) for t in m["inputs"]])
    except TypeUnsupported as e:
        return "type-unsupported", str(e)
    except Exception as e:  # a backend that raises: backend-error
        return "backend-error", "%s: %s" % (type(e).__name__, e)
    if len(outs) != len(m["outputs"]):
        return "backend-error", "%d outputs, expected %d" % (len(outs), len(m["outputs"]))
    cls, detail = "pass", ""
    for t, got in zip(m["outputs"], outs):
        want, got, c = load(t).reshape(fw["shapes"][t["name"]]), np.asarray(got), "pass"
        if got.dtype.str[1:] != want.dtype.str[1:] or got.size not in (want.size, t["buffer_elements"]):
            return "backend-error", "%s: got %s %s, expected %s %s" % (t["name"], got.dtype, got.shape, want.dtype, want.shape)
        k = t.get("defined_elements", want.size)  # only the first k elements (row-major) are defined
        if got.size != want.size:  # the whole buffer: the elements through the slot map, then the rest
            slots = load(t, "slots").reshape(-1).astype(np.int64)
            flat, got = got.reshape(-1).copy(), got.reshape(-1)[slots].reshape(want.shape)
            flat[slots[k:]] = load(t, "buffer").reshape(-1)[slots[k:]]  # undefined: not unaddressed bytes
            if classify(want.reshape(-1)[:k], got.reshape(-1)[:k]) == "pass" and classify(load(t, "buffer"), flat) != "pass":
                c, detail = "unaddressed-bytes", "%s: unaddressed slots differ" % t["name"]
        elif got.shape != want.shape:
            c, detail = "other", "%s: got shape %s, expected %s" % (t["name"], got.shape, want.shape)
        if k < want.size:  # the undefined elements are not compared
            want, got = want.reshape(-1)[:k], got.reshape(-1)[:k]
        c = classify(want.reshape(-1), got.reshape(-1)) if c == "pass" else c
        gb, wb = bits(got).reshape(-1), bits(want).reshape(-1)
        diff = np.flatnonzero(gb != wb)
        if diff.size and not detail:
            detail = "%s: %d of %d elements differ, first at %s: got 0x%x, expected 0x%x" % (
                t["name"], diff.size, want.size, list(np.unravel_index(diff[0], want.shape)), gb[diff[0]], wb[diff[0]])
        cls = c if cls == "pass" else cls if c in ("pass", cls) else "other"
    return cls, detail


def main(argv, backend=run_backend):
    opts = {"--junit": None, "--form": None}
    dirs = []
    it = iter(argv)
    for a in it:
        if a in opts:
            opts[a] = next(it)
        else:
            dirs.append(a)
    results, table = [], {}
    for d in dirs:
        cls, detail = check(d, backend, opts["--form"])
        op = json.load(open(os.path.join(d, "manifest.json")))["operator"]
        results.append((d, op, cls, detail))
        table.setdefault(op, dict.fromkeys(CLASSES, 0))[cls] += 1
        if cls != "pass":
            print("%s %s: %s: %s" % ("FAIL" if cls in FAILING else "NOTE", d, cls, detail))
    print("%-24s %s" % ("operator", " ".join(CLASSES)))
    for op in sorted(table):
        print("%-24s %s" % (op, " ".join("%*d" % (len(c), table[op][c]) for c in CLASSES)))
    failed = sum(r[2] in FAILING for r in results)
    skipped = sum(r[2] in ("type-unsupported", "not-expressible") for r in results)
    if opts["--junit"]:
        with open(opts["--junit"], "w") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="backend_harness" '
                    'tests="%d" failures="%d" skipped="%d">\n' % (len(results), failed, skipped))
            for d, op, cls, detail in results:
                tag = "failure" if cls in FAILING else "skipped" if cls in ("type-unsupported", "not-expressible") else None
                body = "<%s type=%s message=%s/>" % (tag, quoteattr(cls), quoteattr(detail)) if tag else ""
                f.write("<testcase classname=%s name=%s>%s</testcase>\n" % (quoteattr("dmlref." + op), quoteattr(d), body))
            f.write("</testsuite></testsuites>\n")
    print("harness: %d passed, %d failed, %d skipped" % (len(dirs) - failed - skipped, failed, skipped))
    return 1 if failed or not dirs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
