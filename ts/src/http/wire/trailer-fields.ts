/** The fields a chunked body's trailer section is refused for carrying (`body.ts`). */

/**
 * Fields a trailer section may not carry (RFC 9110 §6.5.1): what frames the message, routes it,
 * authenticates it, modifies the request or says how to read the content must be known before the
 * content, so a trailer carrying one is refused (400) rather than dropped, as a proxy may read it
 * otherwise. node's parser refuses Transfer-Encoding and Content-Length here; this is stricter.
 */
export const FORBIDDEN_TRAILERS: ReadonlyMap<string, string> = new Map(
  [
    // Framing and connection management.
    'Transfer-Encoding',
    'Content-Length',
    'Trailer',
    'TE',
    'Connection',
    'Keep-Alive',
    'Proxy-Connection',
    'Upgrade',
    // Routing.
    'Host',
    // Authentication and credentials.
    'Authorization',
    'Proxy-Authorization',
    'Cookie',
    // Request modifiers.
    'Expect',
    'Max-Forwards',
    'Range',
    'If-Match',
    'If-None-Match',
    'If-Modified-Since',
    'If-Unmodified-Since',
    'If-Range',
    'Cache-Control',
    'Pragma',
    // How to read the content.
    'Content-Type',
    'Content-Encoding',
    'Content-Range',
  ].map((name) => [name.toLowerCase(), name]),
);
