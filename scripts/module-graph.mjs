#!/usr/bin/env node
// The module graph of the house, and its circles: which file imports which, and which room (a folder of
// ts/src, a top-level module of a Rust crate) depends on which. `tests/house/module-graph.test.ts` holds
// it to "no circle", at both levels; run by hand it prints the room graphs and any circle:
//
//   node scripts/module-graph.mjs
//
// TypeScript (ts/src): an edge per relative import — `import`, `import type`, `export … from`, a bare
// `import '…'`, `import('…')` — its `.js` specifier read as the `.ts` file. Type-only imports count: a
// circle through types changes no evaluation order, but it still hides which part depends on which. A
// room is the first part of a path under ts/src: a folder (`app`, `http`, `router`), or a file that sits
// at the top (`errors.ts`).
//
// Rust (crates/*/src): `mod` declarations give the module tree (and so which file is which module);
// `use` paths and paths written in code that start with `crate::`, `super::` or `self::` give the edges,
// to the deepest module the path names (an item the crate root re-exports counts as its own module's).
// Code under `#[cfg(test)]` is no part of the graph. A module and its own ancestors are one unit, not
// two parts that depend on each other: a child module is declared by its parent and sees its private
// items (`router/snapshot.rs` is `Router`'s binary form), so an edge between them is no edge here; the
// crate root, the ancestor of every module, is the crate's face and vocabulary. A room is a top-level
// module (`router`, with `router::snapshot` inside it). Inline modules (`mod x { … }`) outside tests
// count as part of their file.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Edges known to close a circle, left out of the check until they are gone. Each entry names its circle
 * and why it is still there. An entry whose edge no longer exists fails the check too, so that the list
 * only ever shrinks.
 */
export const KNOWN_CIRCLE_EDGES = [
  {
    graph: 'ts rooms',
    from: 'cache/index.ts',
    to: 'app/registry.ts',
    circle: 'app → cache → app',
    why: 'the cache module re-exports the application registry, which lives in app/ until it moves out (issue 41, left for later)',
  },
  {
    graph: 'ts rooms',
    from: 'openapi/annotations.ts',
    to: 'app/call-site.ts',
    circle: 'app → openapi → app',
    why: 'call sites (app/call-site.ts) are read by openapi/ too; the module moves out of app/ later (issue 41)',
  },
  {
    graph: 'ts rooms',
    from: 'openapi/types.ts',
    to: 'app/call-site.ts',
    circle: 'app → openapi → app',
    why: 'as above: the CallSite type of app/call-site.ts',
  },
];

// ---------------------------------------------------------------------------------------------------
// Circles

/**
 * The knots of a graph: its strongly connected components of more than one node (or a node with an edge
 * to itself), each as its sorted nodes. Every circle lies inside one knot; `edges` maps each node to the
 * nodes it depends on.
 */
export function knots(edges) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let next = 0;
  const connect = (node) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) connect(node);
  return components
    .filter((c) => c.length > 1 || (edges.get(c[0]) ?? new Set()).has(c[0]))
    .map((component) => component.sort())
    .sort((a, b) => a.join().localeCompare(b.join()));
}

/** One circle per knot: the shortest path from its first node back to it. */
export function circles(edges) {
  return knots(edges).map((knot) => shortestCircle(edges, new Set(knot)));
}

