/**
 * The annotation grammar: turns one doc block into an operation doc and/or schema docs (the tag table of
 * docs/OPENAPI.md). Two steps: the block's lines are split into tags (`tag-lexer.ts`), then each
 * tag is read, in order, by the reader of its family (operation tags, `@param`, schema tags, `@tag`), all
 * sharing one {@link BlockReader}. Free text before the first tag is the description. Mistakes become
 * diagnostics naming `file:line`; parsing goes on.
 */

import type { ComponentDocs, Diagnostic, OperationDoc, SchemaDoc, TagDoc } from '../types.js';
import { type ApiLine, BlockReader } from './block-reader.js';
import type { DocBlock } from './comments.js';
import { readComponentTag } from './component-tags.js';
import { isOperationTag, readOperationTag } from './operation-tags.js';
import { readSchemaTag, SCHEMA_TAGS } from './schema-tags.js';
import { type RawTag, splitTags } from './tag-lexer.js';

export interface ParsedBlock {
  /** `@api VERB /path`, when present. */
  api: ApiLine | null;
  /** Null when the block is only `@schema` definitions. */
  operation: OperationDoc | null;
  schemas: SchemaDoc[];
  /** `@tag Name - description` lines (anywhere: in a block of their own, or beside other tags). */
  tags: TagDoc[];
  /** `@component` definitions (anywhere, like `@schema`). */
  components: ComponentDocs;
  diagnostics: Diagnostic[];
}

/** Whether a block found away from a call site is meant for us (ordinary JSDoc elsewhere is ignored). */
export function isAnnotationBlock(block: DocBlock): boolean {
  return block.lines.some((l) => /^\s*@(api|schema|tag|component)\b/.test(l.text));
}

/**
 * @example
 * parseBlock(findDocBlocks('/**\n * @summary List\n * @response 200 {array<Task>} ok\n *\/')[0]!, 'app.ts')
 */
export function parseBlock(block: DocBlock, file: string): ParsedBlock {
  const { leading, tags } = splitTags(block);
  const reader = new BlockReader(file, block.startLine, leading);
  let hasOperationTag = false;
  for (const tag of tags) {
    if (tag.name === 'tag') readTagTag(reader, tag);
    else if (tag.name === 'component') readComponentTag(reader, tag);
    // `@description` and `@example` after a `@schema` describe the schema, not the operation.
    else if (reader.schema !== null && SCHEMA_TAGS.has(tag.name)) readSchemaTag(reader, tag);
    else if (!isOperationTag(tag.name) && !SCHEMA_TAGS.has(tag.name))
      reader.report('UNKNOWN_TAG', tag.line, `unknown annotation tag @${tag.name}`);
    else if (tag.name === 'schema' || tag.name === 'property') readSchemaTag(reader, tag);
    else {
      hasOperationTag = true;
      readOperationTag(reader, tag);
    }
  }
  checkMixedBody(reader);
  const { components } = reader;
  const defines =
    Object.keys(components.parameters).length +
      Object.keys(components.responses).length +
      Object.keys(components.requestBodies).length >
    0;
  const described = reader.schemas.length > 0 || reader.tagDocs.length > 0 || defines;
  const operation = hasOperationTag || (leading !== '' && !described) ? reader.operation : null;
  if (operation && leading !== '' && operation.description === undefined) operation.description = leading;
  return {
    api: reader.api,
    operation,
    schemas: reader.schemas,
    tags: reader.tagDocs,
    components,
    diagnostics: reader.diagnostics,
  };
}

/**
 * `@tag Name - description`; the description may go on over the following lines, or be the block's
 * free text when the block describes one tag (as for `@schema`).
 */
function readTagTag(reader: BlockReader, tag: RawTag): void {
  const m = /^([^,]+?)(?:\s+-(?:\s+([\s\S]*))?)?$/.exec(tag.head);
  let description = `${m?.[2] ?? ''}${tag.text.slice(tag.head.length)}`.trim();
  if (description === '' && reader.tagDocs.length === 0 && reader.schemas.length === 0)
    description = reader.leading;
  if (!m || description === '') {
    reader.report('MALFORMED_TAG', tag.line, `@tag needs "Name - description", got "${tag.head}"`);
    return;
  }
  reader.tagDocs.push({ name: (m[1] ?? '').trim(), description, file: reader.file, line: tag.line });
}

/** A body is JSON or a form, not both: the form fields are left out (`formParams`), and that is said. */
function checkMixedBody(reader: BlockReader): void {
  const { params, body } = reader.operation;
  const form = params.find((p) => p.in === 'formData');
  const json = body?.line ?? params.find((p) => p.in === 'body')?.line;
  if (form === undefined || json === undefined) return;
  reader.reportContractLine(
    'MIXED_BODY',
    form.line,
    `@param ${form.name}.formData describes a multipart/form-data body, but line ${json} describes a JSON body (@body, .body): a body is one or the other; the form fields are left out`,
  );
}
