/**
 * A `multipart/form-data` body read against its route's form contract (`@param … name.formData`, see
 * `openapi/form.ts`): what only the form's shape can tell — a required file or field absent, several files
 * in a single-file field, a `{file[n..m]}` count out of bounds, a file of a media type the field does not
 * declare, a file where a field is expected (or the reverse), a single-valued field sent twice, a JSON part
 * that is not JSON. The declared types of the plain fields are then checked by ajv, like query parameters
 * (validation.ts), on the values this module gathers.
 *
 * @example
 * const { problems, values } = readForm(contract, req); // problems: [{ name: 'image', message: 'is required' }]
 */

import { isMultipart } from '../body/body.js';
import type { UploadedFile } from '../body/multipart.js';
import type { PartGuard } from '../body/multipart-parts.js';
import { HttpError } from '../core/errors.js';
import type { Request } from '../core/request.js';
import type { FieldContract, FileContract, FormContract } from '../openapi/form.js';
import type { JsonSchema } from '../openapi/grammar/type-expr.js';

/** One violation, by field name (validation.ts reports it `in: 'body'`), with the keyword it breaks. */
export interface FormProblem {
  name: string;
  message: string;
  /** The JSON Schema keyword the form breaks (`required`, `maxItems`, `contentMediaType`, `type`). */
  keyword: string;
}

/** What is wrong with a field, before it has a name. */
type Issue = { message: string; keyword: string };

export interface FormReading {
  problems: FormProblem[];
  /** The plain fields' values to check against their types: a string, a list, or parsed JSON. */
  values: Record<string, unknown>;
}

/**
 * Reads the request's form. A body of another type is a 415 (as `req.json()` answers a form sent to a JSON
 * route); an empty body is an empty form (its required fields are then missing).
 */
export function readForm(form: FormContract, req: Request): FormReading {
  const contentType = req.header('content-type');
  const multipart = isMultipart(contentType);
  if (!multipart && req.rawBody().byteLength > 0) {
    const media = contentType?.split(';')[0]?.trim() || 'a body without Content-Type';
    throw new HttpError(415, `Expected a multipart/form-data body, got ${media}`);
  }
  const files = multipart ? req.files() : [];
  const fields = multipart ? req.body<Record<string, string | string[]>>() : {};
  return checkForm(form, files, fields);
}

/** What a file was sent as, as far as the form's contract looks. */
export type SentFile = Pick<UploadedFile, 'fieldname' | 'filename' | 'mimetype'>;

/** The form's problems and its plain fields' values, given every file and field it carried. */
export function checkForm(
  form: FormContract,
  files: readonly SentFile[],
  fields: Record<string, string | string[]>,
): FormReading {
  const problems: FormProblem[] = [];
  for (const file of form.files) {
    const issue = fileProblem(
      file,
      files.filter((f) => f.fieldname === file.name),
      Object.hasOwn(fields, file.name),
    );
    if (issue !== null) problems.push({ name: file.name, ...issue });
  }
  const values: Record<string, unknown> = {};
  for (const field of form.fields) {
    const sentAsFile = files.some((f) => f.fieldname === field.name);
    const raw = Object.hasOwn(fields, field.name) ? fields[field.name] : undefined;
    if (raw === undefined) {
      if (sentAsFile)
        problems.push({ name: field.name, message: 'must be a form field, not a file', keyword: 'type' });
      // A required field that is absent is reported by ajv, with the fields' other problems.
      continue;
    }
    const read = fieldValue(field, raw);
    if ('problem' in read) {
      problems.push({ name: field.name, ...read.problem });
      continue;
    }
    values[field.name] = read.value;
  }
  return { problems, values };
}

/**
 * A part of a form streamed to the handler, checked as it arrives against what it alone can break: a
 * file where a field is expected or the reverse, a file of an undeclared media type, more files than
 * its field takes, a single-valued field sent again. `files` and `fields` are the parts before it.
 * What needs the whole form (a part missing, too few files, the fields' types) is {@link checkForm}'s.
 */
