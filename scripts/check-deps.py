#!/usr/bin/env python3
"""The dependency graph between source files has no cycle, and the folders are layers.

Files: each object file of the library (src/), the case library (case/), the
case builders (builders/) and the command (cli/) is a node; A -> B when A uses a
function or variable that B defines (nm: A's undefined symbols, B's defined
globals).  Any strongly connected component of more than one file is a cycle,
directly (A -> B -> A) or around a longer loop, and fails the check.  Prints the
cycle's files and the symbols that make each of its edges.

Folders: each folder is a layer (LAYERS below, lowest first) and may use only
itself and the layers below it; the operator families under src/ops/ are one
layer whose folders may not use each other.  Checked twice: over the symbol
edges above, and over every `#include "..."` of the sources and headers of
src/, case/, builders/, cli/, fuzz/, tests/ and bench/ (resolved as the
compiler does: the including file's folder, then include/, src/ and the
root).  fuzz/, tests/ and bench/ sit on top: they may use every layer, and
nothing may use them.

    scripts/check-deps.py [BUILD]          (default: build; NM from the environment)

Ends with "deps: N passed, N failed" (one check per group of objects, then
the folder rule over symbols and over includes).
"""
import os
import subprocess
import sys


def symbols(nm, path):
    out = subprocess.run([nm, "-P", path], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind.isupper() and kind not in "UN":  # global definitions (T, D, B, R, C, W, V ...)
            defined.add(name)
    return defined, undefined


def sccs(nodes, edges):
    """Tarjan's algorithm, iterative."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


# The layers, lowest first: a folder may use its own layer and those below.
# "src/ops": the kernel list the families share (kernels.def); "src/ops/*": every
# family folder, one layer, none using another.
LAYERS = ["include", "src/core", "src/simd", "src/engine", "src/ops", "src/ops/*", "src/api", "case", "builders", "cli"]
TOP = ["fuzz", "tests", "bench", "examples", "python"]  # above everything, used by nothing
LIBRARY_DIRS = ["src/core", "src/simd", "src/engine", "src/ops", "src/api"]  # + the families (main)
INCLUDE_ROOTS = ["include", "src", "."]


def layer_of(folder):
    """(index, family) of a folder: family is the src/ops/ folder's name, else None."""
    parts = folder.split("/")
    if folder.startswith("src/ops/") and len(parts) >= 3:
        return LAYERS.index("src/ops/*"), parts[2]
    for i, name in enumerate(LAYERS):
        if folder == name:
            return i, None
    for name in TOP:
        if folder == name or folder.startswith(name + "/"):
            return len(LAYERS), None
    return None, None


def may_use(user, used):
    if user == used:
        return True
    lu, fu = layer_of(user)
    lv, fv = layer_of(used)
    if lu is None or lv is None:
        return False  # a folder the rule does not know: add it to LAYERS
    if lv == len(LAYERS):
        return False  # nothing uses the top (tests, fuzz, bench)
    if lu == lv:
        return fu == fv or fu is None  # two operator families: never
    return lv < lu


def sources(root):
    for top in ["src", "case", "builders", "cli", "fuzz", "tests", "bench"]:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            if "corpus" in dirpath.split(os.sep):
                continue
            for name in sorted(files):
                if name.endswith((".c", ".h", ".def")):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def includes(path):
    """The project files path includes (resolved as the compiler does), as relative paths."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("#") or "include" not in line:
                continue
            rest = line[1:].strip()
            if not rest.startswith("include"):
                continue
            rest = rest[len("include"):].strip()
            if not rest.startswith('"'):
                continue
            name = rest[1:rest.index('"', 1)]
            for base in [os.path.dirname(path)] + INCLUDE_ROOTS:
                cand = os.path.normpath(os.path.join(base, name))
                if os.path.isfile(cand):
                    out.append(cand)
                    break
    return out


def report(what, bad, passed, failed):
    if bad:
        for (a, b), lines in sorted(bad.items()):
            print("FAIL %s: %s uses %s, a layer above it or beside it" % (what, a, b))
            for line in lines[:6]:
                print("    " + line)
        return passed, failed + 1
    print("ok %s: every folder uses only its layer and those below" % what)
    return passed + 1, failed


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    nm = os.environ.get("NM", "nm")
    groups = [("library", LIBRARY_DIRS), ("case library", ["case"]), ("builders", ["builders"]), ("command", ["cli"])]
    passed = failed = 0
    # Every object of every group, so that edges between groups count too.
    if os.path.isdir(os.path.join(build, "src", "ops")):
        groups[0] = ("library", LIBRARY_DIRS + ["src/ops/" + d for d in sorted(os.listdir(os.path.join(build, "src", "ops")))])
    objs = {}
    for _, dirs in groups:
        for d in dirs:
            full = os.path.join(build, d)
            if os.path.isdir(full):
                for f in sorted(os.listdir(full)):
                    src = os.path.join(d, f[:-2] + ".c")
                    if f.endswith(".o") and os.path.isfile(src):  # not a stale object of a moved file
                        objs[src] = os.path.join(full, f)
    if not any(k.startswith("src/") for k in objs):
        print("deps: no objects under %s/src (make BUILD=%s first)" % (build, build))
        print("deps: 0 passed, 1 failed")
        return 1
    defs, undefs, owner = {}, {}, {}
    for src, path in objs.items():
        defs[src], undefs[src] = symbols(nm, path)
        for s in defs[src]:
            owner.setdefault(s, src)
    edges = {src: set() for src in objs}
    why = {}
    for src in objs:
        for s in undefs[src]:
            o = owner.get(s)
            if o and o != src:
                edges[src].add(o)
                why.setdefault((src, o), []).append(s)
    n_edges = sum(len(e) for e in edges.values())
    cycles = [c for c in sccs(sorted(objs), edges) if len(c) > 1]
    for name, dirs in groups:
        members = [s for s in objs if os.path.dirname(s) in dirs]
        if not members:
            continue
        mine = [c for c in cycles if any(os.path.dirname(s) in dirs for s in c)]
        if mine:
            failed += 1
            for c in mine:
                print("FAIL %s: cycle among %s" % (name, ", ".join(c)))
                for a in c:
                    for b in sorted(edges[a]):
                        if b in c:
                            print("    %s -> %s (%s)" % (a, b, ", ".join(sorted(why[(a, b)])[:4])))
        else:
            passed += 1
            print("ok %s: %d files, no cycle" % (name, len(members)))
    print("(%d files, %d edges)" % (len(objs), n_edges))
    # The folder rule over the symbol edges.
    bad = {}
    for a in objs:
        for b in edges[a]:
            la, lb = os.path.dirname(a), os.path.dirname(b)
            if not may_use(la, lb):
                bad.setdefault((la, lb), []).append("%s -> %s (%s)" % (a, b, ", ".join(sorted(why[(a, b)])[:3])))
    passed, failed = report("folders (symbols)", bad, passed, failed)
    # The folder rule over the includes.
    bad = {}
    n_inc = 0
    for f in sources("."):
        for target in includes(f):
            n_inc += 1
            la, lb = os.path.dirname(f), os.path.dirname(target)
            if not may_use(la, lb):
                bad.setdefault((la, lb), []).append("%s includes %s" % (f, target))
    passed, failed = report("folders (includes, %d)" % n_inc, bad, passed, failed)
    print("deps: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
