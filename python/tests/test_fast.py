"""The cached C path (_core.fast): the same bytes as the Python path, a bounded cache,
misses for what it does not take, errors unchanged, several threads at once."""
import threading

import numpy as np
import pytest

import dmlref
from dmlref import _core, _ops
from util import same_bytes

OPS = _ops.OPERATORS


def bits_f32(values):
    return np.array(values, np.uint32).view(np.float32)


X = bits_f32([0x7FC00123, 0x80000000, 0x7F800001, 0xFFBFFFFF, 1, 2, 3, 4, 5, 6, 7, 8]).reshape(3, 4)


def _hits():
    return _core.cache_info()[0]


CALLS = [
    ("GATHER", lambda f: f(X, np.array([[2, -1, 0]], np.int32), axis=0, index_dimensions=1)),
    ("GATHER_ELEMENTS", lambda f: f(X, np.array([[2, 0, 1, -1]], np.int64), axis=0)),
    ("SCATTER_ND", lambda f: f(X, np.array([[0, 1], [2, 3]], np.uint32), np.array([[-0.0, np.nan]], np.float32))),
    ("JOIN", lambda f: f([X, X[:1]], axis=0)),
    ("SPLIT", lambda f: f(X, axis=1, sizes=[1, 3])),
    ("TILE", lambda f: f(X[:, ::2], repeats=[1, 2])),
    ("ELEMENT_WISE_IDENTITY", lambda f: f(np.broadcast_to(X[:1], (3, 4)))),
    # the parameter kinds beyond integers: a struct (ScaleBias), float arrays (Scales), a union's
    # value as a number, a DML_SIZE_2D, a dtype by name
    ("ELEMENT_WISE_IDENTITY", lambda f: f(X, scale_bias=(2.0, -0.5))),
    ("RESAMPLE1", lambda f: f(X.reshape(1, 1, 3, 4), interpolation_mode=0, scales=[1.0, 1.0, 2.0, 1.5],
                              input_pixel_offsets=[0.5, 0.5, 0.5, 0.5], output_pixel_offsets=[-0.5, -0.5, -0.5, -0.5],
                              shape=[1, 1, 6, 6])),
    ("UPSAMPLE_2D", lambda f: f(X.reshape(1, 1, 3, 4), scale_size=(3, 2), interpolation_mode=0)),
    ("PADDING1", lambda f: f(X, padding_mode=0, padding_value=-0.0, start_padding=[1, 0], end_padding=[0, 2])),
    ("FILL_VALUE_CONSTANT", lambda f: f(value=7, shape=[2, 3], dtype="int16")),
    ("FILL_VALUE_SEQUENCE", lambda f: f(value_start=1.5, value_delta=-0.25, shape=[5], dtype="float32")),
]


@pytest.mark.parametrize("name, call", CALLS, ids=[f"{c[0]}-{i}" for i, c in enumerate(CALLS)])
def test_fast_and_python_paths_give_the_same_bytes(name, call):
    fn = getattr(dmlref, name.lower())
    python_path = OPS[name]  # Operator.__call__: never the cache
    want = call(python_path)
    call(fn)
    before = _hits()
    got = call(fn)
    assert _hits() == before + 1  # served by the cache
    if isinstance(want, list):
        assert len(got) == len(want) and all(same_bytes(g, w) and g.shape == w.shape for g, w in zip(got, want))
    else:
        assert got.shape == want.shape and got.dtype == want.dtype and same_bytes(got, want)


def test_parameter_values_are_in_the_key():
    """Calls that differ only in a float, a float array's order, a union's type or a dtype's
    name are different keys: each gives the Python path's bytes."""
    x = X.reshape(1, 1, 3, 4)
    for scales, shape in (([1.0, 1.0, 2.0, 1.0], [1, 1, 6, 4]), ([1.0, 1.0, 1.0, 2.0], [1, 1, 3, 8]),
                          ([1.0, 1.0, 1.0, 1.9], [1, 1, 3, 8])):
        for _ in range(2):
            got = dmlref.resample1(x, interpolation_mode=0, scales=scales, input_pixel_offsets=[0.5] * 4,
                                   output_pixel_offsets=[-0.5] * 4, shape=shape)
            want = OPS["RESAMPLE1"](x, interpolation_mode=0, scales=scales, input_pixel_offsets=[0.5] * 4,
                                    output_pixel_offsets=[-0.5] * 4, shape=shape)
            assert got.shape == want.shape and same_bytes(got, want)
    for value, dtype in ((1, "int32"), (1.0, "float32"), (-0.0, "float32"), (0.0, "float32"), (1, "uint8")):
        for _ in range(2):
            got = dmlref.fill_value_constant(value=value, shape=[3], dtype=dtype)
            want = OPS["FILL_VALUE_CONSTANT"](value=value, shape=[3], dtype=dtype)
            assert got.dtype == want.dtype and same_bytes(got, want)
    for sb in ((1.0, 0.0), (1.0, -0.0), (2.0, 1.0)):
        got = dmlref.element_wise_identity(X, scale_bias=sb)
        assert same_bytes(got, OPS["ELEMENT_WISE_IDENTITY"](X, scale_bias=sb))


