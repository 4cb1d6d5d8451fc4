/**
 * What the products API checks by hand: only what its annotations cannot say. The application validates
 * each request against the annotations in `app.ts` first (types, required fields, an object body), so
 * these functions see typed values. Both layers throw; the API group's `onError` ({@link productsErrors})
 * answers in the bodies the products API documents.
 */
import {
  type ErrorHandler,
  HttpError,
  RequestValidationError,
  type Response,
  type ValidateOptions,
} from '../../src/app/index.js';
import { REFERENCE_VALIDATION } from '../validation.js';
import type { ProductInput } from './catalog.js';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string; fields: string[] };

/** A body for `POST /api/products` (validated: name, price and categoryId present and typed). */
export function checkCreate(body: ProductInput): Checked<ProductInput> {
  // An empty name counts as missing, not as invalid (the documented `ValidationError` names it).
  if (body.name === '') return { ok: false, error: 'Missing required fields: name', fields: ['name'] };
  const checked = checkFields(body);
  if (!checked.ok) return checked;
  return { ok: true, value: checked.value as ProductInput };
}

/** A body for `PUT /api/products/:id`: every field optional, same rules. */
export function checkUpdate(body: Partial<ProductInput>): Checked<Partial<ProductInput>> {
  return checkFields(body);
}

/** The bounds, and only the known fields (a body may carry others). */
function checkFields(body: Partial<ProductInput>): Checked<Partial<ProductInput>> {
  const fail = (field: string, error: string): Checked<Partial<ProductInput>> => ({
    ok: false,
    error,
    fields: [field],
  });
  if (body.name !== undefined && body.name.trim() === '')
    return fail('name', 'name must be a non-empty string');
  if (body.price !== undefined && !(body.price > 0))
    return fail('price', 'price must be a number greater than 0');
  if (body.categoryId !== undefined && body.categoryId < 1)
    return fail('categoryId', 'categoryId must be a positive integer');
  const out: Partial<ProductInput> = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.description !== undefined) out.description = body.description;
  if (body.price !== undefined) out.price = body.price;
  if (body.categoryId !== undefined) out.categoryId = body.categoryId;
  if (body.tags !== undefined) out.tags = body.tags;
  return { ok: true, value: out };
}

/** `?page=` / `?limit=` (validated integers): at least 1, at most `max`. */
export function positiveInt(raw: string, max = Number.MAX_SAFE_INTEGER): number | null {
  const value = Number(raw);
  return value >= 1 && value <= max ? value : null;
}

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

/** Throws the `ValidationError` of a check that failed; the checked value otherwise. */
export function checked<T>(result: Checked<T>): T {
  if (!result.ok) throw new ProductValidationError(result.error, result.fields);
  return result.value;
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
