// The plain-JavaScript stand-in backend of backend_harness.mjs: every operator in its framework
// form (the manifest's "framework": ONNX name, axis, lists; docs/testing-your-backend.md).
export const prod = (a) => a.reduce((x, y) => x * y, 1);
const norm = (v, n) => (v < 0 ? v + n : v); // negative indices count from the end
const coords = (i, shape) => shape.map((n, k) => Math.floor(i / prod(shape.slice(k + 1))) % n); // row-major
const index = (c, shape) => c.reduce((a, x, k) => a * shape[k] + x, 0);
// A tensor of `shape` (the type of `like`) whose element at coordinates c is src(c).
const make = (shape, like, src) => like.constructor.from({ length: prod(shape) }, (_, i) => src(coords(i, shape)));
const along = (c, ax, v) => c.map((x, k) => (k === ax ? v : x)); // c with coordinate ax replaced

const BITS = { 1: Uint8Array, 2: Uint16Array, 4: Uint32Array, 8: BigUint64Array };
const fill = (fw, like) => (like instanceof BigUint64Array ? BigInt(fw.value_bits) : Number(fw.value_bits)); // hex bits
// The band of diagonals x - y in [begin, end) (begin > end: outside [end, begin)) takes the fill
// (value_bits: one element of dtype, hex), the rest the input's elements or 0.
function diagonal(fw, xs) {
  const os = fw.shapes.OutputTensor, n = os.length, b = fw.begin, e = fw.end;
  const like = xs.length ? xs[0].data : new BITS[Number(/\d+/.exec(fw.dtype)[0]) / 8](0);
  const zero = like instanceof BigUint64Array ? 0n : 0;
  return make(os, like, (c) => {
    const d = c[n - 1] - c[n - 2];
    return (e >= b) !== (d >= b) !== (d < e) ? fill(fw, like) : xs.length ? xs[0].data[index(c, os)] : zero;
  });
}
const mod = (i, p) => ((i % p) + p) % p; // non-negative
// Pad: the source index of output position i - begin along an axis of size n (pads beyond the size fold
// periodically), -1 for constant's fill.
function padSource(mode, i, n) {
  if ((i >= 0 && i < n) || mode === 'edge') return Math.min(Math.max(i, 0), n - 1);
  if (mode === 'reflect') return n === 1 ? 0 : ((m) => (m < n ? m : 2 * n - 2 - m))(mod(i, 2 * n - 2));
  if (mode === 'symmetric') return ((m) => (m < n ? m : 2 * n - 1 - m))(mod(i, 2 * n));
  return mode === 'wrap' ? mod(i, n) : -1;
}

