/**
 * The code generator behind `generated-front.ts`: one JavaScript function that finds a request's route in
 * a small table, from the table the front took (`FrontTable`). See that module for when it is used and
 * why; this one never declines a table.
 *
 * Shape of the generated function: exact static paths in a `switch` (before the method is even looked
 * at); then, inline per method, the dynamic routes in definition order, grouped by their first segment
 * (two groups can never match the same path), each walked over the path by positions (`routeCode`).
 * What it answers is the caller's: the code that builds a found route's answer comes from
 * {@link AnswerCode} (the router's matches, object literals), so a lookup allocates only its values and
 * its answer. A path it must not answer (see `scanCode`) goes to the
 * caller's fallback, the engine.
 */

const SLASH = 47;
const QUERY = 63;
const FRAGMENT = 35;
const PERCENT = 37;

/** A value holds `%`: the router must decode it. */
const ESCAPED = 1;
/** A value the generated code must not answer for: ask the wasm engine. */
const DEFER = 2;

/**
 * The code of a loop that scans a value from `k` (a variable, left at the value's end) and records in
 * `x` (a variable) what it holds: {@link DEFER} for a non-ASCII character — the wasm engine answers with it
 * percent-encoded (a malformed value is reported undecoded, so the text is visible) — or for `?` or `#`,
 * which mean the path has a query string or fragment that the engine cuts off first; {@link ESCAPED} for
 * `%`. With `segment`, the scan stops at the next `/`: the value is one segment. One loop finds a value's
 * end and checks it, where `indexOf` and a second scan would read the value twice. Only values are
 * scanned, never the whole path: static text can never hold these characters.
 */
function scanCode(k: string, x: string, segment: boolean): string {
  const stop = segment ? `if (c === ${SLASH}) break; ` : '';
  // Letters (the commonest characters) take two comparisons; `/`, `%`, `?` and `#` are all below `@`.
  return `for (; ${k} < p.length; ${k}++) {
const c = p.charCodeAt(${k});
if (c >= 0x40) { if (c > 0x7f) ${x} |= ${DEFER}; }
else { ${stop}if (c === ${PERCENT}) ${x} |= ${ESCAPED}; else if (c === ${QUERY} || c === ${FRAGMENT}) ${x} |= ${DEFER}; }
}`;
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

/** A pattern piece the generated code matches: static text, a whole-segment parameter, a trailing `*`. */
export type SimplePiece = { kind: 'static'; text: string } | { kind: 'param' } | { kind: 'wildcard' };

/** A dynamic route of a taken table: its id and its pieces. */
export interface DynamicRoute {
  readonly id: number;
  readonly pieces: readonly SimplePiece[];
}

/** One method's routes in a taken table: its exact static paths (path → route id) and its dynamic
 * routes, in definition order. */
export interface MethodRoutes {
  readonly statics: Map<string, number>;
  readonly dynamic: DynamicRoute[];
}

/** A table the generated front took (`generated-front.ts` decides), by method. */
export type FrontTable = ReadonlyMap<string, MethodRoutes>;

/**
 * The route's first segment with the slashes around it (`/user/`) when that segment is static text, else
 * `null` (`/:id`). Routes of two different such prefixes can never match the same path.
 */
function groupPrefix(route: DynamicRoute): string | null {
  const first = route.pieces[0];
  if (first?.kind !== 'static' || !first.text.startsWith('/')) return null;
  const end = first.text.indexOf('/', 1);
  return end > 0 ? first.text.slice(0, end + 1) : null;
}

/** The list kept in `map` under `key`, added empty on first use. */
function listIn<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (list === undefined) {
    list = [];
    map.set(key, list);
  }
  return list;
}

/** Text up to this long is compared character by character, inline; longer text with `startsWith`. */
const INLINE_TEXT = 16;

/** A position in the path: `base` (a variable, or '' for none) plus `offset`. */
function position(base: string, offset: number): string {
  if (base === '') return String(offset);
  return offset === 0 ? base : `${base} + ${offset}`;
}

/** A test that `text` is in `p` at `base + offset`: on short text, character codes compared inline,
 * which V8 compiles to a few loads and compares where `startsWith` is a call. */
