// The packed tarball (make js: js/dmlref-<version>.tgz) installs offline with npm and works
// from there: `import dmlref from 'dmlref'`, await ready, one gather; its files are the ones
// package.json lists; the generated operator files are what the schema gives.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { ROOT, tempDir } from './helpers.mjs';

const pkg = JSON.parse(readFileSync(join(ROOT, 'js', 'package.json'), 'utf8'));
const tgz = join(ROOT, 'js', `dmlref-${pkg.version}.tgz`);

test('package.json: the library\'s version, an ES module with types', () => {
  const h = readFileSync(join(ROOT, 'include', 'dmlref.h'), 'utf8');
  const v = ['MAJOR', 'MINOR', 'PATCH'].map((k) => new RegExp(`#define DMLREF_VERSION_${k} (\\d+)`).exec(h)[1]).join('.');
  assert.equal(pkg.version, v);
  assert.equal(pkg.name, 'dmlref');
  assert.equal(pkg.type, 'module');
  assert.equal(pkg.types, './index.d.ts');
  assert.deepEqual(pkg.dependencies ?? {}, {});
});

test('npm install ./js/dmlref-<version>.tgz offline, then import and call', { skip: existsSync(tgz) ? false : `no ${tgz} (make js)` }, () => {
  const dir = tempDir('dmlref-js-install-');
  try {
    writeFileSync(join(dir, 'package.json'), '{"name": "t", "version": "1.0.0", "private": true, "type": "module"}\n');
    const npm = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tgz],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_cache: join(dir, '.npm') } });
    assert.equal(npm.status, 0, npm.stderr);
    const installed = readdirSync(join(dir, 'node_modules', 'dmlref')).sort();
    for (const f of pkg.files) assert.ok(installed.includes(f), `${f} installed`);
    writeFileSync(join(dir, 't.mjs'), `
import dmlref from 'dmlref';
import { gather, ready } from 'dmlref';
await ready;
const out = gather({dataType: 'float32', shape: [4], data: new Float32Array([11, 12, 13, 14])},
                   {dataType: 'uint32', shape: [5], data: new Uint32Array([3, 1, 3, 0, 2])},
                   {axis: 0, indexDimensions: 1});
console.log(JSON.stringify([dmlref.version(), out.dataType, out.shape, Array.from(out.data)]));
`);
    const r = spawnSync(process.execPath, ['t.mjs'], { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [pkg.version, 'float32', [5], [14, 12, 14, 11, 13]]);

    // docs/webnn.md's example, run as a WPT author runs it: the two tests' expected outputs
    writeFileSync(join(dir, 'webnn_expected.mjs'), readFileSync(join(ROOT, 'examples', 'webnn_expected.mjs')));
    const w = spawnSync(process.execPath, ['webnn_expected.mjs'], { cwd: dir, encoding: 'utf8' });
    assert.equal(w.status, 0, w.stderr);
    const [g, sc] = w.stdout.trim().split('\n').map((l) => JSON.parse(l.replace(/(?<=[\[ ])-0(?=[,\]])/g, '"-0"')));
    assert.deepEqual(g.graph.expectedOutputs.output.bits, ['0x7e01', '0x8000', '0x0001', '0x7e01']);
    assert.deepEqual(g.graph.expectedOutputs.output.data, ['NaN', '-0', 5.960464477539063e-8, 'NaN']);
    assert.deepEqual(sc.graph.expectedOutputs.output.data, ['1', '-9223372036854775808', '1152921504606846977', '4']);

    // an uncaught DmlrefError ends the program with its own report: the package installs no
    // process-wide handler (emscripten's NODEJS_CATCH_EXIT / _REJECTION) that would rethrow it
    // from the generated glue (node then prints the glue's one 100 KB line)
    writeFileSync(join(dir, 'bad.mjs'), `
import { gather, ready } from 'dmlref';
await ready;
gather({dataType: 'float32', shape: [4], data: new Float32Array(4)},
       {dataType: 'uint32', shape: [1, 5], data: new Uint32Array(5)}, {axis: 0, indexDimensions: 1});
`);
    const b = spawnSync(process.execPath, ['bad.mjs'], { cwd: dir, encoding: 'utf8' });
    assert.equal(b.status, 1);
    assert.match(b.stderr, /DmlrefError: GATHER: IndicesTensor\.DimensionCount \(2\) must equal InputTensor\.DimensionCount \(1\)/);
    assert.ok(b.stderr.length < 4000, `stderr is ${b.stderr.length} characters`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const schema = process.env.DMLREF_JS_SCHEMA || join(ROOT, 'build', 'js_schema');
test('js/operators.mjs, functions.mjs, functions.d.ts are what the library\'s schema gives', { skip: existsSync(schema) ? false : `no ${schema} (make build/js_schema)` }, () => {
  const dir = tempDir();
  try {
    const s = spawnSync(schema, [], { encoding: 'utf8' });
    assert.equal(s.status, 0, s.stderr);
    writeFileSync(join(dir, 'schema.json'), s.stdout);
    assert.equal(JSON.parse(s.stdout).length, 39);
    const g = spawnSync(process.execPath, [join(ROOT, 'js', 'tools', 'gen_operators.mjs'), join(dir, 'schema.json'), '--check'],
      { encoding: 'utf8' });
    assert.equal(g.status, 0, g.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
