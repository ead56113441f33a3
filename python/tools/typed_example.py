"""A small typed user of the package: `mypy --strict python/tools/typed_example.py` passes
(python/tools/ci-venv.sh runs it against the installed package).  The functions are real and
annotated (dmlref/_functions.py, py.typed), so mypy checks the calls: a misspelt keyword
or a missing parameter is an error."""
from typing import Any, List

import numpy as np
from numpy.typing import NDArray

import dmlref


def gather_rows(x: NDArray[Any], rows: List[int]) -> NDArray[Any]:
    idx = np.array([rows], np.int32)
    return dmlref.gather(x, idx, axis=0, index_dimensions=1)


def halves(x: NDArray[Any]) -> List[NDArray[Any]]:
    n = x.shape[0] // 2
    return dmlref.split(x, axis=0, sizes=[n, x.shape[0] - n])


def main() -> None:
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    y: NDArray[Any] = gather_rows(x, [3, 0])
    parts = halves(x)
    joined = dmlref.join(parts, axis=0, feature_level="4_1")
    version: str = dmlref.__version__
    assert y.tolist() == [[6.0, 7.0], [0.0, 1.0]] and joined.tolist() == x.tolist() and version


if __name__ == "__main__":
    main()
