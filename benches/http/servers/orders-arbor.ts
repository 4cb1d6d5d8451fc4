/**
 * Arbor answering the validated write path (`--mix validate`): `POST /orders/:shop` alone, with its
 * contract chosen by `ARBOR_BENCH_CONTRACT` — `doc` (a doc comment, `validate: true`), `zod` (the route's
 * code-first `schema` option) or `none` (unvalidated: the body parsed, nothing checked). The handler reads
 * the checked, coerced values (`req.valid`) when there is a contract, the raw ones otherwise.
 */
import type { Request, Response } from '../../../ts/src/app/index.js';
import { summarise } from '../orders.js';
import { orderBodySchema, orderQuerySchema } from '../orders-schema.js';
import { announce, BODY_LIMIT, HOST } from './announce.js';

type AppModule = typeof import('../../../ts/src/app/index.js');

// As in arbor.ts: tsc's output in dist/ when run.ts found it up to date, else the sources through tsx.
const fromDist = process.env.ARBOR_BENCH_FROM === 'dist';
const dist = (path: string) => new URL(`../../../dist/${path}`, import.meta.url).href;
const { Application, consoleLogger } = (
  fromDist ? await import(dist('ts/src/bundle/index.js')) : await import('../../../ts/src/app/index.js')
) as AppModule;

const contract = process.env.ARBOR_BENCH_CONTRACT ?? 'none';
if (!['doc', 'zod', 'none'].includes(contract))
  throw new Error(`ARBOR_BENCH_CONTRACT=${contract}: doc, zod or none`);

const app = new Application({
  ...(process.env.ARBOR_BENCH_SERVER === 'arbor' ? { server: 'arbor' as const } : {}),
  validate: contract === 'doc',
  port: 0,
  host: HOST,
  bodyLimit: BODY_LIMIT,
  logger: { ...consoleLogger, info: () => {} },
});

interface OrderQuery {
  channel: string;
  priority: number;
  coupon?: string;
}

/** The summary from the values the contract checked and coerced (the priority is a number there). */
function validated(req: Request, res: Response) {
  const query = req.valid('query') as OrderQuery;
  const shop = req.param('shop') ?? '';
  return res.json(summarise(shop, query.channel, String(query.priority), query.coupon, req.valid('body')));
}

if (contract === 'doc') {
  const { registerDocumented } = await import('./orders-arbor-documented.js');
  registerDocumented(app, validated);
} else if (contract === 'zod') {
  app.post('/orders/:shop', { schema: { query: orderQuerySchema, body: orderBodySchema } }, validated);
} else {
  app.post('/orders/:shop', (req, res) =>
    res.json(
      summarise(
        req.param('shop') ?? '',
        req.query('channel'),
        req.query('priority'),
        req.query('coupon'),
        req.json(),
      ),
    ),
  );
}

const server = app.run();
server.once('listening', () => announce(server));
