#!/usr/bin/env node
// `npm pack` and `npm publish` run this first (package.json `prepack`): it makes dist/ complete, then checks
// that dist/ holds every file package.json promises, so a tarball without its build cannot be made.
//
// 1. Build (`node scripts/bootstrap.mjs build`: the wasm engine when stale, then tsc and the bundles) unless dist/ is
//    already newer than every input: inside `npm test` the build has just run, and rewriting dist/ while
//    other tests read it would race them.
// 2. Remove outputs whose source is gone (they would be packed by the `files` globs), and the
//    `sourceMappingURL` comments of the compiled files: the maps point at TypeScript sources the package
//    does not ship, so they stay out of it, and a link to a missing map only makes bundlers warn.
// 3. Copy Swagger UI's two served files, its LICENSE and NOTICE, from the `swagger-ui-dist`
//    devDependency into dist/ts/src/openapi/swagger-ui-dist/ (why: docs/OPENAPI.md, "Swagger UI's files").
// 4. Check the entry points, the types, the .wasm, the CLI and the Swagger UI copy exist.
//
// Messages go to stderr: `npm pack --json` prints its report on stdout.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (message) => console.error(`[arbor] prepack: ${message}`);
const DIST_SRC = join(root, 'dist', 'ts', 'src');
const WASM_PKG = join('engine', 'wasm-pkg');
const SWAGGER_COPY = join('openapi', 'swagger-ui-dist');
// The bundles the package runs (scripts/bundle.mjs): no TypeScript source of their own.
const BUNDLE = 'bundle';
// The bundle's header names its .LICENSE.txt for the licences of the libraries bundled into it.
const SWAGGER_FILES = [
  'swagger-ui-bundle.js',
  'swagger-ui-bundle.js.LICENSE.txt',
  'swagger-ui.css',
  'LICENSE',
  'NOTICE',
];

function* files(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : Number.NEGATIVE_INFINITY);

/** Why dist/ must be rebuilt, or null when every output is newer than its inputs. */
function staleReason() {
  const wasm = join(root, 'ts', 'src', WASM_PKG, 'arbor_wasm_bg.wasm');
  if (!existsSync(wasm)) return 'no wasm build yet';
  for (const input of [
    join(root, 'Cargo.toml'),
    join(root, 'Cargo.lock'),
    ...[...files(join(root, 'crates'))].filter(
      (path) =>
        /\.rs$|Cargo\.toml$/.test(path) && !path.includes(`${join('crates', 'arbor-router', 'fuzz')}`),
    ),
  ]) {
    if (mtime(input) > mtime(wasm)) return `${relative(root, input)} is newer than the wasm build`;
  }
  if (mtime(wasm) > mtime(join(DIST_SRC, WASM_PKG, 'arbor_wasm_bg.wasm')))
    return 'the wasm build is not in dist/';
  const config = Math.max(mtime(join(root, 'tsconfig.json')), mtime(join(root, 'package.json')));
  for (const source of files(join(root, 'ts', 'src'))) {
    if (!source.endsWith('.ts') || source.endsWith('.d.ts') || source.includes(`${WASM_PKG}`)) continue;
    const output = join(root, 'dist', relative(root, source)).replace(/\.ts$/, '.js');
    if (mtime(output) < Math.max(mtime(source), config))
      return `${relative(root, output)} is missing or stale`;
    if (mtime(join(DIST_SRC, BUNDLE, 'index.js')) < Math.max(mtime(source), config))
      return 'the bundles are missing or stale';
  }
  return null;
}

function build() {
  const reason = staleReason();
  if (reason === null) return log('dist/ is up to date: no build');
  log(`building (${reason})`);
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'bootstrap.mjs'), 'build'], {
    cwd: root,
    // The build's own progress lines also go to stderr (see the header).
    stdio: ['ignore', 2, 2],
  });
  if (result.status !== 0) throw new Error(`the build failed (exit ${result.status ?? result.signal})`);
}

