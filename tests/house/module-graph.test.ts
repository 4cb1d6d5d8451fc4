/**
 * The module graph of the house has no circle: the files of ts/src, ts/examples, benches, tests (suites,
 * support modules, fixtures) and scripts, one graph across them; the rooms of ts/src (its folders); the
 * modules of each Rust crate (crates/*\/src) and their rooms (top-level modules). The graph and its
 * reading rules are `scripts/module-graph.mjs`'s (run it to print the rooms); the circles it knows of, each
 * with its reason, are its `KNOWN_CIRCLE_EDGES`. Beside the circles, the doors: the package imports
 * nothing of the trees around it, the transports import nothing from the application, only the WebAssembly
 * engine imports the bindings, and the router and the engine are imported through their faces.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  circles,
  groupGraph,
  HOUSE_TREES,
  houseGraph,
  houseTree,
  importSpecifiers,
  KNOWN_CIRCLE_EDGES,
  knots,
  problems,
  readRustFile,
  rustCrateGraph,
  rustCrates,
  rustRoom,
  typeScriptGraph,
  typeScriptRoom,
  useTreePaths,
} from '../../scripts/module-graph.mjs';

const SRC = resolve(import.meta.dirname, '../../ts/src');

const graphOf = (edges: Record<string, string[]>) =>
  new Map(Object.entries(edges).map(([from, to]) => [from, new Set(to)]));
const edgeCount = (graph: Map<string, Set<string>>) => [...graph.values()].reduce((n, t) => n + t.size, 0);

describe('the circle finder', () => {
  it('finds each circle once, as a path back to its first node', () => {
    const graph = graphOf({ a: ['b'], b: ['c'], c: ['a', 'd'], d: [], e: ['e'], f: ['g'], g: ['f', 'a'] });
    expect(circles(graph)).toEqual([
      ['a', 'b', 'c', 'a'],
      ['e', 'e'],
      ['f', 'g', 'f'],
    ]);
    // f and g reach the first circle but are not on it: a knot of their own.
    expect(knots(graph)).toEqual([['a', 'b', 'c'], ['e'], ['f', 'g']]);
  });

  it('finds none in a graph that only goes one way', () => {
    expect(circles(graphOf({ a: ['b', 'c'], b: ['c'], c: [] }))).toEqual([]);
  });

  it('groups: an edge between two rooms for any edge between their files, and a room circle from them', () => {
    const files = graphOf({ 'x/a.ts': ['y/b.ts'], 'y/b.ts': [], 'y/c.ts': ['x/d.ts'], 'x/d.ts': [] });
    const rooms = groupGraph(files, typeScriptRoom);
    expect(circles(files)).toEqual([]);
    expect(circles(rooms)).toEqual([['x', 'y', 'x']]);
    expect(circles(groupGraph(files, typeScriptRoom, (from: string) => from === 'y/c.ts'))).toEqual([]);
  });
});

describe('reading TypeScript imports', () => {
  const text = [
    "import { a } from './a.js';",
    "import type { B } from './b.js';",
    "import {\n  type C,\n  d,\n} from './c.js';",
    "export { e } from './e.js';",
    "export type { F } from './f.js';",
    "import './g.js';",
    '// the sources of crates/*/src',
    "import { m } from './m.js';",
    "const url = 'http://example.com/*';",
    "import { n } from './n.js';",
    "// import { h } from './h.js';",
    "/* import { i } from './i.js'; */",
    "const j = await import('./j.js');",
    "import { k } from 'node:fs';",
    "export const l = 'from ./l.js';",
  ].join('\n');

  // A `/*` in a line comment or a string opens no comment (scripts/module-graph.mjs's header once hid
  // its imports so), and a `//` in a string is none either.
  it('counts type-only imports (a circle through types still hides who depends on whom)', () => {
    expect(importSpecifiers(text)).toEqual([
      './a.js',
      './b.js',
      './c.js',
      './e.js',
      './f.js',
      './g.js',
      './m.js',
      './n.js',
      './j.js',
    ]);
  });

  it('without types, sees what node evaluates', () => {
    expect(importSpecifiers(text, { types: false })).toEqual([
      './a.js',
      './c.js',
      './e.js',
      './g.js',
      './m.js',
      './n.js',
      './j.js',
    ]);
  });
});

