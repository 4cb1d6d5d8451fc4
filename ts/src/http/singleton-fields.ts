/**
 * Request fields that may appear once only: both servers refuse a request that repeats one (400), so a
 * handler never sees a value that depends on which server read it. node:http keeps the first of these and
 * drops the rest (`matchKnownFields` in its `_http_incoming.js`); a proxy in front may keep the last, or
 * join them: either way the two would disagree on who is asking (`Authorization`), for which site
 * (`Host`) and in what format (`Content-Type`). The list is node's, so nothing it joins is refused.
 *
 * @example
 * SINGLETON_FIELDS.get('authorization'); // 'Authorization'
 * repeatedFieldMessage('authorization'); // 'More than one Authorization header'
 */

/** Lower-case name → the name as the refusal spells it. */
export const SINGLETON_FIELDS: ReadonlyMap<string, string> = new Map(
  [
    'Host',
    'Content-Length',
    'Content-Type',
    'Authorization',
    'Proxy-Authorization',
    'User-Agent',
    'Referer',
    'From',
    'If-Modified-Since',
    'If-Unmodified-Since',
    'Max-Forwards',
    'Age',
    'ETag',
    'Expires',
    'Last-Modified',
    'Location',
    'Retry-After',
    'Server',
  ].map((name) => [name.toLowerCase(), name]),
);

/** The 400's message for a repeated singleton field, `name` in lower case. */
export function repeatedFieldMessage(name: string): string {
  return `More than one ${SINGLETON_FIELDS.get(name) ?? name} header`;
}
