"""What the library accepts, learnt by asking it: support(operator, level) validates every
data type, index type and dimension count on tensors of all-1 sizes (dmlref_validate), so
that no drawer writes the support tables down again."""
import functools
import math

import numpy as np

from .. import _types
from .._ops import OPERATORS, _is_data_type_enum


INDEX_TYPES = ("UINT32", "INT32", "UINT64", "INT64")
MAX_ELEMENTS = 256

# Parameter values that make a tensor of all-1 sizes valid (the probe below).
_PROBE = {"Axis": 0, "IndexDimensions": 1, "InputDimensionCount": lambda n: n, "IndicesDimensionCount": 1,
          "Repeats": lambda n: [1] * n, "BlockSize": 1,
          "Offsets": lambda n: [0] * n, "Sizes": lambda n: [1] * n, "Strides": lambda n: [1] * n,
          "InputWindowOffsets": lambda n: [0] * n, "InputWindowSizes": lambda n: [1] * n,
          "InputWindowStrides": lambda n: [1] * n, "StartPadding": lambda n: [0] * n, "EndPadding": lambda n: [0] * n,
          "Scales": lambda n: [1.0] * n, "InputPixelOffsets": lambda n: [0.0] * n,
          "OutputPixelOffsets": lambda n: [0.0] * n, "Antialiased": False, "ScaleSize": (1, 1),
          "K": 1,
          "Axes": [0]}
# Slots whose probe tensor cannot be all 1s: (operator, slot) -> sizes for n dimensions
# (ONE_HOT's Values must hold two elements at least, rule OH5).
_PROBE_SIZES = {("ONE_HOT", "ValuesTensor"): lambda n: (1,) * (n - 1) + (2,),
                # NONZERO_COORDINATES' coordinates {1, ..., M, N}: 2 dimensions at least (rule NZ1)
                ("NONZERO_COORDINATES", "OutputCoordinatesTensor"): lambda n: (1,) * max(n, 2)}
# Operators whose parameters differ from _PROBE's: (operator, parameter) -> value for n
# dimensions (UNFOLD's five arrays hold one entry per spatial dimension, n - 2: rule UF3).
_PROBE_OP = {("UNFOLD", p): (lambda v: lambda n: [v] * max(n - 2, 1))(v)
             for p, v in (("WindowSizes", 1), ("Strides", 1), ("Dilations", 1), ("StartPadding", 0), ("EndPadding", 0))}
# Slots of a fixed data type whatever the operator's data type (ELEMENT_WISE_IF's condition, rule IF3).
_PROBE_TYPES = {("ELEMENT_WISE_IF", "ConditionTensor"): "UINT8",
                ("TOP_K", "OutputIndexTensor"): "UINT32", ("TOP_K1", "OutputIndexTensor"): "UINT32",
                ("NONZERO_COORDINATES", "OutputCountTensor"): "UINT32",
                ("NONZERO_COORDINATES", "OutputCoordinatesTensor"): "UINT32"}


@functools.lru_cache(maxsize=None)
def support(operator, feature_level=None):
    """{dimension count: (data types, index types)} the operator accepts at the level,
    learnt from the library: each combination validated on tensors of all-1 sizes."""
    op = OPERATORS[operator]
    result = {}
    for n in range(1, 9):
        ok_types, ok_index = [], []
        for dt in _types.DTYPES:
            for it in (INDEX_TYPES if any(s["is_index"] for s in op.schema["slots"]) else (None,)):
                tensors = {}
                for s in op.schema["slots"]:
                    name = it if s["is_index"] else _PROBE_TYPES.get((operator, s["name"]), dt)
                    shape = _PROBE_SIZES.get((operator, s["name"]), lambda n: (1,) * n)(n)
                    t = (_types.CODES[name], shape, None,
                         _types.round4(math.prod(shape) * np.dtype(_types.DTYPES[name]).itemsize))
                    tensors[s["name"]] = [t] if s["is_array"] else t
                params = {}
                for p in op.params:
                    v = _PROBE_OP.get((operator, p["name"]), _PROBE.get(p["name"], 0))
                    params[p["name"]] = None if p["kind"] == 8 else (v(n) if callable(v) else v)
                    if _is_data_type_enum(p):  # a union's data type: the tensors' (DIAGONAL_MATRIX1)
                        params[p["name"]] = _types.CODES[dt]
                if op.validate(tensors, params, feature_level) is None:
                    if dt not in ok_types:
                        ok_types.append(dt)
                    if it and it not in ok_index:
                        ok_index.append(it)
        if ok_types:
            result[n] = (tuple(ok_types), tuple(ok_index))
    return result
