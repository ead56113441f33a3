// Tests a backend against dmlref's golden files, bit for bit (docs/testing-your-backend.md):
//   for f in suite/*.json; do dmlref export "$f" --out "golden/$(basename "$f" .json)"; done
//   node backend_harness.mjs golden/*/
// Replace runBackend() with calls into your device; a plain-JavaScript stand-in (backend_js_ops.mjs) is here.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { runBackend } from './backend_js_ops.mjs'; // the stand-in: replace it with your device's calls

export { runBackend };

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
