// dmlref for JavaScript: DirectML's data-movement operators computed bit for bit by the C
// library (compiled to WebAssembly), for node and browsers.  js/README.md describes the API.
//
// Every call goes through one C entry point (js/src/dmlref_js.c): the case reader the
// `dmlref` command uses parses a case in its JSON format (docs/case-format.md), the library
// runs it exactly as `dmlref run` does, and the outputs come back as copies.  Tensors given
// as typed arrays are handed over as .npy files in the module's in-memory file system, never
// through JS Numbers, so float16 NaN payloads, -0 and int64 beyond 2^53 keep their bits.
import dmlrefWasm from './dmlref_wasm.mjs';
import { OPERATORS } from './operators.mjs';

// [WebNN name, DirectML name, DMLREF_TENSOR_DATA_TYPE code, typed array, .npy descr]
const TYPE_ROWS = [
  ['float32', 'FLOAT32', 1, Float32Array, '<f4'],
  ['float16', 'FLOAT16', 2, Uint16Array, '<f2'],
  ['uint32', 'UINT32', 3, Uint32Array, '<u4'],
  ['uint16', 'UINT16', 4, Uint16Array, '<u2'],
  ['uint8', 'UINT8', 5, Uint8Array, '|u1'],
  ['int32', 'INT32', 6, Int32Array, '<i4'],
  ['int16', 'INT16', 7, Int16Array, '<i2'],
  ['int8', 'INT8', 8, Int8Array, '|i1'],
  ['float64', 'FLOAT64', 9, Float64Array, '<f8'],
  ['uint64', 'UINT64', 10, BigUint64Array, '<u8'],
  ['int64', 'INT64', 11, BigInt64Array, '<i8'],
];
const TYPES = new Map();
const TYPE_BY_CODE = new Map();
for (const [name, dml, code, ctor, descr] of TYPE_ROWS) {
  const t = { name, dml, code, ctor, descr, size: ctor.BYTES_PER_ELEMENT };
  TYPES.set(name, t);
  TYPES.set(dml, t);
  TYPE_BY_CODE.set(code, t);
}

/** The WebNN data type names this package knows ('float32', 'float16', ...). */
export const dataTypes = TYPE_ROWS.map((r) => r[0]);

/** The type row for a WebNN name ('float16') or a DirectML one ('FLOAT16'). */
function typeOf(name, where) {
  const t = typeof name === 'string' ? TYPES.get(name) ?? TYPES.get(name.toUpperCase()) : undefined;
  if (!t) throw new TypeError(`${where}: unknown data type ${JSON.stringify(name)} (one of ${dataTypes.join(', ')})`);
  return t;
}

// The command's exit statuses (case/status.h), as DmlrefError.exitCode and .exitClass.
const EXIT_CLASSES = ['ok', 'differ', 'invalid', 'malformed', 'usage', 'system', 'host_limit', 'cannot_verify',
  'out_of_memory'];
const EXIT_STATUS = ['CASE_OK', 'CASE_DIFFER', 'CASE_INVALID', 'CASE_MALFORMED', 'CASE_USAGE', 'CASE_SYSTEM',
  'CASE_HOST_LIMIT', 'CASE_CANNOT_VERIFY', 'CASE_OUT_OF_MEMORY'];

/**
 * A failure: the library's verdict on a descriptor, an error while executing, a malformed
 * case, or outputs that differ from a case's `expected`.
 *   status    the library's status name ('DMLREF_ERROR_SIZES', as the Python package names it),
 *             or, for a failure the library did not report, the command's exit status name:
 *             'CASE_MALFORMED', 'CASE_DIFFER', 'CASE_OUT_OF_MEMORY' ...; out of memory is always
 *             'DMLREF_ERROR_OUT_OF_MEMORY' or 'CASE_OUT_OF_MEMORY', never a verdict
 *   operator  the operator's name ('GATHER'), or null when the case was not read that far
 *   field     the descriptor field the rule is about ('Axis'), or ''
 *   rule      the rule's id in docs/operators.md ('G3'), or ''
 *   message   the message the command prints after "dmlref: CASE.json: "
 *   exitCode, exitClass  the `dmlref run` exit status (2, 'invalid'; 3, 'malformed'; ...)
 */
