/**
 * Route tables and requests shared by every adapter: one router-neutral description of each pattern
 * (a list of pieces), from which each adapter renders its own syntax. Keeping the table neutral is what
 * lets the verifier compute the expected answer once, independently of any router under test.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The standard data sets, copied from their public sources into benches/data (override with ROUTER_BENCH_DATA). */
export const DATA_DIR = process.env.ROUTER_BENCH_DATA ?? fileURLToPath(new URL('../data', import.meta.url));

export type Piece =
  | { kind: 'static'; text: string }
  | {
      kind: 'param';
      name: string;
      /** `arbor` is the text inside `<…>` (a shortcut or a regex); `regex` is its JavaScript source. */
      constraint?: { arbor: string; regex: string };
    }
  /** Trailing wildcard: the rest of the path, `/` included. Its parameter is named `*` everywhere here. */
  | { kind: 'wildcard' };

export interface RouteDef {
  /** Definition order, 0.., the value every adapter stores for the route. */
  id: number;
  method: string;
  pieces: Piece[];
}

export interface Request {
  /** A label for the per-request cases of the small set; the other sets leave it empty. */
  label: string;
  method: string;
  path: string;
  /**
   * The route the request was made for (its id), where the data set says: one request per route on the
   * GitHub and SaaS tables, a sampled route on the generated one. A router's own order may answer it with
   * another route (Arbor's definition order does on 25 GitHub requests); the report says so. Absent on the
   * 12-route set, whose seven requests each match one route only.
   */
  route?: number;
}

export interface RouteTable {
  name: string;
  routes: RouteDef[];
  requests: Request[];
  /** True when some route carries a constraint (adapters without constraint support say so). */
  hasConstraints: boolean;
}

/**
 * A copy of a request path as a server hands it to a router: a new, flat string that V8 has not
 * internalized, made from bytes the way Node's HTTP parser makes `req.url`. Every router is timed on
 * its own copies.
 *
 * Why: a path written in the source or used as an object key somewhere is internalized, and V8 then
 * caches work done on it. `p.split('/')` on an internalized string is answered from V8's split cache,
 * which made routers that split the path look faster than they are on real requests, whose path is a
 * fresh string. What a copy still lets a router reuse across the loop of one
 * case (a string's cached hash; a router's own key lookup that turns its copy into a reference to an
 * internalized twin) was measured small: docs/PERFORMANCE.md.
 */
export function requestPath(path: string): string {
  return Buffer.from(path, 'latin1').toString('latin1');
}

export const WILDCARD = '*';

/** Parses the neutral pattern syntax: `:name`, `:name<constraint>`, trailing `*`. */
export function parsePattern(pattern: string, constraints: Record<string, string> = SHORTCUTS): Piece[] {
  const pieces: Piece[] = [];
  let text = '';
  let i = 0;
  const flush = (): void => {
    if (text !== '') pieces.push({ kind: 'static', text });
    text = '';
  };
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (c === ':') {
      flush();
      let j = i + 1;
      while (j < pattern.length && /\w/.test(pattern[j] as string)) j++;
      const name = pattern.slice(i + 1, j);
      if (pattern[j] === '<') {
        const close = pattern.indexOf('>', j);
        if (close < 0) throw new Error(`unclosed < in ${pattern}`);
        const arbor = pattern.slice(j + 1, close);
        pieces.push({ kind: 'param', name, constraint: { arbor, regex: constraints[arbor] ?? arbor } });
        i = close + 1;
      } else {
        pieces.push({ kind: 'param', name });
        i = j;
      }
    } else if (c === '*' && i === pattern.length - 1) {
      flush();
      pieces.push({ kind: 'wildcard' });
      i++;
    } else {
      text += c;
      i++;
    }
  }
  flush();
  return pieces;
}

/** Arbor's constraint shortcuts used by the generated table (ROUTING.md §2), as JavaScript regex sources. */
const SHORTCUTS: Record<string, string> = {
  int: '\\d+',
  year: '\\d{4}',
  uuid: '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
};

/** The neutral pattern text (Arbor's syntax), for reports and error messages. */
export function patternText(pieces: readonly Piece[]): string {
  return pieces
    .map((p) => {
      if (p.kind === 'static') return p.text;
      if (p.kind === 'wildcard') return '*';
      return p.constraint ? `:${p.name}<${p.constraint.arbor}>` : `:${p.name}`;
    })
    .join('');
}

export function paramNames(pieces: readonly Piece[]): string[] {
  const names: string[] = [];
  for (const p of pieces) {
    if (p.kind === 'param') names.push(p.name);
    else if (p.kind === 'wildcard') names.push(WILDCARD);
  }
  return names;
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(`${DATA_DIR}/${file}`, 'utf8'));
}

function table(name: string, defs: [string, string][], requests: Request[]): RouteTable {
  const routes = defs.map(([method, pattern], id) => ({ id, method, pieces: parsePattern(pattern) }));
  const hasConstraints = routes.some((r) => r.pieces.some((p) => p.kind === 'param' && p.constraint));
  return { name, routes, requests, hasConstraints };
}

/** The 12-route standard set (delvedor / hono / rou3) with hono's and rou3's seven requests. */
export function smallSet(): RouteTable {
  const data = readJson('delvedor-hono-rou3-small-set.json') as {
    routes: [string, string][];
    requests_hono_rou3: [string, string, string][];
  };
  const requests = data.requests_hono_rou3.map(([label, method, path]) => ({ label, method, path }));
  return table('small', data.routes, requests);
}

