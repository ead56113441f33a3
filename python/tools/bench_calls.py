#!/usr/bin/env python3
"""Per-call time of tiny calls: dmlref next to numpy (and torch when it imports), same run.

Best of 7 x 20,000 calls each (timeit), in ns per call, for GATHER, GATHER_ELEMENTS,
SCATTER_ND, JOIN and SPLIT, with the output allocated and with out=, each beside the
numpy call that computes the same thing (and its torch counterpart).  Every dmlref
result is checked against numpy's first (bit for bit), so the table times correct calls.

    PYTHONPATH=python python3 python/tools/bench_calls.py [--number N] [--repeat R] [--markdown]

No test times anything; the figures depend on the machine and its load.
"""
import argparse
import sys
import timeit

import numpy as np

import dmlref

x = np.arange(16, dtype=np.float32).reshape(4, 4)
idx = np.array([[2, 0]], np.int32)          # GATHER: indices {1, 2}, IndexDimensions 1
idx1 = idx.reshape(-1)
g_out = np.empty((2, 4), np.float32)
ge_idx = np.array([[3, 0, 1, 2]], np.int32)  # GATHER_ELEMENTS: {1, 4} along axis 0
ge_idx64 = ge_idx.astype(np.int64)
ge_out = np.empty((1, 4), np.float32)
sn_idx = np.array([[1], [3]], np.int32)      # SCATTER_ND: rows 1 and 3 of a {4, 4}
sn_upd = np.full((2, 4), -1, np.float32)
sn_out = np.empty((4, 4), np.float32)
y = np.arange(8, dtype=np.float32).reshape(2, 4)  # JOIN: {4, 4} + {2, 4} along axis 0
j_out = np.empty((6, 4), np.float32)
s_outs = [np.empty((1, 4), np.float32), np.empty((3, 4), np.float32)]  # SPLIT: {4, 4} -> 1 + 3 rows


def np_scatter_nd(out=None):
    r = x.copy() if out is None else out
    if out is not None:
        r[...] = x
    r[sn_idx[:, 0]] = sn_upd
    return r


ROWS = [
    # (label, dmlref call, numpy call, torch call or None)
    ("gather", "dmlref.gather(x, idx, axis=0, index_dimensions=1)", "np.take(x, idx1, axis=0)",
     "torch.index_select(tx, 0, ti)"),
    ("gather, out=", "dmlref.gather(x, idx, axis=0, index_dimensions=1, out=g_out)",
     "np.take(x, idx1, axis=0, out=g_out)", "torch.index_select(tx, 0, ti, out=tg_out)"),
    ("gather_elements", "dmlref.gather_elements(x, ge_idx, axis=0)", "np.take_along_axis(x, ge_idx64, 0)",
     "torch.gather(tx, 0, tge)"),
    ("gather_elements, out=", "dmlref.gather_elements(x, ge_idx, axis=0, out=ge_out)", None, None),
    ("scatter_nd", "dmlref.scatter_nd(x, sn_idx, sn_upd)", "np_scatter_nd()", "tx.index_put((tsn,), tupd)"),
    ("scatter_nd, out=", "dmlref.scatter_nd(x, sn_idx, sn_upd, out=sn_out)", "np_scatter_nd(sn_out)", None),
    ("join", "dmlref.join([x, y], axis=0)", "np.concatenate([x, y], axis=0)", "torch.cat([tx, ty], 0)"),
    ("join, out=", "dmlref.join([x, y], axis=0, out=j_out)", "np.concatenate([x, y], axis=0, out=j_out)",
     "torch.cat([tx, ty], 0, out=tj_out)"),
    ("split", "dmlref.split(x, axis=0, sizes=[1, 3])", "np.split(x, [1], axis=0)", "torch.split(tx, [1, 3], 0)"),
    ("split, out=", "dmlref.split(x, axis=0, sizes=[1, 3], out=s_outs)", None, None),
]


def check():
    """dmlref's results equal numpy's, bit for bit, before anything is timed."""
    same = lambda a, b: a.shape == b.shape and a.tobytes() == b.tobytes()  # noqa: E731
    assert same(dmlref.gather(x, idx, axis=0, index_dimensions=1), np.take(x, idx1, axis=0))
    assert same(dmlref.gather_elements(x, ge_idx, axis=0), np.take_along_axis(x, ge_idx64, 0))
    assert same(dmlref.scatter_nd(x, sn_idx, sn_upd), np_scatter_nd())
    assert same(dmlref.join([x, y], axis=0), np.concatenate([x, y], axis=0))
    assert all(same(a, b) for a, b in zip(dmlref.split(x, axis=0, sizes=[1, 3]), np.split(x, [1], axis=0)))


def best(stmt, number, repeat, env):
    return min(timeit.repeat(stmt, number=number, repeat=repeat, globals=env)) / number * 1e9


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--number", type=int, default=20000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--markdown", action="store_true", help="a Markdown table")
    a = ap.parse_args()
    check()
    env = dict(globals())
    torch_note = None
    try:
        import torch
        env.update(torch=torch, tx=torch.from_numpy(x), ty=torch.from_numpy(y), ti=torch.from_numpy(idx1.astype(np.int64)),
                   tge=torch.from_numpy(ge_idx64), tsn=torch.from_numpy(sn_idx[:, 0].astype(np.int64)),
                   tupd=torch.from_numpy(sn_upd), tg_out=torch.empty(2, 4), tj_out=torch.empty(6, 4))
    except Exception as e:  # noqa: BLE001 - reported, not hidden
        torch_note = f"torch not measured: {type(e).__name__}: {e}"
    head = ("call", "dmlref ns", "numpy ns", "torch ns")
    rows = []
    for label, d, n, t in ROWS:
        cells = [label, f"{best(d, a.number, a.repeat, env):.0f}"]
        cells.append(f"{best(n, a.number, a.repeat, env):.0f}" if n else "-")
        cells.append(f"{best(t, a.number, a.repeat, env):.0f}" if t and torch_note is None else "-")
        rows.append(cells)
    info = dmlref._core.cache_info()
    if a.markdown:
        print("| " + " | ".join(head) + " |")
        print("|---|---:|---:|---:|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        print(f"{head[0]:24s} {head[1]:>10s} {head[2]:>10s} {head[3]:>10s}")
        for r in rows:
            print(f"{r[0]:24s} {r[1]:>10s} {r[2]:>10s} {r[3]:>10s}")
    print(f"best of {a.repeat} x {a.number} calls; compiled-operator cache: {info[0]} hits, {info[1]} misses, "
          f"{info[2]} of {info[3]} entries", file=sys.stderr)
    if torch_note:
        print(torch_note, file=sys.stderr)


if __name__ == "__main__":
    main()
