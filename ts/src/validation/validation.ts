/**
 * Requests (and, on demand, responses) checked against the route's annotations — the same `@param` and
 * `@response` lines that write its OpenAPI operation (`openapi/contract.ts` turns them into JSON Schema;
 * ajv compiles each route's schemas once, at start-up). Nothing here is a hand-written type check.
 *
 * Parameters arrive as strings, so they are checked with ajv's type coercion (`'42'` is an integer,
 * `'true'` a boolean, `'4.5'` not an integer); the coerced values, with the annotations' defaults applied,
 * are what `req.valid(part)` gives (`req.query()` still gives the strings). The JSON body is checked as
 * sent, without coercion, its defaults applied.
 *
 * @example
 * const app = new Application({ validate: true });            // every annotated route
 * app.post('/tasks', store).validate({ responses: 'throw' }); // or one route, responses too
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { HttpError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Request } from '../core/request.js';
import type { Response } from '../core/response.js';
import type { ParamInfo } from '../engine/engine.js';
import {
  type CheckedLocation,
  type ParamContract,
  type RouteContract,
  routeContract,
} from '../openapi/contract.js';
import type { JsonSchema } from '../openapi/grammar/type-expr.js';
import type { OperationDoc } from '../openapi/types.js';
import { type FormReading, fieldsSchema, readForm, streamedFormGuard } from './form-check.js';
import { AjvValidators, type ValidatorSource } from './validators.js';

/** `validate` in the configuration or on a route. */
export type ValidateConfig = boolean | ValidateOptions;

/**
 * What `validate` checks against the route's documented contract: requests before the handler, and
 * responses after it.
 *
 * @example
 * const app = new Application({ validate: { requests: true, responses: 'log' } });
 */
export interface ValidateOptions {
  /** Check requests before the handler (default true). */
  requests?: boolean;
  /**
   * Check responses against the documented schema of their status: `'log'` reports through the logger
   * (with the route), `'throw'` turns the response into a 500 whose log line says why, `true` throws under
   * test (`NODE_ENV=test`, which vitest and jest set) and logs otherwise. Default false.
   */
  responses?: boolean | 'log' | 'throw';
  /**
   * The answer to a request that breaks the contract, when the default 400 `{ error, code, details }`
   * is not the API's error body (Fastify's `schemaErrorFormatter` plays the same part). A function
   * answers; an {@link InvalidAnswer} also tells the OpenAPI document the status and body it answers
   * with (the exporter cannot read a `Response`), which a bare function leaves documented as the 400.
   *
   * @example { onInvalid: (error) => new Response().status(400).json({ message: error.message }) }
   * @example { onInvalid: { status: 422, schema: ErrorsSchema, handler: (error) => new Response().status(422).json(toErrors(error)) } }
   */
  onInvalid?: InvalidHandler | InvalidAnswer;
}

/** Answers a request that breaks its route's contract. */
export type InvalidHandler = (error: RequestValidationError, req: Request) => Response;

/** An `onInvalid` answer with what it answers, for the OpenAPI document. */
export interface InvalidAnswer {
  /** Builds the answer. */
  handler: InvalidHandler;
  /** The status the handler answers with: documented in place of the 400. */
  status: number;
  /** The JSON Schema of the body it answers with (OpenAPI 3.1's dialect). */
  schema?: object;
  /** The media type of that body; default `application/json`. */
  contentType?: string;
}

/** The function of an `onInvalid` option, whichever form it was given in. */
export function invalidHandler(onInvalid: ValidateOptions['onInvalid']): InvalidHandler | undefined {
  return typeof onInvalid === 'object' ? onInvalid.handler : onInvalid;
}

/** One violation: where, which parameter or body field, and what is wrong. */
export interface ValidationDetail {
  in: CheckedLocation | 'body';
  /** The parameter, or the body field as a path (`tags/0`); `''` for the body itself. */
  name: string;
  /** The same place as a JSON Pointer (RFC 6901) into the part: `/tags/0`, `/limit`; `''` for the body itself. */
  pointer: string;
  /**
   * What was broken: the JSON Schema keyword (`required`, `minLength`, `type`, `format`, …) for doc comments
   * and JSON Schema contracts; for a Standard Schema, the library's own issue code when it gives one
   * (zod's `too_small`), else `schema`.
   */
  keyword: string;
  message: string;
}

