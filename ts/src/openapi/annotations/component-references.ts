/**
 * `@param #Name`, `@response 404 #Name` and `@body #Name` replaced by the `@component` they name, once
 * every block is read (a component may be defined in any scanned file, before or after its use). The
 * result keeps `ref` so that the exporter writes a `$ref`; validation reads it as if written in place. A
 * name no `@component` defines is reported (`UNDEFINED_COMPONENT`) and left out.
 */
import type { ComponentDocs, Diagnostic, OperationDoc } from '../types.js';

/** The operation with its references resolved (a new object when it had any; the parsed block is shared). */
export function resolveReferences(
  doc: OperationDoc,
  components: ComponentDocs,
  report: (diagnostic: Diagnostic) => void,
): OperationDoc {
  const refers =
    doc.params.some((p) => p.ref !== undefined) ||
    doc.responses.some((r) => r.ref !== undefined) ||
    doc.body?.ref !== undefined;
  if (!refers) return doc;
  const missing = (kind: string, name: string, line: number) =>
    report({
      code: 'UNDEFINED_COMPONENT',
      file: doc.file,
      line,
      message: `${doc.file}:${line}: #${name} names no @component ${kind} ${name} in the scanned sources`,
    });
  const params = doc.params.flatMap((p) => {
    if (p.ref === undefined) return [p];
    const found = components.parameters[p.ref];
    if (found === undefined) {
      missing('parameter', p.ref, p.line);
      return [];
    }
    const { file: _file, ...param } = found;
    return [{ ...param, ref: p.ref }];
  });
  const responses = doc.responses.flatMap((r) => {
    if (r.ref === undefined) return [r];
    const found = components.responses[r.ref];
    if (found === undefined) {
      missing('response', r.ref, r.line);
      return [];
    }
    const { file: _file, ...response } = found;
    return [{ ...response, status: r.status, ref: r.ref, line: r.line }];
  });
  const resolved: OperationDoc = { ...doc, params, responses };
  const body = doc.body;
  if (body?.ref !== undefined) {
    const found = components.requestBodies[body.ref];
    if (found === undefined) {
      missing('requestBody', body.ref, body.line);
      delete resolved.body;
    } else {
      const { file: _file, ...definition } = found;
      resolved.body = { ...definition, ref: body.ref };
    }
  }
  return resolved;
}
