/**
 * `Vary`, added to once per field: a middleware whose answer depends on a request field (`Origin`,
 * `Accept-Encoding`) names it, so that a cache keys on it. A field already listed, or `Vary: *`, is left
 * as it is.
 */
import type { Response } from '../core/response.js';

/** Adds `field` to the response's `Vary` unless it (or `*`) is already there. */
export function addVary(res: Response, field: string): Response {
  const vary = res.getHeader('vary');
  if (vary === undefined || vary.trim() === '') return res.header('Vary', field);
  const wanted = field.toLowerCase();
  for (const listed of vary.split(',')) {
    const name = listed.trim().toLowerCase();
    if (name === '*' || name === wanted) return res;
  }
  return res.appendHeader('Vary', field);
}
