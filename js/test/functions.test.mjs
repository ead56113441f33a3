// The operator functions (functions.mjs, generated from the schema): every operator called
// through its function on `dmlref gen --packed` cases (inputs as typed arrays read from
// `dmlref export`'s .npy files, bit for bit), outputs and derived shapes equal to the
// command's on the case file; then float16 NaN payloads and -0 through gather, an int64
// beyond 2^53 through scatterND, and an invalid axis's DmlrefError against the command's.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';

import * as dmlref from '../index.mjs';
import { OPERATORS } from '../operators.mjs';
import { bytesOf, cli, firstDiff, NO_CLI, npyPayload, runNative, tempDir } from './helpers.mjs';

await dmlref.ready;

const CTORS = { FLOAT32: Float32Array, FLOAT16: Uint16Array, UINT32: Uint32Array, UINT16: Uint16Array,
  UINT8: Uint8Array, INT32: Int32Array, INT16: Int16Array, INT8: Int8Array, FLOAT64: Float64Array,
  UINT64: BigUint64Array, INT64: BigInt64Array };
const camel = (s) => s.charAt(0).toLowerCase() + s.slice(1);

function tensorFromNpy(desc, path) {
  const bytes = npyPayload(readFileSync(path));
  const ctor = CTORS[desc.DataType];
  const data = new ctor(bytes.length / ctor.BYTES_PER_ELEMENT);
  new Uint8Array(data.buffer).set(bytes);
  return { dataType: desc.DataType.toLowerCase(), shape: desc.Sizes, data };
}

/** The function call equivalent to a case file: [inputs, options]. */
function callOf(c, exportDir) {
  const op = OPERATORS[c.operator];
  const inputs = op.inputs.map((slot) => {
    const v = c[slot.name];
    if (v === undefined) return null;
    return slot.array ? v.map((d, i) => tensorFromNpy(d, join(exportDir, `${slot.name}_${i}.npy`)))
      : tensorFromNpy(v, join(exportDir, `${slot.name}.npy`));
  });
  const options = { featureLevel: c.feature_level };
  for (const p of op.params) if (c[p.name] !== undefined) options[camel(p.name)] = c[p.name];
  const outs = op.outputs.map((s) => c[s.name]);
  const hasInput = inputs.some((x) => x !== null);
  const extras = [...op.extra, ...(hasInput ? [] : op.extraWithoutInput ?? [])];
  for (const e of extras) {
    if (e === 'sizes') options.sizes = outs[0].map((d) => d.Sizes[c.Axis]);
    else if (e === 'depth') options.depth = outs[0].Sizes[c.Axis];
    else if (e === 'shape') options.shape = outs[0].Sizes;
    else if (e === 'components') options.components = outs[op.outputs.length - 1].Sizes.at(-1);
    else if (e === 'dtype') options.dtype = outs[0].DataType.toLowerCase();
  }
  // an output type other than the one the function picks (TOP_K1's UINT64 indices)
  op.outputs.forEach((slot, i) => {
    const d = slot.array ? outs[i][0] : outs[i];
    const dflt = op.slotDtype?.[slot.name];
    if (dflt && d.DataType.toLowerCase() !== dflt) (options.outputDataTypes ??= {})[slot.name] = d.DataType.toLowerCase();
  });
  return [inputs, options];
}

// Where DirectML leaves an output's shape free below a bound (SLICE1's SL7 `<=`, NONZERO_COORDINATES'
// rows), the library derives the largest: such a case is compared with the command's run of the
// function's own case (caseFile) instead of the drawn one.
const FREE_SHAPE = new Set(['SLICE1', 'NONZERO_COORDINATES'])

const dir = NO_CLI ? null : tempDir('dmlref-js-fn-');
after(() => dir && rmSync(dir, { recursive: true, force: true }));
const cases = [];
if (dir) {
  const r = cli(['gen', '--operator', 'ALL', '--count', '3', '--packed', '--seed', '77', '--out', join(dir, 'gen')]);
  if (r.rc !== 0) throw new Error(r.stderr);
  const e = cli(['export', join(dir, 'gen'), '--out', join(dir, 'export')]);
  if (e.rc !== 0) throw new Error(e.stderr);
  const exported = readdirSync(join(dir, 'export'));
  for (const f of readdirSync(join(dir, 'gen')).sort()) {
    const name = f.replace(/\.json$/, '');
    const ex = exported.find((d) => d.replace(/^\d+_/, '') === name);
    cases.push({ path: join(dir, 'gen', f), exportDir: join(dir, 'export', ex) });
  }
}

