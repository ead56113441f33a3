"""Case files (docs/cli.md): read, run through the `dmlref` command, write.

run() drives the command (`dmlref run CASE --npy DIR`, which writes every output
buffer whole as .npy, bit-exact), so a case means here exactly what it means to
the command; values written in a case's JSON (`data`, `random`, `expected`) are
decoded by the command too, through a one-piece JOIN of one dimension, never by a second parser in Python.
The `distinct` and `pooled` fills (integers, no JSON values to decode) are computed here, the
same integers for the same seed as case/distinct.c (python/tests/test_case.py compares them), and
`bytes_moved` read as case/case_read.c's parse_moved reads it."""
import copy
import decimal
import fractions
import json
import os
import shutil
import subprocess
import tempfile

import numpy as np

from . import _core, _types
from ._errors import CannotVerify, DuplicateIndex, Error, IndexOutOfRange, InvalidDescriptor, OutOfMemory
from ._ops import OPERATORS, snake, union_element


def command():
    """The `dmlref` command run() drives: $DMLREF_COMMAND, the one installed with this
    package, or the first on PATH."""
    env = os.environ.get("DMLREF_COMMAND")
    if env:
        return env
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "dmlref")
    if os.access(here, os.X_OK):
        return here
    found = shutil.which("dmlref")
    if found:
        return found
    raise Error("the dmlref command is not found: set DMLREF_COMMAND, or build with `make python`",
                status="DMLREF_COMMAND_MISSING")


# ---- JSON with exact numbers ------------------------------------------------

def _dump(v, out, indent, level):
    if isinstance(v, dict):
        if not v:
            out.append("{}")
            return
        pad = "\n" + " " * (indent * (level + 1)) if indent else ""
        out.append("{")
        for i, (k, x) in enumerate(v.items()):
            out.append(("," if i else "") + pad + json.dumps(str(k)) + ": ")
            _dump(x, out, indent if isinstance(x, dict) else 0, level + 1)
        out.append(("\n" + " " * (indent * level) if indent else "") + "}")
    elif isinstance(v, (list, tuple)):
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(", ")
            _dump(x, out, 0, level + 1)
        out.append("]")
    elif v is None:
        out.append("null")
    elif v is True or v is False:
        out.append("true" if v else "false")
    elif isinstance(v, (int, np.integer)):
        out.append(str(int(v)))
    elif isinstance(v, decimal.Decimal):
        out.append(str(v))
    elif isinstance(v, float):
        out.append(repr(v))
    elif isinstance(v, str):
        out.append(json.dumps(v))
    else:
        raise TypeError(f"cannot write {type(v).__name__} into a case file")


def dumps(doc):
    out = []
    _dump(doc, out, 2, 0)
    return "".join(out) + "\n"


def _non_standard(name):
    # RFC 8259 has no NaN or Infinity literal; the command's reader refuses them (not JSON)
    raise ValueError(f"not JSON: {name} is not a JSON value (RFC 8259 has no such literal)")


def _loads(text):
    # numbers stay as written: decimals exactly, and "-0" keeps its sign (a float -0.0)
    return json.loads(text, parse_float=decimal.Decimal, parse_constant=_non_standard,
                      parse_int=lambda t: decimal.Decimal(t) if t == "-0" else int(t))


# ---- values -------------------------------------------------------------------

_CANONICAL_NAN = {2: 0x7E00, 4: 0x7FC00000, 8: 0x7FF8000000000000}


def to_values(a):
    """A 1-D array -> case-file values that read back to the same bits: integers in
    decimal; floats as the shortest decimal of their exact value, "inf", "-inf",
    "nan" (the canonical quiet NaN) or "0x..." (any other NaN)."""
    a = np.ascontiguousarray(a).reshape(-1)
    if a.dtype.kind in "iu":
        return [int(x) for x in a.tolist()]
    isz = a.dtype.itemsize
    bits = a.view(f"u{isz}").tolist()
    vals = []
    with np.errstate(invalid="ignore"):
        wide = a.astype(np.float64).tolist()
    for x, b in zip(wide, bits):
        if x != x:
            vals.append("nan" if b == _CANONICAL_NAN[isz] else f"0x{b:0{2 * isz}x}")
        elif x in (float("inf"), float("-inf")):
            vals.append("inf" if x > 0 else "-inf")
        else:
            vals.append(float(x))  # exact: every FLOAT16/32 value is a double
    return vals


def _flatten(v, out):
    if isinstance(v, list):
        for x in v:
            _flatten(x, out)
    else:
        out.append(v)
    return out


def _run_command(args, what):
    p = subprocess.run([command()] + args, capture_output=True, text=True)
    if p.returncode in (0, 1):
        return p
    msg = (p.stdout.strip() + "\n" + p.stderr.strip()).strip()
    if p.returncode == 2:
        raise InvalidDescriptor(msg, status="DMLREF_CASE_INVALID")
    if p.returncode == 8:  # out of memory: no verdict on the case (docs/cli.md)
        raise OutOfMemory(f"{what}: {msg}", status="DMLREF_ERROR_OUT_OF_MEMORY")
    if p.returncode == 7:  # cannot verify: no verdict either (docs/cli.md)
        raise CannotVerify(f"{what}: {msg}", status="DMLREF_ERROR_CANNOT_VERIFY")
    raise Error(f"{what}: dmlref exited {p.returncode}: {msg}", status=f"DMLREF_EXIT_{p.returncode}")


