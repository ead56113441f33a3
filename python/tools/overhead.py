"""Per-call overhead on a tiny tensor: dmlref.gather next to numpy.take (and
torch.index_select when torch imports).  Run: PYTHONPATH=python python3 python/tools/overhead.py"""
import sys
import timeit

import numpy as np

import dmlref

x = np.arange(16, dtype=np.float32).reshape(4, 4)
idx = np.array([[2, 0]], np.int32)
idx1 = idx.reshape(-1)
out = np.empty((2, 4), np.float32)


def best(stmt, number=20000, repeat=7):
    return min(timeit.repeat(stmt, number=number, repeat=repeat, globals=globals())) / number * 1e9


rows = [
    ("dmlref.gather (output allocated)", "dmlref.gather(x, idx, axis=0, index_dimensions=1)"),
    ("dmlref.gather (out=)", "dmlref.gather(x, idx, axis=0, index_dimensions=1, out=out)"),
    ("dmlref.gather_elements", "dmlref.gather_elements(x, idx.repeat(2, 0)[:1].reshape(1, 2).repeat(1, 0)[:, :1].repeat(4, 1), axis=0)"),
    ("numpy.take", "np.take(x, idx1, axis=0)"),
    ("numpy.take (out=)", "np.take(x, idx1, axis=0, out=out)"),
]
ge_idx = np.zeros((1, 4), np.int32)
rows[2] = ("dmlref.gather_elements", "dmlref.gather_elements(x, ge_idx, axis=0)")
try:
    import torch
    tx, ti = torch.from_numpy(x), torch.from_numpy(idx1.astype(np.int64))
    rows.append(("torch.index_select", "torch.index_select(tx, 0, ti)"))
except Exception as e:  # noqa: BLE001 - reported, not hidden
    print(f"torch: not available ({type(e).__name__}: {e}); numpy only", file=sys.stderr)
for name, stmt in rows:
    print(f"{name:36s} {best(stmt):8.0f} ns/call")
