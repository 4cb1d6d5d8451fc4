/**
 * Fastify 5 answering the validated write path (`--mix validate`): `POST /orders/:shop` alone, with the
 * JSON Schema of `../orders-schema.ts` on its default ajv (which coerces types and stops at the first
 * error) when `FASTIFY_BENCH_VALIDATE=1`, without a schema otherwise.
 */
import Fastify from 'fastify';
import { summarise } from '../orders.js';
import { ORDER_BODY_JSON_SCHEMA, ORDER_QUERY_JSON_SCHEMA } from '../orders-schema.js';
import { announce, BODY_LIMIT, HOST } from './announce.js';

const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT });
const validate = process.env.FASTIFY_BENCH_VALIDATE === '1';

type Order = {
  Params: { shop: string };
  Querystring: { channel?: string; priority?: string | number; coupon?: string };
};
app.post<Order>(
  '/orders/:shop',
  validate ? { schema: { querystring: ORDER_QUERY_JSON_SCHEMA, body: ORDER_BODY_JSON_SCHEMA } } : {},
  async (req) => {
    const { channel, priority, coupon } = req.query;
    return summarise(
      req.params.shop,
      channel,
      priority === undefined ? undefined : String(priority),
      coupon,
      req.body,
    );
  },
);

await app.listen({ port: 0, host: HOST });
announce(app.server);
