"""One drawer per operator (a hypothesis strategy of Drawn calls): the shapes and
parameters that make a valid call of that operator, over the primitives of _draw.  The
registry (_registry.DRAWERS) names each operator's drawer."""
import math

import numpy as np
from hypothesis import strategies as st

from .. import _types
from .._ops import gather_sizes
from ._draw import Drawn, _common, _fill, _index_values, _input, layouts, shapes
from ._probe import MAX_ELEMENTS, support


@st.composite
def gather(draw, feature_level=None, **types):
    n, dt, it, rng = draw(_common("GATHER", feature_level, **types))
    axis = draw(st.integers(0, n - 1))
    k = draw(st.integers(0, min(n, axis + 1)))
    ins = draw(shapes(n, fixed={d: 1 for d in range(max(k - 1, 0))}, budget=64))
    ixs = draw(shapes(n, fixed={d: 1 for d in range(n - k)}, high=3, budget=16))
    outs = gather_sizes(ins, ixs, axis, k)
    x = _input(draw, rng, dt, ins)
    idx = _input(draw, rng, it, ixs)
    idx[...] = _index_values(rng, it, ins[axis], idx.size).reshape(ixs)
    return Drawn("GATHER", [x, idx], {"axis": axis, "index_dimensions": k}, feature_level,
                 [(outs, draw(layouts(outs, broadcast=False)))])


@st.composite
def gather_elements(draw, feature_level=None, **types):
    n, dt, it, rng = draw(_common("GATHER_ELEMENTS", feature_level, **types))
    axis = draw(st.integers(0, n - 1))
    ins = draw(shapes(n, budget=64))
    ixs = list(ins)
    ixs[axis] = draw(st.integers(1, 4))
    ixs = tuple(ixs)
    x = _input(draw, rng, dt, ins)
    idx = _input(draw, rng, it, ixs)
    idx[...] = _index_values(rng, it, ins[axis], idx.size).reshape(ixs)
    return Drawn("GATHER_ELEMENTS", [x, idx], {"axis": axis}, feature_level,
                 [(ixs, draw(layouts(ixs, broadcast=False)))])


@st.composite
def scatter_nd(draw, feature_level=None, **types):
    n, dt, it, rng = draw(_common("SCATTER_ND", feature_level, **types))
    r = draw(st.integers(1, n))
    t = draw(st.integers(1, r))
    q = draw(st.integers(1, min(n, n - (r - t) + 1)))
    ins = draw(shapes(n, fixed={d: 1 for d in range(n - r)}, budget=128))
    J = list(draw(shapes(q - 1, high=3, budget=16)))
    targets = math.prod(ins[n - r:n - r + t])
    while math.prod(J) > targets:
        J[J.index(max(J))] = 1
    ixs = (1,) * (n - q) + tuple(J) + (t,)
    m = (q - 1) + (r - t)
    ups = (1,) * (n - m) + tuple(J) + tuple(ins[n - r + t:])
    x = _input(draw, rng, dt, ins)
    # distinct targets; no zero strides on the indices (a repeated tuple would be a duplicate)
    idx = _input(draw, rng, it, ixs, broadcast=False)
    count = math.prod(J)
    flat = rng.choice(targets, size=count, replace=False)
    tuples = np.stack(np.unravel_index(flat, ins[n - r:n - r + t]), axis=-1) if count else np.zeros((0, t), int)
    if np.dtype(it).kind == "i":
        neg = rng.random(tuples.shape) < 0.5
        tuples = np.where(neg, tuples - np.array(ins[n - r:n - r + t]), tuples)
    idx[...] = tuples.astype(it).reshape(ixs)
    upd = _input(draw, rng, dt, ups)
    kw = {}
    if draw(st.booleans()) or r != n:
        kw["input_dimension_count"] = r
    if draw(st.booleans()) or q != n:
        kw["indices_dimension_count"] = q
    return Drawn("SCATTER_ND", [x, idx, upd], kw, feature_level, [(ins, draw(layouts(ins, broadcast=False)))])


