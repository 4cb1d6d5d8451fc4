// The import graph of ts/src: see ../module-graph.mjs for what counts as an edge and as a room.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The relative specifiers a TypeScript file imports, in source order; with `types: false`, only those
 * node evaluates (`import type` and `export type … from` are erased; an inline `{ type X }` keeps its
 * statement). */
export function importSpecifiers(text, { types = true } = {}) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
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

function typeScriptSources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'wasm-pkg' ? [] : typeScriptSources(path);
    return /\.m?ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file graph of `srcRoot` (paths relative to it, `/`-separated): each file and the files of
 * `srcRoot` it imports. */
export function typeScriptGraph(srcRoot = join(ROOT, 'ts', 'src'), { types = true } = {}) {
  const files = typeScriptSources(srcRoot);
  const known = new Set(files);
  const name = (file) => relative(srcRoot, file).split(sep).join('/');
  return new Map(
    files.map((file) => [
      name(file),
      new Set(
        importSpecifiers(readFileSync(file, 'utf8'), { types })
          .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')))
          .filter((target) => known.has(target))
          .map(name),
      ),
    ]),
  );
}

/** The room of a file of ts/src: its first folder, or the file itself at the top. */
export const typeScriptRoom = (file) => file.split('/')[0];