export class DmlrefError extends Error {
  constructor(message, { status, operator = null, field = '', rule = '', exitCode = 2, outputs } = {}) {
    super(message);
    this.name = 'DmlrefError';
    this.status = status;
    this.operator = operator;
    this.field = field;
    this.rule = rule;
    this.exitCode = exitCode;
    this.exitClass = EXIT_CLASSES[exitCode] ?? 'unknown';
    if (outputs) this.outputs = outputs;
  }
}

const isNode = typeof process === 'object' && process !== null && typeof process.versions === 'object' &&
  typeof process.versions.node === 'string' && typeof window === 'undefined';

let M = null; // the instantiated module
let seq = 0;  // names each call's folder in the in-memory file system

async function instantiate() {
  const opts = { print: () => {}, printErr: () => {} };
  if (isNode) {
    // emcc's node code wants require() and __dirname, which an ES module has not (the Makefile
    // points them here); the .wasm is read next to this file.
    const [{ createRequire }, { fileURLToPath }, path, fs] = await Promise.all(
      [import('node:module'), import('node:url'), import('node:path'), import('node:fs')]);
    opts.nodeRequire = createRequire(import.meta.url);
    opts.nodeDirname = path.dirname(fileURLToPath(import.meta.url));
    opts.wasmBinary = fs.readFileSync(fileURLToPath(new URL('./dmlref_wasm.wasm', import.meta.url)));
  }
  M = await dmlrefWasm(opts);
  M.FS.mkdir('/dmlref');
  return api;
}

/** Resolves (to the package's functions) once the WebAssembly module is ready: await it first. */
export const ready = instantiate();
ready.catch(() => {}); // a failure shows where it is awaited
/** The same promise as `ready`. */
export function load() { return ready; }

function module_() {
  if (!M) throw new Error('dmlref: the WebAssembly module is not loaded yet: `await dmlref.ready` first');
  return M;
}

/** The library's version ('0.1.0'). */
export function version() { return module_().UTF8ToString(M._dmlref_js_version()); }

// ---- .npy files in the in-memory file system ---------------------------------------------

function npyBytes(t, data) {
  let header = `{'descr': '${t.descr}', 'fortran_order': False, 'shape': (${data.length},), }`;
  const pad = (64 - ((10 + header.length + 1) % 64)) % 64;
  header += ' '.repeat(pad) + '\n';
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = new Uint8Array(10 + header.length + bytes.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 0xff, header.length >> 8]);
  for (let i = 0; i < header.length; ++i) out[10 + i] = header.charCodeAt(i);
  out.set(bytes, 10 + header.length);
  return out;
}

function checkRelative(rel) {
  if (typeof rel !== 'string' || rel === '' || rel.startsWith('/') || rel.split('/').includes('..'))
    throw new TypeError(`dmlref: files: ${JSON.stringify(rel)} is not a relative path inside the case's folder`);
}

