// ONNX Runtime's CPU provider (npm onnxruntime-node, found through ORT_NODE, a path to its
// package directory, or NODE_PATH) as a peer of scripts/peers.py: times session.run on the
// one-node models `dmlref export bench/workloads/<id>.json --out DIR --onnx` writes (ONNX
// node-test layout: model.onnx, test_data_set_0/input_N.pb, output_N.pb).
//
//   node scripts/peers_ort.mjs [--threads 1,2] [--repeat N] DIR...   one JSON line per DIR and thread count
//   node scripts/peers_ort.mjs --serve                               (scripts/peers.py --ort) a first line
//        {"ort_version": ...}, then per request line {"id", "dir", "threads", "repeat"} one answer line
//
// Per model and thread count: a session with intraOpNumThreads T, interOpNumThreads 1,
// executionMode "sequential", the default graph optimizations; the inputs created once
// from input_N.pb, the outputs preallocated once (session.run's fetches); one warm-up run,
// then `repeat` timed runs of `await session.run(...)` (ms each, process.hrtime), and a 64 MiB
// Uint8Array.set memcpy timed the same way next to it.  The warm-up's outputs are compared
// with output_N.pb byte for byte ("ok": false and "mismatch" when they differ; the run goes
// on).  A model ORT has no kernel for answers {"skip": "no kernel: ..."}; another failure
// {"error": ...}.
import { createRequire } from "module";
import fs from "fs";
import path from "path";
import readline from "readline";
const require = createRequire(import.meta.url);
const ort = require(process.env.ORT_NODE || "onnxruntime-node");
const say = (o) => fs.writeSync(1, JSON.stringify(o) + "\n");

function varint(b, p) {
  let v = 0n, s = 0n;
  for (;;) { const x = b[p.i++]; v |= BigInt(x & 0x7f) << s; s += 7n; if (x < 0x80) return v; }
}
// TensorProto: dims = 1, data_type = 2, name = 8, raw_data = 9 (as tests/export/run_ort.mjs)
function readTensor(file) {
  const b = fs.readFileSync(file), p = { i: 0 }, t = { dims: [], type: 0, name: "", raw: new Uint8Array(0) };
  while (p.i < b.length) {
    const key = Number(varint(b, p)), field = key >> 3, wire = key & 7;
    if (wire === 0) { const v = varint(b, p); if (field === 1) t.dims.push(Number(v)); else if (field === 2) t.type = Number(v); }
    else if (wire === 2) {
      const n = Number(varint(b, p)), v = b.subarray(p.i, p.i + n); p.i += n;
      if (field === 8) t.name = v.toString("utf8"); else if (field === 9) t.raw = new Uint8Array(v);
    } else if (wire === 5) p.i += 4;
    else if (wire === 1) p.i += 8;
    else throw new Error(`${file}: wire type ${wire}`);
  }
  return t;
}
const TYPES = { 1: ["float32", Float32Array], 2: ["uint8", Uint8Array], 3: ["int8", Int8Array], 4: ["uint16", Uint16Array],
  5: ["int16", Int16Array], 6: ["int32", Int32Array], 7: ["int64", BigInt64Array], 9: ["bool", Uint8Array],
  10: ["float16", Uint16Array], 11: ["float64", Float64Array], 12: ["uint32", Uint32Array], 13: ["uint64", BigUint64Array] };
