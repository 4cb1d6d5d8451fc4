/**
 * What the request pipeline hands on: a response now, or later, and the helpers that keep it synchronous
 * for as long as every step is.
 */
import { Response } from './response.js';

/**
 * A response now, or later. The pipeline stays synchronous for as long as every step is — no body to
 * read, no async middleware, resolver or handler — because each `await` on the way costs a microtask
 * turn per request, which at HTTP-benchmark rates is a measurable share of the time.
 */
export type Outcome = Response | Promise<Response>;

export const isPromise = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | null)?.then === 'function';

/**
 * Continues with `next` now for a plain value, or after the promise settles. (Not named `then`: a module
 * that exports `then` is a thenable, and `await import()` of it would call it.)
 */
export function andThen<T>(value: T | PromiseLike<T>, next: (value: T) => Outcome): Outcome {
  return isPromise(value) ? Promise.resolve(value).then(next) : next(value);
}

/** Runs `step`, turning what it throws (now or later) into `onError`'s response. */
export function guarded(step: () => Outcome, onError: (error: unknown) => Outcome): Outcome {
  try {
    const outcome = step();
    return outcome instanceof Response ? outcome : outcome.catch(onError);
  } catch (error) {
    return onError(error);
  }
}
