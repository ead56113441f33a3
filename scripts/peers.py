#!/usr/bin/env python3
"""dmlref and its peers in one process, interleaved per round: the workloads of
docs/performance.md through dmlref's Python package (threads=T), numpy (one thread),
PyTorch (torch.set_num_threads(T)) and, with --ort, ONNX Runtime's CPU provider
(scripts/peers_ort.mjs, a node process of its own, intraOpNumThreads T).

    python3 scripts/peers.py [--rounds R] [--repeat N] [--threads T[,T]] [--ort]
                             [--no-dmlref] [--json FILE] [FILTER...]

Round r, for each thread count T and each workload: the memcpy limit (a 64 MiB copy: with
T = 1 `np.copyto`, with T = 2 dmlref's ELEMENT_WISE_IDENTITY of 64 MiB with threads=2),
then dmlref, numpy, PyTorch and ORT in an order rotated by one each round, each the median
of N timed runs after one warm-up.  The table gives each peer's median over the R rounds,
dmlref's fraction of the memcpy limit per round (`a / b / c`), peer ms / dmlref ms (`1.23x`:
the peer is slower) and the range of the memcpy GB/s.  Bytes moved as bench/workloads/*.json
count them (docs/performance.md).  Outputs are allocated once before timing (per round) and
touched by the warm-up; dmlref's compiled operator is cached by the package (`_core.fast`):
the timed calls execute only, which the script checks (`_core.cache_info()`: no miss while
timing).  Every peer's output is checked against dmlref's, byte for byte where the forms
agree (integer indices compared as values: dmlref's UINT32 against int64; nonzero's
coordinates up to dmlref's count).  Inputs come from one seeded generator per workload, the
shapes, types and layouts of bench/workloads/<id>.json.  Without torch: numpy (and dmlref,
ORT) only; without node or onnxruntime-node: ORT skipped, said so.  Benchmark on an
otherwise idle machine.  --smoke: nothing meaningful timed (1 round, 1 repeat, the first
workloads only unless FILTERs are given), exit 1 on any WRONG output.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))  # `make python` builds the package in place

try:
    import dmlref
    from dmlref import _core as dmlref_core
except ImportError as e:  # numpy and PyTorch alone (--no-dmlref)
    dmlref, dmlref_core, DMLREF_ERR = None, None, str(e)

try:
    import torch
except ImportError:  # numpy alone
    torch = None

MIB = 1 << 20
COPY_BYTES = 64 * MIB


def median_ms(fn, repeat):
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times), times


def keep(outs, fn):
    """An output allocated before timing: (run, outputs())."""
    outs = outs if isinstance(outs, list) else [outs]
    return fn, (lambda: outs)


def alloc(fn):
    """Where the peer has no out= form: the call a user writes, allocation timed."""
    res = [None]

    def run():
        res[0] = fn()
    return run, (lambda: res[0] if isinstance(res[0], list) else [res[0]])


# ---- the workloads --------------------------------------------------------------------------
# Each: id -> builder(rng) returning (bytes moved, {peer: setup}); a setup returns
# (run, outputs) where outputs() lists the outputs after timing.  dmlref's setup takes the
# thread count.  Built on first use (inputs kept across rounds), from a generator seeded by
# the id, so a FILTER builds only what it names.

WORKLOADS = []


def workload(wid):
    def reg(fn):
        WORKLOADS.append((wid, fn))
        return fn
    return reg


def rand(rng, shape, dt=np.float32):
    return rng.standard_normal(shape, dtype=np.float32).astype(dt)


def E(fn, name, value):
    """An enum parameter by its value: the package's cached path (`_core.fast`) takes integers
    only; given the name (a str) the function goes the uncached way (`_ops.call`: descriptor,
    compile, execute, release on every call)."""
    return fn.operator.kw[name]["enum_names"].index(value)


def T_(a):
    return torch.from_numpy(a)


def tz(shape, dtype=None):
    return torch.zeros(shape, dtype=dtype or torch.float32)


def _join(wid, shape, axis, dt):
    @workload(wid)
    def build(rng):
        if dt == np.int64:
            ins = [rng.integers(-2**62, 2**62, size=shape, dtype=np.int64) for _ in range(4)]
        else:
            ins = [rand(rng, shape) for _ in range(4)]
        oshape = list(shape)
        oshape[axis] *= 4
        return 2 * 4 * ins[0].nbytes, {
            "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.join(ins, axis=axis, out=o, threads=T)))(np.zeros(oshape, dt)),
            "numpy": lambda: (lambda o: keep(o, lambda: np.concatenate(ins, axis=axis, out=o)))(np.zeros(oshape, dt)),
            "torch": lambda: (lambda t, o: keep(o, lambda: torch.cat(t, dim=axis, out=o)))(
                [T_(a) for a in ins], T_(np.zeros(oshape, dt))),
        }


def _split(wid, shape, axis):
    @workload(wid)
    def build(rng):
        x = rand(rng, shape)
        views = np.split(x, 4, axis=axis)

        def outs():
            return [np.zeros_like(v) for v in views]

        def np_run(o):
            for a, v in zip(o, views):
                np.copyto(a, v)

        def t_run(o, tv):
            for a, v in zip(o, tv):
                a.copy_(v)
        return 2 * x.nbytes, {
            "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.split(x, axis=axis, out=o, threads=T)))(outs()),
            "numpy": lambda: (lambda o: keep(o, lambda: np_run(o)))(outs()),
            "torch": lambda: (lambda o, tv: keep(o, lambda: t_run(o, tv)))(
                [T_(a) for a in outs()], torch.split(T_(x), shape[axis] // 4, dim=axis)),
        }


def _gather(wid, shape, dt, n, idt, axis):
    @workload(wid)
    def build(rng):
        x = rand(rng, shape, dt)
        i = rng.integers(0, shape[axis], size=n, dtype=np.int64).astype(idt)
        oshape = list(shape)
        oshape[axis] = n
        return 2 * int(np.prod(oshape)) * x.itemsize + i.nbytes, {
            "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.gather(x, i.reshape(1, n), axis=axis, index_dimensions=1,
                                                                          out=o, threads=T)))(np.zeros(oshape, dt)),
            "numpy": lambda: (lambda o: keep(o, lambda: np.take(x, i, axis=axis, out=o, mode="clip")))(np.zeros(oshape, dt)),
            "torch": lambda: (lambda t, ti, o: keep(o, lambda: torch.index_select(t, axis, ti, out=o)))(
                T_(x), T_(i.astype(np.int64)), T_(np.zeros(oshape, dt))),
        }


def _gather_elements(wid, axis):
    @workload(wid)
    def build(rng):
        x = rand(rng, (4096, 4096))
        i = rng.integers(0, 4096, size=(4096, 4096), dtype=np.int64)
        return 2 * x.nbytes + i.nbytes, {
            "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.gather_elements(x, i, axis=axis, out=o, threads=T)))(
                np.zeros_like(x)),
            # numpy has no out= for take_along_axis: the result copied into the preallocated output
            "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o, np.take_along_axis(x, i, axis=axis))))(np.zeros_like(x)),
            "torch": lambda: (lambda t, ti, o: keep(o, lambda: torch.gather(t, axis, ti, out=o)))(T_(x), T_(i), tz(x.shape)),
        }


def _scatter_nd(wid, shape, idx_fn, ushape):
    @workload(wid)
    def build(rng):
        x = rand(rng, shape)
        i = idx_fn(rng)
        u = rand(rng, ushape)
        cols = tuple(np.ascontiguousarray(i[:, d]) for d in range(i.shape[1]))
        uf = u.reshape(len(i), -1) if i.shape[1] < len(shape) else u.reshape(-1)

        def np_run(o):
            np.copyto(o, x)
            o[cols] = uf

        def t_run(o, t, tc, tu):
            o.copy_(t)
            o.index_put_(tc, tu)
        return 2 * x.nbytes + i.nbytes, {
            "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.scatter_nd(x, i, u, input_dimension_count=2,
                                                                              indices_dimension_count=2, out=o, threads=T)))(
                np.zeros_like(x)),
            "numpy": lambda: (lambda o: keep(o, lambda: np_run(o)))(np.zeros_like(x)),
            "torch": lambda: (lambda o, t, tc, tu: keep(o, lambda: t_run(o, t, tc, tu)))(
                tz(shape), T_(x), tuple(T_(c) for c in cols), T_(np.ascontiguousarray(uf))),
        }


# phase 1
_join("join_outer", (8, 256, 2048), 1, np.float32)
_join("join_inner", (1024, 1024, 4), 2, np.float32)
_split("split_outer", (8, 1024, 2048), 1)
_split("split_inner", (1024, 1024, 16), 2)
_gather("gather_rows", (65536, 256), np.float32, 65536, np.int32, 0)
_gather("gather_rows_f16", (65536, 512), np.float16, 65536, np.int32, 0)
_gather("gather_cols", (4096, 4096), np.float32, 4096, np.int64, 1)
_gather_elements("gather_elements_last", 1)
_gather_elements("gather_elements_first", 0)
_scatter_nd("scatter_nd_rows", (65536, 256), lambda rng: rng.permutation(65536)[:16384].astype(np.int64)[:, None],
            (16384, 256))


def _elems(rng):
    flat = rng.permutation(4096 * 4096)[:1048576]
    return np.stack([flat // 4096, flat % 4096], axis=1).astype(np.int64)


_scatter_nd("scatter_nd_elems", (4096, 4096), _elems, (1, 1048576))
_join("join_outer_i64", (8, 256, 1024), 1, np.int64)


# phase 2 (docs/performance.md, "Phase 2"): where the peer has an out= form it is used;
# where it has none (torch.flip, F.pad, np.pad, fancy indexing) the call a user writes is
# timed, allocation included.
@workload("slice_window")
def _(rng):
    x = rand(rng, (64, 64, 64, 64))
    v = (slice(None), slice(8, 56), slice(8, 56), slice(8, 56))
    shp = (64, 48, 48, 48)
    return 2 * 64 * 48 ** 3 * 4, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.slice1(x, input_window_offsets=[0, 8, 8, 8],
                                                                      input_window_sizes=list(shp),
                                                                      input_window_strides=[1, 1, 1, 1], out=o, threads=T)))(
            np.zeros(shp, np.float32)),
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o, x[v])))(np.zeros(shp, np.float32)),
        "torch": lambda: (lambda t, o: keep(o, lambda: o.copy_(t[v])))(T_(x), tz(shp)),
    }


@workload("slice_reverse")
def _(rng):
    x = rand(rng, (4096, 4096))
    return 2 * x.nbytes, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.slice1(x, input_window_offsets=[0, 0], input_window_sizes=[4096, 4096],
                                                                      input_window_strides=[1, -1], out=o, threads=T)))(
            np.zeros_like(x)),
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o, x[:, ::-1])))(np.zeros_like(x)),
        "torch": lambda: (lambda t: alloc(lambda: torch.flip(t, [1])))(T_(x)),
    }


@workload("tile_outer")
def _(rng):
    x = rand(rng, (1024, 4096))
    return 5 * x.nbytes, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.tile(x, repeats=[4, 1], out=o, threads=T)))(
            np.zeros((4096, 4096), np.float32)),
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o.reshape(4, 1024, 4096), x)))(np.zeros((4096, 4096), np.float32)),
        # what x.repeat(4, 1) does inside, into the preallocated output
        "torch": lambda: (lambda t, o: keep(o, lambda: o.view(4, 1024, 1, 4096).copy_(
            t.view(1, 1024, 1, 4096).expand(4, 1024, 1, 4096))))(T_(x), tz((4096, 4096))),
    }


@workload("tile_inner")
def _(rng):
    x = rand(rng, (4096, 1024))
    return 5 * x.nbytes, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.tile(x, repeats=[1, 4], out=o, threads=T)))(
            np.zeros((4096, 4096), np.float32)),
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o.reshape(4096, 4, 1024), x[:, None, :])))(
            np.zeros((4096, 4096), np.float32)),
        "torch": lambda: (lambda t, o: keep(o, lambda: o.view(1, 4096, 4, 1024).copy_(
            t.view(1, 4096, 1, 1024).expand(1, 4096, 4, 1024))))(T_(x), tz((4096, 4096))),
    }


def _pad(wid, shape, start, end, dmode, npmode, tmode):
    @workload(wid)
    def build(rng):
        x = rand(rng, shape)
        oshape = tuple(s + a + b for s, a, b in zip(shape, start, end))
        npw = tuple(zip(start, end))
        tpad = []
        for a, b in reversed(list(zip(start, end))[2 if len(shape) == 4 else 0:]):
            tpad += [a, b]
        lead = len(shape) == 2  # torch pads reflect/replicate on a batched 3-d tensor
        return x.nbytes + int(np.prod(oshape)) * 4, {
            # bench/workloads/<id>.json is PADDING1 (FLOAT32 value 0); the package caches no compiled
            # operator with a union parameter (PaddingValue), so PADDING (FLOAT PaddingValue 0.0, the
            # same modes): the same output, one compile
            "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.padding(x, padding_mode=E(dmlref.padding, "padding_mode", dmode),
                                                                           padding_value=0.0, start_padding=list(start),
                                                                            end_padding=list(end), out=o, threads=T)))(
                np.zeros(oshape, np.float32)),
            "numpy": lambda: alloc(lambda: np.pad(x, npw, mode=npmode)),
            "torch": lambda: (lambda t: alloc(lambda: torch.nn.functional.pad(t, tpad, mode=tmode)[0] if lead
                                              else torch.nn.functional.pad(t, tpad, mode=tmode)))(T_(x)[None] if lead else T_(x)),
        }


_pad("pad_constant", (16, 64, 128, 128), (0, 0, 1, 1), (0, 0, 1, 1), "CONSTANT", "constant", "constant")
_pad("pad_reflect", (4096, 4096), (8, 8), (8, 8), "REFLECTION", "reflect", "reflect")
_pad("pad_edge", (4096, 4096), (8, 8), (8, 8), "EDGE", "edge", "replicate")


@workload("gather_nd_rows")
def _(rng):
    x = rand(rng, (256, 256, 256))
    i = rng.integers(0, 256, size=(65536, 2), dtype=np.int64)
    return 2 * 65536 * 256 * 4 + i.nbytes, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.gather_nd1(x, i.reshape(1, 65536, 2), input_dimension_count=3,
                                                                          indices_dimension_count=2, batch_dimension_count=0,
                                                                          out=o, threads=T)))(np.zeros((1, 65536, 256), np.float32)),
        "numpy": lambda: alloc(lambda: x[i[:, 0], i[:, 1]]),
        "torch": lambda: (lambda t, i0, i1: alloc(lambda: t[i0, i1]))(T_(x), T_(i[:, 0].copy()), T_(i[:, 1].copy())),
    }


@workload("scatter_elements")
def _(rng):
    xs, us = rand(rng, (4096, 4096)), rand(rng, (4096, 1024))
    a = (rng.integers(0, 2048, size=(4096, 1)) * 2 + 1)
    b = rng.integers(0, 4096, size=(4096, 1))
    isc = ((a * np.arange(1024)[None, :] + b) & 4095).astype(np.int64)  # distinct within each row
    return 2 * xs.nbytes + isc.nbytes + us.nbytes, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.scatter(xs, isc, us, axis=1, out=o, threads=T)))(np.zeros_like(xs)),
        "numpy": lambda: (lambda o: keep(o, lambda: (np.copyto(o, xs), np.put_along_axis(o, isc, us, axis=1))))(np.zeros_like(xs)),
        "torch": lambda: (lambda t, i, u, o: keep(o, lambda: o.copy_(t).scatter_(1, i, u)))(T_(xs), T_(isc), T_(us), tz(xs.shape)),
    }


@workload("depth_to_space")
def _(rng):
    x = rand(rng, (16, 256, 64, 64))
    # DEPTH_COLUMN_ROW (ONNX "DCR"): in viewed [n, i, j, c, h, w] -> out [n, c, h, i, w, j]
    return 2 * x.nbytes, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.depth_to_space1(x, block_size=2, order=E(dmlref.depth_to_space1, "order", "DEPTH_COLUMN_ROW"),
                                                                               out=o, threads=T)))(
            np.zeros((16, 64, 128, 128), np.float32)),
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o.reshape(16, 64, 64, 2, 64, 2),
                                                              x.reshape(16, 2, 2, 64, 64, 64).transpose(0, 3, 4, 1, 5, 2))))(
            np.zeros((16, 64, 128, 128), np.float32)),
        "torch": lambda: (lambda t, o: keep(o, lambda: o.view(16, 64, 64, 2, 64, 2).copy_(
            t.view(16, 2, 2, 64, 64, 64).permute(0, 3, 4, 1, 5, 2))))(T_(x), tz((16, 64, 128, 128))),
    }


@workload("space_to_depth")
def _(rng):
    x = rand(rng, (16, 64, 128, 128))
    return 2 * x.nbytes, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.space_to_depth1(x, block_size=2, order=E(dmlref.space_to_depth1, "order", "DEPTH_COLUMN_ROW"),
                                                                               out=o, threads=T)))(
            np.zeros((16, 256, 64, 64), np.float32)),
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o.reshape(16, 2, 2, 64, 64, 64),
                                                              x.reshape(16, 64, 64, 2, 64, 2).transpose(0, 3, 5, 1, 2, 4))))(
            np.zeros((16, 256, 64, 64), np.float32)),
        "torch": lambda: (lambda t, o: keep(o, lambda: o.view(16, 2, 2, 64, 64, 64).copy_(
            t.view(16, 64, 64, 2, 64, 2).permute(0, 3, 5, 1, 2, 4))))(T_(x), tz((16, 256, 64, 64))),
    }


@workload("identity_transpose")
def _(rng):
    x = rand(rng, (4096, 4096))
    return 2 * x.nbytes, {
        # x.T: Strides {1, 4096}, passed as is (no copy)
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.element_wise_identity(x.T, out=o, threads=T)))(np.zeros_like(x)),
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o, x.T)))(np.zeros_like(x)),
        "torch": lambda: (lambda t, o: keep(o, lambda: o.copy_(t.t())))(T_(x), tz(x.shape)),
    }


def _transpose(x):
    return 2 * x.nbytes, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.element_wise_identity(x.T, out=o, threads=T)))(np.zeros_like(x)),
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(o, x.T)))(np.zeros_like(x)),
        "torch": lambda: (lambda t, o: keep(o, lambda: o.copy_(t.t())))(T_(x), tz(x.shape, T_(x).dtype)),
    }


@workload("identity_transpose_u8")
def _(rng):
    return _transpose(rng.integers(0, 256, size=(4096, 4096), dtype=np.uint8))


@workload("identity_transpose_f16")
def _(rng):
    return _transpose(rand(rng, (4096, 4096), np.float16))


@workload("one_hot")
def _(rng):
    io = rng.integers(0, 16, size=1048576, dtype=np.int64).astype(np.int32)
    eye = np.eye(16, dtype=np.float32)
    vals = np.array([[0, 1]], np.float32)
    return 1048576 * 16 * 4 + io.nbytes, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.one_hot(io.reshape(-1, 1), vals, axis=1, out=o, threads=T)))(
            np.zeros((1048576, 16), np.float32)),
        "numpy": lambda: (lambda o: keep(o, lambda: np.take(eye, io, axis=0, out=o)))(np.zeros((1048576, 16), np.float32)),
        "torch": lambda: (lambda e, i, o: keep(o, lambda: torch.index_select(e, 0, i, out=o)))(
            T_(eye), T_(io.astype(np.int64)), tz((1048576, 16))),
    }


# phase 3
@workload("unfold_3x3")
def _(rng):
    x = rand(rng, (8, 32, 64, 64))
    # numpy: the windows of a zero-padded copy (the copy is part of the work); torch F.unfold
    return x.nbytes + 8 * 288 * 4096 * 4, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.unfold(x, window_sizes=[3, 3], strides=[1, 1], dilations=[1, 1],
                                                                      start_padding=[1, 1], end_padding=[1, 1], out=o, threads=T)))(
            np.zeros((1, 8, 288, 4096), np.float32)),
        "numpy": lambda: (lambda o: keep(o, lambda: np.copyto(
            o.reshape(8, 32, 3, 3, 64, 64),
            np.lib.stride_tricks.sliding_window_view(np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1))), (3, 3),
                                                     axis=(2, 3)).transpose(0, 1, 4, 5, 2, 3))))(
            np.zeros((8, 288, 4096), np.float32)),
        "torch": lambda: (lambda t: alloc(lambda: torch.nn.functional.unfold(t, 3, padding=1)))(T_(x)),
    }


def _cast(wid, make, dt, tdt):
    @workload(wid)
    def build(rng):
        x = make(rng)
        return x.nbytes + x.size * np.dtype(dt).itemsize, {
            "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.cast(x, out=o, threads=T)))(np.zeros(x.shape, dt)),
            "numpy": lambda: alloc(lambda: x.astype(dt)),  # what a user runs
            "torch": lambda: (lambda t: alloc(lambda: t.to(getattr(torch, tdt))))(T_(x)),
        }


def _f(rng):
    return (rng.standard_normal((4096, 4096)) * 100).astype(np.float32)


_cast("cast_f32_f16", _f, np.float16, "float16")
_cast("cast_f16_f32", lambda rng: _f(rng).astype(np.float16), np.float32, "float32")
_cast("cast_f32_i32", _f, np.int32, "int32")
_cast("cast_u8_f32", lambda rng: rng.integers(0, 256, size=(4096, 4096), dtype=np.uint8), np.float32, "float32")


@workload("slice_grad")
def _(rng):
    x = rand(rng, (4096, 3072))
    return x.nbytes + 4096 * 4096 * 4, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.slice_grad(x, input_window_offsets=[0, 512],
                                                                          input_window_sizes=[4096, 3072],
                                                                          input_window_strides=[1, 1], out=o, threads=T)))(
            np.zeros((4096, 4096), np.float32)),
        "numpy": lambda: (lambda o: keep(o, lambda: (o.fill(0), o.__setitem__((slice(None), slice(512, 3584)), x))))(
            np.zeros((4096, 4096), np.float32)),
        "torch": lambda: (lambda t, o: keep(o, lambda: (o.zero_(), o[:, 512:3584].copy_(t))))(T_(x), tz((4096, 4096))),
    }


@workload("max_unpool")
def _(rng):
    x = rand(rng, (16, 64, 64, 64))
    nn, cc, hh, ww = np.indices((16, 64, 64, 64), dtype=np.int64)
    q = rng.integers(0, 4, size=(16, 64, 64, 64))  # one target per 2x2 window, as a max pooling gives
    plane = (2 * hh + q // 2) * 128 + 2 * ww + q % 2  # within each (n, c) plane: PyTorch's meaning
    iu = ((nn * 64 + cc) * 128 * 128 + plane).astype(np.uint32)  # flat over the output: DirectML's
    del nn, cc, hh, ww, q
    return x.nbytes + iu.nbytes + 16 * 64 * 128 * 128 * 4, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.max_unpooling(x, iu, out=o, threads=T)))(
            np.zeros((16, 64, 128, 128), np.float32)),
        "numpy": lambda: (lambda o: keep(o, lambda: (o.fill(0), o.reshape(-1).__setitem__(iu.reshape(-1), x.reshape(-1)))))(
            np.zeros((16, 64, 128, 128), np.float32)),
        "torch": lambda: (lambda t, i: alloc(lambda: torch.nn.functional.max_unpool2d(t, i, 2)))(T_(x), T_(plane)),
    }


def _upsample(wid, call):
    @workload(wid)
    def build(rng):
        x = rand(rng, (16, 64, 64, 64))
        return 5 * x.nbytes, {
            "dmlref": lambda T: (lambda o: keep(o, lambda: call(x, o, T)))(np.zeros((16, 64, 128, 128), np.float32)),
            "numpy": lambda: alloc(lambda: x.repeat(2, axis=2).repeat(2, axis=3)),
            "torch": lambda: (lambda t: alloc(lambda: torch.nn.functional.interpolate(t, scale_factor=2, mode="nearest")))(T_(x)),
        }


_upsample("upsample_nearest", lambda x, o, T: dmlref.upsample_2d(x, scale_size=(2, 2),
                                                                  interpolation_mode=E(dmlref.upsample_2d, "interpolation_mode", "NEAREST_NEIGHBOR"),
                                                                  out=o, threads=T))
_upsample("resample_nearest", lambda x, o, T: dmlref.resample1(x, interpolation_mode=E(dmlref.resample1, "interpolation_mode", "NEAREST_NEIGHBOR"), scales=[1, 1, 2, 2],
                                                                input_pixel_offsets=[0.5] * 4, output_pixel_offsets=[-0.5] * 4,
                                                                out=o, threads=T))


@workload("where")
def _(rng):
    c = rng.integers(0, 2, size=(4096, 4096), dtype=np.uint8)
    a, b = rand(rng, (4096, 4096)), rand(rng, (4096, 4096))
    # torch.where takes a bool condition, converted before timing
    return c.nbytes + 3 * a.nbytes, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.element_wise_if(c, a, b, out=o, threads=T)))(np.zeros_like(a)),
        "numpy": lambda: alloc(lambda: np.where(c, a, b)),
        "torch": lambda: (lambda c_, a_, b_: alloc(lambda: torch.where(c_, a_, b_)))(T_(c.astype(bool)), T_(a), T_(b)),
    }


@workload("fill_sequence")
def _(rng):
    return 16777216 * 4, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.fill_value_sequence(value_data_type=E(dmlref.fill_value_sequence, "value_data_type", "INT32"), value_start=0,
                                                                                   value_delta=1, out=o, threads=T)))(
            np.zeros(16777216, np.int32)),
        "numpy": lambda: alloc(lambda: np.arange(16777216, dtype=np.int32)),
        "torch": lambda: (lambda o: keep(o, lambda: torch.arange(16777216, dtype=torch.int32, out=o)))(
            torch.zeros(16777216, dtype=torch.int32)),
    }


@workload("topk_rows")
def _(rng):
    # numpy: np.argpartition of the negated rows, then the 8 sorted (stable argsort); PyTorch
    # torch.topk.  Both give int64 indices (dmlref UINT32).  The values are a random permutation
    # of 2^24 distinct floats (exact in float32): no ties, whose order the peers leave open
    # (a float32 normal draw of 2^24 values has some); the comparisons see the same ranks.
    x = ((rng.permutation(65536 * 256) - 2 ** 23) / 2 ** 20).astype(np.float32).reshape(65536, 256)

    def np_topk():
        part = np.argpartition(-x, 7, axis=1)[:, :8]
        order = np.argsort(-np.take_along_axis(x, part, axis=1), axis=1, kind="stable")
        idx = np.take_along_axis(part, order, axis=1)
        return [np.take_along_axis(x, idx, axis=1), idx]
    return x.nbytes + 2 * 65536 * 8 * 4, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.top_k1(x, axis=1, k=8, axis_direction=E(dmlref.top_k1, "axis_direction", "DECREASING"), out=o, threads=T)))(
            [np.zeros((65536, 8), np.float32), np.zeros((65536, 8), np.uint32)]),
        "numpy": lambda: alloc(np_topk),
        "torch": lambda: (lambda t: alloc(lambda: list(torch.topk(t, 8))))(T_(x)),
    }


@workload("nonzero")
def _(rng):
    # float32 [4096, 4096], 10% nonzero at random positions: np.argwhere and torch.nonzero give
    # [count, 2] int64; dmlref the count and [16777216, 2] UINT32 (rows past the count zeroed)
    x = np.where(rng.integers(0, 100, size=(4096, 4096)) < 10, rand(rng, (4096, 4096)), np.float32(0))
    return x.nbytes + 4 + x.size * 2 * 4, {
        "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.nonzero_coordinates(x, out=o, threads=T)))(
            [np.zeros((1, 1), np.uint32), np.zeros((16777216, 2), np.uint32)]),
        "numpy": lambda: alloc(lambda: np.argwhere(x)),
        "torch": lambda: (lambda t: alloc(lambda: torch.nonzero(t)))(T_(x)),
    }


def _argmax(wid, ax):
    @workload(wid)
    def build(rng):
        x = rand(rng, (4096, 4096))
        oshape = (4096, 1) if ax == 1 else (1, 4096)
        return x.nbytes + 4096 * 8, {
            "dmlref": lambda T: (lambda o: keep(o, lambda: dmlref.argmax(x, axes=[ax], axis_direction=E(dmlref.argmax, "axis_direction", "INCREASING"),
                                                                          out=o, threads=T)))(np.zeros(oshape, np.int64)),
            "numpy": lambda: alloc(lambda: np.argmax(x, ax)),
            "torch": lambda: (lambda t: alloc(lambda: torch.argmax(t, ax)))(T_(x)),
        }


_argmax("argmax_last", 1)
_argmax("argmax_first", 0)


# ---- checks ---------------------------------------------------------------------------------

def as_np(outs):
    return [np.ascontiguousarray(o.numpy() if torch is not None and isinstance(o, torch.Tensor) else o) for o in outs]


def canonical(wid, peer, outs):
    outs = as_np(outs)
    if wid == "nonzero" and peer == "dmlref":
        count, coords = outs
        return [coords[:int(count.reshape(-1)[0])]]
    return outs


def same(ref, got):
    """Byte for byte where the types agree; integer indices (dmlref's UINT32 against int64)
    as values; shapes compared by element count (unfold's leading 1, argmax's kept axis)."""
    if len(ref) != len(got):
        return False
    for a, b in zip(ref, got):
        if a.size != b.size:
            return False
        if a.dtype == b.dtype:
            if not np.array_equal(a.reshape(-1).view(np.uint8), b.reshape(-1).view(np.uint8)):
                return False
        elif a.dtype.kind in "iu" and b.dtype.kind in "iu":
            if not np.array_equal(a.reshape(-1).astype(np.int64), b.reshape(-1).astype(np.int64)):
                return False
        else:
            return False
    return True


def goals():
    """{workload: goal fraction} from docs/performance.md's workload tables (last column a number)."""
    g = {}
    try:
        text = open(os.path.join(ROOT, "docs", "performance.md")).read()
    except OSError:
        return g
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and re.fullmatch(r"[a-z0-9_]+", cells[0]) and re.fullmatch(r"\d+(\.\d+)?", cells[-1]):
            g.setdefault(cells[0], cells[-1])
    return g


# ---- ONNX Runtime (scripts/peers_ort.mjs --serve) ---------------------------------------------

class Ort:
    """One node process for the whole run; per request it loads the model `dmlref export
    --onnx` wrote for the workload, times session.run and answers one JSON line."""

    def __init__(self, dmlref_cmd, ort_node, workdir):
        self.cmd, self.dir = dmlref_cmd, workdir
        env = dict(os.environ)
        if ort_node:
            env["ORT_NODE"] = ort_node
        self.proc = subprocess.Popen(["node", os.path.join(HERE, "peers_ort.mjs"), "--serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        self.exported = {}
        hello = self.proc.stdout.readline()
        if not hello:
            raise RuntimeError("peers_ort.mjs did not start (node or onnxruntime-node missing?)")
        self.version = json.loads(hello).get("ort_version", "?")

    def export(self, wid):
        """The model directory, or (None, why) where export refuses (not expressible in ONNX)."""
        if wid not in self.exported:
            d = os.path.join(self.dir, wid)
            r = subprocess.run([self.cmd, "export", os.path.join(ROOT, "bench", "workloads", wid + ".json"),
                                "--out", d, "--onnx"], capture_output=True, text=True)
            model = None
            for root, _, files in os.walk(d):
                if "model.onnx" in files:
                    model = root
            if r.returncode != 0 or model is None:
                why = (r.stderr.strip() or r.stdout.strip() or f"export exited {r.returncode}").splitlines()
                why = why[-1][:160] if why else "no model written"
                try:  # the manifest says why ONNX cannot express it
                    onnx = json.load(open(os.path.join(d, "manifest.json"))).get("onnx") or {}
                    if onnx.get("expressible") is False:
                        why = "not expressible in ONNX: " + str(onnx.get("reason", "?"))
                except (OSError, ValueError):
                    pass
                self.exported[wid] = (None, why)
            else:
                self.exported[wid] = (model, None)
            for root, _, files in os.walk(d):  # the .npy copies export writes too: not needed here
                for f in files:
                    if f.endswith(".npy"):
                        os.unlink(os.path.join(root, f))
        return self.exported[wid]

    def time(self, wid, threads, repeat):
        d, why = self.export(wid)
        if d is None:
            return {"id": wid, "skip": "export: " + why}
        self.proc.stdin.write(json.dumps({"id": wid, "dir": d, "threads": threads, "repeat": repeat}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("peers_ort.mjs ended")
        return json.loads(line)

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        except Exception:
            self.proc.kill()


def find_ort_node():
    if os.environ.get("ORT_NODE"):
        return os.environ["ORT_NODE"]
    if not shutil.which("node"):
        return None
    r = subprocess.run(["node", "-e", 'try { console.log(require("path").dirname(require.resolve("onnxruntime-node/package.json"))) } '
                        'catch (e) {}'], capture_output=True, text=True, cwd=ROOT)
    return r.stdout.strip() or None


# ---- the rounds ------------------------------------------------------------------------------

def fmt_ms(v):
    return "—" if v is None else f"{v:.3f}" if v < 10 else f"{v:.2f}" if v < 100 else f"{v:.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=7, help="timed runs per peer per round (median), after one warm-up")
    ap.add_argument("--threads", type=lambda v: [int(t) for t in v.split(",")], default=[2],
                    help="thread counts, comma-separated (2, or 1,2: one table each, interleaved in each round): dmlref "
                    "threads=, torch.set_num_threads, ORT intraOpNumThreads; numpy is single-threaded")
    ap.add_argument("--no-dmlref", action="store_true", help="the peers alone (ratios against numpy are not printed)")
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--ort", action="store_true", help="ONNX Runtime's CPU provider too (node scripts/peers_ort.mjs)")
    ap.add_argument("--dmlref-command", default=os.path.join(ROOT, "build", "dmlref"), help="for `dmlref export --onnx` (--ort)")
    ap.add_argument("--json", help="every raw sample into this file")
    ap.add_argument("--smoke", action="store_true", help="functional check only: 1 round, 1 repeat, exit 1 on a WRONG output")
    ap.add_argument("filter", nargs="*", help="workloads whose id contains any of these (default: all)")
    a = ap.parse_args()
    if a.smoke:
        a.rounds, a.repeat = 1, 1
        if not a.filter:
            a.filter = ["join_inner", "gather_cols", "tile_inner", "one_hot", "scatter_nd_rows", "nonzero", "topk_rows"]
    use_dmlref = not a.no_dmlref
    if use_dmlref and dmlref is None:
        sys.exit(f"peers.py: dmlref's Python package does not import ({DMLREF_ERR}); `make python`, or --no-dmlref")
    peers = (["dmlref"] if use_dmlref else []) + ["numpy"]
    if torch is not None and not a.no_torch:
        peers.append("torch")
    elif not a.no_torch:
        print("# PyTorch not importable: without it", file=sys.stderr)
    ort = None
    tmpdir = None
    if a.ort:
        ort_node = find_ort_node()
        if not shutil.which("node") or not ort_node:
            print("# ORT skipped: node or onnxruntime-node not found (npm install --ignore-scripts onnxruntime-node@1.30.0; "
                  "ORT_NODE=its directory)", file=sys.stderr)
        elif not os.access(a.dmlref_command, os.X_OK):
            print(f"# ORT skipped: {a.dmlref_command} is not built (make cli)", file=sys.stderr)
        else:
            tmpdir = tempfile.mkdtemp(prefix="peers-ort-")
            ort = Ort(a.dmlref_command, ort_node, tmpdir)
            peers.append("ort")
    chosen = [(w, b) for w, b in WORKLOADS if not a.filter or any(f in w for f in a.filter)]
    goal = goals()
    built = {}
    samples = []  # every raw sample
    # res[T][wid][peer] = [median per round]; copy[T][wid] = [GB/s per round]; frac[T][wid] = [...]
    res = {T: {w: {p: [] for p in peers} for w, _ in chosen} for T in a.threads}
    copy_gbs = {T: {w: [] for w, _ in chosen} for T in a.threads}
    wrong, notes, ort_why = set(), [], {}
    src = np.ones(COPY_BYTES // 4, np.float32)
    dst = np.zeros_like(src)
    torch_v = torch.__version__ if torch is not None else None
    print(f"# scripts/peers.py: {a.rounds} rounds x {a.repeat} timed runs (median per round), threads {a.threads}; "
          f"numpy {np.__version__}" + (f", PyTorch {torch_v}" if "torch" in peers else "")
          + (f", ONNX Runtime {ort.version} (node, its own process)" if ort else ""), file=sys.stderr)
    try:
        for r in range(a.rounds):
            for T in a.threads:
                if torch is not None:
                    torch.set_num_threads(T)
                for wid, build in chosen:
                    if wid not in built:
                        built[wid] = build(np.random.default_rng(zlib.crc32(wid.encode())))
                    moved, setups = built[wid]
                    if T == 1 or not use_dmlref:
                        cms, ct = median_ms(lambda: np.copyto(dst, src), a.repeat)
                        how = "np.copyto" if T == 1 else "np.copyto (1 thread: --no-dmlref)"
                    else:
                        cms, ct = median_ms(lambda: dmlref.element_wise_identity(src, out=dst, threads=T), a.repeat)
                        how = f"dmlref.element_wise_identity threads={T}"
                    copy_gbs[T][wid].append(2 * COPY_BYTES / cms / 1e6)
                    samples.append({"round": r, "threads": T, "workload": wid, "peer": "memcpy", "how": how, "ms": ct})
                    order = peers[r % len(peers):] + peers[:r % len(peers)]
                    outs = {}
                    for p in order:
                        if p == "ort":
                            j = ort.time(wid, T, a.repeat)
                            if "ms" not in j:
                                ort_why[wid] = j.get("skip") or j.get("error", "?")
                                continue
                            if not j.get("ok", False):
                                wrong.add((wid, "ort"))
                                notes.append(f"{wid} ORT {T}T: {j.get('mismatch', 'output differs')}")
                            if j.get("preallocated") is False:
                                notes.append(f"{wid} ORT: session.run refused preallocated outputs; it allocates them per run")
                            res[T][wid][p].append(statistics.median(j["ms"]))
                            samples.append({"round": r, "threads": T, "workload": wid, "peer": "ort", "ms": j["ms"],
                                            "memcpy_ms": j.get("memcpy_ms")})
                            continue
                        run, outputs = setups[p](T) if p == "dmlref" else setups[p]()
                        if p == "dmlref":
                            run()  # compiles (cache miss) before median_ms's warm-up
                            hits0, miss0 = dmlref_core.cache_info()[:2]
                        ms, times = median_ms(run, a.repeat)
                        if p == "dmlref":
                            hits, miss = dmlref_core.cache_info()[:2]
                            if miss != miss0 or hits - hits0 < a.repeat + 1:
                                notes.append(f"{wid}: the package has no cached compiled operator for this call ({hits - hits0} "
                                             f"hits, {miss - miss0} misses in {a.repeat + 1} calls): each timed call builds, "
                                             "compiles, executes and releases (`_ops.call`; the fast path takes integer, "
                                             "integer-array and float parameters only); its per-call overhead is the python column "
                                             "of scripts/tiny.sh")
                        res[T][wid][p].append(ms)
                        samples.append({"round": r, "threads": T, "workload": wid, "peer": p, "ms": times})
                        outs[p] = canonical(wid, p, outputs())
                        del run, outputs
                    ref_peer = "dmlref" if "dmlref" in outs else "numpy"
                    for p, o in outs.items():
                        if p != ref_peer and not same(outs[ref_peer], o):
                            wrong.add((wid, p))
                    del outs
                    print(f"# round {r + 1} {T}T {wid}: " + ", ".join(f"{p} {fmt_ms(res[T][wid][p][-1])}" for p in peers
                                                                    if res[T][wid][p] and len(res[T][wid][p]) == r + 1)
                          + f"; memcpy {copy_gbs[T][wid][-1]:.1f} GB/s", file=sys.stderr, flush=True)
    finally:
        if ort:
            ort.close()
        if tmpdir:
            shutil.rmtree(tmpdir, ignore_errors=True)

    # ---- the tables
    base = "dmlref" if use_dmlref else "numpy"
    names = {"dmlref": "dmlref", "numpy": "numpy", "torch": "PyTorch", "ort": "ORT"}
    footnotes = {}
    for T in a.threads:
        others = [p for p in peers if p != base]
        print(f"\nWith {T} thread{'s' if T > 1 else ''} ({a.rounds} interleaved rounds, median of {a.repeat} runs each; "
              f"memcpy limit: {'np.copyto' if T == 1 or not use_dmlref else f'dmlref ELEMENT_WISE_IDENTITY threads={T}'} of 64 MiB "
              "measured next to each workload):\n")
        head = ["workload", "goal", f"{names[base]}{'' if base == 'numpy' else f' {T}T'} ms", f"fraction of memcpy ({a.rounds} rounds)"]
        head += [f"{names[p]}{'' if p == 'numpy' else f' {T}T'} ms" for p in others]
        head += [f"vs {names[p]}" for p in others] + ["memcpy GB/s"]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for wid, _ in chosen:
            moved = built[wid][0]
            row = res[T][wid]
            med = {p: statistics.median(v) if v else None for p, v in row.items()}
            fr = " / ".join(f"{moved / ms / 1e6 / c:.2f}" for ms, c in zip(row[base], copy_gbs[T][wid]))
            cells = [wid, goal.get(wid, "—"), fmt_ms(med[base]) + (" WRONG" if (wid, base) in wrong else ""), fr]
            for p in others:
                c = fmt_ms(med[p]) + (" WRONG" if (wid, p) in wrong else "")
                if med[p] is None and p == "ort" and wid in ort_why:
                    n = footnotes.setdefault(ort_why[wid], len(footnotes) + 1)
                    c = f"—[^{n}]"
                cells.append(c)
            for p in others:
                cells.append("—" if med[p] is None or med[base] is None else f"{med[p] / med[base]:.2f}×")
            g = copy_gbs[T][wid]
            cells.append(f"{min(g):.1f}–{max(g):.1f}")
            print("| " + " | ".join(cells) + " |")
    if footnotes:
        print()
        for why, n in footnotes.items():
            print(f"[^{n}]: ORT: {why}")
    if notes:
        print()
        for n in sorted(set(notes)):
            print(f"- {n}")
    if wrong:
        print("\nWRONG OUTPUT (differs from " + base + "'s): " + ", ".join(f"{w} {p}" for w, p in sorted(wrong)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rounds": a.rounds, "repeat": a.repeat, "threads": a.threads, "peers": peers,
                       "numpy": np.__version__, "torch": torch_v if "torch" in peers else None,
                       "ort": ort.version if ort else None, "moved": {w: built[w][0] for w in built},
                       "ort_skipped": ort_why, "wrong": sorted(f"{w} {p}" for w, p in wrong), "samples": samples}, f)
    return 1 if (a.smoke and wrong) else 0


if __name__ == "__main__":
    sys.exit(main())
