// The figures of js/README.md's "Size and speed": the sizes of the package's .wasm and .mjs
// files (raw and gzip -9), and the per-call time of a tiny gather (4 elements, 5 indices)
// through the package in node next to a plain JS loop doing the same copy (the median of
// RUNS runs of CALLS calls each).  node js/tools/bench.mjs [RUNS] [CALLS]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import * as dmlref from '../index.mjs';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const f of ['dmlref_wasm.wasm', 'dmlref_wasm.mjs', 'index.mjs', 'operators.mjs', 'functions.mjs']) {
  const b = readFileSync(join(here, f));
  console.log(`${f.padEnd(18)} ${String(b.length).padStart(8)} bytes, gzip -9 ${String(gzipSync(b, { level: 9 }).length).padStart(7)}`);
}
await dmlref.ready;
const RUNS = Number(process.argv[2] ?? 7);
const CALLS = Number(process.argv[3] ?? 10000);
const input = { dataType: 'float32', shape: [4], data: new Float32Array([11, 12, 13, 14]) };
const indices = { dataType: 'uint32', shape: [5], data: new Uint32Array([3, 1, 3, 0, 2]) };
const options = { axis: 0, indexDimensions: 1 };
const caseObject = { operator: 'GATHER', Axis: 0, IndexDimensions: 1, InputTensor: input, IndicesTensor: indices,
  OutputTensor: { dataType: 'float32', shape: [5] } };

function loop() {
  const out = new Float32Array(indices.data.length);
  for (let i = 0; i < out.length; ++i) out[i] = input.data[indices.data[i]];
  return { dataType: 'float32', shape: [out.length], data: out };
}
function median(f) {
  const t = [];
  let sink = 0;
  for (let r = 0; r < RUNS; ++r) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < CALLS; ++i) sink += f().data[0];
    t.push(Number(process.hrtime.bigint() - t0) / CALLS);
    if (sink === -1) console.log('');
  }
  t.sort((a, b) => a - b);
  return t[t.length >> 1];
}
const check = dmlref.gather(input, indices, options);
if (check.data.join() !== loop().data.join()) throw new Error('the gather and the loop differ');
const ns = (v) => (v >= 1000 ? `${(v / 1000).toFixed(1)} us` : `${v.toFixed(0)} ns`);
console.log(`node ${process.version}, ${RUNS} runs x ${CALLS} calls, median per call:`);
console.log(`  dmlref.gather (function)   ${ns(median(() => dmlref.gather(input, indices, options)))}`);
console.log(`  dmlref.run (case object)   ${ns(median(() => dmlref.run(caseObject).OutputTensor))}`);
console.log(`  plain JS loop              ${ns(median(loop))}`);