// CAST (operators.md Q1.4) of one element's bits v, numpy dtype from ('<f4') to to, as BigInt arithmetic:
// the value taken apart (sign, integer significand, exponent), rounded once to nearest even into a
// float, or truncated and saturated (NaN 0) into an integer; integers wrap; a NaN keeps its sign and
// top payload bits, quiet bit set.  (JavaScript's Math.fround and typed arrays disagree on some.)
const FMT = { 2: [10n, 5n, 15n], 4: [23n, 8n, 127n], 8: [52n, 11n, 1023n] };
const bitLen = (m) => BigInt(m.toString(2).length);
function castBits(v, from, to) {
  const fs = Number(from.slice(2)), ts = Number(to.slice(2)), w = BigInt(8 * ts);
  let b = BigInt(v), neg = false, mag, exp = 0n, kind = 'fin', ms = 0n;
  if (from === to) return v;
  if (from[1] !== 'f') {
    const fw = BigInt(8 * fs);
    neg = from[1] === 'i' && ((b >> (fw - 1n)) & 1n) === 1n;
    mag = neg ? (1n << fw) - b : b;
  } else {
    const [md, ew, bias] = FMT[fs], em = (1n << ew) - 1n, e = (b >> md) & em, m = b & ((1n << md) - 1n);
    neg = ((b >> (md + ew)) & 1n) === 1n;
    if (e === em) [kind, mag, ms] = [m ? 'nan' : 'inf', m, md];
    else [mag, exp] = e === 0n ? [m, 1n - bias - md] : [m | (1n << md), e - bias - md];
  }
  let r;
  if (to[1] === 'f') {
    const [md, ew, bias] = FMT[ts], sign = neg ? 1n << (md + ew) : 0n, inf = sign | (((1n << ew) - 1n) << md);
    if (kind === 'inf') r = inf;
    else if (kind === 'nan') r = inf | (ms >= md ? mag >> (ms - md) : mag << (md - ms)) | (1n << (md - 1n));
    else if (mag === 0n) r = from[1] === 'f' ? sign : 0n;
    else {
      const e = bitLen(mag) - 1n + exp, emin = 1n - bias, shift = (e < emin ? emin : e) - md - exp;
      let q = mag << (shift < 0n ? -shift : 0n);
      if (shift > 0n) {
        const rem = mag & ((1n << shift) - 1n), half = 1n << (shift - 1n);
        q = (mag >> shift) + (rem > half || (rem === half && ((mag >> shift) & 1n)) ? 1n : 0n);
      }
      r = e > bias ? inf : sign | (e < emin ? q : ((e + bias - 1n) << md) + q);
    }
  } else {
    const sgn = to[1] === 'i', max = sgn ? (1n << (w - 1n)) - 1n : (1n << w) - 1n, min = sgn ? -(max + 1n) : 0n;
    let t;
    if (from[1] !== 'f') t = neg ? -mag : mag;
    else if (kind === 'nan') t = 0n;
    else if (kind === 'inf') t = neg ? min : max;
    else t = (exp >= 0n ? mag << exp : mag >> -exp) * (neg ? -1n : 1n);
    if (from[1] === 'f') t = t > max ? max : t < min ? min : t;
    r = BigInt.asUintN(Number(w), t);
  }
  return ts === 8 ? r : Number(r);
}
const npType = (name) => `<${name[0] === 'f' ? 'f' : name[0] === 'u' ? 'u' : 'i'}${Number(/\d+/.exec(name)[0]) / 8}`;
// ConstantOfShape: every element the fill.  Range (FILL_VALUE_SEQUENCE, docs/operators.md Q4):
// element i of the flat sequence = Start + i * Delta (value_bits, delta_bits), the output's
// row-major element i; integers modulo 2^bits, floats fl32(Start + fl32(fl32(i) * Delta)) (float16:
// on the widened values, then rounded to binary16), a NaN result the canonical quiet NaN.
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
const fromF32 = (b) => { u32[0] = b; return f32[0]; };
const toF32 = (v) => { f32[0] = v; return u32[0]; };
const fromF16 = (h) => {
  const sg = h & 0x8000 ? -1 : 1, e = (h >> 10) & 31, m = h & 1023;
  return e === 31 ? (m ? NaN : sg * Infinity) : sg * 2 ** (e ? e - 15 : -14) * ((e ? 1 : 0) + m / 1024);
};
const rne = (q) => { const f = Math.floor(q), d = q - f; return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f; };
function toF16(v) { // a float32 value, not NaN: nearest even, overflow to infinity
  const sg = v < 0 || Object.is(v, -0) ? 0x8000 : 0, a = Math.abs(v);
  if (a >= 65520) return sg | 0x7c00;
  if (a < 2 ** -14) return sg | rne(a * 2 ** 24); // subnormal (1024: the smallest normal's bits)
  let e = -14;
  while (a >= 2 ** (e + 1)) e++;
  let r = rne(a / 2 ** (e - 10));
  if (r === 2048) [e, r] = [e + 1, 1024];
  return e > 15 ? sg | 0x7c00 : sg | ((e + 15) << 10) | (r - 1024);
}
function sequence(fw) {
  const os = fw.shapes.OutputTensor, w = Number(/\d+/.exec(fw.dtype)[0]), like = new BITS[w / 8](0);
  if (fw.dtype.startsWith('float')) {
    const wide = w === 16 ? fromF16 : fromF32, s = wide(Number(fw.value_bits)), d = wide(Number(fw.delta_bits));
    return make(os, like, (c) => {
      const v = Math.fround(s + Math.fround(Math.fround(index(c, os)) * d));
      return Number.isNaN(v) ? (w === 16 ? 0x7e00 : 0x7fc00000) : w === 16 ? toF16(v) : toF32(v);
    });
  }
  const s = BigInt(fw.value_bits), d = BigInt(fw.delta_bits);
  return make(os, like, (c) => {
    const v = BigInt.asUintN(w, s + BigInt(index(c, os)) * d);
    return w === 64 ? v : Number(v);
  });
}

