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
const coords = (i, shape) => shape.map((n, k) => Math.floor(i / prod(shape.slice(k + 1))) % n); // row-major
const index = (c, shape) => c.reduce((a, x, k) => a * shape[k] + x, 0);
// A tensor of `shape` (the type of `like`) whose element at coordinates c is src(c).
const make = (shape, like, src) => like.constructor.from({ length: prod(shape) }, (_, i) => src(coords(i, shape)));
const along = (c, ax, v) => c.map((x, k) => (k === ax ? v : x)); // c with coordinate ax replaced

// The operator in its framework form (fw: the manifest's "framework") on row-major arrays:
// xs = [{shape, data}]; returns each output's elements, row-major, as bits (readNpy's types).
export function runBackend(fw, xs) {
  const ax = fw.axis, [x, ix] = xs, s = x.shape, at = (c) => x.data[index(c, s)];
  switch (fw.onnx) {
    case 'Gather': { // output = data[:axis] + indices + data[axis + 1:]
      const r = ix.shape.length, os = [...s.slice(0, ax), ...ix.shape, ...s.slice(ax + 1)];
      const pick = (c) => norm(ix.data[index(c.slice(ax, ax + r), ix.shape)], s[ax]);
      return [make(os, x.data, (c) => at([...c.slice(0, ax), pick(c), ...c.slice(ax + r)]))];
    }
    case 'GatherElements':
      return [make(ix.shape, x.data, (c) => at(along(c, ax, norm(ix.data[index(c, ix.shape)], s[ax]))))];
    case 'ScatterND': {
      const out = x.data.slice(), t = ix.shape[ix.shape.length - 1], slice = prod(s.slice(t)), upd = xs[2].data;
      for (let u = 0; u * t < ix.data.length; u++) {
        const to = index(ix.data.slice(u * t, u * t + t).map((v, k) => norm(v, s[k])), s.slice(0, t));
        out.set(upd.subarray(u * slice, (u + 1) * slice), to * slice);
      }
      return [out];
    }
    case 'Split': // piece k starts where the pieces before it end
      return fw.split.map((len, k) => {
        const from = fw.split.slice(0, k).reduce((a, n) => a + n, 0);
        return make(along(s, ax, len), x.data, (c) => at(along(c, ax, c[ax] + from)));
      });
    case 'Concat': { // each output element from the piece its axis coordinate falls in
      const os = along(s, ax, xs.reduce((a, p) => a + p.shape[ax], 0));
      return [make(os, x.data, (c) => {
        let k = 0, v = c[ax];
        while (v >= xs[k].shape[ax]) v -= xs[k++].shape[ax];
        return xs[k].data[index(along(c, ax, v), xs[k].shape)];
      })];
    }
    case 'ScatterElements': { // output = data, then output[c with c[axis] = indices[c]] = updates[c]
      const out = x.data.slice();
      ix.data.forEach((v, i) => { out[index(along(coords(i, ix.shape), ax, norm(v, s[ax])), s)] = xs[2].data[i]; });
      return [out];
    }
    case 'Tile': return [make(s.map((n, k) => n * fw.repeats[k]), x.data, (c) => at(c.map((v, k) => v % s[k])))];
    case 'Identity': return [x.data.slice()];
  }
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
