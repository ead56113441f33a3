"""Random strided cases of every operator and data type: the package's outputs are
byte-identical to `dmlref run --npy` (the whole output buffers, gap bytes
included), with the inputs passed without copies and with copies."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dmlref
from dmlref import _types, strategies
from util import run_case

PAIRS = [(op, dt) for op in strategies.operators() for dt in dmlref.data_types
         if any(dt in t for t, _ in strategies.support(op).values())]


def _flat(d):
    return [v for vs in d.values() for v in (vs if isinstance(vs, list) else [vs])]


def _copied(a):
    """The same values in a layout dmlref must copy: misaligned (multi-byte types) or
    with negative strides (one-byte types)."""
    if isinstance(a, (list, tuple)):
        return [_copied(x) for x in a]
    if a.itemsize == 1:
        return np.flip(np.ascontiguousarray(np.flip(a)))
    raw = np.empty(a.nbytes + 1, np.uint8)[1:]
    m = raw.view(a.dtype).reshape(a.shape)
    m[...] = a
    return m


def _can_force_copy(args):
    flat = [x for a in args for x in (a if isinstance(a, (list, tuple)) else [a])]
    return any(x.itemsize > 1 or x.size > 1 for x in flat)


def _check(case):
    before = _types.copies
    mine = case.call(out=True)                       # inputs as drawn: strided, broadcast
    assert _types.copies == before, f"a drawn layout was copied: {case!r}"
    ref = _flat(run_case(case.case()))               # the command, from the case file
    assert len(ref) == len(mine)
    for a, b in zip(mine, ref):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), case
    copied = case.call(out=True, args=[_copied(a) for a in case.args])
    assert _types.copies > before or not _can_force_copy(case.args)
    for a, b in zip(copied, mine):
        assert a.tobytes() == b.tobytes(), case


@pytest.mark.parametrize("operator,data_type", PAIRS)
@settings(max_examples=12)
@given(data=st.data())
def test_same_bytes_as_the_command(operator, data_type, data):
    _check(data.draw(strategies.cases(operator, data_type=data_type)))


@pytest.mark.parametrize("operator", strategies.operators())
@settings(max_examples=25)
@given(data=st.data())
def test_same_bytes_at_any_feature_level(operator, data):
    _check(data.draw(strategies.cases(operator, "any")))


# Data types an operator accepts at no feature level (docs/operators.md P0.3's decision: TILE's
# tables have no FLOAT64; MAX_UNPOOLING's T10, FILL_VALUE_SEQUENCE's and TOP_K(1)'s have none either).
_NOT_RS4 = {"FLOAT64", "INT64", "UINT64", "INT32", "UINT32", "INT16", "UINT16"}  # the RESAMPLE family: {F32, F16, I8, U8}
NEVER = {"TILE": {"FLOAT64"}, "MAX_UNPOOLING": {"FLOAT64"}, "FILL_VALUE_SEQUENCE": {"FLOAT64"},
         "TOP_K": {"FLOAT64"}, "TOP_K1": {"FLOAT64"},
         "UPSAMPLE_2D": _NOT_RS4 | {"INT8", "UINT8"},
         "RESAMPLE": _NOT_RS4, "RESAMPLE1": _NOT_RS4, "RESAMPLE2": _NOT_RS4, "RESAMPLE3": _NOT_RS4,
         "NONZERO_COORDINATES": {"FLOAT64", "INT64", "UINT64"},  # T8 at every level (rule NZ2)
         "ARGMIN": {"FLOAT64"}, "ARGMAX": {"FLOAT64"}}  # T10 at 4_1


def test_every_operator_and_type_is_covered():
    ops = {op for op, _ in PAIRS}
    assert ops == set(strategies.operators())
    for op in ops:
        assert {dt for o, dt in PAIRS if o == op} == set(dmlref.data_types) - NEVER.get(op, set()), op


LEVELS = [(op, fl) for op in strategies.operators() for fl in strategies.levels(op)]


@pytest.mark.parametrize("operator,feature_level", LEVELS)
@settings(max_examples=5)
@given(data=st.data())
def test_drawn_cases_are_valid_at_their_level(operator, feature_level, data):
    case = data.draw(strategies.cases(operator, feature_level))
    assert case.feature_level == feature_level
    case.call()  # raises InvalidDescriptor if the strategy drew an invalid case


@settings(max_examples=150)
@given(data=st.data())
def test_identity_against_numpy(data):
    """Until the command reads ELEMENT_WISE_IDENTITY cases: its outputs against numpy's
    copy, on the same random strided cases, gap bytes untouched."""
    case = data.draw(strategies.cases("ELEMENT_WISE_IDENTITY", "any"))
    bufs, views = case.out_buffers()
    before = _types.copies
    dmlref.element_wise_identity(case.args[0], out=views[0], feature_level=case.feature_level)
    assert _types.copies == before
    dmlref.assert_same_bits(views[0], case.args[0])
    shape, strides = case.out_layouts[0]
    mask = np.ones(bufs[0].size, bool)
    mask[dmlref.addressed_offsets(shape, strides)] = False
    assert (bufs[0].view(np.uint8).reshape(bufs[0].size, -1)[mask] == 0xCD).all()
