"""The registry: which drawer draws each operator (DRAWERS), and the public entry points
over it: operators(), levels(), cases(), any_case()."""
import functools

import numpy as np

from hypothesis import strategies as st

from .. import _types
from .._ops import OPERATORS
from ._drawers import (_padding, cast, depth_space, diagonal_matrix, diagonal_matrix1, element_wise_if,
                       fill_value_constant, fill_value_sequence, gather, gather_elements,
                       gather_nd, gather_nd1, join, one_hot, reverse_subsequences, same_shape, scatter,
                       scatter_nd, slice1, slice_, split, tile, unfold, slice_grad, max_unpooling, resample,
                       resample1, resample2, resample3, upsample_2d, top_k, top_k1,
                       nonzero_coordinates, argmin, argmax)
from ._probe import support


# One drawer per operator of src/core/operators.def (scripts/check-tables.py checks that none
# is missing): f(feature_level, data_type=, index_type=) -> a strategy of Drawn calls.
DRAWERS = {
    "GATHER": gather,
    "GATHER_ELEMENTS": gather_elements,
    "SCATTER_ND": scatter_nd,
    "SPLIT": split,
    "JOIN": join,
    "ELEMENT_WISE_IDENTITY": functools.partial(same_shape, "ELEMENT_WISE_IDENTITY"),
    "TILE": tile,
    "SCATTER": scatter,
    "DIAGONAL_MATRIX": diagonal_matrix,
    "DIAGONAL_MATRIX1": diagonal_matrix1,
    "DEPTH_TO_SPACE": depth_space("DEPTH_TO_SPACE"),
    "SPACE_TO_DEPTH": depth_space("SPACE_TO_DEPTH"),
    "DEPTH_TO_SPACE1": depth_space("DEPTH_TO_SPACE1"),
    "SPACE_TO_DEPTH1": depth_space("SPACE_TO_DEPTH1"),
    "PADDING": _padding("PADDING"),
    "PADDING1": _padding("PADDING1"),
    "SLICE": slice_,
    "SLICE1": slice1,
    "ONE_HOT": one_hot,
    "GATHER_ND": gather_nd,
    "GATHER_ND1": gather_nd1,
    "REVERSE_SUBSEQUENCES": reverse_subsequences,
    "UNFOLD": unfold,
    "CAST": cast,
    "SLICE_GRAD": slice_grad,
    "MAX_UNPOOLING": max_unpooling,
    "UPSAMPLE_2D": upsample_2d,
    "RESAMPLE": resample,
    "RESAMPLE1": resample1,
    "RESAMPLE2": resample2,
    "RESAMPLE3": resample3,
    "ELEMENT_WISE_IF": element_wise_if,
    "FILL_VALUE_CONSTANT": fill_value_constant,
    "FILL_VALUE_SEQUENCE": fill_value_sequence,
    "TOP_K": top_k,
    "TOP_K1": top_k1,
    "NONZERO_COORDINATES": nonzero_coordinates,
    "ARGMIN": argmin,
    "ARGMAX": argmax,
}


def operators():
    """The operators cases() can draw: those of this build."""
    return sorted(OPERATORS)


def levels(operator):
    """The feature levels at which the operator exists (oldest first)."""
    return [name for name in _types.LEVELS if support(operator, name)]


def type_name(t, what):
    """A data type as its DirectML name: None, a DirectML name, or anything np.dtype takes."""
    if t is None or (isinstance(t, str) and t in _types.DTYPES):
        return t
    try:
        return _types.data_type(np.dtype(t))
    except TypeError as e:
        raise ValueError(f"{what}={t!r}: not a DirectML data type; give a name ({', '.join(_types.DTYPES)}) "
                         f"or a numpy dtype (np.float16)") from e


def cases(operator, feature_level=None, *, data_type=None, index_type=None):
    """A strategy of Drawn calls of `operator` ("GATHER", case-insensitive), valid at
    `feature_level` ("4_1"; None: the newest; "any": any level that has it), of any
    data type and index type the level allows, or those named: a DirectML name
    ("FLOAT16", "INT64") or a numpy dtype (np.float16, "int64", np.dtype("<i8"))."""
    types = {"data_type": type_name(data_type, "data_type"), "index_type": type_name(index_type, "index_type")}
    operator = operator.upper()
    if operator not in OPERATORS:
        raise ValueError(f"unknown operator {operator!r}; this build has {', '.join(sorted(OPERATORS))}")
    if feature_level == "any":
        return st.sampled_from(levels(operator)).flatmap(lambda fl: cases(operator, fl, **types))
    drawer = DRAWERS.get(operator)
    if drawer is None:
        raise NotImplementedError(f"dmlref.strategies has no drawer for {operator}: add one to DRAWERS"
                                  " (dmlref/strategies/_registry.py)")
    return drawer(feature_level, **types)


def any_case(feature_level=None):
    """A case of any operator of this build."""
    return st.sampled_from(operators()).flatmap(lambda o: cases(o, feature_level))
