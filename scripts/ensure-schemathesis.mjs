#!/usr/bin/env node
// schemathesis, the property-based API fuzzer that tests/e2e/schemathesis.test.ts runs against the demo.
//
//   node scripts/ensure-schemathesis.mjs     installs it when missing, prints the path of its `st` command
//
// It lives in a Python virtual environment OUTSIDE the checkout (default
// ~/.cache/arbor/schemathesis-venv; ARBOR_NODE_CACHE moves the parent directory, as for the extra Node
// binaries), so a fresh clone on the same machine (CI) reuses it. The version is pinned: a new
// schemathesis release brings new checks and data generators, and would otherwise turn a green test red
// without a change here. Installing needs `python3` (3.9 or newer, with the `venv` module) and PyPI;
// without them this fails with what to install, never silently.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pinned release. Bump it on purpose, then run `npm test`. */
export const SCHEMATHESIS_VERSION = '4.32.5';

const log = (message) => console.log(`[arbor] ${message}`);

export function venvDirectory() {
  return join(process.env.ARBOR_NODE_CACHE ?? join(homedir(), '.cache', 'arbor'), 'schemathesis-venv');
}

/** The `st` command of the venv when it reports the pinned version, else null. */
function installed(venv) {
  const st = join(venv, 'bin', 'st');
  if (!existsSync(st)) return null;
  const probe = spawnSync(st, ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return null;
  return probe.stdout.includes(SCHEMATHESIS_VERSION) ? st : null;
}

function runOrThrow(command, args, hint) {
  log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.error || result.status !== 0) {
    throw new Error(
      `\`${command} ${args.join(' ')}\` failed (${result.error?.message ?? `exit ${result.status}`}). ${hint}`,
    );
  }
}

/** Installs schemathesis when missing (or at another version); returns the path of its `st` command. */
export function ensureSchemathesis() {
  const venv = venvDirectory();
  const ready = installed(venv);
  if (ready !== null) return ready;
  const python = process.env.ARBOR_PYTHON ?? 'python3';
  const probe = spawnSync(python, ['-c', 'import sys, venv; print(sys.version_info >= (3, 9))'], {
    encoding: 'utf8',
  });
  if (probe.error || probe.status !== 0 || probe.stdout.trim() !== 'True') {
    throw new Error(
      `schemathesis needs Python 3.9+ with the venv module, and \`${python}\` is not that ` +
        `(${probe.error?.message ?? (probe.stderr.trim() || probe.stdout.trim())}). ` +
        'Install it (Debian: apt-get install -y python3 python3-venv) or point ARBOR_PYTHON at one.',
    );
  }
  log(`schemathesis ${SCHEMATHESIS_VERSION}: installing into ${venv} (once per machine)`);
  rmSync(venv, { recursive: true, force: true });
  runOrThrow(python, ['-m', 'venv', venv], 'Could not create the virtual environment.');
  runOrThrow(
    join(venv, 'bin', 'python'),
    [
      '-m',
      'pip',
      'install',
      '--disable-pip-version-check',
      '--quiet',
      `schemathesis==${SCHEMATHESIS_VERSION}`,
    ],
    'Is PyPI reachable (or PIP_INDEX_URL set to a mirror)?',
  );
  const st = installed(venv);
  if (st === null) throw new Error(`schemathesis ${SCHEMATHESIS_VERSION} is still missing from ${venv}`);
  return st;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    log(`schemathesis ${SCHEMATHESIS_VERSION}: ${ensureSchemathesis()}`);
  } catch (error) {
    console.error(`[arbor] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
