/** Arbor serving the GitHub API table (the `github` mix, see `../github.ts`). */
import { githubRoutes } from '../github.js';
import { announce, HOST } from './announce.js';

type AppModule = typeof import('../../../ts/src/app/index.js');

// As in arbor.ts: tsc's output when run.ts finds dist/ up to date, else the sources through tsx.
const fromDist = process.env.ARBOR_BENCH_FROM === 'dist';
const { Application, consoleLogger } = (
  fromDist
    ? await import(new URL('../../../dist/ts/src/app/index.js', import.meta.url).href)
    : await import('../../../ts/src/app/index.js')
) as AppModule;

// Specificity order (SPEC §3.2), as find-my-way under Fastify: in definition order 25 of GitHub's routes
// sit behind an earlier parameter route (`/gists/:gist_id/:sha` before `/gists/:gist_id/star`) and could
// never be reached.
const app = new Application({
  order: 'specificity',
  port: 0,
  host: HOST,
  logger: { ...consoleLogger, info: () => {} },
});
for (const { method, pattern } of githubRoutes()) {
  app.match([method], pattern, (req, res) => res.json({ route: pattern, params: req.params() }));
}

const server = app.run();
server.once('listening', () => announce(server));
