/**
 * The module graph of ts/src: no file imports itself through others (a cycle makes evaluation order
 * matter and hides which part depends on which), and the transports in ts/src/http import nothing from
 * ts/src/app — they depend on the dispatch interface (http/dispatch.ts) and the application wires them.
 *
 * The imports are read with a small parser (static `import … from`, `export … from`, bare `import '…'`
 * and `import('…')`, comments stripped). `import type` is erased from the emitted JavaScript, so it is
 * not counted: the graph is the one node evaluates. Inline `{ type X }` imports count (the statement stays).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../ts/src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'wasm-pkg' ? [] : sources(path);
    return /\.(m?ts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Relative specifiers a file imports at run time, in source order. */
function runtimeImports(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const found: string[] = [];
  const statement = /(?:^|[;\n])\s*(import|export)\s+(type\s+)?([^'";]*?\bfrom\s*)?['"]([^'"]+)['"]/g;
  for (const match of code.matchAll(statement)) {
    const [, keyword, typeOnly, clause, specifier] = match;
    if (typeOnly !== undefined || specifier === undefined) continue;
    if (keyword === 'export' && clause === undefined) continue; // not an export … from
    found.push(specifier);
  }
  for (const match of code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1] as string);
  return found.filter((specifier) => specifier.startsWith('.'));
}

function graph(): Map<string, string[]> {
  const files = sources(ROOT);
  const known = new Set(files);
  return new Map(
    files.map((file) => [
      file,
      runtimeImports(readFileSync(file, 'utf8'))
        .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')))
        .filter((target) => known.has(target)),
    ]),
  );
}

/** Every cycle found by a depth-first walk, each as the list of files from its start back to it. */
function cycles(edges: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of edges.keys()) if (!state.has(file)) visit(file);
  return found;
}

const show = (files: string[]) => files.map((file) => relative(ROOT, file)).join(' → ');

describe('the import graph of ts/src', () => {
  it('the parser sees what node evaluates (a type-only import is not an edge)', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import {\n  type C,\n  d,\n} from './c.js';",
      "export { e } from './e.js';",
      "export type { F } from './f.js';",
      "import './g.js';",
      "// import { h } from './h.js';",
      "/* import { i } from './i.js'; */",
      "const j = await import('./j.js');",
      "import { k } from 'node:fs';",
      "export const l = 'from ./l.js';",
    ].join('\n');
    expect(runtimeImports(text)).toEqual(['./a.js', './c.js', './e.js', './g.js', './j.js']);
  });

  it('the walk finds a cycle (so the next test can fail)', () => {
    const edges = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(edges)).toEqual([['a', 'b', 'c', 'a']]);
  });

  it('has no cycle', () => {
    const edges = graph();
    expect(edges.size).toBeGreaterThan(50);
    expect(cycles(edges).map(show)).toEqual([]);
  });

  it('the transports import nothing from the application', () => {
    const http = [...graph()].filter(([file]) => relative(ROOT, file).startsWith('http/'));
    expect(http.length).toBeGreaterThan(3);
    const intoApp = http.flatMap(([file, targets]) =>
      targets.filter((t) => relative(ROOT, t).startsWith('app/')).map((t) => show([file, t])),
    );
    expect(intoApp).toEqual([]);
  });
});
