/**
 * The request mixes the load generator cycles through. Every connection walks the same list in order, so
 * the proportions are exact. Every request of a mix expects a 2xx answer: a non-2xx during a timed run is
 * a failure of the server under test, never part of the workload (404s and 400s are checked by
 * `conformance.ts` before timing instead).
 */
import { githubRoutes } from './github.js';
import { seedIds } from './model.js';
import { BODY_SIZES, type BodySize, ORDER_PATH, orderBody } from './orders.js';

/** The body sizes of the `validate` mix: an order as an API sees most (200 B) and one of some 40 lines (2 KiB). */
export const VALIDATE_SIZES = [BODY_SIZES[0], BODY_SIZES[1]] as const;

export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export type MixName = 'mixed' | 'read' | 'by-id' | 'github' | 'post' | 'validate';
export const MIXES: readonly MixName[] = ['mixed', 'read', 'by-id', 'github', 'post', 'validate'];

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A readable description for the report. */
export const MIX_DESCRIPTIONS: Record<MixName, string> = {
  mixed:
    '70 % GET /tasks/:id (10 different ids), 10 % GET /tasks, 10 % GET /, 10 % PUT /tasks/:id with a small JSON body',
  read: '80 % GET /tasks/:id (10 different ids), 10 % GET /tasks, 10 % GET /',
  'by-id': '100 % GET /tasks/:id (10 different ids)',
  github:
    "GitHub's REST API as a 516-route table (benches/data/medley-github-api.json): every route's real URL in turn, " +
    'with its method (282 GET, 78 POST, 77 DELETE, 41 PUT, 38 PATCH; no bodies), each answered with ' +
    '`{ route, params }`',
  post:
    `100 % POST ${ORDER_PATH} with a JSON order of ten fields (its items grown to ${BODY_SIZES.map((s) => s.name).join(', ')}), ` +
    'each body size a workload of its own; every server answers with a summary computed from the parsed body',
  validate:
    `100 % POST ${ORDER_PATH} with a JSON order of ten fields (its items grown to ${VALIDATE_SIZES.map((s) => s.name).join(', ')}), ` +
    'each body size a workload of its own, answered by servers that check the body and the query against one ' +
    'contract (`benches/http/orders-schema.ts`) and by the same servers unvalidated',
};

/** One body size of the `post` mix: the same request over and over. */
export function postMix(size: BodySize): LoadRequest[] {
  return [{ method: 'POST', path: ORDER_PATH, headers: JSON_HEADERS, body: orderBody(size.bytes) }];
}

/**
 * The workloads of a mix, each timed on its own within every round: one for the GET mixes, one per body
 * size for `post` and `validate` (their sizes are not mixed: each gets its own figures).
 */
export function workloadsOf(name: MixName): { name: string; requests: LoadRequest[] }[] {
  if (name === 'post') return BODY_SIZES.map((size) => ({ name: size.name, requests: postMix(size) }));
  if (name === 'validate')
    return VALIDATE_SIZES.map((size) => ({ name: size.name, requests: postMix(size) }));
  return [{ name, requests: buildMix(name) }];
}

export function buildMix(name: MixName): LoadRequest[] {
  const ids = seedIds();
  const byId = (i: number): LoadRequest => ({ method: 'GET', path: `/tasks/${ids[i % ids.length]}` });
  const list: LoadRequest = { method: 'GET', path: '/tasks' };
  const root: LoadRequest = { method: 'GET', path: '/' };
  const put = (i: number): LoadRequest => ({
    method: 'PUT',
    path: `/tasks/${ids[i % ids.length]}`,
    headers: JSON_HEADERS,
    // Writes the value the task already has half of the time: the data set never grows or drifts.
    body: JSON.stringify({ completed: i % 2 === 0 }),
  });
  switch (name) {
    case 'post':
    case 'validate':
      return postMix(BODY_SIZES[0]);
    case 'github':
      // One request per route, in the data set's order.
      return githubRoutes().map((route) => ({ method: route.method, path: route.request }));
    case 'by-id':
      return Array.from({ length: 20 }, (_, i) => byId(i));
    case 'read':
      return [
        ...Array.from({ length: 8 }, (_, i) => byId(i)),
        list,
        ...Array.from({ length: 8 }, (_, i) => byId(i + 8)),
        root,
      ];
    case 'mixed':
      return [
        ...Array.from({ length: 7 }, (_, i) => byId(i)),
        list,
        put(0),
        root,
        ...Array.from({ length: 7 }, (_, i) => byId(i + 7)),
        list,
        put(1),
        root,
      ];
  }
}
