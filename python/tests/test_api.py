"""The numpy functions: values, layouts, data types, errors."""
import re

import numpy as np
import pytest

import dmlref
from dmlref import _core, _types
from util import ROOT, bits, from_bits, plain_signature, same_bytes


def test_version_is_the_librarys():
    with open(f"{ROOT}/include/dmlref.h") as f:
        header = re.search(r'DMLREF_VERSION_STRING "([^"]+)"', f.read()).group(1)
    assert dmlref.__version__ == header == _core.version()


def test_one_function_per_registry_operator():
    names = [s["name"] for s in _core.schemas()]
    assert {"GATHER", "GATHER_ELEMENTS", "SCATTER_ND", "SPLIT", "JOIN", "ELEMENT_WISE_IDENTITY"} <= set(names)
    for n in names:
        f = getattr(dmlref, n.lower())
        assert f.__name__ == n.lower() and f.operator.name == n
    assert set(dmlref.operators()) == set(names)


def test_readme_gather():
    x = np.array([1, 2, 3, 4, 5, 6], np.float32).reshape(3, 2)
    out = dmlref.gather(x, np.array([[0, 1, 1, 2]], np.uint32), axis=0, index_dimensions=1, feature_level="4_1")
    assert out.dtype == np.float32 and out.shape == (4, 2)
    assert out.tolist() == [[1, 2], [3, 4], [3, 4], [5, 6]]


def test_gather_negative_indices_and_index_dimensions():
    x = np.arange(24, dtype=np.int16).reshape(1, 2, 3, 4)
    idx = np.array([-1, 0, 2], np.int64).reshape(1, 1, 1, 3)
    out = dmlref.gather(x, idx, axis=2, index_dimensions=1)
    assert out.shape == (1, 2, 3, 4)
    assert same_bytes(out, np.take(x, [2, 0, 2], axis=2))
    # K = 2: the indices' last two dimensions replace the axis; the leading input 1 is cropped
    idx2 = np.array([[0, 1], [2, -3]], np.int32).reshape(1, 1, 2, 2)
    out2 = dmlref.gather(x, idx2, axis=2, index_dimensions=2)
    assert out2.shape == (2, 2, 2, 4)
    assert same_bytes(out2, np.take(x[0], [[0, 1], [2, 0]], axis=1))


def test_gather_elements_scatter_nd_split_join_identity():
    x = np.arange(12, dtype=np.uint8).reshape(3, 4)
    idx = np.array([[2, 0, 1, -1]], np.int32)
    assert same_bytes(dmlref.gather_elements(x, idx, axis=0), np.take_along_axis(x, np.array([[2, 0, 1, 2]]), 0))
    upd = np.array([[100, 101, 102, 103], [200, 201, 202, 203]], np.uint8)
    out = dmlref.scatter_nd(x, np.array([[2], [-3]], np.int64), upd)
    want = x.copy()
    want[2], want[0] = upd[0], upd[1]
    assert same_bytes(out, want)
    parts = dmlref.split(x, axis=1, sizes=[1, 3])
    assert [p.shape for p in parts] == [(3, 1), (3, 3)]
    assert all(same_bytes(a, b) for a, b in zip(parts, np.split(x, [1], axis=1)))
    assert same_bytes(dmlref.join(parts, axis=1), x)
    assert same_bytes(dmlref.join([x, x[:1]], axis=0), np.concatenate([x, x[:1]]))
    t = dmlref.element_wise_identity(x.T)
    assert t.flags.c_contiguous and same_bytes(t, x.T.copy())


def test_scatter_nd_counts_default_to_the_ranks():
    x = np.zeros((1, 4), np.float32)
    idx = np.array([[1], [3]], np.uint32).reshape(1, 2, 1)[0]  # (2, 1)
    upd = np.array([[5], [7]], np.float32).reshape(1, 2)
    a = dmlref.scatter_nd(x, idx.reshape(2, 1), upd.reshape(2, 1).T.reshape(1, 2), input_dimension_count=1,
                          indices_dimension_count=2)
    assert a.tolist() == [[0, 5, 0, 7]]
    x2 = np.zeros(4, np.int8)
    b = dmlref.scatter_nd(x2, np.array([3], np.int32), np.array([9], np.int8))  # counts 1 and 1
    assert b.tolist() == [0, 0, 0, 9]


