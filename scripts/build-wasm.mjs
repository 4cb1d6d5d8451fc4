// Builds crates/arbor-wasm into ts/src/engine/wasm-pkg/ (the wasm-bindgen output that
// ts/src/engine/wasm-engine.ts alone imports). Rebuilds only when the Rust sources, the manifests, the
// lock file or the toolchain changed: a fingerprint of all of them is kept beside the output.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { log, run } from './run.mjs';
import { ensureWasmToolchain, wasmBindgenPin } from './toolchain.mjs';

const OUT = join('ts', 'src', 'engine', 'wasm-pkg');
const STAMP = 'build.fingerprint';
// `web`: ECMAScript bindings with an explicit `initSync({ module })`, and no file read of their own.
// ts/src/engine/wasm-engine.ts hands them the module's bytes from wherever the runtime keeps them (the
// file system on Node, Bun and Deno; a `.wasm` import on Workers; a fetch elsewhere). The `nodejs`
// target's CommonJS reads the file itself with `require('fs')`, which only Node-like runtimes can load.
const TARGET = 'web';

function* rustInputs(root, dir) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // fuzz/ has its own target directory and is not part of the wasm build.
    if (entry.isDirectory() && entry.name !== 'target' && entry.name !== 'fuzz')
      yield* rustInputs(root, path);
    else if (entry.isFile() && (entry.name.endsWith('.rs') || entry.name === 'Cargo.toml')) yield path;
  }
}

function fingerprint(root, toolchainKind) {
  const hash = createHash('sha256');
  hash.update(`${toolchainKind} wasm-bindgen ${wasmBindgenPin(root)} --target ${TARGET}\n`);
  const files = ['Cargo.toml', 'Cargo.lock', ...[...rustInputs(root, 'crates')].sort()];
  for (const file of files) {
    if (!existsSync(join(root, file))) continue;
    hash.update(`${file}\n`);
    hash.update(readFileSync(join(root, file)));
  }
  return hash.digest('hex');
}

/** Builds the wasm package when stale; returns a summary (path used, sizes, whether it rebuilt). */
export function buildWasm(root) {
  const stampFile = join(root, OUT, STAMP);
  const wasmFile = join(root, OUT, 'arbor_wasm_bg.wasm');
  const previous = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').split('\n') : [];
  const previousKind = previous[0];
  // The web target emits ECMAScript modules, as the package is: the folder says so for any reader.
  mkdirSync(join(root, OUT), { recursive: true });
  writeFileSync(join(root, OUT, 'package.json'), '{ "type": "module" }\n');
  if (previousKind && existsSync(wasmFile) && previous[1] === fingerprint(root, previousKind)) {
    log(`wasm: up to date (${previousKind} toolchain)`);
    return { rebuilt: false, kind: previousKind, ...sizes(wasmFile) };
  }
  const toolchain = ensureWasmToolchain(root);
  log(`wasm: building with the ${toolchain.kind} toolchain`);
  const env = { ...process.env, ...toolchain.env, CARGO_TARGET_DIR: join(root, toolchain.targetDir) };
  const ms = run(
    toolchain.cargo,
    ['build', '-p', 'arbor-wasm', '--release', '--target', 'wasm32-unknown-unknown', ...toolchain.args],
    { cwd: root, env },
  );
  const built = join(root, toolchain.targetDir, 'wasm32-unknown-unknown', 'release', 'arbor_wasm.wasm');
  mkdirSync(join(root, OUT), { recursive: true });
  run(toolchain.wasmBindgen, ['--target', TARGET, '--out-dir', join(root, OUT), built], { cwd: root });
  writeFileSync(stampFile, `${toolchain.kind}\n${fingerprint(root, toolchain.kind)}\n`);
  const summary = sizes(wasmFile);
  log(
    `wasm: built in ${(ms / 1000).toFixed(1)} s with the ${toolchain.kind} toolchain → ` +
      `${relative(root, wasmFile)} ${summary.raw} bytes (${summary.gzip} gzipped)`,
  );
  return { rebuilt: true, kind: toolchain.kind, ...summary };
}

function sizes(file) {
  return { raw: statSync(file).size, gzip: gzipSync(readFileSync(file), { level: 9 }).length };
}
