#!/usr/bin/env node
// Entry point of `npm start`, `npm test`, `npm run build`, `npm run bench`.
//
// Runs on whatever Node the machine has (20 on a fresh machine): it installs the npm dependencies when
// they are missing or stale, then hands over to `tasks.mjs` on the Node 24 that the `node` devDependency
// ships, so every later step runs on a supported Node whatever the machine's default is.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (message) => console.log(`[arbor] ${message}`);

/** Whether node_modules is `missing`, older than the lock file (`stale`), or `current`. */
function npmDependencies() {
  if (!existsSync(join(root, 'node_modules'))) return 'missing';
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(installed)) return 'stale';
  // npm rewrites node_modules/.package-lock.json on every install: older than the lock file = stale.
  return statSync(installed).mtimeMs >= statSync(join(root, 'package-lock.json')).mtimeMs
    ? 'current'
    : 'stale';
}

const npm = (args) => {
  const result = spawnSync('npm', [...args, '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

const dependencies = npmDependencies();
if (dependencies === 'current') {
  log('npm dependencies: up to date');
} else if (dependencies === 'missing') {
  // A fresh checkout (CI's included): `npm ci` installs exactly the lock file and never writes it; a lock
  // out of step with package.json fails here instead of being rewritten.
  log('npm dependencies: installing (npm ci, exactly package-lock.json)');
  npm(['ci']);
} else {
  // A checkout whose lock file changed since the last install (a pull, an added dependency): `npm install`
  // brings node_modules up to it in place, where `npm ci` would delete node_modules first. It may write
  // the lock file when package.json asks for something the lock does not hold; .ci/run fails when any
  // tracked file changes under the tests, so such a lock cannot pass unnoticed.
  log('npm dependencies: updating (npm install from package-lock.json)');
  npm(['install']);
}

const node24 = join(root, 'node_modules', '.bin', 'node');
const wanted = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies.node;
const node = existsSync(node24) ? node24 : process.execPath;
if (node === process.execPath)
  log(`warning: node@${wanted} from npm is missing; running on ${process.version}`);

const [, , task = 'test', ...rest] = process.argv;
const result = spawnSync(node, [join(root, 'scripts', 'tasks.mjs'), task, ...rest], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` },
});
process.exit(result.status ?? 1);