@pytest.mark.parametrize("dtype,specials", [
    (np.float16, [0x8000, 0x7E01, 0x7D55, 0xFE00, 0x0001, 0x8001, 0x7C00, 0x03FF]),
    (np.float32, [0x80000000, 0x7FC00001, 0x7FA00000, 0xFFC00000, 0x00000001, 0x807FFFFF, 0xFF800000, 0]),
    (np.float64, [1 << 63, 0x7FF8000000000001, 0x7FF4000000000000, 1, 0xFFF8000000000000, 0, 2, 3]),
])
def test_values_come_back_bit_for_bit(dtype, specials):
    x = from_bits(dtype, specials).reshape(2, 4)
    idx = np.array([[1, 0]], np.uint32)
    assert bits(dmlref.gather(x, idx, axis=0, index_dimensions=1)).tolist() == bits(x[[1, 0]]).tolist()
    assert bits(dmlref.element_wise_identity(x.T)).tolist() == bits(x.T).tolist()
    assert bits(dmlref.join([x, x], axis=1)).tolist() == bits(np.concatenate([x, x], 1)).tolist()


def test_every_data_type_maps():
    names = {n: np.dtype(d) for n, d in dmlref.data_types.items()}
    assert len(names) == 11 and names["FLOAT16"] == np.float16
    for n, d in names.items():
        x = np.arange(6).astype(d).reshape(2, 3)
        out = dmlref.gather_elements(x, np.array([[1, 0, 1]], np.int32), axis=0)
        assert out.dtype == d and same_bytes(out, np.take_along_axis(x, np.array([[1, 0, 1]]), 0))


@pytest.mark.parametrize("dtype", [bool, np.complex64, object, np.float128 if hasattr(np, "float128") else "U3",
                                   "datetime64[s]", [("a", np.int32)]])
def test_other_dtypes_raise_type_error(dtype):
    x = np.zeros((2, 2), dtype=dtype)
    with pytest.raises(TypeError, match=r"not a DirectML data type; allowed: float32 \(FLOAT32\), float16"):
        dmlref.element_wise_identity(x)


def test_strided_views_are_passed_without_copying():
    base = np.arange(4 * 6 * 5, dtype=np.float32).reshape(4, 6, 5)
    views = [base[::2, 1::2, ::3], base.transpose(2, 0, 1), base[:, :, 1], np.broadcast_to(base[:1, :1, :], (3, 6, 5)),
             base[1:3]]
    for v in views:
        before = _types.copies
        out = dmlref.element_wise_identity(v)
        assert _types.copies == before, v.strides
        assert same_bytes(out, np.ascontiguousarray(v))
    # a 1-byte view whose span is not a multiple of 4, inside a larger buffer: no copy either
    u = np.arange(40, dtype=np.uint8)
    before = _types.copies
    assert same_bytes(dmlref.element_wise_identity(u[3:10:3]), u[3:10:3].copy())
    assert _types.copies == before


def test_zero_strides_broadcast():
    row = np.array([1, 2, 3], np.int64)
    b = np.lib.stride_tricks.as_strided(row, shape=(4, 3), strides=(0, 8))
    out = dmlref.gather(b, np.array([[3, 0]], np.int32), axis=0, index_dimensions=1)
    assert out.tolist() == [[1, 2, 3], [1, 2, 3]]


def test_other_layouts_are_copied():
    x = np.arange(20, dtype=np.int32).reshape(4, 5)
    for v in (x[::-1, ::-2],                                                          # negative strides
              np.frombuffer(b"\0" + x.tobytes(), dtype=np.int32, offset=1).reshape(4, 5),  # misaligned
              x.astype(">i4")):                                                       # other byte order
        before = _types.copies
        out = dmlref.element_wise_identity(v)
        assert out.dtype == np.int32 and out.tolist() == v.tolist()
        if v.dtype.isnative:
            assert _types.copies == before + 1


