/**
 * Node's built-in modules that are costly to import as ECMAScript modules, taken without it.
 *
 * `import { STATUS_CODES } from 'node:http'` makes Node build the module's ESM namespace out of every
 * export, and reading `node:http`'s lazy exports (`WebSocket`, `CloseEvent`, `MessageEvent`) loads
 * undici and TLS: ~150 ms at every start of every process that imports Arbor (Node 24; `node:util`
 * ~30 ms), though nothing in Arbor uses them. `process.getBuiltinModule` returns the same exports object
 * as `require` does, without a namespace. Type-only imports (`import type … from 'node:http'`) are
 * erased and cost nothing.
 */
export const http = process.getBuiltinModule('node:http');
export const util = process.getBuiltinModule('node:util');
