"""TILE through dmlref.tile(): the page's example (docs/operators.md P4), np.tile on
strided views and every data type it accepts, bits kept, and its rules' errors."""
import numpy as np
import pytest

import dmlref
from util import bits, same_bytes


def test_tile_doc_example():
    # the page's example; it labels the output block InputTensor (docs/operators.md section 9 item 23)
    x = np.array([[1, 2, 3], [4, 5, 6]], np.float32).reshape(1, 1, 2, 3)
    out = dmlref.tile(x, repeats=[1, 1, 3, 3], feature_level="1_0")
    assert out.dtype == np.float32 and out.shape == (1, 1, 6, 9)
    assert out[0, 0].tolist() == [[1, 2, 3, 1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6, 4, 5, 6]] * 3


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.float16, np.int16, np.uint16, np.float32, np.int32,
                                   np.uint32, np.int64, np.uint64])
def test_tile_matches_np_tile(dtype):
    rng = np.random.default_rng(5)
    base = rng.integers(0, 256, size=(3, 4, 5), dtype=np.uint8).astype(dtype)
    x = base[:, ::2, 1:]  # a strided view with gaps
    for reps in ([1, 1, 1], [2, 1, 3], [1, 3, 1], [4, 2, 1]):
        for threads in (1, 2):
            out = dmlref.tile(x, repeats=reps, threads=threads)
            assert same_bytes(out, np.tile(x, reps))
            assert same_bytes(dmlref.tile(x, repeats=reps, force_oracle=True), out)


def test_tile_keeps_bits():
    x = np.array([0x7fc01234, 0x80000000, 0x7f800001], np.uint32).view(np.float32)
    out = dmlref.tile(x, repeats=[3])
    assert bits(out).tolist() == [0x7fc01234, 0x80000000, 0x7f800001] * 3


def test_tile_errors():
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.tile(x, repeats=[2, 0], out=np.zeros((4, 3), np.float32))  # without out=: a size of 0 (T10)
    assert e.value.rule == "TI2" and "Repeats[1] is 0" in str(e.value)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.tile(x, repeats=[2], out=np.zeros((4, 3), np.float32))
    assert e.value.rule == "TI1" and "RepeatsCount (1) must equal InputTensor.DimensionCount (2)" in str(e.value)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.tile(np.zeros(3, np.float64), repeats=[2])
    assert e.value.rule == "TI4" and "FLOAT64" in str(e.value)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.tile(x, repeats=[2, 2], out=np.zeros((4, 5), np.float32))
    assert e.value.rule == "TI3"
