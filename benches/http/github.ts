/**
 * The `github` workload: GitHub's REST API as a route table (516 routes of medley's router benchmark,
 * `benches/data/medley-github-api.json`, the table `benches/router` times routers on) served over HTTP.
 * Every server registers all 516 routes, each answering `{ route, params }` — its pattern and the
 * parameters the framework extracted — and the load generator cycles through the data set's real request
 * URLs, one per route, with their methods (GET, POST, PUT, PATCH, DELETE; no bodies).
 *
 * Routers that pick by specificity (find-my-way under Fastify) and by definition order (Arbor, Hono,
 * Express) answer a few of these URLs with different routes (a static segment against a parameter), so the
 * checks ask what every correct answer has in common: a 200 with JSON whose parameter values are segments
 * of the requested path, and the intended route's parameters for the URLs where no other route competes.
 */
import { readFileSync } from 'node:fs';

export interface GithubRoute {
  method: string;
  /** `:name` parameters (several in one segment for `compare/:base...:head`): the syntax of every server here. */
  pattern: string;
  /** A real URL for this route. */
  request: string;
}

const DATA = new URL('../data/medley-github-api.json', import.meta.url);

export function githubRoutes(): GithubRoute[] {
  const data = JSON.parse(readFileSync(DATA, 'utf8')) as {
    routes: { method: string; path: string; request: string }[];
  };
  return data.routes.map((r) => ({ method: r.method, pattern: r.path, request: r.request }));
}

/** What every server answers for a matched route. */
export interface GithubAnswer {
  route: string;
  params: Record<string, string>;
}

/** Checks a fresh server on every URL of the table; returns the failures (empty: conforming). */
export async function checkGithubConformance(base: string): Promise<string[]> {
  const failures: string[] = [];
  const routes = githubRoutes();
  let offRoute = 0;
  for (const route of routes) {
    const response = await fetch(base + route.request, { method: route.method });
    const text = await response.text();
    const label = `${route.method} ${route.request}`;
    if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('application/json')) {
      failures.push(`${label}: ${response.status} ${text.slice(0, 100)}`);
      continue;
    }
    let answer: GithubAnswer;
    try {
      answer = JSON.parse(text) as GithubAnswer;
    } catch {
      failures.push(`${label}: not JSON: ${text.slice(0, 100)}`);
      continue;
    }
    const values = Object.values(answer.params ?? {});
    if (values.some((v) => typeof v !== 'string' || v === '' || !route.request.includes(v))) {
      failures.push(`${label}: parameters ${JSON.stringify(answer.params)} are not parts of the path`);
      continue;
    }
    if (answer.route !== route.pattern) {
      offRoute++;
      continue;
    }
    const expected = expectedParams(route);
    for (const [name, value] of Object.entries(expected)) {
      if (answer.params[name] !== value) {
        failures.push(`${label}: ${name} = ${JSON.stringify(answer.params[name])}, expected ${value}`);
      }
    }
  }
  // Definition order and specificity disagree on a few dozen URLs at most; more means a broken router.
  if (offRoute > 40) failures.push(`${offRoute} URLs answered by another route than their own`);
  return failures;
}

/** The parameters of `route.request` under its own pattern. */
function expectedParams(route: GithubRoute): Record<string, string> {
  const names: string[] = [];
  const source = route.pattern
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/:(\w+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+?)';
    });
  const match = new RegExp(`^${source}$`).exec(route.request);
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    params[name] = match?.[i + 1] ?? '';
  });
  return params;
}
