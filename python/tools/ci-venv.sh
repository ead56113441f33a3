#!/bin/sh
# The Python package as a new user installs it (README, "Python"), from a clean clone
# of this repository's committed HEAD, no prior `make`:
#   1. python3 -m venv; pip install ./python (compiles the library and the command);
#      the `dmlref` console script runs; the package's tests (pytest) pass against the
#      installed package (run outside the source tree), less two draws the `python` step
#      (make test-python) already makes against the build: per operator and data type,
#      and per feature level (test_differential.py; its draw at any level stays);
#   2. an sdist is built from the clone and a wheel from the sdist alone (the sdist
#      carries the C sources); the wheel holds the extension, the command, py.typed
#      and the typed functions (dmlref/_functions.py);
#   3. mypy (where installed: Debian python3-mypy) checks python/tools/typed_example.py
#      against the installed package.
# Offline (CI reaches no Python index): the venv sees the system's packages
# (--system-site-packages: numpy, pytest, hypothesis, setuptools, wheel from Debian) and
# pip neither builds in isolation nor looks up an index.  Ends with pytest's
# "python: N passed, N failed, N skipped" (the conftest), which .ci/run counts.
# Environment: PYTHON (default /usr/bin/python3), KEEP=1 keeps the work directory.
set -eu
PYTHON=${PYTHON:-/usr/bin/python3}
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
work=$(mktemp -d)
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
fail() { echo "python-venv: $*"; echo "python-venv: 0 passed, 1 failed"; exit 1; }

git clone -q "$repo" "$work/clone" || fail "git clone $repo failed"
"$PYTHON" -m venv --system-site-packages "$work/venv" || fail "python3 -m venv failed (Debian: python3-venv)"
pip="$work/venv/bin/pip"
PIP_FLAGS="--no-build-isolation --no-index --disable-pip-version-check -q"

echo "::: pip install ./python"
(cd "$work/clone" && "$pip" install $PIP_FLAGS ./python) || fail "pip install ./python failed"
v=$("$work/venv/bin/dmlref" --version 2>&1) || fail "the dmlref console script does not run: $v"
case "$v" in "dmlref "*) echo "$v";; *) fail "dmlref --version printed: $v";; esac
where=$(cd "$work" && "$work/venv/bin/python" -c 'import dmlref; print(dmlref.__file__)')
case "$where" in "$work/venv/"*) ;; *) fail "dmlref imported from $where, not from the venv";; esac

echo "::: sdist, then a wheel from the sdist alone"
(cd "$work/clone/python" && "$work/venv/bin/python" -m build --sdist --no-isolation --outdir "$work/dist" . >/dev/null 2>&1) \
    || (cd "$work/clone/python" && "$work/venv/bin/python" setup.py -q sdist -d "$work/dist" >/dev/null 2>&1) \
    || fail "no sdist"
sdist=$(ls "$work/dist"/dmlref-*.tar.gz) || fail "no sdist in $work/dist"
tar -tzf "$sdist" | grep -q '/csrc/src/api/api.c$' || fail "the sdist lacks the C sources (csrc/)"
mkdir "$work/sdist" && tar -xzf "$sdist" -C "$work/sdist"
(cd "$work/sdist"/dmlref-* && "$pip" wheel $PIP_FLAGS --no-deps -w "$work/wheel" .) || fail "pip wheel from the sdist failed"
whl=$(ls "$work/wheel"/dmlref-*.whl) || fail "no wheel"
for f in dmlref/_bin/dmlref dmlref/py.typed dmlref/_functions.py; do
    "$PYTHON" -c "import sys, zipfile; sys.exit('$f' not in zipfile.ZipFile('$whl').namelist())" \
        || fail "the wheel lacks $f"
done
"$PYTHON" -c "import sys, zipfile; sys.exit(not any(n.startswith('dmlref/_core') and n.endswith('.so') for n in zipfile.ZipFile('$whl').namelist()))" \
    || fail "the wheel lacks the extension"

if "$work/venv/bin/python" -c "import mypy" 2>/dev/null; then
    echo "::: mypy"
    (cd "$work" && "$work/venv/bin/python" -m mypy --strict --no-incremental "$work/clone/python/tools/typed_example.py") \
        || fail "mypy over python/tools/typed_example.py"
else
    echo "::: mypy: not installed (Debian: python3-mypy), not run"
fi

echo "::: pytest (the installed package)"
cd "$work"
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$work/clone/python/tests" \
    -k "not test_same_bytes_as_the_command and not test_drawn_cases_are_valid_at_their_level"