/** A detail at `segments` (unescaped keys) of the part `location`. */
export function detailAt(
  location: ValidationDetail['in'],
  segments: readonly string[],
  keyword: string,
  message: string,
): ValidationDetail {
  const pointer = segments.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  return { in: location, name: segments.join('/'), pointer, keyword, message };
}

/** The 400 a request that breaks its route's contract gets: `{ error, code: 400, details }`. */
export class RequestValidationError extends HttpError<{
  error: string;
  code: number;
  details: ValidationDetail[];
}> {
  readonly details: ValidationDetail[];

  constructor(details: ValidationDetail[]) {
    super(400, summary(details));
    this.name = 'RequestValidationError';
    this.details = details;
  }

  override toJSON(): { error: string; code: number; details: ValidationDetail[] } {
    return { error: this.message, code: this.status, details: this.details };
  }

  /** In a problem document (`problemDetails`), the violations are its `errors` member. */
  override problemMembers(): Record<string, unknown> {
    return { errors: this.details };
  }
}

/** A response that does not match its documented schema (`validate: { responses }`). */
export class ResponseValidationError extends Error {
  readonly code = 'RESPONSE_INVALID';
  readonly route: string;
  readonly status: number;
  readonly details: ValidationDetail[];

  constructor(route: string, status: number, details: ValidationDetail[], reason?: string) {
    super(
      `${route} answered ${status}, which ${reason ?? `does not match its documented schema: ${details.map((d) => `${d.name || '(body)'} ${d.message}`).join('; ')}`}`,
    );
    this.name = 'ResponseValidationError';
    this.route = route;
    this.status = status;
    this.details = details;
  }
}

function summary(details: ValidationDetail[]): string {
  if (details.length > 0 && details.every((d) => d.in === 'body' && d.message === 'is required'))
    return `Missing required fields: ${details.map((d) => d.name).join(', ')}`;
  if (details.some((d) => d.in === 'body' && d.name === '' && d.message === 'must be object'))
    return 'The body must be a JSON object';
  return `Invalid request: ${details.map((d) => `${d.in} ${d.name ? `${d.name} ` : ''}${d.message}`).join('; ')}`;
}

/** What the kernel runs for one route; `null` when the route has nothing to check. */
export interface RouteValidation {
  /**
   * Throws {@link RequestValidationError}, or answers with `onInvalid`'s response; the body has been read.
   * A promise when a code-first schema validates asynchronously.
   */
  checkRequest: ((req: Request) => Response | null | Promise<Response | null>) | null;
  /** Throws or logs a {@link ResponseValidationError}. */
  checkResponse: ((res: Response) => Response) | null;
}

/**
 * The compiler shared by an application's routes. Its functions come from `validators`: ajv compiling
 * each schema now, or the functions `arbor contracts:export` compiled ahead of time.
 */
export class ContractCompiler {
  readonly #definitions: Record<string, JsonSchema>;
  readonly #logger: Logger;
  readonly #validators: ValidatorSource;

  constructor(
    definitions: Record<string, JsonSchema>,
    logger: Logger,
    validators: ValidatorSource = new AjvValidators(),
  ) {
    this.#definitions = definitions;
    this.#logger = logger;
    this.#validators = validators;
  }

  /** Compiles one route's checks (`label` is `'GET /tasks/:id'`, for reports). */
  compile(
    label: string,
    doc: OperationDoc | undefined,
    engineParams: readonly ParamInfo[],
    options: ValidateOptions,
  ): RouteValidation | null {
    if (doc === undefined) return null;
    const contract = routeContract(doc, engineParams);
    const checkRequest =
      options.requests === false
        ? null
        : this.#requestCheck(label, contract, invalidHandler(options.onInvalid));
    const mode = responseMode(options.responses);
    const checkResponse = mode === null ? null : this.#responseCheck(label, contract, mode);
    return checkRequest === null && checkResponse === null ? null : { checkRequest, checkResponse };
  }

