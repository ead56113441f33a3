#!/usr/bin/env python3
"""A static worst-case stack bound for dmlref_compile and dmlref_execute, per operator.

    scripts/stack-usage.py BUILD [--extern NAME=BYTES ...]

BUILD is a build directory whose library objects were compiled with
`-fstack-usage -fcallgraph-info=su` (scripts/stack-usage.sh makes one for the
Cortex-M4F).  Reads every BUILD/src/**/*.ci (GCC's call graph: one node per
function emitted, with its frame in bytes, one edge per direct call, and an edge
to "__indirect_call" per call through a pointer) and resolves the indirect calls
from the objects' relocations:

  * a function is address-taken where an object refers to it other than by a
    call or a jump (R_ARM_ABS32, MOVW/MOVT, R_386_32, R_X86_64_*: any relocation
    type that is not a call/jump/PC-relative branch);
  * the address-taken functions are sorted by who takes them: the allocator's
    callbacks (src/core, src/api), sort comparators (taken where sort_items is
    called), run_ranges' range functions (taken where run_ranges is called),
    pool_task (run_ranges: the caller's thread pool calls it), a family's own
    movers (in a table, or not named as a hook), and the hooks (named
    *_compile, *_plan, *_plan_hook, *_output_sizes, *_oracle, *_kernel, *_check,
    *_free: the class's fields and what compile and plan set in the operator);
    a call site takes the kind its function calls (run_ranges: range functions
    and pool_task; mem_alloc/mem_free: allocator callbacks; counting_alloc:
    the counted allocator, the caller's or the default one, never itself;
    sift_down: comparators; compile_impl: compile, plan, free hooks;
    dmlref_execute: oracle, kernel, check hooks; dmlref_output_sizes:
    output_sizes hooks; dmlref_release: free hooks; a family's function: its
    own file's movers).  An indirect call elsewhere fails the script;
  * for operator X (its class in src/ops/<family>/op_<x>.c), an indirect call may
    reach the functions whose address is taken in the shared layers (src/core,
    src/simd, src/engine, src/api, src/ops/kernels.c), in op_<x>.c (its class:
    the compile, plan, oracle, output_sizes and check hooks) and in its family's
    files that are not an operator's class (the kernels the plan hooks set, the
    range functions given to run_ranges).  Another operator's class file is
    never reached: the class is the operator's.

So a family's bound covers every kernel of its files (GATHER's includes
GATHER_ND's tuples kernel): an upper bound, not the exact worst case.

The bound of a root is the largest sum of frames along a call path.  Functions
with no frame in the graph (libc's memcpy, libgcc's __aeabi_uldivmod, ...) are
counted with --extern NAME=BYTES when given, else 0, and listed.  A cycle in the
graph (recursion) or a frame GCC calls dynamic makes the bound "unbounded" and
is reported.  The caller's allocator and thread pool callbacks are calls out of
the library (the caller's code): not counted, and listed as such.

Prints a Markdown table (operator | dmlref_compile | dmlref_execute) and the
notes; exits 1 when a bound cannot be computed.
"""
import glob
import os
import re
import subprocess
import sys

