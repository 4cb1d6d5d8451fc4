/**
 * The request head of HTTP/1.1 (RFC 9112 §2–§3, §5–§7), parsed from its text: the request line, the
 * header fields, and what they say about the body and the connection. Everything RFC 9112 tells a server
 * to reject is rejected here, before any routing, as an {@link HttpError} the connection answers and then
 * closes on. The connection finds where the head ends and enforces its size; this module only reads it.
 */
import { http } from '../../builtins.js';
import { HttpError } from '../errors.js';
import { repeatedFieldMessage, SINGLETON_FIELDS } from '../singleton-fields.js';

/** How the body is framed (RFC 9112 §6.3). */
export const Framing = { None: 0, Length: 1, Chunked: 2 } as const;
export type Framing = (typeof Framing)[keyof typeof Framing];

export interface RequestHead {
  method: string;
  target: string;
  /** The minor version: 1 for HTTP/1.1, 0 for HTTP/1.0. */
  minor: number;
  /** Field names, lower-case, in the order received (a repeated field repeats its name). */
  names: string[];
  /** Field values, `values[i]` for `names[i]`, without leading or trailing whitespace. */
  values: string[];
  framing: Framing;
  /** The Content-Length, when {@link framing} is `Length`. */
  length: number;
  /** The client asks to keep the connection open after this exchange. */
  keepAlive: boolean;
  /** `Expect: 100-continue`: the client waits for a `100 Continue` before it sends the body. */
  expectContinue: boolean;
  /**
   * The `Upgrade` field, when the request asks to switch protocols (`Connection: upgrade` and an `Upgrade`
   * field, not CONNECT): whatever follows its head may be the new protocol, never HTTP again.
   */
  upgrade: string | undefined;
}

/**
 * The methods node's parser knows (`http.METHODS`): the same set is accepted on both servers, so an
 * application answers `FOO /` the same way on either (501 before routing). Read at the first request, not
 * at import: an application served through `app.fetch` never loads node:http.
 */
let knownMethods: ReadonlySet<string> | undefined;
/** An HTTP token (RFC 9110 §5.6.2): a method, a field name, a chunk extension's name or value. */
export const TOKEN_CHARS = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const TOKEN = new RegExp(`^${TOKEN_CHARS}$`);
/** A request target: visible ASCII only (RFC 9112 §3.2; no spaces, no controls, no raw non-ASCII). */
const TARGET = /^[\x21-\x7e]+$/;
/** Control characters a field line may not hold (HTAB is allowed; bare CR and LF are controls too). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what the check looks for.
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
const SAFE_DIGITS = /^\d{1,15}$/;
/** An absolute-form target: a scheme, then `:`. */
const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
/**
 * Most field lines in one head: node:http's parser refuses the next one (431) whatever their size, so a
 * head of many short lines is refused by both servers alike.
 */
export const MAX_FIELDS = 1000;

/** Parses a request head: `text` runs from the request line to the last field line, without the blank line. */
export function parseHead(text: string): RequestHead | HttpError {
  const lineEnd = text.indexOf('\r\n');
  const requestLine = lineEnd === -1 ? text : text.slice(0, lineEnd);
  const first = requestLine.indexOf(' ');
  const last = requestLine.lastIndexOf(' ');
  const method = first === -1 ? requestLine : requestLine.slice(0, first);
  knownMethods ??= new Set(http.METHODS);
  if (!knownMethods.has(method)) {
    // A well-formed method this server does not know is "not implemented"; garbage is a bad request.
    return new HttpError(TOKEN.test(method) && first !== -1 ? 501 : 400);
  }
  if (first === last) return new HttpError(400, 'Request line without an HTTP version');
  const target = requestLine.slice(first + 1, last);
  if (!TARGET.test(target) || !targetForm(method, target))
    return new HttpError(400, 'Malformed request target');
  const version = requestLine.slice(last + 1);
  let minor: number;
  if (version === 'HTTP/1.1') minor = 1;
  else if (version === 'HTTP/1.0') minor = 0;
  else if (/^HTTP\/\d\.\d$/.test(version))
    return new HttpError(505, `${version} is not supported on this connection`);
  else return new HttpError(400, 'Malformed HTTP version');

  const head: RequestHead = {
    method,
    target,
    minor,
    names: [],
    values: [],
    framing: Framing.None,
    length: 0,
    keepAlive: minor === 1,
    expectContinue: false,
    upgrade: undefined,
  };
  return readFields(head, text, lineEnd === -1 ? text.length : lineEnd + 2);
}

/**
 * The four forms of RFC 9112 §3.2: origin (`/path?q`), absolute (`http://host/path`), authority
 * (`host:port`, CONNECT only) and asterisk (`*`, OPTIONS only, though any method reaches the kernel, which
 * answers it). Anything else is a malformed request line, refused before routing, as node's parser does.
 */
function targetForm(method: string, target: string): boolean {
  if (target.charCodeAt(0) === 0x2f || target === '*') return true;
  if (method === 'CONNECT') return true;
  return ABSOLUTE.test(target);
}

/** What the Connection fields said, all of them together. */
const Options = { None: 0, Close: 1, KeepAlive: 2, Upgrade: 4 } as const;

