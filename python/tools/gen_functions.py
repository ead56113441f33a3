#!/usr/bin/env python3
"""Writes python/dmlref/_functions.py: one real, typed function per operator of the
library's registry, its docstring made from the library's schema (the slots, the
parameters and their C kinds) and the operator's section of docs/operators.md (the
summary, the validation rules with their index rules, the output shape, the first
examples).  The file is committed; python/tests/test_functions.py checks that it is
what this script writes now, so neither the schema nor the documentation can drift
from it.

    PYTHONPATH=python python3 python/tools/gen_functions.py          # rewrite it
    PYTHONPATH=python python3 python/tools/gen_functions.py --check  # exit 1 if stale
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TARGET = os.path.join(os.path.dirname(HERE), "dmlref", "_functions.py")
DOC = os.path.join(ROOT, "docs", "operators.md")

KIND = {1: "UINT", 2: "INT", 3: "UINT array", 4: "INT array", 5: "FLOAT", 6: "enum", 7: "DML_SCALAR_UNION",
        8: "struct", 9: "FLOAT array", 10: "DML_SIZE_2D (Width, Height)", 11: "BOOL"}


def snake(name):
    if name.isupper():
        return name.lower()
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def slot_arg(slot):
    return snake(slot["name"].replace("Tensors", "s").replace("Tensor", ""))


def sections(text):
    """{title: body} of the '## ' sections of docs/operators.md."""
    out = {}
    parts = re.split(r"^## ", text, flags=re.M)
    for p in parts[1:]:
        title, _, body = p.partition("\n")
        out[title.strip()] = body
    return out


def section_of(name, secs):
    for want in (name, name[:-1] if name.endswith("1") else None):
        if not want:
            continue
        for title, body in secs.items():
            if re.search(rf"(?<![A-Z0-9_]){re.escape(want)}(?![A-Z0-9_])", title):
                return title, body
    return None, ""


def subsections(body):
    """[(title, text)] of the '### ' subsections, the text before the first as ('', text)."""
    body = body.split("\n---")[0]
    parts = re.split(r"^### ", body, flags=re.M)
    out = [("", parts[0])]
    for p in parts[1:]:
        title, _, text = p.partition("\n")
        out.append((re.sub(r"^[PQ0-9.]+\s*", "", title.strip()), text))
    return out


def clean(text, limit=None):
    lines = [ln.rstrip() for ln in text.strip("\n").splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    if limit is not None and len(lines) > limit:
        lines = lines[:limit] + ["..."]
    return "\n".join(ln.replace("\\", "\\\\") for ln in lines)


def first_examples(text, n=2):
    """The first n numbered items of an Examples subsection (with the lines before them)."""
    lines = text.strip("\n").splitlines()
    out, items = [], 0
    for ln in lines:
        if re.match(r"^\d+\. ", ln):
            items += 1
            if items > n:
                break
        elif items == 0 and not ln.strip():
            continue
        out.append(ln)
    return "\n".join(out)


def docstring(op, name, secs, signature):
    title, body = section_of(name, secs)
    subs = subsections(body)
    intro = clean(subs[0][1])
    lines = [f"DML_OPERATOR_{name} on numpy arrays (docs/operators.md, \"{title}\").", "", signature, ""]
    if intro:
        lines += [intro, ""]
    lines += ["Parameters", "----------"]
    for s in op["slots"]:
        if s["is_output"]:
            continue
        kind = "list of arrays" if s["is_array"] else "array"
        role = "indices (an integer data type)" if s["is_index"] else "tensor"
        opt = ", optional (None: absent)" if s["is_optional"] else ""
        lines.append(f"{slot_arg(s)} : {kind}{opt}")
        lines.append(f"    {s['name']}: {role}; any object with __dlpack__ or __array__.")
    for p in op["params"]:
        if p["is_count"]:
            continue
        extra = ""
        if p["kind"] == 6 and p["enum_names"]:
            extra = ": " + ", ".join(f"{i} {n}" for i, n in enumerate(p["enum_names"]) if n)
        if p["kind"] == 8 and p["field_names"]:
            extra = ": (" + ", ".join(p["field_names"]) + ")"
        if p["count_name"]:
            extra += f"; its length gives {p['count_name']}"
        opt = ", optional" if p["is_optional"] else ""
        lines.append(f"{snake(p['name'])} : {KIND.get(p['kind'], p['kind'])}{opt}")
        lines.append(f"    {p['name']}{extra}.")
    lines += [
        "feature_level : str, optional",
        "    The DirectML feature level the call is validated at (\"4_1\"; None: the newest).",
        "check_indices : bool",
        "    Report an out-of-range index (dmlref.IndexOutOfRange) instead of DirectML's rule.",
        "out : array, optional",
        "    Written in place (a strided view: only the addressed elements).",
        "threads : int",
        "    dmlref_options.threads (0: the library's default, 1: serial).",
        "force_oracle : bool",
        "    Run the scalar oracle, never a fast path.",
        "",
        "Raises dmlref.InvalidDescriptor (a ValueError) with the library's message and rule id",
        "for a call DirectML would refuse.",
    ]
    for sub_title, text in subs[1:]:
        if sub_title.startswith("Validation rules"):
            lines += ["", "Validation rules (index rules among them)", "-----------------------------------------",
                      clean(text, 40)]
        elif sub_title.startswith("Output shape"):
            lines += ["", "Output shape", "------------", clean(text, 30)]
    ex = example(name)
    if ex:
        lines += ["", "Example", "-------", ex]
    for sub_title, text in subs[1:]:
        if sub_title.startswith("Examples"):
            lines += ["", "Examples of docs/operators.md", "----------------------------", clean(first_examples(text), 20)]
            break
    return "\n".join(lines)


# A short call per operator, run when the file is generated: the docstring shows its real
# output (python/tests/test_functions.py runs the docstrings as doctests).
EXAMPLES = {
    "GATHER": "dmlref.gather(np.array([[1, 2], [3, 4], [5, 6]], np.float32), np.array([[0, 2, -1]], np.int32), "
              "axis=0, index_dimensions=1)",
    "GATHER_ELEMENTS": "dmlref.gather_elements(np.array([[1, 2], [3, 4]], np.float32), "
                       "np.array([[1, 0], [0, 0]], np.int32), axis=0)",
    "SCATTER_ND": "dmlref.scatter_nd(np.zeros((1, 4), np.float32), np.array([[0, 1], [0, 3]], np.int32), "
                  "np.array([[10, 20]], np.float32))",
    "SPLIT": "dmlref.split(np.arange(6, dtype=np.int16).reshape(3, 2), axis=0, sizes=[1, 2])",
    "JOIN": "dmlref.join([np.ones((1, 2), np.uint8), np.zeros((2, 2), np.uint8)], axis=0)",
    "TILE": "dmlref.tile(np.array([[1, 2]], np.int32), repeats=[2, 2])",
    "SLICE": "dmlref.slice(np.arange(8, dtype=np.float32).reshape(2, 4), offsets=[0, 1], sizes=[2, 2], "
             "strides=[1, 2])",
    "ELEMENT_WISE_IDENTITY": "dmlref.element_wise_identity(np.array([[1.5, -0.0]], np.float32))",
    "ONE_HOT": "dmlref.one_hot(np.array([[2], [0]], np.uint32), np.array([[0, 1]], np.float32), axis=1, depth=3)",
    "REVERSE_SUBSEQUENCES": "dmlref.reverse_subsequences(np.arange(6, dtype=np.float32).reshape(2, 3), "
                            "np.array([[3], [2]], np.uint32), axis=1)",
    "PADDING": "dmlref.padding(np.array([[1, 2]], np.float32), padding_mode=0, padding_value=0.0, "
               "start_padding=[0, 1], end_padding=[0, 1])",
    "DEPTH_TO_SPACE": "dmlref.depth_to_space(np.arange(4, dtype=np.float32).reshape(1, 4, 1, 1), block_size=2)",
    "SPACE_TO_DEPTH": "dmlref.space_to_depth(np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2), block_size=2)",
    "DIAGONAL_MATRIX": "dmlref.diagonal_matrix(offset=0, value=1.0, shape=[1, 1, 2, 3], dtype=np.float32)",
    "GATHER_ND": "dmlref.gather_nd(np.array([[1, 2], [3, 4]], np.float32), np.array([[1, 0], [0, 1]], np.int32))",
    "CAST": "dmlref.cast(np.array([-43.5, -2.5, 83.5, 102.1578369140625], np.float32), dtype=np.int32)",
    "SCATTER": "dmlref.scatter(np.zeros((1, 3), np.float32), np.array([[2, 0]], np.int32), "
               "np.array([[7, 8]], np.float32), axis=1)",
    "SLICE_GRAD": "dmlref.slice_grad(np.array([[1, 3], [9, 11]], np.float32), input_window_offsets=[0, 0], "
                  "input_window_sizes=[4, 4], input_window_strides=[2, 2], shape=[4, 4])",
    "MAX_UNPOOLING": "dmlref.max_unpooling(np.array([[[[1, 2], [3, 4]]]], np.float32), "
                     "np.array([[[[5, 7], [13, 15]]]], np.uint32), shape=[1, 1, 4, 4])",
    "TOP_K1": "dmlref.top_k1(np.array([[1, 2, 2, 3], [6, 6, 6, 6]], np.float32), axis=1, k=3, "
              "axis_direction=\"DECREASING\")",
    "RESAMPLE2": "dmlref.resample2(np.array([[1, 2, 3], [4, 5, 6]], np.float32), interpolation_mode=\"NEAREST_NEIGHBOR\", "
                 "rounding_direction=\"DECREASING\", scales=[2, 2], input_pixel_offsets=[0, 0], "
                 "output_pixel_offsets=[-0.5, -0.5], shape=[4, 6])",
    "NONZERO_COORDINATES": "dmlref.nonzero_coordinates(np.array([[1, 0, 0, 2], [-0.0, 3.5, 0, -5.2]], np.float32), "
                           "components=2)",
}


def example(name):
    """The example's doctest lines (the call and its output as numpy prints it)."""
    code = EXAMPLES.get(name)
    if code is None:
        return None
    import types
    import numpy as np
    from dmlref._ops import OPERATORS
    # the operators as the generated functions call them (the file itself may be stale)
    dmlref = types.SimpleNamespace(**{snake(n): op for n, op in OPERATORS.items()})
    np.set_printoptions(legacy=False)
    result = eval(code, {"np": np, "dmlref": dmlref})  # the table above: this file's own code
    lines = [">>> import numpy as np, dmlref", ">>> " + code]
    lines += [ln or "<BLANKLINE>" for ln in repr(result).splitlines()]
    return "\n".join(lines)


