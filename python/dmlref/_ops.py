"""One function per operator, generated from the library's public schema.

A function takes the operator's input slots positionally (an array slot, such as
JOIN's InputTensors, as a list), its parameters as keyword arguments named in
snake case (IndexDimensions -> index_dimensions; counts such as InputCount come
from the lists), then feature_level, check_indices and out.  Its outputs'
sizes come from the operator's line in SHAPES below; an operator without one
either has its outputs shaped like its first input (element-wise operators) or
needs out=.  A new operator in the registry gets its function without any line
here unless its output shape needs one.
"""
import re

import numpy as np

from . import _core, _types
from ._errors import from_status


def snake(name):
    """IndexDimensions -> index_dimensions, ELEMENT_WISE_IDENTITY -> element_wise_identity."""
    if name.isupper():
        return name.lower()
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def gather_sizes(inp, idx, axis, k):
    """GATHER's output shape (rule G6): Input.Sizes[0..Axis) ++ Indices.Sizes[N-K..N) ++
    Input.Sizes[Axis+1..N), right-aligned to N dimensions."""
    n = len(inp)
    out = [1] * n
    for d in range(axis + 1, n):
        out[d] = inp[d]
    for t in range(k):
        if 0 <= axis + 1 - k + t < n and 0 <= n - k + t < len(idx):
            out[axis + 1 - k + t] = idx[n - k + t]
    for s in range(axis):
        od = axis - k - s
        if 0 <= od < n:
            out[od] = inp[axis - 1 - s]
    return tuple(out)


def _along(shape, axis, size):
    s = list(shape)
    if 0 <= axis < len(s):
        s[axis] = size
    return tuple(s)


def _padded(shape, start, end):
    """PADDING's output shape (rule PD3): In + StartPadding + EndPadding per dimension."""
    if len(start) != len(shape) or len(end) != len(shape):
        return tuple(shape)  # the library reports the mismatch (PD1)
    return tuple(int(s) + int(a) + int(b) for s, a, b in zip(shape, start, end))


def _join_sizes(shapes, axis):
    if not shapes:
        return ()
    return _along(shapes[0], axis, sum(s[axis] if 0 <= axis < len(s) else 0 for s in shapes))


