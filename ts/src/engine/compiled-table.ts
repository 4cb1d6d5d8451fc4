/**
 * The code generator behind `generated-front.ts`: one JavaScript function that finds a request's route in
 * a small table, built from the engine's route list. See that module for when it is used and why.
 *
 * Shape of the generated function: exact static paths in a `switch` (before the method is even looked
 * at); then, per method, the dynamic routes in definition order, grouped by the first character after
 * the `/` (two groups can never match the same path), neighbouring routes sharing the code of their
 * common leading pieces, the values' bounds kept in local variables. What it answers is the caller's:
 * the code that builds a found route's answer comes from {@link AnswerCode} (the router's matches,
 * object literals with the values sliced in place), so a lookup is one call that allocates only its
 * answer. A path it must not answer (see `checkValue`) goes to the caller's fallback, the engine.
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
/** Static text up to this long is compared inline (see mismatch). */
const INLINE_COMPARE = 24;

/** A value holds `%`: the router must decode it. */
const ESCAPED = 1;
/** A value the generated code must not answer for: ask the wasm engine. */
const DEFER = 2;

/**
 * Checks a parameter value `text[start, end)`: {@link DEFER} for a non-ASCII character — the wasm engine
 * answers with it percent-encoded (a malformed value is reported undecoded, so the text is visible) —
 * or for `?` or `#`, which mean the path has a query string or fragment that the engine cuts off first;
 * else {@link ESCAPED} when it holds `%`, 0 when there is nothing to decode. Checking the values, not
 * the whole path, keeps string scans off every lookup: static text can never contain these characters.
 */
function checkValue(text: string, start: number, end: number): number {
  let found = 0;
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c > 0x7f || c === QUERY || c === FRAGMENT) return DEFER;
    if (c === PERCENT) found = ESCAPED;
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
   * `p`, in the order of its `params`; `escaped` an expression that is true when a value holds `%`.
   */
  found(id: number, spans: readonly string[], escaped: string): string;
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

interface DynamicRoute {
  id: number;
  pieces: readonly SimplePiece[];
}

/**
 * The condition under which `p` does not hold `text` at `at`. Short texts are compared character by
 * character inline (TurboFan compiles `charCodeAt` of a constant index to a load); `startsWith` is a
 * builtin call, which costs more than the comparisons on paths of a few dozen characters.
 */
function mismatch(text: string, at: string): string {
  if (text.length > INLINE_COMPARE) return `!p.startsWith(${JSON.stringify(text)}, ${at})`;
  const offset = (k: number) => (/^\d+$/.test(at) ? String(Number(at) + k) : `${at} + ${k}`);
  return [...text].map((c, k) => `p.charCodeAt(${offset(k)}) !== ${c.charCodeAt(0)}`).join(' || ');
}

/** What a piece must be for two routes to share its code. */
function pieceKey(piece: SimplePiece | undefined): string {
  if (piece === undefined) return 'end';
  return piece.kind === 'static' ? `static ${piece.text}` : piece.kind;
}

/** Returned by a method's function when a value must go to the engine (see `checkValue`). */
const DEFERRED = 'DEFERRED';

/**
 * The code that tries `routes` in turn. They share their first `depth` pieces, already matched: `at` is
 * the position after them (an expression) and `spans` the bounds of their values so far. Consecutive
 * routes that share their next piece share its code too (`/event/:id` then `/event/:id/comments` match
 * `/event/` and the parameter once); only neighbours are merged, so definition order is kept. A mismatch
 * breaks out of the block to the next candidate; the code returns the answer of the first route that
 * matches.
 */
function matchCode(
  routes: readonly DynamicRoute[],
  depth: number,
  at: string,
  spans: readonly string[],
  names: { n: number },
  answers: AnswerCode,
): string {
  const out: string[] = [];
  for (let k = 0; k < routes.length; ) {
    const key = pieceKey(routes[k]?.pieces[depth]);
    let end = k + 1;
    while (end < routes.length && pieceKey(routes[end]?.pieces[depth]) === key) end++;
    const group = routes.slice(k, end);
    k = end;
    const first = group[0] as DynamicRoute;
    const piece = first.pieces[depth];
    const label = `b${names.n++}`;
    if (piece === undefined || piece.kind === 'wildcard') {
      // The route is complete (a second identical route could never win: the first is returned).
      const lines: string[] = [];
      const all = piece === undefined ? spans : [...spans, at, 'e'];
      if (piece === undefined) lines.push(`if (${at} !== e) break ${label};`);
      if (all.length === 0) {
        lines.push(`return ${answers.found(first.id, [], 'false')};`);
      } else {
        // The values are checked once the route matched (see checkValue).
        const checks = [];
        for (let i = 0; i < all.length; i += 2) checks.push(`check(p, ${all[i]}, ${all[i + 1]})`);
        lines.push(
          `const x = ${checks.join(' | ')};`,
          `if (x & ${DEFER}) return ${DEFERRED};`,
          `return ${answers.found(first.id, all, 'x !== 0')};`,
        );
      }
      out.push(`${label}: {\n${lines.join('\n')}\n}`);
    } else if (piece.kind === 'static') {
      const length = piece.text.length;
      const next = /^\d+$/.test(at) ? String(Number(at) + length) : `i${names.n++}`;
      const declare = next.startsWith('i') ? `const ${next} = ${at} + ${length};\n` : '';
      out.push(
        `${label}: {\nif (${at} + ${length} > e || ${mismatch(piece.text, at)}) break ${label};\n` +
          `${declare}${matchCode(group, depth + 1, next, spans, names, answers)}\n}`,
      );
    } else {
      // `at` and `j` stay fixed once computed: they are the value's bounds.
      const j = `j${names.n++}`;
      out.push(
        `${label}: {\nlet ${j} = ${at};\nwhile (${j} < e && p.charCodeAt(${j}) !== ${SLASH}) ${j}++;\nif (${j} === ${at}) break ${label};\n` +
          `${matchCode(group, depth + 1, j, [...spans, at, j], names, answers)}\n}`,
      );
    }
  }
  return out.join('\n');
}

