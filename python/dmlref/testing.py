"""Testing a backend against dmlref under pytest.

Golden files (`dmlref gen` cases turned into `.npy` files by `dmlref export`, one directory
per case, docs/testing-your-backend.md):

    import pytest, dmlref.testing

    @pytest.mark.parametrize("golden", dmlref.testing.golden_cases("golden", data_types={"FLOAT32", "INT32"},
                                                                    feature_level="4_1"))
    def test_my_backend(golden):
        fw = golden.framework                   # {"onnx": "Gather", "axis": 1, "shapes": {...}, ...}
        outs = my_backend(fw, golden.inputs())  # the inputs in the framework's shapes
        golden.check(outs)                      # bit for bit; on failure saves the case, prints repro:

Drawn calls (dmlref.strategies) are checked the same way with `check(drawn, actual)`; a
drawn case's framework form is `drawn.framework()` (what `dmlref export` computes).

On a failure, `check` writes the failing case (the inputs, dmlref's output as `expected`,
the backend's as `actual`) to $DMLREF_FAILURES (default: ./dmlref-failures) and the
AssertionError and stdout carry a `repro: dmlref run PATH` line that lists the differing
elements (`OutputTensor[3]: dmlref gives 10, actual 42`).
"""
import hashlib
import json
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence

import numpy as np

from . import _types
from ._case import Case, command, to_values
from ._compare import assert_same_bits

__all__ = ["GoldenCase", "golden_cases", "check", "failures_dir"]


def failures_dir() -> str:
    """Where failing cases are written: $DMLREF_FAILURES, else ./dmlref-failures."""
    return os.environ.get("DMLREF_FAILURES") or os.path.join(os.getcwd(), "dmlref-failures")


def _save_failure(case: Case, stem: str) -> str:
    os.makedirs(failures_dir(), exist_ok=True)
    text = json.dumps(case.doc, sort_keys=True, default=str)
    path = os.path.join(failures_dir(), f"{stem}-{hashlib.sha1(text.encode()).hexdigest()[:10]}.json")
    case.save(path)
    return path


def _repro(path: str) -> str:
    return f"repro: {command()} run {path}"


