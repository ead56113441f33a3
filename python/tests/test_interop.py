"""Inputs given as any object with __dlpack__ or __array__ (torch CPU tensors among them)."""
import numpy as np

import dmlref
from dmlref import _types
from util import same_bytes


class ArrayOnly:
    """An object offering only __array__ (as a torch CPU tensor does besides __dlpack__)."""

    def __init__(self, a):
        self._a = a

    def __array__(self, dtype=None):
        return self._a if dtype is None else self._a.astype(dtype)


class DLPackOnly:
    """An object offering only the DLPack protocol (numpy's own, forwarded)."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, stream=None):
        return self._a.__dlpack__()

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


X = np.arange(12, dtype=np.float32).reshape(4, 3)
IDX = np.array([[3, -1, 0]], np.int32)


def test_array_protocol_inputs():
    want = dmlref.gather(X, IDX, axis=0, index_dimensions=1)
    got = dmlref.gather(ArrayOnly(X), ArrayOnly(IDX), axis=0, index_dimensions=1)
    assert got.dtype == np.float32 and same_bytes(got, want)
    assert want[1].tolist() == [9.0, 10.0, 11.0]


def test_dlpack_inputs_are_not_copied():
    nan = np.array([0x7FC00123, 0x80000000, 0x7F800001, 1], np.uint32).view(np.float32).reshape(1, 4)
    before = _types.copies
    got = dmlref.join([DLPackOnly(nan), DLPackOnly(X[:1, :].repeat(4, 1)[:, :4])], axis=0)
    assert _types.copies == before
    assert got[:1].view(np.uint32).tolist() == [[0x7FC00123, 0x80000000, 0x7F800001, 1]]  # payloads, -0.0
    strided = np.arange(20, dtype=np.int16).reshape(4, 5)[:, ::2]
    out = dmlref.element_wise_identity(DLPackOnly(strided))
    assert out.tolist() == strided.tolist()


def test_dlpack_object_used_for_output_dtype():
    got = dmlref.split(DLPackOnly(np.arange(6, dtype=np.uint8).reshape(3, 2)), axis=0, sizes=[2, 1])
    assert [g.dtype for g in got] == [np.uint8, np.uint8] and got[1].tolist() == [[4, 5]]


def test_np_from_dlpack_round_trip():
    """numpy's own __dlpack__: an ndarray exported and taken back keeps its memory."""
    y = np.from_dlpack(X)
    assert np.shares_memory(y, X)
    assert same_bytes(dmlref.tile(y, repeats=[1, 2]), np.tile(X, (1, 2)))


def test_torch_tensor_when_installed():
    import pytest
    torch = pytest.importorskip("torch")
    t = torch.arange(12, dtype=torch.float32).reshape(4, 3)
    got = dmlref.gather(t, torch.tensor([[3, -1, 0]], dtype=torch.int32), axis=0, index_dimensions=1)
    assert same_bytes(got, dmlref.gather(X, IDX, axis=0, index_dimensions=1))
