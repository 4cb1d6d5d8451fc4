/**
 * Route parameters typed from the pattern string (template-literal types, as Hono does). The type-level
 * scanner follows the engine's parser (`crates/arbor-router/src/pattern.rs`) character by character, so
 * `:name`, `{name}`, `:name?`, constraints (`<int>`, `<[a-z]{2}>` — nested `()`, `{}`, classes and escapes
 * skipped as the engine skips them), `::` (a literal colon), several parameters in one segment, the
 * trailing `*` and the named groups of a `{^regex$}` block all give the names the engine reports.
 *
 * A pattern that is not a literal type (a `string` built at run time) gives
 * `Record<string, string | undefined>`: every name allowed, none known to be present.
 *
 * @example
 * type P = PathParams<'/files/:name<[\\w-]+>.:ext<jpg|png>/:page?'>;
 * // { name: string; ext: string; page: string | undefined }
 */

/** The parameters of a route whose pattern is not known statically. */
export type AnyParams = Record<string, string | undefined>;

type Letter =
  | 'a'
  | 'b'
  | 'c'
  | 'd'
  | 'e'
  | 'f'
  | 'g'
  | 'h'
  | 'i'
  | 'j'
  | 'k'
  | 'l'
  | 'm'
  | 'n'
  | 'o'
  | 'p'
  | 'q'
  | 'r'
  | 's'
  | 't'
  | 'u'
  | 'v'
  | 'w'
  | 'x'
  | 'y'
  | 'z';
type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
/** `is_name_byte` in pattern.rs: ASCII letters, digits and `_`. */
type NameChar = Letter | Uppercase<Letter> | Digit | '_';

/** One parameter as the scanner finds it: its name and whether it may be absent. */
type Entry = readonly [name: string, optional: boolean];

/** Scans a pattern into its parameters, in pattern order. */
type Scan<S extends string, Out extends Entry[]> = S extends `::${infer R}`
  ? Scan<R, Out>
  : S extends `:${infer R}`
    ? ReadParam<ReadName<R>, false, Out>
    : S extends `{^${infer R}`
      ? [...Out, ...RegexGroups<R, []>]
      : S extends `{${infer R}`
        ? ReadParam<ReadName<R>, true, Out>
        : S extends '*'
          ? [...Out, readonly ['*', false]]
          : S extends `${string}${infer R}`
            ? S extends ''
              ? Out
              : Scan<R, Out>
            : Out;

/** `[name, rest]`: the longest run of name characters at the start of `S`. */
type ReadName<S extends string, N extends string = ''> = S extends `${infer C}${infer R}`
  ? C extends NameChar
    ? ReadName<R, `${N}${C}`>
    : [N, S]
  : [N, S];

/** After the name: a constraint and `?`, in either order, then `}` when braced. */
type ReadParam<Read extends [string, string], Braced extends boolean, Out extends Entry[]> =
  Modifiers<Read[1], false> extends [infer Optional extends boolean, infer Rest extends string]
    ? Scan<
        Braced extends true ? (Rest extends `}${infer After}` ? After : Rest) : Rest,
        [...Out, readonly [Read[0], Optional]]
      >
    : Out;

type Modifiers<S extends string, Optional extends boolean> = S extends `<${infer R}`
  ? Modifiers<SkipRegex<R, '>'>, Optional>
  : S extends `?${infer R}`
    ? Modifiers<R, true>
    : [Optional, S];

/**
 * What follows the `close` that ends a constraint, as `scan_regex` in pattern.rs finds it: escapes are
 * skipped, `(`/`{` nest, and a character class (`[>]`, `[]>]`, `[^]>]`) hides everything in it.
 */
type SkipRegex<
  S extends string,
  Close extends string,
  Depth extends unknown[] = [],
  Class extends unknown[] = [],
