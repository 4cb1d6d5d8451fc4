/**
 * A deadline for answering: `app.middleware(timeout(5_000))` for every request, or
 * `.middleware(timeout(500))` on a route or group. When it passes, the client gets a 503 and `req.signal`
 * fires with a `TimeoutError`, so the handler can stop what it waits for; a streamed answer still
 * flowing at the deadline is cut (the client sees a truncated message). Server-Sent Events are exempt
 * from the cut: they are meant to last (their heartbeat keeps them honest).
 *
 * Where several apply (an application's and a route's), the first to pass wins.
 */
import { HttpError } from '../core/errors.js';
import type { Middleware } from '../core/middleware.js';
import { StreamBody } from '../core/response.js';

/** The `timeout` middleware's options. */
export interface TimeoutOptions {
  /** The status answered at the deadline (default 503; 504 suits a gateway). */
  status?: 503 | 504;
}

/**
 * A deadline for answering: when `ms` milliseconds pass without an answer, the client gets a 503 (or
 * `options.status`) and `req.signal` fires with a `TimeoutError`, so the handler can stop what it waits
 * for. A streamed answer still flowing at the deadline is cut; Server-Sent Events are exempt. Where
 * several apply (an application's and a route's), the first to pass wins.
 *
 * @example
 * app.middleware(timeout(5_000));
 * app.get('/report', report).middleware(timeout(500, { status: 504 }));
 */
export function timeout(ms: number, options: TimeoutOptions = {}): Middleware {
  if (!Number.isInteger(ms) || ms <= 0)
    throw new RangeError(`timeout(${String(ms)}): expected a positive whole number of milliseconds`);
  const status = options.status ?? 503;
  return (req, next) => {
    const deadline = Date.now() + ms;
    const reason = () => new DOMException(`No answer within ${ms} ms`, 'TimeoutError');
    return new Promise((resolve, reject) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        req.abort(reason());
        reject(new HttpError(status, `The request took longer than ${ms} ms`));
      }, ms);
      next.handle(req).then(
        (res) => {
          const body = res.getBody();
          if (late) {
            // Nobody will read it: the client already has its 503.
            if (body instanceof StreamBody) body.discard();
            return;
          }
          clearTimeout(timer);
          if (body instanceof StreamBody && !body.live)
            cutAtDeadline(body, deadline - Date.now(), () => req.abort(reason()));
          resolve(res);
        },
        (error: unknown) => {
          if (late) return;
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  };
}

/** Destroys the stream if it is still flowing `remainingMs` from now. */
function cutAtDeadline(body: StreamBody, remainingMs: number, abort: () => void): void {
  const readable = body.readable;
  const timer = setTimeout(
    () => {
      abort();
      readable.destroy(new DOMException('The streamed answer passed its deadline', 'TimeoutError'));
    },
    Math.max(0, remainingMs),
  );
  readable.once('close', () => clearTimeout(timer));
}
