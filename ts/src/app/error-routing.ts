/**
 * Which `onError` / `notFound` handler answers a request, and calling it safely. A matched route takes the
 * handler of its nearest group that has one, else the application's; a request no route matched takes the
 * innermost group whose prefix its path falls under (found with a router of the groups' prefixes, built on
 * the first such request), else the application's. A handler that throws, rejects or returns no Response
 * leaves the default answer, and its failure is logged once.
 */
import {
  defaultErrorAnswer,
  type ErrorAnswers,
  type FailedRequest,
  isFailure,
  logFailure,
  pathOf,
} from '../core/answers.js';
import {
  asError,
  type ErrorHandler,
  type ErrorHandlers,
  type NotFoundHandler,
} from '../core/error-handlers.js';
import { ARBOR_ERRORS, errorBody, HttpError } from '../core/errors.js';
import { describe } from '../core/middleware.js';
import type { Outcome } from '../core/outcome.js';
import type { Request } from '../core/request.js';
import { Response } from '../core/response.js';
import { Router } from '../router/index.js';
import { joinPath } from '../routing/registrar.js';
import type { RouteGroup } from '../routing/route-registration.js';

/** A group that was given handlers, as the application lists them. */
export interface AnsweringGroup extends RouteGroup {
  /** How deep it is nested (0: a group of the application). */
  readonly depth: number;
}

export class ErrorRouting {
  readonly #app: ErrorHandlers;
  readonly #groups: () => readonly AnsweringGroup[];
  readonly #state: ErrorAnswers;
  /** The groups' prefixes, for requests no route matched; built on first use, `null` again when they change. */
  #byPrefix: Router<AnsweringGroup> | null = null;

  constructor(app: ErrorHandlers, groups: () => readonly AnsweringGroup[], state: ErrorAnswers) {
    this.#app = app;
    this.#groups = groups;
    this.#state = state;
  }

  /** A group was given handlers: the prefix router is built again. */
  groupsChanged(): void {
    this.#byPrefix = null;
  }

  /**
   * The answer to `error`, thrown while serving `req` (on the route `group` belongs to, when one matched:
   * `matched` says whether one did).
   */
  failed(
    error: unknown,
    req: Request,
    matched: boolean,
    group: RouteGroup | null,
    failed: FailedRequest,
  ): Outcome {
    const scope = matched ? group : this.#groupOf(failed.path);
    const handler = scope?.onErrorSetting ?? this.#app.onError;
    if (isFailure(error)) logFailure(this.#state, error, failed);
    if (handler === null) return defaultErrorAnswer(this.#state.errors, error, pathOf(failed));
    return this.#call(handler, error, req, failed, (res) => handler(asError(error), req, res));
  }

  /** The answer to a request no route (nor the fallback) took: `notFound`, else `onError` with a 404. */
  notFound(req: Request, failed: FailedRequest): Outcome {
    const message = `No route for ${failed.method} ${pathOf(failed)}`;
    const scope = this.#groupOf(failed.path);
    const notFound: NotFoundHandler | null = scope?.notFoundSetting ?? this.#app.notFound;
    // Nobody answers it but the default, in the default shape: no Error is built (capturing its stack was
    // half of an unmatched request's cost).
    if (
      notFound === null &&
      (scope?.onErrorSetting ?? this.#app.onError) === null &&
      this.#state.errors === ARBOR_ERRORS
    )
      return new Response().status(404).json(errorBody(404, message));
    const error = new HttpError(404, message);
    if (notFound === null) return this.failed(error, req, false, scope, failed);
    return this.#call(notFound, error, req, failed, (res) => notFound(req, res));
  }

  /** Calls a handler; what it answers, or the default answer to `error` if it fails. */
  #call(
    handler: ErrorHandler | NotFoundHandler,
    error: unknown,
    req: Request,
    failed: FailedRequest,
    call: (res: Response) => Response | Promise<Response>,
  ): Outcome {
    const label = handler.name || '<closure>';
    const fail = (thrown: unknown): Response => {
      logFailure(this.#state, thrown, { ...failed, path: `${failed.path} (in error handler ${label})` });
      return defaultErrorAnswer(this.#state.errors, error, pathOf(failed));
    };
    const checked = (result: unknown): Response =>
      result instanceof Response
        ? result
        : fail(new TypeError(`error handler ${label} returned ${describe(result)} instead of a Response`));
    let result: unknown;
    try {
      result = call(new Response(req));
    } catch (thrown) {
      return fail(thrown);
    }
    if (typeof (result as PromiseLike<unknown> | null)?.then === 'function')
      return Promise.resolve(result).then(checked, fail);
    return checked(result);
  }

  #groupOf(path: string): AnsweringGroup | null {
    const groups = this.#groups();
    if (groups.length === 0) return null;
    this.#byPrefix ??= prefixRouter(groups);
    return this.#byPrefix.find('GET', path.split('?')[0] ?? path)?.value ?? null;
  }
}

/** `prefix/*` for each group (which also matches `prefix` itself); the deepest first, so it wins a tie. */
function prefixRouter(groups: readonly AnsweringGroup[]): Router<AnsweringGroup> {
  const router = new Router<AnsweringGroup>();
  for (const group of [...groups].sort((a, b) => b.depth - a.depth)) {
    try {
      router.add('GET', joinPath(group.prefix, '*'), group);
    } catch {
      // Two groups with one prefix: the deeper (added first) answers; a prefix ending in a wildcard or a
      // regex block takes no path of its own beyond its routes.
    }
  }
  return router;
}