export function partProblem(
  form: FormContract,
  part: { fieldname: string; file: SentFile | null; value: string },
  files: readonly SentFile[],
  fields: Record<string, string | string[]>,
): FormProblem | null {
  const name = part.fieldname;
  const fileContract = form.files.find((f) => f.name === name);
  const fieldContract = form.fields.find((f) => f.name === name);
  let issue: Issue | null = null;
  if (part.file !== null) {
    if (fieldContract !== undefined) issue = { message: 'must be a form field, not a file', keyword: 'type' };
    else if (fileContract !== undefined) {
      const sent = [...files.filter((f) => f.fieldname === name), part.file];
      issue = fileProblem({ ...fileContract, min: null }, sent, false);
    }
  } else if (fileContract !== undefined) issue = { message: 'must be a file', keyword: 'type' };
  else if (fieldContract !== undefined && !fieldContract.array && Object.hasOwn(fields, name))
    issue = { message: 'must be sent once (got 2 values)', keyword: 'maxItems' };
  return issue === null ? null : { name, ...issue };
}

/** The plain fields as one object schema, which ajv checks {@link FormReading.values} against. */
export function fieldsSchema(fields: readonly FieldContract[]): JsonSchema {
  const properties = Object.fromEntries(fields.map((f) => [f.name, f.schema]));
  const required = fields.filter((f) => f.required).map((f) => f.name);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** The problem with a file field's files, or `null`. `asField`: the name came as a plain field instead. */
function fileProblem(file: FileContract, sent: readonly SentFile[], asField: boolean): Issue | null {
  if (sent.length === 0) {
    if (asField) return { message: 'must be a file', keyword: 'type' };
    return file.required ? { message: 'is required', keyword: 'required' } : null;
  }
  if (!file.multiple && sent.length > 1)
    return { message: `must be a single file (got ${sent.length})`, keyword: 'maxItems' };
  if (file.min !== null && sent.length < file.min)
    return {
      message: `must have at least ${file.min} file${file.min === 1 ? '' : 's'} (got ${sent.length})`,
      keyword: 'minItems',
    };
  if (file.max !== null && sent.length > file.max)
    return {
      message: `must have at most ${file.max} file${file.max === 1 ? '' : 's'} (got ${sent.length})`,
      keyword: 'maxItems',
    };
  if (file.media.length > 0) {
    const wrong = sent.find((f) => !file.media.some((m) => mediaMatches(m, f.mimetype)));
    if (wrong !== undefined)
      return {
        message: `must be ${file.media.join(' or ')} (got ${wrong.mimetype || 'no type'} in ${JSON.stringify(wrong.filename)})`,
        keyword: 'contentMediaType',
      };
  }
  return null;
}

/** A field's value as ajv checks it (a string, a list, parsed JSON), or what is wrong with it. */
function fieldValue(field: FieldContract, raw: string | string[]): { value: unknown } | { problem: Issue } {
  if (!field.array && Array.isArray(raw))
    return { problem: { message: `must be sent once (got ${raw.length} values)`, keyword: 'maxItems' } };
  const list = Array.isArray(raw) ? raw : [raw];
  // A copy: ajv coerces the values it checks in place, and the handler reads the strings as sent.
  if (!field.json) return { value: field.array ? [...list] : raw };
  const parsed: unknown[] = [];
  for (const text of list) {
    try {
      parsed.push(JSON.parse(text));
    } catch {
      return { problem: { message: 'must be JSON', keyword: 'contentMediaType' } };
    }
  }
  return { value: field.array ? parsed : parsed[0] };
}

/** `image/png` against a declared `image/png` or `image/*` (parameters and case ignored). */
function mediaMatches(declared: string, actual: string): boolean {
  const type = actual.split(';')[0]?.trim().toLowerCase() ?? '';
  return declared.endsWith('/*') ? type.startsWith(declared.slice(0, -1)) : type === declared;
}

/**
 * The guard of a form streamed to the handler (`req.parts()`): each part checked as it is taken
 * ({@link partProblem}: `early` turns the problem into the error the loop throws), then the whole form
 * once its last part is ({@link checkForm}: `finish` gives the error, if any).
 */
export function streamedFormGuard(
  form: FormContract,
  early: (problem: FormProblem) => HttpError,
  finish: (reading: FormReading) => HttpError | null,
): PartGuard {
  const files: SentFile[] = [];
  const fields: Record<string, string | string[]> = Object.create(null);
  return {
    part(part) {
      const file = part.type === 'file' ? part : null;
      const value = part.type === 'field' ? part.value : '';
      const problem = partProblem(form, { fieldname: part.fieldname, file, value }, files, fields);
      if (problem !== null) return early(problem);
      if (file !== null) files.push(file);
      else {
        const previous = fields[part.fieldname];
        if (previous === undefined) fields[part.fieldname] = value;
        else if (Array.isArray(previous)) previous.push(value);
        else fields[part.fieldname] = [previous, value];
      }
      return null;
    },
    end: () => finish(checkForm(form, files, fields)),
  };
}
