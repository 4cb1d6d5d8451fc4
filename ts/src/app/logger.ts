/**
 * Logging: the {@link Logger} the application writes errors to, and the request-logging middleware of the
 * reference applications (one line per request: method, path, status, milliseconds).
 */
import type { Middleware } from './middleware.js';

/** Where Arbor writes. Inject one in tests to assert on the lines (`new Application({ logger })`). */
export interface Logger {
  info(message: string): void;
  /** Registration warnings (a shadowed route, SPEC §3.2). */
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** Writes to the console (`console.error` for errors, with the stack). */
export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
  error: (message, error) => (error === undefined ? console.error(message) : console.error(message, error)),
};

/** A logger that keeps the lines in memory: handy in tests. */
export function memoryLogger(): Logger & {
  lines: string[];
  warnings: string[];
  errors: { message: string; error: unknown }[];
} {
  const lines: string[] = [];
  const warnings: string[] = [];
  const errors: { message: string; error: unknown }[] = [];
  return {
    lines,
    warnings,
    errors,
    info: (message) => lines.push(message),
    warn: (message) => warnings.push(message),
    error: (message, error) => errors.push({ message, error }),
  };
}

export interface RequestLoggerOptions {
  /** Defaults to the console. */
  logger?: Pick<Logger, 'info'>;
  /** Milliseconds clock; injectable for deterministic tests. Defaults to `performance.now`. */
  now?: () => number;
}

/**
 * Logs `GET /tasks/42 200 1.3ms` once the response is known (errors included: the kernel has already
 * turned them into responses).
 *
 * @example
 * app.middleware(requestLogger());
 */
export function requestLogger(options: RequestLoggerOptions = {}): Middleware {
  const logger = options.logger ?? consoleLogger;
  const now = options.now ?? (() => performance.now());
  return async function requestLogger(req, handler) {
    const started = now();
    const res = await handler.handle(req);
    const ms = now() - started;
    logger.info(`${req.getMethod()} ${req.getUri().getPath()} ${res.getStatus()} ${ms.toFixed(1)}ms`);
    return res;
  };
}
