"""dmlref: DirectML's tensor data-movement operators on the CPU, bit-exact, from numpy.

    import numpy as np, dmlref
    dmlref.gather(np.arange(6, dtype=np.float32).reshape(3, 2),
                  np.array([[0, 2, -1]], np.int32), axis=0, index_dimensions=1)

One function per operator of the library's registry (dmlref.operators() lists
them), generated with its documentation from the library's schema and
docs/operators.md (dmlref/_functions.py); dmlref.Case reads, runs and writes the
command's case files; dmlref.assert_same_bits compares outputs bit for bit;
dmlref.strategies draws valid cases for Hypothesis; dmlref.testing runs an exported
golden suite under pytest.
"""
from typing import Any, Callable, Dict, Tuple

from . import _core
from ._errors import BindingError, CannotVerify, DuplicateIndex, Error, IndexOutOfRange, InvalidDescriptor, OutOfMemory
from ._ops import FUNCTIONS as _FUNCTIONS
from ._ops import OPERATORS as _OPERATORS
from ._ops import snake
from ._types import DTYPES as data_types
from ._compare import assert_same_bits, addressed_offsets
from ._case import Case
from . import _functions
from ._functions import *  # noqa: F401,F403 (one function per operator: _functions.__all__)

__version__: str = _core.version()
feature_levels: Tuple[str, ...] = tuple(name for name, _ in _core.feature_levels())

for _name, _op in _OPERATORS.items():
    _f = getattr(_functions, snake(_name), None)
    if _f is not None:
        _f.operator = _op  # type: ignore[attr-defined]
        _FUNCTIONS[snake(_name)] = _f


def operators() -> Dict[str, Callable[..., Any]]:
    """The operators this build implements, as {DirectML name: function}."""
    return {name: _FUNCTIONS[snake(name)] for name in _OPERATORS if snake(name) in _FUNCTIONS}


def __getattr__(name: str) -> Any:
    if name in ("strategies", "testing"):  # need Hypothesis / pytest: imported on first use
        import importlib
        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module 'dmlref' has no attribute {name!r}")


__all__ = ["Error", "InvalidDescriptor", "BindingError", "IndexOutOfRange", "DuplicateIndex", "OutOfMemory", "CannotVerify", "Case",
           "assert_same_bits", "addressed_offsets", "operators", "data_types", "feature_levels",
           "__version__"] + list(_functions.__all__)
