#!/usr/bin/env python3
"""The dependency graph between source files has no cycle.

Each object file of the library (src/, src/simd/), the command (cli/) and the
case builders (builders/, when present) is a node; A -> B when A uses a function
or variable that B defines (nm: A's undefined symbols, B's defined globals).
Any strongly connected component of more than one file is a cycle, directly
(A -> B -> A) or around a longer loop, and fails the check.  Prints the
cycle's files and the symbols that make each of its edges.

    scripts/check-deps.py [BUILD]          (default: build; NM from the environment)

Ends with "deps: N passed, N failed" (one check per group of objects).
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


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    nm = os.environ.get("NM", "nm")
    groups = [("library", ["src", "src/simd"]), ("command", ["cli"]), ("builders", ["builders"])]
    passed = failed = 0
    # Every object of every group, so that edges between groups count too.
    objs = {}
    for _, dirs in groups:
        for d in dirs:
            full = os.path.join(build, d)
            if os.path.isdir(full):
                for f in sorted(os.listdir(full)):
                    if f.endswith(".o"):
                        objs[os.path.join(d, f[:-2] + ".c")] = os.path.join(full, f)
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
    print("deps: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