def test_out_is_written_and_returned():
    idx = np.array([[1, 0]], np.int32)
    out = np.full((2, 4), 7, np.float32)
    dmlref.gather(X, idx, axis=0, index_dimensions=1, out=out)
    before = _hits()
    r = dmlref.gather(X, idx, axis=0, index_dimensions=1, out=out)
    assert r is out and _hits() == before + 1
    assert same_bytes(out, X[[1, 0]])
    big = np.full((4, 8), 9, np.float32)  # a strided out: only its addressed elements written
    dmlref.gather(X, idx, axis=0, index_dimensions=1, out=big[::2, ::2])
    r = dmlref.gather(X, idx, axis=0, index_dimensions=1, out=big[::2, ::2])
    assert same_bytes(big[::2, ::2], X[[1, 0]]) and (big[1::2] == 9).all() and (big[:, 1::2] == 9).all()
    outs = [np.empty((3, 1), np.float32), np.empty((3, 3), np.float32)]
    dmlref.split(X, axis=1, sizes=[1, 3], out=outs)
    got = dmlref.split(X, axis=1, sizes=[1, 3], out=outs)
    assert got[0] is outs[0] and got[1] is outs[1] and same_bytes(outs[1], X[:, 1:])


def test_what_the_cache_does_not_take_still_works():
    idx = np.array([[2, 0]], np.int32)
    hits = _hits()
    for x in (X[::-1], X.astype(">f4"), np.arange(3, dtype=np.int8).reshape(3, 1)):  # negative strides, byte order, span of 3 bytes
        for _ in range(2):
            got = dmlref.gather(x, idx, axis=0, index_dimensions=1)
            want = np.asarray(x)[[2, 0]]
            assert same_bytes(got, want.astype(want.dtype.newbyteorder("=")))  # a byte swap: bits kept
    assert _hits() == hits
    # numpy integers and a list input: the Python path
    got = dmlref.gather(X.tolist(), idx, axis=np.int64(0), index_dimensions=1)
    assert got.shape == (2, 4)


def test_errors_are_the_python_paths():
    idx = np.array([[0, 1]], np.int32)
    dmlref.gather(X, idx, axis=0, index_dimensions=1)
    with pytest.raises(dmlref.InvalidDescriptor, match="Axis"):
        dmlref.gather(X, idx, axis=5, index_dimensions=1)
    with pytest.raises(TypeError):
        dmlref.gather(X, idx, axis=True, index_dimensions=1)
    bad = np.array([[0, 7]], np.int32)  # the same key as idx: a cached operator, the run fails
    dmlref.gather(X, idx, axis=0, index_dimensions=1, check_indices=True)
    with pytest.raises(dmlref.IndexOutOfRange):
        dmlref.gather(X, bad, axis=0, index_dimensions=1, check_indices=True)
    with pytest.raises(ValueError, match="read-only"):
        ro = np.empty((2, 4), np.float32)
        ro.flags.writeable = False
        dmlref.gather(X, idx, axis=0, index_dimensions=1, out=ro)


def test_the_cache_is_bounded():
    _core.cache_clear()
    for n in range(1, 400):
        x = np.zeros((n, 2), np.float32)
        dmlref.gather(x, np.array([[0]], np.int32), axis=0, index_dimensions=1)
    hits, misses, entries, capacity = _core.cache_info()
    assert misses == 399 and 0 < entries <= capacity == 256


def test_threads_share_the_cache():
    errors = []

    def work(seed):
        rng = np.random.default_rng(seed)
        try:
            for i in range(300):
                n = 1 + i % 7
                x = rng.integers(0, 1000, size=(n, 3)).astype(np.float32)
                idx = rng.integers(-n, n, size=(1, 5)).astype(np.int32)
                got = dmlref.gather(x, idx, axis=0, index_dimensions=1)
                if got.tolist() != x[idx[0] % n].tolist():
                    errors.append((seed, i))
                if i % 50 == 0:
                    _core.cache_clear()
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
