"""dmlref/_functions.py: real functions, typed, documented from the schema and docs/operators.md."""
import doctest
import inspect
import os
import subprocess
import sys

import numpy as np
import pytest

import dmlref
from dmlref import _functions
from util import ROOT

GEN = os.path.join(ROOT, "python", "tools", "gen_functions.py")


def test_the_generated_file_is_current():
    """What gen_functions.py writes now (schema + docs/operators.md) is the committed file."""
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(dmlref.__file__)))
    r = subprocess.run([sys.executable, GEN, "--check"], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_every_operator_is_a_module_level_function():
    assert sorted(_functions.__all__) == sorted(n.lower() for n in dmlref.operators())
    for name, f in dmlref.operators().items():
        assert inspect.isfunction(f) and f.__module__ == "dmlref._functions"
        assert getattr(dmlref, f.__name__) is f and f.__name__ in dmlref.__all__
        assert f.__doc__.startswith(f"DML_OPERATOR_{name} ")


def test_a_docstring_has_parameters_shapes_rules_and_an_example():
    doc = dmlref.gather.__doc__
    for part in ("index_dimensions : UINT", "IndexDimensions", "Output shape", "G9", "Validation rules",
                 ">>> dmlref.gather("):
        assert part in doc, part
    assert "depth" in dmlref.one_hot.__doc__ and "sizes" in inspect.signature(dmlref.split).parameters


@pytest.mark.parametrize("name", sorted(n for n in _functions.__all__ if ">>>" in getattr(_functions, n).__doc__))
def test_docstring_examples_run(name):
    """The examples' outputs are what dmlref computes now."""
    f = getattr(_functions, name)
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    old = np.get_printoptions()
    try:
        np.set_printoptions(legacy=False)
        for t in finder.find(f, name, globs={}):
            runner.run(t)
    finally:
        np.set_printoptions(**old)
    assert runner.failures == 0 and runner.tries >= 2


def test_help_names_the_operator_parameters():
    text = inspect.getdoc(dmlref.gather)
    assert "axis : UINT" in text and "Axis." in text


def _mypy(path):
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(dmlref.__file__)))
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull,
                           path], env=env, capture_output=True, text=True)


def test_mypy_checks_calls(tmp_path):
    """mypy (Debian: python3-mypy) accepts the typed example and refuses a misspelt keyword."""
    pytest.importorskip("mypy")
    ok = _mypy(os.path.join(ROOT, "python", "tools", "typed_example.py"))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = tmp_path / "bad.py"
    bad.write_text("import numpy as np\nimport dmlref\n"
                   "dmlref.gather(np.zeros((2, 2), np.float32), np.zeros((1, 2), np.int32), axs=0, index_dimensions=1)\n")
    r = _mypy(str(bad))
    assert r.returncode == 1 and 'Unexpected keyword argument "axs" for "gather"' in r.stdout, r.stdout
