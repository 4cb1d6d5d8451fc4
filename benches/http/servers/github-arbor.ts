/** Arbor serving the GitHub API table (the `github` mix, see `../github.ts`). */
import { githubRoutes } from '../github.js';
import { announce, HOST } from './announce.js';

type AppModule = typeof import('../../../ts/src/app/index.js');
type ReferenceModule = typeof import('../../../tests/support/reference-engine/index.js');

// As in arbor.ts: tsc's output when run.ts finds dist/ up to date, else the sources through tsx.
const fromDist = process.env.ARBOR_BENCH_FROM === 'dist';
const dist = (path: string) => new URL(`../../../dist/${path}`, import.meta.url).href;
const { Application, consoleLogger } = (
  fromDist ? await import(dist('ts/src/bundle/index.js')) : await import('../../../ts/src/app/index.js')
) as AppModule;
// `--arbor-engine reference` (env ARBOR_BENCH_ENGINE), as in arbor.ts: the TypeScript reference engine,
// to tell the engine's share of a request from the rest of the serving path.
const engine =
  process.env.ARBOR_BENCH_ENGINE === 'reference'
    ? {
        engine: (
          (fromDist
            ? await import(dist('tests/support/reference-engine/index.js'))
            : await import('../../../tests/support/reference-engine/index.js')) as ReferenceModule
        ).createReferenceEngine,
      }
    : {};

// Specificity order (ROUTING.md §3.2), as find-my-way under Fastify: in definition order 25 of GitHub's routes
// sit behind an earlier parameter route (`/gists/:gist_id/:sha` before `/gists/:gist_id/star`) and could
// never be reached.
// `ARBOR_BENCH_SERVER=arbor` (the `arbor-own` contender): the same application on Arbor's own HTTP/1.1
// server instead of node:http (the default), to see what each server is worth.
const serverChoice = process.env.ARBOR_BENCH_SERVER === 'arbor' ? { server: 'arbor' as const } : {};
const app = new Application({
  ...engine,
  ...serverChoice,
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
