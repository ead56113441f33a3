"""Hostile inputs at the package's door (issue 23): parameters far outside their C field,
any number of JOIN/SPLIT pieces, threads=, FLOAT values beyond FLOAT32 and Case.save on a
full disk; integers that are not integers (a float, a string, a bool in an integer array),
refused as the command refuses them; Case.validate reading the descriptor as the command does."""
import errno
import os
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, find, settings

import dmlref
from dmlref._ops import OPERATORS

# generous for a slow, loaded CI machine: a range check is microseconds
PROMPT_S = 2.0
_UINT, _INT, _UINT_ARRAY, _INT_ARRAY, _ENUM = 1, 2, 3, 4, 6
# values that fit no 32-bit field (2**32 fits none signed or not; -1 no UINT32),
# and values that fit and are the library's to judge
NOT_32 = [2**64, 2**70, 2**32, -2**31 - 1]
FITS = [2**26]


def _minimal(name):
    """The smallest valid call of an operator (UINT8 data: a valid 2**26 padding stays 64 MiB; an
    operator without UINT8, such as UPSAMPLE_2D, its FLOAT16 or another type it has)."""
    from dmlref import strategies

    types = {t for v in strategies.support(name).values() for t in v[0]}
    dt = next((t for t in ("UINT8", "FLOAT16") if t in types), sorted(types)[0])
    return find(strategies.cases(name, data_type=dt), lambda c: True,
                settings=settings(database=None, derandomize=True, max_examples=50,
                                  suppress_health_check=list(HealthCheck)))


def _call(d, **kw):
    t = time.perf_counter()
    try:
        d.function(*d.args, **dict(d.kwargs, **kw), feature_level=d.feature_level)
        err = None
    except Exception as e:  # noqa: BLE001 (the type is asserted below)
        err = e
    return err, time.perf_counter() - t


def _integer_params(op):
    return [(k, p) for k, p in op.kw.items() if p["kind"] in (_UINT, _INT, _UINT_ARRAY, _INT_ARRAY, _ENUM)]


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_every_integer_parameter_is_range_checked_promptly(name):
    d = _minimal(name)
    for k, p in _integer_params(OPERATORS[name]):
        is_array = p["kind"] in (_UINT_ARRAY, _INT_ARRAY)
        signed = p["kind"] in (_INT, _INT_ARRAY)
        if is_array and not d.kwargs.get(k):
            continue
        not_fitting = NOT_32 + ([] if signed else [-1])
        for v in not_fitting + FITS + ([-1] if signed else []):
            given = [v] + list(d.kwargs[k])[1:] if is_array else v
            err, secs = _call(d, **{k: given})
            what = f"{name}.{k}={v}: {type(err).__name__}: {err}"
            assert secs < PROMPT_S, what
            if v in not_fitting:
                # fits no field of its C type: refused before the library, naming the
                # parameter (as the keyword) and its range
                assert isinstance(err, (OverflowError, ValueError)), what
                assert not isinstance(err, dmlref.Error), what
                assert k in str(err), what
                assert ("2^31" in str(err) or "2147483647" in str(err)) if signed else \
                    ("2^32" in str(err) or "4294967295" in str(err)), what
            elif err is not None:
                # the library's verdict, naming its field
                assert isinstance(err, dmlref.InvalidDescriptor), what
                assert p["name"] in str(err) or k in str(err), what


def test_gather_of_the_issue():
    x, idx = np.zeros((3, 2), np.float32), np.zeros((1, 1), np.int32)
    for axis in (2**64, 2**26, 2**32, -1):
        t = time.perf_counter()
        with pytest.raises((OverflowError, ValueError), match="(?i)axis"):
            dmlref.gather(x, idx, axis=axis, index_dimensions=1)
        assert time.perf_counter() - t < PROMPT_S
    for k in (2**64, 2**26, -1):
        with pytest.raises((OverflowError, ValueError), match="index_dimensions|IndexDimensions"):
            dmlref.gather(x, idx, axis=0, index_dimensions=k)


@pytest.mark.parametrize("v", [2**64, 2**32, -1])
def test_a_data_type_parameter_out_of_range_names_itself(v):
    with pytest.raises((OverflowError, ValueError), match="value_data_type"):
        dmlref.diagonal_matrix1(shape=(1, 1, 2, 2), dtype=np.float32, value_data_type=v, value=0,
                                diagonal_fill_begin=0, diagonal_fill_end=1)