  #requestCheck(
    label: string,
    contract: RouteContract,
    onInvalid: InvalidHandler | undefined,
  ): ((req: Request) => Response | null) | null {
    const params = contract.params;
    const validateParams =
      params.length === 0 ? null : this.#validators.validator('params', paramsSchema(params), label);
    const validateBody =
      contract.body === null
        ? null
        : this.#validators.validator('json', this.#withDefinitions(contract.body), label);
    const form = contract.form;
    // Form fields arrive as strings, like parameters: coerced to their declared types.
    const validateFields =
      form === null || form.fields.length === 0
        ? null
        : this.#validators.validator('params', this.#withDefinitions(fieldsSchema(form.fields)), label);
    if (validateParams === null && validateBody === null && form === null) return null;
    return (req) => {
      let details: ValidationDetail[] | null = null;
      if (validateParams !== null) {
        const input = paramsInput(params, req);
        if (validateParams(input)) {
          // Coerced by ajv (`'20'` → 20), defaults applied: what `req.valid(part)` reads.
          req.setValid('params', input.path);
          req.setValid('query', input.query);
          req.setValid('headers', input.header);
        } else details = toDetails(validateParams.errors, null);
      }
      if (validateBody !== null) {
        const body = req.json<unknown>();
        if (validateBody(body)) req.setValid('body', body);
        else details = [...(details ?? []), ...toDetails(validateBody.errors, 'body')];
      }
      const parts = form === null ? undefined : req.streamedParts;
      if (form !== null && parts !== undefined) {
        // A form streamed to the handler is checked as its parts arrive: the loop over `req.parts()`
        // throws the first problem (before the handler reads a file it should not get), and the whole
        // form's once the last part is in.
        parts.guard(
          streamedFormGuard(
            form,
            (problem) =>
              new RequestValidationError([
                detailAt('body', [problem.name], problem.keyword, problem.message),
              ]),
            (reading) => {
              const found = formDetails(reading, validateFields);
              return found.length === 0 ? null : new RequestValidationError(found);
            },
          ),
        );
      } else if (form !== null) {
        const reading = readForm(form, req);
        const found = formDetails(reading, validateFields);
        if (found.length > 0) details = [...(details ?? []), ...found];
        // The plain fields as checked: coerced to their types, defaults applied (the files: `req.file()`).
        else req.setValid('body', reading.values);
      }
      if (details === null) return null;
      const error = new RequestValidationError(details);
      if (onInvalid === undefined) throw error;
      return onInvalid(error, req);
    };
  }

  #responseCheck(
    label: string,
    contract: RouteContract,
    mode: 'log' | 'throw',
  ): ((res: Response) => Response) | null {
    const documented = Object.keys(contract.responses);
    if (documented.length === 0) return null;
    const checks = new Map<string, { validate: ValidateFunction | null; otherMedia: string[] }>();
    for (const [status, { schema, otherMedia }] of Object.entries(contract.responses)) {
      const validate =
        schema === null ? null : this.#validators.validator('json', this.#withDefinitions(schema), label);
      checks.set(status, { validate, otherMedia });
    }
    const successes = documented.some((s) => s.startsWith('2'));
    return (res) => {
      const status = res.getStatus();
      const key = String(status);
      // The status, its range (`4XX`), then `default`; `undefined`: not documented.
      const check = checks.get(key) ?? checks.get(`${key[0]}XX`) ?? checks.get('default');
      let problem: ResponseValidationError | null = null;
      if (check === undefined) {
        // Errors the framework answers (413, 415, a bound 404, …) are not the operation's to document;
        // a success the operation does not list is.
        if (successes && key.startsWith('2'))
          problem = new ResponseValidationError(label, status, [], 'is not a documented status');
      } else if (check.validate !== null && status !== 204 && status !== 304) {
        problem = bodyProblem(label, status, check.validate, responseJson(res, check.otherMedia));
      }
      if (problem === null) return res;
      if (mode === 'throw') throw problem;
      this.#logger.error({ err: problem, operation: label, status }, problem.message);
      return res;
    };
  }

  /**
   * A code-first part's JSON Schema as a check (`coerce`: strings to the declared types, as parameters
   * are; the body is checked as sent). Its details name the field as a path within the part.
   */
  jsonSchemaCheck(
    label: string,
    schema: JsonSchema,
    coerce: boolean,
  ): (value: unknown) => { ok: true; value: unknown } | { ok: false; details: ValidationDetail[] } {
    const validate = this.#validators.validator(coerce ? 'params' : 'json', schema, label);
    return (value) =>
      validate(value) ? { ok: true, value } : { ok: false, details: toDetails(validate.errors, 'body') };
  }

  #withDefinitions(schema: JsonSchema): JsonSchema {
    return { ...schema, definitions: this.#definitions };
  }
}

function responseMode(option: ValidateOptions['responses']): 'log' | 'throw' | null {
  if (option === undefined || option === false) return null;
  if (option === true) return process.env.NODE_ENV === 'test' ? 'throw' : 'log';
  return option;
}