describe('reading the house', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbor-house-graph-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  mkdirSync(join(dir, 'crates'));
  write('ts/src/a.ts', "import { b } from './b.js';\n");
  write('ts/src/b.ts', 'export const b = 1;\n');
  // A support module and the one it helps import each other, through a type on one side: a circle
  // across two files of tests/, like benches/http/github.ts ⇄ mix.ts was (issue 46).
  write(
    'tests/support/server.ts',
    "import { a } from '../../ts/src/a.js';\nimport { load } from './load.js';\n",
  );
  write('tests/support/load.ts', "import type { Server } from './server.js';\nexport const load = 1;\n");
  write('tests/app/fixtures/app.mjs', "import '../../support/server.js';\nimport data from './data.json';\n");
  write('tests/app/fixtures/data.json', '{}');
  write(
    'tests/tool.test.ts',
    "import { tool } from '../scripts/tool.mjs';\nimport { m } from '../scripts/m.mjs';\n",
  );
  write('scripts/tool.mjs', 'export const tool = 1;\n');
  write('scripts/tool.d.mts', "import type { X } from './m.mjs';\nexport const tool: number;\n");
  write('scripts/m.mts', 'export const m = 1;\n');
  write('benches/node_modules/dep/index.ts', "import '../../q.js';\n");
  write('benches/q.ts', "import 'dep';\n");

  it('is one file graph across the trees: `.js` read as `.ts`, `.mjs` as `.mts`, declarations and packages aside', () => {
    const graph = houseGraph(dir);
    expect(Object.fromEntries([...graph].map(([from, to]) => [from, [...to].sort()]))).toEqual({
      'benches/q.ts': [],
      'scripts/m.mts': [],
      'scripts/tool.mjs': [],
      'tests/app/fixtures/app.mjs': ['tests/support/server.ts'],
      'tests/support/load.ts': ['tests/support/server.ts'],
      'tests/support/server.ts': ['tests/support/load.ts', 'ts/src/a.ts'],
      'tests/tool.test.ts': ['scripts/m.mts', 'scripts/tool.mjs'],
      'ts/src/a.ts': ['ts/src/b.ts'],
      'ts/src/b.ts': [],
    });
    expect(circles(graph)).toEqual([
      ['tests/support/load.ts', 'tests/support/server.ts', 'tests/support/load.ts'],
    ]);
    expect(houseTree('tests/app/fixtures/app.mjs')).toBe('tests');
    expect(houseTree('ts/src/app/x.ts')).toBe('ts/src');
  });

  it('fails the check on that circle, and only on it', () => {
    expect(problems(dir)).toEqual([
      'house files: circle tests/support/load.ts → tests/support/server.ts → tests/support/load.ts',
    ]);
  });
});

