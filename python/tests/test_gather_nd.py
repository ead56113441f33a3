"""GATHER_ND and GATHER_ND1 through dmlref.gather_nd() / dmlref.gather_nd1(): the
documented examples (docs/operators.md P1.4), the parameters' defaults, the output
shape rule GN8, clamping and the checking option."""
import numpy as np
import pytest

import dmlref
from util import same_bytes


def test_doc_example_1():
    x = np.array([[0, 1], [2, 3]], np.float32)
    idx = np.array([[1], [0]], np.uint32)
    out = dmlref.gather_nd(x, idx)  # R = Q = 2 by default: the arrays' ranks
    assert out.dtype == np.float32 and out.tolist() == [[2, 3], [0, 1]]
    out1 = dmlref.gather_nd1(x, idx, feature_level="3_0")  # B = 0 by default
    assert same_bytes(out1, out)
    # example 6: signed indices count from the end of their own dimension
    assert same_bytes(dmlref.gather_nd(x, np.array([[-1], [-2]], np.int32)), out)


def test_doc_example_2_and_4_shapes():
    x = np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2)
    idx = np.array([[0, 1], [1, 0]], np.uint32).reshape(1, 1, 2, 2)
    out = dmlref.gather_nd(x, idx, input_dimension_count=3, indices_dimension_count=2, feature_level="2_1")
    assert out.shape == (1, 1, 2, 2) and out.ravel().tolist() == [2, 3, 4, 5]
    x5 = np.arange(3 * 4 * 5 * 6 * 7, dtype=np.float32).reshape(3, 4, 5, 6, 7)
    idx5 = np.array([[0, 1, 2], [2, 3, 4]], np.uint32).reshape(1, 1, 1, 2, 3)
    out5 = dmlref.gather_nd(x5, idx5, input_dimension_count=5, indices_dimension_count=3)
    assert out5.shape == (1, 1, 2, 6, 7)
    assert same_bytes(out5.reshape(2, 6, 7), x5[[0, 2], [1, 3], [2, 4]])


def test_doc_example_3_batch():
    x = np.arange(12, dtype=np.float32).reshape(1, 3, 2, 2)
    idx = np.array([[[0, 0], [1, 1]], [[1, 1], [0, 0]], [[0, 1], [1, 0]]], np.uint32).reshape(1, 3, 2, 2)
    out = dmlref.gather_nd1(x, idx, input_dimension_count=3, indices_dimension_count=3, batch_dimension_count=1)
    assert out.shape == (1, 1, 3, 2)
    assert out.ravel().tolist() == [0, 3, 7, 4, 9, 10]


def test_clamp_check_indices_and_rules():
    x = np.arange(6, dtype=np.int16).reshape(2, 3)
    idx = np.array([[5, -1], [-7, 9]], np.int64)
    assert dmlref.gather_nd(x, idx).ravel().tolist() == [5, 2]  # (1,2) and (0,2), each component clamped
    with pytest.raises(dmlref.IndexOutOfRange, match=r"IndicesTensor\[0,0\] = 5 is out of range"):
        dmlref.gather_nd(x, idx, check_indices=True)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.gather_nd1(x, idx, batch_dimension_count=2)
    assert e.value.rule == "GN5"
