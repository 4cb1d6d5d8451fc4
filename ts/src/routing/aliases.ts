/**
 * Named middleware: `alias(name, fnOrFactory)` once, then references by name (`'auth'`,
 * `'throttle:60,1'`) on groups and routes. An alias may be registered after the routes that use it: the
 * names are checked when the application gets ready to serve (`app.ready()`, see `middleware-check.ts`),
 * and each reference is resolved once and cached per reference string.
 */
import {
  isMiddlewareFactory,
  type Middleware,
  type MiddlewareFactory,
  type MiddlewareRef,
  parseReference,
} from '../core/middleware.js';

export class MiddlewareAliases {
  readonly #aliases = new Map<string, Middleware | MiddlewareFactory>();
  readonly #resolved = new Map<string, Middleware>();

  set(name: string, fn: Middleware | MiddlewareFactory): void {
    if (name === '' || name.includes(':'))
      throw new TypeError(`invalid middleware alias ${JSON.stringify(name)}`);
    if (typeof fn !== 'function') throw new TypeError(`middleware alias '${name}' must be a function`);
    this.#aliases.set(name, fn);
    this.#resolved.clear();
  }

  has(name: string): boolean {
    return this.#aliases.has(name);
  }

  /** Every alias name, in registration order. */
  names(): string[] {
    return [...this.#aliases.keys()];
  }

  /** The middleware a reference stands for. Throws (→ 500, logged) when the name is unknown. */
  resolve(ref: MiddlewareRef): Middleware {
    if (typeof ref === 'function') return ref;
    const cached = this.#resolved.get(ref);
    if (cached !== undefined) return cached;
    const { name, args } = parseReference(ref);
    const fn = this.#aliases.get(name);
    if (fn === undefined) {
      throw new Error(
        `unknown middleware '${name}' (referenced as '${ref}'); register it with app.alias('${name}', fn)`,
      );
    }
    let middleware: Middleware;
    if (args !== null || isMiddlewareFactory(fn)) {
      const made = (fn as MiddlewareFactory)(...(args ?? []));
      if (typeof made !== 'function')
        throw new TypeError(`middleware factory '${name}' did not return a function`);
      middleware = made;
    } else {
      middleware = fn as Middleware;
    }
    this.#resolved.set(ref, middleware);
    return middleware;
  }
}
