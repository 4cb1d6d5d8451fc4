/**
 * `arbor openapi:export`: the application's OpenAPI document, JSON or YAML, to a file or stdout.
 *
 * Export options come from the entry's `openapiOptions` export when it has one (security schemes, extra
 * sources, tag descriptions — what the app passes to `mountDocs`), so the file matches the served document.
 */
import { extname, resolve } from 'node:path';
import { stringify } from 'yaml';
import { fs } from '../../builtins.js';
import { exportWithDiagnostics } from '../../openapi/exporter.js';
import type { OpenApiVersion } from '../../openapi/types.js';
import { CliError, usageError } from '../errors.js';
import { loadApplication, resolveEntry } from '../load-app.js';
import { paint, write } from '../output.js';

export type DocumentFormat = 'json' | 'yaml';

export interface ExportCommandOptions {
  app?: string;
  output?: string;
  format?: DocumentFormat;
  openapiVersion?: OpenApiVersion;
  sources?: string[];
}

/** `--format`, else the output file's extension, else JSON. */
export function documentFormat(
  format: DocumentFormat | undefined,
  output: string | undefined,
): DocumentFormat {
  if (format !== undefined) return format;
  if (output === undefined || output === '-') return 'json';
  const ext = extname(output).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  if (ext === '.json') return 'json';
  throw usageError(`cannot tell the format of ${output} from its extension: pass --format json|yaml`);
}

export function serialise(document: unknown, format: DocumentFormat): string {
  // No anchors/aliases: some OpenAPI tools do not resolve them.
  return format === 'yaml'
    ? stringify(document, { aliasDuplicateObjects: false })
    : `${JSON.stringify(document, null, 2)}\n`;
}

export async function openapiExport(options: ExportCommandOptions): Promise<void> {
  const format = documentFormat(options.format, options.output); // usage errors before loading anything
  const { app, openapiOptions } = await loadApplication(resolveEntry(options.app));
  const sources = options.sources ?? openapiOptions.sources;
  const { document, diagnostics } = exportWithDiagnostics(app, {
    ...openapiOptions,
    ...(sources === undefined ? {} : { sources }),
    openapi: options.openapiVersion ?? openapiOptions.openapi ?? '3.1.0',
  });
  const text = serialise(document, format);
  if (options.output === undefined || options.output === '-') {
    await write(text);
    return;
  }
  const file = resolve(options.output);
  try {
    fs.writeFileSync(file, text);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${(error as Error).message}`, undefined, { cause: error });
  }
  const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  const notes = diagnostics.length
    ? `, ${diagnostics.length} diagnostic${diagnostics.length === 1 ? '' : 's'}`
    : '';
  await write(
    `${paint('green', 'OpenAPI')} ${document.openapi} ${format.toUpperCase()} → ${options.output} (${operations} operations${notes})\n`,
  );
}
