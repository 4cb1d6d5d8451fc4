/**
 * Cookies: the per-request cost of parsing the `Cookie` field and verifying a signed cookie. Arbor's
 * `req.signedCookie` and `req.cookie` (`cookies: { secrets }`) against `@fastify/cookie`'s
 * `request.unsignCookie(request.cookies.session)`, each server signing its own session at `GET /login`
 * before anything is timed, then `GET /me` under the same autocannon load. Reports requests/s and server
 * CPU per request.
 */
import { median } from '../http/stats.js';
import { type CaseContext, environmentOf, rowsOf } from './context.js';
import { fetchAnswer } from './fetch.js';
import { log, orderOf, type Running, startServer, stopServer, Unavailable } from './harness.js';
import { type LoadRun, type LoadSettings, timedLoad } from './load.js';
import { type Checked, Footnotes, pairedRatio, ratio, renderChecks, renderHeader, spread } from './report.js';
import { type MeAnswer, PLAIN_COOKIES, SESSION_USER } from './servers/requests.js';

export interface CookiesSettings extends LoadSettings {
  rounds: number;
}

/** A server ready to be timed: the `Cookie` field that carries the session it signed. */
interface Signed {
  server: Running;
  cookie: string;
}

/** `GET /me` with `cookie`, parsed; a problem when it is not a 200 JSON answer. */
async function me(server: Running, cookie: string): Promise<{ answer: MeAnswer | null; text: string }> {
  const reply = await fetchAnswer(`${server.url}/me`, { cookie });
  const text = reply.body.toString('utf8');
  if (reply.status !== 200) return { answer: null, text: `status ${reply.status}: ${text.slice(0, 200)}` };
  try {
    return { answer: JSON.parse(text) as MeAnswer, text };
  } catch {
    return { answer: null, text: `not JSON: ${text.slice(0, 200)}` };
  }
}

/**
 * Signs in (`GET /login`), then checks that `GET /me` reads the session back and the theme, and that the
 * same session with its value altered (`user-43`, signature kept) reads as absent: a server that read
 * the value without verifying it would pass the first check only.
 */
async function check(server: Running): Promise<{ checked: Checked; cookie: string | null }> {
  const problems: string[] = [];
  const login = await fetchAnswer(`${server.url}/login`);
  const lines = login.headers['set-cookie'] ?? [];
  const pair = lines.map((line) => line.split(';')[0] ?? '').find((p) => p.startsWith('session='));
  if (login.status !== 200 || pair === undefined) {
    problems.push(`GET /login: status ${login.status}, Set-Cookie ${JSON.stringify(lines)}`);
    return { checked: { contender: server.contender, unavailable: null, problems, seen: '' }, cookie: null };
  }
  const cookie = `${pair}; ${PLAIN_COOKIES}`;
  const good = await me(server, cookie);
  if (good.answer?.user !== SESSION_USER || good.answer.theme !== 'dark')
    problems.push(`GET /me answered ${good.text}`);
  const altered = cookie.replace(`session=${SESSION_USER}.`, 'session=user-43.');
  const bad = altered === cookie ? null : await me(server, altered);
  if (bad === null) problems.push(`its session ${pair} is not \`${SESSION_USER}.signature\``);
  else if (bad.answer === null || bad.answer.user !== undefined)
    problems.push(`an altered session answered ${bad.text}`);
  const seen = `session ${pair.length - 'session='.length} chars; /me → ${good.text}; altered → ${bad?.text ?? '—'}`;
  return { checked: { contender: server.contender, unavailable: null, problems, seen }, cookie };
}

