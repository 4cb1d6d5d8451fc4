/**
 * `@param {type} name.location[.required|optional] - text`: one parameter of the operation. A `{file}`
 * parameter is a field of a multipart form (`name.formData`) and may name its media types before the text.
 */

import { namesFile, parseFileType } from '../form.js';
import { leadingMediaTypes } from '../media.js';
import type { ParamDoc, ParamLocation } from '../types.js';
import type { BlockReader } from './block-reader.js';
import { componentReference, PLACEHOLDER } from './reference.js';
import type { RawTag } from './tag-lexer.js';
import { execTyped, parseType, TYPE_KEYWORDS } from './type-expr.js';

const PARAM = /^\{([^}]+)\}\s+([^\s.{}]+)\.([A-Za-z]+)(?:\.([A-Za-z]+))?(?:\s+-?\s*([\s\S]*))?$/;
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
 * Adds the parameter to the block's operation, or reports `MALFORMED_PARAM`. A reference (`#Name`) is
 * added as it is, and replaced by its component once every block is read.
 */
export function readParamTag(reader: BlockReader, tag: RawTag): void {
  const ref = componentReference(tag.text);
  if (ref !== null) {
    reader.operation.params.push({
      ...PLACEHOLDER,
      name: '',
      in: 'query',
      required: false,
      ref,
      line: tag.line,
    });
    return;
  }
  const param = parseParam(reader, tag);
  if (param !== null) reader.operation.params.push(param);
}

/** The parameter `tag` describes (`{type} name.in[.required] - text`), or `null` once reported. */
export function parseParam(reader: BlockReader, tag: RawTag): ParamDoc | null {
  const m = execTyped(PARAM, tag.text, 1);
  const location = LOCATIONS.get((m?.[3] ?? '').toLowerCase());
  const flag = m?.[4]?.toLowerCase();
  const type = (m?.[1] ?? '').trim();
  if (
    !m ||
    location === undefined ||
    (flag !== undefined && flag !== 'required' && flag !== 'optional') ||
    (!namesFile(type) && parseType(type) === null)
  ) {
    reader.reportContractLine(
      'MALFORMED_PARAM',
      tag.line,
      `malformed @param "${tag.head}" (expected "{type [keyword=value …]} name.path|query|header|cookie|body|formData.required|optional - text", or "#Component"; keywords: ${TYPE_KEYWORDS.join(', ')})`,
    );
    return null;
  }
  const file = namesFile(type) ? parseFileType(type) : null;
  if (namesFile(type) && (location !== 'formData' || file === null)) {
    reader.reportContractLine(
      'MALFORMED_PARAM',
      tag.line,
      location === 'formData'
        ? `malformed file type {${type}} in @param "${tag.head}" (expected {file}, {file[]}, {file[n]}, {file[n..m]}, {file[..m]} or {file[n..]})`
        : `@param "${tag.head}": a {file} is a field of a multipart form, written name.formData`,
    );
    return null;
  }
  // A file field may name its media types before the text (`image/png, image/jpeg - Photo`).
  const text = (m[5] ?? '').trim();
  const declared = file === null ? { media: [], rest: text } : leadingMediaTypes(text);
  return {
    name: m[2] ?? '',
    in: location,
    type,
    // Path parameters are always required in OpenAPI; elsewhere the default is optional.
    required: flag === undefined ? location === 'path' : flag === 'required',
    description: declared.rest.trim(),
    ...(declared.media.length > 0 ? { media: declared.media } : {}),
    line: tag.line,
  };
}
