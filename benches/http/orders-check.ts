/**
 * Before the write path is timed (`--mix post`), every server must answer `POST /orders/:shop` with the
 * summary of the body it was sent, at every size, and refuse malformed JSON with a 400: a server that
 * skipped the parse, or answered from a cache, cannot pass.
 */
import { isDeepStrictEqual } from 'node:util';
import { BODY_SIZES, ORDER_PATH, ORDER_QUERY, ORDER_SHOP, orderBody, summarise } from './orders.js';

async function post(base: string, body: string): Promise<{ status: number; type: string; body: unknown }> {
  const response = await fetch(base + ORDER_PATH, {
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

/** Runs the checks against a server; returns the failures (empty: conforming). */
export async function checkOrdersConformance(base: string): Promise<string[]> {
  const failures: string[] = [];
  for (const size of BODY_SIZES) {
    const text = orderBody(size.bytes);
    const { channel, priority, coupon } = ORDER_QUERY;
    const expected = summarise(ORDER_SHOP, channel, priority, coupon, JSON.parse(text));
    const got = await post(base, text);
    if (
      got.status !== 200 ||
      !got.type.startsWith('application/json') ||
      !isDeepStrictEqual(got.body, expected)
    )
      failures.push(
        `POST ${ORDER_PATH} (${size.name}) → 200 ${JSON.stringify(expected)}: got ${got.status} ${JSON.stringify(got.body)?.slice(0, 160)}`,
      );
  }
  const malformed = await post(base, '{"id":"ord-1","items":[');
  if (malformed.status !== 400)
    failures.push(`POST ${ORDER_PATH} malformed JSON → 400: got ${malformed.status}`);
  return failures;
}
