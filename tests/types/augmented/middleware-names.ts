/**
 * Named middleware checked by the type checker once `MiddlewareNames` has entries. Kept out of
 * `tsconfig.check.json` (an augmentation there would close the names of every other test file), and
 * compiled alone by tests/types/route-params.test.ts: every line must compile, and every line under a
 * `@ts-expect-error` must not.
 */
import { Application, type Middleware } from '../../../ts/src/index.js';

interface User {
  id: string;
}

declare module '../../../ts/src/core/context.js' {
  interface MiddlewareNames {
    auth: { user: User };
    // biome-ignore lint/complexity/noBannedTypes: a middleware that adds nothing.
    role: {};
  }
}

const auth: Middleware<{ user: User }> = (req, next) => next.handle(req.set('user', { id: 'u1' }));
const app = new Application();
app.alias('auth', auth);
app.alias('role', (req, next) => next.handle(req));

// Names with and without parameters, and the built-in throttle.
app.group('/admin', { middleware: ['auth', 'role:admin', 'throttle:60,1'] }, (admin) => {
  // What a named middleware adds is typed by its entry.
  admin.get('/', (req, res) => res.json({ id: req.get('user').id }));
});
app.get('/x', (_req, res) => res.json({})).middleware(['auth']);

// @ts-expect-error a name no entry declares
app.get('/y', (_req, res) => res.json({})).middleware(['auht']);
// @ts-expect-error a misspelt name in a group's options
app.group('/z', { middleware: ['rolee:admin'] }, () => {});
// @ts-expect-error a route behind 'auth' has a user, and nothing else
app.group('/w', { middleware: ['auth'] }, (w) => w.get('/', (req, res) => res.json(req.get('tenant'))));
