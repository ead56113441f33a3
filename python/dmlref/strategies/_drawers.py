"""Hypothesis strategies that draw valid dmlref calls, the space `dmlref gen` covers.

    from hypothesis import given
    import dmlref
    from dmlref import strategies

    @given(strategies.cases("GATHER_ELEMENTS"))
    def test_my_backend(case):
        expected = case.call()                        # dmlref's output (numpy)
        actual = my_backend(*case.args, **case.kwargs)
        dmlref.assert_same_bits(actual, expected)

A drawn case (Drawn) holds the inputs as strided numpy views over buffers of
random bits (NaN payloads, signalling NaNs, subnormals, -0.0 included), with
gaps between elements, permuted dimensions and zero (broadcast) strides, 1 to 8
dimensions, every data type and index type the operator has at the feature
level, negative indices where the index type is signed, and every parameter.
Indices are never out of range and SCATTER / SCATTER_ND targets never repeat (DirectML
leaves both open), except ONE_HOT's, which may pass the depth (up to depth + 1): its page
documents that case (the whole sequence is the off value).  The supported data types and dimension counts of a feature
level are asked of the library (dmlref_validate), not written here.
"""
import functools
import math

import numpy as np
from hypothesis import strategies as st

from . import _types
from ._ops import FUNCTIONS, OPERATORS, _is_data_type_enum, gather_sizes, snake

INDEX_TYPES = ("UINT32", "INT32", "UINT64", "INT64")
MAX_ELEMENTS = 256

# Parameter values that make a tensor of all-1 sizes valid (the probe below).
_PROBE = {"Axis": 0, "IndexDimensions": 1, "InputDimensionCount": lambda n: n, "IndicesDimensionCount": 1,
          "Repeats": lambda n: [1] * n, "BlockSize": 1,
          "Offsets": lambda n: [0] * n, "Sizes": lambda n: [1] * n, "Strides": lambda n: [1] * n,
          "InputWindowOffsets": lambda n: [0] * n, "InputWindowSizes": lambda n: [1] * n,
          "InputWindowStrides": lambda n: [1] * n, "StartPadding": lambda n: [0] * n, "EndPadding": lambda n: [0] * n}
# Slots whose probe tensor cannot be all 1s: (operator, slot) -> sizes for n dimensions
# (ONE_HOT's Values must hold two elements at least, rule OH5).
_PROBE_SIZES = {("ONE_HOT", "ValuesTensor"): lambda n: (1,) * (n - 1) + (2,)}


@functools.lru_cache(maxsize=None)
def support(operator, feature_level=None):
    """{dimension count: (data types, index types)} the operator accepts at the level,
    learnt from the library: each combination validated on tensors of all-1 sizes."""
    op = OPERATORS[operator]
    result = {}
    for n in range(1, 9):
        ok_types, ok_index = [], []
        for dt in _types.DTYPES:
            for it in (INDEX_TYPES if any(s["is_index"] for s in op.schema["slots"]) else (None,)):
                tensors = {}
                for s in op.schema["slots"]:
                    name = it if s["is_index"] else dt
                    shape = _PROBE_SIZES.get((operator, s["name"]), lambda n: (1,) * n)(n)
                    t = (_types.CODES[name], shape, None,
                         _types.round4(math.prod(shape) * np.dtype(_types.DTYPES[name]).itemsize))
                    tensors[s["name"]] = [t] if s["is_array"] else t
                params = {}
                for p in op.params:
                    v = _PROBE.get(p["name"], 0)
                    params[p["name"]] = None if p["kind"] == 8 else (v(n) if callable(v) else v)
                    if _is_data_type_enum(p):  # a union's data type: the tensors' (DIAGONAL_MATRIX1)
                        params[p["name"]] = _types.CODES[dt]
                if op.validate(tensors, params, feature_level) is None:
                    if dt not in ok_types:
                        ok_types.append(dt)
                    if it and it not in ok_index:
                        ok_index.append(it)
        if ok_types:
            result[n] = (tuple(ok_types), tuple(ok_index))
    return result


_SPECIAL = {
    2: [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7E01, 0x7D55, 0xFE00, 0x0001, 0x8001, 0x03FF, 0x7BFF],
    4: [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FC00001, 0x7FA00000, 0xFFC00000, 1, 0x80000001,
        0x007FFFFF, 0x7F7FFFFF],
    8: [0, 1 << 63, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0x7FF8000000000001,
        0x7FF4000000000000, 1, 0x000FFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFF],
}


