/** Input checks of the products API: each returns the changes, or a message for a 400. */
import type { ProductInput } from './catalog.js';

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string; fields: string[] };

const REQUIRED = ['name', 'price', 'categoryId'] as const;

/** A body for `POST /api/products`: name, price (> 0) and categoryId required. */
export function checkCreate(body: unknown): Checked<ProductInput> {
  if (!isObject(body)) return { ok: false, error: 'The body must be a JSON object', fields: [] };
  const missing = REQUIRED.filter(
    (field) => body[field] === undefined || body[field] === null || body[field] === '',
  );
  if (missing.length > 0)
    return { ok: false, error: `Missing required fields: ${missing.join(', ')}`, fields: missing };
  const checked = checkFields(body);
  if (!checked.ok) return checked;
  return { ok: true, value: checked.value as ProductInput };
}

/** A body for `PUT /api/products/:id`: every field optional, same rules. */
export function checkUpdate(body: unknown): Checked<Partial<ProductInput>> {
  if (!isObject(body)) return { ok: false, error: 'The body must be a JSON object', fields: [] };
  return checkFields(body);
}

function checkFields(body: Record<string, unknown>): Checked<Partial<ProductInput>> {
  const out: Partial<ProductInput> = {};
  const fail = (field: string, error: string): Checked<Partial<ProductInput>> => ({
    ok: false,
    error,
    fields: [field],
  });
  if (body.name !== undefined) {
    if (typeof body.name !== 'string' || body.name.trim() === '')
      return fail('name', 'name must be a non-empty string');
    out.name = body.name;
  }
  if (body.description !== undefined) {
    if (typeof body.description !== 'string') return fail('description', 'description must be a string');
    out.description = body.description;
  }
  if (body.price !== undefined) {
    if (typeof body.price !== 'number' || !Number.isFinite(body.price) || body.price <= 0) {
      return fail('price', 'price must be a number greater than 0');
    }
    out.price = body.price;
  }
  if (body.categoryId !== undefined) {
    if (!Number.isInteger(body.categoryId) || (body.categoryId as number) < 1) {
      return fail('categoryId', 'categoryId must be a positive integer');
    }
    out.categoryId = body.categoryId as number;
  }
  if (body.tags !== undefined) {
    if (!Array.isArray(body.tags) || !body.tags.every((t) => typeof t === 'string')) {
      return fail('tags', 'tags must be an array of strings');
    }
    out.tags = body.tags as string[];
  }
  return { ok: true, value: out };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `?page=` / `?limit=`: positive integers (limit at most 100). */
export function positiveInt(raw: string, max = Number.MAX_SAFE_INTEGER): number | null {
  if (!/^\d+$/.test(raw)) return null;
  const value = Number(raw);
  return value >= 1 && value <= max ? value : null;
}
