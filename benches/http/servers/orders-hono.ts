/**
 * Hono 4 on @hono/node-server answering the validated write path (`--mix validate`): `POST /orders/:shop`
 * alone, behind its `bodyLimit` middleware, with `@hono/zod-validator` checking the query and the JSON body
 * against the zod schemas of `../orders-schema.ts` when `HONO_BENCH_VALIDATE=1`, unchecked otherwise.
 */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { summarise } from '../orders.js';
import { orderBodySchema, orderQuerySchema } from '../orders-schema.js';
import { announce, BODY_LIMIT, HOST } from './announce.js';

const app = new Hono();
app.use('/orders/*', bodyLimit({ maxSize: BODY_LIMIT }));

if (process.env.HONO_BENCH_VALIDATE === '1') {
  app.post(
    '/orders/:shop',
    zValidator('query', orderQuerySchema),
    zValidator('json', orderBodySchema),
    (c) => {
      const query = c.req.valid('query');
      const body = c.req.valid('json');
      return c.json(
        summarise(c.req.param('shop'), query.channel, String(query.priority), query.coupon, body),
      );
    },
  );
} else {
  app.post('/orders/:shop', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ error: 'Malformed JSON' }, 400);
    }
    const { req } = c;
    return c.json(
      summarise(req.param('shop'), req.query('channel'), req.query('priority'), req.query('coupon'), body),
    );
  });
}

const server = serve({ fetch: app.fetch, port: 0, hostname: HOST }, () => announce(server as Server));
