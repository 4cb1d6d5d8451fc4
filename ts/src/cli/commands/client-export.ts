/**
 * `arbor client:export`: the typed client's module for the application (docs/CLIENT.md), to a file or
 * stdout; `--check` fails when the file on disk is not what the routes give now.
 */
import { exportClient } from '../../client/emit/index.js';
import { type GenerateCommandOptions, loadModelSource, routeCount, writeGenerated } from './types-export.js';

export interface ClientExportCommandOptions extends GenerateCommandOptions {
  clientModule?: string;
}

export async function clientExport(options: ClientExportCommandOptions): Promise<void> {
  const { app, sources, exportOptions } = await loadModelSource(options);
  const text = exportClient(app, {
    sources,
    exportOptions,
    ...(options.clientModule === undefined ? {} : { clientModule: options.clientModule }),
  });
  await writeGenerated('client:export', text, options, routeCount(text, /^ {2}"[A-Z]+ \/[^"]*": \{$/gm));
}
