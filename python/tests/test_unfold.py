"""UNFOLD through dmlref.unfold(): the page's two examples (docs/operators.md Q12; the output keeps
the input's rank), torch.nn.functional.unfold on 4-D float inputs (padding, strides, dilations,
1 and 2 threads, the oracle), every data type on a strided view, bits kept, and its rules' errors."""
import numpy as np
import pytest

import dmlref
from util import bits, same_bytes


def test_unfold_doc_examples():
    x = np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5)
    out = dmlref.unfold(x, window_sizes=[3, 3], strides=[1, 1], dilations=[1, 1], start_padding=[0, 0],
                        end_padding=[0, 0])
    assert out.shape == (1, 1, 9, 9)  # the page prints {1, 9, 9} (docs/operators.md section 9 item 57)
    assert out[0, 0, 0].tolist() == [0, 1, 2, 5, 6, 7, 10, 11, 12]
    out = dmlref.unfold(x, window_sizes=[3, 3], strides=[1, 1], dilations=[1, 1], start_padding=[1, 0],
                        end_padding=[1, 0])
    assert out.shape == (1, 1, 9, 15)
    assert out[0, 0, 0].tolist() == [0, 0, 0, 0, 1, 2, 5, 6, 7, 10, 11, 12, 15, 16, 17]
    assert out[0, 0, 8, -3:].tolist() == [0, 0, 0]


def test_unfold_matches_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(177)
    for w, s, d, p in (((3, 3), (1, 1), (1, 1), (1, 1)), ((2, 3), (2, 1), (1, 2), (0, 2)), ((1, 2), (3, 2), (2, 1), (2, 0))):
        x = rng.standard_normal((2, 3, 7, 6)).astype(np.float32)
        want = torch.nn.functional.unfold(torch.from_numpy(x), w, dilation=d, padding=p, stride=s).numpy()
        for threads in (1, 2):
            out = dmlref.unfold(x, window_sizes=list(w), strides=list(s), dilations=list(d), start_padding=list(p),
                                end_padding=list(p), threads=threads)
            assert same_bytes(out.reshape(want.shape), want)
        oracle = dmlref.unfold(x, window_sizes=list(w), strides=list(s), dilations=list(d), start_padding=list(p),
                               end_padding=list(p), force_oracle=True)
        assert same_bytes(oracle.reshape(want.shape), want)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.float16, np.int16, np.uint16, np.float32, np.int32,
                                   np.uint32, np.int64, np.uint64, np.float64])
def test_unfold_every_type_on_a_view(dtype):
    rng = np.random.default_rng(5)
    base = rng.integers(0, 256, size=(2, 4, 6, 9), dtype=np.uint8).astype(dtype)
    x = base[:, ::2, 1:, ::2]  # a strided view with gaps: {2, 2, 5, 5}
    kw = dict(window_sizes=[2, 3], strides=[1, 2], dilations=[2, 1], start_padding=[1, 0], end_padding=[0, 1])
    want = dmlref.unfold(np.ascontiguousarray(x), force_oracle=True, **kw)
    for threads in (1, 2):
        assert same_bytes(dmlref.unfold(x, threads=threads, **kw), want)
    # the im2col definition, in numpy: window offset (k0, k1), block (b0, b1)
    xp = np.pad(np.ascontiguousarray(x), ((0, 0), (0, 0), (1, 0), (0, 1)))
    blocks = ((5 + 1 - 2 - 1) // 1 + 1, (5 + 1 - 2 - 1) // 2 + 1)
    ref = np.zeros((2, 2 * 6, blocks[0] * blocks[1]), dtype)
    for c in range(2):
        for k0 in range(2):
            for k1 in range(3):
                for b0 in range(blocks[0]):
                    for b1 in range(blocks[1]):
                        ref[:, c * 6 + k0 * 3 + k1, b0 * blocks[1] + b1] = xp[:, c, b0 + 2 * k0, 2 * b1 + k1]
    assert same_bytes(want.reshape(ref.shape), ref)


def test_unfold_keeps_bits():
    x = np.array([0x7fc01234, 0x80000000, 0x7f800001, 0xffa00005], np.uint32).view(np.float32).reshape(1, 1, 4)
    out = dmlref.unfold(x, window_sizes=[2], strides=[1], dilations=[1], start_padding=[1], end_padding=[1])
    assert bits(out).reshape(-1).tolist() == [0, 0x7fc01234, 0x80000000, 0x7f800001, 0xffa00005,
                                              0x7fc01234, 0x80000000, 0x7f800001, 0xffa00005, 0]


def test_unfold_errors():
    x = np.zeros((1, 1, 5, 5), np.float32)
    kw = dict(window_sizes=[3, 3], strides=[1, 1], dilations=[1, 1], start_padding=[0, 0], end_padding=[0, 0])
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.unfold(x, **dict(kw, strides=[1, 0]))
    assert e.value.rule == "UF4" and "Strides[1] is 0" in str(e.value)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.unfold(x, **dict(kw, dilations=[1, 3]))
    assert e.value.rule == "UF5"
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.unfold(x, **dict(kw, window_sizes=[3, 3, 1], strides=[1, 1, 1], dilations=[1, 1, 1],
                                start_padding=[0, 0, 0], end_padding=[0, 0, 0]))
    assert e.value.rule == "UF3"
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.unfold(np.zeros((5, 5), np.float32), window_sizes=[], strides=[], dilations=[], start_padding=[],
                      end_padding=[])
    assert e.value.rule == "UF1"
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.unfold(x, out=np.zeros((1, 9, 9), np.float32), **kw)
    assert e.value.rule == "UF1"
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.unfold(x, feature_level="6_3", **kw)
