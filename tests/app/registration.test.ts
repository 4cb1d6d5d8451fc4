/** Groups, resources, names and URL generation, bindings, handler forms, the route table. */
import { describe, expect, test, vi } from 'vitest';
import {
  Application,
  type ApplicationConfig,
  type Request as ArborRequest,
  memoryLogger,
  type Response,
  route,
} from '../../ts/src/app/index.js';
import { RouteError } from '../../ts/src/errors.js';
import { firstForeignFrame } from '../../ts/src/registry/call-site.js';
import { withEngine } from './support/engine.js';

const app = (config: ApplicationConfig = {}) => new Application(withEngine(config));
const get = async (a: Application, path: string, init: RequestInit = {}) => {
  const response = await a.fetch(new Request(`http://t${path}`, init));
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text), headers: response.headers };
};

describe('groups', () => {
  test('prefixes concatenate through nesting', async () => {
    const a = app();
    a.group('/api', (api) => {
      api.get('/users', (_req, res) => res.send('users'));
      api.group('/v1', (v1) => v1.get('/status', (_req, res) => res.send('status')));
      api.get('/', (_req, res) => res.send('api root'));
    });
    expect((await get(a, '/api/users')).text).toBe('users');
    expect((await get(a, '/api/v1/status')).text).toBe('status');
    expect((await get(a, '/api')).text).toBe('api root');
  });

  test('a group offers every verb, match, any, group and resource', () => {
    const a = app();
    a.group('/g', (g) => {
      for (const verb of ['get', 'post', 'put', 'patch', 'delete', 'options', 'head'] as const)
        g[verb]('/v', (_q, r) => r);
      g.match(['GET'], '/m', (_q, r) => r);
      g.any('/any/*', (_q, r) => r);
      g.resource(
        '/posts',
        class {
          index() {}
        },
      );
    });
    expect(a.routeTable().map((r) => r.pattern)).toEqual([
      ...Array(7).fill('/g/v'),
      '/g/m',
      '/g/any/*',
      '/g/posts',
    ]);
  });
});

describe('resource (docs/framework/routes.md, "Resources")', () => {
  class PostController {
    static calls = 0;
    constructor() {
      PostController.calls++;
    }
    index(_req: ArborRequest, res: Response) {
      return res.send('index');
    }
    create(_req: ArborRequest, res: Response) {
      return res.send('create');
    }
    store(_req: ArborRequest, res: Response) {
      return res.status(201).send('store');
    }
    show(req: ArborRequest, res: Response) {
      return res.send(`show ${req.param('id')}`);
    }
    edit(req: ArborRequest, res: Response) {
      return res.send(`edit ${req.param('id')}`);
    }
    update(req: ArborRequest, res: Response) {
      return res.send(`update ${req.getMethod()} ${req.param('id')}`);
    }
    destroy(req: ArborRequest, res: Response) {
      return res.send(`destroy ${req.param('id')}`);
    }
  }

  test.each([
    ['GET', '/posts', 'index', 'posts.index'],
    ['GET', '/posts/create', 'create', 'posts.create'],
    ['POST', '/posts', 'store', 'posts.store'],
    ['GET', '/posts/5', 'show 5', 'posts.show'],
    ['GET', '/posts/5/edit', 'edit 5', 'posts.edit'],
    ['PUT', '/posts/5', 'update PUT 5', 'posts.update'],
    ['PATCH', '/posts/5', 'update PATCH 5', 'posts.update'],
    ['DELETE', '/posts/5', 'destroy 5', 'posts.destroy'],
  ])('%s %s → %s (%s)', async (method, path, body, name) => {
    const a = app();
    a.resource('/posts', PostController);
    expect((await get(a, path, { method })).text).toBe(body);
    expect(a.routeTable().find((r) => r.name === name)?.methods).toContain(method);
  });

  test('one controller instance serves every route; only implemented actions are registered', async () => {
    PostController.calls = 0;
    const a = app();
    a.resource('/posts', PostController);
    await get(a, '/posts');
    await get(a, '/posts/1');
    expect(PostController.calls).toBe(1);
    const b = app();
    b.resource(
      '/photos',
      class {
        index(_q: ArborRequest, r: Response) {
          return r.send();
        }
      },
      { parameter: 'photo' },
    );
    expect(b.routeTable().map((r) => r.name)).toEqual(['photos.index']);
  });
});

