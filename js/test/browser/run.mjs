// make test-js-browser: the package in a real browser, headless Chromium (Debian's `chromium`).
//
// The command (build/dmlref, or DMLREF_CLI) computes the reference first: every case of
// tests/cases and tests/cases/bad, and a `gen` suite (float16 and int64 among its types),
// through `dmlref run CASE --npy DIR`.  A local HTTP server (127.0.0.1, a free port) serves the
// package folder (js/, as `npm pack` ships it), this folder's page and the cases with their
// .npy inputs and the command's output bytes.  The page (page.html, page.mjs) imports the
// package as a browser does, runs each case with run(caseText, {files}) and posts its counts
// and failures back; this script prints them and the line "js-browser: N passed, N failed".
// Without chromium it prints SKIP and "js-browser: 0 passed, 0 failed, 1 skipped".
//
//   node js/test/browser/run.mjs        (environment: CHROMIUM, DMLREF_CLI, DMLREF_JS_PKG)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..', '..');
const PKG = resolve(process.env.DMLREF_JS_PKG || join(ROOT, 'js'));
const CLI = process.env.DMLREF_CLI || join(ROOT, 'build', 'dmlref');
const TIMEOUT_MS = Number(process.env.DMLREF_BROWSER_TIMEOUT || 300) * 1000;

function which(cmd) {
  for (const d of (process.env.PATH || '').split(':')) if (d && existsSync(join(d, cmd))) return join(d, cmd);
  return null;
}
const CHROMIUM = process.env.CHROMIUM || which('chromium') || which('chromium-browser');

function done(pass, fail, skip = 0) {
  console.log(`js-browser: ${pass} passed, ${fail} failed${skip ? `, ${skip} skipped` : ''}`);
  process.exit(fail ? 1 : 0);
}
if (!CHROMIUM) {
  console.log('SKIP js-browser: no chromium (Debian: apt-get install chromium)');
  done(0, 0, 1);
}
for (const f of ['index.mjs', 'dmlref_wasm.mjs', 'dmlref_wasm.wasm']) {
  if (!existsSync(join(PKG, f))) {
    console.log(`js-browser: ${join(PKG, f)} is missing (make js)`);
    done(0, 1);
  }
}
if (!existsSync(CLI)) {
  console.log(`js-browser: no native command at ${CLI} (make first, or set DMLREF_CLI)`);
  done(0, 1);
}

const tmp = mkdtempSync(join(tmpdir(), 'dmlref-browser-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

function npyPayload(b) {
  const major = b[6];
  const len = major === 1 ? b[8] | (b[9] << 8) : b[8] | (b[9] << 8) | (b[10] << 16) | (b[11] << 24);
  return b.subarray((major === 1 ? 10 : 12) + len);
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

// The reference for one case file: the command's exit status, stderr and output bytes.
function reference(path, name) {
  const text = readFileSync(path, 'utf8');
  const out = join(tmp, 'out', String(name).replace(/[^A-Za-z0-9_.-]/g, '_'));
  const r = spawnSync(CLI, ['run', path, '--npy', out], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const expected = {};
  if (existsSync(out)) {
    for (const f of readdirSync(out)) {
      if (f.endsWith('.npy')) expected[f.slice(0, -4)] = Buffer.from(npyPayload(readFileSync(join(out, f)))).toString('base64');
    }
  }
  let refs = new Set();
  try {
    refs = npyRefs(JSON.parse(text), refs);
  } catch {
    // a malformed case: the reader says why, in both
  }
  const files = {};
  for (const rel of refs) {
    const p = resolve(dirname(path), rel);
    if (p.startsWith(dirname(path) + sep) && existsSync(p)) files[rel] = readFileSync(p).toString('base64');
  }
  // the messages as run() gives them: .npy paths relative to the case
  const stderr = r.stderr.trim().split(dirname(path) + '/').join('');
  return { name, text, files, exit: r.status, expected, stderr };
}

const cases = [];
const casesDir = join(ROOT, 'tests', 'cases');
for (const f of readdirSync(casesDir).filter((f) => f.endsWith('.json')).sort()) cases.push(reference(join(casesDir, f), f));
for (const f of readdirSync(join(casesDir, 'bad')).filter((f) => f.endsWith('.json')).sort())
  cases.push(reference(join(casesDir, 'bad', f), `bad/${f}`));
// a gen suite: random cases of every operator, float16 and int64 data among them
const suite = join(tmp, 'suite');
const g = spawnSync(CLI, ['gen', '--suite', suite, '--seed', '29', '--count', '3'], { encoding: 'utf8' });
if (g.status !== 0) {
  console.log(`js-browser: dmlref gen failed: ${g.stderr.trim()}`);
  done(0, 1);
}
for (const f of readdirSync(suite).filter((f) => f.endsWith('.json')).sort()) cases.push(reference(join(suite, f), `gen/${f}`));
const manifest = JSON.stringify({ cases });

const TYPES = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html',
  '.json': 'application/json' };
let report = null;
let chrome = null;
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  if (req.method === 'POST' && url.pathname === '/result') {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      res.end('ok');
      report = JSON.parse(body);
      finish();
    });
    return;
  }
  let file = null;
  if (url.pathname === '/' || url.pathname === '/page.html') file = join(HERE, 'page.html');
  else if (url.pathname === '/page.mjs') file = join(HERE, 'page.mjs');
  else if (url.pathname === '/manifest.json') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(manifest);
    return;
  } else if (url.pathname.startsWith('/pkg/')) {
    const p = resolve(PKG, '.' + decodeURIComponent(url.pathname.slice(4)));
    if (p.startsWith(PKG + sep)) file = p;
  }
  if (!file || !existsSync(file)) {
    res.writeHead(404);
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream' });
  res.end(readFileSync(file));
});

function finish() {
  clearTimeout(timer);
  if (chrome) chrome.kill('SIGKILL');
  server.close();
  if (!report) {
    console.log(`js-browser: no result from the page within ${TIMEOUT_MS / 1000} s`);
    done(0, 1);
  }
  console.log(`browser: ${report.userAgent}`);
  console.log(`package: dmlref ${report.version}, ${report.cases} cases`);
  for (const f of report.failures) console.log(`FAIL: ${f}`);
  done(report.pass, report.fail);
}
const timer = setTimeout(finish, TIMEOUT_MS);

server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  chrome = spawn(CHROMIUM, ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-extensions', '--disable-dev-shm-usage', `--user-data-dir=${join(tmp, 'profile')}`,
    `http://127.0.0.1:${port}/page.html`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  chrome.stderr.on('data', (c) => { err = (err + c).slice(-4000); });
  chrome.on('exit', (code) => {
    if (!report) {
      console.log(`js-browser: chromium exited (${code}) before the page reported:\n${err}`);
      clearTimeout(timer);
      server.close();
      done(0, 1);
    }
  });
});