> = S extends `\\${string}${infer R}`
  ? SkipRegex<R, Close, Depth, Class>
  : S extends `${infer C}${infer R}`
    ? Class extends [unknown, ...infer Outer]
      ? C extends '['
        ? SkipRegex<R, Close, Depth, [unknown, ...Class]>
        : C extends ']'
          ? SkipRegex<R, Close, Depth, Outer>
          : SkipRegex<R, Close, Depth, Class>
      : C extends '['
        ? SkipRegex<ClassStart<R>, Close, Depth, [unknown]>
        : C extends '(' | '{'
          ? SkipRegex<R, Close, [unknown, ...Depth], Class>
          : C extends ')' | '}'
            ? Depth extends [unknown, ...infer Shallower]
              ? SkipRegex<R, Close, Shallower, Class>
              : C extends Close
                ? R
                : SkipRegex<R, Close, Depth, Class>
            : C extends Close
              ? Depth extends []
                ? R
                : SkipRegex<R, Close, Depth, Class>
              : SkipRegex<R, Close, Depth, Class>
    : '';

/** A `]` right after `[` or `[^` is a member of the class, not its end. */
type ClassStart<S extends string> = S extends `^]${infer R}`
  ? R
  : S extends `^${infer R}`
    ? R
    : S extends `]${infer R}`
      ? R
      : S;

/** The named groups of a regex block, `(?P<name>…)` and `(?<name>…)`, in textual order. */
type RegexGroups<S extends string, Out extends Entry[]> = S extends `${string}(?${infer R}`
  ? R extends `P<${infer N}>${infer T}`
    ? RegexGroups<T, [...Out, readonly [N, false]]>
    : R extends `<${infer N}>${infer T}`
      ? N extends `${'=' | '!'}${string}`
        ? RegexGroups<R, Out>
        : RegexGroups<T, [...Out, readonly [N, false]]>
      : RegexGroups<R, Out>
  : Out;

/** The parameters of `Pattern`, in order, as `[name, optional]` pairs. */
export type ParamEntries<Pattern extends string> = Scan<Pattern, []>;

/**
 * The parameters of a pattern: a declared name is `string`, an optional one (`:page?`) `string | undefined`.
 *
 * @example
 * const id: PathParams<'/users/:id<int>'>['id'] = '42';
 */
export type PathParams<Pattern extends string> = string extends Pattern
  ? AnyParams
  : AsParams<
      Flatten<{
        [E in ParamEntries<Pattern>[number] as E[0]]: E[1] extends true ? string | undefined : string;
      }>
    >;

type Flatten<T> = { [K in keyof T]: T[K] } & {};
/** Tells the checker what it cannot see through the mapped type: every value is a string or undefined. */
type AsParams<T> = T extends AnyParams ? T : never;

/** `joinPath` at the type level: a group prefix and a route's uri. */
export type JoinPath<Prefix extends string, Uri extends string> = string extends Prefix | Uri
  ? string
  : Prefix extends ''
    ? Uri
    : Uri extends `/${string}` | `{^${string}` | ''
      ? `${Prefix}${Uri}`
      : `${Prefix}/${Uri}`;

/** The values of `app.bind(name, resolver)`: the resolver's result by parameter name. */
export type Bindings = Record<string, unknown>;

/** Nothing bound yet. */
// biome-ignore lint/complexity/noBannedTypes: the empty set of bindings is an empty object type.
export type NoBindings = {};

/**
 * The handler arguments after `res`: the bound values of the pattern's parameters, in pattern order (as
 * the kernel passes them). An optional parameter's value is `undefined` when it is absent. Unknown
 * trailing arguments stay `any` so that handlers written against an untyped `bind()` still compile.
 */
export type BoundArgs<Pattern extends string, B extends Bindings> = string extends Pattern
  ? // biome-ignore lint/suspicious/noExplicitAny: the pattern is unknown, so are its bound values.
    any[]
  : // biome-ignore lint/suspicious/noExplicitAny: values of bindings the type does not know.
    [...BoundTuple<ParamEntries<Pattern>, B>, ...any[]];

type BoundTuple<E extends Entry[], B extends Bindings> = E extends [
  infer First extends Entry,
  ...infer Rest extends Entry[],
]
  ? First[0] extends keyof B
    ? [First[1] extends true ? B[First[0]] | undefined : B[First[0]], ...BoundTuple<Rest, B>]
    : BoundTuple<Rest, B>
  : [];
