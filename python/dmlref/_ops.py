"""One function per operator, generated from the library's public schema.

A function takes the operator's input slots positionally (an array slot, such as
JOIN's InputTensors, as a list), its parameters as keyword arguments named in
snake case (IndexDimensions -> index_dimensions; counts such as InputCount come
from the lists), then feature_level, check_indices and out.  Its outputs'
sizes come from the library (dmlref_output_sizes, through _core.output_sizes): this
package has no shape code; where the inputs and parameters leave the shape free, an
extra keyword argument gives it (EXTRA, GIVEN).  The outputs take the first input's
dtype unless DTYPE_FROM names another input (ONE_HOT: ValuesTensor; ELEMENT_WISE_IF: ATensor).  A new operator
in the registry gets its function without any line here.

An operator without an input that gives its output's shape and type (DIAGONAL_MATRIX, the
FILL_VALUE operators;
DIAGONAL_MATRIX1 without its optional input) takes shape= and dtype= (or out=).  A
DML_SCALAR_UNION parameter (DIAGONAL_MATRIX1's Value) takes a number of the type its
data-type parameter names (ValueDataType: a DirectML name, a numpy dtype or a code; by
default the output's type), or its raw bytes.
"""
import decimal
import re

import numpy as np

from . import _core, _types
from ._errors import from_status


def snake(name):
    """IndexDimensions -> index_dimensions, ELEMENT_WISE_IDENTITY -> element_wise_identity."""
    if name.isupper():
        return name.lower()
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


# What the output descs give where the inputs and parameters leave the output's shape free
# (dmlref_output_sizes reads it from them): a keyword argument per operator, and how it
# becomes the output slot's placeholder Sizes (rank: the first input's DimensionCount).
# SPLIT's sizes: each piece's share of Axis; ONE_HOT's depth: the size along Axis;
# DIAGONAL_MATRIX(1)'s shape, the FILL_VALUE operators', SLICE_GRAD's (the forward input's),
# MAX_UNPOOLING's (the unpooled one) and the RESAMPLE family's (the output's Sizes, free:
# docs/operators.md Q11.2): the whole shape.  Only Sizes[Axis] of the first two is read.
# NONZERO_COORDINATES' components: N, the coordinates' last size (its rows: the last N
# components of each nonzero element's coordinate).
# Each value lands in a UINT32 Sizes field: checked here, named as the keyword (where).
def _size(v, where):
    return check_range(where, integer(where, v, _U32), _U32)


GIVEN = {
    "sizes": lambda v, rank, where: [[_size(e, f"{where}[{i}]")] * rank for i, e in enumerate(v)],
    "depth": lambda v, rank, where: [_size(v, where)] * rank,
    "shape": lambda v, rank, where: [_size(e, f"{where}[{i}]") for i, e in enumerate(v)],
    # NONZERO_COORDINATES' N (the components per row): both outputs' placeholder {1, ..., 1, N} of
    # the input's rank (at least 2): the count {1, ...}, the coordinates {1, ..., M, N}
    "components": lambda v, rank, where: [1] * (max(rank, 2) - 1) + [_size(v, where)],
}
# Extra keyword arguments an operator's output shape needs (required unless out= is given).
EXTRA = {"SPLIT": ("sizes",), "ONE_HOT": ("depth",), "DIAGONAL_MATRIX": ("shape", "dtype"), "CAST": ("dtype",),
         "FILL_VALUE_CONSTANT": ("shape", "dtype"), "FILL_VALUE_SEQUENCE": ("shape", "dtype"),
         "SLICE_GRAD": ("shape",), "MAX_UNPOOLING": ("shape",),
         "RESAMPLE": ("shape",), "RESAMPLE1": ("shape",), "RESAMPLE2": ("shape",), "RESAMPLE3": ("shape",),
         "NONZERO_COORDINATES": ("components",),
         "ARGMIN": ("dtype",), "ARGMAX": ("dtype",)}
# Extra keyword arguments needed only when no input is given (then required unless out= is
# given): the output's shape and type come from the input otherwise.
EXTRA_WITHOUT_INPUT = {"DIAGONAL_MATRIX1": ("shape", "dtype")}
# The input slot whose dtype the outputs take, where it is not the first input.
DTYPE_FROM = {"ONE_HOT": "ValuesTensor", "ELEMENT_WISE_IF": "ATensor"}
# Output slots of a type of their own, whatever the input's (an operator with two distinct
# outputs: TOP_K's indices): {operator: {output slot: numpy dtype}}; out= gives any other.
SLOT_DTYPE = {"TOP_K": {"OutputIndexTensor": np.uint32}, "TOP_K1": {"OutputIndexTensor": np.uint32},
              "NONZERO_COORDINATES": {"OutputCountTensor": np.uint32, "OutputCoordinatesTensor": np.uint32}}
