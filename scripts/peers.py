#!/usr/bin/env python3
"""Peers on this machine: the workloads of docs/performance.md through numpy
(one thread) and, when it imports, PyTorch (torch.set_num_threads(T)), called as
docs/performance.md says, so that `make bench` figures can be compared with
them on the same machine in the same session.

    python3 scripts/peers.py [--repeat N] [--threads T] [FILTER]

Prints per workload and peer: median ms over N timed runs (after one warm-up),
effective GB/s (bytes moved = 2 x output bytes + index bytes, as the project's
bench counts them) and the ratio to a 64 MiB copy by the same peer.  Outputs
are preallocated and touched before timing; indices are uniform in range, and
the scatter targets unique, as in bench/bench.c.  Each peer's output is checked
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=11)
    ap.add_argument("--threads", type=int, default=2, help="PyTorch threads (numpy is single-threaded)")
    ap.add_argument("filter", nargs="?", default="")
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
        if a.filter and a.filter not in wid:
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


if __name__ == "__main__":
    main()
