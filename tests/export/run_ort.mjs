// Runs every ONNX model `dmlref export --onnx` wrote under the given case directories on
// ONNX Runtime's CPU provider (the npm package onnxruntime-node, found through NODE_PATH or
// ORT_NODE, a path to its package directory) and compares each output with the test data's
// output_N.pb bit for bit.  Reads TensorProto itself (dims = 1, data_type = 2, name = 8,
// raw_data = 9), so the .pb files are checked by a decoder other than onnx's.
// Prints one line per case that does not match ("mismatch DIR OUTPUT: k of n elements differ,
// first at i: got 0x.., want 0x..") or that ORT cannot run ("no-kernel DIR: ..."), then
// "ort: M matched, D differ, N known, K no kernel, E errors".  Known divergences of ORT
// (issue 25), printed as "known CLASS DIR ...": "nan-bits", every differing element a NaN in
// both (ORT runs float16 through float32 Casts, which quiet signalling NaNs), "pad-wrap",
// Pad in wrap mode (ORT reads out of bounds when a pad exceeds the axis), "zero-sign", every
// differing element a zero in both (ORT's CPU Where gives +0.0 where it selects -0.0), and
// "resize-scale1", Resize tf_half_pixel_for_nn with nearest_mode ceil and a scale of 1 (ORT
// leaves such an axis as it is; ONNX's formula, as DirectML's, maps o to ceil(o + 0.5) = o + 1).
// Exit 0 when D + E is 0, else 1.
import { createRequire } from "module";
import fs from "fs";
import path from "path";
const require = createRequire(import.meta.url);
const ort = require(process.env.ORT_NODE || "onnxruntime-node");
// Written synchronously: ORT may crash the process, and console.log to a pipe is asynchronous.
const say = (line) => fs.writeSync(1, line + "\n");

function varint(b, p) {
  let v = 0n, s = 0n;
  for (;;) { const x = b[p.i++]; v |= BigInt(x & 0x7f) << s; s += 7n; if (x < 0x80) return v; }
}
function readTensor(file) {
  const b = fs.readFileSync(file), p = { i: 0 }, t = { dims: [], type: 0, name: "", raw: new Uint8Array(0) };
  while (p.i < b.length) {
    const key = Number(varint(b, p)), field = key >> 3, wire = key & 7;
    if (wire === 0) { const v = varint(b, p); if (field === 1) t.dims.push(Number(v)); else if (field === 2) t.type = Number(v); }
    else if (wire === 2) {
      const n = Number(varint(b, p)), v = b.subarray(p.i, p.i + n); p.i += n;
      if (field === 8) t.name = v.toString("utf8"); else if (field === 9) t.raw = new Uint8Array(v);
    } else throw new Error(`${file}: wire type ${wire}`);
  }
  return t;
}
const TYPES = { 1: ["float32", Float32Array], 2: ["uint8", Uint8Array], 3: ["int8", Int8Array], 4: ["uint16", Uint16Array],
  5: ["int16", Int16Array], 6: ["int32", Int32Array], 7: ["int64", BigInt64Array], 9: ["bool", Uint8Array],
  10: ["float16", Uint16Array], 11: ["float64", Float64Array], 12: ["uint32", Uint32Array], 13: ["uint64", BigUint64Array] };
function toOrt(t) {
  const [name, A] = TYPES[t.type];
  const buf = t.raw.buffer.slice(t.raw.byteOffset, t.raw.byteOffset + t.raw.byteLength);
  return new ort.Tensor(name, new A(buf), t.dims);
}
const hex = (u8, i, w) => "0x" + Array.from(u8.subarray(i * w, i * w + w)).reverse().map((x) => x.toString(16).padStart(2, "0")).join("");

