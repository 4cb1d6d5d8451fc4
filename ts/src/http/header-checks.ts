/**
 * node:http's checks of a header field's name and value (`http.validateHeaderName`,
 * `http.validateHeaderValue`), the same rules and error codes, without loading node:http: an answer is
 * checked on every runtime before its fields are written, so that a CR or LF can never split a head.
 */

/** A field name is an RFC 9110 token. */
const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
/** A field value holds tab, visible ASCII and obs-text (0x80-0xFF): no CR, LF, NUL or other control. */
const INVALID_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/** Throws a `TypeError` coded `ERR_INVALID_HTTP_TOKEN` when `name` is not a token, as node:http does. */
export function validateHeaderName(name: string): void {
  if (typeof name !== 'string' || !TOKEN.test(name))
    throw codedTypeError('ERR_INVALID_HTTP_TOKEN', `Header name must be a valid HTTP token ["${name}"]`);
}

/**
 * Throws a `TypeError` coded `ERR_HTTP_INVALID_HEADER_VALUE` (no value) or `ERR_INVALID_CHAR` (a character
 * a field value cannot hold), as node:http does.
 */
export function validateHeaderValue(name: string, value: unknown): void {
  if (value === undefined)
    throw codedTypeError('ERR_HTTP_INVALID_HEADER_VALUE', `Invalid value "undefined" for header "${name}"`);
  if (INVALID_VALUE_CHAR.test(String(value)))
    throw codedTypeError('ERR_INVALID_CHAR', `Invalid character in header content ["${name}"]`);
}

function codedTypeError(code: string, message: string): TypeError {
  return Object.assign(new TypeError(message), { code });
}