// folder: {path, made}: a call's folder in the in-memory file system, made at its first file.
function writeFile(folder, rel, bytes) {
  checkRelative(rel);
  if (!folder.made) {
    M.FS.mkdir(folder.path);
    folder.made = true;
  }
  const dir = folder.path;
  const parts = rel.split('/');
  let d = dir;
  for (const p of parts.slice(0, -1)) {
    if (p === '' || p === '.') continue;
    d += '/' + p;
    if (!M.FS.analyzePath(d).exists) M.FS.mkdir(d);
  }
  M.FS.writeFile(dir + '/' + rel, bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
}

function removeTree(path) {
  const st = M.FS.stat(path);
  if (M.FS.isDir(st.mode)) {
    for (const e of M.FS.readdir(path)) if (e !== '.' && e !== '..') removeTree(path + '/' + e);
    M.FS.rmdir(path);
  } else {
    M.FS.unlink(path);
  }
}

// ---- tensors in a case object ------------------------------------------------------------

const isView = (d) => ArrayBuffer.isView(d) && !(d instanceof DataView);

/** A typed array that holds t's elements bit for bit (float16: Uint16Array or Float16Array). */
function checkData(t, data, where) {
  const F16 = globalThis.Float16Array;
  const ok = data instanceof t.ctor || (t.code === 2 && F16 && data instanceof F16);
  if (!ok) {
    const want = t.code === 2 ? 'Uint16Array (float16 bits) or Float16Array' : t.ctor.name;
    throw new TypeError(`${where}: ${t.name} data must be a ${want}, got ${data?.constructor?.name ?? typeof data}`);
  }
  return data;
}

/** A tensor in the package's form ({dataType, shape, data?, strides?}) or the case format's
 * ({DataType, Sizes, data?}) as the case format's, its typed-array data written as an .npy file. */
function caseTensor(v, where, folder, files) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const js = 'dataType' in v || 'shape' in v;
  if (!js && !isView(v.data)) {
    const t = typeof v.DataType === 'string' ? TYPES.get(v.DataType) : undefined;
    return t && (t.code === 10 || t.code === 11) && Array.isArray(v.data) ? { ...v, data: int64Strings(v.data) } : v;
  }
  const out = {};
  for (const [k, x] of Object.entries(v)) {
    if (!['dataType', 'shape', 'strides', 'data'].includes(k)) out[k] = x;
  }
  const t = typeOf(js ? v.dataType : v.DataType, `${where}.dataType`);
  out.DataType = t.dml;
  if (js) {
    if (v.shape !== undefined) out.Sizes = Array.from(v.shape);
    if (v.strides !== undefined && v.strides !== null) out.Strides = Array.from(v.strides);
  }
  if (isView(v.data) && v.data.length <= INLINE_MAX) {
    // a few elements: inline, each as its bit pattern ("0x3c00"), which the case reader takes exactly
    out.data = hexData(t, checkData(t, v.data, `${where}.data`));
  } else if (isView(v.data)) {
    const data = checkData(t, v.data, `${where}.data`);
    const rel = `t${files.length}.npy`;
    files.push(rel);
    writeFile(folder, rel, npyBytes(t, data));
    out.npy = rel;
  } else if (v.data !== undefined) {
    // int64 given as decimal strings (as `dmlref run --int64-strings` prints them): exact integers
    out.data = t.code === 10 || t.code === 11 ? int64Strings(v.data) : v.data;
  }
  return out;
}

// Up to this many elements a typed array goes inline as bit patterns, above it as an .npy file
// in the in-memory file system (the cheaper way for each).
const INLINE_MAX = 256;
const HEX_VIEWS = { 1: Uint8Array, 2: Uint16Array, 4: Uint32Array, 8: BigUint64Array };

function hexData(t, data) {
  const bits = new HEX_VIEWS[t.size](data.buffer, data.byteOffset, data.length);
  const digits = 2 * t.size;
  const out = new Array(bits.length);
  for (let i = 0; i < bits.length; ++i) out[i] = '0x' + bits[i].toString(16).padStart(digits, '0');
  return out;
}

function int64Strings(v) {
  if (Array.isArray(v)) return v.map(int64Strings);
  return typeof v === 'string' && /^-?\d+$/.test(v) ? BigInt(v) : v;
}

const SKIP_KEYS = new Set(['operator', 'feature_level', 'expected', 'actual', 'name', 'comment', 'why', 'description',
  'bytes_moved', 'derive_output_sizes', 'id', 'features']);

function prepareCase(obj, folder) {
  const files = [];
  const out = {};
  for (const [k, v] of Object.entries(obj)) {
    if (SKIP_KEYS.has(k)) out[k] = v;
    else if (Array.isArray(v) && v.some((e) => e !== null && typeof e === 'object' && !Array.isArray(e)))
      out[k] = v.map((e, i) => caseTensor(e, `${k}[${i}]`, folder, files));
    else out[k] = caseTensor(v, k, folder, files);
  }
  return out;
}