def test_out_strided_view_writes_only_addressed_elements():
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    big = np.full((8, 5), -7.0, np.float32)
    view = big[1:7:2, 1:4:2]  # (3, 2)
    r = dmlref.gather(x, np.array([[2, 1, 0]], np.int32), axis=0, index_dimensions=1, out=view)
    assert r is view
    assert view.tolist() == [[4, 5], [2, 3], [0, 1]]
    mask = np.ones(big.shape, bool)
    mask[1:7:2, 1:4:2] = False
    assert (big[mask] == -7).all()
    # SPLIT into views
    outs = [np.zeros((3, 1), np.float32)[:, :], np.zeros((6, 1), np.float32)[::2]]
    got = dmlref.split(x, axis=1, out=outs)
    assert got[0] is outs[0] and outs[1].tolist() == [[1], [3], [5]]
    # a layout dmlref cannot address goes through a copy, still only writing out's elements
    rev = np.zeros((3, 2), np.float32)[::-1]
    dmlref.gather(x, np.array([[0, 1, 2]], np.int32), axis=0, index_dimensions=1, out=rev)
    assert rev.tolist() == x.tolist()


def test_wrong_shapes_raise_the_librarys_message():
    x = np.zeros((3, 2), np.float32)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.gather(x, np.array([0, 1], np.int32), axis=0, index_dimensions=1)
    assert str(e.value) == "GATHER: IndicesTensor.DimensionCount (1) must equal InputTensor.DimensionCount (2)"
    assert e.value.status == "DMLREF_ERROR_DIMENSION_COUNT" and e.value.operator == "GATHER"
    assert isinstance(e.value.rule, str) and isinstance(e.value.field, str)
    assert e.value.message == str(e.value) and isinstance(e.value, ValueError)
    with pytest.raises(dmlref.InvalidDescriptor, match=r"^GATHER: OutputTensor"):
        dmlref.gather(x, np.array([[0, 1]], np.int32), axis=0, index_dimensions=1, out=np.zeros((3, 2), np.float32))
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.join([x, np.zeros((3, 2), np.float64)], axis=0)
    assert e.value.status == "DMLREF_ERROR_DATA_TYPE"
    with pytest.raises(dmlref.InvalidDescriptor, match="Axis"):
        dmlref.gather_elements(x, np.zeros((3, 2), np.int32), axis=2)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.element_wise_identity(np.zeros((0, 2), np.float32))
    assert e.value.status == "DMLREF_ERROR_SIZES"


def test_feature_levels():
    x = np.zeros((3, 2), np.float32)
    idx = np.array([[0]], np.uint32)
    with pytest.raises(dmlref.InvalidDescriptor, match=r"must be in \[4, 4\] at feature level 2_1"):
        dmlref.gather(x, idx, axis=0, index_dimensions=1, feature_level="2_1")
    x4 = np.zeros((1, 1, 3, 2), np.float32)
    assert dmlref.gather(x4, idx.reshape(1, 1, 1, 1), axis=2, index_dimensions=1, feature_level="1_0").shape == (1, 1, 1, 2)
    with pytest.raises(dmlref.InvalidDescriptor) as e:
        dmlref.gather(x, idx, axis=0, index_dimensions=1, feature_level="9_9")
    assert e.value.status == "DMLREF_ERROR_FEATURE_LEVEL"
    assert dmlref.feature_levels[0] == "1_0" and dmlref.feature_levels[-1] == "6_4"


def test_out_of_range_indices_clamp_or_raise():
    x = np.arange(4, dtype=np.float32).reshape(1, 4)
    idx = np.array([[7, -9]], np.int32)
    assert dmlref.gather(x, idx, axis=1, index_dimensions=1).tolist() == [[3, 0]]
    with pytest.raises(dmlref.IndexOutOfRange) as e:
        dmlref.gather(x, idx, axis=1, index_dimensions=1, check_indices=True)
    assert e.value.status == "DMLREF_ERROR_INDEX_OUT_OF_RANGE"
    assert "IndicesTensor[0,0] = 7 is out of range [-4, 4)" in str(e.value)


