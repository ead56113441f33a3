// ONNX Runtime (npm onnxruntime-node, CPU provider) as a dmlref check backend, over the
// ONNX models `dmlref check --onnx` has export write into each {case} directory:
//   dmlref check --onnx --form onnx --backend 'node examples/backend_ort.mjs {case} {out}' suite/
// Reads test_data_set_0/input_N.pb (TensorProto: dims 1, data_type 2, raw_data 9), runs
// model.onnx, writes each output flat as {out}/<OutputTensorName>.npy; a type ORT has no
// kernel for exits 77 (dmlref check: type-unsupported).
import { createRequire } from "module";
import fs from "fs";
const ort = createRequire(import.meta.url)(process.env.ORT_NODE || "onnxruntime-node");
const [dir, out] = process.argv.slice(2), m = JSON.parse(fs.readFileSync(`${dir}/manifest.json`));
const T = { 1: ["float32", Float32Array], 2: ["uint8", Uint8Array], 3: ["int8", Int8Array], 4: ["uint16", Uint16Array],
  5: ["int16", Int16Array], 6: ["int32", Int32Array], 7: ["int64", BigInt64Array], 9: ["bool", Uint8Array],
  10: ["float16", Uint16Array], 11: ["float64", Float64Array], 12: ["uint32", Uint32Array], 13: ["uint64", BigUint64Array] };
function varint(b, p) { let v = 0, s = 1; for (;;) { const x = b[p.i++]; v += (x & 0x7f) * s; s *= 128; if (x < 128) return v; } }
function tensor(file) { // the three TensorProto fields export writes
  const b = fs.readFileSync(file), p = { i: 0 }, dims = []; let type = 0, raw = new Uint8Array(0);
  while (p.i < b.length) {
    const key = varint(b, p);
    if ((key & 7) === 0) { const v = varint(b, p); if (key >> 3 === 1) dims.push(v); else if (key >> 3 === 2) type = v; }
    else { const n = varint(b, p); if (key >> 3 === 9) raw = new Uint8Array(b.subarray(p.i, p.i + n)); p.i += n; }
  }
  const [name, A] = T[type];
  return new ort.Tensor(name, new A(raw.buffer, raw.byteOffset, raw.byteLength / A.BYTES_PER_ELEMENT), dims);
}
function npy(file, descr, bytes) { // format 1.0, flat
  let h = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${bytes.length / Number(descr.slice(2))},), }`;
  h = h.padEnd(117, " ") + "\n"; // 10 + header = 128 bytes
  fs.writeFileSync(file, Buffer.concat([Buffer.from("\x93NUMPY\x01\x00", "latin1"), Buffer.from([h.length, 0]), Buffer.from(h), bytes]));
}
try {
  const s = await ort.InferenceSession.create(`${dir}/model.onnx`), feeds = {};
  s.inputNames.forEach((n, i) => (feeds[n] = tensor(`${dir}/test_data_set_0/input_${i}.pb`)));
  const r = await s.run(feeds);
  s.outputNames.forEach((n, k) => { const d = r[n].data;
    npy(`${out}/${m.outputs[k].name}.npy`, m.outputs[k].dtype, Buffer.from(d.buffer, d.byteOffset, d.byteLength)); });
} catch (e) {
  console.error(String(e.message || e).split("\n")[0]);
  process.exit(/NOT_IMPLEMENTED|Could not find an implementation|Failed to find kernel/.test(String(e)) ? 77 : 1);
}
