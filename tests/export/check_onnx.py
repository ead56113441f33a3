"""Checks what `dmlref export --onnx` wrote into case directories (docs/cli.md, "--onnx").

For every directory given: its manifest says whether ONNX expresses the case.  If so, the
model passes onnx.checker.check_model(full_check=True) wherever the installed onnx knows the
model's opset (a newer opset is counted and printed as not checked, never as a pass), its graph
inputs and outputs are the framework form's tensors (names, element types, shapes), and every
test_data_set_0/input_N.pb and output_N.pb is the tensor's logical view (T.logical.npy) in the
framework shape, bit for bit.  If not, the manifest gives a reason and no model.onnx exists.
Prints "onnx-check: N checked, U opset unknown to onnx X, E not expressible, F failed" and a
per-operator table; exits 1 on any failure.
"""
import collections, json, os, sys

import numpy as np
import onnx
from onnx import numpy_helper

known = onnx.defs.onnx_opset_version()
checked = unknown = inexpressible = failed = 0
per_op = collections.defaultdict(lambda: collections.Counter())


def fail(d, msg):
    global failed
    failed += 1
    print(f"FAIL {d}: {msg}")


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.dtype.itemsize}") if a.dtype.kind in "fc" else a


for d in sys.argv[1:]:
    m = json.load(open(os.path.join(d, "manifest.json")))
    on = m.get("onnx")
    op = m["operator"]
    if on is None:
        fail(d, "the manifest has no onnx entry")
        continue
    model_path = os.path.join(d, "model.onnx")
    if not on["expressible"]:
        inexpressible += 1
        per_op[op]["not expressible"] += 1
        if not on.get("reason"):
            fail(d, "not expressible without a reason")
        if os.path.exists(model_path):
            fail(d, "not expressible, yet model.onnx exists")
        continue
    model = onnx.load(model_path)
    opset = [o.version for o in model.opset_import if o.domain in ("", "ai.onnx")]
    if opset != [on["opset"]]:
        fail(d, f"opset_import {opset}, manifest {on['opset']}")
        continue
    if on["opset"] <= known:
        try:
            onnx.checker.check_model(model, full_check=True)
            checked += 1
            per_op[op]["checker passed"] += 1
        except Exception as e:  # noqa: BLE001 -- any checker complaint is a failure
            fail(d, f"onnx.checker: {str(e).splitlines()[0]}")
            continue
    else:
        unknown += 1
        per_op[op][f"opset {on['opset']} unknown to onnx {onnx.__version__}"] += 1
    fw = m["framework"]
    tensors = m["inputs"] + m["outputs"]
    vis = list(model.graph.input) + list(model.graph.output)
    if [v.name for v in vis] != [t["name"] for t in tensors]:
        fail(d, f"graph inputs/outputs {[v.name for v in vis]}")
        continue
    for v, t in zip(vis, tensors):
        shape = [x.dim_value for x in v.type.tensor_type.shape.dim]
        if shape != fw["shapes"][t["name"]]:
            fail(d, f"{t['name']}: graph shape {shape}, framework {fw['shapes'][t['name']]}")
    n_in = len(m["inputs"])
    for k, t in enumerate(tensors):
        pb = os.path.join(d, "test_data_set_0", f"input_{k}.pb" if k < n_in else f"output_{k - n_in}.pb")
        tp = onnx.TensorProto()
        tp.ParseFromString(open(pb, "rb").read())
        got = numpy_helper.to_array(tp)
        want = np.load(os.path.join(d, t["logical"])).reshape(fw["shapes"][t["name"]])
        if tp.name != t["name"] or got.dtype != want.dtype or got.shape != want.shape:
            fail(d, f"{pb}: {tp.name} {got.dtype} {got.shape}, want {t['name']} {want.dtype} {want.shape}")
        elif not np.array_equal(bits(got), bits(want)):
            fail(d, f"{pb}: values differ from {t['logical']}")

print(f"{'operator':24} counts")
for op in sorted(per_op):
    print(f"{op:24} " + ", ".join(f"{v} {k}" for k, v in sorted(per_op[op].items())))
print(f"onnx-check: {checked} checked, {unknown} opset unknown to onnx {onnx.__version__}, "
      f"{inexpressible} not expressible, {failed} failed")
sys.exit(1 if failed else 0)