const covered = new Set();
for (const { path, exportDir } of cases) {
  test(`functions: ${path.split('/').at(-1)}`, () => {
    const c = JSON.parse(readFileSync(path, 'utf8'));
    const op = OPERATORS[c.operator];
    const [inputs, options] = callOf(c, exportDir);
    const result = dmlref[op.fn](...inputs, options);
    const slots = op.outputs.length === 1 ? { [op.outputs[0].name]: result } : result;
    const shapesDiffer = op.outputs.some((slot) => {
      const got = slot.array ? slots[slot.name] : [slots[slot.name]];
      const descs = slot.array ? c[slot.name] : [c[slot.name]];
      return descs.some((d, i) => JSON.stringify(got[i]?.shape) !== JSON.stringify(d.Sizes));
    });
    let want;
    if (shapesDiffer && FREE_SHAPE.has(c.operator)) {
      const where = tempDir();
      try {
        const own = caseFile(c.operator, inputs, options, where);
        const derived = JSON.parse(readFileSync(own, 'utf8'));
        for (const slot of op.outputs) {
          c[slot.name] = op.outputs.length === 1 ? { ...c[slot.name], Sizes: slots[slot.name].shape }
            : { ...c[slot.name], Sizes: slots[slot.name].shape };
          assert.ok(derived[slot.name].DataType);
        }
        want = runNative(own);
      } finally {
        rmSync(where, { recursive: true, force: true });
      }
    } else {
      want = runNative(path);
    }
    assert.equal(want.rc, 0, want.stderr);
    for (const slot of op.outputs) {
      const got = slot.array ? slots[slot.name] : [slots[slot.name]];
      const descs = slot.array ? c[slot.name] : [c[slot.name]];
      assert.equal(got.length, descs.length, `${slot.name}: count`);
      descs.forEach((d, i) => {
        const t = got[i];
        assert.deepEqual(t.shape, d.Sizes, `${slot.name}[${i}]: the derived shape`);
        assert.equal(t.dataType, d.DataType.toLowerCase());
        const ref = want.outputs[slot.array ? `${slot.name}_${i}` : slot.name];
        const n = d.Sizes.reduce((a, b) => a * b, 1) * t.data.BYTES_PER_ELEMENT;
        const k = firstDiff(bytesOf(t), ref.subarray(0, n));
        assert.equal(k, -1, `${slot.name}[${i}]: ${k === -2 ? 'lengths differ' : `byte ${k} differs`}`);
      });
    }
    covered.add(c.operator);
  });
}

test('functions: every operator of the registry was called', { skip: NO_CLI }, () => {
  assert.deepEqual([...covered].sort(), Object.keys(OPERATORS).sort());
  for (const op of Object.values(OPERATORS)) assert.equal(typeof dmlref[op.fn], 'function', op.fn);
  for (const fn of ['gather', 'gatherElements', 'gatherND', 'scatterElements', 'scatterND', 'split', 'join',
    'slice', 'tile', 'padding', 'depthToSpace', 'spaceToDepth', 'oneHot', 'reverseSubsequences', 'diagonalMatrix',
    'elementWiseIdentity']) assert.equal(typeof dmlref[fn], 'function', fn);
});

