/**
 * Liveness and readiness routes, for a load balancer or an orchestrator (Kubernetes' probes): liveness
 * answers 200 while the process serves at all; readiness answers 503 from the moment a graceful shutdown
 * begins (a SIGTERM to `run()`, or `close()`), before the server stops accepting, so that traffic goes
 * elsewhere while in-flight requests finish, and while the application's own check fails.
 */
import type { Request } from '../core/request.js';
import type { Response } from '../core/response.js';

/** What readiness reads of the application: `app.shutdown` (an `Application` is one). */
export interface ShutdownSource {
  /** The application's graceful shutdown (`Application.shutdown`). */
  readonly shutdown: ShutdownState;
}

/** A graceful shutdown as readiness reads it. */
export interface ShutdownState {
  /** `true` once the shutdown has begun. */
  readonly began: boolean;
  /** Asks the shutdown to keep serving `ms` before the server stops accepting. */
  delay(ms: number): void;
}

/** Options of {@link health}. */
export interface HealthOptions {
  /**
   * Readiness is also 503 while this says `false` (or throws, or rejects): a database not yet reachable,
   * a cache still warming. Keep it cheap: probes call it every few seconds.
   */
  ready?: () => boolean | Promise<boolean>;
  /**
   * Once shutdown begins, keep serving this many milliseconds (readiness 503, every other route as
   * before) before the server stops accepting: the time a load balancer needs to see the 503 and stop
   * sending. Default 0: the server stops accepting at once, and only requests on connections already
   * open see the 503.
   */
  shutdownDelayMs?: number;
}

/** A route handler of {@link health}. */
export type HealthHandler = (req: Request, res: Response) => Promise<Response>;

/** The two handlers {@link health} returns, to mount where the probes look. */
export interface HealthHandlers {
  /** 200 `{ "status": "ok" }` while the process serves. */
  readonly live: HealthHandler;
  /** 200 `{ "status": "ready" }`; 503 `{ "status": "shutting down" }` or `{ "status": "not ready" }`. */
  readonly ready: HealthHandler;
}

/**
 * Liveness and readiness handlers for `app`; mount them where the probes look.
 *
 * @example
 * const probes = health(app, { shutdownDelayMs: 5_000, ready: () => pool.totalCount > 0 });
 * app.get('/health/live', probes.live);
 * app.get('/health/ready', probes.ready);
 */
export function health(app: ShutdownSource, options: HealthOptions = {}): HealthHandlers {
  const delay = options.shutdownDelayMs ?? 0;
  if (!Number.isFinite(delay) || delay < 0)
    throw new RangeError(`health({ shutdownDelayMs }) takes milliseconds ≥ 0, not ${String(delay)}`);
  if (delay > 0) app.shutdown.delay(delay);
  const check = options.ready;
  const answer = (res: Response, status: number, body: string) =>
    res.status(status).header('Cache-Control', 'no-store').json({ status: body });
  return {
    live: async (_req, res) => answer(res, 200, 'ok'),
    ready: async (_req, res) => {
      if (app.shutdown.began) return answer(res, 503, 'shutting down');
      if (check !== undefined) {
        let ready: boolean;
        try {
          ready = await check();
        } catch {
          ready = false;
        }
        if (!ready) return answer(res, 503, 'not ready');
      }
      return answer(res, 200, 'ready');
    },
  };
}
