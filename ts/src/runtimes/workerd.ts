/**
 * The package entry on Cloudflare Workers: the `workerd` export condition, which wrangler and the other
 * Workers bundlers pick. The same exports as `arbor-router`, with what Node reads from the package's files
 * brought in as a Worker brings things in: the router's WebAssembly module imported as Workers import
 * `.wasm` files (compiled by the runtime, handed to the engine before any router exists), and the
 * packages that Node loads with `require` on first use imported statically, so the bundler includes them
 * (docs/RUNTIMES.md). Left out: `ws` (a Worker answers a WebSocket upgrade with its own `WebSocketPair`),
 * Swagger UI's files (no file system to serve them from) and ajv's compiler (a Worker refuses the code it
 * generates): the helpers that precompiled contracts call (`arbor contracts:export`) are brought instead.
 */
import accepts from 'accepts';
import ajvEqual from 'ajv/dist/runtime/equal.js';
import ajvUcs2length from 'ajv/dist/runtime/ucs2length.js';
import ajvUri from 'ajv/dist/runtime/uri.js';
import ajvValidationError from 'ajv/dist/runtime/validation_error.js';
import ajvFormats from 'ajv-formats/dist/formats.js';
import busboy from 'busboy';
import compressible from 'compressible';
import * as etag from 'etag';
import fresh from 'fresh';
import * as jose from 'jose';
import negotiator from 'negotiator';
import { providePackages } from '../builtins.js';
import { provideWasm } from '../engine/index.js';
import wasm from '../engine/wasm-pkg/arbor_wasm_bg.wasm';

provideWasm(wasm);
// Each value is what `require(name)` answers on Node: an ECMAScript module's namespace (etag, jose), else the
// CommonJS module's `module.exports`, which a default import is in a bundle of ECMAScript modules.
providePackages({
  accepts,
  'ajv/dist/runtime/equal': ajvEqual,
  'ajv/dist/runtime/ucs2length': ajvUcs2length,
  'ajv/dist/runtime/uri': ajvUri,
  'ajv/dist/runtime/validation_error': ajvValidationError,
  'ajv-formats/dist/formats': ajvFormats,
  busboy,
  compressible,
  etag,
  fresh,
  jose,
  negotiator,
});

export * from '../index.js';