# Parameters with a default: f(sizes of the input slots by name) -> value.
DEFAULTS = {
    "SCATTER_ND": {
        "InputDimensionCount": lambda t: len(t["InputTensor"]),
        "IndicesDimensionCount": lambda t: len(t["IndicesTensor"]),
    },
    "GATHER_ND": {
        "InputDimensionCount": lambda t: len(t["InputTensor"]),
        "IndicesDimensionCount": lambda t: len(t["IndicesTensor"]),
    },
    "GATHER_ND1": {
        "InputDimensionCount": lambda t: len(t["InputTensor"]),
        "IndicesDimensionCount": lambda t: len(t["IndicesTensor"]),
        "BatchDimensionCount": lambda t: 0,
    },
}
# Parameter defaults any operator gets: optional STRUCT parameters default to None.


_INTEGER_KINDS = (1, 2, 6)  # DMLREF_PARAM_UINT, INT, ENUM
_ARRAY_KINDS = (3, 4)  # DMLREF_PARAM_UINT_ARRAY, INT_ARRAY
_FLOAT, _ENUM, _UNION, _STRUCT = 5, 6, 7, 8  # DMLREF_PARAM_FLOAT, ENUM, SCALAR_UNION, STRUCT
_FLOAT_ARRAY, _SIZE_2D, _BOOL = 9, 10, 11  # DMLREF_PARAM_FLOAT_ARRAY, SIZE_2D, BOOL
_COUNTED_KINDS = (3, 4, 9)  # the arrays with a count field


def _is_data_type_enum(p):
    """A DMLREF_TENSOR_DATA_TYPE field (PARAM_DATA_TYPE: PADDING1's, DIAGONAL_MATRIX1's ValueDataType)."""
    names = p.get("enum_names") or []
    return p["kind"] == _ENUM and len(names) > 1 and names[1] == "FLOAT32"


def out_dtype_of(dtype):
    """dtype= as a numpy dtype: a numpy dtype (or anything np.dtype takes) or a DirectML name."""
    if isinstance(dtype, str) and dtype in _types.DTYPES:
        return _types.DTYPES[dtype]
    d = np.dtype(dtype)
    _types.data_type(d)  # TypeError for a dtype DirectML has not
    return d.newbyteorder("=") if not d.isnative else d


def union_element(value, code):
    """A DML_SCALAR_UNION's value as a 1-element array of the data type `code`: raw bytes (at
    least the element's size) kept bit for bit; integers exact and in range; floats rounded
    to the type (FLOAT16 to nearest even); case-file strings "nan", "inf", "-inf", "0x...";
    a Decimal as read from a case file."""
    name = _types.NAMES.get(code)
    if name not in _types.DTYPES:
        raise ValueError(f"a union's data type {code!r} is not one of {', '.join(_types.DTYPES)}")
    dtype = np.dtype(_types.DTYPES[name]).newbyteorder("=")
    isz = dtype.itemsize
    if isinstance(value, (bytes, bytearray, memoryview)):
        raw = bytes(value)
        if len(raw) < isz:
            raise ValueError(f"{len(raw)} bytes given for a {name} value")
        return np.frombuffer(raw[:isz], dtype).copy()
    if isinstance(value, np.ndarray) and value.size == 1 or isinstance(value, np.generic):
        a = np.asarray(value).reshape(1)
        if a.dtype.newbyteorder("=") == dtype:
            return a.astype(dtype)  # the caller's element, bits kept (NaN payloads)
        value = a[0].item()
    if isinstance(value, str):
        if value.startswith("0x"):
            bits = int(value, 16)
            if bits >> (8 * isz):
                raise ValueError(f"{value} is wider than {name}")
            return np.array([bits], f"u{isz}").view(dtype)
        value = float(value)  # "nan", "inf", "-inf"
    if isinstance(value, decimal.Decimal):
        value = int(value) if dtype.kind in "iu" and value == value.to_integral_value() else float(value)
    if isinstance(value, (bool, np.bool_)):  # the command: "expected a value of FLOAT32, got a boolean"
        raise TypeError(f"a {name} value must be a number, got {value!r}")
    if dtype.kind in "iu":
        if not isinstance(value, (int, np.integer)):
            raise TypeError(f"a {name} value must be an integer, got {value!r}")
        info = np.iinfo(dtype)
        if not info.min <= int(value) <= info.max:
            raise ValueError(f"{value} is not representable in {name} [{info.min}, {info.max}]")
        return np.array([int(value)], dtype)
    with np.errstate(over="ignore"):
        return np.array([value], np.float64).astype(dtype)


