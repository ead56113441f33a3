"""The drawing primitives every drawer shares: random element bits with special values
(_fill), strided and broadcast layouts, views over gapped buffers, sizes under an element
budget, index values, the common draw of dimension count, types and seed (_common), and
Drawn, the drawn call itself."""
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from .. import _types
from .._ops import FUNCTIONS, OPERATORS, snake
from ._probe import MAX_ELEMENTS, support


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
    if isinstance(rng, DrawRng):  # through Hypothesis: shrinks, shown
        return rng.draw(hnp.arrays(f"u{isz}", count, elements=_elements(dtype), fill=st.nothing())).view(dtype)
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


class DrawRng:
    """The drawers' source of values, with numpy Generator's methods (integers, random,
    choice): every value is drawn through Hypothesis (hypothesis.extra.numpy.arrays, each
    element its own draw), so a failing case shrinks towards small values.  Only the gap
    slots no element addresses (`filler`) come from a numpy generator seeded by one drawn
    integer."""

    def __init__(self, draw, seed):
        self.draw = draw
        self.filler = np.random.default_rng(seed)

    def integers(self, lo, hi, size=None, dtype=np.int64):
        shape = () if size is None else size
        a = self.draw(hnp.arrays(np.int64 if hi <= 2**63 else np.uint64, shape,
                                 elements=st.integers(lo, hi - 1), fill=st.nothing()))
        return a.astype(dtype) if size is not None else np.dtype(dtype).type(a[()])

    def random(self, size=None):
        shape = () if size is None else size
        a = self.draw(hnp.arrays(np.float64, shape, elements=st.floats(0, 1, exclude_max=True), fill=st.nothing()))
        return a if size is not None else float(a[()])

    def choice(self, a, size, replace=False):
        a = np.asarray(a)
        if a.ndim == 0:  # as numpy: an int n chooses from range(n)
            a = np.arange(int(a))
        if replace or size == 0:
            return a[self.integers(0, len(a), size=size)] if size else a[:0]
        idx = self.draw(hnp.arrays(np.int64, size, elements=st.integers(0, len(a) - 1), unique=True,
                                   fill=st.nothing()))
        return a[idx]


def _elements(dtype):
    """An element's bits as an unsigned integer: a special value or any bits (shrinking to +0)."""
    isz = np.dtype(dtype).itemsize
    if np.dtype(dtype).kind == "f":
        specials = _SPECIAL[isz]
    else:
        info = np.iinfo(dtype)
        specials = [int(v) for v in np.array([0, 1, info.min, info.max, -1 if info.min else 2],
                                             dtype=dtype).view(f"u{isz}")]
    return st.one_of(st.sampled_from(specials), st.integers(0, 2**(8 * isz) - 1))


def _view(rng, dtype, shape, strides, tail=0):
    """A view of `shape` and element `strides` (None: packed) over a fresh buffer, as dmlref
    receives a strided input: the elements' bits drawn through Hypothesis (rng: a DrawRng;
    one draw per distinct slot, so broadcast elements share theirs), the gaps random bits."""
    dtype = np.dtype(dtype)
    isz = dtype.itemsize
    if strides is None:
        strides = _packed(shape)
    slots = 1 + sum((s - 1) * t for s, t in zip(shape, strides)) + tail
    slots = (_types.round4(slots * isz) + isz - 1) // isz  # room for TotalTensorSizeInBytes
    filler = rng.filler if isinstance(rng, DrawRng) else rng
    base = _fill(filler, dtype, slots)
    view = np.ndarray(shape, dtype, buffer=base, offset=0, strides=tuple(s * isz for s in strides))
    if isinstance(rng, DrawRng) and view.size:
        offsets = np.zeros(shape, np.int64)
        for d, (n, t) in enumerate(zip(shape, strides)):
            offsets = offsets + (np.arange(n, dtype=np.int64) * t).reshape((1,) * d + (n,) + (1,) * (len(shape) - d - 1))
        used = np.unique(offsets)
        bits = rng.draw(hnp.arrays(f"u{isz}", used.size, elements=_elements(dtype), fill=st.nothing()))
        base.view(f"u{isz}")[used] = bits
    return view


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
    def __init__(self, operator, args, kwargs, feature_level, out_layouts, out_dtypes=None):
        self.operator = operator
        self.function = FUNCTIONS[snake(operator)]
        self.args = tuple(args)
        self.kwargs = dict(kwargs)
        self.feature_level = feature_level
        self.out_layouts = out_layouts
        # the outputs' type: dtype= (an operator without inputs), else the first input's
        self.dtype = (np.dtype(kwargs["dtype"]) if kwargs.get("dtype") is not None
                      else _first(self.args[OPERATORS[operator].dtype_arg:]).dtype)  # ONE_HOT: the Values
        # each output's type where they differ (TOP_K's indices): out_dtypes[i], else self.dtype
        self.out_dtypes = [np.dtype(d) for d in out_dtypes] if out_dtypes else None
    def __repr__(self):
        def desc(a):
            if isinstance(a, (list, tuple)):
                return "[" + ", ".join(desc(x) for x in a) + "]"
            isz = a.itemsize
            # the values, and their bits where a float's repr would hide them (NaN payloads, -0.0)
            values = np.array2string(a, separator=", ", threshold=64, max_line_width=10**6)
            text = f"{a.dtype}{list(a.shape)} strides {[s // isz for s in a.strides]} = {values}"
            if a.dtype.kind == "f":
                text += " bits " + np.array2string(np.ascontiguousarray(a).view(f"u{isz}"), separator=", ",
                                                   threshold=64, max_line_width=10**6,
                                                   formatter={"int": lambda v: hex(int(v))})
            return text
        return (f"Drawn({self.operator} at {self.feature_level or 'the newest level'}: " + ", ".join(desc(a) for a in self.args) +
                f", {self.kwargs}, outputs {self.out_layouts})")
    def out_buffers(self):
        """(whole buffers prefilled with 0xCD, the strided views over them) for out=."""
        bufs, views = [], []
        for i, (shape, strides) in enumerate(self.out_layouts):
            dtype = self.out_dtypes[i] if self.out_dtypes else self.dtype
            isz = dtype.itemsize
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
        return views if op.out_slots[0]["is_array"] or len(op.out_slots) > 1 else views[0]
    def call(self, function=None, *, out=False, args=None):
        fn = function or self.function
        a = self.args if args is None else args
        if not out:
            return fn(*a, feature_level=self.feature_level, **self.kwargs)
        bufs, views = self.out_buffers()
        fn(*a, feature_level=self.feature_level, out=self._out_arg(views), **self.kwargs)
        return bufs
    def framework(self):
        """The call as ONNX, WebNN and PyTorch take it: the form `dmlref export` writes in
        manifest.json's "framework" (shapes without DirectML's leading 1s, the framework's
        axis, ...): Case.framework() of this call's case."""
        return self.case().framework()

    def case(self):
        from .._case import Case
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
    rng = DrawRng(draw, draw(st.integers(0, 2**32 - 1)))
    return n, dt, it, rng


def _input(draw, rng, dtype, shape, broadcast=True):
    return _view(rng, dtype, shape, draw(layouts(shape, broadcast=broadcast)), draw(st.integers(0, 3)))
