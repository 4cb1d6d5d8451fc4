/**
 * Finding and loading the application's entry module for a command.
 *
 * The entry is `--app <file>`, else `ARBOR_APP`, else the first that exists (relative to the working
 * directory) of {@link ENTRY_CANDIDATES}. It is imported with `ARBOR_NO_LISTEN=1` (so `run()` registers
 * everything but does not listen) and with the route cache switched off (the CLI always looks at the routes
 * the sources register, never at a cache). TypeScript entries are loaded through tsx.
 *
 * The application is the module's default export, else its `app` export, else the application that last
 * called `run()` (else was created) in this process — so an entry that only calls `app.run()` works too.
 */
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fs } from '../builtins.js';
import { CACHE_ENV } from '../cache/location.js';
import type { Order } from '../engine/engine.js';
import type { ExportOptions, OpenApiConfig } from '../openapi/types.js';
import { registeredApplication } from '../registry/applications.js';
import type { RegisteredRoute } from '../routing/route.js';
import { CliError, EXIT_FAILURE, usageError } from './errors.js';

const BASES = ['src/app', 'app', 'src/server', 'server', 'ts/examples/server'];
const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];
/** Where the CLI looks for an entry when neither `--app` nor `ARBOR_APP` names one, in order. */
export const ENTRY_CANDIDATES: readonly string[] = BASES.flatMap((base) =>
  EXTENSIONS.map((ext) => base + ext),
);
const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);

/** What the commands use of an application (the real `Application` has it all). */
export interface CliApplication {
  config: {
    order?: Order | undefined;
    trailingSlash?: boolean | 'redirect' | undefined;
    openapi?: OpenApiConfig | undefined;
  };
  router: { snapshot(): Uint8Array };
  routeTable(): RegisteredRoute[];
}

export interface LoadedApplication {
  entry: string;
  app: CliApplication;
  /** The entry's `openapiOptions` export, if any: export options (security schemes, sources, tags). */
  openapiOptions: ExportOptions;
}

export function resolveEntry(option: string | undefined, cwd = process.cwd(), env = process.env): string {
  const given = option ?? env.ARBOR_APP;
  if (given !== undefined && given !== '') {
    const file = resolve(cwd, given);
    if (!fs.existsSync(file)) {
      throw usageError(
        `application entry not found: ${file}${option === undefined ? ' (from ARBOR_APP)' : ''}`,
      );
    }
    return file;
  }
  for (const candidate of ENTRY_CANDIDATES) {
    const file = resolve(cwd, candidate);
    if (fs.existsSync(file)) return file;
  }
  throw usageError(
    `no application entry found in ${cwd}: pass --app <file> or set ARBOR_APP (looked for ${BASES.join(', ')} with ${EXTENSIONS.join(' ')})`,
  );
}

function isApplication(value: unknown): value is CliApplication {
  const candidate = value as Partial<Record<keyof CliApplication, unknown>> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.routeTable === 'function' &&
    typeof candidate.config === 'object'
  );
}

async function registerTypeScript(entry: string): Promise<void> {
  try {
    const tsx = (await import('tsx/esm/api')) as { register(): unknown };
    tsx.register();
  } catch (error) {
    throw new CliError(
      `cannot load the TypeScript entry ${entry}: tsx is not installed (npm i -D tsx), or compile it first`,
      EXIT_FAILURE,
      { cause: error },
    );
  }
}

/** Imports the entry in CLI mode and finds its application. */
export async function loadApplication(entry: string): Promise<LoadedApplication> {
  process.env.ARBOR_NO_LISTEN = '1';
  process.env[CACHE_ENV] = 'off';
  if (TYPESCRIPT.has(extname(entry))) await registerTypeScript(entry);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new CliError(`cannot load ${entry}: ${detail}`, EXIT_FAILURE, { cause: error });
  }
  const app = [module.default, module.app, registeredApplication()].find(isApplication);
  if (app === undefined) {
    throw new CliError(
      `${entry} did not create an application: export it (\`export default app\` or \`export const app\`) or call app.run()`,
    );
  }
  const options = module.openapiOptions;
  return {
    entry,
    app,
    openapiOptions: typeof options === 'object' && options !== null ? (options as ExportOptions) : {},
  };
}
