"""Every case file the command reads, read by the Python package too: bench/workloads/
and tests/cases/ load (the `distinct` fill and `bytes_moved` included), and the
`distinct` fill computed in Python (dmlref._case.distinct_fill) is the command's, integer
for integer (case/distinct.c, through a one-piece JOIN the command decodes)."""
import glob
import os

import numpy as np
import pytest

import dmlref
from dmlref import _case, _core, _types
from dmlref._errors import Error
from util import ROOT

WORKLOADS = sorted(glob.glob(os.path.join(ROOT, "bench", "workloads", "*.json")))
CASES = sorted(glob.glob(os.path.join(ROOT, "tests", "cases", "*.json")))
SOURCES = ("data", "npy", "random", "distinct", "pooled")


def _tensors(case, output):
    for slot in case._slots(output=output):
        ts = case.doc.get(slot["name"])
        if ts is not None:
            yield from ((slot, t) for t in (ts if slot["is_array"] else [ts]))


def test_the_file_sets_are_there():
    assert len(WORKLOADS) >= 20 and len(CASES) >= 10
    assert any("distinct" in open(p).read() for p in WORKLOADS)
    assert any("bytes_moved" in open(p).read() for p in WORKLOADS)


@pytest.mark.parametrize("path", WORKLOADS + CASES, ids=lambda p: os.path.relpath(p, ROOT))
def test_case_file_loads(path):
    case = dmlref.Case.load(path)
    moved = case.bytes_moved
    assert set(moved) <= {s["name"] for s in case._slots(False) + case._slots(True)}
    assert all(0 <= v <= 16 for v in moved.values())
    for slot, t in _tensors(case, output=False):
        assert sum(k in t for k in SOURCES) == 1, slot["name"]
        if "distinct" in t:  # computed in Python: check it is what the fill promises
            name, slots = case._tensor_desc(t)
            v = _case.distinct_fill(slot["name"], name, slots, t["distinct"])
            spec = t["distinct"]
            k = len(spec.get("unravel", [1]))
            assert v.dtype == _types.DTYPES[name] and v.size == slots
            whole = v[: slots // k * k].astype(np.uint64).reshape(-1, k)
            flat = np.zeros(whole.shape[0], np.uint64)
            for d, n in enumerate(spec.get("unravel", [spec["modulus"]])):
                assert int(whole[:, d].max()) < n
                flat = flat * np.uint64(n) + whole[:, d]
            per = spec.get("group", flat.size)
            for g in range(0, flat.size, per):
                assert np.unique(flat[g:g + per]).size == flat[g:g + per].size
    if path in CASES:
        assert set(case.inputs) == {s["name"] for s, _ in _tensors(case, output=False)}


def test_bytes_moved_defaults_and_errors():
    doc = {"operator": "GATHER", "Axis": 0, "IndexDimensions": 1,
           "InputTensor": {"DataType": "FLOAT32", "Sizes": [4], "data": [1, 2, 3, 4]},
           "IndicesTensor": {"DataType": "UINT32", "Sizes": [2], "data": [0, 1]},
           "OutputTensor": {"DataType": "FLOAT32", "Sizes": [2]}}
    assert dmlref.Case(doc).bytes_moved == {"InputTensor": 0, "IndicesTensor": 1, "OutputTensor": 2}
    doc["bytes_moved"] = {"comment": "x", "OutputTensor": 1, "InputTensor": 3}
    assert dmlref.Case(doc).bytes_moved == {"InputTensor": 3, "IndicesTensor": 0, "OutputTensor": 1}
    for bad in ({"OutputTensor": 17}, {"UpdatesTensor": 1}, {"OutputTensor": 1.5}, [1]):
        doc["bytes_moved"] = bad
        with pytest.raises(Error):
            dmlref.Case(doc).bytes_moved


# (DataType, Sizes' element count, distinct spec): groups, unravel, a trailing partial value,
# the widest modulus, every integer type
DISTINCT = [
    ("INT64", 16, {"seed": 1, "modulus": 16}),
    ("INT64", 12, {"seed": 18, "modulus": 64}),
    ("UINT32", 40, {"seed": 7, "modulus": 8, "group": 5}),
    ("INT32", 64, {"seed": 9223372036854775807, "modulus": 4096, "group": 3}),
    ("UINT8", 256, {"seed": 3, "modulus": 256}),
    ("INT8", 20, {"seed": 4, "modulus": 128, "group": 7}),
    ("UINT16", 30, {"seed": 5, "modulus": 1024, "group": 6, "unravel": [32, 32]}),
    ("INT16", 9, {"seed": 6, "modulus": 64, "unravel": [4, 4, 4]}),
    ("INT64", 22, {"seed": 211, "modulus": 4096, "unravel": [64, 64], "comment": "odd slot left 0"}),
    ("UINT64", 50, {"seed": 2, "modulus": 1 << 62, "group": 10}),
    ("INT64", 24, {"seed": 0, "modulus": 1 << 62, "unravel": [1 << 31, 1 << 31]}),
    ("UINT32", 1, {"seed": 123, "modulus": 1}),
]


@pytest.mark.parametrize("dtype,count,spec", DISTINCT, ids=lambda v: str(v))
def test_distinct_fill_is_the_commands(dtype, count, spec):
    slots = _core.calc_buffer_tensor_size(_types.CODES[dtype], [count], None) // _types.DTYPES[dtype].itemsize
    mine = _case.distinct_fill("t", dtype, slots, spec)[:count]
    theirs = _case._decode(dtype, {"distinct": spec}, count)
    assert mine.dtype == theirs.dtype
    assert mine.tolist() == theirs.tolist()


def test_distinct_inputs_of_a_case_run_as_the_command_reads_them(tmp_path):
    # SCATTER_ND with distinct row targets: Case.inputs' indices are the ones the command
    # scattered to (each target row shows its update row)
    doc = {"operator": "SCATTER_ND", "InputDimensionCount": 2, "IndicesDimensionCount": 2,
           "InputTensor": {"DataType": "INT32", "Sizes": [16, 2], "data": [0] * 32},
           "IndicesTensor": {"DataType": "INT64", "Sizes": [5, 1], "distinct": {"seed": 101, "modulus": 16}},
           "UpdatesTensor": {"DataType": "INT32", "Sizes": [5, 2], "data": list(range(1, 11))},
           "OutputTensor": {"DataType": "INT32", "Sizes": [16, 2]}}
    case = dmlref.Case(doc, str(tmp_path))
    idx = case.inputs["IndicesTensor"]
    out = case.run()["OutputTensor"].reshape(16, 2)
    want = np.zeros((16, 2), np.int32)
    want[idx] = np.arange(1, 11, dtype=np.int32).reshape(5, 2)
    assert out.tolist() == want.tolist()


@pytest.mark.parametrize("dtype,spec", [
    ("FLOAT32", {"seed": 1, "modulus": 16}),
    ("INT64", {"seed": 1}),
    ("INT64", {"seed": 1, "modulus": 12}),
    ("INT64", {"seed": 1, "modulus": 16, "unravel": [4, 3]}),
    ("INT64", {"seed": 1, "modulus": 4}),                   # 8 values below 4, no group
    ("UINT8", {"seed": 1, "modulus": 512, "group": 2}),    # values beyond the type
    ("INT64", {"seed": -1, "modulus": 16}),
    ("INT64", {"seed": 1, "modulus": 16, "size": 3}),
], ids=str)
def test_distinct_errors_are_the_commands(dtype, spec):
    with pytest.raises(Error):
        _case.distinct_fill("t", dtype, 8, spec)
    with pytest.raises(Error):
        _case._decode(dtype, {"distinct": spec}, 8)


@pytest.mark.parametrize("dtype,strides", [("UINT32", None), ("UINT64", [400, 100, 12, 1]), ("UINT64", None)],
                         ids=str)
def test_pooled_fill_is_the_commands(tmp_path, dtype, strides):
    # MAX_UNPOOLING with the pooled fill (bench's max_unpool): the command's output, scattered
    # through the indices Python computes, and each index in its own window
    ix = {"DataType": dtype, "Sizes": [2, 3, 4, 5], "pooled": {"seed": 77, "window": [2, 3], "output": [2, 3, 9, 15]}}
    if strides:
        ix["Strides"] = strides
    doc = {"operator": "MAX_UNPOOLING",
           "InputTensor": {"DataType": "INT32", "Sizes": [2, 3, 4, 5], "data": list(range(1, 121))},
           "IndicesTensor": ix,
           "OutputTensor": {"DataType": "INT32", "Sizes": [2, 3, 9, 15]}}
    case = dmlref.Case(doc, str(tmp_path))
    buf = case.inputs["IndicesTensor"]
    st = strides or [60, 20, 5, 1]
    c = np.indices([2, 3, 4, 5]).reshape(4, -1)
    idx = buf[(c * np.array(st).reshape(4, 1)).sum(0)].astype(np.int64)
    n, ch, y, x = np.unravel_index(idx, [2, 3, 9, 15])
    assert (n == c[0]).all() and (ch == c[1]).all() and (y // 2 == c[2]).all() and (x // 3 == c[3]).all()
    want = np.zeros(2 * 3 * 9 * 15, np.int32)
    want[idx] = np.arange(1, 121, dtype=np.int32)
    assert case.run()["OutputTensor"].reshape(-1).tolist() == want.tolist()


@pytest.mark.parametrize("dtype,spec", [
    ("INT32", {"seed": 1, "window": [2, 2], "output": [1, 1, 4, 4]}),     # signed
    ("UINT32", {"seed": 1, "window": [2], "output": [1, 1, 4, 4]}),
    ("UINT32", {"seed": 1, "window": [2, 2], "output": [1, 1, 3, 4]}),    # too small for the windows
    ("UINT32", {"seed": 1, "window": [2, 2], "output": [1, 2, 4, 4]}),    # C differs
    ("UINT8", {"seed": 1, "window": [2, 2], "output": [1, 1, 4, 100]}),   # flat indices beyond the type
    ("UINT32", {"seed": 1, "window": [2, 2]}),
    ("UINT32", {"seed": 1, "window": [2, 2], "output": [1, 1, 4, 4], "size": 3}),
], ids=str)
def test_pooled_errors_are_the_commands(tmp_path, dtype, spec):
    with pytest.raises(Error):
        _case.pooled_fill("t", dtype, [1, 1, 2, 2], None, 4, spec)
    doc = {"operator": "MAX_UNPOOLING",
           "InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 2, 2], "data": [1, 2, 3, 4]},
           "IndicesTensor": {"DataType": dtype, "Sizes": [1, 1, 2, 2], "pooled": spec},
           "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 4, 4]}}
    with pytest.raises(Error):
        dmlref.Case(doc, str(tmp_path)).run()
