/**
 * What the framework itself answers for an operation, written into its responses so that the document
 * says everything a client can get (an API fuzzer such as schemathesis checks every status against it):
 *
 * - **400** from validation, when the route validates and has something to check: the application's
 *   validation refusal (`onInvalid: { status, schema }`, else its error shape, else `{ error, code,
 *   details }`); and 400 for a JSON body that does not parse, wherever a JSON body is declared.
 * - **404** when a path parameter is constrained (`:id<int>`: `/tasks/abc` matches no route) or bound
 *   (`app.bind`: the resolver found nothing).
 * - **413** and **415** wherever a request body is declared: the body limit, and a body of another media
 *   type.
 *
 * Each in the application's error shape (`onError(handler, { schema })`, `problemDetails`), else
 * `{ error, code }`. A status the annotations already document (exactly, or by its range `4XX`) is kept as
 * written.
 */
import { VALIDATION_PROBLEM_SCHEMA } from './contract.js';
import type { JsonSchema } from './grammar/type-expr.js';
import type { RegisteredRoute } from './types.js';

/** How a route's error answers look, as `DocumentSource.errorDocument` says. */
export type ErrorDocument = { contentType: string; schema: object };

/** The validation refusal the application declares (`onInvalid: { status, schema }`). */
export type InvalidDocument = { status: number; contentType: string; schema?: object };

/** `{ error, code }`: every refusal of the framework, unless the application chose another shape. */
export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error', 'code'],
  properties: {
    error: { type: 'string', description: 'What went wrong, in one sentence' },
    code: { type: 'integer', description: 'The HTTP status' },
  },
};

type Responses = Record<string, unknown>;

/** The validation refusal: its status and body as the application declares them. */
export function documentValidation(
  operation: Record<string, unknown>,
  errors: ErrorDocument | null,
  invalid: InvalidDocument | null,
): void {
  const description = 'The request does not match the parameters or the body this operation declares';
  if (invalid !== null) {
    // A declared status without a schema: the body is the application's own, undocumented.
    const content =
      invalid.schema === undefined
        ? {}
        : { content: { [invalid.contentType]: { schema: structuredClone(invalid.schema) } } };
    addResponse(operation, String(invalid.status), { description, ...content });
    return;
  }
  const schema = errors?.schema ?? VALIDATION_PROBLEM_SCHEMA;
  addResponse(operation, '400', {
    description,
    content: { [errors?.contentType ?? 'application/json']: { schema: structuredClone(schema) } },
  });
}

/** The refusals the router and the body reader give for this operation, in the application's error shape. */
export function documentFrameworkAnswers(
  operation: Record<string, unknown>,
  route: RegisteredRoute,
  errors: ErrorDocument | null,
): void {
  const refusal = (description: string) => ({
    description,
    content: {
      [errors?.contentType ?? 'application/json']: {
        schema: structuredClone(errors?.schema ?? ERROR_SCHEMA),
      },
    },
  });
  const body = operation.requestBody as { content?: Record<string, unknown> } | undefined;
  if (body !== undefined) {
    if (body.content?.['application/json'] !== undefined)
      addResponse(operation, '400', refusal('The body is not valid JSON'));
    addResponse(operation, '413', refusal('The body is larger than the application accepts'));
    addResponse(operation, '415', refusal('The body is not of a media type this operation reads'));
  }
  const constrained = route.info.params.some((p) => p.regex !== null);
  const bound = (route.bound ?? []).length > 0;
  if (constrained || bound)
    addResponse(
      operation,
      '404',
      refusal(
        bound && constrained
          ? 'No such resource, or a path parameter is not of its type'
          : bound
            ? 'No such resource'
            : 'A path parameter is not of its type',
      ),
    );
}

/**
 * Adds `status` to the operation's responses in status order, unless it is documented already, exactly
 * or by its range. The placeholder `default` of an operation without `@response` lines stays last.
 */
function addResponse(operation: Record<string, unknown>, status: string, response: unknown): void {
  const responses = operation.responses as Responses;
  if (responses[status] !== undefined || responses[`${status[0]}XX`] !== undefined) return;
  const ordered: Responses = {};
  let placed = false;
  for (const [written, value] of Object.entries(responses)) {
    if (!placed && precedes(status, written)) {
      ordered[status] = response;
      placed = true;
    }
    ordered[written] = value;
  }
  if (!placed) ordered[status] = response;
  operation.responses = ordered;
}

/** Whether a specific status goes before `written`: a later code, a range (`4XX`) or `default`. */
function precedes(status: string, written: string): boolean {
  return written === 'default' || /^[1-5]XX$/.test(written) || Number(written) > Number(status);
}
