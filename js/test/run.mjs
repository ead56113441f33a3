// make test-js: every js/test/*.test.mjs under `node --test`, then one line like every suite
// here: "js: N passed, N failed, N skipped" (exit 1 on a failure).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => join(here, f));
const child = spawn(process.execPath, ['--test', '--test-reporter=tap', ...files], { stdio: ['ignore', 'pipe', 'inherit'] });
let text = '';
child.stdout.on('data', (d) => {
  text += d;
  process.stdout.write(d);
});
child.on('close', (rc) => {
  const count = (k) => Number(new RegExp(`^# ${k} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  let failed = count('fail') + count('cancelled');
  const passed = count('pass');
  const skipped = count('skipped') + count('todo');
  if (rc !== 0 && failed === 0) failed = 1;
  if (passed + failed + skipped === 0) failed = 1;
  const why = [...text.matchAll(/^# SKIP.*$|^ok \d+ - .* # SKIP (.*)$/gm)].map((m) => m[1]).filter(Boolean);
  if (skipped) console.log(`js: skipped: ${[...new Set(why)].join('; ')}`);
  console.log(`js: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(failed ? 1 : 0);
});
