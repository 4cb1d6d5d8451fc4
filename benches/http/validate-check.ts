/**
 * Before the validated write path is timed (`--mix validate`), every server must answer a good order with
 * its summary at every size and refuse malformed JSON with a 400; a validating server must also refuse each
 * of `INVALID_ORDERS` with a 400 or a 422, and an unvalidated one must let them through (200): the pair of
 * a framework then differs by its validation and nothing else.
 */
import { isDeepStrictEqual } from 'node:util';
import { BODY_SIZES, ORDER_PATH, ORDER_QUERY, ORDER_SHOP, orderBody, summarise } from './orders.js';
import { INVALID_ORDERS } from './orders-schema.js';

async function post(
  base: string,
  path: string,
  body: string,
): Promise<{ status: number; type: string; body: unknown }> {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: kept as text for the failure's message.
  }
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: parsed };
}

/** Runs the checks against a server that does (`validating`) or does not validate; returns the failures. */
export async function checkValidatedOrders(base: string, validating: boolean): Promise<string[]> {
  const failures: string[] = [];
  const { channel, priority, coupon } = ORDER_QUERY;
  for (const size of BODY_SIZES) {
    const text = orderBody(size.bytes);
    const expected = summarise(ORDER_SHOP, channel, priority, coupon, JSON.parse(text));
    const got = await post(base, ORDER_PATH, text);
    if (
      got.status !== 200 ||
      !got.type.startsWith('application/json') ||
      !isDeepStrictEqual(got.body, expected)
    )
      failures.push(
        `POST ${ORDER_PATH} (${size.name}) → 200 ${JSON.stringify(expected)}: got ${got.status} ${JSON.stringify(got.body)?.slice(0, 160)}`,
      );
  }
  const malformed = await post(base, ORDER_PATH, '{"id":"ord-1","items":[');
  if (malformed.status !== 400)
    failures.push(`POST ${ORDER_PATH} malformed JSON → 400: got ${malformed.status}`);
  const order = JSON.parse(orderBody(BODY_SIZES[1].bytes)) as Record<string, unknown>;
  for (const bad of INVALID_ORDERS) {
    const path = bad.query === undefined ? ORDER_PATH : `/orders/${ORDER_SHOP}?${bad.query}`;
    const got = await post(base, path, JSON.stringify(bad.body(order)));
    const refused = got.status === 400 || got.status === 422;
    if (validating && !refused) failures.push(`${bad.what} → 400 or 422: got ${got.status}`);
    if (!validating && got.status !== 200) failures.push(`${bad.what}, unvalidated → 200: got ${got.status}`);
  }
  return failures;
}
