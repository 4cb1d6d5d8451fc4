// The package entry: the standalone router and, on top of it, the framework.
export type { EngineOptions, Order, ParamInfo, ParamKind, RouteInfo } from './engine/engine.js';
export { RouteError, type RouteErrorCode } from './errors.js';
export { type RouteMatch, Router, type RouterOptions } from './router.js';
