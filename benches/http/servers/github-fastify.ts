/** Fastify 5 serving the GitHub API table (the `github` mix, see `../github.ts`), defaults otherwise. */
import Fastify, { type HTTPMethods } from 'fastify';
import { githubRoutes } from '../github.js';
import { announce, HOST } from './announce.js';

const app = Fastify({ logger: false });
for (const { method, pattern } of githubRoutes()) {
  // A synchronous handler with reply.send: Fastify's quickest form (no promise per request).
  app.route({
    method: method as HTTPMethods,
    url: pattern,
    handler: (req, reply) => {
      reply.send({ route: pattern, params: req.params });
    },
  });
}

await app.listen({ port: 0, host: HOST });
announce(app.server);
