#!/usr/bin/env python3
"""Differential test of dmlref against numpy.

(Over 600 lines on purpose: one gen_* function (case and numpy expectation)
per operator, all over the shared Tensor, layout and index helpers, one
driver run and one comparison; the generators are the file's bulk and stay
side by side.)

Generates seeded random cases of the operators (every data type, 1-6
dimensions, strided inputs with gaps, broadcast (zero-stride) inputs, strided
and transposed outputs, negative indices, SPLIT/JOIN with 1-5 pieces, a few
out-of-range indices), runs them all through the C driver in one process, and
computes each expected output with numpy on views that
np.lib.stride_tricks.as_strided builds over the raw buffers:

    GATHER           np.take
    GATHER_ELEMENTS  np.take_along_axis
    SCATTER_ND       fancy-index assignment
    SCATTER          np.put_along_axis (distinct targets per line)
    SPLIT / JOIN     np.split / np.concatenate
    TILE             np.tile (every data type but FLOAT64, which TILE refuses)
    DEPTH_TO_SPACE(1), SPACE_TO_DEPTH(1)   reshape + transpose (both orders)
    SLICE / SLICE1   basic slicing v[off:off+size][::step][:out] per dimension
    ONE_HOT          np.where(index == np.arange(depth), on, off) along the axis (out-of-range
                     indices, below -n and huge unsigned ones included: all off, never an error)
    GATHER_ND(1)     fancy indexing with the index tuples' components, per batch
    DIAGONAL_MATRIX  np.eye(H, W, k=Offset) as a mask (the FLOAT Value converted as
                     docs/operators.md's decision says: truncated, saturated, NaN -> 0)
    DIAGONAL_MATRIX1 np.tri masks of [Begin, End) (inverted when Begin > End) over
                     the input or zeros; the union Value's bits
    REVERSE_SUBSEQUENCES  np.flip of each sequence's first min(length, n) elements
    UPSAMPLE_2D      np.repeat along H (Height times) and W (Width times)
    RESAMPLE(1,2,3)  fancy indexing (np.ix_) by per-dimension source indices computed in
                     np.float32 arithmetic ((o - OutOff) / Scale - InOff, floor or ceil, clipped)
    ELEMENT_WISE_IDENTITY  a copy through both views (every data type); with ScaleBias
                     (FLOAT32, FLOAT16) np.multiply then np.add with dtype float32, two
                     separately rounded operations (no fused multiply-add), FLOAT16
                     widened exactly first and rounded to nearest even last, a NaN result
                     the canonical quiet NaN
    PADDING(1)       np.pad (constant, edge, reflect, symmetric); WRAP by modular
                     indexing (np.pad's wrap is wrong before numpy 1.25 when a pad
                     exceeds the size); PADDING's FLOAT converted as DIAGONAL_MATRIX's
    UNFOLD           im2col: np.pad with zeros, then sliding_window_view over the spatial
                     dims, every Dilation-th window element and every Stride-th block,
                     transposed to (N, C, window..., block...) and reshaped
    ELEMENT_WISE_IF  np.where(cond != 0, A, B) over the raw elements (any nonzero byte true;
                     broadcast inputs)
    TOP_K(1)         a stable np.lexsort along the axis of (NaN?, value, -0 as +0), negated for
                     DECREASING, sliced to K; np.take_along_axis of the raw bits
    FILL_VALUE_CONSTANT  np.full of the union Value's bits
    NONZERO_COORDINATES  np.argwhere over the elements' bits (floats without the sign bit),
                     the last N columns as uint32, zero rows past the count
    ARGMIN / ARGMAX  np.argmin / np.argmax over the reduced axes moved last and merged (a NaN
                     wins, the first index; DECREASING on the flipped rows)
    FILL_VALUE_SEQUENCE  Start + np.arange(count) * Delta reshaped (the logical index):
                     integers modulo 2^bits as uint64, FLOAT32 np.multiply then np.add in
                     float32 (two roundings), FLOAT16 the same on the widened values then
                     astype(float16); a NaN result the canonical quiet NaN

Every output byte is compared: addressed bytes must equal numpy's, all other
bytes must keep the random prefill.  Elements are moved as raw unsigned
integers of their size, so NaN payloads are compared bit for bit (ScaleBias's
floats in the driver's byte order, as index tensors are).

    diff.py --driver build/numpy_driver [--seed S] [--cases N] [--case K] [-v]

A failing case prints one line that re-runs it alone (verbosely):
    repro: /usr/bin/python3 tests/numpy/diff.py --driver build/numpy_driver --seed S --case K -v
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from numpy.lib.stride_tricks import as_strided

# DML_TENSOR_DATA_TYPE -> element size
ESIZE = {1: 4, 2: 2, 3: 4, 4: 2, 5: 1, 6: 4, 7: 2, 8: 1, 9: 8, 10: 8, 11: 8}
DATA_TYPES = sorted(ESIZE)
RAW = {1: "<u1", 2: "<u2", 4: "<u4", 8: "<u8"}          # elements moved as raw bits
# UINT32, INT32, UINT64, INT64: the driver reads index tensors in its host's byte order
# (set_byte_order(), from `driver --byte-order`); data elements are moved as raw bits.
INDEX_CODES = {3: "u4", 6: "i4", 10: "u8", 11: "i8"}
INDEX_TYPES = {}
SIGNED = {6, 11}
FL_6_4 = 0x6400
CHECK_INDICES = 1
# The operators, in the registry's order: src/core/operators.def's DMLREF_OP lines.
OPS = re.findall(r"^DMLREF_OP\(([A-Z0-9_]+), [a-z0-9_]+\)", open(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "core", "operators.def")).read(), re.M)
HOST = ["<"]  # the driver's byte order, as a numpy prefix (set_byte_order)


def set_byte_order(order):
    """Index tensors are written in the driver's byte order: "little" (<) or "big" (>)."""
    prefix = {"little": "<", "big": ">"}[order]
    HOST[0] = prefix
    INDEX_TYPES.clear()
    INDEX_TYPES.update((k, prefix + v) for k, v in INDEX_CODES.items())


def driver_byte_order(driver):
    """The driver's host byte order (`driver --byte-order`), or None with the reason printed."""
    try:
        proc = subprocess.run([driver, "--byte-order"], capture_output=True, text=True)
    except OSError as e:
        print("numpy: cannot run %s: %s" % (driver, e))
        return None
    order = proc.stdout.strip()
    if proc.returncode != 0 or order not in ("little", "big"):
        sys.stdout.write(proc.stdout[-2000:])
        sys.stderr.write(proc.stderr[-2000:])
        print("numpy: %s --byte-order: exit status %d, printed %r (want little or big)" % (
            driver, proc.returncode, order))
        return None
    return order


