"""ELEMENT_WISE_IDENTITY through dmlref.element_wise_identity(): the copy, and ScaleBias
(docs/operators.md P7): fl32(fl32(x * Scale) + Bias), two roundings, no fused multiply-add,
FLOAT16 widened first and rounded to nearest even last, a NaN result the canonical quiet NaN;
FLOAT32 and FLOAT16 only (ID5)."""
import numpy as np
import pytest

import dmlref
from util import bits, same_bytes


def numpy_scale_bias(x, scale, bias):
    s, b = np.float32(scale), np.float32(bias)
    with np.errstate(all="ignore"):
        y = np.add(np.multiply(x.astype(np.float32), s, dtype=np.float32), b, dtype=np.float32)
        nan = np.isnan(y)
        if x.dtype == np.float32:
            return np.where(nan, np.uint32(0x7FC00000), bits(y))
        return np.where(nan, np.uint16(0x7E00), bits(y.astype(np.float16)))


def test_copy_keeps_bits():
    x = np.array([0x7FC01234, 0x80000000, 0x7F800001], np.uint32).view(np.float32)
    assert bits(dmlref.element_wise_identity(x)).tolist() == [0x7FC01234, 0x80000000, 0x7F800001]


def test_scale_bias_values():
    x = np.array([-0.0, 1.5, 3.0, np.inf], np.float32)
    out = dmlref.element_wise_identity(x, scale_bias=(2.0, -1.0))
    assert out.dtype == np.float32 and out.tolist() == [-1.0, 2.0, 5.0, np.inf]
    # {1, 0} is not the identity: -0.0 becomes +0.0, a NaN payload does not survive
    x = np.array([0x80000000, 0x7FC01234, 0xFF800001], np.uint32).view(np.float32)
    assert bits(dmlref.element_wise_identity(x, scale_bias=(1.0, 0.0))).tolist() == [0, 0x7FC00000, 0x7FC00000]
    # two roundings: (1 + 2^-12)^2 - (1 + 2^-11) is +0 (a fused multiply-add gives 2^-24)
    a = np.float32(1 + 2.0 ** -12)
    out = dmlref.element_wise_identity(np.array([a], np.float32), scale_bias=(a, -(1 + 2.0 ** -11)))
    assert bits(out).tolist() == [0]


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_scale_bias_matches_numpy(dtype):
    rng = np.random.default_rng(7)
    raw = rng.integers(0, 1 << 16, size=(5, 6, 70), dtype=np.uint64)
    raw = (raw << 16 | raw).astype(np.uint32) if dtype == np.float32 else raw.astype(np.uint16)
    base = raw.view(dtype)
    x = base[:, ::2, 1:]  # a strided view with gaps
    for scale, bias in ((1.0, 0.0), (0.75, -3.5), (-1e-3, 65504.0), (3.0, float("nan"))):
        want = numpy_scale_bias(x, scale, bias)
        for threads in (1, 2):
            out = dmlref.element_wise_identity(x, scale_bias=(scale, bias), threads=threads)
            assert out.dtype == dtype and same_bytes(bits(out), want)
        assert same_bytes(dmlref.element_wise_identity(x, scale_bias=(scale, bias), force_oracle=True), out)


def test_scale_bias_other_types():
    for dtype in (np.float64, np.int32, np.uint8, np.int64):
        with pytest.raises(dmlref.InvalidDescriptor) as e:
            dmlref.element_wise_identity(np.zeros((3, 2), dtype), scale_bias=(1.0, 0.0))
        assert e.value.rule == "ID5" and "ScaleBias is not supported for DataType" in str(e.value)
