/**
 * Diagnostics are returned as data everywhere; this module also emits each one once per process as a
 * `process.emitWarning` (code `ARBOR_OPENAPI`), so a developer sees them in the console without asking.
 */
import type { Diagnostic } from './types.js';

const emitted = new Set<string>();

export function emitOnce(diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) {
    const key = `${d.code} ${d.message}`;
    if (emitted.has(key)) continue;
    emitted.add(key);
    process.emitWarning(d.message, { type: 'ArborOpenApiWarning', code: `ARBOR_OPENAPI_${d.code}` });
  }
}
