import os

import numpy as np

import dmlref

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def bits(a):
    a = np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}")


def same_bytes(a, b):
    return np.asarray(a).tobytes() == np.asarray(b).tobytes()


def run_case(case):
    """case.run(), or a pytest skip when the command's case reader does not know the
    operator yet (it is being made generic over the schema: it knows the first five)."""
    import pytest
    try:
        return case.run()
    except dmlref.Error as e:
        if "unknown operator" in str(e):
            pytest.skip(f"the dmlref command does not read {case.operator} cases yet")
        raise


def from_bits(dtype, values):
    dtype = np.dtype(dtype)
    return np.array(values, dtype=f"u{dtype.itemsize}").view(dtype)


def plain_signature(f):
    """f's signature as text without its annotations (dmlref/_functions.py annotates them)."""
    import inspect
    sig = inspect.signature(f)
    return str(sig.replace(parameters=[p.replace(annotation=p.empty) for p in sig.parameters.values()],
                           return_annotation=sig.empty))