def test_duplicate_scatter_targets():
    x = np.zeros(4, np.int32)
    idx = np.array([[1], [-3]], np.int32)
    upd = np.array([5, 6], np.int32)
    assert dmlref.scatter_nd(x.reshape(1, 4), idx.reshape(2, 1), upd.reshape(1, 2), input_dimension_count=1,
                             indices_dimension_count=2).tolist() == [[0, 6, 0, 0]]  # the last one wins
    with pytest.raises(dmlref.DuplicateIndex) as e:
        dmlref.scatter_nd(x.reshape(1, 4), idx.reshape(2, 1), upd.reshape(1, 2), input_dimension_count=1,
                          indices_dimension_count=2, check_indices=True)
    assert e.value.status == "DMLREF_ERROR_DUPLICATE_INDEX" and e.value.operator == "SCATTER_ND"


def test_binding_errors_and_in_place():
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    with pytest.raises(dmlref.BindingError) as e:
        dmlref.gather(x, np.array([[0, 1, 2]], np.int32), axis=0, index_dimensions=1, out=x)
    assert e.value.status == "DMLREF_ERROR_BINDING"
    y = x.copy()
    assert dmlref.element_wise_identity(y, out=y) is y and same_bytes(y, x)  # in place: its schema allows it


def test_argument_errors():
    x = np.zeros((3, 2), np.float32)
    with pytest.raises(TypeError, match="sizes"):
        dmlref.split(x, axis=0)
    with pytest.raises(TypeError, match="list of arrays"):
        dmlref.join(x, axis=0)
    with pytest.raises(TypeError, match="index_dimensions"):
        dmlref.gather(x, np.zeros((1, 1), np.int32), axis=0)
    with pytest.raises(TypeError, match="unexpected keyword argument 'axes'"):
        dmlref.gather(x, np.zeros((1, 1), np.int32), axes=0, index_dimensions=1)
    with pytest.raises(TypeError, match="integer"):
        dmlref.gather(x, np.zeros((1, 1), np.int32), axis=0.5, index_dimensions=1)
    with pytest.raises(dmlref.InvalidDescriptor, match="ScaleBias"):
        dmlref.element_wise_identity(x.astype(np.int32), scale_bias=(1.0, 0.0))  # FLOAT32 and FLOAT16 only
    with pytest.raises(ValueError, match="ScaleBias takes 2 values"):
        dmlref.element_wise_identity(x, scale_bias=(1.0,))


def test_lists_and_scalars_are_arrays():
    out = dmlref.join([np.array([1, 2], np.int8), np.array([3], np.int8)], axis=0)
    assert out.tolist() == [1, 2, 3]


def test_signatures_come_from_the_schema():
    import inspect
    sig = plain_signature(dmlref.gather)
    assert sig == ("(input, indices, /, *, axis, index_dimensions, feature_level=None, check_indices=False, "
                   "out=None, threads=0, force_oracle=False)")
    assert "input_dimension_count=None" in plain_signature(dmlref.scatter_nd)
    assert plain_signature(dmlref.join).startswith("(inputs, /, *, axis")
    assert "sizes=None" in plain_signature(dmlref.split)
    assert inspect.signature(dmlref.gather).parameters["axis"].annotation is int


def test_the_library_is_linked_statically():
    with open("/proc/self/maps") as f:
        maps = f.read()
    assert "_core" in maps and "libdmlref" not in maps


def test_threads_and_the_oracle_give_the_same_bytes():
    x = np.random.default_rng(1).integers(0, 2**32, size=(64, 300), dtype=np.uint32).view(np.float32)
    idx = np.random.default_rng(2).integers(-64, 64, size=(1, 500), dtype=np.int64)
    ref = dmlref.gather(x, idx, axis=0, index_dimensions=1, force_oracle=True)
    for threads in (0, 1, 2):
        assert same_bytes(dmlref.gather(x, idx, axis=0, index_dimensions=1, threads=threads), ref)