// The operator in its framework form (fw: the manifest's "framework") on row-major arrays:
// xs = [{shape, data}]; returns each output's elements, row-major, as bits (readNpy's types).
// ArgMin / ArgMax's order of one element's bits (dtype '<f4', '<i2', ...): integers by value,
// floats -0 == +0, a NaN beyond every number (above for ArgMax, below for ArgMin: it wins).
function orderKey(v, dtype, isMax) {
  const size = Number(dtype.slice(2)), w = BigInt(8 * size), b = BigInt(v), top = 1n << (w - 1n);
  if (dtype[1] === 'f') {
    const exp = { 2: 10n, 4: 23n, 8: 52n }[size], mag = b & (top - 1n), inf = ((1n << (w - 1n - exp)) - 1n) << exp;
    if (mag > inf) return isMax ? 1n << 80n : -(1n << 80n);
    return b & top ? -mag : mag;
  }
  return dtype[1] === 'i' && b & top ? b - (1n << w) : b;
}

// ArgMin / ArgMax over fw.axes (the index row-major over them, increasing), keepdims; the first
// best, or the last with select_last_index.  The indices as numbers (the harness reads them so).
function argMinMax(fw, x, isMax) {
  const s = x.shape, axes = fw.axes, rs = axes.map((a) => s[a]), n = prod(rs), last = fw.select_last_index === 1;
  const os = s.map((v, k) => (axes.includes(k) ? 1 : v));
  return Array.from({ length: prod(os) }, (_, o) => {
    const c = coords(o, os);
    let best = null, at = 0;
    for (let j = 0; j < n; j++) {
      const r = coords(j, rs), full = c.map((v, k) => (axes.includes(k) ? r[axes.indexOf(k)] : v));
      const key = orderKey(x.data[index(full, s)], x.dtype, isMax);
      const better = best === null || (isMax ? key > best || (last && key === best) : key < best || (last && key === best));
      if (better) [best, at] = [key, j];
    }
    return at;
  });
}

