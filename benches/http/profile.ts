/**
 * Where a server's CPU goes on the write path: Arbor (node:http and its own server) and Fastify, each in its
 * own process under `--cpu-prof`, driven by wrk with the `post` mix's request of each body size, one at a
 * time; the profiles' top self-time frames go to `benches/results/http.post.profile.md` (Node 24) or
 * `node<major>/`. The profiles themselves stay in `--keep DIR` when asked for (open them in Chrome's
 * DevTools or speedscope for the flame graph).
 *
 *   node --import tsx benches/http/profile.ts [--only arbor,arbor-own,fastify] [--duration 8] [--top 15]
 *        [--connections 50] [--node 24|26|PATH] [--keep DIR]
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureWrk } from '../../scripts/ensure-wrk.mjs';
import { postMix } from './mix.js';
import { BODY_SIZES } from './orders.js';
import { runWrk, writeMixScript } from './wrk.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'arbor,arbor-own,fastify' },
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '50' },
    top: { type: 'string', default: '15' },
    node: { type: 'string' },
    keep: { type: 'string' },
    out: { type: 'string' },
  },
});

const SERVERS: Record<string, { label: string; file: string; env?: Record<string, string> }> = {
  arbor: { label: 'Arbor (node:http)', file: 'arbor.ts' },
  'arbor-own': { label: 'Arbor (own server)', file: 'arbor.ts', env: { ARBOR_BENCH_SERVER: 'arbor' } },
  fastify: { label: 'Fastify 5', file: 'fastify.ts' },
};

async function serversNode(choice: string | undefined): Promise<string> {
  if (choice === undefined) return process.execPath;
  if (!/^\d+$/.test(choice)) return choice;
  const binaries = '../../scripts/node-binaries.mjs';
  const { nodeBinary } = (await import(binaries)) as { nodeBinary(line: string): { binary: string } };
  return nodeBinary(choice).binary;
}
const node = await serversNode(args.node);
const version = spawnSync(node, ['-v'], { encoding: 'utf8' }).stdout.trim();
const major = version.slice(1).split('.')[0];

interface Frame {
  callFrame: { functionName: string; url: string; lineNumber: number };
  id: number;
  hitCount?: number;
}

/** Self time by function (name and place), as a share of all samples, the biggest first. */
function topFrames(file: string, count: number): { share: number; name: string; where: string }[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Frame[] };
  const byFrame = new Map<string, number>();
  let total = 0;
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    total += hits;
    const { functionName, url, lineNumber } = n.callFrame;
    const path = url.startsWith('file://') ? relative(root, fileURLToPath(url)) : url;
    // A package by its name (a worktree's node_modules may be a link to another checkout's).
    const where = path === '' ? '' : `${path.replace(/^(?:.*\/)?node_modules\//, '')}:${lineNumber + 1}`;
    const key = `${functionName || '(anonymous)'}\t${where}`;
    byFrame.set(key, (byFrame.get(key) ?? 0) + hits);
  }
  return [...byFrame]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, hits]) => {
      const [name = '', where = ''] = key.split('\t');
      return { share: hits / total, name, where };
    });
}

/**
 * The frames that parse a JSON body: Arbor's `decodeJson` and secure-json-parse's `_parse` (Fastify), each
 * the caller of `JSON.parse`, a builtin whose time the profile counts in its caller.
 */
const PARSE_FRAMES = new Set(['decodeJson', '_parse']);
/** Frames that are not the server's work: waiting for the load generator. */
const IDLE_FRAMES = new Set(['(idle)']);

/** The JSON parse's share of the busy samples (every sample but `(idle)`). */
function parseShare(file: string): number {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Frame[] };
  let busy = 0;
  let parse = 0;
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    const name = n.callFrame.functionName;
    if (IDLE_FRAMES.has(name)) continue;
    busy += hits;
    if (PARSE_FRAMES.has(name)) parse += hits;
  }
  return busy > 0 ? parse / busy : Number.NaN;
}