function toOrt(t) {
  const [name, A] = TYPES[t.type];
  const buf = t.raw.buffer.slice(t.raw.byteOffset, t.raw.byteOffset + t.raw.byteLength);
  return new ort.Tensor(name, new A(buf), t.dims);
}
const bytes = (d) => new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
const median = (a) => { const s = [...a].sort((x, y) => x - y), n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
async function timed(fn, repeat) {
  await fn(); // warm-up
  const ms = [];
  for (let i = 0; i < repeat; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return ms;
}
const src = new Uint8Array(64 << 20).fill(1), dst = new Uint8Array(64 << 20);

async function measure(id, dir, threads, repeat) {
  const data = path.join(dir, "test_data_set_0");
  const files = fs.readdirSync(data);
  const num = (f) => parseInt(f.replace(/\D+/g, ""));
  const ins = files.filter((f) => f.startsWith("input_")).sort((a, b) => num(a) - num(b));
  const outs = files.filter((f) => f.startsWith("output_")).sort((a, b) => num(a) - num(b));
  let session;
  try {
    session = await ort.InferenceSession.create(path.join(dir, "model.onnx"), {
      intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: "sequential", logSeverityLevel: 3 });
  } catch (e) {
    const m = String(e.message || e).split("\n")[0].slice(0, 200);
    if (/NOT_IMPLEMENTED|Could not find an implementation|Failed to find kernel/.test(m)) return { id, threads, skip: `no kernel: ${m}` };
    return { id, threads, error: `session: ${m}` };
  }
  try {
    const feeds = {};
    for (const f of ins) { const t = readTensor(path.join(data, f)); feeds[t.name] = toOrt(t); }
    const want = outs.map((f) => readTensor(path.join(data, f)));
    // outputs allocated once; where ORT does not take a preallocated output (a shape it
    // decides at run time), it allocates each run and the answer says so
    let fetches = {}, prealloc = true;
    for (const w of want) { const [name, A] = TYPES[w.type]; fetches[w.name] = new ort.Tensor(name, new A(w.raw.length / A.BYTES_PER_ELEMENT), w.dims); }
    let res;
    try { res = await session.run(feeds, fetches); } catch (e) { prealloc = false; fetches = want.map((w) => w.name); res = await session.run(feeds, fetches); }
    let ok = true, mismatch;
    for (const w of want) {
      const got = res[w.name], g = bytes(got.data);
      if (JSON.stringify(got.dims) !== JSON.stringify(w.dims) || g.length !== w.raw.length) {
        ok = false; mismatch = `${w.name}: shape [${got.dims}], want [${w.dims}]`; continue;
      }
      let n = 0, first = -1;
      for (let i = 0; i < g.length; i++) if (g[i] !== w.raw[i]) { n++; if (first < 0) first = i; }
      if (n) { ok = false; mismatch = `${w.name}: ${n} of ${g.length} bytes differ, first at byte ${first}`; }
    }
    const ms = await timed(() => session.run(feeds, fetches), repeat);
    const memcpy_ms = await timed(() => dst.set(src), repeat);
    const r = { id, threads, ms, median_ms: median(ms), memcpy_ms, memcpy_gbs: 2 * 64 * 1048576 / median(memcpy_ms) / 1e6,
      ok, preallocated: prealloc, ort_version: ort.env.versions?.common || "?" };
    if (mismatch) r.mismatch = mismatch;
    return r;
  } catch (e) {
    return { id, threads, error: String(e.message || e).split("\n")[0].slice(0, 300) };
  } finally {
    await session.release();
  }
}

const args = process.argv.slice(2);
const version = (() => { try { return require((process.env.ORT_NODE || "onnxruntime-node") + "/package.json").version; } catch (e) { return "?"; } })();
if (args[0] === "--serve") {
  say({ ort_version: version });
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  for await (const line of rl) {
    if (!line.trim()) continue;
    const q = JSON.parse(line);
    say(await measure(q.id, q.dir, q.threads || 1, q.repeat || 7));
  }
} else {
  let threads = [1, 2], repeat = 7;
  const dirs = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--threads") threads = args[++i].split(",").map(Number);
    else if (args[i] === "--repeat") repeat = Number(args[++i]);
    else dirs.push(args[i]);
  }
  if (!dirs.length) { console.error("usage: node scripts/peers_ort.mjs [--threads 1,2] [--repeat N] DIR... | --serve"); process.exit(2); }
  for (const d of dirs) for (const t of threads) say(await measure(path.basename(d), d, t, repeat));
}
