"""dmlref's Python package: the C extension dmlref._core links the static
library build/libdmlref.a (DMLREF_BUILD names another build directory), so no
LD_LIBRARY_PATH is needed.  `make python` builds it in place; `make
python-install` installs it (README, "Python")."""
import os
import re

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.path.abspath(os.environ.get("DMLREF_BUILD", os.path.join(ROOT, "build")))
STATIC = os.path.join(BUILD, "libdmlref.a")
if not os.path.exists(STATIC):
    raise SystemExit(f"{STATIC} is missing: run `make python` in {ROOT} first")


def _version():
    with open(os.path.join(ROOT, "include", "dmlref.h")) as f:
        return re.search(r'#define DMLREF_VERSION_STRING "([^"]+)"', f.read()).group(1)


def _uses_openmp():
    try:
        with open(os.path.join(BUILD, "flags.stamp")) as f:
            return "OPENMP=1" in f.read().split()
    except OSError:
        return True


link = ["-fopenmp"] if _uses_openmp() else []
setup(
    name="dmlref",
    version=_version(),
    description="DirectML data-movement operators, bit-exact, on the CPU (numpy in, numpy out)",
    packages=["dmlref", "dmlref.strategies"],
    package_data={"dmlref": ["_bin/dmlref"]},
    ext_modules=[
        Extension(
            "dmlref._core",
            sources=["dmlref/_core.c"],
            include_dirs=[os.path.join(ROOT, "include")],
            extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-missing-field-initializers"],
            extra_objects=[STATIC],
            depends=[STATIC, os.path.join(ROOT, "include", "dmlref.h")],
            extra_link_args=link,
        )
    ],
    zip_safe=False,
)
