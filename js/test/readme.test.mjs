// js/README.md's examples do what it says.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import dmlref from '../index.mjs';

test('README: first call', async () => {
  await dmlref.ready;
  const input = { dataType: 'float16', shape: [4], data: new Uint16Array([0x7e01, 0x8000, 0x3c00, 0x4000]) };
  const indices = { dataType: 'uint32', shape: [5], data: new Uint32Array([3, 1, 3, 0, 2]) };
  const out = dmlref.gather(input, indices, { axis: 0, indexDimensions: 1 });
  assert.equal(out.dataType, 'float16');
  assert.deepEqual(out.shape, [5]);
  assert.ok(out.data instanceof Uint16Array);
  assert.deepEqual(Array.from(out.data), [0x4000, 0x8000, 0x4000, 0x7e01, 0x3c00]);
  let err;
  try {
    dmlref.gather(input, indices, { axis: 5, indexDimensions: 1 });
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof dmlref.DmlrefError);
  assert.deepEqual([err.status, err.operator, err.field, err.rule], ['DMLREF_ERROR_PARAMETER', 'GATHER', 'Axis', 'G3']);
});

test('README: split, join, oneHot, padding, diagonalMatrix through their functions', async () => {
  await dmlref.ready;
  const f32 = (shape, values) => ({ dataType: 'float32', shape, data: new Float32Array(values) });
  const parts = dmlref.split(f32([1, 4], [1, 2, 3, 4]), { axis: 1, sizes: [1, 3] });
  assert.deepEqual(parts.map((t) => [t.shape, Array.from(t.data)]), [[[1, 1], [1]], [[1, 3], [2, 3, 4]]]);
  const joined = dmlref.join(parts, { axis: 1 });
  assert.deepEqual([joined.shape, Array.from(joined.data)], [[1, 4], [1, 2, 3, 4]]);
  const hot = dmlref.oneHot({ dataType: 'uint32', shape: [1, 1, 3, 1], data: new Uint32Array([0, 3, 2]) },
    f32([1, 1, 1, 2], [0, 1]), { axis: 3, depth: 4 });
  assert.deepEqual([hot.shape, Array.from(hot.data)], [[1, 1, 3, 4], [1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0]]);
  const padded = dmlref.padding(f32([1, 2], [5, 6]), { paddingMode: 'EDGE', paddingValue: 0, startPadding: [0, 1], endPadding: [0, 2] });
  assert.deepEqual([padded.shape, Array.from(padded.data)], [[1, 5], [5, 5, 6, 6, 6]]);
  const eye = dmlref.diagonalMatrix({ shape: [1, 1, 2, 3], dtype: 'int32', offset: 1, value: 7 });
  assert.deepEqual([eye.shape, Array.from(eye.data)], [[1, 1, 2, 3], [0, 7, 0, 0, 0, 7]]);
  const sc = dmlref.scatterND({ dataType: 'int64', shape: [1, 4], data: new BigInt64Array([1n, 2n, 3n, 4n]) },
    { dataType: 'int64', shape: [2, 1], data: new BigInt64Array([2n, 0n]) },
    { dataType: 'int64', shape: [1, 2], data: new BigInt64Array([2n ** 60n + 1n, -1n]) },
    { inputDimensionCount: 1, indicesDimensionCount: 2 });
  assert.deepEqual(Array.from(sc.data), [-1n, 2n, 2n ** 60n + 1n, 4n]);
});
