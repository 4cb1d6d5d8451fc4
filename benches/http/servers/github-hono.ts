/** Hono 4 on @hono/node-server serving the GitHub API table (the `github` mix, see `../github.ts`). */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { githubRoutes } from '../github.js';
import { announce, HOST } from './announce.js';

const app = new Hono();
for (const { method, pattern } of githubRoutes()) {
  app.on(method, pattern, (c) => c.json({ route: pattern, params: c.req.param() }));
}

const server = serve({ fetch: app.fetch, port: 0, hostname: HOST }, () => announce(server as Server));
