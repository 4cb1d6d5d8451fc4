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

/** The user's call site of the current registration, or `null` when the stack does not show one. */
export function captureCallSite(): CallSite | null {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 64;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  return firstForeignFrame(stack);
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