/** Writes the case an operator call builds as a case file (typed arrays as .npy files). */
function caseFile(opName, inputs, options, where) {
  const c = dmlref.operatorCase(opName, inputs, options);
  const files = {};
  const conv = (t, name) => {
    if (!t || !ArrayBuffer.isView(t.data)) return t;
    const rel = `${name}.npy`;
    files[rel] = t;
    return { DataType: t.dataType.toUpperCase(), Sizes: t.shape, npy: rel };
  };
  for (const [k, v] of Object.entries(c)) {
    if (Array.isArray(v) && v[0]?.data) c[k] = v.map((t, i) => conv(t, `${k}_${i}`));
    else if (v && typeof v === 'object' && !Array.isArray(v)) c[k] = conv(v, k);
  }
  for (const [rel, t] of Object.entries(files)) {
    const descr = { float32: '<f4', float16: '<f2', uint32: '<u4', uint16: '<u2', uint8: '|u1', int32: '<i4', int16: '<i2',
      int8: '|i1', float64: '<f8', uint64: '<u8', int64: '<i8' }[t.dataType];
    let h = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${t.data.length},), }`;
    h += ' '.repeat((64 - ((10 + h.length + 1) % 64)) % 64) + '\n';
    const head = new Uint8Array(10 + h.length);
    head.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, h.length & 0xff, h.length >> 8]);
    for (let i = 0; i < h.length; ++i) head[10 + i] = h.charCodeAt(i);
    writeFileSync(join(where, rel), Buffer.concat([head, bytesOf(t)]));
  }
  const path = join(where, `${opName.toLowerCase()}.json`);
  writeFileSync(path, JSON.stringify(c, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
  return path;
}

test('gather: float16 NaN payload 0x7e01 and -0 (0x8000) keep their bits', { skip: NO_CLI }, () => {
  const input = { dataType: 'float16', shape: [4], data: new Uint16Array([0x7e01, 0x8000, 0x3c00, 0xfc01]) };
  const indices = { dataType: 'uint32', shape: [5], data: new Uint32Array([3, 1, 0, 1, 2]) };
  const out = dmlref.gather(input, indices, { axis: 0, indexDimensions: 1 });
  assert.equal(out.dataType, 'float16');
  assert.deepEqual(out.shape, [5]);
  assert.ok(out.data instanceof Uint16Array);
  assert.deepEqual(Array.from(out.data), [0xfc01, 0x8000, 0x7e01, 0x8000, 0x3c00]);
  const where = tempDir();
  try {
    const want = runNative(caseFile('GATHER', [input, indices], { axis: 0, indexDimensions: 1 }, where));
    assert.equal(want.rc, 0, want.stderr);
    assert.equal(firstDiff(bytesOf(out), want.outputs.OutputTensor.subarray(0, 10)), -1);
  } finally {
    rmSync(where, { recursive: true, force: true });
  }
  if (typeof globalThis.Float16Array === 'function') {
    const f = dmlref.gather({ ...input, data: new globalThis.Float16Array(input.data.buffer) }, indices, { axis: 0, indexDimensions: 1 });
    assert.deepEqual(Array.from(f.data), [0xfc01, 0x8000, 0x7e01, 0x8000, 0x3c00]);
  }
});

test('scatterND: int64 2^60 + 1 and -(2^63) survive', { skip: NO_CLI }, () => {
  const big = 2n ** 60n + 1n;
  const input = { dataType: 'int64', shape: [1, 4], data: new BigInt64Array([1n, 2n, 3n, 4n]) };
  const indices = { dataType: 'int64', shape: [2, 1], data: new BigInt64Array([2n, 0n]) };
  const updates = { dataType: 'int64', shape: [1, 2], data: new BigInt64Array([big, -(2n ** 63n)]) };
  const dims = { inputDimensionCount: 1, indicesDimensionCount: 2 };
  const out = dmlref.scatterND(input, indices, updates, dims);
  assert.deepEqual(out.shape, [1, 4]);
  assert.ok(out.data instanceof BigInt64Array);
  assert.deepEqual(Array.from(out.data), [-(2n ** 63n), 2n, big, 4n]);
  const where = tempDir();
  try {
    const want = runNative(caseFile('SCATTER_ND', [input, indices, updates], dims, where));
    assert.equal(want.rc, 0, want.stderr);
    assert.equal(firstDiff(bytesOf(out), want.outputs.OutputTensor), -1);
  } finally {
    rmSync(where, { recursive: true, force: true });
  }
  // through run() with inline int64 strings too
  const r = dmlref.run({ operator: 'SCATTER_ND', InputDimensionCount: 1, IndicesDimensionCount: 2,
    InputTensor: { DataType: 'INT64', Sizes: [1, 4], data: ['1', '2', '3', '4'] },
    IndicesTensor: { DataType: 'INT64', Sizes: [2, 1], data: [2, 0] },
    UpdatesTensor: { DataType: 'INT64', Sizes: [1, 2], data: [big, '-9223372036854775808'] },
    OutputTensor: { DataType: 'INT64', Sizes: [1, 4] } });
  assert.deepEqual(Array.from(r.OutputTensor.data), [-(2n ** 63n), 2n, big, 4n]);
});

test('DmlrefError: an invalid axis, its status, operator, field, rule and message as the command gives them', { skip: NO_CLI }, () => {
  const input = { dataType: 'float32', shape: [2, 3], data: new Float32Array(6) };
  const indices = { dataType: 'uint32', shape: [1, 2], data: new Uint32Array([0, 1]) };
  let err;
  try {
    dmlref.gather(input, indices, { axis: 5, indexDimensions: 1 });
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof dmlref.DmlrefError);
  assert.ok(err instanceof Error);
  assert.equal(err.operator, 'GATHER');
  assert.equal(err.field, 'Axis');
  assert.equal(err.exitClass, 'invalid');
  // the command on the same case (shapes given, as derive_output_sizes cannot derive them here)
  const where = tempDir();
  try {
    const path = join(where, 'bad_axis.json');
    writeFileSync(path, JSON.stringify({ operator: 'GATHER', Axis: 5, IndexDimensions: 1,
      InputTensor: { DataType: 'FLOAT32', Sizes: [2, 3], data: [0, 0, 0, 0, 0, 0] },
      IndicesTensor: { DataType: 'UINT32', Sizes: [1, 2], data: [0, 1] },
      OutputTensor: { DataType: 'FLOAT32', Sizes: [2, 3] } }));
    const v = JSON.parse(cli(['validate', path, '--json']).stdout);
    assert.equal(v.valid, false);
    assert.equal(err.status, v.status);
    assert.equal(err.rule, v.rule);
    assert.equal(err.field, v.field);
    assert.equal(err.message, v.message);
    assert.match(err.rule, /^G\d+$/);
    const want = runNative(path);
    assert.equal(want.rc, 2);
    assert.ok(want.stderr.includes(err.message));
  } finally {
    rmSync(where, { recursive: true, force: true });
  }
});

test('run(caseObject, {files}): a case whose npy references come as bytes', () => {
  const npy = (descr, arr) => {
    let h = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${arr.length},), }`;
    h += ' '.repeat((64 - ((10 + h.length + 1) % 64)) % 64) + '\n';
    const out = new Uint8Array(10 + h.length + arr.byteLength);
    out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, h.length & 0xff, h.length >> 8]);
    for (let i = 0; i < h.length; ++i) out[10 + i] = h.charCodeAt(i);
    out.set(new Uint8Array(arr.buffer), 10 + h.length);
    return out;
  };
  const r = dmlref.run({ operator: 'GATHER', Axis: 0, IndexDimensions: 1,
    InputTensor: { DataType: 'FLOAT16', Sizes: [2], npy: 'in/x.npy' },
    IndicesTensor: { DataType: 'UINT32', Sizes: [3], data: [1, 0, 1] },
    OutputTensor: { DataType: 'FLOAT16', Sizes: [3] } },
  { files: { 'in/x.npy': npy('<f2', new Uint16Array([0x7e01, 0x8000])) } });
  assert.deepEqual(Array.from(r.OutputTensor.data.subarray(0, 3)), [0x8000, 0x7e01, 0x8000]);
  assert.throws(() => dmlref.run({ operator: 'GATHER' }), (e) => e instanceof dmlref.DmlrefError && e.status === 'CASE_MALFORMED' && e.exitCode === 3);
  assert.throws(() => dmlref.run('{"operator": '), (e) => e instanceof dmlref.DmlrefError && e.exitClass === 'malformed');
});