export function runBackend(fw, xs) {
  if (fw.onnx === 'ArgMax' || fw.onnx === 'ArgMin') return [argMinMax(fw, xs[0], fw.onnx === 'ArgMax')];
  if (fw.onnx === 'EyeLike' || fw.onnx === 'Trilu') return [diagonal(fw, xs)];
  if (fw.onnx === 'ConstantOfShape') {
    const os = fw.shapes.OutputTensor, like = new BITS[Number(/\d+/.exec(fw.dtype)[0]) / 8](0);
    return [make(os, like, () => fill(fw, like))];
  }
  if (fw.onnx === 'Range') return [sequence(fw)];
  if (fw.onnx === 'NonZero') { // numpy's argwhere rows as uint32, padded to M rows (undefined past the count)
    const [x] = xs, s = x.shape, n = s.length, f = x.dtype.includes('f'); // floats: the bits without the sign
    const mask = x.data.BYTES_PER_ELEMENT === 2 ? 0x7fff : 0x7fffffff, out = new Uint32Array(x.data.length * n);
    let count = 0;
    x.data.forEach((v, i) => {
      if (f ? (Number(v) & mask) !== 0 : Number(v) !== 0) coords(i, s).forEach((c, j) => { out[count * n + j] = c; }), count++;
    });
    return [new Uint32Array([count]), out];
  }
  if (fw.onnx === 'Where') { // any nonzero condition byte selects the first
    const [c, a, b] = xs;
    return [make(a.shape, a.data, (k) => (c.data[index(k, c.shape)] !== 0 ? a : b).data[index(k, a.shape)])];
  }
  const ax = fw.axis, [x, ix] = xs, s = x.shape, at = (c) => x.data[index(c, s)], b = fw.blocksize;
  switch (fw.onnx) {
    case 'Gather': { // output = data[:axis] + indices + data[axis + 1:]
      const r = ix.shape.length, os = [...s.slice(0, ax), ...ix.shape, ...s.slice(ax + 1)];
      const pick = (c) => norm(ix.data[index(c.slice(ax, ax + r), ix.shape)], s[ax]);
      return [make(os, x.data, (c) => at([...c.slice(0, ax), pick(c), ...c.slice(ax + r)]))];
    }
    case 'GatherElements':
      return [make(ix.shape, x.data, (c) => at(along(c, ax, norm(ix.data[index(c, ix.shape)], s[ax]))))];
    case 'ScatterND': {
      const out = x.data.slice(), t = ix.shape[ix.shape.length - 1], slice = prod(s.slice(t)), upd = xs[2].data;
      for (let u = 0; u * t < ix.data.length; u++) {
        const to = index(ix.data.slice(u * t, u * t + t).map((v, k) => norm(v, s[k])), s.slice(0, t));
        out.set(upd.subarray(u * slice, (u + 1) * slice), to * slice);
      }
      return [out];
    }
    case 'Split': // piece k starts where the pieces before it end
      return fw.split.map((len, k) => {
        const from = fw.split.slice(0, k).reduce((a, n) => a + n, 0);
        return make(along(s, ax, len), x.data, (c) => at(along(c, ax, c[ax] + from)));
      });
    case 'Concat': { // each output element from the piece its axis coordinate falls in
      const os = along(s, ax, xs.reduce((a, p) => a + p.shape[ax], 0));
      return [make(os, x.data, (c) => {
        let k = 0, v = c[ax];
        while (v >= xs[k].shape[ax]) v -= xs[k++].shape[ax];
        return xs[k].data[index(along(c, ax, v), xs[k].shape)];
      })];
    }
    case 'ScatterElements': { // output = data, then output[c with c[axis] = indices[c]] = updates[c]
      const out = x.data.slice();
      ix.data.forEach((v, i) => { out[index(along(coords(i, ix.shape), ax, norm(v, s[ax])), s)] = xs[2].data[i]; });
      return [out];
    }
    case 'Tile': return [make(s.map((n, k) => n * fw.repeats[k]), x.data, (c) => at(c.map((v, k) => v % s[k])))];
    case 'Identity': return [x.data.slice()];
    case 'Cast': { const to = npType(fw.dtype); return [BITS[Number(to.slice(2))].from(x.data, (v) => castBits(v, x.dtype, to))]; }
    case 'DepthToSpace': { // space coordinate (n, c, h*b + i, w*b + j) from depth channel ch
      const cc = s[1] / (b * b), os = [s[0], cc, s[2] * b, s[3] * b];
      return [make(os, x.data, ([n, c, y, w]) => {
        const i = y % b, j = w % b, ch = fw.mode === 'DCR' ? (i * b + j) * cc + c : c * b * b + i * b + j;
        return at([n, ch, Math.floor(y / b), Math.floor(w / b)]);
      })];
    }
    case 'SpaceToDepth': {
      const cc = s[1], os = [s[0], cc * b * b, s[2] / b, s[3] / b];
      return [make(os, x.data, ([n, ch, h, w]) => {
        const [c, q] = fw.mode === 'DCR' ? [ch % cc, Math.floor(ch / cc)] : [Math.floor(ch / (b * b)), ch % (b * b)];
        return at([n, c, h * b + Math.floor(q / b), w * b + (q % b)]);
      })];
    }
    case 'Slice': { // ONNX's clamping: negative starts and ends count from the end
      const from = [...s].fill(0), step = [...s].fill(1), os = [...s];
      fw.axes.forEach((a, k) => {
        const d = s[a], st = fw.steps[k], lo = st > 0 ? 0 : -1, hi = st > 0 ? d : d - 1;
        const cl = (v, l, h) => Math.min(Math.max(v < 0 ? v + d : v, l), h);
        const b0 = cl(fw.starts[k], 0, hi), e = cl(fw.ends[k], lo, hi);
        [from[a], step[a], os[a]] = [b0, st, Math.max(0, Math.ceil((e - b0) / st))];
      });
      return [make(os, x.data, (c) => at(c.map((v, k) => from[k] + step[k] * v)))];
    }
    case 'GatherND': { // output = indices.shape[:-1] + data.shape[batch_dims + t:]
      const q = ix.shape.length, t = ix.shape[q - 1], bd = fw.batch_dims;
      const os = [...ix.shape.slice(0, q - 1), ...s.slice(bd + t)];
      return [make(os, x.data, (c) => {
        const tup = Array.from({ length: t }, (_, k) => norm(ix.data[index([...c.slice(0, q - 1), k], ix.shape)], s[bd + k]));
        return at([...c.slice(0, bd), ...tup, ...c.slice(q - 1)]);
      })];
    }
    case 'OneHot': { // out of range (after negative indices count from the end): the whole sequence off
      const vals = xs[1].data, os = [...s.slice(0, ax), fw.depth, ...s.slice(ax)];
      return [make(os, vals, (c) => {
        const i = x.data[index([...c.slice(0, ax), ...c.slice(ax + 1)], s)];
        return vals[norm(i, fw.depth) === c[ax] ? 1 : 0];
      })];
    }
    case 'Pad': { // pads: [x1_begin, x2_begin, ..., x1_end, x2_end, ...]
      const p = fw.pads, r = s.length, os = s.map((n, k) => n + p[k] + p[k + r]);
      return [make(os, x.data, (c) => {
        const src = c.map((v, k) => padSource(fw.mode, v - p[k], s[k]));
        return src.includes(-1) ? fill(fw, x.data) : at(src);
      })];
    }
    case 'Unfold': { // no ONNX operator (the stand-ins' name): im2col, torch.nn.functional.unfold's layout
      const k = s.length - 2, w = fw.kernel_size, p = fw.pads, wk = prod(w);
      const blocks = w.map((n, d) => Math.floor((s[2 + d] + p[d] + p[d + k] - fw.dilations[d] * (n - 1) - 1) / fw.strides[d]) + 1);
      const zero = x.data instanceof BigUint64Array ? 0n : 0;
      return [make([s[0], s[1] * wk, prod(blocks)], x.data, ([n, r, l]) => {
        const kc = coords(r % wk, w), bc = coords(l, blocks); // window offset and block, row-major
        const src = kc.map((v, d) => bc[d] * fw.strides[d] + v * fw.dilations[d] - p[d]);
        return src.every((v, d) => v >= 0 && v < s[2 + d]) ? at([n, Math.floor(r / wk), ...src]) : zero;
      })];
    }
    case 'MaxUnpool': { // Y = zeros of the default shape ((X - 1) * strides + kernel_shape), Y.flat[I] = X
      const os = [s[0], s[1], ...s.slice(2).map((n, k) => (n - 1) * fw.strides[k] + fw.kernel_shape[k])];
      const out = new x.data.constructor(prod(os)); // all-zero bits
      ix.data.forEach((v, i) => { out[Number(v)] = x.data[i]; });
      return [out];
    }
    case 'ReverseSequence': // the first L = min(length, n) elements of each sequence reversed
      return [make(s, x.data, (c) => {
        const L = Math.min(ix.data[index(along(c, ax, 0), ix.shape)], s[ax]);
        return at(c[ax] < L ? along(c, ax, L - 1 - c[ax]) : c);
      })];
    case 'Resize': { // mode nearest: x = (o + a) / scale - b in float32 (Math.fround), floored or ceiled, clamped
      const [a, bb] = { asymmetric: [0, 0], tf_half_pixel_for_nn: [0.5, 0], half_pixel: [0.5, 0.5] }[fw.mode];
      const os = s.map((n, k) => Math.floor(n * fw.scales[k]));
      const src = (v, k) => {
        const f = Math.fround, t = f(f(f(v + a) / f(fw.scales[k])) - bb);
        const i = fw.nearest_mode === 'floor' ? Math.floor(t) : Math.ceil(t);
        return Math.min(Math.max(i, 0), s[k] - 1);
      };
      return [make(os, x.data, (c) => at(c.map(src)))];
    }
    case 'TopK': { // a stable sort of each sequence (ties: ascending index), descending for largest
      const isz = Number(x.dtype.slice(2)), w = 8 * isz, kind = x.dtype[1];
      const val = (b) => (kind === 'f' ? (isz === 2 ? fromF16(b) : fromF32(b)) + 0 : kind === 'u' ? b
        : isz === 8 ? BigInt.asIntN(64, b) : b >= 2 ** (w - 1) ? b - 2 ** w : b);
      const os = along(s, ax, fw.k), memo = new Map();
      const order = (c) => { // the sequence's positions, sorted (memoised per sequence)
        const key = along(c, ax, 0).join();
        if (!memo.has(key)) {
          const v = Array.from({ length: s[ax] }, (_, j) => val(at(along(c, ax, j))));
          const p = v.map((_, j) => j).sort((i, j) => (v[i] < v[j] ? -1 : v[i] > v[j] ? 1 : 0) * (fw.largest ? -1 : 1));
          memo.set(key, p);
        }
        return memo.get(key);
      };
      const IX = fw.dtype === 'uint64' ? BigUint64Array : Uint32Array;
      return [make(os, x.data, (c) => at(along(c, ax, order(c)[c[ax]]))),
        make(os, new IX(0), (c) => (IX === BigUint64Array ? BigInt(order(c)[c[ax]]) : order(c)[c[ax]]))];
    }
  }
  throw new Error(`no stand-in for ${fw.onnx}`);
}

