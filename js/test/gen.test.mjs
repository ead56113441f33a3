// `dmlref gen` cases through runCaseFile, byte for byte against `dmlref run --npy`: every
// operator in the plain flavour (+-0, inf, the canonical NaN, integer edges, strides, gaps,
// broadcast) and the bits flavour (NaN payloads, signalling NaNs, subnormals, any int64
// pattern, beyond 2^53 included), and FLOAT16/INT64-only cases of the bits flavour.
import assert from 'node:assert/strict';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';

import * as dmlref from '../index.mjs';
import { cli, NO_CLI, sameAsCommand, tempDir } from './helpers.mjs';

await dmlref.ready;

const SEED = process.env.DMLREF_JS_GEN_SEED || '20261127';
const COUNT = process.env.DMLREF_JS_GEN_COUNT || '4';
const dir = NO_CLI ? null : tempDir('dmlref-js-gen-');
after(() => dir && rmSync(dir, { recursive: true, force: true }));

const sets = [
  ['plain', ['--operator', 'ALL', '--count', COUNT]],
  ['bits', ['--operator', 'ALL', '--count', COUNT, '--bits']],
  ['f16-i64', ['--operator', 'GATHER,SCATTER_ND,GATHER_ND,SCATTER,GATHER_ELEMENTS,PADDING1,JOIN,SPLIT,TILE,SLICE1',
    '--count', '3', '--bits', '--data-types', 'FLOAT16,INT64']],
];
const files = [];
if (dir) {
  for (const [name, args] of sets) {
    const out = join(dir, name);
    const r = cli(['gen', ...args, '--seed', SEED, '--out', out]);
    if (r.rc !== 0) throw new Error(`dmlref gen ${args.join(' ')}: exit ${r.rc}: ${r.stderr}`);
    for (const f of readdirSync(out).sort()) if (f.endsWith('.json')) files.push(join(out, f));
  }
}

// what the compared outputs held (checked after the cases): the bit patterns this package must keep
const seen = { f16payload: 0, f16negZero: 0, f32negZero: 0, i64big: 0 };
function note(outputs) {
  for (const t of Object.values(outputs)) {
    if (t.dataType === 'float16') {
      for (const v of t.data) {
        if (v === 0x8000) ++seen.f16negZero;
        if ((v & 0x7c00) === 0x7c00 && (v & 0x3ff) && v !== 0x7e00 && v !== 0xcdcd) ++seen.f16payload;
      }
    } else if (t.dataType === 'float32') {
      for (const v of t.data) if (Object.is(v, -0)) ++seen.f32negZero;
    } else if (t.dataType === 'int64' || t.dataType === 'uint64') {
      for (const v of t.data) if (v > 2n ** 53n || v < -(2n ** 53n)) ++seen.i64big;
    }
  }
}

for (const f of files) {
  test(`gen/${f.split('/').slice(-2).join('/')}`, async () => {
    const { want, got } = await sameAsCommand(f);
    assert.equal(want.rc, 0, want.stderr);
    note(got.outputs);
  });
}

test('gen: a few hundred cases, float16 NaN payloads, -0 and int64 beyond 2^53 among the outputs', { skip: NO_CLI }, () => {
  assert.ok(files.length >= 300, `${files.length} cases`);
  assert.ok(seen.f16payload > 0, 'a float16 NaN with a payload');
  assert.ok(seen.f16negZero > 0, 'a float16 -0');
  assert.ok(seen.f32negZero > 0, 'a float32 -0');
  assert.ok(seen.i64big > 0, 'a 64-bit integer beyond 2^53');
});
