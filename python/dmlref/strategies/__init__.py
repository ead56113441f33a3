"""Hypothesis strategies that draw valid dmlref calls, the space `dmlref gen` covers.
    from hypothesis import given
    import dmlref
    from dmlref import strategies

    @given(strategies.cases("GATHER_ELEMENTS"))
    def test_my_backend(case):
        expected = case.call()                        # dmlref's output (numpy)
        actual = my_backend(*case.args, **case.kwargs)
        dmlref.assert_same_bits(actual, expected)

A drawn case (Drawn) holds the inputs as strided numpy views over buffers of
random bits (NaN payloads, signalling NaNs, subnormals, -0.0 included), with
gaps between elements, permuted dimensions and zero (broadcast) strides, 1 to 8
dimensions, every data type and index type the operator has at the feature
level, negative indices where the index type is signed, and every parameter.
Indices are never out of range and SCATTER / SCATTER_ND targets never repeat (DirectML
leaves both open), except ONE_HOT's, which may pass the depth (up to depth + 1): its page
documents that case (the whole sequence is the off value).  The supported data types and dimension counts of a feature
level are asked of the library (dmlref_validate), not written here.

The package's modules: _probe (what the library accepts: support()), _draw (the drawing
primitives and Drawn), _drawers (one drawer per operator) and _registry (DRAWERS and the
entry points below).  Import from dmlref.strategies itself.
"""
from ._draw import Drawn, layouts, shapes
from ._drawers import (depth_space, diagonal_matrix, diagonal_matrix1, gather, gather_elements, gather_nd,
                       gather_nd1, join, one_hot, reverse_subsequences, same_shape, scatter, scatter_nd, slice1,
                       slice_, split, tile)
from ._probe import INDEX_TYPES, MAX_ELEMENTS, support
from ._registry import DRAWERS, any_case, cases, levels, operators

__all__ = ["Drawn", "DRAWERS", "INDEX_TYPES", "MAX_ELEMENTS", "any_case", "cases", "depth_space",
           "diagonal_matrix", "diagonal_matrix1", "gather", "gather_elements", "gather_nd", "gather_nd1",
           "join", "layouts", "levels", "one_hot", "operators", "reverse_subsequences", "same_shape",
           "scatter", "scatter_nd", "shapes", "slice1", "slice_", "split", "support", "tile"]
