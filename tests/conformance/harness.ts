/**
 * The conformance tables' shapes and the runner that turns them into tests for one engine.
 *
 * A table registers routes in order (through `Router`, as an embedder would), then asks for requests
 * and compares the matched route (by pattern), the decoded parameters, the captures and the malformed
 * flag. A row that an engine knowingly does not support names the engine and the reason; it runs as
 * `it.fails`, so the day the engine supports it the suite says so.
 */
import { describe, expect, it } from 'vitest';
import type { EngineOptions, RouteInfo } from '../../ts/src/engine/engine.js';
import { RouteError, type RouteErrorCode } from '../../ts/src/errors.js';
import { Router } from '../../ts/src/router/index.js';
import { type EngineName, type EngineUnderTest, routerOptions } from './engines.js';

/** A pattern for GET, or `[methods, pattern]`. */
export type RouteDef = string | readonly [method: string | readonly string[], pattern: string];

/** Rows an engine knowingly does not support, with the reason. */
export type Unsupported = Partial<Record<EngineName, string>>;

export interface Expected {
  /** The pattern of the route that must be chosen. */
  route: string;
  /** Decoded parameter values (absent optional parameters are absent). Default `{}`. */
  params?: Record<string, string>;
  /** Default `[]`. */
  captures?: (string | undefined)[];
  /** Default `false`. */
  malformed?: boolean;
}

export interface MatchCase {
  /** Default `GET`. */
  method?: string;
  path: string;
  /** `null`: no route matches. */
  expect: Expected | null;
  unsupported?: Unsupported;
}

export interface AllowedCase {
  path: string;
  /** Compared as a set: the order of `allowedMethods` is not specified. */
  methods: string[];
}

export interface MatchTable {
  name: string;
  /** The rule of docs/ROUTING.md the table pins. */
  spec: string;
  options?: EngineOptions;
  routes: RouteDef[];
  cases: MatchCase[];
  allowed?: AllowedCase[];
}

export interface ErrorCase {
  /** Registered first (they must succeed). */
  before?: RouteDef[];
  add: RouteDef;
  code: RouteErrorCode;
  /** Byte offset in the pattern; omitted where ROUTING.md does not give one (conflicts). */
  position?: number;
  conflictsWith?: string;
  why: string;
  unsupported?: Unsupported;
}

/** Expected metadata of one route, by pattern; `shadowedBy` names the shadowing route's pattern. */
export interface MetadataExpectation {
  pattern: string;
  template?: string;
  params?: RouteInfo['params'];
  pieces?: RouteInfo['pieces'];
  captures?: number;
  isStatic?: boolean;
  shadowedBy?: string | null;
  methods?: string[];
}

export interface MetadataTable {
  name: string;
  spec: string;
  options?: EngineOptions;
  routes: RouteDef[];
  expect: MetadataExpectation[];
  unsupported?: Unsupported;
}

const normalise = (def: RouteDef): { methods: string[]; pattern: string } =>
  typeof def === 'string'
    ? { methods: ['GET'], pattern: def }
    : { methods: typeof def[0] === 'string' ? [def[0]] : [...def[0]], pattern: def[1] };

export function buildRouter(
  engine: EngineUnderTest,
  routes: RouteDef[],
  options: EngineOptions = {},
): Router<string> {
  const router = new Router<string>(routerOptions(engine, options));
  for (const def of routes) {
    const { methods, pattern } = normalise(def);
    router.add(methods, pattern, pattern);
  }
  return router;
}

/**
 * `it`, or `it.fails` with the reason in the title when this engine knowingly does not support the row
 * (as hono's `runTest` gives each skip its reason). The `router` engine is the wasm engine behind a
 * generated front: a gap of the wasm engine is its gap too, unless the row names it.
 */
function row(
  engine: EngineUnderTest,
  title: string,
  unsupported: Unsupported | undefined,
  body: () => void,
): void {
  const reason = unsupported?.[engine.name] ?? (engine.name === 'router' ? unsupported?.wasm : undefined);
  if (reason === undefined) it(title, body);
  else it.fails(`${title} [known gap of the ${engine.name} engine: ${reason}]`, body);
}

const describeOptions = (options: EngineOptions | undefined): string =>
  options === undefined || Object.keys(options).length === 0 ? '' : ` ${JSON.stringify(options)}`;