describe('names and route()', () => {
  const build = () => {
    const a = app();
    a.get('/tasks/:id<int>', (_q, r) => r).name('tasks.show');
    a.get('/search/:q/:page?', (_q, r) => r).name('search');
    a.get('/files/*', (_q, r) => r).name('files');
    a.get('/users/{user}', (_q, r) => r).name('users.show');
    return a;
  };

  test('fills parameters, percent-encodes, puts extras in the query string', () => {
    const a = build();
    expect(a.route('tasks.show', { id: 42 })).toBe('/tasks/42');
    expect(a.route('tasks.show', { id: 42, tab: 'notes', tag: ['a', 'b'] })).toBe(
      '/tasks/42?tab=notes&tag=a&tag=b',
    );
    expect(a.route('search', { q: 'hello world' })).toBe('/search/hello%20world');
    expect(a.route('search', { q: 'a/b', page: 2 })).toBe('/search/a%2Fb/2');
    expect(a.route('files', { '*': 'docs/read me.txt' })).toBe('/files/docs/read%20me.txt');
    expect(a.route('users.show', { user: 'ada' })).toBe('/users/ada');
    expect(route('tasks.show', { id: 1 })).toBe('/tasks/1'); // the helper uses the current application
  });

  test.each([
    ['unknown name', 'nope', {}, 'UNKNOWN_ROUTE'],
    ['missing parameter', 'tasks.show', {}, 'MISSING_PARAMETER'],
    ['constraint not met', 'tasks.show', { id: 'abc' }, 'INVALID_PARAMETER'],
  ] as const)('%s throws %s', (_label, name, params, code) => {
    const a = build();
    try {
      a.route(name, params);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RouteError);
      expect((error as RouteError).code).toBe(code);
    }
  });

  test("route() reads its own route's metadata, not every route's", () => {
    const a = build();
    const router = a.router;
    const every = vi.spyOn(router, 'routes');
    const one = vi.spyOn(router, 'route');
    expect(a.route('tasks.show', { id: 1 })).toBe('/tasks/1');
    expect(a.route('tasks.show', { id: 2 })).toBe('/tasks/2');
    expect(every).not.toHaveBeenCalled();
    expect(one).toHaveBeenCalledTimes(1); // read once, then kept
    // A route registered later is read afresh, and so are the others (a registration resets what was kept).
    a.get('/late/:n', (_q, r) => r).name('late');
    expect(a.route('late', { n: 3 })).toBe('/late/3');
    expect(a.route('tasks.show', { id: 4 })).toBe('/tasks/4');
    expect(one).toHaveBeenCalledTimes(3);
  });

  test('a name used twice is a DUPLICATE_NAME error', () => {
    const a = app();
    a.get('/a', (_q, r) => r).name('x');
    expect(() => a.get('/b', (_q, r) => r).name('x')).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_NAME' }),
    );
  });
});

describe('bind()', () => {
  const users = new Map([['ada', { name: 'Ada' }]]);
  const build = () => {
    const a = app();
    a.bind('user', async (value) => users.get(value));
    a.bind('n', (value) => (value === '0' ? null : Number(value)));
    a.get('/users/{user}', (_req, res, user) => res.json(user));
    a.get('/users/{user}/n/{n}', (_req, res, user, n) => res.json({ user, n }));
    return a;
  };

  test('the resolved value is the third handler argument; several in parameter order', async () => {
    expect((await get(build(), '/users/ada')).json()).toEqual({ name: 'Ada' });
    expect((await get(build(), '/users/ada/n/3')).json()).toEqual({ user: { name: 'Ada' }, n: 3 });
  });

  test('null or undefined from the resolver answers 404', async () => {
    expect((await get(build(), '/users/bob')).status).toBe(404);
    expect((await get(build(), '/users/ada/n/0')).json()).toEqual({ error: 'Not Found', code: 404 });
  });
});

