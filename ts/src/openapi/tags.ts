/**
 * The annotation grammar: turns one doc block into an operation doc and/or schema docs (the tag table of
 * SPEC §6 / original §2.6). A tag starts a line (`@name rest`); the lines that follow until the next tag
 * continue it (multi-line descriptions, the JSON of `@example`). Free text before the first tag is the
 * description. Mistakes become diagnostics naming `file:line`; parsing goes on.
 */
import type { DocBlock } from './comments.js';
import { namesFile, parseFileType } from './form.js';
import { leadingMediaTypes, parseResponseLine } from './media.js';
import { parseType } from './type-expr.js';
import type { Diagnostic, DiagnosticCode, OperationDoc, ParamLocation, SchemaDoc, TagDoc } from './types.js';

interface RawTag {
  name: string;
  /** Text on the tag's own line. */
  head: string;
  /** Head and continuation lines, joined by newlines and trimmed. */
  text: string;
  line: number;
}

export interface ParsedBlock {
  /** `@api VERB /path`, when present. */
  api: { method: string; path: string; line: number } | null;
  /** Null when the block is only `@schema` definitions. */
  operation: OperationDoc | null;
  schemas: SchemaDoc[];
  /** `@tag Name - description` lines (anywhere: in a block of their own, or beside other tags). */
  tags: TagDoc[];
  diagnostics: Diagnostic[];
}

const OPERATION_TAGS = new Set([
  'api',
  'summary',
  'description',
  'param',
  'body',
  'produces',
  'response',
  'security',
  'tags',
  'deprecated',
  'example',
]);
const SCHEMA_TAGS = new Set(['schema', 'property', 'description', 'example']);

/** Whether a block found away from a call site is meant for us (ordinary JSDoc elsewhere is ignored). */
export function isAnnotationBlock(block: DocBlock): boolean {
  return block.lines.some((l) => /^\s*@(api|schema|tag)\b/.test(l.text));
}

function splitTags(block: DocBlock): { leading: string; tags: RawTag[] } {
  const leading: string[] = [];
  const tags: RawTag[] = [];
  for (const { line, text } of block.lines) {
    const tag = /^\s*@([A-Za-z][\w-]*)\s*(.*)$/.exec(text);
    const current = tags[tags.length - 1];
    if (tag) {
      const head = (tag[2] ?? '').trim();
      tags.push({ name: tag[1] ?? '', head, text: head, line });
    } else if (current) {
      current.text = `${current.text}\n${text}`;
    } else {
      leading.push(text.trim());
    }
  }
  for (const tag of tags) tag.text = tag.text.trim();
  return { leading: leading.join('\n').trim(), tags };
}

const PARAM = /^\{([^}]+)\}\s+([^\s.{}]+)\.([A-Za-z]+)(?:\.([A-Za-z]+))?(?:\s+-?\s*([\s\S]*))?$/;
const PROPERTY = /^\{([^}]+)\}\s+([^\s.{}]+)(?:\.(required|optional))?(?:\s+-?\s*([\s\S]*))?$/;
const BODY = /^\{([^}]+)\}(?:\s+(required|optional)\b)?(?:\s+-?\s*([\s\S]*))?$/;
/** Locations by their lower-case spelling (`formData` is written in camel case, read in any case). */
const LOCATIONS: ReadonlyMap<string, ParamLocation> = new Map([
  ['path', 'path'],
  ['query', 'query'],
  ['header', 'header'],
  ['cookie', 'cookie'],
  ['body', 'body'],
  ['formdata', 'formData'],
]);

/**
 * @example
 * parseBlock(findDocBlocks('/**\n * @summary List\n * @response 200 {array<Task>} ok\n *\/')[0]!, 'app.ts')
 */
