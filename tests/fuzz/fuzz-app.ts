/**
 * The application the fuzz tests throw requests at: every kind of route the path syntax allows (static,
 * parameters, optional, constraints, several parameters in one segment, wildcard tails, regex blocks),
 * groups with middleware, a resource, a binding, throttling, and two handlers that fail on purpose
 * (`/boom`, `/boom-async`) — the only routes allowed to answer 5xx.
 */
import { Application, memoryLogger, type Request, type Response } from '../../ts/src/app/index.js';

class PhotosController {
  index(_req: Request, res: Response) {
    return res.json({ route: 'photos.index' });
  }
  show(req: Request, res: Response) {
    return res.json({ route: 'photos.show', id: req.param('photo') ?? req.param('id') });
  }
}

/** Routes that may answer 5xx because they throw on purpose. */
export const THROWING_PATHS = ['/boom', '/boom-async'];

export function createFuzzApp() {
  const logger = memoryLogger();
  const app = new Application({ logger });
  const echo = (label: string) => (req: Request, res: Response) =>
    res.json({ route: label, params: req.params() as Record<string, string>, captures: req.captures() });

  app.get('/', echo('home'));
  app.get('/users', echo('users.index'));
  app.get('/users/me', echo('users.me'));
  app.get('/users/:id<int>', echo('users.show'));
  app.get('/users/:name', echo('users.byName'));
  app.put('/users/:id<int>', (req, res) => res.json({ id: req.param('id'), body: req.json() }));
  app.post('/users', (req, res) => res.status(201).json({ body: req.body() }));
  app.delete('/users/:id<int>', (_req, res) => res.status(204).send());
  app.get('/search/:q/:page?', (req, res) => res.json({ q: req.param('q'), page: req.param('page', '1') }));
  app.get('/files/:name<[\\w-]+>.:ext<jpg|png>', echo('files.image'));
  app.get('/files/:file.:ext', echo('files.any'));
  app.get('/range/:from-:to', echo('range'));
  app.get('/v:version<\\d+>/status', echo('versioned'));
  app.get('/items/{uuid<uuid>}', echo('items.uuid'));
  app.get('/archive/{^(\\d{4})/(\\d{2})$}', echo('archive'));
  app.get('/static/*', echo('static'));
  app.any('/any/*', echo('any'));
  app.match(['GET', 'POST'], '/both', echo('both'));
  app.get('/café', echo('cafe'));
  app.get('/redos/nested/:v<(a+)+b>', echo('redos.nested'));
  app.get('/redos/alt/:v<(a|aa)+c>', echo('redos.alt'));
  app.get('/redos/pair/:x<(\\d+)-(\\d+)>', echo('redos.pair'));
  app.get('/redos/split/:a-:b', echo('redos.split'));
  app.get('/redos/multi/:a<\\d+>-:b<\\d+>', echo('redos.multi'));
  app.get('/redos/dots/:a.:b.:c', echo('redos.dots'));
  app.get('/redos/words/:v<(\\w+\\s?)*>', echo('redos.words'));
  app.get('{^/redos/block/(a+)+$}', echo('redos.block'));

  app.bind('post', (value) => (value === '404' ? null : { id: value }));
  app.get('/posts/{post}', (_req, res, post: unknown) => res.json({ post }));
  app.resource('/photos', PhotosController);
  app
    .group('/api', (api) => {
      api.get('/ping', echo('api.ping'));
      api.group('/v1', (v1) => {
        v1.get('/things/:id<int>', echo('api.v1.thing'));
      });
    })
    .middleware('throttle:1000000,1');

  app.get('/boom', () => {
    throw new Error('thrown on purpose');
  });
  app.get('/boom-async', async () => {
    await Promise.resolve();
    throw new Error('rejected on purpose');
  });
  return { app, logger };
}
