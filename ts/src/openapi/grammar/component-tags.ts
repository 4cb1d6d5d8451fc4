/**
 * `@component parameter|response|requestBody Name …`: a parameter, a response or a request body written
 * once, in any scanned file (as `@schema`), and used by name where an operation needs it:
 *
 *   @component parameter Limit {integer minimum=1 maximum=100 default=20} limit.query - Page size
 *   @component response NotFound {Error} - No item has this id
 *   @component requestBody NewTask {NewTask} required - The task to create
 *
 *   @param #Limit   @response 404 #NotFound   @body #NewTask
 *
 * After the name comes what `@param`, `@response` (without its status) and `@body` take. The document
 * lists them under `components.parameters`, `components.responses` and `components.requestBodies`, and
 * the operations refer to them (`$ref`); validation checks a referenced parameter or body as if it were
 * written in place.
 */
import { parseResponseLine } from '../media.js';
import type { BlockReader } from './block-reader.js';
import { parseBody } from './operation-tags.js';
import { parseParam } from './param-tag.js';
import type { RawTag } from './tag-lexer.js';

const COMPONENT = /^(parameter|response|requestBody)\s+([A-Za-z_][\w.-]*)\s+([\s\S]+)$/;

/** One `@component` line, added to the block's components (or reported as `MALFORMED_TAG`). */
export function readComponentTag(reader: BlockReader, tag: RawTag): void {
  const m = COMPONENT.exec(tag.text);
  if (m === null) {
    reader.report(
      'MALFORMED_TAG',
      tag.line,
      `malformed @component "${tag.head}" (expected "parameter|response|requestBody Name" and what @param, @response or @body takes)`,
    );
    return;
  }
  const [, kind, name = '', rest = ''] = m;
  const inner: RawTag = { ...tag, head: rest.split('\n')[0] ?? '', text: rest };
  const { components, file } = reader;
  if (kind === 'parameter') {
    const param = parseParam(reader, { ...inner, name: 'param' });
    if (param !== null) components.parameters[name] = { ...param, file };
  } else if (kind === 'requestBody') {
    const body = parseBody(reader, { ...inner, name: 'body' });
    if (body !== null) components.requestBodies[name] = { ...body, file };
  } else {
    // A response component has no status: the operation that uses it gives one.
    const response = parseResponseLine(`default ${rest}`, tag.line);
    if (response === null)
      reader.report(
        'MALFORMED_RESPONSE',
        tag.line,
        `malformed @component response "${tag.head}" (expected "Name {Type} [media/type] text" or "Name text")`,
      );
    else components.responses[name] = { ...response, status: '', file };
  }
}
