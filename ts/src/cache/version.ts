/**
 * Arbor's own version (from its `package.json`), stored in the cache so a cache written by another Arbor
 * is recompiled rather than trusted: the snapshot format and route semantics may differ between versions.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fs } from '../builtins.js';

let cached: string | undefined;

/** Found by walking up from this module: `ts/src/cache` in sources, `dist/ts/src/cache` when compiled. */
export function arborVersion(): string {
  if (cached !== undefined) return cached;
  cached = 'unknown';
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(fs.readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === 'arbor-router' && typeof manifest.version === 'string') {
        cached = manifest.version;
        break;
      }
    } catch {
      // no package.json at this level: keep walking up
    }
  }
  return cached;
}