@pytest.mark.parametrize("kw,v", [("sizes", [2**64]), ("sizes", [-1]), ("sizes", [2**32]),
                                  ("depth", 2**64), ("depth", -1), ("shape", (1, 1, 2**64, 1)),
                                  ("shape", (1, 1, -1, 1))])
def test_extra_shape_arguments_are_range_checked(kw, v):
    x = np.zeros((2, 2), np.float32)
    t = time.perf_counter()
    with pytest.raises((OverflowError, ValueError), match=kw):
        if kw == "sizes":
            dmlref.split(x, axis=0, sizes=v)
        elif kw == "depth":
            dmlref.one_hot(np.zeros((2, 1), np.int32), np.zeros(2, np.float32), axis=1, depth=v)
        else:
            dmlref.diagonal_matrix(shape=v, dtype=np.float32, offset=0, value=1.0)
    assert time.perf_counter() - t < PROMPT_S


# ---- item 2: any number of JOIN/SPLIT pieces -------------------------------------

N_PIECES = 1000


def test_join_and_split_of_a_thousand_pieces():
    rng = np.random.default_rng(23)
    pieces = [rng.integers(0, 255, (1 + i % 3, 2), dtype=np.uint8) for i in range(N_PIECES)]
    out = dmlref.join(pieces, axis=0)
    assert out.tobytes() == np.concatenate(pieces, axis=0).tobytes()
    sizes = [p.shape[0] for p in pieces]
    got = dmlref.split(out, axis=0, sizes=sizes)
    want = np.split(out, np.cumsum(sizes)[:-1], axis=0)
    assert len(got) == N_PIECES
    assert all(g.tobytes() == w.tobytes() for g, w in zip(got, want))


def test_join_and_split_of_a_thousand_strided_views():
    rng = np.random.default_rng(24)
    base = rng.integers(-2**31, 2**31 - 1, (N_PIECES, 3, 4), dtype=np.int32)
    views = [base[i, :, ::2] for i in range(N_PIECES)]  # strided, not copied
    out = dmlref.join(views, axis=1)
    assert out.tobytes() == np.concatenate(views, axis=1).tobytes()
    # a strided input split into strided out= views (each over its own buffer: out=
    # buffers must not overlap)
    wide = np.zeros((3, 2 * out.shape[1]), np.int32)
    wide[:, ::2] = out
    src = wide[:, ::2]
    bufs = np.zeros((N_PIECES, 3, 4), np.int32)
    outs = [bufs[i][:, ::2] for i in range(N_PIECES)]
    dmlref.split(src, axis=1, sizes=[2] * N_PIECES, out=outs)
    for o, w in zip(outs, np.split(src, N_PIECES, axis=1)):
        assert o.tobytes() == np.ascontiguousarray(w).tobytes()
    assert not bufs[:, :, 1::2].any()  # only the addressed elements written


# ---- item 10: threads=, scale_bias=, Case.save -----------------------------------

@pytest.mark.parametrize("threads", [-1, 2**32, 2**70])
def test_threads_out_of_range_is_refused(threads):
    x = np.zeros((3, 2), np.float32)
    with pytest.raises((OverflowError, ValueError), match=r"threads.*\[0, 4294967295\]"):
        dmlref.element_wise_identity(x, threads=threads)


def test_threads_in_range_are_taken():
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    for t in (0, 1, 2**32 - 1):
        assert dmlref.element_wise_identity(x, threads=t).tobytes() == x.tobytes()
    with pytest.raises(TypeError, match="threads"):
        dmlref.element_wise_identity(x, threads=1.5)


@pytest.mark.parametrize("sb", [(1e300, 0), (0, -1e300), (3.5e38, 0)])
def test_scale_bias_beyond_float32_is_refused(sb):
    x = np.zeros((3, 2), np.float32)
    with pytest.raises(ValueError, match="scale_bias.*beyond the finite range of FLOAT32"):
        dmlref.element_wise_identity(x, scale_bias=sb)


@pytest.mark.parametrize("v", [1e300, -1e39, 2**200])
def test_float_parameters_beyond_float32_are_refused(v):
    with pytest.raises(ValueError, match=r"value \(Value\).*beyond the finite range of FLOAT32"):
        dmlref.diagonal_matrix(shape=(1, 1, 2, 2), dtype=np.float32, offset=0, value=v)
    with pytest.raises(ValueError, match=r"padding_value \(PaddingValue\).*beyond the finite range of FLOAT32"):
        dmlref.padding(np.zeros((1, 1, 1, 2), np.float32), padding_mode="CONSTANT", padding_value=v,
                       start_padding=[0, 0, 0, 1], end_padding=[0, 0, 0, 0])


