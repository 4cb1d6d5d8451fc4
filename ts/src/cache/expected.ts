/**
 * What a route cache knows before the routes are registered: the routes in definition order and where each
 * was registered when the cache was written. A start that registers the same routes from the same source
 * files can take each route's call site from here instead of capturing a stack trace per registration —
 * the capture is most of what a registration costs once nothing is compiled, and a start from the cache
 * needs a call site only for an error message, a shadowing warning or tooling.
 *
 * A stored call site is used only when it is the one a capture would give now:
 * - the route registered at that position has the cached methods and pattern;
 * - the file the call site names is byte for byte the one the cache was written from, so no line moved;
 * - one real capture per file agreed with the cache (the caller confirms it), so this process names
 *   call sites as the writing one did (same paths; source maps on or off alike).
 * Any other route, and every route of a file that failed a check, captures its own. So a start whose
 * routes turn out to differ from the cache (stale) still has an exact call site for every route.
 */
import { crypto, fs } from '../builtins.js';
import { normaliseMethods, type RouteKey } from './fingerprint.js';
import type { RegistrationIndex } from './format.js';

export interface StoredCallSite {
  file: string;
  line: number;
}

/** What a cache writer knows of each route (the application's route table has more). */
interface WrittenRoute {
  methods: readonly string[];
  pattern: string;
  name: string | null;
  callSite: StoredCallSite | null;
}

/** The index `route:cache` stores in the header. */
export function registrationIndex(routes: readonly WrittenRoute[]): RegistrationIndex {
  const files: RegistrationIndex['files'] = [];
  const fileIds = new Map<string, number>();
  const sites: number[] = [];
  for (const { callSite } of routes) {
    if (callSite === null) {
      sites.push(-1, 0);
      continue;
    }
    let id = fileIds.get(callSite.file);
    if (id === undefined) {
      id = files.push({ file: callSite.file, sha1: fileDigest(callSite.file) }) - 1;
      fileIds.set(callSite.file, id);
    }
    sites.push(id, callSite.line);
  }
  return {
    methods: routes.map((r) => normaliseMethods(r.methods).join(',')),
    patterns: routes.map((r) => r.pattern),
    names: routes.map((r) => r.name),
    files,
    sites,
  };
}

/** A file's standing: unchanged and confirmed by a capture, unchanged but not yet confirmed, or unusable. */
type FileState = 'confirmed' | 'unconfirmed' | 'unusable';

export class ExpectedRoutes {
  readonly #index: RegistrationIndex;
  readonly #files: FileState[] = [];

  constructor(index: RegistrationIndex) {
    this.#index = index;
  }

  get length(): number {
    return this.#index.patterns.length;
  }

  /**
   * The call site the cache stored for route `id`, when the route registered now at that position is the
   * cached one and its file is unchanged; `undefined` otherwise (capture it). `confirmed` says whether a
   * capture in this process already agreed with the cache for that file; if not, the caller captures this
   * one and reports with {@link confirm}.
   */
  callSite(
    id: number,
    methods: readonly string[],
    pattern: string,
  ): { site: StoredCallSite; confirmed: boolean } | undefined {
    const index = this.#index;
    if (index.patterns[id] !== pattern || index.methods[id] !== joinedMethods(methods)) return undefined;
    const fileId = index.sites[2 * id] ?? -1;
    const file = index.files[fileId];
    if (file === undefined) return undefined;
    const state = this.#state(fileId, file);
    if (state === 'unusable') return undefined;
    return {
      site: { file: file.file, line: index.sites[2 * id + 1] ?? 0 },
      confirmed: state === 'confirmed',
    };
  }

  /** The outcome of the one capture made for a file: its other routes take the cache's call sites, or not. */
  confirm(site: StoredCallSite, agreed: boolean): void {
    const fileId = this.#index.files.findIndex((f) => f.file === site.file);
    if (fileId >= 0) this.#files[fileId] = agreed ? 'confirmed' : 'unusable';
  }

  /**
   * Whether `routes` are, in order, the routes the cache holds: what comparing fingerprints says (the
   * index and the fingerprint were written from the same table, and the file's checksum covers both),
   * without building and hashing every route's key.
   */
  matches(routes: readonly RouteKey[]): boolean {
    const index = this.#index;
    if (routes.length !== index.patterns.length) return false;
    for (let id = 0; id < routes.length; id++) {
      const route = routes[id] as RouteKey;
      if (
        index.patterns[id] !== route.pattern ||
        index.names[id] !== route.name ||
        index.methods[id] !== joinedMethods(route.methods)
      )
        return false;
    }
    return true;
  }

  #state(fileId: number, file: RegistrationIndex['files'][number]): FileState {
    let state = this.#files[fileId];
    if (state === undefined) {
      state = file.sha1 !== null && fileDigest(file.file) === file.sha1 ? 'unconfirmed' : 'unusable';
      this.#files[fileId] = state;
    }
    return state;
  }
}

/** SHA-1 (hex) of a file's bytes, or `null` when it cannot be read. */
export function fileDigest(file: string): string | null {
  try {
    return crypto().createHash('sha1').update(fs.readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
}

function joinedMethods(methods: readonly string[]): string {
  // One method is the common case: no array built.
  return methods.length === 1 ? (methods[0] as string).toUpperCase() : normaliseMethods(methods).join(',');
}
