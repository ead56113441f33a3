"""ONE_HOT through dmlref.one_hot(): the page's examples (docs/operators.md P8), the output's
depth and dtype (the Values', not the Indices'), out-of-range indices (the whole sequence off,
no error even with check_indices), Off/On by coordinates, bits kept, and the rules' errors."""
import numpy as np
import pytest

import dmlref
from util import bits, same_bytes

V01 = np.array([0, 1], np.float32).reshape(1, 1, 1, 2)


def test_example_1_axis_3():
    idx = np.array([0, 3, 2], np.uint32).reshape(1, 1, 3, 1)
    out = dmlref.one_hot(idx, V01, axis=3, depth=4, feature_level="2_0")
    assert out.dtype == np.float32 and out.shape == (1, 1, 3, 4)
    assert out[0, 0].tolist() == [[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]]


def test_example_2_axis_2():
    idx = np.array([0, 2, 1, 0], np.uint32).reshape(1, 1, 1, 4)
    out = dmlref.one_hot(idx, V01, axis=2, depth=3, feature_level="2_0")
    assert out[0, 0].tolist() == [[1, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0]]


def test_example_3_three_values():
    idx = np.array([0, 3, 2], np.uint32).reshape(1, 1, 3, 1)
    values = np.array([4, 2, 9], np.float32).reshape(1, 1, 3, 1)  # off 4, on 2 (Values[0,0,1,0]), 9 unused
    out = dmlref.one_hot(idx, values, axis=3, depth=4, feature_level="2_0")
    assert out[0, 0].tolist() == [[2, 4, 4, 4], [4, 4, 4, 2], [4, 4, 2, 4]]


def test_example_4_negative_and_out_of_range():
    idx = np.array([-3, 100, 3], np.int32).reshape(1, 1, 3, 1)
    want = [[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]
    for check in (False, True):  # defined behaviour: the checking option has nothing to report
        out = dmlref.one_hot(idx, V01, axis=3, depth=4, feature_level="3_0", check_indices=check)
        assert out[0, 0].tolist() == want
    with pytest.raises(dmlref.InvalidDescriptor) as e:  # INT32 indices from FL 3_0
        dmlref.one_hot(idx, V01, axis=3, depth=4, feature_level="2_1")
    assert e.value.rule == "OH2"


@pytest.mark.parametrize("itype", [np.int32, np.uint32, np.int64, np.uint64])
@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float16, np.float32, np.float64, np.int64])
def test_matches_numpy(itype, dtype):
    rng = np.random.default_rng(7)
    depth = 5
    raw = rng.integers(-7 if np.dtype(itype).kind == "i" else 0, 8, size=(4, 6)).astype(itype)
    if itype is np.uint64:
        raw[0, 0] = np.uint64(1 << 63)  # a large unsigned value, never negative: off
    idx = raw[:, ::2][:, None, :]  # {4,1,3}, strided
    values = np.array([11, 22, 33], dtype)[::-1][None, None, :]  # {1,1,3} reversed: off 33, on 22
    # positions: negative values count from the end; anything else outside [0, depth) is no position
    pos = np.array([[[v + depth if -depth <= v < 0 else v for v in row] for row in plane]
                    for plane in idx.astype(object)], dtype=object)
    want = np.where(pos == np.arange(depth).reshape(1, depth, 1), dtype(22), dtype(33)).astype(dtype)
    for threads in (1, 2):
        out = dmlref.one_hot(idx, values, axis=1, depth=depth, threads=threads)
        assert out.dtype == np.dtype(dtype) and out.shape == (4, depth, 3)
        assert same_bytes(out, want)
        assert same_bytes(dmlref.one_hot(idx, values, axis=1, depth=depth, force_oracle=True), out)


def test_into_strided_out_and_bits():
    idx = np.array([[1], [0], [5]], np.uint32)
    values = np.array([[0x7fc01234, 0x80000000]], np.uint32).view(np.float32)  # off a NaN with payload, on -0.0
    buf = np.full((3, 8), 7, np.float32)
    view = buf[:, 1:7:2]  # {3,3} with gaps
    dmlref.one_hot(idx, values, axis=1, out=view)
    assert bits(view).tolist() == [[0x7fc01234, 0x80000000, 0x7fc01234], [0x80000000, 0x7fc01234, 0x7fc01234],
                                   [0x7fc01234] * 3]
    assert (buf[:, 0] == 7).all() and (buf[:, 2] == 7).all()  # gaps untouched


def test_errors():
    idx = np.zeros((2, 1), np.uint32)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.one_hot(idx, np.zeros(1, np.float32).reshape(1, 1), axis=1, depth=3)
    assert e.value.rule == "OH5" and "at least two" in str(e.value)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.one_hot(idx, V01.reshape(1, 2), axis=2, depth=3)
    assert e.value.rule == "OH3"
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.one_hot(idx, V01.reshape(1, 2), axis=1, out=np.zeros((2, 3), np.float16))
    assert e.value.rule == "OH2"
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.one_hot(idx, V01.reshape(1, 2), axis=0, depth=3)  # Indices {2,1}: Sizes[0] must be 1
    assert e.value.rule == "OH4"
    with pytest.raises(TypeError):
        dmlref.one_hot(idx, V01.reshape(1, 2), axis=1)  # the depth, or out=
