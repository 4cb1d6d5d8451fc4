/**
 * The tests' handle on `scripts/ensure-redis.mjs`: installs redis-server when missing (apt-get), starts a
 * throw-away instance on a free loopback port, stops it after. Imported dynamically because the script is
 * plain JavaScript without type declarations.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface RedisInstance {
  port: number;
  url: string;
  version: string;
  stop(): Promise<void>;
}

interface EnsureRedis {
  startRedis(): Promise<RedisInstance>;
}

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function startRedis(): Promise<RedisInstance> {
  const script = pathToFileURL(join(root, 'scripts', 'ensure-redis.mjs')).href;
  const helper = (await import(script)) as EnsureRedis;
  return helper.startRedis();
}

/** Installing the package on a fresh machine takes a while; starting takes well under a second. */
export const REDIS_SETUP_TIMEOUT = 180_000;
