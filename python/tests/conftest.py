"""pytest setup for dmlref's package tests: Hypothesis without a database (CI runs
leave nothing behind), and a last line `python: N passed, N failed, N skipped`
that .ci/run's step() counts (a run that fails, or collects no test, shows at
least one failure), after one `repro:` line per failed test that runs it alone (a
Hypothesis test also prints its `@reproduce_failure` blob: print_blob)."""
import os
import sys

from hypothesis import HealthCheck, settings

settings.register_profile("dmlref", database=None, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dmlref"))

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    stats = terminalreporter.stats
    for rep in stats.get("failed", []) + stats.get("error", []):
        nodeid = getattr(rep, "nodeid", "")
        if nodeid:
            terminalreporter.write_line("repro: cd python && PYTHONPATH=. %s -m pytest -p no:cacheprovider '%s'"
                                        % (sys.executable, nodeid.replace("'", "'\\''")))
    passed = len(stats.get("passed", []))
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    skipped = len(stats.get("skipped", []))
    if exitstatus != 0 and failed == 0:
        failed = 1  # e.g. exit 5: no test collected
    terminalreporter.write_line(f"python: {passed} passed, {failed} failed, {skipped} skipped")
