/**
 * A route's code-first contract (`schema` option) in its operation: each part's JSON Schema becomes the
 * parameters of its location, the JSON request body, or the JSON content of a response. The application
 * converts the schemas (`DocumentSource.codeSchemas`); this module only writes them.
 */
import type { CodeContractDocument } from './types.js';

const LOCATION: Partial<Record<keyof CodeContractDocument, string>> = {
  params: 'path',
  query: 'query',
  headers: 'header',
  cookies: 'cookie',
};

/** Writes `schemas` into `operation`; returns whether it declares any part of the request. */
export function documentCode(operation: Record<string, unknown>, schemas: CodeContractDocument): boolean {
  let requestParts = false;
  const parameters = (operation.parameters as Record<string, unknown>[] | undefined) ?? [];
  for (const [part, location] of Object.entries(LOCATION) as [keyof CodeContractDocument, string][]) {
    const json = schemas[part] as Record<string, unknown> | undefined;
    if (json === undefined) continue;
    requestParts = true;
    const properties = (json.properties ?? {}) as Record<string, Record<string, unknown>>;
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries(properties)) {
      const { description, ...rest } = property;
      const entry = {
        name,
        in: location,
        required: location === 'path' || required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
      };
      const at = parameters.findIndex((p) => p.name === name && p.in === location);
      if (at === -1) parameters.push(entry);
      else parameters[at] = entry;
    }
  }
  if (parameters.length > 0) operation.parameters = parameters;
  if (schemas.body !== undefined) {
    requestParts = true;
    operation.requestBody = {
      required: true,
      content: { 'application/json': { schema: schemas.body } },
    };
  }
  if (schemas.response !== undefined) {
    const documented = operation.responses as Record<string, Record<string, unknown>>;
    // The placeholder of an operation without @response lines says nothing a schema does not.
    const responses: Record<string, unknown> =
      Object.keys(documented).length === 1 && documented.default !== undefined ? {} : { ...documented };
    for (const [status, schema] of Object.entries(schemas.response)) {
      const existing = documented[status];
      responses[status] = {
        description: (existing?.description as string | undefined) ?? `The ${status} answer`,
        content: { 'application/json': { schema } },
      };
    }
    operation.responses = responses;
  }
  return requestParts;
}
