/**
 * Where the user registered a route: the first stack frame outside Arbor's own sources, taken from
 * `new Error().stack` at registration. The annotation reader uses it to find the doc block that ends just
 * above the registration (docs/OPENAPI.md); `route:list` prints it.
 *
 * Works for TypeScript sources run through tsx or vitest (both install source maps, so frames point at the
 * `.ts` lines) and for compiled JavaScript. `file://` URLs are turned into paths.
 *
 * Arbor's own frames come in two forms: where its modules run (`dist/ts/src/…` compiled, `ts/src/…` from
 * the sources) and, once a source map is applied (`node --enable-source-maps`, tsx, vitest), where the
 * compiled files came from: `dist/ts/src/routing/registrar.js` maps to `ts/src/routing/registrar.ts` beside
 * `dist/`, a file that need not even exist in an installed package. Both are Arbor's. Taking a mapped
 * frame for the user's made every route's call site `…/call-site.ts:38`, and every doc comment was
 * silently lost.
 */
import { dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where a route was registered in the application's source: the file and the line of the `app.get(…)`
 * call. Registration errors and the route list name it, so a conflict points at the line that caused it.
 */
export interface CallSite {
  file: string;
  line: number;
}

/** `ts/src` (or `dist/ts/src` when compiled, the bundles included: they sit one directory below it, as
 * this module does): frames under it are Arbor's, not the user's. A Worker's bundled modules have no URL:
 * there no frame is told apart as Arbor's (a root no path starts with). */
const MODULE_URL = (import.meta as { url?: string }).url;
const OWN_ROOT = MODULE_URL === undefined ? '\0' : dirname(dirname(fileURLToPath(MODULE_URL))) + sep;

/** The roots of Arbor's frames: where it runs, and, when compiled, the sources its source maps point to
 * (`<package>/dist/ts/src/` → `<package>/ts/src/`). */
export function ownRoots(root: string = OWN_ROOT): string[] {
  const compiled = `${sep}dist${sep}ts${sep}src${sep}`;
  return root.endsWith(compiled)
    ? [root, `${root.slice(0, -compiled.length)}${sep}ts${sep}src${sep}`]
    : [root];
}

const OWN_ROOTS = ownRoots();

// "    at fn (/a/b.ts:12:5)", "    at /a/b.ts:12:5", "    at async file:///a/b.js:3:1"
const FRAME = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):\d+\)?\s*$/;

/** Where a route was registered: captured at registration ({@link LazyCallSite}) or known beforehand. */
export interface CallSiteSource {
  readonly value: CallSite | null;
}

/** A call site known without a capture: the route cache stored it, for a file that has not changed since. */
export class KnownCallSite implements CallSiteSource {
  readonly value: CallSite;
  constructor(site: CallSite) {
    this.value = site;
  }
}

/**
 * Where the current registration happened, resolved lazily.
 *
 * V8 records the frames when the `Error` is created (cheap) but formats `stack` only when it is first
 * read, and formatting with source maps is the expensive part (figures: docs/ARCHITECTURE.md, "Why the
 * serving code is shaped so"). Registration only records; the frame is parsed when someone asks (an error
 * message, the annotation reader, `route:list`). An application that starts from the route cache never
 * asks.
 */
export class LazyCallSite implements CallSiteSource {
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
export function firstForeignFrame(
  stack: string,
  own: string | readonly string[] = OWN_ROOTS,
): CallSite | null {
  const roots = typeof own === 'string' ? ownRoots(own) : own;
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
    if (file.startsWith('node:') || roots.some((root) => file.startsWith(root)) || !file.includes(sep))
      continue;
    return { file, line: Number(match[2]) };
  }
  return null;
}