/** GitHub's API (516 routes, medley's benchmark) with one real request URL per route. */
export function githubSet(): RouteTable {
  const data = readJson('medley-github-api.json') as {
    routes: { method: string; path: string; request: string }[];
  };
  const defs = data.routes.map((r): [string, string] => [r.method, r.path]);
  const requests = data.routes.map((r, route) => ({ label: '', method: r.method, path: r.request, route }));
  return table('github', defs, requests);
}

/**
 * A project-hosting SaaS API of our own (benches/data/saas-api.ts made it): 279 routes nested up to
 * org/project/repo/pull/review, every route with 2–5 parameters, one request per route in shuffled order.
 */
export function saasSet(): RouteTable {
  const data = readJson('saas-api.json') as {
    routes: { method: string; path: string }[];
    requests: { method: string; path: string; route: number }[];
  };
  const defs = data.routes.map((r): [string, string] => [r.method, r.path]);
  const requests = data.requests.map((r) => ({ label: '', method: r.method, path: r.path, route: r.route }));
  return table('saas', defs, requests);
}

/** mulberry32: a tiny deterministic PRNG, so the generated table is the same on every run and machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SERVICES = [
  'accounts',
  'billing',
  'catalog',
  'checkout',
  'content',
  'crm',
  'delivery',
  'documents',
  'events',
  'fleet',
  'forms',
  'hr',
  'identity',
  'inventory',
  'invoices',
  'ledger',
  'logistics',
  'media',
  'messaging',
  'orders',
  'payments',
  'projects',
  'reports',
  'search',
  'support',
];
const NOUNS = [
  'users',
  'teams',
  'orgs',
  'items',
  'files',
  'tags',
  'notes',
  'jobs',
  'tasks',
  'rules',
  'plans',
  'keys',
  'hooks',
  'logs',
  'sites',
  'pages',
  'groups',
  'roles',
  'assets',
  'tickets',
  'comments',
  'labels',
  'batches',
  'carts',
  'refunds',
  'reviews',
  'threads',
  'folders',
  'vendors',
  'zones',
];
const SUBS = ['members', 'history', 'attachments', 'events', 'settings', 'versions', 'links', 'audits'];

/**
 * A deterministic 10,000-route table: 25 services × 2 API versions × 10 resources × 20 routes. Each
 * resource has static list/search routes, an item (`:id`), three sub-collections with their items
 * (`:subId`), one constrained route (`:year<year>`) and either a second one (`:rev<int>`) or, every
 * tenth resource, a wildcard (`/:id/files/*`); each service version ends with one more wildcard. Only
 * features every tree router here supports (constraints aside): several parameters in one segment
 * (`:name.:ext`) are left to the GitHub table's `:base...:head`. Parameter names are the same at the same position (some routers require it).
 */
export function generatedSet(size = 10_000, requestCount = 1_000): RouteTable {
  const rand = prng(0xa4b0);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const defs: [string, string][] = [];
  let resources = 0;
  outer: for (const svc of SERVICES) {
    for (const version of ['v1', 'v2']) {
      const base = `/${svc}/${version}`;
      const nouns = [...NOUNS].sort(() => rand() - 0.5).slice(0, 10);
      for (const noun of nouns) {
        const res = `${base}/${noun}`;
        const subs = [...SUBS].sort(() => rand() - 0.5).slice(0, 3);
        defs.push(['GET', res], ['POST', res], ['GET', `${res}/search`]);
        for (const m of ['GET', 'PUT', 'PATCH', 'DELETE']) defs.push([m, `${res}/:id`]);
        for (const sub of subs) {
          defs.push(['GET', `${res}/:id/${sub}`], ['POST', `${res}/:id/${sub}`]);
          defs.push(['GET', `${res}/:id/${sub}/:subId`], ['DELETE', `${res}/:id/${sub}/:subId`]);
        }
        // Constrained routes sit where no other route competes, so routers without constraints can
        // register them unconstrained and still give the same answers (the report says so).
        defs.push(['GET', `${res}/:id/archive/:year<year>`]);
        resources++;
        if (resources % 10 === 0) defs.push(['GET', `${res}/:id/files/*`]);
        else defs.push(['GET', `${res}/:id/revisions/:rev<int>`]);
        if (defs.length >= size) break outer;
      }
      defs.push(['GET', `${base}/static/*`]);
    }
  }
  defs.length = Math.min(defs.length, size);
  const routes = defs.map(([method, pattern], id) => ({ id, method, pieces: parsePattern(pattern) }));
  const requests: Request[] = [];
  for (let i = 0; i < requestCount; i++) {
    const route = pick(routes);
    requests.push({ label: '', method: route.method, path: samplePath(route.pieces, rand), route: route.id });
  }
  return {
    name: 'generated',
    routes,
    requests,
    hasConstraints: true,
  };
}

/** A request path that `pieces` matches, with values that look real (ids, years, file names). */
function samplePath(pieces: readonly Piece[], rand: () => number): string {
  let path = '';
  for (const p of pieces) {
    if (p.kind === 'static') path += p.text;
    else if (p.kind === 'wildcard') path += `assets/${Math.floor(rand() * 1e6).toString(36)}/app.js`;
    else if (p.constraint?.arbor === 'year') path += String(1990 + Math.floor(rand() * 40));
    else if (p.constraint) path += String(Math.floor(rand() * 1e5));
    else path += Math.floor(rand() * 2 ** 40).toString(36);
  }
  return path;
}

export function loadTables(): Record<'small' | 'github' | 'saas' | 'generated', RouteTable> {
  return { small: smallSet(), github: githubSet(), saas: saasSet(), generated: generatedSet() };
}
