/**
 * The write path of the HTTP benchmark (`--mix post`): one route, `POST /orders/:shop`, three query values
 * and a JSON body of ten fields, at three sizes. Every server answers with the same summary, computed from
 * the parsed body by {@link summarise} (the one piece of application code they share), so none can skip the
 * parse: the answer counts the body's fields and walks its items.
 */

/** The body sizes the benchmark sends: each body is the smallest order of at least `bytes` bytes. */
export const BODY_SIZES = [
  { name: '200 B', bytes: 200 },
  { name: '2 KiB', bytes: 2 * 1024 },
  { name: '64 KiB', bytes: 64 * 1024 },
] as const;
export type BodySize = (typeof BODY_SIZES)[number];

/** The query string every request carries: three values each server reads. */
export const ORDER_QUERY = { channel: 'web', priority: '2', coupon: 'SPRING' } as const;
export const ORDER_SHOP = 'shop-17';
export const ORDER_PATH = `/orders/${ORDER_SHOP}?${new URLSearchParams(ORDER_QUERY)}`;

interface Item {
  sku: string;
  qty: number;
  price: number;
}

/** An order of ten fields whose `items` grow until its JSON text is at least `bytes` long. */
export function orderBody(bytes: number): string {
  const order = {
    id: 'ord-5f2a91',
    customer: 'Ada Lovelace',
    email: 'ada@example.com',
    currency: 'EUR',
    total: 0,
    express: true,
    placedAt: '2026-03-01T09:30:00Z',
    address: { line1: '12 St James Sq', city: 'London', postcode: 'SW1Y 4JH', country: 'GB' },
    tags: ['gift', 'repeat'],
    items: [] as Item[],
  };
  let text = JSON.stringify(order);
  while (text.length < bytes) {
    const n = order.items.length;
    order.items.push({ sku: `SKU-${(10_000 + n * 7).toString(36)}`, qty: 1 + (n % 4), price: 9.5 + n });
    order.total = order.items.reduce((sum, item) => sum + item.qty * item.price, 0);
    text = JSON.stringify(order);
  }
  return text;
}

/** What every server answers: read from the route parameter, the query and the parsed body. */
export interface OrderSummary {
  shop: string;
  channel: string | null;
  priority: string | null;
  coupon: string | null;
  id: unknown;
  fields: number;
  items: number;
  quantity: number;
}

export function summarise(
  shop: string,
  channel: string | undefined,
  priority: string | undefined,
  coupon: string | undefined,
  body: unknown,
): OrderSummary {
  const order = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const items = Array.isArray(order.items) ? (order.items as Partial<Item>[]) : [];
  let quantity = 0;
  for (const item of items) quantity += typeof item?.qty === 'number' ? item.qty : 0;
  return {
    shop,
    channel: channel ?? null,
    priority: priority ?? null,
    coupon: coupon ?? null,
    id: order.id ?? null,
    fields: Object.keys(order).length,
    items: items.length,
    quantity,
  };
}
