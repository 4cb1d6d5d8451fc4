/**
 * Exit codes scripts can rely on (documented in docs/CLI.md and in `arbor --help`):
 *   0  success
 *   1  failure: the application could not be loaded or is invalid, a file could not be written, …
 *   2  usage error: unknown command or option, a bad option value, an entry file that does not exist
 */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** An error the CLI reports as one line (no stack) and turns into its exit code. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT_FAILURE, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** `new CliError(message, EXIT_USAGE)`. */
export const usageError = (message: string): CliError => new CliError(message, EXIT_USAGE);
