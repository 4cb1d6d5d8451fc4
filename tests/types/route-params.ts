/**
 * The typing of route parameters and bound values (issue 17). Compiled by `tsc -p tsconfig.check.json`
 * (strict) and by tests/types/route-params.test.ts: every assignment below must compile, and every line
 * under a `@ts-expect-error` must not (an unused `@ts-expect-error` is itself an error).
 */
import { Application, type PathParams, Router } from '../../ts/src/index.js';

interface User {
  id: string;
  name: string;
}
const users = new Map<string, User>();

// Resolvers: the handler receives the result, awaited, never null (null answers 404).
const app = new Application()
  .bind('user', async (id): Promise<User | undefined> => users.get(id))
  .bind('n', (value) => Number(value));

// :name, {name}, constraints.
app.get('/users/:id<int>', (req, res) => {
  const id: string = req.param('id');
  // @ts-expect-error an undeclared name
  req.param('nope');
  // @ts-expect-error params(name) is typed too
  req.params('other');
  const all: { id: string } = req.params();
  return res.json({ id, all });
});
app.get('/brace/{slug}/x', (req, res) => res.send(req.param('slug')));
app.get('/re/:code<[a-z]+>/:v<v\\d{1,3}>', (req, res) => {
  const both: string = req.param('code') + req.param('v');
  return res.send(both);
});

// Optional parameters: string | undefined, or string with a fallback.
app.get('/search/:q/:page?', (req, res) => {
  const q: string = req.param('q');
  // @ts-expect-error page may be absent
  const page: string = req.param('page');
  const maybe: string | undefined = req.param('page');
  const withDefault: string = req.param('page', '1');
  return res.json({ q, page, maybe, withDefault });
});
app.get('/list/{page<int>?}', (req, res) => {
  const page: string | undefined = req.param('page');
  return res.json({ page });
});

// Several parameters in one segment; `::` is a literal colon, not a parameter.
app.get('/files/:name<[\\w-]+>.:ext<jpg|png>', (req, res) => {
  const file: string = `${req.param('name')}.${req.param('ext')}`;
  return res.send(file);
});
app.post('/v1/:name::publish', (req, res) => {
  const name: string = req.param('name');
  // @ts-expect-error `publish` is literal text after `::`
  req.param('publish');
  return res.send(name);
});
app.get('/:from-:to', (req, res) => res.send(req.param('from') + req.param('to')));

// A constraint's text is skipped as the engine skips it: `>` in a class, `{}` and `()` nested, escapes.
app.get('/odd/:a<[>:]+>/:b<x{2}|(?:y)>/:c<\\>>', (req, res) => {
  const abc: string = req.param('a') + req.param('b') + req.param('c');
  // @ts-expect-error no parameter hides inside a constraint
  req.param('x');
  return res.send(abc);
});

// The trailing wildcard is `*`.
app.get('/static/*', (req, res) => {
  const rest: string = req.param('*');
  // @ts-expect-error a wildcard has no other name
  req.param('wildcard');
  return res.send(rest);
});
app.any('/proxy/:target/*', (req, res) => res.send(req.param('target') + req.param('*')));

// Regex blocks: named groups are parameters.
app.get('/archive/{^(?P<year>\\d{4})/(?<month>\\d{2})$}', (req, res) => {
  const ym: string = req.param('year') + req.param('month');
  // @ts-expect-error an unnamed group is no parameter
  req.param('0');
  return res.send(ym);
});

// Group prefixes are typed, nested groups too.
app.group('/orgs/:org', (org) => {
  org.get('/', (req, res) => res.send(req.param('org')));
  org.group('/repos/{repo}', (repo) => {
    repo.get('/issues/:n<int>', (req, res) => {
      const all: string = req.param('org') + req.param('repo') + req.param('n');
      // @ts-expect-error not a parameter of /orgs/:org/repos/{repo}/issues/:n<int>
      req.param('issue');
      return res.send(all);
    });
  });
  // @ts-expect-error the group's parameters only
  org.post('/members', (req, res) => res.send(req.param('member')));
});

// Bound values: the resolver's result, in pattern order; an optional one may be undefined.
app.get('/users/{user}/count/:n', (_req, res, user, n) => {
  const name: string = user.name;
  const count: number = n;
  // @ts-expect-error a User is not a number
  const wrong: number = user;
  return res.json({ name, count, wrong });
});
app.get('/profile/:user?', (_req, res, user) => {
  // @ts-expect-error absent when the optional parameter is
  const name: string = user.name;
  const maybe: string | undefined = user?.name;
  return res.json({ name, maybe });
});
app.group('/teams/:user', (g) => g.get('/', (_req, res, user) => res.json({ id: user.id })));

// A pattern built at run time is not known statically: any name, none known present.
const dynamic: string = ['/x', ':y'].join('/');
app.get(dynamic, (req, res) => {
  const y: string | undefined = req.param('y');
  // @ts-expect-error it may be absent
  const sure: string = req.param('y');
  return res.json({ y, sure });
});

// The type is usable on its own.
const params: PathParams<'/a/:x/{y<int>?}/*'> = { x: '1', y: undefined, '*': '' };
// @ts-expect-error x is required
const missing: PathParams<'/a/:x'> = {};

// The standalone Router keeps its runtime API (params by name, untyped).
const router = new Router<string>();
router.add('GET', '/users/:id<int>', 'user');
const found: string | undefined = router.find('GET', '/users/1')?.params.id;

export { found, missing, params };
