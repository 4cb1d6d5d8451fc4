/** Machine, runtime and package versions, for the report's header. */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function cpuModel(): string {
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    const line = info.split('\n').find((l) => l.startsWith('model name'));
    if (line) return line.split(':').slice(1).join(':').trim();
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  return cpus()[0]?.model ?? 'unknown';
}

export function packageVersion(pkg: string): string {
  const file = pkg === 'arbor-router' ? `${ROOT}package.json` : `${ROOT}node_modules/${pkg}/package.json`;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export interface Machine {
  cpu: string;
  cores: number;
  platform: string;
  node: string;
}

export function machine(): Machine {
  return {
    cpu: cpuModel(),
    cores: cpus().length,
    platform: `${process.platform} ${process.arch}`,
    node: process.version,
  };
}