def test_scale_bias_rounding_to_float32_and_infinities_are_taken():
    x = np.ones((2,), np.float32)
    # 3.4028235e38 rounds to FLT_MAX, as the command's strtof rounds it; inf is given as inf
    assert dmlref.element_wise_identity(x, scale_bias=(3.4028235e38, 0)).tolist() == [np.finfo(np.float32).max] * 2
    assert np.isinf(dmlref.element_wise_identity(x, scale_bias=(float("inf"), 0))).all()
    assert np.isnan(dmlref.element_wise_identity(x, scale_bias=(float("nan"), 0))).all()


class _Full:
    """A file opened for writing on a full disk: half of what is written gets there,
    then ENOSPC."""

    def __init__(self, f):
        self.f = f

    def write(self, s):
        self.f.write(s[: len(s) // 2])
        self.f.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, a):
        return getattr(self.f, a)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


def _full_disk(monkeypatch):
    """Writes fail with ENOSPC however Case.save opens its file (open, os.fdopen)."""
    import builtins

    real_open, real_fdopen = builtins.open, os.fdopen

    def wrap(f, mode):
        return _Full(f) if any(c in mode for c in "wax+") else f

    monkeypatch.setattr(builtins, "open", lambda file, mode="r", *a, **k: wrap(real_open(file, mode, *a, **k), mode))
    monkeypatch.setattr(os, "fdopen", lambda fd, mode="r", *a, **k: wrap(real_fdopen(fd, mode, *a, **k), mode))


def test_case_save_on_a_full_disk_leaves_no_temporary_and_the_old_file(tmp_path, monkeypatch):
    case = dmlref.Case.from_call(dmlref.gather, np.arange(6, dtype=np.float32).reshape(3, 2),
                                 np.array([[0, 2]], np.int32), axis=0, index_dimensions=1)
    path = tmp_path / "case.json"
    path.write_text("the old case\n")
    _full_disk(monkeypatch)
    with pytest.raises(OSError) as e:
        case.save(str(path))
    monkeypatch.undo()
    assert e.value.errno == errno.ENOSPC
    assert sorted(os.listdir(tmp_path)) == ["case.json"]  # no temporary left behind
    assert path.read_text() == "the old case\n"  # untouched
    # a save that succeeds writes the case and leaves nothing else
    case.save(str(path))
    assert sorted(os.listdir(tmp_path)) == ["case.json"]
    assert dmlref.Case.load(str(path)).doc == case.doc


def test_case_save_on_a_full_disk_with_no_old_file(tmp_path, monkeypatch):
    case = dmlref.Case.from_call(dmlref.join, [np.zeros(2, np.int8)], axis=0)
    _full_disk(monkeypatch)
    with pytest.raises(OSError):
        case.save(str(tmp_path / "new.json"))
    monkeypatch.undo()
    assert os.listdir(tmp_path) == []


def test_the_c_layer_refuses_them_too():
    """_core.run, below the keyword layer (Operator.validate, Case.validate): no wrap, no inf."""
    from dmlref import _core

    op = OPERATORS["ELEMENT_WISE_IDENTITY"]
    t = (1, (2,), None, 8)
    tensors = [t for _ in op.schema["slots"]]  # ELEMENT_WISE_IDENTITY: input, output
    with pytest.raises(ValueError, match=r"ScaleBias\.Scale: 1e\+300 is beyond the finite range of FLOAT32"):
        op.validate({"InputTensor": t, "OutputTensor": t}, {"ScaleBias": (1e300, 0.0)})
    assert op.validate({"InputTensor": t, "OutputTensor": t}, {"ScaleBias": (3.4028235e38, 0.0)}) is None
    for threads in (-1, 2**32, 2**70):
        with pytest.raises(OverflowError, match="threads"):
            _core.run(op.type, _core.FEATURE_LEVEL_LATEST, 0, threads, tensors, [None], [], True)
    assert _core.run(op.type, _core.FEATURE_LEVEL_LATEST, 0, 2**32 - 1, tensors, [None], [], True) is None


# ---- integers are integers: what the command refuses, the package refuses (issue 23) ----------

def _command(*args, path=None, doc=None):
    """(exit status, stderr) of `dmlref ARGS`, with doc written to path first."""
    import subprocess

    if doc is not None:
        with open(path, "w") as f:
            f.write(dmlref._case.dumps(doc))
    p = subprocess.run([dmlref._case.command(), *args], capture_output=True, text=True)
    return p.returncode, p.stderr


NOT_INTEGERS = [1.5, 2.0, np.float64(1.0), "1", True, None, __import__("decimal").Decimal("1")]


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_integer_array_parameters_refuse_what_is_not_an_integer(name):
    """An element of TILE's Repeats, SLICE's Offsets, PADDING's StartPadding ... given as 1.5
    ran as 1 (int() truncated it), "2" as 2, True as 1: the command refuses each (exit 3)."""
    d = _minimal(name)
    op = OPERATORS[name]
    arrays = [(k, p) for k, p in op.kw.items() if p["kind"] in (_UINT_ARRAY, _INT_ARRAY) and d.kwargs.get(k)]
    for k, p in arrays:
        rng = "[0, 4294967295]" if p["kind"] == _UINT_ARRAY else "[-2147483648, 2147483647]"
        for v in NOT_INTEGERS:
            err, _ = _call(d, **{k: [v] + list(d.kwargs[k])[1:]})
            shown = "1.0" if isinstance(v, np.floating) else repr(v) if isinstance(v, (str, bool)) else \
                "NoneType" if v is None else str(v)
            assert isinstance(err, TypeError), f"{name}.{k}[0]={v!r}: {type(err).__name__}: {err}"
            assert str(err) == (f"{dmlref.snake(name)}(): {k}[0] ({p['name']}[0]): expected an integer in {rng}, "
                                f"got {shown}"), str(err)
        # numpy integers are integers
        err, _ = _call(d, **{k: np.asarray(d.kwargs[k], np.int64)})
        assert err is None, f"{name}.{k} as int64 array: {err}"


def test_the_command_words_the_refusal_alike(tmp_path):
    """The package's message ends as the command's does for the same value."""
    x = np.zeros((1, 2), np.float32)
    with pytest.raises(TypeError) as e:
        dmlref.tile(x, repeats=[1, 1.5])
    case = dmlref.Case.from_call(dmlref.tile, x, repeats=[1, 2]).doc
    case["Repeats"] = [1, 1.5]
    rc, err = _command("validate", str(tmp_path / "t.json"), path=str(tmp_path / "t.json"), doc=case)
    assert rc == 3 and "Repeats[1]: expected an integer in [0, 4294967295], got 1.5" in err, err
    assert str(e.value).endswith("(Repeats[1]): expected an integer in [0, 4294967295], got 1.5")


def test_output_shape_keywords_refuse_floats():
    """split(sizes=[1.5, 2.5]) split a 4-wide axis as [1, 2] (then refused for the sum), and
    diagonal_matrix(shape=(1, 1, 2.5, 2)) made a 2 x 2 matrix: int() truncated them."""
    x = np.zeros((1, 4), np.float32)
    with pytest.raises(TypeError, match=r"^split\(\): sizes\[0\]: expected an integer in \[0, 4294967295\], got 1\.5$"):
        dmlref.split(x, axis=1, sizes=[1.5, 2.5])
    with pytest.raises(TypeError, match=r"^diagonal_matrix\(\): shape\[2\]: expected an integer .* got 2\.5$"):
        dmlref.diagonal_matrix(shape=(1, 1, 2.5, 2), dtype="FLOAT32", offset=0, value=1.0)
    with pytest.raises(TypeError, match=r"^one_hot\(\): depth: expected an integer .* got 2\.0$"):
        dmlref.one_hot(np.zeros((1, 1), np.uint32), np.array([0, 1], np.float32), axis=1, depth=2.0)
    assert [a.shape for a in dmlref.split(x, axis=1, sizes=[np.int64(1), 3])] == [(1, 1), (1, 3)]


# ---- Case.validate reads the descriptor as the command does (issue 23) -------------------------

CASES = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "cases")


