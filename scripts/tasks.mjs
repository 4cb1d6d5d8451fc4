// The project's tasks, run by scripts/bootstrap.mjs on Node 24 after the npm dependencies are in place.
//   build       wasm engine (when stale) + TypeScript → dist/, bundled (scripts/bundle.mjs)
//   start       build, then serve the reference applications on PORT (default 3000)
//   test        every gate: cargo fmt, clippy, cargo test, tsc, biome, typedoc, vitest (unit + end-to-end)
//   bench       router benchmarks on Node 24 and 26, then Node 22 beside them (--only <line>: one line), then the report
//   bench:http  HTTP benchmarks against the usual frameworks
//   bench:startup  10,000-route start-up with and without the route cache
//   bench:soak  load + soak + graceful shutdown under load against the reference server
//   bench:io    static files, a streamed body, SSE and compression against their usual plugins
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWasm } from './build-wasm.mjs';
import { bundle } from './bundle.mjs';
import { capture, log, run } from './run.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const inRoot = { cwd: root };

function buildTypeScript() {
  const ms = run(bin('tsc'), ['-p', 'tsconfig.json'], inRoot);
  // tsc does not copy the wasm-bindgen output; the compiled engine module imports it from beside itself.
  const to = join(root, 'dist', 'ts', 'src', 'engine', 'wasm-pkg');
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  cpSync(join(root, 'ts', 'src', 'engine', 'wasm-pkg'), to, { recursive: true });
  const bundled = bundle(root);
  log(
    `typescript: compiled to dist/ in ${(ms / 1000).toFixed(1)} s, bundled in ${(bundled / 1000).toFixed(1)} s`,
  );
}

function build() {
  buildWasm(root);
  buildTypeScript();
}

const timed = (label, command, args, options = inRoot) => {
  log(`gate: ${label}`);
  const ms = run(command, args, options);
  log(`gate: ${label} passed in ${(ms / 1000).toFixed(1)} s`);
};

/** A bounded cargo-fuzz run of the engine (insert arbitrary patterns, look up arbitrary paths, load
 * arbitrary snapshots). cargo-fuzz is installed once per machine, outside the checkout. */
function fuzz() {
  const seconds = process.env.ARBOR_FUZZ_SECONDS ?? '30';
  if (seconds === '0') return log('gate: cargo fuzz skipped (ARBOR_FUZZ_SECONDS=0)');
  if (capture('cargo', ['fuzz', '--version']) === null) {
    log('toolchain: installing cargo-fuzz with cargo install (once per machine)');
    run('cargo', ['install', 'cargo-fuzz', '--locked']);
  }
  const crate = join(root, 'crates', 'arbor-router');
  // New inputs go to the first corpus directory (ignored by git); the committed seeds are read only.
  mkdirSync(join(crate, 'fuzz', 'corpus', 'lookup'), { recursive: true });
  const args = ['+nightly', 'fuzz', 'run', 'lookup', 'fuzz/corpus/lookup', 'fuzz/seeds'];
  timed(`cargo fuzz (${seconds} s)`, 'cargo', [...args, '--', `-max_total_time=${seconds}`], { cwd: crate });
}

