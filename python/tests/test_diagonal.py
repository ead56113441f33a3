"""DIAGONAL_MATRIX and DIAGONAL_MATRIX1 through dmlref.diagonal_matrix() / diagonal_matrix1():
the section's examples (docs/operators.md P10), np.eye / np.tri / np.triu on strided views of
every data type, the union Value's bits and types, the optional input, and the rules' errors."""
import inspect

import numpy as np
import pytest

import dmlref
from util import bits, plain_signature, same_bytes

TYPES = [np.uint8, np.int8, np.float16, np.int16, np.uint16, np.float32, np.int32, np.uint32, np.float64,
         np.int64, np.uint64]


def test_signatures():
    assert plain_signature(dmlref.diagonal_matrix).startswith("(*, offset, value, shape=None, dtype=None,")
    sig = plain_signature(dmlref.diagonal_matrix1)
    assert sig.startswith("(input=None, /, *, value_data_type=None, value, diagonal_fill_begin, diagonal_fill_end, "
                          "shape=None, dtype=None,"), sig


def test_diagonal_matrix_doc_examples():
    for offset, w, want in [(0, 3, np.eye(3)), (1, 3, [[0, 1, 0], [0, 0, 1], [0, 0, 0]]),
                            (-1, 2, [[0, 0], [1, 0], [0, 1]]), (-3, 2, np.zeros((3, 2)))]:
        out = dmlref.diagonal_matrix(offset=offset, value=1.0, shape=(1, 1, 3, w), dtype=np.float32,
                                     feature_level="2_0")
        assert out.dtype == np.float32 and out.shape == (1, 1, 3, w)
        assert out[0, 0].tolist() == np.asarray(want, np.float32).tolist()


def test_diagonal_matrix1_doc_examples():
    band = dmlref.diagonal_matrix1(value=7.0, diagonal_fill_begin=0, diagonal_fill_end=3, shape=(4, 5),
                                   dtype="FLOAT32", feature_level="5_1")
    assert band.tolist() == [[7, 7, 7, 0, 0], [0, 7, 7, 7, 0], [0, 0, 7, 7, 7], [0, 0, 0, 7, 7]]
    # "Default identity matrix": the page prints Value 7 with ones (section 9 item 32)
    eye = dmlref.diagonal_matrix1(value=1, diagonal_fill_begin=0, diagonal_fill_end=1, shape=(4, 5), dtype=np.float32)
    assert same_bytes(eye, np.eye(4, 5, dtype=np.float32))
    sevens = dmlref.diagonal_matrix1(value=7, diagonal_fill_begin=0, diagonal_fill_end=1, shape=(4, 5),
                                     dtype=np.float32)
    assert same_bytes(sevens, 7 * np.eye(4, 5, dtype=np.float32))
    x = np.array([[4, 7, 3, 7, 9], [1, 2, 8, 6, 9], [9, 4, 1, 8, 7], [4, 3, 4, 2, 4]], np.float32)
    upper = dmlref.diagonal_matrix1(x, value=0, diagonal_fill_begin=-2**31, diagonal_fill_end=1)
    assert upper.tolist() == [[0, 7, 3, 7, 9], [0, 0, 8, 6, 9], [0, 0, 0, 8, 7], [0, 0, 0, 0, 4]]
    assert same_bytes(upper, np.triu(x, 1))
    diag = dmlref.diagonal_matrix1(x, value=0, diagonal_fill_begin=1, diagonal_fill_end=0)
    assert diag.tolist() == [[4, 0, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 2, 0]]


@pytest.mark.parametrize("dtype", TYPES)
def test_eye_and_trilu_on_strided_views(dtype):
    rng = np.random.default_rng(3)
    base = rng.integers(0, 100, size=(3, 9, 11)).astype(dtype)
    x = base[:, ::2, 1:8]  # {3, 5, 7} with gaps
    one = np.ones((), dtype)
    for k in (-6, -1, 0, 2, 7):
        for threads in (1, 2):
            eye = dmlref.diagonal_matrix(offset=k, value=1.0, shape=(3, 5, 7), dtype=dtype, threads=threads)
            assert same_bytes(eye, np.broadcast_to(np.eye(5, 7, k=k, dtype=dtype), (3, 5, 7)))
            # ONNX Trilu: upper keeps x - y >= k ([INT32_MIN, k) takes 0), lower keeps x - y <= k
            up = dmlref.diagonal_matrix1(x, value=0, diagonal_fill_begin=-2**31, diagonal_fill_end=k, threads=threads)
            assert same_bytes(up, np.triu(x, k))
            lo = dmlref.diagonal_matrix1(x, value=0, diagonal_fill_begin=k + 1, diagonal_fill_end=2**31 - 1,
                                         threads=threads)
            assert same_bytes(lo, np.tril(x, k))
            band = dmlref.diagonal_matrix1(x, value=one, diagonal_fill_begin=k, diagonal_fill_end=k + 3,
                                           threads=threads, force_oracle=threads == 2)
            mask = np.tri(5, 7, k + 2, dtype=bool) & ~np.tri(5, 7, k - 1, dtype=bool)
            assert same_bytes(band, np.where(mask, one, x))


