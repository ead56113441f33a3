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
from backend_numpy import cast as exact_cast

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


def fill(fw):
    """The fill element: value_bits (hex) as one element of dtype, a 0-d tensor."""
    dt = np.dtype(fw["dtype"])
    return tensor(np.array(int(fw["value_bits"], 16), "u%d" % dt.itemsize).view(dt))


def pad_map(mode, n, b, e):
    """Pad: the source index of each output position along one axis (pads beyond the size fold
    periodically; F.pad's reflect and circular refuse them, and take only the last 1-3 axes)."""
    i, p = torch.arange(-b, n + e), {"reflect": 2 * n - 2, "symmetric": 2 * n}.get(mode, 0)  # the mirrors' period
    if p:  # reflect does not repeat the edge element, symmetric does (reflect of size 1: clamped)
        m = i % p
        return torch.where(m < n, m, p - (mode == "symmetric") - m)
    return i % n if mode == "wrap" else i.clamp(0, n - 1)


TORCH = {np.dtype(t): getattr(torch, t) for t in ("float16", "float32", "float64", "uint8", "int8", "int16", "int32",
                                                    "int64")}


def cast(x, dt):
    """CAST: torch's .to(dtype) where its rules are dmlref's (docs/operators.md Q1.4); the explicit
    rule (backend_numpy.cast) where they are not: float -> integer (out of range is undefined in
    torch), the unsigned 16-64-bit types (torch 1.x has none), float64 and integers -> float16
    (through float32: two roundings) and NaNs between float types (torch canonicalises them)."""
    src, dt = x.dtype, np.dtype(dt)
    if (src in TORCH and dt in TORCH and not (src.kind == "f" and dt.kind in "iu")
            and not (dt == np.float16 and src != np.float32) and not (src.kind == "f" and np.isnan(x).any())):
        return tensor(x).to(TORCH[dt]).contiguous().numpy()
    return exact_cast(x, dt)


def sequence(fw):
    """Range (FILL_VALUE_SEQUENCE, docs/operators.md Q4) from torch.arange: integers in int64
    (two's complement wrap) cast to the width, floats fl32(Start + fl32(fl32(i) * Delta)) in
    float32 (float16: on the widened values, then rounded), a NaN result the canonical quiet NaN."""
    dt, shape = np.dtype(fw["dtype"]), fw["shapes"]["OutputTensor"]
    u = "u%d" % dt.itemsize
    s, d = (np.array(int(fw[k], 16), u).view(dt) for k in ("value_bits", "delta_bits"))
    n = int(np.prod(shape))
    if dt.kind == "f":
        v = torch.tensor(np.float32(s)) + torch.arange(n, dtype=torch.float32) * torch.tensor(np.float32(d))
        v = v.to(torch.float16 if dt.itemsize == 2 else torch.float32)
        bits = v.numpy().view(u).copy()
        bits[np.isnan(v.numpy())] = 0x7E00 if dt.itemsize == 2 else 0x7FC00000
        return bits.view(dt).reshape(shape)
    s64, d64 = (int(np.array(x).view(u)) for x in (s, d))
    i = torch.arange(n, dtype=torch.int64)
    v = i * torch.tensor(np.array(d64, np.uint64).view(np.int64)) + torch.tensor(np.array(s64, np.uint64).view(np.int64))
    tt = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[dt.itemsize]
    return v.to(tt).numpy().view(dt).reshape(shape)