describe('reading Rust modules', () => {
  it('expands use trees', () => {
    expect(useTreePaths('crate::tree::{self, Flat, KIND_SEGMENT}')).toEqual([
      ['crate', 'tree', 'self'],
      ['crate', 'tree', 'Flat'],
      ['crate', 'tree', 'KIND_SEGMENT'],
    ]);
    expect(useTreePaths('super::{layout::{Segments as S, LINEAR}, *}')).toEqual([
      ['super', 'layout', 'Segments'],
      ['super', 'layout', 'LINEAR'],
      ['super', '*'],
    ]);
    expect(useTreePaths('::std::fmt')).toEqual([]);
  });

  it('reads modules and paths, not comments, strings or test code', () => {
    const file = readRustFile(
      [
        '//! use crate::doc;',
        'mod child;',
        'pub(crate) mod other;',
        '#[path = "elsewhere/x.rs"]',
        'mod moved;',
        '/* mod commented; use crate::commented; */',
        'use crate::a::{B, c::D};',
        'use super::sibling::E;',
        'const S: &str = "use crate::in_string; mod in_string;";',
        "const Q: char = '\"'; fn f<'a>(x: &'a str) -> &'a str { crate::inline::g(x) }",
        '#[cfg(test)]',
        '#[allow(clippy::unwrap_used)]',
        'mod tests { use crate::only_tests; }',
        '#[cfg(test)]',
        'mod bench_tables;',
        'use self::child::F;',
      ].join('\n'),
    );
    expect(file.modules).toEqual([
      { name: 'child', path: null, inline: false },
      { name: 'other', path: null, inline: false },
      { name: 'moved', path: 'elsewhere/x.rs', inline: false },
    ]);
    expect(file.paths.map((p: string[]) => p.join('::'))).toEqual([
      'crate::a::B',
      'crate::a::c::D',
      'super::sibling::E',
      'self::child::F',
      'crate::a',
      'super::sibling::E',
      'crate::inline::g',
      'self::child::F',
    ]);
  });

  describe('on a crate of its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arbor-module-graph-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write('src/lib.rs', 'mod a;\nmod b;\nmod c;\nmod e;\nmod f;\npub use c::d::W;\npub type Id = u32;\n');
    // a ⇄ b: a circle. c::d uses its parent, which only declares it: no circle. e reaches c::d through
    // the root's re-export; a uses an item of the root, which uses nothing of a. f and its child f::g use
    // each other: a circle, child or not.
    write(
      'src/a.rs',
      'use crate::b::X;\nuse crate::Id;\npub struct Y;\n#[cfg(test)]\nmod tests { use crate::e::Z; }\n',
    );
    write('src/b.rs', 'pub struct X(crate::a::Y);\n');
    write('src/c.rs', 'pub mod d;\nfn helper() {}\n');
    write('src/c/d.rs', 'use super::helper;\npub struct W;\n');
    write('src/e/mod.rs', 'use crate::W;\npub struct Z;\n');
    write('src/f.rs', 'mod g;\nuse g::G;\npub struct F;\n');
    write('src/f/g.rs', 'pub struct G(super::F);\n');

    it('finds its modules and edges, and its circles', () => {
      const { edges, files } = rustCrateGraph(dir);
      expect(Object.fromEntries([...edges].map(([from, to]) => [from, [...to].sort()]))).toEqual({
        crate: ['c::d'],
        a: ['b', 'crate'],
        b: ['a'],
        c: [],
        'c::d': ['c'],
        e: ['c::d'],
        f: ['f::g'],
        'f::g': ['f'],
      });
      expect(files.get('e')).toBe('src/e/mod.rs');
      expect(files.get('f::g')).toBe('src/f/g.rs');
      expect(circles(edges)).toEqual([
        ['a', 'b', 'a'],
        ['f', 'f::g', 'f'],
      ]);
      // In rooms, f and f::g are one room: only a ⇄ b is left.
      expect(circles(groupGraph(edges, rustRoom))).toEqual([['a', 'b', 'a']]);
    });
  });
});

