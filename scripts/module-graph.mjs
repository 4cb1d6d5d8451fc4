#!/usr/bin/env node
// The module graph of the house, and its circles: which file imports which, and which room (a folder of
// ts/src, a top-level module of a Rust crate) depends on which. `tests/house/module-graph.test.ts` holds
// it to "no circle", at both levels; run by hand it prints the room graphs and any circle:
//
//   node scripts/module-graph.mjs
//
// TypeScript and JavaScript (ts/src, ts/examples, benches, tests, scripts): an edge per relative import —
// `import`, `import type`, `export … from`, a bare `import '…'`, `import('…')` — its `.js` specifier
// read as the `.ts` file when there is one (`.mjs` as `.mts`). Type-only imports count: a circle through
// types changes no evaluation order, but it still hides which part depends on which. The file graph is
// one for all five trees (test suites, support modules and fixtures too), so a circle through a test and
// the benchmark it checks is found like one inside ts/src. Rooms are ts/src's alone: the first part of a
// path under it, a folder (`app`, `http`, `router`) or a file that sits at the top (`errors.ts`).
//
// Rust (crates/*/src): `mod` declarations give the module tree (and so which file is which module) and
// are no edge; `use` paths (`use crate::…`, `use super::…`, `use child::…`) and the `crate::`, `super::`
// and `self::` paths written in code give the edges, to the deepest module the path names (a name the
// crate root re-exports counts as its own module's). A child that uses its parent and a parent that uses
// that child are a circle like any other; so are a module that imports from the crate root and a root
// that re-exports it. Code under `#[cfg(test)]` is no part of the graph. A room is a top-level module
// (`router`, with `router::snapshot` inside it), the crate root (`crate`) one of its own. Inline modules
// (`mod x { … }`) outside tests count as part of their file.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { groupGraph, knots, shortestCircle } from './module-graph/circles.mjs';
import { rustCrateGraph, rustCrates, rustRoom } from './module-graph/rust.mjs';
import { houseGraph, houseTree, typeScriptGraph, typeScriptRoom } from './module-graph/typescript.mjs';

export { circles, groupGraph, knots } from './module-graph/circles.mjs';
export {
  blankRust,
  readRustFile,
  rustCrateGraph,
  rustCrates,
  rustRoom,
  useTreePaths,
} from './module-graph/rust.mjs';
export {
  HOUSE_TREES,
  houseGraph,
  houseTree,
  importSpecifiers,
  typeScriptGraph,
  typeScriptRoom,
} from './module-graph/typescript.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Edges known to close a circle, left out of the check until they are gone. Each entry names its circle
 * and why it is still there. An entry whose edge no longer exists fails the check too, so that the list
 * only ever shrinks.
 */
export const KNOWN_CIRCLE_EDGES = [];

const known = (graph, from, to, crate) =>
  KNOWN_CIRCLE_EDGES.some((e) => e.graph === graph && e.from === from && e.to === to && e.crate === crate);

/**
 * Every circle of the house's graphs, at file and room level, the known ones aside, and every known
 * circle edge that no longer exists. Empty when all is well. `root` is the house's (a scratch copy in
 * the check's own test).
 */
export function problems(root = ROOT) {
  const found = [];
  const report = (what, graph) => {
    for (const knot of knots(graph)) {
      const circle = shortestCircle(graph, new Set(knot));
      const others = knot.filter((node) => !circle.includes(node));
      const rest = others.length > 0 ? ` (in one knot with ${others.join(', ')})` : '';
      found.push(`${what}: circle ${circle.join(' → ')}${rest}`);
    }
  };
  report('house files', houseGraph(root));
  const ts = typeScriptGraph(join(root, 'ts', 'src'));
  report(
    'ts/src rooms',
    groupGraph(ts, typeScriptRoom, (from, to) => known('ts rooms', from, to)),
  );
  for (const { name, dir } of rustCrates(join(root, 'crates'))) {
    const { edges } = rustCrateGraph(dir);
    const kept = new Map(
      [...edges].map(([from, targets]) => [
        from,
        new Set([...targets].filter((to) => !known('rust', from, to, name))),
      ]),
    );
    report(`${name} modules`, kept);
    report(`${name} rooms`, groupGraph(kept, rustRoom));
  }
  for (const edge of KNOWN_CIRCLE_EDGES) {
    const graph = edge.graph === 'rust' ? rustCrateGraph(join(root, 'crates', edge.crate)).edges : ts;
    if (!(graph.get(edge.from)?.has(edge.to) ?? false)) {
      found.push(
        `known circle edge ${edge.from} → ${edge.to} (${edge.circle}) is gone: remove it from KNOWN_CIRCLE_EDGES`,
      );
    }
  }
  return found;
}

function printRooms(title, rooms) {
  console.log(`${title}:`);
  for (const [room, targets] of [...rooms].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`  ${room} → ${[...targets].sort().join(', ') || '(nothing)'}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printRooms('house trees', groupGraph(houseGraph(), houseTree));
  printRooms('ts/src rooms', groupGraph(typeScriptGraph(), typeScriptRoom));
  for (const { name, dir } of rustCrates())
    printRooms(`${name} rooms`, groupGraph(rustCrateGraph(dir).edges, rustRoom));
  for (const edge of KNOWN_CIRCLE_EDGES) {
    console.log(`known: ${edge.from} → ${edge.to} closes ${edge.circle}: ${edge.why}`);
  }
  const found = problems();
  for (const problem of found) console.log(`✗ ${problem}`);
  if (found.length > 0) process.exit(1);
  console.log('✓ no circle');
}
