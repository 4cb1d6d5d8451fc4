/**
 * Resource routes (docs/framework/routes.md, "Resources"). `resource('/posts', PostController)` registers, for each
 * method the controller has (static or on the prototype):
 *
 * | Verb | Path | Method | Name |
 * |---|---|---|---|
 * | GET | /posts | index | posts.index |
 * | GET | /posts/create | create | posts.create |
 * | POST | /posts | store | posts.store |
 * | GET | /posts/:id | show | posts.show |
 * | GET | /posts/:id/edit | edit | posts.edit |
 * | PUT, PATCH | /posts/:id | update | posts.update |
 * | DELETE | /posts/:id | destroy | posts.destroy |
 *
 * `/posts/create` beats `/posts/:id` because a static route always beats a dynamic one (ROUTING.md §3).
 */
import type { ControllerClass } from '../core/handler.js';

/** One of the seven actions `resource()` can register: `index`, `create`, `store`, `show`, `edit`, `update`, `destroy`. */
export type ResourceAction = 'index' | 'create' | 'store' | 'show' | 'edit' | 'update' | 'destroy';

/**
 * Options of `resource()`: which actions to register, the parameter's name and the routes' name prefix.
 *
 * @example
 * app.resource('/posts', PostController, { only: ['index', 'show'], parameter: 'post' });
 */
export interface ResourceOptions {
  /** Register only these actions. */
  only?: readonly ResourceAction[];
  /** Register every action but these. */
  except?: readonly ResourceAction[];
  /** The parameter name (default `id`); `{ parameter: 'post' }` gives `/posts/{post}` for `app.bind('post', …)`. */
  parameter?: string;
  /** The name prefix (default: the uri's static segments joined by dots, `/admin/posts` → `admin.posts`). */
  name?: string;
}

/** One resource route to register: `Registrar.resource` registers it, so this module needs no registrar. */
export interface ResourceRoute {
  methods: readonly string[];
  path: string;
  action: ResourceAction;
  /** The route name, `posts.show`. */
  name: string;
}

const ACTIONS: readonly { action: ResourceAction; methods: string[]; suffix: string }[] = [
  { action: 'index', methods: ['GET'], suffix: '' },
  { action: 'create', methods: ['GET'], suffix: '/create' },
  { action: 'store', methods: ['POST'], suffix: '' },
  { action: 'show', methods: ['GET'], suffix: '/{param}' },
  { action: 'edit', methods: ['GET'], suffix: '/{param}/edit' },
  { action: 'update', methods: ['PUT', 'PATCH'], suffix: '/{param}' },
  { action: 'destroy', methods: ['DELETE'], suffix: '/{param}' },
];

/** The routes `resource(uri, controller, options)` registers, in registration order. */
export function resourceRoutes(
  uri: string,
  controller: ControllerClass,
  options: ResourceOptions = {},
): ResourceRoute[] {
  if (typeof controller !== 'function')
    throw new TypeError(`resource(${uri}): the controller must be a class`);
  const base = uri.replace(/\/+$/, '');
  const parameter = options.parameter ?? 'id';
  const prefix =
    options.name ??
    base
      .split('/')
      .filter((s) => s !== '' && !s.startsWith(':') && !s.startsWith('{'))
      .join('.');
  const routes: ResourceRoute[] = [];
  for (const { action, methods, suffix } of ACTIONS) {
    if (options.only !== undefined && !options.only.includes(action)) continue;
    if (options.except?.includes(action)) continue;
    if (!hasMethod(controller, action)) continue;
    const path = base + suffix.replace('{param}', `:${parameter}`);
    routes.push({ methods, path: path === '' ? '/' : path, action, name: `${prefix}.${action}` });
  }
  return routes;
}

function hasMethod(controller: ControllerClass, method: string): boolean {
  const asRecord = controller as unknown as Record<string, unknown>;
  const proto = controller.prototype as Record<string, unknown> | undefined;
  return typeof asRecord[method] === 'function' || typeof proto?.[method] === 'function';
}
