#!/usr/bin/env python3
"""Checks `dmlref gen`'s files against the filters and flavours they were drawn with.

    check.py --dmlref build/dmlref DIR [filters as gen takes them] [--bits] [--max-elements N] [--scale-bias]
             [--expect-files N] [--prefix gen-bits]

For every case file in DIR, from the file's own tensors and data (not from its
"features" object):

  - recomputes what the case uses -- data types, index types, the largest
    DimensionCount, negative indices, Strides given, broadcast, gaps, a
    TotalTensorSizeInBytes above the minimum, the special values among the inputs'
    elements -- and requires the "features" object to say exactly that, and its
    min_feature_level to be the lowest level `dmlref validate` accepts;
  - requires every filter given here to hold (--feature-level: the file's level is at
    most L and `dmlref validate --feature-level L` accepts it);
  - --bits: `dmlref run` exits 0 and prints every output exactly as `expected` lists it,
    token for token (the printed form is one-to-one with the bits: "nan" only for the
    canonical quiet NaN, any other NaN as "0x..."), and an ELEMENT_WISE_IDENTITY output
    without a ScaleBias holds its input's elements token for token;
  - --scale-bias: every ELEMENT_WISE_IDENTITY case has a ScaleBias and FLOAT32 or FLOAT16
    data; without it, no case has a ScaleBias (arithmetic stays out of golden suites);
  - --max-elements N: no tensor above N elements;
  - --distinct: no two files hold the same case (name and comment aside).

--fast leaves out every check that runs dmlref (the levels, --bits's runs).

Prints one line per problem and "gen-check: N files, N problems"; exits 1 on a problem.
Index tensors are the slots named *Indices* (IndicesTensor), and REVERSE_SUBSEQUENCES's
SequenceLengthsTensor (INDEX_SLOTS), and ARGMIN's and ARGMAX's OutputTensor (INDEX_OUTPUTS): the
slots the library's schema marks is_index.
"""
import argparse
import itertools
import json
import math
import os
import subprocess
import sys

import numpy as np

LEVELS = ["1_0", "2_0", "2_1", "3_0", "3_1", "4_0", "4_1", "5_0", "5_1", "5_2", "6_0", "6_1", "6_2", "6_3", "6_4"]
SIZE = {"FLOAT64": 8, "FLOAT32": 4, "FLOAT16": 2, "INT64": 8, "INT32": 4, "INT16": 2, "INT8": 1,
        "UINT64": 8, "UINT32": 4, "UINT16": 2, "UINT8": 1}
DATA_ORDER = ["FLOAT64", "FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8", "UINT64", "UINT32", "UINT16", "UINT8"]
INDEX_ORDER = ["INT64", "INT32", "UINT64", "UINT32"]
SPECIALS = ["negative_zero", "infinity", "nan", "nan_payload", "signaling_nan", "subnormal", "integer_extremes"]
FLOATS = {"FLOAT16": (np.float16, 5, 10), "FLOAT32": (np.float32, 8, 23), "FLOAT64": (np.float64, 11, 52)}
INDEX_SLOTS = {"SequenceLengthsTensor"}  # index slots not named *Indices*
FIXED_SLOTS = {"ConditionTensor", "OutputIndexTensor", "OutputCountTensor", "OutputCoordinatesTensor"}
# the operator fixes the type (ELEMENT_WISE_IF: UINT8; TOP_K's index output: UINT32 or UINT64;
# NONZERO_COORDINATES: UINT32): in no type list
INDEX_OUTPUTS = {("ARGMIN", "OutputTensor"), ("ARGMAX", "OutputTensor")}  # outputs of indices (is_index)
CANON = {"FLOAT16": 0x7E00, "FLOAT32": 0x7FC00000, "FLOAT64": 0x7FF8000000000000}


def load(path):
    # numbers as their text: "-0.0" keeps its sign, and two lists compare as written
    with open(path) as f:
        return json.load(f, parse_float=str, parse_int=str)


def tensors(case):
    """(slot name, is_output, tensor) in file order."""
    out = []
    for k, v in case.items():
        if k == "expected":
            continue
        for t in (v if isinstance(v, list) else [v]):
            if isinstance(t, dict) and "DataType" in t:
                out.append((k, k.startswith("Output"), t))
    return out


def ints(v):
    return [int(x) for x in v]


def strides_of(t):
    sizes = ints(t["Sizes"])
    if "Strides" in t:
        return ints(t["Strides"])
    return [math.prod(sizes[d + 1:]) for d in range(len(sizes))]


def slots(t):
    """The slot of every element, row-major over Sizes."""
    sizes, strides = ints(t["Sizes"]), strides_of(t)
    return [sum(c * s for c, s in zip(co, strides)) for co in itertools.product(*(range(n) for n in sizes))]


def flat(v):
    return [y for x in v for y in flat(x)] if isinstance(v, list) else [v]


