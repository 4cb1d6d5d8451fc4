/**
 * Request ids (the `requestId` configuration key): which id a request gets — a new one, or the client's
 * (or a proxy's) when the application trusts it — and the response field that echoes it.
 */
import { crypto } from '../builtins.js';
import type { HeaderSource } from '../http/dispatch.js';
import type { RequestIdConfig } from './config.js';

/** Longest incoming id taken as is: an id is a key to search logs by, not a place to carry data. */
const MAX_INCOMING = 200;

/**
 * The resolved `requestId` setting; the kernel holds one, or `null` when ids are off (then a request costs
 * nothing more than a `null` check).
 */
export interface RequestIds {
  /** The response field, as configured (`X-Request-Id`). */
  readonly header: string;
  /** The same, lower-case: how the request's field is read and the response's is keyed. */
  readonly key: string;
  /** The id of a request with these headers. Throws when a custom generator returns an unusable id. */
  assign(headers: HeaderSource): string;
}

/**
 * Resolves the `requestId` configuration key. Throws a `TypeError` for a header name HTTP cannot carry, at
 * start-up rather than on every response.
 *
 * @example
 * requestIds({ trustIncoming: true })?.assign(headersFromMap({ 'x-request-id': 'abc-1' })) // 'abc-1'
 */
export function requestIds(config: boolean | RequestIdConfig | undefined): RequestIds | null {
  if (config === undefined || config === false) return null;
  const options: RequestIdConfig = config === true ? {} : config;
  const header = options.header ?? 'X-Request-Id';
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(header)) {
    throw new TypeError(`requestId.header: "${header}" is not a valid HTTP field name`);
  }
  const key = header.toLowerCase();
  const trust = options.trustIncoming === true;
  const custom = options.generate;
  const generate =
    custom === undefined
      ? // node:crypto's, which draws from a cached pool of entropy; loaded only when ids are on.
        crypto().randomUUID
      : () => {
          const id = custom();
          if (typeof id !== 'string' || !isSaneId(id)) {
            throw new TypeError(
              `requestId.generate returned ${JSON.stringify(id)}: an id is 1–${MAX_INCOMING} visible ASCII characters`,
            );
          }
          return id;
        };
  return {
    header,
    key,
    assign(headers) {
      if (trust) {
        const incoming = headers.get(key);
        if (incoming !== undefined && isSaneId(incoming)) return incoming;
      }
      return generate();
    },
  };
}

/**
 * 1–200 visible ASCII characters (`!` to `~`): what an incoming id must be to be taken. Anything else
 * (spaces, control characters, non-ASCII, an overlong value) could forge log lines or bloat them, so a
 * new id replaces it.
 */
export function isSaneId(value: string): boolean {
  const length = value.length;
  if (length === 0 || length > MAX_INCOMING) return false;
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) return false;
  }
  return true;
}
