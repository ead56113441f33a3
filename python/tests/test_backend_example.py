"""The README's backend example (python/README.md): numpy's take, take_along_axis and
concatenate stand in for a device; Hypothesis draws cases, dmlref is the reference,
and a wrong backend is shrunk to a small case."""
import numpy as np
import pytest
from hypothesis import find, given, settings

import dmlref
from dmlref import strategies


def numpy_gather(x, indices, *, axis, index_dimensions, out_shape):
    """GATHER by numpy.take: the meaningful index dimensions are the last K."""
    k = index_dimensions
    idx = indices.reshape(indices.shape[indices.ndim - k:]) if k else indices.reshape(())
    return np.take(x, idx.astype(np.int64), axis=axis).reshape(out_shape)


BACKEND = {
    "GATHER": lambda c, shape: numpy_gather(*c.args, out_shape=shape, **c.kwargs),
    "GATHER_ELEMENTS": lambda c, shape: np.take_along_axis(c.args[0], c.args[1].astype(np.int64), c.kwargs["axis"]),
    "JOIN": lambda c, shape: np.concatenate(c.args[0], axis=c.kwargs["axis"]),
}


@pytest.mark.parametrize("operator", sorted(BACKEND))
@settings(max_examples=60)
@given(data=__import__("hypothesis").strategies.data())
def test_numpy_backend_matches_dmlref(operator, data):
    case = data.draw(strategies.cases(operator))
    expected = case.call()                                   # dmlref, the reference
    actual = BACKEND[operator](case, expected.shape)        # the "device"
    dmlref.assert_same_bits(actual, expected)


def test_a_wrong_backend_is_shrunk_to_a_small_case():
    def wrong_take_along_axis(c):  # forgets negative indices: clips them to 0
        x, idx = c.args
        return np.take_along_axis(x, np.clip(idx.astype(np.int64), 0, None), c.kwargs["axis"])

    def fails(c):
        try:
            dmlref.assert_same_bits(wrong_take_along_axis(c), c.call())
            return False
        except AssertionError:
            return True

    smallest = find(strategies.cases("GATHER_ELEMENTS", index_type="INT32"), fails,
                    settings=settings(max_examples=2000, database=None, derandomize=True))
    x, idx = smallest.args
    assert fails(smallest) and (idx < 0).any()
    assert x.size <= 4 and idx.size == 1, smallest