def _decode(dtype_name, spec, count):
    """count elements of a 1-D tensor whose `data` (flat list) or `random` is spec,
    decoded by the command."""
    if count == 0:
        return np.zeros(0, _types.DTYPES[dtype_name])
    doc = {"operator": "JOIN", "feature_level": "6_4", "Axis": 0,
           "InputTensors": [dict({"DataType": dtype_name, "Sizes": [count]}, **spec)],
           "OutputTensor": {"DataType": dtype_name, "Sizes": [count]}}
    with tempfile.TemporaryDirectory(prefix="dmlref-") as d:
        path = os.path.join(d, "decode.json")
        with open(path, "w") as f:
            f.write(dumps(doc))
        _run_command(["run", path, "--npy", d], "decoding values")
        return _load_npy(os.path.join(d, "OutputTensor.npy"))[:count].copy()


def _load_npy(path):
    a = np.load(path, allow_pickle=False)
    return a.astype(a.dtype.newbyteorder("="), copy=False).reshape(-1)


_MASK64 = (1 << 64) - 1
_INT_MAX = {"UINT8": 0xFF, "INT8": 0x7F, "UINT16": 0xFFFF, "INT16": 0x7FFF, "UINT32": 0xFFFFFFFF,
            "INT32": 0x7FFFFFFF, "UINT64": _MASK64, "INT64": (1 << 63) - 1}


def _splitmix64(state):
    """case/prng.h's prng_next: (new state, value)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def _malformed(msg):
    return Error(msg, status="DMLREF_CASE_MALFORMED")


def _json_int(v, path, lo, hi):
    """case/fields.c's fields_get_int: an integer literal ("-0" is 0) in [lo, hi]."""
    if isinstance(v, decimal.Decimal) and v == 0 and v.as_tuple().exponent == 0:
        v = 0
    if isinstance(v, bool) or not isinstance(v, int):
        raise _malformed(f"{path}: expected an integer, got {v!r}")
    if not lo <= v <= hi:
        raise _malformed(f"{path}: {v} is out of range [{lo}, {hi}]")
    return v


# ---- the descriptor's fields, read as the command reads them (case/case_read.c, fields.c) ------

# value_type_from_name (case/value.c): every named type, UINT4 and INT4 too (no operator takes
# them: the library's verdict, not a malformed file)
_TYPE_CODES = dict(_types.CODES, UINT4=12, INT4=13)
_TYPE_LIST = "FLOAT64 FLOAT32 FLOAT16 INT64 INT32 INT16 INT8 UINT64 UINT32 UINT16 UINT8"
_F32_BEYOND = fractions.Fraction(2**128 - 2**103)  # FLT_MAX + half an ulp: rounds to infinity
_FLOAT_BEYOND = {"FLOAT16": fractions.Fraction(65520), "FLOAT32": _F32_BEYOND,
                 "FLOAT64": fractions.Fraction(2**1024 - 2**970)}


