"""Builds dmlref's Python package: the extension dmlref._core and the command dmlref/_bin/dmlref.

The metadata is in pyproject.toml; this file only builds the C code.  No prior `make` is
needed: the library's sources (src/, include/) are compiled into the extension, with the
case reader (case/) and the command's framework form (cli/framework*.c: Case.framework()),
and the command (cli/, builders/, case/ over the same objects) into dmlref/_bin/dmlref,
which the `dmlref` console script runs.

Where the sources come from: the C code lives in the repository, outside python/.  When
setup.py runs inside the repository (../include/dmlref.h exists), it first copies
include/, src/, case/, cli/ and builders/ into python/csrc/ (ignored by git); an sdist
carries csrc/ (MANIFEST.in), so the package also builds from the sdist alone.  The build
always compiles csrc/.

Switches (environment):
  DMLREF_BUILD=dir   link dir/libdmlref.a and copy dir/dmlref instead of compiling them:
                     `make python` does this with its own build (make's OPENMP=, SIMD=, ...)
  DMLREF_OPENMP=0|1  OpenMP in the library (default: 1 when the compiler takes -fopenmp)
  DMLREF_SIMD=0|1    the SIMDe fast paths (default: 1 when <simde/x86/sse2.h> is found;
                     Debian: libsimde-dev)
Warnings are errors (-Wall -Wextra -Werror), as in the Makefile.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CSRC = "csrc"  # relative to HERE: setuptools wants relative source paths
SOURCE_DIRS = ("include", "src", "case", "cli", "builders")
PREBUILT = os.environ.get("DMLREF_BUILD")


def _sync_sources():
    """Copies the repository's C sources into csrc/ (only .c, .h, .def: what the build reads)."""
    if not os.path.exists(os.path.join(ROOT, "include", "dmlref.h")):
        return  # an sdist: csrc/ is already here
    dest = os.path.join(HERE, CSRC)
    for d in SOURCE_DIRS:
        target = os.path.join(dest, d)
        if os.path.isdir(target):
            shutil.rmtree(target)
        shutil.copytree(os.path.join(ROOT, d), target,
                        ignore=lambda _dir, names: [n for n in names if not os.path.isdir(os.path.join(_dir, n))
                                                    and not n.endswith((".c", ".h", ".def"))])


os.chdir(HERE)
try:  # setuptools before 70.1 takes bdist_wheel (what pip builds with) from the wheel package
    import wheel  # noqa: F401
except ImportError:
    print(f"setup.py: {sys.executable} has no `wheel` package: pip will fail with \"invalid command "
          "'bdist_wheel'\" (Debian: apt-get install python3-wheel and use /usr/bin/python3; or let pip "
          "build in isolation, without --no-build-isolation, where it can reach an index)", file=sys.stderr)
_sync_sources()
if not os.path.exists(os.path.join(CSRC, "include", "dmlref.h")):
    raise SystemExit(f"{os.path.join(HERE, CSRC)} holds no C sources: build from the repository or from an sdist")


def _version():
    with open(os.path.join(CSRC, "include", "dmlref.h")) as f:
        return re.search(r'#define DMLREF_VERSION_STRING "([^"]+)"', f.read()).group(1)


