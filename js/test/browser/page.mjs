// The browser side of make test-js-browser (run.mjs): imports the package from /pkg/ as a web
// page does, runs every case of /manifest.json with run(caseText, {files}) and compares with
// what the command gave (exit status; output bytes; the error's message), then a float16 gather
// with NaN payloads and -0 and an int64 scatterND beyond 2^53 through the operator functions.
// Posts {pass, fail, failures, ...} to /result.
const status = document.getElementById('status');
const post = (r) => fetch('/result', { method: 'POST', body: JSON.stringify(r) });

function b64(s) {
  const bin = atob(s);
  const b = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; ++i) b[i] = bin.charCodeAt(i);
  return b;
}
const bytesOf = (t) => new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
function sameBytes(a, b) {
  if (a.length !== b.length) return `lengths ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; ++i) if (a[i] !== b[i]) return `byte ${i}: ${a[i]} and ${b[i]}`;
  return '';
}

let pass = 0;
let fail = 0;
const failures = [];
function check(ok, what) {
  if (ok) ++pass;
  else {
    ++fail;
    if (failures.length < 50) failures.push(what);
  }
}

function runCase(dmlref, c) {
  const files = {};
  for (const [rel, s] of Object.entries(c.files)) files[rel] = b64(s);
  let outputs = null;
  let err = null;
  try {
    outputs = dmlref.run(c.text, { files, onWarning: () => {} });
  } catch (e) {
    err = e;
  }
  if (err && !(err instanceof dmlref.DmlrefError)) {
    check(false, `${c.name}: ${err.stack || err}`);
    return;
  }
  const rc = err ? err.exitCode : 0;
  if (rc !== c.exit) {
    check(false, `${c.name}: exit ${rc}${err ? ` (${err.message})` : ''}, the command's ${c.exit} (${c.stderr})`);
    return;
  }
  if (err && !c.stderr.includes(err.message)) {
    check(false, `${c.name}: message "${err.message}", the command's "${c.stderr}"`);
    return;
  }
  const got = err ? err.outputs ?? {} : outputs;
  const names = Object.keys(c.expected).sort();
  if (names.join() !== Object.keys(got).sort().join()) {
    check(false, `${c.name}: outputs ${Object.keys(got).sort().join()}, the command's ${names.join()}`);
    return;
  }
  for (const n of names) {
    const d = sameBytes(bytesOf(got[n]), b64(c.expected[n]));
    if (d) {
      check(false, `${c.name}: ${n}: ${d}`);
      return;
    }
  }
  check(true);
}

// Bits that JS Numbers would lose: float16 NaN payloads and -0 through gather, an int64 beyond
// 2^53 through scatterND (the operator functions, derive_output_sizes).
function special(dmlref) {
  const input = { dataType: 'float16', shape: [4], data: new Uint16Array([0x7e01, 0x8000, 0xfc00, 0x3c00]) };
  const indices = { dataType: 'uint32', shape: [5], data: new Uint32Array([3, 1, 0, 0, 2]) };
  const g = dmlref.gather(input, indices, { axis: 0, indexDimensions: 1 });
  const out = g.OutputTensor ?? g;
  check(out.dataType === 'float16' && String(out.shape) === '5' &&
    String(Array.from(out.data)) === String([0x3c00, 0x8000, 0x7e01, 0x7e01, 0xfc00]),
    `gather float16: ${out.dataType} [${out.shape}] ${Array.from(out.data, (v) => v.toString(16))}`);
  const big = 2n ** 60n + 1n;
  // DirectML's tensors share one DimensionCount: rows of [4, 1], the row index 2
  const data = { dataType: 'int64', shape: [4, 1], data: new BigInt64Array([1n, 2n, 3n, -(2n ** 63n)]) };
  const idx = { dataType: 'int64', shape: [1, 1], data: new BigInt64Array([2n]) };
  const upd = { dataType: 'int64', shape: [1, 1], data: new BigInt64Array([big]) };
  const s = dmlref.scatterND(data, idx, upd, {});
  const so = s.OutputTensor ?? s;
  check(so.dataType === 'int64' && String(Array.from(so.data)) === String([1n, 2n, big, -(2n ** 63n)]),
    `scatterND int64: ${so.dataType} ${Array.from(so.data)}`);
  let e = null;
  try {
    dmlref.gather(input, indices, { axis: 3, indexDimensions: 1 });
  } catch (x) {
    e = x;
  }
  check(e instanceof dmlref.DmlrefError && e.operator === 'GATHER' && e.field === 'Axis' && e.rule !== '',
    `gather axis 3: ${e && `${e.name} ${e.operator} ${e.field} ${e.rule} ${e.message}`}`);
}

try {
  const dmlref = await import('/pkg/index.mjs');
  await dmlref.ready;
  const m = await (await fetch('/manifest.json')).json();
  for (const c of m.cases) runCase(dmlref, c);
  special(dmlref);
  status.textContent = `${pass} passed, ${fail} failed`;
  await post({ pass, fail, failures, cases: m.cases.length, version: dmlref.version(), userAgent: navigator.userAgent });
} catch (e) {
  status.textContent = String(e.stack || e);
  await post({ pass, fail: fail + 1, failures: [...failures, String(e.stack || e)], cases: 0, version: '?',
    userAgent: navigator.userAgent });
}
