/**
 * The document side of `@component`: an operation is built with its referenced parameters, responses and
 * body written in place (so that the framework's own answers can be added beside them), then each is moved
 * to `components.parameters`, `components.responses` or `components.requestBodies` and replaced by a
 * `$ref`. What an operation adds of its own to a referenced part (an `@example response 404`, `.body.`
 * fields beside `@body #Name`) keeps that part in place, since the component cannot carry it.
 */
import type { OperationDoc } from './types.js';

type Components = {
  parameters: Record<string, unknown>;
  responses: Record<string, unknown>;
  requestBodies: Record<string, unknown>;
};

/** Collects the components the operations refer to, for `components` in the document. */
export class ComponentRefs {
  readonly #found: Components = { parameters: {}, responses: {}, requestBodies: {} };

  /** Replaces the operation's referenced parts by `$ref`s, keeping their definitions. */
  refer(operation: Record<string, unknown>, doc: OperationDoc | undefined): void {
    if (doc === undefined) return;
    const parameters = operation.parameters as Record<string, unknown>[] | undefined;
    for (const p of doc.params) {
      if (p.ref === undefined || p.in === 'path' || p.in === 'body' || p.in === 'formData') continue;
      const index = parameters?.findIndex((q) => q.name === p.name && q.in === p.in) ?? -1;
      if (parameters === undefined || index === -1) continue;
      this.#found.parameters[p.ref] ??= parameters[index];
      parameters[index] = { $ref: `#/components/parameters/${p.ref}` };
    }
    const responses = operation.responses as Record<string, unknown>;
    for (const r of doc.responses) {
      if (r.ref === undefined || responses[r.status] === undefined) continue;
      if (doc.responseExamples[r.status] !== undefined) continue;
      this.#found.responses[r.ref] ??= responses[r.status];
      responses[r.status] = { $ref: `#/components/responses/${r.ref}` };
    }
    const body = doc.body;
    const fields = doc.params.some((p) => p.in === 'body');
    if (
      body?.ref !== undefined &&
      operation.requestBody !== undefined &&
      !fields &&
      doc.requestExample === undefined
    ) {
      this.#found.requestBodies[body.ref] ??= operation.requestBody;
      operation.requestBody = { $ref: `#/components/requestBodies/${body.ref}` };
    }
  }

  /** The components found, each kind present only when used. */
  components(): Partial<Components> {
    const out: Partial<Components> = {};
    for (const kind of ['parameters', 'responses', 'requestBodies'] as const) {
      const found = this.#found[kind];
      if (Object.keys(found).length > 0) out[kind] = sorted(found);
    }
    return out;
  }
}

function sorted(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
