"""assert_same_bits: bit for bit, masking unaddressed slots, naming the first difference."""
import numpy as np
import pytest

import dmlref
from util import from_bits


def test_equal_bits_pass_including_nans():
    a = from_bits(np.float32, [0x7FC00001, 0x80000000, 1]).reshape(1, 3)
    dmlref.assert_same_bits(a, a.copy())


def test_nan_payload_and_signed_zero_differ():
    a = from_bits(np.float32, [0, 0x7FC00001, 5]).reshape(3, 1)
    b = from_bits(np.float32, [0, 0x7FC00000, 5]).reshape(3, 1)
    with pytest.raises(AssertionError) as e:
        dmlref.assert_same_bits(a, b)
    assert "first at element [1, 0]" in str(e.value)
    assert "nan (0x7fc00001)" in str(e.value) and "nan (0x7fc00000)" in str(e.value)
    with pytest.raises(AssertionError, match=r"actual -0.0 \(0x8000\), expected 0.0 \(0x0000\)"):
        dmlref.assert_same_bits(np.array([-0.0], np.float16), np.array([0.0], np.float16))


def test_integers_shapes_dtypes():
    with pytest.raises(AssertionError, match=r"2 of 4 elements differ; first at element \[0, 1\]: actual 7, expected 1"):
        dmlref.assert_same_bits(np.array([[0, 7], [2, 9]], np.int64), np.array([[0, 1], [2, 3]], np.int64))
    with pytest.raises(AssertionError, match="shapes differ"):
        dmlref.assert_same_bits(np.zeros((2, 1), np.int8), np.zeros(2, np.int8))
    with pytest.raises(AssertionError, match="dtypes differ"):
        dmlref.assert_same_bits(np.zeros(2, np.int8), np.zeros(2, np.uint8))


def test_whole_buffers_compare_only_addressed_slots():
    # a {2, 2} output with Strides {1, 3}: slots 0, 3, 1, 4 are addressed; 2, 5, 6, 7 are gaps
    exp = np.array([1, 3, 0xCD, 2, 4, 0xCD, 0xCD, 0xCD], np.uint8)
    act = np.array([1, 3, 99, 2, 4, 98, 97, 96], np.uint8)
    dmlref.assert_same_bits(act, exp, tensor={"Sizes": [2, 2], "Strides": [1, 3]})
    act[4] = 5
    with pytest.raises(AssertionError, match=r"element \[1, 1\] \(buffer slot 4\): actual 5, expected 4"):
        dmlref.assert_same_bits(act, exp, tensor=([2, 2], [1, 3]))
    with pytest.raises(AssertionError, match="addresses slot 4"):
        dmlref.assert_same_bits(act[:3], exp, tensor=([2, 2], [1, 3]))
    assert dmlref.addressed_offsets([2, 2], [1, 3]).tolist() == [0, 3, 1, 4]
    assert dmlref.addressed_offsets([2, 3]).tolist() == list(range(6))
