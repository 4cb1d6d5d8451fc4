// Small process helpers shared by the build scripts.
import { spawnSync } from 'node:child_process';

export const log = (message) => console.log(`[arbor] ${message}`);

/** Runs a command with inherited output; throws with the command line when it fails. */
export function run(command, args, options = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
  return Date.now() - started;
}

/** Runs a command quietly and returns its stdout, or null when it cannot run or fails. */
export function capture(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.error || result.status !== 0) return null;
  return result.stdout.trim();
}