interface Dynamic extends DynamicRoute {
  /** The character after the leading `/` when the pattern starts with static text that long. */
  first: number | null;
}

/**
 * The function of one method: `(p, e, retry)` looks up `p` cut at `e`: with `retry` (the trailing-slash
 * retry) its exact static paths first, which the generated find already tried for the path as given;
 * then the dynamic routes in definition order. When every dynamic route starts with a known character
 * after the `/`, they are grouped by it: routes of two groups can never match the same path, so only
 * one group is tried and the order within it is kept. Returns an answer, `null`, or {@link DEFERRED}.
 */
function methodCode(
  name: string,
  statics: Map<string, number>,
  dynamic: readonly Dynamic[],
  answers: AnswerCode,
): string {
  const cases = [...statics].map(
    ([path, id]) => `case ${JSON.stringify(path)}: return ${answers.found(id, [], 'false')};`,
  );
  const staticSwitch =
    cases.length === 0
      ? ''
      : `if (retry) switch (e === p.length ? p : p.slice(0, e)) {\n  ${cases.join('\n  ')}\n}`;
  const names = { n: 0 };
  let dynamicCode: string;
  if (dynamic.length > 1 && dynamic.every((d) => d.first !== null)) {
    const groups = new Map<number, Dynamic[]>();
    for (const d of dynamic) groups.set(d.first as number, [...(groups.get(d.first as number) ?? []), d]);
    const groupCases = [...groups].map(
      ([c, routes]) => `case ${c}: {\n${matchCode(routes, 0, '0', [], names, answers)}\nreturn null;\n}`,
    );
    dynamicCode = `switch (p.charCodeAt(1)) {\n${groupCases.join('\n')}\n}`;
  } else {
    dynamicCode = matchCode(dynamic, 0, '0', [], names, answers);
  }
  return `function ${name}(p, e, retry) {\n${staticSwitch}\n${dynamicCode}\nreturn null;\n}`;
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
        const lead = pieces[0]?.kind === 'static' ? pieces[0].text : '';
        entry.dynamic.push({ id: route.id, pieces, first: lead.length >= 2 ? lead.charCodeAt(1) : null });
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
  const functions: string[] = [];
  const dispatch: string[] = [];
  [...byMethod].forEach(([method, { statics, dynamic }], k) => {
    functions.push(methodCode(`m${k}`, statics, dynamic, answers));
    dispatch.push(`case ${JSON.stringify(method)}: return m${k}(p, e, retry);`);
  });
  // Each method's function is called from its own `case` (a direct call V8 can inline), not through a
  // variable holding one of them.
  functions.push(
    `function byMethod(m, p, e, retry) {\n  switch (m) {\n    ${dispatch.join('\n    ')}\n  }\n  return UNKNOWN;\n}`,
  );
  // A miss is only final when the path has no query string or fragment: the generated code compares the
  // whole path, the engine only what comes before them. The trailing-slash retry removes or adds one
  // slash, never for `/`; the values of a retry with a slash added index into the longer path.
  const source = `${functions.join('\n')}
return function find(m, p) {
  ${exact}
  const e = p.length;
  let found = byMethod(m, p, e, false);
  if (found === UNKNOWN) return null;
  if (found === null) {
    if (p.indexOf('?') >= 0 || p.indexOf('#') >= 0) return FALLBACK(m, p);
    if (${!trailingSlash} || e <= 1) return null;
    found = p.charCodeAt(e - 1) === ${SLASH}
      ? byMethod(m, p, e - 1, true)
      : byMethod(m, p + '/', e + 1, true);
  }
  return found === ${DEFERRED} ? FALLBACK(m, p) : found;
};`;
  const scope = {
    ...answers.scope,
    check: checkValue,
    FALLBACK: fallback,
    [DEFERRED]: Symbol('deferred'),
    UNKNOWN: Symbol('unknown method'),
  };
  return new Function(...Object.keys(scope), source)(...Object.values(scope)) as GeneratedFind<A>;
}
