/** What every I/O benchmark server reads from its environment, and how it says a feature is missing. */

export const CASES = [
  'static',
  'stream',
  'sse',
  'compress',
  'upload',
  'upload-stream',
  'cookies',
  'security',
] as const;
export type IoCase = (typeof CASES)[number];

/** The case `IO_CASE` names; a server started without one is a runner bug. */
export function ioCase(): IoCase {
  const name = process.env.IO_CASE;
  const found = CASES.find((c) => c === name);
  if (found === undefined) throw new Error(`IO_CASE must be one of ${CASES.join(', ')}, not ${name}`);
  return found;
}

export function numberFromEnv(name: string): number {
  const value = Number(process.env[name]);
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, not ${process.env[name]}`);
  return value;
}

/**
 * Tells the runner this server cannot serve the case (the feature is not in this checkout) and exits:
 * the runner leaves the row out of the timing and the report says why.
 */
export function unavailable(reason: string): Promise<never> {
  return new Promise(() => {
    if (process.send) process.send({ type: 'unavailable', reason }, () => process.exit(0));
    else {
      console.error(reason);
      process.exit(1);
    }
  });
}
