// The import graphs of the TypeScript and JavaScript of the house: see ../module-graph.mjs for what
// counts as an edge and as a room.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The trees whose files the house graph reads, relative to the root: the package's sources and its
 * examples, the benchmarks, the tests (suites, support modules and fixtures) and the scripts. */
export const HOUSE_TREES = ['ts/src', 'ts/examples', 'benches', 'tests', 'scripts'];

/** Folders that hold no source of ours: generated or installed code. */
const NOT_OURS = new Set(['node_modules', 'wasm-pkg', 'dist', 'target']);

// A quoted string (on one line), a template literal, a block comment or a line comment.
const TOKENS = /'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`|\/\*[\s\S]*?\*\/|\/\/.*$/gm;

/** The relative specifiers a TypeScript file imports, in source order; with `types: false`, only those
 * node evaluates (`import type` and `export type … from` are erased; an inline `{ type X }` keeps its
 * statement). */
export function importSpecifiers(text, { types = true } = {}) {
  // Comments and strings read in one pass, left to right, so that whichever starts first wins: a `/*` in
  // a line comment (`crates/*/src`) or in a string opens no block comment that would hide the imports
  // below it, and a `//` in a string (`'http://…'`) is no comment. Strings stay: specifiers are strings.
  const code = text.replace(TOKENS, (token) => (token.startsWith('/') ? '' : token));
  const found = [];
  const statement = /(?:^|[;\n])\s*(import|export)\s+(type\s+)?([^'";]*?\bfrom\s*)?['"]([^'"]+)['"]/g;
  for (const [, keyword, typeOnly, clause, specifier] of code.matchAll(statement)) {
    if (typeOnly !== undefined && !types) continue;
    if (keyword === 'export' && clause === undefined) continue; // not an export … from
    found.push(specifier);
  }
  for (const match of code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1]);
  return found.filter((specifier) => specifier.startsWith('.'));
}

/** The source files under `dir`: TypeScript and JavaScript modules, declaration files aside (they
 * describe a module, the module itself is the node). */
function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return NOT_OURS.has(name) ? [] : sourceFiles(path);
    return /\.[mc]?[jt]s$/.test(name) && !/\.d\.[mc]?ts$/.test(name) ? [path] : [];
  });
}

// What TypeScript reads for a specifier: `./x.js` is `./x.ts` when that exists (`.mjs` → `.mts`,
// `.cjs` → `.cts`), else the file as written.
const TYPESCRIPT_FOR = { '.js': '.ts', '.mjs': '.mts', '.cjs': '.cts' };

function resolveImport(file, specifier, known) {
  const target = resolve(dirname(file), specifier);
  const ext = extname(target);
  const typed = ext in TYPESCRIPT_FOR ? target.slice(0, -ext.length) + TYPESCRIPT_FOR[ext] : null;
  if (typed !== null && known.has(typed)) return typed;
  return known.has(target) ? target : null;
}

/** The file graph of the files under `dirs` (absolute), each named by its path relative to `base`
 * (`/`-separated): each file and the files among them it imports. An import of a file outside `dirs`
 * (a package, a JSON document) is no edge. */
function importGraph(dirs, base, { types }) {
  const files = dirs.filter((dir) => existsSync(dir)).flatMap(sourceFiles);
  const known = new Set(files);
  const name = (file) => relative(base, file).split(sep).join('/');
  return new Map(
    files.map((file) => [
      name(file),
      new Set(
        importSpecifiers(readFileSync(file, 'utf8'), { types })
          .map((specifier) => resolveImport(file, specifier, known))
          .filter((target) => target !== null)
          .map(name),
      ),
    ]),
  );
}

/** The file graph of `srcRoot` (paths relative to it, `/`-separated): each file and the files of
 * `srcRoot` it imports. */
export function typeScriptGraph(srcRoot = join(ROOT, 'ts', 'src'), { types = true } = {}) {
  return importGraph([srcRoot], srcRoot, { types });
}

/** The file graph of the house's trees (`HOUSE_TREES` under `root`; paths relative to `root`): imports
 * within a tree and across trees (a test importing ts/src, a benchmark importing a script) alike. */
export function houseGraph(root = ROOT, { types = true } = {}) {
  return importGraph(
    HOUSE_TREES.map((tree) => join(root, tree)),
    root,
    { types },
  );
}

/** The room of a file of ts/src: its first folder, or the file itself at the top. */
export const typeScriptRoom = (file) => file.split('/')[0];

/** The tree of `HOUSE_TREES` a house file (a path relative to the root) belongs to. */
export const houseTree = (file) =>
  HOUSE_TREES.find((tree) => file.startsWith(`${tree}/`)) ?? file.split('/')[0];
