/**
 * Small tables answered by generated JavaScript, in front of the WebAssembly engine.
 *
 * Why: a lookup in WebAssembly pays a fixed toll — copying the path into wasm memory and crossing the
 * boundary, ~60–80 ns on Node 24 (docs/ARCHITECTURE.md) — before the walk starts. On a table of a dozen
 * routes the best JavaScript routers (rou3's and find-my-way's compiled modes) answer a dynamic path in
 * about that time, so the toll alone loses. For such tables this module generates one JavaScript function
 * from the engine's own route list, the way those routers do; on real tables (hundreds of routes) the
 * wasm walk wins and the generated function is not used.
 *
 * Who decides: the wasm engine stays the single source of truth. It parses and validates every pattern,
 * detects conflicts, owns the metadata and answers every table or path this module does not take:
 * - only definition order, and only tables of at most {@link MAX_DYNAMIC_ROUTES} dynamic routes per method;
 * - only patterns made of static text, whole-segment parameters without constraint or `?`, and a
 *   trailing `*` (anything else — constraints, several parameters in one segment, regex blocks — keeps
 *   the whole table on the wasm engine);
 * - static text without `%` (a pattern with non-ASCII text is stored percent-encoded and must meet the
 *   request's encoded form, which only the wasm engine's encoding step produces);
 * - a match whose path has a non-ASCII character goes to the wasm engine, which percent-encodes it first
 *   (a malformed value is reported undecoded, so the encoded text is part of the answer). Static text
 *   cannot meet such a character, so only dynamic matches need the check.
 *
 * The rules are the engine's (SPEC §3, §3.1): exact static routes first, then dynamic routes in
 * definition order; the path ends at `?` or `#`; a parameter is one non-empty segment; when nothing
 * matches, one trailing slash is removed or added and the lookup repeated, never for `/`. The
 * differential test (`tests/router/compiled-engine.test.ts`) holds the two to the same answers.
 */
import { type Engine, type Inserted, NOT_FOUND, type Order, type RouteInfo } from './engine.js';
import { type Piece, parsePattern } from './reference/pattern.js';

/** Routes are tried in turn (within a first-character group), so the cost grows with their number,
 * while the wasm walk's does not. 16 keeps the worst case near one wasm lookup; not tuned further. */
export const MAX_DYNAMIC_ROUTES = 16;

const SPANS_CAPACITY = 64;
const SLASH = 47;
const QUERY = 63;
const FRAGMENT = 35;

/**
 * Whether a parameter value `text[start, end)` can be answered here: ASCII, and no `?` or `#`. A value
 * with a non-ASCII character goes to the wasm engine, whose answer holds it percent-encoded (a malformed
 * value is reported undecoded, so the text is visible); one with `?` or `#` means the path has a query
 * string or fragment, which the engine cuts off first. Checking the values, not the whole path, keeps
 * two string scans off every lookup: static text can never contain these characters.
 */
function plainValue(text: string, start: number, end: number): boolean {
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c > 0x7f || c === QUERY || c === FRAGMENT) return false;
  }
  return true;
}

/** One generated lookup: the route id or -1; writes `[start, end]` pairs into `spans`. */
type Lookup = (method: string, path: string, spans: Uint32Array) => number;

/** A pattern the generated code can match: static text, whole-segment parameters, a trailing `*`. */
type SimplePiece = { kind: 'static'; text: string } | { kind: 'param' } | { kind: 'wildcard' };

function simplePieces(pattern: string): SimplePiece[] | null {
  let pieces: Piece[];
  try {
    pieces = parsePattern(pattern);
  } catch {
    return null;
  }
  const out: SimplePiece[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as Piece;
    const before = pieces[i - 1];
    const after = pieces[i + 1];
    if (piece.kind === 'static') {
      if (piece.text.includes('%')) return null;
      out.push({ kind: 'static', text: piece.text });
    } else if (piece.kind === 'param') {
      if (piece.constraint !== null || piece.optional) return null;
      // A whole segment: after a `/`, and followed by nothing or by a `/`.
      if (before?.kind !== 'static' || !before.text.endsWith('/')) return null;
      if (after !== undefined && (after.kind !== 'static' || !after.text.startsWith('/'))) return null;
      out.push({ kind: 'param' });
    } else if (piece.kind === 'wildcard') {
      // The wildcard is always last; taken only as a whole segment (`/files/*`, not `/files*`).
      if (before?.kind !== 'static' || !before.text.endsWith('/')) return null;
      out.push({ kind: 'wildcard' });
    } else {
      return null;
    }
  }
  return out;
}