/** Compiled files whose TypeScript source no longer exists; map links in the others. */
function tidyOutputs() {
  let unlinked = 0;
  for (const output of files(DIST_SRC)) {
    const rel = relative(DIST_SRC, output);
    if (rel.startsWith(WASM_PKG) || rel.startsWith(SWAGGER_COPY)) continue;
    const source = join(root, 'ts', 'src', rel.replace(/(\.d\.ts|\.js|\.js\.map)$/, '.ts'));
    if (!existsSync(source) && !rel.startsWith(BUNDLE)) {
      log(`removing ${relative(root, output)} (its source is gone)`);
      rmSync(output);
    } else if (output.endsWith('.js')) {
      const text = readFileSync(output, 'utf8');
      const bare = text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
      if (bare !== text && writeIfChanged(output, Buffer.from(bare))) unlinked += 1;
    }
  }
  if (unlinked > 0) log(`removed the source-map link of ${unlinked} compiled file(s)`);
}

/** Writes `content` unless the file already holds it; a rename, so a reader never sees half a file. */
function writeIfChanged(path, content) {
  if (existsSync(path) && readFileSync(path).equals(content)) return false;
  writeFileSync(`${path}.tmp`, content);
  renameSync(`${path}.tmp`, path);
  return true;
}

function copySwaggerUi() {
  const from = join(root, 'node_modules', 'swagger-ui-dist');
  if (!existsSync(join(from, 'package.json'))) throw new Error(`${from} is missing: run npm install`);
  const manifest = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
  const to = join(DIST_SRC, SWAGGER_COPY);
  mkdirSync(to, { recursive: true });
  const wanted = new Map();
  for (const file of SWAGGER_FILES) {
    let content = readFileSync(join(from, file));
    // The source maps are not shipped, so neither is the comment that names them.
    if (/\.(js|css)$/.test(file))
      content = Buffer.from(
        content.toString('utf8').replace(/\n?\/[/*]# sourceMappingURL=\S+(?: \*\/)?\s*$/, '\n'),
      );
    wanted.set(file, content);
  }
  const note = `A copy of two files of ${manifest.name} ${manifest.version} (${manifest.license}), made by arbor-router's prepack`;
  const copyManifest = {
    name: manifest.name,
    version: manifest.version,
    license: manifest.license,
    description: note,
  };
  wanted.set('package.json', Buffer.from(`${JSON.stringify(copyManifest, null, 2)}\n`));
  let changed = 0;
  for (const [file, content] of wanted) if (writeIfChanged(join(to, file), content)) changed += 1;
  for (const file of readdirSync(to)) if (!wanted.has(file)) rmSync(join(to, file), { recursive: true });
  log(`Swagger UI ${manifest.version} in ${relative(root, to)} (${changed} file(s) written)`);
}

function check() {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const promised = new Set([manifest.main, manifest.types, ...Object.values(manifest.bin ?? {})]);
  for (const entry of Object.values(manifest.exports ?? {})) {
    if (typeof entry === 'string') promised.add(entry);
    else for (const target of Object.values(entry)) promised.add(target);
  }
  promised.add(`./dist/ts/src/${WASM_PKG}/arbor_wasm_bg.wasm`);
  promised.add(`./dist/ts/src/${SWAGGER_COPY}/swagger-ui-bundle.js`);
  promised.add('./LICENSE');
  const missing = [...promised].filter((path) => !existsSync(join(root, path)));
  if (missing.length > 0) throw new Error(`the package would lack ${missing.join(', ')}`);
  const bin = readFileSync(join(root, manifest.bin.arbor), 'utf8');
  if (!bin.startsWith('#!/usr/bin/env node')) throw new Error(`${manifest.bin.arbor} has no #! line`);
  log(`checked ${promised.size} promised files`);
}

try {
  build();
  tidyOutputs();
  copySwaggerUi();
  check();
} catch (error) {
  log(`failed: ${error.message}`);
  process.exit(1);
}
