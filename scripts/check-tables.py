#!/usr/bin/env python3
"""Every per-operator table lists every operator of src/core/operators.def.

The registry's list (src/core/operators.def, one DMLREF_OP(ENUM, name) line per
operator) is the one list of operators.  The tables that can follow it do
(DERIVED below: they expand or read operators.def, or read another checked
table); this script checks each hand-kept table against it (TABLES below) and
prints one line per table:

    ok TABLE (path)
    FAIL TABLE (path): missing OPERATOR[, ...]

An operator a table may leave out is listed in EXCEPTIONS with the reason:
never omitted silently.  An exception for an operator the table does list,
or for one the registry no longer has, fails too (a stale reason).

    scripts/check-tables.py [--def PATH] [--list]

--def reads another operators.def (tests/suites/tables.sh adds a fake
operator to a copy and expects every table to name it missing); --list
prints "checked TABLE (path)" and "derived TABLE (path): how" per table and
exits.  Exit status 1 when any table fails.
"""
import argparse
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def registry(path):
    """[(ENUM, name)] of an operators.def."""
    with open(path, encoding="utf-8") as f:
        return re.findall(r"^DMLREF_OP\(([A-Z0-9_]+), ([a-z0-9_]+)\)", f.read(), re.M)


def tokens(text):
    """The upper-case words of text (GATHER_ND is not GATHER)."""
    return set(re.findall(r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9_]*(?![A-Za-z0-9_])", text))


def block(text, start, path):
    """The text from the regex `start` to the first line that is only a closing } or };."""
    m = re.search(start, text, re.M)
    if not m:
        raise LookupError("%s: no %r" % (path, start))
    end = re.compile(r"^\};?$", re.M).search(text, m.end())
    return text[m.end():end.start() if end else len(text)]


# ---- the tables -------------------------------------------------------------------------
# Each: (name, path, have) where have(ops) returns the ENUMs of ops the table lists;
# ops is [(ENUM, name)].

def in_block(path, start):
    def have(ops):
        words = tokens(block(read(path), start, path))
        return {e for e, _ in ops if e in words}
    return have


def desc_structs(ops):
    text = read("include/dmlref.h")
    return {e for e, _ in ops if re.search(r"\bDMLREF_OPERATOR_%s = \d+" % e, text)
            and re.search(r"\}\s*DMLREF_%s_OPERATOR_DESC;" % e, text)}


def op_sources(ops):
    return {e for e, n in ops if glob.glob(os.path.join(ROOT, "src", "ops", "*", "op_%s.c" % n))}


def builders(ops):
    text = "".join(read(os.path.relpath(p, ROOT)) for p in glob.glob(os.path.join(ROOT, "builders", "*.c")))
    return {e for e, n in ops if re.search(r"\bconst builder %s_builder\b" % n, text)}


def doc_cases(ops):
    return {e for e, n in ops if glob.glob(os.path.join(ROOT, "tests", "cases", "%s_doc*.json" % n))}


def fuzz_op_types(ops):
    """fuzz/desc_decode.h op_types: the op byte's DMLREF_OPERATOR_<ENUM> entries (fixed indices)."""
    text = block(read("fuzz/desc_decode.h"), r"^static const uint32_t op_types\[N_OP_TYPES\] = \{",
                 "fuzz/desc_decode.h")
    words = set(re.findall(r"\bDMLREF_OPERATOR_([A-Z0-9_]+)\b", text))
    return {e for e, _ in ops if e in words}


def fuzz_dict(ops):
    words = set(re.findall(r'^op_\w+="\\"([A-Z0-9_]+)\\""', read("fuzz/fuzz_case.dict"), re.M))
    return {e for e, _ in ops if e in words}


def gen_pins(ops):
    """tests/suites/cli.sh: the pinned digests of `gen --count 5 --seed 1` (pin=$(pins ...) lines)."""
    names = set()
    for line in read("tests/suites/cli.sh").splitlines():
        if line.startswith("pin=$(pins"):
            names.update(re.findall(r"gen_([a-z0-9_]+?)_1_\$i", line))
            for m in re.findall(r"for op in ([a-z0-9_ ]+);", line):
                names.update(m.split())
    return {e for e, n in ops if n in names}


def markdown_rows(path, header):
    """The first cells of the rows of the markdown table whose header line starts with `header`."""
    def have(ops):
        lines = read(path).splitlines()
        i = next(k for k, l in enumerate(lines) if l.startswith(header))
        words = set()
        for l in lines[i + 2:]:
            if not l.startswith("|"):
                break
            words |= tokens(l.split("|")[1])
        return {e for e, _ in ops if e in words}
    return have


def operators_md(ops):
    """docs/operators.md: each operator's section states `DML_OPERATOR_<ENUM>` = value."""
    text = read("docs/operators.md")
    return {e for e, _ in ops if re.search(r"`DML_OPERATOR_%s` = (`\w+` = )?\d+" % e, text)}


def backend_paragraphs(ops):
    """docs/testing-your-backend.md: one bold paragraph per operator (**GATHER** (...))."""
    words = set()
    for l in read("docs/testing-your-backend.md").splitlines():
        m = re.match(r"^\*\*([^*]+)\*\*", l)
        if m:
            words |= tokens(m.group(1))
    return {e for e, _ in ops if e in words}


def onnx_names(ops):
    """{ENUM: ONNX names of its framework form}: the names(f, "Onnx", ...) calls in cli/framework.c's
    fw_<name> (and in the fw_ helpers it calls).  An operator with no name has no form."""
    text = read("cli/framework.c")
    bodies = dict(re.findall(r"^static int (fw_\w+)\([^)]*\) \{\n(.*?)^\}", text, re.M | re.S))

    def names(fn, seen):
        body = bodies.get(fn, "")
        out = set()
        for call in re.findall(r"names\(f, ([^;]*)\);", body):
            out |= set(re.findall(r'"([A-Z][A-Za-z]*)"', call))
        for callee in re.findall(r"\b(fw_\w+)\(", body):
            if callee != fn and callee not in seen:
                out |= names(callee, seen | {fn})
        return out
    return {e: names("fw_" + n, set()) for e, n in ops}


def backend(path):
    """A stand-in backend (examples/) dispatches on the ONNX name of the framework form."""
    def have(ops):
        quoted = set(re.findall(r"""["']([A-Z][A-Za-z]*)["']""", read(path)))
        forms = onnx_names(ops)
        return {e for e, _ in ops if forms[e] and forms[e] <= quoted}
    return have


def framework_forms(ops):
    """cli/framework.c: an fw_<name> for every operator (the table itself expands operators.def;
    a missing function stops the build, but the checker names it first)."""
    text = read("cli/framework.c")
    return {e for e, n in ops if re.search(r"^static int fw_%s\(" % n, text, re.M)}


TABLES = [
    ("header enum and desc", "include/dmlref.h", desc_structs),
    ("operator source", "src/ops/<family>/op_<name>.c", op_sources),
    ("case builder", "builders/<name>.c", builders),
    ("documented cases", "tests/cases/<name>_doc*.json", doc_cases),
    ("framework forms", "cli/framework.c", framework_forms),
    ("python drawers", "python/dmlref/strategies/_registry.py",
     in_block("python/dmlref/strategies/_registry.py", r"^DRAWERS = \{")),
    ("numpy PARAM_NAMES", "tests/numpy/diff.py", in_block("tests/numpy/diff.py", r"^PARAM_NAMES = \{")),
    ("numpy GENERATORS", "tests/numpy/diff.py", in_block("tests/numpy/diff.py", r"^GENERATORS = \{")),
    ("gen pins", "tests/suites/cli.sh", gen_pins),
    ("fuzz op_types", "fuzz/desc_decode.h", fuzz_op_types),
    ("fuzz dictionary", "fuzz/fuzz_case.dict", fuzz_dict),
    ("numpy backend", "examples/backend_numpy.py", backend("examples/backend_numpy.py")),
    ("js backend", "examples/backend_js_ops.mjs", backend("examples/backend_js_ops.mjs")),
    ("torch backend", "examples/backend_torch.py", backend("examples/backend_torch.py")),
    ("README operator table", "README.md", markdown_rows("README.md", "| Operator (DirectML value) |")),
    ("operators.md sections", "docs/operators.md", operators_md),
    ("backend guide table", "docs/testing-your-backend.md",
     markdown_rows("docs/testing-your-backend.md", "| DirectML | ONNX |")),
    ("backend guide paragraphs", "docs/testing-your-backend.md", backend_paragraphs),
]

# The tables that follow the list by construction (not checked here: how each follows it).
DERIVED = [
    ("registry", "src/api/registry.c, src/core/registry.h", "expand operators.def"),
    ("builder list", "builders/list.c", "expands operators.def"),
    ("framework form table", "cli/framework.c forms[]", "expands operators.def (fw_<name>: checked above)"),
    ("numpy OPS", "tests/numpy/diff.py", "reads operators.def"),
    ("harness operator set", "tests/suites/harness.sh", "reads operators.def"),
    ("fuzz corpus OP_INDEX", "fuzz/gen_desc_corpus.py", "reads fuzz/desc_decode.h's op_types (checked above)"),
    ("python functions", "python/dmlref/_functions.py", "generated from the library's public schema by python/tools/gen_functions.py (python/tests/test_functions.py: current)"),
    ("python output shapes", "python/dmlref/_ops.py", "dmlref_output_sizes() through dmlref._core"),
    ("python strategies.operators()", "python/dmlref/strategies/_registry.py", "OPERATORS (the schema)"),
    ("gen --operator ALL, bench, fuzz decoders", "cli/gen.c, cli/bench.c, fuzz/",
     "dmlref_operator_schema_at() and the builder list"),
]

# Tables checked only while they exist: table -> predicate.
WHILE_PRESENT = {}

# table -> {ENUM: why the table does not list it}
EXCEPTIONS = {
    "documented cases": {
        "ELEMENT_WISE_IDENTITY": "DirectML's page gives no example; tests/cases/element_wise_identity_scale_bias*.json"
                                 " are the hand-computed ones",
    },
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--def", dest="defs", default=os.path.join(ROOT, "src", "core", "operators.def"))
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    if args.list:
        for name, path, _ in TABLES:
            if WHILE_PRESENT.get(name, lambda: True)():
                print("checked %s (%s)" % (name, path))
        for name, path, how in DERIVED:
            print("derived %s (%s): %s" % (name, path, how))
        return 0
    ops = registry(args.defs)
    if not ops:
        print("FAIL %s: no DMLREF_OP line" % args.defs)
        return 1
    enums = [e for e, _ in ops]
    failed = 0
    for name, path, have in TABLES:
        if not WHILE_PRESENT.get(name, lambda: True)():
            print("ok %s (%s): the table is gone (its TABLES and EXCEPTIONS entries can go)" % (name, path))
            continue
        try:
            listed = have(ops)
        except (LookupError, OSError, StopIteration) as e:
            print("FAIL %s (%s): cannot read the table: %s" % (name, path, e or "no table header"))
            failed += 1
            continue
        allowed = EXCEPTIONS.get(name, {})
        missing = [e for e in enums if e not in listed and e not in allowed]
        stale = [e for e in allowed if e in listed or e not in enums]
        if missing or stale:
            failed += 1
            msg = "FAIL %s (%s):" % (name, path)
            if missing:
                msg += " missing " + ", ".join(missing)
            if stale:
                msg += (";" if missing else "") + " exception no longer needed for " + ", ".join(stale)
            print(msg)
        else:
            extra = [e for e in enums if e in allowed]
            print("ok %s (%s)%s" % (name, path, " (left out, with reasons: %s)" % ", ".join(extra) if extra else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
