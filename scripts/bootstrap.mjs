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

function npmDependenciesAreCurrent() {
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(installed)) return false;
  // npm rewrites node_modules/.package-lock.json on every install: older than the lock file = stale.
  return statSync(installed).mtimeMs >= statSync(join(root, 'package-lock.json')).mtimeMs;
}

if (npmDependenciesAreCurrent()) {
  log('npm dependencies: up to date');
} else {
  // `npm install`, not `npm ci`: npm 11 rejects this lock file in `ci` because the registry these
  // machines reach lacks some of biome's optional per-platform packages; `install` still installs
  // exactly the locked versions.
  log('npm dependencies: installing (npm install from package-lock.json)');
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
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
