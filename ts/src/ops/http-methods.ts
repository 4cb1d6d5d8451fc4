/**
 * The request methods the HTTP semantic conventions name (shared by traces and metrics): any other is
 * written `_OTHER`, so that a client sending made-up methods cannot grow a label's or an attribute's values.
 */
export const KNOWN_METHODS: ReadonlySet<string> = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
  'TRACE',
  'QUERY',
]);