def _fill(rng, dtype, count):
    """count random elements of dtype: random bits, a tenth of them special values
    (signed zeros, infinities, NaNs with payloads, subnormals; integer edges)."""
    dtype = np.dtype(dtype)
    isz = dtype.itemsize
    bits = rng.integers(0, 2**63, size=count, dtype=np.int64).view(np.uint64)
    bits = (bits << np.uint64(1)) ^ rng.integers(0, 2, size=count, dtype=np.int64).view(np.uint64)
    u = bits.astype(f"u{isz}") if isz < 8 else bits
    if dtype.kind == "f":
        specials = np.array(_SPECIAL[isz], dtype=f"u{isz}")
    else:
        info = np.iinfo(dtype)
        specials = np.array([info.min, info.max, 0, 1, -1 if info.min else 2], dtype=dtype).view(f"u{isz}")
    pick = rng.random(count) < 0.1
    u = u.copy()
    u[pick] = specials[rng.integers(0, len(specials), size=int(pick.sum()))]
    return u.view(dtype)


@st.composite
def layouts(draw, shape, *, broadcast=True):
    """Element strides for a tensor of `shape`: packed, or dimensions permuted with
    gaps between elements and rows, and (inputs, broadcast=True) zero strides."""
    n = len(shape)
    kind = draw(st.sampled_from(["packed", "strided", "strided"] + (["broadcast"] if broadcast else [])))
    if kind == "packed":
        return None
    order = draw(st.permutations(range(n)))
    strides = [0] * n
    acc = 1
    for d in reversed(order):
        strides[d] = acc + draw(st.integers(0, 2)) * (acc if draw(st.booleans()) else 1) if shape[d] > 1 else acc
        acc = strides[d] * shape[d] + draw(st.integers(0, 3))
    if kind == "broadcast":
        for d in range(n):
            if draw(st.integers(0, 2)) == 0:
                strides[d] = 0
    return tuple(strides)


def _view(rng, dtype, shape, strides, tail=0):
    """A view of `shape` and element `strides` (None: packed) over a fresh buffer of
    random bits (gaps included), as dmlref receives a strided input."""
    dtype = np.dtype(dtype)
    isz = dtype.itemsize
    if strides is None:
        strides = _packed(shape)
    slots = 1 + sum((s - 1) * t for s, t in zip(shape, strides)) + tail
    slots = (_types.round4(slots * isz) + isz - 1) // isz  # room for TotalTensorSizeInBytes
    base = _fill(rng, dtype, slots)
    return np.ndarray(shape, dtype, buffer=base, offset=0, strides=tuple(s * isz for s in strides))


def _packed(shape):
    st_, acc = [], 1
    for n in reversed(shape):
        st_.append(acc)
        acc *= n
    return tuple(reversed(st_))


