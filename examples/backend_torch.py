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


def depth_space(x, to_space, b, mode):
    """pixel_shuffle / pixel_unshuffle are CRD; DCR is a reshape and permute."""
    if mode == "CRD":
        return (torch.nn.functional.pixel_shuffle if to_space else torch.nn.functional.pixel_unshuffle)(x, b)
    n, c, h, w = x.shape
    if to_space:
        return x.reshape(n, b, b, c // (b * b), h, w).permute(0, 3, 4, 1, 5, 2).reshape(n, c // (b * b), h * b, w * b)
    return x.reshape(n, c, h // b, b, w // b, b).permute(0, 3, 5, 1, 2, 4).reshape(n, c * b * b, h // b, w // b)


def run_torch(fw, xs):
    if fw["onnx"] in ("EyeLike", "Trilu"):  # the band from triu at begin and end (begin > end: inverted)
        dt, shape = np.dtype(fw["dtype"]), fw["shapes"]["OutputTensor"]
        ones, b, e = torch.ones(shape[-2:], dtype=torch.bool), fw["begin"], fw["end"]
        band = torch.triu(ones, b) ^ torch.triu(ones, e) ^ (e < b)
        fill = tensor(np.array(int(fw["value_bits"], 16), "u%d" % dt.itemsize).view(dt))
        rest = tensor(xs[0]) if xs else torch.zeros(shape, dtype=fill.dtype)
        return [torch.where(band, fill, rest).contiguous().numpy().view(dt)]
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
    elif op in ("DepthToSpace", "SpaceToDepth"):
        outs = [depth_space(data, op == "DepthToSpace", fw["blocksize"], fw["mode"])]
    elif op == "Slice":  # index_select along each axis: torch slicing takes no negative steps
        out = data
        for s, e, a, st in zip(fw["starts"], fw["ends"], fw["axes"], fw["steps"]):
            out = torch.index_select(out, a, torch.tensor(range(*slice(s, e, st).indices(data.shape[a])), dtype=torch.int64))
        outs = [out]
    elif op == "GatherND":
        b, t = fw["batch_dims"], xs[1].shape[-1]
        i = indices(xs[1], torch.tensor(data.shape[b:b + t]))
        flat = data.reshape((-1,) + data.shape[b:])
        fi = i.reshape(flat.shape[0], -1, t)  # the batch dimensions as one
        out = torch.stack([flat[k][tuple(fi[k].T)] for k in range(flat.shape[0])])
        outs = [out.reshape(tuple(xs[1].shape[:-1]) + tuple(data.shape[b + t:]))]
    elif op == "OneHot":  # one_hot takes no negative or out-of-range indices: those sequences are off
        depth, vals = fw["depth"], tensor(xs[1]).reshape(-1)  # [off, on, ...]
        v = indices(np.asarray(np.minimum(xs[0], depth)) if xs[0].dtype.kind == "u" else xs[0], depth)
        valid = (v >= 0) & (v < depth)
        hot = torch.nn.functional.one_hot(torch.where(valid, v, 0), depth).bool() & valid.unsqueeze(-1)
        outs = [torch.where(hot.movedim(-1, axis), vals[1], vals[0])]
        return [o.contiguous().numpy().view(xs[1].dtype) for o in outs]
    else:
        outs = [data.clone()]
    return [o.contiguous().numpy().view(xs[0].dtype) for o in outs]


if __name__ == "__main__":
    sys.exit(backend_harness.main(sys.argv[1:], run_torch))