def union_bytes(value, code):
    """The 8 bytes of the DML_SCALAR_UNION: the element from byte 0, the rest zero.  For a
    data type without element values (an unknown code: the library refuses it, naming the
    data-type parameter) raw bytes are kept and a number becomes zeros."""
    if _types.NAMES.get(code) not in _types.DTYPES:
        if isinstance(value, (bytes, bytearray, memoryview)) and len(bytes(value)) >= 8:
            return bytes(value)[:8]
        return b"\0" * 8
    return union_element(value, code).tobytes().ljust(8, b"\0")


# Each integer field's C type: (lowest, highest, how the range is written).
_U32 = (0, 2**32 - 1, "[0, 2^32 - 1] = [0, 4294967295]")
_I32 = (-2**31, 2**31 - 1, "[-2^31, 2^31 - 1] = [-2147483648, 2147483647]")
_FIELD_RANGE = {1: _U32, 6: _U32, 3: _U32, 2: _I32, 4: _I32}


def _shown(v):
    """An integer for a message, in constant time (a huge one by its size)."""
    return str(v) if v.bit_length() <= 64 else f"an integer of {v.bit_length()} bits"


def check_float32(where, v):
    """A FLOAT field's value (DMLREF_PARAM_FLOAT, a STRUCT's fields) as the command reads
    one: rounded to the nearest FLOAT32, a finite value that rounds beyond FLOAT32's
    range refused (ValueError); inf and nan given as such are kept."""
    if isinstance(v, (str, bytes, bool, np.bool_)):  # the command refuses `true` for a FLOAT too
        raise TypeError(f"{where} must be a number, got {type(v).__name__}")
    try:
        d = float(v)
        finite = np.isfinite(d)
    except OverflowError:  # an int beyond double
        d, finite = float("inf"), True
    except (TypeError, ValueError):
        raise TypeError(f"{where} must be a number, got {type(v).__name__}") from None
    with np.errstate(over="ignore"):
        f = np.float64(d).astype(np.float32)
    if finite and not np.isfinite(f):
        shown = _shown(v) if isinstance(v, (int, np.integer)) else repr(v)
        raise ValueError(f"{where}: {shown} is beyond the finite range of FLOAT32 "
                         f"[-3.4028235e+38, 3.4028235e+38] (give inf for infinity)")
    return v


