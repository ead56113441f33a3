"""A small numpy interpreter of the WPT WebNN test form `dmlref export --webnn` writes.

For every case directory given that holds webnn.json: builds each input from its "data" (and,
for float types, checks that "data" and "bits" agree: the decimal read as a double and rounded
to the type gives the bits, "NaN" any NaN), runs the operators in order (gather, gatherElements,
gatherND, scatterElements, scatterND, split, concat, identity, tile, reshape, transpose, slice,
reverse, pad, where, cast, argMin, argMax, with WebNN's argument names and numpy's semantics; negative indices count
from the end) and compares every expected output bit for bit.  Directories whose manifest says
WebNN cannot express the case must have no webnn.json and a reason.  Prints
"webnn: N matched, E not expressible, F failed"; exits 1 on any failure.
"""
import json, os, sys

import numpy as np

DT = {"float32": np.float32, "float16": np.float16, "int32": np.int32, "uint32": np.uint32,
      "int64": np.int64, "uint64": np.uint64, "int8": np.int8, "uint8": np.uint8}
UINT = {2: np.uint16, 4: np.uint32}


def tensor(e):
    d = e["descriptor"]
    dt = DT[d["dataType"]]
    shape = d["shape"]
    if "bits" in e:
        w = np.dtype(dt).itemsize
        bits = np.array([int(b, 16) for b in e["bits"]], dtype=UINT[w])
        arr = bits.view(dt)
        vals = [float(v) if not isinstance(v, str) else float(v.replace("Infinity", "inf")) for v in e["data"]]
        dec = np.array(vals, dtype=np.float64).astype(dt)
        same = (dec.view(UINT[w]) == bits) | (np.isnan(dec) & np.isnan(arr))
        assert same.all(), f"data and bits disagree at {np.flatnonzero(~same)[:3]}"
    else:
        arr = np.array([int(v) for v in e["data"]], dtype=object).astype(dt)
    return arr.reshape(shape)


def norm(i, n):
    i = i.astype(np.int64)
    return np.where(i < 0, i + n, i)


def round_int(v, dt):
    """A Python int rounded to dt's precision (nearest, ties to even), as an exact float64."""
    p, n = {2: 11, 4: 24, 8: 53}[dt.itemsize], abs(v).bit_length()
    if n > p:
        q, r = divmod(abs(v), 1 << (n - p))
        q += r > 1 << (n - p - 1) or (r == 1 << (n - p - 1) and q & 1)
        v = (q << (n - p)) * (1 if v >= 0 else -1)
    return float(v)


