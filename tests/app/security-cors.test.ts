/**
 * CORS as a table: each origin option against allowed and refused origins, simple requests and
 * preflights, the headers reflected or listed, credentials, and the `Vary` fields whenever the answer
 * depends on the request; the start-up errors; CORS on one group, its preflight included. Chromium runs
 * the same rules from another origin in tests/browser/security-cors.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { type CorsOptions, cors } from '../../ts/src/app/index.js';
import { appStarter, transports } from './support/transport.js';

interface Row {
  name: string;
  options: CorsOptions;
  origin: string | null;
  preflight?: { method: string; headers?: string };
  allowOrigin: string | null;
  allowHeaders?: string | null;
  credentials?: boolean;
  vary: string | null;
}

const ALLOWED = 'https://app.example';
const OTHER = 'https://evil.example';

const rows: Row[] = [
  { name: "'*': any origin", options: {}, origin: OTHER, allowOrigin: '*', vary: null },
  { name: "'*': no Origin at all", options: {}, origin: null, allowOrigin: '*', vary: null },
  {
    name: "'*' preflight reflects the asked headers",
    options: {},
    origin: OTHER,
    preflight: { method: 'PUT', headers: 'authorization,x-trace' },
    allowOrigin: '*',
    allowHeaders: 'authorization,x-trace',
    vary: 'Access-Control-Request-Headers',
  },
  {
    name: 'a header list is sent as listed, without Vary on the asked ones',
    options: { headers: ['Content-Type'] },
    origin: OTHER,
    preflight: { method: 'PUT', headers: 'authorization' },
    allowOrigin: '*',
    allowHeaders: 'Content-Type',
    vary: null,
  },
  {
    name: 'one origin is always sent',
    options: { origin: ALLOWED },
    origin: OTHER,
    allowOrigin: ALLOWED,
    vary: null,
  },
  {
    name: 'a list echoes a listed origin',
    options: { origin: [ALLOWED] },
    origin: ALLOWED,
    allowOrigin: ALLOWED,
    vary: 'Origin',
  },
  {
    name: 'a list refuses another',
    options: { origin: [ALLOWED] },
    origin: OTHER,
    allowOrigin: null,
    vary: 'Origin',
  },
  {
    name: 'a RegExp echoes a matching origin',
    options: { origin: /^https:\/\/[a-z]+\.example$/ },
    origin: ALLOWED,
    allowOrigin: ALLOWED,
    vary: 'Origin',
  },
  {
    name: 'a RegExp refuses an origin it does not match',
    options: { origin: /^https:\/\/app\.example$/ },
    origin: 'https://app.example.evil.test',
    allowOrigin: null,
    vary: 'Origin',
  },
  {
    name: 'a global RegExp matches every time (lastIndex reset)',
    options: { origin: /^https:\/\/app\.example$/g },
    origin: ALLOWED,
    allowOrigin: ALLOWED,
    vary: 'Origin',
  },
  {
    name: 'a list mixes strings and RegExps',
    options: { origin: ['https://a.example', /\.example$/] },
    origin: ALLOWED,
    allowOrigin: ALLOWED,
    vary: 'Origin',
  },
  {
    name: 'an async function allows',
    options: { origin: async (origin) => origin === ALLOWED },
    origin: ALLOWED,
    allowOrigin: ALLOWED,
    vary: 'Origin',
  },
  {
    name: 'an async function refuses',
    options: { origin: async (origin) => origin === ALLOWED },
    origin: OTHER,
    allowOrigin: null,
    vary: 'Origin',
  },
  {
    name: 'a function may answer the value to send',
    options: { origin: () => 'https://canonical.example' },
    origin: ALLOWED,
    allowOrigin: 'https://canonical.example',
    vary: 'Origin',
  },
  {
    name: 'credentials with a list: the origin, never *',
    options: { origin: [ALLOWED], credentials: true },
    origin: ALLOWED,
    allowOrigin: ALLOWED,
    credentials: true,
    vary: 'Origin',
  },
  {
    name: 'origin: true reflects any origin, with credentials',
    options: { origin: true, credentials: true },
    origin: OTHER,
    allowOrigin: OTHER,
    credentials: true,
    vary: 'Origin',
  },
  {
    name: "origin: true never reflects the opaque 'null' origin",
    options: { origin: true, credentials: true },
    origin: 'null',
    allowOrigin: null,
    vary: 'Origin',
  },
  {
    name: 'a refused preflight gets no permissions',
    options: { origin: [ALLOWED] },
    origin: OTHER,
    preflight: { method: 'DELETE', headers: 'authorization' },
    allowOrigin: null,
    allowHeaders: null,
    vary: 'Origin, Access-Control-Request-Headers',
  },
  {
    name: 'a credentialed preflight with Authorization',
    options: { origin: [ALLOWED], credentials: true, maxAge: 600 },
    origin: ALLOWED,
    preflight: { method: 'PATCH', headers: 'authorization, content-type' },
    allowOrigin: ALLOWED,
    allowHeaders: 'authorization, content-type',
    credentials: true,
    vary: 'Origin, Access-Control-Request-Headers',
  },
];

describe.each(transports)('CORS over $name', (transport) => {
  const start = appStarter(transport);

  test.each(rows)('$name', async (row) => {
    const c = await start((app) => {
      app.middleware(cors(row.options));
      app.get('/r', (_req, res) => res.json({ ok: true }));
      app.patch('/r', (_req, res) => res.json({ ok: true }));
    });
    const headers: Record<string, string> = {};
    if (row.origin !== null) headers.Origin = row.origin;
    if (row.preflight !== undefined) {
      headers['Access-Control-Request-Method'] = row.preflight.method;
      if (row.preflight.headers !== undefined)
        headers['Access-Control-Request-Headers'] = row.preflight.headers;
    }
    const reply = await c.request('/r', { method: row.preflight === undefined ? 'GET' : 'OPTIONS', headers });
    expect(reply.status).toBe(row.preflight === undefined ? 200 : 204);
    expect(reply.headers.get('access-control-allow-origin')).toBe(row.allowOrigin);
    expect(reply.headers.get('access-control-allow-credentials')).toBe(
      row.credentials === true ? 'true' : null,
    );
    expect(reply.headers.get('vary')).toBe(row.vary);
    if (row.allowHeaders !== undefined)
      expect(reply.headers.get('access-control-allow-headers')).toBe(row.allowHeaders);
    if (row.preflight !== undefined && row.allowOrigin !== null) {
      expect(reply.headers.get('access-control-allow-methods')).toContain('GET');
      expect(reply.headers.get('access-control-max-age')).toBe(row.options.maxAge?.toString() ?? null);
    }
    if (row.preflight === undefined) expect(reply.json()).toEqual({ ok: true });
  });

  test('exposed headers are listed on answers, and the Vary of the handler is kept', async () => {
    const c = await start((app) => {
      app.middleware(cors({ origin: [ALLOWED], exposeHeaders: ['X-Total'] }));
      app.get('/r', (_req, res) => res.header('Vary', 'Accept').header('X-Total', '3').json([]));
    });
    const reply = await c.request('/r', { headers: { Origin: ALLOWED } });
    expect(reply.headers.get('access-control-expose-headers')).toBe('X-Total');
    expect(reply.headers.get('vary')).toBe('Accept, Origin');
  });

  test('on one group only, its preflight included (through the group’s OPTIONS route)', async () => {
    const c = await start((app) => {
      app
        .group('/api', (api) => {
          api.get('/items', (_req, res) => res.json([]));
          api.options('/*', (_req, res) => res.status(204).send());
        })
        .middleware(cors({ origin: [ALLOWED], credentials: true }));
      app.get('/private', (_req, res) => res.json({}));
    });
    const inside = await c.request('/api/items', { headers: { Origin: ALLOWED } });
    expect(inside.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const preflight = await c.request('/api/items', {
      method: 'OPTIONS',
      headers: {
        Origin: ALLOWED,
        'Access-Control-Request-Method': 'DELETE',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    const outside = await c.request('/private', { headers: { Origin: ALLOWED } });
    expect(outside.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS mistakes stop the start', () => {
  test.each<[string, CorsOptions, RegExp]>([
    [
      'credentials with the default origin',
      { credentials: true },
      /cannot be sent with Access-Control-Allow-Origin: \*/,
    ],
    ["credentials with '*'", { origin: '*', credentials: true }, /origin: true/],
    ["'*' inside a list", { origin: ['*'] }, /'\*' inside a list/],
    ['an empty origin', { origin: '' }, /must not be empty/],
    ['a maxAge that is no number of seconds', { maxAge: 1.5 }, /maxAge/],
  ])('%s', (_name, options, message) => {
    expect(() => cors(options)).toThrow(message);
  });
});
