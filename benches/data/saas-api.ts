/**
 * Generates `saas-api.json`: the route table of a project-hosting SaaS API (organisations, projects,
 * repositories, issues, pull requests, pipelines, environments, boards) with one request per route.
 *
 *   node_modules/.bin/tsx benches/data/saas-api.ts          rewrites benches/data/saas-api.json
 *
 * Why a table of our own beside GitHub's: GitHub's API is mostly shallow (two parameters, many static
 * routes); real SaaS APIs nest resources four or five levels deep, so most routes carry 2–5 parameters
 * and a lookup walks several parameter segments. Every route here has 2–5 plain `:name` parameters
 * (syntax every router in the benchmark registers), the same name at the same position, and a few static
 * segments beside a parameter (`issues/search`, `releases/latest`, `branches/default`) as real APIs have.
 * Static routes are defined before the parameter routes they compete with, so definition order,
 * static-first order and specificity select the same route for every request. The requests use values
 * that look real (slugs, numbers, commit SHAs, UUIDs, version tags) and come in a fixed shuffled order;
 * the output is the same on every run and machine (seeded PRNG).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { prng } from '../router/routes.js';

export interface SaasApi {
  source: string;
  note: string;
  count: number;
  routes: { method: string; path: string }[];
  /** `route`: the index in `routes` of the route the request was made for. */
  requests: { method: string; path: string; route: number }[];
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The route patterns, in definition order. */
function routes(): [Method, string][] {
  const out: [Method, string][] = [];
  const add = (path: string, ...methods: Method[]): void => {
    for (const method of methods) out.push([method, path]);
  };
  /** A collection and its items: list and create, then read, update and delete one. */
  const crud = (collection: string, param: string): string => {
    add(collection, 'GET', 'POST');
    add(`${collection}/:${param}`, 'GET', 'PATCH', 'DELETE');
    return `${collection}/:${param}`;
  };

  const org = '/v1/orgs/:org';
  // Organisation level (the organisation itself and its lists have fewer than two parameters: not here).
  const team = `${org}/teams/:team`;
  add(team, 'GET', 'PATCH', 'DELETE');
  add(`${team}/members`, 'GET', 'POST');
  add(`${team}/members/:user`, 'GET', 'PUT', 'DELETE');
  add(`${team}/projects`, 'GET');
  add(`${team}/projects/:project`, 'PUT', 'DELETE');
  const member = `${org}/members/:user`;
  add(member, 'GET', 'PUT', 'DELETE');
  add(`${member}/roles`, 'GET');
  add(`${member}/roles/:role`, 'PUT', 'DELETE');
  add(`${org}/invitations/:invitation`, 'GET', 'DELETE');
  add(`${org}/invitations/:invitation/accept`, 'POST');
  add(`${org}/billing/invoices/:invoice`, 'GET');
  add(`${org}/billing/invoices/:invoice/pdf`, 'GET');
  add(`${org}/billing/subscriptions/:subscription`, 'GET', 'PATCH', 'DELETE');
  add(`${org}/billing/subscriptions/:subscription/items`, 'GET', 'POST');
  add(`${org}/billing/subscriptions/:subscription/items/:item`, 'GET', 'PATCH', 'DELETE');
  add(`${org}/audit-log/:event`, 'GET');
  add(`${org}/api-keys/:key`, 'GET', 'DELETE');
  add(`${org}/api-keys/:key/rotate`, 'POST');
  add(`${org}/sso/providers/:provider`, 'GET', 'PATCH', 'DELETE');
  const orgHook = `${org}/webhooks/:hook`;
  add(orgHook, 'GET', 'PATCH', 'DELETE');
  add(`${orgHook}/deliveries`, 'GET');
  add(`${orgHook}/deliveries/:delivery`, 'GET');
  add(`${orgHook}/deliveries/:delivery/redeliver`, 'POST');

  // Project level.
  const p = `${org}/projects/:project`;
  add(p, 'GET', 'PATCH', 'DELETE');
  add(`${p}/transfer`, 'POST');
  add(`${p}/archive`, 'POST', 'DELETE');
  crud(`${p}/members`, 'user');
  crud(`${p}/labels`, 'label');
  const milestone = crud(`${p}/milestones`, 'milestone');
  add(`${milestone}/issues`, 'GET');

  add(`${p}/issues`, 'GET', 'POST');
  add(`${p}/issues/search`, 'GET');
  add(`${p}/issues/bulk`, 'PATCH');
  const issue = `${p}/issues/:issue`;
  add(issue, 'GET', 'PATCH', 'DELETE');
  const comment = crud(`${issue}/comments`, 'comment');
  add(`${comment}/reactions`, 'GET', 'POST');
  add(`${comment}/reactions/:reaction`, 'DELETE');
  add(`${issue}/labels`, 'GET', 'POST');
  add(`${issue}/labels/:label`, 'DELETE');
  add(`${issue}/assignees`, 'GET', 'POST');
  add(`${issue}/assignees/:user`, 'DELETE');
  add(`${issue}/events`, 'GET');
  add(`${issue}/events/:event`, 'GET');
  add(`${issue}/links`, 'GET', 'POST');
  add(`${issue}/links/:link`, 'GET', 'DELETE');
  add(`${issue}/subscription`, 'GET', 'PUT', 'DELETE');
  add(`${issue}/time-entries`, 'GET', 'POST');
  add(`${issue}/time-entries/:entry`, 'PATCH', 'DELETE');
  add(`${issue}/move`, 'POST');

  const board = crud(`${p}/boards`, 'board');
  const column = crud(`${board}/columns`, 'column');
  const card = crud(`${column}/cards`, 'card');
  add(`${card}/move`, 'POST');

  // Repositories.
  const r = crud(`${p}/repos`, 'repo');
  add(`${r}/branches`, 'GET', 'POST');
  add(`${r}/branches/default`, 'GET', 'PUT');
  const branch = `${r}/branches/:branch`;
  add(branch, 'GET', 'DELETE');
  add(`${branch}/protection`, 'GET', 'PUT', 'DELETE');
  add(`${branch}/commits`, 'GET');
  add(`${r}/commits`, 'GET');
  const commit = `${r}/commits/:sha`;
  add(commit, 'GET');
  add(`${commit}/statuses`, 'GET', 'POST');
  crud(`${commit}/comments`, 'comment');
  add(`${commit}/diff`, 'GET');
  add(`${commit}/checks`, 'GET');
  add(`${commit}/checks/:check`, 'GET');
  add(`${r}/tags`, 'GET', 'POST');
  add(`${r}/tags/:tag`, 'GET', 'DELETE');
  add(`${r}/releases`, 'GET', 'POST');
  add(`${r}/releases/latest`, 'GET');
  const release = `${r}/releases/:release`;
  add(release, 'GET', 'PATCH', 'DELETE');
  add(`${release}/assets`, 'GET', 'POST');
  add(`${release}/assets/:asset`, 'GET', 'DELETE');
  const pull = crud(`${r}/pulls`, 'pull');
  add(`${pull}/merge`, 'GET', 'PUT');
  add(`${pull}/files`, 'GET');
  add(`${pull}/commits`, 'GET');
  const review = crud(`${pull}/reviews`, 'review');
  add(`${review}/submit`, 'POST');
  add(`${review}/dismiss`, 'PUT');
  crud(`${pull}/comments`, 'comment');
  add(`${pull}/reviewers`, 'GET', 'POST');
  add(`${pull}/reviewers/:user`, 'DELETE');
  const hook = crud(`${r}/hooks`, 'hook');
  add(`${hook}/deliveries`, 'GET');
  add(`${hook}/deliveries/:delivery`, 'GET');
  add(`${hook}/deliveries/:delivery/redeliver`, 'POST');
  add(`${hook}/ping`, 'POST');
  add(`${r}/collaborators`, 'GET');
  add(`${r}/collaborators/:user`, 'GET', 'PUT', 'DELETE');
  add(`${r}/collaborators/:user/permission`, 'GET');
  add(`${r}/deploy-keys`, 'GET', 'POST');
  add(`${r}/deploy-keys/:key`, 'GET', 'DELETE');
  add(`${r}/blobs/:sha`, 'GET');
  add(`${r}/trees/:sha`, 'GET');
  add(`${r}/stats/contributors`, 'GET');
  add(`${r}/stats/commit-activity`, 'GET');

  // CI/CD.
  add(`${p}/pipelines`, 'GET', 'POST');
  const pipeline = `${p}/pipelines/:pipeline`;
  add(pipeline, 'GET', 'DELETE');
  add(`${pipeline}/cancel`, 'POST');
  add(`${pipeline}/retry`, 'POST');
  add(`${pipeline}/jobs`, 'GET');
  add(`${pipeline}/jobs/latest`, 'GET');
  const job = `${pipeline}/jobs/:job`;
  add(job, 'GET');
  add(`${job}/log`, 'GET');
  add(`${job}/retry`, 'POST');
  add(`${job}/artifacts`, 'GET');
  add(`${job}/artifacts/:artifact`, 'GET', 'DELETE');
  const env = crud(`${p}/environments`, 'env');
  const deployment = `${env}/deployments/:deployment`;
  add(`${env}/deployments`, 'GET', 'POST');
  add(deployment, 'GET');
  add(`${deployment}/status`, 'GET', 'PUT');
  add(`${deployment}/logs`, 'GET');
  add(`${deployment}/rollback`, 'POST');
  crud(`${env}/variables`, 'variable');
  add(`${env}/secrets`, 'GET');
  add(`${env}/secrets/:secret`, 'GET', 'PUT', 'DELETE');
  add(`${p}/secrets`, 'GET');
  add(`${p}/secrets/:secret`, 'GET', 'PUT', 'DELETE');
  crud(`${p}/variables`, 'variable');

  // Everything else a project has.
  const page = crud(`${p}/wiki/pages`, 'page');
  add(`${page}/revisions`, 'GET');
  add(`${page}/revisions/:revision`, 'GET');
  const snippet = crud(`${p}/snippets`, 'snippet');
  add(`${snippet}/comments/:comment`, 'GET', 'DELETE');
  add(`${p}/analytics/issues`, 'GET');
  add(`${p}/analytics/deployments`, 'GET');
  const flag = crud(`${p}/feature-flags`, 'flag');
  crud(`${flag}/strategies`, 'strategy');
  add(`${p}/registry/repositories`, 'GET');
  const image = `${p}/registry/repositories/:image`;
  add(image, 'GET', 'DELETE');
  add(`${image}/tags`, 'GET');
  add(`${image}/tags/:tag`, 'GET', 'DELETE');
  return out;
}

