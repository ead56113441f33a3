"""The numpy stand-in backend of backend_harness.py: every operator in its framework form
(the manifest's "framework": ONNX name, axis, lists; docs/testing-your-backend.md)."""
import numpy as np


def depth_to_space(x, b, mode):
    n, c, h, w = x.shape
    if mode == "DCR":  # channel (i*b + j)*C' + c
        return x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2).reshape(n, c // (b * b), h * b, w * b)
    return x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3).reshape(n, c // (b * b), h * b, w * b)


def space_to_depth(x, b, mode):
    n, c, h, w = x.shape
    y = x.reshape(n, c, h // b, b, w // b, b)
    y = y.transpose(0, 3, 5, 1, 2, 4) if mode == "DCR" else y.transpose(0, 1, 3, 5, 2, 4)
    return y.reshape(n, c * b * b, h // b, w // b)


def gather_nd(x, idx, b):
    """ONNX GatherND: indices.shape[:-1] ++ data.shape[b+t:]; negative indices count from the end."""
    t, bs = idx.shape[-1], x.shape[:b]
    xf = x.reshape((-1,) + x.shape[b:])  # the batch dimensions as one
    idf = idx.reshape((xf.shape[0], -1, t))
    idf = np.where(idf < 0, idf + np.array(x.shape[b:b + t], np.int64), idf)
    out = np.stack([xf[k][tuple(idf[k].T)] for k in range(xf.shape[0])])
    return out.reshape(idx.shape[:-1] + x.shape[b + t:])


def one_hot(idx, vals, depth, axis):
    """ONNX OneHot: negative indices count from the end; out of range: the whole sequence off."""
    v = np.where(idx < 0, idx + depth, idx) if idx.dtype.kind == "i" else idx
    v = np.expand_dims(v, axis)
    shape = [1] * v.ndim
    shape[axis] = depth
    hot = v == np.arange(depth).reshape(shape)
    return np.where(hot, vals[1], vals[0])


def fill(fw):
    """The fill element: value_bits (hex) as one element of dtype."""
    dt = np.dtype(fw["dtype"])
    return np.array(int(fw["value_bits"], 16), "u%d" % dt.itemsize).view(dt)


def diagonal(fw, xs):
    """The band of diagonals x - y in [begin, end) (begin > end: outside [end, begin)) takes the
    fill, the rest the input's elements or 0."""
    shape = fw["shapes"]["OutputTensor"]
    d = np.arange(shape[-1]) - np.arange(shape[-2])[:, None]  # x - y
    b, e = fw["begin"], fw["end"]
    band = (e >= b) ^ (d >= b) ^ (d < e)
    return np.where(band, fill(fw), xs[0] if xs else np.zeros(shape, fill(fw).dtype))


def pad_map(mode, n, b, e):
    """Pad: the source index of each output position along one axis; pads beyond the size fold
    over again and again (periodic); edge (and constant, masked elsewhere) clamp."""
    i, p = np.arange(-b, n + e), {"reflect": 2 * n - 2, "symmetric": 2 * n}.get(mode, 0)  # the mirrors' period
    if p:  # reflect does not repeat the edge element, symmetric does (reflect of size 1: clamped)
        m = i % p
        return np.where(m < n, m, p - (mode == "symmetric") - m)
    return i % n if mode == "wrap" else np.clip(i, 0, n - 1)


def unfold(x, kernel, dilations, strides, pads):
    """Im2col (torch.nn.functional.unfold for any number of spatial dims): x {N, C, spatial...}
    zero-padded, every window of the dilated kernel at every stride, as {N, C*prod(kernel), blocks}."""
    k = len(kernel)
    xp = np.pad(x, [(0, 0), (0, 0)] + [(pads[d], pads[d + k]) for d in range(k)])
    axes = tuple(range(2, 2 + k))
    win = np.lib.stride_tricks.sliding_window_view(xp, [dl * (w - 1) + 1 for w, dl in zip(kernel, dilations)], axis=axes)
    win = win[(slice(None),) * 2 + tuple(slice(None, None, s) for s in strides) + tuple(slice(None, None, d) for d in dilations)]
    n, c = x.shape[:2]
    return win.transpose((0, 1) + tuple(range(2 + k, 2 + 2 * k)) + axes).reshape(n, c * int(np.prod(kernel)), -1)


def int_to_float(v, dt):
    """A Python int rounded once to dt's precision (nearest, ties to even), as a float64 that
    holds it exactly (numpy's int64 -> float32 goes through float64: two roundings)."""
    p, n = {2: 11, 4: 24, 8: 53}[dt.itemsize], abs(v).bit_length()
    if n > p:
        sh = n - p
        q, r = divmod(abs(v), 1 << sh)
        q += r > 1 << (sh - 1) or (r == 1 << (sh - 1) and q & 1)
        v = (q << sh) * (1 if v >= 0 else -1)
    return float(v)


def cast(x, dt):
    """CAST with dmlref's rules (docs/operators.md Q1.4), numpy's astype where they agree."""
    dt = np.dtype(dt)
    if x.dtype == dt:
        return x.copy()
    if x.dtype.kind in "iu" and dt.kind in "iu":
        return x.astype(dt)  # the low bits (wrap)
    with np.errstate(all="ignore"):
        if x.dtype.kind in "iu":  # one rounding from the exact integer
            return np.array([int_to_float(v, dt) for v in x.reshape(-1).tolist()], np.float64).reshape(x.shape).astype(dt)
        if dt.kind == "f":  # nearest even, no flush to zero; a NaN: sign, top payload bits, quiet bit
            y = x.astype(dt)
            nan = np.isnan(x)
            if nan.any():
                ms, md = {2: 10, 4: 23, 8: 52}[x.itemsize], {2: 10, 4: 23, 8: 52}[dt.itemsize]
                b = x[nan].view("u%d" % x.itemsize).astype(np.uint64)
                m = b & np.uint64((1 << ms) - 1)
                m = m >> np.uint64(ms - md) if ms >= md else m << np.uint64(md - ms)
                sign = (b >> np.uint64(8 * x.itemsize - 1)) << np.uint64(8 * dt.itemsize - 1)
                top = np.uint64(((1 << (8 * dt.itemsize - md - 1)) - 1) << md | 1 << (md - 1))
                y[nan] = (sign | top | m).astype("u%d" % dt.itemsize).view(dt)
            return y
        t = np.trunc(x.astype(np.float64))  # float -> integer: truncate, saturate, NaN -> 0
        info = np.iinfo(dt)
        big, small = t >= float(info.max + 1), t < float(info.min)
        y = np.where(np.isnan(t) | big | small, 0, t).astype(dt)
        y[big], y[small] = info.max, info.min
        return y


def resize_nearest_index(n, scale, ctm, nearest_mode):
    """ONNX Resize (mode nearest) along an axis of size n: each output position's source index,
    in float32 arithmetic as ONNX Runtime computes it (x_resized + a) / scale - b, floored or
    ceiled, clamped; the output size floor(n * scale)."""
    a, b = {"asymmetric": (0.0, 0.0), "tf_half_pixel_for_nn": (0.5, 0.0), "half_pixel": (0.5, 0.5)}[ctm]
    s = np.float32(scale)
    o = np.arange(int(np.floor(n * float(s))), dtype=np.float32)
    t = (o + np.float32(a)) / s - np.float32(b)
    i = np.floor(t) if nearest_mode == "floor" else np.ceil(t)
    return np.clip(i, 0, n - 1).astype(np.int64)


def sequence(fw):
    """Range (FILL_VALUE_SEQUENCE, docs/operators.md Q4): element i of the flat sequence =
    Start + i * Delta, the output's row-major element i; integers modulo 2^bits, floats
    fl32(Start + fl32(fl32(i) * Delta)) (float16: on the widened values, then rounded), a NaN
    result the canonical quiet NaN."""
    dt, shape = np.dtype(fw["dtype"]), fw["shapes"]["OutputTensor"]
    u = "u%d" % dt.itemsize
    s, d = (np.array(int(fw[k], 16), u).view(dt) for k in ("value_bits", "delta_bits"))
    i = np.arange(int(np.prod(shape)), dtype=np.uint64)
    if dt.kind == "f":
        with np.errstate(all="ignore"):
            v = np.float32(s) + i.astype(np.float32) * np.float32(d)
            v = v.astype(dt)
        bits = np.where(np.isnan(v), 0x7E00 if dt.itemsize == 2 else 0x7FC00000, v.view(u)).astype(u)
    else:
        bits = (np.uint64(s.view(u)) + i * np.uint64(d.view(u))).astype(u)
    return bits.view(dt).reshape(shape)


def argminmax(x, fw, is_max):
    """ArgMin / ArgMax over fw's axes (several: moved last in increasing order and merged, the
    index row-major over them); numpy's first index, a NaN winning; select_last_index: the
    first index of the flipped rows, counted from the end; keepdims; the output's dtype."""
    axes = list(fw["axes"])
    kept = [d for d in range(x.ndim) if d not in axes]
    y = x.transpose(kept + axes).reshape([x.shape[d] for d in kept] + [-1])
    f = np.argmax if is_max else np.argmin
    i = y.shape[-1] - 1 - f(y[..., ::-1], axis=-1) if fw["select_last_index"] else f(y, axis=-1)
    return np.asarray(i).reshape([1 if d in axes else n for d, n in enumerate(x.shape)]).astype(fw["dtype"])


def run_backend(fw, xs):
    """The operator in its framework form: fw is the manifest's "framework" (the ONNX
    name, axis, split sizes), xs the inputs in fw's shapes; returns the outputs."""
    op, axis = fw["onnx"], fw.get("axis")
    if op == "Gather":
        return [np.take(xs[0], xs[1].astype(np.int64), axis=axis)]
    if op == "GatherElements":
        return [np.take_along_axis(xs[0], xs[1].astype(np.int64), axis=axis)]
    if op == "ScatterND":
        out, idx, updates = xs[0].copy(), xs[1].astype(np.int64), xs[2]
        t = idx.shape[-1]  # coordinates per index tuple
        out[tuple(idx.reshape(-1, t).T)] = updates.reshape((-1,) + out.shape[t:])
        return [out]
    if op == "Split":
        return np.split(xs[0], np.cumsum(fw["split"])[:-1], axis=axis)
    if op == "Concat":
        return [np.concatenate(xs, axis=axis)]
    if op == "Identity":
        return [xs[0].copy()]
    if op == "ScatterElements":
        out = xs[0].copy()
        np.put_along_axis(out, xs[1].astype(np.int64), xs[2], axis=axis)
        return [out]
    if op == "Tile":
        return [np.tile(xs[0], fw["repeats"])]
    if op == "DepthToSpace":
        return [depth_to_space(xs[0], fw["blocksize"], fw["mode"])]
    if op == "SpaceToDepth":
        return [space_to_depth(xs[0], fw["blocksize"], fw["mode"])]
    if op == "Slice":  # ONNX's rule: a negative start or end counts from the end (ends = -(size+1): before the first)
        window = [slice(None)] * xs[0].ndim
        for s, e, a, st in zip(fw["starts"], fw["ends"], fw["axes"], fw["steps"]):
            window[a] = slice(s, None if e < -xs[0].shape[a] else e, st)
        return [xs[0][tuple(window)].copy()]
    if op == "GatherND":
        return [gather_nd(xs[0], xs[1].astype(np.int64), fw["batch_dims"])]
    if op == "OneHot":
        return [one_hot(xs[0], xs[1].reshape(-1), fw["depth"], axis)]
    if op == "Where":  # the elements' bits selected (any nonzero condition byte is true)
        u = "u%d" % xs[1].dtype.itemsize
        return [np.where(xs[0] != 0, xs[1].view(u), xs[2].view(u)).view(xs[1].dtype)]
    if op == "ConstantOfShape":
        return [np.broadcast_to(fill(fw), fw["shapes"]["OutputTensor"]).copy()]
    if op == "Range":
        return [sequence(fw)]
    if op in ("EyeLike", "Trilu"):
        return [diagonal(fw, xs)]
    if op == "Pad":  # pads: [x1_begin, x2_begin, ..., x1_end, x2_end, ...]
        x, p, r = xs[0], fw["pads"], xs[0].ndim
        if fw["mode"] == "constant":  # the fill, the input inside
            out = np.broadcast_to(fill(fw), [n + p[k] + p[k + r] for k, n in enumerate(x.shape)]).copy()
            out[tuple(slice(b, b + n) for b, n in zip(p, x.shape))] = x
            return [out]
        return [x[np.ix_(*[pad_map(fw["mode"], n, p[k], p[k + r]) for k, n in enumerate(x.shape)])]]
    if op == "Cast":
        return [cast(xs[0], fw["dtype"])]
    if op == "MaxUnpool":  # Y = zeros of the default shape ((X - 1) * strides + kernel_shape); Y.flat[I] = X
        x = xs[0]
        shape = list(x.shape[:2]) + [(n - 1) * s + k for n, s, k in zip(x.shape[2:], fw["strides"], fw["kernel_shape"])]
        out = np.zeros(int(np.prod(shape)), x.dtype)
        out[xs[1].astype(np.int64).reshape(-1)] = x.reshape(-1)
        return [out.reshape(shape)]
    if op == "NonZero":  # np.argwhere's [count, N] rows as uint32, padded to M rows (undefined past the count)
        x = xs[0]
        rows = np.argwhere(x).astype(np.uint32)  # floats: x != 0 (+-0 are zero, NaN is not)
        out = np.zeros((x.size, x.ndim), np.uint32)
        out[:len(rows)] = rows
        return [np.array(len(rows), np.uint32), out]
    if op == "ReverseSequence":  # the first L = min(length, n) elements of each sequence reversed
        n = xs[0].shape[axis]
        k = np.arange(n).reshape([-1 if a == axis else 1 for a in range(xs[0].ndim)])
        L = np.minimum(xs[1], n).astype(np.int64)  # one per sequence: size 1 along axis
        return [np.take_along_axis(xs[0], np.where(k < L, L - 1 - k, k), axis=axis)]
    if op == "Unfold":  # no ONNX operator: the name the stand-ins share (docs/testing-your-backend.md)
        return [unfold(xs[0], fw["kernel_size"], fw["dilations"], fw["strides"], fw["pads"])]
    if op == "Resize":  # mode nearest: one source index per output position along each axis
        x = xs[0]
        idx = [resize_nearest_index(n, fw["scales"][k], fw["mode"], fw["nearest_mode"]) for k, n in enumerate(x.shape)]
        return [x[np.ix_(*idx)]]
    if op == "TopK":  # a stable argsort along the axis (ties: ascending index), of the negated key for largest
        x = xs[0]
        key = x.astype(np.float64) + 0.0 if x.dtype.kind == "f" else x  # -0 as +0
        if fw["largest"]:
            key = -key if x.dtype.kind == "f" else ~key  # ~: the integer order reversed, no overflow
        pos = np.take(np.argsort(key, axis=axis, kind="stable"), np.arange(fw["k"]), axis=axis)
        return [np.take_along_axis(x, pos, axis=axis), pos.astype(fw["dtype"])]
    if op in ("ArgMin", "ArgMax"):
        return [argminmax(xs[0], fw, op == "ArgMax")]
    raise NotImplementedError(op)
