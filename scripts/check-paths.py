#!/usr/bin/env python3
"""Every file path the docs and the sources name exists.

Scans README.md, docs/*.md, the READMEs and every source and script of the
project (src/, case/, builders/, cli/, tests/, fuzz/*.c|h|py|dict, scripts/,
bench/, python/, examples/, include/, the Makefile, .ci/run) for paths such as
`src/ops/gather/op_gather.c` or `docs/operators.md` and checks that each names a
file or folder of the tree, so that a moved file cannot leave its old name
behind.  A path with a wildcard or a placeholder (`*`, `<name>`, `N`, `X`) is
not checked; neither is one under build directories or /tmp.

    scripts/check-paths.py            (from the repository root)

Prints each stale name with where it appears, then "paths: N passed, N failed"
(one check per file that names paths).
"""
import os
import re
import sys

ROOTS = ("src", "case", "builders", "cli", "tests", "fuzz", "scripts", "bench", "python", "examples",
         "include", "docs")
PATH_RE = re.compile(r"(?<![\w./-])((?:%s)/[A-Za-z0-9_./-]*[A-Za-z0-9_])" % "|".join(ROOTS))
# Folders the docs' examples write (`dmlref gen ... --out tests/golden`), not the tree's.
# and what a build makes (the Python package's copy of the command, setup.py's folders).
EXAMPLE_OUTPUTS = ("tests/golden", "python/dmlref/_bin", "python/build", "python/dmlref.egg-info", "python/csrc",
                   "python/dist")
EXTS = (".c", ".h", ".def", ".md", ".py", ".sh", ".mjs", ".json", ".dict", ".in", ".txt")


def scanned_files():
    yield "README.md"
    yield "Makefile"
    yield ".ci/run"
    for top in ROOTS:
        for dirpath, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if d not in ("corpus", "__pycache__", "_bin", "build", "csrc") and not d.startswith(".")]
            for name in sorted(files):
                if name.endswith(EXTS) and not (dirpath.startswith("tests/cases") and name.endswith(".json")):
                    yield os.path.join(dirpath, name)


def main():
    passed = failed = 0
    for path in scanned_files():
        try:
            text = open(path, encoding="utf-8").read()
        except (OSError, UnicodeDecodeError):
            continue
        stale = {}
        for lineno, line in enumerate(text.splitlines(), 1):
            for m in PATH_RE.finditer(line):
                name = m.group(1).rstrip(".")
                after = line[m.end():m.end() + 1]
                if after in ("*", "<", "{", "$") or line[m.end():m.end() + 2] == "-*" or re.search(r"(^|[/_])(N|X|NAME|OP|new_op)([._/]|$)", name):
                    continue  # a pattern or a placeholder, not a file
                if name.endswith((".o", ".a")) or name.startswith(("fuzz/corpus/",) + EXAMPLE_OUTPUTS):
                    continue  # build products, corpus entries, folders an example writes
                # a path relative to a package folder (python/tests/...) counts too
                if not os.path.exists(name) and not os.path.exists(os.path.join(path.split("/")[0], name)):
                    stale.setdefault(name, lineno)
        if stale:
            failed += 1
            for name, lineno in sorted(stale.items(), key=lambda kv: kv[1]):
                print("FAIL %s:%d names %s, which does not exist" % (path, lineno, name))
        else:
            passed += 1
    print("paths: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
