// Tests a backend against dmlref's golden files, bit for bit (docs/testing-your-backend.md):
//   for f in suite/*.json; do dmlref export "$f" --out "golden/$(basename "$f" .json)"; done
//   node backend_harness.mjs golden/*/
// Replace runBackend() with calls into your device; a plain-JavaScript stand-in is here.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

// A .npy file as dmlref writes it (format 1.0, little-endian, read on a little-endian host): data
// elements as unsigned integers of their width (bits: NaN payloads, -0.0 exact), indices as numbers.
const BITS = { 1: Uint8Array, 2: Uint16Array, 4: Uint32Array, 8: BigUint64Array };
const INDEX = { '<i4': Int32Array, '<u4': Uint32Array, '<i8': BigInt64Array, '<u8': BigUint64Array };
export function readNpy(file, asIndex) {
  const buf = fs.readFileSync(file), hlen = buf.readUInt16LE(8), header = buf.toString('latin1', 10, 10 + hlen);
  const dtype = /'descr': '([^']+)'/.exec(header)[1];
  const bytes = buf.buffer.slice(buf.byteOffset + 10 + hlen, buf.byteOffset + buf.length);
  const data = new (asIndex ? INDEX[dtype] : BITS[dtype.slice(2)])(bytes);
  return asIndex ? Array.from(data, Number) : data;
}

const prod = (a) => a.reduce((x, y) => x * y, 1);
const norm = (v, n) => (v < 0 ? v + n : v); // negative indices count from the end

// The operator in its framework form (fw: the manifest's "framework") on row-major arrays:
// xs = [{shape, data}]; returns each output's elements, row-major, as bits (readNpy's types).
export function runBackend(fw, xs) {
  const ax = fw.axis, s = xs[0].shape, d = xs[0].data, n = s[ax];
  const outer = prod(s.slice(0, ax)), inner = prod(s.slice(ax + 1)), alloc = (len) => new d.constructor(len);
  const move = (out, to, from, len) => out.set(d.subarray(from, from + len), to);
  if (fw.onnx === 'Gather') {
    const idx = xs[1].data, out = alloc(outer * idx.length * inner);
    for (let o = 0; o < outer; o++)
      idx.forEach((v, j) => move(out, (o * idx.length + j) * inner, (o * n + norm(v, n)) * inner, inner));
    return [out];
  }
  if (fw.onnx === 'GatherElements') {
    const idx = xs[1].data, na = xs[1].shape[ax];
    return [d.constructor.from(idx, (v, i) => d[(Math.floor(i / (na * inner)) * n + norm(v, n)) * inner + (i % inner)])];
  }
  if (fw.onnx === 'ScatterND') {
    const [, idx, upd] = xs, t = idx.shape[idx.shape.length - 1], slice = prod(s.slice(t)), out = d.slice();
    for (let u = 0; u < idx.data.length / t; u++) {
      let at = 0;
      for (let k = 0; k < t; k++) at = at * s[k] + norm(idx.data[u * t + k], s[k]);
      out.set(upd.data.subarray(u * slice, (u + 1) * slice), at * slice);
    }
    return [out];
  }
  if (fw.onnx === 'Split') {
    let base = 0;
    return fw.split.map((len) => {
      const out = alloc(outer * len * inner);
      for (let o = 0; o < outer; o++) move(out, o * len * inner, (o * n + base) * inner, len * inner);
      base += len;
      return out;
    });
  }
  if (fw.onnx === 'Concat') {
    const total = xs.reduce((a, x) => a + x.shape[ax], 0), out = alloc(outer * total * inner);
    let base = 0;
    for (const x of xs) {
      const len = x.shape[ax] * inner;
      for (let o = 0; o < outer; o++) out.set(x.data.subarray(o * len, (o + 1) * len), o * total * inner + base);
      base += len;
    }
    return [out];
  }
  if (fw.onnx === 'Identity') return [d.slice()];
  throw new Error(`no stand-in for ${fw.onnx}`);
}

// The problems found in one exported case (none: it passes).
export function check(dir, backend = runBackend) {
  const m = JSON.parse(fs.readFileSync(`${dir}/manifest.json`, 'utf8')), fw = m.framework;
  const load = (t) => ({ shape: fw.shapes[t.name], data: readNpy(`${dir}/${t.logical}`, t.indices) });
  const outs = backend(fw, m.inputs.map(load));
  return m.outputs.flatMap((t, k) => {
    const want = load(t).data, got = outs[k];
    if (!got || got.length !== want.length) return [`${t.name}: ${got && got.length} elements, expected ${want.length}`];
    const i = want.findIndex((w, i) => w !== got[i]);
    return i < 0 ? [] : [`${t.name}[${i}]: got 0x${got[i].toString(16)}, expected 0x${want[i].toString(16)}`];
  });
}

export function main(dirs, backend = runBackend) {
  let failed = 0;
  for (const dir of dirs) {
    let problems; // a backend that throws fails the case
    try { problems = check(dir, backend); } catch (e) { problems = [String(e)]; }
    if (problems.length) failed++;
    for (const p of problems) console.log(`FAIL ${dir}: ${p}`);
  }
  console.log(`harness-js: ${dirs.length - failed} passed, ${failed} failed`);
  return failed || !dirs.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv.slice(2));