def _compiles(compiler, code, flags):
    """Whether `compiler` (the command line of the C compiler) compiles `code` with flags."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.c")
        with open(src, "w") as f:
            f.write(code)
        try:
            r = subprocess.run(compiler + flags + [src, "-o", os.path.join(tmp, "probe")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError:
            return False
        return r.returncode == 0


def _switch(name, probe):
    v = os.environ.get(name)
    if v in ("0", "1"):
        return v == "1"
    return probe()


WARN = ["-Wall", "-Wextra", "-Werror"]
# The command's files the extension also holds (with case/): the framework form.
FRAMEWORK = ("framework", "framework_fill", "framework_write")
# As the Makefile compiles the library (ALL_CFLAGS, LIB_CFLAGS): ELEMENT_WISE_IDENTITY's
# ScaleBias needs -ffp-contract=off (no fused multiply-add), harmless for the rest.
BASE = ["-std=c11", "-O2", "-D_POSIX_C_SOURCE=200809L", "-D_FILE_OFFSET_BITS=64", "-ffp-contract=off"]


class BuildExt(build_ext):
    """Compiles the library into dmlref._core and builds the command beside it."""

    def run(self):
        super().run()
        if self.inplace:  # setuptools builds into build_lib, then copies only the extension
            built = os.path.join(self.build_lib, "dmlref", "_bin", "dmlref")
            os.makedirs(os.path.join("dmlref", "_bin"), exist_ok=True)
            shutil.copyfile(built, os.path.join("dmlref", "_bin", "dmlref"))
            os.chmod(os.path.join("dmlref", "_bin", "dmlref"), 0o755)

    def build_extensions(self):
        compiler = self.compiler.compiler_so[:1]  # the C compiler's command
        omp = _switch("DMLREF_OPENMP", lambda: _compiles(compiler, "#include <omp.h>\nint main(void){return omp_get_max_threads() < 0;}\n",
                                                         ["-fopenmp"]))
        simd = _switch("DMLREF_SIMD", lambda: _compiles(compiler, "#include <simde/x86/sse2.h>\nint main(void){return 0;}\n", []))
        ext = self.extensions[0]
        if PREBUILT:
            build = os.path.abspath(PREBUILT)
            static = os.path.join(build, "libdmlref.a")
            if not os.path.exists(static):
                raise SystemExit(f"DMLREF_BUILD: {static} is missing (make BUILD={PREBUILT} lib)")
            with open(os.path.join(PREBUILT, "flags.stamp")) as f:
                omp = "OPENMP=1" in f.read().split()
            lib_objs = [static]
            # the framework form (_core.framework): the command's objects and case library
            case_objs = [os.path.join(build, "cli", f"{n}.o") for n in FRAMEWORK] + [
                os.path.join(build, "libdmlref_case.a")]
        else:
            lib_objs = self._compile_library(omp, simd)
            case_objs = self._compile([f"{CSRC}/cli/{n}.c" for n in FRAMEWORK] + sorted(glob.glob(f"{CSRC}/case/*.c")),
                                      self._flags(omp, simd) + ["-fvisibility=hidden"],
                                      [f"{CSRC}/include", f"{CSRC}/src", CSRC])
        ext.extra_objects = case_objs + lib_objs
        ext.extra_link_args = (["-fopenmp"] if omp else []) + ["-lm"]
        super().build_extensions()
        self._build_command(lib_objs, case_objs, omp, simd)

    def _flags(self, omp, simd):
        return BASE + WARN + (["-fopenmp"] if omp else []) + [f"-DDMLREF_SIMD={1 if simd else 0}"]

    def _compile(self, sources, flags, include_dirs):
        """Compiles sources in parallel (one compiler process per source), returns the objects."""
        def one(src):
            return self.compiler.compile([src], output_dir=self.build_temp, include_dirs=include_dirs,
                                         extra_postargs=flags)[0]
        jobs = self.parallel if isinstance(self.parallel, int) and self.parallel > 0 else (os.cpu_count() or 1)
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(one, sources))

    def _compile_library(self, omp, simd):
        lib = [p for d in ("core", "simd", "engine", "ops", "api") for p in sorted(glob.glob(f"{CSRC}/src/{d}/*.c"))]
        lib += sorted(glob.glob(f"{CSRC}/src/ops/*/*.c"))
        ops = sorted(re.sub(r"^op_|\.c$", "", os.path.basename(p)) for p in glob.glob(f"{CSRC}/src/ops/*/op_*.c"))
        gen = os.path.join(self.build_temp, "gen")
        os.makedirs(gen, exist_ok=True)
        text = "/* Generated by python/setup.py: every operator is built. */\n" + "".join(
            f"#define DMLREF_BUILT_{o} 1\n" for o in ops)
        path = os.path.join(gen, "ops_built.h")
        if not os.path.exists(path) or open(path).read() != text:
            with open(path, "w") as f:
                f.write(text)
        flags = self._flags(omp, simd) + ["-fvisibility=hidden"]
        return self._compile(lib, flags, [f"{CSRC}/include", f"{CSRC}/src", CSRC, gen])

    def _build_command(self, lib_objs, case_objs, omp, simd):
        """dmlref/_bin/dmlref beside the built extension (the console script runs it)."""
        bindir = os.path.join(os.path.dirname(self.get_ext_fullpath("dmlref._core")), "_bin")
        os.makedirs(bindir, exist_ok=True)
        target = os.path.join(bindir, "dmlref")
        if PREBUILT:
            shutil.copyfile(os.path.join(PREBUILT, "dmlref"), target)
            os.chmod(target, 0o755)
            return
        sources = [p for d in ("cli", "builders") for p in sorted(glob.glob(f"{CSRC}/{d}/*.c"))
                   if os.path.basename(p)[:-2] not in FRAMEWORK]
        objs = self._compile(sources, self._flags(omp, simd), [f"{CSRC}/include", f"{CSRC}/src", CSRC])
        self.compiler.link_executable(objs + case_objs + lib_objs, "dmlref", output_dir=bindir, libraries=["m", "pthread"],
                                      extra_postargs=["-fopenmp"] if omp else [])


setup(
    version=_version(),
    packages=["dmlref", "dmlref.strategies"],
    package_data={"dmlref": ["py.typed", "_bin/dmlref"]},
    exclude_package_data={"dmlref": ["_core.c"]},  # compiled into the extension; the sdist keeps it
    zip_safe=False,
    ext_modules=[
        Extension(
            "dmlref._core",
            sources=["dmlref/_core.c"],
            include_dirs=[f"{CSRC}/include", f"{CSRC}/src", CSRC],
            extra_compile_args=["-std=c11"] + WARN + ["-Wno-missing-field-initializers"],
            depends=[f"{CSRC}/include/dmlref.h"],
        )
    ],
    cmdclass={"build_ext": BuildExt},
)
