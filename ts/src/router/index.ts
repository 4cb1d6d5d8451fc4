// The router room's public face: the standalone `Router` and what its lookups answer. The other files of
// the room (the match builders, the generated front and its code generator) are its insides.
export type { RouteMatch, RouteSelection } from './match-builder.js';
export { Router, type RouterOptions } from './router.js';