class Tensor:
    def __init__(self, dtype, sizes, strides, extra, is_output, raw_dtype=None):
        self.dtype = dtype
        self.sizes = [int(s) for s in sizes]
        self.strides = None if strides is None else [int(s) for s in strides]
        self.esize = ESIZE[dtype]
        self.raw = raw_dtype or RAW[self.esize]
        self.total = min_bytes(self.esize, self.sizes, self.strides) + extra
        self.is_output = is_output
        self.data = None  # bytearray of self.total bytes

    def elem_strides(self):
        if self.strides is not None:
            return self.strides
        st, acc = [0] * len(self.sizes), 1
        for d in reversed(range(len(self.sizes))):
            st[d], acc = acc, acc * self.sizes[d]
        return st

    def view(self, buf=None):
        """The tensor's elements, as a (writable when buf is) strided view over its bytes."""
        buf = self.data if buf is None else buf
        itemsize = np.dtype(self.raw).itemsize
        flat = np.frombuffer(buf, dtype=self.raw, count=len(buf) // itemsize)
        return as_strided(flat, shape=self.sizes, strides=[s * self.esize for s in self.elem_strides()])

    def line(self, offset):
        kind = "out" if self.is_output else "in"
        strides = "0" if self.strides is None else "1 " + " ".join(map(str, self.strides))
        return "%s %d %d %s %s %d %d" % (kind, self.dtype, len(self.sizes), " ".join(map(str, self.sizes)),
                                         strides, self.total, offset)


def min_bytes(esize, sizes, strides):
    if strides is None:
        last = int(np.prod(sizes, dtype=np.int64)) - 1
    else:
        last = sum((s - 1) * st for s, st in zip(sizes, strides))
    return ((last + 1) * esize + 3) // 4 * 4


def layout(rng, sizes, is_output, broadcast=True):
    """None (packed), or strides: dimensions in a random order with random gaps; inputs may broadcast."""
    kind = rng.integers(0, 3)
    if kind == 0:
        return None
    order = list(rng.permutation(len(sizes))) if rng.integers(0, 2) else list(reversed(range(len(sizes))))
    strides, acc = [0] * len(sizes), 1 + int(rng.integers(0, 2))
    for d in order:  # innermost first
        strides[d] = acc
        acc = acc * sizes[d] + int(rng.integers(0, 3))
    if not is_output and broadcast and kind == 2:  # broadcast: some dimensions read one element
        for d in range(len(sizes)):
            if rng.integers(0, 3) == 0:
                strides[d] = 0
    return strides


def make(rng, dtype, sizes, is_output, raw_dtype=None, broadcast=True):
    strides = layout(rng, sizes, is_output, broadcast)
    t = Tensor(dtype, sizes, strides, 4 * int(rng.integers(0, 3)), is_output, raw_dtype)
    t.data = bytearray(rng.integers(0, 256, t.total, dtype=np.uint8).tobytes())
    return t


def write_indices(t, values):
    """Stores index values (Python ints, any sign) through t's strided view."""
    v = t.view()
    bits = 8 * np.dtype(t.raw).itemsize
    arr = np.array([int(x) % (1 << bits) for x in np.ravel(values)], dtype=np.uint64)
    raw = arr.astype(np.dtype(t.raw).str.replace("i", "u"))
    v.view(np.dtype(t.raw).str.replace("i", "u"))[...] = raw.reshape(t.sizes)


def random_indices(rng, shape, n, signed, oob):
    """Values in [-n, n) (signed) or [0, n); with oob, some values outside."""
    vals = rng.integers(0, n, size=shape).astype(object)
    if signed:
        neg = rng.integers(0, 2, size=shape).astype(bool)
        vals = np.where(neg, vals - n, vals)
    if oob:
        choices = [n, n + 7, 2**31 - 1] + ([-n - 1, -(2**31)] if signed else [2**32 - 1])
        flat = vals.reshape(-1)
        for _ in range(1 + int(rng.integers(0, 2))):
            flat[int(rng.integers(0, flat.size))] = choices[int(rng.integers(0, len(choices)))]
    return vals


def any_out_of_range(values, n, signed):
    """Whether a stored index value lies outside [-n, n) (signed) or [0, n)."""
    return any(not ((-n if signed else 0) <= v < n) for v in np.ravel(values))


def clamp(values, n, signed):
    """The clamp decision of docs/operators.md's table (section 0): clamp(signed && v < 0 ? v + n : v, 0, n - 1)."""
    return np.vectorize(lambda v: min(max(v + n if (signed and v < 0) else v, 0), n - 1), otypes=[object])(values)


def read_index_values(t):
    """t's index values as Python ints (sign per its type)."""
    return t.view().astype(np.dtype(t.raw)).astype(object)


# The desc's parameters that p0, p1 (and more) stand for, by name (the driver sets them through
# the library's schema; count fields such as InputCount come from the tensors).  A list value is
# an array parameter (TILE's Repeats): the driver sets its count field (RepeatsCount) too; a Bits
# value is a FLOAT's or a SCALAR_UNION's raw bits.
PARAM_NAMES = {
    "GATHER": ("Axis", "IndexDimensions"),
    "GATHER_ELEMENTS": ("Axis",),
    "SCATTER_ND": ("InputDimensionCount", "IndicesDimensionCount"),
    "SPLIT": ("Axis",),
    "JOIN": ("Axis",),
    "TILE": ("Repeats",),
    "SCATTER": ("Axis",),
    "DEPTH_TO_SPACE": ("BlockSize",),
    "SPACE_TO_DEPTH": ("BlockSize",),
    "DEPTH_TO_SPACE1": ("BlockSize", "Order"),
    "SPACE_TO_DEPTH1": ("BlockSize", "Order"),
    "SLICE": (),
    "SLICE1": (),
    "ONE_HOT": ("Axis",),
    "GATHER_ND": ("InputDimensionCount", "IndicesDimensionCount"),
    "GATHER_ND1": ("InputDimensionCount", "IndicesDimensionCount", "BatchDimensionCount"),
    "DIAGONAL_MATRIX": ("Offset", "Value"),
    "DIAGONAL_MATRIX1": ("ValueDataType", "Value", "DiagonalFillBegin", "DiagonalFillEnd"),
    "REVERSE_SUBSEQUENCES": ("Axis",),
    "ELEMENT_WISE_IDENTITY": ("ScaleBias",),
    "PADDING": ("PaddingMode", "PaddingValue"),
    "PADDING1": ("PaddingMode", "PaddingValueDataType", "PaddingValue"),
    "UNFOLD": (),
    "CAST": (),
    "SLICE_GRAD": (),
    "MAX_UNPOOLING": (),
    "UPSAMPLE_2D": ("ScaleSize", "InterpolationMode"),
    "RESAMPLE": ("InterpolationMode", "Scales"),
    "RESAMPLE1": ("InterpolationMode", "Scales", "InputPixelOffsets", "OutputPixelOffsets"),
    "RESAMPLE2": ("InterpolationMode", "RoundingDirection", "Scales", "InputPixelOffsets", "OutputPixelOffsets"),
    "RESAMPLE3": ("InterpolationMode", "RoundingDirection", "Scales", "InputPixelOffsets", "OutputPixelOffsets",
                  "Antialiased"),
    "ELEMENT_WISE_IF": (),
    "NONZERO_COORDINATES": (),
    "FILL_VALUE_CONSTANT": ("ValueDataType", "Value"),
    "FILL_VALUE_SEQUENCE": ("ValueDataType", "ValueStart", "ValueDelta"),
    "TOP_K": ("Axis", "K"),
    "TOP_K1": ("Axis", "K", "AxisDirection"),
    "ARGMIN": ("AxisDirection",),
    "ARGMAX": ("AxisDirection",),
}


class Bits(int):
    """A FLOAT parameter's 32-bit pattern, or a SCALAR_UNION's element bits (manifest: bits NAME HEX)."""


class FloatArray(list):
    """A FLOAT_ARRAY parameter's 32-bit patterns (manifest: farray NAME COUNT HEX...); the driver sets
    its count field (DimensionCount) too."""

# ---- case generators: each returns (op, p0, p1, tensors, expected outputs or None, note, oob[, more params]) ----

def gen_gather(rng, dt, it, n, oob):
    a = int(rng.integers(0, n))
    k = int(rng.integers(0, min(n, a + 1) + 1))
    ins = [int(rng.integers(1, 5)) for _ in range(n)]
    for d in range(k - 1):
        ins[d] = 1
    ixs = [1] * (n - k) + [int(rng.integers(1, 4)) for _ in range(k)]
    full = ins[:a] + ixs[n - k:] + ins[a + 1:]
    outs = [1] * (n - len(full)) + full if len(full) < n else full[len(full) - n:]
    t_in = make(rng, dt, ins, False)
    t_ix = make(rng, it, ixs, False, INDEX_TYPES[it])
    t_out = make(rng, dt, outs, True)
    vals = random_indices(rng, ixs, ins[a], it in SIGNED, oob)
    write_indices(t_ix, vals)
    idx = read_index_values(t_ix)  # what is stored: with broadcast indices a bad value may be overwritten
    oob = any_out_of_range(idx, ins[a], it in SIGNED)
    if oob:
        idx = clamp(idx, ins[a], it in SIGNED)
    idx = idx.astype(np.int64).reshape(ixs[n - k:])
    res = np.take(t_in.view(), idx, axis=a)
    return "GATHER", a, k, [t_in, t_ix, t_out], [res.reshape(outs)], "axis %d K %d" % (a, k), oob


def gen_gather_elements(rng, dt, it, n, oob):
    a = int(rng.integers(0, n))
    ins = [int(rng.integers(1, 5)) for _ in range(n)]
    ixs = list(ins)
    ixs[a] = int(rng.integers(1, 5))
    t_in = make(rng, dt, ins, False)
    t_ix = make(rng, it, ixs, False, INDEX_TYPES[it])
    t_out = make(rng, dt, ixs, True)
    write_indices(t_ix, random_indices(rng, ixs, ins[a], it in SIGNED, oob))
    idx = read_index_values(t_ix)
    oob = any_out_of_range(idx, ins[a], it in SIGNED)
    if oob:
        idx = clamp(idx, ins[a], it in SIGNED)
    res = np.take_along_axis(t_in.view(), idx.astype(np.int64), axis=a)
    return "GATHER_ELEMENTS", a, 0, [t_in, t_ix, t_out], [res], "axis %d" % a, oob


def gen_scatter_nd(rng, dt, it, n, oob):
    while True:
        r = int(rng.integers(1, n + 1))
        q = int(rng.integers(1, n + 1))
        t = int(rng.integers(1, r + 1))
        m = (q - 1) + (r - t)
        if m > n:
            continue
        isz = [int(rng.integers(1, 5)) for _ in range(r)]
        jsz = [int(rng.integers(1, 4)) for _ in range(q - 1)] + [t]
        tuples = int(np.prod(jsz[:-1], dtype=np.int64))
        targets = int(np.prod(isz[:t], dtype=np.int64))
        if tuples <= targets:  # room for distinct targets: no duplicates (tested in the unit tests)
            break
    ins = [1] * (n - r) + isz
    ixs = [1] * (n - q) + jsz
    ups = [1] * (n - m) + jsz[:-1] + isz[t:]
    t_in = make(rng, dt, ins, False)
    # no broadcast indices here: shared index memory would make duplicate targets
    t_ix = make(rng, it, ixs, False, INDEX_TYPES[it], broadcast=False)
    t_up = make(rng, dt, ups, False)
    t_out = make(rng, dt, ins, True)
    flat = rng.choice(targets, size=tuples, replace=False)
    coords = np.stack(np.unravel_index(flat, isz[:t]), axis=-1).astype(object).reshape(jsz)
    if it in SIGNED:  # some components counted from the end
        neg = rng.integers(0, 2, size=jsz).astype(bool)
        coords = np.where(neg, coords - np.array(isz[:t], dtype=object), coords)
    if oob:  # one component beyond its dimension: clamped, may then collide; keep it unique
        flat_c = coords.reshape(-1, t)
        row, comp = int(rng.integers(0, flat_c.shape[0])), int(rng.integers(0, t))
        flat_c[row, comp] = isz[comp] + int(rng.integers(0, 3))
    write_indices(t_ix, coords)
    idx = read_index_values(t_ix).reshape(jsz)
    if oob:
        comps = [clamp(idx[..., c], isz[c], it in SIGNED) for c in range(t)]
        keys = list(zip(*[np.ravel(c) for c in comps]))
        if len(set(keys)) != len(keys):  # the clamp made a duplicate: not this test's business
            return None
        idx = np.stack(comps, axis=-1)
    idx = idx.astype(np.int64)
    out = np.array(t_in.view()).reshape(isz)  # a copy
    out[tuple(idx[..., c] for c in range(t))] = t_up.view().reshape(jsz[:-1] + isz[t:])
    return "SCATTER_ND", r, q, [t_in, t_ix, t_up, t_out], [out.reshape(ins)], "R %d Q %d T %d" % (r, q, t), oob


def gen_scatter(rng, dt, it, n, oob):
    a = int(rng.integers(0, n))
    ins = [int(rng.integers(1, 5)) for _ in range(n)]
    A = ins[a]
    ixs = list(ins)
    ixs[a] = int(rng.integers(1, A + 1))  # room for distinct targets on every line
    t_in = make(rng, dt, ins, False)
    # no broadcast indices here: a zero stride on the axis would repeat a target
    t_ix = make(rng, it, ixs, False, INDEX_TYPES[it], broadcast=False)
    t_up = make(rng, dt, ixs, False)
    t_out = make(rng, dt, ins, True)
    # each line (every coordinate but the axis): the first K of a permutation of [0, A)
    order = np.argsort(rng.random([A if d == a else s for d, s in enumerate(ixs)]), axis=a)
    vals = np.take(order, np.arange(ixs[a]), axis=a).astype(object)
    if it in SIGNED:  # some counted from the end
        vals = np.where(rng.integers(0, 2, size=ixs).astype(bool), vals - A, vals)
    if oob:  # one value beyond the axis: clamped, which may repeat a target of its line
        flat = vals.reshape(-1)
        flat[int(rng.integers(0, flat.size))] = A + int(rng.integers(0, 3)) if it not in SIGNED or rng.integers(0, 2) \
            else -A - 1 - int(rng.integers(0, 3))
    write_indices(t_ix, vals)
    idx = read_index_values(t_ix)
    oob = any_out_of_range(idx, A, it in SIGNED)
    if oob:
        idx = clamp(idx, A, it in SIGNED)
    else:
        idx = np.vectorize(lambda v: v + A if v < 0 else v, otypes=[object])(idx)
    idx = idx.astype(np.int64)
    srt = np.sort(idx, axis=a)
    if np.any(np.diff(srt, axis=a) == 0):  # a repeated target (after the clamp): the unit tests' business
        return None
    out = np.array(t_in.view())  # a copy
    np.put_along_axis(out, idx, t_up.view(), axis=a)
    return "SCATTER", a, 0, [t_in, t_ix, t_up, t_out], [out], "axis %d K %d" % (a, ixs[a]), oob


def pieces(rng, total):
    count = int(rng.integers(1, min(5, total) + 1))
    cuts = sorted(rng.choice(np.arange(1, total), size=count - 1, replace=False)) if count > 1 else []
    bounds = [0] + [int(c) for c in cuts] + [total]
    return [bounds[i + 1] - bounds[i] for i in range(count)]


def gen_split(rng, dt, it, n, oob):
    a = int(rng.integers(0, n))
    sizes = [int(rng.integers(1, 4)) for _ in range(n)]
    sizes[a] = int(rng.integers(1, 8))
    parts = pieces(rng, sizes[a])
    t_in = make(rng, dt, sizes, False)
    outs = [make(rng, dt, sizes[:a] + [p] + sizes[a + 1:], True) for p in parts]
    res = np.split(t_in.view(), np.cumsum(parts)[:-1], axis=a)
    return "SPLIT", a, 0, [t_in] + outs, res, "axis %d pieces %s" % (a, parts), False


def gen_join(rng, dt, it, n, oob):
    a = int(rng.integers(0, n))
    sizes = [int(rng.integers(1, 4)) for _ in range(n)]
    sizes[a] = int(rng.integers(1, 8))
    parts = pieces(rng, sizes[a])
    ins = [make(rng, dt, sizes[:a] + [p] + sizes[a + 1:], False) for p in parts]
    t_out = make(rng, dt, sizes, True)
    res = np.concatenate([t.view() for t in ins], axis=a)
    return "JOIN", a, 0, ins + [t_out], [res], "axis %d pieces %s" % (a, parts), False


def gen_tile(rng, dt, it, n, oob):
    if dt == 9:  # FLOAT64: TILE's tables have none (docs/operators.md P4)
        return None
    sizes = [int(rng.integers(1, 5)) for _ in range(n)]
    reps = [int(rng.integers(1, 4)) for _ in range(n)]
    while int(np.prod([s * r for s, r in zip(sizes, reps)])) > 600:
        d = int(np.argmax([s * r for s, r in zip(sizes, reps)]))
        reps[d], sizes[d] = (1, sizes[d]) if reps[d] > 1 else (1, max(1, sizes[d] // 2))
    t_in = make(rng, dt, sizes, False)
    t_out = make(rng, dt, [s * r for s, r in zip(sizes, reps)], True)
    return "TILE", reps, 0, [t_in, t_out], [np.tile(t_in.view(), reps)], "repeats %s" % reps, False


def f32_bits(rng):
    """A Scale or Bias: small dyadics and {1, 0}'s parts mostly, any bits (NaN, inf, subnormal) sometimes."""
    k = int(rng.integers(0, 8))
    if k < 4:
        v = np.float32(int(rng.integers(-64, 65)) / 8.0)
    elif k < 6:
        v = np.float32(rng.choice([1.0, 0.0, -0.0, -1.0, 0.5, 3.0]))
    elif k < 7:
        return int(rng.integers(0, 1 << 32))
    else:
        v = np.float32(rng.standard_normal() * 10.0 ** int(rng.integers(-3, 4)))
    return int(np.array([v], np.float32).view(np.uint32)[0])


def scale_bias(x, dt, s_bits, b_bits):
    """ScaleBias on x (the input's elements as raw unsigned integers in the driver's order)."""
    s, b = (np.array([v], np.uint32).view(np.float32)[0] for v in (s_bits, b_bits))
    wide = x.view(HOST[0] + "f4") if dt == 1 else x.view(HOST[0] + "f2").astype(np.float32)  # exact
    with np.errstate(all="ignore"):
        y = np.add(np.multiply(wide, s, dtype=np.float32), b, dtype=np.float32)
        nan = np.isnan(y)
        if dt == 1:
            return np.where(nan, np.uint32(0x7FC00000), y.view(np.uint32))
        return np.where(nan, np.uint16(0x7E00), y.astype(np.float16).view(np.uint16))  # nearest even


def gen_identity(rng, dt, it, n, oob):
    sizes = [int(rng.integers(1, 5)) for _ in range(n)]
    if int(np.prod(sizes)) < 64 and rng.integers(0, 4) == 0:  # a longer last row: the vector kernel
        sizes[-1] = int(rng.integers(8, 70))
    with_sb = rng.integers(0, 2) == 1
    if with_sb:
        dt = [1, 2][int(rng.integers(0, 2))]  # FLOAT32, FLOAT16: the types ScaleBias takes
    raw = (HOST[0] + ("u4" if dt == 1 else "u2")) if with_sb else None
    t_in = make(rng, dt, sizes, False, raw)
    t_out = make(rng, dt, sizes, True, raw)
    x = np.array(t_in.view())  # a copy, in the output's shape
    if not with_sb:
        return "ELEMENT_WISE_IDENTITY", None, 0, [t_in, t_out], [x], "copy", False
    s_bits, b_bits = f32_bits(rng), f32_bits(rng)
    y = scale_bias(x, dt, s_bits, b_bits)
    return ("ELEMENT_WISE_IDENTITY", (s_bits, b_bits), 0, [t_in, t_out], [y],
            "ScaleBias 0x%08x 0x%08x" % (s_bits, b_bits), False)


# DML_TENSOR_DATA_TYPE -> numpy type code (CAST's tensors are read as values, in the driver's byte order)
NP_CODE = {1: "f4", 2: "f2", 3: "u4", 4: "u2", 5: "u1", 6: "i4", 7: "i2", 8: "i1", 9: "f8", 10: "u8", 11: "i8"}


def int_to_float(v, dt):
    """A Python int rounded once to dt's precision (nearest, ties to even), as a float64 holding it
    exactly (numpy's int64 -> float32 goes through float64: two roundings)."""
    p, n = {2: 11, 4: 24, 8: 53}[dt.itemsize], abs(v).bit_length()
    if n > p:
        sh = n - p
        q, r = divmod(abs(v), 1 << sh)
        q += r > 1 << (sh - 1) or (r == 1 << (sh - 1) and q & 1)
        v = (q << sh) * (1 if v >= 0 else -1)
    return float(v)


def cast_np(x, dt):
    """CAST (docs/operators.md Q1.4) of the array x to dt: numpy's astype where its rule is dmlref's
    (integer -> integer wraps; float -> float rounds to nearest even without flush to zero),
    explicit code where it is not: integer -> float (one rounding from the exact integer),
    NaN -> another float type (sign, top payload bits, quiet bit), float -> integer (truncate,
    saturate, NaN -> 0)."""
    x, dt = x.astype(x.dtype.newbyteorder("=")), np.dtype(dt).newbyteorder("=")
    if x.dtype == dt:
        return x.copy()
    if x.dtype.kind in "iu" and dt.kind in "iu":
        return x.astype(dt)
    with np.errstate(all="ignore"):
        if x.dtype.kind in "iu":
            return np.array([int_to_float(v, dt) for v in x.reshape(-1).tolist()], np.float64).reshape(x.shape).astype(dt)
        if dt.kind == "f":
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
        t = np.trunc(x.astype(np.float64))
        info = np.iinfo(dt)
        big, small = t >= float(info.max + 1), t < float(info.min)
        y = np.where(np.isnan(t) | big | small, 0, t).astype(dt)
        y[big], y[small] = info.max, info.min
        return y


def gen_cast(rng, dt, it, n, oob):
    ot = DATA_TYPES[int(rng.integers(0, len(DATA_TYPES)))]
    if rng.integers(0, 3) == 0:  # the vector kernels' pairs
        dt, ot = [(1, 2), (2, 1), (1, 6), (5, 1)][int(rng.integers(0, 4))]
    sizes = [int(rng.integers(1, 5)) for _ in range(n)]
    if int(np.prod(sizes)) < 64 and rng.integers(0, 3) == 0:  # a longer last row: the vector kernels
        sizes[-1] = int(rng.integers(8, 70))
    t_in = make(rng, dt, sizes, False, HOST[0] + NP_CODE[dt])
    t_out = make(rng, ot, sizes, True, HOST[0] + NP_CODE[ot])
    v = t_in.view(t_in.data)
    if NP_CODE[dt][0] == "f" and rng.integers(0, 2) == 0:  # values in range too (random bits are mostly huge or tiny)
        with np.errstate(all="ignore"):
            v[...] = (rng.standard_normal(sizes) * 10.0 ** int(rng.integers(-2, 6))).astype(v.dtype)
    y = cast_np(np.array(v), HOST[0] + NP_CODE[ot])
    return "CAST", None, 0, [t_in, t_out], [y], "%s -> %s" % (NP_CODE[dt], NP_CODE[ot]), False


INT_RANGE = {3: (0, 2**32 - 1), 4: (0, 2**16 - 1), 5: (0, 2**8 - 1), 6: (-2**31, 2**31 - 1), 7: (-2**15, 2**15 - 1),
             8: (-2**7, 2**7 - 1), 10: (0, 2**64 - 1), 11: (-2**63, 2**63 - 1)}
FLOAT_NP = {1: np.float32, 2: np.float16, 9: np.float64}


def host_element(bits, dt):
    """An element whose bytes are `bits` in the driver's byte order, as a RAW (little-endian) scalar:
    the library stores parameter values (FLOAT, SCALAR_UNION) in its host's order, while the
    tensors here are raw bytes."""
    return np.array(bits, dtype=HOST[0] + RAW[ESIZE[dt]][1:]).view(RAW[ESIZE[dt]])


def float_fill_bits(dt, value):
    """DIAGONAL_MATRIX's FLOAT Value as the element's raw bits (docs/operators.md's decision):
    floats converted by numpy (float16 rounds to nearest even, float64 exactly), integers
    truncated toward zero then saturated, NaN giving 0."""
    v = np.float32(value)
    if dt in FLOAT_NP:
        with np.errstate(over="ignore"):
            x = np.array([v]).astype(FLOAT_NP[dt])
        return int(x.view(RAW[ESIZE[dt]])[0])
    lo, hi = INT_RANGE[dt]
    if v != v:
        i = 0
    elif v == np.inf or v >= hi:
        i = hi
    elif v == -np.inf or v <= lo:
        i = lo
    else:
        i = min(max(int(v), lo), hi)  # Python's int() truncates toward zero; exact for every float32
    return i % (1 << (8 * ESIZE[dt]))


def band_end(rng, h, w):
    """A band end: across the matrix mostly, now and then an INT32 extreme."""
    k = int(rng.integers(0, 10))
    if k == 0:
        return [-(2**31), 2**31 - 1][int(rng.integers(0, 2))]
    return int(rng.integers(-h - 1, w + 2))


def gen_diagonal(rng, dt, n, v1):
    """DIAGONAL_MATRIX: out = Value where x - y == Offset (np.eye's k), else 0.  DIAGONAL_MATRIX1:
    Value where x - y is in [Begin, End), or (Begin > End) outside [End, Begin), from np.tri masks;
    else the input's element (np.where over its strided view) or 0."""
    if n < 2 or n > 4:
        return None
    sizes = [int(rng.integers(1, 4)) for _ in range(n - 2)] + [int(rng.integers(1, 9)), int(rng.integers(1, 9))]
    h, w = sizes[-2], sizes[-1]
    raw = RAW[ESIZE[dt]]
    if v1:
        begin, end = band_end(rng, h, w), band_end(rng, h, w)
        below_end = np.tri(h, w, k=end - 1, dtype=bool)        # x - y <= End - 1
        below_begin = np.tri(h, w, k=begin - 1, dtype=bool)    # x - y <= Begin - 1
        mask = (below_end & ~below_begin) if begin <= end else (below_end | ~below_begin)
        fill = int(rng.integers(0, 1 << 62)) * 4 + int(rng.integers(0, 4))
        fill %= 1 << (8 * ESIZE[dt])  # any bits of the element: NaN payloads included
        t_out = make(rng, dt, sizes, True)
        tensors, rest = [t_out], np.zeros(sizes, dtype=raw)
        if rng.integers(0, 2):
            t_in = make(rng, dt, sizes, False)
            tensors, rest = [t_in, t_out], np.asarray(t_in.view())
        res = np.where(mask, host_element(fill, dt), rest)
        note = "[%d, %d) %s input" % (begin, end, "with" if len(tensors) == 2 else "no")
        return "DIAGONAL_MATRIX1", dt, Bits(fill), tensors, [res], note, False, (begin, end)
    offset = band_end(rng, h, w)
    k = int(rng.integers(0, 10))
    value = (np.float32(np.nan) if k == 0 else np.float32(1e30) * (1 if k == 1 else -1) if k <= 2
             else np.float32(300.7) if k == 3 else np.float32(int(rng.integers(-400, 401)) / 4))
    fill = float_fill_bits(dt, value)
    mask = np.eye(h, w, k=offset, dtype=bool)
    t_out = make(rng, dt, sizes, True)
    res = np.where(mask, host_element(fill, dt), np.zeros(sizes, dtype=raw))
    value_bits = Bits(int(np.array([value], np.float32).view(np.uint32)[0]))
    return "DIAGONAL_MATRIX", offset, value_bits, [t_out], [res], "Offset %d Value %r" % (offset, value), False


def gen_diagonal_matrix(rng, dt, it, n, oob):
    return gen_diagonal(rng, dt, n, False)


def gen_diagonal_matrix1(rng, dt, it, n, oob):
    return gen_diagonal(rng, dt, n, True)



def depth_to_space(x, b, dcr):
    """numpy's DepthToSpace: the depth axis split as (B, B, C) (DCR) or (C, B, B) (CRD)."""
    n, c, h, w = x.shape
    cs = c // (b * b)
    if dcr:
        y = x.reshape(n, b, b, cs, h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        y = x.reshape(n, cs, b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return y.reshape(n, cs, h * b, w * b)


def space_to_depth(x, b, dcr):
    """numpy's SpaceToDepth: each B x B block of space into the depth axis, (B, B, C) or (C, B, B)."""
    n, c, h, w = x.shape
    y = x.reshape(n, c, h // b, b, w // b, b)
    y = y.transpose(0, 3, 5, 1, 2, 4) if dcr else y.transpose(0, 1, 3, 5, 2, 4)
    return y.reshape(n, c * b * b, h // b, w // b)


def gen_depth_space(name):
    """DEPTH_TO_SPACE / SPACE_TO_DEPTH and the 1 forms (Order): 4-D, B 1-3, a random Order."""
    to_space, has_order = name.startswith("DEPTH"), name.endswith("1")

    def gen(rng, dt, it, n, oob):
        b = int(rng.integers(1, 4))
        order = int(rng.integers(0, 2)) if has_order else 0  # 0 DEPTH_COLUMN_ROW, 1 COLUMN_ROW_DEPTH
        nb, c, h, w = (int(rng.integers(1, 4)) for _ in range(4))
        depth, space = [nb, c * b * b, h, w], [nb, c, h * b, w * b]
        t_in = make(rng, dt, depth if to_space else space, False)
        t_out = make(rng, dt, space if to_space else depth, True)
        f = depth_to_space if to_space else space_to_depth
        return name, b, order, [t_in, t_out], [f(t_in.view(), b, order == 0)], "B %d order %d" % (b, order), False
    return gen


def gen_slice_any(rng, dt, n, v1):
    """A window per dimension: offset, size, a stride (SLICE: >= 1; SLICE1: either sign), an
    output of at most the elements it reaches; numpy takes v[off:off+size][::step][:out]."""
    ins = [int(rng.integers(1, 6)) for _ in range(n)]
    offs, sizes, steps, outs = [], [], [], []
    for d in range(n):
        off = int(rng.integers(0, ins[d]))
        size = int(rng.integers(1, ins[d] - off + 1))
        mag = 1 if rng.integers(0, 2) else int(rng.integers(1, size + 1))
        step = -mag if (v1 and rng.integers(0, 2)) else mag
        most = 1 + (size - 1) // mag
        out = most if rng.integers(0, 2) else int(rng.integers(1, most + 1))
        if out == 1 and rng.integers(0, 6) == 0:  # a stride that is never taken
            step = (-(2**31) if rng.integers(0, 2) else 2**31 - 1) if v1 else 2**32 - 1
        offs.append(off), sizes.append(size), steps.append(step), outs.append(out)
    t_in = make(rng, dt, ins, False)
    t_out = make(rng, dt, outs, True)
    v = t_in.view()
    for d in range(n):  # one dimension at a time, basic slicing only
        idx = [slice(None)] * n
        idx[d] = slice(offs[d], offs[d] + sizes[d])
        v = v[tuple(idx)]
        idx[d] = slice(None, None, steps[d])
        v = v[tuple(idx)]
        idx[d] = slice(0, outs[d])
        v = v[tuple(idx)]
    if v1:
        arrays = [("InputWindowOffsets", offs), ("InputWindowSizes", sizes), ("InputWindowStrides", steps)]
    else:
        arrays = [("Offsets", offs), ("Sizes", outs), ("Strides", steps)]
    note = "in %s offsets %s sizes %s strides %s" % (ins, offs, sizes, steps)
    return "SLICE1" if v1 else "SLICE", 0, 0, [t_in, t_out], [v], note, False, arrays


def gen_slice(rng, dt, it, n, oob):
    return gen_slice_any(rng, dt, n, False)


def gen_slice1(rng, dt, it, n, oob):
    return gen_slice_any(rng, dt, n, True)


def gen_gather_nd(rng, dt, it, n, oob, nd1=False):
    """GATHER_ND (B 0) or GATHER_ND1: Output = J[0..Q-1) ++ I[B+T..R), right-aligned; for each batch
    coordinate b, out[b] = data[b][idx[b][..., 0], ..., idx[b][..., T-1]] (numpy's fancy indexing)."""
    while True:
        r = int(rng.integers(1, n + 1))
        q = int(rng.integers(1, n + 1))
        b = int(rng.integers(0, min(r, q))) if nd1 else 0
        t = int(rng.integers(1, r - b + 1))
        m = (q - 1) + (r - b - t)
        if m <= n:
            break
    isz = [int(rng.integers(1, 5)) for _ in range(r)]
    jsz = isz[:b] + [int(rng.integers(1, 4)) for _ in range(q - 1 - b)] + [t]
    ins = [1] * (n - r) + isz
    ixs = [1] * (n - q) + jsz
    outs = [1] * (n - m) + jsz[:-1] + isz[b + t:]
    signed = it in SIGNED
    t_in = make(rng, dt, ins, False)
    t_ix = make(rng, it, ixs, False, INDEX_TYPES[it])  # broadcast indices too: tuples may repeat
    t_out = make(rng, dt, outs, True)
    vals = np.empty(jsz, dtype=object)
    for c in range(t):  # component c indexes input dimension b + c of the meaningful ones
        vals[..., c] = random_indices(rng, jsz[:-1], isz[b + c], signed, oob)
    write_indices(t_ix, vals)
    idx = read_index_values(t_ix).reshape(jsz)  # what is stored: a broadcast slot keeps its last value
    oob = any(any_out_of_range(idx[..., c], isz[b + c], signed) for c in range(t))
    comps = [np.asarray(clamp(idx[..., c], isz[b + c], signed)).astype(np.int64) for c in range(t)]
    data = t_in.view().reshape(isz)
    res = np.empty(jsz[:-1] + isz[b + t:], dtype=t_in.raw)
    for bi in np.ndindex(*isz[:b]):
        res[bi] = data[bi][tuple(comp[bi] for comp in comps)]
    name = "GATHER_ND1" if nd1 else "GATHER_ND"
    return name, r, q, [t_in, t_ix, t_out], [res.reshape(outs)], "R %d Q %d B %d T %d" % (r, q, b, t), oob, \
        ((b,) if nd1 else ())


def gen_gather_nd1(rng, dt, it, n, oob):
    return gen_gather_nd(rng, dt, it, n, oob, nd1=True)


def gen_reverse_subsequences(rng, dt, it, n, oob):
    """Lengths (UINT32 or UINT64, gapped or broadcast like any input) shaped like the input
    with 1 along Axis, in [0, n] and now and then above it (clamped, which the checking
    option does not report); numpy flips each sequence's first min(length, n) elements."""
    a = int(rng.integers(0, n))
    ins = [int(rng.integers(1, 5)) for _ in range(n)]
    ins[a] = int(rng.integers(1, 9))
    A = ins[a]
    lens = [1 if d == a else s for d, s in enumerate(ins)]
    lt = (3, 10)[int(rng.integers(0, 2))]  # UINT32, UINT64
    t_in = make(rng, dt, ins, False)
    t_len = make(rng, lt, lens, False, INDEX_TYPES[lt])
    t_out = make(rng, dt, ins, True)
    vals = rng.integers(0, A + 1, size=lens).astype(object)
    flat = vals.reshape(-1)
    for i in range(flat.size):
        k = int(rng.integers(0, 10))
        if k == 0:
            flat[i] = A + 1 + int(rng.integers(0, 3))
        elif k == 1:
            flat[i] = 2**32 + 1 if lt == 10 and rng.integers(0, 2) else (2**32 - 1 if lt == 3 else 2**64 - 1)
    write_indices(t_len, vals)
    got = read_index_values(t_len)  # what is stored: a broadcast lengths tensor keeps one value
    x = np.moveaxis(np.array(t_in.view()), a, -1)  # a copy, sequences last
    res = x.copy()
    lm = np.moveaxis(got, a, -1)[..., 0]
    for idx in np.ndindex(*lm.shape):
        L = min(int(lm[idx]), A)
        res[idx][:L] = np.flip(x[idx][:L])
    res = np.moveaxis(res, -1, a)
    return "REVERSE_SUBSEQUENCES", a, 0, [t_in, t_len, t_out], [res], "axis %d n %d lengths %d" % (a, A, lt), False


def gen_one_hot(rng, dt, it, n, oob):
    a = int(rng.integers(0, n))
    outs = [int(rng.integers(1, 5)) for _ in range(n)]
    outs[a] = int(rng.integers(1, 9))  # the depth
    ixs = list(outs)
    ixs[a] = 1
    vs = [int(rng.integers(1, 3)) for _ in range(n)]
    if int(np.prod(vs)) < 2:
        vs[int(rng.integers(0, n))] = 2
    t_ix = make(rng, it, ixs, False, INDEX_TYPES[it])
    t_va = make(rng, dt, vs, False)
    t_out = make(rng, dt, outs, True)
    depth, signed = outs[a], it in SIGNED
    vals = random_indices(rng, ixs, depth, signed, rng.integers(0, 3) == 0)
    if it == 10 and rng.integers(0, 4) == 0:  # UINT64 of 2^63 and more: a large unsigned value, off
        vals.reshape(-1)[int(rng.integers(0, vals.size))] = 2**63 + int(rng.integers(0, 2))
    write_indices(t_ix, vals)
    idx = read_index_values(t_ix)  # what is stored: with broadcast indices a value may be overwritten
    # ONE_HOT's own rule (docs/operators.md P8): negative values count from the end; anything
    # else outside [0, depth) matches no position, so its sequence is all off (-1 here)
    pos = np.vectorize(lambda v: v + depth if signed and -depth <= v < 0 else (v if 0 <= v < depth else -1),
                       otypes=[object])(idx).astype(np.int64)
    vd = max(d for d in range(n) if vs[d] > 1)
    va = t_va.view()
    off, on = va[(0,) * n], va[tuple(1 if d == vd else 0 for d in range(n))]
    hit = pos == np.arange(depth).reshape([depth if d == a else 1 for d in range(n)])
    res = np.where(hit, on, off).astype(t_out.raw)
    return "ONE_HOT", a, 0, [t_ix, t_va, t_out], [res], "axis %d depth %d values %s" % (a, depth, vs), False


PAD_MODES = ["CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"]
NP_PAD = {"CONSTANT": "constant", "EDGE": "edge", "REFLECTION": "reflect", "SYMMETRIC": "symmetric"}


def gen_padding_any(rng, dt, n, v1):
    """PADDING / PADDING1: every mode, pads 0-3 and now and then larger than the input (PD6)."""
    mode = PAD_MODES[int(rng.integers(0, 5))]
    sizes = [int(rng.integers(1, 5)) for _ in range(n)]
    start, end = [], []
    for d in range(n):
        k = int(rng.integers(0, 6))
        s, e = (0, 0) if k == 0 else (int(rng.integers(0, 4)), int(rng.integers(0, 4)))
        if k == 5:  # larger than the input: periodic folding
            s, e = s + sizes[d] + int(rng.integers(0, 4)), e + 2 * sizes[d]
        start.append(s)
        end.append(e)
    while int(np.prod([a + b + c for a, b, c in zip(sizes, start, end)], dtype=np.int64)) > 4096:
        d = int(rng.integers(0, n))
        start[d], end[d] = start[d] // 2, end[d] // 2
    outs = [a + b + c for a, b, c in zip(sizes, start, end)]
    t_in = make(rng, dt, sizes, False)
    t_out = make(rng, dt, outs, True)
    if v1:  # any bits of the element, NaN payloads included
        fill = (int(rng.integers(0, 1 << 62)) * 4 + int(rng.integers(0, 4))) % (1 << (8 * ESIZE[dt]))
        value = Bits(fill)
    else:  # small integers, quarters, and now and then values to saturate, or NaN
        k = int(rng.integers(0, 10))
        v = (np.float32(np.nan) if k == 0 else np.float32(1e30) * (1 if k == 1 else -1) if k <= 2
             else np.float32(300.7) if k == 3 else np.float32(int(rng.integers(-400, 401)) / 4))
        fill = float_fill_bits(dt, v)
        value = Bits(int(np.array([v], np.float32).view(np.uint32)[0]))
    src = np.array(t_in.view())
    if mode == "CONSTANT":
        res = np.pad(src, list(zip(start, end)), mode="constant", constant_values=host_element(fill, dt))
    elif mode == "WRAP":  # np.pad's "wrap" before numpy 1.25 is wrong when a pad exceeds the size: index mod n
        res = src[np.ix_(*[(np.arange(o) - s) % n for o, s, n in zip(outs, start, sizes)])]
    else:
        res = np.pad(src, list(zip(start, end)), mode=NP_PAD[mode])
    note = "%s start %s end %s" % (mode, start, end)
    arrays = (("StartPadding", start), ("EndPadding", end))
    m = PAD_MODES.index(mode)
    if v1:
        return "PADDING1", m, dt, [t_in, t_out], [res], note, False, (value,) + arrays
    return "PADDING", m, value, [t_in, t_out], [res], note, False, arrays


def gen_unfold(rng, dt, it, n, oob):
    """UNFOLD: 1 to 3 spatial dims (D = k + 2), windows 1-3, strides 1-3, dilations 1-2, pads 0-2;
    numpy's im2col through sliding_window_view on a zero-padded copy (zero bits: the raw view)."""
    k = min(n, 3)
    sizes = [int(rng.integers(1, 4)), int(rng.integers(1, 4))] + [int(rng.integers(1, 7 if k < 3 else 4)) for _ in range(k)]
    w, st, dil, p0, p1 = ([int(rng.integers(lo, hi)) for _ in range(k)] for lo, hi in ((1, 4), (1, 4), (1, 3), (0, 3), (0, 3)))
    for d in range(k):
        if sizes[2 + d] + p0[d] + p1[d] < dil[d] * (w[d] - 1) + 1:
            w[d] = 1
    t_in = make(rng, dt, sizes, False)
    span = [sizes[2 + d] + p0[d] + p1[d] - dil[d] * (w[d] - 1) - 1 for d in range(k)]
    blocks = [s_ // t_ + 1 for s_, t_ in zip(span, st)]
    outs = [1] * (k - 1) + [sizes[0], sizes[1] * int(np.prod(w)), int(np.prod(blocks))]
    t_out = make(rng, dt, outs, True)
    xp = np.pad(np.array(t_in.view()), [(0, 0), (0, 0)] + list(zip(p0, p1)))
    axes = tuple(range(2, 2 + k))
    win = np.lib.stride_tricks.sliding_window_view(xp, [dil[d] * (w[d] - 1) + 1 for d in range(k)], axis=axes)
    win = win[(slice(None), slice(None)) + tuple(slice(None, None, t_) for t_ in st) + tuple(slice(None, None, d_) for d_ in dil)]
    # (N, C, B..., W...) -> (N, C, W..., B...) -> (N, C * prod(W), prod(B))
    res = win.transpose((0, 1) + tuple(range(2 + k, 2 + 2 * k)) + axes).reshape(outs)
    note = "windows %s strides %s dilations %s start %s end %s" % (w, st, dil, p0, p1)
    arrays = (("WindowSizes", w), ("Strides", st), ("Dilations", dil), ("StartPadding", p0), ("EndPadding", p1))
    return "UNFOLD", 0, 0, [t_in, t_out], [res], note, False, arrays


def resample_index(n_out, n_in, scale, in_off, out_off, decreasing):
    """The RESAMPLE family's source index along one dimension (docs/operators.md Q11): every step
    in numpy float32 arithmetic, floor or ceil, clipped."""
    s, a, b = np.float32(scale), np.float32(in_off), np.float32(out_off)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        t = ((np.arange(n_out, dtype=np.float64).astype(np.float32) - b) / s) - a
    i = np.floor(t) if decreasing else np.ceil(t)
    return np.clip(i, 0, n_in - 1).astype(np.int64)


class Size2D(tuple):
    """A DML_SIZE_2D parameter (Width, Height) (manifest: size2d NAME W H)."""


def gen_upsample_2d(rng, dt, it, n, oob):
    if dt not in (1, 2) or n not in (4, 5):  # US1, US2: 4 or 5 dims, F32 or F16
        return None
    ins = [int(rng.integers(1, 5)) for _ in range(n)]
    w, h = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    outs = list(ins)
    outs[-2] *= h
    outs[-1] *= w
    t_in = make(rng, dt, ins, False)
    t_out = make(rng, dt, outs, True)
    res = t_in.view().repeat(h, axis=n - 2).repeat(w, axis=n - 1)
    return "UPSAMPLE_2D", Size2D((w, h)), 0, [t_in, t_out], [res], "ScaleSize {%d, %d}" % (w, h), False


def f32(bits):
    return float(np.array([bits], np.uint32).view(np.float32)[0])


def gen_resample2(rng, dt, it, n, oob, variant="RESAMPLE2"):
    if dt not in (1, 2, 5, 8) or n > 4:  # RS2 at 6_4: F32, F16, UINT8, INT8; RS1: 1-4 dims
        return None
    ins = [int(rng.integers(1, 6)) for _ in range(n)]
    outs, scales, io, oo = [], [], [], []
    for s_in in ins:
        kind = int(rng.integers(0, 6))
        if kind <= 1:  # an integer upscale
            k = int(rng.integers(1, 4))
            outs.append(s_in * k)
            scales.append(np.float32(k))
        else:
            o = int(rng.integers(1, 2 * s_in + 2))
            outs.append(o)
            if kind == 2:
                scales.append(np.float32(o) / np.float32(s_in))
            elif kind == 3:
                scales.append(np.float32(f32(int(rng.integers(0x3D800000, 0x41000000)))))  # [1/16, 8)
            else:
                scales.append(np.float32(f32(0x7F7FFFFF if kind == 4 else 0x0D800000)))  # FLT_MAX, 2^-100
        pick = lambda: np.float32([0.0, 0.5, -0.5, 1.0][int(rng.integers(0, 4))]) if rng.integers(0, 2) else \
            np.float32(rng.uniform(-4, 4))
        io.append(pick())
        oo.append(pick())
    decreasing = int(rng.integers(0, 2)) if variant in ("RESAMPLE2", "RESAMPLE3") else 1
    if variant == "RESAMPLE":  # InputPixelOffsets 0.5, OutputPixelOffsets -0.5
        io, oo = [np.float32(0.5)] * n, [np.float32(-0.5)] * n
    eff = [x - np.float32(0.5) for x in io] if variant in ("RESAMPLE", "RESAMPLE1") else io  # fl32(x - 0.5)
    t_in = make(rng, dt, ins, False)
    t_out = make(rng, dt, outs, True)
    idx = [resample_index(o, i, s, a, b, decreasing) for o, i, s, a, b in zip(outs, ins, scales, eff, oo)]
    res = t_in.view()[np.ix_(*idx)]
    bits = lambda v: FloatArray(int(np.array([x], np.float32).view(np.uint32)[0]) for x in v)
    note = "scales %s in %s out %s %s" % ([float(x) for x in scales], [float(x) for x in io], [float(x) for x in oo],
                                          "DECREASING" if decreasing else "INCREASING")
    if variant == "RESAMPLE":
        return variant, 0, bits(scales), [t_in, t_out], [res], note, False
    if variant == "RESAMPLE1":
        return variant, 0, bits(scales), [t_in, t_out], [res], note, False, (bits(io), bits(oo))
    more = (int(rng.integers(0, 2)),) if variant == "RESAMPLE3" else ()  # Antialiased: no effect
    return variant, 0, decreasing, [t_in, t_out], [res], note, False, (bits(scales), bits(io), bits(oo)) + more


def gen_element_wise_if(rng, dt, it, n, oob):
    """out = np.where(cond != 0, A, B) over the raw elements; the condition UINT8 (0, 1, any byte)."""
    sizes = [int(rng.integers(1, 5)) for _ in range(n)]
    if int(np.prod(sizes)) < 64 and rng.integers(0, 3) == 0:  # a longer last row: the SIMD kernel
        sizes[-1] = int(rng.integers(16, 70))
    t_c, t_a, t_b = make(rng, 5, sizes, False), make(rng, dt, sizes, False), make(rng, dt, sizes, False)
    zero = rng.integers(0, 2, size=len(t_c.data)).astype(bool)
    t_c.data = bytearray(np.where(zero, 0, np.frombuffer(bytes(t_c.data), np.uint8)).astype(np.uint8).tobytes())
    t_out = make(rng, dt, sizes, True)
    res = np.where(np.asarray(t_c.view()) != 0, np.asarray(t_a.view()), np.asarray(t_b.view()))
    return "ELEMENT_WISE_IF", None, None, [t_c, t_a, t_b, t_out], [res], "select", False


def gen_nonzero_coordinates(rng, dt, it, n, oob):
    """np.argwhere over the elements' bits (floats without the sign bit: +-0 zero, NaN and
    subnormals nonzero), the last N components of each row as uint32, zero rows past the count;
    the count a {1, ..., 1} scalar.  Leading 1s with N from the effective rank up to n."""
    if dt in (9, 10, 11):  # T8 only
        return None
    sizes = [int(rng.integers(1, 5)) for _ in range(n)]
    for d in range(int(rng.integers(0, n))):  # leading 1s
        sizes[d] = 1
    if int(np.prod(sizes)) < 64 and rng.integers(0, 3) == 0:  # a longer last row: the SIMD mask
        sizes[-1] = int(rng.integers(16, 70))
    lead = next((d for d, x in enumerate(sizes) if x != 1), n)
    N = int(rng.integers(max(n - lead, 1), n + 1))
    m = int(np.prod(sizes))
    t_in = make(rng, dt, sizes, False)
    v = t_in.view(t_in.data)  # writable: zeros, -0 and NaNs mixed in
    kind = rng.integers(0, 4, size=v.shape)
    sign = 1 << (8 * ESIZE[dt] - 1)
    v[...] = np.where(kind == 0, 0, np.where((kind == 1) & (dt in (1, 2)), sign, v))
    host = np.asarray(t_in.view()).byteswap() if HOST[0] == ">" else np.asarray(t_in.view())  # as the library reads
    nz = (host & (sign - 1)) != 0 if dt in (1, 2) else host != 0
    rows = np.argwhere(nz)[:, n - N:].astype(np.uint32)
    cdims, ndims = int(rng.integers(2, 7)), int(rng.integers(1, 7))
    t_cnt = make(rng, 3, [1] * ndims, True, INDEX_TYPES[3])
    t_co = make(rng, 3, [1] * (cdims - 2) + [m, N], True, INDEX_TYPES[3])
    co = np.zeros((m, N), np.uint32)
    co[:len(rows)] = rows
    cnt = np.full([1] * ndims, len(rows), np.uint32)
    return ("NONZERO_COORDINATES", None, None, [t_in, t_cnt, t_co], [cnt, co.reshape([1] * (cdims - 2) + [m, N])],
            "N %d count %d" % (N, len(rows)), False)


def union_bits(rng, dt):
    """Any bits of an element of dt (NaN payloads included), or a small value's now and then."""
    if rng.integers(0, 2) and dt not in FLOAT_NP:
        return int(rng.integers(-8, 9)) % (1 << (8 * ESIZE[dt]))
    if rng.integers(0, 2) and dt in FLOAT_NP:
        v = np.array([int(rng.integers(-32, 33)) / 4.0], FLOAT_NP[dt])
        return int(v.view(RAW[ESIZE[dt]])[0])
    return (int(rng.integers(0, 1 << 62)) * 4 + int(rng.integers(0, 4))) % (1 << (8 * ESIZE[dt]))


def gen_fill_value_constant(rng, dt, it, n, oob):
    """Every element the union Value's bits."""
    sizes = [int(rng.integers(1, 5)) for _ in range(n)]
    v = union_bits(rng, dt)
    t_out = make(rng, dt, sizes, True)
    res = np.full(sizes, host_element(v, dt))
    return "FILL_VALUE_CONSTANT", dt, Bits(v), [t_out], [res], "Value 0x%x" % v, False


def sequence_bits(dt, s, d, count):
    """Elements 0 .. count-1 of Start + i * Delta as raw bits (docs/operators.md Q4)."""
    i = np.arange(count, dtype=np.uint64)
    if dt in (1, 2):
        wide = lambda b: (np.array([b], np.uint32).view(np.float32)[0] if dt == 1 else
                          np.array([b], np.uint16).view(np.float16).astype(np.float32)[0])
        with np.errstate(all="ignore"):
            v = np.float32(wide(s)) + i.astype(np.float32) * np.float32(wide(d))
            if dt == 2:
                v = v.astype(np.float16)
        bits = v.view(np.uint32 if dt == 1 else np.uint16).astype(np.uint64)
        return np.where(np.isnan(v), 0x7FC00000 if dt == 1 else 0x7E00, bits)
    return (np.uint64(s) + i * np.uint64(d)) & np.uint64((1 << (8 * ESIZE[dt])) - 1 if ESIZE[dt] < 8 else 2**64 - 1)


def gen_fill_value_sequence(rng, dt, it, n, oob):
    """Start + i * Delta, i the row-major logical index (every type but FLOAT64)."""
    if dt == 9:  # FLOAT64: never (FV2)
        return None
    sizes = [int(rng.integers(1, 5)) for _ in range(n)]
    s, d = union_bits(rng, dt), union_bits(rng, dt)
    t_out = make(rng, dt, sizes, True)
    vals = sequence_bits(dt, s, d, int(np.prod(sizes)))
    res = np.array(vals, dtype=HOST[0] + RAW[ESIZE[dt]][1:]).view(RAW[ESIZE[dt]]).reshape(sizes)
    return "FILL_VALUE_SEQUENCE", dt, Bits(s), [t_out], [res], "Start 0x%x Delta 0x%x" % (s, d), False, (Bits(d),)


# One generator per operator of src/core/operators.def (scripts/check-tables.py checks that
# none is missing).
def gen_slice_grad(rng, dt, it, n, oob):
    """SLICE1's window over the output gradient (offset, size, a stride of either sign), an input
    gradient of at most the elements it reaches; numpy: zeros, then
    out[off:off+size][::step][:in] = x one dimension at a time (basic slicing: a view)."""
    outs = [int(rng.integers(1, 6)) for _ in range(n)]
    offs, sizes, steps, ins = [], [], [], []
    for d in range(n):
        off = int(rng.integers(0, outs[d]))
        size = int(rng.integers(1, outs[d] - off + 1))
        mag = 1 if rng.integers(0, 2) else int(rng.integers(1, size + 1))
        step = -mag if rng.integers(0, 2) else mag
        most = 1 + (size - 1) // mag
        m = most if rng.integers(0, 2) else int(rng.integers(1, most + 1))
        if m == 1 and rng.integers(0, 6) == 0:  # a stride that is never taken
            step = -(2**31) if rng.integers(0, 2) else 2**31 - 1
        offs.append(off), sizes.append(size), steps.append(step), ins.append(m)
    t_in = make(rng, dt, ins, False)
    t_out = make(rng, dt, outs, True)
    res = np.zeros(outs, dtype=t_in.view().dtype)  # all-zero bits
    v = res
    for d in range(n):
        idx = [slice(None)] * n
        idx[d] = slice(offs[d], offs[d] + sizes[d])
        v = v[tuple(idx)]
        idx[d] = slice(None, None, steps[d])
        v = v[tuple(idx)]
        idx[d] = slice(0, ins[d])
        v = v[tuple(idx)]
    v[...] = t_in.view()
    arrays = [("InputWindowOffsets", offs), ("InputWindowSizes", sizes), ("InputWindowStrides", steps)]
    note = "out %s offsets %s sizes %s strides %s" % (outs, offs, sizes, steps)
    return "SLICE_GRAD", 0, 0, [t_in, t_out], [res], note, False, arrays


def gen_max_unpooling(rng, dt, it, n, oob):
    """A 2-D max pooling's indices (kh x kw windows, one target each: flat over the whole output
    {N, C, H*kh (+1), W*kw}); with oob one index at or above the count (clamped to count - 1,
    left out when that repeats a target: repeats are the unit tests' business); numpy:
    out = zeros; out.reshape(-1)[idx] = x."""
    if dt == 9 or it in SIGNED:  # T10 (no FLOAT64); UINT32 or UINT64 indices
        return None
    ins = [int(rng.integers(1, 4)) for _ in range(4)]
    kh, kw = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    outs = [ins[0], ins[1], ins[2] * kh + int(rng.integers(0, 2)), ins[3] * kw]
    count = int(np.prod(outs))
    t_in = make(rng, dt, ins, False)
    t_ix = make(rng, it, ins, False, INDEX_TYPES[it], broadcast=False)  # broadcast indices would repeat targets
    t_out = make(rng, dt, outs, True)
    nn, cc, hh, ww = np.indices(ins)
    vals = (((nn * outs[1] + cc) * outs[2] + hh * kh + rng.integers(0, kh, size=ins)) * outs[3] +
            ww * kw + rng.integers(0, kw, size=ins)).astype(object)
    if oob:
        vals.reshape(-1)[int(rng.integers(0, vals.size))] = count + int(rng.integers(0, 3))
    write_indices(t_ix, vals)
    idx = read_index_values(t_ix)
    oob = any_out_of_range(idx, count, False)
    idx = clamp(idx, count, False).astype(np.int64).reshape(-1)
    if len(set(idx.tolist())) != idx.size:  # the clamp made a repeat
        return None
    res = np.zeros(count, dtype=t_in.view().dtype)
    res[idx] = t_in.view().reshape(-1)
    return "MAX_UNPOOLING", 0, 0, [t_in, t_ix, t_out], [res.reshape(outs)], "k %dx%d" % (kh, kw), oob


# numpy types of the data types (the values behind the raw bits)
VALUE_TYPES = {1: "f4", 2: "f2", 3: "u4", 4: "u2", 5: "u1", 6: "i4", 7: "i2", 8: "i1", 10: "u8", 11: "i8"}


def gen_top_k(rng, dt, it, n, oob, op="TOP_K"):
    """Values from a small palette (ties; floats with +-0, +-Inf, NaNs of several payloads) or
    random bits; numpy: a stable np.lexsort along the axis of (NaN?, value with -0 as +0), both
    negated for DECREASING (~ for integers: no overflow), the first K positions, then
    np.take_along_axis of the raw bits (bit copies) and the positions as the indices."""
    if dt == 9 or it in SIGNED:  # T10 (no FLOAT64); UINT32 or UINT64 indices
        return None
    a = int(rng.integers(0, n))
    ins = [int(rng.integers(1, 5)) for _ in range(n)]
    ins[a] = int(rng.integers(1, 12))
    k = [1, ins[a], int(rng.integers(1, ins[a] + 1))][int(rng.integers(0, 3))]
    decreasing = op == "TOP_K" or bool(rng.integers(0, 2))
    outs = list(ins)
    outs[a] = k
    t_in = make(rng, dt, ins, False)
    vt = np.dtype(HOST[0] + VALUE_TYPES[dt])  # the values in the driver's byte order
    raw = t_in.view()
    specials = {1: [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800003, 0x3F800000],
                2: [0, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE01, 0x7C05, 0x3C00]}.get(dt)
    palette = [int(x) for x in rng.integers(0, 256, 8, dtype=np.uint8)] if specials is None else \
        [specials[int(rng.integers(0, len(specials)))] for _ in range(4)]
    pick = rng.integers(0, len(palette), size=raw.shape)
    use = rng.integers(0, 4, size=raw.shape) < 3
    raw[...] = np.where(use, np.array(palette, dtype=np.uint64)[pick].astype(raw.dtype), raw)
    raw = np.array(t_in.view())  # what is stored (broadcast inputs: the last write of each element)
    v = raw.view(vt)
    if dt in (1, 2):
        nan = np.isnan(v)
        with np.errstate(invalid="ignore"):  # the NaNs (their key is the second one)
            keys = (np.where(nan, 0, v.astype(np.float64) + 0.0), nan.astype(np.int8))  # lexsort: the last key first
        if decreasing:
            keys = (-keys[0], -keys[1])
    else:
        keys = (~v if decreasing else v,)
    order = np.lexsort(keys, axis=a)
    pos = np.take(order, np.arange(k), axis=a)
    t_val = make(rng, dt, outs, True)
    t_ix = make(rng, it, outs, True, INDEX_TYPES[it])
    vals = np.take_along_axis(raw, pos, axis=a)
    params = (a, k) if op == "TOP_K" else (a, k, 1 if decreasing else 0)
    return op, params[0], params[1], [t_in, t_val, t_ix], [vals, pos], "axis %d K %d %s" % (
        a, k, "DECREASING" if decreasing else "INCREASING"), False, params[2:]
def gen_argminmax(op):
    """ARGMIN / ARGMAX: 1 to n distinct reduced axes listed in a random order, the data drawn from
    a pool of a few of its own random values (ties, all-equal rows; NaNs of any payload, +-0,
    +-Inf where the random bits give them); numpy's np.argmin / np.argmax over the reduced axes
    moved last (increasing) and merged: the first index, a NaN winning (numpy's rule and
    dmlref's); DECREASING: the first index of the flipped rows, counted from the end."""
    def gen(rng, dt, it, n, oob):
        if dt == 9:  # AM2: never FLOAT64
            return None
        sizes = [int(rng.integers(1, 5)) for _ in range(n)]
        if int(np.prod(sizes)) < 64 and rng.integers(0, 3) == 0:  # a longer row: the vector kernels
            sizes[int(rng.integers(0, n))] = int(rng.integers(8, 70))
        axes = [int(a) for a in rng.permutation(n)[: int(rng.integers(1, n + 1))]]
        red = sorted(axes)
        kept = [d for d in range(n) if d not in red]
        outs = [1 if d in red else s_ for d, s_ in enumerate(sizes)]
        t_in = make(rng, dt, sizes, False, HOST[0] + NP_CODE[dt])
        v = t_in.view(t_in.data)
        pool = np.array(v).reshape(-1)[: int(rng.integers(1, 5))].copy()
        v[...] = pool[rng.integers(0, len(pool), size=sizes)]
        t_out = make(rng, it, outs, True, INDEX_TYPES[it])  # indices: the driver's byte order
        x = np.array(t_in.view()).transpose(kept + red).reshape([sizes[d] for d in kept] + [-1])
        last = int(rng.integers(0, 2))
        f = np.argmax if op == "ARGMAX" else np.argmin
        idx = (x.shape[-1] - 1 - f(x[..., ::-1], axis=-1)) if last else f(x, axis=-1)
        res = np.asarray(idx, np.int64).reshape(outs)
        note = "Axes %s %s" % (axes, "DECREASING" if last else "INCREASING")
        return op, last, 0, [t_in, t_out], [res], note, False, (("Axes", axes),)
    return gen


GENERATORS = {
    "GATHER": gen_gather,
    "GATHER_ELEMENTS": gen_gather_elements,
    "SCATTER_ND": gen_scatter_nd,
    "SPLIT": gen_split,
    "JOIN": gen_join,
    "ELEMENT_WISE_IDENTITY": gen_identity,
    "TILE": gen_tile,
    "SCATTER": gen_scatter,
    "DIAGONAL_MATRIX": gen_diagonal_matrix,
    "DIAGONAL_MATRIX1": gen_diagonal_matrix1,
    "DEPTH_TO_SPACE": gen_depth_space("DEPTH_TO_SPACE"),
    "SPACE_TO_DEPTH": gen_depth_space("SPACE_TO_DEPTH"),
    "DEPTH_TO_SPACE1": gen_depth_space("DEPTH_TO_SPACE1"),
    "SPACE_TO_DEPTH1": gen_depth_space("SPACE_TO_DEPTH1"),
    "PADDING": lambda rng, dt, it, n, oob: gen_padding_any(rng, dt, n, False),
    "PADDING1": lambda rng, dt, it, n, oob: gen_padding_any(rng, dt, n, True),
    "SLICE": gen_slice,
    "SLICE1": gen_slice1,
    "ONE_HOT": gen_one_hot,
    "GATHER_ND": gen_gather_nd,
    "GATHER_ND1": gen_gather_nd1,
    "REVERSE_SUBSEQUENCES": gen_reverse_subsequences,
    "UNFOLD": gen_unfold,
    "CAST": gen_cast,
    "SLICE_GRAD": gen_slice_grad,
    "MAX_UNPOOLING": gen_max_unpooling,
    "UPSAMPLE_2D": gen_upsample_2d,
    "RESAMPLE": lambda rng, dt, it, n, oob: gen_resample2(rng, dt, it, n, oob, "RESAMPLE"),
    "RESAMPLE1": lambda rng, dt, it, n, oob: gen_resample2(rng, dt, it, n, oob, "RESAMPLE1"),
    "RESAMPLE2": gen_resample2,
    "RESAMPLE3": lambda rng, dt, it, n, oob: gen_resample2(rng, dt, it, n, oob, "RESAMPLE3"),
    "ELEMENT_WISE_IF": gen_element_wise_if,
    "FILL_VALUE_CONSTANT": gen_fill_value_constant,
    "FILL_VALUE_SEQUENCE": gen_fill_value_sequence,
    "TOP_K": gen_top_k,
    "TOP_K1": lambda rng, dt, it, n, oob: gen_top_k(rng, dt, it, n, oob, "TOP_K1"),
    "NONZERO_COORDINATES": gen_nonzero_coordinates,
    "ARGMIN": gen_argminmax("ARGMIN"),
    "ARGMAX": gen_argminmax("ARGMAX"),
}


def generate(seed, k):
    """Case k of seed: deterministic on its own, so that --only K reproduces it."""
    rng = np.random.default_rng([seed, k])
    op = OPS[k % len(OPS)]
    while True:
        dt = DATA_TYPES[int(rng.integers(0, len(DATA_TYPES)))]
        it = list(INDEX_TYPES)[int(rng.integers(0, 4))]
        n = int(rng.integers(1, 7))
        oob = op in ("GATHER", "GATHER_ELEMENTS", "SCATTER_ND", "SCATTER", "GATHER_ND", "GATHER_ND1",
                     "MAX_UNPOOLING") and \
            rng.integers(0, 10) == 0
        case = GENERATORS[op](rng, dt, it, n, oob)
        if case is None:
            continue
        name, p0, p1, tensors, expected, note, oob = case[:7]
        extra = case[7] if len(case) > 7 else ()
        # (name, values) of array parameters (SLICE), and parameters past the second (GATHER_ND1's B)
        arrays = [e for e in extra if isinstance(e, tuple) and not isinstance(e, FloatArray)]
        more = tuple(e for e in extra if not isinstance(e, tuple))
        # the checking option: same bytes when every index is in range, an error (and nothing written) when not
        flags = CHECK_INDICES if rng.integers(0, 2) else 0
        want_status = "DMLREF_ERROR_INDEX_OUT_OF_RANGE" if (oob and flags) else "DMLREF_OK"
        desc = "%s dtype %d index %d dims %d %s%s flags %d" % (name, dt, it, n, note, " OOB" if oob else "", flags)
        return dict(op=name, params=(p0, p1) + more, arrays=arrays, tensors=tensors, expected=expected, flags=flags,
                    want_status=want_status, desc=desc)


def expected_bytes(t, value):
    """t's prefill with value's elements stored where t's strides put them."""
    buf = bytearray(t.data)
    if value is not None:
        t.view(buf)[...] = np.asarray(value).astype(t.raw, copy=False)
    return bytes(buf)


def repro_command(args, k):
    """The command line that re-runs case k alone (k None: the whole run)."""
    me = os.path.relpath(os.path.abspath(__file__))
    which = "--cases %d" % args.cases if k is None else "--case %d -v" % k
    return "%s %s --driver %s --seed %d %s" % (sys.executable, me, args.driver, args.seed, which)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--case", "--only", dest="only", type=int, default=None, help="run only case K (a repro)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    ids = [args.only] if args.only is not None else list(range(args.cases))
    order = driver_byte_order(args.driver)
    if order is None:
        print("numpy: 0 passed, %d failed" % len(ids))
        return 1
    set_byte_order(order)
    if args.verbose:
        print("driver byte order: %s" % order)
    cases = {k: generate(args.seed, k) for k in ids}
    blob, manifest = bytearray(), []
    for k in ids:
        c = cases[k]
        manifest.append("case %d %s %x %d" % (k, c["op"], FL_6_4, c["flags"]))
        for name, value in zip(PARAM_NAMES[c["op"]], c["params"]):
            if value is None:  # an optional struct left NULL
                continue
            if isinstance(value, Size2D):  # a DML_SIZE_2D
                manifest.append("size2d %s %d %d" % (name, value[0], value[1]))
            elif isinstance(value, FloatArray):  # a FLOAT_ARRAY, as bits
                manifest.append("farray %s %d %s" % (name, len(value), " ".join("%x" % v for v in value)))
            elif isinstance(value, tuple):  # a struct of FLOAT fields, as bits
                manifest.append("struct %s %d %s" % (name, len(value), " ".join("0x%08x" % v for v in value)))
            elif isinstance(value, list):
                manifest.append("array %s %d %s" % (name, len(value), " ".join(map(str, value))))
            elif isinstance(value, Bits):
                manifest.append("bits %s %x" % (name, value))
            else:
                manifest.append("param %s %d" % (name, value))
        for name, values in c["arrays"]:
            manifest.append("array %s %d %s" % (name, len(values), " ".join(str(int(x)) for x in values)))
        c["offsets"] = []
        for t in c["tensors"]:
            blob += bytes((-len(blob)) % 16)
            c["offsets"].append(len(blob))
            manifest.append(t.line(len(blob)))
            blob += t.data
        manifest.append("run")

    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, x) for x in ("manifest.txt", "in.bin", "out.bin")]
        with open(paths[0], "w") as f:
            f.write("\n".join(manifest) + "\n")
        with open(paths[1], "wb") as f:
            f.write(blob)
        proc = subprocess.run([args.driver] + paths, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.stdout.write(proc.stdout[-2000:])
            sys.stderr.write(proc.stderr[-4000:])
            print("repro: %s" % repro_command(args, None if args.only is None else args.only))
            print("numpy: 0 passed, %d failed (driver exit status %d, seed %d)" % (len(ids), proc.returncode,
                                                                                 args.seed))
            return 1
        with open(paths[2], "rb") as f:
            out_blob = f.read()

    results = {}
    for line in proc.stdout.splitlines():
        parts = line.split(" ", 3)
        if parts[0] == "result":
            results[int(parts[1])] = (parts[2], parts[3] if len(parts) > 3 else "")

    passed = failed = 0
    for k in ids:
        c = cases[k]
        problems = []
        status, message = results.get(k, ("(no result)", ""))
        if status != c["want_status"]:
            problems.append("status %s (%s), want %s" % (status, message, c["want_status"]))
        outs = [(t, off) for t, off in zip(c["tensors"], c["offsets"]) if t.is_output]
        for i, (t, off) in enumerate(outs):
            got = out_blob[off:off + t.total]
            want = expected_bytes(t, c["expected"][i] if c["want_status"] == "DMLREF_OK" else None)
            if got != want:
                first = next(j for j in range(t.total) if got[j] != want[j])
                problems.append("output %d: %d of %d bytes differ, first at byte %d (got %02x, want %02x)" % (
                    i, sum(1 for j in range(t.total) if got[j] != want[j]), t.total, first, got[first], want[first]))
        if problems:
            failed += 1
            print("FAIL case %d: %s" % (k, c["desc"]))
            for t in c["tensors"]:
                print("    %s dtype %d sizes %s strides %s total %d" % ("out" if t.is_output else "in ", t.dtype,
                                                                      t.sizes, t.strides, t.total))
            for p in problems:
                print("    " + p)
            print("repro: %s" % repro_command(args, k))
        else:
            passed += 1
            if args.verbose:
                print("ok case %d: %s" % (k, c["desc"]))
    if failed:
        print("seed %d, driver byte order %s" % (args.seed, order))
    print("numpy: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
