/**
 * The code generator behind `generated-front.ts`: one JavaScript function that finds a request's route in
 * a small table, built from the engine's route list. See that module for when it is used and why.
 *
 * Shape of the generated function: exact static paths in a `switch` (before the method is even looked
 * at); then, inline per method, the dynamic routes in definition order on the path split on `/` once:
 * whole segments compared, grouped by their first segment (two groups can never match the same path),
 * the values being the segments themselves. What it answers is the caller's: the code that builds a
 * found route's answer comes from {@link AnswerCode} (the router's matches, object literals), so a lookup
 * allocates only the split and its answer. A path it must not answer (see `checkValue`) goes to the
 * caller's fallback, the engine.
 */
import type { PatternPiece, RouteInfo } from './engine.js';

/** Routes are tried in turn (within a first-character group), so the cost grows with their number,
 * while the wasm walk's does not. 16 keeps the worst case near one wasm lookup; not tuned further. */
export const MAX_DYNAMIC_ROUTES = 16;

/** V8 compiles a `switch` over strings to comparisons in turn: beyond this many static paths the
 * engine's hash table is the better index. */
export const MAX_STATIC_PATHS = 64;

const SLASH = 47;
const QUERY = 63;
const FRAGMENT = 35;
const PERCENT = 37;

/** A value holds `%`: the router must decode it. */
const ESCAPED = 1;
/** A value the generated code must not answer for: ask the wasm engine. */
const DEFER = 2;

/**
 * Checks a parameter value: {@link DEFER} for a non-ASCII character — the wasm engine answers with it
 * percent-encoded (a malformed value is reported undecoded, so the text is visible) — or for `?` or `#`,
 * which mean the path has a query string or fragment that the engine cuts off first; else
 * {@link ESCAPED} when it holds `%`, 0 when there is nothing to decode. Checking the values, not the whole
 * path, keeps string scans off the static lookups: static text can never contain these characters.
 */
function checkValue(text: string): number {
  let found = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    // Letters (the commonest characters) take two comparisons; `%`, `?` and `#` are all below `@`.
    if (c >= 0x40) {
      if (c > 0x7f) return DEFER;
    } else if (c === PERCENT) {
      found = ESCAPED;
    } else if (c === QUERY || c === FRAGMENT) {
      return DEFER;
    }
  }
  return found;
}

/** A generated find: the answer for a request, or `null` when no route matches. */
export type GeneratedFind<A> = (method: string, path: string) => A | null;

/**
 * How the generated code answers, supplied by its user as code. The generated function sees the names of
 * {@link scope}, `p` (the path the values index into) and `FALLBACK` (called with the method and the
 * original path when the generated code must not answer).
 */
export interface AnswerCode {
  /** Values the snippets refer to, by name (route values, prebuilt answers, helper functions). */
  readonly scope: Readonly<Record<string, unknown>>;
  /**
   * An expression answering route `id`. `spans` are the `[start, end]` expressions of its values into
   * `p`, in the order of its `params`, evaluated only where `escaped` (an expression that is true when a
   * value holds `%`) is; `values`, when given, the expressions of the values' text, in the same order.
   */
  found(id: number, spans: readonly string[], escaped: string, values?: readonly string[]): string;
}

/** A pattern the generated code can match: static text, whole-segment parameters, a trailing `*`. */
type SimplePiece = { kind: 'static'; text: string } | { kind: 'param' } | { kind: 'wildcard' };

/** The route's pieces (as the core parsed them) when the generated code can match them, else `null`. */
function simplePieces(pieces: readonly PatternPiece[]): SimplePiece[] | null {
  const out: SimplePiece[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as PatternPiece;
    const before = pieces[i - 1];
    const after = pieces[i + 1];
    if (piece.kind === 'text') {
      // Text with `%` or non-ASCII characters is matched in its percent-encoded form: the engine's.
      for (let k = 0; k < piece.text.length; k++) {
        const c = piece.text.charCodeAt(k);
        if (c > 0x7f || c === PERCENT) return null;
      }
      out.push({ kind: 'static', text: piece.text });
    } else if (piece.kind === 'param') {
      if (piece.constraint !== 'none' || piece.optional) return null;
      // A whole segment: after a `/`, and followed by nothing or by a `/`.
      if (before?.kind !== 'text' || !before.text.endsWith('/')) return null;
      if (after !== undefined && (after.kind !== 'text' || !after.text.startsWith('/'))) return null;
      out.push({ kind: 'param' });
    } else if (piece.kind === 'wildcard') {
      // The wildcard is always last; taken only as a whole segment (`/files/*`, not `/files*`).
      if (before?.kind !== 'text' || !before.text.endsWith('/')) return null;
      out.push({ kind: 'wildcard' });
    } else {
      return null;
    }
  }
  return out;
}

/** A segment of a pattern split on `/`, as the generated code compares it: the same three kinds, its
 * static text without `/`. */
type Segment = SimplePiece;

