#!/usr/bin/env node
// wrk, the load generator of the HTTP benchmark (benches/http/wrk.ts says why it is wrk).
//
//   node scripts/ensure-wrk.mjs     installs wrk when missing (Debian's package), prints its version
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureDebianPackage } from './apt-install.mjs';

/** wrk's version, or null when it is not on PATH. wrk prints it with its usage and exits 1. */
function findWrk() {
  const probe = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  if (probe.error) return null;
  return /^wrk (\S+)/.exec(probe.stdout)?.[1] ?? 'unknown version';
}

/** Installs wrk when it is missing; returns its version. */
export function ensureWrk() {
  return ensureDebianPackage('wrk', findWrk);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`[arbor] wrk ${ensureWrk()}`);
}
