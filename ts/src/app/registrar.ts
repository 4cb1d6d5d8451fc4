/**
 * The registration methods shared by `Application` and `Group`: the verbs, `match`, `any`, `group` and
 * `resource`. Each subclass decides what "register" means (the application registers directly; a group
 * prefixes the path and remembers itself for middleware).
 */
import type { Group } from './group.js';
import type { ControllerClass, PatternHandler, RouteHandler } from './handler.js';
import type { Bindings, JoinPath, NoBindings } from './params.js';
import { type ResourceOptions, registerResource } from './resource.js';
import type { Route } from './route.js';

/** The verbs `any()` registers, in the order `Allow` headers list them. */
export const VERBS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * `Prefix` is the group prefix the routes are registered under (`''` for the application) and `B` the
 * bindings' value types: together with each uri they type the handler's `req.param()` and bound values.
 */
export abstract class Registrar<Prefix extends string = '', B extends Bindings = NoBindings> {
  /** @internal */
  protected abstract addRoute(methods: readonly string[], uri: string, handler: RouteHandler): Route;
  /** @internal */
  protected abstract childGroup(prefix: string): Group<string, B>;

  /** @example app.get('/tasks/:id<int>', (req, res) => res.json({ id: req.param('id') })); */
  get<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(['GET'], uri, handler as RouteHandler);
  }

  post<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(['POST'], uri, handler as RouteHandler);
  }

  put<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(['PUT'], uri, handler as RouteHandler);
  }

  patch<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(['PATCH'], uri, handler as RouteHandler);
  }

  delete<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(['DELETE'], uri, handler as RouteHandler);
  }

  options<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(['OPTIONS'], uri, handler as RouteHandler);
  }

  head<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(['HEAD'], uri, handler as RouteHandler);
  }

  /** One route for several verbs. @example app.match(['GET', 'POST'], '/form', handler); */
  match<U extends string>(
    methods: readonly string[],
    uri: U,
    handler: PatternHandler<JoinPath<Prefix, U>, B>,
  ): Route {
    if (methods.length === 0) throw new TypeError(`match(): no methods given for ${uri}`);
    for (const method of methods) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method))
        throw new TypeError(`match(): invalid method ${JSON.stringify(method)}`);
    }
    return this.addRoute(
      methods.map((m) => m.toUpperCase()),
      uri,
      handler as RouteHandler,
    );
  }

  /** Every verb of {@link VERBS}. The uri may end in `*`. @example app.any('/proxy/*', handler); */
  any<U extends string>(uri: U, handler: PatternHandler<JoinPath<Prefix, U>, B>): Route {
    return this.addRoute(VERBS, uri, handler as RouteHandler);
  }

  /**
   * Registers the routes of `callback` under `prefix`. Groups nest (prefixes concatenate) and take
   * middleware: `app.group('/admin', g => { … }).middleware(['auth', 'admin'])`. The prefix's parameters
   * are typed in the group's handlers (`app.group('/orgs/:org', g => g.get('/', (req) => … req.param('org')))`).
   */
  group<P extends string>(
    prefix: P,
    callback: (group: Group<JoinPath<Prefix, P>, B>) => void,
  ): Group<JoinPath<Prefix, P>, B> {
    const group = this.childGroup(prefix) as Group<JoinPath<Prefix, P>, B>;
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
