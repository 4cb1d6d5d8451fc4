/**
 * The typing of the request context, middleware that declares what it adds, error handlers and typed
 * error bodies. Compiled by `tsc -p tsconfig.check.json` (strict) and by tests/types/route-params.test.ts:
 * every line must compile, and every line under a `@ts-expect-error` must not.
 */

import { z } from 'zod';
import {
  Application,
  type ContextVariableMap,
  type ErrorBody,
  HttpError,
  type Middleware,
  RequestValidationError,
  type Response,
} from '../../ts/src/index.js';

interface User {
  id: string;
  admin: boolean;
}

const auth: Middleware<{ user: User }> = (req, next) =>
  next.handle(req.set('user', { id: 'u1', admin: false }));
const tenant: Middleware<{ tenant: string }> = (req, next) => next.handle(req.set('tenant', 't1'));
const plain: Middleware = (req, next) => next.handle(req);

const app = new Application();

// Nothing declared: the context is open, as it always was (any key, untyped unless asked).
app.get('/open', (req, res) => {
  const anything: unknown = req.get('whatever');
  const cast: number | undefined = req.get<number>('count');
  return res.json({ anything, cast });
});

// A group given its middleware first: the handlers inside read what it adds, typed, with no cast.
app.group('/me', { middleware: [auth, tenant] }, (me) => {
  me.get('/', (req, res) => {
    const user: User = req.get('user');
    const name: string = req.get('tenant');
    // @ts-expect-error no middleware on the route provides it
    req.get('session');
    // @ts-expect-error the user is a User, not a string
    const wrong: string = req.get('user');
    return res.json({ user, name, wrong });
  });
  // Nested groups keep what the outer one added.
  me.group('/settings', (settings) => {
    settings.get('/', (req, res) => res.json({ admin: req.get('user').admin }));
  });
});

// A route given its middleware in its options.
app.post('/articles', { middleware: [auth] }, (req, res) => {
  const id: string = req.get('user').id;
  // @ts-expect-error tenant is not added on this route
  req.get('tenant');
  return res.status(201).json({ id });
});

// Middleware that declares nothing leaves the context open.
app.group('/plain', { middleware: [plain] }, (group) => {
  group.get('/', (req, res) => res.json({ any: req.get('anything') }));
});

// Variables every request carries, declared once by augmentation, are typed everywhere.
declare module '../../ts/src/core/context.js' {
  interface ContextVariableMap {
    requestStartedAt: number;
  }
}
app.get('/started', (req, res) => {
  const at: number = req.get('requestStartedAt');
  // @ts-expect-error a number, not a string
  const wrong: string = req.get('requestStartedAt');
  return res.json({ at, wrong });
});
const known: ContextVariableMap['requestStartedAt'] = 1;

// Error handlers: the error, the request, the response; a Response must come back.
app.onError((err, req, res) => {
  const message: string = err.message;
  const status = err instanceof HttpError ? err.status : 500;
  return res.status(status).json({ message, path: req.path });
});
app.notFound((req, res) => res.status(404).json({ nothing: req.path }));
// @ts-expect-error an error handler answers with a Response
app.onError(() => 'oops');
// @ts-expect-error notFound takes no error
app.notFound((err: Error, _req: unknown, res: Response) => res.json(err.message));

// A group's handler sees what the group's middleware adds.
app.group('/admin', { middleware: [auth] }, (admin) => {
  admin.onError((err, req, res) => res.status(500).json({ by: req.get('user').id, message: err.message }));
});

// Typed error bodies: the body type is the error's type parameter, no cast.
interface ApiErrors {
  errors: { body: string[] };
}
const typed = new HttpError<ApiErrors>(422, 'invalid', { body: { errors: { body: ["can't be blank"] } } });
const body: ApiErrors = typed.toJSON();
// @ts-expect-error the body must have the declared shape
new HttpError<ApiErrors>(422, 'invalid', { body: { errors: 'not a list' } });
const plainBody: ErrorBody = new HttpError(404).toJSON();

class ConflictError extends HttpError<{ conflict: string }> {
  constructor(readonly key: string) {
    super(409, `${key} is taken`);
  }
  override toJSON(): { conflict: string } {
    return { conflict: this.key };
  }
}
const conflict: { conflict: string } = new ConflictError('email').toJSON();
const details = new RequestValidationError([
  { in: 'query', name: 'limit', pointer: '/limit', keyword: 'type', message: 'must be integer' },
]).toJSON().details;

// Code-first contracts: req.valid(part) typed from the schema, with no cast.
app.post(
  '/orders/:shop',
  {
    schema: {
      query: z.object({ limit: z.coerce.number().default(20) }),
      body: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } as const,
    },
  },
  (req, res) => {
    const limit: number = req.valid('query').limit;
    const title: string = req.valid('body').title;
    // @ts-expect-error the query has no such key
    req.valid('query').page;
    // @ts-expect-error the title is a string
    const wrong: number = req.valid('body').title;
    // @ts-expect-error no schema for the headers
    req.valid('headers').host;
    return res.json({ limit, title, wrong });
  },
);

export { body, conflict, details, known, plainBody };