describe('the house', () => {
  it('reads the whole graph (so that "no circle" means something)', () => {
    const withTypes = typeScriptGraph();
    expect(withTypes.size).toBeGreaterThan(50);
    expect(edgeCount(withTypes)).toBeGreaterThan(
      edgeCount(typeScriptGraph(undefined, { types: false })) + 100,
    );
    const house = houseGraph();
    expect(new Set([...house.keys()].map(houseTree))).toEqual(new Set(HOUSE_TREES));
    expect(house.size).toBeGreaterThan(withTypes.size + 200);
    // A suite, a support module, a fixture, a benchmark and a script, each with its edges.
    expect(house.get('tests/house/module-graph.test.ts')).toContain('scripts/module-graph.mjs');
    expect(house.get('tests/app/support/memory-server.ts')).toContain('tests/app/support/engine.ts');
    expect(house.get('tests/app/fixtures/validation-app.ts')?.size).toBeGreaterThan(0);
    expect(house.get('benches/http/mix.ts')).toContain('benches/http/github.ts');
    expect(house.get('scripts/module-graph.mjs')).toContain('scripts/module-graph/circles.mjs');
    const crates = rustCrates().map((c: { name: string; dir: string }) => c.name);
    expect(crates).toEqual(expect.arrayContaining(['arbor-router', 'arbor-wasm']));
    const core = rustCrateGraph(resolve(import.meta.dirname, '../../crates/arbor-router')).edges;
    expect(core.size).toBeGreaterThan(10);
    expect(core.get('router')).toContain('tree');
  });

  it('has no circle, between files (ts/src, benches, tests, scripts) or rooms, in TypeScript or Rust (known ones aside)', () => {
    expect(problems()).toEqual([]);
  });

  it('goes in the order of docs/ARCHITECTURE.md (its rooms from the bottom up), the known edges aside', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../docs/ARCHITECTURE.md'), 'utf8');
    const block = /## The module graph[\s\S]*?```\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    // Each line: the rooms of one level, then two spaces or more and what they import.
    const level = new Map<string, number>();
    block
      .split('\n')
      .map((line) => /^(\S.*?)(?:\s{2,}|$)/.exec(line)?.[1])
      .forEach((rooms, k) => {
        for (const room of rooms?.split(',') ?? []) level.set(room.trim().replace(/\/$/, ''), k);
      });
    const known = (from: string, to: string) =>
      KNOWN_CIRCLE_EDGES.some((e) => e.graph === 'ts rooms' && e.from === from && e.to === to);
    const rooms = groupGraph(typeScriptGraph(), typeScriptRoom, known);
    expect([...rooms.keys()].filter((room) => !level.has(room))).toEqual([]);
    const upward = [...rooms].flatMap(([from, targets]) =>
      [...targets]
        .filter((to) => (level.get(to) ?? 0) >= (level.get(from) ?? 0))
        .map((to) => `${from} → ${to}`),
    );
    expect(upward).toEqual([]);
  });

  it('says why each known circle is there', () => {
    for (const edge of KNOWN_CIRCLE_EDGES) expect(edge.why.length).toBeGreaterThan(20);
  });

  it('the package imports nothing of its examples, tests, benchmarks or scripts', () => {
    const outward = [...houseGraph()].flatMap(([file, targets]) =>
      houseTree(file) === 'ts/src'
        ? [...targets].filter((t) => houseTree(t) !== 'ts/src').map((t) => `${file} → ${t}`)
        : [],
    );
    expect(outward).toEqual([]);
  });

  it('the transports import nothing from the application at run time', () => {
    const http = [...typeScriptGraph(undefined, { types: false })].filter(([file]) =>
      file.startsWith('http/'),
    );
    expect(http.length).toBeGreaterThan(3);
    const intoApp = http.flatMap(([file, targets]) =>
      [...targets].filter((t) => t.startsWith('app/')).map((t) => `${file} → ${t}`),
    );
    expect(intoApp).toEqual([]);
  });

  it('only the WebAssembly engine imports the bindings; the engine and router rooms are entered by their faces', () => {
    const graph = typeScriptGraph();
    const through = (room: string, faces: string[]) =>
      [...graph].flatMap(([file, targets]) =>
        file.startsWith(`${room}/`)
          ? []
          : [...targets]
              .filter((t) => t.startsWith(`${room}/`) && !faces.includes(t))
              .map((t) => `${file} → ${t}`),
      );
    expect(through('engine', ['engine/index.ts', 'engine/engine.ts'])).toEqual([]);
    expect(through('router', ['router/index.ts'])).toEqual([]);
    const naming = [...graph.keys()].filter(
      (file) =>
        // runtimes/workerd.ts imports the compiled module itself (a Worker's `.wasm` import), not the bindings.
        file !== 'engine/wasm-engine.ts' &&
        file !== 'runtimes/workerd.ts' &&
        readFileSync(join(SRC, file), 'utf8').includes('wasm-pkg/'),
    );
    expect(naming).toEqual([]);
  });
});