function test(extraArgs) {
  const started = Date.now();
  buildWasm(root);
  timed('cargo fmt --check', 'cargo', ['fmt', '--all', '--check']);
  timed('cargo clippy', 'cargo', ['clippy', '--workspace', '--all-targets', '--', '-D', 'warnings']);
  timed('cargo test', 'cargo', ['test', '--workspace']);
  fuzz();
  timed('tsc (type check)', bin('tsc'), ['-p', 'tsconfig.check.json']);
  timed('biome (format + lint)', bin('biome'), ['check', '.']);
  // TypeDoc runs on its own TypeScript (tools/api-reference: typescript 7 has no JavaScript compiler API);
  // typedoc.json fails on a public export without a doc comment and writes the reference to dist/api/.
  timed(
    'typedoc (API reference)',
    join(root, 'tools', 'api-reference', 'node_modules', '.bin', 'typedoc'),
    [],
  );
  buildTypeScript();
  // The wasm engine must be there: its absence fails the conformance suite instead of skipping it.
  // CI=true: a snapshot that is missing fails instead of being written (and passing), here as in CI.
  // ARBOR_RUNTIMES=1: the Bun, Deno and workerd runs (tests/runtimes) happen here, once, and not again on
  // the other Node lines (scripts/node-versions.mjs): the runtimes do not change with the Node driving them.
  timed('vitest', bin('vitest'), ['run', ...extraArgs], {
    cwd: root,
    env: { ...process.env, ARBOR_REQUIRE_WASM: '1', ARBOR_RUNTIMES: '1', CI: 'true' },
  });
  log(`all gates passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function start() {
  build();
  const server = join(root, 'dist', 'ts', 'examples', 'server.js');
  if (!existsSync(server)) throw new Error(`missing ${server}`);
  run(process.execPath, [server], inRoot);
}

/**
 * The router benchmark on every supported Node line: 24 and 26 first (the lines its targets are set on),
 * then 22 beside them; `--only 26` runs one line, other arguments go to benches/router/run.ts. Each line
 * writes benches/results/router-node<major>.json; the report renders every such file present.
 * Async because node-binaries.mjs is imported here, by the one task that needs it; it reports its own
 * failure, since the dispatcher below does not await it.
 */
async function bench(extraArgs) {
  try {
    const { NODE_LINES, nodeBinary } = await import('./node-binaries.mjs');
    const lines = ['24', '26', ...NODE_LINES.filter((line) => line !== '24' && line !== '26')];
    const at = extraArgs.indexOf('--only');
    const only = at === -1 ? null : extraArgs[at + 1];
    const args = at === -1 ? extraArgs : extraArgs.toSpliced(at, 2);
    if (only !== null && !lines.includes(only))
      throw new Error(`--only is one of ${lines.join(', ')}, not ${only}`);
    build();
    const runner = join(root, 'benches', 'router', 'run.ts');
    for (const line of lines.filter((l) => only === null || l === only)) {
      const { binary, version } = nodeBinary(line, log);
      log(`router benchmark on Node ${version}`);
      run(binary, ['--expose-gc', '--import', 'tsx', runner, '--no-report', ...args], inRoot);
    }
    const report = join(root, 'benches', 'router', 'report.ts');
    run(nodeBinary('24', log).binary, ['--import', 'tsx', report], inRoot);
  } catch (error) {
    console.error(`[arbor] bench failed: ${error.message}`);
    process.exitCode = 1;
  }
}

function benchHttp(extraArgs) {
  build();
  run(process.execPath, ['--import', 'tsx', join(root, 'benches', 'http', 'run.ts'), ...extraArgs], inRoot);
}

function benchSoak(extraArgs) {
  build();
  run(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(root, 'benches', 'load', 'soak.ts'), ...extraArgs],
    inRoot,
  );
}

function benchStartup(extraArgs) {
  build();
  run(
    process.execPath,
    ['--import', 'tsx', join(root, 'benches', 'startup', 'run.ts'), ...extraArgs],
    inRoot,
  );
}

function benchIo(extraArgs) {
  build();
  run(process.execPath, ['--import', 'tsx', join(root, 'benches', 'io', 'run.ts'), ...extraArgs], inRoot);
}

const tasks = {
  build,
  start,
  test,
  bench,
  'bench:http': benchHttp,
  'bench:soak': benchSoak,
  'bench:startup': benchStartup,
  'bench:io': benchIo,
};
const [, , name = 'test', ...rest] = process.argv;
const task = tasks[name];
if (!task) {
  console.error(`unknown task ${name}; one of: ${Object.keys(tasks).join(', ')}`);
  process.exit(2);
}
try {
  task(rest);
} catch (error) {
  console.error(`[arbor] ${name} failed: ${error.message}`);
  process.exit(1);
}