def run_torch(fw, xs):
    if fw["onnx"] in ("EyeLike", "Trilu"):  # the band from triu at begin and end (begin > end: inverted)
        shape = fw["shapes"]["OutputTensor"]
        ones, b, e = torch.ones(shape[-2:], dtype=torch.bool), fw["begin"], fw["end"]
        band = torch.triu(ones, b) ^ torch.triu(ones, e) ^ (e < b)
        rest = tensor(xs[0]) if xs else torch.zeros(shape, dtype=fill(fw).dtype)
        return [torch.where(band, fill(fw), rest).contiguous().numpy().view(fw["dtype"])]
    if fw["onnx"] == "Cast":
        return [cast(xs[0], fw["dtype"])]
    if fw["onnx"] == "ConstantOfShape":  # torch.full's value is a Python number (no NaN payload): the fill expanded
        return [fill(fw).expand(fw["shapes"]["OutputTensor"]).contiguous().numpy().view(fw["dtype"])]
    if fw["onnx"] == "Range":
        return [sequence(fw)]
    if fw["onnx"] == "NonZero":  # torch.nonzero: [count, N] int64 rows as uint32, padded to M (undefined past the count)
        x = tensor(xs[0])  # unsigned types as their signed bits: nonzero alike
        rows = torch.nonzero(x).numpy().astype(np.uint32)
        out = np.zeros((x.numel(), x.dim()), np.uint32)
        out[:len(rows)] = rows
        return [np.array(len(rows), np.uint32), out]
    if fw["onnx"] == "Where":  # the condition as bool: any nonzero byte is true
        return [torch.where(tensor(xs[0]) != 0, tensor(xs[1]), tensor(xs[2])).contiguous().numpy().view(xs[1].dtype)]
    if fw["onnx"] in ("ArgMin", "ArgMax"):  # the reduced axes last and merged; select_last_index: on the flipped rows
        x, axes = xs[0], list(fw["axes"])
        if x.dtype == np.uint64:  # no unsigned 64-bit tensors: the bits offset by 2^63 keep the order as int64
            v = torch.from_numpy(np.ascontiguousarray(x).view(np.int64) ^ np.int64(-2 ** 63))
        elif x.dtype in (np.uint16, np.uint32):  # their values as int64
            v = torch.from_numpy(x.astype(np.int64))
        else:
            v = tensor(x)
        kept = [d for d in range(x.ndim) if d not in axes]
        y = v.permute(kept + axes).reshape([x.shape[d] for d in kept] + [-1])
        f = torch.argmax if fw["onnx"] == "ArgMax" else torch.argmin
        i = y.shape[-1] - 1 - f(torch.flip(y, [-1]), dim=-1) if fw["select_last_index"] else f(y, dim=-1)
        return [i.reshape([1 if d in axes else n for d, n in enumerate(x.shape)]).numpy().astype(fw["dtype"])]
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
    elif op == "Pad":  # F.pad's value is a Python number (not every int64, no NaN payload): the fill, the input inside
        p, r = fw["pads"], data.dim()
        if fw["mode"] == "constant":
            out = fill(fw).expand([n + p[k] + p[k + r] for k, n in enumerate(data.shape)]).clone()
            out[tuple(slice(b, b + n) for b, n in zip(p, data.shape))] = data
        else:
            out = data
            for k, n in enumerate(data.shape):
                out = torch.index_select(out, k, pad_map(fw["mode"], n, p[k], p[k + r]))
        outs = [out]
    elif op == "ReverseSequence":  # flip per sequence, as one gather: position k < L reads L - 1 - k
        n = data.shape[axis]
        k = torch.arange(n).reshape([-1 if a == axis else 1 for a in range(data.dim())])
        L = torch.from_numpy(np.minimum(xs[1], n).astype(np.int64))  # UINT64 lengths clamped first
        outs = [torch.gather(data, axis, torch.where(k < L, L - 1 - k, k).expand(data.shape))]
    elif op == "MaxUnpool":  # F.max_unpool2d takes indices flat within each (n, c) plane
        n, c, h, w = data.shape
        oh, ow = [(m - 1) * s + k for m, s, k in zip((h, w), fw["strides"], fw["kernel_shape"])]
        flat = torch.from_numpy(xs[1].astype(np.int64))
        plane = torch.arange(n * c).reshape(n, c, 1, 1) * (oh * ow)
        within = flat - plane
        if data.dtype == torch.float32 and bool(((within >= 0) & (within < oh * ow)).all()):
            outs = [torch.nn.functional.max_unpool2d(data, within, fw["kernel_shape"], fw["strides"], output_size=(oh, ow))]
        else:  # other types (max_unpool2d is for floating point), or a target in another plane
            out = torch.zeros(n * c * oh * ow, dtype=data.dtype)
            out[flat.reshape(-1)] = data.reshape(-1)
            outs = [out.reshape(n, c, oh, ow)]
    elif op == "Resize":  # mode nearest: index_select along each axis, the indices in float32 tensors
        a, b = {"asymmetric": (0.0, 0.0), "tf_half_pixel_for_nn": (0.5, 0.0), "half_pixel": (0.5, 0.5)}[fw["mode"]]
        out = data
        for k, n in enumerate(data.shape):
            s = torch.tensor(fw["scales"][k], dtype=torch.float32)
            m = int(np.floor(n * float(s)))
            t = (torch.arange(m, dtype=torch.float32) + a) / s - b
            i = torch.floor(t) if fw["nearest_mode"] == "floor" else torch.ceil(t)
            out = torch.index_select(out, k, i.clamp(0, n - 1).to(torch.int64))
        outs = [out]
    elif op == "Identity":
        outs = [data.clone()]
    elif op == "Unfold":  # no ONNX operator (the stand-ins' name): F.unfold, or Tensor.unfold per spatial dim
        w, dl, st, p = fw["kernel_size"], fw["dilations"], fw["strides"], fw["pads"]
        k = len(w)
        padded = torch.zeros([n + (p[d - 2] + p[d - 2 + k] if d >= 2 else 0) for d, n in enumerate(data.shape)],
                             dtype=data.dtype)  # the zero bits, the input inside (F.unfold pads only symmetrically)
        padded[(slice(None),) * 2 + tuple(slice(p[d], p[d] + data.shape[2 + d]) for d in range(k))] = data
        if k == 2 and data.dtype in (torch.float32, torch.float64):  # F.unfold: 4-D floating inputs
            outs = [torch.nn.functional.unfold(padded, w, dilation=dl, stride=st)]
        else:  # each unfold appends its window dim: (N, C, B..., dilated W...) -> (N, C, W..., B...)
            out = padded
            for d in range(k):
                out = out.unfold(2 + d, dl[d] * (w[d] - 1) + 1, st[d])
            out = out[(Ellipsis,) + tuple(slice(None, None, x) for x in dl)]
            out = out.permute([0, 1] + list(range(2 + k, 2 + 2 * k)) + list(range(2, 2 + k)))
            outs = [out.reshape(data.shape[0], data.shape[1] * int(np.prod(w)), -1)]
    elif op == "TopK":  # torch.topk does not order ties: a stable sort (ties by ascending index), sliced to k
        key = data
        if xs[0].dtype.kind == "u" and xs[0].dtype.itemsize > 1:  # carried as signed: the top bit flipped orders them
            key = data ^ torch.tensor(-(1 << (8 * xs[0].dtype.itemsize - 1)), dtype=data.dtype)
        elif data.dtype == torch.float16:
            key = data.float()
        pos = torch.sort(key, dim=axis, descending=bool(fw["largest"]), stable=True).indices.narrow(axis, 0, fw["k"])
        return [torch.gather(data, axis, pos).contiguous().numpy().view(xs[0].dtype), pos.numpy().astype(fw["dtype"])]
    else:
        raise NotImplementedError(op)
    return [o.contiguous().numpy().view(xs[0].dtype) for o in outs]


if __name__ == "__main__":
    sys.exit(backend_harness.main(sys.argv[1:], run_torch))
