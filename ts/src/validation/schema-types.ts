/**
 * The types of code-first contracts: a route's `schema` option (`params`, `query`, `headers`, `cookies`,
 * `body`, `response` per status), each part a Standard Schema (zod 4, valibot, arktype, …) or a plain JSON
 * Schema object (TypeBox builds them), and the values `req.valid(part)` gives for them.
 *
 * A Standard Schema's output type is its own. A JSON Schema's is read from the schema's literal type (a
 * TypeBox schema, or an object written `as const`): `type`, `properties`/`required`, `items`, `enum`,
 * `const`, `anyOf`/`oneOf`, and `nullable`/`type: [..., 'null']`. For TypeBox's exact `Static`, declare it
 * in {@link JsonSchemaOutput}.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Nothing } from '../core/context.js';

/**
 * A JSON Schema object (2020-12), as ajv reads it: any object (TypeBox's schemas carry no index signature),
 * told from a Standard Schema by its lack of `~standard`.
 */
export type JsonSchema = object;

/** What a route's contract part may be: a Standard Schema, or a JSON Schema object. */
export type ContractSchema = StandardSchemaV1 | JsonSchema;

/** The contract a route declares in code. */
export interface RouteSchemas {
  /** The path parameters (strings, coerced by a schema that says so). */
  params?: ContractSchema;
  /** The query string, one key per name; a name given twice is an array. */
  query?: ContractSchema;
  /** The request headers, by lower-case name. */
  headers?: ContractSchema;
  /** The request cookies, by name. */
  cookies?: ContractSchema;
  /** The parsed body (JSON, or a form's fields). */
  body?: ContractSchema;
  /** The answers, by status (`200`, `201`, `'4XX'`, `'default'`): documented, and checked with `validate: { responses: true }`. */
  response?: { readonly [status: string]: ContractSchema };
}

/**
 * Declares how a JSON Schema's type is read, for a library whose schemas need their own type function
 * (as Fastify's type providers do): give `output` in terms of `this['schema']`.
 *
 * @example
 * import type { Static, TSchema } from 'typebox';
 * declare module 'arbor-router' {
 *   interface JsonSchemaOutput { output: this['schema'] extends TSchema ? Static<this['schema']> : unknown }
 * }
 */
export interface JsonSchemaOutput {
  /** The schema whose type is asked for. */
  schema: unknown;
}

/** The type of the value `schema` validates (and coerces) to. */
export type OutputOf<S> =
  S extends StandardSchemaV1<unknown, infer O>
    ? O
    : JsonSchemaOutput extends { output: unknown }
      ? (JsonSchemaOutput & { schema: S })['output']
      : FromJsonSchema<S>;

/** `req.valid()`'s types for a route's schemas: one entry per part it declares. */
export type ValidOfSchemas<S> = S extends RouteSchemas
  ? { [P in keyof S & ('params' | 'query' | 'headers' | 'cookies' | 'body')]: OutputOf<S[P]> }
  : Nothing;

/** A JSON Schema's TypeScript type, read from its literal type. */
export type FromJsonSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer V)[] }
    ? V
    : S extends { readonly anyOf: readonly (infer A)[] }
      ? FromJsonSchema<A>
      : S extends { readonly oneOf: readonly (infer A)[] }
        ? FromJsonSchema<A>
        : S extends { readonly nullable: true }
          ? FromType<S> | null
          : FromType<S>;

type FromType<S> = S extends { readonly type: infer T }
  ? T extends readonly (infer Each)[]
    ? TypeNamed<Each, S>
    : TypeNamed<T, S>
  : unknown;

type TypeNamed<T, S> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer I }
            ? FromJsonSchema<I>[]
            : unknown[]
          : T extends 'object'
            ? FromObject<S>
            : unknown;

type FromObject<S> = S extends { readonly properties: infer P }
  ? Flat<
      { -readonly [K in keyof P & RequiredOf<S>]: FromJsonSchema<P[K]> } & {
        -readonly [K in Exclude<keyof P, RequiredOf<S>>]?: FromJsonSchema<P[K]>;
      }
    >
  : Record<string, unknown>;

type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R & PropertyKey : never;

type Flat<T> = { [K in keyof T]: T[K] };