function textAt(text: string, base: string, offset: number): string {
  if (text === '') return 'true';
  if (text.length > INLINE_TEXT) return `p.startsWith(${JSON.stringify(text)}, ${position(base, offset)})`;
  const codes = [...text].map(
    (_, k) => `p.charCodeAt(${position(base, offset + k)}) === ${text.charCodeAt(k)}`,
  );
  return codes.join(' && ');
}

/**
 * The code that answers `route` when it matches `p`, or falls through: a labelled block that walks the
 * path by positions, its first `from` characters known to match. Static text is compared in place; a
 * parameter ends at the next `/` and must not be empty; the wildcard takes the rest. Nothing is
 * allocated until the route matched: then the values are sliced.
 *
 * With `shared`, the route's first piece is the group's prefix and its second a parameter, whose scan
 * the group did once for all such routes (`ge`, `gx`; see {@link methodCode}).
 *
 * Why positions, not `p.split('/')` as rou3's compiled mode does: a request's path is a fresh string (the
 * HTTP parser's), and V8 splits a fresh string several times slower than one it has split before (its
 * split cache holds internalized strings only; docs/PERFORMANCE.md).
 */
function routeCode(
  route: DynamicRoute,
  from: number,
  answers: AnswerCode,
  defer: string,
  shared = false,
): string {
  const label = `r${route.id}`;
  const lines: string[] = [];
  const fail = (condition: string) => lines.push(`if (${condition}) break ${label};`);
  const spans: string[] = [];
  // Where the next piece starts: `base` (the end of the last parameter, a variable; '' before the
  // first) plus `offset`.
  let base = '';
  let offset = 0;
  const at = (plus: number) => position(base, offset + plus);
  const pieces = route.pieces;
  pieces.forEach((piece, i) => {
    if (piece.kind === 'static') {
      // The first piece is known up to `from`; a later one starts with the `/` that ended a parameter.
      const known = i === 0 ? from : 1;
      if (i === pieces.length - 1) fail(`p.length !== ${at(piece.text.length)}`);
      const rest = piece.text.slice(known);
      if (rest !== '') fail(`!(${textAt(rest, base, offset + known)})`);
      offset += piece.text.length;
      return;
    }
    const start = at(0);
    const end = `e${spans.length / 2}`;
    if (shared && i === 1) lines.push(`const ${end} = ge;`, 'x = gx;');
    else lines.push(`let ${end} = ${start};`, scanCode(end, 'x', piece.kind === 'param'));
    if (piece.kind === 'param') {
      // Empty, or (the last piece) followed by a `/`, or (not the last) not followed by one.
      fail(`${end} === ${start} || ${end} ${i === pieces.length - 1 ? '!==' : '==='} p.length`);
    }
    spans.push(start, end);
    base = end;
    offset = 0;
  });
  if (spans.length === 0) {
    lines.push(`return ${answers.found(route.id, [], 'false')};`);
    return `${label}: {\n${lines.join('\n')}\n}`;
  }
  const values: string[] = [];
  for (let k = 0; k < spans.length; k += 2) {
    values.push(`v${k / 2}`);
    lines.push(`const v${k / 2} = p.slice(${spans[k]}, ${spans[k + 1]});`);
  }
  lines.push(`if (x & ${DEFER}) ${defer}`, `return ${answers.found(route.id, spans, 'x !== 0', values)};`);
  return `${label}: {\nlet x = 0;\n${lines.join('\n')}\n}`;
}

/**
 * The code that runs `code.get(path)` when `p` is one of the paths in `code` (and falls through
 * otherwise): a `switch` on the length, then on the path among those of that length. V8 compiles a
 * `switch` over strings to comparisons in turn, and a request's path is a fresh string, compared by
 * length and then by content: up to 64 paths tried in turn cost far more than one jump on the length.
 */
function exactCode(code: ReadonlyMap<string, string>): string {
  if (code.size === 0) return '';
  const byLength = new Map<number, string[]>();
  for (const [path, run] of code) {
    listIn(byLength, path.length).push(`case ${JSON.stringify(path)}: ${run} break;`);
  }
  const cases = [...byLength].map(
    ([length, paths]) => `case ${length}: switch (p) {\n${paths.join('\n')}\n} break;`,
  );
  return `switch (p.length) {\n${cases.join('\n')}\n}`;
}

