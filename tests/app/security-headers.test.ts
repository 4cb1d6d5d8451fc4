/**
 * secureHeaders(): each of helmet's headers present with its default, each overridden or left out for
 * the application and for one route inside it, HSTS on HTTPS only, the handler's own header kept, the CSP
 * nonce given to the handler (fresh per request), and helmet's option checks as start-up errors.
 */
import { describe, expect, test } from 'vitest';
import { NONCE, secureHeaders } from '../../ts/src/middleware/secure-headers.js';
import { appStarter, transports } from './support/transport.js';

const DEFAULTS: [string, string][] = [
  [
    'content-security-policy',
    "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests",
  ],
  ['cross-origin-opener-policy', 'same-origin'],
  ['cross-origin-resource-policy', 'same-origin'],
  ['origin-agent-cluster', '?1'],
  ['referrer-policy', 'no-referrer'],
  ['x-content-type-options', 'nosniff'],
  ['x-dns-prefetch-control', 'off'],
  ['x-download-options', 'noopen'],
  ['x-frame-options', 'SAMEORIGIN'],
  ['x-permitted-cross-domain-policies', 'none'],
  ['x-xss-protection', '0'],
];

describe.each(transports)('secure headers over $name', (transport) => {
  const start = appStarter(transport);

  test.each(DEFAULTS)("%s has helmet's default", async (name, value) => {
    const c = await start((app) => {
      app.middleware(secureHeaders());
      app.get('/', (_req, res) => res.json({}));
    });
    const reply = await c.request('/');
    expect(reply.headers.get(name)).toBe(value);
    // Plain HTTP: no HSTS; and nothing advertises the framework.
    expect(reply.headers.get('strict-transport-security')).toBeNull();
    expect(reply.headers.get('x-powered-by')).toBeNull();
  });

  test.each<[string, object, string, string | null]>([
    ['X-Frame-Options DENY', { xFrameOptions: { action: 'deny' } }, 'x-frame-options', 'DENY'],
    ['X-Frame-Options off', { xFrameOptions: false }, 'x-frame-options', null],
    ['Referrer-Policy', { referrerPolicy: { policy: 'same-origin' } }, 'referrer-policy', 'same-origin'],
    [
      'COOP',
      { crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' } },
      'cross-origin-opener-policy',
      'same-origin-allow-popups',
    ],
    [
      'CORP',
      { crossOriginResourcePolicy: { policy: 'cross-origin' } },
      'cross-origin-resource-policy',
      'cross-origin',
    ],
    [
      'COEP (off by default)',
      { crossOriginEmbedderPolicy: true },
      'cross-origin-embedder-policy',
      'require-corp',
    ],
    ['X-DNS-Prefetch-Control on', { xDnsPrefetchControl: { allow: true } }, 'x-dns-prefetch-control', 'on'],
    ['X-Content-Type-Options off', { xContentTypeOptions: false }, 'x-content-type-options', null],
    ['CSP off', { contentSecurityPolicy: false }, 'content-security-policy', null],
    [
      'CSP report-only with frame-ancestors',
      {
        contentSecurityPolicy: {
          reportOnly: true,
          useDefaults: false,
          directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"] },
        },
      },
      'content-security-policy-report-only',
      "default-src 'self';frame-ancestors 'none'",
    ],
    [
      'HSTS forced on (served over TLS only)',
      { https: true },
      'strict-transport-security',
      'max-age=31536000; includeSubDomains',
    ],
    [
      'HSTS with preload',
      { https: true, strictTransportSecurity: { maxAge: 63072000, preload: true } },
      'strict-transport-security',
      'max-age=63072000; includeSubDomains; preload',
    ],
  ])('the application overrides %s', async (_name, options, header, value) => {
    const c = await start((app) => {
      app.middleware(secureHeaders(options));
      app.get('/', (_req, res) => res.json({}));
    });
    expect((await c.request('/')).headers.get(header)).toBe(value);
  });

  test('HSTS follows the request: X-Forwarded-Proto https from a TLS proxy, never plain HTTP', async () => {
    const c = await start((app) => {
      app.middleware(secureHeaders());
      app.get('/', (_req, res) => res.json({}));
    });
    const viaTls = await c.request('/', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(viaTls.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const plain = await c.request('/', { headers: { 'X-Forwarded-Proto': 'http' } });
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });

  test('one route overrides the application: its own options win there, and only there', async () => {
    const c = await start((app) => {
      app.middleware(secureHeaders());
      app.get('/', (_req, res) => res.json({}));
      app
        .get('/embed', (_req, res) => res.html('<p>embeddable</p>'))
        .middleware(
          secureHeaders({
            xFrameOptions: false,
            contentSecurityPolicy: { directives: { frameAncestors: ['https://partner.example'] } },
          }),
        );
    });
    const embed = await c.request('/embed');
    expect(embed.headers.get('x-frame-options')).toBeNull();
    expect(embed.headers.get('content-security-policy')).toContain('frame-ancestors https://partner.example');
    // The rest of the application's policy still applies to the route.
    expect(embed.headers.get('x-content-type-options')).toBe('nosniff');
    const other = await c.request('/');
    expect(other.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(other.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
  });

  test("a header the handler set is the handler's", async () => {
    const c = await start((app) => {
      app.middleware(secureHeaders());
      app.get('/', (_req, res) =>
        res.header('Referrer-Policy', 'origin').header('X-Powered-By', 'x').json({}),
      );
    });
    const reply = await c.request('/');
    expect(reply.headers.get('referrer-policy')).toBe('origin');
    expect(reply.headers.get('x-powered-by')).toBeNull();
  });

  test('the CSP nonce: given to the handler, in script-src, fresh on every request', async () => {
    const c = await start((app) => {
      app.middleware(secureHeaders({ nonce: true }));
      app.get('/', (req, res) => res.json({ nonce: req.get('cspNonce') }));
    });
    const first = await c.request('/');
    const second = await c.request('/');
    const nonce = first.json().nonce as string;
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(first.headers.get('content-security-policy')).toContain(`script-src 'self' 'nonce-${nonce}';`);
    expect(second.json().nonce).not.toBe(nonce);
    expect(second.headers.get('content-security-policy')).toContain(`'nonce-${second.json().nonce}'`);
  });

  test('NONCE in a directive of a route, under an application policy without one', async () => {
    const c = await start((app) => {
      app.middleware(secureHeaders());
      app
        .get('/page', (req, res) => res.json({ nonce: req.get('cspNonce') ?? null }))
        .middleware(
          secureHeaders({ contentSecurityPolicy: { directives: { styleSrc: ["'self'", NONCE] } } }),
        );
      app.get('/', (req, res) => res.json({ nonce: req.get('cspNonce') ?? null }));
    });
    const page = await c.request('/page');
    const nonce = page.json().nonce as string;
    expect(page.headers.get('content-security-policy')).toContain(`style-src 'self' 'nonce-${nonce}'`);
    expect((await c.request('/')).json().nonce).toBeNull();
  });

  test('errors and 404s get the headers too', async () => {
    const c = await start((app) => {
      app.middleware(secureHeaders());
      app.get('/boom', () => {
        throw new Error('boom');
      });
    });
    expect((await c.request('/boom')).headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe("helmet's checks stop the start", () => {
  test.each<[string, object]>([
    [
      'a directive value with a semicolon',
      { contentSecurityPolicy: { directives: { scriptSrc: ["'self'; evil"] } } },
    ],
    ['an unknown Referrer-Policy', { referrerPolicy: { policy: 'sometimes' } }],
    ['a negative HSTS max-age', { strictTransportSecurity: { maxAge: -1 } }],
    ['nonce without a CSP', { nonce: true, contentSecurityPolicy: false }],
  ])('%s', (_name, options) => {
    expect(() => secureHeaders(options)).toThrow();
  });
});
