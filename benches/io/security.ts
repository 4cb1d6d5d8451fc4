/**
 * Security middleware: the per-request cost of the stack a browser-facing application switches on — secure
 * headers, CORS for a credentialed origin, and a session read from the memory store — on one route.
 * Arbor's `secureHeaders()`, `cors()` and `session()` against Fastify with `@fastify/helmet`,
 * `@fastify/cors` and `@fastify/session`, each server making its own session at `GET /login` before
 * anything is timed, then `GET /me` (with the session cookie and an allowed `Origin`) under the same
 * autocannon load. Reports requests/s, server CPU per request, and which headers each stack sends.
 *
 * Hono has `secure-headers` and `cors` but no session middleware of its own (only third-party ones), so
 * it has no row here.
 */
import { median } from '../http/stats.js';
import { type CaseContext, environmentOf, rowsOf } from './context.js';
import { type Answer, fetchAnswer } from './fetch.js';
import { log, orderOf, type Running, startServer, stopServer, Unavailable } from './harness.js';
import { type LoadRun, type LoadSettings, timedLoad } from './load.js';
import { type Checked, Footnotes, pairedRatio, ratio, renderChecks, renderHeader, spread } from './report.js';
import { PAGE_ORIGIN, SESSION_USER, type SessionAnswer } from './servers/requests.js';

export interface SecuritySettings extends LoadSettings {
  rounds: number;
}

/** A server ready to be timed: the headers of a request carrying its session, and its answer's header names. */
interface Ready {
  server: Running;
  headers: Record<string, string>;
  names: string[];
}

/**
 * Headers every stack must send on `GET /me`, with the value expected (null: present, any value).
 * `Strict-Transport-Security` is not among them: helmet sends it on every answer, Arbor only over HTTPS
 * (a browser ignores it over plain HTTP), so over the loopback's HTTP only Fastify sends it.
 */
const EXPECTED: Record<string, string | null> = {
  'content-security-policy': null,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'access-control-allow-origin': PAGE_ORIGIN,
  'access-control-allow-credentials': 'true',
};

/** Headers that say nothing about the stacks (framing, date, the body's type and size). */
const FRAMING = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'content-type',
  'transfer-encoding',
]);

async function me(
  server: Running,
  headers: Record<string, string>,
): Promise<{ reply: Answer; user: string | undefined; text: string }> {
  const reply = await fetchAnswer(`${server.url}/me`, headers);
  const text = reply.body.toString('utf8');
  let user: string | undefined;
  try {
    user = (JSON.parse(text) as SessionAnswer).user;
  } catch {
    user = undefined;
  }
  return { reply, user, text: `status ${reply.status}: ${text.slice(0, 200)}` };
}

/**
 * Signs in (`GET /login`), then checks that `GET /me` reads the user back from the session with the
 * expected headers (helmet's, and CORS for the allowed origin), and that the session cookie with a
 * character of its id changed reads as no session: a server that skipped the session (or its signature)
 * would pass the first check only.
 */
async function check(server: Running): Promise<{ checked: Checked; ready: Ready | null }> {
  const problems: string[] = [];
  const login = await fetchAnswer(`${server.url}/login`, { origin: PAGE_ORIGIN });
  const pairs = (login.headers['set-cookie'] ?? []).map((line) => line.split(';')[0] ?? '');
  const unseen = { contender: server.contender, unavailable: null, seen: '' };
  if (login.status !== 200 || pairs.length === 0) {
    problems.push(
      `GET /login: status ${login.status}, Set-Cookie ${JSON.stringify(login.headers['set-cookie'])}`,
    );
    return { checked: { ...unseen, problems }, ready: null };
  }
  const headers = { cookie: pairs.join('; '), origin: PAGE_ORIGIN };
  const good = await me(server, headers);
  if (good.reply.status !== 200 || good.user !== SESSION_USER) problems.push(`GET /me answered ${good.text}`);
  for (const [name, value] of Object.entries(EXPECTED)) {
    const sent = good.reply.headers[name];
    if (sent === undefined || (value !== null && sent !== value))
      problems.push(`GET /me: ${name} is ${JSON.stringify(sent)}, expected ${value ?? 'one'}`);
  }
  // The id's last character before its signature changed: the cookie no longer verifies.
  const first = pairs[0] as string;
  const eq = first.indexOf('=');
  const altered = `${first.slice(0, eq + 2)}${first[eq + 2] === 'A' ? 'B' : 'A'}${first.slice(eq + 3)}`;
  const bad = await me(server, { ...headers, cookie: [altered, ...pairs.slice(1)].join('; ') });
  if (bad.reply.status !== 200 || bad.user !== undefined)
    problems.push(`an altered session answered ${bad.text}`);
  const names = Object.keys(good.reply.headers)
    .filter((name) => !FRAMING.has(name))
    .sort();
  const seen = `cookie ${pairs.map((p) => p.slice(0, p.indexOf('='))).join(', ')}; /me → ${good.text}; altered → ${bad.text}`;
  return {
    checked: { ...unseen, problems, seen },
    ready: problems.length === 0 ? { server, headers, names } : null,
  };
}