test('large typed arrays (past the inline limit: .npy in the in-memory file system) keep their bits', () => {
  const n = 5000;
  const f16 = new Uint16Array(n);
  const i64 = new BigInt64Array(n);
  for (let i = 0; i < n; ++i) {
    f16[i] = (i * 2654435761) & 0xffff; // every kind of pattern: NaN payloads, -0, subnormals
    i64[i] = (BigInt(i) << 50n) + 1n - (i % 2 ? 2n ** 62n : 0n);
  }
  f16[7] = 0x7e01;
  f16[8] = 0x8000;
  const rev = new Uint32Array(n);
  for (let i = 0; i < n; ++i) rev[i] = n - 1 - i;
  const idx = { dataType: 'uint32', shape: [n], data: rev };
  const a = dmlref.gather({ dataType: 'float16', shape: [n], data: f16 }, idx, { axis: 0, indexDimensions: 1 });
  const b = dmlref.gather({ dataType: 'int64', shape: [n], data: i64 }, idx, { axis: 0, indexDimensions: 1 });
  assert.equal(a.data.length, n);
  for (let i = 0; i < n; ++i) {
    assert.equal(a.data[i], f16[n - 1 - i]);
    assert.equal(b.data[i], i64[n - 1 - i]);
  }
});

test('plain JS Numbers in a case object: -0, NaN and -inf as the case format writes them; a -0 parameter', () => {
  const r = dmlref.run({ operator: 'GATHER', Axis: 0, IndexDimensions: 1,
    InputTensor: { dataType: 'float32', shape: [3], data: [-0, NaN, -Infinity] },
    IndicesTensor: { dataType: 'uint32', shape: [3], data: [2, 1, 0] },
    OutputTensor: { dataType: 'float32', shape: [3] } });
  const bits = new Uint32Array(r.OutputTensor.data.buffer);
  assert.deepEqual(Array.from(bits), [0xff800000, 0x7fc00000, 0x80000000]);
  const p = dmlref.padding({ dataType: 'float32', shape: [1], data: new Float32Array([1]) },
    { paddingMode: 'CONSTANT', paddingValue: -0, startPadding: [1], endPadding: [0] });
  assert.ok(Object.is(p.data[0], -0));
  assert.equal(p.data[1], 1);
});
