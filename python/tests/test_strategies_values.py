"""dmlref.strategies: values through hypothesis.extra.numpy (they shrink and are shown),
numpy dtypes accepted for data_type= and index_type=."""
import numpy as np
import pytest
from hypothesis import HealthCheck, find, given, settings

import dmlref
from dmlref import strategies


@settings(max_examples=20)
@given(case=strategies.cases("GATHER", data_type=np.float16, index_type=np.int64))
def test_numpy_dtypes_pin_the_types(case):
    assert case.args[0].dtype == np.float16 and case.args[1].dtype == np.int64


@pytest.mark.parametrize("t", [np.float16, "float16", np.dtype("<f2"), "FLOAT16"])
def test_every_spelling_of_a_type(t):
    case = find(strategies.cases("JOIN", data_type=t), lambda c: True)
    assert all(a.dtype == np.float16 for a in case.args[0])


def test_a_wrong_type_names_the_choices():
    with pytest.raises(ValueError, match=r"data_type=.*complex64.*FLOAT16.*np.float16"):
        strategies.cases("GATHER", data_type=np.complex64)


def test_failures_shrink_to_small_values_and_show_them():
    """Find a GATHER_ELEMENTS input holding a value above 1000: Hypothesis shrinks the
    values (drawn through hypothesis.extra.numpy) to a minimal one, and the case's repr
    shows it."""
    def big(c):
        x = c.args[0]
        return bool((x.view(np.uint32) > 1000).any())
    case = find(strategies.cases("GATHER_ELEMENTS", data_type="UINT32"), big,
                settings=settings(max_examples=500, database=None, suppress_health_check=list(HealthCheck)))
    x = case.args[0]
    values = set(x.ravel().tolist())
    big_values = {v for v in values if v > 1000}
    # shrunk: one value passes 1000 (the smallest special that does, or 1001), the rest are 0
    assert len(big_values) == 1 and values - big_values <= {0}, values
    assert min(big_values) in (1001, 2**31 - 1, 2**32 - 1, 0x7F800000)
    assert str(min(big_values)) in repr(case) and "strides" in repr(case)
    assert x.size <= 8  # the shape shrank too


def test_repr_shows_float_bits():
    case = find(strategies.cases("ELEMENT_WISE_IDENTITY", data_type=np.float32), lambda c: True)
    r = repr(case)
    assert "bits [" in r and "0x" in r


def test_drawn_case_runs():
    case = find(strategies.cases("SCATTER_ND", data_type=np.int8), lambda c: True)
    out = case.call()
    assert out.dtype == np.int8 and out.shape == case.out_layouts[0][0]
    dmlref.assert_same_bits(out, dmlref.scatter_nd(*case.args, feature_level=case.feature_level, force_oracle=True,
                                                   **case.kwargs))