def integer(where, v, lo_hi):
    """v as an int when it is one (a Python or numpy integer, not a bool), else TypeError in the
    command's words (case/fields.c): a float, a string, a bool is refused, never truncated or
    parsed (`Repeats[2]: expected an integer in [0, 4294967295], got 1.9`)."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        shown = (str(v) if isinstance(v, (float, np.floating, decimal.Decimal))
                 else repr(v) if isinstance(v, (str, bytes, bool)) else type(v).__name__)
        raise TypeError(f"{where}: expected an integer in [{lo_hi[0]}, {lo_hi[1]}], got {shown[:40]}")
    return int(v)


def check_range(where, v, lo_hi):
    """v (an int) within its C field, else OverflowError naming `where` and the range: the
    library never sees a value its field cannot hold (no wrap, no silent truncation)."""
    lo, hi, text = lo_hi
    if not lo <= v <= hi:
        raise OverflowError(f"{where} must be in {text}, got {_shown(v)}")
    return v


class Operator:
    """An operator of the registry, callable with numpy arrays."""

    def __init__(self, schema):
        self.schema = schema
        self.name = schema["name"]
        self.type = schema["type"]
        self.in_slots = [s for s in schema["slots"] if not s["is_output"]]
        self.out_slots = [s for s in schema["slots"] if s["is_output"]]
        self.params = [p for p in schema["params"] if not p["is_count"]]
        self.kw = {snake(p["name"]): p for p in self.params}
        self.defaults = DEFAULTS.get(self.name, {})
        self.extra = EXTRA.get(self.name, ()) + EXTRA_WITHOUT_INPUT.get(self.name, ())
        self.extra_without_input = EXTRA_WITHOUT_INPUT.get(self.name, ())
        # each union parameter's data-type parameter: the data-type enum listed before it
        self.union_type = {}
        for i, p in enumerate(self.params):
            if p["kind"] == _UNION:
                types = [q for q in self.params[:i] if _is_data_type_enum(q)]
                self.union_type[p["name"]] = types[-1]["name"] if types else None
        self.union_type_params = set(self.union_type.values())
        names = [s["name"] for s in self.in_slots]
        self.dtype_arg = names.index(DTYPE_FROM[self.name]) if self.name in DTYPE_FROM else 0

    def has_default(self, p):
        return p["is_optional"] or p["name"] in self.defaults or p["name"] in self.union_type_params

    def signature(self):
        ins = [snake(s["name"].replace("Tensors", "s").replace("Tensor", "")) + ("=None" if s["is_optional"] else "")
               for s in self.in_slots]
        kws = []
        for k, p in self.kw.items():
            kws.append(k + ("=None" if self.has_default(p) else ""))
        kws += list(self.extra) + ["feature_level=None", "check_indices=False", "out=None", "threads=0",
                                   "force_oracle=False"]
        return f"{snake(self.name)}({', '.join(ins + ['*'] + kws)})"

    def encode(self, by_name):
        """The values _core.run takes, in schema order: a union's value as its 8 bytes (of the
        type its data-type parameter holds), a data-type parameter given by name as its code."""
        values = []
        for p in self.params:
            v = by_name.get(p["name"])
            if v is not None and p["kind"] == _UNION:
                v = union_bytes(v, by_name.get(self.union_type.get(p["name"])))
            values.append(v)
        return values

    def param_values(self, kwargs, sizes, out_dtype=None):
        """(the values _core.run takes, {parameter name: value as given or defaulted}).
        out_dtype: the output's numpy dtype, the default of a union's data type."""
        by_name = {}
        for k, p in self.kw.items():
            v = kwargs.get(k)
            if v is None:
                if p["name"] in self.defaults:
                    v = self.defaults[p["name"]](sizes)
                elif p["name"] in self.union_type_params and out_dtype is not None:
                    v = _types.CODES[_types.data_type(out_dtype)]  # a union's type: the output's
                elif not p["is_optional"]:
                    raise TypeError(f"{snake(self.name)}() missing keyword argument {k!r}")
            if v is not None and _is_data_type_enum(p) and not isinstance(v, (int, np.integer)):
                v = _types.CODES[_types.data_type(out_dtype_of(v))]  # "INT64", np.int64, "int64"
            if p["kind"] == 6 and isinstance(v, str):  # an enum by its name ("REFLECTION")
                if v not in p["enum_names"]:  # (was "must be an integer, got str")
                    raise TypeError(f"{snake(self.name)}(): {k} ({p['name']}): unknown value {v[:40]!r} "
                                     f"({', '.join(n for n in p['enum_names'] if n)})")
                v = p["enum_names"].index(v)
            where = f"{snake(self.name)}(): {k} ({p['name']})"
            if p["kind"] in _INTEGER_KINDS:
                if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
                    raise TypeError(f"{snake(self.name)}(): {k} must be an integer, got {type(v).__name__}")
                v = check_range(where, int(v), _FIELD_RANGE[p["kind"]])
            if p["kind"] in _ARRAY_KINDS:
                if not hasattr(v, "__len__") or isinstance(v, (str, bytes)):
                    raise TypeError(f"{snake(self.name)}(): {k} must be a sequence of integers")
                if len(v) > 2**32 - 1:
                    raise OverflowError(f"{where} has {len(v)} values; its count field holds at most 2^32 - 1")
                lo_hi = _FIELD_RANGE[p["kind"]]
                v = [check_range(w, integer(w, e, lo_hi), lo_hi)
                     for i, e in enumerate(v) for w in [f"{snake(self.name)}(): {k}[{i}] ({p['name']}[{i}])"]]
            if p["kind"] == _FLOAT:
                check_float32(where, v)
            if p["kind"] == _FLOAT_ARRAY:
                if not hasattr(v, "__len__") or isinstance(v, (str, bytes)):
                    raise TypeError(f"{snake(self.name)}(): {k} must be a sequence of numbers")
                if len(v) > 2**32 - 1:
                    raise OverflowError(f"{where} has {len(v)} values; its count field holds at most 2^32 - 1")
                v = [check_float32(f"{snake(self.name)}(): {k}[{i}] ({p['name']}[{i}])", e) for i, e in enumerate(v)]
            if p["kind"] == _SIZE_2D:  # (Width, Height) or {"Width": w, "Height": h}
                if isinstance(v, dict):
                    if set(v) != {"Width", "Height"}:
                        raise TypeError(f"{where} takes the keys Width and Height, got {sorted(map(str, v))}")
                    v = (v["Width"], v["Height"])
                if not hasattr(v, "__len__") or isinstance(v, (str, bytes)) or len(v) != 2:
                    raise TypeError(f"{where} must be (Width, Height) or {{'Width': w, 'Height': h}}")
                v = tuple(check_range(w, integer(w, e, _U32), _U32)
                          for e, w in zip(v, (f"{where}.Width", f"{where}.Height")))
            if p["kind"] == _BOOL:
                if not isinstance(v, (bool, np.bool_)):  # the command reads only true/false there
                    raise TypeError(f"{where} must be True or False, got {type(v).__name__}")
                v = bool(v)
            if p["kind"] == _STRUCT and v is not None:
                fields = p.get("field_names") or []
                if hasattr(v, "__len__") and len(v) == len(fields):
                    for f, e in zip(fields, v):
                        check_float32(f"{snake(self.name)}(): {k} ({p['name']}.{f})", e)
            by_name[p["name"]] = v
        # arrays sharing one count field (DimensionCount) must have the same length: the
        # library reads that many values from each
        counts = {}
        for p in self.params:
            if p["kind"] in _COUNTED_KINDS and p.get("count_name"):
                n = len(by_name[p["name"]])
                first = counts.setdefault(p["count_name"], (p["name"], n))
                if first[1] != n:
                    raise ValueError(f"{snake(self.name)}(): {snake(first[0])} has {first[1]} values but "
                                     f"{snake(p['name'])} has {n}: both give {p['count_name']}")
        return self.encode(by_name), by_name

    def __call__(self, *args, feature_level=None, check_indices=False, out=None, threads=0,
                 force_oracle=False, **kwargs):
        fl, flags, slot_tensors, values, buffers, results, writebacks = self.prepare(
            args, feature_level, check_indices, out, threads, force_oracle, kwargs)
        err = _core.run(self.type, fl, flags, int(threads), slot_tensors, values, buffers, False)
        if err is not None:
            _, status, msg, rule, field = err
            raise from_status(status, msg.decode("utf-8", "replace"), rule.decode(), field.decode(), self.name)
        for o, tmp in writebacks:
            o[...] = tmp
        if len(self.out_slots) == 1 and self.out_slots[0]["is_array"]:
            return results
        return results[0] if len(results) == 1 else results

    def prepare(self, args, feature_level, check_indices, out, threads, force_oracle, kwargs):
        """Everything a call checks and marshals before it runs: (level, option flags, the
        tensors per schema slot, the parameter values, the buffers, the results, the
        write-backs of out= arrays bound through a temporary)."""
        fname = snake(self.name)
        # dmlref_options.threads is a uint32_t: refused, not wrapped, beyond it
        if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
            raise TypeError(f"{fname}(): threads must be an integer, got {type(threads).__name__}")
        check_range(f"{fname}(): threads (dmlref_options.threads)", int(threads), _U32)
        required = len(self.in_slots)
        while required and self.in_slots[required - 1]["is_optional"]:
            required -= 1
        if not required <= len(args) <= len(self.in_slots):
            raise TypeError(f"{fname}() takes {len(self.in_slots)} positional argument(s): {self.signature()}")
        args = tuple(args) + (None,) * (len(self.in_slots) - len(args))  # absent optional inputs
        for k in kwargs:
            if k not in self.kw and k not in self.extra:
                raise TypeError(f"{fname}() got an unexpected keyword argument {k!r}; signature: {self.signature()}")
        fl = _types.level(feature_level)
        tensors, buffers, sizes = {}, [], {}
        for slot, a in zip(self.in_slots, args):
            if slot["is_array"]:
                if isinstance(a, np.ndarray) or not hasattr(a, "__len__"):
                    raise TypeError(f"{fname}(): {slot['name']} takes a list of arrays")
                ts = []
                for e in a:
                    t, b = _types.input_tensor(e)
                    ts.append(t)
                    buffers.append(b)
                tensors[slot["name"]] = ts
                sizes[slot["name"]] = [t[1] for t in ts]
            elif a is None and slot["is_optional"]:
                tensors[slot["name"]] = None
            else:
                t, b = _types.input_tensor(a)
                tensors[slot["name"]] = t
                buffers.append(b)
                sizes[slot["name"]] = t[1]
        # the outputs' type: out='s, dtype='s, else the first input's
        k0 = self.dtype_arg  # ONE_HOT: the Values' dtype
        first = next((a for s, a in zip(self.in_slots[k0:], args[k0:]) if a is not None), None)
        if first is not None and self.in_slots[k0]["is_array"]:
            first = first[0] if len(first) else None
        if out is not None:
            o = out if isinstance(out, np.ndarray) else (out[0] if len(out) else None)
            o = o[0] if isinstance(o, (list, tuple)) and o else o
            out_dtype = o.dtype if isinstance(o, np.ndarray) else None
        elif kwargs.get("dtype") is not None:
            out_dtype = out_dtype_of(kwargs["dtype"])
        elif first is not None:
            out_dtype = first.dtype if type(first) is np.ndarray else _types.as_array(first).dtype
            out_dtype = out_dtype.newbyteorder("=") if not out_dtype.isnative else out_dtype
        else:
            out_dtype = None
        if out is None:
            for k in self.extra:
                if kwargs.get(k) is None and (k not in self.extra_without_input or first is None):
                    raise TypeError(f"{fname}() missing keyword argument {k!r} (or give out=)")
        values, by_name = self.param_values(kwargs, sizes, out_dtype)

        results, writebacks = [], []
        if out is not None:
            outs = [out] if len(self.out_slots) == 1 else list(out)
            if len(self.out_slots) == 1 and self.out_slots[0]["is_array"]:
                outs = [list(out)]
            for slot, o in zip(self.out_slots, outs):
                group = o if slot["is_array"] else [o]
                ts = []
                for e in group:
                    t, b, tmp = _types.out_tensor(e)
                    ts.append(t)
                    buffers.append(b)
                    results.append(e)
                    if tmp is not None:
                        writebacks.append((e, tmp))
                tensors[slot["name"]] = ts if slot["is_array"] else ts[0]
        else:
            shapes = self.output_shapes(fl, tensors, values, kwargs, out_dtype)
            for slot, shape in zip(self.out_slots, shapes):
                dtype = SLOT_DTYPE.get(self.name, {}).get(slot["name"], out_dtype)
                group = shape if slot["is_array"] else [shape]
                ts = []
                for s in group:
                    t, b, arr = _types.output_tensor(dtype, s)
                    ts.append(t)
                    buffers.append(b)
                    results.append(arr)
                tensors[slot["name"]] = ts if slot["is_array"] else ts[0]

        flags = (_core.OPTION_CHECK_INDICES if check_indices else 0) | (_core.OPTION_FORCE_ORACLE if force_oracle else 0)
        return (fl, flags, [tensors[s["name"]] for s in self.schema["slots"]], values, buffers, results,
                writebacks)

    def output_shapes(self, fl, tensors, values, kwargs, out_dtype):
        """Each output slot's sizes (a list of them for an array slot) from dmlref_output_sizes
        (no shape code here): the output slots hold only what GIVEN makes of the extras."""
        code = _types.CODES[_types.data_type(out_dtype)] if out_dtype is not None else 1
        first = next((t for t in (tensors.get(s["name"]) for s in self.in_slots) if t is not None), None)
        if isinstance(first, list):
            first = first[0] if first else None
        rank = len(first[1]) if first is not None else 0
        given = {}
        for k in self.extra:
            v = kwargs.get(k)
            if v is not None and k in GIVEN:
                g = GIVEN[k](v, rank, f"{snake(self.name)}(): {k}")
                given = [(code, e, None, 0) for e in g] if k == "sizes" else (code, g, None, 0)
        slots, counts = [], []
        for s in self.schema["slots"]:
            if not s["is_output"]:
                slots.append(tensors.get(s["name"]))
                continue
            t = given if given != {} else ([] if s["is_array"] else None)
            slots.append(t)
            counts.append(len(t) if s["is_array"] else 1)
        shapes, k = [], 0
        for s, n in zip(self.out_slots, counts):
            group = []
            for _ in range(n):
                r = _core.output_sizes(self.type, fl, slots, values, k)
                if isinstance(r, list):
                    _, status, msg, rule, field = r
                    raise from_status(status, msg.decode("utf-8", "replace"), rule.decode(), field.decode(),
                                      self.name)
                group.append(r)
                k += 1
            shapes.append(group if s["is_array"] else group[0])
        return shapes

    def validate(self, tensors, params, feature_level=None):
        """dmlref_validate on tensor tuples (code, sizes, strides, total) by slot name and
        parameter values by schema name; None or the exception it would raise."""
        values = self.encode(params)
        err = _core.run(self.type, _types.level(feature_level), 0, 0,
                        [tensors.get(s["name"]) for s in self.schema["slots"]], values, [], True)
        if err is None:
            return None
        _, status, msg, rule, field = err
        return from_status(status, msg.decode("utf-8", "replace"), rule.decode(), field.decode(), self.name)


OPERATORS = {s["name"]: Operator(s) for s in _core.schemas()}


def gather_sizes(inp, idx, axis, k, feature_level=None):
    """GATHER's output shape (rule G6), from the library (dmlref_output_sizes) for a FLOAT32
    input of sizes inp and UINT32 indices of sizes idx.  Raises what the library reports
    for sizes or parameters it refuses."""
    def tensor(name, shape):
        code = _types.CODES[name]
        return (code, tuple(shape), None, _core.calc_buffer_tensor_size(code, list(shape), None))

    r = _core.output_sizes(OPERATORS["GATHER"].type, _types.level(feature_level),
                           [tensor("FLOAT32", inp), tensor("UINT32", idx), None], [int(axis), int(k)], 0)
    if isinstance(r, list):
        _, status, msg, rule, field = r
        raise from_status(status, msg.decode("utf-8", "replace"), rule.decode(), field.decode(), "GATHER")
    return r


def call(name, args, feature_level, check_indices, out, threads, force_oracle, **kwargs):
    """What dmlref.<operator>() runs (dmlref/_functions.py): the operator `name` on `args`."""
    op = OPERATORS.get(name)
    if op is None:
        from ._errors import Error
        raise Error(f"{name} is not in this build of the library (make OPS=...)",
                    status="DMLREF_ERROR_UNSUPPORTED_OPERATOR", operator=name)
    return op(*args, feature_level=feature_level, check_indices=check_indices, out=out, threads=threads,
              force_oracle=force_oracle, **kwargs)


_BY_TYPE = {op.type: op for op in OPERATORS.values()}


def plan(op_type, inputs, params, extras, out, feature_level, check_indices, threads, force_oracle):
    """The C fast path's planner (_core.fast, on a key it has not compiled yet): the call's
    (tensors per schema slot, parameter values, the outputs' shapes and dtype or None with
    out=, whether the outputs form a list), marshalled exactly as the Python path does, or
    None where the call cannot be cached (an input or out= that needs a copy, an output
    buffer padded past its elements).  Raises what the Python path raises (the fast path
    then leaves the call to it)."""
    op = _BY_TYPE[op_type]
    kwargs = dict(zip(op.kw, params))
    kwargs.update(zip(op.extra, extras or ()))
    before = _types.copies
    _, _, slot_tensors, values, buffers, results, writebacks = op.prepare(
        inputs, feature_level, check_indices, out, threads, force_oracle, kwargs)
    if _types.copies != before or writebacks:
        return None
    array_out = len(op.out_slots) == 1 and op.out_slots[0]["is_array"]
    if out is not None:
        return slot_tensors, values, None, None, array_out
    n_out = len(results)
    if any(r.dtype != results[0].dtype for r in results):
        return None  # outputs of different types (TOP_K's values and indices): the cache keeps one dtype
    for (buf, size), arr in zip(buffers[len(buffers) - n_out:], results):
        if buf is not arr or size != arr.nbytes or size == 0:
            return None
    return slot_tensors, values, tuple(tuple(r.shape) for r in results), results[0].dtype, array_out


MISS = object()  # what _core.fast returns for a call it leaves to the Python path
_core.setup_fast(MISS, np.ndarray, np.empty, dict(_types.LEVELS), plan)
fast = _core.fast


# {function name: function}, filled by dmlref/__init__.py from dmlref/_functions.py (the
# operators of this build).
FUNCTIONS = {}