describe('handlers', () => {
  class Static {
    static hello(_req: ArborRequest, res: Response) {
      return res.send('static');
    }
  }
  class Instance {
    greeting = 'instance';
    hello(_req: ArborRequest, res: Response) {
      return res.send(this.greeting);
    }
  }

  test('[Class, static method], [Class, instance method], [instance, method]', async () => {
    const a = app();
    a.get('/s', [Static, 'hello']);
    a.get('/i', [Instance, 'hello']);
    const obj = new Instance();
    obj.greeting = 'object';
    a.get('/o', [obj, 'hello']);
    expect((await get(a, '/s')).text).toBe('static');
    expect((await get(a, '/i')).text).toBe('instance');
    expect((await get(a, '/o')).text).toBe('object');
    expect(a.routeTable().map((r) => r.handlerLocation)).toEqual([
      'Static.hello',
      'Instance.hello',
      'Instance.hello',
    ]);
  });

  test("'Class@method' is a TypeError at registration; so is a missing method", () => {
    const a = app();
    expect(() => a.get('/x', 'PostController@index' as never)).toThrow(TypeError);
    expect(() => a.get('/x', 'PostController@index' as never)).toThrow(/Class@method/);
    expect(() => a.get('/y', [Static, 'nope'])).toThrow(TypeError);
    expect(a.routeTable()).toHaveLength(0);
  });

  test('a handler that returns nothing sends the response it was given; one that returns junk is a 500', async () => {
    const logger = memoryLogger();
    const a = app({ logger });
    a.get('/implicit', (_req, res) => {
      res.status(202).send('implicit');
    });
    a.get('/junk', () => 42 as never);
    expect((await get(a, '/implicit')).status).toBe(202);
    expect((await get(a, '/junk')).status).toBe(500);
    expect(logger.errors[0]?.message).toContain('instead of a Response');
  });
});

describe('routeTable() and call sites', () => {
  test('full patterns, names, middleware in order, handler location and the user call site', () => {
    const a = app();
    a.alias('auth', (req, next) => next.handle(req));
    a.group('/api', (api) => {
      api.middleware('throttle:60,1');
      api
        .post('/items', (_q, r) => r)
        .name('items.store')
        .middleware('auth');
    });
    const [row] = a.routeTable();
    expect(row).toMatchObject({
      id: 0,
      methods: ['POST'],
      pattern: '/api/items',
      name: 'items.store',
      middleware: ['throttle:60,1', 'auth'],
      info: { template: '/api/items', isStatic: true },
    });
    expect(row?.callSite?.file).toBe(new URL(import.meta.url).pathname);
    expect(row?.handlerLocation).toBe(`${row?.callSite?.file}:${row?.callSite?.line}`);
  });

  test('the call site is the registration line', () => {
    const a = app();
    const expected = Number(/:(\d+):\d+\)?$/.exec(new Error().stack?.split('\n')[1] ?? '')?.[1]) + 1;
    a.get('/here', (_q, r) => r);
    expect(a.routeTable()[0]?.callSite?.line).toBe(expected);
  });

  test('stack parsing skips Arbor frames and node internals, strips file://', () => {
    const stack = [
      'Error',
      '    at captureCallSite (/pkg/ts/src/app/call-site.ts:10:5)',
      '    at Application.get (file:///pkg/ts/src/routing/registrar.ts:30:12)',
      '    at node:internal/modules/run_main:1:1',
      '    at main (file:///home/me/app/server.js:12:7)',
    ].join('\n');
    expect(firstForeignFrame(stack, '/pkg/ts/src/')).toEqual({ file: '/home/me/app/server.js', line: 12 });
  });

  test('a registration error names the call site; a shadowed route is a warning', () => {
    const logger = memoryLogger();
    const a = app({ logger });
    a.get('/dup', (_q, r) => r);
    expect(() => a.get('/dup', (_q, r) => r)).toThrow(/registered at .*registration\.test\.ts:\d+/);
    a.get('/files/*', (_q, r) => r);
    a.get('/files/:name', (_q, r) => r);
    expect(logger.warnings.join('\n')).toMatch(
      /GET \/files\/:name \(.*registration\.test\.ts:\d+\) can never match: \/files\/\*/,
    );
  });
});
