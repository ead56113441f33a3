// Shared by the package's tests: the native command (`dmlref run --npy DIR`, the reference
// the package must equal byte for byte) and .npy payloads.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import * as dmlref from '../index.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = process.env.DMLREF_CLI || join(ROOT, 'build', 'dmlref');
/** Why the tests that need the command are skipped, or false. */
export const NO_CLI = existsSync(CLI) ? false : `no native command at ${CLI} (make first, or set DMLREF_CLI)`;

export function tempDir(prefix = 'dmlref-js-') {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The data bytes of a .npy file (after its header). */
export function npyPayload(bytes) {
  const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (b[0] !== 0x93 || String.fromCharCode(...b.subarray(1, 6)) !== 'NUMPY') throw new Error('not an .npy file');
  const major = b[6];
  const len = major === 1 ? b[8] | (b[9] << 8) : b[8] | (b[9] << 8) | (b[10] << 16) | (b[11] << 24);
  const start = (major === 1 ? 10 : 12) + len;
  return b.subarray(start);
}

/** `dmlref ARGS...`: {rc, stdout, stderr}. */
export function cli(args, opts = {}) {
  const r = spawnSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  if (r.error) throw r.error;
  return { rc: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `dmlref run CASE --npy DIR`: {rc, stderr, outputs: {OutputTensor: payload bytes, ...}}. */
export function runNative(casePath, extra = []) {
  const dir = tempDir();
  try {
    const r = cli(['run', casePath, '--npy', join(dir, 'out'), ...extra]);
    const outputs = {};
    if (existsSync(join(dir, 'out'))) {
      for (const f of readdirSync(join(dir, 'out'))) {
        if (f.endsWith('.npy')) outputs[f.slice(0, -4)] = npyPayload(readFileSync(join(dir, 'out', f)));
      }
    }
    return { rc: r.rc, stderr: r.stderr, outputs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A tensor's data as bytes. */
export function bytesOf(t) {
  return new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
}

/** The first differing byte of two byte arrays, or -1 (lengths compared first: -2). */
export function firstDiff(a, b) {
  if (a.length !== b.length) return -2;
  for (let i = 0; i < a.length; ++i) if (a[i] !== b[i]) return i;
  return -1;
}

/** runCaseFile's result as {rc, outputs, error}. */
export async function runJs(path, options = {}) {
  const warnings = [];
  try {
    const outputs = await dmlref.runCaseFile(path, { onWarning: (w) => warnings.push(w), ...options });
    return { rc: 0, outputs, warnings };
  } catch (e) {
    if (!(e instanceof dmlref.DmlrefError)) throw e;
    return { rc: e.exitCode, outputs: e.outputs ?? {}, error: e, warnings };
  }
}

/** Asserts that the package gives what the command gives for the case file at path. */
export async function sameAsCommand(path) {
  const want = runNative(path);
  const got = await runJs(path);
  assert.equal(got.rc, want.rc, `exit status: package ${got.rc}${got.error ? ` (${got.error.message})` : ''}, ` +
    `command ${want.rc} (${want.stderr.trim()})`);
  if (want.rc === 0 || want.rc === 1) {
    assert.deepEqual(Object.keys(got.outputs).sort(), Object.keys(want.outputs).sort(), 'output names');
    // the tensor form: shape = Sizes, strides only where the case gives them
    const c = JSON.parse(readFileSync(path, 'utf8'));
    for (const [name, t] of Object.entries(got.outputs)) {
      const m = /^(.*)_(\d+)$/.exec(name);
      const desc = m && Array.isArray(c[m[1]]) ? c[m[1]][Number(m[2])] : c[name];
      if (!desc || c.derive_output_sizes) continue;
      assert.deepEqual(t.shape, desc.Sizes, `${name}.shape`);
      assert.deepEqual(t.strides, desc.Strides, `${name}.strides`);
      assert.equal(t.dataType, desc.DataType.toLowerCase());
    }
    for (const [name, bytes] of Object.entries(want.outputs)) {
      const d = firstDiff(bytesOf(got.outputs[name]), bytes);
      assert.equal(d, -1, `${name}: ${d === -2 ? 'lengths differ' : `byte ${d} differs`}`);
    }
  }
  if (want.rc !== 0) {
    // the command's stderr line ends with the message
    assert.ok(want.stderr.includes(got.error.message), `message: package "${got.error.message}", command "${want.stderr.trim()}"`);
  }
  if (want.stderr.includes('warning')) assert.ok(got.warnings.length > 0, 'the command warned, the package did not');
  return { want, got };
}


/** A 1-D .npy file of a typed array (descr '<f4', '<f2', ...). */
export function npyFile(descr, arr) {
  let h = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${arr.length},), }`;
  h += ' '.repeat((64 - ((10 + h.length + 1) % 64)) % 64) + '\n';
  const out = new Uint8Array(10 + h.length + arr.byteLength);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, h.length & 0xff, h.length >> 8]);
  for (let i = 0; i < h.length; ++i) out[10 + i] = h.charCodeAt(i);
  out.set(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength), 10 + h.length);
  return out;
}
