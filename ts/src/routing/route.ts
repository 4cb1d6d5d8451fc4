/**
 * One row of `app.routeTable()` (what `Route.describe` returns): plain data, so tooling (the CLI, the route
 * cache, the OpenAPI exporter) reads routes without the registration classes of `registrar.ts`.
 */
import type { RouteInfo } from '../engine/engine.js';
import type { CallSite } from '../registry/call-site.js';

/** Everything tooling needs to know about a route. */
export interface RegisteredRoute {
  id: number;
  methods: string[];
  /** The full pattern, group prefixes applied. */
  pattern: string;
  /** The engine's metadata (template, parameters and constraints, shadowing). */
  info: RouteInfo;
  name: string | null;
  /** Group and route middleware, outermost first, as referenced (`'throttle:60,1'`); functions by name. */
  middleware: string[];
  /** `'Class.method'` for array callables, `'file:line'` of the registration for closures. */
  handlerLocation: string | null;
  /** Where the user called `app.get(…)` (or `resource`, `match`, …). */
  callSite: CallSite | null;
  /** Requests are checked against the annotations (`validate`): the document lists the 400. */
  validated?: boolean;
  /** A WebSocket route (`app.ws`): a GET that answers 101 and continues as a WebSocket. */
  webSocket?: boolean;
}
