/**
 * What the tracing channels cost a request that nobody traces: Arbor as it is against the same commit with
 * the channels taken out, in one process (`benches/app/dispatch-ab.ts`: the same application on both,
 * through `app.fetch()`, interleaved rounds, the median of per-round ratios). Both trees are the commit's
 * sources (`git archive`), run through tsx alike; the "untraced" one has the two `hasSubscribers` branches
 * (kernel.ts for `arbor.request`, route-call.ts for `arbor.request.handler`) and the route's hand-over to
 * the trace removed, by exact replacements that fail if that code has changed.
 *
 *   node --import tsx benches/ops/tracing-ab.ts [--commit HEAD|<commit>|worktree] [--rounds 31] [--requests 2000]
 *     [--out benches/results]
 *
 * Writes `benches/results/tracing-ab.md`. The cost with a subscriber, and with `arbor-router/otel` on, is
 * `tracing-cost.ts`'s report.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..', '..');
const { values } = parseArgs({
  options: {
    commit: { type: 'string', default: 'HEAD' },
    rounds: { type: 'string', default: '31' },
    requests: { type: 'string', default: '2000' },
    out: { type: 'string', default: join(root, 'benches', 'results') },
  },
});

/** What "untraced" takes out of the sources: each `from` must be found exactly once. */
const STRIPS: { file: string; from: string; to: string }[] = [
  {
    file: 'ts/src/app/kernel.ts',
    from: `    return requestChannel.hasSubscribers
      ? traceRequest(input, (trace) => this.#serve(input, trace))
      : this.#serve(input, null);`,
    to: '    return this.#serve(input, null);',
  },
  { file: 'ts/src/app/kernel.ts', from: '    if (trace !== null) routed(trace, matched, req);\n', to: '' },
  {
    file: 'ts/src/app/route-call.ts',
    from: '  if (handlerChannel.hasSubscribers) return traceHandler(req, () => invoke(handler, req, res, bound));\n',
    to: '',
  },
];

// `--commit worktree`: this checkout's sources as they are (uncommitted changes included), on both sides.
const commit =
  values.commit === 'worktree'
    ? 'worktree'
    : execFileSync('git', ['rev-parse', '--short', values.commit], { cwd: root, encoding: 'utf8' }).trim();
const base = mkdtempSync(join(tmpdir(), 'arbor-tracing-ab-'));
try {
  for (const tree of ['traced', 'untraced']) {
    const dir = join(base, tree);
    mkdirSync(dir);
    if (commit === 'worktree') {
      for (const path of ['ts/src', 'package.json', 'tsconfig.json'])
        cpSync(join(root, path), join(dir, path), { recursive: true });
    } else {
      const archive = execFileSync('git', ['archive', commit, 'ts/src', 'package.json', 'tsconfig.json'], {
        cwd: root,
        maxBuffer: 1 << 30,
      });
      execFileSync('tar', ['-x', '-C', dir], { input: archive });
    }
    // The WebAssembly engine is built, not committed: both trees load this checkout's.
    cpSync(join(root, 'ts/src/engine/wasm-pkg'), join(dir, 'ts/src/engine/wasm-pkg'), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  }
  for (const strip of STRIPS) {
    const path = join(base, 'untraced', strip.file);
    const text = readFileSync(path, 'utf8');
    if (text.split(strip.from).length !== 2)
      throw new Error(`${strip.file} at ${commit} has changed: update STRIPS in tracing-ab.ts`);
    writeFileSync(path, text.replace(strip.from, strip.to));
  }
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'benches/app/dispatch-ab.ts'),
      '--before',
      join(base, 'untraced/ts/src/index.ts'),
      '--after',
      join(base, 'traced/ts/src/index.ts'),
      '--rounds',
      values.rounds,
      '--requests',
      values.requests,
      '--label',
      `the tracing channels, never subscribed: ${commit} without them (before) and as it is (after), by benches/ops/tracing-ab.ts`,
      '--report',
      'tracing-ab',
      '--out',
      values.out,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (run.status !== 0) process.exitCode = 1;
} finally {
  rmSync(base, { recursive: true, force: true });
}