def test_case_validate_agrees_with_the_command_on_every_case_file():
    """A valid case's ScaleBias ({"Scale": 2, "Bias": -1}) raised TypeError (its keys were read
    as values), as did a FLOAT given "inf"; Sizes of 4.0 were truncated, a count that differs
    from its array's length ignored.  Now: valid where the command says valid, the library's
    verdict where it says invalid, and where it refuses a descriptor field, its message."""
    import glob

    files = sorted(glob.glob(os.path.join(CASES, "*.json")) + glob.glob(os.path.join(CASES, "bad", "*.json")))
    assert len(files) > 100
    raised = 0
    for f in files:
        rc, err = _command("validate", f)
        try:
            case = dmlref.Case.load(f)
        except ValueError:  # not JSON (json.JSONDecodeError)
            assert rc == 3, f
            continue
        try:
            verdict = case.validate()
        except dmlref.Error as e:
            assert rc == 3 and e.status == "DMLREF_CASE_MALFORMED" and e.message in err, (f, e.message, err)
            raised += 1
            continue
        if rc == 0:
            assert verdict is None, (f, verdict)
        elif rc == 2:
            assert isinstance(verdict, dmlref.InvalidDescriptor), (f, verdict)
        elif rc == 7:  # cannot verify: no verdict, never InvalidDescriptor
            assert isinstance(verdict, dmlref.CannotVerify), (f, verdict)
        else:  # a problem of the data, which validate does not read
            assert rc == 3 and verdict is None or isinstance(verdict, dmlref.InvalidDescriptor), (f, rc, verdict)
    assert raised >= 15


