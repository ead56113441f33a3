"""Out of memory is its own outcome (issue 23, item 6): the library's DMLREF_ERROR_OUT_OF_MEMORY
and the command's exit 8 are MemoryError (dmlref.OutOfMemory), never InvalidDescriptor, which
would be a verdict on a descriptor nobody judged."""
import os
import stat
import subprocess

import pytest

import dmlref
from dmlref import _case, _errors
from util import ROOT

GATHER = os.path.join(ROOT, "tests", "cases", "gather_doc1.json")
SHIM = os.path.join(os.environ.get("DMLREF_BUILD", os.path.join(ROOT, "build")), "failalloc.so")


def test_library_status_is_memory_error():
    e = _errors.from_status("DMLREF_ERROR_OUT_OF_MEMORY", "GATHER: out of memory", operator="GATHER")
    assert isinstance(e, dmlref.OutOfMemory) and isinstance(e, MemoryError) and isinstance(e, dmlref.Error)
    assert not isinstance(e, (dmlref.InvalidDescriptor, ValueError))
    assert e.status == "DMLREF_ERROR_OUT_OF_MEMORY" and e.operator == "GATHER"


def test_validation_statuses_stay_invalid_descriptor():
    e = _errors.from_status("DMLREF_ERROR_PARAMETER", "GATHER: Axis (1) ...", rule="G3", field="Axis")
    assert isinstance(e, dmlref.InvalidDescriptor) and not isinstance(e, MemoryError)


def _command(tmp_path, body):
    script = tmp_path / "dmlref"
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


def test_command_exit_8_is_memory_error(tmp_path, monkeypatch):
    """A command that ran out of memory (exit 8, its message on stderr) is no verdict."""
    cmd = _command(tmp_path, 'echo "dmlref: $2: out of memory reading the case file" >&2\nexit 8\n')
    monkeypatch.setenv("DMLREF_COMMAND", cmd)
    case = dmlref.Case.load(GATHER)
    with pytest.raises(MemoryError) as info:
        case.run()
    assert isinstance(info.value, dmlref.OutOfMemory)
    assert not isinstance(info.value, dmlref.InvalidDescriptor)
    assert "out of memory" in str(info.value)


def _shim_loads(tmp_path):
    """The shim counts the command's allocations (not where the command is static, emulated or
    built with a sanitizer: tests/suites/oom.sh skips those too)."""
    if not os.path.exists(SHIM):
        return False
    count = tmp_path / "probe"
    env = dict(os.environ, LD_PRELOAD=SHIM, DMLREF_ALLOC_COUNT=str(count))
    subprocess.run([_case.command(), "--version"], env=env, capture_output=True, check=False)
    return count.exists()


def test_real_command_out_of_memory_is_memory_error(tmp_path, monkeypatch):
    """The real command with its first allocation failing (tests/oom/failalloc.c): exit 8."""
    if not _shim_loads(tmp_path):
        pytest.skip(f"{SHIM} is not built or does not load here (make test builds it)")
    real = _case.command()
    cmd = _command(tmp_path, f'DMLREF_FAIL_ALLOC=1 LD_PRELOAD="{SHIM}" exec "{real}" "$@"\n')
    p = subprocess.run([cmd, "run", GATHER], capture_output=True, text=True)
    assert p.returncode == 8 and "out of memory" in p.stderr, (p.returncode, p.stderr)
    monkeypatch.setenv("DMLREF_COMMAND", cmd)
    with pytest.raises(MemoryError):
        dmlref.Case.load(GATHER).run()
