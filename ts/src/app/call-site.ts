/**
 * Where the user registered a route: the first stack frame outside Arbor's own sources, taken from
 * `new Error().stack` at registration. The annotation reader uses it to find the doc block that ends just
 * above the registration (SPEC §6); `route:list` prints it.
 *
 * Works for TypeScript sources run through tsx or vitest (both install source maps, so frames point at the
 * `.ts` lines) and for compiled JavaScript. `file://` URLs are turned into paths.
 */
import { dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CallSite {
  file: string;
  line: number;
}

/** `ts/src` (or `dist/ts/src` when compiled): frames under it are Arbor's, not the user's. */
const OWN_ROOT = dirname(dirname(fileURLToPath(import.meta.url))) + sep;

// "    at fn (/a/b.ts:12:5)", "    at /a/b.ts:12:5", "    at async file:///a/b.js:3:1"
const FRAME = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):\d+\)?\s*$/;

/**
 * Where the current registration happened, resolved lazily.
 *
 * V8 records the frames when the `Error` is created (cheap) but formats `stack` only when it is first
 * read — and formatting, with source maps, costs ~100 µs a route. Registration only records; the frame
 * is parsed when someone asks (an error message, the annotation reader, `route:list`). An application
 * that starts from the route cache never asks, so 10,000 routes skip ~1 s of formatting.
 */
export class LazyCallSite {
  readonly #trace: Error;
  #resolved: CallSite | null | undefined;

  constructor() {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 64;
    this.#trace = new Error();
    Error.stackTraceLimit = limit;
  }

  get value(): CallSite | null {
    if (this.#resolved === undefined) this.#resolved = firstForeignFrame(this.#trace.stack ?? '');
    return this.#resolved;
  }
}

/** @internal Exported for tests: parses a stack and skips Arbor's and Node's own frames. */
export function firstForeignFrame(stack: string, ownRoot: string = OWN_ROOT): CallSite | null {
  for (const line of stack.split('\n').slice(1)) {
    const match = FRAME.exec(line.trim());
    if (match === null) continue;
    let file = match[1] ?? '';
    if (file.startsWith('file://')) {
      try {
        file = fileURLToPath(file);
      } catch {
        continue;
      }
    }
    if (file.startsWith('node:') || file.startsWith(ownRoot) || !file.includes(sep)) continue;
    return { file, line: Number(match[2]) };
  }
  return null;
}
