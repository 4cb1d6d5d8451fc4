/**
 * I/O benchmarks: what Arbor does with bytes beyond routing, each against the plugin people would use
 * instead, in the same run, every answer checked before anything is timed.
 *
 *   static    serveStatic, 1 KiB and 1 MiB files            vs Fastify + @fastify/static   (req/s, MiB/s, CPU/request)
 *   stream    res.send(readable), 100 MiB in 64 KiB chunks  vs Fastify reply.send(stream) (MiB/s, peak RSS)
 *   sse       res.sse(source) and its push form, 1,000 clients × 10 events/s  vs @fastify/sse and Hono streamSSE (CPU per client-second, RSS per client)
 *   compress  compress(), ~100 KiB of JSON, gzip and br     vs Fastify + @fastify/compress (req/s, CPU/request)
 *   upload    req.file: a 50 MiB multipart form to disk     vs @fastify/multipart saveRequestFiles (MiB/s, peak RSS)
 *   upload-stream  req.parts(): the same form, its file read as it arrives  vs @fastify/multipart request.parts()
 *   cookies   req.signedCookie + req.cookie, 4 cookies      vs Fastify + @fastify/cookie   (req/s, CPU/request)
 *   security  secureHeaders + cors + a session read          vs Fastify + @fastify/helmet, cors, session (req/s, CPU/request)
 *
 * Arbor runs on node:http (its default) and on its own server (`server: 'arbor'`): two rows per case.
 *
 *   npm run bench:io                                   every case, full settings (about 25 minutes)
 *   npm run bench:io -- --case sse                     one case (`--case static,compress`: several)
 *   node --import tsx benches/io/run.ts --quick        a few seconds per case, tiny sizes: proves the machinery
 *   --node 22|24|26|PATH   the servers' Node (default: this one); reports of a Node other than 24 go to
 *                          benches/results/node<major>/ unless --out says otherwise
 *   --only arbor,arbor-own Arbor rows to run (the anchor always runs)
 *   --rounds N  --duration S  --warmup S  --connections N   (static, compress, cookies, security)
 *   --stream-mib N  --downloads N                           (stream)
 *   --clients N  --events N  --interval MS  --heartbeat MS  (sse)
 *   --upload-mib N  --uploads N                             (upload, upload-stream)
 *   --arbor-from auto|dist|src   as in benches/http/run.ts
 *
 * Writes benches/results/io.<case>.md for each case run.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runCompress } from './compress.js';
import type { CaseContext } from './context.js';
import { runCookies } from './cookies.js';
import { arborFrom, log, root } from './harness.js';
import { runSecurity } from './security.js';
import { CASES, type IoCase } from './servers/setup.js';
import { runSse } from './sse.js';
import { runStatic } from './static.js';
import { runStream } from './stream.js';
import { runUpload } from './upload.js';

const { values: args } = parseArgs({
  options: {
    case: { type: 'string' },
    quick: { type: 'boolean', default: false },
    node: { type: 'string' },
    out: { type: 'string' },
    only: { type: 'string' },
    rounds: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    connections: { type: 'string' },
    'stream-mib': { type: 'string' },
    downloads: { type: 'string' },
    clients: { type: 'string' },
    events: { type: 'string' },
    interval: { type: 'string' },
    heartbeat: { type: 'string' },
    'upload-mib': { type: 'string' },
    uploads: { type: 'string' },
    'arbor-from': { type: 'string', default: 'auto' },
  },
});
const quick = args.quick === true;

/** A flag's number, else the full run's default, or the quick run's under `--quick`. */
function setting(name: keyof typeof args, full: number, smoke: number, allowZero = false): number {
  const text = args[name];
  if (text === undefined) return quick ? smoke : full;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0))
    throw new Error(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, not ${text}`);
  return value;
}

/** The servers' Node: a supported line by its major (scripts/node-binaries.mjs installs 22 and 26 once per
 * machine), a path, or this process's. */
async function serversNode(choice: string | undefined): Promise<string> {
  if (choice === undefined) return process.execPath;
  if (!/^\d+$/.test(choice)) return choice;
  const binaries = '../../scripts/node-binaries.mjs';
  const { nodeBinary } = (await import(binaries)) as { nodeBinary(line: string): { binary: string } };
  return nodeBinary(choice).binary;
}

const cases: IoCase[] = args.case === undefined ? [...CASES] : (args.case.split(',') as IoCase[]);
const unknown = cases.filter((c) => !CASES.includes(c));
if (unknown.length > 0) throw new Error(`--case takes ${CASES.join(', ')}, not ${unknown.join(', ')}`);

const node = await serversNode(args.node);
const version = spawnSync(node, ['-v'], { encoding: 'utf8' }).stdout.trim();
if (!version.startsWith('v')) throw new Error(`${node} does not run`);
const major = version.slice(1).split('.')[0];
const out = args.out ?? join(root, 'benches', 'results', ...(major === '24' ? [] : [`node${major}`]));
const context: CaseContext = {
  launch: { node, arborSource: arborFrom(args['arbor-from']) },
  quick,
  only: args.only === undefined ? null : new Set(args.only.split(',').map((s) => s.trim())),
};
log(`servers on Node ${version} (${node}); Arbor from ${context.launch.arborSource}; reports to ${out}`);
if (quick) log('quick run: proves the machinery works; the figures mean nothing');

const rounds = (full: number) => setting('rounds', full, 1);
const load = {
  duration: setting('duration', 10, 2),
  warmup: setting('warmup', 3, 0.5, true),
  connections: setting('connections', 50, 10),
};
const runners: Record<IoCase, () => Promise<string>> = {
  static: () => runStatic(context, { ...load, rounds: rounds(5), sizes: [1024, 1024 * 1024] }),
  stream: () =>
    runStream(context, {
      rounds: rounds(5),
      bytes: setting('stream-mib', 100, 8) * 1024 * 1024,
      downloads: setting('downloads', 5, 2),
    }),
  sse: () =>
    runSse(context, {
      rounds: rounds(3),
      clients: setting('clients', 1000, 50),
      events: setting('events', 200, 20),
      intervalMs: setting('interval', 100, 100),
      heartbeatMs: setting('heartbeat', 15_000, 15_000, true),
    }),
  compress: () => runCompress(context, { ...load, rounds: rounds(5), encodings: ['gzip', 'br'] }),
  upload: () =>
    runUpload(context, {
      rounds: rounds(5),
      bytes: setting('upload-mib', 50, 8) * 1024 * 1024,
      uploads: setting('uploads', 5, 2),
      streamed: false,
    }),
  'upload-stream': () =>
    runUpload(context, {
      rounds: rounds(5),
      bytes: setting('upload-mib', 50, 8) * 1024 * 1024,
      uploads: setting('uploads', 5, 2),
      streamed: true,
    }),
  cookies: () => runCookies(context, { ...load, rounds: rounds(5) }),
  security: () => runSecurity(context, { ...load, rounds: rounds(5) }),
};

mkdirSync(out, { recursive: true });
for (const kase of cases) {
  log(`case ${kase}`);
  const markdown = await runners[kase]();
  const file = join(out, `io.${kase}.md`);
  writeFileSync(file, markdown);
  log(`wrote ${file}`);
}
