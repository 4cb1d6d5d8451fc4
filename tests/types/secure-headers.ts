/**
 * The CSP nonce `secureHeaders()` puts on a request, typed where it runs: a `string` under
 * `secureHeaders({ nonce: true })`, `string | undefined` under `secureHeaders()` without it, and no key at
 * all on a typed route without it. Compiled by `tsc -p tsconfig.check.json` (strict) and by
 * tests/types/route-params.test.ts: every line must compile, and every line under a `@ts-expect-error`
 * must not.
 */

import { Application, csrf, type Middleware, secureHeaders } from '../../ts/src/app/index.js';

interface User {
  id: string;
}

const auth: Middleware<{ user: User }> = (req, next) => next.handle(req.set('user', { id: 'u1' }));

const app = new Application();

// A group given the nonce first: its handlers, and those of a nested typed group, read it as a string.
app.group('', { middleware: [secureHeaders({ nonce: true }), csrf({ token: 'session' })] }, (site) => {
  site.get('/', (req, res) => {
    const nonce: string = req.get('cspNonce');
    // @ts-expect-error a string, not a number
    const length: number = req.get('cspNonce');
    res.header('X-Nonce-Length', String(length));
    return res.html(`<script nonce="${nonce}">start()</script>${req.get('csrfToken')()}`);
  });
  site.group('/me', { middleware: [auth] }, (me) => {
    me.get('/', (req, res) => res.json({ user: req.get('user').id, nonce: req.get('cspNonce').length }));
  });
});

// The accounts example's way: the security middleware in a list kept `as const`.
const security = [secureHeaders({ nonce: true, https: true }), auth] as const;
app.group('/kept', { middleware: security }, (kept) => {
  kept.get('/', (req, res) => res.json({ nonce: req.get('cspNonce'), user: req.get('user') }));
});

// Without `nonce: true` a nonce comes only from NONCE in a directive, or from an enclosing secureHeaders().
app.group('/plain', { middleware: [secureHeaders(), auth] }, (plain) => {
  plain.get('/', (req, res) => {
    const nonce: string | undefined = req.get('cspNonce');
    // @ts-expect-error it may be absent: not a string for sure
    const sure: string = req.get('cspNonce');
    return res.json({ nonce, sure });
  });
});

// A typed route without secureHeaders() has no such key.
app.get('/other', { middleware: [auth] }, (req, res) => {
  // @ts-expect-error no middleware on this route declares cspNonce
  const nonce: string = req.get('cspNonce');
  return res.json({ nonce });
});

// A route given it in its options.
app.post('/form', { middleware: [auth, secureHeaders({ nonce: true })] }, (req, res) =>
  res.html(`<script nonce="${req.get('cspNonce')}"></script>`),
);

// secureHeaders() is still plain middleware wherever untyped middleware goes.
app.middleware(secureHeaders({ nonce: true }));
app.middleware(secureHeaders());