export function runMatchTables(engine: EngineUnderTest, tables: MatchTable[]): void {
  for (const table of tables) {
    describe(`${table.name} (${table.spec})${describeOptions(table.options)}`, () => {
      const router = (): Router<string> => buildRouter(engine, table.routes, table.options);
      for (const testCase of table.cases) {
        const method = testCase.method ?? 'GET';
        const wanted = testCase.expect === null ? 'nothing' : testCase.expect.route;
        row(engine, `${method} ${JSON.stringify(testCase.path)} → ${wanted}`, testCase.unsupported, () => {
          const found = router().find(method, testCase.path);
          if (testCase.expect === null) {
            expect(found === null ? null : found.value).toBeNull();
            return;
          }
          expect(found === null ? null : found.value).toBe(testCase.expect.route);
          expect({
            params: { ...found?.params },
            captures: [...(found?.captures ?? [])],
            malformed: found?.malformed,
          }).toEqual({
            params: testCase.expect.params ?? {},
            captures: testCase.expect.captures ?? [],
            malformed: testCase.expect.malformed ?? false,
          });
        });
      }
      for (const allowed of table.allowed ?? []) {
        it(`allowedMethods(${JSON.stringify(allowed.path)}) = ${allowed.methods.join(', ') || 'none'}`, () => {
          expect(router().allowedMethods(allowed.path).sort()).toEqual([...allowed.methods].sort());
        });
      }
    });
  }
}

export function runErrorTable(engine: EngineUnderTest, cases: ErrorCase[]): void {
  describe('registration errors (ROUTING.md §2, §3 rule 4)', () => {
    for (const errorCase of cases) {
      const { pattern, methods } = normalise(errorCase.add);
      const shown = pattern.length > 60 ? `${pattern.slice(0, 40)}…(${pattern.length} chars)` : pattern;
      row(
        engine,
        `${JSON.stringify(shown)} → ${errorCase.code}: ${errorCase.why}`,
        errorCase.unsupported,
        () => {
          const router = buildRouter(engine, errorCase.before ?? []);
          let caught: unknown = null;
          try {
            router.add(methods, pattern, pattern);
          } catch (error) {
            caught = error;
          }
          expect(caught).toBeInstanceOf(RouteError);
          const error = caught as RouteError;
          // Named as written, or quoted (JSON or Rust `{:?}`, which double backslashes); a huge pattern
          // may be abbreviated in the message, but never in `error.pattern`.
          if (pattern.length <= 200) {
            expect([pattern, JSON.stringify(pattern)].some((form) => error.message.includes(form))).toBe(
              true,
            );
          }
          const expected: Record<string, unknown> = { code: errorCase.code, pattern };
          const actual: Record<string, unknown> = { code: error.code, pattern: error.pattern };
          if (errorCase.position !== undefined) {
            expected.position = errorCase.position;
            actual.position = error.position;
          }
          if (errorCase.conflictsWith !== undefined) {
            expected.conflictsWith = errorCase.conflictsWith;
            actual.conflictsWith = error.conflictsWith;
            const other = errorCase.conflictsWith;
            expect([other, JSON.stringify(other)].some((form) => error.message.includes(form))).toBe(true);
          }
          expect(actual).toEqual(expected);
        },
      );
    }
  });
}

export function runMetadataTables(engine: EngineUnderTest, tables: MetadataTable[]): void {
  for (const table of tables) {
    describe(`${table.name} (${table.spec})${describeOptions(table.options)}`, () => {
      row(engine, 'routes() metadata', table.unsupported, () => {
        const routes = buildRouter(engine, table.routes, table.options).routes();
        const patternOf = (id: number | null): string | null =>
          id === null ? null : (routes[id]?.pattern ?? `#${id}`);
        for (const wanted of table.expect) {
          const info = routes.find((route) => route.pattern === wanted.pattern);
          expect(info, wanted.pattern).toBeDefined();
          if (info === undefined) return;
          const { pattern, shadowedBy, ...fields } = wanted;
          const actual: Record<string, unknown> = { pattern: info.pattern };
          for (const key of Object.keys(fields)) actual[key] = info[key as keyof RouteInfo];
          if (shadowedBy !== undefined) actual.shadowedBy = patternOf(info.shadowedBy);
          expect(actual).toEqual(wanted);
        }
      });
    });
  }
}
