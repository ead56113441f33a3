// Every case of tests/cases (and its bad/ cases) through runCaseFile, against the native
// command `dmlref run CASE --npy DIR`: the same exit status, the same output bytes (the
// whole buffer of each output, as the .npy files hold it), the same error.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import * as dmlref from '../index.mjs';
import { cli, NO_CLI, ROOT, sameAsCommand } from './helpers.mjs';

await dmlref.ready;

const casesDir = join(ROOT, 'tests', 'cases');
const good = readdirSync(casesDir).filter((f) => f.endsWith('.json')).sort();
const bad = readdirSync(join(casesDir, 'bad')).filter((f) => f.endsWith('.json')).sort();

test('tests/cases holds cases', () => {
  assert.ok(good.length >= 100, `${good.length} cases`);
  assert.ok(bad.length >= 90, `${bad.length} bad cases`);
});

for (const f of good) {
  test(`cases/${f}`, { skip: NO_CLI }, async () => {
    const { want } = await sameAsCommand(join(casesDir, f));
    assert.equal(want.rc, 0);
    assert.ok(Object.keys(want.outputs).length > 0);
  });
}

for (const f of bad) {
  test(`cases/bad/${f}`, { skip: NO_CLI }, async () => {
    const path = join(casesDir, 'bad', f);
    const { want, got } = await sameAsCommand(path);
    assert.notEqual(want.rc, 0);
    assert.equal(got.error.exitClass, ['ok', 'differ', 'invalid', 'malformed', 'usage', 'system', 'host_limit',
      'cannot_verify', 'out_of_memory'][want.rc]);
    // a verdict on the descriptor: status, rule and field as `dmlref validate --json` gives them
    const v = cli(['validate', path, '--json']);
    if (v.stdout.startsWith('{"valid":false')) {
      const verdict = JSON.parse(v.stdout);
      assert.equal(got.error.status, verdict.status);
      assert.equal(got.error.rule, verdict.rule);
      assert.equal(got.error.field, verdict.field);
      assert.equal(got.error.message, verdict.message);
      assert.ok(got.error.operator, 'the operator is named');
    } else if (want.rc === 3) {
      assert.equal(got.error.status, 'CASE_MALFORMED');
    }
  });
}

test('strict: an out-of-range index is an error, as `dmlref run --strict` makes it', { skip: NO_CLI }, async () => {
  const path = join(casesDir, 'gather_clamp_wpt.json');
  const want = cli(['run', path, '--strict']);
  assert.equal(want.rc, 2);
  await assert.rejects(dmlref.runCaseFile(path, { strict: true }), (e) => {
    assert.ok(e instanceof dmlref.DmlrefError);
    assert.equal(e.status, 'DMLREF_ERROR_INDEX_OUT_OF_RANGE');
    assert.equal(e.exitCode, 2);
    assert.equal(e.operator, 'GATHER');
    assert.ok(want.stderr.includes(e.message), `${e.message} / ${want.stderr}`);
    return true;
  });
  const warnings = [];
  const out = await dmlref.runCaseFile(path, { onWarning: (w) => warnings.push(w) });
  assert.equal(warnings.length, 1);
  assert.ok(cli(['run', path]).stderr.includes(warnings[0]));
  assert.ok(out.OutputTensor.data.length > 0);
});

test('runCaseFile: npy references in a subfolder, above the case (../), absolute; a missing case file', { skip: NO_CLI }, async () => {
  const { mkdirSync, writeFileSync, rmSync } = await import('node:fs');
  const { npyFile, tempDir } = await import('./helpers.mjs');
  const dir = tempDir();
  try {
    mkdirSync(join(dir, 'cases', 'data'), { recursive: true });
    writeFileSync(join(dir, 'up.npy'), npyFile('<f2', new Uint16Array([0x7e01, 0x8000, 0x3c00, 0xfc00])));
    writeFileSync(join(dir, 'cases', 'data', 'idx.npy'), npyFile('<u4', new Uint32Array([3, 0, 1])));
    writeFileSync(join(dir, 'abs.npy'), npyFile('<f2', new Uint16Array([1, 2, 3, 4])));
    const c = { operator: 'GATHER', Axis: 0, IndexDimensions: 1,
      InputTensor: { DataType: 'FLOAT16', Sizes: [4], npy: '../up.npy' },
      IndicesTensor: { DataType: 'UINT32', Sizes: [3], npy: 'data/idx.npy' },
      OutputTensor: { DataType: 'FLOAT16', Sizes: [3] } };
    writeFileSync(join(dir, 'cases', 'rel.json'), JSON.stringify(c));
    const { got } = await sameAsCommand(join(dir, 'cases', 'rel.json'));
    assert.deepEqual(Array.from(got.outputs.OutputTensor.data.subarray(0, 3)), [0xfc00, 0x7e01, 0x8000]);
    c.InputTensor.npy = join(dir, 'abs.npy');
    writeFileSync(join(dir, 'cases', 'abs.json'), JSON.stringify(c));
    const r = await sameAsCommand(join(dir, 'cases', 'abs.json'));
    assert.deepEqual(Array.from(r.got.outputs.OutputTensor.data.subarray(0, 3)), [4, 1, 2]);
    c.InputTensor.npy = 'missing.npy';
    writeFileSync(join(dir, 'cases', 'missing.json'), JSON.stringify(c));
    const m = await sameAsCommand(join(dir, 'cases', 'missing.json'));
    assert.equal(m.want.rc, 3);
    const none = await sameAsCommand(join(dir, 'cases', 'nonexistent.json'));
    assert.equal(none.got.error.exitClass, 'malformed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
