/** What a benchmark report must say about where it ran: machine, Node, every framework's version. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';

export interface Environment {
  cpu: string;
  cores: number;
  memory: string;
  os: string;
  loadAverage: string;
  /** `node -v` of the Node that runs the servers. */
  serverNode: string;
  /** The load generator and its version. */
  loadGenerator: string;
  /** package → version, Arbor's with its commit. */
  versions: Record<string, string>;
  date: string;
}

function packageVersion(root: string, name: string): string {
  try {
    const text = readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8');
    return (JSON.parse(text) as { version: string }).version;
  } catch {
    return 'not installed';
  }
}

function arborVersion(root: string): string {
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string })
    .version;
  // Read-only git queries: the commit, and whether the working tree differs from it.
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  if (commit.status !== 0) return version;
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], {
    cwd: root,
    encoding: 'utf8',
  });
  return `${version} (${commit.stdout.trim()}${dirty.stdout.trim() ? ', uncommitted changes' : ''})`;
}

export function describeEnvironment(
  root: string,
  serverNode: string,
  contenders: { pkg: string | null }[],
  loadGenerator: string,
): Environment {
  const cpuList = cpus();
  const nodeVersion = spawnSync(serverNode, ['-v'], { encoding: 'utf8' }).stdout.trim();
  const versions: Record<string, string> = { arbor: arborVersion(root) };
  for (const { pkg } of contenders) if (pkg) versions[pkg] = packageVersion(root, pkg);
  if (contenders.some((c) => c.pkg === 'hono'))
    versions['@hono/node-server'] = packageVersion(root, '@hono/node-server');
  return {
    cpu: cpuList[0]?.model.trim() ?? 'unknown CPU',
    cores: cpuList.length,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    os: `${process.platform} ${release()}`,
    loadAverage: loadavg()
      .map((v) => v.toFixed(2))
      .join(' / '),
    serverNode: `${nodeVersion} (${serverNode})`,
    loadGenerator,
    versions,
    date: new Date().toISOString(),
  };
}