def test_value_conversion_and_bits():
    # v0's FLOAT: truncated toward zero and saturated; NaN -> 0; FLOAT16 to nearest even
    assert dmlref.diagonal_matrix(offset=0, value=10.6, shape=(1, 1), dtype=np.int32).tolist() == [[10]]
    assert dmlref.diagonal_matrix(offset=0, value=300, shape=(1, 1), dtype=np.uint8).tolist() == [[255]]
    assert dmlref.diagonal_matrix(offset=0, value=-5, shape=(1, 1), dtype=np.uint16).tolist() == [[0]]
    assert dmlref.diagonal_matrix(offset=0, value=float("nan"), shape=(1, 1), dtype=np.int64).tolist() == [[0]]
    assert bits(dmlref.diagonal_matrix(offset=0, value=0.1, shape=(1, 2), dtype=np.float16)).tolist() == [[0x2E66, 0]]
    # v1's union: bit for bit, given as a numpy scalar, as raw bytes or as a number of the type
    snan = np.array([0x7F800001], np.uint32).view(np.float32)
    out = dmlref.diagonal_matrix1(value=snan[0], diagonal_fill_begin=0, diagonal_fill_end=1, shape=(2, 2),
                                  dtype=np.float32)
    assert bits(out).tolist() == [[0x7F800001, 0], [0, 0x7F800001]]
    out = dmlref.diagonal_matrix1(value=b"\x01\x7e", diagonal_fill_begin=0, diagonal_fill_end=1, shape=(1, 1),
                                  dtype=np.float16)
    assert bits(out).tolist() == [[0x7E01]]
    for v in (-2**63, 2**63 - 1):
        out = dmlref.diagonal_matrix1(value=v, value_data_type="INT64", diagonal_fill_begin=0, diagonal_fill_end=1,
                                      shape=(2, 2), dtype=np.int64)
        assert out.tolist() == [[v, 0], [0, v]]
    out = dmlref.diagonal_matrix1(value=2**64 - 1, diagonal_fill_begin=0, diagonal_fill_end=1, shape=(1, 1),
                                  dtype=np.uint64)
    assert out.tolist() == [[2**64 - 1]]
    out = dmlref.diagonal_matrix1(value=0.1, value_data_type=np.float16, diagonal_fill_begin=0,
                                  diagonal_fill_end=1, shape=(1, 1), dtype=np.float16)
    assert bits(out).tolist() == [[0x2E66]]
    with pytest.raises(ValueError, match="not representable in UINT8"):
        dmlref.diagonal_matrix1(value=256, diagonal_fill_begin=0, diagonal_fill_end=1, shape=(1, 1), dtype=np.uint8)


def test_case_files_of_calls():
    # what dmlref.Case.from_call writes, `dmlref run` reads back: the enum by name, the union in its type
    c = dmlref.Case.from_call(dmlref.diagonal_matrix1, value=-2**63, diagonal_fill_begin=1, diagonal_fill_end=0,
                              shape=(2, 3), dtype=np.int64)
    assert c.doc["ValueDataType"] == "INT64" and c.doc["Value"] == -2**63 and "InputTensor" not in c.doc
    got = c.run()["OutputTensor"]
    assert got.tolist() == [0, -2**63, -2**63, -2**63, 0, -2**63]  # inverted: all but the diagonal
    c = dmlref.Case.from_call(dmlref.diagonal_matrix, offset=1, value=float("-inf"), shape=(2, 2), dtype=np.float16)
    assert c.doc["Value"] == "-inf"
    assert bits(c.run()["OutputTensor"]).tolist() == [0, 0xFC00, 0, 0]


def test_errors():
    with pytest.raises(TypeError, match="shape"):
        dmlref.diagonal_matrix(offset=0, value=1.0, dtype=np.float32)
    with pytest.raises(TypeError, match="dtype"):
        dmlref.diagonal_matrix1(value=1, diagonal_fill_begin=0, diagonal_fill_end=1, shape=(2, 2))
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.diagonal_matrix(offset=0, value=1.0, shape=(2, 2), dtype=np.float32, feature_level="3_1")
    assert e.value.rule == "DM1" and "must be in [4, 4] at feature level 3_1" in str(e.value)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.diagonal_matrix(offset=0, value=1.0, shape=(1, 1, 2, 2), dtype=np.int8, feature_level="2_0")
    assert e.value.rule == "DM2"
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.diagonal_matrix1(x, value=1, value_data_type="FLOAT16", diagonal_fill_begin=0, diagonal_fill_end=1)
    assert e.value.rule == "DG5" and "ValueDataType (FLOAT16) must equal OutputTensor.DataType (FLOAT32)" in str(e.value)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.diagonal_matrix1(x, value=1, diagonal_fill_begin=0, diagonal_fill_end=1, out=np.zeros((2, 4), np.float32))
    assert e.value.rule == "DG4"
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.diagonal_matrix1(x, value=1, diagonal_fill_begin=0, diagonal_fill_end=1, feature_level="5_0")
    assert "not available at feature level 5_0" in str(e.value)
