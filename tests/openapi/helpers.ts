/**
 * Hand-built route tables for the exporter's unit tests: no Application, no engine. `routeInfo` mimics
 * the engine's metadata for the simple pattern forms the tests use (`:name`, `:name<c>`, `:name?`, `*`).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ParamInfo, RouteInfo } from '../../ts/src/engine/engine.js';
import type { DocumentSource, OpenApiConfig, RegisteredRoute } from '../../ts/src/openapi/index.js';

const SHORTCUTS: Record<string, string> = {
  int: '\\d+',
  slug: '[a-z0-9-]+',
  uuid: '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
  date: '\\d{4}-\\d{2}-\\d{2}',
  year: '\\d{4}',
};

export function routeInfo(id: number, methods: string[], pattern: string): RouteInfo {
  const params: ParamInfo[] = [];
  const template = pattern.replace(
    /:(\w+)(?:<([^>]+)>)?(\?)?|\*$/g,
    (whole, name?: string, c?: string, q?: string) => {
      if (whole === '*') {
        params.push({ name: '*', kind: 'wildcard', shortcut: null, regex: null, optional: false });
        return '{*}';
      }
      const shortcut = c !== undefined && SHORTCUTS[c] ? c : null;
      const regex = c === undefined ? null : (SHORTCUTS[c] ?? c);
      params.push({ name: name ?? '', kind: q ? 'optional' : 'param', shortcut, regex, optional: q === '?' });
      return `{${name}}`;
    },
  );
  return {
    id,
    methods,
    pattern,
    template,
    params,
    captures: 0,
    name: null,
    shadowedBy: null,
    isStatic: !params.length,
  };
}

export interface RouteSpec {
  methods?: string[];
  pattern: string;
  name?: string | null;
  callSite?: { file: string; line: number } | null;
  handlerLocation?: string | null;
  info?: RouteInfo;
}

export function table(specs: RouteSpec[]): RegisteredRoute[] {
  return specs.map((spec, id) => {
    const methods = spec.methods ?? ['GET'];
    return {
      id,
      methods,
      pattern: spec.pattern,
      info: spec.info ?? routeInfo(id, methods, spec.pattern),
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

const dir = mkdtempSync(join(tmpdir(), 'arbor-openapi-'));
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
