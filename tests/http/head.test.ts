/**
 * The request-head parser of Arbor's HTTP/1.1 server, as a table: a head (request line and field lines,
 * without the blank line) → what it says, or the status it is refused with.
 */
import { describe, expect, test } from 'vitest';
import { HttpError } from '../../ts/src/http/errors.js';
import { Framing, parseHead, type RequestHead } from '../../ts/src/http/wire/head.js';

const HOST = 'Host: a';

function parsed(text: string): RequestHead {
  const head = parseHead(text);
  if (head instanceof HttpError) throw new Error(`refused with ${head.status}: ${head.message}`);
  return head;
}

describe('accepted heads', () => {
  test('request line, version, fields in order with lower-case names and trimmed values', () => {
    const head = parsed(`GET /a?b=1 HTTP/1.1\r\n${HOST}\r\nX-Thing: \t spaced value \t\r\nx-thing: two`);
    expect(head).toMatchObject({ method: 'GET', target: '/a?b=1', minor: 1, keepAlive: true });
    expect(head.names).toEqual(['host', 'x-thing', 'x-thing']);
    expect(head.values).toEqual(['a', 'spaced value', 'two']);
    expect(head.framing).toBe(Framing.None);
  });

  test.each([
    ['HTTP/1.1 by default', `GET / HTTP/1.1\r\n${HOST}`, true],
    ['HTTP/1.1 with Connection: close', `GET / HTTP/1.1\r\n${HOST}\r\nConnection: close`, false],
    ['close among other options', `GET / HTTP/1.1\r\n${HOST}\r\nConnection: Upgrade, Close`, false],
    ['HTTP/1.0 by default (no Host needed)', 'GET / HTTP/1.0', false],
    ['HTTP/1.0 with keep-alive', 'GET / HTTP/1.0\r\nConnection: Keep-Alive', true],
  ])('keep-alive: %s', (_label, text, keepAlive) => {
    expect(parsed(text).keepAlive).toBe(keepAlive);
  });

  test.each([
    ['Content-Length', `POST / HTTP/1.1\r\n${HOST}\r\nContent-Length: 12`, Framing.Length, 12],
    ['Content-Length: 0 is no body', `POST / HTTP/1.1\r\n${HOST}\r\nContent-Length: 0`, Framing.None, 0],
    ['chunked', `POST / HTTP/1.1\r\n${HOST}\r\nTransfer-Encoding: chunked`, Framing.Chunked, 0],
    ['Chunked, any case', `POST / HTTP/1.1\r\n${HOST}\r\nTransfer-Encoding: Chunked`, Framing.Chunked, 0],
  ])('framing: %s', (_label, text, framing, length) => {
    expect(parsed(text)).toMatchObject({ framing, length });
  });

  test('Expect: 100-continue is noted; absolute-form and asterisk-form targets pass through', () => {
    expect(parsed(`POST / HTTP/1.1\r\n${HOST}\r\nExpect: 100-Continue`).expectContinue).toBe(true);
    expect(parsed(`GET http://a/b HTTP/1.1\r\n${HOST}`).target).toBe('http://a/b');
    expect(parsed(`OPTIONS * HTTP/1.1\r\n${HOST}`).target).toBe('*');
  });
});

describe('refused heads', () => {
  test.each([
    ['an unknown method token', `FOO / HTTP/1.1\r\n${HOST}`, 501],
    ['a lower-case method', `get / HTTP/1.1\r\n${HOST}`, 501],
    ['a method that is no token', `G@T / HTTP/1.1\r\n${HOST}`, 400],
    ['a request line of one word', 'GARBAGE', 400],
    ['no version', 'GET /', 400],
    ['HTTP/2.0 on HTTP/1', `GET / HTTP/2.0\r\n${HOST}`, 505],
    ['HTTP/1.2', `GET / HTTP/1.2\r\n${HOST}`, 505],
    ['a malformed version', `GET / HTTP/one\r\n${HOST}`, 400],
    ['a space inside the target', `GET /a b HTTP/1.1\r\n${HOST}`, 400],
    ['two spaces before the target', `GET  / HTTP/1.1\r\n${HOST}`, 400],
    ['a non-ASCII byte in the target', `GET /caf\xe9 HTTP/1.1\r\n${HOST}`, 400],
    ['a control in the target', `GET /a\x01 HTTP/1.1\r\n${HOST}`, 400],
    ['no Host on HTTP/1.1', 'GET / HTTP/1.1', 400],
    ['two Hosts', `GET / HTTP/1.1\r\n${HOST}\r\nHost: b`, 400],
    ['a field name with a space', `GET / HTTP/1.1\r\n${HOST}\r\nBad Name: x`, 400],
    ['an empty field name', `GET / HTTP/1.1\r\n${HOST}\r\n: x`, 400],
    ['a line without a colon', `GET / HTTP/1.1\r\n${HOST}\r\nnocolon`, 400],
    ['obsolete line folding', `GET / HTTP/1.1\r\n${HOST}\r\nX-A: a\r\n  folded`, 400],
    ['a bare CR in a value', `GET / HTTP/1.1\r\n${HOST}\r\nX-A: a\rb`, 400],
    ['a bare LF in a value', `GET / HTTP/1.1\r\n${HOST}\r\nX-A: a\nb`, 400],
    ['a NUL in a value', `GET / HTTP/1.1\r\n${HOST}\r\nX-A: a\x00b`, 400],
    [
      'Content-Length twice, even equal',
      `POST / HTTP/1.1\r\n${HOST}\r\nContent-Length: 1\r\nContent-Length: 1`,
      400,
    ],
    ['a signed Content-Length', `POST / HTTP/1.1\r\n${HOST}\r\nContent-Length: +1`, 400],
    ['a negative Content-Length', `POST / HTTP/1.1\r\n${HOST}\r\nContent-Length: -1`, 400],
    ['a Content-Length past 2^53', `POST / HTTP/1.1\r\n${HOST}\r\nContent-Length: 9999999999999999`, 400],
    ['a list as Content-Length', `POST / HTTP/1.1\r\n${HOST}\r\nContent-Length: 1, 1`, 400],
    [
      'Content-Length with Transfer-Encoding (smuggling)',
      `POST / HTTP/1.1\r\n${HOST}\r\nContent-Length: 3\r\nTransfer-Encoding: chunked`,
      400,
    ],
    ['Transfer-Encoding on HTTP/1.0', 'POST / HTTP/1.0\r\nTransfer-Encoding: chunked', 400],
    ['a coding before chunked', `POST / HTTP/1.1\r\n${HOST}\r\nTransfer-Encoding: gzip, chunked`, 501],
    [
      'chunked then another line of coding',
      `POST / HTTP/1.1\r\n${HOST}\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip`,
      501,
    ],
    ['an expectation other than 100-continue', `GET / HTTP/1.1\r\n${HOST}\r\nExpect: magic`, 417],
  ])('%s → %i', (_label, text, status) => {
    const head = parseHead(text);
    expect(head).toBeInstanceOf(HttpError);
    expect((head as HttpError).status).toBe(status);
  });
});
