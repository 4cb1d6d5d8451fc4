// The module graph of a Rust crate: see ../module-graph.mjs for what counts as an edge and as a room.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

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
  const edges = new Map();
  const files = new Map();
  for (const module of modules.values()) {
    const targets = new Set();
    for (const path of module.paths) {
      const target = resolvePath(path, module.path);
      if (target === null || target.join('::') === module.path.join('::')) continue;
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