/** The code that matches one dynamic route from position 0 to `e`, or breaks out of its block. */
function routeCode(id: number, pieces: readonly SimplePiece[]): string {
  const label = `r${id}`;
  const lines: string[] = [];
  // `at` is the position as an expression: a constant while only static text has been consumed.
  let at = '0';
  let span = 0;
  for (const piece of pieces) {
    if (piece.kind === 'static') {
      const end = at === '0' ? String(piece.text.length) : `${at} + ${piece.text.length}`;
      lines.push(`if (${end} > e || !p.startsWith(${JSON.stringify(piece.text)}, ${at})) break ${label};`);
      at = end;
      if (!/^\d+$/.test(at)) {
        lines.push(`i = ${at};`);
        at = 'i';
      }
    } else if (piece.kind === 'param') {
      lines.push(
        `j = p.indexOf('/', ${at});`,
        'if (j < 0 || j > e) j = e;',
        `if (j === ${at}) break ${label};`,
      );
      lines.push(`s[${span++}] = ${at};`, `s[${span++}] = j;`, 'i = j;');
      at = 'i';
    } else {
      lines.push(`s[${span++}] = ${at};`, `s[${span++}] = e;`);
      at = 'e';
    }
  }
  if (at !== 'e') lines.push(`if (${at} !== e) break ${label};`);
  // The values are checked once the route matched (see plainValue).
  for (let k = 0; k < span; k += 2) lines.push(`if (!plain(p, s[${k}], s[${k + 1}])) return -2;`);
  lines.push(`return ${id};`);
  return `${label}: {\n  ${lines.join('\n  ')}\n}`;
}

interface Dynamic {
  code: string;
  /** The character after the leading `/` when the pattern starts with static text that long. */
  first: number | null;
}

/**
 * The lookup for one method: exact static paths, then dynamic routes in definition order. When every
 * dynamic route starts with a known character after the `/`, they are grouped by it: routes of two
 * groups can never match the same path, so only one group is tried and the order within it is kept.
 */
function methodCode(name: string, statics: Map<string, number>, dynamic: readonly Dynamic[]): string {
  const cases = [...statics].map(([path, id]) => `case ${JSON.stringify(path)}: return ${id};`);
  const staticSwitch =
    cases.length === 0 ? '' : `switch (e === p.length ? p : p.slice(0, e)) {\n  ${cases.join('\n  ')}\n}`;
  let dynamicCode: string;
  if (dynamic.length > 1 && dynamic.every((d) => d.first !== null)) {
    const groups = new Map<number, string[]>();
    for (const d of dynamic)
      groups.set(d.first as number, [...(groups.get(d.first as number) ?? []), d.code]);
    const groupCases = [...groups].map(([c, codes]) => `case ${c}: {\n${codes.join('\n')}\nreturn -1;\n}`);
    dynamicCode = `switch (p.charCodeAt(1)) {\n${groupCases.join('\n')}\n}`;
  } else {
    dynamicCode = dynamic.map((d) => d.code).join('\n');
  }
  return `function ${name}(p, e, s) {\n let i = 0, j = 0;\n${staticSwitch}\n${dynamicCode}\nreturn -1;\n}`;
}

