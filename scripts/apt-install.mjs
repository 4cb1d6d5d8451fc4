// Installs a Debian package with apt-get, for the tools the tests and benchmarks start themselves
// (redis-server, wrk). The machines run as root. Test files run in parallel and may each need a package
// (two Redis test files, the wrk test): one machine-wide lock, whatever the package, keeps them from
// running apt-get together, which would fail one of them on dpkg's own lock.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const log = (message) => console.log(`[arbor] ${message}`);

/** Blocks the thread for `ms` (the install path is synchronous: spawnSync). */
const sleepSync = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs `fn` holding the machine-wide install lock (a directory: mkdir is atomic). A lock older than ten
 * minutes is a crashed holder's and is taken over.
 */
function withInstallLock(fn) {
  const lock = join(tmpdir(), 'arbor-apt-install.lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // released between the two calls: try again
      }
      sleepSync(200);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Returns `find()`'s answer, installing Debian's `pkg` first when `find()` answers null. `find` is asked
 * again under the lock (another process may have installed it meanwhile) and after the install.
 * @template T
 * @param {string} pkg
 * @param {() => T | null} find
 * @returns {T}
 */
export function ensureDebianPackage(pkg, find) {
  const found = find();
  if (found) return found;
  return withInstallLock(() => {
    const again = find();
    if (again) return again;
    log(`${pkg}: missing, installing with apt-get (Debian package ${pkg})`);
    const apt = (args) => {
      const result = spawnSync('apt-get', args, {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
      if (result.error || result.status !== 0) {
        throw new Error(
          `apt-get ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}); ` +
            `install ${pkg} by hand (apt-get install ${pkg})`,
        );
      }
    };
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', pkg]);
    const installed = find();
    if (!installed) throw new Error(`${pkg} still not found after apt-get install`);
    return installed;
  });
}
