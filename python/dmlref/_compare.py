"""Bit-for-bit comparison of outputs, masking the bytes no element addresses."""
import numpy as np

from ._types import data_type


def packed_strides(sizes):
    st, acc = [], 1
    for n in reversed(sizes):
        st.append(acc)
        acc *= n
    return tuple(reversed(st))


def addressed_offsets(sizes, strides=None):
    """The element slots (in elements) the tensor's elements address, in row-major
    order of their coordinates: sum(c[d] * Strides[d])."""
    sizes = tuple(int(n) for n in sizes)
    strides = packed_strides(sizes) if strides is None else tuple(int(s) for s in strides)
    off = np.zeros(sizes, dtype=np.int64)
    for d, (n, s) in enumerate(zip(sizes, strides)):
        shape = [1] * len(sizes)
        shape[d] = n
        off = off + (np.arange(n, dtype=np.int64) * s).reshape(shape)
    return off.reshape(-1)


def _bits(a):
    return a.view(np.dtype(f"u{a.dtype.itemsize}"))


def _show(a, i):
    v = a[i]
    bits = int(_bits(a)[i])
    if a.dtype.kind == "f":
        h = f"0x{bits:0{2 * a.dtype.itemsize}x}"
        if np.isnan(v):
            return f"nan ({h})"
        return f"{v!r} ({h})"
    return repr(int(v))


def _tensor_layout(tensor):
    if isinstance(tensor, dict):
        return tensor["Sizes"], tensor.get("Strides")
    sizes, strides = tensor
    return sizes, strides


def assert_same_bits(actual, expected, *, tensor=None):
    """Asserts that actual and expected hold the same bits.

    Without tensor: two arrays of the same dtype and shape, compared element by
    element.  With tensor ({"Sizes": [...], "Strides": [...]} as in a case file, or
    (sizes, strides); strides None = packed): two whole output buffers in memory
    order (what Case.run() returns), compared only at the element slots the tensor
    addresses; DirectML may write the other bytes.  The AssertionError names the
    first differing element's coordinate and both values (NaN bits in hex)."""
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    data_type(actual.dtype)
    if actual.dtype != expected.dtype:
        raise AssertionError(f"dtypes differ: actual {actual.dtype}, expected {expected.dtype}")
    if tensor is None:
        if actual.shape != expected.shape:
            raise AssertionError(f"shapes differ: actual {actual.shape}, expected {expected.shape}")
        a = np.ascontiguousarray(actual).reshape(-1)
        e = np.ascontiguousarray(expected).reshape(-1)
        shape = actual.shape
        pick = None
    else:
        sizes, strides = _tensor_layout(tensor)
        shape = tuple(sizes)
        pick = addressed_offsets(sizes, strides)
        a = np.ascontiguousarray(actual).reshape(-1)
        e = np.ascontiguousarray(expected).reshape(-1)
        need = int(pick.max()) + 1 if pick.size else 0
        for what, b in (("actual", a), ("expected", e)):
            if b.size < need:
                raise AssertionError(f"{what} holds {b.size} elements; the tensor addresses slot {need - 1}")
        a = a[pick]
        e = e[pick]
    diff = np.nonzero(_bits(a) != _bits(e))[0]
    if diff.size == 0:
        return
    i = int(diff[0])
    coord = tuple(int(c) for c in np.unravel_index(i, shape)) if shape else ()
    where = f"element {list(coord)}" + (f" (buffer slot {int(pick[i])})" if pick is not None else "")
    raise AssertionError(f"{diff.size} of {a.size} elements differ; first at {where}: "
                         f"actual {_show(a, i)}, expected {_show(e, i)}")