// A BigInt becomes the number's exact digits in the JSON text (the case reader reads integers
// exactly; a JS Number could not carry 2^60 + 1): a marked string, unquoted after stringify.
// Numbers JSON has no text for go as the case format writes them: -0 as -0.0, NaN and the
// infinities as "nan", "inf", "-inf".
const BIG = '@@dmlref-bigint:';
function replacer(_key, v) {
  if (typeof v === 'bigint') return `${BIG}${v}@@`;
  if (typeof v === 'number' && !Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  if (v === 0 && Object.is(v, -0)) return `${BIG}-0.0@@`;
  return v;
}
function stringify(obj) {
  return JSON.stringify(obj, replacer).replace(/"@@dmlref-bigint:(-?[\d.]+)@@"/g, '$1');
}

// ---- one case through the C side ---------------------------------------------------------

function cstring(s) {
  const n = M.lengthBytesUTF8(s);
  const p = M._malloc(n + 1);
  if (!p) throw new DmlrefError('out of memory', { status: 'CASE_OUT_OF_MEMORY', exitCode: 8 });
  M.stringToUTF8(s, p, n + 1);
  return [p, n];
}

function readOutputs(h) {
  const outs = {};
  const n = M._dmlref_js_n_outputs(h);
  for (let k = 0; k < n; ++k) {
    const slot = M.UTF8ToString(M._dmlref_js_out_slot(h, k));
    const index = M._dmlref_js_out_index(h, k);
    const t = TYPE_BY_CODE.get(M._dmlref_js_out_type(h, k));
    const dims = M._dmlref_js_out_dims(h, k);
    const u32 = (p) => Array.from(new Uint32Array(M.HEAPU8.buffer, p, dims));
    const sp = M._dmlref_js_out_strides(h, k);
    const slots = M._dmlref_js_out_slots(h, k);
    const data = new t.ctor(slots);
    const dp = M._dmlref_js_out_data(h, k);
    new Uint8Array(data.buffer).set(M.HEAPU8.subarray(dp, dp + slots * t.size));
    const tensor = { dataType: t.name, shape: u32(M._dmlref_js_out_sizes(h, k)), data };
    if (sp) tensor.strides = u32(sp);
    outs[index < 0 ? slot : `${slot}_${index}`] = tensor;
  }
  return outs;
}

// The in-memory folder's name in a message becomes the case file's folder (runCaseFile) or
// goes (run: the paths relative to the case).
function shown(message, baseDir, shownDir) {
  return message.split(baseDir + '/').join(shownDir ? shownDir + '/' : '');
}

function runText(text, baseDir, options, shownDir) {
  const [tp, tn] = cstring(text);
  let bp = 0;
  try {
    bp = cstring(baseDir)[0];
  } finally {
    if (!bp) M._free(tp);
  }
  const h = M._dmlref_js_run(tp, tn, bp, options.strict ? 1 : 0);
  M._free(tp);
  M._free(bp);
  if (!h) throw new DmlrefError('out of memory', { status: 'CASE_OUT_OF_MEMORY', exitCode: 8 });
  try {
    const rc = M._dmlref_js_rc(h);
    const warning = shown(M.UTF8ToString(M._dmlref_js_warning(h)), baseDir, shownDir);
    if (warning) (options.onWarning ?? ((w) => console.warn(`dmlref: warning: ${w}`)))(warning);
    if (rc !== 0) {
      const status = M.UTF8ToString(M._dmlref_js_status(h));
      let op = M.UTF8ToString(M._dmlref_js_operator(h));
      if (!op && status) op = /"operator"\s*:\s*"([A-Z0-9_]+)"/.exec(text)?.[1] ?? '';
      throw new DmlrefError(shown(M.UTF8ToString(M._dmlref_js_message(h)), baseDir, shownDir), {
        status: status || EXIT_STATUS[rc] || 'CASE_SYSTEM',
        operator: op || null,
        field: M.UTF8ToString(M._dmlref_js_field(h)),
        rule: M.UTF8ToString(M._dmlref_js_rule(h)),
        exitCode: rc,
        outputs: rc === 1 ? readOutputs(h) : undefined,
      });
    }
    return readOutputs(h);
  } finally {
    M._dmlref_js_free(h);
  }
}

function withFolder(fn) {
  module_();
  const folder = { path: `/dmlref/run${++seq}`, made: false };
  try {
    return fn(folder);
  } finally {
    if (folder.made) removeTree(folder.path);
  }
}

/**
 * Runs a case in the command's JSON format (docs/case-format.md): an object (or its JSON
 * text).  Tensors may carry typed arrays ({dataType, shape, data} or {DataType, Sizes, data}):
 * they are passed bit for bit.  options.files maps the relative paths of the case's "npy"
 * references to their bytes; options.strict makes an out-of-range index or a duplicate scatter
 * target an error (else a warning to options.onWarning, console.warn by default, and the
 * indices clamped, as `dmlref run`).  Returns {outputName: tensor}: 'OutputTensor',
 * 'OutputTensors_2' (the names of `dmlref run --npy`'s files), each the whole output buffer.
 */
export function run(caseObject, options = {}) {
  return withFolder((folder) => {
    for (const [rel, bytes] of Object.entries(options.files ?? {})) writeFile(folder, rel, bytes);
    const text = typeof caseObject === 'string' ? caseObject
      : stringify(prepareCase(caseObject, folder));
    return runText(text, folder.path, options, null);
  });
}

function npyRefs(v, acc) {
  if (Array.isArray(v)) for (const e of v) npyRefs(e, acc);
  else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === 'npy' && typeof x === 'string') acc.add(x);
      else npyRefs(x, acc);
    }
  }
  return acc;
}