export async function runSecurity(context: CaseContext, settings: SecuritySettings): Promise<string> {
  const rows = rowsOf('security', context);
  const ready: Ready[] = [];
  const started: Running[] = [];
  const checked: Checked[] = [];
  const runs = new Map<string, LoadRun[]>();
  try {
    for (const contender of rows) {
      try {
        const server = await startServer(contender, 'security', context.launch, {});
        started.push(server);
        const result = await check(server);
        checked.push(result.checked);
        if (result.ready !== null) ready.push(result.ready);
      } catch (error) {
        if (!(error instanceof Unavailable)) throw error;
        checked.push({ contender, unavailable: error.message, problems: [], seen: '' });
      }
    }
    for (const c of checked)
      log(
        `security: ${c.contender.label}: ${c.unavailable ?? (c.problems.join('; ') || `equivalent; ${c.seen}`)}`,
      );
    for (let round = 0; round < settings.rounds; round++) {
      for (const { server, headers } of orderOf(ready, round)) {
        const run = await timedLoad(server, '/me', headers, settings);
        runs.set(server.contender.name, [...(runs.get(server.contender.name) ?? []), run]);
        log(
          `security round ${round + 1}/${settings.rounds} ${server.contender.label}: ` +
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
    title: 'Security middleware: Arbor `secureHeaders` + `cors` + `session` against Fastify’s plugins',
    kase: 'security',
    quick: context.quick,
    description: [
      'Each server runs in its own child process with three middleware on every route: secure headers',
      "with helmet's defaults, CORS allowing one origin with credentials, and sessions in the memory store.",
      'Arbor: `secureHeaders()`, `cors({ origin: [origin], credentials: true })`, `session()`; Fastify:',
      '`@fastify/helmet`, `@fastify/cors` with the same options, `@fastify/cookie` and `@fastify/session`',
      "(its README's setup). Both session cookies are signed with HMAC-SHA256 and left without `Secure`",
      '(plain HTTP on loopback). Each server makes its own session at `GET /login` before timing;',
      'autocannon then sends `GET /me` with that session cookie and `Origin: https://app.example`, and',
      'each server answers `{ user }` read from the session. The same connections and duration for every',
      "server; rounds rotate the servers' order. The server's CPU time (/proc) is read over the timed run.",
      'Hono has `secure-headers` and `cors` but no session middleware of its own: it has no row.',
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
    '## `GET /me` behind secure headers, CORS and a session read (median of rounds, range in brackets)',
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
  lines.push('', '## The headers each stack sends on `GET /me`', '');
  lines.push('| Server | Headers (framing aside) |', '|---|---|');
  for (const { server, names } of ready)
    lines.push(
      `| ${labels.get(server.contender.name) ?? server.contender.label} | ${names.map((n) => `\`${n}\``).join(', ')} |`,
    );
  const anchorNames = new Set(ready.find((r) => r.server.contender.name === anchor)?.names ?? []);
  const differences = ready
    .filter((r) => r.server.contender.name !== anchor)
    .map((r) => {
      const own = new Set(r.names);
      const only = r.names.filter((n) => !anchorNames.has(n));
      const missing = [...anchorNames].filter((n) => !own.has(n));
      return `- ${r.server.contender.label}: ${only.length === 0 ? 'no header Fastify does not send' : `also ${only.join(', ')}`}; ${missing.length === 0 ? 'every header Fastify sends' : `not ${missing.join(', ')}`}.`;
    });
  lines.push('', ...differences);
  lines.push(
    '',
    '## Notes',
    '',
    "- Both stacks compute helmet's headers with helmet's defaults (Arbor's through helmet itself). They",
    '  differ in `Strict-Transport-Security`: `@fastify/helmet` sends it on every answer, Arbor only on one',
    '  that came over HTTPS (a browser ignores it over plain HTTP), so over this plain-HTTP loopback Fastify',
    '  writes one header more. The other differences are in the table above.',
    "- A session read differs in what each writes back: Arbor's `session()` is rolling by default (the",
    '  store entry touched and the cookie sent again on each request that uses the session);',
    '  `@fastify/session` (defaults: `rolling: true`, `saveUninitialized: true`) sends the cookie again and',
    '  saves the session when it changed.',
    '- The figure is the whole request: routing, HTTP and the JSON answer are in it, not the middleware alone.',
    '- The load generator shares the two cores with the server: requests/s also reflects the client, the',
    "  CPU time per request is the server's alone.",
    ...notes.render(),
    '',
  );
  return lines.join('\n');
}