const PARAM_MARK = '\u0000';
const WILDCARD_MARK = '\u0001';

/** The route's segments, the pattern split on `/` as the generated code splits the path: a parameter is a
 * whole segment, the wildcard the last one (it takes the rest, slashes included). `null` when the static
 * text holds a character used as a mark here. */
function segments(pieces: readonly SimplePiece[]): Segment[] | null {
  let joined = '';
  for (const piece of pieces) {
    if (piece.kind === 'static') {
      if (piece.text.includes(PARAM_MARK) || piece.text.includes(WILDCARD_MARK)) return null;
      joined += piece.text;
    } else {
      joined += piece.kind === 'param' ? PARAM_MARK : WILDCARD_MARK;
    }
  }
  return joined.split('/').map((text): Segment => {
    if (text === PARAM_MARK) return { kind: 'param' };
    if (text === WILDCARD_MARK) return { kind: 'wildcard' };
    return { kind: 'static', text };
  });
}

interface Dynamic {
  id: number;
  segments: readonly Segment[];
}

/**
 * The code that answers `route` when it matches the split path (`s`, `l` segments), or falls through.
 * Segments below `from` are already known to match. The values are the segments themselves (no copy);
 * the wildcard's is the rest of the path, from the start of its segment. Their bounds in `p`, needed only
 * to decode a value with `%`, are computed in that branch alone.
 */
function routeCode(route: Dynamic, from: number, answers: AnswerCode, defer: string): string {
  const segs = route.segments;
  const last = segs[segs.length - 1] as Segment;
  const conditions = [last.kind === 'wildcard' ? `l >= ${segs.length}` : `l === ${segs.length}`];
  const values: string[] = [];
  const spans: string[] = [];
  let constant = 0;
  const lengths: string[] = [];
  const offset = () => [String(constant), ...lengths].join(' + ');
  const lines: string[] = [];
  segs.forEach((seg, i) => {
    if (seg.kind === 'static') {
      if (i >= from) conditions.push(`s[${i}] === ${JSON.stringify(seg.text)}`);
      constant += seg.text.length + 1;
    } else if (seg.kind === 'param') {
      if (i >= from) conditions.push(`s[${i}] !== ''`);
      values.push(`s[${i}]`);
      spans.push(offset(), `${offset()} + s[${i}].length`);
      lengths.push(`s[${i}].length`);
      constant += 1;
    } else {
      lines.push(`const w = p.slice(${offset()});`);
      values.push('w');
      spans.push(offset(), 'p.length');
    }
  });
  if (values.length === 0) {
    lines.push(`return ${answers.found(route.id, [], 'false')};`);
  } else {
    // The values are checked once the route matched (see checkValue).
    lines.push(
      `const x = ${values.map((v) => `check(${v})`).join(' | ')};`,
      `if (x & ${DEFER}) ${defer}`,
      `return ${answers.found(route.id, spans, 'x !== 0', values)};`,
    );
  }
  return `if (${conditions.join(' && ')}) {\n${lines.join('\n')}\n}`;
}

/**
 * The code of one method, statements that return its answer for `p` or run `miss` (a `break` or a
 * `return`): with `retry` (the trailing-slash retry, `p` the path with one slash removed or added) its
 * exact static paths first, which the generated find already tried for the path as given; then the
 * dynamic routes in definition order, on the path split on `/` once (the segments compared whole, the
 * values taken as they are). When every dynamic route starts with a static first segment, they are
 * grouped by it in a `switch`: routes of two groups can never match the same path, so only one group is
 * tried and the order within it is kept. `defer` is the statement run for a value the engine must answer.
 */