// The known divergence a mismatch is, or "" (see the header).
function knownWhy(allNaN, allZero, fw) {
  if (allNaN) return "nan-bits";
  if (allZero) return "zero-sign";
  if (fw.mode === "wrap") return "pad-wrap";
  if (fw.onnx === "Resize" && fw.mode === "tf_half_pixel_for_nn" && fw.nearest_mode === "ceil" && (fw.scales || []).includes(1))
    return "resize-scale1";
  return "";
}
function isZeroBits(u8, i, w) { // +0.0 or -0.0
  for (let k = 0; k < w; k++) if ((k === w - 1 ? u8[i * w + k] & 0x7f : u8[i * w + k]) !== 0) return false;
  return true;
}
function isNaNBits(u8, i, w) {
  let v = 0n;
  for (let k = w - 1; k >= 0; k--) v = (v << 8n) | BigInt(u8[i * w + k]);
  const [eb, mb] = w === 2 ? [5n, 10n] : w === 4 ? [8n, 23n] : [11n, 52n];
  return ((v >> mb) & ((1n << eb) - 1n)) === (1n << eb) - 1n && (v & ((1n << mb) - 1n)) !== 0n;
}
let matched = 0, differ = 0, known = 0, nokernel = 0, errors = 0;
for (const dir of process.argv.slice(2)) {
  const model = path.join(dir, "model.onnx"), data = path.join(dir, "test_data_set_0");
  if (!fs.existsSync(model)) continue;
  if (process.env.ORT_TRACE) say(`case ${dir}`);
  const files = fs.readdirSync(data).sort();
  const ins = files.filter((f) => f.startsWith("input_")).sort((a, b) => parseInt(a.slice(6)) - parseInt(b.slice(6)));
  const outs = files.filter((f) => f.startsWith("output_")).sort((a, b) => parseInt(a.slice(7)) - parseInt(b.slice(7)));
  let session;
  try {
    session = await ort.InferenceSession.create(model, { graphOptimizationLevel: process.env.ORT_OPT || "all", logSeverityLevel: 3 });
  } catch (e) {
    const m = String(e.message || e);
    if (/NOT_IMPLEMENTED|Could not find an implementation|Failed to find kernel/.test(m)) { nokernel++; say(`no-kernel ${dir}: ${m.split("\n")[0].slice(0, 200)}`); }
    else { errors++; say(`error ${dir}: ${m.split("\n")[0].slice(0, 300)}`); }
    continue;
  }
  const feeds = {};
  for (const f of ins) { const t = readTensor(path.join(data, f)); feeds[t.name] = toOrt(t); }
  let res;
  try { res = await session.run(feeds); } catch (e) {
    errors++; say(`error ${dir}: run: ${String(e.message || e).split("\n")[0].slice(0, 300)}`); continue;
  }
  let ok = true, allNaN = true, allZero = true;
  const fw = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8")).framework || {};
  for (const f of outs) {
    const want = readTensor(path.join(data, f)), got = res[want.name];
    const gd = got.data, g8 = new Uint8Array(gd.buffer, gd.byteOffset, gd.byteLength);
    const w = TYPES[want.type][1].BYTES_PER_ELEMENT;
    if (JSON.stringify(got.dims) !== JSON.stringify(want.dims) || g8.length !== want.raw.length) {
      ok = false; allNaN = false; say(`mismatch ${dir} ${want.name}: shape [${got.dims}], want [${want.dims}]`); continue;
    }
    let n = 0, first = -1;
    for (let i = 0; i < want.raw.length / w; i++) {
      for (let k = 0; k < w; k++) if (g8[i * w + k] !== want.raw[i * w + k]) {
        n++; if (first < 0) first = i;
        if (![1, 10, 11].includes(want.type) || !isNaNBits(g8, i, w) || !isNaNBits(want.raw, i, w)) allNaN = false;
        if (![1, 10, 11].includes(want.type) || !isZeroBits(g8, i, w) || !isZeroBits(want.raw, i, w)) allZero = false;
        break;
      }
    }
    if (JSON.stringify(got.dims) !== JSON.stringify(want.dims)) allNaN = allZero = false;
    if (n) {
      ok = false;
      const why = knownWhy(allNaN, allZero, fw);
      say(`${why ? "known " + why : "mismatch"} ${dir} ${want.name}: ${n} of ${want.raw.length / w} elements differ, first at ${first}: got ${hex(g8, first, w)}, want ${hex(want.raw, first, w)}`);
    }
  }
  if (ok) matched++; else if (knownWhy(allNaN, allZero, fw)) known++; else differ++;
}
say(`ort: ${matched} matched, ${differ} differ, ${known} known, ${nokernel} no kernel, ${errors} errors`);
process.exit(differ + errors ? 1 : 0);