def _bits_equal(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


class GoldenCase:
    """One directory written by `dmlref export`: its manifest and files."""

    def __init__(self, path: str):
        self.path = path
        with open(os.path.join(path, "manifest.json")) as f:
            self.manifest: Dict[str, Any] = json.load(f)
        self.operator: str = self.manifest["operator"]
        self.feature_level: str = self.manifest["feature_level"]
        self.framework: Optional[Dict[str, Any]] = self.manifest.get("framework")

    def __repr__(self) -> str:
        return f"GoldenCase({self.path!r}: {self.operator} at {self.feature_level})"

    @property
    def data_types(self) -> List[str]:
        """The data types of the tensors that are not indices."""
        return sorted({t["DataType"] for t in self.manifest["inputs"] + self.manifest["outputs"] if not t["indices"]})

    @property
    def index_types(self) -> List[str]:
        return sorted({t["DataType"] for t in self.manifest["inputs"] if t["indices"]})

    def _load(self, t: Dict[str, Any], framework: bool) -> np.ndarray:
        a = np.load(os.path.join(self.path, t["logical"]))
        a = a.astype(a.dtype.newbyteorder("=")) if not a.dtype.isnative else a
        if framework and self.framework:
            a = a.reshape(self.framework["shapes"][t["name"]])
        return a

    def inputs(self, framework: bool = True) -> List[np.ndarray]:
        """The inputs in binding order, in the framework's shapes (framework=False: DirectML's Sizes)."""
        return [self._load(t, framework) for t in self.manifest["inputs"]]

    def expected(self, framework: bool = True) -> List[np.ndarray]:
        """dmlref's outputs, in binding order."""
        return [self._load(t, framework) for t in self.manifest["outputs"]]

    def case(self, actual: Optional[Sequence[Any]] = None) -> Case:
        """The case of this directory (its buffers as `npy` files), with `actual` (the
        backend's outputs, any shape holding the logical elements) when given."""
        m = self.manifest
        doc: Dict[str, Any] = {"operator": self.operator, "feature_level": self.feature_level}
        doc.update(m["parameters"])

        def tensor(t: Dict[str, Any], data: bool) -> Dict[str, Any]:
            d = {"DataType": t["DataType"], "Sizes": t["Sizes"], "Strides": t["Strides"],
                 "TotalTensorSizeInBytes": t["TotalTensorSizeInBytes"]}
            if data:
                d["npy"] = os.path.abspath(os.path.join(self.path, t["buffer"]))
            return d

        def put(group: List[Dict[str, Any]], data: bool) -> None:
            for t in group:
                slot, entry = t["slot"], tensor(t, data)
                if slot != t["name"]:  # an array slot: InputTensors_0, ...
                    doc.setdefault(slot, []).append(entry)
                else:
                    doc[slot] = entry

        put(m["inputs"], True)
        put(m["outputs"], False)
        if actual is not None:
            act: Dict[str, Any] = {}
            for t, a in zip(m["outputs"], actual):
                buf = np.load(os.path.join(self.path, t["buffer"]))
                buf = buf.astype(buf.dtype.newbyteorder("=")) if not buf.dtype.isnative else buf.copy()
                slots = np.load(os.path.join(self.path, t["slots"])).astype(np.int64)
                a = _types.as_array(a)
                if a.dtype.newbyteorder("=") != buf.dtype or a.size != slots.size:
                    raise ValueError(f"{t['name']}: the backend gave {a.dtype}{list(a.shape)}, "
                                     f"the output is {buf.dtype}{t['Sizes']}")
                buf[slots.ravel()] = a.reshape(-1).view(buf.dtype)
                values = to_values(buf)
                if t["slot"] != t["name"]:
                    act.setdefault(t["slot"], []).append(values)
                else:
                    act[t["slot"]] = values
            doc["actual"] = act
        return Case(doc, self.path)

    def min_feature_level(self) -> Optional[str]:
        """The oldest feature level at which the library accepts the case (validated in this
        process, no data read), None if none up to the manifest's."""
        case = self.case()
        for name, value in sorted(_types.LEVELS.items(), key=lambda kv: kv[1]):
            if value > _types.LEVELS.get(self.feature_level, _types.LATEST):
                break
            if case.validate(feature_level=name) is None:
                return name
        return None

    def check(self, actual: Any) -> None:
        """The backend's outputs (an array, or a list in binding order) against dmlref's, bit
        for bit (NaN payloads and -0.0 included).  On a difference, saves the case with
        `actual` and raises AssertionError with a `repro: dmlref run PATH` line."""
        outs = list(actual) if isinstance(actual, (list, tuple)) else [actual]
        want = self.expected()
        ok = len(outs) == len(want)
        arrays = []
        for w, a in zip(want, outs):
            a = _types.as_array(a)
            arrays.append(a)
            ok = ok and _bits_equal(w, a.reshape(w.shape) if a.size == w.size and a.dtype == w.dtype else a)
        if ok:
            return
        stem = os.path.basename(os.path.normpath(self.path))
        message = f"{self!r}: the backend's outputs differ from dmlref's"
        try:
            path = _save_failure(self.case(arrays), stem)
            message += "\n" + _repro(path)
        except ValueError as e:  # shapes or types the case cannot hold: nothing to replay
            message += f" ({e})"
        print(message.splitlines()[-1])
        raise AssertionError(message)


def golden_cases(directory: str, *, data_types: Optional[Iterable[str]] = None,
                 index_types: Optional[Iterable[str]] = None, feature_level: Optional[str] = None,
                 operators: Optional[Iterable[str]] = None) -> List[Any]:
    """pytest parameters, one per directory under `directory` holding a manifest.json (as
    `dmlref export` writes them; searched recursively, sorted), each with its relative path
    as id.  A case is marked skip (with the reason) when it uses a data type outside
    `data_types` or an index type outside `index_types` (DirectML names or numpy dtypes),
    needs a feature level above `feature_level`, or is of an operator outside `operators`."""
    import pytest

    def names(ts: Optional[Iterable[Any]]) -> Optional[set]:
        if ts is None:
            return None
        return {t if isinstance(t, str) and t in _types.DTYPES else _types.data_type(np.dtype(t)) for t in ts}

    allowed, allowed_idx = names(data_types), names(index_types)
    ops = {o.upper() for o in operators} if operators is not None else None
    top = _types.LEVELS[feature_level] if feature_level is not None else None
    if feature_level is not None and feature_level not in _types.LEVELS:
        raise ValueError(f"unknown feature level {feature_level!r}; known: {', '.join(_types.LEVELS)}")
    found = []
    for root, dirs, files in os.walk(directory):
        dirs.sort()
        if "manifest.json" in files:
            found.append(root)
    if not found:
        raise FileNotFoundError(f"{directory}: no manifest.json below it (write one with `dmlref export`)")
    params = []
    for path in sorted(found):
        g = GoldenCase(path)
        reasons = []
        if allowed is not None and set(g.data_types) - allowed:
            reasons.append(f"data type {', '.join(sorted(set(g.data_types) - allowed))}")
        if allowed_idx is not None and set(g.index_types) - allowed_idx:
            reasons.append(f"index type {', '.join(sorted(set(g.index_types) - allowed_idx))}")
        if top is not None and _types.LEVELS.get(g.feature_level, 0) > top:
            need = g.min_feature_level()
            if need is None or _types.LEVELS[need] > top:
                reasons.append(f"feature level {need or g.feature_level} > {feature_level}")
        if ops is not None and g.operator not in ops:
            reasons.append(f"operator {g.operator}")
        marks = [pytest.mark.skip(reason="not supported: " + "; ".join(reasons))] if reasons else []
        params.append(pytest.param(g, id=os.path.relpath(path, directory), marks=marks))
    return params


def check(drawn: Any, actual: Any) -> None:
    """A drawn call's (dmlref.strategies.Drawn) backend outputs against dmlref's, bit for
    bit.  On a difference, saves the case (Case.from_call with actual=) and raises
    AssertionError with a `repro: dmlref run PATH` line (also printed)."""
    want = drawn.call()
    wants = want if isinstance(want, list) else [want]
    outs = list(actual) if isinstance(actual, (list, tuple)) else [actual]
    try:
        if len(outs) != len(wants):
            raise AssertionError(f"{len(outs)} outputs, dmlref has {len(wants)}")
        for w, a in zip(wants, outs):
            assert_same_bits(_types.as_array(a), w)
    except AssertionError as e:
        case = Case.from_call(drawn.function, *drawn.args, feature_level=drawn.feature_level,
                              actual=[_types.as_array(a) for a in outs] if len(outs) > 1 or isinstance(want, list)
                              else _types.as_array(outs[0]), **drawn.kwargs)
        path = _save_failure(case, drawn.operator.lower())
        line = _repro(path)
        print(line)
        raise AssertionError(f"{e}\n{line}") from None
