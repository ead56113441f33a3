"""DMLREF_ERROR_CANNOT_VERIFY (the command's exit 7) is no verdict: dmlref.CannotVerify, never
InvalidDescriptor (a valid descriptor must never be called invalid)."""
import os

import pytest

import dmlref
from dmlref import _errors
from util import ROOT

CASE = os.path.join(ROOT, "tests", "cases", "bad", "e7_cannot_verify.json")


def test_status_is_cannot_verify_not_invalid():
    e = _errors.from_status("DMLREF_ERROR_CANNOT_VERIFY", "GATHER: cannot verify", operator="GATHER")
    assert isinstance(e, dmlref.CannotVerify) and isinstance(e, dmlref.Error)
    assert not isinstance(e, (dmlref.InvalidDescriptor, ValueError))


def test_case_validate_and_run():
    case = dmlref.Case.load(CASE)
    got = None
    try:
        got = case.validate()
    except dmlref.Error as e:  # validate may raise rather than return
        got = e
    assert isinstance(got, dmlref.CannotVerify), repr(got)
    assert "cannot verify that the output elements are disjoint" in got.message
    with pytest.raises(dmlref.CannotVerify) as info:
        case.run()
    assert not isinstance(info.value, dmlref.InvalidDescriptor)
    assert "cannot verify" in str(info.value)
