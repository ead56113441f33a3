"""PADDING and PADDING1 through the numpy functions (docs/operators.md P5): the page's
REFLECTION example, the CONSTANT fill given as a number or as the union's bytes, enum
names, and a case file written from a call that the command reads back."""
import numpy as np
import pytest

import dmlref
from util import run_case, same_bytes

X = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [1, 2, 3, 4], [5, 6, 7, 8]], np.float32).reshape(1, 1, 4, 4)
REFLECTION = [[7, 6, 5, 6, 7, 8, 7, 6, 5, 6], [3, 2, 1, 2, 3, 4, 3, 2, 1, 2]] * 4


def test_padding_doc_reflection():
    out = dmlref.padding(X, padding_mode="REFLECTION", padding_value=0.0, start_padding=[0, 0, 1, 2],
                         end_padding=[0, 0, 3, 4], feature_level="1_0")
    assert out.shape == (1, 1, 8, 10) and out.dtype == np.float32
    assert out.reshape(8, 10).tolist() == REFLECTION


def test_padding1_doc_reflection_and_constant():
    out = dmlref.padding1(X, padding_mode=2, padding_value_data_type="FLOAT32", padding_value=0.0,
                          start_padding=[0, 0, 1, 2], end_padding=[0, 0, 3, 4], feature_level="5_0")
    assert out.reshape(8, 10).tolist() == REFLECTION
    out = dmlref.padding1(X, padding_mode="CONSTANT", padding_value_data_type=np.float32, padding_value=9,
                          start_padding=[0, 0, 1, 2], end_padding=[0, 0, 3, 4])
    assert np.pad(X, [(0, 0), (0, 0), (1, 3), (2, 4)], constant_values=9).tolist() == out.tolist()


def test_padding1_union_bits_and_padding_conversion():
    x = np.array([7], np.int64)
    raw = np.array([-2**63], np.int64).tobytes()
    out = dmlref.padding1(x, padding_mode="CONSTANT", padding_value_data_type="INT64", padding_value=raw,
                          start_padding=[1], end_padding=[1])
    assert out.tolist() == [-2**63, 7, -2**63]
    out = dmlref.padding(np.array([1, 2], np.int32), padding_mode="CONSTANT", padding_value=10.6,
                         start_padding=[1], end_padding=[0])
    assert out.tolist() == [10, 1, 2]  # "10.6 will become 10"
    h = dmlref.padding1(np.array([1.5], np.float16), padding_mode="CONSTANT", padding_value_data_type="FLOAT16",
                        padding_value=np.float16(1 / 3), start_padding=[0], end_padding=[1])
    assert same_bytes(h, np.array([1.5, 1 / 3], np.float16))


def test_padding_invalid_mode_at_level():
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.padding(X, padding_mode="WRAP", padding_value=0.0, start_padding=[0, 0, 1, 2],
                       end_padding=[0, 0, 3, 4], feature_level="6_3")
    assert e.value.rule == "PD4"
    with pytest.raises(TypeError):
        dmlref.padding(X, padding_mode="MIRROR", padding_value=0.0, start_padding=[0] * 4, end_padding=[0] * 4)


def test_padding1_case_file_round_trip():
    case = dmlref.Case.from_call(dmlref.padding1, X, padding_mode="SYMMETRIC", padding_value_data_type="FLOAT32",
                                 padding_value=-0.0, start_padding=[0, 0, 1, 2], end_padding=[0, 0, 3, 4],
                                 feature_level="5_0")
    assert case.doc["PaddingMode"] == "SYMMETRIC" and case.doc["PaddingValueDataType"] == "FLOAT32"
    assert case.validate() is None
    got = run_case(case)["OutputTensor"]  # the whole buffer, packed here
    assert got.reshape(8, 10)[0].tolist() == [2, 1, 1, 2, 3, 4, 4, 3, 2, 1]
