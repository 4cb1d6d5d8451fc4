/**
 * Logging: the {@link Logger} the application writes to, shaped as pino's so that a pino instance (or any
 * logger with its calling convention) plugs in as is, and the two small loggers Arbor ships: the console
 * for development, memory for tests. The request log is `request-log.ts`.
 */
import type { TransportLogger } from '../http/dispatch.js';

/**
 * The structured part of a record (pino's "merging object"). Arbor puts an error under `err`, which pino
 * serializes with its type, message and stack; every other field is a plain JSON value.
 */
export type LogFields = Record<string, unknown>;

/**
 * One level of a {@link Logger}: `(message)` or `(fields, message)`, pino's order. Arbor itself always
 * passes fields first, so that structured loggers keep them as fields, not as text.
 */
export interface LogMethod {
  (message: string): void;
  (fields: LogFields, message?: string): void;
}

/**
 * Where Arbor writes. Any pino logger is one (`new Application({ logger: pino() })`); so are
 * {@link consoleLogger} (the default) and {@link memoryLogger} (tests).
 *
 * - `info`: the start-up banner, and `requestLogger()`'s one record per request;
 * - `warn`: registration warnings (a route that can never match, with its pattern and call site);
 * - `error`: a request that failed with a 500 (`{ err, method, path, reqId }`), a response that breaks its
 *   documented schema, a response a transport could not write.
 *
 * @example
 * import pino from 'pino';
 * const app = new Application({ logger: pino(), requestId: true });
 * app.middleware(requestLogger({ logger: app.config.logger }));
 */
export interface Logger {
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}

/** One record as {@link memoryLogger} keeps it. */
export interface LogRecord {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields: LogFields;
}

/** A {@link Logger} that keeps what it is given; see {@link memoryLogger}. */
export interface MemoryLogger extends Logger {
  /** Every record, in order, with its fields. */
  records: LogRecord[];
  /** The messages logged at `info`. */
  lines: string[];
  /** The messages logged at `warn`. */
  warnings: string[];
  /** The records logged at `error`; `error` is the record's `err` field (the thrown value), if any. */
  errors: { message: string; error: unknown; fields: LogFields }[];
}

const NO_FIELDS: LogFields = Object.freeze({});

/** The two calling forms, as one record. */
function record(first: string | LogFields, message: string | undefined): [string, LogFields] {
  return typeof first === 'string' ? [first, NO_FIELDS] : [message ?? '', first];
}

/**
 * Writes to the console, for development: the message alone (it is written to be read: `GET /tasks/42 200
 * 1.3ms`), and for a record carrying an error, the error too (`console.error` prints its stack). For the
 * fields themselves, use a structured logger such as pino.
 */
export const consoleLogger: Logger = {
  info: (first: string | LogFields, message?: string) => console.log(record(first, message)[0]),
  warn: (first: string | LogFields, message?: string) => console.warn(record(first, message)[0]),
  error: (first: string | LogFields, message?: string) => {
    const [text, fields] = record(first, message);
    if (fields.err === undefined) console.error(text);
    else console.error(text, fields.err);
  },
};

/**
 * A logger that keeps every record in memory: handy in tests.
 *
 * @example
 * const logger = memoryLogger();
 * const app = new Application({ logger });
 * // … a handler throws …
 * expect(logger.errors[0]?.error).toBeInstanceOf(Error);
 * expect(logger.errors[0]?.fields).toMatchObject({ method: 'GET', path: '/boom' });
 */
export function memoryLogger(): MemoryLogger {
  const records: LogRecord[] = [];
  const lines: string[] = [];
  const warnings: string[] = [];
  const errors: MemoryLogger['errors'] = [];
  return {
    records,
    lines,
    warnings,
    errors,
    info: (first: string | LogFields, message?: string) => {
      const [text, fields] = record(first, message);
      records.push({ level: 'info', message: text, fields });
      lines.push(text);
    },
    warn: (first: string | LogFields, message?: string) => {
      const [text, fields] = record(first, message);
      records.push({ level: 'warn', message: text, fields });
      warnings.push(text);
    },
    error: (first: string | LogFields, message?: string) => {
      const [text, fields] = record(first, message);
      records.push({ level: 'error', message: text, fields });
      errors.push({ message: text, error: fields.err, fields });
    },
  };
}

/**
 * The transports' view of a {@link Logger}: they report what they could not write as `(message, error)`,
 * which this passes on in the structured form (`{ err }`), so the stack survives in pino.
 *
 * @example
 * createNodeListener(dispatch, transportLogger(app.config.logger ?? consoleLogger));
 */
export function transportLogger(logger: Logger): TransportLogger {
  return {
    error: (message, error) => {
      if (error === undefined) logger.error(message);
      else logger.error({ err: error }, message);
    },
  };
}
