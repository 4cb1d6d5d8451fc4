/**
 * The operation tags: what a block says about the route it documents (`@api`, `@summary`, `@description`,
 * `@param`, `@body`, `@produces`, `@response`, `@security`, `@tags`, `@deprecated`, `@example`). Each
 * reader fills the block's operation (or its `api`), or reports the mistake and leaves it as it was.
 */

import { parseResponseLine } from '../media.js';
import type { BodyDoc } from '../types.js';
import type { BlockReader } from './block-reader.js';
import { readParamTag } from './param-tag.js';
import { componentReference, PLACEHOLDER } from './reference.js';
import type { RawTag } from './tag-lexer.js';
import { execTyped, parseType } from './type-expr.js';

type TagReader = (reader: BlockReader, tag: RawTag) => void;

const BODY = /^\{([^}]+)\}(?:\s+(required|optional)\b)?(?:\s+-?\s*([\s\S]*))?$/;
const EXAMPLE = /^(request|response)(?:\s+(\d{3}|[1-5]XX|default))?\s*([\s\S]*)$/;

/** `@api VERB /path`: at most one per block. */
function readApi(reader: BlockReader, tag: RawTag): void {
  const m = /^([A-Za-z]+)\s+(\S+)$/.exec(tag.head);
  if (!m) {
    reader.report('MALFORMED_TAG', tag.line, `@api needs "VERB /path", got "${tag.head}"`);
    return;
  }
  if (reader.api) {
    reader.report('MALFORMED_TAG', tag.line, 'a block carries one @api tag');
    return;
  }
  reader.api = { method: (m[1] ?? '').toUpperCase(), path: m[2] ?? '', line: tag.line };
}

function readSummary(reader: BlockReader, tag: RawTag): void {
  reader.operation.summary = tag.text;
}

function readDescription(reader: BlockReader, tag: RawTag): void {
  reader.operation.description = tag.text;
}

/**
 * `@body {Type} [required|optional] - text`: the whole JSON body; required unless said otherwise.
 * `@body #Name` takes a `@component requestBody Name …`.
 */
function readBody(reader: BlockReader, tag: RawTag): void {
  const ref = componentReference(tag.text);
  if (ref !== null) {
    reader.operation.body = { ...PLACEHOLDER, required: true, ref, line: tag.line };
    return;
  }
  const body = parseBody(reader, tag);
  if (body !== null) reader.operation.body = body;
}

/** The body `tag` describes, or `null` once reported. */
export function parseBody(reader: BlockReader, tag: RawTag): BodyDoc | null {
  const m = execTyped(BODY, tag.text, 1);
  if (!m || parseType(m[1] ?? '') === null) {
    reader.reportContractLine(
      'MALFORMED_TAG',
      tag.line,
      `malformed @${tag.name} "${tag.head}" (expected "{Type} [required|optional] - text")`,
    );
    return null;
  }
  return {
    type: (m[1] ?? '').trim(),
    required: m[2] !== 'optional',
    description: (m[3] ?? '').trim(),
    line: tag.line,
  };
}

/** `@produces media/type[, …]`: the media types may be separated by commas or spaces. */
function readProduces(reader: BlockReader, tag: RawTag): void {
  for (const media of tag.head.split(/[\s,]+/)) if (media) reader.operation.produces.push(media);
  if (tag.head === '') reader.report('MALFORMED_TAG', tag.line, '@produces needs a media type');
}

/** `@response <status> …`, or `@response <status> #Name` for a `@component response Name …`. */
function readResponse(reader: BlockReader, tag: RawTag): void {
  const [status = '', ...rest] = tag.text.split(/\s+/);
  const ref =
    rest.length === 1 && /^(\d{3}|[1-5]XX|default)$/.test(status) ? componentReference(rest[0] ?? '') : null;
  if (ref !== null) {
    reader.operation.responses.push({ status, type: null, description: '', ref, line: tag.line });
    return;
  }
  const response = parseResponseLine(tag.text, tag.line);
  if (response === null) {
    reader.reportContractLine(
      'MALFORMED_RESPONSE',
      tag.line,
      `malformed @response "${tag.head}" (expected "<status> {Type} [media/type] text", "<status> text" or "<status> #Component")`,
    );
    return;
  }
  reader.operation.responses.push(response);
}

/** `@security scheme`: the first word names the scheme; the rest of the line is ignored. */
function readSecurity(reader: BlockReader, tag: RawTag): void {
  const scheme = tag.head.split(/\s+/)[0] ?? '';
  if (scheme === '') {
    reader.report('MALFORMED_TAG', tag.line, '@security needs a scheme name');
    return;
  }
  reader.operation.security.push({ scheme, line: tag.line });
}

/** `@tags a, b`: comma-separated, so a tag name may contain spaces. */
function readTags(reader: BlockReader, tag: RawTag): void {
  for (const name of tag.text.split(',')) if (name.trim()) reader.operation.tags.push(name.trim());
}

function readDeprecated(reader: BlockReader, tag: RawTag): void {
  if (tag.head !== '' && tag.head !== 'true' && tag.head !== 'false') {
    reader.report('MALFORMED_TAG', tag.line, `@deprecated takes "true" or nothing, got "${tag.head}"`);
    return;
  }
  reader.operation.deprecated = tag.head !== 'false';
}

/** `@example request <JSON>` or `@example response <status> <JSON>`. */
function readExample(reader: BlockReader, tag: RawTag): void {
  const m = EXAMPLE.exec(tag.text);
  if (!m || (m[1] === 'response' && m[2] === undefined)) {
    reader.report(
      'MALFORMED_TAG',
      tag.line,
      `@example needs "request" or "response <status>" followed by JSON, got "${tag.head}"`,
    );
    return;
  }
  const parsed = reader.parseJson(tag, m[3] ?? '');
  if (!parsed.ok) return;
  if (m[1] === 'request') reader.operation.requestExample = parsed.value;
  else reader.operation.responseExamples[m[2] ?? 'default'] = parsed.value;
}

const OPERATION_TAG_READERS: ReadonlyMap<string, TagReader> = new Map([
  ['api', readApi],
  ['summary', readSummary],
  ['description', readDescription],
  ['param', readParamTag],
  ['body', readBody],
  ['produces', readProduces],
  ['response', readResponse],
  ['security', readSecurity],
  ['tags', readTags],
  ['deprecated', readDeprecated],
  ['example', readExample],
]);

/** Whether `@name` is one of the operation tags. */
export function isOperationTag(name: string): boolean {
  return OPERATION_TAG_READERS.has(name);
}

/** One operation tag, read into the reader's operation (or reported as unknown). */
export function readOperationTag(reader: BlockReader, tag: RawTag): void {
  const read = OPERATION_TAG_READERS.get(tag.name);
  if (read) read(reader, tag);
  else reader.report('UNKNOWN_TAG', tag.line, `unknown annotation tag @${tag.name}`);
}
