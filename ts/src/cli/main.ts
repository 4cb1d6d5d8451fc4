#!/usr/bin/env node
/**
 * `arbor`: the command line (docs/CLI.md).
 *
 *     arbor route:cache      compile the routes and write the route cache
 *     arbor route:clear      remove the route cache
 *     arbor route:list       the routes, as a table or --json
 *     arbor openapi:export   the OpenAPI document, JSON or YAML
 *     arbor types:export     the route contracts as a .d.ts (typed req.valid() for doc-comment routes)
 *     arbor client:export    the typed client's module
 *     arbor contracts:export the compiled contracts' module (validation without sources or code generation)
 *
 * Exit codes: 0 ok, 1 failure, 2 usage error (see ./errors.ts).
 */
import { Command, CommanderError, Option } from 'commander';
import { arborVersion } from '../cache/version.js';
import { clientExport } from './commands/client-export.js';
import { contractsExport } from './commands/contracts-export.js';
import { openapiExport } from './commands/openapi-export.js';
import { routeCache, routeClear } from './commands/route-cache.js';
import { routeList } from './commands/route-list.js';
import { typesExport } from './commands/types-export.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './errors.js';
import { disableColours, paint, write } from './output.js';

const EXIT_HELP = `
Exit codes:
  0  success
  1  failure (the application cannot be loaded or compiled, a file cannot be written)
  2  usage error (unknown command or option, bad value, entry file not found)

Environment:
  ARBOR_APP           the entry module when --app is not given
  ARBOR_ROUTE_CACHE   the route cache file (default <project>/.arbor/routes.cache); "off" disables it
  NO_COLOR            no colours (colours are only used on a terminal anyway)`;

const appOption = () =>
  new Option('--app <file>', 'the application entry module (default: ARBOR_APP, else src/app.ts, app.ts, …)');
const cacheOption = () =>
  new Option(
    '--cache <file>',
    'the route cache file (default: ARBOR_ROUTE_CACHE, else <project>/.arbor/routes.cache)',
  );
const sourcesOption = () =>
  new Option('--sources <paths...>', 'extra files or directories to scan for @api and @schema blocks');

export function createProgram(): Command {
  const program = new Command('arbor')
    .description('Arbor command line: route cache, route list and OpenAPI export')
    .version(arborVersion(), '-V, --version')
    .option('--no-color', 'no colours in the output')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ outputError: (text, out) => out(paint('red', text, process.stderr)) })
    .addHelpText('afterAll', EXIT_HELP)
    .hook('preAction', (command) => {
      if (command.opts().color === false) disableColours();
    });

  program
    .command('route:cache')
    .description(
      "compile the application's routes and write the route cache (snapshot, route list, annotations)",
    )
    .addOption(appOption())
    .addOption(cacheOption())
    .addOption(sourcesOption())
    .action(routeCache);

  program
    .command('route:clear')
    .description('remove the route cache (no error when there is none)')
    .addOption(appOption())
    .addOption(cacheOption())
    .action(routeClear);

  program
    .command('route:list')
    .description('list the routes in definition order, with shadowed routes flagged')
    .addOption(appOption())
    .option('--json', 'machine-readable output (an array of routes)')
    .option('--method <methods>', 'only routes answering one of these methods (GET or GET,POST)')
    .option('--path <prefix>', 'only routes whose pattern starts with this prefix')
    .action(routeList);

  program
    .command('openapi:export')
    .description('write the OpenAPI document as JSON or YAML, to a file or stdout')
    .addOption(appOption())
    .option('-o, --output <file>', 'the file to write (default: stdout); the extension picks the format')
    .addOption(
      new Option('--format <format>', 'json or yaml (default: from --output, else json)').choices([
        'json',
        'yaml',
      ]),
    )
    .addOption(
      new Option('--openapi-version <version>', 'OpenAPI version')
        .choices(['3.1.0', '3.0.3'])
        .default('3.1.0'),
    )
    .addOption(sourcesOption())
    .action(openapiExport);

  program
    .command('types:export')
    .description("write the routes' contracts as a .d.ts: typed req.valid() for doc-comment routes")
    .addOption(appOption())
    .option('-o, --output <file>', 'the .d.ts to write (default: stdout)')
    .option(
      '--module <specifier>',
      'the module the declarations augment, as the app imports Arbor',
      'arbor-router',
    )
    .option('--check', 'write nothing: fail (exit 1) when the file differs from what the routes give now')
    .addOption(sourcesOption())
    .action(typesExport);

  program
    .command('client:export')
    .description("write the typed client's module: route map, route names and createApiClient()")
    .addOption(appOption())
    .option('-o, --output <file>', 'the .ts module to write (default: stdout)')
    .option('--client-module <specifier>', 'where it imports the client runtime from', 'arbor-router/client')
    .option('--check', 'write nothing: fail (exit 1) when the file differs from what the routes give now')
    .addOption(sourcesOption())
    .action(clientExport);

  program
    .command('contracts:export')
    .description(
      "write the compiled contracts' module: annotations and precompiled validators, for new Application({ contracts })",
    )
    .addOption(appOption())
    .option('-o, --output <file>', 'the .js module to write (default: stdout)')
    .option('--check', 'write nothing: fail (exit 1) when the file differs from what the routes give now')
    .addOption(sourcesOption())
    .action(contractsExport);

  return program;
}

/** Runs the CLI and resolves to the exit code (never rejects). */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  const program = createProgram();
  try {
    if (argv.length <= 2) {
      program.outputHelp({ error: true });
      return EXIT_USAGE;
    }
    await program.parseAsync([...argv]);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander printed its message already; help and version are successes, the rest usage errors.
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version'
        ? EXIT_OK
        : EXIT_USAGE;
    }
    const exitCode = error instanceof CliError ? error.exitCode : EXIT_FAILURE;
    const message = error instanceof Error ? error.message : String(error);
    await write(`${paint('red', 'arbor: error:', process.stderr)} ${message}\n`, process.stderr);
    if (process.env.ARBOR_DEBUG && error instanceof Error && error.stack)
      await write(`${error.stack}\n`, process.stderr);
    return exitCode;
  }
}

// Exit explicitly: a loaded application may hold timers or connections open.
process.exit(await main());
