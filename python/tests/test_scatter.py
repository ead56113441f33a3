"""SCATTER (= SCATTER_ELEMENTS): the page's examples through dmlref.scatter()
(docs/operators.md P2.4), clamping, and the checking option's reports."""
import numpy as np
import pytest

import dmlref
from util import same_bytes


def test_example_1_the_later_update_wins():
    x = np.arange(5, dtype=np.float32)
    out = dmlref.scatter(x, np.array([3, 1, 3, 0], np.uint32), np.array([5, 6, 7, 8], np.float32), axis=0)
    assert out.dtype == np.float32 and out.tolist() == [8, 6, 2, 7, 4]
    with pytest.raises(dmlref.DuplicateIndex) as e:
        dmlref.scatter(x, np.array([3, 1, 3, 0], np.uint32), np.array([5, 6, 7, 8], np.float32), axis=0,
                       check_indices=True)
    assert e.value.status == "DMLREF_ERROR_DUPLICATE_INDEX" and e.value.operator == "SCATTER"
    assert "IndicesTensor[2] repeats the target of IndicesTensor[0]" in str(e.value)


def test_example_2_corrected_input():
    # the page declares Input {2,3}; its data and output need {3,3}
    x = np.zeros((3, 3), np.float32)
    idx = np.array([[1, 0, 2], [0, 2, 1]], np.uint32)
    upd = np.array([[10, 11, 12], [20, 21, 22]], np.float32)
    out = dmlref.scatter(x, idx, upd, axis=0)
    assert out.tolist() == [[20, 11, 0], [10, 0, 22], [0, 21, 12]]
    want = x.copy()
    np.put_along_axis(want, idx.astype(np.int64), upd, axis=0)
    assert same_bytes(out, want)
    # the page's own level: 4-D at FL 2_0
    out4 = dmlref.scatter(x.reshape(1, 1, 3, 3), idx.reshape(1, 1, 2, 3), upd.reshape(1, 1, 2, 3), axis=2,
                          feature_level="2_0")
    assert same_bytes(out4.reshape(3, 3), want)


def test_negative_and_clamped_indices():
    x = np.arange(6, dtype=np.int16).reshape(2, 3)
    idx = np.array([[-1, 7]], np.int64).repeat(2, axis=0)
    upd = np.array([[10, 11], [20, 21]], np.int16)
    # -1 is the last column; 7 clamps onto it too, and the later update wins
    assert dmlref.scatter(x, idx, upd, axis=1).tolist() == [[0, 1, 11], [3, 4, 21]]
    with pytest.raises(dmlref.IndexOutOfRange):
        dmlref.scatter(x, idx, upd, axis=1, check_indices=True)
