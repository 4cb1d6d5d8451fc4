/**
 * What runs once every middleware has let a request through to its route: the body is read, checked
 * against the route's contract, the bound parameters are resolved, and the handler is called.
 */
import { HttpError } from '../core/errors.js';
import type { ResolvedHandler } from '../core/handler.js';
import { describe } from '../core/middleware.js';
import { isPromise, type Outcome } from '../core/outcome.js';
import type { Request } from '../core/request.js';
import { Response } from '../core/response.js';
import type { BindingResolver, RouteContext } from '../routing/route-context.js';
import type { RouteValidation } from '../validation/validation.js';
import { handlerChannel, traceHandler } from './tracing.js';

/** No bound parameters: the handler gets `(req, res)` only. */
export const NO_BOUND: readonly unknown[] = [];
const NO_BINDERS: readonly (readonly [string, BindingResolver])[] = [];

/** What runs once every middleware has let the request through: the body, its check, then the handler. */
export function afterMiddleware(
  context: RouteContext,
  checkRequest: RouteValidation['checkRequest'],
  req: Request,
  res: Response,
): Outcome {
  const loading = req.loadBody();
  if (loading !== undefined) return loading.then(() => checkThenCall(context, checkRequest, req, res));
  return checkThenCall(context, checkRequest, req, res);
}

function checkThenCall(
  context: RouteContext,
  checkRequest: RouteValidation['checkRequest'],
  req: Request,
  res: Response,
): Outcome {
  const refused = checkRequest === null ? null : checkRequest(req);
  if (refused instanceof Promise) return refused.then((answer) => answer ?? bindAndCall(context, req, res));
  return refused ?? bindAndCall(context, req, res);
}

/** Resolves the route's bound parameters (404 when a resolver finds nothing), then calls the handler. */
function bindAndCall(context: RouteContext, req: Request, res: Response): Outcome {
  const binders = context.binders ?? NO_BINDERS;
  if (binders.length === 0) return callHandler(context.handler, req, res, NO_BOUND);
  return (async () => {
    const bound: unknown[] = [];
    for (const [name, resolver] of binders) {
      const raw = req.param(name);
      const value = raw === undefined ? undefined : await resolver(raw, req);
      if (raw !== undefined && (value === null || value === undefined)) throw new HttpError(404, 'Not Found');
      bound.push(value);
    }
    return callHandler(context.handler, req, res, bound);
  })();
}

export function callHandler(
  handler: ResolvedHandler,
  req: Request,
  res: Response,
  bound: readonly unknown[],
): Outcome {
  // `arbor.request.handler` events only when subscribed (tracing.ts).
  if (handlerChannel.hasSubscribers) return traceHandler(req, () => invoke(handler, req, res, bound));
  return invoke(handler, req, res, bound);
}

function invoke(handler: ResolvedHandler, req: Request, res: Response, bound: readonly unknown[]): Outcome {
  const result = bound.length === 0 ? handler.call(req, res) : handler.call(req, res, ...bound);
  if (isPromise(result)) return Promise.resolve(result).then((value) => handlerResult(handler, res, value));
  return handlerResult(handler, res, result);
}

/** What a handler returned: `res` (nothing returned) or a Response; anything else is a mistake. */
function handlerResult(handler: ResolvedHandler, res: Response, result: unknown): Response {
  if (result === undefined) return res;
  if (result instanceof Response) return result;
  throw new TypeError(
    `handler ${handler.location ?? ''} returned ${describe(result)} instead of a Response: return the \`res\` you were given (e.g. \`return res.json(data)\`), or nothing`,
  );
}