def _diag(value, **more):
    return dict({"operator": "DIAGONAL_MATRIX", "Offset": 0, "Value": value,
                 "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 2, 2]}}, **more)


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "0x7fc01234", "0x00000001", 0, -0.0, 3.4028235e38])
def test_case_validate_takes_every_float_the_command_takes(tmp_path, value):
    """A FLOAT field given "inf" (or "nan", "0x...") raised TypeError: must be real number, not str."""
    path = str(tmp_path / "c.json")
    assert _command("validate", path, path=path, doc=_diag(value))[0] == 0
    assert dmlref.Case(_diag(value)).validate() is None
    sb = {"operator": "ELEMENT_WISE_IDENTITY", "ScaleBias": {"Scale": value, "Bias": "0x3f800000"},
          "InputTensor": {"DataType": "FLOAT32", "Sizes": [2], "data": [1, 2]},
          "OutputTensor": {"DataType": "FLOAT32", "Sizes": [2]}}
    assert _command("validate", path, path=path, doc=sb)[0] == 0
    assert dmlref.Case(sb).validate() is None


@pytest.mark.parametrize("value", ["infinity", "0x7fc0", "0x7fc0000g", "1.5", True, [1.0], {"x": 1}, 1e39, -3.5e38,
                                   2**200])
def test_case_validate_refuses_every_float_the_command_refuses(tmp_path, value):
    path = str(tmp_path / "c.json")
    for doc in (_diag(value), {"operator": "ELEMENT_WISE_IDENTITY", "ScaleBias": {"Scale": 1, "Bias": value},
                               "InputTensor": {"DataType": "FLOAT32", "Sizes": [2], "data": [1, 2]},
                               "OutputTensor": {"DataType": "FLOAT32", "Sizes": [2]}}):
        rc, err = _command("validate", path, path=path, doc=doc)
        with pytest.raises(dmlref.Error) as e:
            dmlref.Case(doc).validate()
        assert rc == 3 and e.value.status == "DMLREF_CASE_MALFORMED" and e.value.message in err, (e.value.message, err)


