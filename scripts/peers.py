#!/usr/bin/env python3
"""Peers on this machine: the workloads of docs/performance.md through numpy
(one thread) and, when it imports, PyTorch (torch.set_num_threads(T)), called as
docs/performance.md says, so that `make bench` figures can be compared with
them on the same machine in the same session.

    python3 scripts/peers.py [--repeat N] [--threads T] [FILTER...]

Prints per workload and peer: median ms over N timed runs (after one warm-up),
effective GB/s (bytes moved = 2 x output bytes + index bytes, as the project's
bench counts them; the phase-2 and phase-3 workloads count as docs/performance.md says:
where reads its three inputs and writes its output, fill_sequence only writes) and the ratio to a 64 MiB copy by the same peer.  Outputs
are preallocated and touched before timing; indices are uniform in range, and
the scatter targets unique, as in bench/workloads/*.json.  Each peer's output is checked
against numpy's on every workload.  Benchmark on an otherwise idle machine.
"""
import argparse
import statistics
import sys
import time

import numpy as np

try:
    import torch
except ImportError:  # numpy alone
    torch = None

MIB = 1 << 20


def median_ms(fn, repeat):
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def workloads(rng):
    """(id, numpy inputs dict, setup function (np module-like) -> callables)."""
    f32, f16, i64 = np.float32, np.float16, np.int64

    def rand(shape, dt):
        return rng.standard_normal(shape).astype(dt)

    def idx(n, hi, dt):
        return rng.integers(0, hi, size=n, dtype=np.int64).astype(dt)

    def unique_rows(n, rows):
        return rng.permutation(rows)[:n].astype(i64)

    w = []
    ins = [rand((8, 256, 2048), f32) for _ in range(4)]
    w.append(("join_outer", dict(kind="join", ins=ins, axis=1)))
    ins = [rand((1024, 1024, 4), f32) for _ in range(4)]
    w.append(("join_inner", dict(kind="join", ins=ins, axis=2)))
    w.append(("split_outer", dict(kind="split", x=rand((8, 1024, 2048), f32), axis=1, n=4)))
    w.append(("split_inner", dict(kind="split", x=rand((1024, 1024, 16), f32), axis=2, n=4)))
    w.append(("gather_rows", dict(kind="take", x=rand((65536, 256), f32), i=idx(65536, 65536, np.int32), axis=0)))
    w.append(("gather_rows_f16", dict(kind="take", x=rand((65536, 512), f16), i=idx(65536, 65536, np.int32), axis=0)))
    w.append(("gather_cols", dict(kind="take", x=rand((4096, 4096), f32), i=idx(4096, 4096, i64), axis=1)))
    gi = rng.integers(0, 4096, size=(4096, 4096), dtype=np.int64)
    w.append(("gather_elements_last", dict(kind="take_along", x=rand((4096, 4096), f32), i=gi, axis=1)))
    w.append(("gather_elements_first", dict(kind="take_along", x=rand((4096, 4096), f32), i=gi, axis=0)))
    w.append(("scatter_nd_rows", dict(kind="scatter", x=rand((65536, 256), f32),
                                      i=unique_rows(16384, 65536)[:, None], u=rand((16384, 256), f32))))
    flat = rng.permutation(4096 * 4096)[:1048576]
    w.append(("scatter_nd_elems", dict(kind="scatter", x=rand((4096, 4096), f32),
                                       i=np.stack([flat // 4096, flat % 4096], axis=1).astype(i64),
                                       u=rand((1048576,), f32))))
    ins = [rng.integers(-2**62, 2**62, size=(8, 256, 1024), dtype=i64) for _ in range(4)]
    w.append(("join_outer_i64", dict(kind="join", ins=ins, axis=1)))
    return w


def numpy_case(c):
    k = c["kind"]
    if k == "join":
        shape = list(c["ins"][0].shape)
        shape[c["axis"]] *= len(c["ins"])
        out = np.zeros(shape, c["ins"][0].dtype)
        return (lambda: np.concatenate(c["ins"], axis=c["axis"], out=out)), [out], 0
    if k == "split":
        views = np.split(c["x"], c["n"], axis=c["axis"])
        outs = [np.zeros_like(v) for v in views]

        def run():
            for o, v in zip(outs, views):
                np.copyto(o, v)
        return run, outs, 0
    if k == "take":
        shape = list(c["x"].shape)
        shape[c["axis"]] = len(c["i"])
        out = np.zeros(shape, c["x"].dtype)
        return (lambda: np.take(c["x"], c["i"], axis=c["axis"], out=out, mode="clip")), [out], c["i"].nbytes
    if k == "take_along":
        out = np.zeros(c["i"].shape, c["x"].dtype)
        return (lambda: np.copyto(out, np.take_along_axis(c["x"], c["i"], axis=c["axis"]))), [out], c["i"].nbytes
    out = np.zeros_like(c["x"])  # scatter
    cols = tuple(c["i"][:, d] for d in range(c["i"].shape[1]))

    def run():
        np.copyto(out, c["x"])
        out[cols] = c["u"]
    return run, [out], c["i"].nbytes


def torch_case(c):
    k = c["kind"]
    if k == "join":
        ins = [torch.from_numpy(a) for a in c["ins"]]
        shape = list(ins[0].shape)
        shape[c["axis"]] *= len(ins)
        out = torch.zeros(shape, dtype=ins[0].dtype)
        return (lambda: torch.cat(ins, dim=c["axis"], out=out)), [out], 0
    if k == "split":
        x = torch.from_numpy(c["x"])
        views = torch.split(x, x.shape[c["axis"]] // c["n"], dim=c["axis"])
        outs = [torch.zeros(v.shape, dtype=v.dtype) for v in views]

        def run():
            for o, v in zip(outs, views):
                o.copy_(v)
        return run, outs, 0
    if k == "take":
        x, i = torch.from_numpy(c["x"]), torch.from_numpy(c["i"].astype(np.int64))
        shape = list(x.shape)
        shape[c["axis"]] = len(i)
        out = torch.zeros(shape, dtype=x.dtype)
        return (lambda: torch.index_select(x, c["axis"], i, out=out)), [out], c["i"].nbytes
    if k == "take_along":
        x, i = torch.from_numpy(c["x"]), torch.from_numpy(c["i"])
        out = torch.zeros(i.shape, dtype=x.dtype)
        return (lambda: torch.gather(x, c["axis"], i, out=out)), [out], c["i"].nbytes
    x, u = torch.from_numpy(c["x"]), torch.from_numpy(c["u"])  # scatter
    cols = tuple(torch.from_numpy(np.ascontiguousarray(c["i"][:, d])) for d in range(c["i"].shape[1]))
    out = torch.zeros_like(x)

    def run():
        out.copy_(x)
        out.index_put_(cols, u)
    return run, [out], c["i"].nbytes


# ---- phase 2 (docs/performance.md, "Phase 2") ------------------------------------------
# Each workload: id, bytes an ideal implementation moves (as bench/workloads/*.json count
# them), and per peer a setup returning (run, outputs): outputs() is called after
# timing.  Where the library has an out= form it is used (no allocation timed);
# where it has none (torch.flip, F.pad, np.pad, fancy indexing) the call a user
# would write is timed, allocation included.

def p2_workloads(rng):
    f32 = np.float32

    def rand(shape):
        return rng.standard_normal(shape).astype(f32)

    def keep(out, fn):
        def run():
            fn()
        return run, (lambda: [out])

    def alloc(fn):
        res = [None]

        def run():
            res[0] = fn()
        return run, (lambda: [res[0]])

    w = []
    x = rand((64, 64, 64, 64))
    v = (slice(None), slice(8, 56), slice(8, 56), slice(8, 56))
    w.append(("slice_window", 2 * 64 * 48 ** 3 * 4, {
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o, x[v])))(np.zeros((64, 48, 48, 48), f32)),
        "torch": lambda: (lambda t, o: keep(o, lambda: o.copy_(t[v])))(torch.from_numpy(x),
                                                                       torch.zeros((64, 48, 48, 48))),
    }))
    x2 = rand((4096, 4096))
    w.append(("slice_reverse", 2 * x2.nbytes, {
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o, x2[:, ::-1])))(np.zeros_like(x2)),
        "torch": lambda: (lambda t: alloc(lambda: torch.flip(t, [1])))(torch.from_numpy(x2)),
    }))
    xo, xi = rand((1024, 4096)), rand((4096, 1024))
    w.append(("tile_outer", xo.nbytes + 4 * xo.nbytes, {
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o.reshape(4, 1024, 4096), xo)))(np.zeros((4096, 4096), f32)),
        "torch": lambda: (lambda t, o: keep(o, lambda: o.view(4, 1024, 4096).copy_(t.expand(4, 1024, 4096))))(
            torch.from_numpy(xo), torch.zeros((4096, 4096))),
    }))
    w.append(("tile_inner", xi.nbytes + 4 * xi.nbytes, {
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o.reshape(4096, 4, 1024), xi[:, None, :])))(
            np.zeros((4096, 4096), f32)),
        "torch": lambda: (lambda t, o: keep(o, lambda: o.view(4096, 4, 1024).copy_(t[:, None, :].expand(4096, 4, 1024))))(
            torch.from_numpy(xi), torch.zeros((4096, 4096))),
    }))
    xc = rand((16, 64, 128, 128))
    w.append(("pad_constant", xc.nbytes + 16 * 64 * 130 * 130 * 4, {
        "numpy": lambda: alloc(lambda: np.pad(xc, ((0, 0), (0, 0), (1, 1), (1, 1)))),
        "torch": lambda: (lambda t: alloc(lambda: torch.nn.functional.pad(t, (1, 1, 1, 1))))(torch.from_numpy(xc)),
    }))
    for wid, npmode, tmode in (("pad_reflect", "reflect", "reflect"), ("pad_edge", "edge", "replicate")):
        w.append((wid, x2.nbytes + 4112 * 4112 * 4, {
            "numpy": (lambda m: lambda: alloc(lambda: np.pad(x2, 8, mode=m)))(npmode),
            "torch": (lambda m: lambda: (lambda t: alloc(lambda: torch.nn.functional.pad(t, (8, 8, 8, 8), mode=m)[0]))(
                torch.from_numpy(x2)[None]))(tmode),
        }))
    xg = rand((256, 256, 256))
    ig = rng.integers(0, 256, size=(65536, 2), dtype=np.int64)
    w.append(("gather_nd_rows", 2 * 65536 * 256 * 4 + ig.nbytes, {
        "numpy": lambda: alloc(lambda: xg[ig[:, 0], ig[:, 1]]),
        "torch": lambda: (lambda t, i0, i1: alloc(lambda: t[i0, i1]))(
            torch.from_numpy(xg), torch.from_numpy(ig[:, 0].copy()), torch.from_numpy(ig[:, 1].copy())),
    }))
    xs, us = rand((4096, 4096)), rand((4096, 1024))
    a = (rng.integers(0, 2048, size=(4096, 1)) * 2 + 1)
    b = rng.integers(0, 4096, size=(4096, 1))
    isc = ((a * np.arange(1024)[None, :] + b) & 4095).astype(np.int64)  # distinct within each row
    w.append(("scatter_elements", 2 * xs.nbytes + isc.nbytes + us.nbytes, {
        "numpy": lambda: (lambda o: keep(o, lambda: (np.copyto(o, xs), np.put_along_axis(o, isc, us, axis=1))))(
            np.zeros_like(xs)),
        "torch": lambda: (lambda t, i, u, o: keep(o, lambda: o.copy_(t).scatter_(1, i, u)))(
            torch.from_numpy(xs), torch.from_numpy(isc), torch.from_numpy(us), torch.zeros((4096, 4096))),
    }))
    xd = rand((16, 256, 64, 64))
    # DEPTH_COLUMN_ROW (ONNX "DCR"): in viewed [n, i, j, c, h, w] -> out [n, c, h, i, w, j]
    w.append(("depth_to_space", 2 * xd.nbytes, {
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o.reshape(16, 64, 64, 2, 64, 2),
                                                              xd.reshape(16, 2, 2, 64, 64, 64).transpose(0, 3, 4, 1, 5, 2))))(
            np.zeros((16, 64, 128, 128), f32)),
        "torch": lambda: (lambda t, o: keep(o, lambda: o.view(16, 64, 64, 2, 64, 2).copy_(
            t.view(16, 2, 2, 64, 64, 64).permute(0, 3, 4, 1, 5, 2))))(torch.from_numpy(xd), torch.zeros((16, 64, 128, 128))),
    }))
    xs2 = rand((16, 64, 128, 128))
    w.append(("space_to_depth", 2 * xs2.nbytes, {
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o.reshape(16, 2, 2, 64, 64, 64),
                                                              xs2.reshape(16, 64, 64, 2, 64, 2).transpose(0, 3, 5, 1, 2, 4))))(
            np.zeros((16, 256, 64, 64), f32)),
        "torch": lambda: (lambda t, o: keep(o, lambda: o.view(16, 2, 2, 64, 64, 64).copy_(
            t.view(16, 64, 64, 2, 64, 2).permute(0, 3, 5, 1, 2, 4))))(torch.from_numpy(xs2), torch.zeros((16, 256, 64, 64))),
    }))
    w.append(("identity_transpose", 2 * x2.nbytes, {
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o, x2.T)))(np.zeros_like(x2)),
        "torch": lambda: (lambda t, o: keep(o, lambda: o.copy_(t.t())))(torch.from_numpy(x2), torch.zeros((4096, 4096))),
    }))
    io = rng.integers(0, 16, size=1048576, dtype=np.int64).astype(np.int32)
    eye = np.eye(16, dtype=f32)
    w.append(("one_hot", 1048576 * 16 * 4 + io.nbytes, {
        "numpy": lambda: (lambda o: keep(o, lambda: np.take(eye, io, axis=0, out=o)))(np.zeros((1048576, 16), f32)),
        "torch": lambda: (lambda e, i, o: keep(o, lambda: torch.index_select(e, 0, i, out=o)))(
            torch.from_numpy(eye), torch.from_numpy(io.astype(np.int64)), torch.zeros((1048576, 16))),
    }))
    # phase 3
    xuf = rand((8, 32, 64, 64))
    # UNFOLD (im2col), window 3x3, stride 1, padding 1: numpy's windows of a zero-padded copy
    # (the copy is part of the work) into (N, C, kh, kw, H, W) = [8, 288, 4096]; torch F.unfold
    w.append(("unfold_3x3", xuf.nbytes + 8 * 288 * 4096 * 4, {
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(
            o.reshape(8, 32, 3, 3, 64, 64),
            np.lib.stride_tricks.sliding_window_view(np.pad(xuf, ((0, 0), (0, 0), (1, 1), (1, 1))), (3, 3),
                                                     axis=(2, 3)).transpose(0, 1, 4, 5, 2, 3))))(
            np.zeros((8, 288, 4096), f32)),
        "torch": lambda: (lambda t: alloc(lambda: torch.nn.functional.unfold(t, 3, padding=1)))(torch.from_numpy(xuf)),
    }))
    # phase 3: CAST (bytes moved: the input once and the output once, as bench/workloads/cast_*.json)
    xf = (rng.standard_normal((4096, 4096)) * 100).astype(f32)
    xh = xf.astype(np.float16)
    xu = rng.integers(0, 256, size=(4096, 4096), dtype=np.uint8)
    for wid, x, dt, tdt in [("cast_f32_f16", xf, np.float16, "float16"), ("cast_f16_f32", xh, f32, "float32"),
                            ("cast_f32_i32", xf, np.int32, "int32"), ("cast_u8_f32", xu, f32, "float32")]:
        w.append((wid, x.nbytes + x.size * np.dtype(dt).itemsize, {
            "numpy": (lambda x, dt: lambda: alloc(lambda: x.astype(dt)))(x, dt),  # what a user runs
            "torch": (lambda x, tdt: lambda: (lambda t: alloc(lambda: t.to(getattr(torch, tdt))))(torch.from_numpy(x)))(
                x, tdt),
        }))
    # phase 3 (docs/performance.md "Phase-3 workloads")
    xg3 = rand((4096, 3072))
    w.append(("slice_grad", xg3.nbytes + 4096 * 4096 * 4, {
        "numpy": lambda: (lambda o: keep(o, lambda: (o.fill(0), o.__setitem__((slice(None), slice(512, 3584)), xg3))))(
            np.zeros((4096, 4096), f32)),
        "torch": lambda: (lambda t, o: keep(o, lambda: (o.zero_(), o[:, 512:3584].copy_(t))))(
            torch.from_numpy(xg3), torch.zeros((4096, 4096))),
    }))
    xu = rand((16, 64, 64, 64))
    nn, cc, hh, ww = np.indices((16, 64, 64, 64), dtype=np.int64)
    q = rng.integers(0, 4, size=(16, 64, 64, 64))  # one target per 2x2 window, as a max pooling gives
    plane_idx = (2 * hh + q // 2) * 128 + 2 * ww + q % 2  # within each (n, c) plane: PyTorch's meaning
    iu = ((nn * 64 + cc) * 128 * 128 + plane_idx).astype(np.uint32)  # flat over the output: DirectML's
    w.append(("max_unpool", xu.nbytes + iu.nbytes + 16 * 64 * 128 * 128 * 4, {
        "numpy": lambda: (lambda o: keep(o, lambda: (o.fill(0), o.reshape(-1).__setitem__(iu.reshape(-1), xu.reshape(-1)))))(
            np.zeros((16, 64, 128, 128), f32)),
        "torch": lambda: (lambda t, i: alloc(lambda: torch.nn.functional.max_unpool2d(t, i, 2)))(
            torch.from_numpy(xu), torch.from_numpy(plane_idx)),
    }))
    # phase 3: nearest-neighbour x2 upsampling of [16,64,64,64] (RESAMPLE1; UPSAMPLE_2D's is the same)
    xr = rand((16, 64, 64, 64))
    for wid in ("upsample_nearest", "resample_nearest"):
        w.append((wid, xr.nbytes + 4 * xr.nbytes, {
            "numpy": lambda: alloc(lambda: xr.repeat(2, axis=2).repeat(2, axis=3)),
            "torch": lambda: (lambda t: alloc(lambda: torch.nn.functional.interpolate(t, scale_factor=2, mode="nearest")))(
                torch.from_numpy(xr)),
        }))
    # phase 3: where (the condition uint8 0/1, as bench/workloads/where.json; torch.where takes a bool
    # condition, converted before timing) reads the three inputs and writes the output;
    # fill_sequence (np.arange, torch.arange into out=) only writes
    cw = rng.integers(0, 2, size=(4096, 4096), dtype=np.uint8)
    aw, bw = rand((4096, 4096)), rand((4096, 4096))
    w.append(("where", cw.nbytes + aw.nbytes + bw.nbytes + aw.nbytes, {
        "numpy": lambda: alloc(lambda: np.where(cw, aw, bw)),
        "torch": lambda: (lambda c, a_, b_: alloc(lambda: torch.where(c, a_, b_)))(
            torch.from_numpy(cw.astype(bool)), torch.from_numpy(aw), torch.from_numpy(bw)),
    }))
    w.append(("fill_sequence", 16777216 * 4, {
        "numpy": lambda: alloc(lambda: np.arange(16777216, dtype=np.int32)),
        "torch": lambda: (lambda o: keep(o, lambda: torch.arange(16777216, dtype=torch.int32, out=o)))(
            torch.zeros(16777216, dtype=torch.int32)),
    }))
    # phase 3b: topk_rows, TOP_K1 DECREASING K 8 along axis 1 of f32 [65536,256]: numpy
    # np.argpartition of the negated rows, then the 8 sorted (stable argsort); PyTorch torch.topk.
    # Both give int64 indices (dmlref UINT32); random normal values have no ties among the 8.
    # Bytes moved as bench counts them: the input once, the values and UINT32 indices once.
    xk = rand((65536, 256))

    def np_topk():
        part = np.argpartition(-xk, 7, axis=1)[:, :8]
        order = np.argsort(-np.take_along_axis(xk, part, axis=1), axis=1, kind="stable")
        idx = np.take_along_axis(part, order, axis=1)
        return np.take_along_axis(xk, idx, axis=1), idx

    res_np = [None]

    def np_run():
        res_np[0] = np_topk()
    w.append(("topk_rows", xk.nbytes + 2 * 65536 * 8 * 4, {
        "numpy": lambda: (np_run, lambda: list(res_np[0])),
        "torch": lambda: (lambda t: (lambda r: (lambda: r.__setitem__(0, torch.topk(t, 8)),
                                               lambda: [r[0].values, r[0].indices]))([None]))(torch.from_numpy(xk)),
    }))
    # phase 3b: nonzero (as bench/workloads/nonzero.json: float32 [4096, 4096], 10% nonzero at random
    # positions): np.argwhere and torch.nonzero give [count, 2] int64 (no padded rows); counted as
    # dmlref's bytes (the input read, the [M, 2] uint32 coordinates and the count written)
    xn = np.where(rng.integers(0, 100, size=(4096, 4096)) < 10, rand((4096, 4096)), np.float32(0))
    w.append(("nonzero", xn.nbytes + 4 + xn.size * 2 * 4, {
        "numpy": lambda: alloc(lambda: np.argwhere(xn)),
        "torch": lambda: (lambda t: alloc(lambda: torch.nonzero(t)))(torch.from_numpy(xn)),
    }))
    # phase 3: ARGMAX over the rows (axis 1) and over the columns (axis 0) of [4096,4096] f32:
    # the input read once, 4096 int64 indices written
    xa = rand((4096, 4096))
    for wid, ax in (("argmax_last", 1), ("argmax_first", 0)):
        w.append((wid, xa.nbytes + 4096 * 8, {
            "numpy": (lambda ax: lambda: alloc(lambda: np.argmax(xa, ax)))(ax),
            "torch": (lambda ax: lambda: (lambda t: alloc(lambda: torch.argmax(t, ax)))(torch.from_numpy(xa)))(ax),
        }))
    return w


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=11)
    ap.add_argument("--threads", type=int, default=2, help="PyTorch threads (numpy is single-threaded)")
    ap.add_argument("filter", nargs="*", help="workloads whose id contains any of these (default: all)")
    a = ap.parse_args()
    rng = np.random.default_rng(20261122)
    peers = [("numpy", numpy_case)]
    if torch is not None:
        torch.set_num_threads(a.threads)
        peers.append((f"torch {torch.__version__} ({a.threads}T)", torch_case))
    else:
        print("# PyTorch not importable: numpy only", file=sys.stderr)

    src = np.ones(64 * MIB // 4, np.float32)
    dst = np.zeros_like(src)
    copy = {"numpy": median_ms(lambda: np.copyto(dst, src), max(a.repeat, 30))}
    if torch is not None:
        ts, td = torch.from_numpy(src), torch.from_numpy(dst)
        copy[peers[1][0]] = median_ms(lambda: td.copy_(ts), max(a.repeat, 30))
    print(f"# {a.repeat} timed runs per line (median); ratio = GB/s / the same peer's 64 MiB copy GB/s")
    print(f"{'workload':24s} {'peer':22s} {'median ms':>10s} {'GB/s':>7s} {'ratio':>6s}")
    for name, ms in copy.items():
        print(f"{'copy_64MiB':24s} {name:22s} {ms:10.3f} {2 * 64 * MIB / ms / 1e6:7.1f} {1.0:6.2f}")
    for wid, c in workloads(rng):
        if a.filter and not any(f in wid for f in a.filter):
            continue
        ref = None
        for pname, make in peers:
            run, outs, idx_bytes = make(c)
            ms = median_ms(run, a.repeat)
            outs_np = [o.numpy() if torch is not None and isinstance(o, torch.Tensor) else o for o in outs]
            if ref is None:
                ref = [o.copy() for o in outs_np]
                ok = True
            else:
                ok = all(np.array_equal(x.view(np.uint8), y.view(np.uint8)) for x, y in zip(ref, outs_np))
            moved = 2 * sum(o.nbytes for o in outs_np) + idx_bytes
            gbs = moved / ms / 1e6
            copy_gbs = 2 * 64 * MIB / copy[pname] / 1e6
            print(f"{wid:24s} {pname:22s} {ms:10.3f} {gbs:7.1f} {gbs / copy_gbs:6.2f}{'' if ok else '  WRONG OUTPUT'}")
        sys.stdout.flush()
    for wid, moved, setups in p2_workloads(rng):
        if a.filter and not any(f in wid for f in a.filter):
            continue
        ref = None
        for pname, _ in peers:
            run, outputs = setups["torch" if pname.startswith("torch") else "numpy"]()
            ms = median_ms(run, a.repeat)
            outs_np = [o.numpy() if torch is not None and isinstance(o, torch.Tensor) else o for o in outputs()]
            if ref is None:
                ref = [np.ascontiguousarray(o).copy() for o in outs_np]
                ok = True
            else:
                ok = all(np.array_equal(np.ascontiguousarray(x).view(np.uint8), np.ascontiguousarray(y).view(np.uint8))
                         for x, y in zip(ref, outs_np))
            gbs = moved / ms / 1e6
            copy_gbs = 2 * 64 * MIB / copy[pname] / 1e6
            print(f"{wid:24s} {pname:22s} {ms:10.3f} {gbs:7.1f} {gbs / copy_gbs:6.2f}{'' if ok else '  WRONG OUTPUT'}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