/**
 * Node only: runs a case file as `dmlref run CASE.json` does, its .npy files (relative to
 * the case file's folder) read in.  Same options and result as run().
 */
export async function runCaseFile(path, options = {}) {
  if (!isNode) throw new Error('dmlref: runCaseFile needs node (in a browser: run(caseObject, {files}))');
  await ready;
  const [fs, nodePath] = await Promise.all([import('node:fs'), import('node:path')]);
  let text;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (e) {
    // as the command: "dmlref: cannot open PATH: No such file or directory", exit 3
    const why = { ENOENT: 'No such file or directory', EACCES: 'Permission denied', EISDIR: 'Is a directory' }[e.code];
    throw new DmlrefError(`cannot open ${path}: ${why ?? e.message}`, { status: 'CASE_MALFORMED', exitCode: 3 });
  }
  let refs = new Set();
  try {
    refs = npyRefs(JSON.parse(text), refs);
  } catch {
    // malformed JSON: the case reader says where
  }
  // Each referenced file at its place relative to the case's folder in the in-memory file
  // system: the folder sits `up` levels deep, so "../data/x.npy" lands inside the call's folder
  // too; an absolute path keeps its path.
  const base = nodePath.dirname(path);
  const rels = [];
  let up = 0;
  for (const ref of refs) {
    if (ref.startsWith('/')) {
      rels.push([ref, ref]);
      continue;
    }
    const norm = nodePath.posix.normalize(ref);
    const k = /^(\.\.\/)*/.exec(norm)[0].length / 3;
    up = Math.max(up, k);
    rels.push([ref, norm]);
  }
  return withFolder((folder) => {
    const caseDir = folder.path + '/_'.repeat(up);
    M.FS.mkdirTree(caseDir);
    folder.made = true;
    for (const [rel, bytes] of Object.entries(options.files ?? {})) {
      checkRelative(rel);
      writeAt(caseDir + '/' + rel, bytes);
    }
    const outside = []; // absolute paths written outside the call's folder, removed after
    try {
      for (const [ref, norm] of rels) {
        let bytes;
        try {
          bytes = fs.readFileSync(ref.startsWith('/') ? ref : nodePath.join(base, ref));
        } catch {
          continue; // missing: the case reader reports it
        }
        if (ref.startsWith('/') && !M.FS.analyzePath(ref).exists) outside.push(ref);
        if (ref.startsWith('/') && !outside.includes(ref)) continue; // a path the module has: not replaced
        writeAt(ref.startsWith('/') ? ref : nodePath.posix.normalize(caseDir + '/' + norm), bytes);
      }
      return runText(text, caseDir, options, base);
    } finally {
      for (const p of outside) M.FS.unlink(p);
    }
  });
}

function writeAt(path, bytes) {
  const dir = path.slice(0, path.lastIndexOf('/'));
  if (dir) M.FS.mkdirTree(dir);
  M.FS.writeFile(path, bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
}

// ---- the operator functions (operators.mjs, generated from the library's schema) ----------

const camel = (s) => s.charAt(0).toLowerCase() + s.slice(1);

function shapeOf(t, where) {
  if (!t || typeof t !== 'object' || !t.shape) throw new TypeError(`${where}: a tensor {dataType, shape, data} is required`);
  return Array.from(t.shape);
}

function u32(v, where) {
  if (typeof v === 'bigint') v = Number(v);
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff)
    throw new RangeError(`${where}: ${v} is not an integer in [0, 2^32 - 1]`);
  return v;
}