def test_case_validate_reads_fields_exactly(tmp_path):
    """Fields the command refuses or reads exactly: an integer 1.0, a number for an enum, a
    ScaleBias key too many, TotalTensorSizeInBytes of -1 (wrapped to 2^64 - 1 by "K") or
    2^64 + 8 (wrapped to 8), Flags (dropped: an input OWNED_BY_DML was valid in Python)."""
    path = str(tmp_path / "c.json")
    base = {"operator": "GATHER", "Axis": 0, "IndexDimensions": 1,
            "InputTensor": {"DataType": "FLOAT32", "Sizes": [4], "data": [1, 2, 3, 4]},
            "IndicesTensor": {"DataType": "UINT32", "Sizes": [2], "data": [0, 1]},
            "OutputTensor": {"DataType": "FLOAT32", "Sizes": [2]}}
    import copy

    def variant(**changes):
        d = copy.deepcopy(base)
        for path_, v in changes.items():
            *outer, last = path_.split(".")
            (d[outer[0]] if outer else d)[last] = v
        return d

    for doc in (variant(Axis=0.0), variant(Axis="0"), variant(Axis=True),
                variant(**{"InputTensor.TotalTensorSizeInBytes": -1}),
                variant(**{"InputTensor.TotalTensorSizeInBytes": 2**64 + 16}),
                variant(**{"InputTensor.Sizes": [4.0]}), variant(**{"InputTensor.Strides": ["1"]}),
                variant(**{"InputTensor.DataType": 1})):
        rc, err = _command("validate", path, path=path, doc=doc)
        with pytest.raises(dmlref.Error) as e:
            dmlref.Case(doc).validate()
        assert rc == 3 and e.value.message in err, (e.value.message, err)
    flagged = variant(**{"OutputTensor.Flags": 1})
    rc, out = _command("validate", path, path=path, doc=flagged)
    verdict = dmlref.Case(flagged).validate()
    assert rc == 2 and isinstance(verdict, dmlref.InvalidDescriptor), (rc, verdict)


def test_arrays_sharing_a_count_may_not_differ_in_length():
    """Operator.validate (and Case.validate below it) with SLICE's Offsets of 1 value and Sizes,
    Strides of 8: _core.c set DimensionCount to 8 and the library read 7 values past the end of
    Offsets' block (valgrind: invalid read in slice_window_rules)."""
    op = OPERATORS["SLICE"]
    t = (1, (3,) * 8, None, 4 * 3**8)
    o = (1, (1,) * 8, None, 4)
    with pytest.raises(ValueError, match=r"^Sizes: 8 entries, but Offsets has 1 \(both are counted by DimensionCount\)$"):
        op.validate({"InputTensor": t, "OutputTensor": o}, {"Offsets": [0], "Sizes": [1] * 8, "Strides": [1] * 8})
    assert op.validate({"InputTensor": t, "OutputTensor": o}, {"Offsets": [0] * 8, "Sizes": [1] * 8,
                                                               "Strides": [1] * 8}) is None


def test_numpy_integer_threads_run():
    """threads=np.int64(2) passed the keyword layer's check and was refused below it
    (OverflowError: threads must be an integer in [0, 2^32 - 1]): _core takes Python ints."""
    x = np.arange(8, dtype=np.float32)
    for threads in (np.int64(2), np.uint32(1), np.int8(0)):
        out = dmlref.gather(x, np.array([2, 0], np.int32), axis=0, index_dimensions=1, threads=threads)
        assert out.tolist() == [2.0, 0.0]


def test_booleans_are_not_numbers():
    """padding_value=True, scale_bias=(True, 0), diagonal_matrix1(value=True) of a float type ran
    as 1.0; the command refuses `true` there ("got a boolean")."""
    x = np.zeros((1, 1, 2, 2), np.float32)
    with pytest.raises(TypeError, match=r"^padding\(\): padding_value \(PaddingValue\) must be a number, got bool$"):
        dmlref.padding(x, padding_mode="CONSTANT", padding_value=True, start_padding=[0] * 4, end_padding=[0] * 4)
    with pytest.raises(TypeError, match=r"scale_bias \(ScaleBias\.Bias\) must be a number, got bool_?$"):
        dmlref.element_wise_identity(x, scale_bias=(1.0, np.True_))
    with pytest.raises(TypeError, match=r"^a FLOAT32 value must be a number, got True$"):
        dmlref.diagonal_matrix1(shape=(2, 2), dtype="FLOAT32", value=True, diagonal_fill_begin=0, diagonal_fill_end=1)


def test_an_unknown_enum_name_is_named():
    """padding_mode="MIRROR" said `padding_mode must be an integer, got str` (still a TypeError, as before)."""
    x = np.zeros((1, 1, 2, 2), np.float32)
    with pytest.raises(TypeError, match=r"^padding\(\): padding_mode \(PaddingMode\): unknown value 'MIRROR' "
                                         r"\(CONSTANT, EDGE, REFLECTION, SYMMETRIC, WRAP\)$"):
        dmlref.padding(x, padding_mode="MIRROR", padding_value=0.0, start_padding=[0] * 4, end_padding=[0] * 4)
    assert dmlref.padding(x, padding_mode="EDGE", padding_value=0.0, start_padding=[0] * 4,
                          end_padding=[0] * 4).shape == (1, 1, 2, 2)
