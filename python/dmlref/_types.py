"""Data types and the marshalling of numpy arrays into DirectML tensors."""
import numpy as np

from . import _core

# DirectML data type name -> code, element size (from the library itself).
CODES = {name: code for code, name, _ in _core.data_types()}
NAMES = {code: name for code, name, _ in _core.data_types()}

# numpy (kind, itemsize) -> DirectML name.  float16 is DirectML FLOAT16.
_BY_KIND = {
    ("f", 4): "FLOAT32", ("f", 2): "FLOAT16", ("f", 8): "FLOAT64",
    ("u", 4): "UINT32", ("u", 2): "UINT16", ("u", 1): "UINT8", ("u", 8): "UINT64",
    ("i", 4): "INT32", ("i", 2): "INT16", ("i", 1): "INT8", ("i", 8): "INT64",
}
DTYPES = {name: np.dtype(kind + str(size)) for (kind, size), name in _BY_KIND.items()}
ALLOWED = ", ".join(f"{np.dtype(d).name} ({n})" for n, d in DTYPES.items())

LEVELS = dict(_core.feature_levels())
LATEST = max(LEVELS.values())
LEVEL_NAMES = {v: k for k, v in LEVELS.items()}

# How many arrays the marshalling had to copy (tests read it: a strided view with
# non-negative strides that are multiples of the item size must cost none).
copies = 0


def data_type(dtype):
    """The DirectML type name of a numpy dtype; TypeError for any other."""
    dtype = np.dtype(dtype)
    name = _BY_KIND.get((dtype.kind, dtype.itemsize)) if dtype.fields is None else None
    if name is None:
        raise TypeError(f"dmlref: dtype {dtype} is not a DirectML data type; allowed: {ALLOWED}")
    return name


def level(feature_level):
    """'4_1' or None (the newest) -> the library's value."""
    if feature_level is None:
        return LATEST
    try:
        return LEVELS[feature_level]
    except (KeyError, TypeError):
        from ._errors import InvalidDescriptor
        raise InvalidDescriptor(
            f"unknown feature level {feature_level!r}; known: {', '.join(LEVELS)}",
            status="DMLREF_ERROR_FEATURE_LEVEL") from None


def round4(n):
    return (n + 3) & ~3


def span_bytes(shape, strides, itemsize):
    """Bytes from the first element to the end of the last one (strides in elements)."""
    if any(n == 0 for n in shape):
        return 0
    return itemsize * (1 + sum((n - 1) * s for n, s in zip(shape, strides)))


def _owner_end(a):
    """The end address of the memory a view may touch, or None when unknown."""
    b = a
    while isinstance(b.base, np.ndarray):
        b = b.base
    if b.base is not None and not isinstance(b.base, (bytes, bytearray)):
        try:
            memoryview(b.base)
        except TypeError:
            return None
    return np.byte_bounds(b)[1]


# native dtype -> DirectML code, filled as dtypes are met (the per-call fast path)
_CODE_OF = {}


def code_of(dtype):
    code = _CODE_OF.get(dtype)
    if code is None:
        code = CODES[data_type(dtype)]
        if dtype.isnative:
            _CODE_OF[dtype] = code
    return code


def as_array(a):
    """An input as a numpy array, without a copy where the object allows it: an ndarray
    (subclasses too) as is; an object with __dlpack__ (a torch CPU tensor, a JAX or CuPy
    array on the host, an array-API array) through np.from_dlpack; one with __array__ or
    the buffer protocol through np.asarray; anything else (nested lists) as np.asarray
    makes it (which must then be a DirectML data type: no conversion is made)."""
    if isinstance(a, np.ndarray):
        return a
    if hasattr(a, "__dlpack__"):
        try:
            return np.from_dlpack(a)
        except (BufferError, TypeError, RuntimeError, ValueError):
            if not hasattr(a, "__array__"):  # (numpy refuses bool, or a device array)
                raise
    return np.asarray(a)


def input_tensor(a):
    """(tensor tuple, (buffer, size)) for an input array, passed without a copy
    where its layout allows it (DirectML Strides = its strides / itemsize)."""
    global copies
    if type(a) is not np.ndarray:
        a = as_array(a)
    dtype = a.dtype
    code = code_of(dtype)
    flags = a.flags
    if flags.c_contiguous and flags.aligned and dtype.isnative:  # the common case, quickly
        n = a.nbytes
        if n and not n & 3:
            return (code, a.shape, None, n), (a, n)
    isz = dtype.itemsize
    if not dtype.isnative:
        a = a.byteswap().view(dtype.newbyteorder("="))
    shape = a.shape
    st = a.strides
    if a.size and a.flags.aligned and all(s >= 0 and s % isz == 0 for s in st):
        el = tuple(s // isz for s in st)
        span = span_bytes(shape, el, isz)
        total = round4(span)
        if total == span or a.ctypes.data + total <= (_owner_end(a) or 0):
            strides = None if a.flags.c_contiguous else el
            if all(s < 2**32 for s in el):
                return (code, shape, strides, total), (a, total)
    if a.size == 0:
        return (code, shape, None, 0), (b"", 0)
    copies += 1
    total = round4(a.size * isz)
    buf = np.empty(total, np.uint8)
    c = buf[: a.size * isz].view(a.dtype).reshape(shape)
    c[...] = a  # same dtype: the bytes are copied, never converted
    return (code, shape, None, total), (c, total)


def output_tensor(dtype, shape):
    """A fresh packed output: (tensor tuple, (buffer, size), the array)."""
    dtype = np.dtype(dtype)
    code = code_of(dtype)
    n = 1
    for s in shape:
        n *= s
    isz = dtype.itemsize
    total = round4(n * isz)
    if total == n * isz and total:
        arr = np.empty(shape, dtype)
        return (code, tuple(shape), None, total), (arr, total), arr
    buf = np.empty(max(total, 1), np.uint8)
    arr = buf[: n * isz].view(dtype).reshape(shape)
    return (code, tuple(shape), None, total), (buf, total), arr


def out_tensor(out):
    """For a caller's out= array: (tensor tuple, (buffer, size), write-back or None).
    A strided view is written in place (only its addressed elements); another layout
    goes through a temporary copied back into it."""
    global copies
    if not isinstance(out, np.ndarray):
        raise TypeError("dmlref: out must be a numpy array")
    if not out.flags.writeable:
        raise ValueError("dmlref: out is read-only")
    dtype = out.dtype
    code = code_of(dtype)
    flags = out.flags
    if flags.c_contiguous and flags.aligned and dtype.isnative:  # the common case, quickly
        n = out.nbytes
        if n and not n & 3:
            return (code, out.shape, None, n), (out, n), None
    isz = dtype.itemsize
    st = out.strides
    if out.size and dtype.isnative and out.flags.aligned and all(s >= 0 and s % isz == 0 for s in st):
        el = tuple(s // isz for s in st)
        span = span_bytes(out.shape, el, isz)
        total = round4(span)
        if (total == span or out.ctypes.data + total <= (_owner_end(out) or 0)) and all(s < 2**32 for s in el):
            return (code, out.shape, None if out.flags.c_contiguous else el, total), (out, total), None
    if out.size == 0:
        return (code, out.shape, None, 0), (bytearray(1), 0), None
    copies += 1
    t, b, tmp = output_tensor(dtype.newbyteorder("="), out.shape)
    return t, b, tmp
