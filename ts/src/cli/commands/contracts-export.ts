/**
 * `arbor contracts:export`: the application's compiled contracts as an ECMAScript module (docs/CLI.md):
 * its routes' annotations and every JSON Schema check compiled ahead of time, for an application that
 * cannot read its sources or generate code (Cloudflare Workers, a bundle). `--check` compares instead of
 * writing, so CI can hold a checked-in module to the sources.
 */
import { type ContractsSource, exportContracts } from '../../validation/contracts-export.js';
import { CliError, EXIT_FAILURE } from '../errors.js';
import { type GenerateCommandOptions, loadModelSource, writeGenerated } from './types-export.js';

export async function contractsExport(options: GenerateCommandOptions): Promise<void> {
  const { app, sources } = await loadModelSource(options);
  const source = app as Partial<ContractsSource>;
  if (typeof source.compileContractsWith !== 'function')
    throw new CliError(
      'the application was created by another copy of Arbor than this CLI (no compileContractsWith): run the CLI of the Arbor the app imports',
      EXIT_FAILURE,
    );
  const { text, operations, checks } = exportContracts(source as ContractsSource, { sources });
  await writeGenerated('contracts:export', text, options, `${operations} operations, ${checks} checks`);
}
