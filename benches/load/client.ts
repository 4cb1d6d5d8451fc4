/**
 * The load run's HTTP client: node:http with a keep-alive agent, one request at a time per worker, every
 * answer checked against the statuses its plan allows. Failures are classified, because "the server
 * refused a new connection after close()" and "the server dropped a request it had accepted" are very
 * different findings.
 */
import { type Agent, request } from 'node:http';
import type { PlannedRequest } from './scenario.js';

export type Outcome =
  | { ok: true; status: number; ms: number }
  | { ok: false; status: number; ms: number; reason: 'unexpected-status' | 'truncated-body' }
  | { ok: false; status: 0; ms: number; reason: 'refused' | 'reset' | 'timeout' | 'error'; code: string };

export interface Target {
  host: string;
  port: number;
  agent: Agent;
}

/** Sends one planned request; never rejects. `id` goes out as `X-Load-Id`. */
export function send(target: Target, plan: PlannedRequest, id: number, timeoutMs = 30_000): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const headers: Record<string, string | number> = { ...plan.headers, 'x-load-id': id };
    if (plan.body !== undefined) headers['content-length'] = Buffer.byteLength(plan.body);
    const req = request(
      {
        host: target.host,
        port: target.port,
        agent: target.agent,
        method: plan.method,
        path: plan.path,
        headers,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', () => {});
        res.on('end', () => {
          const ms = performance.now() - started;
          const body = Buffer.concat(chunks);
          const declared = res.headers['content-length'];
          if (plan.method !== 'HEAD' && declared !== undefined && Number(declared) !== body.length) {
            return finish({ ok: false, status, ms, reason: 'truncated-body' });
          }
          if (!plan.expect.includes(status))
            return finish({ ok: false, status, ms, reason: 'unexpected-status' });
          if (plan.onJson && status >= 200 && status < 300 && body.length > 0) {
            try {
              plan.onJson(JSON.parse(body.toString('utf8')));
            } catch {
              return finish({ ok: false, status, ms, reason: 'unexpected-status' });
            }
          }
          finish({ ok: true, status, ms });
        });
        res.on('aborted', () =>
          finish({ ok: false, status, ms: performance.now() - started, reason: 'truncated-body' }),
        );
      },
    );
    req.setTimeout(timeoutMs, () => {
      finish({ ok: false, status: 0, ms: performance.now() - started, reason: 'timeout', code: 'TIMEOUT' });
      req.destroy();
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      const reason =
        code === 'ECONNREFUSED' ? 'refused' : code === 'ECONNRESET' || code === 'EPIPE' ? 'reset' : 'error';
      finish({ ok: false, status: 0, ms: performance.now() - started, reason, code });
    });
    if (plan.body !== undefined) req.end(plan.body);
    else req.end();
  });
}