@st.composite
def gather_nd(draw, feature_level=None, *, nd1=False, **types):
    """GATHER_ND, or GATHER_ND1 (nd1): R, a tuple length T, B (nd1) and Q drawn so that
    M = (Q-1) + (R-B-T) <= N; every component in range for its own input dimension."""
    operator = "GATHER_ND1" if nd1 else "GATHER_ND"
    n, dt, it, rng = draw(_common(operator, feature_level, **types))
    r = draw(st.integers(1, n))
    t = draw(st.integers(1, r))
    b = draw(st.integers(0, r - t)) if nd1 else 0
    q = draw(st.integers(b + 1, min(n, n - (r - b - t) + 1)))
    m = (q - 1) + (r - b - t)
    ins = draw(shapes(n, fixed={d: 1 for d in range(n - r)}, budget=64))
    big_i = ins[n - r:]
    grid = draw(shapes(q - 1 - b, high=3, budget=16))
    ixs = (1,) * (n - q) + tuple(big_i[:b]) + tuple(grid) + (t,)
    outs = (1,) * (n - m) + ixs[n - q:n - 1] + tuple(big_i[b + t:])
    x = _input(draw, rng, dt, ins)
    idx = _input(draw, rng, it, ixs)
    # components that share a slot (a zero stride on the last dimension) suit the smallest dimension
    shared = t > 1 and idx.strides[-1] == 0
    for c in range(t):
        bound = min(big_i[b:b + t]) if shared else big_i[b + c]
        idx[..., c] = _index_values(rng, it, bound, math.prod(ixs[:-1])).reshape(ixs[:-1])
    kw = {}
    if draw(st.booleans()) or r != n:
        kw["input_dimension_count"] = r
    if draw(st.booleans()) or q != n:
        kw["indices_dimension_count"] = q
    if nd1 and (draw(st.booleans()) or b != 0):
        kw["batch_dimension_count"] = b
    return Drawn(operator, [x, idx], kw, feature_level, [(outs, draw(layouts(outs, broadcast=False)))])


def gather_nd1(feature_level=None, **types):
    return gather_nd(feature_level, nd1=True, **types)


@st.composite
def scatter(draw, feature_level=None, **types):
    n, dt, it, rng = draw(_common("SCATTER", feature_level, **types))
    axis = draw(st.integers(0, n - 1))
    ins = draw(shapes(n, budget=64))
    a_size = ins[axis]
    ixs = tuple(draw(st.integers(1, a_size)) if d == axis else s for d, s in enumerate(ins))
    x = _input(draw, rng, dt, ins)
    # distinct targets on every line (every coordinate but the axis): the first K of a
    # permutation; no zero strides on the indices (a repeated value would be a duplicate)
    idx = _input(draw, rng, it, ixs, broadcast=False)
    order = np.argsort(rng.random([a_size if d == axis else s for d, s in enumerate(ixs)]), axis=axis)
    vals = np.take(order, np.arange(ixs[axis]), axis=axis)
    if np.dtype(it).kind == "i":
        vals = np.where(rng.random(ixs) < 0.5, vals - a_size, vals)
    idx[...] = vals.astype(it)
    upd = _input(draw, rng, dt, ixs)
    return Drawn("SCATTER", [x, idx, upd], {"axis": axis}, feature_level, [(ins, draw(layouts(ins, broadcast=False)))])


@st.composite
def split(draw, feature_level=None, **types):
    n, dt, _, rng = draw(_common("SPLIT", feature_level, **types))
    axis = draw(st.integers(0, n - 1))
    pieces = draw(st.lists(st.integers(1, 3), min_size=1, max_size=6))
    ins = draw(shapes(n, fixed={axis: sum(pieces)}, high=3, budget=96))
    x = _input(draw, rng, dt, ins)
    outs = [tuple(p if d == axis else s for d, s in enumerate(ins)) for p in pieces]
    return Drawn("SPLIT", [x], {"axis": axis, "sizes": pieces}, feature_level,
                 [(o, draw(layouts(o, broadcast=False))) for o in outs])


@st.composite
def join(draw, feature_level=None, **types):
    n, dt, _, rng = draw(_common("JOIN", feature_level, **types))
    axis = draw(st.integers(0, n - 1))
    pieces = draw(st.lists(st.integers(1, 3), min_size=1, max_size=6))
    base = draw(shapes(n, fixed={axis: 1}, high=3, budget=32))
    ins = [tuple(p if d == axis else s for d, s in enumerate(base)) for p in pieces]
    xs = [_input(draw, rng, dt, s) for s in ins]
    outs = tuple(sum(pieces) if d == axis else s for d, s in enumerate(base))
    return Drawn("JOIN", [xs], {"axis": axis}, feature_level, [(outs, draw(layouts(outs, broadcast=False)))])


