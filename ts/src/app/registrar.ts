/**
 * The registration methods shared by `Application` and `Group`: the verbs, `match`, `any`, `group` and
 * `resource`. Each subclass decides what "register" means (the application registers directly; a group
 * prefixes the path and remembers itself for middleware).
 */
import type { Group } from './group.js';
import type { ControllerClass, RouteHandler } from './handler.js';
import { type ResourceOptions, registerResource } from './resource.js';
import type { Route } from './route.js';

/** The verbs `any()` registers, in the order `Allow` headers list them. */
export const VERBS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export abstract class Registrar {
  /** @internal */
  protected abstract addRoute(methods: readonly string[], uri: string, handler: RouteHandler): Route;
  /** @internal */
  protected abstract childGroup(prefix: string): Group;

  /** @example app.get('/tasks/:id<int>', (req, res) => res.json({ id: req.param('id') })); */
  get(uri: string, handler: RouteHandler): Route {
    return this.addRoute(['GET'], uri, handler);
  }

  post(uri: string, handler: RouteHandler): Route {
    return this.addRoute(['POST'], uri, handler);
  }

  put(uri: string, handler: RouteHandler): Route {
    return this.addRoute(['PUT'], uri, handler);
  }

  patch(uri: string, handler: RouteHandler): Route {
    return this.addRoute(['PATCH'], uri, handler);
  }

  delete(uri: string, handler: RouteHandler): Route {
    return this.addRoute(['DELETE'], uri, handler);
  }

  options(uri: string, handler: RouteHandler): Route {
    return this.addRoute(['OPTIONS'], uri, handler);
  }

  head(uri: string, handler: RouteHandler): Route {
    return this.addRoute(['HEAD'], uri, handler);
  }

  /** One route for several verbs. @example app.match(['GET', 'POST'], '/form', handler); */
  match(methods: readonly string[], uri: string, handler: RouteHandler): Route {
    if (methods.length === 0) throw new TypeError(`match(): no methods given for ${uri}`);
    for (const method of methods) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method))
        throw new TypeError(`match(): invalid method ${JSON.stringify(method)}`);
    }
    return this.addRoute(
      methods.map((m) => m.toUpperCase()),
      uri,
      handler,
    );
  }

  /** Every verb of {@link VERBS}. The uri may end in `*`. @example app.any('/proxy/*', handler); */
  any(uri: string, handler: RouteHandler): Route {
    return this.addRoute(VERBS, uri, handler);
  }

  /**
   * Registers the routes of `callback` under `prefix`. Groups nest (prefixes concatenate) and take
   * middleware: `app.group('/admin', g => { … }).middleware(['auth', 'admin'])`.
   */
  group(prefix: string, callback: (group: Group) => void): Group {
    const group = this.childGroup(prefix);
    callback(group);
    return group;
  }

  /**
   * The seven resource routes of the original's table 4.4 (`posts.index`, `posts.create`, `posts.store`,
   * `posts.show`, `posts.edit`, `posts.update` for PUT and PATCH, `posts.destroy`), for the methods the
   * controller has.
   */
  resource(uri: string, controller: ControllerClass, options?: ResourceOptions): Route[] {
    return registerResource(this, uri, controller, options);
  }
}

/** `'/api'` + `'/users'` → `'/api/users'`; `'/api/'` + `'/'` → `'/api'`; `''` + `'x'` → `'/x'`. */
export function joinPath(prefix: string, uri: string): string {
  const head = prefix.replace(/\/+$/, '');
  if (uri === '' || uri === '/') return head === '' ? '/' : head;
  // A whole-path regex block matches from the first character: the prefix goes in front, no slash added.
  if (uri.startsWith('{^')) return `${head}${uri}`;
  return `${head}${uri.startsWith('/') ? '' : '/'}${uri}`;
}