/** `true` → requests only; `false`/absent → `null`; an object as given. */
export function validateOptions(config: ValidateConfig | undefined): ValidateOptions | null {
  if (config === undefined || config === false) return null;
  return config === true ? {} : config;
}

function paramsSchema(params: readonly ParamContract[]): JsonSchema {
  const locations: Record<
    string,
    { type: 'object'; properties: Record<string, JsonSchema>; required: string[] }
  > = {};
  for (const p of params) {
    const location = locations[p.in] ?? { type: 'object', properties: {}, required: [] };
    locations[p.in] = location;
    location.properties[p.name] = p.schema;
    if (p.required) location.required.push(p.name);
  }
  return { type: 'object', properties: locations };
}

/** The declared parameters' values as ajv sees them: strings, or lists for array parameters. */
function paramsInput(
  params: readonly ParamContract[],
  req: Request,
): Record<string, Record<string, unknown>> {
  const input: Record<string, Record<string, unknown>> = { path: {}, query: {}, header: {} };
  for (const p of params) {
    let value: unknown;
    if (p.in === 'path') value = req.param(p.name);
    else if (p.in === 'query') {
      if (p.array) {
        const all = req.queryAll(p.name);
        value = all.length === 0 ? undefined : all;
      } else value = req.query(p.name);
    } else {
      const header = req.header(p.name);
      value = p.array && header !== undefined ? header.split(',').map((v) => v.trim()) : header;
    }
    if (value !== undefined) (input[p.in] as Record<string, unknown>)[p.name] = value;
  }
  return input;
}

/** A form's problems, and its plain fields' against their types (`validateFields`), as details. */
function formDetails(
  { problems, values }: FormReading,
  validateFields: ValidateFunction | null,
): ValidationDetail[] {
  const found: ValidationDetail[] = problems.map((p) => detailAt('body', [p.name], p.keyword, p.message));
  if (validateFields !== null && !validateFields(values)) {
    // A field already found wrong (sent as a file, sent twice) is not also "required" or mistyped.
    const named = new Set(problems.map((p) => p.name));
    for (const d of toDetails(validateFields.errors, 'body'))
      if (!named.has(d.name.split('/')[0] ?? '')) found.push(d);
  }
  return found;
}

/** ajv's errors as details. `body`: the instance is the body; `null`: `{ path, query, header }`. */
function toDetails(errors: ErrorObject[] | null | undefined, body: 'body' | null): ValidationDetail[] {
  const details: ValidationDetail[] = [];
  for (const error of errors ?? []) {
    const segments = error.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const location = body ?? (segments.shift() as CheckedLocation);
    const missing =
      error.keyword === 'required' ? (error.params as { missingProperty: string }).missingProperty : null;
    if (missing !== null) segments.push(missing);
    const message = missing !== null ? 'is required' : (error.message ?? 'is invalid');
    const detail = detailAt(location, segments, error.keyword, message);
    if (!details.some((d) => d.in === location && d.name === detail.name && d.message === message))
      details.push(detail);
  }
  return details;
}

function bodyProblem(
  label: string,
  status: number,
  validate: ValidateFunction,
  body: unknown,
): ResponseValidationError | null {
  if (body === UNCHECKED) return null;
  if (body === NOT_JSON)
    return new ResponseValidationError(label, status, [], 'has a documented schema but no JSON body');
  return validate(body)
    ? null
    : new ResponseValidationError(label, status, toDetails(validate.errors, 'body'));
}

const NOT_JSON = Symbol('not JSON');
const UNCHECKED = Symbol('unchecked');

/**
 * The response's JSON body; {@link UNCHECKED} for a body validation cannot or should not read: a streamed
 * one (`res.sse()`, `res.sendFile()`, `res.send(readable)`: neither a string nor bytes, and not in
 * memory), or one sent as a non-JSON media type the status documents (`otherMedia`).
 */
function responseJson(res: Response, otherMedia: readonly string[]): unknown {
  // `unknown`: the body may be a kind this module does not know (a stream); only text and bytes are read.
  const body: unknown = res.getBody();
  if (body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) return UNCHECKED;
  const contentType = String(res.getHeader('Content-Type') ?? '');
  const media = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (otherMedia.includes(media)) return UNCHECKED;
  if (body === null || !/[/+]json\b/i.test(contentType)) return NOT_JSON;
  try {
    return JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body));
  } catch {
    return NOT_JSON;
  }
}