function methodCode(
  statics: Map<string, number>,
  dynamic: readonly Dynamic[],
  answers: AnswerCode,
  retry: boolean,
  miss: string,
  defer: string,
): string {
  const cases = [...statics].map(
    ([path, id]) => `case ${JSON.stringify(path)}: return ${answers.found(id, [], 'false')};`,
  );
  const staticSwitch = retry && cases.length > 0 ? `switch (p) {\n  ${cases.join('\n  ')}\n}\n` : '';
  if (dynamic.length === 0) return `${staticSwitch}${miss}`;
  const leading = (d: Dynamic, i: number) => {
    const seg = d.segments[i];
    return seg?.kind === 'static' ? seg.text : null;
  };
  // Every pattern starts with `/`: segment 0 is empty; tested once for all routes.
  const rooted = dynamic.every((d) => leading(d, 0) === '');
  const from = rooted ? 1 : 0;
  let dynamicCode: string;
  const early: string[] = [];
  if (rooted && dynamic.length > 1 && dynamic.every((d) => leading(d, 1) !== null)) {
    const groups = new Map<string, Dynamic[]>();
    for (const d of dynamic) {
      const key = leading(d, 1) as string;
      groups.set(key, [...(groups.get(key) ?? []), d]);
    }
    // A group whose first route is static segments then `*` (`/static/*`) tries it before the split: it
    // matches exactly the paths that start with its prefix, and no earlier route (all in other groups)
    // can match those. Its request then needs no split.
    for (const routes of groups.values()) {
      const d = routes[0] as Dynamic;
      const segs = d.segments;
      const prefix = segs.slice(0, -1);
      if (segs[segs.length - 1]?.kind !== 'wildcard' || prefix.some((seg) => seg.kind !== 'static')) continue;
      const text = `${prefix.map((seg) => (seg.kind === 'static' ? seg.text : '')).join('/')}/`;
      const value = ['w'];
      const answer = answers.found(d.id, [String(text.length), 'p.length'], 'x !== 0', value);
      early.push(
        `if (p.charCodeAt(1) === ${text.charCodeAt(1)} && p.startsWith(${JSON.stringify(text)})) {\n` +
          `const w = p.slice(${text.length});\nconst x = check(w);\nif (x & ${DEFER}) ${defer}\nreturn ${answer};\n}\n`,
      );
    }
    const groupCases = [...groups].map(
      ([text, routes]) =>
        `case ${JSON.stringify(text)}: {\n${routes.map((d) => routeCode(d, 2, answers, defer)).join('\n')}\n${miss}\n}`,
    );
    dynamicCode = `switch (s[1]) {\n${groupCases.join('\n')}\n}`;
  } else {
    dynamicCode = dynamic.map((d) => routeCode(d, from, answers, defer)).join('\n');
  }
  const root = rooted ? `if (s[0] !== '') ${miss}\n` : '';
  return `${staticSwitch}${early.join('')}const s = p.split('/');\nconst l = s.length;\n${root}${dynamicCode}\n${miss}`;
}

/**
 * Generates the find for `routes`, or `null` when the table is not one this module takes. `answerCode`
 * builds the answers, asked only once the table is taken (its scope names every route's values); the
 * generated code calls `fallback` for what it leaves to the engine.
 */
export function compileTable<A>(
  routes: readonly RouteInfo[],
  trailingSlash: boolean,
  answerCode: () => AnswerCode,
  fallback: GeneratedFind<A>,
): GeneratedFind<A> | null {
  const byMethod = new Map<string, { statics: Map<string, number>; dynamic: Dynamic[] }>();
  for (const route of routes) {
    const pieces = simplePieces(route.pieces);
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
        if (entry.statics.size > MAX_STATIC_PATHS) return null;
      } else {
        const split = segments(pieces);
        if (split === null) return null;
        entry.dynamic.push({ id: route.id, segments: split });
        if (entry.dynamic.length > MAX_DYNAMIC_ROUTES) return null;
      }
    }
  }
  const answers = answerCode();
  // Exact static paths first, whatever the method: the commonest requests return without a call.
  const staticPaths = new Map<string, string[]>();
  for (const [method, { statics }] of byMethod) {
    for (const [path, id] of statics) {
      staticPaths.set(path, [
        ...(staticPaths.get(path) ?? []),
        `if (m === ${JSON.stringify(method)}) return ${answers.found(id, [], 'false')};`,
      ]);
    }
  }
  const exact =
    staticPaths.size === 0
      ? ''
      : `switch (p) {\n${[...staticPaths].map(([path, checks]) => `case ${JSON.stringify(path)}: ${checks.join(' ')} break;`).join('\n')}\n}`;
  const first: string[] = [];
  const again: string[] = [];
  for (const [method, { statics, dynamic }] of byMethod) {
    const key = JSON.stringify(method);
    first.push(
      `case ${key}: {\n${methodCode(statics, dynamic, answers, false, 'break d;', 'return FALLBACK(m, p);')}\n}`,
    );
    again.push(
      `case ${key}: {\n${methodCode(statics, dynamic, answers, true, 'return null;', 'return FALLBACK(m, o);')}\n}`,
    );
  }
  // One function for the path as given, the way rou3's compiled code is one: the method's dynamic routes
  // are tried inline, a miss breaks out of block `d`. A miss is only final when the path has no query
  // string or fragment: the generated code compares the whole path, the engine only what comes before
  // them. The trailing-slash retry (`again`, `o` the path as given) removes or adds one slash, never for
  // `/`, and looks the new path up (the values are the same text).
  const source = `function again(m, p, o) {
switch (m) {
${again.join('\n')}
}
return null;
}
return function find(m, p) {
  ${exact}
  d: switch (m) {
${first.join('\n')}
    default: return null;
  }
  if (p.indexOf('?') >= 0 || p.indexOf('#') >= 0) return FALLBACK(m, p);
  if (${!trailingSlash} || p.length <= 1) return null;
  return again(m, p.charCodeAt(p.length - 1) === ${SLASH} ? p.slice(0, -1) : p + '/', p);
};`;
  const scope = {
    ...answers.scope,
    check: checkValue,
    FALLBACK: fallback,
  };
  return new Function(...Object.keys(scope), source)(...Object.values(scope)) as GeneratedFind<A>;
}
