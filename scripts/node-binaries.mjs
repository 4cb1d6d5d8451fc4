// Node binaries of every supported line, for the test runs and benchmarks that compare them.
//
// Node 24 is the `node` devDependency (node_modules/.bin/node): the line `npm test` itself runs on.
// The other lines (22, 26) are installed once per machine with `npm install --prefix` into a cache
// directory OUTSIDE the checkout (default ~/.cache/arbor/node<major>, override the parent with
// ARBOR_NODE_CACHE), so a fresh clone on the same machine (CI) reuses them and the checkout's own
// node_modules stay as package-lock.json describes them. The `node` npm package ships the binary;
// npm 11 warns that its install script is not approved, and the binary works regardless.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Supported lines, oldest first (package.json `engines`: >=22.12). */
export const NODE_LINES = ['22', '24', '26'];

/** The version a binary reports (`v24.21.0`), or null when it is missing or does not run. */
export function nodeVersion(binary) {
  if (!existsSync(binary)) return null;
  const probe = spawnSync(binary, ['-v'], { encoding: 'utf8' });
  return probe.status === 0 ? probe.stdout.trim() : null;
}

/**
 * `{ binary, version }` of Node `line` ('22', '24' or '26'), installing it on first use.
 * `ARBOR_NODE<line>_SPEC` overrides the npm spec installed (default `node@<line>`: the newest of the line).
 */
export function nodeBinary(line, log = (message) => console.log(`[arbor] ${message}`)) {
  if (line === '24') {
    const binary = join(root, 'node_modules', '.bin', 'node');
    const version = nodeVersion(binary);
    if (!version?.startsWith('v24.')) {
      throw new Error(
        `${binary} is ${version ?? 'missing'}; run npm install (the node@24 devDependency ships it)`,
      );
    }
    return { binary, version };
  }
  const cache = process.env.ARBOR_NODE_CACHE ?? join(homedir(), '.cache', 'arbor');
  const dir = join(cache, `node${line}`);
  const binary = join(dir, 'node_modules', '.bin', 'node');
  let version = nodeVersion(binary);
  if (!version?.startsWith(`v${line}.`)) {
    const spec = process.env[`ARBOR_NODE${line}_SPEC`] ?? `node@${line}`;
    log(`node ${line}: installing ${spec} into ${dir} (once per machine)`);
    mkdirSync(dir, { recursive: true });
    const result = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', spec], {
      stdio: 'inherit',
    });
    if (result.error || result.status !== 0) {
      throw new Error(
        `npm install --prefix ${dir} ${spec} failed (${result.error?.message ?? `exit ${result.status}`})`,
      );
    }
    version = nodeVersion(binary);
    if (!version?.startsWith(`v${line}.`))
      throw new Error(`${binary} is ${version ?? 'missing'} after the install`);
  }
  return { binary, version };
}
