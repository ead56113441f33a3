"""DEPTH_TO_SPACE, SPACE_TO_DEPTH and their 1 forms through the numpy functions: the
examples of docs/operators.md P6.4 (tests/cases/*depth*_doc*.json), their inverses,
the output shapes, and a rule's error."""
import numpy as np
import pytest

import dmlref
from util import same_bytes

# channel k of the depth tensor {1,8,2,3} holds 9k + [0,1,2; 3,4,5]
DEPTH = (9 * np.arange(8, dtype=np.uint32).reshape(1, 8, 1, 1) + np.arange(6, dtype=np.uint32).reshape(1, 1, 2, 3))
DCR = np.array([[[0, 18, 1, 19, 2, 20], [36, 54, 37, 55, 38, 56], [3, 21, 4, 22, 5, 23], [39, 57, 40, 58, 41, 59]],
                [[9, 27, 10, 28, 11, 29], [45, 63, 46, 64, 47, 65], [12, 30, 13, 31, 14, 32],
                 [48, 66, 49, 67, 50, 68]]], np.uint32).reshape(1, 2, 4, 6)
CRD = np.array([[[0, 9, 1, 10, 2, 11], [18, 27, 19, 28, 20, 29], [3, 12, 4, 13, 5, 14], [21, 30, 22, 31, 23, 32]],
                [[36, 45, 37, 46, 38, 47], [54, 63, 55, 64, 56, 65], [39, 48, 40, 49, 41, 50],
                 [57, 66, 58, 67, 59, 68]]], np.uint32).reshape(1, 2, 4, 6)


@pytest.mark.parametrize("force_oracle", [False, True])
def test_doc_examples_and_inverses(force_oracle):
    kw = {"force_oracle": force_oracle}
    assert same_bytes(dmlref.depth_to_space(DEPTH, block_size=2, **kw), DCR)
    assert same_bytes(dmlref.depth_to_space1(DEPTH, block_size=2, order=0, **kw), DCR)
    assert same_bytes(dmlref.depth_to_space1(DEPTH, block_size=2, order=1, **kw), CRD)
    assert same_bytes(dmlref.space_to_depth(DCR, block_size=2, **kw), DEPTH)
    assert same_bytes(dmlref.space_to_depth1(DCR, block_size=2, order=0, **kw), DEPTH)
    out = dmlref.space_to_depth1(CRD, block_size=2, order=1, **kw)
    assert out.shape == (1, 8, 2, 3) and same_bytes(out, DEPTH)


def test_float32_at_1_0_into_a_strided_output():
    x = DEPTH.astype(np.float32)
    buf = np.full((1, 2, 4, 8), -1, np.float32)
    dmlref.depth_to_space(x, block_size=2, out=buf[..., :6], feature_level="1_0")
    assert same_bytes(buf[..., :6], DCR.astype(np.float32)) and (buf[..., 6:] == -1).all()


def test_rules():
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.depth_to_space(DEPTH[:, :6], block_size=2)
    assert e.value.rule == "DS4" and "must be a multiple of BlockSize * BlockSize" in str(e.value)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.space_to_depth1(DCR, block_size=0, order=0)
    assert e.value.rule == "DS3"
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.depth_to_space1(DEPTH, block_size=2, order=2)
    assert e.value.rule == "DS6"
