/**
 * How often a node server checks `headersTimeout` and `requestTimeout`. node:http checks its connections
 * on a period (`connectionsCheckingInterval`, 30 s by default) rather than with a timer per request, so a
 * timeout is noticed up to one period late: a short timeout needs a short period. Every node server here
 * (node:http, node:https, node:http2 and its HTTP/1.1 fallback) checks on this one.
 *
 * @example
 * checkingInterval(60_000); // 15_000: a head that takes too long is cut 60–75 s after it began
 */
export function checkingInterval(headersTimeout: number): number {
  return Math.max(50, Math.min(30_000, Math.floor(headersTimeout / 4)));
}
