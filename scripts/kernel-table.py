#!/usr/bin/env python3
"""src/simd/README.md's kernel table against src/ops/kernels.def.

    scripts/kernel-table.py            prints the table from kernels.def
    scripts/kernel-table.py --check    compares it with the README's (between the
                                       <!-- kernels: begin/end --> lines) and fails
                                       naming each kernel in one and not the other,
                                       or whose row differs

A width family (names ending .x1 .x2 .x4 .x8, one description) is one row,
`name.{x1,x2,x4,x8}`.  Ends with "kernel-table: N passed, N failed" in --check.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DEF = os.path.join(ROOT, "src", "ops", "kernels.def")
README = os.path.join(ROOT, "src", "simd", "README.md")
BEGIN, END = "<!-- kernels: begin (scripts/kernel-table.py) -->", "<!-- kernels: end -->"
LINE = re.compile(r'^DMLREF_KERNEL\((\w+), (\w+), "([^"]+)", (ISA|PLAIN), "((?:[^"\\]|\\.)*)"\)$')


def kernels():
    out = []
    with open(DEF, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if line.startswith("DMLREF_KERNEL"):
                m = LINE.match(line)
                if not m:
                    sys.exit("%s:%d: not a DMLREF_KERNEL(family, ID, \"name\", ISA|PLAIN, \"description\") line" % (DEF, n))
                out.append(m.groups())
    return out


def strip_width(desc):
    return re.sub(r" \([1248]-byte elements\)$", "", desc)


def rows():
    """[(cell name, suffix, description, [names])], width families folded."""
    ks, out, i = kernels(), [], 0
    while i < len(ks):
        fam, _, name, suffix, desc = ks[i]
        base = name[: -3] if re.search(r"\.x1$", name) else None
        group = ks[i:i + 4]
        if base and [g[2] for g in group] == [base + ".x%d" % w for w in (1, 2, 4, 8)] and \
                len({strip_width(g[4]) for g in group}) == 1 and len({g[3] for g in group}) == 1:
            out.append(("`%s.{x1,x2,x4,x8}`" % base, suffix, strip_width(desc), [g[2] for g in group]))
            i += 4
        else:
            out.append(("`%s`" % name, suffix, desc, [name]))
            i += 1
    return out


def table():
    lines = ["| kernel | suffix | what it does |", "|---|---|---|"]
    for cell, suffix, desc, _ in rows():
        lines.append("| %s | %s | %s |" % (cell, ".isa" if suffix == "ISA" else "none", desc.replace("|", "\\|")))
    return lines


def readme_rows():
    with open(README, encoding="utf-8") as f:
        text = f.read().splitlines()
    if BEGIN not in text or END not in text:
        return None
    return text[text.index(BEGIN) + 1:text.index(END)]


def names_of(line):
    m = re.match(r"^\| `([^`]+)` \|", line)
    if not m:
        return []
    cell = m.group(1)
    b = re.match(r"^(.*)\.\{([^}]*)\}$", cell)
    return [b.group(1) + "." + w for w in b.group(2).split(",")] if b else [cell]


def check():
    have = readme_rows()
    if have is None:
        print("FAIL %s: no %s ... %s section" % (README, BEGIN, END))
        print("kernel-table: 0 passed, 1 failed")
        return 1
    want = table()
    want_by, have_by = {}, {}
    for line in want:
        for n in names_of(line):
            want_by[n] = line
    for line in have:
        for n in names_of(line):
            have_by[n] = line
    failed = 0
    for n in want_by:
        if n not in have_by:
            print("FAIL kernel %s: in src/ops/kernels.def, not in src/simd/README.md's table" % n)
            failed += 1
        elif have_by[n] != want_by[n]:
            print("FAIL kernel %s: README row differs\n    have %s\n    want %s" % (n, have_by[n], want_by[n]))
            failed += 1
    for n in have_by:
        if n not in want_by:
            print("FAIL kernel %s: in src/simd/README.md's table, not in src/ops/kernels.def" % n)
            failed += 1
    if not failed and have != want:
        print("FAIL src/simd/README.md's table: the rows' order or header differ (scripts/kernel-table.py prints it)")
        failed += 1
    passed = 0 if failed else 1
    if passed:
        print("ok src/simd/README.md's kernel table: the %d kernels of src/ops/kernels.def" % len(want_by))
    print("kernel-table: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        sys.exit(check())
    if sys.argv[1:]:
        sys.exit(__doc__)
    print("\n".join(table()))
