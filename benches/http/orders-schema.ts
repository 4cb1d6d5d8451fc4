/**
 * The contract of the validated write path (`--mix validate`): `POST /orders/:shop`'s ten-field body and
 * three query values, written once as JSON Schema (Fastify's ajv) and once as zod (Arbor's code-first
 * `schema` option and Hono's `@hono/zod-validator`). Arbor's doc-comment version is in
 * `servers/orders-arbor.ts`, keyword for keyword the same. The order `orders.ts` builds passes every
 * check; {@link INVALID_ORDERS} are the requests each validating server must refuse before timing.
 */
import { z } from 'zod';

const address = {
  type: 'object',
  required: ['line1', 'city', 'postcode', 'country'],
  properties: {
    line1: { type: 'string', minLength: 1, maxLength: 200 },
    city: { type: 'string', minLength: 1, maxLength: 100 },
    postcode: { type: 'string', minLength: 1, maxLength: 16 },
    country: { type: 'string', pattern: '^[A-Z]{2}$' },
  },
} as const;

const item = {
  type: 'object',
  required: ['sku', 'qty', 'price'],
  properties: {
    sku: { type: 'string', minLength: 1, maxLength: 32 },
    qty: { type: 'integer', minimum: 1 },
    price: { type: 'number', minimum: 0 },
  },
} as const;

/** The body as JSON Schema: ten required fields, two of them nested objects, one an array of objects. */
export const ORDER_BODY_JSON_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'customer',
    'email',
    'currency',
    'total',
    'express',
    'placedAt',
    'address',
    'tags',
    'items',
  ],
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 64 },
    customer: { type: 'string', minLength: 1, maxLength: 200 },
    email: { type: 'string', format: 'email' },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    total: { type: 'number', minimum: 0 },
    express: { type: 'boolean' },
    placedAt: { type: 'string', format: 'date-time' },
    address,
    tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 32 } },
    items: { type: 'array', maxItems: 10_000, items: item },
  },
} as const;

/** The three query values as JSON Schema: an enum, a bounded integer, an optional bounded string. */
export const ORDER_QUERY_JSON_SCHEMA = {
  type: 'object',
  required: ['channel', 'priority'],
  properties: {
    channel: { type: 'string', enum: ['web', 'app', 'store'] },
    priority: { type: 'integer', minimum: 1, maximum: 5 },
    coupon: { type: 'string', maxLength: 32 },
  },
} as const;

/** The body as zod: the same constraints. */
export const orderBodySchema = z.object({
  id: z.string().min(1).max(64),
  customer: z.string().min(1).max(200),
  email: z.email(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  total: z.number().min(0),
  express: z.boolean(),
  placedAt: z.iso.datetime({ offset: true }),
  address: z.object({
    line1: z.string().min(1).max(200),
    city: z.string().min(1).max(100),
    postcode: z.string().min(1).max(16),
    country: z.string().regex(/^[A-Z]{2}$/),
  }),
  tags: z.array(z.string().max(32)).max(10),
  items: z
    .array(
      z.object({ sku: z.string().min(1).max(32), qty: z.number().int().min(1), price: z.number().min(0) }),
    )
    .max(10_000),
});

/** The query as zod: the priority coerced from its text, as ajv and Arbor coerce it. */
export const orderQuerySchema = z.object({
  channel: z.enum(['web', 'app', 'store']),
  priority: z.coerce.number().int().min(1).max(5),
  coupon: z.string().max(32).optional(),
});

/** Requests every validating server must refuse with a 400 or a 422 (an unvalidated one answers 200). */
export const INVALID_ORDERS: {
  what: string;
  query?: string;
  body: (order: Record<string, unknown>) => unknown;
}[] = [
  { what: 'a body without its email', body: ({ email: _email, ...rest }) => rest },
  { what: 'a negative total', body: (order) => ({ ...order, total: -1 }) },
  {
    what: 'an item with qty 0',
    body: (order) => ({ ...order, items: [{ sku: 'SKU-1', qty: 0, price: 1 }] }),
  },
  { what: 'a priority of 9', query: 'channel=web&priority=9&coupon=SPRING', body: (order) => order },
  { what: 'an unknown channel', query: 'channel=fax&priority=2', body: (order) => order },
];
