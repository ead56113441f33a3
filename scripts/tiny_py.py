#!/usr/bin/env python3
"""The per-call time of dmlref's Python package on tiny case files (scripts/tiny.sh's
"python ns" column): each case's inputs as numpy views of its buffers (Sizes, Strides), its
parameters as the function's keywords, the outputs allocated once (out=), then the
function (dmlref.<operator>) called in batches of B; the median over R batches of the
batch time / B, in one Python process.  The first call compiles; the package caches the
compiled operator (`_core.fast`), so the batches time its per-call overhead plus the
execute, which the script checks (every timed call a cache hit, else the line says
`uncached`: the package's cached path takes parameters given as integers, floats, booleans,
and lists or tuples of them, and a dtype by name; anything else (bytes for a union, a dict,
a numpy scalar) goes the uncached way, building, compiling, executing and releasing on
every call).  Enum names in the case are passed by value (the cached path
takes no names).

    python3 scripts/tiny_py.py [--batch B] [--repeat R] [--threads T] CASE.json...

Prints one line per case: `PATH NS [uncached]` (median ns per call), or `PATH - WHY` where the case
cannot be called this way (outputs without Sizes, a call the package refuses).
"""
import argparse
import os
import statistics
import sys
import time
from decimal import Decimal

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))  # `make python` builds the package in place

import dmlref  # noqa: E402
from dmlref import _core, _types  # noqa: E402
from dmlref._ops import OPERATORS, snake  # noqa: E402


def packed(sizes):
    st, acc = [], 1
    for s in reversed(sizes):
        st.append(acc)
        acc *= s
    return list(reversed(st))


def view(buf, t):
    """The tensor `t` of a case as a numpy view of its whole buffer `buf`."""
    dt = np.dtype(_types.DTYPES[t["DataType"]])
    strides = t.get("Strides") or packed(t["Sizes"])
    return np.lib.stride_tricks.as_strided(buf.view(dt), t["Sizes"], [s * dt.itemsize for s in strides])


def out_array(t):
    dt = np.dtype(_types.DTYPES[t["DataType"]])
    total = t.get("TotalTensorSizeInBytes") or _core.calc_buffer_tensor_size(_types.CODES[t["DataType"]], t["Sizes"],
                                                                             t.get("Strides"))
    buf = np.zeros(int(total) // dt.itemsize + 1, dt)
    return view(buf, t)


def num(v):
    """Numbers as Python ints and floats (a case's Decimal 0.6 as the float 0.6)."""
    if isinstance(v, (list, tuple)):
        return type(v)(num(e) for e in v)
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() and "." not in str(v) else float(v)
    return v


def call_of(path):
    """(function, args, kwargs) of the case at path."""
    case = dmlref.Case.load(path)
    op = OPERATORS[case.operator]
    doc = case.doc
    if doc.get("derive_output_sizes"):
        raise ValueError("derive_output_sizes (outputs without Sizes)")
    inputs = case.inputs
    args = []
    for slot in op.in_slots:
        t = doc.get(slot["name"])
        if t is None:
            args.append(None)
        elif slot["is_array"]:
            args.append([view(b, x) for b, x in zip(inputs[slot["name"]], t)])
        else:
            args.append(view(inputs[slot["name"]], t))
    while args and args[-1] is None:
        args.pop()
    kwargs = {}
    for p in op.params:
        k = snake(p["name"])
        v = doc.get(p["name"])
        if v is None or k not in op.kw:
            continue
        if p["kind"] == 8 and isinstance(v, dict):  # a struct: its fields in order
            v = tuple(v[f] for f in p.get("field_names") or [])
        elif p["kind"] == 10 and isinstance(v, dict):  # DML_SIZE_2D: (Width, Height)
            v = (v["Width"], v["Height"])
        elif isinstance(v, str) and v in (p.get("enum_names") or []):
            v = p["enum_names"].index(v)  # by value: the cached path takes integers only
        v = num(v)
        if p["kind"] == 5 and isinstance(v, int):  # FLOAT: a Python float (the cached path takes no int there)
            v = float(v)
        elif p["kind"] == 9 and isinstance(v, list):  # FLOAT_ARRAY
            v = [float(e) if isinstance(e, int) else e for e in v]
        kwargs[k] = v
    outs = []
    for slot in op.out_slots:
        t = doc.get(slot["name"])
        if t is None:
            continue
        outs.append([out_array(x) for x in t] if slot["is_array"] else out_array(t))
    if not outs:
        raise ValueError("no output")
    kwargs["out"] = outs[0] if len(outs) == 1 and not isinstance(outs[0], list) else (outs[0] if len(outs) == 1 else outs)
    if doc.get("feature_level"):
        kwargs["feature_level"] = doc["feature_level"]
    return getattr(dmlref, snake(op.name)), args, kwargs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--batch", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--threads", type=int, default=0, help="threads= (0: the library's default, as `dmlref bench`)")
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()
    rc = 0
    for path in a.cases:
        try:
            fn, args, kwargs = call_of(path)
            fn(*args, threads=a.threads, **kwargs)  # compiles
        except Exception as e:  # noqa: BLE001: said on the line
            print(f"{path} - {type(e).__name__}: {str(e).splitlines()[0][:120] if str(e) else ''}")
            rc = 1
            continue
        hits0, miss0 = _core.cache_info()[:2]
        per = []
        b = range(a.batch)
        for _ in range(a.repeat):
            t0 = time.perf_counter_ns()
            for _ in b:
                fn(*args, threads=a.threads, **kwargs)
            per.append((time.perf_counter_ns() - t0) / a.batch)
        hits, miss = _core.cache_info()[:2]
        note = "" if miss == miss0 and hits - hits0 == a.batch * a.repeat else " uncached"
        print(f"{path} {statistics.median(per):.0f}{note}", flush=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
