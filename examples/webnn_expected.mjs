// The expected outputs of two WPT WebNN conformance tests (webnn/conformance_tests/*.https.any.js),
// computed by the dmlref package bit for bit (docs/webnn.md): a float16 gather whose input holds a
// NaN with a payload and -0, and an int64 scatterND whose update is beyond 2^53.  Prints the two
// tests in WPT's form, one JSON line each (float16 as numbers plus their bits; int64 as decimal strings).
//
//   npm install ./js/dmlref-<version>.tgz      (make js builds it)
//   node examples/webnn_expected.mjs
import * as dmlref from 'dmlref';

await dmlref.ready;

// float16 bits -> the Number WPT's `data` lists hold (every float16 is exact in a double)
function f16ToNumber(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0x1f) return m ? NaN : s * Infinity;
  return e ? s * 2 ** (e - 15) * (1 + m / 1024) : s * 2 ** -14 * (m / 1024);
}
const hex = (v, n) => '0x' + v.toString(16).padStart(n, '0');
const f16 = (t) => ({
  data: Array.from(t.data, f16ToNumber),
  bits: Array.from(t.data, (v) => hex(v, 4)), // what a bit-exact comparison reads
  descriptor: { shape: t.shape, dataType: t.dataType },
});
const i64 = (t) => ({ data: Array.from(t.data, String), descriptor: { shape: t.shape, dataType: t.dataType } });

// 1. gather, float16: input [6] (1, a NaN with payload 0x201, -0, -2, +inf, the smallest
// subnormal) at indices [4] = {1, 2, 5, 1}; DirectML's tensors share one DimensionCount
const input = { dataType: 'float16', shape: [6], data: new Uint16Array([0x3c00, 0x7e01, 0x8000, 0xc000, 0x7c00, 0x0001]) };
const indices = { dataType: 'int32', shape: [4], data: new Int32Array([1, 2, 5, 1]) };
const gathered = dmlref.gather(input, indices, { axis: 0, indexDimensions: 1 });
const gatherTest = {
  name: 'gather float16 with a NaN payload and -0 (dmlref)',
  graph: {
    inputs: { input: f16(input), indices: { data: Array.from(indices.data), descriptor: { shape: [4], dataType: 'int32' } } },
    operators: [{ name: 'gather', arguments: [{ input: 'input' }, { indices: 'indices' }, { options: { axis: 0 } }], outputs: 'output' }],
    expectedOutputs: { output: f16(gathered) },
  },
};

// 2. scatterND, int64: rows of input [4, 1]; row 2 replaced by 2^60 + 1 (not a double)
const data = { dataType: 'int64', shape: [4, 1], data: new BigInt64Array([1n, -(2n ** 63n), 3n, 4n]) };
const rows = { dataType: 'int64', shape: [1, 1], data: new BigInt64Array([2n]) };
const updates = { dataType: 'int64', shape: [1, 1], data: new BigInt64Array([2n ** 60n + 1n]) };
const scattered = dmlref.scatterND(data, rows, updates);
const scatterTest = {
  name: 'scatterND int64 beyond 2^53 (dmlref)',
  graph: {
    inputs: { input: i64(data), indices: i64(rows), updates: i64(updates) },
    operators: [{ name: 'scatterND', arguments: [{ input: 'input' }, { indices: 'indices' }, { updates: 'updates' }], outputs: 'output' }],
    expectedOutputs: { output: i64(scattered) },
  },
};

// JSON as `dmlref export --webnn` writes it: -0 stays -0; NaN and the infinities are the
// strings "NaN", "Infinity", "-Infinity" (JSON has no such numbers; JSON.stringify would write null)
function json(v) {
  if (typeof v === 'number') {
    if (Object.is(v, -0)) return '-0';
    return Number.isFinite(v) ? String(v) : `"${v}"`;
  }
  if (Array.isArray(v)) return `[${v.map(json).join(', ')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${json(x)}`).join(', ')}}`;
  return JSON.stringify(v);
}
for (const t of [gatherTest, scatterTest]) console.log(json(t));