/** Generates the lookup for `routes`, or `null` when the table is not one this module takes. */
export function compileTable(routes: readonly RouteInfo[], trailingSlash: boolean): Lookup | null {
  const byMethod = new Map<string, { statics: Map<string, number>; dynamic: Dynamic[] }>();
  for (const route of routes) {
    const pieces = simplePieces(route.pattern);
    if (pieces === null) return null;
    for (const method of route.methods) {
      let entry = byMethod.get(method);
      if (entry === undefined) {
        entry = { statics: new Map(), dynamic: [] };
        byMethod.set(method, entry);
      }
      const only = pieces[0];
      if (pieces.length === 1 && only?.kind === 'static') {
        // The first registration of a path wins (a second one is a conflict the engine refused).
        if (!entry.statics.has(only.text)) entry.statics.set(only.text, route.id);
      } else {
        const lead = pieces[0]?.kind === 'static' ? pieces[0].text : '';
        entry.dynamic.push({
          code: routeCode(route.id, pieces),
          first: lead.length >= 2 ? lead.charCodeAt(1) : null,
        });
        if (entry.dynamic.length > MAX_DYNAMIC_ROUTES) return null;
      }
    }
  }
  const functions: string[] = [];
  const dispatch: string[] = [];
  [...byMethod].forEach(([method, { statics, dynamic }], k) => {
    functions.push(methodCode(`m${k}`, statics, dynamic));
    dispatch.push(`case ${JSON.stringify(method)}: f = m${k}; break;`);
  });
  // -2: ask the wasm engine; -3: retry with a slash added (the caller builds the longer path).
  // A miss is only final when the path has no query string or fragment: the generated code compares the
  // whole path, the engine only what comes before them.
  const source = `${functions.join('\n')}
return function lookup(m, p, s) {
  let f;
  switch (m) {
    ${dispatch.join('\n    ')}
    default: return -1;
  }
  const e = p.length;
  const id = f(p, e, s);
  if (id !== -1) return id;
  if (p.indexOf('?') >= 0 || p.indexOf('#') >= 0) return -2;
  if (${!trailingSlash} || e <= 1) return -1;
  if (p.charCodeAt(e - 1) === ${SLASH}) return f(p, e - 1, s);
  return -3;
};`;
  return new Function('plain', source)(plainValue) as Lookup;
}

/**
 * The WebAssembly engine with small tables answered by generated JavaScript (see the module comment).
 * Registration, metadata and everything the generated code does not take go to `inner`.
 */
export class CompiledEngine implements Engine {
  readonly #inner: Engine;
  readonly #trailingSlash: boolean;
  readonly #order: Order;
  readonly #spans = new Uint32Array(SPANS_CAPACITY);
  /** `undefined`: the table changed since the last compilation; `null`: not a table we take. */
  #lookup: Lookup | null | undefined;
  spans: ArrayLike<number> = this.#spans;
  matchedPath = '';

  constructor(inner: Engine, options: { trailingSlash?: boolean; order?: Order } = {}) {
    this.#inner = inner;
    this.#trailingSlash = options.trailingSlash ?? true;
    this.#order = options.order ?? 'definition';
    this.#lookup = undefined;
  }

  /** Whether the current table is answered by generated code (for tests and the benchmarks). */
  get compiled(): boolean {
    return this.#compile() !== null;
  }

  insert(methods: readonly string[], pattern: string): Inserted {
    const inserted = this.#inner.insert(methods, pattern);
    this.#lookup = undefined;
    return inserted;
  }

  setName(id: number, name: string): void {
    this.#inner.setName(id, name);
  }

  lookup(method: string, path: string): number {
    const lookup = this.#lookup === undefined ? this.#compile() : this.#lookup;
    if (lookup !== null) {
      let matched = path;
      let id = lookup(method, path, this.#spans);
      if (id === -3) {
        // The trailing-slash retry that adds a slash: the spans index into the longer path.
        matched = `${path}/`;
        id = lookup(method, matched, this.#spans);
        if (id === -3) id = NOT_FOUND;
      }
      if (id >= NOT_FOUND) {
        this.spans = this.#spans;
        this.matchedPath = matched;
        return id;
      }
    }
    const id = this.#inner.lookup(method, path);
    this.spans = this.#inner.spans;
    this.matchedPath = this.#inner.matchedPath;
    return id;
  }

  #compile(): Lookup | null {
    if (this.#lookup !== undefined) return this.#lookup;
    this.#lookup =
      this.#order === 'definition' ? compileTable(this.#inner.routes(), this.#trailingSlash) : null;
    return this.#lookup;
  }

  allowedMethods(path: string): string[] {
    return this.#inner.allowedMethods(path);
  }

  routes(): RouteInfo[] {
    return this.#inner.routes();
  }

  route(id: number): RouteInfo | undefined {
    return this.#inner.route(id);
  }

  serialize(): Uint8Array {
    const inner = this.#inner as Engine & { serialize?(): Uint8Array };
    if (inner.serialize === undefined) throw new Error('this engine cannot take snapshots');
    return inner.serialize();
  }
}