def bits_of(dt, token):
    """A value token (text, as written) -> its bits in the element type."""
    size = SIZE[dt]
    if token.startswith("0x"):
        return int(token, 16)
    if dt in FLOATS:
        np_t = FLOATS[dt][0]
        if token in ("nan", "inf", "-inf"):
            return {"nan": CANON[dt], "inf": int(np.array(np.inf, np_t).view(f"u{size}")),
                    "-inf": int(np.array(-np.inf, np_t).view(f"u{size}"))}[token]
        return int(np.array(np_t(np.float64(token)), np_t).view(f"u{size}"))
    return int(token) & ((1 << (8 * size)) - 1)


def special(dt, token):
    size, b = SIZE[dt], bits_of(dt, token)
    if dt in FLOATS:
        _, eb, mb = FLOATS[dt]
        e, m, emax, quiet = (b >> mb) & ((1 << eb) - 1), b & ((1 << mb) - 1), (1 << eb) - 1, 1 << (mb - 1)
        if e == emax:
            if m == 0:
                return "infinity"
            if b == CANON[dt]:
                return "nan"
            return "nan_payload" if m & quiet else "signaling_nan"
        if e == 0 and m:
            return "subnormal"
        if e == 0 and b:
            return "negative_zero"
        return None
    top = 1 << (8 * size - 1)
    if dt.startswith("INT"):
        return "integer_extremes" if b in (top, top - 1) else None
    return "integer_extremes" if b == 2 * top - 1 else None


def features(case, path, problems):
    f = {"data_types": set(), "index_types": set(), "max_dimension_count": 0, "negative_indices": False,
         "strides": False, "broadcast": False, "gaps": False, "padded_total": False, "special_values": set()}
    for name, is_out, t in tensors(case):
        dt, sizes = t["DataType"], ints(t["Sizes"])
        is_index = "Indices" in name or name in INDEX_SLOTS or (case.get("operator"), name) in INDEX_OUTPUTS
        if name not in FIXED_SLOTS:
            f["index_types" if is_index else "data_types"].add(dt)
        f["max_dimension_count"] = max(f["max_dimension_count"], len(sizes))
        f["strides"] |= "Strides" in t
        st = strides_of(t)
        f["broadcast"] |= any(s == 0 and n > 1 for s, n in zip(st, sizes))
        sl = slots(t)
        span = max(sl) + 1
        f["gaps"] |= len(set(sl)) < span
        minimum = (span * SIZE[dt] + 3) // 4 * 4
        f["padded_total"] |= int(t.get("TotalTensorSizeInBytes", minimum)) > minimum
        if is_out:
            continue
        data = flat(t["data"])
        if is_index:
            f["negative_indices"] |= any(int(data[s]) < 0 for s in sl)
        elif name not in FIXED_SLOTS:
            f["special_values"] |= {special(dt, data[s]) for s in sl} - {None}
    return f


def check_file(path, a, problems, levels):
    case = load(path)
    name = os.path.basename(path)

    def bad(msg):
        problems.append(f"{name}: {msg}")

    got = case.get("features")
    if not isinstance(got, dict):
        bad("no features object")
        return case
    want = features(case, path, problems)
    for key in ("max_dimension_count", "negative_indices", "strides", "broadcast", "gaps", "padded_total"):
        g = got.get(key)
        if key == "max_dimension_count":
            g = int(g)
        if g != want[key]:
            bad(f"features.{key} is {g}, the case has {want[key]}")
    for key, order in (("data_types", DATA_ORDER), ("index_types", INDEX_ORDER), ("special_values", SPECIALS)):
        w = [x for x in order if x in want[key]]
        if got.get(key) != w:
            bad(f"features.{key} is {got.get(key)}, the case has {w}")
    # the filters, on what the case holds
    if a.data_types and not want["data_types"] <= set(a.data_types.split(",")):
        bad(f"data types {sorted(want['data_types'])} outside --data-types {a.data_types}")
    if a.index_types and not want["index_types"] <= set(a.index_types.split(",")):
        bad(f"index types {sorted(want['index_types'])} outside --index-types {a.index_types}")
    if a.max_dims and want["max_dimension_count"] > a.max_dims:
        bad(f"DimensionCount {want['max_dimension_count']} above --max-dims {a.max_dims}")
    if a.no_negative_indices and want["negative_indices"]:
        bad("a negative index under --no-negative-indices")
    if a.packed and (want["strides"] or want["broadcast"] or want["gaps"] or want["padded_total"]):
        bad("a layout that is not packed under --packed")
    if a.max_elements:
        biggest = max(math.prod(ints(t["Sizes"])) for _, _, t in tensors(case))
        if biggest > a.max_elements:
            bad(f"a tensor of {biggest} elements above --max-elements {a.max_elements}")
    has_sb = case.get("ScaleBias") is not None
    if has_sb and not a.scale_bias:
        bad("a ScaleBias without --scale-bias")
    if a.scale_bias and case["operator"] == "ELEMENT_WISE_IDENTITY":
        if not has_sb:
            bad("no ScaleBias under --scale-bias")
        if not want["data_types"] <= {"FLOAT32", "FLOAT16"}:
            bad(f"a ScaleBias with data types {sorted(want['data_types'])}")
    if a.feature_level and LEVELS.index(case["feature_level"]) > LEVELS.index(a.feature_level):
        bad(f"feature_level {case['feature_level']} above --feature-level {a.feature_level}")
    if a.fast:
        return case
    # the levels (valid at --feature-level, min_feature_level the lowest valid one): asked of
    # `dmlref validate` for all the files at once, after this loop (check_levels)
    levels.append((name, path, got.get("min_feature_level")))
    if a.bits:
        p = subprocess.run([a.dmlref, "run", path], capture_output=True, text=True)
        if p.returncode != 0:
            bad(f"dmlref run exits {p.returncode}: {p.stderr.strip()[:200]}")
            return case
        out = json.loads(p.stdout, parse_float=str, parse_int=str)
        for k, want_list in case["expected"].items():
            printed = [t["data"] for t in out[k]] if isinstance(want_list[0], list) else out[k]["data"]
            if printed != want_list:
                bad(f"dmlref run prints {k} other than expected (bits differ)")
        if case["operator"] == "ELEMENT_WISE_IDENTITY" and not has_sb:
            ti, to = case["InputTensor"], case["OutputTensor"]
            di, do = flat(ti["data"]), case["expected"]["OutputTensor"]
            if [di[s] for s in slots(ti)] != [do[s] for s in slots(to)]:
                bad("ELEMENT_WISE_IDENTITY's expected output does not hold its input's elements bit for bit")
    return case


