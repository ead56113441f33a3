"""Hostile inputs at the package's door (issue 23): parameters far outside their C field,
any number of JOIN/SPLIT pieces."""
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, find, settings

import dmlref
from dmlref._ops import OPERATORS

# generous for a slow, loaded CI machine: a range check is microseconds
PROMPT_S = 2.0
_UINT, _INT, _UINT_ARRAY, _INT_ARRAY, _ENUM = 1, 2, 3, 4, 6
# values that fit no 32-bit field (2**32 fits none signed or not; -1 no UINT32),
# and values that fit and are the library's to judge
NOT_32 = [2**64, 2**70, 2**32, -2**31 - 1]
FITS = [2**26]


def _minimal(name):
    """The smallest valid call of an operator (UINT8 data: a valid 2**26 padding stays 64 MiB)."""
    from dmlref import strategies

    return find(strategies.cases(name, data_type="UINT8"), lambda c: True,
                settings=settings(database=None, derandomize=True, max_examples=50,
                                  suppress_health_check=list(HealthCheck)))


def _call(d, **kw):
    t = time.perf_counter()
    try:
        d.function(*d.args, **dict(d.kwargs, **kw), feature_level=d.feature_level)
        err = None
    except Exception as e:  # noqa: BLE001 (the type is asserted below)
        err = e
    return err, time.perf_counter() - t


def _integer_params(op):
    return [(k, p) for k, p in op.kw.items() if p["kind"] in (_UINT, _INT, _UINT_ARRAY, _INT_ARRAY, _ENUM)]


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_every_integer_parameter_is_range_checked_promptly(name):
    d = _minimal(name)
    for k, p in _integer_params(OPERATORS[name]):
        is_array = p["kind"] in (_UINT_ARRAY, _INT_ARRAY)
        signed = p["kind"] in (_INT, _INT_ARRAY)
        if is_array and not d.kwargs.get(k):
            continue
        not_fitting = NOT_32 + ([] if signed else [-1])
        for v in not_fitting + FITS + ([-1] if signed else []):
            given = [v] + list(d.kwargs[k])[1:] if is_array else v
            err, secs = _call(d, **{k: given})
            what = f"{name}.{k}={v}: {type(err).__name__}: {err}"
            assert secs < PROMPT_S, what
            if v in not_fitting:
                # fits no field of its C type: refused before the library, naming the
                # parameter (as the keyword) and its range
                assert isinstance(err, (OverflowError, ValueError)), what
                assert not isinstance(err, dmlref.Error), what
                assert k in str(err), what
                assert ("2^31" in str(err) or "2147483647" in str(err)) if signed else \
                    ("2^32" in str(err) or "4294967295" in str(err)), what
            elif err is not None:
                # the library's verdict, naming its field
                assert isinstance(err, dmlref.InvalidDescriptor), what
                assert p["name"] in str(err) or k in str(err), what


def test_gather_of_the_issue():
    x, idx = np.zeros((3, 2), np.float32), np.zeros((1, 1), np.int32)
    for axis in (2**64, 2**26, 2**32, -1):
        t = time.perf_counter()
        with pytest.raises((OverflowError, ValueError), match="(?i)axis"):
            dmlref.gather(x, idx, axis=axis, index_dimensions=1)
        assert time.perf_counter() - t < PROMPT_S
    for k in (2**64, 2**26, -1):
        with pytest.raises((OverflowError, ValueError), match="index_dimensions|IndexDimensions"):
            dmlref.gather(x, idx, axis=0, index_dimensions=k)


@pytest.mark.parametrize("v", [2**64, 2**32, -1])
def test_a_data_type_parameter_out_of_range_names_itself(v):
    with pytest.raises((OverflowError, ValueError), match="value_data_type"):
        dmlref.diagonal_matrix1(shape=(1, 1, 2, 2), dtype=np.float32, value_data_type=v, value=0,
                                diagonal_fill_begin=0, diagonal_fill_end=1)


@pytest.mark.parametrize("kw,v", [("sizes", [2**64]), ("sizes", [-1]), ("sizes", [2**32]),
                                  ("depth", 2**64), ("depth", -1), ("shape", (1, 1, 2**64, 1)),
                                  ("shape", (1, 1, -1, 1))])
def test_extra_shape_arguments_are_range_checked(kw, v):
    x = np.zeros((2, 2), np.float32)
    t = time.perf_counter()
    with pytest.raises((OverflowError, ValueError), match=kw):
        if kw == "sizes":
            dmlref.split(x, axis=0, sizes=v)
        elif kw == "depth":
            dmlref.one_hot(np.zeros((2, 1), np.int32), np.zeros(2, np.float32), axis=1, depth=v)
        else:
            dmlref.diagonal_matrix(shape=v, dtype=np.float32, offset=0, value=1.0)
    assert time.perf_counter() - t < PROMPT_S


# ---- item 2: any number of JOIN/SPLIT pieces -------------------------------------

N_PIECES = 1000


def test_join_and_split_of_a_thousand_pieces():
    rng = np.random.default_rng(23)
    pieces = [rng.integers(0, 255, (1 + i % 3, 2), dtype=np.uint8) for i in range(N_PIECES)]
    out = dmlref.join(pieces, axis=0)
    assert out.tobytes() == np.concatenate(pieces, axis=0).tobytes()
    sizes = [p.shape[0] for p in pieces]
    got = dmlref.split(out, axis=0, sizes=sizes)
    want = np.split(out, np.cumsum(sizes)[:-1], axis=0)
    assert len(got) == N_PIECES
    assert all(g.tobytes() == w.tobytes() for g, w in zip(got, want))


def test_join_and_split_of_a_thousand_strided_views():
    rng = np.random.default_rng(24)
    base = rng.integers(-2**31, 2**31 - 1, (N_PIECES, 3, 4), dtype=np.int32)
    views = [base[i, :, ::2] for i in range(N_PIECES)]  # strided, not copied
    out = dmlref.join(views, axis=1)
    assert out.tobytes() == np.concatenate(views, axis=1).tobytes()
    # a strided input split into strided out= views (each over its own buffer: out=
    # buffers must not overlap)
    wide = np.zeros((3, 2 * out.shape[1]), np.int32)
    wide[:, ::2] = out
    src = wide[:, ::2]
    bufs = np.zeros((N_PIECES, 3, 4), np.int32)
    outs = [bufs[i][:, ::2] for i in range(N_PIECES)]
    dmlref.split(src, axis=1, sizes=[2] * N_PIECES, out=outs)
    for o, w in zip(outs, np.split(src, N_PIECES, axis=1)):
        assert o.tobytes() == np.ascontiguousarray(w).tobytes()
    assert not bufs[:, :, 1::2].any()  # only the addressed elements written
