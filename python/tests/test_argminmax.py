"""ARGMIN / ARGMAX through dmlref.argmin() / dmlref.argmax(): the pages' examples (docs/operators.md
Q9), numpy's np.argmin / np.argmax over the reduced axes moved last and merged (the first index, a
NaN winning; DECREASING on the flipped rows) on every type with ties, NaNs and +-0, 1 and 2
threads and the oracle, the index types, and the rules' errors."""
import numpy as np
import pytest

import dmlref


def reference(x, axes, is_max, last):
    red = sorted(axes)
    kept = [d for d in range(x.ndim) if d not in red]
    y = x.transpose(kept + red).reshape([x.shape[d] for d in kept] + [-1])
    f = np.argmax if is_max else np.argmin
    i = y.shape[-1] - 1 - f(y[..., ::-1], axis=-1) if last else f(y, axis=-1)
    return np.asarray(i).reshape([1 if d in red else n for d, n in enumerate(x.shape)])


def test_doc_examples():
    x = np.array([[1, 2, 3], [3, 0, 4], [2, 5, 2]], np.float32)
    for axes, lo, hi in (([0], [[0, 1, 2]], [[1, 2, 1]]), ([1], [[0], [1], [0]], [[2], [2], [1]]),
                         ([0, 1], [[4]], [[7]]), ([1, 0], [[4]], [[7]])):
        assert dmlref.argmin(x, axes=axes, axis_direction="INCREASING", dtype="int64").tolist() == lo
        assert dmlref.argmax(x, axes=axes, axis_direction="INCREASING", dtype=np.uint32).tolist() == hi
    v = np.array([1, 2, 3, 2, 1], np.int32)
    assert dmlref.argmin(v, axes=[0], axis_direction="INCREASING", dtype=np.int32).tolist() == [0]
    assert dmlref.argmin(v, axes=[0], axis_direction="DECREASING", dtype=np.int32).tolist() == [4]


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.float16, np.int16, np.uint16, np.float32, np.int32,
                                   np.uint32, np.int64, np.uint64])
def test_matches_numpy(dtype):
    rng = np.random.default_rng(138)
    specials = {np.float32: [np.nan, -0.0, 0.0, np.inf, -np.inf], np.float16: [np.nan, -0.0, 0.0, np.inf, -np.inf]}
    for shape, axes in (((7, 130), [1]), ((130, 9), [0]), ((3, 4, 5), [2, 0]), ((2, 3, 4, 5), [1, 3]), ((6,), [0])):
        pool = rng.integers(0, 100, size=4).astype(dtype)
        if dtype in specials and rng.integers(0, 2):
            pool = np.concatenate([pool, np.array(specials[dtype], dtype)])
        x = pool[rng.integers(0, len(pool), size=shape)]
        for is_max, fn in ((False, dmlref.argmin), (True, dmlref.argmax)):
            for last in (0, 1):
                want = reference(x, axes, is_max, last)
                for kw in ({"threads": 1}, {"threads": 2}, {"force_oracle": True}):
                    got = fn(x, axes=axes, axis_direction=last, dtype=np.int64, **kw)
                    assert got.dtype == np.int64 and np.array_equal(got, want), (shape, axes, is_max, last, kw)


def test_nan_payloads_and_zero_signs():
    bits = np.array([0x80000000, 0, 0x7FC00001, 0xFF800000, 0xFFC00000, 0x3F800000], np.uint32)
    x = bits.view(np.float32)
    for fn in (dmlref.argmin, dmlref.argmax):
        assert fn(x, axes=[0], axis_direction="INCREASING", dtype=np.uint64).tolist() == [2]  # a NaN wins
        assert fn(x, axes=[0], axis_direction="DECREASING", dtype=np.uint64).tolist() == [4]
    z = np.array([0x80000000, 0, 0x80000000], np.uint32).view(np.float32)  # -0 and +0 tie
    assert dmlref.argmax(z, axes=[0], axis_direction="INCREASING", dtype=np.int32).tolist() == [0]
    assert dmlref.argmin(z, axes=[0], axis_direction="DECREASING", dtype=np.int32).tolist() == [2]


def test_rules():
    x = np.zeros((3, 4), np.float32)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.argmax(x, axes=[1, 1], axis_direction=0, dtype=np.int64)
    assert e.value.rule == "AM4" and "repeats an earlier axis" in str(e.value)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.argmax(x, axes=[2], axis_direction=0, dtype=np.int64)
    assert e.value.rule == "AM4"
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.argmin(x, axes=[0], axis_direction=0, dtype=np.float32)
    assert e.value.rule == "AM3"
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.argmin(x.astype(np.float64), axes=[0], axis_direction=0, dtype=np.int64)
    assert e.value.rule == "AM2"
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.argmin(x.astype(np.int64), axes=[0], axis_direction=0, dtype=np.int64, feature_level="4_0")
    assert e.value.rule == "AM2"
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.argmin(x, axes=[0], axis_direction=0, dtype=np.int64, out=np.zeros((3, 4), np.int64))
    assert e.value.rule == "AM5"
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.argmin(x, axes=[0], axis_direction=0, dtype=np.int64, feature_level="2_1")