def check_levels(a, levels, problems):
    """min_feature_level is the lowest level `dmlref validate` accepts, and every file is valid at
    --feature-level: one `dmlref validate --json` of many files per level (a process per file and
    level would be thousands of them, slow under ASan and emulators)."""
    # per file, the questions: (level, the verdict wanted, the problem when it is not given)
    asked = []
    for name, path, lo in levels:
        if lo not in LEVELS:
            problems.append(f"{name}: min_feature_level {lo} is not a feature level")
            continue
        lowest = f"{name}: min_feature_level {lo} is not the lowest level that accepts the case"
        qs = [(lo, True, lowest)]
        if LEVELS.index(lo) > 0:
            qs.append((LEVELS[LEVELS.index(lo) - 1], False, lowest))
        if a.feature_level:
            qs.append((a.feature_level, True, f"{name}: not valid at --feature-level {a.feature_level}"))
        asked.append((path, qs))
    by_level = {}  # level -> paths
    for path, qs in asked:
        for level, _, _ in qs:
            by_level.setdefault(level, set()).add(path)
    valid = {}  # (level, path) -> bool
    for level, paths in by_level.items():
        paths = sorted(paths)
        for i in range(0, len(paths), 200):  # a command line of at most 200 files
            chunk = paths[i:i + 200]
            p = subprocess.run([a.dmlref, "validate", "--json", "--feature-level", level] + chunk,
                               capture_output=True, text=True)
            verdicts = {}
            for line in p.stdout.splitlines():
                v = json.loads(line)
                verdicts[v.get("case", chunk[0])] = v["valid"]  # one file: not named
            for path in chunk:
                if path not in verdicts:
                    problems.append(f"{os.path.basename(path)}: dmlref validate gives no verdict: {p.stderr.strip()[:200]}")
                valid[(level, path)] = verdicts.get(path, False)
    for path, qs in asked:
        for problem in dict.fromkeys(problem for level, want, problem in qs if valid[(level, path)] != want):
            problems.append(problem)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--dmlref", required=True)
    ap.add_argument("--data-types")
    ap.add_argument("--index-types")
    ap.add_argument("--feature-level")
    ap.add_argument("--max-dims", type=int)
    ap.add_argument("--no-negative-indices", action="store_true")
    ap.add_argument("--packed", action="store_true")
    ap.add_argument("--bits", action="store_true")
    ap.add_argument("--max-elements", type=int)
    ap.add_argument("--scale-bias", action="store_true")
    ap.add_argument("--expect-files", type=int)
    ap.add_argument("--distinct", action="store_true")
    ap.add_argument("--fast", action="store_true")
    a = ap.parse_args()
    problems = []
    files = sorted(f for f in os.listdir(a.dir) if f.endswith(".json"))
    seen = {}
    levels = []
    for f in files:
        case = check_file(os.path.join(a.dir, f), a, problems, levels)
        key = json.dumps({k: v for k, v in case.items() if k not in ("name", "comment")}, sort_keys=True)
        if a.distinct and key in seen:
            problems.append(f"{f}: the same case as {seen[key]}")
        seen.setdefault(key, f)
    check_levels(a, levels, problems)
    if a.expect_files is not None and len(files) != a.expect_files:
        problems.append(f"{a.dir}: {len(files)} files, wanted {a.expect_files}")
    if not files:
        problems.append(f"{a.dir}: no case files")
    for p in problems[:40]:
        print(p)
    print(f"gen-check: {len(files)} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
