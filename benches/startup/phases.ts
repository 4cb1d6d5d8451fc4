/**
 * Where a start's time goes: the same child as the timed starts, with the framework's cold path wrapped
 * to take CPU milliseconds per phase. CPU time, not wall time, because it is what a phase costs whatever
 * else the machine runs; these starts are extra ones, so the wrapping never touches the timed figures.
 *
 * Phases: Node's own start; importing the framework (wasm instantiation included); importing the app
 * (registration; with the cache on, reading the cache file is a phase of its own); `run()` split into the
 * engine's rebuild from the snapshot (`from_snapshot`, then the route list if anything reads it), attaching
 * the route values (the engine asked once for every route's shape), the rest of loading the cache, the
 * middleware-name check, and the rest (validation, listening); the first request, split into the server's
 * first lookup and the rest (client included).
 */
import { HTTP_GET, type Probe } from './generate.js';

export const PHASES = [
  'node start',
  'framework import',
  'app import (registration)',
  'cache file read and checked',
  'run(): engine rebuilt from the snapshot (from_snapshot)',
  'run(): engine route list (routes_json + JSON.parse)',
  'run(): values attached (Router.attach: all routes in one call)',
  'run(): rest of the cache load (checks, views)',
  'run(): route table ready (middleware names checked; compiled: nothing else)',
  'run(): rest (validation, listen)',
  'first request: first lookup',
  'first request: rest (server + client)',
  'total to first response',
] as const;
export type Phase = (typeof PHASES)[number];

/** The child: a timed start like `startSource`'s, printing `{ phase: cpuMs }` as its last line. */
export function phaseSource(frameworkDir: string, probe: Probe): string {
  const dir = JSON.stringify(`${frameworkDir}/`);
  return `import { once } from 'node:events';
${HTTP_GET}
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const spent = {};
const add = (phase, ms) => { spent[phase] = (spent[phase] ?? 0) + ms; };
const timed = (object, name, phase) => {
  const original = object[name];
  if (typeof original !== 'function') return;
  object[name] = function (...args) {
    const start = cpu();
    try { return original.apply(this, args); } finally { add(phase, cpu() - start); }
  };
};
add('node start', cpu());
let mark = cpu();
const D = ${dir};
const { Router } = await import(D + 'router/router.js');
const { RouteCacheBoot } = await import(D + 'cache/boot.js');
const { Application } = await import(D + 'app/index.js');
add('framework import', cpu() - mark);
const wasm = await import(D + 'engine/wasm-pkg/arbor_wasm.js');
timed(wasm.Engine, 'from_snapshot', 'run(): engine rebuilt from the snapshot (from_snapshot)');
// routes_json and the JSON.parse of its answer (the next parse after it) are one phase.
const routesJson = wasm.Engine.prototype.routes_json;
const parse = JSON.parse;
let routeList = null;
wasm.Engine.prototype.routes_json = function () { routeList = cpu(); return routesJson.call(this); };
JSON.parse = function (text, reviver) {
  const value = parse(text, reviver);
  if (routeList !== null) { add('run(): engine route list (routes_json + JSON.parse)', cpu() - routeList); routeList = null; }
  return value;
};
timed(RouteCacheBoot.prototype, 'expected', 'cache file read and checked');
timed(RouteCacheBoot.prototype, 'load', 'load');
timed(Router.prototype, 'attach', 'run(): values attached (Router.attach: all routes in one call)');
timed(Application.prototype, 'ready', 'ready');
let firstLookup = true;
const find = Router.prototype.find;
Router.prototype.find = function (method, path) {
  if (!firstLookup) return find.call(this, method, path);
  firstLookup = false;
  const start = cpu();
  try { return find.call(this, method, path); } finally { add('first request: first lookup', cpu() - start); }
};
mark = cpu();
const { app } = await import('./app.mjs');
add('app import (registration)', cpu() - mark - (spent['cache file read and checked'] ?? 0));
mark = cpu();
const server = app.run();
if (!server.listening) await once(server, 'listening');
const engine =
  (spent['run(): engine rebuilt from the snapshot (from_snapshot)'] ?? 0) +
  (spent['run(): engine route list (routes_json + JSON.parse)'] ?? 0) +
  (spent['run(): values attached (Router.attach: all routes in one call)'] ?? 0);
const load = spent.load ?? 0;
const ready = spent.ready ?? 0;
if (load > 0) add('run(): rest of the cache load (checks, views)', load - engine);
add('run(): route table ready (middleware names checked; compiled: nothing else)', ready - load);
add('run(): rest (validation, listen)', cpu() - mark - ready);
delete spent.load;
delete spent.ready;
mark = cpu();
const { port } = server.address();
await get(port, ${JSON.stringify(probe.path)});
add('first request: rest (server + client)', cpu() - mark - (spent['first request: first lookup'] ?? 0));
add('total to first response', cpu());
JSON.parse = parse;
console.log(JSON.stringify(spent));
process.exit(0);
`;
}