def depth_to_space_sizes(s, b):
    """DEPTH_TO_SPACE(1)'s output (rule DS4): {N, C / (B*B), H*B, W*B} (the input's sizes
    when they are not 4-D or B is 0: the library then names the broken rule)."""
    if len(s) != 4 or b < 1:
        return tuple(s)
    return (s[0], s[1] // (b * b), s[2] * b, s[3] * b)


def space_to_depth_sizes(s, b):
    """SPACE_TO_DEPTH(1)'s output (rule DS5): {N, C*B*B, H / B, W / B}."""
    if len(s) != 4 or b < 1:
        return tuple(s)
    return (s[0], s[1] * b * b, s[2] // b, s[3] // b)


# Output sizes per operator: f(sizes of the input slots by name, parameters by
# name, extra keyword arguments) -> [sizes of each output slot] (a list of sizes
# for an array slot).  One line per operator whose outputs are not shaped like
# its first input.
SHAPES = {
    "GATHER": lambda t, p, x: [gather_sizes(t["InputTensor"], t["IndicesTensor"], p["Axis"], p["IndexDimensions"])],
    "GATHER_ELEMENTS": lambda t, p, x: [t["IndicesTensor"]],
    "SPLIT": lambda t, p, x: [[_along(t["InputTensor"], p["Axis"], s) for s in x["sizes"]]],
    "JOIN": lambda t, p, x: [_join_sizes(t["InputTensors"], p["Axis"])],
    "TILE": lambda t, p, x: [tuple(s * r for s, r in zip(t["InputTensor"], p["Repeats"] or ()))],
    "DEPTH_TO_SPACE": lambda t, p, x: [depth_to_space_sizes(t["InputTensor"], p["BlockSize"])],
    "DEPTH_TO_SPACE1": lambda t, p, x: [depth_to_space_sizes(t["InputTensor"], p["BlockSize"])],
    "SPACE_TO_DEPTH": lambda t, p, x: [space_to_depth_sizes(t["InputTensor"], p["BlockSize"])],
    "SPACE_TO_DEPTH1": lambda t, p, x: [space_to_depth_sizes(t["InputTensor"], p["BlockSize"])],
    "PADDING": lambda t, p, x: [_padded(t["InputTensor"], p["StartPadding"], p["EndPadding"])],
    "PADDING1": lambda t, p, x: [_padded(t["InputTensor"], p["StartPadding"], p["EndPadding"])],
}
# Extra keyword arguments an operator's shape line needs (required unless out= is given).
EXTRA = {"SPLIT": ("sizes",)}
# Parameters with a default: f(sizes of the input slots by name) -> value.
DEFAULTS = {
    "SCATTER_ND": {
        "InputDimensionCount": lambda t: len(t["InputTensor"]),
        "IndicesDimensionCount": lambda t: len(t["IndicesTensor"]),
    },
}
# Parameter defaults any operator gets: optional STRUCT parameters default to None.


_INTEGER_KINDS = (1, 2, 6)  # DMLREF_PARAM_UINT, INT, ENUM
_ENUM, _UNION = 6, 7         # DMLREF_PARAM_ENUM, DMLREF_PARAM_SCALAR_UNION


def enum_value(p, v):
    """An ENUM parameter's value: an integer, the enumerator's name ("REFLECTION"), or for a
    data-type field (PaddingValueDataType) a name or a numpy dtype."""
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return int(v)
    names = p["enum_names"]
    if isinstance(v, str) and v in names:
        return names.index(v)
    if "FLOAT32" in names and not isinstance(v, str):
        try:
            return _types.CODES[_types.data_type(v)]
        except TypeError:
            pass
    known = ", ".join(n for n in names if n)
    raise TypeError(f"{p['name']} must be an integer or one of {known}, got {v!r}")


def union_bytes(p, v, by_name):
    """A SCALAR_UNION parameter's 8 bytes: given as such, or a number stored in the type its
    ...DataType field names (set before it), from byte 0 in host order."""
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v)
    code = by_name.get(p["name"] + "DataType")
    name = next((n for n, c in _types.CODES.items() if c == code), None)
    if name not in _types.DTYPES:
        raise TypeError(f"{p['name']}: give {p['name']}DataType first, or the value as 8 bytes")
    raw = np.array([v]).astype(_types.DTYPES[name]).tobytes()
    return raw + bytes(8 - len(raw))


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
        self.extra = EXTRA.get(self.name, ())
        self.shape_rule = SHAPES.get(self.name)

    def signature(self):
        ins = ", ".join(snake(s["name"].replace("Tensors", "s").replace("Tensor", "")) for s in self.in_slots)
        kws = []
        for k, p in self.kw.items():
            kws.append(k + ("=None" if p["is_optional"] or p["name"] in self.defaults else ""))
        kws += list(self.extra) + ["feature_level=None", "check_indices=False", "out=None", "threads=0",
                                   "force_oracle=False"]
        return f"{snake(self.name)}({ins}, *, {', '.join(kws)})"

    def param_values(self, kwargs, sizes):
        values, by_name = [], {}
        for k, p in self.kw.items():
            v = kwargs.get(k)
            if v is None:
                if p["name"] in self.defaults:
                    v = self.defaults[p["name"]](sizes)
                elif not p["is_optional"]:
                    raise TypeError(f"{snake(self.name)}() missing keyword argument {k!r}")
            if p["kind"] == _ENUM and v is not None:
                v = enum_value(p, v)
            if p["kind"] == _UNION and v is not None:
                v = union_bytes(p, v, by_name)
            if p["kind"] in _INTEGER_KINDS:
                if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
                    raise TypeError(f"{snake(self.name)}(): {k} must be an integer, got {type(v).__name__}")
                v = int(v)
            values.append(v)
            by_name[p["name"]] = v
        return values, by_name

    def __call__(self, *args, feature_level=None, check_indices=False, out=None, threads=0,
                 force_oracle=False, **kwargs):
        fname = snake(self.name)
        if len(args) != len(self.in_slots):
            raise TypeError(f"{fname}() takes {len(self.in_slots)} positional argument(s): {self.signature()}")
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
        values, by_name = self.param_values(kwargs, sizes)

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
            for k in self.extra:
                if kwargs.get(k) is None:
                    raise TypeError(f"{fname}() missing keyword argument {k!r} (or give out=)")
            if self.shape_rule is not None:
                shapes = self.shape_rule(sizes, by_name, kwargs)
            else:
                first = self.in_slots[0]["name"]
                shapes = [sizes[first][0] if self.in_slots[0]["is_array"] else sizes[first]] * len(self.out_slots)
            first = args[0][0] if self.in_slots[0]["is_array"] and len(args[0]) else args[0]
            dtype = first.dtype if type(first) is np.ndarray else np.asarray(first).dtype
            dtype = dtype.newbyteorder("=") if not dtype.isnative else dtype
            for slot, shape in zip(self.out_slots, shapes):
                group = shape if slot["is_array"] else [shape]
                ts = []
                for s in group:
                    t, b, arr = _types.output_tensor(dtype, s)
                    ts.append(t)
                    buffers.append(b)
                    results.append(arr)
                tensors[slot["name"]] = ts if slot["is_array"] else ts[0]

        flags = (_core.OPTION_CHECK_INDICES if check_indices else 0) | (_core.OPTION_FORCE_ORACLE if force_oracle else 0)
        err = _core.run(self.type, fl, flags, threads, [tensors[s["name"]] for s in self.schema["slots"]],
                        values, buffers, False)
        if err is not None:
            _, status, msg, rule, field = err
            raise from_status(status, msg.decode("utf-8", "replace"), rule.decode(), field.decode(), self.name)
        for o, tmp in writebacks:
            o[...] = tmp
        if len(self.out_slots) == 1 and self.out_slots[0]["is_array"]:
            return results
        return results[0] if len(results) == 1 else results

    def validate(self, tensors, params, feature_level=None):
        """dmlref_validate on tensor tuples (code, sizes, strides, total) by slot name and
        parameter values by schema name; None or the exception it would raise."""
        values = [params.get(p["name"]) for p in self.params]
        err = _core.run(self.type, _types.level(feature_level), 0, 0,
                        [tensors.get(s["name"]) for s in self.schema["slots"]], values, [], True)
        if err is None:
            return None
        _, status, msg, rule, field = err
        return from_status(status, msg.decode("utf-8", "replace"), rule.decode(), field.decode(), self.name)


OPERATORS = {s["name"]: Operator(s) for s in _core.schemas()}


def _signature(op):
    import inspect
    P = inspect.Parameter
    ps = [P(snake(s["name"].replace("Tensors", "s").replace("Tensor", "")), P.POSITIONAL_ONLY) for s in op.in_slots]
    for k, p in op.kw.items():
        optional = p["is_optional"] or p["name"] in op.defaults
        ps.append(P(k, P.KEYWORD_ONLY, default=None if optional else P.empty))
    ps += [P(k, P.KEYWORD_ONLY, default=None) for k in op.extra]
    ps += [P("feature_level", P.KEYWORD_ONLY, default=None), P("check_indices", P.KEYWORD_ONLY, default=False),
           P("out", P.KEYWORD_ONLY, default=None), P("threads", P.KEYWORD_ONLY, default=0),
           P("force_oracle", P.KEYWORD_ONLY, default=False)]
    return inspect.Signature(ps)


def make_function(op):
    def f(*args, **kwargs):
        return op(*args, **kwargs)

    f.__signature__ = _signature(op)

    f.__name__ = f.__qualname__ = snake(op.name)
    f.__doc__ = (f"DML_OPERATOR_{op.name} on numpy arrays: {op.signature()}\n\n"
                 "Inputs are passed without a copy when their strides are non-negative multiples of "
                 "the item size (zero strides broadcast); out= may be a strided view (only the "
                 "addressed elements are written).  threads: dmlref_options.threads (0: the "
                 "library's default, 1: serial); force_oracle: run the scalar oracle, never a fast "
                 "path.  Raises dmlref.InvalidDescriptor with the library's message for an invalid "
                 "call.")
    f.operator = op
    return f


FUNCTIONS = {snake(name): make_function(op) for name, op in OPERATORS.items()}