/** Placeholder Sizes of the outputs whose shape the inputs leave free (_ops.py's GIVEN). */
const GIVEN = {
  sizes: (v, rank, where) => Array.from(v, (e, i) => Array(rank).fill(u32(e, `${where}[${i}]`))),
  depth: (v, rank, where) => Array(rank).fill(u32(v, where)),
  shape: (v, rank, where) => Array.from(v, (e, i) => u32(e, `${where}[${i}]`)),
  components: (v, rank, where) => [...Array(Math.max(rank, 2) - 1).fill(1), u32(v, where)],
};

/** A DML_SCALAR_UNION value: a Number or BigInt of the type `dtype` names, or its raw bytes
 * (a Uint8Array of at least the element's size, kept bit for bit); as the case format's hex. */
function unionValue(v, t, where) {
  if (v instanceof Uint8Array || (isView(v) && !(v instanceof Uint8Array))) {
    const b = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    if (b.length < t.size) throw new RangeError(`${where}: ${b.length} bytes given for a ${t.name} value`);
    let hex = '';
    for (let i = t.size - 1; i >= 0; --i) hex += b[i].toString(16).padStart(2, '0');
    return '0x' + hex;
  }
  if (typeof v === 'bigint') return v;
  if (typeof v === 'string') return v; // the case format's own: "nan", "-inf", "0x7e01", "9007199254740993"
  if (typeof v !== 'number') throw new TypeError(`${where}: a ${t.name} value must be a number, a BigInt, a string or bytes`);
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (Object.is(v, -0)) {
    const b = new Uint8Array(8);
    if (t.code === 2) b.set([0, 0x80]);
    else if (t.code === 1) b.set([0, 0, 0, 0x80]);
    else if (t.code === 9) b.set([0, 0, 0, 0, 0, 0, 0, 0x80]);
    else return 0;
    return unionValue(b, t, where);
  }
  return v;
}

/**
 * Builds the case object of one operator call (the package's operator functions): the inputs
 * as typed-array tensors, the parameters by their DirectML field names, the outputs' DataType
 * (and placeholder Sizes where the shape is free), "derive_output_sizes": true.
 */