@st.composite
def shapes(draw, n, fixed=None, high=4, budget=MAX_ELEMENTS):
    """n sizes, each 1..high, with `fixed` {dimension: size} and a product <= budget."""
    fixed = fixed or {}
    out, prod = [], 1
    for d in range(n):
        if d in fixed:
            out.append(fixed[d])
            prod *= fixed[d]
            continue
        m = max(1, min(high, budget // max(prod, 1)))
        s = draw(st.integers(1, m))
        out.append(s)
        prod *= s
    return tuple(out)


class Drawn:
    """A drawn call: dmlref.<function>(*args, **kwargs, feature_level=...).

    args, kwargs        the inputs (strided views) and parameters
    out_layouts         [(shape, element strides or None)] of each output
    call(out=False)     dmlref's outputs (with out=True: into strided views of
                        buffers prefilled with 0xCD; returns the whole buffers)
    case()              the dmlref.Case of this call (what `dmlref run` replays)
    """

    def __init__(self, operator, args, kwargs, feature_level, out_layouts):
        self.operator = operator
        self.function = FUNCTIONS[snake(operator)]
        self.args = tuple(args)
        self.kwargs = dict(kwargs)
        self.feature_level = feature_level
        self.out_layouts = out_layouts
        # the outputs' type: dtype= (an operator without inputs), else the first input's
        self.dtype = (np.dtype(kwargs["dtype"]) if kwargs.get("dtype") is not None
                      else _first(self.args[OPERATORS[operator].dtype_arg:]).dtype)  # ONE_HOT: the Values

    def __repr__(self):
        def desc(a):
            if isinstance(a, (list, tuple)):
                return "[" + ", ".join(desc(x) for x in a) + "]"
            isz = a.itemsize
            return f"{a.dtype}{list(a.shape)} strides {[s // isz for s in a.strides]}"
        return (f"Drawn({self.operator} at {self.feature_level or 'the newest level'}: " + ", ".join(desc(a) for a in self.args) +
                f", {self.kwargs}, outputs {self.out_layouts})")

    def out_buffers(self):
        """(whole buffers prefilled with 0xCD, the strided views over them) for out=."""
        dtype = self.dtype
        isz = dtype.itemsize
        bufs, views = [], []
        for shape, strides in self.out_layouts:
            eff = strides if strides is not None else _packed(shape)
            slots = 1 + sum((s - 1) * t for s, t in zip(shape, eff))
            total = _types.round4(slots * isz)
            raw = np.full(total, 0xCD, np.uint8)
            flat = raw[: total // isz * isz].view(dtype)
            views.append(np.ndarray(shape, dtype, buffer=flat, strides=tuple(s * isz for s in eff)))
            bufs.append(flat)
        return bufs, views

    def _out_arg(self, views):
        op = OPERATORS[self.operator]
        return views if op.out_slots[0]["is_array"] else views[0]

    def call(self, function=None, *, out=False, args=None):
        fn = function or self.function
        a = self.args if args is None else args
        if not out:
            return fn(*a, feature_level=self.feature_level, **self.kwargs)
        bufs, views = self.out_buffers()
        fn(*a, feature_level=self.feature_level, out=self._out_arg(views), **self.kwargs)
        return bufs

    def case(self):
        from ._case import Case
        _, views = self.out_buffers()
        return Case.from_call(self.function, *self.args, feature_level=self.feature_level,
                              out=self._out_arg(views), **self.kwargs)


def _first(args):
    a = args[0]
    return a[0] if isinstance(a, (list, tuple)) else a


def _index_values(rng, dtype, n, count):
    """count indices into a dimension of n: [-n, n) for signed types, [0, n) otherwise."""
    signed = np.dtype(dtype).kind == "i"
    v = rng.integers(-n if signed else 0, n, size=count)
    return v.astype(dtype)


@st.composite
def _common(draw, operator, feature_level, data_type=None, index_type=None):
    sup = support(operator, feature_level)
    if data_type is not None:
        sup = {n: v for n, v in sup.items() if data_type in v[0]}
    if index_type is not None:
        sup = {n: v for n, v in sup.items() if index_type in v[1]}
    if not sup:
        raise ValueError(f"{operator} does not exist at feature level {feature_level}"
                         f" with data type {data_type} and index type {index_type}")
    n = draw(st.sampled_from(sorted(sup)))
    types, index_types = sup[n]
    dt = _types.DTYPES[data_type or draw(st.sampled_from(types))]
    it = _types.DTYPES[index_type or draw(st.sampled_from(index_types))] if index_types else None
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return n, dt, it, rng


def _input(draw, rng, dtype, shape, broadcast=True):
    return _view(rng, dtype, shape, draw(layouts(shape, broadcast=broadcast)), draw(st.integers(0, 3)))


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


# One line per operator whose call is not a plain same-shape one.
DRAWERS = {"GATHER": gather, "GATHER_ELEMENTS": gather_elements, "SCATTER_ND": scatter_nd, "SPLIT": split,
           "JOIN": join, "TILE": tile, "SCATTER": scatter, "GATHER_ND": gather_nd, "GATHER_ND1": gather_nd1,
           "DIAGONAL_MATRIX": diagonal_matrix, "DIAGONAL_MATRIX1": diagonal_matrix1}
DRAWERS.update((op, depth_space(op)) for op in ("DEPTH_TO_SPACE", "SPACE_TO_DEPTH", "DEPTH_TO_SPACE1",
                                                 "SPACE_TO_DEPTH1"))
DRAWERS.update(SLICE=slice_, SLICE1=slice1)
DRAWERS.update(ONE_HOT=one_hot)
DRAWERS.update(REVERSE_SUBSEQUENCES=reverse_subsequences)
DRAWERS.update(PADDING=_padding("PADDING"), PADDING1=_padding("PADDING1"))


def operators():
    """The operators cases() can draw: those of this build."""
    return sorted(OPERATORS)


def levels(operator):
    """The feature levels at which the operator exists (oldest first)."""
    return [name for name in _types.LEVELS if support(operator, name)]


def cases(operator, feature_level=None, *, data_type=None, index_type=None):
    """A strategy of Drawn calls of `operator` ("GATHER", case-insensitive), valid at
    `feature_level` ("4_1"; None: the newest; "any": any level that has it), of any
    data type and index type the level allows, or those named ("FLOAT16", "INT64")."""
    types = {"data_type": data_type, "index_type": index_type}
    operator = operator.upper()
    if operator not in OPERATORS:
        raise ValueError(f"unknown operator {operator!r}; this build has {', '.join(sorted(OPERATORS))}")
    if feature_level == "any":
        return st.sampled_from(levels(operator)).flatmap(lambda fl: cases(operator, fl, **types))
    drawer = DRAWERS.get(operator)
    if drawer is not None:
        return drawer(feature_level, **types)
    op = OPERATORS[operator]
    if len(op.in_slots) == 1 and len(op.out_slots) == 1 and all(p["is_optional"] for p in op.params):
        return same_shape(operator, feature_level, **types)
    raise NotImplementedError(f"dmlref.strategies has no drawer for {operator}: add one to DRAWERS")


def any_case(feature_level=None):
    """A case of any operator of this build."""
    return st.sampled_from(operators()).flatmap(lambda o: cases(o, feature_level))