NODE = re.compile(r'^node: \{ title: "([^"]+)" label: "([^"]*)"')
EDGE = re.compile(r'^edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
FRAME = re.compile(r'\\n(\d+) bytes \(([a-z,]+)\)')
CALL_RELOCS = re.compile(r'(CALL|JUMP|PC|PLT|GOTPC|THM_JUMP|PREL31|V4BX|TLSCALL|NONE)')
# The hooks by name (the convention of src/core/registry.h's classes and the planners):
# compile_impl calls a class's compile and plan hooks (and a plan's free on failure),
# dmlref_execute the check and the kernel (the oracle or what the plan set),
# dmlref_output_sizes the output_sizes hook, dmlref_release the plan's free,
# dmlref_defined_elements the defined hook.
HOOK_COMPILE = re.compile(r"_(compile|plan|plan_hook|free)$")
HOOK_EXECUTE = re.compile(r"_(oracle|kernel|check)$")
HOOK_SHAPE = re.compile(r"_output_sizes(_hook)?$")
HOOK_FREE = re.compile(r"_free$")
HOOK_DEFINED = re.compile(r"_defined$")
HOOK_ANY = re.compile(r"_(compile|plan|plan_hook|free|oracle|kernel|check|output_sizes|output_sizes_hook|defined)$")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SHARED = ("src/core/", "src/simd/", "src/engine/", "src/api/", "src/ops/kernels.c")


def objdump():
    for tool in (os.environ.get("OBJDUMP"), "arm-none-eabi-objdump", "objdump"):
        if tool:
            try:
                subprocess.run([tool, "--version"], capture_output=True, check=True)
                return tool
            except (OSError, subprocess.CalledProcessError):
                pass
    sys.exit("stack-usage: no objdump")


REG_LIST = re.compile(r"\{([^}]*)\}")


def reg_count(text):
    n = 0
    for part in REG_LIST.search(text).group(1).split(","):
        part = part.strip()
        m = re.match(r"([a-z]+)(\d+)-[a-z]+(\d+)$", part)
        n += int(m.group(3)) - int(m.group(2)) + 1 if m else 1
    return n


def archive_frames(od, archives):
    """Frames of the functions of the given archives (libgcc, libc) from their code:
    every push/stmdb/vpush, sub sp and pre-indexed store to sp counted (a bound: a
    function pushing in two branches is counted twice), and their calls and tail
    jumps (relocations R_ARM_THM_CALL / R_ARM_THM_JUMP24) to other functions."""
    frames, calls = {}, {}
    for a in archives:
        out = subprocess.run([od, "-dr", a], capture_output=True, text=True).stdout
        cur = None
        for line in out.splitlines():
            m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
            if m:
                cur = m.group(1)
                if cur in frames:  # defined twice (two objects): keep the first
                    cur = None
                    continue
                frames[cur], calls[cur] = 0, set()
                continue
            if cur is None:
                continue
            m = re.search(r"R_ARM_THM_(CALL|JUMP24)\s+(\S+)", line)
            if m:
                calls[cur].add(m.group(2))
                continue
            parts = line.split("\t")
            if len(parts) < 3:
                continue
            ins, ops = parts[2].strip(), (parts[3] if len(parts) > 3 else "").strip()
            if ins.startswith(("push", "stmdb")) and (ins.startswith("push") or ops.startswith("sp!")):
                frames[cur] += 4 * reg_count(ops)
            elif ins.startswith("vpush"):
                frames[cur] += (8 if "d" in ops else 4) * reg_count(ops)
            elif ins.startswith("sub") and re.match(r"sp, (sp, )?#(\d+)", ops):
                frames[cur] += int(re.match(r"sp, (sp, )?#(\d+)", ops).group(2))
            elif ins.startswith("str") and re.search(r"\[sp, #-(\d+)\]!", ops):
                frames[cur] += int(re.search(r"\[sp, #-(\d+)\]!", ops).group(1))
    memo = {}

    def depth(f, seen=()):
        if f in memo:
            return memo[f]
        if f not in frames or f in seen:
            return 0 if f not in frames else None
        best = 0
        for c in calls[f]:
            d = depth(c, seen + (f,))
            if d is None:
                return None
            best = max(best, d)
        memo[f] = frames[f] + best
        return memo[f]

    return depth


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    build = args[0]
    extern, archives = {}, []
    for a in args[1:]:
        if a.endswith(".a"):
            archives.append(a)
            continue
        name, _, val = a.partition("=")
        extern[name] = int(val)
    cis = sorted(glob.glob(os.path.join(build, "src", "**", "*.ci"), recursive=True))
    if not cis:
        sys.exit("stack-usage: no .ci files under %s/src (build with -fstack-usage -fcallgraph-info=su)" % build)

    frame = {}      # title -> bytes
    dynamic = []    # titles with a dynamic frame
    src_of = {}     # title -> source file (of the translation unit)
    edges = {}      # title -> set of target names (titles or bare names)
    glob_def = {}   # bare name -> title, for functions with a frame
    indirect = {}   # title -> number of indirect call sites
    for ci in cis:
        tu = os.path.relpath(ci, build)[:-3] + ".c"
        with open(ci, encoding="utf-8") as f:
            for line in f:
                m = NODE.match(line)
                if m:
                    title, label = m.groups()
                    fm = FRAME.search(label)
                    if fm:
                        frame[title] = int(fm.group(1))
                        if "dynamic" in fm.group(2) and "bounded" not in fm.group(2):
                            dynamic.append(title)
                        src_of[title] = tu
                        name = title.split(":")[-1]
                        glob_def.setdefault(name, []).append(title)
                    continue
                m = EDGE.match(line)
                if m:
                    s, t = m.groups()
                    if t == "__indirect_call":
                        indirect[s] = indirect.get(s, 0) + 1
                    else:
                        edges.setdefault(s, set()).add(t)

    def resolve(src, t):
        """The title of call target t from the function titled src."""
        if t in frame:
            return t
        name = t.split(":")[-1]
        tu = src_of.get(src)
        cand = glob_def.get(name, [])
        same = [c for c in cand if src_of[c] == tu]
        if same:
            return same[0]
        if len(cand) == 1:
            return cand[0]
        if len(cand) > 1:  # a global function and statics of the same name elsewhere: the global one
            return cand[0]
        return None  # no frame: an external function (libc, libgcc) or a function inlined everywhere

    od = objdump()
    lib_depth = archive_frames(od, archives) if archives else None
    lib_unbounded = []

    def extern_frame(name):
        if name in extern:
            return extern[name]
        if lib_depth is None:
            return 0
        d = lib_depth(name)
        if d is None:
            lib_unbounded.append(name)
            return 0
        extern[name] = d
        return d

    # address-taken functions: every reference that is not a call or a jump, by section
    taken = {}     # source file -> set of titles whose address it takes
    takers = {}    # title -> set of ("text", title) or ("data", section name) that take it
    for ci in cis:
        obj = ci[:-3] + ".o"
        tu = os.path.relpath(ci, build)[:-3] + ".c"
        out = subprocess.run([od, "-r", obj], capture_output=True, text=True, check=True).stdout
        refs = {}  # section -> referenced names (functions and data sections)
        sect = None
        for line in out.splitlines():
            if line.startswith("RELOCATION RECORDS FOR ["):
                sect = line[len("RELOCATION RECORDS FOR ["):-2]
                continue
            parts = line.split()
            if len(parts) != 3 or sect is None or sect.startswith((".debug", ".ARM.")):
                continue
            if CALL_RELOCS.search(parts[1]):
                continue
            refs.setdefault(sect, set()).add(re.sub(r"[+-]0x[0-9a-f]+$", "", parts[2]))

        def fn_of(name):
            name = name[len(".text."):] if name.startswith(".text.") else name
            cand = glob_def.get(name, [])
            hit = [c for c in cand if src_of[c] == tu] or (cand if len(cand) == 1 else [])
            return hit[0] if hit else None

        for sect, names in refs.items():
            if sect.startswith(".text."):
                tk = fn_of(sect)
                who = [("text", tk)] if tk else []
            else:  # a data object: taken by the functions referring to it, and by itself (class tables)
                who = [("data", sect)] + [("text", fn_of(s2)) for s2, n2 in refs.items()
                                          if s2.startswith(".text.") and sect in n2 and fn_of(s2)]
            for n in names:
                g = fn_of(n)
                if g is None or (n.startswith(".text.") and n == sect):
                    continue
                taken.setdefault(tu, set()).add(g)
                takers.setdefault(g, set()).update(who)

    def calls(t, name):
        return any(c.split(":")[-1] == name for c in edges.get(t, ()))

    def base(t):
        return re.sub(r"\.(part|isra|constprop|cold)\..*$|\.(part|isra|constprop|cold)$", "", t.split(":")[-1])

    problems = []
    category = {}
    misnamed = []
    for g, who in takers.items():
        texts = [w[1] for w in who if w[0] == "text"]
        if src_of[g].startswith(("src/core/", "src/api/")) and base(g).endswith(("_alloc", "_free")):
            category[g] = "alloc"
        elif any(calls(t, "sort_items") for t in texts):
            category[g] = "cmp"
        elif any(base(t) == "run_ranges" for t in texts):
            category[g] = "pool"
        elif any(calls(t, "run_ranges") for t in texts):
            category[g] = "range"
        elif any(w[0] == "data" and not w[1].endswith("_class") for w in who):
            category[g] = "table"
        elif not HOOK_ANY.search(base(g)) and src_of[g].startswith("src/ops/") and src_of[g] != "src/ops/kernels.c":
            category[g] = "table"  # a family's own mover, kept in its plan (SCATTER's p->fn)
        else:
            category[g] = "hook"
            if not HOOK_ANY.search(base(g)):
                misnamed.append(base(g))
    if misnamed:
        problems.append("hooks whose name says neither compile, plan, output_sizes, oracle, kernel, check nor"
                        " free (so no rule knows where they are called): %s" % ", ".join(sorted(misnamed)))

    # which address-taken functions an indirect call in function t may reach, given the
    # operator's allowed ones (allowed): by the calling function
    unresolved = set()

    def indirect_targets(t, allowed):
        b, tu = base(t), src_of[t]
        pick = lambda *cats: set(g for g in allowed if category[g] in cats)
        if b == "run_ranges":
            return pick("range", "pool")
        if b == "pool_task":
            return pick("range")
        if b in ("mem_alloc", "mem_free"):
            return pick("alloc")
        if b in ("counting_alloc", "counting_free"):  # the counted allocator: the caller's or the default one
            return set(g for g in pick("alloc") if not base(g).startswith("counting_"))
        if b == "sift_down":
            return pick("cmp")
        if tu.startswith("src/api/"):  # the class's hooks and what compile and plan set in the operator
            want = {"compile_impl": HOOK_COMPILE, "dmlref_execute": HOOK_EXECUTE,
                    "dmlref_output_sizes": HOOK_SHAPE, "dmlref_release": HOOK_FREE,
                    "dmlref_defined_elements": HOOK_DEFINED}.get(b)
            if want is None:
                unresolved.add(t)
                return set()
            return set(g for g in pick("hook") if want.search(base(g)))
        if tu.startswith("src/ops/"):  # a family's own table of element movers (leaves)
            return set(g for g in allowed if src_of[g] == tu and category[g] == "table")
        unresolved.add(t)
        return set()

    # operators: src/ops/<family>/op_<x>.c
    classes = sorted(set(t for t in src_of.values() if re.match(r"src/ops/[^/]+/op_\w+\.c$", t)))
    fam_of = {c: os.path.dirname(c) for c in classes}

    def targets_for(cls):
        fam = fam_of[cls]
        out = set()
        for tu, s in taken.items():
            if tu.startswith(SHARED) or tu == cls or (os.path.dirname(tu) == fam and not os.path.basename(tu).startswith("op_")):
                out |= s
        return out

    unknown_ext = set()

    # self-recursion with a known depth: src/ops/tile/tile_fast.c's tile_build descends one
    # dimension a call (d = 0 .. sm - 1, sm <= MAX_DIMS): at most MAX_DIMS frames
    max_dims = int(re.search(r"#define MAX_DIMS (\d+)", open(os.path.join(ROOT, "src/core/internal.h")).read()).group(1))
    recursion = {"src/ops/tile/tile_fast.c:tile_build": max_dims}

    def bound(root, ind_targets):
        memo, onstack = {}, set()

        def walk(t):
            if t in memo:
                return memo[t]
            if t in onstack:
                raise RecursionError(t)
            onstack.add(t)
            best, via = 0, None
            callees = set()
            for c in edges.get(t, ()):
                r = resolve(t, c)
                if r == t and t in recursion:
                    continue
                if r is None:
                    name = c.split(":")[-1]
                    unknown_ext.add(name)
                    d = extern_frame(name)
                    if d > best:
                        best, via = d, name
                else:
                    callees.add(r)
            if indirect.get(t):
                callees |= indirect_targets(t, ind_targets)
            for r in callees:
                d = walk(r)[0]
                if d > best:
                    best, via = d, r
            onstack.discard(t)
            memo[t] = (frame[t] * recursion.get(t, 1) + best, via)
            return memo[t]

        try:
            total = walk(root)[0]
        except RecursionError as e:
            problems.append("recursion through %s (from %s)" % (e.args[0], root))
            return None, []
        path, t = [], root
        while t is not None:
            path.append("%s %d" % (t.split(":")[-1], frame[t] if t in frame else extern.get(t, 0)))
            t = memo[t][1] if t in memo else None
        return total, path

    roots = {}
    for name in ("dmlref_compile", "dmlref_execute", "dmlref_validate"):
        cand = [t for t in glob_def.get(name, []) if src_of[t].startswith("src/api/")]
        if not cand:
            sys.exit("stack-usage: %s not found in the call graph" % name)
        roots[name] = cand[0]

    print("| operator | dmlref_compile | dmlref_execute | compile's deepest path | execute's deepest path |")
    print("|---|---:|---:|---|---|")
    worst = {"dmlref_compile": (0, ""), "dmlref_execute": (0, "")}
    failed = False
    for cls in classes:
        op = os.path.basename(cls)[3:-2].upper()
        ind = targets_for(cls)
        row, paths = [op], []
        for r in ("dmlref_compile", "dmlref_execute"):
            b, path = bound(roots[r], ind)
            if b is None:
                failed = True
                row.append("unbounded")
                paths.append("")
                continue
            row.append(str(b))
            if b > worst[r][0]:
                worst[r] = (b, op)
            paths.append(" > ".join(path))
        print("| " + " | ".join(row + paths) + " |")
    print("| **worst** | **%d** (%s) | **%d** (%s) | | |" % (worst["dmlref_compile"] + worst["dmlref_execute"]))
    all_ind = set()
    for s in taken.values():
        all_ind |= s
    vb, vpath = bound(roots["dmlref_validate"], all_ind)
    print()
    print("dmlref_validate (any operator): %s bytes (%s)" % (vb if vb is not None else "unbounded", " > ".join(vpath)))
    print()
    sites = sum(indirect.values())
    print("indirect calls: %d sites in %d functions (%s), resolved per operator to the functions whose"
          " address its class file, its family's other files or the shared layers take (%d address-taken"
          " functions in all)" % (sites, len(indirect), ", ".join(sorted(t.split(":")[-1] for t in indirect)),
                                  len(all_ind)))
    ext = sorted(unknown_ext)
    print("functions outside the library (libc, libgcc; frames from %s): %s"
          % (", ".join(os.path.basename(a) for a in archives) + "'s code" if archives else "NAME=BYTES arguments, else 0",
             ", ".join("%s=%d" % (n, extern.get(n, 0)) for n in ext)))
    if lib_unbounded:
        problems.append("recursion in the C library's functions: %s" % ", ".join(sorted(set(lib_unbounded))))
    if dynamic:
        failed = True
        print("dynamic frames (not bounded): %s" % ", ".join(dynamic))
    cats = {}
    for g, c in category.items():
        cats.setdefault(c, []).append(base(g))
    for c in sorted(cats):
        print("address-taken, %s: %s" % (c, " ".join(sorted(set(cats[c])))))
    for t, n in recursion.items():
        print("recursion: %s calls itself, at most %d frames deep (counted so)" % (t, n))
    if unresolved:
        problems.append("indirect calls in functions no rule covers: %s" % ", ".join(sorted(unresolved)))
    for p in problems:
        print("stack-usage: %s" % p)
    return 1 if failed or problems else 0


if __name__ == "__main__":
    sys.exit(main())
