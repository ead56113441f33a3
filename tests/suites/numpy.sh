#!/bin/sh
# Differential test against numpy: ~300 seeded random cases of the five
# operators through $BUILD/numpy_driver, compared byte for byte (tests/numpy/diff.py).
# Environment: BUILD (default build), PYTHON (default /usr/bin/python3),
# NUMPY_SEED / NUMPY_CASES to explore other cases.
BUILD=${BUILD:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
driver="$BUILD/numpy_driver"
if [ ! -x "$driver" ]; then
    echo "numpy: $driver is missing (make BUILD=$BUILD $driver)"
    echo "numpy: 0 passed, 1 failed"
    exit 1
fi
if ! "$PYTHON" -c "import numpy" 2>/dev/null; then
    echo "numpy: $PYTHON has no numpy"
    echo "numpy: 0 passed, 1 failed"
    exit 1
fi
exec "$PYTHON" "$(dirname "$0")/../numpy/diff.py" --driver "$driver" \
    --seed "${NUMPY_SEED:-20240611}" --cases "${NUMPY_CASES:-300}"