export function operatorCase(opName, inputs, params = {}) {
  const op = OPERATORS[opName];
  if (!op) throw new TypeError(`dmlref: unknown operator ${opName}`);
  const where = op.fn;
  if (params === null || typeof params !== 'object') throw new TypeError(`${where}: options must be an object`);
  const c = { operator: opName, derive_output_sizes: true };
  if (params.featureLevel !== undefined) c.feature_level = params.featureLevel;
  const sizes = {};
  let first = null;
  op.inputs.forEach((slot, i) => {
    const v = inputs[i];
    if (v === undefined || v === null) {
      if (!slot.optional) throw new TypeError(`${where}: ${slot.name} is required`);
      return;
    }
    if (slot.array) {
      if (!Array.isArray(v) || v.length === 0) throw new TypeError(`${where}: ${slot.name} must be an array of tensors`);
      v.forEach((e, j) => shapeOf(e, `${where}: ${slot.name}[${j}]`));
      sizes[slot.name] = shapeOf(v[0], `${where}: ${slot.name}[0]`);
      if (!first) first = v[0];
    } else {
      sizes[slot.name] = shapeOf(v, `${where}: ${slot.name}`);
      if (!first) first = v;
    }
    c[slot.name] = v;
  });
  const extras = [...op.extra, ...(first ? [] : op.extraWithoutInput ?? [])];
  const known = new Set(['featureLevel', 'checkIndices', 'onWarning', 'outputDataTypes', ...op.extra,
    ...(op.extraWithoutInput ?? [])]);
  for (const p of op.params) known.add(camel(p.name));
  for (const k of Object.keys(params)) {
    if (!known.has(k)) throw new TypeError(`${where}: unknown option ${k} (${[...known].join(', ')})`);
  }
  for (const e of extras) {
    if (params[e] === undefined) throw new TypeError(`${where}: ${e} is required`);
  }
  // the outputs' type: the first input's (DTYPE_FROM's input, SLOT_DTYPE's, or dtype)
  let dtype = params.dtype ?? (op.dtypeFrom ? c[op.dtypeFrom]?.dataType : first?.dataType);
  if (dtype === undefined) throw new TypeError(`${where}: dtype is required (no input gives the output's type)`);
  dtype = typeOf(dtype, `${where}: dtype`);
  // the parameters, by their DirectML names
  for (const p of op.params) {
    const key = camel(p.name);
    let v = params[key];
    if (v === undefined && op.defaults && op.defaults[p.name] !== undefined) {
      const d = op.defaults[p.name];
      v = typeof d === 'string' && d.startsWith('rank:') ? sizes[d.slice(5)]?.length : d;
    }
    if (v === undefined && p.fromDtype) v = dtype.dml;
    if (v === undefined) {
      if (p.optional) continue;
      throw new TypeError(`${where}: ${key} is required`);
    }
    if (p.kind === 'union') {
      const tf = op.params.find((q) => q.name === p.typeField);
      const tname = (tf && params[camel(tf.name)]) ?? dtype.dml;
      v = unionValue(v, typeOf(tname, `${where}: ${tf ? camel(tf.name) : 'dtype'}`), `${where}: ${key}`);
    } else if (p.kind === 'datatype') {
      v = typeof v === 'string' && TYPES.has(v) ? TYPES.get(v).dml : v;
    } else if (p.kind === 'array' || p.kind === 'float_array') {
      v = Array.from(v);
    } else if (p.kind === 'bool') {
      v = typeof v === 'boolean' ? v : Boolean(v);
    }
    c[p.name] = v;
  }
  // the outputs: DataType, and the placeholder Sizes where the shape is free
  const rank = first ? first.shape.length : params.shape ? params.shape.length : 0;
  let placeholder;
  for (const e of extras) if (GIVEN[e]) placeholder = GIVEN[e](params[e], rank, `${where}: ${e}`);
  for (const slot of op.outputs) {
    const given = params.outputDataTypes?.[slot.name];
    const dt = given !== undefined ? typeOf(given, `${where}: outputDataTypes.${slot.name}`)
      : op.slotDtype?.[slot.name] ? TYPES.get(op.slotDtype[slot.name]) : dtype;
    if (slot.array) {
      if (!Array.isArray(placeholder)) throw new TypeError(`${where}: sizes is required`);
      c[slot.name] = placeholder.map((sz) => ({ DataType: dt.dml, Sizes: sz }));
    } else {
      c[slot.name] = placeholder ? { DataType: dt.dml, Sizes: placeholder } : { DataType: dt.dml };
    }
  }
  return c;
}

/** Calls an operator through its case (operators.mjs' functions use this). */
export function callOperator(opName, inputs, params = {}) {
  const op = OPERATORS[opName];
  const c = operatorCase(opName, inputs, params);
  const outs = run(c, { strict: params.checkIndices === true, onWarning: params.onWarning ?? (() => {}) });
  // packed outputs: the elements only (a float16 or 8-bit buffer is padded to 4 bytes)
  const trim = (t) => {
    const n = t.shape.reduce((a, b) => a * b, 1);
    return t.data.length > n ? { ...t, data: t.data.slice(0, n) } : t;
  };
  const result = {};
  for (const slot of op.outputs) {
    if (slot.array) {
      const list = [];
      for (let j = 0; `${slot.name}_${j}` in outs; ++j) list.push(trim(outs[`${slot.name}_${j}`]));
      result[slot.name] = list;
    } else if (slot.name in outs) {
      result[slot.name] = trim(outs[slot.name]);
    }
  }
  const names = Object.keys(result);
  return names.length === 1 ? result[names[0]] : result;
}

const functions = {};
for (const [opName, op] of Object.entries(OPERATORS)) {
  functions[op.fn] = (...args) => {
    const n = op.inputs.length;
    const params = args.length > n && args[n] !== null && typeof args[n] === 'object' ? args[n] : {};
    return callOperator(opName, args.slice(0, n), params);
  };
  for (const a of op.aliases ?? []) functions[a] = functions[op.fn];
}
export { functions as operators };

const api = { ready, load, version, run, runCaseFile, DmlrefError, dataTypes, operators: functions, operatorCase,
  callOperator, ...functions };
export default api;
export * from './functions.mjs';
