/**
 * The products API's error bodies. The application validates each request against the annotations in
 * `app.ts` (types, required fields, bounds, defaults) before a handler runs, so nothing is checked by
 * hand; the API group's `onError` ({@link productsErrors}) answers every refusal in the bodies the
 * products API documents.
 */
import {
  type ErrorHandler,
  HttpError,
  RequestValidationError,
  type Response,
  type ValidateOptions,
} from '../../src/app/index.js';
import { REFERENCE_VALIDATION } from '../validation.js';

/** The products API's `ValidationError`: `{ error, code: 400, fields }`, the fields named. */
export class ProductValidationError extends HttpError<{ error: string; code: number; fields: string[] }> {
  constructor(
    message: string,
    readonly fields: string[],
  ) {
    super(400, message);
  }

  override toJSON(): { error: string; code: number; fields: string[] } {
    return { error: this.message, code: this.status, fields: this.fields };
  }
}

/**
 * The products API's errors, whoever raised them: the framework's validation 400 as `ValidationError`
 * `{ error, code, fields }` for the body (the fields named), `Error` `{ error, code }` for the query and
 * path; an `HttpError` (the controller's 404s, a body too large) as its own body; anything else a bare 500.
 */
export const productsErrors: ErrorHandler = (error, _req, res): Response => {
  if (error instanceof RequestValidationError) {
    const body = error.details.filter((d) => d.in === 'body');
    if (body.length === 0) return res.status(400).json({ error: error.message, code: 400 });
    const fields = [...new Set(body.map((d) => d.name.split('/')[0] ?? ''))];
    return res.status(400).json({ error: error.message, code: 400, fields });
  }
  if (error instanceof HttpError) {
    for (const [name, value] of Object.entries(error.headers)) res.header(name, value);
    return res.status(error.status).json(error.toJSON());
  }
  return res.status(500).json({ error: 'Internal Server Error', code: 500 });
};

/** How the products routes validate, whatever the application hosting them says. */
export const PRODUCTS_VALIDATION: ValidateOptions = REFERENCE_VALIDATION;