def run(op, env):
    a = {}
    for x in op["arguments"]:
        a.update(x)
    opt = a.get("options", {})
    val = lambda k: env[a[k]]
    n = op["name"]
    if n == "gather":
        x, ax = val("input"), opt.get("axis", 0)
        return np.take(x, norm(val("indices"), x.shape[ax]), axis=ax)
    if n == "gatherElements":
        x, ax = val("input"), opt.get("axis", 0)
        return np.take_along_axis(x, norm(val("indices"), x.shape[ax]), axis=ax)
    if n == "gatherND":
        x, i = val("input"), val("indices").astype(np.int64)
        t = i.shape[-1]
        return x[tuple(i.reshape(-1, t).T)].reshape(i.shape[:-1] + x.shape[t:])
    if n == "scatterElements":
        x, ax = val("input").copy(), opt.get("axis", 0)
        np.put_along_axis(x, norm(val("indices"), x.shape[ax]), val("updates"), axis=ax)
        return x
    if n == "scatterND":
        x, i, u = val("input").copy(), val("indices").astype(np.int64), val("updates")
        t = i.shape[-1]
        x[tuple(i.reshape(-1, t).T)] = u.reshape((-1,) + x.shape[t:])
        return x
    if n == "split":
        x, ax = val("input"), opt.get("axis", 0)
        return np.split(x, np.cumsum(a["splits"])[:-1], axis=ax)
    if n == "concat":
        return np.concatenate([env[k] for k in a["inputs"]], axis=a["axis"])
    if n == "identity":
        return val("input").copy()
    if n == "tile":
        return np.tile(val("input"), a["repetitions"])
    if n == "cast":  # the cases export writes: no NaN between float types, no out-of-range float -> int
        x, dt = val("input"), np.dtype(DT[a["type"]])
        with np.errstate(all="ignore"):
            if x.dtype.kind in "iu" and dt.kind == "f":  # one rounding from the exact integer
                return np.array([round_int(v, dt) for v in x.reshape(-1).tolist()]).reshape(x.shape).astype(dt)
            return x.astype(dt)
    if n == "reshape":
        return val("input").reshape(a["newShape"])
    if n == "transpose":
        return np.transpose(val("input"), opt["permutation"])
    if n == "reverse":
        return np.flip(val("input"), axis=tuple(opt["axes"]))
    if n == "slice":
        x, st = val("input"), opt.get("strides", [1] * len(a["starts"]))
        return x[tuple(slice(s, s + (z - 1) * k + 1, k) for s, z, k in zip(a["starts"], a["sizes"], st))]
    if n == "where":
        return np.where(val("condition") != 0, val("trueValue"), val("falseValue"))
    if n == "pad":
        x, b, e = val("input"), a["beginningPadding"], a["endingPadding"]
        mode = opt.get("mode", "constant")
        if mode == "constant":
            v = opt.get("value", 0)
            v = np.array(float(v.replace("Infinity", "inf")) if isinstance(v, str) and not v.lstrip("-").isdigit() else int(v) if isinstance(v, str) else v).astype(x.dtype)
            out = np.full([s + p + q for s, p, q in zip(x.shape, b, e)], v, dtype=x.dtype)
            out[tuple(slice(p, p + s) for p, s in zip(b, x.shape))] = x
            return out
        return np.pad(x, list(zip(b, e)), mode={"edge": "edge", "reflection": "reflect"}[mode])
    if n in ("argMin", "argMax"):  # numpy's first index (a NaN wins, as dmlref decides)
        f = np.argmax if n == "argMax" else np.argmin
        r = f(val("input"), axis=a["axis"], keepdims=opt.get("keepDimensions", False))
        return np.asarray(r).astype(DT[opt.get("outputDataType", "int32")])
    raise ValueError(f"operator {n}")


def bits(x):
    x = np.ascontiguousarray(x)
    return x.view(UINT[x.dtype.itemsize]) if x.dtype.kind == "f" else x


matched = inexpressible = failed = 0
for d in sys.argv[1:]:
    m = json.load(open(os.path.join(d, "manifest.json")))
    wn, path = m.get("webnn"), os.path.join(d, "webnn.json")
    if wn is None or not wn["expressible"]:
        inexpressible += 1
        if wn is None or not wn.get("reason") or os.path.exists(path):
            failed += 1
            print(f"FAIL {d}: not expressible without a reason, or with a webnn.json")
        continue
    try:
        # JSON's -0 is a float's -0.0 (JavaScript's JSON.parse keeps it; Python's int would not)
        g = json.load(open(path), parse_int=lambda t: -0.0 if t == "-0" else int(t))["graph"]
        env = {k: tensor(e) for k, e in g["inputs"].items()}
        for op in g["operators"]:
            outs, res = op["outputs"], run(op, env)
            if isinstance(outs, list):
                env.update(zip(outs, res))
            else:
                env[outs] = res
        for k, e in g["expectedOutputs"].items():
            want = tensor(e)
            got = env[k]
            assert got.dtype == want.dtype and got.shape == want.shape, f"{k}: {got.dtype}{got.shape}, want {want.dtype}{want.shape}"
            diff = np.flatnonzero(bits(got) != bits(want))
            assert diff.size == 0, f"{k}: {diff.size} elements differ, first at {diff[0]}"
        matched += 1
    except Exception as ex:  # noqa: BLE001 -- every failure is reported
        failed += 1
        print(f"FAIL {d}: {ex}")
print(f"webnn: {matched} matched, {inexpressible} not expressible, {failed} failed")
sys.exit(1 if failed else 0)
