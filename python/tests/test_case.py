"""dmlref.Case: case files read, run through the command, written, made from calls."""
import glob
import json
import os
import subprocess

import numpy as np
import pytest

import dmlref
from dmlref import _case
from util import ROOT, bits, run_case

CASES = sorted(glob.glob(os.path.join(ROOT, "tests", "cases", "*.json")))


def _match_expected(out, exp):
    """Like `dmlref run`: bit for bit over what expected lists; its canonical "nan"
    matches any NaN."""
    assert exp.dtype == out.dtype and out.size >= exp.size
    a, e = out[: exp.size], exp
    if e.dtype.kind == "f":
        nan = np.isnan(e)
        assert np.isnan(a[nan]).all()
        a, e = a[~nan], e[~nan]
    assert bits(a).tolist() == bits(e).tolist()


def test_there_are_documented_cases():
    assert len(CASES) >= 10


@pytest.mark.parametrize("path", CASES, ids=os.path.basename)
def test_documented_cases_run_as_expected(path, tmp_path):
    case = dmlref.Case.load(path)
    out = case.run()
    exp = case.expected
    assert exp, "every documented case has expected"
    for name, e in exp.items():
        if isinstance(e, list):
            for o, x in zip(out[name], e):
                if x is not None:
                    _match_expected(o, x)
        else:
            _match_expected(out[name], e)
    # written back elsewhere (npy paths made absolute), it runs the same
    case.save(str(tmp_path / "again.json"))
    again = dmlref.Case.load(str(tmp_path / "again.json"))
    out2 = again.run()
    for name in out:
        a = out[name] if isinstance(out[name], list) else [out[name]]
        b = out2[name] if isinstance(out2[name], list) else [out2[name]]
        assert [x.tobytes() for x in a] == [x.tobytes() for x in b]


def test_whole_buffer_shows_gaps_and_inputs_decode(tmp_path):
    doc = {"operator": "JOIN", "Axis": 0,
           "InputTensors": [{"DataType": "UINT8", "Sizes": [2], "data": [1, 2]},
                            {"DataType": "UINT8", "Sizes": [1], "random": {"seed": 7, "low": 10, "high": 20}}],
           "OutputTensor": {"DataType": "UINT8", "Sizes": [3], "Strides": [2], "TotalTensorSizeInBytes": 8}}
    case = dmlref.Case(doc)
    out = case.run()["OutputTensor"]
    assert out.dtype == np.uint8 and out.size == 8
    ins = case.inputs["InputTensors"]
    assert ins[0][:2].tolist() == [1, 2] and ins[0].size == 4  # the whole buffer, zero-padded
    assert out.tolist() == [1, 0xCD, 2, 0xCD, int(ins[1][0]), 0xCD, 0xCD, 0xCD]
    assert 10 <= ins[1][0] <= 20


def test_npy_references(tmp_path):
    d = tmp_path / "a"
    d.mkdir()
    np.save(d / "x.npy", np.array([[1.5, -0.0], [np.inf, 3]], np.float64))
    doc = {"operator": "GATHER", "Axis": 0, "IndexDimensions": 1,
           "InputTensor": {"DataType": "FLOAT64", "Sizes": [2, 2], "npy": "x.npy"},
           "IndicesTensor": {"DataType": "INT32", "Sizes": [1, 1], "data": [-1]},
           "OutputTensor": {"DataType": "FLOAT64", "Sizes": [1, 2]}}
    (d / "c.json").write_text(json.dumps(doc))
    case = dmlref.Case.load(str(d / "c.json"))
    assert case.run()["OutputTensor"].tolist() == [np.inf, 3]
    assert bits(case.inputs["InputTensor"]).tolist()[1] == 1 << 63
    case.save(str(tmp_path / "moved.json"))  # another directory: the npy path becomes absolute
    assert dmlref.Case.load(str(tmp_path / "moved.json")).run()["OutputTensor"].tolist() == [np.inf, 3]


