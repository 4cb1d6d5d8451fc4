/**
 * `arbor types:export`: the application's route contracts as a `.d.ts` (docs/CLIENT.md), to a file or
 * stdout; `--check` compares instead of writing and fails when the file is not what the routes give now,
 * so CI can hold a checked-in file to the sources.
 */
import { relative, resolve } from 'node:path';
import { fs } from '../../builtins.js';
import { exportRouteTypes } from '../../client/emit/index.js';
import type { ModelSource } from '../../client/emit/route-model.js';
import type { ExportOptions } from '../../openapi/types.js';
import { CliError, EXIT_FAILURE, usageError } from '../errors.js';
import { loadApplication, resolveEntry } from '../load-app.js';
import { paint, write } from '../output.js';

/** The options both generating commands take. */
export interface GenerateCommandOptions {
  app?: string;
  output?: string;
  check?: boolean;
  sources?: string[];
}

export interface TypesExportOptions extends GenerateCommandOptions {
  module?: string;
}

/** The application a generating command reads, with its export options' sources. */
export async function loadModelSource(options: GenerateCommandOptions): Promise<{
  app: ModelSource;
  sources: readonly string[];
  exportOptions: ExportOptions;
}> {
  if (options.check === true && (options.output === undefined || options.output === '-'))
    throw usageError('--check compares with a file: pass --output <file>');
  const { app, openapiOptions } = await loadApplication(resolveEntry(options.app));
  return {
    app: app as ModelSource,
    sources: options.sources ?? openapiOptions.sources ?? [],
    exportOptions: openapiOptions,
  };
}

/**
 * Writes `text` to `options.output` (stdout without one), or with `--check` compares it with the file
 * there: a missing or different file is a failure that says how to bring it up to date.
 */
export async function writeGenerated(
  command: string,
  text: string,
  options: GenerateCommandOptions,
  summary: string,
): Promise<void> {
  if (options.output === undefined || options.output === '-') {
    await write(text);
    return;
  }
  const file = resolve(options.output);
  const shown = relative(process.cwd(), file) || file;
  if (options.check === true) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    if (current !== text)
      throw new CliError(
        `${shown} is ${current === null ? 'missing' : 'out of date'}: run \`arbor ${command} --output ${options.output}\` and commit it`,
        EXIT_FAILURE,
      );
    await write(`${paint('green', 'Up to date:')} ${shown} (${summary})\n`);
    return;
  }
  try {
    fs.writeFileSync(file, text);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${(error as Error).message}`, undefined, { cause: error });
  }
  await write(`${paint('green', 'Written:')} ${shown} (${summary})\n`);
}

/** How many routes a generated file declares, for the summary line. */
export const routeCount = (text: string, marker: RegExp): string => {
  const n = text.match(marker)?.length ?? 0;
  return `${n} route${n === 1 ? '' : 's'}`;
};

export async function typesExport(options: TypesExportOptions): Promise<void> {
  const { app, sources, exportOptions } = await loadModelSource(options);
  const text = exportRouteTypes(app, {
    sources,
    exportOptions,
    ...(options.module === undefined ? {} : { module: options.module }),
  });
  await writeGenerated('types:export', text, options, routeCount(text, /^ {4}"[A-Z]+ \//gm));
}