export async function runCookies(context: CaseContext, settings: CookiesSettings): Promise<string> {
  const rows = rowsOf('cookies', context);
  const ready: Signed[] = [];
  const started: Running[] = [];
  const checked: Checked[] = [];
  const runs = new Map<string, LoadRun[]>();
  try {
    for (const contender of rows) {
      try {
        const server = await startServer(contender, 'cookies', context.launch, {});
        started.push(server);
        const { checked: result, cookie } = await check(server);
        checked.push(result);
        if (cookie !== null) ready.push({ server, cookie });
      } catch (error) {
        if (!(error instanceof Unavailable)) throw error;
        checked.push({ contender, unavailable: error.message, problems: [], seen: '' });
      }
    }
    for (const c of checked)
      log(
        `cookies: ${c.contender.label}: ${c.unavailable ?? (c.problems.join('; ') || `equivalent; ${c.seen}`)}`,
      );
    for (let round = 0; round < settings.rounds; round++) {
      for (const { server, cookie } of orderOf(ready, round)) {
        const run = await timedLoad(server, '/me', { cookie }, settings);
        runs.set(server.contender.name, [...(runs.get(server.contender.name) ?? []), run]);
        log(
          `cookies round ${round + 1}/${settings.rounds} ${server.contender.label}: ` +
            `${Math.round(run.requestsPerSecond)} req/s, ${run.cpuPerRequest.toFixed(1)} µs CPU/request` +
            (run.failed > 0 ? `, ${run.failed} failed` : ''),
        );
      }
    }
  } finally {
    await Promise.all(started.map(stopServer));
  }

  const notes = new Footnotes();
  const lines = renderHeader({
    title: 'Cookies: Arbor `req.signedCookie` against `@fastify/cookie`',
    kase: 'cookies',
    quick: context.quick,
    description: [
      'Each server runs in its own child process and answers `GET /me` with `{ user, theme }`: `user` the',
      'value of the signed cookie `session` once its signature verifies, `theme` a plain cookie. Arbor',
      "(`cookies: { secrets }`) reads them with `req.signedCookie('session')` and `req.cookie('theme')`;",
      'Fastify with `@fastify/cookie` (`secret`, its defaults: every request’s cookies parsed in an',
      '`onRequest` hook) with `request.unsignCookie(request.cookies.session)`. Both sign with HMAC-SHA256 (Arbor',
      'over name and value, the plugin over the value), so each server signs its own session at `GET /login`',
      'before timing. autocannon sends every request with `Cookie: session=<signed>; theme=dark; a=1; b=2`',
      "from the runner's process, with the same connections and duration for every server; rounds rotate",
      "the servers' order. The server's CPU time (/proc) is read over the timed run.",
    ],
    settings: [
      `${settings.rounds} round(s) × ${settings.duration} s timed after ${settings.warmup} s of warm-up, ` +
        `${settings.connections} connections, no pipelining.`,
    ],
    environment: environmentOf(context, rows, 'autocannon (runner process)'),
    arborSource: context.launch.arborSource,
  });
  const { lines: checkLines, labels } = renderChecks(checked, notes);
  lines.push(...checkLines);
  const anchor = rows.find((c) => c.anchor)?.name ?? 'fastify';
  const anchorRps = (runs.get(anchor) ?? []).map((r) => r.requestsPerSecond);
  const anchorCpu = (runs.get(anchor) ?? []).map((r) => r.cpuPerRequest);
  lines.push(
    '## `GET /me` with a signed session and three plain cookies (median of rounds, range in brackets)',
    '',
    '| Server | req/s | × anchor | × anchor, per round | server CPU µs per request | CPU × anchor (lower is better) | failed requests |',
    '|---|--:|--:|--:|--:|--:|--:|',
  );
  for (const c of checked) {
    const label = labels.get(c.contender.name) ?? c.contender.label;
    const mine = runs.get(c.contender.name) ?? [];
    if (mine.length === 0) {
      lines.push(`| ${label} | not run | | | | | |`);
      continue;
    }
    const rps = mine.map((r) => r.requestsPerSecond);
    const cpu = mine.map((r) => r.cpuPerRequest);
    lines.push(
      `| ${label} | ${spread(rps)} | ${ratio(median(rps), median(anchorRps))} | ${pairedRatio(rps, anchorRps)} | ` +
        `${spread(cpu, 1)} | ${ratio(median(cpu), median(anchorCpu))} | ${mine.reduce((a, r) => a + r.failed, 0)} |`,
    );
  }
  lines.push(
    '',
    '## Notes',
    '',
    '- The figure is the whole request: routing, HTTP and the JSON answer are in it, not the cookies alone.',
    '  Both servers compute one HMAC-SHA256 per request; the rest of the difference is parsing, verifying',
    '  and what each framework costs per request anyway.',
    '- The load generator shares the two cores with the server: requests/s also reflects the client, the',
    "  CPU time per request is the server's alone.",
    ...notes.render(),
    '',
  );
  return lines.join('\n');
}