def annotation(slot):
    return "Sequence[ArrayLike]" if slot["is_array"] else "ArrayLike"


PARAM_TYPE = {1: "int", 2: "int", 3: "Sequence[int]", 4: "Sequence[int]", 5: "float", 6: "Union[int, str]",
              7: "Any", 8: "Optional[Sequence[float]]", 9: "Sequence[float]", 10: "Any",
              11: "bool"}

EXTRA_TYPE = {"sizes": "Optional[Sequence[int]]", "depth": "Optional[int]", "shape": "Optional[Sequence[int]]",
              "dtype": "Any", "components": "Optional[int]"}


def _import_package():
    """Imports dmlref with an empty _functions module in place of the file (which may be
    missing or stale): the schema comes from the extension, not from the generated file."""
    import types
    sys.modules["dmlref._functions"] = types.ModuleType("dmlref._functions")
    sys.modules["dmlref._functions"].__all__ = []
    try:
        import dmlref  # noqa: F401
    finally:
        del sys.modules["dmlref._functions"]


def generate():
    _import_package()
    import dmlref._core as core
    from dmlref._ops import DEFAULTS, EXTRA, EXTRA_WITHOUT_INPUT, _is_data_type_enum

    with open(DOC) as f:
        secs = sections(f.read())
    out = ['"""One function per operator of the registry, with its documentation.',
           "",
           "GENERATED by python/tools/gen_functions.py from the library's schema and",
           "docs/operators.md: do not edit (python/tests/test_functions.py checks it is current).",
           '"""',
           "from typing import Any, List, Optional, Sequence, Union",
           "",
           "import numpy as np  # noqa: F401 (the examples)",
           "from numpy.typing import NDArray",
           "",
           "from ._ops import MISS as _MISS",
           "from ._ops import call as _call",
           "from ._ops import fast as _fast",
           "",
           "ArrayLike = Any  # a numpy array, or any object with __dlpack__ or __array__",
           "",
           ""]
    names = []
    for op in core.schemas():
        name = op["name"]
        fname = snake(name)
        names.append(fname)
        ins = [s for s in op["slots"] if not s["is_output"]]
        outs = [s for s in op["slots"] if s["is_output"]]
        params = [p for p in op["params"] if not p["is_count"]]
        union_types = set()
        for i, p in enumerate(params):
            if p["kind"] == 7:
                ts = [q for q in params[:i] if _is_data_type_enum(q)]
                if ts:
                    union_types.add(ts[-1]["name"])
        args = []
        for s in ins:
            args.append(f"{slot_arg(s)}: {'Optional[' + annotation(s) + ']' if s['is_optional'] else annotation(s)}"
                        + (" = None" if s["is_optional"] else ""))
        if ins:
            args.append("/")
        args.append("*")
        kwnames = []
        for p in params:
            k = snake(p["name"])
            kwnames.append(k)
            has_default = p["is_optional"] or p["name"] in DEFAULTS.get(name, {}) or p["name"] in union_types
            t = PARAM_TYPE[p["kind"]]
            if has_default and not t.startswith("Optional") and t != "Any":
                t = f"Optional[{t}]"
            args.append(f"{k}: {t}" + (" = None" if has_default else ""))
        extra = EXTRA.get(name, ()) + EXTRA_WITHOUT_INPUT.get(name, ())
        for k in extra:
            args.append(f"{k}: {EXTRA_TYPE[k]} = None")
            kwnames.append(k)
        args += ["feature_level: Optional[str] = None", "check_indices: bool = False", "out: Any = None",
                 "threads: int = 0", "force_oracle: bool = False"]
        ret = "List[NDArray[Any]]" if len(outs) == 1 and outs[0]["is_array"] else "NDArray[Any]"
        if len(outs) > 1:
            ret = "List[NDArray[Any]]"
        shown = ", ".join(a.split(":")[0].split(" =")[0] + ("=..." if " = " in a else "") for a in args)
        doc = docstring(op, name, secs, f"{fname}({shown}) -> {ret}")
        out.append(f"def {fname}(" + ", ".join(args) + f") -> {ret}:")
        out.append('    r"""' + doc.replace('"""', '\\"\\"\\"').replace("\n", "\n    ").replace("\n    \n", "\n\n") + '\n    """')
        ins_tuple = "(" + ", ".join(slot_arg(s) for s in ins) + ("," if len(ins) == 1 else "") + ")"
        kw = ", ".join(f"{k}={k}" for k in kwnames)
        # the cached C path first (_core.fast: the parameters in schema order, then the extras);
        # it returns _MISS for anything it leaves to the Python path (_ops.call)
        params_tuple = "(" + "".join(snake(p["name"]) + ", " for p in params).rstrip(" ") + ")"
        extras_tuple = "(" + "".join(k + ", " for k in extra).rstrip(" ") + ")" if extra else "None"
        out.append(f"    r = _fast({op['type']}, {ins_tuple}, {params_tuple}, {extras_tuple}, out, feature_level, "
                   "check_indices, threads, force_oracle)")
        out.append("    if r is not _MISS:")
        out.append("        return r  # type: ignore[no-any-return]")
        out.append(f"    return _call({name!r}, {ins_tuple}, feature_level, check_indices, out, threads, force_oracle"
                   + (f", {kw})" if kw else ")"))
        out.append("")
        out.append("")
    out.append("__all__ = [" + ", ".join(repr(n) for n in names) + "]")
    text = "\n".join(out) + "\n"
    return re.sub(r"[ \t]+\n", "\n", text)


def main():
    text = generate()
    if "--check" in sys.argv[1:]:
        with open(TARGET) as f:
            if f.read() != text:
                print(f"{TARGET} is stale: run python/tools/gen_functions.py")
                return 1
        return 0
    with open(TARGET, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
