#!/usr/bin/env node
// Runs the vitest suite on every supported Node line (22, 24 and 26; package.json `engines` says >=22.12).
//
//   node scripts/node-versions.mjs                      every line, the whole suite
//   node scripts/node-versions.mjs --only 22            one line (`--only 22,26` or `--only 22 --only 26`: several)
//   node scripts/node-versions.mjs -- tests/app         arguments after `--` go to `vitest run`
//
// The binaries come from scripts/node-binaries.mjs (Node 24: the devDependency; 22 and 26: installed once per
// machine outside the checkout). Each run puts its Node first on PATH, so the servers and workers the
// tests spawn run on the same Node as vitest. `ARBOR_REQUIRE_WASM=1` is set as under `npm test`: a
// missing wasm build (or another prerequisite) fails the run instead of skipping the tests that need it.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_LINES, nodeBinary } from './node-binaries.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (message) => console.log(`[arbor] ${message}`);

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const own = dashes === -1 ? argv : argv.slice(0, dashes);
const vitestArgs = dashes === -1 ? [] : argv.slice(dashes + 1);
const only = own.flatMap((arg, i) => (own[i - 1] === '--only' ? arg.split(',') : []));
const unknown = only.filter((line) => !NODE_LINES.includes(line));
const lines = NODE_LINES.filter((line) => only.length === 0 || only.includes(line)).map((line) => ({
  line,
  resolve: () => nodeBinary(line, log),
}));
if (lines.length === 0 || unknown.length > 0) {
  console.error(`--only takes ${NODE_LINES.join(', ')}, got ${only.join(', ')}`);
  process.exit(2);
}

const results = [];
for (const { line, resolve } of lines) {
  let node;
  try {
    node = resolve();
  } catch (error) {
    results.push({ line, version: '—', ok: false, note: error.message });
    continue;
  }
  log(`node ${node.version}: vitest run ${vitestArgs.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(
    node.binary,
    [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...vitestArgs],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        ARBOR_REQUIRE_WASM: '1',
        PATH: `${dirname(node.binary)}:${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
      },
    },
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push({
    line,
    version: node.version,
    ok: result.status === 0,
    note: `${seconds} s, exit ${result.status}`,
  });
}

log('summary:');
for (const r of results) log(`  node ${r.line} (${r.version}): ${r.ok ? 'passed' : 'FAILED'} — ${r.note}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
