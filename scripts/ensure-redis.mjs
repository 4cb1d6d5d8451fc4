#!/usr/bin/env node
// A real redis-server for the tests of the Redis rate-limit store (tests/redis).
//
//   node scripts/ensure-redis.mjs          installs redis-server when missing, prints its version
//   node scripts/ensure-redis.mjs --start  also starts one on a free loopback port, prints the URL, and
//                                          stops it on Ctrl-C (handy for trying the store by hand)
//
// The tests import `startRedis()`: it installs the server if needed (Debian's package, through apt-get; the
// machines run as root), starts a throw-away instance with no persistence on a free port, waits until it
// answers PING, and returns a handle whose `stop()` shuts it down. Nothing is written inside the checkout.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDebianPackage } from './apt-install.mjs';

const log = (message) => console.log(`[arbor] ${message}`);

/** Path of a redis-server binary, or null. */
function findRedisServer() {
  for (const candidate of ['redis-server', '/usr/bin/redis-server', '/usr/local/bin/redis-server']) {
    const probe = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    if (!probe.error && probe.status === 0) return { path: candidate, version: probe.stdout.trim() };
  }
  return null;
}

/** Installs redis-server with apt-get when it is missing; returns its path and version line. */
export function ensureRedisServer() {
  // The Debian package starts a system instance on 6379 when an init system runs; we never use it.
  return ensureDebianPackage('redis-server', findRedisServer);
}

/** A free TCP port on loopback (bind to 0, read the port, release it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Resolves when `PING` on the port answers `+PONG`, rejects after `timeoutMs`. */
function waitForPong(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = createConnection({ host: '127.0.0.1', port });
      let reply = '';
      const retry = () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`redis-server on port ${port} did not answer PING`));
        else setTimeout(attempt, 50);
      };
      socket.on('connect', () => socket.write('PING\r\n'));
      socket.on('data', (chunk) => {
        reply += chunk.toString('latin1');
        if (reply.includes('+PONG')) {
          socket.destroy();
          resolve();
        }
      });
      socket.on('error', retry);
      socket.setTimeout(500, retry);
    };
    attempt();
  });
}

/**
 * Starts a throw-away redis-server on a free loopback port (no RDB, no AOF, in a temporary directory).
 *
 * The port is found free, released, then handed to redis-server: another process may take it in
 * between (two test files start Redis in parallel). Redis then exits at once ("Address already in
 * use"), and the start is retried on a new port, up to five times.
 * @returns {Promise<{ port: number, url: string, version: string, stop: () => Promise<void> }>}
 */
export async function startRedis() {
  const { path, version } = ensureRedisServer();
  let lastError;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await startOn(path, version, await freePort());
    } catch (error) {
      lastError = error;
      if (!/address already in use|EADDRINUSE/i.test(error.message)) throw error;
    }
  }
  throw lastError;
}

async function startOn(path, version, port) {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-redis-'));
  const child = spawn(
    path,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Redis logs to stdout (bind errors included) unless told otherwise: keep both for the message.
  // Its "Ready to accept connections" line is waited for before the PING: a PING alone could be
  // answered by another test file's Redis that took the port first.
  let output = '';
  let ready = () => {};
  const listening = new Promise((resolve) => {
    ready = resolve;
  });
  const read = (chunk) => {
    output += chunk;
    if (/Ready to accept connections/.test(output)) ready();
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await Promise.race([
      listening.then(() => waitForPong(port, 10_000)),
      exited.then((code) => {
        throw new Error(`redis-server exited early (${code}): ${output.trim()}`);
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    version,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { version } = ensureRedisServer();
  log(`redis-server: ${version}`);
  if (process.argv.includes('--start')) {
    const redis = await startRedis();
    log(`redis-server listening at ${redis.url} (Ctrl-C stops it)`);
    const stop = () => redis.stop().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
}
