/** Express 5 serving the GitHub API table (the `github` mix, see `../github.ts`), defaults otherwise. */
import { createServer } from 'node:http';
import express from 'express';
import { githubRoutes } from '../github.js';
import { announce, HOST } from './announce.js';

const app = express();
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
for (const { method, pattern } of githubRoutes()) {
  app[method.toLowerCase() as Method](pattern, (req, res) => {
    res.json({ route: pattern, params: req.params });
  });
}

const server = createServer(app);
server.listen(0, HOST, () => announce(server));
