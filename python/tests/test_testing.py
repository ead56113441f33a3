"""dmlref.testing: golden_cases over an exported suite, framework forms, failures saved with repro."""
import glob
import json
import os
import subprocess

import numpy as np
import pytest
from hypothesis import find

import dmlref
import dmlref.testing as dt
from dmlref import _case, strategies


@pytest.fixture(scope="module")
def golden(tmp_path_factory):
    """A small suite: `dmlref gen` (3 operators, 3 cases each), each case exported."""
    root = tmp_path_factory.mktemp("golden")
    cmd = _case.command()
    for op in ("GATHER", "JOIN", "ONE_HOT"):
        subprocess.run([cmd, "gen", "--operator", op, "--count", "3", "--seed", "7", "--out", str(root / "cases")],
                       check=True, capture_output=True)
    for f in sorted(glob.glob(str(root / "cases" / "*.json"))):
        subprocess.run([cmd, "export", f, "--out", str(root / "out" / os.path.basename(f)[:-5])], check=True,
                       capture_output=True)
    return root


def test_golden_cases_ids_and_skips(golden):
    params = dt.golden_cases(str(golden / "out"), data_types={"FLOAT32", np.float16}, feature_level="2_0")
    assert len(params) == 9
    assert [p.id for p in params] == sorted(p.id for p in params) and params[0].id.startswith("gen_gather_")
    for p in params:
        g = p.values[0]
        skipped = bool(p.marks)
        outside = set(g.data_types) - {"FLOAT32", "FLOAT16"}
        too_new = g.min_feature_level() is None or dmlref._types.LEVELS[g.min_feature_level()] > 0x2000
        assert skipped == bool(outside or too_new), (p.id, g.data_types, g.min_feature_level())
        if outside:
            assert "data type" in p.marks[0].kwargs["reason"]
    assert any(not p.marks for p in dt.golden_cases(str(golden / "out")))


def test_golden_check_passes_on_dmlref_and_fails_with_repro(golden, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DMLREF_FAILURES", str(tmp_path / "failures"))
    params = dt.golden_cases(str(golden / "out"), operators={"GATHER"})
    g = next(p.values[0] for p in params if not p.marks)
    fw = g.framework
    assert fw["onnx"] == "Gather" and set(fw["shapes"]) == {"InputTensor", "IndicesTensor", "OutputTensor"}
    xs = g.inputs()
    assert [list(x.shape) for x in xs] == [fw["shapes"]["InputTensor"], fw["shapes"]["IndicesTensor"]]
    want = g.expected()[0]
    g.check([want.copy()])  # the right answer passes
    bad = want.copy()
    bad.reshape(-1).view(f"u{bad.itemsize}")[0] ^= 1  # one bit of one element
    with pytest.raises(AssertionError, match=r"repro: .*dmlref run .*\.json") as e:
        g.check(bad)
    path = str(e.value).split("run ")[-1].strip()
    assert os.path.exists(path) and "repro:" in capsys.readouterr().out
    p = subprocess.run([_case.command(), "run", path], capture_output=True, text=True)
    assert p.returncode == 1 and "OutputTensor[" in p.stderr and "dmlref gives" in p.stderr, p.stderr


def test_drawn_check_saves_the_case(tmp_path, monkeypatch):
    monkeypatch.setenv("DMLREF_FAILURES", str(tmp_path))
    case = find(strategies.cases("GATHER_ELEMENTS", data_type=np.int32), lambda c: c.call().size >= 2)
    dt.check(case, case.call())  # dmlref against itself
    wrong = case.call().copy()
    wrong.reshape(-1)[-1] += 1
    with pytest.raises(AssertionError, match="repro: .* run "):
        dt.check(case, wrong)
    saved = glob.glob(str(tmp_path / "gather_elements-*.json"))
    assert len(saved) == 1 and "actual" in json.load(open(saved[0]))
    assert subprocess.run([_case.command(), "run", saved[0]], capture_output=True).returncode == 1


@pytest.mark.parametrize("op", ["GATHER", "GATHER_ELEMENTS", "SCATTER_ND", "JOIN", "SPLIT", "TILE", "ONE_HOT"])
def test_framework_form_equals_the_commands_on_gen_cases(op, tmp_path):
    """Case.framework() is what `dmlref export` writes for the same case file."""
    cmd = _case.command()
    subprocess.run([cmd, "gen", "--operator", op, "--count", "2", "--seed", "3", "--out", str(tmp_path)], check=True,
                   capture_output=True)
    for f in sorted(glob.glob(str(tmp_path / "*.json"))):
        out = tmp_path / ("x" + os.path.basename(f))
        subprocess.run([cmd, "export", f, "--out", str(out)], check=True, capture_output=True)
        with open(out / "manifest.json") as m:
            want = json.load(m)["framework"]
        got = dmlref.Case.load(f).framework()
        assert got == want and got is not None


def test_drawn_framework_form():
    case = find(strategies.cases("GATHER", data_type=np.float32), lambda c: True)
    fw = case.framework()
    assert fw["onnx"] == "Gather" and "axis" in fw
    out = case.call()
    assert int(np.prod(fw["shapes"]["OutputTensor"])) == out.size


def test_framework_of_a_refused_case_raises():
    bad = dmlref.Case({"operator": "GATHER", "Axis": 5, "IndexDimensions": 1,
                       "InputTensor": {"DataType": "FLOAT32", "Sizes": [2, 2], "data": [1, 2, 3, 4]},
                       "IndicesTensor": {"DataType": "INT32", "Sizes": [1, 1], "data": [0]},
                       "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1, 2]}}, ".")
    with pytest.raises(dmlref.InvalidDescriptor, match="Axis"):
        bad.framework()
    with pytest.raises(dmlref.Error, match="unknown key"):
        dmlref.Case({"operator": "GATHER", "Bogus": 1}, ".").framework()