/**
 * The code of one method, statements that return its answer for `p` or run `miss` (a `break` or a
 * `return`): with `retry` (the trailing-slash retry, `p` the path with one slash removed or added) its
 * exact static paths first, which the generated find already tried for the path as given; then the
 * dynamic routes in definition order. When every dynamic route starts with a static first segment, they
 * are grouped by it: routes of two groups can never match the same path, so only the group whose prefix
 * the path starts with is tried (found through the prefix's first character), the order within it kept.
 * `defer` is the statement run for a value the engine must answer.
 */
function methodCode(
  statics: Map<string, number>,
  dynamic: readonly DynamicRoute[],
  answers: AnswerCode,
  retry: boolean,
  miss: string,
  defer: string,
): string {
  const answered = new Map(
    [...statics].map(([path, id]) => [path, `return ${answers.found(id, [], 'false')};`]),
  );
  const staticSwitch = retry && answered.size > 0 ? `${exactCode(answered)}\n` : '';
  if (dynamic.length === 0) return `${staticSwitch}${miss}`;
  const prefixes = dynamic.map(groupPrefix);
  if (dynamic.length === 1 || prefixes.some((prefix) => prefix === null)) {
    return `${staticSwitch}${dynamic.map((d) => routeCode(d, 0, answers, defer)).join('\n')}\n${miss}`;
  }
  const groups = new Map<string, DynamicRoute[]>();
  dynamic.forEach((d, k) => {
    const prefix = prefixes[k] as string;
    listIn(groups, prefix).push(d);
  });
  // By the prefix's first character after the leading `/`, then the prefix itself.
  const byFirst = new Map<number, string[]>();
  for (const [prefix, routes] of groups) {
    // Routes that go on from the prefix with a parameter (`/event/:id`, `/event/:id/comments`) would
    // each scan the same segment: when there are two or more, it is scanned once, before them.
    const sharing = routes.map((d) => {
      const [first, second] = d.pieces;
      return first?.kind === 'static' && first.text === prefix && second?.kind === 'param';
    });
    const shared = sharing.filter(Boolean).length > 1;
    const scan = shared ? `let ge = ${prefix.length};\nlet gx = 0;\n${scanCode('ge', 'gx', true)}\n` : '';
    const body = routes.map((d, k) => routeCode(d, prefix.length, answers, defer, shared && sharing[k]));
    const code = `if (${textAt(prefix.slice(2), '', 2)}) {\n${scan}${body.join('\n')}\n${miss}\n}`;
    const first = prefix.charCodeAt(1);
    listIn(byFirst, first).push(code);
  }
  const firstCases = [...byFirst].map(([code, tests]) => `case ${code}: {\n${tests.join('\n')}\n${miss}\n}`);
  return `${staticSwitch}if (p.charCodeAt(0) !== ${SLASH}) ${miss}\nswitch (p.charCodeAt(1)) {\n${firstCases.join('\n')}\n}\n${miss}`;
}

/**
 * Generates the find for a table the front took. `answers` builds the answers (its scope names every
 * route's values); the generated code calls `fallback` for what it leaves to the engine.
 */
export function compileTable<A>(
  table: FrontTable,
  trailingSlash: boolean,
  answers: AnswerCode,
  fallback: GeneratedFind<A>,
): GeneratedFind<A> {
  // Exact static paths first, whatever the method: the commonest requests return without a call.
  const staticPaths = new Map<string, string[]>();
  for (const [method, { statics }] of table) {
    for (const [path, id] of statics) {
      listIn(staticPaths, path).push(
        `if (m === ${JSON.stringify(method)}) return ${answers.found(id, [], 'false')};`,
      );
    }
  }
  const exact = exactCode(new Map([...staticPaths].map(([path, checks]) => [path, checks.join(' ')])));
  const first: string[] = [];
  const again: string[] = [];
  for (const [method, { statics, dynamic }] of table) {
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
    FALLBACK: fallback,
  };
  return new Function(...Object.keys(scope), source)(...Object.values(scope)) as GeneratedFind<A>;
}