def test_invalid_case_raises():
    doc = {"operator": "GATHER", "Axis": 3, "IndexDimensions": 1,
           "InputTensor": {"DataType": "FLOAT32", "Sizes": [2], "data": [1, 2]},
           "IndicesTensor": {"DataType": "INT32", "Sizes": [1], "data": [0]},
           "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1]}}
    with pytest.raises(dmlref.InvalidDescriptor, match=r"GATHER: Axis \(3\)") as e:
        dmlref.Case(doc).run()
    assert e.value.status == "DMLREF_ERROR_PARAMETER" and e.value.operator == "GATHER"
    assert isinstance(dmlref.Case(doc).validate(), dmlref.InvalidDescriptor)
    doc["Axis"] = 0
    assert dmlref.Case(doc).validate() is None
    assert isinstance(dmlref.Case(doc).validate("2_1"), dmlref.InvalidDescriptor)  # 4-D only there
    doc["IndicesTensor"]["data"] = [5]
    assert dmlref.Case(doc).run()["OutputTensor"].tolist() == [2]  # clamped, with a warning
    with pytest.raises(dmlref.IndexOutOfRange, match=r"IndicesTensor\[0\] = 5 is out of range"):
        dmlref.Case(doc).run(strict=True)


def test_exact_numbers_survive_load_and_save(tmp_path):
    text = ('{"operator": "JOIN", "Axis": 0, "InputTensors": [{"DataType": "FLOAT16", "Sizes": [2], '
            '"data": [1.000488281250000000000000001, -0]}], "OutputTensor": {"DataType": "FLOAT16", "Sizes": [2]}}')
    (tmp_path / "c.json").write_text(text)
    case = dmlref.Case.load(str(tmp_path / "c.json"))
    case.save(str(tmp_path / "d.json"))
    assert "1.000488281250000000000000001" in (tmp_path / "d.json").read_text()
    assert bits(case.run()["OutputTensor"]).tolist() == [0x3C01, 0x8000]


def test_from_call_replays_and_names_backend_differences(tmp_path):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2]       # strided input
    x[0, 0] = -0.0
    idx = np.array([[2, -1, 0]], np.int32)
    case = dmlref.Case.from_call(dmlref.gather, x, idx, axis=0, index_dimensions=1)
    assert case.doc["InputTensor"]["Strides"] == [4, 2]
    path = str(tmp_path / "ok.json")
    case.save(path)
    p = subprocess.run([_case.command(), "run", path], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    good = dmlref.gather(x, idx, axis=0, index_dimensions=1)
    assert case.run()["OutputTensor"].tobytes() == good.tobytes()
    # the backend got one element wrong: the case fails exactly there
    bad = good.copy()
    bad[1, 1] = 42
    failing = dmlref.Case.from_call("GATHER", x, idx, axis=0, index_dimensions=1, actual=bad)
    failing.save(path)
    p = subprocess.run([_case.command(), "run", path], capture_output=True, text=True)
    assert p.returncode == 1
    assert "OutputTensor[3]: dmlref gives 10, actual 42" in p.stderr, p.stderr
    assert failing.doc["expected"]["OutputTensor"] == case.doc["expected"]["OutputTensor"]  # dmlref's


def test_from_call_with_strided_out_and_split(tmp_path):
    x = np.arange(10, dtype=np.int16).reshape(2, 5)
    outs = [np.zeros((4, 3), np.int16)[::2, ::2], np.zeros((2, 3), np.int16)]
    case = dmlref.Case.from_call(dmlref.split, x, axis=1, out=outs)
    assert case.doc["OutputTensors"][0]["Strides"] == [6, 2]
    res = run_case(case)["OutputTensors"]
    assert len(res) == 2
    assert res[0].view(np.uint16).tolist()[:3] == [0, 0xCDCD, 1]
    assert res[1].tolist() == [2, 3, 4, 7, 8, 9]