def _kind(v):
    """What a JSON value is, for a message (case/json.c's jv_kind_name)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, list):
        return "an array"
    return "a string" if isinstance(v, str) else "a number"


def _number_text(v):
    """The text of a number as the case file holds it (as dumps writes it), else None."""
    if isinstance(v, bool) or not isinstance(v, (int, float, decimal.Decimal, np.integer, np.floating)):
        return None
    if isinstance(v, (float, np.floating)) and not np.isfinite(v):
        return None
    if isinstance(v, int) and v.bit_length() > 10000:  # str() refuses beyond 4300 digits
        return f"an integer of {v.bit_length()} bits"
    return repr(float(v)) if isinstance(v, (float, np.floating)) else str(v)


def _field_int(v, path, lo, hi):
    """fields_get_int / case_get_uint: an integer literal (`-0` is 0) in [lo, hi]; not 1.0, not
    "1", not true."""
    t = _number_text(v)
    if t is None:
        raise _malformed(f"{path}: expected an integer in [{lo}, {hi}], got {_kind(v)}")
    if isinstance(v, decimal.Decimal) and v == 0 and v.as_tuple().exponent == 0:
        v = 0  # "-0" (_loads keeps it a Decimal for its sign)
    if isinstance(v, (int, np.integer)) and lo <= int(v) <= hi:
        return int(v)
    raise _malformed(f"{path}: expected an integer in [{lo}, {hi}], got {t[:40]}")


def _field_value(v, path, type_name):
    """An element of type_name written as in a case file (case/value.c): an exact integer in
    range, a number rounded to the float type (refused beyond its finite range), "nan", "inf",
    "-inf" (float types), "0x..." with two hex digits per byte.  Its bytes, in host order."""
    dtype = np.dtype(_types.DTYPES[type_name]).newbyteorder("=")
    isz, is_float = dtype.itemsize, dtype.kind == "f"
    if isinstance(v, str):
        if v.startswith("0x"):
            if len(v) != 2 + 2 * isz:
                raise _malformed(f'{path}: bit pattern "{v[:40]}" must have exactly {2 * isz} hex digits for {type_name}')
            if any(c not in "0123456789abcdefABCDEF" for c in v[2:]):
                raise _malformed(f'{path}: bit pattern "{v[:40]}" has a non-hex digit')
            return np.array([int(v[2:], 16)], f"u{isz}").tobytes()
        if v not in ("nan", "inf", "-inf"):
            raise _malformed(f'{path}: expected a number, "nan", "inf", "-inf" or "0x...", got "{v[:40]}"')
        if not is_float:
            raise _malformed(f'{path}: "{v}" is not a value of the integer type {type_name}')
        return np.array([float(v)], dtype).tobytes()
    t = _number_text(v)
    if t is None:
        raise _malformed(f"{path}: expected a value of {type_name}, got {_kind(v)}")
    if not is_float:
        if isinstance(v, decimal.Decimal) and v == 0 and v.as_tuple().exponent == 0:
            v = 0
        if not isinstance(v, (int, np.integer)):
            raise _malformed(f"{path}: expected an integer for {type_name}, got {t}")
        info = np.iinfo(dtype)
        if not info.min <= int(v) <= info.max:
            lo = f"[{info.min}, {info.max}]" if info.min else f"[0, {info.max}]"
            raise _malformed(f"{path}: {t} is not representable in {type_name} {lo}")
        return np.array([int(v)], dtype).tobytes()
    if abs(fractions.Fraction(v if not isinstance(v, np.floating) else float(v))) >= _FLOAT_BEYOND[type_name]:
        raise _malformed(f'{path}: {t} is beyond the finite range of {type_name} (write "inf" for infinity)')
    with np.errstate(over="ignore"):  # (the rounding of a value never changes a verdict)
        return np.array([float(v)], np.float64).astype(dtype).tobytes()


def _field_float(v, path):
    """A FLOAT field (read_float): the FLOAT32 value as a Python float."""
    if not isinstance(v, str) and _number_text(v) is None:
        raise _malformed(f'{path}: expected a number, "nan", "inf", "-inf" or "0x...", got {_kind(v)}')
    return float(np.frombuffer(_field_value(v, path, "FLOAT32"), np.float32)[0])


def _enum_list(p):
    return ", ".join(n for n in p["enum_names"] if n)


def _read_params(op, doc):
    """{schema name: value op.validate takes} for the operator's fields in doc, as
    fields_read_params reads them (the same order and messages); Error with status
    DMLREF_CASE_MALFORMED for a field the command refuses (exit 3)."""
    out, counts = {}, {}
    for union_pass in (False, True):
        for p in op.params:
            if (p["kind"] == 7) != union_pass:
                continue
            name, kind, v = p["name"], p["kind"], doc.get(p["name"])
            if v is None:
                if kind == 8 and p["is_optional"]:
                    out[name] = None
                    continue
                raise _malformed(f'missing "{name}" (a field of {op.name})')
            if kind in (1, 2):
                out[name] = _field_int(v, name, *((0, 2**32 - 1) if kind == 1 else (-2**31, 2**31 - 1)))
            elif kind in (3, 4):
                if not isinstance(v, list):
                    raise _malformed(f"{name}: expected an array of integers, got {_kind(v)}")
                lo, hi = (0, 2**32 - 1) if kind == 3 else (-2**31, 2**31 - 1)
                out[name] = [_field_int(e, f"{name}[{i}]", lo, hi) for i, e in enumerate(v)]
                cname = p.get("count_name")
                if cname:
                    if doc.get(cname) is not None:
                        c = _field_int(doc[cname], cname, 0, 2**32 - 1)
                        if c != len(v):
                            raise _malformed(f"{cname} ({c}) differs from the length of {name} ({len(v)})")
                    first = counts.setdefault(cname, (name, len(v)))
                    if first[1] != len(v):
                        raise _malformed(f"{name}: {len(v)} entries, but {first[0]} has {first[1]} "
                                         f"(both are counted by {cname})")
            elif kind == 9:
                if not isinstance(v, list):
                    raise _malformed(f"{name}: expected an array of FLOAT values, got {_kind(v)}")
                out[name] = [_field_float(e, f"{name}[{i}]") for i, e in enumerate(v)]
                cname = p.get("count_name")
                if cname:
                    if doc.get(cname) is not None:
                        c = _field_int(doc[cname], cname, 0, 2**32 - 1)
                        if c != len(v):
                            raise _malformed(f"{cname} ({c}) differs from the length of {name} ({len(v)})")
                    first = counts.setdefault(cname, (name, len(v)))
                    if first[1] != len(v):
                        raise _malformed(f"{name}: {len(v)} entries, but {first[0]} has {first[1]} "
                                         f"(both are counted by {cname})")
            elif kind == 10:
                if not isinstance(v, dict):
                    raise _malformed(f"{name}: expected an object {{Width, Height}}, got {_kind(v)}")
                for key in v:
                    if key not in ("Width", "Height"):
                        raise _malformed(f'{name}: unknown key "{str(key)[:60]}" (Width, Height)')
                for f in ("Width", "Height"):
                    if f not in v:
                        raise _malformed(f'{name}: missing "{f}"')
                out[name] = tuple(_field_int(v[f], f"{name}.{f}", 0, 2**32 - 1) for f in ("Width", "Height"))
            elif kind == 11:
                if not isinstance(v, bool):
                    raise _malformed(f"{name}: expected true or false, got {_kind(v)}")
                out[name] = v
            elif kind == 5:
                out[name] = _field_float(v, name)
            elif kind == 6:
                if not isinstance(v, str):
                    raise _malformed(f"{name}: expected the name of a value ({_enum_list(p)}), got {_kind(v)}")
                if v not in p["enum_names"]:
                    raise _malformed(f'{name}: unknown value "{v[:40]}" ({_enum_list(p)})')
                out[name] = p["enum_names"].index(v)
            elif kind == 7:
                tname = _types.NAMES.get(out.get(op.union_type.get(name)))
                if tname not in _types.DTYPES:
                    code = out.get(op.union_type.get(name))
                    raise _malformed(f"{name}: its data type ({code}) has no element values")
                out[name] = _field_value(v, name, tname).ljust(8, b"\0")
            elif kind == 8:
                fields = p.get("field_names") or []
                listed = ", ".join(fields)
                if not isinstance(v, dict):
                    raise _malformed(f"{name}: expected an object {{{listed}}}{' or null' if p['is_optional'] else ''}, "
                                     f"got {_kind(v)}")
                for key in v:
                    if key not in fields:
                        raise _malformed(f'{name}: unknown key "{str(key)[:60]}" ({listed})')
                for f in fields:
                    if f not in v:
                        raise _malformed(f'{name}: missing "{f}"')
                out[name] = tuple(_field_float(v[f], f"{name}.{f}") for f in fields)
    return out


def _read_tensor(t, name):
    """(DataType code, Sizes, Strides or None, TotalTensorSizeInBytes, Flags, alignment) of a
    tensor object, read as case/case_read.c reads it (data and unknown keys are not read)."""
    if not isinstance(t, dict):
        raise _malformed(f"{name}: expected a tensor object, got {_kind(t)}")
    dt = t.get("DataType")
    if dt is None:
        raise _malformed(f"{name}: missing DataType")
    if not isinstance(dt, str):
        raise _malformed(f"{name}.DataType: expected a string, got {_kind(dt)}")
    if dt not in _TYPE_CODES:
        raise _malformed(f'{name}.DataType: unknown data type "{dt[:40]}" ({_TYPE_LIST})')
    sizes = t.get("Sizes")
    if sizes is None:
        raise _malformed(f"{name}: missing Sizes")
    if not isinstance(sizes, list):
        raise _malformed(f"{name}.Sizes: expected an array, got {_kind(sizes)}")
    if len(sizes) > 64:
        raise _malformed(f"{name}.Sizes: {len(sizes)} entries (at most 8 dimensions exist)")
    sizes = tuple(_field_int(v, f"{name}.Sizes[{i}]", 0, 2**32 - 1) for i, v in enumerate(sizes))
    if t.get("DimensionCount") is not None:
        c = _field_int(t["DimensionCount"], f"{name}.DimensionCount", 0, 2**32 - 1)
        if c != len(sizes):
            raise _malformed(f"{name}: DimensionCount ({c}) differs from the length of Sizes ({len(sizes)})")
    strides = t.get("Strides")
    if strides is not None:
        if not isinstance(strides, list):
            raise _malformed(f"{name}.Strides: expected an array, got {_kind(strides)}")
        if len(strides) != len(sizes):
            raise _malformed(f"{name}.Strides: {len(strides)} entries, but Sizes has {len(sizes)}")
        strides = tuple(_field_int(v, f"{name}.Strides[{i}]", 0, 2**32 - 1) for i, v in enumerate(strides))
    extra = [_field_int(t[k], f"{name}.{k}", 0, 2**32 - 1) if t.get(k) is not None else 0
             for k in ("Flags", "GuaranteedBaseOffsetAlignment")]
    code = _TYPE_CODES[dt]
    if t.get("TotalTensorSizeInBytes") is not None:
        total = _field_int(t["TotalTensorSizeInBytes"], f"{name}.TotalTensorSizeInBytes", 0, 2**64 - 1)
    else:
        total = _core.calc_buffer_tensor_size(code, sizes, strides)
    return (code, sizes, strides, total, *extra)


def distinct_fill(name, data_type, total_slots, spec):
    """The `distinct` fill of a tensor (docs/case-format.md) as case/distinct.c makes it: its
    whole buffer of total_slots elements of data_type, from spec = {"seed": S, "modulus": M,
    "group": G, "unravel": [...]}: in each group of G values (default: all) value j is
    (a * j + b) mod M, a odd and b drawn per group from splitmix64(S); with unravel each value
    is written as its row-major coordinates, one slot each; slots past the last whole value 0."""
    if not isinstance(spec, dict):
        raise _malformed(f"{name}.distinct: expected an object {{\"seed\": S, \"modulus\": M}}, got {spec!r}")
    for key in spec:
        if key not in ("seed", "modulus", "group", "unravel", "comment"):
            raise _malformed(f"{name}.distinct: unknown key \"{key}\" (seed, modulus, group, unravel)")
    for key in ("seed", "modulus"):
        if key not in spec:
            raise _malformed(f"{name}.distinct: missing \"{key}\"")
    tmax = _INT_MAX.get(data_type)
    if tmax is None:
        raise _malformed(f"{name}.distinct: needs an integer DataType, not {data_type}")
    seed = _json_int(spec["seed"], f"{name}.distinct.seed", 0, (1 << 63) - 1)
    m = _json_int(spec["modulus"], f"{name}.distinct.modulus", 1, 1 << 62)
    if m & (m - 1):
        raise _malformed(f"{name}.distinct.modulus: {m} is not a power of two")
    dims = [m]
    if "unravel" in spec:
        u = spec["unravel"]
        if not isinstance(u, list) or not 1 <= len(u) <= 8:
            raise _malformed(f"{name}.distinct.unravel: expected an array of 1 to 8 sizes")
        dims = [_json_int(v, f"{name}.distinct.unravel[{d}]", 1, m) for d, v in enumerate(u)]
        prod = 1
        for v in dims:
            prod *= v
        if prod != m:
            raise _malformed(f"{name}.distinct.unravel: the sizes' product must equal modulus {m}")
    for v in dims:
        if v - 1 > tmax:
            raise _malformed(f"{name}.distinct: values up to {v - 1} do not fit {data_type}")
    k = len(dims)
    n_values = total_slots // k
    if "group" in spec:
        per = _json_int(spec["group"], f"{name}.distinct.group", 1, m)
    elif n_values > m:
        raise _malformed(f"{name}.distinct: {n_values} values cannot be distinct below modulus {m} (give a group)")
    else:
        per = n_values
    mask = m - 1
    n_groups = -(-n_values // per) if n_values else 0
    a = np.empty(n_groups, np.uint64)
    b = np.empty(n_groups, np.uint64)
    state = seed
    for g in range(n_groups):
        state, x = _splitmix64(state)
        a[g] = (x | 1) & mask
        state, x = _splitmix64(state)
        b[g] = x & mask
    i = np.arange(n_values, dtype=np.uint64)
    g, j = i // np.uint64(per), i % np.uint64(per)
    with np.errstate(over="ignore"):
        v = (a[g] * j + b[g]) & np.uint64(mask)  # mod 2^64, then mod M (M divides 2^64)
    out = np.zeros(total_slots, _types.DTYPES[data_type])
    coords = out[: n_values * k].reshape(n_values, k)
    for d in range(k - 1, -1, -1):  # row-major: the last coordinate varies fastest
        coords[:, d] = v % np.uint64(dims[d])
        v = v // np.uint64(dims[d])
    return out


def pooled_fill(name, data_type, sizes, strides, total_slots, spec):
    """The `pooled` fill of a tensor (docs/case-format.md) as case/distinct.c makes it: the
    indices a max pooling with a kh x kw window gives, spec = {"seed": S, "window": [kh, kw],
    "output": [...]}: the element at logical coordinate c holds the row-major flat index in
    `output` of c with its last two coordinates scaled by the window plus q // kw and q % kw,
    q = x mod (kh * kw), x the next splitmix64(S) value, one per element in row-major order
    (vectorized: the k-th value is splitmix64's mix of S + k * golden); gap slots 0."""
    if not isinstance(spec, dict):
        raise _malformed(f"{name}.pooled: expected an object {{\"seed\": S, \"window\": [kh, kw], \"output\": [...]}}, "
                         f"got {spec!r}")
    for key in spec:
        if key not in ("seed", "window", "output", "comment"):
            raise _malformed(f"{name}.pooled: unknown key \"{key}\" (seed, window, output)")
    for key in ("seed", "window", "output"):
        if key not in spec:
            raise _malformed(f"{name}.pooled: missing \"{key}\"")
    if data_type not in ("UINT8", "UINT16", "UINT32", "UINT64"):
        raise _malformed(f"{name}.pooled: needs an unsigned integer DataType, not {data_type}")
    n = len(sizes)
    if not 2 <= n <= 8:
        raise _malformed(f"{name}.pooled: needs 2 to 8 dimensions, not {n}")
    seed = _json_int(spec["seed"], f"{name}.pooled.seed", 0, (1 << 63) - 1)
    w = spec["window"]
    if not isinstance(w, list) or len(w) != 2:
        raise _malformed(f"{name}.pooled.window: expected [kh, kw]")
    kh, kw = (_json_int(v, f"{name}.pooled.window[{d}]", 1, 1 << 16) for d, v in enumerate(w))
    o = spec["output"]
    if not isinstance(o, list) or len(o) != n:
        raise _malformed(f"{name}.pooled.output: expected {n} sizes (the tensor's DimensionCount)")
    os_ = [_json_int(v, f"{name}.pooled.output[{d}]", 1, 0xFFFFFFFF) for d, v in enumerate(o)]
    for d in range(n):
        need = sizes[d] if d + 2 < n else sizes[d] * (kh if d == n - 2 else kw)
        if (os_[d] != need) if d + 2 < n else (os_[d] < need):
            raise _malformed(f"{name}.pooled.output[{d}] is {os_[d]}; the windows need "
                             f"{'' if d + 2 < n else 'at least '}{need}")
    count = int(np.prod(os_, dtype=object))
    if count - 1 > _INT_MAX[data_type]:
        raise _malformed(f"{name}.pooled: flat indices up to {count - 1} do not fit {data_type}")
    elements = int(np.prod(sizes, dtype=object))
    with np.errstate(over="ignore"):
        k = np.arange(1, elements + 1, dtype=np.uint64)
        z = np.uint64(seed) + k * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    q = (z % np.uint64(kh * kw)).astype(np.int64).reshape(sizes)
    c = np.indices(sizes, dtype=np.int64)
    v = np.zeros(sizes, np.uint64)
    for d in range(n):
        od = c[d]
        if d == n - 2:
            od = od * kh + q // kw
        if d == n - 1:
            od = od * kw + q % kw
        v = v * np.uint64(os_[d]) + od.astype(np.uint64)
    st, acc = [0] * n, 1
    for d in range(n - 1, -1, -1):
        st[d] = strides[d] if strides is not None else acc
        acc *= sizes[d]
    slot = sum(c[d] * st[d] for d in range(n)).reshape(-1)
    out = np.zeros(total_slots, _types.DTYPES[data_type])
    keep = slot < total_slots
    out[slot[keep]] = v.reshape(-1)[keep]
    return out


def _file_mode(path):
    """The permission bits a file written at path gets: the existing file's, else those
    open() gives a new file (0666 less the umask)."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        mask = os.umask(0o22)
        os.umask(mask)
        return 0o666 & ~mask


class Case:
    """A case file: its JSON document (`doc`), read with numbers kept exactly as written."""

    def __init__(self, doc, base_dir="."):
        self.doc = doc
        self.base_dir = os.path.abspath(base_dir)

    @classmethod
    def load(cls, path):
        with open(path) as f:
            doc = _loads(f.read())
        if not isinstance(doc, dict):
            raise Error(f"{path}: the case must be a JSON object", status="DMLREF_CASE_MALFORMED")
        return cls(doc, os.path.dirname(os.path.abspath(path)))

    @property
    def operator(self):
        """The operator's name; SCATTER_ELEMENTS, SCATTER's other name (value 94), reads as SCATTER,
        as the command reads it."""
        name = self.doc.get("operator")
        return "SCATTER" if name == "SCATTER_ELEMENTS" else name

    @property
    def feature_level(self):
        return self.doc.get("feature_level", _types.LEVEL_NAMES[_types.LATEST])

    @property
    def bytes_moved(self):
        """{tensor field: how many times its element bytes count in the bytes moved} as
        case/case_read.c's parse_moved reads it: the case's `bytes_moved` (0 to 16; fields
        not named 0), or without it 2 for every output and 1 for every index input."""
        op = OPERATORS.get(self.operator)
        if op is None:
            raise Error(f"unknown operator {self.operator!r}", status="DMLREF_ERROR_UNSUPPORTED_OPERATOR")
        present = [sl for sl in op.schema["slots"] if self.doc.get(sl["name"]) is not None]
        moved = self.doc.get("bytes_moved")
        if moved is None:
            return {sl["name"]: 2 if sl["is_output"] else 1 if sl["is_index"] else 0 for sl in present}
        if not isinstance(moved, dict):
            raise _malformed(f"bytes_moved: expected an object {{\"OutputTensor\": 2, ...}}, got {moved!r}")
        out = {sl["name"]: 0 for sl in present}
        for key, v in moved.items():
            if key in ("comment", "why", "name", "description"):
                continue
            v = _json_int(v, f"bytes_moved.{key}", 0, 16)
            if key not in out:
                raise _malformed(f"bytes_moved: \"{key}\" is not a tensor of this case")
            out[key] = v
        return out

    def _absolute_doc(self):
        """The document with every `npy` path absolute (for a copy written elsewhere)."""
        doc = copy.deepcopy(self.doc)
        for v in doc.values():
            for t in (v if isinstance(v, list) else [v]):
                if isinstance(t, dict) and isinstance(t.get("npy"), str):
                    t["npy"] = os.path.join(self.base_dir, t["npy"])
        return doc

    def save(self, path):
        """Writes the case (npy references stay valid: made absolute when the
        directory changes)."""
        same = os.path.abspath(os.path.dirname(os.path.abspath(path))) == self.base_dir
        text = dumps(self.doc if same else self._absolute_doc())
        # a temporary of a unique name beside the file, renamed over it once written whole:
        # a failed write (a full disk) leaves the old file as it was and no temporary
        folder, name = os.path.split(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(tmp, _file_mode(path))  # mkstemp's 0600: the mode open() would give
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise

    def framework(self):
        """The operator as ONNX, WebNN and PyTorch take it: the dict `dmlref export` writes
        as the manifest's "framework" ({"onnx": "Gather", "webnn": "gather", "pytorch":
        "index_select", "axis": 1, "shapes": {"InputTensor": [3, 3], ...}}), None for an
        operator without a form.  Computed in this process by the command's own code
        (cli/framework.c and the case reader, compiled into dmlref._core), so it is the
        command's form by construction.  A case the command refuses raises what `dmlref
        export` reports (exit 2: InvalidDescriptor, exit 3: Error DMLREF_CASE_MALFORMED)."""
        doc = self._absolute_doc()
        doc.pop("expected", None)  # only the descriptor matters
        doc.pop("actual", None)
        r = _core.framework(dumps(doc), self.base_dir)
        if isinstance(r, tuple):
            status, message = r
            if status == 2:
                raise InvalidDescriptor(message, status="DMLREF_CASE_INVALID")
            if status == 8:
                raise OutOfMemory(message, status="DMLREF_ERROR_OUT_OF_MEMORY")
            raise Error(message, status="DMLREF_CASE_MALFORMED" if status == 3 else f"DMLREF_CASE_{status}")
        return json.loads(r)

    def run(self, *, feature_level=None, strict=False, threads=None):
        """Runs the case through `dmlref run --npy`: {output name: the whole output
        buffer in memory order (gap slots show the 0xCD prefill)}, SPLIT's
        OutputTensors as a list.  InvalidDescriptor when the case is invalid."""
        args = []
        if feature_level:
            args += ["--feature-level", feature_level]
        if strict:
            args.append("--strict")
        if threads is not None:
            args += ["--threads", str(threads)]
        with tempfile.TemporaryDirectory(prefix="dmlref-") as d:
            path = os.path.join(d, "case.json")
            with open(path, "w") as f:
                f.write(dumps(self._absolute_doc()))
            try:
                _run_command(["run", path, "--npy", d] + args, "run")
            except InvalidDescriptor as e:
                raise self._why_invalid(e, feature_level) from None
            out = {}
            for slot in self._slots(output=True):
                name = slot["name"]
                if slot["is_array"]:
                    out[name] = [_load_npy(os.path.join(d, f"{name}_{i}.npy"))
                                 for i in range(len(self.doc.get(name, [])))]
                else:
                    out[name] = _load_npy(os.path.join(d, f"{name}.npy"))
            return out

    def validate(self, feature_level=None):
        """dmlref_validate on the case's descriptor (in this process, data not read):
        None, or the InvalidDescriptor the library reports (status, rule, field).  The
        descriptor's fields (parameters, tensors' DataType, Sizes, Strides, Flags,
        GuaranteedBaseOffsetAlignment, TotalTensorSizeInBytes, counts) are read as the command
        reads them: one it refuses (exit 3) raises Error with status DMLREF_CASE_MALFORMED and
        its message (`Axis: expected an integer in [0, 4294967295], got 1.0`)."""
        op = OPERATORS.get(self.operator)
        if op is None:
            return InvalidDescriptor(f"unknown operator {self.operator!r}", status="DMLREF_ERROR_UNSUPPORTED_OPERATOR")
        level = self.doc.get("feature_level")
        if level is not None and not isinstance(level, str):
            raise _malformed(f'feature_level: expected a string such as "4_1", got {_kind(level)}')
        if level is not None and level not in _types.LEVELS:
            raise _malformed(f'feature_level: unknown level "{level[:20]}" ({" ".join(_types.LEVELS)})')
        params = _read_params(op, self.doc)
        tensors = {}
        # as case/case_read.c: the single tensors, then the arrays and their counts
        for slot in sorted(op.schema["slots"], key=lambda sl: sl["is_array"]):
            name, t = slot["name"], self.doc.get(slot["name"])
            if t is None and slot["is_array"]:
                raise _malformed(f'missing "{name}" (an array of tensors)')
            if t is None:
                if not slot["is_optional"]:
                    raise _malformed(f'missing "{name}" (a tensor of {op.name})')
                continue
            if not slot["is_array"]:
                tensors[name] = _read_tensor(t, name)
                continue
            if not isinstance(t, list):
                raise _malformed(f"{name}: expected an array of tensors, got {_kind(t)}")
            cname = slot.get("count_name")
            if cname and self.doc.get(cname) is not None:
                c = _field_int(self.doc[cname], cname, 0, 2**32 - 1)
                if c != len(t):
                    raise _malformed(f"{cname} ({c}) differs from the length of {name} ({len(t)})")
            tensors[name] = [_read_tensor(x, f"{name}[{i}]") for i, x in enumerate(t)]
        return op.validate(tensors, params, feature_level or level)

    def _why_invalid(self, e, feature_level):
        """The command's exit 2 as the library's own error: its status, rule and field
        from dmlref_validate, or (a valid descriptor under --strict) the index error."""
        try:
            err = self.validate(feature_level)
        except (Error, ValueError, KeyError, TypeError, OverflowError):
            err = None
        if err is not None:
            return err
        if "is out of range" in e.message:
            return IndexOutOfRange(e.message, status="DMLREF_ERROR_INDEX_OUT_OF_RANGE", operator=self.operator)
        if "repeats the target" in e.message:
            return DuplicateIndex(e.message, status="DMLREF_ERROR_DUPLICATE_INDEX", operator=self.operator)
        return e

    def _slots(self, output):
        op = OPERATORS.get(self.operator)
        if op is None:
            raise Error(f"unknown operator {self.operator!r}", status="DMLREF_ERROR_UNSUPPORTED_OPERATOR")
        return op.out_slots if output else op.in_slots

    def _tensor_desc(self, t):
        """(DirectML type name, slots of the whole buffer) of a tensor of the case."""
        name = t["DataType"]
        isz = np.dtype(_types.DTYPES[name]).itemsize
        total = t.get("TotalTensorSizeInBytes")
        if total is None:
            total = _core.calc_buffer_tensor_size(_types.CODES[name], t["Sizes"], t.get("Strides"))
        return name, int(total) // isz

    def _values(self, t, key, tname="tensor"):
        name = t["DataType"]
        if key == "random":
            return _decode(name, {"random": t["random"]}, self._tensor_desc(t)[1])
        if key == "npy":
            return _load_npy(os.path.join(self.base_dir, t["npy"]))
        if key == "distinct":
            return distinct_fill(tname, name, self._tensor_desc(t)[1], t["distinct"])
        if key == "pooled":
            return pooled_fill(tname, name, t["Sizes"], t.get("Strides"), self._tensor_desc(t)[1], t["pooled"])
        flat = _flatten(t[key], [])
        return _decode(name, {"data": flat}, len(flat))

    @property
    def inputs(self):
        """{input name: its whole buffer} (a list for an array slot), decoded from
        `data`, `npy` or `random`, or the `distinct` fill (distinct_fill); a span-long list is
        padded with zeros."""
        out = {}
        for slot in self._slots(output=False):
            ts = self.doc.get(slot["name"])
            if ts is None:
                continue
            group = []
            for i, t in enumerate(ts if slot["is_array"] else [ts]):
                _, slots = self._tensor_desc(t)
                key = next((k for k in ("data", "npy", "random", "distinct", "pooled") if k in t), None)
                if key is None:
                    raise Error(f"{slot['name']} has no data", status="DMLREF_CASE_MALFORMED")
                v = self._values(t, key, f"{slot['name']}[{i}]" if slot["is_array"] else slot["name"])
                if v.size < slots:
                    v = np.concatenate([v, np.zeros(slots - v.size, v.dtype)])
                group.append(v)
            out[slot["name"]] = group if slot["is_array"] else group[0]
        return out

    @property
    def expected(self):
        """{output name: the expected values as written (the whole buffer or the
        span)}, SPLIT's a list (None where the case skips an output); {} without
        `expected`."""
        exp = self.doc.get("expected")
        if not exp:
            return {}
        out = {}
        for slot in self._slots(output=True):
            if slot["name"] not in exp:
                continue
            ts = self.doc[slot["name"]]
            vals = exp[slot["name"]]
            if slot["is_array"]:
                out[slot["name"]] = [None if v is None else self._values({"DataType": t["DataType"], "data": v}, "data")
                                     for t, v in zip(ts, vals)]
            else:
                out[slot["name"]] = self._values({"DataType": ts["DataType"], "data": vals}, "data")
        return out

    @classmethod
    def from_call(cls, function, *args, feature_level=None, out=None, actual=None, comment=None, **kwargs):
        """The case file of a call: dmlref.from_call(dmlref.gather, x, idx, axis=0, ...).

        Inputs are written with their layout (a strided view keeps its Strides, its
        data the whole span, gaps included); outputs with out='s layout when given,
        packed otherwise.  `expected` holds dmlref's output; with actual= (the
        backend's output(s), shaped like the outputs) `actual` holds dmlref's buffer
        with the addressed elements replaced by the backend's: `dmlref run` on the
        case then fails exactly where the backend differs, naming both values
        (`OutputTensor[3]: dmlref gives 10, actual 42`)."""
        op = getattr(function, "operator", None) or OPERATORS[str(function).upper()]
        fn = function if callable(function) else getattr(__import__("dmlref"), snake(op.name))
        doc = {"operator": op.name}
        if feature_level:
            doc["feature_level"] = feature_level
        if comment:
            doc["comment"] = comment
        sizes = {}
        for slot, a in zip(op.in_slots, args):
            if slot["is_array"]:
                doc[slot["name"]] = [_input_json(np.asarray(e)) for e in a]
                sizes[slot["name"]] = [np.shape(e) for e in a]
            elif a is not None:
                doc[slot["name"]] = _input_json(np.asarray(a))
                sizes[slot["name"]] = np.shape(a)
        # outputs: run dmlref into buffers prefilled with 0xCD, in the recorded layout
        if out is None:
            res = fn(*args, feature_level=feature_level, **kwargs)
            res = [res] if not isinstance(res, list) else res
            layouts = [(r.dtype, r.shape, None) for r in res]
        else:
            outs = list(out) if isinstance(out, (list, tuple)) else [out]
            layouts = [(o.dtype, o.shape, _elem_strides(o)) for o in outs]
        _, params = op.param_values({k: v for k, v in kwargs.items() if k in op.kw}, sizes,
                                    layouts[0][0] if layouts else None)
        kinds = {p["name"]: p for p in op.params}
        for name, v in params.items():  # every parameter, defaults included
            if v is not None:
                if kinds[name]["kind"] == 6:  # an enum by its name: the command reads no numbers there
                    names = kinds[name]["enum_names"]
                    v = names[v] if 0 <= v < len(names) and names[v] else v
                elif kinds[name]["kind"] == 7:  # a union: its value as an element of its type
                    v = to_values(union_element(v, params[op.union_type[name]]))[0]
                elif kinds[name]["kind"] == 5:  # a FLOAT: as a FLOAT32 element ("inf", "nan", "0x...")
                    with np.errstate(over="ignore"):
                        v = to_values(np.array([v], np.float64).astype(np.float32))[0]
                elif kinds[name]["kind"] == 9:  # FLOAT values, each as a FLOAT32 element
                    with np.errstate(over="ignore"):
                        v = to_values(np.array([float(e) for e in v], np.float64).astype(np.float32))
                elif kinds[name]["kind"] == 10:  # DML_SIZE_2D
                    v = {"Width": int(v[0]), "Height": int(v[1])}
                doc[name] = list(v) if isinstance(v, (list, tuple)) else v
        bufs, views = [], []
        for dtype, shape, strides in layouts:
            isz = np.dtype(dtype).itemsize
            st = strides if strides is not None else None
            total = _core.calc_buffer_tensor_size(_types.CODES[_types.data_type(dtype)], shape, st)
            buf = np.full(total, 0xCD, np.uint8)
            nslots = total // isz
            flat = buf[: nslots * isz].view(dtype)
            eff = st if st is not None else _packed(shape)
            view = np.lib.stride_tricks.as_strided(flat, shape=shape, strides=[s * isz for s in eff])
            bufs.append((flat, st, total))
            views.append(view)
        # one array per output slot (a list for several slots: TOP_K's values and indices)
        view_out = views if (len(op.out_slots) > 1 or op.out_slots[0]["is_array"]) else views[0]
        fn(*args, feature_level=feature_level, out=view_out, **kwargs)
        outs_json, actual_values = [], []
        for (flat, st, total), (dtype, shape, _) in zip(bufs, layouts):
            t = {"DataType": _types.data_type(dtype), "Sizes": [int(s) for s in shape]}
            if st is not None:
                t["Strides"] = [int(s) for s in st]
            outs_json.append((t, to_values(flat)))
        if actual is not None:  # the backend's: dmlref's buffer, its elements where they lie
            acts = list(actual) if isinstance(actual, (list, tuple)) else [actual]
            if len(acts) != len(views):
                raise ValueError(f"from_call: {len(acts)} actual outputs given, the call has {len(views)}")
            for (flat, _, _), v, a in zip(bufs, views, acts):
                a = _types.as_array(a)
                if a.dtype != v.dtype:
                    raise TypeError(f"from_call: actual has dtype {a.dtype}, the output {v.dtype}")
                v[...] = a.reshape(v.shape)
                actual_values.append(to_values(flat))
        expected, device = {}, {}
        i = 0
        for slot in op.out_slots:
            if slot["is_array"]:
                doc[slot["name"]] = [t for t, _ in outs_json[i:]]
                expected[slot["name"]] = [v for _, v in outs_json[i:]]
                device[slot["name"]] = actual_values[i:]
                i = len(outs_json)
            else:
                doc[slot["name"]], expected[slot["name"]] = outs_json[i]
                if actual_values:
                    device[slot["name"]] = actual_values[i]
                i += 1
        doc["expected"] = expected
        if actual is not None:
            doc["actual"] = device
        return cls(doc, os.getcwd())


def _packed(shape):
    st, acc = [], 1
    for n in reversed(shape):
        st.append(acc)
        acc *= n
    return tuple(reversed(st))


def _elem_strides(a):
    isz = a.itemsize
    if all(s >= 0 and s % isz == 0 for s in a.strides):
        return tuple(s // isz for s in a.strides)
    raise ValueError("from_call: out= needs non-negative strides that are multiples of the item size")


def _input_json(a):
    """A tensor entry for an input array: its own layout when dmlref would pass it
    without a copy (Strides, the span's slots in memory order), packed otherwise."""
    name = _types.data_type(a.dtype)
    if not a.dtype.isnative:
        a = a.byteswap().view(a.dtype.newbyteorder("="))
    isz = a.itemsize
    t = {"DataType": name, "Sizes": [int(s) for s in a.shape]}
    if a.size and a.flags.aligned and all(s >= 0 and s % isz == 0 for s in a.strides) and not a.flags.c_contiguous:
        el = [s // isz for s in a.strides]
        slots = _types.span_bytes(a.shape, el, isz) // isz
        flat = np.lib.stride_tricks.as_strided(a, shape=(slots,), strides=(isz,))
        t["Strides"] = el
        t["data"] = to_values(flat)
    else:
        t["data"] = to_values(np.ascontiguousarray(a))
    return t
