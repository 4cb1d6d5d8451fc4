/**
 * Route tables for the exporter's unit tests, without an Application: each route's metadata is what the
 * real (WebAssembly) engine reports for its pattern, so the tables cannot drift from the engine.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { RouteInfo } from '../../ts/src/engine/engine.js';
import { createWasmEngine } from '../../ts/src/engine/wasm-engine.js';
import type { DocumentSource, OpenApiConfig, RegisteredRoute } from '../../ts/src/openapi/index.js';

/** The engine's metadata for `pattern` registered alone (id 0). */
export function engineInfo(pattern: string, methods: string[] = ['GET']): RouteInfo {
  const engine = createWasmEngine();
  const { id } = engine.insert(methods, pattern);
  const info = engine.route(id);
  if (info === undefined) throw new Error(`the engine has no metadata for ${pattern}`);
  return info;
}

export interface RouteSpec {
  methods?: string[];
  pattern: string;
  name?: string | null;
  callSite?: { file: string; line: number } | null;
  handlerLocation?: string | null;
  info?: RouteInfo;
}

/** The routes registered in order on one engine; `info` is the engine's unless a spec brings its own. */
export function table(specs: RouteSpec[]): RegisteredRoute[] {
  const engine = createWasmEngine();
  return specs.map((spec, id) => {
    const methods = spec.methods ?? ['GET'];
    const inserted = engine.insert(methods, spec.pattern);
    if (inserted.id !== id) throw new Error(`route ${spec.pattern} got id ${inserted.id}, expected ${id}`);
    const info = spec.info ?? engine.route(id);
    if (info === undefined) throw new Error(`the engine has no metadata for ${spec.pattern}`);
    return {
      id,
      methods,
      pattern: spec.pattern,
      info,
      name: spec.name ?? null,
      middleware: [],
      handlerLocation: spec.handlerLocation ?? null,
      callSite: spec.callSite ?? null,
    };
  });
}

export function source(routes: RegisteredRoute[], openapi?: OpenApiConfig): DocumentSource {
  return {
    config: { openapi: openapi ?? { info: { title: 'Test API', version: '1.0.0' } } },
    routeTable: () => routes,
  };
}

// One directory per test file that imports these helpers (vitest evaluates the module per file),
// removed when that file's tests are done.
const dir = mkdtempSync(join(tmpdir(), 'arbor-openapi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;

/** Writes a source file; `lineOf(text)` is the 1-based line of the first line containing `text`. */
export function fixture(text: string, ext = 'ts'): { file: string; lineOf(needle: string): number } {
  const sub = join(dir, String(counter++));
  mkdirSync(sub);
  const file = join(sub, `app.${ext}`);
  writeFileSync(file, text);
  const lines = text.split('\n');
  return {
    file,
    lineOf(needle: string) {
      const index = lines.findIndex((l) => l.includes(needle));
      if (index === -1) throw new Error(`fixture has no line with ${needle}`);
      return index + 1;
    },
  };
}

/** A block (lines without the comment markers) placed just above `app.<method>(pattern, …)`. */
export function documented(block: string, pattern: string, method = 'get', extra = ''): string {
  const body = block
    .trim()
    .split('\n')
    .map((l) => ` * ${l.trim()}`)
    .join('\n');
  return `import { app } from './app.js';\n\n/**\n${body}\n */\napp.${method}('${pattern}', handler);\n${extra}`;
}