export function parseBlock(block: DocBlock, file: string): ParsedBlock {
  const diagnostics: Diagnostic[] = [];
  const report = (code: DiagnosticCode, line: number, message: string): void => {
    diagnostics.push({ code, file, line, message: `${file}:${line}: ${message}` });
  };
  const { leading, tags } = splitTags(block);
  const op: OperationDoc = {
    params: [],
    produces: [],
    responses: [],
    security: [],
    tags: [],
    deprecated: false,
    responseExamples: {},
    file,
    line: block.startLine,
  };
  let api: ParsedBlock['api'] = null;
  let hasOperationTag = false;
  const schemas: SchemaDoc[] = [];
  const tagDocs: TagDoc[] = [];
  let schema: SchemaDoc | null = null;

  const parseJson = (tag: RawTag, body: string): { ok: true; value: unknown } | { ok: false } => {
    try {
      return { ok: true, value: JSON.parse(body) };
    } catch (error) {
      report('INVALID_EXAMPLE', tag.line, `@example is not valid JSON (${(error as Error).message})`);
      return { ok: false };
    }
  };

  for (const tag of tags) {
    if (tag.name === 'tag') {
      readTagTag(tag);
      continue;
    }
    if (schema !== null && SCHEMA_TAGS.has(tag.name)) {
      readSchemaTag(tag, schema);
      continue;
    }
    if (!OPERATION_TAGS.has(tag.name) && !SCHEMA_TAGS.has(tag.name)) {
      report('UNKNOWN_TAG', tag.line, `unknown annotation tag @${tag.name}`);
      continue;
    }
    if (tag.name === 'schema' || tag.name === 'property') {
      readSchemaTag(tag, schema);
      continue;
    }
    hasOperationTag = true;
    readOperationTag(tag);
  }
  checkMixedBody();
  const described = schemas.length > 0 || tagDocs.length > 0;
  const operation = hasOperationTag || (leading !== '' && !described) ? op : null;
  if (operation && leading !== '' && operation.description === undefined) operation.description = leading;
  return { api, operation, schemas, tags: tagDocs, diagnostics };

  /** A body is JSON or a form, not both: the form fields are left out (`formParams`), and that is said. */
  function checkMixedBody(): void {
    const form = op.params.find((p) => p.in === 'formData');
    const json = op.body?.line ?? op.params.find((p) => p.in === 'body')?.line;
    if (form === undefined || json === undefined) return;
    report(
      'MIXED_BODY',
      form.line,
      `@param ${form.name}.formData describes a multipart/form-data body, but line ${json} describes a JSON body (@body, .body): a body is one or the other; the form fields are left out`,
    );
  }

  /**
   * `@tag Name - description`; the description may go on over the following lines, or be the block's
   * free text when the block describes one tag (as for `@schema`).
   */
  function readTagTag(tag: RawTag): void {
    const m = /^([^,]+?)(?:\s+-(?:\s+([\s\S]*))?)?$/.exec(tag.head);
    let description = `${m?.[2] ?? ''}${tag.text.slice(tag.head.length)}`.trim();
    if (description === '' && tagDocs.length === 0 && schemas.length === 0) description = leading;
    if (!m || description === '') {
      report('MALFORMED_TAG', tag.line, `@tag needs "Name - description", got "${tag.head}"`);
      return;
    }
    tagDocs.push({ name: (m[1] ?? '').trim(), description, file, line: tag.line });
  }

  function readSchemaTag(tag: RawTag, current: SchemaDoc | null): void {
    if (tag.name === 'schema') {
      const name = /^([A-Za-z_][\w.-]*)(?:\s+-?\s*([\s\S]*))?$/.exec(tag.text);
      if (!name) {
        report('MALFORMED_TAG', tag.line, `@schema needs a schema name, got "${tag.head}"`);
        return;
      }
      schema = { name: name[1] ?? '', properties: [], file, line: tag.line };
      if (name[2]) schema.description = name[2].trim();
      else if (leading !== '' && schemas.length === 0) schema.description = leading;
      schemas.push(schema);
      return;
    }
    if (current === null) {
      report('MALFORMED_TAG', tag.line, `@${tag.name} outside a @schema block`);
      return;
    }
    if (tag.name === 'description') current.description = tag.text;
    else if (tag.name === 'example') {
      const parsed = parseJson(tag, tag.text);
      if (parsed.ok) current.example = parsed.value;
    } else {
      const m = PROPERTY.exec(tag.text);
      if (!m || parseType(m[1] ?? '') === null) {
        report(
          'MALFORMED_PROPERTY',
          tag.line,
          `malformed @property "${tag.head}" (expected "{type} name - text")`,
        );
        return;
      }
      current.properties.push({
        name: m[2] ?? '',
        type: (m[1] ?? '').trim(),
        description: (m[4] ?? '').trim(),
        required: m[3] === 'required',
        line: tag.line,
      });
    }
  }

  function readOperationTag(tag: RawTag): void {
    switch (tag.name) {
      case 'api': {
        const m = /^([A-Za-z]+)\s+(\S+)$/.exec(tag.head);
        if (!m) {
          report('MALFORMED_TAG', tag.line, `@api needs "VERB /path", got "${tag.head}"`);
          return;
        }
        if (api) {
          report('MALFORMED_TAG', tag.line, 'a block carries one @api tag');
          return;
        }
        api = { method: (m[1] ?? '').toUpperCase(), path: m[2] ?? '', line: tag.line };
        return;
      }
      case 'summary':
        op.summary = tag.text;
        return;
      case 'description':
        op.description = tag.text;
        return;
      case 'param': {
        const m = PARAM.exec(tag.text);
        const location = LOCATIONS.get((m?.[3] ?? '').toLowerCase());
        const flag = m?.[4]?.toLowerCase();
        const type = (m?.[1] ?? '').trim();
        if (
          !m ||
          location === undefined ||
          (flag !== undefined && flag !== 'required' && flag !== 'optional') ||
          (!namesFile(type) && parseType(type) === null)
        ) {
          report(
            'MALFORMED_PARAM',
            tag.line,
            `malformed @param "${tag.head}" (expected "{type} name.path|query|header|cookie|body|formData.required|optional - text")`,
          );
          return;
        }
        const file = namesFile(type) ? parseFileType(type) : null;
        if (namesFile(type) && (location !== 'formData' || file === null)) {
          report(
            'MALFORMED_PARAM',
            tag.line,
            location === 'formData'
              ? `malformed file type {${type}} in @param "${tag.head}" (expected {file}, {file[]}, {file[n]}, {file[n..m]}, {file[..m]} or {file[n..]})`
              : `@param "${tag.head}": a {file} is a field of a multipart form, written name.formData`,
          );
          return;
        }
        // A file field may name its media types before the text (`image/png, image/jpeg - Photo`).
        const text = (m[5] ?? '').trim();
        const declared = file === null ? { media: [], rest: text } : leadingMediaTypes(text);
        op.params.push({
          name: m[2] ?? '',
          in: location,
          type,
          // Path parameters are always required in OpenAPI; elsewhere the default is optional.
          required: flag === undefined ? location === 'path' : flag === 'required',
          description: declared.rest.trim(),
          ...(declared.media.length > 0 ? { media: declared.media } : {}),
          line: tag.line,
        });
        return;
      }
      case 'body': {
        const m = BODY.exec(tag.text);
        if (!m || parseType(m[1] ?? '') === null) {
          report(
            'MALFORMED_TAG',
            tag.line,
            `malformed @body "${tag.head}" (expected "{Type} [required|optional] - text")`,
          );
          return;
        }
        op.body = {
          type: (m[1] ?? '').trim(),
          required: m[2] !== 'optional',
          description: (m[3] ?? '').trim(),
          line: tag.line,
        };
        return;
      }
      case 'produces':
        for (const media of tag.head.split(/[\s,]+/)) if (media) op.produces.push(media);
        if (tag.head === '') report('MALFORMED_TAG', tag.line, '@produces needs a media type');
        return;
      case 'response': {
        const response = parseResponseLine(tag.text, tag.line);
        if (response === null) {
          report(
            'MALFORMED_RESPONSE',
            tag.line,
            `malformed @response "${tag.head}" (expected "<status> {Type} [media/type] text" or "<status> text")`,
          );
          return;
        }
        op.responses.push(response);
        return;
      }
      case 'security': {
        const scheme = tag.head.split(/\s+/)[0] ?? '';
        if (scheme === '') {
          report('MALFORMED_TAG', tag.line, '@security needs a scheme name');
          return;
        }
        op.security.push({ scheme, line: tag.line });
        return;
      }
      case 'tags':
        for (const name of tag.text.split(',')) if (name.trim()) op.tags.push(name.trim());
        return;
      case 'deprecated':
        if (tag.head !== '' && tag.head !== 'true' && tag.head !== 'false') {
          report('MALFORMED_TAG', tag.line, `@deprecated takes "true" or nothing, got "${tag.head}"`);
          return;
        }
        op.deprecated = tag.head !== 'false';
        return;
      case 'example': {
        const m = /^(request|response)(?:\s+(\d{3}|[1-5]XX|default))?\s*([\s\S]*)$/.exec(tag.text);
        if (!m || (m[1] === 'response' && m[2] === undefined)) {
          report(
            'MALFORMED_TAG',
            tag.line,
            `@example needs "request" or "response <status>" followed by JSON, got "${tag.head}"`,
          );
          return;
        }
        const parsed = parseJson(tag, m[3] ?? '');
        if (!parsed.ok) return;
        if (m[1] === 'request') op.requestExample = parsed.value;
        else op.responseExamples[m[2] ?? 'default'] = parsed.value;
        return;
      }
      default:
        // `@schema` and `@property` are routed to readSchemaTag before this switch.
        report('UNKNOWN_TAG', tag.line, `unknown annotation tag @${tag.name}`);
    }
  }
}
