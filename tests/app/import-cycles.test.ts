/**
 * The module graph of ts/src: no file imports itself through others (a cycle makes evaluation order
 * matter and hides which part depends on which), and the transports in ts/src/http import nothing from
 * ts/src/app — they depend on the dispatch interface (http/dispatch.ts) and the application wires them.
 *
 * The imports are read with a small parser (static `import … from`, `export … from`, bare `import '…'`
 * and `import('…')`, comments stripped). Two graphs: the one node evaluates, where `import type` and
 * `export type … from` are no edges (they are erased from the emitted JavaScript; inline `{ type X }`
 * imports count, the statement stays), and the one a reader follows, where they are: a cycle through
 * types only does not change evaluation order, but it still hides which module depends on which.
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

/** Relative specifiers a file imports (at run time only, or with its type-only imports), in source order. */
function imports(text: string, withTypes: boolean): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const found: string[] = [];
  const statement = /(?:^|[;\n])\s*(import|export)\s+(type\s+)?([^'";]*?\bfrom\s*)?['"]([^'"]+)['"]/g;
  for (const match of code.matchAll(statement)) {
    const [, keyword, typeOnly, clause, specifier] = match;
    if ((typeOnly !== undefined && !withTypes) || specifier === undefined) continue;
    if (keyword === 'export' && clause === undefined) continue; // not an export … from
    found.push(specifier);
  }
  for (const match of code.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1] as string);
  return found.filter((specifier) => specifier.startsWith('.'));
}

const runtimeImports = (text: string) => imports(text, false);
const allImports = (text: string) => imports(text, true);

function graph(read: (text: string) => string[] = runtimeImports): Map<string, string[]> {
  const files = sources(ROOT);
  const known = new Set(files);
  return new Map(
    files.map((file) => [
      file,
      read(readFileSync(file, 'utf8'))
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

  it('the parser sees what node evaluates (a type-only import is not an edge)', () => {
    expect(runtimeImports(text)).toEqual(['./a.js', './c.js', './e.js', './g.js', './j.js']);
  });

  it('with types, the parser counts `import type` and `export type … from` too', () => {
    expect(allImports(text)).toEqual(['./a.js', './b.js', './c.js', './e.js', './f.js', './g.js', './j.js']);
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

  it('has no cycle through type-only imports either', () => {
    const edges = graph(allImports);
    const count = (graph: Map<string, string[]>) => [...graph.values()].reduce((n, t) => n + t.length, 0);
    expect(count(edges)).toBeGreaterThan(count(graph()) + 100); // the type-only edges are read
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
