#!/usr/bin/env node
// Runs the vitest suite on every supported Node line (22 and 24; package.json `engines` says >=22.12).
//
//   node scripts/node-versions.mjs                      both lines, the whole suite
//   node scripts/node-versions.mjs --only 22            one line
//   node scripts/node-versions.mjs -- tests/app         arguments after `--` go to `vitest run`
//
// Node 24 is the `node` devDependency already in node_modules/.bin. Node 22 is installed once with
// `npm install --prefix` into a cache directory OUTSIDE the checkout (default ~/.cache/arbor/node22,
// override with ARBOR_NODE_CACHE), so a fresh clone on the same machine (CI) reuses it and the
// checkout's own node_modules stay as package-lock.json describes them. Each run puts its Node first on
// PATH, so the servers and workers the tests spawn run on the same Node as vitest.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (message) => console.log(`[arbor] ${message}`);
/** The npm spec installed for Node 22 (the newest 22.x at install time; engines require >= 22.12). */
const NODE22_SPEC = process.env.ARBOR_NODE22_SPEC ?? 'node@22';

function nodeVersion(binary) {
  if (!existsSync(binary)) return null;
  const probe = spawnSync(binary, ['-v'], { encoding: 'utf8' });
  return probe.status === 0 ? probe.stdout.trim() : null;
}

function node24() {
  const binary = join(root, 'node_modules', '.bin', 'node');
  const version = nodeVersion(binary);
  if (!version?.startsWith('v24.')) {
    throw new Error(`${binary} is ${version ?? 'missing'}; run npm ci (the node@24 devDependency ships it)`);
  }
  return { binary, version };
}

function node22() {
  const dir = process.env.ARBOR_NODE_CACHE ?? join(homedir(), '.cache', 'arbor', 'node22');
  const binary = join(dir, 'node_modules', '.bin', 'node');
  let version = nodeVersion(binary);
  if (!version?.startsWith('v22.')) {
    log(`node 22: installing ${NODE22_SPEC} into ${dir} (once per machine)`);
    mkdirSync(dir, { recursive: true });
    // npm 11 asks for approval of install scripts and warns; the `node` package's binary works regardless.
    const result = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', NODE22_SPEC], {
      stdio: 'inherit',
    });
    if (result.error || result.status !== 0) {
      throw new Error(
        `npm install --prefix ${dir} ${NODE22_SPEC} failed (${result.error?.message ?? `exit ${result.status}`})`,
      );
    }
    version = nodeVersion(binary);
    if (!version?.startsWith('v22.'))
      throw new Error(`${binary} is ${version ?? 'missing'} after the install`);
  }
  return { binary, version };
}

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const own = dashes === -1 ? argv : argv.slice(0, dashes);
const vitestArgs = dashes === -1 ? [] : argv.slice(dashes + 1);
const onlyAt = own.indexOf('--only');
const only = onlyAt === -1 ? null : own[onlyAt + 1];
const lines = [
  { line: '22', resolve: node22 },
  { line: '24', resolve: node24 },
].filter((l) => only === null || l.line === only);
if (lines.length === 0) {
  console.error(`--only must be 22 or 24, got ${only}`);
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
