#!/usr/bin/env python3
"""examples/backend_harness.py with PyTorch as the backend (docs/testing-your-backend.md, 5).

    python3 backend_torch.py golden/*/

The operators in framework form as PyTorch takes them: index_select and gather want int64
indices and refuse negative ones; torch 1.x has no uint16/uint32/uint64 tensors, so those
elements travel as signed integers of their width (the same bits).
"""
import sys

import numpy as np
import torch

import backend_harness

SAME_BITS = {np.dtype(np.uint16): np.int16, np.dtype(np.uint32): np.int32, np.dtype(np.uint64): np.int64}


def tensor(x):
    x = np.ascontiguousarray(x)
    return torch.from_numpy(x.view(SAME_BITS.get(x.dtype, x.dtype)))


def indices(x, n):
    i = torch.from_numpy(x.astype(np.int64))
    return torch.where(i < 0, i + n, i)  # negative indices count from the end


def run_torch(fw, xs):
    op, axis, data = fw["onnx"], fw.get("axis"), tensor(xs[0])
    if op == "Gather":
        shape = data.shape[:axis] + xs[1].shape + data.shape[axis + 1:]
        outs = [torch.index_select(data, axis, indices(xs[1], data.shape[axis]).reshape(-1)).reshape(shape)]
    elif op == "GatherElements":
        outs = [torch.gather(data, axis, indices(xs[1], data.shape[axis]))]
    elif op == "ScatterND":
        out, t = data.clone(), xs[1].shape[-1]
        out[tuple(torch.from_numpy(xs[1].astype(np.int64)).reshape(-1, t).T)] = tensor(xs[2]).reshape(
            (-1,) + tuple(out.shape[t:]))
        outs = [out]
    elif op == "Split":
        outs = torch.split(data, fw["split"], dim=axis)
    elif op == "Concat":
        outs = [torch.cat([tensor(x) for x in xs], dim=axis)]
    elif op == "ScatterElements":
        outs = [data.clone().scatter_(axis, indices(xs[1], data.shape[axis]), tensor(xs[2]))]
    elif op == "Tile":
        outs = [torch.tile(data, fw["repeats"])]
    else:
        outs = [data.clone()]
    return [o.contiguous().numpy().view(xs[0].dtype) for o in outs]


if __name__ == "__main__":
    sys.exit(backend_harness.main(sys.argv[1:], run_torch))