const ORGS = ['acme', 'globex-corp', 'initech', 'umbrella-labs', 'hooli', 'stark-industries', 'cyberdyne'];
const PROJECTS = ['web-app', 'billing-service', 'mobile-ios', 'data-pipeline', 'design-system', 'infra'];
const REPOS = ['api-gateway', 'frontend', 'auth-service', 'docs', 'terraform-modules', 'sdk-python'];
const USERS = ['jdoe', 'mchen', 'a.kowalski', 'priya-r', 'tanaka_k', 'lfernandez', 'oboateng'];
const BRANCHES = ['main', 'release-2026.11', 'feature-sso-login', 'fix-1432-timeout', 'renovate-deps'];
const ENVS = ['production', 'staging', 'review-482', 'eu-west-1', 'canary'];
const LABELS = ['bug', 'good-first-issue', 'p1', 'needs-triage', 'area-billing'];
const WORDS = ['getting-started', 'oncall-runbook', 'architecture', 'release-process', 'faq'];

/** A value for parameter `name`, as such a request would carry it. */
function value(name: string, rand: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const int = (max: number): string => String(1 + Math.floor(rand() * max));
  const hex = (n: number): string =>
    Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
  const uuid = (): string =>
    `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
  switch (name) {
    case 'org':
      return pick(ORGS);
    case 'project':
      return pick(PROJECTS);
    case 'repo':
      return pick(REPOS);
    case 'user':
      return pick(USERS);
    case 'branch':
      return pick(BRANCHES);
    case 'env':
      return pick(ENVS);
    case 'label':
      return pick(LABELS);
    case 'page':
      return pick(WORDS);
    case 'sha':
      return hex(rand() < 0.3 ? 7 : 40);
    case 'tag':
      return `v${Math.floor(rand() * 4)}.${Math.floor(rand() * 20)}.${Math.floor(rand() * 10)}`;
    case 'image':
      return pick(['api', 'worker', 'web', 'migrations']);
    case 'role':
      return pick(['owner', 'admin', 'developer', 'billing-manager']);
    case 'flag':
      return pick(['new-checkout', 'dark-mode', 'beta-search']);
    case 'variable':
    case 'secret':
      return pick(['DATABASE_URL', 'STRIPE_KEY', 'SENTRY_DSN', 'LOG_LEVEL']);
    case 'provider':
      return pick(['okta', 'azure-ad', 'google']);
    case 'issue':
    case 'pull':
    case 'milestone':
      return int(20_000);
    case 'invitation':
    case 'subscription':
    case 'delivery':
    case 'event':
    case 'key':
      return uuid();
    default:
      return int(10_000_000);
  }
}

export function generate(): SaasApi {
  const rand = prng(0x5aa5);
  const defs = routes();
  const requests = defs.map(([method, pattern], route) => ({
    method,
    path: pattern.replace(/:(\w+)/g, (_, name: string) => value(name, rand)),
    route,
  }));
  // A fixed shuffle (Fisher–Yates): requests do not arrive grouped by resource.
  for (let i = requests.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [requests[i], requests[j]] = [
      requests[j] as (typeof requests)[number],
      requests[i] as (typeof requests)[number],
    ];
  }
  for (const [method, path] of defs) {
    const params = path.match(/:\w+/g)?.length ?? 0;
    if (params < 2 || params > 5) throw new Error(`${method} ${path} has ${params} parameters, not 2–5`);
  }
  return {
    source: 'generated by benches/data/saas-api.ts (deterministic; rerun it to regenerate this file)',
    note: 'a project-hosting SaaS API: every route has 2–5 plain :name parameters; one request per route, shuffled',
    count: defs.length,
    routes: defs.map(([method, path]) => ({ method, path })),
    requests,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = fileURLToPath(new URL('saas-api.json', import.meta.url));
  const api = generate();
  writeFileSync(file, `${JSON.stringify(api, null, 1)}\n`);
  console.log(`wrote ${file}: ${api.count} routes, ${api.requests.length} requests`);
}
