/**
 * `arbor-router/client`: a fetch-based client typed from the application's route table and contracts
 * (docs/CLIENT.md). `arbor client:export` writes the route map and the routes' table for an application;
 * this entry is the runtime they are given to. It imports nothing of Node, nothing of the framework, and
 * nothing at all beyond its own few modules: it runs in browsers, workers and Node alike.
 *
 * @example
 * import { createClient } from 'arbor-router/client';
 * import { routes, type RouteNames, type Routes } from './api-client.js';
 * const api = createClient<Routes, RouteNames>(routes, { baseUrl: 'https://api.example.com' });
 * const answer = await api.route('tasks.show', { params: { id: '42' } });
 * if (answer.ok) console.log(answer.data.title); // typed: Task
 *
 * @module arbor-router/client
 */

export {
  type ClientOptions,
  type ClientRoute,
  type ClientRoutes,
  createClient,
  type FetchFunction,
} from './client.js';
export { ClientError, type ClientErrorCode } from './errors.js';
export type {
  Answer,
  AnswerOf,
  CallArgs,
  Client,
  PathsOf,
  RequestSpec,
  RouteMap,
  RouteNameMap,
  RouteSpec,
  StatusOf,
  StatusRange,
} from './types.js';
export { encodePathValue, type UrlPiece } from './url.js';