function start(name: string, dir: string): Promise<{ child: ChildProcess; url: string }> {
  const server = SERVERS[name];
  if (server === undefined) throw new Error(`--only takes ${Object.keys(SERVERS).join(', ')}, not ${name}`);
  const child = spawn(
    node,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', 'tsx', join(here, 'servers', server.file)],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, NODE_ENV: 'production', ARBOR_BENCH_FROM: 'dist', ...server.env },
    },
  );
  return new Promise((resolve, reject) => {
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message.type === 'listening') resolve({ child, url: `http://127.0.0.1:${message.port}` });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code})`)));
  });
}

ensureWrk();
const lines = [
  '# Where the CPU goes on the write path (CPU profiles)',
  '',
  `Each server under \`--cpu-prof\`, driven by wrk with \`POST /orders/:shop\` of one body size for ${args.duration} s`,
  `(${args.connections} connections, Node ${version}, Arbor from \`dist/\`), a fresh process per size. Self time by`,
  'function, as a share of all samples (idle time included: `(idle)`), the biggest first.',
  '`benches/http/profile.ts` writes this page.',
];
const keep = args.keep ?? mkdtempSync(join(tmpdir(), 'arbor-prof-'));
/** Server → body size → the JSON parse's share of its busy samples. */
const shares = new Map<string, Map<string, number>>();
for (const name of (args.only ?? '').split(',')) {
  for (const size of BODY_SIZES) {
    const dir = join(keep, `${name}-${size.bytes}`);
    mkdirSync(dir, { recursive: true });
    const { child, url } = await start(name, dir);
    const script = writeMixScript(postMix(size), 1);
    const load = { connections: Number(args.connections), pipelining: 1 };
    await runWrk(url, script, load, 2);
    const result = await runWrk(url, script, load, Number(args.duration));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error(`${name}: no profile in ${dir}`);
    lines.push(
      '',
      `## ${SERVERS[name]?.label}, ${size.name} body (${Math.round(result.rps).toLocaleString('en')} req/s under the profiler)`,
      '',
    );
    const share = parseShare(join(dir, file));
    if (!shares.has(name)) shares.set(name, new Map());
    shares.get(name)?.set(size.name, share);
    lines.push(
      `The JSON parse: ${(share * 100).toFixed(1)} % of the busy samples (all but \`(idle)\`).`,
      '',
      '| self | function | where |',
      '|--:|---|---|',
    );
    for (const frame of topFrames(join(dir, file), Number(args.top)))
      lines.push(`| ${(frame.share * 100).toFixed(1)} % | \`${frame.name}\` | ${frame.where} |`);
    console.log(`[profile] ${name} ${size.name}: ${join(dir, file)}`);
  }
}
lines.push(
  '',
  "## The JSON parse's share of each server's busy time",
  '',
  "The frames that call `JSON.parse` on the body (Arbor's `decodeJson`, secure-json-parse's `_parse`),",
  'as a share of every sample but `(idle)`. Every server parses the same text with the same `JSON.parse`, so the',
  "parse costs each about the same time per request: a server can lead Fastify by at most 1 ÷ Fastify's share",
  '(the lead of a server whose only work were the parse), and by less the more of its own time the parse is.',
  '',
  `| Server | ${BODY_SIZES.map((size) => size.name).join(' | ')} |`,
  `|---|${BODY_SIZES.map(() => '--:').join('|')}|`,
);
for (const [name, bySize] of shares)
  lines.push(
    `| ${SERVERS[name]?.label} | ${BODY_SIZES.map((size) => `${((bySize.get(size.name) ?? Number.NaN) * 100).toFixed(1)} %`).join(' | ')} |`,
  );
const fastifyShares = shares.get('fastify');
if (fastifyShares !== undefined)
  lines.push(
    `| at most × Fastify (1 ÷ Fastify's share) | ${BODY_SIZES.map((size) => (1 / (fastifyShares.get(size.name) ?? Number.NaN)).toFixed(2)).join(' | ')} |`,
  );
const out =
  args.out ??
  join(root, 'benches', 'results', ...(major === '24' ? [] : [`node${major}`]), 'http.post.profile.md');
writeFileSync(out, `${lines.join('\n')}\n`);
console.log(`[profile] wrote ${out}`);