/** Reads the field lines from `start`, then checks what they say together. */
function readFields(head: RequestHead, text: string, start: number): RequestHead | HttpError {
  const { names, values } = head;
  let hosts = 0;
  let length: string | undefined;
  let coding: string | undefined;
  let upgrade: string | undefined;
  let options: number = Options.None;
  let at = start;
  while (at < text.length) {
    if (names.length === MAX_FIELDS) return new HttpError(431, 'Too many header fields');
    let end = text.indexOf('\r\n', at);
    if (end === -1) end = text.length;
    const line = text.slice(at, end);
    at = end + 2;
    const colon = fieldColon(line);
    if (colon === -1) return new HttpError(400, 'Malformed header field');
    const name = line.slice(0, colon).toLowerCase();
    const value = trimWhitespace(line, colon + 1);
    // A singleton seen before is refused: node keeps the first, a proxy may keep the last.
    if (SINGLETON_FIELDS.has(name) && names.includes(name))
      return new HttpError(400, repeatedFieldMessage(name));
    names.push(name);
    values.push(value);
    switch (name) {
      case 'host':
        hosts++;
        break;
      case 'content-length':
        length = value;
        break;
      case 'transfer-encoding':
        coding = coding === undefined ? value : `${coding}, ${value}`;
        break;
      case 'connection':
        options |= connectionOptions(value);
        break;
      case 'upgrade':
        upgrade = upgrade === undefined ? value : `${upgrade}, ${value}`;
        break;
      case 'expect':
        // RFC 9110 §10.1.1: an expectation in an HTTP/1.0 request is ignored.
        if (head.minor === 0) break;
        if (value.toLowerCase() !== '100-continue')
          return new HttpError(417, `Expectation ${JSON.stringify(value)} is not supported`);
        head.expectContinue = true;
        break;
    }
  }
  if (hosts === 0 && head.minor === 1) return new HttpError(400, 'Missing Host header');
  // `close` on any line wins, whatever another line says (as node's parser reads it).
  if (options & Options.Close) head.keepAlive = false;
  else if (options & Options.KeepAlive) head.keepAlive = true;
  if (options & Options.Upgrade && upgrade !== undefined && head.method !== 'CONNECT') head.upgrade = upgrade;
  return checkFields(head, length, coding);
}

/**
 * Where the colon of a field line is, or -1 when the line is no field line: its name must be a token (a
 * line starting with whitespace is obsolete line folding, §5.2, and whitespace before the colon is
 * refused by §5.1) and no control but HTAB may appear (a bare CR or LF is a control too). Trailer lines
 * are checked the same way.
 */
export function fieldColon(line: string): number {
  const colon = line.indexOf(':');
  if (colon <= 0 || !TOKEN.test(line.slice(0, colon)) || CONTROL.test(line)) return -1;
  return colon;
}

/** What Content-Length and Transfer-Encoding say together (RFC 9112 §6.1–§6.3). */
function checkFields(
  head: RequestHead,
  length: string | undefined,
  coding: string | undefined,
): RequestHead | HttpError {
  if (coding !== undefined) {
    // Both framings at once is how requests are smuggled past a proxy: refuse it rather than pick one.
    if (length !== undefined) return new HttpError(400, 'Content-Length with Transfer-Encoding');
    if (head.minor === 0) return new HttpError(400, 'Transfer-Encoding in an HTTP/1.0 request');
    if (coding.toLowerCase() !== 'chunked')
      return new HttpError(501, `Transfer-Encoding ${JSON.stringify(coding)} is not implemented`);
    // CONNECT asks for a tunnel: what follows its head is never a body (it is refused and closed).
    if (head.method !== 'CONNECT') head.framing = Framing.Chunked;
    return head;
  }
  if (length !== undefined) {
    if (!SAFE_DIGITS.test(length)) return new HttpError(400, 'Malformed Content-Length');
    head.length = Number(length);
    if (head.length > 0 && head.method !== 'CONNECT') head.framing = Framing.Length;
  }
  return head;
}

/**
 * The options of one Connection field line: `close` ends the connection after this exchange, HTTP/1.0
 * keeps it only on `keep-alive`, `upgrade` says the Upgrade field is meant.
 */
function connectionOptions(value: string): number {
  let options: number = Options.None;
  for (const option of value.split(',')) {
    const token = option.trim().toLowerCase();
    if (token === 'close') options |= Options.Close;
    else if (token === 'keep-alive') options |= Options.KeepAlive;
    else if (token === 'upgrade') options |= Options.Upgrade;
  }
  return options;
}

/** The value after the colon without the optional whitespace around it: spaces and tabs only (§5.1). */
function trimWhitespace(line: string, from: number): string {
  let start = from;
  let end = line.length;
  while (start < end && isWhitespace(line.charCodeAt(start))) start++;
  while (end > start && isWhitespace(line.charCodeAt(end - 1))) end--;
  return line.slice(start, end);
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** Whether an LF without a CR before it, or a CR followed by anything but LF, is among `bytes` from `start`. */
export function bareLineBreak(bytes: Buffer, start: number): boolean {
  for (let at = bytes.indexOf(0x0a, start); at !== -1; at = bytes.indexOf(0x0a, at + 1)) {
    if (at === start || bytes[at - 1] !== 0x0d) return true;
  }
  // A CR as the last byte may yet be followed by its LF.
  for (
    let at = bytes.indexOf(0x0d, start);
    at !== -1 && at + 1 < bytes.byteLength;
    at = bytes.indexOf(0x0d, at + 1)
  ) {
    if (bytes[at + 1] !== 0x0a) return true;
  }
  return false;
}