/** The shortest path from the first node of `component` back to itself, inside the component. */
function shortestCircle(edges, component) {
  const start = [...component].sort()[0];
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const to of [...(edges.get(node) ?? [])].sort()) {
      if (!component.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = node; at !== start; at = cameFrom.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

/** The graph of the groups `groupOf` puts nodes in: an edge between two groups for every edge between
 * their members, `skip(from, to)` aside. */
export function groupGraph(edges, groupOf, skip = () => false) {
  const groups = new Map();
  for (const [from, targets] of edges) {
    const group = groupOf(from);
    if (!groups.has(group)) groups.set(group, new Set());
    for (const to of targets) {
      if (skip(from, to) || groupOf(to) === group) continue;
      groups.get(group).add(groupOf(to));
    }
  }
  return groups;
}

// ---------------------------------------------------------------------------------------------------
// TypeScript

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

// ---------------------------------------------------------------------------------------------------
// Rust

const IDENT = /[A-Za-z0-9_]/;

/** Rust source with its comments and the contents of its string and character literals blanked out
 * (each character a space, newlines kept), so that positions stay those of the source. With
 * `literals: false` the literals stay as written (for `#[path = "…"]`). */
export function blankRust(text, { literals = true } = {}) {
  const out = text.split('');
  const blank = (from, to) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const n = text[i + 1];
    if (c === '/' && n === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && n === '*') {
      let depth = 0;
      let k = i;
      do {
        if (text.startsWith('/*', k)) {
          depth++;
          k += 2;
        } else if (text.startsWith('*/', k)) {
          depth--;
          k += 2;
        } else k++;
      } while (depth > 0 && k < text.length);
      blank(i, k);
      i = k;
    } else if (
      c === 'r' &&
      (n === '"' || n === '#') &&
      !IDENT.test(text[i - 1] === 'b' ? (text[i - 2] ?? '') : (text[i - 1] ?? ''))
    ) {
      let k = i + 1;
      while (text[k] === '#') k++;
      if (text[k] !== '"') {
        i = k; // a raw identifier (`r#type`)
        continue;
      }
      const close = `"${'#'.repeat(k - i - 1)}`;
      const end = text.indexOf(close, k + 1);
      const stop = end < 0 ? text.length : end + close.length;
      if (literals) blank(k + 1, stop - close.length);
      i = stop;
    } else if (c === '"') {
      let k = i + 1;
      while (k < text.length && text[k] !== '"') k += text[k] === '\\' ? 2 : 1;
      if (literals) blank(i + 1, k);
      i = k + 1;
    } else if (c === "'") {
      // A character literal, or a lifetime (`'a`, which has no closing quote).
      const literal = /^'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'/.exec(text.slice(i, i + 12));
      if (literal !== null) {
        if (literals) blank(i + 1, i + literal[0].length - 1);
        i += literal[0].length;
      } else i++;
    } else i++;
  }
  return out.join('');
}

/** The ranges of `code` (blanked) that only tests compile: each item under `#[cfg(test)]`. */
function testRanges(code) {
  const ranges = [];
  for (const match of code.matchAll(/#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]/g)) {
    let k = match.index + match[0].length;
    let end = -1;
    while (k < code.length && end < 0) {
      const c = code[k];
      if (c === ';') end = k + 1;
      else if (c === '{' || c === '[') {
        // `[`: a further attribute; `{`: the item's body. Either ends at its matching bracket.
        const open = c;
        const close = c === '{' ? '}' : ']';
        let depth = 0;
        let j = k;
        for (; j < code.length; j++) {
          if (code[j] === open) depth++;
          else if (code[j] === close && --depth === 0) break;
        }
        if (open === '{') end = j + 1;
        else k = j;
      }
      k++;
    }
    ranges.push([match.index, end < 0 ? code.length : end]);
  }
  return ranges;
}

function withoutRanges(text, ranges) {
  const out = text.split('');
  for (const [from, to] of ranges) for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  return out.join('');
}

/** The paths of a `use` tree (`crate::a::{b, c::{self, D}}` → `crate::a::b`, `crate::a::c::self`,
 * `crate::a::c::D`), each as its segments; aliases dropped, a glob kept as `*`. */
export function useTreePaths(tree) {
  const s = tree.replace(/\s+as\s+[A-Za-z_]\w*/g, '').replace(/\s+/g, '');
  let i = 0;
  const parse = () => {
    const segments = [];
    for (;;) {
      if (s[i] === '{') {
        i++;
        const paths = [];
        while (i < s.length && s[i] !== '}') {
          paths.push(...parse());
          if (s[i] === ',') i++;
        }
        i++;
        return paths.map((path) => [...segments, ...path]);
      }
      if (s[i] === '*') {
        i++;
        return [[...segments, '*']];
      }
      const name = /^[A-Za-z_]\w*/.exec(s.slice(i));
      if (name === null) return segments.length > 0 ? [segments] : [];
      segments.push(name[0]);
      i += name[0].length;
      if (!s.startsWith('::', i)) return [segments];
      i += 2;
    }
  };
  if (s.startsWith('::')) return []; // `::std::…`: another crate
  return parse();
}

/** What one Rust file says about the graph: its child modules (name, `#[path]`, inline or not) and the
 * paths it uses (`use` trees and `crate::`/`super::`/`self::` paths in code), tests left out. */
export function readRustFile(text) {
  const literalsKept = blankRust(text, { literals: false });
  const blanked = blankRust(text);
  const ranges = testRanges(blanked);
  const code = withoutRanges(blanked, ranges);
  const kept = withoutRanges(literalsKept, ranges);
  const modules = [];
  const declaration = /((?:#\s*\[[^\]]*\]\s*)*)(?:pub(?:\s*\([^)]*\))?\s+)?\bmod\s+([A-Za-z_]\w*)\s*([;{])/g;
  for (const match of kept.matchAll(declaration)) {
    const at = match.index + match[1].length;
    if (!/\bmod\b/.test(code.slice(at, at + match[0].length - match[1].length))) continue; // in a string
    const path = /#\s*\[\s*path\s*=\s*"([^"]*)"\s*\]/.exec(match[1])?.[1] ?? null;
    modules.push({ name: match[2], path, inline: match[3] === '{' });
  }
  const paths = [];
  for (const match of code.matchAll(/\buse\s+([^;]+);/g)) paths.push(...useTreePaths(match[1]));
  for (const match of code.matchAll(/\b(crate|super|self)((?:\s*::\s*[A-Za-z_]\w*)+)/g)) {
    paths.push([
      match[1],
      ...match[2]
        .split('::')
        .map((part) => part.trim())
        .filter(Boolean),
    ]);
  }
  return { modules, paths };
}

/**
 * The module graph of one crate (`crateDir/src`): module paths (`router::snapshot`; `crate` for the root)
 * and, for each, the modules it depends on, with the file of each module.
 */
export function rustCrateGraph(crateDir) {
  const src = join(crateDir, 'src');
  const rootFile = existsSync(join(src, 'lib.rs')) ? join(src, 'lib.rs') : join(src, 'main.rs');
  /** Module key ('' for the root) → its file, children and the paths it uses. */
  const modules = new Map();
  const visit = (path, file) => {
    if (!existsSync(file)) throw new Error(`module ${path.join('::') || 'crate'} has no file (${file})`);
    const { modules: children, paths } = readRustFile(readFileSync(file, 'utf8'));
    const ownsDir = basename(file) === 'mod.rs' || file === rootFile;
    const dir = ownsDir ? dirname(file) : join(dirname(file), basename(file, '.rs'));
    const module = { path, file, children: new Set(), paths };
    modules.set(path.join('::'), module);
    for (const child of children) {
      if (child.inline) continue;
      module.children.add(child.name);
      const flat = join(dir, `${child.name}.rs`);
      const childFile =
        child.path !== null
          ? resolve(dirname(file), child.path)
          : existsSync(flat)
            ? flat
            : join(dir, child.name, 'mod.rs');
      visit([...path, child.name], childFile);
    }
  };
  visit([], rootFile);

  const has = (path) => modules.has(path.join('::'));
  // Names the root re-exports (`pub use error::SnapshotError`): a path to them is a path to their module.
  const reexports = new Map();
  for (const match of blankRust(readFileSync(rootFile, 'utf8')).matchAll(/\bpub\s+use\s+([^;]+);/g)) {
    for (const path of useTreePaths(match[1])) {
      const target = resolvePath(path, []);
      const name = path[path.length - 1];
      if (target !== null && target.length > 0 && name !== '*' && name !== 'self')
        reexports.set(name, target);
    }
  }

  /** The deepest module a path names, seen from module `from`; `null` for another crate's. */
  function resolvePath(segments, from) {
    const [first, ...rest] = segments;
    let at;
    if (first === 'crate') at = [];
    else if (first === 'self') at = from;
    else if (first === 'super') {
      at = from.slice(0, -1);
      while (rest[0] === 'super') {
        rest.shift();
        at = at.slice(0, -1);
      }
    } else if (modules.get(from.join('::'))?.children.has(first)) at = [...from, first];
    else return null;
    for (const segment of rest) {
      if (has([...at, segment])) at = [...at, segment];
      else {
        if (at.length === 0 && reexports.has(segment)) at = reexports.get(segment);
        break;
      }
    }
    return at;
  }

  const name = (path) => (path.length === 0 ? 'crate' : path.join('::'));
  const within = (a, b) => a.length <= b.length && a.every((segment, k) => segment === b[k]);
  const edges = new Map();
  const files = new Map();
  for (const module of modules.values()) {
    const targets = new Set();
    for (const path of module.paths) {
      const target = resolvePath(path, module.path);
      // A module and its own ancestors are one unit (see the top of this file).
      if (target === null || within(target, module.path) || within(module.path, target)) continue;
      targets.add(name(target));
    }
    edges.set(name(module.path), targets);
    files.set(name(module.path), relative(crateDir, module.file).split(sep).join('/'));
  }
  return { edges, files };
}

/** The room of a Rust module: its top-level module (`crate` for the root). */
export const rustRoom = (module) => module.split('::')[0];

/** Every crate under `crates/` with a `src/`. */
export function rustCrates(cratesDir = join(ROOT, 'crates')) {
  return readdirSync(cratesDir)
    .filter((name) => existsSync(join(cratesDir, name, 'src')))
    .sort()
    .map((name) => ({ name, dir: join(cratesDir, name) }));
}

// ---------------------------------------------------------------------------------------------------
// The check

const known = (graph, from, to, crate) =>
  KNOWN_CIRCLE_EDGES.some((e) => e.graph === graph && e.from === from && e.to === to && e.crate === crate);

/**
 * Every circle of the house's graphs, at file and room level, the known ones aside, and every known
 * circle edge that no longer exists. Empty when all is well.
 */
export function problems() {
  const found = [];
  const report = (what, graph) => {
    for (const knot of knots(graph)) {
      const circle = shortestCircle(graph, new Set(knot));
      const others = knot.filter((node) => !circle.includes(node));
      const rest = others.length > 0 ? ` (in one knot with ${others.join(', ')})` : '';
      found.push(`${what}: circle ${circle.join(' → ')}${rest}`);
    }
  };
  const ts = typeScriptGraph();
  report('ts/src files', ts);
  report(
    'ts/src rooms',
    groupGraph(ts, typeScriptRoom, (from, to) => known('ts rooms', from, to)),
  );
  for (const { name, dir } of rustCrates()) {
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
    const graph = edge.graph === 'rust' ? rustCrateGraph(join(ROOT, 'crates', edge.crate)).edges : ts;
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