@st.composite
def tile(draw, feature_level=None, **types):
    n, dt, _, rng = draw(_common("TILE", feature_level, **types))
    ins = draw(shapes(n, budget=48))
    reps, prod = [], math.prod(ins)
    for _ in range(n):
        r = draw(st.integers(1, max(1, min(4, MAX_ELEMENTS // prod))))
        reps.append(r)
        prod *= r
    x = _input(draw, rng, dt, ins)
    outs = tuple(s * r for s, r in zip(ins, reps))
    return Drawn("TILE", [x], {"repeats": reps}, feature_level, [(outs, draw(layouts(outs, broadcast=False)))])


@st.composite
def _slice_any(draw, operator, feature_level=None, **types):
    """A window per dimension (offset, size, stride: SLICE >= 1, SLICE1 either sign) and
    an output of at most the elements the window reaches."""
    n, dt, _, rng = draw(_common(operator, feature_level, **types))
    v1 = operator == "SLICE1"
    ins = draw(shapes(n, high=5, budget=128))
    offs, sizes, steps, outs = [], [], [], []
    for d in range(n):
        off = draw(st.integers(0, ins[d] - 1))
        size = draw(st.integers(1, ins[d] - off))
        mag = draw(st.integers(1, size))
        step = -mag if v1 and draw(st.booleans()) else mag
        offs.append(off), sizes.append(size), steps.append(step)
        outs.append(draw(st.integers(1, 1 + (size - 1) // mag)))
    x = _input(draw, rng, dt, ins)
    if v1:
        kw = {"input_window_offsets": offs, "input_window_sizes": sizes, "input_window_strides": steps}
    else:
        kw = {"offsets": offs, "sizes": outs, "strides": steps}
    outs = tuple(outs)
    return Drawn(operator, [x], kw, feature_level, [(outs, draw(layouts(outs, broadcast=False)))])


def slice_(feature_level=None, **types):
    return _slice_any("SLICE", feature_level, **types)


def slice1(feature_level=None, **types):
    return _slice_any("SLICE1", feature_level, **types)


@st.composite
def one_hot(draw, feature_level=None, **types):
    n, dt, it, rng = draw(_common("ONE_HOT", feature_level, **types))
    axis = draw(st.integers(0, n - 1))
    depth = draw(st.integers(1, 8))
    outs = draw(shapes(n, fixed={axis: depth}, budget=128))
    ixs = tuple(1 if d == axis else s for d, s in enumerate(outs))
    vs = list(draw(shapes(n, high=2, budget=8)))
    if math.prod(vs) < 2:
        vs[draw(st.integers(0, n - 1))] = 2
    vs = tuple(vs)
    idx = _input(draw, rng, it, ixs)
    signed = np.dtype(it).kind == "i"
    # in [0, depth), from the end now and then, and now and then just past the depth (documented: all off)
    idx[...] = rng.integers(-depth if signed else 0, depth + 2, size=idx.size).astype(it).reshape(ixs)
    values = _input(draw, rng, dt, vs)
    return Drawn("ONE_HOT", [idx, values], {"axis": axis, "depth": depth}, feature_level,
                 [(outs, draw(layouts(outs, broadcast=False)))])


@st.composite
def reverse_subsequences(draw, feature_level=None, **types):
    """An input of any layout, an Axis (its size up to 8), and SequenceLengthsTensor shaped
    like the input with 1 along Axis (UINT32, or UINT64 where the level has it; gapped or
    broadcast like any input) holding lengths in [0, n], now and then above n (clamped,
    documented) or the type's largest value."""
    n, dt, it, rng = draw(_common("REVERSE_SUBSEQUENCES", feature_level, **types))
    axis = draw(st.integers(0, n - 1))
    ins = draw(shapes(n, fixed={axis: draw(st.integers(1, 8))}, budget=128))
    lens = tuple(1 if d == axis else s for d, s in enumerate(ins))
    x = _input(draw, rng, dt, ins)
    lengths = _input(draw, rng, it, lens)
    a_size, count = ins[axis], math.prod(lens)
    vals = rng.integers(0, a_size + 1, size=count).astype(np.uint64)
    k = rng.random(count)
    vals = np.where(k < 0.1, np.uint64(a_size + 1) + rng.integers(0, 3, size=count).astype(np.uint64), vals)
    vals = np.where(k > 0.95, np.uint64(np.iinfo(it).max), vals)
    lengths[...] = vals.astype(it).reshape(lens)
    return Drawn("REVERSE_SUBSEQUENCES", [x, lengths], {"axis": axis}, feature_level,
                 [(ins, draw(layouts(ins, broadcast=False)))])


@st.composite
def same_shape(draw, operator, feature_level=None, **types):
    """Any operator of one input and one output of the same sizes and no required
    parameter (ELEMENT_WISE_IDENTITY and the element-wise operators to come)."""
    n, dt, _, rng = draw(_common(operator, feature_level, **types))
    s = draw(shapes(n, budget=128))
    x = _input(draw, rng, dt, s)
    return Drawn(operator, [x], {}, feature_level, [(s, draw(layouts(s, broadcast=False)))])


def _band_end(draw, h, w):
    """A band end of DIAGONAL_MATRIX(1): across the matrix, or now and then an INT32 extreme."""
    return draw(st.one_of(st.integers(-h - 1, w + 1), st.sampled_from([-(2**31), 2**31 - 1])))


@st.composite
def diagonal_matrix(draw, feature_level=None, **types):
    """DIAGONAL_MATRIX: no input; shape= and dtype= give the output, Offset across the matrix or
    far off, a Value every data type holds exactly (golden cases leave the FLOAT's conversion out)."""
    n, dt, _, rng = draw(_common("DIAGONAL_MATRIX", feature_level, **types))
    s = draw(shapes(n, high=6, budget=128))
    if dt.kind == "f":
        value = draw(st.one_of(st.integers(-1000, 1000).map(lambda v: v / 8),
                               st.sampled_from([1.0, -0.0, float("inf"), float("-inf")])))
    else:
        value = float(draw(st.integers(-100 if dt.kind == "i" else 0, 100)))
    kw = {"offset": _band_end(draw, s[-2], s[-1]), "value": value, "shape": s, "dtype": dt}
    return Drawn("DIAGONAL_MATRIX", [], kw, feature_level, [(s, draw(layouts(s, broadcast=False)))])


@st.composite
def diagonal_matrix1(draw, feature_level=None, **types):
    """DIAGONAL_MATRIX1: the input (strided, broadcast) half of the time, shape= and dtype= when
    there is none; any bits as the union Value (NaN payloads), its data type the output's by
    default; a band across the matrix, empty, inverted or half-infinite."""
    n, dt, _, rng = draw(_common("DIAGONAL_MATRIX1", feature_level, **types))
    s = draw(shapes(n, high=6, budget=128))
    value = _fill(rng, dt, 1)
    kw = {"value": value[0] if draw(st.booleans()) else value.tobytes(),
          "diagonal_fill_begin": _band_end(draw, s[-2], s[-1]), "diagonal_fill_end": _band_end(draw, s[-2], s[-1])}
    if draw(st.booleans()):
        kw["value_data_type"] = _types.data_type(dt)
    args = []
    if draw(st.booleans()):
        args = [_input(draw, rng, dt, s)]
    else:
        kw.update(shape=s, dtype=dt)
    return Drawn("DIAGONAL_MATRIX1", args, kw, feature_level, [(s, draw(layouts(s, broadcast=False)))])


def depth_space(operator):
    """The drawer of DEPTH_TO_SPACE, SPACE_TO_DEPTH or a 1 form: a 4-D depth tensor
    {N, C*B*B, H, W} and space tensor {N, C, H*B, W*B}, B 1 to 3, either Order."""
    to_space, has_order = operator.startswith("DEPTH"), operator.endswith("1")

    @st.composite
    def draw_case(draw, feature_level=None, **types):
        _, dt, _, rng = draw(_common(operator, feature_level, **types))
        b = draw(st.integers(1, 3))
        nb, c, h, w = draw(shapes(4, budget=MAX_ELEMENTS // (b * b)))
        depth, space = (nb, c * b * b, h, w), (nb, c, h * b, w * b)
        ins, outs = (depth, space) if to_space else (space, depth)
        kw = {"block_size": b}
        if has_order:
            kw["order"] = draw(st.integers(0, 1))  # DEPTH_COLUMN_ROW, COLUMN_ROW_DEPTH
        return Drawn(operator, [_input(draw, rng, dt, ins)], kw, feature_level,
                     [(outs, draw(layouts(outs, broadcast=False)))])
    return draw_case


_PAD_MODES = ("CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP")


def _pad_modes(feature_level):
    """The padding modes defined at the level (rule PD4): SYMMETRIC from 3_0, WRAP from 6_4."""
    fl = _types.level(feature_level)
    return [m for m, since in zip(_PAD_MODES, ("1_0", "1_0", "1_0", "3_0", "6_4")) if fl >= _types.LEVELS[since]]


def _padding(operator):
    @st.composite
    def draw_padding(draw, feature_level=None, **types):
        n, dt, _, rng = draw(_common(operator, feature_level, **types))
        ins = draw(shapes(n, budget=32))
        start = [draw(st.integers(0, 3)) if draw(st.booleans()) else 0 for _ in range(n)]
        end = [draw(st.integers(0, 3)) if draw(st.booleans()) else 0 for _ in range(n)]
        if draw(st.integers(0, 4)) == 0:  # a pad larger than the input (PD6)
            d = draw(st.integers(0, n - 1))
            start[d] += 2 * ins[d] + 1
        outs = tuple(s + a + b for s, a, b in zip(ins, start, end))
        while math.prod(outs) > MAX_ELEMENTS:
            pads = [a + b for a, b in zip(start, end)]
            d = pads.index(max(pads))  # halve the largest padding (the input alone is <= 32)
            start[d], end[d] = start[d] // 2, end[d] // 2
            outs = tuple(s + a + b for s, a, b in zip(ins, start, end))
        x = _input(draw, rng, dt, ins)
        kw = {"padding_mode": _PAD_MODES.index(draw(st.sampled_from(_pad_modes(feature_level)))),
              "start_padding": start, "end_padding": end}
        if operator == "PADDING1":  # any bits of the element type
            kw["padding_value_data_type"] = _types.data_type(dt)
            kw["padding_value"] = _fill(rng, dt, 1).tobytes() + bytes(8 - np.dtype(dt).itemsize)
        else:  # values every type represents exactly (the conversion: tests/test_padding.py)
            kw["padding_value"] = float(draw(st.integers(0 if np.dtype(dt).kind == "u" else -100, 100)))
        return Drawn(operator, [x], kw, feature_level, [(outs, draw(layouts(outs, broadcast=False)))])
    return draw_padding


@st.composite
def unfold(draw, feature_level=None, **types):
    """UNFOLD: WindowSizes 1-3, Strides 1-3, Dilations 1-2, paddings 0-2 over the D - 2 spatial
    dims (a window that would not fit the padded input is 1: UF5); windows and paddings of the
    dims from the first on dropped until the output {1 x (D-3), N, C*prod(W), prod(B)} is small."""
    n, dt, _, rng = draw(_common("UNFOLD", feature_level, **types))
    k = n - 2
    ins = draw(shapes(n, budget=48))
    w, s, dil, p0, p1 = [], [], [], [], []
    for d in range(k):
        a, b, ds = draw(st.integers(0, 2)), draw(st.integers(0, 2)), draw(st.integers(1, 2))
        win = draw(st.integers(1, 3))
        if ins[2 + d] + a + b < ds * (win - 1) + 1:
            win = 1
        w.append(win), s.append(draw(st.integers(1, 3))), dil.append(ds), p0.append(a), p1.append(b)

    def out_shape():
        blocks = [(ins[2 + d] + p0[d] + p1[d] - dil[d] * (w[d] - 1) - 1) // s[d] + 1 for d in range(k)]
        return (1,) * (n - 3) + (ins[0], ins[1] * math.prod(w), math.prod(blocks))

    d = 0
    while math.prod(out_shape()) > MAX_ELEMENTS:
        w[d], p0[d], p1[d] = 1, 0, 0
        d += 1
    x = _input(draw, rng, dt, ins)
    outs = out_shape()
    kw = {"window_sizes": w, "strides": s, "dilations": dil, "start_padding": p0, "end_padding": p1}
    return Drawn("UNFOLD", [x], kw, feature_level, [(outs, draw(layouts(outs, broadcast=False)))])


@st.composite
def cast(draw, feature_level=None, **types):
    """CAST: an input of any type of the level (strided, broadcast), an output of any type of the
    level (every pair, equal types included) and the same shape (dtype= gives its type)."""
    n, dt, _, rng = draw(_common("CAST", feature_level, **types))
    to = _types.DTYPES[draw(st.sampled_from(support("CAST", feature_level)[n][0]))]
    s = draw(shapes(n, budget=128))
    x = _input(draw, rng, dt, s)
    return Drawn("CAST", [x], {"dtype": to}, feature_level, [(s, draw(layouts(s, broadcast=False)))])


@st.composite
def slice_grad(draw, feature_level=None, **types):
    """SLICE1's window drawn over the output gradient (the forward input): per dimension an
    offset, a size and a stride of either sign; an input gradient of at most the elements the
    window reaches; the output gradient's shape given (shape=)."""
    n, dt, _, rng = draw(_common("SLICE_GRAD", feature_level, **types))
    outs = draw(shapes(n, high=5, budget=128))
    offs, sizes, steps, ins = [], [], [], []
    for d in range(n):
        off = draw(st.integers(0, outs[d] - 1))
        size = draw(st.integers(1, outs[d] - off))
        mag = draw(st.integers(1, size))
        offs.append(off), sizes.append(size), steps.append(-mag if draw(st.booleans()) else mag)
        ins.append(draw(st.integers(1, 1 + (size - 1) // mag)))
    x = _input(draw, rng, dt, tuple(ins))
    kw = {"input_window_offsets": offs, "input_window_sizes": sizes, "input_window_strides": steps,
          "shape": list(outs)}
    return Drawn("SLICE_GRAD", [x], kw, feature_level, [(tuple(outs), draw(layouts(tuple(outs), broadcast=False)))])


@st.composite
def max_unpooling(draw, feature_level=None, **types):
    """A 4-D input and the indices a kh x kw max pooling gives (one target per window, flat over
    the whole output {N, C, H*kh, W*kw}); now and then a repeated target (the last wins) or one
    past the end (clamped), both documented; the output's shape given (shape=)."""
    n, dt, it, rng = draw(_common("MAX_UNPOOLING", feature_level, **types))
    ins = draw(shapes(n, high=3, budget=24))
    kh, kw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    outs = (ins[0], ins[1], ins[2] * kh, ins[3] * kw)
    x = _input(draw, rng, dt, ins)
    idx = _input(draw, rng, it, ins, broadcast=False)
    nn, cc, hh, ww = np.indices(ins)
    y = hh * kh + rng.integers(0, kh, size=ins)
    z = ww * kw + rng.integers(0, kw, size=ins)
    vals = ((nn * outs[1] + cc) * outs[2] + y) * outs[3] + z
    count = math.prod(outs)
    k = rng.random(ins)
    vals = np.where(k < 0.05, count + rng.integers(0, 3, size=ins), vals)
    vals = np.where((k >= 0.05) & (k < 0.1), vals.reshape(-1)[0], vals)
    idx[...] = vals.astype(it)
    return Drawn("MAX_UNPOOLING", [x, idx], {"shape": list(outs)}, feature_level,
                 [(outs, draw(layouts(outs, broadcast=False)))])
@st.composite
def top_k(draw, feature_level=None, *, op="TOP_K", **types):
    """TOP_K, or TOP_K1 (op): any Axis, K from 1 to the axis size (1 and the whole size often),
    inputs mostly from a small palette (ties; floats with +-0, +-Inf and NaNs of several
    payloads), now and then one value throughout; UINT32 indices, or UINT64 from 5_0."""
    n, dt, _, rng = draw(_common(op, feature_level, **types))
    ins = draw(shapes(n, budget=64))
    axis = draw(st.integers(0, n - 1))
    k = draw(st.sampled_from([1, ins[axis], draw(st.integers(1, ins[axis]))]))
    x = _input(draw, rng, dt, ins)
    d = np.dtype(dt)
    if d.kind == "f":
        isz = d.itemsize
        specials = {2: [0, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE01, 0x7C05], 4: [0, 0x80000000, 0x7F800000,
                    0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800003], 8: [0, 1 << 63]}[isz]
        pal = np.array([draw(st.sampled_from(specials)) for _ in range(2)], f"u{isz}").view(d)
    else:
        pal = np.array([draw(st.integers(0, 3)) for _ in range(2)]).astype(d)
    pal = np.concatenate([pal, np.ascontiguousarray(x).reshape(-1)[:2]])
    if all(st_ != 0 for st_ in x.strides):  # (a broadcast input has its ties already)
        mask = rng.random(x.shape) < draw(st.sampled_from([0.0, 0.5, 1.0]))
        x[...] = np.where(mask, pal[rng.integers(0, len(pal), size=x.shape)], x)
    kw = {"axis": axis, "k": k}
    if op == "TOP_K1":
        kw["axis_direction"] = draw(st.sampled_from(["INCREASING", "DECREASING"]))
    wide = feature_level is None or _types.level(feature_level) >= _types.level("5_0")
    it = np.uint64 if wide and draw(st.booleans()) else np.uint32
    outs = tuple(k if a == axis else s for a, s in enumerate(ins))
    return Drawn(op, [x], kw, feature_level, [(outs, draw(layouts(outs, broadcast=False))),
                                              (outs, draw(layouts(outs, broadcast=False)))], [dt, it])


def top_k1(feature_level=None, **types):
    return top_k(feature_level, op="TOP_K1", **types)


# The RESAMPLE family's scales: integer upscales, nice ratios out / in, float32 values in
# [1/16, 8), FLT_MAX and a tiny 2^-100; offsets 0, +-0.5, 1 or any finite float32 in (-4, 4).
_FLT_MAX = float(np.finfo(np.float32).max)


def _resample_dims(draw, n, ins):
    outs, scales, in_off, out_off = [], [], [], []
    for s in ins:
        kind = draw(st.integers(0, 4))
        if kind == 0:
            k = draw(st.integers(1, 3))
            o, sc = s * k, float(k)
        elif kind == 1:
            o = draw(st.integers(1, 2 * s + 1))
            sc = float(np.float32(o) / np.float32(s))
        elif kind == 2:
            o = draw(st.integers(1, 2 * s + 1))
            sc = draw(st.floats(1 / 16, 8, width=32, exclude_max=True))
        else:
            o = draw(st.integers(1, 4))
            sc = _FLT_MAX if kind == 3 else 2.0 ** -100
        outs.append(o)
        scales.append(sc)
        offset = st.one_of(st.sampled_from([0.0, 0.5, -0.5, 1.0]), st.floats(-4, 4, width=32))
        in_off.append(draw(offset))
        out_off.append(draw(offset))
    if math.prod(outs) > MAX_ELEMENTS:
        outs = [1] * n
    return tuple(outs), scales, in_off, out_off


@st.composite
def resample2(draw, feature_level=None, **types):
    n, dt, _, rng = draw(_common("RESAMPLE2", feature_level, **types))
    ins = draw(shapes(n, budget=32))
    outs, scales, in_off, out_off = _resample_dims(draw, n, ins)
    x = _input(draw, rng, dt, ins)
    return Drawn("RESAMPLE2", [x], {"interpolation_mode": "NEAREST_NEIGHBOR",
                                     "rounding_direction": draw(st.sampled_from(["INCREASING", "DECREASING"])),
                                     "scales": scales, "input_pixel_offsets": in_off,
                                     "output_pixel_offsets": out_off, "shape": list(outs)},
                 feature_level, [(outs, draw(layouts(outs, broadcast=False)))])


@st.composite
def resample(draw, feature_level=None, **types):
    n, dt, _, rng = draw(_common("RESAMPLE", feature_level, **types))
    ins = draw(shapes(n, budget=32))
    outs, scales, _, _ = _resample_dims(draw, n, ins)
    x = _input(draw, rng, dt, ins)
    return Drawn("RESAMPLE", [x], {"interpolation_mode": "NEAREST_NEIGHBOR", "scales": scales, "shape": list(outs)},
                 feature_level, [(outs, draw(layouts(outs, broadcast=False)))])


@st.composite
def resample1(draw, feature_level=None, **types):
    n, dt, _, rng = draw(_common("RESAMPLE1", feature_level, **types))
    ins = draw(shapes(n, budget=32))
    outs, scales, in_off, out_off = _resample_dims(draw, n, ins)
    x = _input(draw, rng, dt, ins)
    return Drawn("RESAMPLE1", [x], {"interpolation_mode": "NEAREST_NEIGHBOR", "scales": scales,
                                     "input_pixel_offsets": in_off, "output_pixel_offsets": out_off,
                                     "shape": list(outs)},
                 feature_level, [(outs, draw(layouts(outs, broadcast=False)))])


@st.composite
def resample3(draw, feature_level=None, **types):
    n, dt, _, rng = draw(_common("RESAMPLE3", feature_level, **types))
    ins = draw(shapes(n, budget=32))
    outs, scales, in_off, out_off = _resample_dims(draw, n, ins)
    x = _input(draw, rng, dt, ins)
    return Drawn("RESAMPLE3", [x], {"interpolation_mode": "NEAREST_NEIGHBOR",
                                     "rounding_direction": draw(st.sampled_from(["INCREASING", "DECREASING"])),
                                     "scales": scales, "input_pixel_offsets": in_off,
                                     "output_pixel_offsets": out_off, "antialiased": draw(st.booleans()),
                                     "shape": list(outs)},
                 feature_level, [(outs, draw(layouts(outs, broadcast=False)))])


@st.composite
def upsample_2d(draw, feature_level=None, **types):
    n, dt, _, rng = draw(_common("UPSAMPLE_2D", feature_level, **types))
    ins = draw(shapes(n, budget=32))
    w, h = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    if math.prod(ins) * w * h > MAX_ELEMENTS:
        w = h = 1
    outs = tuple(s * (h if d == n - 2 else w if d == n - 1 else 1) for d, s in enumerate(ins))
    x = _input(draw, rng, dt, ins)
    return Drawn("UPSAMPLE_2D", [x], {"scale_size": {"Width": w, "Height": h}, "interpolation_mode": "NEAREST_NEIGHBOR"},
                 feature_level, [(outs, draw(layouts(outs, broadcast=False)))])


@st.composite
def element_wise_if(draw, feature_level=None, **types):
    """ELEMENT_WISE_IF: a UINT8 condition (0 half of the time, else any nonzero byte: true) and
    A, B of the data type, each strided or broadcast (zero strides, as ONNX Where's callers
    broadcast); the output of the same shape."""
    n, dt, _, rng = draw(_common("ELEMENT_WISE_IF", feature_level, **types))
    s = draw(shapes(n, budget=128))
    cond = _input(draw, rng, np.uint8, s)
    count = math.prod(s)
    zero = rng.random(size=count) < 0.5
    cond[...] = np.where(zero, 0, rng.integers(1, 256, size=count)).astype(np.uint8).reshape(s)
    a, b = _input(draw, rng, dt, s), _input(draw, rng, dt, s)
    return Drawn("ELEMENT_WISE_IF", [cond, a, b], {}, feature_level, [(s, draw(layouts(s, broadcast=False)))])


@st.composite
def fill_value_constant(draw, feature_level=None, **types):
    """FILL_VALUE_CONSTANT: no input; shape= and dtype= give the output, any bits as the union
    Value (NaN payloads, -0, FLOAT16 patterns), its data type the output's by default."""
    n, dt, _, rng = draw(_common("FILL_VALUE_CONSTANT", feature_level, **types))
    s = draw(shapes(n, budget=128))
    value = _fill(rng, dt, 1)
    kw = {"value": value[0] if draw(st.booleans()) else value.tobytes(), "shape": s, "dtype": dt}
    if draw(st.booleans()):
        kw["value_data_type"] = _types.data_type(dt)
    return Drawn("FILL_VALUE_CONSTANT", [], kw, feature_level, [(s, draw(layouts(s, broadcast=False)))])


@st.composite
def fill_value_sequence(draw, feature_level=None, **types):
    """FILL_VALUE_SEQUENCE: no input; shape= and dtype= give the output (any layout: the
    sequence follows the logical index), ValueStart and ValueDelta any bits of the type (integer
    sequences wrap, float ones round, overflow, or give NaN)."""
    n, dt, _, rng = draw(_common("FILL_VALUE_SEQUENCE", feature_level, **types))
    s = draw(shapes(n, budget=128))
    start, delta = _fill(rng, dt, 2)
    kw = {"value_start": start, "value_delta": delta.tobytes() if draw(st.booleans()) else delta,
          "shape": s, "dtype": dt}
    return Drawn("FILL_VALUE_SEQUENCE", [], kw, feature_level, [(s, draw(layouts(s, broadcast=False)))])


@st.composite
def nonzero_coordinates(draw, feature_level=None, **types):
    """NONZERO_COORDINATES: an input of the level's dimension counts, now and then with leading 1s,
    its elements zero, -0 (floats), NaN payloads or anything (so all-zero, all-nonzero and sparse
    inputs come up), strided or broadcast; components= N from the effective rank up to the rank;
    the two UINT32 outputs {1, ..., 1} and {1, ..., M, N} (rank max(n, 2), as the function gives)."""
    n, dt, _, rng = draw(_common("NONZERO_COORDINATES", feature_level, **types))
    s = list(draw(shapes(n, budget=128)))
    lead = draw(st.integers(0, n - 1))
    for d in range(lead):
        s[d] = 1
    s = tuple(s)
    eff = n - next((d for d, x in enumerate(s) if x != 1), n)
    N = draw(st.integers(max(eff, 1), n))
    x = _input(draw, rng, dt, s)
    count = math.prod(s)
    u = np.dtype(f"u{np.dtype(dt).itemsize}")
    kind = draw(st.sampled_from(["zero", "nonzero", "sparse", "any"]))
    if kind != "any" and count:
        zero = np.full(count, kind == "zero") if kind != "sparse" else rng.random(size=count) < 0.7
        vals = x.view(u).reshape(-1).copy() if x.flags.c_contiguous else np.ascontiguousarray(x).view(u).reshape(-1)
        sign = u.type(1 << (8 * u.itemsize - 1))
        neg = (rng.random(size=count) < 0.3) & (np.dtype(dt).kind == "f")  # -0 is zero too
        vals = np.where(zero, np.where(neg, sign, u.type(0)), vals)
        if kind == "nonzero":
            vals = np.where((vals & ~sign if np.dtype(dt).kind == "f" else vals) == 0, u.type(1), vals)
        x.view(u)[...] = vals.reshape(s)
    r = max(n, 2)
    outs = ((1,) * r, (1,) * (r - 2) + (count, N))
    return Drawn("NONZERO_COORDINATES", [x], {"components": N}, feature_level,
                 [(o, draw(layouts(o, broadcast=False))) for o in outs], out_dtypes=[np.uint32, np.uint32])


def _argminmax(operator):
    @st.composite
    def draw_it(draw, feature_level=None, **types):
        """ARGMIN / ARGMAX: 1 to 4 distinct reduced axes listed in any order (now and then every
        axis), either AxisDirection, an output of an index type of the level (dtype=) with 1 on
        the reduced axes; the data drawn from a pool of a few of its own values (ties, all-equal
        rows, and whatever specials the input drew: NaNs, +-0, +-Inf)."""
        n, dt, it, rng = draw(_common(operator, feature_level, **types))
        ins = draw(shapes(n, budget=96))
        axes = draw(st.permutations(list(range(n))))[: draw(st.integers(1, min(n, 4)))]
        x = _input(draw, rng, dt, ins, broadcast=False)
        pool = x.reshape(-1)[: draw(st.integers(1, 4))].copy()
        x[...] = pool[rng.integers(0, len(pool), size=ins)]
        outs = tuple(1 if d in axes else s for d, s in enumerate(ins))
        kw = {"axes": list(axes), "axis_direction": draw(st.sampled_from(["INCREASING", "DECREASING"])), "dtype": it}
        return Drawn(operator, [x], kw, feature_level, [(outs, draw(layouts(outs, broadcast=False)))])
    return draw_it


argmin = _argminmax("ARGMIN")
argmax = _argminmax("ARGMAX")
