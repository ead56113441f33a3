"""REVERSE_SUBSEQUENCES through dmlref.reverse_subsequences(): the page's examples
(docs/operators.md P9), lengths above the axis size (clamped, not reported by the
checking option) with 1 and 2 threads against numpy, UINT64 lengths, and a rule's error."""
import numpy as np
import pytest

import dmlref

X = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 3, 4)


def test_doc_examples():
    out = dmlref.reverse_subsequences(X, np.array([2, 4, 3], np.uint32).reshape(1, 1, 3, 1), axis=3,
                                      feature_level="2_1")
    assert out.shape == (1, 1, 3, 4)
    assert out.reshape(3, 4).tolist() == [[2, 1, 3, 4], [8, 7, 6, 5], [11, 10, 9, 12]]
    # lengths 1 and 0 change nothing (the page names the lengths tensor SequenceTensor: section 9 item 38)
    out = dmlref.reverse_subsequences(X, np.array([2, 3, 1, 0], np.uint32).reshape(1, 1, 1, 4), axis=2,
                                      feature_level="2_1")
    assert out.reshape(3, 4).tolist() == [[5, 10, 3, 4], [1, 6, 7, 8], [9, 2, 11, 12]]


@pytest.mark.parametrize("threads", [1, 2])
def test_matches_numpy_with_clamped_lengths(threads):
    x = np.arange(37 * 5, dtype=np.uint16).reshape(37, 5)
    lengths = (np.arange(37, dtype=np.uint32) * 3 % 9).reshape(37, 1)  # 0 .. 8: above 5 clamps
    out = dmlref.reverse_subsequences(x, lengths, axis=1, threads=threads, check_indices=True)
    want = x.copy()
    for i in range(37):
        L = min(int(lengths[i, 0]), 5)
        want[i, :L] = x[i, :L][::-1]
    assert out.tobytes() == want.tobytes()
    # along the outer axis, UINT64 lengths (2^64 - 1: the whole column)
    lengths = np.array([[0, 1, 2, 3, 2**64 - 1]], np.uint64)
    out = dmlref.reverse_subsequences(x, lengths, axis=0, threads=threads)
    want = x.copy()
    for j in range(5):
        L = min(int(lengths[0, j]), 37)
        want[:L, j] = x[:L, j][::-1]
    assert out.tobytes() == want.tobytes()


def test_lengths_shape_rule():
    with pytest.raises(dmlref.InvalidDescriptor, match=r"SequenceLengthsTensor.Sizes\[1\] \(2\) must be 1") as e:
        dmlref.reverse_subsequences(np.zeros((3, 2), np.float32), np.zeros((3, 2), np.uint32), axis=1)
    assert e.value.rule == "RS3"
    with pytest.raises(dmlref.InvalidDescriptor, match=r"SequenceLengthsTensor.DataType \(UINT64\)") as e:
        dmlref.reverse_subsequences(np.zeros((1, 1, 3, 2), np.float32), np.zeros((1, 1, 3, 1), np.uint64), axis=3,
                                    feature_level="4_1")
    assert e.value.rule == "RS4"
