// Tests a backend against dmlref's golden files, bit for bit (docs/testing-your-backend.md):
//   for f in suite/*.json; do dmlref export "$f" --out "golden/$(basename "$f" .json)"; done
//   node backend_harness.mjs [--junit FILE] [--form onnx|webnn] golden/*/
// Replace runBackend() with calls into your device; a plain-JavaScript stand-in (backend_js_ops.mjs) is here.
// Every result gets a class of the taxonomy `dmlref check` uses (docs/testing-your-backend.md).
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { runBackend } from './backend_js_ops.mjs'; // the stand-in: replace it with your device's calls

export { runBackend };
export const CLASSES = ['pass', 'nan-payload', 'zero-sign', 'int64-53bit', 'unaddressed-bytes', 'other',
  'backend-error', 'type-unsupported', 'not-expressible'];
const FAILING = new Set(['nan-payload', 'zero-sign', 'int64-53bit', 'other', 'backend-error']);
// Throw it from the backend for a data type the device lacks: type-unsupported, not a failure.
export class TypeUnsupported extends Error {}

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

// The class of one differing element (want, got: bits of dtype), as classify.c decides it.
function kind(dtype, w, g) {
  const size = Number(dtype.slice(2)), wide = size === 8, big = (v) => BigInt(v);
  if (dtype[1] === 'f') {
    const exp = { 2: 10, 4: 23, 8: 52 }[size], mask = (1n << big(8 * size - 1)) - 1n;
    const nan = (v) => (big(v) & mask) > ((1n << big(8 * size - 1 - exp)) - 1n) << big(exp);
    if (nan(w) && nan(g)) return 'nan-payload';
    if ((big(w) & mask) === 0n && (big(g) & mask) === 0n) return 'zero-sign';
  } else if (wide && (dtype[1] === 'i' || dtype[1] === 'u')) {
    const val = (v) => (dtype[1] === 'i' ? BigInt.asIntN(64, big(v)) : big(v)), fw = Number(val(w)), fg = Number(val(g)); // index outputs: numbers
    const top = dtype[1] === 'i' ? 2 ** 63 : 2 ** 64, edge = fw >= top && (g === 1n << 63n || (dtype[1] === 'u' && g === 0n));
    if (Math.abs(fw) >= 2 ** 53 && (fw === fg || edge)) return 'int64-53bit';
  }
  return 'other';
}

// [class, detail] of one exported case.
export function check(dir, backend = runBackend, form = undefined) {
  const m = JSON.parse(fs.readFileSync(`${dir}/manifest.json`, 'utf8')), fw = m.framework;
  const why = (m.expressible || {})[form];
  if (!fw || typeof why === 'string') return ['not-expressible', why || 'no framework form'];
  const load = (t, f = 'logical') => ({ shape: fw.shapes[t.name], dtype: t.dtype, data: readNpy(`${dir}/${t[f]}`, t.indices && f === 'logical') });
  let outs;
  try { outs = backend(fw, m.inputs.map((t) => load(t))); } catch (e) {
    return [e instanceof TypeUnsupported ? 'type-unsupported' : 'backend-error', String(e)];
  }
  let cls = 'pass', detail = '';
  for (const [k, t] of m.outputs.entries()) {
    const want = load(t).data;
    let got = outs[k], c = 'pass';
    if (!got || (got.length !== want.length && got.length !== t.buffer_elements))
      return ['backend-error', `${t.name}: ${got && got.length} elements, expected ${want.length}`];
    const n = t.defined_elements ?? want.length; // only the first n elements (row-major) are defined
    if (got.length !== want.length) { // the whole buffer: the elements through the slot map, then the rest
      const whole = got, buffer = load(t, 'buffer').data, slots = readNpy(`${dir}/${t.slots}`);
      got = want.map((_, i) => whole[Number(slots[i])]);
      const undef = new Set(Array.from(slots).slice(n).map(Number)); // not unaddressed bytes
      if (want.every((w, i) => i >= n || w === got[i]) && buffer.some((b, i) => b !== whole[i] && !undef.has(i))) [c, detail] = ['unaddressed-bytes', `${t.name}: unaddressed slots differ`];
    }
    const diff = want.reduce((a, w, i) => (i < n && w !== got[i] ? [...a, i] : a), []);
    for (const i of diff) { const d = kind(t.dtype, want[i], got[i]); c = c === 'pass' || c === d ? d : 'other'; }
    if (diff.length && !detail) detail = `${t.name}: ${diff.length} of ${want.length} elements differ, first at [${diff[0]}]: got 0x${got[diff[0]].toString(16)}, expected 0x${want[diff[0]].toString(16)}`;
    cls = cls === 'pass' ? c : c === 'pass' || c === cls ? cls : 'other';
  }
  return [cls, detail];
}

export function main(argv, backend = runBackend) {
  const opts = {}, dirs = [], table = {}, results = [];
  for (let i = 0; i < argv.length; i++) (argv[i] === '--junit' || argv[i] === '--form' ? (opts[argv[i]] = argv[++i]) : dirs.push(argv[i]));
  for (const dir of dirs) {
    const [cls, detail] = check(dir, backend, opts['--form']);
    const op = JSON.parse(fs.readFileSync(`${dir}/manifest.json`, 'utf8')).operator;
    results.push({ dir, op, cls, detail });
    (table[op] ||= Object.fromEntries(CLASSES.map((c) => [c, 0])))[cls]++;
    if (cls !== 'pass') console.log(`${FAILING.has(cls) ? 'FAIL' : 'NOTE'} ${dir}: ${cls}: ${detail}`);
  }
  console.log(`${'operator'.padEnd(24)} ${CLASSES.join(' ')}`);
  for (const op of Object.keys(table).sort()) console.log(`${op.padEnd(24)} ${CLASSES.map((c) => String(table[op][c]).padStart(c.length)).join(' ')}`);
  const failed = results.filter((r) => FAILING.has(r.cls)).length;
  const skipped = results.filter((r) => r.cls === 'type-unsupported' || r.cls === 'not-expressible').length;
  if (opts['--junit']) {
    const q = (s) => `"${String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')}"`;
    const tag = (r) => (FAILING.has(r.cls) ? 'failure' : /unsupported|expressible/.test(r.cls) ? 'skipped' : '');
    fs.writeFileSync(opts['--junit'], `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="backend_harness.mjs" tests="${results.length}" failures="${failed}" skipped="${skipped}">\n${
      results.map((r) => `<testcase classname=${q(`dmlref.${r.op}`)} name=${q(r.dir)}>${tag(r) ? `<${tag(r)} type=${q(r.cls)} message=${q(r.detail)}/>` : ''}</testcase>\n`).join('')}</testsuite></testsuites>\n`);
  }
  console.log(`harness-js: ${dirs.length - failed - skipped} passed, ${failed} failed, ${skipped} skipped`);
  return failed || !dirs.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv.slice(2));
