"""SLICE and SLICE1 through dmlref.slice() / dmlref.slice1(): the page's examples
(docs/operators.md P3.4), a reversal, a smaller SLICE1 output through out=, and the
errors of arrays whose lengths disagree."""
import numpy as np
import pytest

import dmlref

X = np.arange(1, 17, dtype=np.float32).reshape(1, 1, 4, 4)


def test_slice_doc_examples():
    out = dmlref.slice(X, offsets=[0, 0, 1, 2], sizes=[1, 1, 3, 2], strides=[1, 1, 1, 1], feature_level="1_0")
    assert out.shape == (1, 1, 3, 2) and out.reshape(3, 2).tolist() == [[7, 8], [11, 12], [15, 16]]
    out = dmlref.slice(X, offsets=[0, 0, 1, 0], sizes=[1, 1, 2, 2], strides=[1, 1, 2, 3], feature_level="1_0")
    assert out.reshape(2, 2).tolist() == [[5, 8], [13, 16]]


def test_slice1_doc_examples():
    out = dmlref.slice1(X, input_window_offsets=[0, 0, 0, 1], input_window_sizes=[1, 1, 4, 3],
                        input_window_strides=[1, 1, 2, 2], feature_level="2_1")
    assert out.shape == (1, 1, 2, 2) and out.reshape(2, 2).tolist() == [[2, 4], [10, 12]]
    # a negative stride starts at the window's end: {0, 0, 3, 1} (the page's text: section 9 item 22)
    out = dmlref.slice1(X, input_window_offsets=[0, 0, 0, 1], input_window_sizes=[1, 1, 4, 3],
                        input_window_strides=[1, 1, -2, 2], feature_level="2_1")
    assert out.reshape(2, 2).tolist() == [[14, 16], [6, 8]]


@pytest.mark.parametrize("threads", [1, 2])
def test_slice1_reverse_matches_numpy(threads):
    x = np.arange(3 * 37, dtype=np.uint16).reshape(3, 37)
    out = dmlref.slice1(x, input_window_offsets=[0, 0], input_window_sizes=[3, 37], input_window_strides=[1, -1],
                        threads=threads)
    assert out.tobytes() == np.ascontiguousarray(x[:, ::-1]).tobytes()


def test_slice1_smaller_output_takes_the_first_elements():
    out = np.zeros((1, 1, 1, 2), np.float32)
    dmlref.slice1(X, input_window_offsets=[0, 0, 0, 0], input_window_sizes=[1, 1, 4, 4],
                  input_window_strides=[1, 1, 1, -1], out=out)
    assert out.reshape(-1).tolist() == [4, 3]


def test_array_lengths_must_agree():
    with pytest.raises(ValueError, match="offsets has 3 values but sizes has 4"):
        dmlref.slice(X, offsets=[0, 0, 1], sizes=[1, 1, 3, 2], strides=[1, 1, 1, 1])
    with pytest.raises(dmlref.InvalidDescriptor, match=r"SLICE1: InputWindowStrides\[3\] is 0") as e:
        dmlref.slice1(X, input_window_offsets=[0, 0, 0, 0], input_window_sizes=[1, 1, 4, 4],
                      input_window_strides=[1, 1, 1, 0], out=np.zeros((1, 1, 4, 4), np.float32))
    assert e.value.rule == "SL6"
